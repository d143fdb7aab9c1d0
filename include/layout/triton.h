/**
 * @file triton.h
 * @brief Triton's TritonGPU layout attributes: `#ttg.swizzled_shared`,
 *        `#ttg.padded_shared`, `#ttg.amd_rotating_shared`,
 *        `#ttg.nvmma_shared`, `#ttg.blocked`, linear-layout bases
 *        (`#ttg.linear` / `LinearLayout.from_bases`), `#ttg.amd_mfma`,
 *        `#ttg.amd_wmma`, `#ttg.nvidia_mma`, `#ttg.dot_op` and `#ttg.slice`,
 *        parsed and printed, and converted to and from descriptors,
 *        distributions and linear layouts.
 *
 * Semantics follow Triton's main branch of late 2025 (the 3.5 / 3.6 line:
 * `swizzled_shared` with a CGA layout, `padded_shared` with a linear
 * component): the attribute descriptions in
 * include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td and the linear-layout
 * conversions of lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp.
 *
 * ## #ttg.swizzled_shared<{vec = V, perPhase = P, maxPhase = M, order = [1, 0]}>
 *
 * A 2-D shape [d0, d1] is needed (the attribute has none).  order[0] is the
 * contiguous dim; with C its length and (r, c) the (row, column) of an
 * element: `offset = r*C + (c ^ ((V * ((r / P) % M)) % C))` (the docs'
 * example: vec=2, perPhase=1, maxPhase=4 puts row 1 as 10 11 8 9 14 15 12 13).
 * Built by family.h (::LAYOUT_FAMILY_TRITON_SWIZZLED).
 *
 * ## #ttg.padded_shared<[I0:+P0, I1:+P1, ...] {order = [..], shape = [..]}>
 *
 * Element i of the 1-D shared buffer (before padding) lives at
 * `i + sum_k (i / I_k) * P_k` (I_k, P_k powers of two).  The linear
 * component maps i to the tensor coordinate: the short form
 * `{order = [1, 0], shape = [16, 32]}` is the identity (order[0] fastest);
 * the long form `{offset = [[0, 1], [0, 2], [2, 0], ...], block = []}` lists
 * the coordinate of each bit of i.  liblayout supports long forms whose
 * bases are a permutation of single coordinate bits (row / column
 * permutations, the common case); the shape comes from the bases.
 *
 * ## #ttg.amd_rotating_shared<{vec = V, perPhase = P, maxPhase = M, order = [1, 0]}>
 *
 * AMD's swizzle whose phase rotates from one block of P*M rows to the next
 * (LinearLayoutConversions.cpp sharedToLinearLayoutAMDRotating): with C the
 * length of order[0], `phase = (r / P) % M`, `block = (r / (P*M)) % M`,
 * `offset = r*C + (c ^ ((V * (phase ^ block)) % C))`.  Example: vec=4,
 * perPhase=2, maxPhase=4 on [64, 64]: row 8 (block 1, phase 0) xors the
 * column with 4, where swizzled_shared would repeat row 0's pattern
 * (Triton's unit test AMDRotatingShared2D_64x64).  A 2-D shape for a
 * descriptor; ranks 1 to 4 for layout_triton_shared_linear().
 *
 * ## #ttg.nvmma_shared<{swizzlingByteWidth = S, transposed = T, elementBitWidth = E [, fp4Padded = true] [, rank = N]}>
 *
 * The layout of Hopper / Blackwell MMA operands and TMA boxes
 * (nvmmaSharedToLinearLayout, getCoreMatrixLinearLayout; getTMABlockShape):
 * the contiguous dim (dim1; dim0 when transposed) is cut into blocks of
 * W = 8*S/E elements (S bytes); inside a block the strided dim's rows follow
 * each other, row r xor-ing 16-byte group g with `(r % 8) / (128 / S)`
 * (vec = 128/E, perPhase = 128/S, maxPhase = S/16: CUTLASS's
 * Swizzle<log2(S/16), 4, 3> on bytes); rows beyond the TMA box (256) follow
 * before the next block when not transposed, after all blocks when
 * transposed.  S = 0: row-major in boxes of at most 256 x 256.  Example:
 * S = 128, E = 16 on [64, 64]: the same offsets as
 * `#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>`;
 * on [64, 128] the columns 64..127 form a second 64 x 64 block after the
 * first (offset(0, 64) = 4096).  Triton's fatal errors are refused: the
 * contiguous dim shorter than W, fewer than 8 rows.  Descriptors are 2-D
 * (a memdesc's leading buffer dim is the caller's to drop);
 * layout_triton_shared_linear() also takes ranks 1 to 4 (the TMA box
 * collapsed to [rows, contiguous], swizzled, reshaped back) and fp4Padded
 * (Triton's MMAv5Fp4Padded: of each 16 offsets along the contiguous dim the
 * upper 8 repeat the coordinates of the lower 8, so no descriptor).
 *
 * ## #ttg.blocked<{sizePerThread = [..], threadsPerWarp = [..], warpsPerCTA = [..], order = [..]}>
 *
 * A distribution of a tensor of shape S (needed) over prod(warpsPerCTA) warps
 * of prod(threadsPerWarp) lanes.  Along dim d the CTA tile is
 * `sizePerThread[d] * threadsPerWarp[d] * warpsPerCTA[d]` elements,
 * coordinate = ((rep*W + w)*T + t)*E + e (warp w, lane digit t, register
 * digit e, repetition rep).  Lane and warp ids are mixed radix over the dims
 * with order[0] fastest.  Register index: the sizePerThread digits, order[0]
 * lowest, then the repetitions (S[d] larger than the CTA tile), order[0]
 * lowest (LinearLayoutConversions.cpp: blockedToLinearLayout builds the CTA
 * layout with out dims minor-to-major and ensureLayoutNotSmallerThan appends
 * the repetition bits in that order).  A shape smaller than the CTA tile broadcasts the highest digits
 * of that dim (warps first, then lanes): those threads hold the same data.
 * The result is a ck_tile encoding (layout_dist_make(): R = the broadcast
 * digits, H_d = [rep, warp, lane, register] digits).  All sizes and the
 * shape must be powers of two.  Broadcast registers (sizePerThread > shape:
 * Triton zeroes those register bases, so several registers of a thread hold
 * the same element) are a table distribution instead: the layout over the
 * shape enlarged to the CTA tile, each coordinate taken modulo the shape
 * (checked against Triton 3.6.0's to_linear_layout, tests/test_triton_fixtures.c).
 *
 * ## MMA layouts and their operands (register layouts of a matrix multiply)
 *
 *     #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true
 *                    [, tilesPerWarp = [2, 2]] [, elementBitWidth = 64]}>
 *     #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2] [, instrShape = [16, 16, 32]]}>
 *     #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
 *     #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{...}>, kWidth = 8}>
 *     #ttg.slice<{dim = 1, parent = #ttg.blocked<{...}>}>
 *
 * Each is, on a shape, exactly the linear layout Triton 3.6 builds
 * (LinearLayoutConversions.cpp: AMDMfmaEncodingAttr::toLinearLayout,
 * mfmaDotToLinearLayout, fmaDotToLinearLayout, AMDWmmaEncodingAttr::toLinearLayout,
 * wmmaDotOperandToLinearLayout, NvidiaMmaEncodingAttr::toLinearLayout,
 * nvidiaDotToLinearLayout, SliceEncodingAttr::toLinearLayout), read with
 * layout_triton_to_linear() or as a table distribution with
 * layout_triton_to_dist().  amd_mfma: 64 lanes; each holds 4 consecutive
 * elements (1 for 64-bit elements) along M (along N when transposed),
 * lanes along N then M, the instruction's further registers, then
 * tilesPerWarp and the warps along N, the N repetitions, tilesPerWarp and
 * the warps along M.  nvidia_mma: 32 lanes, 2 registers x 4 lanes along N,
 * 8 lanes along M, the 16 x N tile by registers; warps row-major on Ampere
 * (versionMajor 2), column-major on Hopper (3).  amd_wmma: 32 lanes on a
 * 16x16 tile.  dot_op: the A (opIdx 0, [M, K]) or B (opIdx 1, [K, N])
 * operand, kWidth consecutive K elements per register run, warps broadcast
 * along K; of a blocked parent (an FMA operand, no kWidth): the parent with
 * the whole K extent per thread, lanes and warps broadcast along K.  slice: the parent on the shape with a 1 inserted at `dim`, that
 * dim dropped, the register bases that became zero removed.  Rank 2 or 3
 * (a leading batch dim: amd_mfma, amd_wmma, Ampere nvidia_mma and their
 * dot_op; a blocked parent's dot_op 2 to 4; a slice one less than its
 * parent's, up to 4); one CTA; a parent written inline (a TTGIR alias is refused,
 * naming it).  tests/test_triton_peer.c runs Triton's own unit test of
 * these functions (LinearLayoutConversionsTest.cpp): every expectation on
 * one CTA agrees.  tests/test_triton_mma.c lists where each expected layout
 * comes from; tests/test_triton_mma_fixtures.c compares 498 cases with the
 * bases real Triton 3.6.0's to_linear_layout gave (all equal).
 *
 * ## Linear layouts
 *
 *     #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0]], warp = [], block = []}>
 *     {"register": [[0, 1], [0, 2]], "lane": [[1, 0], [2, 0]]}
 *     {"offset": [[0, 1], [0, 2], [1, 0]]}, {"dim0": 2, "dim1": 4}
 *
 *     #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 2]], block = []}, alignment = 16>
 *
 * Each input dim lists the image (one value per output dim) of each of its
 * bits, the form `LinearLayout.from_bases` takes (the Python dict, quotes
 * optional) and `#ttg.linear` prints.  Output dims are dim0, dim1, ...;
 * their sizes follow from the bases (the next power of two above the largest
 * value) unless a trailing size dict `{"dim0": N, ...}` gives them.  Parsed
 * with linear.h's layout_linear_from_bases().  `#ttg.shared_linear` is
 * Triton's general shared layout (offset -> coordinate, any F2-linear
 * bijection); its `alignment` is the allocation's byte alignment, kept but
 * not part of the mapping (export writes 16).
 *
 * ## A whole kernel: the attributes where the TTGIR uses them
 *
 * These attributes come from a kernel's TTGIR, which ttgir.h reads as MLIR
 * into an IR of every op.  The layout of the tensor a `tt.reduce` reduces,
 * and the op that made it (docs/ttgir.md has the complete program):
 * @code
 *   static layout_ttgir m;                          // the module (several MiB: static or heap)
 *   layout_ttgir_parse(text, len, &m, &err);         // comments, multi-line ops and types are MLIR's
 *   for (int i = 0; i < m.ir.n_ops; i++) {
 *       if (!layout_ttgir_ir_op_is(&m, i, "tt.reduce")) continue;
 *       int v = layout_ttgir_ir_operand(&m, i, 0);   // its input, an SSA value
 *       layout_ttgir_type t;
 *       layout_ttgir_ir_value_type(&m, v, &t);       // tensor<64xf32, #blocked>: shape, element
 *       const char *attr; size_t n;
 *       layout_ttgir_encoding(&m, &t, &attr, &n);    // "#ttg.blocked<{...}>", aliases resolved
 *       layout_triton_attr a; size_t where;
 *       layout_triton_from_text(attr, &a, &where, &err); // read here (needs a NUL-terminated copy)
 *       int def = layout_ttgir_ir_def(&m, v);        // the tt.load that made it
 *   }
 * @endcode
 *
 * Thread safety: reentrant, allocation-free (the table form of a
 * distribution uses the caller's buffer).  Errors: as text.h (column,
 * `*where` for layout_text_caret()).
 */
#ifndef LAYOUT_TRITON_H
#define LAYOUT_TRITON_H

#include <stddef.h>
#include <stdint.h>

#include "layout/descriptor.h"
#include "layout/distribution.h"
#include "layout/linear.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum interval:+pad pairs of a padded_shared attribute. */
#define LAYOUT_TRITON_MAX_PADS 8
/** Maximum rank of a blocked, linear, slice or shared attribute: Triton's
 * tl.sort reshapes a tensor of 2^n elements to n dims of 2 (standard.py's
 * _bitonic_merge), so ranks well past a descriptor's ::LAYOUT_MAX_DIMS occur
 * in real kernels; MMA layouts stay at rank 2 or 3. */
#define LAYOUT_TRITON_MAX_RANK 20

/** Which attribute a ::layout_triton_attr holds. */
typedef enum layout_triton_kind {
    LAYOUT_TRITON_SWIZZLED_SHARED = 0, /**< `#ttg.swizzled_shared` */
    LAYOUT_TRITON_PADDED_SHARED = 1,   /**< `#ttg.padded_shared` */
    LAYOUT_TRITON_BLOCKED = 2,         /**< `#ttg.blocked` (a distribution) */
    LAYOUT_TRITON_LINEAR = 3,          /**< `#ttg.linear` or the from_bases dict (bases in `linear`) */
    LAYOUT_TRITON_AMD_MFMA = 4,        /**< `#ttg.amd_mfma` (parameters in `mma`) */
    LAYOUT_TRITON_AMD_WMMA = 5,        /**< `#ttg.amd_wmma` (parameters in `mma`) */
    LAYOUT_TRITON_NVIDIA_MMA = 6,      /**< `#ttg.nvidia_mma` (parameters in `mma`) */
    LAYOUT_TRITON_DOT_OPERAND = 7,     /**< `#ttg.dot_op` (opIdx, kWidth; the parent: an MMA kind in `mma`, or blocked in the blocked fields) */
    LAYOUT_TRITON_SLICE = 8,           /**< `#ttg.slice` (dim; the parent in `parent`) */
    LAYOUT_TRITON_AMD_ROTATING_SHARED = 9, /**< `#ttg.amd_rotating_shared` (vec, perPhase, maxPhase, order) */
    LAYOUT_TRITON_NVMMA_SHARED = 10    /**< `#ttg.nvmma_shared` (swizzlingByteWidth, transposed, elementBitWidth, fp4Padded) */
} layout_triton_kind;

/**
 * The parameters of an MMA layout attribute (`#ttg.amd_mfma`,
 * `#ttg.amd_wmma`, `#ttg.nvidia_mma`), also when it is the parent of a
 * `#ttg.dot_op` or a `#ttg.slice`.
 */
typedef struct layout_triton_mma {
    int rank;                                /**< rank (warpsPerCTA's length; 2, or 3 with a leading batch dim) */
    int version;                             /**< amd_mfma / amd_wmma: version; nvidia_mma: versionMajor */
    int version_minor;                       /**< nvidia_mma: versionMinor */
    int n_instr;                             /**< entries of instr_shape (0 when not given: wmma's default) */
    int64_t instr_shape[4];                  /**< instrShape: (M, N[, K]) */
    int is_transposed;                       /**< amd_mfma isTransposed, amd_wmma isTranspose */
    int64_t warps_per_cta[LAYOUT_MAX_DIMS];  /**< warpsPerCTA */
    int64_t tiles_per_warp[LAYOUT_MAX_DIMS]; /**< amd_mfma tilesPerWarp (all 1 when not given) */
    int has_tiles_per_warp;                  /**< tilesPerWarp was given (printed back only when not all 1, as Triton) */
    int element_bit_width;                   /**< amd_mfma elementBitWidth (32 when not given) */
} layout_triton_mma;

/** A parsed Triton layout attribute (fields by kind; others zero). */
typedef struct layout_triton_attr {
    layout_triton_kind kind;              /**< which attribute */
    int rank;                             /**< tensor rank (order's length, or the bases' width; nvmma_shared: its `rank`, 2 unless printed) */
    int order[LAYOUT_TRITON_MAX_RANK];           /**< order (fastest dim first); swizzled, padded short form, blocked */
    int64_t vec;                          /**< swizzled_shared: vec */
    int64_t per_phase;                    /**< swizzled_shared: perPhase */
    int64_t max_phase;                    /**< swizzled_shared: maxPhase */
    int n_pads;                           /**< padded_shared: interval:+pad pairs */
    int64_t interval[LAYOUT_TRITON_MAX_PADS]; /**< padded_shared intervals (powers of two) */
    int64_t pad[LAYOUT_TRITON_MAX_PADS];      /**< padded_shared paddings (powers of two) */
    int has_shape;                        /**< padded_shared short form: shape given */
    int64_t shape[LAYOUT_TRITON_MAX_RANK];       /**< padded_shared short form / long form (derived) shape */
    int n_offset_bits;                    /**< padded_shared long form: bases of `offset` */
    int offset_dim[64];                   /**< long form: coordinate dim of offset bit b */
    int offset_bit[64];                   /**< long form: coordinate bit of offset bit b */
    int64_t size_per_thread[LAYOUT_TRITON_MAX_RANK];  /**< blocked */
    int64_t threads_per_warp[LAYOUT_TRITON_MAX_RANK]; /**< blocked */
    int64_t warps_per_cta[LAYOUT_TRITON_MAX_RANK];    /**< blocked */
    layout_linear linear;                 /**< linear bases */
    int shared_linear;                    /**< LINEAR read from / printed as `#ttg.shared_linear<{offset = ..}, alignment = N>` */
    int64_t alignment;                    /**< shared_linear: the allocation's byte alignment (not part of the mapping) */
    layout_triton_mma mma;                /**< MMA kinds; dot_op: its parent; slice: its parent's (or its parent dot_op's parent) */
    layout_triton_kind parent;            /**< dot_op: the parent's kind (an MMA kind, or BLOCKED: an FMA operand); slice: the parent's kind (BLOCKED, an MMA kind or DOT_OPERAND) */
    layout_triton_kind dot_parent;        /**< slice of a dot_op: that dot_op's parent kind */
    int parent_rank;                      /**< slice: the parent's rank (rank + 1); a blocked parent's fields are the blocked ones above */
    int op_idx;                           /**< dot_op (also a slice's dot_op parent): opIdx, 0 (A) or 1 (B) */
    int k_width;                          /**< dot_op (also a slice's dot_op parent): kWidth */
    int slice_dim;                        /**< slice: dim (of a slice of slices: the innermost, applied to the parent first) */
    int n_outer_slices;                   /**< slice of slices: the slices applied after it (0: none) */
    int outer_slice_dims[LAYOUT_TRITON_MAX_RANK];/**< their dims, innermost first: rank = parent_rank - 1 - n_outer_slices */
    int swizzling_byte_width;             /**< nvmma_shared: swizzlingByteWidth (0, 32, 64 or 128) */
    int transposed;                       /**< nvmma_shared: transposed (dim0 contiguous) */
    int element_bit_width;                /**< nvmma_shared: elementBitWidth */
    int fp4_padded;                       /**< nvmma_shared: fp4Padded (a linear layout, not a descriptor: not injective) */
} layout_triton_attr;

/**
 * Parse any of the attributes above (the kind is read from the text).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_PARSE (syntax, an unknown or
 * missing field); ::LAYOUT_ERR_ARG (a value that is not a power of two, an
 * order that is not a permutation, a basis of several bits, ...) at the
 * value's column; linear.h's errors for the bases.
 */
layout_status layout_triton_from_text(const char *text, layout_triton_attr *out, size_t *where, layout_error *err);

/**
 * Print the attribute in Triton's syntax (canonical spacing as Triton's
 * printer: `#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>`).
 * Linear layouts print as `#ttg.linear<{register = [...], lane = [...], warp = [...], block = []}>`
 * when their input dims are register / lane / warp, else as the dict form.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_BUFFER.
 */
layout_status layout_triton_to_text(const layout_triton_attr *a, char *buf, size_t cap, layout_error *err);

/**
 * The descriptor of a shared attribute: swizzled_shared, amd_rotating_shared
 * and nvmma_shared need @p shape (2 values; the last two built from
 * layout_triton_shared_linear()); padded_shared takes its shape from the attribute (a given
 * @p shape must agree); a linear layout with input dim `offset` (Triton's
 * shared direction offset -> dims) is inverted, one with input dims
 * dim0.. and output `offset` is taken as is (linear.h).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (no shape for swizzled_shared,
 * not 2-D); ::LAYOUT_ERR_MISMATCH (shape disagrees); ::LAYOUT_ERR_UNSUPPORTED
 * (blocked is a distribution); family.h / linear.h errors.
 */
layout_status layout_triton_to_desc(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                    layout_descriptor *out, layout_error *err);

/**
 * The distribution of a blocked attribute over @p shape (see the file
 * comment), or of a linear layout with input dims register / lane / warp,
 * or of an MMA, dot_op or slice attribute (layout_triton_to_linear() on
 * @p shape; a table distribution written into @p table, capacity
 * @p table_cap values, which must outlive @p out; may be NULL for blocked
 * unless it broadcasts registers; a table needs warps * lanes * registers *
 * rank values, the message names the number).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (shape rank, non powers of
 * two, more than 64 lanes); ::LAYOUT_ERR_UNSUPPORTED (broadcast registers
 * without a table, a shared attribute); ::LAYOUT_ERR_BUFFER (broadcast
 * registers, table too small: the message names the size);
 * layout_dist_make() / linear.h errors.
 */
layout_status layout_triton_to_dist(const layout_triton_attr *a, int n_shape, const int64_t *shape, int64_t *table,
                                    size_t table_cap, layout_distribution *out, layout_error *err);

/**
 * The linear layout of a distributed attribute on @p shape, exactly as
 * Triton 3.6 defines it (`toLinearLayout` in
 * lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp, one CTA): input dims
 * `register`, `lane`, `warp` (no `block`), output dims `dim0`.. of the
 * shape's sizes.  Every distributed kind: blocked, amd_mfma, amd_wmma,
 * nvidia_mma, dot_op of those three, slice of any of them, and linear
 * (returned as given, without its empty `block`).  Rank 2, or 3 with a
 * leading batch dim (every MMA kind and its dot_op but Hopper's
 * nvidia_mma); blocked and its FMA dot_op any rank up to 4; a slice one
 * less than its parent.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (shape rank, a size that is
 * not a power of two, a shape Triton asserts against); ::LAYOUT_ERR_UNSUPPORTED
 * (a shared attribute, a field combination Triton 3.6 rejects or liblayout
 * does not model, named in the message); linear.h's errors (capacity).
 */
layout_status layout_triton_to_linear(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                      layout_linear *out, layout_error *err);

/**
 * Triton's linear layout of a shared attribute on @p shape (its rank, 1 to 4), exactly as
 * Triton 3.6 builds it (LinearLayoutConversions.cpp:
 * swizzledSharedToLinearLayout, sharedToLinearLayoutAMDRotating,
 * nvmmaSharedToLinearLayout; one CTA): input dim `offset` (element offset
 * bits, in Triton's basis order), output dims `dim0`, `dim1`, .. of the
 * shape's sizes.  Rank 1 is the identity; from rank 2 the swizzle acts on
 * order[1] (rows) and order[0] (columns), the identity on the other dims.  Example: `#ttg.amd_rotating_shared<{vec = 2, perPhase = 2,
 * maxPhase = 2, order = [1, 0]}>` on [8, 16] has offset bases
 * [0,1] [0,2] [0,4] [0,8] [1,0] [2,2] [4,2] (Triton's unit test
 * AMDRotatingShared2D_8x16_ord10).  layout_triton_to_desc() builds the
 * descriptor of nvmma_shared from this layout (inverted), and that of
 * amd_rotating_shared from ck_tile transforms with the same offsets.
 * Kinds: swizzled_shared, amd_rotating_shared, nvmma_shared.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (not as many sizes as the
 * attribute's rank, a size that is
 * not a power of two, more than 2^::LAYOUT_TRITON_MAX_SHARED_TILE_LOG2
 * elements, an nvmma_shared shape smaller than its swizzle tile, as Triton's
 * fatal errors); ::LAYOUT_ERR_UNSUPPORTED (another kind, a rank above 4).
 */
layout_status layout_triton_shared_linear(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                          layout_linear *out, layout_error *err);

/**
 * Recognise a descriptor as a Triton shared attribute: swizzled_shared
 * first (2-D; every vec, perPhase, maxPhase power of two and both orders,
 * built with family.h and compared on the whole tile), then padded_shared
 * with the identity linear component (order [1, 0] or [0, 1]; intervals and
 * paddings read off the offsets, then verified), then padded_shared with
 * any permutation of the coordinate bits (the long form: the unit
 * coordinates sorted by offset give the permutation, since the padded offset
 * grows with the index; verified likewise), then `#ttg.shared_linear`
 * for any other descriptor that is an F2-linear bijection onto
 * 0..2^k-1 (linear.h's layout_desc_to_linear(), inverted).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_UNSUPPORTED naming why.
 */
layout_status layout_triton_from_desc(const layout_descriptor *d, layout_triton_attr *out, layout_error *err);

/**
 * Recognise a distribution as `#ttg.blocked`: rank 1 or 2, every X length,
 * the wave size and the warp count powers of two; every sizePerThread,
 * threadsPerWarp (product = wave size), warpsPerCTA (product = warps) and
 * order is built with layout_triton_to_dist() over the distribution's X
 * lengths and compared on every (warp, lane, register); the first exact
 * match (register numbering included) is returned.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_UNSUPPORTED naming why (then
 * `#ttg.linear` via layout_dist_to_linear() may still express it).
 */
layout_status layout_triton_from_dist(const layout_distribution *d, layout_triton_attr *out, layout_error *err);

/**
 * The Gluon source that builds shared attribute @p a, in Triton 3.6's
 * constructors (triton.experimental.gluon.language as `gl`):
 *
 *     swizzled_shared      gl.SwizzledSharedLayout(vec=V, per_phase=P, max_phase=M, order=[..])
 *     nvmma_shared         gl.NVMMASharedLayout(swizzle_byte_width=S, element_bitwidth=E, rank=R,
 *                                               transposed=T, fp4_padded=F)
 *     padded_shared        gl.PaddedSharedLayout.with_identity_for([[I, P], ..], [shape], [order])
 *     shared_linear        gl.SharedLinearLayout(offset_bases=[..], block_bases=[..], alignment=A)
 *
 * Example: `#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8,
 * order = [1, 0]}>` -> `gl.SwizzledSharedLayout(vec=8, per_phase=1,
 * max_phase=8, order=[1, 0])`.  snprintf semantics (@p buf may be NULL
 * when @p cap is 0; truncation is no error; *@p needed, may be NULL, gets
 * the full length).  Thread safety: pure.
 * (signatures read from the 3.6.0 wheel's gluon/language/_layouts.py;
 * Gluon 3.6 has no amd_rotating_shared constructor.)
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_UNSUPPORTED (not a shared
 * attribute, amd_rotating_shared, a padded_shared with explicit offset bases).
 */
layout_status layout_triton_to_gluon(const layout_triton_attr *a, char *buf, size_t cap, size_t *needed,
                                     layout_error *err);

/** Parse then build a descriptor (see layout_triton_to_desc()); parse errors carry @p where. */
layout_status layout_desc_from_triton(const char *text, int n_shape, const int64_t *shape, layout_descriptor *out,
                                      size_t *where, layout_error *err);

/** layout_triton_from_desc() then layout_triton_to_text(). */
layout_status layout_desc_to_triton(const layout_descriptor *d, char *buf, size_t cap, layout_error *err);

/**
 * Print a linear layout as bases text: `#ttg.linear<{...}>` for register /
 * lane / warp input dims, else `{"name": [[..], ..], ...}, {"dim0": N, ...}`
 * (output sizes always given, so the text parses back to the same layout).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_BUFFER.
 */
layout_status layout_linear_to_triton_text(const layout_linear *ll, char *buf, size_t cap, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_TRITON_H */
