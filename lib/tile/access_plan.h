/* What the layout search (lib/suggest) needs of access plans: plans of one
 * side built from precomputed byte addresses, or from the facts of those
 * addresses given in closed form, instead of from a descriptor.  The search
 * scores many LDS layouts against fixed distributions, so it validates the
 * arguments once with layout_access_plan_make() and then only the
 * addresses vary.  Not installed; a layer above tile includes this header,
 * never access_internal.h. */
#ifndef LAYOUT_ACCESS_PLAN_H
#define LAYOUT_ACCESS_PLAN_H

#include "layout/access.h"

/** @file
 * Access plans of one side exactly as layout_access_plan_make() builds
 * them, but from byte addresses instead of a descriptor, in two steps:
 * layout_access_table_order() (vector choice and issue order), then
 * layout_access_table_build() (compiler model on an address table) or
 * layout_access_table_build_facts() (on facts given in closed form).
 *
 * Contract of all three: the arguments must already have passed
 * layout_access_plan_make() once (same dist, direction, elem_bytes, opt) and
 * addresses must lie in 0..2^32-17.  The plan's desc is NULL: it is for
 * counting only (layout_access_instr() cannot use it), and flagged steps
 * carry no bad_warp / bad_lane.  No heap, no shared state: thread-safe on
 * distinct plans. */

/** The tile window's vector choice and issue order of *plan:
 * plan->order[p] = the register element issued at position p, after ck_tile's
 * snake order over the Y access lengths, with the vector Y and its length
 * taken from opt (opt->vector_elems > 0) or else from the view's vector hints
 * (hint_lengths / hint_strides per X dim, as layout_desc_vector_hints() of
 * the view gives).  Resets the plan's steps and counts; cannot fail. */
void layout_access_table_order(layout_access_plan *plan, const layout_distribution *dist, layout_direction direction,
                               int elem_bytes, const layout_access_options *opt, const int64_t *hint_lengths,
                               const int64_t *hint_strides);

/** The compiler model on an address table, position-major in issue order:
 * addr[p * n_threads + t] is the byte address (base included) of position
 * p of thread t = warp * wave_size + lane.  Appends the steps to *plan
 * (ordered by layout_access_table_order()).  Returns LAYOUT_OK, or
 * LAYOUT_ERR_CAPACITY with *err filled when the plan needs more than
 * LAYOUT_MAX_ACCESS_STEPS steps (then *plan is partly written). */
layout_status layout_access_table_build(layout_access_plan *plan, const layout_access_options *opt,
                                        const uint32_t *addr, int n_threads, layout_error *err);

/** What the compiler model needs of the addresses, per position p of the
 * issue order, over every thread: layout_access_table_build() gathers it
 * from the addresses; a caller that knows the addresses in closed form (the
 * search's F2 candidates, lib/suggest/score_linear.c) derives it without
 * them and calls layout_access_table_build_facts(). */
typedef struct layout_access_facts {
    unsigned residues[LAYOUT_MAX_THREAD_ELEMS];           /* bit r: some thread's address % 16 == r */
    unsigned char next_adjacent[LAYOUT_MAX_THREAD_ELEMS]; /* addr(p+1) == addr(p) + eb in every thread */
    unsigned char next_below[LAYOUT_MAX_THREAD_ELEMS];    /* addr(p+1) == addr(p) - eb in every thread */
    int break_warp[LAYOUT_MAX_THREAD_ELEMS], break_lane[LAYOUT_MAX_THREAD_ELEMS]; /* -1 here */
    /* rigid classes: klass[p] = the first position q whose address differs
     * from p's by the same constant in every thread; rel[p] = that constant,
     * addr(p) - addr(klass[p]) (bytes; 0 for klass[p] == p) */
    unsigned char klass[LAYOUT_MAX_THREAD_ELEMS];                /* positions < LAYOUT_MAX_THREAD_ELEMS = 256 */
    int64_t rel[LAYOUT_MAX_THREAD_ELEMS];
} layout_access_facts;

/** layout_access_table_build() from the facts instead of the addresses:
 * the same steps when *facts is what the addresses would give.  Same
 * contract and errors. */
layout_status layout_access_table_build_facts(layout_access_plan *plan, const layout_access_options *opt,
                                              const layout_access_facts *facts, layout_error *err);

#endif /* LAYOUT_ACCESS_PLAN_H */
