/**
 * @file lint.h
 * @brief Seed 002's stride lint, computed by the exact checker: the bank
 *        conflict of `arr[tid * S + k]` and the padding or SoA form that
 *        removes it (for `layout suggest --stride`).
 *
 * One instruction per direction: every lane l of one wave accesses one
 * element of @p elem_bytes at byte `l * S * elem_bytes` (k only shifts every
 * address by the same amount; k = 0 here).  The checker (check.h) costs it
 * with the arch's lane groups for that width.
 *
 * Closed form (where it applies: 4-byte elements on 4-byte banks, lane
 * groups of G consecutive lanes): with word stride w = S and
 * g = gcd(w, n_banks), the lanes of a group spread over `n_banks / g`
 * distinct banks, so the worst bank holds `ceil(G * g / n_banks)` distinct
 * words (1 when w = 0: one shared word).  For G = n_banks (32 lanes on
 * 32 banks) that is g-way: stride 2 -> 2-way, 4 -> 4-way, 64 -> 32-way, the
 * numbers the HLSL lint works through (docs/lds-model.md §4.3); its
 * printed formula 32 / gcd(S, 32)
 * is the count of distinct banks (stride 4: 8 banks, 4-way).  Example on
 * sm_90: S = 4 -> 4-way, 3 extra cycles; fix S' = 5 (1-way); SoA 1-way.
 *
 * Thread safety: pure, reentrant, no allocation.  Errors as status.h.
 */
#ifndef LAYOUT_LINT_H
#define LAYOUT_LINT_H

#include <stdint.h>

#include "layout/arch.h"
#include "layout/check.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Result of layout_stride_lint(). */
typedef struct layout_stride_lint_result {
    int64_t stride_elems;      /**< S as given */
    int elem_bytes;            /**< element size as given */
    layout_cost read;          /**< checker cost of the wave's load of arr[tid * S] */
    layout_cost write;         /**< checker cost of the wave's store */
    int conflict_factor;       /**< max(read.worst_nway, write.worst_nway): 1 = conflict free */
    int distinct_banks;        /**< banks touched by the first lane group (the HLSL lint's 32 / gcd(S, 32)) */
    int closed_form_applies;   /**< 1 when the closed form of the file comment applies (4-byte elements and banks, consecutive equal groups) */
    int closed_form_nway;      /**< ceil(G * gcd(S, n_banks) / n_banks) (1 for S = 0) when it applies, else 0 */
    int64_t fix_stride_elems;  /**< smallest S' >= S whose access is conflict free (both directions) */
    int fix_conflict_factor;   /**< conflict factor at S' (1 unless no S' within S .. S + 4 * n_banks * bank_width is free: then the best there) */
    int fix_extra_cycles;      /**< read + write extra cycles at S' */
    int soa_conflict_factor;   /**< structure of arrays: arr_k[tid] (stride 1 element) */
    int soa_extra_cycles;      /**< read + write extra cycles of the SoA form */
} layout_stride_lint_result;

/**
 * Lint `arr[tid * S + k]` on @p arch for elements of @p elem_bytes (1, 2,
 * 4, 8 or 16) and stride @p stride_elems >= 0.
 * Errors: ::LAYOUT_ERR_NULL (arch, out); errors of layout_arch_validate();
 * ::LAYOUT_ERR_ARG (elem_bytes, negative stride, a stride whose wave
 * addresses exceed 2^32 bytes); ::LAYOUT_ERR_UNSUPPORTED (the arch has no
 * instruction of that width).  @p out untouched on error.
 */
layout_status layout_stride_lint(const layout_arch *arch, int elem_bytes, int64_t stride_elems,
                                 layout_stride_lint_result *out, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_LINT_H */
