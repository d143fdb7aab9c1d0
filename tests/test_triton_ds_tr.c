/* gfx950's transposing LDS read (ds_read_b64_tr_b16 / _b8) as Triton 3.6
 * chooses it for a ttg.local_load, and the AMD DS pairing, on hand-written
 * TTGIR (triton_kernel.h).
 *
 * The selection rule, read from triton-lang/triton
 * third_party/amd/lib/TritonAMDGPUToLLVM/MemoryOpToLLVM.cpp
 * (TransLocalLoadOpConversion::matchAndRewrite and lowerDsReadTr),
 * TargetInfo.cpp (queryLDSTransLoadParams) and lib/Tools/LinearLayout.cpp
 * (divideLeft): on CDNA4 (gfx950) an 8- or 16-bit local_load lowers to
 * ds_read_tr when, with T = 64 / bits and cvt = register layout -> shared
 * offset, cvt has at least T registers, lanes 0 .. log2 T - 1 map to
 * offsets 1, 2 (, 4), every other basis is a multiple of T, and a
 * padded_shared's least interval is at least T.  One instruction moves T
 * elements per lane: registers / T instructions per thread.  Lane l's
 * 64-bit address is given by lowerDsReadTr's fullTile: lane bits 0-1 (16
 * bits; bit 0 for 8 bits) are cvt's lanes T.., the next bits cvt's first
 * log2 T registers, then cvt's lanes 4 and 5.
 *
 * The pairing: LLVM's SILoadStoreOptimizer (llvm/lib/Target/AMDGPU/
 * SILoadStoreOptimizer.cpp, commit 27e2f647a5f7, checkAndPrepareMerge and
 * canSwapInstructions) merges two DS stores of one base register only when
 * no store through another address register lies between them in program
 * order; the Gluon fixture g396 (a shared_linear bf16 operand on gfx950,
 * tests/fixtures/gluon) is the known answer: its AMDGCN writes with 4
 * ds_write2_b64 and 8 ds_write_b64 and reads with 8 ds_read2_b64. */
#include "harness.h"
#include "layout.h"

static layout_ttgir mod;
static layout_triton_kernel kern;
static layout_error terr;
static char text[4096];

/* A one-warp module storing a rows x cols tile of dtype in #b to #s and
 * loading it back in #b. */
static const layout_triton_kernel_op *lower(const char *target, const char *dtype, int rows, int cols,
                                            const char *blocked, const char *shared)
{
    snprintf(text, sizeof text,
             "#b = %s\n#s = %s\n#smem = #ttg.shared_memory\n"
             "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 1 : i32, ttg.target = \"%s\", "
             "\"ttg.threads-per-warp\" = 64 : i32} {\n"
             "    %%1 = ttg.local_alloc %%0 : (tensor<%dx%dx%s, #b>) -> !ttg.memdesc<%dx%dx%s, #s, #smem, mutable>\n"
             "    %%2 = ttg.local_load %%1 : !ttg.memdesc<%dx%dx%s, #s, #smem, mutable> -> tensor<%dx%dx%s, #b>\n"
             "}\n",
             blocked, shared, target, rows, cols, dtype, rows, cols, dtype, rows, cols, dtype, rows, cols, dtype);
    if (layout_ttgir_parse(text, strlen(text), &mod, &terr) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK || kern.n_ops != 2) {
        CHECK_MSG(0, "%s", terr.message);
        return NULL;
    }
    CHECK_MSG(kern.ops[1].modelled, "%s", kern.ops[1].reason);
    return &kern.ops[1];
}

static int count_of(const layout_triton_kernel_op *r, const char *mn)
{
    for (int i = 0; r && i < r->n_counts; i++)
        if (strcmp(r->counts[i].mnemonic, mn) == 0) return (int)r->counts[i].count;
    return 0;
}

/* A blocked layout, not a dot operand: 4 rows per thread (registers ->
 * rows 1, 2 = offsets 4, 8 of a 64 x 4 row-major tile), lanes 0, 1 along
 * the contiguous columns (offsets 1, 2), lanes 2-5 down the rows (16, 32,
 * 64, 128). */
static const char *const col4 =
    "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 1], order = [1, 0]}>";
static const char *const plain = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>";

static void test_blocked_tr16(void)
{
    const layout_triton_kernel_op *r = lower("hip:gfx950", "bf16", 64, 4, col4, plain);
    if (!r) return;
    /* 4 registers, T = 4: one ds_read_b64_tr_b16 per thread and nothing else */
    CHECK_EQ_I64(r->n_counts, 1);
    CHECK_EQ_I64(count_of(r, "ds_read_b64_tr_b16"), 1);
    CHECK_EQ_I64(r->vec_bits, 64);
    /* fullTile: lane bits 0, 1 -> cvt lanes 2, 3 (offsets 16, 32), bits 2,
     * 3 -> registers 0, 1 (4, 8), bits 4, 5 -> lanes 4, 5 (64, 128); 2
     * bytes an element */
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        uint32_t el = 16u * (l & 1) + 32u * (l >> 1 & 1) + 4u * (l >> 2 & 1) + 8u * (l >> 3 & 1) +
                      64u * (l >> 4 & 1) + 128u * (l >> 5 & 1);
        if (r->worst.addr_bytes[l] != 2 * el) bad++;
    }
    CHECK_EQ_I64(bad, 0);
    CHECK_EQ_I64(r->worst.width_bytes, 8);
    /* and the store is not transposed */
    CHECK_EQ_I64(count_of(&kern.ops[0], "ds_write_b16"), 4);
}

static void test_tr8(void)
{
    /* 8 bits, T = 8: 8 rows per thread (offsets 8 .. 32 of a 64 x 8 tile),
     * lanes 0-2 along the 8 columns; 8 registers: one ds_read_b64_tr_b8 */
    const char *b8 = "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 1], order = [1, 0]}>";
    const layout_triton_kernel_op *r = lower("hip:gfx950", "i8", 64, 8, b8, plain);
    if (!r) return;
    CHECK_EQ_I64(count_of(r, "ds_read_b64_tr_b8"), 1);
    CHECK_EQ_I64(r->n_counts, 1);
}

static void test_not_tr(void)
{
    const layout_triton_kernel_op *r;
    /* gfx942 has no LDS transpose load (queryLDSTransLoadParams: CDNA4 and
     * GFX1250 only): 4 ds_read_u16 */
    r = lower("hip:gfx942", "bf16", 64, 4, col4, plain);
    CHECK_EQ_I64(count_of(r, "ds_read_u16"), 4);
    /* 32-bit elements: no tr form (8 and 16 bits only); the 4 rows are
     * one base register + 0, 16, 32, 48 bytes, merged in offset order
     * (offsetsCanBeCombined): 2 ds_read2_b32 */
    r = lower("hip:gfx950", "f32", 64, 4, col4, plain);
    CHECK_EQ_I64(count_of(r, "ds_read2_b32"), 2);
    CHECK_EQ_I64(r ? r->n_counts : 0, 1);
    /* 8 bits with the 16-bit layout: lane 2 is offset 16, not 4 */
    r = lower("hip:gfx950", "i8", 64, 4, col4, plain);
    CHECK_EQ_I64(count_of(r, "ds_read_u8"), 4);
    /* padding every 2 elements (least interval 2 < T = 4) */
    r = lower("hip:gfx950", "bf16", 64, 4, col4, "#ttg.padded_shared<[2:+2] {order = [1, 0], shape = [64, 4]}>");
    CHECK_EQ_I64(count_of(r, "ds_read_u16"), 4);
    /* padding every 4: allowed */
    r = lower("hip:gfx950", "bf16", 64, 4, col4, "#ttg.padded_shared<[4:+2] {order = [1, 0], shape = [64, 4]}>");
    CHECK_EQ_I64(count_of(r, "ds_read_b64_tr_b16"), 1);
    /* 2 registers per thread (fewer than T = 4) */
    r = lower("hip:gfx950", "bf16", 32, 4,
              "#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 1], order = [1, 0]}>",
              plain);
    CHECK_EQ_I64(count_of(r, "ds_read_u16"), 2);
    /* the columns swizzled by the row (vec 1, maxPhase 4): lane 2's row
     * XORs into offset bit 0, not a multiple of T */
    r = lower("hip:gfx950", "bf16", 64, 4, col4,
              "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0]}>");
    CHECK_EQ_I64(count_of(r, "ds_read_b64_tr_b16"), 0);
}

/* g396 of the Gluon fixtures, its layouts and ops as Triton 3.6 printed them. */
static const char *const g396 =
    "#mma = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>\n"
    "#shared = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [32, 4], [2, 8], [2, 16], [0, 32], [0, 64], [1, 0], "
    "[2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]]}, alignment = 16>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx950\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "    %smem = ttg.local_alloc %x_6 : (tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>) "
    "-> !ttg.memdesc<128x128xbf16, #shared, #smem, mutable>\n"
    "    %y = ttg.local_load %smem : !ttg.memdesc<128x128xbf16, #shared, #smem, mutable> -> "
    "tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>\n"
    "}\n";

static void test_store_pairing_order(void)
{
    CHECK_MSG(layout_ttgir_parse(g396, strlen(g396), &mod, &terr) == LAYOUT_OK, "%s", terr.message);
    CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK, "%s", terr.message);
    if (kern.n_ops != 2) {
        CHECK_EQ_I64(kern.n_ops, 2);
        return;
    }
    CHECK_EQ_I64(count_of(&kern.ops[0], "ds_write2_b64"), 4);
    CHECK_EQ_I64(count_of(&kern.ops[0], "ds_write_b64"), 8);
    CHECK_EQ_I64(count_of(&kern.ops[1], "ds_read2_b64"), 8);
    CHECK_EQ_I64(kern.ops[1].n_counts, 1);
}

int main(void)
{
    RUN(test_blocked_tr16);
    RUN(test_tr8);
    RUN(test_not_tr);
    RUN(test_store_pairing_order);
    return harness_finish("test_triton_ds_tr");
}
