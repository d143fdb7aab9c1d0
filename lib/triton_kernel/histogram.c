/* tt.histogram as Triton 3.6 lowers it: HistogramOpToLLVM
 * (lib/Conversion/TritonGPUToLLVM/HistogramOpToLLVM.cpp, triton-lang/triton
 * read at 02f9694c507e), scratch sized by Allocation.cpp
 * (defaultAllocationAnalysisScratchSizeFn: max(bins, threadsPerWarp) *
 * bits / 8, read at 00327161946c).
 *
 * B = max(bins, T) (T lanes, W warps).  computeWarpLevelHistogram counts
 * each warp's values with ballots (registers only); computeCrossWarpHistogram
 * then always goes through the scratch, whatever W (Triton leaves the
 * one-warp shortcut unimplemented):
 *   1. zero it: ceil(B / (W T)) i32 stores per thread, thread t at element
 *      (t + i W T) mod B;
 *   2. barrier; B / T atomic adds (LLVM atomicrmw add on shared, result
 *      unused: PTX atom.shared.add.u32, AMDGCN ds_add_u32), lane l at element
 *      l (B / T) + i, every warp alike;
 *   3. barrier; one i32 load per register of the result layout at its
 *      element (emitIndices), which LLVM's LoadStoreVectorizer joins where
 *      consecutive registers hold consecutive bins (up to 128 bits).
 * The stores and loads go through the scratch helpers of reduce.c (costed
 * for every warp; on AMD paired as SILoadStoreOptimizer pairs them).  The
 * probes (tests/fixtures/triton/probes/compa.tar.xz: 32, 128 and 512 bins
 * on 8, 4 and 1 warps, sm_90 and gfx942) show exactly these counts, the
 * stores of 512 bins on one gfx942 warp paired into ds_write2st64_b32. */
#include <string.h>

#include "tk_internal.h"

typedef struct hg {
    int lanes, warps, bins, nreg, ir, il, iw;
    layout_linear R; /* the result: register/lane/warp -> bin */
    uint64_t all;
} hg;

/* 1. zero the scratch: thread t at (t + i W T) mod B */
static int hg_zero(hg *h, layout_tk_scratch *s)
{
    int64_t wt = (int64_t)h->warps * h->lanes, n = (h->bins + wt - 1) / wt;
    uint64_t addr[64];
    for (int64_t i = 0; i < n; i++) {
        for (int w = 0; w < h->warps; w++) {
            for (int l = 0; l < h->lanes; l++) addr[l] = (uint64_t)(((int64_t)w * h->lanes + l + i * wt) % h->bins) * 4;
            if (layout_tk_scratch_cost(s, 1, 4, w, h->all, addr)) return 1;
        }
        layout_tk_scratch_block_add(s, 1, 32, 1, 0, (i * wt % h->bins) * 4);
    }
    layout_tk_scratch_block_end(s); /* the barrier */
    return 0;
}

/* 2. the atomic adds: lane l at l (B / T) + i, in every warp */
static int hg_atomics(const layout_triton_kernel *k, hg *h, layout_tk_scratch *s)
{
    int per_lane = h->bins / h->lanes;
    int64_t total0 = s->cta_total, extra0 = s->cta_extra;
    uint64_t addr[64];
    for (int i = 0; i < per_lane; i++) {
        for (int l = 0; l < h->lanes; l++) addr[l] = (uint64_t)(l * per_lane + i) * 4;
        for (int w = 0; w < h->warps; w++)
            if (layout_tk_scratch_cost(s, 1, 4, w, h->all, addr)) return 1;
        s->r->n_accesses++;
        layout_tk_count_add(s->r, k->is_nvidia ? "atom.shared.add.u32" : "ds_add_u32", 1);
        layout_tk_scratch_keep_named(s, 1, 4, 0, (int64_t)i * 4, k->is_nvidia ? "atom.shared.add.u32" : "ds_add_u32");
    }
    s->r->cta_atomic_total_cycles = s->cta_total - total0;
    s->r->cta_atomic_extra_cycles = s->cta_extra - extra0;
    return 0;
}

/* 3. the loads of the result's registers, consecutive bins joined */
static int hg_loads(hg *h, layout_tk_scratch *s)
{
    int vec = 0, rest[LAYOUT_LINEAR_MAX_BITS], nrest = 0, b;
    uint64_t addr[64];
    while (vec < h->nreg && vec < 2 && layout_tk_basis(&h->R, h->ir, vec) == (uint64_t)1 << vec) vec++;
    for (b = vec; b < h->nreg; b++)
        if (layout_tk_basis(&h->R, h->ir, b) != 0) rest[nrest++] = b;
    if (s->r->n_accesses + (1 << nrest) > LAYOUT_TRITON_KERNEL_MAX_ACCESSES) return 1;
    for (int64_t a = 0; a < ((int64_t)1 << nrest); a++) {
        uint64_t rv = 0;
        for (b = 0; b < nrest; b++)
            if (a >> b & 1) rv ^= layout_tk_basis(&h->R, h->ir, rest[b]);
        for (int w = 0; w < h->warps; w++) {
            uint64_t wv = rv ^ layout_tk_image(&h->R, h->iw, (uint64_t)w);
            for (int l = 0; l < h->lanes; l++) addr[l] = (wv ^ layout_tk_image(&h->R, h->il, (uint64_t)l)) * 4;
            if (layout_tk_scratch_cost(s, 0, 4 << vec, w, h->all, addr)) return 1;
        }
        layout_tk_scratch_block_add(s, 0, 32 << vec, 1 << vec, 0, (int64_t)rv * 4);
    }
    layout_tk_scratch_block_end(s);
    return 0;
}

layout_status layout_tk_lower_histogram(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                        layout_tk_capture *cap, layout_error *err)
{
    const layout_ttgir *m = k->module;
    const layout_ttgir_op *o = &m->ops[op];
    const layout_ttgir_type *t = o->n_dst > 0 ? &o->dst[0] : NULL;
    const char *attr;
    size_t alen;
    layout_triton_attr ta;
    layout_tk_scratch st_, *s = &st_;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP];
    hg h;

    memset(&h, 0, sizeof h);
    h.lanes = k->arch.wave_size;
    h.warps = m->num_warps;
    if (!t || t->rank != 1 || t->elem_bits != 32 || !layout_is_pow2(t->shape[0]))
        return layout_tk_not_modelled(r, "tt.histogram: its result is not a 1-D i32 tensor of 2^n bins");
    if ((h.lanes != 32 && h.lanes != 64) || h.warps < 1 || h.warps > 64)
        return layout_tk_not_modelled(r, "tt.histogram: 32 or 64 lanes and 1 to 64 warps are modelled");
    if (t->enc_len == 0 || layout_ttgir_encoding(m, t, &attr, &alen) != LAYOUT_OK ||
        layout_tk_reg_linear(m, t, attr, alen, &ta, &h.R, why, sizeof why) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "tt.histogram: its result layout was not read");
    h.ir = layout_linear_in_dim(&h.R, "register");
    h.il = layout_linear_in_dim(&h.R, "lane");
    h.iw = layout_linear_in_dim(&h.R, "warp");
    if (h.ir < 0 || h.il < 0 || h.R.in_bits[h.il] != layout_log2_floor(h.lanes))
        return layout_tk_not_modelled(r, "tt.histogram: the result layout's lanes differ from the wave size");
    h.nreg = h.R.in_bits[h.ir];
    h.bins = t->shape[0] > h.lanes ? (int)t->shape[0] : h.lanes;
    h.all = h.lanes == 64 ? ~(uint64_t)0 : 0xffffffffu;
    r->reg_enc_at = t->enc_at;
    r->reg_enc_len = t->enc_len;
    r->elem_bits = 32;
    r->vec_elems = 1;
    r->vec_bits = 32;
    r->worst_access = -1;

    memset(s, 0, sizeof *s);
    s->k = k;
    s->r = r;
    s->lanes = h.lanes;
    s->cap = cap;
    if (layout_checker_init(&s->ck, &k->arch, LAYOUT_IMPL_AUTO, err) != LAYOUT_OK) return err ? err->status : LAYOUT_ERR_ARG;
    if (hg_zero(&h, s) || hg_atomics(k, &h, s) || hg_loads(&h, s))
        return layout_tk_not_modelled(r, "tt.histogram: the checker refused an access (or too many accesses)");
    r->direction = LAYOUT_WRITE;
    r->cvt_scratch_bytes = (int64_t)h.bins * 4;
    r->cvt_reps = 1;
    r->cta_total_cycles = s->cta_total;
    r->cta_extra_cycles = s->cta_extra;
    r->modelled = 1;
    return LAYOUT_OK;
}
