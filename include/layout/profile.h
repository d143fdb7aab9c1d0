/**
 * @file profile.h
 * @brief What a profiler measured: shared-memory counters per kernel
 *        dispatch, read from Nsight Compute or rocprofv3 CSV.
 *
 * The counters the checker predicts (kernel.h: per side, instructions,
 * conflict cycles and, on NVIDIA, wavefronts), as the profilers name them:
 *
 *   | counter                               | Nsight Compute metric                                       | rocprofv3 counter       |
 *   |---------------------------------------|-------------------------------------------------------------|-------------------------|
 *   | ::LAYOUT_CTR_SHARED_ST_CONFLICTS      | `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum`  |                         |
 *   | ::LAYOUT_CTR_SHARED_LD_CONFLICTS      | `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum`  |                         |
 *   | ::LAYOUT_CTR_SHARED_ST_WAVEFRONTS     | `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum`      |                         |
 *   | ::LAYOUT_CTR_SHARED_LD_WAVEFRONTS     | `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum`      |                         |
 *   | ::LAYOUT_CTR_SHARED_ST_INSTS          | `smsp__inst_executed_op_shared_st.sum`                      |                         |
 *   | ::LAYOUT_CTR_SHARED_LD_INSTS          | `smsp__inst_executed_op_shared_ld.sum`                      |                         |
 *   | ::LAYOUT_CTR_SQ_LDS_BANK_CONFLICT     |                                                             | `SQ_LDS_BANK_CONFLICT`  |
 *   | ::LAYOUT_CTR_SQ_INSTS_LDS             |                                                             | `SQ_INSTS_LDS`          |
 *
 * layout_profile_from_csv() takes the CSV either tool writes, one row per
 * dispatch (`ncu --csv --page raw`, rocprof v1 `results.csv`) or one row per
 * dispatch and counter (`ncu --csv`, whose rows name "Metric Name" and
 * "Metric Value"; rocprofv3's `counter_collection.csv`, "Counter_Name" and
 * "Counter_Value"); the `==PROF==` lines ncu mixes into its output are
 * skipped, numbers may carry thousands separators ("2,048") or a zero
 * fraction ("16384.000000").  Other columns and counters are ignored.
 * Example (the first data row of an ncu raw page):
 * @code
 *   static layout_profile p;                 // about 70 KiB
 *   if (layout_profile_from_csv(csv, strlen(csv), &p, &err) == LAYOUT_OK) {
 *       const layout_profile_dispatch *d = &p.dispatches[0];
 *       // d->kernel "matmul_kernel", d->value[LAYOUT_CTR_SHARED_LD_WAVEFRONTS] 2048
 *       if (d->present & (1u << LAYOUT_CTR_SHARED_LD_CONFLICTS)) ...
 *   }
 * @endcode
 *
 * Errors: ::LAYOUT_ERR_PARSE with the line and column (an unterminated
 * quote, a counter value that is not a whole non-negative number, a CSV
 * without a kernel-name column); ::LAYOUT_ERR_CAPACITY past
 * ::LAYOUT_PROFILE_MAX_DISPATCHES dispatches or ::LAYOUT_PROFILE_MAX_COLUMNS
 * columns.  No heap; thread-safe (only the arguments are touched); the
 * result copies what it keeps (kernel names truncated to 127 bytes).
 */
#ifndef LAYOUT_PROFILE_H
#define LAYOUT_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most dispatches one profile holds. */
#define LAYOUT_PROFILE_MAX_DISPATCHES 256
/** Most columns of one CSV row. */
#define LAYOUT_PROFILE_MAX_COLUMNS 1024

/** The counters read (see the table above). */
typedef enum layout_counter {
    LAYOUT_CTR_SHARED_ST_CONFLICTS = 0, /**< NVIDIA: bank conflicts of shared stores */
    LAYOUT_CTR_SHARED_LD_CONFLICTS,     /**< NVIDIA: bank conflicts of shared loads */
    LAYOUT_CTR_SHARED_ST_WAVEFRONTS,    /**< NVIDIA: wavefronts of shared stores */
    LAYOUT_CTR_SHARED_LD_WAVEFRONTS,    /**< NVIDIA: wavefronts of shared loads */
    LAYOUT_CTR_SHARED_ST_INSTS,         /**< NVIDIA: warp-level shared store instructions */
    LAYOUT_CTR_SHARED_LD_INSTS,         /**< NVIDIA: warp-level shared load instructions */
    LAYOUT_CTR_SQ_LDS_BANK_CONFLICT,    /**< AMD: cycles lost to LDS bank conflicts */
    LAYOUT_CTR_SQ_INSTS_LDS,            /**< AMD: LDS instructions issued (per wave) */
    LAYOUT_CTR_COUNT
} layout_counter;

/** One kernel dispatch and its counters. */
typedef struct layout_profile_dispatch {
    char kernel[128];                   /**< the kernel's name as the profiler printed it (truncated) */
    int64_t id;                         /**< the profiler's dispatch id (ncu "ID", rocprofv3 "Dispatch_Id"); -1 if none */
    unsigned present;                   /**< bit c set: value[c] was measured */
    int64_t value[LAYOUT_CTR_COUNT];    /**< the counters, indexed by ::layout_counter */
} layout_profile_dispatch;

/** A profile: the dispatches in the order the CSV lists them. */
typedef struct layout_profile {
    int n_dispatches;                                            /**< dispatches read */
    layout_profile_dispatch dispatches[LAYOUT_PROFILE_MAX_DISPATCHES]; /**< the dispatches */
} layout_profile;

/**
 * Read a profiler's CSV (len bytes) into *out; see the file comment for the
 * formats.  A dispatch without any of the counters is kept (present 0).
 * @return ::LAYOUT_OK, ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_PARSE (line and
 *         column in the message), ::LAYOUT_ERR_CAPACITY.  *out is
 *         unspecified on error.
 */
layout_status layout_profile_from_csv(const char *csv, size_t len, layout_profile *out, layout_error *err);

/** The counter's name as this header's table spells it for its vendor ("SQ_LDS_BANK_CONFLICT", ...). */
const char *layout_counter_name(layout_counter c);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_PROFILE_H */
