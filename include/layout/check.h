/**
 * @file check.h
 * @brief Exact LDS bank-conflict cost of one instruction (the phase model).
 *
 * The model (docs/lds-model.md §1, §3), for an instruction on a ::layout_arch:
 *
 *     word(a)  = a / bank_width_bytes          bank(a) = word(a) % n_banks
 *     lane l touches words word(A_l) .. word(A_l + W - 1)
 *     cycles(group) = 1 + extra(group)         (arch->idle_group_cycles if no active lane)
 *     extra(group)  = max over banks of (distinct words of the group's
 *                     active lanes on that bank) - 1     (0 if no active lane)
 *     extra(instr)  = sum of extra(group)    -> SQ_LDS_BANK_CONFLICT / NVIDIA "bank conflicts"
 *     total(instr)  = sum of cycles(group)   -> groups + extra (NVIDIA wavefronts)
 *
 * Lanes on the same word share it (broadcast on reads, merged byte-enabled
 * write on stores), including b8/b16 lanes on different bytes of one word; an
 * unaligned lane touches one more word; inactive lanes cost nothing; a group
 * none of whose lanes is active counts one cycle on AMD and none on NVIDIA
 * (::layout_arch::idle_group_cycles).
 * Example (gfx942, b32, lane i at byte 128*i, all 64 lanes on bank 0): two
 * groups of 32 lanes, 32 distinct words each -> extra 62, total 64.
 *
 * Two implementations give the same ::layout_cost on every input: the scalar
 * reference (reads like the model above; also the only one that fills
 * ::layout_cost_detail) and an AVX2 one (lib/check/check_avx2.c), chosen at run
 * time by CPU detection (::LAYOUT_IMPL_AUTO) or forced per call / per
 * ::layout_checker for tests and benchmarks.  There is no global state.
 *
 * Ownership and threads: all structs are caller-owned values; a
 * ::layout_checker borrows its arch (which must outlive it) and may be shared
 * read-only between threads.  No function allocates.  Errors: every fallible
 * function returns a ::layout_status, leaves out-parameters untouched on
 * error and fills the optional ::layout_error.
 */
#ifndef LAYOUT_CHECK_H
#define LAYOUT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "layout/arch.h"
#include "layout/instr.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which implementation computes costs. */
typedef enum layout_check_impl {
    LAYOUT_IMPL_AUTO = 0,   /**< AVX2 when compiled in and the CPU has it, else scalar */
    LAYOUT_IMPL_SCALAR = 1, /**< the scalar reference */
    LAYOUT_IMPL_AVX2 = 2    /**< the AVX2 path (::LAYOUT_ERR_UNSUPPORTED when unavailable) */
} layout_check_impl;

/** "auto", "scalar", "avx2"; "?" otherwise.  Never NULL. */
const char *layout_check_impl_name(layout_check_impl impl);

/**
 * 1 when @p impl can run here (AUTO and SCALAR always; AVX2 only when the
 * library was built with AVX2 support and the CPU reports AVX2), else 0.
 */
int layout_check_impl_available(layout_check_impl impl);

/** What ::LAYOUT_IMPL_AUTO resolves to on this machine (SCALAR or AVX2). */
layout_check_impl layout_check_impl_best(void);

/** Cost of one instruction: the summary both implementations compute. */
typedef struct layout_cost {
    int extra_cycles; /**< sum over groups of (cycles - 1): the conflict count */
    int total_cycles; /**< sum over groups of cycles (= n_groups + extra_cycles) */
    int n_groups;     /**< groups used (after a fold, the merged groups) */
    int worst_nway;   /**< max over groups and banks of distinct words on one bank; 0 if no lane is active */
    int worst_group;  /**< lowest group index reaching worst_nway; -1 if no lane is active */
    int fold_xor;     /**< the fold xor mask applied (first of the rule's list that holds); 0 = no fold */
} layout_cost;

/** Per-group explanation (scalar reference only). */
typedef struct layout_group_cost {
    uint64_t lanes;      /**< the group's lane mask (from the rule) */
    uint64_t active;     /**< lanes & instruction's active_mask */
    int cycles;          /**< 1 + max(nway - 1, 0); a group without an active lane: the arch's idle_group_cycles */
    int nway;            /**< max distinct words on one bank; 0 if no active lane */
    int worst_bank;      /**< lowest bank reaching nway; -1 if no active lane */
    uint64_t bank_lanes; /**< active lanes touching worst_bank */
    uint64_t way_lanes;  /**< for each distinct word on worst_bank, the lowest lane touching it (nway bits) */
} layout_group_cost;

/** Full explanation of one instruction: summary plus every group. */
typedef struct layout_cost_detail {
    layout_cost cost;                                 /**< the summary */
    layout_group_cost groups[LAYOUT_MAX_LANE_GROUPS]; /**< groups[0..cost.n_groups-1] */
} layout_cost_detail;

/** Sums over a batch of instructions. */
typedef struct layout_cost_totals {
    size_t n_instrs;       /**< instructions checked */
    int64_t extra_cycles;  /**< sum of extra_cycles */
    int64_t total_cycles;  /**< sum of total_cycles */
    size_t n_conflicted;   /**< instructions with extra_cycles > 0 */
    int worst_nway;        /**< max worst_nway */
    size_t worst_index;    /**< index of the first instruction with the largest extra_cycles (0 if n_instrs == 0) */
    int worst_extra;       /**< its extra_cycles */
} layout_cost_totals;

/** Internal: a rule prepared for fast lookup (group index per lane). Do not modify. */
typedef struct layout_checker_rule {
    int supported;                      /**< copy of the rule's supported flag */
    int n_groups;                       /**< groups of the rule */
    int n_fold_groups;                  /**< groups after a fold (0 = no fold) */
    uint8_t gid[LAYOUT_MAX_LANES];      /**< group index of each lane */
    uint8_t fold_gid[LAYOUT_MAX_LANES]; /**< group index of each lane after a fold */
    uint32_t unit_slot[LAYOUT_MAX_LANES];      /**< gid << log2(unit banks) for width-aligned accesses */
    uint32_t fold_unit_slot[LAYOUT_MAX_LANES]; /**< the same after a fold */
    uint8_t group_regs[LAYOUT_MAX_LANE_GROUPS];      /**< bit r set: the group has a lane in 8r..8r+7 */
    uint8_t fold_group_regs[LAYOUT_MAX_LANE_GROUPS]; /**< the same after a fold */
} layout_checker_rule;

/**
 * A prepared checker: a validated arch, a resolved implementation and each
 * rule's lane -> group table.  Build with layout_checker_init() (about a
 * microsecond) and reuse it for many instructions.  Borrows @c arch.
 */
typedef struct layout_checker {
    const layout_arch *arch;                             /**< borrowed; must outlive the checker */
    layout_check_impl impl;                              /**< resolved: SCALAR or AVX2 */
    layout_checker_rule rules[2][LAYOUT_N_WIDTHS];       /**< internal prepared rules */
} layout_checker;

/**
 * Validate @p arch and prepare a checker that uses @p impl.
 * Errors: ::LAYOUT_ERR_NULL (out, arch); whatever layout_arch_validate()
 * reports; ::LAYOUT_ERR_ARG for an impl outside the enum;
 * ::LAYOUT_ERR_UNSUPPORTED when AVX2 is forced but unavailable.
 */
layout_status layout_checker_init(layout_checker *out, const layout_arch *arch, layout_check_impl impl,
                                  layout_error *err);

/**
 * Cost of one instruction.
 * Errors: ::LAYOUT_ERR_NULL (checker, instr, out); the errors of
 * layout_instr_validate(); ::LAYOUT_ERR_MISMATCH when instr->n_lanes differs
 * from the arch's wave size; ::LAYOUT_ERR_UNSUPPORTED when the arch has no
 * groups for the instruction's (direction, width).
 */
layout_status layout_checker_cost(const layout_checker *checker, const layout_instr *instr, layout_cost *out,
                                  layout_error *err);

/**
 * Costs of @p n instructions: each cost into @p costs[i] (if costs is
 * non-NULL) and the sums into @p totals (if non-NULL).  Every instruction is
 * validated before any output is written, so on error nothing is written; the
 * message names the index ("instrs[3].width_bytes = 12 ...").  n == 0 is
 * allowed (instrs may then be NULL).
 */
layout_status layout_checker_cost_batch(const layout_checker *checker, const layout_instr *instrs, size_t n,
                                        layout_cost *costs, layout_cost_totals *totals, layout_error *err);

/**
 * One-shot cost without a ::layout_checker (validates the arch's shape and the
 * one rule it needs).  Same errors as layout_checker_init() and
 * layout_checker_cost().
 */
layout_status layout_instr_cost(const layout_arch *arch, const layout_instr *instr, layout_check_impl impl,
                                layout_cost *out, layout_error *err);

/**
 * Full explanation of one instruction by the scalar reference: the summary
 * and, per group, cycles, N-way, worst bank and the lanes on it (their
 * addresses are in @p instr).  Same errors as layout_instr_cost().
 */
layout_status layout_instr_explain(const layout_arch *arch, const layout_instr *instr, layout_cost_detail *out,
                                   layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_CHECK_H */
