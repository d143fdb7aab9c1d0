/* How fast is the layout search (suggest.h)?  On the seed tile (64 x 32
 * fp16, 4 waves, gfx942), for kernel 01's write and read distributions
 * (b128 writes along K, u16 reads along M: the most instructions) and for
 * kernel 08's (b128 on both sides), on three sets of candidates (every
 * family set without padding: 985; every 17th F2 swizzle: 2004; every
 * 311th run of 64 consecutive XOR + pad sets within 1 KiB: 2048, runs as
 * the search meets them, sharing XOR sets):
 *
 *  - candidates scored per second by the search's path (search.c): F2
 *    swizzles and family sets that are linear, or linear plus a pad term,
 *    from that form (score_linear.c: no per-element addresses), the rest
 *    from the closed form's tile offsets and the address path; family sets
 *    with their closed-form vector hints, as the search does;
 *  - the address path of the first version (every offset through the
 *    compiled plan or the linear tile walk, gathered, the compiler model
 *    and the checker on addresses) and the from-scratch path,
 *    layout_check_kernel() (views, access plans, every instruction);
 *  - every candidate verified first: search path == layout_check_kernel()
 *    == address path;
 *  - the whole search of each example: each seed kernel's
 *    accesses on gfx942 and gfx950 (no padding, all families; 1 KiB
 *    without XOR+pad; kernel 01 on gfx942 with everything), the ROCm
 *    CK-Tile blog's GEMM A tile, the IREE swizzle talk's MFMA readback and
 *    the HLSL lint's six strides (docs/lds-model.md §6).
 * Thread CPU time (bench_util.h).  JSON names start with "suggest_". */
#include "bench_util.h" /* first: it sets _POSIX_C_SOURCE */
#include "seed_kernels.h"
#include "../lib/suggest/suggest_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CANDS 8192

static seed_kernel k;
static layout_suggest_scorer sc;
static layout_suggest_work work;
static layout_descriptor descs[MAX_CANDS];
static layout_family_params params[MAX_CANDS];
static layout_suggest_result res;
static int n_fam, n_f2;

static layout_suggest_spec spec_of(const seed_kernel *kk, const layout_arch *arch)
{
    layout_suggest_spec s;
    memset(&s, 0, sizeof s);
    s.arch = arch;
    s.elem_bytes = 2;
    s.n_dims = 2;
    s.tile[0] = 64;
    s.tile[1] = 32;
    s.n_sides = 2;
    s.sides[0].dist = &kk->write_dist;
    s.sides[0].direction = LAYOUT_WRITE;
    s.sides[1].dist = &kk->read_dist;
    s.sides[1].direction = LAYOUT_READ;
    if (kk->read_dist.x_lengths[0] == 32) {
        s.sides[1].has_view = 1;
        s.sides[1].view[0] = 1;
        s.sides[1].view[1] = 0;
    }
    s.families = (1u << LAYOUT_FAMILY_COUNT) - 1u;
    s.top_k = 8;
    return s;
}

/* layout_check_kernel() of candidate i (the from-scratch path). */
static layout_descriptor views[2];
static int kernel_check(int i, layout_kernel_result *kr)
{
    const layout_suggest_spec *s = &sc.spec;
    for (int side = 0; side < 2; side++)
        if (layout_suggest_view(s, side, &descs[i], &views[side], NULL)) return -1;
    layout_kernel_spec ks;
    memset(&ks, 0, sizeof ks);
    ks.write_desc = &views[0];
    ks.read_desc = &views[1];
    ks.write_dist = s->sides[0].dist;
    ks.read_dist = s->sides[1].dist;
    ks.elem_bytes = 2;
    ks.tiles = 1;
    return layout_check_kernel(s->arch, &ks, kr, NULL) ? -1 : 0;
}

typedef struct range_ctx { int lo, hi; } range_ctx;

static const int64_t none[LAYOUT_MAX_DIMS] = {-1, -1, -1, -1, -1, -1, -1, -1};

/* The search's path (search.c): family sets build their descriptor (for
 * the hints) and take their offsets from the linear or closed form; F2
 * swizzles are scored from their linear form alone. */
static layout_status search_score(int i, layout_suggest_cost *c)
{
    if (params[i].kind == LAYOUT_FAMILY_F2) {
        layout_linear ll;
        layout_status st = layout_suggest_f2_linear(&params[i], sc.spec.tile, &ll, NULL);
        if (st) return st;
        if (layout_suggest_linear_usable(&sc, &ll) &&
            !layout_suggest_score_linear(&sc, &work, &ll, none, none, 0, c, NULL))
            return LAYOUT_OK;
        if ((st = layout_linear_tile_offsets(&ll, work.tile_off, work.tile_cap, NULL))) return st;
        return layout_suggest_score_offsets(&sc, &work, none, none, (int64_t)1 << ll.total_out_bits, 0, c, NULL);
    }
    return layout_suggest_score_params(&sc, &params[i], &work, c, NULL);
}

static void search_range(void *p)
{
    const range_ctx *r = p;
    layout_suggest_cost c;
    for (int i = r->lo; i < r->hi; i++) {
        search_score(i, &c);
        bench_clobber(&c);
    }
}

/* The address path of the first version (every offset, one gather per
 * side, the model and the checker on addresses): family sets through the
 * descriptor's compiled plan and tile walk, F2 through the linear tile
 * walk. */
static void address_range(void *p)
{
    const range_ctx *r = p;
    layout_suggest_cost c;
    for (int i = r->lo; i < r->hi; i++) {
        if (params[i].kind == LAYOUT_FAMILY_F2) {
            layout_linear ll;
            layout_suggest_f2_linear(&params[i], sc.spec.tile, &ll, NULL);
            layout_linear_tile_offsets(&ll, work.tile_off, work.tile_cap, NULL);
            layout_suggest_score_offsets(&sc, &work, none, none, 2048, 0, &c, NULL);
        } else {
            layout_suggest_score_work(&sc, &descs[i], &work, &c, NULL);
        }
        bench_clobber(&c);
    }
}

static void reference_range(void *p)
{
    const range_ctx *r = p;
    layout_kernel_result kr;
    for (int i = r->lo; i < r->hi; i++) {
        kernel_check(i, &kr);
        bench_clobber(&kr);
    }
}

/* The per-candidate figures for one kernel's pair of distributions, on
 * three sets of candidates: every family set without padding, every 17th
 * F2 swizzle, every 311th run of 64 XOR + pad sets within 1 KiB (padded:
 * the closed form and the address path).  Every candidate is verified first: the
 * search's path == layout_check_kernel() (extra cycles per side,
 * instructions, vector damage) == the address path.  tag: "" (kernel 01)
 * or "k08_".  Returns the mismatches (or -1). */
static int n_pad;
static int per_candidate(seed_kernel_id kid, const char *tag, const layout_arch *arch)
{
    layout_error e;
    if (seed_kernel_build(&k, kid, 32, &e)) {
        fprintf(stderr, "bench_suggest: %s\n", e.message);
        return -1;
    }
    layout_suggest_spec s = spec_of(&k, arch);
    if (layout_suggest_prepare(&sc, &s, &e)) {
        fprintf(stderr, "bench_suggest: %s\n", e.message);
        return -1;
    }
    layout_suggest_work_init(&work);
    n_fam = n_f2 = n_pad = 0;
    for (int kind = 0; kind < LAYOUT_FAMILY_F2; kind++)
        for (int cd = 1; cd >= 0; cd--) {
            layout_family_iter it;
            layout_family_params p;
            layout_family_iter_init(&it, (layout_family_kind)kind, s.tile, cd, 2, 0, NULL);
            while (layout_family_iter_next(&it, &p) && n_fam < MAX_CANDS)
                if (!layout_suggest_build(&p, s.tile, &descs[n_fam], NULL)) params[n_fam++] = p;
        }
    int64_t seen = 0;
    for (int cd = 1; cd >= 0; cd--) {
        layout_suggest_f2_iter it;
        layout_family_params p;
        layout_suggest_f2_iter_init(&it, s.tile, cd);
        while (layout_suggest_f2_iter_next(&it, &p) && n_fam + n_f2 < MAX_CANDS)
            if (seen++ % 17 == 0 && !layout_suggest_build(&p, s.tile, &descs[n_fam + n_f2], NULL))
                params[n_fam + n_f2++] = p;
    }
    int f2_end = n_fam + n_f2;
    seen = 0;
    for (int cd = 1; cd >= 0; cd--) {
        layout_family_iter it;
        layout_family_params p;
        layout_family_iter_init(&it, LAYOUT_FAMILY_XOR_PAD, s.tile, cd, 2, 1024, NULL);
        while (layout_family_iter_next(&it, &p) && f2_end + n_pad < MAX_CANDS)
            if ((seen++ >> 6) % 311 == 0 && !layout_suggest_build(&p, s.tile, &descs[f2_end + n_pad], NULL))
                params[f2_end + n_pad++] = p;
    }
    int n_all = f2_end + n_pad;

    /* every candidate: search path == layout_check_kernel == address path */
    int mismatches = 0, instrs = 0, n_linear = 0;
    for (int i = 0; i < n_all; i++) {
        layout_suggest_cost c, a;
        layout_kernel_result kr;
        if (search_score(i, &c) || kernel_check(i, &kr) || c.extra_cycles != kr.extra_cycles_per_tile ||
            c.instrs != kr.instrs_per_tile || c.side_extra[0] != kr.write.extra_cycles_per_tile ||
            c.side_extra[1] != kr.read.extra_cycles_per_tile ||
            c.vector_damage != kr.write.n_misaligned + kr.write.n_noncontiguous + kr.read.n_misaligned + kr.read.n_noncontiguous)
            mismatches++;
        if (layout_suggest_score_work(&sc, &descs[i], &work, &a, NULL)) {
            mismatches++;
            continue;
        }
        a.index_ops = c.index_ops;
        if (memcmp(&a, &c, sizeof c)) mismatches++;
        if (i == 0) instrs = (int)c.instrs;
        uint64_t b[64];
        int ib[2], ob;
        n_linear += params[i].kind == LAYOUT_FAMILY_F2 || layout_family_linear_bases(&params[i], s.tile, b, ib, &ob);
    }
    char name[96];
    printf("kernel %s's pair: %d family sets (no padding) + %d F2 swizzles + %d XOR+pad sets (1 KiB), %d of them "
           "linear; %d instructions per tile (first candidate); search path == layout_check_kernel == address path "
           "on all: %s (%d mismatches)\n",
           k.id, n_fam, n_f2, n_pad, n_linear, instrs, mismatches ? "NO" : "yes", mismatches);
#define EMIT(what, unit, v) (snprintf(name, sizeof name, "suggest_%s" what, tag), bench_emit(name, unit, v))
    EMIT("verified_candidates", "count", n_all);
    EMIT("mismatches", "count", mismatches);

    range_ctx fam = {0, n_fam}, f2 = {n_fam, f2_end}, pad = {f2_end, n_all}, ref = {0, 60}, ref_f2 = {n_fam, n_fam + 20},
              ref_pad = {f2_end, f2_end + 20};
    enum { NF = 9 };
    bench_fn fns[NF] = {search_range,  search_range,  search_range,    address_range,  address_range,
                        address_range, reference_range, reference_range, reference_range};
    void *ctx[NF] = {&fam, &f2, &pad, &fam, &f2, &pad, &ref, &ref_f2, &ref_pad};
    double best[NF];
    bench_interleaved(NF, fns, ctx, 5, 0.3, best);
    double us[NF];
    int per[NF] = {n_fam, n_f2, n_pad, n_fam, n_f2, n_pad, 60, 20, 20};
    for (int i = 0; i < NF; i++) us[i] = best[i] * 1e6 / per[i];
    printf("%-34s %14s %14s %14s\n", "us per candidate (both sides)", "family sets", "F2 swizzles", "XOR+pad 1 KiB");
    printf("%-34s %14.2f %14.2f %14.2f\n", "search path (as layout_suggest)", us[0], us[1], us[2]);
    printf("%-34s %14.0f %14.0f %14.0f\n", "  candidates per second", 1e6 / us[0], 1e6 / us[1], 1e6 / us[2]);
    printf("%-34s %14.2f %14.2f %14.2f\n", "address path (first version)", us[3], us[4], us[5]);
    printf("%-34s %14.2f %14.2f %14.2f\n", "from scratch: layout_check_kernel", us[6], us[7], us[8]);
    printf("ratio from-scratch / search path: %.1fx / %.1fx / %.1fx; address path / search path: %.2fx / %.2fx / %.2fx\n",
           us[6] / us[0], us[7] / us[1], us[8] / us[2], us[3] / us[0], us[4] / us[1], us[5] / us[2]);
    static const char *const what[3] = {"family", "f2", "xor_pad"};
    for (int j = 0; j < 3; j++) {
        char w2[64];
        snprintf(w2, sizeof w2, "%s_us_per_candidate", what[j]);
        snprintf(name, sizeof name, "suggest_%s%s", tag, w2), bench_emit(name, "us", us[j]);
        snprintf(name, sizeof name, "suggest_%s%s_candidates_per_s", tag, what[j]), bench_emit(name, "1/s", 1e6 / us[j]);
        snprintf(name, sizeof name, "suggest_%s%s_address_path_us", tag, what[j]), bench_emit(name, "us", us[3 + j]);
        snprintf(name, sizeof name, "suggest_%s%s_from_scratch_us", tag, what[j]), bench_emit(name, "us", us[6 + j]);
        snprintf(name, sizeof name, "suggest_%s%s_speedup_vs_address_path", tag, what[j]),
            bench_emit(name, "x", us[3 + j] / us[j]);
        snprintf(name, sizeof name, "suggest_%s%s_speedup_vs_from_scratch", tag, what[j]),
            bench_emit(name, "x", us[6 + j] / us[j]);
    }
#undef EMIT
    return mismatches;
}

/* One whole search, timed: prints a row of the search table and emits
 * name_s and name_sets_per_s. */
static int timed_search(const layout_suggest_spec *ss, const char *label, const char *name)
{
    layout_error e;
    double t0 = bench_now();
    if (layout_suggest(ss, &res, &e)) {
        fprintf(stderr, "bench_suggest: %s: %s\n", label, e.message);
        return 1;
    }
    double t = bench_now() - t0;
    char n[128];
    printf("%-44s %9lld %9.2f %12lld %10lld\n", label, (long long)res.tried, t, (long long)res.top[0].cost.extra_cycles,
           (long long)res.top[0].cost.lds_bytes);
    snprintf(n, sizeof n, "%s_s", name);
    bench_emit(n, "s", t);
    snprintf(n, sizeof n, "%s_sets_per_s", name);
    bench_emit(n, "1/s", (double)res.tried / t);
    return 0;
}

int main(void)
{
    bench_init();
    layout_arch arch;
    layout_error e;
    if (layout_arch_preset("gfx942", &arch, &e)) {
        fprintf(stderr, "bench_suggest: %s\n", e.message);
        return 1;
    }
    printf("# bench_suggest on %s\n", bench_machine);
    int m01 = per_candidate(SEED_K01, "", &arch), m08 = per_candidate(SEED_K08, "k08_", &arch);
    if (m01 < 0 || m08 < 0) return 1;
    int mismatches = m01 + m08;

    /* whole searches */
    printf("%-44s %9s %9s %12s %10s\n", "search (gfx942, 1 thread)", "sets", "seconds", "best extra", "LDS bytes");
    for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
        for (int b = 0; b < 3; b++) {
            if (b == 2 && i != SEED_K01) continue;
            seed_kernel kk;
            seed_kernel_build(&kk, (seed_kernel_id)i, 32, NULL);
            layout_suggest_spec ss = spec_of(&kk, &arch);
            ss.budget_bytes = b ? 1024 : 0;
            if (b == 1) ss.families &= ~(1u << LAYOUT_FAMILY_XOR_PAD);
            double t0 = bench_now();
            if (layout_suggest(&ss, &res, &e)) {
                fprintf(stderr, "bench_suggest: %s\n", e.message);
                return 1;
            }
            double t = bench_now() - t0;
            char name[96], label[96];
            snprintf(label, sizeof label, "kernel %s, %s", kk.id,
                     b == 0 ? "no padding, all families" : b == 1 ? "1 KiB, all but xor_pad" : "1 KiB, all families");
            printf("%-44s %9lld %9.2f %12lld %10lld\n", label, (long long)res.tried, t,
                   (long long)res.top[0].cost.extra_cycles, (long long)res.top[0].cost.lds_bytes);
            snprintf(name, sizeof name, "suggest_search_k%s_%s_s", kk.id, b == 0 ? "b0" : b == 1 ? "b1k" : "b1k_all");
            bench_emit(name, "s", t);
            snprintf(name, sizeof name, "suggest_search_k%s_%s_sets_per_s", kk.id, b == 0 ? "b0" : b == 1 ? "b1k" : "b1k_all");
            bench_emit(name, "1/s", (double)res.tried / t);
        }
    }
    /* gfx950 (64 banks), the seed pairs without padding and within 1 KiB */
    layout_arch g950;
    if (layout_arch_preset("gfx950", &g950, &e)) {
        fprintf(stderr, "bench_suggest: %s\n", e.message);
        return 1;
    }
    for (int i = 0; i < SEED_KERNEL_COUNT; i++)
        for (int b = 0; b < 2; b++) {
            seed_kernel kk;
            seed_kernel_build(&kk, (seed_kernel_id)i, 64, NULL);
            layout_suggest_spec ss = spec_of(&kk, &g950);
            ss.budget_bytes = b ? 1024 : 0;
            if (b) ss.families &= ~(1u << LAYOUT_FAMILY_XOR_PAD);
            char name[96], label[96];
            snprintf(label, sizeof label, "gfx950: kernel %s, %s", kk.id, b ? "1 KiB, all but xor_pad" : "no padding");
            snprintf(name, sizeof name, "suggest_search_gfx950_k%s_%s", kk.id, b ? "b1k" : "b0");
            if (timed_search(&ss, label, name)) return 1;
        }
    /* the ROCm CK-Tile blog's GEMM A tile (kernel 01's row writes, MFMA-style b128 reads:
     * m = 16 warp + lane % 16, k = 8 (lane / 16) + y) and the IREE swizzle talk's MFMA
     * readback (64 x 128 f16; vector<4xf16> row writes, 16 x 16 fragment
     * reads), the distributions as tests/test_suggest.c builds them */
    static const char *const d003r = "dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(2,0),(1,1)]), Y=[(2,1)])";
    static const char *const d004w = "dist(R=[], H=([8,4,2],[32,4]), P=([(1,1)],[(1,2),(2,0)]), Y=[(1,0),(2,1)])";
    static const char *const d004r = "dist(R=[], H=([4,16],[8,4,4]), P=([(1,0)],[(2,1),(1,1)]), Y=[(2,0),(2,2)])";
    static layout_distribution r003, w004, r004;
    seed_kernel k01;
    seed_kernel_build(&k01, SEED_K01, 32, NULL);
    if (layout_dist_from_text(d003r, 64, 4, &r003, NULL, &e) || layout_dist_from_text(d004w, 64, 4, &w004, NULL, &e) ||
        layout_dist_from_text(d004r, 64, 4, &r004, NULL, &e)) {
        fprintf(stderr, "bench_suggest: %s\n", e.message);
        return 1;
    }
    for (int c = 0; c < 2; c++)
        for (int b = 0; b < 2; b++) {
            layout_suggest_spec ss = spec_of(&k01, &arch);
            ss.sides[1].has_view = 0;
            if (c == 0) {
                ss.sides[1].dist = &r003;
            } else {
                ss.tile[1] = 128;
                ss.sides[0].dist = &w004;
                ss.sides[1].dist = &r004;
            }
            ss.budget_bytes = b ? 1024 : 0;
            if (b) ss.families &= ~(1u << LAYOUT_FAMILY_XOR_PAD);
            char name[96], label[96];
            snprintf(label, sizeof label, "seed %s, %s", c ? "004 readback 64x128" : "003 GEMM A",
                     b ? "1 KiB, no xor_pad" : "no padding");
            snprintf(name, sizeof name, "suggest_search_seed%s_%s", c ? "004" : "003", b ? "b1k" : "b0");
            if (timed_search(&ss, label, name)) return 1;
        }
    /* a 128 x 128 fp16 GEMM operand tile [M, K] through a workspace
     * (layout_suggest_ws): 256 threads write 16-byte vectors row-major
     * (m = 16 rep + 4 warp + lane / 16, k = 8 (lane % 16) + y); MFMA
     * 32x32x8-style reads: warp w reads rows 32 w + lane % 32, 4
     * consecutive k at 8 ks + 4 (lane / 32) (16 k-steps) */
    {
        static layout_distribution w128, r128;
        if (layout_dist_from_text("dist(R=[], H=([8,4,4],[16,8]), P=([(1,1)],[(1,2),(2,0)]), Y=[(1,0),(2,1)])", 64, 4,
                                  &w128, NULL, &e) ||
            layout_dist_from_text("dist(R=[], H=([4,32],[16,2,4]), P=([(1,0)],[(2,1),(1,1)]), Y=[(2,0),(2,2)])", 64, 4,
                                  &r128, NULL, &e)) {
            fprintf(stderr, "bench_suggest: %s\n", e.message);
            return 1;
        }
        for (int b = 0; b < 2; b++) {
            layout_suggest_spec ss = spec_of(&k01, &arch);
            ss.tile[0] = ss.tile[1] = 128;
            ss.sides[0].dist = &w128;
            ss.sides[1].dist = &r128;
            ss.sides[1].has_view = 0;
            ss.budget_bytes = b ? 1024 : 0;
            size_t n = 0;
            if (layout_suggest_workspace_size(&ss, &n, &e)) {
                fprintf(stderr, "bench_suggest: %s\n", e.message);
                return 1;
            }
            void *ws = malloc(n);
            double t0 = bench_now();
            if (!ws || layout_suggest_ws(&ss, ws, n, &res, &e)) {
                fprintf(stderr, "bench_suggest: 128 x 128: %s\n", ws ? e.message : "no memory");
                free(ws);
                return 1;
            }
            double t = bench_now() - t0;
            free(ws);
            char label[96], name[96];
            snprintf(label, sizeof label, "GEMM operand 128 x 128, %s", b ? "1 KiB, all families" : "no padding");
            printf("%-44s %9lld %9.2f %12lld %10lld\n", label, (long long)res.tried, t,
                   (long long)res.top[0].cost.extra_cycles, (long long)res.top[0].cost.lds_bytes);
            snprintf(name, sizeof name, "suggest_search_gemm128_%s_s", b ? "b1k_all" : "b0");
            bench_emit(name, "s", t);
        }
    }
    /* the HLSL lint's case: the six strides on 32 banks (gfx11) */
    layout_arch g11;
    if (layout_arch_preset("gfx11", &g11, &e)) {
        fprintf(stderr, "bench_suggest: %s\n", e.message);
        return 1;
    }
    double t0 = bench_now();
    for (int64_t st = 2; st <= 64; st *= 2) {
        layout_suggest_stride_result sr;
        if (layout_suggest_stride(&g11, st, 4, &sr, &e)) {
            fprintf(stderr, "bench_suggest: %s\n", e.message);
            return 1;
        }
    }
    double t = bench_now() - t0;
    printf("%-44s %9d %9.6f\n", "HLSL lint, strides 2..64 (gfx11, elem 4)", 6, t);
    bench_emit("suggest_search_seed002_strides_s", "s", t);
    return mismatches ? 1 : 0;
}
