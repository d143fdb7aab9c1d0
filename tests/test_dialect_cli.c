/* `layout convert` and the global --dialect / --shape options, run as a
 * program (path from -DLAYOUT_TOOL_PATH, or argv[1]).  Expected outputs are
 * computed here with the library; exit statuses and messages are checked. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"
#include "support/tool_run.h"

#include <unistd.h>

#ifndef LAYOUT_TOOL_PATH
#define LAYOUT_TOOL_PATH ""
#endif

static const char *g_tool = LAYOUT_TOOL_PATH;
static char g_out[1 << 18], g_err[1 << 14], g_out_path[64], g_err_path[64];
/* `layout ARGS` (shell text), a sanitizer report a distinct exit code */
static tool_runner g_run = {NULL, TOOL_RUN_SANITIZER_ENV, NULL, g_out_path, g_err_path, 1, g_out, sizeof g_out, g_err, sizeof g_err};
#define run_tool(...) tool_run(&g_run, __VA_ARGS__)

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n') s[--n] = '\0';
}

static void test_convert(void)
{
    layout_descriptor d;
    char want[LAYOUT_TEXT_CAP];
    const char *cute = "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)";
    /* cute -> ck: the library's canonical text of the same descriptor. */
    CHECK(layout_desc_from_cute(cute, &d, NULL, NULL) == LAYOUT_OK);
    CHECK(layout_desc_to_text(&d, want, sizeof want, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(run_tool("convert --to layout '%s'", cute), 0);
    chomp(g_out);
    CHECK_MSG(strcmp(g_out, want) == 0, "%s", g_out);
    CHECK_MSG(g_err[0] == '\0', "%s", g_err);
    /* `--to ck`: read as ck_tile, whose C++ is ck-cpp; kept
     * as an alias that prints the same text and one note on stderr */
    CHECK_EQ_I64(run_tool("convert --to ck '%s'", cute), 0);
    chomp(g_out);
    CHECK_MSG(strcmp(g_out, want) == 0, "%s", g_out);
    CHECK_STR_CONTAINS(g_err, "layout convert: note: --to ck is liblayout's own text, now named --to layout; ck_tile "
                              "C++ is --to ck-cpp\n");
    CHECK(strchr(g_err, '\n') == g_err + strlen(g_err) - 1); /* one line */
    CHECK_EQ_I64(run_tool("convert --from layout --to cute '%s'", want), 0);
    /* ck -> cute, read back -> same offsets (explicit --from). */
    CHECK_EQ_I64(run_tool("convert --from ck --to cute '%s'", want), 0);
    chomp(g_out);
    CHECK_MSG(strcmp(g_out, cute) == 0, "%s", g_out);
    /* cute-cpp */
    CHECK_EQ_I64(run_tool("convert --to cute-cpp '(_4,_8):(_8,_1)'"), 0);
    CHECK_STR_CONTAINS(g_out, "make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}))");
    /* IREE with --shape, to Triton (the same swizzle: vec 4, perPhase 1, maxPhase 32/... recognised and exact). */
    CHECK_EQ_I64(run_tool("convert --to iree --shape 3,128 '#iree_codegen.xor_shuffle<128, 4, 128, 1>'"), 0);
    CHECK_STR_CONTAINS(g_out, "#iree_codegen.xor_shuffle<128, 4, 128, 1>");
    CHECK_EQ_I64(run_tool("convert --to triton --shape=16,64 '#iree_codegen.xor_shuffle<64, 8, 64, 1>'"), 0);
    CHECK_STR_CONTAINS(g_out, "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>");
    /* A distribution: blocked -> ck encoding text, and -> linear. */
    CHECK_EQ_I64(run_tool("convert --to layout --shape 16,16 '#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, "
                          "4], warpsPerCTA = [1, 2], order = [1, 0]}>'"),
                 0);
    CHECK_STR_CONTAINS(g_out, "dist(");
    CHECK_EQ_I64(run_tool("convert --to linear --shape 16,16 '#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = "
                          "[8, 4], warpsPerCTA = [1, 2], order = [1, 0]}>'"),
                 0);
    CHECK_STR_CONTAINS(g_out, "#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2], [0, 4], [2, 0], [4, 0], [8, "
                              "0]], warp = [[0, 8]], block = []}>");
    /* ... and back to Triton: the blocked attribute is recognised. */
    CHECK_EQ_I64(run_tool("convert --to triton '%s'",
                          "#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2], [0, 4], [2, 0], [4, 0], [8, 0]], "
                          "warp = [[0, 8]], block = []}>"),
                 0);
    CHECK_STR_CONTAINS(g_out, "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], "
                              "order = [1, 0]}>");
}

static void test_cannot_express(void)
{
    CHECK_EQ_I64(run_tool("convert --to linear 'naive([4,8],[9,1])'"), 2);
    CHECK_STR_CONTAINS(g_err, "layout convert: error: cannot express in linear: ");
    CHECK_STR_CONTAINS(g_err, "not linear over F2");
    CHECK_EQ_I64(run_tool("convert --to cute 'naive([4,8],[8,1]) | T{pad(4,0,1):[0]->[0] ; pass(8):[1]->[1]}'"), 2);
    CHECK_STR_CONTAINS(g_err, "coordinate (4,0) is padding; CuTe layouts have no padding");
    CHECK_EQ_I64(run_tool("convert --to iree 'packed([2,3,4])'"), 2);
    CHECK_STR_CONTAINS(g_err, "2-D");
    CHECK_EQ_I64(run_tool("convert --to cute --shape 16,16 '#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, "
                          "4], warpsPerCTA = [1, 2], order = [1, 0]}>'"),
                 2);
    CHECK_STR_CONTAINS(g_err, "a distribution converts to layout, linear or triton");
    CHECK_EQ_I64(run_tool("convert --to ck-cpp 'packed([4,8])'"), 0);
    CHECK_STR_CONTAINS(g_out, "lds_desc");
}

static void test_bad_input(void)
{
    CHECK_EQ_I64(run_tool("convert --to layout '(_4,_8):(_8 _1)'"), 2);
    CHECK_STR_CONTAINS(g_err, "layout convert: error in the descriptor: column 13: expected ',' or "
                              "')' in the tuple");
    CHECK_STR_CONTAINS(g_err, "  (_4,_8):(_8 _1)\n              ^\n");
    CHECK_EQ_I64(run_tool("convert --to layout '#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>'"),
                 2);
    CHECK_STR_CONTAINS(g_err, "needs a 2-D shape");
    CHECK_EQ_I64(run_tool("convert --to layout --shape 4,64 '#iree_codegen.xor_shuffle<128, 4>'"), 2);
    CHECK_STR_CONTAINS(g_err, "does not match row_width 128");
    CHECK_EQ_I64(run_tool("convert --to mlir 'packed([4])'"), 2);
    CHECK_STR_CONTAINS(g_err, "--to mlir: unknown dialect (layout, triton, cute, iree, linear, ck-cpp, cute-cpp)");
    CHECK_EQ_I64(run_tool("convert --from ck-cpp --to layout 'packed([4])'"), 2);
    CHECK_EQ_I64(run_tool("convert --from bogus --to layout 'packed([4])'"), 2);
    CHECK_EQ_I64(run_tool("convert 'packed([4])'"), 2);
    CHECK_STR_CONTAINS(g_err, "missing --to");
    CHECK_EQ_I64(run_tool("convert --to layout"), 2);
    CHECK_EQ_I64(run_tool("convert --to layout --elem 3 'packed([4])'"), 2);
    CHECK_EQ_I64(run_tool("offsets --shape 4,x 'packed([4])'"), 2);
    CHECK_STR_CONTAINS(g_err, "--shape");
    CHECK_EQ_I64(run_tool("offsets --shape ,4 'packed([4])'"), 2);
    CHECK_EQ_I64(run_tool("offsets --shape 1,2,3,4,5,6,7,8,9 'packed([4])'"), 2);
    CHECK_EQ_I64(run_tool("offsets --dialect fortran 'packed([4])'"), 2);
    CHECK_STR_CONTAINS(g_err, "--dialect");
    CHECK_EQ_I64(run_tool("offsets 'packed([4])' --dialect"), 2);
    CHECK_EQ_I64(run_tool("convert --to layout --shape 16,16 '#ttg.blocked<{sizePerThread = [2, 3]}>'"), 2);
    CHECK_STR_CONTAINS(g_err, "error in the distribution");
}

static void test_other_commands(void)
{
    layout_descriptor d;
    int64_t c[2] = {3, 8};
    /* offsets of the IREE talk's example: row 3, phase 3: groups 0 1 2 land on 3 2 1, so
     * columns 0.. read 396..399 392..395 388..391 (tile[3][8] = 388). */
    CHECK_EQ_I64(run_tool("offsets --shape 4,128 '#iree_codegen.xor_shuffle<128, 4, 128, 1>'"), 0);
    CHECK_STR_CONTAINS(g_out, "\n3: 396 397 398 399 392 393 394 395 388 389 390 391 ");
    CHECK(layout_desc_from_iree("#xor<128,4,128,1>", (const int64_t[]){4, 128}, &d, NULL, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(layout_desc_offset_unchecked(&d, c), 388);
    /* --dialect forces a reading: "8:1" read as CuTe. */
    CHECK_EQ_I64(run_tool("print --dialect cute '8:_2'"), 0);
    CHECK_STR_CONTAINS(g_out, "naive([8],[2])");
    CHECK_EQ_I64(run_tool("print --dialect=ck '8:_2'"), 2);
    CHECK_EQ_I64(run_tool("verify '(_4,_8):(_8,_1)'"), 0);
    CHECK_EQ_I64(run_tool("banks --elem 4 --shape 4,8 '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order "
                          "= [1, 0]}>'"),
                 0);
    CHECK_STR_CONTAINS(g_out, "1:  9  8 11 10 13 12 15 14");
    /* check with a Triton read distribution and a CuTe LDS layout */
    CHECK_EQ_I64(run_tool("check --arch gfx942 --elem 2 --shape 64,32 --lds 'Sw<2,3,3> o _0 o (_64,_32):(_32,_1)' "
                          "--write '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], "
                          "order = [1, 0]}>' --read '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], "
                          "warpsPerCTA = [4, 1], order = [1, 0]}>'"),
                 0);
    CHECK_STR_CONTAINS(g_out, "verdict: conflict-free");
    CHECK_EQ_I64(run_tool("convert --help"), 0);
    CHECK_STR_CONTAINS(g_out, "usage: layout convert");
}

int main(int argc, char **argv)
{
    if (argc > 1) g_tool = argv[1];
    if (!g_tool[0] || access(g_tool, X_OK) != 0) {
        fprintf(stderr, "test_dialect_cli: the layout tool is not built (%s)\n", g_tool);
        return harness_finish("test_dialect_cli") + 1;
    }
    g_run.tool = g_tool;
    snprintf(g_out_path, sizeof g_out_path, "/tmp/layout_dialect_cli_%d.out", (int)getpid());
    snprintf(g_err_path, sizeof g_err_path, "/tmp/layout_dialect_cli_%d.err", (int)getpid());
    RUN(test_convert);
    RUN(test_cannot_express);
    RUN(test_bad_input);
    RUN(test_other_commands);
    return harness_finish("test_dialect_cli");
}
