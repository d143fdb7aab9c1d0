/* `layout triton` run as a program (path from -DLAYOUT_TOOL_PATH): text and
 * JSON reports of a real Triton 3.6 kernel, agreeing with the library;
 * stdin, --arch, bad input (exit 2 with the reader's line and column). */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"
#include "support/tool_run.h"

#include <unistd.h>

#ifndef LAYOUT_TOOL_PATH
#define LAYOUT_TOOL_PATH ""
#endif

static const char *g_tool = LAYOUT_TOOL_PATH;
static char g_out[1 << 18], g_err[1 << 14], g_kernel_path[512], g_out_path[64], g_err_path[64];
/* `layout ARGS` (shell text), a sanitizer report a distinct exit code */
static tool_runner g_run = {NULL, TOOL_RUN_SANITIZER_ENV, NULL, g_out_path, g_err_path, 1, g_out, sizeof g_out, g_err, sizeof g_err};
#define run_tool(...) tool_run(&g_run, __VA_ARGS__)
static layout_ttgir g_mod;
static layout_triton_kernel g_k;
static char g_text[1 << 20];

static void find_kernel(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    int n = slash ? (int)(slash - f) : 1;
    snprintf(g_kernel_path, sizeof g_kernel_path,
             "%.*s/fixtures/triton/kernels/matmul_fp16_64x64x32_w4_s2_gfx942.ttgir", n, slash ? f : ".");
}

static void test_text_and_json(void)
{
    FILE *f = fopen(g_kernel_path, "rb");
    size_t n = f ? fread(g_text, 1, sizeof g_text - 1, f) : 0;
    char want[128];
    int i;
    if (f) fclose(f);
    g_text[n] = 0;
    CHECK(layout_ttgir_parse(g_text, n, &g_mod, NULL) == LAYOUT_OK);
    CHECK(layout_triton_kernel_analyze(&g_mod, NULL, &g_k, NULL) == LAYOUT_OK);
    /* The A tile of the gfx942 matmul: its AMDGCN has 8 ds_write_b16 and 4
     * ds_read_b64 at gen_kernels.py:49:30 (the .loc directives). */
    CHECK_EQ_I64(run_tool("triton '%s'", g_kernel_path), g_k.extra_cycles > 0 ? 1 : 0);
    CHECK_STR_CONTAINS(g_out, "arch gfx942");
    CHECK_STR_CONTAINS(g_out, "8 ds_write_b16");
    CHECK_STR_CONTAINS(g_out, "4 ds_read_b64");
    CHECK_STR_CONTAINS(g_out, "gen_kernels.py\":49:30");
    CHECK_STR_CONTAINS(g_out, "per warp total:");
    CHECK_EQ_I64(run_tool("triton --json '%s'", g_kernel_path), g_k.extra_cycles > 0 ? 1 : 0);
    CHECK_STR_CONTAINS(g_out, "{\"target\":\"hip:gfx942\"");
    CHECK_STR_CONTAINS(g_out, "\"per_warp_total\":{");
    CHECK_STR_CONTAINS(g_out, "\"not_modelled\":[");
    CHECK_STR_CONTAINS(g_out, "\"totals\":{");
    for (i = 0; i < g_k.n_per_warp; i++) {
        snprintf(want, sizeof want, "\"%s\":%lld", g_k.per_warp_total[i].mnemonic,
                 (long long)g_k.per_warp_total[i].count);
        CHECK_STR_CONTAINS(g_out, want);
    }
    /* stdin, and --arch overriding the target */
    {
        layout_arch a;
        CHECK(layout_arch_preset("gfx950", &a, NULL) == LAYOUT_OK);
        CHECK(layout_triton_kernel_analyze(&g_mod, &a, &g_k, NULL) == LAYOUT_OK);
    }
    CHECK_EQ_I64(run_tool("triton --arch gfx950 - < '%s'", g_kernel_path), g_k.extra_cycles > 0 ? 1 : 0);
    CHECK_STR_CONTAINS(g_out, "arch gfx950");
    /* rowsum on sm_90: its tt.reduce is modelled (the PTX's 17 st.shared.b32
     * and 17 ld.shared.b32 of the scratch), and so is its result's
     * convert_layout (within a warp, where cvtNeedsWarpShuffle declines:
     * the PTX's 4 st.shared.v4.b32 and 1 ldmatrix.x1 at 68:25); the fp16
     * matmul on sm_90 costs its warp_group_dot's tensor-core reads. */
    {
        char path[600];
        int dir = (int)(strrchr(g_kernel_path, '/') - g_kernel_path);
        snprintf(path, sizeof path, "%.*s/rowsum_fp16_16x256_w8_s1_sm90.ttgir", dir, g_kernel_path);
        CHECK_EQ_I64(run_tool("triton '%s'", path), 0);
        CHECK_STR_CONTAINS(g_out, "per warp total: 17 st.shared.b32, 17 ld.shared.b32, 4 st.shared.v4.b32, "
                                  "1 ldmatrix.sync.aligned.m8n8.x1.shared.b16");
        CHECK_STR_CONTAINS(g_out, "scratch 512 bytes"); /* the .json's "shared": 512 */
        CHECK(strstr(g_out, "not modelled") == NULL);
        CHECK_EQ_I64(run_tool("triton --json '%s'", path), 0);
        CHECK_STR_CONTAINS(g_out, "\"not_modelled\":[]");
        snprintf(path, sizeof path, "%.*s/matmul_fp16_64x64x32_w4_s2_sm90.ttgir", dir, g_kernel_path);
        CHECK_EQ_I64(run_tool("triton '%s'", path), 0);
        /* its warp_group_dot: A 64x32 and B 32x64 fp16 in shared memory,
         * warpsPerCTA [4, 1] (one warpgroup), instrShape [16, 64, 16]: 2
         * wgmma along K, each reading 64x16 + 16x64 halves = 4096 bytes =
         * 32 wavefronts: 64 per CTA, 16 per warp, no conflict
         * (tests/fixtures/triton/corpus/gmma, measured) */
        CHECK_STR_CONTAINS(g_out, "tensor-core reads (wgmma descriptors, no LSU instruction): 64 wavefronts, 0 bank "
                                  "conflicts per CTA (16 per warp");
        CHECK(strstr(g_out, "not modelled") == NULL);
        CHECK_EQ_I64(run_tool("triton --json '%s'", path), 0);
        CHECK_STR_CONTAINS(g_out, "\"not_modelled\":[]");
        CHECK_STR_CONTAINS(g_out, "\"op\":\"ttng.warp_group_dot\",\"line\":");
        CHECK_STR_CONTAINS(g_out, "\"instructions\":{},\"cost\":{\"wavefronts\":16,\"bank_conflicts\":0,"
                                  "\"conflicted\":0,\"cta_wavefronts\":64,\"cta_bank_conflicts\":0}");
    }
    CHECK_EQ_I64(run_tool("triton --help"), 0);
    CHECK_STR_CONTAINS(g_out, "usage: layout triton");
}

/* --json prints exactly the library's layout_triton_kernel_report_json();
 * --suggest prints each allocation's current and suggested attribute with
 * the library's costs; --html writes one page with a tab per op. */
static void test_suggest_json_html(void)
{
    static char lib_json[1 << 18], page[1 << 20];
    static layout_triton_kernel work;
    static layout_triton_kernel_suggestions s;
    char path[600], want[400], html_path[64];
    size_t n;
    FILE *f;
    int i;
    snprintf(path, sizeof path, "%.*s/matmul_fp16_64x64x32_w4_s2_gfx950.ttgir",
             (int)(strrchr(g_kernel_path, '/') - g_kernel_path), g_kernel_path);
    f = fopen(path, "rb");
    n = f ? fread(g_text, 1, sizeof g_text - 1, f) : 0;
    if (f) fclose(f);
    g_text[n] = 0;
    CHECK(layout_ttgir_parse(g_text, n, &g_mod, NULL) == LAYOUT_OK);
    CHECK(layout_triton_kernel_report_json(&g_mod, NULL, &work, lib_json, sizeof lib_json, NULL) == LAYOUT_OK);
    CHECK(layout_triton_kernel_suggest(&work, NULL, &s, NULL) == LAYOUT_OK);
    run_tool("triton --json '%s'", path);
    CHECK_EQ_I64(strlen(g_out), strlen(lib_json) + 1);
    CHECK(strncmp(g_out, lib_json, strlen(lib_json)) == 0 && g_out[strlen(lib_json)] == '\n');
    /* The lint policy: this kernel's only conflicts are
     * its B operand's ds_read_b64_tr_b16, whose bank rule the library calls
     * low confidence (layout_triton_kernel_op_confidence's own example):
     * exit 0 by default, 1 with --strict, and --fail-above the kernel's
     * cycles passes again. */
    CHECK(work.extra_cycles > 0);
    for (i = 0; i < work.n_ops; i++)
        if (work.ops[i].extra_cycles > 0) {
            CHECK(work.ops[i].n_counts == 1 && strcmp(work.ops[i].counts[0].mnemonic, "ds_read_b64_tr_b16") == 0);
            CHECK(layout_triton_kernel_op_confidence(&work, &work.ops[i], NULL) == LAYOUT_CONFIDENCE_LOW);
        }
    CHECK_EQ_I64(run_tool("triton --suggest '%s'", path), 0);
    snprintf(want, sizeof want, "lint: exit 0: none of the %lld extra cycles is of high confidence",
             (long long)work.extra_cycles);
    CHECK_STR_CONTAINS(g_out, want);
    CHECK_EQ_I64(run_tool("triton --strict '%s'", path), 1);
    snprintf(want, sizeof want, "lint: exit 1: --strict counts all %lld extra cycles\n", (long long)work.extra_cycles);
    CHECK_STR_CONTAINS(g_out, want);
    CHECK_EQ_I64(run_tool("triton --strict --json '%s'", path), 1);
    CHECK_EQ_I64(run_tool("triton --strict --fail-above %lld '%s'", (long long)work.extra_cycles, path), 0);
    CHECK_EQ_I64(run_tool("triton --strict --fail-above %lld '%s'", (long long)work.extra_cycles - 1, path), 1);
    CHECK_EQ_I64(run_tool("triton --fail-above x '%s'", path), 2);
    CHECK_STR_CONTAINS(g_err, "--fail-above 'x' is not an integer");
    run_tool("triton --suggest '%s'", path);
    CHECK_STR_CONTAINS(g_out, "suggestions (2 allocations; LDS 163840 bytes");
    CHECK(s.n_allocs == 2);
    for (i = 0; i < s.n_allocs; i++) {
        snprintf(want, sizeof want, "  current:   %s\n             %lld cycles (%lld extra)", s.allocs[i].current,
                 (long long)s.allocs[i].current_cost, (long long)s.allocs[i].current_extra);
        CHECK_STR_CONTAINS(g_out, want);
        if (!s.allocs[i].searched) continue;
        snprintf(want, sizeof want, "  suggested: %s\n             %lld cycles (%lld extra)", s.allocs[i].attr,
                 (long long)s.allocs[i].cost, (long long)s.allocs[i].extra);
        CHECK_STR_CONTAINS(g_out, want);
    }
    /* A kept allocation: allocation 1 feeds the
     * ds_read_b64_tr_b16 reader, so rule ds-read-tr-reader (docs/triton.md's
     * rules table) keeps it and no search runs: the output says so and why,
     * never "nothing better", which would claim candidates were compared. */
    CHECK(s.allocs[0].searched && s.allocs[0].scored > 0);
    CHECK(!s.allocs[1].searched && strcmp(s.allocs[1].rule, "ds-read-tr-reader") == 0);
    CHECK_STR_CONTAINS(g_out, "  suggested: not searched: rule ds-read-tr-reader\n"
                              "             why: local_load line 82: no measurement or document gives its bank rule");
    {
        const char *a1 = strstr(g_out, "allocation 1:");
        CHECK(a1 != NULL && strstr(a1, "nothing better") == NULL && strstr(a1, "candidates scored") == NULL);
    }
    run_tool("triton --json '%s'", path);
    CHECK_STR_CONTAINS(g_out, "\"searched\":0,\"scored\":0,\"note\":\"kept (rule ds-read-tr-reader), local_load line 82");
    CHECK_STR_CONTAINS(g_out, "\"rule\":\"ds-read-tr-reader\"");
    /* --same-bytes: every suggestion within the allocation's own bytes */
    run_tool("triton --suggest --same-bytes '%s'", path);
    CHECK_STR_CONTAINS(g_out, "candidates scored within 4096 bytes");
    /* --html */
    snprintf(html_path, sizeof html_path, "/tmp/layout_tool_triton_%d.html", (int)getpid());
    CHECK_EQ_I64(run_tool("triton --html '%s' '%s' --strict", html_path, path), work.extra_cycles > 0 ? 1 : 0);
    f = fopen(html_path, "rb");
    n = f ? fread(page, 1, sizeof page - 1, f) : 0;
    if (f) fclose(f);
    page[n] = 0;
    remove(html_path);
    CHECK_STR_CONTAINS(page, "<!DOCTYPE html>");
    CHECK(strstr(page, "src=") == NULL && strstr(page, "href=") == NULL); /* self-contained: nothing fetched */
    for (i = 0; i < work.n_ops; i++) {
        snprintf(want, sizeof want, "<div class=\"op\" id=\"op%d\"", i);
        CHECK_STR_CONTAINS(page, want);
        snprintf(want, sizeof want, "<button data-op=\"%d\"", i);
        CHECK_STR_CONTAINS(page, want);
    }
    snprintf(want, sizeof want, "<button data-op=\"%d\"", work.n_ops);
    CHECK(strstr(page, want) == NULL);
    CHECK_STR_CONTAINS(page, "ds_read_b64_tr_b16");
    CHECK_STR_CONTAINS(page, "class=\"hot\""); /* the conflicted B read's lane picture */
    CHECK_STR_CONTAINS(page, s.allocs[1].attr[0] ? "suggested <code>#ttg.swizzled_shared&lt;{vec = " : "?");
    CHECK_EQ_I64(run_tool("triton --html /nonexistent/dir/x.html '%s'", path), 2);
    CHECK_STR_CONTAINS(g_err, "cannot write");
}

/* Write text to a temporary file; its path. */
static const char *temp_text(const char *text)
{
    static char path[64];
    FILE *f;
    snprintf(path, sizeof path, "/tmp/layout_tool_triton_%d.in", (int)getpid());
    if ((f = fopen(path, "wb"))) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

static void test_bad_input(void)
{
    CHECK_EQ_I64(run_tool("triton"), 2);
    CHECK_EQ_I64(run_tool("triton /nonexistent/x.ttgir"), 2);
    CHECK_STR_CONTAINS(g_err, "cannot open");
    CHECK_EQ_I64(run_tool("triton - < '%s'",
                          temp_text("  %0 = ttg.local_load %x : !ttg.memdesc<4xf16, #s -> tensor<4xf16, #t>\n")),
                 2);
    CHECK_STR_CONTAINS(g_err, "line 1, column");
    CHECK_EQ_I64(run_tool("triton --arch sm_90 '%s'", g_kernel_path), 2); /* 64 lanes vs a 32-lane arch */
    CHECK_STR_CONTAINS(g_err, "threads per warp");
    CHECK_EQ_I64(run_tool("triton - < '%s'", temp_text("module attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = \"tpu:v5\"} {\n}\n")), 2);
    CHECK_STR_CONTAINS(g_err, "tpu:v5");
    remove(temp_text(""));
}

/* `layout convert` / `layout offsets` on a multi-buffered shape: a rank-2
 * shared attribute over --shape B,R,C reads B as the buffer dim (Triton's
 * toLinearLayout(MemDescType): the attribute over the trailing dims, buffer
 * i at i x R*C).  Buffer 1's offsets are buffer 0's plus R*C. */
static void test_leading_buffer_dim(void)
{
    static const char *const attrs[] = {
        "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        CHECK_EQ_I64(run_tool("convert --to linear --shape 2,64,64 '%s'", attrs[i]), 0);
        CHECK_STR_CONTAINS(g_out, "[1, 0, 0]]}, {\"dim0\": 2, \"dim1\": 64, \"dim2\": 64}");
        CHECK_EQ_I64(run_tool("offsets --shape 2,64,64 '%s'", attrs[i]), 0);
        CHECK_STR_CONTAINS(g_out, "(1,0,0) 4096\n");
    }
    CHECK_EQ_I64(run_tool("offsets --shape 3,64,64 '%s'", attrs[0]), 2);
    CHECK_STR_CONTAINS(g_err, "buffers is not a power of two");
}

int main(void)
{
    find_kernel();
    CHECK_MSG(g_tool[0] != '\0', "no LAYOUT_TOOL_PATH");
    g_run.tool = g_tool;
    snprintf(g_out_path, sizeof g_out_path, "/tmp/layout_tool_triton_%d.out", (int)getpid());
    snprintf(g_err_path, sizeof g_err_path, "/tmp/layout_tool_triton_%d.err", (int)getpid());
    RUN(test_text_and_json);
    RUN(test_suggest_json_html);
    RUN(test_bad_input);
    RUN(test_leading_buffer_dim);
    return harness_finish("test_tool_triton");
}
