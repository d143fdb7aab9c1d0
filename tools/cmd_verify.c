/* layout verify SPEC: injectivity, bijectivity, true contiguity, ck_tile's
 * vector hints against it, and static findings of the transform chain. */
#include "tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_verify = {
    "verify", "injective / bijective / true contiguity / stage mismatches of a descriptor",
    "usage: layout verify SPEC\n"
    "\n"
    "Check what ck_tile never checks about the descriptor SPEC:\n"
    "  - offsets: injective (no two coordinates share an element), inside the\n"
    "    element space, bijective onto it (padding holes are reported, not\n"
    "    counted as problems);\n"
    "  - per dim: the true contiguous vector length and longest +1 run, against\n"
    "    the vector hint ck_tile propagates (an over-claiming hint is a problem:\n"
    "    ck_tile would emit vectors that move the wrong elements);\n"
    "  - static findings: stage length mismatches, xor lengths that are not a\n"
    "    power of two, freeze values out of range.\n"
    "The last line is the verdict.  Exit status: 0 no problem, 1 a problem\n"
    "found, 2 bad input.\n"
    "\n"
    "example: layout verify 'packed([8,4]) | T{xor([8,3]):[0,1]->[0,1]}'\n",
    run};

static void print_coord(const int64_t *c, int n)
{
    int i;
    printf("(");
    for (i = 0; i < n; i++) printf(i ? ",%" PRId64 : "%" PRId64, c[i]);
    printf(")");
}

static int run(int argc, char **argv)
{
    layout_descriptor d;
    layout_offset_report rep;
    layout_error e;
    layout_diagnostic diags[32];
    int64_t hint_len[LAYOUT_MAX_DIMS], hint_stride[LAYOUT_MAX_DIMS];
    size_t bytes = 0;
    void *ws;
    int n, i, n_diag = 0, problems = 0, hint_problems = 0;
    char line[512];
    if (argc != 2) return tool_error("verify", "expected exactly one SPEC (see layout verify --help)");
    if (tool_parse_desc("verify", argv[1], &d)) return TOOL_BAD_INPUT;
    n = layout_desc_ndims(&d);
    if (layout_desc_verify_workspace_size(&d, &bytes, &e)) return tool_error("verify", "%s", e.message);
    ws = calloc(bytes ? bytes : 1, 1);
    if (!ws) return tool_error("verify", "out of memory (%zu bytes of workspace)", bytes);
    if (layout_desc_verify_offsets(&d, ws, bytes, &rep, &e)) {
        free(ws);
        return tool_error("verify", "%s", e.message);
    }
    free(ws);
    tool_print_desc_header(&d, "verify");

    printf("offsets: %" PRId64 " coordinates, %" PRId64 " valid, offsets %" PRId64 "..%" PRId64 "\n", rep.n_coords,
           rep.n_valid, rep.min_offset, rep.max_offset);
    printf("  injective:  %s", rep.injective ? "yes" : "NO");
    if (!rep.injective) {
        printf(" - ");
        print_coord(rep.collision_a, n);
        printf(" and ");
        print_coord(rep.collision_b, n);
        printf(" share offset %" PRId64, rep.collision_offset);
        problems++;
    }
    printf("\n  in space:   %s", rep.in_space ? "yes" : "NO");
    if (!rep.in_space) {
        printf(" - ");
        print_coord(rep.outside_coord, n);
        printf(" lies outside [0, %" PRId64 ")", layout_desc_element_space_size(&d));
        problems++;
    }
    printf("\n  bijective:  %s", rep.bijective ? "yes" : "no");
    if (!rep.bijective && rep.injective && rep.in_space && rep.missing_offset >= 0)
        printf(" - offset %" PRId64 " is never used (padding or holes)", rep.missing_offset);
    printf("\n");

    if (layout_desc_vector_hints(&d, hint_len, hint_stride, &e)) return tool_error("verify", "%s", e.message);
    printf("contiguity per dim (true vector length / longest +1 run; ck_tile's hint):\n");
    for (i = 0; i < n; i++) {
        layout_contiguity ct;
        int over;
        if (layout_desc_contiguity(&d, i, &ct, &e)) return tool_error("verify", "%s", e.message);
        /* ck_tile vectorises a dim only with hint stride 1; then the hint length must be really contiguous. */
        over = hint_stride[i] == 1 && hint_len[i] > 1 && (ct.vector_length % hint_len[i] != 0);
        printf("  dim %d (length %" PRId64 "): vector %" PRId64 ", run %" PRId64 "; hint ", i, layout_desc_length(&d, i),
               ct.vector_length, ct.longest_run);
        if (hint_len[i] < 0) printf("none");
        else printf("length %" PRId64 " stride %" PRId64, hint_len[i], hint_stride[i]);
        if (over) {
            printf(" - OVER-CLAIMS: ck_tile would use %" PRId64 "-element vectors", hint_len[i]);
            hint_problems++;
        }
        if (ct.has_break && ct.vector_length < layout_desc_length(&d, i)) {
            printf(" (break at ");
            print_coord(ct.break_coord, n);
            printf(", step %+" PRId64 ")", ct.break_delta);
        }
        printf("\n");
    }
    problems += hint_problems;

    if (layout_adaptor_diagnose(&d.adaptor, diags, (int)(sizeof diags / sizeof diags[0]), &n_diag, &e))
        return tool_error("verify", "%s", e.message);
    printf("static findings: %d\n", n_diag);
    for (i = 0; i < n_diag && i < (int)(sizeof diags / sizeof diags[0]); i++) {
        layout_diagnostic_print(&diags[i], &d.adaptor, line, sizeof line);
        printf("  %s\n", line);
    }
    problems += n_diag;

    if (problems == 0) {
        printf("verdict: OK - %s, no static findings\n",
               rep.bijective ? "a bijection onto the element space" : "injective (with unused offsets)");
        return TOOL_OK;
    }
    printf("verdict: %d problem%s -", problems, problems == 1 ? "" : "s");
    if (!rep.injective) printf(" not injective;");
    if (!rep.in_space) printf(" offsets outside the element space;");
    if (hint_problems) printf(" %d over-claiming vector hint%s;", hint_problems, hint_problems == 1 ? "" : "s");
    if (n_diag) printf(" %d static finding%s;", n_diag, n_diag == 1 ? "" : "s");
    printf("\n");
    return TOOL_FINDING;
}
