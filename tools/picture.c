/* Glue between the library's results and the SVG writer: bank grids of a
 * 2-D descriptor and lane panels of one instruction. */
#include "picture.h"

#include <stdlib.h>
#include <string.h>

int picture_banks(const layout_descriptor *d, const layout_arch *arch, int elem_bytes, int64_t base_bytes,
                  int *banks, int64_t *first_word, int64_t *last_word, layout_error *err)
{
    int64_t rows = layout_desc_length(d, 0), cols = layout_desc_length(d, 1), r, c;
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++) {
            int64_t coord[2], off, addr;
            int valid;
            size_t k = (size_t)(r * cols + c);
            coord[0] = r;
            coord[1] = c;
            if (layout_desc_offset(d, coord, &off, err) || layout_desc_is_valid(d, coord, &valid, err)) return -1;
            addr = base_bytes + off * elem_bytes;
            banks[k] = valid && addr >= 0 ? (int)((addr / arch->bank_width_bytes) % arch->n_banks) : -1;
            if (first_word) first_word[k] = valid && addr >= 0 ? addr / arch->bank_width_bytes : -1;
            if (last_word) last_word[k] = valid && addr >= 0 ? (addr + elem_bytes - 1) / arch->bank_width_bytes : -1;
        }
    return 0;
}

int picture_instr(const layout_arch *arch, const layout_instr *in, const char *heading, svg_instr *out,
                  int64_t *hot_words, int *n_hot, int max_hot, layout_error *err)
{
    layout_cost_detail dt;
    int g, bw = arch->bank_width_bytes;
    if (layout_instr_explain(arch, in, &dt, err)) return -1;
    memset(out, 0, sizeof *out);
    out->heading = heading;
    out->n_groups = dt.cost.n_groups < SVG_MAX_GROUPS ? dt.cost.n_groups : SVG_MAX_GROUPS;
    for (g = 0; g < out->n_groups; g++) {
        uint64_t act = dt.groups[g].active;
        int lane;
        out->group_cycles[g] = dt.groups[g].cycles;
        for (lane = 0; lane < in->n_lanes; lane++) {
            svg_lane *ln;
            int64_t w0, w1, w;
            if (!((act >> lane) & 1u)) continue;
            ln = &out->lanes[out->n_lanes++];
            ln->lane = lane;
            ln->group = g;
            w0 = (int64_t)in->addr_bytes[lane] / bw;
            w1 = ((int64_t)in->addr_bytes[lane] + in->width_bytes - 1) / bw;
            for (w = w0; w <= w1 && ln->n_dwords < SVG_MAX_DWORDS; w++) {
                int bank = (int)(w % arch->n_banks), other, distinct = 0;
                int64_t seen[LAYOUT_MAX_LANES * SVG_MAX_DWORDS];
                /* Distinct words of this group on this bank: > 1 is a conflict. */
                for (other = 0; other < in->n_lanes; other++) {
                    int64_t v0, v1, v;
                    if (!((act >> other) & 1u)) continue;
                    v0 = (int64_t)in->addr_bytes[other] / bw;
                    v1 = ((int64_t)in->addr_bytes[other] + in->width_bytes - 1) / bw;
                    for (v = v0; v <= v1; v++) {
                        int k, dup = 0;
                        if (v % arch->n_banks != bank) continue;
                        for (k = 0; k < distinct; k++) dup |= seen[k] == v;
                        if (!dup && distinct < (int)(sizeof seen / sizeof seen[0])) seen[distinct++] = v;
                    }
                }
                ln->bank[ln->n_dwords] = bank;
                ln->conflict[ln->n_dwords] = distinct > 1;
                ln->n_dwords++;
                if (distinct > 1 && hot_words && *n_hot < max_hot) hot_words[(*n_hot)++] = w;
            }
        }
    }
    return 0;
}

void picture_mark_hot(const int64_t *first_word, const int64_t *last_word, size_t n_cells, const int64_t *hot_words,
                      int n_hot, unsigned char *hot)
{
    size_t k;
    int h;
    for (k = 0; k < n_cells; k++) {
        hot[k] = 0;
        if (first_word[k] < 0) continue;
        for (h = 0; h < n_hot && !hot[k]; h++) hot[k] = hot_words[h] >= first_word[k] && hot_words[h] <= last_word[k];
    }
}
