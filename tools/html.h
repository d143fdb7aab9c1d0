/* Interactive bank-map pages: one self-contained HTML file (inline CSS and
 * plain JavaScript, no network, no external script, font or image) holding
 * the data as JSON in a <script type="application/json"> block.
 *
 * The data is computed here, per architecture, with the library and the
 * SVG pictures' gathering code (picture.h): the bank of every tile cell and,
 * for `check`, every DS instruction of every warp of both sides with its
 * lane byte addresses, the checker's cost, its lane groups (cycles, N-way,
 * worst bank) and the words that collide in each group.  The page's script
 * only draws it: the grid coloured by bank, a hover panel (coordinate,
 * offset, byte address, bank, the lanes of each side that touch the cell),
 * controls for architecture, side, warp and instruction, and the selected
 * instruction's lanes, lane groups and colliding words.  The page itself is
 * html_page.c. */
#ifndef LAYOUT_TOOL_HTML_H
#define LAYOUT_TOOL_HTML_H

#include "layout.h"

#include <stdint.h>
#include <stdio.h>

#define HTML_MAX_ARCHES 8         /* architectures one page switches between */
#define HTML_MAX_CELLS (1 << 16)  /* tile cells one page draws (one DOM element each) */

/* Every --arch of argv[1..]: the option may be repeated and each value may be
 * a comma list (split at commas outside parentheses, so arch(...) texts keep
 * theirs; an @FILE value is not split).  Each is parsed like --arch; none
 * given: `fallback`.  Returns 0, or TOOL_BAD_INPUT after printing why. */
int html_parse_arches(const char *cmd, int argc, char **argv, const char *fallback, layout_arch *arches, int max,
                      int *n);

/* What `layout check` checked, for the page. */
typedef struct html_check {
    const layout_descriptor *lds;       /* LDS view of the write side: the tile drawn (2-D) */
    const layout_descriptor *read_lds;  /* view of the read side; NULL = lds */
    const layout_distribution *write_dist, *read_dist; /* parsed for the arches' wave size */
    int elem_bytes;
    int64_t base_bytes;
    int64_t tiles;
} html_check;

/* Write the page of `layout banks` (the descriptor's bank grid on each
 * arch).  Returns 0, or TOOL_BAD_INPUT after printing why. */
int html_write_banks(const char *path, const layout_descriptor *d, const layout_arch *arches, int n_arches,
                     int elem_bytes, int64_t base_bytes);

/* Write the page of `layout check` (grid and every instruction, each arch;
 * every arch must have the distributions' wave size).  Returns 0, or
 * TOOL_BAD_INPUT after printing why. */
int html_write_check(const char *path, const html_check *c, const layout_arch *arches, int n_arches);

/* The page template, one line per string, NULL-terminated; the line
 * "@DATA@\n" stands for the JSON data (html_page.c). */
extern const char *const html_page_lines[];

#endif /* LAYOUT_TOOL_HTML_H */
