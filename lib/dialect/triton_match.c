/* Recognising a descriptor or a distribution as a Triton attribute: the
 * swizzled_shared and padded_shared forms a descriptor has, the blocked
 * layout a distribution is. */
#include "triton_internal.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- recognition */

static int try_swizzled(const layout_descriptor *d, layout_triton_attr *out)
{
    int64_t tile[2], vec, pp, mp;
    int cd;
    tile[0] = layout_desc_length(d, 0);
    tile[1] = layout_desc_length(d, 1);
    for (cd = 1; cd >= 0; cd--) {
        int64_t R = tile[1 - cd], C = tile[cd];
        for (vec = 1; vec <= C; vec *= 2)
            for (pp = 1; pp <= R; pp *= 2)
                for (mp = 1; mp * vec <= C; mp *= 2) {
                    layout_family_params p;
                    layout_descriptor cand;
                    memset(&p, 0, sizeof p);
                    p.kind = LAYOUT_FAMILY_TRITON_SWIZZLED;
                    p.contiguous_dim = cd;
                    p.p[0] = vec;
                    p.p[1] = pp;
                    p.p[2] = mp;
                    if (layout_family_build(&p, tile, &cand, NULL) != LAYOUT_OK) continue;
                    if (layout_dx_first_difference(d, &cand) >= 0) continue;
                    memset(out, 0, sizeof *out);
                    out->kind = LAYOUT_TRITON_SWIZZLED_SHARED;
                    out->rank = 2;
                    out->order[0] = cd;
                    out->order[1] = 1 - cd;
                    out->vec = vec;
                    out->per_phase = pp;
                    out->max_phase = mp;
                    return 0;
                }
    }
    return -1;
}

/* Index i (in padded_shared's linear order) of a candidate sits at offset
 * off.  The pairs found so far place it at want = i + sum (i / I_k) * P_k;
 * a surplus starts a new pair [i:+surplus] when both are powers of two the
 * reader takes back (intervals <= 2^40, paddings <= 2^20).  0: consistent
 * (a pair added or none needed); -1: not padded_shared. */
static int take_pad(layout_triton_attr *a, int64_t i, int64_t off)
{
    int64_t want = i;
    for (int k = 0; k < a->n_pads; k++) want += (i / a->interval[k]) * a->pad[k];
    if (off == want) return 0;
    if (off < want || !layout_is_pow2(i) || !layout_is_pow2(off - want) || a->n_pads >= LAYOUT_TRITON_MAX_PADS ||
        i > TX_MAX_INTERVAL || off - want > TX_MAX_PAD)
        return -1;
    a->interval[a->n_pads] = i;
    a->pad[a->n_pads++] = off - want;
    return 0;
}

/* Identity linear component in `order`: offsets = i + sum (i / I_k) * P_k. */
static int try_padded(const layout_descriptor *d, int64_t total, const int *order, layout_triton_attr *out)
{
    layout_triton_attr a;
    int n = layout_desc_ndims(d), k, j, bit = 0;
    int64_t i, coord[LAYOUT_MAX_DIMS];
    memset(&a, 0, sizeof a);
    a.kind = LAYOUT_TRITON_PADDED_SHARED;
    a.rank = n;
    a.has_shape = 1;
    for (k = 0; k < n; k++) {
        int dim = order[k];
        a.order[k] = dim;
        a.shape[dim] = layout_desc_length(d, dim);
        if (!layout_is_pow2(a.shape[dim])) return -1;
        for (j = 0; j < layout_log2_floor(a.shape[dim]); j++, bit++) {
            a.offset_dim[bit] = dim;
            a.offset_bit[bit] = j;
        }
    }
    a.n_offset_bits = bit;
    for (i = 0; i < total; i++) {
        int64_t rest = i;
        for (k = 0; k < n; k++) {
            coord[order[k]] = rest % a.shape[order[k]];
            rest /= a.shape[order[k]];
        }
        if (take_pad(&a, i, layout_desc_offset_unchecked(d, coord))) return -1;
    }
    if (a.n_pads == 0) return -1;
    *out = a;
    return 0;
}

/* padded_shared whose linear component is any permutation of the coordinate
 * bits (the long form `{offset = [[..]], block = []}`, e.g. the docs'
 * [16:+1] with rows 0 2 4 6 first).  The padded offset i + sum (i / I_k) * P_k
 * is increasing in i, so the unit coordinates sorted by offset give the bit
 * of i each one is; the pairs are then read off as in try_padded(). */
static int try_padded_permuted(const layout_descriptor *d, int64_t total, layout_triton_attr *out)
{
    layout_triton_attr a;
    int n = layout_desc_ndims(d), k, j, b, nb = 0;
    int dim_of[64], bit_of[64];
    int64_t unit_off[64], coord[LAYOUT_MAX_DIMS], i;
    memset(&a, 0, sizeof a);
    for (k = 0; k < n; k++) {
        int64_t len = layout_desc_length(d, k);
        if (!layout_is_pow2(len)) return -1;
        a.shape[k] = len;
        a.order[k] = n - 1 - k;
        for (j = 0; j < layout_log2_floor(len); j++) {
            memset(coord, 0, sizeof coord);
            coord[k] = (int64_t)1 << j;
            dim_of[nb] = k;
            bit_of[nb] = j;
            unit_off[nb++] = layout_desc_offset_unchecked(d, coord);
        }
    }
    for (b = 1; b < nb; b++) /* insertion sort by offset (at most 62 bits) */
        for (j = b; j > 0 && unit_off[j - 1] > unit_off[j]; j--) {
            int64_t t = unit_off[j];
            int td = dim_of[j], tb = bit_of[j];
            unit_off[j] = unit_off[j - 1];
            dim_of[j] = dim_of[j - 1];
            bit_of[j] = bit_of[j - 1];
            unit_off[j - 1] = t;
            dim_of[j - 1] = td;
            bit_of[j - 1] = tb;
        }
    a.kind = LAYOUT_TRITON_PADDED_SHARED;
    a.rank = n;
    a.has_shape = 1;
    a.n_offset_bits = nb;
    for (b = 0; b < nb; b++) {
        a.offset_dim[b] = dim_of[b];
        a.offset_bit[b] = bit_of[b];
    }
    for (i = 0; i < total; i++) {
        memset(coord, 0, sizeof coord);
        for (b = 0; b < nb; b++)
            if ((i >> b) & 1) coord[dim_of[b]] |= (int64_t)1 << bit_of[b];
        if (take_pad(&a, i, layout_desc_offset_unchecked(d, coord))) return -1;
    }
    if (a.n_pads == 0) return -1; /* no padding: swizzled_shared or shared_linear express it */
    *out = a;
    return 0;
}

layout_status layout_triton_from_desc(const layout_descriptor *d, layout_triton_attr *out, layout_error *err)
{
    int64_t total, k, coord[LAYOUT_MAX_DIMS];
    int n, order[LAYOUT_MAX_DIMS] = {0}, j;
    if (!d || !out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_from_desc: NULL argument");
    if ((total = layout_dx_tile_size(d, "layout_triton_from_desc", err)) < 0) return LAYOUT_ERR_UNSUPPORTED;
    n = layout_desc_ndims(d);
    for (k = 0; k < total; k++) {
        int valid = 1;
        layout_dx_coord(d, k, coord);
        layout_desc_is_valid(d, coord, &valid, NULL);
        if (!valid)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_from_desc: coordinate %lld (row-major) is padding; Triton's shared "
                               "layouts have no invalid coordinates",
                               (long long)k);
    }
    if (n == 2 && try_swizzled(d, out) == 0) return layout_ok(err);
    for (j = 0; j < n; j++) order[j] = n - 1 - j;
    if (try_padded(d, total, order, out) == 0) return layout_ok(err);
    if (n == 2) {
        order[0] = 0;
        order[1] = 1;
        if (try_padded(d, total, order, out) == 0) return layout_ok(err);
    }
    if (try_padded_permuted(d, total, out) == 0) return layout_ok(err);
    {
        layout_linear fwd;
        layout_error lerr;
        if (layout_desc_to_linear(d, &fwd, &lerr) != LAYOUT_OK)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_from_desc: no swizzled_shared or padded_shared matches; shared_linear: "
                               "%.180s",
                               lerr.message);
        memset(out, 0, sizeof *out);
        if (!layout_linear_is_bijective(&fwd) || layout_linear_invert(&out->linear, &fwd, NULL) != LAYOUT_OK)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_from_desc: the layout is linear over F2 but not a bijection onto "
                               "0..2^k-1, which #ttg.shared_linear (offset -> coordinate) needs");
        if (total == 1 && n != 1)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_from_desc: a one-element tile of %d dims has no offset bases, and "
                               "#ttg.shared_linear<{offset = []}> cannot carry the rank",
                               n);
        /* Triton names the output dims dim0.., linear.h's inverse keeps them as they are */
        out->kind = LAYOUT_TRITON_LINEAR;
        out->shared_linear = 1;
        out->alignment = 16;
        out->rank = n;
        return layout_ok(err);
    }
}

layout_status layout_desc_to_triton(const layout_descriptor *d, char *buf, size_t cap, layout_error *err)
{
    layout_triton_attr a;
    layout_status st;
    if (!buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_desc_to_triton: buf is NULL");
    if ((st = layout_triton_from_desc(d, &a, err))) return st;
    return layout_triton_to_text(&a, buf, cap, err);
}

/* ---------------------------------------------------------------- blocked recognition */

/* 1 when a and b give the same X for every (warp, lane, register). */
static int same_dist(const layout_distribution *a, const layout_distribution *b)
{
    int w, l, j;
    int64_t e, xa[LAYOUT_MAX_DIMS], xb[LAYOUT_MAX_DIMS];
    if (a->n_warps != b->n_warps || a->wave_size != b->wave_size || a->elems_per_thread != b->elems_per_thread ||
        a->n_x != b->n_x)
        return 0;
    for (w = 0; w < a->n_warps; w++)
        for (l = 0; l < a->wave_size; l++)
            for (e = 0; e < a->elems_per_thread; e++) {
                if (layout_dist_coord_elem(a, w, l, e, xa, NULL) || layout_dist_coord_elem(b, w, l, e, xb, NULL))
                    return 0;
                for (j = 0; j < a->n_x; j++)
                    if (xa[j] != xb[j]) return 0;
            }
    return 1;
}

layout_status layout_triton_from_dist(const layout_distribution *d, layout_triton_attr *out, layout_error *err)
{
    layout_triton_attr a;
    int n, j, ord;
    int64_t s0, s1, t0, w0;
    if (!d || !out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_from_dist: NULL argument");
    n = d->n_x;
    if (n < 1 || n > 2)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "layout_triton_from_dist: %d tile dims (recognised: 1 or 2)", n);
    for (j = 0; j < n; j++)
        if (!layout_is_pow2(d->x_lengths[j]))
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_from_dist: X length %lld of dim %d is not a power of two",
                               (long long)d->x_lengths[j], j);
    if (!layout_is_pow2(d->wave_size) || !layout_is_pow2(d->n_warps) || (int64_t)d->wave_size * d->n_warps > 4096)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "layout_triton_from_dist: %d warps of %d lanes (powers of two needed)", d->n_warps,
                           d->wave_size);
    memset(&a, 0, sizeof a);
    a.kind = LAYOUT_TRITON_BLOCKED;
    a.rank = n;
    for (ord = 0; ord < n; ord++) {
        a.order[0] = n == 2 ? 1 - ord : 0;
        a.order[1] = ord;
        for (s0 = 1; s0 <= d->x_lengths[0]; s0 *= 2)
            for (s1 = 1; s1 <= (n == 2 ? d->x_lengths[1] : 1); s1 *= 2)
                for (t0 = 1; t0 <= d->wave_size; t0 *= 2)
                    for (w0 = 1; w0 <= d->n_warps; w0 *= 2) {
                        layout_distribution cand;
                        if (n == 1 && (t0 != d->wave_size || w0 != d->n_warps)) continue;
                        if (s0 * s1 > d->elems_per_thread) continue; /* registers never exceed the thread's */
                        a.size_per_thread[0] = s0;
                        a.threads_per_warp[0] = t0;
                        a.warps_per_cta[0] = w0;
                        if (n == 2) {
                            a.size_per_thread[1] = s1;
                            a.threads_per_warp[1] = d->wave_size / t0;
                            a.warps_per_cta[1] = d->n_warps / w0;
                        }
                        if (layout_triton_to_dist(&a, n, d->x_lengths, NULL, 0, &cand, NULL) != LAYOUT_OK) continue;
                        if (!same_dist(d, &cand)) continue;
                        *out = a;
                        return layout_ok(err);
                    }
    }
    return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                       "layout_triton_from_dist: no #ttg.blocked (any sizePerThread, threadsPerWarp, warpsPerCTA, "
                       "order) gives the same (warp, lane, register) -> coordinate map");
}
