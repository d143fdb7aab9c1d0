/* Adaptors: the hidden-id engine, its three constructors, evaluation,
 * hints, print, and every construction rule as a bad input. */
#include "harness.h"
#include "layout.h"

/* bottom h0 <- unmerge([2, 3]) <- top (h1, h2): the grid of adaptor.h */
static layout_status grid_2x3(layout_adaptor *a, layout_error *err)
{
    layout_transform t;
    int64_t lens[2] = { 2, 3 };
    layout_make_unmerge(2, lens, &t, NULL);
    layout_seq low = LAYOUT_SEQ(0), up = LAYOUT_SEQ(1, 2);
    int bottom = 0, top[2] = { 1, 2 };
    return layout_adaptor_from_hidden(a, 1, &t, &low, &up, 1, &bottom, 2, top, err);
}

static void test_from_hidden_grid(void)
{
    layout_adaptor a;
    CHECK(grid_2x3(&a, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(layout_adaptor_top_ndims(&a), 2);
    CHECK_EQ_I64(layout_adaptor_bottom_ndims(&a), 1);
    CHECK_EQ_I64(layout_adaptor_top_length(&a, 0), 2);
    CHECK_EQ_I64(layout_adaptor_top_length(&a, 1), 3);
    CHECK_EQ_I64(layout_adaptor_top_length(&a, 2), -1);
    CHECK_EQ_I64(layout_adaptor_top_length(&a, -1), -1);
    CHECK_EQ_I64(layout_adaptor_top_length(NULL, 0), -1);
    CHECK_EQ_I64(layout_adaptor_top_size(&a), 6);
    CHECK_EQ_I64(a.n_hidden, 3);
    for (int64_t i = 0; i < 2; i++)
        for (int64_t j = 0; j < 3; j++) {
            int64_t top[2] = { i, j }, bottom = -1, fast = -2;
            CHECK(layout_adaptor_calculate_bottom(&a, top, &bottom, NULL) == LAYOUT_OK);
            layout_adaptor_calculate_bottom_unchecked(&a, top, &fast);
            CHECK_EQ_I64(bottom, 3 * i + j);
            CHECK_EQ_I64(fast, bottom);
            CHECK(layout_adaptor_is_valid_unchecked(&a, top));
        }
    int64_t out_of_range[2] = { 1, 3 }, bottom = 77;
    layout_error e;
    CHECK(layout_adaptor_calculate_bottom(&a, out_of_range, &bottom, &e) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "layout_adaptor_calculate_bottom: coord[1] = 3 is outside 0..2");
    CHECK_EQ_I64(bottom, 77);
    out_of_range[1] = -1;
    CHECK(layout_adaptor_calculate_bottom(&a, out_of_range, &bottom, NULL) == LAYOUT_ERR_RANGE);
    CHECK(layout_adaptor_calculate_bottom(NULL, out_of_range, &bottom, NULL) == LAYOUT_ERR_NULL);
    CHECK(layout_adaptor_calculate_bottom(&a, NULL, &bottom, NULL) == LAYOUT_ERR_NULL);
    CHECK(layout_adaptor_calculate_bottom(&a, out_of_range, NULL, NULL) == LAYOUT_ERR_NULL);
    CHECK_EQ_I64(bottom, 77);
    CHECK_EQ_I64(layout_adaptor_top_ndims(NULL), 0);
    CHECK_EQ_I64(layout_adaptor_bottom_ndims(NULL), 0);
}

/* The kernel 08 read distribution (docs/lds-model.md §4.2) written as a raw
 * adaptor (how the distribution layer uses from_hidden): m = lane,
 * k = 8 * warp + y1. */
static void test_from_hidden_distribution_shape(void)
{
    layout_transform t[5];
    int64_t r[1] = { 1 }, h0[3] = { 1, 8, 8 }, h1[2] = { 4, 8 }, p1[2] = { 8, 8 }, p0[1] = { 4 };
    layout_make_replicate(1, r, &t[0], NULL);
    layout_make_unmerge(3, h0, &t[1], NULL);
    layout_make_unmerge(2, h1, &t[2], NULL);
    layout_make_merge(1, p0, &t[3], NULL);
    layout_make_merge(2, p1, &t[4], NULL);
    layout_seq low[5] = { LAYOUT_SEQ_EMPTY, LAYOUT_SEQ(0), LAYOUT_SEQ(1), LAYOUT_SEQ(6), LAYOUT_SEQ(4, 5) };
    layout_seq up[5] = { LAYOUT_SEQ(2), LAYOUT_SEQ(3, 4, 5), LAYOUT_SEQ(6, 7), LAYOUT_SEQ(8), LAYOUT_SEQ(9) };
    int bottom[2] = { 0, 1 }, top[4] = { 8, 9, 3, 7 }; /* P0, P1, Y0, Y1 */
    layout_adaptor a;
    layout_error e;
    CHECK_MSG(layout_adaptor_from_hidden(&a, 5, t, low, up, 2, bottom, 4, top, &e) == LAYOUT_OK, "%s", e.message);
    CHECK_EQ_I64(layout_adaptor_top_length(&a, 0), 4);
    CHECK_EQ_I64(layout_adaptor_top_length(&a, 1), 64);
    CHECK_EQ_I64(layout_adaptor_top_length(&a, 2), 1);
    CHECK_EQ_I64(layout_adaptor_top_length(&a, 3), 8);
    for (int64_t warp = 0; warp < 4; warp++)
        for (int64_t lane = 0; lane < 64; lane++)
            for (int64_t y1 = 0; y1 < 8; y1++) {
                int64_t tp[4] = { warp, lane, 0, y1 }, mk[2];
                CHECK(layout_adaptor_calculate_bottom(&a, tp, mk, NULL) == LAYOUT_OK);
                CHECK_EQ_I64(mk[0], lane);
                CHECK_EQ_I64(mk[1], 8 * warp + y1);
            }
}

/* merge then unmerge of the same lengths is the identity */
static void test_merge_then_unmerge_identity(void)
{
    harness_rng rng = { 77 };
    for (long it = 0; it < harness_scaled(300); it++) {
        int n = (int)harness_range(&rng, 1, 4);
        int64_t lens[4];
        for (int i = 0; i < n; i++) lens[i] = harness_range(&rng, 1, 7);
        layout_transform m, u;
        CHECK(layout_make_merge(n, lens, &m, NULL) == LAYOUT_OK);
        CHECK(layout_make_unmerge(n, lens, &u, NULL) == LAYOUT_OK);
        layout_seq all = LAYOUT_SEQ_EMPTY, one = LAYOUT_SEQ(0);
        all.n = n;
        for (int i = 0; i < n; i++) all.ids[i] = i;
        layout_adaptor a;
        CHECK(layout_adaptor_single_stage(&a, 1, &m, &all, &one, NULL) == LAYOUT_OK);
        CHECK(layout_adaptor_transform(&a, &a, 1, &u, &one, &all, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(layout_adaptor_top_ndims(&a), n);
        CHECK_EQ_I64(layout_adaptor_bottom_ndims(&a), n);
        int64_t c[4] = { 0 };
        for (int k = 0; k < 20; k++) {
            int64_t b[4] = { -1, -1, -1, -1 };
            for (int i = 0; i < n; i++) c[i] = harness_range(&rng, 0, lens[i] - 1);
            CHECK(layout_adaptor_calculate_bottom(&a, c, b, NULL) == LAYOUT_OK);
            for (int i = 0; i < n; i++) CHECK_EQ_I64(b[i], c[i]);
        }
    }
}

static void test_single_stage(void)
{
    layout_transform t;
    int64_t lens[2] = { 4, 8 };
    layout_make_merge(2, lens, &t, NULL);
    layout_seq low = LAYOUT_SEQ(0, 1), up = LAYOUT_SEQ(0);
    layout_adaptor a;
    CHECK(layout_adaptor_single_stage(&a, 1, &t, &low, &up, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(a.n_bottom, 2);
    CHECK_EQ_I64(a.bottom_hidden[0], 0);
    CHECK_EQ_I64(a.bottom_hidden[1], 1);
    CHECK_EQ_I64(a.top_hidden[0], 2);
    for (int64_t p = 0; p < 32; p++) {
        int64_t b[2];
        CHECK(layout_adaptor_calculate_bottom(&a, &p, b, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(b[0], p / 8);
        CHECK_EQ_I64(b[1], p % 8);
    }
    /* swapped lower ids: bottom 1 is the slow digit */
    low = LAYOUT_SEQ(1, 0);
    CHECK(layout_adaptor_single_stage(&a, 1, &t, &low, &up, NULL) == LAYOUT_OK);
    int64_t p = 13, b[2];
    layout_adaptor_calculate_bottom(&a, &p, b, NULL);
    CHECK_EQ_I64(b[1], 1);
    CHECK_EQ_I64(b[0], 5);
}

static void test_vector_hints_and_print(void)
{
    layout_adaptor a;
    CHECK(grid_2x3(&a, NULL) == LAYOUT_OK);
    int64_t gl[LAYOUT_MAX_HIDDEN], gs[LAYOUT_MAX_HIDDEN], l[2], s[2];
    for (int h = 0; h < LAYOUT_MAX_HIDDEN; h++) gl[h] = gs[h] = -1;
    gl[0] = 6;
    gs[0] = 1;
    CHECK(layout_adaptor_vector_hints(&a, gl, gs, l, s, NULL) == LAYOUT_OK);
    CHECK(l[0] == -1 && s[0] == -1 && l[1] == 3 && s[1] == 1); /* unmerge: gcd(6, 3) */
    gl[2] = 2; /* a guarantee overrides the rule */
    CHECK(layout_adaptor_vector_hints(&a, gl, gs, l, s, NULL) == LAYOUT_OK);
    CHECK(l[1] == 2 && s[1] == 1);
    CHECK(layout_adaptor_vector_hints(&a, NULL, NULL, l, s, NULL) == LAYOUT_OK);
    CHECK(l[1] == -1 && s[1] == -1);
    CHECK(layout_adaptor_vector_hints(NULL, gl, gs, l, s, NULL) == LAYOUT_ERR_NULL);
    CHECK(layout_adaptor_vector_hints(&a, gl, gs, NULL, s, NULL) == LAYOUT_ERR_NULL);

    char buf[512];
    int n = layout_adaptor_print(&a, buf, sizeof buf);
    CHECK(n > 0 && (size_t)n == strlen(buf));
    CHECK_STR_CONTAINS(buf, "t0: unmerge([2, 3])  [h0] <- [h1, h2]");
    CHECK_STR_CONTAINS(buf, "top: [h1, h2] lengths [2, 3]");
    CHECK(layout_adaptor_print(NULL, buf, sizeof buf) < 0);
}

/* ---------------------------------------------------------- bad input */

static void expect(layout_status got, layout_status want, const layout_error *e, const char *needle)
{
    CHECK_MSG(got == want, "%s != %s: %s", layout_status_name(got), layout_status_name(want), e->message);
    CHECK_STR_CONTAINS(e->message, needle);
}

static void test_from_hidden_bad_input(void)
{
    layout_transform t[3];
    int64_t lens[2] = { 2, 3 };
    layout_make_unmerge(2, lens, &t[0], NULL);
    layout_make_pass_through(2, &t[1], NULL);
    layout_make_xor(2, 3, &t[2], NULL);
    layout_seq low[3] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1), LAYOUT_SEQ(3, 4) };
    layout_seq up[3] = { LAYOUT_SEQ(1, 2), LAYOUT_SEQ(3), LAYOUT_SEQ(5, 6) };
    int bottom[2] = { 0, 0 }, top[2] = { 3, 2 };
    layout_adaptor a, ref;
    layout_error e;
    memset(&a, 0x3C, sizeof a);
    ref = a;
#define FH(nt, tt, lo, uu, nb, bb, ntop, tp) layout_adaptor_from_hidden(&a, nt, tt, lo, uu, nb, bb, ntop, tp, &e)
    CHECK(FH(2, t, low, up, 1, bottom, 2, top) == LAYOUT_OK); /* the good one */
    memset(&a, 0x3C, sizeof a);
    expect(layout_adaptor_from_hidden(NULL, 2, t, low, up, 1, bottom, 2, top, &e), LAYOUT_ERR_NULL, &e, "out is NULL");
    expect(FH(2, NULL, low, up, 1, bottom, 2, top), LAYOUT_ERR_NULL, &e, "transforms is NULL");
    expect(FH(2, t, NULL, up, 1, bottom, 2, top), LAYOUT_ERR_NULL, &e, "lower_hidden is NULL");
    expect(FH(2, t, low, NULL, 1, bottom, 2, top), LAYOUT_ERR_NULL, &e, "upper_hidden is NULL");
    expect(FH(2, t, low, up, 1, NULL, 2, top), LAYOUT_ERR_NULL, &e, "bottom_hidden is NULL");
    expect(FH(2, t, low, up, 1, bottom, 2, NULL), LAYOUT_ERR_NULL, &e, "top_hidden is NULL");
    expect(FH(-1, t, low, up, 1, bottom, 2, top), LAYOUT_ERR_CAPACITY, &e, "n_transforms = -1");
    expect(FH(LAYOUT_MAX_TRANSFORMS + 1, t, low, up, 1, bottom, 2, top), LAYOUT_ERR_CAPACITY, &e, "n_transforms = 25");
    expect(FH(2, t, low, up, 0, bottom, 2, top), LAYOUT_ERR_CAPACITY, &e, "n_bottom = 0");
    expect(FH(2, t, low, up, LAYOUT_MAX_DIMS + 1, bottom, 2, top), LAYOUT_ERR_CAPACITY, &e, "n_bottom = 9");
    expect(FH(2, t, low, up, 1, bottom, 0, top), LAYOUT_ERR_CAPACITY, &e, "n_top = 0");
    expect(FH(2, t, low, up, 1, bottom, 9, top), LAYOUT_ERR_CAPACITY, &e, "n_top = 9");
    expect(FH(2, t, low, up, 2, bottom, 2, top), LAYOUT_ERR_DIM_ID, &e, "bottom_hidden[1] = 0 repeats");
    int bad_bottom = LAYOUT_MAX_HIDDEN;
    expect(FH(2, t, low, up, 1, &bad_bottom, 2, top), LAYOUT_ERR_DIM_ID, &e, "bottom_hidden[0] = 48 is not a hidden id");
    /* lower id not yet written (transform order matters) */
    layout_transform rev[2] = { t[1], t[0] };
    layout_seq rlow[2] = { LAYOUT_SEQ(1), LAYOUT_SEQ(0) }, rup[2] = { LAYOUT_SEQ(3), LAYOUT_SEQ(1, 2) };
    expect(FH(2, rev, rlow, rup, 1, bottom, 2, top), LAYOUT_ERR_DIM_ID, &e,
           "lower_hidden[0].ids[0] = 1 is neither a bottom dim nor written by an earlier transform");
    /* a hidden id computed by two transforms */
    layout_seq dlow[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(0) };
    expect(FH(2, t, dlow, up, 1, bottom, 2, top), LAYOUT_ERR_DIM_ID, &e, "already computed by transforms[0]");
    /* an upper id that is a bottom dim / written twice */
    layout_seq ub[2] = { LAYOUT_SEQ(0, 2), LAYOUT_SEQ(3) };
    expect(FH(2, t, low, ub, 1, bottom, 2, top), LAYOUT_ERR_DIM_ID, &e, "is already a bottom dim");
    layout_seq uw[2] = { LAYOUT_SEQ(1, 2), LAYOUT_SEQ(2) };
    int top2[2] = { 2, 1 };
    expect(FH(2, t, low, uw, 1, bottom, 2, top2), LAYOUT_ERR_DIM_ID, &e, "already written by an earlier transform");
    /* sequence sizes must match the transform (xor on one dim) */
    layout_seq xlow[3] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1), LAYOUT_SEQ(3) };
    int xtop[2] = { 5, 6 };
    expect(FH(3, t, xlow, up, 1, bottom, 2, xtop), LAYOUT_ERR_DIM_ID, &e,
           "lower_hidden[2].n = 1 but transforms[2] (xor) has 2 lower dims");
    layout_seq bad_id[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(-1) };
    expect(FH(2, t, bad_id, up, 1, bottom, 2, top), LAYOUT_ERR_DIM_ID, &e, "lower_hidden[1].ids[0] = -1");
    /* top ids */
    int t_unwritten[2] = { 3, 7 }, t_read[2] = { 3, 1 }, t_dup[2] = { 3, 3 }, t_range[2] = { 3, 99 };
    expect(FH(2, t, low, up, 1, bottom, 2, t_unwritten), LAYOUT_ERR_DIM_ID, &e, "top_hidden[1] = 7 is not written");
    expect(FH(2, t, low, up, 1, bottom, 2, t_read), LAYOUT_ERR_DIM_ID, &e, "top_hidden[1] = 1 is also computed");
    expect(FH(2, t, low, up, 1, bottom, 2, t_dup), LAYOUT_ERR_DIM_ID, &e, "repeats top_hidden[0]");
    expect(FH(2, t, low, up, 1, bottom, 2, t_range), LAYOUT_ERR_DIM_ID, &e, "top_hidden[1] = 99");
    /* a tampered transform */
    layout_transform tampered[2] = { t[0], t[1] };
    tampered[1].lower_lengths[0] = 5;
    expect(FH(2, tampered, low, up, 1, bottom, 2, top), LAYOUT_ERR_MISMATCH, &e, "transforms[1]");
    CHECK(memcmp(&a, &ref, sizeof a) == 0);
#undef FH
}

static void test_overflow_detected_at_construction(void)
{
    /* Each transform alone is fine; together the offset can overflow. */
    layout_transform t[2];
    int64_t len = (int64_t)1 << 31, coef = (int64_t)1 << 31;
    CHECK(layout_make_offset(4, INT64_MAX - 10, &t[0], NULL) == LAYOUT_OK);
    CHECK(layout_make_embed(1, &len, &coef, &t[1], NULL) == LAYOUT_OK);
    layout_seq low[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1) }, up[2] = { LAYOUT_SEQ(1), LAYOUT_SEQ(2) };
    int bottom = 0, top = 2;
    layout_adaptor a;
    layout_error e;
    CHECK(layout_adaptor_from_hidden(&a, 2, t, low, up, 1, &bottom, 1, &top, &e) == LAYOUT_ERR_OVERFLOW);
    CHECK_STR_CONTAINS(e.message, "transforms[0] (offset) can overflow");
    /* product of top lengths */
    layout_transform big[2];
    int64_t huge = (int64_t)1 << 40;
    layout_make_insert(huge, &big[0], NULL);
    layout_make_insert(huge, &big[1], NULL);
    layout_transform both[3];
    layout_make_freeze(0, &both[0], NULL);
    both[1] = big[0];
    both[2] = big[1];
    layout_seq l3[3] = { LAYOUT_SEQ(0), LAYOUT_SEQ_EMPTY, LAYOUT_SEQ_EMPTY };
    layout_seq u3[3] = { LAYOUT_SEQ_EMPTY, LAYOUT_SEQ(1), LAYOUT_SEQ(2) };
    int tops[2] = { 1, 2 };
    CHECK(layout_adaptor_from_hidden(&a, 3, both, l3, u3, 1, &bottom, 2, tops, &e) == LAYOUT_ERR_OVERFLOW);
    CHECK_STR_CONTAINS(e.message, "product of the top lengths");
}

static void test_stage_bad_input(void)
{
    layout_adaptor a, b, ref;
    layout_error e;
    CHECK(grid_2x3(&a, NULL) == LAYOUT_OK);
    layout_transform t[2], m;
    layout_make_pass_through(2, &t[0], NULL);
    layout_make_pass_through(3, &t[1], NULL);
    int64_t lens[2] = { 2, 3 };
    layout_make_merge(2, lens, &m, NULL);
    memset(&b, 0x11, sizeof b);
    ref = b;
    layout_seq low[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1) }, up[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1) };
    CHECK(layout_adaptor_transform(&b, &a, 2, t, low, up, NULL) == LAYOUT_OK);
    memset(&b, 0x11, sizeof b);
    layout_seq dup[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(0) }, range[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(2) };
    expect(layout_adaptor_transform(&b, &a, 2, t, dup, up, &e), LAYOUT_ERR_DIM_ID, &e,
           "layout_adaptor_transform: lower_ids[1].ids[0] = 0 appears twice");
    expect(layout_adaptor_transform(&b, &a, 2, t, range, up, &e), LAYOUT_ERR_DIM_ID, &e, "lower_ids[1].ids[0] = 2 is not in 0..1");
    expect(layout_adaptor_transform(&b, &a, 1, t, low, up, &e), LAYOUT_ERR_DIM_ID, &e, "lower_ids misses dim 1");
    layout_seq up_gap[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(2) };
    expect(layout_adaptor_transform(&b, &a, 2, t, low, up_gap, &e), LAYOUT_ERR_DIM_ID, &e, "upper_ids[1].ids[0] = 2");
    layout_seq merge_low = LAYOUT_SEQ(0), merge_up = LAYOUT_SEQ(0);
    expect(layout_adaptor_transform(&b, &a, 1, &m, &merge_low, &merge_up, &e), LAYOUT_ERR_DIM_ID, &e,
           "transforms[0] (merge) takes 2 lower dims but lower_ids[0] has 1");
    expect(layout_adaptor_transform(&b, &a, 0, t, low, up, &e), LAYOUT_ERR_CAPACITY, &e, "n_transforms = 0");
    expect(layout_adaptor_transform(NULL, &a, 2, t, low, up, &e), LAYOUT_ERR_NULL, &e, "out is NULL");
    expect(layout_adaptor_transform(&b, NULL, 2, t, low, up, &e), LAYOUT_ERR_NULL, &e, "in is NULL");
    expect(layout_adaptor_transform(&b, &a, 2, NULL, low, up, &e), LAYOUT_ERR_NULL, &e, "transforms is NULL");
    expect(layout_adaptor_transform(&b, &a, 2, t, NULL, up, &e), LAYOUT_ERR_NULL, &e, "lower_ids is NULL");
    expect(layout_adaptor_transform(&b, &a, 2, t, low, NULL, &e), LAYOUT_ERR_NULL, &e, "upper_ids is NULL");
    CHECK(memcmp(&b, &ref, sizeof b) == 0);

    /* capacity: transforms, then hidden dims */
    layout_adaptor c = a;
    layout_status st = LAYOUT_OK;
    int stages = 0;
    while (st == LAYOUT_OK && stages < 100) {
        st = layout_adaptor_transform(&c, &c, 2, t, low, up, &e);
        stages++;
    }
    CHECK_EQ_I64(st, LAYOUT_ERR_CAPACITY);
    CHECK(c.n_transforms <= LAYOUT_MAX_TRANSFORMS && c.n_hidden <= LAYOUT_MAX_HIDDEN);
    CHECK_STR_CONTAINS(e.message, "capacity");

    /* single stage */
    layout_seq sl[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(0) }, su[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1) };
    expect(layout_adaptor_single_stage(&b, 2, t, sl, su, &e), LAYOUT_ERR_DIM_ID, &e,
           "layout_adaptor_single_stage: lower_ids[1].ids[0] = 0");
    expect(layout_adaptor_single_stage(NULL, 2, t, low, up, &e), LAYOUT_ERR_NULL, &e, "out is NULL");
    expect(layout_adaptor_single_stage(&b, 2, t, low, NULL, &e), LAYOUT_ERR_NULL, &e, "upper_ids is NULL");
    layout_seq many = LAYOUT_SEQ(0, 1, 2, 3, 4, 5, 6, 7);
    many.n = 9; /* more ids than a sequence holds */
    expect(layout_adaptor_single_stage(&b, 1, t, &many, up, &e), LAYOUT_ERR_DIM_ID, &e, "takes 1 lower dims");
    CHECK(memcmp(&b, &ref, sizeof b) == 0);
}

int main(void)
{
    RUN(test_from_hidden_grid);
    RUN(test_from_hidden_distribution_shape);
    RUN(test_merge_then_unmerge_identity);
    RUN(test_single_stage);
    RUN(test_vector_hints_and_print);
    RUN(test_from_hidden_bad_input);
    RUN(test_overflow_detected_at_construction);
    RUN(test_stage_bad_input);
    return harness_finish("test_adaptor");
}
