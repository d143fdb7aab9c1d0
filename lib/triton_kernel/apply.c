/* `layout triton --apply` (triton_kernel.h, layout_triton_kernel_apply):
 * the module text with every improving suggestion's attribute written in,
 * type-consistent.  A memdesc type is the same text wherever its value
 * goes (views that keep the encoding, scf.for iter_args and results,
 * yields, dot waits), so an allocation's types are the type texts its ops
 * print; the apply either redefines the alias when every type using it
 * belongs to allocations given the same attribute, or writes a fresh alias
 * `#shared_llN` into exactly the allocation's type texts. */
#include "../core/internal.h"
#include "../core/strbuf.h"
#include "layout/arch.h"
#include "layout/triton.h"
#include "layout/triton_kernel.h"
#include "rules_internal.h"
#include "web_internal.h"

#include <stdio.h>
#include <string.h>

#define FN "layout_triton_kernel_apply"
#define MAX_SPANS 24

typedef struct span {
    size_t at, len;
} span;

typedef struct apply_work {
    layout_tk_web web;
    int root[LAYOUT_TRITON_KERNEL_MAX_ALLOCS];
    int n_spans[LAYOUT_TRITON_KERNEL_MAX_ALLOCS];
    span spans[LAYOUT_TRITON_KERNEL_MAX_ALLOCS][MAX_SPANS];
    int fresh[LAYOUT_TRITON_KERNEL_MAX_ALLOCS]; /* fresh alias number, -1 none */
    int redefine[LAYOUT_TTGIR_MAX_ALIASES];     /* allocation whose attribute an alias gets, -1 none */
    layout_triton_attr attr;
} apply_work;

/* The memdesc type text around t's encoding: `!ttg.memdesc<...>`. */
static int type_span(const layout_ttgir *m, const layout_ttgir_type *t, span *out)
{
    static const char head[] = "!ttg.memdesc<";
    size_t p = t->enc_at, q, hl = sizeof head - 1;
    int depth = 0;
    if (!t->is_memdesc || !t->enc_len) return 0;
    while (p > 0 && !(p >= hl && memcmp(m->text + p - hl, head, hl) == 0) && m->text[p] != '\n') p--;
    if (p < hl || memcmp(m->text + p - hl, head, hl) != 0) return 0;
    p -= hl;
    for (q = p + hl - 1; q < m->len && m->text[q] != '\n'; q++) {
        if (m->text[q] == '<') depth++;
        else if (m->text[q] == '>' && --depth == 0) break;
    }
    if (q >= m->len || m->text[q] != '>') return 0;
    out->at = p;
    out->len = q + 1 - p;
    return 1;
}

static int span_eq(const char *s, span a, span b) { return a.len == b.len && memcmp(s + a.at, s + b.at, a.len) == 0; }

static void add_span(apply_work *w, const layout_ttgir *m, int g, const layout_ttgir_type *t)
{
    span sp;
    int i;
    if (g < 0 || !type_span(m, t, &sp)) return;
    for (i = 0; i < w->n_spans[g]; i++)
        if (span_eq(m->text, w->spans[g][i], sp)) return;
    if (w->n_spans[g] < MAX_SPANS) w->spans[g][w->n_spans[g]++] = sp;
}

static int alloc_of_root(const apply_work *w, int n, int root)
{
    int j;
    if (root < 0) return -1;
    for (j = 0; j < n; j++)
        if (w->root[j] == root) return j;
    return -1;
}

/* The type texts of every allocation: its local_alloc, its views, its
 * accesses, its dot and dealloc operands. */
static void collect_spans(apply_work *w, const layout_triton_kernel *k, const layout_triton_kernel_suggestions *s)
{
    const layout_ttgir *m = k->module;
    int i, j, q;
    for (j = 0; j < s->n_allocs; j++) {
        layout_tk_name res;
        const layout_triton_kernel_alloc *a = &s->allocs[j];
        w->n_spans[j] = 0;
        w->root[j] = -1;
        if (a->alloc_op >= 0 && layout_tk_op_result(m, &m->ops[a->alloc_op], &res))
            w->root[j] = layout_tk_web_root(&w->web, &res);
    }
    for (i = 0; i < m->n_ops; i++) {
        const layout_ttgir_op *op = &m->ops[i];
        layout_tk_name v[2];
        int g = -1, n;
        switch (op->kind) {
        case LAYOUT_TTGIR_LOCAL_ALLOC:
            for (j = 0; j < s->n_allocs; j++)
                if (s->allocs[j].alloc_op == i) g = j;
            for (q = 0; q < op->n_dst; q++) add_span(w, m, g, &op->dst[q]);
            break;
        case LAYOUT_TTGIR_WARP_GROUP_DOT:
            n = layout_tk_op_uses(m, op, v, 2);
            for (q = 0; q < n && q < op->n_src; q++)
                add_span(w, m, alloc_of_root(w, s->n_allocs, layout_tk_web_root(&w->web, &v[q])), &op->src[q]);
            break;
        default:
            if (op->kind == LAYOUT_TTGIR_MEMDESC_VIEW || op->kind == LAYOUT_TTGIR_LOCAL_DEALLOC) {
                if (layout_tk_op_uses(m, op, v, 1) < 1) break;
            } else if (!layout_tk_access_memdesc(m, op, &v[0])) {
                break;
            }
            g = alloc_of_root(w, s->n_allocs, layout_tk_web_root(&w->web, &v[0]));
            for (q = 0; q < op->n_src; q++) add_span(w, m, g, &op->src[q]);
            for (q = 0; q < op->n_dst; q++) add_span(w, m, g, &op->dst[q]);
            break;
        }
    }
}

/* Is the type at sp one of allocation g's? */
static int owns(const apply_work *w, const char *text, int g, span sp)
{
    int i;
    for (i = 0; i < w->n_spans[g]; i++)
        if (span_eq(text, w->spans[g][i], sp)) return 1;
    return 0;
}

/* The attribute allocation j ends with (resolved text). */
static const char *final_attr(const layout_triton_kernel_alloc *a) { return a->improved ? a->attr : a->current; }

/* Position of the encoding token enc in the type text at sp (after its
 * first ", "), or (size_t)-1. */
static size_t enc_in_type(const char *text, span sp, const char *enc, size_t elen)
{
    size_t p;
    for (p = sp.at; p + elen < sp.at + sp.len; p++)
        if (text[p] == ',' && p + 2 + elen <= sp.at + sp.len && memcmp(text + p + 2, enc, elen) == 0 &&
            (text[p + 2 + elen] == ',' || text[p + 2 + elen] == '>'))
            return p + 2;
    return (size_t)-1;
}

/* Next memdesc type in the text from *p: 1 and its span. */
static int next_type(const layout_ttgir *m, size_t *p, span *out)
{
    static const char head[] = "!ttg.memdesc<";
    const size_t hl = sizeof head - 1;
    size_t i, q;
    for (i = *p; i + hl <= m->len; i++) {
        int depth = 0;
        if (m->text[i] != '!' || memcmp(m->text + i, head, hl) != 0) continue;
        for (q = i + hl - 1; q < m->len && m->text[q] != '\n'; q++) {
            if (m->text[q] == '<') depth++;
            else if (m->text[q] == '>' && --depth == 0) break;
        }
        if (q < m->len && m->text[q] == '>') {
            out->at = i;
            out->len = q + 1 - i;
            *p = q + 1;
            return 1;
        }
    }
    *p = m->len;
    return 0;
}

static void set_res(layout_triton_kernel_apply_result *r, int j, int how, const char *alias, const char *note)
{
    r->how[j] = how;
    snprintf(r->alias[j], sizeof r->alias[j], "%s", alias ? alias : "");
    snprintf(r->note[j], sizeof r->note[j], "%s", note ? note : "");
    if (how > 0) r->n_applied++;
    if (how < 0) r->n_skipped++;
}

/* Decide how allocation j's attribute is written: 1 redefine its alias,
 * 2 a fresh alias, -1 not applied (why). */
static int decide(apply_work *w, const layout_triton_kernel *k, const layout_triton_kernel_suggestions *s, int j,
                  char *why, size_t cap)
{
    const layout_ttgir *m = k->module;
    const layout_triton_kernel_alloc *a = &s->allocs[j];
    const char *enc = m->text + a->enc_at;
    size_t elen = a->enc_len, p = 0, where = 0;
    int64_t tile[2];
    span t;
    int exclusive = 1, g;
    layout_tk_rule_id rid;
    tile[0] = a->shape[a->rank - 2];
    tile[1] = a->shape[a->rank - 1];
    if (layout_triton_from_text(a->attr, &w->attr, &where, NULL) != LAYOUT_OK) {
        snprintf(why, cap, "the suggested attribute does not parse");
        return -1;
    }
    {
        char d[96];
        if ((rid = layout_tk_rule_check(&w->attr, a->elem_bits, tile, NULL, d, sizeof d)) != LAYOUT_TK_RULE_NONE) {
            layout_tk_rule_note(rid, d, why, cap);
            return -1;
        }
    }
    if (!elen || w->n_spans[j] == 0) {
        snprintf(why, cap, "the allocation's memdesc type was not found in the text");
        return -1;
    }
    while (next_type(m, &p, &t)) {
        int mine, other_same = 0, other_diff = 0;
        if (enc_in_type(m->text, t, enc, elen) == (size_t)-1) continue;
        mine = owns(w, m->text, j, t);
        for (g = 0; g < s->n_allocs; g++) {
            if (g == j || !owns(w, m->text, g, t)) continue;
            if (strcmp(final_attr(&s->allocs[g]), a->attr) == 0) other_same = 1;
            else other_diff = 1;
        }
        if (mine && other_diff) {
            snprintf(why, cap, "another allocation, given another attribute, has the same memdesc type %.*s",
                     (int)(t.len < 120 ? t.len : 120), m->text + t.at);
            return -1;
        }
        if (!mine && !other_same) exclusive = 0;
        if (!mine && other_diff) exclusive = 0;
    }
    if (enc[0] == '#' && !(elen > 5 && memcmp(enc, "#ttg.", 5) == 0) && exclusive) return 1;
    return 2;
}

layout_status layout_triton_kernel_apply(const layout_triton_kernel *k, const layout_triton_kernel_suggestions *s,
                                         char *buf, size_t cap, size_t *written, layout_triton_kernel_apply_result *res,
                                         layout_error *err)
{
    apply_work frame;
    apply_work *w = &frame;
    const layout_ttgir *m;
    layout_strbuf sb;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP], name[32];
    size_t p, head_end;
    span t;
    int j, x, n_fresh = 0;
    if (!k || !s || !res || !k->module || (!buf && cap)) return layout_fail(err, LAYOUT_ERR_NULL, FN ": NULL argument");
    m = k->module;
    memset(w, 0, sizeof *w);
    memset(res, 0, sizeof *res);
    layout_tk_web_build(&w->web, m);
    collect_spans(w, k, s);
    for (x = 0; x < LAYOUT_TTGIR_MAX_ALIASES; x++) w->redefine[x] = -1;
    for (j = 0; j < s->n_allocs && j < LAYOUT_TRITON_KERNEL_MAX_ALLOCS; j++) {
        const layout_triton_kernel_alloc *a = &s->allocs[j];
        int how;
        w->fresh[j] = -1;
        if (!a->improved || a->alloc_op < 0) continue;
        how = decide(w, k, s, j, why, sizeof why);
        if (how < 0) {
            set_res(res, j, -1, NULL, why);
            continue;
        }
        if (how == 1) {
            for (x = 0; x < m->n_aliases; x++)
                if (m->aliases[x].name_len == a->enc_len &&
                    memcmp(m->text + m->aliases[x].name_at, m->text + a->enc_at, a->enc_len) == 0)
                    break;
            if (x == m->n_aliases) how = 2;
            else {
                w->redefine[x] = j;
                snprintf(name, sizeof name, "%.*s", (int)(a->enc_len < 31 ? a->enc_len : 31), m->text + a->enc_at);
                set_res(res, j, 1, name, "alias redefined");
                continue;
            }
        }
        for (;;) { /* a fresh alias name no alias of the module has */
            int clash = 0;
            snprintf(name, sizeof name, "#shared_ll%d", n_fresh);
            for (x = 0; x < m->n_aliases; x++)
                if (m->aliases[x].name_len == strlen(name) && memcmp(m->text + m->aliases[x].name_at, name, strlen(name)) == 0)
                    clash = 1;
            if (!clash) break;
            n_fresh++;
        }
        w->fresh[j] = n_fresh++;
        set_res(res, j, 2, name, "fresh alias");
    }

    /* write: the alias lines (redefined ones replaced, fresh ones after the
     * last), then the body with the fresh aliases in the allocations' types */
    layout_sb_init(&sb, buf, cap);
    head_end = 0;
    if (m->n_aliases > 0) {
        const layout_ttgir_alias *last = &m->aliases[m->n_aliases - 1];
        head_end = last->text_at + last->text_len;
        while (head_end < m->len && m->text[head_end] != '\n') head_end++;
        if (head_end < m->len) head_end++;
    }
    p = 0;
    for (x = 0; x < m->n_aliases; x++) {
        if (w->redefine[x] < 0) continue;
        layout_sb_printf(&sb, "%.*s%s", (int)(m->aliases[x].text_at - p), m->text + p, s->allocs[w->redefine[x]].attr);
        p = m->aliases[x].text_at + m->aliases[x].text_len;
    }
    layout_sb_printf(&sb, "%.*s", (int)(head_end - p), m->text + p);
    p = head_end;
    for (j = 0; j < s->n_allocs; j++)
        if (w->fresh[j] >= 0) layout_sb_printf(&sb, "%s = %s\n", res->alias[j], s->allocs[j].attr);
    {
        size_t q = p;
        while (next_type(m, &q, &t)) {
            for (j = 0; j < s->n_allocs; j++) {
                size_t e;
                if (w->fresh[j] < 0 || !owns(w, m->text, j, t)) continue;
                e = enc_in_type(m->text, t, m->text + s->allocs[j].enc_at, s->allocs[j].enc_len);
                if (e == (size_t)-1) continue;
                layout_sb_printf(&sb, "%.*s%s", (int)(e - p), m->text + p, res->alias[j]);
                p = e + s->allocs[j].enc_len;
                break;
            }
        }
    }
    layout_sb_printf(&sb, "%.*s", (int)(m->len - p), m->text + p);
    if (written) *written = sb.len;
    if (sb.len >= cap) return layout_fail(err, LAYOUT_ERR_BUFFER, FN ": %zu bytes needed", sb.len + 1);
    return layout_ok(err);
}

layout_status layout_triton_kernel_apply_text(const layout_ttgir *m, const char *arch_name_or_NULL,
                                              layout_triton_kernel *work, char *buf, size_t cap, size_t *written,
                                              layout_error *err)
{
    static const char name[] = "layout_triton_kernel_apply_text";
    layout_triton_kernel_suggestions sugg;
    layout_triton_kernel_apply_result res;
    layout_arch arch;
    layout_status st;
    if (!m || !work || (!buf && cap)) return layout_fail(err, LAYOUT_ERR_NULL, "%s: NULL argument", name);
    if (arch_name_or_NULL && layout_arch_preset(arch_name_or_NULL, &arch, NULL) != LAYOUT_OK)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: no arch preset \"%s\"", name, arch_name_or_NULL);
    if ((st = layout_triton_kernel_analyze(m, arch_name_or_NULL ? &arch : NULL, work, err)) != LAYOUT_OK) return st;
    if ((st = layout_triton_kernel_suggest(work, NULL, &sugg, err)) != LAYOUT_OK) return st;
    return layout_triton_kernel_apply(work, &sugg, buf, cap, written, &res, err);
}
