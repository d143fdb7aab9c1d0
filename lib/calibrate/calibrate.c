/* Prediction against measurement (calibrate.h). */
#include "../core/internal.h"
#include "layout/calibrate.h"

#include <string.h>

int layout_calibrate_predict(const layout_arch *arch, const layout_kernel_result *r, layout_counter c, int64_t *out)
{
    int nvidia, amd;
    int64_t v;
    if (!arch || !r || !out) return 0;
    nvidia = layout_arch_vendor(arch) == LAYOUT_VENDOR_NVIDIA;
    amd = layout_arch_vendor(arch) == LAYOUT_VENDOR_AMD;
    switch (c) {
    case LAYOUT_CTR_SHARED_ST_CONFLICTS: v = r->write.sq_lds_bank_conflict; break;
    case LAYOUT_CTR_SHARED_LD_CONFLICTS: v = r->read.sq_lds_bank_conflict; break;
    case LAYOUT_CTR_SHARED_ST_WAVEFRONTS: v = r->write.total_cycles_per_tile * r->tiles; break;
    case LAYOUT_CTR_SHARED_LD_WAVEFRONTS: v = r->read.total_cycles_per_tile * r->tiles; break;
    case LAYOUT_CTR_SHARED_ST_INSTS: v = r->write.sq_insts_lds; break;
    case LAYOUT_CTR_SHARED_LD_INSTS: v = r->read.sq_insts_lds; break;
    case LAYOUT_CTR_SQ_LDS_BANK_CONFLICT: v = r->sq_lds_bank_conflict; break;
    case LAYOUT_CTR_SQ_INSTS_LDS: v = r->sq_insts_lds; break;
    default: return 0;
    }
    if (c <= LAYOUT_CTR_SHARED_LD_INSTS ? !nvidia : !amd) return 0;
    *out = v;
    return 1;
}

layout_status layout_calibrate(const layout_arch *arch, const layout_kernel_result *result,
                               const layout_profile_dispatch *measured, layout_calibration *out, layout_error *err)
{
    layout_calibration c;
    int k;
    if (!arch || !result || !measured || !out)
        return layout_fail(err, LAYOUT_ERR_NULL, "layout_calibrate: arch, result, measured or out is NULL");
    memset(&c, 0, sizeof c);
    c.all_equal = 1;
    for (k = 0; k < LAYOUT_CTR_COUNT; k++) {
        int64_t p;
        if (!(measured->present >> k & 1) || !layout_calibrate_predict(arch, result, (layout_counter)k, &p)) continue;
        c.rows[c.n_rows].counter = (layout_counter)k;
        c.rows[c.n_rows].predicted = p;
        c.rows[c.n_rows].measured = measured->value[k];
        c.rows[c.n_rows].equal = p == measured->value[k];
        c.all_equal &= c.rows[c.n_rows].equal;
        c.n_rows++;
    }
    if (c.n_rows == 0)
        return layout_fail(err, LAYOUT_ERR_MISMATCH,
                           "layout_calibrate: dispatch '%.60s' measured none of the counters %s predicts",
                           measured->kernel, arch->name);
    *out = c;
    return layout_ok(err);
}
