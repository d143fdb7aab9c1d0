/* A tensor tt.atomic_rmw / tt.atomic_cas whose result is used.
 *
 * Allocation (lib/Analysis/Allocation.cpp, getRepShapeForAtomic and
 * defaultAllocationAnalysisScratchSizeFn; triton-lang/triton read at
 * 00327161946c) gives it a scratch of the tensor's shape per CTA times
 * max(8, bits) / 8 bytes when the result's linear layout has a free
 * variable (a zero basis of register, lane, warp or block: several threads
 * hold one element), none otherwise.  With a scratch, NVIDIA's
 * AtomicRMWOpConversion / AtomicCASOpConversion
 * (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/LoadStoreOpToLLVM.cpp, read
 * at 0038c87bdb05) end in finalizeTensorAtomicResults
 * (lib/Conversion/TritonGPUToLLVM/Utility.cpp): lowerLdSt of the result
 * layout reshaped to one flat `offset` (row-major), storing under the
 * redundant-thread predicate, a barrier, then lowerLdSt loading every
 * register.  That is a local_store then a local_load of the result layout
 * on an unswizzled row-major buffer (ldst.c).  The probe
 * (tests/fixtures/triton/probes/compa.tar.xz, atomic_add_f32_16_w4_90:
 * 16 f32 on 4 warps, Triton 3.6.0) prints one predicated st.shared.b32,
 * bar.sync, one ld.shared.b32, and metadata shared = 64.
 *
 * AMD is left as not modelled: the AMD AtomicRMWOpConversion read
 * (third_party/amd/lib/TritonAMDGPUToLLVM/LoadStoreOpToLLVM.cpp at
 * 007e5ab37fff) packs each thread's own result and stores it at the
 * scratch base only when atomicNeedsSharedMemory holds, while later
 * revisions call finalizeTensorAtomicResults; no Triton 3.6 AMDGCN record
 * shows which (the probe's gfx942 atomic became amdg.buffer_atomic_rmw,
 * which takes no scratch). */
#include <string.h>

#include "tk_internal.h"

/* Does some input bit of l map to nothing (a free variable)? */
static int has_free_variable(const layout_linear *l)
{
    for (int d = 0; d < l->n_in; d++)
        for (int b = 0; b < l->in_bits[d]; b++)
            if (layout_tk_basis(l, d, b) == 0) return 1;
    return 0;
}

/* One side (the store or the load) onto the row-major scratch, added to r. */
static layout_status one_side(const layout_triton_kernel *k, const layout_checker *ck, const layout_linear *cvt,
                              layout_direction dir, layout_triton_kernel_op *r, layout_tk_capture *cap)
{
    layout_triton_kernel_op sub;
    layout_tk_pad nopad;
    layout_tk_ds_list list;
    layout_status st;
    int from = cap ? cap->n : 0;
    list.capture = cap;
    memset(&nopad, 0, sizeof nopad);
    memset(&sub, 0, sizeof sub);
    sub.kind = r->kind;
    sub.op = r->op;
    sub.direction = dir;
    sub.elem_bits = r->elem_bits;
    sub.worst_access = -1;
    if ((st = cap ? layout_tk_lower_ldst_list(k, ck, cvt, &nopad, 0, NULL, INT64_MAX, &sub, &list)
                  : layout_tk_lower_ldst(k, ck, cvt, &nopad, 0, NULL, &sub)) != LAYOUT_OK)
        return st;
    if (!sub.modelled) return layout_tk_not_modelled(r, "a tensor atomic's scratch: %s", sub.reason);
    for (int i = from; cap && i < cap->n && i < cap->cap; i++) { /* the load's after the store's */
        cap->out[i].seq = i;
        if (cap->out[i].partner >= 0) cap->out[i].partner += from;
    }
    if (dir == LAYOUT_WRITE) {
        r->vec_elems = sub.vec_elems;
        r->vec_bits = sub.vec_bits;
    } else {
        r->cvt_load_vec_elems = sub.vec_elems;
    }
    layout_tk_merge(r, &sub, 1);
    return LAYOUT_OK;
}

layout_status layout_tk_lower_atomic(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                     layout_tk_capture *cap, layout_error *err)
{
    const layout_ttgir *m = k->module;
    const layout_ttgir_op *o = &m->ops[op];
    int n = o->name_len > 32 ? 32 : (int)o->name_len, res = layout_ttgir_ir_result(m, o->ir_op, 0);
    const char *name = m->text + o->name_at, *attr;
    size_t alen;
    layout_ttgir_type t;
    layout_triton_attr ta;
    layout_linear rl, cvt;
    layout_checker ck;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP];
    layout_status st;

    if (res < 0 || layout_ttgir_ir_value_type(m, res, &t) != LAYOUT_OK || t.is_memdesc || t.rank < 1)
        return layout_tk_not_modelled(r, "%.*s: a scalar atomic; Triton passes its result to the other threads "
                                         "through shared memory; not modelled", n, name);
    if (t.enc_len == 0 || layout_ttgir_encoding(m, &t, &attr, &alen) != LAYOUT_OK ||
        layout_tk_reg_linear(m, &t, attr, alen, &ta, &rl, why, sizeof why) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "%.*s: its result layout was not read", n, name);
    r->reg_enc_at = t.enc_at;
    r->reg_enc_len = t.enc_len;
    r->elem_bits = t.elem_bits < 8 ? 8 : t.elem_bits;
    r->direction = LAYOUT_WRITE;
    if (!has_free_variable(&rl)) { /* getRepShapeForAtomic: no scratch, no shared instruction */
        r->modelled = 1;
        return LAYOUT_OK;
    }
    if (!k->is_nvidia)
        return layout_tk_not_modelled(r, "%.*s: a tensor atomic whose layout broadcasts gets shared scratch; AMD's "
                                         "lowering of it differs between the Triton revisions read and no 3.6 "
                                         "record shows it; not modelled", n, name);
    if (r->elem_bits > 64 || (r->elem_bits & (r->elem_bits - 1)))
        return layout_tk_not_modelled(r, "%.*s: element type not 8, 16, 32 or 64 bits", n, name);
    if (!layout_tk_row_major(&rl, t.shape, t.rank, &cvt))
        return layout_tk_not_modelled(r, "%.*s: the result's shape is not a power of two in every dim", n, name);
    if (layout_checker_init(&ck, &k->arch, LAYOUT_IMPL_AUTO, err) != LAYOUT_OK) return err ? err->status : LAYOUT_ERR_ARG;
    r->worst_access = -1;
    r->n_accesses = r->n_counts = 0;
    if ((st = one_side(k, &ck, &cvt, LAYOUT_WRITE, r, cap)) != LAYOUT_OK || r->reason[0]) return st;
    if ((st = one_side(k, &ck, &cvt, LAYOUT_READ, r, cap)) != LAYOUT_OK || r->reason[0]) return st;
    r->cvt_reps = 1;
    r->cvt_scratch_bytes = r->elem_bits / 8;
    for (int d = 0; d < t.rank; d++) r->cvt_scratch_bytes *= t.shape[d];
    r->modelled = 1;
    return LAYOUT_OK;
}
