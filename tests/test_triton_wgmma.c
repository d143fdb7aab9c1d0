/* The tensor core's shared-memory reads of ttng.warp_group_dot
 * (lib/triton_kernel/op.c), on kernels derived by hand.
 *
 * The rule, measured on an H200 (tests/fixtures/triton/corpus/gmma: 49 of
 * 49 sm_90 kernels): each wgmma instruction of a warpgroup reads its A tile
 * (64 x K_instr elements, when A is in shared memory) and its B tile
 * (K_instr x N_instr) in bytes / 128 wavefronts, without a bank conflict;
 * the warpgroups split M by warpsPerCTA[0] / 4 and N by warpsPerCTA[1].
 *
 *  - 64x64x32 fp16, A and B in shared memory, warpsPerCTA [4, 1],
 *    instrShape [16, 64, 16]: one warpgroup, 32 / 16 = 2 wgmma, each
 *    64x16x2 + 16x64x2 = 4096 bytes = 32 wavefronts: 64 per CTA, 16 per
 *    warp (4 warps).
 *  - 128x128x32 fp16, warpsPerCTA [8, 1], instrShape [16, 128, 16]: two
 *    warpgroups along M, each 64 rows: 1 x 1 x 2 wgmma of 2048 + 4096
 *    bytes = 48 wavefronts: 2 x 2 x 48 = 192 per CTA, 24 per warp.
 *  - the same with A in registers (attention's second dot): B only, 4096
 *    bytes = 32 wavefronts a wgmma: 2 x 2 x 32 = 128 per CTA.
 *  - 64x64x32 int8, instrShape [16, 64, 32]: 1 wgmma of 64x32 + 32x64
 *    bytes = 4096 = 32 wavefronts per CTA, 8 per warp.
 *  - an operand of swizzle 0, or the module for sm_80 / sm_120 (no wgmma
 *    there, nothing measured): not modelled, the reason says what it reads.
 */
#include "harness.h"
#include "layout.h"

#include <stdio.h>
#include <string.h>

static layout_ttgir mod;
static layout_triton_kernel kern;
static layout_error terr;
static char text[4096];

static const char *module_fmt =
    "#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [%d, 1], instrShape = [16, %d, %d]}>\n"
    "#a = #ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = false, elementBitWidth = %d}>\n"
    "#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = %d}>\n"
    "#dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = %d : i32, ttg.target = \"%s\", "
    "\"ttg.threads-per-warp\" = 32 : i32} {\n"
    "  tt.func public @k() attributes {noinline = false} {\n"
    "    %%c = arith.constant dense<0> : tensor<%dx%dx%s, #mma> loc(#loc1)\n"
    "    %%d = ttng.warp_group_dot %%a, %%b, %%c {inputPrecision = 0 : i32, isAsync = true} : %s * "
    "!ttg.memdesc<%dx%dx%s, #b, #smem, mutable> -> tensor<%dx%dx%s, #mma> loc(#loc1)\n"
    "    tt.return loc(#loc1)\n"
    "  } loc(#loc1)\n"
    "} loc(#loc1)\n"
    "#loc1 = loc(\"k.py\":3:9)\n";

/* The warp_group_dot's report of an M x N x K dot of `ty` elements (bits
 * each), A in shared memory (a_smem) of swizzle a_swz or in registers. */
static const layout_triton_kernel_op *wgmma(const char *target, int warps_m, int n_instr, int k_instr, int M, int N,
                                            int K, const char *ty, int bits, int a_smem, int a_swz)
{
    char a_type[128];
    const char *acc = bits == 8 ? "i32" : "f32";
    if (a_smem) snprintf(a_type, sizeof a_type, "!ttg.memdesc<%dx%dx%s, #a, #smem, mutable>", M, K, ty);
    else snprintf(a_type, sizeof a_type, "tensor<%dx%dx%s, #dot>", M, K, ty);
    snprintf(text, sizeof text, module_fmt, warps_m, n_instr, k_instr, a_swz, bits, bits, warps_m, target, M, N, acc,
             a_type, K, N, ty, M, N, acc);
    if (layout_ttgir_parse(text, strlen(text), &mod, &terr) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", terr.message);
        return NULL;
    }
    for (int i = 0; i < kern.n_ops; i++)
        if (kern.ops[i].kind == LAYOUT_TTGIR_WARP_GROUP_DOT) return &kern.ops[i];
    CHECK_MSG(0, "no warp_group_dot report");
    return NULL;
}

static void test_measured_rule(void)
{
    const layout_triton_kernel_op *r;
    if ((r = wgmma("cuda:90", 4, 64, 16, 64, 64, 32, "f16", 16, 1, 64)) != NULL) {
        CHECK_MSG(r->modelled, "%s", r->reason);
        CHECK_EQ_I64(r->n_counts, 0);
        CHECK_EQ_I64(r->cta_total_cycles, 64);
        CHECK_EQ_I64(r->cta_extra_cycles, 0);
        CHECK_EQ_I64(r->total_cycles, 16);
        CHECK_EQ_I64(r->extra_cycles, 0);
        CHECK_EQ_I64(r->direction, LAYOUT_READ);
        CHECK_EQ_I64(kern.cta_total_cycles, 64); /* the kernel's sum takes it */
    }
    if ((r = wgmma("cuda:90", 8, 128, 16, 128, 128, 32, "f16", 16, 1, 128)) != NULL) {
        CHECK_MSG(r->modelled, "%s", r->reason);
        CHECK_EQ_I64(r->cta_total_cycles, 192);
        CHECK_EQ_I64(r->total_cycles, 24);
    }
    if ((r = wgmma("cuda:90", 8, 128, 16, 128, 128, 32, "f16", 16, 0, 128)) != NULL) {
        CHECK_MSG(r->modelled, "%s", r->reason);
        CHECK_EQ_I64(r->cta_total_cycles, 128);
    }
    if ((r = wgmma("cuda:90", 4, 64, 32, 64, 64, 32, "i8", 8, 1, 32)) != NULL) {
        CHECK_MSG(r->modelled, "%s", r->reason);
        CHECK_EQ_I64(r->cta_total_cycles, 32);
        CHECK_EQ_I64(r->total_cycles, 8);
    }
}

static void test_not_measured(void)
{
    const layout_triton_kernel_op *r;
    if ((r = wgmma("cuda:90", 4, 64, 16, 64, 64, 32, "f16", 16, 1, 0)) != NULL) {
        CHECK(!r->modelled);
        CHECK_STR_CONTAINS(r->reason, "A 4096 B (swizzle 0 B), B 4096 B (swizzle 128 B)");
        CHECK_EQ_I64(kern.cta_total_cycles, 0);
    }
    if ((r = wgmma("cuda:120", 4, 64, 16, 64, 64, 32, "f16", 16, 1, 64)) != NULL) CHECK(!r->modelled);
    /* 64 rows over two warpgroups along M: 32 each, no m64 wgmma */
    if ((r = wgmma("cuda:90", 8, 64, 16, 64, 64, 32, "f16", 16, 1, 64)) != NULL) CHECK(!r->modelled);
}

int main(void)
{
    RUN(test_measured_rule);
    RUN(test_not_measured);
    return harness_finish("test_triton_wgmma");
}
