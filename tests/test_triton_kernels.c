/* The corpus of real Triton 3.6 compilations (tests/fixtures/triton/kernels/:
 * gen_kernels.py, its TTGIR, AMDGCN for gfx942 / gfx950, PTX for sm_90, and
 * Nsight Compute's shared-memory counters of the sm_90 kernels on an H100).
 *
 * - the corpus is whole: 22 cases per target, each with its TTGIR, its ISA
 *   and its metadata, and the TTGIR's module attributes name the target and
 *   warp size its file name says (Triton's own printout);
 * - every layout alias of every TTGIR (`#name = #ttg.KIND<...>`) of a kind
 *   liblayout reads (blocked, swizzled_shared, padded_shared, linear,
 *   shared_linear, amd_rotating_shared, nvmma_shared) reads, prints and
 *   reads back to the same text; the other kinds (the MMA and MMA-operand
 *   layouts) are either read the same way or refused cleanly with a
 *   message, and the test lists how many of each it could not read yet
 *   (280 of 280 read);
 * - every amd_rotating_shared / nvmma_shared layout on every memdesc shape
 *   its kernel uses (the last two dims: a leading dim is the buffer index)
 *   builds a descriptor whose every element offset equals Triton's formula
 *   (tests/support/triton_shared_ref.h), and an nvmma_shared's
 *   elementBitWidth is the memdesc's element width;
 * - the counter file has one row per sm_90 case, in the corpus. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"
#include "support/triton_shared_ref.h"

#include <dirent.h>

#define CORPUS_MAX_CASES 256
#define FILE_CAP (1 << 20)

static char corpus_dir[512];
static char case_names[CORPUS_MAX_CASES][96];
static int n_cases;

static void find_corpus(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    int n = slash ? (int)(slash - f) : 1;
    snprintf(corpus_dir, sizeof corpus_dir, "%.*s/fixtures/triton/kernels", n, slash ? f : ".");
}

/* The whole file into buf (NUL-terminated); its length, or -1. */
static long read_file(const char *dir, const char *name, const char *ext, char *buf, long cap)
{
    char path[768];
    FILE *fp;
    long n;
    snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
    if (!(fp = fopen(path, "rb"))) return -1;
    n = (long)fread(buf, 1, (size_t)cap - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return n;
}

static void list_cases(void)
{
    DIR *d = opendir(corpus_dir);
    struct dirent *e;
    n_cases = 0;
    if (!d) return;
    while ((e = readdir(d)) != NULL && n_cases < CORPUS_MAX_CASES) {
        size_t n = strlen(e->d_name);
        if (n > 6 && n < sizeof case_names[0] + 6 && strcmp(e->d_name + n - 6, ".ttgir") == 0) {
            memcpy(case_names[n_cases], e->d_name, n - 6);
            case_names[n_cases][n - 6] = '\0';
            n_cases++;
        }
    }
    closedir(d);
}

static char file_buf[FILE_CAP];
static layout_error terr;

static void test_corpus_complete(void)
{
    int i, per_target[3] = {0, 0, 0};
    CHECK_MSG(n_cases == 66, "%d cases in %s", n_cases, corpus_dir);
    for (i = 0; i < n_cases; i++) {
        const char *c = case_names[i];
        int amd = strstr(c, "_gfx94") != NULL || strstr(c, "_gfx95") != NULL;
        const char *target = strstr(c, "_gfx942") ? "\"hip:gfx942\"" : strstr(c, "_gfx950") ? "\"hip:gfx950\"" : "\"cuda:90\"";
        per_target[strstr(c, "_gfx942") ? 0 : strstr(c, "_gfx950") ? 1 : 2]++;
        CHECK_MSG(read_file(corpus_dir, c, amd ? ".amdgcn" : ".ptx", file_buf, FILE_CAP) > 0, "%s: no ISA", c);
        CHECK_MSG(read_file(corpus_dir, c, ".json", file_buf, FILE_CAP) > 0, "%s: no metadata", c);
        if (read_file(corpus_dir, c, ".ttgir", file_buf, FILE_CAP) <= 0) {
            CHECK_MSG(0, "%s: no TTGIR", c);
            continue;
        }
        CHECK_MSG(strstr(file_buf, target) != NULL, "%s: TTGIR lacks ttg.target = %s", c, target);
        CHECK_MSG(strstr(file_buf, amd ? "\"ttg.threads-per-warp\" = 64" : "\"ttg.threads-per-warp\" = 32") != NULL,
                  "%s: TTGIR's warp size", c);
    }
    for (i = 0; i < 3; i++) CHECK_EQ_I64(per_target[i], 22);
}

/* Kinds liblayout reads today; the others are counted. */
static const char *const read_kinds[] = {"blocked",       "swizzled_shared",     "padded_shared", "linear",
                                         "shared_linear", "amd_rotating_shared", "nvmma_shared"};

static int is_read_kind(const char *k)
{
    size_t i;
    for (i = 0; i < sizeof read_kinds / sizeof read_kinds[0]; i++)
        if (strcmp(k, read_kinds[i]) == 0) return 1;
    return 0;
}

static void test_corpus_layouts(void)
{
    static char kinds[32][40];
    static int kind_total[32], kind_read[32];
    static char t1[LAYOUT_TEXT_CAP], t2[LAYOUT_TEXT_CAP];
    int n_kinds = 0, i, k, total = 0, read = 0;
    for (i = 0; i < n_cases; i++) {
        char *line, *save = NULL;
        if (read_file(corpus_dir, case_names[i], ".ttgir", file_buf, FILE_CAP) <= 0) continue;
        for (line = strtok_r(file_buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            char kind[40];
            const char *attr = strstr(line, " = #ttg.");
            layout_triton_attr a, back;
            layout_status st;
            size_t where = (size_t)-1;
            int n = 0;
            if (line[0] != '#' || !attr || attr != strchr(line, ' ')) continue;
            attr += 3;
            while (n < 39 && (attr[5 + n] == '_' || (attr[5 + n] >= 'a' && attr[5 + n] <= 'z'))) {
                kind[n] = attr[5 + n];
                n++;
            }
            kind[n] = '\0';
            if (strcmp(kind, "shared_memory") == 0) continue; /* the memory space, not a layout */
            for (k = 0; k < n_kinds && strcmp(kinds[k], kind) != 0; k++) {}
            if (k == n_kinds && n_kinds < 32) snprintf(kinds[n_kinds++], sizeof kinds[0], "%s", kind);
            if (k == 32) continue;
            kind_total[k]++;
            total++;
            st = layout_triton_from_text(attr, &a, &where, &terr);
            if (st != LAYOUT_OK) {
                CHECK_MSG(!is_read_kind(kind), "%s: '%s' not read: %s", case_names[i], attr, terr.message);
                CHECK_MSG(terr.message[0] != '\0' && where <= strlen(attr), "%s: refusal without a message",
                          attr);
                continue;
            }
            kind_read[k]++;
            read++;
            /* print, read back, print again: the same text */
            CHECK_MSG(layout_triton_to_text(&a, t1, sizeof t1, &terr) == LAYOUT_OK, "%s: %s", attr,
                      terr.message);
            CHECK_MSG(layout_triton_from_text(t1, &back, NULL, &terr) == LAYOUT_OK, "%s", t1);
            CHECK(layout_triton_to_text(&back, t2, sizeof t2, &terr) == LAYOUT_OK);
            CHECK_MSG(strcmp(t1, t2) == 0, "'%s' != '%s'", t1, t2);
        }
    }
    printf("test_triton_kernels: %d layout aliases in %d TTGIR files, %d read:", total, n_cases, read);
    for (k = 0; k < n_kinds; k++) printf(" %s %d/%d", kinds[k], kind_read[k], kind_total[k]);
    printf("\n");
    /* the counts of the corpus (grep '^#[a-z0-9_]* = #ttg\.' *.ttgir) */
    CHECK_EQ_I64(total, 28 + 13 + 147 + 14 + 13 + 20 + 45);
    CHECK_EQ_I64(read, 280); /* every alias of the corpus */
    for (k = 0; k < n_kinds; k++)
        if (is_read_kind(kinds[k])) CHECK_EQ_I64(kind_read[k], kind_total[k]);
}

/* amd_rotating_shared and nvmma_shared on the shapes the kernels use. */
static layout_ttgir module;

static void test_corpus_shared_shapes(void)
{
    int i, o, t, uses = 0, rot = 0, nv = 0;
    for (i = 0; i < n_cases; i++) {
        long n = read_file(corpus_dir, case_names[i], ".ttgir", file_buf, FILE_CAP);
        if (n <= 0) continue;
        if (layout_ttgir_parse(file_buf, (size_t)n, &module, &terr) != LAYOUT_OK) {
            CHECK_MSG(0, "%s: %s", case_names[i], terr.message);
            continue;
        }
        for (o = 0; o < module.n_ops; o++)
            for (t = 0; t < module.ops[o].n_src + module.ops[o].n_dst; t++) {
                const layout_ttgir_type *ty =
                    t < module.ops[o].n_src ? &module.ops[o].src[t] : &module.ops[o].dst[t - module.ops[o].n_src];
                const char *enc;
                size_t len;
                char attr[256];
                layout_triton_attr a;
                layout_descriptor d;
                int64_t shape[2], d0, d1, bad = 0;
                if (!ty->is_memdesc || ty->rank < 2 || layout_ttgir_encoding(&module, ty, &enc, &len) != LAYOUT_OK ||
                    len >= sizeof attr)
                    continue;
                memcpy(attr, enc, len);
                attr[len] = '\0';
                if (!strstr(attr, "amd_rotating_shared") && !strstr(attr, "nvmma_shared")) continue;
                shape[0] = ty->shape[ty->rank - 2];
                shape[1] = ty->shape[ty->rank - 1];
                if (layout_triton_from_text(attr, &a, NULL, &terr) != LAYOUT_OK ||
                    layout_triton_to_desc(&a, 2, shape, &d, &terr) != LAYOUT_OK) {
                    CHECK_MSG(0, "%s line %d: %s on [%lld, %lld]: %s", case_names[i], module.ops[o].line, attr,
                              (long long)shape[0], (long long)shape[1], terr.message);
                    continue;
                }
                uses++;
                if (a.kind == LAYOUT_TRITON_NVMMA_SHARED) {
                    nv++;
                    CHECK_MSG(a.element_bit_width == ty->elem_bits, "%s line %d: %s on %s", case_names[i],
                              module.ops[o].line, attr, ty->elem);
                } else {
                    rot++;
                }
                for (d0 = 0; d0 < shape[0]; d0++)
                    for (d1 = 0; d1 < shape[1]; d1++) {
                        int64_t c[2] = {d0, d1}, off = -1, ref;
                        if (a.kind == LAYOUT_TRITON_NVMMA_SHARED)
                            ref = ref_nvmma_offset(a.swizzling_byte_width, a.transposed, a.element_bit_width, shape, d0, d1);
                        else
                            ref = ref_rotating_offset(a.vec, a.per_phase, a.max_phase, a.order[0], shape, d0, d1);
                        layout_desc_offset(&d, c, &off, NULL);
                        if (off != ref && !bad++)
                            CHECK_MSG(0, "%s line %d: %s on [%lld, %lld]: (%lld, %lld) at %lld, Triton's formula %lld",
                                      case_names[i], module.ops[o].line, attr, (long long)shape[0], (long long)shape[1],
                                      (long long)d0, (long long)d1, (long long)off, (long long)ref);
                    }
            }
    }
    printf("test_triton_kernels: %d memdesc uses of amd_rotating_shared (%d) / nvmma_shared (%d) built and equal to "
           "Triton's formula\n",
           uses, rot, nv);
    CHECK(rot > 0 && nv > 0);
}

static void test_counters(void)
{
    char *line, *save = NULL;
    int rows = 0, i;
    if (read_file(corpus_dir, "ncu_sm90", ".csv", file_buf, FILE_CAP) <= 0) {
        CHECK_MSG(0, "no ncu_sm90.csv in %s", corpus_dir);
        return;
    }
    CHECK(strstr(file_buf, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") != NULL);
    CHECK(strstr(file_buf, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") != NULL);
    for (line = strtok_r(file_buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[96];
        const char *comma = strchr(line, ',');
        if (!comma || comma == line || (size_t)(comma - line) >= sizeof name || strcmp(line, "case") == 0) continue;
        memcpy(name, line, (size_t)(comma - line));
        name[comma - line] = '\0';
        if (strcmp(name, "case") == 0) continue;
        rows++;
        CHECK_MSG(strstr(name, "_sm90") != NULL, "%s: a counter row of a non-sm_90 case", name);
        for (i = 0; i < n_cases && strcmp(case_names[i], name) != 0; i++) {}
        CHECK_MSG(i < n_cases, "%s: counters of a case the corpus lacks", name);
    }
    CHECK_EQ_I64(rows, 22);
}

int main(void)
{
    find_corpus();
    list_cases();
    RUN(test_corpus_complete);
    RUN(test_corpus_layouts);
    RUN(test_corpus_shared_shapes);
    RUN(test_counters);
    return harness_finish("test_triton_kernels");
}
