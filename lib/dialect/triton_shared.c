/* Triton's #ttg.amd_rotating_shared and #ttg.nvmma_shared (and
 * #ttg.swizzled_shared) as the linear layouts Triton 3.6 builds for them,
 * offset -> (dim0, dim1) (layout_triton_shared_linear), from which
 * triton_desc.c builds nvmma_shared's descriptor; amd_rotating_shared's
 * descriptor is built here from ck_tile transforms (rotating_to_desc).
 *
 * Source: lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp of Triton's
 * 3.5 / 3.6 line, read through the public source index:
 *
 * - swizzledSharedToLinearLayout: offset bits are first the column bits
 *   (order[0]) as identity, then for each row bit `row` the basis
 *   (row, (vec * ((row / perPhase) % maxPhase)) % numCols).
 * - sharedToLinearLayoutAMDRotating: the same, except that the row basis
 *   uses phase ^ blockNo with phase = (row / perPhase) % maxPhase and
 *   blockNo = row / maxPhase / perPhase % maxPhase: after maxPhase*perPhase
 *   rows the pattern is rotated by the block number instead of repeating.
 * - nvmmaSharedToLinearLayout with getCoreMatrixLinearLayout and
 *   getTMABlockShape (TMAUtilities.cpp): with swizzlingByteWidth S != 0 the
 *   core tile is 8 rows x W = 8*S/elementBitWidth columns of the contiguous
 *   dim (dim1, or dim0 when transposed), row bit `row` in {1, 2, 4}
 *   xor-ing column vec * ((row / perPhase) % maxPhase) with vec =
 *   128/elementBitWidth, perPhase = 128/S, maxPhase = S/16 (Dialect.cpp
 *   getVec / getPerPhase / getMaxPhase); the rows then grow to the TMA
 *   box's extent min(strided size, 256) (ensureLayoutNotSmallerThan on the
 *   collapsed TMA shape), and the whole tile grows dim0 first, then dim1
 *   (ensureLayoutNotSmallerThan on the shape, out dims in order).  The
 *   contiguous extent must hold W columns and the strided one 8 rows
 *   (Triton's report_fatal_error otherwise).  S = 0: the identity over the
 *   TMA box min(size, 256) with dim1 fastest, then dim1, then dim0 beyond
 *   the box; `transposed` plays no part. */
#include "triton_internal.h"

#include <stdio.h>
#include <string.h>

#define FN_SL "layout_triton_shared_linear"

typedef struct shared_bases {
    int n;               /* offset bits */
    int64_t v[64][2];    /* offset bit b -> (dim0, dim1) */
} shared_bases;

static void push(shared_bases *b, int64_t d0, int64_t d1)
{
    b->v[b->n][0] = d0;
    b->v[b->n][1] = d1;
    b->n++;
}

/* (row, col) of the swizzled view -> (dim0, dim1): col is dim order[0]. */
static void push_rc(shared_bases *b, int col_dim, int64_t row, int64_t col)
{
    if (col_dim == 1)
        push(b, row, col);
    else
        push(b, col, row);
}

/* swizzled_shared (rotating = 0) and amd_rotating_shared (rotating = 1). */
static void swizzled_bases(const layout_triton_attr *a, const int64_t *shape, int rotating, shared_bases *b)
{
    int col_dim = a->order[0], row_dim = a->order[1];
    int64_t cols = shape[col_dim], rows = shape[row_dim], col, row;
    for (col = 1; col < cols; col *= 2) push_rc(b, col_dim, 0, col);
    for (row = 1; row < rows; row *= 2) {
        int64_t phase = (row / a->per_phase) % a->max_phase;
        if (rotating) phase ^= row / a->max_phase / a->per_phase % a->max_phase;
        push_rc(b, col_dim, row, (a->vec * phase) % cols);
    }
}

/* nvmma_shared (file comment). */
static layout_status nvmma_bases(const layout_triton_attr *a, const int64_t *shape, shared_bases *b, layout_error *err)
{
    int64_t box[2], i;
    int ebw = a->element_bit_width, sw = a->swizzling_byte_width;
    if (a->fp4_padded)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           FN_SL ": nvmma_shared with fp4Padded = true (two fp4 values padded to a byte pair) is not "
                                 "modelled");
    box[0] = shape[0] < 256 ? shape[0] : 256;
    box[1] = shape[1] < 256 ? shape[1] : 256;
    if (sw == 0) {
        for (i = 1; i < box[1]; i *= 2) push(b, 0, i);
        for (i = 1; i < box[0]; i *= 2) push(b, i, 0);
        for (i = box[1]; i < shape[1]; i *= 2) push(b, 0, i);
        for (i = box[0]; i < shape[0]; i *= 2) push(b, i, 0);
        return layout_ok(err);
    }
    {
        int contig = a->transposed ? 0 : 1, strided = 1 - contig;
        int64_t width = 8 * (int64_t)sw / ebw, vec = 128 / ebw, per_phase = 128 / sw, max_phase = sw / 16;
        int64_t rows = box[strided], row;
        if (width < 1 || box[contig] < width)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               FN_SL ": nvmma_shared swizzlingByteWidth = %d on %d-bit elements needs %lld elements "
                                     "along dim%d (the contiguous dim) within a TMA box of at most 256; the shape has %lld (Triton: \"Block shape is "
                                     "too small for the swizzle byte size\")",
                               sw, ebw, (long long)width, contig, (long long)shape[contig]);
        if (rows < 8)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               FN_SL ": nvmma_shared with swizzling needs at least 8 rows along dim%d; the shape has "
                                     "%lld (Triton: \"Illegal shared layout\")",
                               strided, (long long)shape[strided]);
        /* core matrix: W columns, then 8 swizzled rows, then the box's rows */
        for (i = 1; i < width; i *= 2) push_rc(b, contig, 0, i);
        for (row = 1; row < 8; row *= 2) push_rc(b, contig, row, vec * ((row / per_phase) % max_phase));
        for (row = 8; row < rows; row *= 2) push_rc(b, contig, row, 0);
        /* the rest of the shape: dim0 first, then dim1 */
        {
            int64_t have[2];
            int d;
            have[contig] = width;
            have[strided] = rows;
            for (d = 0; d < 2; d++)
                for (i = have[d]; i < shape[d]; i *= 2) {
                    if (d == 0)
                        push(b, i, 0);
                    else
                        push(b, 0, i);
                }
        }
    }
    return layout_ok(err);
}

static layout_status stage_pass(dx_stage *st, int64_t len, int lo, int up, layout_error *err)
{
    layout_transform t;
    layout_status s = layout_make_pass_through(len, &t, err);
    if (!s) layout_dx_stage_add(st, &t, 1, &lo, 1, &up);
    return s;
}

/* amd_rotating_shared as ck_tile transforms (a descriptor with a text form):
 * with G = C/vec column groups, P = min(maxPhase, G) and u = r / perPhase,
 * the group is xor-ed with u % P (the phase) and with (u / maxPhase) % P
 * (the block number), both taken modulo G as Triton's `% numCols` does:
 * naive [uh, ul, pp, G/P, P, vec] (u = uh * ul_len + ul), xor(ul, P) and
 * xor(uh, P) on the P digit, merges back to (r, c); order [0, 1] swaps the
 * top dims as family.h does. */
static layout_status rotating_to_desc(const layout_triton_attr *a, const int64_t *shape, layout_descriptor *out,
                                      layout_error *err)
{
    int col_dim = a->order[0], k;
    int64_t R = shape[1 - col_dim], C = shape[col_dim];
    int64_t vec = a->vec < C ? a->vec : C, groups = C / vec, P = a->max_phase < groups ? a->max_phase : groups;
    int64_t pp = a->per_phase < R ? a->per_phase : R, rh = R / pp;
    int64_t ul = a->max_phase < rh ? a->max_phase : rh, uh = rh / ul;
    int64_t len[6], str[6];
    layout_descriptor d;
    layout_transform t;
    layout_status s;
    dx_stage st;
    len[0] = uh, len[1] = ul, len[2] = pp, len[3] = groups / P, len[4] = P, len[5] = vec;
    str[0] = ul * pp * C, str[1] = pp * C, str[2] = C, str[3] = P * vec, str[4] = vec, str[5] = 1;
    if ((s = layout_naive_vec(&d, 6, len, str, vec, 1, err))) return s;
    for (k = 0; k < 2; k++) { /* the phase (ul), then the block number (uh) */
        int src = k ? 0 : 1, ids[2], j;
        layout_dx_stage_init(&st);
        ids[0] = src;
        ids[1] = 4;
        if ((s = layout_make_xor(len[src], P, &t, err))) return s;
        layout_dx_stage_add(&st, &t, 2, ids, 2, ids);
        for (j = 0; j < 6; j++)
            if (j != src && j != 4 && (s = stage_pass(&st, len[j], j, j, err))) return s;
        if ((s = layout_dx_stage_apply(&d, &st, err))) return s;
    }
    {
        static const int rows[3] = {0, 1, 2}, cols[3] = {3, 4, 5};
        int zero = 0, one = 1;
        layout_dx_stage_init(&st);
        if ((s = layout_make_merge(3, len, &t, err))) return s;
        layout_dx_stage_add(&st, &t, 3, rows, 1, &zero);
        if ((s = layout_make_merge(3, len + 3, &t, err))) return s;
        layout_dx_stage_add(&st, &t, 3, cols, 1, &one);
        if ((s = layout_dx_stage_apply(&d, &st, err))) return s;
    }
    if (col_dim == 0) { /* top (r, c) -> (d0, d1) = (c, r) */
        layout_dx_stage_init(&st);
        if ((s = stage_pass(&st, R, 0, 1, err)) || (s = stage_pass(&st, C, 1, 0, err))) return s;
        if ((s = layout_dx_stage_apply(&d, &st, err))) return s;
    }
    *out = d;
    return layout_ok(err);
}

static layout_status check_shape(const layout_triton_attr *a, int n_shape, const int64_t *shape, const char *fn,
                                 layout_error *err)
{
    int k, bits = 0;
    static const char *const names[] = {"amd_rotating_shared", "nvmma_shared", "swizzled_shared"};
    const char *name = names[a->kind == LAYOUT_TRITON_NVMMA_SHARED ? 1 : a->kind == LAYOUT_TRITON_AMD_ROTATING_SHARED ? 0 : 2];
    if (n_shape != 2)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s needs a 2-D shape (--shape R,C); got %d values", fn, name,
                           n_shape);
    if (!shape) return layout_fail(err, LAYOUT_ERR_NULL, "%s: shape is NULL", fn);
    if (a->kind == LAYOUT_TRITON_NVMMA_SHARED && a->rank != 2 && a->rank != 0)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: nvmma_shared of rank %d: liblayout supports 2-D", fn,
                           a->rank);
    for (k = 0; k < 2; k++) {
        if (!layout_is_pow2(shape[k]) || shape[k] > ((int64_t)1 << LAYOUT_TRITON_MAX_SHARED_TILE_LOG2))
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s: shape[%d] = %lld is not a power of two in 1..2^%d", fn,
                               name, k, (long long)shape[k], LAYOUT_TRITON_MAX_SHARED_TILE_LOG2);
        bits += layout_log2_floor(shape[k]);
    }
    if (bits > LAYOUT_TRITON_MAX_SHARED_TILE_LOG2)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s on [%lld, %lld]: more than 2^%d elements", fn, name,
                           (long long)shape[0], (long long)shape[1], LAYOUT_TRITON_MAX_SHARED_TILE_LOG2);
    return LAYOUT_OK;
}

layout_status layout_triton_shared_linear(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                          layout_linear *out, layout_error *err)
{
    static const char *const in_names[1] = {"offset"};
    static const char *const out_names[2] = {"dim0", "dim1"};
    shared_bases b;
    int64_t flat[128];
    int in_bits[1], out_bits[2], k;
    layout_status st;
    if (!a || !out) return layout_fail(err, LAYOUT_ERR_NULL, FN_SL ": NULL argument");
    if (a->kind != LAYOUT_TRITON_SWIZZLED_SHARED && a->kind != LAYOUT_TRITON_AMD_ROTATING_SHARED &&
        a->kind != LAYOUT_TRITON_NVMMA_SHARED)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           FN_SL ": only swizzled_shared, amd_rotating_shared and nvmma_shared are built here (a "
                                 "padded_shared is not linear; a shared_linear is its own bases)");
    if ((st = check_shape(a, n_shape, shape, FN_SL, err))) return st;
    b.n = 0;
    if (a->kind == LAYOUT_TRITON_NVMMA_SHARED) {
        if ((st = nvmma_bases(a, shape, &b, err))) return st;
    } else {
        if (a->rank != 2) return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, FN_SL ": only 2-D swizzled layouts");
        swizzled_bases(a, shape, a->kind == LAYOUT_TRITON_AMD_ROTATING_SHARED, &b);
    }
    for (k = 0; k < b.n; k++) {
        flat[2 * k] = b.v[k][0];
        flat[2 * k + 1] = b.v[k][1];
    }
    in_bits[0] = b.n;
    out_bits[0] = layout_log2_floor(shape[0]);
    out_bits[1] = layout_log2_floor(shape[1]);
    return layout_linear_from_bases(out, 1, in_names, in_bits, flat, 2, out_names, out_bits, err);
}

layout_status layout_triton_rotating_to_desc(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                             layout_descriptor *out, layout_error *err)
{
    layout_status st;
    if ((st = check_shape(a, n_shape, shape, "layout_triton_to_desc", err))) return st;
    return rotating_to_desc(a, shape, out, err);
}
