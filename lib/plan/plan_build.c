/* The plan compiler: symbolic evaluation of an adaptor chain into affine
 * expressions plus DIV / XOR ops, with interval analysis choosing how each
 * op runs and whether 32-bit lanes are exact. */
#include "plan_internal.h"
#include "../core/transform_table.h"

#include <string.h>

#define NV LAYOUT_PLAN_MAX_VARS

/* A hidden value during compilation: affine form over the plan variables
 * (coefficients modulo 2^64; exact = 0 once one wrapped) and a proven
 * interval of its true value. */
typedef struct sym {
    int64_t coef[NV];
    int64_t c;
    int exact;
    layout_interval iv;
} sym;

typedef struct builder {
    layout_plan p;                 /* plan under construction (ops and exprs may include dead ones) */
    layout_interval var_iv[NV];    /* proven interval of each variable */
    int var_inner[NV];             /* 1 when the variable depends on the last top coordinate */
    int inner;                     /* variable index of the last top coordinate */
    int fits;                      /* every value seen so far fits int32 */
    const char *fn;
    layout_error *err;
    layout_status st;              /* first error */
} builder;

static const layout_interval full_iv = {INT64_MIN, INT64_MAX};

static int iv_fits32(layout_interval iv)
{
    return iv.lo >= INT32_MIN && iv.hi <= INT32_MAX;
}

static layout_interval iv_meet(layout_interval a, layout_interval b)
{
    layout_interval r = {a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
    /* Both are sound bounds of the same value, so they intersect; keep a
     * sound interval even if a rule were loose in a surprising way. */
    if (r.lo > r.hi) return a;
    return r;
}

/* C remainder x % m of every x in iv, m > 0. */
static layout_interval iv_rem(layout_interval x, int64_t m)
{
    layout_interval r;
    if (x.lo >= 0) {
        r.lo = x.hi < m ? x.lo : 0;
        r.hi = x.hi < m ? x.hi : m - 1;
    } else if (x.hi <= 0) {
        r.lo = x.lo > -m ? x.lo : -(m - 1);
        r.hi = x.lo > -m ? x.hi : 0;
    } else {
        r.lo = x.lo > -(m - 1) ? x.lo : -(m - 1);
        r.hi = x.hi < m - 1 ? x.hi : m - 1;
    }
    return r;
}

static int bit_len(int64_t v)
{
    uint64_t u = v < 0 ? ~(uint64_t)v : (uint64_t)v;
    int k = 0;
    while (u) {
        k++;
        u >>= 1;
    }
    return k;
}

/* Bound of a ^ b for a in x, b in y (two's complement). */
static layout_interval iv_xor(layout_interval x, layout_interval y)
{
    int k = bit_len(x.lo), t;
    if ((t = bit_len(x.hi)) > k) k = t;
    if ((t = bit_len(y.lo)) > k) k = t;
    if ((t = bit_len(y.hi)) > k) k = t;
    if (k >= 63) return full_iv;
    layout_interval r;
    r.hi = ((int64_t)1 << k) - 1;
    r.lo = x.lo >= 0 && y.lo >= 0 ? 0 : -((int64_t)1 << k);
    return r;
}

static int nvars(const builder *b)
{
    return LAYOUT_MAX_DIMS + b->p.n_ops;
}

static void sym_const(sym *s, int64_t c)
{
    memset(s->coef, 0, sizeof s->coef);
    s->c = c;
    s->exact = 1;
    s->iv.lo = s->iv.hi = c;
}

static void sym_var(const builder *b, sym *s, int v)
{
    sym_const(s, 0);
    s->coef[v] = 1;
    s->iv = b->var_iv[v];
}

/* dst += a * src; dst's interval becomes unknown (callers tighten it). */
static void sym_axpy(const builder *b, sym *dst, int64_t a, const sym *src)
{
    int64_t t;
    int n = nvars(b);
    dst->iv = full_iv;
    if (!src->exact) dst->exact = 0;
    for (int v = 0; v < n; v++) {
        if (!src->coef[v]) continue;
        if (__builtin_mul_overflow(a, src->coef[v], &t)) dst->exact = 0;
        if (__builtin_add_overflow(dst->coef[v], t, &dst->coef[v])) dst->exact = 0;
    }
    if (__builtin_mul_overflow(a, src->c, &t)) dst->exact = 0;
    if (__builtin_add_overflow(dst->c, t, &dst->c)) dst->exact = 0;
}

/* Interval of the affine form from the variables' intervals. */
static layout_interval sym_naive_iv(const builder *b, const sym *s)
{
    if (!s->exact) return full_iv;
    layout_interval r = {s->c, s->c};
    int n = nvars(b);
    for (int v = 0; v < n; v++) {
        int64_t c = s->coef[v], x, y;
        if (!c) continue;
        layout_interval vi = b->var_iv[v];
        if (__builtin_mul_overflow(c, vi.lo, &x) || __builtin_mul_overflow(c, vi.hi, &y)) return full_iv;
        if (x > y) {
            int64_t tmp = x;
            x = y;
            y = tmp;
        }
        if (__builtin_add_overflow(r.lo, x, &r.lo) || __builtin_add_overflow(r.hi, y, &r.hi)) return full_iv;
    }
    return r;
}

static void sym_tighten(const builder *b, sym *s, layout_interval known)
{
    s->iv = iv_meet(iv_meet(s->iv, known), sym_naive_iv(b, s));
}

static int sym_inner(const builder *b, const sym *s)
{
    int n = nvars(b);
    for (int v = 0; v < n; v++)
        if (s->coef[v] && b->var_inner[v]) return 1;
    return 0;
}

/* Store s as a plan expression (row terms first); -1 on capacity error. */
static int emit_expr(builder *b, const sym *s)
{
    layout_plan *p = &b->p;
    int n = nvars(b), count = 0;
    if (b->st) return -1;
    for (int v = 0; v < n; v++) count += s->coef[v] != 0;
    if (p->n_exprs >= LAYOUT_PLAN_MAX_EXPRS || p->n_terms + count > LAYOUT_PLAN_MAX_TERMS) {
        b->st = layout_fail(b->err, LAYOUT_ERR_CAPACITY,
                            "%s: the plan needs more than %d expressions or %d terms (LAYOUT_PLAN_MAX_EXPRS / "
                            "LAYOUT_PLAN_MAX_TERMS)",
                            b->fn, LAYOUT_PLAN_MAX_EXPRS, LAYOUT_PLAN_MAX_TERMS);
        return -1;
    }
    layout_plan_expr *e = &p->exprs[p->n_exprs];
    e->constant = s->c;
    e->first_term = p->n_terms;
    e->n_terms = count;
    e->n_row_terms = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int v = 0; v < n; v++) {
            if (!s->coef[v] || b->var_inner[v] != pass) continue;
            p->term_var[p->n_terms] = (int16_t)v;
            p->term_coef[p->n_terms] = s->coef[v];
            p->n_terms++;
            if (pass == 0) e->n_row_terms++;
        }
    if (!iv_fits32(s->iv)) b->fits = 0;
    return p->n_exprs++;
}

/* A new op variable; returns its index or -1. */
static int new_op(builder *b, layout_plan_op *op, layout_interval iv, int inner)
{
    layout_plan *p = &b->p;
    if (b->st) return -1;
    if (p->n_ops >= LAYOUT_PLAN_MAX_OPS) {
        b->st = layout_fail(b->err, LAYOUT_ERR_CAPACITY, "%s: the plan needs more than %d ops (LAYOUT_PLAN_MAX_OPS)",
                            b->fn, LAYOUT_PLAN_MAX_OPS);
        return -1;
    }
    op->lo = iv.lo;
    op->hi = iv.hi;
    op->per_element = inner;
    int v = LAYOUT_MAX_DIMS + p->n_ops;
    p->ops[p->n_ops++] = *op;
    b->var_iv[v] = iv;
    b->var_inner[v] = inner;
    if (!iv_fits32(iv)) b->fits = 0;
    return v;
}

/* q = x / d (C truncation), d > 0. */
static void sym_div(builder *b, const sym *x, int64_t d, sym *q)
{
    if (d == 1) {
        *q = *x;
        return;
    }
    layout_interval iv = x->iv;
    if (iv.lo / d == iv.hi / d) { /* one block: the quotient is a constant */
        sym_const(q, iv.lo / d);
        return;
    }
    layout_plan_op op;
    memset(&op, 0, sizeof op);
    op.kind = LAYOUT_PLAN_OP_DIV;
    op.divisor = d;
    op.mode = LAYOUT_PLAN_DIV_PLAIN;
    if (iv.lo >= 0 && (d & (d - 1)) == 0) {
        op.mode = LAYOUT_PLAN_DIV_SHIFT;
        while (((int64_t)1 << op.shift) < d) op.shift++;
    }
#ifdef __SIZEOF_INT128__
    else if (iv.lo >= 0 && iv.hi <= (int64_t)UINT32_MAX && d <= (int64_t)UINT32_MAX) {
        op.mode = LAYOUT_PLAN_DIV_MAGIC;
        op.magic = UINT64_MAX / (uint64_t)d + 1;
    }
#endif
    int inner = sym_inner(b, x);
    op.in0 = emit_expr(b, x);
    layout_interval qi = {iv.lo / d, iv.hi / d};
    int v = new_op(b, &op, qi, inner);
    if (v < 0) {
        sym_const(q, 0);
        return;
    }
    sym_var(b, q, v);
}

/* r = x % m = x - m * (x / m). */
static void sym_mod(builder *b, const sym *x, int64_t m, sym *r)
{
    sym q;
    sym_div(b, x, m, &q);
    *r = *x;
    sym_axpy(b, r, -m, &q);
    r->iv = full_iv;
    sym_tighten(b, r, iv_rem(x->iv, m));
}

static void add_check(builder *b, const sym *s, int64_t lo, int64_t hi)
{
    layout_plan *p = &b->p;
    if (s->iv.lo >= lo && s->iv.hi <= hi) return; /* always true */
    if (b->st) return;
    if (p->n_checks >= LAYOUT_PLAN_MAX_CHECKS) {
        b->st = layout_fail(b->err, LAYOUT_ERR_CAPACITY, "%s: more than %d validity checks", b->fn,
                            LAYOUT_PLAN_MAX_CHECKS);
        return;
    }
    layout_plan_check *c = &p->checks[p->n_checks];
    c->per_element = sym_inner(b, s);
    c->expr = emit_expr(b, s);
    c->lo = lo;
    c->hi = hi;
    if (c->expr >= 0) p->n_checks++;
}

/* One transform: lower syms from upper syms. */
static void lower_sym(builder *b, const layout_transform *t, const sym *up, sym *low)
{
    const int64_t *pr = t->params;
    switch (t->kind) {
    case LAYOUT_PAD:
        add_check(b, &up[0], pr[0], t->lower_lengths[0] + pr[0] - 1);
        sym_const(&low[0], -pr[0]);
        sym_axpy(b, &low[0], 1, &up[0]);
        break;
    case LAYOUT_LEFT_PAD:
        add_check(b, &up[0], pr[0], INT64_MAX);
        sym_const(&low[0], -pr[0]);
        sym_axpy(b, &low[0], 1, &up[0]);
        break;
    case LAYOUT_RIGHT_PAD:
        add_check(b, &up[0], INT64_MIN, t->lower_lengths[0] - 1);
        low[0] = up[0];
        break;
    case LAYOUT_PASS_THROUGH:
        low[0] = up[0];
        break;
    case LAYOUT_EMBED:
    case LAYOUT_UNMERGE:
        sym_const(&low[0], 0);
        for (int j = 0; j < t->n_upper; j++) sym_axpy(b, &low[0], pr[j], &up[j]);
        break;
    case LAYOUT_MERGE:
    case LAYOUT_MERGE_DIVMOD: {
        sym rest = up[0];
        int last = t->n_lower - 1;
        for (int i = 0; i < last; i++) {
            sym_div(b, &rest, pr[i], &low[i]);
            layout_interval before = rest.iv;
            sym_axpy(b, &rest, -pr[i], &low[i]);
            rest.iv = full_iv;
            sym_tighten(b, &rest, iv_rem(before, pr[i]));
        }
        low[last] = rest;
        break;
    }
    case LAYOUT_FREEZE:
        sym_const(&low[0], pr[0]);
        break;
    case LAYOUT_SLICE:
    case LAYOUT_OFFSET:
        sym_const(&low[0], pr[0]);
        sym_axpy(b, &low[0], 1, &up[0]);
        break;
    case LAYOUT_MODULO:
        sym_mod(b, &up[0], pr[0], &low[0]);
        break;
    case LAYOUT_XOR: {
        sym key;
        low[0] = up[0];
        sym_mod(b, &up[0], t->upper_lengths[1], &key);
        if (key.iv.lo == 0 && key.iv.hi == 0) {
            low[1] = up[1];
            break;
        }
        layout_plan_op op;
        memset(&op, 0, sizeof op);
        op.kind = LAYOUT_PLAN_OP_XOR;
        int inner = sym_inner(b, &up[1]) || sym_inner(b, &key);
        op.in0 = emit_expr(b, &up[1]);
        op.in1 = emit_expr(b, &key);
        int v = new_op(b, &op, iv_xor(up[1].iv, key.iv), inner);
        if (v < 0)
            sym_const(&low[1], 0);
        else
            sym_var(b, &low[1], v);
        break;
    }
    default: /* insert, replicate: nothing below */
        break;
    }
}

/* Run adaptor a on the top syms; write its bottom syms.  hidden is scratch. */
static void run_adaptor(builder *b, const layout_adaptor *a, const sym *top, sym *bottom, sym *hidden)
{
    for (int h = 0; h < LAYOUT_MAX_HIDDEN; h++) sym_const(&hidden[h], 0);
    for (int d = 0; d < a->n_top; d++) hidden[a->top_hidden[d]] = top[d];
    for (int i = a->n_transforms - 1; i >= 0 && !b->st; i--) {
        const layout_transform *t = &a->transforms[i];
        const layout_seq *us = &a->upper_hidden[i], *ls = &a->lower_hidden[i];
        sym up[LAYOUT_MAX_TRANSFORM_DIMS], low[LAYOUT_MAX_TRANSFORM_DIMS];
        layout_interval up_iv[LAYOUT_MAX_TRANSFORM_DIMS], low_iv[LAYOUT_MAX_TRANSFORM_DIMS];
        for (int j = 0; j < us->n; j++) {
            up[j] = hidden[us->ids[j]];
            up_iv[j] = up[j].iv;
        }
        if (layout_kind_table[t->kind].range(t, up_iv, low_iv))
            for (int j = 0; j < ls->n; j++) low_iv[j] = full_iv;
        int ops_before = b->p.n_ops;
        lower_sym(b, t, up, low);
        if (b->p.n_ops == ops_before) b->p.n_folded++;
        for (int j = 0; j < ls->n; j++) {
            sym_tighten(b, &low[j], low_iv[j]);
            hidden[ls->ids[j]] = low[j];
        }
    }
    for (int k = 0; k < a->n_bottom; k++) bottom[k] = hidden[a->bottom_hidden[k]];
}

/* Copy the live part of b->p into out, renumbering op variables. */
static void compact(const builder *b, layout_plan *out)
{
    const layout_plan *p = &b->p;
    int live[NV] = {0}, map[NV];
    for (int i = 0; i < p->exprs[p->offset_expr].n_terms; i++)
        live[p->term_var[p->exprs[p->offset_expr].first_term + i]] = 1;
    for (int c = 0; c < p->n_checks; c++) {
        const layout_plan_expr *e = &p->exprs[p->checks[c].expr];
        for (int i = 0; i < e->n_terms; i++) live[p->term_var[e->first_term + i]] = 1;
    }
    for (int o = p->n_ops - 1; o >= 0; o--) {
        if (!live[LAYOUT_MAX_DIMS + o]) continue;
        for (int k = 0; k < (p->ops[o].kind == LAYOUT_PLAN_OP_XOR ? 2 : 1); k++) {
            const layout_plan_expr *e = &p->exprs[k ? p->ops[o].in1 : p->ops[o].in0];
            for (int i = 0; i < e->n_terms; i++) live[p->term_var[e->first_term + i]] = 1;
        }
    }
    memset(out, 0, sizeof *out);
    out->n_top = p->n_top;
    memcpy(out->top_lengths, p->top_lengths, sizeof out->top_lengths);
    for (int v = 0; v < LAYOUT_MAX_DIMS; v++) map[v] = v;
    /* re-emit one expression with renumbered variables */
#define COPY_EXPR(dst, src_index)                                                         \
    do {                                                                                  \
        const layout_plan_expr *se_ = &p->exprs[(src_index)];                             \
        layout_plan_expr *de_ = &out->exprs[out->n_exprs];                                \
        *de_ = *se_;                                                                      \
        de_->first_term = out->n_terms;                                                   \
        for (int i_ = 0; i_ < se_->n_terms; i_++) {                                       \
            out->term_var[out->n_terms] = (int16_t)map[p->term_var[se_->first_term + i_]]; \
            out->term_coef[out->n_terms++] = p->term_coef[se_->first_term + i_];          \
        }                                                                                 \
        (dst) = out->n_exprs++;                                                           \
    } while (0)
    for (int o = 0; o < p->n_ops; o++) {
        if (!live[LAYOUT_MAX_DIMS + o]) continue;
        layout_plan_op op = p->ops[o];
        COPY_EXPR(op.in0, p->ops[o].in0);
        if (op.kind == LAYOUT_PLAN_OP_XOR) COPY_EXPR(op.in1, p->ops[o].in1);
        map[LAYOUT_MAX_DIMS + o] = LAYOUT_MAX_DIMS + out->n_ops;
        out->ops[out->n_ops++] = op;
    }
    COPY_EXPR(out->offset_expr, p->offset_expr);
    for (int c = 0; c < p->n_checks; c++) {
        out->checks[c] = p->checks[c];
        COPY_EXPR(out->checks[c].expr, p->checks[c].expr);
    }
#undef COPY_EXPR
    out->n_checks = p->n_checks;
    out->n_folded = p->n_folded;
    out->fits_int32 = p->fits_int32;
    out->impl = p->impl;
}

layout_status layout_plan_compile(const char *fn, layout_plan *out, int n_top, const int64_t *top_lengths,
                                  const layout_adaptor *first, const int *first_top_var,
                                  const layout_adaptor *second, layout_plan_impl impl, layout_error *err)
{
    if (impl != LAYOUT_PLAN_AUTO && impl != LAYOUT_PLAN_SCALAR && impl != LAYOUT_PLAN_AVX2)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: impl = %d is not a layout_plan_impl", fn, (int)impl);
    if (impl == LAYOUT_PLAN_AVX2 && !layout_plan_impl_available(LAYOUT_PLAN_AVX2))
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: impl = avx2 is not available (build without AVX2 or CPU lacks it)", fn);
    /* The builder lives on the caller's stack (about 70 KiB): no heap, reentrant. */
    builder b;
    sym top[LAYOUT_MAX_DIMS], mid[LAYOUT_MAX_DIMS], bottom[LAYOUT_MAX_DIMS];
    sym hidden[LAYOUT_MAX_HIDDEN];
    memset(&b.p, 0, sizeof b.p);
    memset(b.var_inner, 0, sizeof b.var_inner);
    for (int v = 0; v < NV; v++) b.var_iv[v].lo = b.var_iv[v].hi = 0;
    b.fn = fn;
    b.err = err;
    b.st = LAYOUT_OK;
    b.fits = 1;
    b.inner = n_top - 1;
    b.p.n_top = n_top;
    for (int d = 0; d < n_top; d++) {
        b.p.top_lengths[d] = top_lengths[d];
        b.var_iv[d].hi = top_lengths[d] - 1;
        b.var_inner[d] = d == n_top - 1;
        if (top_lengths[d] - 1 > INT32_MAX) b.fits = 0;
    }
    const sym *feed = top;
    if (first) {
        for (int d = 0; d < first->n_top; d++) sym_var(&b, &top[d], first_top_var[d]);
        run_adaptor(&b, first, top, mid, hidden);
        feed = mid;
    } else {
        for (int d = 0; d < n_top; d++) sym_var(&b, &top[d], d);
    }
    run_adaptor(&b, second, feed, bottom, hidden);
    if (b.st) return b.st;
    b.p.offset_expr = emit_expr(&b, &bottom[0]);
    if (b.st) return b.st;
    b.p.fits_int32 = b.fits;
    layout_plan_impl resolved = impl;
    if (impl == LAYOUT_PLAN_AUTO)
        resolved = b.fits && layout_plan_impl_available(LAYOUT_PLAN_AVX2) ? LAYOUT_PLAN_AVX2 : LAYOUT_PLAN_SCALAR;
    if (resolved == LAYOUT_PLAN_AVX2 && !b.fits)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: impl = avx2 needs every value to fit int32, this descriptor's values do not", fn);
    b.p.impl = resolved;
    compact(&b, out);
    return layout_ok(err);
}

/* The public entry: a descriptor's plan over its top dims. */
layout_status layout_plan_build(layout_plan *out, const layout_descriptor *desc, layout_plan_impl impl,
                                layout_error *err)
{
    static const char fn[] = "layout_plan_build";
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (!desc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: desc is NULL", fn);
    const layout_adaptor *a = &desc->adaptor;
    int64_t lens[LAYOUT_MAX_DIMS];
    for (int d = 0; d < a->n_top; d++) lens[d] = a->hidden_lengths[a->top_hidden[d]];
    return layout_plan_compile(fn, out, a->n_top, lens, NULL, NULL, a, impl, err);
}
