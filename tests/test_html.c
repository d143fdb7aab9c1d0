/* The interactive pages of `layout banks/check --html FILE` (tools/html.c),
 * checked as files: well-formed HTML (xmllint --html when installed),
 * self-contained (no network reference, no external script, font or image),
 * one JSON data block that parses and cannot close its <script>, and the
 * data's known answers for seed kernels 01 and 08: per-tile counts of the
 * seed talk's table, the bank of every cell from the spec's formula
 * (docs/lds-model.md §1.1: bank = (byte / 4) % banks) and the colliding words of
 * kernel 01's first read.  The page's behaviour in a browser is tested by
 * tests/browser/test_html.mjs (make browser-test). */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "support/json_check.h"

#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LAYOUT_TOOL_PATH
#define LAYOUT_TOOL_PATH ""
#endif

static const char *g_tool = LAYOUT_TOOL_PATH;
static char g_dir[64];
static char g_err[1 << 16];   /* stderr of the last run */
static char g_out[1 << 16];   /* stdout of the last run */
static char g_page[1 << 22];
static int g_have_xmllint;

/* The seed kernels as the tool's text (examples/seed_kernels.h, printed by
 * layout_desc_to_text / layout_dist_to_text). */
static const char *const k_write = "dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])";
static const char *const k_read01 = "dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])";
static const char *const k_lds08 =
    "naive([8,32,8],[8,64,1],gvl=8,gvs=1) | T{xor([32,8]):[1,0]->[1,0] ; pass(8):[2]->[2]} | "
    "T{unmerge([2,4]):[0]->[0,3] ; pass(32):[1]->[1] ; pass(8):[2]->[2]} | T{merge([32,2]):[1,0]->[0] ; "
    "merge([4,8]):[3,2]->[1]}";
static const char *const k_read08 = "dist(R=[1], H=([1,8,8],[4,8]), P=([(2,0)],[(1,1),(1,2)]), Y=[(1,0),(2,1)])";

static size_t slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    return n;
}

/* Run `layout ARGS` (shell text); stdout into g_out, stderr into g_err; the exit status. */
static int run_tool(const char *fmt, ...)
{
    static char args[1 << 14], cmd[1 << 15], err_path[128], out_path[128];
    va_list ap;
    int st;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(err_path, sizeof err_path, "%s/stderr", g_dir);
    snprintf(out_path, sizeof out_path, "%s/stdout", g_dir);
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=87 '%s' %s </dev/null >'%s' 2>'%s'",
             g_tool, args, out_path, err_path);
    st = system(cmd);
    slurp(err_path, g_err, sizeof g_err);
    slurp(out_path, g_out, sizeof g_out);
    CHECK_MSG(strstr(g_err, "Sanitizer") == NULL && strstr(g_err, "runtime error") == NULL, "layout %s: %s", args,
              g_err);
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    size_t len = strlen(needle);
    for (hay = strstr(hay, needle); hay; hay = strstr(hay + len, needle)) n++;
    return n;
}

/* JSON checked by tests/support/json_check.h */

/* The integers of the array after `key` (first occurrence at or after from). */
static int int_array(const char *from, const char *key, long long *out, int cap)
{
    const char *p = strstr(from, key);
    int n = 0;
    if (!p) return -1;
    p += strlen(key);
    if (*p != '[') return -1;
    for (p++; *p && *p != ']'; p++) {
        char *end;
        if (*p == ',') continue;
        if (n == cap) return -1;
        out[n++] = strtoll(p, &end, 10);
        p = end - 1;
    }
    return n;
}

/* ---------------------------------------------------------- page checks */

static const char k_block[] = "<script type=\"application/json\" id=\"layout-data\">";

/* Well-formed, self-contained, one data block of valid JSON.  Returns the
 * JSON text (in g_page, terminated at its </script>) or NULL. */
static char *check_page(const char *path)
{
    char *data, *end;
    size_t n = slurp(path, g_page, sizeof g_page);
    CHECK_MSG(n > 1000 && n < sizeof g_page - 1, "%s: %zu bytes", path, n);
    CHECK(strncmp(g_page, "<!DOCTYPE html>\n", 16) == 0);
    CHECK(n > 8 && strcmp(g_page + n - 8, "</html>\n") == 0);
    /* Self-contained: nothing fetched from anywhere. */
    CHECK(strstr(g_page, "http:") == NULL && strstr(g_page, "https:") == NULL);
    CHECK(strstr(g_page, "src=") == NULL && strstr(g_page, "<link") == NULL);
    CHECK(strstr(g_page, "url(") == NULL && strstr(g_page, "@import") == NULL && strstr(g_page, "@font-face") == NULL);
    CHECK_EQ_I64(count(g_page, "<script"), 2);
    CHECK_EQ_I64(count(g_page, "</script>"), 2);
    CHECK_EQ_I64(count(g_page, k_block), 1);
    if (g_have_xmllint) {
        char cmd[256], err[4096];
        snprintf(cmd, sizeof cmd, "xmllint --html --noout '%s' 2>'%s/xmllint.txt'", path, g_dir);
        CHECK_MSG(system(cmd) == 0, "xmllint --html fails on %s", path);
        snprintf(cmd, sizeof cmd, "%s/xmllint.txt", g_dir);
        slurp(cmd, err, sizeof err);
        CHECK_MSG(err[0] == '\0', "xmllint --html: %s", err);
    }
    data = strstr(g_page, k_block);
    if (!data) return NULL;
    data += sizeof k_block - 1;
    end = strstr(data, "</script>");
    if (!end) return NULL;
    *end = '\0';
    /* No '<' at all: the block can never be closed or commented by its data. */
    CHECK(strchr(data, '<') == NULL);
    {
        const char *after = json_check_value(data, 1);
        CHECK_MSG(after && *json_check_ws(after) == '\0', "%s: the data block is not one JSON value", path);
    }
    return data;
}

/* The banks of the first (or the n-th) arch equal (byte / 4) % n_banks. */
static void check_banks(const char *data, int nth, long long (*offset)(int m, int k), int n_banks)
{
    static long long banks[64 * 32], offs[64 * 32];
    const char *p = NULL;
    int i, m, k, bad = 0;
    for (i = 0; i < nth; i++) {
        p = strstr(p ? p + 1 : data, "\"banks\":[");
        if (!p) break;
    }
    CHECK(p != NULL);
    if (!p) return;
    CHECK_EQ_I64(int_array(data, "\"offsets\":", offs, 64 * 32), 64 * 32);
    CHECK_EQ_I64(int_array(p, "\"banks\":", banks, 64 * 32), 64 * 32);
    for (m = 0; m < 64; m++)
        for (k = 0; k < 32; k++) {
            long long byte = 2 * offset(m, k);
            bad += offs[m * 32 + k] != offset(m, k) || banks[m * 32 + k] != (byte / 4) % n_banks;
        }
    CHECK_EQ_I64(bad, 0);
}

/* 01: packed [64, 32]. */
static long long off01(int m, int k) { return 32LL * m + k; }

/* 08: the talk's XOR layout: b = m / 2, l = m % 2, A = 4 l + k / 8 stored at
 * A ^ (b % 8): offset = 8 (A ^ (b % 8)) + 64 b + k % 8. */
static long long off08(int m, int k)
{
    int b = m / 2, a = 4 * (m % 2) + k / 8;
    return 8LL * (a ^ (b % 8)) + 64LL * b + k % 8;
}

static void test_kernel01_page(void)
{
    char path[128], *data;
    snprintf(path, sizeof path, "%s/k01.html", g_dir);
    CHECK_EQ_I64(run_tool("check --arch gfx942 --elem 2 --lds 'packed([64,32])' --read-lds 'naive([32,64],[1,32])' "
                          "--write '%s' --read '%s' --tiles 8192 --html '%s'",
                          k_write, k_read01, path),
                 1);
    data = check_page(path);
    if (!data) return;
    /* The seed talk's table: 1 b128 write + 8 u16 reads per wave, 14 extra
     * cycles each read (448 per tile, 3,670,016 over 8192 tiles). */
    CHECK_STR_CONTAINS(data, "\"name\":\"write\",\"ops\":\"1 x ds_write_b128\",\"waves\":4,\"steps_per_wave\":1,"
                             "\"instrs_per_tile\":4,\"extra_cycles_per_tile\":0,");
    CHECK_STR_CONTAINS(data, "\"name\":\"read\",\"ops\":\"8 x ds_read_u16\",\"waves\":4,\"steps_per_wave\":8,"
                             "\"instrs_per_tile\":32,\"extra_cycles_per_tile\":448,");
    CHECK_STR_CONTAINS(data, "\"sq_lds_bank_conflict\":3670016,\"sq_insts_lds\":294912");
    CHECK_EQ_I64(count(data, "\"extra_cycles\":14,"), 32);
    CHECK_EQ_I64(count(data, "\"extra_cycles\":0,"), 4);
    CHECK_EQ_I64(count(data, "\"name\":\"gfx942\""), 1);
    check_banks(data, 1, off01, 32);
    /* Read warp 0 step 0: lane l reads m = 8 (l % 8), k = l / 8 at byte
     * 64 m + 2 k; lanes 0-31 (one group) hit words 16 m + k / 2 on banks 0
     * and 1, eight words each: all 16 collide, 8 cycles (+7). */
    CHECK_STR_CONTAINS(data, "\"cycles\":8,\"nway\":8,\"worst_bank\":0,"
                             "\"hot_words\":[0,128,256,384,512,640,768,896,1,129,257,385,513,641,769,897]}");
    /* The write group of lanes 0-7 (one 16-byte b128 group): no collision. */
    CHECK_STR_CONTAINS(data, "{\"lanes\":[0,1,2,3,4,5,6,7],\"cycles\":1,\"nway\":1,\"worst_bank\":0,\"hot_words\":[]}");
}

static void test_kernel08_page(void)
{
    char path[128], *data;
    snprintf(path, sizeof path, "%s/k08.html", g_dir);
    CHECK_EQ_I64(run_tool("check --arch gfx942 --arch gfx950 --elem 2 --lds '%s' --write '%s' --read '%s' "
                          "--tiles 8192 --html '%s'",
                          k_lds08, k_write, k_read08, path),
                 0);
    data = check_page(path);
    if (!data) return;
    /* Conflict-free on gfx942: 1 b128 write + 1 b128 read per wave. */
    CHECK_STR_CONTAINS(data, "\"name\":\"read\",\"ops\":\"1 x ds_read_b128\",\"waves\":4,\"steps_per_wave\":1,"
                             "\"instrs_per_tile\":4,\"extra_cycles_per_tile\":0,");
    CHECK_STR_CONTAINS(data, "\"sq_lds_bank_conflict\":0,\"sq_insts_lds\":65536");
    CHECK_EQ_I64(count(data, "\"name\":\"gfx942\""), 1);
    CHECK_EQ_I64(count(data, "\"name\":\"gfx950\""), 1);
    CHECK_STR_CONTAINS(data, "\"n_banks\":64");
    check_banks(data, 1, off08, 32);
    check_banks(data, 2, off08, 64);
    {
        /* gfx942 part (before gfx950's): every instruction conflict-free. */
        char *second = strstr(data, "\"name\":\"gfx950\"");
        CHECK(second != NULL);
        if (second) {
            *second = '\0';
            CHECK_EQ_I64(count(data, "\"extra_cycles\":0,"), 8);
            CHECK_EQ_I64(count(data, "\"extra_cycles\":"), 8);
        }
    }
}

static void test_banks_page(void)
{
    char path[128], *data;
    snprintf(path, sizeof path, "%s/banks.html", g_dir);
    CHECK_EQ_I64(run_tool("banks 'packed([64,32])' --arch 'gfx942,arch(base=gfx942, name=g64, banks=64)' --html '%s'",
                          path),
                 0);
    data = check_page(path);
    if (!data) return;
    CHECK_STR_CONTAINS(data, "\"tool\":\"layout banks\"");
    CHECK_STR_CONTAINS(data, "\"name\":\"g64\"");
    CHECK_EQ_I64(count(data, "\"sides\":[]"), 2);
    check_banks(data, 1, off01, 32);
    check_banks(data, 2, off01, 64);
}

static void test_help_and_errors(void)
{
    char path[128];
    struct stat sb;
    snprintf(path, sizeof path, "%s/bad.html", g_dir);
    /* Several arches need --html; bad lists and arches are reported. */
    CHECK_EQ_I64(run_tool("banks 'packed([8,8])' --arch gfx942,gfx950"), 2);
    CHECK_STR_CONTAINS(g_err, "2 architectures given");
    CHECK_EQ_I64(run_tool("check --arch gfx942 --arch gfx950 --lds 'packed([64,32])' --write '%s' --read '%s'",
                          k_write, k_write),
                 2);
    CHECK_STR_CONTAINS(g_err, "only with --html");
    CHECK_EQ_I64(run_tool("banks 'packed([8,8])' --arch gfx942, --html '%s'", path), 2);
    CHECK_STR_CONTAINS(g_err, "an empty item");
    CHECK_EQ_I64(run_tool("banks 'packed([8,8])' --arch=gfx942,gfx943 --html '%s'", path), 2);
    CHECK_STR_CONTAINS(g_err, "gfx943");
    CHECK_EQ_I64(run_tool("banks 'packed([8,8])' --arch gfx942,gfx942,gfx942,gfx942,gfx942,gfx942,gfx942,gfx942,gfx942 "
                          "--html '%s'",
                          path),
                 2);
    CHECK_STR_CONTAINS(g_err, "at most 8");
    /* One page holds one wave size (the distributions are per wave). */
    CHECK_EQ_I64(run_tool("check --arch gfx942,gfx11 --lds 'packed([64,32])' --write '%s' --read '%s' --html '%s'",
                          k_write, k_write, path),
                 2);
    CHECK_STR_CONTAINS(g_err, "one wave size");
    /* Not 2-D, too large, not writable: no page is left behind. */
    CHECK_EQ_I64(run_tool("banks 'packed([4,4,4])' --html '%s'", path), 2);
    CHECK_EQ_I64(run_tool("banks 'packed([512,256])' --html '%s'", path), 2);
    CHECK_STR_CONTAINS(g_err, "at most 65536");
    CHECK_EQ_I64(run_tool("check --lds 'packed([512,256])' --write '%s' --read '%s' --html '%s'",
                          "dist(R=[], H=([8,64],[16,16]), P=([(1,0),(2,0)],[(1,1)]), Y=[(2,1)])",
                          "dist(R=[], H=([8,64],[16,16]), P=([(1,0),(2,0)],[(1,1)]), Y=[(2,1)])", path),
                 2);
    CHECK_STR_CONTAINS(g_err, "the tile has 131072 cells");
    CHECK(stat(path, &sb) != 0);
    CHECK_EQ_I64(run_tool("banks 'packed([8,8])' --html '%s/no/such/dir/x.html'", g_dir), 2);
    CHECK_STR_CONTAINS(g_err, "cannot write");
    /* --help and the arch given as @FILE (not split at commas). */
    CHECK_EQ_I64(run_tool("banks --help"), 0);
    CHECK_STR_CONTAINS(g_out, "--html FILE");
    CHECK_EQ_I64(run_tool("check --help"), 0);
    CHECK_STR_CONTAINS(g_out, "--html FILE");
    CHECK_STR_CONTAINS(g_out, "--arch gfx942,gfx950");
    {
        char arch_path[128], page[128];
        FILE *f;
        snprintf(arch_path, sizeof arch_path, "%s/arch.txt", g_dir);
        snprintf(page, sizeof page, "%s/at.html", g_dir);
        f = fopen(arch_path, "w");
        CHECK(f != NULL);
        if (!f) return;
        fputs("arch(base=gfx942, name=g64, banks=64)\n", f);
        fclose(f);
        CHECK_EQ_I64(run_tool("banks 'packed([8,8])' --arch '@%s' --arch gfx942 --html '%s'", arch_path, page), 0);
        slurp(page, g_page, sizeof g_page);
        CHECK_STR_CONTAINS(g_page, "\"name\":\"g64\"");
        CHECK_STR_CONTAINS(g_page, "\"name\":\"gfx942\"");
    }
}

int main(int argc, char **argv)
{
    struct stat sb;
    if (argc > 1) g_tool = argv[1];
    if (!g_tool[0] || stat(g_tool, &sb) != 0) {
        printf("test_html: note: the layout tool was not built (%s); nothing to test\n", g_tool[0] ? g_tool : "no path");
        return harness_finish("test_html");
    }
    snprintf(g_dir, sizeof g_dir, "/tmp/layout-test-html-XXXXXX");
    if (!mkdtemp(g_dir)) {
        printf("test_html: cannot create a scratch directory\n");
        return 1;
    }
    g_have_xmllint = system("command -v xmllint >/dev/null 2>&1") == 0;
    if (!g_have_xmllint) printf("test_html: note: xmllint not installed, HTML well-formedness not checked\n");
    RUN(test_kernel01_page);
    RUN(test_kernel08_page);
    RUN(test_banks_page);
    RUN(test_help_and_errors);
    {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
        if (system(cmd) != 0) printf("test_html: note: could not remove %s\n", g_dir);
    }
    return harness_finish("test_html");
}
