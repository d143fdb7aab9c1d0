/* Triton's TritonGPU layout attributes: the printer (layout_triton_to_text,
 * layout_linear_to_triton_text), in the grammar triton_read.c reads. */
#include "triton_internal.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- printing */

static void put_list(text_out *o, const int64_t *v, int n)
{
    int k;
    layout_to_str(o, "[");
    for (k = 0; k < n; k++) layout_to_printf(o, k ? ", %lld" : "%lld", (long long)v[k]);
    layout_to_str(o, "]");
}

static void put_order(text_out *o, const int *order, int n)
{
    int k;
    layout_to_str(o, "[");
    for (k = 0; k < n; k++) layout_to_printf(o, k ? ", %d" : "%d", order[k]);
    layout_to_str(o, "]");
}

/* Bases of one input dim: [[a, b], [c, d]]. */
static void put_bases(text_out *o, const layout_linear *ll, int in)
{
    int b, j;
    layout_to_str(o, "[");
    for (b = 0; b < ll->in_bits[in]; b++) {
        int64_t v[LAYOUT_LINEAR_MAX_DIMS];
        layout_linear_get_basis(ll, in, b, v, NULL);
        layout_to_str(o, b ? ", [" : "[");
        for (j = 0; j < ll->n_out; j++) layout_to_printf(o, j ? ", %lld" : "%lld", (long long)v[j]);
        layout_to_str(o, "]");
    }
    layout_to_str(o, "]");
}

static int is_dist_linear(const layout_linear *ll)
{
    int k;
    for (k = 0; k < ll->n_in; k++)
        if (strcmp(ll->in_names[k], "register") && strcmp(ll->in_names[k], "lane") && strcmp(ll->in_names[k], "warp") &&
            strcmp(ll->in_names[k], "block"))
            return 0;
    return ll->n_in > 0;
}

static int print_linear(text_out *o, const void *obj)
{
    const layout_linear *ll = (const layout_linear *)obj;
    int k, j;
    if (is_dist_linear(ll)) {
        static const char *const order[4] = {"register", "lane", "warp", "block"};
        layout_to_str(o, "#ttg.linear<{");
        for (k = 0; k < 4; k++) {
            int in = layout_linear_in_dim(ll, order[k]);
            layout_to_printf(o, "%s%s = ", k ? ", " : "", order[k]);
            if (in < 0)
                layout_to_str(o, "[]");
            else
                put_bases(o, ll, in);
        }
        layout_to_str(o, "}>");
        return 0;
    }
    layout_to_str(o, "{");
    for (k = 0; k < ll->n_in; k++) {
        layout_to_printf(o, "%s\"%s\": ", k ? ", " : "", ll->in_names[k]);
        put_bases(o, ll, k);
    }
    layout_to_str(o, "}, {");
    for (j = 0; j < ll->n_out; j++)
        layout_to_printf(o, "%s\"%s\": %lld", j ? ", " : "", ll->out_names[j], (long long)((int64_t)1 << ll->out_bits[j]));
    layout_to_str(o, "}");
    return 0;
}

static int print_attr(text_out *o, const void *obj)
{
    const layout_triton_attr *a = (const layout_triton_attr *)obj;
    int k;
    switch (a->kind) {
    case LAYOUT_TRITON_SWIZZLED_SHARED:
    case LAYOUT_TRITON_AMD_ROTATING_SHARED:
        layout_to_printf(o, "#ttg.%s<{vec = %lld, perPhase = %lld, maxPhase = %lld, order = ",
                         a->kind == LAYOUT_TRITON_SWIZZLED_SHARED ? "swizzled_shared" : "amd_rotating_shared",
                         (long long)a->vec, (long long)a->per_phase, (long long)a->max_phase);
        put_order(o, a->order, a->rank);
        layout_to_str(o, "}>");
        return 0;
    case LAYOUT_TRITON_NVMMA_SHARED: /* Dialect.cpp NVMMASharedEncodingAttr::print */
        layout_to_printf(o, "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, elementBitWidth = %d",
                         a->swizzling_byte_width, a->transposed ? "true" : "false", a->element_bit_width);
        if (a->fp4_padded) layout_to_str(o, ", fp4Padded = true");
        if (a->rank != 2 && a->rank != 0) layout_to_printf(o, ", rank = %d", a->rank); /* 0: a hand-built value, rank 2 */
        layout_to_str(o, "}>");
        return 0;
    case LAYOUT_TRITON_PADDED_SHARED: {
        int identity = 1, b = 0;
        for (k = 0; k < a->rank && identity; k++) {
            int dim = a->order[k], j, nb = layout_log2_floor(a->shape[dim]);
            for (j = 0; j < nb; j++, b++)
                if (b >= a->n_offset_bits || a->offset_dim[b] != dim || a->offset_bit[b] != j) identity = 0;
        }
        if (b != a->n_offset_bits || a->rank == 0) identity = 0;
        layout_to_str(o, "#ttg.padded_shared<[");
        for (k = 0; k < a->n_pads; k++)
            layout_to_printf(o, "%s%lld:+%lld", k ? ", " : "", (long long)a->interval[k], (long long)a->pad[k]);
        if (a->rank == 0 && a->n_offset_bits == 0) { /* the brace-less form: the order comes with --shape */
            layout_to_str(o, "]>");
            return 0;
        }
        if (identity) {
            layout_to_str(o, "] {order = ");
            put_order(o, a->order, a->rank);
            layout_to_str(o, ", shape = ");
            put_list(o, a->shape, a->rank);
            layout_to_str(o, "}>");
        } else {
            layout_to_str(o, "] {offset = [");
            for (b = 0; b < a->n_offset_bits; b++) {
                layout_to_str(o, b ? ", [" : "[");
                for (k = 0; k < a->rank; k++)
                    layout_to_printf(o, k ? ", %lld" : "%lld",
                              (long long)(a->offset_dim[b] == k ? (int64_t)1 << a->offset_bit[b] : 0));
                layout_to_str(o, "]");
            }
            layout_to_str(o, "], block = []}>");
        }
        return 0;
    }
    case LAYOUT_TRITON_BLOCKED:
        layout_triton_print_blocked(o, a);
        return 0;
    case LAYOUT_TRITON_AMD_MFMA:
    case LAYOUT_TRITON_AMD_WMMA:
    case LAYOUT_TRITON_NVIDIA_MMA:
    case LAYOUT_TRITON_DOT_OPERAND:
    case LAYOUT_TRITON_SLICE:
        layout_triton_print_mma(o, a);
        return 0;
    default:
        if (a->shared_linear) {
            const layout_linear *ll = &a->linear;
            int in = layout_linear_in_dim(ll, "offset"), blk = layout_linear_in_dim(ll, "block");
            layout_to_str(o, "#ttg.shared_linear<{offset = ");
            if (in >= 0)
                put_bases(o, ll, in);
            else
                layout_to_str(o, "[]");
            layout_to_str(o, ", block = ");
            if (blk >= 0)
                put_bases(o, ll, blk);
            else
                layout_to_str(o, "[]");
            layout_to_printf(o, "}, alignment = %lld>", (long long)a->alignment);
            return 0;
        }
        return print_linear(o, &a->linear);
    }
}

static layout_status reread_triton(const char *text, const void *ctx, layout_error *err)
{
    layout_triton_attr back;
    (void)ctx;
    return layout_triton_from_text(text, &back, NULL, err);
}

layout_status layout_triton_to_text(const layout_triton_attr *a, char *buf, size_t cap, layout_error *err)
{
    if (!a || !buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_to_text: NULL argument");
    return layout_dx_render_read_back(print_attr, a, buf, cap, "layout_triton_to_text", reread_triton, NULL, err);
}

layout_status layout_linear_to_triton_text(const layout_linear *ll, char *buf, size_t cap, layout_error *err)
{
    if (!ll || !buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_linear_to_triton_text: NULL argument");
    return layout_dx_render_read_back(print_linear, ll, buf, cap, "layout_linear_to_triton_text", reread_triton, NULL,
                                      err);
}
