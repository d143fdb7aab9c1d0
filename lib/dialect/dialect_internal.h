/* Private helpers shared by the dialect parsers and printers (lib/dialect/).
 * Not installed.  The parsers reuse the text forms' scanner (text_internal.h);
 * these add what the foreign syntaxes need: raw prefixes that contain '#'
 * (the scanner reads '#' as a comment), whole-tile comparisons of
 * descriptors, and a bounded builder of stage items. */
#ifndef LAYOUT_DIALECT_INTERNAL_H
#define LAYOUT_DIALECT_INTERNAL_H

#include "../text/text_scan.h"
#include "../core/bits.h"
#include "layout/descriptor.h"

#include <stddef.h>
#include <stdint.h>

/* Largest tile (coordinates) the recognisers walk when they decide whether
 * a descriptor is expressible in a dialect. */
#define DX_MAX_TILE LAYOUT_DIALECT_MAX_TILE

/* Skip spaces, tabs and newlines only (not '#' comments). */
void layout_dx_skip_blank(text_cursor *c);

/* Consume the literal `word` at the cursor (after blanks); 1 when consumed. */
int layout_dx_accept_raw(text_cursor *c, const char *word);

/* Expect the identifier `name`; fails "expected <what>". */
layout_status layout_dx_expect_ident(text_cursor *c, const char *name, const char *what);

/* Row-major coordinate of linear index k over the descriptor's top lengths. */
void layout_dx_coord(const layout_descriptor *d, int64_t k, int64_t *coord);

/* The tile size, or -1 (err filled, prefixed with fn) when larger than
 * DX_MAX_TILE. */
int64_t layout_dx_tile_size(const layout_descriptor *d, const char *fn, layout_error *err);

/* Compare two descriptors over the whole tile (same top lengths, offsets
 * and validity).  Returns -1 when equal, else the first row-major index that
 * differs (or 0 when the top lengths differ). */
int64_t layout_dx_first_difference(const layout_descriptor *a, const layout_descriptor *b);

/* One stage under construction: items appended in order. */
typedef struct dx_stage {
    int n;
    layout_transform t[LAYOUT_MAX_TRANSFORMS];
    layout_seq lo[LAYOUT_MAX_TRANSFORMS];
    layout_seq up[LAYOUT_MAX_TRANSFORMS];
} dx_stage;

void layout_dx_stage_init(dx_stage *s);
/* Append transform t with lower ids lo[0..nl) and upper ids up[0..nu). */
void layout_dx_stage_add(dx_stage *s, const layout_transform *t, int nl, const int *lo, int nu, const int *up);
/* Apply the stage to *d in place. */
layout_status layout_dx_stage_apply(layout_descriptor *d, const dx_stage *s, layout_error *err);

/* The writers' promise (limits.h): what a writer prints, its reader reads.
 * After a writer rendered buf, it calls this with the reader's verdict
 * `back` (and the reader's message in *back_err): on a refusal buf is
 * emptied and the call fails with LAYOUT_ERR_UNSUPPORTED naming the
 * reader's reason, so no caller ever holds text its reader refuses. */
layout_status layout_dx_reads_back(const char *fn, layout_status back, const layout_error *back_err, char *buf,
                                   layout_error *err);

/* A writer's whole body: render obj with print into buf, then read it back
 * with reread(buf, ctx, ...) and refuse it as layout_dx_reads_back() does. */
typedef layout_status (*layout_dx_reader)(const char *text, const void *ctx, layout_error *err);
layout_status layout_dx_render_read_back(int (*print)(struct text_out *, const void *), const void *obj, char *buf,
                                         size_t cap, const char *fn, layout_dx_reader reread, const void *ctx,
                                         layout_error *err);

#endif /* LAYOUT_DIALECT_INTERNAL_H */
