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
 *   the box; `transposed` plays no part.
 * - ranks other than 2 (the same functions at triton-lang/triton d0e56966):
 *   swizzled / rotating rank 1 is the identity, rank 3 and 4 the 2-D
 *   pattern on (order[1], order[0]) then the identity over order[2], ..;
 *   nvmma_shared collapses the TMA box to [product of the outer dims,
 *   last dim] ([last, outer] when transposed), builds the core tile and its
 *   growth on that, reshapes it to the box (reshapeLayout: row-major) and,
 *   when transposed, rotates the last coordinate to dim0
 *   (transposeLinearLayout), then grows dim0, dim1, .. to the shape (S = 0:
 *   the identity over the box, last dim fastest, then the shape).
 * - fp4Padded (getCoreMatrixLinearLayout): the tile's columns are bytes of
 *   which every other group of 8 is padding; column c maps to
 *   c / 16 * 8 + c % 8 (the padding repeats the real coordinates), the TMA
 *   box's contiguous extent counts packed pairs. */
#include "triton_internal.h"

#include <stdio.h>
#include <string.h>

#define FN_SL "layout_triton_shared_linear"

typedef struct shared_bases {
    int n, rank;                        /* offset bits; out dims */
    int64_t v[64][LAYOUT_MAX_DIMS];     /* offset bit b -> (dim0, dim1, ..) */
} shared_bases;

/* A basis with `val` in dim d1 and `val2` in dim d2 (d2 < 0: none). */
static void push2(shared_bases *b, int d1, int64_t val, int d2, int64_t val2)
{
    int k;
    if (b->n >= 64) return; /* unreachable: check_shape bounds the bits */
    for (k = 0; k < b->rank; k++) b->v[b->n][k] = 0;
    b->v[b->n][d1] = val;
    if (d2 >= 0) b->v[b->n][d2] ^= val2;
    b->n++;
}

/* identity1D(size / have, offset, dim d): the bits of d from `have` up. */
static void grow(shared_bases *b, int d, int64_t have, int64_t size)
{
    for (; have < size; have *= 2) push2(b, d, have, -1, 0);
}

/* swizzled_shared (rotating = 0) and amd_rotating_shared (rotating = 1):
 * rank 1 the identity; else the 2-D swizzle on (order[1], order[0]), then
 * the identity over order[2], order[3], .. */
static void swizzled_bases(const layout_triton_attr *a, const int64_t *shape, int rotating, shared_bases *b)
{
    int col_dim, row_dim, k;
    int64_t cols, rows, col, row;
    if (b->rank == 1) {
        grow(b, 0, 1, shape[0]);
        return;
    }
    col_dim = a->order[0];
    row_dim = a->order[1];
    cols = shape[col_dim];
    rows = shape[row_dim];
    for (col = 1; col < cols; col *= 2) push2(b, col_dim, col, -1, 0);
    for (row = 1; row < rows; row *= 2) {
        int64_t phase = (row / a->per_phase) % a->max_phase;
        if (rotating) phase ^= row / a->max_phase / a->per_phase % a->max_phase;
        push2(b, row_dim, row, col_dim, (a->vec * phase) % cols);
    }
    for (k = 2; k < b->rank; k++) grow(b, a->order[k], 1, shape[a->order[k]]);
}

/* The N-D coordinate of flat index f over sizes s[0..r) (last fastest),
 * then rotated as transposeLinearLayout(order [r-1, 0, .., r-2]) when
 * `rot`: out dim 0 takes the last coordinate. */
static void unflatten(int64_t f, const int64_t *s, int r, int rot, int64_t *out)
{
    int64_t c[LAYOUT_MAX_DIMS];
    int k;
    for (k = r - 1; k >= 0; k--) {
        c[k] = f % s[k];
        f /= s[k];
    }
    for (k = 0; k < r; k++) out[k] = rot ? c[(k + r - 1) % r] : c[k];
}

/* nvmma_shared (file comment; any rank >= 1, fp4Padded included). */
static layout_status nvmma_bases(const layout_triton_attr *a, const int64_t *shape, shared_bases *b, layout_error *err)
{
    int64_t tma[LAYOUT_MAX_DIMS] = {0}, i;
    int ebw = a->element_bit_width, sw = a->swizzling_byte_width, r = b->rank, d, k;
    int contig = a->transposed ? 0 : r - 1, pack = a->fp4_padded ? 2 : 1;
    if (r < 1 || r > LAYOUT_MAX_DIMS) /* gcc -O1 cannot see the caller's rank check */
        return layout_fail(err, LAYOUT_ERR_ARG, FN_SL ": nvmma_shared needs a rank from 1 to %d, not %d", LAYOUT_MAX_DIMS, r);
    /* getTMABlockShape(packedSize = true) */
    for (d = 0; d < r; d++) tma[d] = shape[d] * (d == contig ? pack : 1) < 256 ? shape[d] * (d == contig ? pack : 1) : 256;
    if (sw != 0) {
        int64_t w = 8 * (int64_t)sw / ebw;
        if (w < 1 || tma[contig] < w)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               FN_SL ": nvmma_shared swizzlingByteWidth = %d on %d-bit elements needs %lld elements "
                                     "along dim%d (the contiguous dim) within a TMA box of at most 256; the shape has "
                                     "%lld (Triton: \"Block shape is too small for the swizzle byte size\")",
                               sw, ebw, (long long)w, contig, (long long)shape[contig]);
        tma[contig] = w;
    }
    tma[contig] /= pack;
    if (sw == 0) { /* the identity over the box, last dim fastest, then the shape in the same order */
        for (d = r - 1; d >= 0; d--) grow(b, d, 1, tma[d]);
        for (d = r - 1; d >= 0; d--) grow(b, d, tma[d], shape[d]);
        return layout_ok(err);
    }
    {
        /* getCoreMatrixLinearLayout on the collapsed TMA box [rows, cols],
         * grown rows first, reshaped to the box and rotated when transposed */
        int64_t vec = 128 / ebw, per_phase = 128 / sw, max_phase = sw / 16, tile_cols = 8 * (int64_t)sw / ebw;
        int64_t rows = 1, cols = tma[r - 1], box[LAYOUT_MAX_DIMS], rc[64][2], row, col, have_cols;
        int n = 0;
        for (d = 0; d + 1 < r; d++) rows *= tma[d];
        if (a->transposed) {
            int64_t t = rows;
            rows = cols;
            cols = t;
        }
        if (cols * pack < tile_cols || rows < 8)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               FN_SL ": nvmma_shared with swizzling needs a collapsed TMA box of at least [8, %lld]; "
                                     "the shape gives [%lld, %lld] (Triton: \"Illegal shared layout\")",
                               (long long)(tile_cols / pack), (long long)rows, (long long)cols);
        for (col = 1; col < tile_cols; col *= 2, n++) {
            rc[n][0] = 0;
            rc[n][1] = a->fp4_padded ? col / 16 * 8 + col % 8 : col;
        }
        for (row = 1; row < 8; row *= 2, n++) {
            int64_t c = vec * ((row / per_phase) % max_phase);
            rc[n][0] = row;
            rc[n][1] = a->fp4_padded ? c / 16 * 8 + c % 8 : c;
        }
        have_cols = tile_cols / pack;
        for (row = 8; row < rows; row *= 2, n++) rc[n][0] = row, rc[n][1] = 0;
        for (col = have_cols; col < cols; col *= 2, n++) rc[n][0] = 0, rc[n][1] = col;
        for (d = 0; d < r; d++) box[d] = a->transposed ? tma[(d + 1) % r] : tma[d];
        for (k = 0; k < n; k++) {
            unflatten(rc[k][0] * cols + rc[k][1], box, r, a->transposed, b->v[b->n]);
            b->n++;
        }
        for (d = 0; d < r; d++) grow(b, d, tma[d], shape[d]);
    }
    (void)i;
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

/* The shape's checks; descriptors (desc = 1) are 2-D, linear layouts take
 * the attribute's rank (1 to 4; nvmma_shared's `rank`, 2 unless printed),
 * plus leading buffer dims (layout_triton_shared_linear). */
static layout_status check_shape(const layout_triton_attr *a, int n_shape, const int64_t *shape, const char *fn,
                                 int desc, layout_error *err)
{
    int k, bits = 0, rank = a->kind == LAYOUT_TRITON_NVMMA_SHARED && a->rank == 0 ? 2 : a->rank;
    static const char *const names[] = {"amd_rotating_shared", "nvmma_shared", "swizzled_shared"};
    const char *name = names[a->kind == LAYOUT_TRITON_NVMMA_SHARED ? 1 : a->kind == LAYOUT_TRITON_AMD_ROTATING_SHARED ? 0 : 2];
    if (desc && n_shape != 2)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s needs a 2-D shape (--shape R,C); got %d values", fn, name,
                           n_shape);
    if (desc && rank != 2)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %s of rank %d: descriptors are 2-D (its linear layout, "
                                                        "layout_triton_shared_linear, takes ranks 1 to 4)",
                           fn, name, rank);
    if (rank < 1 || rank > 4)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %s of rank %d: ranks 1 to 4 are supported", fn, name, rank);
    if (n_shape < rank || n_shape > LAYOUT_MAX_DIMS || (desc && n_shape != rank))
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s of rank %d needs %d shape values (or more, the leading ones "
                           "buffer dims, up to %d); got %d", fn, name, rank, rank, LAYOUT_MAX_DIMS, n_shape);
    if (!shape) return layout_fail(err, LAYOUT_ERR_NULL, "%s: shape is NULL", fn);
    for (k = 0; k < n_shape; k++) {
        if (k < n_shape - rank && !layout_is_pow2(shape[k]))
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "%s: %s: shape[%d] = %lld buffers is not a power of two (not linear over F2); each "
                               "buffer i lies at i x %d-D tile's elements, with the offsets of --shape over the last "
                               "%d values",
                               fn, name, k, (long long)shape[k], rank, rank);
        if (!layout_is_pow2(shape[k]) || shape[k] > ((int64_t)1 << LAYOUT_TRITON_MAX_SHARED_TILE_LOG2))
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s: shape[%d] = %lld is not a power of two in 1..2^%d", fn,
                               name, k, (long long)shape[k], LAYOUT_TRITON_MAX_SHARED_TILE_LOG2);
        bits += layout_log2_floor(shape[k]);
    }
    if (bits > LAYOUT_TRITON_MAX_SHARED_TILE_LOG2)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s on that shape: more than 2^%d elements", fn, name,
                           LAYOUT_TRITON_MAX_SHARED_TILE_LOG2);
    return LAYOUT_OK;
}

layout_status layout_triton_shared_linear(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                          layout_linear *out, layout_error *err)
{
    static const char *const in_names[1] = {"offset"};
    static const char *const out_names[LAYOUT_MAX_DIMS] = {"dim0", "dim1", "dim2", "dim3",
                                                            "dim4", "dim5", "dim6", "dim7"};
    shared_bases b;
    int64_t flat[64 * LAYOUT_MAX_DIMS];
    int in_bits[1], out_bits[LAYOUT_MAX_DIMS], k, d, lead;
    layout_status st;
    if (!a || !out) return layout_fail(err, LAYOUT_ERR_NULL, FN_SL ": NULL argument");
    if (a->kind != LAYOUT_TRITON_SWIZZLED_SHARED && a->kind != LAYOUT_TRITON_AMD_ROTATING_SHARED &&
        a->kind != LAYOUT_TRITON_NVMMA_SHARED)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           FN_SL ": only swizzled_shared, amd_rotating_shared and nvmma_shared are built here (a "
                                 "padded_shared is not linear; a shared_linear is its own bases)");
    if ((st = check_shape(a, n_shape, shape, FN_SL, 0, err))) return st;
    /* A shape longer than the attribute (a multi-buffered memdesc<3x128x64xf16,
     * #shared> of a rank-2 #shared): Triton lays the attribute out over the
     * trailing dims (toLinearLayout(MemDescType) takes allocShape.take_back(
     * rank) after memdesc_index), each leading index a buffer of
     * prod(trailing) elements, the buffers in row-major order: the trailing
     * layout's offset bits first, then the last leading dim's, .., dim0's. */
    lead = n_shape - (a->kind == LAYOUT_TRITON_NVMMA_SHARED && a->rank == 0 ? 2 : a->rank);
    b.n = 0;
    b.rank = n_shape - lead;
    if (a->kind == LAYOUT_TRITON_NVMMA_SHARED) {
        if ((st = nvmma_bases(a, shape + lead, &b, err))) return st;
    } else {
        swizzled_bases(a, shape + lead, a->kind == LAYOUT_TRITON_AMD_ROTATING_SHARED, &b);
    }
    for (k = 0; k < b.n; k++)
        for (d = 0; d < n_shape; d++) flat[k * n_shape + d] = d < lead ? 0 : b.v[k][d - lead];
    for (d = lead - 1; d >= 0; d--)
        for (int64_t have = 1; have < shape[d]; have *= 2, b.n++)
            for (k = 0; k < n_shape; k++) flat[b.n * n_shape + k] = k == d ? have : 0;
    in_bits[0] = b.n;
    for (d = 0; d < n_shape; d++) out_bits[d] = layout_log2_floor(shape[d]);
    return layout_linear_from_bases(out, 1, in_names, in_bits, flat, n_shape, out_names, out_bits, err);
}

layout_status layout_triton_rotating_to_desc(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                             layout_descriptor *out, layout_error *err)
{
    layout_status st;
    if ((st = check_shape(a, n_shape, shape, "layout_triton_to_desc", 1, err))) return st;
    return rotating_to_desc(a, shape, out, err);
}
