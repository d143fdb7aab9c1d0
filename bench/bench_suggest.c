/* How fast is the layout search (suggest.h)?  On the seed tile (64 x 32
 * fp16, 4 waves, gfx942), for kernel 01's write and read distributions
 * (b128 writes along K, u16 reads along M: the most instructions) and for
 * kernel 08's (b128 on both sides):
 *
 *  - candidates scored per second by the fast path (prepared scorer: the
 *    candidate's compiled plan, one tile walk, the compiler model on the
 *    addresses, the checker), with and without building the descriptor,
 *    for the family candidates (every parameter set of pad ... iree within
 *    no padding: 985) and a sample of F2 swizzles (offsets from the linear
 *    form, as the search scores them);
 *  - the from-scratch path: layout_check_kernel() of the same candidate
 *    (views, access plans, every instruction), and the ratio;
 *  - every candidate of the benchmark re-checked: fast == layout_check_kernel();
 *  - the whole search of each seed kernel's accesses (no padding, all
 *    families; 1 KiB without XOR+pad; kernel 01 with everything).
 * Thread CPU time (bench_util.h).  JSON names start with "suggest_". */
#include "bench_util.h" /* first: it sets _POSIX_C_SOURCE */
#include "seed_kernels.h"
#include "../lib/suggest/suggest_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CANDS 4096

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

typedef struct range_ctx { int lo, hi, build; } range_ctx;

static void fast_range(void *p)
{
    const range_ctx *r = p;
    layout_suggest_cost c;
    for (int i = r->lo; i < r->hi; i++) {
        if (r->build) layout_suggest_build(&params[i], sc.spec.tile, &descs[i], NULL);
        layout_suggest_score_work(&sc, &descs[i], &work, &c, NULL);
        bench_clobber(&c);
    }
}

/* F2 candidates as the search scores them: offsets from the linear form. */
static void f2_range(void *p)
{
    const range_ctx *r = p;
    static const int64_t none[LAYOUT_MAX_DIMS] = {-1, -1, -1, -1, -1, -1, -1, -1};
    layout_suggest_cost c;
    layout_linear ll;
    for (int i = r->lo; i < r->hi; i++) {
        layout_suggest_f2_linear(&params[i], sc.spec.tile, &ll, NULL);
        layout_linear_tile_offsets(&ll, work.tile_off, LAYOUT_SUGGEST_MAX_TILE, NULL);
        layout_suggest_score_offsets(&sc, &work, none, none, 2048, 0, &c, NULL);
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

/* The per-candidate figures for one kernel's pair of distributions: every
 * family set without padding and every 17th F2 swizzle, each verified
 * against layout_check_kernel() first.  tag: "" (kernel 01: the JSON names
 * of earlier runs) or "k08_".  Returns the mismatches (or -1). */
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
    n_fam = n_f2 = 0;
    /* the candidates: every family set without padding, then F2 (1 in 17) */
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
    int n_all = n_fam + n_f2;

    /* every candidate: fast == layout_check_kernel */
    int mismatches = 0, instrs = 0;
    for (int i = 0; i < n_all; i++) {
        layout_suggest_cost c;
        layout_kernel_result kr;
        if (layout_suggest_score_work(&sc, &descs[i], &work, &c, NULL) || kernel_check(i, &kr) ||
            c.extra_cycles != kr.extra_cycles_per_tile || c.instrs != kr.instrs_per_tile ||
            c.side_extra[0] != kr.write.extra_cycles_per_tile ||
            c.vector_damage != kr.write.n_misaligned + kr.write.n_noncontiguous + kr.read.n_misaligned + kr.read.n_noncontiguous)
            mismatches++;
        if (i == 0) instrs = (int)c.instrs;
        if (i >= n_fam) { /* the search's F2 path too */
            static const int64_t none[LAYOUT_MAX_DIMS] = {-1, -1, -1, -1, -1, -1, -1, -1};
            layout_linear ll;
            layout_suggest_cost c2;
            layout_suggest_f2_linear(&params[i], s.tile, &ll, NULL);
            layout_linear_tile_offsets(&ll, work.tile_off, LAYOUT_SUGGEST_MAX_TILE, NULL);
            layout_suggest_score_offsets(&sc, &work, none, none, 2048, c.index_ops, &c2, NULL);
            if (memcmp(&c, &c2, sizeof c)) mismatches++;
        }
    }
    char name[96];
    printf("kernel %s's pair: %d family sets (no padding) + %d F2 swizzles, %d instructions per tile (first candidate); "
           "fast == layout_check_kernel on all: %s (%d mismatches)\n",
           k.id, n_fam, n_f2, instrs, mismatches ? "NO" : "yes", mismatches);
#define EMIT(what, unit, v) (snprintf(name, sizeof name, "suggest_%s" what, tag), bench_emit(name, unit, v))
    EMIT("verified_candidates", "count", n_all);
    EMIT("mismatches", "count", mismatches);

    range_ctx fam = {0, n_fam, 0}, fam_b = {0, n_fam, 1}, f2 = {n_fam, n_all, 0}, ref = {0, 60, 0},
              ref_f2 = {n_fam, n_fam + 20, 0};
    bench_fn fns[5] = {fast_range, fast_range, f2_range, reference_range, reference_range};
    void *ctx[5] = {&fam, &fam_b, &f2, &ref, &ref_f2};
    double best[5];
    bench_interleaved(5, fns, ctx, 5, 0.3, best);
    double us_fam = best[0] * 1e6 / n_fam, us_fam_b = best[1] * 1e6 / n_fam, us_f2 = best[2] * 1e6 / n_f2,
           us_ref = best[3] * 1e6 / 60, us_ref_f2 = best[4] * 1e6 / 20;
    printf("%-58s %10s %12s\n", "path (per candidate, both sides)", "us", "candidates/s");
    printf("%-58s %10.2f %12.0f\n", "fast, family sets (plan + tile walk + model + checker)", us_fam, 1e6 / us_fam);
    printf("%-58s %10.2f %12.0f\n", "fast, family sets, descriptor built too", us_fam_b, 1e6 / us_fam_b);
    printf("%-58s %10.2f %12.0f\n", "fast, F2 swizzles (linear offsets, as searched)", us_f2, 1e6 / us_f2);
    printf("%-58s %10.2f %12.0f\n", "from scratch: layout_check_kernel, family sets", us_ref, 1e6 / us_ref);
    printf("%-58s %10.2f %12.0f\n", "from scratch: layout_check_kernel, F2 swizzles", us_ref_f2, 1e6 / us_ref_f2);
    printf("ratio from-scratch / fast: family sets %.1fx, F2 %.1fx\n", us_ref / us_fam, us_ref_f2 / us_f2);
    EMIT("fast_us_per_candidate", "us", us_fam);
    EMIT("fast_candidates_per_s", "1/s", 1e6 / us_fam);
    EMIT("fast_with_build_us_per_candidate", "us", us_fam_b);
    EMIT("f2_us_per_candidate", "us", us_f2);
    EMIT("f2_candidates_per_s", "1/s", 1e6 / us_f2);
    EMIT("from_scratch_us_per_candidate", "us", us_ref);
    EMIT("speedup_vs_from_scratch", "x", us_ref / us_fam);
    EMIT("f2_speedup_vs_from_scratch", "x", us_ref_f2 / us_f2);
#undef EMIT
    return mismatches;
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
    return mismatches ? 1 : 0;
}
