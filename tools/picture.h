/* Building SVG pictures (svg.h) from library objects. */
#ifndef LAYOUT_TOOL_PICTURE_H
#define LAYOUT_TOOL_PICTURE_H

#include "layout.h"
#include "svg.h"

#include <stddef.h>
#include <stdint.h>

/* Bank of every cell of a 2-D descriptor (row-major, -1 for padding) for
 * elements of elem_bytes at base_bytes + offset * elem_bytes; optionally the
 * first and last bank word each cell touches.  0 or -1 (err filled). */
int picture_banks(const layout_descriptor *d, const layout_arch *arch, int elem_bytes, int64_t base_bytes,
                  int *banks, int64_t *first_word, int64_t *last_word, layout_error *err);

/* Lane panel of one instruction: lanes ordered by the library's groups
 * (layout_instr_explain), banks of every word a lane touches, conflicts
 * marked; the conflicting words are appended to hot_words.  0 or -1. */
int picture_instr(const layout_arch *arch, const layout_instr *in, const char *heading, svg_instr *out,
                  int64_t *hot_words, int *n_hot, int max_hot, layout_error *err);

/* hot[k] = 1 when cell k touches one of the hot words. */
void picture_mark_hot(const int64_t *first_word, const int64_t *last_word, size_t n_cells, const int64_t *hot_words,
                      int n_hot, unsigned char *hot);

#endif /* LAYOUT_TOOL_PICTURE_H */
