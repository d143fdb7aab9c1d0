/* Integer bit helpers shared by every layer of lib/ (not installed): powers
 * of two, base-2 logarithms and the greatest common divisor.  Each name
 * says how it rounds:
 *
 *   exact  log2 of a power of two, -1 for anything else;
 *   floor  the largest k with 2^k <= v;
 *   ceil   the smallest k with 2^k >= v.
 *
 * The int64_t forms treat v <= 1 as 1 (floor and ceil return 0 there), so a
 * caller never sees a negative exponent unless it asked for "exact".
 * All are static inline, pure and thread-safe (no state); tests/test_bits.c
 * compares each with a brute-force definition. */
#ifndef LAYOUT_CORE_BITS_H
#define LAYOUT_CORE_BITS_H

#include <stdint.h>

/** 1 when v is a power of two (v = 2^k, k >= 0), else 0.
 *  Zero and negative values are not powers of two: layout_is_pow2(1) = 1,
 *  layout_is_pow2(0) = 0, layout_is_pow2(-4) = 0, layout_is_pow2(48) = 0. */
static inline int layout_is_pow2(int64_t v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/** layout_is_pow2 over all of uint64_t: 1 when v = 2^k (0 <= k <= 63). */
static inline int layout_is_pow2_u64(uint64_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/** Bits needed to write v: floor(log2 v) + 1 for v >= 1, and 0 for v = 0.
 *  layout_bit_length(0) = 0, (1) = 1, (255) = 8, (256) = 9. */
static inline int layout_bit_length(uint64_t v)
{
    return v ? 64 - __builtin_clzll(v) : 0;
}

/** Index of the lowest set bit of v (trailing zeros); 64 for v = 0.
 *  layout_ctz(1) = 0, layout_ctz(12) = 2. */
static inline int layout_ctz(uint64_t v)
{
    return v ? __builtin_ctzll(v) : 64;
}

/** floor(log2 v) for v >= 1, and 0 for v = 0.
 *  layout_log2_floor_u64(1) = 0, (7) = 2, (8) = 3, (2^64 - 1) = 63. */
static inline int layout_log2_floor_u64(uint64_t v)
{
    return v ? 63 - __builtin_clzll(v) : 0;
}

/** floor(log2 max(v, 1)): the largest k >= 0 with 2^k <= v; 0 for v <= 1.
 *  layout_log2_floor(-5) = 0, (1) = 0, (7) = 2, (8) = 3, (9) = 3. */
static inline int layout_log2_floor(int64_t v)
{
    return v > 1 ? layout_log2_floor_u64((uint64_t)v) : 0;
}

/** ceil(log2 v) for v >= 1, and 0 for v = 0: the smallest k with 2^k >= v.
 *  layout_log2_ceil_u64(1) = 0, (7) = 3, (8) = 3, (9) = 4, (2^63 + 1) = 64. */
static inline int layout_log2_ceil_u64(uint64_t v)
{
    return v > 1 ? layout_bit_length(v - 1) : 0;
}

/** ceil(log2 max(v, 1)): the smallest k >= 0 with 2^k >= v; 0 for v <= 1.
 *  layout_log2_ceil(-5) = 0, (1) = 0, (7) = 3, (8) = 3, (9) = 4;
 *  63 for every v above 2^62. */
static inline int layout_log2_ceil(int64_t v)
{
    return v > 1 ? layout_log2_ceil_u64((uint64_t)v) : 0;
}

/** k when v = 2^k, else -1 (v not a power of two, zero or negative).
 *  layout_log2_exact(1) = 0, (64) = 6, (48) = -1, (0) = -1, (-8) = -1. */
static inline int layout_log2_exact(int64_t v)
{
    return layout_is_pow2(v) ? __builtin_ctzll((uint64_t)v) : -1;
}

/** 2^ceil(log2 max(v, 1)): the smallest power of two >= v (1 for v <= 1);
 *  -1 when that power would exceed INT64_MAX (v > 2^62).
 *  layout_pow2_ceil(0) = 1, (5) = 8, (8) = 8. */
static inline int64_t layout_pow2_ceil(int64_t v)
{
    int k = layout_log2_ceil(v);
    return k > 62 ? -1 : (int64_t)1 << k;
}

/** gcd(|a|, |b|), the greatest common divisor of the magnitudes, with
 *  gcd(0, b) = |b| and gcd(0, 0) = 0.  The one result above INT64_MAX,
 *  2^63 (a and b each INT64_MIN or 0, not both 0), is returned as INT64_MIN.
 *  layout_gcd(12, -18) = 6, layout_gcd(0, 5) = 5, layout_gcd(7, 1) = 1. */
static inline int64_t layout_gcd(int64_t a, int64_t b)
{
    uint64_t x = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
    uint64_t y = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    while (y) {
        uint64_t r = x % y;
        x = y;
        y = r;
    }
    return x > (uint64_t)INT64_MAX ? INT64_MIN : (int64_t)x;
}

#endif /* LAYOUT_CORE_BITS_H */
