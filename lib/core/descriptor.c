/* Descriptors: ck_tile's construction rules, offsets, validity, hints, print. */
#include "layout/descriptor.h"

#include "adaptor_internal.h"

#include <inttypes.h>
#include <string.h>

/* --------------------------------------------------------- construction */

/* lengths n in 1..LAYOUT_MAX_DIMS, non-NULL, all > 0 */
static layout_status need_dims(const char *fn, layout_descriptor *out, int n, const int64_t *lengths,
                               layout_error *err)
{
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (n < 1 || n > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: n = %d must be in 1..%d", fn, n, LAYOUT_MAX_DIMS);
    if (!lengths) return layout_fail(err, LAYOUT_ERR_NULL, "%s: lengths is NULL", fn);
    for (int i = 0; i < n; i++)
        if (lengths[i] <= 0)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: lengths[%d] = %" PRId64 " must be > 0", fn, i, lengths[i]);
    return LAYOUT_OK;
}

static layout_status need_hint(const char *fn, const char *arg, int64_t v, int64_t min, layout_error *err)
{
    if (v != -1 && v < min)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s = %" PRId64 " must be -1 (unknown) or >= %" PRId64, fn, arg, v,
                           min);
    return LAYOUT_OK;
}

/* A descriptor of one stage from hidden 0 (the offset): `t` reads hidden
 * `base` (0, or 1 above an offset transform) and writes the top dims. */
static layout_status single_transform_desc(const char *fn, layout_descriptor *out, int n_below,
                                           const layout_transform *below, const layout_transform *t,
                                           int64_t element_space_size, int64_t last_len, int64_t last_stride,
                                           layout_error *err)
{
    layout_transform ts[2];
    layout_seq low[2], up[2];
    int bottom = 0, top[LAYOUT_MAX_DIMS];
    int k = 0;
    if (n_below) {
        ts[k] = *below;
        low[k] = layout_seq_from(1, &bottom);
        up[k].n = 1;
        up[k].ids[0] = 1;
        k++;
    }
    ts[k] = *t;
    low[k].n = 1;
    low[k].ids[0] = n_below;
    up[k].n = t->n_upper;
    for (int i = 0; i < t->n_upper; i++) up[k].ids[i] = top[i] = n_below + 1 + i;
    k++;
    layout_descriptor d;
    layout_status st = layout_adaptor_build(fn, &d.adaptor, k, ts, low, up, 1, &bottom, t->n_upper, top, err);
    if (st) return st;
    d.element_space_size = element_space_size;
    for (int h = 0; h < LAYOUT_MAX_HIDDEN; h++) d.guaranteed_vector_length[h] = d.guaranteed_vector_stride[h] = -1;
    d.guaranteed_vector_length[top[t->n_upper - 1]] = last_len;
    d.guaranteed_vector_stride[top[t->n_upper - 1]] = last_stride;
    *out = d;
    return layout_ok(err);
}

/* Strides >= 0 and the naive element space size 1 + sum (len-1)*stride. */
static layout_status naive_space(const char *fn, int n, const int64_t *lengths, const int64_t *strides,
                                 int64_t *space, layout_error *err)
{
    if (!strides) return layout_fail(err, LAYOUT_ERR_NULL, "%s: strides is NULL", fn);
    int64_t s = 1, term;
    for (int i = 0; i < n; i++) {
        if (strides[i] < 0)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: strides[%d] = %" PRId64 " must be >= 0", fn, i, strides[i]);
        if (layout_mul_overflow(lengths[i] - 1, strides[i], &term) || layout_add_overflow(s, term, &s))
            return layout_fail(err, LAYOUT_ERR_OVERFLOW,
                               "%s: strides[%d] = %" PRId64 " overflows int64 (element space size)", fn, i,
                               strides[i]);
    }
    *space = s;
    return LAYOUT_OK;
}

static layout_status make_naive(const char *fn, layout_descriptor *out, int n, const int64_t *lengths,
                                const int64_t *strides, int has_offset, int64_t offset, int64_t gvl, int64_t gvs,
                                layout_error *err)
{
    layout_status st;
    int64_t space = 0;
    layout_transform embed, shift;
    layout_error inner;
    if ((st = need_dims(fn, out, n, lengths, err)) || (st = naive_space(fn, n, lengths, strides, &space, err)) ||
        (st = need_hint(fn, "guaranteed_last_vector_length", gvl, 1, err)) ||
        (st = need_hint(fn, "guaranteed_last_vector_stride", gvs, 0, err)))
        return st;
    if ((st = layout_make_embed(n, lengths, strides, &embed, &inner)))
        return layout_fail(err, st, "%s: %s", fn, inner.message);
    if (has_offset && (st = layout_make_offset(space, offset, &shift, &inner)))
        return layout_fail(err, st, "%s: offset = %" PRId64 ": %s", fn, offset, inner.message);
    return single_transform_desc(fn, out, has_offset, &shift, &embed, space, gvl, gvs, err);
}

layout_status layout_naive(layout_descriptor *out, int n, const int64_t *lengths, const int64_t *strides,
                           layout_error *err)
{
    return make_naive("layout_naive", out, n, lengths, strides, 0, 0, -1, -1, err);
}

layout_status layout_naive_vec(layout_descriptor *out, int n, const int64_t *lengths, const int64_t *strides,
                               int64_t guaranteed_last_vector_length, int64_t guaranteed_last_vector_stride,
                               layout_error *err)
{
    return make_naive("layout_naive_vec", out, n, lengths, strides, 0, 0, guaranteed_last_vector_length,
                      guaranteed_last_vector_stride, err);
}

layout_status layout_naive_offset(layout_descriptor *out, int n, const int64_t *lengths, const int64_t *strides,
                                  int64_t offset, layout_error *err)
{
    return make_naive("layout_naive_offset", out, n, lengths, strides, 1, offset, -1, -1, err);
}

static layout_status make_packed(const char *fn, layout_descriptor *out, int n, const int64_t *lengths, int64_t gvl,
                                 layout_error *err)
{
    layout_status st;
    layout_transform unmerge;
    layout_error inner;
    if ((st = need_dims(fn, out, n, lengths, err)) ||
        (st = need_hint(fn, "guaranteed_last_vector_length", gvl, 1, err)))
        return st;
    if ((st = layout_make_unmerge(n, lengths, &unmerge, &inner)))
        return layout_fail(err, st, "%s: %s", fn, inner.message);
    int64_t last = lengths[n - 1] > gvl ? lengths[n - 1] : gvl;
    return single_transform_desc(fn, out, 0, NULL, &unmerge, unmerge.lower_lengths[0], last, 1, err);
}

layout_status layout_packed(layout_descriptor *out, int n, const int64_t *lengths, layout_error *err)
{
    return make_packed("layout_packed", out, n, lengths, -1, err);
}

layout_status layout_packed_vec(layout_descriptor *out, int n, const int64_t *lengths,
                                int64_t guaranteed_last_vector_length, layout_error *err)
{
    return make_packed("layout_packed_vec", out, n, lengths, guaranteed_last_vector_length, err);
}

layout_status layout_aligned(layout_descriptor *out, int n, const int64_t *lengths, int64_t align,
                             layout_error *err)
{
    static const char fn[] = "layout_aligned";
    layout_status st;
    if ((st = need_dims(fn, out, n, lengths, err))) return st;
    if (align <= 0) return layout_fail(err, LAYOUT_ERR_ARG, "%s: align = %" PRId64 " must be > 0", fn, align);
    int64_t strides[LAYOUT_MAX_DIMS];
    strides[n - 1] = 1;
    if (n >= 2) {
        /* least multiple of align >= lengths[n-1] */
        int64_t s, q = lengths[n - 1] / align + (lengths[n - 1] % align != 0);
        if (layout_mul_overflow(q, align, &s))
            return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: align = %" PRId64 " overflows int64 (row stride)", fn,
                               align);
        strides[n - 2] = s;
        for (int i = n - 3; i >= 0; i--)
            if (layout_mul_overflow(strides[i + 1], lengths[i + 1], &strides[i]))
                return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: stride of dim %d overflows int64", fn, i);
    }
    return make_naive(fn, out, n, lengths, strides, 0, 0, -1, -1, err);
}

layout_status layout_transform_descriptor(layout_descriptor *out, const layout_descriptor *in, int n_transforms,
                                          const layout_transform *transforms, const layout_seq *lower_ids,
                                          const layout_seq *upper_ids, layout_error *err)
{
    static const char fn[] = "layout_transform_descriptor";
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (!in) return layout_fail(err, LAYOUT_ERR_NULL, "%s: in is NULL", fn);
    layout_descriptor d;
    layout_status st = layout_adaptor_stage(fn, &d.adaptor, &in->adaptor, n_transforms, transforms, lower_ids,
                                            upper_ids, err);
    if (st) return st;
    d.element_space_size = in->element_space_size;
    for (int h = 0; h < LAYOUT_MAX_HIDDEN; h++) {
        int old = h < in->adaptor.n_hidden;
        d.guaranteed_vector_length[h] = old ? in->guaranteed_vector_length[h] : -1;
        d.guaranteed_vector_stride[h] = old ? in->guaranteed_vector_stride[h] : -1;
    }
    *out = d;
    return layout_ok(err);
}

/* --------------------------------------------------------------- queries */

int layout_desc_ndims(const layout_descriptor *d)
{
    return d ? d->adaptor.n_top : 0;
}

int64_t layout_desc_length(const layout_descriptor *d, int dim)
{
    return d ? layout_adaptor_top_length(&d->adaptor, dim) : -1;
}

int64_t layout_desc_size(const layout_descriptor *d)
{
    return d ? layout_adaptor_top_size(&d->adaptor) : -1;
}

int64_t layout_desc_element_space_size(const layout_descriptor *d)
{
    return d ? d->element_space_size : -1;
}

int64_t layout_desc_offset_unchecked(const layout_descriptor *d, const int64_t *coord)
{
    int64_t hidden[LAYOUT_MAX_HIDDEN];
    layout_adaptor_calculate_hidden_unchecked(&d->adaptor, coord, hidden);
    return hidden[0];
}

layout_status layout_desc_offset(const layout_descriptor *d, const int64_t *coord, int64_t *offset,
                                 layout_error *err)
{
    layout_status st = layout_check_query("layout_desc_offset", d, "d", d ? &d->adaptor : NULL, coord, "coord",
                                          offset, "offset", err);
    if (st) return st;
    *offset = layout_desc_offset_unchecked(d, coord);
    return layout_ok(err);
}

/* When every transform is affine (over all integers), the whole chain is:
 * offset(c) = base + sum coef[i] * c[i].  Returns 1 and fills base / coef
 * when that holds and no partial sum of that form can overflow for
 * in-range coordinates; 0 otherwise (then use the interpreter). */
static int affine_form(const layout_descriptor *d, int64_t *base, int64_t *coef)
{
    const layout_adaptor *a = &d->adaptor;
    for (int i = 0; i < a->n_transforms; i++)
        if (!layout_kind_table[a->transforms[i].kind].affine) return 0;
    int64_t c[LAYOUT_MAX_DIMS] = { 0 };
    *base = layout_desc_offset_unchecked(d, c);
    int64_t lo = *base, hi = *base;
    for (int i = 0; i < a->n_top; i++) {
        int64_t len = a->hidden_lengths[a->top_hidden[i]], ext;
        coef[i] = 0;
        if (len < 2) continue;
        c[i] = 1;
        int64_t at_one = layout_desc_offset_unchecked(d, c);
        c[i] = 0;
        if (__builtin_sub_overflow(at_one, *base, &coef[i]) || layout_mul_overflow(coef[i], len - 1, &ext)) return 0;
        if (ext < 0 ? layout_add_overflow(lo, ext, &lo) : layout_add_overflow(hi, ext, &hi)) return 0;
    }
    return 1;
}

layout_status layout_desc_offsets(const layout_descriptor *d, size_t n_coords, const int64_t *coords,
                                  int64_t *offsets, layout_error *err)
{
    static const char fn[] = "layout_desc_offsets";
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, "%s: d is NULL", fn);
    if (n_coords == 0) return layout_ok(err);
    if (!coords || !offsets)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !coords ? "coords" : "offsets");
    const layout_adaptor *a = &d->adaptor;
    size_t nd = (size_t)a->n_top;
    for (size_t k = 0; k < n_coords; k++)
        for (size_t i = 0; i < nd; i++) {
            int64_t c = coords[k * nd + i], len = a->hidden_lengths[a->top_hidden[i]];
            if (c < 0 || c >= len)
                return layout_fail(err, LAYOUT_ERR_RANGE, "%s: coords[%zu][%zu] = %" PRId64 " is outside 0..%" PRId64,
                                   fn, k, i, c, len - 1);
        }
    int64_t base, coef[LAYOUT_MAX_DIMS];
    if (n_coords > nd + 1 && affine_form(d, &base, coef)) {
        /* the fast path: a dot product per coordinate */
        for (size_t k = 0; k < n_coords; k++) {
            int64_t off = base;
            for (size_t i = 0; i < nd; i++) off += coef[i] * coords[k * nd + i];
            offsets[k] = off;
        }
    } else {
        for (size_t k = 0; k < n_coords; k++) offsets[k] = layout_desc_offset_unchecked(d, coords + k * nd);
    }
    return layout_ok(err);
}

layout_status layout_desc_is_valid(const layout_descriptor *d, const int64_t *coord, int *valid, layout_error *err)
{
    layout_status st = layout_check_query("layout_desc_is_valid", d, "d", d ? &d->adaptor : NULL, coord, "coord",
                                          valid, "valid", err);
    if (st) return st;
    *valid = layout_adaptor_is_valid_unchecked(&d->adaptor, coord);
    return layout_ok(err);
}

layout_status layout_desc_vector_hints(const layout_descriptor *d, int64_t *lengths, int64_t *strides,
                                       layout_error *err)
{
    static const char fn[] = "layout_desc_vector_hints";
    if (!d || !lengths || !strides)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !d ? "d" : !lengths ? "lengths" : "strides");
    return layout_adaptor_vector_hints(&d->adaptor, d->guaranteed_vector_length, d->guaranteed_vector_stride, lengths,
                                       strides, err);
}

int layout_desc_print(const layout_descriptor *d, char *buf, size_t cap)
{
    layout_strbuf sb;
    layout_sb_init(&sb, buf, cap);
    if (!d) return -1;
    int64_t lens[LAYOUT_MAX_DIMS];
    for (int i = 0; i < d->adaptor.n_top; i++) lens[i] = layout_desc_length(d, i);
    layout_sb_printf(&sb, "descriptor ");
    layout_sb_list(&sb, d->adaptor.n_top, lens);
    layout_sb_printf(&sb, ", element_space_size %" PRId64 "\n", d->element_space_size);
    layout_adaptor_print_to(&d->adaptor, &sb);
    return layout_sb_result(&sb);
}
