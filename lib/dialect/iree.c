/* IREE's #iree_codegen.xor_shuffle (iree.h).
 *
 *   attr  := ('#iree_codegen.xor_shuffle' | '#xor') '<' param {',' param} '>'
 *   param := [name '='] int            (2 or 4 params, in order)
 *
 * C-style comments may appear between tokens (as the IREE swizzle talk
 * writes the names, docs/lds-model.md §6). */
#include "dialect_internal.h"
#include "layout/family.h"
#include "layout/iree.h"

#include <string.h>

#define FN_PARSE "layout_iree_from_text"

static const char *const k_names[4] = {"row_width", "access_width", "row_stride", "per_phase"};

/* Blanks and C comments. */
static layout_status skip_c(text_cursor *c)
{
    for (;;) {
        layout_dx_skip_blank(c);
        if (c->text[c->pos] == '/' && c->text[c->pos + 1] == '*') {
            const char *end = strstr(c->text + c->pos + 2, "*/");
            if (!end) return layout_tx_fail_at(c, c->pos, LAYOUT_ERR_PARSE, "unterminated comment");
            c->pos = (size_t)(end - c->text) + 2;
        } else {
            return c->status;
        }
    }
}

static layout_status check_params(text_cursor *c, const layout_iree_xor_shuffle *x, const size_t *at)
{
    int64_t groups;
    if (x->access_width > x->row_width || x->row_width % x->access_width != 0)
        return layout_tx_fail_at(c, at[1], LAYOUT_ERR_ARG, "access_width %lld must divide row_width %lld",
                          (long long)x->access_width, (long long)x->row_width);
    groups = x->row_width / x->access_width;
    if (!layout_is_pow2(groups))
        return layout_tx_fail_at(c, at[1], LAYOUT_ERR_ARG,
                          "row_width / access_width = %lld groups must be a power of two (the XOR stays in the row)",
                          (long long)groups);
    if (x->row_stride < x->row_width)
        return layout_tx_fail_at(c, at[2], LAYOUT_ERR_ARG, "row_stride %lld must be >= row_width %lld",
                          (long long)x->row_stride, (long long)x->row_width);
    return LAYOUT_OK;
}

layout_status layout_iree_from_text(const char *text, layout_iree_xor_shuffle *out, size_t *where,
                                    layout_error *err)
{
    text_cursor c;
    int64_t v[4] = {0, 0, 0, 0};
    size_t at[4] = {0, 0, 0, 0};
    int n = 0;
    layout_iree_xor_shuffle x;
    if (!text) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": text is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": out is NULL");
    layout_tx_init(&c, text, FN_PARSE, err, where);
    if (skip_c(&c)) return c.status;
    if (!layout_dx_accept_raw(&c, "#iree_codegen.xor_shuffle") && !layout_dx_accept_raw(&c, "#xor"))
        return layout_tx_expected(&c, c.pos, "'#iree_codegen.xor_shuffle<'");
    if (c.text[c.pos] != '<') return layout_tx_expected(&c, c.pos, "'<' right after xor_shuffle");
    c.pos++;
    for (;;) {
        size_t name_at;
        if (skip_c(&c)) return c.status;
        name_at = c.pos;
        if (n >= 4) return layout_tx_expected(&c, c.pos, "'>' after the four parameters");
        if ((c.text[name_at] >= 'a' && c.text[name_at] <= 'z') || c.text[name_at] == '_') {
            char id[32];
            if (layout_tx_ident(&c, id, sizeof id, &name_at, k_names[n])) return c.status;
            if (strcmp(id, k_names[n]) != 0) {
                char what[64];
                strcpy(what, "'");
                strcat(what, k_names[n]);
                strcat(what, "' (parameters go in order)");
                return layout_tx_expected(&c, name_at, what);
            }
            if (skip_c(&c) || layout_tx_expect(&c, '=', "'=' after the parameter name") || skip_c(&c)) return c.status;
        }
        layout_tx_skip(&c);
        at[n] = c.pos;
        if (layout_tx_int(&c, &v[n], k_names[n])) return c.status;
        if (v[n] < (n >= 2 ? 0 : 1))
            return layout_tx_fail_at(&c, at[n], LAYOUT_ERR_ARG, "%s %lld must be >= %d", k_names[n], (long long)v[n],
                              n >= 2 ? 0 : 1);
        if (v[n] > ((int64_t)1 << LAYOUT_IREE_MAX_PARAM_LOG2))
            return layout_tx_fail_at(&c, at[n], LAYOUT_ERR_ARG, "%s %lld is larger than 2^%d", k_names[n],
                              (long long)v[n], LAYOUT_IREE_MAX_PARAM_LOG2);
        n++;
        if (skip_c(&c)) return c.status;
        if (c.text[c.pos] == '>') {
            c.pos++;
            break;
        }
        if (layout_tx_expect(&c, ',', "',' or '>'")) return c.status;
    }
    if (n != 2 && n != 4) return layout_tx_fail_at(&c, c.pos - 1, LAYOUT_ERR_PARSE, "expected 2 or 4 parameters, found %d", n);
    if (skip_c(&c) || layout_tx_expect_end(&c)) return c.status;
    x.row_width = v[0];
    x.access_width = v[1];
    x.row_stride = v[2] ? v[2] : v[0];
    x.per_phase = v[3] ? v[3] : 1;
    if (!at[2]) at[2] = at[0];
    if (check_params(&c, &x, at)) return c.status;
    *out = x;
    return layout_ok(err);
}

static int print_iree(text_out *o, const void *obj)
{
    const layout_iree_xor_shuffle *x = (const layout_iree_xor_shuffle *)obj;
    layout_to_printf(o, "#iree_codegen.xor_shuffle<%lld, %lld, %lld, %lld>", (long long)x->row_width,
              (long long)x->access_width, (long long)x->row_stride, (long long)x->per_phase);
    return 0;
}

static layout_status reread_iree(const char *text, const void *ctx, layout_error *err)
{
    layout_iree_xor_shuffle back;
    (void)ctx;
    return layout_iree_from_text(text, &back, NULL, err);
}

layout_status layout_iree_to_text(const layout_iree_xor_shuffle *x, char *buf, size_t cap, layout_error *err)
{
    if (!x || !buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_iree_to_text: NULL argument");
    return layout_dx_render_read_back(print_iree, x, buf, cap, "layout_iree_to_text", reread_iree, NULL, err);
}

static void to_family(const layout_iree_xor_shuffle *x, layout_family_params *p)
{
    memset(p, 0, sizeof *p);
    p->kind = LAYOUT_FAMILY_IREE_XOR_SHUFFLE;
    p->contiguous_dim = 1;
    p->p[0] = x->row_width;
    p->p[1] = x->access_width;
    p->p[2] = x->row_stride;
    p->p[3] = x->per_phase;
}

layout_status layout_iree_to_desc(const layout_iree_xor_shuffle *x, int64_t rows, layout_descriptor *out,
                                  layout_error *err)
{
    layout_family_params p;
    int64_t tile[2];
    if (!x || !out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_iree_to_desc: NULL argument");
    to_family(x, &p);
    tile[0] = rows;
    tile[1] = x->row_width;
    return layout_family_build(&p, tile, out, err);
}

layout_status layout_iree_from_desc(const layout_descriptor *d, layout_iree_xor_shuffle *out, layout_error *err)
{
    int64_t R, C, total, aw, pp, c0[2] = {0, 0}, k, coord[2], min1 = -1;
    if (!d || !out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_iree_from_desc: NULL argument");
    if (layout_desc_ndims(d) != 2)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "layout_iree_from_desc: xor_shuffle describes 2-D tiles; this descriptor has %d dims",
                           layout_desc_ndims(d));
    if ((total = layout_dx_tile_size(d, "layout_iree_from_desc", err)) < 0) return LAYOUT_ERR_UNSUPPORTED;
    R = layout_desc_length(d, 0);
    C = layout_desc_length(d, 1);
    if (layout_desc_offset_unchecked(d, c0) != 0)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "layout_iree_from_desc: offset(0,0) = %lld; xor_shuffle starts at 0",
                           (long long)layout_desc_offset_unchecked(d, c0));
    for (k = 0; k < total; k++) {
        int valid = 1;
        layout_dx_coord(d, k, coord);
        layout_desc_is_valid(d, coord, &valid, NULL);
        if (!valid)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_iree_from_desc: coordinate (%lld,%lld) is padding; xor_shuffle has none",
                               (long long)coord[0], (long long)coord[1]);
        if (coord[0] == 1) {
            int64_t off = layout_desc_offset_unchecked(d, coord);
            if (min1 < 0 || off < min1) min1 = off;
        }
    }
    for (aw = 1; aw <= C; aw++) {
        if (C % aw || !layout_is_pow2(C / aw)) continue;
        for (pp = 1; pp <= R; pp++) {
            layout_iree_xor_shuffle x;
            layout_descriptor cand;
            if (R % pp) continue;
            x.row_width = C;
            x.access_width = aw;
            x.row_stride = R > 1 ? min1 : C;
            x.per_phase = pp;
            if (x.row_stride < C) continue;
            if (layout_iree_to_desc(&x, R, &cand, NULL) != LAYOUT_OK) continue;
            if (layout_dx_first_difference(d, &cand) < 0) {
                *out = x;
                return layout_ok(err);
            }
        }
    }
    return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                       "layout_iree_from_desc: no xor_shuffle<%lld, aw, %lld, per_phase> reproduces the offsets",
                       (long long)C, (long long)(R > 1 ? min1 : C));
}

layout_status layout_desc_from_iree(const char *text, const int64_t *shape, layout_descriptor *out, size_t *where,
                                    layout_error *err)
{
    layout_iree_xor_shuffle x;
    layout_status st;
    int64_t rows = shape ? shape[0] : 1;
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_desc_from_iree: out is NULL");
    if ((st = layout_iree_from_text(text, &x, where, err))) return st;
    if (shape && shape[1] != x.row_width) {
        if (where) {
            const char *lt = strchr(text, '<');
            *where = lt ? (size_t)(lt - text) + 1 : 0;
        }
        return layout_fail(err, LAYOUT_ERR_MISMATCH,
                           "layout_desc_from_iree: the shape [%lld, %lld] does not match row_width %lld (the "
                           "columns must equal row_width)",
                           (long long)shape[0], (long long)shape[1], (long long)x.row_width);
    }
    if ((st = layout_iree_to_desc(&x, rows, out, err)) && where) *where = 0;
    return st;
}

layout_status layout_desc_to_iree(const layout_descriptor *d, char *buf, size_t cap, layout_error *err)
{
    layout_iree_xor_shuffle x;
    layout_status st;
    if (!buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_desc_to_iree: buf is NULL");
    layout_descriptor back;
    layout_error e;
    int64_t shape[2];
    if ((st = layout_iree_from_desc(d, &x, err))) return st;
    if ((st = layout_iree_to_text(&x, buf, cap, err))) return st;
    /* the text must also build this descriptor's shape (layout_desc_from_iree) */
    shape[0] = layout_desc_length(d, 0);
    shape[1] = layout_desc_length(d, 1);
    return layout_dx_reads_back("layout_desc_to_iree", layout_desc_from_iree(buf, shape, &back, NULL, &e), &e, buf, err);
}
