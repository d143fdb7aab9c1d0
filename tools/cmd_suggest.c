/* layout suggest: search the layout families for the LDS layouts that cost
 * least for given accesses (suggest.h), or the HLSL stride lint's
 * one-dimensional case (docs/lds-model.md §4.3). */
#include "tool.h"
#include "picture.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/ioctl.h> /* TIOCGWINSZ: the terminal's width */
#include <unistd.h>
#endif

static int run(int argc, char **argv);

const tool_command tool_cmd_suggest = {
    "suggest", "search the layout families for the cheapest LDS layout of given accesses",
    "usage: layout suggest --shape M,K --write DIST --read DIST [--read-view P] [--arch A]\n"
    "                      [--elem BYTES] [--budget BYTES] [--family F,...] [--top K]\n"
    "                      [--threads N] [--max N] [--policy trust|split] [--json] [--svg FILE]\n"
    "       layout suggest --spec SPEC [--json] [--svg FILE]\n"
    "       layout suggest --stride S [--elem BYTES] [--arch A] [--json]\n"
    "\n"
    "Given how a tile is written and read, try every parameter set of every\n"
    "layout family (padding, pad every N rows, ck_tile KPack/MLdsLayer XOR, CuTe\n"
    "Swizzle<B,M,S>, Triton swizzled_shared, IREE xor_shuffle, XOR + padding),\n"
    "in both storage orders, score each with the exact checker over every\n"
    "instruction of both sides (the numbers `layout check` gives), and rank by\n"
    "(vector damage, extra cycles per tile, LDS instructions, LDS bytes, index\n"
    "arithmetic).  Prints the ranked table, the Pareto front of (extra cycles,\n"
    "LDS bytes), how many parameter sets each family tried and whether it was\n"
    "exhausted, the winner's descriptor, the C calls that build it and its bank\n"
    "map.\n"
    "\n"
    "  --shape M,K      the tile, e.g. 64,32 (the write distribution's dims)\n"
    "  --write DIST     dist(...) of the store side, over the tile\n"
    "  --read DIST      dist(...) of the load side, over the tile or a view of it\n"
    "                   (the access notation: docs/access.md)\n"
    "  --read-view P    the read side's view as a permutation of the tile dims,\n"
    "                   e.g. 1,0 = [K, M]; default: 1,0 when the read\n"
    "                   distribution's tile is the transposed shape, else none\n"
    "  --arch A         preset name or arch(...) text (default gfx942)\n"
    "  --elem BYTES     element size: 1, 2, 4, 8 or 16 (default 2, fp16)\n"
    "  --budget BYTES   LDS bytes allowed beyond the packed tile (default 0 = no padding)\n"
    "  --family F,...   families to search (default all): pad, pad_every, ck_xor,\n"
    "                   cute_swizzle, triton_swizzled, iree_xor_shuffle, xor_pad, f2\n"
    "  --top K          results to list (1..16, default 8)\n"
    "  --threads N      search threads (default 1; the result does not depend on it)\n"
    "  --max N          stop after N parameter sets (default: no limit)\n"
    "  --policy P       vectors a layout would misalign: trust (as ck_tile, flagged;\n"
    "                   default) or split (emit the legal split)\n"
    "  --spec SPEC      the whole search as text (arch=..; elem=..; shape=..; write=..;\n"
    "                   read=..; view=..; budget=..; families=..; see docs/suggest.md)\n"
    "  --stride S       one-dimensional mode (HLSL stride lint): a wave reads arr[lane*S + k];\n"
    "                   prints the conflict factor and the smallest padding / SoA fix\n"
    "  --json           print everything as one JSON object\n"
    "  --svg FILE       write the winner's bank map as an SVG picture\n"
    "\n"
    "Exit status: 0 the best layout is conflict-free, 1 it still has conflicts\n"
    "(or --stride: the stride conflicts), 2 bad input or nothing fits the budget.\n"
    "\n"
    "example (seed kernel 01's accesses on gfx942, no padding):\n"
    "  layout suggest --arch gfx942 --elem 2 --shape 64,32 \\\n"
    "    --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' \\\n"
    "    --read 'dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'\n"
    "  layout suggest --stride 4 --elem 4 --arch gfx11\n",
    run};

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') printf("\\%c", ch);
        else if (ch < 0x20) printf("\\u%04x", ch);
        else putchar(ch);
    }
    putchar('"');
}

/* Comma-separated small integers into v[0..cap); returns the count or -1. */
static int parse_ints(const char *text, int64_t *v, int cap)
{
    int n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        long long x = strtoll(p, &end, 10);
        if (end == p || n == cap || x < 0 || x > (1 << 20)) return -1;
        v[n++] = x;
        p = end;
        while (*p == ' ') p++;
        if (*p == ',') p++;
        else if (*p) return -1;
    }
    return n;
}

static int run_stride(const char *stride_text, const char *arch_text, int elem, int json)
{
    layout_arch arch;
    int64_t stride;
    layout_suggest_stride_result r;
    layout_error e;
    if (tool_int("suggest", "--stride", stride_text, 1, 1 << 20, &stride) ||
        tool_parse_arch("suggest", arch_text, &arch))
        return TOOL_BAD_INPUT;
    if (layout_suggest_stride(&arch, stride, elem, &r, &e)) return tool_error("suggest", "%s", e.message);
    int conflicted = r.extra_cycles > r.extra_soa;
    if (json) {
        printf("{\"arch\":");
        json_string(arch.name);
        printf(",\"banks\":%d,\"bank_bytes\":%d,\"wave\":%d,\"stride\":%" PRId64 ",\"elem_bytes\":%d,"
               "\"gcd_factor\":%d,\"factor\":%d,\"extra_cycles\":%d,\"pad\":%" PRId64 ",\"factor_padded\":%d,"
               "\"extra_padded\":%d,\"factor_soa\":%d,\"extra_soa\":%d,\"conflicted\":%s}\n",
               arch.n_banks, arch.bank_width_bytes, arch.wave_size, r.stride, r.elem_bytes, r.gcd_factor, r.factor,
               r.extra_cycles, r.pad, r.factor_padded, r.extra_padded, r.factor_soa, r.extra_soa,
               conflicted ? "true" : "false");
        return conflicted ? TOOL_FINDING : TOOL_OK;
    }
    tool_vocab v = tool_vocab_of(&arch);
    printf("# arr[lane * %" PRId64 " + k], %d-byte elements, one %s on %s (%d banks x %d B, %s%d)\n", r.stride,
           elem, v.unit, arch.name, arch.n_banks, arch.bank_width_bytes, v.unit, arch.wave_size);
    if (r.gcd_factor) printf("lint factor gcd(%" PRId64 ", %d) = %d\n", r.stride, arch.n_banks, r.gcd_factor);
    printf("checker:   %d-way, %d %s per access\n", r.factor, r.extra_cycles, v.extra);
    printf("SoA (stride 1): %d-way, %d %s\n", r.factor_soa, r.extra_soa, v.extra);
    if (!conflicted)
        printf("verdict: no conflict beyond the SoA form; nothing to fix\n");
    else if (r.pad > 0)
        printf("fix: pad the record to %" PRId64 " elements (+%" PRId64 "): %d-way, %d %s; or use SoA\n",
               r.stride + r.pad, r.pad, r.factor_padded, r.extra_padded, v.extra);
    else
        printf("fix: use the SoA form (no padding up to %d elements helps)\n", 2 * arch.n_banks);
    return conflicted ? TOOL_FINDING : TOOL_OK;
}

static void print_side_json(const layout_side_result *s)
{
    printf("{\"direction\":\"%s\",\"ops\":", s->direction == LAYOUT_WRITE ? "write" : "read");
    json_string(s->ops);
    printf(",\"steps_per_wave\":%d,\"instrs_per_tile\":%" PRId64 ",\"extra_cycles_per_tile\":%" PRId64
           ",\"misaligned\":%d,\"noncontiguous\":%d}",
           s->steps_per_wave, s->instrs_per_tile, s->extra_cycles_per_tile, s->n_misaligned, s->n_noncontiguous);
}

static void print_candidate_json(const layout_suggest_candidate *c, int n_sides, char *text, size_t cap)
{
    char prm[160];
    layout_suggest_params_print(&c->params, prm, sizeof prm);
    printf("{\"family\":");
    json_string(layout_family_name(c->params.kind));
    printf(",\"params\":");
    json_string(prm);
    printf(",\"contiguous_dim\":%d,\"p\":[%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
           "],\"pad\":%" PRId64 ",\"pad_rows\":%" PRId64,
           c->params.contiguous_dim, c->params.p[0], c->params.p[1], c->params.p[2], c->params.p[3], c->params.p[4],
           c->params.p[5], c->params.pad, c->params.pad_rows);
    printf(",\"extra_cycles_per_tile\":%" PRId64 ",\"instrs_per_tile\":%" PRId64 ",\"lds_bytes\":%" PRId64
           ",\"index_ops\":%d,\"vector_damage\":%d,\"index\":%" PRId64,
           c->cost.extra_cycles, c->cost.instrs, c->cost.lds_bytes, c->cost.index_ops, c->cost.vector_damage, c->index);
    if (layout_desc_to_text(&c->desc, text, cap, NULL) == LAYOUT_OK) {
        printf(",\"lds\":");
        json_string(text);
    }
    if (layout_suggest_c_calls(c, text, cap) > 0) {
        printf(",\"c_calls\":");
        json_string(text);
    }
    printf(",\"sides\":[");
    for (int i = 0; i < n_sides; i++) {
        if (i) printf(",");
        print_side_json(&c->sides[i]);
    }
    printf("]}");
}

/* The terminal's width: $COLUMNS, else the terminal's own when standard
 * output is one, else 80 (a pipe or a file). */
static int terminal_columns(void)
{
    const char *c = getenv("COLUMNS");
    char *end;
    long v = c ? strtol(c, &end, 10) : 0;
    if (c && end != c && *end == '\0' && v >= 20 && v <= 10000) return (int)v;
#if defined(TIOCGWINSZ)
    {
        struct winsize ws;
        if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
    }
#endif
    return 80;
}

/* Bank of every cell of the winner, printed as a grid that fits the
 * terminal: a tile too wide for it shows its first columns and says where
 * the whole map is (a 128 x 128 tile takes 416 columns). */
static int print_bank_map(const layout_descriptor *d, const layout_arch *arch, int *banks)
{
    int64_t rows = layout_desc_length(d, 0), cols = layout_desc_length(d, 1), shown = cols;
    int width = arch->n_banks > 10 || cols > 10 ? (cols > 100 ? 3 : 2) : 1; /* the column labels' digits too */
    int label = rows > 10 ? (rows > 100 ? 3 : 2) : 1;
    int64_t line = label + 1 + cols * (width + 1), room = terminal_columns();
    if (line > room) shown = (room - label - 1) / (width + 1);
    if (shown < 1) shown = 1;
    printf("bank map of the winner (d0 down, d1 across; bank of each element's first byte):\n");
    if (shown < cols)
        printf("(columns 0..%" PRId64 " of %" PRId64 ": the map is %" PRId64 " wide, the terminal %" PRId64
               " ($COLUMNS);\n all of it: --svg FILE, or layout banks WINNER --html FILE, same --arch, --elem)\n",
               shown - 1, cols, line, room);
    printf("%*s", label + 1, "");
    for (int64_t c = 0; c < shown; c++) printf(" %*" PRId64, width, c);
    printf("\n");
    for (int64_t r = 0; r < rows; r++) {
        printf("%*" PRId64 ":", label, r);
        for (int64_t c = 0; c < shown; c++) printf(" %*d", width, banks[r * cols + c]);
        printf("\n");
    }
    return 0;
}

static int write_svg(const char *path, const layout_suggest_candidate *c, const layout_arch *arch, int elem,
                     const int *banks)
{
    FILE *f = fopen(path, "w");
    svg_picture p;
    char title[256], prm[160];
    static char sub[LAYOUT_TEXT_CAP + 64], text[LAYOUT_TEXT_CAP];
    if (!f) return tool_error("suggest", "cannot write '%s': %s", path, strerror(errno));
    if (layout_desc_to_text(&c->desc, text, sizeof text, NULL)) strcpy(text, "(descriptor)");
    layout_suggest_params_print(&c->params, prm, sizeof prm);
    snprintf(title, sizeof title, "%s: suggested %s %s, %" PRId64 " %s per tile, %" PRId64 " LDS bytes", arch->name,
             layout_family_name(c->params.kind), prm, c->cost.extra_cycles, tool_vocab_of(arch).extra,
             c->cost.lds_bytes);
    snprintf(sub, sizeof sub, "%d-byte elements; %s", elem, text);
    memset(&p, 0, sizeof p);
    p.title = title;
    p.subtitle = sub;
    p.rows = (int)layout_desc_length(&c->desc, 0);
    p.cols = (int)layout_desc_length(&c->desc, 1);
    p.row_name = "d0";
    p.col_name = "d1";
    p.bank = banks;
    p.n_banks = arch->n_banks;
    int ok = svg_write(f, &p, NULL, NULL) == 0;
    ok = (fclose(f) == 0) && ok;
    return ok ? 0 : tool_error("suggest", "error writing '%s'", path);
}

/* The native parameters, plus the storage order when it is not the tile's
 * own (two rows of the table may be one parameter set in both orders;
 * Triton's order=[..] already says it). */
static void params_with_order(const layout_family_params *p, int n_dims, char *buf, size_t cap)
{
    int n = layout_suggest_params_print(p, buf, cap);
    layout_family_kind k = p->kind == LAYOUT_FAMILY_XOR_PAD ? p->xor_kind : p->kind;
    if (n >= 0 && (size_t)n < cap && n_dims > 1 && p->contiguous_dim != n_dims - 1 && k != LAYOUT_FAMILY_TRITON_SWIZZLED)
        snprintf(buf + n, cap - (size_t)n, ", dim %d contiguous", p->contiguous_dim);
}

/* "64 x 32" */
static void dims_text(char *buf, size_t cap, int n, const int64_t *len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && k < cap; i++) {
        k += (size_t)snprintf(buf + k, cap - k, "%s%" PRId64, i ? " x " : "", len[i]);
        if (k >= cap) k = cap - 1;
    }
}

/* When a side's distribution does not cover the tile (seen through its
 * view), say which and how to fix it in the options' words, as `check`
 * does for --lds, and return 1; else 0.  spec_mode: the keys of --spec. */
static int explain_tile_mismatch(const layout_suggest_spec *spec, int spec_mode)
{
    for (int i = 0; i < spec->n_sides; i++) {
        const layout_suggest_side *sd = &spec->sides[i];
        const layout_distribution *d = sd->dist;
        int64_t seen[LAYOUT_MAX_DIMS];
        char want[128], have[128], shape[128];
        int bad = d->n_x != spec->n_dims;
        const char *opt = spec_mode ? (sd->direction == LAYOUT_WRITE ? "write=" : "read=")
                                    : (sd->direction == LAYOUT_WRITE ? "--write" : "--read");
        for (int j = 0; j < spec->n_dims; j++) seen[j] = spec->tile[sd->has_view ? sd->view[j] : j];
        for (int j = 0; !bad && j < spec->n_dims; j++) bad = d->x_lengths[j] != seen[j];
        if (!bad) continue;
        dims_text(want, sizeof want, d->n_x, d->x_lengths);
        dims_text(have, sizeof have, spec->n_dims, seen);
        dims_text(shape, sizeof shape, spec->n_dims, spec->tile);
        if (sd->has_view)
            tool_error("suggest", "the %s distribution covers a %s tile, but the %s tile seen through the read view "
                                  "is %s", opt, want, shape, have);
        else
            tool_error("suggest", "the %s distribution covers a %s tile, but %s is %s", opt, want,
                       spec_mode ? "shape=" : "--shape", have);
        if (sd->direction == LAYOUT_WRITE)
            tool_hint("suggest", "%s describes the tile the %s distribution stores: its dims must be the write "
                                 "tile's (%s)", spec_mode ? "shape=" : "--shape", opt, want);
        else if (d->n_x == 2 && spec->n_dims == 2 && d->x_lengths[0] == spec->tile[1] &&
                 d->x_lengths[1] == spec->tile[0])
            tool_hint("suggest", "the read side sees the %s tile transposed: give %s", shape,
                      spec_mode ? "view=1,0" : "--read-view 1,0");
        else
            tool_hint("suggest", "%s must cover the tile (%s) or a permutation of it named by %s", opt, shape,
                      spec_mode ? "view=" : "--read-view");
        return 1;
    }
    return 0;
}

static int run(int argc, char **argv)
{
    const char *arch_text = "gfx942", *wr = NULL, *rd = NULL, *view = NULL, *budget_text = NULL,
               *fam_text = NULL, *top_text = NULL, *threads_text = NULL, *max_text = NULL, *policy = NULL,
               *spec_text = NULL, *stride_text = NULL, *svg = NULL, *elem_text = NULL;
    int json = 0, elem = 2, n_pos = 0;
    static layout_suggest_text_spec ts;
    static layout_suggest_result res;
    layout_suggest_spec *spec = &ts.spec;
    layout_error e;
    static char text[LAYOUT_TEXT_CAP], buf[LAYOUT_TEXT_CAP];
    const tool_option opts[] = {{"--arch", &arch_text, NULL},       {"--elem", &elem_text, NULL},
                                {"--write", &wr, NULL},
                                {"--read", &rd, NULL},              {"--read-view", &view, NULL},
                                {"--budget", &budget_text, NULL},   {"--family", &fam_text, NULL},
                                {"--top", &top_text, NULL},         {"--threads", &threads_text, NULL},
                                {"--max", &max_text, NULL},         {"--policy", &policy, NULL},
                                {"--spec", &spec_text, NULL},       {"--stride", &stride_text, NULL},
                                {"--svg", &svg, NULL},              {"--json", NULL, &json},
                                {NULL, NULL, NULL}};
    if (tool_parse_args("suggest", argc, argv, opts, NULL, 0, &n_pos) ||
        (elem_text && tool_elem_bytes("suggest", elem_text, &elem)))
        return TOOL_BAD_INPUT;
    if (stride_text) return run_stride(stride_text, arch_text, elem, json);

    if (spec_text) {
        size_t where = 0;
        const char *t = tool_spec_text("suggest", spec_text, buf, sizeof buf);
        if (!t) return TOOL_BAD_INPUT;
        if (layout_suggest_spec_from_text(t, &ts, &where, &e)) {
            tool_report_parse("suggest", "--spec", t, where, &e);
            return TOOL_BAD_INPUT;
        }
    } else {
        /* --shape is taken out of argv for every command (tool_take_dialect_options). */
        int n = 0;
        const int64_t *shape = tool_shape(&n);
        memset(&ts, 0, sizeof ts);
        const char *const names[] = {"--shape", "--write", "--read"};
        const char *const values[] = {shape ? "" : NULL, wr, rd};
        if (tool_require("suggest", names, values, 3, "or describe the accesses with --spec FILE, or --stride S"))
            return TOOL_BAD_INPUT;
        if (tool_parse_arch("suggest", arch_text, &ts.arch)) return TOOL_BAD_INPUT;
        spec->n_dims = n;
        memcpy(spec->tile, shape, sizeof shape[0] * (size_t)n);
        if (tool_parse_dist("suggest", "--write", wr, ts.arch.wave_size, &ts.dists[0]) ||
            tool_parse_dist("suggest", "--read", rd, ts.arch.wave_size, &ts.dists[1]))
            return TOOL_BAD_INPUT;
        spec->arch = &ts.arch;
        spec->elem_bytes = elem;
        spec->n_sides = 2;
        spec->sides[0].dist = &ts.dists[0];
        spec->sides[0].direction = LAYOUT_WRITE;
        spec->sides[1].dist = &ts.dists[1];
        spec->sides[1].direction = LAYOUT_READ;
        if (view) {
            int64_t v[LAYOUT_MAX_DIMS];
            int m = parse_ints(view, v, LAYOUT_MAX_DIMS);
            if (m != n) return tool_error("suggest", "--read-view '%s' must be a permutation of the %d tile dims, e.g. 1,0", view, n);
            spec->sides[1].has_view = 1;
            for (int i = 0; i < m; i++) spec->sides[1].view[i] = (int)v[i];
        } else if (n == 2 && ts.dists[1].n_x == 2 &&
                   (ts.dists[1].x_lengths[0] != shape[0] || ts.dists[1].x_lengths[1] != shape[1]) &&
                   ts.dists[1].x_lengths[0] == shape[1] && ts.dists[1].x_lengths[1] == shape[0]) {
            spec->sides[1].has_view = 1;
            spec->sides[1].view[0] = 1;
            spec->sides[1].view[1] = 0;
        }
        spec->families = (1u << LAYOUT_FAMILY_COUNT) - 1u;
        spec->top_k = 8;
        spec->threads = 1;
    }
    {
        int64_t x;
        if (budget_text) {
            if (tool_int("suggest", "--budget", budget_text, 0, (int64_t)1 << 30, &x)) return TOOL_BAD_INPUT;
            spec->budget_bytes = x;
        }
        if (top_text) {
            if (tool_int("suggest", "--top", top_text, 1, LAYOUT_SUGGEST_MAX_TOP, &x)) return TOOL_BAD_INPUT;
            spec->top_k = (int)x;
        }
        if (threads_text) {
            if (tool_int("suggest", "--threads", threads_text, 1, LAYOUT_SUGGEST_MAX_THREADS, &x)) return TOOL_BAD_INPUT;
            spec->threads = (int)x;
        }
        if (max_text) {
            if (tool_int("suggest", "--max", max_text, 1, INT64_MAX / 2, &x)) return TOOL_BAD_INPUT;
            spec->max_candidates = x;
        }
        if (policy) {
            layout_vector_policy pol;
            static const char *const policies[] = {"trust", "split"};
            int k = tool_choice("suggest", "--policy", policy, policies, 2);
            if (k < 0) return TOOL_BAD_INPUT;
            pol = k == 0 ? LAYOUT_VECTOR_TRUST : LAYOUT_VECTOR_SPLIT;
            for (int i = 0; i < spec->n_sides; i++) spec->sides[i].opt.policy = pol;
        }
        if (fam_text) {
            unsigned fam = 0;
            char name[64];
            const char *p = fam_text;
            while (*p) {
                size_t len = strcspn(p, ",");
                if (len == 0 || len >= sizeof name) return tool_error("suggest", "--family '%s': empty or overlong name", fam_text);
                memcpy(name, p, len);
                name[len] = '\0';
                layout_family_kind k;
                if (strcmp(name, "all") == 0) fam |= (1u << LAYOUT_FAMILY_COUNT) - 1u;
                else if (layout_family_from_name(name, &k, &e)) {
                    const char *fams[LAYOUT_FAMILY_COUNT + 1], *near;
                    for (int f = 0; f < LAYOUT_FAMILY_COUNT; f++) fams[f] = layout_family_name((layout_family_kind)f);
                    fams[LAYOUT_FAMILY_COUNT] = "all";
                    near = tool_closest(name, fams, LAYOUT_FAMILY_COUNT + 1);
                    if (near) return tool_error("suggest", "--family %s: unknown family; did you mean %s?", name, near);
                    return tool_error("suggest", "--family %s: %s", name, e.message);
                }
                else fam |= 1u << k;
                p += len;
                if (*p == ',') p++;
            }
            spec->families = fam;
        }
    }
    /* the search's tables in a workspace of the size it asks for: tiles up to 256 x 256 */
    size_t ws_bytes = 0;
    if (explain_tile_mismatch(spec, spec_text != NULL)) return TOOL_BAD_INPUT;
    if (layout_suggest_workspace_size(spec, &ws_bytes, &e)) return tool_error("suggest", "%s", e.message);
    void *ws = malloc(ws_bytes);
    if (!ws) return tool_error("suggest", "out of memory (%zu bytes of workspace)", ws_bytes);
    layout_status st = layout_suggest_ws(spec, ws, ws_bytes, &res, &e);
    free(ws);
    if (st) return tool_error("suggest", "%s", e.message);
    const layout_suggest_candidate *best = &res.top[0];
    int rc = best->cost.extra_cycles > 0 ? TOOL_FINDING : TOOL_OK;
    int64_t rows = layout_desc_length(&best->desc, 0), cols = layout_desc_length(&best->desc, 1);
    int *banks = malloc(sizeof(int) * (size_t)(rows * cols));
    if (!banks) return tool_error("suggest", "out of memory");
    if (picture_banks(&best->desc, &ts.arch, spec->elem_bytes, spec->sides[0].opt.base_bytes, banks, NULL, NULL, &e)) {
        free(banks);
        return tool_error("suggest", "%s", e.message);
    }
    if (json) {
        printf("{\"arch\":");
        json_string(ts.arch.name);
        printf(",\"elem_bytes\":%d,\"shape\":[%" PRId64 ",%" PRId64 "],\"budget_bytes\":%" PRId64
               ",\"tried\":%" PRId64 ",\"scored\":%" PRId64 ",\"all_exhausted\":%s,\"families\":[",
               spec->elem_bytes, spec->tile[0], spec->tile[1], spec->budget_bytes, res.tried, res.scored,
               res.all_exhausted ? "true" : "false");
        int first = 1;
        for (int k = 0; k < LAYOUT_FAMILY_COUNT; k++) {
            const layout_suggest_family_stats *f = &res.families[k];
            if (!f->searched) continue;
            printf("%s{\"family\":", first ? "" : ",");
            first = 0;
            json_string(layout_family_name((layout_family_kind)k));
            printf(",\"tried\":%" PRId64 ",\"failed\":%" PRId64 ",\"exhausted\":%s,\"best_extra\":%" PRId64 "}", f->tried,
                   f->failed, f->exhausted ? "true" : "false", f->best_extra);
        }
        printf("],\"top\":[");
        for (int i = 0; i < res.n_top; i++) {
            if (i) printf(",");
            print_candidate_json(&res.top[i], spec->n_sides, text, sizeof text);
        }
        printf("],\"pareto_total\":%" PRId64 ",\"pareto\":[", res.pareto_total);
        for (int i = 0; i < res.n_pareto; i++) {
            if (i) printf(",");
            print_candidate_json(&res.pareto[i], spec->n_sides, text, sizeof text);
        }
        printf("],\"bank_map\":[");
        for (int64_t r = 0; r < rows; r++) {
            printf("%s[", r ? "," : "");
            for (int64_t c = 0; c < cols; c++) printf("%s%d", c ? "," : "", banks[r * cols + c]);
            printf("]");
        }
        printf("],\"conflict_free\":%s}\n", rc == TOOL_OK ? "true" : "false");
    } else {
        tool_vocab v = tool_vocab_of(&ts.arch);
        /* the table's columns as wide as their widest entry (a triton_swizzled
         * row's parameters run to 60 characters) */
        const char *per_tile = v.vendor == LAYOUT_VENDOR_NVIDIA ? "conflicts/tile" : "extra/tile";
        int w_fam = (int)strlen("family"), w_prm = (int)strlen("parameters"), w_side[LAYOUT_SUGGEST_MAX_SIDES];
        int w_num = (int)strlen(per_tile);
        for (int i = 0; i < spec->n_sides; i++) w_side[i] = 5; /* "write" */
        for (int i = 0; i < res.n_top; i++) {
            const layout_suggest_candidate *c = &res.top[i];
            char prm[160];
            params_with_order(&c->params, spec->n_dims, prm, sizeof prm);
            if ((int)strlen(layout_family_name(c->params.kind)) > w_fam) w_fam = (int)strlen(layout_family_name(c->params.kind));
            if ((int)strlen(prm) > w_prm) w_prm = (int)strlen(prm);
            for (int k = 0; k < spec->n_sides; k++)
                if ((int)strlen(c->sides[k].ops) > w_side[k]) w_side[k] = (int)strlen(c->sides[k].ops);
        }
        printf("# suggest on %s (%d banks x %d B, %s%d): %" PRId64 " x %" PRId64 " tile, %d-byte elements, %d sides, "
               "budget %" PRId64 " extra bytes\n",
               ts.arch.name, ts.arch.n_banks, ts.arch.bank_width_bytes, v.unit, ts.arch.wave_size, spec->tile[0],
               spec->tile[1], spec->elem_bytes, spec->n_sides, spec->budget_bytes);
        printf("# families:");
        for (int k = 0; k < LAYOUT_FAMILY_COUNT; k++) {
            const layout_suggest_family_stats *f = &res.families[k];
            if (!f->searched) continue;
            printf(" %s (%" PRId64 " sets%s%s)", layout_family_name((layout_family_kind)k), f->tried,
                   f->exhausted ? ", exhausted" : ", NOT exhausted", f->failed ? ", some unscorable" : "");
        }
        printf("\n# %" PRId64 " parameter sets tried, %" PRId64 " scored\n", res.tried, res.scored);
        printf("rank  %-*s  %-*s", w_fam, "family", w_prm, "parameters");
        for (int i = 0; i < spec->n_sides; i++)
            printf("  %-*s", w_side[i], spec->sides[i].direction == LAYOUT_WRITE ? "write" : "read");
        printf("  %*s  LDS bytes\n", w_num, per_tile);
        for (int i = 0; i < res.n_top; i++) {
            const layout_suggest_candidate *c = &res.top[i];
            char prm[160];
            params_with_order(&c->params, spec->n_dims, prm, sizeof prm);
            printf("%4d  %-*s  %-*s", i + 1, w_fam, layout_family_name(c->params.kind), w_prm, prm);
            for (int k = 0; k < spec->n_sides; k++) printf("  %-*s", w_side[k], c->sides[k].ops);
            printf("  %*" PRId64 "  %9" PRId64 "%s\n", w_num, c->cost.extra_cycles, c->cost.lds_bytes,
                   c->cost.vector_damage ? "  [vectors damaged]" : "");
        }
        printf("Pareto front (%s per tile vs LDS bytes, %" PRId64 " point%s):\n", v.extra, res.pareto_total,
               res.pareto_total == 1 ? "" : "s");
        for (int i = 0; i < res.n_pareto; i++) {
            const layout_suggest_candidate *c = &res.pareto[i];
            char prm[160];
            params_with_order(&c->params, spec->n_dims, prm, sizeof prm);
            printf("  %9" PRId64 " bytes  %8" PRId64 " %s  %s %s%s\n", c->cost.lds_bytes, c->cost.extra_cycles,
                   v.vendor == LAYOUT_VENDOR_NVIDIA ? "conflicts" : "extra",
                   layout_family_name(c->params.kind), prm, c->cost.vector_damage ? "  [vectors damaged]" : "");
        }
        if (layout_desc_to_text(&best->desc, text, sizeof text, NULL) == LAYOUT_OK) printf("winner: %s\n", text);
        if (layout_suggest_c_calls(best, text, sizeof text) > 0) printf("C:\n%s", text);
        /* The same winner as ck_tile C++ (the dialect layer's printer), for
         * kernel authors who paste it into a ck_tile pipeline. */
        if (layout_desc_to_ck_cpp(&best->desc, text, sizeof text, NULL, NULL) == LAYOUT_OK)
            printf("ck_tile C++:\n%s%s", text, text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
        if (rc == TOOL_OK)
            printf("verdict: conflict-free layout found\n");
        else
            printf("verdict: no conflict-free layout in these families%s; best %" PRId64 " %s per tile\n",
                   res.all_exhausted ? " (all exhausted)" : " (search cut short)", best->cost.extra_cycles, v.extra);
        print_bank_map(&best->desc, &ts.arch, banks);
    }
    if (svg && write_svg(svg, best, &ts.arch, spec->elem_bytes, banks)) rc = TOOL_BAD_INPUT;
    free(banks);
    return rc;
}
