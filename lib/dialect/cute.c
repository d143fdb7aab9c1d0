/* CuTe layouts (cute.h): CuTe's printed form, its C++ spelling, and the
 * conversions to and from descriptors.
 *
 *   layout  := [ 'Sw' '<' int ',' int ',' int '>' 'o' value 'o' ] tree ':' tree
 *   tree    := value | '(' tree { ',' tree } ')'
 *   value   := '_' digits | digits
 */
#include "dialect_internal.h"
#include "layout/cute.h"
#include "layout/family.h"

#include <stdio.h>
#include <string.h>

#define FN_PARSE "layout_cute_from_text"
#define FN_TO_DESC "layout_cute_to_desc"
#define FN_FROM_DESC "layout_cute_from_desc"

#define MAX_TOKENS 96
#define MAX_DEPTH 8

/* The structure of one tree: '(' ',' ')' and 'v' (a value), with offsets. */
typedef struct tree_shape {
    int n;
    char tok[MAX_TOKENS];
    size_t at[MAX_TOKENS];
    int n_values;
    int64_t value[LAYOUT_CUTE_MAX_LEAVES];
    unsigned char is_static[LAYOUT_CUTE_MAX_LEAVES];
    size_t value_at[LAYOUT_CUTE_MAX_LEAVES];
} tree_shape;

static layout_status push_tok(text_cursor *c, tree_shape *t, char tok, size_t at)
{
    if (t->n >= MAX_TOKENS)
        return layout_tx_fail_at(c, at, LAYOUT_ERR_CAPACITY, "the layout has more than %d tokens", MAX_TOKENS);
    t->tok[t->n] = tok;
    t->at[t->n] = at;
    t->n++;
    return LAYOUT_OK;
}

/* value := '_' digits | digits */
static layout_status parse_value(text_cursor *c, int64_t *v, int *is_static, const char *what)
{
    size_t at;
    if (c->status != LAYOUT_OK) return c->status;
    layout_tx_skip(c);
    at = c->pos;
    *is_static = 0;
    if (c->text[at] == '_') {
        if (c->text[at + 1] < '0' || c->text[at + 1] > '9') return layout_tx_expected(c, at + 1, "digits after '_'");
        c->pos++;
        *is_static = 1;
    } else if (c->text[at] < '0' || c->text[at] > '9') {
        return layout_tx_expected(c, at, what);
    }
    return layout_tx_int(c, v, what);
}

static layout_status parse_tree(text_cursor *c, tree_shape *t, int depth, const char *what)
{
    size_t at;
    if (c->status != LAYOUT_OK) return c->status;
    layout_tx_skip(c);
    at = c->pos;
    if (c->text[at] == '(') {
        if (depth >= MAX_DEPTH)
            return layout_tx_fail_at(c, at, LAYOUT_ERR_CAPACITY, "tuples nested deeper than %d", MAX_DEPTH);
        c->pos++;
        if (push_tok(c, t, '(', at)) return c->status;
        for (;;) {
            if (parse_tree(c, t, depth + 1, "a value ('_8' or '8') or '('")) return c->status;
            layout_tx_skip(c);
            at = c->pos;
            if (layout_tx_accept(c, ')')) return push_tok(c, t, ')', at);
            if (layout_tx_expect(c, ',', "',' or ')' in the tuple")) return c->status;
            if (push_tok(c, t, ',', at)) return c->status;
        }
    }
    {
        int64_t v;
        int st;
        if (parse_value(c, &v, &st, what)) return c->status;
        if (t->n_values >= LAYOUT_CUTE_MAX_LEAVES)
            return layout_tx_fail_at(c, at, LAYOUT_ERR_CAPACITY, "more than %d leaves (liblayout's limit)",
                              LAYOUT_CUTE_MAX_LEAVES);
        t->value[t->n_values] = v;
        t->is_static[t->n_values] = (unsigned char)st;
        t->value_at[t->n_values] = at;
        t->n_values++;
        return push_tok(c, t, 'v', at);
    }
}

/* Swizzle prefix: 'Sw' '<' B ',' M ',' S '>' 'o' offset 'o'. */
static layout_status parse_swizzle(text_cursor *c, layout_cute_layout *l)
{
    int64_t b, m, s, o;
    int st;
    size_t at_s, at_o;
    if (layout_dx_expect_ident(c, "Sw", "'Sw'") || layout_tx_expect(c, '<', "'<' after Sw") ||
        layout_tx_int_in(c, 0, 16, LAYOUT_ERR_ARG, "swizzle B", &b) || layout_tx_expect(c, ',', "',' after B") ||
        layout_tx_int_in(c, 0, 32, LAYOUT_ERR_ARG, "swizzle M", &m) || layout_tx_expect(c, ',', "',' after M"))
        return c->status;
    layout_tx_skip(c);
    at_s = c->pos;
    if (layout_tx_int_in(c, -48, 48, LAYOUT_ERR_ARG, "swizzle S", &s) || layout_tx_expect(c, '>', "'>' closing Sw<B,M,S>"))
        return c->status;
    if ((s < 0 ? -s : s) < b)
        return layout_tx_fail_at(c, at_s, LAYOUT_ERR_ARG, "swizzle S = %lld: |S| must be >= B = %lld (CuTe's rule)",
                          (long long)s, (long long)b);
    if (m + (s < 0 ? -s : s) + b > LAYOUT_CUTE_MAX_SWIZZLE_BIT)
        return layout_tx_fail_at(c, at_s, LAYOUT_ERR_ARG, "swizzle Sw<%lld,%lld,%lld> reaches bit %lld (at most %d)",
                          (long long)b, (long long)m, (long long)s, (long long)(m + (s < 0 ? -s : s) + b),
                          LAYOUT_CUTE_MAX_SWIZZLE_BIT);
    if (layout_dx_expect_ident(c, "o", "'o' (composition) after the swizzle")) return c->status;
    layout_tx_skip(c);
    at_o = c->pos;
    if (parse_value(c, &o, &st, "the offset ('_0' or a number)")) return c->status;
    if (o < 0) return layout_tx_fail_at(c, at_o, LAYOUT_ERR_ARG, "offset %lld must be >= 0", (long long)o);
    if (layout_dx_expect_ident(c, "o", "'o' (composition) after the offset")) return c->status;
    l->has_swizzle = 1;
    l->sw_bits = (int)b;
    l->sw_base = (int)m;
    l->sw_shift = (int)s;
    l->sw_offset = o;
    l->sw_offset_static = st;
    return LAYOUT_OK;
}

layout_status layout_cute_from_text(const char *text, layout_cute_layout *out, size_t *where, layout_error *err)
{
    text_cursor c;
    layout_cute_layout l;
    tree_shape sh, sd;
    int i, depth = 0, mode = 0;
    if (!text) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": text is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": out is NULL");
    memset(&l, 0, sizeof l);
    memset(&sh, 0, sizeof sh);
    memset(&sd, 0, sizeof sd);
    layout_tx_init(&c, text, FN_PARSE, err, where);
    if (layout_tx_peek(&c) == 'S' && parse_swizzle(&c, &l)) return c.status;
    if (parse_tree(&c, &sh, 0, "a shape ('(' or a value such as '_8')") ||
        layout_tx_expect(&c, ':', "':' between shape and stride") ||
        parse_tree(&c, &sd, 0, "a stride ('(' or a value such as '_1')") || layout_tx_expect_end(&c))
        return c.status;
    /* Congruence: the same token sequence. */
    for (i = 0; i < sh.n || i < sd.n; i++) {
        if (i >= sd.n || i >= sh.n || sh.tok[i] != sd.tok[i]) {
            size_t at = i < sd.n ? sd.at[i] : strlen(text);
            return layout_tx_fail_at(&c, at, LAYOUT_ERR_MISMATCH,
                              "the stride is not congruent with the shape (shape and stride must nest alike)");
        }
    }
    /* Modes: the top-level items. */
    l.top_is_tuple = sh.tok[0] == '(';
    l.n_leaves = sh.n_values;
    {
        int leaf = 0;
        if (!l.top_is_tuple) {
            l.n_modes = 1;
            l.mode_count[0] = 1;
        } else {
            for (i = 0; i < sh.n; i++) {
                char t = sh.tok[i];
                if (t == '(') {
                    depth++;
                    if (depth == 2) l.mode_is_tuple[mode] = 1;
                } else if (t == ')') {
                    depth--;
                } else if (t == ',' && depth == 1) {
                    mode++;
                    if (mode >= LAYOUT_MAX_DIMS)
                        return layout_tx_fail_at(&c, sh.at[i], LAYOUT_ERR_CAPACITY, "more than %d top-level modes",
                                          LAYOUT_MAX_DIMS);
                    l.mode_first[mode] = leaf;
                } else if (t == 'v') {
                    l.mode_count[mode]++;
                    leaf++;
                }
            }
            l.n_modes = mode + 1;
        }
    }
    for (i = 0; i < l.n_leaves; i++) {
        if (sh.value[i] < 1)
            return layout_tx_fail_at(&c, sh.value_at[i], LAYOUT_ERR_ARG, "shape %lld must be >= 1", (long long)sh.value[i]);
        if (sd.value[i] < 0)
            return layout_tx_fail_at(&c, sd.value_at[i], LAYOUT_ERR_ARG,
                              "stride %lld: liblayout needs strides >= 0", (long long)sd.value[i]);
        l.shape[i] = sh.value[i];
        l.stride[i] = sd.value[i];
        l.shape_static[i] = sh.is_static[i];
        l.stride_static[i] = sd.is_static[i];
    }
    for (i = 0; i < l.n_modes; i++)
        if (l.mode_count[i] == 0)
            return layout_tx_fail_at(&c, sh.at[0], LAYOUT_ERR_ARG, "mode %d is an empty tuple", i);
    /* Every offset must be one a descriptor can hold (LAYOUT_MAX_OFFSET, as
     * the ck reader's element space bound; the swizzle only permutes bits
     * below LAYOUT_CUTE_MAX_SWIZZLE_BIT, so it cannot carry past it). */
    {
        int64_t reach = l.sw_offset, term;
        for (i = 0; i < l.n_leaves; i++) {
            if (layout_mul_overflow(l.shape[i] - 1, l.stride[i], &term) || layout_add_overflow(reach, term, &reach) ||
                reach > LAYOUT_MAX_OFFSET)
                return layout_tx_fail_at(&c, sd.value_at[i], LAYOUT_ERR_OVERFLOW,
                                  "the layout's offsets exceed 2^63 - 2 (the largest offset of a descriptor) at "
                                  "this stride");
        }
    }
    *out = l;
    return layout_ok(err);
}

/* ---- printing ---- */

static void put_value(text_out *o, int64_t v, int st)
{
    layout_to_printf(o, st ? "_%lld" : "%lld", (long long)v);
}

/* side 0: shape, 1: stride. */
static void put_tree(text_out *o, const layout_cute_layout *l, int side)
{
    int m, k;
    const int64_t *v = side ? l->stride : l->shape;
    const unsigned char *st = side ? l->stride_static : l->shape_static;
    if (!l->top_is_tuple) {
        put_value(o, v[0], st[0]);
        return;
    }
    layout_to_str(o, "(");
    for (m = 0; m < l->n_modes; m++) {
        int f = l->mode_first[m], n = l->mode_count[m];
        if (m) layout_to_str(o, ",");
        if (l->mode_is_tuple[m]) layout_to_str(o, "(");
        for (k = 0; k < n; k++) {
            if (k) layout_to_str(o, ",");
            put_value(o, v[f + k], st[f + k]);
        }
        if (l->mode_is_tuple[m]) layout_to_str(o, ")");
    }
    layout_to_str(o, ")");
}

static int print_cute(text_out *o, const void *obj)
{
    const layout_cute_layout *l = (const layout_cute_layout *)obj;
    if (l->has_swizzle) {
        layout_to_printf(o, "Sw<%d,%d,%d> o ", l->sw_bits, l->sw_base, l->sw_shift);
        put_value(o, l->sw_offset, l->sw_offset_static);
        layout_to_str(o, " o ");
    }
    put_tree(o, l, 0);
    layout_to_str(o, ":");
    put_tree(o, l, 1);
    return 0;
}

static void put_cpp_value(text_out *o, int64_t v, int st)
{
    layout_to_printf(o, st ? "Int<%lld>{}" : "%lld", (long long)v);
}

static void put_cpp_tree(text_out *o, const layout_cute_layout *l, int side)
{
    int m, k;
    const int64_t *v = side ? l->stride : l->shape;
    const unsigned char *st = side ? l->stride_static : l->shape_static;
    const char *mk = side ? "make_stride(" : "make_shape(";
    if (!l->top_is_tuple) {
        put_cpp_value(o, v[0], st[0]);
        return;
    }
    layout_to_str(o, mk);
    for (m = 0; m < l->n_modes; m++) {
        int f = l->mode_first[m], n = l->mode_count[m];
        if (m) layout_to_str(o, ", ");
        if (l->mode_is_tuple[m]) layout_to_str(o, mk);
        for (k = 0; k < n; k++) {
            if (k) layout_to_str(o, ", ");
            put_cpp_value(o, v[f + k], st[f + k]);
        }
        if (l->mode_is_tuple[m]) layout_to_str(o, ")");
    }
    layout_to_str(o, ")");
}

static int print_cpp(text_out *o, const void *obj)
{
    const layout_cute_layout *l = (const layout_cute_layout *)obj;
    if (l->has_swizzle) {
        if (l->sw_offset == 0)
            layout_to_printf(o, "composition(Swizzle<%d,%d,%d>{}, ", l->sw_bits, l->sw_base, l->sw_shift);
        else {
            layout_to_printf(o, "make_composed_layout(Swizzle<%d,%d,%d>{}, ", l->sw_bits, l->sw_base, l->sw_shift);
            put_cpp_value(o, l->sw_offset, l->sw_offset_static);
            layout_to_str(o, ", ");
        }
    }
    layout_to_str(o, "make_layout(");
    put_cpp_tree(o, l, 0);
    layout_to_str(o, ", ");
    put_cpp_tree(o, l, 1);
    layout_to_str(o, ")");
    if (l->has_swizzle) layout_to_str(o, ")");
    return 0;
}

static layout_status reread_cute(const char *text, const void *ctx, layout_error *err)
{
    layout_cute_layout back;
    (void)ctx;
    return layout_cute_from_text(text, &back, NULL, err);
}

layout_status layout_cute_to_text(const layout_cute_layout *l, char *buf, size_t cap, layout_error *err)
{
    if (!l) return layout_fail(err, LAYOUT_ERR_NULL, "layout_cute_to_text: l is NULL");
    if (!buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_cute_to_text: buf is NULL");
    return layout_dx_render_read_back(print_cute, l, buf, cap, "layout_cute_to_text", reread_cute, NULL, err);
}

layout_status layout_cute_to_cpp(const layout_cute_layout *l, char *buf, size_t cap, layout_error *err)
{
    if (!l) return layout_fail(err, LAYOUT_ERR_NULL, "layout_cute_to_cpp: l is NULL");
    if (!buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_cute_to_cpp: buf is NULL");
    return layout_to_render(print_cpp, l, buf, cap, "layout_cute_to_cpp", "", err);
}

/* ---- reference evaluation ---- */

/* layout_cute_offset(): cute_match.c (an evaluation loop, like the recogniser) */

/* ---- to a descriptor ---- */

/* Stage merging each nested mode's leaves (top dims of d are the leaves). */
static layout_status merge_modes(const layout_cute_layout *l, layout_descriptor *d, layout_error *err)
{
    dx_stage s;
    int m, k, nested = 0;
    for (m = 0; m < l->n_modes; m++) nested |= l->mode_count[m] > 1;
    if (!nested) return LAYOUT_OK;
    layout_dx_stage_init(&s);
    for (m = 0; m < l->n_modes; m++) {
        layout_transform t;
        int lo[LAYOUT_CUTE_MAX_LEAVES], n = l->mode_count[m], f = l->mode_first[m];
        int64_t len[LAYOUT_CUTE_MAX_LEAVES];
        layout_status st;
        if (n == 1) {
            st = layout_make_pass_through(l->shape[f], &t, err);
            lo[0] = f;
        } else {
            for (k = 0; k < n; k++) { /* merge: last lower dim fastest, CuTe: first leaf fastest */
                lo[k] = f + n - 1 - k;
                len[k] = l->shape[f + n - 1 - k];
            }
            st = layout_make_merge(n, len, &t, err);
        }
        if (st) return st;
        layout_dx_stage_add(&s, &t, n, lo, 1, &m);
    }
    return layout_dx_stage_apply(d, &s, err);
}

layout_status layout_cute_to_desc(const layout_cute_layout *l, layout_descriptor *out, layout_error *err)
{
    layout_descriptor d;
    layout_status st;
    if (!l) return layout_fail(err, LAYOUT_ERR_NULL, FN_TO_DESC ": l is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, FN_TO_DESC ": out is NULL");
    /* A swizzled row- or column-major 2-D tile is family.h's CUTE_SWIZZLE
     * (one builder per concept) when the family accepts the parameters. */
    if (l->has_swizzle && l->sw_bits > 0 && l->sw_offset == 0 && l->n_modes == 2 && l->n_leaves == 2) {
        int cd = l->stride[1] == 1 && l->stride[0] == l->shape[1] ? 1 : l->stride[0] == 1 && l->stride[1] == l->shape[0] ? 0 : -1;
        if (cd >= 0) {
            layout_family_params p;
            memset(&p, 0, sizeof p);
            p.kind = LAYOUT_FAMILY_CUTE_SWIZZLE;
            p.contiguous_dim = cd;
            p.p[0] = l->sw_bits;
            p.p[1] = l->sw_base;
            p.p[2] = l->sw_shift;
            if (layout_family_build(&p, l->shape, &d, NULL) == LAYOUT_OK) {
                *out = d;
                return layout_ok(err);
            }
        }
    }
    if (!l->has_swizzle || l->sw_bits == 0) {
        if (l->has_swizzle && l->sw_offset != 0)
            st = layout_naive_offset(&d, l->n_leaves, l->shape, l->stride, l->sw_offset, err);
        else
            st = layout_naive(&d, l->n_leaves, l->shape, l->stride, err);
        if (st) return st;
    } else {
        /* Value x = O + L(c) split into digits, most significant first:
         * rest | field_hi (B bits) | middle (|S|-B bits) | field_lo (B bits) | low (M bits). */
        int b = l->sw_bits, m = l->sw_base, as = l->sw_shift < 0 ? -l->sw_shift : l->sw_shift, k;
        int p_lo = m, p_hi = m + as, leaves[LAYOUT_CUTE_MAX_LEAVES];
        int64_t maxv = l->sw_offset, rest, len[5], str[5], vlen;
        layout_transform t;
        dx_stage s;
        for (k = 0; k < l->n_leaves; k++) maxv += (l->shape[k] - 1) * l->stride[k]; /* bounded by the parser */
        rest = (maxv >> (p_hi + b)) + 1;
        len[0] = rest;
        len[1] = (int64_t)1 << b;
        len[2] = (int64_t)1 << (as - b);
        len[3] = (int64_t)1 << b;
        len[4] = (int64_t)1 << m;
        str[0] = (int64_t)1 << (p_hi + b);
        str[1] = (int64_t)1 << p_hi;
        str[2] = (int64_t)1 << (p_lo + b);
        str[3] = (int64_t)1 << p_lo;
        str[4] = 1;
        if (layout_mul_overflow(rest, str[0], &vlen))
            return layout_fail(err, LAYOUT_ERR_OVERFLOW, FN_TO_DESC ": the swizzled value range overflows");
        if ((st = layout_naive(&d, 5, len, str, err))) return st;
        /* The swizzle: the destination field ^= the source field. */
        layout_dx_stage_init(&s);
        if ((st = layout_make_xor(len[1], len[3], &t, err))) return st;
        {
            int src = l->sw_shift >= 0 ? 1 : 3, dst = l->sw_shift >= 0 ? 3 : 1;
            int lo2[2], up2[2];
            lo2[0] = src;
            lo2[1] = dst;
            up2[0] = src;
            up2[1] = dst;
            layout_dx_stage_add(&s, &t, 2, lo2, 2, up2);
        }
        for (k = 0; k < 5; k += 2) {
            if ((st = layout_make_pass_through(len[k], &t, err))) return st;
            layout_dx_stage_add(&s, &t, 1, &k, 1, &k);
        }
        if ((st = layout_dx_stage_apply(&d, &s, err))) return st;
        /* Merge the digits back into the value x. */
        layout_dx_stage_init(&s);
        {
            int lo5[5] = {0, 1, 2, 3, 4}, zero = 0;
            if ((st = layout_make_merge(5, len, &t, err))) return st;
            layout_dx_stage_add(&s, &t, 5, lo5, 1, &zero);
            if ((st = layout_dx_stage_apply(&d, &s, err))) return st;
            /* x = O + w. */
            if (l->sw_offset != 0) {
                layout_dx_stage_init(&s);
                if ((st = layout_make_offset(vlen - l->sw_offset, l->sw_offset, &t, err))) return st;
                layout_dx_stage_add(&s, &t, 1, &zero, 1, &zero);
                if ((st = layout_dx_stage_apply(&d, &s, err))) return st;
            }
            /* w = sum leaf * stride. */
            layout_dx_stage_init(&s);
            for (k = 0; k < l->n_leaves; k++) leaves[k] = k;
            if ((st = layout_make_embed(l->n_leaves, l->shape, l->stride, &t, err))) return st;
            layout_dx_stage_add(&s, &t, 1, &zero, l->n_leaves, leaves);
            if ((st = layout_dx_stage_apply(&d, &s, err))) return st;
        }
    }
    if ((st = merge_modes(l, &d, err))) return st;
    *out = d;
    return layout_ok(err);
}

layout_status layout_desc_from_cute(const char *text, layout_descriptor *out, size_t *where, layout_error *err)
{
    layout_cute_layout l;
    layout_status st;
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_desc_from_cute: out is NULL");
    if ((st = layout_cute_from_text(text, &l, where, err))) return st;
    if ((st = layout_cute_to_desc(&l, out, err)) && where) *where = 0;
    return st;
}

/* ---- from a descriptor: cute_match.c ---- */
