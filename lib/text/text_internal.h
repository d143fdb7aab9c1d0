/* Private to lib/text: the scanner and builder pieces that only its own
 * parsers and printers use, on top of text_scan.h.  Not installed. */
#ifndef LAYOUT_TEXT_INTERNAL_H
#define LAYOUT_TEXT_INTERNAL_H

#include "text_scan.h"

/* Consume the two-character token "->" (or fail "expected <what>"). */
layout_status layout_tx_expect_arrow(text_cursor *c, const char *what);

/* Read "[a, b, ...]" of at most max int dim ids (each must fit in an int;
 * their range is checked by the library); "[]" gives *n = 0. */
layout_status layout_tx_id_list(text_cursor *c, int *out, int max, int *n, const char *what);

/* Offset of item k (0-based) of the "[a, b, ...]" list of integers whose
 * '[' is at offset `open` (whitespace and comments skipped), for carets
 * under the item a semantic error names; `open` when the list is shorter
 * or malformed. */
size_t layout_tx_list_item_at(const char *text, size_t open, int k);

/* Append "[a, b, ...]" of n int64 values / int dim ids to o. */
void layout_to_int_list(text_out *o, const int64_t *v, int n);
void layout_to_id_list(text_out *o, const int *v, int n);

#endif /* LAYOUT_TEXT_INTERNAL_H */
