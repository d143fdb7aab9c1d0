/* layout cost: per-lane byte addresses from standard input, one instruction
 * per line, costed on an architecture. */
#include "tool.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_cost = {
    "cost", "cost raw per-lane byte addresses read from standard input",
    "usage: layout cost --arch A --width BYTES --op read|write [--explain] [--impl auto|scalar|avx2]\n"
    "\n"
    "Read one instruction per line from standard input: the byte address of\n"
    "lane 0, lane 1, ... separated by spaces (decimal or 0x hex), '-' for an\n"
    "inactive lane; lanes after the last one listed are inactive.  Empty lines\n"
    "and lines starting with # are skipped.  For each instruction print one\n"
    "line: extra (conflict) cycles, total cycles, groups, worst n-way bank use.\n"
    "\n"
    "  --arch A       preset name or arch(...) text (see layout arch --help)\n"
    "  --width BYTES  bytes per lane: 1, 2, 4, 8, 12 or 16\n"
    "  --op OP        read or write (lane groups may differ)\n"
    "  --explain      also print every lane group: cycles, worst bank, its lanes\n"
    "  --impl I       checker implementation (default auto)\n"
    "\n"
    "Exit status: 0 all conflict-free, 1 some instruction has conflicts, 2 bad input.\n"
    "\n"
    "example: seq 0 128 8064 | tr '\\n' ' ' | layout cost --arch gfx942 --width 4 --op read\n",
    run};

/* Parse one line into instr; 0 = ok, 1 = skip (blank / comment), -1 = error printed. */
static int parse_line(const char *line, long line_no, layout_instr *in)
{
    const char *p = line;
    int lane = 0;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '\0' || *p == '#') return 1;
    in->active_mask = 0;
    while (*p) {
        const char *tok = p;
        while (isspace((unsigned char)*p)) p++;
        if (*p == '\0') break;
        tok = p;
        if (lane >= in->n_lanes) {
            tool_error("cost", "line %ld, column %ld: more than %d lanes (the wave size)", line_no,
                       (long)(tok - line) + 1, in->n_lanes);
            return -1;
        }
        if (*p == '-' && (p[1] == '\0' || isspace((unsigned char)p[1]))) {
            p++;
        } else {
            char *end;
            unsigned long long v;
            errno = 0;
            if (!isdigit((unsigned char)*p)) {
                tool_error("cost", "line %ld, column %ld: expected a byte address or '-', found '%.*s'", line_no,
                           (long)(tok - line) + 1, (int)strcspn(tok, " \t\r\n"), tok);
                return -1;
            }
            v = strtoull(p, &end, 0);
            if (errno == ERANGE || v > UINT32_MAX || (*end && !isspace((unsigned char)*end))) {
                tool_error("cost", "line %ld, column %ld: '%.*s' is not a 32-bit byte address", line_no,
                           (long)(tok - line) + 1, (int)strcspn(tok, " \t\r\n"), tok);
                return -1;
            }
            in->addr_bytes[lane] = (uint32_t)v;
            in->active_mask |= (uint64_t)1 << lane;
            p = end;
        }
        lane++;
    }
    return 0;
}

static void print_lanes(uint64_t mask)
{
    char buf[256];
    layout_lane_mask_format(mask, buf, sizeof buf);
    printf("%s", buf);
}

static int run(int argc, char **argv)
{
    const char *arch_text = NULL, *width_text = NULL, *op_text = NULL, *impl_text = "auto";
    int explain = 0, any_conflict = 0, r;
    layout_arch arch;
    layout_checker checker;
    layout_check_impl impl = LAYOUT_IMPL_AUTO;
    layout_direction dir;
    layout_instr in;
    layout_error e;
    int64_t width, n = 0, extra = 0, total = 0, conflicted = 0;
    char line[8192];
    long line_no = 0;
    {
        int n_pos;
        const tool_option opts[] = {{"--arch", &arch_text, NULL}, {"--width", &width_text, NULL},
                                    {"--op", &op_text, NULL},     {"--impl", &impl_text, NULL},
                                    {"--explain", NULL, &explain}, {NULL, NULL, NULL}};
        if (tool_parse_args("cost", argc, argv, opts, NULL, 0, &n_pos)) return TOOL_BAD_INPUT;
    }
    {
        const char *const names[] = {"--arch", "--width", "--op"}, *const values[] = {arch_text, width_text, op_text};
        if (tool_require("cost", names, values, 3,
                         "e.g. printf '0 4 8\\n' | layout cost --arch gfx942 --width 4 --op read"))
            return TOOL_BAD_INPUT;
    }
    if (tool_parse_arch("cost", arch_text, &arch)) return TOOL_BAD_INPUT;
    if (tool_int("cost", "--width", width_text, 1, 16, &width)) return TOOL_BAD_INPUT;
    if (layout_width_index((int)width) < 0) return tool_error("cost", "--width %s must be 1, 2, 4, 8, 12 or 16", width_text);
    {
        static const char *const ops[] = {"read", "write"}, *const impls[] = {"auto", "scalar", "avx2"};
        static const layout_check_impl impl_of[] = {LAYOUT_IMPL_AUTO, LAYOUT_IMPL_SCALAR, LAYOUT_IMPL_AVX2};
        int o = tool_choice("cost", "--op", op_text, ops, 2), m = o < 0 ? -1 : tool_choice("cost", "--impl", impl_text, impls, 3);
        if (o < 0 || m < 0) return TOOL_BAD_INPUT;
        dir = o == 0 ? LAYOUT_READ : LAYOUT_WRITE;
        impl = impl_of[m];
    }
    if (layout_checker_init(&checker, &arch, impl, &e)) return tool_error("cost", "%s", e.message);
    if (layout_instr_init(&in, arch.wave_size, (int)width, dir, &e)) return tool_error("cost", "%s", e.message);
    printf("# %s, %s b%d (%d-byte lanes), %d lanes per %s, checker %s\n", arch.name, op_text, (int)width * 8,
           (int)width, arch.wave_size, tool_vocab_of(&arch).unit, layout_check_impl_name(checker.impl));
    while (fgets(line, sizeof line, stdin)) {
        layout_cost c;
        size_t len = strlen(line);
        line_no++;
        if (len == sizeof line - 1 && line[len - 1] != '\n')
            return tool_error("cost", "line %ld is longer than %zu bytes", line_no, sizeof line - 2);
        r = parse_line(line, line_no, &in);
        if (r < 0) return TOOL_BAD_INPUT;
        if (r > 0) continue;
        if (layout_checker_cost(&checker, &in, &c, &e))
            return tool_error("cost", "line %ld: %s", line_no, e.message);
        n++;
        extra += c.extra_cycles;
        total += c.total_cycles;
        if (c.extra_cycles > 0) {
            conflicted++;
            any_conflict = 1;
        }
        printf("instr %" PRId64 " (line %ld): extra %d, total %d, groups %d, worst %d-way", n, line_no,
               c.extra_cycles, c.total_cycles, c.n_groups, c.worst_nway);
        if (c.worst_group >= 0) printf(" in group %d", c.worst_group);
        if (c.fold_xor) printf(", folded (lane xor %d)", c.fold_xor);
        printf("\n");
        if (explain) {
            layout_cost_detail dt;
            int g;
            if (layout_instr_explain(&arch, &in, &dt, &e)) return tool_error("cost", "line %ld: %s", line_no, e.message);
            for (g = 0; g < dt.cost.n_groups; g++) {
                const layout_group_cost *gc = &dt.groups[g];
                printf("  group %d lanes ", g);
                print_lanes(gc->lanes);
                if (!gc->active) {
                    printf(": no active lane\n");
                    continue;
                }
                printf(": %d cycle%s", gc->cycles, gc->cycles == 1 ? "" : "s");
                if (gc->nway > 1) {
                    printf(", bank %d serves %d words for lanes ", gc->worst_bank, gc->nway);
                    print_lanes(gc->bank_lanes);
                }
                printf("\n");
            }
        }
    }
    if (ferror(stdin)) return tool_error("cost", "error reading standard input");
    {
        tool_vocab v = tool_vocab_of(&arch);
        printf("total: %" PRId64 " instruction%s, %" PRId64 " %s, %" PRId64 " %s, %" PRId64 " with conflicts\n", n,
               n == 1 ? "" : "s", extra, v.extra, total,
               v.vendor == LAYOUT_VENDOR_NVIDIA ? "wavefronts" : "total cycles", conflicted);
    }
    return any_conflict ? TOOL_FINDING : TOOL_OK;
}
