/**
 * @file descriptor.h
 * @brief Tensor descriptors: ck_tile's naive / packed / aligned / transform
 *        descriptors, offsets, validity and vector hints.
 *
 * A descriptor is an adaptor (adaptor.h) whose single bottom dim, hidden id
 * 0, is the element offset, plus an element space size and the guaranteed
 * vector (length, stride) of each hidden dim.  Build a base descriptor with
 * layout_naive() / layout_packed() / layout_aligned(), then add stages with
 * layout_transform_descriptor(), exactly like ck_tile's
 * `transform_tensor_descriptor`, so a ck_tile descriptor ports line by line.
 *
 * Example: layout_naive() with lengths [2, 3] and strides [4, 1]:
 * @code
 *   offset(i, j) = 4i + j       j=0 1 2
 *                          i=0    0 1 2
 *                          i=1    4 5 6      element_space_size = 1 + 1*4 + 2*1 = 7
 * @endcode
 *
 * All offsets are in elements.  Lengths, strides and offsets are int64;
 * every construction bounds all values the evaluation can reach and fails
 * with ::LAYOUT_ERR_OVERFLOW if one could overflow, so offsets need no checks.
 *
 * Ownership: ::layout_descriptor is a plain fixed-capacity value (about
 * 8 KB, no pointers); copy it freely.  Thread safety: all functions are
 * reentrant; a const descriptor may be shared by threads.  Error contract:
 * fallible calls return a ::layout_status, fill @p err (may be NULL) and
 * leave every out-param untouched on failure; @p out may alias @p in.
 */
#ifndef LAYOUT_DESCRIPTOR_H
#define LAYOUT_DESCRIPTOR_H

#include <stddef.h>
#include <stdint.h>

#include "layout/adaptor.h"
#include "layout/limits.h"
#include "layout/status.h"
#include "layout/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A tensor descriptor (see the file comment).  Built only by the constructors below. */
typedef struct layout_descriptor {
    layout_adaptor adaptor;                              /**< bottom = hidden id 0 = element offset */
    int64_t element_space_size;                          /**< elements the tensor spans (ck_tile's rule per constructor) */
    int64_t guaranteed_vector_length[LAYOUT_MAX_HIDDEN]; /**< per hidden id, elements; -1 = none */
    int64_t guaranteed_vector_stride[LAYOUT_MAX_HIDDEN]; /**< per hidden id, elements; -1 = none */
} layout_descriptor;

/**
 * ck_tile make_naive_tensor_descriptor: offset = sum coord[i] * strides[i];
 * one embed from hidden 0 to hidden 1..n.
 * element_space_size = 1 + sum (lengths[i] - 1) * strides[i].
 * Example: lengths [2, 3], strides [4, 1]: rows `0 1 2` / `4 5 6`, size 7.
 * Strides must be >= 0 (a liblayout choice: ck_tile's element space size is
 * meaningless for negative strides).
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_CAPACITY (n outside 1..::LAYOUT_MAX_DIMS),
 * ::LAYOUT_ERR_ARG (length <= 0, stride < 0), ::LAYOUT_ERR_OVERFLOW.
 */
layout_status layout_naive(layout_descriptor *out, int n, const int64_t *lengths, const int64_t *strides,
                           layout_error *err);

/**
 * layout_naive() with ck_tile's optional guaranteed vector length / stride
 * of the LAST dim (-1 = unknown).  Example: the seed's kernel 08 base
 * descriptor, lengths [8, 32, 8], strides [8, 64, 1], length 8, stride 1.
 * Errors: as layout_naive(); ::LAYOUT_ERR_ARG for a length < 1 or a stride
 * < 0 other than -1.
 */
layout_status layout_naive_vec(layout_descriptor *out, int n, const int64_t *lengths, const int64_t *strides,
                               int64_t guaranteed_last_vector_length, int64_t guaranteed_last_vector_stride,
                               layout_error *err);

/**
 * ck_tile make_naive_tensor_descriptor_with_offset: offset = @p offset +
 * sum coord[i] * strides[i]; an offset transform below the embed.  The
 * element space size is that of layout_naive() (the base offset is not
 * counted, as in ck_tile).  Example: lengths [2], strides [1], offset 10:
 * offsets 10 11, size 2.
 * Errors: as layout_naive(); ::LAYOUT_ERR_OVERFLOW when offset + extent overflows.
 */
layout_status layout_naive_offset(layout_descriptor *out, int n, const int64_t *lengths, const int64_t *strides,
                                  int64_t offset, layout_error *err);

/**
 * ck_tile make_naive_tensor_descriptor_packed: row-major, one unmerge;
 * element_space_size = prod lengths; the last dim is guaranteed vector
 * length lengths[n-1] and stride 1 (ck_tile's current rule).
 * Example: lengths [2, 3]: rows `0 1 2` / `3 4 5`, size 6, last-dim hint (3, 1).
 * Errors: as layout_naive().
 */
layout_status layout_packed(layout_descriptor *out, int n, const int64_t *lengths, layout_error *err);

/**
 * layout_packed() with a guaranteed last-dim vector length: the hint becomes
 * max(lengths[n-1], @p guaranteed_last_vector_length) with stride 1
 * (-1 = no extra guarantee).
 * Errors: as layout_packed(); ::LAYOUT_ERR_ARG for a length < 1 other than -1.
 */
layout_status layout_packed_vec(layout_descriptor *out, int n, const int64_t *lengths,
                                int64_t guaranteed_last_vector_length, layout_error *err);

/**
 * ck_tile make_naive_tensor_descriptor_aligned: naive with strides
 * s[n-1] = 1, s[n-2] = least multiple of @p align >= lengths[n-1],
 * s[i] = s[n-2] * prod(lengths[i+1 .. n-2]) for i < n-2.
 * Example: lengths [2, 3], align 4: strides [4, 1], rows `0 1 2` / `4 5 6`.
 * Errors: as layout_naive(); ::LAYOUT_ERR_ARG for align <= 0.
 */
layout_status layout_aligned(layout_descriptor *out, int n, const int64_t *lengths, int64_t align,
                             layout_error *err);

/**
 * ck_tile transform_tensor_descriptor: one more stage on top of @p in.
 * `lower_ids[i]` = OLD top dims consumed by transforms[i] (together a
 * permutation of all old top dims); `upper_ids[i]` = NEW top positions of
 * its upper dims (together a permutation of 0..n_new-1).  New hidden dims are
 * appended in transform order, old transforms stay, the element space size
 * is inherited.
 *
 * Example (seed kernel 08, step 2), on the naive [8, 32, 8] base:
 * @code
 *   transforms = { xor(32, 8), pass_through(8) }
 *   lower_ids  = { {1, 0}, {2} }      upper_ids = { {1, 0}, {2} }
 * @endcode
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_CAPACITY (too many transforms,
 * dims or hidden dims), ::LAYOUT_ERR_DIM_ID (ids not permutations, a
 * sequence size different from the transform's dims, e.g. xor given one
 * dim), ::LAYOUT_ERR_ARG / ::LAYOUT_ERR_MISMATCH (a transform not built by
 * its constructor), ::LAYOUT_ERR_OVERFLOW.  @p out may alias @p in.
 */
layout_status layout_transform_descriptor(layout_descriptor *out, const layout_descriptor *in, int n_transforms,
                                          const layout_transform *transforms, const layout_seq *lower_ids,
                                          const layout_seq *upper_ids, layout_error *err);

/** Number of top dims (0 for NULL). */
int layout_desc_ndims(const layout_descriptor *d);
/** Length of top dim @p dim; -1 if @p d is NULL or @p dim out of range. */
int64_t layout_desc_length(const layout_descriptor *d, int dim);
/** Number of top coordinates (product of the top lengths); -1 for NULL. */
int64_t layout_desc_size(const layout_descriptor *d);
/** Element space size in elements (-1 for NULL). */
int64_t layout_desc_element_space_size(const layout_descriptor *d);

/**
 * Element offset of one top coordinate `coord[0..ndims)`.
 * Example: naive [2, 3] strides [4, 1], coord (1, 2) -> 6.
 * Padded (invalid) coordinates still get the offset ck_tile computes; ask
 * layout_desc_is_valid() whether to use it.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE ("coord[1] = 3 is outside 0..2").
 */
layout_status layout_desc_offset(const layout_descriptor *d, const int64_t *coord, int64_t *offset,
                                 layout_error *err);

/**
 * Offsets of @p n_coords coordinates: `coords` is n_coords x ndims,
 * row-major; writes `offsets[0..n_coords)`.  Every coordinate is
 * range-checked before any offset is written.  With n_coords = 0 the
 * pointers may be NULL.  When every transform of the chain is affine
 * (everything but merge, modulo and xor) the chain is folded once per call
 * into `base + sum coef[i] * coord[i]`, so the cost per coordinate is one
 * dot product; otherwise each coordinate runs through the chain.
 * Errors: as layout_desc_offset(); the message names `coords[k][d]`.
 */
layout_status layout_desc_offsets(const layout_descriptor *d, size_t n_coords, const int64_t *coords,
                                  int64_t *offsets, layout_error *err);

/**
 * Offset without checks for hot loops.  Precondition: @p d built by a
 * constructor and 0 <= coord[i] < length i; then nothing can overflow.
 */
int64_t layout_desc_offset_unchecked(const layout_descriptor *d, const int64_t *coord);

/**
 * *valid = 1 when the coordinate maps to a real element, 0 when it lies in
 * padding (some pad transform rejects it).
 * Example: transforming naive [3] by pad(3, 1, 1) gives valid 0 1 1 1 0.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE.
 */
layout_status layout_desc_is_valid(const layout_descriptor *d, const int64_t *coord, int *valid, layout_error *err);

/**
 * ck_tile's vector hints at the top dims: `lengths[0..ndims)` and
 * `strides[0..ndims)` (-1 = unknown), propagated from the guaranteed values
 * through every transform (see layout_adaptor_vector_hints()).  This is
 * what ck_tile *believes*; layout_desc_contiguity() (verify.h) measures what
 * is true.  Example: packed [4, 8] gives lengths (-1, 8), strides (-1, 1).
 * Errors: ::LAYOUT_ERR_NULL.
 */
layout_status layout_desc_vector_hints(const layout_descriptor *d, int64_t *lengths, int64_t *strides,
                                       layout_error *err);

/**
 * Readable print of the descriptor: top lengths, element space size, then
 * the transform chain with hidden ids, one transform per line.
 * snprintf semantics: returns the full length needed (-1 for NULL @p d).
 */
int layout_desc_print(const layout_descriptor *d, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_DESCRIPTOR_H */
