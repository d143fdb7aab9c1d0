/**
 * @file plan.h
 * @brief Evaluation plans: a descriptor precompiled for batch offsets.
 *
 * layout_desc_offset() interprets the transform chain for every coordinate.
 * A plan compiles the chain once into straight-line integer code over the
 * top coordinates:
 *
 * - every affine stage (pass_through, embed, unmerge, offset, slice, freeze,
 *   the pads, merge / modulo / xor whose inputs provably stay in one block)
 *   is folded into one affine expression `c + sum coef_v * v`;
 * - only the non-affine steps remain, as *ops*: `DIV(e, d)` (truncating
 *   division by a constant, from merge and modulo: `e % d = e - d * DIV(e, d)`)
 *   and `XOR(e0, e1)`.  Each op defines a new variable v;
 * - the offset is one affine expression over the top coordinates and the
 *   op variables; the pads' validity rules become range checks `lo <= e <= hi`.
 *
 * Example, seed kernel 08 (32 banks), offset of (m, k) in the 64x32 tile:
 * @code
 *   x0 = m, x1 = k                  (top coordinates)
 *   t0 = DIV(x0, 2)                 merge (B, L):  B = m / 2,  L = m - 2 B
 *   t1 = DIV(x1, 8)                 merge (K0, 8): K0 = k / 8, C = k - 8 K0
 *   t2 = DIV(t0, 8)                 xor key B % 8 = B - 8 t2
 *   t3 = XOR(4 x0 - 8 t0 + t1,  t0 - 8 t2)        A' = A ^ (B % 8), A = 4 L + K0
 *   offset = 8 t3 + 64 t0 + x1 - 8 t1
 * @endcode
 *
 * Batch evaluation walks a box of coordinates row by row (the last top dim
 * fastest): ops and expression parts that do not depend on the last
 * coordinate are computed once per row; the per-element rest runs either
 * scalar or with AVX2 (used only when interval analysis proves that every
 * value fits int32): 64 coordinates per step in 8 vectors of 32-bit lanes,
 * the row parts of 8 rows at a time, and for boxes whose rows are shorter
 * than 16 a flat walk that evaluates everything per lane.
 *
 * Exactness: for every in-range coordinate a plan returns exactly
 * layout_desc_offset() (affine parts are computed modulo 2^64, which is
 * exact because the true values fit int64, as the descriptor proved at
 * construction).  Padded (invalid) coordinates get the same offset
 * layout_desc_offset() gives them (what ck_tile computes); the optional
 * `valid` outputs say which coordinates are real, exactly as
 * layout_desc_is_valid().
 *
 * Ownership: ::layout_plan is a plain fixed-capacity value (about 15 KiB,
 * no pointers, it does not borrow the descriptor); copy it freely.
 * Building one uses about 70 KiB of stack, an AVX2 box walk up to 32 KiB.
 * Thread safety: all functions are reentrant; a const plan may be evaluated from many threads.  No function
 * allocates.  Error contract: fallible calls return a ::layout_status, fill
 * @p err (may be NULL) and leave out-params untouched on failure.
 */
#ifndef LAYOUT_PLAN_H
#define LAYOUT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "layout/descriptor.h"
#include "layout/limits.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum variables of a plan: top coordinates plus op results. */
#define LAYOUT_PLAN_MAX_VARS 64
/** Maximum ops (DIV / XOR) of a plan. */
#define LAYOUT_PLAN_MAX_OPS (LAYOUT_PLAN_MAX_VARS - LAYOUT_MAX_DIMS)
/** Maximum affine expressions of a plan (op inputs, the offset, check inputs). */
#define LAYOUT_PLAN_MAX_EXPRS 144
/** Maximum terms (coefficient, variable) over all expressions of a plan. */
#define LAYOUT_PLAN_MAX_TERMS 768
/** Maximum validity checks of a plan (one per pad transform at most). */
#define LAYOUT_PLAN_MAX_CHECKS LAYOUT_MAX_TRANSFORMS

/** Which evaluation code a plan runs. */
typedef enum layout_plan_impl {
    LAYOUT_PLAN_AUTO = 0,   /**< at build: AVX2 when compiled in, the CPU has it and values fit int32; else scalar */
    LAYOUT_PLAN_SCALAR = 1, /**< portable 64-bit scalar code */
    LAYOUT_PLAN_AVX2 = 2    /**< 8 coordinates per step in 32-bit AVX2 lanes */
} layout_plan_impl;

/** Kind of a non-affine op. */
typedef enum layout_plan_op_kind {
    LAYOUT_PLAN_OP_DIV = 0, /**< v = in0 / divisor (C truncating division, divisor > 0) */
    LAYOUT_PLAN_OP_XOR = 1  /**< v = in0 ^ in1 (two's complement) */
} layout_plan_op_kind;

/** How a DIV op divides (chosen from the proven interval of its input). */
typedef enum layout_plan_div_mode {
    LAYOUT_PLAN_DIV_SHIFT = 0, /**< input >= 0, divisor 2^shift: v = in0 >> shift */
    LAYOUT_PLAN_DIV_MAGIC = 1, /**< 0 <= input < 2^32, divisor < 2^32: v = (magic * in0) >> 64 (Lemire) */
    LAYOUT_PLAN_DIV_PLAIN = 2  /**< anything else: the C `/` operator */
} layout_plan_div_mode;

/** An affine expression `constant + sum term_coef[i] * v[term_var[i]]` over `i in first_term..+n_terms`. */
typedef struct layout_plan_expr {
    int64_t constant;  /**< constant part (elements) */
    int first_term;    /**< index of its first term in the plan's term arrays */
    int n_terms;       /**< number of terms */
    int n_row_terms;   /**< the first n_row_terms terms do not depend on the last top coordinate */
} layout_plan_expr;

/** One non-affine op; op i's result is variable `LAYOUT_MAX_DIMS + i`, printed `t<i>` (see ::layout_plan). */
typedef struct layout_plan_op {
    layout_plan_op_kind kind;    /**< DIV or XOR */
    layout_plan_div_mode mode;   /**< DIV only: how it divides */
    int in0;                     /**< expression index of the first input */
    int in1;                     /**< XOR only: expression index of the second input */
    int per_element;             /**< 1 when it depends on the last top coordinate (evaluated per element) */
    int shift;                   /**< DIV_SHIFT: log2 of the divisor */
    int64_t divisor;             /**< DIV: the divisor (> 0) */
    uint64_t magic;              /**< DIV_MAGIC: floor(2^64 / divisor) + 1 */
    int64_t lo;                  /**< proven lower bound of the result */
    int64_t hi;                  /**< proven upper bound of the result */
} layout_plan_op;

/** A validity check: the coordinate is valid only if `lo <= expr <= hi`. */
typedef struct layout_plan_check {
    int expr;         /**< expression index */
    int64_t lo;       /**< inclusive lower bound (INT64_MIN = none) */
    int64_t hi;       /**< inclusive upper bound (INT64_MAX = none) */
    int per_element;  /**< 1 when it depends on the last top coordinate */
} layout_plan_check;

/**
 * A compiled descriptor (see the file comment).  Variables: `0..n_top-1` are
 * the top coordinates, op i defines variable `LAYOUT_MAX_DIMS + i`.  Built
 * only by layout_plan_build() (or the composed builders of higher layers);
 * read the fields freely, do not edit them.
 */
typedef struct layout_plan {
    int n_top;                                      /**< top dims */
    int64_t top_lengths[LAYOUT_MAX_DIMS];           /**< top lengths (elements) */
    int n_ops;                                      /**< ops, in evaluation order */
    layout_plan_op ops[LAYOUT_PLAN_MAX_OPS];        /**< the ops */
    int n_exprs;                                    /**< expressions */
    layout_plan_expr exprs[LAYOUT_PLAN_MAX_EXPRS];  /**< the expressions */
    int n_terms;                                    /**< terms used */
    int16_t term_var[LAYOUT_PLAN_MAX_TERMS];        /**< variable of each term */
    int64_t term_coef[LAYOUT_PLAN_MAX_TERMS];       /**< coefficient of each term */
    int offset_expr;                                /**< expression of the element offset */
    int n_checks;                                   /**< validity checks (0: every coordinate is valid) */
    layout_plan_check checks[LAYOUT_PLAN_MAX_CHECKS]; /**< the checks */
    int fits_int32;                                 /**< 1 when every value provably fits int32 (AVX2 possible) */
    int n_folded;                                   /**< transforms folded into affine expressions (statistics) */
    layout_plan_impl impl;                          /**< resolved implementation: SCALAR or AVX2 */
} layout_plan;

/**
 * 1 when @p impl can run here: SCALAR and AUTO always; AVX2 when the library
 * was compiled with AVX2 (x86) and the CPU supports it.  Pure.
 */
int layout_plan_impl_available(layout_plan_impl impl);

/** "auto", "scalar", "avx2"; "?" for other values.  Never NULL. */
const char *layout_plan_impl_name(layout_plan_impl impl);

/**
 * Compile @p desc into @p out, running @p impl (::LAYOUT_PLAN_AUTO picks).
 * Example: the seed 08 descriptor compiles to 4 ops (file comment).
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (impl not an enum value),
 * ::LAYOUT_ERR_CAPACITY (more ops, expressions or terms than the
 * LAYOUT_PLAN_MAX_* bounds), ::LAYOUT_ERR_UNSUPPORTED (AVX2 forced but not
 * available, or the values do not fit int32).  @p out untouched on error.
 */
layout_status layout_plan_build(layout_plan *out, const layout_descriptor *desc, layout_plan_impl impl,
                                layout_error *err);

/**
 * Switch an existing plan to @p impl (per plan; nothing global changes).
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG, ::LAYOUT_ERR_UNSUPPORTED
 * (AVX2 not available or values not proven to fit int32); @p plan unchanged then.
 */
layout_status layout_plan_set_impl(layout_plan *plan, layout_plan_impl impl, layout_error *err);

/**
 * Offset of one coordinate `coord[0..n_top)`, range-checked; equals
 * layout_desc_offset() of the descriptor.  Example: seed 08, (m, k) = (3, 9)
 * gives 64 + ((1*4 + 1) ^ 1) * 8 + 1 = 97.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE ("coord[1] = 40 is outside 0..31").
 */
layout_status layout_plan_offset(const layout_plan *plan, const int64_t *coord, int64_t *offset, layout_error *err);

/**
 * Offset of one coordinate without checks (the fast single-coordinate path,
 * always scalar).  Precondition: 0 <= coord[d] < top_lengths[d].
 */
int64_t layout_plan_offset_unchecked(const layout_plan *plan, const int64_t *coord);

/**
 * 1 when the coordinate is valid (no pad rejects it), else 0; equals
 * layout_desc_is_valid().  Unchecked: 0 <= coord[d] < top_lengths[d].
 */
int layout_plan_valid_unchecked(const layout_plan *plan, const int64_t *coord);

/**
 * Offsets of the box `origin[d] .. origin[d] + extent[d] - 1`, row-major
 * (last dim fastest), into `offsets[0..prod extent)`; when @p valid is
 * non-NULL also `valid[i]` = 1 / 0.  A zero extent gives no output.
 * Example: seed 08, origin (2, 8), extent (1, 4) gives the offsets of
 * (2, 8) (2, 9) (2, 10) (2, 11) = 64 65 66 67.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE (origin < 0, extent < 0,
 * origin + extent > length; the message names the dim),
 * ::LAYOUT_ERR_BUFFER (@p cap < number of coordinates).  Nothing is
 * written on error.
 */
layout_status layout_plan_box(const layout_plan *plan, const int64_t *origin, const int64_t *extent,
                              int64_t *offsets, uint8_t *valid, size_t cap, layout_error *err);

/**
 * layout_plan_box() over the whole top space (every coordinate, row-major).
 * Example: seed 08 fills 2048 offsets, a permutation of 0..2047.
 * Errors: as layout_plan_box().
 */
layout_status layout_plan_tile(const layout_plan *plan, int64_t *offsets, uint8_t *valid, size_t cap,
                               layout_error *err);

/**
 * Offsets of @p n_coords arbitrary coordinates (`coords` is n_coords x n_top,
 * row-major).  Every coordinate is range-checked before anything is written.
 * @p valid may be NULL; with n_coords = 0 the pointers may be NULL.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE naming `coords[k][d]`.
 */
layout_status layout_plan_offsets(const layout_plan *plan, size_t n_coords, const int64_t *coords, int64_t *offsets,
                                  uint8_t *valid, layout_error *err);

/**
 * Readable listing of the plan (variables, ops, offset expression, checks,
 * implementation), like the example in the file comment.  snprintf
 * semantics: returns the full length needed (-1 for NULL @p plan).
 */
int layout_plan_print(const layout_plan *plan, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_PLAN_H */
