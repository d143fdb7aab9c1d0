/**
 * @file verify.h
 * @brief Checks ck_tile lacks: injectivity, bijectivity, true contiguity,
 *        stage length mismatches and suspicious xor lengths.
 *
 * ck_tile trusts its descriptors: it never checks that two coordinates do
 * not share an offset, that an xor is a permutation, that a vector hint is
 * really contiguous, or that a transform's declared lengths match the dims
 * it consumes.  These calls answer those questions exactly.
 *
 * Two families:
 * - **Enumerating checks** (layout_desc_verify_offsets(),
 *   layout_desc_contiguity()) visit every top coordinate once or twice:
 *   cost O(N * T) time for N = layout_desc_size() coordinates and T
 *   transforms.  They never allocate: the offset checks use a caller-provided
 *   bitmap workspace whose size layout_desc_verify_workspace_size() reports
 *   (one bit per offset of the span [min(0, min offset), max(size-1, max offset)]);
 *   contiguity needs none.
 * - **Static checks** (layout_adaptor_diagnose()) read the transform chain
 *   only: cost O(T).
 *
 * Example: the seed's kernel 08 XOR descriptor on 64 banks (RowMul 2) is a
 * bijection onto [0, 2048), its K dim is contiguous in runs of 8 (the XOR
 * permutes whole 8-element packs), and layout_adaptor_diagnose() reports two
 * length mismatches: xor(32, 16) declares 32 for the B dim of length 16, and
 * pass_through(16) consumes the xor's upper dim declared 32.
 *
 * Thread safety: all functions are reentrant; the workspace belongs to the
 * caller for the duration of the call.  Error contract: a ::layout_status,
 * @p err filled on failure (may be NULL), out-params untouched on failure.
 * Findings are results, not errors.
 */
#ifndef LAYOUT_VERIFY_H
#define LAYOUT_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "layout/adaptor.h"
#include "layout/descriptor.h"
#include "layout/limits.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Outcome of layout_desc_verify_offsets(). */
typedef struct layout_offset_report {
    int64_t n_coords;              /**< top coordinates visited (layout_desc_size()) */
    int64_t n_valid;               /**< of those, valid (not in padding) */
    int64_t min_offset;            /**< smallest offset of a valid coordinate (0 if none) */
    int64_t max_offset;            /**< largest offset of a valid coordinate (-1 if none) */
    int injective;                 /**< 1: no two valid coordinates share an offset */
    int in_space;                  /**< 1: every valid offset lies in [0, element_space_size) */
    int bijective;                 /**< 1: injective, in space, and every offset of [0, element_space_size) is hit */
    int64_t collision_offset;      /**< when !injective: the first shared offset found (enumeration order) */
    int64_t collision_a[LAYOUT_MAX_DIMS]; /**< when !injective: the first coordinate with that offset */
    int64_t collision_b[LAYOUT_MAX_DIMS]; /**< when !injective: a later coordinate with the same offset */
    int64_t outside_coord[LAYOUT_MAX_DIMS]; /**< when !in_space: the first coordinate whose offset is outside */
    int64_t missing_offset;        /**< when injective and in space but not bijective: the smallest offset of [0, size) not hit; else -1 */
} layout_offset_report;

/**
 * Bytes of workspace layout_desc_verify_offsets() needs for @p d:
 * ceil(span / 8), span = max(size - 1, max offset) - min(0, min offset) + 1
 * over the valid coordinates.  Cost: one enumeration (O(N * T)).
 * Example: the 64x32 kernel 08 descriptor needs 256 bytes.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_OVERFLOW if the span does not fit size_t.
 */
layout_status layout_desc_verify_workspace_size(const layout_descriptor *d, size_t *bytes, layout_error *err);

/**
 * Enumerate every top coordinate and decide injectivity (no two valid
 * coordinates share an offset), whether offsets stay in
 * [0, element_space_size), and bijectivity onto [0, element_space_size);
 * on failure the report carries witnesses (coordinates, offsets).
 * @p workspace: at least layout_desc_verify_workspace_size() bytes, any
 * alignment, contents ignored and overwritten.  Cost: two enumerations
 * (three when a collision is found), O(N * T).
 * Example: naive [2, 2] strides [1, 1] is not injective: (0, 1) and (1, 0)
 * share offset 1.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_BUFFER (workspace too small; the
 * message gives the size needed).
 */
layout_status layout_desc_verify_offsets(const layout_descriptor *d, void *workspace, size_t workspace_bytes,
                                         layout_offset_report *report, layout_error *err);

/** *injective = report.injective of layout_desc_verify_offsets(); same workspace, cost and errors. */
layout_status layout_desc_is_injective(const layout_descriptor *d, void *workspace, size_t workspace_bytes,
                                       int *injective, layout_error *err);

/** *bijective = report.bijective of layout_desc_verify_offsets(); same workspace, cost and errors. */
layout_status layout_desc_is_bijective(const layout_descriptor *d, void *workspace, size_t workspace_bytes,
                                       int *bijective, layout_error *err);

/** True contiguity of one top dim, from layout_desc_contiguity(). */
typedef struct layout_contiguity {
    int64_t vector_length; /**< largest V dividing the dim's length such that every V-aligned group along the dim (other coordinates fixed) is valid and has offsets o, o+1, ..., o+V-1 */
    int64_t longest_run;   /**< longest run of valid coordinates along the dim with offsets increasing by exactly 1 */
    int has_break;         /**< 1 when some step along the dim is not +1 (then vector_length < length) */
    int64_t break_coord[LAYOUT_MAX_DIMS]; /**< when has_break: the coordinate c whose step to c + e_dim last lowered vector_length */
    int64_t break_delta;   /**< offset(c + e_dim) - offset(c) at break_coord (0 when padding broke it) */
} layout_contiguity;

/**
 * Measure how far dim @p dim is really contiguous: vector_length is what a
 * vector load along @p dim may safely use (compare with ck_tile's belief,
 * layout_desc_vector_hints()); XOR and padding can make it smaller.
 * A step is broken when either end is invalid (padding) or the offset does
 * not grow by exactly 1.  Cost: O(N * T), no workspace.
 * Example: packed [4, 8]: dim 1 vector_length 8 and longest_run 8 (a run
 * stays on one line of the dim), dim 0 vector_length 1 (steps of 8);
 * kernel 08's K dim: vector_length 8.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_DIM_ID (dim out of range).
 */
layout_status layout_desc_contiguity(const layout_descriptor *d, int dim, layout_contiguity *out,
                                     layout_error *err);

/** Kinds of static findings of layout_adaptor_diagnose(). */
typedef enum layout_diagnostic_kind {
    LAYOUT_DIAG_LENGTH_MISMATCH, /**< a transform declares a lower length (`declared`) different from the length its producer declared for that hidden dim (`actual`) */
    LAYOUT_DIAG_XOR_NOT_POW2,    /**< xor's modulus (its second length, `declared`) is not a power of two: its lower index can leave 0..len1-1 */
    LAYOUT_DIAG_FREEZE_RANGE     /**< freeze's value (`declared`) is not below the length of the dim it fixes (`actual`) */
} layout_diagnostic_kind;

/** One static finding about a transform chain. */
typedef struct layout_diagnostic {
    layout_diagnostic_kind kind; /**< what was found */
    int transform;               /**< index of the transform in build order */
    int position;                /**< position in its lower dims (1 for xor: the dim it permutes; 0 for freeze) */
    int hidden_id;               /**< hidden dim concerned */
    int64_t declared;            /**< the transform's value (lower length, xor modulus, freeze value) */
    int64_t actual;              /**< the other side's value (producer's length; 0 when not applicable) */
} layout_diagnostic;

/**
 * Static checks of the chain (ck_tile never cross-checks stages): length
 * mismatches between a transform's declared lower lengths and the lengths
 * of the dims it consumes, xor moduli that are not powers of two, freeze
 * values out of range.  Writes at most @p cap findings to @p out (may be
 * NULL when @p cap is 0) in build order and sets *count to the total found
 * (which may exceed @p cap).  Cost O(T).
 * Example: see the file comment (kernel 08, 64 banks: 2 mismatches).
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (cap < 0).
 */
layout_status layout_adaptor_diagnose(const layout_adaptor *a, layout_diagnostic *out, int cap, int *count,
                                      layout_error *err);

/**
 * One line of text for a finding, naming the transform, e.g.
 * "t4 pass_through(16): lower dim 0 (h4) declared length 16 but its producer declares 32".
 * @p a is the adaptor it came from (for the transform's text).
 * snprintf semantics; -1 when @p dg or @p a is NULL.
 */
int layout_diagnostic_print(const layout_diagnostic *dg, const layout_adaptor *a, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_VERIFY_H */
