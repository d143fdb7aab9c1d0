/* Private helpers of the layout search (lib/suggest).  Not installed. */
#ifndef LAYOUT_SUGGEST_INTERNAL_H
#define LAYOUT_SUGGEST_INTERNAL_H

#include "../core/internal.h"
#include "../family/family_set.h"
#include "layout/suggest.h"
#include "layout/linear.h"

/* The bound's cache of plan summaries (layout_suggest_work.sumcache). */
#define LAYOUT_SUGGEST_SUM_N 64
#define LAYOUT_SUGGEST_SUM_SLOTS 16

/* The most warps a distribution has (DIST_MAX_WARPS in lib/tile/distribution.c). */
#define LAYOUT_SUGGEST_MAX_WARPS 1024

/* Workspace of one fast score (about 425 KiB): kept out of the scorer so
 * that a const scorer can be shared by threads.  Its per-element tables
 * are the inline arrays below (tiles and sides up to
 * LAYOUT_SUGGEST_INLINE_ELEMS; layout_suggest_work_init()) or, for larger
 * specs, slices of the caller's workspace (layout_suggest_work_attach()). */
typedef struct layout_suggest_work {
    int64_t *tile_off;             /* the candidate's offset of every tile element */
    uint32_t *tile_addr;           /* tile_off * elem_bytes */
    uint32_t *addr;                /* one side's byte addresses, [position][thread] */
    int32_t *lin_pm[LAYOUT_SUGGEST_MAX_SIDES]; /* per side: the tile index table in the issue order
                                                  of the last vector choice seen (most candidates of a family share it) */
    size_t tile_cap;               /* entries of tile_off and tile_addr */
    int cached_vy[LAYOUT_SUGGEST_MAX_SIDES], cached_ve[LAYOUT_SUGGEST_MAX_SIDES];
    int64_t inl_tile_off[LAYOUT_SUGGEST_INLINE_ELEMS];
    uint32_t inl_tile_addr[LAYOUT_SUGGEST_INLINE_ELEMS];
    uint32_t inl_addr[LAYOUT_SUGGEST_INLINE_ELEMS];
    int32_t inl_lin_pm[LAYOUT_SUGGEST_MAX_SIDES][LAYOUT_SUGGEST_INLINE_ELEMS];
    layout_access_plan plan;
    layout_plan dplan;
    int step_cost[2][LAYOUT_SUGGEST_MAX_WARPS]; /* per warp, the extra cycles of the last two access steps (score.c) */
    uint32_t warp_bytes[LAYOUT_SUGGEST_MAX_WARPS]; /* per warp, its XOR part of the byte addresses (score_linear.c) */
    int64_t warp_pad[LAYOUT_SUGGEST_MAX_WARPS];    /* per warp, its pad part (bytes) */
    /* per side, the linear scorers' instruction costs by (width, lane XOR
     * part, translate mod bank width), valid while the lane images that
     * generate the side's lanes stay the same (score_linear.c) */
    struct layout_suggest_tcache {
        const void *sc; /* the scorer they were costed with; NULL: empty */
        int lbits;
        uint32_t lane_x[8];
        int64_t lane_g[8];
        struct { uint32_t a0_in; int key; int cost; } slot[64];
    } tcache[LAYOUT_SUGGEST_MAX_SIDES];
    /* sides 0 and 1: the compiler model's steps of the last candidate, kept
     * with what they were built from (the scorer, the vector hints and the
     * address facts): the linear scorers rebuild them only when these
     * change (score_linear.c; half the XOR + pad sets share them) */
    struct layout_suggest_steps_cache {
        const void *sc; /* NULL: empty */
        int64_t hl[LAYOUT_MAX_DIMS], hs[LAYOUT_MAX_DIMS];
        int built, n;
        unsigned residues[LAYOUT_MAX_THREAD_ELEMS];
        unsigned char next_adjacent[LAYOUT_MAX_THREAD_ELEMS], next_below[LAYOUT_MAX_THREAD_ELEMS];
        int pairable;                                 /* the steps have b32 / b64 steps or pairs: klass / rel matter */
        short succ[LAYOUT_MAX_THREAD_ELEMS];          /* the class mate at the next address, or -1 (score_linear.c) */
        unsigned char klass[LAYOUT_MAX_THREAD_ELEMS]; /* rigid classes (access_plan.h) */
        int64_t rel[LAYOUT_MAX_THREAD_ELEMS];
        layout_access_plan plan;
    } steps_cache[2];
    /* the vector hints of the last XOR + pad set scored, keyed by the set
     * without its padding (layout_suggest_score_params) */
    int hint_valid;
    layout_family_params hint_key;
    int64_t hint_l[LAYOUT_MAX_DIMS], hint_s[LAYOUT_MAX_DIMS];
    /* The search's bound (search.c): with cut_fn set, the linear scorers
     * build every side's plan first and ask cut_fn(cut_ctx, cost so far:
     * vector damage, instructions, LDS bytes exact, no extra cycles yet)
     * whether the candidate can still place; if not they stop, set cut_hit
     * and return LAYOUT_OK with that partial cost. */
    int (*cut_fn)(const void *ctx, const layout_suggest_cost *partial);
    const void *cut_ctx;
    int cut_hit;
    int64_t last_instrs[2]; /* sides 0 and 1: instructions per tile of the last plan (the order of the plans) */
    int extra_first;        /* the side whose extra cycles cut the last candidate cut by them (pass 1's order) */
    /* the linear form of the last unpadded family set scored (score.c) */
    const void *ll_sc; /* the scorer; NULL: empty */
    layout_family_params ll_key;
    int ll_ok;         /* 1: linear and usable by the linear scorers */
    layout_linear ll;
    /* per side, the XOR images of its (element, lane, warp) bits under the
     * last linear form seen (score_linear.c) */
    struct layout_suggest_xcache {
        const void *sc; /* NULL: empty */
        int b0, b1;
        uint64_t bases[32];
        uint32_t X[16];
    } xcache[LAYOUT_SUGGEST_MAX_SIDES];
    /* sides 0 and 1: the vector damage and instructions per tile of the
     * plans of recent facts, for the bound, and the plans in compact form,
     * for the checker once the bound lets a candidate through
     * (score_summary.c); fully associative; plans of up to
     * LAYOUT_SUGGEST_SUM_N elements per thread */
    struct layout_suggest_sumcache {
        const void *sc; /* NULL: empty */
        uint64_t clock; /* uses so far: the least recently used slot goes first */
        struct layout_suggest_sum_slot {
            int n; /* -1: empty */
            int pairable, damage;
            uint64_t hash, used;
            uint64_t fill; /* the clock when it was filled: references to it carry it */
            int64_t instrs;
            int64_t instrs_min; /* the fewest instructions any pairing of its b32 / b64 steps gives */
            int64_t hl[2], hs[2]; /* the linear scorers' tiles are 2-D */
            /* its plan, compact (what the scorer reads of it): cp_n steps,
             * -1 when the plan did not fit */
            short cp_n, cp_instrs, cp_damage[3];
            unsigned char cp_ops[LAYOUT_DS_OP_COUNT];
            unsigned char cp_first[LAYOUT_SUGGEST_SUM_N], cp_width[LAYOUT_SUGGEST_SUM_N];
            short cp_off[LAYOUT_SUGGEST_SUM_N];
            uint16_t residues[LAYOUT_SUGGEST_SUM_N];
            unsigned char adj[LAYOUT_SUGGEST_SUM_N], below[LAYOUT_SUGGEST_SUM_N], klass[LAYOUT_SUGGEST_SUM_N];
            short succ[LAYOUT_SUGGEST_SUM_N];
            int64_t rel[LAYOUT_SUGGEST_SUM_N];
        } slot[LAYOUT_SUGGEST_SUM_SLOTS];
    } sumcache[2];
    /* sides 0 and 1: the vector damage and instructions per tile of the
     * plan of each pad residue (P mod 16 bytes) of one set of bit images,
     * pad groups and hints, while every position's pad group is its
     * class's (h0 = 1): then the facts depend on the pad only through
     * the residues, and those only on P mod 16 (score_summary.c) */
    struct layout_suggest_rcache {
        const void *sc; /* NULL: empty */
        int nb, n;
        int h0;         /* -1: not known yet */
        unsigned known; /* bit P mod 16: damage[], instrs[] hold that residue's */
        uint32_t X[16];
        int64_t g[16];
        int64_t hl[LAYOUT_MAX_DIMS], hs[LAYOUT_MAX_DIMS];
        int damage[16];
        int64_t instrs[16];
        short slot[16];     /* the summary cache's slot holding that residue's plan, or -1 */
        uint64_t stamp[16]; /* ... while its fill is this */
    } rcache[2];
    /* per side: the element bits' XOR and pad-group parts at each issue
     * position and the rigid classes, for one issue order and one set of
     * element-bit images (score_linear.c; the pads of one XOR set share them) */
    struct layout_suggest_ecache {
        const void *sc; /* NULL: empty */
        int n, ebits, klass_ok;
        uint32_t klass_or;
        int64_t hl[LAYOUT_MAX_DIMS], hs[LAYOUT_MAX_DIMS];
        uint32_t eX[16];
        int64_t eg[16];
        uint32_t XE[LAYOUT_MAX_THREAD_ELEMS];
        int64_t GE[LAYOUT_MAX_THREAD_ELEMS];
        unsigned char klass[LAYOUT_MAX_THREAD_ELEMS];
    } ecache[LAYOUT_SUGGEST_MAX_SIDES];
} layout_suggest_work;

/* The scoring core: w->tile_off holds the candidate's offset of every tile
 * element (row-major), hl / hs its vector hints per tile dim. */
layout_status layout_suggest_score_offsets(const layout_suggest_scorer *sc, layout_suggest_work *w, const int64_t *hl,
                                           const int64_t *hs, int64_t element_space, int index_ops,
                                           layout_suggest_cost *out, layout_error *err);

/* Whether layout_suggest_score_linear() can score the F2-linear candidate
 * *ll (tile index bits -> element offset): a 2-D power-of-two tile, every
 * side F2-linear (scorer.f2_bits), every base a multiple of sc->period. */
int layout_suggest_linear_usable(const layout_suggest_scorer *sc, const layout_linear *ll);

/* layout_suggest_score_offsets() of the offsets *ll gives, for a candidate
 * that layout_suggest_linear_usable() accepts, from the linear form alone
 * (score_linear.c); element space 2^ll->total_out_bits.
 * LAYOUT_ERR_UNSUPPORTED (no message) when the offsets could reach the end
 * of the 32-bit address range: the caller uses the address path. */
layout_status layout_suggest_score_linear(const layout_suggest_scorer *sc, layout_suggest_work *w,
                                          const layout_linear *ll, const int64_t *hl, const int64_t *hs,
                                          int index_ops, layout_suggest_cost *out, layout_error *err);

/* The search's score of family set *params (not F2) whose descriptor is
 * *desc: hints from the descriptor, offsets from the linear form
 * (layout_family_linear_bases) or the closed form
 * (layout_family_tile_offsets), index_ops = INT_MAX (the search compiles
 * the plan only for candidates that could place).  Otherwise as
 * layout_suggest_score_work(). */
layout_status layout_suggest_score_family(const layout_suggest_scorer *sc, const layout_family_params *params,
                                          const layout_descriptor *desc, layout_suggest_work *w,
                                          layout_suggest_cost *out, layout_error *err);

/* The search's score of family set *params (not F2; checked by the
 * iterator): as layout_suggest_score_family() of its descriptor, without
 * building it where layout_family_vector_hints() knows the hints; else it
 * builds it, once per XOR set for XOR + pad sets (their hints do not depend
 * on the padding; cached in *w). */
layout_status layout_suggest_score_params(const layout_suggest_scorer *sc, const layout_family_params *params,
                                          layout_suggest_work *w, layout_suggest_cost *out, layout_error *err);

/* layout_suggest_score_linear() of offsets L(d0, d1) + pad * (row >> pad_shift)
 * (row: the non-contiguous dim): padded family sets whose unpadded form is
 * linear (layout_family_pad_form).  Element space `space`.  Also
 * LAYOUT_ERR_UNSUPPORTED (no message) when a side's pad term is not additive
 * (two bits of (warp, lane, element) in one pad-group bit): the caller
 * uses the address path.  Caches in *w (steps_cache, tcache) carry over
 * between calls with one scorer; layout_suggest_work_init() after every
 * prepare. */
layout_status layout_suggest_score_linear_pad(const layout_suggest_scorer *sc, layout_suggest_work *w,
                                              const layout_linear *ll, int contiguous_dim, int64_t pad, int pad_shift,
                                              int64_t space, const int64_t *hl, const int64_t *hs, int index_ops,
                                              layout_suggest_cost *out, layout_error *err);

/* Mark the caches of *w empty and point its tables at its inline arrays:
 * before first use and whenever the scorer it serves is prepared again. */
void layout_suggest_work_init(layout_suggest_work *w);

/* Bytes of the tables one worker needs beyond its layout_suggest_work for
 * scorer *sc (each table rounded up to 64 bytes). */
size_t layout_suggest_work_ext_bytes(const layout_suggest_scorer *sc);

/* layout_suggest_work_init(), then point the tables at `ext` (64-byte
 * aligned, layout_suggest_work_ext_bytes(sc) bytes). */
void layout_suggest_work_attach(layout_suggest_work *w, const layout_suggest_scorer *sc, void *ext);

/* The tile index table of side i (scorer.lin or scorer.lin_ext). */
static inline const int32_t *layout_suggest_side_lin(const layout_suggest_scorer *sc, int i)
{
    return sc->lin_ext ? sc->lin_ext + (size_t)i * (size_t)sc->lin_ext_stride : sc->lin[i];
}

/* layout_suggest_prepare() into *out with its tables at lin_ext (NULL: the
 * scorer's inline tables; else n_sides * lin_stride entries): the caps are
 * LAYOUT_SUGGEST_INLINE_ELEMS without lin_ext, LAYOUT_SUGGEST_MAX_TILE /
 * _MAX_SIDE_ELEMS (and lin_stride) with it (score.c). */
layout_status layout_suggest_prepare_ext(layout_suggest_scorer *out, const layout_suggest_spec *spec, int32_t *lin_ext,
                                         int64_t lin_stride, layout_error *err);

/* The checks of the spec alone (score.c): *tile_elems and the most
 * (thread, element) pairs of a side, with the workspace caps. */
layout_status layout_suggest_check_spec(const char *fn, const layout_suggest_spec *spec, int64_t *tile_elems,
                                        int64_t *side_max, layout_error *err);

/* layout_suggest_score() with a caller-provided workspace (the search
 * keeps one per thread). */
layout_status layout_suggest_score_work(const layout_suggest_scorer *sc, const layout_descriptor *desc,
                                        layout_suggest_work *w, layout_suggest_cost *out, layout_error *err);

/* Enumeration of family 5 (F2 swizzles, f2.c): every vec = C/2 .. 1, the
 * matrices described in suggest.h (layout_suggest_build). */
typedef struct layout_suggest_f2_iter {
    int cd, rb, cb, g, done;
    int64_t R, C, vec, n, produced;
} layout_suggest_f2_iter;

/* The F2 member's linear layout (dims dim0, dim1 -> offset); the checks of
 * layout_suggest_build(). */
layout_status layout_suggest_f2_linear(const layout_family_params *params, const int64_t tile[2], layout_linear *out,
                                       layout_error *err);

void layout_suggest_f2_iter_init(layout_suggest_f2_iter *it, const int64_t tile[2], int contiguous_dim);
int layout_suggest_f2_iter_next(layout_suggest_f2_iter *it, layout_family_params *out);

#endif /* LAYOUT_SUGGEST_INTERNAL_H */
