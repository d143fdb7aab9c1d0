/* Private: access plans from precomputed addresses, for the layout search
 * (lib/suggest), which scores many LDS layouts against fixed distributions.
 * Not installed. */
#ifndef LAYOUT_ACCESS_INTERNAL_H
#define LAYOUT_ACCESS_INTERNAL_H

#include "layout/access.h"

/* Access plans of one side exactly as layout_access_plan_make() builds
 * them, but from byte addresses instead of a descriptor, in two steps:
 *
 * layout_access_table_order(): the tile window's vector choice from the
 * view's vector hints (hint_lengths / hint_strides per X dim, as
 * layout_desc_vector_hints() of the view gives) and the issue order
 * (plan->order: position -> register element).
 *
 * layout_access_table_build(): the compiler model on the addresses,
 * position-major in issue order: addr[p * n_threads + t] is the byte
 * address (base included) of position p of thread t = warp * wave_size +
 * lane.
 *
 * The arguments must already have passed layout_access_plan_make() once
 * (same dist, direction, elem_bytes, opt) and addresses must lie in
 * 0..2^32-17.  The plan's desc is NULL: it is for counting only
 * (layout_access_instr() cannot use it), and flagged steps carry no
 * bad_warp / bad_lane.  On error (capacity) *plan is partly written. */
void layout_access_table_order(layout_access_plan *plan, const layout_distribution *dist, layout_direction direction,
                               int elem_bytes, const layout_access_options *opt, const int64_t *hint_lengths,
                               const int64_t *hint_strides);
layout_status layout_access_table_build(layout_access_plan *plan, const layout_access_options *opt,
                                        const uint32_t *addr, int n_threads, layout_error *err);

#endif /* LAYOUT_ACCESS_INTERNAL_H */
