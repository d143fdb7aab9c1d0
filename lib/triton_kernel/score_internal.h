/* The scorer of layout_triton_kernel_suggest (lib/triton_kernel only): the
 * cost of one allocation's modelled ops under a candidate shared attribute.
 *
 * Two paths, one result (tests/test_suggest_fast.c compares them on every
 * candidate of every corpus kernel):
 *
 *   exhaustive  every op re-lowered from the text by
 *               layout_triton_kernel_op_cost (the register layout re-read,
 *               the global neighbour re-found, a checker made per op);
 *   fast        the register side of each op prepared once per allocation
 *               (layout_tk_op_prepare), the candidate read once for all of
 *               its ops (layout_tk_shared_prepare), one checker per
 *               kernel; ops past LAYOUT_TK_SCORE_PREP or not on the
 *               generic path go through the exhaustive path.
 *
 * With cut = 1 (what layout_triton_kernel_suggest's search of the best
 * one sets), the fast path stops costing a candidate once its partial sum
 * exceeds the least cost scored so far for the allocation (ops lowered
 * with layout_tk_lower_ldst_bounded): its verdict is still exact (every op
 * is lowered up to its accesses, and none left could fail), its cost a
 * lower bound above the best, so it can rank neither first nor tie; the
 * best of a top-1 search is unchanged.
 *
 * Both reject (return 1) a candidate that Triton's verifiers refuse
 * (rules_internal.h), under which an op is not modelled or under which a
 * reader lowers to ds_read_b64_tr; else they return 0 with the summed
 * total cycles in *cost and the summed extra cycles in extra. */
#ifndef LAYOUT_TK_SCORE_INTERNAL_H
#define LAYOUT_TK_SCORE_INTERNAL_H

#include "tk_internal.h"

/* Ops of one allocation whose register side is kept (about 3 KiB each, on
 * the caller's stack); the attention kernels' allocations have 2 to 4. */
#define LAYOUT_TK_SCORE_PREP 8

typedef struct layout_tk_scorer {
    const layout_triton_kernel *k;
    const layout_triton_kernel_alloc *a;
    int exhaustive;                  /* 1: the exhaustive path */
    int have_ck;                     /* ck is made (else finish makes one per op) */
    layout_checker ck;
    int n_prep;                      /* a->ops[0 .. n_prep - 1] prepared */
    layout_tk_op_prep prep[LAYOUT_TK_SCORE_PREP];
    layout_triton_kernel_op head[LAYOUT_TK_SCORE_PREP]; /* prepare's report heads */
    layout_tk_shared sh;             /* the candidate's shared layout, read for sh_mem */
    const layout_ttgir_type *sh_mem;
    layout_triton_kernel_op rep;     /* scratch */
    layout_triton_attr attr;         /* scratch: the candidate parsed */
    int64_t extra;                   /* of the last candidate scored */
    int cut;                         /* 1 (fast path): an op stops costing once the sum passes best */
    int64_t best;                    /* the least cost scored since layout_tk_scorer_alloc */
} layout_tk_scorer;

/* Does report r use a transposing read (a ds_read_b64_tr_b* mnemonic)? */
int layout_tk_op_uses_tr(const layout_triton_kernel_op *r);
/* Start a scorer on kernel k (the checker is made here). */
void layout_tk_scorer_init(layout_tk_scorer *s, const layout_triton_kernel *k, int exhaustive);
/* Prepare the ops of allocation a (fast path). */
void layout_tk_scorer_alloc(layout_tk_scorer *s, const layout_triton_kernel_alloc *a);
/* layout_triton_score_fn: ctx is a layout_tk_scorer. */
int layout_tk_score(void *ctx, const char *attr, size_t len, double *cost);

#endif
