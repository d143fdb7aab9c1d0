/* The transform kinds: constructors, and one protocol row per kind
 * (formula, validity, vector hint, printer, rebuild, range bound). */
#include "transform_table.h"
#include "bits.h"

#include <inttypes.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

static void init_transform(layout_transform *t, layout_transform_kind kind, int n_upper, int n_lower)
{
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->n_upper = n_upper;
    t->n_lower = n_lower;
}

static layout_status need_out(const char *fn, const void *out, layout_error *err)
{
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    return LAYOUT_OK;
}

static layout_status need_positive(const char *fn, const char *arg, int64_t v, layout_error *err)
{
    if (v <= 0) return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s = %" PRId64 " must be > 0", fn, arg, v);
    return LAYOUT_OK;
}

/* out non-NULL and two positive values */
static layout_status need_out_two_positive(const char *fn, const void *out, const char *arg0, int64_t v0,
                                           const char *arg1, int64_t v1, layout_error *err)
{
    layout_status st;
    if ((st = need_out(fn, out, err)) || (st = need_positive(fn, arg0, v0, err)) ||
        (st = need_positive(fn, arg1, v1, err)))
        return st;
    return LAYOUT_OK;
}

static layout_status need_nonnegative(const char *fn, const char *arg, int64_t v, layout_error *err)
{
    if (v < 0) return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s = %" PRId64 " must be >= 0", fn, arg, v);
    return LAYOUT_OK;
}

/* n within [min_n, LAYOUT_MAX_TRANSFORM_DIMS], lengths non-NULL (when n > 0)
 * and positive, and their product fits int64 (stored in *product). */
static layout_status need_lengths(const char *fn, const char *arg, int n, int min_n, const int64_t *lengths,
                                  int64_t *product, layout_error *err)
{
    if (n < min_n || n > LAYOUT_MAX_TRANSFORM_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: n = %d must be in %d..%d", fn, n, min_n,
                           LAYOUT_MAX_TRANSFORM_DIMS);
    if (n > 0 && !lengths) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, arg);
    int64_t p = 1;
    for (int i = 0; i < n; i++) {
        if (lengths[i] <= 0)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s[%d] = %" PRId64 " must be > 0", fn, arg, i,
                               lengths[i]);
        if (layout_mul_overflow(p, lengths[i], &p))
            return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: product of %s overflows int64 at %s[%d] = %" PRId64,
                               fn, arg, arg, i, lengths[i]);
    }
    if (product) *product = p;
    return LAYOUT_OK;
}

/* params[i] = prod(lengths[j], j > i); the caller checked the full product. */
static void suffix_products(int n, const int64_t *lengths, int64_t *scan)
{
    int64_t p = 1;
    for (int i = n - 1; i >= 0; i--) {
        scan[i] = p;
        p *= lengths[i];
    }
}

/* Interval helpers: return 1 on overflow. */
static int iv_add_const(layout_interval a, int64_t c, layout_interval *r)
{
    int bad = layout_add_overflow(a.lo, c, &r->lo);
    bad += layout_add_overflow(a.hi, c, &r->hi);
    return bad != 0;
}

static int iv_sub_const(layout_interval a, int64_t c, layout_interval *r)
{
    int bad = __builtin_sub_overflow(a.lo, c, &r->lo);
    bad += __builtin_sub_overflow(a.hi, c, &r->hi);
    return bad != 0;
}

/* Bound of sum_i up[i] * coef[i], evaluated left to right. */
static int iv_dot(int n, const layout_interval *up, const int64_t *coef, layout_interval *r)
{
    layout_interval acc = { 0, 0 };
    for (int i = 0; i < n; i++) {
        int64_t a, b;
        if (layout_mul_overflow(up[i].lo, coef[i], &a) || layout_mul_overflow(up[i].hi, coef[i], &b)) return 1;
        int64_t lo = a < b ? a : b, hi = a < b ? b : a;
        if (layout_add_overflow(acc.lo, lo, &acc.lo) || layout_add_overflow(acc.hi, hi, &acc.hi)) return 1;
    }
    *r = acc;
    return 0;
}

/* Bound of x % m for x in a (C truncating remainder, m > 0). */
static layout_interval iv_mod(layout_interval a, int64_t m)
{
    layout_interval r;
    r.lo = a.lo >= 0 ? 0 : (a.lo > -(m - 1) ? a.lo : -(m - 1));
    r.hi = a.hi <= 0 ? 0 : (a.hi < m - 1 ? a.hi : m - 1);
    return r;
}

/* Number of bits needed for |v| (v > INT64_MIN). */
static int bit_length(int64_t v)
{
    uint64_t u = (uint64_t)(v < 0 ? -v : v);
    int k = 0;
    while (u) {
        k++;
        u >>= 1;
    }
    return k;
}

/* ----------------------------------------------------- per-kind functions */

/* pass_through, left_pad, right_pad, xor: hints copied. */
static void hint_copy(const layout_transform *t, const int64_t *ll, const int64_t *ls, int64_t *ul, int64_t *us)
{
    for (int i = 0; i < t->n_upper; i++) {
        ul[i] = ll[i];
        us[i] = ls[i];
    }
}

/* pad, embed, slice, modulo, offset, insert, replicate, freeze: hints lost. */
static void hint_unknown(const layout_transform *t, const int64_t *ll, const int64_t *ls, int64_t *ul, int64_t *us)
{
    (void)ll;
    (void)ls;
    for (int i = 0; i < t->n_upper; i++) ul[i] = us[i] = -1;
}

/* "name([a, b, c])" */
static void print_named_list(layout_strbuf *sb, const char *name, int n, const int64_t *values)
{
    layout_sb_printf(sb, "%s(", name);
    layout_sb_list(sb, n, values);
    layout_sb_printf(sb, ")");
}

/* pass_through */
static void lower_pass(const layout_transform *t, const int64_t *up, int64_t *low)
{
    (void)t;
    low[0] = up[0];
}
static void print_pass(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "pass_through(%" PRId64 ")", t->upper_lengths[0]);
}
static layout_status rebuild_pass(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_pass_through(t->upper_lengths[0], out, err);
}
static int range_pass(const layout_transform *t, const layout_interval *up, layout_interval *low)
{
    (void)t;
    low[0] = up[0];
    return 0;
}

/* pad / left_pad: params[0] = left */
static void lower_sub_left(const layout_transform *t, const int64_t *up, int64_t *low)
{
    low[0] = up[0] - t->params[0];
}
static int range_sub_left(const layout_transform *t, const layout_interval *up, layout_interval *low)
{
    return iv_sub_const(up[0], t->params[0], &low[0]);
}
static int valid_pad(const layout_transform *t, const int64_t *up)
{
    return up[0] >= t->params[0] && up[0] < t->lower_lengths[0] + t->params[0];
}
static void print_pad(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "pad(%" PRId64 ", %" PRId64 ", %" PRId64 ")", t->lower_lengths[0], t->params[0],
                     t->params[1]);
}
static layout_status rebuild_pad(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_pad(t->lower_lengths[0], t->params[0], t->params[1], out, err);
}

static int valid_left_pad(const layout_transform *t, const int64_t *up)
{
    return up[0] >= t->params[0];
}
static void print_left_pad(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "left_pad(%" PRId64 ", %" PRId64 ")", t->lower_lengths[0], t->params[0]);
}
static layout_status rebuild_left_pad(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_left_pad(t->lower_lengths[0], t->params[0], out, err);
}

/* right_pad: params[0] = right */
static int valid_right_pad(const layout_transform *t, const int64_t *up)
{
    return up[0] < t->lower_lengths[0];
}
static void print_right_pad(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "right_pad(%" PRId64 ", %" PRId64 ")", t->lower_lengths[0], t->params[0]);
}
static layout_status rebuild_right_pad(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_right_pad(t->lower_lengths[0], t->params[0], out, err);
}

/* embed and unmerge: low = sum up[i] * params[i] */
static void lower_dot(const layout_transform *t, const int64_t *up, int64_t *low)
{
    int64_t s = 0;
    for (int i = 0; i < t->n_upper; i++) s += up[i] * t->params[i];
    low[0] = s;
}
static int range_dot(const layout_transform *t, const layout_interval *up, layout_interval *low)
{
    return iv_dot(t->n_upper, up, t->params, &low[0]);
}
static void print_embed(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "embed(");
    layout_sb_list(sb, t->n_upper, t->upper_lengths);
    layout_sb_printf(sb, ", ");
    layout_sb_list(sb, t->n_upper, t->params);
    layout_sb_printf(sb, ")");
}
static layout_status rebuild_embed(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_embed(t->n_upper, t->upper_lengths, t->params, out, err);
}

static void hint_unmerge(const layout_transform *t, const int64_t *ll, const int64_t *ls, int64_t *ul, int64_t *us)
{
    int last = t->n_upper - 1;
    for (int i = 0; i < last; i++) ul[i] = us[i] = -1;
    ul[last] = ll[0] != -1 ? layout_gcd(ll[0], t->upper_lengths[last]) : -1;
    us[last] = ls[0];
}
static void print_unmerge(const layout_transform *t, layout_strbuf *sb)
{
    print_named_list(sb, "unmerge", t->n_upper, t->upper_lengths);
}
static layout_status rebuild_unmerge(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_unmerge(t->n_upper, t->upper_lengths, out, err);
}

/* merge and merge_divmod: digit i = rest / params[i], most significant first */
static void lower_merge(const layout_transform *t, const int64_t *up, int64_t *low)
{
    int64_t rest = up[0];
    int last = t->n_lower - 1;
    for (int i = 0; i < last; i++) {
        low[i] = rest / t->params[i];
        rest -= low[i] * t->params[i];
    }
    low[last] = rest;
}
static int range_merge(const layout_transform *t, const layout_interval *up, layout_interval *low)
{
    /* Every intermediate value is bounded by |up|; the digits after the
     * first are remainders. */
    int last = t->n_lower - 1;
    if (last == 0) {
        low[0] = up[0];
        return 0;
    }
    low[0].lo = up[0].lo / t->params[0];
    low[0].hi = up[0].hi / t->params[0];
    for (int i = 1; i <= last; i++) low[i] = iv_mod(up[0], t->lower_lengths[i]);
    return 0;
}
static void hint_merge(const layout_transform *t, const int64_t *ll, const int64_t *ls, int64_t *ul, int64_t *us)
{
    ul[0] = ll[t->n_lower - 1];
    us[0] = ls[t->n_lower - 1];
}
static void print_merge(const layout_transform *t, layout_strbuf *sb)
{
    print_named_list(sb, t->kind == LAYOUT_MERGE ? "merge" : "merge_divmod", t->n_lower, t->lower_lengths);
}
static layout_status rebuild_merge(const layout_transform *t, layout_transform *out, layout_error *err)
{
    if (t->kind == LAYOUT_MERGE) return layout_make_merge(t->n_lower, t->lower_lengths, out, err);
    return layout_make_merge_divmod(t->n_lower, t->lower_lengths, out, err);
}

/* freeze: params[0] = value */
static void lower_freeze(const layout_transform *t, const int64_t *up, int64_t *low)
{
    (void)up;
    low[0] = t->params[0];
}
static int range_freeze(const layout_transform *t, const layout_interval *up, layout_interval *low)
{
    (void)up;
    low[0].lo = low[0].hi = t->params[0];
    return 0;
}
static void print_freeze(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "freeze(%" PRId64 ")", t->params[0]);
}
static layout_status rebuild_freeze(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_freeze(t->params[0], out, err);
}

/* insert and replicate: nothing below */
static void lower_none(const layout_transform *t, const int64_t *up, int64_t *low)
{
    (void)t;
    (void)up;
    (void)low;
}
static int range_none(const layout_transform *t, const layout_interval *up, layout_interval *low)
{
    (void)t;
    (void)up;
    (void)low;
    return 0;
}
static void print_insert(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "insert(%" PRId64 ")", t->upper_lengths[0]);
}
static layout_status rebuild_insert(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_insert(t->upper_lengths[0], out, err);
}
static void print_replicate(const layout_transform *t, layout_strbuf *sb)
{
    print_named_list(sb, "replicate", t->n_upper, t->upper_lengths);
}
static layout_status rebuild_replicate(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_replicate(t->n_upper, t->upper_lengths, out, err);
}

/* slice: params {begin, end}; offset: params {offset}; both low = up + params[0] */
static void lower_add(const layout_transform *t, const int64_t *up, int64_t *low)
{
    low[0] = up[0] + t->params[0];
}
static int range_add(const layout_transform *t, const layout_interval *up, layout_interval *low)
{
    return iv_add_const(up[0], t->params[0], &low[0]);
}
static void print_slice(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "slice(%" PRId64 ", %" PRId64 ", %" PRId64 ")", t->lower_lengths[0], t->params[0],
                     t->params[1]);
}
static layout_status rebuild_slice(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_slice(t->lower_lengths[0], t->params[0], t->params[1], out, err);
}
static void print_offset(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "offset(%" PRId64 ", %" PRId64 ")", t->upper_lengths[0], t->params[0]);
}
static layout_status rebuild_offset(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_offset(t->upper_lengths[0], t->params[0], out, err);
}

/* modulo: params[0] = modulus */
static void lower_modulo(const layout_transform *t, const int64_t *up, int64_t *low)
{
    low[0] = up[0] % t->params[0];
}
static int range_modulo(const layout_transform *t, const layout_interval *up, layout_interval *low)
{
    low[0] = iv_mod(up[0], t->params[0]);
    return 0;
}
static void print_modulo(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "modulo(%" PRId64 ", %" PRId64 ")", t->params[0], t->upper_lengths[0]);
}
static layout_status rebuild_modulo(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_modulo(t->params[0], t->upper_lengths[0], out, err);
}

/* xor: the modulus is the second length */
static void lower_xor(const layout_transform *t, const int64_t *up, int64_t *low)
{
    low[0] = up[0];
    low[1] = up[1] ^ (up[0] % t->upper_lengths[1]);
}
static int range_xor(const layout_transform *t, const layout_interval *up, layout_interval *low)
{
    layout_interval key = iv_mod(up[0], t->upper_lengths[1]);
    low[0] = up[0];
    if (up[1].lo == INT64_MIN) {
        low[1].lo = INT64_MIN;
        low[1].hi = INT64_MAX;
        return 0;
    }
    int k = bit_length(up[1].lo);
    int kk;
    if ((kk = bit_length(up[1].hi)) > k) k = kk;
    if ((kk = bit_length(key.lo)) > k) k = kk;
    if ((kk = bit_length(key.hi)) > k) k = kk;
    if (k >= 63) {
        low[1].lo = INT64_MIN;
        low[1].hi = INT64_MAX;
    } else if (up[1].lo >= 0 && key.lo >= 0) {
        low[1].lo = 0;
        low[1].hi = ((int64_t)1 << k) - 1;
    } else {
        low[1].lo = -((int64_t)1 << k);
        low[1].hi = ((int64_t)1 << k) - 1;
    }
    return 0;
}
static void print_xor(const layout_transform *t, layout_strbuf *sb)
{
    layout_sb_printf(sb, "xor(%" PRId64 ", %" PRId64 ")", t->upper_lengths[0], t->upper_lengths[1]);
}
static layout_status rebuild_xor(const layout_transform *t, layout_transform *out, layout_error *err)
{
    return layout_make_xor(t->upper_lengths[0], t->upper_lengths[1], out, err);
}

/* ------------------------------------------------------------ the table */

const layout_kind_row layout_kind_table[LAYOUT_TRANSFORM_KIND_COUNT] = {
    [LAYOUT_PASS_THROUGH] = { "pass_through", 1, lower_pass, NULL, hint_copy, print_pass, rebuild_pass, range_pass },
    [LAYOUT_PAD] = { "pad", 1, lower_sub_left, valid_pad, hint_unknown, print_pad, rebuild_pad, range_sub_left },
    [LAYOUT_LEFT_PAD] = { "left_pad", 1, lower_sub_left, valid_left_pad, hint_copy, print_left_pad, rebuild_left_pad,
                          range_sub_left },
    [LAYOUT_RIGHT_PAD] = { "right_pad", 1, lower_pass, valid_right_pad, hint_copy, print_right_pad, rebuild_right_pad,
                           range_pass },
    [LAYOUT_EMBED] = { "embed", 1, lower_dot, NULL, hint_unknown, print_embed, rebuild_embed, range_dot },
    [LAYOUT_MERGE] = { "merge", 0, lower_merge, NULL, hint_merge, print_merge, rebuild_merge, range_merge },
    [LAYOUT_MERGE_DIVMOD] = { "merge_divmod", 0, lower_merge, NULL, hint_merge, print_merge, rebuild_merge,
                              range_merge },
    [LAYOUT_UNMERGE] = { "unmerge", 1, lower_dot, NULL, hint_unmerge, print_unmerge, rebuild_unmerge, range_dot },
    [LAYOUT_FREEZE] = { "freeze", 1, lower_freeze, NULL, hint_unknown, print_freeze, rebuild_freeze, range_freeze },
    [LAYOUT_INSERT] = { "insert", 1, lower_none, NULL, hint_unknown, print_insert, rebuild_insert, range_none },
    [LAYOUT_REPLICATE] = { "replicate", 1, lower_none, NULL, hint_unknown, print_replicate, rebuild_replicate,
                           range_none },
    [LAYOUT_SLICE] = { "slice", 1, lower_add, NULL, hint_unknown, print_slice, rebuild_slice, range_add },
    [LAYOUT_MODULO] = { "modulo", 0, lower_modulo, NULL, hint_unknown, print_modulo, rebuild_modulo, range_modulo },
    [LAYOUT_XOR] = { "xor", 0, lower_xor, NULL, hint_copy, print_xor, rebuild_xor, range_xor },
    [LAYOUT_OFFSET] = { "offset", 1, lower_add, NULL, hint_unknown, print_offset, rebuild_offset, range_add },
};

/* The row of a kind, NULL when the kind is out of range. */
static const layout_kind_row *kind_row_of(layout_transform_kind kind)
{
    if ((int)kind < 0 || (int)kind >= LAYOUT_TRANSFORM_KIND_COUNT) return NULL;
    return &layout_kind_table[kind];
}

/* ----------------------------------------------------------- constructors */

layout_status layout_make_pass_through(int64_t length, layout_transform *out, layout_error *err)
{
    static const char fn[] = "layout_make_pass_through";
    layout_status st;
    if ((st = need_out(fn, out, err)) || (st = need_positive(fn, "length", length, err))) return st;
    init_transform(out, LAYOUT_PASS_THROUGH, 1, 1);
    out->upper_lengths[0] = out->lower_lengths[0] = length;
    return layout_ok(err);
}

/* Shared by the three pads: checks, then the common fields. */
static layout_status make_any_pad(const char *fn, layout_transform_kind kind, int64_t length, int64_t left,
                                  int64_t right, layout_transform *out, layout_error *err)
{
    layout_status st;
    int64_t upper;
    if ((st = need_out(fn, out, err)) || (st = need_positive(fn, "length", length, err)) ||
        (st = need_nonnegative(fn, "left", left, err)) || (st = need_nonnegative(fn, "right", right, err)))
        return st;
    if (layout_add_overflow(length, left, &upper) || layout_add_overflow(upper, right, &upper))
        return layout_fail(err, LAYOUT_ERR_OVERFLOW,
                           "%s: length %" PRId64 " + left %" PRId64 " + right %" PRId64 " overflows int64", fn,
                           length, left, right);
    layout_transform t;
    init_transform(&t, kind, 1, 1);
    t.upper_lengths[0] = upper;
    t.lower_lengths[0] = length;
    if (kind == LAYOUT_PAD) {
        t.params[0] = left;
        t.params[1] = right;
    } else {
        t.params[0] = kind == LAYOUT_LEFT_PAD ? left : right;
    }
    *out = t;
    return layout_ok(err);
}

layout_status layout_make_pad(int64_t length, int64_t left, int64_t right, layout_transform *out, layout_error *err)
{
    return make_any_pad("layout_make_pad", LAYOUT_PAD, length, left, right, out, err);
}

layout_status layout_make_left_pad(int64_t length, int64_t left, layout_transform *out, layout_error *err)
{
    return make_any_pad("layout_make_left_pad", LAYOUT_LEFT_PAD, length, left, 0, out, err);
}

layout_status layout_make_right_pad(int64_t length, int64_t right, layout_transform *out, layout_error *err)
{
    return make_any_pad("layout_make_right_pad", LAYOUT_RIGHT_PAD, length, 0, right, out, err);
}

layout_status layout_make_embed(int n, const int64_t *upper_lengths, const int64_t *coefficients,
                                layout_transform *out, layout_error *err)
{
    static const char fn[] = "layout_make_embed";
    layout_status st;
    if ((st = need_out(fn, out, err)) || (st = need_lengths(fn, "upper_lengths", n, 1, upper_lengths, NULL, err)))
        return st;
    if (!coefficients) return layout_fail(err, LAYOUT_ERR_NULL, "%s: coefficients is NULL", fn);
    layout_interval up[LAYOUT_MAX_TRANSFORM_DIMS], low;
    for (int i = 0; i < n; i++) {
        up[i].lo = 0;
        up[i].hi = upper_lengths[i] - 1;
    }
    if (iv_dot(n, up, coefficients, &low))
        return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: sum of (upper_lengths[i] - 1) * coefficients[i] overflows int64",
                           fn);
    init_transform(out, LAYOUT_EMBED, n, 1);
    memcpy(out->upper_lengths, upper_lengths, (size_t)n * sizeof *upper_lengths);
    memcpy(out->params, coefficients, (size_t)n * sizeof *coefficients);
    return layout_ok(err);
}

static layout_status make_any_merge(const char *fn, layout_transform_kind kind, int n, const int64_t *lengths,
                                    layout_transform *out, layout_error *err)
{
    layout_status st;
    int64_t product;
    if ((st = need_out(fn, out, err)) || (st = need_lengths(fn, "lower_lengths", n, 1, lengths, &product, err)))
        return st;
    init_transform(out, kind, 1, n);
    memcpy(out->lower_lengths, lengths, (size_t)n * sizeof *lengths);
    out->upper_lengths[0] = product;
    suffix_products(n, lengths, out->params);
    return layout_ok(err);
}

layout_status layout_make_merge(int n, const int64_t *lower_lengths, layout_transform *out, layout_error *err)
{
    return make_any_merge("layout_make_merge", LAYOUT_MERGE, n, lower_lengths, out, err);
}

layout_status layout_make_merge_divmod(int n, const int64_t *lower_lengths, layout_transform *out,
                                       layout_error *err)
{
    return make_any_merge("layout_make_merge_divmod", LAYOUT_MERGE_DIVMOD, n, lower_lengths, out, err);
}

layout_status layout_make_unmerge(int n, const int64_t *upper_lengths, layout_transform *out, layout_error *err)
{
    static const char fn[] = "layout_make_unmerge";
    layout_status st;
    int64_t product;
    if ((st = need_out(fn, out, err)) || (st = need_lengths(fn, "upper_lengths", n, 1, upper_lengths, &product, err)))
        return st;
    init_transform(out, LAYOUT_UNMERGE, n, 1);
    memcpy(out->upper_lengths, upper_lengths, (size_t)n * sizeof *upper_lengths);
    out->lower_lengths[0] = product;
    suffix_products(n, upper_lengths, out->params);
    return layout_ok(err);
}

layout_status layout_make_freeze(int64_t value, layout_transform *out, layout_error *err)
{
    static const char fn[] = "layout_make_freeze";
    layout_status st;
    if ((st = need_out(fn, out, err)) || (st = need_nonnegative(fn, "value", value, err))) return st;
    init_transform(out, LAYOUT_FREEZE, 0, 1);
    out->params[0] = value;
    return layout_ok(err);
}

layout_status layout_make_insert(int64_t length, layout_transform *out, layout_error *err)
{
    static const char fn[] = "layout_make_insert";
    layout_status st;
    if ((st = need_out(fn, out, err)) || (st = need_positive(fn, "length", length, err))) return st;
    init_transform(out, LAYOUT_INSERT, 1, 0);
    out->upper_lengths[0] = length;
    return layout_ok(err);
}

layout_status layout_make_replicate(int n, const int64_t *lengths, layout_transform *out, layout_error *err)
{
    static const char fn[] = "layout_make_replicate";
    layout_status st;
    if ((st = need_out(fn, out, err)) || (st = need_lengths(fn, "lengths", n, 0, lengths, NULL, err))) return st;
    init_transform(out, LAYOUT_REPLICATE, n, 0);
    if (n > 0) memcpy(out->upper_lengths, lengths, (size_t)n * sizeof *lengths);
    return layout_ok(err);
}

layout_status layout_make_slice(int64_t length, int64_t begin, int64_t end, layout_transform *out,
                                layout_error *err)
{
    static const char fn[] = "layout_make_slice";
    layout_status st;
    if ((st = need_out(fn, out, err)) || (st = need_positive(fn, "length", length, err)) ||
        (st = need_nonnegative(fn, "begin", begin, err)))
        return st;
    if (end <= begin || end > length)
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "%s: end = %" PRId64 " must satisfy begin %" PRId64 " < end <= length %" PRId64, fn, end,
                           begin, length);
    init_transform(out, LAYOUT_SLICE, 1, 1);
    out->upper_lengths[0] = end - begin;
    out->lower_lengths[0] = length;
    out->params[0] = begin;
    out->params[1] = end;
    return layout_ok(err);
}

layout_status layout_make_modulo(int64_t modulus, int64_t length, layout_transform *out, layout_error *err)
{
    layout_status st = need_out_two_positive("layout_make_modulo", out, "modulus", modulus, "length", length, err);
    if (st) return st;
    init_transform(out, LAYOUT_MODULO, 1, 1);
    out->upper_lengths[0] = length;
    out->lower_lengths[0] = modulus;
    out->params[0] = modulus;
    return layout_ok(err);
}

layout_status layout_make_xor(int64_t length0, int64_t length1, layout_transform *out, layout_error *err)
{
    layout_status st = need_out_two_positive("layout_make_xor", out, "length0", length0, "length1", length1, err);
    if (st) return st;
    init_transform(out, LAYOUT_XOR, 2, 2);
    out->upper_lengths[0] = out->lower_lengths[0] = length0;
    out->upper_lengths[1] = out->lower_lengths[1] = length1;
    return layout_ok(err);
}

layout_status layout_make_offset(int64_t length, int64_t offset, layout_transform *out, layout_error *err)
{
    static const char fn[] = "layout_make_offset";
    layout_status st;
    int64_t last;
    if ((st = need_out(fn, out, err)) || (st = need_positive(fn, "length", length, err))) return st;
    if (layout_add_overflow(length - 1, offset, &last))
        return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: length %" PRId64 " - 1 + offset %" PRId64 " overflows int64",
                           fn, length, offset);
    init_transform(out, LAYOUT_OFFSET, 1, 1);
    out->upper_lengths[0] = out->lower_lengths[0] = length;
    out->params[0] = offset;
    return layout_ok(err);
}

/* --------------------------------------------------------------- protocol */

const char *layout_transform_kind_name(layout_transform_kind kind)
{
    const layout_kind_row *row = kind_row_of(kind);
    return row ? row->name : "unknown";
}

layout_status layout_transform_kind_from_name(const char *name, layout_transform_kind *kind, layout_error *err)
{
    static const char fn[] = "layout_transform_kind_from_name";
    if (!name) return layout_fail(err, LAYOUT_ERR_NULL, "%s: name is NULL", fn);
    if (!kind) return layout_fail(err, LAYOUT_ERR_NULL, "%s: kind is NULL", fn);
    for (int k = 0; k < LAYOUT_TRANSFORM_KIND_COUNT; k++) {
        if (strcmp(layout_kind_table[k].name, name) == 0) {
            *kind = (layout_transform_kind)k;
            return layout_ok(err);
        }
    }
    return layout_fail(err, LAYOUT_ERR_NOT_FOUND, "%s: name = \"%.64s\" is not a transform kind", fn, name);
}

static int same_values(const int64_t *a, const int64_t *b)
{
    return memcmp(a, b, LAYOUT_MAX_TRANSFORM_DIMS * sizeof *a) == 0;
}

layout_status layout_transform_check(const layout_transform *t, layout_error *err)
{
    static const char fn[] = "layout_transform_check";
    if (!t) return layout_fail(err, LAYOUT_ERR_NULL, "%s: t is NULL", fn);
    const layout_kind_row *row = kind_row_of(t->kind);
    if (!row) return layout_fail(err, LAYOUT_ERR_ARG, "%s: kind = %d is not a transform kind", fn, (int)t->kind);
    /* Counts first: the rebuild reads arrays by them. */
    if (t->n_upper < 0 || t->n_upper > LAYOUT_MAX_TRANSFORM_DIMS || t->n_lower < 0 ||
        t->n_lower > LAYOUT_MAX_TRANSFORM_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %s n_upper = %d, n_lower = %d out of 0..%d", fn, row->name,
                           t->n_upper, t->n_lower, LAYOUT_MAX_TRANSFORM_DIMS);
    layout_transform ref;
    layout_error inner;
    layout_status st = row->rebuild(t, &ref, &inner);
    if (st) return layout_fail(err, st, "%s: %s", fn, inner.message);
    if (ref.n_upper != t->n_upper || ref.n_lower != t->n_lower)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: %s takes %d upper and %d lower dims, not %d and %d", fn,
                           row->name, ref.n_upper, ref.n_lower, t->n_upper, t->n_lower);
    if (!same_values(ref.upper_lengths, t->upper_lengths) || !same_values(ref.lower_lengths, t->lower_lengths) ||
        !same_values(ref.params, t->params))
        return layout_fail(err, LAYOUT_ERR_MISMATCH,
                           "%s: %s fields differ from what its constructor builds (build transforms with layout_make_*)",
                           fn, row->name);
    return layout_ok(err);
}

void layout_transform_lower(const layout_transform *t, const int64_t *upper, int64_t *lower)
{
    layout_kind_table[t->kind].lower(t, upper, lower);
}

int layout_transform_is_valid(const layout_transform *t, const int64_t *upper)
{
    const layout_kind_row *row = &layout_kind_table[t->kind];
    return row->valid ? row->valid(t, upper) : 1;
}

void layout_transform_vector_hint(const layout_transform *t, const int64_t *low_lengths, const int64_t *low_strides,
                                  int64_t *up_lengths, int64_t *up_strides)
{
    layout_kind_table[t->kind].hint(t, low_lengths, low_strides, up_lengths, up_strides);
}

int layout_transform_print(const layout_transform *t, char *buf, size_t cap)
{
    layout_strbuf sb;
    layout_sb_init(&sb, buf, cap);
    if (!t) return -1;
    const layout_kind_row *row = kind_row_of(t->kind);
    if (!row) {
        layout_sb_printf(&sb, "unknown(%d)", (int)t->kind);
    } else {
        row->print(t, &sb);
    }
    return layout_sb_result(&sb);
}
