/* Printers of search results: one line per candidate, the C calls that
 * build a candidate. */
#include "suggest_internal.h"
#include "../core/strbuf.h"
#include "layout/text.h"

#include <string.h>

static const char *const kind_enum[LAYOUT_FAMILY_COUNT] = {
    "LAYOUT_FAMILY_PAD",           "LAYOUT_FAMILY_PAD_EVERY",        "LAYOUT_FAMILY_CK_XOR",
    "LAYOUT_FAMILY_CUTE_SWIZZLE",  "LAYOUT_FAMILY_TRITON_SWIZZLED",  "LAYOUT_FAMILY_IREE_XOR_SHUFFLE",
    "LAYOUT_FAMILY_XOR_PAD",       "LAYOUT_FAMILY_F2",
};

static const char *kind_enum_name(layout_family_kind k)
{
    return (int)k >= 0 && k < LAYOUT_FAMILY_COUNT ? kind_enum[k] : "LAYOUT_FAMILY_PAD";
}

int layout_suggest_c_calls(const layout_suggest_candidate *c, char *buf, size_t cap)
{
    if (!c) return -1;
    char text[LAYOUT_TEXT_CAP];
    if (layout_desc_to_text(&c->desc, text, sizeof text, NULL)) return -1;
    layout_strbuf t;
    layout_sb_init(&t, buf, cap);
    const layout_family_params *p = &c->params;
    layout_sb_printf(&t, "layout_family_params params = {%s, %d, {%lld, %lld, %lld, %lld, %lld, %lld}, %lld, %lld, %s};\n",
                     kind_enum_name(p->kind), p->contiguous_dim, (long long)p->p[0], (long long)p->p[1],
                     (long long)p->p[2], (long long)p->p[3], (long long)p->p[4], (long long)p->p[5], (long long)p->pad,
                     (long long)p->pad_rows, kind_enum_name(p->xor_kind));
    layout_sb_printf(&t, "int64_t tile[2] = {%lld, %lld};\n", (long long)layout_desc_length(&c->desc, 0),
                     (long long)layout_desc_length(&c->desc, 1));
    layout_sb_printf(&t, "layout_descriptor lds;\n");
    layout_sb_printf(&t, "layout_status s = layout_suggest_build(&params, tile, &lds, &err);\n");
    layout_sb_printf(&t, "/* or, the same layout from its text form: */\n");
    layout_sb_printf(&t, "s = layout_desc_from_text(\"%s\", &lds, NULL, &err);\n", text);
    return layout_sb_result(&t);
}

int layout_suggest_candidate_print(const layout_suggest_candidate *c, int n_sides, char *buf, size_t cap)
{
    if (!c) return -1;
    layout_strbuf t;
    layout_sb_init(&t, buf, cap);
    char prm[128];
    layout_suggest_params_print(&c->params, prm, sizeof prm);
    layout_sb_printf(&t, "%-16s %-40s", layout_family_name(c->params.kind), prm);
    if (n_sides < 0) n_sides = 0;
    if (n_sides > LAYOUT_SUGGEST_MAX_SIDES) n_sides = LAYOUT_SUGGEST_MAX_SIDES;
    for (int i = 0; i < n_sides; i++)
        layout_sb_printf(&t, "  %s %-22s", c->sides[i].direction == LAYOUT_WRITE ? "write" : "read", c->sides[i].ops);
    layout_sb_printf(&t, "  extra %lld  lds %lld", (long long)c->cost.extra_cycles, (long long)c->cost.lds_bytes);
    if (c->cost.vector_damage) layout_sb_printf(&t, " [vector damage %d]", c->cost.vector_damage);
    return layout_sb_result(&t);
}
