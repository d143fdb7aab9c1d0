/* Private: adaptor building blocks shared by adaptor.c, descriptor.c and
 * verify.c.  Not installed. */
#ifndef LAYOUT_ADAPTOR_INTERNAL_H
#define LAYOUT_ADAPTOR_INTERNAL_H

#include "layout/adaptor.h"
#include "transform_table.h"

/* layout_adaptor_from_hidden with the public function name `fn` for messages. */
layout_status layout_adaptor_build(const char *fn, layout_adaptor *out, int n_transforms,
                                   const layout_transform *transforms, const layout_seq *lower_hidden,
                                   const layout_seq *upper_hidden, int n_bottom, const int *bottom_hidden, int n_top,
                                   const int *top_hidden, layout_error *err);

/* layout_adaptor_transform with the public function name `fn`. */
layout_status layout_adaptor_stage(const char *fn, layout_adaptor *out, const layout_adaptor *in, int n_transforms,
                                   const layout_transform *transforms, const layout_seq *lower_ids,
                                   const layout_seq *upper_ids, layout_error *err);

/* A query's checks: obj, coord and out non-NULL (named in the message),
 * then coord within a's top lengths.  a may be NULL only when obj is. */
layout_status layout_check_query(const char *fn, const void *obj, const char *obj_name, const layout_adaptor *a,
                                 const int64_t *coord, const char *coord_name, const void *out, const char *out_name,
                                 layout_error *err);

/* All hidden values of an in-range top index (as
 * layout_adaptor_calculate_hidden_unchecked); returns its validity. */
int layout_adaptor_eval(const layout_adaptor *a, const int64_t *top, int64_t *hidden);

/* The bottom / transforms / top lines of a print. */
void layout_adaptor_print_to(const layout_adaptor *a, layout_strbuf *sb);

#endif /* LAYOUT_ADAPTOR_INTERNAL_H */
