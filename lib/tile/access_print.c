/* Printing access plans: the one-line instruction summary
 * (layout_access_plan_print) and the explanation of one step, with the
 * first misaligned lane's address (layout_access_step_explain). */
#include "../core/strbuf.h"
#include "layout/access.h"
#include "access_internal.h"

int layout_access_plan_print(const layout_access_plan *plan, char *buf, size_t cap)
{
    return layout_access_plan_print_vendor(plan, LAYOUT_VENDOR_AMD, buf, cap);
}

int layout_access_plan_print_vendor(const layout_access_plan *plan, layout_vendor vendor, char *buf, size_t cap)
{
    layout_strbuf t;
    layout_sb_init(&t, buf, cap);
    if (!plan) {
        layout_sb_printf(&t, "(null plan)");
        return layout_sb_result(&t);
    }
    int seen[LAYOUT_DS_OP_COUNT] = {0};
    int first = 1;
    for (int i = 0; i < plan->n_steps; i++) {
        layout_ds_op op = plan->steps[i].op;
        if (seen[op]) continue;
        seen[op] = 1;
        layout_sb_printf(&t, "%s%d x %s", first ? "" : " + ", plan->op_count[op],
                         layout_ds_op_vendor_name(op, plan->direction, vendor));
        first = 0;
    }
    if (plan->n_misaligned) layout_sb_printf(&t, " [%d misaligned]", plan->n_misaligned);
    if (plan->n_noncontiguous) layout_sb_printf(&t, " [%d non-contiguous]", plan->n_noncontiguous);
    return layout_sb_result(&t);
}

int layout_access_step_explain(const layout_access_plan *plan, int step, char *buf, size_t cap)
{
    return layout_access_step_explain_vendor(plan, step, LAYOUT_VENDOR_AMD, buf, cap);
}

int layout_access_step_explain_vendor(const layout_access_plan *plan, int step, layout_vendor vendor, char *buf,
                                      size_t cap)
{
    layout_strbuf t;
    layout_sb_init(&t, buf, cap);
    if (!plan || step < 0 || step >= plan->n_steps) return layout_sb_result(&t);
    const layout_access_step *st = &plan->steps[step];
    layout_sb_printf(&t, "step %d %s (access %d, positions %d..%d, +%d bytes): %d-byte aligned", step,
                     layout_ds_op_vendor_name(st->op, plan->direction, vendor), st->access, st->seq_first,
                     st->seq_first + st->elem_dir * (st->n_elems - 1), st->byte_offset, st->align_bytes);
    if (st->pair_step >= 0) layout_sb_printf(&t, "; paired with step %d", st->pair_step);
    if (st->flags == LAYOUT_ACCESS_NONCONTIGUOUS)
        layout_sb_printf(&t, "; non-contiguous: warp %d lane %d's elements are not adjacent in LDS", st->bad_warp,
                         st->bad_lane);
    else if (st->flags & LAYOUT_ACCESS_NONCONTIGUOUS)
        layout_sb_printf(&t, "; non-contiguous: the elements of its vector are not adjacent in LDS");
    if (st->flags & LAYOUT_ACCESS_MISALIGNED) {
        int64_t a = -1;
        if (st->bad_warp >= 0) layout_access_elem_addr(plan, st->bad_warp, st->bad_lane, st->seq_first, &a, NULL);
        layout_sb_printf(&t, "; misaligned: needs %d-byte alignment, warp %d lane %d is at byte %lld",
                layout_ds_op_align(st->op), st->bad_warp, st->bad_lane, a < 0 ? -1LL : (long long)(a + st->byte_offset));
    }
    if (st->flags) {
        layout_sb_printf(&t, "; needs");
        int first = 1;
        for (int op = 1; op < LAYOUT_DS_OP_COUNT; op++)
            if (st->split_count[op]) {
                layout_sb_printf(&t, "%s %d x %s", first ? "" : " +", st->split_count[op],
                        layout_ds_op_vendor_name((layout_ds_op)op, plan->direction, vendor));
                first = 0;
            }
    }
    return layout_sb_result(&t);
}
