/* One op's instruction stream (include/layout/triton_stream.h): the op
 * lowered again with its stream captured (ldst.c's step 6: Triton's
 * accesses after the LoadStoreVectorizer and the op's own
 * SILoadStoreOptimizer pass), then the passes that look past the op: the
 * pairing across the ops of its block (xpair.c) and ptxas's sunk last load
 * (sink.c), each applied to the entries it changes.  The counts of the
 * standing entries are the report's: tests/test_triton_stream.c holds
 * every fixture to that. */
#include "../core/internal.h"
#include "layout/triton_kernel.h"
#include "layout/triton_stream.h"
#include "tk_internal.h"
#include "web_internal.h"

#include <stdio.h>
#include <string.h>

const char *layout_triton_pass_name(unsigned pass)
{
    switch (pass) {
    case LAYOUT_TRITON_PASS_LSV: return "lsv";
    case LAYOUT_TRITON_PASS_SILSOPT: return "si-load-store-opt";
    case LAYOUT_TRITON_PASS_SILSOPT_XOP: return "si-load-store-opt across ops";
    case LAYOUT_TRITON_PASS_PTXAS_SINK: return "ptxas sink";
    case LAYOUT_TRITON_PASS_PTXAS_JOIN: return "ptxas join";
    default: return "";
    }
}

/* The IR value of the `ttg.local_alloc` result whose buffer op `op` (a
 * module op) addresses, -1 when none or not known; *at its constant byte
 * offset in the kernel's shared memory (layout_tk_base_offset_var: of a
 * variable slot, the allocation's), -1 when not known. */
static int buffer_of(const layout_triton_kernel *k, int op, int64_t *at)
{
    const layout_ttgir *m = k->module;
    layout_tk_web web;
    layout_tk_name v, res;
    int root, found = -1;
    int64_t alloc_off[LAYOUT_TTGIR_MAX_OPS];
    layout_tk_web_build(&web, m);
    *at = -1;
    uint64_t var;
    if (layout_tk_alloc_offsets(k, &web, alloc_off) &&
        layout_tk_base_offset_var(k, &web, alloc_off, op, &root, at, &var) != 0)
        *at = -1;
    if (!layout_tk_access_memdesc(m, &m->ops[op], &v) || (root = layout_tk_web_root(&web, &v)) < 0) return -1;
    for (int i = 0; i < m->n_ops; i++)
        if (m->ops[i].kind == LAYOUT_TTGIR_LOCAL_ALLOC && layout_tk_op_result(m, &m->ops[i], &res) &&
            layout_tk_web_root(&web, &res) == root) {
            if (found >= 0) return -1; /* two buffers in one class */
            found = res.value;
        }
    return found;
}

/* The op's own entry names for gfx11 / gfx12 (layout_tk_rdna_names, one
 * entry at a time), and the wmma operand's d16_hi half: where the report
 * counts ds_load_u16_d16_hi, every second ds_read_u16 in program order
 * (the second element of each VGPR's pair: the count is the report's rule,
 * which entries take the form is not checked against an ISA). */
static void rdna_names(const layout_triton_kernel *k, const layout_triton_kernel_op *r, layout_triton_inst *e, int n)
{
    int hi = 0, nth = 0;
    for (int i = 0; i < r->n_counts; i++) hi |= strcmp(r->counts[i].mnemonic, "ds_load_u16_d16_hi") == 0;
    for (int i = 0; i < n; i++) {
        layout_triton_kernel_op t;
        memset(&t, 0, sizeof t);
        t.direction = e[i].direction;
        t.n_counts = 1;
        t.counts[0].count = 1;
        snprintf(t.counts[0].mnemonic, sizeof t.counts[0].mnemonic, "%s", e[i].mnemonic);
        if (hi && strcmp(e[i].mnemonic, "ds_read_u16") == 0 && nth++ % 2 == 1)
            snprintf(t.counts[0].mnemonic, sizeof t.counts[0].mnemonic, "ds_read_u16_d16_hi");
        layout_tk_rdna_names(k, &t);
        snprintf(e[i].mnemonic, sizeof e[i].mnemonic, "%s", t.counts[0].mnemonic);
    }
}

/* The pass across ops (xpair.c): entries whose joined pairing differs
 * from the op's own take the joined partner, kind and name. */
static layout_status cross_op(const layout_triton_kernel *k, int op, layout_triton_inst *e, int n, layout_error *err)
{
    static const layout_tk_xpair_out zero;
    layout_tk_xpair_out xo = zero;
    if (!layout_tk_xpair_op(k, op, &xo, err)) return LAYOUT_OK;
    if (xo.n != n) return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "op %d: its cross-op list has %d instructions, its "
                                      "stream %d", op, xo.n, n);
    for (int i = 0; i < n; i++) {
        if (!xo.w[i]) continue;
        int other = xo.partner_op[i] >= 0 && xo.partner_op[i] != op;
        int partner = xo.partner_op[i] == op ? xo.partner[i] : -1;
        if (!other && partner == e[i].partner && xo.kind[i] == e[i].pair_form) continue;
        e[i].partner = other ? xo.partner[i] : partner;
        e[i].pair_form = xo.partner_op[i] >= 0 ? xo.kind[i] : 0;
        e[i].standing = xo.standing[i];
        e[i].passes &= ~(unsigned)(LAYOUT_TRITON_PASS_SILSOPT | LAYOUT_TRITON_PASS_SILSOPT_XOP);
        if (xo.partner_op[i] >= 0) e[i].passes |= other ? LAYOUT_TRITON_PASS_SILSOPT_XOP : LAYOUT_TRITON_PASS_SILSOPT;
        e[i].partner_op = xo.partner_op[i] >= 0 ? xo.partner_op[i] : -1;
        layout_tk_xpair_name(k, xo.w[i], e[i].pair_form, e[i].direction, e[i].mnemonic, sizeof e[i].mnemonic);
    }
    return LAYOUT_OK;
}

/* ptxas's sunk last load (sink.c): the op's last load runs on the warps
 * and lanes that store, costed as they run it. */
static void sunk_load(const layout_triton_kernel *k, const layout_triton_kernel_op *r, layout_triton_inst *e, int n)
{
    uint64_t warp_copies, copy_lanes;
    int last = -1;
    if (r->sunk_warps <= 0 || !layout_tk_sink_applies(k, r, &warp_copies, &copy_lanes)) return;
    for (int i = 0; i < n; i++)
        if (e[i].direction == LAYOUT_READ) last = i;
    if (last < 0) return;
    layout_instr in = r->last;
    layout_cost c;
    for (int l = 0; l < in.n_lanes; l++)
        if ((uint64_t)l & copy_lanes) in.active_mask &= ~((uint64_t)1 << l);
    if (layout_instr_cost(&k->arch, &in, LAYOUT_IMPL_AUTO, &c, NULL) != LAYOUT_OK) return;
    for (int w = 0; w < e[last].n_warps; w++)
        e[last].lanes[w] = ((uint64_t)w & warp_copies) ? 0 : in.active_mask;
    e[last].extra_cycles = c.extra_cycles;
    e[last].total_cycles = c.total_cycles;
    e[last].passes |= LAYOUT_TRITON_PASS_PTXAS_SINK;
}

layout_status layout_triton_kernel_op_stream(const layout_triton_kernel *k, int op, layout_triton_inst *out, int cap,
                                             int *n_out, layout_error *err)
{
    static const char name[] = "layout_triton_kernel_op_stream";
    if (!k || !k->module || !n_out || (!out && cap > 0)) return layout_fail(err, LAYOUT_ERR_NULL, "%s: NULL argument", name);
    *n_out = 0;
    if (op < 0 || op >= k->n_ops)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: op %d outside 0..%d", name, op, k->n_ops - 1);
    const layout_triton_kernel_op *r = &k->ops[op];
    const layout_ttgir *m = k->module;
    const char *what = layout_ttgir_op_name(r->kind);
    if (!r->modelled)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: op %d (%s, line %d) is not modelled: %s", name, op, what,
                           r->line, r->reason);
    layout_tk_op_prep p;
    layout_tk_shared s;
    layout_triton_kernel_op tmp;
    layout_tk_capture capt = {out, cap, 0, 0};
    layout_tk_ds_list list;
    /* the ops lowered by prepare itself, each streaming its accesses */
    int captured = r->kind == LAYOUT_TTGIR_CONVERT_LAYOUT || r->kind == LAYOUT_TTGIR_REDUCE ||
                   r->kind == LAYOUT_TTGIR_SCAN || r->kind == LAYOUT_TTGIR_HISTOGRAM || r->kind == LAYOUT_TTGIR_GATHER ||
                   r->kind == LAYOUT_TTGIR_OTHER_SHARED;
    layout_status st = layout_tk_op_prepare_captured(k, r->op, &p, &tmp, captured ? &capt : NULL, err);
    if (st != LAYOUT_OK) return st;
    if (p.generic) {
        list.capture = &capt;
        layout_tk_shared_prepare(m, p.mem, NULL, 0, NULL, &s);
        if ((st = layout_tk_op_finish(k, NULL, &p, &s, INT64_MAX, &tmp, &list, err)) != LAYOUT_OK) return st;
    }
    /* an op with no LSU instruction (a warp_group_dot: the tensor core reads its operands) has an empty stream */
    if (((!p.generic && !captured) && tmp.n_counts > 0) || capt.unlisted || (capt.n == 0 && tmp.n_counts > 0))
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: op %d (%s, line %d): its instructions are not listed one "
                           "by one; its counts are in the report", name, op, what, r->line);
    int n = capt.n < cap ? capt.n : cap;
    int64_t at;
    int block = m->ir.ops[m->ops[r->op].ir_op].parent_block, buffer = buffer_of(k, r->op, &at);
    layout_confidence conf = layout_triton_kernel_op_confidence(k, r, NULL);
    for (int i = 0; i < n; i++) {
        out[i].confidence = conf;
        out[i].op = op;
        out[i].block = block;
        out[i].buffer = buffer;
        out[i].buffer_offset = at;
        out[i].partner_op = out[i].partner >= 0 ? op : -1;
        if (!(out[i].passes & LAYOUT_TRITON_PASS_PTXAS_JOIN)) out[i].ptxas_lead = -1, out[i].ptxas_bytes = 0;
    }
    if (capt.n <= cap) {
        rdna_names(k, r, out, n);
        if ((st = cross_op(k, op, out, n, err)) != LAYOUT_OK) return st;
        sunk_load(k, r, out, n);
    }
    *n_out = capt.n;
    return LAYOUT_OK;
}
