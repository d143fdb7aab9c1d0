/* The LinearLayout operations Triton's toLinearLayout functions are built
 * from (lib/Tools/LinearLayout.h, lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp,
 * lib/Tools/LayoutUtils.cpp of Triton's 3.5 / 3.6 line), on layout_linear,
 * shared by triton_mma.c and triton_mma3.c (triton_ll_internal.h). */
#include "triton_ll_internal.h"

#include <stdio.h>
#include <string.h>

const char *const layout_tll_dim[LAYOUT_TRITON_MAX_RANK] = {"dim0",  "dim1",  "dim2",  "dim3",  "dim4",  "dim5",  "dim6",
                                                             "dim7",  "dim8",  "dim9",  "dim10", "dim11", "dim12", "dim13",
                                                             "dim14", "dim15", "dim16", "dim17", "dim18", "dim19"};

/* The name of out dim i; "dim0" for an index the caller has not validated yet
 * (an MMA of rank 1 reaches the declarations before mma_check refuses it). */
const char *dim_name(int i) { return i >= 0 && i < LAYOUT_TRITON_MAX_RANK ? layout_tll_dim[i] : "dim0"; }

/* A layout under construction; the first failure sticks. */

void ll_begin(mma_ll *b, layout_error *err)
{
    b->err = err;
    b->st = layout_linear_init(&b->l, err);
}

/* A second layout built beside `parent` (its lanes, its warps), with its
 * own error slot so that its successes never overwrite the parent's message;
 * ll_join multiplies it in or passes its failure on. */
void ll_sub(mma_ll *sub, const mma_ll *parent)
{
    sub->err = &sub->own;
    sub->st = parent->st;
    if (!sub->st) sub->st = layout_linear_init(&sub->l, &sub->own);
}

void ll_fail(mma_ll *b, layout_status st, const char *msg)
{
    if (b->st) return;
    b->st = layout_fail(b->err, st, "%s: %s", FN, msg);
}

static void ll_mul(mma_ll *b, const layout_linear *outer)
{
    if (b->st) return;
    b->st = layout_linear_product(&b->l, &b->l, outer, b->err);
}

void ll_join(mma_ll *b, const mma_ll *sub)
{
    if (b->st) return;
    if (sub->st) {
        b->st = sub->st;
        if (b->err) *b->err = sub->own;
        return;
    }
    ll_mul(b, &sub->l);
}

/* *= identity1D(size, in, out); size 0 is Triton's empty layout (no-op). */
void ll_id(mma_ll *b, int64_t size, const char *in, const char *out)
{
    layout_linear t;
    if (b->st || size == 0) return;
    if (!layout_is_pow2(size)) {
        ll_fail(b, LAYOUT_ERR_ARG, "a size that is not a power of two");
        return;
    }
    if ((b->st = layout_linear_identity(&t, in, out, layout_log2_floor(size), b->err))) return;
    ll_mul(b, &t);
}

/* *= zeros1D(size, in, out): `size` inputs all mapped to 0. */
void ll_zeros(mma_ll *b, int64_t size, const char *in, const char *out)
{
    layout_linear t;
    if (b->st || size == 0) return;
    if (!layout_is_pow2(size)) {
        ll_fail(b, LAYOUT_ERR_ARG, "a size that is not a power of two");
        return;
    }
    if ((b->st = layout_linear_init(&t, b->err)) || (b->st = layout_linear_add_in_dim(&t, in, layout_log2_floor(size), b->err)) ||
        (b->st = layout_linear_add_out_dim(&t, out, 0, b->err)))
        return;
    ll_mul(b, &t);
}

/* transposeOuts(names[0..n)). */
void ll_outs(mma_ll *b, int n, const char *const *names)
{
    if (b->st) return;
    b->st = layout_linear_transpose_outs(&b->l, &b->l, n, names, b->err);
}

/* identityStandardND(in, shape, order): order[0] (most minor) first. */
void ll_id_nd(mma_ll *b, const char *in, int rank, const int64_t *shape, const int *order)
{
    int i;
    for (i = 0; i < rank; i++) ll_id(b, shape[order[i]], in, dim_name(order[i]));
}

/* broadcastedDotOperandLayout: along `order`, zeros on the K dim, identity elsewhere. */
void ll_bcast_dot(mma_ll *b, const char *in, int rank, const int64_t *shape, const int *order, int kd)
{
    int i;
    for (i = 0; i < rank; i++) {
        if (order[i] == kd)
            ll_zeros(b, shape[order[i]], in, dim_name(order[i]));
        else
            ll_id(b, shape[order[i]], in, dim_name(order[i]));
    }
}

/* d for the out dim named "dimd" (0 <= d < LAYOUT_TRITON_MAX_RANK), else -1. */
static int out_index(const char *name)
{
    int d;
    for (d = 0; d < LAYOUT_TRITON_MAX_RANK; d++)
        if (strcmp(name, layout_tll_dim[d]) == 0) return d;
    return -1;
}

/* Rebuild from explicit values (vals[bit][out]), the out sizes inferred
 * from the largest value as Triton's LinearLayout(bases, outDimNames) does. */
static void ll_rebuild(mma_ll *b, const int64_t *vals)
{
    const char *in_names[LAYOUT_LINEAR_MAX_DIMS], *out_names[LAYOUT_LINEAR_MAX_DIMS];
    int in_bits[LAYOUT_LINEAR_MAX_DIMS], k;
    layout_linear src = b->l;
    static const int64_t zero = 0;
    if (b->st) return;
    for (k = 0; k < src.n_in; k++) {
        in_names[k] = src.in_names[k];
        in_bits[k] = src.in_bits[k];
    }
    for (k = 0; k < src.n_out; k++) out_names[k] = src.out_names[k];
    b->st = layout_linear_from_bases(&b->l, src.n_in, in_names, in_bits, src.total_in_bits ? vals : &zero, src.n_out,
                                     out_names, NULL, b->err);
}

/* The basis values, vals[bit * n_out + out]. */
void ll_values(const layout_linear *l, int64_t *vals)
{
    int i, bit, j = 0;
    for (i = 0; i < l->n_in; i++)
        for (bit = 0; bit < l->in_bits[i]; bit++, j++) layout_linear_get_basis(l, i, bit, vals + (size_t)j * l->n_out, NULL);
}

/* combineCtaCgaWithShape with one CTA. */
void ll_combine(mma_ll *b, int rank, const int64_t *shape)
{
    int64_t vals[LAYOUT_LINEAR_MAX_BITS * LAYOUT_LINEAR_MAX_DIMS];
    int j, k, n;
    if (b->st) return;
    if (b->l.n_out != rank) {
        ll_fail(b, LAYOUT_ERR_ARG, "internal: out dims differ from the rank");
        return;
    }
    /* ensureLayoutNotSmallerThan: in the layout's out-dim order. */
    n = b->l.n_out;
    for (j = 0; j < n && !b->st; j++) {
        char name[LAYOUT_LINEAR_NAME_CAP];
        int d;
        int64_t have;
        strcpy(name, b->l.out_names[j]);
        d = out_index(name);
        if (d < 0 || d >= rank) {
            ll_fail(b, LAYOUT_ERR_ARG, "internal: an out dim is not dim0..");
            return;
        }
        have = (int64_t)1 << b->l.out_bits[j];
        if (shape[d] > have) ll_id(b, shape[d] / have, "register", name);
    }
    if (b->st) return;
    /* ensureLayoutNotLargerThan: per out dim, zero the largest components first. */
    ll_values(&b->l, vals);
    n = b->l.n_out;
    for (j = 0; j < n; j++) {
        int d = out_index(b->l.out_names[j]);
        int64_t actual = (int64_t)1 << b->l.out_bits[j];
        while (actual > shape[d]) {
            int best = -1;
            for (k = 0; k < b->l.total_in_bits; k++)
                if (vals[(size_t)k * n + j] && (best < 0 || vals[(size_t)k * n + j] > vals[(size_t)best * n + j])) best = k;
            if (best < 0) break;
            vals[(size_t)best * n + j] = 0;
            actual >>= 1;
        }
    }
    ll_rebuild(b, vals);
    ll_outs(b, rank, layout_tll_dim);
}

int check_pow2s(const int64_t *v, int n)
{
    int k;
    for (k = 0; k < n; k++)
        if (!layout_is_pow2(v[k]) || v[k] > ((int64_t)1 << 30)) return 0;
    return 1;
}

/* A layout with in dims register, lane and out dims (o0, o1) from explicit
 * bases (pairs of values), as Triton's LinearLayout({{kRegister, ..},
 * {kLane, ..}}, {o0, o1}). */
void ll_explicit(mma_ll *b, int n_reg, const int64_t *reg, int n_lane, const int64_t *lane, const char *o0,
                        const char *o1)
{
    const char *ins[2] = {"register", "lane"}, *outs[2];
    int bits[2];
    int64_t vals[2 * LAYOUT_LINEAR_MAX_BITS];
    if (b->st) return;
    outs[0] = o0;
    outs[1] = o1;
    bits[0] = n_reg;
    bits[1] = n_lane;
    memcpy(vals, reg, sizeof(int64_t) * 2 * (size_t)n_reg);
    memcpy(vals + 2 * n_reg, lane, sizeof(int64_t) * 2 * (size_t)n_lane);
    b->st = layout_linear_from_bases(&b->l, 2, ins, bits, vals, 2, outs, NULL, b->err);
}

