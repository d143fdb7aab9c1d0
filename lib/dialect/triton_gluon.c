/* Triton's shared attributes as Gluon source (layout_triton_to_gluon):
 * the constructor call of triton.experimental.gluon.language that builds
 * the same `#ttg` attribute, in Triton 3.6's signatures (read from
 * python/triton/experimental/gluon/language/_layouts.py of the 3.6.0 wheel:
 * SwizzledSharedLayout(vec, per_phase, max_phase, order, cga_layout),
 * NVMMASharedLayout(swizzle_byte_width, element_bitwidth, rank=2,
 * transposed=False, fp4_padded=False, cga_layout),
 * PaddedSharedLayout.with_identity_for(interval_padding_pairs, shape, order),
 * SharedLinearLayout(offset_bases, block_bases=[], alignment=16); its
 * amd/ package has no rotating layout). */
#include "../core/internal.h"
#include "../core/bits.h"
#include "../core/strbuf.h"
#include "layout/triton.h"

#include <string.h>

static void order_list(layout_strbuf *sb, const int *order, int n)
{
    int k;
    layout_sb_printf(sb, "[");
    for (k = 0; k < n; k++) layout_sb_printf(sb, k ? ", %d" : "%d", order[k]);
    layout_sb_printf(sb, "]");
}

/* Bases of one input dim of ll: [[a, b], [c, d]] ("[]" when absent). */
static void bases(layout_strbuf *sb, const layout_linear *ll, int in)
{
    int b, j;
    layout_sb_printf(sb, "[");
    for (b = 0; in >= 0 && b < ll->in_bits[in]; b++) {
        int64_t v[LAYOUT_LINEAR_MAX_DIMS];
        layout_linear_get_basis(ll, in, b, v, NULL);
        layout_sb_printf(sb, b ? ", [" : "[");
        for (j = 0; j < ll->n_out; j++) layout_sb_printf(sb, j ? ", %lld" : "%lld", (long long)v[j]);
        layout_sb_printf(sb, "]");
    }
    layout_sb_printf(sb, "]");
}

layout_status layout_triton_to_gluon(const layout_triton_attr *a, char *buf, size_t cap, size_t *needed,
                                     layout_error *err)
{
    static const char fn[] = "layout_triton_to_gluon";
    layout_strbuf sb;
    int k;
    if (!a || (!buf && cap)) return layout_fail(err, LAYOUT_ERR_NULL, "%s: NULL argument", fn);
    layout_sb_init(&sb, buf, cap);
    switch (a->kind) {
    case LAYOUT_TRITON_SWIZZLED_SHARED:
        layout_sb_printf(&sb, "gl.SwizzledSharedLayout(vec=%lld, per_phase=%lld, max_phase=%lld, order=",
                         (long long)a->vec, (long long)a->per_phase, (long long)a->max_phase);
        order_list(&sb, a->order, a->rank);
        layout_sb_printf(&sb, ")");
        break;
    case LAYOUT_TRITON_AMD_ROTATING_SHARED: /* Gluon 3.6 has no constructor for it (gluon/language/amd) */
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: Gluon (Triton 3.6) has no amd_rotating_shared layout", fn);
    case LAYOUT_TRITON_NVMMA_SHARED:
        layout_sb_printf(&sb,
                         "gl.NVMMASharedLayout(swizzle_byte_width=%d, element_bitwidth=%d, rank=%d, transposed=%s, "
                         "fp4_padded=%s)",
                         a->swizzling_byte_width, a->element_bit_width, a->rank > 0 ? a->rank : 2,
                         a->transposed ? "True" : "False", a->fp4_padded ? "True" : "False");
        break;
    case LAYOUT_TRITON_PADDED_SHARED:
    {   /* the identity form: offset bits run through the dims in order */
        int identity = a->rank > 0, b = 0, j;
        for (k = 0; k < a->rank && identity; k++) {
            int dim = a->order[k], nb = layout_log2_floor(a->shape[dim]);
            for (j = 0; j < nb; j++, b++)
                if (b >= a->n_offset_bits || a->offset_dim[b] != dim || a->offset_bit[b] != j) identity = 0;
        }
        if (!identity || b != a->n_offset_bits)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "%s: only the identity (short) form of padded_shared is printed as Gluon", fn);
    }
        layout_sb_printf(&sb, "gl.PaddedSharedLayout.with_identity_for([");
        for (k = 0; k < a->n_pads; k++)
            layout_sb_printf(&sb, "%s[%lld, %lld]", k ? ", " : "", (long long)a->interval[k], (long long)a->pad[k]);
        layout_sb_printf(&sb, "], ");
        layout_sb_list(&sb, a->rank, a->shape);
        layout_sb_printf(&sb, ", ");
        order_list(&sb, a->order, a->rank);
        layout_sb_printf(&sb, ")");
        break;
    case LAYOUT_TRITON_LINEAR:
        if (!a->shared_linear)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: not a shared attribute", fn);
        layout_sb_printf(&sb, "gl.SharedLinearLayout(offset_bases=");
        bases(&sb, &a->linear, layout_linear_in_dim(&a->linear, "offset"));
        layout_sb_printf(&sb, ", block_bases=");
        bases(&sb, &a->linear, layout_linear_in_dim(&a->linear, "block"));
        layout_sb_printf(&sb, ", alignment=%lld)", (long long)a->alignment);
        break;
    default: return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: not a shared attribute", fn);
    }
    if (needed) *needed = sb.len;
    return layout_ok(err);
}
