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

#include <stdio.h>
#include <string.h>

#define FN "layout_triton_kernel_suggest"

/* ---- SSA names: `%acc_53` or `%acc_53#4` (base text + result index) ---- */

#define MAX_NAMES 512

typedef struct ssa_name {
    uint32_t at;  /* offset of the base name ('%') */
    uint16_t len; /* its length */
    int16_t idx;  /* `#N` result index, -1 without */
} ssa_name;

typedef struct name_table {
    const char *text;
    int n;
    ssa_name names[MAX_NAMES];
    int16_t parent[MAX_NAMES];
} name_table;

static int is_name_char(char c)
{
    return c == '_' || c == '$' || c == '.' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z');
}

/* Parse a value use at text[*p] (after spaces); 1 on success, *p past it. */
static int parse_name(const char *text, size_t len, size_t *p, ssa_name *out)
{
    size_t i = *p, j;
    while (i < len && (text[i] == ' ' || text[i] == '\t')) i++;
    if (i >= len || text[i] != '%') return 0;
    j = i + 1;
    while (j < len && is_name_char(text[j])) j++;
    if (j == i + 1 || j - i > 0xffff || i > 0xffffffffu) return 0;
    out->at = (uint32_t)i;
    out->len = (uint16_t)(j - i);
    out->idx = -1;
    if (j < len && text[j] == '#') {
        int v = 0, any = 0;
        size_t q = j + 1;
        while (q < len && text[q] >= '0' && text[q] <= '9' && v < 10000) {
            v = v * 10 + (text[q++] - '0');
            any = 1;
        }
        if (any) {
            out->idx = (int16_t)v;
            j = q;
        }
    }
    *p = j;
    return 1;
}

static int name_eq(const char *text, const ssa_name *a, const ssa_name *b)
{
    return a->len == b->len && a->idx == b->idx && memcmp(text + a->at, text + b->at, a->len) == 0;
}

/* The table index of a name, added when new; -1 when the table is full. */
static int name_id(name_table *t, const ssa_name *nm)
{
    int i;
    for (i = 0; i < t->n; i++)
        if (name_eq(t->text, &t->names[i], nm)) return i;
    if (t->n == MAX_NAMES) return -1;
    t->names[t->n] = *nm;
    t->parent[t->n] = (int16_t)t->n;
    return t->n++;
}

static int find_root(name_table *t, int i)
{
    while (t->parent[i] != i) {
        t->parent[i] = t->parent[t->parent[i]];
        i = t->parent[i];
    }
    return i;
}

static void unite(name_table *t, const ssa_name *a, const ssa_name *b)
{
    int x = name_id(t, a), y = name_id(t, b);
    if (x < 0 || y < 0) return;
    x = find_root(t, x);
    y = find_root(t, y);
    if (x != y) t->parent[x] = (int16_t)y;
}

/* ---- scf.for: init <-> block argument <-> yield operand <-> result #k ---- */

#define MAX_FOR_ARGS 48
#define MAX_FOR_DEPTH 16

typedef struct for_frame {
    int body_depth;             /* brace depth inside the body */
    int n_args;
    ssa_name result;            /* `%acc_53` (idx set per arg) */
    int n_results;              /* the `:N` of the result; 1 without */
    ssa_name args[MAX_FOR_ARGS];
} for_frame;

/* Find `word` in [b, e) as a whole token; offset or (size_t)-1. */
static size_t find_word(const char *s, size_t b, size_t e, const char *word)
{
    size_t n = strlen(word), i;
    for (i = b; i + n <= e; i++)
        if (memcmp(s + i, word, n) == 0 && (i == b || !is_name_char(s[i - 1])) &&
            (i + n == e || !is_name_char(s[i + n])))
            return i;
    return (size_t)-1;
}

/* Parse one `scf.for` line [b, e): its result and iter_args, uniting each
 * block argument with its init and with the loop's result #k. */
static void parse_for(name_table *t, const char *s, size_t b, size_t e, for_frame *f)
{
    size_t p = b, q;
    ssa_name res;
    int have_res;
    f->n_args = 0;
    f->n_results = 1;
    have_res = parse_name(s, e, &p, &res);
    if (have_res && p < e && s[p] == ':') {
        int v = 0;
        p++;
        while (p < e && s[p] >= '0' && s[p] <= '9' && v < 10000) v = v * 10 + (s[p++] - '0');
        f->n_results = v;
    }
    f->result = have_res ? res : (ssa_name){0, 0, -1};
    q = find_word(s, b, e, "iter_args");
    if (q == (size_t)-1) return;
    p = q + 9;
    while (p < e && s[p] != '(') p++;
    p++;
    while (p < e && f->n_args < MAX_FOR_ARGS) {
        ssa_name arg, init;
        if (!parse_name(s, e, &p, &arg)) break;
        while (p < e && (s[p] == ' ' || s[p] == '=')) p++;
        if (!parse_name(s, e, &p, &init)) break;
        unite(t, &arg, &init);
        if (have_res) {
            ssa_name r = res;
            r.idx = f->n_results > 1 ? (int16_t)f->n_args : (int16_t)-1;
            unite(t, &r, &arg);
        }
        f->args[f->n_args++] = arg;
        while (p < e && s[p] == ' ') p++;
        if (p < e && s[p] == ',') p++;
        else break;
    }
}

/* Walk the text once: brace depth (outside strings), scf.for frames, the
 * yields that close them. */
static void scan_loops(name_table *t, const layout_ttgir *m)
{
    for_frame frames[MAX_FOR_DEPTH];
    int n_frames = 0, depth = 0;
    const char *s = m->text;
    size_t b = 0, len = m->len;
    while (b < len) {
        size_t e = b, i;
        int in_str = 0, d0 = depth;
        while (e < len && s[e] != '\n') e++;
        {
            size_t f0 = find_word(s, b, e, "scf.for"), y0;
            size_t first = b;
            while (first < e && (s[first] == ' ' || s[first] == '\t')) first++;
            if (f0 != (size_t)-1 && n_frames < MAX_FOR_DEPTH) {
                parse_for(t, s, first, e, &frames[n_frames]);
                frames[n_frames].body_depth = d0 + 1;
                n_frames++;
            } else if (n_frames > 0 && frames[n_frames - 1].body_depth == d0 &&
                       (y0 = find_word(s, b, e, "scf.yield")) != (size_t)-1) {
                for_frame *f = &frames[n_frames - 1];
                size_t p = y0 + 9;
                int k;
                for (k = 0; k < f->n_args; k++) {
                    ssa_name v;
                    if (!parse_name(s, e, &p, &v)) break;
                    unite(t, &v, &f->args[k]);
                    while (p < e && s[p] == ' ') p++;
                    if (p < e && s[p] == ',') p++;
                    else break;
                }
            }
        }
        for (i = b; i < e; i++) {
            if (s[i] == '"' && (i == b || s[i - 1] != '\\')) in_str = !in_str;
            else if (!in_str && s[i] == '{') depth++;
            else if (!in_str && s[i] == '}') depth--;
        }
        while (n_frames > 0 && depth < frames[n_frames - 1].body_depth) n_frames--;
        b = e + 1;
    }
}

/* The value uses of an op starting at its first operand: up to 2. */
static int op_operands(const layout_ttgir *m, const layout_ttgir_op *o, ssa_name *out)
{
    size_t p = o->operand_at;
    int n = 0;
    if (!o->operand_len) return 0;
    while (n < 2 && parse_name(m->text, m->len, &p, &out[n])) {
        n++;
        if (p < m->len && m->text[p] == '[') { /* memdesc_index %x[%i] */
            while (p < m->len && m->text[p] != ']' && m->text[p] != '\n') p++;
            if (p < m->len && m->text[p] == ']') p++;
        }
        while (p < m->len && m->text[p] == ' ') p++;
        if (p < m->len && m->text[p] == ',') p++;
        else break;
    }
    return n;
}

/* The memdesc value an access op reads or writes ("" when none). */
static int access_memdesc(const layout_ttgir *m, const layout_ttgir_op *o, ssa_name *out)
{
    ssa_name v[2];
    int n = op_operands(m, o, v);
    switch (o->kind) {
    case LAYOUT_TTGIR_LOCAL_ALLOC:
        if (!o->result_len) return 0;
        {
            size_t p = o->result_at;
            return parse_name(m->text, m->len, &p, out);
        }
    case LAYOUT_TTGIR_LOCAL_LOAD:
        if (n < 1) return 0;
        *out = v[0];
        return 1;
    case LAYOUT_TTGIR_LOCAL_STORE:
    case LAYOUT_TTGIR_ASYNC_COPY:
        if (n < 2) return 0;
        *out = v[1];
        return 1;
    case LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL: {
        /* `... into %dst` */
        size_t e = o->operand_at, q;
        while (e < m->len && m->text[e] != '\n') e++;
        q = find_word(m->text, o->operand_at, e, "into");
        if (q == (size_t)-1) return 0;
        q += 4;
        return parse_name(m->text, e, &q, out);
    }
    default: return 0;
    }
}

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

/* ---- the scorer ---- */

typedef struct score_ctx {
    const layout_triton_kernel *k;
    const layout_triton_kernel_alloc *a;
    layout_triton_kernel_op rep; /* scratch */
    int64_t extra;               /* of the last candidate scored */
} score_ctx;

static int score_attr(void *vctx, const char *attr, size_t len, double *cost)
{
    score_ctx *c = (score_ctx *)vctx;
    int64_t total = 0, extra = 0;
    int i;
    for (i = 0; i < c->a->n_ops; i++) {
        int o = c->a->ops[i];
        if (!c->k->ops[o].modelled) continue;
        if (layout_triton_kernel_op_cost(c->k, o, attr, len, &c->rep, NULL) != LAYOUT_OK || !c->rep.modelled)
            return 1;
        total += c->rep.total_cycles;
        extra += c->rep.extra_cycles;
    }
    c->extra = extra;
    *cost = (double)total;
    return 0;
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

/* The search of one allocation. */
static void search_alloc(const layout_triton_kernel *k, const layout_triton_kernel_suggest_options *o,
                         int64_t lds, int64_t total, layout_triton_kernel_alloc *a, score_ctx *sc)
{
    layout_triton_search_spec sp;
    layout_triton_search_result res;
    layout_error e;
    double cur = 0;
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
    if (a->n_scored == 0) {
        set_note(a, "no modelled access to score (%lld ops, none modelled): current layout kept", a->n_ops);
        return;
    }
    if (strlen(a->current) + 1 >= sizeof a->current) {
        set_note(a, "the current attribute is longer than %lld characters (shown truncated): not searched",
                 (long long)sizeof a->current - 1);
        return;
    }
    if (a->rank < 2 || a->rank > 3) {
        set_note(a, "rank %lld: only 2-D tiles with at most one buffer dim are searched", a->rank);
        return;
    }
    memset(&sp, 0, sizeof sp);
    sp.rank = a->rank;
    for (i = 0; i < a->rank; i++) sp.shape[i] = a->shape[i];
    sp.elem_bits = a->elem_bits;
    sp.vendor = k->is_nvidia ? LAYOUT_TRITON_VENDOR_NVIDIA : LAYOUT_TRITON_VENDOR_AMD;
    sp.arch = k->arch.name;
    sp.families = o->families;
    sp.max_pad_levels = o->max_pad_levels ? o->max_pad_levels : 1;
    sp.top_k = 1;
    if (a->wgmma_operand) {
        sp.families = LAYOUT_TRITON_SEARCH_NVMMA;
        sp.orders = strstr(a->current, "transposed = true") ? LAYOUT_TRITON_SEARCH_ORDER_01
                                                            : LAYOUT_TRITON_SEARCH_ORDER_10;
    }
    {
        int64_t packed = a->current_bytes, n = 1;
        for (i = 0; i < a->rank; i++) n *= a->shape[i];
        packed = n * (a->elem_bits / 8);
        a->budget_bytes = o->same_bytes ? a->current_bytes : lds - (total - a->current_bytes);
        if (a->budget_bytes < packed) a->budget_bytes = packed;
        sp.lds_budget_bytes = a->budget_bytes;
    }
    sc->a = a;
    if (layout_triton_shared_search(&sp, score_attr, sc, &res, &e) != LAYOUT_OK) {
        layout_strbuf sb;
        layout_sb_init(&sb, a->note, sizeof a->note);
        layout_sb_printf(&sb, "search: %s", e.message);
        return;
    }
    a->searched = 1;
    a->scored = res.scored;
    cur = (double)a->current_cost;
    if (res.n_top > 0 && res.top[0].cost < cur) {
        a->improved = 1;
        snprintf(a->attr, sizeof a->attr, "%s", res.top[0].attr);
        a->cost = (int64_t)res.top[0].cost;
        a->bytes = res.top[0].bytes;
        if (score_attr(sc, a->attr, strlen(a->attr), &cur) == 0) a->extra = sc->extra;
    }
    if (a->alloc_op < 0) {
        set_note(a, "accesses through a memdesc of a type no allocation has (a memdesc_trans / reshape view, or a "
                    "value not traced to its local_alloc; %lld ops): the attribute is that memdesc's, derived by "
                    "Triton from the allocation's",
                 a->n_ops);
    } else if (a->n_scored < a->n_ops || a->wgmma_operand || a->n_ops_dropped) {
        layout_strbuf sb;
        layout_sb_init(&sb, a->note, sizeof a->note);
        layout_sb_printf(&sb, "%d of %d accesses scored%s", a->n_scored, a->n_ops + a->n_ops_dropped,
                         a->wgmma_operand ? "; also read by ttng.warp_group_dot, not scored (wgmma reads "
                                            "through descriptors, not LSU instructions): nvmma_shared of the "
                                            "current transposition only, a narrower swizzle may slow wgmma"
                                          : "");
    }
}

layout_status layout_triton_kernel_suggest(const layout_triton_kernel *k, const layout_triton_kernel_suggest_options *opts,
                                           layout_triton_kernel_suggestions *out, layout_error *err)
{
    static const layout_triton_kernel_suggest_options defaults;
    static name_table zero_table;
    const layout_triton_kernel_suggest_options *o = opts ? opts : &defaults;
    const layout_ttgir *m;
    name_table *t;
    score_ctx *sc;
    struct {
        name_table t;
        score_ctx sc;
        int root[LAYOUT_TRITON_KERNEL_MAX_ALLOCS]; /* name table root of each allocation's value */
    } w;
    int i, j;
    if (!k || !out || !k->module) return layout_fail(err, LAYOUT_ERR_NULL, FN ": NULL argument");
    m = k->module;
    t = &w.t;
    sc = &w.sc;
    *t = zero_table;
    t->text = m->text;
    memset(out, 0, sizeof *out);
    out->lds_bytes = o->lds_bytes > 0 ? o->lds_bytes : layout_triton_kernel_lds_bytes(k);

    /* 1. the SSA web: views and loops */
    for (i = 0; i < m->n_ops; i++) {
        ssa_name v[2], res;
        size_t p = m->ops[i].result_at;
        if (m->ops[i].kind != LAYOUT_TTGIR_MEMDESC_VIEW || !m->ops[i].result_len) continue;
        if (op_operands(m, &m->ops[i], v) >= 1 && parse_name(m->text, m->len, &p, &res)) unite(t, &res, &v[0]);
    }
    scan_loops(t, m);

    /* 2. the allocations, in text order */
    for (i = 0; i < m->n_ops; i++) {
        const layout_ttgir_op *op = &m->ops[i];
        const layout_ttgir_type *mt;
        ssa_name res;
        size_t p = op->result_at;
        int id;
        if (op->kind != LAYOUT_TTGIR_LOCAL_ALLOC || !(mt = memdesc_type(op))) continue;
        if (new_alloc(out, k, i, mt, err) != LAYOUT_OK) continue;
        id = op->result_len && parse_name(m->text, m->len, &p, &res) ? name_id(t, &res) : -1;
        w.root[out->n_allocs - 1] = id >= 0 ? find_root(t, id) : -1;
    }

    /* 3. each access op joins the allocation its memdesc comes from */
    for (i = 0; i < k->n_ops; i++) {
        const layout_triton_kernel_op *r = &k->ops[i];
        const layout_ttgir_op *op = &m->ops[r->op];
        const layout_ttgir_type *mt = memdesc_type(op);
        ssa_name v[2];
        int nv = 0, q;
        if (op->kind == LAYOUT_TTGIR_WARP_GROUP_DOT) nv = op_operands(m, op, v);
        else if (access_memdesc(m, op, &v[0])) nv = 1;
        for (q = 0; q < nv; q++) {
            int id = name_id(t, &v[q]), g = -1;
            if (id >= 0) {
                id = find_root(t, id);
                for (j = 0; j < out->n_allocs && g < 0; j++)
                    if (w.root[j] == id) g = j;
            }
            if (op->kind == LAYOUT_TTGIR_WARP_GROUP_DOT) {
                if (g >= 0) out->allocs[g].wgmma_operand = 1;
                continue;
            }
            if (!mt) break;
            if (g >= 0 && !same_tile(m, group_type(k, &out->allocs[g]), mt)) g = -1;
            for (j = 0; j < out->n_allocs && g < 0; j++) /* untraced: the group of the same type */
                if (out->allocs[j].alloc_op < 0 && same_tile(m, group_type(k, &out->allocs[j]), mt)) g = j;
            if (g < 0) {
                if (new_alloc(out, k, r->op, mt, err) != LAYOUT_OK) continue;
                g = out->n_allocs - 1;
                out->allocs[g].alloc_op = -1;
                w.root[g] = -2;
            }
            if (out->allocs[g].n_ops < LAYOUT_TRITON_KERNEL_ALLOC_MAX_OPS) out->allocs[g].ops[out->allocs[g].n_ops++] = i;
            else out->allocs[g].n_ops_dropped++;
        }
    }

    /* 4. the searches */
    sc->k = k;
    for (j = 0; j < out->n_allocs; j++) search_alloc(k, o, out->lds_bytes, out->total_bytes, &out->allocs[j], sc);
    return layout_ok(err);
}
