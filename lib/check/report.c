/* Presentation of check reports: text and JSON (no model logic here). */
#include "../core/internal.h"
#include "layout/report.h"
#include "../core/strbuf.h"

#include <string.h>

static void add_lanes(layout_strbuf *sb, uint64_t mask)
{
    char lanes[200];
    layout_lane_mask_format(mask, lanes, sizeof lanes);
    layout_sb_printf(sb, "%s", lanes);
}

static const char *plural(int64_t n) { return n == 1 ? "" : "s"; }

/* "<arch> read b128 instr 3 group 2 (lanes 8-11,28-31): 2-way, bank 5 <- lane 8 @0x1a0, lane 28 @0x2a0" */
static void text_group_line(layout_strbuf *sb, const char *arch, const layout_report_side *s, int g)
{
    const layout_group_cost *gc = &s->worst_detail.groups[g];
    const layout_instr *in = &s->worst_instr;
    layout_sb_printf(sb, "%s %s b%d instr %zu group %d (lanes ", arch, layout_direction_name(in->direction),
                     in->width_bytes * 8, s->totals.worst_index, g);
    add_lanes(sb, gc->lanes);
    layout_sb_printf(sb, "): %d-way, bank %d <-", gc->nway, gc->worst_bank);
    int first = 1;
    for (int l = 0; l < 64; l++)
        if ((gc->way_lanes >> l) & 1) {
            layout_sb_printf(sb, "%s lane %d @0x%x", first ? "" : ",", l, (unsigned)in->addr_bytes[l]);
            first = 0;
        }
    int sharing = __builtin_popcountll(gc->bank_lanes) - __builtin_popcountll(gc->way_lanes);
    if (sharing > 0) layout_sb_printf(sb, " (+%d lane%s sharing those words)", sharing, plural(sharing));
    layout_sb_printf(sb, "\n");
}

static int side_count(const layout_check_report *r)
{
    return r->n_sides < 0 ? 0 : r->n_sides > LAYOUT_REPORT_MAX_SIDES ? LAYOUT_REPORT_MAX_SIDES : r->n_sides;
}

static int group_count(const layout_report_side *s)
{
    int n = s->worst_detail.cost.n_groups;
    return n < 0 ? 0 : n > LAYOUT_MAX_LANE_GROUPS ? LAYOUT_MAX_LANE_GROUPS : n;
}

layout_status layout_check_report_text(const layout_check_report *r, char *buf, size_t cap, size_t *needed,
                                       layout_error *err)
{
    if (!r) return layout_fail(err, LAYOUT_ERR_NULL, "layout_check_report_text: report is NULL");
    if (!buf && cap) return layout_fail(err, LAYOUT_ERR_NULL, "layout_check_report_text: buf is NULL with cap = %zu", cap);
    char arch[LAYOUT_ARCH_NAME_CAP];
    memcpy(arch, r->arch_name, sizeof arch);
    arch[sizeof arch - 1] = '\0';
    layout_strbuf sb;
    layout_sb_init(&sb, buf, cap);
    /* NVIDIA's words for the same figures: extra cycles are bank conflicts,
     * total cycles wavefronts (the Nsight Compute metrics). */
    const char *canonical = layout_arch_canonical_name(arch);
    if (strncmp(canonical ? canonical : arch, "sm_", 3) == 0)
        layout_sb_printf(&sb, "%s: %zu instruction%s, %lld bank conflict%s, %lld wavefront%s (%s)\n", arch,
                         r->n_instrs, plural((int64_t)r->n_instrs), (long long)r->extra_cycles,
                         plural(r->extra_cycles), (long long)r->total_cycles, plural(r->total_cycles),
                         layout_check_impl_name(r->impl));
    else
        layout_sb_printf(&sb, "%s: %zu instruction%s, %lld extra cycle%s, %lld total cycles (%s)\n", arch,
                         r->n_instrs, plural((int64_t)r->n_instrs), (long long)r->extra_cycles,
                         plural(r->extra_cycles), (long long)r->total_cycles, layout_check_impl_name(r->impl));
    for (int i = 0; i < side_count(r); i++) {
        const layout_report_side *s = &r->sides[i];
        char label[LAYOUT_REPORT_LABEL_CAP];
        memcpy(label, s->label, sizeof label);
        label[sizeof label - 1] = '\0';
        layout_sb_printf(&sb, "  %s: %zu instruction%s, %lld extra, %zu conflicted", label, s->totals.n_instrs,
                         plural((int64_t)s->totals.n_instrs), (long long)s->totals.extra_cycles,
                         s->totals.n_conflicted);
        if (s->has_worst && s->totals.worst_extra > 0)
            layout_sb_printf(&sb, ", worst instr %zu (%d extra, %d-way)", s->totals.worst_index,
                             s->totals.worst_extra, s->worst_detail.cost.worst_nway);
        layout_sb_printf(&sb, "\n");
        if (!s->has_worst) continue;
        for (int g = 0; g < group_count(s); g++)
            if (s->worst_detail.groups[g].nway > 1) text_group_line(&sb, arch, s, g);
    }
    if (needed) *needed = sb.len;
    return layout_ok(err);
}

/* JSON string with the escapes JSON requires. */
static void json_str(layout_strbuf *sb, const char *s, size_t cap)
{
    layout_sb_printf(sb, "\"");
    for (size_t i = 0; i < cap && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') layout_sb_printf(sb, "\\%c", c);
        else if (c < 0x20) layout_sb_printf(sb, "\\u%04x", c);
        else layout_sb_printf(sb, "%c", c);
    }
    layout_sb_printf(sb, "\"");
}

static void json_side(layout_strbuf *sb, const layout_report_side *s)
{
    const layout_cost_totals *t = &s->totals;
    layout_sb_printf(sb, "{\"label\":");
    json_str(sb, s->label, sizeof s->label);
    layout_sb_printf(sb, ",\"n_instrs\":%zu,\"extra_cycles\":%lld,\"total_cycles\":%lld,\"n_conflicted\":%zu,"
                         "\"worst_nway\":%d,\"conflicted\":[",
                     t->n_instrs, (long long)t->extra_cycles, (long long)t->total_cycles, t->n_conflicted,
                     t->worst_nway);
    size_t nl = s->n_listed > LAYOUT_REPORT_MAX_LISTED ? LAYOUT_REPORT_MAX_LISTED : s->n_listed;
    for (size_t i = 0; i < nl; i++)
        layout_sb_printf(sb, "%s{\"index\":%zu,\"extra\":%d}", i ? "," : "", s->listed_index[i], s->listed_extra[i]);
    layout_sb_printf(sb, "]");
    if (s->has_worst) {
        const layout_cost *c = &s->worst_detail.cost;
        const layout_instr *in = &s->worst_instr;
        layout_sb_printf(sb, ",\"worst\":{\"index\":%zu,\"direction\":\"%s\",\"width_bytes\":%d,\"extra_cycles\":%d,"
                             "\"total_cycles\":%d,\"n_groups\":%d,\"worst_nway\":%d,\"fold_xor\":%d,\"groups\":[",
                         t->worst_index, layout_direction_name(in->direction), in->width_bytes, c->extra_cycles,
                         c->total_cycles, c->n_groups, c->worst_nway, c->fold_xor);
        for (int g = 0; g < group_count(s); g++) {
            const layout_group_cost *gc = &s->worst_detail.groups[g];
            layout_sb_printf(sb, "%s{\"group\":%d,\"lanes\":\"", g ? "," : "", g);
            add_lanes(sb, gc->lanes);
            layout_sb_printf(sb, "\",\"cycles\":%d,\"nway\":%d,\"bank\":%d,\"hits\":[", gc->cycles, gc->nway,
                             gc->worst_bank);
            int first = 1;
            for (int l = 0; l < 64; l++)
                if (gc->nway > 1 && ((gc->way_lanes >> l) & 1)) {
                    layout_sb_printf(sb, "%s{\"lane\":%d,\"addr\":%u}", first ? "" : ",", l, (unsigned)in->addr_bytes[l]);
                    first = 0;
                }
            layout_sb_printf(sb, "]}");
        }
        layout_sb_printf(sb, "]}");
    }
    layout_sb_printf(sb, "}");
}

layout_status layout_check_report_json(const layout_check_report *r, char *buf, size_t cap, size_t *needed,
                                       layout_error *err)
{
    if (!r) return layout_fail(err, LAYOUT_ERR_NULL, "layout_check_report_json: report is NULL");
    if (!buf && cap) return layout_fail(err, LAYOUT_ERR_NULL, "layout_check_report_json: buf is NULL with cap = %zu", cap);
    layout_strbuf sb;
    layout_sb_init(&sb, buf, cap);
    layout_sb_printf(&sb, "{\"arch\":");
    json_str(&sb, r->arch_name, sizeof r->arch_name);
    layout_sb_printf(&sb, ",\"impl\":\"%s\",\"n_instrs\":%zu,\"extra_cycles\":%lld,\"total_cycles\":%lld,\"sides\":[",
                     layout_check_impl_name(r->impl), r->n_instrs, (long long)r->extra_cycles,
                     (long long)r->total_cycles);
    for (int i = 0; i < side_count(r); i++) {
        if (i) layout_sb_printf(&sb, ",");
        json_side(&sb, &r->sides[i]);
    }
    layout_sb_printf(&sb, "]}");
    if (needed) *needed = sb.len;
    return layout_ok(err);
}
