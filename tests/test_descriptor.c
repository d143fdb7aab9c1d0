/* Descriptors: the seed talk's LDS descriptors against LDS_MODEL.md §4,
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

int main(void)
{
    RUN(test_seed_01_02_03);
    RUN(test_seed_08_xor);
    RUN(test_seed_05_xor_pad);
    RUN(test_row_mul_changes_nothing);
    RUN(test_random_compositions_match_reference);
    return harness_finish("test_descriptor");
}
