/* LLVM's SILoadStoreOptimizer over a list of b32 / b64 DS instructions:
 * which two merge into one ds_read2 / ds_write2 (st64 form included).
 * ldst.c runs it over one op's instructions; xpair.c over the ops of one
 * basic block.  Source followed: llvm/lib/Target/AMDGPU/
 * SILoadStoreOptimizer.cpp at commit 27e2f647a5f7 (collectMergeableInsts,
 * addInstToMergeableList, optimizeInstsWithSameBaseAddr,
 * checkAndPrepareMerge, canSwapInstructions, offsetsCanBeCombined). */
#include "../core/internal.h"
#include "layout/access.h"
#include "layout/triton_kernel.h"
#include "tk_internal.h"

#include <stdint.h>
#include <stdio.h>

void layout_tk_pair_name(int w, int kind, layout_direction dir, char *buf, size_t cap)
{
    layout_ds_op op = kind ? (w == 4 ? (kind == 2 ? LAYOUT_DS_PAIR_ST64_B32 : LAYOUT_DS_PAIR_B32)
                                     : (kind == 2 ? LAYOUT_DS_PAIR_ST64_B64 : LAYOUT_DS_PAIR_B64))
                           : (w == 4 ? LAYOUT_DS_B32 : LAYOUT_DS_B64);
    snprintf(buf, cap, "%s", layout_ds_op_vendor_name(op, dir, LAYOUT_VENDOR_AMD));
}

/* offsetsCanBeCombined for two DS accesses of `size` bytes at byte
 * offsets a, b from one base: 2 = the st64 form (both offsets multiples of
 * 64 elements, each / 64 < 256), 1 = the plain form (each < 256 elements),
 * trying the rebased forms (base moved to the smaller offset: the
 * difference a multiple of 64 elements under 256 * 64, then under 256)
 * after the direct ones; 0 = cannot pair (equal or misaligned offsets). */
int layout_tk_pair_kind(int64_t a, int64_t b, int size)
{
    if (a == b || a % size || b % size) return 0;
    int64_t ea = a / size, eb = b / size, d = ea > eb ? ea - eb : eb - ea;
    if (ea % 64 == 0 && eb % 64 == 0 && ea / 64 < 256 && eb / 64 < 256) return 2;
    if (ea < 256 && eb < 256) return 1;
    if (d % 64 == 0 && d / 64 < 256) return 2;
    if (d < 256) return 1;
    return 0;
}

/* collectMergeableInsts files each instruction in the list of its class
 * and base register (addInstToMergeableList: the lists in the order their
 * first instruction comes); each list is sorted by offset (a stable sort:
 * equal offsets keep program order) and optimizeInstsWithSameBaseAddr
 * tries neighbours: on a merge the walk moves past both, else by one.
 * checkAndPrepareMerge: a load is hoisted to the earlier one (Paired up
 * to CI), a store sunk to the later one (CI down to Paired); each
 * instruction in between must swap with the one that moves
 * (canSwapInstructions: not both memory accesses with one a store that
 * may alias it).  May-alias here: the same variable part (var) of one
 * group at other offsets does not alias (BasicAA: one base, disjoint
 * constant ranges), nor do two accesses whose address ranges (the
 * variable part's known bits, span) are disjoint (BasicAA's aliasGEP
 * adds the ranges of the variable indices: the corpus's
 * matmul_bf16_nt_64x64x32_w4_s2_gfx942 sinks the A tile's second store
 * past the B tile's first, into ds_write2st64_b64 with B's second, but
 * not A's first past A's second, whose ranges meet); anything else may.  Padded (one
 * op's instructions, ldst.c): a store with another base register may
 * alias as well, unless layout_tk_lsv_no_alias tells it apart from both
 * (acc indexed by ins[].at).  A merged store stands where the later one
 * stood, a merged load where the earlier one did (live[]).  walk (NULL:
 * not wanted) lists the instructions as the walk meets them, a pair once
 * (by its lower offset); returns their number. */
int layout_tk_pair_ds(const layout_tk_dsi *ins, int n, const layout_tk_lsv_acc *acc, int padded, short *partner,
                      unsigned char *kind, short *walk)
{
    short mem[LAYOUT_TK_XPAIR_MAX];
    unsigned char live[LAYOUT_TK_XPAIR_MAX], done[LAYOUT_TK_XPAIR_MAX];
    int pos, q, m, nw = 0;
    if (n > LAYOUT_TK_XPAIR_MAX) n = LAYOUT_TK_XPAIR_MAX;
    for (pos = 0; pos < n; pos++) {
        live[pos] = 1;
        done[pos] = !ins[pos].w;
        partner[pos] = -1;
        kind[pos] = 0;
    }
    for (pos = 0; pos < n; pos++) {
        if (done[pos]) continue;
        const layout_tk_dsi *h = &ins[pos];
        for (m = 0, q = pos; q < n; q++) { /* the list, in program order, then sorted by offset */
            int t = m;
            const layout_tk_dsi *c = &ins[q];
            if (done[q] || c->w != h->w || c->key != h->key || c->grp != h->grp || c->store != h->store) continue;
            done[q] = 1;
            while (t > 0 && ins[mem[t - 1]].off > c->off) {
                mem[t] = mem[t - 1];
                t--;
            }
            mem[t] = (short)q;
            m++;
        }
        for (q = 0; q < m;) {
            int k = 0, x = mem[q];
            if (q + 1 < m) {
                int y = mem[q + 1], lo = x < y ? x : y, hi = x ^ y ^ lo;
                int mover = h->store ? lo : hi; /* the instruction that moves past the others */
                k = layout_tk_pair_kind(ins[x].off, ins[y].off, h->w);
                for (int c = lo + 1; c < hi && k; c++) {
                    const layout_tk_dsi *b = &ins[c], *a = &ins[mover];
                    int may_alias;
                    if (!live[c] || !(h->store || b->store)) continue;
                    if (padded)
                        may_alias = (b->var != a->var || b->key != h->key) &&
                                    !(layout_tk_lsv_no_alias(&acc[ins[x].at], &acc[b->at], h->w) &&
                                      layout_tk_lsv_no_alias(&acc[ins[y].at], &acc[b->at], h->w));
                    else if (b->grp == a->grp && b->var == a->var)
                        may_alias = 0;
                    else { /* BasicAA's aliasGEP: the ranges of the variable parts (a register
                            * `or (shl tid, s), C` of its own from C on: its known ones) */
                        int64_t alo = a->off + LAYOUT_TK_OWN_REG_LO(a->key);
                        int64_t blo = b->off + LAYOUT_TK_OWN_REG_LO(b->key);
                        may_alias = a->span < 0 || b->span < 0 ||
                                    (alo < blo + b->span + b->size && blo < alo + a->span + a->size);
                    }
                    if (may_alias) k = 0;
                }
                if (k) {
                    live[h->store ? lo : hi] = 0;
                    partner[x] = (short)y;
                    partner[y] = (short)x;
                    kind[x] = kind[y] = (unsigned char)k;
                }
            }
            if (walk) walk[nw] = (short)x;
            nw++;
            q += k ? 2 : 1;
        }
    }
    return nw;
}
