/* layout convert --from D --to D [--shape R,C] [--elem B] SPEC: translate a
 * layout between dialects (docs/dialects.md). */
#include "tool.h"

#include <string.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_convert = {
    "convert", "translate a layout between liblayout's text, Triton, CuTe, IREE, linear bases, ck_tile C++",
    "usage: layout convert [--from DIALECT] --to DIALECT [--shape R,C] [--elem BYTES] SPEC\n"
    "\n"
    "Read SPEC in one dialect and print the same layout in another.  Dialects:\n"
    "  layout   liblayout's own text (descriptors and dist(...)): what `layout print`\n"
    "           prints and every SPEC reads (`ck`, its older name, still works)\n"
    "  triton   #ttg.swizzled_shared / padded_shared / shared_linear / blocked / linear /\n"
    "           amd_rotating_shared / nvmma_shared (reading only) /\n"
    "           amd_mfma / amd_wmma / nvidia_mma / dot_op / slice\n"
    "  cute     CuTe's printed layout, e.g. 'Sw<3,4,3> o _0 o (_8,_64):(_64,_1)'\n"
    "  cute-cpp (output only) the CuTe C++ expression that builds the layout\n"
    "  iree     #iree_codegen.xor_shuffle<row_width, access_width, row_stride, per_phase>\n"
    "  linear   linear-layout bases: {\"offset\": [[..]]} or #ttg.linear<{...}>\n"
    "  ck-cpp   (output only) ck_tile C++: the maker calls building the descriptor\n"
    "\n"
    "  --from D     the input dialect (default: detected from the text)\n"
    "  --to D       the output dialect\n"
    "  --shape R,C  the tile shape, for inputs that carry none (#ttg.swizzled_shared,\n"
    "               amd_rotating_shared, nvmma_shared, #ttg.blocked and the other\n"
    "               distributed layouts, #iree_codegen.xor_shuffle)\n"
    "  --elem B     element bytes (1, 2, 4, 8, 16; checked, reserved for targets\n"
    "               that spell byte swizzles)\n"
    "\n"
    "Descriptors convert to every dialect that can express them exactly (the\n"
    "result is checked on every coordinate); distributions (dist(...),\n"
    "#ttg.blocked, the MMA layouts and their dot_op / slice layouts, #ttg.linear\n"
    "over register/lane/warp) convert to layout, linear\n"
    "and triton (#ttg.blocked when one matches exactly, else #ttg.linear).\n"
    "When the target cannot express the layout the command exits 2 and says\n"
    "why, e.g. \"not linear over F2: ...\" or \"coordinate (4,0) is padding\".\n"
    "\n"
    "examples:\n"
    "  layout convert --to layout 'Sw<3,4,3> o _0 o (_8,_64):(_64,_1)'\n"
    "  layout convert --to cute --shape 16,64 '#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>'\n"
    "  layout convert --to iree --shape 16,128 '#iree_codegen.xor_shuffle<128, 4, 128, 1>'\n"
    "  layout convert --to layout --shape 32,32 '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'\n",
    run};

/* 1 when the text is a distribution in its dialect. */
static int is_distribution(layout_dialect d, const char *text)
{
    layout_triton_attr a;
    const char *s = text;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (d == LAYOUT_DIALECT_CK) return strncmp(s, "dist", 4) == 0;
    if (d != LAYOUT_DIALECT_TRITON && d != LAYOUT_DIALECT_LINEAR) return 0;
    if (strncmp(s, "#ttg.blocked", 12) == 0 || strncmp(s, "#ttg.amd_mfma", 13) == 0 ||
        strncmp(s, "#ttg.amd_wmma", 13) == 0 || strncmp(s, "#ttg.nvidia_mma", 15) == 0 ||
        strncmp(s, "#ttg.dot_op", 11) == 0 || strncmp(s, "#ttg.slice", 10) == 0)
        return 1; /* report their errors as a distribution's */
    if (layout_triton_from_text(text, &a, NULL, NULL) != LAYOUT_OK) return strncmp(s, "#ttg.linear", 11) == 0;
    if (a.kind == LAYOUT_TRITON_BLOCKED) return 1;
    return a.kind == LAYOUT_TRITON_LINEAR && layout_linear_in_dim(&a.linear, "lane") >= 0;
}

static int run(int argc, char **argv)
{
    const char *spec = NULL, *from = NULL, *to = NULL, *elem = NULL, *text;
    static char buf[LAYOUT_TEXT_CAP], out[LAYOUT_TEXT_CAP];
    layout_dialect src, dst = LAYOUT_DIALECT_CK;
    layout_error e;
    int cute_cpp = 0, n_pos, elem_bytes;
    {
        const tool_option opts[] = {{"--from", &from, NULL}, {"--to", &to, NULL}, {"--elem", &elem, NULL},
                                    {NULL, NULL, NULL}};
        if (tool_parse_args("convert", argc, argv, opts, &spec, 1, &n_pos)) return TOOL_BAD_INPUT;
    }
    if (!spec) return tool_error("convert", "missing SPEC (see layout convert --help)");
    if (!to) return tool_error("convert", "missing --to DIALECT (see layout convert --help)");
    if (elem && tool_elem_bytes("convert", elem, &elem_bytes)) return TOOL_BAD_INPUT;
    if (tool_dialect_named("convert", "--to", to, &dst, &cute_cpp)) return TOOL_BAD_INPUT;
    if (strcmp(to, "ck") == 0) /* the old name: it read as ck_tile, whose C++ is ck-cpp */
        fprintf(stderr, "layout convert: note: --to ck is liblayout's own text, now named --to layout; ck_tile C++ "
                        "is --to ck-cpp\n");
    if (!(text = tool_spec_text("convert", spec, buf, sizeof buf))) return TOOL_BAD_INPUT;
    if (from) {
        if (tool_dialect_named("convert", "--from", from, &src, NULL)) return TOOL_BAD_INPUT;
        if (src == LAYOUT_DIALECT_CK_CPP) return tool_error("convert", "--from ck-cpp: ck-cpp is an output dialect");
    } else {
        src = tool_spec_dialect(text);
    }
    /* A Triton distributed attribute to linear: Triton's own toLinearLayout
     * (layout_triton_to_linear), not a round trip through a table
     * distribution, whose linearity the library would have to verify over
     * every (warp, lane, register) triple and which holds rank 2 only.
     * Likewise a swizzled_shared, amd_rotating_shared or nvmma_shared
     * attribute: Triton's offset bases (layout_triton_shared_linear), any
     * rank 1 to 4, an fp4Padded nvmma_shared (not injective) included,
     * where a descriptor is 2-D and a bijection. */
    if (src == LAYOUT_DIALECT_TRITON && dst == LAYOUT_DIALECT_LINEAR && !cute_cpp) {
        layout_triton_attr attr;
        layout_linear ll;
        size_t where = 0;
        int n_shape;
        const int64_t *shape = tool_shape(&n_shape);
        int shared = 0;
        if (layout_triton_from_text(text, &attr, &where, &e) == LAYOUT_OK)
            shared = attr.kind == LAYOUT_TRITON_SWIZZLED_SHARED || attr.kind == LAYOUT_TRITON_AMD_ROTATING_SHARED ||
                     attr.kind == LAYOUT_TRITON_NVMMA_SHARED;
        else
            n_shape = 0;
        if (shared && n_shape > 0 && layout_triton_shared_linear(&attr, n_shape, shape, &ll, &e) != LAYOUT_OK)
            return tool_error("convert", "%s", e.message);
        if (n_shape > 0 && (shared || layout_triton_to_linear(&attr, n_shape, shape, &ll, &e) == LAYOUT_OK)) {
            if (layout_linear_to_triton_text(&ll, out, sizeof out, &e))
                return tool_error("convert", "cannot express in %s: %s", to, e.message);
            printf("%s\n", out);
            return TOOL_OK;
        }
    }
    if (is_distribution(src, text)) {
        layout_distribution dist;
        layout_triton_attr blocked;
        size_t where = 0;
        layout_status st;
        if (src == LAYOUT_DIALECT_CK)
            st = layout_dist_from_text(text, 0, 0, &dist, &where, &e);
        else
            st = tool_dist_from_dialect(src, text, &dist, &where, &e);
        if (st) {
            tool_report_parse("convert", "the distribution", text, where, &e);
            return TOOL_BAD_INPUT;
        }
        if (dst == LAYOUT_DIALECT_CK && !cute_cpp) {
            if (layout_dist_to_text(&dist, out, sizeof out, &e))
                return tool_error("convert", "cannot express in %s: %s", to, e.message);
        } else if (dst == LAYOUT_DIALECT_TRITON && layout_triton_from_dist(&dist, &blocked, NULL) == LAYOUT_OK) {
            if (layout_triton_to_text(&blocked, out, sizeof out, &e))
                return tool_error("convert", "cannot express in triton: %s", e.message);
        } else if (dst == LAYOUT_DIALECT_LINEAR || dst == LAYOUT_DIALECT_TRITON) {
            layout_linear ll;
            if (layout_dist_to_linear(&dist, &ll, &e) || layout_linear_to_triton_text(&ll, out, sizeof out, &e))
                return tool_error("convert", "cannot express in %s: %s", to, e.message);
        } else {
            return tool_error("convert", "cannot express in %s: a distribution converts to layout, linear or triton", to);
        }
        printf("%s\n", out);
        return TOOL_OK;
    }
    {
        layout_descriptor d;
        size_t where = 0;
        layout_status st;
        int n_shape;
        const int64_t *shape = tool_shape(&n_shape);
        st = layout_desc_from_dialect(src, text, n_shape, shape, &d, &where, &e);
        if (st) {
            tool_report_parse("convert", "the descriptor", text, where, &e);
            return TOOL_BAD_INPUT;
        }
        if (cute_cpp) {
            layout_cute_layout l;
            if (layout_cute_from_desc(&d, &l, &e) || layout_cute_to_cpp(&l, out, sizeof out, &e))
                return tool_error("convert", "cannot express in cute-cpp: %s", e.message);
        } else if (layout_desc_to_dialect(dst, &d, out, sizeof out, &e)) {
            return tool_error("convert", "cannot express in %s: %s", to, e.message);
        }
        printf("%s\n", out);
    }
    return TOOL_OK;
}
