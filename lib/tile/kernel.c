/* The triple check: access plans of both sides, every instruction of every
 * warp costed by the checker, per-tile and per-kernel totals. */
#include "../core/internal.h"
#include "../core/strbuf.h"
#include "layout/kernel.h"
#include "kernel_internal.h"
#include "access_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Instructions straight from the access layer, each lane's thread part
 * derived once per warp (side_accumulate walks warp after warp). */
typedef struct access_ctx {
    const layout_access_plan *plan;
    int warp, enc;
    int64_t tps[LAYOUT_MAX_LANES][LAYOUT_MAX_DIMS];
} access_ctx;

static layout_status access_source(const void *ctx, int warp, int step, layout_instr *out, layout_error *err)
{
    /* ctx is layout_check_side()'s own (non-const) access_ctx */
    access_ctx *a = (access_ctx *)(uintptr_t)ctx;
    if (warp != a->warp) {
        a->enc = layout_access_thread_parts(a->plan, warp, a->tps);
        a->warp = warp;
    }
    return layout_access_instr_tp(a->plan, warp, step, a->enc ? (const int64_t(*)[LAYOUT_MAX_DIMS])a->tps : NULL, out,
                                  err);
}

layout_status layout_check_side(const layout_checker *checker, const layout_access_plan *plan, int64_t tiles,
                                layout_side_result *out, layout_error *err)
{
    static const char name[] = "layout_check_side";
    if (!checker) return layout_fail(err, LAYOUT_ERR_NULL, "%s: checker is NULL", name);
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "%s: plan is NULL", name);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", name);
    if (tiles < 1) return layout_fail(err, LAYOUT_ERR_ARG, "%s: tiles = %lld must be >= 1", name, (long long)tiles);
    if (!checker->arch || !plan->dist)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: checker or plan is not initialised", name);
    if (plan->dist->wave_size != checker->arch->wave_size)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: distribution wave_size %d != arch %s wave_size %d", name,
                           plan->dist->wave_size, checker->arch->name, checker->arch->wave_size);

    access_ctx a;
    a.plan = plan;
    a.warp = -1;
    a.enc = 0;
    return layout_side_accumulate(name, checker, plan, access_source, &a, tiles, NULL, out, err);
}

layout_status layout_side_accumulate(const char *fn, const layout_checker *checker, const layout_access_plan *plan,
                                     layout_instr_source source, const void *ctx, int64_t tiles, const char *ops,
                                     layout_side_result *out, layout_error *err)
{
    layout_side_result r;
    memset(&r, 0, sizeof r);
    r.direction = plan->direction;
    r.steps_per_wave = plan->n_steps;
    memcpy(r.op_count, plan->op_count, sizeof r.op_count);
    r.n_misaligned = plan->n_misaligned;
    r.n_noncontiguous = plan->n_noncontiguous;
    r.n_warps = plan->dist->n_warps;
    r.instrs_per_tile = (int64_t)plan->n_instrs * plan->dist->n_warps;
    r.worst_warp = r.worst_step = -1;
    layout_instr ins;
    for (int w = 0; w < plan->dist->n_warps; w++)
        for (int i = 0; i < plan->n_steps; i++) {
            layout_cost c;
            layout_status s = source(ctx, w, i, &ins, err);
            if (s) return s;
            s = layout_checker_cost(checker, &ins, &c, err);
            if (s) return s;
            r.extra_cycles_per_tile += c.extra_cycles;
            r.total_cycles_per_tile += c.total_cycles;
            if (r.worst_step < 0 || c.extra_cycles > r.worst_extra) {
                r.worst_warp = w;
                r.worst_step = i;
                r.worst_extra = c.extra_cycles;
            }
        }
    if (layout_mul_overflow(r.extra_cycles_per_tile, tiles, &r.sq_lds_bank_conflict) ||
        layout_mul_overflow(r.instrs_per_tile, tiles, &r.sq_insts_lds))
        return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: totals over %lld tiles overflow int64", fn,
                           (long long)tiles);
    if (ops)
        memcpy(r.ops, ops, sizeof r.ops);
    else
        layout_access_plan_print_vendor(plan, layout_arch_vendor(checker->arch), r.ops, sizeof r.ops);
    *out = r;
    return layout_ok(err);
}

/* Prefix an error message with the side it came from. */
static layout_status side_fail(const char *fn, layout_error *err, layout_status s, const char *side)
{
    if (err) {
        char msg[LAYOUT_ERROR_MESSAGE_CAP];
        memcpy(msg, err->message, sizeof msg);
        layout_fail(err, s, "%s: %s side: %s", fn, side, msg);
    }
    return s;
}

void layout_access_options_for(layout_access_options *out, const layout_access_options *opt, const layout_arch *arch)
{
    if (opt) *out = *opt;
    else memset(out, 0, sizeof *out);
    if (!out->arch) out->arch = arch;
}

/* Plan of one side of spec (write when side == 0). */
static layout_status side_plan(const char *fn, const layout_arch *arch, const layout_kernel_spec *spec, int side,
                                layout_access_plan *plan, layout_error *err)
{
    const layout_descriptor *desc = side && spec->read_desc ? spec->read_desc : spec->write_desc;
    layout_access_options opt;
    layout_access_options_for(&opt, side ? spec->read_opt : spec->write_opt, arch);
    layout_status s = layout_access_plan_make(plan, desc, side ? spec->read_dist : spec->write_dist,
                                              side ? LAYOUT_READ : LAYOUT_WRITE, spec->elem_bytes, &opt, err);
    return s ? side_fail(fn, err, s, side ? "read" : "write") : LAYOUT_OK;
}

layout_status layout_check_kernel(const layout_arch *arch, const layout_kernel_spec *spec,
                                  layout_kernel_result *out, layout_error *err)
{
    static const char name[] = "layout_check_kernel";
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: arch is NULL", name);
    if (!spec) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec is NULL", name);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", name);
    if (!spec->write_desc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->write_desc is NULL", name);
    if (!spec->write_dist) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->write_dist is NULL", name);
    if (!spec->read_dist) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->read_dist is NULL", name);
    if (spec->tiles < 1)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->tiles = %lld must be >= 1", name, (long long)spec->tiles);

    layout_checker checker;
    layout_status s = layout_checker_init(&checker, arch, LAYOUT_IMPL_AUTO, err);
    if (s) return s;
    layout_access_plan plan;
    layout_kernel_result r;
    memset(&r, 0, sizeof r);
    for (int side = 0; side < 2; side++) {
        if ((s = side_plan(name, arch, spec, side, &plan, err))) return s;
        s = layout_check_side(&checker, &plan, spec->tiles, side ? &r.read : &r.write, err);
        if (s) return side_fail(name, err, s, side ? "read" : "write");
    }
    r.tiles = spec->tiles;
    r.extra_cycles_per_tile = r.write.extra_cycles_per_tile + r.read.extra_cycles_per_tile;
    r.instrs_per_tile = r.write.instrs_per_tile + r.read.instrs_per_tile;
    if (layout_add_overflow(r.write.sq_lds_bank_conflict, r.read.sq_lds_bank_conflict, &r.sq_lds_bank_conflict) ||
        layout_add_overflow(r.write.sq_insts_lds, r.read.sq_insts_lds, &r.sq_insts_lds))
        return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: kernel totals overflow int64", name);
    *out = r;
    return layout_ok(err);
}

layout_status layout_kernel_report(const layout_arch *arch, const layout_kernel_spec *spec, layout_instr *scratch,
                                   size_t scratch_cap, size_t *needed, layout_check_report *report,
                                   layout_error *err)
{
    static const char name[] = "layout_kernel_report";
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: arch is NULL", name);
    if (!spec) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec is NULL", name);
    if (!spec->write_desc || !spec->write_dist || !spec->read_dist)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->write_desc, write_dist and read_dist are required", name);
    if (!report && !(scratch == NULL && scratch_cap == 0))
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: report is NULL", name);
    layout_access_plan plan;
    size_t count[2], most = 0;
    for (int side = 0; side < 2; side++) {
        layout_status s = side_plan(name, arch, spec, side, &plan, err);
        if (s) return s;
        count[side] = (size_t)plan.dist->n_warps * (size_t)plan.n_steps;
        if (count[side] > most) most = count[side];
    }
    if (needed) *needed = most;
    if (!scratch && scratch_cap == 0) return layout_ok(err);
    if (!scratch || scratch_cap < most)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: scratch_cap = %zu, a side has %zu instructions", name,
                           scratch_cap, most);
    layout_checker checker;
    layout_check_report r;
    layout_status s = layout_checker_init(&checker, arch, LAYOUT_IMPL_AUTO, err);
    if (!s) s = layout_check_report_init(&r, arch, err);
    for (int side = 0; side < 2 && !s; side++) {
        size_t n = 0;
        if (!(s = side_plan(name, arch, spec, side, &plan, err)) && !(s = layout_access_stream(&plan, scratch, scratch_cap, &n, err)))
            s = layout_check_report_add(&r, &checker, side ? "read" : "write", scratch, n, err);
    }
    if (s) return s;
    *report = r;
    return layout_ok(err);
}

layout_status layout_check_triple(const layout_arch *arch, const layout_distribution *write_dist,
                                  const layout_descriptor *lds, const layout_distribution *read_dist, int elem_bytes,
                                  layout_kernel_result *out, layout_error *err)
{
    layout_kernel_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.write_desc = lds;
    spec.write_dist = write_dist;
    spec.read_dist = read_dist;
    spec.elem_bytes = elem_bytes;
    spec.tiles = 1;
    if (!lds) return layout_fail(err, LAYOUT_ERR_NULL, "layout_check_triple: lds is NULL");
    if (!write_dist) return layout_fail(err, LAYOUT_ERR_NULL, "layout_check_triple: write_dist is NULL");
    if (!read_dist) return layout_fail(err, LAYOUT_ERR_NULL, "layout_check_triple: read_dist is NULL");
    return layout_check_kernel(arch, &spec, out, err);
}

int layout_kernel_result_print(const layout_kernel_result *r, char *buf, size_t cap)
{
    layout_strbuf t;
    layout_sb_init(&t, buf, cap);
    if (!r) {
        layout_sb_printf(&t, "(null result)");
        return layout_sb_result(&t);
    }
    const layout_side_result *sides[2] = {&r->write, &r->read};
    for (int i = 0; i < 2; i++)
        layout_sb_printf(&t, "%-6s %-34s per tile: %lld instrs, %lld conflict cycles\n", i ? "read:" : "write:", sides[i]->ops,
                (long long)sides[i]->instrs_per_tile, (long long)sides[i]->extra_cycles_per_tile);
    layout_sb_printf(&t,
            "kernel (%lld tiles): SQ_LDS_BANK_CONFLICT %lld (write %lld, read %lld), SQ_INSTS_LDS %lld (write %lld, "
            "read %lld)\n",
            (long long)r->tiles, (long long)r->sq_lds_bank_conflict, (long long)r->write.sq_lds_bank_conflict,
            (long long)r->read.sq_lds_bank_conflict, (long long)r->sq_insts_lds, (long long)r->write.sq_insts_lds,
            (long long)r->read.sq_insts_lds);
    return layout_sb_result(&t);
}
