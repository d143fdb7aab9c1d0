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
 * and materialised instructions).  One line per section: name, item count, hash.  With
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

/* ---- to be added after the merges (issues 10, 11) ----------------------------
 * Search results (suggest.h) and dialect round trips (Triton / CuTe / IREE
 * text -> layout -> text) get their own digest here: one dump_<name>(digest *)
 * over a fixed corpus, a digest entry in main()'s table, and nothing that
 * depends on the build (no timings, no pointer values, no implementation
 * names).  The lead adds them when those modules are on main. */

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
                   {"kernel_plans", 1469598103934665603ull, 0}};
    dump_descriptors(&ds[0]);
    dump_errors(&ds[1]);
    dump_checker(&ds[2], impl);
    dump_kernels(&ds[3], impl);
    dump_plans(&ds[4], impl);
    dump_kernel_plans(&ds[5], impl);
    /* search / dialect digests: see the note above main() */
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) finish(&ds[i]);
    return 0;
}
