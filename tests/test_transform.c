/* Transforms: each kind's formula, validity, vector-hint rule and printer
 * of ck_tile's coordinate transforms (include/layout/transform.h), the protocol check, and every bad input. */
#include "harness.h"
#include "layout.h"

static void lower1(const layout_transform *t, int64_t up, int64_t *low)
{
    layout_transform_lower(t, &up, low);
}

static void print_is(const layout_transform *t, const char *expect)
{
    char buf[256];
    int n = layout_transform_print(t, buf, sizeof buf);
    CHECK_MSG(strcmp(buf, expect) == 0, "\"%s\" != \"%s\"", buf, expect);
    CHECK_EQ_I64(n, (int64_t)strlen(expect));
    CHECK(layout_transform_check(t, NULL) == LAYOUT_OK);
}

static void test_pass_through(void)
{
    layout_transform t;
    int64_t low;
    CHECK(layout_make_pass_through(4, &t, NULL) == LAYOUT_OK);
    CHECK(t.kind == LAYOUT_PASS_THROUGH && t.n_upper == 1 && t.n_lower == 1);
    CHECK_EQ_I64(t.upper_lengths[0], 4);
    CHECK_EQ_I64(t.lower_lengths[0], 4);
    for (int64_t u = 0; u < 4; u++) {
        lower1(&t, u, &low);
        CHECK_EQ_I64(low, u);
        CHECK(layout_transform_is_valid(&t, &u));
    }
    print_is(&t, "pass_through(4)");
}

static void test_pads(void)
{
    layout_transform t;
    int64_t low;
    /* pad(3, 1, 1): up 0..4 -> -1..3, valid 0 1 1 1 0 */
    CHECK(layout_make_pad(3, 1, 1, &t, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(t.upper_lengths[0], 5);
    CHECK_EQ_I64(t.lower_lengths[0], 3);
    static const int pad_valid[5] = { 0, 1, 1, 1, 0 };
    for (int64_t u = 0; u < 5; u++) {
        lower1(&t, u, &low);
        CHECK_EQ_I64(low, u - 1);
        CHECK_EQ_I64(layout_transform_is_valid(&t, &u), pad_valid[u]);
    }
    print_is(&t, "pad(3, 1, 1)");
    /* left_pad(3, 2): up 0..4 -> -2..2, valid 0 0 1 1 1 */
    CHECK(layout_make_left_pad(3, 2, &t, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(t.upper_lengths[0], 5);
    for (int64_t u = 0; u < 5; u++) {
        lower1(&t, u, &low);
        CHECK_EQ_I64(low, u - 2);
        CHECK_EQ_I64(layout_transform_is_valid(&t, &u), u >= 2);
    }
    print_is(&t, "left_pad(3, 2)");
    /* right_pad(3, 1): up 0..3 -> 0..3, valid 1 1 1 0 */
    CHECK(layout_make_right_pad(3, 1, &t, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(t.upper_lengths[0], 4);
    for (int64_t u = 0; u < 4; u++) {
        lower1(&t, u, &low);
        CHECK_EQ_I64(low, u);
        CHECK_EQ_I64(layout_transform_is_valid(&t, &u), u < 3);
    }
    print_is(&t, "right_pad(3, 1)");
}

static void test_embed_and_unmerge(void)
{
    layout_transform t;
    int64_t lens[3] = { 2, 3, 4 }, coefs[3] = { 5, -2, 7 }, up[3], low;
    CHECK(layout_make_embed(3, lens, coefs, &t, NULL) == LAYOUT_OK);
    CHECK(t.n_upper == 3 && t.n_lower == 1);
    CHECK_EQ_I64(t.lower_lengths[0], 0); /* embed declares no lower length */
    for (up[0] = 0; up[0] < 2; up[0]++)
        for (up[1] = 0; up[1] < 3; up[1]++)
            for (up[2] = 0; up[2] < 4; up[2]++) {
                layout_transform_lower(&t, up, &low);
                CHECK_EQ_I64(low, 5 * up[0] - 2 * up[1] + 7 * up[2]);
            }
    print_is(&t, "embed([2, 3, 4], [5, -2, 7])");

    CHECK(layout_make_unmerge(3, lens, &t, NULL) == LAYOUT_OK);
    CHECK(t.n_upper == 3 && t.n_lower == 1);
    CHECK_EQ_I64(t.lower_lengths[0], 24);
    for (up[0] = 0; up[0] < 2; up[0]++)
        for (up[1] = 0; up[1] < 3; up[1]++)
            for (up[2] = 0; up[2] < 4; up[2]++) {
                layout_transform_lower(&t, up, &low);
                CHECK_EQ_I64(low, (up[0] * 3 + up[1]) * 4 + up[2]);
            }
    print_is(&t, "unmerge([2, 3, 4])");
}

static void test_merge_both_variants(void)
{
    int64_t lens[3] = { 3, 2, 5 };
    layout_transform a, b;
    CHECK(layout_make_merge(3, lens, &a, NULL) == LAYOUT_OK);
    CHECK(layout_make_merge_divmod(3, lens, &b, NULL) == LAYOUT_OK);
    CHECK(a.n_upper == 1 && a.n_lower == 3);
    CHECK_EQ_I64(a.upper_lengths[0], 30);
    for (int64_t u = 0; u < 30; u++) {
        int64_t la[3], lb[3];
        lower1(&a, u, la);
        lower1(&b, u, lb);
        CHECK_EQ_I64(la[0], u / 10);
        CHECK_EQ_I64(la[1], (u / 5) % 2);
        CHECK_EQ_I64(la[2], u % 5);
        CHECK(memcmp(la, lb, sizeof la) == 0);
    }
    /* the first digit takes the rest unreduced (as ck_tile) */
    int64_t big[3];
    lower1(&a, 65, big);
    CHECK_EQ_I64(big[0], 6);
    CHECK_EQ_I64(big[1], 1);
    CHECK_EQ_I64(big[2], 0);
    print_is(&a, "merge([3, 2, 5])");
    print_is(&b, "merge_divmod([3, 2, 5])");
}

static void test_freeze_insert_replicate(void)
{
    layout_transform t;
    int64_t low = -1, lens[2] = { 2, 3 };
    CHECK(layout_make_freeze(3, &t, NULL) == LAYOUT_OK);
    CHECK(t.n_upper == 0 && t.n_lower == 1);
    layout_transform_lower(&t, NULL, &low);
    CHECK_EQ_I64(low, 3);
    CHECK(layout_transform_is_valid(&t, NULL));
    print_is(&t, "freeze(3)");
    CHECK(layout_make_insert(4, &t, NULL) == LAYOUT_OK);
    CHECK(t.n_upper == 1 && t.n_lower == 0);
    CHECK_EQ_I64(t.upper_lengths[0], 4);
    print_is(&t, "insert(4)");
    CHECK(layout_make_replicate(2, lens, &t, NULL) == LAYOUT_OK);
    CHECK(t.n_upper == 2 && t.n_lower == 0);
    print_is(&t, "replicate([2, 3])");
    CHECK(layout_make_replicate(0, NULL, &t, NULL) == LAYOUT_OK); /* ck_tile's empty R */
    CHECK(t.n_upper == 0 && t.n_lower == 0);
    print_is(&t, "replicate([])");
}

static void test_slice_modulo_offset(void)
{
    layout_transform t;
    int64_t low;
    CHECK(layout_make_slice(8, 2, 5, &t, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(t.upper_lengths[0], 3);
    CHECK_EQ_I64(t.lower_lengths[0], 8);
    for (int64_t u = 0; u < 3; u++) {
        lower1(&t, u, &low);
        CHECK_EQ_I64(low, u + 2);
    }
    print_is(&t, "slice(8, 2, 5)");
    CHECK(layout_make_modulo(3, 7, &t, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(t.upper_lengths[0], 7);
    CHECK_EQ_I64(t.lower_lengths[0], 3);
    for (int64_t u = 0; u < 7; u++) {
        lower1(&t, u, &low);
        CHECK_EQ_I64(low, u % 3);
    }
    print_is(&t, "modulo(3, 7)");
    CHECK(layout_make_offset(4, 10, &t, NULL) == LAYOUT_OK);
    for (int64_t u = 0; u < 4; u++) {
        lower1(&t, u, &low);
        CHECK_EQ_I64(low, u + 10);
    }
    print_is(&t, "offset(4, 10)");
}

static void test_xor(void)
{
    layout_transform t;
    /* the 4x4 grid of transform.h */
    static const int64_t grid[4][4] = { { 0, 1, 2, 3 }, { 1, 0, 3, 2 }, { 2, 3, 0, 1 }, { 3, 2, 1, 0 } };
    CHECK(layout_make_xor(4, 4, &t, NULL) == LAYOUT_OK);
    CHECK(t.n_upper == 2 && t.n_lower == 2);
    for (int64_t r = 0; r < 4; r++)
        for (int64_t c = 0; c < 4; c++) {
            int64_t up[2] = { r, c }, low[2];
            layout_transform_lower(&t, up, low);
            CHECK_EQ_I64(low[0], r);
            CHECK_EQ_I64(low[1], grid[r][c]);
        }
    /* the modulus is the SECOND length: xor(32, 8) uses up0 % 8 */
    CHECK(layout_make_xor(32, 8, &t, NULL) == LAYOUT_OK);
    int64_t up[2] = { 13, 2 }, low[2];
    layout_transform_lower(&t, up, low);
    CHECK_EQ_I64(low[1], 2 ^ (13 % 8));
    /* doc example: xor(8, 8), (3, 5) -> (3, 6) */
    CHECK(layout_make_xor(8, 8, &t, NULL) == LAYOUT_OK);
    up[0] = 3;
    up[1] = 5;
    layout_transform_lower(&t, up, low);
    CHECK_EQ_I64(low[0], 3);
    CHECK_EQ_I64(low[1], 6);
    /* not a power of two: results can leave 0..len1-1 (ck_tile does not check) */
    CHECK(layout_make_xor(6, 6, &t, NULL) == LAYOUT_OK);
    up[0] = 3;
    up[1] = 4;
    layout_transform_lower(&t, up, low);
    CHECK_EQ_I64(low[1], 7);
    print_is(&t, "xor(6, 6)");
}

/* The vector-hint rule of each kind (include/layout/transform.h), one case per rule. */
static void test_vector_hints(void)
{
    layout_transform t;
    int64_t ll[3] = { 16, 4, 8 }, ls[3] = { 1, 2, 3 }, ul[3], us[3];
    int64_t lens[3] = { 2, 4, 8 };
    CHECK(layout_make_pass_through(16, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == 16 && us[0] == 1);
    CHECK(layout_make_left_pad(16, 1, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == 16 && us[0] == 1);
    CHECK(layout_make_right_pad(16, 1, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == 16 && us[0] == 1);
    CHECK(layout_make_pad(16, 1, 1, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == -1 && us[0] == -1);
    CHECK(layout_make_embed(2, lens, lens, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == -1 && us[0] == -1 && ul[1] == -1 && us[1] == -1);
    CHECK(layout_make_merge(3, lens, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == 8 && us[0] == 3); /* the last lower dim's */
    /* unmerge: last upper gets gcd(lower length, last length) and the lower stride */
    CHECK(layout_make_unmerge(2, lens + 1, &t, NULL) == LAYOUT_OK); /* [4, 8] */
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == -1 && us[0] == -1);
    CHECK(ul[1] == 8 && us[1] == 1);
    int64_t l6 = 6, s1 = 1;
    layout_transform_vector_hint(&t, &l6, &s1, ul, us);
    CHECK(ul[1] == 2 && us[1] == 1);
    int64_t unknown = -1;
    layout_transform_vector_hint(&t, &unknown, &s1, ul, us);
    CHECK(ul[1] == -1 && us[1] == 1);
    CHECK(layout_make_xor(4, 8, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == 16 && us[0] == 1 && ul[1] == 4 && us[1] == 2); /* copied unchanged */
    CHECK(layout_make_slice(16, 0, 8, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == -1 && us[0] == -1);
    CHECK(layout_make_modulo(4, 16, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == -1);
    CHECK(layout_make_offset(16, 4, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == -1);
    CHECK(layout_make_insert(4, &t, NULL) == LAYOUT_OK);
    layout_transform_vector_hint(&t, ll, ls, ul, us);
    CHECK(ul[0] == -1);
}

static void test_names_and_print(void)
{
    static const char *names[] = { "pass_through", "pad",     "left_pad",  "right_pad", "embed",
                                   "merge",        "merge_divmod", "unmerge", "freeze", "insert",
                                   "replicate",    "slice",   "modulo",    "xor",       "offset" };
    CHECK_EQ_I64(sizeof names / sizeof names[0], LAYOUT_TRANSFORM_KIND_COUNT);
    for (int k = 0; k < LAYOUT_TRANSFORM_KIND_COUNT; k++) {
        layout_transform_kind kind = LAYOUT_XOR;
        CHECK(strcmp(layout_transform_kind_name((layout_transform_kind)k), names[k]) == 0);
        CHECK(layout_transform_kind_from_name(names[k], &kind, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(kind, k);
    }
    CHECK(strcmp(layout_transform_kind_name(LAYOUT_TRANSFORM_KIND_COUNT), "unknown") == 0);
    CHECK(strcmp(layout_transform_kind_name((layout_transform_kind)-1), "unknown") == 0);
    layout_transform_kind kind = LAYOUT_PAD;
    layout_error e;
    CHECK(layout_transform_kind_from_name("swizzle", &kind, &e) == LAYOUT_ERR_NOT_FOUND);
    CHECK(kind == LAYOUT_PAD);
    CHECK_STR_CONTAINS(e.message, "swizzle");
    CHECK(layout_transform_kind_from_name(NULL, &kind, NULL) == LAYOUT_ERR_NULL);
    CHECK(layout_transform_kind_from_name("xor", NULL, NULL) == LAYOUT_ERR_NULL);

    /* snprintf semantics: truncation keeps the NUL and reports the full length */
    layout_transform t;
    char small[6];
    layout_make_xor(32, 8, &t, NULL);
    CHECK_EQ_I64(layout_transform_print(&t, small, sizeof small), 10);
    CHECK(strcmp(small, "xor(3") == 0);
    CHECK_EQ_I64(layout_transform_print(&t, NULL, 0), 10);
    CHECK(layout_transform_print(NULL, small, sizeof small) < 0);
}

/* A struct that differs from its constructor's output is rejected. */
static void test_check_rejects_tampering(void)
{
    layout_transform t, bad;
    layout_error e;
    int64_t lens[2] = { 4, 8 };
    CHECK(layout_make_merge(2, lens, &t, NULL) == LAYOUT_OK);
    CHECK(layout_transform_check(&t, NULL) == LAYOUT_OK);
    bad = t;
    bad.params[0] = 7; /* wrong suffix product */
    CHECK(layout_transform_check(&bad, &e) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(e.message, "layout_transform_check");
    bad = t;
    bad.upper_lengths[0] = 33;
    CHECK(layout_transform_check(&bad, NULL) == LAYOUT_ERR_MISMATCH);
    bad = t;
    bad.kind = (layout_transform_kind)99;
    CHECK(layout_transform_check(&bad, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "kind = 99");
    bad = t;
    bad.n_lower = 9;
    CHECK(layout_transform_check(&bad, NULL) == LAYOUT_ERR_CAPACITY);
    CHECK(layout_make_xor(4, 4, &t, NULL) == LAYOUT_OK);
    bad = t;
    bad.n_upper = 1; /* xor on the wrong number of dims */
    CHECK(layout_transform_check(&bad, NULL) == LAYOUT_ERR_MISMATCH);
    bad = t;
    bad.upper_lengths[1] = 0;
    CHECK(layout_transform_check(&bad, NULL) == LAYOUT_ERR_ARG);
    CHECK(layout_transform_check(NULL, NULL) == LAYOUT_ERR_NULL);
}

/* Each bad input gives its status and names the argument. */
static void bad(layout_status got, layout_status want, const layout_error *e, const char *needle)
{
    CHECK_MSG(got == want, "%s (%d) != %s: %s", layout_status_name(got), (int)got, layout_status_name(want),
              e->message);
    CHECK_STR_CONTAINS(e->message, needle);
}

static void test_bad_input(void)
{
    layout_transform t, ref;
    layout_error e;
    int64_t ok2[2] = { 2, 3 }, zero[2] = { 2, 0 }, neg[2] = { -1, 3 }, huge[2] = { INT64_MAX / 2, 3 };
    int64_t coef_huge[2] = { INT64_MAX / 2, INT64_MAX / 2 }, nine[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    memset(&t, 0x5A, sizeof t);
    ref = t;

    bad(layout_make_pass_through(0, &t, &e), LAYOUT_ERR_ARG, &e, "layout_make_pass_through: length = 0");
    bad(layout_make_pass_through(-3, &t, &e), LAYOUT_ERR_ARG, &e, "length = -3");
    bad(layout_make_pass_through(4, NULL, &e), LAYOUT_ERR_NULL, &e, "out is NULL");
    bad(layout_make_pad(0, 1, 1, &t, &e), LAYOUT_ERR_ARG, &e, "layout_make_pad: length = 0");
    bad(layout_make_pad(4, -1, 1, &t, &e), LAYOUT_ERR_ARG, &e, "left = -1");
    bad(layout_make_pad(4, 1, -2, &t, &e), LAYOUT_ERR_ARG, &e, "right = -2");
    bad(layout_make_pad(INT64_MAX, 1, 0, &t, &e), LAYOUT_ERR_OVERFLOW, &e, "overflows");
    bad(layout_make_left_pad(4, -1, &t, &e), LAYOUT_ERR_ARG, &e, "layout_make_left_pad: left = -1");
    bad(layout_make_right_pad(INT64_MAX - 1, 5, &t, &e), LAYOUT_ERR_OVERFLOW, &e, "layout_make_right_pad");
    bad(layout_make_embed(0, ok2, ok2, &t, &e), LAYOUT_ERR_CAPACITY, &e, "layout_make_embed: n = 0");
    bad(layout_make_embed(9, nine, nine, &t, &e), LAYOUT_ERR_CAPACITY, &e, "n = 9");
    bad(layout_make_embed(2, NULL, ok2, &t, &e), LAYOUT_ERR_NULL, &e, "upper_lengths is NULL");
    bad(layout_make_embed(2, ok2, NULL, &t, &e), LAYOUT_ERR_NULL, &e, "coefficients is NULL");
    bad(layout_make_embed(2, zero, ok2, &t, &e), LAYOUT_ERR_ARG, &e, "upper_lengths[1] = 0 must be > 0");
    bad(layout_make_embed(2, ok2, coef_huge, &t, &e), LAYOUT_ERR_OVERFLOW, &e, "overflows");
    bad(layout_make_merge(2, neg, &t, &e), LAYOUT_ERR_ARG, &e, "layout_make_merge: lower_lengths[0] = -1");
    bad(layout_make_merge(2, huge, &t, &e), LAYOUT_ERR_OVERFLOW, &e, "product of lower_lengths overflows");
    bad(layout_make_merge(-1, ok2, &t, &e), LAYOUT_ERR_CAPACITY, &e, "n = -1");
    bad(layout_make_merge_divmod(2, NULL, &t, &e), LAYOUT_ERR_NULL, &e, "layout_make_merge_divmod");
    bad(layout_make_unmerge(2, huge, &t, &e), LAYOUT_ERR_OVERFLOW, &e, "layout_make_unmerge");
    bad(layout_make_unmerge(9, nine, &t, &e), LAYOUT_ERR_CAPACITY, &e, "n = 9");
    bad(layout_make_freeze(-1, &t, &e), LAYOUT_ERR_ARG, &e, "layout_make_freeze: value = -1");
    bad(layout_make_insert(0, &t, &e), LAYOUT_ERR_ARG, &e, "layout_make_insert: length = 0");
    bad(layout_make_replicate(2, NULL, &t, &e), LAYOUT_ERR_NULL, &e, "lengths is NULL");
    bad(layout_make_replicate(2, zero, &t, &e), LAYOUT_ERR_ARG, &e, "lengths[1] = 0");
    bad(layout_make_replicate(-1, ok2, &t, &e), LAYOUT_ERR_CAPACITY, &e, "n = -1");
    bad(layout_make_slice(8, 5, 5, &t, &e), LAYOUT_ERR_ARG, &e, "layout_make_slice: end = 5");
    bad(layout_make_slice(8, 2, 9, &t, &e), LAYOUT_ERR_ARG, &e, "end = 9");
    bad(layout_make_slice(8, -1, 3, &t, &e), LAYOUT_ERR_ARG, &e, "begin = -1");
    bad(layout_make_slice(0, 0, 1, &t, &e), LAYOUT_ERR_ARG, &e, "length = 0");
    bad(layout_make_modulo(0, 4, &t, &e), LAYOUT_ERR_ARG, &e, "layout_make_modulo: modulus = 0");
    bad(layout_make_modulo(4, -4, &t, &e), LAYOUT_ERR_ARG, &e, "length = -4");
    bad(layout_make_xor(0, 8, &t, &e), LAYOUT_ERR_ARG, &e, "layout_make_xor: length0 = 0");
    bad(layout_make_xor(8, -8, &t, &e), LAYOUT_ERR_ARG, &e, "length1 = -8");
    bad(layout_make_xor(8, 8, NULL, &e), LAYOUT_ERR_NULL, &e, "out is NULL");
    bad(layout_make_offset(0, 3, &t, &e), LAYOUT_ERR_ARG, &e, "layout_make_offset: length = 0");
    bad(layout_make_offset(10, INT64_MAX - 3, &t, &e), LAYOUT_ERR_OVERFLOW, &e, "overflows");
    CHECK(memcmp(&t, &ref, sizeof t) == 0); /* untouched by every failure */
    /* err may be NULL */
    CHECK(layout_make_xor(0, 8, &t, NULL) == LAYOUT_ERR_ARG);
    /* success clears the error record */
    CHECK(layout_make_xor(8, 8, &t, &e) == LAYOUT_OK);
    CHECK(e.status == LAYOUT_OK && e.message[0] == '\0');
}

int main(void)
{
    RUN(test_pass_through);
    RUN(test_pads);
    RUN(test_embed_and_unmerge);
    RUN(test_merge_both_variants);
    RUN(test_freeze_insert_replicate);
    RUN(test_slice_modulo_offset);
    RUN(test_xor);
    RUN(test_vector_hints);
    RUN(test_names_and_print);
    RUN(test_check_rejects_tampering);
    RUN(test_bad_input);
    return harness_finish("test_transform");
}
