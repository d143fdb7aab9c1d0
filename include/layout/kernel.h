/**
 * @file kernel.h
 * @brief The triple check: (write distribution, LDS descriptor, read
 * distribution) -> every instruction of every wave, costed on an
 * architecture, summed per tile and per kernel.
 *
 * This is the question users ask: "with this write distribution, this LDS
 * layout and this read distribution, what does my kernel's LDS traffic cost
 * on gfx942, gfx950, an H100?"  For each side an access plan
 * (access.h) gives the DS instructions of one thread; every warp's
 * instances are materialised and costed by the checker (check.h).  The
 * result is per tile; a kernel moving `tiles` tiles multiplies:
 *
 *     SQ_LDS_BANK_CONFLICT = tiles * sum over both sides, all warps, all instructions of extra cycles
 *     SQ_INSTS_LDS         = tiles * (write + read instructions per wave) * warps
 *
 * Seed 000 kernel 01 on gfx942 (64 x 32 fp16 tile, 4 waves, 8192 tiles):
 *
 *     write 1 x ds_write_b128  0 extra
 *     read  8 x ds_read_u16    14 extra each  -> 8*14*4 = 448 per tile
 *     SQ_LDS_BANK_CONFLICT 3,670,016   SQ_INSTS_LDS 294,912
 *
 * Speed: a search loop that scores many distributions against one layout
 * should compile each LDS view once (layout_plan_build(), plan.h) and pass it
 * as layout_access_options::desc_plan through write_opt / read_opt.
 *
 * Layering: this header sits above check.h; check.h knows nothing of
 * distributions.  Thread safety: reentrant, no heap; results are caller-owned
 * values (the internal access plans live on the stack: about 84 KiB in all).
 * Errors follow status.h.
 */
#ifndef LAYOUT_KERNEL_H
#define LAYOUT_KERNEL_H

#include "layout/status.h"
#include "layout/access.h"
#include "layout/arch.h"
#include "layout/check.h"
#include "layout/report.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Cost of one side (write or read) of one tile. */
typedef struct layout_side_result {
    layout_direction direction;        ///< which side
    int steps_per_wave;                ///< DS instructions each wave issues per tile
    int op_count[LAYOUT_DS_OP_COUNT];  ///< of those, how many of each op
    int n_misaligned;                  ///< flagged misaligned steps per wave (access.h)
    int n_noncontiguous;               ///< flagged non-contiguous steps per wave (access.h)
    int n_warps;                       ///< warps of the distribution
    int64_t instrs_per_tile;           ///< steps_per_wave * n_warps
    int64_t extra_cycles_per_tile;     ///< sum of extra (conflict) cycles over all warps' instructions
    int64_t total_cycles_per_tile;     ///< sum of total cycles (groups + extra)
    int worst_warp;                    ///< warp of the first instruction with the most extra cycles (-1 if none)
    int worst_step;                    ///< its step in the plan (-1 if none)
    int worst_extra;                   ///< its extra cycles
    int64_t sq_lds_bank_conflict;      ///< extra_cycles_per_tile * tiles
    int64_t sq_insts_lds;              ///< instrs_per_tile * tiles
    char ops[96];                      ///< plan summary in the arch vendor's names (layout_access_plan_print_vendor()), e.g. "8 x ds_read_u16" on gfx942, "8 x ld.shared.b16" on sm_90
} layout_side_result;

/** Result of ::layout_check_kernel / ::layout_check_triple. */
typedef struct layout_kernel_result {
    layout_side_result write;          ///< the store side
    layout_side_result read;           ///< the load side
    int64_t tiles;                     ///< tiles the kernel moves
    int64_t extra_cycles_per_tile;     ///< write + read
    int64_t instrs_per_tile;           ///< write + read, all warps
    int64_t sq_lds_bank_conflict;      ///< predicted SQ_LDS_BANK_CONFLICT over the kernel
    int64_t sq_insts_lds;              ///< predicted SQ_INSTS_LDS over the kernel
} layout_kernel_result;

/** What to check; read_desc NULL = the same view as the write side. */
typedef struct layout_kernel_spec {
    const layout_descriptor *write_desc;     ///< LDS view of the store (top dims = write_dist's X)
    const layout_distribution *write_dist;   ///< who stores what
    const layout_access_options *write_opt;  ///< NULL = ck_tile + compiler defaults
    const layout_descriptor *read_desc;      ///< LDS view of the load; NULL = write_desc
    const layout_distribution *read_dist;    ///< who loads what
    const layout_access_options *read_opt;   ///< NULL = defaults
    int elem_bytes;                          ///< bytes per element (1, 2, 4, 8, 16)
    int64_t tiles;                           ///< tiles per kernel (>= 1)
} layout_kernel_spec;

/**
 * Cost every instruction of every warp of @p plan on @p checker's arch.
 * @p tiles (>= 1) scales the sq_* totals.  Errors: ::LAYOUT_ERR_NULL,
 * ::LAYOUT_ERR_ARG (tiles), ::LAYOUT_ERR_MISMATCH (the distribution's wave
 * size differs from the arch's), checker errors (e.g. a width the arch
 * lacks), ::LAYOUT_ERR_OVERFLOW.
 */
layout_status layout_check_side(const layout_checker *checker, const layout_access_plan *plan, int64_t tiles,
                                layout_side_result *out, layout_error *err);

/**
 * The full check of @p spec on @p arch: both plans, every instruction of
 * every wave, totals over spec->tiles.  Errors: those of
 * ::layout_access_plan_make (prefixed by the side) and ::layout_check_side.
 */
layout_status layout_check_kernel(const layout_arch *arch, const layout_kernel_spec *spec,
                                  layout_kernel_result *out, layout_error *err);

/**
 * The triple check of one tile: (arch, write distribution, LDS descriptor,
 * read distribution, element size), both sides through the same @p lds view
 * and default options.  Same as ::layout_check_kernel with tiles = 1.
 */
layout_status layout_check_triple(const layout_arch *arch, const layout_distribution *write_dist,
                                  const layout_descriptor *lds, const layout_distribution *read_dist,
                                  int elem_bytes, layout_kernel_result *out, layout_error *err);

/**
 * The checker's report (report.h) of one tile of @p spec: a side "write"
 * and a side "read", each with all warps' instructions, totals, the first
 * conflicted instructions and the worst one explained group by group (print
 * it with layout_check_report_text()).  spec->tiles is ignored (one tile).
 *
 * The instructions of a side are materialised in the caller's @p scratch of
 * @p scratch_cap entries: *needed (may be NULL) receives the larger side's
 * count (n_warps * steps); @p scratch NULL with cap 0 is a query and returns
 * ::LAYOUT_OK without touching @p report.  Errors: as ::layout_check_kernel,
 * ::LAYOUT_ERR_BUFFER (scratch too small; *needed set), and those of
 * layout_check_report_add().
 */
layout_status layout_kernel_report(const layout_arch *arch, const layout_kernel_spec *spec, layout_instr *scratch,
                                   size_t scratch_cap, size_t *needed, layout_check_report *report,
                                   layout_error *err);

/**
 * Human summary, several lines:
 *
 *     write: 1 x ds_write_b128            per tile: 4 instrs, 0 conflict cycles
 *     read:  8 x ds_read_u16              per tile: 32 instrs, 448 conflict cycles
 *     kernel (8192 tiles): SQ_LDS_BANK_CONFLICT 3670016 (write 0, read 3670016), SQ_INSTS_LDS 294912 (write 32768, read 262144)
 *
 * snprintf semantics.
 */
int layout_kernel_result_print(const layout_kernel_result *r, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_KERNEL_H */
