/* layout banks SPEC --arch A --elem BYTES [--base BYTES] [--svg FILE]:
 * the bank of every element of a 2-D descriptor. */
#include "tool.h"
#include "picture.h"
#include "html.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_banks = {
    "banks", "the bank of every element of a 2-D descriptor (grid, optional SVG)",
    "usage: layout banks SPEC --arch A --elem BYTES [--base BYTES] [--svg FILE] [--html FILE]\n"
    "\n"
    "Print the LDS bank of every element of the 2-D descriptor SPEC as a grid\n"
    "(d0 down, d1 across): bank = ((base + offset * elem) / bank_bytes) % banks,\n"
    "for the element's first byte; '.' marks padding.  A per-bank count of\n"
    "elements follows.\n"
    "\n"
    "  --arch A       preset name or arch(...) text (default gfx942)\n"
    "  --elem BYTES   element size: 1, 2, 4, 8 or 16 (default 2, fp16)\n"
    "  --base BYTES   byte address of offset 0 (default 0)\n"
    "  --svg FILE     also write a self-contained SVG picture of the grid\n"
    "  --html FILE    also write an interactive page: the grid coloured by bank,\n"
    "                 hover a cell for its offset, byte address and bank; with\n"
    "                 several architectures (--arch repeated or a comma list,\n"
    "                 e.g. --arch gfx942,gfx950) the page switches between them\n"
    "                 and the text output shows the first\n"
    "\n"
    "example: layout banks 'naive([64,32],[34,1])' --arch gfx942 --elem 2 --svg pad.svg\n",
    run};

static int run(int argc, char **argv)
{
    const char *spec = NULL, *arch_text = "gfx942", *svg_path = NULL, *html_path = NULL;
    int elem = 2, i, width = 1, *banks, n_arches = 0;
    int64_t base = 0, rows, cols, row, col, counts[LAYOUT_MAX_BANKS];
    layout_descriptor d;
    layout_arch arch;
    static layout_arch arches[HTML_MAX_ARCHES];
    layout_error e;
    {
        const char *elem_text = NULL, *base_text = NULL;
        int n_pos;
        const tool_option opts[] = {{"--arch", &arch_text, NULL}, {"--elem", &elem_text, NULL},
                                    {"--base", &base_text, NULL}, {"--svg", &svg_path, NULL},
                                    {"--html", &html_path, NULL}, {NULL, NULL, NULL}};
        if (tool_parse_args("banks", argc, argv, opts, &spec, 1, &n_pos) ||
            (elem_text && tool_elem_bytes("banks", elem_text, &elem)) ||
            (base_text && tool_int("banks", "--base", base_text, 0, UINT32_MAX, &base)))
            return TOOL_BAD_INPUT;
    }
    if (!spec) return tool_error("banks", "missing SPEC (see layout banks --help)");
    (void)arch_text; /* every --arch is read by html_parse_arches */
    if (html_parse_arches("banks", argc, argv, "gfx942", arches, HTML_MAX_ARCHES, &n_arches) ||
        tool_parse_desc("banks", spec, &d))
        return TOOL_BAD_INPUT;
    if (n_arches > 1 && !html_path)
        return tool_error("banks", "%d architectures given; several are drawn only by --html", n_arches);
    arch = arches[0];
    if (layout_desc_ndims(&d) != 2)
        return tool_error("banks", "the descriptor has %d dims; banks needs a 2-D descriptor", layout_desc_ndims(&d));
    rows = layout_desc_length(&d, 0);
    cols = layout_desc_length(&d, 1);
    if (rows * cols > (1 << 20))
        return tool_error("banks", "the tile has %" PRId64 " elements; at most %d are shown", rows * cols, 1 << 20);
    banks = malloc(sizeof(int) * (size_t)(rows * cols));
    if (!banks) return tool_error("banks", "out of memory");
    if (picture_banks(&d, &arch, elem, base, banks, NULL, NULL, &e)) {
        free(banks);
        return tool_error("banks", "%s", e.message);
    }
    tool_print_desc_header(&d, "banks");
    printf("# %s: %d banks of %d bytes, %d-byte elements, base %" PRId64 "\n", arch.name, arch.n_banks,
           arch.bank_width_bytes, elem, base);
    width = arch.n_banks > 10 ? 2 : 1;
    if (width < (cols > 10 ? 2 : 1)) width = 2;
    printf("%*s", (rows > 10 ? (rows > 100 ? 3 : 2) : 1) + 1, "");
    for (col = 0; col < cols; col++) printf(" %*" PRId64, width, col);
    printf("\n");
    memset(counts, 0, sizeof counts);
    for (row = 0; row < rows; row++) {
        printf("%*" PRId64 ":", rows > 10 ? (rows > 100 ? 3 : 2) : 1, row);
        for (col = 0; col < cols; col++) {
            int b = banks[row * cols + col];
            if (b < 0) {
                printf(" %*s", width, ".");
            } else {
                printf(" %*d", width, b);
                counts[b]++;
            }
        }
        printf("\n");
    }
    printf("elements per bank:");
    for (i = 0; i < arch.n_banks; i++) printf(" %" PRId64, counts[i]);
    printf("\n");
    if (svg_path) {
        FILE *f = fopen(svg_path, "w");
        svg_picture p;
        char title[256], sub[LAYOUT_TEXT_CAP + 64], text[LAYOUT_TEXT_CAP];
        int ok;
        if (!f) {
            int e = errno;
            free(banks);
            return tool_error("banks", "cannot write '%s': %s", svg_path, strerror(e));
        }
        if (layout_desc_to_text(&d, text, sizeof text, NULL)) strcpy(text, "(descriptor)");
        snprintf(title, sizeof title, "%s: banks of a %" PRId64 " x %" PRId64 " tile, %d-byte elements", arch.name,
                 rows, cols, elem);
        snprintf(sub, sizeof sub, "%s", text);
        memset(&p, 0, sizeof p);
        p.title = title;
        p.subtitle = sub;
        p.rows = (int)rows;
        p.cols = (int)cols;
        p.row_name = "d0";
        p.col_name = "d1";
        p.bank = banks;
        p.n_banks = arch.n_banks;
        errno = 0;
        ok = svg_write(f, &p, NULL, NULL) == 0;
        ok = (fclose(f) == 0) && ok;
        if (!ok) {
            int e = errno;
            free(banks);
            return tool_error("banks", "error writing '%s': %s", svg_path, e ? strerror(e) : "write error");
        }
    }
    free(banks);
    if (html_path && html_write_banks(html_path, &d, arches, n_arches, elem, base)) return TOOL_BAD_INPUT;
    return TOOL_OK;
}
