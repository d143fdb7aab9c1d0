/**
 * @file limits.h
 * @brief Fixed capacities of liblayout's value types.
 *
 * liblayout never allocates in its core paths: descriptors, adaptors,
 * distributions and reports are plain structs of fixed capacity.  These
 * constants bound them; a request beyond a bound fails with
 * ::LAYOUT_ERR_CAPACITY and a message naming the bound.
 */
#ifndef LAYOUT_LIMITS_H
#define LAYOUT_LIMITS_H

#include <stdint.h>

/** Maximum number of top (visible) or bottom dimensions of an adaptor / descriptor. */
#define LAYOUT_MAX_DIMS 8
/** Maximum number of upper or lower dimensions of a single transform. */
#define LAYOUT_MAX_TRANSFORM_DIMS 8
/** Maximum number of transforms in one adaptor (all stages together). */
#define LAYOUT_MAX_TRANSFORMS 24
/** Maximum number of hidden dimensions of one adaptor. */
#define LAYOUT_MAX_HIDDEN 48
/** Maximum lanes of one wave / warp. */
#define LAYOUT_MAX_LANES 64

/**
 * @name Limits of the text forms (dialects)
 * One place for the bounds every reader checks and every writer honours
 * (docs/limits.md, "Dialects"): a writer never prints a form its own reader
 * refuses (each writer reads its text back before it returns it), and a
 * reader never accepts a layout the library cannot evaluate.  Linear
 * layouts (linear.h) bound each dim at ::LAYOUT_LINEAR_MAX_DIM_BITS bits.
 * @{
 */
/** Largest element offset of any descriptor, in any dialect: the element
 *  space (largest offset + 1) of a descriptor is at most INT64_MAX, so
 *  `(_2):(_9223372036854775806)` in CuTe is at the limit and
 *  `(_2):(_9223372036854775807)` one past it, as `naive([2],[...])` is. */
#define LAYOUT_MAX_OFFSET (INT64_MAX - 1)
/** Coordinates of a tile that a dialect's recogniser verifies one by one
 *  (a descriptor written as CuTe, Triton or IREE is checked against the
 *  descriptor at every coordinate): 2^22. */
#define LAYOUT_DIALECT_MAX_TILE (1 << 22)
/** CuTe `Sw<B,M,S>`: the highest bit a swizzle reads or writes, M + |S| + B. */
#define LAYOUT_CUTE_MAX_SWIZZLE_BIT 62
/** Triton `#ttg.swizzled_shared`: vec, perPhase and maxPhase are powers of two up to 2^30. */
#define LAYOUT_TRITON_MAX_SWIZZLE_LOG2 30
/** Triton `#ttg.padded_shared`: intervals are powers of two up to 2^40 elements. */
#define LAYOUT_TRITON_MAX_INTERVAL_LOG2 40
/** Triton `#ttg.padded_shared`: paddings are powers of two up to 2^20 elements. */
#define LAYOUT_TRITON_MAX_PAD_LOG2 20
/** Triton shared layouts' `alignment`: a power of two up to 2^20 bytes. */
#define LAYOUT_TRITON_MAX_ALIGNMENT_LOG2 20
/** Triton `#ttg.amd_rotating_shared` / `#ttg.nvmma_shared` built on a 2-D
 *  shape: both sizes powers of two, at most 2^40 elements in all. */
#define LAYOUT_TRITON_MAX_SHARED_TILE_LOG2 40
/** IREE `#iree_codegen.xor_shuffle`: every parameter at most 2^30. */
#define LAYOUT_IREE_MAX_PARAM_LOG2 30
/** @} */

#endif /* LAYOUT_LIMITS_H */
