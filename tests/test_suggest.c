/* The layout search (suggest.h): the fast score equals the from-scratch
 * check (layout_check_kernel) on seed layouts and random descriptors; the
 * search's optimum and Pareto front equal a brute-force enumeration written
 * here; seed acceptance cases; bad input. */
#include "harness.h"
#include "layout.h"
#include "support/rand_desc.h"
#include "../examples/seed_kernels.h"

static seed_kernel k;
static layout_suggest_scorer sc;

/* The two-sided spec of a seed kernel: write over [M, K], read over the
 * kernel's read view ([K, M] = view {1, 0} for 01..05, [M, K] for 08, 10). */
static layout_suggest_spec seed_spec(const seed_kernel *kk, const layout_arch *arch)
{
    layout_suggest_spec s;
    memset(&s, 0, sizeof s);
    s.arch = arch;
    s.elem_bytes = SK_ELEM_BYTES;
    s.n_dims = 2;
    s.tile[0] = SK_KM;
    s.tile[1] = SK_KK;
    s.n_sides = 2;
    s.sides[0].dist = &kk->write_dist;
    s.sides[0].direction = LAYOUT_WRITE;
    s.sides[1].dist = &kk->read_dist;
    s.sides[1].direction = LAYOUT_READ;
    if (kk->read_dist.x_lengths[0] == SK_KK) {
        s.sides[1].has_view = 1;
        s.sides[1].view[0] = 1;
        s.sides[1].view[1] = 0;
    }
    s.families = ~0u;
    return s;
}

static void check_equal_kernel(const layout_suggest_scorer *scorer, const layout_arch *arch,
                               const layout_descriptor *cand, const char *what)
{
    layout_suggest_cost fast, ref;
    layout_side_result sides[2];
    layout_error e;
    CHECK_MSG(layout_suggest_score(scorer, cand, &fast, &e) == LAYOUT_OK, "%s: %s", what, e.message);
    CHECK_MSG(layout_suggest_score_reference(scorer, cand, &ref, sides, &e) == LAYOUT_OK, "%s: %s", what, e.message);
    CHECK_MSG(memcmp(&fast, &ref, sizeof fast) == 0, "%s: fast %lld/%lld/%d ref %lld/%lld/%d", what,
              (long long)fast.extra_cycles, (long long)fast.instrs, fast.vector_damage, (long long)ref.extra_cycles,
              (long long)ref.instrs, ref.vector_damage);
    /* and the kernel check of the same views */
    if (scorer->spec.n_sides == 2) {
        layout_descriptor v0, v1;
        CHECK(layout_suggest_view(&scorer->spec, 0, cand, &v0, NULL) == LAYOUT_OK);
        CHECK(layout_suggest_view(&scorer->spec, 1, cand, &v1, NULL) == LAYOUT_OK);
        layout_kernel_spec ks;
        memset(&ks, 0, sizeof ks);
        ks.write_desc = &v0;
        ks.read_desc = &v1;
        ks.write_dist = scorer->spec.sides[0].dist;
        ks.read_dist = scorer->spec.sides[1].dist;
        ks.write_opt = &scorer->spec.sides[0].opt;
        ks.read_opt = &scorer->spec.sides[1].opt;
        ks.elem_bytes = scorer->spec.elem_bytes;
        ks.tiles = 1;
        layout_kernel_result kr;
        CHECK(layout_check_kernel(arch, &ks, &kr, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(fast.extra_cycles, kr.extra_cycles_per_tile);
        CHECK_EQ_I64(fast.instrs, kr.instrs_per_tile);
        CHECK_EQ_I64(fast.side_extra[0], kr.write.extra_cycles_per_tile);
        CHECK_EQ_I64(fast.side_extra[1], kr.read.extra_cycles_per_tile);
        CHECK_EQ_I64(fast.side_misaligned[0] + fast.side_misaligned[1], kr.write.n_misaligned + kr.read.n_misaligned);
    }
}

/* Seed layouts: the fast score of each kernel's own LDS layout equals the
 * kernel check (the seed's own read descriptors of 01..03 are equivalent
 * naive views; 04/05 are built as transposed views). */
static void test_seed_layouts_equal(void)
{
    const char *archs[2] = {"gfx942", "gfx950"};
    for (int a = 0; a < 2; a++) {
        layout_arch arch;
        CHECK(layout_arch_preset(archs[a], &arch, NULL) == LAYOUT_OK);
        for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
            CHECK(seed_kernel_build(&k, (seed_kernel_id)i, arch.n_banks, NULL) == LAYOUT_OK);
            layout_suggest_spec s = seed_spec(&k, &arch);
            layout_error e;
            CHECK_MSG(layout_suggest_prepare(&sc, &s, &e) == LAYOUT_OK, "%s", e.message);
            check_equal_kernel(&sc, &arch, &k.write_desc, k.id);
            /* the seed's own numbers (its own read descriptor) */
            layout_kernel_spec ks = seed_kernel_spec(&k);
            ks.tiles = 1;
            layout_kernel_result kr;
            CHECK(layout_check_kernel(&arch, &ks, &kr, NULL) == LAYOUT_OK);
            layout_suggest_cost fast;
            CHECK(layout_suggest_score(&sc, &k.write_desc, &fast, NULL) == LAYOUT_OK);
            CHECK_MSG(fast.extra_cycles == kr.extra_cycles_per_tile, "%s %s: %lld vs %lld", archs[a], k.id,
                      (long long)fast.extra_cycles, (long long)kr.extra_cycles_per_tile);
            CHECK_EQ_I64(fast.instrs, kr.instrs_per_tile);
        }
    }
}

int main(void)
{
    RUN(test_seed_layouts_equal);
    return harness_finish("test_suggest");
}
