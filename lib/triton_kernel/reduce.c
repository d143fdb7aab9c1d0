/* tt.reduce (Triton 3.6, lib/Conversion/TritonGPUToLLVM/ReduceOpToLLVM.cpp
 * at triton-lang/triton 9c3434b3, and ReduceOpHelper in
 * lib/Analysis/Utility.cpp): within a thread and within a warp (shuffles)
 * a reduction touches no shared memory; when the axis spans several warps
 * the partials go through a scratch of shape srcShape with the axis
 * replaced by the warps along it (getScratchRepShape), linearised axis
 * first (getOrderWithAxisAtBeginning):
 *   1. storeWarpReduceToSharedMemory: one predicated store per accumulator
 *      (per distinct non-axis coordinate a thread holds), by the lanes at
 *      axis coordinate 0 that hold unique data, at
 *      warpIdAxis + S_axis * coord_other;
 *   2. barrier; accumulatePartialReductions: max(elems / threads, 1)
 *      rounds of a load at thread id (threads < elems), shuffles, and a
 *      store by the lanes with lane % S_axis == 0;
 *   3. barrier; loadReductionAndPackResult: one unpredicated load per
 *      result element of the slice layout, at S_axis * coord_other.
 * Each is a scalar access of one element, costed by the checker with its
 * active lanes (warp 0).  No pairing on AMD: the corpus AMDGCN has every
 * one of them single (rowsum gfx942: 9 ds_write_b32, 9 ds_read_b32). */
#include <string.h>

#include "tk_internal.h"
#include "../core/strbuf.h"

/* The coordinate of packed output vector v along output dim d. */
static uint64_t rd_coord(const layout_linear *l, uint64_t v, int d)
{
    return (v >> l->out_shift[d]) & (((uint64_t)1 << l->out_bits[d]) - 1);
}

static void rd_mnemonic(const layout_triton_kernel *k, int write, int bits, char *out, size_t cap)
{
    layout_strbuf sb;
    layout_sb_init(&sb, out, cap);
    if (k->is_nvidia) layout_sb_printf(&sb, "%s.shared.b%d", write ? "st" : "ld", bits);
    else if (write) layout_sb_printf(&sb, "ds_write_b%d", bits);
    else layout_sb_printf(&sb, bits < 32 ? "ds_read_u%d" : "ds_read_b%d", bits);
}

/* Cost one scalar access of warp 0 (lane l at addr[l] bytes when bit l of
 * active is set) and add it to r. */
static layout_status rd_cost(const layout_checker *ck, const layout_triton_kernel *k, layout_triton_kernel_op *r,
                             int write, int bytes, uint64_t active, const uint64_t *addr, int lanes)
{
    layout_instr ins;
    layout_cost c;
    layout_error e;
    int l;
    if (layout_instr_init(&ins, lanes, bytes, write ? LAYOUT_WRITE : LAYOUT_READ, &e) != LAYOUT_OK)
        return e.status;
    ins.active_mask = active;
    for (l = 0; l < lanes; l++) ins.addr_bytes[l] = (uint32_t)addr[l];
    if (layout_checker_cost(ck, &ins, &c, &e) != LAYOUT_OK) return e.status;
    (void)k;
    layout_tk_cost_add(r, r->n_accesses, &c, &ins);
    r->n_accesses++;
    return LAYOUT_OK;
}

/* The reduce's axis: `axis = N` in the op's text (`<{axis = 1 : i32}>`). */
static int rd_axis(const layout_ttgir *m, const layout_ttgir_op *o)
{
    size_t at = o->result_at, end = at + 400 < m->len ? at + 400 : m->len;
    for (; at + 7 < end; at++)
        if (memcmp(m->text + at, "axis = ", 7) == 0) {
            char c = m->text[at + 7];
            return c >= '0' && c <= '9' ? c - '0' : -1;
        }
    return -1;
}

layout_status layout_tk_lower_reduce(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                     layout_error *err)
{
    const layout_ttgir *m = k->module;
    const layout_ttgir_op *o = &m->ops[op];
    const layout_ttgir_type *src;
    const char *attr;
    size_t alen;
    layout_triton_attr ta;
    layout_linear R;
    layout_checker ck;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP], mn[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP];
    int axis, other, ir, il, iw, b, d, lanes = m->threads_per_warp, nwarps = m->num_warps;
    int n_reg_other = 0, reg_other[LAYOUT_LINEAR_MAX_BITS], warp_axis_bits = 0, eb;
    uint64_t lane_inactive = 0, addr[64];
    int64_t s_axis, elems, threads, rounds, i, j;

    if (o->n_src != 1 || o->src[0].is_memdesc || o->src[0].enc_len == 0)
        return layout_tk_not_modelled(r, "tt.reduce: only a reduce of one register tensor is modelled");
    src = &o->src[0];
    if (src->rank != 2) return layout_tk_not_modelled(r, "tt.reduce: only 2-D operands are modelled");
    if (src->elem_bits != 8 && src->elem_bits != 16 && src->elem_bits != 32 && src->elem_bits != 64)
        return layout_tk_not_modelled(r, "tt.reduce: element type not 8, 16, 32 or 64 bits");
    if ((axis = rd_axis(m, o)) < 0 || axis > 1) return layout_tk_not_modelled(r, "tt.reduce: its axis attribute was not read");
    if (lanes != 32 && lanes != 64) return layout_tk_not_modelled(r, "tt.reduce: ttg.threads-per-warp not 32 or 64");
    if (nwarps < 1 || nwarps > 1024) return layout_tk_not_modelled(r, "tt.reduce: ttg.num-warps absent or out of range");
    if (layout_ttgir_encoding(m, src, &attr, &alen) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "tt.reduce: the operand's encoding is not defined");
    if (layout_tk_reg_linear(m, src, attr, alen, &ta, &R, why, sizeof why) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "tt.reduce: %s", why);
    ir = layout_linear_in_dim(&R, "register");
    il = layout_linear_in_dim(&R, "lane");
    iw = layout_linear_in_dim(&R, "warp");
    if (ir < 0 || il < 0 || R.n_out != 2) return layout_tk_not_modelled(r, "tt.reduce: the operand's layout has no register/lane dims");
    if (R.in_bits[il] != layout_log2_floor(lanes)) return layout_tk_not_modelled(r, "tt.reduce: the layout's lanes differ from the warp size");
    other = 1 - axis;
    /* Triton's per-dim helpers (getWarpsPerCTA, getThreadsPerWarp, ...)
     * read a layout whose every basis lies along one dim; a mixed basis or
     * a broadcast register (shape below the layout's tile) is not followed. */
    for (d = 0; d < R.n_in; d++)
        for (b = 0; b < R.in_bits[d]; b++) {
            uint64_t v = layout_tk_basis(&R, d, b);
            int along_a = rd_coord(&R, v, axis) != 0, along_o = rd_coord(&R, v, other) != 0;
            if (along_a && along_o) return layout_tk_not_modelled(r, "tt.reduce: a basis of the operand's layout spans both dims");
            if (d == ir && v == 0) return layout_tk_not_modelled(r, "tt.reduce: the operand's layout has broadcast registers");
            if (d == ir && along_o) reg_other[n_reg_other++] = b;
            if (d == il && (v == 0 || along_a)) lane_inactive |= (uint64_t)1 << b;
            if (d == iw && along_a) warp_axis_bits++;
        }
    r->elem_bits = src->elem_bits;
    r->vec_elems = 1;
    r->vec_bits = src->elem_bits;
    r->direction = LAYOUT_WRITE;
    r->reg_enc_at = src->enc_at;
    r->reg_enc_len = src->enc_len;
    r->shared_enc_at = r->shared_enc_len = 0;
    if (warp_axis_bits == 0) { /* isWarpSynchronous: shuffles only, no scratch */
        r->modelled = 1;
        return LAYOUT_OK;
    }
    eb = src->elem_bits / 8;
    s_axis = (int64_t)1 << warp_axis_bits;
    elems = s_axis * src->shape[other];
    threads = (int64_t)lanes * nwarps;
    rounds = elems / threads > 1 ? elems / threads : 1;
    if (n_reg_other > 9 || rounds > 64)
        return layout_tk_not_modelled(r, "tt.reduce: more than 512 accumulators or 64 rounds per thread");
    r->cvt_scratch_bytes = elems * eb;
    r->cvt_reps = 1;
    if (layout_checker_init(&ck, &k->arch, LAYOUT_IMPL_AUTO, err) != LAYOUT_OK) return err ? err->status : LAYOUT_ERR_ARG;

    /* 1. the warp's partials: warp 0 (warpIdAxis 0), lanes at axis 0 */
    for (i = 0; i < (int64_t)1 << n_reg_other; i++) {
        uint64_t regv = 0, active = 0;
        for (j = 0; j < n_reg_other; j++)
            if (i >> j & 1) regv ^= layout_tk_basis(&R, ir, reg_other[j]);
        for (int l = 0; l < lanes; l++) {
            uint64_t v = regv;
            for (b = 0; b < R.in_bits[il]; b++)
                if (l >> b & 1) v ^= layout_tk_basis(&R, il, b);
            addr[l] = (uint64_t)s_axis * rd_coord(&R, v, other) * (uint64_t)eb;
            if (!((uint64_t)l & lane_inactive)) active |= (uint64_t)1 << l;
        }
        if (rd_cost(&ck, k, r, 1, eb, active, addr, lanes) != LAYOUT_OK)
            return layout_tk_not_modelled(r, "tt.reduce: the checker refused an access");
    }
    rd_mnemonic(k, 1, src->elem_bits, mn, sizeof mn);
    layout_tk_count_add(r, mn, (int64_t)1 << n_reg_other);

    /* 2. accumulatePartialReductions: thread t reads element t (+ rounds) */
    for (i = 0; i < rounds; i++) {
        uint64_t ld = 0, st = 0;
        for (int l = 0; l < lanes; l++) {
            addr[l] = (uint64_t)(l + i * threads) * (uint64_t)eb;
            if (l < elems) {
                ld |= (uint64_t)1 << l;
                if (l % s_axis == 0) st |= (uint64_t)1 << l;
            }
        }
        if (rd_cost(&ck, k, r, 0, eb, ld, addr, lanes) != LAYOUT_OK ||
            rd_cost(&ck, k, r, 1, eb, st, addr, lanes) != LAYOUT_OK)
            return layout_tk_not_modelled(r, "tt.reduce: the checker refused an access");
    }
    layout_tk_count_add(r, mn, rounds);
    rd_mnemonic(k, 0, src->elem_bits, mn, sizeof mn);
    layout_tk_count_add(r, mn, rounds);

    /* 3. the results: every lane reads its slice elements at axis 0 */
    for (i = 0; i < (int64_t)1 << n_reg_other; i++) {
        uint64_t regv = 0, all = lanes == 64 ? ~(uint64_t)0 : (((uint64_t)1 << lanes) - 1);
        for (j = 0; j < n_reg_other; j++)
            if (i >> j & 1) regv ^= layout_tk_basis(&R, ir, reg_other[j]);
        for (int l = 0; l < lanes; l++) {
            uint64_t v = regv;
            for (b = 0; b < R.in_bits[il]; b++)
                if (l >> b & 1) v ^= layout_tk_basis(&R, il, b);
            addr[l] = (uint64_t)s_axis * rd_coord(&R, v, other) * (uint64_t)eb;
        }
        if (rd_cost(&ck, k, r, 0, eb, all, addr, lanes) != LAYOUT_OK)
            return layout_tk_not_modelled(r, "tt.reduce: the checker refused an access");
    }
    layout_tk_count_add(r, mn, (int64_t)1 << n_reg_other);
    (void)iw;
    r->modelled = 1;
    return LAYOUT_OK;
}

/* tt.scan (ScanOpToLLVM.cpp, read at triton-lang/triton 06eec7d4, the
 * stored revision): scanWithinThreads (registers) and scanWithinWarps
 * (shuffles) touch no shared memory; only when the layout puts warps along
 * the axis (hasInterWarpScan) does scanAcrossWarps store each warp's totals
 * to a scratch and read them back.  The first case is modelled (no
 * instruction), the second is reported as not modelled. */
layout_status layout_tk_lower_scan(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r, layout_error *err)
{
    const layout_ttgir *m = k->module;
    const layout_ttgir_op *o = &m->ops[op];
    const layout_ttgir_type *src;
    const char *attr;
    size_t alen;
    layout_triton_attr ta;
    layout_linear R;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP];
    int axis, iw, b, warps_along = 0;
    (void)err;
    if (o->n_src < 1 || o->src[0].is_memdesc || o->src[0].enc_len == 0)
        return layout_tk_not_modelled(r, "tt.scan: the operand's register tensor was not read");
    src = &o->src[0];
    if ((axis = rd_axis(m, o)) < 0 || axis >= src->rank)
        return layout_tk_not_modelled(r, "tt.scan: its axis attribute was not read");
    if (layout_ttgir_encoding(m, src, &attr, &alen) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "tt.scan: the operand's encoding is not defined");
    if (layout_tk_reg_linear(m, src, attr, alen, &ta, &R, why, sizeof why) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "tt.scan: %s", why);
    if (axis >= R.n_out) return layout_tk_not_modelled(r, "tt.scan: the layout has no dim %d", axis);
    iw = layout_linear_in_dim(&R, "warp");
    for (b = 0; iw >= 0 && b < R.in_bits[iw]; b++)
        if (rd_coord(&R, layout_tk_basis(&R, iw, b), axis) != 0) warps_along++;
    r->elem_bits = src->elem_bits;
    r->reg_enc_at = src->enc_at;
    r->reg_enc_len = src->enc_len;
    r->shared_enc_at = r->shared_enc_len = 0;
    if (warps_along)
        return layout_tk_not_modelled(r, "tt.scan: the scan axis spans %d warps: Triton's scanAcrossWarps stores "
                                         "each warp's totals to shared scratch and reads them back; that exchange "
                                         "is not modelled", 1 << warps_along);
    r->modelled = 1; /* within threads and warps: registers and shuffles */
    return LAYOUT_OK;
}
