/* SSA value scoping for the IR reader (ir_scope_internal.h): names
 * resolve as MLIR scopes them.  A use sees the values of its region and of
 * the regions around it, the innermost first: the values are numbered in
 * text order, and a closed region's values are a range hidden from every
 * later lookup (ranges of nested regions merge into the outer one's).  A
 * use before its definition (a later block of the same region) is kept
 * with its region depth and resolved when that region closes, once every
 * value it could name is defined. */
#include "../core/internal.h"
#include "ir_scope_internal.h"

#include <string.h>

/* The reader's error form (ir.c's fail_tok): the text's line and column. */
static layout_status fail_at(const layout_ttgir_scope *s, int line, int col, layout_status st, const char *what)
{
    return layout_fail(s->err, st, "layout_ttgir_parse: line %d, column %d: %s", line, col, what);
}

static int span_eq(const char *t, layout_ttgir_span a, layout_ttgir_span b)
{
    return a.len == b.len && memcmp(t + a.at, t + b.at, a.len) == 0;
}

void layout_ttgir_scope_init(layout_ttgir_scope *s, layout_ttgir_ir *ir, const char *text, layout_error *err)
{
    s->ir = ir;
    s->text = text;
    s->err = err;
    s->n_hidden = s->n_fwd = 0;
}

/* Whether value v lies in a hidden range; *h walks the ranges down with
 * the values (lookup goes from the last value to the first). */
static int hidden_value(const layout_ttgir_scope *s, int32_t v, int *h)
{
    while (*h >= 0 && s->hidden[*h].lo > v) (*h)--;
    return *h >= 0 && v < s->hidden[*h].hi;
}

int32_t layout_ttgir_scope_lookup(const layout_ttgir_scope *s, layout_ttgir_span name, int32_t idx)
{
    const layout_ttgir_ir *ir = s->ir;
    const char *t = s->text;
    int h = s->n_hidden - 1;
    int32_t v = -1;
    for (v = ir->n_values - 1; v >= 0; v--) {
        int32_t g;
        if (hidden_value(s, v, &h)) {
            v = s->hidden[h].lo;
            continue;
        }
        if (!span_eq(t, ir->values[v].name, name)) continue;
        /* v is the last of its group: its first holds the same name and op */
        for (g = v; g > 0 && ir->values[g - 1].def_op == ir->values[v].def_op && ir->values[v].def_op >= 0 &&
                    span_eq(t, ir->values[g - 1].name, name);)
            g--;
        if (ir->values[v].def_op < 0) g = v; /* a block argument is its own group */
        return g + idx <= v ? g + idx : -1;
    }
    return -1;
}

layout_status layout_ttgir_scope_define(layout_ttgir_scope *s, int line, int col, layout_ttgir_span name, int32_t *out)
{
    layout_ttgir_ir *ir = s->ir;
    layout_ttgir_value *v;
    if (ir->n_values >= LAYOUT_TTGIR_MAX_VALUES)
        return fail_at(s, line, col, LAYOUT_ERR_CAPACITY, "more than 16384 SSA values in the module");
    v = &ir->values[ir->n_values];
    memset(v, 0, sizeof *v);
    v->name = name;
    v->def_op = -1;
    v->def_block = -1;
    v->rule = LAYOUT_TTGIR_TYPE_UNKNOWN;
    *out = ir->n_values++;
    return LAYOUT_OK;
}

layout_status layout_ttgir_scope_forward(layout_ttgir_scope *s, int line, int col, layout_ttgir_span name,
                                         int32_t idx, int depth, int32_t slot)
{
    layout_ttgir_fwd_use *f;
    if (s->n_fwd >= LAYOUT_TTGIR_SCOPE_MAX_FWD)
        return fail_at(s, line, col, LAYOUT_ERR_CAPACITY, "more than 256 values used before their definition");
    f = &s->fwd[s->n_fwd++];
    f->slot = slot;
    f->name = name;
    f->idx = idx;
    f->depth = depth;
    f->line = line;
    f->col = col;
    return LAYOUT_OK;
}

void layout_ttgir_scope_place(layout_ttgir_scope *s, int32_t pending, int32_t slot)
{
    for (int i = 0; i < s->n_fwd; i++)
        if (s->fwd[i].slot == pending) s->fwd[i].slot = slot;
}

void layout_ttgir_scope_resolve(layout_ttgir_scope *s, int depth)
{
    int i, k = 0;
    for (i = 0; i < s->n_fwd; i++) {
        layout_ttgir_fwd_use *f = &s->fwd[i];
        int32_t v = -1;
        if (f->depth != depth) {
            s->fwd[k++] = *f;
            continue;
        }
        v = layout_ttgir_scope_lookup(s, f->name, f->idx);
        if (v < 0) { /* defined nowhere it is visible: a fragment's input (or an outer scope's) */
            if (s->ir->n_undefined++ == 0) {
                s->ir->undefined_line = f->line;
                s->ir->undefined_column = f->col;
            }
        }
        s->ir->uses[f->slot] = v;
    }
    s->n_fwd = k;
}

layout_status layout_ttgir_scope_hide_from(layout_ttgir_scope *s, int32_t lo, int line, int col)
{
    while (s->n_hidden > 0 && s->hidden[s->n_hidden - 1].lo >= lo) s->n_hidden--;
    if (lo >= s->ir->n_values) return LAYOUT_OK;
    if (s->n_hidden >= LAYOUT_TTGIR_SCOPE_MAX_HIDDEN)
        return fail_at(s, line, col, LAYOUT_ERR_CAPACITY, "more than 512 closed regions side by side");
    s->hidden[s->n_hidden].lo = lo;
    s->hidden[s->n_hidden].hi = s->ir->n_values;
    s->n_hidden++;
    return LAYOUT_OK;
}
