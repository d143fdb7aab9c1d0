/* tt.histogram, a tensor atomic whose layout broadcasts, and AMD's
 * direct-to-LDS copies, against answers worked out by hand from Triton's
 * own source (commits in lib/triton_kernel/histogram.c, atomic.c,
 * direct_lds.c) and one of Triton's lit tests; the probes' recorded ISA is
 * python/tests/test_triton_probes_compa.py's. */
#include "harness.h"
#include "layout.h"

static layout_ttgir g_m;
static layout_triton_kernel g_k;
static char g_text[8192];

/* One function of one op, parsed and analysed: its report (NULL if none). */
static const layout_triton_kernel_op *one(const char *target, int lanes, int warps, const char *aliases,
                                          const char *args, const char *body)
{
    layout_error err;
    int n = snprintf(g_text, sizeof g_text,
                     "%s#smem = #ttg.shared_memory\n"
                     "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = %d : i32, ttg.target = \"%s\", "
                     "\"ttg.threads-per-warp\" = %d : i32} {\n"
                     "  tt.func public @k(%s) {\n%s    tt.return\n  }\n}\n",
                     aliases, warps, target, lanes, args, body);
    CHECK(n > 0 && n < (int)sizeof g_text);
    CHECK_MSG(layout_ttgir_parse(g_text, (size_t)n, &g_m, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_MSG(layout_triton_kernel_analyze(&g_m, NULL, &g_k, &err) == LAYOUT_OK, "%s", err.message);
    return g_k.n_ops > 0 ? &g_k.ops[0] : NULL;
}

static int64_t count(const layout_triton_kernel_op *r, const char *mn)
{
    for (int j = 0; r && j < r->n_counts; j++)
        if (strcmp(r->counts[j].mnemonic, mn) == 0) return r->counts[j].count;
    return 0;
}

#define HIST_ALIASES "#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [%d], warpsPerCTA = [2], order = [0]}>\n"
#define HIST_BODY                                                                                                     \
    "    %h = tt.histogram %x : tensor<1024xi32, #b> -> tensor<256xi32, #b>\n"                                         \
    "    %q = tt.splat %y : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #b>\n"                                            \
    "    tt.store %q, %h : tensor<256x!tt.ptr<i32>, #b>\n"

/* HistogramOpToLLVM, 256 bins on 2 warps, result blocked [2] / [T] / [2]:
 * B = max(256, T) = 256.  Zeroing: ceil(256 / (2 T)) stores a thread;
 * atomics: 256 / T a lane, lane l at word l (256 / T) + i; loads: the
 * result's 256 / (2 T) registers a thread, two consecutive bins each
 * (sizePerThread 2) joined into one 64-bit load.  Scratch: 256 x 4 B. */
static void test_histogram_by_hand(void)
{
    char aliases[256];
    const layout_triton_kernel_op *r;
    snprintf(aliases, sizeof aliases, HIST_ALIASES, 32);
    r = one("cuda:90", 32, 2, aliases, "%x: tensor<1024xi32, #b>, %y: !tt.ptr<i32>", HIST_BODY);
    CHECK(r && r->kind == LAYOUT_TTGIR_HISTOGRAM && r->modelled);
    if (r) {
        CHECK_EQ_I64(r->n_counts, 3);
        CHECK_EQ_I64(count(r, "st.shared.b32"), 4);        /* 256 / 64 */
        CHECK_EQ_I64(count(r, "atom.shared.add.u32"), 8);  /* 256 / 32 */
        CHECK_EQ_I64(count(r, "ld.shared.v2.b32"), 2);     /* 4 registers, pairs */
        CHECK_EQ_I64(r->cvt_scratch_bytes, 1024);
        /* the stores: 32 consecutive words, 1 wavefront each; the atomics:
         * a stride of 8 words puts 8 lanes on each of 4 banks, 8 wavefronts
         * each; the loads: 32 lanes x 8 B, 2 wavefronts each */
        CHECK_EQ_I64(r->total_cycles, 4 * 1 + 8 * 8 + 2 * 2);
        CHECK_EQ_I64(r->extra_cycles, 8 * 7);
        /* the atomics' part of the CTA's sums (Nsight Compute's op_shared_atom): 2 warps */
        CHECK_EQ_I64(r->cta_atomic_total_cycles, 2 * 8 * 8);
        CHECK_EQ_I64(r->cta_atomic_extra_cycles, 2 * 8 * 7);
        CHECK_EQ_I64(r->cta_total_cycles, 2 * 72);
    }
    snprintf(aliases, sizeof aliases, HIST_ALIASES, 64);
    r = one("hip:gfx942", 64, 2, aliases, "%x: tensor<1024xi32, #b>, %y: !tt.ptr<i32>", HIST_BODY);
    CHECK(r && r->modelled);
    if (r) {
        /* 2 zeroing stores 128 words apart: one ds_write2st64_b32 (offsets 0
         * and 2 in units of 64 words); 4 atomics; 1 register pair: ds_read_b64 */
        CHECK_EQ_I64(count(r, "ds_write2st64_b32"), 1);
        CHECK_EQ_I64(count(r, "ds_add_u32"), 4);
        CHECK_EQ_I64(count(r, "ds_read_b64"), 1);
        CHECK_EQ_I64(r->n_counts, 3);
        CHECK_EQ_I64(r->cvt_scratch_bytes, 1024);
    }
}

#define AT_ALIASES                                                                                                    \
    "#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
#define AT_ARGS "%%p: tensor<%dx16x!tt.ptr<f32>, #b>, %%v: tensor<%dx16xf32, #b>, %%m: tensor<%dx16xi1, #b>"
#define AT_BODY                                                                                                       \
    "    %%o = tt.atomic_rmw fadd, acq_rel, gpu, %%p, %%v, %%m : (tensor<%dx16x!tt.ptr<f32>, #b>, tensor<%dx16xf32, "  \
    "#b>, tensor<%dx16xi1, #b>) -> tensor<%dx16xf32, #b>\n"                                                           \
    "%s"

/* getRepShapeForAtomic: a scratch only when the result is used and its
 * layout has a free variable.  Blocked [1,1] / [2,16] / [4,1] covers 8 x 16:
 * on 4 x 16 the top warp bit repeats rows (broadcast), on 8 x 16 nothing
 * does.  finalizeTensorAtomicResults: lowerLdSt of the result on a
 * row-major scratch, store, barrier, load: one element a thread, one
 * st.shared.b32 and one ld.shared.b32; scratch 4 x 16 x 4 B. */
static void test_broadcast_atomic(void)
{
    char args[256], body[512];
    const char *store = "    tt.store %%p, %%o : tensor<%dx16x!tt.ptr<f32>, #b>\n";
    char st[128];
    const layout_triton_kernel_op *r;
    for (int rows = 4; rows <= 8; rows += 4) {
        snprintf(args, sizeof args, AT_ARGS, rows, rows, rows);
        snprintf(st, sizeof st, store, rows);
        snprintf(body, sizeof body, AT_BODY, rows, rows, rows, rows, st);
        r = one("cuda:90", 32, 4, AT_ALIASES, args, body);
        CHECK(r && r->modelled);
        if (!r) continue;
        CHECK_EQ_I64(count(r, "st.shared.b32"), rows == 4 ? 1 : 0);
        CHECK_EQ_I64(count(r, "ld.shared.b32"), rows == 4 ? 1 : 0);
        CHECK_EQ_I64(r->n_counts, rows == 4 ? 2 : 0);
        CHECK_EQ_I64(r->cvt_scratch_bytes, rows == 4 ? 4 * 16 * 4 : 0);
    }
    /* its result unused: no scratch, no report */
    snprintf(args, sizeof args, AT_ARGS, 4, 4, 4);
    snprintf(body, sizeof body, AT_BODY, 4, 4, 4, 4, "");
    r = one("cuda:90", 32, 4, AT_ALIASES, args, body);
    CHECK(r == NULL);
    /* AMD: listed with its reason */
    snprintf(body, sizeof body, AT_BODY, 4, 4, 4, 4, "    tt.store %p, %o : tensor<4x16x!tt.ptr<f32>, #b>\n");
    r = one("hip:gfx1100", 32, 4, AT_ALIASES, args, body); /* wave32 */
    CHECK(r && !r->modelled);
    if (r) CHECK_STR_CONTAINS(r->reason, "tt.atomic_rmw: a tensor atomic whose layout broadcasts");
}

/* Direct-to-LDS loads (DirectToLdsLoadConversionBase): one load per vector
 * of the largest vectorisation, at most the op's contiguity, fitted to
 * CDNA3's 32 bits or CDNA4's 32 / 128.  Triton's lit test
 * test/Conversion/amd/buffer_load_to_local_to_llvm.mlir
 * (buffer_load_to_local_simple, 32x64 f32 on gfx942: "Each thread needs to
 * load 8 elements and we load 1 (sizePerThread) per buffer load
 * instruction", COMMON-COUNT-8) is the first case. */
static void test_direct_to_lds(void)
{
    const char *al = "#b = #ttg.blocked<{sizePerThread = [1, %d], threadsPerWarp = [%d, %d], warpsPerCTA = [4, 1], "
                     "order = [1, 0]}>\n"
                     "#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n";
    char aliases[512], body[512];
    const layout_triton_kernel_op *r;
    snprintf(aliases, sizeof aliases, al, 1, 1, 64);
    snprintf(body, sizeof body, "    %%t = amdg.buffer_load_to_local %%q[%%o] into %%d : <f32>[tensor<32x64xi32, #b>] "
                                "-> <32x64xf32, #s, #smem, mutable>\n");
    r = one("hip:gfx942", 64, 4, aliases,
            "%q: !tt.ptr<f32>, %o: tensor<32x64xi32, #b>, %d: !ttg.memdesc<32x64xf32, #s, #smem, mutable>", body);
    CHECK(r && r->modelled);
    if (r) {
        CHECK_EQ_I64(count(r, "buffer_load_dword lds"), 8);
        CHECK_EQ_I64(r->n_counts, 1);
        CHECK_EQ_I64(r->extra_cycles + r->total_cycles, 0); /* no DS instruction */
    }
    /* f16 64x64, sizePerThread [1, 8] on 8 x 8 lanes: 16 elements a thread */
    snprintf(aliases, sizeof aliases, al, 8, 8, 8);
    for (int t = 0; t < 3; t++) {
        const char *target = t == 1 ? "hip:gfx942" : "hip:gfx950";
        const char *contig = t == 2 ? " {contiguity = 2 : i32}" : "";
        snprintf(body, sizeof body, "    %%t = ttg.async_copy_global_to_local %%p, %%d%s : tensor<64x64x!tt.ptr<f16>, #b> "
                                    "-> <64x64xf16, #s, #smem, mutable>\n", contig);
        r = one(target, 64, 4, aliases,
                "%p: tensor<64x64x!tt.ptr<f16>, #b>, %d: !ttg.memdesc<64x64xf16, #s, #smem, mutable>", body);
        CHECK(r && r->modelled);
        if (!r) continue;
        /* gfx950: 8 x 16 bits = 128, 2 loads; gfx942: 32 bits, 8 loads;
         * contiguity 2 on gfx950: 32 bits, 8 loads */
        CHECK_EQ_I64(count(r, t == 0 ? "global_load_lds_dwordx4" : "global_load_lds_dword"), t == 0 ? 2 : 8);
        CHECK_EQ_I64(r->n_counts, 1);
    }
}

int main(void)
{
    RUN(test_histogram_by_hand);
    RUN(test_broadcast_atomic);
    RUN(test_direct_to_lds);
    return harness_finish("test_triton_scratch_ops");
}
