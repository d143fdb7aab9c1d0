/**
 * @file triton_search.h
 * @brief The shared layouts Triton 3.6 accepts for one allocation, each
 *        scored by the caller, the best within an LDS byte budget: the
 *        search behind "a better `#ttg...` attribute to paste back".
 *
 * Given one shared allocation (a 2-D tile [R, C], optionally with a leading
 * buffer dim, its element width and the target), the search writes every
 * candidate attribute as Triton prints it, computes the bytes it takes,
 * drops those over the budget, and hands each other one to the caller's
 * ::layout_triton_score_fn (which typically builds the descriptor with
 * layout_desc_from_triton() and costs all of the allocation's writers and
 * readers with the checker).  It keeps the best `top_k`, ranked by
 *
 *     (cost, bytes, family, parameter complexity, order, enumeration index)
 *
 * ascending: equal costs go to the smaller allocation, then the simpler
 * attribute (family rank swizzled_shared < padded_shared <
 * amd_rotating_shared < nvmma_shared; complexity = the sum of the log2 of
 * the parameters, below), then order [1, 0] before [0, 1].  The candidates,
 * in enumeration order:
 *
 * | family (bit) | target | parameters | bytes |
 * |---|---|---|---|
 * | `#ttg.swizzled_shared` (::LAYOUT_TRITON_SEARCH_SWIZZLED) | all | family.h's ::LAYOUT_FAMILY_TRITON_SWIZZLED sets: vec = 1, 2 .. C, perPhase = 1 .. R, maxPhase = 1 .. C/vec, powers of two; the identity once (vec = perPhase = maxPhase = 1: maxPhase 1 or perPhase >= R leave every row unswizzled) | R*C |
 * | `#ttg.padded_shared` (::LAYOUT_TRITON_SEARCH_PADDED) | all | short form `[I:+P] {order, shape}` and, with max_pad_levels 2, `[I1:+P1, I2:+P2]`, I1 < I2: intervals 2 .. R*C/2 elements, paddings with P * elem bytes <= 128 (a pad of 256 bytes moves no element to another bank on any target: 64 banks of 4 bytes is the widest row), powers of two | Triton's getPaddedSize of the whole allocation (T = R*C times the buffers): T + sum_k (T / I_k - 1) * P_k (the descriptor's element space for one buffer) |
 * | `#ttg.amd_rotating_shared` (::LAYOUT_TRITON_SEARCH_ROTATING) | AMD | the swizzled_shared sets where the rotation acts: maxPhase > 1 and perPhase * maxPhase < R (the others equal a swizzled_shared) | R*C |
 * | `#ttg.nvmma_shared` (::LAYOUT_TRITON_SEARCH_NVMMA) | NVIDIA, sm_90 and newer | swizzlingByteWidth 0, 32, 64, 128, transposed false / true, elementBitWidth = elem_bits; those whose shape Triton accepts (triton.h) | R*C |
 *
 * each for both orders where the family has one (nvmma_shared: transposed
 * plays that part; in the table R and C are the strided and the contiguous
 * dim's lengths of the order at hand); bytes times the leading buffer dim
 * when given.
 * Triton's verifiers (Dialect.cpp) check only the order of swizzled_shared
 * and amd_rotating_shared, powers of two and distinct intervals for
 * padded_shared, the swizzle width for nvmma_shared: the bounds above are
 * the tile's (a larger vec, perPhase or maxPhase repeats a smaller one's
 * layout: Triton reduces the phase modulo the columns).  Complexity:
 * log2(vec) + log2(perPhase) + log2(maxPhase); padded: the pairs' count,
 * then sum log2(P_k); nvmma: log2(S / 16) + 1 for S > 0, plus transposed.
 * Example (tests/test_triton_search.c): seed kernel 01's 64 x 32 fp16 tile on
 * gfx942 (b128 row writes, 2-byte column reads), scored by the checker:
 * the packed `#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1,
 * order = [1, 0]}>` costs 448 extra cycles per tile; the search returns a
 * conflict-free swizzled_shared of the same 4096 bytes.
 *
 * Ownership: plain caller-owned values; the scorer's @p ctx is the
 * caller's.  No heap.  Thread safety: reentrant; the callback runs on the
 * calling thread, one candidate at a time, in enumeration order.
 */
#ifndef LAYOUT_TRITON_SEARCH_H
#define LAYOUT_TRITON_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most results a search keeps. */
#define LAYOUT_TRITON_SEARCH_MAX_TOP 16
/** Capacity of a candidate's attribute text (with its NUL). */
#define LAYOUT_TRITON_ATTR_TEXT_CAP 160

/** Family bits of layout_triton_search_spec::families. */
#define LAYOUT_TRITON_SEARCH_SWIZZLED 1u /**< `#ttg.swizzled_shared` */
#define LAYOUT_TRITON_SEARCH_PADDED 2u   /**< `#ttg.padded_shared` */
#define LAYOUT_TRITON_SEARCH_ROTATING 4u /**< `#ttg.amd_rotating_shared` (AMD) */
#define LAYOUT_TRITON_SEARCH_NVMMA 8u    /**< `#ttg.nvmma_shared` (NVIDIA sm_90+) */

/** Order bits of layout_triton_search_spec::orders. */
#define LAYOUT_TRITON_SEARCH_ORDER_10 1u /**< order = [1, 0]: dim1 contiguous (row-major) */
#define LAYOUT_TRITON_SEARCH_ORDER_01 2u /**< order = [0, 1]: dim0 contiguous */

/** The target's vendor: which of Triton's backends lowers the allocation. */
typedef enum layout_triton_vendor {
    LAYOUT_TRITON_VENDOR_AMD = 1,    /**< Triton's AMD backend (`hip:gfx942`, ...) */
    LAYOUT_TRITON_VENDOR_NVIDIA = 2  /**< Triton's NVIDIA backend (`cuda:90`, ...) */
} layout_triton_vendor;

/**
 * Score one candidate: @p attr_text (NUL-terminated, @p len bytes) is the
 * attribute as Triton prints it; set *cost (lower is better) and return 0,
 * or return non-zero to reject the candidate (it is counted, not kept).
 */
typedef int (*layout_triton_score_fn)(void *ctx, const char *attr_text, size_t len, double *cost);

/** One allocation and what to search for it.  Zero-initialise, then fill. */
typedef struct layout_triton_search_spec {
    int rank;                   /**< 2, or 3: shape[0] is a leading buffer dim (multi-buffering) */
    int64_t shape[3];           /**< the memdesc shape, outermost first; the tile is the last two (powers of two) */
    int elem_bits;              /**< element width: 8, 16, 32 or 64 */
    layout_triton_vendor vendor; /**< the target's backend */
    const char *arch;           /**< "gfx942", "sm_90", "cuda:90" ...; NULL or "" = any of the vendor's.  NVIDIA: nvmma_shared only from sm_90 */
    int64_t lds_budget_bytes;   /**< the most bytes the allocation may take, all buffers; 0 = the packed size (no padding) */
    unsigned families;          /**< LAYOUT_TRITON_SEARCH_* bits; 0 = every family the target accepts */
    unsigned orders;            /**< LAYOUT_TRITON_SEARCH_ORDER_* bits; 0 = both */
    int max_pad_levels;         /**< padded_shared: interval:+pad pairs, 1 or 2 (0 = 2) */
    int top_k;                  /**< results kept, 1..::LAYOUT_TRITON_SEARCH_MAX_TOP (0 = 8) */
} layout_triton_search_spec;

/** One scored candidate. */
typedef struct layout_triton_search_entry {
    char attr[LAYOUT_TRITON_ATTR_TEXT_CAP]; /**< the attribute, as Triton prints it */
    double cost;                /**< the scorer's cost */
    int64_t bytes;              /**< bytes of the allocation, all buffers */
    unsigned family;            /**< its LAYOUT_TRITON_SEARCH_* bit */
    int complexity;             /**< the tie-break of the file comment */
    int order;                  /**< 0: order [1, 0] (nvmma: not transposed); 1: [0, 1] (transposed) */
    int64_t index;              /**< position in the enumeration (the last tie-break) */
} layout_triton_search_entry;

/** What a search returns. */
typedef struct layout_triton_search_result {
    int n_top;                  /**< entries in top[] */
    layout_triton_search_entry top[LAYOUT_TRITON_SEARCH_MAX_TOP]; /**< best first */
    unsigned families;          /**< the families searched (the spec's, less those the target lacks) */
    int64_t enumerated;         /**< candidates written */
    int64_t over_budget;        /**< of those, dropped for their bytes */
    int64_t rejected;           /**< of those, the scorer rejected */
    int64_t scored;             /**< of those, scored */
    int64_t packed_bytes;       /**< the allocation without padding, all buffers */
} layout_triton_search_result;

/**
 * Enumerate the candidates of @p spec (file comment), score each within
 * the budget with @p score, keep the best.  Example: seed kernel 01's tile,
 * `{rank 2, shape {64, 32}, elem_bits 16, AMD, "gfx942", budget 0}`: 197
 * swizzled_shared and 105 amd_rotating_shared candidates of 4096 bytes
 * scored (the 4550 padded_shared ones are over the budget), the best
 * conflict-free.
 * Errors: ::LAYOUT_ERR_NULL (spec, score, out); ::LAYOUT_ERR_ARG (rank not
 * 2 or 3, a shape size that is not a power of two or a tile over 2^20
 * elements, elem_bits, vendor, top_k, max_pad_levels, a family or order bit
 * unknown, a budget below the packed size: "lds_budget_bytes = 1000 is
 * below the packed allocation, 4096 bytes"); ::LAYOUT_ERR_NOT_FOUND (no
 * candidate scored: every one over the budget or rejected, or no family
 * left for the target; the message says which).  @p out untouched on error.
 */
layout_status layout_triton_shared_search(const layout_triton_search_spec *spec, layout_triton_score_fn score,
                                          void *ctx, layout_triton_search_result *out, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_TRITON_SEARCH_H */
