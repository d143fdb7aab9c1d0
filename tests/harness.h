/* Tiny in-repo test harness.
 *
 * A test file defines `static void test_xxx(void)` functions using CHECK*
 * macros and a main() that calls RUN(test_xxx) for each and returns
 * harness_finish().  Each RUN counts as one test: passed when none of its
 * CHECKs failed.  The last line printed is "<file>: N passed, M failed",
 * which tests/run.sh sums into the `make test` total.
 *
 * LAYOUT_TEST_SCALE (environment, default 1.0) scales randomized iteration
 * counts down for slow runners (valgrind); see harness_scaled().
 */
#ifndef LAYOUT_TEST_HARNESS_H
#define LAYOUT_TEST_HARNESS_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/xorshift.h"

static int harness_passed, harness_failed, harness_cur_failures;
static const char *harness_cur_name = "";

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            harness_cur_failures++;                                                 \
            if (harness_cur_failures <= 10)                                         \
                fprintf(stderr, "  FAIL %s (%s:%d): %s\n", harness_cur_name,        \
                        __FILE__, __LINE__, #cond);                                 \
        }                                                                           \
    } while (0)

#define CHECK_MSG(cond, ...)                                                        \
    do {                                                                            \
        if (!(cond)) {                                                              \
            harness_cur_failures++;                                                 \
            if (harness_cur_failures <= 10) {                                       \
                fprintf(stderr, "  FAIL %s (%s:%d): %s: ", harness_cur_name,        \
                        __FILE__, __LINE__, #cond);                                 \
                fprintf(stderr, __VA_ARGS__);                                       \
                fputc('\n', stderr);                                                \
            }                                                                       \
        }                                                                           \
    } while (0)

#define CHECK_EQ_I64(a, b)                                                          \
    do {                                                                            \
        int64_t ha_ = (int64_t)(a), hb_ = (int64_t)(b);                             \
        CHECK_MSG(ha_ == hb_, "%" PRId64 " != %" PRId64, ha_, hb_);                 \
    } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                             \
    CHECK_MSG(strstr((hay), (needle)) != NULL, "\"%s\" lacks \"%s\"", (hay), (needle))

#define RUN(fn) harness_run(#fn, fn)

static inline void harness_run(const char *name, void (*fn)(void))
{
    harness_cur_name = name;
    harness_cur_failures = 0;
    fn();
    if (harness_cur_failures) {
        harness_failed++;
        fprintf(stderr, "FAIL %s (%d failed checks)\n", name, harness_cur_failures);
    } else {
        harness_passed++;
        if (getenv("LAYOUT_TEST_VERBOSE")) fprintf(stderr, "ok   %s\n", name);
    }
}

static inline int harness_finish(const char *file)
{
    printf("%s: %d passed, %d failed\n", file, harness_passed, harness_failed);
    return harness_failed ? 1 : 0;
}

/* Iteration count n scaled by LAYOUT_TEST_SCALE (at least 1). */
static inline long harness_scaled(long n)
{
    const char *s = getenv("LAYOUT_TEST_SCALE");
    double f = s ? atof(s) : 1.0;
    long r = (long)((double)n * f);
    return r < 1 ? 1 : r;
}

/* Deterministic xorshift64* generator for randomized tests (support/xorshift.h). */
typedef struct harness_rng { uint64_t s; } harness_rng;
static inline uint64_t harness_next(harness_rng *r) { return xorshift64s_next(&r->s); }
/* Uniform integer in [lo, hi]. */
static inline int64_t harness_range(harness_rng *r, int64_t lo, int64_t hi)
{
    return xorshift64s_range(&r->s, lo, hi);
}

#endif /* LAYOUT_TEST_HARNESS_H */
