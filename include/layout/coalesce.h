/**
 * @file coalesce.h
 * @brief Global-memory coalescing of one wave instruction (docs/lds-model.md §5).
 *
 * The memory unit cuts the lanes' byte ranges into cache lines and issues one
 * transaction per distinct line (CDNA: 64-byte lines) or per distinct 32-byte
 * sector of 128-byte lines (NVIDIA):
 *
 *     lines    = { a / line_bytes : a in [addr_l, addr_l + W), l active }
 *     sectors  = { a / sector_bytes : same bytes }
 *     transactions = |sectors| if sector_bytes > 0 else |lines|
 *     fetched  = transactions * (sector_bytes or line_bytes)
 *     useful   = distinct bytes requested;  efficiency = useful / fetched
 *
 * Example (the talk's figures, docs/lds-model.md §5): 64 lanes x 16 B
 * contiguous on CDNA -> 16 transactions,
 * 1024 / 1024 = 100 %; 64 lanes x 4 B at a 256-byte stride -> 64
 * transactions, 256 / 4096 = 6.25 %.
 *
 * Addresses are the instruction's 32-bit byte addresses (offsets into the
 * buffer; the base is assumed line-aligned).  Pure functions, no
 * allocation, thread-safe.  Errors leave out-parameters untouched.
 */
#ifndef LAYOUT_COALESCE_H
#define LAYOUT_COALESCE_H

#include <stdint.h>

#include "layout/instr.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Line and sector sizes of a memory system. */
typedef struct layout_coalesce_params {
    int line_bytes;   /**< cache line: a power of two in 16..256 (CDNA 64, NVIDIA 128) */
    int sector_bytes; /**< 0 = whole lines are fetched; else a power of two in 4..line_bytes (NVIDIA 32) */
} layout_coalesce_params;

/** CDNA global memory: 64-byte lines, no sectors. */
layout_coalesce_params layout_coalesce_cdna(void);

/** NVIDIA global memory: 128-byte lines of 32-byte sectors. */
layout_coalesce_params layout_coalesce_nvidia(void);

/** Coalescing of one instruction. */
typedef struct layout_coalesce_result {
    int n_lines;             /**< distinct lines touched */
    int n_sectors;           /**< distinct sectors touched (= n_lines when sector_bytes is 0) */
    int n_transactions;      /**< n_sectors when sectors are used, else n_lines */
    int64_t fetched_bytes;   /**< n_transactions * transaction size */
    int64_t requested_bytes; /**< active lanes * width_bytes (counts overlapping lanes twice) */
    int64_t useful_bytes;    /**< distinct bytes requested */
    double efficiency;       /**< useful_bytes / fetched_bytes; 0 when nothing is fetched */
} layout_coalesce_result;

/**
 * Coalesce @p instr under @p params into @p out.
 * Errors: ::LAYOUT_ERR_NULL (instr, params, out); the errors of
 * layout_instr_validate(); ::LAYOUT_ERR_ARG for a line size not a power of
 * two in 16..256 or a sector size not 0 / a power of two in 4..line_bytes.
 */
layout_status layout_coalesce(const layout_instr *instr, const layout_coalesce_params *params,
                              layout_coalesce_result *out, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_COALESCE_H */
