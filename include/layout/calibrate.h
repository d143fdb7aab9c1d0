/**
 * @file calibrate.h
 * @brief Prediction against measurement: a kernel check's figures held
 *        against one dispatch of a profile (profile.h).
 *
 * The checker predicts, per side of a kernel (kernel.h), the instructions
 * every wave issues, the conflict (extra) cycles and the total cycles over
 * all tiles.  The profilers count the same things under other names:
 *
 *   NVIDIA (Nsight Compute)                       predicted as
 *     shared store / load instructions            write / read  sq_insts_lds   (instructions x tiles)
 *     shared store / load bank conflicts          write / read  sq_lds_bank_conflict (extra cycles x tiles)
 *     shared store / load wavefronts              write / read  total_cycles_per_tile x tiles
 *   AMD (rocprofv3)
 *     SQ_INSTS_LDS                                write + read  sq_insts_lds
 *     SQ_LDS_BANK_CONFLICT                        write + read  sq_lds_bank_conflict
 *
 * layout_calibrate() lists, for every counter the dispatch measured and
 * the architecture's vendor predicts, both figures and whether they are
 * equal.  Example: seed kernel 01 on gfx942, 8192 tiles, measured by
 * rocprofv3 as SQ_LDS_BANK_CONFLICT 3670016 and SQ_INSTS_LDS 294912:
 * @code
 *   layout_calibration c;
 *   layout_calibrate(&arch, &result, &profile.dispatches[0], &c, &err);
 *   // c.n_rows 2, c.rows[0] {LAYOUT_CTR_SQ_LDS_BANK_CONFLICT, 3670016, 3670016, equal 1}, c.all_equal 1
 * @endcode
 *
 * A plain value, no heap, thread-safe.  Errors: ::LAYOUT_ERR_NULL;
 * ::LAYOUT_ERR_MISMATCH when the dispatch measured none of the counters the
 * architecture's vendor has (an AMD profile held against an NVIDIA arch).
 */
#ifndef LAYOUT_CALIBRATE_H
#define LAYOUT_CALIBRATE_H

#include <stdint.h>

#include "layout/arch.h"
#include "layout/kernel.h"
#include "layout/profile.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One counter, predicted and measured. */
typedef struct layout_calibration_row {
    layout_counter counter; /**< which counter */
    int64_t predicted;      /**< the checker's figure */
    int64_t measured;       /**< the profiler's */
    int equal;              /**< 1 when they are the same */
} layout_calibration_row;

/** Every counter of one dispatch that both sides have. */
typedef struct layout_calibration {
    int n_rows;                                   /**< rows filled */
    layout_calibration_row rows[LAYOUT_CTR_COUNT]; /**< in ::layout_counter order */
    int all_equal;                                /**< 1 when every row is equal */
} layout_calibration;

/**
 * The predicted value of counter @p c for @p result on @p arch (see the
 * table above); returns 1, or 0 (leaving *out) when the vendor of @p arch
 * has no such counter.  The vendor is layout_arch_vendor()'s: NVIDIA
 * (sm_ presets and their aliases, 32-lane archs without DS forms) predicts
 * the Nsight Compute metrics, AMD the rocprofv3 counters; Intel and
 * unknown architectures have no profiler counters.
 */
int layout_calibrate_predict(const layout_arch *arch, const layout_kernel_result *result, layout_counter c,
                             int64_t *out);

/**
 * Hold @p result (a kernel check on @p arch) against @p measured.
 * @return ::LAYOUT_OK, ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_MISMATCH (no counter
 *         in common); *out untouched on error.
 */
layout_status layout_calibrate(const layout_arch *arch, const layout_kernel_result *result,
                               const layout_profile_dispatch *measured, layout_calibration *out, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_CALIBRATE_H */
