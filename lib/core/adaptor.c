/* The adaptor engine: validation, overflow bounds, evaluation, hints, print. */
#include "adaptor_internal.h"

#include <inttypes.h>
#include <string.h>

/* ------------------------------------------------------------ validation */

static layout_status check_seq(const char *fn, const char *arg, int i, const layout_seq *s, int expect,
                               const char *side, const char *kind, layout_error *err)
{
    if (s->n != expect)
        return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: %s[%d].n = %d but transforms[%d] (%s) has %d %s dims", fn, arg,
                           i, s->n, i, kind, expect, side);
    for (int j = 0; j < s->n; j++)
        if (s->ids[j] < 0 || s->ids[j] >= LAYOUT_MAX_HIDDEN)
            return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: %s[%d].ids[%d] = %d is not a hidden id (0..%d)", fn, arg,
                               i, j, s->ids[j], LAYOUT_MAX_HIDDEN - 1);
    return LAYOUT_OK;
}

/* Bounds of every hidden value over all in-range top indices; 1 on overflow
 * (transform index in *bad). */
static int bound_hidden(const layout_adaptor *a, layout_interval *iv, int *bad)
{
    for (int h = 0; h < LAYOUT_MAX_HIDDEN; h++) iv[h].lo = iv[h].hi = 0;
    for (int d = 0; d < a->n_top; d++) iv[a->top_hidden[d]].hi = a->hidden_lengths[a->top_hidden[d]] - 1;
    for (int i = a->n_transforms - 1; i >= 0; i--) {
        const layout_transform *t = &a->transforms[i];
        layout_interval up[LAYOUT_MAX_TRANSFORM_DIMS], low[LAYOUT_MAX_TRANSFORM_DIMS];
        for (int j = 0; j < t->n_upper; j++) up[j] = iv[a->upper_hidden[i].ids[j]];
        if (layout_kind_table[t->kind].range(t, up, low)) {
            *bad = i;
            return 1;
        }
        for (int j = 0; j < t->n_lower; j++) iv[a->lower_hidden[i].ids[j]] = low[j];
    }
    return 0;
}

layout_status layout_adaptor_build(const char *fn, layout_adaptor *out, int n_transforms,
                                   const layout_transform *transforms, const layout_seq *lower_hidden,
                                   const layout_seq *upper_hidden, int n_bottom, const int *bottom_hidden, int n_top,
                                   const int *top_hidden, layout_error *err)
{
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (n_transforms < 0 || n_transforms > LAYOUT_MAX_TRANSFORMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: n_transforms = %d must be in 0..%d", fn, n_transforms,
                           LAYOUT_MAX_TRANSFORMS);
    if (n_transforms > 0 && (!transforms || !lower_hidden || !upper_hidden))
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn,
                           !transforms ? "transforms" : !lower_hidden ? "lower_hidden" : "upper_hidden");
    if (n_bottom < 1 || n_bottom > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: n_bottom = %d must be in 1..%d", fn, n_bottom,
                           LAYOUT_MAX_DIMS);
    if (n_top < 1 || n_top > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: n_top = %d must be in 1..%d", fn, n_top, LAYOUT_MAX_DIMS);
    if (!bottom_hidden) return layout_fail(err, LAYOUT_ERR_NULL, "%s: bottom_hidden is NULL", fn);
    if (!top_hidden) return layout_fail(err, LAYOUT_ERR_NULL, "%s: top_hidden is NULL", fn);

    /* written_by[h]: transform writing h on its upper side, -2 for a bottom
     * dim, -1 nobody; read_by[h]: transform computing h on its lower side. */
    int written_by[LAYOUT_MAX_HIDDEN], read_by[LAYOUT_MAX_HIDDEN];
    int n_hidden = 0;
    for (int h = 0; h < LAYOUT_MAX_HIDDEN; h++) written_by[h] = read_by[h] = -1;
    for (int b = 0; b < n_bottom; b++) {
        int h = bottom_hidden[b];
        if (h < 0 || h >= LAYOUT_MAX_HIDDEN)
            return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: bottom_hidden[%d] = %d is not a hidden id (0..%d)", fn, b,
                               h, LAYOUT_MAX_HIDDEN - 1);
        if (written_by[h] == -2)
            return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: bottom_hidden[%d] = %d repeats an earlier bottom dim", fn,
                               b, h);
        written_by[h] = -2;
        if (h >= n_hidden) n_hidden = h + 1;
    }

    layout_adaptor a;
    memset(&a, 0, sizeof a);
    for (int i = 0; i < n_transforms; i++) {
        const layout_transform *t = &transforms[i];
        layout_error inner;
        layout_status st = layout_transform_check(t, &inner);
        if (st) return layout_fail(err, st, "%s: transforms[%d]: %s", fn, i, inner.message);
        const char *kind = layout_transform_kind_name(t->kind);
        if ((st = check_seq(fn, "lower_hidden", i, &lower_hidden[i], t->n_lower, "lower", kind, err)) ||
            (st = check_seq(fn, "upper_hidden", i, &upper_hidden[i], t->n_upper, "upper", kind, err)))
            return st;
        for (int j = 0; j < t->n_lower; j++) {
            int h = lower_hidden[i].ids[j];
            if (written_by[h] == -1)
                return layout_fail(err, LAYOUT_ERR_DIM_ID,
                                   "%s: lower_hidden[%d].ids[%d] = %d is neither a bottom dim nor written by an earlier "
                                   "transform",
                                   fn, i, j, h);
            if (read_by[h] != -1)
                return layout_fail(err, LAYOUT_ERR_DIM_ID,
                                   "%s: lower_hidden[%d].ids[%d] = %d is already computed by transforms[%d]", fn, i, j,
                                   h, read_by[h]);
            read_by[h] = i;
        }
        for (int j = 0; j < t->n_upper; j++) {
            int h = upper_hidden[i].ids[j];
            if (written_by[h] != -1)
                return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: upper_hidden[%d].ids[%d] = %d is already %s", fn, i, j,
                                   h, written_by[h] == -2 ? "a bottom dim" : "written by an earlier transform");
            written_by[h] = i;
            a.hidden_lengths[h] = t->upper_lengths[j];
            if (h >= n_hidden) n_hidden = h + 1;
        }
        a.transforms[i] = *t;
        a.lower_hidden[i] = lower_hidden[i];
        a.upper_hidden[i] = upper_hidden[i];
    }

    int64_t top_size = 1;
    for (int p = 0; p < n_top; p++) {
        int h = top_hidden[p];
        if (h < 0 || h >= LAYOUT_MAX_HIDDEN)
            return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: top_hidden[%d] = %d is not a hidden id (0..%d)", fn, p, h,
                               LAYOUT_MAX_HIDDEN - 1);
        if (written_by[h] < 0)
            return layout_fail(err, LAYOUT_ERR_DIM_ID,
                               "%s: top_hidden[%d] = %d is not written by any transform (a top dim needs a length)", fn,
                               p, h);
        if (read_by[h] != -1)
            return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: top_hidden[%d] = %d is also computed by transforms[%d]", fn,
                               p, h, read_by[h]);
        for (int q = 0; q < p; q++)
            if (top_hidden[q] == h)
                return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: top_hidden[%d] = %d repeats top_hidden[%d]", fn, p, h,
                                   q);
        if (layout_mul_overflow(top_size, a.hidden_lengths[h], &top_size))
            return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: the product of the top lengths overflows int64", fn);
    }

    a.n_transforms = n_transforms;
    a.n_hidden = n_hidden;
    a.n_bottom = n_bottom;
    a.n_top = n_top;
    memcpy(a.bottom_hidden, bottom_hidden, (size_t)n_bottom * sizeof *bottom_hidden);
    memcpy(a.top_hidden, top_hidden, (size_t)n_top * sizeof *top_hidden);

    layout_interval iv[LAYOUT_MAX_HIDDEN];
    int bad;
    if (bound_hidden(&a, iv, &bad))
        return layout_fail(err, LAYOUT_ERR_OVERFLOW,
                           "%s: transforms[%d] (%s) can overflow int64 for some in-range top index", fn, bad,
                           layout_transform_kind_name(a.transforms[bad].kind));
    *out = a;
    return layout_ok(err);
}

layout_status layout_adaptor_from_hidden(layout_adaptor *out, int n_transforms, const layout_transform *transforms,
                                         const layout_seq *lower_hidden, const layout_seq *upper_hidden,
                                         int n_bottom, const int *bottom_hidden, int n_top, const int *top_hidden,
                                         layout_error *err)
{
    return layout_adaptor_build("layout_adaptor_from_hidden", out, n_transforms, transforms, lower_hidden,
                                upper_hidden, n_bottom, bottom_hidden, n_top, top_hidden, err);
}

/* The ids of seqs[0..n_seqs) together are a permutation of 0..n_expected-1. */
static layout_status check_id_permutation(const char *fn, const char *arg, int n_seqs, const layout_seq *seqs,
                                          int n_expected, layout_error *err)
{
    int seen[LAYOUT_MAX_TRANSFORMS * LAYOUT_MAX_TRANSFORM_DIMS];
    if (n_expected > LAYOUT_MAX_TRANSFORMS * LAYOUT_MAX_TRANSFORM_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %s lists %d ids, more than the capacity", fn, arg,
                           n_expected);
    for (int k = 0; k < n_expected; k++) seen[k] = 0;
    int total = 0;
    for (int i = 0; i < n_seqs; i++) {
        if (seqs[i].n < 0 || seqs[i].n > LAYOUT_MAX_TRANSFORM_DIMS)
            return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %s[%d].n = %d must be in 0..%d", fn, arg, i, seqs[i].n,
                               LAYOUT_MAX_TRANSFORM_DIMS);
        for (int j = 0; j < seqs[i].n; j++) {
            int id = seqs[i].ids[j];
            if (id < 0 || id >= n_expected)
                return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: %s[%d].ids[%d] = %d is not in 0..%d", fn, arg, i, j, id,
                                   n_expected - 1);
            if (seen[id])
                return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: %s[%d].ids[%d] = %d appears twice (not a permutation)",
                                   fn, arg, i, j, id);
            seen[id] = 1;
            total++;
        }
    }
    if (total != n_expected) {
        int missing = 0;
        while (missing < n_expected && seen[missing]) missing++;
        return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: %s misses dim %d (not a permutation of 0..%d)", fn, arg,
                           missing, n_expected - 1);
    }
    return LAYOUT_OK;
}

/* Total number of ids listed, or -1 if some n is out of range. */
static int count_ids(int n_seqs, const layout_seq *seqs)
{
    int total = 0;
    for (int i = 0; i < n_seqs; i++) {
        if (seqs[i].n < 0 || seqs[i].n > LAYOUT_MAX_TRANSFORM_DIMS) return -1;
        total += seqs[i].n;
    }
    return total;
}

/* Common front checks of the two stage builders. */
static layout_status check_stage_args(const char *fn, int n_transforms, const layout_transform *transforms,
                                      const layout_seq *lower_ids, const layout_seq *upper_ids, layout_error *err)
{
    if (n_transforms < 1 || n_transforms > LAYOUT_MAX_TRANSFORMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: n_transforms = %d must be in 1..%d", fn, n_transforms,
                           LAYOUT_MAX_TRANSFORMS);
    if (!transforms) return layout_fail(err, LAYOUT_ERR_NULL, "%s: transforms is NULL", fn);
    if (!lower_ids) return layout_fail(err, LAYOUT_ERR_NULL, "%s: lower_ids is NULL", fn);
    if (!upper_ids) return layout_fail(err, LAYOUT_ERR_NULL, "%s: upper_ids is NULL", fn);
    for (int i = 0; i < n_transforms; i++) {
        const char *side = NULL;
        int have = 0, want = 0;
        if (lower_ids[i].n != transforms[i].n_lower) {
            side = "lower";
            have = lower_ids[i].n;
            want = transforms[i].n_lower;
        } else if (upper_ids[i].n != transforms[i].n_upper) {
            side = "upper";
            have = upper_ids[i].n;
            want = transforms[i].n_upper;
        }
        if (side)
            return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: transforms[%d] (%s) takes %d %s dims but %s_ids[%d] has %d",
                               fn, i, layout_transform_kind_name(transforms[i].kind), want, side, side, i, have);
    }
    return LAYOUT_OK;
}

layout_status layout_adaptor_single_stage(layout_adaptor *out, int n_transforms, const layout_transform *transforms,
                                          const layout_seq *lower_ids, const layout_seq *upper_ids,
                                          layout_error *err)
{
    static const char fn[] = "layout_adaptor_single_stage";
    layout_status st;
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if ((st = check_stage_args(fn, n_transforms, transforms, lower_ids, upper_ids, err))) return st;
    int n_bottom = count_ids(n_transforms, lower_ids), n_top = count_ids(n_transforms, upper_ids);
    if (n_bottom < 1 || n_bottom > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: lower_ids list %d bottom dims, must be 1..%d", fn, n_bottom,
                           LAYOUT_MAX_DIMS);
    if (n_top < 1 || n_top > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: upper_ids list %d top dims, must be 1..%d", fn, n_top,
                           LAYOUT_MAX_DIMS);
    if ((st = check_id_permutation(fn, "lower_ids", n_transforms, lower_ids, n_bottom, err)) ||
        (st = check_id_permutation(fn, "upper_ids", n_transforms, upper_ids, n_top, err)))
        return st;
    layout_seq up_hidden[LAYOUT_MAX_TRANSFORMS];
    int bottom[LAYOUT_MAX_DIMS], top[LAYOUT_MAX_DIMS];
    for (int i = 0; i < n_transforms; i++) {
        up_hidden[i] = upper_ids[i];
        for (int j = 0; j < up_hidden[i].n; j++) up_hidden[i].ids[j] += n_bottom;
    }
    for (int b = 0; b < n_bottom; b++) bottom[b] = b;
    for (int p = 0; p < n_top; p++) top[p] = n_bottom + p;
    return layout_adaptor_build(fn, out, n_transforms, transforms, lower_ids, up_hidden, n_bottom, bottom, n_top, top,
                                err);
}

layout_status layout_adaptor_stage(const char *fn, layout_adaptor *out, const layout_adaptor *in, int n_transforms,
                                   const layout_transform *transforms, const layout_seq *lower_ids,
                                   const layout_seq *upper_ids, layout_error *err)
{
    layout_status st;
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (!in) return layout_fail(err, LAYOUT_ERR_NULL, "%s: in is NULL", fn);
    if ((st = check_stage_args(fn, n_transforms, transforms, lower_ids, upper_ids, err))) return st;
    if (in->n_transforms + n_transforms > LAYOUT_MAX_TRANSFORMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %d + n_transforms = %d transforms exceed the capacity %d", fn,
                           in->n_transforms, n_transforms, LAYOUT_MAX_TRANSFORMS);
    int n_new = count_ids(n_transforms, upper_ids);
    if (n_new < 1 || n_new > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: upper_ids list %d new top dims, must be 1..%d", fn, n_new,
                           LAYOUT_MAX_DIMS);
    if (in->n_hidden + n_new > LAYOUT_MAX_HIDDEN)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %d + %d hidden dims exceed the capacity %d", fn,
                           in->n_hidden, n_new, LAYOUT_MAX_HIDDEN);
    if ((st = check_id_permutation(fn, "lower_ids", n_transforms, lower_ids, in->n_top, err)) ||
        (st = check_id_permutation(fn, "upper_ids", n_transforms, upper_ids, n_new, err)))
        return st;

    layout_transform ts[LAYOUT_MAX_TRANSFORMS];
    layout_seq low[LAYOUT_MAX_TRANSFORMS], up[LAYOUT_MAX_TRANSFORMS];
    int top[LAYOUT_MAX_DIMS];
    int n_old = in->n_transforms, next_hidden = in->n_hidden;
    memcpy(ts, in->transforms, (size_t)n_old * sizeof *ts);
    memcpy(low, in->lower_hidden, (size_t)n_old * sizeof *low);
    memcpy(up, in->upper_hidden, (size_t)n_old * sizeof *up);
    for (int i = 0; i < n_transforms; i++) {
        ts[n_old + i] = transforms[i];
        low[n_old + i] = lower_ids[i];
        up[n_old + i] = upper_ids[i];
        for (int j = 0; j < lower_ids[i].n; j++) low[n_old + i].ids[j] = in->top_hidden[lower_ids[i].ids[j]];
        for (int j = 0; j < upper_ids[i].n; j++) {
            top[upper_ids[i].ids[j]] = next_hidden;
            up[n_old + i].ids[j] = next_hidden++;
        }
    }
    return layout_adaptor_build(fn, out, n_old + n_transforms, ts, low, up, in->n_bottom, in->bottom_hidden, n_new,
                                top, err);
}

layout_status layout_adaptor_transform(layout_adaptor *out, const layout_adaptor *in, int n_transforms,
                                       const layout_transform *transforms, const layout_seq *lower_ids,
                                       const layout_seq *upper_ids, layout_error *err)
{
    return layout_adaptor_stage("layout_adaptor_transform", out, in, n_transforms, transforms, lower_ids, upper_ids,
                                err);
}

/* --------------------------------------------------------------- queries */

int layout_adaptor_top_ndims(const layout_adaptor *a)
{
    return a ? a->n_top : 0;
}

int layout_adaptor_bottom_ndims(const layout_adaptor *a)
{
    return a ? a->n_bottom : 0;
}

int64_t layout_adaptor_top_length(const layout_adaptor *a, int dim)
{
    if (!a || dim < 0 || dim >= a->n_top) return -1;
    return a->hidden_lengths[a->top_hidden[dim]];
}

int64_t layout_adaptor_top_size(const layout_adaptor *a)
{
    if (!a) return -1;
    int64_t n = 1;
    for (int d = 0; d < a->n_top; d++) n *= a->hidden_lengths[a->top_hidden[d]];
    return n;
}

/* ------------------------------------------------------------ evaluation */

void layout_adaptor_calculate_hidden_unchecked(const layout_adaptor *a, const int64_t *top, int64_t *hidden)
{
    memset(hidden, 0, (size_t)a->n_hidden * sizeof *hidden);
    for (int d = 0; d < a->n_top; d++) hidden[a->top_hidden[d]] = top[d];
    for (int i = a->n_transforms - 1; i >= 0; i--) {
        const layout_transform *t = &a->transforms[i];
        const layout_seq *us = &a->upper_hidden[i], *ls = &a->lower_hidden[i];
        int64_t up[LAYOUT_MAX_TRANSFORM_DIMS], low[LAYOUT_MAX_TRANSFORM_DIMS];
        for (int j = 0; j < us->n; j++) up[j] = hidden[us->ids[j]];
        layout_kind_table[t->kind].lower(t, up, low);
        for (int j = 0; j < ls->n; j++) hidden[ls->ids[j]] = low[j];
    }
}

void layout_adaptor_calculate_bottom_unchecked(const layout_adaptor *a, const int64_t *top, int64_t *bottom)
{
    int64_t hidden[LAYOUT_MAX_HIDDEN];
    layout_adaptor_calculate_hidden_unchecked(a, top, hidden);
    for (int b = 0; b < a->n_bottom; b++) bottom[b] = hidden[a->bottom_hidden[b]];
}

/* 0 <= top[d] < top length d for every d, else LAYOUT_ERR_RANGE naming coord[d]. */
static layout_status adaptor_check_top(const char *fn, const layout_adaptor *a, const int64_t *top,
                                       layout_error *err)
{
    for (int d = 0; d < a->n_top; d++) {
        int64_t len = a->hidden_lengths[a->top_hidden[d]];
        if (top[d] < 0 || top[d] >= len)
            return layout_fail(err, LAYOUT_ERR_RANGE, "%s: coord[%d] = %" PRId64 " is outside 0..%" PRId64, fn, d,
                               top[d], len - 1);
    }
    return LAYOUT_OK;
}

layout_status layout_check_query(const char *fn, const void *obj, const char *obj_name, const layout_adaptor *a,
                                 const int64_t *coord, const char *coord_name, const void *out, const char *out_name,
                                 layout_error *err)
{
    const char *missing = !obj ? obj_name : !coord ? coord_name : !out ? out_name : NULL;
    if (missing) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, missing);
    return adaptor_check_top(fn, a, coord, err);
}

layout_status layout_adaptor_calculate_bottom(const layout_adaptor *a, const int64_t *top, int64_t *bottom,
                                              layout_error *err)
{
    layout_status st =
        layout_check_query("layout_adaptor_calculate_bottom", a, "a", a, top, "top", bottom, "bottom", err);
    if (st) return st;
    layout_adaptor_calculate_bottom_unchecked(a, top, bottom);
    return layout_ok(err);
}

int layout_adaptor_eval(const layout_adaptor *a, const int64_t *top, int64_t *hidden)
{
    layout_adaptor_calculate_hidden_unchecked(a, top, hidden);
    for (int i = 0; i < a->n_transforms; i++) {
        const layout_transform *t = &a->transforms[i];
        if (!layout_kind_table[t->kind].valid) continue;
        int64_t up[LAYOUT_MAX_TRANSFORM_DIMS];
        for (int j = 0; j < a->upper_hidden[i].n; j++) up[j] = hidden[a->upper_hidden[i].ids[j]];
        if (!layout_kind_table[t->kind].valid(t, up)) return 0;
    }
    return 1;
}

int layout_adaptor_is_valid_unchecked(const layout_adaptor *a, const int64_t *top)
{
    int64_t hidden[LAYOUT_MAX_HIDDEN];
    return layout_adaptor_eval(a, top, hidden);
}

/* ------------------------------------------------------------ vector hints */

layout_status layout_adaptor_vector_hints(const layout_adaptor *a, const int64_t *guaranteed_lengths,
                                          const int64_t *guaranteed_strides, int64_t *lengths, int64_t *strides,
                                          layout_error *err)
{
    static const char fn[] = "layout_adaptor_vector_hints";
    if (!a || !lengths || !strides)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !a ? "a" : !lengths ? "lengths" : "strides");
    int64_t vl[LAYOUT_MAX_HIDDEN], vs[LAYOUT_MAX_HIDDEN];
    for (int h = 0; h < LAYOUT_MAX_HIDDEN; h++) {
        vl[h] = guaranteed_lengths && h < a->n_hidden ? guaranteed_lengths[h] : -1;
        vs[h] = guaranteed_strides && h < a->n_hidden ? guaranteed_strides[h] : -1;
    }
    for (int i = 0; i < a->n_transforms; i++) {
        const layout_transform *t = &a->transforms[i];
        const layout_seq *ls = &a->lower_hidden[i], *us = &a->upper_hidden[i];
        int64_t ll[LAYOUT_MAX_TRANSFORM_DIMS], lst[LAYOUT_MAX_TRANSFORM_DIMS];
        int64_t ul[LAYOUT_MAX_TRANSFORM_DIMS], ust[LAYOUT_MAX_TRANSFORM_DIMS];
        for (int j = 0; j < ls->n; j++) {
            ll[j] = vl[ls->ids[j]];
            lst[j] = vs[ls->ids[j]];
        }
        layout_kind_table[t->kind].hint(t, ll, lst, ul, ust);
        for (int j = 0; j < us->n; j++) {
            int h = us->ids[j];
            int64_t gl = guaranteed_lengths ? guaranteed_lengths[h] : -1;
            int64_t gs = guaranteed_strides ? guaranteed_strides[h] : -1;
            vl[h] = gl != -1 ? gl : ul[j];
            vs[h] = gs != -1 ? gs : ust[j];
        }
    }
    for (int d = 0; d < a->n_top; d++) {
        lengths[d] = vl[a->top_hidden[d]];
        strides[d] = vs[a->top_hidden[d]];
    }
    return layout_ok(err);
}

/* ----------------------------------------------------------------- print */

static void print_ids(layout_strbuf *sb, int n, const int *ids)
{
    layout_sb_printf(sb, "[");
    for (int j = 0; j < n; j++) layout_sb_printf(sb, "%sh%d", j ? ", " : "", ids[j]);
    layout_sb_printf(sb, "]");
}

void layout_adaptor_print_to(const layout_adaptor *a, layout_strbuf *sb)
{
    layout_sb_printf(sb, "  bottom: ");
    print_ids(sb, a->n_bottom, a->bottom_hidden);
    layout_sb_printf(sb, "\n");
    for (int i = 0; i < a->n_transforms; i++) {
        char text[512];
        layout_transform_print(&a->transforms[i], text, sizeof text);
        layout_sb_printf(sb, "  t%d: %s  ", i, text);
        print_ids(sb, a->lower_hidden[i].n, a->lower_hidden[i].ids);
        layout_sb_printf(sb, " <- ");
        print_ids(sb, a->upper_hidden[i].n, a->upper_hidden[i].ids);
        layout_sb_printf(sb, "\n");
    }
    layout_sb_printf(sb, "  top: ");
    print_ids(sb, a->n_top, a->top_hidden);
    layout_sb_printf(sb, " lengths ");
    int64_t lens[LAYOUT_MAX_DIMS];
    for (int d = 0; d < a->n_top; d++) lens[d] = a->hidden_lengths[a->top_hidden[d]];
    layout_sb_list(sb, a->n_top, lens);
    layout_sb_printf(sb, "\n");
}

int layout_adaptor_print(const layout_adaptor *a, char *buf, size_t cap)
{
    layout_strbuf sb;
    layout_sb_init(&sb, buf, cap);
    if (!a) return -1;
    layout_sb_printf(&sb, "adaptor: %d transforms, %d hidden dims\n", a->n_transforms, a->n_hidden);
    layout_adaptor_print_to(a, &sb);
    return layout_sb_result(&sb);
}
