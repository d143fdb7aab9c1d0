/* Thread safety, exercised: the public API driven from 8 threads at once
 * (issue 12 item 2).  Every header promises reentrancy and no global
 * mutable state; this test makes the promise observable and gives
 * ThreadSanitizer (`make tsan`) something to watch.
 *
 * A table of jobs; each job is a deterministic function of an item index
 * that calls the library and returns an FNV-1a digest of everything the
 * library returned (statuses, messages, offsets, texts, costs, reports).
 * The digests are first computed on the main thread alone; then 8 threads
 * run every job over every item at once (each thread starting at a
 * different job and item, so different calls overlap) and every digest
 * must equal the single-threaded one.  Each job owns its objects (large
 * ones on the heap); only the read-only reference table is shared.
 *
 * To cover a new module, add one row to k_jobs: the search (suggest.h) and
 * the dialect parsers / printers (Triton, CuTe, IREE) get theirs when they
 * land, e.g. {"suggest", job_suggest, 8}.  Nothing else changes. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"
#include "support/ref_eval.h"
#include "../examples/seed_kernels.h"

#include <pthread.h>

enum { N_THREADS = 8, ROUNDS = 2, MAX_ITEMS = 32 };

/* ---- digests ------------------------------------------------------------ */

typedef struct fnv {
    uint64_t h;
} fnv;

static void fnv_bytes(fnv *f, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++) f->h = (f->h ^ b[i]) * 1099511628211ull;
}
static void fnv_i64(fnv *f, int64_t v) { fnv_bytes(f, &v, sizeof v); }
static void fnv_str(fnv *f, const char *s) { fnv_bytes(f, s, strlen(s) + 1); }
static void fnv_status(fnv *f, layout_status st, const layout_error *e)
{
    fnv_i64(f, st);
    if (st) fnv_str(f, e->message);
}
static fnv fnv_init(void)
{
    fnv f = {1469598103934665603ull};
    return f;
}

/* A random composition of the reference generator, built (index -> seed). */
static layout_status random_desc(int i, layout_descriptor *d, layout_error *err)
{
    uint64_t seed = 0x7e57ull * (uint64_t)(i + 1) | 1;
    long used[REF_KIND_COUNT] = {0};
    ref_desc r;
    ref_random(&seed, &r, used);
    return ref_build(&r, d, err);
}

static void feed_side(fnv *f, const layout_side_result *s)
{
    fnv_i64(f, s->steps_per_wave), fnv_i64(f, s->n_warps), fnv_i64(f, s->instrs_per_tile);
    fnv_i64(f, s->extra_cycles_per_tile), fnv_i64(f, s->total_cycles_per_tile);
    fnv_i64(f, s->worst_warp), fnv_i64(f, s->worst_step), fnv_i64(f, s->worst_extra);
    fnv_i64(f, s->sq_lds_bank_conflict), fnv_i64(f, s->sq_insts_lds);
}

/* Seed kernel (i mod 7) on a wave-64 preset (i / 7 picks it). */
static layout_status seed_case(int i, layout_arch *arch, seed_kernel *k, layout_error *err)
{
    static const char *const presets[] = {"gfx942", "gfx950", "gfx90a"};
    layout_status st = layout_arch_preset(presets[(i / SEED_KERNEL_COUNT) % 3], arch, err);
    if (st) return st;
    return seed_kernel_build(k, (seed_kernel_id)(i % SEED_KERNEL_COUNT), arch->n_banks, err);
}

/* ---- the jobs ----------------------------------------------------------- */

/* Text: descriptor -> canonical text -> parse -> print; a malformed variant. */
static uint64_t job_desc_text(int i)
{
    fnv f = fnv_init();
    layout_descriptor d, back;
    layout_error err;
    char text[LAYOUT_TEXT_CAP], again[LAYOUT_TEXT_CAP];
    size_t where = 0;
    layout_status st = random_desc(i, &d, &err);
    fnv_status(&f, st, &err);
    if (st) return f.h;
    st = layout_desc_to_text(&d, text, sizeof text, &err);
    fnv_status(&f, st, &err);
    if (st) return f.h;
    fnv_str(&f, text);
    st = layout_desc_from_text(text, &back, &where, &err);
    fnv_status(&f, st, &err);
    if (!st && !layout_desc_to_text(&back, again, sizeof again, &err)) fnv_str(&f, again);
    layout_desc_print(&d, again, sizeof again);
    fnv_str(&f, again);
    text[strlen(text) / 2] = '#'; /* a parse error with its column */
    st = layout_desc_from_text(text, &back, &where, &err);
    fnv_status(&f, st, &err);
    fnv_i64(&f, (int64_t)where);
    return f.h;
}

/* Offsets, validity and verify() of a random descriptor. */
static uint64_t job_offsets(int i)
{
    fnv f = fnv_init();
    layout_descriptor d;
    layout_error err;
    layout_status st = random_desc(i, &d, &err);
    fnv_status(&f, st, &err);
    if (st) return f.h;
    int n = layout_desc_ndims(&d);
    int64_t c[LAYOUT_MAX_DIMS] = {0}, size = layout_desc_size(&d);
    for (int64_t k = 0; k < size && k < 2048; k++) {
        int64_t off = 0;
        int valid = 0;
        fnv_status(&f, layout_desc_offset(&d, c, &off, &err), &err);
        fnv_status(&f, layout_desc_is_valid(&d, c, &valid, &err), &err);
        fnv_i64(&f, off), fnv_i64(&f, valid);
        for (int j = n - 1; j >= 0; j--) {
            if (++c[j] < layout_desc_length(&d, j)) break;
            c[j] = 0;
        }
    }
    size_t ws = 0;
    st = layout_desc_verify_workspace_size(&d, &ws, &err);
    fnv_status(&f, st, &err);
    if (!st && ws <= ((size_t)1 << 20)) {
        void *buf = malloc(ws ? ws : 1);
        layout_offset_report rep;
        st = layout_desc_verify_offsets(&d, buf, ws, &rep, &err);
        fnv_status(&f, st, &err);
        if (!st) {
            fnv_i64(&f, rep.n_coords), fnv_i64(&f, rep.n_valid), fnv_i64(&f, rep.min_offset);
            fnv_i64(&f, rep.max_offset), fnv_i64(&f, rep.injective), fnv_i64(&f, rep.bijective);
        }
        free(buf);
    }
    return f.h;
}

/* Compiled plans: build (scalar and auto), listing, whole tile. */
static uint64_t job_plans(int i)
{
    fnv f = fnv_init();
    layout_descriptor d;
    layout_error err;
    layout_status st = random_desc(i, &d, &err);
    fnv_status(&f, st, &err);
    if (st) return f.h;
    layout_plan *plan = malloc(sizeof *plan);
    int64_t *offs = malloc(4096 * sizeof *offs);
    uint8_t *valid = malloc(4096);
    char *text = malloc(8192);
    for (int impl = LAYOUT_PLAN_AUTO; impl <= LAYOUT_PLAN_SCALAR; impl++) {
        st = layout_plan_build(plan, &d, (layout_plan_impl)impl, &err);
        fnv_status(&f, st, &err);
        if (st) continue;
        if (impl == LAYOUT_PLAN_SCALAR) {
            layout_plan_print(plan, text, 8192);
            fnv_str(&f, text);
        }
        int64_t size = layout_desc_size(&d);
        if (size > 4096) continue;
        st = layout_plan_tile(plan, offs, valid, 4096, &err);
        fnv_status(&f, st, &err);
        for (int64_t k = 0; !st && k < size; k++) fnv_i64(&f, offs[k]), fnv_i64(&f, valid[k]);
    }
    free(plan), free(offs), free(valid), free(text);
    return f.h;
}

/* Distributions: text round trip and coordinates of a few threads. */
static uint64_t job_dist_text(int i)
{
    fnv f = fnv_init();
    layout_arch arch;
    layout_error err;
    seed_kernel *k = malloc(sizeof *k);
    layout_status st = seed_case(i, &arch, k, &err);
    fnv_status(&f, st, &err);
    if (!st) {
        char text[LAYOUT_TEXT_CAP];
        const layout_distribution *d = i % 2 ? &k->read_dist : &k->write_dist;
        layout_distribution back;
        st = layout_dist_to_text(d, text, sizeof text, &err);
        fnv_status(&f, st, &err);
        if (!st) {
            fnv_str(&f, text);
            size_t where = 0;
            st = layout_dist_from_text(text, 0, 0, &back, &where, &err);
            fnv_status(&f, st, &err);
        }
        for (int w = 0; w < d->n_warps; w++)
            for (int l = 0; l < d->wave_size; l += 7)
                for (int64_t e = 0; e < d->elems_per_thread; e += 3) {
                    int64_t x[LAYOUT_MAX_DIMS];
                    st = layout_dist_coord_elem(d, w, l, e, x, &err);
                    fnv_status(&f, st, &err);
                    for (int j = 0; !st && j < d->n_x; j++) fnv_i64(&f, x[j]);
                }
    }
    free(k);
    return f.h;
}

/* Access plans and the triple check (layout_check_kernel). */
static uint64_t job_triple(int i)
{
    fnv f = fnv_init();
    layout_arch arch;
    layout_error err;
    seed_kernel *k = malloc(sizeof *k);
    layout_status st = seed_case(i, &arch, k, &err);
    fnv_status(&f, st, &err);
    if (!st) {
        layout_kernel_spec spec = seed_kernel_spec(k);
        layout_kernel_result res;
        char text[1024];
        st = layout_check_kernel(&arch, &spec, &res, &err);
        fnv_status(&f, st, &err);
        if (!st) {
            feed_side(&f, &res.write), feed_side(&f, &res.read);
            layout_kernel_result_print(&res, text, sizeof text);
            fnv_str(&f, text);
        }
        st = layout_check_triple(&arch, &k->write_dist, &k->write_desc, &k->read_dist, 2, &res, &err);
        fnv_status(&f, st, &err);
        if (!st) fnv_i64(&f, res.extra_cycles_per_tile);
        layout_access_plan *plan = malloc(sizeof *plan);
        st = layout_access_plan_make(plan, &k->write_desc, &k->write_dist, LAYOUT_WRITE, 2, NULL, &err);
        fnv_status(&f, st, &err);
        if (!st) {
            layout_access_plan_print(plan, text, sizeof text);
            fnv_str(&f, text);
        }
        free(plan);
    }
    free(k);
    return f.h;
}

/* Kernel plans: make + check, materialised instructions. */
static uint64_t job_kernel_plans(int i)
{
    fnv f = fnv_init();
    layout_arch arch;
    layout_error err;
    seed_kernel *k = malloc(sizeof *k);
    layout_kernel_plan *kp = malloc(sizeof *kp);
    layout_status st = seed_case(i, &arch, k, &err);
    fnv_status(&f, st, &err);
    if (!st) {
        layout_kernel_spec spec = seed_kernel_spec(k);
        st = layout_kernel_plan_make(kp, &arch, &spec, i % 2 ? LAYOUT_PLAN_SCALAR : LAYOUT_PLAN_AUTO, &err);
        fnv_status(&f, st, &err);
        if (!st) {
            layout_kernel_result res;
            st = layout_kernel_plan_check(kp, &res, &err);
            fnv_status(&f, st, &err);
            if (!st) feed_side(&f, &res.write), feed_side(&f, &res.read), fnv_i64(&f, res.sq_lds_bank_conflict);
            layout_instr in;
            for (int s = 0; s < kp->read.access.n_steps; s++) {
                st = layout_side_plan_instr(&kp->read, 0, s, &in, &err);
                fnv_status(&f, st, &err);
                if (!st) fnv_bytes(&f, in.addr_bytes, sizeof(uint32_t) * (size_t)in.n_lanes);
            }
        }
    }
    free(k), free(kp);
    return f.h;
}

/* The checker's report as text and JSON. */
static uint64_t job_reports(int i)
{
    fnv f = fnv_init();
    layout_arch arch;
    layout_error err;
    seed_kernel *k = malloc(sizeof *k);
    layout_check_report *rep = malloc(sizeof *rep);
    layout_status st = seed_case(i, &arch, k, &err);
    fnv_status(&f, st, &err);
    if (!st) {
        layout_kernel_spec spec = seed_kernel_spec(k);
        size_t need = 0;
        st = layout_kernel_report(&arch, &spec, NULL, 0, &need, rep, &err);
        fnv_status(&f, st, &err);
        layout_instr *scratch = malloc((need ? need : 1) * sizeof *scratch);
        st = layout_kernel_report(&arch, &spec, scratch, need, &need, rep, &err);
        fnv_status(&f, st, &err);
        if (!st) {
            size_t len = 0;
            layout_check_report_text(rep, NULL, 0, &len, &err);
            char *text = malloc(len + 1);
            fnv_status(&f, layout_check_report_text(rep, text, len + 1, NULL, &err), &err);
            fnv_str(&f, text);
            free(text);
            layout_check_report_json(rep, NULL, 0, &len, &err);
            text = malloc(len + 1);
            fnv_status(&f, layout_check_report_json(rep, text, len + 1, NULL, &err), &err);
            fnv_str(&f, text);
            free(text);
        }
        free(scratch);
    }
    free(k), free(rep);
    return f.h;
}

/* Arch presets: load, text round trip, the checker (scalar and AVX2). */
static uint64_t job_arch(int i)
{
    fnv f = fnv_init();
    layout_arch arch, back;
    layout_error err;
    const char *name = layout_arch_preset_name((size_t)i % layout_arch_preset_count());
    layout_status st = layout_arch_preset(name, &arch, &err);
    fnv_status(&f, st, &err);
    if (st) return f.h;
    char text[LAYOUT_TEXT_CAP];
    st = layout_arch_to_text(&arch, text, sizeof text, &err);
    fnv_status(&f, st, &err);
    if (!st) {
        fnv_str(&f, text);
        size_t where = 0;
        fnv_status(&f, layout_arch_from_text(text, &back, &where, &err), &err);
    }
    fnv_status(&f, layout_arch_preset("no-such-gpu", &back, &err), &err);
    uint64_t rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)i;
    for (int impl = LAYOUT_IMPL_SCALAR; impl <= LAYOUT_IMPL_AVX2; impl++) {
        if (!layout_check_impl_available((layout_check_impl)impl)) continue;
        layout_checker ck;
        if (layout_checker_init(&ck, &arch, (layout_check_impl)impl, &err)) continue;
        uint64_t r = rng;
        for (int n = 0; n < 64; n++) {
            static const int widths[] = {1, 2, 4, 8, 12, 16};
            layout_instr in;
            layout_instr_init(&in, arch.wave_size, widths[n % 6], (layout_direction)(n & 1), &err);
            for (int l = 0; l < LAYOUT_MAX_LANES; l++) in.addr_bytes[l] = (uint32_t)(xorshift64s_next(&r) % 8192);
            layout_cost c;
            st = layout_checker_cost(&ck, &in, &c, &err);
            fnv_status(&f, st, &err);
            /* the digest does not depend on the implementation: costs are equal */
            if (!st) fnv_i64(&f, c.extra_cycles), fnv_i64(&f, c.total_cycles), fnv_i64(&f, c.worst_nway);
        }
    }
    return f.h;
}

typedef struct job {
    const char *name;
    uint64_t (*fn)(int item);
    int items; /* <= MAX_ITEMS */
} job;

/* One row per API family.  Later modules add a row here (see the file comment). */
static const job k_jobs[] = {
    {"desc text", job_desc_text, 24},  {"offsets", job_offsets, 24},        {"plans", job_plans, 16},
    {"dist text", job_dist_text, 14},  {"triple check", job_triple, 14},    {"kernel plans", job_kernel_plans, 14},
    {"reports", job_reports, 14},      {"arch presets", job_arch, 16},
};
enum { N_JOBS = sizeof k_jobs / sizeof k_jobs[0] };

static uint64_t g_want[N_JOBS][MAX_ITEMS];

typedef struct worker {
    int id;
    long calls, mismatches;
    char first[160];
} worker;

static void *worker_main(void *arg)
{
    worker *w = (worker *)arg;
    for (int round = 0; round < ROUNDS; round++)
        for (int jj = 0; jj < N_JOBS; jj++) {
            int j = (jj + w->id + round) % N_JOBS;
            for (int ii = 0; ii < k_jobs[j].items; ii++) {
                int i = (ii + w->id * 3) % k_jobs[j].items;
                uint64_t got = k_jobs[j].fn(i);
                w->calls++;
                if (got != g_want[j][i] && w->mismatches++ == 0)
                    snprintf(w->first, sizeof w->first, "thread %d: job '%s' item %d differs", w->id, k_jobs[j].name,
                             i);
            }
        }
    return NULL;
}

static void test_eight_threads_agree_with_one(void)
{
    for (int j = 0; j < N_JOBS; j++) {
        CHECK(k_jobs[j].items <= MAX_ITEMS);
        for (int i = 0; i < k_jobs[j].items; i++) g_want[j][i] = k_jobs[j].fn(i);
        /* the digests are not constant: a job that returned the same value for
         * every item would compare nothing */
        CHECK_MSG(k_jobs[j].items < 2 || g_want[j][0] != g_want[j][1], "job '%s' digests do not vary", k_jobs[j].name);
        /* and they are deterministic on one thread */
        CHECK_MSG(k_jobs[j].fn(1) == g_want[j][1], "job '%s' is not deterministic", k_jobs[j].name);
    }
    pthread_t th[N_THREADS];
    worker ws[N_THREADS];
    memset(ws, 0, sizeof ws);
    for (int t = 0; t < N_THREADS; t++) {
        ws[t].id = t;
        CHECK(pthread_create(&th[t], NULL, worker_main, &ws[t]) == 0);
    }
    long calls = 0;
    for (int t = 0; t < N_THREADS; t++) {
        CHECK(pthread_join(th[t], NULL) == 0);
        CHECK_MSG(ws[t].mismatches == 0, "%s (%ld mismatches)", ws[t].first, ws[t].mismatches);
        calls += ws[t].calls;
    }
    long want_calls = 0;
    for (int j = 0; j < N_JOBS; j++) want_calls += (long)k_jobs[j].items * ROUNDS * N_THREADS;
    CHECK_EQ_I64(calls, want_calls);
}

int main(void)
{
    RUN(test_eight_threads_agree_with_one);
    return harness_finish("test_threads");
}
