/* Bad TTGIR is an error with a line and column, never a report of
 * "0 shared-memory ops": every corpus kernel cut at every 61st byte and
 * just before and after every '}' is refused by the reader or by
 * layout_triton_kernel_analyze with LAYOUT_ERR_PARSE and a line within the
 * cut text; `layout triton` on cut files exits 2 and prints no report; an
 * empty file, the triton_gpu dialect of Triton < 3.2 and a module without
 * ttg.target or ttg.num-warps (with --arch too) give the exact messages. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"

#include <dirent.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LAYOUT_TOOL_PATH
#define LAYOUT_TOOL_PATH ""
#endif

static layout_ttgir g_m;
static layout_triton_kernel g_k;
static char g_text[1 << 21], g_out[1 << 16], g_err[1 << 12], g_dir[512];

/* Parse then analyze: the status, err filled. */
static layout_status pipeline(const char *t, size_t n, layout_error *err)
{
    layout_status st = layout_ttgir_parse(t, n, &g_m, err);
    if (st != LAYOUT_OK) return st;
    return layout_triton_kernel_analyze(&g_m, NULL, &g_k, err);
}

/* The line of "line L, column C" in msg; C in *col; 0 if absent. */
static int msg_line(const char *msg, int *col)
{
    const char *p = strstr(msg, "line ");
    int l = 0, c = 0;
    if (!p || sscanf(p, "line %d, column %d", &l, &c) != 2) return 0;
    *col = c;
    return l;
}

static int lines_of(const char *t, size_t n)
{
    int l = 1;
    for (size_t k = 0; k < n; k++) l += t[k] == '\n';
    return l;
}

static int only_blank(const char *t, size_t from, size_t n)
{
    for (size_t k = from; k < n; k++)
        if (t[k] != ' ' && t[k] != '\n' && t[k] != '\t' && t[k] != '\r') return 0;
    return 1;
}

static int g_cuts;

static void check_cut(const char *name, const char *t, size_t full, size_t cut)
{
    layout_error err;
    layout_status st;
    int l, c = 0;
    if (only_blank(t, cut, full)) return; /* nothing but trailing blanks left out: not a cut */
    g_cuts++;
    st = pipeline(t, cut, &err);
    CHECK_MSG(st == LAYOUT_ERR_PARSE, "%s cut at %zu: %s (%s)", name, cut, layout_status_name(st),
              st ? err.message : "a report");
    if (st != LAYOUT_ERR_PARSE) return;
    l = msg_line(err.message, &c);
    CHECK_MSG(l >= 1 && l <= lines_of(t, cut) && c >= 1, "%s cut at %zu: no plausible line: %s", name, cut,
              err.message);
}

static void test_cut_corpus(void)
{
    DIR *d = opendir(g_dir);
    struct dirent *e;
    int files = 0;
    CHECK_MSG(d != NULL, "cannot open %s", g_dir);
    if (!d) return;
    while ((e = readdir(d)) != NULL) {
        char path[1024];
        size_t len = strlen(e->d_name), n, k;
        FILE *f;
        if (len < 7 || strcmp(e->d_name + len - 6, ".ttgir") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", g_dir, e->d_name);
        if (!(f = fopen(path, "rb"))) continue;
        n = fread(g_text, 1, sizeof g_text - 1, f);
        fclose(f);
        files++;
        CHECK_MSG(pipeline(g_text, n, NULL) == LAYOUT_OK, "%s: the whole text fails", e->d_name);
        for (k = 0; k < n; k += 61) check_cut(e->d_name, g_text, n, k);
        for (k = 0; k < n; k++)
            if (g_text[k] == '}') {
                check_cut(e->d_name, g_text, n, k);
                check_cut(e->d_name, g_text, n, k + 1);
            }
    }
    closedir(d);
    CHECK_EQ_I64(files, 66);
    printf("test_triton_cut: %d cut texts refused\n", g_cuts);
}

static void expect(const char *t, const char *msg)
{
    layout_error err;
    layout_status st = pipeline(t, strlen(t), &err);
    CHECK_MSG(st == LAYOUT_ERR_PARSE, "'%s': %s", t, layout_status_name(st));
    CHECK_STR_CONTAINS(err.message, msg);
}

#define MOD(attrs) "module attributes {" attrs "} {\n  tt.func public @k() {\n    tt.return\n  }\n}\n"

static void test_messages(void)
{
    layout_arch a;
    layout_error err;
    expect("", "layout_ttgir_parse: line 1, column 1: the text is empty: no TTGIR module");
    expect("#blocked = #triton_gpu.blocked<{sizePerThread = [1]}>\n",
           "line 1, column 13: this TTGIR is from Triton < 3.2 (triton_gpu dialect); liblayout reads Triton 3.2+ "
           "(ttg dialect)");
    expect("module attributes {\"triton_gpu.num-warps\" = 4 : i32} {\n}\n",
           "line 1, column 21: this TTGIR is from Triton < 3.2 (triton_gpu dialect)");
    expect(MOD("ttg.target = \"hip:gfx942\""),
           "layout_triton_kernel_analyze: line 1, column 1: the module has no ttg.num-warps attribute (hint:");
    expect(MOD("\"ttg.num-warps\" = 4 : i32"),
           "layout_triton_kernel_analyze: line 1, column 1: the module has no ttg.target attribute (hint:");
    expect("#a = #ttg.blocked<{sizePerThread = [1]}>\n",
           "layout_triton_kernel_analyze: line 1, column 1: no `module attributes {...}` line");
    /* --arch does not stand in for the missing attributes */
    CHECK(layout_arch_preset("gfx942", &a, NULL) == LAYOUT_OK);
    {
        static const char t[] = MOD("\"ttg.num-warps\" = 4 : i32");
        CHECK(layout_ttgir_parse(t, sizeof t - 1, &g_m, &err) == LAYOUT_OK);
        CHECK(layout_triton_kernel_analyze(&g_m, &a, &g_k, &err) == LAYOUT_ERR_PARSE);
        CHECK_STR_CONTAINS(err.message, "no ttg.target attribute");
    }
    expect(MOD("ttg.target = \"hip:gfx942\", \"ttg.num-warps\" = 4 : i32") "#x = #ttg.blocked<{order = [1, 0]}\n",
           "the text ends inside '<' opened at line 6, column 18 (is the text cut short?)");
    expect(MOD("ttg.target = \"hip:gfx942\", \"ttg.num-warps\" = 4 : i32") "#loc = loc(\"k.py\n",
           "line 6, column 12: a string opened here is not closed on its line");
    expect("module attributes {ttg.target = \"hip:gfx942\", \"ttg.num-warps\" = 4 : i32} {\n  tt.return loc(#loc3)\n}\n",
           "line 2, column 17: location #loc3 is used but never defined (is the text cut short?)");
    expect("module attributes {ttg.target = \"hip:gfx942\", \"ttg.num-warps\" = 4 : i32} {\n  tt.func @k() {\n  ]\n}\n",
           "line 3, column 3: unexpected ']': the '{' open at line 2, column 16 is not closed by it");
}

static int run_tool(const char *fmt, ...)
{
    static char args[4096], cmd[8192], out_path[64], err_path[64];
    va_list ap;
    FILE *f;
    size_t n;
    int st;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(out_path, sizeof out_path, "/tmp/layout_triton_cut_%d.out", (int)getpid());
    snprintf(err_path, sizeof err_path, "/tmp/layout_triton_cut_%d.err", (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", LAYOUT_TOOL_PATH, args, out_path, err_path);
    st = system(cmd);
    f = fopen(out_path, "rb");
    n = f ? fread(g_out, 1, sizeof g_out - 1, f) : 0;
    if (f) fclose(f);
    g_out[n] = '\0';
    f = fopen(err_path, "rb");
    n = f ? fread(g_err, 1, sizeof g_err - 1, f) : 0;
    if (f) fclose(f);
    g_err[n] = '\0';
    remove(out_path);
    remove(err_path);
    return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

static const char *temp_file(const char *t, size_t n)
{
    static char path[64];
    FILE *f;
    snprintf(path, sizeof path, "/tmp/layout_triton_cut_%d.ttgir", (int)getpid());
    if ((f = fopen(path, "wb"))) {
        fwrite(t, 1, n, f);
        fclose(f);
    }
    return path;
}

static void test_tool(void)
{
    char path[1024];
    size_t n, cuts[] = {1, 100, 777, 2000, 5000};
    FILE *f;
    snprintf(path, sizeof path, "%s/matmul_fp16_64x64x32_w4_s2_gfx942.ttgir", g_dir);
    f = fopen(path, "rb");
    n = f ? fread(g_text, 1, sizeof g_text - 1, f) : 0;
    if (f) fclose(f);
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        CHECK_EQ_I64(run_tool("triton '%s'", temp_file(g_text, cuts[i] < n ? cuts[i] : n / 2)), 2);
        CHECK_MSG(g_out[0] == '\0', "cut at %zu: a report was printed: %.200s", cuts[i], g_out);
        CHECK_STR_CONTAINS(g_err, ", column ");
        CHECK_EQ_I64(run_tool("triton --json '%s'", temp_file(g_text, cuts[i] < n ? cuts[i] : n / 2)), 2);
        CHECK(g_out[0] == '\0');
    }
    CHECK_EQ_I64(run_tool("triton '%s'", temp_file("", 0)), 2);
    CHECK_STR_CONTAINS(g_err, "line 1, column 1: the text is empty: no TTGIR module");
    CHECK(g_out[0] == '\0');
    {
        static const char old[] = "module attributes {\"triton_gpu.num-warps\" = 4 : i32} {\n}\n";
        CHECK_EQ_I64(run_tool("triton '%s'", temp_file(old, sizeof old - 1)), 2);
        CHECK_STR_CONTAINS(g_err, "this TTGIR is from Triton < 3.2 (triton_gpu dialect); liblayout reads Triton 3.2+");
    }
    {
        static const char no_target[] = MOD("\"ttg.num-warps\" = 4 : i32");
        CHECK_EQ_I64(run_tool("triton --arch gfx942 '%s'", temp_file(no_target, sizeof no_target - 1)), 2);
        CHECK_STR_CONTAINS(g_err, "line 1, column 1: the module has no ttg.target attribute");
        CHECK(g_out[0] == '\0');
    }
    remove(temp_file("", 0));
}

int main(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(g_dir, sizeof g_dir, "%.*s/fixtures/triton/kernels", slash ? (int)(slash - f) : 1, slash ? f : ".");
    RUN(test_cut_corpus);
    RUN(test_messages);
    CHECK_MSG(LAYOUT_TOOL_PATH[0] != '\0', "no LAYOUT_TOOL_PATH");
    RUN(test_tool);
    return harness_finish("test_triton_cut");
}
