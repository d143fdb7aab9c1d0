/* The talk's kernels (docs/lds-model.md §4.1) through the real ck_tile: replay.
 *
 * tests/fixtures/ck_tile/ds_counts.txt holds the DS instructions per wave
 * and tile that clang-22 emitted for the talk's kernels 01-10 written with
 * ROCm/composable_kernel's own ck_tile headers (tile windows, load_tile /
 * store_tile, the talk's descriptors and distributions), for gfx942 and
 * gfx950; tests/fixtures/ck_tile/gen_ck_tile.py made it (its docstring has
 * the commands).  This test needs neither ck_tile nor clang: it reads the
 * committed counts and requires
 *
 * (a) that liblayout's compiler model, layout_access_plan_make() on the same
 *     kernels (examples/seed_kernels.h: the path `layout check` and
 *     tests/test_emit.c use), predicts the same mnemonics and counts for
 *     every kernel, side and architecture: 7 kernels x 2 archs x 2 sides;
 *     so does layout_check_kernel()'s per-side instruction count;
 * (b) that the fixture is whole and consistent with what is known without
 *     any model: each side moves 16 bytes per lane (a 64 x 32 fp16 tile over
 *     256 threads), and on gfx942 each kernel's DS instructions per wave
 *     equal the MI300 counter SQ_INSTS_LDS / (8192 tiles x 4 waves) that the
 *     talk published (its slide "All Six, Side by Side": 01 294,912;
 *     02 294,912; 03 327,680; 05 294,912; 08 65,536; 10 294,912);
 * (c) that kernel 01's eight ds_read_u16 carry the immediate offsets of the
 *     talk's listing (its slide "01 Row-Major Baseline - Code": 0, 64, ...,
 *     448 from one base register), and that three of kernel 04's eight
 *     carry an immediate offset (its slide "05 XOR + Padding": "3 of its 8
 *     ds_read_u16 instructions used hardcoded offsets", "3 / 8 = 37.5%");
 * (d) that the kernels compiled are the kernels the model is given:
 *     tests/fixtures/ck_tile/ds_maps.txt holds ck_tile's own index
 *     arithmetic for each kernel, arch and side (every thread and register:
 *     tile coordinate and LDS element offset, hashed; six threads in full),
 *     and liblayout's distributions and descriptors (layout_dist_coord_elem,
 *     layout_desc_offset) must give the same.
 *
 * A difference in (a) is printed with both sides; docs/emit.md's rules R1-R5
 * name the ways the compiler is known to differ from the model.  None of
 * the 28 sides differs today.
 *
 * Mnemonics are compared after folding the d16 register-half variants:
 * ds_write_b16_d16_hi stores the high 16 bits of its VGPR, ds_write_b16 the
 * low 16 bits (AMD Instinct MI300 ISA, DS opcodes); both move 2 bytes per
 * lane to one address, and which register half holds the value is the
 * register allocator's choice, outside the model (tests/test_emit.c folds
 * the same way).
 */
#include "harness.h"
#include "../examples/seed_kernels.h"

#define MAX_ENTRIES 128

typedef struct ds_entry {
    char kernel[8];
    char arch[16];
    char side[8];
    char mnemonic[40];
    int count;
} ds_entry;

static ds_entry g_entries[MAX_ENTRIES];
static int g_n_entries;
static char g_fixture_dir[512];

static const char *const k_arches[] = {"gfx942", "gfx950"};
#define N_ARCHES 2

static void fixture_path(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", g_fixture_dir, name);
}

/* ds_write_b16_d16_hi -> ds_write_b16; ds_read_u16_d16[_hi] -> ds_read_u16; ds_read_i16 -> ds_read_u16. */
static void fold_mnemonic(const char *m, char *out, size_t cap)
{
    char t[40];
    snprintf(t, sizeof t, "%s", m);
    char *p = strstr(t, "_d16");
    if (p) *p = '\0';
    if (strcmp(t, "ds_read_i16") == 0) snprintf(t, sizeof t, "ds_read_u16");
    if (strcmp(t, "ds_read_i8") == 0) snprintf(t, sizeof t, "ds_read_u8");
    snprintf(out, cap, "%s", t);
}

/* Bytes per lane of a folded mnemonic: the width suffix, doubled for read2 / write2. */
static int mnemonic_bytes(const char *m)
{
    const char *u = strrchr(m, '_');
    int bits = u && u[1] ? atoi(u + 2) : 0;
    int pair = strstr(m, "ds_read2") != NULL || strstr(m, "ds_write2") != NULL;
    return (pair ? 2 : 1) * bits / 8;
}

/* "1 x ds_write_b128 + 8 x ds_read_u16"-style text of one side, folded and sorted by mnemonic. */
typedef struct side_counts {
    int n;
    char name[8][40];
    int count[8];
} side_counts;

static void side_add(side_counts *s, const char *name, int k)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->name[i], name) == 0) {
            s->count[i] += k;
            return;
        }
    if (s->n < 8) {
        snprintf(s->name[s->n], sizeof s->name[s->n], "%s", name);
        s->count[s->n++] = k;
    }
}

static void side_text(const side_counts *s, char *out, size_t cap)
{
    int idx[8], n = s->n;
    for (int i = 0; i < n; i++) idx[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(s->name[idx[j - 1]], s->name[idx[j]]) > 0; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n && k < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, "%s%d x %s", i ? " + " : "", s->count[idx[i]], s->name[idx[i]]);
    if (n == 0) snprintf(out, cap, "-");
}

/* The fixture's counts of one kernel, arch and side, folded. */
static side_counts fixture_side(const char *kernel, const char *arch, const char *side)
{
    side_counts s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < g_n_entries; i++) {
        const ds_entry *e = &g_entries[i];
        if (strcmp(e->kernel, kernel) || strcmp(e->arch, arch) || strcmp(e->side, side)) continue;
        char folded[40];
        fold_mnemonic(e->mnemonic, folded, sizeof folded);
        side_add(&s, folded, e->count);
    }
    return s;
}

static int side_instructions(const side_counts *s)
{
    int n = 0;
    for (int i = 0; i < s->n; i++) n += s->count[i];
    return n;
}

/* ---- reading the fixture -------------------------------------------------------- */

static void test_fixture_parses(void)
{
    char path[600], line[256];
    fixture_path(path, sizeof path, "ds_counts.txt");
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f) return;
    int lineno = 0, saw_provenance = 0;
    g_n_entries = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#') {
            if (strstr(line, "ROCm/composable_kernel ") && strstr(line, "include/ck_tile")) saw_provenance = 1;
            continue;
        }
        if (line[0] == '\n') continue;
        ds_entry e;
        char extra[8];
        memset(&e, 0, sizeof e);
        int got = sscanf(line, "%7s %15s %7s %39s %d %7s", e.kernel, e.arch, e.side, e.mnemonic, &e.count, extra);
        CHECK_MSG(got == 5, "%s:%d: want 'kernel arch side mnemonic count': %s", path, lineno, line);
        if (got != 5) continue;
        CHECK_MSG(e.count > 0, "%s:%d: count %d", path, lineno, e.count);
        CHECK_MSG((strcmp(e.side, "write") == 0 && strncmp(e.mnemonic, "ds_write", 8) == 0) ||
                      (strcmp(e.side, "read") == 0 && strncmp(e.mnemonic, "ds_read", 7) == 0),
                  "%s:%d: side %s with %s", path, lineno, e.side, e.mnemonic);
        int known_kernel = 0, known_arch = 0;
        for (int k = 0; k < SEED_KERNEL_COUNT; k++)
            known_kernel |= strcmp(e.kernel, seed_kernel_id_str((seed_kernel_id)k)) == 0;
        for (int a = 0; a < N_ARCHES; a++) known_arch |= strcmp(e.arch, k_arches[a]) == 0;
        CHECK_MSG(known_kernel && known_arch, "%s:%d: unknown kernel or arch: %s", path, lineno, line);
        CHECK_MSG(g_n_entries < MAX_ENTRIES, "%s: more than %d entries", path, MAX_ENTRIES);
        if (g_n_entries < MAX_ENTRIES) g_entries[g_n_entries++] = e;
    }
    fclose(f);
    CHECK_MSG(saw_provenance, "%s: no '# ROCm/composable_kernel <commit>' line", path);
    /* every kernel, arch and side is there */
    for (int k = 0; k < SEED_KERNEL_COUNT; k++)
        for (int a = 0; a < N_ARCHES; a++)
            for (int s = 0; s < 2; s++) {
                side_counts c = fixture_side(seed_kernel_id_str((seed_kernel_id)k), k_arches[a], s ? "read" : "write");
                CHECK_MSG(c.n > 0, "no %s side for seed %s on %s", s ? "read" : "write",
                          seed_kernel_id_str((seed_kernel_id)k), k_arches[a]);
            }
}

/* ---- (b) what is known without the model ---------------------------------------- */

static void test_fixture_bytes_per_lane(void)
{
    /* 64 x 32 fp16 over 256 threads: 8 elements, 16 bytes per lane and side */
    for (int k = 0; k < SEED_KERNEL_COUNT; k++)
        for (int a = 0; a < N_ARCHES; a++)
            for (int s = 0; s < 2; s++) {
                side_counts c = fixture_side(seed_kernel_id_str((seed_kernel_id)k), k_arches[a], s ? "read" : "write");
                int bytes = 0;
                for (int i = 0; i < c.n; i++) bytes += c.count[i] * mnemonic_bytes(c.name[i]);
                CHECK_MSG(bytes == SK_KPACK * SK_ELEM_BYTES, "seed %s %s %s: %d bytes per lane",
                          seed_kernel_id_str((seed_kernel_id)k), k_arches[a], s ? "read" : "write", bytes);
            }
}

static void test_fixture_vs_mi300_counters(void)
{
    static const struct {
        const char *kernel;
        int64_t sq_insts_lds;
    } published[] = {{"01", 294912}, {"02", 294912}, {"03", 327680}, {"05", 294912}, {"08", 65536}, {"10", 294912}};
    const int64_t waves = (int64_t)SEED_TILES * SK_WARPS;
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        side_counts w = fixture_side(published[i].kernel, "gfx942", "write");
        side_counts r = fixture_side(published[i].kernel, "gfx942", "read");
        int64_t per_wave = side_instructions(&w) + side_instructions(&r);
        CHECK_MSG(per_wave * waves == published[i].sq_insts_lds,
                  "seed %s: %lld DS instructions per wave x %lld waves != %lld",
                  published[i].kernel, (long long)per_wave, (long long)waves, (long long)published[i].sq_insts_lds);
    }
}

/* (c) kernel 01's read offsets as in the talk's listing. */
static void test_fixture_k01_offsets(void)
{
    char path[600], line[256];
    fixture_path(path, sizeof path, "ds_listing.txt");
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f) return;
    for (int a = 0; a < N_ARCHES; a++) {
        char header[64], base[16] = "";
        int in_section = 0, n_reads = 0, same_base = 1, offsets_ok = 1;
        snprintf(header, sizeof header, "== seed 01 %s\n", k_arches[a]);
        rewind(f);
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "== ", 3) == 0) {
                in_section = strcmp(line, header) == 0;
                continue;
            }
            if (!in_section || strncmp(line, "ds_read_u16 ", 12) != 0) continue;
            char dst[16], addr[16];
            int off = 0;
            const char *o = strstr(line, "offset:");
            if (sscanf(line, "ds_read_u16 %15[^,], %15s", dst, addr) != 2) continue;
            if (o) off = atoi(o + 7);
            if (n_reads == 0) snprintf(base, sizeof base, "%s", addr);
            else if (strcmp(base, addr) != 0) same_base = 0;
            if (off != 64 * n_reads) offsets_ok = 0;
            n_reads++;
        }
        CHECK_MSG(n_reads == 8 && same_base && offsets_ok, "seed 01 on %s: %d reads, same base %d, offsets 0..448 %d",
                  k_arches[a], n_reads, same_base, offsets_ok);
    }
    fclose(f);
}

/* (c) kernel 04: three of the eight reads with an immediate offset, as the talk found. */
static void test_fixture_k04_offsets(void)
{
    char path[600], line[256];
    fixture_path(path, sizeof path, "ds_listing.txt");
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f) return;
    for (int a = 0; a < N_ARCHES; a++) {
        char header[64];
        int in_section = 0, n_reads = 0, n_offset = 0;
        snprintf(header, sizeof header, "== seed 04 %s\n", k_arches[a]);
        rewind(f);
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "== ", 3) == 0) {
                in_section = strcmp(line, header) == 0;
                continue;
            }
            if (!in_section || strncmp(line, "ds_read_u16 ", 12) != 0) continue;
            n_reads++;
            if (strstr(line, " offset:")) n_offset++;
        }
        CHECK_MSG(n_reads == 8 && n_offset == 3, "seed 04 on %s: %d reads, %d with an immediate offset", k_arches[a],
                  n_reads, n_offset);
    }
    fclose(f);
}

/* ---- (d) ck_tile's index arithmetic equals liblayout's ------------------------------ */

/* FNV-1a 64, as kernels/seed_tables.hip computes it. */
static uint64_t fnv1a_add(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

/* liblayout's (x0, x1, offset) of register d of thread t on one side. */
static int lib_entry(const layout_distribution *dist, const layout_descriptor *desc, int t, int d, int64_t x[2],
                     int64_t *off)
{
    layout_error e;
    if (layout_dist_coord_elem(dist, t / SK_WAVE, t % SK_WAVE, d, x, &e) != LAYOUT_OK) return -1;
    return layout_desc_offset(desc, x, off, &e) == LAYOUT_OK ? 0 : -1;
}

static void test_maps_equal_liblayout(void)
{
    char path[600], line[1024];
    fixture_path(path, sizeof path, "ds_maps.txt");
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f) return;
    static seed_kernel sk;
    int maps = 0, samples = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        char kind[8], kernel[8], arch[16], side[8];
        int n = 0;
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "%7s %7s %15s %7s%n", kind, kernel, arch, side, &n) != 4) {
            CHECK_MSG(0, "%s:%d: cannot read '%s'", path, lineno, line);
            continue;
        }
        int kid = -1;
        for (int k = 0; k < SEED_KERNEL_COUNT; k++)
            if (strcmp(kernel, seed_kernel_id_str((seed_kernel_id)k)) == 0) kid = k;
        layout_arch a;
        layout_error e;
        const int side_ok = strcmp(side, "write") == 0 || strcmp(side, "read") == 0;
        if (kid < 0 || layout_arch_preset(arch, &a, &e) != LAYOUT_OK || !side_ok) {
            CHECK_MSG(0, "%s:%d: unknown kernel, arch or side: %s", path, lineno, line);
            continue;
        }
        CHECK(seed_kernel_build(&sk, (seed_kernel_id)kid, a.n_banks, &e) == LAYOUT_OK);
        const int is_write = strcmp(side, "write") == 0;
        const layout_distribution *dist = is_write ? &sk.write_dist : &sk.read_dist;
        const layout_descriptor *desc = is_write ? &sk.write_desc : &sk.read_desc;
        const int per_thread = (int)dist->elems_per_thread;
        if (strcmp(kind, "map") == 0) {
            unsigned long long want = 0;
            int entries = 0;
            CHECK_MSG(sscanf(line + n, " fnv1a=%llx entries=%d", &want, &entries) == 2, "%s:%d: %s", path, lineno,
                      line);
            uint64_t h = 1469598103934665603ull;
            int bad = 0;
            for (int t = 0; t < SK_WARPS * SK_WAVE && !bad; t++)
                for (int d = 0; d < per_thread && !bad; d++) {
                    int64_t x[2], off;
                    char text[128];
                    if (lib_entry(dist, desc, t, d, x, &off)) bad = 1;
                    snprintf(text, sizeof text, "%d %d %lld %lld %lld\n", t, d, (long long)x[0], (long long)x[1],
                             (long long)off);
                    h = fnv1a_add(h, text);
                }
            CHECK_MSG(!bad, "seed %s %s %s: liblayout cannot evaluate the map", kernel, arch, side);
            CHECK_MSG(entries == SK_WARPS * SK_WAVE * per_thread, "seed %s %s %s: ck_tile has %d entries, liblayout %d",
                      kernel, arch, side, entries, SK_WARPS * SK_WAVE * per_thread);
            CHECK_MSG(h == (uint64_t)want, "seed %s %s %s: ck_tile's (thread, register) -> coordinate -> offset map "
                                           "differs from liblayout's (see the sample lines)", kernel, arch, side);
            maps++;
        } else if (strcmp(kind, "sample") == 0) {
            int t = -1, used = 0;
            const char *p = line + n;
            CHECK_MSG(sscanf(p, " %d%n", &t, &used) == 1 && t >= 0 && t < SK_WARPS * SK_WAVE, "%s:%d: %s", path, lineno,
                      line);
            if (t < 0 || t >= SK_WARPS * SK_WAVE) continue;
            p += used;
            for (int d = 0; d < per_thread; d++) {
                long long cx0, cx1, coff;
                int64_t x[2], off;
                CHECK_MSG(sscanf(p, " %lld,%lld=%lld%n", &cx0, &cx1, &coff, &used) == 3, "%s:%d: register %d", path,
                          lineno, d);
                p += used;
                CHECK(lib_entry(dist, desc, t, d, x, &off) == 0);
                CHECK_MSG(x[0] == cx0 && x[1] == cx1 && off == coff,
                          "seed %s %s %s thread %d register %d: ck_tile (%lld, %lld) at %lld, "
                          "liblayout (%lld, %lld) at %lld",
                          kernel, arch, side, t, d, cx0, cx1, coff, (long long)x[0], (long long)x[1], (long long)off);
            }
            samples++;
        } else {
            CHECK_MSG(0, "%s:%d: unknown line kind '%s'", path, lineno, kind);
        }
    }
    fclose(f);
    printf("test_ck_tile_ds: %d maps (every thread and register) and %d sampled threads equal ck_tile's\n", maps,
           samples);
    CHECK_EQ_I64(maps, SEED_KERNEL_COUNT * N_ARCHES * 2);
    CHECK_EQ_I64(samples, SEED_KERNEL_COUNT * N_ARCHES * 2 * 6);
}

/* ---- (a) the compiler model reproduces the fixture ------------------------------ */

static side_counts model_side(const layout_access_plan *pl)
{
    side_counts s;
    memset(&s, 0, sizeof s);
    for (int op = 1; op < LAYOUT_DS_OP_COUNT; op++)
        if (pl->op_count[op]) side_add(&s, layout_ds_op_name((layout_ds_op)op, pl->direction), pl->op_count[op]);
    return s;
}

static void test_model_reproduces_fixture(void)
{
    static seed_kernel sk;
    static layout_access_plan pw, pr;
    int sides = 0, same = 0;
    printf("  %-4s %-7s | %-22s %-22s | %-22s %-22s\n", "seed", "arch", "write: ck_tile+clang", "model",
           "read: ck_tile+clang", "model");
    for (int a = 0; a < N_ARCHES; a++) {
        layout_arch arch;
        layout_error e;
        CHECK(layout_arch_preset(k_arches[a], &arch, &e) == LAYOUT_OK);
        for (int k = 0; k < SEED_KERNEL_COUNT; k++) {
            const char *id = seed_kernel_id_str((seed_kernel_id)k);
            CHECK(seed_kernel_build(&sk, (seed_kernel_id)k, arch.n_banks, &e) == LAYOUT_OK);
            layout_status sw = layout_access_plan_make(&pw, &sk.write_desc, &sk.write_dist, LAYOUT_WRITE,
                                                       SK_ELEM_BYTES, NULL, &e);
            CHECK_MSG(sw == LAYOUT_OK, "seed %s write: %s", id, e.message);
            layout_status sr = layout_access_plan_make(&pr, &sk.read_desc, &sk.read_dist, LAYOUT_READ,
                                                       SK_ELEM_BYTES, NULL, &e);
            CHECK_MSG(sr == LAYOUT_OK, "seed %s read: %s", id, e.message);
            if (sw || sr) continue;
            side_counts fw = fixture_side(id, k_arches[a], "write"), fr = fixture_side(id, k_arches[a], "read");
            side_counts mw = model_side(&pw), mr = model_side(&pr);
            char tfw[128], tfr[128], tmw[128], tmr[128];
            side_text(&fw, tfw, sizeof tfw);
            side_text(&fr, tfr, sizeof tfr);
            side_text(&mw, tmw, sizeof tmw);
            side_text(&mr, tmr, sizeof tmr);
            int wsame = strcmp(tfw, tmw) == 0, rsame = strcmp(tfr, tmr) == 0;
            sides += 2;
            same += wsame + rsame;
            printf("  %-4s %-7s | %-22s %-22s | %-22s %-22s\n", id, k_arches[a], tfw, wsame ? "=" : tmw, tfr,
                   rsame ? "=" : tmr);
            CHECK_MSG(wsame, "seed %s on %s, write: ck_tile + clang-22 issue %s, the model predicts %s "
                             "(docs/emit.md R1-R5 name the known differences)", id, k_arches[a], tfw, tmw);
            CHECK_MSG(rsame, "seed %s on %s, read: ck_tile + clang-22 issue %s, the model predicts %s "
                             "(docs/emit.md R1-R5 name the known differences)", id, k_arches[a], tfr, tmr);
            /* layout check's per-side count (layout_check_kernel) agrees as well */
            layout_kernel_spec spec = seed_kernel_spec(&sk);
            static layout_kernel_result res;
            CHECK_MSG(layout_check_kernel(&arch, &spec, &res, &e) == LAYOUT_OK, "seed %s: %s", id, e.message);
            CHECK_MSG(res.write.steps_per_wave == side_instructions(&fw) &&
                          res.read.steps_per_wave == side_instructions(&fr),
                      "seed %s on %s: layout check counts %lld + %lld instructions per wave, "
                      "ck_tile + clang-22 %d + %d",
                      id, k_arches[a], (long long)res.write.steps_per_wave, (long long)res.read.steps_per_wave,
                      side_instructions(&fw), side_instructions(&fr));
        }
    }
    printf("test_ck_tile_ds: %d of %d sides (7 seed kernels x gfx942, gfx950 x write, read) equal the model\n", same,
           sides);
    CHECK_EQ_I64(sides, SEED_KERNEL_COUNT * N_ARCHES * 2);
}

int main(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(g_fixture_dir, sizeof g_fixture_dir, "%.*s/fixtures/ck_tile", slash ? (int)(slash - f) : 1,
             slash ? f : ".");
    RUN(test_fixture_parses);
    RUN(test_fixture_bytes_per_lane);
    RUN(test_fixture_vs_mi300_counters);
    RUN(test_fixture_k01_offsets);
    RUN(test_fixture_k04_offsets);
    RUN(test_maps_equal_liblayout);
    RUN(test_model_reproduces_fixture);
    return harness_finish("test_ck_tile_ds");
}
