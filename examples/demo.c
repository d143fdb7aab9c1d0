/* `make demo`: reproduce the table of the talk "LDS Bank Conflicts on CDNA"
 * (docs/lds-model.md §4.1) from the kernels' descriptors and distributions alone, for gfx942
 * (MI300, 32 banks) and gfx950 (MI355, 64 banks), next to the published
 * rocprofv3 figures; then kernel 08's bank map and kernel 01's worst
 * instruction, so a reader sees why one is clean and the other conflicts. */
#include "seed_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Published (the talk's table, MI300 unless noted; docs/lds-model.md §4.1). -1 = not in the table. */
static const struct {
    int64_t conflicts, insts;
    const char *note; /* printed when the prediction differs */
} published[SEED_KERNEL_COUNT] = {
    {3670016, 294912, NULL},
    {1572864, 294912, NULL},
    {786432, 327680, NULL},
    {-1, -1, NULL},
    {0, 294912, NULL},
    {0, 65536, NULL},
    {0, 294912, "kernel 10's published 0 was measured on MI355 (its source says so), not MI300"},
};

static void die(const char *what, const layout_error *err)
{
    fprintf(stderr, "demo: %s: %s\n", what, err->message);
    exit(1);
}

/* 1234567 -> "1,234,567" */
static const char *commas(int64_t v, char *buf)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%lld", (long long)(v < 0 ? -v : v)), o = 0;
    if (v < 0) buf[o++] = '-';
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

static void check_kernel(const layout_arch *arch, seed_kernel_id id, seed_kernel *k, layout_kernel_result *r)
{
    layout_error err;
    if (seed_kernel_build(k, id, arch->n_banks, &err)) die("seed_kernel_build", &err);
    layout_kernel_spec spec = seed_kernel_spec(k);
    if (layout_check_kernel(arch, &spec, r, &err)) die("layout_check_kernel", &err);
}

static void print_table(const layout_arch *g942, const layout_arch *g950)
{
    static seed_kernel k;
    char a[32], b[32], c[32], d[32], e[32], f[32];
    const char *rule = "-----------------------------------------------------------------------------------------"
                       "---------------------------------------------------------";
    printf("%-18s %-33s %-16s | %-30s | %-26s | %s\n", "", "", "", "gfx942 SQ_LDS_BANK_CONFLICT",
           "gfx942 SQ_INSTS_LDS", "gfx950");
    printf("%-18s %-33s %-16s | %11s %11s %-6s | %9s %9s %-6s | %9s %8s\n", "kernel", "LDS write / wave",
           "LDS read / wave", "predicted", "published", "", "predicted", "published", "", "conflicts", "insts");
    printf("%.*s\n", 146, rule);
    for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
        layout_kernel_result r42, r50;
        check_kernel(g942, (seed_kernel_id)i, &k, &r42);
        check_kernel(g950, (seed_kernel_id)i, &k, &r50);
        char label[40];
        snprintf(label, sizeof label, "%s %s", k.id, k.name);
        const char *mc = "", *mi = "";
        if (published[i].conflicts >= 0) {
            mc = r42.sq_lds_bank_conflict == published[i].conflicts ? "ok" : "DIFF*";
            mi = r42.sq_insts_lds == published[i].insts ? "ok" : "DIFF*";
            snprintf(c, sizeof c, "%s", commas(published[i].conflicts, a));
            snprintf(e, sizeof e, "%s", commas(published[i].insts, a));
        } else {
            snprintf(c, sizeof c, "-");
            snprintf(e, sizeof e, "-");
        }
        printf("%-18s %-33s %-16s | %11s %11s %-6s | %9s %9s %-6s | %9s %8s\n", label, r42.write.ops, r42.read.ops,
               commas(r42.sq_lds_bank_conflict, b), c, mc, commas(r42.sq_insts_lds, d), e, mi,
               commas(r50.sq_lds_bank_conflict, f), commas(r50.sq_insts_lds, a));
        if (published[i].note && r42.sq_lds_bank_conflict != published[i].conflicts)
            printf("%-18s * %s; the gfx950 prediction is %s.\n", "", published[i].note,
                   commas(r50.sq_lds_bank_conflict, b));
        if (i == SEED_K04)
            printf("%-18s   not in the talk's table; measured 192 conflict cycles per tile, predicted %lld.\n", "",
                   (long long)r42.extra_cycles_per_tile);
        if (strstr(r42.write.ops, "misaligned"))
            printf("%-18s   ck_tile's b128 store lands on 132-byte row blocks (4-byte aligned): correct code needs "
                   "2 x ds_write2_b32.\n",
                   "");
    }
    printf("\n%lld tiles (M = %d, K = %d) of 64 x 32 fp16, 4 waves of 64 lanes each.  predicted = liblayout "
           "(docs/lds-model.md §2-§3);\npublished = the talk's rocprofv3 counters on MI300 (docs/lds-model.md §4.1).  ok = identical.\n",
           (long long)SEED_TILES, SEED_PROBLEM_M, SEED_PROBLEM_K);
}

/* Bank of every element of kernel 08's 64 x 32 tile (gfx942: 32 banks). */
static void print_bank_map(const layout_arch *arch)
{
    static seed_kernel k;
    layout_error err;
    if (seed_kernel_build(&k, SEED_K08, arch->n_banks, &err)) die("seed_kernel_build", &err);
    printf("\nKernel 08 on %s: bank of each fp16 element of the 64 x 32 tile (row m, column k; "
           "bank = (2*offset/4) %% %d).\nEach 8-element pack sits on 4 consecutive banks; the XOR moves the packs so that "
           "rows sharing banks get different packs.\n",
           arch->name, arch->n_banks);
    printf("  k: ");
    for (int kk = 0; kk < SK_KK; kk += 8) printf(" |%2d%-21s", kk, "");
    printf("\n");
    for (int m = 0; m < SK_KM; m++) {
        printf("m=%2d ", m);
        for (int kk = 0; kk < SK_KK; kk++) {
            int64_t x[2] = {m, kk}, off;
            if (layout_desc_offset(&k.write_desc, x, &off, &err)) die("layout_desc_offset", &err);
            printf("%s%2lld", kk % 8 == 0 ? " |" : " ", (long long)((off * SK_ELEM_BYTES / 4) % arch->n_banks));
        }
        printf("\n");
    }
}

/* The worst instruction of kernel 01 on gfx942: the checker's report of one tile. */
static void print_worst_01(const layout_arch *arch)
{
    static seed_kernel k;
    static layout_instr scratch[64];
    static layout_check_report rep;
    static char text[8192];
    layout_error err;
    if (seed_kernel_build(&k, SEED_K01, arch->n_banks, &err)) die("seed_kernel_build", &err);
    layout_kernel_spec spec = seed_kernel_spec(&k);
    if (layout_kernel_report(arch, &spec, scratch, sizeof scratch / sizeof scratch[0], NULL, &rep, &err))
        die("layout_kernel_report", &err);
    if (layout_check_report_text(&rep, text, sizeof text, NULL, &err)) die("layout_check_report_text", &err);
    printf("\nKernel 01, one tile on %s (the checker's report; the worst instruction explained group by group):\n%s",
           arch->name, text);
    printf("Why: read j of lane i is m = 8*(i%%8) + j, k = 8*warp + i/8, at byte 64*m + 2*k.  The 8 lanes sharing a k\n"
           "are 512 bytes (128 dwords) apart, so all sit on one of %d banks in 8 distinct dwords: 8-way, 7 extra\n"
           "cycles per half-wave, 14 per instruction; lanes 8 apart (k = 2c, 2c+1) share a dword for free.\n",
           arch->n_banks);
}

/* --- what liblayout suggests for each kernel's accesses (suggest.h) --------- */

/* The search over the layout families for one kernel's write/read pair. */
static void suggest_for(const seed_kernel *k, const layout_arch *arch, int64_t budget, unsigned families,
                        layout_suggest_result *res)
{
    layout_suggest_spec s;
    layout_error err;
    memset(&s, 0, sizeof s);
    s.arch = arch;
    s.elem_bytes = SK_ELEM_BYTES;
    s.n_dims = 2;
    s.tile[0] = SK_KM;
    s.tile[1] = SK_KK;
    s.n_sides = 2;
    s.sides[0].dist = &k->write_dist;
    s.sides[0].direction = LAYOUT_WRITE;
    s.sides[1].dist = &k->read_dist;
    s.sides[1].direction = LAYOUT_READ;
    if (k->read_dist.x_lengths[0] == SK_KK) { /* the [K, M] read view */
        s.sides[1].has_view = 1;
        s.sides[1].view[0] = 1;
        s.sides[1].view[1] = 0;
    }
    s.budget_bytes = budget;
    s.families = families;
    s.top_k = 1;
    if (layout_suggest(&s, res, &err)) die("layout_suggest", &err);
}

static void print_suggestions(const layout_arch *g942, const layout_arch *g950)
{
    static seed_kernel k;
    static layout_suggest_result res;
    layout_error err;
    const layout_arch *archs[2] = {g942, g950};
    /* F2 swizzles (35k sets) and XOR+pad (635k within 1 KiB) are searched for kernel 01 below */
    unsigned fam = ((1u << LAYOUT_FAMILY_COUNT) - 1u) & ~((1u << LAYOUT_FAMILY_F2) | (1u << LAYOUT_FAMILY_XOR_PAD));
    printf("\nWhat liblayout suggests for each kernel's accesses (layout_suggest: every parameter set of pad,\n"
           "pad_every, ck_xor, cute_swizzle, triton_swizzled, iree_xor_shuffle in both storage orders, each\n"
           "scored by the exact checker; extra = conflict cycles per tile, both sides):\n");
    printf("%-4s %-7s %-11s | %-44s %5s | %-44s %5s %5s\n", "krnl", "arch", "seed extra", "best without padding",
           "extra", "best within 1 KiB", "extra", "LDS");
    for (int a = 0; a < 2; a++)
        for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
            if (seed_kernel_build(&k, (seed_kernel_id)i, archs[a]->n_banks, &err)) die("seed_kernel_build", &err);
            layout_kernel_spec spec = seed_kernel_spec(&k);
            layout_kernel_result r;
            if (layout_check_kernel(archs[a], &spec, &r, &err)) die("layout_check_kernel", &err);
            char p0[128], p1[128];
            int64_t e0, e1, b1;
            suggest_for(&k, archs[a], 0, fam, &res);
            snprintf(p0, sizeof p0, "%s %s", layout_family_name(res.top[0].params.kind), "");
            layout_suggest_params_print(&res.top[0].params, p0 + strlen(p0), sizeof p0 - strlen(p0));
            e0 = res.top[0].cost.extra_cycles;
            suggest_for(&k, archs[a], 1024, fam, &res);
            snprintf(p1, sizeof p1, "%s %s", layout_family_name(res.top[0].params.kind), "");
            layout_suggest_params_print(&res.top[0].params, p1 + strlen(p1), sizeof p1 - strlen(p1));
            e1 = res.top[0].cost.extra_cycles;
            b1 = res.top[0].cost.lds_bytes;
            printf("%-4s %-7s %11lld | %-44s %5lld | %-44s %5lld %5lld\n", k.id, archs[a]->name,
                   (long long)r.extra_cycles_per_tile, p0, (long long)e0, p1, (long long)e1, (long long)b1);
        }
    /* kernel 01: does any layout of the families reach 0 without padding? */
    if (seed_kernel_build(&k, SEED_K01, 32, &err)) die("seed_kernel_build", &err);
    suggest_for(&k, g942, 0, (1u << LAYOUT_FAMILY_COUNT) - 1u, &res);
    printf("\nKernel 01's pair (b128 writes along K, 2-byte reads along M) on gfx942, every family incl. F2\n"
           "swizzles, no padding: %lld parameter sets, all families %s.  Best %lld extra cycles per tile:\n",
           (long long)res.tried, res.all_exhausted ? "exhausted" : "NOT exhausted",
           (long long)res.top[0].cost.extra_cycles);
    char line[512], text[LAYOUT_TEXT_CAP];
    layout_suggest_candidate_print(&res.top[0], 2, line, sizeof line);
    printf("  %s\n", line);
    if (layout_desc_to_text(&res.top[0].desc, text, sizeof text, NULL) == LAYOUT_OK) printf("  lds: %s\n", text);
    printf("Why it is conflict-free: KPack=8 keeps each row's 8-element packs contiguous (one 16-byte aligned\n"
           "ds_write_b128 per lane) and MLdsLayer=8 stores 8 rows per 256-element storage row, pack A = 4*(m%%8) + k/8\n"
           "moved to A ^ (m/8).  One ds_read_u16 reads rows m = 8*(lane%%8) + j: they differ in m/8, so their packs\n"
           "differ and sit on 8 different bank quads, where the packed layout put all 8 rows (512 bytes apart) on\n"
           "one bank: 8-way, 14 extra cycles per instruction, 448 per tile.\n");
}

/* The H100: eight probe kernels (`layout emit --cuda`) measured by Nsight
 * Compute on an NVIDIA H100 (tests/fixtures/h100/, docs/calibrate.md),
 * beside the sm_90 prediction for the same spec.  Three of them here: the
 * seed's kernel 01 rebuilt for 8 warps of 32 lanes, the ck_tile XOR layout
 * `layout suggest --arch sm_90` gives for its accesses, and kernel 03
 * (rows of 34), whose stores the sm_90 model predicts as four 32-bit stores (no paired
 * instruction on NVIDIA: rule N2, settled). */
static void print_h100(void)
{
    static const char *const W = "dist(R=[], H=([8,8],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])";
    static const char *const R = "dist(R=[], H=([8,4],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])";
    static const char *const T = " | T{pass(32):[1]->[0] ; pass(64):[0]->[1]}";
    static const struct {
        const char *name, *what, *lds;
    } probes[] = {
        {"k01_row_major", "kernel 01 (row-major)", "packed([64,32])"},
        {"suggest_ck_xor", "suggested ck_tile XOR", "naive([32,8,8],[8,256,1],gvl=8,gvs=1) | T{xor([8,32]):[1,0]->[1,0] ; "
                                                   "pass(8):[2]->[2]} | T{unmerge([8,4]):[0]->[0,3] ; pass(8):[1]->[1] ; "
                                                   "pass(8):[2]->[2]} | T{merge([8,8]):[1,0]->[0] ; merge([4,8]):[3,2]->[1]}"},
        {"k03_padding", "kernel 03 (rows of 34)", "naive([64,32],[34,1])"},
    };
    static const char *const short_names[LAYOUT_CTR_COUNT] = {"st conflicts", "ld conflicts", "st wavefronts",
                                                              "ld wavefronts", "st instrs", "ld instrs", "", ""};
    static layout_profile prof;
    static char csv[1 << 16], read_text[2048];
    layout_arch sm90;
    layout_error err;
    if (layout_arch_preset("sm_90", &sm90, &err)) die("sm_90", &err);
    printf("\nOn an NVIDIA H100: probe kernels (layout emit --cuda, nvcc 13.0) measured by Nsight Compute, 512 tiles,\n"
           "beside the sm_90 prediction for the same spec (tests/fixtures/h100/, docs/calibrate.md):\n");
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        char path[160];
        FILE *f;
        size_t n;
        layout_descriptor wd, rd;
        layout_distribution wdist, rdist;
        layout_kernel_spec spec;
        layout_kernel_result res;
        layout_calibration cal;
        snprintf(path, sizeof path, "tests/fixtures/h100/%s.csv", probes[i].name);
        if (!(f = fopen(path, "rb"))) {
            printf("  (%s not found: run make demo from the source tree)\n", path);
            return;
        }
        n = fread(csv, 1, sizeof csv - 1, f);
        fclose(f);
        snprintf(read_text, sizeof read_text, "%s%s", probes[i].lds, T);
        if (layout_desc_from_text(i == 0 ? "packed([64,32])" : probes[i].lds, &wd, NULL, &err)) die(path, &err);
        if (layout_desc_from_text(i == 0 ? "naive([32,64],[1,32])" : i == 2 ? "naive([32,64],[1,34])" : read_text, &rd,
                                  NULL, &err))
            die(path, &err);
        if (layout_dist_from_text(W, 0, 0, &wdist, NULL, &err) || layout_dist_from_text(R, 0, 0, &rdist, NULL, &err))
            die("dist", &err);
        memset(&spec, 0, sizeof spec);
        spec.write_desc = &wd;
        spec.write_dist = &wdist;
        spec.read_desc = &rd;
        spec.read_dist = &rdist;
        spec.elem_bytes = 2;
        spec.tiles = 512;
        if (layout_check_kernel(&sm90, &spec, &res, &err)) die("layout_check_kernel", &err);
        if (layout_profile_from_csv(csv, n, &prof, &err) || prof.n_dispatches < 1) die(path, &err);
        if (layout_calibrate(&sm90, &res, &prof.dispatches[0], &cal, &err)) die("layout_calibrate", &err);
        printf("  %-24s", probes[i].what);
        for (int r = 0; r < cal.n_rows; r++)
            printf("%s %s %lld/%lld%s", r ? "," : "", short_names[cal.rows[r].counter],
                   (long long)cal.rows[r].predicted, (long long)cal.rows[r].measured, cal.rows[r].equal ? "" : " DIFF");
        printf("\n");
    }
    printf("  (predicted/measured; kernel 03's stores: NVIDIA has no paired DS instruction, so what AMD issues as\n"
           "   two ds_write2_b32 the sm_90 model predicts as four 32-bit stores, as measured)\n");
}

/* A real Triton 3.6 matmul (tests/fixtures/triton/kernels/, docs/triton.md):
 * each shared op's instructions and cost as Triton lowers it, and per
 * allocation the best shared layout to paste back into the TTGIR. */
static void print_triton(void)
{
    static const char *const names[2] = {"matmul_fp16_64x64x32_w4_s2_gfx942", "matmul_fp16_64x64x32_w4_s2_gfx950"};
    static char text[1 << 18];
    static layout_ttgir m;
    static layout_triton_kernel k;
    static layout_triton_kernel_suggestions s;
    printf("\nA real Triton kernel: the TTGIR Triton 3.6 wrote for a 64x64x32 fp16 matmul, read by layout_ttgir_parse,\n"
           "each shared op lowered and costed (layout triton FILE --suggest):\n");
    for (int v = 0; v < 2; v++) {
        char path[200];
        layout_error err;
        FILE *f;
        size_t n;
        snprintf(path, sizeof path, "tests/fixtures/triton/kernels/%s.ttgir", names[v]);
        if (!(f = fopen(path, "rb"))) {
            printf("  (%s not found: run make demo from the source tree)\n", path);
            return;
        }
        n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        if (layout_ttgir_parse(text, n, &m, &err)) die(path, &err);
        if (layout_triton_kernel_analyze(&m, NULL, &k, &err)) die(path, &err);
        if (layout_triton_kernel_suggest(&k, NULL, &s, &err)) die(path, &err);
        printf("  %s (%s):\n", names[v], m.target);
        for (int i = 0; i < k.n_ops; i++) {
            const layout_triton_kernel_op *r = &k.ops[i];
            if (!r->modelled) continue;
            char ins[160];
            int len = 0;
            for (int j = 0; j < r->n_counts && len < (int)sizeof ins; j++)
                len += snprintf(ins + len, sizeof ins - (size_t)len, "%s%2lld x %s", j ? ", " : "",
                                (long long)r->counts[j].count, r->counts[j].mnemonic);
            printf("    line %3d %-16s %-26s %3lld extra cycles (%s confidence)\n", r->line,
                   layout_ttgir_op_name(r->kind), ins, (long long)r->extra_cycles,
                   layout_confidence_name(layout_triton_kernel_op_confidence(&k, r, NULL)));
        }
        for (int a = 0; a < s.n_allocs; a++) {
            const layout_triton_kernel_alloc *x = &s.allocs[a];
            printf("    allocation at line %d, %lld cycles (%lld extra): %s\n", x->line, (long long)x->current_cost,
                   (long long)x->current_extra, x->current);
            if (x->improved)
                printf("      suggested, %lld cycles (%lld extra), %lld bytes: %s\n", (long long)x->cost,
                       (long long)x->extra, (long long)x->bytes, x->attr);
            else if (!x->searched)
                /* a rule (or a reason) kept it and no search ran: say which, not "the best of 0" */
            {
                char head[64];
                size_t n = (size_t)snprintf(head, sizeof head, "kept (rule %s), ", x->rule);
                const char *why = x->rule[0] && strncmp(x->note, head, n) == 0 ? x->note + n : x->note;
                printf("      not searched: %s%s\n        why: %s\n", x->rule[0] ? "rule " : "",
                       x->rule[0] ? x->rule : "no rule applies", why);
            }
            else
                printf("      already the best of %lld candidates: keep it\n", (long long)x->scored);
        }
    }
}

int main(void)
{
    layout_arch g942, g950;
    layout_error err;
    if (layout_arch_preset("gfx942", &g942, &err)) die("gfx942", &err);
    if (layout_arch_preset("gfx950", &g950, &err)) die("gfx950", &err);
    printf("liblayout demo: the talk \"LDS Bank Conflicts on CDNA\" -- transpose a 65536 x 256 fp16 matrix through LDS\n\n");
    print_table(&g942, &g950);
    print_bank_map(&g942);
    print_worst_01(&g942);
    print_suggestions(&g942, &g950);
    print_h100();
    print_triton();
    return 0;
}
