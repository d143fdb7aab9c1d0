/* layout triton: a Triton kernel's shared-memory ops (TTGIR in), each
 * lowered as Triton 3.6 lowers it and costed by the checker. */
#include "tool.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_triton = {
    "triton", "a Triton kernel (TTGIR): each shared-memory op's instructions and cost",
    "usage: layout triton FILE.ttgir [--arch A] [--json] [--suggest [--same-bytes]] [--apply OUT.ttgir]\n"
    "                    [--html FILE] [--stream] [--strict] [--fail-above CYCLES]\n"
    "\n"
    "Read the TTGIR Triton prints (kernel.asm[\"ttgir\"]; FILE '-' = standard\n"
    "input) and, for every op that moves data between registers and shared\n"
    "memory, rebuild Triton 3.6's lowering for one warp: the vector width\n"
    "(registers contiguous in both layouts), the instructions as the ISA\n"
    "prints them (ds_write_b16, ds_read2st64_b64, st.shared.v2.b32 ...) with\n"
    "their count per warp, the extra (conflict) cycles or wavefronts and bank\n"
    "conflicts, and the worst instruction explained as `layout check` does.\n"
    "Every op whose lowering may touch shared memory is either modelled or\n"
    "listed as not modelled with the reason (wgmma operands, direct loads to\n"
    "LDS, scans across warps, histogram, gather, warp_specialize, any op with\n"
    "allocation.offset or an unknown op on a memdesc).\n"
    "\n"
    "  --arch A   preset name, alias (H100, MI300X, cuda:90, hip:gfx942, ...;\n"
    "             see layout arch) or arch(...) text; default: from ttg.target\n"
    "             (hip:gfx942 -> gfx942, cuda:90 -> sm_90)\n"
    "  --json     one JSON object: target, arch, ops, per_warp_total, not_modelled,\n"
    "             totals, suggestions (always: layout_triton_kernel_report_json's object)\n"
    "  --suggest  per shared allocation, the best #ttg shared layout Triton accepts,\n"
    "             scored over all of its writers and readers, within the target's LDS\n"
    "             less the other allocations: current vs suggested, with costs\n"
    "             (only what Triton 3.6 lowers for every user: docs/triton.md's rules;\n"
    "             a kept allocation's note names the rule), with its Gluon source\n"
    "  --apply OUT.ttgir  write the module with every improving suggestion applied\n"
    "             (OUT '-' = standard output; the report then goes nowhere)\n"
    "  --same-bytes  with --suggest / --json / --html / --apply: no more bytes than the\n"
    "             allocation takes now (no padding added)\n"
    "  --stream   after the report, each op's instructions one by one (one warp,\n"
    "             program order): base register, constant offset, bytes per lane,\n"
    "             the warps and lanes that run it, its cost, and which of the\n"
    "             compilers' passes made it (LLVM's LoadStoreVectorizer, AMDGPU's\n"
    "             SILoadStoreOptimizer within and across ops, ptxas's sunk load)\n"
    "  --html FILE  one self-contained page, a tab per op: layouts, instructions,\n"
    "             the worst instruction's lanes and banks, the suggestion\n"
    "  --strict   exit 1 on any conflict (default: only on conflicts of high\n"
    "             confidence; an op's `confidence:` line says when it is lower)\n"
    "  --fail-above CYCLES  exit 1 only above CYCLES counted conflict cycles (the\n"
    "             totals line's per-warp sum; bank conflicts on NVIDIA)\n"
    "\n"
    "Exit status: 0 no counted conflict, 1 conflicts the lint policy counts (see\n"
    "--strict; the `lint:` line says which), 2 bad input:\n"
    "an empty or cut text, unbalanced brackets, a missing ttg.target or\n"
    "ttg.num-warps (--arch does not replace them), Triton < 3.2's triton_gpu\n"
    "dialect; the message gives the line and column.\n"
    "\n"
    "example:\n"
    "  layout triton tests/fixtures/triton/kernels/matmul_fp16_64x64x32_w4_s2_gfx942.ttgir\n",
    run};

static layout_ttgir g_module;
static layout_triton_kernel g_kernel;
static layout_triton_kernel_suggestions g_sugg;
static char g_text[1 << 22];
static char g_json[1 << 23];

int triton_html_write(const char *path, const layout_triton_kernel *k, const layout_triton_kernel_suggestions *s);

static size_t read_all(FILE *f, char *buf, size_t cap, int *too_big)
{
    size_t n = 0, got;
    *too_big = 0;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) { *too_big = 1; break; }
    }
    return n;
}

static void print_text(const layout_ttgir *m, const layout_triton_kernel *k)
{
    static char explain[8192];
    printf("target %s, arch %s, %d warps of %d lanes: %d shared-memory ops, %d modelled\n\n",
           m->target[0] ? m->target : "(none)", k->arch.name, m->num_warps, k->arch.wave_size, k->n_ops,
           k->n_modelled);
    for (int i = 0; i < k->n_ops; i++) {
        const layout_triton_kernel_op *r = &k->ops[i];
        const layout_ttgir_op *o = &m->ops[r->op];
        if (r->kind == LAYOUT_TTGIR_OTHER_SHARED && o->name_len)
            printf("%s line %d  %.*s\n", r->loc[0] ? r->loc : "(no loc)", r->line, (int)o->name_len, m->text + o->name_at);
        else
            printf("%s line %d  %s\n", r->loc[0] ? r->loc : "(no loc)", r->line, layout_ttgir_op_name(r->kind));
        if (r->reg_enc_len) printf("  registers: %.*s\n", (int)r->reg_enc_len, m->text + r->reg_enc_at);
        if (r->shared_enc_len) printf("  shared:    %.*s\n", (int)r->shared_enc_len, m->text + r->shared_enc_at);
        if (!r->modelled) {
            printf("  not modelled: %s\n\n", r->reason);
            continue;
        }
        if (r->kind == LAYOUT_TTGIR_WARP_GROUP_DOT) { /* the tensor core's reads: no LSU instruction */
            printf("  tensor-core reads (wgmma descriptors, no LSU instruction): %" PRId64 " wavefronts, %" PRId64
                   " bank conflicts per CTA (%" PRId64 " per warp; ncu's op_gmma counters)\n\n",
                   r->cta_total_cycles, r->cta_extra_cycles, r->total_cycles);
            continue;
        }
        if (r->n_counts == 0) { /* modelled with no instruction */
            printf("  no shared-memory instruction: %s\n\n",
                   r->kind == LAYOUT_TTGIR_REDUCE ? "reduced within each warp (shuffles)"
                   : r->kind == LAYOUT_TTGIR_SCAN ? "scanned within each warp (registers and shuffles)"
                   : r->kind == LAYOUT_TTGIR_GATHER ? "gathered within each warp (shuffles and selects)"
                                                    : "registers renamed within each thread");
            continue;
        }
        if (r->kind == LAYOUT_TTGIR_REDUCE)
            printf("  scratch %" PRId64 " bytes: each warp's partials stored, combined, the results read back; "
                   "%d scalar accesses of %d bits per warp\n",
                   r->cvt_scratch_bytes, r->n_accesses, r->elem_bits);
        else
            printf("  %s, vector %d x %d bits = %d bits, %d accesses per warp\n", layout_direction_name(r->direction),
                   r->vec_elems, r->elem_bits, r->vec_bits, r->n_accesses);
        printf("  instructions per warp:");
        for (int j = 0; j < r->n_counts; j++)
            printf("%s %" PRId64 " %s", j ? "," : "", r->counts[j].count, r->counts[j].mnemonic);
        printf("\n");
        if (k->is_nvidia)
            printf("  cost per warp: %" PRId64 " wavefronts, %" PRId64 " bank conflicts, %d of %d accesses conflicted\n",
                   r->total_cycles, r->extra_cycles, r->n_conflicted, r->n_accesses);
        else
            printf("  cost per warp: %" PRId64 " extra cycles (%" PRId64 " total), %d of %d accesses conflicted\n",
                   r->extra_cycles, r->total_cycles, r->n_conflicted, r->n_accesses);
        if (r->sunk_warps > 0)
            printf("  executed: ptxas runs the last load on %d of %d warps, %d of %d lanes each (the others only "
                   "repeat their elements: they exit before their masked store); CTA cost %" PRId64 " wavefronts, %" PRId64
                   " bank conflicts\n", r->sunk_warps, k->module->num_warps, r->sunk_lanes, k->arch.wave_size,
                   r->cta_total_cycles, r->cta_extra_cycles);
        if (r->ptxas_joined_loads > 0 || r->ptxas_joined_stores > 0) {
            printf("  executed: ptxas joins");
            if (r->ptxas_joined_loads > 0) printf(" %d of these loads into others' wider LDS", r->ptxas_joined_loads);
            if (r->ptxas_joined_stores > 0)
                printf("%s %d of these stores into others' wider STS", r->ptxas_joined_loads > 0 ? " and" : "",
                       r->ptxas_joined_stores);
            printf(" per warp (one base register, contiguous, aligned); CTA cost %" PRId64 " wavefronts, %" PRId64
                   " bank conflicts\n", r->cta_total_cycles, r->cta_extra_cycles);
        }
        if (r->ptxas_dummy_loads > 0)
            printf("  executed: ptxas adds %d `@!PT LDS RZ, [RZ]` here per warp (beside cp.async: no access, no "
                   "wavefront; Nsight Compute counts them as shared loads)\n", r->ptxas_dummy_loads);
        {
            const char *note;
            layout_confidence c = layout_triton_kernel_op_confidence(k, r, &note);
            if (c != LAYOUT_CONFIDENCE_HIGH)
                printf("  confidence: %s%s%s\n", layout_confidence_name(c), note[0] ? ": " : "", note);
        }
        if (r->worst_extra > 0 && layout_triton_kernel_op_explain(k, r, explain, sizeof explain, NULL) == LAYOUT_OK) {
            printf("  worst access %d (%d extra, %d-way):\n", r->worst_access, r->worst_extra, r->worst_nway);
            for (char *line = strtok(explain, "\n"); line; line = strtok(NULL, "\n")) printf("    %s\n", line);
        }
        printf("\n");
    }
    printf("per warp total:");
    for (int t = 0; t < k->n_per_warp; t++)
        printf("%s %" PRId64 " %s", t ? "," : "", k->per_warp_total[t].count, k->per_warp_total[t].mnemonic);
    printf("%s\n", k->n_per_warp ? "" : " (nothing modelled)");
    printf("totals: %d ops, %d modelled, %" PRId64 " accesses, %" PRId64 " %s, %" PRId64 " %s\n", k->n_ops,
           k->n_modelled, k->n_accesses, k->extra_cycles, k->is_nvidia ? "bank conflicts" : "extra cycles",
           k->total_cycles, k->is_nvidia ? "wavefronts" : "total cycles");
}

/* Why an allocation was not searched: its note without the "kept (rule
 * NAME), " the suggestion line already says. */
static const char *note_reason(const layout_triton_kernel_alloc *x)
{
    char head[64];
    snprintf(head, sizeof head, "kept (rule %s), ", x->rule);
    if (x->rule[0] && strncmp(x->note, head, strlen(head)) == 0) return x->note + strlen(head);
    return x->note[0] ? x->note : "no reason recorded";
}

static void print_suggestions(const layout_ttgir *m, const layout_triton_kernel *k,
                              const layout_triton_kernel_suggestions *s)
{
    const char *unit = k->is_nvidia ? "wavefronts" : "cycles";
    printf("\nsuggestions (%d allocations; LDS %" PRId64 " bytes, %" PRId64 " allocated; cost = %s per warp over the "
           "allocation's accesses):\n",
           s->n_allocs, s->lds_bytes, s->total_bytes, k->is_nvidia ? "shared wavefronts" : "LDS cycles");
    for (int a = 0; a < s->n_allocs; a++) {
        const layout_triton_kernel_alloc *x = &s->allocs[a];
        printf("allocation %d: %s line %d, ", a, x->loc[0] ? x->loc : "(no loc)", x->line);
        for (int d = 0; d < x->rank && d < 3; d++) printf("%s%" PRId64, d ? "x" : "", x->shape[d]);
        printf(" x %d bits, %d accesses (%d scored)", x->elem_bits, x->n_ops, x->n_scored);
        if (x->enc_len) printf(", %.*s", (int)x->enc_len, m->text + x->enc_at);
        printf("\n  current:   %s\n             %" PRId64 " %s (%" PRId64 " %s), %" PRId64 " bytes\n", x->current,
               x->current_cost, unit, x->current_extra, k->is_nvidia ? "bank conflicts" : "extra", x->current_bytes);
        if (!x->searched) {
            /* No search ran: say which rule (or reason) kept the layout, not
             * "nothing better", which would claim candidates were compared. */
            printf("  suggested: not searched: %s%s\n             why: %s\n", x->rule[0] ? "rule " : "",
                   x->rule[0] ? x->rule : "no rule applies", note_reason(x));
        } else {
            printf("  suggested: %s\n             %" PRId64 " %s (%" PRId64 " %s), %" PRId64 " bytes%s\n", x->attr,
                   x->cost, unit, x->extra, k->is_nvidia ? "bank conflicts" : "extra", x->bytes,
                   x->improved ? "" : "  (nothing better: keep)");
        }
        {
            char form[1024];
            if (layout_triton_kernel_attr_form(x->attr, x->rank, x->shape, LAYOUT_TRITON_FORM_GLUON, form, sizeof form,
                                               NULL) == LAYOUT_OK)
                printf("  gluon:     %s\n", form);
            if (layout_triton_kernel_attr_form(x->attr, x->rank, x->shape, LAYOUT_TRITON_FORM_CUTE, form, sizeof form,
                                               NULL) == LAYOUT_OK)
                printf("  cute:      %s\n", form);
        }
        if (x->searched)
            printf("             %" PRId64 " candidates scored within %" PRId64 " bytes\n", x->scored, x->budget_bytes);
        for (int j = 0; j < x->n_ops; j++) {
            /* the order Triton emits each writer's stores in: ptxas batches
             * the global loads feeding them by it (docs/triton.md) */
            const layout_triton_kernel_op *r = &k->ops[x->ops[j]];
            if (!r->modelled || r->direction != LAYOUT_WRITE || x->store_order[j] < 0) continue;
            if (x->store_order[j] == r->stores_out_of_register_order)
                printf("  stores:    line %d: %s, kept\n", r->line,
                       r->stores_out_of_register_order ? "out of register order" : "register order");
            else
                printf("  stores:    line %d: %s now, %s under the suggestion (the order the stores are emitted in "
                       "changes)\n", r->line, r->stores_out_of_register_order ? "out of register order" : "register order",
                       x->store_order[j] ? "out of register order" : "register order");
        }
        if (x->order_kept)
            printf("             of the candidates of this cost, the one that keeps the store order is suggested\n");
        if (x->note[0] && x->searched) printf("  note: %s\n", x->note);
    }
}

/* --stream: each op's instructions (triton_stream.h), one line each. */
static void print_streams(const layout_ttgir *m, const layout_triton_kernel *k)
{
    static layout_triton_inst in[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    layout_error err;
    printf("\ninstruction streams (one warp, program order; after the LoadStoreVectorizer, SILoadStoreOptimizer and "
           "ptxas):\n");
    for (int i = 0; i < k->n_ops; i++) {
        const layout_triton_kernel_op *r = &k->ops[i];
        int n = 0;
        if (!r->modelled) continue;
        if (layout_triton_kernel_op_stream(k, i, in, LAYOUT_TRITON_KERNEL_MAX_ACCESSES, &n, &err) != LAYOUT_OK) {
            if (r->n_counts > 0) printf("op %d, line %d, %s: %s\n", i, r->line, layout_ttgir_op_name(r->kind), err.message);
            continue;
        }
        if (n == 0) continue;
        printf("op %d, line %d, %s", i, r->line, layout_ttgir_op_name(r->kind));
        if (n > 0 && in[0].buffer >= 0) {
            const layout_ttgir_value *v = &m->ir.values[in[0].buffer];
            printf(", buffer %.*s", (int)v->name.len, m->text + v->name.at);
        }
        printf(": %d instruction%s\n", n, n == 1 ? "" : "s");
        printf("  %4s  %-24s %5s %6s %8s %4s  %-16s %-12s %6s %6s  %s\n", "#", "instruction", "bytes", "base", "offset",
               "acc", "pair", "warps x lanes", "extra", "total", "passes");
        for (int j = 0; j < n && j < LAYOUT_TRITON_KERNEL_MAX_ACCESSES; j++) {
            const layout_triton_inst *e = &in[j];
            char pair[32] = "-", runs[24], passes[96] = "";
            int warps = 0, lanes = 0;
            for (int w = 0; w < e->n_warps; w++)
                if (e->lanes[w]) warps++, lanes = __builtin_popcountll(e->lanes[w]);
            /* a pair's counted half "with" its partner, the other "into" it */
            if (e->partner >= 0 && e->partner_op == i)
                snprintf(pair, sizeof pair, "%s #%d", e->standing ? "with" : "into", e->partner);
            else if (e->partner >= 0)
                snprintf(pair, sizeof pair, "%s op %d #%d", e->standing ? "with" : "into", e->partner_op, e->partner);
            snprintf(runs, sizeof runs, "%d x %d", warps, lanes);
            for (unsigned b = 1; b <= LAYOUT_TRITON_PASS_PTXAS_JOIN; b <<= 1)
                if (e->passes & b)
                    snprintf(passes + strlen(passes), sizeof passes - strlen(passes), "%s%s", passes[0] ? ", " : "",
                             layout_triton_pass_name(b));
            if ((e->passes & LAYOUT_TRITON_PASS_PTXAS_JOIN) && e->ptxas_lead == j)
                snprintf(passes + strlen(passes), sizeof passes - strlen(passes), " (%d bytes)", e->ptxas_bytes);
            else if (e->passes & LAYOUT_TRITON_PASS_PTXAS_JOIN)
                snprintf(passes + strlen(passes), sizeof passes - strlen(passes), " (into #%d)", e->ptxas_lead);
            printf("  %4d  %-24s %5d %6" PRIx64 " %8" PRId64 " %4d  %-16s %-12s %6" PRId64 " %6" PRId64 "  %s%s%s\n", j,
                   e->mnemonic, e->bytes, e->base_reg & 0xffffff, e->offset, e->accesses, pair, runs, e->extra_cycles,
                   e->total_cycles, passes[0] ? passes : "-", e->confidence == LAYOUT_CONFIDENCE_HIGH ? "" : "; confidence ",
                   e->confidence == LAYOUT_CONFIDENCE_HIGH ? "" : layout_confidence_name(e->confidence));
        }
    }
}

static int run(int argc, char **argv)
{
    const char *arch_arg = NULL, *html = NULL, *apply = NULL, *pos[1];
    int json = 0, suggest = 0, same_bytes = 0, stream = 0, n_pos = 0, too_big = 0, rc;
    tool_lint lint = {0, NULL, 0};
    int64_t counted = 0; /* conflict cycles the lint policy counts */
    const tool_option opts[] = {{"--arch", &arch_arg, NULL},   {"--json", NULL, &json},
                                {"--suggest", NULL, &suggest}, {"--same-bytes", NULL, &same_bytes},
                                {"--html", &html, NULL},       {"--apply", &apply, NULL},
                                {"--stream", NULL, &stream},   TOOL_LINT_OPTIONS(lint),       {NULL, NULL, NULL}};
    layout_triton_kernel_suggest_options sopt;
    layout_arch arch;
    layout_error err;
    size_t n;
    FILE *f;
    if (tool_wants_help(argc, argv)) return tool_usage(&tool_cmd_triton);
    if ((rc = tool_parse_args("triton", argc, argv, opts, pos, 1, &n_pos))) return rc;
    if (tool_lint_parse("triton", &lint)) return TOOL_BAD_INPUT;
    if (n_pos != 1) return tool_error("triton", "expected one FILE.ttgir ('-' for standard input)");
    if (arch_arg && tool_parse_arch("triton", arch_arg, &arch)) return TOOL_BAD_INPUT;
    {   /* fopen() opens a directory on Linux and reads nothing: say what it is */
        struct stat sb;
        if (strcmp(pos[0], "-") != 0 && stat(pos[0], &sb) == 0 && S_ISDIR(sb.st_mode))
            return tool_error("triton", "'%s' is a directory: expected a .ttgir file (kernel.asm[\"ttgir\"] written "
                                        "to a file, or '-' for standard input)", pos[0]);
    }
    f = strcmp(pos[0], "-") == 0 ? stdin : fopen(pos[0], "rb");
    if (!f) return tool_error("triton", "cannot open '%s': %s", pos[0], strerror(errno));
    n = read_all(f, g_text, sizeof g_text, &too_big);
    if (f != stdin) fclose(f);
    if (too_big) return tool_error("triton", "%s: more than %zu bytes", pos[0], sizeof g_text - 1);
    if (layout_ttgir_parse(g_text, n, &g_module, &err) != LAYOUT_OK)
        return tool_error("triton", "%s: %s", pos[0], err.message);
    if (layout_triton_kernel_analyze(&g_module, arch_arg ? &arch : NULL, &g_kernel, &err) != LAYOUT_OK)
        return tool_error("triton", "%s: %s", pos[0], err.message);
    memset(&sopt, 0, sizeof sopt);
    sopt.same_bytes = same_bytes;
    if ((json || suggest || html || apply) && layout_triton_kernel_suggest(&g_kernel, &sopt, &g_sugg, &err) != LAYOUT_OK)
        return tool_error("triton", "%s: %s", pos[0], err.message);
    if (html && (rc = triton_html_write(html, &g_kernel, &g_sugg))) return rc;
    if (apply) {
        static layout_triton_kernel_apply_result res;
        size_t need = 0;
        FILE *o;
        if (layout_triton_kernel_apply(&g_kernel, &g_sugg, g_json, sizeof g_json, &need, &res, &err) != LAYOUT_OK)
            return tool_error("triton", "%s: %s", pos[0], err.message);
        o = strcmp(apply, "-") == 0 ? stdout : fopen(apply, "wb");
        if (!o) return tool_error("triton", "cannot write '%s': %s", apply, strerror(errno));
        fwrite(g_json, 1, need, o);
        if (o != stdout) {
            fclose(o);
            fprintf(stderr, "layout triton: %s: %d suggestion%s applied, %d skipped\n", apply, res.n_applied,
                    res.n_applied == 1 ? "" : "s", res.n_skipped);
            for (int a = 0; a < g_sugg.n_allocs; a++)
                if (res.how[a]) fprintf(stderr, "  allocation %d (line %d): %s%s%s\n", a, g_sugg.allocs[a].line,
                                        res.how[a] < 0 ? "skipped: " : res.alias[a], res.how[a] < 0 ? "" : " = ",
                                        res.how[a] < 0 ? res.note[a] : g_sugg.allocs[a].attr);
        }
        if (!json && !suggest) return TOOL_OK;
        if (o == stdout) return TOOL_OK;
    }
    {   /* the lint policy: which ops' conflicts count towards the exit status */
        for (int i = 0; i < g_kernel.n_ops; i++) {
            const layout_triton_kernel_op *r = &g_kernel.ops[i];
            if (r->modelled && r->extra_cycles > 0 &&
                tool_lint_counts(&lint, layout_triton_kernel_op_confidence(&g_kernel, r, NULL)))
                counted += r->extra_cycles;
        }
        rc = tool_lint_status(&lint, counted);
    }
    if (json) {
        if (layout_triton_kernel_json(&g_kernel, &g_sugg, g_json, sizeof g_json, NULL, &err) != LAYOUT_OK)
            return tool_error("triton", "%s: %s", pos[0], err.message);
        printf("%s\n", g_json);
    } else {
        print_text(&g_module, &g_kernel);
        tool_lint_print(&lint, g_kernel.extra_cycles, counted,
                        g_kernel.is_nvidia ? "bank conflicts" : "extra cycles");
        if (suggest) print_suggestions(&g_module, &g_kernel, &g_sugg);
        if (stream) print_streams(&g_module, &g_kernel);
    }
    return rc;
}
