/* Private to lib/dialect: Triton's LinearLayout operations on layout_linear
 * (triton_ll.c), the building blocks of layout_triton_to_linear
 * (triton_mma.c, triton_mma3.c).  Each Triton operation and its name here:
 *   identity1D / zeros1D / operator*      ll_id, ll_zeros, ll_mul (linear.h's product)
 *   transposeOuts                          ll_outs
 *   identityStandardND                     ll_id_nd
 *   broadcastedDotOperandLayout            ll_bcast_dot
 *   LinearLayout({{register, ..}, {lane, ..}}, outs)   ll_explicit
 *   combineCtaCgaWithShape (one CTA)       ll_combine
 * The short names are macros for layout_tll_* symbols. */
#ifndef LAYOUT_TRITON_LL_INTERNAL_H
#define LAYOUT_TRITON_LL_INTERNAL_H

#include "triton_internal.h"

#define FN "layout_triton_to_linear"

#define dim_name layout_tll_dim_name
#define ll_begin layout_tll_ll_begin
#define ll_sub layout_tll_ll_sub
#define ll_fail layout_tll_ll_fail
#define ll_join layout_tll_ll_join
#define ll_id layout_tll_ll_id
#define ll_zeros layout_tll_ll_zeros
#define ll_outs layout_tll_ll_outs
#define ll_id_nd layout_tll_ll_id_nd
#define ll_bcast_dot layout_tll_ll_bcast_dot
#define ll_values layout_tll_ll_values
#define ll_combine layout_tll_ll_combine
#define check_pow2s layout_tll_check_pow2s
#define ll_explicit layout_tll_ll_explicit

/* "dim0".."dim7" */
extern const char *const layout_tll_dim[LAYOUT_TRITON_MAX_RANK];

/* A layout under construction; the first failure sticks. */
typedef struct mma_ll {
    layout_linear l;
    layout_status st;
    layout_error *err;
    layout_error own; /* a sub-layout's own error slot (ll_sub) */
} mma_ll;

/* The name of out dim i; "dim0" for an index not validated yet. */
const char *dim_name(int i);
void ll_begin(mma_ll *b, layout_error *err);
void ll_sub(mma_ll *sub, const mma_ll *parent);
void ll_fail(mma_ll *b, layout_status st, const char *msg);
void ll_join(mma_ll *b, const mma_ll *sub);
void ll_id(mma_ll *b, int64_t size, const char *in, const char *out);
void ll_zeros(mma_ll *b, int64_t size, const char *in, const char *out);
void ll_outs(mma_ll *b, int n, const char *const *names);
void ll_id_nd(mma_ll *b, const char *in, int rank, const int64_t *shape, const int *order);
void ll_bcast_dot(mma_ll *b, const char *in, int rank, const int64_t *shape, const int *order, int kd);
void ll_values(const layout_linear *l, int64_t *vals);
void ll_combine(mma_ll *b, int rank, const int64_t *shape);
int check_pow2s(const int64_t *v, int n);
void ll_explicit(mma_ll *b, int n_reg, const int64_t *reg, int n_lane, const int64_t *lane, const char *o0, const char *o1);

#endif
