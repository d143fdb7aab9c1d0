/* tt.reduce (Triton 3.6, lib/Conversion/TritonGPUToLLVM/ReduceOpToLLVM.cpp
 * at triton-lang/triton 9c3434b3, ReduceScanCommon.h's getSmemBases, and
 * ReduceOpHelper in lib/Analysis/Utility.cpp), for an operand of any rank
 * and a reduce of several operands (tl.argmax: value and index).  Within a
 * thread and within a warp (shuffles) a reduction touches no shared memory;
 * when the axis spans S > 1 warps (getInterWarpSizeWithUniqueData: the
 * warp bases along it) the partials go through a scratch of shape srcShape
 * with the axis replaced by S (getScratchRepShape), linearised in
 * getOrderWithAxisAtBeginning (the layout's order -- the dims of its
 * register bases in order, then rank-1 .. 0 -- with the axis moved first).
 * Every operand has its own scratch of `elems` elements, the widest first
 * (getSmemBases: bases in descending bit width, each elems elements of the
 * previous one further).  Each operand, in turn:
 *   1. storeWarpReduceToSharedMemory: one store per accumulator (per
 *      distinct non-axis coordinate of a thread's registers), predicated on
 *      the lane and the warp holding unique data (delinearize's free
 *      variables) and the lane's index along the axis being 0, at
 *      warpIdAxis + the linearised non-axis coordinates;
 *   2. barrier; accumulatePartialReductions: max(elems / threads, 1) rounds
 *      of a load at thread id t (+ round x threads; predicated t < elems),
 *      shuffles, and a store by the lanes with lane % S == 0;
 *   3. barrier; loadReductionAndPackResult: one unpredicated load per
 *      result element of the slice layout (axis coordinate 0), or one load
 *      of element 0 for a 0-d result -- only for the results the kernel
 *      uses (tl.argmax's value result is dead: LLVM drops its loads).
 * Each is a scalar access of one element, costed by the checker with its
 * active lanes, warp 0 for the per-warp figures and every warp for the
 * CTA's (a warp with no active lane moves nothing: Nsight Compute counts
 * its instruction, not a wavefront).
 *
 * AMD: SILoadStoreOptimizer pairs b32 / b64 accesses of one basic block
 * (layout_tk_pair_block).  The blocks, as the corpus AMDGCN shows them
 * (gfx942 / gfx950, tests/fixtures/triton/corpus): a predicated store or
 * load (Triton's masked ops) is a block of its own, except that the
 * stores of all operands under one predicate share one (one accumulator's
 * stores in step 1, one round's in step 2); step 1's predicate is constant
 * true when no lane or warp is a free variable and no lane lies along the
 * axis (then all of step 1 is one block), step 2's load predicate when
 * elems >= threads; step 3 is one block.  Pairing needs the accesses'
 * addresses to be one base register plus constants: so when a varying
 * non-axis coordinate takes its register bits below the lane and warp
 * bits of that dim (the register's part is a constant added); when a
 * register bit lies above a lane or warp bit of its dim (rowsum's rows:
 * warp bit 0, registers 1 .. 3) LLVM reuses the row indices the global
 * load computed and each address is a register of its own.  Empirical
 * (LLVM's InstCombine / GEP splitting, not rebuilt): on wave64 targets an
 * operand whose step 1 is unpredicated and with two or more non-axis dims
 * holding lanes or warps pairs nothing either: the register's constant
 * stays inside its dim's `or`, `or (X, or (Y, C))` not reassociated
 * (reduce3d 8x8x64 axis 1 on gfx942, its record corpus/llir_all: `%48 =
 * or disjoint i32 %41, %34`, `%34 = or disjoint i32 %22, 1`; the rows2
 * set's reduce3d 16x4x8 axis 1), while with one such dim the constants
 * come out and pair (rows2's reduce3d 4x4x256 axis 0: 8 ds_write2_b32)
 * and gfx1100's wave32 reduce3d 4x16x32 axis 1 pairs (its IR keeps the
 * two dims' parts in two GEPs; why is not established).  Two rules from Triton's
 * LLVM on the rows tuning sets (tests/fixtures/triton/rows): step 3's
 * loads at a constant address (no lane or warp along a non-axis dim)
 * never pair (LAYOUT_TK_CONST_ADDR_KEY), and step 1's predicated stores
 * share one block where nothing stands between their `if`s
 * (rd_stores_one_block). */
#include <stdio.h>
#include <string.h>

#include "tk_internal.h"

#define RD_MAX_OPS LAYOUT_TK_SMEM_MAX_OPS
#define RD_MAX_RANK LAYOUT_TTGIR_MAX_RANK

/* The coordinate of packed output vector v along output dim d. */
uint64_t layout_tk_coord(const layout_linear *l, uint64_t v, int d)
{
    return (v >> l->out_shift[d]) & (((uint64_t)1 << l->out_bits[d]) - 1);
}


/* The op's axis: its `axis` attribute (`<{axis = 1 : i32}>`); -1 without. */
int layout_tk_op_axis(const layout_ttgir *m, const layout_ttgir_op *o)
{
    int64_t axis;
    if (layout_ttgir_ir_attr_int(m, o->ir_op, "axis", &axis) != LAYOUT_OK || axis < 0 || axis > 64) return -1;
    return (int)axis;
}

/* The operands of `"tt.reduce"(%a, %b) ...`: their count. */
static int rd_n_operands(const layout_ttgir *m, const layout_ttgir_op *o)
{
    return m->ir.ops[o->ir_op].n_uses;
}

/* An op whose printed types are all scalars (no tensor, pointer or other
 * parameterised type): `%1 = arith.truncf %r : f32 to f16`. */
static int rd_scalar_op(const layout_ttgir *m, int op)
{
    const layout_ttgir_ir_op *o = &m->ir.ops[op];
    return !memchr(m->text + o->types_in.at, '<', o->types_in.len) &&
           !memchr(m->text + o->types_out.at, '<', o->types_out.len);
}

/* How the kernel uses value v: 0 unused, 2 only as the stored value of
 * tt.store ops, directly or through scalar ops (depth levels), 1
 * otherwise.  Read from the IR's uses. */
static int rd_use_of(const layout_ttgir *m, int v, int depth)
{
    int used = 0, op, k;
    for (op = 0; op < m->ir.n_ops; op++) {
        const layout_ttgir_ir_op *o = &m->ir.ops[op];
        for (k = 0; k < o->n_uses; k++) {
            if (m->ir.uses[o->first_use + k] != v) continue;
            used = 1;
            if (layout_ttgir_ir_op_is(m, op, "tt.store") && k == 1) continue; /* tt.store ptr, value */
            if (depth > 0 && o->n_results == 1 && rd_scalar_op(m, op) && rd_use_of(m, o->first_result, depth - 1) == 2)
                continue;
            return 1;
        }
    }
    return used ? 2 : 0;
}

/* How the kernel uses result i of n. */
static int rd_result_use(const layout_ttgir *m, const layout_ttgir_op *o, int i, int n)
{
    int v = layout_ttgir_ir_result(m, o->ir_op, i), u;
    if (v < 0) return 1;
    u = rd_use_of(m, v, 4);
    return u == 0 && n == 1 ? 1 : u; /* one result unused: Triton would have dropped the op (a fragment) */
}

/* The first output dim bit pattern v moves along; -1 for 0. */
int layout_tk_dim_of(const layout_linear *l, uint64_t v, const int *od, int rank)
{
    for (int d = 0; d < rank; d++)
        if (layout_tk_coord(l, v, od[d]) != 0) return d;
    return -1;
}

/* Triton's delinearize(layout, shape, dimName, linear) (Utility.cpp): the
 * value x of input dim din without its free variables (zero bases; rep: 1
 * when x has none of them) split into per-dim indices, the dims in the
 * order their bases come (orderPerDim, defaulting to order[]), each of
 * 2^(its bases) (basesPerDim). */
void layout_tk_delinearize(const layout_linear *l, int din, uint64_t x, const int *od, int rank, const int *order,
                           int64_t *multi, int *rep)
{
    int b, p, q, n = 0, bits[RD_MAX_RANK] = {0}, ord[RD_MAX_RANK];
    uint64_t comp = 0;
    *rep = 1;
    for (b = 0; din >= 0 && b < l->in_bits[din]; b++) {
        int d = layout_tk_dim_of(l, layout_tk_basis(l, din, b), od, rank);
        if (d < 0) {
            if (x >> b & 1) *rep = 0;
            continue;
        }
        if (x >> b & 1) comp |= (uint64_t)1 << n;
        n++;
        bits[d]++;
    }
    for (p = 0, q = 0; din >= 0 && p < l->in_bits[din]; p++) {
        int d = layout_tk_dim_of(l, layout_tk_basis(l, din, p), od, rank), seen = 0;
        for (b = 0; b < q; b++) seen |= ord[b] == d;
        if (d >= 0 && !seen) ord[q++] = d;
    }
    for (p = 0; p < rank; p++) {
        int seen = 0;
        for (b = 0; b < q; b++) seen |= ord[b] == order[p];
        if (!seen) ord[q++] = order[p];
    }
    for (p = 0; p < rank; p++) {
        int d = ord[p];
        if (p == rank - 1) multi[d] = (int64_t)comp;
        else {
            multi[d] = (int64_t)(comp & (((uint64_t)1 << bits[d]) - 1));
            comp >>= bits[d];
        }
    }
}

/* The image of value x of input dim din. */
uint64_t layout_tk_image(const layout_linear *l, int din, uint64_t x)
{
    uint64_t v = 0;
    for (int b = 0; din >= 0 && b < l->in_bits[din]; b++)
        if (x >> b & 1) v ^= layout_tk_basis(l, din, b);
    return v;
}



static layout_status rd_refused(layout_triton_kernel_op *r)
{
    return layout_tk_not_modelled(r, "tt.reduce: the checker refused an access");
}

/* ---- layout_tk_lower_reduce, in steps ----
 *
 * A step that can end the lowering returns 1 with *st what
 * layout_tk_lower_reduce returns (r final: a reason recorded, or modelled
 * without a scratch), else 0. */

/* One reduce: its operands, the first operand's layout read per dim and
 * the scratch's shape, shared by the steps by pointer (the layout, the
 * scratch's checker and its block tables are large). */
typedef struct rd_state {
    const layout_triton_kernel *k;
    const layout_ttgir *m;
    const layout_ttgir_op *o;
    const layout_ttgir_type *src; /* the first operand */
    layout_linear R;              /* its layout: register, lane, warp -> dim0 .. */
    int n_ops, rank, axis, lanes, nwarps;
    int ir, il, iw, warp_bits;    /* R's input dims (iw -1: one warp), warp bits */
    int od[RD_MAX_RANK];          /* R's output dim of each tensor dim */
    int order[RD_MAX_RANK];       /* getOrder: the dims of the register bases, then rank-1 .. 0 */
    int n_reg_other, reg_other[LAYOUT_LINEAR_MAX_BITS]; /* register bits along non-axis dims */
    int warp_axis_bits;           /* warp bits along the axis: log2 of S */
    int bits[RD_MAX_OPS];         /* each operand's element bits in the scratch */
    int use[RD_MAX_OPS];          /* how the kernel uses each result (rd_use_of) */
    int folded, pred_1_true;      /* AMD: one base register; step 1 unpredicated */
    int one_block;                /* AMD: step 1's stores share one block (rd_stores_one_block) */
    int64_t stride[RD_MAX_RANK], s_axis, elems, threads, rounds, n_acc, base[RD_MAX_OPS];
    uint64_t addr[64];            /* one access's lane addresses */
    layout_tk_scratch s;          /* the checker and the current block */
} rd_state;

/* A step's end of the lowering: *st = s, and 1. */
static int rd_final(layout_status *st, layout_status s)
{
    *st = s;
    return 1;
}

/* The operands: register tensors of one shape and of 8, 16, 32 or 64-bit
 * elements in the scratch (i1 as i8). */
static int rd_read_operands(rd_state *x, layout_triton_kernel_op *r, layout_status *st)
{
    int i, d;
    x->n_ops = rd_n_operands(x->m, x->o);
    if (x->n_ops < 1 || x->n_ops > RD_MAX_OPS || x->o->n_src != x->n_ops)
        return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: %d operands read of %d: at most %d register tensors are modelled",
                                                   x->o->n_src, x->n_ops, RD_MAX_OPS));
    x->src = &x->o->src[0];
    x->rank = x->src->rank;
    for (i = 0; i < x->n_ops; i++) {
        const layout_ttgir_type *t = &x->o->src[i];
        if (t->is_memdesc || t->enc_len == 0 || t->rank != x->rank)
            return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: operand %d is not a register tensor of the first's rank", i));
        for (d = 0; d < x->rank; d++)
            if (t->shape[d] != x->src->shape[d])
                return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: the operands' shapes differ"));
        /* i1 (a reduce of predicates): one byte an element in the scratch --
         * ReduceOpHelper::getScratchSizeInBytes sizes it ceil(1, 8) = 1 byte,
         * and getSmemBases' GEPs step over i1 by LLVM's alloc size, 1 byte;
         * the stores and loads move i8 (Triton 3.6.0's own output,
         * tests/fixtures/triton/probe_i1: the i1 and i8 reduces alike) */
        x->bits[i] = t->elem_bits == 1 ? 8 : t->elem_bits;
        if (x->bits[i] != 8 && x->bits[i] != 16 && x->bits[i] != 32 && x->bits[i] != 64)
            return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: operand %d's element type not 8, 16, 32 or 64 bits", i));
    }
    return 0;
}

/* The axis, the module's lanes and warps, and the first operand's layout
 * as a linear map R whose lanes and warps are the module's. */
static int rd_read_layout(rd_state *x, layout_triton_kernel_op *r, layout_status *st)
{
    const char *attr;
    size_t alen;
    layout_triton_attr ta;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP], name[16];
    int d;
    if (x->rank < 1 || x->rank > RD_MAX_RANK) return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: rank %d not modelled", x->rank));
    if ((x->axis = layout_tk_op_axis(x->m, x->o)) < 0 || x->axis >= x->rank)
        return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: its axis attribute was not read"));
    if (x->lanes != 32 && x->lanes != 64) return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: ttg.threads-per-warp not 32 or 64"));
    if (x->nwarps < 1 || x->nwarps > 1024) return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: ttg.num-warps absent or out of range"));
    if (layout_ttgir_encoding(x->m, x->src, &attr, &alen) != LAYOUT_OK)
        return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: the operand's encoding is not defined"));
    if (layout_tk_reg_linear(x->m, x->src, attr, alen, &ta, &x->R, why, sizeof why) != LAYOUT_OK)
        return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: %s", why));
    x->ir = layout_linear_in_dim(&x->R, "register");
    x->il = layout_linear_in_dim(&x->R, "lane");
    x->iw = layout_linear_in_dim(&x->R, "warp");
    if (x->ir < 0 || x->il < 0 || x->R.n_out != x->rank)
        return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: the operand's layout has no register/lane dims"));
    for (d = 0; d < x->rank; d++) {
        snprintf(name, sizeof name, "dim%d", d);
        if ((x->od[d] = layout_linear_out_dim(&x->R, name)) < 0)
            return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: the operand's layout has no %s", name));
    }
    if (x->R.in_bits[x->il] != layout_log2_floor(x->lanes))
        return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: the layout's lanes differ from the warp size"));
    x->warp_bits = x->iw >= 0 ? x->R.in_bits[x->iw] : 0;
    if ((1 << x->warp_bits) != x->nwarps)
        return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: the layout's warps differ from ttg.num-warps"));
    return 0;
}

/* Triton's per-dim helpers (getWarpsPerCTA, delinearize, ...) read a
 * layout whose every basis lies along one dim (or none: broadcast); a
 * mixed basis is not followed.  Then getOrder (LinearEncodingAttr: the
 * dims of the register bases in order, then rank-1 .. 0), the register
 * bits along the other dims and the warp bits along the axis. */
static int rd_read_dims(rd_state *x, layout_triton_kernel_op *r, layout_status *st)
{
    const layout_linear *R = &x->R;
    int i, b, d, j, n_order = 0;
    for (i = 0; i < R->n_in; i++)
        for (b = 0; b < R->in_bits[i]; b++) {
            uint64_t v = layout_tk_basis(R, i, b);
            int nd = 0;
            for (d = 0; d < x->rank; d++) nd += layout_tk_coord(R, v, x->od[d]) != 0;
            if (nd > 1) return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: a basis of the operand's layout spans two dims"));
        }
    for (b = 0; b < R->in_bits[x->ir]; b++) {
        int dd = layout_tk_dim_of(R, layout_tk_basis(R, x->ir, b), x->od, x->rank), seen = 0;
        for (j = 0; j < n_order; j++) seen |= x->order[j] == dd;
        if (dd >= 0 && !seen) x->order[n_order++] = dd;
    }
    for (d = x->rank - 1; d >= 0; d--) {
        int seen = 0;
        for (j = 0; j < n_order; j++) seen |= x->order[j] == d;
        if (!seen) x->order[n_order++] = d;
    }
    x->n_reg_other = x->warp_axis_bits = 0;
    for (b = 0; b < R->in_bits[x->ir]; b++) {
        uint64_t v = layout_tk_basis(R, x->ir, b);
        int dd = layout_tk_dim_of(R, v, x->od, x->rank);
        if (dd >= 0 && dd != x->axis) x->reg_other[x->n_reg_other++] = b;
    }
    for (b = 0; b < x->warp_bits; b++)
        if (layout_tk_dim_of(R, layout_tk_basis(R, x->iw, b), x->od, x->rank) == x->axis) x->warp_axis_bits++;
    return 0;
}

/* The scratch: srcShape with the axis replaced by S, linearised with the
 * axis first (getOrderWithAxisAtBeginning), each operand's region widest
 * first (getSmemBases); the rounds and accumulators of the steps. */
static int rd_scratch_shape(rd_state *x, layout_triton_kernel_op *r, layout_status *st)
{
    int sorder[RD_MAX_RANK], i, j;
    int64_t total_bytes, per_warp;
    x->s_axis = (int64_t)1 << x->warp_axis_bits;
    sorder[0] = x->axis;
    for (i = 0, j = 1; i < x->rank; i++)
        if (x->order[i] != x->axis) sorder[j++] = x->order[i];
    for (i = 0, x->elems = 1; i < x->rank; i++) {
        int dd = sorder[i];
        x->stride[dd] = x->elems;
        x->elems *= dd == x->axis ? x->s_axis : x->src->shape[dd];
    }
    x->threads = (int64_t)x->lanes * x->nwarps;
    x->rounds = x->elems / x->threads > 1 ? x->elems / x->threads : 1;
    x->n_acc = (int64_t)1 << x->n_reg_other;
    total_bytes = layout_tk_smem_bases(x->bits, x->n_ops, x->elems, x->base);
    for (i = 0; i < x->n_ops; i++) x->use[i] = rd_result_use(x->m, x->o, i, x->n_ops);
    per_warp = x->n_acc * x->n_ops + x->rounds * 2 * x->n_ops + (x->rank > 1 ? x->n_acc : 1) * x->n_ops;
    if (x->n_reg_other > 9 || x->rounds > 64 || per_warp > LAYOUT_TRITON_KERNEL_MAX_ACCESSES)
        return rd_final(st, layout_tk_not_modelled(r, "tt.reduce: more than %d scratch accesses per warp",
                                                   LAYOUT_TRITON_KERNEL_MAX_ACCESSES));
    r->cvt_scratch_bytes = total_bytes;
    r->cvt_reps = 1;
    return 0;
}

/* AMD blocks and base registers (the file's comment): step 1's predicate
 * is constant true with no free lane or warp and no lane along the axis;
 * the accumulators' addresses are one base register plus constants when
 * every varying coordinate takes its register bits below the lane and
 * warp bits of its dim, else one register each. */
static void rd_amd_blocks(rd_state *x)
{
    const layout_linear *R = &x->R;
    int i, b, j;
    x->folded = x->pred_1_true = 1;
    for (b = 0; b < R->in_bits[x->il]; b++) {
        int dd = layout_tk_dim_of(R, layout_tk_basis(R, x->il, b), x->od, x->rank);
        if (dd < 0 || dd == x->axis) x->pred_1_true = 0;
    }
    for (b = 0; b < x->warp_bits; b++)
        if (layout_tk_dim_of(R, layout_tk_basis(R, x->iw, b), x->od, x->rank) < 0) x->pred_1_true = 0;
    for (j = 0; j < x->n_reg_other; j++) {
        uint64_t v = layout_tk_basis(R, x->ir, x->reg_other[j]);
        int dd = layout_tk_dim_of(R, v, x->od, x->rank);
        for (i = 0; i < R->n_in; i++)
            for (b = 0; (i == x->il || i == x->iw) && b < R->in_bits[i]; b++) {
                uint64_t u = layout_tk_basis(R, i, b);
                if (layout_tk_dim_of(R, u, x->od, x->rank) == dd &&
                    layout_tk_coord(R, u, x->od[dd]) < layout_tk_coord(R, v, x->od[dd]))
                    x->folded = 0;
            }
    }
    /* wave64, two or more non-axis dims holding lanes or warps, one of
     * them also registers, in one block: that register's constant stays
     * inside its dim's `or` (the file's comment; wave32 keeps the dims'
     * parts in two GEPs and pairs: not explained) */
    int thread_dims = 0, reg_in_thread_dim = 0;
    for (int d = 0; d < x->rank; d++) {
        int has = 0;
        for (i = 0; i < R->n_in; i++)
            for (b = 0; (i == x->il || i == x->iw) && b < R->in_bits[i]; b++)
                has |= d != x->axis && layout_tk_dim_of(R, layout_tk_basis(R, i, b), x->od, x->rank) == d;
        thread_dims += has;
        for (j = 0; j < x->n_reg_other && has; j++)
            reg_in_thread_dim |= layout_tk_dim_of(R, layout_tk_basis(R, x->ir, x->reg_other[j]), x->od, x->rank) == d;
    }
    if (x->pred_1_true && thread_dims > 1 && reg_in_thread_dim && x->lanes == 64) x->folded = 0;
}

/* Whether another op of the reduce's own block, before it (before = 1)
 * or after it (0), is a tt.reduce of the same operand and result types
 * (encodings included) and axis: Triton's CSE (of the LLVM dialect,
 * before LLVM) gives the later of two such reduces the earlier one's
 * step-1 addresses and predicate. */
static int rd_twin(const rd_state *x, int before)
{
    const layout_ttgir *m = x->m;
    int io = x->o->ir_op, seen = 0;
    if (x->k->is_nvidia || io < 0) return 0;
    const layout_ttgir_ir_op *me = &m->ir.ops[io];
    if (me->parent_block < 0) return 0;
    for (int j = m->ir.blocks[me->parent_block].first_op; j >= 0; j = m->ir.ops[j].next) {
        const layout_ttgir_ir_op *o = &m->ir.ops[j];
        if (j == io) {
            if (before) return 0;
            seen = 1;
            continue;
        }
        if (!before && !seen) continue;
        if (layout_tk_ir_same_op(m, j, io) && o->shared >= 0 && layout_tk_op_axis(m, &m->ops[o->shared]) == x->axis)
            return 1;
    }
    return 0;
}

/* Whether step 1's stores share one block (AMD).  Each predicated store
 * is `if (pred) store` (storeShared with a predicate); between two of
 * them stands the next accumulator's address.  Where that block ends up
 * holding only its branch on the same condition, SimplifyCFG threads it
 * (FoldCondBranchOnValueKnownInPredecessor, which threads only a block
 * none of whose values is used outside it:
 * BlockIsSimpleEnoughToThreadThrough, SimplifyCFG.cpp) and the stores
 * share one block, where SILoadStoreOptimizer pairs them.  It holds
 * nothing when the address is already computed (an identical reduce
 * before this one), or when its only use is the store, into whose block
 * InstCombine sinks it (tryToSinkInstruction: one user, in a successor
 * with this block its only predecessor): the address is then not the
 * base of step 3's loads (step 3 reads at constant addresses: no lane or
 * warp lies along a non-axis dim) and no identical reduce after this one
 * reuses it.  The rows tuning sets' .llir: rowstats_fp32_2x1024_w2_s1_gfx942,
 * the mean's two stores in two blocks (`gep i8 %93, 8` between, used
 * again by the rstd), the rstd's in one (`store %189, %93; store %202,
 * %96`): ds_write_b32 x 2, then ds_write2_b32 offset1:2;
 * reduce2d_i32_max_ax1_8x1024_w2_s1_gfx942, one reduce: its 8 stores in
 * one block, 4 ds_write2_b32; layernormbwd_fp16_16x256_w8_s1_gfx942,
 * whose step 3 loads at `gep @global_smem, %195`, the stores' own base:
 * 8 blocks. */
static int rd_stores_one_block(const rd_state *x)
{
    const layout_linear *R = &x->R;
    if (x->pred_1_true) return 1;
    if (rd_twin(x, 1)) return 1;
    for (int i = 0; i < R->n_in; i++)
        for (int b = 0; (i == x->il || i == x->iw) && b < R->in_bits[i]; b++) {
            int dd = layout_tk_dim_of(R, layout_tk_basis(R, i, b), x->od, x->rank);
            if (dd >= 0 && dd != x->axis) return 0; /* step 3 shares the address */
        }
    return !rd_twin(x, 0);
}

/* The register part of accumulator a: its non-axis register bits' image. */
static uint64_t rd_acc_image(const rd_state *x, int64_t a)
{
    uint64_t regv = 0;
    for (int j = 0; j < x->n_reg_other; j++)
        if (a >> j & 1) regv ^= layout_tk_basis(&x->R, x->ir, x->reg_other[j]);
    return regv;
}

/* 1. storeWarpReduceToSharedMemory: each accumulator, each operand, by
 * the lanes and warps that hold unique data at axis lane 0.  Returns 1
 * when the checker refuses an access. */
static int rd_store_partials(rd_state *x)
{
    const layout_linear *R = &x->R;
    layout_tk_scratch *s = &x->s;
    int i, w, l, d;
    for (int64_t a = 0; a < x->n_acc; a++) {
        uint64_t regv = rd_acc_image(x, a);
        for (i = 0; i < x->n_ops; i++) {
            int eb = x->bits[i] / 8;
            int64_t off0 = 0;
            for (w = 0; w < x->nwarps; w++) {
                int64_t wmulti[RD_MAX_RANK];
                int wrep;
                uint64_t wv = regv ^ layout_tk_image(R, x->iw, (uint64_t)w), act = 0;
                layout_tk_delinearize(R, x->iw, (uint64_t)w, x->od, x->rank, x->order, wmulti, &wrep);
                for (l = 0; l < x->lanes; l++) {
                    int64_t lmulti[RD_MAX_RANK], off = wmulti[x->axis];
                    int lrep;
                    uint64_t v = wv ^ layout_tk_image(R, x->il, (uint64_t)l);
                    layout_tk_delinearize(R, x->il, (uint64_t)l, x->od, x->rank, x->order, lmulti, &lrep);
                    for (d = 0; d < x->rank; d++)
                        if (d != x->axis) off += (int64_t)layout_tk_coord(R, v, x->od[d]) * x->stride[d];
                    x->addr[l] = (uint64_t)(x->base[i] + off * eb);
                    if (wrep && lrep && lmulti[x->axis] == 0) act |= (uint64_t)1 << l;
                }
                if (layout_tk_scratch_cost(s, 1, eb, w, act, x->addr)) return 1;
                if (w == 0) off0 = (int64_t)x->addr[0];
            }
            layout_tk_scratch_block_add(s, 1, x->bits[i], 1, x->folded ? 0 : (uint64_t)a, off0);
        }
        if (!x->one_block) layout_tk_scratch_block_end(s);
    }
    layout_tk_scratch_block_end(s);
    return 0;
}

/* 2. accumulatePartialReductions: thread t reads element t (+ rounds),
 * the lanes at multiples of S write the warps' total back.  Returns 1
 * when the checker refuses an access. */
static int rd_accumulate(rd_state *x)
{
    layout_tk_scratch *s = &x->s;
    int i, w, l;
    for (int64_t rd = 0; rd < x->rounds; rd++) {
        for (int wr = 0; wr < 2; wr++) {
            for (i = 0; i < x->n_ops; i++) {
                int eb = x->bits[i] / 8;
                for (w = 0; w < x->nwarps; w++) {
                    uint64_t act = 0;
                    for (l = 0; l < x->lanes; l++) {
                        int64_t t = (int64_t)w * x->lanes + l;
                        x->addr[l] = (uint64_t)(x->base[i] + (t + rd * x->threads) * eb);
                        if (t < x->elems && (!wr || l % x->s_axis == 0)) act |= (uint64_t)1 << l;
                    }
                    if (layout_tk_scratch_cost(s, wr, eb, w, act, x->addr)) return 1;
                }
                layout_tk_scratch_block_add(s, wr, x->bits[i], 1, 0, x->base[i] + rd * x->threads * eb);
                if (!wr && x->elems < x->threads) layout_tk_scratch_block_end(s); /* a predicated load: a block of its own */
            }
            layout_tk_scratch_block_end(s);
        }
    }
    return 0;
}

/* 3. loadReductionAndPackResult: each used result's elements at axis 0.
 * Returns 1 when the checker refuses an access. */
static int rd_load_results(rd_state *x)
{
    const layout_linear *R = &x->R;
    const uint64_t all = x->lanes == 64 ? ~(uint64_t)0 : (((uint64_t)1 << (x->lanes & 63)) - 1);
    layout_tk_scratch *s = &x->s;
    int i, w, l, d;
    for (i = 0; i < x->n_ops; i++) {
        int eb = x->bits[i] / 8;
        if (!x->use[i]) continue;
        for (int64_t a = 0; a < (x->rank > 1 ? x->n_acc : 1); a++) {
            uint64_t regv = rd_acc_image(x, a);
            int64_t off0 = 0;
            int uniform = 1; /* one address for every lane of every warp: a constant */
            /* a 0-d result only stored: Triton stores a scalar from the
             * first warp, and the load sinks to that store (ptxas; LLVM on
             * AMD): the other warps do not issue it */
            for (w = 0; w < (x->rank == 1 && x->use[i] == 2 ? 1 : x->nwarps); w++) {
                uint64_t wv = regv ^ layout_tk_image(R, x->iw, (uint64_t)w);
                for (l = 0; l < x->lanes; l++) {
                    uint64_t v = wv ^ layout_tk_image(R, x->il, (uint64_t)l);
                    int64_t off = 0;
                    for (d = 0; d < x->rank && x->rank > 1; d++)
                        if (d != x->axis) off += (int64_t)layout_tk_coord(R, v, x->od[d]) * x->stride[d];
                    x->addr[l] = (uint64_t)(x->base[i] + off * eb);
                    if (x->addr[l] != (w == 0 ? x->addr[0] : (uint64_t)off0)) uniform = 0;
                }
                if (layout_tk_scratch_cost(s, 0, eb, w, all, x->addr)) return 1;
                if (w == 0) off0 = (int64_t)x->addr[0];
            }
            /* AMD: a constant address is a register of its own
             * (LAYOUT_TK_CONST_ADDR_KEY) */
            layout_tk_scratch_block_add(s, 0, x->bits[i], 1,
                                        uniform ? LAYOUT_TK_CONST_ADDR_KEY(s->blk_n) : x->folded ? (uint64_t)0 : (uint64_t)a,
                                        off0);
        }
    }
    layout_tk_scratch_block_end(s);
    return 0;
}

/* The CTA's totals; the 0-d result's load, issued by the first warp only:
 * on NVIDIA the SASS shows it after the EXIT of the other warps (sink.c). */
static void rd_finish(const rd_state *x, layout_triton_kernel_op *r)
{
    r->direction = LAYOUT_WRITE;
    r->cta_total_cycles = x->s.cta_total;
    r->cta_extra_cycles = x->s.cta_extra;
    if (x->rank == 1 && x->k->is_nvidia && x->nwarps > 1) {
        int i, n_sunk = 0;
        for (i = 0; i < x->n_ops; i++) n_sunk += x->use[i] == 2;
        /* one load (the JSON's count is per load), by the one thread that
         * stores the scalar (the SASS: 1 thread; a broadcast costs the same) */
        if (n_sunk == 1) r->sunk_warps = 1, r->sunk_lanes = 1;
    }
    r->modelled = 1;
}

layout_status layout_tk_lower_reduce(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                     layout_tk_capture *cap, layout_error *err)
{
    rd_state x;
    layout_status st;
    x.k = k;
    x.m = k->module;
    x.o = &x.m->ops[op];
    x.lanes = x.m->threads_per_warp;
    x.nwarps = x.m->num_warps;
    if (rd_read_operands(&x, r, &st) || rd_read_layout(&x, r, &st) || rd_read_dims(&x, r, &st)) return st;
    r->elem_bits = x.bits[0];
    r->vec_elems = 1;
    r->vec_bits = x.bits[0];
    r->direction = LAYOUT_WRITE;
    r->reg_enc_at = x.src->enc_at;
    r->reg_enc_len = x.src->enc_len;
    r->shared_enc_at = r->shared_enc_len = 0;
    if (x.warp_axis_bits == 0) { /* isWarpSynchronous: shuffles only, no scratch */
        r->modelled = 1;
        return LAYOUT_OK;
    }
    if (rd_scratch_shape(&x, r, &st)) return st;
    memset(&x.s, 0, sizeof x.s);
    x.s.k = k;
    x.s.r = r;
    x.s.lanes = x.lanes;
    x.s.cap = cap;
    if (layout_checker_init(&x.s.ck, &k->arch, LAYOUT_IMPL_AUTO, err) != LAYOUT_OK)
        return err ? err->status : LAYOUT_ERR_ARG;
    rd_amd_blocks(&x);
    x.one_block = rd_stores_one_block(&x);
    if (rd_store_partials(&x) || rd_accumulate(&x) || rd_load_results(&x)) return rd_refused(r);
    rd_finish(&x, r);
    return LAYOUT_OK;
}
