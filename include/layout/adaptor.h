/**
 * @file adaptor.h
 * @brief The one engine: transforms composed over numbered hidden dimensions.
 *
 * An adaptor is ck_tile's `tensor_adaptor`: a list of transforms over
 * numbered *hidden* dimensions.  Transform i reads the hidden ids in
 * `lower_hidden[i]` and writes those in `upper_hidden[i]` (build order,
 * bottom first).  Some hidden ids are the *top* (visible) dims, some the
 * *bottom* dims.  Evaluation writes a top index into the hidden vector, runs
 * the transforms from last to first (each computes its lower ids from its
 * upper ids) and reads the bottom dims.  Descriptors (descriptor.h) and tile
 * distributions are both adaptors.
 *
 * Example: bottom h0 (an offset); unmerge([2, 3]) h0 <- (h1, h2); top (h1, h2):
 * @code
 *   top (i, j)   j=0 1 2
 *        i=0       0 1 2      bottom = 3i + j
 *        i=1       3 4 5
 * @endcode
 *
 * Construction validates everything (ids, capacities, every transform via
 * layout_transform_check()) and bounds every hidden index over all in-range
 * top coordinates: if any value reachable during evaluation could overflow
 * int64 the adaptor is rejected with ::LAYOUT_ERR_OVERFLOW, so evaluation
 * needs no checks.
 *
 * Ownership: ::layout_adaptor is a plain fixed-capacity value (no pointers);
 * copy it freely.  Thread safety: all functions are reentrant; a const
 * adaptor may be evaluated from many threads.  Error contract: fallible calls
 * return a ::layout_status, fill @p err (may be NULL) and leave out-params
 * untouched on failure; @p out may alias @p in.
 */
#ifndef LAYOUT_ADAPTOR_H
#define LAYOUT_ADAPTOR_H

#include <stddef.h>
#include <stdint.h>

#include "layout/limits.h"
#include "layout/status.h"
#include "layout/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A list of dimension ids: ck_tile's `sequence<...>`. */
typedef struct layout_seq {
    int n;                                  /**< number of ids, 0..::LAYOUT_MAX_TRANSFORM_DIMS */
    int ids[LAYOUT_MAX_TRANSFORM_DIMS];     /**< the ids, `ids[0..n)` */
} layout_seq;

/** C only: a ::layout_seq compound literal with the listed ids, e.g. `LAYOUT_SEQ(1, 0)` (at most 8 ids). */
#define LAYOUT_SEQ(...) \
    ((layout_seq){ (int)(sizeof((int[]){ __VA_ARGS__ }) / sizeof(int)), { __VA_ARGS__ } })
/** C only: the empty sequence `sequence<>` (for freeze's upper side, insert's lower side). */
#define LAYOUT_SEQ_EMPTY ((layout_seq){ 0, { 0 } })

/**
 * Sequence from an array (works in C and C++): `ids[0..n)`; n is clamped to
 * 0..::LAYOUT_MAX_TRANSFORM_DIMS (a longer list would be rejected anyway by
 * the constructors, so build it with care).
 */
static inline layout_seq layout_seq_from(int n, const int *ids)
{
    layout_seq s;
    int i;
    s.n = n < 0 ? 0 : (n > LAYOUT_MAX_TRANSFORM_DIMS ? LAYOUT_MAX_TRANSFORM_DIMS : n);
    for (i = 0; i < LAYOUT_MAX_TRANSFORM_DIMS; i++) s.ids[i] = i < s.n ? ids[i] : 0;
    return s;
}

/**
 * A tensor adaptor (see the file comment).  Built only by the constructors
 * below; read the fields freely.
 */
typedef struct layout_adaptor {
    int n_transforms;                                    /**< number of transforms */
    layout_transform transforms[LAYOUT_MAX_TRANSFORMS];  /**< in build order, bottom first */
    layout_seq lower_hidden[LAYOUT_MAX_TRANSFORMS];      /**< hidden ids on the lower side of transform i (computed by it) */
    layout_seq upper_hidden[LAYOUT_MAX_TRANSFORMS];      /**< hidden ids on the upper side of transform i */
    int n_hidden;                                        /**< hidden ids are 0..n_hidden-1 */
    int n_bottom;                                        /**< number of bottom dims */
    int bottom_hidden[LAYOUT_MAX_DIMS];                  /**< hidden id of each bottom dim */
    int n_top;                                           /**< number of top dims */
    int top_hidden[LAYOUT_MAX_DIMS];                     /**< hidden id of each top dim */
    int64_t hidden_lengths[LAYOUT_MAX_HIDDEN];           /**< length of each hidden dim as declared by the transform writing it on its upper side (0 = unknown, e.g. bottom dims) */
} layout_adaptor;

/**
 * The general constructor (ck_tile's tensor_adaptor with explicit hidden ids).
 *
 * Rules checked: 0 <= n_transforms <= ::LAYOUT_MAX_TRANSFORMS; 1..::LAYOUT_MAX_DIMS
 * bottom and top dims; ids in 0..::LAYOUT_MAX_HIDDEN-1; each transform passes
 * layout_transform_check() and its sequence sizes equal its n_lower / n_upper;
 * each hidden id is written (upper side) by at most one transform and is not
 * a bottom dim; each hidden id is read (lower side) by at most one transform;
 * every lower id is a bottom dim or an upper id of an *earlier* transform;
 * top ids are distinct, written by some transform and read by none; bottom
 * ids distinct; no value reachable during evaluation overflows int64.
 *
 * Example: bottom {0}, unmerge([2,3]) lower {0} upper {1, 2}, top {1, 2}
 * gives the 2x3 row-major grid of the file comment.
 *
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_CAPACITY, ::LAYOUT_ERR_DIM_ID,
 * ::LAYOUT_ERR_ARG / ::LAYOUT_ERR_MISMATCH (a bad transform),
 * ::LAYOUT_ERR_OVERFLOW.  @p out untouched on error.
 */
layout_status layout_adaptor_from_hidden(layout_adaptor *out, int n_transforms, const layout_transform *transforms,
                                         const layout_seq *lower_hidden, const layout_seq *upper_hidden,
                                         int n_bottom, const int *bottom_hidden, int n_top, const int *top_hidden,
                                         layout_error *err);

/**
 * ck_tile's make_single_stage_tensor_adaptor: `lower_ids[i]` are bottom dim
 * numbers (together a permutation of 0..n_bottom-1), `upper_ids[i]` top dim
 * numbers (together a permutation of 0..n_top-1).  Bottom dim b is hidden
 * id b; top dim p is hidden id n_bottom + p.
 * Example: one merge([4, 8]) lower {0, 1} upper {0}: top p -> bottom (p/8, p%8).
 * Errors: as layout_adaptor_from_hidden(), plus ::LAYOUT_ERR_DIM_ID when
 * the ids are not permutations.
 */
layout_status layout_adaptor_single_stage(layout_adaptor *out, int n_transforms, const layout_transform *transforms,
                                          const layout_seq *lower_ids, const layout_seq *upper_ids,
                                          layout_error *err);

/**
 * ck_tile's transform_tensor_adaptor: add one stage on top of @p in.
 * `lower_ids[i]` are OLD top dims consumed by transform i (together a
 * permutation of all old top dims); `upper_ids[i]` are NEW top positions of
 * its upper dims (together a permutation of 0..n_new-1).  New hidden ids are
 * appended in transform order; old transforms and bottom dims stay.
 * Errors: as layout_adaptor_from_hidden(); ::LAYOUT_ERR_DIM_ID for ids that
 * are not permutations.  @p out may alias @p in.
 */
layout_status layout_adaptor_transform(layout_adaptor *out, const layout_adaptor *in, int n_transforms,
                                       const layout_transform *transforms, const layout_seq *lower_ids,
                                       const layout_seq *upper_ids, layout_error *err);

/** Number of top dims (0 for NULL). */
int layout_adaptor_top_ndims(const layout_adaptor *a);
/** Number of bottom dims (0 for NULL). */
int layout_adaptor_bottom_ndims(const layout_adaptor *a);
/** Length of top dim @p dim; -1 if @p a is NULL or @p dim is out of range. */
int64_t layout_adaptor_top_length(const layout_adaptor *a, int dim);
/** Number of top coordinates: product of the top lengths (fits int64: checked at construction); -1 for NULL. */
int64_t layout_adaptor_top_size(const layout_adaptor *a);

/**
 * Bottom index of a top index: run the transforms last to first.
 * Reads `top[0..n_top)`, writes `bottom[0..n_bottom)`.
 * Example: for the 2x3 unmerge of the file comment, top (1, 2) gives bottom 5.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE (a top index outside
 * 0..length-1; the message names it).  @p bottom untouched on error.
 */
layout_status layout_adaptor_calculate_bottom(const layout_adaptor *a, const int64_t *top, int64_t *bottom,
                                              layout_error *err);

/**
 * As layout_adaptor_calculate_bottom() without any check, for hot paths.
 * Precondition: @p a built by a constructor, 0 <= top[i] < top length i.
 * Then no arithmetic can overflow (proved at construction).
 */
void layout_adaptor_calculate_bottom_unchecked(const layout_adaptor *a, const int64_t *top, int64_t *bottom);

/**
 * Every hidden index of a top index: writes `hidden[0..n_hidden)` (hidden ids
 * nobody writes are 0).  Unchecked like layout_adaptor_calculate_bottom_unchecked().
 */
void layout_adaptor_calculate_hidden_unchecked(const layout_adaptor *a, const int64_t *top, int64_t *hidden);

/**
 * 1 when every transform maps the top index's hidden values to valid lower
 * values (only pads can say no), else 0.  Unchecked: 0 <= top[i] < length.
 */
int layout_adaptor_is_valid_unchecked(const layout_adaptor *a, const int64_t *top);

/**
 * ck_tile's vector-hint propagation.  Start from the guaranteed (length,
 * stride) per hidden id (-1 = none; NULL = all none), go through the
 * transforms in build order applying each kind's rule, a guaranteed value
 * overriding the rule's result; write the hints of the top dims into
 * `lengths[0..n_top)` and `strides[0..n_top)` (-1 = unknown).
 * Errors: ::LAYOUT_ERR_NULL.
 */
layout_status layout_adaptor_vector_hints(const layout_adaptor *a, const int64_t *guaranteed_lengths,
                                          const int64_t *guaranteed_strides, int64_t *lengths, int64_t *strides,
                                          layout_error *err);

/**
 * Print the transform chain, one transform per line:
 * `  t1: xor(32, 8)  [h5, h4] <- [h7, h6]` (lower ids <- upper ids), then the top and bottom hidden
 * ids.  snprintf semantics (returns the full length; -1 for NULL @p a).
 */
int layout_adaptor_print(const layout_adaptor *a, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_ADAPTOR_H */
