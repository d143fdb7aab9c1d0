/* Layout families (family.h).  First commit: API stubs only. */
#include "../internal.h"
#include "layout/family.h"

const char *layout_family_name(layout_family_kind kind) { (void)kind; return "?"; }
layout_status layout_family_from_name(const char *name, layout_family_kind *out, layout_error *err)
{ (void)name; (void)out; return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "layout_family_from_name: not yet implemented"); }
layout_status layout_family_check(const layout_family_params *params, const int64_t tile[2], layout_error *err)
{ (void)params; (void)tile; return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "layout_family_check: not yet implemented"); }
layout_status layout_family_build(const layout_family_params *params, const int64_t tile[2], layout_descriptor *out, layout_error *err)
{ (void)params; (void)tile; (void)out; return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "layout_family_build: not yet implemented"); }
layout_status layout_family_lds_bytes(const layout_family_params *params, const int64_t tile[2], int elem_bytes, int64_t *bytes, layout_error *err)
{ (void)params; (void)tile; (void)elem_bytes; (void)bytes; return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "layout_family_lds_bytes: not yet implemented"); }
int layout_family_params_print(const layout_family_params *params, char *buf, size_t cap) { (void)params; if (buf && cap) buf[0] = 0; return 0; }
layout_status layout_family_iter_init(layout_family_iter *it, layout_family_kind kind, const int64_t tile[2], int contiguous_dim, int elem_bytes, int64_t budget_bytes, layout_error *err)
{ (void)it; (void)kind; (void)tile; (void)contiguous_dim; (void)elem_bytes; (void)budget_bytes; return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "layout_family_iter_init: not yet implemented"); }
int layout_family_iter_next(layout_family_iter *it, layout_family_params *out) { (void)it; (void)out; return 0; }
