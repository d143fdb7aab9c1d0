/* The IR reader (ir.c) as the TTGIR reader (ttgir.c) calls it. */
#ifndef LAYOUT_TTGIR_IR_INTERNAL_H
#define LAYOUT_TTGIR_IR_INTERNAL_H

#include "layout/ttgir.h"

/* Read m->text (m->len bytes, already checked by wellformed.c) into
 * m->ir, the aliases and the location definitions. */
layout_status layout_ttgir_ir_read(layout_ttgir *m, layout_error *err);

/* Op `op` (in range) is named `name`. */
int layout_ttgir_ir_name_is(const layout_ttgir *m, int op, const char *name);

/* A type's text [at, at + len) parsed (tensor, memdesc, `<...>`, or a
 * scalar: rank 0); *kept = 0 for a type that is neither tensor nor
 * memdesc.  Errors name the line and column of the text. */
layout_status layout_ttgir_type_read(const layout_ttgir *m, size_t at, size_t len, layout_ttgir_type *out, int *kept,
                                     layout_error *err);

#endif /* LAYOUT_TTGIR_IR_INTERNAL_H */
