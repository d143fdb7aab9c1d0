/* What LLVM knows of the thread-id part of an AMD shared-memory address,
 * and when that knowledge gives an access a base register of its own.
 *
 * Triton 3.6 computes the lane / warp part of an address from
 * x = workitem.id.x & (threads - 1) (getLaneAndWarpId: lane = x urem
 * wave, warp = x udiv wave; applyLinearLayout's matrixVectorProd then
 * ANDs and shifts x per diagonal, lib/Conversion/TritonGPUToLLVM/
 * Utility.cpp).  Where every bit of x that the layout uses lands at one
 * shift s, InstCombine leaves one `and (shl tid, s), M` (or lshr): the
 * two masks merge (M within threads - 1), so the `and` with threads - 1
 * is gone and LLVM's only bound on tid is its declared range, [0, 1024)
 * (Triton's IR, the records in tests/fixtures/triton/corpus/llir_amd:
 * `declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x()`,
 * the intrinsic's Range in IntrinsicsAMDGPU.td), not the kernel's thread
 * count.
 *
 * An access at that part plus a constant C is first an `or disjoint`
 * when no bit of C is among the mask's (InstCombineAddSub.cpp @
 * 00e7afe8dfcb33e9d1e71d5a3821f1a3531781ec, visitAdd: "A+B --> A|B iff A
 * and B have no bits set in common"; an `xor` likewise,
 * InstCombineSimplifyDemanded.cpp's Xor case).  Then its `and` goes
 * whenever C sets every bit the mask clears of what tid << s may hold:
 * InstCombineSimplifyDemanded.cpp @ 00895a2755f142e3ece3677c826fd4efc142d7dc,
 * SimplifyDemandedUseBits' Or case demands of the `and` only the bits C
 * leaves clear, and SimplifyMultipleUseDemandedBits' And case ("If all of
 * the demanded bits are known 1 on one side, return the other") gives
 * tid << s to this user (the `and` stays for its other users).  The
 * address becomes `or (shl tid, s), C`, no longer disjoint (the Or case
 * drops the flag), and AMDGPU's instruction selection folds into the DS
 * offset only a base plus a constant (AMDGPUISelDAGToDAG.cpp @
 * 0060f297760d793693684daf1c9ce22157c1e5e7, SelectDS1Addr1Offset and
 * SelectDSReadWrite2: isBaseWithConstantOffset, an add or an or without
 * common bits): a base register of its own.  The corpus's
 * matmul_fp32ieee_nn_32x32x64_w2_s2_gfx950: `(tid << 2) & 252` plus 3840
 * and plus 7936 become `v_or_b32 ... 0xf00` / `0x1f00` and two single
 * ds_read_b32 (tests/fixtures/triton/llc/pairing_mask.ll: the same with
 * opt-22 -O3 and llc-22).
 *
 * Instruction selection then sees the thread count: SIISelLowering.cpp @
 * 0010bb42dcb46608b5121a26f4ff4b1587317a39, lowerWorkitemID, gives
 * workitem.id.x an AssertZext of bit_width(getMaxWorkitemID), the
 * flat work-group size Triton sets ("amdgpu-flat-work-group-size"="1,T")
 * less one.  Where C has no bit among what tid << s may hold for tid < T,
 * the DAG's `or` has no common bits again and SelectDS1Addr1Offset folds C
 * after all, on base tid << s -- the same register as the other accesses'
 * when the mask clears nothing below T (the DAG drops the `and` then)
 * (the suggest_proof fixture g415_gfx950_fp32_32x32_w1: 64 threads,
 * `(tid << 2) & 252` plus 3840, one base and eight ds_read2st64_b32).  The
 * DAG is one basic block: an `or` also used in another block (LICM hoists
 * a loop's invariant address out of the loop, GVN merges it with the same
 * value before the loop) reaches it as a register and is not folded (the
 * fixtures' matmul_fp32_64x64x32_w4_s2_gfx950: 256 threads, `(tid << 2) &
 * 1020` plus 3072 in the prologue and the loop, two ds_write_b32 a
 * stage).  llc-22 shows both: one block folds, a prologue and loop sharing
 * the address do not.  A module with a region op (scf.for, scf.if, ...)
 * is taken to share its addresses across blocks (Triton's masked loads
 * branch too, within a region-free module: not followed).
 *
 * An access in a block other than the one that computes the part (a
 * scratch store under Triton's `laneId == ...` predicate, which LLVM
 * branches around, and what follows that branch) gets the part as a
 * register, CopyFromReg of the `and` made in the entry block, while its
 * `or` is made in its own block on the shifted tid: the DAG cannot drop
 * an `and` it does not see, so the folded access keeps base tid << s,
 * another register than the part's even where the mask clears nothing
 * below T.  Instruction selection still folds C: SelectionDAGISel's
 * ComputeLiveOutVRegInfo hands the shifted tid's known bits (from the
 * entry block's AssertZext) to the other blocks (SelectionDAGBuilder's
 * getCopyFromRegs).  The corpus's cumsum1d_fp32_4096_w8_s1_gfx950 (its
 * record, corpus/llir_all): chunk 0 stores at `gep @global_smem, %10`
 * (%10 = `and (lshr tid, 6), 7` of the entry block), chunk 1 at `or i32
 * %9, 8` (%9 = `lshr tid, 6`): two ds_write_b32 at offsets 0 and 32, not
 * paired; with 4 warps (`and ..., 3` plus 4: the `and` stays, the tuning
 * set's cumsum1d_bf16_4096_w4_s1_gfx950) chunk 1 is `gep i8 %180, 16`
 * and the two pair (ds_write2_b32 offset1:4).
 *
 * Only one `and`: with two or more pieces (other shifts, or an image of
 * two bits Triton selects as a constant) the part is an or / xor of
 * several values, and SimplifyMultipleUseDemandedBits does not look
 * through a shared or / xor for an `and` to drop. */
#include <string.h>

#include "tk_internal.h"

/* workitem.id.x < 1024: the bits it may set (its declared range). */
#define TID_BITS 10

int layout_tk_tid_field(const uint64_t *img, int n, uint64_t *mask, int *shift)
{
    int s = 0, seen = 0;
    uint64_t m = 0;
    for (int b = 0; b < n; b++) {
        if (!img[b]) continue; /* a broadcast bit: no part of the address */
        if (img[b] & (img[b] - 1)) return 0; /* Triton's select of a constant */
        int sb = layout_ctz(img[b]) - b;
        if (seen && sb != s) return 0; /* another diagonal: a second piece */
        if (m & img[b]) return 0;
        s = sb, seen = 1, m |= img[b];
    }
    if (!seen) return 0;
    *mask = m;
    *shift = s;
    return 1;
}

/* The bits tid << shift may hold (i32) for tid < 2^bits. */
static uint64_t tid_bits(int bits, int shift)
{
    uint64_t tid = ((uint64_t)1 << bits) - 1;
    if (shift >= 32 || shift <= -bits) return 0;
    return shift >= 0 ? (tid << shift) & 0xffffffffu : tid >> -shift;
}

uint64_t layout_tk_tid_extra(uint64_t mask, int shift)
{
    return tid_bits(TID_BITS, shift) & ~mask;
}

int layout_tk_tid_own_reg(uint64_t mask, int shift, uint64_t c)
{
    uint64_t extra = layout_tk_tid_extra(mask, shift);
    /* `or disjoint` first (no bit of C among the mask's), then the `and`
     * is redundant where C covers what it clears */
    return c && !(c & mask) && extra && !(extra & ~c);
}

/* Whether ir op j is a control-flow region op (scf.*): LLVM blocks. */
static int is_scf(const layout_ttgir *m, int j)
{
    const layout_ttgir_ir_op *o = &m->ir.ops[j];
    return o->n_regions > 0 && o->name.len >= 4 && memcmp(m->text + o->name.at, "scf.", 4) == 0;
}

/* Whether the module has a region op that makes blocks (scf.*). */
static int has_regions(const layout_ttgir *m)
{
    for (int i = 0; i < m->ir.n_ops; i++)
        if (is_scf(m, i)) return 1;
    return 0;
}

int layout_tk_tid_reg(const layout_triton_kernel *k, uint64_t mask, int shift, uint64_t c, int elsewhere,
                      uint64_t *key, int64_t *off)
{
    const layout_ttgir *m = k->module;
    /* a lowering without its module (a layout costed alone): no thread
     * count, no blocks to read, the part's own base */
    if (k->is_nvidia || !m || !layout_tk_tid_own_reg(mask, shift, c)) return 0;
    int threads = m->num_warps * m->threads_per_warp, bits = 0;
    while (bits < TID_BITS && (1 << bits) < threads) bits++;
    uint64_t below = tid_bits(bits, shift); /* what the DAG knows tid << shift may hold */
    if (!(c & below) && !has_regions(m)) {
        /* the DAG drops the `and` where it sees it: the others' base */
        if (!(below & ~mask) && !elsewhere) return 0;
        *key = LAYOUT_TK_OWN_REG_KEY(0);  /* tid << shift itself, c folded */
        *off = (int64_t)c;
        return 2;
    }
    *key = LAYOUT_TK_OWN_REG_KEY(c);
    *off = 0;
    return 1;
}

/* ---- what SeparateConstOffsetFromGEP knows after GVN ----------------------
 *
 * A constant XOR with bits both inside and outside what the lane / warp
 * part may hold stays an `xor` through InstCombine; Triton's LLVM splits it
 * later, in the GEP, into the part XOR the inside bits plus the outside
 * ones (SeparateConstOffsetFromGEP.cpp @
 * 007f1e9600616a2dda8337142bedfc83e4657333, extractDisjointBitsFromXor:
 * DisjointBits = Const & computeKnownBits(Base).Zero), which is what
 * ldst.c's base register (the key's lane / warp bits) and offset (the
 * rest) model.  Its known bits are the part's unless the part is a phi:
 * ValueTracking.cpp @ 000c9fbbaaea20963423d8e159f3b45325a8f5a9,
 * computeKnownBitsFromOperator's PHI case, recurses into the incoming
 * values at MaxAnalysisRecursionDepth - 1 ("cap the recursion to one
 * level"), where an xor / or / select of Triton's part learns nothing of
 * its operands.  GVN makes that phi:
 * an op after a loop that computes the same part as an op in the loop
 * (the same op and types: the same lane / warp arithmetic) finds it in
 * the loop's preheader (LICM hoisted it there), available on the path
 * through the loop and not on the guard's edge past a loop that may run
 * no iteration; GVN's scalar PRE computes it on that edge and joins the
 * two with a phi.  The corpus's matmul_fp16_tn_128x64x64_w4_s3_gfx942
 * (its record, llir_amd): the loop's part `%319 = xor i32 %318, %313`
 * pairs `xor %319, 8208` with `xor %319, 16` (`v_xor_b32 v26, 16, v21`,
 * `ds_read2st64_b64 ... offset1:16`); the epilogue's `%645 = xor i32
 * %.pre-phi191, %644` keeps `xor %645, 8208`, a register of its own
 * (`v_xor_b32 v6, 0x2010, v22`, a single ds_read_b64), and pairs only
 * `or disjoint %645, 8192` (InstCombine ran before GVN, on the part
 * itself).  Debian's LLVM 22.1.8 does not split at all (opt-22's
 * separate-const-offset-from-gep leaves `xor %x, 8208`; the loop's pairs
 * go too: llc/pairing_xor.ll). */

/* Whether the scf.for ir op `f` may run no iteration: bounds not both
 * constants with the upper above the lower. */
static int may_skip(const layout_ttgir *m, int f)
{
    int64_t lb, ub;
    return layout_ttgir_ir_const_int(m, layout_ttgir_ir_operand(m, f, 0), &lb) != LAYOUT_OK ||
           layout_ttgir_ir_const_int(m, layout_ttgir_ir_operand(m, f, 1), &ub) != LAYOUT_OK || ub <= lb;
}

/* Whether LLVM peels the first iteration of scf.for `f` (its record:
 * Triton's post-O3 IR names `.peel` blocks; docs/notes/amd-misses.md):
 * LoopPeel's PhiAnalyzer peels one iteration where a header phi's latch
 * value is loop-invariant -- Triton's memdesc iter_arg of a one-deep
 * buffer (`!ttg.memdesc<1x...>`), whose preheader and latch values are one
 * address spelled twice.  The size half of LLVM's decision (twice the loop
 * within the unroll threshold) is not followed: such a loop is taken as
 * peeled. */
static int peels(const layout_ttgir *m, int f)
{
    layout_ttgir_type t;
    int memdesc_arg = 0;
    for (int r = 0; r < m->ir.ops[f].n_results && !memdesc_arg; r++)
        memdesc_arg = layout_ttgir_ir_value_type(m, layout_ttgir_ir_result(m, f, r), &t) == LAYOUT_OK && t.is_memdesc;
    if (!memdesc_arg) return 0;
    for (int i = 0; i < m->n_ops; i++)
        if (m->ops[i].kind == LAYOUT_TTGIR_LOCAL_ALLOC && m->ops[i].dst[0].rank == 3 && m->ops[i].dst[0].shape[0] == 1)
            return 1;
    return 0;
}

/* layout_tk_ir_same_op (tk_internal.h). */
int layout_tk_ir_same_op(const layout_ttgir *m, int a, int b)
{
    const layout_ttgir_ir_op *x = &m->ir.ops[a], *y = &m->ir.ops[b];
    return x->name.len == y->name.len && x->types_in.len == y->types_in.len && x->types_out.len == y->types_out.len &&
           memcmp(m->text + x->name.at, m->text + y->name.at, x->name.len) == 0 &&
           memcmp(m->text + x->types_in.at, m->text + y->types_in.at, x->types_in.len) == 0 &&
           memcmp(m->text + x->types_out.at, m->text + y->types_out.at, x->types_out.len) == 0;
}

/* Whether the body of scf.for `f` (its ops, not nested deeper) holds an
 * op the same as ir op `io`. */
static int loop_has(const layout_ttgir *m, int f, int io)
{
    const layout_ttgir_ir_op *fo = &m->ir.ops[f];
    if (fo->first_region < 0) return 0;
    const layout_ttgir_region *rg = &m->ir.regions[fo->first_region];
    for (int b = rg->first_block; b >= 0; b = m->ir.blocks[b].next)
        for (int j = m->ir.blocks[b].first_op; j >= 0; j = m->ir.ops[j].next)
            if (layout_tk_ir_same_op(m, j, io)) return 1;
    return 0;
}

int layout_tk_part_through_phi(const layout_triton_kernel *k, int op)
{
    const layout_ttgir *m = k->module;
    if (k->is_nvidia || !m || op < 0 || op >= m->n_ops) return 0;
    int io = m->ops[op].ir_op, blk = io >= 0 ? m->ir.ops[io].parent_block : -1, open = 0, twin = 0;
    if (blk < 0) return 0;
    /* an op in a loop's body: the loop's own part, hoisted, is no phi */
    int owner = m->ir.regions[m->ir.blocks[blk].parent_region].parent_op;
    if (layout_ttgir_ir_op_is(m, owner, "scf.for")) return 0;
    /* the phi stands in the loop's exit block (its predecessors: the loop
     * and the guard): an op there computes the part through it, and a
     * later one the same (GVN reuses the value the first computed); past
     * another region op the part is computed anew */
    for (int j = m->ir.blocks[blk].first_op; j >= 0 && j != io; j = m->ir.ops[j].next) {
        if (layout_ttgir_ir_op_is(m, j, "scf.for"))
            open = may_skip(m, j) && loop_has(m, j, io) && !peels(m, j);
        else if (is_scf(m, j))
            open = 0;
        else if (open && layout_tk_ir_same_op(m, j, io))
            twin = 1;
    }
    return open || twin;
}
