/* Per-allocation suggestion (triton_kernel.h): group a kernel's shared ops
 * by the allocation they touch, following SSA values through memdesc views
 * and scf.for iter_args, then search Triton's shared layouts for each
 * allocation with a scorer that sums the checker's cost over all of its
 * writers and readers. */
#include "../core/internal.h"
#include "../core/strbuf.h"
#include "layout/triton.h"
#include "layout/triton_kernel.h"
#include "layout/triton_search.h"
#include "rules_internal.h"
#include "score_internal.h"
#include "web_internal.h"

#include <stdio.h>
#include <string.h>

#define FN "layout_triton_kernel_suggest"

/* ---- bytes of an allocation under an attribute ---- */

static int64_t attr_bytes(const char *attr, const layout_ttgir_type *t)
{
    layout_triton_attr a;
    size_t where = 0;
    int64_t n = 1, e;
    int i;
    for (i = 0; i < t->rank; i++) n *= t->shape[i];
    e = n;
    if (layout_triton_from_text(attr, &a, &where, NULL) == LAYOUT_OK && a.kind == LAYOUT_TRITON_PADDED_SHARED)
        for (i = 0; i < a.n_pads; i++)
            if (a.interval[i] > 0) e += (n / a.interval[i]) * a.pad[i] - (n % a.interval[i] == 0 ? a.pad[i] : 0);
    return e * (t->elem_bits / 8);
}

int64_t layout_triton_kernel_lds_bytes(const layout_triton_kernel *k)
{
    if (!k) return 0;
    if (strcmp(k->arch.name, "gfx950") == 0) return 160 * 1024;
    if (strcmp(k->arch.name, "gfx942") == 0) return 64 * 1024;
    if (k->is_nvidia) return k->sm >= 90 ? 232448 : 48 * 1024;
    return 64 * 1024;
}

/* Keep allocation a unchanged under rule id, the note saying why. */
static void keep(layout_triton_kernel_alloc *a, layout_tk_rule_id id, const char *detail)
{
    const layout_tk_rule *r = layout_tk_rule_get(id);
    if (a->rule[0] || !r) return; /* the first rule found stays */
    snprintf(a->rule, sizeof a->rule, "%s", r->name);
    layout_tk_rule_note(id, detail, a->note, sizeof a->note);
}

static void set_note(layout_triton_kernel_alloc *a, const char *fmt, long long x) LAYOUT_PRINTF(2, 0);
static void set_note(layout_triton_kernel_alloc *a, const char *fmt, long long x)
{
    layout_strbuf sb;
    layout_sb_init(&sb, a->note, sizeof a->note);
    layout_sb_printf(&sb, fmt, x);
}

/* The memdesc type an access op touches (its first memdesc type). */
static const layout_ttgir_type *memdesc_type(const layout_ttgir_op *o)
{
    int i;
    for (i = 0; i < o->n_src; i++)
        if (o->src[i].is_memdesc) return &o->src[i];
    for (i = 0; i < o->n_dst; i++)
        if (o->dst[i].is_memdesc) return &o->dst[i];
    return NULL;
}

/* Same encoding text (resolved) and same tile (last two dims)? */
static int same_tile(const layout_ttgir *m, const layout_ttgir_type *x, const layout_ttgir_type *y)
{
    const char *ax, *ay;
    size_t nx, ny;
    if (!x || !y || x->rank < 2 || y->rank < 2) return 0;
    if (x->shape[x->rank - 1] != y->shape[y->rank - 1] || x->shape[x->rank - 2] != y->shape[y->rank - 2]) return 0;
    if (x->elem_bits != y->elem_bits) return 0;
    if (layout_ttgir_encoding(m, x, &ax, &nx) != LAYOUT_OK || layout_ttgir_encoding(m, y, &ay, &ny) != LAYOUT_OK)
        return 0;
    return nx == ny && memcmp(ax, ay, nx) == 0;
}

/* The memdesc type of a group: its allocation's, or its first op's. */
static const layout_ttgir_type *group_type(const layout_triton_kernel *k, const layout_triton_kernel_alloc *a)
{
    const layout_ttgir *m = k->module;
    if (a->alloc_op >= 0) return memdesc_type(&m->ops[a->alloc_op]);
    return a->n_ops > 0 ? memdesc_type(&m->ops[k->ops[a->ops[0]].op]) : NULL;
}

static layout_status new_alloc(layout_triton_kernel_suggestions *out, const layout_triton_kernel *k, int mop,
                               const layout_ttgir_type *t, layout_error *err)
{
    const layout_ttgir *m = k->module;
    layout_triton_kernel_alloc *a;
    const char *attr;
    size_t alen;
    int i;
    (void)err;
    if (out->n_allocs == LAYOUT_TRITON_KERNEL_MAX_ALLOCS) {
        out->n_dropped++;
        return LAYOUT_ERR_CAPACITY; /* counted, not an error of the call */
    }
    a = &out->allocs[out->n_allocs++];
    memset(a, 0, sizeof *a);
    a->alloc_op = mop;
    a->line = m->ops[mop].line;
    layout_ttgir_op_loc(m, mop, a->loc, sizeof a->loc);
    a->rank = t->rank;
    for (i = 0; i < t->rank && i < 3; i++) a->shape[i] = t->shape[i];
    a->elem_bits = t->elem_bits;
    a->enc_at = t->enc_at;
    a->enc_len = t->enc_len;
    if (layout_ttgir_encoding(m, t, &attr, &alen) == LAYOUT_OK) {
        if (alen >= sizeof a->current) alen = sizeof a->current - 1;
        memcpy(a->current, attr, alen);
        a->current[alen] = 0;
    }
    a->current_bytes = a->current[0] ? attr_bytes(a->current, t) : 0;
    out->total_bytes += a->current_bytes;
    return LAYOUT_OK;
}

/* The search's spec for allocation a (its budget already set). */
static void alloc_spec(const layout_triton_kernel *k, const layout_triton_kernel_suggest_options *o,
                       const layout_triton_kernel_alloc *a, int top_k, layout_triton_search_spec *sp)
{
    int i;
    memset(sp, 0, sizeof *sp);
    sp->rank = a->rank;
    for (i = 0; i < a->rank; i++) sp->shape[i] = a->shape[i];
    sp->elem_bits = a->elem_bits;
    sp->vendor = k->is_nvidia ? LAYOUT_TRITON_VENDOR_NVIDIA : LAYOUT_TRITON_VENDOR_AMD;
    sp->arch = k->arch.name;
    sp->families = o->families;
    sp->max_pad_levels = o->max_pad_levels ? o->max_pad_levels : 1;
    sp->top_k = top_k;
    sp->lds_budget_bytes = a->budget_bytes;
}

/* The store order of each of a's writers under attr (-1 for an op that is
 * no modelled write): the count of writers whose order differs from the
 * current layout's; *n_instr (may be NULL): the instructions per warp of
 * all of a's modelled ops under attr; *n_out_of_order (may be NULL): the
 * writers whose stores leave register order under attr. */
static int store_orders(const layout_triton_kernel *k, const layout_triton_kernel_alloc *a, const char *attr,
                        signed char *out, int64_t *n_instr, int *n_out_of_order)
{
    layout_triton_kernel_op r;
    int i, j, changed = 0;
    if (n_instr) *n_instr = 0;
    if (n_out_of_order) *n_out_of_order = 0;
    for (i = 0; i < a->n_ops; i++) {
        const layout_triton_kernel_op *cur = &k->ops[a->ops[i]];
        out[i] = -1;
        if (!cur->modelled) continue;
        if (layout_triton_kernel_op_cost(k, a->ops[i], attr, strlen(attr), &r, NULL) != LAYOUT_OK || !r.modelled)
            continue;
        for (j = 0; j < r.n_counts && n_instr; j++) *n_instr += r.counts[j].count;
        if (cur->direction != LAYOUT_WRITE) continue;
        out[i] = (signed char)r.stores_out_of_register_order;
        changed += r.stores_out_of_register_order != cur->stores_out_of_register_order;
        if (n_out_of_order) *n_out_of_order += r.stores_out_of_register_order;
    }
    return changed;
}

/* Allocation a as it is: the cost of its modelled ops, its attribute and
 * its writers' store order (what a search that finds nothing better
 * leaves). */
static void alloc_current(const layout_triton_kernel *k, layout_triton_kernel_alloc *a)
{
    int i;
    for (i = 0; i < a->n_ops; i++) {
        const layout_triton_kernel_op *r = &k->ops[a->ops[i]];
        if (!r->modelled) continue;
        a->n_scored++;
        a->current_cost += r->total_cycles;
        a->current_extra += r->extra_cycles;
    }
    a->cost = a->current_cost;
    a->extra = a->current_extra;
    a->bytes = a->current_bytes;
    {   /* memcpy, not snprintf: gcc -O1 sees both strings in *a and warns (-Wrestrict) */
        size_t n = strlen(a->current);
        if (n >= sizeof a->attr) n = sizeof a->attr - 1;
        memcpy(a->attr, a->current, n);
        a->attr[n] = '\0';
    }
    for (i = 0; i < a->n_ops; i++) { /* attr = current: the writers' order as it is */
        const layout_triton_kernel_op *r = &k->ops[a->ops[i]];
        a->store_order[i] = (signed char)(r->modelled && r->direction == LAYOUT_WRITE ? r->stores_out_of_register_order : -1);
    }
}

/* Whether allocation a is searched; when not, its note says why (a rule
 * that keeps it has noted it already). */
static int alloc_searchable(const layout_triton_kernel *k, layout_triton_kernel_alloc *a)
{
    int i;
    if (a->rule[0]) return 0; /* kept by a rule: the note says which */
    if (a->alloc_op < 0) {
        set_note(a, "accesses through a memdesc not traced to its local_alloc (%lld ops): kept (the attribute is "
                    "derived by Triton from the allocation's, which the text does not tie to it)",
                 a->n_ops);
        return 0;
    }
    if (a->n_scored == 0) {
        set_note(a, "no modelled access to score (%lld ops, none modelled): current layout kept", a->n_ops);
        return 0;
    }
    if (strlen(a->current) + 1 >= sizeof a->current) {
        set_note(a, "the current attribute is longer than %lld characters (shown truncated): not searched",
                 (long long)sizeof a->current - 1);
        return 0;
    }
    if (a->rank < 2 || a->rank > 3) {
        set_note(a, "rank %lld: only 2-D tiles with at most one buffer dim are searched", a->rank);
        return 0;
    }
    for (i = 0; i < a->n_ops; i++) {
        int t = layout_tk_op_tile_rank(k, k->ops[a->ops[i]].op);
        if (t > 2) {
            set_note(a, "a %lld-D tile: only 2-D tiles with at most one buffer dim are searched", t);
            return 0;
        }
    }
    return 1;
}

/* The search's best for allocation a when it beats the current layout:
 * on NVIDIA (the evidence is ptxas's) a best whose stores leave register
 * order gives way to a candidate of the same cost, bytes and instructions
 * whose stores all keep it. */
static void alloc_take_best(const layout_triton_kernel *k, layout_triton_kernel_alloc *a, layout_tk_scorer *sc,
                            const layout_triton_search_result *res)
{
    double cur = (double)a->current_cost;
    int best = 0, j, o0 = 0, oj;
    int64_t n0, nj;
    signed char order[LAYOUT_TRITON_KERNEL_ALLOC_MAX_OPS];
    if (res->n_top <= 0 || !(res->top[0].cost < cur)) return;
    if (k->is_nvidia) store_orders(k, a, res->top[0].attr, order, &n0, &o0);
    if (o0 > 0)
        for (j = 1; j < res->n_top && res->top[j].cost == res->top[0].cost && res->top[j].bytes == res->top[0].bytes; j++)
            if (store_orders(k, a, res->top[j].attr, order, &nj, &oj) >= 0 && oj == 0 && nj == n0) {
                best = j;
                a->order_kept = 1;
                break;
            }
    a->improved = 1;
    snprintf(a->attr, sizeof a->attr, "%s", res->top[best].attr);
    a->cost = (int64_t)res->top[best].cost;
    a->bytes = res->top[best].bytes;
    if (layout_tk_score(sc, a->attr, strlen(a->attr), &cur) == 0) a->extra = sc->extra;
}

/* The search of one allocation. */
static void search_alloc(const layout_triton_kernel *k, const layout_triton_kernel_suggest_options *o,
                         int64_t lds, int64_t bound, layout_triton_kernel_alloc *a, layout_tk_scorer *sc)
{
    layout_triton_search_spec sp;
    layout_triton_search_result res;
    layout_error e;
    layout_status st;
    int i;
    alloc_current(k, a);
    if (!alloc_searchable(k, a)) return;
    {
        int64_t packed, n = 1, room = lds - bound;
        for (i = 0; i < a->rank; i++) n *= a->shape[i];
        packed = n * (a->elem_bits / 8);
        a->budget_bytes = o->same_bytes ? a->current_bytes : a->current_bytes + (room > 0 ? room : 0);
        if (a->budget_bytes < packed) a->budget_bytes = packed;
    }
    /* the best and those that follow it: of the best cost, bytes and
     * instructions, one that keeps the store order is preferred (below) */
    alloc_spec(k, o, a, LAYOUT_TRITON_SEARCH_MAX_TOP, &sp);
    layout_tk_scorer_alloc(sc, a);
    sc->cut = 1; /* a candidate above the best so far needs no exact cost: only the best cost's are compared */
    st = layout_triton_shared_search(&sp, layout_tk_score, sc, &res, &e);
    sc->cut = 0;
    if (st != LAYOUT_OK) {
        layout_strbuf sb;
        layout_sb_init(&sb, a->note, sizeof a->note);
        layout_sb_printf(&sb, "search: %s", e.message);
        return;
    }
    a->searched = 1;
    a->scored = res.scored;
    a->rejected = res.rejected;
    alloc_take_best(k, a, sc, &res);
    if (a->improved) a->store_order_changed = store_orders(k, a, a->attr, a->store_order, NULL, NULL);
    if (a->n_scored < a->n_ops || a->n_ops_dropped) {
        layout_strbuf sb;
        layout_sb_init(&sb, a->note, sizeof a->note);
        layout_sb_printf(&sb, "%d of %d accesses scored", a->n_scored, a->n_ops + a->n_ops_dropped);
    }
}

/* Scratch bytes of a report's op: the modelled scratch, or for an op that
 * may use scratch but is not modelled its operand tensor's bytes (an upper
 * bound of Triton's swizzled convert / reduce scratch for one CTA). */
static int64_t scratch_bytes(const layout_triton_kernel *k, const layout_triton_kernel_op *r)
{
    const layout_ttgir_op *op = &k->module->ops[r->op];
    int64_t n = 1;
    int i;
    if (r->kind != LAYOUT_TTGIR_CONVERT_LAYOUT && r->kind != LAYOUT_TTGIR_REDUCE && r->kind != LAYOUT_TTGIR_SCAN &&
        r->kind != LAYOUT_TTGIR_HISTOGRAM && r->kind != LAYOUT_TTGIR_GATHER)
        return 0;
    if (r->modelled) return r->cvt_scratch_bytes;
    if (op->n_src < 1 || op->src[0].is_memdesc) return 0;
    for (i = 0; i < op->src[0].rank; i++) n *= op->src[0].shape[i];
    return n * (op->src[0].elem_bits > 8 ? op->src[0].elem_bits / 8 : 1);
}

/* The name of op o as the text spells it. */
static void op_name(const layout_ttgir *m, const layout_ttgir_op *o, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.*s line %d", (int)(o->name_len < 64 ? o->name_len : 64), m->text + o->name_at, o->line);
}

/* The allocation whose web root is root, or -1. */
static int alloc_of(const int *roots, int n, int root)
{
    int j;
    if (root < 0) return -1;
    for (j = 0; j < n; j++)
        if (roots[j] == root) return j;
    return -1;
}

/* Whether v's web class holds a local_alloc's result: an allocation this
 * op is traced to, which the cap on allocations dropped. */
static int traced_to_dropped(const layout_ttgir *m, layout_tk_web *web, const layout_tk_name *v)
{
    int root = layout_tk_web_root(web, v), i;
    if (root < 0) return 0;
    for (i = 0; i < m->n_ops; i++) {
        layout_tk_name res;
        if (m->ops[i].kind == LAYOUT_TTGIR_LOCAL_ALLOC && layout_tk_op_result(m, &m->ops[i], &res) &&
            layout_tk_web_root(web, &res) == root)
            return 1;
    }
    return 0;
}

/* The working set of layout_triton_kernel_suggest, passed to its steps by
 * pointer (the web and the scorer are large). */
typedef struct suggest_work {
    layout_tk_web web;
    layout_tk_scorer sc;
    int root[LAYOUT_TRITON_KERNEL_MAX_ALLOCS]; /* web root of each allocation's value */
} suggest_work;

/* 2. the allocations, in text order */
static void suggest_allocs(const layout_triton_kernel *k, suggest_work *w, layout_triton_kernel_suggestions *out,
                           layout_error *err)
{
    const layout_ttgir *m = k->module;
    int i;
    for (i = 0; i < m->n_ops; i++) {
        const layout_ttgir_op *op = &m->ops[i];
        const layout_ttgir_type *mt;
        layout_tk_name res;
        if (op->kind != LAYOUT_TTGIR_LOCAL_ALLOC || !(mt = memdesc_type(op))) continue;
        if (new_alloc(out, k, i, mt, err) != LAYOUT_OK) continue;
        w->root[out->n_allocs - 1] = layout_tk_op_result(m, op, &res) ? layout_tk_web_root(&w->web, &res) : -1;
    }
}

/* 3. each access op joins the allocation its memdesc comes from (an
 * untraced one the group of its type, else a group of its own); an
 * unmodelled user or a transposing reader keeps the allocation */
static void suggest_join_accesses(const layout_triton_kernel *k, suggest_work *w, layout_triton_kernel_suggestions *out,
                                  layout_error *err)
{
    const layout_ttgir *m = k->module;
    int i, j;
    for (i = 0; i < k->n_ops; i++) {
        const layout_triton_kernel_op *r = &k->ops[i];
        const layout_ttgir_op *op = &m->ops[r->op];
        const layout_ttgir_type *mt = memdesc_type(op);
        layout_tk_name v;
        int g;
        char detail[LAYOUT_TRITON_KERNEL_REASON_CAP];
        if (op->kind == LAYOUT_TTGIR_WARP_GROUP_DOT || !mt || !layout_tk_access_memdesc(m, op, &v)) continue;
        g = alloc_of(w->root, out->n_allocs, layout_tk_web_root(&w->web, &v));
        if (g < 0 && traced_to_dropped(m, &w->web, &v)) continue; /* its allocation is past the cap: in no group */
        if (g >= 0 && !same_tile(m, group_type(k, &out->allocs[g]), mt)) g = -1;
        for (j = 0; j < out->n_allocs && g < 0; j++) /* untraced: the group of the same type */
            if (out->allocs[j].alloc_op < 0 && same_tile(m, group_type(k, &out->allocs[j]), mt)) g = j;
        if (g < 0) {
            if (new_alloc(out, k, r->op, mt, err) != LAYOUT_OK) continue;
            g = out->n_allocs - 1;
            out->allocs[g].alloc_op = -1;
            w->root[g] = -2;
        }
        if (out->allocs[g].n_ops < LAYOUT_TRITON_KERNEL_ALLOC_MAX_OPS) out->allocs[g].ops[out->allocs[g].n_ops++] = i;
        else out->allocs[g].n_ops_dropped++;
        if (!r->modelled) {
            snprintf(detail, sizeof detail, "%s line %d not modelled (%.160s)", layout_ttgir_op_name(r->kind), r->line,
                     r->reason);
            keep(&out->allocs[g], LAYOUT_TK_RULE_UNMODELLED_USER, detail);
        } else if (layout_tk_op_uses_tr(r)) {
            snprintf(detail, sizeof detail, "local_load line %d", r->line);
            keep(&out->allocs[g], LAYOUT_TK_RULE_TR_READER, detail);
        }
    }
}

/* Whether op kind k is an access (or scratch) op, joined to its
 * allocation by suggest_join_accesses and not by suggest_other_users. */
static int suggest_is_access_kind(layout_ttgir_op_kind kind)
{
    switch (kind) {
    case LAYOUT_TTGIR_LOCAL_ALLOC:
    case LAYOUT_TTGIR_LOCAL_LOAD:
    case LAYOUT_TTGIR_LOCAL_STORE:
    case LAYOUT_TTGIR_ASYNC_COPY:
    case LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL:
    case LAYOUT_TTGIR_LOCAL_DEALLOC:
    case LAYOUT_TTGIR_CONVERT_LAYOUT:
    case LAYOUT_TTGIR_REDUCE:
    case LAYOUT_TTGIR_SCAN:
    case LAYOUT_TTGIR_HISTOGRAM:
    case LAYOUT_TTGIR_GATHER: return 1;
    default: return 0;
    }
}

/* 4. every other op on an allocation's memdesc: wgmma, views that Triton
 * re-derives, ops the analysis does not lower */
static void suggest_other_users(const layout_triton_kernel *k, suggest_work *w,
                                layout_triton_kernel_suggestions *out)
{
    const layout_ttgir *m = k->module;
    int i;
    for (i = 0; i < m->n_ops; i++) {
        const layout_ttgir_op *op = &m->ops[i];
        layout_tk_name v[8];
        char detail[96];
        int n, q, g;
        if (suggest_is_access_kind(op->kind)) continue;
        n = layout_tk_op_uses(m, op, v, op->kind == LAYOUT_TTGIR_MEMDESC_VIEW ? 1 : 8);
        for (q = 0; q < n; q++) {
            g = alloc_of(w->root, out->n_allocs, layout_tk_web_root(&w->web, &v[q]));
            if (g < 0) continue;
            op_name(m, op, detail, sizeof detail);
            if (op->kind == LAYOUT_TTGIR_WARP_GROUP_DOT) {
                if (q >= 2) continue; /* the accumulator */
                out->allocs[g].wgmma_operand = 1;
                keep(&out->allocs[g], LAYOUT_TK_RULE_WGMMA_READER, detail);
            } else if (op->kind == LAYOUT_TTGIR_MEMDESC_VIEW) {
                if (layout_ttgir_ir_op_is(m, op->ir_op, "ttg.memdesc_trans") ||
                    layout_ttgir_ir_op_is(m, op->ir_op, "ttg.memdesc_reshape"))
                    keep(&out->allocs[g], LAYOUT_TK_RULE_INFERRED_VIEW, detail);
            } else {
                keep(&out->allocs[g], LAYOUT_TK_RULE_UNMODELLED_USER, detail);
            }
        }
    }
}

/* 5. the LDS bound: every buffer live at once, each with its alignment slack */
static int64_t suggest_lds_bound(const layout_triton_kernel *k, const layout_triton_kernel_suggestions *out)
{
    int64_t bound = 0;
    int i, j;
    for (j = 0; j < out->n_allocs; j++)
        if (out->allocs[j].alloc_op >= 0) bound += out->allocs[j].current_bytes + 1023;
    for (i = 0; i < k->n_ops; i++) {
        int64_t b = scratch_bytes(k, &k->ops[i]);
        if (b > 0) bound += b + 127;
    }
    return bound;
}

layout_status layout_triton_kernel_suggest(const layout_triton_kernel *k, const layout_triton_kernel_suggest_options *opts,
                                           layout_triton_kernel_suggestions *out, layout_error *err)
{
    static const layout_triton_kernel_suggest_options defaults;
    const layout_triton_kernel_suggest_options *o = opts ? opts : &defaults;
    suggest_work w;
    int64_t bound;
    int j;
    if (!k || !out || !k->module) return layout_fail(err, LAYOUT_ERR_NULL, FN ": NULL argument");
    memset(out, 0, sizeof *out);
    out->lds_bytes = o->lds_bytes > 0 ? o->lds_bytes : layout_triton_kernel_lds_bytes(k);

    /* 1. the SSA web: views, loops, dot waits */
    layout_tk_web_build(&w.web, k->module);
    suggest_allocs(k, &w, out, err);
    suggest_join_accesses(k, &w, out, err);
    suggest_other_users(k, &w, out);
    bound = suggest_lds_bound(k, out);
    out->lds_bound = bound;

    /* 6. the searches, in text order: each keeps the bound of all before it */
    layout_tk_scorer_init(&w.sc, k, o->exhaustive);
    for (j = 0; j < out->n_allocs; j++) {
        layout_triton_kernel_alloc *a = &out->allocs[j];
        search_alloc(k, o, out->lds_bytes, bound, a, &w.sc);
        if (a->improved) bound += a->bytes - a->current_bytes;
    }
    out->lds_bound_after = bound;
    return layout_ok(err);
}

/* ---- the ranked list of one allocation ---- */

#define RFN "layout_triton_kernel_suggest_ranked"

/* The ranked list holds what one search keeps. */
typedef char layout_tk_ranked_cap_check[LAYOUT_TRITON_KERNEL_RANKED_MAX == LAYOUT_TRITON_SEARCH_MAX_TOP ? 1 : -1];

/* Cost of attr per side over allocation a's modelled ops (0) or 1 when an op
 * cannot be lowered under it. */
static int side_costs(layout_tk_scorer *c, const char *attr, layout_triton_kernel_ranked_entry *e)
{
    int i;
    e->write_cost = e->write_extra = e->read_cost = e->read_extra = 0;
    for (i = 0; i < c->a->n_ops; i++) {
        int o = c->a->ops[i];
        if (!c->k->ops[o].modelled) continue;
        if (layout_triton_kernel_op_cost(c->k, o, attr, strlen(attr), &c->rep, NULL) != LAYOUT_OK || !c->rep.modelled)
            return 1;
        if (c->rep.direction == LAYOUT_WRITE) {
            e->write_cost += c->rep.total_cycles;
            e->write_extra += c->rep.extra_cycles;
        } else {
            e->read_cost += c->rep.total_cycles;
            e->read_extra += c->rep.extra_cycles;
        }
    }
    return 0;
}

layout_status layout_triton_kernel_suggest_ranked(const layout_triton_kernel *k,
                                                  const layout_triton_kernel_suggest_options *opts,
                                                  const layout_triton_kernel_suggestions *s, int alloc, int top_k,
                                                  layout_triton_kernel_ranked *out, layout_error *err)
{
    static const layout_triton_kernel_suggest_options defaults;
    const layout_triton_kernel_suggest_options *o = opts ? opts : &defaults;
    const layout_triton_kernel_alloc *a;
    layout_triton_search_spec sp;
    struct {
        layout_tk_scorer sc;
        layout_triton_search_result res;
    } w;
    layout_status st;
    int i;
    if (!k || !k->module || !s || !out) return layout_fail(err, LAYOUT_ERR_NULL, RFN ": NULL argument");
    if (alloc < 0 || alloc >= s->n_allocs)
        return layout_fail(err, LAYOUT_ERR_ARG, RFN ": allocation %d outside 0..%d", alloc, s->n_allocs - 1);
    if (top_k == 0) top_k = LAYOUT_TRITON_KERNEL_RANKED_DEFAULT;
    if (top_k < 1 || top_k > LAYOUT_TRITON_KERNEL_RANKED_MAX)
        return layout_fail(err, LAYOUT_ERR_ARG, RFN ": top_k %d outside 1..%d", top_k, LAYOUT_TRITON_KERNEL_RANKED_MAX);
    a = &s->allocs[alloc];
    if (!a->searched)
        return layout_fail(err, LAYOUT_ERR_ARG, RFN ": allocation %d was not searched: %s", alloc,
                           a->note[0] ? a->note : "no note");
    layout_tk_scorer_init(&w.sc, k, o->exhaustive);
    layout_tk_scorer_alloc(&w.sc, a); /* no cut: every one of the top k is costed whole */
    alloc_spec(k, o, a, top_k, &sp);
    if ((st = layout_triton_shared_search(&sp, layout_tk_score, &w.sc, &w.res, err)) != LAYOUT_OK) return st;
    memset(out, 0, sizeof *out);
    out->alloc = alloc;
    out->budget_bytes = a->budget_bytes;
    out->scored = w.res.scored;
    out->rejected = w.res.rejected;
    for (i = 0; i < w.res.n_top; i++) {
        layout_triton_kernel_ranked_entry *e = &out->top[out->n];
        snprintf(e->attr, sizeof e->attr, "%s", w.res.top[i].attr);
        e->cost = (int64_t)w.res.top[i].cost;
        e->bytes = w.res.top[i].bytes;
        e->family = w.res.top[i].family;
        if (side_costs(&w.sc, e->attr, e)) continue; /* cannot happen: the scorer lowered it */
        e->extra = e->write_extra + e->read_extra;
        out->n++;
    }
    return layout_ok(err);
}
