/* The layout search (suggest.h): the fast score equals the from-scratch
 * check (layout_check_kernel) on seed layouts, on every candidate of every
 * family and on random strided layouts with random options; the search's
 * optimum and Pareto front equal a brute-force enumeration written here;
 * seed acceptance cases (000 kernels, 002 lint, 003 GEMM A tile, 004 MFMA
 * readback); thread independence; the text decoder; bad input. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"
#include "suggest/suggest_internal.h"
#include "../examples/seed_kernels.h"

#include <limits.h>

static seed_kernel k;
static layout_suggest_scorer sc;
static layout_suggest_result res, res2;
static layout_suggest_work g_work;

/* The two-sided spec of a seed kernel: write over [M, K], read over the
 * kernel's read view ([K, M] = view {1, 0} for 01..05, [M, K] for 08, 10). */
/* A write side and a read side over an fp16 [rows, cols] tile (the read
 * through the [cols, rows] view when read_transposed); families, budget and
 * options left zero. */
static layout_suggest_spec pair_spec(const layout_arch *arch, int64_t rows, int64_t cols, const layout_distribution *wd,
                                     const layout_distribution *rd, int read_transposed)
{
    layout_suggest_spec s;
    memset(&s, 0, sizeof s);
    s.arch = arch;
    s.elem_bytes = 2;
    s.n_dims = 2;
    s.tile[0] = rows;
    s.tile[1] = cols;
    s.n_sides = 2;
    s.sides[0].dist = wd;
    s.sides[0].direction = LAYOUT_WRITE;
    s.sides[1].dist = rd;
    s.sides[1].direction = LAYOUT_READ;
    if (read_transposed) {
        s.sides[1].has_view = 1;
        s.sides[1].view[0] = 1;
        s.sides[1].view[1] = 0;
    }
    return s;
}

static layout_suggest_spec seed_spec(const seed_kernel *kk, const layout_arch *arch)
{
    layout_suggest_spec s = pair_spec(arch, SK_KM, SK_KK, &kk->write_dist, &kk->read_dist,
                                      kk->read_dist.x_lengths[0] == SK_KK);
    s.elem_bytes = SK_ELEM_BYTES;
    s.families = (1u << LAYOUT_FAMILY_COUNT) - 1u;
    s.top_k = 8;
    return s;
}

/* The [d1, d0] view of a 2-D descriptor, written here independently of
 * layout_suggest_view() (pass_through transforms, as seed_transposed_view). */
static int transposed(const layout_descriptor *d, layout_descriptor *out)
{
    layout_transform t[2];
    if (layout_make_pass_through(layout_desc_length(d, 0), &t[0], NULL) ||
        layout_make_pass_through(layout_desc_length(d, 1), &t[1], NULL))
        return -1;
    layout_seq lo[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)};
    layout_seq up[2] = {LAYOUT_SEQ(1), LAYOUT_SEQ(0)};
    return layout_transform_descriptor(out, d, 2, t, lo, up, NULL) ? -1 : 0;
}

/* layout_check_kernel() of a two-sided spec with candidate `cand`. */
static layout_status kernel_check(const layout_suggest_spec *s, const layout_descriptor *cand, layout_kernel_result *kr)
{
    static layout_descriptor v[2];
    for (int i = 0; i < 2; i++) {
        if (s->sides[i].has_view) {
            if (transposed(cand, &v[i])) return LAYOUT_ERR_ARG;
        } else {
            v[i] = *cand;
        }
    }
    layout_kernel_spec ks;
    memset(&ks, 0, sizeof ks);
    ks.write_desc = &v[0];
    ks.read_desc = &v[1];
    ks.write_dist = s->sides[0].dist;
    ks.read_dist = s->sides[1].dist;
    ks.write_opt = &s->sides[0].opt;
    ks.read_opt = &s->sides[1].opt;
    ks.elem_bytes = s->elem_bytes;
    ks.tiles = 1;
    return layout_check_kernel(s->arch, &ks, kr, NULL);
}

static int damage_of(const layout_kernel_result *kr, const layout_suggest_cost *c)
{
    (void)c;
    return kr->write.n_misaligned + kr->write.n_noncontiguous + kr->read.n_misaligned + kr->read.n_noncontiguous;
}

/* fast == reference (field for field) == layout_check_kernel. */
static void check_equal(const layout_suggest_scorer *scorer, const layout_descriptor *cand, const char *what)
{
    layout_suggest_cost fast, ref;
    layout_side_result sides[2];
    layout_error e;
    layout_status sf = layout_suggest_score(scorer, cand, &fast, &e);
    layout_status sr = layout_suggest_score_reference(scorer, cand, &ref, sides, NULL);
    CHECK_MSG(sf == sr, "%s: fast status %d, reference %d (%s)", what, sf, sr, e.message);
    if (sf || sr) return;
    CHECK_MSG(memcmp(&fast, &ref, sizeof fast) == 0, "%s: fast %lld/%lld/%d ref %lld/%lld/%d", what,
              (long long)fast.extra_cycles, (long long)fast.instrs, fast.vector_damage, (long long)ref.extra_cycles,
              (long long)ref.instrs, ref.vector_damage);
    if (scorer->spec.n_sides != 2) return;
    layout_kernel_result kr;
    CHECK(kernel_check(&scorer->spec, cand, &kr) == LAYOUT_OK);
    CHECK_EQ_I64(fast.extra_cycles, kr.extra_cycles_per_tile);
    CHECK_EQ_I64(fast.instrs, kr.instrs_per_tile);
    CHECK_EQ_I64(fast.side_extra[0], kr.write.extra_cycles_per_tile);
    CHECK_EQ_I64(fast.side_extra[1], kr.read.extra_cycles_per_tile);
    if (scorer->spec.sides[0].opt.policy == LAYOUT_VECTOR_TRUST && scorer->spec.sides[1].opt.policy == LAYOUT_VECTOR_TRUST)
        CHECK_EQ_I64(fast.vector_damage, damage_of(&kr, &fast));
    CHECK_EQ_I64(sides[0].extra_cycles_per_tile, kr.write.extra_cycles_per_tile);
    CHECK_EQ_I64(sides[1].instrs_per_tile, kr.read.instrs_per_tile);
}

/* Seed layouts: the fast score of each kernel's own LDS layout equals the
 * kernel check, also with the seed's own read descriptors. */
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
            check_equal(&sc, &k.write_desc, k.id);
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
    /* the talk's published numbers (docs/lds-model.md §4.1): kernel 01 on gfx942, 448 extra cycles per tile */
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    layout_suggest_spec s = seed_spec(&k, &arch);
    CHECK(layout_suggest_prepare(&sc, &s, NULL) == LAYOUT_OK);
    layout_suggest_cost c;
    CHECK(layout_suggest_score(&sc, &k.write_desc, &c, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(c.extra_cycles, 448);
    CHECK_EQ_I64(c.instrs, 4 + 32);
}

/* Every candidate of every family (budget 96 bytes) for kernel 01 on gfx942,
 * a sample of XOR+pad (1 in 200) and F2 (1 in 100); kernels 01 and 08 on
 * both LDS architectures sampled 1 in 10: fast == reference == kernel check. */
static void test_every_candidate_equal(void)
{
    const char *archs[2] = {"gfx942", "gfx950"};
    seed_kernel_id ids[2] = {SEED_K01, SEED_K08};
    static layout_descriptor d;
    int64_t checked = 0, scale = 1000 / harness_scaled(1000);
    if (scale < 1) scale = 1;
    for (int a = 0; a < 2; a++)
        for (int ki = 0; ki < 2; ki++) {
            layout_arch arch;
            CHECK(layout_arch_preset(archs[a], &arch, NULL) == LAYOUT_OK);
            CHECK(seed_kernel_build(&k, ids[ki], arch.n_banks, NULL) == LAYOUT_OK);
            layout_suggest_spec s = seed_spec(&k, &arch);
            s.budget_bytes = 96;
            CHECK(layout_suggest_prepare(&sc, &s, NULL) == LAYOUT_OK);
            layout_suggest_work_init(&g_work);
            int64_t n = 0;
            for (int kind = 0; kind < LAYOUT_FAMILY_COUNT; kind++)
                for (int cd = 1; cd >= 0; cd--) {
                    layout_family_params p;
                    layout_family_iter it;
                    layout_suggest_f2_iter f2;
                    int f2k = kind == LAYOUT_FAMILY_F2;
                    int64_t stride = kind == LAYOUT_FAMILY_XOR_PAD ? 400 : f2k ? 200 : 1;
                    if (a || ki) stride *= 20;
                    stride *= scale;
                    if (f2k)
                        layout_suggest_f2_iter_init(&f2, s.tile, cd);
                    else
                        CHECK(layout_family_iter_init(&it, (layout_family_kind)kind, s.tile, cd, 2, 96, NULL) == LAYOUT_OK);
                    while (f2k ? layout_suggest_f2_iter_next(&f2, &p) : layout_family_iter_next(&it, &p)) {
                        if (n++ % stride) continue;
                        if (layout_suggest_build(&p, s.tile, &d, NULL) != LAYOUT_OK) continue;
                        char what[160];
                        layout_suggest_params_print(&p, what, sizeof what);
                        check_equal(&sc, &d, what);
                        checked++;
                        if (f2k) continue;
                        /* the search's path: hints from the descriptor, offsets from the
                         * linear or closed form, the plan's ops left to the search */
                        layout_suggest_cost viaf, viad;
                        CHECK(layout_suggest_score_family(&sc, &p, &d, &g_work, &viaf, NULL) == LAYOUT_OK);
                        layout_suggest_cost viap;
                        CHECK(layout_suggest_score_params(&sc, &p, &g_work, &viap, NULL) == LAYOUT_OK);
                        CHECK(memcmp(&viap, &viaf, sizeof viap) == 0);
                        CHECK(layout_suggest_score(&sc, &d, &viad, NULL) == LAYOUT_OK);
                        CHECK_EQ_I64(viaf.index_ops, INT_MAX);
                        viaf.index_ops = viad.index_ops;
                        CHECK_MSG(memcmp(&viaf, &viad, sizeof viaf) == 0, "%s: family path %lld, descriptor path %lld", what,
                                  (long long)viaf.extra_cycles, (long long)viad.extra_cycles);
                    }
                }
        }
    CHECK(checked > 1200 / scale);
}

/* Random strided layouts [64, 32] (overlaps, odd pitches), random base
 * addresses, policies and explicit ops: the compiler model's flagged paths. */
static void test_random_equal(void)
{
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    uint64_t rng = 0x5eed5eedULL;
    static const layout_ds_op ops[4] = {LAYOUT_DS_AUTO, LAYOUT_DS_AUTO, LAYOUT_DS_B32, LAYOUT_DS_B64};
    int n = harness_scaled(300);
    for (int it = 0; it < n; it++) {
        layout_suggest_spec s = seed_spec(&k, &arch);
        for (int i = 0; i < 2; i++) {
            s.sides[i].opt.policy = xorshift64s_range(&rng, 0, 1) ? LAYOUT_VECTOR_SPLIT : LAYOUT_VECTOR_TRUST;
            s.sides[i].opt.base_bytes = xorshift64s_range(&rng, 0, 3) ? 0 : 2 * xorshift64s_range(&rng, 0, 9);
            s.sides[i].opt.op = ops[xorshift64s_range(&rng, 0, 3)];
        }
        s.sides[1].opt.base_bytes = s.sides[0].opt.base_bytes; /* one LDS buffer */
        if (layout_suggest_prepare(&sc, &s, NULL) != LAYOUT_OK) continue;
        int64_t lens[2] = {64, 32}, strides[2];
        if (xorshift64s_range(&rng, 0, 1)) {
            strides[1] = xorshift64s_range(&rng, 1, 3);
            strides[0] = xorshift64s_range(&rng, 30, 70);
        } else {
            strides[1] = xorshift64s_range(&rng, 60, 70);
            strides[0] = xorshift64s_range(&rng, 1, 2);
        }
        layout_descriptor d;
        int gvl = (int)xorshift64s_range(&rng, 0, 2) * 4;
        CHECK(layout_naive_vec(&d, 2, lens, strides, gvl ? gvl : -1, gvl ? 1 : -1, NULL) == LAYOUT_OK);
        char what[96];
        snprintf(what, sizeof what, "naive strides (%lld, %lld) gvl %d", (long long)strides[0], (long long)strides[1], gvl);
        check_equal(&sc, &d, what);
    }
}

/* --- brute force ----------------------------------------------------------- */

/* One warp of rows x lanes_per_row lanes; e.g. 64 lanes over a [32, 16] fp16 tile: rows of 16 written by 2
 * lanes x 8 elements (m = lane/2, k = 8*(lane%2) + y); the read over
 * [K, M] = [16, 32]: k = lane/4, m = 8*(lane%4) + y. */
static layout_status small_dist(layout_distribution *out, int64_t rows, int64_t lanes_per_row, int64_t vec)
{
    layout_dist_encoding e;
    memset(&e, 0, sizeof e);
    e.n_x = 2;
    e.n_h[0] = 2; e.h[0][0] = 1; e.h[0][1] = rows;
    e.n_h[1] = 2; e.h[1][0] = lanes_per_row; e.h[1][1] = vec;
    e.n_p = 2;
    e.n_p_rh[0] = 1; e.p_major[0][0] = 1; e.p_minor[0][0] = 0;
    e.n_p_rh[1] = 2; e.p_major[1][0] = 1; e.p_minor[1][0] = 1; e.p_major[1][1] = 2; e.p_minor[1][1] = 0;
    e.n_y = 1; e.y_major[0] = 2; e.y_minor[0] = 1;
    int64_t tile[2] = {rows, lanes_per_row * vec};
    return layout_dist_make(out, &e, (int)(rows * lanes_per_row), 1, 2, tile, NULL);
}

typedef struct bf_entry {
    layout_family_params p;
    int64_t index, extra, instrs, bytes;
    int damage, ops;
} bf_entry;

static int bf_cmp(const bf_entry *a, const bf_entry *b)
{
    if (a->damage != b->damage) return a->damage < b->damage ? -1 : 1;
    if (a->extra != b->extra) return a->extra < b->extra ? -1 : 1;
    if (a->instrs != b->instrs) return a->instrs < b->instrs ? -1 : 1;
    if (a->bytes != b->bytes) return a->bytes < b->bytes ? -1 : 1;
    if (a->ops != b->ops) return a->ops < b->ops ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static bf_entry bf[40000];

/* Brute force over every parameter of every family with layout_check_kernel,
 * against layout_suggest on a small tile: same optimum, same Pareto front. */
/* One brute-force comparison: tile [rows, cols] fp16, the rows-written /
 * transposed-read pair of small_dist(), the given families and budget. */
static void brute_force_case_k(const char *arch_name, int64_t rows, int64_t cols, int64_t vec, unsigned families,
                               int64_t budget, int top_k, int threads)
{
    static layout_distribution wd, rd;
    static layout_descriptor d;
    CHECK(small_dist(&wd, rows, cols / vec, vec) == LAYOUT_OK);
    CHECK(small_dist(&rd, cols, rows / vec, vec) == LAYOUT_OK);
    const char *archs[1] = {arch_name};
    for (int a = 0; a < 1; a++) {
        layout_arch arch;
        CHECK(layout_arch_preset(archs[a], &arch, NULL) == LAYOUT_OK);
        layout_suggest_spec s = pair_spec(&arch, rows, cols, &wd, &rd, 1);
        s.budget_bytes = budget;
        s.families = families;
        s.top_k = top_k;
        s.threads = threads;
        layout_error e;
        CHECK_MSG(layout_suggest(&s, &res, &e) == LAYOUT_OK, "%s", e.message);

        /* the same enumeration order: kinds ascending, contiguous dim 1 then 0 */
        int n = 0;
        int64_t index = 0;
        for (int kind = 0; kind < LAYOUT_FAMILY_COUNT; kind++)
            for (int cd = 1; cd >= 0; cd--) {
                layout_family_params p;
                layout_family_iter it;
                layout_suggest_f2_iter f2;
                int f2k = kind == LAYOUT_FAMILY_F2;
                if (!(families & (1u << kind))) continue;
                if (f2k)
                    layout_suggest_f2_iter_init(&f2, s.tile, cd);
                else
                    CHECK(layout_family_iter_init(&it, (layout_family_kind)kind, s.tile, cd, 2, budget, NULL) == LAYOUT_OK);
                while (f2k ? layout_suggest_f2_iter_next(&f2, &p) : layout_family_iter_next(&it, &p)) {
                    int64_t my = index++;
                    if (layout_suggest_build(&p, s.tile, &d, NULL) != LAYOUT_OK) continue;
                    layout_kernel_result kr;
                    if (kernel_check(&s, &d, &kr) != LAYOUT_OK) continue;
                    layout_plan pl;
                    CHECK(layout_plan_build(&pl, &d, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
                    if (n == (int)(sizeof bf / sizeof bf[0])) break;
                    bf_entry *b = &bf[n++];
                    b->p = p;
                    b->index = my;
                    b->extra = kr.extra_cycles_per_tile;
                    b->instrs = kr.instrs_per_tile;
                    b->bytes = layout_desc_element_space_size(&d) * 2;
                    b->damage = kr.write.n_misaligned + kr.write.n_noncontiguous + kr.read.n_misaligned +
                                kr.read.n_noncontiguous;
                    b->ops = pl.n_ops;
                }
            }
        CHECK_EQ_I64(res.tried, index);
        CHECK_EQ_I64(res.scored, n);
        CHECK(res.all_exhausted);
        /* optimum and top K */
        bf_entry best[LAYOUT_SUGGEST_MAX_TOP];
        int nb = 0;
        for (int i = 0; i < n; i++) {
            if (nb == top_k && bf_cmp(&bf[i], &best[top_k - 1]) >= 0) continue;
            int j = nb < top_k ? nb++ : top_k - 1;
            while (j > 0 && bf_cmp(&bf[i], &best[j - 1]) < 0) {
                best[j] = best[j - 1];
                j--;
            }
            best[j] = bf[i];
        }
        CHECK_EQ_I64(res.n_top, nb);
        for (int i = 0; i < nb && i < res.n_top; i++) {
            CHECK_EQ_I64(res.top[i].index, best[i].index);
            CHECK_EQ_I64(res.top[i].cost.extra_cycles, best[i].extra);
            CHECK_EQ_I64(res.top[i].cost.lds_bytes, best[i].bytes);
            CHECK_EQ_I64(res.top[i].cost.index_ops, best[i].ops);
            CHECK_EQ_I64(res.top[i].cost.instrs, best[i].instrs);
            CHECK_EQ_I64(res.top[i].cost.vector_damage, best[i].damage);
            CHECK(memcmp(&res.top[i].params, &best[i].p, sizeof best[i].p) == 0);
        }
        /* Pareto front of (damage, extra, bytes): non-dominated points, each
         * represented by its best-ranked candidate, fewest bytes first */
        int64_t front_count = 0, last_bytes = -1;
        for (int i = 0; i < n; i++) {
            int dominated = 0, rep = 1;
            for (int j = 0; j < n && !dominated; j++) {
                const bf_entry *x = &bf[j], *y = &bf[i];
                int le = x->damage <= y->damage && x->extra <= y->extra && x->bytes <= y->bytes;
                int lt = x->damage < y->damage || x->extra < y->extra || x->bytes < y->bytes;
                if (le && lt) dominated = 1;
                if (!lt && le && bf_cmp(x, y) < 0) rep = 0; /* same point, better ranked */
            }
            if (dominated || !rep) continue;
            front_count++;
            int found = 0;
            for (int q = 0; q < res.n_pareto; q++)
                if (res.pareto[q].index == bf[i].index) found = 1;
            CHECK_MSG(found, "%s: front point index %lld (extra %lld, bytes %lld) missing", archs[a],
                      (long long)bf[i].index, (long long)bf[i].extra, (long long)bf[i].bytes);
        }
        CHECK_EQ_I64(res.pareto_total, front_count);
        CHECK_EQ_I64(res.n_pareto, front_count);
        for (int q = 0; q < res.n_pareto; q++) {
            CHECK(res.pareto[q].cost.lds_bytes >= last_bytes);
            last_bytes = res.pareto[q].cost.lds_bytes;
        }
        /* per family: tried counts, exhausted, best */
        for (int kind = 0; kind < LAYOUT_FAMILY_COUNT; kind++) {
            if (!(families & (1u << kind))) {
                CHECK(!res.families[kind].searched);
                continue;
            }
            CHECK(res.families[kind].searched);
            CHECK(res.families[kind].exhausted);
            int64_t bestx = -1;
            int bestd = -1;
            for (int i = 0; i < n; i++)
                if ((int)bf[i].p.kind == kind &&
                    (bestx < 0 || bf[i].damage < bestd || (bf[i].damage == bestd && bf[i].extra < bestx))) {
                    bestx = bf[i].extra;
                    bestd = bf[i].damage;
                }
            CHECK_EQ_I64(res.families[kind].best_extra, bestx);
            CHECK_EQ_I64(res.families[kind].best_damage, bestd);
        }
    }
}

static void brute_force_case(const char *arch_name, int64_t rows, int64_t cols, int64_t vec, unsigned families,
                             int64_t budget)
{
    brute_force_case_k(arch_name, rows, cols, vec, families, budget, 4, 1);
}

/* Brute force over every parameter of every family with layout_check_kernel,
 * against layout_suggest: same optimum (top K), same Pareto front, same
 * per-family counts.  The families on [32, 16] (b128 rows, gfx942 within 8
 * bytes, gfx950 without padding); F2 on [8, 8] (one fp16 per lane; its
 * descriptors are long xor networks, slow to interpret). */
static void test_brute_force(void)
{
    unsigned all_but_f2 = ((1u << LAYOUT_FAMILY_COUNT) - 1u) & ~(1u << LAYOUT_FAMILY_F2);
    brute_force_case("gfx942", 32, 16, 8, all_but_f2, 8);
    brute_force_case("gfx950", 32, 16, 8, all_but_f2, 0);
    brute_force_case("gfx942", 8, 8, 1, 1u << LAYOUT_FAMILY_F2, 0);
    brute_force_case("gfx950", 8, 8, 1, (1u << LAYOUT_FAMILY_F2) | (1u << LAYOUT_FAMILY_CK_XOR), 0);
}

/* The search cuts candidates by an exact bound (search.c: before scoring,
 * from the LDS bytes and the fewest instructions any layout needs, and
 * after the plans, from the exact damage and instructions) and keeps
 * linear forms, images and plans across candidates: random specs (tile,
 * vector width, arch, families, budget, top K, threads) against every
 * candidate scored from scratch: the same top K in the same order with
 * the same costs, the same front and per-family counts and bests. */
static void test_brute_force_random(void)
{
    uint64_t seed = 0x5eed5a11ULL;
    /* one warp of 64 lanes: rows * cols = 64 * vec (small_dist) */
    static const int64_t shapes[][3] = {{32, 16, 8}, {16, 32, 8}, {16, 16, 4}, {32, 8, 4}, {8, 16, 2}, {16, 8, 2}};
    static const int64_t budgets[] = {0, 4, 16, 32, 64};
    int n = harness_scaled(10);
    for (int t = 0; t < n; t++) {
        const int64_t *sh = shapes[xorshift64s_range(&seed, 0, 5)];
        unsigned fam = (unsigned)xorshift64s_range(&seed, 1, (1 << LAYOUT_FAMILY_F2) - 1);
        if (sh[0] * sh[1] <= 256 && xorshift64s_range(&seed, 0, 1)) fam |= 1u << LAYOUT_FAMILY_F2;
        int64_t budget = budgets[xorshift64s_range(&seed, 0, 4)];
        int top = (int)xorshift64s_range(&seed, 1, LAYOUT_SUGGEST_MAX_TOP);
        int threads = (int)xorshift64s_range(&seed, 1, 3);
        const char *arch = xorshift64s_range(&seed, 0, 1) ? "gfx950" : "gfx942";
        brute_force_case_k(arch, sh[0], sh[1], sh[2], fam, budget, top, threads);
    }
}

/* --- the F2 scorer (score_linear.c) ---------------------------------------- */

static int64_t g_lin_compared, g_lin_damaged, g_lin_kernel_checked;

/* Every sampled F2 swizzle of spec *s: the linear scorer (facts from the
 * bases, one checker call per side and width) equals the address path
 * (every offset, gathered and scanned) field for field, and every 8th
 * equals layout_check_kernel() of the candidate's descriptor. */
static void linear_case(const layout_suggest_spec *s, int64_t stride, const char *what)
{
    static layout_descriptor d;
    static layout_suggest_work w;
    static const int64_t none[LAYOUT_MAX_DIMS] = {-1, -1, -1, -1, -1, -1, -1, -1};
    layout_error e;
    if (layout_suggest_prepare(&sc, s, &e) != LAYOUT_OK) return;
    layout_suggest_work_init(&w);
    int64_t n = 0;
    for (int cd = 1; cd >= 0; cd--) {
        layout_suggest_f2_iter it;
        layout_family_params p;
        layout_suggest_f2_iter_init(&it, s->tile, cd);
        while (layout_suggest_f2_iter_next(&it, &p)) {
            if (n++ % stride) continue;
            layout_linear ll;
            layout_suggest_cost lin, addr;
            CHECK(layout_suggest_f2_linear(&p, s->tile, &ll, NULL) == LAYOUT_OK);
            if (!layout_suggest_linear_usable(&sc, &ll)) continue;
            layout_status sl = layout_suggest_score_linear(&sc, &w, &ll, none, none, 7, &lin, &e);
            CHECK(layout_linear_tile_offsets(&ll, w.tile_off, w.tile_cap, NULL) == LAYOUT_OK);
            layout_status sa = layout_suggest_score_offsets(&sc, &w, none, none, (int64_t)1 << ll.total_out_bits, 7,
                                                            &addr, NULL);
            CHECK_MSG(sl == sa, "%s: linear status %d, address path %d", what, sl, sa);
            if (sl || sa) continue;
            g_lin_compared++;
            g_lin_damaged += lin.vector_damage > 0;
            CHECK_MSG(memcmp(&lin, &addr, sizeof lin) == 0, "%s, F2 set %lld: linear %lld/%lld/%d, addresses %lld/%lld/%d",
                      what, (long long)n, (long long)lin.extra_cycles, (long long)lin.instrs, lin.vector_damage,
                      (long long)addr.extra_cycles, (long long)addr.instrs, addr.vector_damage);
            if (s->n_sides != 2 || g_lin_compared % 8) continue;
            layout_kernel_result kr;
            CHECK(layout_suggest_build(&p, s->tile, &d, NULL) == LAYOUT_OK);
            CHECK(kernel_check(s, &d, &kr) == LAYOUT_OK);
            CHECK_EQ_I64(lin.extra_cycles, kr.extra_cycles_per_tile);
            CHECK_EQ_I64(lin.instrs, kr.instrs_per_tile);
            CHECK_EQ_I64(lin.side_extra[0], kr.write.extra_cycles_per_tile);
            g_lin_kernel_checked++;
        }
    }
}

static uint64_t g_pad_rng = 0x9adf0f3aULL;

/* Padded family sets through the linear form plus a pad term
 * (layout_suggest_score_linear_pad) against the address path (every offset
 * from the closed form), field by field, and 1 in 8 against
 * layout_check_kernel(): every set of every family within the budget for
 * kernel 01 and 08 on gfx942 and gfx950 (XOR + pad sampled), with the
 * seed options and with random element sizes, policies, ops and bases
 * (these also on gfx950's 64-lane b32 lane grouping).  Random sizes and
 * split vectors give instructions translated by non-multiples of the bank
 * width, which the scorer's translate cache must keep apart. */
static void test_pad_form_equal(void)
{
    static layout_descriptor d;
    static layout_suggest_work w;
    const char *archs[3] = {"gfx942", "gfx950", "gfx950-b32x64"};
    seed_kernel_id ids[2] = {SEED_K01, SEED_K08};
    int64_t scale = 1000 / harness_scaled(1000), compared = 0, padded = 0, declined = 0, kchecked = 0;
    if (scale < 1) scale = 1;
    for (int a = 0; a < 3; a++)
        for (int ki = 0; ki < 2; ki++) {
            layout_arch arch;
            CHECK(layout_arch_preset(archs[a], &arch, NULL) == LAYOUT_OK);
            CHECK(seed_kernel_build(&k, ids[ki], arch.n_banks, NULL) == LAYOUT_OK);
          for (int rep = a == 2; rep < 2; rep++) { /* the b32x64 variant: random options only */
            layout_suggest_spec s = seed_spec(&k, &arch);
            s.budget_bytes = 1024;
            if (rep) { /* random element size, policies, explicit ops, base */
                static const layout_ds_op ops[5] = {LAYOUT_DS_AUTO, LAYOUT_DS_AUTO, LAYOUT_DS_B16, LAYOUT_DS_B32,
                                                    LAYOUT_DS_B64};
                static const int ebs[4] = {1, 2, 4, 8};
                s.elem_bytes = ebs[xorshift64s_range(&g_pad_rng, 0, 3)];
                for (int i = 0; i < 2; i++) {
                    s.sides[i].opt.policy =
                        xorshift64s_range(&g_pad_rng, 0, 1) ? LAYOUT_VECTOR_SPLIT : LAYOUT_VECTOR_TRUST;
                    s.sides[i].opt.op = ops[xorshift64s_range(&g_pad_rng, 0, 4)];
                }
                s.sides[0].opt.base_bytes = s.sides[1].opt.base_bytes = 256 * xorshift64s_range(&g_pad_rng, 0, 3);
            }
            if (layout_suggest_prepare(&sc, &s, NULL) != LAYOUT_OK) continue;
            layout_suggest_work_init(&w);
            int64_t n = 0;
            const int eb = s.elem_bytes;
            for (int kind = 0; kind < LAYOUT_FAMILY_F2; kind++)
                for (int cd = 1; cd >= 0; cd--) {
                    layout_family_iter it;
                    layout_family_params p;
                    if (layout_family_iter_init(&it, (layout_family_kind)kind, s.tile, cd, eb, 1024, NULL) != LAYOUT_OK)
                        continue;
                    int64_t stride = (kind == LAYOUT_FAMILY_XOR_PAD ? 211 : 4) * scale * (rep ? 3 : 1);
                    while (layout_family_iter_next(&it, &p)) {
                        if (n++ % stride) continue;
                        layout_family_params un;
                        int64_t pad, bytes, hl[2], hs[2];
                        int shift, in_bits[2], out_bits;
                        uint64_t bases[64];
                        if (!layout_family_pad_form(&p, s.tile, &un, &pad, &shift) ||
                            !layout_family_linear_bases(&un, s.tile, bases, in_bits, &out_bits))
                            continue;
                        CHECK(layout_suggest_build(&p, s.tile, &d, NULL) == LAYOUT_OK);
                        CHECK(layout_desc_vector_hints(&d, hl, hs, NULL) == LAYOUT_OK);
                        CHECK(layout_family_lds_bytes(&p, s.tile, eb, &bytes, NULL) == LAYOUT_OK);
                        static const char *const ins[2] = {"dim0", "dim1"}, *const outs[1] = {"offset"};
                        int64_t b[64];
                        for (int j = 0; j < in_bits[0] + in_bits[1]; j++) b[j] = (int64_t)bases[j];
                        layout_linear ll;
                        CHECK(layout_linear_from_bases(&ll, 2, ins, in_bits, b, 1, outs, &out_bits, NULL) == LAYOUT_OK);
                        layout_suggest_cost lin, addr;
                        layout_status sl = layout_suggest_score_linear_pad(&sc, &w, &ll, p.contiguous_dim, pad, shift,
                                                                           bytes / eb, hl, hs, 5, &lin, NULL);
                        if (sl == LAYOUT_ERR_UNSUPPORTED) {
                            declined++;
                            continue;
                        }
                        CHECK(layout_family_tile_offsets(&p, s.tile, w.tile_off, w.tile_cap, NULL) == LAYOUT_OK);
                        layout_status sa = layout_suggest_score_offsets(&sc, &w, hl, hs, bytes / eb, 5, &addr, NULL);
                        CHECK_MSG(sl == sa, "pad form status %d, address path %d", sl, sa);
                        if (sl || sa) continue;
                        char what[160];
                        layout_suggest_params_print(&p, what, sizeof what);
                        compared++;
                        padded += pad != 0;
                        CHECK_MSG(memcmp(&lin, &addr, sizeof lin) == 0, "%s (cd %d, kernel %s, %s): pad form %lld/%lld/%d, addresses %lld/%lld/%d",
                                  what, p.contiguous_dim, k.id, archs[a], (long long)lin.extra_cycles, (long long)lin.instrs,
                                  lin.vector_damage, (long long)addr.extra_cycles, (long long)addr.instrs, addr.vector_damage);
                        if (compared % 8) continue;
                        layout_kernel_result kr;
                        CHECK(kernel_check(&s, &d, &kr) == LAYOUT_OK);
                        CHECK_EQ_I64(lin.extra_cycles, kr.extra_cycles_per_tile);
                        CHECK_EQ_I64(lin.instrs, kr.instrs_per_tile);
                        CHECK_EQ_I64(lin.side_extra[0], kr.write.extra_cycles_per_tile);
                        kchecked++;
                    }
                }
          }
        }
    CHECK(padded > 1500 / scale);
    CHECK(kchecked > 200 / scale);
    CHECK(declined * 10 < compared); /* the seed distributions map bit to bit: few decline */
}

/* The F2 scorer against the address path: the seed kernels' pairs (4 waves)
 * on gfx942, gfx950 and its 64-lane b32 variant with random policies,
 * explicit ops, element sizes and base addresses (multiples of the bank
 * period: the linear path; others: the scorer declines), and one-wave
 * wave32 pairs on NVIDIA sm_90 (the load fold rule) and RDNA. */
static void test_linear_equal(void)
{
    static layout_distribution wd, rd;
    uint64_t rng = 0xf2f2f2f2ULL;
    static const layout_ds_op ops[5] = {LAYOUT_DS_AUTO, LAYOUT_DS_AUTO, LAYOUT_DS_B16, LAYOUT_DS_B32, LAYOUT_DS_B64};
    static const int ebs[4] = {1, 2, 4, 8};
    const char *archs[3] = {"gfx942", "gfx950", "gfx950-b32x64"};
    int64_t scale = 1000 / harness_scaled(1000);
    if (scale < 1) scale = 1;
    g_lin_compared = g_lin_damaged = g_lin_kernel_checked = 0;
    for (int a = 0; a < 3; a++)
        for (int ki = 0; ki < SEED_KERNEL_COUNT; ki++) {
            layout_arch arch;
            CHECK(layout_arch_preset(archs[a], &arch, NULL) == LAYOUT_OK);
            if (seed_kernel_build(&k, (seed_kernel_id)ki, arch.n_banks, NULL) != LAYOUT_OK) continue;
            for (int rep = 0; rep < 2; rep++) {
                layout_suggest_spec s = seed_spec(&k, &arch);
                if (rep) {
                    s.elem_bytes = ebs[xorshift64s_range(&rng, 0, 3)];
                    for (int i = 0; i < 2; i++) {
                        s.sides[i].opt.policy = xorshift64s_range(&rng, 0, 1) ? LAYOUT_VECTOR_SPLIT : LAYOUT_VECTOR_TRUST;
                        s.sides[i].opt.op = ops[xorshift64s_range(&rng, 0, 4)];
                    }
                    s.sides[0].opt.base_bytes = s.sides[1].opt.base_bytes = 512 * xorshift64s_range(&rng, 0, 3);
                }
                char what[96];
                snprintf(what, sizeof what, "kernel %s on %s, eb %d, ops %d/%d, base %lld", k.id, archs[a], s.elem_bytes,
                         (int)s.sides[0].opt.op, (int)s.sides[1].opt.op, (long long)s.sides[0].opt.base_bytes);
                linear_case(&s, 61 * scale, what);
            }
        }
    /* known answers: kernel 01's write is 8 elements x 64 lanes x 4 waves
     * (docs/lds-model.md §4.2), its tile index linear in those 3 + 6 + 2 bits */
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    layout_suggest_spec s = seed_spec(&k, &arch);
    CHECK(layout_suggest_prepare(&sc, &s, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(sc.f2_bits[0][0], 3);
    CHECK_EQ_I64(sc.f2_bits[0][1], 6);
    CHECK_EQ_I64(sc.f2_bits[0][2], 2);
    CHECK_EQ_I64(sc.f2_basis[0][0], 1);  /* element 1: k + 1 */
    CHECK_EQ_I64(sc.f2_basis[0][3], 8);  /* lane 1: k + 8 */
    CHECK_EQ_I64(sc.f2_basis[0][5], 32); /* lane 4: the next row */
    layout_linear ll;
    layout_family_params p;
    layout_suggest_f2_iter it;
    layout_suggest_f2_iter_init(&it, s.tile, 1);
    CHECK(layout_suggest_f2_iter_next(&it, &p));
    CHECK(layout_suggest_f2_linear(&p, s.tile, &ll, NULL) == LAYOUT_OK);
    CHECK(layout_suggest_linear_usable(&sc, &ll));
    s.sides[0].opt.base_bytes = s.sides[1].opt.base_bytes = 64; /* not a multiple of the 128-byte bank row */
    CHECK(layout_suggest_prepare(&sc, &s, NULL) == LAYOUT_OK);
    CHECK(!layout_suggest_linear_usable(&sc, &ll));
    /* a side that is not linear: 6 elements per thread */
    CHECK(small_dist(&wd, 16, 4, 6) == LAYOUT_OK);
    memset(&s, 0, sizeof s);
    s.arch = &arch;
    s.elem_bytes = 2;
    s.n_dims = 2;
    s.tile[0] = 16;
    s.tile[1] = 24;
    s.n_sides = 1;
    s.sides[0].dist = &wd;
    s.sides[0].direction = LAYOUT_WRITE;
    s.families = 1u << LAYOUT_FAMILY_F2;
    CHECK(layout_suggest_prepare(&sc, &s, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(sc.f2_bits[0][0], -1);

    /* wave32, one warp: [16, 16] and [8, 32] fp16, b128 rows, transposed reads */
    const char *archs32[2] = {"sm_90", "gfx1100"};
    const int64_t shapes[2][2] = {{16, 16}, {8, 32}};
    for (int a = 0; a < 2; a++)
        for (int sh = 0; sh < 2; sh++)
            for (int rep = 0; rep < 3; rep++) {
                int64_t rows = shapes[sh][0], cols = shapes[sh][1];
                CHECK(layout_arch_preset(archs32[a], &arch, NULL) == LAYOUT_OK);
                CHECK(small_dist(&wd, rows, cols / 8, 8) == LAYOUT_OK);
                CHECK(small_dist(&rd, cols, rows / 8, 8) == LAYOUT_OK);
                s = pair_spec(&arch, rows, cols, &wd, &rd, 1);
                s.families = 1u << LAYOUT_FAMILY_F2;
                if (rep) {
                    s.elem_bytes = ebs[xorshift64s_range(&rng, 0, 3)];
                    for (int i = 0; i < 2; i++) {
                        s.sides[i].opt.policy = xorshift64s_range(&rng, 0, 1) ? LAYOUT_VECTOR_SPLIT : LAYOUT_VECTOR_TRUST;
                        s.sides[i].opt.op = ops[xorshift64s_range(&rng, 0, 4)];
                    }
                }
                char what[96];
                snprintf(what, sizeof what, "[%lld, %lld] on %s, eb %d", (long long)rows, (long long)cols, archs32[a],
                         s.elem_bytes);
                linear_case(&s, 3 * scale, what);
            }
    CHECK(g_lin_compared > 2000 / scale);
    CHECK(g_lin_damaged > 0);
    CHECK(g_lin_kernel_checked > 200 / scale);
}

/* --- acceptance: the seed kernels ----------------------------------------- */

static void test_seed_acceptance(void)
{
    const char *archs[2] = {"gfx942", "gfx950"};
    for (int a = 0; a < 2; a++) {
        layout_arch arch;
        CHECK(layout_arch_preset(archs[a], &arch, NULL) == LAYOUT_OK);
        for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
            CHECK(seed_kernel_build(&k, (seed_kernel_id)i, arch.n_banks, NULL) == LAYOUT_OK);
            layout_kernel_spec ks = seed_kernel_spec(&k);
            ks.tiles = 1;
            layout_kernel_result seed;
            CHECK(layout_check_kernel(&arch, &ks, &seed, NULL) == LAYOUT_OK);
            int64_t seed_bytes = layout_desc_element_space_size(&k.write_desc) * SK_ELEM_BYTES;
            int seed_damage = seed.write.n_misaligned + seed.write.n_noncontiguous + seed.read.n_misaligned +
                              seed.read.n_noncontiguous;
            for (int b = 0; b < 2; b++) {
                layout_suggest_spec s = seed_spec(&k, &arch);
                s.budget_bytes = b ? 1024 : 0;
                /* F2 is searched for 01 below; XOR+pad has 635,636 sets within 1 KiB
                 * on this tile (about 10 s): searched within 64 bytes only */
                s.families &= ~(1u << LAYOUT_FAMILY_F2);
                if (b) s.families &= ~(1u << LAYOUT_FAMILY_XOR_PAD);
                layout_error e;
                CHECK_MSG(layout_suggest(&s, &res, &e) == LAYOUT_OK, "%s", e.message);
                const layout_suggest_candidate *best = &res.top[0];
                CHECK_MSG(best->cost.extra_cycles <= seed.extra_cycles_per_tile, "%s %s budget %d: %lld > seed %lld",
                          archs[a], k.id, b ? 1024 : 0, (long long)best->cost.extra_cycles,
                          (long long)seed.extra_cycles_per_tile);
                CHECK_MSG(best->cost.lds_bytes <= seed_bytes || b == 0, "%s %s", archs[a], k.id);
                CHECK(best->cost.lds_bytes <= 4096 + s.budget_bytes);
                if (b == 0) CHECK_EQ_I64(best->cost.lds_bytes, 4096);
                CHECK(best->cost.vector_damage <= seed_damage);
                CHECK(res.all_exhausted);
                /* the reported sides are the kernel check's */
                layout_kernel_result kr;
                CHECK(kernel_check(&s, &best->desc, &kr) == LAYOUT_OK);
                CHECK_EQ_I64(kr.extra_cycles_per_tile, best->cost.extra_cycles);
                CHECK_EQ_I64(kr.write.extra_cycles_per_tile, best->sides[0].extra_cycles_per_tile);
                CHECK(strcmp(kr.read.ops, best->sides[1].ops) == 0);
                if (i == SEED_K08) {
                    CHECK_EQ_I64(best->cost.extra_cycles, 0);
                    CHECK_EQ_I64(best->cost.lds_bytes, 4096);
                    CHECK_EQ_I64(best->sides[0].op_count[LAYOUT_DS_B128], best->sides[0].steps_per_wave);
                    CHECK_EQ_I64(best->sides[1].op_count[LAYOUT_DS_B128], best->sides[1].steps_per_wave);
                }
            }
        }
    }
}

/* Kernel 01's pair (b128 writes along K, 2-byte reads along M): 0 extra
 * cycles is reachable without padding, keeping the b128 writes (the
 * families were exhausted, so this is a statement about all of them). */
static void test_kernel01_settled(void)
{
    const char *archs[2] = {"gfx942", "gfx950"};
    for (int a = 0; a < 2; a++) {
        layout_arch arch;
        CHECK(layout_arch_preset(archs[a], &arch, NULL) == LAYOUT_OK);
        CHECK(seed_kernel_build(&k, SEED_K01, arch.n_banks, NULL) == LAYOUT_OK);
        layout_suggest_spec s = seed_spec(&k, &arch);
        s.threads = 2;
        CHECK(layout_suggest(&s, &res, NULL) == LAYOUT_OK);
        CHECK(res.all_exhausted);
        CHECK_EQ_I64(res.top[0].cost.extra_cycles, 0);
        CHECK_EQ_I64(res.top[0].cost.lds_bytes, 4096);
        int keeps_b128 = 0;
        for (int i = 0; i < res.n_top; i++)
            if (res.top[i].cost.extra_cycles == 0 && res.top[i].sides[0].op_count[LAYOUT_DS_B128] == 1) keeps_b128 = 1;
        CHECK(keeps_b128);
        /* with reads b16 along M only the write-side (rows) storage keeps b128 writes; padding alone does not reach 0 */
        s.families = 1u << LAYOUT_FAMILY_PAD;
        s.budget_bytes = 1024;
        CHECK(layout_suggest(&s, &res, NULL) == LAYOUT_OK);
        CHECK(res.families[LAYOUT_FAMILY_PAD].exhausted);
    }
}

/* Seed 002: strides 2..64 on 32 banks (gfx11, sm_90: wave32) and on a
 * 16-bank architecture: the factor is gcd(S, banks) (the HLSL lint's 2x, 4x, 8x,
 * 16x, 32x), the fix (+1 padding) makes it 1. */
static void test_seed002_strides(void)
{
    static const char *const arch_texts[3] = {
        "gfx11", "sm_90",
        "arch(name=xe16, banks=16, bank_bytes=4, wave=32, rw b8/b16/b32=seq(16), rw b64=seq(8), rw b96/b128=seq(4))"};
    static const int64_t strides[6] = {2, 4, 8, 16, 32, 64};
    for (int a = 0; a < 3; a++) {
        layout_arch arch;
        layout_error e;
        CHECK_MSG(layout_arch_from_text(arch_texts[a], &arch, NULL, &e) == LAYOUT_OK, "%s", e.message);
        for (int i = 0; i < 6; i++) {
            layout_suggest_stride_result r;
            CHECK(layout_suggest_stride(&arch, strides[i], 4, &r, NULL) == LAYOUT_OK);
            int64_t want = strides[i] % arch.n_banks == 0 ? arch.n_banks : strides[i] % arch.n_banks;
            int64_t g = strides[i] < arch.n_banks ? strides[i] : arch.n_banks; /* gcd of a power of two */
            (void)want;
            CHECK_EQ_I64(r.gcd_factor, g);
            CHECK_EQ_I64(r.factor, g);
            CHECK_EQ_I64(r.pad, 1);
            CHECK_EQ_I64(r.factor_padded, 1);
            CHECK_EQ_I64(r.factor_soa, 1);
        }
        layout_suggest_stride_result r;
        CHECK(layout_suggest_stride(&arch, 3, 4, &r, NULL) == LAYOUT_OK); /* odd: no conflict, pad 0 */
        CHECK_EQ_I64(r.factor, 1);
        CHECK_EQ_I64(r.pad, 0);
    }
    layout_arch arch;
    CHECK(layout_arch_preset("gfx11", &arch, NULL) == LAYOUT_OK);
    layout_suggest_stride_result r;
    layout_error e;
    CHECK(layout_suggest_stride(NULL, 2, 4, &r, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_suggest_stride(&arch, 2, 4, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_suggest_stride(&arch, 0, 4, &r, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "stride = 0");
    CHECK(layout_suggest_stride(&arch, 2, 3, &r, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_suggest_stride(&arch, 2, 2, &r, &e) == LAYOUT_OK); /* 2-byte elements: no closed form */
    CHECK_EQ_I64(r.gcd_factor, 0);
}

/* Seed 003's GEMM A tile: [64, 32] fp16, KPack 8, written in rows (seed
 * write), read MFMA-style (m = 16*warp + lane%16, k = 8*(lane/16) + y, b128).
 * The blog: naive layout 2-way on the b128 read; XOR conflict-free. */
static layout_status mfma_read_dist(layout_distribution *out)
{
    layout_dist_encoding e;
    memset(&e, 0, sizeof e);
    e.n_x = 2;
    e.n_h[0] = 2; e.h[0][0] = 4; e.h[0][1] = 16;
    e.n_h[1] = 2; e.h[1][0] = 4; e.h[1][1] = 8;
    e.n_p = 2;
    e.n_p_rh[0] = 1; e.p_major[0][0] = 1; e.p_minor[0][0] = 0;
    e.n_p_rh[1] = 2; e.p_major[1][0] = 2; e.p_minor[1][0] = 0; e.p_major[1][1] = 1; e.p_minor[1][1] = 1;
    e.n_y = 1; e.y_major[0] = 2; e.y_minor[0] = 1;
    int64_t tile[2] = {64, 32};
    return layout_dist_make(out, &e, 64, 4, 2, tile, NULL);
}

static void test_seed003_gemm(void)
{
    static layout_distribution wd, rd;
    CHECK(seed_write_dist(&wd, NULL) == LAYOUT_OK);
    CHECK(mfma_read_dist(&rd) == LAYOUT_OK);
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    layout_suggest_spec s = pair_spec(&arch, 64, 32, &wd, &rd, 0);
    s.budget_bytes = 1024;
    s.families = (1u << LAYOUT_FAMILY_PAD) | (1u << LAYOUT_FAMILY_CK_XOR);
    CHECK(layout_suggest(&s, &res, NULL) == LAYOUT_OK);
    /* naive (pad 0): the blog's 2-way read conflict */
    CHECK(layout_suggest_prepare(&sc, &s, NULL) == LAYOUT_OK);
    layout_descriptor naive;
    int64_t lens[2] = {64, 32};
    CHECK(layout_packed(&naive, 2, lens, NULL) == LAYOUT_OK);
    layout_suggest_cost c;
    CHECK(layout_suggest_score(&sc, &naive, &c, NULL) == LAYOUT_OK);
    CHECK(c.side_extra[0] == 0 && c.side_extra[1] > 0);
    /* both families listed with their costs; XOR reaches 0 without padding */
    CHECK(res.families[LAYOUT_FAMILY_PAD].searched && res.families[LAYOUT_FAMILY_CK_XOR].searched);
    CHECK(res.families[LAYOUT_FAMILY_PAD].best_extra >= 0);
    CHECK_EQ_I64(res.families[LAYOUT_FAMILY_CK_XOR].best_extra, 0);
    CHECK_EQ_I64(res.top[0].cost.extra_cycles, 0);
    CHECK_EQ_I64(res.top[0].cost.lds_bytes, 4096);
    CHECK(res.top[0].params.kind == LAYOUT_FAMILY_CK_XOR);
    int pad_listed = 0;
    for (int i = 0; i < res.n_pareto; i++) pad_listed |= res.pareto[i].params.kind == LAYOUT_FAMILY_PAD;
    for (int i = 0; i < res.n_top; i++) pad_listed |= res.top[i].params.kind == LAYOUT_FAMILY_PAD;
    (void)pad_listed;
}

/* Seed 004's MFMA readback: LDS 64 x 128 f16, rows written as vector<4xf16>
 * (32 lanes per row), read by MFMA_F32_16x16x16_F16 fragments (row =
 * lane % 16, col = 4*(lane/16) + j) over every 16 x 16 window.  The seed:
 * pitch 128 gives two 16-way conflicts, pitch 132 (pad 4) and
 * xor_shuffle<128,4,128,1> fix it. */
static void test_seed004_readback(void)
{
    static layout_distribution wd, rd;
    layout_dist_encoding e;
    memset(&e, 0, sizeof e);
    e.n_x = 2; /* write: row = 8*y0 + 2*warp + lane/32, col = 4*(lane%32) + y1 */
    e.n_h[0] = 3; e.h[0][0] = 8; e.h[0][1] = 4; e.h[0][2] = 2;
    e.n_h[1] = 2; e.h[1][0] = 32; e.h[1][1] = 4;
    e.n_p = 2;
    e.n_p_rh[0] = 1; e.p_major[0][0] = 1; e.p_minor[0][0] = 1;
    e.n_p_rh[1] = 2; e.p_major[1][0] = 1; e.p_minor[1][0] = 2; e.p_major[1][1] = 2; e.p_minor[1][1] = 0;
    e.n_y = 2; e.y_major[0] = 1; e.y_minor[0] = 0; e.y_major[1] = 2; e.y_minor[1] = 1;
    int64_t tile[2] = {64, 128};
    CHECK(layout_dist_make(&wd, &e, 64, 4, 2, tile, NULL) == LAYOUT_OK);
    memset(&e, 0, sizeof e);
    e.n_x = 2; /* read: row = 16*warp + lane%16, col = 16*y0 + 4*(lane/16) + y1 */
    e.n_h[0] = 2; e.h[0][0] = 4; e.h[0][1] = 16;
    e.n_h[1] = 3; e.h[1][0] = 8; e.h[1][1] = 4; e.h[1][2] = 4;
    e.n_p = 2;
    e.n_p_rh[0] = 1; e.p_major[0][0] = 1; e.p_minor[0][0] = 0;
    e.n_p_rh[1] = 2; e.p_major[1][0] = 2; e.p_minor[1][0] = 1; e.p_major[1][1] = 1; e.p_minor[1][1] = 1;
    e.n_y = 2; e.y_major[0] = 2; e.y_minor[0] = 0; e.y_major[1] = 2; e.y_minor[1] = 2;
    CHECK(layout_dist_make(&rd, &e, 64, 4, 2, tile, NULL) == LAYOUT_OK);
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    layout_suggest_spec s = pair_spec(&arch, 64, 128, &wd, &rd, 0);
    s.budget_bytes = 1024;
    s.families = (1u << LAYOUT_FAMILY_PAD) | (1u << LAYOUT_FAMILY_IREE_XOR_SHUFFLE);
    s.max_candidates = 0;
    layout_error err;
    CHECK_MSG(layout_suggest(&s, &res, &err) == LAYOUT_OK, "%s", err.message);
    CHECK(layout_suggest_prepare(&sc, &s, NULL) == LAYOUT_OK);
    /* the seed's three layouts, scored */
    layout_family_params p;
    layout_descriptor d;
    layout_suggest_cost naive, padded, xs;
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_PAD;
    p.contiguous_dim = 1;
    CHECK(layout_family_build(&p, s.tile, &d, NULL) == LAYOUT_OK);
    CHECK(layout_suggest_score(&sc, &d, &naive, NULL) == LAYOUT_OK);
    p.p[0] = 4;
    CHECK(layout_family_build(&p, s.tile, &d, NULL) == LAYOUT_OK);
    CHECK(layout_suggest_score(&sc, &d, &padded, NULL) == LAYOUT_OK);
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_IREE_XOR_SHUFFLE;
    p.contiguous_dim = 1;
    p.p[0] = 128; p.p[1] = 4; p.p[2] = 128; p.p[3] = 1;
    CHECK(layout_family_build(&p, s.tile, &d, NULL) == LAYOUT_OK);
    CHECK(layout_suggest_score(&sc, &d, &xs, NULL) == LAYOUT_OK);
    CHECK(naive.side_extra[1] > 0);
    CHECK(padded.side_extra[1] < naive.side_extra[1]);
    CHECK(xs.side_extra[1] < naive.side_extra[1]);
    CHECK_EQ_I64(xs.lds_bytes, 64 * 128 * 2);
    CHECK_EQ_I64(padded.lds_bytes, (64 * 128 + 63 * 4) * 2);
    /* both families listed with their best costs; the search is no worse than either seed fix */
    CHECK(res.families[LAYOUT_FAMILY_PAD].best_extra >= 0 && res.families[LAYOUT_FAMILY_PAD].best_extra <= padded.extra_cycles);
    CHECK(res.families[LAYOUT_FAMILY_IREE_XOR_SHUFFLE].best_extra >= 0 &&
          res.families[LAYOUT_FAMILY_IREE_XOR_SHUFFLE].best_extra <= xs.extra_cycles);
    CHECK(res.top[0].cost.extra_cycles <= xs.extra_cycles);
}

/* --- threads, limits, text, errors ------------------------------------------- */

/* Two results equal in everything they report (unused slots ignored). */
static int same_result(const layout_suggest_result *a, const layout_suggest_result *b)
{
    if (a->n_top != b->n_top || a->n_pareto != b->n_pareto || a->pareto_total != b->pareto_total ||
        a->tried != b->tried || a->scored != b->scored || a->all_exhausted != b->all_exhausted ||
        memcmp(a->families, b->families, sizeof a->families) != 0)
        return 0;
    for (int i = 0; i < a->n_top + a->n_pareto; i++) {
        const layout_suggest_candidate *x = i < a->n_top ? &a->top[i] : &a->pareto[i - a->n_top];
        const layout_suggest_candidate *y = i < a->n_top ? &b->top[i] : &b->pareto[i - a->n_top];
        if (x->index != y->index || memcmp(&x->params, &y->params, sizeof x->params) != 0 ||
            memcmp(&x->cost, &y->cost, sizeof x->cost) != 0 || strcmp(x->sides[1].ops, y->sides[1].ops) != 0 ||
            x->sides[0].extra_cycles_per_tile != y->sides[0].extra_cycles_per_tile)
            return 0;
    }
    return 1;
}

static void test_threads_independent(void)
{
    layout_arch arch;
    CHECK(layout_arch_preset("gfx950", &arch, NULL) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K04, arch.n_banks, NULL) == LAYOUT_OK);
    layout_suggest_spec s = seed_spec(&k, &arch);
    s.budget_bytes = 256;
    s.families &= ~((1u << LAYOUT_FAMILY_F2) | (1u << LAYOUT_FAMILY_XOR_PAD));
    s.top_k = 16;
    CHECK(layout_suggest(&s, &res, NULL) == LAYOUT_OK);
    for (int t = 2; t <= 5; t += 3) {
        s.threads = t;
        CHECK(layout_suggest(&s, &res2, NULL) == LAYOUT_OK);
        CHECK(same_result(&res, &res2));
    }
}

static void test_max_candidates(void)
{
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K08, arch.n_banks, NULL) == LAYOUT_OK);
    layout_suggest_spec s = seed_spec(&k, &arch);
    s.families = (1u << LAYOUT_FAMILY_PAD) | (1u << LAYOUT_FAMILY_CK_XOR) | (1u << LAYOUT_FAMILY_F2);
    s.max_candidates = 3;
    CHECK(layout_suggest(&s, &res, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(res.tried, 3);
    CHECK(!res.all_exhausted);
    CHECK(res.families[LAYOUT_FAMILY_PAD].exhausted);       /* pad 0 only, both orders: 2 sets */
    CHECK(!res.families[LAYOUT_FAMILY_CK_XOR].exhausted);
    CHECK(!res.families[LAYOUT_FAMILY_F2].exhausted);
    CHECK(res.families[LAYOUT_FAMILY_F2].searched);
    s.max_candidates = 2; /* cut exactly after pad */
    CHECK(layout_suggest(&s, &res, NULL) == LAYOUT_OK);
    CHECK(res.families[LAYOUT_FAMILY_PAD].exhausted);
    s.max_candidates = 1;
    CHECK(layout_suggest(&s, &res, NULL) == LAYOUT_OK);
    CHECK(!res.families[LAYOUT_FAMILY_PAD].exhausted);
    s.max_candidates = -1;
    layout_error e;
    CHECK(layout_suggest(&s, &res, &e) == LAYOUT_ERR_ARG);
}

static void test_printers(void)
{
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K08, arch.n_banks, NULL) == LAYOUT_OK);
    layout_suggest_spec s = seed_spec(&k, &arch);
    s.families = 1u << LAYOUT_FAMILY_CK_XOR;
    CHECK(layout_suggest(&s, &res, NULL) == LAYOUT_OK);
    static char buf[LAYOUT_TEXT_CAP * 2];
    CHECK(layout_suggest_candidate_print(&res.top[0], 2, buf, sizeof buf) > 0);
    CHECK_STR_CONTAINS(buf, "ck_xor");
    CHECK_STR_CONTAINS(buf, "ds_write_b128");
    CHECK(layout_suggest_candidate_print(&res.top[0], 9, buf, sizeof buf) > 0);
    CHECK(layout_suggest_candidate_print(&res.top[0], -1, buf, sizeof buf) > 0);
    CHECK(layout_suggest_candidate_print(NULL, 2, buf, sizeof buf) == -1);
    CHECK(layout_suggest_c_calls(NULL, buf, sizeof buf) == -1);
    int n = layout_suggest_c_calls(&res.top[0], buf, sizeof buf);
    CHECK(n > 0 && (size_t)n < sizeof buf);
    CHECK_STR_CONTAINS(buf, "LAYOUT_FAMILY_CK_XOR");
    CHECK_STR_CONTAINS(buf, "layout_suggest_build(&params, tile, &lds, &err);");
    /* the text in the C calls parses back to the same offsets */
    char *q = strstr(buf, "layout_desc_from_text(\"");
    CHECK(q != NULL);
    if (q) {
        q += strlen("layout_desc_from_text(\"");
        char *end = strchr(q, '"');
        CHECK(end != NULL);
        if (end) {
            *end = '\0';
            layout_descriptor d;
            CHECK(layout_desc_from_text(q, &d, NULL, NULL) == LAYOUT_OK);
            int64_t c[2] = {3, 9}, o1, o2;
            CHECK(layout_desc_offset(&d, c, &o1, NULL) == LAYOUT_OK);
            CHECK(layout_desc_offset(&res.top[0].desc, c, &o2, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(o1, o2);
            CHECK_EQ_I64(o1, 97); /* plan.h's seed 08 example: (3, 9) -> 97 */
        }
    }
    /* F2 spelling */
    layout_family_params p;
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_F2;
    p.p[0] = 8;
    p.p[1] = 1 | (1 << 7); /* g0 ^= r0, g1 ^= r1 (rb = 6) */
    p.p[2] = 6;
    p.p[3] = 2;
    p.contiguous_dim = 1;
    CHECK(layout_suggest_params_print(&p, buf, sizeof buf) > 0);
    CHECK(strcmp(buf, "F2 vec=8: g0^=r0 g1^=r1") == 0);
    p.p[1] = 0;
    layout_suggest_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "F2 vec=8: identity") == 0);
    p.p[1] = 3; /* g0 ^= r0 ^ r1 */
    layout_suggest_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "F2 vec=8: g0^=r0^r1") == 0);
    CHECK(layout_suggest_params_print(NULL, buf, sizeof buf) == -1);
    p.kind = LAYOUT_FAMILY_PAD;
    p.p[0] = 8;
    CHECK(layout_suggest_params_print(&p, buf, sizeof buf) > 0);
    CHECK(strcmp(buf, "pad 8") == 0);
}

/* F2 members are the formula of suggest.h (independent evaluation here). */
static void test_f2_build(void)
{
    int64_t tile[2] = {64, 32};
    layout_family_params p;
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_F2;
    uint64_t rng = 77;
    for (int it = 0; it < 40; it++) {
        int cd = (int)xorshift64s_range(&rng, 0, 1);
        int64_t R = tile[1 - cd], C = tile[cd];
        int rb = cd ? 6 : 5, cb = cd ? 5 : 6;
        int vb = (int)xorshift64s_range(&rng, 0, cb - 1), g = cb - vb;
        int64_t vec = (int64_t)1 << vb;
        uint64_t A = xorshift64s_next(&rng) & ((g * rb >= 64) ? ~0ULL : ((1ULL << (g * rb)) - 1));
        p.contiguous_dim = cd;
        p.p[0] = vec;
        p.p[1] = (int64_t)A;
        p.p[2] = rb;
        p.p[3] = g;
        layout_descriptor d;
        layout_error e;
        layout_status bs = layout_suggest_build(&p, tile, &d, &e);
        /* dense matrices may need more xor steps than a descriptor holds */
        CHECK_MSG(bs == LAYOUT_OK || bs == LAYOUT_ERR_CAPACITY, "%s", e.message);
        if (bs) continue;
        for (int64_t x0 = 0; x0 < 64; x0 += 3)
            for (int64_t x1 = 0; x1 < 32; x1 += 5) {
                int64_t r = cd ? x0 : x1, c = cd ? x1 : x0, grp = c / vec, ph = 0;
                for (int j = 0; j < g; j++) {
                    int bit = 0;
                    for (int i = 0; i < rb; i++)
                        if (((A >> (j * rb + i)) & 1) && ((r >> i) & 1)) bit ^= 1;
                    ph |= (int64_t)bit << j;
                }
                int64_t want = r * C + (grp ^ ph) * vec + c % vec, got;
                int64_t x[2] = {x0, x1};
                CHECK(layout_desc_offset(&d, x, &got, NULL) == LAYOUT_OK);
                CHECK_EQ_I64(got, want);
            }
        (void)R;
    }
    /* errors */
    layout_descriptor d;
    layout_error e;
    p.contiguous_dim = 1;
    p.p[0] = 8; p.p[1] = 0; p.p[2] = 6; p.p[3] = 2;
    CHECK(layout_suggest_build(NULL, tile, &d, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_suggest_build(&p, NULL, &d, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_suggest_build(&p, tile, NULL, &e) == LAYOUT_ERR_NULL);
    p.contiguous_dim = 2;
    CHECK(layout_suggest_build(&p, tile, &d, &e) == LAYOUT_ERR_ARG);
    p.contiguous_dim = 1;
    int64_t odd[2] = {48, 32};
    CHECK(layout_suggest_build(&p, odd, &d, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "power of two");
    int64_t huge[2] = {1 << 16, 1 << 16};
    CHECK(layout_suggest_build(&p, huge, &d, &e) == LAYOUT_ERR_ARG);
    p.p[0] = 3;
    CHECK(layout_suggest_build(&p, tile, &d, &e) == LAYOUT_ERR_ARG);
    p.p[0] = 8; p.p[2] = 5;
    CHECK(layout_suggest_build(&p, tile, &d, &e) == LAYOUT_ERR_ARG);
    p.p[2] = 6; p.p[1] = 1 << 12;
    CHECK(layout_suggest_build(&p, tile, &d, &e) == LAYOUT_ERR_ARG);
    p.p[1] = -1;
    CHECK(layout_suggest_build(&p, tile, &d, &e) == LAYOUT_ERR_ARG);
    p.p[0] = 1; p.p[1] = 0; p.p[2] = 11; p.p[3] = 11;
    int64_t wide[2] = {2048, 2048}; /* g * rb = 121 bits: too many */
    CHECK(layout_suggest_build(&p, wide, &d, &e) == LAYOUT_ERR_ARG);
    /* the enumeration: counts per mode; non-power-of-two tiles give nothing */
    layout_suggest_f2_iter it;
    layout_family_params q;
    layout_suggest_f2_iter_init(&it, odd, 1);
    CHECK(!layout_suggest_f2_iter_next(&it, &q));
    layout_suggest_f2_iter_init(&it, tile, 1); /* rb 6: vec 16 (64) + 8 (4096) + 4 (7^3) + 2 (7^4) + 1 (7^5): minus zeros, plus identity */
    int64_t n = 0;
    while (layout_suggest_f2_iter_next(&it, &q)) n++;
    CHECK_EQ_I64(n, 1 + 63 + 4095 + 342 + 2400 + 16806);
    int64_t t2[2] = {4096, 2}; /* rb 12, g 1: 4095 */
    layout_suggest_f2_iter_init(&it, t2, 1);
    n = 0;
    while (layout_suggest_f2_iter_next(&it, &q)) n++;
    CHECK_EQ_I64(n, 1 + 4095);
    int64_t t3[2] = {1024, 1024}; /* rb 10: diagonals once (rb + 1)^g > 20000 */
    layout_suggest_f2_iter_init(&it, t3, 1);
    n = 0;
    int64_t diag = 0;
    while (layout_suggest_f2_iter_next(&it, &q)) {
        n++;
        if (q.p[3] >= 5) diag++;
    }
    CHECK(diag > 0 && n < 200000);
}

static void test_text_spec(void)
{
    static layout_suggest_text_spec ts;
    static char text[4096];
    size_t where = 0;
    layout_error e;
    snprintf(text, sizeof text,
             "arch=gfx950; elem=2; shape=64,32; budget=1024; top=4; threads=2; max=100; families=pad, ck_xor\n"
             "write=dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)]); policy=split; base=0\n"
             "read=dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)]) ; op=b16");
    CHECK_MSG(layout_suggest_spec_from_text(text, &ts, &where, &e) == LAYOUT_OK, "%s", e.message);
    CHECK(strcmp(ts.arch.name, "gfx950") == 0);
    CHECK(ts.spec.arch == &ts.arch);
    CHECK_EQ_I64(ts.spec.n_sides, 2);
    CHECK(ts.spec.sides[0].dist == &ts.dists[0]);
    CHECK(ts.spec.sides[1].has_view && ts.spec.sides[1].view[0] == 1 && ts.spec.sides[1].view[1] == 0);
    CHECK(!ts.spec.sides[0].has_view);
    CHECK_EQ_I64(ts.spec.budget_bytes, 1024);
    CHECK_EQ_I64(ts.spec.top_k, 4);
    CHECK_EQ_I64(ts.spec.threads, 2);
    CHECK_EQ_I64(ts.spec.max_candidates, 100);
    CHECK(ts.spec.families == ((1u << LAYOUT_FAMILY_PAD) | (1u << LAYOUT_FAMILY_CK_XOR)));
    CHECK(ts.spec.sides[0].opt.policy == LAYOUT_VECTOR_SPLIT);
    CHECK(ts.spec.sides[1].opt.op == LAYOUT_DS_B16);
    /* the decoded kernel 01 search equals the struct-built one */
    layout_arch arch;
    CHECK(layout_arch_preset("gfx950", &arch, NULL) == LAYOUT_OK);
    snprintf(text, sizeof text,
             "shape=64,32; arch=gfx942; families=all;"
             "write=dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)]);"
             "read=dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)]); view=1,0");
    CHECK(layout_suggest_spec_from_text(text, &ts, &where, &e) == LAYOUT_OK);
    CHECK(ts.spec.families == (1u << LAYOUT_FAMILY_COUNT) - 1u);
    CHECK_EQ_I64(ts.spec.elem_bytes, 2);
    CHECK(ts.spec.sides[1].has_view);
    /* errors, with the column */
    static const struct {
        const char *text;
        layout_status status;
        size_t where;
        const char *msg;
    } bad[] = {
        {"shape=64,32", LAYOUT_ERR_PARSE, 11, "no side"},
        {"write=dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])", LAYOUT_ERR_PARSE, 72, "missing shape"},
        {"shape=64,x", LAYOUT_ERR_PARSE, 9, "expected a number"},
        {"shape=64;;elem", LAYOUT_ERR_PARSE, 10, "expected key=value"},
        {"shape=64; =3", LAYOUT_ERR_PARSE, 10, "missing key"},
        {"shape=64; elem=", LAYOUT_ERR_PARSE, 14, "missing value"},
        {"shape=64; elem=3 4", LAYOUT_ERR_PARSE, 17, "expected ','"},
        {"shape=64; elem=99", LAYOUT_ERR_PARSE, 15, "out of range"},
        {"shape=64; elem=99999999999999999999", LAYOUT_ERR_PARSE, 15, "too large"},
        {"shape=64; top=1,2", LAYOUT_ERR_PARSE, 16, "too many numbers"},
        {"shape=64; view=1,0", LAYOUT_ERR_PARSE, 10, "needs a write= or read="},
        {"shape=64; colour=red", LAYOUT_ERR_PARSE, 10, "unknown key: colour"},
        {"shape=64; families=pad,nope", LAYOUT_ERR_PARSE, 23, "unknown family name: nope"},
        {"shape=64; families=averyveryveryveryverylongfamilyname", LAYOUT_ERR_PARSE, 19, "unknown family"},
        {"arch=gfx9999; shape=64", LAYOUT_ERR_NOT_FOUND, 5, "arch"},
        {"shape=64; write=dist(oops)", LAYOUT_ERR_PARSE, 21, "write"},
        {"shape=64; read=dist(R=[], H=([64,4]), P=([(1,0)]), Y=[(1,1)]); policy=maybe", LAYOUT_ERR_PARSE, 0, "policy"},
        {"shape=64; read=dist(R=[], H=([64,4]), P=([(1,0)]), Y=[(1,1)]); op=b256", LAYOUT_ERR_PARSE, 0, "op must be"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        where = 12345;
        layout_status st = layout_suggest_spec_from_text(bad[i].text, &ts, &where, &e);
        CHECK_MSG(st == bad[i].status, "%s: %d", bad[i].text, st);
        if (bad[i].where) CHECK_MSG(where == bad[i].where, "%s: where %zu", bad[i].text, where);
        CHECK_STR_CONTAINS(e.message, bad[i].msg);
    }
    CHECK(layout_suggest_spec_from_text(NULL, &ts, &where, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_suggest_spec_from_text("shape=1", NULL, &where, &e) == LAYOUT_ERR_NULL);
    /* too many items, sides, an overlong value */
    char *p = text;
    for (int i = 0; i < 70; i++) p += sprintf(p, "elem=2;");
    CHECK(layout_suggest_spec_from_text(text, &ts, &where, &e) == LAYOUT_ERR_PARSE);
    CHECK_STR_CONTAINS(e.message, "more than 64 items");
    p = text + sprintf(text, "shape=64;");
    for (int i = 0; i < 5; i++) p += sprintf(p, "read=dist(R=[], H=([64,4]), P=([(1,0)]), Y=[(1,1)]);");
    CHECK(layout_suggest_spec_from_text(text, &ts, &where, &e) == LAYOUT_ERR_PARSE);
    CHECK_STR_CONTAINS(e.message, "more than 4 sides");
    static char big[LAYOUT_TEXT_CAP + 64];
    memset(big, ' ', sizeof big);
    memcpy(big, "shape=64; arch=x", 16);
    big[sizeof big - 1] = '\0';
    big[sizeof big - 2] = 'y';
    CHECK(layout_suggest_spec_from_text(big, &ts, &where, &e) == LAYOUT_ERR_PARSE);
    CHECK_STR_CONTAINS(e.message, "value too long");
    /* negative numbers parse (and are then out of range) */
    CHECK(layout_suggest_spec_from_text("shape=-4", &ts, &where, &e) == LAYOUT_ERR_PARSE);
    CHECK_STR_CONTAINS(e.message, "-4");
}

/* A table distribution that touches only part of the tile. */
static int64_t holes_table[64 * 1 * 2];

static void test_errors(void)
{
    layout_arch arch, arch32;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    CHECK(layout_arch_preset("gfx11", &arch32, NULL) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    layout_suggest_spec s = seed_spec(&k, &arch), b;
    layout_error e;
#define EXPECT(call, st, text)                                                                 \
    do {                                                                                       \
        e.message[0] = '\0';                                                                   \
        layout_status got_ = (call);                                                           \
        CHECK_MSG(got_ == (st), "%s: status %d: %s", #call, got_, e.message);                   \
        CHECK_STR_CONTAINS(e.message, text);                                                   \
    } while (0)
    EXPECT(layout_suggest(NULL, &res, &e), LAYOUT_ERR_NULL, "spec is NULL");
    EXPECT(layout_suggest(&s, NULL, &e), LAYOUT_ERR_NULL, "out is NULL");
    EXPECT(layout_suggest_prepare(NULL, &s, &e), LAYOUT_ERR_NULL, "out is NULL");
    EXPECT(layout_suggest_prepare(&sc, NULL, &e), LAYOUT_ERR_NULL, "spec is NULL");
    EXPECT(layout_suggest_run(NULL, &res, &e), LAYOUT_ERR_NULL, "sc is NULL");
    b = s; b.families = 0;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "no family to search");
    b = s; b.families = 1u << 20;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "names no family");
    b = s; b.arch = NULL;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_NULL, "spec->arch");
    b = s; b.elem_bytes = 3;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "elem_bytes = 3");
    b = s; b.n_dims = 0;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "n_dims = 0");
    b = s; b.tile[1] = 0;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "tile[1] = 0");
    b = s; b.tile[0] = 1 << 20;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_CAPACITY, "LAYOUT_SUGGEST_MAX_TILE");
    b = s; b.n_sides = 0;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "n_sides = 0");
    b = s; b.budget_bytes = -1;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "budget_bytes = -1");
    b = s; b.top_k = 99;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "top_k = 99");
    b = s; b.threads = -2;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "threads = -2");
    b = s; b.sides[1].dist = NULL;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_NULL, "sides[1].dist");
    b = s; b.sides[0].direction = (layout_direction)7;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "direction = 7");
    layout_plan pl;
    CHECK(layout_plan_build(&pl, &k.write_desc, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
    b = s; b.sides[0].opt.desc_plan = &pl;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "desc_plan must be NULL");
    b = s; b.n_dims = 3; b.tile[2] = 1;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_MISMATCH, "the distribution has 2 dims, the tile 3");
    b = s; b.sides[1].view[1] = 1;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "not a permutation");
    /* sides whose tiles differ */
    b = s; b.sides[1].has_view = 0;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_MISMATCH, "sides[1]: the distribution's tile length[0] = 32 != 64");
    b = s; b.arch = &arch32;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_MISMATCH, "wave_size");
    /* a distribution that does not cover the tile: 64 lanes x 1 element on [64, 32] */
    for (int l = 0; l < 64; l++) {
        holes_table[l * 2 + 0] = l;
        holes_table[l * 2 + 1] = 0;
    }
    static layout_distribution holes;
    int64_t tl[2] = {64, 32};
    CHECK(layout_dist_from_table(&holes, 2, tl, 64, 1, 1, holes_table, NULL) == LAYOUT_OK);
    b = s; b.sides[0].dist = &holes;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "does not cover the tile: no thread touches tile element (0, 1)");
    /* an option the access layer refuses */
    b = s; b.sides[0].opt.vector_elems = -1;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "sides[0]");
    /* a budget too small for any candidate of the families */
    b = s; b.families = 1u << LAYOUT_FAMILY_PAD_EVERY;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_NOT_FOUND, "no layout of the families pad_every fits budget_bytes = 0");
    /* a non-power-of-two tile gives F2 nothing */
    b = s; b.families = 1u << LAYOUT_FAMILY_F2;
    CHECK(layout_suggest(&b, &res, NULL) == LAYOUT_OK);
    /* 1-D specs: prepare works, the family search refuses */
    static layout_distribution one;
    layout_dist_encoding en;
    memset(&en, 0, sizeof en);
    en.n_x = 1;
    en.n_h[0] = 2; en.h[0][0] = 64; en.h[0][1] = 4;
    en.n_p = 1;
    en.n_p_rh[0] = 1; en.p_major[0][0] = 1; en.p_minor[0][0] = 0;
    en.n_y = 1; en.y_major[0] = 1; en.y_minor[0] = 1;
    int64_t t1[1] = {256};
    CHECK(layout_dist_make(&one, &en, 64, 1, 1, t1, NULL) == LAYOUT_OK);
    memset(&b, 0, sizeof b);
    b.arch = &arch;
    b.elem_bytes = 4;
    b.n_dims = 1;
    b.tile[0] = 256;
    b.n_sides = 1;
    b.sides[0].dist = &one;
    b.families = 1;
    EXPECT(layout_suggest(&b, &res, &e), LAYOUT_ERR_ARG, "2-D tiles");
    CHECK(layout_suggest_prepare(&sc, &b, NULL) == LAYOUT_OK);
    layout_descriptor d1;
    CHECK(layout_packed(&d1, 1, t1, NULL) == LAYOUT_OK);
    check_equal(&sc, &d1, "1-D packed");
    /* score argument errors */
    CHECK(layout_suggest_prepare(&sc, &s, NULL) == LAYOUT_OK);
    layout_suggest_cost c;
    EXPECT(layout_suggest_score(NULL, &k.write_desc, &c, &e), LAYOUT_ERR_NULL, "sc is NULL");
    EXPECT(layout_suggest_score(&sc, NULL, &c, &e), LAYOUT_ERR_NULL, "desc is NULL");
    EXPECT(layout_suggest_score(&sc, &k.write_desc, NULL, &e), LAYOUT_ERR_NULL, "out is NULL");
    EXPECT(layout_suggest_score_reference(NULL, &k.write_desc, &c, NULL, &e), LAYOUT_ERR_NULL, "sc is NULL");
    EXPECT(layout_suggest_score_reference(&sc, NULL, &c, NULL, &e), LAYOUT_ERR_NULL, "desc is NULL");
    EXPECT(layout_suggest_score_reference(&sc, &k.write_desc, NULL, NULL, &e), LAYOUT_ERR_NULL, "out is NULL");
    EXPECT(layout_suggest_score(&sc, &k.read_desc, &c, &e), LAYOUT_ERR_MISMATCH, "length[0] = 32 != tile length 64");
    EXPECT(layout_suggest_score_reference(&sc, &d1, &c, NULL, &e), LAYOUT_ERR_MISMATCH, "desc has 1 dims, the tile 2");
    /* addresses beyond 2^32 */
    layout_descriptor far;
    int64_t lens[2] = {64, 32}, strides[2] = {(int64_t)1 << 30, 1};
    CHECK(layout_naive(&far, 2, lens, strides, NULL) == LAYOUT_OK);
    EXPECT(layout_suggest_score(&sc, &far, &c, &e), LAYOUT_ERR_RANGE, "2^32-17");
    CHECK(layout_suggest_score_reference(&sc, &far, &c, NULL, &e) == LAYOUT_ERR_RANGE);
    /* the view helper */
    layout_descriptor v;
    EXPECT(layout_suggest_view(NULL, 0, &k.write_desc, &v, &e), LAYOUT_ERR_NULL, "spec is NULL");
    EXPECT(layout_suggest_view(&s, 0, NULL, &v, &e), LAYOUT_ERR_NULL, "desc is NULL");
    EXPECT(layout_suggest_view(&s, 0, &k.write_desc, NULL, &e), LAYOUT_ERR_NULL, "out is NULL");
    EXPECT(layout_suggest_view(&s, 2, &k.write_desc, &v, &e), LAYOUT_ERR_RANGE, "side = 2");
    EXPECT(layout_suggest_view(&s, 1, &d1, &v, &e), LAYOUT_ERR_MISMATCH, "desc has 1 dims");
    b = s; b.sides[1].view[0] = 5;
    EXPECT(layout_suggest_view(&b, 1, &k.write_desc, &v, &e), LAYOUT_ERR_ARG, "view[0] = 5");
    CHECK(layout_suggest_view(&s, 1, &k.write_desc, &v, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(layout_desc_length(&v, 0), 32);
    v = k.write_desc;
    CHECK(layout_suggest_view(&s, 0, &v, &v, NULL) == LAYOUT_OK); /* aliasing */
    /* ranking helper */
    layout_suggest_cost x, y;
    memset(&x, 0, sizeof x);
    y = x;
    CHECK(layout_suggest_score_cmp(&x, &y) == 0);
    y.index_ops = 1;
    CHECK(layout_suggest_score_cmp(&x, &y) == -1);
    x.vector_damage = 1;
    CHECK(layout_suggest_score_cmp(&x, &y) == 1);
#undef EXPECT
}

/* The command line: the table, JSON and the 1-D mode. */
static void test_tool(void)
{
    static char cmd[4096], out[1 << 16];
    snprintf(cmd, sizeof cmd,
             "%s suggest --arch gfx942 --elem 2 --shape 64,32 --family pad,ck_xor --top 3 --threads 2 "
             "--write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' "
             "--read 'dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' --json 2>&1; echo rc=$?",
             LAYOUT_TOOL_PATH);
    FILE *f = popen(cmd, "r");
    CHECK(f != NULL);
    if (!f) return;
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    pclose(f);
    CHECK_STR_CONTAINS(out, "\"conflict_free\":true");
    CHECK_STR_CONTAINS(out, "\"family\":\"ck_xor\"");
    CHECK_STR_CONTAINS(out, "\"exhausted\":true");
    CHECK_STR_CONTAINS(out, "\"bank_map\":[[");
    CHECK_STR_CONTAINS(out, "rc=0");

    /* The table names the storage order when it is not the tile's own: a
     * layout whose read is one ds_read_b128 along M can only keep M (dim 0)
     * contiguous, and it must say so (the same KPack/MLdsLayer appears in
     * both orders). */
    snprintf(cmd, sizeof cmd,
             "%s suggest --arch gfx942 --elem 2 --shape 64,32 --family ck_xor --top 8 "
             "--write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' "
             "--read 'dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' 2>&1",
             LAYOUT_TOOL_PATH);
    f = popen(cmd, "r");
    CHECK(f != NULL);
    if (!f) return;
    n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    pclose(f);
    /* The winner's ck_tile C++ (the README's tour promises it): the block
     * after "ck_tile C++:" is exactly `layout convert --to ck-cpp` of the
     * winner's text form (the dialect layer's printer, run separately). */
    {
        static char winner[4096], conv[1 << 14], cmd2[8192];
        const char *w = strstr(out, "\nwinner: "), *cpp = strstr(out, "\nck_tile C++:\n");
        CHECK(w != NULL && cpp != NULL);
        if (w && cpp) {
            w += strlen("\nwinner: ");
            size_t wl = strcspn(w, "\n");
            CHECK(wl < sizeof winner);
            memcpy(winner, w, wl < sizeof winner ? wl : 0);
            winner[wl < sizeof winner ? wl : 0] = '\0';
            cpp += strlen("\nck_tile C++:\n");
            const char *end = strstr(cpp, "\nverdict:");
            CHECK(end != NULL);
            snprintf(cmd2, sizeof cmd2, "%s convert --to ck-cpp '%s' 2>&1", LAYOUT_TOOL_PATH, winner);
            FILE *g = popen(cmd2, "r");
            CHECK(g != NULL);
            if (g && end) {
                size_t m = fread(conv, 1, sizeof conv - 1, g);
                conv[m] = '\0';
                pclose(g);
                while (m > 0 && conv[m - 1] == '\n') conv[--m] = '\0';
                CHECK(strstr(conv, "make_xor_transform") != NULL);
                CHECK((size_t)(end - cpp) == m && strncmp(cpp, conv, m) == 0);
            }
        }
    }
    int rows_b128_read = 0, rows_b128_read_dim0 = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strstr(line, "1 x ds_read_b128") || strstr(line, "bytes ")) continue;
        rows_b128_read++;
        rows_b128_read_dim0 += strstr(line, ", dim 0 contiguous") != NULL;
    }
    CHECK(rows_b128_read > 0);
    CHECK_EQ_I64(rows_b128_read_dim0, rows_b128_read);
}

/* Optional argument: run only the tests whose names contain it. */
static const char *only;
#define RUN_IF(fn) \
    do { \
        if (!only || strstr(#fn, only)) RUN(fn); \
    } while (0)

int main(int argc, char **argv)
{
    only = argc > 1 ? argv[1] : NULL;
    RUN_IF(test_seed_layouts_equal);
    RUN_IF(test_every_candidate_equal);
    RUN_IF(test_random_equal);
    RUN_IF(test_brute_force);
    RUN_IF(test_brute_force_random);
    RUN_IF(test_linear_equal);
    RUN_IF(test_pad_form_equal);
    RUN_IF(test_seed_acceptance);
    RUN_IF(test_kernel01_settled);
    RUN_IF(test_seed002_strides);
    RUN_IF(test_seed003_gemm);
    RUN_IF(test_seed004_readback);
    RUN_IF(test_threads_independent);
    RUN_IF(test_max_candidates);
    RUN_IF(test_printers);
    RUN_IF(test_f2_build);
    RUN_IF(test_text_spec);
    RUN_IF(test_errors);
    RUN_IF(test_tool);
    return harness_finish("test_suggest");
}
