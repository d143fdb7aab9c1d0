/* Descriptors: the talk's LDS descriptors against docs/lds-model.md §4.2,
 * ck_tile's construction rules, queries, hints, print, bad input. */
#include "harness.h"
#include "layout.h"
#include "support/ref_eval.h"
#include "support/seed_lds.h"

/* Every (m, k) of the 64x32 tile against an expected-offset function. */
static void check_grid(const layout_descriptor *d, int mk_order, int64_t (*expect)(int64_t m, int64_t k))
{
    for (int64_t m = 0; m < SEED_KM; m++)
        for (int64_t k = 0; k < SEED_KK; k++) {
            int64_t c[2] = { mk_order ? m : k, mk_order ? k : m }, off = -1;
            CHECK(layout_desc_offset(d, c, &off, NULL) == LAYOUT_OK);
            CHECK_MSG(off == expect(m, k), "m=%" PRId64 " k=%" PRId64 ": %" PRId64 " != %" PRId64, m, k, off,
                      expect(m, k));
        }
}

static int64_t row_major_32(int64_t m, int64_t k) { return m * 32 + k; }
static int64_t col_major_64(int64_t m, int64_t k) { return k * 64 + m; }
static int64_t row_major_34(int64_t m, int64_t k) { return m * 34 + k; }

static void test_seed_01_02_03(void)
{
    layout_descriptor d;
    CHECK(seed_01_mk(&d) == LAYOUT_OK);
    check_grid(&d, 1, row_major_32);
    CHECK_EQ_I64(layout_desc_element_space_size(&d), 2048);
    CHECK(seed_01_km(&d) == LAYOUT_OK);
    check_grid(&d, 0, row_major_32);
    CHECK(seed_02_mk(&d) == LAYOUT_OK);
    check_grid(&d, 1, col_major_64);
    CHECK(seed_02_km(&d) == LAYOUT_OK);
    check_grid(&d, 0, col_major_64);
    CHECK_EQ_I64(layout_desc_element_space_size(&d), 2048);
    CHECK(seed_03_mk(&d) == LAYOUT_OK);
    check_grid(&d, 1, row_major_34);
    CHECK_EQ_I64(layout_desc_element_space_size(&d), 63 * 34 + 31 + 1);
    CHECK(seed_03_km(&d) == LAYOUT_OK);
    check_grid(&d, 0, row_major_34);
}

static int64_t xor32(int64_t m, int64_t k) { return seed_xor_closed_form(m, k, 32, 0); }
static int64_t xor64(int64_t m, int64_t k) { return seed_xor_closed_form(m, k, 64, 0); }
static int64_t xor32_pad(int64_t m, int64_t k) { return seed_xor_closed_form(m, k, 32, 1); }

static void test_seed_08_xor(void)
{
    layout_descriptor d;
    CHECK_EQ_I64(seed_mlds_layer(32), 2);
    CHECK_EQ_I64(seed_mlds_layer(64), 4);
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    CHECK_EQ_I64(layout_desc_ndims(&d), 2);
    CHECK_EQ_I64(layout_desc_length(&d, 0), 64);
    CHECK_EQ_I64(layout_desc_length(&d, 1), 32);
    CHECK_EQ_I64(layout_desc_element_space_size(&d), 2048);
    check_grid(&d, 1, xor32);
    CHECK(seed_xor_mk(&d, 64, 2, 0) == LAYOUT_OK);
    CHECK_EQ_I64(layout_desc_length(&d, 0), 64);
    CHECK_EQ_I64(layout_desc_length(&d, 1), 32);
    check_grid(&d, 1, xor64);
    /* a few values worked by hand from the closed form (32 banks, L = 2):
     * m=3,k=9: B=1, A=1*4+1=5, A'=5^1=4, C=1 -> 64 + 32 + 1 = 97 */
    int64_t c[2] = { 3, 9 }, off = 0;
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    CHECK(layout_desc_offset(&d, c, &off, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(off, 97);
}

static void test_seed_05_xor_pad(void)
{
    layout_descriptor d;
    CHECK(seed_xor_mk(&d, 32, 1, 1) == LAYOUT_OK);
    check_grid(&d, 1, xor32_pad);
    /* B stride 66: m = 2 (B = 1), k = 0 -> A = 0, A' = 0 ^ 1 = 1 -> 66 + 8 */
    int64_t c[2] = { 2, 0 }, off = 0;
    CHECK(layout_desc_offset(&d, c, &off, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(off, 74);
    CHECK_EQ_I64(layout_desc_element_space_size(&d), 1 + 7 * 8 + 31 * 66 + 7);
}

/* RowMul only changes xor's first length: no offset may change. */
static void test_row_mul_changes_nothing(void)
{
    static const int banks[2] = { 32, 64 };
    for (int b = 0; b < 2; b++)
        for (int pad = 0; pad <= 1; pad++) {
            layout_descriptor d1, d2;
            CHECK(seed_xor_mk(&d1, banks[b], 1, pad) == LAYOUT_OK);
            for (int row_mul = 2; row_mul <= 4; row_mul++) {
                CHECK(seed_xor_mk(&d2, banks[b], row_mul, pad) == LAYOUT_OK);
                for (int64_t m = 0; m < SEED_KM; m++)
                    for (int64_t k = 0; k < SEED_KK; k++) {
                        int64_t c[2] = { m, k }, o1 = 1, o2 = 2;
                        layout_desc_offset(&d1, c, &o1, NULL);
                        layout_desc_offset(&d2, c, &o2, NULL);
                        CHECK_EQ_I64(o1, o2);
                    }
            }
        }
}


/* The library against the independent reference evaluator on random
 * compositions of every kind; batch offsets against single offsets. */
static void test_random_compositions_match_reference(void)
{
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    harness_rng sample = { 0x1234567ULL };
    long kinds[REF_KIND_COUNT] = { 0 };
    long n = harness_scaled(4000), compared = 0;
    static int64_t coords[4096 * LAYOUT_MAX_DIMS], batch[4096], single[4096];
    for (long it = 0; it < n; it++) {
        ref_desc r;
        layout_descriptor d;
        layout_error e;
        ref_random(&rng, &r, kinds);
        layout_status st = ref_build(&r, &d, &e);
        CHECK_MSG(st == LAYOUT_OK, "iteration %ld: %s", it, e.message);
        if (st) continue;
        int64_t lengths[REF_MAX];
        int nd = ref_top_lengths(&r, lengths);
        CHECK_EQ_I64(layout_desc_ndims(&d), nd);
        int64_t total = 1;
        for (int i = 0; i < nd; i++) {
            CHECK_EQ_I64(layout_desc_length(&d, i), lengths[i]);
            total *= lengths[i];
        }
        CHECK_EQ_I64(layout_desc_size(&d), total);
        /* every coordinate when few, else a random sample */
        size_t m = total <= 4096 ? (size_t)total : 4096;
        for (size_t k = 0; k < m; k++) {
            int64_t rest = (int64_t)k;
            for (int i = nd - 1; i >= 0; i--) {
                int64_t *c = &coords[k * (size_t)nd + (size_t)i];
                if (total <= 4096) {
                    *c = rest % lengths[i];
                    rest /= lengths[i];
                } else {
                    *c = (int64_t)(harness_next(&sample) % (uint64_t)lengths[i]);
                }
            }
        }
        CHECK(layout_desc_offsets(&d, m, coords, batch, NULL) == LAYOUT_OK);
        for (size_t k = 0; k < m; k++) {
            const int64_t *c = &coords[k * (size_t)nd];
            int ref_valid, valid = -1;
            int64_t expect = ref_offset(&r, c, &ref_valid);
            CHECK(layout_desc_offset(&d, c, &single[k], NULL) == LAYOUT_OK);
            CHECK(layout_desc_is_valid(&d, c, &valid, NULL) == LAYOUT_OK);
            CHECK_MSG(single[k] == expect, "iteration %ld coord %zu: library %" PRId64 ", reference %" PRId64, it, k,
                      single[k], expect);
            CHECK_EQ_I64(batch[k], single[k]);
            CHECK_EQ_I64(valid, ref_valid);
            compared++;
        }
    }
    for (int k = 0; k < REF_KIND_COUNT; k++) CHECK_MSG(kinds[k] > 0, "kind %d never generated", k);
    CHECK(compared > n);
}

/* naive and packed equal their stride formulas; aligned follows its rule */
static void test_stride_formulas(void)
{
    harness_rng rng = { 4242 };
    for (long it = 0; it < harness_scaled(500); it++) {
        int n = (int)harness_range(&rng, 1, LAYOUT_MAX_DIMS);
        int64_t lens[LAYOUT_MAX_DIMS], strides[LAYOUT_MAX_DIMS], c[LAYOUT_MAX_DIMS];
        int64_t space = 1, size = 1;
        for (int i = 0; i < n; i++) {
            lens[i] = harness_range(&rng, 1, 9);
            strides[i] = harness_range(&rng, 0, 1000);
            space += (lens[i] - 1) * strides[i];
            size *= lens[i];
        }
        layout_descriptor nd, pd, od;
        CHECK(layout_naive(&nd, n, lens, strides, NULL) == LAYOUT_OK);
        CHECK(layout_packed(&pd, n, lens, NULL) == LAYOUT_OK);
        int64_t base = harness_range(&rng, -50, 50);
        CHECK(layout_naive_offset(&od, n, lens, strides, base, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(layout_desc_element_space_size(&nd), space);
        CHECK_EQ_I64(layout_desc_element_space_size(&od), space);
        CHECK_EQ_I64(layout_desc_element_space_size(&pd), size);
        for (int k = 0; k < 20; k++) {
            int64_t want_n = 0, want_p = 0, got;
            for (int i = 0; i < n; i++) {
                c[i] = harness_range(&rng, 0, lens[i] - 1);
                want_n += c[i] * strides[i];
                want_p = want_p * lens[i] + c[i];
            }
            CHECK(layout_desc_offset(&nd, c, &got, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(got, want_n);
            CHECK(layout_desc_offset(&od, c, &got, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(got, want_n + base);
            CHECK(layout_desc_offset(&pd, c, &got, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(got, want_p);
            CHECK_EQ_I64(layout_desc_offset_unchecked(&pd, c), want_p);
        }
        /* aligned: s[n-1] = 1, s[n-2] = roundup(len[n-1], align), s[i] = s[i+1] * len[i+1] */
        int64_t align = harness_range(&rng, 1, 16), s[LAYOUT_MAX_DIMS];
        layout_descriptor ad;
        CHECK(layout_aligned(&ad, n, lens, align, NULL) == LAYOUT_OK);
        s[n - 1] = 1;
        if (n >= 2) s[n - 2] = (lens[n - 1] + align - 1) / align * align;
        for (int i = n - 3; i >= 0; i--) s[i] = s[i + 1] * lens[i + 1];
        for (int k = 0; k < 10; k++) {
            int64_t want = 0, got;
            for (int i = 0; i < n; i++) {
                c[i] = harness_range(&rng, 0, lens[i] - 1);
                want += c[i] * s[i];
            }
            CHECK(layout_desc_offset(&ad, c, &got, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(got, want);
        }
    }
    /* the doc example: aligned [2, 3] align 4 -> strides [4, 1] */
    int64_t l2[2] = { 2, 3 }, c[2] = { 1, 2 }, off;
    layout_descriptor d;
    CHECK(layout_aligned(&d, 2, l2, 4, NULL) == LAYOUT_OK);
    CHECK(layout_desc_offset(&d, c, &off, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(off, 6);
    CHECK_EQ_I64(layout_desc_element_space_size(&d), 7);
}

/* ck_tile's hints: naive_vec guarantee, packed max(last, hint) stride 1,
 * propagation through the kernel 08 chain. */
static void test_vector_hints(void)
{
    layout_descriptor d;
    int64_t l[3], s[3];
    int64_t lens[2] = { 4, 8 }, strides[2] = { 8, 1 };
    CHECK(layout_packed(&d, 2, lens, NULL) == LAYOUT_OK);
    CHECK(layout_desc_vector_hints(&d, l, s, NULL) == LAYOUT_OK);
    CHECK(l[0] == -1 && s[0] == -1 && l[1] == 8 && s[1] == 1);
    CHECK(layout_packed_vec(&d, 2, lens, 16, NULL) == LAYOUT_OK);
    CHECK(layout_desc_vector_hints(&d, l, s, NULL) == LAYOUT_OK);
    CHECK(l[1] == 16 && s[1] == 1);
    CHECK(layout_packed_vec(&d, 2, lens, 2, NULL) == LAYOUT_OK);
    CHECK(layout_desc_vector_hints(&d, l, s, NULL) == LAYOUT_OK);
    CHECK(l[1] == 8 && s[1] == 1);
    CHECK(layout_naive(&d, 2, lens, strides, NULL) == LAYOUT_OK);
    CHECK(layout_desc_vector_hints(&d, l, s, NULL) == LAYOUT_OK);
    CHECK(l[1] == -1 && s[1] == -1); /* embed loses them */
    CHECK(layout_naive_vec(&d, 2, lens, strides, 4, 1, NULL) == LAYOUT_OK);
    CHECK(layout_desc_vector_hints(&d, l, s, NULL) == LAYOUT_OK);
    CHECK(l[0] == -1 && l[1] == 4 && s[1] == 1);
    /* kernel 08: K gets (8, 1) through pass_through and merge; M nothing */
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    CHECK(layout_desc_vector_hints(&d, l, s, NULL) == LAYOUT_OK);
    CHECK(l[0] == -1 && s[0] == -1 && l[1] == 8 && s[1] == 1);
    CHECK(layout_desc_vector_hints(NULL, l, s, NULL) == LAYOUT_ERR_NULL);
    CHECK(layout_desc_vector_hints(&d, NULL, s, NULL) == LAYOUT_ERR_NULL);
    CHECK(layout_desc_vector_hints(&d, l, NULL, NULL) == LAYOUT_ERR_NULL);
}

static void test_padding_validity(void)
{
    /* naive [3] transformed by pad(3, 1, 1): valid 0 1 1 1 0 */
    layout_descriptor d;
    int64_t len = 3, stride = 1;
    CHECK(layout_naive(&d, 1, &len, &stride, NULL) == LAYOUT_OK);
    layout_transform t;
    CHECK(layout_make_pad(3, 1, 1, &t, NULL) == LAYOUT_OK);
    layout_seq low = LAYOUT_SEQ(0), up = LAYOUT_SEQ(0);
    CHECK(layout_transform_descriptor(&d, &d, 1, &t, &low, &up, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(layout_desc_length(&d, 0), 5);
    CHECK_EQ_I64(layout_desc_element_space_size(&d), 3);
    static const int want[5] = { 0, 1, 1, 1, 0 };
    for (int64_t u = 0; u < 5; u++) {
        int valid = -1;
        int64_t off;
        CHECK(layout_desc_is_valid(&d, &u, &valid, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(valid, want[u]);
        CHECK(layout_desc_offset(&d, &u, &off, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(off, u - 1); /* computed even in the padding, as ck_tile */
    }
}

static void test_print(void)
{
    layout_descriptor d;
    char buf[2048];
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    int n = layout_desc_print(&d, buf, sizeof buf);
    CHECK(n > 0 && (size_t)n == strlen(buf));
    CHECK_STR_CONTAINS(buf, "descriptor [64, 32], element_space_size 2048");
    CHECK_STR_CONTAINS(buf, "t0: embed([8, 32, 8], [8, 64, 1])  [h0] <- [h1, h2, h3]");
    CHECK_STR_CONTAINS(buf, "t1: xor(32, 8)  [h2, h1] <- [h4, h5]");
    CHECK_STR_CONTAINS(buf, "t3: unmerge([2, 4])  [h5] <- [h7, h8]");
    CHECK_STR_CONTAINS(buf, "t6: merge([32, 2])  [h9, h7] <- [h11]");
    CHECK_STR_CONTAINS(buf, "t7: merge([4, 8])  [h8, h10] <- [h12]");
    char small[10];
    CHECK_EQ_I64(layout_desc_print(&d, small, sizeof small), n);
    CHECK_EQ_I64(strlen(small), 9);
    CHECK(layout_desc_print(NULL, buf, sizeof buf) < 0);
    CHECK_EQ_I64(layout_desc_ndims(NULL), 0);
    CHECK_EQ_I64(layout_desc_length(NULL, 0), -1);
    CHECK_EQ_I64(layout_desc_length(&d, 2), -1);
    CHECK_EQ_I64(layout_desc_size(NULL), -1);
    CHECK_EQ_I64(layout_desc_element_space_size(NULL), -1);
}

/* ----------------------------------------------------------- bad input */

static void expect(layout_status got, layout_status want, const layout_error *e, const char *needle)
{
    CHECK_MSG(got == want, "%s != %s: %s", layout_status_name(got), layout_status_name(want), e->message);
    CHECK_STR_CONTAINS(e->message, needle);
}

static void test_constructor_bad_input(void)
{
    layout_descriptor d, ref;
    layout_error e;
    int64_t lens[2] = { 4, 8 }, strides[2] = { 8, 1 }, zero[2] = { 4, 0 }, neg[2] = { 8, -1 };
    int64_t big[2] = { 3, INT64_MAX / 2 + 1 }, nine[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    int64_t huge_len[2] = { INT64_MAX / 2, 4 };
    memset(&d, 0x77, sizeof d);
    ref = d;
    expect(layout_naive(&d, 0, lens, strides, &e), LAYOUT_ERR_CAPACITY, &e, "layout_naive: n = 0 must be in 1..8");
    expect(layout_naive(&d, 9, nine, nine, &e), LAYOUT_ERR_CAPACITY, &e, "n = 9");
    expect(layout_naive(&d, 2, NULL, strides, &e), LAYOUT_ERR_NULL, &e, "lengths is NULL");
    expect(layout_naive(&d, 2, lens, NULL, &e), LAYOUT_ERR_NULL, &e, "strides is NULL");
    expect(layout_naive(NULL, 2, lens, strides, &e), LAYOUT_ERR_NULL, &e, "out is NULL");
    expect(layout_naive(&d, 2, zero, strides, &e), LAYOUT_ERR_ARG, &e, "layout_naive: lengths[1] = 0 must be > 0");
    expect(layout_naive(&d, 2, lens, neg, &e), LAYOUT_ERR_ARG, &e, "strides[1] = -1 must be >= 0");
    expect(layout_naive(&d, 2, lens, big, &e), LAYOUT_ERR_OVERFLOW, &e, "strides[1] = 4611686018427387904 overflows");
    expect(layout_naive_vec(&d, 2, lens, strides, 0, 1, &e), LAYOUT_ERR_ARG, &e,
           "layout_naive_vec: guaranteed_last_vector_length = 0");
    expect(layout_naive_vec(&d, 2, lens, strides, 4, -2, &e), LAYOUT_ERR_ARG, &e, "guaranteed_last_vector_stride = -2");
    expect(layout_naive_offset(&d, 2, lens, strides, INT64_MAX - 5, &e), LAYOUT_ERR_OVERFLOW, &e,
           "layout_naive_offset: offset");
    expect(layout_packed(&d, 2, huge_len, &e), LAYOUT_ERR_OVERFLOW, &e, "layout_packed");
    expect(layout_packed(&d, 2, zero, &e), LAYOUT_ERR_ARG, &e, "layout_packed: lengths[1] = 0");
    expect(layout_packed(&d, -1, lens, &e), LAYOUT_ERR_CAPACITY, &e, "n = -1");
    expect(layout_packed_vec(&d, 2, lens, -5, &e), LAYOUT_ERR_ARG, &e, "layout_packed_vec: guaranteed_last_vector_length = -5");
    expect(layout_aligned(&d, 2, lens, 0, &e), LAYOUT_ERR_ARG, &e, "layout_aligned: align = 0 must be > 0");
    expect(layout_aligned(&d, 2, lens, INT64_MAX, &e), LAYOUT_ERR_OVERFLOW, &e, "layout_aligned");
    expect(layout_aligned(&d, 2, NULL, 4, &e), LAYOUT_ERR_NULL, &e, "lengths is NULL");
    CHECK(memcmp(&d, &ref, sizeof d) == 0);
}

static void test_transform_descriptor_bad_input(void)
{
    layout_descriptor base, d, ref;
    layout_error e;
    int64_t lens[3] = { 8, 32, 8 }, strides[3] = { 8, 64, 1 };
    CHECK(layout_naive(&base, 3, lens, strides, NULL) == LAYOUT_OK);
    layout_transform t[2], x1, m9;
    layout_make_xor(32, 8, &t[0], NULL);
    layout_make_pass_through(8, &t[1], NULL);
    layout_seq low[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2) }, up[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2) };
    memset(&d, 0x42, sizeof d);
    ref = d;
#define TD(lo, uu) layout_transform_descriptor(&d, &base, 2, t, lo, uu, &e)
    layout_seq low_dup[2] = { LAYOUT_SEQ(1, 1), LAYOUT_SEQ(2) };
    layout_seq low_miss[2] = { LAYOUT_SEQ(1, 2), LAYOUT_SEQ(2) };
    layout_seq low_range[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(3) };
    layout_seq up_dup[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(0) };
    layout_seq up_range[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(5) };
    layout_seq xor_one[2] = { LAYOUT_SEQ(1), LAYOUT_SEQ(2) };
    expect(TD(low_dup, up), LAYOUT_ERR_DIM_ID, &e, "layout_transform_descriptor: lower_ids[0].ids[1] = 1 appears twice");
    expect(TD(low_miss, up), LAYOUT_ERR_DIM_ID, &e, "lower_ids[1].ids[0] = 2 appears twice");
    expect(TD(low_range, up), LAYOUT_ERR_DIM_ID, &e, "lower_ids[1].ids[0] = 3 is not in 0..2");
    expect(TD(low, up_dup), LAYOUT_ERR_DIM_ID, &e, "upper_ids[1].ids[0] = 0 appears twice");
    expect(TD(low, up_range), LAYOUT_ERR_DIM_ID, &e, "upper_ids[1].ids[0] = 5 is not in 0..2");
    expect(TD(xor_one, up), LAYOUT_ERR_DIM_ID, &e, "transforms[0] (xor) takes 2 lower dims but lower_ids[0] has 1");
    expect(layout_transform_descriptor(&d, &base, 1, t, low, up, &e), LAYOUT_ERR_DIM_ID, &e, "lower_ids misses dim 2");
    expect(layout_transform_descriptor(NULL, &base, 2, t, low, up, &e), LAYOUT_ERR_NULL, &e, "out is NULL");
    expect(layout_transform_descriptor(&d, NULL, 2, t, low, up, &e), LAYOUT_ERR_NULL, &e, "in is NULL");
    expect(layout_transform_descriptor(&d, &base, 2, NULL, low, up, &e), LAYOUT_ERR_NULL, &e, "transforms is NULL");
    expect(layout_transform_descriptor(&d, &base, 2, t, NULL, up, &e), LAYOUT_ERR_NULL, &e, "lower_ids is NULL");
    expect(layout_transform_descriptor(&d, &base, 25, t, low, up, &e), LAYOUT_ERR_CAPACITY, &e, "n_transforms = 25");
    /* too many dims: two unmerges into 5 + 4 = 9 new top dims */
    int64_t five[5] = { 1, 1, 1, 1, 8 }, four[4] = { 1, 1, 4, 8 };
    layout_transform split[3];
    layout_make_unmerge(5, five, &split[0], NULL);
    layout_make_unmerge(4, four, &split[1], NULL);
    layout_make_pass_through(8, &split[2], NULL);
    layout_seq sl[3] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1), LAYOUT_SEQ(2) };
    layout_seq su[3] = { LAYOUT_SEQ(0, 1, 2, 3, 4), LAYOUT_SEQ(5, 6, 7, 8), LAYOUT_SEQ(9) };
    expect(layout_transform_descriptor(&d, &base, 3, split, sl, su, &e), LAYOUT_ERR_CAPACITY, &e,
           "upper_ids list 10 new top dims, must be 1..8");
    /* a transform whose dims count was tampered with (xor claiming one lower dim) */
    x1 = t[0];
    x1.n_lower = 1;
    layout_transform bad_pair[2] = { x1, t[1] };
    expect(layout_transform_descriptor(&d, &base, 2, bad_pair, low, up, &e), LAYOUT_ERR_DIM_ID, &e,
           "transforms[0] (xor) takes 1 lower dims but lower_ids[0] has 2");
    int64_t nine[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    CHECK(layout_make_unmerge(9, nine, &m9, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(memcmp(&d, &ref, sizeof d) == 0);
    /* capacity of transforms over many stages */
    layout_descriptor c = base;
    layout_transform p3[3];
    layout_make_pass_through(8, &p3[0], NULL);
    layout_make_pass_through(32, &p3[1], NULL);
    layout_make_pass_through(8, &p3[2], NULL);
    layout_seq pl[3] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1), LAYOUT_SEQ(2) };
    layout_status st = LAYOUT_OK;
    for (int k = 0; k < 20 && st == LAYOUT_OK; k++) st = layout_transform_descriptor(&c, &c, 3, p3, pl, pl, &e);
    CHECK_EQ_I64(st, LAYOUT_ERR_CAPACITY);
    CHECK_STR_CONTAINS(e.message, "capacity");
#undef TD
}

static void test_query_bad_input(void)
{
    layout_descriptor d;
    layout_error e;
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    int64_t c[2] = { 64, 0 }, off = 123, offs[3] = { 7, 7, 7 }, cs[6] = { 0, 0, 1, 1, 2, 32 };
    int valid = 5;
    expect(layout_desc_offset(&d, c, &off, &e), LAYOUT_ERR_RANGE, &e, "layout_desc_offset: coord[0] = 64 is outside 0..63");
    c[0] = -1;
    expect(layout_desc_offset(&d, c, &off, &e), LAYOUT_ERR_RANGE, &e, "coord[0] = -1");
    expect(layout_desc_is_valid(&d, c, &valid, &e), LAYOUT_ERR_RANGE, &e, "layout_desc_is_valid: coord[0] = -1");
    expect(layout_desc_offsets(&d, 3, cs, offs, &e), LAYOUT_ERR_RANGE, &e,
           "layout_desc_offsets: coords[2][1] = 32 is outside 0..31");
    CHECK(offs[0] == 7 && offs[1] == 7 && offs[2] == 7); /* nothing written */
    expect(layout_desc_offset(NULL, c, &off, &e), LAYOUT_ERR_NULL, &e, "d is NULL");
    expect(layout_desc_offset(&d, NULL, &off, &e), LAYOUT_ERR_NULL, &e, "coord is NULL");
    expect(layout_desc_offset(&d, c, NULL, &e), LAYOUT_ERR_NULL, &e, "offset is NULL");
    expect(layout_desc_is_valid(&d, c, NULL, &e), LAYOUT_ERR_NULL, &e, "valid is NULL");
    expect(layout_desc_offsets(&d, 3, NULL, offs, &e), LAYOUT_ERR_NULL, &e, "coords is NULL");
    expect(layout_desc_offsets(&d, 3, cs, NULL, &e), LAYOUT_ERR_NULL, &e, "offsets is NULL");
    expect(layout_desc_offsets(NULL, 3, cs, offs, &e), LAYOUT_ERR_NULL, &e, "d is NULL");
    CHECK(layout_desc_offsets(&d, 0, NULL, NULL, &e) == LAYOUT_OK);
    CHECK(off == 123 && valid == 5);
}

int main(void)
{
    RUN(test_seed_01_02_03);
    RUN(test_seed_08_xor);
    RUN(test_seed_05_xor_pad);
    RUN(test_row_mul_changes_nothing);
    RUN(test_random_compositions_match_reference);
    RUN(test_stride_formulas);
    RUN(test_vector_hints);
    RUN(test_padding_validity);
    RUN(test_print);
    RUN(test_constructor_bad_input);
    RUN(test_transform_descriptor_bad_input);
    RUN(test_query_bad_input);
    return harness_finish("test_descriptor");
}
