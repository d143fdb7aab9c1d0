/* Plan evaluation: single coordinates, boxes (scalar; AVX2 in plan_avx2.c),
 * coordinate lists, implementation choice and printing. */
#include "plan_internal.h"
#include "../core/strbuf.h"

#include <inttypes.h>
#include <string.h>

/* ------------------------------------------------------------ implementation */

static int cpu_has_avx2(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

int layout_plan_impl_available(layout_plan_impl impl)
{
    switch (impl) {
    case LAYOUT_PLAN_AUTO:
    case LAYOUT_PLAN_SCALAR: return 1;
    case LAYOUT_PLAN_AVX2: return layout_plan_avx2_compiled() && cpu_has_avx2();
    default: return 0;
    }
}

const char *layout_plan_impl_name(layout_plan_impl impl)
{
    switch (impl) {
    case LAYOUT_PLAN_AUTO: return "auto";
    case LAYOUT_PLAN_SCALAR: return "scalar";
    case LAYOUT_PLAN_AVX2: return "avx2";
    default: return "?";
    }
}

layout_status layout_plan_set_impl(layout_plan *plan, layout_plan_impl impl, layout_error *err)
{
    static const char fn[] = "layout_plan_set_impl";
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "%s: plan is NULL", fn);
    if (impl != LAYOUT_PLAN_AUTO && impl != LAYOUT_PLAN_SCALAR && impl != LAYOUT_PLAN_AVX2)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: impl = %d is not a layout_plan_impl", fn, (int)impl);
    int avx2 = layout_plan_impl_available(LAYOUT_PLAN_AVX2);
    if (impl == LAYOUT_PLAN_AVX2 && !avx2)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: impl = avx2 is not available (build without AVX2 or CPU lacks it)", fn);
    if (impl == LAYOUT_PLAN_AVX2 && !plan->fits_int32)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: impl = avx2 needs every value to fit int32, this plan's values do not", fn);
    plan->impl = impl == LAYOUT_PLAN_AUTO ? (avx2 && plan->fits_int32 ? LAYOUT_PLAN_AVX2 : LAYOUT_PLAN_SCALAR) : impl;
    return layout_ok(err);
}

/* ------------------------------------------------------------ scalar core */

int64_t layout_plan_offset_unchecked(const layout_plan *p, const int64_t *coord)
{
    uint64_t v[LAYOUT_PLAN_MAX_VARS];
    for (int d = 0; d < p->n_top; d++) v[d] = (uint64_t)coord[d];
    for (int o = 0; o < p->n_ops; o++) {
        const layout_plan_op *op = &p->ops[o];
        uint64_t x = eval_expr(p, op->in0, v);
        v[LAYOUT_MAX_DIMS + o] = op->kind == LAYOUT_PLAN_OP_DIV ? apply_div(op, x) : x ^ eval_expr(p, op->in1, v);
    }
    return layout_u2i(eval_expr(p, p->offset_expr, v));
}

int layout_plan_valid_unchecked(const layout_plan *p, const int64_t *coord)
{
    uint64_t v[LAYOUT_PLAN_MAX_VARS];
    if (!p->n_checks) return 1;
    for (int d = 0; d < p->n_top; d++) v[d] = (uint64_t)coord[d];
    for (int o = 0; o < p->n_ops; o++) {
        const layout_plan_op *op = &p->ops[o];
        uint64_t x = eval_expr(p, op->in0, v);
        v[LAYOUT_MAX_DIMS + o] = op->kind == LAYOUT_PLAN_OP_DIV ? apply_div(op, x) : x ^ eval_expr(p, op->in1, v);
    }
    for (int c = 0; c < p->n_checks; c++)
        if (!in_range(eval_expr(p, p->checks[c].expr, v), &p->checks[c])) return 0;
    return 1;
}

int layout_plan_row_exprs(const layout_plan *p, int *list)
{
    int n = 0;
    for (int o = 0; o < p->n_ops; o++) {
        if (!p->ops[o].per_element) continue;
        list[n++] = p->ops[o].in0;
        if (p->ops[o].kind == LAYOUT_PLAN_OP_XOR) list[n++] = p->ops[o].in1;
    }
    list[n++] = p->offset_expr;
    for (int c = 0; c < p->n_checks; c++) list[n++] = p->checks[c].expr;
    return n;
}

static void box_scalar(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                       uint8_t *valid)
{
    uint64_t v[LAYOUT_PLAN_MAX_VARS], rowbase[LAYOUT_PLAN_MAX_EXPRS];
    int64_t idx[LAYOUT_MAX_DIMS] = {0};
    int inner = p->n_top - 1, list[LAYOUT_PLAN_MAX_EXPRS];
    int n_list = layout_plan_row_exprs(p, list);
    size_t o = 0;
    for (;;) {
        for (int d = 0; d < inner; d++) v[d] = (uint64_t)(origin[d] + idx[d]);
        int row_ok = layout_plan_row_setup(p, v, rowbase, list, n_list);
        for (int64_t k = 0; k < extent[inner]; k++, o++) {
            v[inner] = (uint64_t)(origin[inner] + k);
            for (int i = 0; i < p->n_ops; i++) {
                const layout_plan_op *op = &p->ops[i];
                if (!op->per_element) continue;
                uint64_t x = eval_elem(p, op->in0, rowbase, v);
                v[LAYOUT_MAX_DIMS + i] =
                    op->kind == LAYOUT_PLAN_OP_DIV ? apply_div(op, x) : x ^ eval_elem(p, op->in1, rowbase, v);
            }
            offsets[o] = layout_u2i(eval_elem(p, p->offset_expr, rowbase, v));
            if (valid) {
                int ok = row_ok;
                for (int c = 0; c < p->n_checks && ok; c++)
                    if (p->checks[c].per_element) ok = in_range(eval_elem(p, p->checks[c].expr, rowbase, v), &p->checks[c]);
                valid[o] = (uint8_t)ok;
            }
        }
        int d = inner - 1;
        while (d >= 0 && ++idx[d] == extent[d]) idx[d--] = 0;
        if (d < 0) break;
    }
}

/* ------------------------------------------------------------ checked API */

static layout_status check_coord(const char *fn, const layout_plan *p, const int64_t *coord, layout_error *err)
{
    for (int d = 0; d < p->n_top; d++)
        if (coord[d] < 0 || coord[d] >= p->top_lengths[d])
            return layout_fail(err, LAYOUT_ERR_RANGE, "%s: coord[%d] = %" PRId64 " is outside 0..%" PRId64, fn, d,
                               coord[d], p->top_lengths[d] - 1);
    return LAYOUT_OK;
}

layout_status layout_plan_offset(const layout_plan *plan, const int64_t *coord, int64_t *offset, layout_error *err)
{
    static const char fn[] = "layout_plan_offset";
    layout_status st;
    if (!plan || !coord || !offset)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !plan ? "plan" : !coord ? "coord" : "offset");
    if ((st = check_coord(fn, plan, coord, err))) return st;
    *offset = layout_plan_offset_unchecked(plan, coord);
    return layout_ok(err);
}

layout_status layout_plan_box(const layout_plan *plan, const int64_t *origin, const int64_t *extent,
                              int64_t *offsets, uint8_t *valid, size_t cap, layout_error *err)
{
    static const char fn[] = "layout_plan_box";
    if (!plan || !origin || !extent)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn,
                           !plan ? "plan" : !origin ? "origin" : "extent");
    uint64_t count = 1;
    for (int d = 0; d < plan->n_top; d++) {
        int64_t len = plan->top_lengths[d];
        if (origin[d] < 0 || origin[d] >= len)
            return layout_fail(err, LAYOUT_ERR_RANGE, "%s: origin[%d] = %" PRId64 " is outside 0..%" PRId64, fn, d,
                               origin[d], len - 1);
        if (extent[d] < 0 || extent[d] > len - origin[d])
            return layout_fail(err, LAYOUT_ERR_RANGE,
                               "%s: extent[%d] = %" PRId64 " must be in 0..%" PRId64 " (length %" PRId64
                               " - origin %" PRId64 ")",
                               fn, d, extent[d], len - origin[d], len, origin[d]);
        count *= (uint64_t)extent[d]; /* <= top size, which fits int64 */
    }
    if (count == 0) return layout_ok(err);
    if (!offsets) return layout_fail(err, LAYOUT_ERR_NULL, "%s: offsets is NULL", fn);
    if (cap < count)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: cap = %zu but the box has %" PRIu64 " coordinates", fn, cap,
                           count);
    layout_plan_box_unchecked(plan, origin, extent, offsets, valid);
    return layout_ok(err);
}

void layout_plan_box_unchecked(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                               uint8_t *valid)
{
    if (p->impl == LAYOUT_PLAN_AVX2 && p->fits_int32 && layout_plan_avx2_compiled())
        layout_plan_box_avx2(p, origin, extent, offsets, valid);
    else
        box_scalar(p, origin, extent, offsets, valid);
}

layout_status layout_plan_tile(const layout_plan *plan, int64_t *offsets, uint8_t *valid, size_t cap,
                               layout_error *err)
{
    static const int64_t zero[LAYOUT_MAX_DIMS] = {0};
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "layout_plan_tile: plan is NULL");
    layout_status st = layout_plan_box(plan, zero, plan->top_lengths, offsets, valid, cap, err);
    if (st && err) {
        /* keep the public name in front */
        char msg[LAYOUT_ERROR_MESSAGE_CAP];
        memcpy(msg, err->message, sizeof msg);
        layout_fail(err, st, "layout_plan_tile: %s", msg);
    }
    return st;
}

layout_status layout_plan_offsets(const layout_plan *plan, size_t n_coords, const int64_t *coords, int64_t *offsets,
                                  uint8_t *valid, layout_error *err)
{
    static const char fn[] = "layout_plan_offsets";
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "%s: plan is NULL", fn);
    if (n_coords == 0) return layout_ok(err);
    if (!coords || !offsets)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !coords ? "coords" : "offsets");
    size_t n = (size_t)plan->n_top;
    for (size_t k = 0; k < n_coords; k++)
        for (size_t d = 0; d < n; d++) {
            int64_t c = coords[k * n + d];
            if (c < 0 || c >= plan->top_lengths[d])
                return layout_fail(err, LAYOUT_ERR_RANGE, "%s: coords[%zu][%zu] = %" PRId64 " is outside 0..%" PRId64,
                                   fn, k, d, c, plan->top_lengths[d] - 1);
        }
    for (size_t k = 0; k < n_coords; k++) {
        offsets[k] = layout_plan_offset_unchecked(plan, &coords[k * n]);
        if (valid) valid[k] = (uint8_t)layout_plan_valid_unchecked(plan, &coords[k * n]);
    }
    return layout_ok(err);
}

/* ------------------------------------------------------------ print */

static void print_var(layout_strbuf *sb, int v)
{
    if (v < LAYOUT_MAX_DIMS)
        layout_sb_printf(sb, "x%d", v);
    else
        layout_sb_printf(sb, "t%d", v - LAYOUT_MAX_DIMS);
}

static void print_expr(const layout_plan *p, int e, layout_strbuf *sb)
{
    const layout_plan_expr *x = &p->exprs[e];
    int any = 0;
    for (int i = 0; i < x->n_terms; i++) {
        int64_t c = p->term_coef[x->first_term + i];
        uint64_t mag = c < 0 ? 0 - (uint64_t)c : (uint64_t)c;
        if (any)
            layout_sb_printf(sb, "%s", c < 0 ? " - " : " + ");
        else if (c < 0)
            layout_sb_printf(sb, "-");
        if (mag != 1) layout_sb_printf(sb, "%" PRIu64 " ", mag);
        print_var(sb, p->term_var[x->first_term + i]);
        any = 1;
    }
    if (!any)
        layout_sb_printf(sb, "%" PRId64, x->constant);
    else if (x->constant)
        layout_sb_printf(sb, "%s%" PRIu64, x->constant < 0 ? " - " : " + ",
                         x->constant < 0 ? 0 - (uint64_t)x->constant : (uint64_t)x->constant);
}

int layout_plan_print(const layout_plan *plan, char *buf, size_t cap)
{
    static const char *const modes[] = {"shift", "magic", "plain"};
    layout_strbuf sb;
    layout_sb_init(&sb, buf, cap);
    if (!plan) return -1;
    layout_sb_printf(&sb, "plan: %d top dims, %d ops, %d checks, %d transforms folded, %s%s\n", plan->n_top,
                     plan->n_ops, plan->n_checks, plan->n_folded, layout_plan_impl_name(plan->impl),
                     plan->fits_int32 ? " (int32 lanes)" : "");
    for (int d = 0; d < plan->n_top; d++)
        layout_sb_printf(&sb, "  x%d in 0..%" PRId64 "\n", d, plan->top_lengths[d] - 1);
    for (int o = 0; o < plan->n_ops; o++) {
        const layout_plan_op *op = &plan->ops[o];
        layout_sb_printf(&sb, "  t%d = %s(", o, op->kind == LAYOUT_PLAN_OP_DIV ? "DIV" : "XOR");
        print_expr(plan, op->in0, &sb);
        if (op->kind == LAYOUT_PLAN_OP_DIV)
            layout_sb_printf(&sb, ", %" PRId64 ") [%s]", op->divisor, modes[op->mode]);
        else {
            layout_sb_printf(&sb, ", ");
            print_expr(plan, op->in1, &sb);
            layout_sb_printf(&sb, ")");
        }
        layout_sb_printf(&sb, "%s in %" PRId64 "..%" PRId64 "\n", op->per_element ? " per element" : " per row",
                         op->lo, op->hi);
    }
    layout_sb_printf(&sb, "  offset = ");
    print_expr(plan, plan->offset_expr, &sb);
    layout_sb_printf(&sb, "\n");
    for (int c = 0; c < plan->n_checks; c++) {
        const layout_plan_check *ch = &plan->checks[c];
        layout_sb_printf(&sb, "  valid if ");
        if (ch->lo != INT64_MIN) layout_sb_printf(&sb, "%" PRId64 " <= ", ch->lo);
        print_expr(plan, ch->expr, &sb);
        if (ch->hi != INT64_MAX) layout_sb_printf(&sb, " <= %" PRId64, ch->hi);
        layout_sb_printf(&sb, "\n");
    }
    return layout_sb_result(&sb);
}
