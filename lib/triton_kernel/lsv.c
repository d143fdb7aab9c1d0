/* What LLVM's LoadStoreVectorizer makes of the accesses lowerLdStShared
 * emits (tk_internal.h, layout_tk_lsv).
 *
 * Triton 3.6 emits each local_load / local_store as plain LLVM loads and
 * stores of its vector (largestVectorisation; lowerLdSt in
 * lib/Conversion/TritonGPUToLLVM/Utility.cpp, read at triton-lang/triton
 * 00a287a7530fdc5fe89a2a01ac1de19f66aca85a: the index holds no v3.6.0
 * tag).  Both backends then run LLVM's LoadStoreVectorizer
 * (llvm/lib/Transforms/Vectorize/LoadStoreVectorizer.cpp, the rewrite of
 * 2023), which merges accesses whose addresses it can prove a constant
 * apart, whatever register each element came from.  That is how the Gluon
 * fixtures' PTX stores the pair {register 0, register 5} as one
 * st.shared.b32 where largestVectorisation (a permutation of single
 * register bits) finds no vector, and how a padded layout's runs come out
 * as vectors of mixed widths.
 *
 * The steps of that pass, re-derived here on (group, offset) pairs
 * (nothing is copied):
 *
 *  - gatherChains: accesses of one base (one `group`) are a chain; others
 *    are never merged with them;
 *  - splitChainByMayAliasInstrs: a store chain is walked from its last
 *    store up (stores sink to the last one); an earlier store joins only
 *    if every store of another base between it and the chain's front in
 *    program order is told apart by alias analysis (BasicAA: the bases'
 *    common part cancels, the rest is bounded by its known bits, and the
 *    difference's range must miss an overlap; layout_tk_lsv_no_alias);
 *    loads are reordered freely;
 *  - splitChainByContiguity: offset order, a new chain wherever an access
 *    does not start where the previous ended;
 *  - splitChainByAlignment: from each start, the longest prefix of at most
 *    16 bytes (the 128-bit vector register width both targets report) that
 *    is legal at the start's alignment, else the start stays alone.
 *    Legal: a power-of-two size; NVPTX needs natural alignment
 *    (NVPTXTTIImpl's isLegalToVectorizeLdStChain: alignment >= size);
 *    AMDGPU's LDS (SITargetLowering::allowsMisalignedMemoryAccessesImpl)
 *    takes 8 bytes at 4-byte alignment (ds_read2_b32 / ds_write2_b32 of
 *    adjacent dwords) and 16 bytes at 8 (ds_read2_b64), smaller sizes at
 *    their own alignment.  In the unaligned DS access mode (gfx90a and
 *    later under HSA) the vectorizer weighs speed ranks instead
 *    (Vectorizer::accessIsAllowedAndFast): a chain that is not aligned to
 *    its size merges where the wide access ranks at least as fast as one
 *    element; the wide access ranks 64 (8 bytes at 4), 128 (16 at 8), 32
 *    below 4 bytes of alignment, 1 otherwise (16 at 4), and an element
 *    its bits when naturally aligned, else 0.  So 8 or 16 bytes of 8- or
 *    16-bit elements merge at 1- or 2-byte alignment (ds_write_b64 of four
 *    halves at an odd word: the Gluon fixtures' g220, [32:+1] fp16), 4
 *    bytes there do not. */
#include "../core/bits.h"
#include "tk_internal.h"

#include <string.h>

#define MAXA LAYOUT_TRITON_KERNEL_MAX_ACCESSES

int layout_tk_lsv_legal(int size, int align_log2, int is_nvidia)
{
    if (size <= 0 || size > 16 || !layout_is_pow2(size)) return 0;
    int need = layout_log2_floor(size);
    if (!is_nvidia) {
        if (size == 8) need = 2;
        else if (size == 16) need = 3;
    }
    return align_log2 >= need;
}

/* allowsMisalignedMemoryAccessesImpl's speed rank of an LDS access of
 * `bits` at 2^align_log2 bytes in the unaligned DS access mode. */
static int amd_ua_speed(int bits, int align_log2)
{
    int align = 1 << align_log2;
    if (bits == 64) return align >= 4 ? 64 : 32;
    if (bits == 128) return align >= 8 ? 128 : align < 4 ? 32 : 1;
    return align * 8 >= bits ? bits : 0;
}

int layout_tk_lsv_legal_ua(int size, int align_log2, int elem_bytes)
{
    if (size <= 0 || size > 16 || !layout_is_pow2(size) || elem_bytes <= 0 || elem_bytes > size) return 0;
    if (align_log2 >= layout_log2_floor(size)) return 1; /* aligned to its size: always */
    return amd_ua_speed(size * 8, align_log2) >= amd_ua_speed(elem_bytes * 8, align_log2);
}

int layout_tk_lsv_no_alias(const layout_tk_lsv_acc *x, const layout_tk_lsv_acc *y, int bytes)
{
    int64_t d = (int64_t)y->off - x->off;
    if (x->group == y->group) return d >= bytes || d <= -bytes;
    if (x->lo > x->hi || y->lo > y->hi) return 0;
    return (int64_t)y->lo - x->hi + d >= bytes || (int64_t)y->hi - x->lo + d <= -bytes;
}

int layout_tk_lsv(const layout_tk_lsv_acc *acc, int n, int bytes, int is_store, int is_nvidia, int ua_elem, short *order,
                  unsigned char *run_len)
{
    unsigned char done[MAXA];
    int n_runs = 0, n_order = 0;
    if (n <= 0 || n > MAXA || bytes <= 0) return 0;
    memset(done, 0, (size_t)n);
    for (int a0 = 0; a0 < n; a0++) {
        if (done[a0]) continue;
        /* the group's members in program order */
        short mem[MAXA];
        int nm = 0;
        for (int a = a0; a < n; a++)
            if (!done[a] && acc[a].group == acc[a0].group) { mem[nm++] = (short)a; done[a] = 1; }
        /* may-alias split (stores): chain ids from the last member up */
        short chain_of[MAXA];
        int n_chains = 1;
        chain_of[nm - 1] = 0;
        int front = mem[nm - 1];
        for (int j = nm - 2; j >= 0; j--) {
            int safe = 1;
            if (is_store)
                for (int t = mem[j] + 1; t < front && safe; t++)
                    if (acc[t].group != acc[a0].group && !layout_tk_lsv_no_alias(&acc[mem[j]], &acc[t], bytes))
                        safe = 0;
            if (!safe) { n_chains++; front = mem[j]; }
            chain_of[j] = (short)(n_chains - 1);
        }
        for (int c = 0; c < n_chains; c++) {
            /* the chain in offset order (insertion sort, program order on ties) */
            short ch[MAXA];
            int nc = 0;
            for (int j = 0; j < nm; j++) {
                if (chain_of[j] != c) continue;
                int p = nc++;
                while (p > 0 && acc[ch[p - 1]].off > acc[mem[j]].off) { ch[p] = ch[p - 1]; p--; }
                ch[p] = mem[j];
            }
            /* contiguity, then alignment */
            for (int s = 0; s < nc;) {
                int e = s + 1;
                while (e < nc && acc[ch[e]].off == acc[ch[e - 1]].off + bytes) e++;
                for (int b = s; b < e;) {
                    int len = 1;
                    for (int k = e - b; k > 1; k--)
                        if (k * bytes <= 16 &&
                            (ua_elem && acc[ch[b]].ua_ok ? layout_tk_lsv_legal_ua(k * bytes, acc[ch[b]].align_log2, ua_elem)
                                     : layout_tk_lsv_legal(k * bytes, acc[ch[b]].align_log2, is_nvidia))) {
                            len = k;
                            break;
                        }
                    run_len[n_runs++] = (unsigned char)len;
                    for (int k = 0; k < len; k++) order[n_order++] = ch[b + k];
                    b += len;
                }
                s = e;
            }
        }
    }
    return n_runs;
}
