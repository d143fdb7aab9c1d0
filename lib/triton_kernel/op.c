/* One shared-memory op of a Triton kernel lowered and costed
 * (triton_kernel.h): its register -> offset map as Triton 3.6 builds it
 * (layout_tk_op_prepare, dispatching converts, reductions and scans to
 * their files), the memdesc's shared layout (layout_tk_shared_prepare),
 * and the accesses costed by the checker (layout_tk_op_finish); RDNA's DS
 * names (layout_tk_rdna_names).  triton_kernel.c, xpair.c and score.c
 * call these. */
#include "../core/internal.h"
#include "layout/check.h"
#include "layout/descriptor.h"
#include "layout/linear.h"
#include "layout/report.h"
#include "layout/triton.h"
#include "layout/triton_kernel.h"
#include "tk_internal.h"
#include "../core/strbuf.h"

#include <inttypes.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The decimal number at s, read no further than end (the module text need
 * not end in a NUL); 0 when none, capped at 1 << 30. */
static int digits_at(const char *s, const char *end)
{
    int v = 0;
    while (s < end && *s >= '0' && *s <= '9' && v < (1 << 30) / 10) v = v * 10 + (*s++ - '0');
    return v;
}

/* Do op o's printed types (or its operands' types), aliases resolved, hold lit? */
static int op_types_have(const layout_ttgir *m, const layout_ttgir_op *o, const char *lit)
{
    const layout_ttgir_ir_op *io = &m->ir.ops[o->ir_op];
    layout_ttgir_span spans[2 + 8];
    int n = 0, k;
    size_t len = strlen(lit);
    spans[n++] = io->types_in;
    spans[n++] = io->types_out;
    for (k = 0; k < io->n_uses && n < 10; k++) {
        int v = m->ir.uses[io->first_use + k];
        if (v >= 0) spans[n++] = m->ir.values[v].type;
    }
    for (k = 0; k < n; k++)
        for (size_t p = spans[k].at; p < (size_t)spans[k].at + spans[k].len; p++) {
            size_t e = p + 1;
            const char *attr;
            size_t alen;
            layout_ttgir_type alias;
            if (p + len <= (size_t)spans[k].at + spans[k].len && memcmp(m->text + p, lit, len) == 0) return 1;
            if (m->text[p] != '#') continue;
            /* an alias (`#tmem`): its attribute's text too */
            while (e < (size_t)spans[k].at + spans[k].len && (isalnum((unsigned char)m->text[e]) || m->text[e] == '_'))
                e++;
            memset(&alias, 0, sizeof alias);
            alias.enc_at = p;
            alias.enc_len = e - p;
            if (e > p + 1 && layout_ttgir_encoding(m, &alias, &attr, &alen) == LAYOUT_OK)
                for (size_t q = 0; q + len <= alen; q++)
                    if (memcmp(attr + q, lit, len) == 0) return 1;
        }
    return 0;
}

/* An op the reader kept because it may touch shared memory but that has
 * no lowering here: the reason names it and Triton's evidence. */
static layout_status other_not_modelled(const layout_triton_kernel *k, const layout_ttgir_op *o,
                                        layout_triton_kernel_op *r, layout_tk_capture *capture, layout_error *err)
{
    const layout_ttgir *m = k->module;
    int n = o->name_len > 64 ? 64 : (int)o->name_len;
    const char *name = m->text + o->name_at, *v;
    size_t vlen;
    if (layout_ttgir_ir_op_is(m, o->ir_op, "tt.atomic_rmw") || layout_ttgir_ir_op_is(m, o->ir_op, "tt.atomic_cas"))
        return layout_tk_lower_atomic(k, (int)(o - m->ops), r, capture, err);
    if (layout_ttgir_ir_attr(m, o->ir_op, "allocation.offset", &v, &vlen) == LAYOUT_OK)
        return layout_tk_not_modelled(r, "%.*s: Triton's allocation gave it shared scratch (allocation.offset); its "
                                         "lowering is not modelled", n, name);
    if (op_types_have(m, o, "tensor_memory"))
        return layout_tk_not_modelled(r, "%.*s: an op on tensor memory (or between it and shared memory); not "
                                         "modelled", n, name);
    if (op_types_have(m, o, "memdesc<"))
        return layout_tk_not_modelled(r, "%.*s: an op on a shared-memory descriptor whose lowering liblayout does "
                                         "not model", n, name);
    return layout_tk_not_modelled(r, "%.*s: kept as touching shared memory; its lowering is not modelled", n, name);
}

/* The first register tensor and the first memdesc among an op's types. */
static void find_types(const layout_ttgir_op *o, const layout_ttgir_type **reg, const layout_ttgir_type **mem)
{
    const layout_ttgir_type *t[2 * LAYOUT_TTGIR_MAX_TYPES];
    int n = 0, i;
    /* A load's tensor is its result; a store's (and a copy's) its operand. */
    if (o->kind == LAYOUT_TTGIR_LOCAL_LOAD) {
        for (i = 0; i < o->n_dst; i++) t[n++] = &o->dst[i];
        for (i = 0; i < o->n_src; i++) t[n++] = &o->src[i];
    } else {
        for (i = 0; i < o->n_src; i++) t[n++] = &o->src[i];
        for (i = 0; i < o->n_dst; i++) t[n++] = &o->dst[i];
    }
    *reg = *mem = NULL;
    for (i = 0; i < n; i++) {
        if (t[i]->is_memdesc && !*mem) *mem = t[i];
        if (!t[i]->is_memdesc && !*reg && t[i]->enc_len > 0) *reg = t[i];
    }
}


/* The linear component of a padded_shared attribute on a 2-D shape: coordinate
 * bit (offset_dim[b], offset_bit[b]) -> offset bit b (the short form without
 * a shape: the identity in the attribute's order). */
static layout_status padded_linear(const layout_triton_attr *a, const int64_t *shape, int elem_bits, layout_linear *out,
                                   layout_tk_pad *pi, char *why, size_t why_cap)
{
    int od[64], ob[64], nb = 0, k, d, j;
    int bits[2] = {layout_log2_floor(shape[0]), layout_log2_floor(shape[1])};
    layout_error e;
    int64_t one[1];
    if ((int64_t)1 << bits[0] != shape[0] || (int64_t)1 << bits[1] != shape[1]) {
        layout_tk_set_why(why, why_cap, "shared layout not read: ", "padded_shared on a shape that is not a power of two");
        return LAYOUT_ERR_UNSUPPORTED;
    }
    if (a->has_shape) {
        if (a->rank == 2 && a->n_offset_bits <= 64 && a->shape[0] % shape[0] == 0 && a->shape[1] % shape[1] == 0 &&
            (a->shape[0] != shape[0] || a->shape[1] != shape[1])) {
            /* a ttg.memdesc_subslice of the padded allocation: its elements sit
             * at the subslice's offsets inside the allocation, and the padding
             * (an interval's pad added after each interval of the whole
             * offset) does not split into view + offset */
            layout_tk_set_why(why, why_cap, "shared layout not read: ",
                              "padded_shared on a view smaller than its allocation (ttg.memdesc_subslice): the "
                              "padding of the allocation's offsets is not linear in the view's; not modelled");
            return LAYOUT_ERR_UNSUPPORTED;
        }
        if (a->rank != 2 || a->shape[0] != shape[0] || a->shape[1] != shape[1] || a->n_offset_bits > 64) {
            layout_tk_set_why(why, why_cap, "shared layout not read: ", "padded_shared's shape differs from the memdesc's");
            return LAYOUT_ERR_UNSUPPORTED;
        }
        nb = a->n_offset_bits;
        for (k = 0; k < nb; k++) {
            od[k] = a->offset_dim[k];
            ob[k] = a->offset_bit[k];
        }
    } else {
        int order0 = a->rank == 2 ? a->order[0] : 1;
        int dims[2] = {order0, 1 - order0};
        for (k = 0; k < 2; k++)
            for (j = 0; j < bits[dims[k]]; j++, nb++) {
                od[nb] = dims[k];
                ob[nb] = j;
            }
    }
    if (layout_linear_init(out, &e) != LAYOUT_OK || layout_linear_add_in_dim(out, "dim0", bits[0], &e) != LAYOUT_OK ||
        layout_linear_add_in_dim(out, "dim1", bits[1], &e) != LAYOUT_OK ||
        layout_linear_add_out_dim(out, "offset", nb, &e) != LAYOUT_OK) {
        layout_tk_set_why(why, why_cap, "shared layout not read: ", e.message);
        return LAYOUT_ERR_UNSUPPORTED;
    }
    for (k = 0; k < nb; k++) {
        d = od[k];
        if (d < 0 || d > 1 || ob[k] < 0 || ob[k] >= bits[d]) {
            layout_tk_set_why(why, why_cap, "shared layout not read: ", "padded_shared offset bit outside the shape");
            return LAYOUT_ERR_UNSUPPORTED;
        }
        one[0] = (int64_t)1 << k;
        if (layout_linear_set_basis(out, d, ob[k], one, &e) != LAYOUT_OK) {
            layout_tk_set_why(why, why_cap, "shared layout not read: ", e.message);
            return LAYOUT_ERR_UNSUPPORTED;
        }
    }
    pi->n = a->n_pads;
    pi->min_interval = 0;
    for (k = 0; k < a->n_pads; k++) {
        pi->ishift[k] = layout_log2_floor(a->interval[k] * (elem_bits / 8));
        pi->pshift[k] = layout_log2_floor(a->pad[k] * (elem_bits / 8));
        if (pi->min_interval == 0 || a->interval[k] < pi->min_interval) pi->min_interval = a->interval[k];
    }
    return LAYOUT_OK;
}

static layout_status shared_linear_parsed(const layout_ttgir_type *mem, const layout_triton_attr *a, layout_linear *out,
                                          layout_tk_pad *pi, char *why, size_t why_cap);

/* The shared layout (dims -> offset) of a memdesc with encoding text attr.
 * A leading multi-buffer dim is dropped (the op addresses one buffer). */
static layout_status shared_linear(const layout_ttgir *m, const layout_ttgir_type *mem, const char *attr, size_t alen,
                                   layout_triton_attr *a_out, layout_linear *out, layout_tk_pad *pi, char *why,
                                   size_t why_cap)
{
    char text[2048];
    layout_triton_attr *a = a_out;
    layout_error e;
    size_t where = 0;
    if (layout_tk_inline_aliases(m, attr, alen, text, sizeof text, 0) < 0) {
        layout_tk_set_why(why, why_cap, "shared layout not read: ", "its aliases expand to more than 2 KiB or nest too deep");
        return LAYOUT_ERR_UNSUPPORTED;
    }
    if (layout_triton_from_text(text, a, &where, &e) != LAYOUT_OK) {
        layout_tk_set_why(why, why_cap, "shared layout not read: ", e.message);
        return LAYOUT_ERR_UNSUPPORTED;
    }
    return shared_linear_parsed(mem, a, out, pi, why, why_cap);
}

/* shared_linear of an attribute already read (a). */
static layout_status shared_linear_parsed(const layout_ttgir_type *mem, const layout_triton_attr *a, layout_linear *out,
                                          layout_tk_pad *pi, char *why, size_t why_cap)
{
    layout_descriptor d;
    layout_error e;
    int rank = mem->rank, arank = a->rank > 0 ? a->rank : 2, first = rank > 2 ? rank - 2 : 0;
    pi->n = 0;
    if (arank != 2) {
        /* a tile of 1, 3 or 4 dims: the attribute's own rank, the memdesc's
         * trailing dims (a leading one: the buffers); Triton's offset ->
         * dims map inverted */
        layout_linear fwd;
        first = rank - arank;
        if (first < 0) {
            layout_tk_set_why(why, why_cap, "shared layout not read: ", "the attribute has more dims than the memdesc");
            return LAYOUT_ERR_UNSUPPORTED;
        }
        if (a->kind == LAYOUT_TRITON_PADDED_SHARED) {
            layout_tk_set_why(why, why_cap, "shared layout not read: ", "padded_shared of a rank other than 2");
            return LAYOUT_ERR_UNSUPPORTED;
        }
        if (a->kind == LAYOUT_TRITON_LINEAR) fwd = a->linear;
        else if (layout_triton_shared_linear(a, arank, mem->shape + first, &fwd, &e) != LAYOUT_OK) {
            layout_tk_set_why(why, why_cap, "shared layout not read: ", e.message);
            return LAYOUT_ERR_UNSUPPORTED;
        }
        if (layout_linear_invert(out, &fwd, &e) != LAYOUT_OK) {
            layout_tk_set_why(why, why_cap, "shared layout not read: ", e.message);
            return LAYOUT_ERR_UNSUPPORTED;
        }
        return LAYOUT_OK;
    }
    if (a->kind == LAYOUT_TRITON_PADDED_SHARED) {
        if (rank - first != 2) {
            layout_tk_set_why(why, why_cap, "shared layout not read: ", "padded_shared of a rank other than 2");
            return LAYOUT_ERR_UNSUPPORTED;
        }
        return padded_linear(a, mem->shape + first, mem->elem_bits, out, pi, why, why_cap);
    }
    /* Triton's own offset -> dims map, inverted, is the descriptor's map
     * (tests/test_triton_shared.c: test_swizzled_bases_vs_family on every
     * swizzled parameter set, test_shared_linear_paths on 3000 random
     * swizzled, rotating and nvmma attributes and shapes) for a few bit
     * operations, where building the descriptor and reading its linear map
     * back costs about 40 k instructions once per candidate the suggestion
     * search scores (--suggest on the gfx942 attention kernel: 29 -> 24 ms,
     * the same JSON on all 1,296 TTGIR files of the fixtures).  The
     * descriptor remains the way for what Triton's map does not cover. */
    if (a->kind != LAYOUT_TRITON_LINEAR) {
        layout_linear fwd;
        if (layout_triton_shared_linear(a, 2, mem->shape + first, &fwd, NULL) == LAYOUT_OK &&
            layout_linear_invert(out, &fwd, NULL) == LAYOUT_OK)
            return LAYOUT_OK;
    }
    if (layout_triton_to_desc(a, rank - first, mem->shape + first, &d, &e) != LAYOUT_OK) {
        layout_tk_set_why(why, why_cap, "shared layout not read: ", e.message);
        return LAYOUT_ERR_UNSUPPORTED;
    }
    if (layout_desc_to_linear(&d, out, &e) != LAYOUT_OK) {
        layout_tk_set_why(why, why_cap, "shared layout is not linear (padding is applied after the linear part): ", e.message);
        return LAYOUT_ERR_UNSUPPORTED;
    }
    return LAYOUT_OK;
}


/* Triton 3.6 on gfx950 reads a local_load with ds_read_b64_tr_b16 / _b8
 * wherever the register -> shared offset map fits the instruction's tile,
 * whatever the register layout (blocked, MFMA, linear or dot operand) and
 * the shared layout (swizzled, padded, shared_linear).  Read from
 * triton-lang/triton, third_party/amd/lib/TritonAMDGPUToLLVM/
 * MemoryOpToLLVM.cpp (TransLocalLoadOpConversion, pattern benefit above
 * the generic local_load lowering: the linear-layout matcher lowerDsReadTr
 * that replaced canUseTransLoad's dot-operand-only test; the public index
 * holds no v3.6.0 tag, so the revisions read are late-2025 main, and the
 * 96 gfx950 Gluon fixtures Triton 3.6.0 compiled agree with them),
 * TargetInfo.cpp (queryLDSTransLoadParams: CDNA4 moves 64 bits per lane,
 * tile = 64 / bits elements) and lib/Tools/LinearLayout.cpp (divideLeft).  With T = 64 / bits and cvt =
 * register layout composed with the inverse of the shared one (for
 * padded_shared its linear component):
 *   - 16- or 8-bit elements, an arch with the transposing reads
 *     (isa_features' LAYOUT_ISA_DS_READ_TR: gfx950, CDNA4), a local_load;
 *   - padded_shared: its least interval is at least T elements;
 *   - cvt has at least T registers per thread (broadcast ones counted);
 *   - divideLeft(cvt, identity1D(T, lane, offset)) exists: lanes 0 ..
 *     log2 T - 1 map to offsets 1, 2 (, 4) and every other basis (each
 *     register, the other lanes, the warps) is a multiple of T.
 * The Gluon fixtures (tests/fixtures/gluon, gfx950) and the matmul corpus
 * read this way exactly where these hold. */
static int uses_ds_read_tr(const layout_triton_kernel *k, const layout_ttgir_op *o, const layout_linear *cvt,
                           const layout_tk_pad *pad, int elem_bits)
{
    int ir = layout_linear_in_dim(cvt, "register"), il = layout_linear_in_dim(cvt, "lane"), t, d, b;
    uint64_t low;
    if (k->is_nvidia || !(k->arch.isa_features & LAYOUT_ISA_DS_READ_TR)) return 0;
    if (o->kind != LAYOUT_TTGIR_LOCAL_LOAD || (elem_bits != 16 && elem_bits != 8)) return 0;
    t = layout_log2_floor(64 / elem_bits);
    low = ((uint64_t)1 << t) - 1;
    if (pad->n && pad->min_interval < ((int64_t)1 << t)) return 0;
    if (ir < 0 || il < 0 || cvt->n_out != 1 || cvt->in_bits[ir] < t || cvt->in_bits[il] < t) return 0;
    for (d = 0; d < cvt->n_in; d++)
        for (b = 0; b < cvt->in_bits[d]; b++) {
            uint64_t v = layout_tk_basis(cvt, d, b);
            if (d == il && b < t ? v != (uint64_t)1 << b : (v & low) != 0) return 0;
        }
    return 1;
}

/* The per-lane view of ds_read_b64_tr (lowerDsReadTr's fullTile: the
 * tile's lanes, then 64 / (T x 16) more lanes, then T registers, then the
 * remaining lanes, give a lane's 64-bit address): the cvt with the first
 * log2(64 / bits) register bases and the first 4 lane bases rotated: the
 * registers take the first lane bases (the T elements contiguous in shared
 * memory that one lane reads), the 4 lane bases take the remaining lane
 * bases and then the old register bases. */
static void rotate_for_tr(layout_linear *ll, int elem_bits)
{
    int ir = layout_linear_in_dim(ll, "register"), il = layout_linear_in_dim(ll, "lane");
    int n_reg = layout_log2_floor(64 / elem_bits), n_lane = 4, i;
    uint64_t unit[16];
    if (ir < 0 || il < 0 || ll->in_bits[ir] < n_reg || ll->in_bits[il] < n_lane) return;
    for (i = 0; i < n_lane; i++) unit[i] = ll->bases[ll->in_shift[il] + i];
    for (i = 0; i < n_reg; i++) unit[n_lane + i] = ll->bases[ll->in_shift[ir] + i];
    for (i = 0; i < n_reg; i++) ll->bases[ll->in_shift[ir] + i] = unit[i];
    for (i = 0; i < n_lane; i++) ll->bases[ll->in_shift[il] + i] = unit[n_reg + i];
}



/* Is value v defined by a `tt.load` (want_store = 0), or stored by a
 * `tt.store ptr, value` (want_store = 1)?  The IR's dataflow. */
static int global_neighbour(const layout_ttgir *m, int v, int want_store)
{
    int op;
    if (v < 0) return 0;
    if (!want_store) return layout_ttgir_ir_op_is(m, layout_ttgir_ir_def(m, v), "tt.load");
    for (op = 0; op < m->ir.n_ops; op++)
        if (layout_ttgir_ir_op_is(m, op, "tt.store") && layout_ttgir_ir_operand(m, op, 1) == v) return 1;
    return 0;
}

/* The attribute of type t's encoding, read by the dialect's parser
 * (aliases inlined); 0 when there is none or it does not read. */
static int read_encoding(const layout_ttgir *m, const layout_ttgir_type *t, layout_triton_attr *a)
{
    char text[2048];
    const char *attr;
    size_t alen, where = 0;
    return layout_ttgir_encoding(m, t, &attr, &alen) == LAYOUT_OK &&
           layout_tk_inline_aliases(m, attr, alen, text, sizeof text, 0) >= 0 &&
           layout_triton_from_text(text, a, &where, NULL) == LAYOUT_OK;
}

/* ttng.warp_group_dot: wgmma reads its shared operands through matrix
 * descriptors, the tensor core's own path: no LSU instruction, nothing in
 * ncu's shared ld / st counters, which count these reads apart (op_gmma).
 * Measured (tests/fixtures/triton/corpus/gmma: the corpus's 49 sm_90
 * kernels with a warp_group_dot, one CTA each under Nsight Compute on an
 * H200): with the operands in #ttg.nvmma_shared of a 32-, 64- or 128-byte
 * swizzle, each wgmma instruction of a warpgroup reads its A tile
 * (64 x K_instr elements, when A is in shared memory) and its B tile
 * (K_instr x N_instr) in bytes / 128 wavefronts, without a bank conflict:
 * wavefronts and GMMA requests equal on 49 of 49.  The warpgroups (4 warps
 * along M of the accumulator's warpsPerCTA) split M by warpsPerCTA[0] / 4
 * and N by warpsPerCTA[1]; each covers its part in 64-row x N_instr
 * instructions, K / K_instr of them along K (instrShape [16, N_instr,
 * K_instr]).  The figures are the CTA's (cta_total_cycles: wavefronts);
 * per warp, a warpgroup's share.  An unswizzled operand (swizzle 0) or
 * another shape is not measured: not costed. */
static layout_status wgmma_lower(const layout_triton_kernel *k, const layout_ttgir_op *o, layout_triton_kernel_op *r)
{
    const layout_ttgir *m = k->module;
    char what[160];
    layout_strbuf sb;
    int i, n = 0, measured = k->is_nvidia && k->sm == 90 && o->n_src >= 2 && o->n_dst >= 1;
    layout_triton_attr a;
    int64_t shape[2][2] = {{0, 0}, {0, 0}}, eb[2] = {0, 0};
    layout_sb_init(&sb, what, sizeof what);
    for (i = 0; i < o->n_src && i < 2; i++) {
        const layout_ttgir_type *t = &o->src[i];
        int64_t elems = 1;
        int d, swz = -1;
        if (t->rank != 2) measured = 0;
        else shape[i][0] = t->shape[0], shape[i][1] = t->shape[1], eb[i] = t->elem_bits / 8;
        if (!t->is_memdesc) continue;
        for (d = t->rank > 2 ? t->rank - 2 : 0; d < t->rank; d++) elems *= t->shape[d];
        if (read_encoding(m, t, &a) && a.kind == LAYOUT_TRITON_NVMMA_SHARED) swz = a.swizzling_byte_width;
        if (swz != 32 && swz != 64 && swz != 128) measured = 0;
        layout_sb_printf(&sb, "%s%c %" PRId64 " B", n++ ? ", " : "", i == 0 ? 'A' : 'B', elems * t->elem_bits / 8);
        if (swz >= 0) layout_sb_printf(&sb, " (swizzle %d B)", swz);
    }
    if (measured && !o->src[1].is_memdesc) measured = 0;
    /* the accumulator's #ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA, instrShape = [16, N, K]}> */
    if (measured)
        measured = read_encoding(m, &o->dst[0], &a) && a.kind == LAYOUT_TRITON_NVIDIA_MMA && a.mma.version == 3 &&
                   a.mma.rank == 2 && a.mma.n_instr == 3;
    if (measured) {
        const int64_t *wpc = a.mma.warps_per_cta, *ins = a.mma.instr_shape;
        int64_t M = shape[0][0], K = shape[0][1], N = shape[1][1], wg_m = wpc[0] / 4, wg_n = wpc[1];
        int64_t per = 0, n_ins = 0, cta = 0;
        /* Triton's shapes: instrShape N 8..256, K 8..32; tiles below 2^16 (and no overflow below) */
        measured = wpc[0] % 4 == 0 && wg_m > 0 && wg_n > 0 && wg_m * wg_n <= 64 && ins[1] >= 8 && ins[1] <= 256 &&
                   ins[2] >= 8 && ins[2] <= 32 && M > 0 && M <= 65536 && N > 0 && N <= 65536 && K > 0 &&
                   K <= 65536 && eb[0] > 0 && eb[0] <= 8 && eb[1] > 0 && eb[1] <= 8 && shape[1][0] == K &&
                   M % wg_m == 0 && N % wg_n == 0 && (M / wg_m) % 64 == 0 && (N / wg_n) % ins[1] == 0 &&
                   K % ins[2] == 0 && wg_m * wg_n * 4 == m->num_warps;
        if (measured) {
            n_ins = (M / wg_m / 64) * (N / wg_n / ins[1]) * (K / ins[2]);
            per = (o->src[0].is_memdesc ? 64 * ins[2] * eb[0] : 0) + ins[2] * ins[1] * eb[1];
            measured = per % 128 == 0;
            cta = wg_m * wg_n * n_ins * (per / 128);
        }
        if (measured) {
            r->modelled = 1;
            r->direction = LAYOUT_READ;
            r->elem_bits = (int)(eb[1] * 8);
            r->cta_total_cycles = cta;
            r->cta_extra_cycles = 0;
            r->total_cycles = cta / m->num_warps;
            r->extra_cycles = 0;
            return LAYOUT_OK;
        }
    }
    return layout_tk_not_modelled(r, "ttng.warp_group_dot: the tensor core reads %s through wgmma descriptors, "
                                     "no LSU instruction (not in ncu's shared ld/st); measured only on sm_90 with "
                                     "32-, 64- and 128-byte swizzles and Triton's warpgroup tiling: not costed",
                                  n ? what : "its shared operands");
}

/* The bytes every pointer argument of the module's tt.func is known to be
 * aligned to: the least `tt.divisibility = N` among its `!tt.ptr<..>`
 * arguments, 1 for one without (Triton's AxisInfo starts a pointer
 * argument at divisibility 1 unless the launcher specialised it); 16
 * when there is no tt.func.  Read from the IR: the arguments of the first
 * tt.func's entry block and their attribute dictionaries. */
static int pointer_divisibility(const layout_ttgir *m)
{
    const layout_ttgir_ir *ir = &m->ir;
    const layout_ttgir_block *entry;
    int op, k, least = 16;
    for (op = 0; op < ir->n_ops && !layout_ttgir_ir_op_is(m, op, "tt.func"); op++) {}
    if (op >= ir->n_ops || ir->ops[op].n_regions < 1 || ir->regions[ir->ops[op].first_region].first_block < 0) return 16;
    entry = &ir->blocks[ir->regions[ir->ops[op].first_region].first_block];
    for (k = 0; k < entry->n_args; k++) {
        const layout_ttgir_value *a = &ir->values[entry->first_arg + k];
        const char *t = m->text;
        int v = 1;
        if (a->type.len < 8 || memcmp(t + a->type.at, "!tt.ptr<", 8) != 0) continue;
        for (size_t d = a->attrs.at; d + 18 < (size_t)a->attrs.at + a->attrs.len; d++)
            if (memcmp(t + d, "tt.divisibility = ", 18) == 0) {
                v = digits_at(t + d + 18, t + a->attrs.at + a->attrs.len);
                break;
            }
        if (v < least) least = v > 0 ? v : 1;
    }
    return least;
}

layout_status layout_tk_op_prepare(const layout_triton_kernel *k, int op, layout_tk_op_prep *p,
                                   layout_triton_kernel_op *r, layout_error *err)
{
    return layout_tk_op_prepare_captured(k, op, p, r, NULL, err);
}

layout_status layout_tk_op_prepare_captured(const layout_triton_kernel *k, int op, layout_tk_op_prep *p,
                                            layout_triton_kernel_op *r, layout_tk_capture *capture, layout_error *err)
{
    const layout_ttgir *m = k->module;
    const layout_ttgir_op *o = &m->ops[op];
    const layout_ttgir_type *reg, *mem;
    const char *rattr;
    size_t rlen;

    p->generic = 0;
    memset(r, 0, sizeof *r);
    r->op = op;
    r->kind = o->kind;
    r->line = o->line;
    r->worst_access = -1;
    r->cta_total_cycles = r->cta_extra_cycles = -1; /* lower_op: num_warps x warp 0's unless the lowering costed every warp */
    if (layout_ttgir_op_loc(m, op, r->loc, sizeof r->loc) == LAYOUT_ERR_ARG)
        return layout_fail(err, LAYOUT_ERR_ARG, "layout_triton_kernel: op %d out of range", op);
    r->direction = o->kind == LAYOUT_TTGIR_LOCAL_LOAD ? LAYOUT_READ : LAYOUT_WRITE;
    find_types(o, &reg, &mem);
    if (reg) { r->reg_enc_at = reg->enc_at; r->reg_enc_len = reg->enc_len; }
    if (mem) { r->shared_enc_at = mem->enc_at; r->shared_enc_len = mem->enc_len; }

    switch (o->kind) {
    case LAYOUT_TTGIR_CONVERT_LAYOUT: return layout_tk_lower_convert(k, op, r, capture, err);
    case LAYOUT_TTGIR_REDUCE: return layout_tk_lower_reduce(k, op, r, capture, err);
    case LAYOUT_TTGIR_SCAN: return layout_tk_lower_scan(k, op, r, capture, err);
    case LAYOUT_TTGIR_HISTOGRAM: return layout_tk_lower_histogram(k, op, r, capture, err);
    case LAYOUT_TTGIR_GATHER: return layout_tk_lower_gather(k, op, r, capture, err);
    case LAYOUT_TTGIR_WARP_SPECIALIZE:
        return layout_tk_not_modelled(r, "ttg.warp_specialize: the captures reach the partitions' warps through "
                                         "shared memory; not modelled");
    case LAYOUT_TTGIR_OTHER_SHARED: return other_not_modelled(k, o, r, capture, err);
    case LAYOUT_TTGIR_WARP_GROUP_DOT: return wgmma_lower(k, o, r);
    case LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL:
        if (k->is_nvidia) return layout_tk_not_modelled(r, "amdg.buffer_load_to_local on an NVIDIA target");
        break;
    default: break;
    }
    if (!reg || !mem) return layout_tk_not_modelled(r, "no register tensor with a layout and memdesc among the op's types");
    if (reg->rank < 1 || reg->rank > 4)
        return layout_tk_not_modelled(r, "a %d-D tile: tiles of 1 to 4 dims are modelled", reg->rank);
    if (mem->rank < reg->rank)
        return layout_tk_not_modelled(r, "the tensor has more dims (%d) than its memdesc (%d)", reg->rank, mem->rank);
    r->elem_bits = mem->elem_bits;
    if (r->elem_bits < 8 || r->elem_bits > 64 || (r->elem_bits & (r->elem_bits - 1)))
        return layout_tk_not_modelled(r, "element type %s: not 8, 16, 32 or 64 bits", mem->elem);
    for (int d = 0; d < reg->rank; d++) /* the memdesc's trailing dims (a leading one: the buffers) */
        if (mem->shape[mem->rank - reg->rank + d] != reg->shape[d])
            return layout_tk_not_modelled(r, "the memdesc's shape differs from the tensor's (a view is not followed)");
    p->generic = 1;
    p->reg = reg;
    p->mem = mem;
    p->reg_why[0] = 0;
    p->rattr_ok = layout_ttgir_encoding(m, reg, &rattr, &rlen) == LAYOUT_OK;
    p->reg_st = p->rattr_ok ? layout_tk_reg_linear(m, reg, rattr, rlen, &p->ra, &p->rl, p->reg_why, sizeof p->reg_why)
                            : LAYOUT_ERR_UNSUPPORTED;
    /* The tt.load that made the stored tensor or the tt.store that takes
     * the loaded one (its register words are read in layout_tk_op_finish). */
    p->neighbour = o->kind == LAYOUT_TTGIR_LOCAL_LOAD ? global_neighbour(m, layout_ttgir_ir_result(m, o->ir_op, 0), 1)
                   : (o->kind == LAYOUT_TTGIR_LOCAL_STORE || o->kind == LAYOUT_TTGIR_LOCAL_ALLOC)
                       ? global_neighbour(m, layout_ttgir_ir_operand(m, o->ir_op, 0), 0)
                       : 0;
    /* AMD's TTGIR does not print the launcher's divisibility, and its
     * global loads are vectorised all the same (global_load_dword of
     * four i8 beside an unannotated pointer in the Gluon fixtures) */
    p->div_bits = !p->neighbour ? 0 : k->is_nvidia ? pointer_divisibility(m) * 8 : 128;
    p->pk_pairs = 0;
    p->part_phi = layout_tk_part_through_phi(k, op);
    if (!p->neighbour && !k->is_nvidia && p->reg_st == LAYOUT_OK &&
        (o->kind == LAYOUT_TTGIR_LOCAL_STORE || o->kind == LAYOUT_TTGIR_LOCAL_ALLOC)) {
        layout_tk_global g;
        p->pk_pairs = layout_tk_packed_words(k, layout_ttgir_ir_operand(m, o->ir_op, 0), &p->rl, reg->elem_bits, &g) == 2;
    }
    return LAYOUT_OK;
}

void layout_tk_shared_prepare(const layout_ttgir *m, const layout_ttgir_type *mem, const char *attr, size_t alen,
                              const layout_triton_attr *parsed, layout_tk_shared *s)
{
    size_t i;
    s->why[0] = 0;
    s->defined = 1;
    s->warp0_only = 0;
    if (!attr && layout_ttgir_encoding(m, mem, &attr, &alen) != LAYOUT_OK) {
        s->defined = 0;
        s->st = LAYOUT_ERR_UNSUPPORTED;
        return;
    }
    /* with no alias to inline, the text shared_linear reads is attr itself */
    for (i = 0; parsed && i < alen; i++)
        if (attr[i] == '#' && !(i + 5 <= alen && memcmp(attr + i, "#ttg.", 5) == 0)) parsed = NULL;
    if (parsed && alen < 2047) {
        s->sa = *parsed;
        s->st = shared_linear_parsed(mem, &s->sa, &s->sl, &s->pad, s->why, sizeof s->why);
    } else {
        s->st = shared_linear(m, mem, attr, alen, &s->sa, &s->sl, &s->pad, s->why, sizeof s->why);
    }
}

int layout_tk_op_tile_rank(const layout_triton_kernel *k, int op)
{
    const layout_ttgir_type *reg, *mem;
    if (!k->module || op < 0 || op >= k->module->n_ops) return 0;
    find_types(&k->module->ops[op], &reg, &mem);
    return reg ? reg->rank : 0;
}

int layout_tk_shared_fits(const layout_ttgir_type *a, const layout_ttgir_type *b)
{
    /* the attribute addresses the trailing dims: 2 (a leading buffer dim
     * dropped) or, for a tile of another rank, all but the buffer dim */
    if (a->rank < 2 || b->rank < 2 || a->elem_bits != b->elem_bits) return 0;
    int n = a->rank < b->rank ? a->rank : b->rank;
    if (a->rank != b->rank && n > 2) return 0;
    for (int d = 1; d <= n; d++)
        if (a->shape[a->rank - d] != b->shape[b->rank - d]) return 0;
    return 1;
}

layout_status layout_tk_op_finish(const layout_triton_kernel *k, const layout_checker *ck, const layout_tk_op_prep *p,
                                  const layout_tk_shared *s, int64_t ceiling, layout_triton_kernel_op *r,
                                  layout_tk_ds_list *list, layout_error *err)
{
    const layout_ttgir_op *o = &k->module->ops[r->op];
    const layout_tk_pad *pad = &s->pad;
    layout_linear rl, cvt;
    layout_checker own;
    int tr, il;
    layout_error e;

    if (list) list->ok = 0;
    if (!s->defined) return layout_tk_not_modelled(r, "the memdesc's encoding is not defined");
    if (!p->rattr_ok) return layout_tk_not_modelled(r, "the tensor's encoding is not defined");
    if (s->st != LAYOUT_OK) return layout_tk_not_modelled(r, "%s", s->why);
    if (p->reg_st != LAYOUT_OK) return layout_tk_not_modelled(r, "%s", p->reg_why);
    rl = p->rl;
    if (layout_linear_compose(&cvt, &rl, &s->sl, &e) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "register and shared layouts do not compose: %s", e.message);
    tr = uses_ds_read_tr(k, o, &cvt, pad, r->elem_bits);
    if (tr) rotate_for_tr(&cvt, r->elem_bits);
    il = layout_linear_in_dim(&cvt, "lane");
    if (il < 0 || cvt.in_bits[il] != layout_log2_floor(k->arch.wave_size))
        return layout_tk_not_modelled(r, "the register layout's lanes differ from the arch's wave size");

    /* AMD: direct-to-LDS loads, no DS instruction (direct_lds.c) */
    if (!k->is_nvidia && (o->kind == LAYOUT_TTGIR_ASYNC_COPY || o->kind == LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL))
        return layout_tk_lower_direct_to_lds(k, o, &cvt, r);
    if (!ck) {
        if (layout_checker_init(&own, &k->arch, LAYOUT_IMPL_AUTO, err) != LAYOUT_OK)
            return err ? err->status : LAYOUT_ERR_ARG;
        ck = &own;
    }
    /* NVIDIA: Triton tries ldmatrix / stmatrix first, plain then transposed. */
    if (k->is_nvidia && !pad->n && o->kind != LAYOUT_TTGIR_ASYNC_COPY &&
        (layout_tk_ldst_matrix(k, ck, &cvt, 0, r, list ? list->capture : NULL) ||
         layout_tk_ldst_matrix(k, ck, &cvt, 1, r, list ? list->capture : NULL)))
        return LAYOUT_OK;

    /* The register words of the tt.load that made the stored tensor or of
     * the tt.store that takes the loaded one name the instruction (NVIDIA's
     * packed vectors, AMD's _d16_hi stores). */
    layout_tk_global g = {0, -1, -1, p->part_phi};
    if (p->neighbour) {
        int div_bits = p->div_bits;
        int ir = layout_linear_in_dim(&rl, "register"), d1 = layout_tk_last_dim(&rl);
        g.word_bits = layout_tk_global_word_bits(&rl, r->elem_bits);
        if (g.word_bits > div_bits) g.word_bits = div_bits < r->elem_bits ? r->elem_bits : div_bits;
        for (int i = 0; ir >= 0 && d1 >= 0 && i < rl.in_bits[ir]; i++) {
            if (layout_tk_basis(&rl, ir, i) == (uint64_t)1 << rl.out_shift[d1]) g.run1 = i;
            if (layout_tk_basis(&rl, ir, i) == (uint64_t)2 << rl.out_shift[d1]) g.run2 = i;
        }
    } else if (p->pk_pairs) { /* v_cvt_pk: registers 2c, 2c + 1 in one VGPR */
        g.word_bits = 32;
        g.run1 = 0;
    }
    if (list) return layout_tk_lower_ldst_list(k, ck, &cvt, pad, tr, &g, ceiling, r, list);
    if (s->warp0_only) return layout_tk_lower_ldst_warp0(k, ck, &cvt, pad, tr, &g, ceiling, r);
    return layout_tk_lower_ldst_bounded(k, ck, &cvt, pad, tr, &g, ceiling, r);
}

/* gfx11 and gfx12 (isa_features' LAYOUT_ISA_DS_LOAD_STORE_NAMES) name the
 * same DS instructions otherwise (LLVM's assembler for those targets,
 * AMD's RDNA3/RDNA4 ISA guides): ds_load_* /
 * ds_store_*, two addresses ds_load_2addr_* (stride 64: _2addr_stride64_).
 * The corpus's gfx1100 / gfx1200 AMDGCN prints ds_store_b128,
 * ds_load_u16_d16_hi, ds_store_2addr_b32.  Same accesses, so only the
 * names change. */
void layout_tk_rdna_names(const layout_triton_kernel *k, layout_triton_kernel_op *r)
{
    static const char *const from[] = {"ds_read2st64_", "ds_write2st64_", "ds_read2_", "ds_write2_", "ds_read_",
                                       "ds_write_"};
    static const char *const to[] = {"ds_load_2addr_stride64_", "ds_store_2addr_stride64_", "ds_load_2addr_",
                                     "ds_store_2addr_", "ds_load_", "ds_store_"};
    int i, t, dot = 0;
    if (k->is_nvidia || !(k->arch.isa_features & LAYOUT_ISA_DS_LOAD_STORE_NAMES)) return;
    /* A wmma operand packs two 16-bit elements per VGPR: LLVM loads the
     * second of each pair into the high half (ds_load_u16_d16_hi), so half
     * of a dot operand's one-element loads take that form (the corpus's 40
     * gfx1100 / gfx1200 matmul and attention kernels: as many
     * ds_load_u16_d16_hi as ds_load_u16, in every one). */
    if (r->direction == LAYOUT_READ && r->reg_enc_len > 7 && r->reg_enc_at + r->reg_enc_len <= k->module->len)
        for (size_t at = r->reg_enc_at; !dot && at + 6 <= r->reg_enc_at + r->reg_enc_len; at++)
            dot = memcmp(k->module->text + at, "dot_op", 6) == 0;
    for (i = 0; dot && i < r->n_counts; i++)
        if (strcmp(r->counts[i].mnemonic, "ds_read_u16") == 0 && r->counts[i].count % 2 == 0 &&
            r->n_counts < LAYOUT_TRITON_KERNEL_MAX_OP_MNEMONICS) {
            r->counts[i].count /= 2;
            snprintf(r->counts[r->n_counts].mnemonic, LAYOUT_TRITON_KERNEL_MNEMONIC_CAP, "ds_read_u16_d16_hi");
            r->counts[r->n_counts++].count = r->counts[i].count;
            break;
        }
    for (i = 0; i < r->n_counts; i++)
        for (t = 0; t < (int)(sizeof from / sizeof from[0]); t++) {
            size_t n = strlen(from[t]);
            if (strncmp(r->counts[i].mnemonic, from[t], n) == 0) {
                char rest[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP];
                snprintf(rest, sizeof rest, "%s", r->counts[i].mnemonic + n);
                snprintf(r->counts[i].mnemonic, LAYOUT_TRITON_KERNEL_MNEMONIC_CAP, "%s%s", to[t], rest);
                break;
            }
        }
}
