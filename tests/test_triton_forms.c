/* Triton 3.6 attribute forms and ranks the readers take as Triton does.
 *
 * Ranks past 8, as tl.sort makes them: its
 * lowering (python/triton/language/standard.py, sort -> _bitonic_merge ->
 * _compare_and_swap) reshapes a tensor of 2^n elements to n dims of 2 and
 * reduces along one of them, so a 1024-element sort is rank-10 tt.reduce
 * ops on a 10-dim #ttg.blocked.  ReduceOpToLLVM (triton-lang/triton
 * 9c3434b3, lib/Conversion/TritonGPUToLLVM/ReduceOpToLLVM.cpp) is rank
 * generic: its scratch is srcShape with the axis replaced by the warps
 * along it, so the figures below follow from the lowering alone:
 *
 *   tensor<2x..x2 (10 dims)>, sizePerThread all 1, threadsPerWarp 2 along
 *   dims 5..9 (32 lanes), warpsPerCTA 2 along dims 0 and 1 (4 warps),
 *   order [9..0]; dims 2, 3, 4 repeat in registers (8 per thread).
 *   Axis 0: one warp bit along it (S = 2); accumulators = the registers'
 *   non-axis coordinates = 8; scratch elems = 2^10 = 1024; threads = 128.
 *   storeWarpReduceToSharedMemory: 8 stores; accumulatePartialReductions:
 *   1024 / 128 = 8 rounds of a load and a store; loadReductionAndPackResult:
 *   8 loads (one per result element of a thread).  Per warp: 16
 *   st.shared.b32 and 16 ld.shared.b32.
 *
 * The same counts come from a rank-2 reduce over the same 1024 elements
 * (2 x 512, axis 0: registers 8 along dim 1, lanes 32 along dim 1, warps
 * 2 x 2): a differential check that the rank-10 path is the rank-2 one.
 * Before Triton attributes past 8 dims were read, the rank-10 op was not
 * modelled ("sizePerThread has more than 8 entries").  A rank-10
 * ttg.convert_layout is checked the same way against its rank-2 twin.
 * Then the 3.6 forms read as Triton reads them: a #ttg.linear on another
 * shape and a slice of one, CGALayout, an i1 reduce, padded_shared on a
 * subslice (listed), and the rank limit. */
#include "harness.h"
#include "layout.h"

#include <stdio.h>
#include <string.h>

static layout_ttgir mod;
static layout_triton_kernel kern;

static const char *const rank10_attr =
    "#b = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], threadsPerWarp = [1, 1, 1, 1, 1, 2, 2, 2, 2, "
    "2], warpsPerCTA = [2, 2, 1, 1, 1, 1, 1, 1, 1, 1], order = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]}>\n";
static const char *const rank2_attr =
    "#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>\n";

/* The module text: the attribute, then HEAD with the shapes (in, out). */
static void module_text_of(char *out, size_t cap, const char *attr, const char *in, const char *res, const char *ty,
                           const char *comb)
{
    size_t n = (size_t)snprintf(out, cap, "%s", attr);
    /* HEAD's %x / %a are SSA names: only the %s are formats (the rest doubled or not formats at all) */
    snprintf(out + n, cap - n, "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, "
                               "ttg.target = \"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
                               "  tt.func public @k(%%x: tensor<%sx%s, #b>) {\n"
                               "    %%r = \"tt.reduce\"(%%x) <{axis = 0 : i32}> ({\n"
                               "    ^bb0(%%a: %s, %%c: %s):\n"
                               "      %%s = %s %%a, %%c : %s\n"
                               "      tt.reduce.return %%s : %s\n"
                               "    }) : (tensor<%sx%s, #b>) -> tensor<%sx%s, #ttg.slice<{dim = 0, parent = #b}>>\n"
                               "    tt.return\n"
                               "  }\n"
                               "}\n",
             in, ty, ty, ty, comb, ty, ty, in, ty, res, ty);
}

static void module_text(char *out, size_t cap, const char *attr, const char *in, const char *res)
{
    module_text_of(out, cap, attr, in, res, "f32", "arith.addf");
}

/* The reduce's per-warp count of mnemonic mn; -1 when not modelled. */
static int64_t reduce_count(const char *text, const char *mn)
{
    layout_error e;
    int i, j;
    if (layout_ttgir_parse(text, strlen(text), &mod, &e) != LAYOUT_OK) {
        CHECK_MSG(0, "parse: %s", e.message);
        return -1;
    }
    if (layout_triton_kernel_analyze(&mod, NULL, &kern, &e) != LAYOUT_OK) {
        CHECK_MSG(0, "analyze: %s", e.message);
        return -1;
    }
    for (i = 0; i < kern.n_ops; i++) {
        const layout_triton_kernel_op *r = &kern.ops[i];
        int64_t c = 0;
        if (r->kind != LAYOUT_TTGIR_REDUCE) continue;
        if (!r->modelled) {
            CHECK_MSG(0, "not modelled: %s", r->reason);
            return -1;
        }
        for (j = 0; j < r->n_counts; j++)
            if (strcmp(r->counts[j].mnemonic, mn) == 0) c += r->counts[j].count;
        return c;
    }
    CHECK_MSG(0, "no tt.reduce among the ops");
    return -1;
}

static char text[16384];

static void test_rank10_reduce(void)
{
    module_text(text, sizeof text, rank10_attr, "2x2x2x2x2x2x2x2x2x2", "2x2x2x2x2x2x2x2x2");
    CHECK(reduce_count(text, "st.shared.b32") == 16);
    CHECK(reduce_count(text, "ld.shared.b32") == 16);
}

static void test_rank2_twin(void)
{
    module_text(text, sizeof text, rank2_attr, "2x512", "512");
    CHECK(reduce_count(text, "st.shared.b32") == 16);
    CHECK(reduce_count(text, "ld.shared.b32") == 16);
}

/* Past the reader's 20 dims: a clear error, not a crash. */
static void test_rank21_refused(void)
{
    layout_error e;
    char shape[128] = "2";
    for (int d = 1; d < 21; d++) strcat(shape, "x2");
    module_text(text, sizeof text, rank10_attr, shape, "2");
    CHECK(layout_ttgir_parse(text, strlen(text), &mod, &e) != LAYOUT_OK);
}

/* The linear layout of attribute `text` on `shape` (LAYOUT_OK or not). */
static layout_status on_shape(const char *text, int n, const int64_t *shape, layout_linear *ll)
{
    layout_triton_attr a;
    layout_error e;
    size_t where = 0;
    layout_status st = layout_triton_from_text(text, &a, &where, &e);
    if (st) return st;
    return layout_triton_to_linear(&a, n, shape, ll, &e);
}

/* The bases of in dim `in` of ll, flattened, into v: the count of bases
 * (-1 without the dim); zero register bases left out when skip_zero_regs. */
static int bases_of(const layout_linear *ll, const char *in, int skip_zero_regs, int64_t *v)
{
    int i = layout_linear_in_dim(ll, in), b, d, n = 0;
    if (i < 0) return -1;
    for (b = 0; b < ll->in_bits[i]; b++) {
        int64_t row[LAYOUT_LINEAR_MAX_DIMS], any = 0;
        layout_linear_get_basis(ll, i, b, row, NULL);
        for (d = 0; d < ll->n_out; d++) any |= row[d];
        if (skip_zero_regs && !any) continue;
        for (d = 0; d < ll->n_out; d++) v[n * ll->n_out + d] = row[d];
        n++;
    }
    return n;
}

/* A #ttg.linear on a tensor of another size, and a slice of one, is read as Triton's
 * LinearEncodingAttr::toLinearLayout reads it (ensureLayoutNotSmallerThan,
 * then ensureLayoutNotLargerThan with broadcastRegisters = false;
 * LayoutUtils.cpp at triton-lang/triton 0640b171).  Differential: the
 * blocked layout #B's linear layout on its own 16x16 tile, written as a
 * #ttg.linear, must give on every other shape what #B gives there
 * (BlockedEncodingAttr::toLinearLayout, already checked against Triton's
 * unit test) -- save that a blocked layout keeps a register that falls
 * outside the shape as a zero basis where the linear one drops it. */
static void test_linear_other_shapes(void)
{
    static const char *const blocked =
        "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>";
    static const int64_t shapes[][2] = {{16, 16}, {64, 16}, {16, 128}, {128, 64}, {8, 16}, {16, 4}, {2, 2}, {4, 256}};
    int64_t tile[2] = {16, 32};
    layout_linear lb, ll, t;
    char text[1024];
    size_t n;
    CHECK(on_shape(blocked, 2, tile, &t) == LAYOUT_OK);
    n = (size_t)snprintf(text, sizeof text, "#ttg.linear<{");
    for (int i = 0; i < t.n_in; i++) {
        n += (size_t)snprintf(text + n, sizeof text - n, "%s%s = [", i ? ", " : "", t.in_names[i]);
        for (int b = 0; b < t.in_bits[i]; b++) {
            int64_t row[2];
            layout_linear_get_basis(&t, i, b, row, NULL);
            n += (size_t)snprintf(text + n, sizeof text - n, "%s[%lld, %lld]", b ? ", " : "", (long long)row[0],
                                  (long long)row[1]);
        }
        n += (size_t)snprintf(text + n, sizeof text - n, "]");
    }
    snprintf(text + n, sizeof text - n, ", block = []}>");
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        static const char *const dims[3] = {"register", "lane", "warp"};
        int64_t a[64 * 2], b[64 * 2];
        CHECK(on_shape(blocked, 2, shapes[s], &lb) == LAYOUT_OK);
        if (on_shape(text, 2, shapes[s], &ll) != LAYOUT_OK) {
            CHECK_MSG(0, "%s on %lldx%lld refused", text, (long long)shapes[s][0], (long long)shapes[s][1]);
            continue;
        }
        CHECK(ll.out_bits[0] == lb.out_bits[0] && ll.out_bits[1] == lb.out_bits[1]);
        for (int d = 0; d < 3; d++) {
            int na = bases_of(&ll, dims[d], d == 0, a), nb = bases_of(&lb, dims[d], d == 0, b);
            CHECK_MSG(na == nb && memcmp(a, b, sizeof a[0] * 2 * (size_t)(na > 0 ? na : 0)) == 0,
                      "shape %lldx%lld: %s differs", (long long)shapes[s][0], (long long)shapes[s][1], dims[d]);
        }
        /* the linear layout drops the registers the blocked one zeroes: none is zero */
        CHECK(bases_of(&ll, "register", 0, a) == bases_of(&ll, "register", 1, b));
    }
    /* #ttg.slice of that #ttg.linear (SliceEncodingAttr takes any distributed
     * parent): the parent's layout on the shape with a 1 at `dim`, that dim
     * dropped, its zero registers removed -- equal to the slice of #B */
    for (int dim = 0; dim < 2; dim++)
        for (int64_t len = 1; len <= 256; len *= 4) {
            static const char *const dims[3] = {"register", "lane", "warp"};
            char stext[1200], btext[400];
            int64_t a[64], b[64];
            snprintf(stext, sizeof stext, "#ttg.slice<{dim = %d, parent = %s}>", dim, text);
            snprintf(btext, sizeof btext, "#ttg.slice<{dim = %d, parent = %s}>", dim, blocked);
            if (len == 1) { /* printed back as Triton prints it */
                layout_triton_attr at;
                layout_error e;
                char back[1200];
                size_t where = 0;
                CHECK(layout_triton_from_text(stext, &at, &where, &e) == LAYOUT_OK);
                CHECK(layout_triton_to_text(&at, back, sizeof back, &e) == LAYOUT_OK);
                CHECK_MSG(strcmp(back, stext) == 0, "%s printed as %s", stext, back);
            }
            CHECK(on_shape(btext, 1, &len, &lb) == LAYOUT_OK);
            if (on_shape(stext, 1, &len, &ll) != LAYOUT_OK) {
                CHECK_MSG(0, "%s on %lld refused", stext, (long long)len);
                continue;
            }
            for (int d = 0; d < 3; d++) {
                int na = bases_of(&ll, dims[d], 0, a), nb = bases_of(&lb, dims[d], 0, b);
                CHECK_MSG(na == nb && memcmp(a, b, sizeof a[0] * (size_t)(na > 0 ? na : 0)) == 0,
                          "slice dim %d on %lld: %s differs", dim, (long long)len, dims[d]);
            }
        }
}

/* CGALayout (Triton 3.6 prints it when ttg.num-ctas > 1): block bases.  All
 * zero, each CTA holds the whole tensor and combineCtaCgaWithShape divides
 * the shape by the CGA layout's out sizes, all 1: the layout is the one
 * without it.  A non-zero basis splits the tensor: refused, saying so. */
static void test_cga_layout(void)
{
    static const char *const pairs[][2] = {
        {"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], "
         "CGALayout = [[0, 0]]}>",
         "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"},
        {"#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[0, 0], [0, 0]], "
         "instrShape = [16, 64, 16]}>",
         "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>"},
    };
    int64_t shape[2] = {64, 64};
    layout_linear a, b;
    layout_triton_attr at;
    layout_error e;
    size_t where = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        CHECK(on_shape(pairs[i][0], 2, shape, &a) == LAYOUT_OK);
        CHECK(on_shape(pairs[i][1], 2, shape, &b) == LAYOUT_OK);
        CHECK(memcmp(a.bases, b.bases, sizeof a.bases) == 0 && a.total_in_bits == b.total_in_bits);
    }
    CHECK(layout_triton_from_text("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], "
                                  "CGALayout = [[0, 0], [0, 0]]}>",
                                  &at, &where, &e) == LAYOUT_OK);
    CHECK(layout_triton_from_text("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                                  "elementBitWidth = 16, CGALayout = []}>",
                                  &at, &where, &e) == LAYOUT_OK);
    CHECK(layout_triton_from_text("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], "
                                  "CGALayout = [[1, 0]]}>",
                                  &at, &where, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_MSG(strstr(e.message, "CGALayout") != NULL && where == 75, "%zu %s", where, e.message); /* column 76 */
}

/* An i1 tt.reduce (tl.reduce of a mask): ReduceOpHelper::getScratchSizeInBytes
 * sizes its scratch ceil(1, 8) = 1 byte an element and getSmemBases' GEPs
 * step over i1 by LLVM's alloc size, 1 byte: the same accesses as an i8
 * reduce of that layout (16 stores and 16 loads a warp, as above). */
static void test_i1_reduce(void)
{
    int64_t i1_st, i1_ld, i8_st, i8_ld;
    module_text_of(text, sizeof text, rank2_attr, "2x512", "512", "i1", "arith.ori");
    i1_st = reduce_count(text, "st.shared.b8");
    i1_ld = reduce_count(text, "ld.shared.b8");
    module_text_of(text, sizeof text, rank2_attr, "2x512", "512", "i8", "arith.ori");
    i8_st = reduce_count(text, "st.shared.b8");
    i8_ld = reduce_count(text, "ld.shared.b8");
    CHECK(i8_st == 16 && i8_ld == 16);
    CHECK(i1_st == i8_st && i1_ld == i8_ld);
}

/* padded_shared on a ttg.memdesc_subslice view (the view's type carries the
 * allocation's shape): listed as not modelled with that reason, not as a
 * mismatched shape. */
static void test_padded_subslice_listed(void)
{
    static const char *const src =
    "#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
    "#padded = #ttg.padded_shared<[64:+4] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], block = []}>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\", \"ttg.threads-per-warp\" = 64 : i32} {\n"
    "  tt.func public @k() {\n"
    "    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #padded, #smem, mutable>\n"
    "    %v = ttg.memdesc_subslice %a [32, 0] : !ttg.memdesc<64x64xf16, #padded, #smem, mutable> -> !ttg.memdesc<32x64xf16, #padded, #smem, mutable, 64x64>\n"
    "    %t = ttg.local_load %v : !ttg.memdesc<32x64xf16, #padded, #smem, mutable, 64x64> -> tensor<32x64xf16, #blocked>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";
    layout_error e;
    int i, seen = 0;
    CHECK(layout_ttgir_parse(src, strlen(src), &mod, &e) == LAYOUT_OK);
    CHECK(layout_triton_kernel_analyze(&mod, NULL, &kern, &e) == LAYOUT_OK);
    for (i = 0; i < kern.n_ops; i++) {
        if (kern.ops[i].modelled) continue;
        seen = 1;
        CHECK_MSG(strstr(kern.ops[i].reason, "ttg.memdesc_subslice") != NULL, "%s", kern.ops[i].reason);
    }
    CHECK(seen);
}

/* The rank limit (docs/limits.md): 20 entries read, 21 refused. */
static void test_rank_limit(void)
{
    for (int n = 20; n <= 21; n++) {
        char t[1024];
        size_t k = 0, where = 0;
        int64_t shape[LAYOUT_TRITON_MAX_RANK];
        layout_triton_attr a;
        layout_linear ll;
        layout_error e;
        const char *const keys[4] = {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"};
        k += (size_t)snprintf(t + k, sizeof t - k, "#ttg.blocked<{");
        for (int f = 0; f < 4; f++) {
            k += (size_t)snprintf(t + k, sizeof t - k, "%s%s = [", f ? ", " : "", keys[f]);
            for (int d = 0; d < n; d++)
                k += (size_t)snprintf(t + k, sizeof t - k, "%s%d", d ? ", " : "",
                                      f == 3 ? n - 1 - d : f == 1 && d >= n - 5 ? 2 : 1);
            k += (size_t)snprintf(t + k, sizeof t - k, "]");
        }
        snprintf(t + k, sizeof t - k, "}>");
        if (n == 21) {
            CHECK(layout_triton_from_text(t, &a, &where, &e) == LAYOUT_ERR_CAPACITY);
            continue;
        }
        CHECK(layout_triton_from_text(t, &a, &where, &e) == LAYOUT_OK);
        for (int d = 0; d < n; d++) shape[d] = 2;
        CHECK(layout_triton_to_linear(&a, n, shape, &ll, &e) == LAYOUT_OK);
        CHECK(ll.n_out == 20 && ll.total_out_bits == 20 && ll.in_bits[0] == 15 && ll.in_bits[1] == 5);
    }
}

/* A rank-10 ttg.convert_layout (ConvertLayoutOpToLLVM works on linear
 * layouts of any rank) and its rank-2 twin: the same 1024 elements, the
 * same hardware bits per element (10-D dims 0..4 are the 2-D rows' bits
 * 4..0, dims 5..9 the columns'), so the same accesses.  Differential. */
static void convert_counts(const char *src, layout_triton_kernel_count *out, int *n)
{
    layout_error e;
    *n = -1;
    if (layout_ttgir_parse(src, strlen(src), &mod, &e) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&mod, NULL, &kern, &e) != LAYOUT_OK || kern.n_ops != 1 || !kern.ops[0].modelled) {
        CHECK_MSG(0, "%s", kern.n_ops == 1 ? kern.ops[0].reason : e.message);
        return;
    }
    *n = kern.ops[0].n_counts;
    memcpy(out, kern.ops[0].counts, sizeof kern.ops[0].counts);
}

static void test_rank10_convert(void)
{
    static const char *const rank10 =
    "#b = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], threadsPerWarp = [1, 1, 1, 1, 1, 2, 2, 2, 2, 2], warpsPerCTA = [2, 2, 1, 1, 1, 1, 1, 1, 1, 1], order = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]}>\n"
    "#c = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], threadsPerWarp = [2, 2, 2, 2, 2, 1, 1, 1, 1, 1], warpsPerCTA = [1, 1, 1, 1, 1, 1, 1, 1, 2, 2], order = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
    "  tt.func public @k(%x: tensor<2x2x2x2x2x2x2x2x2x2xf32, #b>) {\n"
    "    %y = ttg.convert_layout %x : tensor<2x2x2x2x2x2x2x2x2x2xf32, #b> -> tensor<2x2x2x2x2x2x2x2x2x2xf32, #c>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";
    static const char *const rank2 =
    "#b = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
    "#c = #ttg.linear<{register = [[0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 1], [0, 2]], block = []}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
    "  tt.func public @k(%x: tensor<32x32xf32, #b>) {\n"
    "    %y = ttg.convert_layout %x : tensor<32x32xf32, #b> -> tensor<32x32xf32, #c>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";
    static layout_triton_kernel_count a[LAYOUT_TRITON_KERNEL_MAX_OP_MNEMONICS], b[LAYOUT_TRITON_KERNEL_MAX_OP_MNEMONICS];
    int na, nb;
    convert_counts(rank10, a, &na);
    convert_counts(rank2, b, &nb);
    CHECK(na > 0 && na == nb);
    for (int i = 0; i < na && na == nb; i++)
        CHECK_MSG(strcmp(a[i].mnemonic, b[i].mnemonic) == 0 && a[i].count == b[i].count, "%s x%lld vs %s x%lld",
                  a[i].mnemonic, (long long)a[i].count, b[i].mnemonic, (long long)b[i].count);
}

/* Recorded compiler output (tests/fixtures/triton/probe_i1: probe_i1.py run
 * with Triton 3.6.0 on the GPU machine, 2026-12-01): an i1 tl.reduce over
 * the 64 rows of a 64x32 tile, 4 warps, compiles to the same shared
 * accesses as the i8 one -- sm_90 2 st.shared.b8 + 2 ld.shared.b8, gfx942
 * 2 ds_write_b8 + 2 ds_read_u8, 128 bytes of shared memory.  The model of
 * each i1 TTGIR predicts its ISA's counts. */
static char probe_buf[1 << 16];

static int64_t isa_count(const char *isa, const char *mn)
{
    int64_t n = 0;
    size_t l = strlen(mn);
    for (const char *p = strstr(isa, mn); p; p = strstr(p + l, mn))
        if (p[l] == ' ' || p[l] == '\t') n++;
    return n;
}

static void test_i1_reduce_recorded(void)
{
    static const struct {
        const char *name, *st, *ld;
    } cases[] = {{"any_rows_i1_90", "st.shared.b8", "ld.shared.b8"},
                 {"any_rows_i1_gfx942", "ds_write_b8", "ds_read_u8"}};
    const char *fl = __FILE__, *slash = strrchr(fl, '/');
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[700];
        int64_t want_st, want_ld;
        FILE *f;
        size_t n;
        snprintf(path, sizeof path, "%.*s/fixtures/triton/probe_i1/%s.%s", slash ? (int)(slash - fl) : 1,
                 slash ? fl : ".", cases[i].name, strstr(cases[i].name, "gfx") ? "amdgcn" : "ptx");
        if (!(f = fopen(path, "rb"))) {
            CHECK_MSG(0, "no %s", path);
            continue;
        }
        n = fread(probe_buf, 1, sizeof probe_buf - 1, f);
        fclose(f);
        probe_buf[n] = '\0';
        want_st = isa_count(probe_buf, cases[i].st);
        want_ld = isa_count(probe_buf, cases[i].ld);
        CHECK(want_st == 2 && want_ld == 2);
        snprintf(path + strlen(path) - (strstr(cases[i].name, "gfx") ? 6 : 3), 8, "ttgir");
        if (!(f = fopen(path, "rb"))) {
            CHECK_MSG(0, "no %s", path);
            continue;
        }
        n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        CHECK_MSG(reduce_count(text, cases[i].st) == want_st, "%s: %s", cases[i].name, cases[i].st);
        CHECK_MSG(reduce_count(text, cases[i].ld) == want_ld, "%s: %s", cases[i].name, cases[i].ld);
    }
}

int main(void)
{
    RUN(test_rank10_reduce);
    RUN(test_rank2_twin);
    RUN(test_rank21_refused);
    RUN(test_linear_other_shapes);
    RUN(test_cga_layout);
    RUN(test_i1_reduce);
    RUN(test_i1_reduce_recorded);
    RUN(test_padded_subslice_listed);
    RUN(test_rank_limit);
    RUN(test_rank10_convert);
    return harness_finish("test_triton_forms");
}
