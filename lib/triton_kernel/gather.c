/* tt.gather (Triton 3.6.1: lib/Conversion/TritonGPUToLLVM/GatherOpToLLVM.cpp,
 * GatherLoweringHelper in lib/Analysis/Utility.cpp; read at tag v3.6.1).
 *
 * GatherLoweringHelper::isWarpLocal picks the lowering.  It holds when, with
 * the gather axis `dimA` and S, I the source's and the indices' linear
 * layouts: no warp basis of S or I moves along dimA; the warp bases of S
 * and I agree on every other dim; and so do their lane bases.  Then
 * emitWarpLocalGather moves the data with index shuffles and selects: no
 * shared instruction.
 *
 * Otherwise emitGatherInShared: every thread stores each of its source
 * elements at its row-major offset in a scratch of the source's shape
 * (LLVM::linearize without an order: the last dim fastest; scratch =
 * elements * bytes, GatherLoweringHelper::getScratchSizeInBytes), a
 * barrier, then one load per result element (the indices' layout) at the
 * row-major offset of its coordinates with the axis one replaced by the
 * index value it holds.  The stores are scalar in Triton's IR; LLVM's
 * LoadStoreVectorizer merges a thread's adjacent elements, which is the
 * plain local_store lowering of the source layout onto a row-major
 * scratch (ldst.c's lowerLdStShared rebuild, its vectors and AMD pairing):
 * exact.  The loads' addresses depend on the index values: each is a
 * scalar load of its own address (no vector, no AMD pairing: no two share
 * a base register plus a constant), counted exactly, one per distinct
 * result element (registers that repeat an element, broadcast, are left
 * out: their index values and coordinates are the same, so LLVM's CSE
 * merges their loads); their bank cost is unknown to a static tool and is
 * costed conflict-free (every lane its own consecutive element), a lower
 * bound (layout_triton_kernel_op_confidence says so). */
#include <stdio.h>
#include <string.h>

#include "tk_internal.h"

#define GA_MAX_RANK LAYOUT_TTGIR_MAX_RANK

/* The register/lane/warp -> dim0.. layout of an op's tensor type t. */
static int ga_read(const layout_ttgir *m, const layout_ttgir_type *t, layout_linear *out, char *why, size_t cap)
{
    const char *attr;
    size_t alen;
    layout_triton_attr ta;
    if (t->is_memdesc || t->enc_len == 0 || layout_ttgir_encoding(m, t, &attr, &alen) != LAYOUT_OK) {
        layout_tk_set_why(why, cap, "", "a register tensor's encoding is not defined");
        return 0;
    }
    return layout_tk_reg_linear(m, t, attr, alen, &ta, out, why, cap) == LAYOUT_OK;
}

/* Input dim name's bases of a and b agree on every output dim but `skip`
 * (-1: none); their counts must match too (LinearLayout equality of the
 * sublayouts). */
static int ga_same(const layout_linear *a, const layout_linear *b, const char *name, int rank, int skip)
{
    int ia = layout_linear_in_dim(a, name), ib = layout_linear_in_dim(b, name);
    int na = ia >= 0 ? a->in_bits[ia] : 0, nb = ib >= 0 ? b->in_bits[ib] : 0;
    char dn[16];
    if (na != nb) return 0;
    for (int bit = 0; bit < na; bit++)
        for (int d = 0; d < rank; d++) {
            int da, db;
            if (d == skip) continue;
            snprintf(dn, sizeof dn, "dim%d", d);
            da = layout_linear_out_dim(a, dn);
            db = layout_linear_out_dim(b, dn);
            if (da < 0 || db < 0) return 0;
            if (layout_tk_coord(a, layout_tk_basis(a, ia, bit), da) != layout_tk_coord(b, layout_tk_basis(b, ib, bit), db))
                return 0;
        }
    return 1;
}

/* No warp basis of l moves along output dim `axis`. */
static int ga_warps_off_axis(const layout_linear *l, int axis)
{
    char dn[16];
    int iw = layout_linear_in_dim(l, "warp"), da;
    snprintf(dn, sizeof dn, "dim%d", axis);
    da = layout_linear_out_dim(l, dn);
    if (da < 0) return 0;
    for (int b = 0; iw >= 0 && b < l->in_bits[iw]; b++)
        if (layout_tk_coord(l, layout_tk_basis(l, iw, b), da) != 0) return 0;
    return 1;
}

/* The source layout onto a row-major scratch: register/lane/warp -> offset
 * (elements), the last dim fastest. */
int layout_tk_row_major(const layout_linear *S, const int64_t *shape, int rank, layout_linear *cvt)
{
    layout_error e;
    int shift[GA_MAX_RANK], od[GA_MAX_RANK], total = 0, d, i, b;
    char dn[16];
    for (d = rank - 1; d >= 0; d--) {
        if (!layout_is_pow2(shape[d])) return 0;
        shift[d] = total;
        total += layout_log2_floor(shape[d]);
        snprintf(dn, sizeof dn, "dim%d", d);
        if ((od[d] = layout_linear_out_dim(S, dn)) < 0) return 0;
    }
    if (layout_linear_init(cvt, &e) != LAYOUT_OK) return 0;
    for (i = 0; i < S->n_in; i++)
        if (layout_linear_add_in_dim(cvt, S->in_names[i], S->in_bits[i], &e) != LAYOUT_OK) return 0;
    if (layout_linear_add_out_dim(cvt, "offset", total, &e) != LAYOUT_OK) return 0;
    for (i = 0; i < S->n_in; i++)
        for (b = 0; b < S->in_bits[i]; b++) {
            uint64_t v = layout_tk_basis(S, i, b);
            int64_t off = 0;
            for (d = 0; d < rank; d++) off |= (int64_t)layout_tk_coord(S, v, od[d]) << shift[d];
            if (layout_linear_set_basis(cvt, i, b, &off, &e) != LAYOUT_OK) return 0;
        }
    return 1;
}

layout_status layout_tk_lower_gather(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                     layout_tk_capture *cap, layout_error *err)
{
    const layout_ttgir *m = k->module;
    const layout_ttgir_op *o = &m->ops[op];
    const layout_ttgir_type *src, *idx;
    layout_linear S, I, cvt;
    layout_tk_pad nopad;
    layout_checker ck;
    layout_tk_scratch *s, st_;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP];
    int axis, rank, d, b, ir, il, n_elems = 0, eb, lanes = k->arch.wave_size;
    uint64_t addr[64];
    layout_status st;

    if (o->n_src < 2) return layout_tk_not_modelled(r, "tt.gather: its source and indices types were not read");
    src = &o->src[0];
    idx = &o->src[1];
    rank = src->rank;
    if (rank < 1 || rank > GA_MAX_RANK || idx->rank != rank)
        return layout_tk_not_modelled(r, "tt.gather: rank %d not modelled", rank);
    if ((axis = layout_tk_op_axis(m, o)) < 0 || axis >= rank)
        return layout_tk_not_modelled(r, "tt.gather: its axis attribute was not read");
    r->elem_bits = src->elem_bits;
    r->vec_elems = 1;
    r->vec_bits = src->elem_bits;
    r->reg_enc_at = src->enc_at;
    r->reg_enc_len = src->enc_len;
    r->shared_enc_at = r->shared_enc_len = 0;
    r->direction = LAYOUT_WRITE;
    if (!ga_read(m, src, &S, why, sizeof why) || !ga_read(m, idx, &I, why, sizeof why))
        return layout_tk_not_modelled(r, "tt.gather: %s", why);
    if (ga_warps_off_axis(&S, axis) && ga_warps_off_axis(&I, axis) && ga_same(&S, &I, "warp", rank, axis) &&
        ga_same(&S, &I, "lane", rank, axis)) {
        r->modelled = 1; /* isWarpLocal: shuffles and selects */
        return LAYOUT_OK;
    }
    eb = src->elem_bits / 8;
    if (eb != 1 && eb != 2 && eb != 4 && eb != 8)
        return layout_tk_not_modelled(r, "tt.gather: element type not 8, 16, 32 or 64 bits");
    il = layout_linear_in_dim(&I, "lane");
    ir = layout_linear_in_dim(&I, "register");
    if (il < 0 || I.in_bits[il] != layout_log2_floor(lanes) || ir < 0)
        return layout_tk_not_modelled(r, "tt.gather: the indices' lanes differ from the arch's wave size");
    if (!layout_tk_row_major(&S, src->shape, rank, &cvt))
        return layout_tk_not_modelled(r, "tt.gather: the source's shape is not a power of two in every dim");
    if (layout_checker_init(&ck, &k->arch, LAYOUT_IMPL_AUTO, err) != LAYOUT_OK) return err ? err->status : LAYOUT_ERR_ARG;

    /* the stores: the source as a local_store onto the row-major scratch */
    memset(&nopad, 0, sizeof nopad);
    layout_tk_ds_list list;
    list.capture = cap;
    if ((st = cap ? layout_tk_lower_ldst_list(k, &ck, &cvt, &nopad, 0, NULL, INT64_MAX, r, &list)
                  : layout_tk_lower_ldst(k, &ck, &cvt, &nopad, 0, NULL, r)) != LAYOUT_OK)
        return st;
    if (!r->modelled) return LAYOUT_OK; /* its reason is set */
    r->modelled = 0;

    /* the loads: one per distinct result element (non-zero register
     * bases of the indices' layout), each lane its own element */
    for (b = 0; b < I.in_bits[ir]; b++) n_elems += layout_tk_basis(&I, ir, b) != 0;
    if (r->n_accesses + ((int64_t)1 << n_elems) > LAYOUT_TRITON_KERNEL_MAX_ACCESSES)
        return layout_tk_not_modelled(r, "tt.gather: more than %d accesses per warp", LAYOUT_TRITON_KERNEL_MAX_ACCESSES);
    s = &st_;
    memset(s, 0, sizeof *s);
    s->k = k;
    s->r = r;
    s->lanes = lanes;
    s->ck = ck;
    s->cap = cap;
    for (int l = 0; l < lanes; l++) addr[l] = (uint64_t)l * (uint64_t)eb;
    for (int64_t e = 0; e < ((int64_t)1 << n_elems); e++) {
        if (layout_tk_scratch_cost(s, 0, eb, 0, lanes == 64 ? ~(uint64_t)0 : 0xffffffffu, addr))
            return layout_tk_not_modelled(r, "tt.gather: the checker refused an access");
        /* data-dependent addresses: each load its own base register */
        layout_tk_scratch_block_add(s, 0, src->elem_bits, 1, (uint64_t)e + 1, 0);
    }
    layout_tk_scratch_block_end(s);
    for (d = 0, r->cvt_scratch_bytes = eb; d < rank; d++) r->cvt_scratch_bytes *= src->shape[d];
    r->cvt_load_vec_elems = 1;
    r->cvt_reps = 1;
    r->direction = LAYOUT_WRITE;
    r->modelled = 1;
    return LAYOUT_OK;
}
