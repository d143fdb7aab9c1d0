/* Every documented limit (docs/limits.md), exactly at the limit and one
 * past it: the value at the limit is accepted and works, the value one past
 * fails with the documented status and leaves the output untouched. */
#include "harness.h"
#include "layout.h"

/* Poison an output, run a call expected to fail, check it stayed poisoned. */
#define CHECK_FAILS_UNTOUCHED(obj, status, call)                                 \
    do {                                                                         \
        memset(&(obj), 0x5a, sizeof(obj));                                       \
        unsigned char before_[sizeof(obj)];                                      \
        memcpy(before_, &(obj), sizeof(obj));                                    \
        layout_status s_ = (call);                                               \
        CHECK_MSG(s_ == (status), "%s: got %s", #call, layout_status_name(s_));  \
        CHECK(memcmp(before_, &(obj), sizeof(obj)) == 0);                        \
    } while (0)

static layout_error err;

/* ---- dims of a descriptor: LAYOUT_MAX_DIMS ------------------------------- */

static void test_max_dims(void)
{
    int64_t len[LAYOUT_MAX_DIMS + 1], str[LAYOUT_MAX_DIMS + 1];
    layout_descriptor d;
    for (int i = 0; i <= LAYOUT_MAX_DIMS; i++) len[i] = 2, str[i] = (int64_t)1 << i;
    CHECK(layout_naive(&d, LAYOUT_MAX_DIMS, len, str, &err) == LAYOUT_OK);
    CHECK_EQ_I64(layout_desc_ndims(&d), LAYOUT_MAX_DIMS);
    CHECK_EQ_I64(layout_desc_size(&d), 1 << LAYOUT_MAX_DIMS);
    int64_t last[LAYOUT_MAX_DIMS], off = -1;
    for (int i = 0; i < LAYOUT_MAX_DIMS; i++) last[i] = 1;
    CHECK(layout_desc_offset(&d, last, &off, &err) == LAYOUT_OK);
    CHECK_EQ_I64(off, (1 << LAYOUT_MAX_DIMS) - 1);
    CHECK(layout_packed(&d, LAYOUT_MAX_DIMS, len, &err) == LAYOUT_OK);

    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_CAPACITY, layout_naive(&d, LAYOUT_MAX_DIMS + 1, len, str, &err));
    CHECK_STR_CONTAINS(err.message, "layout_naive");
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_CAPACITY, layout_packed(&d, LAYOUT_MAX_DIMS + 1, len, &err));
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_CAPACITY, layout_aligned(&d, LAYOUT_MAX_DIMS + 1, len, 4, &err));
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_CAPACITY, layout_naive(&d, 0, len, str, &err));
}

/* ---- dims of one transform: LAYOUT_MAX_TRANSFORM_DIMS -------------------- */

static void test_max_transform_dims(void)
{
    int64_t len[LAYOUT_MAX_TRANSFORM_DIMS + 1], coef[LAYOUT_MAX_TRANSFORM_DIMS + 1];
    layout_transform t;
    for (int i = 0; i <= LAYOUT_MAX_TRANSFORM_DIMS; i++) len[i] = 2, coef[i] = 1;
    const int n = LAYOUT_MAX_TRANSFORM_DIMS;
    CHECK(layout_make_embed(n, len, coef, &t, &err) == LAYOUT_OK);
    CHECK(layout_make_merge(n, len, &t, &err) == LAYOUT_OK);
    CHECK_EQ_I64(t.upper_lengths[0], 1 << n);
    CHECK(layout_make_merge_divmod(n, len, &t, &err) == LAYOUT_OK);
    CHECK(layout_make_unmerge(n, len, &t, &err) == LAYOUT_OK);
    CHECK(layout_make_replicate(n, len, &t, &err) == LAYOUT_OK);

    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_CAPACITY, layout_make_embed(n + 1, len, coef, &t, &err));
    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_CAPACITY, layout_make_merge(n + 1, len, &t, &err));
    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_CAPACITY, layout_make_merge_divmod(n + 1, len, &t, &err));
    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_CAPACITY, layout_make_unmerge(n + 1, len, &t, &err));
    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_CAPACITY, layout_make_replicate(n + 1, len, &t, &err));
    /* The low end: embed needs one dim, replicate accepts none. */
    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_CAPACITY, layout_make_embed(0, len, coef, &t, &err));
    CHECK(layout_make_replicate(0, NULL, &t, &err) == LAYOUT_OK);
    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_CAPACITY, layout_make_replicate(-1, len, &t, &err));
}

/* ---- transforms of an adaptor: LAYOUT_MAX_TRANSFORMS ---------------------- */

/* A chain of n pass_throughs: hidden i+1 -> hidden i, bottom 0, top n. */
static layout_status chain(layout_adaptor *a, int n)
{
    static layout_transform t[LAYOUT_MAX_TRANSFORMS + 1];
    static layout_seq lo[LAYOUT_MAX_TRANSFORMS + 1], up[LAYOUT_MAX_TRANSFORMS + 1];
    for (int i = 0; i < n; i++) {
        layout_make_pass_through(4, &t[i], NULL);
        lo[i].n = 1;
        lo[i].ids[0] = i;
        up[i].n = 1;
        up[i].ids[0] = i + 1;
    }
    int bottom = 0, top = n;
    return layout_adaptor_from_hidden(a, n, t, lo, up, 1, &bottom, 1, &top, &err);
}

static void test_max_transforms(void)
{
    static layout_adaptor a;
    CHECK(chain(&a, LAYOUT_MAX_TRANSFORMS) == LAYOUT_OK);
    CHECK_EQ_I64(a.n_transforms, LAYOUT_MAX_TRANSFORMS);
    int64_t top = 3, bottom = -1;
    CHECK(layout_adaptor_calculate_bottom(&a, &top, &bottom, &err) == LAYOUT_OK);
    CHECK_EQ_I64(bottom, 3);
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_CAPACITY, chain(&a, LAYOUT_MAX_TRANSFORMS + 1));
    CHECK_STR_CONTAINS(err.message, "n_transforms");

    /* The same limit reached by stages: a 1-D packed descriptor has one
     * transform; each stage adds one pass_through. */
    static layout_descriptor d, keep;
    int64_t len = 4;
    CHECK(layout_packed(&d, 1, &len, &err) == LAYOUT_OK);
    layout_transform pt;
    layout_make_pass_through(4, &pt, NULL);
    layout_seq s0 = {1, {0}};
    while (d.adaptor.n_transforms < LAYOUT_MAX_TRANSFORMS)
        if (layout_transform_descriptor(&d, &d, 1, &pt, &s0, &s0, &err) != LAYOUT_OK) break;
    CHECK_EQ_I64(d.adaptor.n_transforms, LAYOUT_MAX_TRANSFORMS);
    keep = d;
    CHECK(layout_transform_descriptor(&d, &d, 1, &pt, &s0, &s0, &err) == LAYOUT_ERR_CAPACITY);
    /* out aliases in: untouched (field-wise: the structs have padding). */
    CHECK_EQ_I64(d.adaptor.n_transforms, keep.adaptor.n_transforms);
    CHECK_EQ_I64(d.adaptor.n_hidden, keep.adaptor.n_hidden);
    CHECK_EQ_I64(layout_desc_ndims(&d), 1);
    CHECK(memcmp(d.adaptor.transforms[LAYOUT_MAX_TRANSFORMS - 1].params, keep.adaptor.transforms[LAYOUT_MAX_TRANSFORMS - 1].params,
                 sizeof d.adaptor.transforms[0].params) == 0);
}

/* ---- hidden dims: LAYOUT_MAX_HIDDEN --------------------------------------- */

/* Bottom hidden 0 and one pass_through writing hidden id max_id (the top). */
static layout_status wide(layout_adaptor *a, int max_id)
{
    layout_transform t[2];
    layout_seq lo[2], up[2];
    layout_make_pass_through(2, &t[0], NULL);
    lo[0].n = 1, lo[0].ids[0] = 0;
    up[0].n = 1, up[0].ids[0] = max_id;
    int bottom = 0, top = max_id;
    return layout_adaptor_from_hidden(a, 1, t, lo, up, 1, &bottom, 1, &top, &err);
}

static void test_max_hidden(void)
{
    static layout_adaptor a;
    CHECK(wide(&a, LAYOUT_MAX_HIDDEN - 1) == LAYOUT_OK);
    int64_t top = 1, bottom = -1;
    CHECK(layout_adaptor_calculate_bottom(&a, &top, &bottom, &err) == LAYOUT_OK);
    CHECK_EQ_I64(bottom, 1);
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_DIM_ID, wide(&a, LAYOUT_MAX_HIDDEN));
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_DIM_ID, wide(&a, -1));

    /* Hidden ids run out through stages: unmerge(2 x 8) of one dim, then
     * merge back, appends 9 hidden dims per 2 transforms, so the hidden
     * capacity is reached before the transform capacity. */
    static layout_descriptor d;
    int64_t len = 256, two[8] = {2, 2, 2, 2, 2, 2, 2, 2};
    CHECK(layout_packed(&d, 1, &len, &err) == LAYOUT_OK);
    layout_transform um, mg;
    layout_make_unmerge(8, two, &um, NULL);
    layout_make_merge(8, two, &mg, NULL);
    layout_seq s0 = {1, {0}}, s01 = {8, {0, 1, 2, 3, 4, 5, 6, 7}};
    layout_status st = LAYOUT_OK;
    for (int i = 0; i < 2 * LAYOUT_MAX_HIDDEN && st == LAYOUT_OK; i++)
        st = i % 2 ? layout_transform_descriptor(&d, &d, 1, &mg, &s01, &s0, &err)
                   : layout_transform_descriptor(&d, &d, 1, &um, &s0, &s01, &err);
    CHECK_MSG(st == LAYOUT_ERR_CAPACITY, "%s", err.message);
    CHECK(d.adaptor.n_hidden <= LAYOUT_MAX_HIDDEN);
    CHECK(d.adaptor.n_hidden + 8 > LAYOUT_MAX_HIDDEN);
    CHECK(d.adaptor.n_transforms < LAYOUT_MAX_TRANSFORMS);
}

/* ---- top / bottom dims of an adaptor: LAYOUT_MAX_DIMS ---------------------- */

static void test_adaptor_top_dims(void)
{
    static layout_adaptor a;
    int64_t ones[LAYOUT_MAX_TRANSFORM_DIMS];
    for (int i = 0; i < LAYOUT_MAX_TRANSFORM_DIMS; i++) ones[i] = 2;
    layout_transform t[2];
    layout_seq lo[2], up[2];
    /* unmerge(2 x 8) -> 8 top dims; plus an insert for a 9th. */
    layout_make_unmerge(LAYOUT_MAX_TRANSFORM_DIMS, ones, &t[0], NULL);
    layout_make_insert(3, &t[1], NULL);
    lo[0].n = 1, lo[0].ids[0] = 0;
    up[0].n = LAYOUT_MAX_TRANSFORM_DIMS;
    int top[LAYOUT_MAX_DIMS + 1], bottom = 0;
    for (int i = 0; i < LAYOUT_MAX_TRANSFORM_DIMS; i++) up[0].ids[i] = top[i] = 1 + i;
    lo[1].n = 0;
    up[1].n = 1, up[1].ids[0] = top[LAYOUT_MAX_DIMS] = 1 + LAYOUT_MAX_TRANSFORM_DIMS;
    CHECK(layout_adaptor_from_hidden(&a, 1, t, lo, up, 1, &bottom, LAYOUT_MAX_DIMS, top, &err) == LAYOUT_OK);
    CHECK_EQ_I64(layout_adaptor_top_ndims(&a), LAYOUT_MAX_DIMS);
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_CAPACITY,
                          layout_adaptor_from_hidden(&a, 2, t, lo, up, 1, &bottom, LAYOUT_MAX_DIMS + 1, top, &err));

    /* Bottom dims: merge(2 x 8) writes one top id from 8 bottom ids; a 9th
     * bottom id is one too many. */
    int bottoms[LAYOUT_MAX_DIMS + 1], one_top = LAYOUT_MAX_DIMS + 1;
    layout_make_merge(LAYOUT_MAX_TRANSFORM_DIMS, ones, &t[0], NULL);
    lo[0].n = LAYOUT_MAX_TRANSFORM_DIMS;
    for (int i = 0; i <= LAYOUT_MAX_DIMS; i++) bottoms[i] = i;
    for (int i = 0; i < LAYOUT_MAX_TRANSFORM_DIMS; i++) lo[0].ids[i] = i;
    up[0].n = 1, up[0].ids[0] = one_top;
    CHECK(layout_adaptor_from_hidden(&a, 1, t, lo, up, LAYOUT_MAX_DIMS, bottoms, 1, &one_top, &err) == LAYOUT_OK);
    CHECK_EQ_I64(layout_adaptor_bottom_ndims(&a), LAYOUT_MAX_DIMS);
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_CAPACITY,
                          layout_adaptor_from_hidden(&a, 1, t, lo, up, LAYOUT_MAX_DIMS + 1, bottoms, 1, &one_top, &err));
}

/* ---- offset range: int64 ---------------------------------------------------- */

static void test_offset_range(void)
{
    layout_descriptor d;
    /* element_space_size = 1 + (len - 1) * stride must fit int64. */
    int64_t len = 2, stride = INT64_MAX - 1;
    CHECK(layout_naive(&d, 1, &len, &stride, &err) == LAYOUT_OK);
    CHECK_EQ_I64(layout_desc_element_space_size(&d), INT64_MAX);
    int64_t c = 1, off = 0;
    CHECK(layout_desc_offset(&d, &c, &off, &err) == LAYOUT_OK);
    CHECK_EQ_I64(off, INT64_MAX - 1);
    stride = INT64_MAX;
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_OVERFLOW, layout_naive(&d, 1, &len, &stride, &err));

    /* Packed: the product of the lengths is the element count. */
    int64_t big[2] = {(int64_t)1 << 31, ((int64_t)1 << 32) - 1};
    CHECK(layout_packed(&d, 2, big, &err) == LAYOUT_OK); /* 2^63 - 2^31 elements */
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_OVERFLOW, layout_packed(&d, 2, (int64_t[]){(int64_t)1 << 32, (int64_t)1 << 31}, &err));

    /* naive_offset: the largest offset base + extent must fit. */
    len = 2, stride = 1;
    CHECK(layout_naive_offset(&d, 1, &len, &stride, INT64_MAX - 1, &err) == LAYOUT_OK);
    c = 1;
    CHECK(layout_desc_offset(&d, &c, &off, &err) == LAYOUT_OK);
    CHECK_EQ_I64(off, INT64_MAX);
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_OVERFLOW, layout_naive_offset(&d, 1, &len, &stride, INT64_MAX, &err));

    /* Transforms: offset(L, o) needs L - 1 + o to fit; pad lengths too. */
    layout_transform t;
    CHECK(layout_make_offset(2, INT64_MAX - 1, &t, &err) == LAYOUT_OK);
    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_OVERFLOW, layout_make_offset(2, INT64_MAX, &t, &err));
    CHECK(layout_make_pad(INT64_MAX - 2, 1, 1, &t, &err) == LAYOUT_OK);
    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_OVERFLOW, layout_make_pad(INT64_MAX - 1, 1, 1, &t, &err));
    int64_t ml[2] = {(int64_t)1 << 31, (int64_t)1 << 31};
    CHECK(layout_make_merge(2, ml, &t, &err) == LAYOUT_OK);
    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_OVERFLOW, layout_make_merge(2, (int64_t[]){(int64_t)1 << 32, (int64_t)1 << 31}, &t, &err));
    /* embed: the largest |low| = sum (len - 1) * |coef|. */
    int64_t el[1] = {2}, ec[1] = {INT64_MAX};
    CHECK(layout_make_embed(1, el, ec, &t, &err) == LAYOUT_OK);
    int64_t el2[2] = {2, 2}, ec2[2] = {INT64_MAX, 1};
    CHECK_FAILS_UNTOUCHED(t, LAYOUT_ERR_OVERFLOW, layout_make_embed(2, el2, ec2, &t, &err));

    /* Composition: each transform fits, the composed values do not.
     * naive [2] stride 2^61 reaches 2^61; offset(2, 1) below it makes the
     * embed see index 2: 2^62 still fits; offset(2, 3) makes it see 4: 2^63
     * does not. */
    static layout_descriptor base, staged;
    len = 2, stride = (int64_t)1 << 61;
    CHECK(layout_naive(&base, 1, &len, &stride, &err) == LAYOUT_OK);
    layout_seq s0 = {1, {0}};
    CHECK(layout_make_offset(2, 1, &t, &err) == LAYOUT_OK);
    CHECK(layout_transform_descriptor(&staged, &base, 1, &t, &s0, &s0, &err) == LAYOUT_OK);
    c = 1;
    CHECK(layout_desc_offset(&staged, &c, &off, &err) == LAYOUT_OK);
    CHECK_EQ_I64(off, (int64_t)1 << 62);
    CHECK(layout_make_offset(2, 3, &t, &err) == LAYOUT_OK);
    CHECK_FAILS_UNTOUCHED(staged, LAYOUT_ERR_OVERFLOW, layout_transform_descriptor(&staged, &base, 1, &t, &s0, &s0, &err));
}

/* ---- instructions: lanes, widths, 32-bit addresses ------------------------ */

static void test_instr_limits(void)
{
    layout_instr in;
    CHECK(layout_instr_init(&in, LAYOUT_MAX_LANES, 16, LAYOUT_READ, &err) == LAYOUT_OK);
    CHECK_FAILS_UNTOUCHED(in, LAYOUT_ERR_ARG, layout_instr_init(&in, LAYOUT_MAX_LANES + 1, 16, LAYOUT_READ, &err));
    CHECK_FAILS_UNTOUCHED(in, LAYOUT_ERR_ARG, layout_instr_init(&in, 64, 32, LAYOUT_READ, &err));
    CHECK_FAILS_UNTOUCHED(in, LAYOUT_ERR_ARG, layout_instr_init(&in, 64, 0, LAYOUT_READ, &err));

    /* Addresses: the last lane may sit exactly at UINT32_MAX. */
    layout_instr_init(&in, 64, 1, LAYOUT_READ, &err);
    CHECK(layout_instr_fill_strided(&in, (int64_t)UINT32_MAX - 63 * 4, 4, &err) == LAYOUT_OK);
    CHECK_EQ_I64(in.addr_bytes[63], UINT32_MAX);
    layout_instr keep = in;
    CHECK(layout_instr_fill_strided(&in, (int64_t)UINT32_MAX - 63 * 4 + 1, 4, &err) == LAYOUT_ERR_OVERFLOW);
    CHECK(memcmp(&keep, &in, sizeof in) == 0);
    CHECK(layout_instr_fill_strided(&in, 63, -1, &err) == LAYOUT_OK);
    CHECK_EQ_I64(in.addr_bytes[63], 0);
    CHECK(layout_instr_fill_strided(&in, 62, -1, &err) == LAYOUT_ERR_OVERFLOW);

    /* A b128 access at UINT32_MAX touches bytes past 2^32: still exact (the
     * checker does its arithmetic in 64 bits). */
    layout_arch arch;
    layout_cost cs, cv;
    layout_arch_preset("gfx942", &arch, &err);
    layout_instr_init(&in, 64, 16, LAYOUT_READ, &err);
    for (int l = 0; l < 64; l++) in.addr_bytes[l] = UINT32_MAX - (uint32_t)l;
    CHECK(layout_instr_cost(&arch, &in, LAYOUT_IMPL_SCALAR, &cs, &err) == LAYOUT_OK);
    if (layout_check_impl_available(LAYOUT_IMPL_AVX2)) {
        CHECK(layout_instr_cost(&arch, &in, LAYOUT_IMPL_AVX2, &cv, &err) == LAYOUT_OK);
        CHECK_EQ_I64(cv.extra_cycles, cs.extra_cycles);
        CHECK_EQ_I64(cv.total_cycles, cs.total_cycles);
    }
}

/* ---- architectures: banks, wave size, groups, folds, names ---------------- */

static void test_arch_limits(void)
{
    layout_arch a;
    char name[LAYOUT_ARCH_NAME_CAP + 1];
    memset(name, 'x', sizeof name);
    name[LAYOUT_ARCH_NAME_CAP - 1] = 0; /* the longest name: CAP - 1 characters */
    CHECK(layout_arch_init(&a, name, LAYOUT_MAX_BANKS, 4, LAYOUT_MAX_LANES, &err) == LAYOUT_OK);
    name[LAYOUT_ARCH_NAME_CAP - 1] = 'x';
    name[LAYOUT_ARCH_NAME_CAP] = 0;
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_ARG, layout_arch_init(&a, name, 32, 4, 64, &err));
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_ARG, layout_arch_init(&a, "t", LAYOUT_MAX_BANKS * 2, 4, 64, &err));
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_ARG, layout_arch_init(&a, "t", 48, 4, 64, &err));
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_ARG, layout_arch_init(&a, "t", 32, 4, 128, &err));
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_ARG, layout_arch_init(&a, "t", 32, 16, 64, &err));
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_ARG, layout_arch_init(&a, "t", 0, 4, 64, &err));
    CHECK_FAILS_UNTOUCHED(a, LAYOUT_ERR_ARG, layout_arch_init(&a, "", 32, 4, 64, &err));
    CHECK(layout_arch_init(&a, "t", 1, 8, 32, &err) == LAYOUT_OK);

    /* Lane groups: 16 groups of 4 lanes on a wave64; 17 is one too many. */
    layout_arch_init(&a, "t", 64, 4, 64, &err);
    CHECK(layout_arch_set_consecutive(&a, LAYOUT_READ, 4, 64 / LAYOUT_MAX_LANE_GROUPS, LAYOUT_CONFIDENCE_LOW, NULL,
                                      &err) == LAYOUT_OK);
    uint64_t g[LAYOUT_MAX_LANE_GROUPS + 1];
    for (int i = 0; i < LAYOUT_MAX_LANE_GROUPS; i++) g[i] = (uint64_t)0xF << (4 * i);
    g[LAYOUT_MAX_LANE_GROUPS] = 0;
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 8, g, LAYOUT_MAX_LANE_GROUPS, LAYOUT_CONFIDENCE_LOW, NULL, &err) ==
          LAYOUT_OK);
    layout_arch keep = a;
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 8, g, LAYOUT_MAX_LANE_GROUPS + 1, LAYOUT_CONFIDENCE_LOW, NULL,
                                 &err) == LAYOUT_ERR_CAPACITY);
    CHECK(memcmp(&keep, &a, sizeof a) == 0);
    CHECK(layout_arch_set_consecutive(&a, LAYOUT_READ, 4, 2, LAYOUT_CONFIDENCE_LOW, NULL, &err) == LAYOUT_ERR_CAPACITY);

    /* Folds: four xor masks at most. */
    int xors[LAYOUT_MAX_FOLDS + 1] = {1, 2, 4, 8, 16};
    uint64_t fg[LAYOUT_MAX_LANE_GROUPS];
    for (int i = 0; i < 8; i++) fg[i] = (uint64_t)0xFF << (8 * i);
    CHECK(layout_arch_set_fold(&a, LAYOUT_READ, 8, xors, LAYOUT_MAX_FOLDS, fg, 8, LAYOUT_CONFIDENCE_LOW, &err) ==
          LAYOUT_OK);
    keep = a;
    CHECK(layout_arch_set_fold(&a, LAYOUT_READ, 8, xors, LAYOUT_MAX_FOLDS + 1, fg, 8, LAYOUT_CONFIDENCE_LOW, &err) ==
          LAYOUT_ERR_CAPACITY);
    CHECK(memcmp(&keep, &a, sizeof a) == 0);
    CHECK(layout_arch_validate(&a, &err) == LAYOUT_OK);

    /* A wave of 64 lanes each on its own word of bank 0: the worst case, 64-way. */
    layout_instr in;
    layout_cost c;
    layout_arch_init(&a, "one", 64, 4, 64, &err);
    layout_arch_set_consecutive(&a, LAYOUT_READ, 4, 64, LAYOUT_CONFIDENCE_LOW, NULL, &err);
    layout_instr_init(&in, 64, 4, LAYOUT_READ, &err);
    layout_instr_fill_strided(&in, 0, 64 * 4, &err);
    CHECK(layout_instr_cost(&a, &in, LAYOUT_IMPL_AUTO, &c, &err) == LAYOUT_OK);
    CHECK_EQ_I64(c.worst_nway, 64);
    CHECK_EQ_I64(c.extra_cycles, 63);
}

/* ---- distributions and access plans ---------------------------------------- */

/* x = lane * elems + elem, within one warp (user = elems per thread). */
static int linear_coord(void *user, int warp, int lane, int64_t elem, int64_t *x)
{
    (void)warp;
    x[0] = lane * *(int64_t *)user + elem;
    return 0;
}

static layout_status linear_dist(layout_distribution *d, int wave, int warps, int64_t *elems)
{
    int64_t n = wave * *elems;
    return layout_dist_from_callback(d, 1, &n, wave, warps, *elems, linear_coord, elems, &err);
}

static void test_dist_limits(void)
{
    static layout_distribution d;
    int64_t e = 1;
    CHECK(linear_dist(&d, LAYOUT_MAX_LANES, 1, &e) == LAYOUT_OK);
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_ARG, linear_dist(&d, LAYOUT_MAX_LANES + 1, 1, &e));
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_ARG, linear_dist(&d, 0, 1, &e));
    /* Warps: a block of at most 1024 warps. */
    CHECK(linear_dist(&d, 1, 1024, &e) == LAYOUT_OK);
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_ARG, linear_dist(&d, 1, 1025, &e));

    /* Encodings: R, each H_i and each P's RH list hold at most
     * LAYOUT_MAX_DIST_RH entries; at most LAYOUT_MAX_DIST_P P dims. */
    layout_dist_encoding enc;
    memset(&enc, 0, sizeof enc);
    enc.n_x = 1;
    enc.n_h[0] = LAYOUT_MAX_DIST_RH;
    for (int i = 0; i < LAYOUT_MAX_DIST_RH; i++) enc.h[0][i] = 2; /* X = 256 */
    enc.n_p = 1;
    enc.n_p_rh[0] = 6; /* lane = the first 6 H digits: 64 lanes */
    for (int i = 0; i < 6; i++) enc.p_major[0][i] = 1, enc.p_minor[0][i] = i;
    enc.n_y = 2;
    enc.y_major[0] = enc.y_major[1] = 1;
    enc.y_minor[0] = 6, enc.y_minor[1] = 7;
    int64_t tile = 256;
    CHECK_MSG(layout_dist_make(&d, &enc, 64, 1, 1, &tile, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_EQ_I64(d.elems_per_thread, 4);
    enc.n_h[0] = LAYOUT_MAX_DIST_RH + 1;
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_CAPACITY, layout_dist_make(&d, &enc, 64, 1, 1, &tile, &err));
    enc.n_h[0] = LAYOUT_MAX_DIST_RH;
    enc.n_p = LAYOUT_MAX_DIST_P + 1; /* P is (lane) or (warp, lane): a domain rule, not a capacity */
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_ARG, layout_dist_make(&d, &enc, 64, 1, 1, &tile, &err));
    enc.n_p = 1;
    enc.n_r = LAYOUT_MAX_DIST_RH + 1;
    CHECK_FAILS_UNTOUCHED(d, LAYOUT_ERR_CAPACITY, layout_dist_make(&d, &enc, 64, 1, 1, &tile, &err));
}

static void test_access_limits(void)
{
    static layout_distribution dist;
    static layout_descriptor desc;
    static layout_access_plan plan;
    /* Elements per thread: LAYOUT_MAX_THREAD_ELEMS. */
    int64_t e = LAYOUT_MAX_THREAD_ELEMS, n = 64 * e, one = 1;
    CHECK(linear_dist(&dist, 64, 1, &e) == LAYOUT_OK);
    CHECK(layout_naive(&desc, 1, &n, &one, &err) == LAYOUT_OK);
    CHECK_MSG(layout_access_plan_make(&plan, &desc, &dist, LAYOUT_READ, 1, NULL, &err) == LAYOUT_OK, "%s",
              err.message);
    e = LAYOUT_MAX_THREAD_ELEMS + 1, n = 64 * e;
    CHECK(linear_dist(&dist, 64, 1, &e) == LAYOUT_OK);
    CHECK(layout_naive(&desc, 1, &n, &one, &err) == LAYOUT_OK);
    CHECK_FAILS_UNTOUCHED(plan, LAYOUT_ERR_CAPACITY,
                          layout_access_plan_make(&plan, &desc, &dist, LAYOUT_READ, 1, NULL, &err));

    /* Byte addresses: every element's byte address (+ up to 16 bytes of
     * access) must stay below 2^32: the highest element may start at
     * 2^32 - 17. */
    e = 1, n = 64;
    CHECK(linear_dist(&dist, 64, 1, &e) == LAYOUT_OK);
    int64_t top = ((int64_t)1 << 32) - 17 - 63;
    CHECK(layout_naive_offset(&desc, 1, &n, &one, top, &err) == LAYOUT_OK);
    CHECK_MSG(layout_access_plan_make(&plan, &desc, &dist, LAYOUT_READ, 1, NULL, &err) == LAYOUT_OK, "%s",
              err.message);
    layout_instr in;
    CHECK(layout_access_instr(&plan, 0, 0, &in, &err) == LAYOUT_OK);
    CHECK_EQ_I64(in.addr_bytes[63], ((int64_t)1 << 32) - 17);
    CHECK(layout_naive_offset(&desc, 1, &n, &one, top + 1, &err) == LAYOUT_OK);
    CHECK_FAILS_UNTOUCHED(plan, LAYOUT_ERR_RANGE,
                          layout_access_plan_make(&plan, &desc, &dist, LAYOUT_READ, 1, NULL, &err));
}

/* ---- error messages: LAYOUT_ERROR_MESSAGE_CAP ------------------------------ */

static void test_message_cap(void)
{
    /* The longest messages (an arch name of 31 characters, int64 extremes)
     * are truncated, never overrun, and stay NUL-terminated. */
    layout_error e;
    memset(&e, 'q', sizeof e);
    layout_descriptor d;
    int64_t len[2] = {INT64_MIN, INT64_MIN}, str[2] = {INT64_MIN, INT64_MIN};
    CHECK(layout_naive(&d, 2, len, str, &e) == LAYOUT_ERR_ARG);
    CHECK(memchr(e.message, 0, LAYOUT_ERROR_MESSAGE_CAP) != NULL);
    CHECK_STR_CONTAINS(e.message, "-9223372036854775808");
    char text[LAYOUT_ERROR_MESSAGE_CAP * 2];
    memset(text, 'z', sizeof text - 1);
    text[sizeof text - 1] = 0;
    size_t where = 0;
    CHECK(layout_desc_from_text(text, &d, &where, &e) == LAYOUT_ERR_PARSE);
    CHECK(strlen(e.message) < LAYOUT_ERROR_MESSAGE_CAP);
}

/* ---- text: LAYOUT_TEXT_CAP holds the largest descriptor ------------------- */

static void text_round_trip(const layout_descriptor *d)
{
    static char text[LAYOUT_TEXT_CAP];
    static layout_descriptor back;
    layout_status st = layout_desc_to_text(d, text, sizeof text, &err);
    CHECK_MSG(st == LAYOUT_OK, "%s", err.message);
    if (st) return;
    size_t used = strlen(text);
    CHECK(used < LAYOUT_TEXT_CAP);
    /* One byte short of the text + NUL: a buffer error, buffer untouched. */
    static char small[LAYOUT_TEXT_CAP];
    memset(small, 'k', sizeof small);
    CHECK(layout_desc_to_text(d, small, used, &err) == LAYOUT_ERR_BUFFER);
    CHECK(small[0] == 'k' && small[used - 1] == 'k');
    CHECK(layout_desc_to_text(d, small, used + 1, &err) == LAYOUT_OK);
    CHECK(strcmp(small, text) == 0);
    size_t where = 0;
    CHECK(layout_desc_from_text(text, &back, &where, &err) == LAYOUT_OK);
    int64_t zero[LAYOUT_MAX_DIMS] = {0};
    CHECK_EQ_I64(layout_desc_offset_unchecked(&back, zero), layout_desc_offset_unchecked(d, zero));
    CHECK_EQ_I64(layout_desc_element_space_size(&back), layout_desc_element_space_size(d));
}

static void test_text_cap(void)
{
    /* LAYOUT_TEXT_CAP holds the text of wide descriptors: 8 dims with
     * 19-digit strides; and 8 dims under as many 8-transform stages of
     * 17-digit offsets as the transform capacity allows. */
    static layout_descriptor d;
    int64_t len[LAYOUT_MAX_DIMS], str[LAYOUT_MAX_DIMS];
    for (int i = 0; i < LAYOUT_MAX_DIMS; i++) len[i] = 1, str[i] = INT64_MAX - i;
    CHECK(layout_naive(&d, LAYOUT_MAX_DIMS, len, str, &err) == LAYOUT_OK);
    text_round_trip(&d);

    for (int i = 0; i < LAYOUT_MAX_DIMS; i++) str[i] = 1;
    CHECK(layout_naive(&d, LAYOUT_MAX_DIMS, len, str, &err) == LAYOUT_OK);
    layout_transform t[LAYOUT_MAX_DIMS];
    layout_seq lo[LAYOUT_MAX_DIMS], up[LAYOUT_MAX_DIMS];
    for (int i = 0; i < LAYOUT_MAX_DIMS; i++) {
        CHECK(layout_make_offset(1, INT64_MAX / 64 - 1000 - i, &t[i], &err) == LAYOUT_OK);
        lo[i].n = up[i].n = 1;
        lo[i].ids[0] = up[i].ids[0] = i;
    }
    int stages = 0;
    while (layout_transform_descriptor(&d, &d, LAYOUT_MAX_DIMS, t, lo, up, &err) == LAYOUT_OK) stages++;
    CHECK_EQ_I64(stages, (LAYOUT_MAX_TRANSFORMS - 1) / LAYOUT_MAX_DIMS);
    CHECK(err.status == LAYOUT_ERR_CAPACITY);
    text_round_trip(&d);
}

/* ---- dialects: one limit per quantity (limits.h), writer == reader -------- */

/* Offsets of d and e agree at every corner and the middle of the tile. */
static int same_corners(const layout_descriptor *d, const layout_descriptor *e)
{
    int n = layout_desc_ndims(d), j, k;
    if (layout_desc_ndims(e) != n) return 0;
    for (j = 0; j < n; j++)
        if (layout_desc_length(d, j) != layout_desc_length(e, j)) return 0;
    for (k = 0; k < (1 << n) + 1; k++) {
        int64_t c[LAYOUT_MAX_DIMS], a = -1, b = -2;
        for (j = 0; j < n; j++) {
            int64_t len = layout_desc_length(d, j);
            c[j] = k == (1 << n) ? len / 2 : ((k >> j) & 1 ? len - 1 : 0);
        }
        if (layout_desc_offset(d, c, &a, NULL) || layout_desc_offset(e, c, &b, NULL) || a != b) return 0;
    }
    return 1;
}

/* Write d in every dialect that expresses it, read it back (with d's own
 * shape, as `layout convert` is given), then through every other dialect:
 * every pair agrees.  `must` is a bit per dialect that has to express it. */
static void every_pair(const layout_descriptor *d, unsigned must)
{
    static char t1[LAYOUT_TEXT_CAP], t2[LAYOUT_TEXT_CAP];
    int64_t shape[LAYOUT_MAX_DIMS];
    int n = layout_desc_ndims(d), j, a, b;
    layout_descriptor back, back2;
    for (j = 0; j < n; j++) shape[j] = layout_desc_length(d, j);
    for (a = LAYOUT_DIALECT_CK; a <= LAYOUT_DIALECT_LINEAR; a++) {
        layout_status st = layout_desc_to_dialect((layout_dialect)a, d, t1, sizeof t1, &err);
        if (must >> a & 1) CHECK_MSG(st == LAYOUT_OK, "%s writer: %s", layout_dialect_name((layout_dialect)a), err.message);
        if (st) continue;
        /* the writer's text reads back in its own dialect, to the same offsets */
        st = layout_desc_from_dialect((layout_dialect)a, t1, n, shape, &back, NULL, &err);
        CHECK_MSG(st == LAYOUT_OK, "%s: '%s' does not read back: %s", layout_dialect_name((layout_dialect)a), t1,
                  err.message);
        if (st) continue;
        CHECK(same_corners(d, &back));
        for (b = LAYOUT_DIALECT_CK; b <= LAYOUT_DIALECT_LINEAR; b++) {
            if (layout_desc_to_dialect((layout_dialect)b, &back, t2, sizeof t2, &err)) continue;
            st = layout_desc_from_dialect((layout_dialect)b, t2, n, shape, &back2, NULL, &err);
            CHECK_MSG(st == LAYOUT_OK, "%s -> %s: '%s' does not read back: %s", layout_dialect_name((layout_dialect)a),
                      layout_dialect_name((layout_dialect)b), t2, err.message);
            if (!st) CHECK(same_corners(d, &back2));
        }
    }
}

/* A text its reader must refuse, with the status and a message naming why. */
static void refused(layout_dialect dl, const char *text, layout_status want, const char *why)
{
    static const int64_t shape[2] = {8, 16};
    layout_descriptor d;
    size_t where = (size_t)-1;
    layout_status st = layout_desc_from_dialect(dl, text, dl == LAYOUT_DIALECT_CK || dl == LAYOUT_DIALECT_CUTE ? 0 : 2,
                                                shape, &d, &where, &err);
    CHECK_MSG(st == want, "%s: got %s (%s)", text, layout_status_name(st), err.message);
    CHECK_STR_CONTAINS(err.message, why);
    CHECK(where <= strlen(text));
}

static void test_dialect_limits(void)
{
    layout_descriptor d;
    const unsigned ck_cute = 1u << LAYOUT_DIALECT_CK | 1u << LAYOUT_DIALECT_CUTE;
    char text[160];

    /* Largest offset (LAYOUT_MAX_OFFSET): at the limit in ck text and CuTe;
     * the fuzz_dialect reproducer (offsets up to 4.93e18, past CuTe's former
     * 2^62; its input, base64 bmFpdmUoWzQsNjFdLFsxNjQ0NDQ0NDQ0NDQ0NDQ0NDQ0LDBdKQ==, is
     * tests/corpus/fuzz_dialect/regress-cute-offset-limit) reads back too. */
    CHECK(layout_desc_from_dialect(LAYOUT_DIALECT_CK, "naive([2],[9223372036854775806])", 0, NULL, &d, NULL, &err) ==
          LAYOUT_OK);
    every_pair(&d, ck_cute);
    CHECK(layout_desc_from_dialect(LAYOUT_DIALECT_CUTE, "(_2):(_9223372036854775806)", 0, NULL, &d, NULL, &err) ==
          LAYOUT_OK);
    every_pair(&d, ck_cute);
    CHECK(layout_desc_from_dialect(LAYOUT_DIALECT_CK, "naive([4,61],[1644444444444444444,0])", 0, NULL, &d, NULL,
                                   &err) == LAYOUT_OK);
    every_pair(&d, ck_cute);
    CHECK(layout_desc_from_dialect(LAYOUT_DIALECT_CK, "naive([2,2],[4611686018427387903,4611686018427387903])", 0,
                                   NULL, &d, NULL, &err) == LAYOUT_OK); /* 2 (2^62 - 1) = LAYOUT_MAX_OFFSET - 0 */
    every_pair(&d, ck_cute);
    /* one past */
    refused(LAYOUT_DIALECT_CK, "naive([2],[9223372036854775807])", LAYOUT_ERR_OVERFLOW, "");
    refused(LAYOUT_DIALECT_CUTE, "(_2):(_9223372036854775807)", LAYOUT_ERR_OVERFLOW, "exceed 2^63 - 2");
    refused(LAYOUT_DIALECT_CUTE, "(_2,_2):(_4611686018427387904,_4611686018427387903)", LAYOUT_ERR_OVERFLOW,
            "exceed 2^63 - 2");

    /* CuTe swizzle bits: M + |S| + B at most 62. */
    {
        layout_cute_layout l;
        CHECK(layout_cute_from_text("Sw<14,0,48> o _0 o (_8,_64):(_64,_1)", &l, NULL, &err) == LAYOUT_OK);
        CHECK(layout_cute_to_text(&l, text, sizeof text, &err) == LAYOUT_OK);
        CHECK(layout_cute_from_text(text, &l, NULL, &err) == LAYOUT_OK);
        refused(LAYOUT_DIALECT_CUTE, "Sw<15,0,48> o _0 o (_8,_64):(_64,_1)", LAYOUT_ERR_ARG, "at most 62");
        /* the writer refuses a value its reader would refuse, and empties its buffer */
        l.sw_bits = 15;
        text[0] = 'x';
        CHECK(layout_cute_to_text(&l, text, sizeof text, &err) == LAYOUT_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(err.message, "would not read back");
        CHECK(text[0] == '\0');
    }

    /* Triton: swizzle parameters up to 2^30, padded_shared intervals up to
     * 2^40 and paddings up to 2^20, alignment up to 2^20. */
    {
        layout_triton_attr a;
        CHECK(layout_triton_from_text("#ttg.swizzled_shared<{vec = 1073741824, perPhase = 1, maxPhase = 1, order = "
                                      "[1, 0]}>", &a, NULL, &err) == LAYOUT_OK);
        CHECK(layout_triton_from_text("#ttg.swizzled_shared<{vec = 2147483648, perPhase = 1, maxPhase = 1, order = "
                                      "[1, 0]}>", &a, NULL, &err) == LAYOUT_ERR_ARG);
        CHECK_STR_CONTAINS(err.message, "1..2^30");
        CHECK(layout_triton_from_text("#ttg.padded_shared<[1099511627776:+1048576] {order = [0], shape = [8]}>", &a,
                                      NULL, &err) == LAYOUT_OK);
        CHECK(layout_triton_to_text(&a, text, sizeof text, &err) == LAYOUT_OK);
        CHECK(layout_triton_from_text(text, &a, NULL, &err) == LAYOUT_OK);
        CHECK_EQ_I64(a.interval[0], (int64_t)1 << LAYOUT_TRITON_MAX_INTERVAL_LOG2);
        CHECK_EQ_I64(a.pad[0], (int64_t)1 << LAYOUT_TRITON_MAX_PAD_LOG2);
        refused(LAYOUT_DIALECT_TRITON, "#ttg.padded_shared<[2199023255552:+1] {order = [0], shape = [8]}>",
                LAYOUT_ERR_ARG, "1..2^40");
        refused(LAYOUT_DIALECT_TRITON, "#ttg.padded_shared<[2:+2097152] {order = [0], shape = [8]}>", LAYOUT_ERR_ARG,
                "1..2^20");
        /* the writer refuses what its reader would refuse */
        a.interval[0] = (int64_t)1 << (LAYOUT_TRITON_MAX_INTERVAL_LOG2 + 1);
        CHECK(layout_triton_to_text(&a, text, sizeof text, &err) == LAYOUT_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(err.message, "1..2^40");
        CHECK(text[0] == '\0');
    }

    /* Triton amd_rotating_shared / nvmma_shared: a tile of at most 2^40
     * elements (LAYOUT_TRITON_MAX_SHARED_TILE_LOG2), each size a power of two. */
    {
        layout_triton_attr a;
        layout_linear ll;
        int64_t at[2] = {(int64_t)1 << 20, (int64_t)1 << (LAYOUT_TRITON_MAX_SHARED_TILE_LOG2 - 20)};
        int64_t past[2] = {(int64_t)1 << 20, (int64_t)1 << (LAYOUT_TRITON_MAX_SHARED_TILE_LOG2 - 19)};
        CHECK(layout_triton_from_text("#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
                                      &a, NULL, &err) == LAYOUT_OK);
        CHECK(layout_triton_shared_linear(&a, 2, at, &ll, &err) == LAYOUT_OK);
        CHECK_EQ_I64(ll.in_bits[0], LAYOUT_TRITON_MAX_SHARED_TILE_LOG2);
        CHECK(layout_triton_shared_linear(&a, 2, past, &ll, &err) == LAYOUT_ERR_ARG);
        CHECK_STR_CONTAINS(err.message, "more than 2^40 elements");
        CHECK(layout_triton_from_text("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
                                      &a, NULL, &err) == LAYOUT_OK);
        CHECK(layout_triton_shared_linear(&a, 2, at, &ll, &err) == LAYOUT_OK);
        CHECK(layout_triton_shared_linear(&a, 2, past, &ll, &err) == LAYOUT_ERR_ARG);
    }

    /* IREE: every parameter at most 2^30. */
    {
        layout_iree_xor_shuffle x;
        CHECK(layout_iree_from_text("#iree_codegen.xor_shuffle<1073741824, 1073741824>", &x, NULL, &err) == LAYOUT_OK);
        CHECK(layout_iree_to_text(&x, text, sizeof text, &err) == LAYOUT_OK);
        CHECK(layout_iree_from_text(text, &x, NULL, &err) == LAYOUT_OK);
        CHECK(layout_iree_from_text("#iree_codegen.xor_shuffle<1073741825, 4>", &x, NULL, &err) == LAYOUT_ERR_ARG);
        CHECK_STR_CONTAINS(err.message, "larger than 2^30");
        x.row_width = ((int64_t)1 << LAYOUT_IREE_MAX_PARAM_LOG2) + 1;
        CHECK(layout_iree_to_text(&x, text, sizeof text, &err) == LAYOUT_ERR_UNSUPPORTED);
        CHECK(text[0] == '\0');
    }

    /* Linear layouts: a dim of at most LAYOUT_LINEAR_MAX_DIM_BITS (62) bits, and
     * so every offset of the descriptor it becomes below 2^62. */
    {
        static const char *const ins[1] = {"offset"}, *const outs[1] = {"dim0"};
        int in_bits[1] = {1}, out_bits[1] = {LAYOUT_LINEAR_MAX_DIM_BITS};
        int64_t bases[1] = {(int64_t)1 << (LAYOUT_LINEAR_MAX_DIM_BITS - 1)}, off = 0, c1[1] = {1};
        layout_linear ll;
        CHECK(layout_linear_from_bases(&ll, 1, ins, in_bits, bases, 1, outs, out_bits, &err) == LAYOUT_OK);
        CHECK(layout_linear_to_desc(&ll, &d, &err) == LAYOUT_OK);
        CHECK(layout_desc_offset(&d, c1, &off, &err) == LAYOUT_OK);
        CHECK_EQ_I64(off, (int64_t)1 << (LAYOUT_LINEAR_MAX_DIM_BITS - 1));
        every_pair(&d, ck_cute);
        out_bits[0] = LAYOUT_LINEAR_MAX_DIM_BITS + 1;
        bases[0] = (int64_t)1 << LAYOUT_LINEAR_MAX_DIM_BITS;
        CHECK_FAILS_UNTOUCHED(ll, LAYOUT_ERR_ARG,
                              layout_linear_from_bases(&ll, 1, ins, in_bits, bases, 1, outs, out_bits, &err));
        CHECK_STR_CONTAINS(err.message, "must be in 0..62");
    }
}


/* The layout search (suggest.h; docs/limits.md "Layout search"): each cap
 * at the limit and one past. */
static layout_suggest_result g_sres;
static unsigned char *suggest_ws(const layout_suggest_spec *sp, size_t *n)
{
    *n = 0;
    if (layout_suggest_workspace_size(sp, n, NULL) != LAYOUT_OK) return NULL;
    return malloc(*n);
}

static void test_suggest_limits(void)
{
    layout_arch arch;
    layout_error e;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    /* 256 threads writing 16-byte rows: 256 x 256 (256 elements each, the
     * access plan's limit), 128 x 128 and 64 x 128 fp16 */
    static layout_distribution d256, d128, d64;
    CHECK(layout_dist_from_text("dist(R=[], H=([16,4,4],[2,16,8]), P=([(1,1)],[(1,2),(2,1)]), Y=[(1,0),(2,0),(2,2)])",
                                64, 4, &d256, NULL, &e) == LAYOUT_OK);
    CHECK(layout_dist_from_text("dist(R=[], H=([8,4,4],[16,8]), P=([(1,1)],[(1,2),(2,0)]), Y=[(1,0),(2,1)])", 64, 4,
                                &d128, NULL, &e) == LAYOUT_OK);
    CHECK(layout_dist_from_text("dist(R=[], H=([4,4,4],[16,8]), P=([(1,1)],[(1,2),(2,0)]), Y=[(1,0),(2,1)])", 64, 4,
                                &d64, NULL, &e) == LAYOUT_OK);
    layout_suggest_spec s;
    memset(&s, 0, sizeof s);
    s.arch = &arch;
    s.elem_bytes = 2;
    s.n_dims = 2;
    s.tile[0] = s.tile[1] = 256;
    s.n_sides = 1;
    s.sides[0].dist = &d256;
    s.sides[0].direction = LAYOUT_WRITE;
    s.families = 1u << LAYOUT_FAMILY_PAD;
    /* LAYOUT_SUGGEST_MAX_TILE = 65536 and LAYOUT_SUGGEST_MAX_SIDE_ELEMS =
     * 65536 (256 threads x 256 elements), with a workspace */
    size_t n;
    unsigned char *ws = suggest_ws(&s, &n);
    CHECK(ws != NULL);
    if (ws) {
        CHECK_MSG(layout_suggest_ws(&s, ws, n, &g_sres, &e) == LAYOUT_OK, "%s", e.message);
        CHECK(g_sres.n_top >= 1 && g_sres.top[0].cost.extra_cycles == 0);
        CHECK(layout_suggest_ws(&s, ws, n - 1, &g_sres, &e) == LAYOUT_ERR_BUFFER); /* one byte short */
        CHECK(strstr(e.message, "layout_suggest_workspace_size") != NULL);
        /* without a workspace: the inline tables' cap */
        CHECK(layout_suggest(&s, &g_sres, &e) == LAYOUT_ERR_CAPACITY);
        CHECK(strstr(e.message, "LAYOUT_SUGGEST_INLINE_ELEMS") != NULL);
        free(ws);
    }
    layout_suggest_spec b = s;
    b.tile[1] = 257; /* 65792 elements: one row past */
    CHECK(layout_suggest_workspace_size(&b, &n, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(strstr(e.message, "LAYOUT_SUGGEST_MAX_TILE") != NULL);
    b.tile[0] = 1;
    b.tile[1] = 65537; /* one element past */
    CHECK(layout_suggest_workspace_size(&b, &n, &e) == LAYOUT_ERR_CAPACITY);
    /* LAYOUT_SUGGEST_INLINE_ELEMS = 8192: 64 x 128 without a workspace;
     * 128 x 128 needs one */
    b = s;
    b.tile[0] = 64;
    b.tile[1] = 128;
    b.sides[0].dist = &d64;
    CHECK_MSG(layout_suggest(&b, &g_sres, &e) == LAYOUT_OK, "%s", e.message);
    b.tile[0] = 128;
    b.sides[0].dist = &d128;
    CHECK(layout_suggest(&b, &g_sres, &e) == LAYOUT_ERR_CAPACITY);
    ws = suggest_ws(&b, &n);
    CHECK(ws && layout_suggest_ws(&b, ws, n, &g_sres, &e) == LAYOUT_OK);
    free(ws);
    /* sides (LAYOUT_SUGGEST_MAX_SIDES = 4), top K (16), threads (64) */
    b.tile[0] = 64;
    b.sides[0].dist = &d64;
    b.n_sides = 4;
    for (int i = 1; i < 4; i++) b.sides[i] = b.sides[0];
    b.top_k = LAYOUT_SUGGEST_MAX_TOP;
    b.threads = LAYOUT_SUGGEST_MAX_THREADS;
    CHECK_MSG(layout_suggest(&b, &g_sres, &e) == LAYOUT_OK, "%s", e.message);
    layout_suggest_spec c = b;
    c.n_sides = 5;
    CHECK(layout_suggest(&c, &g_sres, &e) == LAYOUT_ERR_ARG && strstr(e.message, "n_sides = 5"));
    c = b;
    c.top_k = LAYOUT_SUGGEST_MAX_TOP + 1;
    CHECK(layout_suggest(&c, &g_sres, &e) == LAYOUT_ERR_ARG && strstr(e.message, "top_k = 17"));
    c = b;
    c.threads = LAYOUT_SUGGEST_MAX_THREADS + 1;
    CHECK(layout_suggest(&c, &g_sres, &e) == LAYOUT_ERR_ARG && strstr(e.message, "threads = 65"));
    /* budget: no cap of its own (pads stop at 2^30 elements); < 0 refused;
     * max_candidates: >= 0 */
    c = b;
    c.n_sides = 1;
    c.threads = 1;
    c.budget_bytes = INT64_MAX;
    c.max_candidates = 10;
    CHECK_MSG(layout_suggest(&c, &g_sres, &e) == LAYOUT_OK, "%s", e.message);
    CHECK(g_sres.tried == 10 && !g_sres.all_exhausted);
    c.budget_bytes = -1;
    CHECK(layout_suggest(&c, &g_sres, &e) == LAYOUT_ERR_ARG);
    c.budget_bytes = 0;
    c.max_candidates = -1;
    CHECK(layout_suggest(&c, &g_sres, &e) == LAYOUT_ERR_ARG);
}

int main(void)
{
    RUN(test_max_dims);
    RUN(test_max_transform_dims);
    RUN(test_max_transforms);
    RUN(test_max_hidden);
    RUN(test_adaptor_top_dims);
    RUN(test_offset_range);
    RUN(test_instr_limits);
    RUN(test_arch_limits);
    RUN(test_dist_limits);
    RUN(test_access_limits);
    RUN(test_message_cap);
    RUN(test_text_cap);
    RUN(test_dialect_limits);
    RUN(test_suggest_limits);
    return harness_finish("test_limits");
}
