/* NVIDIA's ldmatrix / stmatrix lowering of a local load / store
 * (tk_internal.h, layout_tk_ldst_matrix): which register -> offset maps
 * Triton 3.6 lowers this way, and their cost per instruction. */
#include "../core/internal.h"
#include "layout/check.h"
#include "layout/linear.h"
#include "layout/triton_kernel.h"
#include "tk_internal.h"

#include <stdio.h>
#include <string.h>

/* One ldmatrix / stmatrix of 2^vec matrices into the stream (cap; NULL:
 * none): each lane moves 4 bytes of each matrix; its lanes are those that
 * give a row address (all 32 take part); off: its first row's byte offset
 * from the lanes' base. */
static void matrix_keep(const layout_triton_kernel *k, const layout_triton_kernel_op *r, layout_tk_capture *cap, int vec,
                        int transpose, uint64_t off, uint64_t lanes, const layout_cost *c)
{
    if (!cap) return;
    if (cap->n < cap->cap) {
        layout_triton_inst *e = &cap->out[cap->n];
        int nw = k->module && k->module->num_warps > 0 ? k->module->num_warps : 1;
        memset(e, 0, sizeof *e);
        snprintf(e->mnemonic, sizeof e->mnemonic, "%s.sync.aligned.m8n8.x%d%s.shared.b16",
                 r->direction == LAYOUT_WRITE ? "stmatrix" : "ldmatrix", 1 << vec, transpose ? ".trans" : "");
        e->seq = cap->n;
        e->direction = r->direction;
        e->bytes = 4 << vec;
        e->offset = (int64_t)off;
        e->accesses = 1;
        e->partner = e->partner_op = e->buffer = -1;
        e->buffer_offset = -1;
        e->standing = 1;
        e->n_warps = nw < LAYOUT_TRITON_STREAM_MAX_WARPS ? nw : LAYOUT_TRITON_STREAM_MAX_WARPS;
        for (int w = 0; w < e->n_warps; w++) e->lanes[w] = lanes;
        e->extra_cycles = c->extra_cycles;
        e->total_cycles = c->total_cycles;
    }
    cap->n++;
}

/* NVIDIA ldmatrix / stmatrix (Triton's lowerLdStMatrix,
 * third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/Utility.cpp): each 8x8
 * matrix row is 16 bytes, one lane per row address; up to 4 matrices
 * (x1/x2/x4) per instruction.  Non-transposed: registers must hold 32-bit
 * words (offsets 1 .. 32/bits - 1, registers permuted) and lanes 0, 1 the
 * next two words of a row (cvt divisible on the left by that tile); the
 * row addresses come from lanes 2-4 and then up to 2 more register bits.
 * Transposed (16-bit only): lanes 2-4 give offsets 1, 2, 4 (the row's 8
 * elements are 8 lanes) and no other basis touches those 3 bits; the row
 * addresses come from register bit 0, lanes 0-1, then up to 2 more
 * register bits.  Returns 1 and fills r when the op lowers this way. */
int layout_tk_ldst_matrix(const layout_triton_kernel *k, const layout_checker *ck, const layout_linear *cvt,
                           int transpose, layout_triton_kernel_op *r, layout_tk_capture *cap)
{
    int cap0 = cap ? cap->n : 0;
    int ir = layout_linear_in_dim(cvt, "register"), il = layout_linear_in_dim(cvt, "lane");
    int iw = layout_linear_in_dim(cvt, "warp"), bits = r->elem_bits, eb = 32 / (bits ? bits : 1);
    int t = layout_log2_floor(eb), nreg = 0, nwarp = 0, i, j, vec, n_in_instr, n_instr;
    uint64_t reg[LAYOUT_LINEAR_MAX_BITS], lane[6], warp[LAYOUT_LINEAR_MAX_BITS], addr[8];
    int n_addr = 0;
    (void)warp;
    if (il < 0 || cvt->in_bits[il] != 5 || ir < 0) return 0;
    if (transpose ? bits != 16 : (bits > 32 || bits < 8)) return 0;
    if (r->direction == LAYOUT_WRITE && k->sm < 90) return 0; /* stmatrix: sm_90 */
    if (r->direction == LAYOUT_READ && k->sm < 75) return 0;  /* ldmatrix: sm_75 */
    for (i = 0; i < cvt->in_bits[ir]; i++) {
        uint64_t b = layout_tk_basis(cvt, ir, i);
        if (b) reg[nreg++] = b; /* broadcast registers removed */
    }
    for (i = 0; i < 5; i++) lane[i] = layout_tk_basis(cvt, il, i);
    if (iw >= 0)
        for (i = 0; i < cvt->in_bits[iw]; i++) warp[nwarp++] = layout_tk_basis(cvt, iw, i);
    if (!transpose) {
        uint64_t low = (uint64_t)eb * 4 - 1;
        /* the tile: registers -> words' elements (permuted first), lanes 0, 1 -> next words */
        for (i = 0; i < t; i++) {
            for (j = i; j < nreg && reg[j] != (uint64_t)1 << i; j++) {}
            if (j == nreg) return 0;
            uint64_t tmp = reg[i];
            reg[i] = reg[j];
            reg[j] = tmp;
        }
        if (lane[0] != (uint64_t)eb || lane[1] != (uint64_t)eb * 2) return 0;
        for (i = t; i < nreg; i++)
            if (reg[i] & low) return 0;
        for (i = 2; i < 5; i++)
            if (lane[i] & low) return 0;
        for (i = 0; i < nwarp; i++)
            if (warp[i] & low) return 0;
        vec = nreg - t < 2 ? nreg - t : 2;
        if (vec < 0) return 0;
        for (i = 0; i < 3; i++) addr[n_addr++] = lane[2 + i];
        for (i = 0; i < vec; i++) addr[n_addr++] = reg[t + i];
        n_in_instr = t + vec;
    } else {
        for (i = 0; i < 3; i++)
            if (lane[2 + i] != (uint64_t)1 << i) return 0;
        for (i = 0; i < nreg; i++)
            if (reg[i] & 7) return 0;
        for (i = 0; i < 2; i++)
            if (lane[i] & 7) return 0;
        for (i = 0; i < nwarp; i++)
            if (warp[i] & 7) return 0;
        if (nreg < 1) return 0;
        vec = nreg - 1 < 2 ? nreg - 1 : 2;
        addr[n_addr++] = reg[0];
        addr[n_addr++] = lane[0];
        addr[n_addr++] = lane[1];
        for (i = 0; i < vec; i++) addr[n_addr++] = reg[1 + i];
        n_in_instr = 1 + vec;
    }
    if (nreg - n_in_instr > layout_log2_floor(LAYOUT_TRITON_KERNEL_MAX_ACCESSES)) return 0;
    n_instr = 1 << (nreg - n_in_instr);
    r->vec_elems = 8;                 /* a matrix row: 8 x 16 bits (4 x 32 bits) per lane address */
    r->vec_bits = 128;
    r->n_accesses = n_instr;
    for (int a = 0; a < n_instr; a++) {
        layout_instr ins;
        layout_cost c;
        layout_error e;
        uint64_t off = 0;
        for (i = 0; i < nreg - n_in_instr; i++)
            if (a >> i & 1) off ^= reg[n_in_instr + i];
        if (layout_instr_init(&ins, 32, 16, r->direction, &e) != LAYOUT_OK) {
            if (cap) cap->n = cap0;
            return 0;
        }
        ins.active_mask = n_addr >= 5 ? 0xffffffffu : ((uint64_t)1 << (1 << n_addr)) - 1;
        for (int l = 0; l < 32; l++) {
            uint64_t o = off;
            for (i = 0; i < n_addr; i++)
                if (l >> i & 1) o ^= addr[i];
            ins.addr_bytes[l] = (uint32_t)(o * (uint64_t)(bits / 8));
        }
        /* .x1 / .x2 move 1 / 2 matrices of 128 bytes: the phases whose
         * lanes give no row address move nothing and take no wavefront
         * (Nsight Compute on an H200: ldmatrix / stmatrix .x2 of bf16, 8
         * wavefronts per instruction with 6 excess, i.e. 2 ideal --
         * tests/fixtures/gluon/probe.jsonl, g167), as any NVIDIA phase
         * without an active lane: the arch's idle_group_cycles, 0 on sm_*. */
        if (layout_checker_cost(ck, &ins, &c, &e) != LAYOUT_OK) {
            if (cap) cap->n = cap0;
            return 0;
        }
        layout_tk_cost_add(r, a, &c, &ins);
        matrix_keep(k, r, cap, vec, transpose, off * (uint64_t)(bits / 8), ins.active_mask, &c);
    }
    {
        char mn[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP];
        snprintf(mn, sizeof mn, "%s.sync.aligned.m8n8.x%d%s.shared.b16",
                 r->direction == LAYOUT_WRITE ? "stmatrix" : "ldmatrix", 1 << vec, transpose ? ".trans" : "");
        layout_tk_count_add(r, mn, n_instr);
    }
    r->modelled = 1;
    return 1;
}
