/* NVIDIA: ldst.c's step after ptxas, its joins of the runs of one base
 * register (ptxas_join.c's rule on the runs LLVM's LoadStoreVectorizer
 * left), each base's known alignment read from its lanes and warps, the
 * joined instructions costed over the CTA. */
#include "../core/bits.h"
#include "layout/check.h"
#include "ldst_internal.h"

#include <string.h>

/* The warps whose lane addresses differ by more than a translation: each
 * of the layout's warps where padded (ldst_cost_warps), else warp 0 alone;
 * *mult: how many of the kernel's warps each stands for. */
static int ldst_costed_warps(const layout_tk_ldst_stream *s, int64_t *mult)
{
    int nw = s->k->module && s->k->module->num_warps > 0 ? s->k->module->num_warps : 1;
    if (s->pad->n && s->iw >= 0 && s->cvt->in_bits[s->iw] > 0) {
        int lw = 1 << s->cvt->in_bits[s->iw];
        *mult = nw > lw ? nw / lw : 1;
        return lw;
    }
    *mult = nw;
    return 1;
}

/* Run q's instruction over the CTA (first access's register value regval):
 * moved down by `delta` bytes and `width` bytes wide, its CTA cost into
 * *t, *x; with t NULL, *align the trailing zeros of every lane's address
 * of every warp minus `delta` (capped at 4).  Returns 1 when r is not
 * modelled. */
static int ldst_run_over_warps(layout_tk_ldst_stream *s, int64_t regval, int64_t delta, int width, int64_t *t, int64_t *x,
                               int *align)
{
    int64_t mult, tt = 0, xx = 0;
    int nwc = ldst_costed_warps(s, &mult), iw = s->iw;
    uint64_t or_all = 16;
    /* unpadded, warp w's addresses are warp 0's XOR w's image: the warps
     * of single bits set every bit any warp sets */
    int warps = t || nwc > 1 || iw < 0 ? nwc : 1 + s->cvt->in_bits[iw];
    for (int i = 0; i < warps; i++) {
        layout_instr in;
        layout_cost c;
        layout_error e;
        int w = t || nwc > 1 || iw < 0 ? i : (i ? 1 << (i - 1) : 0);
        if (iw >= 0) s->ins[iw] = w;
        if (s->ir >= 0) s->ins[s->ir] = regval;
        if (layout_tk_ldst_instr_of(s->cvt, s->pad, s->ins, s->elem_bytes, s->bytes, width, &in, s->r)) return 1;
        for (int l = 0; l < in.n_lanes; l++) {
            in.addr_bytes[l] -= (uint32_t)delta;
            or_all |= in.addr_bytes[l];
        }
        if (!t) continue;
        if (layout_checker_cost(s->ck, &in, &c, &e) != LAYOUT_OK)
            return layout_tk_not_modelled(s->r, "the checker has no rule: %s", e.message), 1;
        tt += c.total_cycles;
        xx += c.extra_cycles;
    }
    if (iw >= 0) s->ins[iw] = 0;
    if (t) *t = tt * mult, *x = xx * mult;
    if (align) *align = layout_ctz(or_all);
    return 0;
}

/* Step 3d, NVIDIA: ptxas joins runs of one base register further
 * (ptxas_join.c), each base's known alignment read from its addresses
 * over every lane and warp.  Each joined group's CTA cost becomes its
 * one instruction's (its lead's lanes moved to the join's start, the
 * join's width): r's ptxas_joined_* and ptxas_cta_* say how much.  Runs
 * only where two runs of one base could join.  Returns 1 when r is not
 * modelled. */
int layout_tk_ldst_pass_ptxas(layout_tk_ldst_stream *s)
{
    enum { MAXR = LAYOUT_TK_PJ_MAX };
    layout_triton_kernel_op *r = s->r;
    layout_tk_pj_acc a[MAXR];
    short q_of[MAXR], lead[MAXR], run_pos[MAXR];
    int width[MAXR], n = 0, write = r->direction == LAYOUT_WRITE;
    int64_t start[MAXR];
    if (s->tr || s->cut || s->n_runs < 2 || s->n_runs > MAXR || r->elem_bits < 16) return 0;
    for (int q = 0, pos = 0; q < s->n_runs; pos += s->run_len[q++]) run_pos[q] = (short)pos;
    for (int place = 0; place < s->n_acc; place++) {
        int q = s->run_at[place];
        if (q < 0) continue;
        int a0 = s->order[run_pos[q]];
        a[n] = (layout_tk_pj_acc){write, s->run_len[q] * s->bytes, r->elem_bits, s->base_key[a0], s->add_off[a0], -1};
        q_of[n++] = (short)q;
    }
    /* only runs that could join ask their base's alignment: a run of one
     * base register whose bytes another's continue, both under 16 bytes */
    unsigned char could[MAXR] = {0};
    int candidate = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (a[i].base == a[j].base && a[i].bytes < 16 && a[j].bytes < 16 &&
                (a[j].off == a[i].off + a[i].bytes || a[i].off == a[j].off + a[j].bytes))
                could[i] = could[j] = 1, candidate = 1;
    if (!candidate) return 0;
    /* unpadded, a base register is regBase ^ (the key's lane / warp bits):
     * its trailing zeros are those of every bit a lane or warp sets; padded,
     * its addresses are read once per base register */
    int lg_eb = layout_log2_floor(s->elem_bytes);
    for (int i = 0; i < n; i++) {
        if (!could[i]) continue;
        if (!s->pad->n) {
            int tz = s->lanewarp ? layout_ctz(s->lanewarp) + lg_eb : 4;
            a[i].base_align_log2 = tz < 4 ? tz : 4;
            continue;
        }
        for (int j = 0; j < i && a[i].base_align_log2 < 0; j++)
            if (a[j].base == a[i].base && a[j].base_align_log2 >= 0) a[i].base_align_log2 = a[j].base_align_log2;
        if (a[i].base_align_log2 >= 0) continue;
        int64_t rv = layout_tk_ldst_regval(s, s->order[run_pos[q_of[i]]], NULL);
        if (ldst_run_over_warps(s, rv, a[i].off, a[i].bytes, NULL, NULL, &a[i].base_align_log2)) return 1;
    }
    int join16 = write || layout_tk_ptxas_join16(s->k, r->op);
    int joined = layout_tk_ptxas_join(a, n, join16, lead, width, start);
    if (!joined) return 0;
    s->pj_ran = 1;
    for (int q = 0; q < s->n_runs; q++) s->pj_lead[q] = -1;
    for (int i = 0; i < n; i++) {
        if (lead[i] < 0) continue;
        int q = q_of[i];
        int64_t t, x, rv = layout_tk_ldst_regval(s, s->order[run_pos[q]], NULL);
        s->pj_lead[q] = q_of[lead[i]];
        /* the run's own cost leaves; the lead brings the joined one's */
        if (ldst_run_over_warps(s, rv, 0, a[i].bytes, &t, &x, NULL)) return 1;
        r->ptxas_cta_total_delta -= t, r->ptxas_cta_extra_delta -= x;
        if (lead[i] != i) continue;
        s->pj_width[q] = (unsigned char)width[i];
        if (ldst_run_over_warps(s, rv, a[i].off - start[i], width[i], &t, &x, NULL)) return 1;
        r->ptxas_cta_total_delta += t, r->ptxas_cta_extra_delta += x;
    }
    if (write) r->ptxas_joined_stores += joined;
    else r->ptxas_joined_loads += joined;
    return 0;
}

