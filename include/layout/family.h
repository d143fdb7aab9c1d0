/**
 * @file family.h
 * @brief Layout families: the padding and XOR-swizzle layouts of ck_tile,
 *        CuTe, Triton and IREE as parameterised constructors of ordinary
 *        ::layout_descriptor values, with an exhaustive,
 *        heap-free enumeration of every legal parameter set.
 *
 * # The tile and its storage
 *
 * A family lays out a logical tile `[len0, len1]` (`tile[2]`, elements).
 * `contiguous_dim` names the logical dim that is contiguous in storage:
 * 1 = row-major (`d1` fast), 0 = column-major (`d0` fast).  Below,
 * **R** = rows = `tile[1 - contiguous_dim]`, **C** = columns =
 * `tile[contiguous_dim]`, and (r, c) are the row / column of a coordinate:
 * with contiguous_dim 1, (r, c) = (d0, d1); with 0, (r, c) = (d1, d0).
 * Every built descriptor has top dims `[len0, len1]` (in that order) and
 * element offsets; its chain is built row-major on (r, c) exactly as the
 * native dialect's formula reads, with ck_tile transforms, and for
 * contiguous_dim 0 one last stage of two pass_through transforms swaps the
 * two top dims (as the seed kernels' transposed read view does).
 *
 * # Families, parameters (`p[]`, in this order) and offsets
 *
 * | kind | p[] | offset(r, c) |
 * |---|---|---|
 * | ::LAYOUT_FAMILY_PAD | pad | `r*(C+pad) + c` |
 * | ::LAYOUT_FAMILY_PAD_EVERY | rows N, pad | `r*C + (r/N)*pad + c` |
 * | ::LAYOUT_FAMILY_CK_XOR | kpack, mlds_layer L, row_mul (0 = 1) | seed kernel 08 generalised, below |
 * | ::LAYOUT_FAMILY_CUTE_SWIZZLE | B, M, S, byte_elem (0 = element offsets) | `swz(r*C + c)`, below |
 * | ::LAYOUT_FAMILY_TRITON_SWIZZLED | vec, perPhase, maxPhase | `r*C + ((c/vec) ^ ph)*vec + c%vec` |
 * | ::LAYOUT_FAMILY_IREE_XOR_SHUFFLE | row_width, access_width, row_stride, per_phase | `r*row_stride + ((c/aw) ^ ph)*aw + c%aw` |
 * | ::LAYOUT_FAMILY_XOR_PAD | `xor_kind`'s p[], plus `pad`, `pad_rows` | `xor_offset(r, c) + (r/pad_rows)*pad` |
 * | ::LAYOUT_FAMILY_F2 | (reserved for suggest.h / linear.h) | ::LAYOUT_ERR_UNSUPPORTED here |
 *
 * - **CK_XOR** (ck_tile's LDS docs and the ROCm CK-Tile blog; the talk's kernel
 *   08, docs/lds-model.md §4.2): KPerBlock = C, K0 = C/kpack,
 *   A = K0*L, B = R/L.  ck_tile's four steps: naive [A, B, kpack] strides
 *   [kpack, C*L, 1] with vector kpack; `xor(B*row_mul, A)` on (B, A):
 *   A' = A ^ (B % A), i.e. K0' = K0 ^ (M % (KPerBlock/KPack*MLdsLayer));
 *   unmerge A -> (L, K0); merge (B, L) -> r and (K0, kpack) -> c.  Offset
 *   `B*C*L + A'*kpack + c%kpack` with B = r/L, A = (r%L)*K0 + c/kpack.
 *   row_mul is ck_tile's RowMul: it only changes the xor's declared first
 *   length, never an offset.
 * - **CUTE_SWIZZLE** (CuTe `Swizzle<B, M, S>`): on the row-major element
 *   offset o = r*C + c, `swz(o) = o ^ ((o >> S) & (((1<<B)-1) << M))` for
 *   S >= 0; for S < 0 CuTe shifts left: `o ^ ((o << -S) & (((1<<B)-1) << (M-S)))`.
 *   With byte_elem = e > 0 the swizzle acts on the *byte* offset o*e (as
 *   CUTLASS writes it for 16-byte units, e.g. Swizzle<3,4,3> on fp16);
 *   that equals the element swizzle Swizzle<B, M - log2(e), S>.  ck_tile
 *   form: unmerge (r, c) -> o; merge o -> bit fields
 *   [hi, yyy, mid, zzz, lo] (S > 0; [hi, zzz, mid, yyy, lo] for S < 0);
 *   `xor(2^B, 2^B)` on (yyy, zzz): zzz' = zzz ^ yyy; packed base over the
 *   fields (lo always present, so ck_tile's vector hint is 2^M, the
 *   unswizzled granule).  B = 0 is the identity (packed [R, C]).
 * - **TRITON_SWIZZLED** (`#ttg.swizzled_shared<{vec, perPhase, maxPhase,
 *   order}>`, order[0] = contiguous_dim): Triton's linear-layout semantics
 *   (LinearLayoutConversions.cpp swizzledSharedToLinearLayout: the row
 *   basis of bit i is `(vec * ((2^i / perPhase) % maxPhase)) % C`), i.e.
 *   `ph = ((r / perPhase) % maxPhase) % (C / vec)`: the phase is reduced
 *   modulo C/vec, so maxPhase > C/vec acts as C/vec and vec >= C is the
 *   identity (the semantics of Triton 3.x main as of late 2025, whose
 *   shared encodings lower through linear layouts; its unit tests
 *   LinearLayoutConversionsTest.cpp SharedSwizzled2D_* are known answers in
 *   tests/test_family.c).  ck_tile form: naive [R/pp, pp, C/(vec*P), P, vec] (P =
 *   min(maxPhase, C/vec), pp = min(perPhase, R)), `xor(R/pp, P)` on
 *   (r/pp, group % P), merges back to (r, c).
 * - **IREE_XOR_SHUFFLE** (`#iree_codegen.xor_shuffle<row_width,
 *   access_width, row_stride, per_phase>`, the IREE swizzle talk,
 *   docs/lds-model.md §6): G = row_width /
 *   access_width, `ph = (r / per_phase) % G`, physical group = group ^ ph,
 *   offset = r*row_stride + physical column.  The talk's example:
 *   xor_shuffle<128,4,128,1>, tile[3][8] -> 3*128 + (2^3)*4 + 0 = 388.
 *   row_stride > row_width is IREE's own padding.  Semantics as that talk
 *   states them (IREE's C++ was not consulted); IREE's defaults
 *   row_stride = 0 / per_phase = 0 (meaning row_width / 1) must be resolved
 *   by the caller (the dialect parser) before calling here.
 * - **XOR_PAD** (seed kernel 05's shape): `xor_kind` names the XOR family
 *   (CK_XOR, CUTE_SWIZZLE, TRITON_SWIZZLED or IREE_XOR_SHUFFLE), p[] holds
 *   its parameters; `pad` elements follow every `pad_rows` rows of
 *   storage.  For CK_XOR the pad enters the base strides as in kernel 05
 *   (pad_rows = L: strides [kpack, C*L + pad, 1]; kernel 05 is pad 2 =
 *   L * 1, pad_rows 2).
 *
 * # Legal parameters (layout_family_check())
 *
 * Common: R, C >= 1, R*C*16 fits int64 comfortably (R*C <= 2^40),
 * contiguous_dim 0 or 1, every pad in 0..2^30.
 * - PAD: pad >= 0.
 * - PAD_EVERY: 1 <= N, N divides R; pad >= 0.
 * - CK_XOR: kpack >= 1 divides C; L >= 1 divides R; A = (C/kpack)*L is a
 *   power of two (so the xor stays a bijection on [0, A)); row_mul >= 0.
 * - CUTE_SWIZZLE: 0 <= B, M <= 30; |S| >= B (CuTe's static_assert) and
 *   |S| <= 30; for B > 0, 2^(M+|S|+B) divides R*C (every swizzled bit lies
 *   inside the tile).  byte_elem: 0, or a power of two <= 16 with
 *   2^M >= byte_elem (the swizzle never splits an element).
 * - TRITON_SWIZZLED: vec, perPhase, maxPhase powers of two >= 1; C a power
 *   of two; perPhase divides R or is >= R.
 * - IREE_XOR_SHUFFLE: row_width == C; access_width >= 1 divides row_width
 *   and row_width / access_width is a power of two; row_stride >=
 *   row_width; per_phase >= 1 divides R or is >= R.
 * - XOR_PAD: the base family's rules; pad >= 0; 1 <= pad_rows divides R;
 *   CK_XOR: pad_rows is a multiple of L; CUTE_SWIZZLE: 2^(M+|S|+B) divides
 *   pad_rows*C (the swizzle never crosses a pad).
 * - F2: never legal here (::LAYOUT_ERR_UNSUPPORTED).
 *
 * # LDS bytes
 *
 * layout_family_lds_bytes() = the built descriptor's element space size
 * times elem_bytes (ck_tile's rule: a trailing pad after the last row group
 * is not counted): `R*C + (R-1)*pad` (PAD), `R*C + (R/N - 1)*pad`
 * (PAD_EVERY, XOR_PAD), `R*C + (R-1)*(row_stride-C)` (IREE), `R*C`
 * otherwise.  The budget of the iterator is the number of *extra* bytes
 * allowed beyond `len0*len1*elem_bytes` (0 = no growth).
 *
 * # Enumeration order (layout_family_iter_next())
 *
 * Nested loops, first listed outermost, each ascending; a set is produced
 * when layout_family_check() accepts it and it fits the budget:
 * - PAD: pad = 0 .. maxpad (R = 1: pad 0 only).
 * - PAD_EVERY: N = 2 .. R-1 dividing R; pad = 1 .. maxpad.
 * - CK_XOR: kpack = 1 .. C; L = 1 .. R; row_mul = 1.
 * - CUTE_SWIZZLE: B = 1 .. 30; M = 0 .. 30; S = -30 .. 30; byte_elem = 0
 *   (the byte spelling is the same layout as an element one).
 * - TRITON_SWIZZLED: vec = 1, 2, 4 .. C; perPhase = 1, 2, 4 .. <= R;
 *   maxPhase = 1, 2, 4 .. C/vec.
 * - IREE_XOR_SHUFFLE: access_width = 1 .. C; per_phase = 1 .. R;
 *   row_stride = C + pad, pad = 0 .. maxpad (row_width = C).
 * - XOR_PAD: xor_kind in the order CK_XOR, CUTE_SWIZZLE, TRITON_SWIZZLED,
 *   IREE_XOR_SHUFFLE; that kind's loops above (IREE with row_stride = C);
 *   pad_rows = 1 .. R-1 (CK_XOR, CUTE, TRITON) or 2 .. R-1 (IREE: pad_rows 1
 *   is its own row_stride padding); pad = 1 .. maxpad.
 * - F2: nothing (exhausted at once).
 * where maxpad is the largest pad whose LDS bytes fit the budget.
 *
 * Ownership: every type here is a plain caller-owned value.  Thread
 * safety: all functions are pure and reentrant.  Errors: fallible calls
 * return a ::layout_status, fill @p err (may be NULL) with a message naming
 * the parameter and its value, and leave their outputs untouched.
 */
#ifndef LAYOUT_FAMILY_H
#define LAYOUT_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "layout/descriptor.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The layout families (file comment: parameters, offsets, legality). */
typedef enum layout_family_kind {
    LAYOUT_FAMILY_PAD,              /**< row pitch = C + pad elements; p = {pad} */
    LAYOUT_FAMILY_PAD_EVERY,        /**< one pad of `pad` elements after every N rows; p = {N, pad} */
    LAYOUT_FAMILY_CK_XOR,           /**< ck_tile KPack / MLdsLayer (seed kernel 08); p = {kpack, mlds_layer, row_mul} */
    LAYOUT_FAMILY_CUTE_SWIZZLE,     /**< CuTe Swizzle<B,M,S>; p = {B, M, S, byte_elem} */
    LAYOUT_FAMILY_TRITON_SWIZZLED,  /**< \#ttg.swizzled_shared; p = {vec, perPhase, maxPhase} */
    LAYOUT_FAMILY_IREE_XOR_SHUFFLE, /**< \#iree_codegen.xor_shuffle; p = {row_width, access_width, row_stride, per_phase} */
    LAYOUT_FAMILY_XOR_PAD,          /**< an XOR family (`xor_kind`, p) plus `pad` after every `pad_rows` rows */
    LAYOUT_FAMILY_F2,               /**< constructive F2 swizzle: built by suggest.h on linear.h; reserved here */
    LAYOUT_FAMILY_COUNT             /**< number of kinds (not a kind) */
} layout_family_kind;

/**
 * One member of a family: the kind and its native parameters.
 * Example: `{LAYOUT_FAMILY_CK_XOR, 1, {8, 2}}` is seed kernel 08 on 64x32;
 * `{LAYOUT_FAMILY_XOR_PAD, 1, {8, 2}, 2, 2, LAYOUT_FAMILY_CK_XOR}` is kernel 05
 * (B-row stride (32 + 1) * 2 = 66: 2 elements after every 2 rows).
 */
typedef struct layout_family_params {
    layout_family_kind kind;  /**< which family */
    int contiguous_dim;       /**< logical tile dim (0 or 1) contiguous in storage (1 = row-major [d0, d1]) */
    int64_t p[6];             /**< native parameters, order per kind (file comment); unused entries 0 */
    int64_t pad;              /**< XOR_PAD only: elements of padding after every `pad_rows` rows */
    int64_t pad_rows;         /**< XOR_PAD only: rows per padded group (divides R) */
    layout_family_kind xor_kind; /**< XOR_PAD only: the XOR family p[] belongs to */
} layout_family_params;

/**
 * Short name of a kind: "pad", "pad_every", "ck_xor", "cute_swizzle",
 * "triton_swizzled", "iree_xor_shuffle", "xor_pad", "f2"; "?" otherwise.
 * Never NULL; static storage.
 */
const char *layout_family_name(layout_family_kind kind);

/**
 * Kind from its short name (layout_family_name()).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_NOT_FOUND (message lists the names).
 */
layout_status layout_family_from_name(const char *name, layout_family_kind *out, layout_error *err);

/**
 * Is @p params legal for @p tile (rules in the file comment)?  Example:
 * CK_XOR kpack 8, L 3 on 64x32 fails with "... mlds_layer = 3 must divide
 * the rows (64)".  Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (an illegal
 * parameter, named with its value), ::LAYOUT_ERR_UNSUPPORTED (F2).
 */
layout_status layout_family_check(const layout_family_params *params, const int64_t tile[2], layout_error *err);

/**
 * Build the descriptor of @p params on @p tile: top dims `[tile[0],
 * tile[1]]`, element offsets as in the file comment.  Example: CK_XOR
 * {8, 2} on {64, 32} gives seed kernel 08's descriptor (offset(2, 0) = 72).
 * Errors: as layout_family_check(); ::LAYOUT_ERR_CAPACITY / ::LAYOUT_ERR_OVERFLOW
 * from the descriptor calls.  @p out untouched on error.
 */
layout_status layout_family_build(const layout_family_params *params, const int64_t tile[2], layout_descriptor *out,
                                  layout_error *err);

/**
 * LDS bytes the built layout occupies: its element space size times
 * @p elem_bytes (closed forms in the file comment; equal to
 * layout_desc_element_space_size() of the built descriptor).
 * Example: PAD 2 on 64x32 fp16: (64*32 + 63*2)*2 = 4348.
 * Errors: as layout_family_check(); ::LAYOUT_ERR_ARG for elem_bytes < 1.
 */
layout_status layout_family_lds_bytes(const layout_family_params *params, const int64_t tile[2], int elem_bytes,
                                      int64_t *bytes, layout_error *err);

/**
 * Element offset of the logical coordinate (d0, d1) by the family's closed
 * form (the table in the file comment), without building a descriptor:
 * the same value layout_desc_offset() gives on layout_family_build()'s
 * descriptor (tested on every parameter set), for search loops that score
 * many candidates and build descriptors only for the winners.
 * Precondition: layout_family_check() accepted @p params for @p tile and
 * 0 <= d0 < tile[0], 0 <= d1 < tile[1]; then nothing overflows.
 * Example: CK_XOR {8, 2} on {64, 32}: (2, 0) -> 72.
 */
int64_t layout_family_offset_unchecked(const layout_family_params *params, const int64_t tile[2], int64_t d0,
                                       int64_t d1);

/**
 * Checked batch form of layout_family_offset_unchecked(): @p n coordinates
 * `coords[2*i], coords[2*i+1]`, offsets into `offsets[0..n)`.  Every
 * coordinate is range-checked before any offset is written; n = 0 allows
 * NULL arrays.
 * Errors: as layout_family_check(); ::LAYOUT_ERR_NULL (coords, offsets with
 * n > 0); ::LAYOUT_ERR_RANGE ("coords[3][1] = 40 is outside 0..31").
 */
layout_status layout_family_offsets(const layout_family_params *params, const int64_t tile[2], size_t n,
                                    const int64_t *coords, int64_t *offsets, layout_error *err);

/**
 * Every element's offset at once, row-major over the tile:
 * `out[d0 * tile[1] + d1] = layout_family_offset_unchecked(params, tile,
 * d0, d1)`, one pass per storage row without divisions (the layout search
 * scores its padded candidates from this).  Example: PAD {1} on {2, 4}
 * gives 0 1 2 3 5 6 7 8.
 * Errors: as layout_family_check(); ::LAYOUT_ERR_NULL (out);
 * ::LAYOUT_ERR_BUFFER (cap < tile[0] * tile[1]; nothing written).
 * Thread-safe; no heap.
 */
layout_status layout_family_tile_offsets(const layout_family_params *params, const int64_t tile[2], int64_t *out,
                                         size_t cap, layout_error *err);

/**
 * Native spelling, snprintf semantics (returns the full length; negative for
 * NULL @p params): "pad 8", "pad 4 every 16 rows", "KPack=8 MLdsLayer=2"
 * (" RowMul=2" when row_mul > 1), "Swizzle<3,4,3>" (" on bytes of 2-byte
 * elements" with byte_elem), "swizzled_shared<vec=8, perPhase=1,
 * maxPhase=8, order=[1,0]>", "xor_shuffle<128,8,128,1>"; XOR_PAD: the base
 * spelling + " + pad 4 every 2 rows"; "F2 swizzle".  Parameters are printed
 * as given (no legality check).
 */
int layout_family_params_print(const layout_family_params *params, char *buf, size_t cap);

/**
 * Iterator over every legal parameter set of one kind (order in the file
 * comment).  A plain value; no heap.  Fields are private to lib/family/enumerate.c.
 */
typedef struct layout_family_iter {
    layout_family_kind kind;  /**< the kind enumerated */
    int64_t tile[2];          /**< the tile */
    int contiguous_dim;       /**< storage order of every produced set */
    int elem_bytes;           /**< element size (bytes) */
    int64_t budget_bytes;     /**< extra LDS bytes allowed beyond the tile */
    int64_t v[8];             /**< private: loop counters */
    int started;              /**< private: 0 before the first next() */
    int done;                 /**< 1 once exhausted */
    int64_t produced;         /**< parameter sets produced so far */
} layout_family_iter;

/**
 * Start enumerating @p kind for @p tile with element size @p elem_bytes and
 * @p budget_bytes extra LDS bytes (0 = no growth beyond the tile).
 * Errors: ::LAYOUT_ERR_NULL (it, tile); ::LAYOUT_ERR_ARG (kind out of range,
 * a tile length < 1 or R*C > 2^40, contiguous_dim not 0/1, elem_bytes not in
 * 1..16, budget_bytes < 0).  F2 is accepted and produces nothing.
 */
layout_status layout_family_iter_init(layout_family_iter *it, layout_family_kind kind, const int64_t tile[2],
                                      int contiguous_dim, int elem_bytes, int64_t budget_bytes, layout_error *err);

/** Next legal parameter set into @p out: 1 = produced one, 0 = exhausted (or NULL arguments). */
int layout_family_iter_next(layout_family_iter *it, layout_family_params *out);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_FAMILY_H */
