/* Triton's distributed layouts as linear layouts (layout_triton_to_linear):
 * #ttg.blocked, #ttg.amd_mfma, #ttg.amd_wmma, #ttg.nvidia_mma, #ttg.dot_op
 * of those four and #ttg.slice of any of them, built the way Triton 3.6
 * builds them in lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp
 * (read, not copied; each function names its Triton counterpart), one CTA,
 * rank 2 or 3 (a leading batch dim; Hopper's nvidia_mma rank 2 only),
 * blocked and its FMA operands up to rank 4, a slice one less than its
 * parent.  Triton's unit test of these functions runs in
 * tests/test_triton_peer.c.
 *
 * Triton's LinearLayout operations used here, on layout_linear:
 *   identity1D / zeros1D / operator*      ll_id, ll_zeros, ll_mul (linear.h's product)
 *   transposeOuts                          ll_outs
 *   identityStandardND                     ll_id_nd
 *   broadcastedDotOperandLayout            ll_bcast_dot
 *   combineCtaCgaWithShape (one CTA)       ll_combine: ensureLayoutNotSmallerThan
 *                                          (register bits appended per out dim, in
 *                                          the layout's out-dim order), then
 *                                          ensureLayoutNotLargerThan (per out dim,
 *                                          the bases largest first are zeroed
 *                                          until the dim fits; registers zeroed,
 *                                          not removed: lib/Tools/LayoutUtils.cpp),
 *                                          then the standard out order dim0, dim1, .. */
#include "triton_ll_internal.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- the layouts */

/* BlockedEncodingAttr::toLinearLayout. */
static void blocked_ll(mma_ll *b, const layout_triton_attr *a, int rank, const int64_t *shape)
{
    mma_ll lane, warp;
    if (!check_pow2s(a->size_per_thread, rank) || !check_pow2s(a->threads_per_warp, rank) ||
        !check_pow2s(a->warps_per_cta, rank)) {
        ll_fail(b, LAYOUT_ERR_ARG, "blocked sizes must be powers of two");
        return;
    }
    ll_sub(&lane, b);
    ll_sub(&warp, b);
    ll_id_nd(b, "register", rank, a->size_per_thread, a->order);
    ll_id_nd(&lane, "lane", rank, a->threads_per_warp, a->order);
    ll_id_nd(&warp, "warp", rank, a->warps_per_cta, a->order);
    ll_join(b, &lane);
    ll_join(b, &warp);
    ll_combine(b, rank, shape);
}

/* allow3: the layout takes a leading batch dim (amd_mfma and its operands). */
static void mma_check(mma_ll *b, const layout_triton_mma *m, int allow3)
{
    (void)allow3;
    if (m->rank != 2 && m->rank != 3) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "MMA layouts of rank other than 2 or 3 (a leading batch dim) are not supported");
        return;
    }
    if (!check_pow2s(m->warps_per_cta, m->rank) || !check_pow2s(m->tiles_per_warp, m->rank))
        ll_fail(b, LAYOUT_ERR_ARG, "warpsPerCTA and tilesPerWarp must be powers of two");
}

/* AMDMfmaEncodingAttr::toLinearLayout: 64 lanes; each lane holds `height`
 * (4, or 1 for 64-bit elements) consecutive elements along M (along N when
 * transposed); lanes go along N first, then M; the register tiles, then
 * tilesPerWarp and the warps along N, then the N repetitions, tilesPerWarp
 * and the warps along M (N-contiguous tiles over the whole tensor). */
static void mfma_ll(mma_ll *b, const layout_triton_mma *m, const int64_t *shape)
{
    int r = m->rank, mi = r - 2, ni = r - 1; /* a batch dim first when rank 3 */
    const char *dm = dim_name(mi), *dn = dim_name(ni);
    const char *nm[2];
    int64_t md, nd, height, tiles;
    mma_check(b, m, 1);
    if (b->st) return;
    md = m->instr_shape[0];
    nd = m->instr_shape[1];
    if (m->n_instr < 2 || !((md == 32 && nd == 32) || (md == 16 && nd == 16) || (md == 64 && nd == 4) ||
                            (md == 4 && nd == 64))) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "amd_mfma instrShape must be 32x32, 16x16, 64x4 or 4x64 (Triton's verifier)");
        return;
    }
    if (md == 64 && nd == 4 && !m->is_transposed) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "a 64x4 amd_mfma must be transposed (Triton asserts so)");
        return;
    }
    if (m->element_bit_width != 32 && m->element_bit_width != 64) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "amd_mfma elementBitWidth must be 32 or 64");
        return;
    }
    if (m->version < 0 || m->version > 4) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "amd_mfma version must be in 0..4 (Triton's verifier)");
        return;
    }
    height = m->element_bit_width == 64 ? 1 : 4;
    tiles = (md * nd) / (64 * height);
    if (!m->is_transposed) {
        ll_id(b, height, "register", dm);
        ll_id(b, nd, "lane", dn);
        ll_id(b, 64 / nd, "lane", dm);
        if (tiles > 0) ll_id(b, tiles, "register", dm);
    } else {
        ll_id(b, height, "register", dn);
        ll_id(b, md, "lane", dm);
        ll_id(b, 64 / md, "lane", dn);
        if (tiles > 0) ll_id(b, tiles, "register", dn);
    }
    nm[0] = dn;
    nm[1] = dm;
    ll_outs(b, 2, nm);
    ll_id(b, m->tiles_per_warp[ni], "register", dn);
    ll_id(b, m->warps_per_cta[ni], "warp", dn);
    ll_id(b, shape[ni] / (nd * m->warps_per_cta[ni] * m->tiles_per_warp[ni]), "register", dn);
    ll_id(b, m->tiles_per_warp[mi], "register", dm);
    ll_id(b, m->warps_per_cta[mi], "warp", dm);
    if (r == 3) { /* the batch dim: registers and lanes of size 1, then the batch warps */
        ll_id(b, 1, "register", "dim0");
        ll_id(b, 1, "lane", "dim0");
        ll_id(b, m->warps_per_cta[0], "warp", "dim0");
    }
    ll_combine(b, r, shape);
}

/* mfmaDotToLinearLayout: kWidth registers along K, nonKDim lanes along the
 * non-K dim then 64 / nonKDim lanes along K, the K tiles, tilesPerWarp along
 * the non-K dim; warps identityStandardND over warpsPerCTA (order [1, 0]),
 * the K part leaving the shape in the combine. */
static void mfma_dot_ll(mma_ll *b, const layout_triton_mma *m, int op_idx, int64_t k_width, const int64_t *shape)
{
    static const int warp_order[3] = {2, 1, 0};
    int r = m->rank, k_idx = op_idx == 0 ? r - 1 : r - 2, nk_idx = op_idx == 0 ? r - 2 : r - 1;
    const char *dk = dim_name(k_idx), *dnk = dim_name(nk_idx), *nm[2];
    int64_t md = m->instr_shape[0], nd = m->instr_shape[1], nonk = op_idx == 0 ? md : nd, k_tile;
    mma_ll warp;
    mma_check(b, m, 1);
    if (b->st) return;
    if (m->n_instr < 2 || !((md == 32 && nd == 32) || (md == 16 && nd == 16) || (md == 64 && nd == 4) ||
                            (md == 4 && nd == 64))) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "amd_mfma instrShape must be 32x32, 16x16, 64x4 or 4x64 (Triton's verifier)");
        return;
    }
    ll_id(b, k_width, "register", dk);
    ll_id(b, nonk, "lane", dnk);
    ll_id(b, 64 / nonk, "lane", dk);
    k_tile = 64 / nonk * k_width;
    if ((md == 64 && nd == 4 && op_idx == 0) || (md == 4 && nd == 64 && op_idx == 1)) {
        ll_id(b, 16, "register", dk);
        k_tile *= 16;
    }
    if (shape[k_idx] > k_tile) ll_id(b, shape[k_idx] / k_tile, "register", dk);
    ll_id(b, m->tiles_per_warp[nk_idx], "register", dnk);
    nm[0] = dk;
    nm[1] = dnk;
    ll_outs(b, 2, nm);
    if (r == 3) { /* the batch dim, registers and lanes of size 1 */
        ll_id(b, 1, "register", "dim0");
        ll_id(b, 1, "lane", "dim0");
    }
    ll_sub(&warp, b);
    ll_id_nd(&warp, "warp", r, m->warps_per_cta, warp_order + (3 - r));
    ll_join(b, &warp);
    ll_combine(b, r, shape);
}

static int wmma_instr_ok(const layout_triton_mma *m, int64_t *instr)
{
    static const int64_t v1[1][3] = {{16, 16, 16}}, v2[2][3] = {{16, 16, 16}, {16, 16, 32}},
                         v3[4][3] = {{16, 16, 4}, {16, 16, 32}, {16, 16, 64}, {16, 16, 128}};
    const int64_t(*ok)[3] = m->version == 1 ? v1 : m->version == 2 ? v2 : v3;
    int n = m->version == 1 ? 1 : m->version == 2 ? 2 : 4, k;
    if (m->n_instr == 0) {
        instr[0] = instr[1] = instr[2] = 16;
    } else if (m->n_instr == 3) {
        instr[0] = m->instr_shape[0];
        instr[1] = m->instr_shape[1];
        instr[2] = m->instr_shape[2];
    } else {
        return 0;
    }
    for (k = 0; k < n; k++)
        if (ok[k][0] == instr[0] && ok[k][1] == instr[1] && ok[k][2] == instr[2]) return 1;
    return 0;
}

static void wmma_check(mma_ll *b, const layout_triton_mma *m, int64_t *instr)
{
    mma_check(b, m, 0);
    if (b->st) return;
    if (m->version < 1 || m->version > 3) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "amd_wmma version must be 1, 2 or 3");
        return;
    }
    if (!wmma_instr_ok(m, instr)) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "amd_wmma instrShape is not one Triton's verifier accepts for this version "
                                           "(v1 16x16x16; v2 also 16x16x32; v3 16x16x{4,32,64,128})");
        return;
    }
    if (m->tiles_per_warp[m->rank - 2] != 1 || m->tiles_per_warp[m->rank - 1] != 1)
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "amd_wmma tilesPerWarp other than [1, 1] is not modelled");
}

/* AMDWmmaEncodingAttr::toLinearLayout: 32 lanes on a 16x16 tile, in
 * (threadOrder[0], threadOrder[1]) = (columns, rows), swapped when
 * transposed.  Version 1: 8 registers on every other row (rows 2, 4, 8), lane
 * bit 4 the row parity; versions 2 and 3: 8 consecutive rows, lane bit 4 the
 * upper 8 rows.  Warps identityStandardND (order [1, 0]); tile and warps in
 * the repetition order [1, 0] before the combine. */
static void wmma_ll(mma_ll *b, const layout_triton_mma *m, const int64_t *shape)
{
    static const int warp_order[3] = {2, 1, 0};
    static const int64_t reg1[6] = {0, 2, 0, 4, 0, 8}, lane1[10] = {1, 0, 2, 0, 4, 0, 8, 0, 0, 1};
    static const int64_t reg2[6] = {0, 1, 0, 2, 0, 4}, lane2[10] = {1, 0, 2, 0, 4, 0, 8, 0, 0, 8};
    int64_t instr[3];
    int r = m->rank;
    const char *rep[3];
    mma_ll warp;
    wmma_check(b, m, instr);
    if (b->st) return;
    rep[0] = dim_name(r - 1);
    rep[1] = dim_name(r - 2);
    rep[2] = "dim0";
    ll_explicit(b, 3, m->version == 1 ? reg1 : reg2, 5, m->version == 1 ? lane1 : lane2,
                m->is_transposed ? rep[1] : rep[0], m->is_transposed ? rep[0] : rep[1]);
    if (r == 3) { /* the batch dim: registers and lanes of size 1 */
        ll_id(b, 1, "register", "dim0");
        ll_id(b, 1, "lane", "dim0");
    }
    ll_outs(b, r, rep);
    ll_sub(&warp, b);
    ll_id_nd(&warp, "warp", r, m->warps_per_cta, warp_order + (3 - r));
    ll_outs(&warp, r, rep);
    ll_join(b, &warp);
    ll_combine(b, r, shape);
}

/* wmmaDotOperandToLinearLayout: kWidth registers along K, nonKDim (16)
 * lanes along the non-K dim, then 32 / nonKDim lanes along K (version 1:
 * broadcast, zeros; versions 2, 3: the next K elements), then registers
 * along K up to the instruction's K; warps broadcast along K
 * (broadcastedDotOperandLayout, order [1, 0]); both in the operand's
 * repetition order [K, non-K]. */
static void wmma_dot_ll(mma_ll *b, const layout_triton_mma *m, int op_idx, int64_t k_width, const int64_t *shape)
{
    static const int warp_order[3] = {2, 1, 0};
    int r = m->rank, k_idx = op_idx == 0 ? r - 1 : r - 2, nk_idx = op_idx == 0 ? r - 2 : r - 1;
    const char *rep[3];
    int64_t instr[3], nonk, depth;
    mma_ll warp;
    wmma_check(b, m, instr);
    if (b->st) return;
    rep[0] = dim_name(k_idx);
    rep[1] = dim_name(nk_idx);
    rep[2] = "dim0";
    nonk = op_idx == 0 ? instr[0] : instr[1];
    depth = 32 / nonk;
    ll_id(b, k_width, "register", rep[0]);
    ll_id(b, nonk, "lane", rep[1]);
    if (m->version == 1)
        ll_zeros(b, depth, "lane", rep[0]);
    else
        ll_id(b, depth, "lane", rep[0]);
    ll_id(b, instr[2] / (depth * k_width), "register", rep[0]);
    if (r == 3) { /* the batch dim, registers and lanes of size 1 */
        ll_id(b, 1, "register", "dim0");
        ll_id(b, 1, "lane", "dim0");
    }
    ll_outs(b, r, rep);
    ll_sub(&warp, b);
    ll_bcast_dot(&warp, "warp", r, m->warps_per_cta, warp_order + (3 - r), k_idx);
    ll_outs(&warp, r, rep);
    ll_join(b, &warp);
    ll_combine(b, r, shape);
}

/* nvidiaMmaTile: out dims in repOrder; then kWidth registers and 4 lanes
 * along the inner dim, 8 lanes along the outer dim, registers repeating the
 * 8 rows to m and the inner 4 * kWidth to n. */
static void nv_tile(mma_ll *b, int r, const int64_t *tile, int64_t k_width, const int *order, const int *rep_order)
{
    static const int64_t ones[3] = {1, 1, 1};
    const char *inner = dim_name(order[0]), *outer = dim_name(order[1]);
    int64_t mm = tile[order[1]], nn = tile[order[0]];
    ll_id_nd(b, "register", r, ones, rep_order);
    if (b->st) return;
    if (mm % 8 != 0 || nn % (k_width * 4) != 0) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "the nvidia_mma tile is not a multiple of 8 x (4 * kWidth)");
        return;
    }
    ll_id(b, k_width, "register", inner);
    ll_id(b, 4, "lane", inner);
    ll_id(b, 8, "lane", outer);
    ll_id(b, mm / 8, "register", outer);
    ll_id(b, nn / (k_width * 4), "register", inner);
}

static void nv_check(mma_ll *b, const layout_triton_mma *m)
{
    mma_check(b, m, 0);
    if (b->st) return;
    if (m->version != 2 && m->version != 3) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "nvidia_mma versionMajor must be 2 (Ampere) or 3 (Hopper)");
        return;
    }
    if ((m->version == 2 && m->n_instr != m->rank) || (m->version == 3 && (m->n_instr != 3 || m->rank != 2)) ||
        !check_pow2s(m->instr_shape, m->n_instr))
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED,
                "nvidia_mma instrShape: versionMajor 2 takes [M, N] ([1, M, N] with a batch dim), 3 takes [M, N, K] "
                "(rank 2; powers of two)");
}

/* getMatrixOrder(rank, rowMajor): rank 2 [1, 0] / [0, 1], rank 3 [2, 1, 0] / [1, 2, 0]. */
static const int *matrix_order(int r, int row_major)
{
    static const int rm[2][3] = {{1, 0, 0}, {2, 1, 0}}, cm[2][3] = {{0, 1, 0}, {1, 2, 0}};
    return row_major ? rm[r - 2] : cm[r - 2];
}

/* NvidiaMmaEncodingAttr::toLinearLayout: nvidiaMmaTile over instrShape's
 * (M, N) (Ampere: instrShape, [1, M, N] with a batch dim) with kWidth 2 in
 * order [1, 0] ([2, 1, 0]); warps identityStandardND in the row-major
 * matrix order (Ampere) or the column-major one (Hopper). */
static void nv_ll(mma_ll *b, const layout_triton_mma *m, const int64_t *shape)
{
    int r = m->rank, k;
    mma_ll warp;
    const char *outs[3];
    nv_check(b, m);
    if (b->st) return;
    nv_tile(b, r, m->instr_shape, 2, matrix_order(r, 1), matrix_order(r, 1));
    ll_sub(&warp, b);
    ll_id_nd(&warp, "warp", r, m->warps_per_cta, matrix_order(r, m->version != 3));
    if (b->st) return;
    for (k = 0; k < r; k++) outs[k] = b->l.out_names[k];
    ll_outs(&warp, r, outs);
    ll_join(b, &warp);
    ll_combine(b, r, shape);
}

/* nvidiaDotToLinearLayout: nvidiaMmaTile over [16, 8 * kWidth] (A) or
 * [8 * kWidth, 8] (B, Ampere only) in the operand's order [K, non-K];
 * warps broadcastedDotOperandLayout along K, order as the parent's. */
static void nv_dot_ll(mma_ll *b, const layout_triton_mma *m, int op_idx, int64_t k_width, const int64_t *shape)
{
    int r = m->rank, k_idx = op_idx == 0 ? r - 1 : r - 2, order[3], k;
    int64_t tile[3] = {1, 1, 1};
    mma_ll warp;
    const char *outs[3];
    nv_check(b, m);
    if (b->st) return;
    if (op_idx == 1 && m->version == 3) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "a Hopper (versionMajor 3) dot operand B is read from shared memory: "
                                           "Triton defines no register layout for it");
        return;
    }
    tile[r - 2] = op_idx == 0 ? 16 : k_width * 8;
    tile[r - 1] = op_idx == 0 ? k_width * 8 : 8;
    order[0] = k_idx; /* getOrderForDotOperand(kContig): [K, non-K, batch] */
    order[1] = op_idx == 0 ? r - 2 : r - 1;
    order[2] = 0;
    nv_tile(b, r, tile, k_width, order, order);
    ll_sub(&warp, b);
    ll_bcast_dot(&warp, "warp", r, m->warps_per_cta, matrix_order(r, m->version != 3), k_idx);
    if (b->st) return;
    for (k = 0; k < r; k++) outs[k] = b->l.out_names[k];
    ll_outs(&warp, r, outs);
    ll_join(b, &warp);
    ll_combine(b, r, shape);
}

/* fmaDotToLinearLayout: the blocked parent's layout with sizePerThread
 * along K the whole K extent, lanes and warps broadcast along K
 * (broadcastedDotOperandLayout in the parent's order), all in the parent's
 * repetition order (its order). */
static void fma_dot_ll(mma_ll *b, const layout_triton_attr *a, int op_idx, const int64_t *shape)
{
    int r = a->mma.rank, kd = op_idx == 0 ? r - 1 : r - 2, k; /* the dot's parent's rank (triton_mma_text.c) */
    int64_t spt[LAYOUT_MAX_DIMS];
    const char *rep[LAYOUT_MAX_DIMS];
    mma_ll lane, warp;
    if (r < 2 || r > 4) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "a dot_op of a blocked parent of rank other than 2, 3 or 4 is not supported");
        return;
    }
    if (!check_pow2s(a->size_per_thread, r) || !check_pow2s(a->threads_per_warp, r) ||
        !check_pow2s(a->warps_per_cta, r)) {
        ll_fail(b, LAYOUT_ERR_ARG, "blocked sizes must be powers of two");
        return;
    }
    for (k = 0; k < r; k++) {
        spt[k] = a->size_per_thread[k];
        rep[k] = dim_name(a->order[k]);
    }
    spt[kd] = shape[kd];
    ll_id_nd(b, "register", r, spt, a->order);
    ll_outs(b, r, rep);
    ll_sub(&lane, b);
    ll_bcast_dot(&lane, "lane", r, a->threads_per_warp, a->order, kd);
    ll_outs(&lane, r, rep);
    ll_sub(&warp, b);
    ll_bcast_dot(&warp, "warp", r, a->warps_per_cta, a->order, kd);
    ll_outs(&warp, r, rep);
    ll_join(b, &lane);
    ll_join(b, &warp);
    ll_combine(b, r, shape);
}

/* The layout of an MMA kind (mma_kind) or of a dot_op of one (or of a
 * blocked layout: an FMA operand), rank 2. */
static void mma_or_dot_ll(mma_ll *b, const layout_triton_attr *a, layout_triton_kind kind, layout_triton_kind mma_kind,
                          const layout_triton_mma *m, int op_idx, int64_t k_width, const int64_t *shape)
{
    if (kind == LAYOUT_TRITON_DOT_OPERAND) {
        if (op_idx != 0 && op_idx != 1) {
            ll_fail(b, LAYOUT_ERR_ARG, "dot_op opIdx must be 0 or 1");
            return;
        }
        if (mma_kind == LAYOUT_TRITON_BLOCKED) {
            fma_dot_ll(b, a, op_idx, shape);
            return;
        }
        if (!layout_is_pow2(k_width) || k_width > 64) {
            ll_fail(b, LAYOUT_ERR_ARG, "dot_op kWidth must be a power of two in 1..64");
            return;
        }
        if (mma_kind == LAYOUT_TRITON_AMD_MFMA)
            mfma_dot_ll(b, m, op_idx, k_width, shape);
        else if (mma_kind == LAYOUT_TRITON_AMD_WMMA)
            wmma_dot_ll(b, m, op_idx, k_width, shape);
        else if (mma_kind == LAYOUT_TRITON_NVIDIA_MMA)
            nv_dot_ll(b, m, op_idx, k_width, shape);
        else
            ll_fail(b, LAYOUT_ERR_UNSUPPORTED,
                    "dot_op parents other than blocked, amd_mfma, amd_wmma, nvidia_mma are not modelled");
        return;
    }
    if (kind == LAYOUT_TRITON_AMD_MFMA)
        mfma_ll(b, m, shape);
    else if (kind == LAYOUT_TRITON_AMD_WMMA)
        wmma_ll(b, m, shape);
    else
        nv_ll(b, m, shape);
}

/* SliceEncodingAttr::toLinearLayout: the parent's layout on the shape with
 * a 1 inserted at `dim`, that out dim dropped, then the register bases that
 * became zero removed (lane and warp bases stay, as broadcasts). */
static layout_status linear_on_shape(const layout_linear *l, int n_shape, const int64_t *shape, layout_linear *out,
                                     layout_error *err);

static void slice_ll(mma_ll *b, const layout_triton_attr *a, const int64_t *shape)
{
    int64_t pshape[LAYOUT_TRITON_MAX_RANK], vals[LAYOUT_LINEAR_MAX_BITS * LAYOUT_LINEAR_MAX_DIMS];
    int64_t nv[LAYOUT_LINEAR_MAX_BITS * LAYOUT_TRITON_MAX_RANK];
    const char *in_names[3] = {"register", "lane", "warp"};
    int in_bits[3] = {0, 0, 0}, i, bit, j = 0, kept = 0, d = a->slice_dim, pr = a->parent_rank, n, k, z;
    int left[LAYOUT_TRITON_MAX_RANK], n_left = 0, dropped[LAYOUT_TRITON_MAX_RANK] = {0};
    if (pr < 2 || pr > LAYOUT_TRITON_MAX_RANK || d < 0 || d >= pr || a->n_outer_slices < 0 || a->n_outer_slices > pr - 2) {
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "slice: a parent of rank 2 to 20 and a dim inside it are supported");
        return;
    }
    /* the parent's dims left after each slice, innermost first: a slice
     * of slices drops one parent dim per level (SliceEncodingAttr::
     * toLinearLayout on its parent's, level by level: the dims dropped
     * and the register bases left zero removed, once at the end) */
    for (k = 0; k < pr; k++)
        if (k != d) left[n_left++] = k;
    dropped[d] = 1;
    for (i = 0; i < a->n_outer_slices; i++) {
        int o = a->outer_slice_dims[i];
        if (o < 0 || o >= n_left) {
            ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "slice: an outer slice dim outside its parent");
            return;
        }
        dropped[left[o]] = 1;
        for (k = o; k + 1 < n_left; k++) left[k] = left[k + 1];
        n_left--;
    }
    for (k = 0, n = 0; k < pr; k++) pshape[k] = dropped[k] ? 1 : shape[n++];
    if (a->parent == LAYOUT_TRITON_BLOCKED)
        blocked_ll(b, a, pr, pshape);
    else if (a->parent == LAYOUT_TRITON_DOT_OPERAND)
        mma_or_dot_ll(b, a, a->parent, a->dot_parent, &a->mma, a->op_idx, a->k_width, pshape);
    else if (a->parent == LAYOUT_TRITON_AMD_MFMA || a->parent == LAYOUT_TRITON_AMD_WMMA ||
             a->parent == LAYOUT_TRITON_NVIDIA_MMA)
        mma_or_dot_ll(b, a, a->parent, a->parent, &a->mma, 0, 0, pshape);
    else if (a->parent == LAYOUT_TRITON_LINEAR) { /* LinearEncodingAttr::toLinearLayout on the parent's shape */
        layout_linear base = a->linear;
        if (layout_linear_in_dim(&base, "block") >= 0) b->st = layout_triton_drop_empty_block(&a->linear, &base, b->err);
        if (!b->st) b->st = linear_on_shape(&base, pr, pshape, &b->l, b->err);
    } else
        ll_fail(b, LAYOUT_ERR_UNSUPPORTED, "slice: parents other than blocked, MMA and dot_op layouts are not modelled");
    if (b->st) return;
    /* parent: in dims register, lane, warp; out dims dim0.. of rank pr */
    ll_values(&b->l, vals);
    for (i = 0; i < b->l.n_in; i++) {
        int kind = strcmp(b->l.in_names[i], "register") == 0 ? 0 : strcmp(b->l.in_names[i], "lane") == 0 ? 1 : 2;
        for (bit = 0; bit < b->l.in_bits[i]; bit++, j++) {
            const int64_t *v = vals + (size_t)j * (size_t)pr;
            for (k = 0, z = 1; k < pr; k++)
                if (!dropped[k] && v[k]) z = 0;
            if (kind == 0 && z) continue; /* a register that became a broadcast */
            if (kept >= LAYOUT_LINEAR_MAX_BITS) {
                ll_fail(b, LAYOUT_ERR_CAPACITY, "too many bits");
                return;
            }
            for (k = 0; k < n_left; k++) nv[(size_t)kept * (size_t)n_left + (size_t)k] = v[left[k]];
            kept++;
            in_bits[kind]++;
        }
    }
    b->st = layout_linear_from_bases(&b->l, 3, in_names, in_bits, nv, n_left, layout_tll_dim, NULL, b->err);
}

/* LinearEncodingAttr::getOrder: the out dims in the order register bases
 * first move them (orderPerDim), then rank-1 .. 0. */
static void linear_order(const layout_linear *l, int ir, const int64_t *vals, int *order)
{
    int b, d, k, n = 0, r = l->n_out, skip = 0;
    for (k = 0; k < ir; k++) skip += l->in_bits[k];
    for (b = 0; b < l->in_bits[ir]; b++)
        for (d = 0; d < r; d++) {
            int seen = 0;
            if (!vals[(size_t)(skip + b) * (size_t)r + (size_t)d]) continue;
            for (k = 0; k < n; k++) seen |= order[k] == d;
            if (!seen) order[n++] = d;
            break;
        }
    for (d = r - 1; d >= 0; d--) {
        int seen = 0;
        for (k = 0; k < n; k++) seen |= order[k] == d;
        if (!seen) order[n++] = d;
    }
}

/* LinearEncodingAttr::toLinearLayout(shape) (LinearLayoutConversions.cpp,
 * Triton 3.6; LayoutUtils.cpp at triton-lang/triton 0640b171): a #ttg.linear
 * on a tensor of another size.  ensureLayoutNotSmallerThan appends register
 * bases (identity1D) along each out dim, in getRepOrder (= getOrder) order;
 * ensureLayoutNotLargerThan(broadcastRegisters = false), per out dim, takes
 * the bases that move it from the largest value down until it fits: a
 * register basis is removed, a lane / warp basis has that component zeroed. */
static layout_status linear_on_shape(const layout_linear *l, int n_shape, const int64_t *shape, layout_linear *out,
                                     layout_error *err)
{
    int64_t vals[LAYOUT_LINEAR_MAX_BITS * LAYOUT_LINEAR_MAX_DIMS], nv[LAYOUT_LINEAR_MAX_BITS * LAYOUT_LINEAR_MAX_DIMS];
    int order[LAYOUT_LINEAR_MAX_DIMS], in_bits[LAYOUT_LINEAR_MAX_DIMS], out_bits[LAYOUT_LINEAR_MAX_DIMS];
    int drop[LAYOUT_LINEAR_MAX_BITS] = {0}, kind[LAYOUT_LINEAR_MAX_BITS];
    const char *in_names[LAYOUT_LINEAR_MAX_DIMS], *out_names[LAYOUT_LINEAR_MAX_DIMS];
    int ir = layout_linear_in_dim(l, "register"), r = l->n_out, n = l->total_in_bits, i, b, d, k, j = 0, m = 0;
    if (ir != 0 || n_shape != r)
        return layout_fail(err, LAYOUT_ERR_ARG, FN ": a #ttg.linear of %d out dims (its first input dim register) on a "
                           "shape of %d values", r, n_shape);
    for (d = 0; d < r; d++) {
        if (strcmp(l->out_names[d], dim_name(d)) != 0)
            return layout_fail(err, LAYOUT_ERR_ARG, FN ": out dim %d is '%s', not dim%d", d, l->out_names[d], d);
        if (!layout_is_pow2(shape[d]) || shape[d] > ((int64_t)1 << 30))
            return layout_fail(err, LAYOUT_ERR_ARG, FN ": shape[%d] = %lld is not a power of two in 1..2^30", d,
                               (long long)shape[d]);
    }
    ll_values(l, vals);
    for (i = 0; i < l->n_in; i++)
        for (b = 0; b < l->in_bits[i]; b++) kind[j++] = i;
    linear_order(l, ir, vals, order);
    for (k = 0; k < r; k++) { /* ensureLayoutNotSmallerThan: registers appended after the register bases */
        int64_t have = (int64_t)1 << l->out_bits[order[k]];
        for (; have < shape[order[k]]; have *= 2, n++) {
            if (n >= LAYOUT_LINEAR_MAX_BITS) return layout_fail(err, LAYOUT_ERR_CAPACITY, FN ": more than 64 bits");
            for (d = 0; d < r; d++) vals[(size_t)n * (size_t)r + (size_t)d] = d == order[k] ? have : 0;
            kind[n] = -1; /* a register basis, placed after the layout's own registers below */
        }
    }
    for (d = 0; d < r; d++) { /* ensureLayoutNotLargerThan, broadcastRegisters = false */
        int64_t size = 1;
        for (b = 0; b < n; b++)
            while (vals[(size_t)b * (size_t)r + (size_t)d] >= size) size *= 2;
        while (size > shape[d]) {
            int best = -1;
            for (b = 0; b < n; b++) {
                int64_t v = vals[(size_t)b * (size_t)r + (size_t)d];
                if (v && !drop[b] && (best < 0 || v > vals[(size_t)best * (size_t)r + (size_t)d]))
                    best = b;
            }
            if (best < 0) break;
            if (kind[best] <= 0) drop[best] = 1; /* register: removed at the end */
            else vals[(size_t)best * (size_t)r + (size_t)d] = 0;
            size /= 2;
        }
    }
    /* rebuild: register bases (the layout's, then the appended ones), then the other in dims */
    for (i = 0; i < l->n_in; i++) {
        in_names[i] = l->in_names[i];
        in_bits[i] = 0;
        for (b = 0; b < n; b++) {
            if (drop[b] || (i == 0 ? kind[b] > 0 : kind[b] != i)) continue;
            memcpy(nv + (size_t)m * (size_t)r, vals + (size_t)b * (size_t)r, sizeof vals[0] * (size_t)r);
            m++;
            in_bits[i]++;
        }
    }
    for (d = 0; d < r; d++) {
        out_names[d] = l->out_names[d];
        out_bits[d] = layout_log2_floor(shape[d]);
    }
    return layout_linear_from_bases(out, l->n_in, in_names, in_bits, nv, r, out_names, out_bits, err);
}

layout_status layout_triton_to_linear(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                      layout_linear *out, layout_error *err)
{
    mma_ll b;
    int k;
    if (!a || !out || (!shape && n_shape)) return layout_fail(err, LAYOUT_ERR_NULL, FN ": NULL argument");
    if (a->kind == LAYOUT_TRITON_LINEAR && !a->shared_linear && layout_linear_in_dim(&a->linear, "lane") >= 0) {
        layout_linear base;
        layout_status st;
        int same = 1;
        if (layout_linear_in_dim(&a->linear, "block") >= 0) {
            if ((st = layout_triton_drop_empty_block(&a->linear, &base, err))) return st;
        } else {
            base = a->linear;
        }
        for (k = 0; k < n_shape && n_shape == base.n_out; k++) same &= shape[k] == ((int64_t)1 << base.out_bits[k]);
        if (n_shape > 0 && !same) return linear_on_shape(&base, n_shape, shape, out, err);
        *out = base;
        return layout_ok(err);
    }
    if (a->kind != LAYOUT_TRITON_BLOCKED && a->kind != LAYOUT_TRITON_AMD_MFMA && a->kind != LAYOUT_TRITON_AMD_WMMA &&
        a->kind != LAYOUT_TRITON_NVIDIA_MMA && a->kind != LAYOUT_TRITON_DOT_OPERAND && a->kind != LAYOUT_TRITON_SLICE)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, FN ": a shared-memory attribute has no register layout");
    if (n_shape != a->rank)
        return layout_fail(err, LAYOUT_ERR_ARG, FN ": the attribute has rank %d; the shape gives %d values", a->rank,
                           n_shape);
    for (k = 0; k < n_shape; k++)
        if (!layout_is_pow2(shape[k]) || shape[k] > ((int64_t)1 << 30))
            return layout_fail(err, LAYOUT_ERR_ARG, FN ": shape[%d] = %lld is not a power of two in 1..2^30", k,
                               (long long)shape[k]);
    ll_begin(&b, err);
    if (a->kind == LAYOUT_TRITON_BLOCKED)
        blocked_ll(&b, a, a->rank, shape);
    else if (a->kind == LAYOUT_TRITON_SLICE)
        slice_ll(&b, a, shape);
    else
        mma_or_dot_ll(&b, a, a->kind, a->parent, &a->mma, a->op_idx, a->k_width, shape);
    if (b.st) return b.st;
    *out = b.l;
    return layout_ok(err);
}
