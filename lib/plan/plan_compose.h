/* What other layers (the precompiled kernel check, lib/tile/kernel_plan.c)
 * need of the plan compiler beyond the public plan.h: a plan composed of
 * two adaptors, and the box walk without argument checks.  Not installed. */
#ifndef LAYOUT_PLAN_COMPOSE_H
#define LAYOUT_PLAN_COMPOSE_H

#include "layout/adaptor.h"
#include "layout/plan.h"

#include <stdint.h>

/** Compile a chain of up to two adaptors into *out.  The plan has n_top
 * variables (top coordinates) of lengths top_lengths.  When `first` is
 * non-NULL, its top dim j reads plan variable first_top_var[j] and its bottom
 * dims feed the top dims of `second` in order; else second's top dim j is plan
 * variable j.  second's bottom dim 0 is the offset.  Returns LAYOUT_OK, or a
 * failure status with *err filled, messages starting with fn (*out is then
 * unspecified).  No heap; thread-safe on distinct outputs. */
layout_status layout_plan_compile(const char *fn, layout_plan *out, int n_top, const int64_t *top_lengths,
                                  const layout_adaptor *first, const int *first_top_var,
                                  const layout_adaptor *second, layout_plan_impl impl, layout_error *err);

/** layout_plan_box() without argument checks: the arguments must be ones
 * layout_plan_box() accepts (the box inside the plan's top lengths, offsets
 * and valid, when non-NULL, holding the box's element count).  Dispatches to
 * the plan's implementation (scalar or AVX2); cannot fail. */
void layout_plan_box_unchecked(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                               uint8_t *valid);

#endif /* LAYOUT_PLAN_COMPOSE_H */
