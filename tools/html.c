/* Interactive bank-map pages (html.h): the data, gathered with the library
 * and picture.h, written as JSON into the template of html_page.c. */
#include "html.h"
#include "picture.h"
#include "tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#ifndef LAYOUT_VERSION
#define LAYOUT_VERSION "0.1.0"
#endif

/* ----------------------------------------------------------- --arch list */

int html_parse_arches(const char *cmd, int argc, char **argv, const char *fallback, layout_arch *arches, int max,
                      int *n)
{
    static char item[LAYOUT_TEXT_CAP];
    int i;
    *n = 0;
    for (i = 1; i <= argc; i++) {
        const char *v = NULL, *p;
        if (i == argc) {
            if (*n > 0) break;
            v = fallback; /* no --arch given */
        } else if (strcmp(argv[i], "--") == 0) {
            i = argc - 1;
            continue;
        } else if (strcmp(argv[i], "--arch") == 0 && i + 1 < argc) {
            v = argv[++i];
        } else if (strncmp(argv[i], "--arch=", 7) == 0) {
            v = argv[i] + 7;
        } else {
            continue;
        }
        /* Split at commas outside parentheses; "@FILE" stays whole. */
        for (p = v;;) {
            const char *q = p;
            int depth = 0;
            size_t len;
            if (v[0] != '@')
                for (; *q && !(*q == ',' && depth == 0); q++) depth += (*q == '(') - (*q == ')');
            else
                q = p + strlen(p);
            len = (size_t)(q - p);
            if (len == 0 || len >= sizeof item)
                return tool_error(cmd, "--arch '%s': %s", v, len ? "an item is too long" : "an empty item");
            if (*n >= max) return tool_error(cmd, "--arch: at most %d architectures", max);
            memcpy(item, p, len);
            item[len] = '\0';
            if (tool_parse_arch(cmd, item, &arches[*n])) return TOOL_BAD_INPUT;
            (*n)++;
            if (!*q) break;
            p = q + 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ JSON */

/* A JSON string that is also safe inside <script type="application/json">:
 * '<', '>' and '&' are escaped (no "</script>" or "<!--" can appear), and so
 * is every byte outside printable ASCII (non-ASCII bytes become U+FFFD, so
 * the file is plain ASCII whatever the input). */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch == '<' || ch == '>' || ch == '&' || ch < 0x20 || ch == 0x7f) fprintf(f, "\\u%04x", ch);
        else if (ch >= 0x80) fputs("\\ufffd", f);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void json_key_str(FILE *f, const char *key, const char *s)
{
    fprintf(f, ",\"%s\":", key);
    if (s) json_str(f, s);
    else fputs("null", f);
}

static void json_ints(FILE *f, const int *v, size_t n)
{
    size_t i;
    fputc('[', f);
    for (i = 0; i < n; i++) fprintf(f, "%s%d", i ? "," : "", v[i]);
    fputc(']', f);
}

/* ------------------------------------------------------------- the page */

/* Header of the data: what was asked, the tile and its element offsets. */
static int write_head(FILE *f, const char *command, const layout_descriptor *d, int elem_bytes, int64_t base_bytes,
                      int64_t **offsets_out)
{
    static char text[LAYOUT_TEXT_CAP];
    int64_t rows = layout_desc_length(d, 0), cols = layout_desc_length(d, 1), r, c, *off;
    layout_error e;
    off = malloc(sizeof *off * (size_t)(rows * cols));
    if (!off) return tool_error(command, "out of memory");
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++) {
            int64_t coord[2];
            coord[0] = r;
            coord[1] = c;
            if (layout_desc_offset(d, coord, &off[r * cols + c], &e)) {
                free(off);
                return tool_error(command, "%s", e.message);
            }
        }
    fprintf(f, "{\"tool\":\"layout %s\",\"version\":\"%s\"", command, LAYOUT_VERSION);
    json_key_str(f, "lds", layout_desc_to_text(d, text, sizeof text, NULL) == LAYOUT_OK ? text : NULL);
    fprintf(f, ",\"elem_bytes\":%d,\"base_bytes\":%" PRId64 ",\"rows\":%" PRId64 ",\"cols\":%" PRId64
               ",\"row_name\":\"d0\",\"col_name\":\"d1\",\"offsets\":[",
            elem_bytes, base_bytes, rows, cols);
    for (r = 0; r < rows * cols; r++) fprintf(f, "%s%" PRId64, r ? "," : "", off[r]);
    fputc(']', f);
    *offsets_out = off;
    return 0;
}

/* The arch's description and the bank of every cell (-1: padding). */
static int write_arch_head(FILE *f, const char *command, const layout_descriptor *d, const layout_arch *arch,
                           int elem_bytes, int64_t base_bytes, int *banks)
{
    static char text[LAYOUT_TEXT_CAP];
    int64_t n = layout_desc_length(d, 0) * layout_desc_length(d, 1);
    layout_error e;
    if (picture_banks(d, arch, elem_bytes, base_bytes, banks, NULL, NULL, &e))
        return tool_error(command, "%s", e.message);
    fputs("{\"name\":", f);
    json_str(f, arch->name);
    json_key_str(f, "text", layout_arch_to_text(arch, text, sizeof text, NULL) == LAYOUT_OK ? text : NULL);
    {
        /* The vendor's words for the page: warp / wave, bank conflicts / extra cycles. */
        tool_vocab v = tool_vocab_of(arch);
        fprintf(f, ",\"vendor\":\"%s\",\"unit\":\"%s\",\"extra_word\":\"%s\"", layout_vendor_name(v.vendor), v.unit,
                v.extra);
    }
    fprintf(f, ",\"n_banks\":%d,\"bank_bytes\":%d,\"wave_size\":%d,\"banks\":", arch->n_banks,
            arch->bank_width_bytes, arch->wave_size);
    json_ints(f, banks, (size_t)n);
    return 0;
}

/* Copy the template to f, the JSON writer in place of "@DATA@". */
typedef int (*data_writer)(FILE *f, const void *ctx);

static int write_page(const char *command, const char *path, data_writer data, const void *ctx)
{
    FILE *f = fopen(path, "w");
    int i, rc = 0;
    if (!f) return tool_error(command, "cannot write '%s': %s", path, strerror(errno));
    for (i = 0; html_page_lines[i]; i++) {
        if (strcmp(html_page_lines[i], "@DATA@\n") == 0) {
            if ((rc = data(f, ctx)) != 0) break;
            fputc('\n', f);
        } else {
            fputs(html_page_lines[i], f);
        }
    }
    if (ferror(f)) rc = rc ? rc : tool_error(command, "error writing '%s'", path);
    if (fclose(f) != 0 && rc == 0) rc = tool_error(command, "error writing '%s'", path);
    if (rc) remove(path); /* no half-written page */
    return rc;
}

static int check_tile(const char *command, const layout_descriptor *d)
{
    if (layout_desc_ndims(d) != 2)
        return tool_error(command, "--html needs a 2-D descriptor (this one has %d dims)", layout_desc_ndims(d));
    if (layout_desc_length(d, 0) * layout_desc_length(d, 1) > HTML_MAX_CELLS)
        return tool_error(command, "--html: the tile has %" PRId64 " cells; a page draws at most %d",
                          layout_desc_length(d, 0) * layout_desc_length(d, 1), HTML_MAX_CELLS);
    return 0;
}

/* ----------------------------------------------------------------- banks */

typedef struct banks_ctx {
    const layout_descriptor *d;
    const layout_arch *arches;
    int n_arches, elem_bytes;
    int64_t base_bytes;
} banks_ctx;

static int banks_data(FILE *f, const void *vctx)
{
    const banks_ctx *c = vctx;
    int64_t *off = NULL;
    int *banks, a, rc;
    if ((rc = write_head(f, "banks", c->d, c->elem_bytes, c->base_bytes, &off)) != 0) return rc;
    free(off);
    banks = malloc(sizeof *banks * (size_t)(layout_desc_length(c->d, 0) * layout_desc_length(c->d, 1)));
    if (!banks) return tool_error("banks", "out of memory");
    fputs(",\"arches\":[", f);
    for (a = 0; a < c->n_arches && rc == 0; a++) {
        if (a) fputc(',', f);
        rc = write_arch_head(f, "banks", c->d, &c->arches[a], c->elem_bytes, c->base_bytes, banks);
        fputs(",\"sides\":[]}", f);
    }
    fputs("]}", f);
    free(banks);
    return rc;
}

int html_write_banks(const char *path, const layout_descriptor *d, const layout_arch *arches, int n_arches,
                     int elem_bytes, int64_t base_bytes)
{
    banks_ctx c;
    if (check_tile("banks", d)) return TOOL_BAD_INPUT;
    c.d = d;
    c.arches = arches;
    c.n_arches = n_arches;
    c.elem_bytes = elem_bytes;
    c.base_bytes = base_bytes;
    return write_page("banks", path, banks_data, &c);
}

/* ----------------------------------------------------------------- check */

/* One instruction: addresses, the checker's cost, and per lane group its
 * lanes, cycles, N-way, worst bank and the words colliding in it (the
 * words of the SVG picture's red outlines, picture_instr()). */
static int write_instr(FILE *f, const layout_arch *arch, const layout_checker *checker,
                       const layout_access_plan *plan, int warp, int step, layout_error *e)
{
    static svg_instr panel;
    static layout_cost_detail dt;
    layout_instr in;
    layout_cost cost;
    const layout_access_step *st = &plan->steps[step];
    int g, lane, bw = arch->bank_width_bytes;
    if (layout_access_instr(plan, warp, step, &in, e) || layout_checker_cost(checker, &in, &cost, e) ||
        layout_instr_explain(arch, &in, &dt, e) || picture_instr(arch, &in, NULL, &panel, NULL, NULL, 0, e))
        return -1;
    fprintf(f, "{\"warp\":%d,\"step\":%d,\"op\":\"%s\",\"width_bytes\":%d,\"extra_cycles\":%d,\"total_cycles\":%d"
               ",\"worst_nway\":%d,\"flags\":\"%s%s\",\"addr\":[",
            warp, step, layout_ds_op_vendor_name(st->op, plan->direction, layout_arch_vendor(arch)), in.width_bytes,
            cost.extra_cycles,
            cost.total_cycles, cost.worst_nway, st->flags & LAYOUT_ACCESS_MISALIGNED ? "misaligned " : "",
            st->flags & LAYOUT_ACCESS_NONCONTIGUOUS ? "non-contiguous" : "");
    for (lane = 0; lane < in.n_lanes; lane++)
        fprintf(f, "%s%" PRId64, lane ? "," : "", (int64_t)in.addr_bytes[lane]);
    fputs("],\"groups\":[", f);
    for (g = 0; g < dt.cost.n_groups; g++) {
        int64_t hot[LAYOUT_MAX_LANES * SVG_MAX_DWORDS];
        int n_hot = 0, k, first = 1;
        fputs(g ? ",{\"lanes\":[" : "{\"lanes\":[", f);
        for (lane = 0; lane < in.n_lanes; lane++)
            if ((dt.groups[g].active >> lane) & 1u) {
                fprintf(f, "%s%d", first ? "" : ",", lane);
                first = 0;
            }
        /* Colliding words of this group: its lanes' words flagged by picture_instr. */
        for (k = 0; k < panel.n_lanes; k++) {
            const svg_lane *ln = &panel.lanes[k];
            int d;
            if (ln->group != g) continue;
            for (d = 0; d < ln->n_dwords; d++) {
                int64_t w = (int64_t)in.addr_bytes[ln->lane] / bw + d;
                int j, dup = 0;
                if (!ln->conflict[d]) continue;
                for (j = 0; j < n_hot; j++) dup |= hot[j] == w;
                if (!dup) hot[n_hot++] = w;
            }
        }
        fprintf(f, "],\"cycles\":%d,\"nway\":%d,\"worst_bank\":%d,\"hot_words\":[", dt.groups[g].cycles,
                dt.groups[g].nway, dt.groups[g].worst_bank);
        for (k = 0; k < n_hot; k++) fprintf(f, "%s%" PRId64, k ? "," : "", hot[k]);
        fputs("]}", f);
    }
    fputs("]}", f);
    return 0;
}

typedef struct check_ctx {
    const html_check *c;
    const layout_arch *arches;
    int n_arches;
} check_ctx;

static int check_arch(FILE *f, const html_check *c, const layout_arch *arch, int *banks, layout_access_plan *plan)
{
    static const char *const names[2] = {"write", "read"};
    static char ops[512];
    layout_access_options opt;
    layout_kernel_spec spec;
    layout_kernel_result res;
    layout_checker checker;
    layout_error e;
    int k, w, s, rc;
    if (c->write_dist->wave_size != arch->wave_size)
        return tool_error("check", "--html: %s has %d-lane waves but the distributions have %d lanes; one page "
                          "holds architectures of one wave size", arch->name, arch->wave_size,
                          c->write_dist->wave_size);
    memset(&opt, 0, sizeof opt);
    opt.base_bytes = c->base_bytes;
    opt.arch = arch; /* the DS forms the arch has (pairs, unaligned access) */
    memset(&spec, 0, sizeof spec);
    spec.write_desc = c->lds;
    spec.write_dist = c->write_dist;
    spec.write_opt = &opt;
    spec.read_desc = c->read_lds;
    spec.read_dist = c->read_dist;
    spec.read_opt = &opt;
    spec.elem_bytes = c->elem_bytes;
    spec.tiles = c->tiles;
    if (layout_check_kernel(arch, &spec, &res, &e) || layout_checker_init(&checker, arch, LAYOUT_IMPL_AUTO, &e))
        return tool_error("check", "%s: %s", arch->name, e.message);
    if ((rc = write_arch_head(f, "check", c->lds, arch, c->elem_bytes, c->base_bytes, banks)) != 0) return rc;
    fprintf(f, ",\"extra_cycles_per_tile\":%" PRId64 ",\"instrs_per_tile\":%" PRId64 ",\"sq_lds_bank_conflict\":%" PRId64
               ",\"sq_insts_lds\":%" PRId64,
            res.extra_cycles_per_tile, res.instrs_per_tile, res.sq_lds_bank_conflict, res.sq_insts_lds);
    {
        /* The profiler counters in the vendor's names (SQ_... on AMD, l1tex__... on NVIDIA). */
        layout_counter names[LAYOUT_CTR_COUNT];
        int64_t values[LAYOUT_CTR_COUNT];
        int i, n = tool_counters(arch, &res, names, values, LAYOUT_CTR_COUNT);
        fputs(",\"counters\":[", f);
        for (i = 0; i < n; i++)
            fprintf(f, "%s{\"name\":\"%s\",\"value\":%" PRId64 "}", i ? "," : "", layout_counter_name(names[i]),
                    values[i]);
        fputs("],\"sides\":[", f);
    }
    for (k = 0; k < 2; k++) {
        const layout_side_result *r = k ? &res.read : &res.write;
        const layout_distribution *dist = k ? c->read_dist : c->write_dist;
        const layout_descriptor *view = k && c->read_lds ? c->read_lds : c->lds;
        if (layout_access_plan_make(plan, view, dist, k ? LAYOUT_READ : LAYOUT_WRITE, c->elem_bytes, &opt, &e))
            return tool_error("check", "%s side: %s", names[k], e.message);
        layout_access_plan_print_vendor(plan, layout_arch_vendor(arch), ops, sizeof ops);
        fprintf(f, "%s{\"name\":\"%s\",\"ops\":", k ? "," : "", names[k]);
        json_str(f, ops);
        fprintf(f, ",\"waves\":%d,\"steps_per_wave\":%d,\"instrs_per_tile\":%" PRId64
                   ",\"extra_cycles_per_tile\":%" PRId64 ",\"worst\":{\"warp\":%d,\"step\":%d,\"extra\":%d}"
                   ",\"instructions\":[",
                dist->n_warps, plan->n_steps, r->instrs_per_tile, r->extra_cycles_per_tile, r->worst_warp,
                r->worst_step, r->worst_extra);
        for (w = 0; w < dist->n_warps; w++)
            for (s = 0; s < plan->n_steps; s++) {
                if (w || s) fputc(',', f);
                if (write_instr(f, arch, &checker, plan, w, s, &e))
                    return tool_error("check", "%s side, warp %d step %d: %s", names[k], w, s, e.message);
            }
        fputs("]}", f);
    }
    fputs("]}", f);
    return 0;
}

static int check_data(FILE *f, const void *vctx)
{
    static char text[LAYOUT_TEXT_CAP];
    const check_ctx *x = vctx;
    const html_check *c = x->c;
    int64_t *off = NULL;
    int *banks, a, rc;
    layout_access_plan *plan;
    if ((rc = write_head(f, "check", c->lds, c->elem_bytes, c->base_bytes, &off)) != 0) return rc;
    free(off);
    json_key_str(f, "read_lds",
                 c->read_lds && layout_desc_to_text(c->read_lds, text, sizeof text, NULL) == LAYOUT_OK ? text : NULL);
    json_key_str(f, "write_dist", layout_dist_to_text(c->write_dist, text, sizeof text, NULL) == LAYOUT_OK ? text : NULL);
    json_key_str(f, "read_dist", layout_dist_to_text(c->read_dist, text, sizeof text, NULL) == LAYOUT_OK ? text : NULL);
    fprintf(f, ",\"tiles\":%" PRId64, c->tiles);
    banks = malloc(sizeof *banks * (size_t)(layout_desc_length(c->lds, 0) * layout_desc_length(c->lds, 1)));
    plan = malloc(sizeof *plan);
    if (!banks || !plan) {
        free(banks);
        free(plan);
        return tool_error("check", "out of memory");
    }
    fputs(",\"arches\":[", f);
    for (a = 0; a < x->n_arches && rc == 0; a++) {
        if (a) fputc(',', f);
        rc = check_arch(f, c, &x->arches[a], banks, plan);
    }
    fputs("]}", f);
    free(banks);
    free(plan);
    return rc;
}

int html_write_check(const char *path, const html_check *c, const layout_arch *arches, int n_arches)
{
    check_ctx x;
    if (check_tile("check", c->lds)) return TOOL_BAD_INPUT;
    x.c = c;
    x.arches = arches;
    x.n_arches = n_arches;
    return write_page("check", path, check_data, &x);
}
