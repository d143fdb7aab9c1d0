/* layout_check(): check instruction sets and collect a fixed-capacity
 * report (the numbers; printing lives in lib/check/report.c). */
#include "check_internal.h"
#include "../core/internal.h"
#include "layout/report.h"

#include <string.h>

layout_status layout_check_report_init(layout_check_report *report, const layout_arch *arch, layout_error *err)
{
    if (!report) return layout_fail(err, LAYOUT_ERR_NULL, "layout_check_report_init: report is NULL");
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, "layout_check_report_init: arch is NULL");
    memset(report, 0, sizeof *report);
    const char *end = memchr(arch->name, '\0', sizeof arch->name - 1);
    size_t n = end ? (size_t)(end - arch->name) : sizeof arch->name - 1;
    memcpy(report->arch_name, arch->name, n);
    report->impl = LAYOUT_IMPL_SCALAR;
    return layout_ok(err);
}

layout_status layout_check_report_add(layout_check_report *report, const layout_checker *checker,
                                      const char *label, const layout_instr *instrs, size_t n, layout_error *err)
{
    static const char fn[] = "layout_check_report_add";
    if (!report) return layout_fail(err, LAYOUT_ERR_NULL, "%s: report is NULL", fn);
    if (!checker || !checker->arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: checker is NULL", fn);
    if (!label) label = "instrs";
    size_t len = strlen(label);
    if (len >= LAYOUT_REPORT_LABEL_CAP)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: label = \"%.40s\" is longer than %d characters", fn, label,
                           LAYOUT_REPORT_LABEL_CAP - 1);
    if (strncmp(report->arch_name, checker->arch->name, sizeof report->arch_name) != 0)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: checker arch \"%.31s\" differs from the report's \"%.31s\"",
                           fn, checker->arch->name, report->arch_name);
    if (report->n_sides < 0 || report->n_sides >= LAYOUT_REPORT_MAX_SIDES)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: report already has %d sides (max %d)", fn,
                           report->n_sides, LAYOUT_REPORT_MAX_SIDES);
    layout_status st = layout_checker_validate_all(fn, checker, instrs, n, err);
    if (st) return st;

    layout_report_side *side = &report->sides[report->n_sides];
    memset(side, 0, sizeof *side);
    memcpy(side->label, label, len + 1);
    layout_cost_totals *t = &side->totals;
    t->n_instrs = n;
    for (size_t i = 0; i < n; i++) {
        layout_cost c;
        layout_checker_cost_unchecked(checker, &instrs[i], &c);
        t->extra_cycles += c.extra_cycles;
        t->total_cycles += c.total_cycles;
        if (c.worst_nway > t->worst_nway) t->worst_nway = c.worst_nway;
        if (i == 0 || c.extra_cycles > t->worst_extra) t->worst_extra = c.extra_cycles, t->worst_index = i;
        if (c.extra_cycles > 0) {
            if (side->n_listed < LAYOUT_REPORT_MAX_LISTED) {
                side->listed_index[side->n_listed] = i;
                side->listed_extra[side->n_listed++] = c.extra_cycles;
            }
            t->n_conflicted++;
        }
    }
    if (n) {
        const layout_instr *w = &instrs[t->worst_index];
        side->has_worst = 1;
        /* Field by field, not a struct copy: the caller's padding bytes may be
         * uninitialised, and a report must be fully defined (memcmp-able). */
        side->worst_instr.n_lanes = w->n_lanes;
        side->worst_instr.active_mask = w->active_mask;
        side->worst_instr.width_bytes = w->width_bytes;
        side->worst_instr.direction = w->direction;
        memcpy(side->worst_instr.addr_bytes, w->addr_bytes, sizeof w->addr_bytes);
        layout_cost_scalar(checker->arch, &checker->arch->rules[w->direction][layout_width_index(w->width_bytes)], w,
                           &side->worst_detail);
    }
    report->impl = checker->impl;
    report->n_sides++;
    report->n_instrs += n;
    report->extra_cycles += t->extra_cycles;
    report->total_cycles += t->total_cycles;
    return layout_ok(err);
}

int64_t layout_check_with(const layout_checker *checker, const layout_instr *instrs, size_t n,
                          layout_check_report *report, layout_error *err)
{
    if (!checker || !checker->arch) return layout_fail(err, LAYOUT_ERR_NULL, "layout_check_with: checker is NULL");
    layout_check_report local; /* filled aside so *report stays untouched on error */
    layout_check_report_init(&local, checker->arch, NULL);
    layout_status st = layout_check_report_add(&local, checker, "instrs", instrs, n, err);
    if (st) return st;
    if (report) *report = local;
    return local.extra_cycles;
}

int64_t layout_check(const layout_arch *arch, const layout_instr *instrs, size_t n, layout_check_report *report,
                     layout_error *err)
{
    layout_checker ck;
    layout_status st = layout_checker_init(&ck, arch, LAYOUT_IMPL_AUTO, err);
    if (st) return st;
    return layout_check_with(&ck, instrs, n, report, err);
}
