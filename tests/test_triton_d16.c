/* AMD's `_d16_hi` stores (ldst.c, layout_tk_packed_words) on kernels
 * written by hand.  AMDGPU's instruction selection stores bits [31:16] of a
 * 32-bit VGPR with ds_write_b16_d16_hi (DSInstructions.td:
 * DSWritePat<DS_WRITE_B16_D16_HI, i32, store_hi16_local>; StoreHi16 in
 * AMDGPUInstructions.td is a 16-bit store of (srl value, 16)), so which
 * stores take the form depends on how the registers came packed.
 *
 * The kernel: a 64 x 2 tensor in #b = blocked<[1, 2], [64, 1], [1, 1],
 * [1, 0]> (lane i holds (i, 0) in register 0 and (i, 1) in register 1)
 * stored by a local_alloc into a column-major swizzled_shared of vec 1:
 * (i, j) at 2 (i + 64 j) bytes, so the two registers are two single
 * ds_write_b16 (no vector: they are 128 bytes apart).
 *
 *  - f32 -> f16 arith.truncf on gfx950: LLVM converts the pair with one
 *    v_cvt_pk_f16_f32 (LAYOUT_ISA_CVT_PK_F16_F32; the corpus's gfx950
 *    attentions), register 1 in the high half: 1 ds_write_b16 and 1
 *    ds_write_b16_d16_hi;
 *  - the same on gfx942 (v_cvt_f16_f32 per element, each in a low half):
 *    2 ds_write_b16;
 *  - bf16 on gfx950 as f16; an f64 -> f16 truncation (no pair conversion)
 *    and an arith.addf of f16 (not packed by a conversion): 2 ds_write_b16;
 *  - the accesses and their cost are the same in every case (only the
 *    name changes: the banks see one 16-bit store each). */
#include "harness.h"
#include "layout.h"

#include <stdio.h>
#include <string.h>

static layout_ttgir mod;
static layout_triton_kernel kern;
static layout_error terr;
static char text[4096];

static const char *fmt =
    "#b = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [64, 1], warpsPerCTA = [1, 1], order = [1, 0]}>\n"
    "#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 1 : i32, ttg.target = \"hip:%s\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "  tt.func public @k() attributes {noinline = false} {\n"
    "    %%c = arith.constant dense<1.000000e+00> : tensor<64x2x%s, #b>\n"
    "%s"
    "    %%a = ttg.local_alloc %%h : (tensor<64x2x%s, #b>) -> !ttg.memdesc<64x2x%s, #s, #smem>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

/* The local_alloc's count of mnemonic mn; its costs in *extra, *total. */
static int64_t count(const char *target, const char *from, const char *to, const char *op, const char *mn,
                     int64_t *extra, int64_t *total)
{
    char body[256];
    if (strcmp(op, "truncf") == 0)
        snprintf(body, sizeof body, "    %%h = arith.truncf %%c : tensor<64x2x%s, #b> to tensor<64x2x%s, #b>\n", from, to);
    else
        snprintf(body, sizeof body, "    %%h = arith.addf %%c, %%c : tensor<64x2x%s, #b>\n", to);
    snprintf(text, sizeof text, fmt, target, strcmp(op, "truncf") == 0 ? from : to, body, to, to);
    if (layout_ttgir_parse(text, strlen(text), &mod, &terr) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK || kern.n_ops != 1 || !kern.ops[0].modelled) {
        fprintf(stderr, "  %s %s: %s\n", target, op, terr.message);
        return -1;
    }
    *extra = kern.ops[0].extra_cycles, *total = kern.ops[0].total_cycles;
    for (int i = 0; i < kern.ops[0].n_counts; i++)
        if (strcmp(kern.ops[0].counts[i].mnemonic, mn) == 0) return kern.ops[0].counts[i].count;
    return 0;
}

static void test_pairs_converted_on_gfx950(void)
{
    int64_t x, t, x2, t2;
    CHECK_EQ_I64(count("gfx950", "f32", "f16", "truncf", "ds_write_b16", &x, &t), 1);
    CHECK_EQ_I64(count("gfx950", "f32", "f16", "truncf", "ds_write_b16_d16_hi", &x, &t), 1);
    CHECK_EQ_I64(count("gfx950", "f32", "bf16", "truncf", "ds_write_b16_d16_hi", &x, &t), 1);
    CHECK_EQ_I64(count("gfx942", "f32", "f16", "truncf", "ds_write_b16", &x2, &t2), 2);
    CHECK_EQ_I64(count("gfx942", "f32", "f16", "truncf", "ds_write_b16_d16_hi", &x2, &t2), 0);
    CHECK(x == x2 && t == t2 && t > 0); /* the same accesses, only named otherwise */
}

static void test_no_pair_conversion(void)
{
    int64_t x, t;
    CHECK_EQ_I64(count("gfx950", "f64", "f16", "truncf", "ds_write_b16", &x, &t), 2);
    CHECK_EQ_I64(count("gfx950", "f16", "f16", "addf", "ds_write_b16", &x, &t), 2);
    CHECK_EQ_I64(count("gfx950", "f16", "f16", "addf", "ds_write_b16_d16_hi", &x, &t), 0);
}

int main(void)
{
    RUN(test_pairs_converted_on_gfx950);
    RUN(test_no_pair_conversion);
    return harness_finish("test_triton_d16");
}
