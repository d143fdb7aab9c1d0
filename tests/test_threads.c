/* Thread safety, exercised: the public API driven from 8 threads at once.
 * Every header promises reentrancy and no global
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
 * To cover a new module, add one row to k_jobs (the search, F2 layouts,
 * families, dialects, ck_tile C++ and the stride lint have theirs; the
 * search also runs with 3 threads of its own inside the 8, and its digests
 * must equal the single-threaded search's).  Nothing else changes. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"
#include "support/ref_eval.h"
#include "support/rand_desc.h"
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

/* ---- jobs of the later modules (search, F2, families,
 * dialects, ck_tile C++, lint) ----------------------------------------------- */

/* A random member of a swizzle family on a power-of-two tile (item -> seed),
 * the kinds each dialect must recognise plus padding and ck_tile's XOR. */
static layout_status random_family_desc(int i, layout_descriptor *d, layout_family_params *pout, layout_error *err)
{
    rd_rng r = {0xFA511ull * (uint64_t)(i + 1) | 1};
    layout_family_params p;
    int64_t tile[2];
    memset(&p, 0, sizeof p);
    tile[0] = (int64_t)1 << rd_range(&r, 2, 5);
    tile[1] = (int64_t)1 << rd_range(&r, 2, 6);
    p.contiguous_dim = (int)rd_range(&r, 0, 1);
    switch (i % 5) {
    case 0:
        p.kind = LAYOUT_FAMILY_CUTE_SWIZZLE;
        p.p[0] = rd_range(&r, 1, 2);
        p.p[1] = rd_range(&r, 0, 2);
        p.p[2] = p.p[0] + rd_range(&r, 0, 1);
        break;
    case 1:
        p.kind = LAYOUT_FAMILY_TRITON_SWIZZLED;
        p.p[0] = (int64_t)1 << rd_range(&r, 0, 2);
        p.p[1] = (int64_t)1 << rd_range(&r, 0, 1);
        p.p[2] = (int64_t)1 << rd_range(&r, 0, 2);
        break;
    case 2:
        p.kind = LAYOUT_FAMILY_IREE_XOR_SHUFFLE;
        p.contiguous_dim = 1;
        p.p[0] = tile[1];
        p.p[1] = (int64_t)1 << rd_range(&r, 0, 2);
        p.p[2] = tile[1];
        p.p[3] = (int64_t)1 << rd_range(&r, 0, 1);
        break;
    case 3:
        p.kind = LAYOUT_FAMILY_CK_XOR;
        p.p[0] = (int64_t)1 << rd_range(&r, 0, 2);
        p.p[1] = (int64_t)1 << rd_range(&r, 0, 1);
        break;
    default:
        p.kind = LAYOUT_FAMILY_PAD;
        p.p[0] = rd_range(&r, 0, 4);
        break;
    }
    if (pout) *pout = p;
    return layout_family_build(&p, tile, d, err);
}

/* A descriptor for item i: seed kernel write layouts, family members and
 * random compositions in turn. */
static layout_status item_desc(int i, layout_descriptor *d, layout_error *err)
{
    if (i % 3 == 0) {
        seed_kernel *k = malloc(sizeof *k);
        layout_status st = seed_kernel_build(k, (seed_kernel_id)((i / 3) % SEED_KERNEL_COUNT), 32, err);
        if (!st) *d = k->write_desc;
        free(k);
        return st;
    }
    if (i % 3 == 1) return random_family_desc(i, d, NULL, err);
    rd_rng r = {0xD1A1Eull * (uint64_t)(i + 1) | 1};
    for (int tries = 0; tries < 64; tries++)
        if (rd_random_desc(&r, 2, 1024, d)) return LAYOUT_OK;
    return random_family_desc(i, d, NULL, err);
}

static void feed_cost(fnv *f, const layout_cost *c)
{
    fnv_i64(f, c->extra_cycles), fnv_i64(f, c->total_cycles), fnv_i64(f, c->worst_nway);
}

/* The search on a small spec decoded from text; `threads` workers. */
static const char *const k_suggest_families[] = {"pad,ck_xor", "cute_swizzle,triton_swizzled", "f2",
                                                 "iree_xor_shuffle,pad_every", "xor_pad", "all"};

static uint64_t suggest_digest(int i, int threads)
{
    fnv f = fnv_init();
    static const char *const archs[] = {"gfx942", "gfx950", "gfx90a"};
    static const char small[] = "dist(R=[], H=([1,16],[4,4]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])";
    static const char w01[] = "dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])";
    static const char r01[] = "dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])";
    char *text = malloc(2048);
    layout_suggest_text_spec *ts = malloc(sizeof *ts);
    layout_suggest_result *res = malloc(sizeof *res);
    layout_error err;
    size_t where = 0;
    int big = i % 4 == 3; /* seed kernel 01's 64 x 32 pair, cut short */
    snprintf(text, 2048, "arch=%s; elem=%d; shape=%s; budget=%d; top=4; threads=%d; max=%d; families=%s; "
                         "write=%s; read=%s; view=1,0",
             archs[i % 3], big ? 2 : 2 << (i % 2), big ? "64,32" : "16,16", 64 * (i % 3), threads, big ? 12 : 40,
             k_suggest_families[i % 6], big ? w01 : small, big ? r01 : small);
    layout_status st = layout_suggest_spec_from_text(text, ts, &where, &err);
    fnv_status(&f, st, &err);
    if (!st) {
        st = layout_suggest(&ts->spec, res, &err);
        fnv_status(&f, st, &err);
    }
    if (!st) {
        fnv_i64(&f, res->n_top), fnv_i64(&f, res->n_pareto), fnv_i64(&f, res->pareto_total);
        fnv_i64(&f, res->tried), fnv_i64(&f, res->scored), fnv_i64(&f, res->all_exhausted);
        for (int c = 0; c < res->n_top + res->n_pareto; c++) {
            const layout_suggest_candidate *x = c < res->n_top ? &res->top[c] : &res->pareto[c - res->n_top];
            layout_suggest_params_print(&x->params, text, 2048);
            fnv_str(&f, text);
            fnv_i64(&f, x->index), fnv_i64(&f, x->cost.extra_cycles), fnv_i64(&f, x->cost.instrs);
            fnv_i64(&f, x->cost.lds_bytes), fnv_i64(&f, x->cost.index_ops), fnv_i64(&f, x->cost.vector_damage);
            for (int s = 0; s < x->cost.n_sides; s++) fnv_i64(&f, x->cost.side_extra[s]), feed_side(&f, &x->sides[s]);
            layout_suggest_candidate_print(x, ts->spec.n_sides, text, 2048);
            fnv_str(&f, text);
            int64_t c0[2] = {x->cost.n_sides % 2, 3};
            fnv_i64(&f, layout_desc_offset_unchecked(&x->desc, c0));
        }
        for (int k = 0; k < LAYOUT_FAMILY_COUNT; k++) {
            const layout_suggest_family_stats *s = &res->families[k];
            fnv_i64(&f, s->searched), fnv_i64(&f, s->tried), fnv_i64(&f, s->failed);
            fnv_i64(&f, s->exhausted), fnv_i64(&f, s->best_extra), fnv_i64(&f, s->best_damage);
        }
    }
    free(text), free(ts), free(res);
    return f.h;
}

static uint64_t job_suggest(int i) { return suggest_digest(i, 1); }
/* layout_suggest() starting 3 threads of its own, from 8 threads at once. */
static uint64_t job_suggest_threads(int i) { return suggest_digest(i, 3); }

/* F2: descriptor -> linear bases, back to a descriptor, the tile walk, and
 * the closed-form cost of lane accesses (layout_linear_access_cost) next
 * to the checker's cost of the same instruction. */
static uint64_t job_linear(int i)
{
    fnv f = fnv_init();
    layout_descriptor d, back;
    layout_linear *ll = malloc(sizeof *ll);
    int64_t *offs = malloc(4096 * sizeof *offs);
    char *text = malloc(8192);
    layout_error err;
    layout_status st = item_desc(i, &d, &err);
    fnv_status(&f, st, &err);
    if (!st) st = layout_desc_to_linear(&d, ll, &err), fnv_status(&f, st, &err);
    if (!st) {
        layout_linear_print(ll, text, 8192);
        fnv_str(&f, text);
        fnv_i64(&f, layout_linear_rank(ll)), fnv_i64(&f, layout_linear_is_bijective(ll));
        for (int dim = 0; dim < ll->n_in; dim++)
            for (int b = 0; b < ll->in_bits[dim]; b++) {
                int64_t v[LAYOUT_LINEAR_MAX_DIMS];
                fnv_status(&f, layout_linear_get_basis(ll, dim, b, v, &err), &err);
                fnv_i64(&f, v[0]);
            }
        st = layout_linear_to_desc(ll, &back, &err);
        fnv_status(&f, st, &err);
        st = layout_linear_tile_offsets(ll, offs, 4096, &err);
        fnv_status(&f, st, &err);
        for (int64_t k = 0; !st && k < ((int64_t)1 << ll->total_in_bits) && k < 4096; k++) fnv_i64(&f, offs[k]);
        layout_arch arch;
        layout_status sa = layout_arch_preset(i % 2 ? "gfx950" : "gfx942", &arch, &err);
        fnv_status(&f, sa, &err);
        for (int dim = 0; !sa && dim < ll->n_in; dim++) {
            if (ll->in_bits[dim] != 6) continue;
            for (int64_t k = 0; k < 4; k++) {
                int64_t in[LAYOUT_LINEAR_MAX_DIMS] = {0};
                in[(dim + 1) % ll->n_in] = k;
                layout_linear_access acc;
                st = layout_linear_lane_access(ll, ll->in_names[dim], in, 2, LAYOUT_READ, 2, &acc, &err);
                fnv_status(&f, st, &err);
                if (st) continue;
                layout_cost closed, exact;
                layout_instr instr;
                st = layout_linear_access_cost(&arch, &acc, &closed, &err);
                fnv_status(&f, st, &err);
                if (!st) feed_cost(&f, &closed);
                if (!layout_linear_access_instr(&acc, &instr, &err) &&
                    !layout_instr_cost(&arch, &instr, LAYOUT_IMPL_SCALAR, &exact, &err))
                    feed_cost(&f, &exact);
            }
        }
    }
    free(ll), free(offs), free(text);
    return f.h;
}

/* Families: iterate one kind on a small tile, print, check, build,
 * closed-form offsets and LDS bytes of every set. */
static uint64_t job_family(int i)
{
    fnv f = fnv_init();
    layout_family_iter it;
    layout_family_params p;
    layout_descriptor d;
    layout_error err;
    char text[256];
    int64_t tile[2] = {(int64_t)8 << (i % 3), 16 + 8 * (i % 2)};
    layout_family_kind kind = (layout_family_kind)(i % LAYOUT_FAMILY_COUNT);
    layout_status st = layout_family_iter_init(&it, kind, tile, i % 2, 2, 64, &err);
    fnv_status(&f, st, &err);
    for (int n = 0; !st && n < 24 && layout_family_iter_next(&it, &p); n++) {
        layout_family_params_print(&p, text, sizeof text);
        fnv_str(&f, text);
        fnv_status(&f, layout_family_check(&p, tile, &err), &err);
        layout_status sb = layout_family_build(&p, tile, &d, &err);
        fnv_status(&f, sb, &err);
        int64_t bytes = 0;
        fnv_status(&f, layout_family_lds_bytes(&p, tile, 2, &bytes, &err), &err);
        fnv_i64(&f, bytes);
        for (int64_t r = 0; !sb && r < tile[0]; r += 3)
            for (int64_t c = 0; c < tile[1]; c++) {
                int64_t x[2] = {r, c};
                fnv_i64(&f, layout_family_offset_unchecked(&p, tile, r, c));
                fnv_i64(&f, layout_desc_offset_unchecked(&d, x));
            }
    }
    layout_family_kind back;
    fnv_status(&f, layout_family_from_name(layout_family_name(kind), &back, &err), &err);
    fnv_status(&f, layout_family_from_name("no_such_family", &back, &err), &err);
    return f.h;
}

/* Dialects: the descriptor printed in every dialect, each text parsed back
 * (with its tile shape) and printed again; offsets of what came back. */
static uint64_t job_dialects(int i)
{
    static const layout_dialect ds[] = {LAYOUT_DIALECT_CK, LAYOUT_DIALECT_TRITON, LAYOUT_DIALECT_CUTE,
                                        LAYOUT_DIALECT_IREE, LAYOUT_DIALECT_LINEAR};
    fnv f = fnv_init();
    layout_descriptor d, back;
    layout_error err;
    char *text = malloc(LAYOUT_TEXT_CAP), *again = malloc(LAYOUT_TEXT_CAP);
    layout_status st = item_desc(i, &d, &err);
    fnv_status(&f, st, &err);
    int n = st ? 0 : layout_desc_ndims(&d);
    int64_t shape[LAYOUT_MAX_DIMS];
    for (int j = 0; j < n; j++) shape[j] = layout_desc_length(&d, j);
    for (size_t k = 0; !st && k < sizeof ds / sizeof ds[0]; k++) {
        layout_status sp = layout_desc_to_dialect(ds[k], &d, text, LAYOUT_TEXT_CAP, &err);
        fnv_status(&f, sp, &err);
        if (sp) continue;
        fnv_str(&f, text);
        fnv_i64(&f, layout_dialect_detect(text));
        size_t where = 0;
        sp = layout_desc_from_dialect(ds[k], text, n, shape, &back, &where, &err);
        fnv_status(&f, sp, &err);
        if (sp) continue;
        sp = layout_desc_to_dialect(ds[k], &back, again, LAYOUT_TEXT_CAP, &err);
        fnv_status(&f, sp, &err);
        if (!sp) fnv_str(&f, again);
        int64_t c[LAYOUT_MAX_DIMS] = {0};
        for (int64_t q = 0; q < 64; q++) {
            for (int j = 0; j < n; j++) c[j] = (q * (j + 5)) % shape[j];
            fnv_i64(&f, layout_desc_offset_unchecked(&back, c));
        }
    }
    /* the dialect parsers on their own: Triton, CuTe, IREE texts and a bad one each */
    static const char *const texts[] = {
        "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>",
        "Sw<2,1,3> o _0 o (_8,_16):(_16,_1)", "(_8,_4):(_1,_8)",
        "#iree_codegen.xor_shuffle<128, 4, 128, 1>", "#ttg.swizzled_shared<{vec = 0}>", "Sw<1,2> o", "#iree_codegen.xor_shuffle<96, 4, 96, 1>"};
    const char *t = texts[i % 7];
    int64_t sh[2] = {16, 128};
    size_t where = 0;
    st = layout_desc_from_dialect(layout_dialect_detect(t), t, 2, sh, &back, &where, &err);
    fnv_status(&f, st, &err);
    fnv_i64(&f, st ? (int64_t)where : layout_desc_element_space_size(&back));
    free(text), free(again);
    return f.h;
}

/* ck_tile C++ of seed, family and random descriptors (length query and print). */
static uint64_t job_ck_cpp(int i)
{
    fnv f = fnv_init();
    layout_descriptor d;
    layout_error err;
    layout_status st = item_desc(i, &d, &err);
    fnv_status(&f, st, &err);
    if (st) return f.h;
    size_t need = 0;
    st = layout_desc_to_ck_cpp(&d, NULL, 0, &need, &err);
    fnv_status(&f, st, &err);
    fnv_i64(&f, (int64_t)need);
    if (st) return f.h;
    char *buf = malloc(need + 1);
    fnv_status(&f, layout_desc_to_ck_cpp(&d, buf, need + 1, NULL, &err), &err);
    fnv_str(&f, buf);
    free(buf);
    return f.h;
}

/* The stride lint (lint.h) and its exact counterpart (suggest.h) on presets. */
static uint64_t job_lint(int i)
{
    fnv f = fnv_init();
    layout_arch arch;
    layout_error err;
    const char *name = layout_arch_preset_name((size_t)i % layout_arch_preset_count());
    layout_status st = layout_arch_preset(name, &arch, &err);
    fnv_status(&f, st, &err);
    if (st) return f.h;
    static const int elems[] = {1, 2, 4, 8, 16};
    for (int64_t s = 0; s < 40; s += 1 + (i % 3)) {
        int e = elems[(s + i) % 5];
        layout_stride_lint_result r;
        st = layout_stride_lint(&arch, e, s, &r, &err);
        fnv_status(&f, st, &err);
        if (!st) {
            feed_cost(&f, &r.read), feed_cost(&f, &r.write);
            fnv_i64(&f, r.conflict_factor), fnv_i64(&f, r.distinct_banks), fnv_i64(&f, r.closed_form_applies);
            fnv_i64(&f, r.closed_form_nway), fnv_i64(&f, r.fix_stride_elems), fnv_i64(&f, r.fix_conflict_factor);
            fnv_i64(&f, r.fix_extra_cycles), fnv_i64(&f, r.soa_conflict_factor), fnv_i64(&f, r.soa_extra_cycles);
        }
        layout_suggest_stride_result sr;
        st = layout_suggest_stride(&arch, s, e, &sr, &err);
        fnv_status(&f, st, &err);
        if (!st) {
            fnv_i64(&f, sr.gcd_factor), fnv_i64(&f, sr.factor), fnv_i64(&f, sr.extra_cycles), fnv_i64(&f, sr.pad);
            fnv_i64(&f, sr.factor_padded), fnv_i64(&f, sr.factor_soa), fnv_i64(&f, sr.extra_soa);
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
    /* the later modules (keep "suggest" and "suggest threads" adjacent: see below) */
    {"suggest", job_suggest, 8},       {"suggest threads", job_suggest_threads, 8},
    {"linear", job_linear, 18},        {"families", job_family, 16},        {"dialects", job_dialects, 10},
    {"ck_cpp", job_ck_cpp, 15},        {"lint", job_lint, 12},
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
    /* the search's result does not depend on its own thread count (suggest.h) */
    for (int j = 0; j + 1 < N_JOBS; j++)
        if (k_jobs[j].fn == job_suggest && k_jobs[j + 1].fn == job_suggest_threads)
            for (int i = 0; i < k_jobs[j].items; i++)
                CHECK_MSG(g_want[j][i] == g_want[j + 1][i], "suggest item %d: 1 and 3 threads differ", i);
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
