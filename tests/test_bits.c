/* lib/core/bits.h's integer helpers against brute-force definitions written
 * here from the mathematical ones (a power of two is 2^k; floor / ceil log2
 * are the largest / smallest k with 2^k <= v / 2^k >= v; the gcd is the
 * largest common divisor), on every value of a small range, on 2^k - 1,
 * 2^k and 2^k + 1 for every k, on the 64-bit extremes and on random values. */
#include "harness.h"
#include "core/bits.h"

/* ---------------------------------------------------------------- references */

static int ref_is_pow2_u64(uint64_t v)
{
    for (int k = 0; k < 64; k++)
        if (v == (uint64_t)1 << k) return 1;
    return 0;
}

static int ref_is_pow2(int64_t v)
{
    return v > 0 && ref_is_pow2_u64((uint64_t)v);
}

static int ref_bit_length(uint64_t v)
{
    int n = 0;
    while (v) {
        v /= 2;
        n++;
    }
    return n;
}

static int ref_ctz(uint64_t v)
{
    if (!v) return 64;
    int n = 0;
    while (v % 2 == 0) {
        v /= 2;
        n++;
    }
    return n;
}

/* largest k with 2^k <= v (v >= 1); 0 for v = 0 */
static int ref_floor_u64(uint64_t v)
{
    int best = 0;
    for (int k = 0; k < 64; k++)
        if (((uint64_t)1 << k) <= v) best = k;
    return best;
}

/* smallest k with 2^k >= v; 64 when no 2^k (k <= 63) reaches v; 0 for v = 0 */
static int ref_ceil_u64(uint64_t v)
{
    for (int k = 0; k < 64; k++)
        if (((uint64_t)1 << k) >= v) return k;
    return 64;
}

static int ref_floor(int64_t v) { return v <= 1 ? 0 : ref_floor_u64((uint64_t)v); }
static int ref_ceil(int64_t v) { return v <= 1 ? 0 : ref_ceil_u64((uint64_t)v); }

static int ref_exact(int64_t v)
{
    for (int k = 0; k < 63; k++)
        if (v == (int64_t)1 << k) return k;
    return -1;
}

static int64_t ref_pow2_ceil(int64_t v)
{
    for (int k = 0; k < 63; k++)
        if (((int64_t)1 << k) >= v) return (int64_t)1 << k;
    return -1;
}

static uint64_t mag(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

/* the largest d dividing both, by trying every d (small magnitudes only) */
static uint64_t ref_gcd_small(uint64_t a, uint64_t b)
{
    if (!a) return b;
    if (!b) return a;
    for (uint64_t d = a < b ? a : b; d > 1; d--)
        if (a % d == 0 && b % d == 0) return d;
    return 1;
}

/* Stein's binary gcd (no division): an independent algorithm for the
 * magnitudes too large to try every divisor */
static uint64_t ref_gcd_binary(uint64_t a, uint64_t b)
{
    if (!a) return b;
    if (!b) return a;
    int shift = 0;
    while (((a | b) & 1) == 0) {
        a >>= 1;
        b >>= 1;
        shift++;
    }
    while ((a & 1) == 0) a >>= 1;
    while (b) {
        while ((b & 1) == 0) b >>= 1;
        if (a > b) {
            uint64_t t = a;
            a = b;
            b = t;
        }
        b -= a;
    }
    return a << shift;
}

static int64_t as_result(uint64_t g) { return g > (uint64_t)INT64_MAX ? INT64_MIN : (int64_t)g; }

/* ------------------------------------------------------------------- values */

#define MAX_VALUES 20000
static uint64_t values[MAX_VALUES];
static int n_values;

static void add(uint64_t v)
{
    if (n_values < MAX_VALUES) values[n_values++] = v;
}

/* -300..5000, 2^k - 1, 2^k, 2^k + 1 and their negations, the extremes and
 * random values of every bit length */
static void fill_values(void)
{
    n_values = 0;
    for (int64_t v = -300; v <= 5000; v++) add((uint64_t)v);
    for (int k = 0; k < 64; k++) {
        uint64_t p = (uint64_t)1 << k;
        add(p - 1), add(p), add(p + 1);
        add(0 - (p - 1)), add(0 - p), add(0 - (p + 1));
    }
    add((uint64_t)INT64_MAX), add((uint64_t)INT64_MIN), add(UINT64_MAX), add((uint64_t)INT64_MAX - 1);
    harness_rng r = {0x9e3779b97f4a7c15ull};
    for (int i = 0; i < 2000; i++) add(harness_next(&r) >> (i % 64));
}

/* -------------------------------------------------------------------- tests */

static void test_pow2_and_bits(void)
{
    for (int i = 0; i < n_values; i++) {
        uint64_t u = values[i];
        int64_t s = (int64_t)u;
        CHECK_MSG(layout_is_pow2(s) == ref_is_pow2(s), "is_pow2(%" PRId64 ")", s);
        CHECK_MSG(layout_is_pow2_u64(u) == ref_is_pow2_u64(u), "is_pow2_u64(%" PRIu64 ")", u);
        CHECK_MSG(layout_bit_length(u) == ref_bit_length(u), "bit_length(%" PRIu64 ")", u);
        CHECK_MSG(layout_ctz(u) == ref_ctz(u), "ctz(%" PRIu64 ")", u);
    }
}

static void test_log2(void)
{
    for (int i = 0; i < n_values; i++) {
        uint64_t u = values[i];
        int64_t s = (int64_t)u;
        CHECK_MSG(layout_log2_floor_u64(u) == ref_floor_u64(u), "log2_floor_u64(%" PRIu64 ")", u);
        CHECK_MSG(layout_log2_ceil_u64(u) == ref_ceil_u64(u), "log2_ceil_u64(%" PRIu64 ")", u);
        CHECK_MSG(layout_log2_floor(s) == ref_floor(s), "log2_floor(%" PRId64 ")", s);
        CHECK_MSG(layout_log2_ceil(s) == ref_ceil(s), "log2_ceil(%" PRId64 ")", s);
        CHECK_MSG(layout_log2_exact(s) == ref_exact(s), "log2_exact(%" PRId64 ")", s);
        CHECK_MSG(layout_pow2_ceil(s) == ref_pow2_ceil(s), "pow2_ceil(%" PRId64 ")", s);
    }
    /* the documented examples */
    CHECK_EQ_I64(layout_log2_floor(9), 3);
    CHECK_EQ_I64(layout_log2_ceil(9), 4);
    CHECK_EQ_I64(layout_log2_exact(48), -1);
    CHECK_EQ_I64(layout_log2_ceil_u64(((uint64_t)1 << 63) + 1), 64);
    CHECK_EQ_I64(layout_log2_ceil(INT64_MAX), 63);
    CHECK_EQ_I64(layout_pow2_ceil(5), 8);
}

static void test_gcd(void)
{
    for (int64_t a = -60; a <= 60; a++)
        for (int64_t b = -60; b <= 60; b++)
            CHECK_MSG(layout_gcd(a, b) == (int64_t)ref_gcd_small(mag(a), mag(b)), "gcd(%" PRId64 ", %" PRId64 ")",
                      a, b);
    for (int i = 0; i < n_values; i += 7)
        for (int j = 0; j < n_values; j += 131) {
            int64_t a = (int64_t)values[i], b = (int64_t)values[j];
            CHECK_MSG(layout_gcd(a, b) == as_result(ref_gcd_binary(mag(a), mag(b))),
                      "gcd(%" PRId64 ", %" PRId64 ")", a, b);
        }
    CHECK_EQ_I64(layout_gcd(12, -18), 6);
    CHECK_EQ_I64(layout_gcd(0, 0), 0);
    CHECK_EQ_I64(layout_gcd(INT64_MIN, 0), INT64_MIN);
    CHECK_EQ_I64(layout_gcd(INT64_MIN, 6), 2);
    CHECK_EQ_I64(layout_gcd(INT64_MAX, INT64_MAX - 1), 1);
}

int main(void)
{
    fill_values();
    RUN(test_pow2_and_bits);
    RUN(test_log2);
    RUN(test_gcd);
    return harness_finish("test_bits");
}
