/* Private to lib/tile: what the access plan files (access*.c) share, and
 * what the kernel check (kernel.c) takes from them.  What other layers need of access plans is access_plan.h.
 * Not installed. */
#ifndef LAYOUT_ACCESS_INTERNAL_H
#define LAYOUT_ACCESS_INTERNAL_H

#include "access_plan.h"

/* Bytes per lane over both halves of a pair; natural alignment of one half
 * (access_ops.c), indexed by layout_ds_op (0 for LAYOUT_DS_AUTO). */
extern const int layout_access_op_widths[LAYOUT_DS_OP_COUNT];
extern const int layout_access_op_aligns[LAYOUT_DS_OP_COUNT];

/* access_addr.c.  Addresses of positions [p0, p0 + n) of one thread; `part`
 * = every position's element part (encodings, indexed by position), NULL
 * for plain distributions; `given_tp`: the thread's
 * layout_dist_thread_part() when the caller has it, else NULL. */
layout_status layout_access_thread_addrs_tp(const layout_access_plan *pl, int warp, int lane, int p0, int n,
                                            const int64_t (*part)[LAYOUT_MAX_DIMS], const int64_t *given_tp,
                                            int64_t *addr, layout_error *err);
/* Address of one position of one thread (slow path: explanations). */
layout_status layout_access_elem_addr(const layout_access_plan *pl, int warp, int lane, int pos, int64_t *addr,
                                      layout_error *err);
/* The facts of every position over every lane of every warp, through the
 * plan's descriptor (or its desc_plan). */
layout_status layout_access_gather(const layout_access_plan *pl, layout_access_facts *f, layout_error *err);

/* access_instr.c.  Every lane's layout_dist_thread_part() of one warp into
 * tps (encodings: returns 1; plain distributions: 0, tps untouched), and
 * layout_access_instr() given them (tps NULL: derived per lane), so that a
 * stream (and the kernel check, kernel.c) derives each thread's P digits
 * once per warp instead of once per step. */
int layout_access_thread_parts(const layout_access_plan *plan, int warp, int64_t (*tps)[LAYOUT_MAX_DIMS]);
layout_status layout_access_instr_tp(const layout_access_plan *plan, int warp, int step,
                                     const int64_t (*tps)[LAYOUT_MAX_DIMS], layout_instr *out, layout_error *err);

/* access_make.c.  ck_tile's choice of vector Y and ScalarPerVector from the
 * view's hints (lens, strides per X dim), and the snake-ordered
 * space-filling curve over the Y access lengths (plan->order). */
void layout_access_pick_vector_hints(layout_access_plan *pl, const int64_t *lens, const int64_t *strides);
void layout_access_build_order(layout_access_plan *pl);

/* access_model.c: the steps of a plan whose order is set, from its facts:
 * the compiler's choice (opt->op == LAYOUT_DS_AUTO) or one explicit op. */
layout_status layout_access_build_auto(layout_access_plan *pl, const layout_access_facts *f,
                                       const layout_access_options *opt, layout_error *err);
layout_status layout_access_build_explicit(layout_access_plan *pl, const layout_access_facts *f, layout_ds_op op,
                                           layout_error *err);

#endif /* LAYOUT_ACCESS_INTERNAL_H */
