/* Which AMD DS accesses share a base register, on kernels written by hand
 * (tidbits.c, ldst.c).  SILoadStoreOptimizer pairs only accesses of one
 * base register; which ones share one is decided before it:
 *
 *  - InstCombine: the lane part of an address is `(tid << 2) & 252` (one
 *    `and` of the shifted thread id: Triton's x = tid & (threads - 1)
 *    merges into it), and an access at it plus a constant C is `or
 *    disjoint` of the two; where C sets every bit the mask clears of what
 *    tid << 2 may hold for tid < 1024 (bits 8..11, 0xf00), SimplifyDemandedBits
 *    drops the `and` (InstCombineSimplifyDemanded.cpp @
 *    00895a2755f142e3ece3677c826fd4efc142d7dc, SimplifyDemandedUseBits' Or
 *    case, SimplifyMultipleUseDemandedBits' And case) and the address is
 *    `or (shl tid, 2), C`, not disjoint: a register of its own;
 *  - instruction selection knows tid < threads (SIISelLowering.cpp @
 *    0010bb42dcb46608b5121a26f4ff4b1587317a39, lowerWorkitemID's
 *    AssertZext): with 64 threads tid << 2 < 256, the `or` is disjoint
 *    again and SelectDS1Addr1Offset (AMDGPUISelDAGToDAG.cpp @
 *    0060f297760d793693684daf1c9ce22157c1e5e7) folds C on the one base --
 *    in one basic block only: an `or` that a loop's block also uses comes
 *    in as a register (llc-22: a prologue and a loop storing at one
 *    address keep `v_or_b32`).
 *
 * The kernel: a 64 x N fp32 tensor in #b (lane i holds row i, its N
 * registers the columns; the warps hold copies), stored by a local_alloc
 * into a column-major swizzled_shared and loaded back: (i, j) at 4 (i +
 * 64 j) bytes, so lane i's part is 4 i and column j adds 256 j -- the
 * corpus's matmul_fp32ieee_nn_32x32x64_w2_s2_gfx950 B loads.
 *
 *  - N = 16, 2 warps (128 threads): column 15 (3840 = 0xf00) covers the
 *    cleared bits, and 128 threads leave bit 8 possible: its own register;
 *    columns 0..14 pair, 7 pairs and a single, plus that one: 7
 *    ds_write2st64_b32 + 2 ds_write_b32 (the loads the same);
 *  - N = 16, 1 warp (64 threads), no loop: the DAG folds 3840 back: 8
 *    pairs each way (suggest_proof's g415_gfx950_fp32_32x32_w1, its ISA);
 *  - the same inside an scf.for: 7 + 2 again;
 *  - N = 8 (constants to 1792): nothing covers bits 8..11: 4 pairs;
 *  - gfx942 likewise (ds_read2st64_b32 on every gfx9).
 *
 * And an XOR constant with bits both inside and outside what the lane /
 * warp part may hold: Triton's LLVM splits it in the GEP into the part
 * XOR the inside bits plus the outside ones (SeparateConstOffsetFromGEP.cpp
 * @ 007f1e9600616a2dda8337142bedfc83e4657333, extractDisjointBitsFromXor,
 * from computeKnownBits of the part), unless the part is a phi GVN made
 * after a loop that may run no iteration, which computeKnownBits does not
 * see through (ValueTracking.cpp @ 000c9fbbaaea20963423d8e159f3b45325a8f5a9,
 * the PHI case's one-level recursion).  The kernel: the A operand of the
 * corpus's matmul_fp16_tn_128x64x64_w4_s3_gfx942 (amd_rotating_shared,
 * dot_op kWidth 4: 16 b64 loads, keys 16 .. 112 and 8192 | those bytes),
 * loaded in a loop and once after it:
 *
 *  - in the loop: 8 ds_read2st64_b64 (the corpus's loop);
 *  - right after a loop of `%n` iterations: only `or disjoint x, 8192`
 *    pairs: 1 ds_read2st64_b64 + 14 ds_read_b64 (the corpus's epilogue);
 *  - after a loop of 0 .. 4 (no guard: no phi), or after an scf.if (the
 *    part is computed anew there): 8 pairs. */
#include "harness.h"
#include "layout.h"

#include <stdio.h>
#include <string.h>

static layout_ttgir mod;
static layout_triton_kernel kern;
static layout_error terr;
static char text[4096];

static const char *fmt =
    "#b = #ttg.blocked<{sizePerThread = [1, %d], threadsPerWarp = [64, 1], warpsPerCTA = [%d, 1], order = [1, 0]}>\n"
    "#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = %d : i32, ttg.target = \"hip:%s\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "  tt.func public @k(%%p: !tt.ptr<f32>, %%n: i32) attributes {noinline = false} {\n"
    "    %%c = arith.constant dense<1.000000e+00> : tensor<64x%dxf32, #b>\n"
    "    %%c0 = arith.constant 0 : i32\n"
    "    %%c1 = arith.constant 1 : i32\n"
    "%s"
    "    %%a = ttg.local_alloc %%c : (tensor<64x%dxf32, #b>) -> !ttg.memdesc<64x%dxf32, #s, #smem>\n"
    "    %%l = ttg.local_load %%a : !ttg.memdesc<64x%dxf32, #s, #smem> -> tensor<64x%dxf32, #b>\n"
    "%s"
    "    tt.return\n"
    "  }\n"
    "}\n";

/* The count of mnemonic mn of the kernel's op (0: the local_alloc's
 * stores, 1: the local_load's loads); -1 when the kernel is not read. */
static int64_t count(const char *target, int warps, int n, int in_loop, int op, const char *mn)
{
    snprintf(text, sizeof text, fmt, n, warps, warps, target, n,
             in_loop ? "    scf.for %i = %c0 to %n step %c1  : i32 {\n" : "", n, n, n, n, in_loop ? "    }\n" : "");
    if (layout_ttgir_parse(text, strlen(text), &mod, &terr) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK || kern.n_ops != 2 ||
        !kern.ops[op].modelled) {
        fprintf(stderr, "  %s %d warps N %d loop %d: %s\n", target, warps, n, in_loop, terr.message);
        return -1;
    }
    for (int i = 0; i < kern.ops[op].n_counts; i++)
        if (strcmp(kern.ops[op].counts[i].mnemonic, mn) == 0) return kern.ops[op].counts[i].count;
    return 0;
}

static void test_own_register_at_128_threads(void)
{
    const char *t[2] = {"gfx950", "gfx942"};
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_I64(count(t[i], 2, 16, 0, 0, "ds_write2st64_b32"), 7);
        CHECK_EQ_I64(count(t[i], 2, 16, 0, 0, "ds_write_b32"), 2);
        CHECK_EQ_I64(count(t[i], 2, 16, 0, 1, "ds_read2st64_b32"), 7);
        CHECK_EQ_I64(count(t[i], 2, 16, 0, 1, "ds_read_b32"), 2);
    }
}

static void test_folded_back_at_64_threads(void)
{
    CHECK_EQ_I64(count("gfx950", 1, 16, 0, 0, "ds_write2st64_b32"), 8);
    CHECK_EQ_I64(count("gfx950", 1, 16, 0, 0, "ds_write_b32"), 0);
    CHECK_EQ_I64(count("gfx950", 1, 16, 0, 1, "ds_read2st64_b32"), 8);
    /* in a loop the `or` is live across blocks: not folded */
    CHECK_EQ_I64(count("gfx950", 1, 16, 1, 0, "ds_write2st64_b32"), 7);
    CHECK_EQ_I64(count("gfx950", 1, 16, 1, 1, "ds_read_b32"), 2);
}

static void test_no_constant_covers_the_mask(void)
{
    CHECK_EQ_I64(count("gfx950", 2, 8, 0, 0, "ds_write2st64_b32"), 4);
    CHECK_EQ_I64(count("gfx950", 2, 8, 0, 0, "ds_write_b32"), 0);
    CHECK_EQ_I64(count("gfx950", 2, 8, 0, 1, "ds_read2st64_b32"), 4);
}

static const char *xfmt =
    "#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>\n"
    "#s = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "  tt.func public @k(%%n: i32, %%p: i1) attributes {noinline = false} {\n"
    "    %%c0 = arith.constant 0 : i32\n"
    "    %%c1 = arith.constant 1 : i32\n"
    "    %%c4 = arith.constant 4 : i32\n"
    "    %%a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #s, #smem, mutable>\n"
    "    scf.for %%i = %%c0 to %s step %%c1  : i32 {\n"
    "      %%x = ttg.local_load %%a : !ttg.memdesc<128x64xf16, #s, #smem, mutable> -> "
    "tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>\n"
    "    }\n"
    "%s"
    "    %%y = ttg.local_load %%a : !ttg.memdesc<128x64xf16, #s, #smem, mutable> -> "
    "tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

/* The count of mn of local_load `op` (0: the loop's, 1: the one after;
 * the local_alloc of no value has no instruction);
 * ub the loop's upper bound, between: text between the loop and it. */
static int64_t xcount(const char *ub, const char *between, int op, const char *mn)
{
    snprintf(text, sizeof text, xfmt, ub, between);
    if (layout_ttgir_parse(text, strlen(text), &mod, &terr) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK || kern.n_ops != 2 ||
        !kern.ops[op].modelled) {
        fprintf(stderr, "  ub %s: %s\n", ub, terr.message);
        return -1;
    }
    for (int i = 0; i < kern.ops[op].n_counts; i++)
        if (strcmp(kern.ops[op].counts[i].mnemonic, mn) == 0) return kern.ops[op].counts[i].count;
    return 0;
}

static void test_xor_split_in_the_loop(void)
{
    CHECK_EQ_I64(xcount("%n", "", 0, "ds_read2st64_b64"), 8);
    CHECK_EQ_I64(xcount("%n", "", 0, "ds_read_b64"), 0);
}

static void test_xor_whole_through_gvn_phi(void)
{
    CHECK_EQ_I64(xcount("%n", "", 1, "ds_read2st64_b64"), 1);
    CHECK_EQ_I64(xcount("%n", "", 1, "ds_read_b64"), 14);
}

static void test_xor_split_without_phi(void)
{
    const char *iff = "    scf.if %p {\n      %z = arith.addi %c0, %c1 : i32\n    }\n";
    CHECK_EQ_I64(xcount("%c4", "", 1, "ds_read2st64_b64"), 8);
    CHECK_EQ_I64(xcount("%n", iff, 1, "ds_read2st64_b64"), 8);
    CHECK_EQ_I64(xcount("%n", iff, 1, "ds_read_b64"), 0);
}

/* The same loads where LLVM peels the loop: the loop carries the view of
 * a one-deep buffer (`!ttg.memdesc<1x...>`, a memdesc iter_arg), a header
 * phi whose latch value is invariant, so LoopPeel copies the first
 * iteration in front (docs/notes/amd-misses.md) and the load after the
 * loop computes its part anew instead of through GVN's phi: the XOR
 * splits, 8 ds_read2st64_b64 (the mix tuning set's
 * matmul_fp16_nn_64x64x16_cfp16_w1_s2_gfx942, its post-O3 IR: the
 * epilogue's `%557 = xor i32 %556, %555` made in its own block, `xor
 * %557, 1040` split to `%557 ^ 16` plus 1024; its AMDGCN's epilogue all
 * ds_read2st64_b64). */
static const char *pfmt =
    "#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>\n"
    "#s = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "  tt.func public @k(%n: i32) attributes {noinline = false} {\n"
    "    %c0 = arith.constant 0 : i32\n"
    "    %c1 = arith.constant 1 : i32\n"
    "    %a = ttg.local_alloc : () -> !ttg.memdesc<1x128x64xf16, #s, #smem, mutable>\n"
    "    %v = ttg.memdesc_index %a[%c0] : !ttg.memdesc<1x128x64xf16, #s, #smem, mutable> -> "
    "!ttg.memdesc<128x64xf16, #s, #smem, mutable>\n"
    "    %r = scf.for %i = %c0 to %n step %c1 iter_args(%w = %v) -> (!ttg.memdesc<128x64xf16, #s, #smem, mutable>)  : i32 {\n"
    "      %x = ttg.local_load %w : !ttg.memdesc<128x64xf16, #s, #smem, mutable> -> "
    "tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>\n"
    "      scf.yield %w : !ttg.memdesc<128x64xf16, #s, #smem, mutable>\n"
    "    }\n"
    "    %y = ttg.local_load %v : !ttg.memdesc<128x64xf16, #s, #smem, mutable> -> "
    "tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

static void test_xor_split_after_a_peeled_loop(void)
{
    int64_t got = -1;
    if (layout_ttgir_parse(pfmt, strlen(pfmt), &mod, &terr) == LAYOUT_OK &&
        layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK && kern.n_ops >= 2) {
        const layout_triton_kernel_op *o = &kern.ops[kern.n_ops - 1];
        got = 0;
        for (int i = 0; i < o->n_counts; i++)
            if (strcmp(o->counts[i].mnemonic, "ds_read2st64_b64") == 0) got = o->counts[i].count;
    } else {
        fprintf(stderr, "  peeled loop: %s\n", terr.message);
    }
    CHECK_EQ_I64(got, 8);
}

/* A scan's warp totals (scan.c, tidbits.c): a 1-D cumsum of 4096 f32 in
 * sizePerThread [8 / W'], 64 lanes, W warps stores chunk c's total at
 * element warpIdAxis + c * W under `laneId == 63`, a branch: the stores
 * stand in a block of their own and get warpIdAxis = (tid >> 6) & (W - 1)
 * as a register from the entry block.  Chunk 1's constant W covers what
 * the mask clears of tid >> 6 < 16 only for W = 8: InstCombine's `or
 * (lshr tid, 6), 8`, which instruction selection folds into the offset
 * on base lshr tid, 6 -- another register than the entry's `and`, so
 * nothing pairs (the corpus's cumsum1d_fp32_4096_w8_s1_gfx950: two
 * ds_write_b32, offsets 0 and 32; Triton's LLVM on llc/pairing_branch.ll,
 * recorded/pairing_branch.gfx950.triton.s: two ds_write_b32 in @warps8).
 * With W = 4 the `and` stays and both chunks are one base plus constants:
 * ds_write2_b32 offset1:4 (the rows tuning set's
 * cumsum1d_bf16_4096_w4_s1_gfx950; @warps4).  A scan with one lane along
 * its axis stores unpredicated, in the entry block: its chunks pair again
 * (the rows set's scan2d_fp32_cumsum_ax0_4x256_w4_s1_gfx950, two
 * ds_write2st64_b32). */
static const char *sfmt =
    "#b = #ttg.blocked<{sizePerThread = [%d], threadsPerWarp = [64], warpsPerCTA = [%d], order = [0]}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = %d : i32, ttg.target = \"hip:gfx950\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "  tt.func public @k(%%p: !tt.ptr<f32>) attributes {noinline = false} {\n"
    "    %%c = arith.constant dense<1.000000e+00> : tensor<4096xf32, #b>\n"
    "    %%s = \"tt.scan\"(%%c) <{axis = 0 : i32, reverse = false}> ({\n"
    "    ^bb0(%%x: f32, %%y: f32):\n"
    "      %%z = arith.addf %%x, %%y : f32\n"
    "      tt.scan.return %%z : f32\n"
    "    }) : (tensor<4096xf32, #b>) -> tensor<4096xf32, #b>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

static int64_t scount(int spt, int warps, const char *mn)
{
    snprintf(text, sizeof text, sfmt, spt, warps, warps);
    if (layout_ttgir_parse(text, strlen(text), &mod, &terr) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK || kern.n_ops != 1 ||
        !kern.ops[0].modelled) {
        fprintf(stderr, "  scan %d x %d warps: %s\n", spt, warps, terr.message);
        return -1;
    }
    for (int i = 0; i < kern.ops[0].n_counts; i++)
        if (strcmp(kern.ops[0].counts[i].mnemonic, mn) == 0) return kern.ops[0].counts[i].count;
    return 0;
}

static void test_scan_totals_under_a_branch(void)
{
    /* 8 warps, 4 a thread: 2 chunks, offsets 0 and 32, two bases */
    CHECK_EQ_I64(scount(4, 8, "ds_write_b32"), 2);
    CHECK_EQ_I64(scount(4, 8, "ds_write2_b32"), 0);
    /* 4 warps, 8 a thread: 2 chunks, one base */
    CHECK_EQ_I64(scount(8, 4, "ds_write2_b32"), 1);
    CHECK_EQ_I64(scount(8, 4, "ds_write_b32"), 0);
}

/* Reductions whose rows are registers (reduce.c), R x 1024 f32 in
 * sizePerThread [1, 4], 64 lanes and 2 warps along axis 1: each warp's
 * partials are stored by lane 0 under a predicate, one `if` per row, and
 * read back at constant addresses (the result is uniform):
 *  - the loads: Triton's LLVM gives @global_smem + C a register of its
 *    own per access (a COPY of GET_GROUPSTATICSIZE each, the machine IR
 *    of the rows2 set's rowstats_fp32_2x1024_w2_s1_gfx942 on the GPU
 *    machine): never read2, 2 ds_read_b32;
 *  - the stores: the first reduce's second row address is computed
 *    between the two `if`s and used again by the second, identical
 *    reduce, so SimplifyCFG cannot thread that block: 2 ds_write_b32; the
 *    second reduce reuses both addresses (Triton's CSE), nothing stands
 *    between its `if`s, the stores share one block: 1 ds_write2_b32
 *    offset1:2 (the same kernel's AMDGCN). */
static const char *rfmt =
    "#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [1, 2], order = [1, 0]}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 2 : i32, ttg.target = \"hip:gfx942\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "  tt.func public @k(%%p: !tt.ptr<f32>) attributes {noinline = false} {\n"
    "    %%c = arith.constant dense<1.000000e+00> : tensor<%dx1024xf32, #b>\n"
    "%s"
    "    tt.return\n"
    "  }\n"
    "}\n";
static const char *rop =
    "    %%r%d = \"tt.reduce\"(%%c) <{axis = 1 : i32}> ({\n"
    "    ^bb0(%%x%d: f32, %%y%d: f32):\n"
    "      %%z%d = arith.addf %%x%d, %%y%d : f32\n"
    "      tt.reduce.return %%z%d : f32\n"
    "    }) : (tensor<%dx1024xf32, #b>) -> tensor<%dxf32, #ttg.slice<{dim = 1, parent = #b}>>\n";

static int64_t rcount(int rows, int n_reduces, int op, const char *mn)
{
    char ops[1024] = "";
    for (int i = 0; i < n_reduces; i++) {
        size_t at = strlen(ops);
        snprintf(ops + at, sizeof ops - at, rop, i, i, i, i, i, i, i, rows, rows);
    }
    snprintf(text, sizeof text, rfmt, rows, ops);
    if (layout_ttgir_parse(text, strlen(text), &mod, &terr) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK || kern.n_ops != n_reduces ||
        !kern.ops[op].modelled) {
        fprintf(stderr, "  %d reduces: %s\n", n_reduces, terr.message);
        return -1;
    }
    for (int i = 0; i < kern.ops[op].n_counts; i++)
        if (strcmp(kern.ops[op].counts[i].mnemonic, mn) == 0) return kern.ops[op].counts[i].count;
    return 0;
}

static void test_reduce_rows_in_registers(void)
{
    /* two identical reduces: the first's stores apart, the second's paired */
    CHECK_EQ_I64(rcount(2, 2, 0, "ds_write2_b32"), 0);
    CHECK_EQ_I64(rcount(2, 2, 1, "ds_write2_b32"), 1);
    /* constant-address loads never pair */
    CHECK_EQ_I64(rcount(2, 2, 0, "ds_read2_b32"), 0);
    CHECK_EQ_I64(rcount(2, 2, 1, "ds_read2_b32"), 0);
    CHECK_EQ_I64(rcount(2, 2, 1, "ds_read_b32"), 3); /* step 2's one, step 3's two */
    /* one reduce of 8 rows: each next address's only use is its store,
     * which InstCombine sinks into the store's block; nothing between:
     * the 8 stores in one block, 4 ds_write2_b32, and 8 + 1 single loads
     * (the rows2 set's reduce2d_i32_max_ax1_8x1024_w2_s1_gfx942, the same
     * layout, its AMDGCN) */
    CHECK_EQ_I64(rcount(8, 1, 0, "ds_write2_b32"), 4);
    CHECK_EQ_I64(rcount(8, 1, 0, "ds_read_b32"), 9);
}

int main(void)
{
    RUN(test_own_register_at_128_threads);
    RUN(test_folded_back_at_64_threads);
    RUN(test_no_constant_covers_the_mask);
    RUN(test_xor_split_in_the_loop);
    RUN(test_xor_whole_through_gvn_phi);
    RUN(test_xor_split_without_phi);
    RUN(test_xor_split_after_a_peeled_loop);
    RUN(test_scan_totals_under_a_branch);
    RUN(test_reduce_rows_in_registers);
    return harness_finish("test_triton_pairing");
}
