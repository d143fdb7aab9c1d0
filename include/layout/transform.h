/**
 * @file transform.h
 * @brief The coordinate transforms of ck_tile: one value type, one protocol.
 *
 * A transform maps an *upper* index (nearer the user) to a *lower* index
 * (nearer memory).  Every kind is described by the same protocol — a row of
 * a constant table holding its name, its lower-from-upper formula, its
 * validity rule (only the pads can make a coordinate invalid), its
 * vector-hint rule and its printer — so adding a kind means adding one row.
 *
 * | kind          | lower <- upper | formula (C integer arithmetic)                 |
 * |---------------|----------------|------------------------------------------------|
 * | pass_through  | 1 <- 1         | low = up                                       |
 * | pad           | 1 <- 1         | low = up - left   (valid: left <= up < L+left) |
 * | left_pad      | 1 <- 1         | low = up - left   (valid: up >= left)          |
 * | right_pad     | 1 <- 1         | low = up          (valid: up < L)              |
 * | embed         | 1 <- n         | low = sum up[i]*coef[i]                        |
 * | merge         | n <- 1         | mixed-radix digits of up, last digit fastest   |
 * | merge_divmod  | n <- 1         | same as merge (ck_tile's div/mod variant)      |
 * | unmerge       | 1 <- n         | low = sum up[i]*prod(len[j], j > i)            |
 * | freeze        | 1 <- 0         | low = value                                    |
 * | insert        | 0 <- 1         | (no lower)                                     |
 * | replicate     | 0 <- n         | (no lower)                                     |
 * | slice         | 1 <- 1         | low = up + begin                               |
 * | modulo        | 1 <- 1         | low = up % modulus                             |
 * | xor           | 2 <- 2         | low0 = up0; low1 = up1 ^ (up0 % len1)          |
 * | offset        | 1 <- 1         | low = up + offset                              |
 *
 * Example: xor(4, 4) maps the 4x4 upper grid (row up0, column up1) to the
 * lower column `up1 ^ (up0 % 4)`:
 * @code
 *   up0\up1  0 1 2 3
 *      0     0 1 2 3
 *      1     1 0 3 2
 *      2     2 3 0 1
 *      3     3 2 1 0
 * @endcode
 *
 * Ownership: ::layout_transform is a plain value (no pointers); copy it
 * freely.  Thread safety: every function here is pure and reentrant.
 * Error contract: constructors return a ::layout_status, fill @p err (may be
 * NULL) and leave @p out untouched on failure.
 */
#ifndef LAYOUT_TRANSFORM_H
#define LAYOUT_TRANSFORM_H

#include <stddef.h>
#include <stdint.h>

#include "layout/limits.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The transform kinds of ck_tile's coordinate_transform.hpp (table in the file comment). */
typedef enum layout_transform_kind {
    LAYOUT_PASS_THROUGH,  /**< low = up; ck_tile make_pass_through_transform */
    LAYOUT_PAD,           /**< low = up - left; valid when left <= up < L + left */
    LAYOUT_LEFT_PAD,      /**< low = up - left; valid when up >= left */
    LAYOUT_RIGHT_PAD,     /**< low = up; valid when up < L */
    LAYOUT_EMBED,         /**< low = sum up[i] * coef[i] (one lower, n upper) */
    LAYOUT_MERGE,         /**< n lower digits from one upper index, last digit fastest */
    LAYOUT_MERGE_DIVMOD,  /**< merge computed with div/mod (same results as ::LAYOUT_MERGE) */
    LAYOUT_UNMERGE,       /**< low = row-major linearisation of n upper indices */
    LAYOUT_FREEZE,        /**< low = fixed value (one lower, no upper) */
    LAYOUT_INSERT,        /**< a new upper dim with no lower (ignored by the lower side) */
    LAYOUT_REPLICATE,     /**< n new upper dims with no lower (replication) */
    LAYOUT_SLICE,         /**< low = up + begin, upper length end - begin */
    LAYOUT_MODULO,        /**< low = up % modulus */
    LAYOUT_XOR,           /**< low0 = up0, low1 = up1 ^ (up0 % len1) */
    LAYOUT_OFFSET,        /**< low = up + offset */
    LAYOUT_TRANSFORM_KIND_COUNT /**< number of kinds (not a kind) */
} layout_transform_kind;

/**
 * One transform: a value built by a `layout_make_*` constructor.
 *
 * Fields by kind (unused entries are 0):
 * - lengths: `upper_lengths[0..n_upper)`; `lower_lengths[0..n_lower)` are the
 *   lengths the transform *declares* for the dims it consumes (0 = it does not
 *   say: embed, freeze).
 * - params: pad {left, right}; left_pad {left}; right_pad {right};
 *   embed {coefficients}; merge / merge_divmod / unmerge {suffix products:
 *   params[i] = prod of lengths[j] for j > i}; freeze {value};
 *   slice {begin, end}; modulo {modulus}; offset {offset}; others none.
 *
 * Build it with a constructor: adaptors re-validate every transform and
 * reject a struct that differs from what its constructor would produce.
 */
typedef struct layout_transform {
    layout_transform_kind kind;                        /**< which formula */
    int n_upper;                                       /**< number of upper (user-side) dims */
    int n_lower;                                       /**< number of lower (memory-side) dims */
    int64_t upper_lengths[LAYOUT_MAX_TRANSFORM_DIMS];  /**< length of each upper dim, elements */
    int64_t lower_lengths[LAYOUT_MAX_TRANSFORM_DIMS];  /**< declared length of each lower dim (0 = unknown) */
    int64_t params[LAYOUT_MAX_TRANSFORM_DIMS];         /**< kind-specific values, see above */
} layout_transform;

/**
 * pass_through(L): low = up, upper length L.  Vector hint copied.
 * Example: pass_through(4) maps 0 1 2 3 to 0 1 2 3.
 * Errors: ::LAYOUT_ERR_NULL (out), ::LAYOUT_ERR_ARG (length <= 0).
 */
layout_status layout_make_pass_through(int64_t length, layout_transform *out, layout_error *err);

/**
 * pad(L, left, right): low = up - left; upper length L + left + right; an
 * upper index is valid when left <= up < L + left.  Vector hint lost.
 * Example: pad(3, 1, 1) maps up 0 1 2 3 4 to low -1 0 1 2 3, valid 0 1 1 1 0.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (L <= 0, negative pad),
 * ::LAYOUT_ERR_OVERFLOW (L + left + right).
 */
layout_status layout_make_pad(int64_t length, int64_t left, int64_t right, layout_transform *out,
                              layout_error *err);

/**
 * left_pad(L, left): low = up - left; upper length L + left; valid when
 * up >= left.  Vector hint copied.
 * Example: left_pad(3, 2) maps up 0..4 to low -2 -1 0 1 2, valid 0 0 1 1 1.
 * Errors: as layout_make_pad().
 */
layout_status layout_make_left_pad(int64_t length, int64_t left, layout_transform *out, layout_error *err);

/**
 * right_pad(L, right): low = up; upper length L + right; valid when up < L.
 * Vector hint copied.
 * Example: right_pad(3, 1) maps up 0..3 to low 0 1 2 3, valid 1 1 1 0.
 * Errors: as layout_make_pad().
 */
layout_status layout_make_right_pad(int64_t length, int64_t right, layout_transform *out, layout_error *err);

/**
 * embed(lengths[n], coefficients[n]): low = sum up[i] * coefficients[i].
 * The building block of naive descriptors (coefficients = strides).
 * Example: embed([2, 3], [3, 1]) maps (i, j) to 3i + j: rows `0 1 2` / `3 4 5`.
 * Coefficients may be zero or negative.  Vector hint lost.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_CAPACITY (n outside
 * 1..::LAYOUT_MAX_TRANSFORM_DIMS), ::LAYOUT_ERR_ARG (a length <= 0),
 * ::LAYOUT_ERR_OVERFLOW (the largest |low| would overflow int64).
 */
layout_status layout_make_embed(int n, const int64_t *upper_lengths, const int64_t *coefficients,
                                layout_transform *out, layout_error *err);

/**
 * merge(lengths[n]): one upper index of length prod(lengths) split into n
 * lower digits, the last fastest: low[i] = (up / params[i]) after removing
 * the more significant digits, where params[i] = prod(lengths[j], j > i); the
 * first digit takes the rest unreduced.
 * Example: merge([2, 3]) maps up 0..5 to (0,0) (0,1) (0,2) (1,0) (1,1) (1,2).
 * Vector hint: (length, stride) of the last lower dim.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_CAPACITY (n), ::LAYOUT_ERR_ARG
 * (length <= 0), ::LAYOUT_ERR_OVERFLOW (product).
 */
layout_status layout_make_merge(int n, const int64_t *lower_lengths, layout_transform *out, layout_error *err);

/**
 * merge_divmod(lengths[n]): ck_tile's div/mod implementation of merge; the
 * same results as layout_make_merge() for every valid index.
 * Errors: as layout_make_merge().
 */
layout_status layout_make_merge_divmod(int n, const int64_t *lower_lengths, layout_transform *out,
                                       layout_error *err);

/**
 * unmerge(lengths[n]): low = sum up[i] * prod(lengths[j], j > i) (row-major).
 * Example: unmerge([2, 3]) maps (i, j) to 3i + j; lower length 6.
 * Vector hint: last upper dim gets length gcd(lower length, lengths[n-1]) and
 * the lower stride; the others are unknown.
 * Errors: as layout_make_merge().
 */
layout_status layout_make_unmerge(int n, const int64_t *upper_lengths, layout_transform *out,
                                  layout_error *err);

/**
 * freeze(value): consumes one lower dim and fixes it: low = value (no upper dim).
 * Example: freeze(3) pins its lower dim to 3.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (value < 0).
 */
layout_status layout_make_freeze(int64_t value, layout_transform *out, layout_error *err);

/**
 * insert(L): a new upper dim of length L that no lower dim sees (the
 * coordinate along it does not change the offset).
 * Example: insert(4): up 0..3 all give the same lower index.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (length <= 0).
 */
layout_status layout_make_insert(int64_t length, layout_transform *out, layout_error *err);

/**
 * replicate(lengths[n]): n new upper dims with no lower dim (the R dims of a
 * tile distribution).  n = 0 is allowed (ck_tile's empty `sequence<>`), and
 * then @p lengths may be NULL.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_CAPACITY (n outside 0..max),
 * ::LAYOUT_ERR_ARG (length <= 0), ::LAYOUT_ERR_OVERFLOW (product).
 */
layout_status layout_make_replicate(int n, const int64_t *lengths, layout_transform *out, layout_error *err);

/**
 * slice(L, begin, end): low = up + begin; upper length end - begin, lower
 * length L.  Example: slice(8, 2, 5) maps up 0 1 2 to low 2 3 4.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (unless 0 <= begin < end <= L).
 */
layout_status layout_make_slice(int64_t length, int64_t begin, int64_t end, layout_transform *out,
                                layout_error *err);

/**
 * modulo(m, L): low = up % m; upper length L, declared lower length m.
 * Example: modulo(3, 7) maps 0..6 to 0 1 2 0 1 2 0.  Vector hint lost.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (m <= 0 or L <= 0).
 */
layout_status layout_make_modulo(int64_t modulus, int64_t length, layout_transform *out, layout_error *err);

/**
 * xor(len0, len1): low0 = up0; low1 = up1 ^ (up0 % len1).  The modulus is
 * the *second* length; len0 only declares the length of dim 0.  With a len1
 * that is not a power of two, low1 can reach len1 or more (not a bijection);
 * ck_tile does not check this and neither does the constructor — use
 * layout_adaptor_diagnose() to find it.  Vector hint copied (unchecked, as ck_tile).
 * Example: see the 4x4 grid in the file comment.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (a length <= 0).
 */
layout_status layout_make_xor(int64_t length0, int64_t length1, layout_transform *out, layout_error *err);

/**
 * offset(L, o): low = up + o; upper and lower length L.
 * Example: offset(4, 10) maps 0..3 to 10..13.  Vector hint lost.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (L <= 0),
 * ::LAYOUT_ERR_OVERFLOW (L - 1 + o).
 */
layout_status layout_make_offset(int64_t length, int64_t offset, layout_transform *out, layout_error *err);

/**
 * ck_tile-style name of a kind: "pass_through", "pad", "left_pad",
 * "right_pad", "embed", "merge", "merge_divmod", "unmerge", "freeze",
 * "insert", "replicate", "slice", "modulo", "xor", "offset".  An unknown
 * kind gives "unknown".  Never NULL.
 */
const char *layout_transform_kind_name(layout_transform_kind kind);

/**
 * Kind from its name (as layout_transform_kind_name() spells it).
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_NOT_FOUND; @p kind untouched then.
 */
layout_status layout_transform_kind_from_name(const char *name, layout_transform_kind *kind, layout_error *err);

/**
 * Check that @p t is exactly what its constructor builds from its defining
 * fields (kind in range, dims counts, lengths, params).  Adaptors call this
 * on every transform they receive.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG, ::LAYOUT_ERR_OVERFLOW,
 * ::LAYOUT_ERR_CAPACITY, ::LAYOUT_ERR_MISMATCH (a field differs).
 */
layout_status layout_transform_check(const layout_transform *t, layout_error *err);

/**
 * Lower index from upper index: reads `upper[0..n_upper)`, writes
 * `lower[0..n_lower)` with the kind's formula.  @p upper may be NULL when
 * n_upper = 0 and @p lower when n_lower = 0.  No checks: the caller passes a
 * checked transform and 0 <= upper[i] < upper_lengths[i]; then no overflow
 * can happen.  Example: xor(8, 8) with upper (3, 5) gives lower (3, 6).
 */
void layout_transform_lower(const layout_transform *t, const int64_t *upper, int64_t *lower);

/**
 * 1 when the upper index maps to a valid lower index, else 0.  Only the pads
 * return 0 (for an upper index inside the padding); all other kinds return 1.
 * Example: pad(3, 1, 1) gives 0 1 1 1 0 for up 0..4.
 */
int layout_transform_is_valid(const layout_transform *t, const int64_t *upper);

/**
 * ck_tile's vector-hint rule: from the (length, stride) hints of the lower
 * dims, the hints of the upper dims (-1 = unknown).  Reads
 * `low_lengths/low_strides[0..n_lower)`, writes `up_lengths/up_strides[0..n_upper)`.
 * Example: unmerge([4, 8]) with lower hint (16, 1) gives upper hints
 * (-1, -1) and (gcd(16, 8) = 8, 1).
 */
void layout_transform_vector_hint(const layout_transform *t, const int64_t *low_lengths,
                                  const int64_t *low_strides, int64_t *up_lengths, int64_t *up_strides);

/**
 * Print the transform as its constructor call, e.g. "xor(32, 8)",
 * "embed([8, 32, 8], [8, 64, 1])", "pad(30, 1, 1)".  snprintf semantics:
 * writes at most @p cap bytes including the NUL and returns the length the
 * full text needs (negative only for a NULL @p t).
 */
int layout_transform_print(const layout_transform *t, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_TRANSFORM_H */
