/* The TTGIR reader's whole-text checks (not installed; lib/ttgir only). */
#ifndef LAYOUT_TTGIR_WELLFORMED_INTERNAL_H
#define LAYOUT_TTGIR_WELLFORMED_INTERNAL_H

#include "layout/ttgir.h"

/* Before the read: the text is not blank; no `triton_gpu.` (Triton < 3.2);
 * every string and every '<' closed on its line ("->" is no bracket);
 * every '(' '[' '{' closed by its own kind, nested at most 256 deep.
 * LAYOUT_ERR_PARSE "layout_ttgir_parse: line L, column C: ..." else. */
layout_status layout_ttgir_check_text(const char *text, size_t len, layout_error *err);

/* After the read: every `#name` inside a `loc(...)` is one of m's location
 * definitions (the definitions come last: a cut among them leaves
 * references).  LAYOUT_ERR_PARSE naming the location and its place. */
layout_status layout_ttgir_check_locs(const layout_ttgir *m, layout_error *err);

#endif
