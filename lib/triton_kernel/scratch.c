/* The scratch of Triton's reductions, scans and histograms as the
 * lowerings (reduce.c, scan.c, histogram.c) use it: each scalar access
 * costed per warp by the checker, the accesses collected into LLVM's
 * basic blocks, and each block's b32 / b64 accesses paired as
 * SILoadStoreOptimizer pairs them (layout_tk_pair_block) and named; the
 * operands' regions of one scratch (getSmemBases).  Split from reduce.c,
 * where the blocks' rules stand. */
#include <stdio.h>
#include <string.h>

#include "tk_internal.h"
#include "../core/bits.h"
#include "../core/strbuf.h"

/* An access of `bits` in all (vec elements of bits / vec each): NVIDIA
 * `ld/st.shared[.vN].bM`; AMD one DS access of the whole width (a merged
 * b96 too, as LLVM selects ds_read_b96 for three adjacent dwords). */
static void scratch_mnemonic(const layout_triton_kernel *k, int write, int bits, int vec, char *out, size_t cap)
{
    layout_strbuf sb;
    layout_sb_init(&sb, out, cap);
    if (k->is_nvidia && vec > 1) layout_sb_printf(&sb, "%s.shared.v%d.b%d", write ? "st" : "ld", vec, bits / vec);
    else if (k->is_nvidia) layout_sb_printf(&sb, "%s.shared.b%d", write ? "st" : "ld", bits);
    else if (write) layout_sb_printf(&sb, "ds_write_b%d", bits);
    else layout_sb_printf(&sb, bits < 32 ? "ds_read_u%d" : "ds_read_b%d", bits);
}

/* Warp w's part of one scalar access: lane l at addr[l] bytes when bit l
 * of active is set.  Warp 0 goes into r's per-warp figures (access number
 * r->n_accesses), every warp into the CTA's; a warp with no active lane
 * moves nothing.  Returns 0, or 1 when the checker refuses it. */
static layout_triton_inst *scratch_pending(layout_tk_scratch *s);

int layout_tk_scratch_cost(layout_tk_scratch *s, int write, int bytes, int w, uint64_t active, const uint64_t *addr)
{
    layout_instr ins;
    layout_cost c;
    layout_error e;
    int l;
    if (!active) return 0;
    if (layout_instr_init(&ins, s->lanes, bytes, write ? LAYOUT_WRITE : LAYOUT_READ, &e) != LAYOUT_OK) return 1;
    ins.active_mask = active;
    for (l = 0; l < s->lanes; l++) ins.addr_bytes[l] = (uint32_t)addr[l];
    if (layout_checker_cost(&s->ck, &ins, &c, &e) != LAYOUT_OK) return 1;
    if (w == 0) layout_tk_cost_add(s->r, s->r->n_accesses, &c, &ins);
    s->cta_total += c.total_cycles;
    s->cta_extra += c.extra_cycles;
    layout_triton_inst *p = scratch_pending(s);
    if (p && w < LAYOUT_TRITON_STREAM_MAX_WARPS) p->lanes[w] = active;
    if (p && w == 0) p->extra_cycles = c.extra_cycles, p->total_cycles = c.total_cycles;
    if (!s->pend_open) {
        s->pend_open = s->pend_uniform = 1;
        s->pend_warps = 0;
        s->pend_act = active;
        s->pend_addr = addr[layout_ctz(active)];
        s->pend_t = s->pend_x = 0;
    }
    for (l = 0; l < s->lanes; l++)
        if ((active >> l & 1) && addr[l] != s->pend_addr) s->pend_uniform = 0;
    if (active != s->pend_act) s->pend_uniform = 0;
    s->pend_warps++;
    s->pend_t += c.total_cycles;
    s->pend_x += c.extra_cycles;
    return 0;
}

/* The access being kept in the stream: its entry, begun (zeroed) by the
 * first call for it; NULL when the stream is not asked for or full. */
static layout_triton_inst *scratch_pending(layout_tk_scratch *s)
{
    if (!s->cap || s->cap->n >= s->cap->cap) return NULL;
    layout_triton_inst *p = &s->cap->out[s->cap->n];
    if (!s->cap_open) {
        memset(p, 0, sizeof *p);
        p->n_warps = s->k->module->num_warps < LAYOUT_TRITON_STREAM_MAX_WARPS ? s->k->module->num_warps
                                                                             : LAYOUT_TRITON_STREAM_MAX_WARPS;
        p->partner = p->partner_op = p->buffer = -1;
        p->buffer_offset = -1;
        p->standing = 1;
        p->accesses = 1;
        s->cap_open = 1;
    }
    return p;
}

/* Keep the pending access (its warps costed) as the stream's next entry. */
static void scratch_keep(layout_tk_scratch *s, int write, int bytes, uint64_t key, int64_t off)
{
    layout_triton_inst *p = scratch_pending(s);
    if (!s->cap) return;
    if (p) {
        p->seq = s->cap->n;
        p->direction = write ? LAYOUT_WRITE : LAYOUT_READ;
        p->bytes = bytes;
        p->base_reg = key;
        p->offset = off;
    }
    s->cap->n++;
    s->cap_open = 0;
}

void layout_tk_scratch_keep_named(layout_tk_scratch *s, int write, int bytes, uint64_t key, int64_t off, const char *mn)
{
    layout_triton_inst *p = scratch_pending(s);
    s->pend_open = 0;
    if (p) snprintf(p->mnemonic, sizeof p->mnemonic, "%s", mn);
    scratch_keep(s, write, bytes, key, off);
}

/* The block's entries in the stream (from cap_blk0): named, and paired
 * where SILoadStoreOptimizer pairs them (partner and kind by block index). */
static void scratch_block_names(layout_tk_scratch *s, const short *partner, const unsigned char *kind)
{
    for (int i = 0; i < s->blk_n && s->cap_blk0 + i < s->cap->cap; i++) {
        layout_triton_inst *e = &s->cap->out[s->cap_blk0 + i];
        int pairable = !s->k->is_nvidia && s->blk_w[i], p = pairable ? partner[i] : -1;
        if (pairable) {
            /* the AMD name (gfx11 / gfx12's are given by the stream's caller, stream.c) */
            layout_tk_pair_name(s->blk_w[i], p >= 0 ? kind[i] : 0, e->direction, e->mnemonic, sizeof e->mnemonic);
        } else {
            scratch_mnemonic(s->k, s->blk_write, s->blk_bits[i], s->blk_vec[i] ? s->blk_vec[i] : 1, e->mnemonic,
                        sizeof e->mnemonic);
        }
        if (p < 0) continue;
        e->partner = s->cap_blk0 + p;
        e->pair_form = kind[i];
        e->standing = s->blk_write ? i > p : i < p;
        e->passes |= LAYOUT_TRITON_PASS_SILSOPT;
    }
}

/* NVIDIA: ptxas's joins (ptxas_join.c) over the block's accesses whose
 * lanes all read or write one address (a scan's warp totals, read by
 * every lane: the corpus's 1-D cumsums, v2 + b32 as one LDS.128); such an
 * address is the scratch's (aligned to 128 bytes, alloc.c) plus a
 * constant, so its base's alignment is whole.  Accesses with per-lane
 * addresses are left as they are (their joined cost would need every
 * warp's addresses).  The joined accesses' CTA costs give way to the
 * joined instruction's (one address, the lead's active lanes on as many
 * warps); the stream's entries name their lead. */
static __attribute__((noinline)) void scratch_ptxas(layout_tk_scratch *s)
{
    layout_tk_pj_acc a[LAYOUT_TK_PJ_SCRATCH];
    short lead[LAYOUT_TK_PJ_SCRATCH];
    int width[LAYOUT_TK_PJ_SCRATCH], n = s->blk_n < LAYOUT_TK_PJ_SCRATCH ? s->blk_n : LAYOUT_TK_PJ_SCRATCH;
    int64_t start[LAYOUT_TK_PJ_SCRATCH];
    layout_triton_kernel_op *r = s->r;
    int uniform = 0;
    for (int i = 0; i < n; i++) {
        int vec = s->blk_vec[i] ? s->blk_vec[i] : 1;
        a[i] = (layout_tk_pj_acc){s->blk_write, s->blk_bits[i] / 8, s->blk_bits[i] / vec, s->blk_key[i], s->blk_off[i],
                                  s->blk_uniform[i] ? 4 : -1};
        uniform += s->blk_uniform[i];
    }
    if (uniform < 2) return;
    int joined = layout_tk_ptxas_join(a, n, s->blk_write || layout_tk_ptxas_join16(s->k, r->op), lead, width, start);
    int64_t dt = 0, dx = 0;
    for (int i = 0; i < n && joined; i++) {
        if (lead[i] < 0) continue;
        dt -= s->blk_t[i];
        dx -= s->blk_x[i];
        if (lead[i] != i) continue;
        layout_instr ins;
        layout_cost c;
        layout_error e;
        if (layout_instr_init(&ins, s->lanes, width[i], s->blk_write ? LAYOUT_WRITE : LAYOUT_READ, &e) != LAYOUT_OK)
            return;
        ins.active_mask = s->blk_act[i];
        for (int l = 0; l < s->lanes; l++) ins.addr_bytes[l] = (uint32_t)(s->blk_addr[i] - (uint64_t)(a[i].off - start[i]));
        if (layout_checker_cost(&s->ck, &ins, &c, &e) != LAYOUT_OK) return; /* left unjoined */
        dt += c.total_cycles * s->blk_warps[i];
        dx += c.extra_cycles * s->blk_warps[i];
    }
    if (!joined) return;
    r->ptxas_cta_total_delta += dt;
    r->ptxas_cta_extra_delta += dx;
    for (int i = 0; i < n && s->cap; i++)
        if (lead[i] >= 0 && s->cap_blk0 + i < s->cap->cap) {
            layout_triton_inst *e = &s->cap->out[s->cap_blk0 + i];
            e->passes |= LAYOUT_TRITON_PASS_PTXAS_JOIN;
            e->ptxas_lead = s->cap_blk0 + lead[i];
            e->ptxas_bytes = lead[i] == i ? width[i] : 0;
        }
    if (s->blk_write) r->ptxas_joined_stores += joined;
    else r->ptxas_joined_loads += joined;
}

/* The mnemonics of the accesses of the block that ends here (AMD: paired
 * where SILoadStoreOptimizer pairs them). */
void layout_tk_scratch_block_end(layout_tk_scratch *s)
{
    char mn[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP];
    int i;
    short partner[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    unsigned char kind[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    if (s->blk_n == 0) return;
    if (s->k->is_nvidia) scratch_ptxas(s);
    s->r->direction = s->blk_write ? LAYOUT_WRITE : LAYOUT_READ;
    if (!s->k->is_nvidia)
        layout_tk_pair_block(s->k, s->r, s->blk_n, s->blk_w, s->blk_key, s->blk_off, s->cap ? partner : NULL,
                             s->cap ? kind : NULL);
    if (s->cap) scratch_block_names(s, partner, kind);
    for (i = 0; i < s->blk_n; i++)
        if (s->k->is_nvidia || !s->blk_w[i]) {
            scratch_mnemonic(s->k, s->blk_write, s->blk_bits[i], s->blk_vec[i] ? s->blk_vec[i] : 1, mn, sizeof mn);
            layout_tk_count_add(s->r, mn, 1);
        }
    s->blk_n = 0;
}

/* Add the access just costed (warp 0's lane 0 at byte off from base
 * register key) to the block, and count it. */
void layout_tk_scratch_block_add(layout_tk_scratch *s, int write, int bits, int vec, uint64_t key, int64_t off)
{
    if (s->blk_n > 0 && s->blk_write != write) layout_tk_scratch_block_end(s);
    if (s->blk_n == 0 && s->cap) s->cap_blk0 = s->cap->n;
    if (s->blk_n < LAYOUT_TK_PJ_SCRATCH) {
        int i = s->blk_n;
        s->blk_uniform[i] = (unsigned char)(s->pend_open && s->pend_uniform && s->pend_warps < 256);
        s->blk_warps[i] = (unsigned char)(s->pend_warps < 256 ? s->pend_warps : 0);
        s->blk_addr[i] = s->pend_addr;
        s->blk_act[i] = s->pend_act;
        s->blk_t[i] = s->pend_open ? s->pend_t : 0;
        s->blk_x[i] = s->pend_open ? s->pend_x : 0;
    }
    s->pend_open = 0;
    scratch_keep(s, write, bits / 8, key, off);
    s->blk_write = write;
    s->blk_w[s->blk_n] = (unsigned char)(bits == 32 || bits == 64 ? bits / 8 : 0);
    s->blk_key[s->blk_n] = key;
    s->blk_off[s->blk_n] = off;
    s->blk_vec[s->blk_n] = (unsigned char)(vec > 0 ? vec : 1);
    s->blk_bits[s->blk_n++] = (unsigned char)bits;
    s->r->n_accesses++;
}

int64_t layout_tk_smem_bases(const int *bits, int n_ops, int64_t elems, int64_t *base)
{
    int sorted[LAYOUT_TK_SMEM_MAX_OPS], i, j;
    int64_t total = 0;
    for (i = 0; i < n_ops; i++) sorted[i] = i;
    for (i = 1; i < n_ops; i++) /* widest first, a stable insertion sort */
        for (j = i; j > 0 && bits[sorted[j]] > bits[sorted[j - 1]]; j--) {
            int t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    for (i = 0; i < n_ops; i++) {
        base[sorted[i]] = total;
        total += elems * (bits[sorted[i]] / 8);
    }
    return total;
}
