/* Private to lib/plan: the evaluation helpers shared by plan.c,
 * plan_build.c and plan_avx2.c.  What other layers need of the plan
 * compiler (composed plans, unchecked box walks) is plan_compose.h.  Not
 * installed. */
#ifndef LAYOUT_PLAN_INTERNAL_H
#define LAYOUT_PLAN_INTERNAL_H

#include "layout/adaptor.h"
#include "layout/plan.h"
#include "../core/internal.h"
#include "plan_compose.h"

#include <stdint.h>

/* uint64 -> int64 without implementation-defined conversion (compiles to nothing). */
static inline int64_t layout_u2i(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : (int64_t)(u - ((uint64_t)1 << 63)) + INT64_MIN;
}

/* The expressions a box walk needs per row (inputs of per-element ops and
 * checks, the offset); writes their indices to list, returns the count. */
int layout_plan_row_exprs(const layout_plan *p, int *list);

/* ---- scalar evaluation helpers (inline: used in the hot loops of plan.c and plan_avx2.c) */

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 layout_plan_u128;
#endif

static inline uint64_t eval_terms(const layout_plan *p, int from, int to, uint64_t acc, const uint64_t *v)
{
    for (int i = from; i < to; i++) acc += (uint64_t)p->term_coef[i] * v[p->term_var[i]];
    return acc;
}

static inline uint64_t eval_expr(const layout_plan *p, int e, const uint64_t *v)
{
    const layout_plan_expr *x = &p->exprs[e];
    return eval_terms(p, x->first_term, x->first_term + x->n_terms, (uint64_t)x->constant, v);
}

/* The per-element part of expression e on top of its row base. */
static inline uint64_t eval_elem(const layout_plan *p, int e, const uint64_t *rowbase, const uint64_t *v)
{
    const layout_plan_expr *x = &p->exprs[e];
    return eval_terms(p, x->first_term + x->n_row_terms, x->first_term + x->n_terms, rowbase[e], v);
}

static inline uint64_t apply_div(const layout_plan_op *op, uint64_t x)
{
    switch (op->mode) {
    case LAYOUT_PLAN_DIV_SHIFT: return x >> op->shift;
#ifdef __SIZEOF_INT128__
    case LAYOUT_PLAN_DIV_MAGIC: return (uint64_t)(((layout_plan_u128)op->magic * (uint32_t)x) >> 64);
#endif
    default: return (uint64_t)(layout_u2i(x) / op->divisor);
    }
}

static inline int in_range(uint64_t x, const layout_plan_check *c)
{
    int64_t s = layout_u2i(x);
    return s >= c->lo && s <= c->hi;
}

/* Row setup of a box walk: v[0..n_top-1) hold the row's coordinates.  Runs
 * the ops that do not depend on the last coordinate (writing their
 * variables), fills rowbase[e] = constant + row terms of the n expressions
 * in list, and returns 1 when every row-only check passes. */
static inline int layout_plan_row_setup(const layout_plan *p, uint64_t *v, uint64_t *rowbase, const int *list, int n)
{
    for (int o = 0; o < p->n_ops; o++) {
        const layout_plan_op *op = &p->ops[o];
        if (op->per_element) continue;
        uint64_t x = eval_expr(p, op->in0, v);
        v[LAYOUT_MAX_DIMS + o] = op->kind == LAYOUT_PLAN_OP_DIV ? apply_div(op, x) : x ^ eval_expr(p, op->in1, v);
    }
    for (int i = 0; i < n; i++) {
        const layout_plan_expr *x = &p->exprs[list[i]];
        rowbase[list[i]] = eval_terms(p, x->first_term, x->first_term + x->n_row_terms, (uint64_t)x->constant, v);
    }
    for (int c = 0; c < p->n_checks; c++)
        if (!p->checks[c].per_element && !in_range(rowbase[p->checks[c].expr], &p->checks[c])) return 0;
    return 1;
}

/* 1 when the AVX2 kernel was compiled in (plan_avx2.c, not its stub). */
int layout_plan_avx2_compiled(void);

/* AVX2 box walk; only for plans with fits_int32, arguments validated. */
void layout_plan_box_avx2(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                          uint8_t *valid);

#endif /* LAYOUT_PLAN_INTERNAL_H */
