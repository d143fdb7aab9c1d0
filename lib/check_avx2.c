/* AVX2 implementation of the phase model (see check.h).  Compiled with
 * -mavx2 on x86; elsewhere this file is a stub that reports itself absent. */
#include "check_internal.h"

#ifdef __AVX2__
int layout_avx2_compiled(void) { return 1; }
#else
int layout_avx2_compiled(void) { return 0; }
#endif

/* Until the vector body lands the AVX2 entry point forwards to the scalar
 * reference, so forcing it is still exact. */
void layout_cost_avx2(const layout_arch *arch, const layout_lane_rule *rule, const layout_checker_rule *prep,
                      const layout_instr *instr, layout_cost *out)
{
    layout_cost_detail d;
    (void)prep;
    layout_cost_scalar(arch, rule, instr, &d);
    *out = d.cost;
}
