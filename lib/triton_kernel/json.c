/* The JSON report of an analysed Triton kernel (triton_kernel.h): what
 * `layout triton --json` prints and the Python module reads. */
#include "../core/internal.h"
#include "../core/strbuf.h"
#include "../ttgir/alias.h"
#include "layout/arch.h"
#include "layout/ck_cpp.h"
#include "layout/cute.h"
#include "layout/triton.h"
#include "layout/triton_kernel.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void js_str(layout_strbuf *sb, const char *s, size_t n)
{
    size_t i;
    layout_sb_printf(sb, "\"");
    for (i = 0; i < n && s[i]; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') layout_sb_printf(sb, "\\%c", ch);
        else if (ch < 0x20) layout_sb_printf(sb, "\\u%04x", ch);
        else layout_sb_printf(sb, "%c", ch);
    }
    layout_sb_printf(sb, "\"");
}

static void js_cstr(layout_strbuf *sb, const char *s) { js_str(sb, s, strlen(s)); }

/* A type's encoding as written (`#blocked`) resolved to its alias text. */
static void js_layout(layout_strbuf *sb, const layout_ttgir *m, size_t at, size_t len)
{
    int a = -1;
    if (len > 0 && m->text[at] == '#' && !(len > 5 && memcmp(m->text + at, "#ttg.", 5) == 0))
        a = layout_ttgir_alias_find(m, m->text + at, len);
    if (a >= 0) js_str(sb, m->text + m->aliases[a].text_at, m->aliases[a].text_len);
    else js_str(sb, m->text + at, len);
}

/* The op's name: its kind's, or for an op the model does not know, as the text spells it. */
static void js_opname(layout_strbuf *sb, const layout_triton_kernel *k, const layout_triton_kernel_op *r)
{
    const layout_ttgir_op *o = &k->module->ops[r->op];
    if (r->kind == LAYOUT_TTGIR_OTHER_SHARED && o->name_len) js_str(sb, k->module->text + o->name_at, o->name_len);
    else js_cstr(sb, layout_ttgir_op_name(r->kind));
}

/* One op; shared_attr non-NULL: the shared layout it was lowered under (else the module's). */
static void js_op(layout_strbuf *sb, const layout_triton_kernel *k, const layout_triton_kernel_op *r, char *explain,
                  size_t explain_cap, const char *shared_attr)
{
    const layout_ttgir *m = k->module;
    int j;
    layout_sb_printf(sb, "{\"op\":");
    js_opname(sb, k, r);
    layout_sb_printf(sb, ",\"line\":%d,\"loc\":", r->line);
    js_cstr(sb, r->loc);
    layout_sb_printf(sb, ",\"modelled\":%d", r->modelled);
    if (!r->modelled) {
        layout_sb_printf(sb, ",\"reason\":");
        js_cstr(sb, r->reason);
    }
    layout_sb_printf(sb, ",\"register_layout\":");
    js_layout(sb, m, r->reg_enc_at, r->reg_enc_len);
    layout_sb_printf(sb, ",\"shared_layout\":");
    if (shared_attr) js_cstr(sb, shared_attr);
    else js_layout(sb, m, r->shared_enc_at, r->shared_enc_len);
    if (!r->modelled) {
        layout_sb_printf(sb, "}");
        return;
    }
    layout_sb_printf(sb,
                     ",\"direction\":\"%s\",\"vector\":{\"elements\":%d,\"bits\":%d,\"elem_bits\":%d},"
                     "\"accesses\":%d,\"instructions\":{",
                     layout_direction_name(r->direction), r->vec_elems, r->vec_bits, r->elem_bits, r->n_accesses);
    for (j = 0; j < r->n_counts; j++) {
        layout_sb_printf(sb, "%s", j ? "," : "");
        js_cstr(sb, r->counts[j].mnemonic);
        layout_sb_printf(sb, ":%" PRId64, r->counts[j].count);
    }
    /* an op lowered with a ceiling (the search's) has no CTA sums: every warp as warp 0 */
    int64_t nw = k->module && k->module->num_warps > 0 ? k->module->num_warps : 1;
    int64_t cta_t = r->cta_total_cycles >= 0 ? r->cta_total_cycles : r->total_cycles * nw;
    int64_t cta_x = r->cta_extra_cycles >= 0 ? r->cta_extra_cycles : r->extra_cycles * nw;
    if (k->is_nvidia)
        layout_sb_printf(sb,
                         "},\"cost\":{\"wavefronts\":%" PRId64 ",\"bank_conflicts\":%" PRId64 ",\"conflicted\":%d,"
                         "\"cta_wavefronts\":%" PRId64 ",\"cta_bank_conflicts\":%" PRId64,
                         r->total_cycles, r->extra_cycles, r->n_conflicted, cta_t, cta_x);
    else
        layout_sb_printf(sb,
                         "},\"cost\":{\"extra_cycles\":%" PRId64 ",\"total_cycles\":%" PRId64 ",\"conflicted\":%d,"
                         "\"cta_extra_cycles\":%" PRId64 ",\"cta_total_cycles\":%" PRId64,
                         r->extra_cycles, r->total_cycles, r->n_conflicted, cta_x, cta_t);
    if (r->cta_atomic_total_cycles > 0) /* of the CTA sums, the shared atomics' (ncu: op_shared_atom) */
        layout_sb_printf(sb, k->is_nvidia ? ",\"cta_atomic_wavefronts\":%" PRId64 ",\"cta_atomic_bank_conflicts\":%" PRId64
                                           : ",\"cta_atomic_total_cycles\":%" PRId64 ",\"cta_atomic_extra_cycles\":%" PRId64,
                         r->cta_atomic_total_cycles, r->cta_atomic_extra_cycles);
    layout_sb_printf(sb, "}");
    if (r->sunk_warps > 0) /* ptxas: the last load runs on these warps only (sink.c) */
        layout_sb_printf(sb, ",\"sunk_last_load_warps\":%d,\"sunk_last_load_lanes\":%d", r->sunk_warps,
                         r->sunk_lanes);
    if (r->ptxas_joined_loads > 0 || r->ptxas_joined_stores > 0) /* ptxas: fewer, wider LDS / STS (ptxas_join.c) */
        layout_sb_printf(sb, ",\"ptxas_joined\":{\"ld\":%d,\"st\":%d}", r->ptxas_joined_loads, r->ptxas_joined_stores);
    if (r->ptxas_dummy_loads > 0) /* ptxas: @!PT LDS RZ, [RZ] beside cp.async (ptxas_dummy.c) */
        layout_sb_printf(sb, ",\"ptxas_dummy_loads\":%d", r->ptxas_dummy_loads);
    {
        const char *note;
        layout_confidence c = layout_triton_kernel_op_confidence(k, r, &note);
        layout_sb_printf(sb, ",\"confidence\":\"%s\"", layout_confidence_name(c));
        if (note[0]) {
            layout_sb_printf(sb, ",\"confidence_note\":");
            js_cstr(sb, note);
        }
    }
    layout_sb_printf(sb, ",\"worst\":{\"access\":%d,\"extra\":%d,\"nway\":%d,\"explain\":", r->worst_access,
                     r->worst_extra, r->worst_nway);
    if (layout_triton_kernel_op_explain(k, r, explain, explain_cap, NULL) != LAYOUT_OK) explain[0] = 0;
    js_cstr(sb, explain);
    layout_sb_printf(sb, "}}");
}

layout_status layout_triton_kernel_attr_form(const char *attr, int rank, const int64_t *shape, layout_triton_form form,
                                             char *buf, size_t cap, layout_error *err)
{
    static const char fn[] = "layout_triton_kernel_attr_form";
    layout_triton_attr a;
    layout_descriptor d;
    size_t where = 0, need = 0;
    layout_status st;
    if (!attr || !shape || !buf || !cap) return layout_fail(err, LAYOUT_ERR_NULL, "%s: NULL argument", fn);
    if (rank < 2 || rank > 3) return layout_fail(err, LAYOUT_ERR_ARG, "%s: rank %d (2 or 3)", fn, rank);
    buf[0] = '\0';
    if (form == LAYOUT_TRITON_FORM_GLUON) {
        if ((st = layout_triton_from_text(attr, &a, &where, err)) != LAYOUT_OK) return st;
        if ((st = layout_triton_to_gluon(&a, buf, cap, &need, err)) != LAYOUT_OK) return st;
        if (need >= cap) return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: %zu bytes needed", fn, need + 1);
        return layout_ok(err);
    }
    if ((st = layout_desc_from_triton(attr, 2, shape + rank - 2, &d, &where, err)) != LAYOUT_OK) return st;
    if (form == LAYOUT_TRITON_FORM_CUTE) return layout_desc_to_cute(&d, buf, cap, err);
    if (form != LAYOUT_TRITON_FORM_CK_TILE) return layout_fail(err, LAYOUT_ERR_ARG, "%s: form %d", fn, (int)form);
    if ((st = layout_desc_to_ck_cpp(&d, buf, cap, &need, err)) != LAYOUT_OK) return st;
    if (need >= cap) return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: %zu bytes needed", fn, need + 1);
    return layout_ok(err);
}

static void js_form(layout_strbuf *sb, const char *key, const layout_triton_kernel_alloc *a, layout_triton_form f)
{
    char form[2048];
    if (layout_triton_kernel_attr_form(a->attr, a->rank, a->shape, f, form, sizeof form, NULL) != LAYOUT_OK) return;
    layout_sb_printf(sb, ",\"%s\":", key);
    js_cstr(sb, form);
}

/* Each writer's store order, now and under the suggestion. */
static void js_store_order(layout_strbuf *sb, const layout_triton_kernel *k, const layout_triton_kernel_alloc *a)
{
    int j, n = 0;
    layout_sb_printf(sb, ",\"store_order\":[");
    for (j = 0; j < a->n_ops; j++) {
        const layout_triton_kernel_op *r = &k->ops[a->ops[j]];
        if (!r->modelled || r->direction != LAYOUT_WRITE) continue;
        layout_sb_printf(sb, "%s{\"op\":%d,\"line\":%d,\"current_in_register_order\":%s,"
                             "\"suggested_in_register_order\":",
                         n++ ? "," : "", a->ops[j], r->line, r->stores_out_of_register_order ? "false" : "true");
        layout_sb_printf(sb, "%s,\"changes_store_order\":%s}",
                         a->store_order[j] < 0 ? "null" : a->store_order[j] ? "false" : "true",
                         a->store_order[j] >= 0 && a->store_order[j] != r->stores_out_of_register_order ? "true"
                                                                                                       : "false");
    }
    layout_sb_printf(sb, "],\"store_order_changed\":%d,\"order_kept\":%d", a->store_order_changed, a->order_kept);
}

static void js_suggestion(layout_strbuf *sb, const layout_triton_kernel *k, const layout_triton_kernel_alloc *a,
                          int index)
{
    int j;
    layout_sb_printf(sb, "{\"alloc\":%d,\"line\":%d,\"loc\":", index, a->line);
    js_cstr(sb, a->loc);
    layout_sb_printf(sb, ",\"shape\":[");
    for (j = 0; j < a->rank && j < 3; j++) layout_sb_printf(sb, "%s%" PRId64, j ? "," : "", a->shape[j]);
    layout_sb_printf(sb, "],\"elem_bits\":%d,\"ops\":[", a->elem_bits);
    for (j = 0; j < a->n_ops; j++) layout_sb_printf(sb, "%s%d", j ? "," : "", a->ops[j]);
    layout_sb_printf(sb, "],\"current\":");
    js_cstr(sb, a->current);
    layout_sb_printf(sb, ",\"current_cost\":%" PRId64 ",\"current_extra\":%" PRId64 ",\"current_bytes\":%" PRId64
                         ",\"attr\":",
                     a->current_cost, a->current_extra, a->current_bytes);
    js_cstr(sb, a->attr);
    layout_sb_printf(sb,
                     ",\"cost\":%" PRId64 ",\"extra\":%" PRId64 ",\"bytes\":%" PRId64 ",\"budget_bytes\":%" PRId64
                     ",\"improved\":%d,\"searched\":%d,\"scored\":%" PRId64 ",\"note\":",
                     a->cost, a->extra, a->bytes, a->budget_bytes, a->improved, a->searched, a->scored);
    js_cstr(sb, a->note);
    layout_sb_printf(sb, ",\"rule\":");
    js_cstr(sb, a->rule);
    layout_sb_printf(sb, ",\"rejected\":%" PRId64, a->rejected);
    js_store_order(sb, k, a);
    js_form(sb, "gluon", a, LAYOUT_TRITON_FORM_GLUON);
    js_form(sb, "cute", a, LAYOUT_TRITON_FORM_CUTE);
    js_form(sb, "ck_tile", a, LAYOUT_TRITON_FORM_CK_TILE);
    layout_sb_printf(sb, "}");
}

layout_status layout_triton_kernel_json(const layout_triton_kernel *k, const layout_triton_kernel_suggestions *sugg,
                                        char *buf, size_t cap, size_t *written, layout_error *err)
{
    static const char name[] = "layout_triton_kernel_json";
    char explain[4096];
    layout_strbuf sb;
    const layout_ttgir *m;
    int i, first = 1;
    if (!k || !k->module || (!buf && cap)) return layout_fail(err, LAYOUT_ERR_NULL, "%s: NULL argument", name);
    m = k->module;
    layout_sb_init(&sb, buf, cap);
    layout_sb_printf(&sb, "{\"target\":");
    js_cstr(&sb, m->target);
    layout_sb_printf(&sb, ",\"arch\":");
    js_cstr(&sb, k->arch.name);
    layout_sb_printf(&sb, ",\"num_warps\":%d,\"ops\":[", m->num_warps);
    for (i = 0; i < k->n_ops; i++) {
        layout_sb_printf(&sb, "%s", i ? "," : "");
        js_op(&sb, k, &k->ops[i], explain, sizeof explain, NULL);
    }
    layout_sb_printf(&sb, "],\"per_warp_total\":{");
    for (i = 0; i < k->n_per_warp; i++) {
        layout_sb_printf(&sb, "%s", i ? "," : "");
        js_cstr(&sb, k->per_warp_total[i].mnemonic);
        layout_sb_printf(&sb, ":%" PRId64, k->per_warp_total[i].count);
    }
    layout_sb_printf(&sb, "},\"not_modelled\":[");
    for (i = 0; i < k->n_ops; i++) {
        const layout_triton_kernel_op *r = &k->ops[i];
        if (r->modelled) continue;
        layout_sb_printf(&sb, "%s{\"loc\":", first ? "" : ",");
        first = 0;
        js_cstr(&sb, r->loc);
        layout_sb_printf(&sb, ",\"line\":%d,\"op\":", r->line);
        js_opname(&sb, k, r);
        layout_sb_printf(&sb, ",\"reason\":");
        js_cstr(&sb, r->reason);
        layout_sb_printf(&sb, "}");
    }
    layout_sb_printf(&sb,
                     "],\"totals\":{\"ops\":%d,\"modelled\":%d,\"accesses\":%" PRId64 ",\"extra_cycles\":%" PRId64
                     ",\"total_cycles\":%" PRId64 ",\"cta_extra_cycles\":%" PRId64 ",\"cta_total_cycles\":%" PRId64 "}",
                     k->n_ops, k->n_modelled, k->n_accesses, k->extra_cycles, k->total_cycles, k->cta_extra_cycles,
                     k->cta_total_cycles);
    if (sugg) {
        layout_sb_printf(&sb,
                         ",\"lds_bytes\":%" PRId64 ",\"lds_bound\":%" PRId64 ",\"lds_bound_after\":%" PRId64
                         ",\"suggestions_dropped\":%d,\"suggestions\":[",
                         sugg->lds_bytes, sugg->lds_bound, sugg->lds_bound_after, sugg->n_dropped);
        for (i = 0; i < sugg->n_allocs; i++) {
            layout_sb_printf(&sb, "%s", i ? "," : "");
            js_suggestion(&sb, k, &sugg->allocs[i], i);
        }
        layout_sb_printf(&sb, "]");
    }
    layout_sb_printf(&sb, "}");
    if (written) *written = sb.len;
    if (sb.len >= cap)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: the report needs %zu bytes, the buffer has %zu", name,
                           sb.len + 1, cap);
    return layout_ok(err);
}

layout_status layout_triton_kernel_report_json(const layout_ttgir *m, const char *arch_name_or_NULL,
                                               layout_triton_kernel *work, char *buf, size_t cap, layout_error *err)
{
    static const char name[] = "layout_triton_kernel_report_json";
    layout_triton_kernel_suggestions sugg; /* about 20 KiB */
    layout_arch arch;
    layout_status st;
    if (!m || !work || (!buf && cap)) return layout_fail(err, LAYOUT_ERR_NULL, "%s: NULL argument", name);
    if (arch_name_or_NULL && layout_arch_preset(arch_name_or_NULL, &arch, NULL) != LAYOUT_OK)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: no arch preset \"%s\"", name, arch_name_or_NULL);
    if ((st = layout_triton_kernel_analyze(m, arch_name_or_NULL ? &arch : NULL, work, err)) != LAYOUT_OK) return st;
    if ((st = layout_triton_kernel_suggest(work, NULL, &sugg, err)) != LAYOUT_OK) return st;
    return layout_triton_kernel_json(work, &sugg, buf, cap, NULL, err);
}

/* One ranked entry: its costs, and each modelled op of the allocation lowered under it. */
static void js_ranked_entry(layout_strbuf *sb, const layout_triton_kernel *k, const layout_triton_kernel_alloc *a,
                            const layout_triton_kernel_ranked_entry *e, layout_triton_kernel_op *rep, char *explain,
                            size_t explain_cap)
{
    char form[512];
    int j, first = 1;
    layout_sb_printf(sb, "{\"attr\":");
    js_cstr(sb, e->attr);
    if (layout_triton_kernel_attr_form(e->attr, a->rank, a->shape, LAYOUT_TRITON_FORM_GLUON, form, sizeof form,
                                       NULL) == LAYOUT_OK) {
        layout_sb_printf(sb, ",\"gluon\":");
        js_cstr(sb, form);
    }
    layout_sb_printf(sb,
                     ",\"cost\":%" PRId64 ",\"extra\":%" PRId64 ",\"bytes\":%" PRId64 ",\"write\":{\"cost\":%" PRId64
                     ",\"extra\":%" PRId64 "},\"read\":{\"cost\":%" PRId64 ",\"extra\":%" PRId64 "},\"ops\":[",
                     e->cost, e->extra, e->bytes, e->write_cost, e->write_extra, e->read_cost, e->read_extra);
    for (j = 0; j < a->n_ops; j++) {
        if (!k->ops[a->ops[j]].modelled) continue;
        if (layout_triton_kernel_op_cost(k, a->ops[j], e->attr, strlen(e->attr), rep, NULL) != LAYOUT_OK) continue;
        layout_sb_printf(sb, "%s", first ? "" : ",");
        first = 0;
        js_op(sb, k, rep, explain, explain_cap, e->attr);
    }
    layout_sb_printf(sb, "]}");
}

layout_status layout_triton_kernel_ranked_json(const layout_ttgir *m, const char *arch_name_or_NULL, int alloc,
                                               int top_k, unsigned families, layout_triton_kernel *work, char *buf,
                                               size_t cap, layout_error *err)
{
    static const char name[] = "layout_triton_kernel_ranked_json";
    layout_triton_kernel_suggest_options o;
    struct {
        layout_triton_kernel_suggestions sugg; /* about 20 KiB */
        layout_triton_kernel_ranked ranked;    /* about 5 KiB */
        layout_triton_kernel_op rep;
        char explain[4096];
    } w;
    const layout_triton_kernel_alloc *a;
    layout_strbuf sb;
    layout_arch arch;
    layout_status st;
    int i;
    if (!m || !work || (!buf && cap)) return layout_fail(err, LAYOUT_ERR_NULL, "%s: NULL argument", name);
    if (arch_name_or_NULL && layout_arch_preset(arch_name_or_NULL, &arch, NULL) != LAYOUT_OK)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: no arch preset \"%s\"", name, arch_name_or_NULL);
    if ((st = layout_triton_kernel_analyze(m, arch_name_or_NULL ? &arch : NULL, work, err)) != LAYOUT_OK) return st;
    memset(&o, 0, sizeof o);
    o.families = families;
    if ((st = layout_triton_kernel_suggest(work, &o, &w.sugg, err)) != LAYOUT_OK) return st;
    if (alloc < 0) {
        for (i = 0; i < w.sugg.n_allocs && alloc < 0; i++)
            if (w.sugg.allocs[i].searched) alloc = i;
        if (alloc < 0) {
            const char *note = "the module has no shared allocation";
            for (i = 0; i < w.sugg.n_allocs; i++)
                if (w.sugg.allocs[i].n_ops > 0 && w.sugg.allocs[i].note[0]) {
                    note = w.sugg.allocs[i].note;
                    break;
                }
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: no allocation was searched: %s", name, note);
        }
    }
    if ((st = layout_triton_kernel_suggest_ranked(work, &o, &w.sugg, alloc, top_k, &w.ranked, err)) != LAYOUT_OK)
        return st;
    a = &w.sugg.allocs[alloc];
    layout_sb_init(&sb, buf, cap);
    layout_sb_printf(&sb, "{\"target\":");
    js_cstr(&sb, m->target);
    layout_sb_printf(&sb, ",\"arch\":");
    js_cstr(&sb, work->arch.name);
    layout_sb_printf(&sb, ",\"alloc\":%d,\"shape\":[", alloc);
    for (i = 0; i < a->rank && i < 3; i++) layout_sb_printf(&sb, "%s%" PRId64, i ? "," : "", a->shape[i]);
    layout_sb_printf(&sb, "],\"elem_bits\":%d,\"current\":", a->elem_bits);
    js_cstr(&sb, a->current);
    layout_sb_printf(&sb,
                     ",\"current_cost\":%" PRId64 ",\"current_bytes\":%" PRId64 ",\"budget_bytes\":%" PRId64
                     ",\"scored\":%" PRId64 ",\"rejected\":%" PRId64 ",\"ranked\":[",
                     a->current_cost, a->current_bytes, w.ranked.budget_bytes, w.ranked.scored, w.ranked.rejected);
    for (i = 0; i < w.ranked.n; i++) {
        layout_sb_printf(&sb, "%s", i ? "," : "");
        js_ranked_entry(&sb, work, a, &w.ranked.top[i], &w.rep, w.explain, sizeof w.explain);
    }
    layout_sb_printf(&sb, "]}");
    if (sb.len >= cap)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: the list needs %zu bytes, the buffer has %zu", name,
                           sb.len + 1, cap);
    return layout_ok(err);
}
