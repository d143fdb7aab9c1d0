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

/* What the compiler model needs of the addresses, per position p of the
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

layout_status layout_access_table_build_facts(layout_access_plan *plan, const layout_access_options *opt,
                                              const layout_access_facts *facts, layout_error *err);

/* ------------------------------------------------------------------------
 * Shared by the access plan files of lib/tile only (access*.c). */

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

/* access.c.  ck_tile's choice of vector Y and ScalarPerVector from the
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
