/* The precompiled triple check: access plans + composed (distribution ->
 * descriptor) offset plans + a prepared checker; per check only box walks
 * over the lanes and checker calls. */
#include "../plan/plan_compose.h"
#include "layout/kernel_plan.h"
#include "kernel_internal.h"

#include <string.h>

/* Compose the side's distribution adaptor with its descriptor: plan dims are
 * (warp if two P dims, y0.., lane).  0 when the distribution has no adaptor
 * form or too many dims (the caller then falls back). */
static layout_status compose(layout_side_plan *s, const char *fn, layout_plan_impl impl, layout_error *err)
{
    const layout_distribution *dist = s->access.dist;
    const layout_descriptor *desc = s->access.desc;
    s->composed = 0;
    s->warp_var = 0;
    memset(&s->offsets, 0, sizeof s->offsets);
    if (dist->kind != LAYOUT_DIST_ENCODING) return LAYOUT_OK;
    int np = dist->encoding.n_p, ny = dist->n_y;
    int n = (np == 2 ? 1 : 0) + ny + 1;
    if (n > LAYOUT_MAX_DIMS || (np != 1 && np != 2)) return LAYOUT_OK;
    int64_t lens[LAYOUT_MAX_DIMS];
    int top_var[LAYOUT_MAX_DIMS];
    int first_y = np == 2 ? 1 : 0;
    if (np == 2) {
        lens[0] = dist->n_warps;
        top_var[0] = 0;          /* P0 = warp */
        top_var[1] = n - 1;      /* P1 = lane */
    } else {
        top_var[0] = n - 1;      /* P0 = lane */
    }
    lens[n - 1] = dist->wave_size;
    for (int j = 0; j < ny; j++) {
        lens[first_y + j] = dist->y_lengths[j];
        top_var[np + j] = first_y + j;
    }
    layout_status st = layout_plan_compile(fn, &s->offsets, n, lens, &dist->adaptor, top_var, &desc->adaptor, impl, err);
    if (st) return st;
    s->composed = 1;
    s->warp_var = np == 2;
    return LAYOUT_OK;
}

static layout_status make_side(layout_side_plan *s, const char *fn, const layout_descriptor *desc,
                               const layout_distribution *dist, layout_direction dir, int elem_bytes,
                               const layout_access_options *opt, const layout_arch *arch, layout_plan_impl impl,
                               layout_error *err)
{
    const char *side = dir == LAYOUT_WRITE ? "write" : "read";
    layout_access_options o;
    layout_access_options_for(&o, opt, arch);
    layout_status st = layout_access_plan_make(&s->access, desc, dist, dir, elem_bytes, &o, err);
    if (!st) st = compose(s, fn, impl, err);
    if (st) {
        if (err) {
            char msg[LAYOUT_ERROR_MESSAGE_CAP];
            memcpy(msg, err->message, sizeof msg);
            layout_fail(err, st, "%s: %s side: %s", fn, side, msg);
        }
        return st;
    }
    memset(s->ops, 0, sizeof s->ops);
    layout_access_plan_print_vendor(&s->access, layout_arch_vendor(arch), s->ops, sizeof s->ops);
    return LAYOUT_OK;
}

layout_status layout_kernel_plan_make(layout_kernel_plan *out, const layout_arch *arch,
                                      const layout_kernel_spec *spec, layout_plan_impl impl, layout_error *err)
{
    static const char fn[] = "layout_kernel_plan_make";
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: arch is NULL", fn);
    if (!spec) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec is NULL", fn);
    if (!spec->write_desc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->write_desc is NULL", fn);
    if (!spec->write_dist) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->write_dist is NULL", fn);
    if (!spec->read_dist) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->read_dist is NULL", fn);
    if (spec->tiles < 1)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->tiles = %lld must be >= 1", fn, (long long)spec->tiles);
    if (impl != LAYOUT_PLAN_AUTO && impl != LAYOUT_PLAN_SCALAR && impl != LAYOUT_PLAN_AVX2)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: impl = %d is not a layout_plan_impl", fn, (int)impl);
    /* Sides are built on the stack and copied at the end: out stays
     * untouched on error (about 64 KiB of stack for the two sides). */
    layout_checker ck;
    layout_status st = layout_checker_init(&ck, arch, LAYOUT_IMPL_AUTO, err);
    if (st) return st;
    if (spec->write_dist->wave_size != arch->wave_size || spec->read_dist->wave_size != arch->wave_size)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: distribution wave_size %d / %d != arch %s wave_size %d", fn,
                           spec->write_dist->wave_size, spec->read_dist->wave_size, arch->name, arch->wave_size);
    const layout_descriptor *rdesc = spec->read_desc ? spec->read_desc : spec->write_desc;
    layout_side_plan w, r;
    st = make_side(&w, fn, spec->write_desc, spec->write_dist, LAYOUT_WRITE, spec->elem_bytes, spec->write_opt, arch, impl,
                   err);
    if (!st) st = make_side(&r, fn, rdesc, spec->read_dist, LAYOUT_READ, spec->elem_bytes, spec->read_opt, arch, impl, err);
    if (st) return st;
    out->write = w;
    out->read = r;
    out->checker = ck;
    out->tiles = spec->tiles;
    return layout_ok(err);
}

/* Lane addresses of (warp, step) through the composed plan. */
static void side_instr_fast(const layout_side_plan *s, int warp, int step, layout_instr *out)
{
    const layout_access_plan *ap = &s->access;
    const layout_access_step *st = &ap->steps[step];
    const layout_distribution *dist = ap->dist;
    int64_t origin[LAYOUT_MAX_DIMS], extent[LAYOUT_MAX_DIMS], y[LAYOUT_MAX_DIMS], off[LAYOUT_MAX_LANES];
    int n = s->offsets.n_top, d = 0;
    layout_dist_y_index(dist, ap->order[st->seq_first], y);
    if (s->warp_var) origin[d++] = warp;
    for (int j = 0; j < dist->n_y; j++) origin[d++] = y[j];
    origin[n - 1] = 0;
    for (int k = 0; k < n - 1; k++) extent[k] = 1;
    extent[n - 1] = dist->wave_size;
    layout_plan_box_unchecked(&s->offsets, origin, extent, off, NULL); /* in range by construction */
    int lanes = dist->wave_size;
    uint64_t base = (uint64_t)ap->base_bytes + (uint64_t)(int64_t)st->byte_offset;
    for (int l = 0; l < lanes; l++)
        out->addr_bytes[l] = (uint32_t)(base + (uint64_t)off[l] * (uint64_t)ap->elem_bytes);
    for (int l = lanes; l < LAYOUT_MAX_LANES; l++) out->addr_bytes[l] = 0;
    out->n_lanes = lanes;
    out->active_mask = layout_lane_mask_all(lanes);
    out->width_bytes = st->width_bytes;
    out->direction = ap->direction;
}

layout_status layout_side_plan_instr(const layout_side_plan *side, int warp, int step, layout_instr *out,
                                     layout_error *err)
{
    static const char fn[] = "layout_side_plan_instr";
    if (!side) return layout_fail(err, LAYOUT_ERR_NULL, "%s: side is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (!side->composed) return layout_access_instr(&side->access, warp, step, out, err);
    if (warp < 0 || warp >= side->access.dist->n_warps)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: warp = %d must be in 0..%d", fn, warp,
                           side->access.dist->n_warps - 1);
    if (step < 0 || step >= side->access.n_steps)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: step = %d must be in 0..%d", fn, step,
                           side->access.n_steps - 1);
    memset(out, 0, sizeof *out);
    side_instr_fast(side, warp, step, out);
    return layout_ok(err);
}

/* Instructions from the composed plan (or the access layer when not composed). */
static layout_status plan_source(const void *ctx, int warp, int step, layout_instr *out, layout_error *err)
{
    const layout_side_plan *s = ctx;
    if (!s->composed) return layout_access_instr(&s->access, warp, step, out, err);
    side_instr_fast(s, warp, step, out);
    return LAYOUT_OK;
}

static layout_status check_side(const layout_kernel_plan *kp, const layout_side_plan *s, layout_side_result *out,
                                layout_error *err)
{
    return layout_side_accumulate("layout_kernel_plan_check", &kp->checker, &s->access, plan_source, s, kp->tiles,
                                  s->ops, out, err);
}

layout_status layout_kernel_plan_check(const layout_kernel_plan *plan, layout_kernel_result *out, layout_error *err)
{
    static const char fn[] = "layout_kernel_plan_check";
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "%s: plan is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    layout_kernel_result r;
    memset(&r, 0, sizeof r);
    layout_status st = check_side(plan, &plan->write, &r.write, err);
    if (!st) st = check_side(plan, &plan->read, &r.read, err);
    if (st) return st;
    r.tiles = plan->tiles;
    r.extra_cycles_per_tile = r.write.extra_cycles_per_tile + r.read.extra_cycles_per_tile;
    r.instrs_per_tile = r.write.instrs_per_tile + r.read.instrs_per_tile;
    if (layout_add_overflow(r.write.sq_lds_bank_conflict, r.read.sq_lds_bank_conflict, &r.sq_lds_bank_conflict) ||
        layout_add_overflow(r.write.sq_insts_lds, r.read.sq_insts_lds, &r.sq_insts_lds))
        return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: kernel totals overflow int64", fn);
    *out = r;
    return layout_ok(err);
}
