/* The model of LLVM's LoadStoreVectorizer (lib/triton_kernel/lsv.c,
 * layout_tk_lsv and layout_tk_lsv_legal), on small access lists whose
 * result follows from the pass's documented steps
 * (llvm/lib/Transforms/Vectorize/LoadStoreVectorizer.cpp, the header
 * comment and those of splitChainByMayAliasInstrs, splitChainByContiguity
 * and splitChainByAlignment):
 *
 *  - accesses are merged only within a chain of one base (known constant
 *    offsets from the leader);
 *  - "Loads get hoisted up to the first load in the chain.  Stores get sunk
 *    down to the last store in the chain": a store of another base between
 *    two stores of a chain splits it unless alias analysis tells them
 *    apart (BasicAA's aliasGEP: the GEPs' common variable cancels, the
 *    range of the rest, from its known bits, must miss an overlap); loads
 *    are not split by loads;
 *  - a chain is cut wherever an access does not start where the previous
 *    one ended;
 *  - from each start the longest prefix "not longer than the max register
 *    length" (128 bits on both targets) that is a power of two and legal at
 *    the start's alignment, else the start is left alone and the next
 *    element starts.
 *
 * Legality: NVPTX's isLegalToVectorizeLoadChain / StoreChain is
 * "Alignment >= ChainSizeInBytes" (NVPTXTargetTransformInfo.h); AMDGPU's
 * LDS (SITargetLowering::allowsMisalignedMemoryAccessesImpl) takes an
 * 8-byte access at 4-byte alignment (ds_read2_b32 / ds_write2_b32 of
 * adjacent dwords) and a 16-byte one at 8 (ds_read2_b64 / ds_write2_b64). */
#include "harness.h"
#include "layout.h"
#include "triton_kernel/tk_internal.h"

static layout_tk_lsv_acc acc[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
static short order[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
static unsigned char len[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];

static void set(int a, uint64_t group, int32_t off, int align_log2)
{
    acc[a].group = group;
    acc[a].off = off;
    acc[a].align_log2 = align_log2;
    acc[a].lo = 1; /* the bases never told apart */
    acc[a].hi = 0;
}

/* run k's accesses as a string "a,b|c|..." for compact comparisons */
static const char *runs(int n_runs)
{
    static char buf[256];
    int pos = 0, at = 0;
    buf[0] = 0;
    for (int k = 0; k < n_runs && pos < 200; k++) {
        for (int m = 0; m < len[k]; m++)
            pos += snprintf(buf + pos, sizeof buf - (size_t)pos, "%s%d", m ? "," : "", order[at + m]);
        at += len[k];
        if (k + 1 < n_runs) pos += snprintf(buf + pos, sizeof buf - (size_t)pos, "|");
    }
    return buf;
}

static void test_legal(void)
{
    /* NVPTX: natural alignment */
    CHECK_EQ_I64(layout_tk_lsv_legal(4, 2, 1), 1);
    CHECK_EQ_I64(layout_tk_lsv_legal(4, 1, 1), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal(8, 2, 1), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal(16, 4, 1), 1);
    CHECK_EQ_I64(layout_tk_lsv_legal(16, 3, 1), 0);
    /* AMDGPU LDS: 8 bytes at 4, 16 at 8, smaller at their size */
    CHECK_EQ_I64(layout_tk_lsv_legal(8, 2, 0), 1);
    CHECK_EQ_I64(layout_tk_lsv_legal(8, 1, 0), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal(16, 3, 0), 1);
    CHECK_EQ_I64(layout_tk_lsv_legal(16, 2, 0), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal(2, 0, 0), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal(2, 1, 0), 1);
    /* AMDGPU LDS in the unaligned DS access mode: speed ranks (LLVM's
     * Vectorizer::accessIsAllowedAndFast over allowsMisalignedMemoryAccessesImpl):
     * 8 bytes of halves at 2 rank 32 against an element's 16: merged (the
     * Gluon fixtures' g220, four fp16 at an odd word: one ds_write_b64);
     * 4 bytes at 2 rank 0: not; 16 bytes at 4 rank 1 against 16 or 32: not;
     * 16 bytes of bytes at 1 rank 32 against 8: merged; aligned to its size:
     * always; 2 bytes of bytes at 1: 0 against 8, not */
    CHECK_EQ_I64(layout_tk_lsv_legal_ua(8, 1, 2), 1);
    CHECK_EQ_I64(layout_tk_lsv_legal_ua(4, 1, 2), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal_ua(16, 2, 2), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal_ua(16, 2, 4), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal_ua(16, 0, 1), 1);
    CHECK_EQ_I64(layout_tk_lsv_legal_ua(8, 2, 4), 1);
    CHECK_EQ_I64(layout_tk_lsv_legal_ua(16, 3, 4), 1);
    CHECK_EQ_I64(layout_tk_lsv_legal_ua(4, 2, 2), 1);
    CHECK_EQ_I64(layout_tk_lsv_legal_ua(2, 0, 1), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal_ua(12, 2, 4), 0);
    /* not a power of two, or beyond the 128-bit register */
    CHECK_EQ_I64(layout_tk_lsv_legal(12, 4, 0), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal(6, 4, 1), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal(32, 5, 1), 0);
    CHECK_EQ_I64(layout_tk_lsv_legal(0, 4, 1), 0);
}

static void test_contiguous_aligned(void)
{
    /* four 2-byte loads of one base at 0, 2, 4, 6, the base 8-aligned: one
     * 8-byte vector (ld.shared.v4.b16) */
    for (int a = 0; a < 4; a++) set(a, 7, 2 * a, a == 0 ? 3 : a == 2 ? 2 : 1);
    CHECK_EQ_I64(layout_tk_lsv(acc, 4, 2, 0, 1, 0, order, len), 1);
    CHECK(strcmp(runs(1), "0,1,2,3") == 0);
    /* program order does not matter for loads: offsets 6, 0, 4, 2 */
    set(0, 7, 6, 1);
    set(1, 7, 0, 3);
    set(2, 7, 4, 2);
    set(3, 7, 2, 1);
    CHECK_EQ_I64(layout_tk_lsv(acc, 4, 2, 0, 1, 0, order, len), 1);
    CHECK(strcmp(runs(1), "1,3,2,0") == 0);
}

static void test_alignment_split(void)
{
    /* the same run with the base only 2-aligned: from offset 0 neither 8
     * nor 4 bytes is legal (and 6 is no power of two), offset 2 is alone
     * too, offset 4 is 4-aligned and takes 4 and 6: mixed widths */
    for (int a = 0; a < 4; a++) set(a, 7, 2 * a, a == 2 ? 2 : 1);
    int n = layout_tk_lsv(acc, 4, 2, 0, 1, 0, order, len);
    CHECK_EQ_I64(n, 3);
    CHECK(strcmp(runs(n), "0|1|2,3") == 0);
}

static void test_alignment_amd_nvidia(void)
{
    /* four fp32 at 0, 4, 8, 12 of a 4-aligned base (offset 8 is 8-aligned):
     * NVPTX: 16 and 8 bytes need 16 / 8 at offset 0 -> alone; offset 4 alone
     * (8 bytes need 8); offsets 8, 12 -> 8 bytes at 8.  AMD: 16 bytes need 8
     * -> no; 8 bytes at 4 -> 0, 4 merge; 8, 12 merge. */
    set(0, 1, 0, 2);
    set(1, 1, 4, 2);
    set(2, 1, 8, 3);
    set(3, 1, 12, 2);
    int n = layout_tk_lsv(acc, 4, 4, 0, 1, 0, order, len);
    CHECK_EQ_I64(n, 3);
    CHECK(strcmp(runs(n), "0|1|2,3") == 0);
    n = layout_tk_lsv(acc, 4, 4, 0, 0, 0, order, len);
    CHECK_EQ_I64(n, 2);
    CHECK(strcmp(runs(n), "0,1|2,3") == 0);
}

static void test_register_width(void)
{
    /* eight contiguous 4-byte accesses, 16-aligned at 0 and 16: two 16-byte
     * vectors (no more than 128 bits each) */
    for (int a = 0; a < 8; a++) set(a, 3, 4 * a, a % 4 == 0 ? 4 : a % 2 == 0 ? 3 : 2);
    int n = layout_tk_lsv(acc, 8, 4, 0, 1, 0, order, len);
    CHECK_EQ_I64(n, 2);
    CHECK(strcmp(runs(n), "0,1,2,3|4,5,6,7") == 0);
}

static void test_contiguity_and_bases(void)
{
    /* a gap cuts the chain: 0, 2 | 6 */
    set(0, 5, 0, 4);
    set(1, 5, 2, 1);
    set(2, 5, 6, 1);
    int n = layout_tk_lsv(acc, 3, 2, 0, 1, 0, order, len);
    CHECK_EQ_I64(n, 2);
    CHECK(strcmp(runs(n), "0,1|2") == 0);
    /* adjacent offsets of two bases are never merged */
    set(0, 5, 0, 4);
    set(1, 6, 2, 1);
    n = layout_tk_lsv(acc, 2, 2, 0, 1, 0, order, len);
    CHECK_EQ_I64(n, 2);
}

static void test_store_alias_split(void)
{
    /* base A at accesses 0, 2 (offsets 0, 4), base B at 1, 3 (100, 104),
     * every start 8-aligned for its pair */
    set(0, 10, 0, 4);
    set(1, 11, 100, 2);
    set(2, 10, 4, 2);
    set(3, 11, 104, 3);
    /* loads: each base's pair merges (B's start, 100, is only 4-aligned:
     * NVPTX leaves it, AMD takes it) */
    int n = layout_tk_lsv(acc, 4, 4, 0, 1, 0, order, len);
    CHECK_EQ_I64(n, 3);
    CHECK(strcmp(runs(n), "0,2|1|3") == 0);
    n = layout_tk_lsv(acc, 4, 4, 0, 0, 0, order, len);
    CHECK_EQ_I64(n, 2);
    CHECK(strcmp(runs(n), "0,2|1,3") == 0);
    /* stores: sinking access 0 to access 2 passes a store of base B, and
     * access 1 to 3 one of base A: nothing merges */
    n = layout_tk_lsv(acc, 4, 4, 1, 0, 0, order, len);
    CHECK_EQ_I64(n, 4);
    /* stores of one base, in any order, with the other base's after them */
    set(0, 10, 4, 2);
    set(1, 10, 0, 4);
    set(2, 11, 100, 2);
    set(3, 11, 104, 3);
    n = layout_tk_lsv(acc, 4, 4, 1, 0, 0, order, len);
    CHECK_EQ_I64(n, 2);
    CHECK(strcmp(runs(n), "1,0|2,3") == 0);
}

static void test_store_alias_ranges(void)
{
    /* BasicAA cancels the bases' common part and bounds the rest by its
     * known bits: base A = X + [0, 256], base B = X + [32, 288].  Store A
     * at 0 and 4 around a store of B at 256: B's address minus A's is in
     * [32 - 256 + 256, 288 - 0 + 256] = [32, 544] (and [28, 540] from 4),
     * clear of the 4 bytes either side: told apart, A's pair merges. */
    set(0, 10, 0, 4);
    set(1, 11, 256, 2);
    set(2, 10, 4, 2);
    acc[0].lo = acc[2].lo = 0, acc[0].hi = acc[2].hi = 256;
    acc[1].lo = 32, acc[1].hi = 288;
    CHECK_EQ_I64(layout_tk_lsv_no_alias(&acc[0], &acc[1], 4), 1);
    CHECK_EQ_I64(layout_tk_lsv_no_alias(&acc[1], &acc[0], 4), 1);
    int n = layout_tk_lsv(acc, 3, 4, 1, 0, 0, order, len);
    CHECK_EQ_I64(n, 2);
    CHECK(strcmp(runs(n), "0,2|1") == 0);
    /* B's store at offset 0 instead: [32 - 256, 288 - 0] = [-224, 288]
     * may overlap, nothing merges */
    acc[1].off = 0;
    CHECK_EQ_I64(layout_tk_lsv_no_alias(&acc[0], &acc[1], 4), 0);
    CHECK_EQ_I64(layout_tk_lsv(acc, 3, 4, 1, 0, 0, order, len), 3);
    /* one group: told apart by offsets alone; unknown ranges: never */
    CHECK_EQ_I64(layout_tk_lsv_no_alias(&acc[0], &acc[2], 4), 1);
    CHECK_EQ_I64(layout_tk_lsv_no_alias(&acc[0], &acc[0], 4), 0);
    acc[1].off = 256;
    acc[1].lo = 1, acc[1].hi = 0;
    CHECK_EQ_I64(layout_tk_lsv_no_alias(&acc[0], &acc[1], 4), 0);
}

static void test_bad_args(void)
{
    set(0, 1, 0, 4);
    CHECK_EQ_I64(layout_tk_lsv(acc, 0, 4, 0, 1, 0, order, len), 0);
    CHECK_EQ_I64(layout_tk_lsv(acc, LAYOUT_TRITON_KERNEL_MAX_ACCESSES + 1, 4, 0, 1, 0, order, len), 0);
    CHECK_EQ_I64(layout_tk_lsv(acc, 1, 0, 0, 1, 0, order, len), 0);
    /* one access: one run of itself */
    CHECK_EQ_I64(layout_tk_lsv(acc, 1, 4, 1, 1, 0, order, len), 1);
    CHECK_EQ_I64(len[0], 1);
    CHECK_EQ_I64(order[0], 0);
}

int main(void)
{
    RUN(test_legal);
    RUN(test_contiguous_aligned);
    RUN(test_alignment_split);
    RUN(test_alignment_amd_nvidia);
    RUN(test_register_width);
    RUN(test_contiguity_and_bases);
    RUN(test_store_alias_split);
    RUN(test_store_alias_ranges);
    RUN(test_bad_args);
    return harness_finish("test_tk_lsv");
}
