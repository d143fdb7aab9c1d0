/* layout check: the triple check (write distribution, LDS descriptor, read
 * distribution) of any layout, per instruction and in total. */
#include "tool.h"
#include "picture.h"
#include "html.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_check = {
    "check", "the triple check: every instruction of both sides, totals, verdict",
    "usage: layout check --arch A --elem BYTES --lds SPEC --write DIST --read DIST\n"
    "                    [--read-lds SPEC] [--tiles N] [--base BYTES] [--json] [--svg FILE]\n"
    "                    [--html FILE] [--strict] [--fail-above CYCLES]\n"
    "\n"
    "Model a tile's trip through LDS: every wave stores its part with the DS\n"
    "instructions ck_tile and the compiler would emit for DIST --write through\n"
    "the LDS descriptor, then loads with those of --read.  Every instruction of\n"
    "every wave is costed on the architecture; the report lists each step's\n"
    "extra (bank-conflict) cycles per wave, explains the worst instruction of\n"
    "each side, and gives totals per tile and over --tiles tiles (the predicted\n"
    "SQ_LDS_BANK_CONFLICT and SQ_INSTS_LDS counters).\n"
    "On NVIDIA (sm_*, H100, ...) the report speaks the vendor's words: warps,\n"
    "PTX shared-memory instructions (st.shared.v4.b32, ld.shared.b16, ...),\n"
    "bank conflicts and wavefronts, and the Nsight Compute metrics\n"
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st/_ld.sum and\n"
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st/_ld.sum.\n"
    "\n"
    "  --arch A         preset name, alias (H100, MI300X, cuda:90, ...) or\n"
    "                   arch(...) text (default gfx942; see layout arch)\n"
    "  --elem BYTES     element size: 1, 2, 4, 8 or 16 (default 2, fp16)\n"
    "  --lds SPEC       LDS descriptor over the write distribution's tile dims\n"
    "  --read-lds SPEC  a different view for the read side (e.g. [K, M] of the\n"
    "                   same memory); default: --lds.  Needed when --read\n"
    "                   covers another tile shape than --write (a transpose)\n"
    "  --write DIST     dist(...) of the store side; --read DIST of the load side\n"
    "                   (the access notation: docs/access.md)\n"
    "  --tiles N        tiles per kernel for the counter totals (default 1)\n"
    "  --base BYTES     byte address of LDS offset 0 (default 0; affects alignment)\n"
    "  --json           print the report as one JSON object instead of text\n"
    "  --svg FILE       write a picture: the tile coloured by bank, the worst\n"
    "                   instruction of each side by lane group, conflicts in red\n"
    "  --html FILE      write an interactive page: the tile coloured by bank; hover\n"
    "                   a cell for its offset, byte address, bank and the lanes of\n"
    "                   each side touching it; pick a side, warp and instruction\n"
    "                   to see its lanes, lane groups, colliding words and extra\n"
    "                   cycles.  Several architectures (--arch repeated or a\n"
    "                   comma list, e.g. --arch gfx942,gfx950) go into one page;\n"
    "                   the report, --svg and the exit status are for the first\n"
    "  --strict         exit 1 on any conflict; by default only conflicts whose\n"
    "                   lane rule is of high confidence count (`layout arch A`\n"
    "                   shows each rule's confidence)\n"
    "  --fail-above CYCLES  exit 1 only above CYCLES counted conflict cycles per tile\n"
    "\n"
    "Exit status: 0 no counted conflict, 1 conflicts the lint policy counts (the\n"
    "`lint:` line says which), 2 bad input.\n"
    "\n"
    "example (seed kernel 01, row-major, on gfx942):\n"
    "  layout check --arch gfx942 --elem 2 --lds 'packed([64,32])' \\\n"
    "    --read-lds 'naive([32,64],[1,32])' \\\n"
    "    --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' \\\n"
    "    --read 'dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'\n",
    run};

/* One side: its plan, every instruction's cost, and the library's totals. */
typedef struct side {
    const char *name;                 /* "write" / "read" */
    layout_direction dir;
    const layout_descriptor *desc;
    const layout_distribution *dist;
    layout_access_plan plan;
    const layout_side_result *res;
    layout_cost *costs;               /* [warp][step] */
    int worst_warp, worst_step;       /* instruction shown as the worst (warp 0 step 0 when none conflicts) */
} side;

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

static int cost_side(const layout_checker *checker, side *s, layout_error *e)
{
    int w, st, n_warps = s->dist->n_warps, n_steps = s->plan.n_steps;
    s->costs = calloc((size_t)n_warps * (size_t)(n_steps ? n_steps : 1), sizeof *s->costs);
    if (!s->costs) {
        snprintf(e->message, sizeof e->message, "out of memory");
        return -1;
    }
    for (w = 0; w < n_warps; w++)
        for (st = 0; st < n_steps; st++) {
            layout_instr in;
            if (layout_access_instr(&s->plan, w, st, &in, e) ||
                layout_checker_cost(checker, &in, &s->costs[w * n_steps + st], e))
                return -1;
        }
    s->worst_warp = s->res->worst_warp >= 0 ? s->res->worst_warp : 0;
    s->worst_step = s->res->worst_step >= 0 ? s->res->worst_step : 0;
    return 0;
}

/* The conflict cycles of one side per tile whose rule the lint policy
 * counts: a step's confidence is the least of the arch's bank confidence
 * and that of the lane rule of its direction and width (`layout arch NAME`
 * lists them). */
static int64_t lint_cycles(const layout_arch *arch, const side *s, const tool_lint *lint)
{
    int64_t counted = 0;
    int st, w, n_steps = s->plan.n_steps;
    for (st = 0; st < n_steps; st++) {
        int bytes = s->plan.steps[st].width_bytes > 16 ? 16 : s->plan.steps[st].width_bytes;
        const layout_lane_rule *rule = layout_arch_rule(arch, s->dir, bytes);
        layout_confidence c = arch->bank_confidence;
        int64_t cycles = 0;
        if (rule && rule->supported && rule->confidence < c) c = rule->confidence;
        for (w = 0; w < s->dist->n_warps; w++) cycles += s->costs[w * n_steps + st].extra_cycles;
        if (tool_lint_counts(lint, c)) counted += cycles;
    }
    return counted;
}

static int print_side_text(const layout_arch *arch, const side *s)
{
    int st, w, n_steps = s->plan.n_steps, n_warps = s->dist->n_warps;
    char buf[512];
    layout_instr in;
    layout_cost_detail dt;
    layout_error e;
    tool_vocab v = tool_vocab_of(arch);
    layout_access_plan_print_vendor(&s->plan, v.vendor, buf, sizeof buf);
    printf("%s: %s per %s, %d %s%s\n", s->name, buf, v.unit, n_warps, v.unit, n_warps == 1 ? "" : "s");
    for (st = 0; st < n_steps; st++) {
        const layout_access_step *step = &s->plan.steps[st];
        printf("  step %-3d %-16s %s per %s:", st, layout_ds_op_vendor_name(step->op, s->dir, v.vendor), v.extra,
               v.unit);
        for (w = 0; w < n_warps; w++) printf(" %d", s->costs[w * n_steps + st].extra_cycles);
        printf("\n");
        if (step->flags) {
            layout_access_step_explain_vendor(&s->plan, st, v.vendor, buf, sizeof buf);
            printf("           ! %s\n", buf);
        }
    }
    if (n_steps == 0) return 0;
    if (layout_access_instr(&s->plan, s->worst_warp, s->worst_step, &in, &e) ||
        layout_instr_explain(arch, &in, &dt, &e))
        return tool_error("check", "%s", e.message);
    if (dt.cost.extra_cycles == 0) {
        printf("  worst: none - every %s instruction is conflict-free\n", s->name);
        return 0;
    }
    printf("  worst: warp %d step %d %s, %d %s (explained in the checker's report below)\n", s->worst_warp,
           s->worst_step, layout_ds_op_vendor_name(s->plan.steps[s->worst_step].op, s->dir, v.vendor),
           dt.cost.extra_cycles, v.extra);
    return 0;
}

static void print_side_json(const layout_arch *arch, const side *s)
{
    int st, w, n_steps = s->plan.n_steps, n_warps = s->dist->n_warps;
    const layout_side_result *r = s->res;
    char buf[512];
    layout_vendor vendor = layout_arch_vendor(arch);
    layout_access_plan_print_vendor(&s->plan, vendor, buf, sizeof buf);
    printf("{\"direction\":\"%s\",\"ops\":", s->name);
    json_string(buf);
    printf(",\"steps_per_wave\":%d,\"waves\":%d,\"instrs_per_tile\":%" PRId64 ",\"extra_cycles_per_tile\":%" PRId64
           ",\"total_cycles_per_tile\":%" PRId64 ",\"misaligned_steps\":%d,\"noncontiguous_steps\":%d"
           ",\"sq_lds_bank_conflict\":%" PRId64 ",\"sq_insts_lds\":%" PRId64,
           n_steps, n_warps, r->instrs_per_tile, r->extra_cycles_per_tile, r->total_cycles_per_tile, r->n_misaligned,
           r->n_noncontiguous, r->sq_lds_bank_conflict, r->sq_insts_lds);
    printf(",\"worst\":{\"warp\":%d,\"step\":%d,\"extra\":%d}", r->worst_warp, r->worst_step, r->worst_extra);
    printf(",\"instructions\":[");
    for (w = 0; w < n_warps; w++)
        for (st = 0; st < n_steps; st++) {
            const layout_cost *c = &s->costs[w * n_steps + st];
            const layout_access_step *step = &s->plan.steps[st];
            printf("%s{\"warp\":%d,\"step\":%d,\"op\":\"%s\",\"width_bytes\":%d,\"extra_cycles\":%d,"
                   "\"total_cycles\":%d,\"groups\":%d,\"worst_nway\":%d,\"misaligned\":%s,\"noncontiguous\":%s}",
                   w || st ? "," : "", w, st, layout_ds_op_vendor_name(step->op, s->dir, vendor), step->width_bytes,
                   c->extra_cycles, c->total_cycles, c->n_groups, c->worst_nway,
                   step->flags & LAYOUT_ACCESS_MISALIGNED ? "true" : "false",
                   step->flags & LAYOUT_ACCESS_NONCONTIGUOUS ? "true" : "false");
        }
    printf("]}");
}

/* The checker's own report of one tile (report.h), as text or JSON, into a
 * malloc'd string (NULL after printing an error). */
static char *library_report(const layout_arch *arch, const layout_kernel_spec *spec, int json)
{
    size_t needed = 0, len = 0;
    layout_instr *scratch;
    layout_check_report *rep;
    layout_error e;
    char *out = NULL;
    if (layout_kernel_report(arch, spec, NULL, 0, &needed, NULL, &e)) {
        tool_error("check", "%s", e.message);
        return NULL;
    }
    scratch = malloc(sizeof *scratch * (needed ? needed : 1));
    rep = malloc(sizeof *rep);
    if (!scratch || !rep) {
        tool_error("check", "out of memory");
    } else if (layout_kernel_report(arch, spec, scratch, needed, NULL, rep, &e) ||
               (json ? layout_check_report_json(rep, NULL, 0, &len, &e) : layout_check_report_text(rep, NULL, 0, &len, &e))) {
        tool_error("check", "%s", e.message);
    } else if ((out = malloc(len + 1)) != NULL) {
        if (json) layout_check_report_json(rep, out, len + 1, NULL, NULL);
        else layout_check_report_text(rep, out, len + 1, NULL, NULL);
    }
    free(scratch);
    free(rep);
    return out;
}

static int write_svg(const char *path, const layout_arch *arch, int elem, int64_t base, side *sides,
                     const layout_kernel_result *res)
{
    const layout_descriptor *d = sides[0].desc;
    int64_t rows, cols, *w0, *w1, hot_words[2 * LAYOUT_MAX_LANES * SVG_MAX_DWORDS];
    int *banks, n_hot = 0, k, ok, extra;
    tool_vocab vocab = tool_vocab_of(arch);
    unsigned char *hot;
    static svg_instr panels[2];
    char headings[2][256], title[256], sub[1024], text[LAYOUT_TEXT_CAP];
    svg_picture p;
    layout_error e;
    FILE *f;
    if (layout_desc_ndims(d) != 2)
        return tool_error("check", "--svg needs a 2-D LDS descriptor (this one has %d dims)", layout_desc_ndims(d));
    rows = layout_desc_length(d, 0);
    cols = layout_desc_length(d, 1);
    if (rows * cols > (1 << 20)) return tool_error("check", "--svg: the tile is too large to draw");
    banks = malloc(sizeof(int) * (size_t)(rows * cols));
    w0 = malloc(sizeof(int64_t) * (size_t)(rows * cols));
    w1 = malloc(sizeof(int64_t) * (size_t)(rows * cols));
    hot = malloc((size_t)(rows * cols));
    if (!banks || !w0 || !w1 || !hot) {
        free(banks), free(w0), free(w1), free(hot);
        return tool_error("check", "out of memory");
    }
    memset(&p, 0, sizeof p);
    if (picture_banks(d, arch, elem, base, banks, w0, w1, &e)) goto lib_fail;
    for (k = 0; k < 2; k++) {
        layout_instr in;
        side *s = &sides[k];
        if (s->plan.n_steps == 0) continue;
        if (layout_access_instr(&s->plan, s->worst_warp, s->worst_step, &in, &e)) goto lib_fail;
        extra = s->costs[s->worst_warp * s->plan.n_steps + s->worst_step].extra_cycles;
        snprintf(headings[k], sizeof headings[k], "worst %s: warp %d step %d, %s, %d %.*s", s->name, s->worst_warp,
                 s->worst_step, layout_ds_op_vendor_name(s->plan.steps[s->worst_step].op, s->dir, vocab.vendor), extra,
                 (int)strlen(vocab.extra) - (extra == 1), vocab.extra);
        if (picture_instr(arch, &in, headings[k], &panels[p.n_instrs], hot_words, &n_hot,
                          (int)(sizeof hot_words / sizeof hot_words[0]), &e))
            goto lib_fail;
        p.instrs[p.n_instrs] = &panels[p.n_instrs];
        p.n_instrs++;
    }
    picture_mark_hot(w0, w1, (size_t)(rows * cols), hot_words, n_hot, hot);
    if (layout_desc_to_text(d, text, sizeof text, NULL)) strcpy(text, "(descriptor)");
    snprintf(title, sizeof title, "%s: %" PRId64 " x %" PRId64 " tile, %d-byte elements - %" PRId64
                                  " %s per tile (write %" PRId64 ", read %" PRId64 ")",
             arch->name, rows, cols, elem, res->extra_cycles_per_tile, vocab.extra, res->write.extra_cycles_per_tile,
             res->read.extra_cycles_per_tile);
    snprintf(sub, sizeof sub, "write %s, read %s per %s; LDS %.300s", res->write.ops, res->read.ops, vocab.unit,
             text);
    p.title = title;
    p.subtitle = sub;
    p.rows = (int)rows;
    p.cols = (int)cols;
    p.row_name = "d0";
    p.col_name = "d1";
    p.bank = banks;
    p.hot = hot;
    p.n_banks = arch->n_banks;
    f = fopen(path, "w");
    if (!f) {
        int why = errno;
        free(banks), free(w0), free(w1), free(hot);
        return tool_error("check", "cannot write '%s': %s", path, strerror(why));
    }
    errno = 0;
    ok = svg_write(f, &p, NULL, NULL) == 0;
    ok = (fclose(f) == 0) && ok;
    int why = errno;
    free(banks), free(w0), free(w1), free(hot);
    return ok ? 0 : tool_error("check", "error writing '%s': %s", path, why ? strerror(why) : "write error");
lib_fail:
    free(banks), free(w0), free(w1), free(hot);
    return tool_error("check", "%s", e.message);
}

static int run(int argc, char **argv)
{
    const char *arch_text = "gfx942", *lds = NULL, *read_lds = NULL, *wr = NULL, *rd = NULL, *svg = NULL;
    const char *html = NULL;
    int elem = 2, json = 0, i, rc, n_arches = 0;
    int64_t tiles = 1, base = 0, counted;
    tool_lint lint = {0, NULL, 0};
    layout_arch arch;
    static layout_arch arches[HTML_MAX_ARCHES];
    static layout_descriptor lds_desc, read_desc;
    static layout_distribution wdist, rdist;
    static side sides[2];
    layout_access_options opt;
    layout_kernel_spec spec;
    layout_kernel_result res;
    layout_checker checker;
    layout_error e;
    char text[LAYOUT_TEXT_CAP], *report = NULL;
    tool_vocab vocab;
    layout_counter ctr_names[LAYOUT_CTR_COUNT];
    int64_t ctr_values[LAYOUT_CTR_COUNT];
    int n_ctr = 0;
    {
        const char *elem_text = NULL, *tiles_text = NULL, *base_text = NULL;
        int n_pos;
        const tool_option opts[] = {{"--arch", &arch_text, NULL},    {"--elem", &elem_text, NULL},
                                    {"--lds", &lds, NULL},           {"--read-lds", &read_lds, NULL},
                                    {"--write", &wr, NULL},          {"--read", &rd, NULL},
                                    {"--tiles", &tiles_text, NULL},  {"--base", &base_text, NULL},
                                    {"--svg", &svg, NULL},           {"--json", NULL, &json},
                                    {"--html", &html, NULL},         TOOL_LINT_OPTIONS(lint),
                                    {NULL, NULL, NULL}};
        if (tool_parse_args("check", argc, argv, opts, NULL, 0, &n_pos) ||
            (elem_text && tool_elem_bytes("check", elem_text, &elem)) ||
            (tiles_text && tool_int("check", "--tiles", tiles_text, 1, INT64_MAX / 4096, &tiles)) ||
            (base_text && tool_int("check", "--base", base_text, 0, UINT32_MAX, &base)) ||
            tool_lint_parse("check", &lint))
            return TOOL_BAD_INPUT;
    }
    {
        const char *const names[] = {"--lds", "--write", "--read"}, *const values[] = {lds, wr, rd};
        if (tool_require("check", names, values, 3,
                         "layout check --lds SPEC --write DIST --read DIST; `layout check --help` has a worked "
                         "example"))
            return TOOL_BAD_INPUT;
    }
    (void)arch_text; /* every --arch is read by html_parse_arches */
    if (html_parse_arches("check", argc, argv, "gfx942", arches, HTML_MAX_ARCHES, &n_arches))
        return TOOL_BAD_INPUT;
    if (n_arches > 1 && !html)
        return tool_error("check", "%d architectures given; several are checked only with --html", n_arches);
    arch = arches[0];
    if (tool_parse_desc("check", lds, &lds_desc) ||
        (read_lds && tool_parse_desc("check", read_lds, &read_desc)) ||
        tool_parse_dist("check", "--write", wr, arch.wave_size, &wdist) ||
        tool_parse_dist("check", "--read", rd, arch.wave_size, &rdist))
        return TOOL_BAD_INPUT;
    memset(&opt, 0, sizeof opt);
    opt.base_bytes = base;
    opt.arch = &arch; /* the DS forms the arch has (pairs, unaligned access) */
    memset(&spec, 0, sizeof spec);
    spec.write_desc = &lds_desc;
    spec.write_dist = &wdist;
    spec.write_opt = &opt;
    spec.read_desc = read_lds ? &read_desc : NULL;
    spec.read_dist = &rdist;
    spec.read_opt = &opt;
    spec.elem_bytes = elem;
    spec.tiles = tiles;
    if (layout_check_kernel(&arch, &spec, &res, &e)) {
        if (tool_explain_tile_mismatch("check", &lds_desc, read_lds ? &read_desc : NULL, &wdist, &rdist))
            return TOOL_BAD_INPUT;
        return tool_error("check", "%s", e.message);
    }
    if (layout_checker_init(&checker, &arch, LAYOUT_IMPL_AUTO, &e)) return tool_error("check", "%s", e.message);
    sides[0].name = "write";
    sides[0].dir = LAYOUT_WRITE;
    sides[0].desc = &lds_desc;
    sides[0].dist = &wdist;
    sides[0].res = &res.write;
    sides[1].name = "read";
    sides[1].dir = LAYOUT_READ;
    sides[1].desc = read_lds ? &read_desc : &lds_desc;
    sides[1].dist = &rdist;
    sides[1].res = &res.read;
    for (i = 0; i < 2; i++) {
        if (layout_access_plan_make(&sides[i].plan, sides[i].desc, sides[i].dist, sides[i].dir, elem, &opt, &e) ||
            cost_side(&checker, &sides[i], &e)) {
            rc = tool_error("check", "%s side: %s", sides[i].name, e.message);
            goto done;
        }
    }
    counted = lint_cycles(&arch, &sides[0], &lint) + lint_cycles(&arch, &sides[1], &lint);
    rc = tool_lint_status(&lint, counted);
    vocab = tool_vocab_of(&arch);
    n_ctr = tool_counters(&arch, &res, ctr_names, ctr_values, LAYOUT_CTR_COUNT);
    report = library_report(&arch, &spec, json);
    if (!report) {
        rc = TOOL_BAD_INPUT;
        goto done;
    }
    if (json) {
        printf("{\"arch\":");
        json_string(arch.name);
        if (layout_arch_to_text(&arch, text, sizeof text, NULL) == LAYOUT_OK) {
            printf(",\"arch_text\":");
            json_string(text);
        }
        printf(",\"elem_bytes\":%d,\"tiles\":%" PRId64 ",\"base_bytes\":%" PRId64, elem, tiles, base);
        if (layout_desc_to_text(&lds_desc, text, sizeof text, NULL) == LAYOUT_OK) {
            printf(",\"lds\":");
            json_string(text);
        }
        if (read_lds && layout_desc_to_text(&read_desc, text, sizeof text, NULL) == LAYOUT_OK) {
            printf(",\"read_lds\":");
            json_string(text);
        }
        if (layout_dist_to_text(&wdist, text, sizeof text, NULL) == LAYOUT_OK) {
            printf(",\"write_dist\":");
            json_string(text);
        }
        if (layout_dist_to_text(&rdist, text, sizeof text, NULL) == LAYOUT_OK) {
            printf(",\"read_dist\":");
            json_string(text);
        }
        printf(",\"sides\":[");
        print_side_json(&arch, &sides[0]);
        printf(",");
        print_side_json(&arch, &sides[1]);
        printf("],\"report\":%s", report);
        /* The profiler counters in the vendor's own names (SQ_... / l1tex__...). */
        printf(",\"vendor\":\"%s\",\"counters\":{", layout_vendor_name(layout_arch_vendor(&arch)));
        for (i = 0; i < n_ctr; i++)
            printf("%s\"%s\":%" PRId64, i ? "," : "", layout_counter_name(ctr_names[i]), ctr_values[i]);
        printf("}");
        /* the exit status's reasons (docs/tool.md "Exit status") */
        printf(",\"lint\":{\"strict\":%s,\"fail_above\":%" PRId64 ",\"counted_cycles\":%" PRId64 ",\"exit\":%d}",
               lint.strict ? "true" : "false", lint.fail_above, counted, rc);
        printf(",\"extra_cycles_per_tile\":%" PRId64 ",\"instrs_per_tile\":%" PRId64 ",\"sq_lds_bank_conflict\":%" PRId64
               ",\"sq_insts_lds\":%" PRId64 ",\"conflict_free\":%s}\n",
               res.extra_cycles_per_tile, res.instrs_per_tile, res.sq_lds_bank_conflict, res.sq_insts_lds,
               res.extra_cycles_per_tile == 0 ? "true" : "false");
    } else {
        printf("# check on %s (%d banks x %d B, %s%d), %d-byte elements, %" PRId64 " tile%s\n", arch.name,
               arch.n_banks, arch.bank_width_bytes, vocab.unit, arch.wave_size, elem, tiles, tiles == 1 ? "" : "s");
        if (layout_desc_to_text(&lds_desc, text, sizeof text, NULL) == LAYOUT_OK) printf("# lds:      %s\n", text);
        if (read_lds && layout_desc_to_text(&read_desc, text, sizeof text, NULL) == LAYOUT_OK)
            printf("# read lds: %s\n", text);
        if (layout_dist_to_text(&wdist, text, sizeof text, NULL) == LAYOUT_OK) printf("# write:    %s\n", text);
        if (layout_dist_to_text(&rdist, text, sizeof text, NULL) == LAYOUT_OK) printf("# read:     %s\n", text);
        if (print_side_text(&arch, &sides[0]) || print_side_text(&arch, &sides[1])) {
            rc = TOOL_BAD_INPUT;
            goto done;
        }
        printf("checker's report of one tile:\n%s%s", report,
               report[0] && report[strlen(report) - 1] != '\n' ? "\n" : "");
        printf("per tile: write %" PRId64 " %s in %" PRId64 " instructions, read %" PRId64 " %s in %" PRId64
               " instructions\n",
               res.write.extra_cycles_per_tile, vocab.extra, res.write.instrs_per_tile, res.read.extra_cycles_per_tile,
               vocab.extra, res.read.instrs_per_tile);
        if (vocab.vendor == LAYOUT_VENDOR_NVIDIA) {
            /* Nsight Compute's metrics, one a line (the names are long). */
            printf("kernel (%" PRId64 " tile%s), as Nsight Compute counts it:\n", tiles, tiles == 1 ? "" : "s");
            for (i = 0; i < n_ctr; i++) printf("  %-58s %" PRId64 "\n", layout_counter_name(ctr_names[i]), ctr_values[i]);
        } else if (n_ctr > 0) {
            printf("kernel (%" PRId64 " tile%s):", tiles, tiles == 1 ? "" : "s");
            for (i = 0; i < n_ctr; i++)
                printf("%s %s %" PRId64, i ? "," : "", layout_counter_name(ctr_names[i]), ctr_values[i]);
            printf("\n");
        } else {
            /* no profiler counters for this vendor: the model's own totals */
            printf("kernel (%" PRId64 " tile%s): %" PRId64 " %s, %" PRId64 " instructions\n", tiles,
                   tiles == 1 ? "" : "s", res.sq_lds_bank_conflict, vocab.extra, res.sq_insts_lds);
        }
        if (res.extra_cycles_per_tile == 0)
            printf("verdict: conflict-free\n");
        else
            printf("verdict: CONFLICTS - %" PRId64 " %s per tile (write %" PRId64 ", read %" PRId64 ")\n",
                   res.extra_cycles_per_tile, vocab.extra, res.write.extra_cycles_per_tile,
                   res.read.extra_cycles_per_tile);
        tool_lint_print(&lint, res.extra_cycles_per_tile, counted, vocab.extra);
    }
    if (svg && write_svg(svg, &arch, elem, base, sides, &res)) rc = TOOL_BAD_INPUT;
    if (html) {
        html_check hc;
        hc.lds = &lds_desc;
        hc.read_lds = read_lds ? &read_desc : NULL;
        hc.write_dist = &wdist;
        hc.read_dist = &rdist;
        hc.elem_bytes = elem;
        hc.base_bytes = base;
        hc.tiles = tiles;
        if (html_write_check(html, &hc, arches, n_arches)) rc = TOOL_BAD_INPUT;
    }
done:
    free(report);
    free(sides[0].costs);
    free(sides[1].costs);
    sides[0].costs = sides[1].costs = NULL;
    return rc;
}
