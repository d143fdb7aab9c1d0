/* `make demo`: reproduce the table of seed 000 ("LDS Bank Conflicts on
 * CDNA") from the kernels' descriptors and distributions alone, for gfx942
 * (MI300, 32 banks) and gfx950 (MI355, 64 banks), next to the published
 * rocprofv3 figures; then kernel 08's bank map and kernel 01's worst
 * instruction, so a reader sees why one is clean and the other conflicts. */
#include "seed_kernels.h"

#include <stdio.h>
#include <stdlib.h>

/* Published (seed 000's table, MI300 unless noted; LDS_MODEL.md §3). -1 = not in the table. */
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
           "(LDS_MODEL.md phase model);\npublished = seed 000's rocprofv3 counters on MI300.  ok = identical.\n",
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

int main(void)
{
    layout_arch g942, g950;
    layout_error err;
    if (layout_arch_preset("gfx942", &g942, &err)) die("gfx942", &err);
    if (layout_arch_preset("gfx950", &g950, &err)) die("gfx950", &err);
    printf("liblayout demo: seed 000 \"LDS Bank Conflicts on CDNA\" -- transpose a 65536 x 256 fp16 matrix through LDS\n\n");
    print_table(&g942, &g950);
    print_bank_map(&g942);
    print_worst_01(&g942);
    return 0;
}
