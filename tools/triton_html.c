/* `layout triton --html FILE`: one self-contained page (inline CSS, a few
 * lines of plain JavaScript for the tabs, no network) with a tab per
 * shared-memory op: its layouts, instructions, cost, the worst instruction's
 * lane -> bank picture and `layout check`'s explanation, and the suggestion
 * for the allocation it touches.  Every number comes from the library. */
#include "tool.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int triton_html_write(const char *path, const layout_triton_kernel *k, const layout_triton_kernel_suggestions *s);

static void html_text(FILE *f, const char *t, size_t n)
{
    size_t i;
    for (i = 0; i < n && t[i]; i++) {
        switch (t[i]) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(t[i], f);
        }
    }
}

static void html_cstr(FILE *f, const char *t) { html_text(f, t, strlen(t)); }

/* The layout text of an encoding as written, its alias resolved. */
static void html_layout(FILE *f, const layout_ttgir *m, size_t at, size_t len)
{
    int a;
    if (len > 0 && m->text[at] == '#' && !(len > 5 && memcmp(m->text + at, "#ttg.", 5) == 0))
        for (a = 0; a < m->n_aliases; a++)
            if (m->aliases[a].name_len == len && memcmp(m->text + m->aliases[a].name_at, m->text + at, len) == 0) {
                html_text(f, m->text + at, len);
                fputs(" = ", f);
                html_text(f, m->text + m->aliases[a].text_at, m->aliases[a].text_len);
                return;
            }
    html_text(f, m->text + at, len);
}

/* Lanes x banks of the worst instruction, lanes in the arch rule's groups
 * (layout_instr_explain, as `layout check` groups them): a cell per bank
 * word a lane touches, red where that bank holds more than one distinct
 * word within the lane's group (the group's conflict). */
static void lane_picture(FILE *f, const layout_arch *arch, const layout_instr *in)
{
    static layout_cost_detail dt;
    int nb = arch->n_banks, bw = arch->bank_width_bytes, l, b, g;
    if (layout_instr_explain(arch, in, &dt, NULL) != LAYOUT_OK) return;
    fprintf(f, "<table class=\"pic\"><tr><th>group</th><th>lane</th><th>byte address</th>");
    for (b = 0; b < nb; b++) fprintf(f, "<th>%d</th>", b);
    fputs("</tr>\n", f);
    for (g = 0; g < dt.cost.n_groups; g++) {
        uint32_t words[LAYOUT_MAX_BANKS][4];
        int n_words[LAYOUT_MAX_BANKS];
        memset(n_words, 0, sizeof n_words);
        for (l = 0; l < in->n_lanes; l++) {
            uint32_t w;
            if (!((dt.groups[g].active >> l) & 1u)) continue;
            for (w = in->addr_bytes[l] / (uint32_t)bw;
                 w < (in->addr_bytes[l] + (uint32_t)in->width_bytes + (uint32_t)bw - 1) / (uint32_t)bw; w++) {
                int bank = (int)(w % (uint32_t)nb), j, dup = 0;
                for (j = 0; j < n_words[bank]; j++) dup |= words[bank][j] == w;
                if (!dup && n_words[bank] < 4) words[bank][n_words[bank]++] = w;
            }
        }
        for (l = 0; l < in->n_lanes; l++) {
            uint32_t w0, w1;
            if (!((dt.groups[g].active >> l) & 1u)) continue;
            w0 = in->addr_bytes[l] / (uint32_t)bw;
            w1 = (in->addr_bytes[l] + (uint32_t)in->width_bytes + (uint32_t)bw - 1) / (uint32_t)bw;
            fprintf(f, "<tr><td>%d (%d-way)</td><td>%d</td><td>%" PRIu32 "</td>", g, dt.groups[g].nway, l,
                    in->addr_bytes[l]);
            for (b = 0; b < nb; b++) {
                uint32_t w, hit = UINT32_MAX;
                for (w = w0; w < w1; w++)
                    if ((int)(w % (uint32_t)nb) == b) hit = w;
                if (hit == UINT32_MAX) fputs("<td></td>", f);
                else fprintf(f, "<td class=\"%s\" title=\"word %" PRIu32 "\">%" PRIu32 "</td>",
                             n_words[b] > 1 ? "hot" : "on", hit, hit);
            }
            fputs("</tr>\n", f);
        }
    }
    fputs("</table>\n", f);
}

static const char *const page_head =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>layout triton</title>\n<style>\n"
    "body{margin:0;font:13px/1.45 system-ui,sans-serif;color:#1c2430;background:#f3f5f8}\n"
    "#head{background:#fff;border-bottom:1px solid #d9dee5;padding:12px 20px}\n"
    "h1{font-size:18px;margin:0 0 6px}\n"
    ".tabs{display:flex;flex-wrap:wrap;gap:4px;padding:8px 20px;border-bottom:1px solid #d9dee5;background:#fbfcfd}\n"
    ".tabs button{font:inherit;border:1px solid #b9c1cc;border-radius:4px;background:#fff;padding:3px 8px;cursor:pointer}\n"
    ".tabs button.bad{border-color:#d40000;color:#a30d0d}\n"
    ".tabs button.sel{background:#1c2430;color:#fff}\n"
    ".op{padding:12px 20px}\n.op[hidden]{display:none}\n"
    "pre,code{font:12px/1.5 ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}\n"
    "dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}\ndt{color:#5b6573}\ndd{margin:0}\n"
    "table.pic{border-collapse:collapse;font-size:9px}\n"
    ".pic td,.pic th{border:1px solid #e3e6ea;padding:0 2px;text-align:center;min-width:14px;white-space:nowrap}\n"
    ".pic td.on{background:#cfe3fb}\n.pic td.hot{background:#f7b6b6;color:#a30d0d}\n"
    ".sugg{background:#fff;border:1px solid #d9dee5;border-radius:8px;padding:8px 12px;margin:10px 0}\n"
    "</style>\n</head>\n<body>\n";

static void suggestion_box(FILE *f, const layout_triton_kernel_suggestions *s, int i)
{
    int a, j;
    for (a = 0; s && a < s->n_allocs; a++) {
        const layout_triton_kernel_alloc *x = &s->allocs[a];
        int mine = 0;
        for (j = 0; j < x->n_ops; j++) mine |= x->ops[j] == i;
        if (!mine) continue;
        fprintf(f, "<div class=\"sugg\"><b>allocation %d</b> (line %d, %d ops, %" PRId64
                   " bytes): current <code>",
                a, x->line, x->n_ops, x->current_bytes);
        html_cstr(f, x->current);
        fprintf(f, "</code> costs %" PRId64 "; suggested <code>", x->current_cost);
        html_cstr(f, x->attr);
        fprintf(f, "</code> costs %" PRId64 " (%" PRId64 " bytes)%s", x->cost, x->bytes,
                x->improved ? "" : ": nothing better found");
        if (x->note[0]) {
            fputs("<br>", f);
            html_cstr(f, x->note);
        }
        fputs("</div>\n", f);
    }
}

int triton_html_write(const char *path, const layout_triton_kernel *k, const layout_triton_kernel_suggestions *s)
{
    static char explain[8192];
    const layout_ttgir *m = k->module;
    FILE *f = fopen(path, "w");
    int i, j, rc = 0;
    if (!f) return tool_error("triton", "cannot write '%s': %s", path, strerror(errno));
    fputs(page_head, f);
    fprintf(f, "<div id=\"head\"><h1>layout triton: %d shared-memory ops, %d modelled</h1>\n", k->n_ops,
            k->n_modelled);
    fputs("<div>target <code>", f);
    html_cstr(f, m->target);
    fprintf(f, "</code>, arch <code>%s</code>, %d warps of %d lanes; per warp total:", k->arch.name, m->num_warps,
            k->arch.wave_size);
    for (j = 0; j < k->n_per_warp; j++)
        fprintf(f, "%s %" PRId64 " <code>%s</code>", j ? "," : "", k->per_warp_total[j].count,
                k->per_warp_total[j].mnemonic);
    fprintf(f, "; %s %" PRId64 "</div></div>\n<div class=\"tabs\">\n",
            k->is_nvidia ? "bank conflicts" : "extra cycles", k->extra_cycles);
    for (i = 0; i < k->n_ops; i++)
        fprintf(f, "<button data-op=\"%d\" class=\"%s\">%d: %s line %d</button>\n", i,
                k->ops[i].modelled && k->ops[i].extra_cycles > 0 ? "bad" : "", i, layout_ttgir_op_name(k->ops[i].kind),
                k->ops[i].line);
    fputs("</div>\n", f);
    for (i = 0; i < k->n_ops; i++) {
        const layout_triton_kernel_op *r = &k->ops[i];
        fprintf(f, "<div class=\"op\" id=\"op%d\"%s>\n<h2>%s, line %d, <code>", i, i ? " hidden" : "",
                layout_ttgir_op_name(r->kind), r->line);
        html_cstr(f, r->loc);
        fputs("</code></h2>\n<dl>\n<dt>register layout</dt><dd><code>", f);
        html_layout(f, m, r->reg_enc_at, r->reg_enc_len);
        fputs("</code></dd>\n<dt>shared layout</dt><dd><code>", f);
        html_layout(f, m, r->shared_enc_at, r->shared_enc_len);
        fputs("</code></dd>\n", f);
        if (!r->modelled) {
            fputs("<dt>not modelled</dt><dd>", f);
            html_cstr(f, r->reason);
            fputs("</dd>\n</dl>\n", f);
            suggestion_box(f, s, i);
        } else {
            fprintf(f, "<dt>direction</dt><dd>%s</dd>\n<dt>vector</dt><dd>%d x %d bits = %d bits, %d accesses per "
                       "warp</dd>\n<dt>instructions per warp</dt><dd>",
                    layout_direction_name(r->direction), r->vec_elems, r->elem_bits, r->vec_bits, r->n_accesses);
            for (j = 0; j < r->n_counts; j++)
                fprintf(f, "%s%" PRId64 " <code>%s</code>", j ? ", " : "", r->counts[j].count, r->counts[j].mnemonic);
            if (k->is_nvidia)
                fprintf(f, "</dd>\n<dt>cost per warp</dt><dd>%" PRId64 " wavefronts, %" PRId64
                           " bank conflicts, %d of %d accesses conflicted</dd>\n</dl>\n",
                        r->total_cycles, r->extra_cycles, r->n_conflicted, r->n_accesses);
            else
                fprintf(f, "</dd>\n<dt>cost per warp</dt><dd>%" PRId64 " extra cycles (%" PRId64
                           " total), %d of %d accesses conflicted</dd>\n</dl>\n",
                        r->extra_cycles, r->total_cycles, r->n_conflicted, r->n_accesses);
            suggestion_box(f, s, i);
            if (r->worst_access >= 0) {
                fprintf(f, "<h3>worst access %d: %d %s, %d-way</h3>\n", r->worst_access, r->worst_extra,
                        k->is_nvidia ? "bank conflicts" : "extra cycles", r->worst_nway);
                lane_picture(f, &k->arch, &r->worst);
                if (layout_triton_kernel_op_explain(k, r, explain, sizeof explain, NULL) == LAYOUT_OK) {
                    fputs("<pre>", f);
                    html_cstr(f, explain);
                    fputs("</pre>\n", f);
                }
            }
        }
        fputs("</div>\n", f);
    }
    fputs("<script>\n"
          "var bs=document.querySelectorAll('.tabs button');\n"
          "function show(n){document.querySelectorAll('.op').forEach(function(d){d.hidden=d.id!=='op'+n;});"
          "bs.forEach(function(b){b.classList.toggle('sel',b.dataset.op===String(n));});}\n"
          "bs.forEach(function(b){b.onclick=function(){show(b.dataset.op);};});\nif(bs.length)show(0);\n"
          "</script>\n</body>\n</html>\n",
          f);
    if (ferror(f)) rc = tool_error("triton", "error writing '%s'", path);
    if (fclose(f) != 0 && rc == 0) rc = tool_error("triton", "error writing '%s'", path);
    if (rc) remove(path);
    return rc;
}
