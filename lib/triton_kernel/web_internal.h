/* The SSA web of a module's shared allocations (lib/triton_kernel only):
 * which memdesc values name the same buffer.  A value is an SSA value of
 * the module's IR (layout_ttgir::ir); values are united through memdesc
 * views (`ttg.memdesc_index` / `_subview` / `_subslice` / `_trans` /
 * `_reshape`: result with source), `scf.for` iter_args (init, block
 * argument, the matching `scf.yield` operand, the loop's result #k) and
 * `ttng.warp_group_dot_wait` (result #k with operand k).  Union-find over
 * at most LAYOUT_TK_WEB_MAX_NAMES values; past that, a value is untraced
 * (-1). */
#ifndef LAYOUT_TK_WEB_INTERNAL_H
#define LAYOUT_TK_WEB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "layout/ttgir.h"

#define LAYOUT_TK_WEB_MAX_NAMES 512

/* A value: its index in the module's IR (-1: a fragment's undefined input). */
typedef struct layout_tk_name {
    int32_t value;
} layout_tk_name;

typedef struct layout_tk_web {
    int n;
    int32_t names[LAYOUT_TK_WEB_MAX_NAMES];
    int16_t parent[LAYOUT_TK_WEB_MAX_NAMES];
} layout_tk_web;

/* Build the web of m (views, loops, dot waits). */
void layout_tk_web_build(layout_tk_web *w, const layout_ttgir *m);
/* The root of a name's class (the name added when new); -1 when the table is full. */
int layout_tk_web_root(layout_tk_web *w, const layout_tk_name *nm);
/* The operands of op o, in order, at most max. */
int layout_tk_op_uses(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out, int max);
/* The memdesc value an access op (local_alloc result, local_load,
 * local_store, async_copy, buffer_load_to_local `into`) touches: 1 and *out. */
int layout_tk_access_memdesc(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out);
/* The first result of op o: 1 and *out. */
int layout_tk_op_result(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out);

#endif
