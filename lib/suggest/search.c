/* The search: enumerate every parameter set of the requested families,
 * score each with the fast path, keep the top K and the Pareto front,
 * re-check those from scratch.  Threads share the enumeration round-robin;
 * all merging is by a total order, so the result does not depend on them. */
#define _POSIX_C_SOURCE 200809L
#include "suggest_internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Most front points one search tracks (beyond: result.pareto_total < 0). */
#define FRONT_CAP 512

typedef struct entry {
    layout_family_params params;
    int64_t index;
    int damage;
    int index_ops;
    int64_t extra, instrs, bytes;
} entry;

typedef struct acc {
    int n_top;
    entry top[LAYOUT_SUGGEST_MAX_TOP];
    int n_front;
    int front_overflow;
    entry front[FRONT_CAP];
    layout_suggest_family_stats fam[LAYOUT_FAMILY_COUNT];
    int64_t tried, scored;
} acc;

/* Total order: the ranking key, then enumeration order. */
static int entry_cmp(const entry *a, const entry *b)
{
#define CMP_FIELD(f) \
    if (a->f != b->f) return a->f < b->f ? -1 : 1
    CMP_FIELD(damage);
    CMP_FIELD(extra);
    CMP_FIELD(instrs);
    CMP_FIELD(bytes);
    CMP_FIELD(index_ops);
    CMP_FIELD(index);
#undef CMP_FIELD
    return 0;
}

static void top_insert(acc *a, int k, const entry *e)
{
    if (a->n_top == k && entry_cmp(e, &a->top[k - 1]) >= 0) return;
    int i = a->n_top < k ? a->n_top++ : k - 1;
    while (i > 0 && entry_cmp(e, &a->top[i - 1]) < 0) {
        a->top[i] = a->top[i - 1];
        i--;
    }
    a->top[i] = *e;
}

/* d dominates e on (damage, extra, bytes): no worse in all, better in one. */
static int dominates(const entry *d, const entry *e)
{
    if (d->damage > e->damage || d->extra > e->extra || d->bytes > e->bytes) return 0;
    return d->damage < e->damage || d->extra < e->extra || d->bytes < e->bytes;
}

static void front_insert(acc *a, const entry *e)
{
    for (int i = 0; i < a->n_front; i++) {
        entry *f = &a->front[i];
        if (dominates(f, e)) return;
        if (f->damage == e->damage && f->extra == e->extra && f->bytes == e->bytes) {
            if (entry_cmp(e, f) < 0) *f = *e; /* the same point: keep the best-ranked */
            return;
        }
    }
    int n = 0;
    for (int i = 0; i < a->n_front; i++)
        if (!dominates(e, &a->front[i])) a->front[n++] = a->front[i];
    a->n_front = n;
    if (n == FRONT_CAP) {
        a->front_overflow = 1;
        return;
    }
    a->front[a->n_front++] = *e;
}

/* Could e (with its best possible index_ops) change the top list or the front? */
static int might_enter(const acc *a, int k, const entry *e)
{
    if (a->n_top < k || entry_cmp(e, &a->top[k - 1]) < 0) return 1;
    for (int i = 0; i < a->n_front; i++) {
        const entry *f = &a->front[i];
        if (dominates(f, e)) return 0;
        if (f->damage == e->damage && f->extra == e->extra && f->bytes == e->bytes) return entry_cmp(e, f) < 0;
    }
    return 1;
}

/* Whether a candidate whose every field is at least lb's (same LDS bytes
 * and enumeration index) can change nothing the search keeps: the top K
 * (it ranks at or after the K-th), the front (a point there dominates it
 * or is the same point ranked before it), its family's best (damage,
 * extra).  Exact: such a candidate, scored in full, would be dropped by
 * top_insert() and front_insert() and leave the family's best alone. */
static int cannot_place(const acc *a, int k, const layout_suggest_family_stats *fs, const entry *lb)
{
    if (a->n_top < k || entry_cmp(lb, &a->top[k - 1]) < 0) return 0;
    if (fs->best_extra < 0 || lb->damage < fs->best_damage ||
        (lb->damage == fs->best_damage && lb->extra < fs->best_extra))
        return 0;
    for (int i = 0; i < a->n_front; i++) {
        const entry *f = &a->front[i];
        if (f->damage > lb->damage || f->extra > lb->extra || f->bytes > lb->bytes) continue;
        if (f->damage < lb->damage || f->extra < lb->extra || f->bytes < lb->bytes) return 1;
        if (entry_cmp(lb, f) >= 0) return 1;
    }
    return 0;
}

/* The search's bound as the scorers see it (layout_suggest_work.cut_fn). */
typedef struct cut_ctx {
    const acc *a;
    int k;
    const layout_suggest_family_stats *fs;
    int64_t index;
} cut_ctx;

static int cut_partial(const void *ctx, const layout_suggest_cost *partial)
{
    const cut_ctx *c = ctx;
    entry lb;
    memset(&lb, 0, sizeof lb);
    lb.index = c->index;
    lb.damage = partial->vector_damage;
    lb.extra = partial->extra_cycles; /* those counted so far (0 before the checker) */
    lb.instrs = partial->instrs;
    lb.bytes = partial->lds_bytes;
    lb.index_ops = 0;
    return cannot_place(c->a, c->k, c->fs, &lb);
}

typedef struct shared {
    const layout_suggest_scorer *sc;
    int n_threads;
    pthread_mutex_t lock;
    acc total;
    layout_status status;
    layout_error err;
    int64_t err_index;
} shared;

typedef struct worker_arg {
    shared *sh;
    int tid;
    layout_suggest_work *work; /* in the caller's workspace, or NULL: on the worker's stack */
} worker_arg;

static void merge(acc *into, const acc *from, int k)
{
    for (int i = 0; i < from->n_top; i++) top_insert(into, k, &from->top[i]);
    for (int i = 0; i < from->n_front; i++) front_insert(into, &from->front[i]);
    into->front_overflow |= from->front_overflow;
    for (int f = 0; f < LAYOUT_FAMILY_COUNT; f++) {
        layout_suggest_family_stats *t = &into->fam[f];
        const layout_suggest_family_stats *s = &from->fam[f];
        t->searched |= s->searched;
        t->exhausted = s->exhausted; /* every thread walks the same enumeration */
        t->tried += s->tried;
        t->failed += s->failed;
        if (s->best_extra >= 0 && (t->best_extra < 0 || s->best_damage < t->best_damage ||
                                   (s->best_damage == t->best_damage && s->best_extra < t->best_extra))) {
            t->best_extra = s->best_extra;
            t->best_damage = s->best_damage;
        }
    }
    into->tried += from->tried;
    into->scored += from->scored;
}

static void acc_init(acc *a)
{
    a->n_top = a->n_front = a->front_overflow = 0;
    a->tried = a->scored = 0;
    memset(a->fam, 0, sizeof a->fam);
    for (int f = 0; f < LAYOUT_FAMILY_COUNT; f++) a->fam[f].best_extra = a->fam[f].best_damage = -1;
}

/* One worker's state through its share of the enumeration, passed to its
 * steps by pointer (the accumulator alone holds FRONT_CAP entries). */
typedef struct worker {
    const worker_arg *wa;
    const layout_suggest_scorer *sc;
    const layout_suggest_spec *spec;
    layout_suggest_work *wk;
    acc local;              /* this thread's top K, front and family stats */
    cut_ctx cut;            /* the bound as the scorers see it */
    layout_descriptor desc; /* a candidate rebuilt for its index arithmetic */
    int64_t g, limit;       /* parameter sets enumerated so far; spec->max_candidates */
    int64_t min_instrs, max_base;
    int stopped;            /* the limit was reached */
} worker;

/* The bound before any scoring: no candidate has fewer instructions than
 * ceil(elements * elem_bytes / 16) per thread and side (16 bytes is the
 * widest DS access, ds_read_b128 or a read2_b64 pair), no damage or extra
 * cycles below 0; its LDS bytes are known from the parameters.  Whether
 * that bound rules candidate my out: only where scoring cannot fail
 * (every address of its element space below 2^32 - 16; the iterator
 * checked the rest). */
static int worker_ruled_out(const worker *w, const layout_suggest_family_stats *fs, int is_f2,
                            const layout_family_params *prm, int64_t my)
{
    const layout_suggest_spec *spec = w->spec;
    int64_t bytes;
    entry lb;
    memset(&lb, 0, sizeof lb);
    lb.index = my;
    lb.instrs = w->min_instrs;
    if (is_f2)
        bytes = w->sc->tile_elems * spec->elem_bytes;
    else if (layout_family_lds_bytes(prm, spec->tile, spec->elem_bytes, &bytes, NULL))
        bytes = -1;
    lb.bytes = bytes;
    return bytes >= 0 && bytes <= (int64_t)UINT32_MAX - 16 - w->max_base &&
           cannot_place(&w->local, spec->top_k, fs, &lb);
}

/* The candidate's cost into *c: an F2 set from its linear form (one XOR
 * per offset, no hints: layout_linear_to_desc() gives none; the plan's ops
 * only when they could decide a place, worker_place), the others through
 * their descriptor. */
static layout_status worker_score(worker *w, int is_f2, const layout_family_params *prm, layout_suggest_cost *c)
{
    static const int64_t none[LAYOUT_MAX_DIMS] = {-1, -1, -1, -1, -1, -1, -1, -1};
    const layout_suggest_scorer *sc = w->sc;
    layout_suggest_work *wk = w->wk;
    layout_linear ll;
    layout_status st;
    if (!is_f2) return layout_suggest_score_params(sc, prm, wk, c, NULL);
    st = layout_suggest_f2_linear(prm, w->spec->tile, &ll, NULL);
    /* from the linear form alone where it applies (score_linear.c) */
    if (!st && (!layout_suggest_linear_usable(sc, &ll) ||
                layout_suggest_score_linear(sc, wk, &ll, none, none, INT_MAX, c, NULL))) {
        st = layout_linear_tile_offsets(&ll, wk->tile_off, wk->tile_cap, NULL);
        if (!st)
            st = layout_suggest_score_offsets(sc, wk, none, none, (int64_t)1 << (ll.total_in_bits), INT_MAX, c, NULL);
    }
    return st;
}

/* A scored candidate into the top K, the front and its family's best;
 * its index arithmetic (the plan's ops) counted only when it could
 * decide a place. */
static void worker_place(worker *w, layout_suggest_family_stats *fs, const layout_family_params *prm, int64_t my,
                         const layout_suggest_cost *c)
{
    const layout_suggest_spec *spec = w->spec;
    entry e;
    e.params = *prm;
    e.index = my;
    e.damage = c->vector_damage;
    e.index_ops = c->index_ops;
    e.extra = c->extra_cycles;
    e.instrs = c->instrs;
    e.bytes = c->lds_bytes;
    if (e.index_ops == INT_MAX) {
        e.index_ops = 0; /* the best it could have */
        if (!might_enter(&w->local, spec->top_k, &e)) {
            e.index_ops = INT_MAX;
        } else {
            layout_plan *pl = &w->wk->dplan;
            if (layout_suggest_build(prm, spec->tile, &w->desc, NULL) ||
                layout_plan_build(pl, &w->desc, LAYOUT_PLAN_AUTO, NULL)) {
                fs->failed++;
                w->local.scored--;
                return;
            }
            e.index_ops = pl->n_ops;
        }
    }
    top_insert(&w->local, spec->top_k, &e);
    front_insert(&w->local, &e);
    if (fs->best_extra < 0 || e.damage < fs->best_damage ||
        (e.damage == fs->best_damage && e.extra < fs->best_extra)) {
        fs->best_extra = e.extra;
        fs->best_damage = e.damage;
    }
}

/* Candidate my (parameters prm) of family fs: counted scored without
 * scoring where the bound rules it out, else scored and placed. */
static void worker_candidate(worker *w, layout_suggest_family_stats *fs, int is_f2, const layout_family_params *prm,
                             int64_t my)
{
    layout_suggest_cost c;
    fs->tried++;
    w->local.tried++;
    if (worker_ruled_out(w, fs, is_f2, prm, my)) {
        w->local.scored++;
        return;
    }
    w->cut.fs = fs;
    w->cut.index = my;
    w->wk->cut_hit = 0;
    if (worker_score(w, is_f2, prm, &c)) {
        fs->failed++;
        return;
    }
    w->local.scored++;
    if (w->wk->cut_hit) return; /* its plans already rule it out */
    worker_place(w, fs, prm, my, &c);
}

/* Family kind's parameter sets of contiguous dim cdim in enumeration
 * order: candidate i goes to thread i % n_threads; at the limit the walk
 * stops (w->stopped), the family exhausted only if nothing was left. */
static void worker_walk(worker *w, int kind, int cdim, layout_suggest_family_stats *fs)
{
    const layout_suggest_spec *spec = w->spec;
    const int is_f2 = kind == LAYOUT_FAMILY_F2;
    layout_family_iter it;
    layout_suggest_f2_iter f2;
    layout_family_params prm;
    if (is_f2) {
        layout_suggest_f2_iter_init(&f2, spec->tile, cdim);
    } else if (layout_family_iter_init(&it, (layout_family_kind)kind, spec->tile, cdim, spec->elem_bytes,
                                       spec->budget_bytes, NULL)) {
        fs->exhausted = 0;
        return;
    }
    while (!w->stopped) {
        if (w->limit > 0 && w->g >= w->limit) {
            /* the next set exists only if the iterator still produces one */
            if (is_f2 ? layout_suggest_f2_iter_next(&f2, &prm) : layout_family_iter_next(&it, &prm))
                fs->exhausted = 0;
            w->stopped = 1;
            break;
        }
        if (!(is_f2 ? layout_suggest_f2_iter_next(&f2, &prm) : layout_family_iter_next(&it, &prm))) break;
        int64_t my = w->g++;
        if (my % w->wa->sh->n_threads != w->wa->tid) continue;
        worker_candidate(w, fs, is_f2, &prm, my);
    }
    if (w->stopped && cdim == 1) fs->exhausted = 0;
}

/* The worker's share of every requested family, both storage orders,
 * merged into the shared total at the end. */
static void worker_body(worker_arg *wa, layout_suggest_work *wk)
{
    shared *sh = wa->sh;
    worker w;
    w.wa = wa;
    w.sc = sh->sc;
    w.spec = &w.sc->spec;
    w.wk = wk;
    acc_init(&w.local);
    w.g = 0;
    w.limit = w.spec->max_candidates;
    w.stopped = 0;
    w.min_instrs = w.max_base = 0;
    for (int i = 0; i < w.spec->n_sides; i++) { /* worker_ruled_out's bound */
        const layout_distribution *d = w.spec->sides[i].dist;
        w.min_instrs += (int64_t)d->n_warps * ((d->elems_per_thread * w.spec->elem_bytes + 15) / 16);
        w.max_base = w.spec->sides[i].opt.base_bytes > w.max_base ? w.spec->sides[i].opt.base_bytes : w.max_base;
    }
    w.cut.a = &w.local;
    w.cut.k = w.spec->top_k;
    wk->cut_fn = cut_partial;
    wk->cut_ctx = &w.cut;
    for (int kind = 0; kind < LAYOUT_FAMILY_COUNT; kind++) {
        if (!(w.spec->families & (1u << kind))) continue;
        layout_suggest_family_stats *fs = &w.local.fam[kind];
        fs->searched = 1;
        fs->exhausted = 1;
        for (int cdim = 1; cdim >= 0; cdim--) worker_walk(&w, kind, cdim, fs);
        if (w.stopped) {
            /* families after the cut were never reached */
            for (int k2 = kind + 1; k2 < LAYOUT_FAMILY_COUNT; k2++)
                if (w.spec->families & (1u << k2)) {
                    w.local.fam[k2].searched = 1;
                    w.local.fam[k2].exhausted = 0;
                }
            break;
        }
    }
    pthread_mutex_lock(&sh->lock);
    merge(&sh->total, &w.local, w.spec->top_k);
    pthread_mutex_unlock(&sh->lock);
}

/* The two thread entries: the worker's tables in the caller's workspace
 * (a small stack), or in a layout_suggest_work on its own stack. */
static void *worker_ext(void *p)
{
    worker_arg *wa = p;
    worker_body(wa, wa->work);
    return NULL;
}

static void *worker_stack(void *p)
{
    layout_suggest_work work;
    layout_suggest_work_init(&work);
    worker_body(p, &work);
    return NULL;
}

/* Rebuild e's descriptor, score it from scratch, and require the fast score. */
static layout_status finish(const layout_suggest_scorer *sc, const entry *e, layout_suggest_candidate *out,
                            layout_error *err)
{
    static const char fn[] = "layout_suggest";
    layout_status s = layout_suggest_build(&e->params, sc->spec.tile, &out->desc, err);
    if (s) return s;
    out->params = e->params;
    out->index = e->index;
    memset(out->sides, 0, sizeof out->sides);
    if ((s = layout_suggest_score_reference(sc, &out->desc, &out->cost, out->sides, err))) return s;
    if (out->cost.vector_damage != e->damage || out->cost.extra_cycles != e->extra || out->cost.instrs != e->instrs ||
        out->cost.lds_bytes != e->bytes || out->cost.index_ops != e->index_ops)
        return layout_fail(err, LAYOUT_ERR_MISMATCH,
                           "%s: internal error: candidate %lld scored %lld extra cycles fast, %lld from scratch", fn,
                           (long long)e->index, (long long)e->extra, (long long)out->cost.extra_cycles);
    return LAYOUT_OK;
}

static int bytes_first(const entry *a, const entry *b)
{
    if (a->bytes != b->bytes) return a->bytes < b->bytes ? -1 : 1;
    return entry_cmp(a, b);
}

static layout_status run_ext(const layout_suggest_scorer *sc, void *ext, size_t ext_stride, layout_suggest_result *out,
                             layout_error *err);

layout_status layout_suggest_run(const layout_suggest_scorer *sc, layout_suggest_result *out, layout_error *err)
{
    return run_ext(sc, NULL, 0, out, err);
}

/* run_ext's arguments and the spec, checked before any thread starts. */
static layout_status run_check(const layout_suggest_scorer *sc, const void *ext, const layout_suggest_result *out,
                               layout_error *err)
{
    static const char fn[] = "layout_suggest";
    if (!sc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: sc is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (!ext && (sc->lin_ext || sc->tile_elems > LAYOUT_SUGGEST_INLINE_ELEMS))
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: a scorer of %lld tile elements needs a workspace (layout_suggest_ws())",
                           fn, (long long)sc->tile_elems);
    const layout_suggest_spec *spec = &sc->spec;
    if (spec->n_dims != 2)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->n_dims = %d: the families lay out 2-D tiles", fn,
                           spec->n_dims);
    if (spec->families >> LAYOUT_FAMILY_COUNT)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->families = 0x%x names no family beyond bit %d", fn,
                           spec->families, LAYOUT_FAMILY_COUNT - 1);
    if (spec->max_candidates < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->max_candidates = %lld must be >= 0", fn,
                           (long long)spec->max_candidates);
    return LAYOUT_OK;
}

/* The workers: sh->n_threads - 1 threads started, worker 0 on this one,
 * every one joined; their results merged into sh->total. */
static layout_status run_workers(shared *sh, void *ext, size_t ext_stride, layout_error *err)
{
    static const char fn[] = "layout_suggest";
    worker_arg args[LAYOUT_SUGGEST_MAX_THREADS];
    pthread_t tids[LAYOUT_SUGGEST_MAX_THREADS];
    int started = 1;
    for (int t = 0; t < sh->n_threads; t++) {
        args[t].sh = sh;
        args[t].tid = t;
        args[t].work = NULL;
        if (ext) {
            unsigned char *slice = (unsigned char *)ext + (size_t)t * ext_stride;
            size_t head = (sizeof(layout_suggest_work) + 63u) & ~(size_t)63u;
            args[t].work = (layout_suggest_work *)(void *)slice;
            layout_suggest_work_attach(args[t].work, sh->sc, slice + head);
        }
    }
    void *(*thread_fn)(void *) = ext ? worker_ext : worker_stack;
    for (int t = 1; t < sh->n_threads; t++) {
        if (pthread_create(&tids[t], NULL, thread_fn, &args[t])) break;
        started++;
    }
    if (started < sh->n_threads) {
        for (int t = 1; t < started; t++) pthread_join(tids[t], NULL);
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: could start only %d of %d threads", fn, started,
                           sh->n_threads);
    }
    thread_fn(&args[0]);
    for (int t = 1; t < sh->n_threads; t++) pthread_join(tids[t], NULL);
    return LAYOUT_OK;
}

/* The error of a search that scored nothing: the families and the budget. */
static layout_status run_nothing_scored(const layout_suggest_spec *spec, const acc *a, layout_error *err)
{
    static const char fn[] = "layout_suggest";
    char names[160];
    int len = 0;
    names[0] = '\0';
    for (int f = 0; f < LAYOUT_FAMILY_COUNT; f++)
        if ((spec->families & (1u << f)) && len < (int)sizeof names - 24)
            len += snprintf(names + len, sizeof names - (size_t)len, "%s%s", len ? ", " : "",
                            layout_family_name((layout_family_kind)f));
    return layout_fail(err, LAYOUT_ERR_NOT_FOUND,
                       "%s: no layout of the families %s fits budget_bytes = %lld (%lld parameter sets tried, "
                       "%lld could not be scored)",
                       fn, names, (long long)spec->budget_bytes, (long long)a->tried, (long long)(a->tried - a->scored));
}

/* The result: the top K and the front (fewest LDS bytes first, cut at
 * LAYOUT_SUGGEST_MAX_PARETO), every one re-checked from scratch before
 * out is touched (out untouched on error), then rebuilt into out. */
static layout_status run_result(const layout_suggest_scorer *sc, const acc *a, layout_suggest_result *out,
                                layout_error *err)
{
    const layout_suggest_spec *spec = &sc->spec;
    entry front[FRONT_CAP];
    int nf = a->n_front;
    for (int i = 0; i < nf; i++) {
        entry e = a->front[i];
        int j = i;
        while (j > 0 && bytes_first(&e, &front[j - 1]) < 0) {
            front[j] = front[j - 1];
            j--;
        }
        front[j] = e;
    }
    int n_top = a->n_top, n_par = nf < LAYOUT_SUGGEST_MAX_PARETO ? nf : LAYOUT_SUGGEST_MAX_PARETO;
    const entry *which[LAYOUT_SUGGEST_MAX_TOP + LAYOUT_SUGGEST_MAX_PARETO];
    layout_suggest_cost costs[LAYOUT_SUGGEST_MAX_TOP + LAYOUT_SUGGEST_MAX_PARETO];
    layout_side_result sides[LAYOUT_SUGGEST_MAX_TOP + LAYOUT_SUGGEST_MAX_PARETO][LAYOUT_SUGGEST_MAX_SIDES];
    for (int i = 0; i < n_top; i++) which[i] = &a->top[i];
    for (int i = 0; i < n_par; i++) which[n_top + i] = &front[i];
    layout_suggest_candidate tmp;
    for (int i = 0; i < n_top + n_par; i++) {
        layout_status s = finish(sc, which[i], &tmp, err);
        if (s) return s;
        costs[i] = tmp.cost;
        memcpy(sides[i], tmp.sides, sizeof sides[i]);
    }
    for (int i = 0; i < n_top + n_par; i++) {
        layout_suggest_candidate *c = i < n_top ? &out->top[i] : &out->pareto[i - n_top];
        layout_suggest_build(&which[i]->params, spec->tile, &c->desc, NULL); /* built once above */
        c->params = which[i]->params;
        c->index = which[i]->index;
        c->cost = costs[i];
        memcpy(c->sides, sides[i], sizeof c->sides);
    }
    out->n_top = n_top;
    out->n_pareto = n_par;
    out->pareto_total = a->front_overflow ? -1 : nf;
    memcpy(out->families, a->fam, sizeof out->families);
    out->tried = a->tried;
    out->scored = a->scored;
    out->all_exhausted = 1;
    for (int f = 0; f < LAYOUT_FAMILY_COUNT; f++)
        if (a->fam[f].searched && !a->fam[f].exhausted) out->all_exhausted = 0;
    return layout_ok(err);
}

/* The search with a prepared scorer; with `ext` non-NULL, worker t's
 * layout_suggest_work and tables are at ext + t * ext_stride. */
static layout_status run_ext(const layout_suggest_scorer *sc, void *ext, size_t ext_stride, layout_suggest_result *out,
                             layout_error *err)
{
    static const char fn[] = "layout_suggest";
    layout_status s = run_check(sc, ext, out, err);
    if (s) return s;
    static shared zero_shared;
    shared sh = zero_shared;
    sh.sc = sc;
    sh.n_threads = sc->spec.threads > 1 ? sc->spec.threads : 1;
    acc_init(&sh.total);
    if (pthread_mutex_init(&sh.lock, NULL))
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: cannot create a mutex", fn);
    s = run_workers(&sh, ext, ext_stride, err);
    pthread_mutex_destroy(&sh.lock);
    if (s) return s;
    if (sh.total.scored == 0) return run_nothing_scored(&sc->spec, &sh.total, err);
    return run_result(sc, &sh.total, out, err);
}

layout_status layout_suggest(const layout_suggest_spec *spec, layout_suggest_result *out, layout_error *err)
{
    static const char fn[] = "layout_suggest";
    if (!spec) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    /* The scorer is large (tables per side): static storage is not
     * reentrant, the heap is not allowed, so it lives on this stack. */
    layout_suggest_scorer sc;
    layout_status s = layout_suggest_prepare(&sc, spec, err);
    if (s) return s;
    return layout_suggest_run(&sc, out, err);
}

/* The workspace of layout_suggest_ws(), each part 64-byte aligned: the
 * scorer, its tables (sides x E), then per thread a layout_suggest_work
 * and its tables (layout_suggest_work_ext_bytes()). */
#define WS_ALIGN(x) (((size_t)(x) + 63u) & ~(size_t)63u)

static size_t ws_slice_bytes(int64_t tile, int64_t side_max, int n_sides)
{
    return WS_ALIGN(sizeof(layout_suggest_work)) + WS_ALIGN(sizeof(int64_t) * (size_t)tile) +
           WS_ALIGN(sizeof(uint32_t) * (size_t)tile) + (size_t)(1 + n_sides) * WS_ALIGN(sizeof(uint32_t) * (size_t)side_max);
}

layout_status layout_suggest_workspace_size(const layout_suggest_spec *spec, size_t *bytes, layout_error *err)
{
    static const char fn[] = "layout_suggest_workspace_size";
    if (!spec) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec is NULL", fn);
    if (!bytes) return layout_fail(err, LAYOUT_ERR_NULL, "%s: bytes is NULL", fn);
    int64_t tile = 0, side_max = 0;
    layout_status s = layout_suggest_check_spec(fn, spec, &tile, &side_max, err);
    if (s) return s;
    size_t threads = spec->threads > 1 ? (size_t)spec->threads : 1u;
    *bytes = 64u + WS_ALIGN(sizeof(layout_suggest_scorer)) +
             WS_ALIGN(sizeof(int32_t) * (size_t)spec->n_sides * (size_t)side_max) +
             threads * ws_slice_bytes(tile, side_max, spec->n_sides);
    return layout_ok(err);
}

layout_status layout_suggest_ws(const layout_suggest_spec *spec, void *ws, size_t ws_bytes, layout_suggest_result *out,
                                layout_error *err)
{
    static const char fn[] = "layout_suggest_ws";
    if (!spec) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec is NULL", fn);
    if (!ws) return layout_fail(err, LAYOUT_ERR_NULL, "%s: ws is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    size_t need;
    layout_status s = layout_suggest_workspace_size(spec, &need, err);
    if (s) return s;
    if (ws_bytes < need)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: ws_bytes = %zu, this spec needs %zu (layout_suggest_workspace_size())",
                           fn, ws_bytes, need);
    int64_t tile = 0, side_max = 0;
    layout_suggest_check_spec(fn, spec, &tile, &side_max, NULL); /* passed above */
    unsigned char *base = (unsigned char *)ws + ((64u - ((uintptr_t)ws & 63u)) & 63u);
    layout_suggest_scorer *sc = (layout_suggest_scorer *)(void *)base;
    int32_t *lin = (int32_t *)(void *)(base + WS_ALIGN(sizeof(layout_suggest_scorer)));
    unsigned char *slices = (unsigned char *)lin + WS_ALIGN(sizeof(int32_t) * (size_t)spec->n_sides * (size_t)side_max);
    if ((s = layout_suggest_prepare_ext(sc, spec, lin, side_max, err))) return s;
    return run_ext(sc, slices, ws_slice_bytes(tile, side_max, spec->n_sides), out, err);
}
