/* ptxas's sunk last load (lib/triton_kernel/sink.c), on kernels derived by
 * hand.
 *
 * The kernel: a rows x 32 f32 tile in shared memory (swizzled_shared, vec
 * 1, no swizzle, column-major: element (i, j) at 4 (i + rows j) bytes)
 * read into #b = blocked<[1, 1], [1, 32], [8, 1], [1, 0]> on 8 warps and
 * stored to global memory.  Lanes run along dim 1, warp bits 0, 1, 2
 * along dim 0 (rows 1, 2, 4).  With 4 rows, warp w < 4 reads row w: lane j
 * at word w + 4 j, bank (w + 4 j) mod 32, so lanes j, j + 8, j + 16,
 * j + 24 share a bank: 4-way, 4 wavefronts, 3 conflicts, one
 * ld.shared.b32 (no vector: the elements of a thread are not contiguous in
 * shared memory; not ldmatrix: a column-major 32-bit tile).
 *
 *  - 4 rows: warp bit 2 would be row 4, outside the tensor: a zero warp
 *    basis, warps 4..7 hold copies of warps 0..3.  A thread has one
 *    element: one ld.shared.b32 and one global store (as many stores as
 *    loads), so ptxas exits warps 4..7 before the load: sunk_warps =
 *    8 >> 1 = 4; per warp 4 wavefronts, 3 conflicts; over the CTA
 *    4 x 4 = 16 wavefronts and 4 x 3 = 12 conflicts (not 32 and 24).
 *  - 16 rows: every warp bit names a row, a register basis the 8th (two
 *    loads a thread): no zero warp basis, every warp stores, nothing sinks.
 *  - 4 rows with the load in an scf.for, or with a second local_load after
 *    the store (the first is not the kernel's last shared op, the second
 *    feeds no store), or on gfx942 (no ptxas): nothing sinks.
 *
 * Lanes exit too (test_sunk_lanes): a 4 x 64 f32 tile, row-major in shared
 * memory (element (i, j) at 4 (64 i + j) bytes), read into
 * blocked<[1, 4], [1, 32], [8, 1], [1, 0]>.  A lane holds 4 contiguous
 * columns, so lanes 0..15 cover the 64 and lane bit 4 (column 64) is a
 * zero basis: lanes 16..31 repeat lanes 0..15; warp bit 2 (row 4) is one
 * too.  One ld.shared.v4.b32 and one 128-bit global store per thread.
 * Warp w, lane j < 16 reads bytes 256 w + 16 j: phases of 8 lanes, lanes
 * 0..7 and 8..15 each 128 contiguous bytes, 1 wavefront each; lanes
 * 16..31 repeat them in phases 2 and 3 (16-byte loads fold only over l^1
 * or l^2): 4 wavefronts, 0 conflicts for the whole warp.  ptxas exits
 * warps 4..7 and lanes 16..31: the load runs on 4 warps of 16 lanes, 2
 * wavefronts each (idle phases cost none on NVIDIA): 8 over the CTA, not
 * 4 x 4 = 16 (the whole warps) or 8 x 4 = 32 (every warp).
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
    "#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [%d, 32], warpsPerCTA = [8, 1], order = [1, 0]}>\n"
    "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 8 : i32, ttg.target = \"%s\", "
    "\"ttg.threads-per-warp\" = %d : i32} {\n"
    "  tt.func public @k(%%y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {\n"
    "    %%smem = ttg.local_alloc : () -> !ttg.memdesc<%dx32xf32, #shared, #smem, mutable> loc(#loc1)\n"
    "%s"
    "    %%p = tt.splat %%y_ptr : !tt.ptr<f32> -> tensor<%dx32x!tt.ptr<f32>, #b> loc(#loc1)\n"
    "    tt.store %%p, %%y : tensor<%dx32x!tt.ptr<f32>, #b> loc(#loc1)\n"
    "%s"
    "    tt.return loc(#loc1)\n"
    "  } loc(#loc1)\n"
    "} loc(#loc1)\n"
    "#loc1 = loc(\"k.py\":3:9)\n";

static const char *load_fmt =
    "    %%y = ttg.local_load %%smem : !ttg.memdesc<%dx32xf32, #shared, #smem, mutable> -> tensor<%dx32xf32, #b> "
    "loc(#loc1)\n";

/* Analyse the kernel of `rows` rows; loop: the load inside an scf.for;
 * after: a second local_load after the store.  Returns the last report. */
static const layout_triton_kernel_op *analyse(const char *target, int lanes, int rows, int loop, int after)
{
    char load[512], tail[512], body[1024];
    snprintf(load, sizeof load, load_fmt, rows, rows);
    if (loop) /* the value stored comes out of the loop the load is in */
        snprintf(body, sizeof body,
                 "    %%c0 = arith.constant 0 : i32 loc(#loc1)\n"
                 "    %%c1 = arith.constant 1 : i32 loc(#loc1)\n"
                 "    %%z = arith.constant dense<0.0> : tensor<%dx32xf32, #b> loc(#loc1)\n"
                 "    %%y = scf.for %%i = %%c0 to %%c1 step %%c1 iter_args(%%a = %%z) -> (tensor<%dx32xf32, #b>) : i32 {\n"
                 "  %s"
                 "      scf.yield %%y : tensor<%dx32xf32, #b> loc(#loc1)\n"
                 "    } loc(#loc1)\n",
                 rows, rows, load, rows);
    else
        snprintf(body, sizeof body, "%s", load);
    snprintf(tail, sizeof tail, "%s",
             after ? "    %z = ttg.local_load %smem : !ttg.memdesc<4x32xf32, #shared, #smem, mutable> -> "
                     "tensor<4x32xf32, #b> loc(#loc1)\n"
                   : "");
    snprintf(text, sizeof text, module_fmt, lanes / 32, target, lanes, rows, body, rows, rows, tail);
    if (layout_ttgir_parse(text, strlen(text), &mod, &terr) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", terr.message);
        return NULL;
    }
    if (layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", terr.message);
        return NULL;
    }
    return kern.n_ops > 0 ? &kern.ops[kern.n_ops - 1] : NULL;
}

static void test_sunk(void)
{
    const layout_triton_kernel_op *r = analyse("cuda:90", 32, 4, 0, 0);
    if (!r) return;
    CHECK_MSG(r->modelled, "%s", r->reason);
    CHECK_EQ_I64(r->kind, LAYOUT_TTGIR_LOCAL_LOAD);
    CHECK_EQ_I64(r->n_counts, 1);
    CHECK(strcmp(r->counts[0].mnemonic, "ld.shared.b32") == 0);
    CHECK_EQ_I64(r->counts[0].count, 1);
    CHECK_EQ_I64(r->total_cycles, 4);
    CHECK_EQ_I64(r->extra_cycles, 3);
    CHECK_EQ_I64(r->sunk_warps, 4);
    CHECK_EQ_I64(r->sunk_lanes, 32);
    CHECK_EQ_I64(r->cta_total_cycles, 16);
    CHECK_EQ_I64(r->cta_extra_cycles, 12);
}

/* The text of the last analyse() with the line holding `line` (whole, with
 * its newline) replaced by `with`; then analysed.  Returns its last report. */
static const layout_triton_kernel_op *analyse_edited(const char *line, const char *with)
{
    static char edited[sizeof text + 512];
    const char *at = strstr(text, line);
    if (!at) {
        CHECK_MSG(0, "no line %s", line);
        return NULL;
    }
    snprintf(edited, sizeof edited, "%.*s%s%s", (int)(at - text), text, with, at + strlen(line));
    if (layout_ttgir_parse(edited, strlen(edited), &mod, &terr) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", terr.message);
        return NULL;
    }
    return kern.n_ops > 0 ? &kern.ops[kern.n_ops - 1] : NULL;
}

/* The top level is the region depth of the function's tt.return, not the
 * indentation: the 4-row kernel with its load indented by 7 spaces (a
 * printer other than MLIR's) still sinks; with a region op between the
 * load and the store (not scf: a generic op with a region) it does not. */
static void test_top_level_by_region(void)
{
    static const char splat[] = "    %p = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<4x32x!tt.ptr<f32>, #b> loc(#loc1)\n";
    static const char region[] = "    %r = \"test.region\"() ({\n"
                                 "      \"test.yield\"() : () -> () loc(#loc1)\n"
                                 "    }) : () -> i32 loc(#loc1)\n"
                                 "    %p = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<4x32x!tt.ptr<f32>, #b> loc(#loc1)\n";
    char load[512], odd[520];
    const layout_triton_kernel_op *r;
    snprintf(load, sizeof load, load_fmt, 4, 4);
    snprintf(odd, sizeof odd, "       %s", load + 4);
    if (!analyse("cuda:90", 32, 4, 0, 0)) return;
    if ((r = analyse_edited(load, odd)) != NULL) {
        CHECK_MSG(r->modelled, "%s", r->reason);
        CHECK_EQ_I64(r->sunk_warps, 4);
        CHECK_EQ_I64(r->cta_total_cycles, 16);
    }
    if (!analyse("cuda:90", 32, 4, 0, 0)) return;
    if ((r = analyse_edited(splat, region)) != NULL) {
        CHECK_MSG(r->modelled, "%s", r->reason);
        CHECK_EQ_I64(r->sunk_warps, 0);
        CHECK_EQ_I64(r->cta_total_cycles, 32);
    }
}

static void test_sunk_lanes(void)
{
    static const char lanes_text[] =
        "#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>\n"
        "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n"
        "#smem = #ttg.shared_memory\n"
        "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 8 : i32, ttg.target = \"cuda:90\", "
        "\"ttg.threads-per-warp\" = 32 : i32} {\n"
        "  tt.func public @k(%y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {\n"
        "    %smem = ttg.local_alloc : () -> !ttg.memdesc<4x64xf32, #shared, #smem, mutable> loc(#loc1)\n"
        "    %y = ttg.local_load %smem : !ttg.memdesc<4x64xf32, #shared, #smem, mutable> -> tensor<4x64xf32, #b> "
        "loc(#loc1)\n"
        "    %p = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<4x64x!tt.ptr<f32>, #b> loc(#loc1)\n"
        "    tt.store %p, %y : tensor<4x64x!tt.ptr<f32>, #b> loc(#loc1)\n"
        "    tt.return loc(#loc1)\n"
        "  } loc(#loc1)\n"
        "} loc(#loc1)\n"
        "#loc1 = loc(\"k.py\":3:9)\n";
    const layout_triton_kernel_op *r;
    if (layout_ttgir_parse(lanes_text, strlen(lanes_text), &mod, &terr) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", terr.message);
        return;
    }
    CHECK_EQ_I64(kern.n_ops, 1);
    r = &kern.ops[0];
    CHECK_MSG(r->modelled, "%s", r->reason);
    CHECK_EQ_I64(r->n_counts, 1);
    CHECK(strcmp(r->counts[0].mnemonic, "ld.shared.v4.b32") == 0);
    CHECK_EQ_I64(r->counts[0].count, 1);
    CHECK_EQ_I64(r->total_cycles, 4);
    CHECK_EQ_I64(r->extra_cycles, 0);
    CHECK_EQ_I64(r->sunk_warps, 4);
    CHECK_EQ_I64(r->sunk_lanes, 16);
    CHECK_EQ_I64(r->cta_total_cycles, 8);
    CHECK_EQ_I64(r->cta_extra_cycles, 0);
}

/* ptxas moves past the EXIT the instructions that feed only the store
 * (an audit found the discount given when any tt.store followed,
 * whatever it stored).  The IR's dataflow decides: the 4-row kernel sinks
 * when its store takes the loaded value through an arith op, and not when
 * the store takes a constant (the load's value then feeds no store). */
static void test_store_takes_the_load(void)
{
    static const char store[] = "    tt.store %p, %y : tensor<4x32x!tt.ptr<f32>, #b> loc(#loc1)\n";
    static const char through[] = "    %y2 = arith.addf %y, %y : tensor<4x32xf32, #b> loc(#loc1)\n"
                                  "    tt.store %p, %y2 : tensor<4x32x!tt.ptr<f32>, #b> loc(#loc1)\n";
    static const char constant[] = "    %c = arith.constant dense<1.0> : tensor<4x32xf32, #b> loc(#loc1)\n"
                                   "    tt.store %p, %c : tensor<4x32x!tt.ptr<f32>, #b> loc(#loc1)\n";
    const layout_triton_kernel_op *r;
    if (!analyse("cuda:90", 32, 4, 0, 0)) return;
    if ((r = analyse_edited(store, through)) != NULL) {
        CHECK_MSG(r->modelled, "%s", r->reason);
        CHECK_EQ_I64(r->sunk_warps, 4);
        CHECK_EQ_I64(r->cta_total_cycles, 16);
    }
    if (!analyse("cuda:90", 32, 4, 0, 0)) return;
    if ((r = analyse_edited(store, constant)) != NULL) {
        CHECK_MSG(r->modelled, "%s", r->reason);
        CHECK_EQ_I64(r->sunk_warps, 0);
        CHECK_EQ_I64(r->cta_total_cycles, 32);
    }
}

static void test_not_sunk(void)
{
    const layout_triton_kernel_op *r;
    /* 16 rows: 2 registers a thread, no zero warp basis */
    if ((r = analyse("cuda:90", 32, 16, 0, 0)) != NULL) {
        CHECK_EQ_I64(r->sunk_warps, 0);
        CHECK_EQ_I64(r->cta_total_cycles, r->total_cycles * 8);
    }
    /* the load in a loop */
    if ((r = analyse("cuda:90", 32, 4, 1, 0)) != NULL) {
        CHECK_EQ_I64(kern.n_ops, 1);
        CHECK_MSG(r->modelled, "%s", r->reason);
        CHECK_EQ_I64(r->sunk_warps, 0);
        CHECK_EQ_I64(r->cta_total_cycles, 32);
    }
    /* another shared-memory op after it: the first load is not the last */
    if ((r = analyse("cuda:90", 32, 4, 0, 1)) != NULL) {
        CHECK_EQ_I64(kern.n_ops, 2);
        CHECK_EQ_I64(kern.ops[0].sunk_warps, 0);
    }
    /* AMD: no ptxas */
    if ((r = analyse("hip:gfx942", 64, 4, 0, 0)) != NULL) CHECK_EQ_I64(r->sunk_warps, 0);
}

int main(void)
{
    RUN(test_sunk);
    RUN(test_sunk_lanes);
    RUN(test_not_sunk);
    RUN(test_top_level_by_region);
    RUN(test_store_takes_the_load);
    return harness_finish("test_triton_sink");
}
