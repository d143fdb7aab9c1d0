/* Probe kernels (include/layout/emit.h, `layout emit`).
 *
 * (a) The emitter: output deterministic, the spec comment, the model's
 *     prediction, errors (buffer too small, bad arguments, bad specs through
 *     the tool get `layout check`'s messages).
 * (b) When clang-22 is on PATH: the probes of seed kernels 01-10 on gfx90a,
 *     gfx942, gfx950, gfx1100 and gfx1200, the layouts `make demo`
 *     suggests, and random specs (fixed seed), compiled to AMDGCN assembly;
 *     the DS instructions of the kernel (mnemonic and count, read2 / write2
 *     and st64 forms included; one tile per block, no loop) must equal the
 *     compiler model's per-wave prediction for the probe's architecture
 *     (layout_access_plan_make with that arch) on both sides, every probe,
 *     no tolerance.  The probe writes one typed access per planned
 *     instruction (its width, its proven alignment, pair halves from one
 *     base), so a difference means the compiler does not issue a planned
 *     piece as the planned instruction.  A table is printed per probe
 *     (random specs: the rows that differ); at full scale the number of
 *     probes per architecture is asserted.  Without clang-22 the compile
 *     part is skipped with a note.
 * (c) When clang++-22 is on PATH: probes built with -DLP_EMULATE run on the
 *     CPU (a thread per GPU thread) and their host check must find every
 *     element where the spec puts it, and (for unflagged specs) no access
 *     less aligned than its type claims; a lying vector hint must be caught.
 * (d) When clang-22 is on PATH: the CUDA probes of the twelve H100 specs
 *     (tests/fixtures/h100/specs.txt) compile for sm_90 warning-free, and
 *     the st.shared / ld.shared accesses of their PTX, count per width,
 *     equal the model's sm_90 plan (`layout check --json`) on each side.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "../examples/seed_kernels.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LAYOUT_TOOL_PATH
#define LAYOUT_TOOL_PATH ""
#endif

static const char *g_tool = LAYOUT_TOOL_PATH;
static char g_dir[64];
static int g_have_clang;

/* ---- helpers ---------------------------------------------------------------- */

static char *slurp(const char *path, size_t *n_out)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    if (!f) return NULL;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    buf[n] = '\0';
    if (n_out) *n_out = n;
    return buf;
}

static int write_file(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(text, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

static int run_shell(const char *cmd)
{
    int st = system(cmd);
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

/* The probe source of a spec (malloc'd), or NULL after a failed check. */
static char *emit(const layout_emit_spec *spec)
{
    size_t len = 0;
    layout_error e;
    layout_status s = layout_emit_probe(spec, NULL, 0, &len, &e);
    CHECK_MSG(s == LAYOUT_OK, "%s", e.message);
    if (s) return NULL;
    char *src = malloc(len + 1);
    if (!src) return NULL;
    s = layout_emit_probe(spec, src, len + 1, NULL, &e);
    CHECK_MSG(s == LAYOUT_OK, "%s", e.message);
    if (s) {
        free(src);
        return NULL;
    }
    return src;
}

static layout_emit_spec seed_emit_spec(const seed_kernel *k, const layout_arch *arch)
{
    layout_emit_spec es;
    memset(&es, 0, sizeof es);
    es.lang = LAYOUT_EMIT_HIP;
    es.arch = arch;
    es.write_desc = &k->write_desc;
    es.write_dist = &k->write_dist;
    es.read_desc = &k->read_desc;
    es.read_dist = &k->read_dist;
    es.elem_bytes = SK_ELEM_BYTES;
    es.tiles = SEED_TILES;
    return es;
}

/* ---- (a) the emitter ------------------------------------------------------------ */

static void test_deterministic_and_comment(void)
{
    static seed_kernel k;
    layout_arch arch;
    layout_error e;
    CHECK(layout_arch_preset("gfx942", &arch, &e) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K01, arch.n_banks, &e) == LAYOUT_OK);
    layout_emit_spec es = seed_emit_spec(&k, &arch);
    char *a = emit(&es), *b = emit(&es);
    CHECK(a && b);
    if (!a || !b) goto done;
    CHECK(strcmp(a, b) == 0);
    CHECK(strncmp(a, "/* liblayout probe kernel (HIP)", 31) == 0);
    CHECK_STR_CONTAINS(a, "--arch gfx942 --elem 2 --lds 'packed([64,32])'");
    CHECK_STR_CONTAINS(a, "--tiles 8192");
    CHECK_STR_CONTAINS(a, "write: 1 x ds_write_b128");
    CHECK_STR_CONTAINS(a, "read:  8 x ds_read_u16");
    CHECK_STR_CONTAINS(a, "__syncthreads();");
    CHECK(strstr(a, "asm") == NULL && strstr(a, "__builtin_amdgcn_ds") == NULL);
    /* The caller's spec text, verbatim; a comment end inside it is broken up. */
    es.spec_text = "--arch gfx942 --lds 'x */ y'";
    free(b);
    b = emit(&es);
    CHECK(b != NULL);
    if (b) {
        CHECK_STR_CONTAINS(b, "--arch gfx942 --lds 'x * / y'");
        CHECK(strstr(b, "x */ y") == NULL);
    }
    /* CUDA: the same kernel, CUDA keywords. */
    es.spec_text = NULL;
    es.lang = LAYOUT_EMIT_CUDA;
    free(b);
    b = emit(&es);
    CHECK(b != NULL);
    if (b) {
        CHECK(strncmp(b, "/* liblayout probe kernel (CUDA)", 32) == 0);
        CHECK_STR_CONTAINS(b, "cuda##name");
        CHECK_STR_CONTAINS(b, "aligned(16)");
    }
done:
    free(a);
    free(b);
}

static void test_errors(void)
{
    static seed_kernel k;
    layout_arch arch;
    layout_error e;
    size_t len = 0, len2 = 0;
    char small[64];
    CHECK(layout_arch_preset("gfx942", &arch, &e) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K08, arch.n_banks, &e) == LAYOUT_OK);
    layout_emit_spec es = seed_emit_spec(&k, &arch);
    CHECK(layout_emit_probe(&es, NULL, 0, &len, &e) == LAYOUT_OK);
    CHECK(len > 1000);
    CHECK(layout_emit_probe(&es, small, sizeof small, &len2, &e) == LAYOUT_ERR_BUFFER);
    CHECK_EQ_I64(len2, len);
    CHECK_STR_CONTAINS(e.message, "layout_emit_probe");
    CHECK(small[sizeof small - 1] == '\0');
    {
        char *buf = malloc(len + 1);
        CHECK(buf != NULL);
        if (buf) {
            CHECK(layout_emit_probe(&es, buf, len, NULL, &e) == LAYOUT_ERR_BUFFER); /* no room for the NUL */
            CHECK(layout_emit_probe(&es, buf, len + 1, NULL, &e) == LAYOUT_OK);
            CHECK_EQ_I64(strlen(buf), len);
            free(buf);
        }
    }
    CHECK(layout_emit_probe(NULL, NULL, 0, &len, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_emit_probe(&es, NULL, 10, &len, &e) == LAYOUT_ERR_NULL);
    layout_emit_spec bad = es;
    bad.elem_bytes = 3;
    CHECK(layout_emit_probe(&bad, NULL, 0, &len, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "elem_bytes = 3");
    bad = es;
    bad.tiles = 0;
    CHECK(layout_emit_probe(&bad, NULL, 0, &len, &e) == LAYOUT_ERR_ARG);
    bad = es;
    bad.lang = (layout_emit_lang)7;
    CHECK(layout_emit_probe(&bad, NULL, 0, &len, &e) == LAYOUT_ERR_ARG);
    bad = es;
    bad.write_dist = NULL;
    CHECK(layout_emit_probe(&bad, NULL, 0, &len, &e) == LAYOUT_ERR_NULL);
    bad = es;
    bad.read_desc = &k.write_desc; /* fine: 08 reads its write view */
    CHECK(layout_emit_probe(&bad, NULL, 0, &len, &e) == LAYOUT_OK);
    /* A read view whose dims are not the read distribution's. */
    {
        static layout_descriptor small_desc;
        int64_t lens[2] = {8, 8};
        CHECK(layout_packed(&small_desc, 2, lens, &e) == LAYOUT_OK);
        bad = es;
        bad.read_desc = &small_desc;
        CHECK(layout_emit_probe(&bad, NULL, 0, &len, &e) == LAYOUT_ERR_MISMATCH);
        CHECK_STR_CONTAINS(e.message, "read side");
    }
    CHECK_STR_CONTAINS(layout_emit_lang_name(LAYOUT_EMIT_CUDA), "cuda");
}

/* Bad specs through the tool: exit status 2 and `layout check`'s message. */
static void test_tool_errors(void)
{
    static const char *const cases[] = {
        "--elem 3 --lds 'packed([64,32])' --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' "
        "--read 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'",
        "--lds 'packed([64,32' --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' "
        "--read 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'",
        "--lds 'packed([64,32])' --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' "
        "--read 'dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'",
        "--arch gfx9999 --lds 'packed([64,32])' --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), "
        "Y=[(2,1)])' --read 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'",
        "--arch sm_90 --lds 'packed([64,32])' --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), "
        "Y=[(2,1)])' --read 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'",
    };
    struct stat sb;
    char cmd[4096], path[160];
    if (!g_tool[0] || stat(g_tool, &sb) != 0) {
        printf("test_emit: note: the layout tool was not built; its errors are not tested\n");
        return;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *check_err, *emit_err;
        snprintf(cmd, sizeof cmd, "'%s' check %s >/dev/null 2>'%s/check.err'", g_tool, cases[i], g_dir);
        int rc_check = run_shell(cmd);
        snprintf(cmd, sizeof cmd, "'%s' emit --hip %s >/dev/null 2>'%s/emit.err'", g_tool, cases[i], g_dir);
        int rc_emit = run_shell(cmd);
        CHECK_EQ_I64(rc_check, 2);
        CHECK_EQ_I64(rc_emit, 2);
        snprintf(path, sizeof path, "%s/check.err", g_dir);
        check_err = slurp(path, NULL);
        snprintf(path, sizeof path, "%s/emit.err", g_dir);
        emit_err = slurp(path, NULL);
        CHECK(check_err && emit_err);
        if (check_err && emit_err) {
            /* "layout check: error...X" and "layout emit: error...X": the same X. */
            const char *x = strstr(check_err, ": error"), *y = strstr(emit_err, ": error");
            CHECK_MSG(x && y && strcmp(x, y) == 0, "case %zu: check said \"%s\", emit said \"%s\"", i, check_err,
                      emit_err);
        }
        free(check_err);
        free(emit_err);
    }
    /* Neither or both languages; -o writes the file. */
    snprintf(cmd, sizeof cmd, "'%s' emit --lds 'packed([4])' --write x --read y >/dev/null 2>&1", g_tool);
    CHECK_EQ_I64(run_shell(cmd), 2);
    snprintf(cmd, sizeof cmd,
             "'%s' emit --hip -o '%s/k.hip' --elem 2 --lds 'packed([64,32])' "
             "--write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' "
             "--read 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' --tiles 3",
             g_tool, g_dir);
    CHECK_EQ_I64(run_shell(cmd), 0);
    snprintf(path, sizeof path, "%s/k.hip", g_dir);
    char *src = slurp(path, NULL);
    CHECK(src != NULL);
    if (src) {
        CHECK_STR_CONTAINS(src, "--arch gfx942 --elem 2 --lds 'packed([64,32])' --write 'dist(R=[], H=([4,16],[4,8]), "
                                "P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'");
        CHECK_STR_CONTAINS(src, "--tiles 3\n");
        CHECK_STR_CONTAINS(src, "#define LP_TILES 3\n");
        free(src);
    }
}

/* ---- (b) the real compiler ------------------------------------------------------ */

/* Replace the first `from` in t (a buffer of cap bytes) by `to`. */
static void replace_once(char *t, size_t cap, const char *from, const char *to)
{
    char *s = strstr(t, from);
    size_t lf = strlen(from), lt = strlen(to), rest;
    if (!s) return;
    rest = strlen(s + lf);
    if ((size_t)(s - t) + lt + rest + 1 > cap) return;
    memmove(s + lt, s + lf, rest + 1);
    memcpy(s, to, lt);
}

/* Canonical gfx9 spelling of a DS mnemonic: gfx11+ names mapped back
 * (ds_load_2addr_stride64_b32 -> ds_read2st64_b32), the d16 and sign
 * variants folded (they move the same bytes). */
static void canonical_ds(const char *m, char *out, size_t cap)
{
    char t[96];
    snprintf(t, sizeof t, "%s", m);
    if (strncmp(t, "ds_load_", 8) == 0) replace_once(t, sizeof t, "ds_load_", "ds_read_");
    if (strncmp(t, "ds_store_", 9) == 0) replace_once(t, sizeof t, "ds_store_", "ds_write_");
    replace_once(t, sizeof t, "_2addr_stride64_", "2st64_");
    replace_once(t, sizeof t, "_2addr_", "2_");
    replace_once(t, sizeof t, "_d16_hi", "");
    replace_once(t, sizeof t, "_d16", "");
    if (strcmp(t, "ds_read_i16") == 0) strcpy(t, "ds_read_u16");
    if (strcmp(t, "ds_read_i8") == 0) strcpy(t, "ds_read_u8");
    /* copy with an explicit bound (gcc -O1 warns about a truncating %s) */
    {
        size_t n = strlen(t);
        if (cap == 0) return;
        if (n >= cap) n = cap - 1;
        memcpy(out, t, n);
        out[n] = '\0';
    }
}

/* A multiset of mnemonics: "name count" pairs. */
typedef struct ds_counts {
    int n;
    char name[16][32];
    int count[16];
    int other;  /* DS instructions that are not plain accesses (e.g. ds_bpermute) */
    int branches; /* s_cbranch / s_branch in the kernel: a loop the count would miss */
} ds_counts;

static void counts_add(ds_counts *c, const char *name, int k)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->name[i], name) == 0) {
            c->count[i] += k;
            return;
        }
    if (c->n < 16) {
        snprintf(c->name[c->n], sizeof c->name[c->n], "%s", name);
        c->count[c->n++] = k;
    }
}

/* Sorted "2 x ds_read2_b32 + 1 x ds_read_b64" of the names starting with prefix. */
static void counts_text(const ds_counts *c, const char *prefix, char *out, size_t cap)
{
    int idx[16], n = 0;
    for (int i = 0; i < c->n; i++)
        if (strncmp(c->name[i], prefix, strlen(prefix)) == 0 && c->count[i]) idx[n++] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(c->name[idx[j - 1]], c->name[idx[j]]) > 0; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n && k < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, "%s%d x %s", i ? " + " : "", c->count[idx[i]], c->name[idx[i]]);
    if (n == 0) snprintf(out, cap, "-");
}

/* The DS accesses of the kernel layout_probe in assembly text. */
static void parse_asm(const char *s, ds_counts *c)
{
    memset(c, 0, sizeof *c);
    const char *p = strstr(s, "\nlayout_probe:");
    if (!p) return;
    p++;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char line[256], mnem[64], canon[64];
        if (n >= sizeof line) n = sizeof line - 1;
        memcpy(line, p, n);
        line[n] = '\0';
        if (strstr(line, "s_endpgm") || strncmp(line, ".Lfunc_end", 10) == 0) break;
        if (sscanf(line, " %63s", mnem) == 1) {
            if (strncmp(mnem, "ds_", 3) == 0) {
                canonical_ds(mnem, canon, sizeof canon);
                if (strncmp(canon, "ds_read", 7) == 0 || strncmp(canon, "ds_write", 8) == 0) counts_add(c, canon, 1);
                else c->other++;
            } else if (strncmp(mnem, "s_cbranch", 9) == 0 || strcmp(mnem, "s_branch") == 0) {
                c->branches++;
            }
        }
        if (!eol) break;
        p = eol + 1;
    }
}

/* The model's prediction of one side as ds_counts entries. */
static void model_counts(const layout_access_plan *pl, ds_counts *c)
{
    for (int op = 1; op < LAYOUT_DS_OP_COUNT; op++)
        if (pl->op_count[op]) counts_add(c, layout_ds_op_name((layout_ds_op)op, pl->direction), pl->op_count[op]);
}

/* Offload arch names of the presets compiled. */
typedef struct probe_arch {
    const char *preset; /* layout_arch_preset name */
    const char *target; /* --offload-arch */
} probe_arch;

static const probe_arch k_arches[] = {
    {"gfx90a", "gfx90a"}, {"gfx942", "gfx942"}, {"gfx950", "gfx950"}, {"gfx1100", "gfx1100"}, {"gfx12", "gfx1200"},
};
#define N_ARCHES ((int)(sizeof k_arches / sizeof k_arches[0]))

/* Per-arch tallies for the summary. */
static int g_probes[N_ARCHES], g_match[N_ARCHES];

/* Compile src for target; fill c.  0 on success. */
static int compile_probe(const char *src, const char *target, int wave, ds_counts *c)
{
    char path[160], asm_path[160], cmd[1024];
    snprintf(path, sizeof path, "%s/probe.hip", g_dir);
    snprintf(asm_path, sizeof asm_path, "%s/probe.s", g_dir);
    if (write_file(path, src, strlen(src))) return -1;
    remove(asm_path);
    /* RDNA runs wave32 by default; a wave64 spec asks for wave64 there. */
    const int rdna = strncmp(target, "gfx1", 4) == 0 && strlen(target) == 7;
    snprintf(cmd, sizeof cmd,
             "clang-22 -x hip --cuda-device-only -nogpuinc -nogpulib --offload-arch=%s%s -O3 -S -Wall -Wextra -Werror "
             "'%s' -o '%s' 2>'%s/clang.err'",
             target, rdna && wave == 64 ? " -mwavefrontsize64" : "", path, asm_path, g_dir);
    if (run_shell(cmd) != 0) {
        char errp[160];
        snprintf(errp, sizeof errp, "%s/clang.err", g_dir);
        char *err = slurp(errp, NULL);
        fprintf(stderr, "  clang-22 failed for %s:\n%.2000s\n", target, err ? err : "");
        free(err);
        return -1;
    }
    char *s = slurp(asm_path, NULL);
    if (!s) return -1;
    parse_asm(s, c);
    free(s);
    return 0;
}

/* One side against the compiler: 1 when the instructions are the model's
 * (mnemonic and count, read2 / write2 and st64 forms included), else 0.
 * No tolerance: the probe tells the compiler what the model proves. */
static int side_equal(const ds_counts *model, const ds_counts *real, const char *prefix)
{
    char want[256], got[256];
    counts_text(model, prefix, want, sizeof want);
    counts_text(real, prefix, got, sizeof got);
    return strcmp(want, got) == 0;
}

/* Compile one probe and compare; prints one table row.  Returns 1 when the
 * compiler's DS instructions are the model's on both sides, 0 when they
 * differ, -1 when the probe did not compile.  The model plans for the
 * probe's architecture (its DS forms). */
static int probe_one(const char *name, int arch_i, const layout_emit_spec *es, int verbose)
{
    layout_access_plan *pw = malloc(sizeof *pw), *pr = malloc(sizeof *pr);
    layout_access_options opt;
    layout_arch arch;
    layout_error e;
    ds_counts model, real;
    char mw[160], mr[160], rw[160], rr[160], why[64];
    int verdict = -1;
    memset(&opt, 0, sizeof opt);
    opt.base_bytes = es->base_bytes;
    memset(&model, 0, sizeof model);
    if (!pw || !pr) goto out;
    if (layout_arch_preset(k_arches[arch_i].preset, &arch, &e)) {
        CHECK_MSG(0, "%s: %s", name, e.message);
        goto out;
    }
    opt.arch = &arch;
    const layout_descriptor *rdesc = es->read_desc ? es->read_desc : es->write_desc;
    if (layout_access_plan_make(pw, es->write_desc, es->write_dist, LAYOUT_WRITE, es->elem_bytes, &opt, &e) ||
        layout_access_plan_make(pr, rdesc, es->read_dist, LAYOUT_READ, es->elem_bytes, &opt, &e)) {
        CHECK_MSG(0, "%s: %s", name, e.message);
        goto out;
    }
    model_counts(pw, &model);
    model_counts(pr, &model);
    char *src = emit(es);
    if (!src) goto out;
    int rc = compile_probe(src, k_arches[arch_i].target, es->write_dist->wave_size, &real);
    if (getenv("LAYOUT_EMIT_DUMP")) { /* keep the probe to look at: $LAYOUT_EMIT_DUMP/<name>-<arch>.hip */
        char path[512], *q;
        snprintf(path, sizeof path, "%s/%s-%s.hip", getenv("LAYOUT_EMIT_DUMP"), name, k_arches[arch_i].target);
        for (q = path + strlen(getenv("LAYOUT_EMIT_DUMP")) + 1; *q; q++)
            if (*q == ' ') *q = '_';
        if (write_file(path, src, strlen(src))) fprintf(stderr, "  cannot write %s\n", path);
    }
    free(src);
    CHECK_MSG(rc == 0, "%s on %s: the probe did not compile", name, k_arches[arch_i].target);
    if (rc) goto out;
    CHECK_MSG(real.branches == 0 && real.other == 0, "%s on %s: %d branches, %d other DS instructions", name,
              k_arches[arch_i].target, real.branches, real.other);
    counts_text(&model, "ds_write", mw, sizeof mw);
    counts_text(&model, "ds_read", mr, sizeof mr);
    counts_text(&real, "ds_write", rw, sizeof rw);
    counts_text(&real, "ds_read", rr, sizeof rr);
    const int ws = side_equal(&model, &real, "ds_write"), rs = side_equal(&model, &real, "ds_read");
    verdict = ws && rs;
    snprintf(why, sizeof why, "%s", verdict ? "match" : !ws && !rs ? "WRITE AND READ DIFFER" : !ws ? "WRITE DIFFERS"
                                                                                                  : "READ DIFFERS");
    g_probes[arch_i]++;
    g_match[arch_i] += verdict;
    if (verbose || !verdict)
        printf("  %-12s %-8s | write %-28s %-28s | read %-28s %-28s | %s\n", name, k_arches[arch_i].target, mw,
               ws ? "=" : rw, mr, rs ? "=" : rr, why);
out:
    free(pw);
    free(pr);
    return verdict;
}

static void test_seed_probes(void)
{
    if (!g_have_clang) return;
    printf("  %-12s %-8s | %-34s %-28s | %-33s %-28s | %s\n", "probe", "arch", "write: model", "compiler",
           "read: model", "compiler", "verdict");
    for (int a = 0; a < N_ARCHES; a++) {
        layout_arch arch;
        layout_error e;
        CHECK(layout_arch_preset(k_arches[a].preset, &arch, &e) == LAYOUT_OK);
        for (int k = 0; k < SEED_KERNEL_COUNT; k++) {
            static seed_kernel sk;
            char name[32];
            CHECK(seed_kernel_build(&sk, (seed_kernel_id)k, arch.n_banks, &e) == LAYOUT_OK);
            layout_emit_spec es = seed_emit_spec(&sk, NULL); /* seed kernels are wave64 everywhere */
            snprintf(name, sizeof name, "seed %s", seed_kernel_id_str((seed_kernel_id)k));
            int v = probe_one(name, a, &es, 1);
            CHECK_MSG(v == 1, "%s on %s: the compiler's DS instructions are not the model's", name,
                      k_arches[a].target);
        }
    }
}

/* ---- the layouts `make demo` suggests ------------------------------------------- */

/* The demo's search for one seed kernel's pair (examples/demo.c). */
static int demo_suggest(const seed_kernel *k, const layout_arch *arch, int64_t budget, unsigned families,
                        layout_suggest_spec *s, layout_suggest_result *res)
{
    layout_error e;
    memset(s, 0, sizeof *s);
    s->arch = arch;
    s->elem_bytes = SK_ELEM_BYTES;
    s->n_dims = 2;
    s->tile[0] = SK_KM;
    s->tile[1] = SK_KK;
    s->n_sides = 2;
    s->sides[0].dist = &k->write_dist;
    s->sides[0].direction = LAYOUT_WRITE;
    s->sides[1].dist = &k->read_dist;
    s->sides[1].direction = LAYOUT_READ;
    if (k->read_dist.x_lengths[0] == SK_KK) { /* the [K, M] read view */
        s->sides[1].has_view = 1;
        s->sides[1].view[0] = 1;
        s->sides[1].view[1] = 0;
    }
    s->budget_bytes = budget;
    s->families = families;
    s->top_k = 1;
    layout_status st = layout_suggest(s, res, &e);
    CHECK_MSG(st == LAYOUT_OK, "layout_suggest: %s", e.message);
    return st == LAYOUT_OK && res->n_top > 0;
}

/* Every layout `make demo` suggests (seed kernels on gfx942 and gfx950, no
 * padding and within 1 KiB; kernel 01 over every family incl. F2), probed on
 * its architecture. */
static void test_demo_probes(void)
{
    if (!g_have_clang) return;
    static seed_kernel k;
    static layout_descriptor wdesc, rdesc;
    layout_suggest_result *res = malloc(sizeof *res);
    layout_suggest_spec sp;
    layout_error e;
    const unsigned fam = ((1u << LAYOUT_FAMILY_COUNT) - 1u) & ~((1u << LAYOUT_FAMILY_F2) | (1u << LAYOUT_FAMILY_XOR_PAD));
    const int arch_of[2] = {1, 2}; /* k_arches: gfx942, gfx950 */
    if (!res) return;
    printf("test_emit: the layouts make demo suggests, probed:\n");
    for (int a = 0; a < 2; a++) {
        layout_arch arch;
        CHECK(layout_arch_preset(k_arches[arch_of[a]].preset, &arch, &e) == LAYOUT_OK);
        for (int id = 0; id < SEED_KERNEL_COUNT + 1; id++) {
            const int all = id == SEED_KERNEL_COUNT; /* kernel 01, every family */
            if (all && a) break;
            for (int b = 0; b < (all ? 1 : 2); b++) {
                CHECK(seed_kernel_build(&k, all ? SEED_K01 : (seed_kernel_id)id, arch.n_banks, &e) == LAYOUT_OK);
                if (!demo_suggest(&k, &arch, b ? 1024 : 0, all ? (1u << LAYOUT_FAMILY_COUNT) - 1u : fam, &sp, res))
                    continue;
                wdesc = res->top[0].desc;
                if (sp.sides[1].has_view) CHECK(layout_suggest_view(&sp, 1, &wdesc, &rdesc, &e) == LAYOUT_OK);
                else rdesc = wdesc;
                layout_emit_spec es;
                memset(&es, 0, sizeof es);
                es.lang = LAYOUT_EMIT_HIP;
                es.write_desc = &wdesc;
                es.write_dist = &k.write_dist;
                es.read_desc = &rdesc;
                es.read_dist = &k.read_dist;
                es.elem_bytes = SK_ELEM_BYTES;
                es.tiles = SEED_TILES;
                char name[48], params[64];
                layout_suggest_params_print(&res->top[0].params, params, sizeof params);
                snprintf(name, sizeof name, "demo %s%s", all ? "01 all" : k.id, b ? " 1KiB" : "");
                int v = probe_one(name, arch_of[a], &es, 1);
                printf("      %s %s\n", layout_family_name(res->top[0].params.kind), params);
                CHECK_MSG(v == 1, "%s on %s: the compiler's DS instructions are not the model's", name,
                          k_arches[arch_of[a]].target);
            }
        }
    }
    free(res);
}

/* ---- random specs ------------------------------------------------------------- */

/* A row distribution over an X0 x X1 tile: H0 = <warps, a1[, r]>, H1 = <b0, b1>,
 * a1 * b0 = wave; the warp takes the top H0 digit; the lane takes (a1, b0) in
 * lane_order 0 (lane / b0 = row) or (b0, a1) in lane_order 1 (lane / a1 =
 * column); Y = the b1 column run and, with r > 1, r rows (y_order picks
 * which Y is first). */
static layout_status rows_dist(layout_distribution *out, int wave, int warps, int64_t b0, int64_t b1, int64_t r,
                               int lane_order, int y_order)
{
    layout_dist_encoding e;
    const int64_t a1 = wave / b0;
    memset(&e, 0, sizeof e);
    e.n_x = 2;
    e.n_h[0] = r > 1 ? 3 : 2;
    e.h[0][0] = warps;
    e.h[0][1] = a1;
    e.h[0][2] = r;
    e.n_h[1] = 2;
    e.h[1][0] = b0;
    e.h[1][1] = b1;
    e.n_p = 2;
    e.n_p_rh[0] = 1;
    e.p_major[0][0] = 1;
    e.p_minor[0][0] = 0;
    e.n_p_rh[1] = 2;
    e.p_major[1][lane_order] = 1;
    e.p_minor[1][lane_order] = 1;
    e.p_major[1][1 - lane_order] = 2;
    e.p_minor[1][1 - lane_order] = 0;
    if (r > 1) {
        e.n_y = 2;
        e.y_major[y_order] = 1;
        e.y_minor[y_order] = 2;
        e.y_major[1 - y_order] = 2;
        e.y_minor[1 - y_order] = 1;
    } else {
        e.n_y = 1;
        e.y_major[0] = 2;
        e.y_minor[0] = 1;
    }
    int64_t tile[2] = {warps * a1 * r, b0 * b1};
    return layout_dist_make(out, &e, wave, warps, 2, tile, NULL);
}

/* A random row distribution of an X0 x X1 tile (1 on success). */
static int random_dist_for(harness_rng *g, layout_distribution *out, int wave, int warps, int64_t x0, int64_t x1)
{
    for (int tries = 0; tries < 40; tries++) {
        int64_t b1 = (int64_t)1 << harness_range(g, 0, 4);
        if (x1 % b1) continue;
        int64_t b0 = x1 / b1;
        if (wave % b0) continue;
        int64_t a1 = wave / b0;
        if (x0 % (warps * a1)) continue;
        int64_t r = x0 / (warps * a1);
        if (r > 16 || r * b1 > 64) continue;
        /* one draw per statement: two draws as arguments of one call are taken
         * in an unspecified order (gcc last-first, clang first-last), which made
         * the random specs differ between compilers; this order is gcc's, the
         * one the asserted counts (k_want) were taken with */
        const int y_order = (int)harness_range(g, 0, 1), lane_order = (int)harness_range(g, 0, 1);
        if (rows_dist(out, wave, warps, b0, b1, r, lane_order, y_order) ==
            LAYOUT_OK)
            return 1;
    }
    return 0;
}

/* [X1, X0] view of an [X0, X1] descriptor. */
static layout_status transposed_view(layout_descriptor *out, const layout_descriptor *in)
{
    layout_transform t[2];
    layout_status s;
    if ((s = layout_make_pass_through(layout_desc_length(in, 0), &t[0], NULL)) ||
        (s = layout_make_pass_through(layout_desc_length(in, 1), &t[1], NULL)))
        return s;
    layout_seq lo[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)};
    layout_seq up[2] = {LAYOUT_SEQ(1), LAYOUT_SEQ(0)};
    return layout_transform_descriptor(out, in, 2, t, lo, up, NULL);
}

typedef struct rspec {
    layout_descriptor wdesc, rdesc;
    layout_distribution wdist, rdist;
    int elem;
    char what[200];
} rspec;

/* A random LDS descriptor over tile[0] x tile[1] (1 on success). */
static int random_desc(harness_rng *g, layout_descriptor *out, const int64_t tile[2], int elem, char *what, size_t cap)
{
    int kind = (int)harness_range(g, 0, 9);
    if (kind < 5) { /* a suggest family member */
        layout_family_kind fk = (layout_family_kind)harness_range(g, 0, LAYOUT_FAMILY_XOR_PAD);
        layout_family_iter it;
        layout_family_params p, pick;
        int contiguous = harness_range(g, 0, 3) ? 1 : 0, n = 0;
        if (layout_family_iter_init(&it, fk, tile, contiguous, elem, tile[0] * tile[1] * elem / 4, NULL)) return 0;
        for (int i = 0; i < 20000 && layout_family_iter_next(&it, &p); i++)
            if (harness_range(g, 0, n++) == 0) pick = p;
        if (n == 0 || layout_family_build(&pick, tile, out, NULL)) return 0;
        char text[160];
        layout_family_params_print(&pick, text, sizeof text);
        snprintf(what, cap, "%s", text);
        return 1;
    }
    int64_t pad = harness_range(g, 0, 2) ? harness_range(g, 0, 9) : 0;
    if (kind < 8) { /* row-major, padded rows, a vector hint */
        int64_t strides[2] = {tile[1] + pad, 1}, vec = -1;
        if (harness_range(g, 0, 2)) {
            vec = (int64_t)1 << harness_range(g, 0, 4);
            while (tile[1] % vec) vec /= 2;
        }
        snprintf(what, cap, "row-major pitch %lld, vector %lld", (long long)strides[0], (long long)vec);
        return layout_naive_vec(out, 2, tile, strides, vec, vec > 0 ? 1 : -1, NULL) == LAYOUT_OK;
    }
    int64_t strides[2] = {1, tile[0] + pad}; /* column-major */
    snprintf(what, cap, "col-major pitch %lld", (long long)strides[1]);
    return layout_naive(out, 2, tile, strides, NULL) == LAYOUT_OK;
}

static int random_spec(harness_rng *g, rspec *rs, int *wave_out)
{
    static const int elems[5] = {1, 2, 4, 8, 16};
    const int wave = harness_range(g, 0, 1) ? 64 : 32, warps = 1 << harness_range(g, 0, 2);
    rs->elem = elems[harness_range(g, 0, 4)];
    const int64_t b0 = (int64_t)1 << harness_range(g, 0, wave == 64 ? 6 : 5);
    const int64_t b1 = (int64_t)1 << harness_range(g, 0, 4), r = (int64_t)1 << harness_range(g, 0, 2);
    const int64_t tile[2] = {warps * (wave / b0) * r, b0 * b1};
    if (tile[0] * tile[1] * rs->elem > 16384 || r * b1 > 64) return 0;
    const int y_order = (int)harness_range(g, 0, 1), lane_order = (int)harness_range(g, 0, 1); /* gcc's order (above) */
    if (rows_dist(&rs->wdist, wave, warps, b0, b1, r, lane_order, y_order))
        return 0;
    if (!random_desc(g, &rs->wdesc, tile, rs->elem, rs->what, sizeof rs->what)) return 0;
    if (layout_desc_element_space_size(&rs->wdesc) * rs->elem > 60 * 1024) return 0;
    const int transposed = (int)harness_range(g, 0, 1);
    if (transposed) {
        if (transposed_view(&rs->rdesc, &rs->wdesc)) return 0;
        if (!random_dist_for(g, &rs->rdist, wave, warps, tile[1], tile[0])) return 0;
    } else {
        rs->rdesc = rs->wdesc;
        if (!random_dist_for(g, &rs->rdist, wave, warps, tile[0], tile[1])) return 0;
    }
    size_t k = strlen(rs->what);
    snprintf(rs->what + k, sizeof rs->what - k, "; %lldx%lld, %d B, wave%d x %d%s", (long long)tile[0],
             (long long)tile[1], rs->elem, wave, warps, transposed ? ", read transposed" : "");
    *wave_out = wave;
    return 1;
}

/* Under AddressSanitizer the emitter still writes every random probe (its
 * code is what such a build checks), but clang-22 compiles only every
 * tenth: the probe text does not depend on the build, and the plain gcc and
 * clang builds compile all of them (CI time). */
#if defined(__SANITIZE_ADDRESS__)
#define EMIT_COMPILE_EVERY 10
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EMIT_COMPILE_EVERY 10
#endif
#endif
#ifndef EMIT_COMPILE_EVERY
#define EMIT_COMPILE_EVERY 1
#endif

static void test_random_probes(void)
{
    if (!g_have_clang) return;
    harness_rng g = {0x5eed0e417ULL};
    const long want = harness_scaled(300);
    long made = 0, tries = 0;
    rspec *rs = malloc(sizeof *rs);
    if (!rs) return;
    printf("test_emit: %ld random specs (fixed seed), each on two architectures%s; rows shown where compiler and "
           "model differ:\n", want, EMIT_COMPILE_EVERY > 1 ? " (a sanitizer build: every tenth compiled)" : "");
    while (made < want && tries < want * 50) {
        int wave = 64;
        tries++;
        memset(rs, 0, sizeof *rs);
        if (!random_spec(&g, rs, &wave)) continue;
        layout_emit_spec es;
        memset(&es, 0, sizeof es);
        es.lang = LAYOUT_EMIT_HIP;
        es.write_desc = &rs->wdesc;
        es.write_dist = &rs->wdist;
        es.read_desc = &rs->rdesc;
        es.read_dist = &rs->rdist;
        es.elem_bytes = rs->elem;
        es.tiles = 1;
        size_t len;
        layout_error e;
        if (layout_emit_probe(&es, NULL, 0, &len, &e) != LAYOUT_OK) continue; /* e.g. beyond the plan's capacity */
        char name[32];
        snprintf(name, sizeof name, "random %ld", made);
        for (int k = 0; k < 2 && made % EMIT_COMPILE_EVERY == 0; k++) {
            int a = (int)((made + k * 2) % N_ARCHES);
            int v = probe_one(name, a, &es, 0);
            if (v != 1) printf("      spec: %s\n", rs->what);
            CHECK_MSG(v == 1, "%s on %s: the compiler's DS instructions are not the model's (%s)", name, k_arches[a].target,
                      rs->what);
        }
        made++;
    }
    CHECK_MSG(made == want, "only %ld of %ld random specs could be made", made, want);
    free(rs);
}

/* ---- the probes run on the CPU (LP_EMULATE) ------------------------------------- */

static int g_have_clangxx;

/* Build the probe with -DLP_EMULATE and run it; returns its exit status (-1:
 * did not build) and leaves its output in *out (malloc'd). */
static int run_emulated(const char *src, int cuda, char **out)
{
    char path[160], bin[160], cmd[1024];
    *out = NULL;
    snprintf(path, sizeof path, "%s/emu.%s", g_dir, cuda ? "cu" : "hip");
    snprintf(bin, sizeof bin, "%s/emu", g_dir);
    if (write_file(path, src, strlen(src))) return -1;
    remove(bin);
    snprintf(cmd, sizeof cmd,
             "clang++-22 -x c++ -std=c++11 -DLP_EMULATE -O1 -Wall -Wextra -Werror '%s' -o '%s' -pthread 2>'%s/emu.err'",
             path, bin, g_dir);
    if (run_shell(cmd) != 0) {
        snprintf(path, sizeof path, "%s/emu.err", g_dir);
        char *err = slurp(path, NULL);
        fprintf(stderr, "  the emulated probe did not build:\n%.2000s\n", err ? err : "");
        free(err);
        return -1;
    }
    snprintf(cmd, sizeof cmd, "'%s' >'%s/emu.out' 2>&1", bin, g_dir);
    int rc = run_shell(cmd);
    snprintf(path, sizeof path, "%s/emu.out", g_dir);
    *out = slurp(path, NULL);
    return rc;
}

/* The kernel moves every element where the spec says: seed kernels (HIP and
 * CUDA spellings), random specs whose vectors the model does not flag; and a
 * vector hint that lies (non-contiguous vectors, which ck_tile would move
 * wrongly) is caught by the host check. */
static void test_emulated_probes(void)
{
    if (!g_have_clangxx) return;
    layout_error e;
    char *out = NULL;
    for (int k = 0; k < SEED_KERNEL_COUNT; k++) {
        static seed_kernel sk;
        CHECK(seed_kernel_build(&sk, (seed_kernel_id)k, k % 2 ? 64 : 32, &e) == LAYOUT_OK);
        layout_emit_spec es = seed_emit_spec(&sk, NULL);
        es.tiles = 2;
        es.lang = k == SEED_K08 ? LAYOUT_EMIT_CUDA : LAYOUT_EMIT_HIP;
        char *src = emit(&es);
        if (!src) continue;
        int rc = run_emulated(src, es.lang == LAYOUT_EMIT_CUDA, &out);
        free(src);
        CHECK_MSG(rc == 0 && out && strstr(out, " 0 wrong, 0 read LDS"), "seed %s: rc %d: %s",
                  seed_kernel_id_str((seed_kernel_id)k), rc, out ? out : "");
        free(out);
    }
    { /* a lying vector hint: the LDS is column-major, the hint says K is contiguous */
        static layout_descriptor lds;
        static layout_distribution d;
        int64_t lens[2] = {64, 32}, strides[2] = {1, 64};
        CHECK(layout_naive_vec(&lds, 2, lens, strides, 8, 1, &e) == LAYOUT_OK);
        CHECK(seed_write_dist(&d, &e) == LAYOUT_OK);
        layout_emit_spec es;
        memset(&es, 0, sizeof es);
        es.write_desc = &lds;
        es.write_dist = &d;
        es.read_dist = &d;
        es.elem_bytes = 2;
        es.tiles = 1;
        char *src = emit(&es);
        if (src) {
            CHECK_STR_CONTAINS(src, "non-contiguous");
            int rc = run_emulated(src, 0, &out);
            CHECK_MSG(rc == 1 && out && strstr(out, " 0 wrong") == NULL, "rc %d: %s", rc, out ? out : "");
            free(out);
            free(src);
        }
    }
    harness_rng g = {0xe1017a7eULL};
    rspec *rs = malloc(sizeof *rs);
    int ran = 0, arrived = 0;
    for (int tries = 0; rs && ran < 24 && tries < 2000; tries++) {
        int wave = 64;
        memset(rs, 0, sizeof *rs);
        if (!random_spec(&g, rs, &wave)) continue;
        layout_access_plan *pl = malloc(sizeof *pl);
        int flagged = 1;
        if (pl && layout_access_plan_make(pl, &rs->wdesc, &rs->wdist, LAYOUT_WRITE, rs->elem, NULL, NULL) == LAYOUT_OK &&
            pl->n_misaligned + pl->n_noncontiguous == 0 &&
            layout_access_plan_make(pl, &rs->rdesc, &rs->rdist, LAYOUT_READ, rs->elem, NULL, NULL) == LAYOUT_OK &&
            pl->n_misaligned + pl->n_noncontiguous == 0)
            flagged = 0;
        free(pl);
        if (flagged) continue;
        layout_emit_spec es;
        memset(&es, 0, sizeof es);
        es.lang = ran % 3 ? LAYOUT_EMIT_HIP : LAYOUT_EMIT_CUDA;
        es.write_desc = &rs->wdesc;
        es.write_dist = &rs->wdist;
        es.read_desc = &rs->rdesc;
        es.read_dist = &rs->rdist;
        es.elem_bytes = rs->elem;
        es.tiles = 1;
        size_t len;
        if (layout_emit_probe(&es, NULL, 0, &len, NULL) != LAYOUT_OK) continue;
        char *src = emit(&es);
        if (!src) continue;
        int rc = run_emulated(src, es.lang == LAYOUT_EMIT_CUDA, &out);
        free(src);
        CHECK_MSG(rc == 0 && out && strstr(out, " 0 wrong"), "random (%s): rc %d: %s", rs->what, rc, out ? out : "");
        /* the alignment each access's type claims (the model's) holds in every lane */
        CHECK_MSG(out && strstr(out, " 0 accesses less aligned than their type claims"), "random (%s): %s", rs->what,
                  out ? out : "");
        if (rc == 0) arrived++;
        free(out);
        ran++;
    }
    free(rs);
    printf("test_emit: %d seed and %d random probes ran on the CPU (LP_EMULATE); %d of the random ones moved every "
           "element where the spec says\n",
           SEED_KERNEL_COUNT, ran, arrived);
}

/* The probes per architecture of docs/emit.md ("Counts") at full scale:
 * the random specs are drawn from a fixed seed, so a change of the
 * generator (or of which specs the emitter takes) shows here. */
static const int k_want_probes[N_ARCHES] = {127, 142, 141, 127, 127};

static void print_summary(void)
{
    if (!g_have_clang) return;
    const char *scale = getenv("LAYOUT_TEST_SCALE");
    const int full = !scale || atof(scale) == 1.0;
    printf("test_emit: probes per architecture whose DS instructions equal the model's:\n");
    for (int a = 0; a < N_ARCHES; a++) {
        printf("  %-8s %4d probes: %4d equal\n", k_arches[a].target, g_probes[a], g_match[a]);
        CHECK_EQ_I64(g_match[a], g_probes[a]);
        if (full && EMIT_COMPILE_EVERY == 1) CHECK_EQ_I64(g_probes[a], k_want_probes[a]);
    }
    if (!full || EMIT_COMPILE_EVERY > 1)
        printf("test_emit: note: %s runs a subset; the probe counts are not asserted\n",
               !full ? "LAYOUT_TEST_SCALE" : "a sanitizer build");
}

/* Bytes per lane a canonical DS mnemonic moves (a paired form: both halves). */
static int mnemonic_bytes(const char *m)
{
    int pair = strstr(m, "ds_read2") != NULL || strstr(m, "ds_write2") != NULL;
    const char *u = strrchr(m, '_');
    int bits = u ? atoi(u + 2) : 0; /* "_b128", "_u16" */
    return (pair ? 2 : 1) * bits / 8;
}

/* Instructions per width of a `layout check --json` side's "ops" text
 * ("4 x ds_write_b32 + 1 x ds_write_b16"): n[w] = instructions moving w
 * bytes per lane (1..16; a paired form counts its two halves' bytes). */
static void model_widths(const char *ops, int *n)
{
    memset(n, 0, 17 * sizeof *n);
    for (const char *p = ops; *p;) {
        int k = 0, used = 0;
        char name[40];
        if (sscanf(p, " %d x %39[a-z0-9_.]%n", &k, name, &used) != 2) break;
        int w = mnemonic_bytes(name);
        if (strncmp(name, "ds_", 3) != 0) { /* NVIDIA's spelling: st.shared.v4.b32 */
            const char *q = strstr(name, ".shared.");
            int v = 1;
            w = 0;
            if (q) {
                q += 8;
                if (q[0] == 'v' && (q[1] == '2' || q[1] == '4')) v = q[1] - '0', q += 3;
                if (strchr("bus", q[0])) w = v * atoi(q + 1) / 8;
            }
        }
        if (w >= 1 && w <= 16) n[w] += k;
        else n[0] += k;
        p += used;
        while (*p == ' ' || *p == '+') p++;
    }
}

/* Instructions per width of the st.shared / ld.shared accesses of a PTX
 * text: "st.shared.v4.b32" moves 16 bytes, "ld.shared.u16" 2. */
static void ptx_widths(const char *ptx, int *st, int *ld)
{
    memset(st, 0, 17 * sizeof *st);
    memset(ld, 0, 17 * sizeof *ld);
    for (const char *p = strstr(ptx, ".shared."); p; p = strstr(p + 8, ".shared.")) {
        int store = p >= ptx + 2 && strncmp(p - 2, "st", 2) == 0, load = p >= ptx + 2 && strncmp(p - 2, "ld", 2) == 0;
        if (!store && !load) continue;
        const char *q = p + 8;
        int n = 1;
        if (q[0] == 'v' && (q[1] == '2' || q[1] == '4')) {
            n = q[1] - '0';
            q += 3;
        }
        if (!strchr("bus", q[0])) continue;
        int bytes = n * atoi(q + 1) / 8;
        int *w = store ? st : ld;
        if (bytes >= 1 && bytes <= 16) w[bytes]++;
        else w[0]++;
    }
}

/* "1 x 16 B + 8 x 2 B" of a width table. */
static void widths_text(const int *n, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    for (int w = 16; w >= 0 && k < cap; w--)
        if (n[w]) k += (size_t)snprintf(out + k, cap - k, "%s%d x %d B", k ? " + " : "", n[w], w);
}

static void test_cuda_probes(void)
{
    if (!g_have_clang || !g_tool[0] || access(g_tool, X_OK) != 0) {
        printf("test_emit: note: clang-22 or the tool missing; the CUDA probes are not compiled\n");
        return;
    }
    const char *f = __FILE__, *slash = strrchr(f, '/');
    static char path[8800];
    char line[8192];
    static char cmd[20000];
    int n = 0;
    snprintf(path, sizeof path, "%.*s/fixtures/h100/specs.txt", slash ? (int)(slash - f) : 1, slash ? f : ".");
    FILE *specs = fopen(path, "r");
    CHECK(specs != NULL);
    if (!specs) return;
    while (fgets(line, sizeof line, specs)) {
        char *opts = strchr(line, ' '), *nl = strchr(line, '\n');
        if (line[0] == '#' || !opts) continue;
        *opts++ = '\0';
        if (nl) *nl = '\0';
        snprintf(cmd, sizeof cmd, "'%s' emit --cuda -o '%s/%s.cu' %s", g_tool, g_dir, line, opts);
        CHECK_MSG(run_shell(cmd) == 0, "%s: emit --cuda failed", line);
        snprintf(cmd, sizeof cmd,
                 "clang-22 -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_90 -O3 -S -Wall -Wextra "
                 "-Werror -Wno-unknown-cuda-version '%s/%s.cu' -o '%s/%s.ptx' 2>'%s/cuda.err'",
                 g_dir, line, g_dir, line, g_dir);
        if (run_shell(cmd) != 0) {
            char errp[160];
            snprintf(errp, sizeof errp, "%s/cuda.err", g_dir);
            char *err = slurp(errp, NULL);
            CHECK_MSG(0, "%s: the CUDA probe does not compile warning-free for sm_90:\n%.2000s", line, err ? err : "");
            free(err);
            continue;
        }
        snprintf(cmd, sizeof cmd, "'%s' check --json %s > '%s/%s.json'", g_tool, opts, g_dir, line);
        CHECK_MSG(run_shell(cmd) <= 1, "%s: layout check failed", line); /* 1: conflicts found */
        snprintf(path, sizeof path, "%s/%s.json", g_dir, line);
        char *json = slurp(path, NULL);
        snprintf(path, sizeof path, "%s/%s.ptx", g_dir, line);
        char *ptx = slurp(path, NULL);
        CHECK(json && ptx);
        if (json && ptx) {
            const char *wr = strstr(json, "\"direction\":\"write\""), *rd = strstr(json, "\"direction\":\"read\"");
            CHECK(wr && rd);
            if (wr && rd) {
                char wops[512] = "", rops[512] = "";
                const char *a = strstr(wr, "\"ops\":\""), *b = strstr(rd, "\"ops\":\"");
                if (a) sscanf(a + 7, "%511[^\"]", wops);
                if (b) sscanf(b + 7, "%511[^\"]", rops);
                int ms[17], mr[17], ps[17], pr[17];
                char a1[160], a2[160], b1[160], b2[160];
                model_widths(wops, ms);
                model_widths(rops, mr);
                ptx_widths(ptx, ps, pr);
                widths_text(ms, a1, sizeof a1);
                widths_text(ps, a2, sizeof a2);
                widths_text(mr, b1, sizeof b1);
                widths_text(pr, b2, sizeof b2);
                CHECK_MSG(strcmp(a1, a2) == 0 && a1[0], "%s: shared stores per thread %s, the model's %s (%s)", line,
                          a2, a1, wops);
                CHECK_MSG(strcmp(b1, b2) == 0 && b1[0], "%s: shared loads per thread %s, the model's %s (%s)", line,
                          b2, b1, rops);
                printf("  %-24s sm_90 | store %-20s %-10s | load %-20s %s\n", line, a1, strcmp(a1, a2) ? a2 : "=",
                       b1, strcmp(b1, b2) ? b2 : "=");
                n++;
            }
        }
        free(json);
        free(ptx);
    }
    fclose(specs);
    CHECK_EQ_I64(n, 12);
    printf("test_emit: %d CUDA probes (tests/fixtures/h100/specs.txt) compile for sm_90 warning-free; their shared "
           "accesses per thread equal the model's (count per width)\n", n);
}

int main(int argc, char **argv)
{
    if (argc > 1) g_tool = argv[1];
    snprintf(g_dir, sizeof g_dir, "/tmp/layout-emit-XXXXXX");
    if (!mkdtemp(g_dir)) {
        printf("test_emit: cannot create a scratch directory\n");
        return 1;
    }
    g_have_clang = run_shell("command -v clang-22 >/dev/null 2>&1") == 0;
    if (!g_have_clang)
        printf("test_emit: note: clang-22 is not on PATH; the probes are not compiled (install clang-22 for the "
               "compiler comparison)\n");
    RUN(test_deterministic_and_comment);
    RUN(test_errors);
    RUN(test_tool_errors);
    RUN(test_seed_probes);
    RUN(test_demo_probes);
    RUN(test_random_probes);
    RUN(test_cuda_probes);
    g_have_clangxx = run_shell("command -v clang++-22 >/dev/null 2>&1") == 0;
    if (!g_have_clangxx) printf("test_emit: note: clang++-22 is not on PATH; the probes are not run on the CPU\n");
    RUN(test_emulated_probes);
    RUN(print_summary);
    {
        char cmd[160];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
        if (run_shell(cmd) != 0) printf("test_emit: note: could not remove %s\n", g_dir);
    }
    return harness_finish("test_emit");
}
