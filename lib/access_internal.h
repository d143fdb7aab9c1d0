/* Private: access plans from precomputed addresses, for the layout search
 * (lib/suggest), which scores many LDS layouts against fixed distributions.
 * Not installed. */
#ifndef LAYOUT_ACCESS_INTERNAL_H
#define LAYOUT_ACCESS_INTERNAL_H

#include "layout/access.h"

/* Build the access plan of one side exactly as layout_access_plan_make()
 * does, but from a table of byte addresses instead of a descriptor:
 * addr[(warp * wave_size + lane) * elems_per_thread + e] is the byte address
 * (base included) of register element e (row-major Y index) of that thread.
 * hint_lengths / hint_strides are the view's vector hints per X dim
 * (layout_desc_vector_hints() of the view).  The arguments must already have
 * passed layout_access_plan_make() once (same dist, direction, elem_bytes,
 * opt); addresses must lie in 0..2^32-17.  The plan's desc is NULL: it is
 * for counting only (layout_access_instr() cannot use it), and flagged
 * steps carry no bad_warp / bad_lane.  *plan may be partly written on error
 * (capacity). */
layout_status layout_access_plan_from_table(layout_access_plan *plan, const layout_distribution *dist,
                                            layout_direction direction, int elem_bytes,
                                            const layout_access_options *opt, const int64_t *hint_lengths,
                                            const int64_t *hint_strides, const int64_t *addr, layout_error *err);

#endif /* LAYOUT_ACCESS_INTERNAL_H */
