/* The instructions of an access plan: one layout_instr per (warp, step)
 * with every lane's byte address, one at a time (layout_access_instr) or as
 * the whole stream (layout_access_stream). */
#include "../core/internal.h"
#include "layout/access.h"
#include "dist_internal.h"
#include "access_internal.h"

#include <string.h>

/* layout_access_instr(); `tps` (encodings only, may be NULL) holds every
 * lane's layout_dist_thread_part() of this warp, so a stream derives each
 * thread's P digits once per warp instead of once per step (access_internal.h). */
layout_status layout_access_instr_tp(const layout_access_plan *plan, int warp, int step,
                                     const int64_t (*tps)[LAYOUT_MAX_DIMS], layout_instr *out, layout_error *err)
{
    static const char name[] = "layout_access_instr";
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "%s: plan is NULL", name);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", name);
    if (warp < 0 || warp >= plan->dist->n_warps)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: warp = %d must be in 0..%d", name, warp,
                           plan->dist->n_warps - 1);
    if (step < 0 || step >= plan->n_steps)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: step = %d must be in 0..%d", name, step, plan->n_steps - 1);
    const layout_access_step *st = &plan->steps[step];
    int lanes = plan->dist->wave_size;
    uint32_t addr[LAYOUT_MAX_LANES];
    int enc = plan->dist->kind == LAYOUT_DIST_ENCODING;
    int64_t part[1][LAYOUT_MAX_DIMS], y[LAYOUT_MAX_DIMS];
    if (enc) {
        layout_dist_y_index(plan->dist, plan->order[st->seq_first], y);
        layout_dist_elem_part(plan->dist, y, part[0]);
    }
    for (int l = 0; l < lanes; l++) {
        int64_t a = 0; /* gcc -O3 cannot see that thread_addrs sets it on success */
        layout_status s = layout_access_thread_addrs_tp(plan, warp, l, st->seq_first, 1,
                                          enc ? (const int64_t(*)[LAYOUT_MAX_DIMS])part : NULL,
                                          enc && tps ? tps[l] : NULL, &a, err);
        if (s) return s;
        addr[l] = (uint32_t)(a + st->byte_offset);
    }
    memset(out, 0, sizeof *out);
    out->n_lanes = lanes;
    out->active_mask = lanes == 64 ? ~(uint64_t)0 : (((uint64_t)1 << lanes) - 1);
    out->width_bytes = st->width_bytes;
    out->direction = plan->direction;
    memcpy(out->addr_bytes, addr, sizeof(uint32_t) * (size_t)lanes);
    return layout_ok(err);
}

int layout_access_thread_parts(const layout_access_plan *plan, int warp, int64_t (*tps)[LAYOUT_MAX_DIMS])
{
    if (plan->dist->kind != LAYOUT_DIST_ENCODING) return 0;
    for (int l = 0; l < plan->dist->wave_size; l++) /* <= LAYOUT_MAX_LANES (layout_dist_make) */
        layout_dist_thread_part(plan->dist, warp, l, tps[l]);
    return 1;
}

layout_status layout_access_instr(const layout_access_plan *plan, int warp, int step, layout_instr *out,
                                  layout_error *err)
{
    return layout_access_instr_tp(plan, warp, step, NULL, out, err);
}

layout_status layout_access_stream(const layout_access_plan *plan, layout_instr *buf, size_t cap, size_t *count,
                                   layout_error *err)
{
    static const char name[] = "layout_access_stream";
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "%s: plan is NULL", name);
    if (!count) return layout_fail(err, LAYOUT_ERR_NULL, "%s: count is NULL", name);
    size_t need = (size_t)plan->dist->n_warps * (size_t)plan->n_steps;
    *count = need;
    if (!buf && cap == 0) return layout_ok(err);
    if (!buf) return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: buf is NULL with cap = %zu", name, cap);
    if (cap < need)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: cap = %zu, the stream has %zu instructions", name, cap, need);
    size_t k = 0;
    int64_t tps[LAYOUT_MAX_LANES][LAYOUT_MAX_DIMS];
    for (int w = 0; w < plan->dist->n_warps; w++) {
        int enc = layout_access_thread_parts(plan, w, tps);
        for (int i = 0; i < plan->n_steps; i++) {
            layout_status s = layout_access_instr_tp(plan, w, i, enc ? (const int64_t(*)[LAYOUT_MAX_DIMS])tps : NULL,
                                                     &buf[k++], err);
            if (s) return s;
        }
    }
    return layout_ok(err);
}
