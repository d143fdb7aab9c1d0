/* The SSA web of a module's shared allocations (lib/triton_kernel only):
 * which memdesc values name the same buffer.  A value is its text `%x`
 * or `%x#k`; values are united through memdesc views (`ttg.memdesc_index`
 * / `_subview` / `_subslice` / `_trans` / `_reshape`: result with source),
 * `scf.for` iter_args (init, block argument, the matching `scf.yield`
 * operand, the loop's result #k) and `ttng.warp_group_dot_wait` (result #k
 * with operand k).  Union-find over at most LAYOUT_TK_WEB_MAX_NAMES names;
 * past that, a name is untraced (-1). */
#ifndef LAYOUT_TK_WEB_INTERNAL_H
#define LAYOUT_TK_WEB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "layout/ttgir.h"

#define LAYOUT_TK_WEB_MAX_NAMES 512

/* `%acc_53` or `%acc_53#4`: offset and length of the base, result index or -1. */
typedef struct layout_tk_name {
    uint32_t at;
    uint16_t len;
    int16_t idx;
} layout_tk_name;

typedef struct layout_tk_web {
    const char *text;
    size_t len;
    int n;
    layout_tk_name names[LAYOUT_TK_WEB_MAX_NAMES];
    int16_t parent[LAYOUT_TK_WEB_MAX_NAMES];
} layout_tk_web;

/* Build the web of m (views, loops, dot waits). */
void layout_tk_web_build(layout_tk_web *w, const layout_ttgir *m);
/* The root of a name's class (the name added when new); -1 when the table is full. */
int layout_tk_web_root(layout_tk_web *w, const layout_tk_name *nm);
/* The value uses of op o from its first operand: the `%names` before the
 * first ` : ` / `{` / `loc(` of its line (a `[...]` index skipped), at most max. */
int layout_tk_op_uses(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out, int max);
/* The memdesc value an access op (local_alloc result, local_load,
 * local_store, async_copy, buffer_load_to_local `into`) touches: 1 and *out. */
int layout_tk_access_memdesc(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out);
/* The region depth (`{` less `}` before it, outside strings) of the line
 * holding text offset at, or -1 past the text; *deepest (may be NULL): the
 * largest depth of a line from it to the one holding until (>= at). */
int layout_tk_region_depth(const layout_ttgir *m, size_t at, size_t until, int *deepest);
/* The result name of op o (without `:N`): 1 and *out. */
int layout_tk_op_result(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out);

#endif
