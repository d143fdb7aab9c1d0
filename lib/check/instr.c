/* Instruction values: construction and the validity contract. */
#include "../core/internal.h"
#include "layout/instr.h"

#include <string.h>

static const int layout_widths[LAYOUT_N_WIDTHS] = {1, 2, 4, 8, 12, 16};

int layout_width_index(int width_bytes)
{
    /* table lookup: this sits on the checker's per-instruction path */
    static const signed char index_of[17] = {-1, 0, 1, -1, 2, -1, -1, -1, 3, -1, -1, -1, 4, -1, -1, -1, 5};
    return (width_bytes >= 0 && width_bytes <= 16) ? index_of[width_bytes] : -1;
}

int layout_width_from_index(int index)
{
    return (index >= 0 && index < LAYOUT_N_WIDTHS) ? layout_widths[index] : 0;
}

const char *layout_direction_name(layout_direction direction)
{
    switch (direction) {
    case LAYOUT_READ: return "read";
    case LAYOUT_WRITE: return "write";
    }
    return "?";
}

uint64_t layout_lane_mask_all(int n_lanes)
{
    if (n_lanes <= 0 || n_lanes > 64) return 0;
    return n_lanes == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n_lanes) - 1);
}

static layout_status check_fields(const char *fn, int n_lanes, int width_bytes,
                                  layout_direction direction, layout_error *err)
{
    if (n_lanes != 32 && n_lanes != 64)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: n_lanes = %d must be 32 or 64", fn, n_lanes);
    if (layout_width_index(width_bytes) < 0)
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "%s: width_bytes = %d must be 1, 2, 4, 8, 12 or 16", fn, width_bytes);
    if (direction != LAYOUT_READ && direction != LAYOUT_WRITE)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: direction = %d must be LAYOUT_READ or LAYOUT_WRITE",
                           fn, (int)direction);
    return LAYOUT_OK;
}

layout_status layout_instr_init(layout_instr *out, int n_lanes, int width_bytes,
                                layout_direction direction, layout_error *err)
{
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_instr_init: out is NULL");
    layout_status st = check_fields("layout_instr_init", n_lanes, width_bytes, direction, err);
    if (st) return st;
    memset(out, 0, sizeof *out); /* padding too: instructions get copied and compared bytewise */
    out->n_lanes = n_lanes;
    out->active_mask = layout_lane_mask_all(n_lanes);
    out->width_bytes = width_bytes;
    out->direction = direction;
    return layout_ok(err);
}

layout_status layout_instr_fill_strided(layout_instr *instr, int64_t base_bytes,
                                        int64_t stride_bytes, layout_error *err)
{
    if (!instr) return layout_fail(err, LAYOUT_ERR_NULL, "layout_instr_fill_strided: instr is NULL");
    if (instr->n_lanes != 32 && instr->n_lanes != 64)
        return layout_fail(err, LAYOUT_ERR_ARG, "layout_instr_fill_strided: instr->n_lanes = %d must be 32 or 64",
                           instr->n_lanes);
    uint32_t addr[LAYOUT_MAX_LANES];
    for (int l = 0; l < instr->n_lanes; l++) {
        int64_t off, a;
        if (layout_mul_overflow(stride_bytes, l, &off) || layout_add_overflow(base_bytes, off, &a) ||
            a < 0 || a > (int64_t)UINT32_MAX)
            return layout_fail(err, LAYOUT_ERR_OVERFLOW,
                               "layout_instr_fill_strided: base_bytes = %lld + lane %d * stride_bytes = %lld "
                               "leaves 0..UINT32_MAX",
                               (long long)base_bytes, l, (long long)stride_bytes);
        addr[l] = (uint32_t)a;
    }
    for (int l = 0; l < instr->n_lanes; l++) instr->addr_bytes[l] = addr[l];
    return layout_ok(err);
}

layout_status layout_instr_validate(const layout_instr *instr, layout_error *err)
{
    if (!instr) return layout_fail(err, LAYOUT_ERR_NULL, "layout_instr_validate: instr is NULL");
    layout_status st = check_fields("layout_instr_validate", instr->n_lanes, instr->width_bytes,
                                    instr->direction, err);
    if (st) return st;
    if (instr->active_mask & ~layout_lane_mask_all(instr->n_lanes))
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "layout_instr_validate: active_mask = 0x%llx has bits at or above n_lanes = %d",
                           (unsigned long long)instr->active_mask, instr->n_lanes);
    return layout_ok(err);
}
