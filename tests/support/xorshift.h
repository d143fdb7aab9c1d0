/* The one deterministic random generator of the tests, fuzz helpers and
 * benchmarks: xorshift64* (fast, reproducible from a seed, no global state).
 * Header-only so bench/ can use it without the test harness. */
#ifndef LAYOUT_TEST_XORSHIFT_H
#define LAYOUT_TEST_XORSHIFT_H

#include <stdint.h>

/* Next 64-bit value of state *s (s must not be 0). */
static inline uint64_t xorshift64s_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

/* Uniform-ish integer in [lo, hi] (modulo bias is irrelevant for tests). */
static inline int64_t xorshift64s_range(uint64_t *s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(xorshift64s_next(s) % (uint64_t)(hi - lo + 1));
}

#endif /* LAYOUT_TEST_XORSHIFT_H */
