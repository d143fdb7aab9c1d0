/* Seed 002's one-dimensional lint (arr[lane * S + k]) with the exact
 * checker: the factor before, the smallest record padding and the SoA
 * form after. */
#include "suggest_internal.h"
#include "../core/bits.h"
#include "layout/instr.h"

#include <string.h>

static layout_status strided_cost(const layout_checker *ck, int lanes, int64_t stride_bytes, int width, layout_cost *c,
                                  layout_error *err)
{
    layout_instr ins;
    layout_status s = layout_instr_init(&ins, lanes, width, LAYOUT_READ, err);
    if (!s) s = layout_instr_fill_strided(&ins, 0, stride_bytes, err);
    if (!s) s = layout_checker_cost(ck, &ins, c, err);
    return s;
}

layout_status layout_suggest_stride(const layout_arch *arch, int64_t stride, int elem_bytes,
                                    layout_suggest_stride_result *out, layout_error *err)
{
    static const char fn[] = "layout_suggest_stride";
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: arch is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (stride < 1 || stride > (1 << 20))
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: stride = %lld must be in 1..2^20", fn, (long long)stride);
    if (layout_width_index(elem_bytes) < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: elem_bytes = %d must be 1, 2, 4, 8, 12 or 16", fn, elem_bytes);
    layout_checker ck;
    layout_status s = layout_checker_init(&ck, arch, LAYOUT_IMPL_AUTO, err);
    if (s) return s;
    int lanes = arch->wave_size;
    layout_suggest_stride_result r;
    memset(&r, 0, sizeof r);
    r.stride = stride;
    r.elem_bytes = elem_bytes;
    if (elem_bytes == arch->bank_width_bytes) r.gcd_factor = (int)layout_gcd(stride, arch->n_banks);
    layout_cost c;
    if ((s = strided_cost(&ck, lanes, stride * elem_bytes, elem_bytes, &c, err))) return s;
    r.factor = c.worst_nway;
    r.extra_cycles = c.extra_cycles;
    if ((s = strided_cost(&ck, lanes, elem_bytes, elem_bytes, &c, err))) return s;
    r.factor_soa = c.worst_nway;
    r.extra_soa = c.extra_cycles;
    r.pad = -1;
    for (int64_t p = 0; p <= 2 * (int64_t)arch->n_banks; p++) {
        if ((s = strided_cost(&ck, lanes, (stride + p) * elem_bytes, elem_bytes, &c, err))) return s;
        if (c.extra_cycles <= r.extra_soa) {
            r.pad = p;
            r.factor_padded = c.worst_nway;
            r.extra_padded = c.extra_cycles;
            break;
        }
    }
    *out = r;
    return layout_ok(err);
}
