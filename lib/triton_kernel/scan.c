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
 *     (one block after the barrier).  Which accesses share a base is
 *     LLVM's (tidbits.c): chunk c's store is the part P + N * warpIdAxis
 *     plus N * c * S, and where that constant covers what the part's
 *     `and` clears InstCombine makes it an `or` of its own, which the
 *     predicated block gets on another register than the part's
 *     (cumsum1d 4096 with 8 warps on gfx950: two ds_write_b32 at offsets
 *     0 and 32; with 4 warps, + 4 does not cover bit 3 of tid >> 6:
 *     ds_write2_b32).  With one lane along the axis the predicate is
 *     constant, nothing branches, and the accesses share the entry
 *     block's registers.
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

/* ---- layout_tk_lower_scan, in steps ----
 *
 * A step that can end the lowering returns 1 with *st what
 * layout_tk_lower_scan returns (r final: a reason recorded, or modelled
 * without a scratch), else 0. */

/* One scan: its operands, the layout's per-dim counts, the scratch and
 * each thread's ids, shared by the steps by pointer (the thread tables
 * alone are 48 KiB). */
typedef struct sc_state {
    const layout_triton_kernel *k;
    const layout_ttgir *m;
    const layout_ttgir_op *o;
    const layout_ttgir_type *src; /* the first operand */
    layout_linear R;              /* its layout */
    sc_shape g;                   /* R's per-dim counts */
    int blocked;                  /* the operand's encoding is #ttg.blocked */
    int n_ops, lanes, nwarps, ir, il, iw, n_reg_bits;
    int bits[SC_MAX_OPS];
    /* the file's comment: S warps along the axis, A contiguous elements,
     * E non-axis elements per thread, N parallel threads */
    int64_t S, A, E, scan_dim, n_thr_w, N, block_stride, axis_blocks, par_blocks, chunks;
    int64_t elems, nreg, base[SC_MAX_OPS], warps_all;
    int64_t flat[64 * 32], wax[64 * 32], lax[64 * 32]; /* per thread: parallel id, axis warp, axis lane */
    uint64_t addr[64];            /* one access's lane addresses */
    /* AMD: the parallel id as LLVM sees it, (tid << tid_shift) & tid_mask
     * (tidbits.c), when it is one such field (tid_ok) */
    int tid_ok, tid_shift, st_ok, st_shift;
    uint64_t tid_mask, st_mask; /* st_: the stores' part, P + N * warpIdAxis */
    layout_tk_scratch s;          /* the checker and the current block */
} sc_state;

/* A step's end of the lowering: *st = s, and 1. */
static int sc_final(layout_status *st, layout_status s)
{
    *st = s;
    return 1;
}

/* The operands (register tensors of one rank, 8 to 64-bit elements), the
 * axis and the first operand's layout; the report's element and encoding
 * fields set on the way. */
static int sc_read_operands(sc_state *x, layout_triton_kernel_op *r, layout_status *st)
{
    const char *attr;
    size_t alen;
    layout_triton_attr ta;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP];
    int i, d;
    x->n_ops = x->o->n_src;
    if (x->n_ops < 1 || x->n_ops > SC_MAX_OPS)
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: %d operands read: 1 to %d register tensors are modelled",
                                                   x->n_ops, SC_MAX_OPS));
    x->src = &x->o->src[0];
    x->g.rank = x->src->rank;
    for (i = 0; i < x->n_ops; i++) {
        const layout_ttgir_type *t = &x->o->src[i];
        if (t->is_memdesc || t->enc_len == 0 || t->rank != x->g.rank)
            return sc_final(st, layout_tk_not_modelled(r, "tt.scan: operand %d is not a register tensor of the first's rank", i));
        x->bits[i] = t->elem_bits;
        if (x->bits[i] != 8 && x->bits[i] != 16 && x->bits[i] != 32 && x->bits[i] != 64)
            return sc_final(st, layout_tk_not_modelled(r, "tt.scan: operand %d's element type not 8, 16, 32 or 64 bits", i));
    }
    if (x->g.rank < 1 || x->g.rank > SC_MAX_RANK)
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: rank %d not modelled", x->g.rank));
    if ((x->g.axis = layout_tk_op_axis(x->m, x->o)) < 0 || x->g.axis >= x->g.rank)
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: its axis attribute was not read"));
    if (layout_ttgir_encoding(x->m, x->src, &attr, &alen) != LAYOUT_OK)
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: the operand's encoding is not defined"));
    if (layout_tk_reg_linear(x->m, x->src, attr, alen, &ta, &x->R, why, sizeof why) != LAYOUT_OK)
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: %s", why));
    x->blocked = ta.kind == LAYOUT_TRITON_BLOCKED;
    for (d = 0; d < x->g.rank; d++) x->g.order[d] = ta.order[d]; /* read below once the layout is blocked */
    r->elem_bits = x->bits[0];
    r->vec_elems = 1;
    r->vec_bits = x->bits[0];
    r->reg_enc_at = x->src->enc_at;
    r->reg_enc_len = x->src->enc_len;
    r->shared_enc_at = r->shared_enc_len = 0;
    return 0;
}

/* R's input and output dims, and S, the warps along the axis: with none
 * the scan stays within warps (registers and shuffles, no shared access). */
static int sc_warps_along_axis(sc_state *x, layout_triton_kernel_op *r, layout_status *st)
{
    char name[16];
    int b, d;
    x->ir = layout_linear_in_dim(&x->R, "register");
    x->il = layout_linear_in_dim(&x->R, "lane");
    x->iw = layout_linear_in_dim(&x->R, "warp");
    if (x->ir < 0 || x->il < 0 || x->R.n_out != x->g.rank)
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: the operand's layout has no register/lane dims"));
    for (d = 0; d < x->g.rank; d++) {
        snprintf(name, sizeof name, "dim%d", d);
        if ((x->g.od[d] = layout_linear_out_dim(&x->R, name)) < 0)
            return sc_final(st, layout_tk_not_modelled(r, "tt.scan: the operand's layout has no %s", name));
        x->g.tpw[d] = x->g.wpc[d] = 1;
    }
    for (b = 0, x->S = 1; x->iw >= 0 && b < x->R.in_bits[x->iw]; b++)
        if (layout_tk_coord(&x->R, layout_tk_basis(&x->R, x->iw, b), x->g.od[x->g.axis]) != 0) x->S *= 2;
    if (x->S == 1) {
        r->modelled = 1; /* within threads and warps: registers and shuffles */
        return sc_final(st, LAYOUT_OK);
    }
    return 0;
}

/* What Triton lowers across warps: a blocked, forward operand whose lanes
 * and warps are the module's.  Its per-dim counts read a layout whose lane
 * and warp bases each lie along one dim (a free lane or warp:
 * isRepresentative, not followed); broadcast registers are removed
 * (removeBroadcastRegs). */
static int sc_read_counts(sc_state *x, layout_triton_kernel_op *r, layout_status *st)
{
    const layout_linear *R = &x->R;
    int i, b, d;
    if (!x->blocked) /* Triton itself refuses it (isSupported) */
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: Triton 3.6 lowers a scan of a blocked operand only"));
    if (sc_reverse(x->m, x->o))
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: a reverse scan across %d warps: which of its scratch loads LLVM "
                                                      "drops is not established", (int)x->S));
    if (x->lanes != 32 && x->lanes != 64)
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: ttg.threads-per-warp not 32 or 64"));
    if (R->in_bits[x->il] != layout_log2_floor(x->lanes) || x->iw < 0 || (1 << R->in_bits[x->iw]) != x->nwarps ||
        x->nwarps > 32)
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: the layout's lanes / warps differ from the module's"));
    x->n_reg_bits = 0;
    for (i = 0; i < R->n_in; i++)
        for (b = 0; b < R->in_bits[i]; b++) {
            uint64_t v = layout_tk_basis(R, i, b);
            int nd = 0;
            for (d = 0; d < x->g.rank; d++) nd += layout_tk_coord(R, v, x->g.od[d]) != 0;
            if (nd > 1) return sc_final(st, layout_tk_not_modelled(r, "tt.scan: a basis of the operand's layout spans two dims"));
            if (nd == 0 && i != x->ir)
                return sc_final(st, layout_tk_not_modelled(r, "tt.scan: a lane or warp holds no distinct data (a free variable)"));
            if (nd == 0) continue;
            d = layout_tk_dim_of(R, v, x->g.od, x->g.rank);
            if (i == x->ir) x->n_reg_bits++;
            else if (i == x->il) x->g.tpw[d] *= 2;
            else x->g.wpc[d] *= 2;
        }
    return 0;
}

/* ScanLoweringHelper's counts: blocks, the axis block stride, A, E, N,
 * the chunks, and the scratch (getScratchSizeInBytes, getSmemBases). */
static int sc_scratch_shape(sc_state *x, layout_triton_kernel_op *r, layout_status *st)
{
    sc_shape *g = &x->g;
    int i, d;
    sc_contig(&x->R, x->ir, g);
    x->par_blocks = x->block_stride = 1;
    for (d = 0; d < g->rank; d++) {
        int64_t per = g->contig[d] * g->tpw[d] * g->wpc[d];
        g->blocks[d] = (x->src->shape[d] + per - 1) / per;
        if (d != g->axis) x->par_blocks *= g->blocks[d];
    }
    /* getAxisBlockStride; the chunks' order within a thread
     * (getAxisElementStride) moves no address: only their count matters */
    for (i = 0; i < g->rank && g->order[i] != g->axis; i++) x->block_stride *= g->blocks[g->order[i]];
    x->A = g->contig[g->axis];
    x->axis_blocks = g->blocks[g->axis];
    for (d = 0, x->E = 1, x->n_thr_w = 1, x->warps_all = 1; d < g->rank; d++) {
        if (d != g->axis) {
            x->E *= g->contig[d];
            x->n_thr_w *= g->tpw[d];
        }
        x->warps_all *= g->wpc[d];
    }
    x->scan_dim = g->tpw[g->axis];
    x->N = x->warps_all / x->S * x->n_thr_w;
    x->nreg = (int64_t)1 << x->n_reg_bits;
    if (x->axis_blocks * x->par_blocks * x->E * x->A != x->nreg)
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: the registers are not the blocks Triton's helper counts"));
    x->chunks = x->nreg / x->A;
    x->elems = x->warps_all * x->n_thr_w * x->E * x->axis_blocks * x->par_blocks;
    if (x->chunks * (x->S + 1) * x->n_ops > LAYOUT_TRITON_KERNEL_MAX_ACCESSES)
        return sc_final(st, layout_tk_not_modelled(r, "tt.scan: more than %d scratch accesses per warp",
                                                   LAYOUT_TRITON_KERNEL_MAX_ACCESSES));
    r->cvt_scratch_bytes = layout_tk_smem_bases(x->bits, x->n_ops, x->elems, x->base);
    r->cvt_reps = 1;
    return 0;
}

/* getDelinearizedIds: each thread's axis lane, axis warp and flat
 * parallel id. */
static void sc_thread_ids(sc_state *x)
{
    const sc_shape *g = &x->g;
    int w, l, d;
    for (w = 0; w < x->nwarps; w++)
        for (l = 0; l < x->lanes; l++) {
            int64_t lm[SC_MAX_RANK], wm[SC_MAX_RANK], ls[SC_MAX_RANK], ws[SC_MAX_RANK];
            int rep;
            layout_tk_delinearize(&x->R, x->il, (uint64_t)l, g->od, g->rank, g->order, lm, &rep);
            layout_tk_delinearize(&x->R, x->iw, (uint64_t)w, g->od, g->rank, g->order, wm, &rep);
            x->lax[w * x->lanes + l] = lm[g->axis];
            x->wax[w * x->lanes + l] = wm[g->axis];
            for (d = 0; d < g->rank; d++) {
                ls[d] = d == g->axis ? 1 : g->tpw[d];
                ws[d] = d == g->axis ? 1 : g->wpc[d];
            }
            lm[g->axis] = wm[g->axis] = 0;
            x->flat[w * x->lanes + l] =
                sc_linearize(lm, ls, g->order, g->rank) + sc_linearize(wm, ws, g->order, g->rank) * x->n_thr_w;
        }
}

/* A per-thread element index, P + scale * val[t], read as LLVM sees it:
 * Triton computes it from lane and warp ids with urem / udiv / mul / add
 * by powers of two, which InstCombine folds into ands and shifts of tid;
 * where the index is one field of tid (checked on every thread) it is
 * one `and` (tidbits.c): 1 with *mask and *shift, else 0. */
static int sc_field(const sc_state *x, const int64_t *val, int64_t scale, uint64_t *mask, int *shift)
{
    uint64_t img[16] = {0};
    int n = 0, t, threads = x->nwarps * x->lanes;
    if (x->k->is_nvidia) return 0;
    while ((1 << n) < threads && n < 16) {
        img[n] = (uint64_t)(x->flat[1 << n] + scale * val[1 << n]);
        n++;
    }
    if (!layout_tk_tid_field(img, n, mask, shift)) return 0;
    for (t = 0; t < threads; t++) {
        uint64_t y = *shift >= 0 ? (uint64_t)t << *shift : (uint64_t)t >> -*shift;
        if ((y & *mask) != (uint64_t)(x->flat[t] + scale * val[t])) return 0;
    }
    return 1;
}

/* P as a field (the loads' part), and P + N * warpIdAxis (the stores'). */
static void sc_tid_field(sc_state *x)
{
    x->tid_ok = sc_field(x, x->wax, 0, &x->tid_mask, &x->tid_shift);
    x->st_ok = sc_field(x, x->wax, x->N, &x->st_mask, &x->st_shift);
}

/* storeWarpAccumulator: one predicated block (the file's comment).
 * Returns 1 when the checker refuses an access. */
static int sc_store_accumulators(sc_state *x)
{
    int i, w, l;
    for (int64_t c = 0; c < x->chunks; c++)
        for (i = 0; i < x->n_ops; i++) {
            int eb = x->bits[i] / 8;
            for (w = 0; w < x->nwarps; w++) {
                uint64_t act = 0;
                for (l = 0; l < x->lanes; l++) {
                    int t = w * x->lanes + l;
                    x->addr[l] = (uint64_t)(x->base[i] + (x->flat[t] + x->N * (x->wax[t] + c * x->S)) * eb);
                    if (x->lax[t] == x->scan_dim - 1) act |= (uint64_t)1 << l;
                }
                if (layout_tk_scratch_cost(&x->s, 1, eb, w, act, x->addr)) return 1;
            }
            /* AMD: chunk c's P + N * (warpIdAxis + c * S), the part plus
             * a constant: a register of its own where InstCombine drops
             * the part's `and`; the stores stand in the predicate's block
             * unless the predicate is constant (one lane along the axis:
             * laneIdAxis == 0) and LLVM branches nowhere (tidbits.c) */
            uint64_t rk = 0;
            int64_t ro = x->N * c * x->S;
            if (x->st_ok) layout_tk_tid_reg(x->k, x->st_mask, x->st_shift, (uint64_t)ro, x->scan_dim > 1, &rk, &ro);
            layout_tk_scratch_block_add(&x->s, 1, x->bits[i], 1, rk, x->base[i] + ro * eb);
        }
    layout_tk_scratch_block_end(&x->s);
    return 0;
}

/* Whether AddPartialReduce's load i of chunk c stays: the last load of an
 * accumulator's last chunk only feeds a select LLVM drops (the file's
 * comment); the chunk past the last (c == chunks) flushes the runs. */
static int sc_load_live(const sc_state *x, int64_t c, int64_t i)
{
    int64_t blk, pblk, acc;
    if (c >= x->chunks) return 0;
    blk = c / x->E;
    pblk = blk % x->block_stride + blk / x->block_stride / x->axis_blocks * x->block_stride;
    acc = c % x->E + pblk * x->E;
    for (int64_t c2 = c + 1; c2 < x->chunks; c2++) {
        int64_t b2 = c2 / x->E, p2 = b2 % x->block_stride + b2 / x->block_stride / x->axis_blocks * x->block_stride;
        if (c2 % x->E + p2 * x->E == acc) return 1;
    }
    return i != x->S - 1;
}

/* Operand i's run of *run_n adjacent loads from element *run_at, split as
 * the targets take it (NVIDIA: naturally aligned powers of two; AMD also
 * b96, aligned to at most 8 bytes), each part costed and counted.
 * Returns 1 when the checker refuses an access. */
static int sc_load_run(sc_state *x, int i, int64_t *run_at, int64_t *run_n)
{
    const int64_t eb = x->bits[i] / 8;
    int w, l;
    while (*run_n > 0) {
        int64_t take = *run_n;
        for (;;) {
            int64_t by = take * eb, off = x->base[i] + *run_at * eb;
            int pow2 = (by & (by - 1)) == 0;
            if (take == 1 || (x->k->is_nvidia ? pow2 && off % by == 0
                                              : (pow2 || by == 12) && off % (by > 8 ? 8 : by > 4 ? 4 : by) == 0))
                break;
            take--;
        }
        for (w = 0; w < x->nwarps; w++) {
            for (l = 0; l < x->lanes; l++)
                x->addr[l] = (uint64_t)(x->base[i] + (x->flat[w * x->lanes + l] + x->N * *run_at) * eb);
            if (layout_tk_scratch_cost(&x->s, 0, (int)(take * eb), w, x->lanes == 64 ? ~(uint64_t)0 : 0xffffffffu,
                                       x->addr))
                return 1;
        }
        /* AMD: P + N * run_at, where InstCombine drops P's `and` (the
         * constant covers what it clears), is `or` of tid and the constant:
         * a register of its own, the operand's scratch base its offset
         * (the corpus's scan2d_fp32_cumsum_ax0_64x64_w4_s1_gfx1100: `or
         * i32 %tid, 1008`, one single ds_load_b32) */
        uint64_t rk;
        int64_t ro;
        if (x->tid_ok && take == 1 &&
            layout_tk_tid_reg(x->k, x->tid_mask, x->tid_shift, (uint64_t)(x->N * *run_at), x->scan_dim > 1, &rk, &ro))
            layout_tk_scratch_block_add(&x->s, 0, x->bits[i], 1, rk, x->base[i] + ro * eb);
        else /* N = 1: P is 0, a constant address, a register of its own (tk_internal.h) */
            layout_tk_scratch_block_add(&x->s, 0, (int)(take * x->bits[i]), (int)take,
                                        x->N == 1 && !x->k->is_nvidia ? LAYOUT_TK_CONST_ADDR_KEY(x->s.blk_n) : 0,
                                        x->base[i] + x->N * *run_at * eb);
        *run_at += take;
        *run_n -= take;
    }
    return 0;
}

/* AddPartialReduce's loads, the dead ones left out; N = 1: the
 * LoadStoreVectorizer's runs over the uniform constant addresses.
 * Returns 1 when the checker refuses an access. */
static int sc_load_partials(sc_state *x)
{
    for (int i = 0; i < x->n_ops; i++) {
        const int64_t eb = x->bits[i] / 8;
        int64_t run_at = -1, run_n = 0;
        for (int64_t c = 0; c <= x->chunks; c++)
            for (int64_t j = 0; j < x->S; j++) {
                int live = sc_load_live(x, c, j);
                if (x->N == 1 && live && run_n > 0 && run_at + run_n == j + c * x->S && (run_n + 1) * eb <= 16) {
                    run_n++; /* extends the run */
                    continue;
                }
                if (sc_load_run(x, i, &run_at, &run_n)) return 1;
                if (live) {
                    run_at = j + c * x->S;
                    run_n = 1;
                }
            }
    }
    layout_tk_scratch_block_end(&x->s);
    return 0;
}

layout_status layout_tk_lower_scan(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                   layout_tk_capture *cap, layout_error *err)
{
    sc_state x;
    layout_status st;
    x.k = k;
    x.m = k->module;
    x.o = &x.m->ops[op];
    x.lanes = x.m->threads_per_warp;
    x.nwarps = x.m->num_warps;
    if (sc_read_operands(&x, r, &st) || sc_warps_along_axis(&x, r, &st) || sc_read_counts(&x, r, &st) ||
        sc_scratch_shape(&x, r, &st))
        return st;
    sc_thread_ids(&x);
    sc_tid_field(&x);
    memset(&x.s, 0, sizeof x.s);
    x.s.k = k;
    x.s.r = r;
    x.s.lanes = x.lanes;
    x.s.cap = cap;
    if (layout_checker_init(&x.s.ck, &k->arch, LAYOUT_IMPL_AUTO, err) != LAYOUT_OK)
        return err ? err->status : LAYOUT_ERR_ARG;
    if (sc_store_accumulators(&x) || sc_load_partials(&x)) return sc_refused(r);
    r->direction = LAYOUT_WRITE;
    r->cta_total_cycles = x.s.cta_total;
    r->cta_extra_cycles = x.s.cta_extra;
    r->modelled = 1;
    return LAYOUT_OK;
}
