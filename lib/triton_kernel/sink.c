/* NVIDIA: the last shared load that ptxas sinks past an EXIT
 * (layout_triton_kernel_op's sunk_warps).
 *
 * Triton stores a tensor to global memory with a mask that leaves out the
 * threads whose elements only repeat other threads' (StoreOpToLLVM's
 * emitRedundantThreadPredicate over the layout's free variables: a zero
 * warp basis makes the warps with that warp-id bit set copies).  ptxas
 * turns the mask into a predicated EXIT of those threads and moves the
 * instructions that feed only the store after it.  The SASS of every sm_90
 * kernel of the generated corpus and of the Gluon fixtures that Nsight
 * Compute measured short (tests/fixtures/triton/corpus/probe.jsonl,
 * tests/fixtures/gluon/probe.jsonl: 11 and 24 kernels) shows the same
 * shape: exactly one LDS, the kernel's last, after the EXIT, executed by
 * the warps that store, at the cost per execution of the others.
 *
 * Applied only where that evidence reaches: the kernel's last report, a
 * local_load or a convert_layout whose loads are ld.shared (no ldmatrix),
 * in the function's body block (that of its tt.return; no op after it
 * opens a region: not in or before a loop or a branch, and no barrier),
 * followed by a tt.store of a value computed from its result (the IR's
 * dataflow) and nothing that touches shared memory; its result layout has a zero warp or lane basis; every
 * warp costs what warp 0 costs; and the tensor's global stores per thread
 * are as many as the op's loads (below).
 *
 * The lanes whose lane-id bits at the zero lane bases are set exit too
 * (the Gluon fixtures g174, g181, g190: that LDS ran with 16 threads), so
 * the load runs with the others only, and a phase left without an active
 * lane costs nothing (docs/lds-model.md §2.5): g181's LDS.128 with lanes
 * 16-31 off takes 16 wavefronts where the whole warp takes 32. */
#include "../core/internal.h"
#include "layout/linear.h"
#include "layout/triton_kernel.h"
#include "tk_internal.h"
#include "web_internal.h"

#include <string.h>

/* Whether ptxas's sinking reaches op `op` (an IR op): it sits in a
 * function's body block (the block of its tt.return), no op after it there
 * opens a region (a loop, a branch) or is a barrier, and a tt.store after
 * it stores a value computed from its result (through the ops between, in
 * that block): the instructions that feed only that store are the ones
 * ptxas moves past the EXIT. */
static int store_takes_result(const layout_ttgir *m, int op)
{
    enum { MAX_FLOW = 256 };
    int32_t flow[MAX_FLOW];
    int n_flow = 0, parent = layout_ttgir_ir_parent(m, op), j, k, found = 0, returns = 0;
    if (parent < 0 || !layout_ttgir_ir_op_is(m, parent, "tt.func")) return 0;
    for (k = 0; k < m->ir.ops[op].n_results && n_flow < MAX_FLOW; k++) flow[n_flow++] = layout_ttgir_ir_result(m, op, k);
    for (j = m->ir.ops[op].next; j >= 0; j = m->ir.ops[j].next) {
        const layout_ttgir_ir_op *o = &m->ir.ops[j];
        int uses_flow = 0;
        if (o->n_regions > 0 || layout_ttgir_ir_op_is(m, j, "gpu.barrier")) return 0;
        if (layout_ttgir_ir_op_is(m, j, "tt.return")) {
            returns = 1;
            break;
        }
        for (k = 0; k < o->n_uses && !uses_flow; k++)
            for (int f = 0; f < n_flow && !uses_flow; f++) uses_flow = m->ir.uses[o->first_use + k] == flow[f];
        if (!uses_flow) continue;
        if (layout_ttgir_ir_op_is(m, j, "tt.store")) {
            int value = layout_ttgir_ir_operand(m, j, 1); /* tt.store ptr, value [, mask] */
            for (int f = 0; f < n_flow; f++) found |= value == flow[f];
        }
        for (k = 0; k < o->n_results && n_flow < MAX_FLOW; k++) flow[n_flow++] = o->first_result + k;
    }
    return returns && found;
}

/* Instructions of r whose mnemonic starts with prefix, per warp. */
static int64_t count_of(const layout_triton_kernel_op *r, const char *prefix)
{
    int64_t n = 0;
    for (int i = 0; i < r->n_counts; i++)
        if (strncmp(r->counts[i].mnemonic, prefix, strlen(prefix)) == 0) n += r->counts[i].count;
    return n;
}

/* The global stores of a tensor in layout R per thread, as Triton's
 * StoreOpToLLVM vectorises them for a contiguous row-major destination:
 * its distinct elements over the registers that run contiguously along the
 * last dim (1, 2, 4, .. elements, at most 128 bits). */
static int64_t global_stores(const layout_linear *R, int elem_bits)
{
    int ir = layout_linear_in_dim(R, "register"), d1 = layout_tk_last_dim(R), i, n = 0, distinct = 0;
    int cap = elem_bits > 0 ? 128 / elem_bits : 1;
    if (ir < 0 || d1 < 0 || elem_bits <= 0) return -1;
    for (i = 0; i < R->in_bits[ir]; i++) distinct += layout_tk_basis(R, ir, i) != 0;
    for (i = 0; i < R->in_bits[ir] && (1 << n) < cap; i++)
        if (layout_tk_basis(R, ir, i) == (uint64_t)1 << (R->out_shift[d1] + n)) n++;
        else break;
    return ((int64_t)1 << distinct) >> n;
}

int layout_tk_sink_applies(const layout_triton_kernel *k, const layout_triton_kernel_op *r, uint64_t *warp_copies,
                           uint64_t *copy_lanes)
{
    const layout_ttgir *m = k->module;
    const layout_ttgir_op *o;
    layout_triton_attr ta;
    layout_linear R;
    const char *attr;
    size_t alen;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP];
    int nw = m->num_warps, iw, il, b;
    *warp_copies = *copy_lanes = 0;
    if (!k->is_nvidia || k->n_ops < 1 || nw < 1 || r->op != k->ops[k->n_ops - 1].op) return 0;
    if (!r->modelled || (r->kind != LAYOUT_TTGIR_LOCAL_LOAD && r->kind != LAYOUT_TTGIR_CONVERT_LAYOUT)) return 0;
    if (count_of(r, "ld.shared") == 0 || count_of(r, "ldmatrix") > 0) return 0;
    o = &m->ops[r->op];
    if (o->n_dst < 1 || o->dst[0].is_memdesc || o->dst[0].enc_len == 0) return 0;
    if (!store_takes_result(m, o->ir_op)) return 0;
    if (layout_ttgir_encoding(m, &o->dst[0], &attr, &alen) != LAYOUT_OK) return 0;
    if (layout_tk_reg_linear(m, &o->dst[0], attr, alen, &ta, &R, why, sizeof why) != LAYOUT_OK) return 0;
    iw = layout_linear_in_dim(&R, "warp");
    il = layout_linear_in_dim(&R, "lane");
    for (b = 0; iw >= 0 && b < R.in_bits[iw]; b++)
        if (layout_tk_basis(&R, iw, b) == 0) *warp_copies |= (uint64_t)1 << b;
    for (b = 0; il >= 0 && b < R.in_bits[il]; b++)
        if (layout_tk_basis(&R, il, b) == 0) *copy_lanes |= (uint64_t)1 << b;
    if (*warp_copies == 0 && *copy_lanes == 0) return 0;
    /* ptxas exits early only where each global store takes one load's
     * value: as many stores as loads (the Gluon fixtures: 24 of 24 such
     * kernels sunk, none of the 10 where one load feeds several byte stores
     * or several loads one vector store) */
    return global_stores(&R, r->elem_bits) == count_of(r, "ld.shared");
}

void layout_tk_sink_last_load(const layout_triton_kernel *k, layout_triton_kernel_op *r)
{
    int nw = k->module->num_warps, b, warps;
    uint64_t warp_copies, copy_lanes; /* warp-id and lane-id bits whose warps / lanes hold copies */
    layout_instr last;
    layout_cost c;
    if (!layout_tk_sink_applies(k, r, &warp_copies, &copy_lanes)) return;
    if (r->cta_total_cycles != r->total_cycles * nw || r->cta_extra_cycles != r->extra_cycles * nw) return;
    warps = nw >> __builtin_popcountll(warp_copies);
    if (warps < 1 || r->last.direction != LAYOUT_READ || r->last.n_lanes != k->arch.wave_size) return;
    last = r->last;
    for (b = 0; b < last.n_lanes; b++)
        if ((uint64_t)b & copy_lanes) last.active_mask &= ~((uint64_t)1 << b);
    if (layout_instr_cost(&k->arch, &last, LAYOUT_IMPL_AUTO, &c, NULL) != LAYOUT_OK) return;
    r->sunk_warps = warps;
    r->sunk_lanes = __builtin_popcountll(last.active_mask);
    r->cta_total_cycles += (int64_t)warps * c.total_cycles - (int64_t)nw * r->last_total_cycles;
    r->cta_extra_cycles += (int64_t)warps * c.extra_cycles - (int64_t)nw * r->last_extra_cycles;
}
