/* tt.reduce against the generated corpus of Triton 3.6 compilations
 * (tests/fixtures/triton/corpus: kernels.tar.xz, extracted to a temporary
 * directory; ncu-0.csv and run.jsonl, Nsight Compute on the launched sm_90
 * cases).  The families whose shared-memory traffic is reductions and the
 * converts around them: reduce1d, reduce2d (sum, max, argmax: two
 * operands), reduce3d (every axis), softmax, layernormfwd, layernormbwd,
 * on all seven targets.
 *
 * - every tt.reduce is modelled (any rank, any axis, one or two operands);
 * - a kernel whose every op is modelled predicts, per warp, the static
 *   DS / shared instructions of its ISA mnemonic by mnemonic (RDNA's
 *   ds_store / ds_load / _2addr names read as ds_write / ds_read / 2; a
 *   guarded PTX instruction counts as its mnemonic), or differs only in
 *   mnemonics none of its reduces predicts (a convert_layout's, docs);
 * - a kernel with an op not modelled (a convert within a warp) predicts no
 *   more of any mnemonic than its ISA has;
 * - sm_90, launched: a kernel whose every op is modelled predicts Nsight
 *   Compute's shared wavefronts and bank conflicts (loads + stores, all
 *   warps of all CTAs: the CTA sums x the grid), or else its reduces'
 *   share stays within the measurement (the known difference:
 *   reduce1d_i32_sum_2048's 2 store conflicts over 16 CTAs, where every
 *   store is one lane's; a convert's last load that ptxas runs on fewer
 *   lanes of fewer warps is modelled, sink.c);
 * and floors on how many kernels are equal. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"
#include "support/tool_run.h"

#include <dirent.h>

#define FILE_CAP (1 << 20)
#define MAX_CASES 1024
#define MAX_MN 32

static char g_root[512], g_dir[700];
static char ttgir_buf[FILE_CAP], isa_buf[FILE_CAP];
static layout_ttgir mod;
static layout_triton_kernel kern;
static layout_error terr;
static char names[MAX_CASES][96];
static int n_names;

typedef struct mcount {
    int n;
    char mn[MAX_MN][56];
    int64_t c[MAX_MN];
} mcount;

static void mc_add(mcount *m, const char *mn, int64_t c)
{
    int i;
    for (i = 0; i < m->n; i++)
        if (strcmp(m->mn[i], mn) == 0) {
            m->c[i] += c;
            return;
        }
    if (m->n < MAX_MN) {
        snprintf(m->mn[m->n], sizeof m->mn[0], "%s", mn);
        m->c[m->n++] = c;
    }
}

static int64_t mc_get(const mcount *m, const char *mn)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->mn[i], mn) == 0) return m->c[i];
    return 0;
}

static int family_of_interest(const char *n)
{
    static const char *const fam[] = {"reduce1d_", "reduce2d_", "reduce3d_", "softmax_", "layernormfwd_", "layernormbwd_"};
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++)
        if (strncmp(n, fam[i], strlen(fam[i])) == 0) return 1;
    return 0;
}

/* The ISA's DS / shared instructions (static counts). */
static void isa_counts(const char *isa, int amd, mcount *m)
{
    const char *line = isa;
    m->n = 0;
    while (*line) {
        const char *e = strchr(line, '\n'), *p = line;
        char tok[64];
        size_t k = 0;
        if (!e) e = line + strlen(line);
        while (p < e && (*p == ' ' || *p == '\t')) p++;
        if (!amd && *p == '@') { /* @%p1 / @!%p1 */
            while (p < e && *p != ' ' && *p != '\t') p++;
            while (p < e && (*p == ' ' || *p == '\t')) p++;
        }
        while (p < e && *p != ' ' && *p != '\t' && *p != ';' && k + 1 < sizeof tok) tok[k++] = *p++;
        tok[k] = '\0';
        if (amd && strncmp(tok, "ds_", 3) == 0 && strncmp(tok, "ds_swizzle", 10) != 0 &&
            strncmp(tok, "ds_bpermute", 11) != 0 && strncmp(tok, "ds_permute", 10) != 0 && strncmp(tok, "ds_nop", 6) != 0) {
            mc_add(m, tok, 1);
        } else if (!amd && (strncmp(tok, "st.shared", 9) == 0 || strncmp(tok, "ld.shared", 9) == 0 ||
                            strncmp(tok, "ldmatrix", 8) == 0 || strncmp(tok, "stmatrix", 8) == 0 ||
                            strncmp(tok, "cp.async.c", 10) == 0)) {
            mc_add(m, tok, 1);
        }
        line = *e ? e + 1 : e;
    }
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static int extract(void)
{
    char tmpl[] = "/tmp/test_triton_reduce_XXXXXX", cmd[1600];
    char *tmp = mkdtemp(tmpl);
    DIR *d;
    struct dirent *de;
    if (!tmp) return 0;
    snprintf(cmd, sizeof cmd, "tar -xJf '%s/fixtures/triton/corpus/kernels.tar.xz' -C '%s'", g_root, tmp);
    if (system(cmd) != 0) return 0;
    snprintf(g_dir, sizeof g_dir, "%s/kernels", tmp);
    if (!(d = opendir(g_dir))) return 0;
    while ((de = readdir(d)) && n_names < MAX_CASES) {
        size_t n = strlen(de->d_name);
        if (n > 6 && n < 90 && strcmp(de->d_name + n - 6, ".ttgir") == 0 && family_of_interest(de->d_name)) {
            memcpy(names[n_names], de->d_name, n - 6);
            names[n_names++][n - 6] = '\0';
        }
    }
    closedir(d);
    qsort(names, (size_t)n_names, sizeof names[0], cmp_names);
    return 1;
}

static void cleanup(void)
{
    char cmd[800];
    size_t n = strlen(g_dir);
    if (n < 8) return;
    snprintf(cmd, sizeof cmd, "rm -rf '%.*s'", (int)(n - 8), g_dir); /* the temporary directory above kernels/ */
    if (system(cmd) != 0) printf("test_triton_reduce: note: could not remove %s\n", g_dir);
}

static int analyse(const char *name)
{
    char path[900];
    snprintf(path, sizeof path, "%s/%s.ttgir", g_dir, name);
    if (tool_slurp(path, ttgir_buf, FILE_CAP) <= 0) return 0;
    if (layout_ttgir_parse(ttgir_buf, strlen(ttgir_buf), &mod, &terr) != LAYOUT_OK) return 0;
    return layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK;
}

static void test_isa(void)
{
    int n_cases = 0, n_reduces = 0, n_full = 0, n_equal = 0, n_other_op = 0, n_partial = 0;
    for (int c = 0; c < n_names; c++) {
        const char *name = names[c];
        char path[900];
        int amd = strstr(name, "_gfx") != NULL, i, j, all = 1;
        mcount isa, model, red;
        if (!analyse(name)) {
            CHECK_MSG(0, "%s: %s", name, terr.message);
            continue;
        }
        snprintf(path, sizeof path, "%s/%s.%s", g_dir, name, amd ? "amdgcn" : "ptx");
        if (tool_slurp(path, isa_buf, FILE_CAP) <= 0) {
            CHECK_MSG(0, "%s: no ISA", name);
            continue;
        }
        n_cases++;
        isa_counts(isa_buf, amd, &isa);
        model.n = red.n = 0;
        for (i = 0; i < kern.n_ops; i++) {
            const layout_triton_kernel_op *r = &kern.ops[i];
            if (r->kind == LAYOUT_TTGIR_REDUCE) {
                n_reduces++;
                CHECK_MSG(r->modelled, "%s line %d: %s", name, r->line, r->reason);
            }
            if (!r->modelled) {
                all = 0;
                continue;
            }
            for (j = 0; j < r->n_counts; j++) {
                mc_add(&model, r->counts[j].mnemonic, r->counts[j].count);
                if (r->kind == LAYOUT_TTGIR_REDUCE) mc_add(&red, r->counts[j].mnemonic, r->counts[j].count);
            }
        }
        if (!all) { /* a convert not modelled: the model's part of the ISA */
            n_partial++;
            for (j = 0; j < model.n; j++)
                CHECK_MSG(model.c[j] <= mc_get(&isa, model.mn[j]), "%s: %lld %s predicted, %lld in the ISA", name,
                          (long long)model.c[j], model.mn[j], (long long)mc_get(&isa, model.mn[j]));
            continue;
        }
        n_full++;
        {
            int eq = model.n == isa.n, foreign = 1;
            for (j = 0; j < model.n; j++)
                if (model.c[j] != mc_get(&isa, model.mn[j])) eq = 0;
            if (eq) {
                n_equal++;
                continue;
            }
            /* differs: only in mnemonics no reduce of the kernel predicts */
            for (j = 0; j < model.n; j++)
                if (model.c[j] != mc_get(&isa, model.mn[j]) && mc_get(&red, model.mn[j])) foreign = 0;
            for (j = 0; j < isa.n; j++)
                if (isa.c[j] != mc_get(&model, isa.mn[j]) && mc_get(&red, isa.mn[j])) foreign = 0;
            CHECK_MSG(foreign, "%s: a reduce's mnemonic differs from the ISA", name);
            n_other_op++;
        }
    }
    printf("test_triton_reduce: %d kernels, %d tt.reduce ops; %d fully modelled, %d of them equal to their ISA, %d "
           "differing in a convert's mnemonics only; %d with a convert not modelled, within their ISA\n",
           n_cases, n_reduces, n_full, n_equal, n_other_op, n_partial);
    CHECK(n_cases >= 218);
    CHECK(n_reduces >= 280);
    CHECK(n_equal >= 215);
    CHECK(n_other_op <= 3);
}

/* One CSV row into fields (quoted fields may hold commas; the quotes are
 * dropped); returns the number of fields. */
static int csv_row(char *line, char **f, int max)
{
    int n = 0;
    char *w = line, *p = line;
    while (*p && n < max) {
        f[n++] = w;
        if (*p == '"') {
            p++;
            while (*p && *p != '"') *w++ = *p++;
            if (*p == '"') p++;
        } else {
            while (*p && *p != ',') *w++ = *p++;
        }
        if (*p == ',') p++;
        *w++ = '\0';
    }
    return n;
}

static double num(const char *s)
{
    char b[64];
    size_t k = 0;
    for (; *s && k + 1 < sizeof b; s++)
        if (*s != ',') b[k++] = *s;
    b[k] = '\0';
    return strtod(b, NULL);
}

static void test_ncu(void)
{
    static char csv[1 << 22], runs[1 << 18];
    static char *f[512];
    char path[900], *save = NULL, *line, *run_names[256];
    int hdr = -1, n_runs = 0, row = 0, n_cmp = 0, n_eq = 0;
    int c_grid = -1, c_wf[2] = {-1, -1}, c_cf[2] = {-1, -1};
    snprintf(path, sizeof path, "%s/fixtures/triton/corpus/run.jsonl", g_root);
    if (tool_slurp(path, runs, sizeof runs) <= 0) {
        CHECK_MSG(0, "no %s", path);
        return;
    }
    for (line = strtok_r(runs, "\n", &save); line && n_runs < 256; line = strtok_r(NULL, "\n", &save)) {
        char *p = strstr(line, "\"name\": \""), *q;
        if (!p) continue;
        p += 9;
        if ((q = strchr(p, '"'))) *q = '\0';
        run_names[n_runs++] = p;
    }
    snprintf(path, sizeof path, "%s/fixtures/triton/corpus/ncu-0.csv", g_root);
    if (tool_slurp(path, csv, sizeof csv) <= 0) {
        CHECK_MSG(0, "no %s", path);
        return;
    }
    save = NULL;
    for (line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int nf, i;
        if (line[0] != '"') continue; /* ==PROF== lines */
        nf = csv_row(line, f, 512);
        if (hdr < 0) {
            hdr = nf;
            for (i = 0; i < nf; i++) {
                if (strcmp(f[i], "launch__grid_size") == 0) c_grid = i;
                if (strcmp(f[i], "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 0) c_wf[0] = i;
                if (strcmp(f[i], "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 0) c_wf[1] = i;
                if (strcmp(f[i], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 0) c_cf[0] = i;
                if (strcmp(f[i], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") == 0) c_cf[1] = i;
            }
            CHECK(c_grid >= 0 && c_wf[0] >= 0 && c_wf[1] >= 0 && c_cf[0] >= 0 && c_cf[1] >= 0);
            if (!(c_grid >= 0 && c_wf[0] >= 0 && c_wf[1] >= 0 && c_cf[0] >= 0 && c_cf[1] >= 0)) return;
            continue;
        }
        if (strcmp(f[0], "ID") == 0 || nf != hdr || f[0][0] < '0' || f[0][0] > '9') continue; /* the units row */
        {
            const char *name = row < n_runs ? run_names[row] : "";
            int64_t ctas = (int64_t)num(f[c_grid]), wf = 0, cf = 0, mwf, mcf;
            int all = 1;
            int64_t rwf = 0, rcf = 0;
            row++;
            if (!family_of_interest(name)) continue;
            if (!analyse(name)) {
                CHECK_MSG(0, "%s: %s", name, terr.message);
                continue;
            }
            for (i = 0; i < kern.n_ops; i++) {
                if (!kern.ops[i].modelled) all = 0;
                if (kern.ops[i].kind == LAYOUT_TTGIR_REDUCE && kern.ops[i].modelled) {
                    rwf += kern.ops[i].cta_total_cycles * ctas;
                    rcf += kern.ops[i].cta_extra_cycles * ctas;
                }
            }
            if (!all) continue;
            wf = kern.cta_total_cycles * ctas;
            cf = kern.cta_extra_cycles * ctas;
            mwf = (int64_t)(num(f[c_wf[0]]) + num(f[c_wf[1]]));
            mcf = (int64_t)(num(f[c_cf[0]]) + num(f[c_cf[1]]));
            n_cmp++;
            if (wf == mwf && cf == mcf) {
                n_eq++;
                continue;
            }
            /* the reduces' part stays within what was measured */
            CHECK_MSG(rwf <= mwf && rcf <= mcf, "%s: the reduces' %lld wavefronts, %lld conflicts exceed ncu's %lld, %lld",
                      name, (long long)rwf, (long long)rcf, (long long)mwf, (long long)mcf);
            printf("test_triton_reduce: ncu %s: %lld wavefronts, %lld conflicts predicted (reduces %lld, %lld), "
                   "measured %lld, %lld\n", name, (long long)wf, (long long)cf, (long long)rwf, (long long)rcf,
                   (long long)mwf, (long long)mcf);
        }
    }
    printf("test_triton_reduce: ncu: %d launched sm_90 kernels fully modelled, %d equal in shared wavefronts and "
           "bank conflicts\n", n_cmp, n_eq);
    CHECK(n_cmp >= 42);
    CHECK(n_eq >= 41);
}

int main(void)
{
    const char *fl = __FILE__, *slash = strrchr(fl, '/');
    snprintf(g_root, sizeof g_root, "%.*s", slash ? (int)(slash - fl) : 1, slash ? fl : ".");
    if (!extract()) {
        CHECK_MSG(0, "could not extract %s/fixtures/triton/corpus/kernels.tar.xz", g_root);
    } else {
        RUN(test_isa);
        RUN(test_ncu);
        cleanup();
    }
    return harness_finish("test_triton_reduce");
}
