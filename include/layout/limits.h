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

#endif /* LAYOUT_LIMITS_H */
