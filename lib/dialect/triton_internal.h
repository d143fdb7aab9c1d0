/* Private helpers shared by the Triton dialect files (lib/dialect/triton_*.c).
 * Not installed. */
#ifndef LAYOUT_TRITON_INTERNAL_H
#define LAYOUT_TRITON_INTERNAL_H

#include "dialect_internal.h"
#include "layout/family.h"
#include "layout/linear.h"
#include "layout/triton.h"


/* The padded_shared pairs the reader accepts (and so the recogniser
 * proposes): intervals up to 2^40, paddings up to 2^20 elements.  fuzz_dialect
 * found an export of [1:+2^42] that did not read back. */
#define TX_MAX_INTERVAL_LOG2 LAYOUT_TRITON_MAX_INTERVAL_LOG2
#define TX_MAX_PAD_LOG2 LAYOUT_TRITON_MAX_PAD_LOG2
#define TX_MAX_INTERVAL ((int64_t)1 << TX_MAX_INTERVAL_LOG2)
#define TX_MAX_PAD ((int64_t)1 << TX_MAX_PAD_LOG2)
#define FN_PARSE "layout_triton_from_text"
#define MAX_BASES 64

/* The same linear layout without its `block` input dim, which must have
 * no bits (one CTA); LAYOUT_ERR_UNSUPPORTED otherwise (triton_desc.c). */
layout_status layout_triton_drop_empty_block(const layout_linear *ll, layout_linear *out, layout_error *err);

/* triton_shared.c: amd_rotating_shared on a 2-D shape as ck_tile transforms
 * (the same offsets as the inverse of layout_triton_shared_linear()). */
layout_status layout_triton_rotating_to_desc(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                             layout_descriptor *out, layout_error *err);

/* triton_lex.c: the readers' shared pieces.  A field name (bare or quoted). */
layout_status layout_triton_read_key(text_cursor *c, char *buf, size_t cap, size_t *at, const char *what);
/* '=' or ':' after a field name. */
layout_status layout_triton_read_sep(text_cursor *c);
/* A list of powers of two. */
/* '[' '[' ints ']' {',' ..} ']' with every row `*width` wide (*width < 0:
 * set by the first row); rows appended to vals (LAYOUT_TRITON_MAX_RANK a row). */
layout_status layout_triton_read_bases(text_cursor *c, int64_t *vals, int max_rows, int *width, int *rows,
                                       size_t *row_at, const char *what);
/* The dict of a #ttg.linear (attr_form) or of the from_bases form, into a->linear and a->rank. */
layout_status layout_triton_read_linear(text_cursor *c, layout_triton_attr *a, int attr_form);
/* A list of at most cap ints, all powers of two. */
layout_status layout_triton_read_pow2_list(text_cursor *c, int64_t *out, int cap, int *n, const char *name);
/* An order: a permutation of 0..n-1. */
layout_status layout_triton_read_order(text_cursor *c, int *order, int *n);
/* CTAsPerCGA / CTASplitNum / CTAOrder: one CTA only. */
layout_status layout_triton_read_cga(text_cursor *c, const char *key, size_t at);
/* The blocked attribute after its '#ttg.blocked' prefix (sets the blocked fields and rank). */
layout_status layout_triton_read_blocked(text_cursor *c, layout_triton_attr *a);

/* triton_mma_text.c: #ttg.amd_mfma / amd_wmma / nvidia_mma / dot_op / slice
 * at the cursor: LAYOUT_TRITON_NO_MMA (cursor unchanged) when none of those
 * prefixes is there, else the status of reading it into *a. */
#define LAYOUT_TRITON_NO_MMA (-1)
int layout_triton_read_mma(text_cursor *c, layout_triton_attr *a);

/* triton_mma_text.c: print the MMA, dot_op and slice kinds; print the blocked fields. */
void layout_triton_print_mma(text_out *o, const layout_triton_attr *a);
void layout_triton_print_blocked(text_out *o, const layout_triton_attr *a);

#endif
