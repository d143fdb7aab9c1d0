/* Every error message of the `layout` command-line tool, with its exit
 * status, in one table.  Each row runs the tool (path from
 * -DLAYOUT_TOOL_PATH or argv[1]) and requires the exit status and every
 * listed piece of stderr.  Path errors name the path and the reason
 * (strerror's text for the system's answer), usage errors name the command,
 * option or argument, spec errors carry the library's message with the
 * column and a caret under the spot.
 *
 * "@D" in a row stands for this run's scratch directory, which holds:
 *   dir/        a directory          empty       an empty file
 *   big         16 KiB + 8 bytes     nul         a spec with a NUL byte
 *   bad         a malformed spec     locked      mode 000 (skipped as root)
 * A new command's errors get a row each. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"

#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LAYOUT_TOOL_PATH
#define LAYOUT_TOOL_PATH ""
#endif

static const char *g_tool = LAYOUT_TOOL_PATH;
static char g_dir[64];
static char g_out[1 << 16], g_err[1 << 16];

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
}

static void write_bytes(const char *path, const char *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return;
    if (n) fwrite(bytes, 1, n, f);
    fclose(f);
}

/* Copy `text` into out, replacing every "@D" by the scratch directory. */
static void expand(const char *text, char *out, size_t cap)
{
    size_t k = 0, dl = strlen(g_dir);
    for (const char *p = text; *p && k + dl + 1 < cap; p++) {
        if (p[0] == '@' && p[1] == 'D') {
            memcpy(out + k, g_dir, dl);
            k += dl;
            p++;
        } else {
            out[k++] = *p;
        }
    }
    out[k] = '\0';
}

/* Run `layout ARGS` with stdin text; returns the exit status (-1: no exit). */
static int run_tool(const char *stdin_text, const char *args)
{
    static char cmd[1 << 14], in_path[128], out_path[128], err_path[128];
    snprintf(in_path, sizeof in_path, "%s/stdin", g_dir);
    snprintf(out_path, sizeof out_path, "%s/stdout", g_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr", g_dir);
    write_bytes(in_path, stdin_text ? stdin_text : "", stdin_text ? strlen(stdin_text) : 0);
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=87 '%s' %s <'%s' >'%s' 2>'%s'", g_tool,
             args, in_path, out_path, err_path);
    int st = system(cmd);
    slurp(out_path, g_out, sizeof g_out);
    slurp(err_path, g_err, sizeof g_err);
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

typedef struct cli_case {
    const char *args;    /* shell text after `layout`; @D = scratch dir */
    const char *stdin_text;
    int status;          /* expected exit status */
    const char *want[3]; /* pieces of stderr, each required (NULL: unused) */
} cli_case;

#define DIST64 "'dist(R=[], H=([64],[32]), P=([(1,0)]), Y=[(2,0)])'"
/* Seed kernel 01: the write distribution of its 64 x 32 tile and the read
 * distribution of the transposed 32 x 64 tile (4 waves of 64 lanes). */
#define W01 "'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'"
#define R01 "'dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'"
/* The view of the same memory the read side needs (the transpose of packed([64,32])). */
#define T01 "'packed([64,32]) | T{pass(32):[1]->[0]; pass(64):[0]->[1]}'"

static const cli_case k_cases[] = {
    /* ---- usage: commands, options, arguments */
    {"", NULL, 2, {"usage: layout <command> [options]", "commands:", NULL}},
    {"frobnicate", NULL, 2, {"layout: error: unknown command 'frobnicate'", "usage: layout <command>", NULL}},
    {"offsets", NULL, 2, {"layout offsets: error: missing SPEC (see layout offsets --help)", NULL, NULL}},
    {"banks", NULL, 2, {"layout banks: error: missing SPEC (see layout banks --help)", NULL, NULL}},
    {"print", NULL, 2, {"layout print: error: expected exactly one SPEC", NULL, NULL}},
    {"verify 'packed([4])' 'packed([4])'", NULL, 2, {"layout verify: error: expected exactly one SPEC", NULL, NULL}},
    {"arch gfx942 gfx11", NULL, 2, {"layout arch: error: expected at most one NAME", NULL, NULL}},
    /* a missing option is named exactly */
    {"check --lds 'packed([4])'", NULL, 2,
     {"layout check: error: missing options --write and --read (--lds, --write and --read are required)\n",
      "  hint: layout check --lds SPEC --write DIST --read DIST", NULL}},
    {"check --write " W01 " --read " R01, NULL, 2,
     {"layout check: error: missing option --lds (--lds, --write and --read are required)\n", NULL, NULL}},
    {"check --lds 'packed([4])' --write " W01, NULL, 2,
     {"layout check: error: missing option --read (--lds, --write and --read are required)\n", NULL, NULL}},
    {"emit --hip --lds 'packed([4])' --read " R01, NULL, 2,
     {"layout emit: error: missing option --write (--lds, --write and --read are required)\n", NULL, NULL}},
    {"cost --arch gfx942", NULL, 2,
     {"layout cost: error: missing options --width and --op (--arch, --width and --op are required)\n",
      "  hint: e.g. printf '0 4 8\\n' | layout cost --arch gfx942 --width 4 --op read", NULL}},
    {"cost --width 4 --op read", NULL, 2,
     {"layout cost: error: missing option --arch (--arch, --width and --op are required)\n", NULL, NULL}},
    {"offsets 'packed([4])' --bogus", NULL, 2,
     {"layout offsets: error: unknown option '--bogus' (see layout offsets --help)", NULL, NULL}},
    {"offsets 'packed([4])' extra", NULL, 2, {"layout offsets: error: unexpected argument 'extra'", NULL, NULL}},
    {"banks 'packed([4,4])' --arch", NULL, 2, {"layout banks: error: option --arch needs a value", NULL, NULL}},
    {"banks 'packed([4,4])' --elem 3", NULL, 2, {"layout banks: error: --elem 3 must be 1, 2, 4, 8 or 16 bytes", NULL, NULL}},
    {"banks 'packed([4,4])' --elem two", NULL, 2, {"layout banks: error: --elem 'two' is not an integer", NULL, NULL}},
    {"banks 'packed([4,4])' --elem 32", NULL, 2, {"layout banks: error: --elem 32 is outside 1..16", NULL, NULL}},
    {"cost --arch gfx942 --width 3 --op read", NULL, 2,
     {"layout cost: error: --width 3 must be 1, 2, 4, 8, 12 or 16", NULL, NULL}},
    {"cost --arch gfx942 --width 4 --op fetch", NULL, 2,
     {"layout cost: error: --op 'fetch' must be read or write", NULL, NULL}},
    {"cost --arch gfx942 --width 4 --op read --impl gpu", NULL, 2,
     {"layout cost: error: --impl 'gpu' must be auto, scalar or avx2", NULL, NULL}},
    {"cost --arch gfx942 --width 4 --op read", "0 4 x\n", 2,
     {"layout cost: error: line 1, column 5: expected a byte address or '-', found 'x'", NULL, NULL}},
    /* ---- a bad spec: the library's message, the column and a caret */
    {"offsets 'naive([8,32],[32 1])'", NULL, 2,
     {"layout offsets: error in the descriptor: column 18: expected ',' or ']', found '1'",
      "  naive([8,32],[32 1])\n                   ^\n", NULL}},
    {"print 'packed([4,0])'", NULL, 2, {"layout print: error in the descriptor: column 11: lengths[1] = 0 must be > 0", "^", NULL}},
    {"check --lds 'packed([64,32])' --write 'dist(R=[])' --read " DIST64, NULL, 2,
     {"layout check: error in --write: column 10: expected ',' then H=, found ')'", "^", NULL}},
    /* ---- semantic errors: the caret under the offending token, not column 1 */
    {"check --arch sm_90 --lds 'packed([64,32])' --write " W01 " --read " R01, NULL, 2,
     {"layout check: error in --write: column 41: P1 (lane) length 64 != "
      "wave_size 32\n",
      "  dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])\n"
      "                                          ^\n",
      "  hint: --arch runs 32 lanes at a time: the lengths of the lane P list (the last) must multiply to 32"}},
    {"check --lds 'packed([64,32])' --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), "
     "Y=[(2,1),(1,0)])' --read " R01, NULL, 2,
     {"layout check: error in --write: column 66: H0[0] (major 1, minor 0) "
      "is named 2 times by P and Y", "^", NULL}},
    {"check --lds 'packed([64,32])' --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), "
     "Y=[(2,1),(3,0)])' --read " R01, NULL, 2,
     {"layout check: error in --write: column 66: Y1 entry 0 has major 3",
      "^", NULL}},
    {"check --lds 'packed([64,32])' --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[])' "
     "--read " R01, NULL, 2,
     {"layout check: error in --write: column 59: Y lists = 0",
      "  dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[])\n"
      "                                                            ^\n", NULL}},
    {"check --lds 'packed([64,32])' --write 'dist(R=[], H=([4,16],[4,8,2]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' "
     "--read " R01, NULL, 2,
     {"layout check: error in --write: column 27: H1[2] (major 2, minor 2) "
      "is named 0 times", "^", NULL}},
    {"offsets 'naive([4,4],[4])'", NULL, 2,
     {"layout offsets: error in the descriptor: column 13: naive has 2 lengths but 1 strides",
      "  naive([4,4],[4])\n              ^\n", NULL}},
    {"offsets 'packed([4,0])'", NULL, 2,
     {"layout offsets: error in the descriptor: column 11:", "  packed([4,0])\n            ^\n",
      NULL}},
    {"offsets 'packed([4,4]) | T{foo(4):[0]->[0]}'", NULL, 2,
     {"layout offsets: error in the descriptor: column 19: unknown transform 'foo'",
      "  packed([4,4]) | T{foo(4):[0]->[0]}\n                    ^\n", NULL}},
    /* ---- a tile that does not fit its LDS view: what differs and the fix */
    {"check --elem 2 --lds 'packed([64,32])' --write " W01 " --read " R01, NULL, 2,
     {"layout check: error: the --read distribution covers a 32 x 64 tile, but --lds packed([64,32]) is 64 x 32\n",
      "  hint: the read side sees the same LDS memory through another view: give it with --read-lds SPEC, e.g. the "
      "transposed view --read-lds " T01 "\n", NULL}},
    {"emit --hip --elem 2 --lds 'packed([64,32])' --write " W01 " --read " R01, NULL, 2,
     {"layout emit: error: the --read distribution covers a 32 x 64 tile, but --lds packed([64,32]) is 64 x 32\n",
      "  hint: the read side sees the same LDS memory through another view: give it with --read-lds SPEC", NULL}},
    /* the hint's --read-lds is the fix: seed kernel 01 then runs (exit 1: its conflicts) */
    {"check --elem 2 --lds 'packed([64,32])' --read-lds " T01 " --write " W01 " --read " R01, NULL, 1, {NULL}},
    {"check --elem 2 --lds 'packed([32,64])' --read-lds 'packed([32,64])' --write " W01 " --read " R01, NULL, 2,
     {"layout check: error: the --write distribution covers a 64 x 32 tile, but --lds packed([32,64]) is 32 x 64\n",
      "  hint: --lds describes the tile the --write distribution stores: its dims must be the write tile's (64 x 32)",
      NULL}},
    {"check --elem 2 --lds 'packed([64,32])' --read-lds 'packed([64,32])' --write " W01 " --read " R01, NULL, 2,
     {"layout check: error: the --read distribution covers a 32 x 64 tile, but --read-lds packed([64,32]) is 64 x 32",
      "  hint: --read-lds must describe the tile the --read distribution loads (32 x 64)", NULL}},
    /* ---- architecture names: aliases accepted, typos answered with the closest name */
    {"arch H100", NULL, 0, {NULL}},
    {"arch cuda:90", NULL, 0, {NULL}},
    {"arch mi300x", NULL, 0, {NULL}},
    /* a name is answered in the user's words: the option, the value, the closest name */
    {"banks 'packed([4,4])' --arch sm90", NULL, 2,
     {"layout banks: error: --arch sm90: unknown architecture; did you mean sm_90?\n",
      "  hint: `layout arch` lists every preset and alias", NULL}},
    {"arch h10", NULL, 2, {"layout arch: error: 'h10': unknown architecture; did you mean H100 (sm_90)?\n", NULL, NULL}},
    {"check --arch gfx94 --lds 'packed([64,32])' --write " W01 " --read " R01, NULL, 2,
     {"layout check: error: --arch gfx94: unknown architecture; did you mean gfx942?\n", NULL, NULL}},
    /* a swap of two digits; and `layout arch NAME` has no --arch to blame */
    {"check --arch gfx924 --lds 'packed([64,32])' --write " W01 " --read " R01, NULL, 2,
     {"layout check: error: --arch gfx924: unknown architecture; did you mean gfx942?\n", NULL, NULL}},
    {"arch hopper", NULL, 2,
     {"layout arch: error: 'hopper': unknown architecture\n", "  hint: `layout arch` lists every preset and alias",
      NULL}},
    {"arch 'arch(base=gfx94, name=x)'", NULL, 2,
     {"layout arch: error in the architecture: column 11: name = \"gfx94\" is "
      "unknown; did you mean gfx942?", "  arch(base=gfx94, name=x)\n            ^\n", NULL}},
    {"triton --arch h10 @D/missing.ttgir", NULL, 2, {"did you mean H100 (sm_90)?", NULL, NULL}},
    /* ---- a bad arch name or arch text */
    {"banks 'packed([4,4])' --arch gfx0", NULL, 2, {"layout banks: error: --arch gfx0: unknown architecture\n", NULL, NULL}},
    {"arch gfx0", NULL, 2, {"layout arch: error: 'gfx0': unknown architecture\n", NULL, NULL}},
    {"banks 'packed([4,4])' --arch 'arch(banks=48, wave=64)'", NULL, 2,
     {"n_banks = 48 must be a power of two", "^", NULL}},
    /* ---- @FILE: every message names the path and the reason */
    {"offsets @@D/missing", NULL, 2, {"layout offsets: error: cannot open '@D/missing': No such file or directory", NULL, NULL}},
    {"offsets @@D/dir", NULL, 2, {"layout offsets: error: cannot read '@D/dir': Is a directory", NULL, NULL}},
    {"offsets @@D/empty", NULL, 2, {"layout offsets: error: '@D/empty' is empty: expected a spec", NULL, NULL}},
    {"offsets @-", "", 2, {"layout offsets: error: 'standard input' is empty: expected a spec", NULL, NULL}},
    {"offsets @@D/big", NULL, 2, {"layout offsets: error: '@D/big' is too large: longer than 16383 bytes", NULL, NULL}},
    {"offsets @@D/nul", NULL, 2, {"layout offsets: error: '@D/nul' contains a NUL byte", NULL, NULL}},
    {"offsets @", NULL, 2, {"layout offsets: error: '@' needs a file name (@FILE, or @- for standard input)", NULL, NULL}},
    {"offsets @@D/bad", NULL, 2, {"layout offsets: error in the descriptor: column 18", "^", NULL}},
    {"banks 'packed([4,4])' --arch @@D/dir", NULL, 2, {"layout banks: error: cannot read '@D/dir': Is a directory", NULL, NULL}},
    {"check --lds @@D/missing --write " DIST64 " --read " DIST64, NULL, 2,
     {"layout check: error: cannot open '@D/missing': No such file or directory", NULL, NULL}},
    {"triton @D/missing.ttgir", NULL, 2,
     {"layout triton: error: cannot open '@D/missing.ttgir': No such file or directory", NULL, NULL}},
    /* ---- every command, option and name gets "did you mean" */
    {"chek", NULL, 2, {"layout: error: unknown command 'chek'; did you mean check?\n", NULL, NULL}},
    {"help chek", NULL, 2, {"layout: error: unknown command 'chek'; did you mean check?\n", NULL, NULL}},
    {"check --jsn", NULL, 2,
     {"layout check: error: unknown option '--jsn'; did you mean --json? (see layout check --help)", NULL, NULL}},
    {"triton --sugest @D/missing.ttgir", NULL, 2,
     {"layout triton: error: unknown option '--sugest'; did you mean --suggest?", NULL, NULL}},
    {"offsets --dialect cutte 'packed([4])'", NULL, 2,
     {"layout offsets: error: --dialect cutte: unknown dialect; did you mean cute?\n", NULL, NULL}},
    {"convert --to trition 'packed([4])'", NULL, 2,
     {"layout convert: error: --to trition: unknown dialect; did you mean triton?\n", NULL, NULL}},
    {"suggest --shape 64,32 --write " W01 " --read " R01 " --family tritn_swizzled", NULL, 2,
     {"layout suggest: error: --family tritn_swizzled: unknown family; did you mean triton_swizzled?\n", NULL, NULL}},
    {"suggest --shape 64,32 --write " W01 " --read " R01 " --policy trst", NULL, 2,
     {"layout suggest: error: --policy 'trst' must be trust or split; did you mean trust?\n", NULL, NULL}},
    {"cost --arch gfx942 --width 4 --op rea", NULL, 2,
     {"layout cost: error: --op 'rea' must be read or write; did you mean read?\n", NULL, NULL}},
    /* a directory is named as one, not read as an empty text */
    {"triton @D/dir", NULL, 2, {"layout triton: error: '@D/dir' is a directory: expected a .ttgir file", NULL, NULL}},
    /* suggest with a shape the distributions do not cover: the words and hint `check` gives */
    {"suggest --shape 32,64 --write " W01 " --read " R01, NULL, 2,
     {"layout suggest: error: the --write distribution covers a 64 x 32 tile, but --shape is 32 x 64\n",
      "  hint: --shape describes the tile the --write distribution stores: its dims must be the write tile's "
      "(64 x 32)\n", NULL}},
    {"suggest --shape 64,32 --write " W01 " --read " W01 " --read-view 1,0", NULL, 2,
     {"layout suggest: error: the --read distribution covers a 64 x 32 tile, but the 64 x 32 tile seen through the "
      "read view is 32 x 64\n", NULL, NULL}},
    /* a bad number is refused, with a caret under the spot */
    {"suggest --shape 64,32x --write " W01 " --read " R01, NULL, 2,
     {"layout suggest: error: --shape 64,32x: expected a number after 'x' at the end\n", "  64,32x\n        ^\n",
      NULL}},
    {"offsets --shape 64,,32 'packed([4])'", NULL, 2,
     {"layout offsets: error: --shape 64,,32: expected a number at column 4, found ','\n", "  64,,32\n     ^\n",
      NULL}},
    {"offsets --shape 64:32 'packed([4])'", NULL, 2,
     {"layout offsets: error: --shape 64:32: expected ',' or 'x' between numbers at column 3, found ':'\n",
      "  64:32\n    ^\n", NULL}},
    {"check --lds 'packed([64,32])' --write " DIST64 " --read " DIST64 " --tiles 12k", NULL, 2,
     {"layout check: error: --tiles '12k' is not an integer\n", "  12k\n    ^\n", NULL}},
    /* ---- output paths */
    {"banks 'packed([4,4])' --svg @D/dir", NULL, 2, {"layout banks: error: cannot write '@D/dir': Is a directory", NULL, NULL}},
    {"banks 'packed([4,4])' --svg @D/no/such/dir.svg", NULL, 2,
     {"layout banks: error: cannot write '@D/no/such/dir.svg': No such file or directory", NULL, NULL}},
    {"check --lds 'packed([64,32])' --write " DIST64 " --read " DIST64 " --svg @D/dir", NULL, 2,
     {"layout check: error: cannot write '@D/dir': Is a directory", NULL, NULL}},
    {"check --lds 'packed([64,32])' --write " DIST64 " --read " DIST64 " --svg @D/no/such/dir.svg", NULL, 2,
     {"layout check: error: cannot write '@D/no/such/dir.svg': No such file or directory", NULL, NULL}},
};

static void test_every_cli_error(void)
{
    char args[4096], want[4096];
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        const cli_case *c = &k_cases[i];
        expand(c->args, args, sizeof args);
        int st = run_tool(c->stdin_text, args);
        CHECK_MSG(st == c->status, "layout %s: exit %d, want %d; stderr: %s", args, st, c->status, g_err);
        for (int k = 0; k < 3 && c->want[k]; k++) {
            expand(c->want[k], want, sizeof want);
            CHECK_MSG(strstr(g_err, want) != NULL, "layout %s: stderr lacks \"%s\":\n%s", args, want, g_err);
        }
        CHECK_MSG(strstr(g_err, "Sanitizer") == NULL && strstr(g_err, "runtime error") == NULL, "layout %s: %s", args,
                  g_err);
        /* the user's words: no message names a C function of the library */
        CHECK_MSG(strstr(g_err, "layout_") == NULL, "layout %s: a C name in the message:\n%s", args, g_err);
    }
}

/* An unreadable file: the reason is the system's (EACCES).  Root reads
 * anything, so the row is skipped there. */
static void test_unreadable_file(void)
{
    char path[128], args[256], want[256];
    snprintf(path, sizeof path, "%s/locked", g_dir);
    write_bytes(path, "packed([4])", 11);
    CHECK(chmod(path, 0) == 0);
    if (access(path, R_OK) == 0) {
        printf("test_cli_errors: note: running as root, the unreadable-file row is skipped\n");
        return;
    }
    snprintf(args, sizeof args, "offsets @%s", path);
    CHECK_EQ_I64(run_tool(NULL, args), 2);
    snprintf(want, sizeof want, "layout offsets: error: cannot open '%s': Permission denied", path);
    CHECK_STR_CONTAINS(g_err, want);
}

int main(int argc, char **argv)
{
    struct stat sb;
    char path[128], big[LAYOUT_TEXT_CAP + 8];
    if (argc > 1) g_tool = argv[1];
    if (!g_tool[0] || stat(g_tool, &sb) != 0) {
        printf("test_cli_errors: note: the layout tool was not built (%s); nothing to test\n",
               g_tool[0] ? g_tool : "no path");
        return harness_finish("test_cli_errors");
    }
    snprintf(g_dir, sizeof g_dir, "/tmp/layout-cli-errors-XXXXXX");
    if (!mkdtemp(g_dir)) {
        printf("test_cli_errors: cannot create a scratch directory\n");
        return 1;
    }
    snprintf(path, sizeof path, "%s/dir", g_dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/empty", g_dir);
    write_bytes(path, "", 0);
    memset(big, ' ', sizeof big);
    memcpy(big, "packed([4])", 11);
    snprintf(path, sizeof path, "%s/big", g_dir);
    write_bytes(path, big, sizeof big);
    snprintf(path, sizeof path, "%s/nul", g_dir);
    write_bytes(path, "packed([4])\0", 12);
    snprintf(path, sizeof path, "%s/bad", g_dir);
    write_bytes(path, "naive([8,32],[32 1])", 20);
    RUN(test_every_cli_error);
    RUN(test_unreadable_file);
    {
        char cmd[160];
        snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s'; rm -rf '%s'", g_dir, g_dir);
        if (system(cmd) != 0) printf("test_cli_errors: note: could not remove %s\n", g_dir);
    }
    return harness_finish("test_cli_errors");
}
