/* ldst.c's lowering state (lowerLdStShared as a stream of steps), shared
 * with its NVIDIA step after ptxas (ldst_ptxas.c); lib/triton_kernel only. */
#ifndef LAYOUT_TK_LDST_INTERNAL_H
#define LAYOUT_TK_LDST_INTERNAL_H

#include "layout/linear.h"
#include "tk_internal.h"

/* padded_shared's padding (layout_tk_pad, tk_internal.h). */

static inline uint64_t layout_tk_apply_padding(const layout_tk_pad *p, uint64_t bytes)
{
    uint64_t out = bytes;
    int k;
    for (k = 0; k < p->n; k++) out += (bytes >> p->ishift[k]) << p->pshift[k];
    return out;
}

typedef struct layout_tk_ldst_stream {
    /* the op's inputs */
    const layout_triton_kernel *k;
    const layout_checker *ck;
    const layout_linear *cvt;
    const layout_tk_pad *pad;
    const layout_tk_global *g;
    layout_triton_kernel_op *r;
    layout_tk_ds_list *list;
    int tr, shortcut, ir, il, iw;
    int64_t ceiling;
    int64_t ins[LAYOUT_LINEAR_MAX_DIMS];
    /* the vector (largestVectorisation) */
    int nvec, in_word, bytes, elem_bytes, gword;
    int is_vec[LAYOUT_LINEAR_MAX_BITS];
    /* the accesses: access a sets register bits rest[i] where bit i of a is set */
    int nrest, rest[LAYOUT_LINEAR_MAX_BITS], n_acc;
    uint64_t lanewarp, span_b;
    /* AMD, unpadded: the lane / warp part is one `and` of the shifted
     * thread id for LLVM (tidbits.c), (tid << tid_shift) & tid_mask */
    int tid_ok, tid_shift;
    uint64_t tid_mask;
    int part_phi; /* AMD: the part reaches SeparateConstOffsetFromGEP through a phi (tidbits.c); -1 not asked yet */
    uint64_t base_key[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];  /* its base register */
    uint64_t alias_key[LAYOUT_TRITON_KERNEL_MAX_ACCESSES]; /* its address's variable part */
    int64_t add_off[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];    /* its constant byte offset */
    int prog[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];           /* its place in program order */
    int byprog[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];         /* the access at each place */
    layout_tk_lsv_acc lsv[LAYOUT_TRITON_KERNEL_MAX_ACCESSES]; /* as the vectorizer sees it, by place */
    /* after the LoadStoreVectorizer: run q is order[pos .. pos + run_len[q]) */
    int n_runs;
    short order[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    unsigned char run_len[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    short run_at[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];       /* by place: the run standing there, -1 none */
    unsigned char pair_w[LAYOUT_TRITON_KERNEL_MAX_ACCESSES]; /* b32 / b64 width SILoadStoreOptimizer may pair, 0 */
    /* after SILoadStoreOptimizer (paired: it ran), by instruction in program order: partner and pair kind */
    int paired;
    short partner[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    unsigned char pair_kind[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    /* the costing */
    int translate, can_cut, cut;
    int64_t n_single, hi;
    layout_instr first_ins, last_ins;
    layout_cost first_cost;
    /* NVIDIA, after ptxas (layout_tk_ldst_pass_ptxas, ldst_ptxas.c), by run: the run whose LDS /
     * STS holds it (-1: not joined) and, on a lead, that instruction's bytes */
    int pj_ran; /* 1: pj_lead / pj_width hold the joins of n_runs runs */
    short pj_lead[LAYOUT_TK_PJ_MAX];
    unsigned char pj_width[LAYOUT_TK_PJ_MAX];
} layout_tk_ldst_stream;

/* The register value and offset image of access a. */
static inline int64_t layout_tk_ldst_regval(const layout_tk_ldst_stream *s, int a, uint64_t *image)
{
    int64_t regval = 0;
    if (image) *image = 0;
    for (int i = 0; i < s->nrest; i++)
        if (a >> i & 1) {
            regval |= (int64_t)1 << s->rest[i];
            if (image) *image ^= layout_tk_basis(s->cvt, s->ir, s->rest[i]);
        }
    return regval;
}

/* The lanes' byte addresses of the access at input values ins (its width
 * set to `width` bytes), padded.  Returns 1 when r is not modelled. */
static inline int layout_tk_ldst_instr_of(const layout_linear *cvt, const layout_tk_pad *pad, const int64_t *ins, int elem_bytes, int bytes,
                    int width, layout_instr *out, layout_triton_kernel_op *r)
{
    layout_linear_access acc;
    layout_error e;
    if (layout_linear_lane_access(cvt, "lane", ins, elem_bytes, r->direction, bytes, &acc, &e) != LAYOUT_OK ||
        layout_linear_access_instr(&acc, out, &e) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "lane addresses: %s", e.message), 1;
    out->width_bytes = width;
    for (int l = 0; pad->n && l < out->n_lanes; l++) {
        uint64_t padded = layout_tk_apply_padding(pad, out->addr_bytes[l]);
        if (padded > UINT32_MAX - 16) return layout_tk_not_modelled(r, "padded byte address beyond 32 bits"), 1;
        out->addr_bytes[l] = (uint32_t)padded;
    }
    return 0;
}

/* Step 3d, NVIDIA (ldst_ptxas.c): ptxas's joins of the runs; returns 1
 * when r is not modelled. */
int layout_tk_ldst_pass_ptxas(layout_tk_ldst_stream *s);

#endif
