/* AMD's direct-to-LDS copies: ttg.async_copy_global_to_local and
 * amdg.buffer_load_to_local, as Triton lowers them
 * (third_party/amd/lib/TritonAMDGPUToLLVM/LoadStoreOpToLLVM.cpp,
 * AsyncCopyGlobalToLocalOpConversion and BufferLoadToLocalOpConversion with
 * DirectToLdsLoadConversionBase, triton-lang/triton read at 007e5ab37fff).
 *
 * emitSharedWarpStartAddresses runs emitTransferBetweenRegistersAndShared
 * on the source layout and the memdesc (a swizzled one made flat: the
 * swizzle is applied to the global pointers instead, lanes exchanging them)
 * with lane 0: one warp-uniform LDS address per vector of the largest
 * vectorisation, and the async copy asserts that vector equals its maxVec
 * (getVectorSize of the source, the mask's alignment), which the pipeliner
 * prints as the op's `contiguity`.  Each vector is one load that writes
 * the warp's lanes one after another from that address (canWriteCoalesced
 * refuses any other pattern): ROCDL::GlobalLoadLDSOp, or the buffer form,
 * of the vector's bytes.  No DS instruction, so no bank conflict.  Widths
 * (supportsDirectToLdsLoadBitWidth, TargetInfo.cpp): CDNA3 32 bits only,
 * CDNA4 32 or 128 (fitToValidDirectToLdsVecSize halves until one fits),
 * read from the arch's isa_features (LAYOUT_ISA_LDS_DMA_B32 / _B128).
 * The probes (tests/fixtures/triton/probes/compa.tar.xz, Triton 3.6.0)
 * print global_load_lds_dword on gfx942 (f16, contiguity 2: 8 a copy) and
 * global_load_lds_dwordx4 on gfx950 (contiguity 8: 2 a copy).  The buffer
 * form is LLVM's MUBUF load with its `lds` modifier (buffer_load_dword ...
 * lds), not recorded here. */
#include <stdio.h>

#include "tk_internal.h"

/* The widest width <= bits, halving, that the arch's direct-to-LDS loads
 * take (its isa_features: CDNA3 32; CDNA4 128, 32); 0: none. */
static int fit_width(const layout_arch *arch, int bits)
{
    for (; bits >= 8; bits /= 2)
        if ((bits == 32 && (arch->isa_features & LAYOUT_ISA_LDS_DMA_B32)) ||
            (bits == 128 && (arch->isa_features & LAYOUT_ISA_LDS_DMA_B128)))
            return bits;
    return 0;
}

layout_status layout_tk_lower_direct_to_lds(const layout_triton_kernel *k, const layout_ttgir_op *o,
                                            const layout_linear *cvt, layout_triton_kernel_op *r)
{
    const layout_ttgir *m = k->module;
    int ir = layout_linear_in_dim(cvt, "register"), nreg = ir >= 0 ? cvt->in_bits[ir] : 0;
    int used[LAYOUT_LINEAR_MAX_BITS] = {0}, nvec = 0, nrest = 0, bits, i;
    int64_t contig;
    char mn[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP];
    int buffer = o->kind == LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL;

    /* largestVectorisation: register bits mapping to element offsets 1, 2, 4 .. */
    for (;; nvec++) {
        int found = -1;
        for (i = 0; i < nreg && found < 0; i++)
            if (!used[i] && layout_tk_basis(cvt, ir, i) == (uint64_t)1 << nvec) found = i;
        if (found < 0 || ((r->elem_bits << (nvec + 1)) > 128)) break;
        used[found] = 1;
    }
    if (layout_ttgir_ir_attr_int(m, o->ir_op, "contiguity", &contig) == LAYOUT_OK && contig >= 1)
        while (nvec > 0 && ((int64_t)1 << nvec) > contig) nvec--;
    bits = fit_width(&k->arch, r->elem_bits << nvec);
    if (!bits)
        return layout_tk_not_modelled(r, "%s: no direct-to-LDS load of %d bits on %s (Triton's "
                                         "supportsDirectToLdsLoadBitWidth)",
                                      buffer ? "amdg.buffer_load_to_local" : "ttg.async_copy_global_to_local",
                                      r->elem_bits << nvec, k->arch.name);
    r->vec_elems = bits / r->elem_bits;
    r->vec_bits = bits;
    for (i = 0; i < nreg; i++) /* the register bits, broadcast ones left out, less the vector's */
        nrest += layout_tk_basis(cvt, ir, i) != 0;
    nrest -= layout_log2_floor(r->vec_elems);
    if (nrest > 20) return layout_tk_not_modelled(r, "more than 2^20 direct-to-LDS loads per warp");
    snprintf(mn, sizeof mn, "%s%s%s", buffer ? "buffer_load_dword" : "global_load_lds_dword",
             bits == 128 ? "x4" : "", buffer ? " lds" : "");
    layout_tk_count_add(r, mn, (int64_t)1 << nrest);
    r->n_accesses = 1 << nrest;
    r->direction = LAYOUT_WRITE;
    r->modelled = 1;
    return LAYOUT_OK;
}
