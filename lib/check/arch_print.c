/* Presentation of architectures (kept apart from the model). */
#include "layout/arch.h"
#include "../core/strbuf.h"

#include <string.h>

size_t layout_lane_mask_format(uint64_t mask, char *buf, size_t cap)
{
    layout_strbuf t;
    layout_sb_init(&t, buf, cap);
    if (!mask) layout_sb_printf(&t, "none");
    int first = 1;
    for (int l = 0; l < 64; l++) {
        if (!((mask >> l) & 1)) continue;
        int end = l;
        while (end + 1 < 64 && ((mask >> (end + 1)) & 1)) end++;
        if (end == l) layout_sb_printf(&t, "%s%d", first ? "" : ",", l);
        else layout_sb_printf(&t, "%s%d-%d", first ? "" : ",", l, end);
        first = 0;
        l = end;
    }
    return t.len;
}

static void add_groups(layout_strbuf *t, const uint64_t *groups, int n)
{
    for (int g = 0; g < n; g++) {
        char lanes[200];
        layout_lane_mask_format(groups[g], lanes, sizeof lanes);
        layout_sb_printf(t, " {%s}", lanes);
    }
}

layout_status layout_arch_format(const layout_arch *arch, char *buf, size_t cap, size_t *needed,
                                 layout_error *err)
{
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, "layout_arch_format: arch is NULL");
    if (!buf && cap) return layout_fail(err, LAYOUT_ERR_NULL, "layout_arch_format: buf is NULL with cap = %zu", cap);
    layout_strbuf t;
    layout_sb_init(&t, buf, cap);
    layout_sb_printf(&t, "%.31s: %d banks x %d B (%s), %s%d\n", arch->name, arch->n_banks,
                    arch->bank_width_bytes, layout_confidence_name(arch->bank_confidence),
                    layout_arch_vendor(arch) == LAYOUT_VENDOR_NVIDIA ? "warp" : "wave", arch->wave_size);
    for (int d = 0; d < 2; d++)
        for (int w = 0; w < LAYOUT_N_WIDTHS; w++) {
            const layout_lane_rule *r = &arch->rules[d][w];
            const char *dir = layout_direction_name((layout_direction)d);
            int bits = layout_width_from_index(w) * 8;
            if (!r->supported) {
                layout_sb_printf(&t, "  %-5s b%-3d unsupported\n", dir, bits);
                continue;
            }
            int n = r->n_groups < 0 ? 0 : r->n_groups > LAYOUT_MAX_LANE_GROUPS ? LAYOUT_MAX_LANE_GROUPS : r->n_groups;
            layout_sb_printf(&t, "  %-5s b%-3d %d group%s:", dir, bits, n, n == 1 ? "" : "s");
            add_groups(&t, r->groups, n);
            layout_sb_printf(&t, "  [%s] %.*s\n", layout_confidence_name(r->confidence),
                            (int)sizeof r->source, r->source);
            if (r->n_fold_xors > 0 && r->n_fold_xors <= LAYOUT_MAX_FOLDS) {
                layout_sb_printf(&t, "               fold when every lane's address equals lane l^m for m in {");
                for (int i = 0; i < r->n_fold_xors; i++) layout_sb_printf(&t, "%s%d", i ? "," : "", r->fold_xor[i]);
                int nf = r->n_fold_groups < 0 ? 0
                         : r->n_fold_groups > LAYOUT_MAX_LANE_GROUPS ? LAYOUT_MAX_LANE_GROUPS : r->n_fold_groups;
                layout_sb_printf(&t, "}:");
                add_groups(&t, r->fold_groups, nf);
                layout_sb_printf(&t, "  [%s]\n", layout_confidence_name(r->fold_confidence));
            }
        }
    if (arch->idle_group_cycles != 1)
        layout_sb_printf(&t, "  a group without an active lane costs %d cycle%s\n", arch->idle_group_cycles,
                         arch->idle_group_cycles == 1 ? "" : "s");
    if (memchr(arch->note, '\0', sizeof arch->note) && arch->note[0]) layout_sb_printf(&t, "  note: %s\n", arch->note);
    if (needed) *needed = t.len;
    return layout_ok(err);
}
