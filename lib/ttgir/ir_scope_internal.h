/* The IR reader's SSA value scoping (ir_scope.c), as ir.c calls it: values
 * defined, looked up as MLIR scopes them, hidden when their region closes,
 * and uses before their definition resolved when their region closes.
 * Not installed. */
#ifndef LAYOUT_TTGIR_IR_SCOPE_INTERNAL_H
#define LAYOUT_TTGIR_IR_SCOPE_INTERNAL_H

#include "layout/ttgir.h"

enum {
    LAYOUT_TTGIR_SCOPE_MAX_HIDDEN = 512, /* value ranges of closed regions, merged */
    LAYOUT_TTGIR_SCOPE_MAX_FWD = 256     /* uses before their definition */
};

/* A use before its definition (a later block of the same region). */
typedef struct layout_ttgir_fwd_use {
    int32_t slot;          /* final index in ir->uses, or -(stack height + 1) while the op is open */
    layout_ttgir_span name;
    int32_t idx;           /* `#k` */
    int depth;             /* region depth of the using op */
    int line, col;
} layout_ttgir_fwd_use;

/* The scopes of one reading: the values of closed regions (hidden) and
 * the uses still to resolve.  A plain value inside the reader's state
 * (about 14 KiB); start it with layout_ttgir_scope_init(). */
typedef struct layout_ttgir_scope {
    layout_ttgir_ir *ir;   /* where the values and uses go */
    const char *text;      /* the module's text: names are spans of it */
    layout_error *err;
    int n_hidden, n_fwd;
    struct { int32_t lo, hi; } hidden[LAYOUT_TTGIR_SCOPE_MAX_HIDDEN];
    layout_ttgir_fwd_use fwd[LAYOUT_TTGIR_SCOPE_MAX_FWD];
} layout_ttgir_scope;

/* Empty scopes over ir (its values read from text); errors go to err. */
void layout_ttgir_scope_init(layout_ttgir_scope *s, layout_ttgir_ir *ir, const char *text, layout_error *err);

/* The visible value named `name` (result `idx` of its group): the
 * innermost region's first, then the regions around it; -1: none (yet). */
int32_t layout_ttgir_scope_lookup(const layout_ttgir_scope *s, layout_ttgir_span name, int32_t idx);

/* A new value named `name` (no defining op or block yet, its type
 * unknown) into *out.  ::LAYOUT_ERR_CAPACITY past ::LAYOUT_TTGIR_MAX_VALUES,
 * the error at the text's line and col. */
layout_status layout_ttgir_scope_define(layout_ttgir_scope *s, int line, int col, layout_ttgir_span name, int32_t *out);

/* Use `name#idx` at line, col is not defined yet: resolved by
 * layout_ttgir_scope_resolve() when the region at `depth` closes; slot is
 * its place in ir->uses (negative while its op is open: see
 * layout_ttgir_scope_place()).  ::LAYOUT_ERR_CAPACITY past
 * ::LAYOUT_TTGIR_SCOPE_MAX_FWD. */
layout_status layout_ttgir_scope_forward(layout_ttgir_scope *s, int line, int col, layout_ttgir_span name,
                                         int32_t idx, int depth, int32_t slot);

/* The open op's use at (negative) slot `pending` moved to ir->uses[slot]. */
void layout_ttgir_scope_place(layout_ttgir_scope *s, int32_t pending, int32_t slot);

/* The uses before their definition at region depth `depth`: now or never
 * (one defined nowhere it is visible is -1, counted in ir->n_undefined). */
void layout_ttgir_scope_resolve(layout_ttgir_scope *s, int depth);

/* Values [lo, ir->n_values) leave scope: their region closed.
 * ::LAYOUT_ERR_CAPACITY past ::LAYOUT_TTGIR_SCOPE_MAX_HIDDEN closed regions
 * side by side, the error at the text's line and col. */
layout_status layout_ttgir_scope_hide_from(layout_ttgir_scope *s, int32_t lo, int line, int col);

#endif /* LAYOUT_TTGIR_IR_SCOPE_INTERNAL_H */
