/* layout offsets SPEC [--valid]: the element offset of every coordinate. */
#include "tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COORDS (1 << 22) /* refuse to print more than ~4M numbers */

static int run(int argc, char **argv);

const tool_command tool_cmd_offsets = {
    "offsets", "the element offset of every coordinate (grid for 2-D, list otherwise)",
    "usage: layout offsets SPEC [--valid]\n"
    "\n"
    "Print the element offset of every top coordinate of the descriptor SPEC:\n"
    "a grid for a 2-D descriptor (d0 down, d1 across), one `(i,j,k) offset`\n"
    "line per coordinate otherwise.  The first line (starting with #) gives\n"
    "the canonical spec, the lengths and the element space size.\n"
    "\n"
    "  --valid   mark coordinates in padding (rejected by a pad transform)\n"
    "            with a trailing '*'\n"
    "\n"
    "example: layout offsets 'naive([4,8],[8,1]) | T{pad(4,0,1):[0]->[0] ; pass(8):[1]->[1]}' --valid\n",
    run};

void tool_print_desc_header(const layout_descriptor *d, const char *what)
{
    char text[LAYOUT_TEXT_CAP];
    int i, n = layout_desc_ndims(d);
    if (layout_desc_to_text(d, text, sizeof text, NULL) != LAYOUT_OK) strcpy(text, "(descriptor)");
    printf("# %s%s%s\n# lengths ", what ? what : "", what ? " of " : "", text);
    for (i = 0; i < n; i++) printf("%s%" PRId64, i ? " x " : "", layout_desc_length(d, i));
    printf(", element space %" PRId64 " elements\n", layout_desc_element_space_size(d));
}

static int digits(int64_t v)
{
    int n = v < 0 ? 2 : 1;
    while (v >= 10 || v <= -10) {
        v /= 10;
        n++;
    }
    return n;
}

static int run(int argc, char **argv)
{
    const char *spec = NULL;
    int valid_marks = 0, n;
    int64_t total, k, coord[LAYOUT_MAX_DIMS], width = 1;
    layout_descriptor d;
    layout_error e;
    {
        int n_pos;
        const tool_option opts[] = {{"--valid", NULL, &valid_marks}, {NULL, NULL, NULL}};
        if (tool_parse_args("offsets", argc, argv, opts, &spec, 1, &n_pos)) return TOOL_BAD_INPUT;
    }
    if (!spec) return tool_error("offsets", "missing SPEC (see layout offsets --help)");
    if (tool_parse_desc("offsets", spec, &d)) return TOOL_BAD_INPUT;
    n = layout_desc_ndims(&d);
    total = layout_desc_size(&d);
    if (total > MAX_COORDS)
        return tool_error("offsets", "the descriptor has %" PRId64 " coordinates; at most %d are printed", total,
                          MAX_COORDS);
    tool_print_desc_header(&d, "offsets");
    /* Widest offset first, so columns line up. */
    memset(coord, 0, sizeof coord);
    for (k = 0; k < total; k++) {
        int64_t off, rest = k;
        int j;
        for (j = n - 1; j >= 0; j--) {
            coord[j] = rest % layout_desc_length(&d, j);
            rest /= layout_desc_length(&d, j);
        }
        if (layout_desc_offset(&d, coord, &off, &e)) return tool_error("offsets", "%s", e.message);
        if (digits(off) > width) width = digits(off);
    }
    if (n == 2) {
        int64_t rows = layout_desc_length(&d, 0), cols = layout_desc_length(&d, 1), r, c;
        int cw = (int)width + valid_marks, rw = digits(rows - 1);
        if (cw < digits(cols - 1)) cw = digits(cols - 1);
        printf("%*s", rw + 1, "");
        for (c = 0; c < cols; c++) printf(" %*" PRId64, cw, c);
        printf("\n");
        for (r = 0; r < rows; r++) {
            printf("%*" PRId64 ":", rw, r);
            for (c = 0; c < cols; c++) {
                int64_t off;
                int valid = 1;
                coord[0] = r;
                coord[1] = c;
                if (layout_desc_offset(&d, coord, &off, &e) || layout_desc_is_valid(&d, coord, &valid, &e))
                    return tool_error("offsets", "%s", e.message);
                if (valid_marks)
                    printf(" %*" PRId64 "%c", cw - 1, off, valid ? ' ' : '*');
                else
                    printf(" %*" PRId64, cw, off);
            }
            printf("\n");
        }
        return TOOL_OK;
    }
    for (k = 0; k < total; k++) {
        int64_t off, rest = k;
        int j, valid = 1;
        for (j = n - 1; j >= 0; j--) {
            coord[j] = rest % layout_desc_length(&d, j);
            rest /= layout_desc_length(&d, j);
        }
        if (layout_desc_offset(&d, coord, &off, &e) || layout_desc_is_valid(&d, coord, &valid, &e))
            return tool_error("offsets", "%s", e.message);
        printf("(");
        for (j = 0; j < n; j++) printf(j ? ",%" PRId64 : "%" PRId64, coord[j]);
        printf(") %" PRId64 "%s\n", off, valid_marks && !valid ? "*" : "");
    }
    return TOOL_OK;
}
