/* stable_dump: print a digest of liblayout's results over a fixed
 * pseudo-random corpus, so that builds can be compared (`make stable`
 * builds this with gcc -O0, gcc -O3, clang -O0 and clang -O3, runs each
 * with the scalar and the AVX2 checker, and requires identical output).
 *
 * Every section hashes (FNV-1a, 64 bit) everything the library returned:
 * statuses, error messages, offsets, validity, hints, printed text, verify
 * reports, checker costs and per-group explanations, access plans and
 * kernel results, compiled plans (listings, tiles, boxes, offsets; run with
 * the AVX2 plan implementation in the avx2 run) and kernel plans (results
 * and materialised instructions), and search results on seed
 * kernels 01 / 08 / 10 (families, parameters, costs, order, per-family
 * counts; top candidates re-checked with this run's checker), every
 * dialect's printed form and read-back of seed / family / random
 * descriptors, F2 bases of the linear ones, and family offsets of a sample
 * of every family's parameter sets.  One line per section: name, item count, hash.  With
 * `-v` every hashed record is printed too, to find what differs.
 *
 * Usage: stable_dump [-v] [scalar|avx2]   (default scalar).  Exit 0, or 2
 * when avx2 is asked for but unavailable (the caller skips that run). */
#include "layout.h"
#include "support/ref_eval.h"
#include "../examples/seed_kernels.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int verbose;

typedef struct digest {
    const char *name;
    uint64_t h;
    long items;
} digest;

static void feed(digest *d, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if (n >= (int)sizeof line) n = (int)sizeof line - 1;
    for (int i = 0; i < n; i++) d->h = (d->h ^ (unsigned char)line[i]) * 1099511628211ull;
    d->h = (d->h ^ '\n') * 1099511628211ull;
    if (verbose) printf("  %s| %s\n", d->name, line);
}

static void finish(digest *d) { printf("%-12s %8ld %016" PRIx64 "\n", d->name, d->items, d->h); }

static void feed_status(digest *d, const char *what, layout_status st, const layout_error *err)
{
    feed(d, "%s %s %s", what, layout_status_name(st), st ? err->message : "");
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

/* ---- descriptors -------------------------------------------------------- */

static void dump_descriptors(digest *d)
{
    uint64_t seed = 0x5eed0001u;
    static unsigned char ws[1 << 16];
    long used[REF_KIND_COUNT] = {0};
    for (int k = 0; k < 1500; k++) {
        ref_desc r;
        layout_descriptor desc;
        layout_error err;
        ref_random(&seed, &r, used);
        layout_status st = ref_build(&r, &desc, &err);
        feed_status(d, "build", st, &err);
        d->items++;
        if (st) continue;
        char text[2048];
        st = layout_desc_to_text(&desc, text, sizeof text, &err);
        feed(d, "text %s %s", layout_status_name(st), st ? err.message : text);
        layout_desc_print(&desc, text, sizeof text);
        feed(d, "print %s", text);
        int n = layout_desc_ndims(&desc);
        int64_t size = layout_desc_size(&desc), hl[LAYOUT_MAX_DIMS], hs[LAYOUT_MAX_DIMS];
        feed(d, "dims %d size %" PRId64 " space %" PRId64, n, size, layout_desc_element_space_size(&desc));
        if (!layout_desc_vector_hints(&desc, hl, hs, &err))
            for (int i = 0; i < n; i++) feed(d, "hint %d %" PRId64 " %" PRId64, i, hl[i], hs[i]);
        int64_t c[LAYOUT_MAX_DIMS] = {0};
        uint64_t h = 1469598103934665603ull;
        for (int64_t i = 0; i < size && i < 4096; i++) {
            int64_t off;
            int valid;
            layout_desc_offset(&desc, c, &off, &err);
            layout_desc_is_valid(&desc, c, &valid, &err);
            h = (h ^ (uint64_t)off) * 1099511628211ull;
            h = (h ^ (uint64_t)valid) * 1099511628211ull;
            for (int j = n - 1; j >= 0; j--) {
                if (++c[j] < layout_desc_length(&desc, j)) break;
                c[j] = 0;
            }
        }
        feed(d, "offsets %016" PRIx64, h);
        size_t need = 0;
        layout_offset_report rep;
        if (!layout_desc_verify_workspace_size(&desc, &need, &err) && need <= sizeof ws &&
            !layout_desc_verify_offsets(&desc, ws, sizeof ws, &rep, &err))
            feed(d, "verify %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %d %d %d %" PRId64, rep.n_coords,
                 rep.n_valid, rep.min_offset, rep.max_offset, rep.injective, rep.in_space, rep.bijective,
                 rep.missing_offset);
        for (int dim = 0; dim < n; dim++) {
            layout_contiguity ct;
            if (!layout_desc_contiguity(&desc, dim, &ct, &err))
                feed(d, "contig %d %" PRId64 " %" PRId64 " %d", dim, ct.vector_length, ct.longest_run,
                     ct.has_break);
        }
    }
}

/* ---- errors: the messages of hostile calls are part of the output --------- */

static void dump_errors(digest *d)
{
    static const int64_t vals[] = {0, -1, 1, 3, INT64_MAX, INT64_MIN, (int64_t)1 << 32, (int64_t)1 << 62};
    enum { NV = sizeof vals / sizeof vals[0] };
    layout_descriptor desc;
    layout_transform t;
    layout_error err;
    for (int i = 0; i < NV; i++)
        for (int j = 0; j < NV; j++) {
            int64_t len[2] = {vals[i], 4}, str[2] = {vals[j], 1};
            feed_status(d, "naive", layout_naive(&desc, 2, len, str, &err), &err);
            feed_status(d, "pad", layout_make_pad(vals[i], vals[j], 1, &t, &err), &err);
            feed_status(d, "slice", layout_make_slice(8, vals[i], vals[j], &t, &err), &err);
            feed_status(d, "offset", layout_make_offset(vals[i], vals[j], &t, &err), &err);
            int64_t two[2] = {vals[i], vals[j]};
            feed_status(d, "merge", layout_make_merge(2, two, &t, &err), &err);
            feed_status(d, "embed", layout_make_embed(2, two, two, &t, &err), &err);
            feed_status(d, "aligned", layout_aligned(&desc, 2, two, vals[i], &err), &err);
            d->items += 7;
        }
    const char *texts[] = {"naive([4, 8], [8, 1])", "packed([4, 8])", "naive([4], [0x])", "", "packed([",
                           "packed([9223372036854775807, 2])", "naive([4, 8], [8, 1]) | xor(4, 8) [1, 0] -> [1, 0]"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        size_t where = 0;
        feed_status(d, "from_text", layout_desc_from_text(texts[i], &desc, &where, &err), &err);
        d->items++;
    }
}

/* ---- checker ------------------------------------------------------------ */

static void dump_checker(digest *d, layout_check_impl impl)
{
    uint64_t seed = 0x5eed0002u;
    static const int widths[] = {1, 2, 4, 8, 12, 16};
    for (size_t p = 0; p < layout_arch_preset_count(); p++) {
        layout_arch arch;
        layout_checker ck;
        layout_error err;
        layout_arch_preset(layout_arch_preset_name(p), &arch, &err);
        if (layout_checker_init(&ck, &arch, impl, &err)) {
            fprintf(stderr, "stable_dump: %s\n", err.message);
            exit(1);
        }
        char text[8192];
        size_t need;
        layout_arch_format(&arch, text, sizeof text, &need, &err);
        feed(d, "arch %s %zu", arch.name, need);
        for (int dir = 0; dir < 2; dir++)
            for (int w = 0; w < 6; w++)
                for (int k = 0; k < 300; k++) {
                    layout_instr in;
                    layout_instr_init(&in, arch.wave_size, widths[w], (layout_direction)dir, &err);
                    uint64_t mode = rng_next(&seed) % 4;
                    uint64_t stride = rng_next(&seed) % 260, base = rng_next(&seed) % 4096;
                    for (int l = 0; l < LAYOUT_MAX_LANES; l++)
                        in.addr_bytes[l] = (uint32_t)(mode == 0   ? base + l * stride
                                                      : mode == 1 ? rng_next(&seed) % 65536
                                                      : mode == 2 ? (uint64_t)(l & ~1) * stride
                                                                  : rng_next(&seed));
                    if (rng_next(&seed) % 3 == 0) in.active_mask &= rng_next(&seed);
                    layout_cost c;
                    layout_cost_detail det;
                    layout_status st = layout_checker_cost(&ck, &in, &c, &err);
                    d->items++;
                    if (st) {
                        feed_status(d, "cost", st, &err);
                        continue;
                    }
                    feed(d, "cost %d %d %d %d %d %d", c.extra_cycles, c.total_cycles, c.n_groups, c.worst_nway,
                         c.worst_group, c.fold_xor);
                    if (layout_instr_explain(&arch, &in, &det, &err)) continue;
                    for (int g = 0; g < det.cost.n_groups; g++)
                        feed(d, "group %d %d %d %016" PRIx64 " %016" PRIx64, det.groups[g].cycles,
                             det.groups[g].nway, det.groups[g].worst_bank, det.groups[g].bank_lanes,
                             det.groups[g].way_lanes);
                }
    }
}

/* ---- seed kernels: access plans and full kernel checks ------------------ */

static void feed_side(digest *d, const char *what, const layout_side_result *s)
{
    feed(d, "%s %d %d %d %d %" PRId64 " %" PRId64 " %" PRId64 " %d %d %d %" PRId64 " %" PRId64, what,
         s->steps_per_wave, s->n_misaligned, s->n_noncontiguous, s->n_warps, s->instrs_per_tile,
         s->extra_cycles_per_tile, s->total_cycles_per_tile, s->worst_warp, s->worst_step, s->worst_extra,
         s->sq_lds_bank_conflict, s->sq_insts_lds);
}

static void dump_kernels(digest *d, layout_check_impl impl)
{
    static seed_kernel k;
    for (size_t p = 0; p < layout_arch_preset_count(); p++) {
        layout_arch arch;
        layout_checker ck;
        layout_error err;
        layout_arch_preset(layout_arch_preset_name(p), &arch, &err);
        if (arch.wave_size != SK_WAVE) continue;
        layout_checker_init(&ck, &arch, impl, &err);
        for (int id = 0; id < SEED_KERNEL_COUNT; id++) {
            layout_status st = seed_kernel_build(&k, (seed_kernel_id)id, arch.n_banks, &err);
            feed_status(d, "kernel", st, &err);
            d->items++;
            if (st) continue;
            for (int side = 0; side < 2; side++) {
                layout_access_plan plan;
                layout_side_result res;
                st = layout_access_plan_make(&plan, side ? &k.read_desc : &k.write_desc,
                                             side ? &k.read_dist : &k.write_dist,
                                             side ? LAYOUT_READ : LAYOUT_WRITE, SK_ELEM_BYTES, NULL, &err);
                feed_status(d, "plan", st, &err);
                if (st) continue;
                char text[8192];
                layout_access_plan_print(&plan, text, sizeof text);
                feed(d, "plan %s", text);
                st = layout_check_side(&ck, &plan, SEED_TILES, &res, &err);
                feed_status(d, "side", st, &err);
                if (!st) feed_side(d, side ? "read" : "write", &res);
                /* the whole instruction stream, and the distribution's coverage */
                static layout_instr stream[4096];
                static uint32_t counts[1 << 16];
                size_t count = 0;
                int64_t lo = -1, hi = -1;
                st = layout_access_stream(&plan, stream, 4096, &count, &err);
                feed_status(d, "stream", st, &err);
                uint64_t h = 1469598103934665603ull;
                for (size_t i = 0; !st && i < count; i++)
                    for (int l = 0; l < stream[i].n_lanes; l++) h = (h ^ stream[i].addr_bytes[l]) * 1099511628211ull;
                feed(d, "stream %zu %016" PRIx64, count, h);
                st = layout_dist_coverage(plan.dist, counts, 1 << 16, &lo, &hi, &err);
                feed_status(d, "coverage", st, &err);
                h = 1469598103934665603ull;
                int64_t tile = 1;
                for (int i = 0; i < plan.dist->n_x; i++) tile *= plan.dist->x_lengths[i];
                for (int64_t i = 0; !st && i < tile; i++)
                    h = (h ^ counts[i]) * 1099511628211ull;
                feed(d, "coverage %" PRId64 " %" PRId64 " %016" PRIx64, lo, hi, h);
            }
        }
    }
}

/* ---- compiled plans (plan.h): listing, tile, box, offsets ---------------- */

/* The listing is taken with the scalar implementation (it names the
 * implementation); the evaluations then run with the implementation of this
 * run (scalar, or AVX2 where the plan's values fit int32): their results
 * must not depend on it. */
static void dump_plans(digest *d, layout_check_impl impl)
{
    uint64_t seed = 0x5eed0003u;
    long used[REF_KIND_COUNT] = {0};
    static int64_t offs[4096];
    static uint8_t valid[4096];
    static layout_plan plan;
    int n_avx2 = 0;
    for (int k = 0; k < 600; k++) {
        ref_desc r;
        layout_descriptor desc;
        layout_error err;
        ref_random(&seed, &r, used);
        if (ref_build(&r, &desc, &err)) continue;
        layout_status st = layout_plan_build(&plan, &desc, (layout_plan_impl)7, &err); /* an error message */
        feed_status(d, "bad impl", st, &err);
        st = layout_plan_build(&plan, &desc, LAYOUT_PLAN_SCALAR, &err);
        feed_status(d, "plan", st, &err);
        d->items++;
        if (st) continue;
        char text[8192];
        layout_plan_print(&plan, text, sizeof text);
        feed(d, "listing %s", text);
        /* stays scalar where the values do not fit int32 */
        if (impl == LAYOUT_IMPL_AVX2 && layout_plan_set_impl(&plan, LAYOUT_PLAN_AVX2, NULL) == LAYOUT_OK) n_avx2++;
        int n = layout_desc_ndims(&desc);
        int64_t size = layout_desc_size(&desc);
        if (size <= 4096) {
            st = layout_plan_tile(&plan, offs, valid, 4096, &err);
            feed_status(d, "tile", st, &err);
            uint64_t h = 1469598103934665603ull;
            for (int64_t i = 0; !st && i < size; i++) {
                h = (h ^ (uint64_t)offs[i]) * 1099511628211ull;
                h = (h ^ valid[i]) * 1099511628211ull;
            }
            feed(d, "tile %016" PRIx64, h);
        }
        /* A box from the middle of the space, and a few scattered coordinates. */
        int64_t origin[LAYOUT_MAX_DIMS], extent[LAYOUT_MAX_DIMS], coords[8 * LAYOUT_MAX_DIMS];
        int64_t box = 1;
        for (int i = 0; i < n; i++) {
            int64_t len = layout_desc_length(&desc, i);
            origin[i] = len / 3;
            extent[i] = len - origin[i] < 5 ? len - origin[i] : 5;
            box *= extent[i];
        }
        st = layout_plan_box(&plan, origin, extent, offs, valid, 4096, &err);
        feed_status(d, "box", st, &err);
        for (int64_t i = 0; !st && i < box; i++) feed(d, "b %" PRId64 " %d", offs[i], valid[i]);
        for (int c = 0; c < 8; c++)
            for (int i = 0; i < n; i++) coords[c * n + i] = (int64_t)(rng_next(&seed) % (uint64_t)layout_desc_length(&desc, i));
        st = layout_plan_offsets(&plan, 8, coords, offs, valid, &err);
        feed_status(d, "offsets", st, &err);
        for (int c = 0; !st && c < 8; c++) feed(d, "o %" PRId64 " %d", offs[c], valid[c]);
        if (n > 0) {
            coords[0] = -1;
            feed_status(d, "range", layout_plan_offsets(&plan, 1, coords, offs, valid, &err), &err);
        }
    }
    if (verbose) fprintf(stderr, "stable_dump: %d plans evaluated with AVX2\n", n_avx2);
}

/* ---- kernel plans (kernel_plan.h): every seed kernel, every wave-64 preset -- */

static void dump_kernel_plans(digest *d, layout_check_impl impl)
{
    static seed_kernel k;
    static layout_kernel_plan kp;
    layout_plan_impl pimpl = impl == LAYOUT_IMPL_AVX2 ? LAYOUT_PLAN_AUTO : LAYOUT_PLAN_SCALAR;
    for (size_t p = 0; p < layout_arch_preset_count(); p++) {
        layout_arch arch;
        layout_error err;
        layout_arch_preset(layout_arch_preset_name(p), &arch, &err);
        if (arch.wave_size != SK_WAVE) continue;
        for (int id = 0; id < SEED_KERNEL_COUNT; id++) {
            if (seed_kernel_build(&k, (seed_kernel_id)id, arch.n_banks, &err)) continue;
            layout_kernel_spec spec = seed_kernel_spec(&k);
            layout_status st = layout_kernel_plan_make(&kp, &arch, &spec, pimpl, &err);
            feed_status(d, "make", st, &err);
            d->items++;
            if (st) continue;
            feed(d, "sides %d %d %d %d %s | %s", kp.write.composed, kp.write.warp_var, kp.read.composed,
                 kp.read.warp_var, kp.write.ops, kp.read.ops);
            layout_kernel_result res;
            st = layout_kernel_plan_check(&kp, &res, &err);
            feed_status(d, "check", st, &err);
            if (st) continue;
            feed_side(d, "write", &res.write);
            feed_side(d, "read", &res.read);
            feed(d, "total %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64, res.tiles,
                 res.extra_cycles_per_tile, res.instrs_per_tile, res.sq_lds_bank_conflict, res.sq_insts_lds);
            for (int side = 0; side < 2; side++) {
                const layout_side_plan *sp = side ? &kp.read : &kp.write;
                layout_instr in;
                for (int w = 0; w < sp->access.dist->n_warps; w += 3)
                    for (int step = 0; step < sp->access.n_steps; step++) {
                        st = layout_side_plan_instr(sp, w, step, &in, &err);
                        feed_status(d, "instr", st, &err);
                        uint64_t h = 1469598103934665603ull;
                        for (int l = 0; !st && l < in.n_lanes; l++) h = (h ^ in.addr_bytes[l]) * 1099511628211ull;
                        if (!st) feed(d, "instr %d %d %016" PRIx64 " %016" PRIx64, in.width_bytes, in.n_lanes, h, in.active_mask);
                    }
            }
        }
    }
}

/* ---- search results, dialects, F2 bases, family offsets -------------------- */

static void feed_desc_offsets(digest *d, const char *what, const layout_descriptor *desc)
{
    int n = layout_desc_ndims(desc);
    int64_t c[LAYOUT_MAX_DIMS] = {0}, size = layout_desc_size(desc);
    uint64_t h = 1469598103934665603ull;
    for (int64_t i = 0; i < size && i < 4096; i++) {
        int valid = 0;
        h = (h ^ (uint64_t)layout_desc_offset_unchecked(desc, c)) * 1099511628211ull;
        layout_desc_is_valid(desc, c, &valid, NULL);
        h = (h ^ (uint64_t)valid) * 1099511628211ull;
        for (int j = n - 1; j >= 0; j--) {
            if (++c[j] < layout_desc_length(desc, j)) break;
            c[j] = 0;
        }
    }
    feed(d, "%s offsets %d %" PRId64 " %016" PRIx64, what, n, size, h);
}

static void feed_candidate(digest *d, const char *what, const layout_suggest_candidate *c, int n_sides)
{
    static char text[8192];
    layout_suggest_params_print(&c->params, text, sizeof text);
    const layout_suggest_cost *k = &c->cost;
    feed(d, "%s %s | index %" PRId64 " damage %d extra %" PRId64 " instrs %" PRId64 " lds %" PRId64 " ops %d", what,
         text, c->index, k->vector_damage, k->extra_cycles, k->instrs, k->lds_bytes, k->index_ops);
    for (int s = 0; s < n_sides; s++) {
        feed(d, "side %d %" PRId64 " %d %d %d %d", s, k->side_extra[s], k->side_steps[s], k->side_misaligned[s],
             k->side_noncontiguous[s], k->side_split[s]);
        for (int op = 0; op < LAYOUT_DS_OP_COUNT; op++)
            if (k->side_op_count[s][op]) feed(d, "op %d %d", op, k->side_op_count[s][op]);
        feed_side(d, "check", &c->sides[s]);
    }
    layout_suggest_candidate_print(c, n_sides, text, sizeof text);
    feed(d, "line %s", text);
    layout_suggest_c_calls(c, text, sizeof text);
    feed(d, "c %s", text);
    feed_desc_offsets(d, "desc", &c->desc);
}

/* layout_suggest on seed kernels 01, 08 and 10 (each a family subset sized
 * to run in well under a second at -O0). */
static void dump_suggest(digest *d, layout_check_impl impl)
{
    static const struct {
        seed_kernel_id id;
        const char *arch;
        unsigned families;
        int64_t budget, max;
        int top, threads;
    } cases[] = {
        {SEED_K01, "gfx942", (1u << LAYOUT_FAMILY_PAD) | (1u << LAYOUT_FAMILY_CK_XOR) | (1u << LAYOUT_FAMILY_CUTE_SWIZZLE),
         256, 0, 8, 1},
        {SEED_K08, "gfx950",
         (1u << LAYOUT_FAMILY_CK_XOR) | (1u << LAYOUT_FAMILY_TRITON_SWIZZLED) | (1u << LAYOUT_FAMILY_F2), 0, 1500, 6, 2},
        {SEED_K10, "gfx90a",
         (1u << LAYOUT_FAMILY_PAD_EVERY) | (1u << LAYOUT_FAMILY_IREE_XOR_SHUFFLE) | (1u << LAYOUT_FAMILY_XOR_PAD), 128,
         1500, 5, 1},
    };
    static seed_kernel k;
    static layout_suggest_result res;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        layout_arch arch;
        layout_error err;
        layout_arch_preset(cases[c].arch, &arch, &err);
        layout_status st = seed_kernel_build(&k, cases[c].id, arch.n_banks, &err);
        feed_status(d, "kernel", st, &err);
        d->items++;
        if (st) continue;
        layout_suggest_spec s;
        memset(&s, 0, sizeof s);
        s.arch = &arch;
        s.elem_bytes = SK_ELEM_BYTES;
        s.n_dims = 2;
        s.tile[0] = SK_KM;
        s.tile[1] = SK_KK;
        s.n_sides = 2;
        s.sides[0].dist = &k.write_dist;
        s.sides[0].direction = LAYOUT_WRITE;
        s.sides[1].dist = &k.read_dist;
        s.sides[1].direction = LAYOUT_READ;
        if (k.read_dist.x_lengths[0] == SK_KK) {
            s.sides[1].has_view = 1;
            s.sides[1].view[0] = 1;
            s.sides[1].view[1] = 0;
        }
        s.families = cases[c].families;
        s.budget_bytes = cases[c].budget;
        s.max_candidates = cases[c].max;
        s.top_k = cases[c].top;
        s.threads = cases[c].threads;
        st = layout_suggest(&s, &res, &err);
        feed_status(d, "suggest", st, &err);
        if (st) continue;
        feed(d, "counts %d %d %" PRId64 " %" PRId64 " %" PRId64 " %d", res.n_top, res.n_pareto, res.pareto_total,
             res.tried, res.scored, res.all_exhausted);
        for (int f = 0; f < LAYOUT_FAMILY_COUNT; f++) {
            const layout_suggest_family_stats *fs = &res.families[f];
            feed(d, "family %s %d %" PRId64 " %" PRId64 " %d %" PRId64 " %d", layout_family_name((layout_family_kind)f),
                 fs->searched, fs->tried, fs->failed, fs->exhausted, fs->best_extra, fs->best_damage);
        }
        for (int i = 0; i < res.n_top; i++) feed_candidate(d, "top", &res.top[i], s.n_sides);
        /* the top candidates re-checked with this run's checker (the search
         * itself picks its implementation) */
        layout_checker ck;
        st = layout_checker_init(&ck, &arch, impl, &err);
        feed_status(d, "checker", st, &err);
        for (int i = 0; !st && i < res.n_top; i++)
            for (int side = 0; side < s.n_sides; side++) {
                static layout_descriptor view;
                static layout_access_plan plan;
                layout_side_result sr;
                layout_status sv = layout_suggest_view(&s, side, &res.top[i].desc, &view, &err);
                if (!sv) sv = layout_access_plan_make(&plan, &view, s.sides[side].dist, s.sides[side].direction,
                                                      s.elem_bytes, &s.sides[side].opt, &err);
                if (!sv) sv = layout_check_side(&ck, &plan, 1, &sr, &err);
                feed_status(d, "recheck", sv, &err);
                if (!sv) feed_side(d, "recheck", &sr);
            }
        for (int i = 0; i < res.n_pareto; i++) feed_candidate(d, "pareto", &res.pareto[i], s.n_sides);
    }
    /* the one-dimensional mode (the HLSL stride lint) on every preset */
    for (size_t p = 0; p < layout_arch_preset_count(); p++) {
        layout_arch arch;
        layout_error err;
        layout_arch_preset(layout_arch_preset_name(p), &arch, &err);
        for (int64_t stride = 1; stride <= 66; stride += 5) {
            layout_suggest_stride_result r;
            layout_status st = layout_suggest_stride(&arch, stride, 4, &r, &err);
            feed_status(d, "stride", st, &err);
            d->items++;
            if (!st)
                feed(d, "stride %" PRId64 " %d %d %d %" PRId64 " %d %d %d %d", r.stride, r.gcd_factor, r.factor,
                     r.extra_cycles, r.pad, r.factor_padded, r.extra_padded, r.factor_soa, r.extra_soa);
        }
    }
}

/* A family member for item i (power-of-two tiles, the kinds the dialects
 * recognise, padding); fills *out, returns its status. */
static layout_status family_member(uint64_t *seed, layout_descriptor *out, layout_error *err)
{
    layout_family_params p;
    int64_t tile[2];
    memset(&p, 0, sizeof p);
    tile[0] = (int64_t)1 << (2 + rng_next(seed) % 4);
    tile[1] = (int64_t)1 << (2 + rng_next(seed) % 5);
    p.contiguous_dim = (int)(rng_next(seed) % 2);
    switch (rng_next(seed) % 5) {
    case 0:
        p.kind = LAYOUT_FAMILY_CUTE_SWIZZLE;
        p.p[0] = 1 + (int64_t)(rng_next(seed) % 2);
        p.p[1] = (int64_t)(rng_next(seed) % 3);
        p.p[2] = p.p[0] + (int64_t)(rng_next(seed) % 2);
        break;
    case 1:
        p.kind = LAYOUT_FAMILY_TRITON_SWIZZLED;
        p.p[0] = (int64_t)1 << (rng_next(seed) % 3);
        p.p[1] = (int64_t)1 << (rng_next(seed) % 2);
        p.p[2] = (int64_t)1 << (rng_next(seed) % 3);
        break;
    case 2:
        p.kind = LAYOUT_FAMILY_IREE_XOR_SHUFFLE;
        p.contiguous_dim = 1;
        p.p[0] = tile[1];
        p.p[1] = (int64_t)1 << (rng_next(seed) % 3);
        p.p[2] = tile[1];
        p.p[3] = (int64_t)1 << (rng_next(seed) % 2);
        break;
    case 3:
        p.kind = LAYOUT_FAMILY_CK_XOR;
        p.p[0] = (int64_t)1 << (rng_next(seed) % 3);
        p.p[1] = (int64_t)1 << (rng_next(seed) % 2);
        break;
    default:
        p.kind = LAYOUT_FAMILY_PAD;
        p.p[0] = (int64_t)(rng_next(seed) % 5);
        break;
    }
    return layout_family_build(&p, tile, out, err);
}

/* Every dialect's printed form of seed, family and random descriptors, the
 * text read back and printed again, and the offsets of what came back. */
static void dump_dialects(digest *d)
{
    static const layout_dialect dialects[] = {LAYOUT_DIALECT_CK,   LAYOUT_DIALECT_TRITON, LAYOUT_DIALECT_CUTE,
                                              LAYOUT_DIALECT_IREE, LAYOUT_DIALECT_LINEAR, LAYOUT_DIALECT_CK_CPP};
    static seed_kernel k;
    static char text[LAYOUT_TEXT_CAP], again[LAYOUT_TEXT_CAP];
    uint64_t seed = 0x5eed0012u;
    long used[REF_KIND_COUNT] = {0};
    for (int item = 0; item < 2 * SEED_KERNEL_COUNT + 200; item++) {
        layout_descriptor desc, back;
        layout_error err;
        layout_status st;
        if (item < 2 * SEED_KERNEL_COUNT) {
            st = seed_kernel_build(&k, (seed_kernel_id)(item / 2), 32, &err);
            if (!st) desc = item % 2 ? k.read_desc : k.write_desc;
        } else if (item % 2) {
            st = family_member(&seed, &desc, &err);
        } else {
            ref_desc r;
            ref_random(&seed, &r, used);
            st = ref_build(&r, &desc, &err);
        }
        feed_status(d, "desc", st, &err);
        d->items++;
        if (st) continue;
        int n = layout_desc_ndims(&desc);
        int64_t shape[LAYOUT_MAX_DIMS];
        for (int j = 0; j < n; j++) shape[j] = layout_desc_length(&desc, j);
        for (size_t i = 0; i < sizeof dialects / sizeof dialects[0]; i++) {
            const char *name = layout_dialect_name(dialects[i]);
            st = layout_desc_to_dialect(dialects[i], &desc, text, sizeof text, &err);
            feed_status(d, name, st, &err);
            if (st) continue;
            feed(d, "%s %s", name, text);
            if (dialects[i] == LAYOUT_DIALECT_CK_CPP) continue;
            size_t where = 0;
            st = layout_desc_from_dialect(dialects[i], text, n, shape, &back, &where, &err);
            feed_status(d, "read back", st, &err);
            if (st) continue;
            st = layout_desc_to_dialect(dialects[i], &back, again, sizeof again, &err);
            feed_status(d, "again", st, &err);
            if (!st) feed(d, "again %d", strcmp(text, again) == 0 ? 1 : 0);
            feed_desc_offsets(d, "back", &back);
        }
    }
}

/* F2 bases of the linear ones among seed, family, F2 and random descriptors,
 * and of the seed distributions. */
static void dump_linear(digest *d)
{
    static seed_kernel k;
    static layout_linear ll;
    static char text[16384];
    uint64_t seed = 0x5eed0013u;
    long used[REF_KIND_COUNT] = {0};
    for (int item = 0; item < 3 * SEED_KERNEL_COUNT + 240; item++) {
        layout_descriptor desc;
        layout_error err;
        layout_status st;
        if (item < 3 * SEED_KERNEL_COUNT) {
            st = seed_kernel_build(&k, (seed_kernel_id)(item / 3), 32, &err);
            if (!st && item % 3 == 2) {
                st = layout_dist_to_linear(item % 2 ? &k.read_dist : &k.write_dist, &ll, &err);
                feed_status(d, "dist", st, &err);
                d->items++;
                if (!st) layout_linear_print(&ll, text, sizeof text), feed(d, "dist %s", text);
                continue;
            }
            if (!st) desc = item % 3 ? k.read_desc : k.write_desc;
        } else if (item % 3 == 0) {
            st = family_member(&seed, &desc, &err);
        } else if (item % 3 == 1) {
            /* an F2 swizzle: vec 2, a random bit matrix on a 16 x 32 tile */
            layout_family_params p;
            int64_t tile[2] = {16, 32};
            memset(&p, 0, sizeof p);
            p.kind = LAYOUT_FAMILY_F2;
            p.contiguous_dim = 1;
            p.p[0] = 2;
            p.p[1] = (int64_t)(rng_next(&seed) % 65536);
            p.p[2] = 4;
            p.p[3] = 4;
            st = layout_suggest_build(&p, tile, &desc, &err);
        } else {
            ref_desc r;
            ref_random(&seed, &r, used);
            st = ref_build(&r, &desc, &err);
        }
        feed_status(d, "desc", st, &err);
        d->items++;
        if (st) continue;
        st = layout_desc_to_linear(&desc, &ll, &err);
        feed_status(d, "linear", st, &err);
        if (st) continue;
        layout_linear_print(&ll, text, sizeof text);
        feed(d, "bases %s", text);
        feed(d, "rank %d injective %d surjective %d", layout_linear_rank(&ll), layout_linear_is_injective(&ll),
             layout_linear_is_surjective(&ll));
        layout_descriptor back;
        st = layout_linear_to_desc(&ll, &back, &err);
        feed_status(d, "to_desc", st, &err);
        if (!st) feed_desc_offsets(d, "to_desc", &back);
    }
}

/* Family offsets (closed form and built descriptor) and LDS bytes for a
 * sample of every family's parameter sets on a few tiles. */
static void dump_families(digest *d)
{
    static const int64_t tiles[][2] = {{64, 32}, {32, 64}, {16, 16}, {8, 24}, {12, 20}};
    static int64_t coords[2 * 4096], offs[4096];
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++)
        for (int kind = 0; kind < LAYOUT_FAMILY_COUNT; kind++)
            for (int cd = 0; cd < 2; cd++) {
                layout_family_iter it;
                layout_family_params p;
                layout_error err;
                layout_status st = layout_family_iter_init(&it, (layout_family_kind)kind, tiles[t], cd, 2, 128, &err);
                feed_status(d, "iter", st, &err);
                if (st) continue;
                for (long n = 0; layout_family_iter_next(&it, &p); n++) {
                    if (n % 37 != 5) continue; /* a sample of every family's enumeration */
                    char text[256];
                    layout_descriptor desc;
                    int64_t bytes = 0;
                    d->items++;
                    layout_family_params_print(&p, text, sizeof text);
                    st = layout_family_lds_bytes(&p, tiles[t], 2, &bytes, &err);
                    feed_status(d, text, st, &err);
                    feed(d, "bytes %" PRId64, bytes);
                    size_t m = (size_t)(tiles[t][0] * tiles[t][1]);
                    for (size_t q = 0; q < m; q++) {
                        coords[2 * q] = (int64_t)q / tiles[t][1];
                        coords[2 * q + 1] = (int64_t)q % tiles[t][1];
                    }
                    st = layout_family_offsets(&p, tiles[t], m, coords, offs, &err);
                    feed_status(d, "offsets", st, &err);
                    uint64_t h = 1469598103934665603ull;
                    for (size_t q = 0; !st && q < m; q++) h = (h ^ (uint64_t)offs[q]) * 1099511628211ull;
                    feed(d, "closed form %016" PRIx64, h);
                    st = layout_family_build(&p, tiles[t], &desc, &err);
                    feed_status(d, "build", st, &err);
                    if (!st) feed_desc_offsets(d, "built", &desc);
                }
            }
}

/* Probe kernels (emit.h): the HIP and CUDA source of every seed kernel on 32
 * and 64 banks, line by line. */
static void dump_probes(digest *d)
{
    static seed_kernel k;
    static char src[1 << 17];
    for (int banks = 32; banks <= 64; banks *= 2)
        for (int id = 0; id < SEED_KERNEL_COUNT; id++)
            for (int lang = 0; lang < 2; lang++) {
                layout_emit_spec es;
                layout_error e;
                size_t len = 0;
                if (seed_kernel_build(&k, (seed_kernel_id)id, banks, &e)) {
                    feed(d, "seed %d: %s", id, e.message);
                    continue;
                }
                memset(&es, 0, sizeof es);
                es.lang = lang ? LAYOUT_EMIT_CUDA : LAYOUT_EMIT_HIP;
                es.write_desc = &k.write_desc;
                es.write_dist = &k.write_dist;
                es.read_desc = &k.read_desc;
                es.read_dist = &k.read_dist;
                es.elem_bytes = SK_ELEM_BYTES;
                es.tiles = SEED_TILES;
                layout_status st = layout_emit_probe(&es, src, sizeof src, &len, &e);
                feed(d, "seed %d banks %d lang %d: status %d len %zu", id, banks, lang, (int)st, len);
                d->items++;
                if (st) {
                    feed(d, "%s", e.message);
                    continue;
                }
                for (char *line = src, *nl; *line; line = nl + 1) {
                    nl = strchr(line, '\n');
                    if (!nl) {
                        feed(d, "%s", line);
                        break;
                    }
                    feed(d, "%.*s", (int)(nl - line), line);
                }
            }
}

int main(int argc, char **argv)
{
    layout_check_impl impl = LAYOUT_IMPL_SCALAR;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) verbose = 1;
        else if (!strcmp(argv[i], "scalar")) impl = LAYOUT_IMPL_SCALAR;
        else if (!strcmp(argv[i], "avx2")) impl = LAYOUT_IMPL_AVX2;
        else {
            fprintf(stderr, "usage: stable_dump [-v] [scalar|avx2]\n");
            return 1;
        }
    }
    if (!layout_check_impl_available(impl)) {
        fprintf(stderr, "stable_dump: %s is not available here\n", layout_check_impl_name(impl));
        return 2;
    }
    digest ds[] = {{"descriptors", 1469598103934665603ull, 0},
                   {"errors", 1469598103934665603ull, 0},
                   {"checker", 1469598103934665603ull, 0},
                   {"kernels", 1469598103934665603ull, 0},
                   {"plans", 1469598103934665603ull, 0},
                   {"kernel_plans", 1469598103934665603ull, 0},
                   {"suggest", 1469598103934665603ull, 0},
                   {"dialects", 1469598103934665603ull, 0},
                   {"linear", 1469598103934665603ull, 0},
                   {"families", 1469598103934665603ull, 0},
                   {"probes", 1469598103934665603ull, 0}};
    dump_descriptors(&ds[0]);
    dump_errors(&ds[1]);
    dump_checker(&ds[2], impl);
    dump_kernels(&ds[3], impl);
    dump_plans(&ds[4], impl);
    dump_kernel_plans(&ds[5], impl);
    /* search / dialect digests */
    dump_suggest(&ds[6], impl);
    dump_dialects(&ds[7]);
    dump_linear(&ds[8]);
    dump_families(&ds[9]);
    dump_probes(&ds[10]);
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) finish(&ds[i]);
    return 0;
}
