/* SVG bank maps: see svg.h.  Plain SVG 1.1 shapes and text, colours as
 * hex RGB, all text XML-escaped, sizes in pixels on the root element. */
#include "svg.h"

#include <math.h>
#include <string.h>

enum {
    MARGIN = 20,
    ROW_LABEL_W = 40,
    PANEL_W = 540,      /* width of the right-hand column (legend, lanes) */
    SWATCH_W = 28,
    SWATCH_H = 18,
    SWATCHES_PER_ROW = 16,
    LANE_H = 34
};

/* A bank's colour: hues spread by the golden angle so that neighbouring
 * banks differ strongly; two lightness levels alternate. */
static void bank_rgb(int bank, int n_banks, int *r, int *g, int *b)
{
    double h = fmod((double)bank * 137.50776405, 360.0) / 60.0;
    double s = 0.62, l = (bank % 2) ? 0.72 : 0.52;
    double c = (1.0 - fabs(2.0 * l - 1.0)) * s;
    double x = c * (1.0 - fabs(fmod(h, 2.0) - 1.0));
    double m = l - c / 2.0, rr = 0, gg = 0, bb = 0;
    (void)n_banks;
    if (h < 1) { rr = c; gg = x; }
    else if (h < 2) { rr = x; gg = c; }
    else if (h < 3) { gg = c; bb = x; }
    else if (h < 4) { gg = x; bb = c; }
    else if (h < 5) { rr = x; bb = c; }
    else { rr = c; bb = x; }
    *r = (int)lround((rr + m) * 255.0);
    *g = (int)lround((gg + m) * 255.0);
    *b = (int)lround((bb + m) * 255.0);
}

static void fill_attr(FILE *f, int bank, int n_banks)
{
    int r, g, b;
    if (bank < 0) {
        fputs("#e6e6e6", f);
        return;
    }
    bank_rgb(bank, n_banks, &r, &g, &b);
    fprintf(f, "#%02x%02x%02x", r, g, b);
}

/* Black or white text, whichever reads better on the bank's colour. */
static const char *ink(int bank, int n_banks)
{
    int r, g, b;
    if (bank < 0) return "#000000";
    bank_rgb(bank, n_banks, &r, &g, &b);
    return 0.299 * r + 0.587 * g + 0.114 * b < 110.0 ? "#ffffff" : "#000000";
}

static void text_escaped(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f) fputc(*s, f);
            else fputc('?', f); /* keep the file plain ASCII, hence valid UTF-8 */
        }
    }
}

static void text_at(FILE *f, int x, int y, int size, const char *anchor, const char *extra, const char *s)
{
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"%d\"%s%s%s%s>", x, y, size, anchor ? " text-anchor=\"" : "",
            anchor ? anchor : "", anchor ? "\"" : "", extra ? extra : "");
    text_escaped(f, s);
    fputs("</text>\n", f);
}

/* Height of one instruction panel: heading + per group a label and lane rows. */
static int lanes_per_row(const svg_instr *in, int *box_w)
{
    int i, max_dw = 1, w;
    for (i = 0; i < in->n_lanes; i++)
        if (in->lanes[i].n_dwords > max_dw) max_dw = in->lanes[i].n_dwords;
    w = max_dw * 13 + 4;
    if (w < 26) w = 26;
    *box_w = w;
    w = PANEL_W / (w + 3);
    /* A power of two per row keeps lane groups (8, 16, 32 lanes) in tidy rows. */
    for (i = 1; i * 2 <= w; i *= 2) {}
    return i;
}

static int panel_height(const svg_instr *in)
{
    int box_w, per_row = lanes_per_row(in, &box_w), g, h = 24;
    for (g = 0; g < in->n_groups; g++) {
        int n = 0, i;
        for (i = 0; i < in->n_lanes; i++) n += in->lanes[i].group == g;
        if (n == 0) continue;
        h += 18 + ((n + per_row - 1) / per_row) * (LANE_H + 4);
    }
    return h + 12;
}

static int draw_panel(FILE *f, const svg_instr *in, int x, int y, int n_banks)
{
    int box_w, per_row = lanes_per_row(in, &box_w), g;
    char label[128];
    text_at(f, x, y + 14, 14, NULL, " font-weight=\"bold\"", in->heading ? in->heading : "");
    y += 24;
    for (g = 0; g < in->n_groups; g++) {
        int n = 0, i, k = 0, first = -1, last = -1;
        for (i = 0; i < in->n_lanes; i++)
            if (in->lanes[i].group == g) {
                n++;
                if (first < 0) first = in->lanes[i].lane;
                last = in->lanes[i].lane;
            }
        if (n == 0) continue;
        snprintf(label, sizeof label, "group %d: %d lane%s, %d cycle%s%s", g, n, n == 1 ? "" : "s",
                 in->group_cycles[g], in->group_cycles[g] == 1 ? "" : "s",
                 in->group_cycles[g] > 1 ? " (conflict)" : "");
        (void)first;
        (void)last;
        text_at(f, x, y + 13, 12, NULL, in->group_cycles[g] > 1 ? " fill=\"#c00000\"" : NULL, label);
        y += 18;
        for (i = 0; i < in->n_lanes; i++) {
            const svg_lane *ln = &in->lanes[i];
            int bx, by, d, sw;
            char num[16], attr[64];
            if (ln->group != g) continue;
            bx = x + (k % per_row) * (box_w + 3);
            by = y + (k / per_row) * (LANE_H + 4);
            k++;
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#ffffff\" stroke=\"#808080\"/>\n",
                    bx, by, box_w, LANE_H);
            snprintf(num, sizeof num, "L%d", ln->lane);
            text_at(f, bx + box_w / 2, by + 11, 10, "middle", NULL, num);
            sw = ln->n_dwords > 0 ? (box_w - 2) / ln->n_dwords : box_w - 2;
            for (d = 0; d < ln->n_dwords && d < SVG_MAX_DWORDS; d++) {
                int sx = bx + 1 + d * sw;
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"19\" fill=\"", sx, by + 14, sw);
                fill_attr(f, ln->bank[d], n_banks);
                if (ln->conflict[d])
                    fputs("\" stroke=\"#d00000\" stroke-width=\"2.5\"/>\n", f);
                else
                    fputs("\"/>\n", f);
                snprintf(num, sizeof num, "%d", ln->bank[d]);
                snprintf(attr, sizeof attr, " fill=\"%s\"%s", ink(ln->bank[d], n_banks),
                         ln->conflict[d] ? " font-weight=\"bold\"" : "");
                text_at(f, sx + sw / 2, by + 28, sw < 15 ? 9 : 10, "middle", attr, num);
            }
        }
        y += ((n + per_row - 1) / per_row) * (LANE_H + 4);
    }
    return y + 12;
}

int svg_write(FILE *f, const svg_picture *p, int *width_out, int *height_out)
{
    int cw, ch, numbers, label_every_c, label_every_r, gx, gy, grid_w, grid_h, rx, ry, width, height, i, r, c;
    int legend_rows = (p->n_banks + SWATCHES_PER_ROW - 1) / SWATCHES_PER_ROW;
    char num[32];

    /* Cells: 24 x 16 px with numbers up to 64 columns; smaller beyond. */
    cw = p->cols <= 64 ? 24 : (1536 / p->cols < 4 ? 4 : 1536 / p->cols);
    ch = p->rows <= 128 ? 16 : (2048 / p->rows < 3 ? 3 : 2048 / p->rows);
    numbers = cw >= 18 && ch >= 12;
    label_every_c = cw >= 18 ? 1 : 8;
    label_every_r = ch >= 12 ? 1 : 8;
    gx = MARGIN + ROW_LABEL_W;
    gy = MARGIN + 86;
    grid_w = p->cols * cw;
    grid_h = p->rows * ch;
    rx = gx + grid_w + 36;
    ry = gy - 14;
    height = gy + grid_h + MARGIN + 24;
    {
        int right = ry + 22 + legend_rows * (SWATCH_H + 4) + 40;
        for (i = 0; i < p->n_instrs; i++) right += panel_height(p->instrs[i]);
        if (right + MARGIN > height) height = right + MARGIN;
    }
    width = rx + PANEL_W + MARGIN;
    if (width < 640) width = 640;

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n",
            width, height, width, height);
    fputs("<title>", f);
    text_escaped(f, p->title);
    fputs("</title>\n", f);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
    text_at(f, MARGIN, MARGIN + 18, 20, NULL, " font-weight=\"bold\"", p->title);
    if (p->subtitle) text_at(f, MARGIN, MARGIN + 42, 13, NULL, " fill=\"#404040\"", p->subtitle);

    /* Axis names and labels. */
    snprintf(num, sizeof num, "%s across, %s down", p->col_name ? p->col_name : "d1", p->row_name ? p->row_name : "d0");
    text_at(f, gx, gy - 26, 12, NULL, " fill=\"#404040\"", num);
    for (c = 0; c < p->cols; c += label_every_c) {
        snprintf(num, sizeof num, "%d", c);
        text_at(f, gx + c * cw + cw / 2, gy - 5, 9, "middle", " fill=\"#606060\"", num);
    }
    for (r = 0; r < p->rows; r += label_every_r) {
        snprintf(num, sizeof num, "%d", r);
        text_at(f, gx - 5, gy + r * ch + ch - 4, 9, "end", " fill=\"#606060\"", num);
    }

    /* The tile. */
    fputs("<g stroke=\"#ffffff\" stroke-width=\"0.5\">\n", f);
    for (r = 0; r < p->rows; r++)
        for (c = 0; c < p->cols; c++) {
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"", gx + c * cw, gy + r * ch, cw, ch);
            fill_attr(f, p->bank[(size_t)r * (size_t)p->cols + (size_t)c], p->n_banks);
            fputs("\"/>\n", f);
        }
    fputs("</g>\n", f);
    if (numbers) {
        fputs("<g font-size=\"10\" text-anchor=\"middle\" fill=\"#000000\">\n", f);
        for (r = 0; r < p->rows; r++)
            for (c = 0; c < p->cols; c++) {
                int b = p->bank[(size_t)r * (size_t)p->cols + (size_t)c];
                if (b < 0) continue;
                fprintf(f, "<text x=\"%d\" y=\"%d\"%s>%d</text>\n", gx + c * cw + cw / 2, gy + r * ch + ch - 4,
                        ink(b, p->n_banks)[1] == 'f' ? " fill=\"#ffffff\"" : "", b);
            }
        fputs("</g>\n", f);
    }
    if (p->hot) {
        fputs("<g fill=\"none\" stroke=\"#d00000\" stroke-width=\"2\">\n", f);
        for (r = 0; r < p->rows; r++)
            for (c = 0; c < p->cols; c++)
                if (p->hot[(size_t)r * (size_t)p->cols + (size_t)c])
                    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", gx + c * cw + 1,
                            gy + r * ch + 1, cw - 2, ch - 2);
        fputs("</g>\n", f);
    }

    /* Legend. */
    text_at(f, rx, ry + 14, 14, NULL, " font-weight=\"bold\"", "bank colours");
    ry += 22;
    for (i = 0; i < p->n_banks; i++) {
        int sx = rx + (i % SWATCHES_PER_ROW) * (SWATCH_W + 2), sy = ry + (i / SWATCHES_PER_ROW) * (SWATCH_H + 4);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"", sx, sy, SWATCH_W, SWATCH_H);
        fill_attr(f, i, p->n_banks);
        fputs("\"/>\n", f);
        snprintf(num, sizeof num, "%d", i);
        text_at(f, sx + SWATCH_W / 2, sy + 13, 10, "middle",
                ink(i, p->n_banks)[1] == 'f' ? " fill=\"#ffffff\"" : NULL, num);
    }
    ry += legend_rows * (SWATCH_H + 4) + 4;
    if (p->hot || p->n_instrs > 0) {
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" fill=\"none\" stroke=\"#d00000\" "
                   "stroke-width=\"2\"/>\n",
                rx, ry + 2);
        text_at(f, rx + 20, ry + 12, 11, NULL, NULL,
                "conflict: a bank serving several distinct dwords in one lane group");
    }
    ry += 30;
    for (i = 0; i < p->n_instrs; i++) ry = draw_panel(f, p->instrs[i], rx, ry, p->n_banks);

    fputs("</svg>\n", f);
    if (width_out) *width_out = width;
    if (height_out) *height_out = height;
    return ferror(f) ? -1 : 0;
}
