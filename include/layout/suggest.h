/**
 * @file suggest.h
 * @brief Layout synthesis: given how a tile is written and read, find the
 * LDS layouts that cost least, every candidate scored by the exact checker.
 *
 * The question kernel engineers bring is "which layout should I use?".  A
 * ::layout_suggest_spec says how each *side* touches the tile (a tile
 * distribution, the view of the tile it uses, its access options); the
 * search builds every parameter set of every requested layout family
 * (family.h: padding, pad-every-N, ck_tile's KPack/MLdsLayer XOR, CuTe
 * Swizzle<B,M,S>, Triton swizzled_shared, IREE xor_shuffle, XOR + pad, F2
 * swizzles), scores each candidate exactly as layout_check_kernel() would
 * (same access plans, same compiler model of access.h, same lane groups),
 * and ranks them lexicographically by
 *
 *     (vector damage, extra cycles per tile, LDS instructions per tile,
 *      LDS bytes, index arithmetic ops of the compiled plan, enumeration order)
 *
 * where *vector damage* counts the steps a candidate forces a tile-window
 * vector to be misaligned, non-contiguous or split (access.h), so a layout
 * that keeps the vectors always ranks above one that breaks them.
 *
 * Example: kernel 01's accesses of the talk's table (docs/lds-model.md §4.1)
 * on gfx942 (64 x 32 fp16, write b128 rows along K, read 2-byte columns
 * along M): the talk's packed
 * row-major layout costs 448 extra cycles per tile; the search returns
 * layouts with 0 (file docs/suggest.md walks through why).
 *
 * ## Speed
 * The distributions never change between candidates, so
 * layout_suggest_prepare() computes once, per side, where every register
 * element of every lane of every warp lies in the tile.  Scoring a
 * candidate (layout_suggest_score()) then only compiles its descriptor
 * (plan.h), walks the whole tile once (layout_plan_tile()), gathers each
 * side's byte addresses, redoes the compiler model on those addresses (the
 * only part of an access plan that depends on the layout: alignment,
 * adjacency, the vector hints) and costs every instruction with the
 * prepared checker: about 100x cheaper than layout_check_kernel() from
 * scratch (bench/RESULTS.md, "suggest").  layout_suggest_score_reference()
 * is the from-scratch path; the two agree on every candidate (tested and
 * re-verified in the benchmark).
 *
 * Ownership: every struct here is a caller-owned value (the scorer is
 * about 140 KiB, a result about 430 KiB: allocate them statically or on
 * the heap); the library never allocates.  Tiles beyond
 * LAYOUT_SUGGEST_INLINE_ELEMS = 8192 elements (up to 256 x 256) need a
 * workspace from the caller: layout_suggest_workspace_size() and
 * layout_suggest_ws().  A scorer *borrows* the arch and
 * the distributions of its spec.  Thread safety: reentrant; a const scorer
 * may be used by many threads; layout_suggest() may run several threads of
 * its own (spec->threads), and its result does not depend on their number.
 * Stack: layout_suggest_score() uses about 490 KiB, layout_suggest()
 * about 900 KiB on the calling thread (which runs one of the workers) and
 * as much on each worker thread it starts (default thread attributes);
 * measured by tests/test_stack_bounds.c.  Errors follow status.h.
 */
#ifndef LAYOUT_SUGGEST_H
#define LAYOUT_SUGGEST_H

#include "layout/status.h"
#include "layout/access.h"
#include "layout/arch.h"
#include "layout/check.h"
#include "layout/descriptor.h"
#include "layout/distribution.h"
#include "layout/kernel.h"
#include "layout/family.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most sides (accesses of the tile) a spec may have. */
#define LAYOUT_SUGGEST_MAX_SIDES 4
/** Most tile elements (product of the tile lengths) a search handles:
 *  256 x 256, with a caller's workspace (layout_suggest_ws()); without one
 *  LAYOUT_SUGGEST_INLINE_ELEMS. */
#define LAYOUT_SUGGEST_MAX_TILE 65536
/** Most tile elements, and (thread, register element) pairs of one side,
 *  that the calls without a workspace (layout_suggest_prepare(),
 *  layout_suggest(), layout_suggest_score()) hold in their fixed-size
 *  tables; larger specs need layout_suggest_ws(). */
#define LAYOUT_SUGGEST_INLINE_ELEMS 8192
/** Most results a search returns (top K and Pareto front each). */
#define LAYOUT_SUGGEST_MAX_TOP 16
/** Most worker threads of one search. */
#define LAYOUT_SUGGEST_MAX_THREADS 64
/** Most (thread, register element) pairs of one side (warps * wave size * elements per thread), with a workspace. */
#define LAYOUT_SUGGEST_MAX_SIDE_ELEMS 65536

/** One access of the tile: who touches what, through which view. */
typedef struct layout_suggest_side {
    const layout_distribution *dist; /**< borrowed; its X dims are the view's dims */
    layout_direction direction;      /**< ::LAYOUT_WRITE or ::LAYOUT_READ */
    int has_view;                    /**< 0: the side sees the tile as is; 1: through view[] */
    int view[LAYOUT_MAX_DIMS];       /**< with has_view: the side's dim i is tile dim view[i] (a permutation), e.g. {1, 0} = [K, M] of an [M, K] tile */
    layout_access_options opt;       /**< vector policy, explicit op, base address... (desc_plan must be NULL) */
} layout_suggest_side;

/**
 * What to search.  Zero-initialise, then fill; sides[0..n_sides).
 * Example: seed kernel 01 = tile {64, 32}, elem 2, sides {write dist, no
 * view}, {read dist over [K, M], view {1, 0}}.
 */
typedef struct layout_suggest_spec {
    const layout_arch *arch;         /**< borrowed */
    int elem_bytes;                  /**< 1, 2, 4, 8 or 16 */
    int n_dims;                      /**< tile dims (1..LAYOUT_MAX_DIMS; the families need 2) */
    int64_t tile[LAYOUT_MAX_DIMS];   /**< logical tile lengths, e.g. {64, 32} = [M, K] */
    int n_sides;                     /**< 1..LAYOUT_SUGGEST_MAX_SIDES */
    layout_suggest_side sides[LAYOUT_SUGGEST_MAX_SIDES]; /**< the accesses */
    int64_t budget_bytes;            /**< LDS bytes allowed beyond the packed tile (0 = no padding) */
    unsigned families;               /**< bit (1u << layout_family_kind) per family to search; 0 is an error */
    int top_k;                       /**< results wanted, 1..LAYOUT_SUGGEST_MAX_TOP (0 = 8) */
    int threads;                     /**< worker threads (0 or 1 = the calling thread only) */
    int64_t max_candidates;          /**< stop after this many parameter sets (0 = no limit); a family cut short is not exhausted */
} layout_suggest_spec;

/** The fast score of one candidate; equal to layout_check_kernel()'s numbers. */
typedef struct layout_suggest_cost {
    int64_t extra_cycles;            /**< sum over sides, warps, instructions of extra (conflict) cycles, per tile */
    int64_t instrs;                  /**< DS instructions per tile, all sides, all warps */
    int64_t lds_bytes;               /**< element_space_size * elem_bytes */
    int index_ops;                   /**< div / xor ops of the candidate's compiled plan (plan.h) */
    int vector_damage;               /**< steps per wave flagged misaligned or non-contiguous plus vectors split, all sides */
    int n_sides;                     /**< sides scored */
    int64_t side_extra[LAYOUT_SUGGEST_MAX_SIDES];  /**< extra cycles per tile of each side */
    int side_steps[LAYOUT_SUGGEST_MAX_SIDES];      /**< DS instructions per wave of each side */
    int side_op_count[LAYOUT_SUGGEST_MAX_SIDES][LAYOUT_DS_OP_COUNT]; /**< of those, per op */
    int side_misaligned[LAYOUT_SUGGEST_MAX_SIDES];    /**< flagged misaligned steps per wave */
    int side_noncontiguous[LAYOUT_SUGGEST_MAX_SIDES]; /**< flagged non-contiguous steps per wave */
    int side_split[LAYOUT_SUGGEST_MAX_SIDES];         /**< vectors split (::LAYOUT_VECTOR_SPLIT) */
} layout_suggest_cost;

/** A spec prepared for scoring: per side, each (thread, element)'s tile index.  Build with layout_suggest_prepare(). */
typedef struct layout_suggest_scorer {
    layout_suggest_spec spec;        /**< copy of the spec (borrows what it borrows) */
    layout_checker checker;          /**< prepared checker of spec.arch */
    int64_t tile_elems;              /**< product of the tile lengths */
    int64_t period;                  /**< lcm(n_banks * bank_width_bytes, 16): address shifts that change no cost */
    int side_elems[LAYOUT_SUGGEST_MAX_SIDES]; /**< warps * wave size * elements per thread */
    int32_t lin[LAYOUT_SUGGEST_MAX_SIDES][LAYOUT_SUGGEST_INLINE_ELEMS]; /**< row-major tile index of (warp, lane, element), when lin_ext is NULL */
    int32_t *lin_ext;                /**< NULL, or (layout_suggest_ws()) the same tables in the caller's workspace, side i at lin_ext + i * lin_ext_stride */
    int64_t lin_ext_stride;          /**< entries per side in lin_ext */
    /** Per side, when its tile index is linear over F2 in the bits of k =
     *  (warp * wave size + lane) * elements + element (every count a power
     *  of two, lin[k] = XOR of lin[2^j] over the bits j of k): the element,
     *  lane and warp bit counts; f2_bits[i][0] = -1 when it is not.  The
     *  search then scores F2 candidates without their addresses. */
    int f2_bits[LAYOUT_SUGGEST_MAX_SIDES][3];
    int32_t f2_basis[LAYOUT_SUGGEST_MAX_SIDES][16]; /**< lin[2^j] for those bits, element bits first */
} layout_suggest_scorer;

/**
 * Check @p spec and prepare @p out: the checker, and for every side the
 * tile coordinates of every (warp, lane, register element).  Candidates of
 * layout_suggest_score() are descriptors over the tile (top lengths =
 * spec->tile).
 * Errors: ::LAYOUT_ERR_NULL (out, spec, spec->arch, a side's dist),
 * ::LAYOUT_ERR_ARG (elem_bytes, n_dims, tile lengths, n_sides, direction,
 * a view that is not a permutation, opt->desc_plan set, top_k, threads,
 * budget < 0, families = 0: "no family to search"),
 * ::LAYOUT_ERR_MISMATCH (a side's tile differs from the spec's tile seen
 * through its view: "sides[1]: dist tile [64, 32] != tile seen through the
 * view [32, 64]"; a wave size different from the arch's),
 * ::LAYOUT_ERR_ARG also when a distribution leaves a tile element
 * untouched ("sides[0]: the distribution does not cover tile element
 * (3, 5)"),
 * ::LAYOUT_ERR_CAPACITY (tile or side larger than LAYOUT_SUGGEST_INLINE_ELEMS
 * = 8192, the scorer's own tables: "... use layout_suggest_ws()"), and layout_access_plan_make()'s errors on the packed tile
 * (message prefixed by the side).  @p out untouched on error.
 */
layout_status layout_suggest_prepare(layout_suggest_scorer *out, const layout_suggest_spec *spec, layout_error *err);

/**
 * Score one candidate @p desc (top dims = the tile, in the tile's order)
 * by the fast path.  *out equals what layout_suggest_score_reference()
 * gives (and so layout_check_kernel() for a two-sided spec).
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_MISMATCH (desc's top lengths
 * differ from the tile), ::LAYOUT_ERR_RANGE (an address outside
 * 0..2^32-17), layout_plan_build()'s errors, ::LAYOUT_ERR_CAPACITY (more
 * steps than an access plan holds).  @p out untouched on error.
 */
layout_status layout_suggest_score(const layout_suggest_scorer *sc, const layout_descriptor *desc,
                                   layout_suggest_cost *out, layout_error *err);

/**
 * The same score from scratch: for every side its view of @p desc
 * (layout_suggest_view()), layout_access_plan_make() and
 * layout_check_side() — the path of layout_check_kernel().  When @p sides
 * is non-NULL it receives each side's full ::layout_side_result
 * (sides[0..n_sides), tiles = 1).  Errors: as layout_suggest_score(), plus
 * those of the access layer prefixed by the side.
 */
layout_status layout_suggest_score_reference(const layout_suggest_scorer *sc, const layout_descriptor *desc,
                                             layout_suggest_cost *out, layout_side_result *sides,
                                             layout_error *err);

/**
 * The descriptor side @p side of @p spec sees: @p desc itself without a
 * view, else @p desc with its top dims permuted by pass_through transforms
 * (ck_tile's transposed window: view dim i = tile dim view[i]).
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE (side), those of
 * layout_transform_descriptor().
 */
layout_status layout_suggest_view(const layout_suggest_spec *spec, int side, const layout_descriptor *desc,
                                  layout_descriptor *out, layout_error *err);

/** Most Pareto-front points a result holds (the front is cut at this many, smallest LDS first). */
#define LAYOUT_SUGGEST_MAX_PARETO 32

/** One scored layout of a search result. */
typedef struct layout_suggest_candidate {
    layout_family_params params;     /**< its family and native parameters (layout_family_params_print()) */
    int64_t index;                   /**< position in the search's enumeration (the last tie-break) */
    layout_suggest_cost cost;        /**< its score */
    layout_side_result sides[LAYOUT_SUGGEST_MAX_SIDES]; /**< per-side cost from layout_check_side() (tiles = 1) */
    layout_descriptor desc;          /**< the layout over the tile (layout_family_build()) */
} layout_suggest_candidate;

/** What a search did with one family. */
typedef struct layout_suggest_family_stats {
    int searched;                    /**< 1 when the spec asked for it */
    int64_t tried;                   /**< parameter sets enumerated (both storage orders) */
    int64_t failed;                  /**< of those, sets that could not be built or scored (too many instructions...) */
    int exhausted;                   /**< 1 when every legal parameter set within the budget was tried */
    int64_t best_extra;              /**< fewest extra cycles per tile among its scored sets (-1 if none) */
    int best_damage;                 /**< vector damage of that best (-1 if none) */
} layout_suggest_family_stats;

/** Everything a search returns (about 430 KiB: allocate it statically or on the heap). */
typedef struct layout_suggest_result {
    int n_top;                                           /**< results in top[] */
    layout_suggest_candidate top[LAYOUT_SUGGEST_MAX_TOP]; /**< best first (suggest.h's ranking) */
    int n_pareto;                                        /**< points in pareto[] */
    int64_t pareto_total;                                /**< points of the whole front (> n_pareto when cut) */
    layout_suggest_candidate pareto[LAYOUT_SUGGEST_MAX_PARETO]; /**< the front of (vector damage, extra cycles, LDS bytes), fewest LDS bytes first; each point's best-ranked candidate */
    layout_suggest_family_stats families[LAYOUT_FAMILY_COUNT]; /**< per family kind */
    int64_t tried;                                       /**< parameter sets enumerated, all families */
    int64_t scored;                                      /**< of those, scored */
    int all_exhausted;                                   /**< every searched family exhausted */
} layout_suggest_result;

/**
 * Search: every parameter set of every family in spec->families, both
 * storage orders (contiguous dim 1 and 0 of a 2-D tile), within
 * spec->budget_bytes, each scored by the fast path; top K and the Pareto
 * front re-checked from scratch (layout_suggest_score_reference()) before
 * they are returned.  With spec->threads > 1 that many threads share the
 * enumeration (candidate i goes to thread i mod threads); the result is
 * the same for any thread count.  Tiles and sides up to
 * LAYOUT_SUGGEST_INLINE_ELEMS (the tables are on the stack); larger ones,
 * up to 256 x 256: layout_suggest_ws().  A candidate whose exact lower
 * bound (no damage or extra cycles below 0, its LDS bytes, and the fewest
 * instructions any layout needs, or its plans' exact damage and
 * instructions) cannot enter the top K, the front or its family's best is
 * not scored further: the result is the one of scoring every candidate.
 * Errors: those of layout_suggest_prepare() (::LAYOUT_ERR_ARG for
 * families = 0 or a family bit >= LAYOUT_FAMILY_COUNT, n_dims != 2),
 * ::LAYOUT_ERR_NOT_FOUND when no candidate of the families fits the
 * budget ("no layout of the families pad, ck_xor fits budget_bytes = 0..."),
 * ::LAYOUT_ERR_UNSUPPORTED when threads cannot be started, and an internal
 * ::LAYOUT_ERR_MISMATCH should a fast score ever differ from the
 * reference.  @p out untouched on error.
 */
layout_status layout_suggest(const layout_suggest_spec *spec, layout_suggest_result *out, layout_error *err);

/**
 * The same search with a caller-provided scorer already prepared from the
 * spec (layout_suggest_prepare()), e.g. to reuse it for several searches.
 */
layout_status layout_suggest_run(const layout_suggest_scorer *sc, layout_suggest_result *out, layout_error *err);

/**
 * Bytes of workspace layout_suggest_ws() needs for @p spec:
 *
 *     scorer + sides * E * 4 + max(1, threads) * (work + T * 12 + (sides + 1) * E * 4)
 *
 * (T tile elements, E the most (thread, element) pairs of a side, each
 * part rounded up to 64 bytes; about 0.9 MiB per thread for a 128 x 128
 * tile read and written by 256 threads, 3 MiB for 256 x 256).  The spec is
 * checked as layout_suggest_prepare() checks it, with the workspace caps
 * LAYOUT_SUGGEST_MAX_TILE and LAYOUT_SUGGEST_MAX_SIDE_ELEMS.
 * Example: `size_t n; layout_suggest_workspace_size(&spec, &n, &err);
 * void *ws = malloc(n); layout_suggest_ws(&spec, ws, n, &res, &err);`.
 * Errors: those of layout_suggest_prepare() about the spec (::LAYOUT_ERR_NULL,
 * ::LAYOUT_ERR_ARG, ::LAYOUT_ERR_MISMATCH, ::LAYOUT_ERR_CAPACITY beyond the
 * workspace caps).  Pure; thread-safe.  @p bytes untouched on error.
 */
layout_status layout_suggest_workspace_size(const layout_suggest_spec *spec, size_t *bytes, layout_error *err);

/**
 * layout_suggest() with a caller-owned workspace of @p ws_bytes bytes at
 * @p ws (any alignment; at least layout_suggest_workspace_size()): tiles up
 * to LAYOUT_SUGGEST_MAX_TILE = 65536 elements (256 x 256) and sides up to
 * LAYOUT_SUGGEST_MAX_SIDE_ELEMS pairs.  The scorer, its tables and every
 * worker thread's tables live in the workspace, so the stack stays small
 * (about 350 KiB on the calling thread, less on each worker;
 * tests/test_stack_bounds.c).  The result is the one layout_suggest() gives
 * for the specs both accept.  The workspace is scratch: its content after
 * the call means nothing; one workspace serves one call at a time.
 * Errors: those of layout_suggest(); ::LAYOUT_ERR_NULL (ws);
 * ::LAYOUT_ERR_BUFFER when @p ws_bytes is below the size needed (the
 * message says both).  @p out untouched on error.
 */
layout_status layout_suggest_ws(const layout_suggest_spec *spec, void *ws, size_t ws_bytes,
                                layout_suggest_result *out, layout_error *err);

/** Seed 002's one-dimensional case: `arr[lane * stride + k]`, before and after the fix. */
typedef struct layout_suggest_stride_result {
    int64_t stride;           /**< the stride S (elements) */
    int elem_bytes;           /**< element size (bytes) */
    int gcd_factor;           /**< the lint's closed form gcd(S * elem_bytes / bank_bytes, banks) for elements of bank_bytes (the HLSL lint's 2x, 4x ... 32x, docs/lds-model.md §4.3); 0 for other element sizes */
    int factor;               /**< the checker's worst N-way of one wave reading arr[lane * S] */
    int extra_cycles;         /**< the checker's extra cycles of that instruction */
    int64_t pad;              /**< smallest p >= 0 for which stride S + p reaches the SoA factor (-1: none up to 2 * banks) */
    int factor_padded;        /**< worst N-way at stride S + pad */
    int extra_padded;         /**< extra cycles at stride S + pad */
    int factor_soa;           /**< worst N-way of the structure-of-arrays form (stride 1) */
    int extra_soa;            /**< its extra cycles */
} layout_suggest_stride_result;

/**
 * The HLSL stride lint (docs/lds-model.md §4.3) with the exact checker: one
 * wave of @p arch reads
 * (::LAYOUT_READ, @p elem_bytes per lane) `arr[lane * stride + k]`; report
 * its conflict factor, the smallest padding of the record (stride + p) and
 * the structure-of-arrays form (stride 1) that remove it.
 * Example: gfx11 (32 banks, wave 32), stride 4, elem 4: factor 4
 * (gcd(4, 32)), pad 1 -> stride 5 factor 1; SoA factor 1.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (stride < 1 or > 2^20,
 * elem_bytes not a checker width), the checker's errors (an arch without
 * rules for that width).  @p out untouched on error.
 */
layout_status layout_suggest_stride(const layout_arch *arch, int64_t stride, int elem_bytes,
                                    layout_suggest_stride_result *out, layout_error *err);

/**
 * C source that builds @p c's descriptor: the layout_family_params
 * initialiser and the layout_family_build() call, then the same layout as
 * layout_desc_from_text() of its canonical text.  snprintf semantics
 * (returns the length needed; -1 for NULL @p c or a descriptor without a
 * text form).
 */
int layout_suggest_c_calls(const layout_suggest_candidate *c, char *buf, size_t cap);

/**
 * One line: "ck_xor  KPack=8 MLdsLayer=2  write 1 x ds_write_b128  read 1 x ds_read_b128  extra 0  lds 4096"
 * (the sides' ops, extra cycles per tile, LDS bytes; " [vector damage 2]"
 * when flagged).  snprintf semantics; -1 for NULL @p c.
 */
int layout_suggest_candidate_print(const layout_suggest_candidate *c, int n_sides, char *buf, size_t cap);

/**
 * A spec with the objects it borrows, as the text decoder fills it: the
 * spec's arch and distributions point into this struct, so parse straight
 * into the value you keep (copying it keeps pointers to the original).
 */
typedef struct layout_suggest_text_spec {
    layout_suggest_spec spec;                            /**< ready for layout_suggest() */
    layout_arch arch;                                    /**< spec.arch points here */
    layout_distribution dists[LAYOUT_SUGGEST_MAX_SIDES]; /**< spec.sides[i].dist points here */
} layout_suggest_text_spec;

/**
 * Decode a search spec from text: `key=value` items separated by `;`
 * (or newlines), whitespace ignored around them:
 *
 *     arch=gfx942; elem=2; shape=64,32; budget=1024; top=8; threads=2;
 *     families=pad,ck_xor; write=dist(...); read=dist(...); view=1,0
 *
 * | key | value | default |
 * |---|---|---|
 * | arch | preset name or `arch(...)` text (layout_arch_from_text()) | gfx942 |
 * | elem | element bytes 1, 2, 4, 8, 16 | 2 |
 * | shape | the tile lengths, comma-separated (required) | |
 * | budget | extra LDS bytes | 0 |
 * | top, threads, max | spec->top_k, threads, max_candidates | 8, 1, 0 |
 * | families | family names (layout_family_name()) or `all` | all |
 * | write, read | a `dist(...)` (layout_dist_from_text()): adds a side | |
 * | view | permutation for the last side, e.g. `1,0` | see below |
 * | policy | `trust` or `split` (last side's vector policy) | trust |
 * | op | explicit op of the last side: b8 b16 b32 b64 b96 b128 pair | auto |
 * | base | base byte address of the last side | 0 |
 *
 * A side without `view` whose distribution's tile is the reversed 2-D
 * shape (and not the shape itself) gets view `1,0` (the transposed read of
 * the seed kernels).  Arch is decoded first wherever it appears.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_PARSE (syntax, unknown key,
 * a number out of range, no `shape`, no side; *where = the byte offset),
 * and the decoders' statuses of arch and dist values (offset inside the
 * value).  Only layout_suggest_prepare() checks the spec's semantics.
 * @p out untouched on error.
 */
layout_status layout_suggest_spec_from_text(const char *text, layout_suggest_text_spec *out, size_t *where,
                                            layout_error *err);

/**
 * Build any family member, including the search's own F2 family: for
 * ::LAYOUT_FAMILY_F2 the constructive F2 swizzle below, for every other
 * kind layout_family_build().
 *
 * **F2 swizzle** (family 5, power-of-two tiles, built on linear.h): storage
 * row-major on params->contiguous_dim with rows r (rb = log2 R bits) and
 * columns c; columns are cut into groups of vec = p[0] elements (g =
 * log2(C / vec) group bits); p[1] is a g x rb bit matrix A (bit j*rb + i
 * set: group bit j flips with row bit i):
 *
 *     offset(r, c) = r*C + ((c / vec) XOR A*r) * vec + c % vec     (over F2)
 *
 * p[2] = rb, p[3] = g.  Every ck_tile XOR, CuTe Swizzle<B,M,S> on a
 * power-of-two tile and Triton swizzled_shared is one such A; the search
 * tries every A when g*rb <= 12, else every A with at most one row bit per
 * group bit, else (more than 20000 of those) the diagonal ones (group bit j
 * flips with row bit j + s).  The descriptor comes from
 * layout_linear_to_desc() (xor(2,2) network).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (a tile length not a power of
 * two, vec not a power of two dividing C, p[2] / p[3] not matching the
 * tile, A with bits outside g x rb); those of layout_family_build() and
 * layout_linear_to_desc().  @p out untouched on error.
 */
layout_status layout_suggest_build(const layout_family_params *params, const int64_t tile[2], layout_descriptor *out,
                                   layout_error *err);

/**
 * Native spelling of any family member: layout_family_params_print() for
 * the family kinds, and for F2 "F2 vec=8: g0^=r3 g1^=r4" (each group bit
 * with the row bits it flips with; "F2 vec=8: identity" for A = 0).
 * snprintf semantics; -1 for NULL @p params.
 */
int layout_suggest_params_print(const layout_family_params *params, char *buf, size_t cap);

/**
 * -1, 0 or 1 as @p a ranks before, equal to or after @p b by (vector
 * damage, extra cycles, instructions, LDS bytes, index ops).  Pure.
 */
int layout_suggest_score_cmp(const layout_suggest_cost *a, const layout_suggest_cost *b);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_SUGGEST_H */
