/* Helpers shared by the dialect parsers and printers (dialect_internal.h). */
#include "dialect_internal.h"

#include <string.h>

void layout_dx_skip_blank(text_cursor *c)
{
    for (;;) {
        char ch = c->text[c->pos];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
            c->pos++;
        else
            return;
    }
}

int layout_dx_accept_raw(text_cursor *c, const char *word)
{
    size_t n = strlen(word);
    if (c->status != LAYOUT_OK) return 0;
    layout_dx_skip_blank(c);
    if (strncmp(c->text + c->pos, word, n) != 0) return 0;
    c->pos += n;
    return 1;
}

layout_status layout_dx_expect_ident(text_cursor *c, const char *name, const char *what)
{
    char id[48];
    size_t at;
    if (c->status != LAYOUT_OK) return c->status;
    layout_tx_skip(c);
    at = c->pos;
    if (layout_tx_ident(c, id, sizeof id, &at, what)) return c->status;
    if (strcmp(id, name) != 0) {
        c->pos = at;
        return layout_tx_expected(c, at, what);
    }
    return LAYOUT_OK;
}

void layout_dx_coord(const layout_descriptor *d, int64_t k, int64_t *coord)
{
    int j, n = layout_desc_ndims(d);
    for (j = n - 1; j >= 0; j--) {
        int64_t len = layout_desc_length(d, j);
        coord[j] = k % len;
        k /= len;
    }
}

int64_t layout_dx_tile_size(const layout_descriptor *d, const char *fn, layout_error *err)
{
    int64_t total = 1;
    int j, n = layout_desc_ndims(d);
    for (j = 0; j < n; j++) {
        int64_t len = layout_desc_length(d, j);
        if (len > DX_MAX_TILE || total > DX_MAX_TILE / len) {
            layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: the tile has more than %d coordinates (too large to verify)",
                        fn, DX_MAX_TILE);
            return -1;
        }
        total *= len;
    }
    return total;
}

int64_t layout_dx_first_difference(const layout_descriptor *a, const layout_descriptor *b)
{
    int64_t total = 1, k, coord[LAYOUT_MAX_DIMS];
    int j, n = layout_desc_ndims(a);
    if (n != layout_desc_ndims(b)) return 0;
    for (j = 0; j < n; j++) {
        if (layout_desc_length(a, j) != layout_desc_length(b, j)) return 0;
        total *= layout_desc_length(a, j);
    }
    for (k = 0; k < total; k++) {
        int va = 1, vb = 1;
        layout_dx_coord(a, k, coord);
        if (layout_desc_offset_unchecked(a, coord) != layout_desc_offset_unchecked(b, coord)) return k;
        layout_desc_is_valid(a, coord, &va, NULL);
        layout_desc_is_valid(b, coord, &vb, NULL);
        if (va != vb) return k;
    }
    return -1;
}

void layout_dx_stage_init(dx_stage *s)
{
    memset(s, 0, sizeof *s);
}

void layout_dx_stage_add(dx_stage *s, const layout_transform *t, int nl, const int *lo, int nu, const int *up)
{
    if (s->n >= LAYOUT_MAX_TRANSFORMS) return; /* the builders stay far below the capacity */
    s->t[s->n] = *t;
    s->lo[s->n] = layout_seq_from(nl, lo);
    s->up[s->n] = layout_seq_from(nu, up);
    s->n++;
}

layout_status layout_dx_stage_apply(layout_descriptor *d, const dx_stage *s, layout_error *err)
{
    return layout_transform_descriptor(d, d, s->n, s->t, s->lo, s->up, err);
}

layout_status layout_dx_reads_back(const char *fn, layout_status back, const layout_error *back_err, char *buf,
                                   layout_error *err)
{
    if (back == LAYOUT_OK) return layout_ok(err);
    buf[0] = '\0';
    return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: its text would not read back (%.180s)", fn, back_err->message);
}

layout_status layout_dx_render_read_back(int (*print)(text_out *, const void *), const void *obj, char *buf, size_t cap,
                                         const char *fn, layout_dx_reader reread, const void *ctx, layout_error *err)
{
    layout_error e;
    layout_status st = layout_to_render(print, obj, buf, cap, fn, "", err);
    if (st) return st;
    return layout_dx_reads_back(fn, reread(buf, ctx, &e), &e, buf, err);
}
