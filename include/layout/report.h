/**
 * @file report.h
 * @brief layout_check(): the one call for unit tests, and its report.
 *
 * `layout_check(arch, instrs, n, &report, &err)` returns the total extra
 * (conflict) cycles of a set of instructions — 0 means conflict-free — or a
 * negative ::layout_status, and fills a fixed-capacity report: totals, the
 * first conflicted instructions, and the worst instruction with every
 * group explained.  Printed as text (layout_check_report_text()):
 *
 *     gfx942: 1 instruction, 1 extra cycle, 9 total cycles (avx2)
 *       instrs: 1 instruction, 1 extra, 1 conflicted, worst instr 0 (1 extra, 2-way)
 *     gfx942 read b128 instr 0 group 2 (lanes 8-11,28-31): 2-way, bank 0 <- lane 8 @0x80, lane 28 @0x2c0
 *
 * or as JSON (layout_check_report_json()).
 *
 * A report has up to ::LAYOUT_REPORT_MAX_SIDES "sides", each the result of
 * one set of instructions with a label: layout_check() fills one side
 * labelled "instrs"; a higher layer checking a (write distribution, LDS
 * descriptor, read distribution) triple adds a "write" and a "read" side
 * with layout_check_report_add().  Report totals sum all sides.
 *
 * Ownership: the report is a caller-owned value (about 6 KiB) holding copies,
 * no pointers into the caller's data.  Thread safety: reentrant; no global
 * state.  Errors: statuses as in check.h; out-parameters untouched on error.
 */
#ifndef LAYOUT_REPORT_H
#define LAYOUT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "layout/arch.h"
#include "layout/check.h"
#include "layout/instr.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum sides (instruction sets) in one report. */
#define LAYOUT_REPORT_MAX_SIDES 4
/** Capacity of a side label, including the NUL. */
#define LAYOUT_REPORT_LABEL_CAP 16
/** How many conflicted instructions a side lists (the first ones, in order). */
#define LAYOUT_REPORT_MAX_LISTED 8

/** Result of one set of instructions. */
typedef struct layout_report_side {
    char label[LAYOUT_REPORT_LABEL_CAP];                /**< e.g. "instrs", "write", "read" */
    layout_cost_totals totals;                          /**< sums, worst index, conflicted count */
    size_t n_listed;                                    /**< entries used in listed_index / listed_extra */
    size_t listed_index[LAYOUT_REPORT_MAX_LISTED];      /**< indices of the first conflicted instructions */
    int listed_extra[LAYOUT_REPORT_MAX_LISTED];         /**< their extra cycles */
    int has_worst;                                      /**< 1 when the set was non-empty (worst_* valid) */
    layout_instr worst_instr;                           /**< copy of instrs[totals.worst_index] */
    layout_cost_detail worst_detail;                    /**< its per-group explanation (scalar reference) */
} layout_report_side;

/** What layout_check() fills: per-side results and totals over sides. */
typedef struct layout_check_report {
    char arch_name[LAYOUT_ARCH_NAME_CAP];               /**< the arch every side was checked on */
    layout_check_impl impl;                             /**< implementation used (SCALAR or AVX2) */
    int n_sides;                                        /**< sides used, 0..::LAYOUT_REPORT_MAX_SIDES */
    layout_report_side sides[LAYOUT_REPORT_MAX_SIDES];   /**< sides[0..n_sides-1] */
    size_t n_instrs;                                    /**< instructions over all sides */
    int64_t extra_cycles;                               /**< extra cycles over all sides (0 = conflict-free) */
    int64_t total_cycles;                               /**< total cycles over all sides */
} layout_check_report;

/**
 * Empty report for @p arch (no sides, zero totals).
 * Errors: ::LAYOUT_ERR_NULL (report, arch).
 */
layout_status layout_check_report_init(layout_check_report *report, const layout_arch *arch, layout_error *err);

/**
 * Check @p n instructions with @p checker and append them as a side named
 * @p label (NULL = "instrs"); report totals grow by the side's.
 * Errors: ::LAYOUT_ERR_NULL (report, checker, instrs with n > 0);
 * ::LAYOUT_ERR_ARG for a label of ::LAYOUT_REPORT_LABEL_CAP bytes or more;
 * ::LAYOUT_ERR_MISMATCH when the checker's arch name differs from the
 * report's; ::LAYOUT_ERR_CAPACITY when the report already has
 * ::LAYOUT_REPORT_MAX_SIDES sides; any instruction error of
 * layout_checker_cost_batch() (the message names the index).
 */
layout_status layout_check_report_add(layout_check_report *report, const layout_checker *checker,
                                      const char *label, const layout_instr *instrs, size_t n, layout_error *err);

/**
 * The one call for unit tests: total extra cycles of @p instrs on @p arch
 * (0 = conflict-free), or a negative ::layout_status on error.  When
 * @p report is non-NULL it is re-initialised and gets one side "instrs".
 * Uses ::LAYOUT_IMPL_AUTO.  Example:
 * `assert(layout_check(&gfx942, reads, 8, &rep, &err) == 0);`
 * Errors: as layout_checker_init() and layout_check_report_add().
 */
int64_t layout_check(const layout_arch *arch, const layout_instr *instrs, size_t n, layout_check_report *report,
                     layout_error *err);

/** layout_check() with a prepared checker (and so a chosen implementation). */
int64_t layout_check_with(const layout_checker *checker, const layout_instr *instrs, size_t n,
                          layout_check_report *report, layout_error *err);

/**
 * Text rendering (see the file description): a summary line, a line per
 * side, then one line per conflicted group of each side's worst
 * instruction: `<arch> <dir> b<bits> instr <i> group <g> (lanes ...): N-way,
 * bank B <- lane l @0xaddr, ...` listing one lane per distinct word.
 * On an NVIDIA architecture (an sm_ preset or alias, layout_arch_vendor())
 * the summary speaks Nsight Compute's words: "sm_90: 8 instructions, 32
 * bank conflicts, 64 wavefronts (avx2)" (the same figures as extra and
 * total cycles).  snprintf semantics: writes at most cap-1 characters and a NUL (buf may be
 * NULL when cap is 0); *needed (if non-NULL) gets the full length.
 * Errors: ::LAYOUT_ERR_NULL (report; buf with cap > 0).
 */
layout_status layout_check_report_text(const layout_check_report *report, char *buf, size_t cap, size_t *needed,
                                       layout_error *err);

/**
 * The same content as one JSON object: `{"arch":..., "impl":..., "n_instrs":...,
 * "extra_cycles":..., "total_cycles":..., "sides":[{"label":..., ...,
 * "worst":{"index":..., "groups":[{"group":2, "lanes":"8-11,28-31", "cycles":2,
 * "nway":2, "bank":0, "hits":[{"lane":8, "addr":128}, ...]}]}}]}`.
 * snprintf semantics and errors as layout_check_report_text().
 */
layout_status layout_check_report_json(const layout_check_report *report, char *buf, size_t cap, size_t *needed,
                                       layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_REPORT_H */
