/**
 * @file distribution.h
 * @brief Tile distributions: which thread holds which element of a tile.
 *
 * A tile distribution answers "lane l of warp w holds, in register slot d,
 * the tile element at coordinate X".  liblayout mirrors ck_tile's
 * `tile_distribution_encoding<R, H..., P→RH, Y→RH>` and builds it on the same
 * adaptor engine as descriptors, so every transform works everywhere:
 *
 *     top    = [P0 (warp), P1 (lane), Y0, Y1, ...]     (one P: just the lane)
 *     bottom = [X0, X1, ...]                           (the tile coordinate)
 *     transforms, bottom first: replicate(R); unmerge(H_i) per X_i;
 *                               merge(listed RH dims) per P
 *
 * An RH dim is named by (major, minor): major 0 is R, major i >= 1 is
 * H_{i-1}; minor is the position in that list.  P_p is the merge of the RH
 * dims it lists (first listed most significant); Y_j is exactly the RH dim
 * it names; X_i = unmerge of H_i (first entry most significant).  The
 * register index of a Y index is row-major over the Y lengths.
 *
 * Example: the talk's kernel 08 read side (docs/lds-model.md §4.2), a
 * 64 x 32 tile over 4 waves,
 *
 *     R = <1>, H0 = <1,8,8> (M), H1 = <4,8> (K)
 *     P0 (warp) -> (2,0)          P1 (lane) -> (1,1),(1,2)
 *     Y0 -> (1,0)                 Y1 -> (2,1)
 *
 * gives m = lane, k = 8*warp + y1:
 *
 *     warp 0 lane 0 : X = (0,0) (0,1) ... (0,7)
 *     warp 0 lane 1 : X = (1,0) (1,1) ... (1,7)
 *     warp 1 lane 0 : X = (0,8) (0,9) ... (0,15)
 *
 * Evaluation folds the adaptor into place values (X_i = sum of digit x
 * product of the later H_i lengths), which is what its unmerges and merges
 * compute for in-range indices; the adaptor stays available in
 * ::layout_distribution::adaptor and the tests hold the two equal.
 *
 * For users who do not think in encodings there is a plain form: a callback
 * or a table from (warp, lane, element) to X.
 *
 * Ownership and thread safety: ::layout_distribution is a caller-owned value
 * type (no heap).  The plain forms borrow the caller's callback context or
 * table, which must outlive the distribution.  Every function is reentrant;
 * a distribution may be read by many threads at once (a callback must then be
 * thread-safe itself).  Errors follow status.h: out-parameters untouched,
 * message names the argument.
 */
#ifndef LAYOUT_DISTRIBUTION_H
#define LAYOUT_DISTRIBUTION_H

#include "layout/status.h"
#include "layout/limits.h"
#include "layout/adaptor.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum number of P (partition) dims of an encoding: warp and lane. */
#define LAYOUT_MAX_DIST_P 2
/** Maximum entries of R, of one H_i, or of one P's RH list. */
#define LAYOUT_MAX_DIST_RH 8

/**
 * ck_tile's `tile_distribution_encoding`, as plain arrays.
 *
 * Kernel 08's read side (see the file comment) reads, field by field:
 *
 *     n_r = 1, r = {1}
 *     n_x = 2, n_h = {3, 2}, h = {{1,8,8}, {4,8}}
 *     n_p = 2, n_p_rh = {1, 2}, p_major = {{2}, {1,1}}, p_minor = {{0}, {1,2}}
 *     n_y = 2, y_major = {1, 2}, y_minor = {0, 1}
 *
 * Zero-initialise, then fill; ::layout_dist_make validates everything.
 */
typedef struct layout_dist_encoding {
    int n_r;                                              ///< number of replication lengths (0..LAYOUT_MAX_DIST_RH)
    int64_t r[LAYOUT_MAX_DIST_RH];                        ///< R: replication lengths (threads differing only here hold the same data)
    int n_x;                                              ///< number of tile dims X (1..LAYOUT_MAX_DIMS)
    int n_h[LAYOUT_MAX_DIMS];                             ///< entries of H_i (1..LAYOUT_MAX_DIST_RH)
    int64_t h[LAYOUT_MAX_DIMS][LAYOUT_MAX_DIST_RH];       ///< H_i: lengths whose product is tile length X_i, first most significant
    int n_p;                                              ///< P dims: 1 (lane) or 2 (warp, lane)
    int n_p_rh[LAYOUT_MAX_DIST_P];                        ///< number of RH dims merged into P_p (>= 1)
    int p_major[LAYOUT_MAX_DIST_P][LAYOUT_MAX_DIST_RH];   ///< RH major of each entry of P_p (0 = R, i = H_{i-1})
    int p_minor[LAYOUT_MAX_DIST_P][LAYOUT_MAX_DIST_RH];   ///< RH minor (position) of each entry of P_p
    int n_y;                                              ///< Y dims (per-thread register dims, >= 1)
    int y_major[LAYOUT_MAX_DIMS];                         ///< RH major of Y_j (must be >= 1: R never in Y)
    int y_minor[LAYOUT_MAX_DIMS];                         ///< RH minor of Y_j
} layout_dist_encoding;

/** How a ::layout_distribution maps (warp, lane, element) to X. */
typedef enum layout_dist_kind {
    LAYOUT_DIST_ENCODING = 0,  ///< a ck_tile encoding evaluated through its adaptor
    LAYOUT_DIST_CALLBACK = 1,  ///< a user callback (plain form)
    LAYOUT_DIST_TABLE = 2      ///< a user table (plain form)
} layout_dist_kind;

/**
 * Plain-form callback: write the n_x tile coordinates of element @p elem
 * (register index, 0..elems_per_thread-1) of @p lane in @p warp into
 * @p coord.  Return 0 on success, non-zero to signal an error (reported as
 * ::LAYOUT_ERR_ARG by the caller).  Must be deterministic.
 */
typedef int (*layout_dist_coord_fn)(void *user, int warp, int lane, int64_t elem, int64_t *coord);

/**
 * A tile distribution (value type, fixed capacity, no heap).
 *
 * Build with ::layout_dist_make (encoding) or ::layout_dist_from_callback /
 * ::layout_dist_from_table (plain form); read with ::layout_dist_coord /
 * ::layout_dist_coord_elem.  Fields are readable; do not modify them.
 */
typedef struct layout_distribution {
    layout_dist_kind kind;             ///< which form evaluates the map
    int wave_size;                     ///< lanes per warp / wave (1..LAYOUT_MAX_LANES)
    int n_warps;                       ///< warps (waves) of the block
    int n_x;                           ///< tile dims
    int64_t x_lengths[LAYOUT_MAX_DIMS];///< tile lengths (elements); for an encoding X_i = product of H_i
    int n_y;                           ///< Y dims; the plain form has one (the element index)
    int64_t y_lengths[LAYOUT_MAX_DIMS];///< Y lengths; register index = row-major over these
    int64_t elems_per_thread;          ///< product of y_lengths
    int64_t replication;               ///< (warp, lane, element) triples per tile element: product of R (times n_warps with one P); 0 = not declared (plain form)
    layout_dist_encoding encoding;     ///< the encoding (LAYOUT_DIST_ENCODING only)
    layout_adaptor adaptor;            ///< top [P..., Y...] -> bottom X (LAYOUT_DIST_ENCODING only)
    int64_t p_weight[LAYOUT_MAX_DIST_P][LAYOUT_MAX_DIST_RH]; ///< the adaptor folded: weight in X of each P entry's digit (0 for R)
    int p_x[LAYOUT_MAX_DIST_P][LAYOUT_MAX_DIST_RH];          ///< the adaptor folded: X dim of each P entry's digit (-1 for R)
    int64_t y_weight[LAYOUT_MAX_DIMS]; ///< the adaptor folded: weight in X of Y_j (its H entry's place value)
    layout_dist_coord_fn fn;           ///< callback (LAYOUT_DIST_CALLBACK only; borrowed)
    void *user;                        ///< callback context (borrowed, must outlive the distribution)
    const int64_t *table;              ///< table [warp][lane][elem][x] (LAYOUT_DIST_TABLE only; borrowed)
} layout_distribution;

/**
 * Validate @p enc and build its distribution for @p n_warps warps of
 * @p wave_size lanes.
 *
 * Checks: counts within capacity; lengths > 0; every RH reference in range;
 * R never named by Y; every H entry named exactly once by P or Y and every
 * R entry exactly once by P (an R of length 1 may go unnamed, as in ck_tile); with two P dims P0's length (product of its RH
 * lengths) == n_warps and P1's == wave_size, with one P its length ==
 * wave_size (every warp then holds the same data, as in ck_tile); when
 * @p tile_lengths is non-NULL, @p n_tile must equal n_x and each
 * tile_lengths[i] the product of H_i.
 *
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (lengths, counts, double or
 * missing coverage), ::LAYOUT_ERR_DIM_ID (RH reference out of range),
 * ::LAYOUT_ERR_MISMATCH (P vs warps / wave size, tile lengths),
 * ::LAYOUT_ERR_CAPACITY, ::LAYOUT_ERR_OVERFLOW.  Example message:
 * "layout_dist_make: H1[0] (major 2, minor 0) is named 2 times by P and Y, must be exactly once".
 */
layout_status layout_dist_make(layout_distribution *out, const layout_dist_encoding *enc,
                               int wave_size, int n_warps, int n_tile, const int64_t *tile_lengths,
                               layout_error *err);

/**
 * Plain form from a callback.  @p fn is called once for every (warp, lane,
 * element) at construction to validate that it succeeds and stays inside
 * @p x_lengths, and again on every evaluation.  elems_per_thread >= 1; the
 * distribution has one Y dim of that length.  Errors: ::LAYOUT_ERR_NULL,
 * ::LAYOUT_ERR_ARG (counts, callback failure), ::LAYOUT_ERR_RANGE
 * (coordinate outside x_lengths), ::LAYOUT_ERR_CAPACITY.
 */
layout_status layout_dist_from_callback(layout_distribution *out, int n_x, const int64_t *x_lengths,
                                        int wave_size, int n_warps, int64_t elems_per_thread,
                                        layout_dist_coord_fn fn, void *user, layout_error *err);

/**
 * Plain form from a table of n_warps * wave_size * elems_per_thread * n_x
 * coordinates, row-major [warp][lane][elem][x] (borrowed; must outlive the
 * distribution).  Validated at construction like the callback form.
 */
layout_status layout_dist_from_table(layout_distribution *out, int n_x, const int64_t *x_lengths,
                                     int wave_size, int n_warps, int64_t elems_per_thread,
                                     const int64_t *table, layout_error *err);

/**
 * X coordinate held by @p lane of @p warp at Y index @p y (n_y entries,
 * 0 <= y[j] < y_lengths[j]).  Writes n_x values to @p x.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE (warp, lane or y out of range),
 * ::LAYOUT_ERR_ARG (a callback failed).
 */
layout_status layout_dist_coord(const layout_distribution *d, int warp, int lane, const int64_t *y,
                                int64_t *x, layout_error *err);

/**
 * X coordinate of register index @p elem (row-major over Y:
 * elem = ((y0*Y1 + y1)*Y2 + y2)...).  Same errors as ::layout_dist_coord.
 */
layout_status layout_dist_coord_elem(const layout_distribution *d, int warp, int lane, int64_t elem,
                                     int64_t *x, layout_error *err);

/** Register index of Y index @p y (row-major); -1 if @p d or @p y is NULL or y is out of range. */
int64_t layout_dist_elem_index(const layout_distribution *d, const int64_t *y);

/** Y index of register index @p elem into @p y; 0 on success, -1 if out of range or NULL. */
int layout_dist_y_index(const layout_distribution *d, int64_t elem, int64_t *y);

/**
 * Count how often each tile element is held: @p counts (caller buffer of
 * @p n_counts >= product of x_lengths entries, row-major over X) is zeroed
 * and incremented per (warp, lane, element).  On success *min_count and
 * *max_count (either may be NULL) receive the smallest and largest count; a
 * distribution that covers the tile exactly r times has min == max == r.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_BUFFER (n_counts too small),
 * evaluation errors.
 */
layout_status layout_dist_coverage(const layout_distribution *d, uint32_t *counts, size_t n_counts,
                                   int64_t *min_count, int64_t *max_count, layout_error *err);

/**
 * Print the encoding in ck_tile syntax, e.g.
 * "R<1> H<<1,8,8>,<4,8>> P<<2>,<1,1>>/<<0>,<1,2>> Y<1,2>/<0,1> (4 warps x 64 lanes)",
 * or "plain callback (4 warps x 64 lanes x 8 elems -> 2 dims)".
 * snprintf semantics: returns the length the full text needs.
 */
int layout_dist_print(const layout_distribution *d, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_DISTRIBUTION_H */
