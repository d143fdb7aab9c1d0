/* Seed 002's stride lint (lint.h): every number comes from the checker; the
 * closed form is reported next to it for the cases it covers. */
#include "../core/internal.h"
#include "../core/bits.h"
#include "layout/lint.h"

#include <string.h>

#define FN "layout_stride_lint"

/* Costs of one wave reading and writing arr[tid * S]. */
static layout_status cost_at(const layout_checker *c, int elem, int64_t S, layout_cost *rd, layout_cost *wr,
                             layout_error *err)
{
    layout_instr in;
    layout_status s;
    for (int d = 0; d < 2; d++) {
        if ((s = layout_instr_init(&in, c->arch->wave_size, elem, (layout_direction)d, err))) return s;
        if ((s = layout_instr_fill_strided(&in, 0, S * elem, err))) return s;
        if ((s = layout_checker_cost(c, &in, d == LAYOUT_READ ? rd : wr, err))) return s;
    }
    return LAYOUT_OK;
}

static int factor(const layout_cost *r, const layout_cost *w)
{
    return r->worst_nway > w->worst_nway ? r->worst_nway : w->worst_nway;
}

layout_status layout_stride_lint(const layout_arch *arch, int elem_bytes, int64_t stride_elems,
                                 layout_stride_lint_result *out, layout_error *err)
{
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, FN ": arch is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, FN ": out is NULL");
    if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8 && elem_bytes != 16)
        return layout_fail(err, LAYOUT_ERR_ARG, FN ": elem_bytes = %d must be 1, 2, 4, 8 or 16", elem_bytes);
    const int64_t span = (int64_t)4 * LAYOUT_MAX_BANKS * 8; /* fix search window, elements */
    if (stride_elems < 0 || stride_elems > ((int64_t)1 << 32) / (64 * 16) - span)
        return layout_fail(err, LAYOUT_ERR_ARG, FN ": stride_elems = %lld must be in 0..%lld", (long long)stride_elems,
                           (long long)(((int64_t)1 << 32) / (64 * 16) - span));
    layout_checker c;
    layout_status s = layout_checker_init(&c, arch, LAYOUT_IMPL_SCALAR, err);
    if (s) return s;
    const layout_lane_rule *rr = layout_arch_rule(arch, LAYOUT_READ, elem_bytes);
    const layout_lane_rule *wr = layout_arch_rule(arch, LAYOUT_WRITE, elem_bytes);
    if (!rr->supported || !wr->supported)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, FN ": %s has no %d-byte LDS %s", arch->name, elem_bytes,
                           rr->supported ? "store" : "load");
    layout_stride_lint_result r;
    memset(&r, 0, sizeof r);
    r.stride_elems = stride_elems;
    r.elem_bytes = elem_bytes;
    if ((s = cost_at(&c, elem_bytes, stride_elems, &r.read, &r.write, err))) return s;
    r.conflict_factor = factor(&r.read, &r.write);

    /* banks touched by the first group of the load */
    uint64_t seen = 0;
    for (int l = 0; l < arch->wave_size; l++)
        if (rr->groups[0] >> l & 1) {
            int64_t first = l * stride_elems * elem_bytes / arch->bank_width_bytes;
            int64_t last = (l * stride_elems * elem_bytes + elem_bytes - 1) / arch->bank_width_bytes;
            for (int64_t wd = first; wd <= last; wd++) seen |= (uint64_t)1 << (wd % arch->n_banks);
        }
    for (int b = 0; b < arch->n_banks; b++) r.distinct_banks += (int)(seen >> b & 1);

    /* closed form: one word per lane, groups of G consecutive lanes */
    int G = __builtin_popcountll(rr->groups[0]), consecutive = 1;
    for (int g = 0; g < rr->n_groups; g++)
        consecutive &= g * G < 64 && rr->groups[g] == (((G == 64 ? ~0ull : (((uint64_t)1 << G) - 1))) << (g * G));
    if (elem_bytes == 4 && arch->bank_width_bytes == 4 && consecutive && rr->n_fold_xors == 0) {
        int64_t g = layout_gcd(stride_elems, arch->n_banks);
        r.closed_form_applies = 1;
        r.closed_form_nway = stride_elems == 0 ? 1 : (int)((G * g + arch->n_banks - 1) / arch->n_banks);
    }

    /* smallest padding that removes the conflict (else the best in the window) */
    int best = 1 << 30;
    for (int64_t S2 = stride_elems; S2 <= stride_elems + span; S2++) {
        layout_cost a, b;
        if ((s = cost_at(&c, elem_bytes, S2, &a, &b, err))) return s;
        int f = factor(&a, &b);
        if (f < best) {
            best = f;
            r.fix_stride_elems = S2;
            r.fix_conflict_factor = f;
            r.fix_extra_cycles = a.extra_cycles + b.extra_cycles;
        }
        if (f <= 1) break;
    }
    layout_cost a, b;
    if ((s = cost_at(&c, elem_bytes, 1, &a, &b, err))) return s;
    r.soa_conflict_factor = factor(&a, &b);
    r.soa_extra_cycles = a.extra_cycles + b.extra_cycles;
    *out = r;
    return layout_ok(err);
}
