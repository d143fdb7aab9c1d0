/* Private: the per-side accumulation of the triple check, shared by
 * kernel.c (instructions from the access layer) and kernel_plan.c
 * (instructions from compiled plans).  Not installed. */
#ifndef LAYOUT_KERNEL_INTERNAL_H
#define LAYOUT_KERNEL_INTERNAL_H

#include "../core/internal.h"
#include "layout/kernel.h"

/* Produces instruction `step` of warp `warp` of a side. */
typedef layout_status (*layout_instr_source)(const void *ctx, int warp, int step, layout_instr *out,
                                             layout_error *err);

/* Cost every (warp, step) instruction `source` produces on `checker` and
 * fill *out as layout_check_side() documents; `ops` is the plan summary to
 * copy into out->ops (NULL: print it from `plan`).  Messages start with fn. */
layout_status layout_side_accumulate(const char *fn, const layout_checker *checker, const layout_access_plan *plan,
                                     layout_instr_source source, const void *ctx, int64_t tiles, const char *ops,
                                     layout_side_result *out, layout_error *err);

/* *out = *opt (zero when NULL), with out->arch = arch where opt names none:
 * a kernel check's access plans take the target's DS forms (access.h). */
void layout_access_options_for(layout_access_options *out, const layout_access_options *opt, const layout_arch *arch);

#endif /* LAYOUT_KERNEL_INTERNAL_H */
