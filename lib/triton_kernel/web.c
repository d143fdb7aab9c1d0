/* The SSA web of a module's shared allocations (web_internal.h): memdesc
 * values united through views, scf.for iter_args and warp_group_dot_wait,
 * so that every op on one buffer finds its allocation.  The values are the
 * IR's (layout_ttgir::ir): a name reused in another region is another
 * value. */
#include "web_internal.h"

#include <string.h>

static int name_id(layout_tk_web *t, const layout_tk_name *nm)
{
    int i;
    if (nm->value < 0) return -1; /* a fragment's undefined input: untraced */
    for (i = 0; i < t->n; i++)
        if (t->names[i] == nm->value) return i;
    if (t->n == LAYOUT_TK_WEB_MAX_NAMES) return -1;
    t->names[t->n] = nm->value;
    t->parent[t->n] = (int16_t)t->n;
    return t->n++;
}

static int find_root(layout_tk_web *t, int i)
{
    while (t->parent[i] != i) {
        t->parent[i] = t->parent[t->parent[i]];
        i = t->parent[i];
    }
    return i;
}

int layout_tk_web_root(layout_tk_web *w, const layout_tk_name *nm)
{
    int id = name_id(w, nm);
    return id < 0 ? -1 : find_root(w, id);
}

static void unite_values(layout_tk_web *t, int32_t a, int32_t b)
{
    layout_tk_name x, y;
    int i, j;
    x.value = a;
    y.value = b;
    if (a < 0 || b < 0) return;
    i = name_id(t, &x);
    j = name_id(t, &y);
    if (i < 0 || j < 0) return;
    i = find_root(t, i);
    j = find_root(t, j);
    if (i != j) t->parent[i] = (int16_t)j;
}

/* scf.for: operands lb, ub, step, init_0..; the body's block arguments iv,
 * arg_0..; its scf.yield's operands and the loop's results match arg_k. */
static void unite_for(layout_tk_web *t, const layout_ttgir *m, int op)
{
    const layout_ttgir_ir *ir = &m->ir;
    const layout_ttgir_ir_op *o = &ir->ops[op];
    const layout_ttgir_block *body;
    int k, n_iter, y;
    if (o->n_regions < 1 || ir->regions[o->first_region].first_block < 0) return;
    body = &ir->blocks[ir->regions[o->first_region].first_block];
    n_iter = body->n_args - 1;
    for (k = 0; k < n_iter; k++) {
        int32_t arg = body->first_arg + 1 + k;
        unite_values(t, arg, layout_ttgir_ir_operand(m, op, 3 + k));
        unite_values(t, layout_ttgir_ir_result(m, op, k), arg);
    }
    y = body->last_op;
    if (y >= 0 && layout_ttgir_ir_op_is(m, y, "scf.yield"))
        for (k = 0; k < n_iter; k++) unite_values(t, layout_ttgir_ir_operand(m, y, k), body->first_arg + 1 + k);
}

void layout_tk_web_build(layout_tk_web *w, const layout_ttgir *m)
{
    int i, k;
    w->n = 0;
    for (i = 0; i < m->n_ops; i++) {
        layout_tk_name v[1], res;
        if (m->ops[i].kind != LAYOUT_TTGIR_MEMDESC_VIEW) continue;
        if (layout_tk_op_uses(m, &m->ops[i], v, 1) >= 1 && layout_tk_op_result(m, &m->ops[i], &res))
            unite_values(w, res.value, v[0].value);
    }
    for (i = 0; i < m->ir.n_ops; i++) {
        if (layout_ttgir_ir_op_is(m, i, "scf.for")) {
            unite_for(w, m, i);
        } else if (layout_ttgir_ir_op_is(m, i, "ttng.warp_group_dot_wait")) { /* result #k is operand k */
            for (k = 0; k < m->ir.ops[i].n_results; k++)
                unite_values(w, layout_ttgir_ir_result(m, i, k), layout_ttgir_ir_operand(m, i, k));
        }
    }
}

int layout_tk_op_result(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out)
{
    int v = layout_ttgir_ir_result(m, o->ir_op, 0);
    if (v < 0) return 0;
    out->value = v;
    return 1;
}

int layout_tk_op_uses(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out, int max)
{
    int n = 0;
    while (n < max && n < m->ir.ops[o->ir_op].n_uses) {
        out[n].value = layout_ttgir_ir_operand(m, o->ir_op, n);
        n++;
    }
    return n;
}

/* The operand of op o whose type is a memdesc (buffer_load_to_local's
 * `into %dst`): 1 and *out. */
static int memdesc_operand(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out)
{
    const layout_ttgir_ir_op *io = &m->ir.ops[o->ir_op];
    int k;
    for (k = 0; k < io->n_uses; k++) {
        int v = layout_ttgir_ir_operand(m, o->ir_op, k);
        layout_ttgir_type t;
        if (v >= 0 && layout_ttgir_ir_value_type(m, v, &t) == LAYOUT_OK && t.is_memdesc) {
            out->value = v;
            return 1;
        }
    }
    return 0;
}

int layout_tk_access_memdesc(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out)
{
    layout_tk_name v[2];
    int n;
    switch (o->kind) {
    case LAYOUT_TTGIR_LOCAL_ALLOC: return layout_tk_op_result(m, o, out);
    case LAYOUT_TTGIR_LOCAL_LOAD:
        if (layout_tk_op_uses(m, o, v, 1) < 1) return 0;
        *out = v[0];
        return 1;
    case LAYOUT_TTGIR_LOCAL_STORE:
    case LAYOUT_TTGIR_ASYNC_COPY:
        n = layout_tk_op_uses(m, o, v, 2);
        if (n < 2) return 0;
        *out = v[1];
        return 1;
    case LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL: return memdesc_operand(m, o, out);
    default: return 0;
    }
}
