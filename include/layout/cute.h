/**
 * @file cute.h
 * @brief CuTe (CUTLASS 3.x) layouts: parse and print CuTe's printed form,
 *        emit the C++ expression that builds it, and convert to and from
 *        descriptors.
 *
 * ## Syntax (what CuTe's `print()` writes)
 *
 *     (_8,_64):(_64,_1)                       a row-major 8x64 tile
 *     ((_2,_4),_8):((_1,_16),_2)              a nested first mode
 *     _8:_1                                   a rank-1 layout of an integer shape
 *     Sw<3,4,3> o _0 o (_8,_64):(_64,_1)      a swizzle composed with a layout
 *
 * `_N` is a static (compile-time) integer, a plain `N` a dynamic one; both
 * mean the value N.  Shape and stride are congruent tuples (the same
 * nesting).  Whitespace may appear between tokens.
 *
 * ## Semantics (CuTe's docs, media/docs/cute/01_layout.md and 02_layout_algebra.md)
 *
 * - A layout maps a coordinate to `sum coord_leaf * stride_leaf` (the inner
 *   product over the leaves of the nested shape).
 * - A 1-D index into a mode (or the layout) becomes a coordinate
 *   colexicographically: the FIRST leaf varies fastest
 *   (index i of shape (2,4) is (i % 2, i / 2)).  This is CuTe's default,
 *   "column-major" generalised; `(_8,_64):(_64,_1)` is row-major only because
 *   its strides say so.
 * - `Sw<B,M,S> o O o L` maps c to `swz(O + L(c))` where, for S >= 0,
 *   `swz(x) = x ^ ((x & (((1<<B)-1) << (M+S))) >> S)` (the B bits at
 *   M+S..M+S+B-1 are XORed into the B bits at M..M+B-1); a negative S shifts
 *   left instead (the bits at M are XORed into the bits at M-S).  CuTe
 *   requires |S| >= B.
 *
 * ## Mapping to descriptors
 *
 * The descriptor's top dims are the layout's top-level modes, in order
 * (a layout whose shape is an integer has one).  A nested mode becomes a
 * merge of its leaves (last leaf most significant, i.e. colexicographic), so
 * the descriptor's coordinate along that dim is the mode's 1-D index.  A swizzle
 * becomes a bit split of the (offset + layout) value, an xor of the two
 * B-bit fields and a merge back: see layout_cute_to_desc().
 *
 * Export (layout_cute_from_desc()) recognises exactly: descriptors whose
 * every coordinate is valid and whose offset is `swz(O + sum_d g_d(c_d))`
 * for some swizzle (possibly the identity) and per-dim functions g_d that
 * are CuTe modes (a colexicographic mixed radix with non-negative strides,
 * found greedily from the unit steps and then verified on every coordinate).
 * Strides must be >= 0 (liblayout's naive descriptors have no negative
 * strides).  Nesting below the top level is printed flat:
 * `(((_2,_2),_2),_4)` comes back as `((_2,_2,_2),_4)`, the same layout.
 * Limits of the recogniser: dims up to 4096 long, tiles up to 2^22
 * coordinates, swizzles with B <= 12 whose source field starts inside the
 * offsets' bits; the greedy mode split may miss an exotic nested layout
 * (it then reports "not a CuTe layout" rather than guess).
 *
 * Ownership: ::layout_cute_layout is a plain value.  Thread safety: every
 * function is reentrant and allocation-free.  Errors: as text.h — parse
 * errors are ::LAYOUT_ERR_PARSE with "column C" and a byte offset in
 * `*where` for layout_text_caret().
 */
#ifndef LAYOUT_CUTE_H
#define LAYOUT_CUTE_H

#include <stddef.h>
#include <stdint.h>

#include "layout/descriptor.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum leaves of a CuTe layout (all modes together): the descriptor's base has one dim per leaf. */
#define LAYOUT_CUTE_MAX_LEAVES 8

/**
 * A parsed CuTe layout, optionally composed with a swizzle.
 *
 * Leaves are stored flat, mode by mode, each mode's leaves first-fastest
 * (as written).  Example: `((_2,_4),_8):((_1,_16),_2)` is n_modes = 2,
 * mode_first = {0, 2}, mode_count = {2, 1}, mode_is_tuple = {1, 0},
 * shape = {2, 4, 8}, stride = {1, 16, 2}.
 */
typedef struct layout_cute_layout {
    int n_modes;                              /**< top-level modes (1..::LAYOUT_MAX_DIMS) */
    int top_is_tuple;                         /**< 0 when the shape is a bare integer (`_8:_1`) */
    int mode_is_tuple[LAYOUT_MAX_DIMS];       /**< 1 when mode m is written as a tuple */
    int mode_first[LAYOUT_MAX_DIMS];          /**< first leaf of mode m */
    int mode_count[LAYOUT_MAX_DIMS];          /**< leaves of mode m (>= 1) */
    int n_leaves;                             /**< all leaves (1..::LAYOUT_CUTE_MAX_LEAVES) */
    int64_t shape[LAYOUT_CUTE_MAX_LEAVES];    /**< leaf extents (>= 1) */
    int64_t stride[LAYOUT_CUTE_MAX_LEAVES];   /**< leaf strides (>= 0) */
    unsigned char shape_static[LAYOUT_CUTE_MAX_LEAVES];  /**< 1 when written `_N` */
    unsigned char stride_static[LAYOUT_CUTE_MAX_LEAVES]; /**< 1 when written `_N` */
    int has_swizzle;                          /**< 1 for `Sw<B,M,S> o O o layout` */
    int sw_bits;                              /**< B (0..16) */
    int sw_base;                              /**< M (0..32) */
    int sw_shift;                             /**< S (|S| >= B) */
    int64_t sw_offset;                        /**< O (>= 0) */
    int sw_offset_static;                     /**< 1 when O was written `_O` */
} layout_cute_layout;

/**
 * Parse CuTe's printed form (see the file comment).
 * @param text   NUL-terminated text.
 * @param out    receives the layout; untouched on failure.
 * @param where  if non-NULL, receives the byte offset of an error.
 * @param err    may be NULL; e.g. "layout_cute_from_text: column 9: expected
 *               ':' between shape and stride, found end of input".
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_PARSE (syntax);
 *         ::LAYOUT_ERR_MISMATCH (shape and stride not congruent);
 *         ::LAYOUT_ERR_ARG (an extent < 1, a negative stride, |S| < B);
 *         ::LAYOUT_ERR_CAPACITY (more than ::LAYOUT_CUTE_MAX_LEAVES leaves,
 *         more than ::LAYOUT_MAX_DIMS modes, nesting deeper than 8).
 */
layout_status layout_cute_from_text(const char *text, layout_cute_layout *out, size_t *where, layout_error *err);

/**
 * Print the layout as CuTe prints it, e.g. `Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`.
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_BUFFER (cap too small;
 *         the message names the size needed).
 */
layout_status layout_cute_to_text(const layout_cute_layout *l, char *buf, size_t cap, layout_error *err);

/**
 * The C++ expression that builds the layout with CuTe, e.g.
 * `composition(Swizzle<3,4,3>{}, make_layout(make_shape(Int<8>{}, Int<64>{}),
 * make_stride(Int<64>{}, Int<1>{})))`; static values become `Int<N>{}`,
 * dynamic ones plain integers; a non-zero offset uses `make_composed_layout`.
 * @return as layout_cute_to_text().
 */
layout_status layout_cute_to_cpp(const layout_cute_layout *l, char *buf, size_t cap, layout_error *err);

/**
 * Offset of a coordinate computed straight from CuTe's definition: mode m's
 * 1-D index `coord[m]` is split colexicographically over its leaves, the
 * leaves are dotted with the strides, the swizzle (if any) is applied to
 * offset + sum.  This is the reference the descriptor must agree with.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_RANGE (a coordinate outside its mode's size);
 * ::LAYOUT_ERR_OVERFLOW (the offset does not fit in int64).
 */
layout_status layout_cute_offset(const layout_cute_layout *l, const int64_t *coord, int64_t *offset,
                                 layout_error *err);

/**
 * A descriptor with the layout's offsets: top dim m = mode m (length the
 * mode's size).  Without a swizzle: `naive(leaf shapes, leaf strides)` plus a
 * stage merging each nested mode's leaves (naive_off when a trivial swizzle
 * carries an offset).  With a swizzle (B > 0): the base splits the offset into
 * the digits [rest, high field, middle, low field, low bits], an xor stage
 * applies the swizzle, a merge rebuilds the value, an offset transform adds
 * O, an embed applies the strides and merges rebuild the nested modes.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_OVERFLOW (values beyond 2^62);
 * the descriptor constructors' errors.
 */
layout_status layout_cute_to_desc(const layout_cute_layout *l, layout_descriptor *out, layout_error *err);

/**
 * Recognise a descriptor as a CuTe layout (see the file comment for exactly
 * which ones); all values are printed static.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_UNSUPPORTED with the reason, e.g.
 * "layout_cute_from_desc: coordinate (0,33) is padding; CuTe layouts have no
 * padding" or "... the offsets are not a (swizzled) CuTe layout: dim 0 ...".
 */
layout_status layout_cute_from_desc(const layout_descriptor *d, layout_cute_layout *out, layout_error *err);

/** layout_cute_from_text() then layout_cute_to_desc(); errors of both (parse errors carry the offset). */
layout_status layout_desc_from_cute(const char *text, layout_descriptor *out, size_t *where, layout_error *err);

/** layout_cute_from_desc() then layout_cute_to_text(). */
layout_status layout_desc_to_cute(const layout_descriptor *d, char *buf, size_t cap, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_CUTE_H */
