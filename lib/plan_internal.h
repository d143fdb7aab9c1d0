/* Private: the plan compiler entry for composed plans and the evaluation
 * helpers shared by plan.c and plan_avx2.c.  Not installed. */
#ifndef LAYOUT_PLAN_INTERNAL_H
#define LAYOUT_PLAN_INTERNAL_H

#include "layout/adaptor.h"
#include "layout/plan.h"
#include "internal.h"

#include <stdint.h>

/* Compile a chain of up to two adaptors into *out.  The plan has n_top
 * variables (top coordinates) of lengths top_lengths.  When `first` is
 * non-NULL, its top dim j reads plan variable first_top_var[j] and its bottom
 * dims feed the top dims of `second` in order; else second's top dim j is plan
 * variable j.  second's bottom dim 0 is the offset.  Messages start with fn. */
layout_status layout_plan_compile(const char *fn, layout_plan *out, int n_top, const int64_t *top_lengths,
                                  const layout_adaptor *first, const int *first_top_var,
                                  const layout_adaptor *second, layout_plan_impl impl, layout_error *err);

/* uint64 -> int64 without implementation-defined conversion (compiles to nothing). */
static inline int64_t layout_u2i(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : (int64_t)(u - ((uint64_t)1 << 63)) + INT64_MIN;
}

/* The expressions a box walk needs per row (inputs of per-element ops and
 * checks, the offset); writes their indices to list, returns the count. */
int layout_plan_row_exprs(const layout_plan *p, int *list);

/* Row setup of a box walk: v[0..n_top-1) hold the row's coordinates.  Runs
 * the ops that do not depend on the last coordinate (writing their
 * variables), fills rowbase[e] = constant + row terms of the n expressions
 * in list, and returns 1 when every row-only check passes. */
int layout_plan_row_setup(const layout_plan *p, uint64_t *v, uint64_t *rowbase, const int *list, int n);

/* layout_plan_box() without argument checks (arguments already validated):
 * dispatches to the plan's implementation. */
void layout_plan_box_unchecked(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                               uint8_t *valid);

/* 1 when the AVX2 kernel was compiled in (plan_avx2.c, not its stub). */
int layout_plan_avx2_compiled(void);

/* AVX2 box walk; only for plans with fits_int32, arguments validated. */
void layout_plan_box_avx2(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                          uint8_t *valid);

#endif /* LAYOUT_PLAN_INTERNAL_H */
