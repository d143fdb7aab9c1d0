/* libFuzzer target for the layout search (suggest.h): the search-spec text
 * decoder layout_suggest_spec_from_text() on every input, and on a sampled
 * subset of the decodable inputs the search itself, cut to a few
 * candidates.
 *
 * Decoder properties: a failure is clean (an error status, *where inside
 * the text, a message naming the decoder, a caret drawn at it, the output
 * untouched); a success points the spec at its own arch and distributions,
 * every decoded number is inside its documented range, and decoding again
 * (without where / err) gives the same spec.
 *
 * Search properties (a sampled subset of the inputs, see SMALL_TILE), none of which trusts the
 * search's own bookkeeping: the first N parameter sets of the enumeration
 * (family.h iterators in the documented order: families in enum order,
 * contiguous dim 1 before 0) are built and scored here from scratch with
 * layout_access_plan_make() + layout_check_side() on views built here, and
 * the search's top K, Pareto front, counts and every returned candidate's
 * cost, per-side results and descriptor must equal what that brute force
 * gives; the results are sorted by suggest.h's ranking; on small tiles at
 * level 2 the same search on 2 threads returns the same result; a failed search leaves
 * a message naming layout_suggest and its output untouched. */
#include "layout.h"
#include "fuzz_input.h"
#include "../lib/suggest/suggest_internal.h"

#include <stdint.h>
#include <string.h>

#define MAX_INPUT 8192
/* Which inputs search, and how much (a function of the input: the level of
 * fuzz_sample_level() and the second-to-last byte; a reproducer replays
 * the same checks).
 * A search costs ~1000x a decode under the sanitizers (every returned
 * candidate is re-checked from scratch by the library and again here), so:
 * - tiles up to SMALL_TILE elements: level 1 with the second-to-last byte
 *   a multiple of 4 (1 input in 64), CANDS_FEW parameter sets; level 2
 *   (1 in 256), CANDS_MANY sets, and again on 2 threads;
 * - tiles up to LARGE_TILE (the seed kernels' 64 x 32): level 2 with that
 *   byte a multiple of 4 (1 in 1024), CANDS_FEW sets. */
#define SMALL_TILE 256
#define LARGE_TILE 2048
#define CANDS_FEW 3
#define CANDS_MANY 8
/* Coordinates of a returned descriptor compared with the family member. */
#define OFFSET_SAMPLES 32

static char g_text[MAX_INPUT + 1];
static layout_suggest_text_spec g_ts, g_ts2, g_sentinel;
static layout_suggest_result g_res, g_res2;
static layout_checker g_checker;
static layout_access_plan g_plan;
static layout_plan g_cplan;
static layout_descriptor g_view, g_desc;

static void check_failure(const char *text, size_t where, const layout_error *e, const char *fn)
{
    char caret[2 * LAYOUT_TEXT_CARET_WIDTH + 16];
    FUZZ_ASSERT(where <= strlen(text));
    FUZZ_ASSERT(strncmp(e->message, fn, strlen(fn)) == 0);
    FUZZ_ASSERT(layout_text_caret(text, where, caret, sizeof caret, NULL) == LAYOUT_OK);
}

static void same_spec(const layout_suggest_spec *a, const layout_suggest_spec *b)
{
    FUZZ_ASSERT(a->elem_bytes == b->elem_bytes && a->n_dims == b->n_dims && a->n_sides == b->n_sides);
    FUZZ_ASSERT(a->budget_bytes == b->budget_bytes && a->families == b->families && a->top_k == b->top_k);
    FUZZ_ASSERT(a->threads == b->threads && a->max_candidates == b->max_candidates);
    for (int i = 0; i < a->n_dims; i++) FUZZ_ASSERT(a->tile[i] == b->tile[i]);
    for (int i = 0; i < a->n_sides; i++) {
        const layout_suggest_side *x = &a->sides[i], *y = &b->sides[i];
        FUZZ_ASSERT(x->direction == y->direction && x->has_view == y->has_view);
        FUZZ_ASSERT(x->opt.policy == y->opt.policy && x->opt.op == y->opt.op && x->opt.base_bytes == y->opt.base_bytes);
        if (x->has_view)
            for (int k = 0; k < LAYOUT_MAX_DIMS; k++) FUZZ_ASSERT(x->view[k] == y->view[k]);
    }
}

/* ---- the brute force: one candidate scored from scratch ---------------- */

typedef struct scored {
    layout_family_params params;
    int64_t index;
    int damage, index_ops;
    int64_t extra, instrs, bytes;
    int64_t side_extra[LAYOUT_SUGGEST_MAX_SIDES];
    int64_t side_instrs[LAYOUT_SUGGEST_MAX_SIDES];
} scored;

/* Side i's view of d: its dim k is tile dim view[k] (pass_through each). */
static int side_view(const layout_suggest_side *s, int n_dims, const layout_descriptor *d, layout_descriptor *out)
{
    if (!s->has_view) {
        *out = *d;
        return 0;
    }
    layout_transform t[LAYOUT_MAX_DIMS];
    layout_seq lo[LAYOUT_MAX_DIMS], up[LAYOUT_MAX_DIMS];
    for (int k = 0; k < n_dims; k++) {
        if (layout_make_pass_through(layout_desc_length(d, s->view[k]), &t[k], NULL)) return -1;
        lo[k] = LAYOUT_SEQ(s->view[k]);
        up[k] = LAYOUT_SEQ(k);
    }
    return layout_transform_descriptor(out, d, n_dims, t, lo, up, NULL) ? -1 : 0;
}

/* 0 and *out filled when every side plans and checks; -1 otherwise. */
static int score_here(const layout_suggest_spec *sp, const layout_descriptor *d, scored *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < sp->n_sides; i++) {
        const layout_suggest_side *s = &sp->sides[i];
        layout_side_result r;
        if (side_view(s, sp->n_dims, d, &g_view)) return -1;
        if (layout_access_plan_make(&g_plan, &g_view, s->dist, s->direction, sp->elem_bytes, &s->opt, NULL)) return -1;
        if (layout_check_side(&g_checker, &g_plan, 1, &r, NULL)) return -1;
        out->side_extra[i] = r.extra_cycles_per_tile;
        out->side_instrs[i] = r.instrs_per_tile;
        out->extra += r.extra_cycles_per_tile;
        out->instrs += r.instrs_per_tile;
        out->damage += g_plan.n_misaligned + g_plan.n_noncontiguous + g_plan.n_vectors_split;
    }
    if (layout_plan_build(&g_cplan, d, LAYOUT_PLAN_AUTO, NULL)) return -1;
    out->index_ops = g_cplan.n_ops;
    out->bytes = layout_desc_element_space_size(d) * sp->elem_bytes;
    return 0;
}

/* suggest.h's ranking, written here: (damage, extra, instrs, bytes, index ops, index). */
static int rank_cmp(const scored *a, const scored *b)
{
#define RANK(f) \
    if (a->f != b->f) return a->f < b->f ? -1 : 1
    RANK(damage);
    RANK(extra);
    RANK(instrs);
    RANK(bytes);
    RANK(index_ops);
    RANK(index);
#undef RANK
    return 0;
}

static int dominated(const scored *d, const scored *e)
{
    if (d->damage > e->damage || d->extra > e->extra || d->bytes > e->bytes) return 0;
    return d->damage < e->damage || d->extra < e->extra || d->bytes < e->bytes;
}

typedef struct expected {
    int n;                          /* scored candidates */
    int64_t tried;                  /* enumerated */
    int64_t fam_tried[LAYOUT_FAMILY_COUNT];
    int cut;                        /* the enumeration stopped at the limit with more to come */
    int init_failed;                /* an iterator refused the tile */
    scored c[CANDS_MANY];
} expected;

static expected g_exp;

static int iter_next(int is_f2, layout_family_iter *it, layout_suggest_f2_iter *f2, layout_family_params *p)
{
    return is_f2 ? layout_suggest_f2_iter_next(f2, p) : layout_family_iter_next(it, p);
}

/* The first `limit` parameter sets of the enumeration, scored here. */
static void brute_force(const layout_suggest_spec *sp, int64_t limit, expected *ex)
{
    memset(ex, 0, sizeof *ex);
    for (int kind = 0; kind < LAYOUT_FAMILY_COUNT && !ex->cut; kind++) {
        if (!(sp->families & (1u << kind))) continue;
        for (int cd = 1; cd >= 0 && !ex->cut; cd--) {
            layout_family_iter it;
            layout_suggest_f2_iter f2;
            layout_family_params p;
            int is_f2 = kind == LAYOUT_FAMILY_F2;
            if (is_f2) {
                layout_suggest_f2_iter_init(&f2, sp->tile, cd);
            } else if (layout_family_iter_init(&it, (layout_family_kind)kind, sp->tile, cd, sp->elem_bytes,
                                               sp->budget_bytes, NULL)) {
                ex->init_failed = 1;
                continue;
            }
            for (;;) {
                if (ex->tried == limit) {
                    if (iter_next(is_f2, &it, &f2, &p)) ex->cut = 1;
                    break;
                }
                if (!iter_next(is_f2, &it, &f2, &p)) break;
                int64_t index = ex->tried++;
                ex->fam_tried[kind]++;
                scored s;
                if (layout_suggest_build(&p, sp->tile, &g_desc, NULL) || score_here(sp, &g_desc, &s)) continue;
                s.params = p;
                s.index = index;
                ex->c[ex->n++] = s;
            }
        }
    }
    /* families after a cut are searched but not reached */
}

static void same_params(const layout_family_params *a, const layout_family_params *b)
{
    char x[256], y[256];
    layout_suggest_params_print(a, x, sizeof x);
    layout_suggest_params_print(b, y, sizeof y);
    FUZZ_ASSERT(strcmp(x, y) == 0);
    FUZZ_ASSERT(a->kind == b->kind && a->contiguous_dim == b->contiguous_dim);
}

/* One returned candidate against the brute force's entry. */
static void check_candidate(const layout_suggest_spec *sp, const layout_suggest_candidate *c, const scored *e)
{
    FUZZ_ASSERT(c->index == e->index);
    same_params(&c->params, &e->params);
    const layout_suggest_cost *k = &c->cost;
    FUZZ_ASSERT(k->extra_cycles == e->extra && k->instrs == e->instrs && k->lds_bytes == e->bytes);
    FUZZ_ASSERT(k->index_ops == e->index_ops && k->vector_damage == e->damage && k->n_sides == sp->n_sides);
    for (int i = 0; i < sp->n_sides; i++) {
        FUZZ_ASSERT(k->side_extra[i] == e->side_extra[i]);
        FUZZ_ASSERT(c->sides[i].extra_cycles_per_tile == e->side_extra[i]);
        FUZZ_ASSERT(c->sides[i].instrs_per_tile == e->side_instrs[i]);
    }
    /* its descriptor is the family member: the same offsets on a sample
     * of the tile (at most OFFSET_SAMPLES coordinates, the last one included) */
    FUZZ_ASSERT(layout_suggest_build(&e->params, sp->tile, &g_desc, NULL) == LAYOUT_OK);
    int64_t n = sp->tile[0] * sp->tile[1], step = n / OFFSET_SAMPLES + 1;
    for (int64_t q = n - 1; q >= 0; q -= step) {
        int64_t x[2] = {q / sp->tile[1], q % sp->tile[1]};
        FUZZ_ASSERT(layout_desc_offset_unchecked(&c->desc, x) == layout_desc_offset_unchecked(&g_desc, x));
    }
    char line[512];
    FUZZ_ASSERT(layout_suggest_candidate_print(c, sp->n_sides, line, sizeof line) > 0);
}

static void check_against(const layout_suggest_spec *sp, const layout_suggest_result *r, expected *ex)
{
    FUZZ_ASSERT(r->tried == ex->tried && r->scored == ex->n);
    /* the top K: the brute force sorted by the ranking (insertion sort) */
    for (int i = 1; i < ex->n; i++)
        for (int j = i; j > 0 && rank_cmp(&ex->c[j], &ex->c[j - 1]) < 0; j--) {
            scored t = ex->c[j];
            ex->c[j] = ex->c[j - 1];
            ex->c[j - 1] = t;
        }
    int k = ex->n < sp->top_k ? ex->n : sp->top_k;
    FUZZ_ASSERT(r->n_top == k);
    for (int i = 0; i < k; i++) {
        check_candidate(sp, &r->top[i], &ex->c[i]);
        if (i) FUZZ_ASSERT(layout_suggest_score_cmp(&r->top[i - 1].cost, &r->top[i].cost) <= 0);
        if (i && layout_suggest_score_cmp(&r->top[i - 1].cost, &r->top[i].cost) == 0)
            FUZZ_ASSERT(r->top[i - 1].index < r->top[i].index);
    }
    /* the front of (damage, extra, bytes): each point's best-ranked
     * candidate (ex->c is in rank order, so the first one met), fewest bytes
     * first, then by rank */
    scored front[CANDS_MANY];
    int nf = 0;
    for (int i = 0; i < ex->n; i++) {
        int keep = 1;
        for (int j = 0; j < ex->n && keep; j++)
            if (dominated(&ex->c[j], &ex->c[i])) keep = 0;
        for (int j = 0; j < nf && keep; j++)
            if (front[j].damage == ex->c[i].damage && front[j].extra == ex->c[i].extra &&
                front[j].bytes == ex->c[i].bytes)
                keep = 0;
        if (keep) front[nf++] = ex->c[i];
    }
    for (int i = 1; i < nf; i++)
        for (int j = i; j > 0 && (front[j].bytes < front[j - 1].bytes ||
                                  (front[j].bytes == front[j - 1].bytes && rank_cmp(&front[j], &front[j - 1]) < 0));
             j--) {
            scored t = front[j];
            front[j] = front[j - 1];
            front[j - 1] = t;
        }
    FUZZ_ASSERT(r->n_pareto == nf && r->pareto_total == nf);
    for (int i = 0; i < nf; i++) check_candidate(sp, &r->pareto[i], &front[i]);
    /* per-family counts */
    int all_ex = !ex->cut && !ex->init_failed;
    for (int f = 0; f < LAYOUT_FAMILY_COUNT; f++) {
        const layout_suggest_family_stats *s = &r->families[f];
        int asked = (sp->families >> f) & 1;
        FUZZ_ASSERT(s->searched == asked);
        FUZZ_ASSERT(s->tried == ex->fam_tried[f]);
        if (!asked) FUZZ_ASSERT(s->tried == 0);
    }
    FUZZ_ASSERT(r->all_exhausted == all_ex);
}

static void same_result(const layout_suggest_result *a, const layout_suggest_result *b, int n_sides)
{
    FUZZ_ASSERT(a->n_top == b->n_top && a->n_pareto == b->n_pareto && a->pareto_total == b->pareto_total);
    FUZZ_ASSERT(a->tried == b->tried && a->scored == b->scored && a->all_exhausted == b->all_exhausted);
    for (int i = 0; i < a->n_top + a->n_pareto; i++) {
        const layout_suggest_candidate *x = i < a->n_top ? &a->top[i] : &a->pareto[i - a->n_top];
        const layout_suggest_candidate *y = i < a->n_top ? &b->top[i] : &b->pareto[i - a->n_top];
        FUZZ_ASSERT(x->index == y->index && layout_suggest_score_cmp(&x->cost, &y->cost) == 0);
        for (int s = 0; s < n_sides; s++) FUZZ_ASSERT(x->cost.side_extra[s] == y->cost.side_extra[s]);
        same_params(&x->params, &y->params);
    }
    for (int f = 0; f < LAYOUT_FAMILY_COUNT; f++) {
        const layout_suggest_family_stats *x = &a->families[f], *y = &b->families[f];
        FUZZ_ASSERT(x->searched == y->searched && x->tried == y->tried && x->failed == y->failed);
        FUZZ_ASSERT(x->exhausted == y->exhausted && x->best_extra == y->best_extra && x->best_damage == y->best_damage);
    }
}

static void run_search(const layout_suggest_text_spec *ts, int64_t limit, int two_threads)
{
    layout_suggest_spec sp = ts->spec;
    if (sp.max_candidates > 0 && sp.max_candidates < limit) limit = sp.max_candidates;
    sp.max_candidates = limit;
    sp.threads = 1;
    layout_error e;
    g_res.n_top = -7;
    g_res.tried = -7;
    layout_status st = layout_suggest(&sp, &g_res, &e);
    if (st != LAYOUT_OK) {
        FUZZ_ASSERT(st < LAYOUT_OK && strlen(e.message) > 0);
        FUZZ_ASSERT(strncmp(e.message, "layout_suggest", 14) == 0);
        FUZZ_ASSERT(g_res.n_top == -7 && g_res.tried == -7);
        /* prepare's errors are prepare's; only "nothing scored" is ours */
        if (st != LAYOUT_ERR_NOT_FOUND) return;
    }
    /* prepare accepted the spec, so the arch is valid */
    FUZZ_ASSERT(layout_checker_init(&g_checker, sp.arch, LAYOUT_IMPL_AUTO, NULL) == LAYOUT_OK);
    brute_force(&sp, limit, &g_exp);
    if (st == LAYOUT_ERR_NOT_FOUND) {
        FUZZ_ASSERT(g_exp.n == 0);
        return;
    }
    check_against(&sp, &g_res, &g_exp);
    if (two_threads) {
        sp.threads = 2;
        FUZZ_ASSERT(layout_suggest(&sp, &g_res2, &e) == LAYOUT_OK);
        same_result(&g_res, &g_res2, sp.n_sides);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_INPUT) return 0;
    memcpy(g_text, data, size);
    g_text[size] = '\0';
    int level = fuzz_sample_level(data, size);

    layout_error e;
    size_t where = (size_t)-1;
    memset(&g_ts, 0xA5, sizeof g_ts);
    layout_status st = layout_suggest_spec_from_text(g_text, &g_ts, &where, &e);
    layout_status st2 = layout_suggest_spec_from_text(g_text, &g_ts2, NULL, NULL);
    FUZZ_ASSERT(st == st2);
    if (st != LAYOUT_OK) {
        FUZZ_ASSERT(st < LAYOUT_OK);
        check_failure(g_text, where, &e, "layout_suggest_spec_from_text: ");
        static int sentinel_ready;
        if (!sentinel_ready) {
            memset(&g_sentinel, 0xA5, sizeof g_sentinel);
            sentinel_ready = 1;
        }
        FUZZ_ASSERT(memcmp(&g_ts, &g_sentinel, sizeof g_ts) == 0);
        return 0;
    }
    const layout_suggest_spec *sp = &g_ts.spec;
    FUZZ_ASSERT(sp->arch == &g_ts.arch && g_ts2.spec.arch == &g_ts2.arch);
    FUZZ_ASSERT(sp->n_sides >= 1 && sp->n_sides <= LAYOUT_SUGGEST_MAX_SIDES);
    FUZZ_ASSERT(sp->n_dims >= 1 && sp->n_dims <= LAYOUT_MAX_DIMS);
    FUZZ_ASSERT(sp->elem_bytes >= 1 && sp->elem_bytes <= 16);
    FUZZ_ASSERT(sp->top_k >= 1 && sp->top_k <= LAYOUT_SUGGEST_MAX_TOP);
    FUZZ_ASSERT(sp->threads >= 1 && sp->threads <= LAYOUT_SUGGEST_MAX_THREADS);
    FUZZ_ASSERT(sp->budget_bytes >= 0 && sp->max_candidates >= 0);
    FUZZ_ASSERT(sp->families < (1u << LAYOUT_FAMILY_COUNT));
    int64_t elems = 1;
    for (int i = 0; i < sp->n_dims; i++) {
        FUZZ_ASSERT(sp->tile[i] >= 1 && sp->tile[i] <= LAYOUT_SUGGEST_MAX_TILE);
        if (elems <= LAYOUT_SUGGEST_MAX_TILE) elems *= sp->tile[i];
    }
    for (int i = 0; i < sp->n_sides; i++) {
        FUZZ_ASSERT(sp->sides[i].dist == &g_ts.dists[i] && g_ts2.spec.sides[i].dist == &g_ts2.dists[i]);
        FUZZ_ASSERT(sp->sides[i].direction == LAYOUT_WRITE || sp->sides[i].direction == LAYOUT_READ);
        FUZZ_ASSERT(sp->sides[i].opt.base_bytes >= 0 && sp->sides[i].opt.base_bytes <= UINT32_MAX);
    }
    same_spec(sp, &g_ts2.spec);

    int sub = size >= 2 && data[size - 2] % 4 == 0;
    if (elems <= SMALL_TILE) {
        if (level == 2) run_search(&g_ts, CANDS_MANY, 1);
        if (level == 1 && sub) run_search(&g_ts, CANDS_FEW, 0);
    } else if (elems <= LARGE_TILE && level == 2 && sub) {
        run_search(&g_ts, CANDS_FEW, 0);
    }
    return 0;
}
