/* Triton's distributed layouts (#ttg.blocked, #ttg.linear) as tile
 * distributions and lane tables on a shape. */
#include "triton_internal.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- distributions */

/* One digit of dim d: H entry or (for the broadcast part) R entry. */
static layout_status blocked_to_dist(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                     layout_distribution *out, layout_error *err)
{
    layout_dist_encoding enc;
    int d, k, wave = 1, warps = 1;
    /* per dim: digit lengths (rep, warp, lane, reg) after broadcast; bcast warp / lane parts */
    int64_t rep[LAYOUT_MAX_DIMS], wh[LAYOUT_MAX_DIMS], wr[LAYOUT_MAX_DIMS], lh[LAYOUT_MAX_DIMS], lr[LAYOUT_MAX_DIMS];
    int h_rep[LAYOUT_MAX_DIMS], h_w[LAYOUT_MAX_DIMS], h_l[LAYOUT_MAX_DIMS], h_e[LAYOUT_MAX_DIMS];
    int r_w[LAYOUT_MAX_DIMS], r_l[LAYOUT_MAX_DIMS];
    if (n_shape != a->rank)
        return layout_fail(err, LAYOUT_ERR_ARG, "layout_triton_to_dist: the blocked layout has rank %d; --shape gives %d "
                                                "values", a->rank, n_shape);
    if (a->rank > LAYOUT_MAX_DIMS) /* Triton's sort ranks: a linear layout (layout_triton_to_linear) reads them */
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "layout_triton_to_dist: a tile distribution has at most %d dims, "
                           "the blocked layout %d", LAYOUT_MAX_DIMS, a->rank);
    memset(&enc, 0, sizeof enc);
    for (d = 0; d < a->rank; d++) {
        int64_t cta = a->size_per_thread[d] * a->threads_per_warp[d] * a->warps_per_cta[d], k_b;
        if (!layout_is_pow2(shape[d]))
            return layout_fail(err, LAYOUT_ERR_ARG, "layout_triton_to_dist: shape[%d] = %lld is not a power of two", d,
                               (long long)shape[d]);
        wave *= (int)a->threads_per_warp[d];
        warps *= (int)a->warps_per_cta[d];
        if (wave > LAYOUT_MAX_LANES || warps > 1024)
            return layout_fail(err, LAYOUT_ERR_ARG, "layout_triton_to_dist: more than %d lanes or 1024 warps",
                               LAYOUT_MAX_LANES);
        rep[d] = shape[d] >= cta ? shape[d] / cta : 1;
        k_b = shape[d] >= cta ? 1 : cta / shape[d]; /* broadcast factor: warps first, then lanes */
        /* sizePerThread[d] <= shape[d] here: broadcast registers go through blocked_to_table(). */
        wr[d] = k_b < a->warps_per_cta[d] ? k_b : a->warps_per_cta[d];
        wh[d] = a->warps_per_cta[d] / wr[d];
        k_b /= wr[d];
        lr[d] = k_b;
        lh[d] = a->threads_per_warp[d] / lr[d];
    }
    /* R: broadcast warp parts then lane parts, dim by dim. */
    enc.n_x = a->rank;
    for (d = 0; d < a->rank; d++) {
        r_w[d] = r_l[d] = -1;
        if (wr[d] > 1) {
            r_w[d] = enc.n_r;
            enc.r[enc.n_r++] = wr[d];
        }
        if (lr[d] > 1) {
            r_l[d] = enc.n_r;
            enc.r[enc.n_r++] = lr[d];
        }
        /* H_d = [rep, warp, lane, reg], length-1 digits dropped (at least one kept) */
        h_rep[d] = h_w[d] = h_l[d] = h_e[d] = -1;
        if (rep[d] > 1) {
            h_rep[d] = enc.n_h[d];
            enc.h[d][enc.n_h[d]++] = rep[d];
        }
        if (wh[d] > 1) {
            h_w[d] = enc.n_h[d];
            enc.h[d][enc.n_h[d]++] = wh[d];
        }
        if (lh[d] > 1) {
            h_l[d] = enc.n_h[d];
            enc.h[d][enc.n_h[d]++] = lh[d];
        }
        if (a->size_per_thread[d] > 1 || enc.n_h[d] == 0) {
            h_e[d] = enc.n_h[d];
            enc.h[d][enc.n_h[d]++] = a->size_per_thread[d];
        }
    }
    /* P0 = warp, P1 = lane: slowest dim (order[rank-1]) first, broadcast part above the kept part. */
    enc.n_p = 2;
    for (k = a->rank - 1; k >= 0; k--) {
        d = a->order[k];
        if (r_w[d] >= 0) {
            enc.p_major[0][enc.n_p_rh[0]] = 0;
            enc.p_minor[0][enc.n_p_rh[0]++] = r_w[d];
        }
        if (h_w[d] >= 0) {
            enc.p_major[0][enc.n_p_rh[0]] = d + 1;
            enc.p_minor[0][enc.n_p_rh[0]++] = h_w[d];
        }
        if (r_l[d] >= 0) {
            enc.p_major[1][enc.n_p_rh[1]] = 0;
            enc.p_minor[1][enc.n_p_rh[1]++] = r_l[d];
        }
        if (h_l[d] >= 0) {
            enc.p_major[1][enc.n_p_rh[1]] = d + 1;
            enc.p_minor[1][enc.n_p_rh[1]++] = h_l[d];
        }
    }
    /* A P with no digit (one warp / one lane): an R entry of length 1. */
    for (k = 0; k < 2; k++)
        if (enc.n_p_rh[k] == 0) {
            enc.r[enc.n_r] = 1;
            enc.p_major[k][0] = 0;
            enc.p_minor[k][0] = enc.n_r++;
            enc.n_p_rh[k] = 1;
        }
    /* Y, most significant first: repetitions, then registers, each with
     * order[rank-1] first (Triton appends the repetition bits per out dim in
     * the CTA layout's minor-to-major order: ensureLayoutNotSmallerThan). */
    for (k = a->rank - 1; k >= 0; k--) {
        d = a->order[k];
        if (h_rep[d] >= 0) {
            enc.y_major[enc.n_y] = d + 1;
            enc.y_minor[enc.n_y++] = h_rep[d];
        }
    }
    for (k = a->rank - 1; k >= 0; k--) {
        d = a->order[k];
        if (h_e[d] >= 0) {
            enc.y_major[enc.n_y] = d + 1;
            enc.y_minor[enc.n_y++] = h_e[d];
        }
    }
    if (enc.n_y == 0) { /* one element per thread: Y names a length-1 digit (least significant) of order[0] */
        d = a->order[0];
        enc.h[d][enc.n_h[d]] = 1;
        enc.y_major[0] = d + 1;
        enc.y_minor[0] = enc.n_h[d]++;
        enc.n_y = 1;
    }
    return layout_dist_make(out, &enc, wave, warps, n_shape, shape, err);
}

/* Broadcast registers (sizePerThread[d] > shape[d]): Triton's layout over the
 * shape enlarged to the CTA tile, then every coordinate taken modulo the
 * shape (Triton's ensureLayoutNotLargerThan zeroes the bases that reach past
 * the shape; blocked bases are single bits, so that is the same map), written
 * as a table distribution into the caller's table. */
static layout_status blocked_to_table(const layout_triton_attr *a, int n_shape, const int64_t *shape, int64_t *table,
                                      size_t table_cap, layout_distribution *out, layout_error *err)
{
    layout_distribution big;
    layout_status st;
    int64_t enlarged[LAYOUT_MAX_DIMS], need, i = 0, e;
    int d, w, l;
    if (n_shape != a->rank || a->rank > LAYOUT_MAX_DIMS) return blocked_to_dist(a, n_shape, shape, out, err); /* its message */
    for (d = 0; d < a->rank; d++) {
        int64_t cta = a->size_per_thread[d] * a->threads_per_warp[d] * a->warps_per_cta[d];
        if (!layout_is_pow2(shape[d])) return blocked_to_dist(a, n_shape, shape, out, err); /* its shape message */
        enlarged[d] = shape[d] > cta ? shape[d] : cta;
    }
    if ((st = blocked_to_dist(a, n_shape, enlarged, &big, err))) return st;
    need = (int64_t)big.n_warps * big.wave_size * big.elems_per_thread * a->rank;
    if (!table || (int64_t)table_cap < need)
        return layout_fail(err, table ? LAYOUT_ERR_BUFFER : LAYOUT_ERR_UNSUPPORTED,
                           "layout_triton_to_dist: sizePerThread exceeds the shape (broadcast registers): needs a "
                           "table of %lld values, %s",
                           (long long)need, table ? "the table is smaller" : "none given");
    for (w = 0; w < big.n_warps; w++)
        for (l = 0; l < big.wave_size; l++)
            for (e = 0; e < big.elems_per_thread; e++, i += a->rank) {
                if ((st = layout_dist_coord_elem(&big, w, l, e, table + i, err))) return st;
                for (d = 0; d < a->rank; d++) table[i + d] &= shape[d] - 1;
            }
    return layout_dist_from_table(out, a->rank, shape, big.wave_size, big.n_warps, big.elems_per_thread, table, err);
}

static int blocked_broadcasts_registers(const layout_triton_attr *a, int n_shape, const int64_t *shape)
{
    int d;
    for (d = 0; d < a->rank && d < n_shape; d++)
        if (a->size_per_thread[d] > shape[d]) return 1;
    return 0;
}

layout_status layout_triton_to_dist(const layout_triton_attr *a, int n_shape, const int64_t *shape, int64_t *table,
                                    size_t table_cap, layout_distribution *out, layout_error *err)
{
    if (!a || !out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_to_dist: NULL argument");
    if (a->kind == LAYOUT_TRITON_BLOCKED) {
        if (!shape) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_to_dist: #ttg.blocked needs a shape");
        if (blocked_broadcasts_registers(a, n_shape, shape))
            return blocked_to_table(a, n_shape, shape, table, table_cap, out, err);
        return blocked_to_dist(a, n_shape, shape, out, err);
    }
    if (a->kind == LAYOUT_TRITON_LINEAR) {
        const layout_linear *ll = &a->linear;
        layout_linear trimmed;
        int blk = layout_linear_in_dim(ll, "block");
        if (blk >= 0) {
            layout_status st = layout_triton_drop_empty_block(ll, &trimmed, err);
            if (st) return st;
            ll = &trimmed;
        }
        return layout_linear_to_dist(ll, table, table_cap, out, err);
    }
    if (a->kind == LAYOUT_TRITON_AMD_MFMA || a->kind == LAYOUT_TRITON_AMD_WMMA || a->kind == LAYOUT_TRITON_NVIDIA_MMA ||
        a->kind == LAYOUT_TRITON_DOT_OPERAND || a->kind == LAYOUT_TRITON_SLICE) {
        /* Triton's linear layout (triton_mma.c) as a table distribution. */
        layout_linear ll;
        layout_status st;
        size_t need;
        if (!shape) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_to_dist: this attribute needs a shape");
        if ((st = layout_triton_to_linear(a, n_shape, shape, &ll, err))) return st;
        need = ((size_t)1 << ll.total_in_bits) * (size_t)ll.n_out;
        if (!table || table_cap < need)
            return layout_fail(err, table ? LAYOUT_ERR_BUFFER : LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_to_dist: this layout is a table distribution of %zu values, %s", need,
                               table ? "the table is smaller" : "no table given");
        return layout_linear_to_dist(&ll, table, table_cap, out, err);
    }
    return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                       "layout_triton_to_dist: a shared-memory attribute is a descriptor, not a distribution");
}
