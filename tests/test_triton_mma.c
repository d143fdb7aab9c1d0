/* Triton's MMA-family distributed layouts (triton.h): #ttg.amd_mfma,
 * #ttg.amd_wmma, #ttg.nvidia_mma, #ttg.dot_op and #ttg.slice, read, printed
 * back, and turned into Triton's linear layout (layout_triton_to_linear) and
 * into distributions (layout_triton_to_dist, layout_dist_from_dialect).
 *
 * Where the expected bases come from (each case says which):
 *
 * - "ut:<TestName>": Triton's own unit test of these conversions,
 *   unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp (a snapshot
 *   of Triton's main branch after 3.6, read through the public source index),
 *   which asserts toLinearLayout(shape, attr) equals the listed bases.  The
 *   functions it tests are those of lib/Dialect/TritonGPU/IR/
 *   LinearLayoutConversions.cpp: AMDMfmaEncodingAttr::toLinearLayout,
 *   mfmaDotToLinearLayout, NvidiaMmaEncodingAttr::toLinearLayout (through
 *   nvidiaMmaTile), nvidiaDotToLinearLayout, SliceEncodingAttr::toLinearLayout.
 *   Transcribed as data (the attribute written in Triton's printed syntax,
 *   the shape, the register / lane / warp bases; `block` is empty, one CTA).
 *   The amd_wmma cases come from an earlier snapshot of the same file
 *   (WMMA_v1_2x4Warps, ..._lhs, ..._rhs, WMMA_v2_2x4Warps, TWMMA_v2_2x4Warps),
 *   whose wmma helper builds the attribute from the fields 3.6 prints; the
 *   later snapshot builds it from a CTA linear layout instead.
 * - "hand:": derived by hand from the same functions (version 3 amd_wmma,
 *   a version 2 wmma operand, two slices), the derivation written next to
 *   the case.  Four of them are also cases of the Triton 3.6.0 fixtures
 *   (tests/fixtures/triton/triton36_mma.txt), where Triton gave the same
 *   bases: the slice of blocked and the slice of amd_mfma on [64], the
 *   version 2 amd_wmma on [64, 64], the version 1 amd_wmma on [16, 16].
 *
 * - test_real_kernels: the text real Triton 3.6.0 printed for these
 *   attributes in 66 compilations (tests/support/triton_kernel_uses.h) reads,
 *   prints back identically and gives a covering layout on its real shape.
 *
 * No case here comes from Triton at run time.  Those are in
 * tests/test_triton_mma_fixtures.c: 498 (attribute, shape) cases of all these
 * kinds whose bases real Triton 3.6.0's to_linear_layout gave
 * (tests/fixtures/triton/gen_mma_fixtures.py, run on an H100 machine on
 * 2026-11-25), all equal to ours, and 20 that Triton refused, refused here
 * too.  The blocked construction these layouts share (combineCtaCgaWithShape,
 * ensureLayoutNotSmallerThan / NotLargerThan, identityStandardND) is also
 * checked against Triton 3.6.0's bases for 82 blocked layouts in
 * tests/test_triton_fixtures.c. */
#include "harness.h"
#include "support/triton_kernel_uses.h"

#include <layout.h>

#define BLK "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
#define BLK3 "#ttg.blocked<{sizePerThread = [1, 2, 4], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>"
#define MFMA(v, w, i, t) "#ttg.amd_mfma<{version = " v ", warpsPerCTA = [" w "], instrShape = [" i "], isTransposed = " t "}>"
#define MFMA_TPW(v, w, i, t, tpw)                                                                                      \
    "#ttg.amd_mfma<{version = " v ", warpsPerCTA = [" w "], instrShape = [" i "], isTransposed = " t                   \
    ", tilesPerWarp = [" tpw "]}>"
#define NV(maj, w, i) "#ttg.nvidia_mma<{versionMajor = " maj ", versionMinor = 0, warpsPerCTA = [" w "], instrShape = [" i "]}>"
#define WMMA(v, t, w) "#ttg.amd_wmma<{version = " v ", isTranspose = " t ", warpsPerCTA = [" w "]}>"
#define DOT(i, p, k) "#ttg.dot_op<{opIdx = " i ", parent = " p ", kWidth = " k "}>"
#define DOT_FMA(i, p) "#ttg.dot_op<{opIdx = " i ", parent = " p "}>"
#define BLK2 "#ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 4], order = [1, 0]}>"
#define SLICE(d, p) "#ttg.slice<{dim = " d ", parent = " p "}>"

#define M32x4 MFMA("3", "2, 4", "32, 32, 8", "false")
#define M32x4T MFMA("3", "2, 4", "32, 32, 8", "true")
#define M32TPW MFMA_TPW("3", "2, 4", "32, 32, 8", "false", "2, 2")
#define M32TPWT MFMA_TPW("3", "2, 4", "32, 32, 8", "true", "2, 2")
#define M16TPW MFMA_TPW("3", "2, 4", "16, 16, 16", "false", "2, 2")
#define M16TPWT MFMA_TPW("3", "2, 4", "16, 16, 16", "true", "2, 2")
#define M32_18 MFMA("3", "1, 8", "32, 32, 8", "false")
#define M32_14 MFMA("3", "1, 4", "32, 32, 8", "false")
#define M16_14 MFMA("3", "1, 4", "16, 16, 16", "false")
#define M16_18 MFMA("3", "1, 8", "16, 16, 16", "false")
#define V2_11 NV("2", "1, 1", "16, 8")
#define V2_41 NV("2", "4, 1", "16, 8")
#define V2_22 NV("2", "2, 2", "16, 8")
#define V3_41 NV("3", "4, 1", "16, 16, 8")
#define V3_42 NV("3", "4, 2", "16, 16, 8")
#define V3_44 NV("3", "4, 4", "16, 16, 8")
#define V3_42W NV("3", "4, 2", "16, 32, 16")

typedef struct mma_case {
    const char *src;  /* where the expected bases come from (file comment) */
    const char *attr; /* Triton's printed attribute */
    int rank;
    int64_t shape[3];
    const char *reg, *lane, *warp; /* bases: "a,b a,b ..." (rank 1: "a a ..."), "-" for none */
} mma_case;

static const mma_case k_cases[] = {
    /* amd_mfma */
    {"ut:MFMA32_2x4Warps_tpw_2_2", M32TPW, 2, {32, 32}, "1,0 2,0 8,0 16,0 0,0 0,0", "0,1 0,2 0,4 0,8 0,16 4,0", "0,0 0,0 0,0"},
    {"ut:MFMA32_2x4Warps_tpw_2_2", M32TPW, 2, {128, 128}, "1,0 2,0 8,0 16,0 0,32 32,0", "0,1 0,2 0,4 0,8 0,16 4,0", "0,64 0,0 64,0"},
    {"ut:MFMA32_2x4Warps_tpw_2_2", M32TPW, 2, {256, 256}, "1,0 2,0 8,0 16,0 0,32 32,0 128,0", "0,1 0,2 0,4 0,8 0,16 4,0", "0,64 0,128 64,0"},
    {"ut:MFMA32_2x4Warps_tpw_2_2", M32TPWT, 2, {32, 32}, "0,1 0,2 0,8 0,16 0,0 0,0", "1,0 2,0 4,0 8,0 16,0 0,4", "0,0 0,0 0,0"},
    {"ut:MFMA32_2x4Warps_tpw_2_2", M32TPWT, 2, {128, 128}, "0,1 0,2 0,8 0,16 0,32 32,0", "1,0 2,0 4,0 8,0 16,0 0,4", "0,64 0,0 64,0"},
    {"ut:MFMA32_2x4Warps_tpw_2_2", M32TPWT, 2, {256, 256}, "0,1 0,2 0,8 0,16 0,32 32,0 128,0", "1,0 2,0 4,0 8,0 16,0 0,4", "0,64 0,128 64,0"},
    {"ut:MFMA16_2x4Warps_tpw_2_2", M16TPW, 2, {32, 32}, "1,0 2,0 0,16 16,0", "0,1 0,2 0,4 0,8 4,0 8,0", "0,0 0,0 0,0"},
    {"ut:MFMA16_2x4Warps_tpw_2_2", M16TPW, 2, {128, 128}, "1,0 2,0 0,16 16,0 64,0", "0,1 0,2 0,4 0,8 4,0 8,0", "0,32 0,64 32,0"},
    {"ut:MFMA16_2x4Warps_tpw_2_2", M16TPW, 2, {256, 256}, "1,0 2,0 0,16 0,128 16,0 64,0 128,0", "0,1 0,2 0,4 0,8 4,0 8,0", "0,32 0,64 32,0"},
    {"ut:MFMA16_2x4Warps_tpw_2_2", M16TPWT, 2, {32, 32}, "0,1 0,2 0,16 16,0", "1,0 2,0 4,0 8,0 0,4 0,8", "0,0 0,0 0,0"},
    {"ut:MFMA16_2x4Warps_tpw_2_2", M16TPWT, 2, {128, 128}, "0,1 0,2 0,16 16,0 64,0", "1,0 2,0 4,0 8,0 0,4 0,8", "0,32 0,64 32,0"},
    {"ut:MFMA16_2x4Warps_tpw_2_2", M16TPWT, 2, {256, 256}, "0,1 0,2 0,16 0,128 16,0 64,0 128,0", "1,0 2,0 4,0 8,0 0,4 0,8", "0,32 0,64 32,0"},
    {"ut:MFMA32_2x4Warps", M32x4, 2, {32, 32}, "1,0 2,0 8,0 16,0", "0,1 0,2 0,4 0,8 0,16 4,0", "0,0 0,0 0,0"},
    {"ut:MFMA32_2x4Warps", M32x4, 2, {64, 32}, "1,0 2,0 8,0 16,0", "0,1 0,2 0,4 0,8 0,16 4,0", "0,0 0,0 32,0"},
    {"ut:MFMA32_2x4Warps", M32x4, 2, {128, 128}, "1,0 2,0 8,0 16,0 64,0", "0,1 0,2 0,4 0,8 0,16 4,0", "0,32 0,64 32,0"},
    {"ut:MFMA32_2x4Warps", M32x4T, 2, {32, 32}, "0,1 0,2 0,8 0,16", "1,0 2,0 4,0 8,0 16,0 0,4", "0,0 0,0 0,0"},
    {"ut:MFMA32_2x4Warps", M32x4T, 2, {64, 32}, "0,1 0,2 0,8 0,16", "1,0 2,0 4,0 8,0 16,0 0,4", "0,0 0,0 32,0"},
    {"ut:MFMA32_2x4Warps", M32x4T, 2, {128, 128}, "0,1 0,2 0,8 0,16 64,0", "1,0 2,0 4,0 8,0 16,0 0,4", "0,32 0,64 32,0"},
    {"ut:MFMA16_2x4Warps", MFMA("3", "2, 4", "16, 16, 16", "false"), 2, {16, 16}, "1,0 2,0", "0,1 0,2 0,4 0,8 4,0 8,0", "0,0 0,0 0,0"},
    {"ut:MFMA16_2x4Warps_F64",
     "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [16, 16, 4], isTransposed = false, elementBitWidth = 64}>",
     2, {16, 16}, "4,0 8,0", "0,1 0,2 0,4 0,8 1,0 2,0", "0,0 0,0 0,0"},
    /* amd_mfma with a batch dim (rank 3) */
#define M3 MFMA("3", "2, 4, 1", "32, 32, 8", "false")
#define M3T MFMA("3", "2, 4, 1", "32, 32, 8", "true")
    {"ut:MFMA32_2x4x1Warps", M3, 3, {1, 128, 128}, "0,1,0 0,2,0 0,8,0 0,16,0 0,0,32 0,0,64", "0,0,1 0,0,2 0,0,4 0,0,8 0,0,16 0,4,0", "0,32,0 0,64,0 0,0,0"},
    {"ut:MFMA32_2x4x1Warps", M3, 3, {2, 32, 32}, "0,1,0 0,2,0 0,8,0 0,16,0", "0,0,1 0,0,2 0,0,4 0,0,8 0,0,16 0,4,0", "0,0,0 0,0,0 1,0,0"},
    {"ut:MFMA32_2x4x1Warps", M3, 3, {2, 64, 32}, "0,1,0 0,2,0 0,8,0 0,16,0", "0,0,1 0,0,2 0,0,4 0,0,8 0,0,16 0,4,0", "0,32,0 0,0,0 1,0,0"},
    {"ut:MFMA32_2x4x1Warps", M3T, 3, {1, 128, 128}, "0,0,1 0,0,2 0,0,8 0,0,16 0,0,32 0,0,64", "0,1,0 0,2,0 0,4,0 0,8,0 0,16,0 0,0,4", "0,32,0 0,64,0 0,0,0"},
    {"ut:MFMA32_2x4x1Warps", M3T, 3, {2, 32, 32}, "0,0,1 0,0,2 0,0,8 0,0,16", "0,1,0 0,2,0 0,4,0 0,8,0 0,16,0 0,0,4", "0,0,0 0,0,0 1,0,0"},
    {"ut:MFMA32_2x4x1Warps", M3T, 3, {2, 64, 32}, "0,0,1 0,0,2 0,0,8 0,0,16", "0,1,0 0,2,0 0,4,0 0,8,0 0,16,0 0,0,4", "0,32,0 0,0,0 1,0,0"},
    /* dot_op of amd_mfma */
    {"ut:MFMA32_warp1onK_lhs_kwidth8", DOT("0", M32_18, "8"), 2, {128, 128}, "0,1 0,2 0,4 0,16 0,32 0,64 32,0 64,0", "1,0 2,0 4,0 8,0 16,0 0,8", "0,0 0,0 0,0"},
    {"ut:MFMA32_warp1onK_lhs_kwidth8", DOT("0", M32_18, "8"), 2, {128, 256}, "0,1 0,2 0,4 0,16 0,32 0,64 0,128 32,0 64,0", "1,0 2,0 4,0 8,0 16,0 0,8", "0,0 0,0 0,0"},
    {"ut:MFMA32_warp1onK_lhs_kwidth8", DOT("0", M32_18, "8"), 2, {32, 64}, "0,1 0,2 0,4 0,16 0,32", "1,0 2,0 4,0 8,0 16,0 0,8", "0,0 0,0 0,0"},
    {"ut:MFMA32_warp1onK_lhs_kwidth8", DOT("0", M32_18, "8"), 2, {256, 256}, "0,1 0,2 0,4 0,16 0,32 0,64 0,128 32,0 64,0 128,0", "1,0 2,0 4,0 8,0 16,0 0,8", "0,0 0,0 0,0"},
    {"ut:MFMA32_warp1onK_lhs_kwidth8", DOT("0", M32_18, "8"), 2, {16, 16}, "0,1 0,2 0,4", "1,0 2,0 4,0 8,0 0,0 0,8", "0,0 0,0 0,0"},
    {"ut:MFMA32_warp1onK_rhs_kwidth8", DOT("1", M32_18, "8"), 2, {128, 128}, "1,0 2,0 4,0 16,0 32,0 64,0", "0,1 0,2 0,4 0,8 0,16 8,0", "0,32 0,64 0,0"},
    {"ut:MFMA32_warp1onK_rhs_kwidth8", DOT("1", M32_18, "8"), 2, {128, 256}, "1,0 2,0 4,0 16,0 32,0 64,0", "0,1 0,2 0,4 0,8 0,16 8,0", "0,32 0,64 0,128"},
    {"ut:MFMA32_warp1onK_rhs_kwidth8", DOT("1", M32_18, "8"), 2, {32, 64}, "1,0 2,0 4,0 16,0", "0,1 0,2 0,4 0,8 0,16 8,0", "0,32 0,0 0,0"},
    {"ut:MFMA32_warp1onK_rhs_kwidth8", DOT("1", M32_18, "8"), 2, {256, 256}, "1,0 2,0 4,0 16,0 32,0 64,0 128,0", "0,1 0,2 0,4 0,8 0,16 8,0", "0,32 0,64 0,128"},
    {"ut:MFMA32_warp1onK_rhs_kwidth8", DOT("1", M32_18, "8"), 2, {16, 16}, "1,0 2,0 4,0", "0,1 0,2 0,4 0,8 0,0 8,0", "0,0 0,0 0,0"},
    {"ut:MFMA32_warp1onK_rhs_kwidth8", DOT("1", M32_14, "8"), 2, {256, 256}, "1,0 2,0 4,0 16,0 32,0 64,0 128,0 0,128", "0,1 0,2 0,4 0,8 0,16 8,0", "0,32 0,64"},
    {"ut:MFMA16_warp1onK_lhs_kwidth8", DOT("0", M16_14, "8"), 2, {128, 128}, "0,1 0,2 0,4 0,32 0,64 16,0 32,0 64,0", "1,0 2,0 4,0 8,0 0,8 0,16", "0,0 0,0"},
    {"ut:MFMA16_warp1onK_lhs_kwidth8", DOT("0", M16_14, "8"), 2, {1, 128}, "0,1 0,2 0,4 0,32 0,64", "0,0 0,0 0,0 0,0 0,8 0,16", "0,0 0,0"},
    {"ut:MFMA16_warp1onK_lhs_kwidth8", DOT("0", M16_14, "8"), 2, {128, 1}, "0,0 0,0 0,0 16,0 32,0 64,0", "1,0 2,0 4,0 8,0 0,0 0,0", "0,0 0,0"},
    {"ut:MFMA16_warp1onK_lhs_kwidth8", DOT("0", M16_14, "8"), 2, {256, 256}, "0,1 0,2 0,4 0,32 0,64 0,128 16,0 32,0 64,0 128,0", "1,0 2,0 4,0 8,0 0,8 0,16", "0,0 0,0"},
    {"ut:MFMA16_warp1onK_lhs_kwidth8", DOT("0", M16_14, "8"), 2, {16, 16}, "0,1 0,2 0,4", "1,0 2,0 4,0 8,0 0,8 0,0", "0,0 0,0"},
    {"ut:MFMA16_warp1onK_lhs_kwidth8", DOT("0", M16_18, "8"), 2, {256, 256}, "0,1 0,2 0,4 0,32 0,64 0,128 16,0 32,0 64,0 128,0", "1,0 2,0 4,0 8,0 0,8 0,16", "0,0 0,0 0,0"},
    {"ut:MFMA16_warp1onK_lhs_kwidth8", DOT("0", MFMA("3", "1, 1, 8", "16, 16, 16", "false"), "8"), 3, {1, 256, 256},
     "0,0,1 0,0,2 0,0,4 0,0,32 0,0,64 0,0,128 0,16,0 0,32,0 0,64,0 0,128,0", "0,1,0 0,2,0 0,4,0 0,8,0 0,0,8 0,0,16", "0,0,0 0,0,0 0,0,0"},
    {"ut:MFMA16_warp1onK_rhs_kwidth8", DOT("1", MFMA("3", "1, 1, 8", "16, 16, 16", "false"), "8"), 3, {1, 256, 256},
     "0,1,0 0,2,0 0,4,0 0,32,0 0,64,0 0,128,0 0,0,128", "0,0,1 0,0,2 0,0,4 0,0,8 0,8,0 0,16,0", "0,0,16 0,0,32 0,0,64"},
    {"ut:MFMA16_warp1onK_rhs_kwidth8", DOT("1", M16_14, "8"), 2, {128, 128}, "1,0 2,0 4,0 32,0 64,0 0,64", "0,1 0,2 0,4 0,8 8,0 16,0", "0,16 0,32"},
    {"ut:MFMA16_warp1onK_rhs_kwidth8", DOT("1", M16_14, "8"), 2, {1, 128}, "0,0 0,0 0,0 0,64", "0,1 0,2 0,4 0,8 0,0 0,0", "0,16 0,32"},
    {"ut:MFMA16_warp1onK_rhs_kwidth8", DOT("1", M16_14, "8"), 2, {128, 1}, "1,0 2,0 4,0 32,0 64,0", "0,0 0,0 0,0 0,0 8,0 16,0", "0,0 0,0"},
    {"ut:MFMA16_warp1onK_rhs_kwidth8", DOT("1", M16_14, "8"), 2, {256, 256}, "1,0 2,0 4,0 32,0 64,0 128,0 0,64 0,128", "0,1 0,2 0,4 0,8 8,0 16,0", "0,16 0,32"},
    {"ut:MFMA16_warp1onK_rhs_kwidth8", DOT("1", M16_14, "8"), 2, {16, 16}, "1,0 2,0 4,0", "0,1 0,2 0,4 0,8 8,0 0,0", "0,0 0,0"},
    {"ut:MFMA16_warp1onK_rhs_kwidth8", DOT("1", M16_18, "8"), 2, {256, 256}, "1,0 2,0 4,0 32,0 64,0 128,0 0,128", "0,1 0,2 0,4 0,8 8,0 16,0", "0,16 0,32 0,64"},
    {"ut:MFMA32_dot_op_lhs_tpw_2_2", DOT("0", M32TPW, "4"), 2, {64, 32}, "0,1 0,2 0,8 0,16 32,0", "1,0 2,0 4,0 8,0 16,0 0,4", "0,0 0,0 0,0"},
    {"ut:MFMA32_dot_op_lhs_tpw_2_2", DOT("0", M32TPW, "4"), 2, {128, 128}, "0,1 0,2 0,8 0,16 0,32 0,64 32,0", "1,0 2,0 4,0 8,0 16,0 0,4", "0,0 0,0 64,0"},
    {"ut:MFMA32_dot_op_lhs_tpw_2_2", DOT("0", M32TPW, "4"), 2, {256, 256}, "0,1 0,2 0,8 0,16 0,32 0,64 0,128 32,0 128,0", "1,0 2,0 4,0 8,0 16,0 0,4", "0,0 0,0 64,0"},
    {"ut:MFMA32_dot_op_lhs_tpw_2_2", DOT("0", M32TPWT, "4"), 2, {64, 32}, "0,1 0,2 0,8 0,16 32,0", "1,0 2,0 4,0 8,0 16,0 0,4", "0,0 0,0 0,0"},
    {"ut:MFMA32_dot_op_lhs_tpw_2_2", DOT("0", M32TPWT, "4"), 2, {128, 128}, "0,1 0,2 0,8 0,16 0,32 0,64 32,0", "1,0 2,0 4,0 8,0 16,0 0,4", "0,0 0,0 64,0"},
    {"ut:MFMA32_dot_op_lhs_tpw_2_2", DOT("0", M32TPWT, "4"), 2, {256, 256}, "0,1 0,2 0,8 0,16 0,32 0,64 0,128 32,0 128,0", "1,0 2,0 4,0 8,0 16,0 0,4", "0,0 0,0 64,0"},
    {"ut:MFMA16_dot_op_lhs_tpw_2_2", DOT("0", M16TPW, "4"), 2, {64, 32}, "0,1 0,2 0,16 16,0", "1,0 2,0 4,0 8,0 0,4 0,8", "0,0 0,0 32,0"},
    {"ut:MFMA16_dot_op_lhs_tpw_2_2", DOT("0", M16TPW, "4"), 2, {128, 128}, "0,1 0,2 0,16 0,32 0,64 16,0 64,0", "1,0 2,0 4,0 8,0 0,4 0,8", "0,0 0,0 32,0"},
    {"ut:MFMA16_dot_op_lhs_tpw_2_2", DOT("0", M16TPW, "4"), 2, {256, 256}, "0,1 0,2 0,16 0,32 0,64 0,128 16,0 64,0 128,0", "1,0 2,0 4,0 8,0 0,4 0,8", "0,0 0,0 32,0"},
    {"ut:MFMA16_dot_op_lhs_tpw_2_2", DOT("0", M16TPWT, "4"), 2, {128, 128}, "0,1 0,2 0,16 0,32 0,64 16,0 64,0", "1,0 2,0 4,0 8,0 0,4 0,8", "0,0 0,0 32,0"},
    /* nvidia_mma */
    {"ut:MMAv2_32x32", V2_11, 2, {32, 32}, "0,1 8,0 0,8 0,16 16,0", "0,2 0,4 1,0 2,0 4,0", "-"},
    {"ut:MMAv2_ExtendDim2", V2_11, 2, {16, 128}, "0,1 8,0 0,8 0,16 0,32 0,64", "0,2 0,4 1,0 2,0 4,0", "-"},
    {"ut:MMAv3_64x16", V3_41, 2, {64, 16}, "0,1 8,0 0,8", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0"},
    {"ut:MMAv3_64x16", NV("3", "4, 1", "16, 8, 8"), 2, {64, 16}, "0,1 8,0 0,8", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0"},
    {"ut:MMAv3_128x16", V3_41, 2, {128, 16}, "0,1 8,0 0,8 64,0", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0"},
    {"ut:MMAv3_1024x1024", V3_41, 2, {1024, 1024}, "0,1 8,0 0,8 0,16 0,32 0,64 0,128 0,256 0,512 64,0 128,0 256,0 512,0", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0"},
    {"ut:MMAv3_4x2Warps", V3_42W, 2, {64, 32}, "0,1 8,0 0,8 0,16", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0 0,0"},
    {"ut:MMAv3_4x2Warps", V3_42W, 2, {64, 64}, "0,1 8,0 0,8 0,16", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0 0,32"},
    {"ut:MMAv3_4x2Warps", V3_42W, 2, {128, 64}, "0,1 8,0 0,8 0,16 64,0", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0 0,32"},
    {"ut:MMAv3_4x2Warps", V3_42W, 2, {256, 64}, "0,1 8,0 0,8 0,16 64,0 128,0", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0 0,32"},
    {"ut:MMAv3_4x4Warps", V3_44, 2, {16, 16}, "0,1 8,0 0,8", "0,2 0,4 1,0 2,0 4,0", "0,0 0,0 0,0 0,0"},
    {"ut:MMAv3_4x4Warps", V3_44, 2, {32, 16}, "0,1 8,0 0,8", "0,2 0,4 1,0 2,0 4,0", "16,0 0,0 0,0 0,0"},
    {"ut:MMAv3_4x4Warps", V3_44, 2, {64, 16}, "0,1 8,0 0,8", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0 0,0 0,0"},
    {"ut:MMAv3_4x4Warps", V3_44, 2, {128, 16}, "0,1 8,0 0,8 64,0", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0 0,0 0,0"},
    {"ut:MMAv3_4x4Warps", V3_44, 2, {32, 32}, "0,1 8,0 0,8", "0,2 0,4 1,0 2,0 4,0", "16,0 0,0 0,16 0,0"},
    {"ut:MMAv3_4x4Warps", V3_44, 2, {64, 32}, "0,1 8,0 0,8", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0 0,16 0,0"},
    /* dot_op of nvidia_mma */
    {"ut:DotMMAv2_tile_kwidth8", DOT("0", V2_11, "8"), 2, {16, 64}, "0,1 0,2 0,4 8,0 0,32", "0,8 0,16 1,0 2,0 4,0", "-"},
    {"ut:DotMMAv2_tile_kwidth8", DOT("1", V2_11, "8"), 2, {64, 8}, "1,0 2,0 4,0 32,0", "8,0 16,0 0,1 0,2 0,4", "-"},
    {"ut:DotMMAv2_large_warp4_kwidth8", DOT("0", V2_41, "8"), 2, {128, 128}, "0,1 0,2 0,4 8,0 0,32 0,64 64,0", "0,8 0,16 1,0 2,0 4,0", "16,0 32,0"},
    {"ut:DotMMAv2_large_warp4_kwidth8", DOT("1", V2_41, "8"), 2, {128, 64}, "1,0 2,0 4,0 32,0 64,0 0,8 0,16 0,32", "8,0 16,0 0,1 0,2 0,4", "0,0 0,0"},
    {"ut:DotMMAv2_large_warp4_kwidth8", DOT("1", V2_41, "8"), 2, {64, 128}, "1,0 2,0 4,0 32,0 0,8 0,16 0,32 0,64", "8,0 16,0 0,1 0,2 0,4", "0,0 0,0"},
    {"ut:DotMMAv3_warp4_kwidth2", DOT("0", V3_41, "2"), 2, {64, 16}, "0,1 8,0 0,8", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0"},
    {"ut:DotMMAv3_warp4_kwidth2", DOT("0", V3_41, "2"), 2, {128, 16}, "0,1 8,0 0,8 64,0", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0"},
    {"ut:DotMMAv3_warp4_kwidth2", DOT("0", V3_41, "2"), 2, {128, 32}, "0,1 8,0 0,8 0,16 64,0", "0,2 0,4 1,0 2,0 4,0", "16,0 32,0"},
    {"ut:DotMMAv3_mixed_warp_kwidth4", DOT("0", V3_42, "4"), 2, {128, 64}, "0,1 0,2 8,0 0,16 0,32 64,0", "0,4 0,8 1,0 2,0 4,0", "16,0 32,0 0,0"},
    {"ut:DotMMAv2_split_warp_kwidth8", DOT("0", V2_22, "8"), 2, {32, 64}, "0,1 0,2 0,4 8,0 0,32", "0,8 0,16 1,0 2,0 4,0", "0,0 16,0"},
    {"ut:DotMMAv2_split_warp_kwidth8", DOT("1", V2_22, "8"), 2, {64, 16}, "1,0 2,0 4,0 32,0", "8,0 16,0 0,1 0,2 0,4", "0,8 0,0"},
    {"ut:DotMMAv2_split_warp_kwidth8", DOT("0", V2_22, "8"), 2, {64, 128}, "0,1 0,2 0,4 8,0 0,32 0,64 32,0", "0,8 0,16 1,0 2,0 4,0", "0,0 16,0"},
    {"ut:DotMMAv2_split_warp_kwidth8", DOT("1", V2_22, "8"), 2, {128, 32}, "1,0 2,0 4,0 32,0 64,0 0,16", "8,0 16,0 0,1 0,2 0,4", "0,8 0,0"},
    /* dot_op of blocked (an FMA operand) */
    {"ut:BlockedDotOperandLhs", DOT_FMA("0", BLK2), 2, {32, 16}, "0,1 0,2 0,4 0,8 1,0", "0,0 0,0 2,0 4,0 8,0", "0,0 0,0 16,0"},
    /* hand: B [K = 16, N = 32]: sizePerThread [16, 4] (K whole) in order [1, 0], lanes 4 along N (4, 8) then 8
     * broadcast along K, warps 4 along N (16, 32) then 2 along K (zero); N is 64 wide, so warp 32 is zeroed. */
    {"hand:dot_op of blocked (B)", DOT_FMA("1", BLK2), 2, {16, 32}, "0,1 0,2 1,0 2,0 4,0 8,0", "0,4 0,8 0,0 0,0 0,0", "0,16 0,0 0,0"},
    /* slice */
    {"ut:SliceDot", SLICE("1", DOT("0", V2_11, "8")), 1, {16, 0}, "8", "0 0 1 2 4", "-"},
    {"ut:SliceDot", SLICE("0", DOT("0", V3_41, "2")), 1, {16, 0}, "1 8", "2 4 0 0 0", "0 0"},
    /* hand: the parent on [64, 1] puts registers (0,1) (0,2) and lanes 1..4 on dim1, lanes 8..32 and warps on
     * dim0 (1 .. 16), one register repeat (32, 0); dim1 of size 1 zeroes everything on it; the zero
     * registers go, the zero lanes stay. */
    {"hand:slice of blocked", SLICE("1", BLK), 1, {64, 0}, "32", "0 0 0 1 2 4", "8 16"},
    /* hand: slices of slices of BLK3 (a slice's parent may be a slice: Triton's verifier takes any distributed
     * parent of rank >= 2).  BLK3 puts lanes 1, 2 along dim2, lanes 4, 8 along dim1, lane 16 along dim0, warp 1
     * along dim1, warp 2 along dim0.  Keeping dim2 (64 wide, a CTA tile of 4 x 4 = 16): registers 1 2
     * (sizePerThread), the repetitions 16 32, lanes 4 8; dim1's register is zero and goes. */
    {"hand:slice of slice, dim2 kept", SLICE("0", SLICE("0", BLK3)), 1, {64, 0}, "1 2 16 32", "4 8 0 0 0", "0 0"},
    /* keeping dim1 (32 wide, a tile of 2 x 4 x 2 = 16): register 1 (sizePerThread 2), the repetition 16, lanes
     * 2 4 (lane bits 2, 3), warp 8 (warp bit 0); dim2's four registers are zero and go.  Dropping dim0, then
     * dim1 (the old dim2), or dim2, then dim0, leaves the same dim. */
    {"hand:slice of slice, dim1 kept", SLICE("1", SLICE("0", BLK3)), 1, {32, 0}, "1 16", "0 0 2 4 0", "8 0"},
    {"hand:slice of slice, dim1 kept", SLICE("0", SLICE("2", BLK3)), 1, {32, 0}, "1 16", "0 0 2 4 0", "8 0"},
    /* hand: transposed 32x32 mfma on [1, 64]: registers 1 2 8 16 and lane 32 (4) on dim1, lanes 1..16 and
     * the M warp (32) on dim0 (zeroed by the size 1), the N warp 32 on dim1. */
    {"hand:slice of amd_mfma", SLICE("0", MFMA("3", "2, 2", "32, 32, 8", "true")), 1, {64, 0}, "1 2 8 16", "0 0 0 0 0 4", "32 0"},
    /* amd_wmma, from an earlier snapshot of the same unit test (its wmma helper has the 3.6 fields) */
#define W1 WMMA("1", "false", "2, 4")
#define W2 WMMA("2", "false", "2, 4")
#define W2T WMMA("2", "true", "2, 4")
    {"ut:WMMA_v1_2x4Warps", W1, 2, {16, 16}, "2,0 4,0 8,0", "0,1 0,2 0,4 0,8 1,0", "0,0 0,0 0,0"},
    {"ut:WMMA_v1_2x4Warps", W1, 2, {32, 16}, "2,0 4,0 8,0", "0,1 0,2 0,4 0,8 1,0", "0,0 0,0 16,0"},
    {"ut:WMMA_v1_2x4Warps", W1, 2, {16, 32}, "2,0 4,0 8,0", "0,1 0,2 0,4 0,8 1,0", "0,16 0,0 0,0"},
    {"ut:WMMA_v1_2x4Warps", W1, 2, {128, 128}, "2,0 4,0 8,0 0,64 32,0 64,0", "0,1 0,2 0,4 0,8 1,0", "0,16 0,32 16,0"},
    {"ut:WMMA_v1_2x4Warps_lhs", DOT("0", W1, "16"), 2, {16, 16}, "0,1 0,2 0,4 0,8", "1,0 2,0 4,0 8,0 0,0", "0,0 0,0 0,0"},
    {"ut:WMMA_v1_2x4Warps_lhs", DOT("0", W1, "16"), 2, {32, 16}, "0,1 0,2 0,4 0,8", "1,0 2,0 4,0 8,0 0,0", "0,0 0,0 16,0"},
    {"ut:WMMA_v1_2x4Warps_lhs", DOT("0", W1, "16"), 2, {32, 64}, "0,1 0,2 0,4 0,8 0,16 0,32", "1,0 2,0 4,0 8,0 0,0", "0,0 0,0 16,0"},
    {"ut:WMMA_v1_2x4Warps_lhs", DOT("0", W1, "16"), 2, {64, 128}, "0,1 0,2 0,4 0,8 0,16 0,32 0,64 32,0", "1,0 2,0 4,0 8,0 0,0", "0,0 0,0 16,0"},
    {"ut:WMMA_v1_2x4Warps_rhs", DOT("1", W1, "16"), 2, {16, 16}, "1,0 2,0 4,0 8,0", "0,1 0,2 0,4 0,8 0,0", "0,0 0,0 0,0"},
    {"ut:WMMA_v1_2x4Warps_rhs", DOT("1", W1, "16"), 2, {32, 16}, "1,0 2,0 4,0 8,0 16,0", "0,1 0,2 0,4 0,8 0,0", "0,0 0,0 0,0"},
    {"ut:WMMA_v1_2x4Warps_rhs", DOT("1", W1, "16"), 2, {32, 64}, "1,0 2,0 4,0 8,0 16,0", "0,1 0,2 0,4 0,8 0,0", "0,16 0,32 0,0"},
    {"ut:WMMA_v1_2x4Warps_rhs", DOT("1", W1, "16"), 2, {64, 128}, "1,0 2,0 4,0 8,0 16,0 32,0 0,64", "0,1 0,2 0,4 0,8 0,0", "0,16 0,32 0,0"},
    {"ut:WMMA_v2_2x4Warps", W2, 2, {16, 16}, "1,0 2,0 4,0", "0,1 0,2 0,4 0,8 8,0", "0,0 0,0 0,0"},
    {"ut:WMMA_v2_2x4Warps", W2, 2, {32, 16}, "1,0 2,0 4,0", "0,1 0,2 0,4 0,8 8,0", "0,0 0,0 16,0"},
    {"ut:WMMA_v2_2x4Warps", W2, 2, {16, 32}, "1,0 2,0 4,0", "0,1 0,2 0,4 0,8 8,0", "0,16 0,0 0,0"},
    {"ut:WMMA_v2_2x4Warps", W2, 2, {64, 128}, "1,0 2,0 4,0 0,64 32,0", "0,1 0,2 0,4 0,8 8,0", "0,16 0,32 16,0"},
    {"ut:TWMMA_v2_2x4Warps", W2T, 2, {16, 16}, "0,1 0,2 0,4", "1,0 2,0 4,0 8,0 0,8", "0,0 0,0 0,0"},
    {"ut:TWMMA_v2_2x4Warps", W2T, 2, {32, 16}, "0,1 0,2 0,4", "1,0 2,0 4,0 8,0 0,8", "0,0 0,0 16,0"},
    {"ut:TWMMA_v2_2x4Warps", W2T, 2, {16, 32}, "0,1 0,2 0,4", "1,0 2,0 4,0 8,0 0,8", "0,16 0,0 0,0"},
    {"ut:TWMMA_v2_2x4Warps", W2T, 2, {64, 128}, "0,1 0,2 0,4 0,64 32,0", "1,0 2,0 4,0 8,0 0,8", "0,16 0,32 16,0"},
    /* hand (amd_wmma): versions 2, 3: 8 registers on rows 1 2 4, lanes 1..8 on columns, lane 16 on row 8
     * (columns and rows swap when transposed); version 1: registers on rows 2 4 8, lane 16 on row 1;
     * warps along dim1 then dim0; the register repetitions along dim1 first (the repetition order [1, 0]). */
    {"hand:wmma v2", WMMA("2", "false", "2, 2"), 2, {32, 32}, "1,0 2,0 4,0", "0,1 0,2 0,4 0,8 8,0", "0,16 16,0"},
    {"hand:wmma v2", WMMA("2", "false", "2, 2"), 2, {64, 64}, "1,0 2,0 4,0 0,32 32,0", "0,1 0,2 0,4 0,8 8,0", "0,16 16,0"},
    {"hand:wmma v2 transposed", WMMA("2", "true", "2, 2"), 2, {32, 32}, "0,1 0,2 0,4", "1,0 2,0 4,0 8,0 0,8", "0,16 16,0"},
    {"hand:wmma v1", WMMA("1", "false", "1, 1"), 2, {16, 16}, "2,0 4,0 8,0", "0,1 0,2 0,4 0,8 1,0", "-"},
    {"hand:wmma v3", "#ttg.amd_wmma<{version = 3, isTranspose = false, warpsPerCTA = [4, 1], instrShape = [16, 16, 32]}>",
     2, {64, 16}, "1,0 2,0 4,0", "0,1 0,2 0,4 0,8 8,0", "16,0 32,0"},
    /* hand (dot_op of amd_wmma): kWidth registers along K, 16 lanes along the non-K dim, lane 16 along K
     * (version 1: zero, a broadcast), warps broadcast along K. */
    {"hand:dot_op of wmma v1", DOT("0", WMMA("1", "false", "2, 2"), "16"), 2, {32, 16}, "0,1 0,2 0,4 0,8", "1,0 2,0 4,0 8,0 0,0", "0,0 16,0"},
    {"hand:dot_op of wmma v2", DOT("1", WMMA("2", "false", "2, 2"), "8"), 2, {16, 32}, "1,0 2,0 4,0", "0,1 0,2 0,4 0,8 8,0", "0,16 0,0"},
};
#define N_CASES (int)(sizeof k_cases / sizeof k_cases[0])

/* Parse "a,b a,b" into vals (width values each); returns the count, -1 on a malformed string. */
static int parse_bases(const char *s, int width, int64_t *vals, int cap)
{
    int n = 0, k;
    if (strcmp(s, "-") == 0) return 0;
    while (*s) {
        char *end;
        if (n >= cap) return -1;
        for (k = 0; k < width; k++) {
            vals[n * width + k] = strtoll(s, &end, 10);
            if (end == s) return -1;
            s = end;
            if (k + 1 < width) {
                if (*s != ',') return -1;
                s++;
            }
        }
        n++;
        while (*s == ' ') s++;
    }
    return n;
}

static int same_dim(const layout_linear *ll, const char *name, const char *want, int width, char *why, size_t cap)
{
    int64_t vals[64 * 3], got[LAYOUT_LINEAR_MAX_DIMS];
    int n = parse_bases(want, width, vals, 64), d = layout_linear_in_dim(ll, name), b, k;
    if (n < 0) {
        snprintf(why, cap, "bad test data for %s", name);
        return 0;
    }
    if ((d < 0 && n > 0) || (d >= 0 && ll->in_bits[d] != n)) {
        snprintf(why, cap, "%s: %d bases, expected %d", name, d < 0 ? 0 : ll->in_bits[d], n);
        return 0;
    }
    for (b = 0; b < n; b++) {
        layout_linear_get_basis(ll, d, b, got, NULL);
        for (k = 0; k < width; k++)
            if (got[k] != vals[b * width + k]) {
                snprintf(why, cap, "%s=%d: dim%d is %lld, expected %lld", name, 1 << b, k, (long long)got[k],
                         (long long)vals[b * width + k]);
                return 0;
            }
    }
    return 1;
}

static int n_by_kind[16];

/* Every case: parse, print back identically, build the linear layout, compare
 * the bases and the output sizes (= the shape). */
static void test_cases(void)
{
    int i;
    for (i = 0; i < N_CASES; i++) {
        const mma_case *c = &k_cases[i];
        layout_triton_attr a;
        layout_linear ll;
        layout_error e;
        char text[2048], why[256];
        size_t where = 0;
        int k;
        CHECK_MSG(layout_triton_from_text(c->attr, &a, &where, &e) == LAYOUT_OK, "%s: %s", c->attr, e.message);
        CHECK_MSG(layout_triton_to_text(&a, text, sizeof text, &e) == LAYOUT_OK && strcmp(text, c->attr) == 0,
                  "printed back as %s", text);
        CHECK_EQ_I64(a.rank, c->rank);
        n_by_kind[a.kind == LAYOUT_TRITON_DOT_OPERAND ? 8 + a.parent : a.kind]++;
        if (layout_triton_to_linear(&a, c->rank, c->shape, &ll, &e) != LAYOUT_OK) {
            CHECK_MSG(0, "%s on [%lld, %lld]: %s", c->attr, (long long)c->shape[0], (long long)c->shape[1], e.message);
            continue;
        }
        CHECK_EQ_I64(ll.n_out, c->rank);
        for (k = 0; k < c->rank && k < ll.n_out; k++) CHECK_EQ_I64((int64_t)1 << ll.out_bits[k], c->shape[k]);
        CHECK_MSG(same_dim(&ll, "register", c->reg, c->rank, why, sizeof why) &&
                      same_dim(&ll, "lane", c->lane, c->rank, why, sizeof why) &&
                      same_dim(&ll, "warp", c->warp, c->rank, why, sizeof why),
                  "%s (%s) on [%lld, %lld]: %s", c->attr, c->src, (long long)c->shape[0], (long long)c->shape[1], why);
    }
}

/* The distribution of each case (a table): every (warp, lane, register) at
 * the coordinate the linear layout gives; through the dialect entry point too. */
static int64_t g_table[1 << 20];
static int n_too_large;

static void test_distributions(void)
{
    int i;
    for (i = 0; i < N_CASES; i++) {
        const mma_case *c = &k_cases[i];
        layout_triton_attr a;
        layout_linear ll;
        layout_distribution d, d2;
        layout_error e;
        int w, l, k;
        int64_t r, bad = 0;
        if (layout_triton_from_text(c->attr, &a, NULL, &e) || layout_triton_to_linear(&a, c->rank, c->shape, &ll, &e))
            continue; /* reported by test_cases */
        CHECK(layout_triton_to_dist(&a, c->rank, c->shape, NULL, 0, &d, &e) == LAYOUT_ERR_UNSUPPORTED);
        CHECK(layout_triton_to_dist(&a, c->rank, c->shape, g_table, 4, &d, &e) == LAYOUT_ERR_BUFFER);
        if (((size_t)c->rank << ll.total_in_bits) > sizeof g_table / sizeof g_table[0]) {
            /* 1024 x 1024 (2^21 values) and the [1, 256, 256] operand A (3 x 2^19): the size is named */
            CHECK_MSG(strstr(e.message, "2097152 values") || strstr(e.message, "1572864 values"), "%s", e.message);
            n_too_large++;
            continue;
        }
        CHECK_MSG(layout_triton_to_dist(&a, c->rank, c->shape, g_table, sizeof g_table / sizeof g_table[0], &d, &e) ==
                      LAYOUT_OK,
                  "%s: %s", c->attr, e.message);
        { /* 64 lanes on AMD's CDNA (mfma; the blocked parent has 8 x 8), 32 on RDNA (wmma) and NVIDIA */
            int64_t lanes[64 * 3];
            CHECK_EQ_I64(d.wave_size, 1 << parse_bases(c->lane, c->rank, lanes, 64));
        }
        for (w = 0; w < d.n_warps; w++)
            for (l = 0; l < d.wave_size; l++)
                for (r = 0; r < d.elems_per_thread; r++) {
                    int64_t in[3], want[3], got[3] = {0, 0, 0};
                    int ir = layout_linear_in_dim(&ll, "register"), il = layout_linear_in_dim(&ll, "lane"),
                        iw = layout_linear_in_dim(&ll, "warp");
                    in[ir] = r;
                    in[il] = l;
                    if (iw >= 0) in[iw] = w;
                    layout_linear_apply(&ll, in, want, NULL);
                    if (layout_dist_coord_elem(&d, w, l, r, got, NULL) != LAYOUT_OK) bad++;
                    for (k = 0; k < c->rank; k++)
                        if (got[k] != want[k]) bad++;
                }
        CHECK_MSG(bad == 0, "%s: %lld coordinates differ", c->attr, (long long)bad);
        CHECK_MSG(layout_dist_from_dialect(LAYOUT_DIALECT_TRITON, c->attr, c->rank, c->shape, g_table,
                                           sizeof g_table / sizeof g_table[0], &d2, NULL, &e) == LAYOUT_OK,
                  "%s: %s", c->attr, e.message);
    }
    CHECK_EQ_I64(n_too_large, 2);
}

/* Malformed or unsupported text: a status, a message, the column; never a crash. */
static void test_errors(void)
{
    static const struct {
        const char *text;
        layout_status st;
        size_t where;
        const char *msg;
    } bad[] = {
        {"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8]}>", LAYOUT_ERR_PARSE, 74,
         "missing field 'isTransposed'"},
        {"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = yes}>",
         LAYOUT_ERR_PARSE, 91, "true or false"},
        {"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 3], instrShape = [32, 32, 8], isTransposed = true}>",
         LAYOUT_ERR_ARG, 42, "not a power of two"},
        {"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, foo = 1}>",
         LAYOUT_ERR_PARSE, 97, "unknown field 'foo'"},
        {"#ttg.amd_mfma<{version = 3, version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>",
         LAYOUT_ERR_PARSE, 28, "appears twice"},
        {"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, "
         "tilesPerWarp = [2]}>",
         LAYOUT_ERR_MISMATCH, 112, "tilesPerWarp has 1 entries"},
        {"#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>", LAYOUT_ERR_UNSUPPORTED, 33, "alias"},
        {"#ttg.dot_op<{opIdx = 2, parent = #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2]}>}>",
         LAYOUT_ERR_ARG, 21, "opIdx"},
        {"#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2]}>}>",
         LAYOUT_ERR_UNSUPPORTED, 104, "kWidth"},
        {"#ttg.dot_op<{opIdx = 0, parent = #ttg.linear<{register = [], lane = [], warp = [], block = []}>}>",
         LAYOUT_ERR_UNSUPPORTED, 33, "'#ttg.linear'"},
        {"#ttg.dot_op<{opIdx = 0, parent = " V2_11 ", kWidth = 0}>", LAYOUT_ERR_UNSUPPORTED, 141, "kWidth = 0"},
        {"#ttg.dot_op<{opIdx = 0, parent = " V2_11 ", kWidth = 3}>", LAYOUT_ERR_ARG, 141, "kWidth = 3"},
        {"#ttg.slice<{dim = 2, parent = " BLK "}>", LAYOUT_ERR_ARG, 18, "slice dim 2 of a rank-2 parent"},
        {"#ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 0, parent = " BLK "}>}>", LAYOUT_ERR_ARG, 18,
         "slice dim 0 of a rank-1 parent"},
        {"#ttg.slice<{dim = 0, parent = #ttg.linear<{register = [], lane = [], warp = [], block = []}>}>",
         LAYOUT_ERR_ARG, 18, "slice dim 0 of a rank-1 parent"},
        {"#ttg.slice<{dim = 0}>", LAYOUT_ERR_PARSE, 19, "missing field 'parent'"},
        {"#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}> x",
         LAYOUT_ERR_PARSE, 98, "expected end of input"},
        {"#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], isTransposed = true}>",
         LAYOUT_ERR_PARSE, 75, "unknown field 'isTransposed'"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        layout_triton_attr a;
        layout_error e;
        size_t where = 12345;
        layout_status st = layout_triton_from_text(bad[i].text, &a, &where, &e);
        CHECK_MSG(st == bad[i].st, "%s: status %d (%s)", bad[i].text, (int)st, e.message);
        CHECK_MSG(where == bad[i].where, "%s: column %zu, expected %zu (%s)", bad[i].text, where, bad[i].where,
                  e.message);
        CHECK_STR_CONTAINS(e.message, bad[i].msg);
    }
}

/* Parsed, but not a layout Triton 3.6 builds: refused by layout_triton_to_linear with a reason. */
static void test_unsupported(void)
{
    static const struct {
        const char *text;
        int64_t shape[2];
        const char *msg;
    } bad[] = {
        {MFMA("3", "2, 2", "8, 8, 8", "false"), {64, 64}, "instrShape must be 32x32, 16x16"},
        {MFMA("3", "2, 2", "64, 4, 4", "false"), {64, 64}, "must be transposed"},
        {"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 4], isTransposed = false, elementBitWidth = 16}>",
         {64, 64}, "elementBitWidth must be 32 or 64"},
        {MFMA("5", "2, 2", "32, 32, 8", "false"), {64, 64}, "version"},

        {"#ttg.amd_wmma<{version = 3, isTranspose = false, warpsPerCTA = [2, 2]}>", {32, 32}, "instrShape"},
        {"#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2], tilesPerWarp = [2, 1]}>", {32, 32},
         "tilesPerWarp"},
        {NV("1", "2, 2", "16, 8"), {32, 32}, "versionMajor must be 2"},
        {DOT("1", V3_41, "2"), {32, 64}, "operand B"},
        /* a failure in the tile, then the warps built: the tile's message is kept (found by fuzz_dialect) */
        {NV("3", "4, 2", "4, 64, 16"), {16, 32}, "not a multiple of 8"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        layout_triton_attr a;
        layout_linear ll;
        layout_distribution d;
        layout_error e;
        CHECK_MSG(layout_triton_from_text(bad[i].text, &a, NULL, &e) == LAYOUT_OK, "%s: %s", bad[i].text, e.message);
        CHECK_MSG(layout_triton_to_linear(&a, 2, bad[i].shape, &ll, &e) == LAYOUT_ERR_UNSUPPORTED, "%s",
                  bad[i].text);
        CHECK_STR_CONTAINS(e.message, bad[i].msg);
        CHECK(layout_triton_to_dist(&a, 2, bad[i].shape, g_table, 1024, &d, &e) == LAYOUT_ERR_UNSUPPORTED);
    }
    /* fuzz_dialect (random seed): an amd_mfma of rank 1, alone or under a dot_op,
     * indexed dim -1 before its rank was refused (UBSan; the input is
     * tests/corpus/fuzz_dialect/regress-mfma-dot-rank1) */
    {
        static const char *const rank1[2] = {
            "#ttg.dot_op<{opIdx = 0,parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [1], instrShape = [16, 16, 16], "
            "isTransposed= false}>, kWidth = 4}>",
            "#ttg.amd_mfma<{version = 4, warpsPerCTA = [1], instrShape = [16, 16, 16], isTransposed = false}>"};
        int64_t s16[1] = {16};
        for (int i = 0; i < 2; i++) {
            layout_triton_attr a;
            layout_linear ll;
            layout_error e;
            CHECK(layout_triton_from_text(rank1[i], &a, NULL, &e) == LAYOUT_OK);
            CHECK(layout_triton_to_linear(&a, 1, s16, &ll, &e) == LAYOUT_ERR_UNSUPPORTED);
            CHECK_STR_CONTAINS(e.message, "rank other than 2 or 3");
        }
    }
    {
        layout_triton_attr a;
        layout_linear ll;
        layout_error e;
        int64_t s3[3] = {2, 64, 64}, s1[1] = {64}, s_odd[2] = {64, 48};
        CHECK(layout_triton_from_text(M32x4, &a, NULL, &e) == LAYOUT_OK);
        CHECK(layout_triton_to_linear(&a, 3, s3, &ll, &e) == LAYOUT_ERR_ARG);
        CHECK(layout_triton_to_linear(&a, 1, s1, &ll, &e) == LAYOUT_ERR_ARG);
        CHECK(layout_triton_to_linear(&a, 2, s_odd, &ll, &e) == LAYOUT_ERR_ARG);
        CHECK(layout_triton_to_linear(NULL, 2, s_odd, &ll, &e) == LAYOUT_ERR_NULL);
        {
            layout_descriptor d;
            int64_t s2[2] = {64, 64};
            CHECK(layout_desc_from_triton(M32x4, 2, s2, &d, NULL, &e) == LAYOUT_ERR_UNSUPPORTED);
            CHECK_STR_CONTAINS(e.message, "#ttg.amd_mfma is a distribution");
            CHECK(layout_desc_from_triton(SLICE("0", V2_11), 1, s2, &d, NULL, &e) == LAYOUT_ERR_UNSUPPORTED);
            CHECK_STR_CONTAINS(e.message, "#ttg.slice is a distribution");
        }
        /* Ampere takes a leading batch dim (Triton's DotMMAv2_3D, test_triton_peer);
         * Hopper's layouts are rank 2 only. */
        CHECK(layout_triton_from_text(NV("2", "2, 2, 1", "1, 16, 8"), &a, NULL, &e) == LAYOUT_OK);
        CHECK(layout_triton_to_linear(&a, 3, s3, &ll, &e) == LAYOUT_OK);
        CHECK(layout_triton_from_text(NV("3", "2, 2, 1", "16, 64, 16"), &a, NULL, &e) == LAYOUT_OK);
        CHECK(layout_triton_to_linear(&a, 3, s3, &ll, &e) == LAYOUT_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(e.message, "rank");
    }
}

/* Every prefix of every case's text is refused cleanly (no crash, a status
 * and a column inside the text); the whole text is accepted. */
static void test_truncations(void)
{
    int i;
    char buf[1024];
    for (i = 0; i < N_CASES; i++) {
        size_t n = strlen(k_cases[i].attr), k;
        for (k = 0; k < n && k < sizeof buf; k++) {
            layout_triton_attr a;
            layout_error e;
            size_t where = 0;
            memcpy(buf, k_cases[i].attr, k);
            buf[k] = '\0';
            CHECK_MSG(layout_triton_from_text(buf, &a, &where, &e) != LAYOUT_OK, "prefix %zu of %s accepted", k,
                      k_cases[i].attr);
            CHECK(where <= k);
        }
    }
}

/* Other spellings Triton's parser takes: ':' separators, fields in another
 * order, the CTA fields of one CTA, isTransposed for amd_wmma; printed in
 * the canonical order. */
static void test_spellings(void)
{
    static const char *const pairs[][2] = {
        {"#ttg.amd_mfma<{isTransposed = true, instrShape = [16, 16, 16], warpsPerCTA = [4, 1], version = 4, "
         "CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0], tilesPerWarp = [1, 1], elementBitWidth = 32}>",
         MFMA("4", "4, 1", "16, 16, 16", "true")},
        {"#ttg.amd_wmma<{version = 1, isTransposed = true, warpsPerCTA = [2, 2], instrShape = [16, 16, 16]}>",
         WMMA("1", "true", "2, 2")},
        {"#ttg.nvidia_mma<{warpsPerCTA = [4, 1], versionMajor = 3, instrShape = [16, 64, 16]}>",
         NV("3", "4, 1", "16, 64, 16")},
        {"#ttg.dot_op<{kWidth = 4, parent = " V2_22 ", opIdx = 1}>", DOT("1", V2_22, "4")},
        {"  #ttg.slice<{parent = " M32x4 ", dim = 1}>\n", SLICE("1", M32x4)},
        {"#ttg.slice<{parent = #ttg.slice<{dim = 2, parent = " BLK3 "}>, dim = 0}>", SLICE("0", SLICE("2", BLK3))},
    };
    size_t i;
    for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        layout_triton_attr a;
        layout_error e;
        char text[2048];
        CHECK_MSG(layout_triton_from_text(pairs[i][0], &a, NULL, &e) == LAYOUT_OK, "%s: %s", pairs[i][0], e.message);
        CHECK(layout_triton_to_text(&a, text, sizeof text, &e) == LAYOUT_OK);
        CHECK_MSG(strcmp(text, pairs[i][1]) == 0, "%s printed %s", pairs[i][0], text);
    }
}

/* Real Triton 3.6.0 text (tests/support/triton_kernel_uses.h: every use of
 * these attributes in 66 real compilations, parents inlined): each reads,
 * prints back character for character, and gives a linear layout of the
 * tensor's shape that covers it (surjective, as every Triton register layout),
 * the two slices of a #ttg.linear parent included. */
static void test_real_kernels(void)
{
    size_t i;
    int n_ok = 0, n_linear_parent = 0;
    for (i = 0; i < TRITON_KERNEL_USES; i++) {
        const triton_kernel_use *u = &triton_kernel_uses[i];
        layout_triton_attr a;
        layout_linear ll;
        layout_error e;
        char text[2048];
        const char *p = u->shape;
        int64_t shape[4];
        int ns = 0;
        while (*p && ns < 4) {
            char *end;
            shape[ns++] = strtoll(p, &end, 10);
            p = *end == 'x' ? end + 1 : end;
        }
        if (layout_triton_from_text(u->attr, &a, NULL, &e) != LAYOUT_OK) {
            CHECK_MSG(strstr(u->attr, "parent = #ttg.linear") && strstr(e.message, "'#ttg.linear'"), "%s: %s", u->attr,
                      e.message);
            n_linear_parent++;
            continue;
        }
        CHECK(layout_triton_to_text(&a, text, sizeof text, &e) == LAYOUT_OK);
        CHECK_MSG(strcmp(text, u->attr) == 0, "printed back as %s", text);
        CHECK_MSG(layout_triton_to_linear(&a, ns, shape, &ll, &e) == LAYOUT_OK, "%s on %s: %s", u->attr, u->shape,
                  e.message);
        CHECK_MSG(layout_linear_is_surjective(&ll), "%s on %s does not cover the tensor", u->attr, u->shape);
        n_ok++;
    }
    CHECK_EQ_I64(n_ok, 177);
    CHECK_EQ_I64(n_linear_parent, 0);
}

int main(void)
{
    RUN(test_cases);
    RUN(test_distributions);
    RUN(test_errors);
    RUN(test_unsupported);
    RUN(test_truncations);
    RUN(test_spellings);
    RUN(test_real_kernels);
    printf("triton mma: %d cases: %d amd_mfma, %d dot_op(amd_mfma), %d nvidia_mma, %d dot_op(nvidia_mma), %d slice, %d "
           "amd_wmma, %d dot_op(amd_wmma), %d dot_op(blocked)\n",
           N_CASES, n_by_kind[LAYOUT_TRITON_AMD_MFMA], n_by_kind[8 + LAYOUT_TRITON_AMD_MFMA],
           n_by_kind[LAYOUT_TRITON_NVIDIA_MMA], n_by_kind[8 + LAYOUT_TRITON_NVIDIA_MMA], n_by_kind[LAYOUT_TRITON_SLICE],
           n_by_kind[LAYOUT_TRITON_AMD_WMMA], n_by_kind[8 + LAYOUT_TRITON_AMD_WMMA], n_by_kind[8 + LAYOUT_TRITON_BLOCKED]);
    return harness_finish("test_triton_mma");
}
