/* layout triton: a Triton kernel's shared-memory ops (TTGIR in), each
 * lowered as Triton 3.6 lowers it and costed by the checker. */
#include "tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_triton = {
    "triton", "a Triton kernel (TTGIR): each shared-memory op's instructions and cost",
    "usage: layout triton FILE.ttgir [--arch A] [--json]\n"
    "\n"
    "Read the TTGIR Triton prints (kernel.asm[\"ttgir\"]; FILE '-' = standard\n"
    "input) and, for every op that moves data between registers and shared\n"
    "memory, rebuild Triton 3.6's lowering for one warp: the vector width\n"
    "(registers contiguous in both layouts), the instructions as the ISA\n"
    "prints them (ds_write_b16, ds_read2st64_b64, st.shared.v2.b32 ...) with\n"
    "their count per warp, the extra (conflict) cycles or wavefronts and bank\n"
    "conflicts, and the worst instruction explained as `layout check` does.\n"
    "Ops lowered another way (convert_layout, reduce, wgmma operands, direct\n"
    "loads to LDS) are listed as not modelled with the reason.\n"
    "\n"
    "  --arch A   preset name or arch(...) text; default: from ttg.target\n"
    "             (hip:gfx942 -> gfx942, cuda:90 -> sm_90)\n"
    "  --json     one JSON object: target, ops, per_warp_total, not_modelled, totals\n"
    "\n"
    "Exit status: 0 no modelled op conflicts, 1 some op conflicts, 2 bad input.\n"
    "\n"
    "example:\n"
    "  layout triton tests/fixtures/triton/kernels/matmul_fp16_64x64x32_w4_s2_gfx942.ttgir\n",
    run};

static layout_ttgir g_module;
static layout_triton_kernel g_kernel;
static char g_text[1 << 22];

static void json_string(const char *s, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n && s[i]; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') printf("\\%c", ch);
        else if (ch < 0x20) printf("\\u%04x", ch);
        else putchar(ch);
    }
    putchar('"');
}

static void json_cstr(const char *s) { json_string(s, strlen(s)); }

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
        printf("%s line %d  %s\n", r->loc[0] ? r->loc : "(no loc)", r->line, layout_ttgir_op_name(r->kind));
        if (r->reg_enc_len) printf("  registers: %.*s\n", (int)r->reg_enc_len, m->text + r->reg_enc_at);
        if (r->shared_enc_len) printf("  shared:    %.*s\n", (int)r->shared_enc_len, m->text + r->shared_enc_at);
        if (!r->modelled) {
            printf("  not modelled: %s\n\n", r->reason);
            continue;
        }
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

static void print_json(const layout_ttgir *m, const layout_triton_kernel *k)
{
    static char explain[8192];
    int first = 1;
    printf("{\"target\":");
    json_cstr(m->target);
    printf(",\"arch\":");
    json_cstr(k->arch.name);
    printf(",\"num_warps\":%d,\"ops\":[", m->num_warps);
    for (int i = 0; i < k->n_ops; i++) {
        const layout_triton_kernel_op *r = &k->ops[i];
        printf("%s{\"op\":", i ? "," : "");
        json_cstr(layout_ttgir_op_name(r->kind));
        printf(",\"line\":%d,\"loc\":", r->line);
        json_cstr(r->loc);
        printf(",\"registers\":");
        json_string(m->text + r->reg_enc_at, r->reg_enc_len);
        printf(",\"shared\":");
        json_string(m->text + r->shared_enc_at, r->shared_enc_len);
        printf(",\"modelled\":%d", r->modelled);
        if (!r->modelled) {
            printf(",\"reason\":");
            json_cstr(r->reason);
            printf("}");
            continue;
        }
        printf(",\"direction\":\"%s\",\"elem_bits\":%d,\"vec_elems\":%d,\"vec_bits\":%d,\"accesses\":%d,"
               "\"instructions\":{",
               layout_direction_name(r->direction), r->elem_bits, r->vec_elems, r->vec_bits, r->n_accesses);
        for (int j = 0; j < r->n_counts; j++) {
            printf("%s", j ? "," : "");
            json_cstr(r->counts[j].mnemonic);
            printf(":%" PRId64, r->counts[j].count);
        }
        printf("},\"extra_cycles\":%" PRId64 ",\"total_cycles\":%" PRId64 ",\"conflicted\":%d", r->extra_cycles,
               r->total_cycles, r->n_conflicted);
        if (k->is_nvidia)
            printf(",\"wavefronts\":%" PRId64 ",\"bank_conflicts\":%" PRId64, r->total_cycles, r->extra_cycles);
        printf(",\"worst\":{\"access\":%d,\"extra\":%d,\"nway\":%d,\"explain\":", r->worst_access, r->worst_extra,
               r->worst_nway);
        if (layout_triton_kernel_op_explain(k, r, explain, sizeof explain, NULL) != LAYOUT_OK) explain[0] = 0;
        json_cstr(explain);
        printf("}}");
    }
    printf("],\"per_warp_total\":{");
    for (int t = 0; t < k->n_per_warp; t++) {
        printf("%s", t ? "," : "");
        json_cstr(k->per_warp_total[t].mnemonic);
        printf(":%" PRId64, k->per_warp_total[t].count);
    }
    printf("},\"not_modelled\":[");
    for (int i = 0; i < k->n_ops; i++) {
        const layout_triton_kernel_op *r = &k->ops[i];
        if (r->modelled) continue;
        printf("%s{\"loc\":", first ? "" : ",");
        first = 0;
        json_cstr(r->loc);
        printf(",\"line\":%d,\"op\":", r->line);
        json_cstr(layout_ttgir_op_name(r->kind));
        printf(",\"reason\":");
        json_cstr(r->reason);
        printf("}");
    }
    printf("],\"totals\":{\"ops\":%d,\"modelled\":%d,\"accesses\":%" PRId64 ",\"extra_cycles\":%" PRId64
           ",\"total_cycles\":%" PRId64 "}}\n",
           k->n_ops, k->n_modelled, k->n_accesses, k->extra_cycles, k->total_cycles);
}

static int run(int argc, char **argv)
{
    const char *arch_arg = NULL, *pos[1];
    int json = 0, n_pos = 0, too_big = 0, rc;
    const tool_option opts[] = {{"--arch", &arch_arg, NULL}, {"--json", NULL, &json}, {NULL, NULL, NULL}};
    layout_arch arch;
    layout_error err;
    size_t n;
    FILE *f;
    if (tool_wants_help(argc, argv)) return tool_usage(&tool_cmd_triton);
    if ((rc = tool_parse_args("triton", argc, argv, opts, pos, 1, &n_pos))) return rc;
    if (n_pos != 1) return tool_error("triton", "expected one FILE.ttgir ('-' for standard input)");
    if (arch_arg && tool_parse_arch("triton", arch_arg, &arch)) return TOOL_BAD_INPUT;
    f = strcmp(pos[0], "-") == 0 ? stdin : fopen(pos[0], "rb");
    if (!f) return tool_error("triton", "cannot open %s", pos[0]);
    n = read_all(f, g_text, sizeof g_text, &too_big);
    if (f != stdin) fclose(f);
    if (too_big) return tool_error("triton", "%s: more than %zu bytes", pos[0], sizeof g_text - 1);
    if (layout_ttgir_parse(g_text, n, &g_module, &err) != LAYOUT_OK)
        return tool_error("triton", "%s: %s", pos[0], err.message);
    if (layout_triton_kernel_analyze(&g_module, arch_arg ? &arch : NULL, &g_kernel, &err) != LAYOUT_OK)
        return tool_error("triton", "%s: %s", pos[0], err.message);
    if (json) print_json(&g_module, &g_kernel);
    else print_text(&g_module, &g_kernel);
    return g_kernel.extra_cycles > 0 ? TOOL_FINDING : TOOL_OK;
}
