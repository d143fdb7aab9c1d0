/* The `layout` command-line tool, run as a program (its path comes from the
 * build: -DLAYOUT_TOOL_PATH, or argv[1]).  Every subcommand runs on the seed
 * kernels and its output is compared with the library's own results
 * computed here; exit statuses and error reports are checked; SVG pictures
 * are checked with xmllint and rendered with rsvg-convert when installed. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "support/json_check.h"
#include "layout.h"
#include "../examples/seed_kernels.h"

#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LAYOUT_TOOL_PATH
#define LAYOUT_TOOL_PATH ""
#endif

static const char *g_tool = LAYOUT_TOOL_PATH;
static char g_dir[64];         /* scratch directory */
static char g_out[1 << 20];    /* stdout of the last run */
static char g_err[1 << 16];    /* stderr of the last run */
static int g_have_xmllint, g_have_rsvg;

/* ------------------------------------------------------------- running */

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

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* Run `layout ARGS` (ARGS is shell text) with optional stdin text; capture
 * stdout and stderr; return the exit status (-1 if it did not exit). */
static int run_tool(const char *stdin_text, const char *fmt, ...)
{
    static char args[1 << 16], cmd[1 << 17], in_path[128], out_path[128], err_path[128];
    va_list ap;
    int st;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(in_path, sizeof in_path, "%s/stdin", g_dir);
    snprintf(out_path, sizeof out_path, "%s/stdout", g_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr", g_dir);
    write_file(in_path, stdin_text ? stdin_text : "");
    /* A sanitizer build of the tool must not report anything (its exit codes
     * are moved away from the tool's own 0/1/2). */
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=87 '%s' %s <'%s' >'%s' 2>'%s'", g_tool,
             args, in_path, out_path, err_path);
    st = system(cmd);
    slurp(out_path, g_out, sizeof g_out);
    slurp(err_path, g_err, sizeof g_err);
    CHECK_MSG(strstr(g_err, "Sanitizer") == NULL && strstr(g_err, "runtime error") == NULL, "layout %s: %s", args,
              g_err);
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

static int have_program(const char *name)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", name);
    return system(cmd) == 0;
}

/* Value of the first integer after `key` in text at or after *pos; advances *pos. */
static int next_int_after(const char *text, const char *key, const char **pos, int64_t *v)
{
    const char *p = strstr(*pos, key);
    char *end;
    if (!p) return 0;
    p += strlen(key);
    *v = (int64_t)strtoll(p, &end, 10);
    *pos = end;
    (void)text;
    return end != p;
}

/* JSON checked by tests/support/json_check.h */

/* ------------------------------------------------------------ SVG checks */

/* xmllint says the file is well-formed; rsvg-convert renders it to a PNG
 * whose size equals the width/height declared on the root element. */
static void check_svg(const char *path, int min_width, int min_height)
{
    static char svg[1 << 22];
    char cmd[512], png[160];
    unsigned char hdr[24];
    const char *root;
    long w = 0, h = 0;
    FILE *f;
    CHECK(slurp(path, svg, sizeof svg) > 100);
    root = strstr(svg, "<svg ");
    CHECK(root != NULL);
    if (!root) return;
    CHECK(sscanf(strstr(root, "width=\""), "width=\"%ld\"", &w) == 1);
    CHECK(sscanf(strstr(root, "height=\""), "height=\"%ld\"", &h) == 1);
    CHECK(w >= min_width && h >= min_height);
    CHECK(strstr(svg, "<script") == NULL && strstr(svg, "href") == NULL); /* self-contained */
    CHECK(strstr(svg, "bank colours") != NULL);
    if (!g_have_xmllint) {
        printf("test_tool: note: xmllint not installed, SVG well-formedness not checked\n");
    } else {
        snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1", path);
        CHECK_MSG(system(cmd) == 0, "xmllint rejects %s", path);
    }
    if (!g_have_rsvg) {
        printf("test_tool: note: rsvg-convert not installed, SVG rendering not checked\n");
        return;
    }
    snprintf(png, sizeof png, "%s.png", path);
    snprintf(cmd, sizeof cmd, "rsvg-convert '%s' -o '%s' 2>&1", path, png);
    CHECK_MSG(system(cmd) == 0, "rsvg-convert fails on %s", path);
    f = fopen(png, "rb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fread(hdr, 1, sizeof hdr, f) == sizeof hdr);
    fclose(f);
    CHECK(memcmp(hdr + 1, "PNG", 3) == 0);
    CHECK_EQ_I64(((long)hdr[16] << 24) | (hdr[17] << 16) | (hdr[18] << 8) | hdr[19], w);
    CHECK_EQ_I64(((long)hdr[20] << 24) | (hdr[21] << 16) | (hdr[22] << 8) | hdr[23], h);
}

/* ------------------------------------------------------------- helpers */

static void desc_text(const layout_descriptor *d, char *buf)
{
    CHECK(layout_desc_to_text(d, buf, LAYOUT_TEXT_CAP, NULL) == LAYOUT_OK);
}

static void dist_text(const layout_distribution *d, char *buf)
{
    CHECK(layout_dist_to_text(d, buf, LAYOUT_TEXT_CAP, NULL) == LAYOUT_OK);
}

/* Skip the '#' header lines and the column-label line of a grid. */
static const char *grid_body(const char *out)
{
    const char *p = out;
    while (*p == '#') p = strchr(p, '\n') + 1;
    return strchr(p, '\n') + 1; /* column labels */
}

/* --------------------------------------------------------------- tests */

static void test_version_help_and_usage_errors(void)
{
    static const char *const cmds[] = {"offsets", "banks", "verify", "check", "cost", "arch", "print"};
    size_t i;
    char want[64];
    CHECK_EQ_I64(run_tool(NULL, "--version"), 0);
    CHECK_STR_CONTAINS(g_out, "layout (liblayout) 0.1.0");
    CHECK_EQ_I64(run_tool(NULL, "--help"), 0);
    for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        CHECK_STR_CONTAINS(g_out, cmds[i]);
    }
    for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        CHECK_EQ_I64(run_tool(NULL, "%s --help", cmds[i]), 0);
        snprintf(want, sizeof want, "usage: layout %s", cmds[i]);
        CHECK_STR_CONTAINS(g_out, want);
    }
    CHECK_EQ_I64(run_tool(NULL, ""), 2);
    CHECK_EQ_I64(run_tool(NULL, "frobnicate"), 2);
    CHECK_STR_CONTAINS(g_err, "unknown command 'frobnicate'");
    CHECK_EQ_I64(run_tool(NULL, "offsets"), 2);
    CHECK_STR_CONTAINS(g_err, "missing SPEC");
    CHECK_EQ_I64(run_tool(NULL, "offsets 'packed([4])' --bogus"), 2);
    CHECK_EQ_I64(run_tool(NULL, "banks 'packed([4,4])' --elem 3"), 2);
    CHECK_STR_CONTAINS(g_err, "--elem 3 must be 1, 2, 4, 8 or 16");
    CHECK_EQ_I64(run_tool(NULL, "banks 'packed([4,4])' --arch"), 2);
    CHECK_STR_CONTAINS(g_err, "option --arch needs a value");
}

/* A malformed spec: exit 2, the library's message, and a caret under the spot. */
static void test_parse_errors_show_a_caret(void)
{
    CHECK_EQ_I64(run_tool(NULL, "offsets 'naive([8,32],[32 1])'"), 2);
    CHECK_STR_CONTAINS(g_err, "error in the descriptor: column 18: expected ',' or ']', found '1'");
    CHECK_STR_CONTAINS(g_err, "  naive([8,32],[32 1])\n                   ^\n");
    CHECK_EQ_I64(run_tool(NULL, "banks 'packed([4,4])' --arch 'arch(banks=48, wave=64)'"), 2);
    CHECK_STR_CONTAINS(g_err, "n_banks = 48 must be a power of two");
    CHECK_STR_CONTAINS(g_err, "             ^");
    CHECK_EQ_I64(run_tool(NULL, "check --lds 'packed([64,32])' --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],"
                                "[(1,1),(2,0)]), Y=[(2,1)]' --read 'dist(R=[])'"),
                 2);
    CHECK_STR_CONTAINS(g_err, "error in --write: column 66: expected ')' closing dist(...)");
    CHECK_STR_CONTAINS(g_err, "^");
    CHECK_EQ_I64(run_tool(NULL, "offsets @%s/no-such-file", g_dir), 2);
    CHECK_STR_CONTAINS(g_err, "cannot open");
}

/* offsets: the grid (2-D) and list (N-D) equal the library's offsets. */
static void test_offsets(void)
{
    static seed_kernel k;
    static char text[LAYOUT_TEXT_CAP];
    int which;
    for (which = 0; which < SEED_KERNEL_COUNT; which++) {
        const layout_descriptor *views[2];
        int v;
        CHECK(seed_kernel_build(&k, (seed_kernel_id)which, 32, NULL) == LAYOUT_OK);
        views[0] = &k.write_desc;
        views[1] = &k.read_desc;
        for (v = 0; v < 2; v++) {
            const layout_descriptor *d = views[v];
            int64_t rows = layout_desc_length(d, 0), cols = layout_desc_length(d, 1), r, c, got, want, coord[2];
            const char *p;
            desc_text(d, text);
            CHECK_EQ_I64(run_tool(NULL, "offsets '%s'", text), 0);
            p = grid_body(g_out);
            for (r = 0; r < rows; r++) {
                int64_t label;
                CHECK(next_int_after(g_out, "", &p, &label) && label == r);
                p++; /* ':' */
                for (c = 0; c < cols; c++) {
                    char *end;
                    coord[0] = r;
                    coord[1] = c;
                    CHECK(layout_desc_offset(d, coord, &want, NULL) == LAYOUT_OK);
                    got = strtoll(p, &end, 10);
                    CHECK(end != p);
                    p = end;
                    if (got != want) {
                        CHECK_EQ_I64(got, want);
                        return;
                    }
                }
            }
        }
    }
    /* N-D list and padding marks. */
    CHECK_EQ_I64(run_tool(NULL, "offsets 'packed([2,3,2])'"), 0);
    CHECK_STR_CONTAINS(g_out, "(0,0,0) 0\n(0,0,1) 1\n(0,1,0) 2\n");
    CHECK_STR_CONTAINS(g_out, "(1,2,1) 11\n");
    CHECK_EQ_I64(run_tool(NULL, "offsets 'naive([3,4],[4,1]) | T{pad(3,1,1):[0]->[0] ; pass(4):[1]->[1]}' --valid"),
                 0);
    CHECK_STR_CONTAINS(g_out, "0: -4* -3* -2* -1*\n1:  0   1   2   3 \n");
    CHECK_STR_CONTAINS(g_out, "4: 12* 13* 14* 15*\n");
    /* @file specs, comments allowed. */
    snprintf(text, sizeof text, "%s/spec.txt", g_dir);
    write_file(text, "# the 01 write view\npacked([64,32])\n");
    CHECK_EQ_I64(run_tool(NULL, "offsets @%s", text), 0);
    CHECK_STR_CONTAINS(g_out, "# offsets of packed([64,32])");
}

/* banks: each cell is (offset * elem / 4) % banks, from the library's offsets. */
static void test_banks(void)
{
    static seed_kernel k;
    static char text[LAYOUT_TEXT_CAP], path[128];
    static const char *const arches[2] = {"gfx942", "gfx950"};
    int a, which;
    for (a = 0; a < 2; a++) {
        layout_arch arch;
        CHECK(layout_arch_preset(arches[a], &arch, NULL) == LAYOUT_OK);
        for (which = 0; which < SEED_KERNEL_COUNT; which++) {
            const layout_descriptor *d = &k.write_desc;
            int64_t r, c, coord[2], off;
            const char *p;
            CHECK(seed_kernel_build(&k, (seed_kernel_id)which, arch.n_banks, NULL) == LAYOUT_OK);
            desc_text(d, text);
            CHECK_EQ_I64(run_tool(NULL, "banks '%s' --arch %s --elem 2", text, arches[a]), 0);
            p = grid_body(g_out);
            for (r = 0; r < layout_desc_length(d, 0); r++) {
                int64_t label;
                CHECK(next_int_after(g_out, "", &p, &label) && label == r);
                p++;
                for (c = 0; c < layout_desc_length(d, 1); c++) {
                    char *end;
                    int64_t got = strtoll(p, &end, 10);
                    coord[0] = r;
                    coord[1] = c;
                    CHECK(layout_desc_offset(d, coord, &off, NULL) == LAYOUT_OK);
                    if (got != (off * 2 / 4) % arch.n_banks || end == p) {
                        CHECK_EQ_I64(got, (off * 2 / 4) % arch.n_banks);
                        return;
                    }
                    p = end;
                }
            }
        }
    }
    CHECK_EQ_I64(run_tool(NULL, "banks 'packed([2,2,2])'"), 2);
    CHECK_STR_CONTAINS(g_err, "needs a 2-D descriptor");
    /* The picture of a 64 x 32 tile. */
    snprintf(path, sizeof path, "%s/banks.svg", g_dir);
    CHECK_EQ_I64(run_tool(NULL, "banks 'naive([64,32],[34,1])' --arch gfx942 --elem 2 --svg '%s'", path), 0);
    check_svg(path, 32 * 20, 64 * 14);
}

static void test_verify(void)
{
    static seed_kernel k;
    static char text[LAYOUT_TEXT_CAP];
    int which;
    for (which = 0; which < SEED_KERNEL_COUNT; which++) {
        CHECK(seed_kernel_build(&k, (seed_kernel_id)which, 32, NULL) == LAYOUT_OK);
        desc_text(&k.write_desc, text);
        CHECK_EQ_I64(run_tool(NULL, "verify '%s'", text), 0);
        CHECK_STR_CONTAINS(g_out, "injective:  yes");
        CHECK_STR_CONTAINS(g_out, "verdict: OK");
    }
    /* The XOR descriptor is a bijection; the padded one is not. */
    CHECK(seed_kernel_build(&k, SEED_K08, 32, NULL) == LAYOUT_OK);
    desc_text(&k.write_desc, text);
    CHECK_EQ_I64(run_tool(NULL, "verify '%s'", text), 0);
    CHECK_STR_CONTAINS(g_out, "bijective:  yes");
    CHECK_STR_CONTAINS(g_out, "dim 1 (length 32): vector 8");
    CHECK_EQ_I64(run_tool(NULL, "verify 'naive([64,32],[34,1])'"), 0);
    CHECK_STR_CONTAINS(g_out, "bijective:  no - offset 32 is never used");
    /* Problems: exit 1 and named in the verdict. */
    CHECK_EQ_I64(run_tool(NULL, "verify 'naive([4,4],[1,1])'"), 1);
    CHECK_STR_CONTAINS(g_out, "injective:  NO - (0,1) and (1,0) share offset 1");
    CHECK_STR_CONTAINS(g_out, "verdict: 1 problem - not injective;");
    CHECK_EQ_I64(run_tool(NULL, "verify 'packed([8,4]) | T{xor([8,3]):[0,1]->[0,1]}'"), 1);
    CHECK_STR_CONTAINS(g_out, "modulus 3 is not a power of two");
    CHECK_STR_CONTAINS(g_out, "OVER-CLAIMS");
    CHECK_EQ_I64(run_tool(NULL, "verify 'packed([4,8]) | T{pass(5):[0]->[0] ; pass(8):[1]->[1]}'"), 1);
    CHECK_STR_CONTAINS(g_out, "declared length 5 but its producer declares 4");
}

/* check on every seed kernel, both archs: the JSON numbers are the library's. */
static void test_check_seed_kernels(void)
{
    static seed_kernel k;
    static char wd[LAYOUT_TEXT_CAP], rd[LAYOUT_TEXT_CAP], wdist[LAYOUT_TEXT_CAP], rdist[LAYOUT_TEXT_CAP];
    static const char *const arches[2] = {"gfx942", "gfx950"};
    int a, which;
    for (a = 0; a < 2; a++) {
        layout_arch arch;
        CHECK(layout_arch_preset(arches[a], &arch, NULL) == LAYOUT_OK);
        for (which = 0; which < SEED_KERNEL_COUNT; which++) {
            layout_kernel_spec spec;
            layout_kernel_result res;
            const char *p;
            int64_t v = -1, sum = 0;
            int rc;
            CHECK(seed_kernel_build(&k, (seed_kernel_id)which, arch.n_banks, NULL) == LAYOUT_OK);
            memset(&spec, 0, sizeof spec);
            spec.write_desc = &k.write_desc;
            spec.write_dist = &k.write_dist;
            spec.read_desc = &k.read_desc;
            spec.read_dist = &k.read_dist;
            spec.elem_bytes = 2;
            spec.tiles = SEED_TILES;
            CHECK(layout_check_kernel(&arch, &spec, &res, NULL) == LAYOUT_OK);
            desc_text(&k.write_desc, wd);
            desc_text(&k.read_desc, rd);
            dist_text(&k.write_dist, wdist);
            dist_text(&k.read_dist, rdist);
            /* --strict: every conflict counts (the default counts only
             * high-confidence rules: test_check_lint_policy) */
            rc = run_tool(NULL, "check --arch %s --elem 2 --lds '%s' --read-lds '%s' --write '%s' --read '%s' "
                                "--tiles %lld --json --strict",
                          arches[a], wd, rd, wdist, rdist, (long long)SEED_TILES);
            CHECK_EQ_I64(rc, res.extra_cycles_per_tile > 0 ? 1 : 0);
            CHECK_MSG(json_check_valid(g_out, 0), "invalid JSON: %.200s", g_out);
            p = g_out;
            CHECK(next_int_after(g_out, "\"counted_cycles\":", &p, &v));
            CHECK_EQ_I64(v, res.extra_cycles_per_tile);
            p = g_out;
            CHECK(next_int_after(g_out, "\"extra_cycles_per_tile\":", &p, &v));
            CHECK_EQ_I64(v, res.write.extra_cycles_per_tile);
            p = strstr(g_out, "\"report\":");
            if (p) p = json_check_value(p + 9, 0); /* past the checker's report */
            CHECK(p && next_int_after(g_out, "\"extra_cycles_per_tile\":", &p, &v));
            CHECK_EQ_I64(v, res.extra_cycles_per_tile);
            CHECK(next_int_after(g_out, "\"sq_lds_bank_conflict\":", &p, &v));
            CHECK_EQ_I64(v, res.sq_lds_bank_conflict);
            CHECK(next_int_after(g_out, "\"sq_insts_lds\":", &p, &v));
            CHECK_EQ_I64(v, res.sq_insts_lds);
            /* The per-instruction costs (before the checker's own report) add
             * up to the library's per-tile total; so do the report's. */
            {
                char *report = strstr(g_out, "],\"report\":");
                CHECK(report != NULL);
                if (report) {
                    *report = '\0';
                    p = g_out;
                    while (next_int_after(g_out, "\"extra_cycles\":", &p, &v)) sum += v;
                    CHECK_EQ_I64(sum, res.extra_cycles_per_tile);
                    *report = ']';
                    p = report;
                    CHECK(next_int_after(g_out, "\"extra_cycles\":", &p, &v));
                    CHECK_EQ_I64(v, res.extra_cycles_per_tile);
                }
            }
            /* Text report: the same counters and the verdict. */
            rc = run_tool(NULL, "check --arch %s --elem 2 --lds '%s' --read-lds '%s' --write '%s' --read '%s' --tiles %lld "
                                "--strict",
                          arches[a], wd, rd, wdist, rdist, (long long)SEED_TILES);
            CHECK_EQ_I64(rc, res.extra_cycles_per_tile > 0 ? 1 : 0);
            {
                char want[128];
                snprintf(want, sizeof want, "SQ_LDS_BANK_CONFLICT %lld, SQ_INSTS_LDS %lld",
                         (long long)res.sq_lds_bank_conflict, (long long)res.sq_insts_lds);
                CHECK_STR_CONTAINS(g_out, want);
                CHECK_STR_CONTAINS(g_out, rc ? "verdict: CONFLICTS" : "verdict: conflict-free");
            }
        }
    }
}

/* The lint policy: by default only conflicts of a rule of
 * high confidence fail; --strict counts every conflict; --fail-above CYCLES
 * fails only above that many per tile.  Seed kernel 01 reads with
 * ds_read_u16: 448 extra cycles per tile on gfx942 (the talk's table:
 * SQ_LDS_BANK_CONFLICT 3670016 over 8192 tiles), whose b16 read rule is
 * high (docs/lds-model.md §2.2); on gfx950 the b16 read rule is "assumed
 * half-waves", low (§2.3). */
static void test_check_lint_policy(void)
{
    static seed_kernel k;
    static char wd[LAYOUT_TEXT_CAP], rd[LAYOUT_TEXT_CAP], wdist[LAYOUT_TEXT_CAP], rdist[LAYOUT_TEXT_CAP];
    static char base[4 * LAYOUT_TEXT_CAP + 128];
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    desc_text(&k.write_desc, wd);
    desc_text(&k.read_desc, rd);
    dist_text(&k.write_dist, wdist);
    dist_text(&k.read_dist, rdist);
    snprintf(base, sizeof base, "--elem 2 --lds '%s' --read-lds '%s' --write '%s' --read '%s'", wd, rd, wdist, rdist);
    CHECK_EQ_I64(run_tool(NULL, "check --arch gfx942 %s", base), 1);
    CHECK_STR_CONTAINS(g_out, "lint: exit 1: all 448 extra cycles are of high confidence\n");
    CHECK_EQ_I64(run_tool(NULL, "check --arch gfx942 %s --fail-above 447", base), 1);
    CHECK_EQ_I64(run_tool(NULL, "check --arch gfx942 %s --fail-above 448", base), 0);
    CHECK_STR_CONTAINS(g_out, "verdict: CONFLICTS - 448 extra cycles per tile");
    CHECK_STR_CONTAINS(g_out, "lint: exit 0: all 448 extra cycles are of high confidence, not above 448\n");
    CHECK(seed_kernel_build(&k, SEED_K01, 64, NULL) == LAYOUT_OK);
    desc_text(&k.write_desc, wd);
    desc_text(&k.read_desc, rd);
    snprintf(base, sizeof base, "--elem 2 --lds '%s' --read-lds '%s' --write '%s' --read '%s'", wd, rd, wdist, rdist);
    CHECK_EQ_I64(run_tool(NULL, "check --arch gfx950 %s", base), 0);
    CHECK_STR_CONTAINS(g_out, "verdict: CONFLICTS");
    CHECK_STR_CONTAINS(g_out, "lint: exit 0: none of the ");
    CHECK_EQ_I64(run_tool(NULL, "check --arch gfx950 %s --strict", base), 1);
    CHECK_STR_CONTAINS(g_out, "lint: exit 1: --strict counts all ");
    CHECK_EQ_I64(run_tool(NULL, "check --arch gfx950 %s --json", base), 0);
    CHECK_STR_CONTAINS(g_out, "\"lint\":{\"strict\":false,\"fail_above\":0,\"counted_cycles\":0,\"exit\":0}");
    CHECK_STR_CONTAINS(g_out, "\"conflict_free\":false");
    /* bad thresholds are bad input */
    CHECK_EQ_I64(run_tool(NULL, "check --arch gfx942 %s --fail-above -1", base), 2);
    CHECK_EQ_I64(run_tool(NULL, "check --arch gfx942 %s --fail-above 1k", base), 2);
}

/* Column of the first occurrence of `word` in `line` (up to its newline), or -1. */
static int column_of(const char *line, const char *word)
{
    const char *nl = strchr(line, '\n'), *at = strstr(line, word);
    return at && (!nl || at < nl) ? (int)(at - line) : -1;
}

/* Longest line of `text` from the line starting with `from` on. */
static int widest_line_from(const char *text, const char *from)
{
    const char *p = strstr(text, from);
    int widest = 0;
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        if (n > widest) widest = n;
        p = nl ? nl + 1 : NULL;
    }
    return widest;
}

/* Names and looks.  The seed kernel 01 accesses (64 x 32
 * fp16) give suggest rows of every family, triton_swizzled ones included. */
#define SUG_W "'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'"
#define SUG_R "'dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'"
static void test_names_and_looks(void)
{
    /* the suggest table: every column as wide as its widest entry, so each
     * row's write ops start under "write" and its numbers end under the
     * header's last column */
    CHECK_EQ_I64(run_tool(NULL, "suggest --arch gfx942 --elem 2 --shape 64,32 --write " SUG_W " --read " SUG_R
                                " --family triton_swizzled,ck_xor --top 8"),
                 0);
    {
        const char *head = strstr(g_out, "rank  family");
        int w = head ? column_of(head, "write") : -1, end = head ? column_of(head, "LDS bytes") : -1, rows = 0, tsw = 0;
        CHECK(head && w > 0 && end > 0);
        for (const char *line = head ? strchr(head, '\n') + 1 : NULL; line && line[0] == ' ' && line[1] == ' ';
             line = strchr(line, '\n') + 1) {
            int ops = column_of(line, " x ds_"), len = (int)(strchr(line, '\n') - line);
            rows++;
            tsw += column_of(line, "triton_swizzled") > 0;
            CHECK_MSG(ops - 1 == w && line[w - 1] == ' ', "row %d: write ops at %d, header at %d:\n%s", rows, ops - 1, w,
                      g_out);
            CHECK_MSG(len == end + (int)strlen("LDS bytes"), "row %d ends at %d, header at %d", rows, len,
                      end + (int)strlen("LDS bytes"));
        }
        CHECK_EQ_I64(rows, 8);
        CHECK(tsw > 0);
    }
    CHECK_STR_CONTAINS(g_out, "(32 banks x 4 B, wave64)");
    CHECK_STR_CONTAINS(g_out, "extra/tile");
    /* one vocabulary per vendor: NVIDIA's warps and bank conflicts */
    CHECK_EQ_I64(run_tool(NULL, "suggest --arch sm_90 --elem 2 --shape 32,32 --write 'dist(R=[], H=([4,8],[4,8]), "
                                "P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' --read 'dist(R=[], H=([4,8],[4,8]), "
                                "P=([(1,0)],[(2,0),(1,1)]), Y=[(2,1)])' --family pad"),
                 1);
    CHECK_STR_CONTAINS(g_out, "verdict: no conflict-free layout in these families (all exhausted); best 48 bank "
                              "conflicts per tile\n");
    /* by hand: with no bytes to pad, the best pad is none; a read lane l of
     * warp w loads 16 B at row 8w + l % 8, column 8 * (l / 8): 128 B rows, so
     * rows r and r + 2 of a quarter-warp share banks 16r % 32 .. +3: 4-way,
     * 3 extra wavefronts in each of 4 quarters, 12 per warp, 48 for 4 warps */
    CHECK_STR_CONTAINS(g_out, "(32 banks x 4 B, warp32)");
    CHECK_STR_CONTAINS(g_out, "conflicts/tile");
    CHECK_STR_CONTAINS(g_out, "Pareto front (bank conflicts per tile vs LDS bytes");
    CHECK(strstr(g_out, "wave") == NULL && strstr(g_out, "extra cycles") == NULL && strstr(g_out, "extra/tile") == NULL);
    CHECK_EQ_I64(run_tool(NULL, "suggest --stride 4 --elem 4 --arch sm_90"), 1);
    CHECK_STR_CONTAINS(g_out, "one warp on sm_90 (32 banks x 4 B, warp32)");
    CHECK_STR_CONTAINS(g_out, "bank conflicts per access");
    CHECK(strstr(g_out, "wave") == NULL && strstr(g_out, "extra cycles") == NULL);
    /* a 128 x 128 tile's bank map fits the terminal ($COLUMNS, else 80):
     * 128 columns of 3-digit labels take 3 + 1 + 128 * 4 = 516 */
    {
        const char *cols = getenv("COLUMNS");
        char saved[32] = "";
        if (cols) snprintf(saved, sizeof saved, "%s", cols);
        unsetenv("COLUMNS");
        CHECK_EQ_I64(run_tool(NULL, "suggest --arch gfx942 --elem 2 --shape 128,128 --family pad --write "
                                    "'dist(R=[], H=([4,8,4],[8,2,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(1,2),(2,1),(2,2)])' "
                                    "--read 'dist(R=[], H=([4,8,4],[8,2,8]), P=([(1,0)],[(1,1),(2,0)]), "
                                    "Y=[(1,2),(2,1),(2,2)])'"),
                     1);
        CHECK_EQ_I64(widest_line_from(g_out, "bank map of the winner"), 80);
        CHECK_STR_CONTAINS(g_out, "(columns 0..18 of 128: the map is 516 wide, the terminal 80 ($COLUMNS);\n"
                                  " all of it: --svg FILE, or layout banks WINNER --html FILE, same --arch, --elem)\n");
        setenv("COLUMNS", "600", 1);
        run_tool(NULL, "suggest --arch gfx942 --elem 2 --shape 128,128 --family pad --write "
                       "'dist(R=[], H=([4,8,4],[8,2,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(1,2),(2,1),(2,2)])' "
                       "--read 'dist(R=[], H=([4,8,4],[8,2,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(1,2),(2,1),(2,2)])'");
        CHECK_EQ_I64(widest_line_from(g_out, "bank map of the winner"), 516);
        CHECK(strstr(g_out, "(columns 0..") == NULL);
        if (saved[0]) setenv("COLUMNS", saved, 1);
        else unsetenv("COLUMNS");
    }
    /* layout arch: presets by vendor, then generation (CDNA2 < CDNA3 < CDNA4
     * < RDNA2 < RDNA3 < RDNA4; Turing < Ampere < Ada < Hopper < Blackwell) */
    {
        static const char *const order[] = {"\ngfx90a ", "\ngfx942 ", "\ngfx950 ", "\ngfx1030 ", "\ngfx11 ",
                                            "\ngfx1100 ", "\ngfx12 ", "\nsm_75 ", "\nsm_80 ", "\nsm_86 ",
                                            "\nsm_89 ", "\nsm_90 ", "\nsm_100 ", "\nsm_120 ", "\nxe-hpg "};
        const char *last = NULL;
        CHECK_EQ_I64(run_tool(NULL, "arch"), 0);
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            const char *at = strstr(g_out, order[i]);
            CHECK_MSG(at && (!last || at > last), "%s out of order:\n%s", order[i] + 1, g_out);
            if (at) last = at;
        }
        CHECK(strstr(g_out, " wave ") == NULL); /* the column of both vendors says lanes */
    }
    /* layout --help: every summary starts in one column, calibrate's too */
    {
        int col = -1, n = 0;
        CHECK_EQ_I64(run_tool(NULL, "--help"), 0);
        for (const char *line = strstr(g_out, "commands:\n"); line && (line = strchr(line, '\n')) && line[1] == ' ';
             n++) {
            const char *p = line + 3;
            while (*p && *p != ' ') p++; /* the name */
            while (*p == ' ') p++;       /* the gap */
            if (col < 0) col = (int)(p - line - 1);
            CHECK_MSG((int)(p - line - 1) == col, "summary at %d, first at %d:\n%s", (int)(p - line - 1), col, g_out);
            line++;
        }
        CHECK(n >= 12);
        CHECK_STR_CONTAINS(g_out, "\n  calibrate  a profiler's");
    }
    /* --help of check and suggest point to the access notation */
    CHECK_EQ_I64(run_tool(NULL, "check --help"), 0);
    CHECK_STR_CONTAINS(g_out, "the access notation: docs/access.md");
    CHECK_EQ_I64(run_tool(NULL, "suggest --help"), 0);
    CHECK_STR_CONTAINS(g_out, "the access notation: docs/access.md");
}

/* Known counters of the talk's table (gfx942, 8192 tiles) and the picture. */
static void test_check_known_answers_and_svg(void)
{
    static seed_kernel k;
    static char wd[LAYOUT_TEXT_CAP], rd[LAYOUT_TEXT_CAP], wdist[LAYOUT_TEXT_CAP], rdist[LAYOUT_TEXT_CAP], path[128];
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    desc_text(&k.write_desc, wd);
    desc_text(&k.read_desc, rd);
    dist_text(&k.write_dist, wdist);
    dist_text(&k.read_dist, rdist);
    snprintf(path, sizeof path, "%s/k01.svg", g_dir);
    CHECK_EQ_I64(run_tool(NULL, "check --arch gfx942 --elem 2 --lds '%s' --read-lds '%s' --write '%s' --read '%s' "
                                "--tiles 8192 --svg '%s'",
                          wd, rd, wdist, rdist, path),
                 1);
    CHECK_STR_CONTAINS(g_out, "SQ_LDS_BANK_CONFLICT 3670016, SQ_INSTS_LDS 294912");
    CHECK_STR_CONTAINS(g_out, "read: 8 x ds_read_u16 per wave");
    CHECK_STR_CONTAINS(g_out, "extra cycles per wave: 14 14 14 14");
    check_svg(path, 32 * 20, 64 * 14);
    {
        static char svg[1 << 22];
        slurp(path, svg, sizeof svg);
        CHECK_STR_CONTAINS(svg, "worst read: warp 0 step 0, ds_read_u16, 14 extra cycles");
        CHECK_STR_CONTAINS(svg, "worst write: warp 0 step 0, ds_write_b128, 0 extra cycles");
        CHECK_STR_CONTAINS(svg, "(conflict)");
    }
    CHECK(seed_kernel_build(&k, SEED_K08, 32, NULL) == LAYOUT_OK);
    desc_text(&k.write_desc, wd);
    dist_text(&k.write_dist, wdist);
    dist_text(&k.read_dist, rdist);
    snprintf(path, sizeof path, "%s/k08.svg", g_dir);
    CHECK_EQ_I64(run_tool(NULL, "check --arch gfx942 --elem 2 --lds '%s' --write '%s' --read '%s' --tiles 8192 --svg '%s'",
                          wd, wdist, rdist, path),
                 0);
    CHECK_STR_CONTAINS(g_out, "SQ_LDS_BANK_CONFLICT 0, SQ_INSTS_LDS 65536");
    CHECK_STR_CONTAINS(g_out, "verdict: conflict-free");
    check_svg(path, 32 * 20, 64 * 14);
    /* A read distribution over other tile dims than the LDS view: bad input. */
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(run_tool(NULL, "check --lds 'packed([64])' --write '%s' --read '%s'", wdist, rdist), 2);
}

/* What ck_tile silently allows is flagged: a b128 vector on 68-byte rows
 * (the guaranteed vector claims 8 contiguous fp16 on a padded row). */
static void test_check_flags_and_one_p(void)
{
    static const char *w = "dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])";
    static const char *r = "dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])";
    layout_descriptor lds, view;
    layout_distribution wd, rd;
    layout_arch arch;
    layout_kernel_spec spec;
    layout_kernel_result res;
    char want[96];
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    CHECK(layout_desc_from_text("naive([64,32],[34,1],gvl=8,gvs=1)", &lds, NULL, NULL) == LAYOUT_OK);
    CHECK(layout_desc_from_text("naive([32,64],[1,34])", &view, NULL, NULL) == LAYOUT_OK);
    CHECK(layout_dist_from_text(w, 64, 0, &wd, NULL, NULL) == LAYOUT_OK);
    CHECK(layout_dist_from_text(r, 64, 0, &rd, NULL, NULL) == LAYOUT_OK);
    memset(&spec, 0, sizeof spec);
    spec.write_desc = &lds;
    spec.write_dist = &wd;
    spec.read_desc = &view;
    spec.read_dist = &rd;
    spec.elem_bytes = 2;
    spec.tiles = 1;
    CHECK(layout_check_kernel(&arch, &spec, &res, NULL) == LAYOUT_OK);
    CHECK(res.write.n_misaligned == 1);
    CHECK_EQ_I64(run_tool(NULL, "check --lds 'naive([64,32],[34,1],gvl=8,gvs=1)' --read-lds 'naive([32,64],[1,34])' "
                                "--write '%s' --read '%s' --strict",
                          w, r),
                 res.extra_cycles_per_tile > 0 ? 1 : 0);
    CHECK_STR_CONTAINS(g_out, "write: 1 x ds_write_b128 [1 misaligned] per wave");
    CHECK_STR_CONTAINS(g_out, "needs 2 x ds_write2_b32");
    snprintf(want, sizeof want, "per tile: write %lld extra cycles", (long long)res.write.extra_cycles_per_tile);
    CHECK_STR_CONTAINS(g_out, want);
    run_tool(NULL, "check --lds 'naive([64,32],[34,1],gvl=8,gvs=1)' --read-lds 'naive([32,64],[1,34])' "
                   "--write '%s' --read '%s' --json",
             w, r);
    CHECK(json_check_valid(g_out, 0));
    CHECK_STR_CONTAINS(g_out, "\"misaligned\":true");
    CHECK_STR_CONTAINS(g_out, "\"misaligned_steps\":1");
    /* One P list over 4 warps: every warp stores the whole tile. */
    CHECK_EQ_I64(run_tool(NULL, "check --lds 'packed([64,32])' --write 'dist(R=[], H=([64],[32]), P=([(1,0)]), "
                                "Y=[(2,0)], warps=4)' --read '%s' --strict",
                          w),
                 1);
    CHECK_STR_CONTAINS(g_out, "write: 4 x ds_write_b128 per wave, 4 waves");
}

/* cost: known answers of docs/lds-model.md §4.3, then random instructions against the library. */
static void test_cost(void)
{
    static char input[1 << 18];
    layout_arch arch;
    layout_instr in;
    harness_rng r = {0xc057u};
    long n = harness_scaled(200), i;
    size_t len = 0;
    int lane;
    const char *p;
    int64_t v = -1;
    for (lane = 0; lane < 64; lane++) len += (size_t)snprintf(input + len, sizeof input - len, "%d ", 128 * lane);
    snprintf(input + len, sizeof input - len, "\n# two lanes\n0 128\n\n0\n");
    CHECK_EQ_I64(run_tool(input, "cost --arch gfx942 --width 4 --op read"), 1);
    CHECK_STR_CONTAINS(g_out, "instr 1 (line 1): extra 62, total 64");
    CHECK_STR_CONTAINS(g_out, "instr 2 (line 3): extra 1, total 3");
    CHECK_STR_CONTAINS(g_out, "instr 3 (line 5): extra 0, total 2");
    CHECK_STR_CONTAINS(g_out, "total: 3 instructions, 63 extra cycles");
    /* gfx950 b128 read, lanes {0,4} at 256*i: 0 extra (exit 0); {0,1}: 1. */
    CHECK_EQ_I64(run_tool("0 - - - 1024\n", "cost --arch gfx950 --width 16 --op read"), 0);
    CHECK_STR_CONTAINS(g_out, "extra 0,");
    CHECK_EQ_I64(run_tool("0 256\n", "cost --arch gfx950 --width 16 --op read --explain"), 1);
    CHECK_STR_CONTAINS(g_out, "extra 1,");
    CHECK_STR_CONTAINS(g_out, "serves 2 words");
    /* Random instructions: every line's cost is the library's. */
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    len = 0;
    for (i = 0; i < n; i++) {
        for (lane = 0; lane < 64; lane++) {
            if (harness_range(&r, 0, 7) == 0) len += (size_t)snprintf(input + len, sizeof input - len, "- ");
            else len += (size_t)snprintf(input + len, sizeof input - len, "%d ", (int)harness_range(&r, 0, 4095) * 4);
        }
        len += (size_t)snprintf(input + len, sizeof input - len, "\n");
    }
    run_tool(input, "cost --arch gfx942 --width 8 --op write");
    p = g_out;
    {
        const char *line = input;
        for (i = 0; i < n; i++) {
            layout_cost c;
            char *end;
            CHECK(layout_instr_init(&in, 64, 8, LAYOUT_WRITE, NULL) == LAYOUT_OK);
            in.active_mask = 0;
            for (lane = 0; lane < 64; lane++) {
                while (*line == ' ') line++;
                if (*line == '-') {
                    line++;
                    continue;
                }
                in.addr_bytes[lane] = (uint32_t)strtoul(line, &end, 10);
                in.active_mask |= (uint64_t)1 << lane;
                line = end;
            }
            line = strchr(line, '\n') + 1;
            CHECK(layout_instr_cost(&arch, &in, LAYOUT_IMPL_SCALAR, &c, NULL) == LAYOUT_OK);
            CHECK(next_int_after(g_out, "): extra ", &p, &v));
            if (v != c.extra_cycles) {
                CHECK_EQ_I64(v, c.extra_cycles);
                break;
            }
        }
    }
    /* Bad input: exit 2 with the line and column. */
    CHECK_EQ_I64(run_tool("0 4 x8\n", "cost --arch gfx942 --width 4 --op read"), 2);
    CHECK_STR_CONTAINS(g_err, "line 1, column 5: expected a byte address or '-', found 'x8'");
    CHECK_EQ_I64(run_tool("0 4294967296\n", "cost --arch gfx942 --width 4 --op read"), 2);
    CHECK_STR_CONTAINS(g_err, "is not a 32-bit byte address");
    CHECK_EQ_I64(run_tool("0\n", "cost --arch gfx942 --width 3 --op read"), 2);
    CHECK_EQ_I64(run_tool("0\n", "cost --arch gfx942 --width 4 --op load"), 2);
    CHECK_EQ_I64(run_tool("0\n", "cost --width 4 --op read"), 2);
    CHECK_EQ_I64(run_tool("0\n", "cost --arch sm_90 --width 12 --op read"), 2); /* no b96 on NVIDIA */
}

static void test_arch(void)
{
    size_t i;
    CHECK_EQ_I64(run_tool(NULL, "arch"), 0);
    for (i = 0; i < layout_arch_preset_count(); i++) CHECK_STR_CONTAINS(g_out, layout_arch_preset_name(i));
    CHECK_EQ_I64(run_tool(NULL, "arch gfx950"), 0);
    CHECK_STR_CONTAINS(g_out, "read  b128 4 groups: {0-3,12-15,20-27}");
    CHECK_STR_CONTAINS(g_out, "text: gfx950\n");
    CHECK_EQ_I64(run_tool(NULL, "arch 'arch(base=gfx942, name=g64, banks=64)'"), 0);
    CHECK_STR_CONTAINS(g_out, "text: arch(name=g64, banks=64");
    CHECK_EQ_I64(run_tool(NULL, "arch gfx943"), 2);
    CHECK_STR_CONTAINS(g_err, "'gfx943': unknown architecture; did you mean gfx942?");
    /* A custom arch drives the other commands. */
    CHECK_EQ_I64(run_tool("0 4\n", "cost --arch 'arch(banks=64, wave=32, rw b32=seq(32))' --width 4 --op read"), 0);
    CHECK_EQ_I64(run_tool("0 256\n", "cost --arch 'arch(banks=64, wave=32, rw b32=seq(32))' --width 4 --op read"), 1);
}

static void test_print(void)
{
    static seed_kernel k;
    static char text[LAYOUT_TEXT_CAP], want[LAYOUT_TEXT_CAP + 2];
    CHECK(seed_kernel_build(&k, SEED_K05, 32, NULL) == LAYOUT_OK);
    desc_text(&k.write_desc, text);
    CHECK_EQ_I64(run_tool(NULL, "print '%s'", text), 0);
    snprintf(want, sizeof want, "%s\n", text);
    CHECK(strcmp(g_out, want) == 0);
    CHECK_EQ_I64(run_tool(NULL, "print 'aligned([4,5], align=4)'"), 0);
    CHECK(strcmp(g_out, "naive([4,5],[8,1])\n") == 0);
}

/* The JSON check the tests below rely on refuses what is not JSON. */
static void test_json_check(void)
{
    CHECK(json_check_valid(" {\"a\": [1, -2, \"x\\u00e9\\n\"], \"b\": {}} ", 0));
    CHECK(!json_check_valid("{\"a\":}", 0));
    CHECK(!json_check_valid("{\"a\": 1,}", 0));
    CHECK(!json_check_valid("[1] 2", 0));
    CHECK(!json_check_valid("\"\\x\"", 0));
    CHECK(!json_check_valid("\"\\u12\"", 0));
    CHECK(json_check_valid("\"\xc3\xa9\"", 0) && !json_check_valid("\"\xc3\xa9\"", 1));
}

int main(int argc, char **argv)
{
    RUN(test_json_check);
    struct stat sb;
    if (argc > 1) g_tool = argv[1];
    if (!g_tool[0] || stat(g_tool, &sb) != 0) {
        printf("test_tool: note: the layout tool was not built (%s); nothing to test\n", g_tool[0] ? g_tool : "no path");
        return harness_finish("test_tool");
    }
    snprintf(g_dir, sizeof g_dir, "/tmp/layout-test-tool-XXXXXX");
    if (!mkdtemp(g_dir)) {
        printf("test_tool: cannot create a scratch directory\n");
        return 1;
    }
    g_have_xmllint = have_program("xmllint");
    g_have_rsvg = have_program("rsvg-convert");
    RUN(test_version_help_and_usage_errors);
    RUN(test_parse_errors_show_a_caret);
    RUN(test_offsets);
    RUN(test_banks);
    RUN(test_verify);
    RUN(test_check_seed_kernels);
    RUN(test_check_known_answers_and_svg);
    RUN(test_check_lint_policy);
    RUN(test_names_and_looks);
    RUN(test_check_flags_and_one_p);
    RUN(test_cost);
    RUN(test_arch);
    RUN(test_print);
    {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
        if (system(cmd) != 0) printf("test_tool: note: could not remove %s\n", g_dir);
    }
    return harness_finish("test_tool");
}
