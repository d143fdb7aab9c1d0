/* No silent omissions: every op of a TTGIR text whose lowering may touch
 * shared memory is in the kernel report, modelled or not modelled with a
 * reason.  The ops are found by this test's own scan of the text, not by
 * the library's list, with rules read off Triton 3.6's dialects and its
 * allocation analysis (lib/Analysis/Allocation.cpp gives scratch, printed
 * as `allocation.offset`, to every op whose lowering needs it):
 *   - any op carrying `allocation.offset`;
 *   - tt.reduce, tt.scan, tt.histogram, tt.gather, ttg.convert_layout,
 *     ttg.warp_specialize (the ops Triton gives scratch);
 *   - every ttg.local_* / ttg.async_* / ttng.* / amdg.* op on a memdesc,
 *     except those that issue no access of shared memory: ttg.memdesc_*
 *     views, ttg.local_dealloc, ttg.local_alloc without an operand,
 *     ttng.warp_group_dot_wait, ttg.async_wait, ttg.async_commit_group;
 *   - tt.atomic_rmw / tt.atomic_cas on a scalar (its result is broadcast
 *     through shared memory); a tensor one whose result is used is reported
 *     too (scratch when its layout broadcasts), which this scan does not
 *     require.
 * Walked: every corpus kernel (tests/fixtures/triton/kernels/ *.ttgir) and
 * hand-written snippets with tt.scan (within and across warps),
 * tt.histogram, tt.gather, an unknown ttng op on a memdesc, an op with
 * allocation.offset, a scalar atomic. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"

#include <dirent.h>

#define MAX_EXPECT 4096

static layout_ttgir g_m;
static layout_triton_kernel g_k;
static char g_text[1 << 21], g_json[1 << 22];

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

static int has(const char *ls, const char *le, const char *lit)
{
    size_t k = strlen(lit);
    for (; ls + k <= le; ls++)
        if (memcmp(ls, lit, k) == 0) return 1;
    return 0;
}

static int starts(const char *name, const char *prefix) { return strncmp(name, prefix, strlen(prefix)) == 0; }

/* The op name of line [ls, le) (after `%r, %s =`, or quoted), "" if none. */
static void op_name(const char *ls, const char *le, char *name, size_t cap, const char **after)
{
    const char *p = ls, *q;
    size_t n;
    name[0] = '\0';
    *after = le;
    while (p < le && (*p == ' ' || *p == '\t')) p++;
    if (p < le && *p == '%') {
        const char *eq = p;
        while (eq < le && *eq != '=' && *eq != '{' && *eq != '"') eq++;
        if (eq >= le || *eq != '=') return;
        p = eq + 1;
        while (p < le && *p == ' ') p++;
    }
    if (p < le && *p == '"') p++;
    for (q = p; q < le && is_name_char(*q); q++) {}
    n = (size_t)(q - p);
    if (n == 0 || n >= cap || !memchr(p, '.', n)) return;
    memcpy(name, p, n);
    name[n] = '\0';
    if (q < le && *q == '"') q++;
    *after = q;
}

/* This test's rule: may op `name` on line [ls, le) touch shared memory? */
static int expected(const char *name, const char *after, const char *ls, const char *le)
{
    static const char *const scratch[] = {"tt.reduce", "tt.scan", "tt.histogram", "tt.gather", "ttg.convert_layout",
                                          "ttg.warp_specialize"};
    int on_memdesc = has(ls, le, "memdesc<") || has(ls, le, "#smem");
    size_t i;
    if (has(ls, le, "allocation.offset")) return 1;
    for (i = 0; i < sizeof scratch / sizeof scratch[0]; i++)
        if (strcmp(name, scratch[i]) == 0) return 1;
    if (strcmp(name, "tt.atomic_rmw") == 0 || strcmp(name, "tt.atomic_cas") == 0) return !has(ls, le, "tensor<");
    if (starts(name, "ttg.memdesc_") || strcmp(name, "ttg.local_dealloc") == 0 ||
        strcmp(name, "ttng.warp_group_dot_wait") == 0 || strcmp(name, "ttg.async_wait") == 0 ||
        strcmp(name, "ttg.async_commit_group") == 0)
        return 0;
    if (strcmp(name, "ttg.local_alloc") == 0) { /* an operand: it stores; none: only allocates */
        while (after < le && *after == ' ') after++;
        return after < le && *after == '%';
    }
    if (starts(name, "ttg.local_") || starts(name, "ttg.async_") || starts(name, "ttng.") || starts(name, "amdg.") ||
        starts(name, "amdgpu."))
        return on_memdesc;
    return 0;
}

/* Lines (1-based) of the ops this test expects in the report. */
static int scan_expected(const char *t, size_t n, int *lines)
{
    int count = 0, line = 0;
    size_t ls = 0;
    while (ls < n) {
        size_t le = ls;
        char name[96];
        const char *after;
        while (le < n && t[le] != '\n') le++;
        line++;
        op_name(t + ls, t + le, name, sizeof name, &after);
        if (name[0] && t[ls] != '#' && expected(name, after, t + ls, t + le) && count < MAX_EXPECT)
            lines[count++] = line;
        ls = le + 1;
    }
    return count;
}

/* Check one text: every expected op has a report, a modelled one or one
 * with a reason, and the JSON lists it under "ops" or "not_modelled". */
static void check_text(const char *what, const char *text, size_t n, int min_expected)
{
    static int lines[MAX_EXPECT];
    layout_error err;
    int n_exp = scan_expected(text, n, lines), i, j;
    CHECK_MSG(n_exp >= min_expected, "%s: %d ops expected, at least %d", what, n_exp, min_expected);
    CHECK_MSG(layout_ttgir_parse(text, n, &g_m, &err) == LAYOUT_OK, "%s: %s", what, err.message);
    CHECK_MSG(layout_triton_kernel_report_json(&g_m, NULL, &g_k, g_json, sizeof g_json, &err) == LAYOUT_OK, "%s: %s",
              what, err.message);
    for (i = 0; i < n_exp; i++) {
        const layout_triton_kernel_op *r = NULL;
        char want[64];
        for (j = 0; j < g_k.n_ops; j++)
            if (g_k.ops[j].line == lines[i]) r = &g_k.ops[j];
        CHECK_MSG(r != NULL, "%s: the op of line %d is neither modelled nor listed as not modelled", what, lines[i]);
        if (!r) continue;
        CHECK_MSG(r->modelled || r->reason[0], "%s: line %d: not modelled without a reason", what, lines[i]);
        snprintf(want, sizeof want, "\"line\":%d,", lines[i]);
        CHECK_MSG(strstr(g_json, want) != NULL, "%s: line %d missing from the JSON", what, lines[i]);
    }
}

static void test_corpus(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    char dir[512], path[1024];
    int files = 0;
    DIR *d;
    struct dirent *e;
    snprintf(dir, sizeof dir, "%.*s/fixtures/triton/kernels", slash ? (int)(slash - f) : 1, slash ? f : ".");
    d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open %s", dir);
    if (!d) return;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name), n;
        FILE *fp;
        if (len < 7 || strcmp(e->d_name + len - 6, ".ttgir") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        fp = fopen(path, "rb");
        if (!fp) continue;
        n = fread(g_text, 1, sizeof g_text - 1, fp);
        fclose(fp);
        g_text[n] = '\0';
        check_text(e->d_name, g_text, n, 1); /* every corpus kernel has a shared-memory op */
        files++;
    }
    closedir(d);
    CHECK_EQ_I64(files, 66);
}

#define HEAD(target, lanes)                                                                                          \
    "#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, "  \
    "0]}>\n"                                                                                                         \
    "#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>\n"             \
    "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n"                        \
    "#smem = #ttg.shared_memory\n"                                                                                   \
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"" target "\", "     \
    "\"ttg.threads-per-warp\" = " lanes " : i32} {\n"                                                                \
    "  tt.func public @k(%p: !tt.ptr<f32>, %x: tensor<64x64xf32, #blocked>, %i: tensor<64x64xi32, #blocked>, "       \
    "%h: tensor<256xi32, #b1>) {\n"

#define SCAN(axis, res)                                                                                              \
    "    " res " = \"tt.scan\"(%x) <{axis = " axis " : i32, reverse = false}> ({\n"                                  \
    "    ^bb0(%a: f32 loc(unknown), %b: f32 loc(unknown)):\n"                                                       \
    "      %s = arith.addf %a, %b : f32 loc(#loc1)\n"                                                               \
    "      tt.scan.return %s : f32 loc(#loc1)\n"                                                                    \
    "    }) : (tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> loc(#loc2)\n"

static const char k_snippet[] =
    HEAD("hip:gfx942", "64")
    SCAN("1", "%0")  /* line 7: the axis within each warp: modelled, no instruction */
    SCAN("0", "%1")  /* line 12: the axis across the 4 warps: the scratch exchange */
    "    %2 = tt.histogram %h : tensor<256xi32, #b1> -> tensor<64xi32, #b1> loc(#loc2)\n"
    "    %3 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<64x64xf32, #blocked>, tensor<64x64xi32, #blocked>) -> "
    "tensor<64x64xf32, #blocked> loc(#loc2)\n"
    "    %4 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable> loc(#loc2)\n"
    "    ttng.frobnicate_shared %4 : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> loc(#loc2)\n"
    "    %5 = tt.sort_by_key %x {allocation.offset = 0 : i32} : tensor<64x64xf32, #blocked> loc(#loc2)\n"
    "    %6 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %c : (!tt.ptr<f32>, f32) -> f32 loc(#loc2)\n"
    "    %7 = \"amdg.some_new_op\"(%4) : (!ttg.memdesc<64x64xf32, #shared, #smem, mutable>) -> i32 loc(#loc2)\n"
    "    ttg.local_dealloc %4 : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> loc(#loc2)\n"
    "    tt.return loc(#loc2)\n"
    "  } loc(#loc2)\n"
    "} loc(#loc2)\n"
    "#loc1 = loc(\"k.py\":3:4)\n"
    "#loc2 = loc(\"k.py\":5:6)\n";

static const layout_triton_kernel_op *report_at(int line)
{
    for (int j = 0; j < g_k.n_ops; j++)
        if (g_k.ops[j].line == line) return &g_k.ops[j];
    return NULL;
}

static void test_snippets(void)
{
    const layout_triton_kernel_op *r;
    check_text("snippet", k_snippet, sizeof k_snippet - 1, 8);
    /* the scan within warps: modelled with no shared-memory instruction */
    r = report_at(7);
    CHECK(r && r->kind == LAYOUT_TTGIR_SCAN && r->modelled && r->n_counts == 0);
    /* across warps, worked out by hand from ScanOpToLLVM.cpp (v3.6.1):
     * blocked [1,4] / [4,16] / [4,1], axis 0, 64x64, 64 lanes.  S = 4 warps
     * along the axis; contig along it A = 1, E = 4 parallel elements; the
     * parallel threads N = 16 (lanes along dim1); blocks: 64 / (1*4*4) = 4
     * along the axis, 1 across; 16 registers = 16 chunks.  Stores: one per
     * chunk at element P + 16 * (warp + 4c), chunk c and c + 1 are 64
     * elements apart -> 8 ds_write2st64_b32.  Loads: 16 chunks x 4 = 64, less
     * the dead i = 3 load of each of the 4 accumulators' last chunk = 60, at
     * elements 16k -> neighbours pair, 30 ds_read2_b32.  Only the lanes with
     * laneIdAxis = 3 store: 16 of 64 lanes, 16 consecutive words. */
    r = report_at(12);
    CHECK(r && r->kind == LAYOUT_TTGIR_SCAN && r->modelled);
    if (r) {
        int64_t w2 = 0, r2 = 0;
        for (int j = 0; j < r->n_counts; j++) {
            if (strcmp(r->counts[j].mnemonic, "ds_write2st64_b32") == 0) w2 = r->counts[j].count;
            if (strcmp(r->counts[j].mnemonic, "ds_read2_b32") == 0) r2 = r->counts[j].count;
        }
        CHECK_EQ_I64(r->n_counts, 2);
        CHECK_EQ_I64(w2, 8);
        CHECK_EQ_I64(r2, 30);
        CHECK_EQ_I64(r->n_accesses, 16 + 60);
        CHECK_EQ_I64(r->cvt_scratch_bytes, 4 * 16 * 4 * 4 * 4); /* warps x N_w x E x blocks x 4 B */
        CHECK_EQ_I64(r->extra_cycles, 0);
    }
    /* HistogramOpToLLVM: 64 bins, 64 lanes, 4 warps, result [1] / [64] / [4]:
     * B = 64; ceil(64 / 256) = 1 zeroing store, 64 / 64 = 1 atomic add, one
     * result register: 1 load; scratch 64 x 4 B (Allocation.cpp) */
    r = report_at(17);
    CHECK(r && r->kind == LAYOUT_TTGIR_HISTOGRAM && r->modelled);
    if (r) {
        CHECK_EQ_I64(r->n_counts, 3);
        CHECK_EQ_I64(r->n_accesses, 3);
        CHECK_EQ_I64(r->cvt_scratch_bytes, 256);
    }
    /* tt.gather along dim 0, whose 4 warps lie along dim 0: not warp-local
     * (GatherLoweringHelper::isWarpLocal wants no warp basis along the
     * axis), so through shared scratch.  A thread holds 64 x 64 / 256 = 16
     * elements, 4 runs of 4 along dim 1 (sizePerThread [1, 4]): stored
     * row-major, each run one 16-byte ds_write_b128; then one 4-byte load
     * per result element at a data-dependent address: 16 ds_read_b32,
     * costed as a lower bound (confidence low). */
    r = report_at(18);
    CHECK(r && r->kind == LAYOUT_TTGIR_GATHER && r->modelled);
    if (r) {
        const char *note = NULL;
        int64_t w128 = 0, r32 = 0;
        for (int j = 0; j < r->n_counts; j++) {
            if (strcmp(r->counts[j].mnemonic, "ds_write_b128") == 0) w128 = r->counts[j].count;
            if (strcmp(r->counts[j].mnemonic, "ds_read_b32") == 0) r32 = r->counts[j].count;
        }
        CHECK_EQ_I64(r->n_counts, 2);
        CHECK_EQ_I64(w128, 4);
        CHECK_EQ_I64(r32, 16);
        CHECK_EQ_I64(r->n_accesses, 20);
        CHECK_EQ_I64(layout_triton_kernel_op_confidence(&g_k, r, &note), LAYOUT_CONFIDENCE_LOW);
        CHECK(note && strstr(note, "depends on the index values") != NULL);
    }
    r = report_at(20);
    CHECK(r && r->kind == LAYOUT_TTGIR_OTHER_SHARED && !r->modelled);
    if (r) CHECK_STR_CONTAINS(r->reason, "ttng.frobnicate_shared: an op on a shared-memory descriptor");
    r = report_at(21);
    CHECK(r && !r->modelled);
    if (r) CHECK_STR_CONTAINS(r->reason, "tt.sort_by_key: Triton's allocation gave it shared scratch");
    r = report_at(22);
    CHECK(r && !r->modelled);
    if (r) CHECK_STR_CONTAINS(r->reason, "tt.atomic_rmw: a scalar atomic");
    r = report_at(23);
    CHECK(r && !r->modelled);
    if (r) CHECK_STR_CONTAINS(r->reason, "amdg.some_new_op:");
    CHECK_STR_CONTAINS(g_json, "\"op\":\"ttng.frobnicate_shared\"");
    /* views, deallocs and a bare allocation issue no access: no report */
    CHECK(report_at(19) == NULL && report_at(24) == NULL);
}

/* The test's own scan can fail: a report that drops an op is caught. */
static void test_scan_catches_omission(void)
{
    static int lines[MAX_EXPECT];
    int n = scan_expected(k_snippet, sizeof k_snippet - 1, lines), i, seen7 = 0, seen20 = 0;
    for (i = 0; i < n; i++) {
        seen7 += lines[i] == 7;
        seen20 += lines[i] == 20;
    }
    CHECK(seen7 == 1 && seen20 == 1);
    CHECK_EQ_I64(n, 8); /* scan x2, histogram, gather, frobnicate, allocation.offset, atomic, amdg op */
}

int main(void)
{
    RUN(test_corpus);
    RUN(test_snippets);
    RUN(test_scan_catches_omission);
    return harness_finish("test_triton_coverage");
}
