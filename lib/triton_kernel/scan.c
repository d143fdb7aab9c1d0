/* tt.scan (Triton 3.6.1: lib/Conversion/TritonGPUToLLVM/ScanOpToLLVM.cpp,
 * emitFastScan and its helpers; ScanLoweringHelper in lib/Analysis/Utility.cpp;
 * read at tag v3.6.1).  Triton lowers a scan only for a blocked operand
 * (ScanLoweringHelper::isSupported).  scanThreadContiguousElements
 * (registers) and warpScan (shuffles) touch no shared memory; when S > 1
 * warps hold distinct data along the axis (getAxisNumWarpsWithUniqueData,
 * the warp bases along it) scanAcrossWarps exchanges each warp's totals:
 *
 *   chunks: the thread's registers (broadcast ones removed) in groups of
 *   A = getContigPerThread()[axis] along the axis; chunk c is the c-th
 *   register whose index along the axis within its group is A - 1 (the
 *   register index over getAxisElementStride, modulo A);
 *
 *   storeWarpAccumulator: per chunk c and operand, one store predicated on
 *   laneIdAxis == threadsPerWarp[axis] - 1 (and isRepresentative, true
 *   here: no free lane or warp is modelled) at element
 *       P + N * (warpIdAxis + c * S)
 *   of the operand's scratch, with N = getNonAxisNumThreadsPerCTA and P =
 *   the thread's flat id among the parallel (non-axis) threads:
 *   linearize(lane ids with the axis zeroed, threadsPerWarp with the
 *   axis 1, order) + N_w * linearize(the same of the warp ids), N_w =
 *   getNonAxisNumThreadsPerWarp;
 *
 *   barrier; AddPartialReduce: per chunk c, for i = 0 .. S-1, one
 *   unpredicated load per operand of element P + N * (i + c * S).  Its
 *   result is combined into the chunk's accumulator; the last load of an
 *   accumulator's last chunk (i = S - 1) only feeds a select under
 *   `warpIdAxis >= S`, which is false (warpIdAxis < S by construction), so
 *   LLVM drops it: the corpus shows chunks * S - (accumulators) loads on
 *   every target (scan2d 64x64 on sm_90: 32 chunks, S = 4, 4 accumulators:
 *   124 ld.shared.b32).  The accumulator of chunk c: blockId = c / E
 *   (E = getNonAxisNumElementsPerThread), parallelBlockId = blockId %
 *   blockStride + blockId / blockStride / numScanBlocks * blockStride,
 *   index c % E + parallelBlockId * E.
 *
 * Scratch (getScratchSizeInBytes / getSmemBases, ReduceScanCommon.h):
 * elems = warps * N_w * E * axisBlocks * nonAxisBlocks per operand, the
 * operands' regions widest first.  The scratch is taken at offset 0 of the
 * shared memory (the scan's own scratch; Triton's allocation may place it
 * elsewhere when other buffers are live, which moves the addresses by a
 * constant and is not followed).
 *
 * What LLVM makes of these accesses (from the corpus's ISA):
 *   - N = 1 (one parallel thread: a 1-D scan): the loads' addresses are
 *     the same for every lane and are constants, so the LoadStoreVectorizer
 *     merges adjacent ones into 16-byte accesses from the front; what is
 *     left is 8 + 4 bytes on NVIDIA (natural alignment, no v3) and one
 *     12-byte ds_read_b96 on AMD (cumsum1d 1024 on sm_90: v4, v2, b32;
 *     on gfx942: b96; gfx1100: b128, b96);
 *   - AMD: SILoadStoreOptimizer pairs the b32 / b64 stores of one base
 *     (the stores of all chunks share one predicated block) and the loads
 *     (one block after the barrier).  Empirical: on wave64 a 1-D scan's
 *     stores stay single (cumsum1d 4096 on gfx942 / gfx950: two
 *     ds_write_b32 at offsets 0 and 32; wave32 gfx1100 pairs its two).
 *
 * A reverse scan (flipSrcValues, warpIdAxis = S - 1 - warpIdAxis) is not
 * modelled across warps: no compiled kernel shows which of its loads LLVM
 * drops. */
#include <stdio.h>
#include <string.h>

#include "tk_internal.h"

#define SC_MAX_OPS LAYOUT_TK_SMEM_MAX_OPS
#define SC_MAX_RANK LAYOUT_TTGIR_MAX_RANK

/* Triton's linearize(multiDim, shape, order): order[0] varies fastest. */
static int64_t sc_linearize(const int64_t *multi, const int64_t *shape, const int *order, int rank)
{
    int64_t v = 0;
    for (int p = rank - 1; p >= 0; p--) v = v * shape[order[p]] + multi[order[p]];
    return v;
}

/* Whether the op's `reverse` attribute is true. */
static int sc_reverse(const layout_ttgir *m, const layout_ttgir_op *o)
{
    int64_t r;
    return layout_ttgir_ir_attr_int(m, o->ir_op, "reverse", &r) == LAYOUT_OK && r == 1;
}

/* The per-dim counts Triton's helpers read off the operand's linear layout
 * R (every basis along one dim, checked by the caller). */
typedef struct sc_shape {
    int rank, axis, order[SC_MAX_RANK], od[SC_MAX_RANK];
    int64_t contig[SC_MAX_RANK], tpw[SC_MAX_RANK], wpc[SC_MAX_RANK], blocks[SC_MAX_RANK];
} sc_shape;

/* getContigPerThread (LinearEncodingAttr): along each dim in layout
 * order, the leading register bases 1, 2, 4, ... of that dim. */
static void sc_contig(const layout_linear *R, int ir, sc_shape *g)
{
    int b = 0, d, p;
    for (d = 0; d < g->rank; d++) g->contig[d] = 1;
    for (p = 0; p < g->rank; p++) {
        d = g->order[p];
        while (b < R->in_bits[ir]) {
            uint64_t v = layout_tk_basis(R, ir, b);
            if (layout_tk_dim_of(R, v, g->od, g->rank) != d || layout_tk_coord(R, v, g->od[d]) != (uint64_t)g->contig[d])
                break;
            g->contig[d] *= 2;
            b++;
        }
    }
}

static layout_status sc_refused(layout_triton_kernel_op *r)
{
    return layout_tk_not_modelled(r, "tt.scan: the checker refused an access");
}

layout_status layout_tk_lower_scan(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r, layout_error *err)
{
    const layout_ttgir *m = k->module;
    const layout_ttgir_op *o = &m->ops[op];
    const layout_ttgir_type *src;
    const char *attr;
    size_t alen;
    layout_triton_attr ta;
    layout_linear R;
    sc_shape g;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP], name[16];
    int n_ops, ir, il, iw, b, d, i, w, l, lanes = m->threads_per_warp, nwarps = m->num_warps, n_reg_bits = 0;
    int bits[SC_MAX_OPS];
    int64_t S, A, E, scan_dim, n_thr_w, N, block_stride = 1, axis_blocks, par_blocks = 1, chunks;
    int64_t elems, nreg, base[SC_MAX_OPS], total_bytes = 0, warps_all;
    int64_t flat[64 * 32], wax[64 * 32], lax[64 * 32];
    uint64_t addr[64];
    layout_tk_scratch *s, st_;

    (void)err;
    n_ops = o->n_src;
    if (n_ops < 1 || n_ops > SC_MAX_OPS)
        return layout_tk_not_modelled(r, "tt.scan: %d operands read: 1 to %d register tensors are modelled", n_ops,
                                      SC_MAX_OPS);
    src = &o->src[0];
    g.rank = src->rank;
    for (i = 0; i < n_ops; i++) {
        const layout_ttgir_type *t = &o->src[i];
        if (t->is_memdesc || t->enc_len == 0 || t->rank != g.rank)
            return layout_tk_not_modelled(r, "tt.scan: operand %d is not a register tensor of the first's rank", i);
        bits[i] = t->elem_bits;
        if (bits[i] != 8 && bits[i] != 16 && bits[i] != 32 && bits[i] != 64)
            return layout_tk_not_modelled(r, "tt.scan: operand %d's element type not 8, 16, 32 or 64 bits", i);
    }
    if (g.rank < 1 || g.rank > SC_MAX_RANK) return layout_tk_not_modelled(r, "tt.scan: rank %d not modelled", g.rank);
    if ((g.axis = layout_tk_op_axis(m, o)) < 0 || g.axis >= g.rank)
        return layout_tk_not_modelled(r, "tt.scan: its axis attribute was not read");
    if (layout_ttgir_encoding(m, src, &attr, &alen) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "tt.scan: the operand's encoding is not defined");
    if (layout_tk_reg_linear(m, src, attr, alen, &ta, &R, why, sizeof why) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "tt.scan: %s", why);
    r->elem_bits = bits[0];
    r->vec_elems = 1;
    r->vec_bits = bits[0];
    r->reg_enc_at = src->enc_at;
    r->reg_enc_len = src->enc_len;
    r->shared_enc_at = r->shared_enc_len = 0;
    ir = layout_linear_in_dim(&R, "register");
    il = layout_linear_in_dim(&R, "lane");
    iw = layout_linear_in_dim(&R, "warp");
    if (ir < 0 || il < 0 || R.n_out != g.rank)
        return layout_tk_not_modelled(r, "tt.scan: the operand's layout has no register/lane dims");
    for (d = 0; d < g.rank; d++) {
        snprintf(name, sizeof name, "dim%d", d);
        if ((g.od[d] = layout_linear_out_dim(&R, name)) < 0)
            return layout_tk_not_modelled(r, "tt.scan: the operand's layout has no %s", name);
        g.tpw[d] = g.wpc[d] = 1;
    }
    /* S: the warps along the axis; none: within warps (no shared access) */
    for (b = 0, S = 1; iw >= 0 && b < R.in_bits[iw]; b++)
        if (layout_tk_coord(&R, layout_tk_basis(&R, iw, b), g.od[g.axis]) != 0) S *= 2;
    if (S == 1) {
        r->modelled = 1; /* within threads and warps: registers and shuffles */
        return LAYOUT_OK;
    }
    if (ta.kind != LAYOUT_TRITON_BLOCKED) /* Triton itself refuses it (isSupported) */
        return layout_tk_not_modelled(r, "tt.scan: Triton 3.6 lowers a scan of a blocked operand only");
    if (sc_reverse(m, o))
        return layout_tk_not_modelled(r, "tt.scan: a reverse scan across %d warps: which of its scratch loads LLVM "
                                         "drops is not established", (int)S);
    if (lanes != 32 && lanes != 64) return layout_tk_not_modelled(r, "tt.scan: ttg.threads-per-warp not 32 or 64");
    if (R.in_bits[il] != layout_log2_floor(lanes) || iw < 0 || (1 << R.in_bits[iw]) != nwarps || nwarps > 32)
        return layout_tk_not_modelled(r, "tt.scan: the layout's lanes / warps differ from the module's");
    /* Triton's per-dim counts read a layout whose lane and warp bases each
     * lie along one dim (a free lane or warp: isRepresentative, not
     * followed); broadcast registers are removed (removeBroadcastRegs). */
    for (i = 0; i < R.n_in; i++)
        for (b = 0; b < R.in_bits[i]; b++) {
            uint64_t v = layout_tk_basis(&R, i, b);
            int nd = 0;
            for (d = 0; d < g.rank; d++) nd += layout_tk_coord(&R, v, g.od[d]) != 0;
            if (nd > 1) return layout_tk_not_modelled(r, "tt.scan: a basis of the operand's layout spans two dims");
            if (nd == 0 && i != ir)
                return layout_tk_not_modelled(r, "tt.scan: a lane or warp holds no distinct data (a free variable)");
            if (nd == 0) continue;
            d = layout_tk_dim_of(&R, v, g.od, g.rank);
            if (i == ir) n_reg_bits++;
            else if (i == il) g.tpw[d] *= 2;
            else g.wpc[d] *= 2;
        }
    for (d = 0; d < g.rank; d++) g.order[d] = ta.order[d];
    sc_contig(&R, ir, &g);
    for (d = 0; d < g.rank; d++) {
        int64_t per = g.contig[d] * g.tpw[d] * g.wpc[d];
        g.blocks[d] = (src->shape[d] + per - 1) / per;
        if (d != g.axis) par_blocks *= g.blocks[d];
    }
    /* getAxisBlockStride; the chunks' order within a thread
     * (getAxisElementStride) moves no address: only their count matters */
    for (i = 0; i < g.rank && g.order[i] != g.axis; i++) block_stride *= g.blocks[g.order[i]];
    A = g.contig[g.axis];
    axis_blocks = g.blocks[g.axis];
    for (d = 0, E = 1, n_thr_w = 1, warps_all = 1; d < g.rank; d++) {
        if (d != g.axis) { E *= g.contig[d]; n_thr_w *= g.tpw[d]; }
        warps_all *= g.wpc[d];
    }
    scan_dim = g.tpw[g.axis];
    N = warps_all / S * n_thr_w;
    nreg = (int64_t)1 << n_reg_bits;
    if (axis_blocks * par_blocks * E * A != nreg)
        return layout_tk_not_modelled(r, "tt.scan: the registers are not the blocks Triton's helper counts");
    chunks = nreg / A;
    elems = warps_all * n_thr_w * E * axis_blocks * par_blocks;
    if (chunks * (S + 1) * n_ops > LAYOUT_TRITON_KERNEL_MAX_ACCESSES)
        return layout_tk_not_modelled(r, "tt.scan: more than %d scratch accesses per warp",
                                      LAYOUT_TRITON_KERNEL_MAX_ACCESSES);
    total_bytes = layout_tk_smem_bases(bits, n_ops, elems, base);
    r->cvt_scratch_bytes = total_bytes;
    r->cvt_reps = 1;

    /* getDelinearizedIds: each thread's axis lane, axis warp and flat
     * parallel id */
    for (w = 0; w < nwarps; w++)
        for (l = 0; l < lanes; l++) {
            int64_t lm[SC_MAX_RANK], wm[SC_MAX_RANK], ls[SC_MAX_RANK], ws[SC_MAX_RANK];
            int rep;
            layout_tk_delinearize(&R, il, (uint64_t)l, g.od, g.rank, g.order, lm, &rep);
            layout_tk_delinearize(&R, iw, (uint64_t)w, g.od, g.rank, g.order, wm, &rep);
            lax[w * lanes + l] = lm[g.axis];
            wax[w * lanes + l] = wm[g.axis];
            for (d = 0; d < g.rank; d++) {
                ls[d] = d == g.axis ? 1 : g.tpw[d];
                ws[d] = d == g.axis ? 1 : g.wpc[d];
            }
            lm[g.axis] = wm[g.axis] = 0;
            flat[w * lanes + l] = sc_linearize(lm, ls, g.order, g.rank) + sc_linearize(wm, ws, g.order, g.rank) * n_thr_w;
        }

    s = &st_;
    memset(s, 0, sizeof *s);
    s->k = k;
    s->r = r;
    s->lanes = lanes;
    if (layout_checker_init(&s->ck, &k->arch, LAYOUT_IMPL_AUTO, err) != LAYOUT_OK)
        return err ? err->status : LAYOUT_ERR_ARG;

    /* storeWarpAccumulator: one predicated block (the file's comment) */
    for (int64_t c = 0; c < chunks; c++)
        for (i = 0; i < n_ops; i++) {
            int eb = bits[i] / 8;
            for (w = 0; w < nwarps; w++) {
                uint64_t act = 0;
                for (l = 0; l < lanes; l++) {
                    int t = w * lanes + l;
                    addr[l] = (uint64_t)(base[i] + (flat[t] + N * (wax[t] + c * S)) * eb);
                    if (lax[t] == scan_dim - 1) act |= (uint64_t)1 << l;
                }
                if (layout_tk_scratch_cost(s, 1, eb, w, act, addr)) return sc_refused(r);
            }
            layout_tk_scratch_block_add(s, 1, bits[i], 1, !k->is_nvidia && lanes == 64 && N == 1 ? (uint64_t)c : 0,
                                        base[i] + N * c * S * eb);
        }
    layout_tk_scratch_block_end(s);

    /* AddPartialReduce's loads, the dead ones left out; N = 1: the
     * LoadStoreVectorizer's runs over the uniform constant addresses */
    for (i = 0; i < n_ops; i++) {
        int eb = bits[i] / 8;
        int64_t run_at = -1, run_n = 0;
        for (int64_t c = 0; c <= chunks; c++)
            for (int64_t x = 0; x < S; x++) {
                int live = c < chunks, last = 1;
                if (live) {
                    int64_t blk = c / E, pblk = blk % block_stride + blk / block_stride / axis_blocks * block_stride;
                    int64_t acc = c % E + pblk * E;
                    for (int64_t c2 = c + 1; c2 < chunks && last; c2++) {
                        int64_t b2 = c2 / E, p2 = b2 % block_stride + b2 / block_stride / axis_blocks * block_stride;
                        if (c2 % E + p2 * E == acc) last = 0;
                    }
                    live = !(last && x == S - 1);
                }
                if (N == 1 && live && run_n > 0 && run_at + run_n == x + c * S && (run_n + 1) * eb <= 16) {
                    run_n++; /* extends the run */
                    continue;
                }
                while (run_n > 0) { /* the run so far, split as the targets take it */
                    int64_t take = run_n;
                    for (;;) {
                        int64_t by = take * eb, off = base[i] + run_at * eb;
                        int pow2 = (by & (by - 1)) == 0;
                        if (take == 1 || (k->is_nvidia ? pow2 && off % by == 0
                                                       : (pow2 || by == 12) && off % (by > 8 ? 8 : by > 4 ? 4 : by) == 0))
                            break;
                        take--;
                    }
                    for (w = 0; w < nwarps; w++) {
                        for (l = 0; l < lanes; l++)
                            addr[l] = (uint64_t)(base[i] + (flat[w * lanes + l] + N * run_at) * eb);
                        if (layout_tk_scratch_cost(s, 0, (int)(take * eb), w, lanes == 64 ? ~(uint64_t)0
                                                                                            : 0xffffffffu, addr))
                            return sc_refused(r);
                    }
                    layout_tk_scratch_block_add(s, 0, (int)(take * bits[i]), (int)take, 0,
                                                base[i] + N * run_at * eb);
                    run_at += take;
                    run_n -= take;
                }
                if (live) {
                    run_at = x + c * S;
                    run_n = 1;
                }
            }
    }
    layout_tk_scratch_block_end(s);
    r->direction = LAYOUT_WRITE;
    r->cta_total_cycles = s->cta_total;
    r->cta_extra_cycles = s->cta_extra;
    r->modelled = 1;
    return LAYOUT_OK;
}
