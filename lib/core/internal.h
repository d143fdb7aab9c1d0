/* Private helpers shared by the lib/ sources.  Not installed. */
#ifndef LAYOUT_INTERNAL_H
#define LAYOUT_INTERNAL_H

#include "layout/status.h"
#include "layout/limits.h"

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define LAYOUT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define LAYOUT_PRINTF(a, b)
#endif

/* Fill *err (if non-NULL) with status and a formatted message; return status.
 * Messages start with the public function name and name the argument:
 * "layout_naive: lengths[1] = 0 must be > 0". */
layout_status layout_fail(layout_error *err, layout_status status, const char *fmt, ...)
    LAYOUT_PRINTF(3, 4);

/* Mark *err (if non-NULL) as success; return LAYOUT_OK. */
layout_status layout_ok(layout_error *err);

/* Overflow-checked int64 arithmetic: return 0 and store on success, 1 on overflow. */
static inline int layout_mul_overflow(int64_t a, int64_t b, int64_t *out)
{
    return __builtin_mul_overflow(a, b, out);
}
static inline int layout_add_overflow(int64_t a, int64_t b, int64_t *out)
{
    return __builtin_add_overflow(a, b, out);
}

#endif /* LAYOUT_INTERNAL_H */
