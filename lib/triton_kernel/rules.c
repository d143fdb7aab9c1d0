/* What Triton 3.6 lowers (rules_internal.h): the table of rules that
 * restrict the suggestion and the apply, and the check of one attribute
 * against the attribute rows.  Sources: triton-lang/triton as stored in
 * the public index (no v3.6.0 tag is held there: each row names the commit
 * of the file that was read); the rows' facts were also checked against
 * the corpus TTGIR, which Triton 3.6.0 printed. */
#include "rules_internal.h"

#include "../core/strbuf.h"

#include <string.h>

#define OPS_CPP "lib/Dialect/TritonNvidiaGPU/IR/Ops.cpp"
#define OPS_COMMIT "0043a8d80d60f9a791d43161189aa13e0db00353"
#define WGMMA_CPP "third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/DotOpToLLVM/WGMMA.cpp"
#define WGMMA_COMMIT "02d918bea5edb15fd6a22e3bdcdce125eb3c6911"
#define DIALECT_CPP "lib/Dialect/TritonGPU/IR/Dialect.cpp"
#define DIALECT_COMMIT "9c3434b30044b60341290c17859541593df92084"
#define ALLOC_CPP "lib/Analysis/Allocation.cpp"
#define ALLOC_COMMIT "00327161946ce1a1428338d62ff5521aa25fa6ff"

/* The table (LAYOUT_TK_RULE_COUNT - 1 rows, id order). */
static const layout_tk_rule rule_table[LAYOUT_TK_RULE_COUNT - 1] = {
    {LAYOUT_TK_RULE_WGMMA_READER, "wgmma-reader", "keep", "ttng.warp_group_dot operand",
     "wgmma reads it through a shared-memory matrix descriptor, not LSU instructions; measured, those reads "
     "cost bytes / 128 wavefronts without a bank conflict under every swizzle Triton lowers for them: no "
     "attribute lowers that cost, and no suggestion may change what it reads",
     WGMMA_CPP " (createDescriptor, DotOpMmaV3SmemLoader)", WGMMA_COMMIT},
    {LAYOUT_TK_RULE_TR_READER, "ds-read-tr-reader", "keep",
     "gfx950 local_load lowered to ds_read_b64_tr_b16 / _b8",
     "no measurement or document gives its bank rule (the model costs it as an ordinary read): the "
     "allocation keeps its attribute; a candidate making a reader lower to it is rejected",
     "third_party/amd/lib/TritonAMDGPUToLLVM/MemoryOpToLLVM.cpp (TransLocalLoadOpConversion::lowerDsReadTr, "
     "the linear-layout tile match; confirmed by the Gluon fixtures Triton 3.6.0 compiled)",
     "-"},
    {LAYOUT_TK_RULE_UNMODELLED_USER, "unmodelled-user", "keep",
     "any op on the allocation that the analysis does not lower (direct-to-LDS loads, TMA, tcgen05, ops "
     "it does not know)",
     "which layouts that op's lowering accepts, and what it costs, is not checked here: the allocation "
     "keeps its attribute",
     "Triton's conversion patterns of that op (not modelled)", "-"},
    {LAYOUT_TK_RULE_INFERRED_VIEW, "inferred-view", "keep", "ttg.memdesc_trans, ttg.memdesc_reshape",
     "the view's result encoding is derived from the source's by Triton's layout inference "
     "(inferTransOpEncoding / inferReshapeOpEncoding); the apply does not re-derive it, so the allocation "
     "keeps its attribute",
     DIALECT_CPP " (TritonGPUInferLayoutInterface)", DIALECT_COMMIT},
    {LAYOUT_TK_RULE_WGMMA_ENCODING, "wgmma-encoding", "check", "ttng.warp_group_dot A (memdesc) and B",
     "A must be nvmma_shared, shared_linear or a register dot_op; B nvmma_shared or shared_linear",
     OPS_CPP " (WarpGroupDotOp::verify)", OPS_COMMIT},
    {LAYOUT_TK_RULE_NVMMA_SWIZZLE, "nvmma-swizzle", "check", "#ttg.nvmma_shared",
     "swizzlingByteWidth is 0, 32, 64 or 128 (elementBitWidth non-zero); the descriptor maps them to "
     "swizzle modes 0, 3, 2, 1",
     DIALECT_CPP " (NVMMASharedEncodingAttr::verify); " WGMMA_CPP " (createDescriptor)", DIALECT_COMMIT},
    {LAYOUT_TK_RULE_NVMMA_ELEMENT, "nvmma-element", "check", "#ttg.nvmma_shared",
     "elementBitWidth is the memdesc's element width (getVec = 128 / elementBitWidth sizes the swizzle "
     "vector)",
     DIALECT_CPP " (NVMMASharedEncodingAttr::getVec)", DIALECT_COMMIT},
    {LAYOUT_TK_RULE_NVMMA_UNSWIZZLED, "nvmma-wgmma-unswizzled", "check",
     "#ttg.nvmma_shared read by ttng.warp_group_dot",
     "swizzlingByteWidth is not 0: Triton 3.6.0 fails to lower a warp_group_dot operand at 0 (PassManager::run "
     "failed; measured with triton.compile on the corpus's fp8, tf32 and fp16 sm_90 matmuls, each operand "
     "and transposition; the source line that refuses it was not located)",
     "measured: Triton 3.6.0 wheel, triton.compile(target=cuda:90)", "v3.6.0 (wheel)"},
    {LAYOUT_TK_RULE_NVMMA_ROW, "nvmma-row", "check", "#ttg.nvmma_shared read by ttng.warp_group_dot",
     "the swizzle width is at most the contiguous dim's bytes (\"swizzling size larger than matrix width is "
     "not supported\"); Triton 3.6.0 fails to lower a wider one (measured: fp8 tiles with K = 32 at 64 and 128)",
     WGMMA_CPP " (getSwizzlingFromLayout)", WGMMA_COMMIT},
    {LAYOUT_TK_RULE_NVMMA_KMAJOR, "nvmma-kmajor", "check",
     "#ttg.nvmma_shared of an 8-bit or 32-bit (tf32) ttng.warp_group_dot operand",
     "wgmma transposes only 16-bit operands (PTX ISA, wgmma.mma_async: imm-trans-a / imm-trans-b only for "
     ".f16 / .bf16): A stays transposed = false and B transposed = true (K contiguous)",
     WGMMA_CPP " (convertDot: layoutA / layoutB from transposed)", WGMMA_COMMIT},
    {LAYOUT_TK_RULE_SWIZZLED, "swizzled-order", "check", "#ttg.swizzled_shared, #ttg.amd_rotating_shared",
     "order is a permutation of the dims; vec, perPhase, maxPhase positive", DIALECT_CPP " (attribute parsers)",
     DIALECT_COMMIT},
    {LAYOUT_TK_RULE_PADDED, "padded-verify", "check", "#ttg.padded_shared",
     "at least one interval:+pad pair, intervals and paddings powers of two, intervals distinct",
     DIALECT_CPP " (PaddedSharedEncodingAttr::verify)", DIALECT_COMMIT},
    {LAYOUT_TK_RULE_LOWERING, "lowering", "check", "every modelled writer and reader",
     "each op is re-lowered under the candidate as Triton 3.6 would (ldmatrix / stmatrix, ds_read_b64_tr, "
     "vector width, padding): a candidate under which an op has no modelled lowering is rejected",
     "lib/Conversion/TritonGPUToLLVM/Utility.cpp (lowerLdStShared, lowerLdStMatrix)",
     "1706ecf25fc5dc420fa08d92ad512101872f1367"},
    {LAYOUT_TK_RULE_LDS, "lds-budget", "check", "the module's shared memory",
     "an explicit buffer takes getPaddedSize x element bytes at its alignment (nvmma_shared 128 x maxPhase, "
     "at most 1024), scratch buffers 128-aligned; the bound sums every buffer as if all were live at once "
     "(plus 1023 / 127 bytes of alignment each), so it is never below Triton's lifetime-packed total: the "
     "suggestions together keep it within the target's limit, or, where it is over already, never grow it",
     ALLOC_CPP " (getExplicitValueSize, getScratchValueSize)", ALLOC_COMMIT},
};

const layout_tk_rule *layout_tk_rule_get(layout_tk_rule_id id)
{
    if (id <= LAYOUT_TK_RULE_NONE || id >= LAYOUT_TK_RULE_COUNT) return NULL;
    return &rule_table[id - 1];
}

void layout_tk_rule_note(layout_tk_rule_id id, const char *detail, char *buf, size_t cap)
{
    const layout_tk_rule *r = layout_tk_rule_get(id);
    layout_strbuf sb;
    layout_sb_init(&sb, buf, cap);
    if (!r) return;
    layout_sb_printf(&sb, "%s (rule %s)%s%s: %s", strcmp(r->kind, "keep") == 0 ? "kept" : "rejected", r->name,
                     detail ? ", " : "", detail ? detail : "", r->rule);
}

static int pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

static layout_tk_rule_id fail(layout_tk_rule_id id, char *why, size_t cap, const char *fmt, long long v)
    LAYOUT_PRINTF(4, 0);
static layout_tk_rule_id fail(layout_tk_rule_id id, char *why, size_t cap, const char *fmt, long long v)
{
    if (why && cap) {
        layout_strbuf sb;
        layout_sb_init(&sb, why, cap);
        layout_sb_printf(&sb, fmt, v);
    }
    return id;
}

layout_tk_rule_id layout_tk_rule_check(const layout_triton_attr *a, int elem_bits, const int64_t tile[2],
                                       const layout_tk_wgmma_use *w, char *why, size_t cap)
{
    int i, j;
    int wg = w && w->operand >= 0;
    if (why && cap) why[0] = '\0';
    if (!a) return fail(LAYOUT_TK_RULE_LOWERING, why, cap, "no attribute%.0lld", 0);
    if (wg && a->kind != LAYOUT_TRITON_NVMMA_SHARED && !(a->kind == LAYOUT_TRITON_LINEAR && a->shared_linear))
        return fail(LAYOUT_TK_RULE_WGMMA_ENCODING, why, cap, "a warp_group_dot operand %lld is not nvmma_shared",
                    (long long)w->operand);
    switch (a->kind) {
    case LAYOUT_TRITON_NVMMA_SHARED:
        if (a->swizzling_byte_width != 0 && a->swizzling_byte_width != 32 && a->swizzling_byte_width != 64 &&
            a->swizzling_byte_width != 128)
            return fail(LAYOUT_TK_RULE_NVMMA_SWIZZLE, why, cap, "swizzlingByteWidth = %lld",
                        (long long)a->swizzling_byte_width);
        if (a->element_bit_width != elem_bits)
            return fail(LAYOUT_TK_RULE_NVMMA_ELEMENT, why, cap, "elementBitWidth = %lld",
                        (long long)a->element_bit_width);
        if (wg && a->swizzling_byte_width == 0)
            return fail(LAYOUT_TK_RULE_NVMMA_UNSWIZZLED, why, cap, "swizzlingByteWidth = %lld on a wgmma operand", 0);
        if (wg && tile) {
            int64_t row = tile[a->transposed ? 0 : 1] * elem_bits / 8;
            if (a->swizzling_byte_width > row)
                return fail(LAYOUT_TK_RULE_NVMMA_ROW, why, cap, "swizzle wider than the %lld-byte contiguous dim",
                            (long long)row);
        }
        if (wg && (elem_bits == 8 || elem_bits == 32) && a->transposed != (w->operand == 1))
            return fail(LAYOUT_TK_RULE_NVMMA_KMAJOR, why, cap, "transposed = %lld on a non-16-bit operand",
                        (long long)a->transposed);
        return LAYOUT_TK_RULE_NONE;
    case LAYOUT_TRITON_SWIZZLED_SHARED:
    case LAYOUT_TRITON_AMD_ROTATING_SHARED:
        if (a->vec < 1 || a->per_phase < 1 || a->max_phase < 1)
            return fail(LAYOUT_TK_RULE_SWIZZLED, why, cap, "a parameter is %lld", 0);
        for (i = 0; i < a->rank; i++) {
            if (a->order[i] < 0 || a->order[i] >= a->rank)
                return fail(LAYOUT_TK_RULE_SWIZZLED, why, cap, "order names dim %lld", (long long)a->order[i]);
            for (j = 0; j < i; j++)
                if (a->order[j] == a->order[i])
                    return fail(LAYOUT_TK_RULE_SWIZZLED, why, cap, "order repeats dim %lld", (long long)a->order[i]);
        }
        return LAYOUT_TK_RULE_NONE;
    case LAYOUT_TRITON_PADDED_SHARED:
        if (a->n_pads < 1) return fail(LAYOUT_TK_RULE_PADDED, why, cap, "%lld interval:+pad pairs", 0);
        for (i = 0; i < a->n_pads; i++) {
            if (!pow2(a->interval[i]) || !pow2(a->pad[i]))
                return fail(LAYOUT_TK_RULE_PADDED, why, cap, "pair %lld is not of powers of two", (long long)i);
            for (j = 0; j < i; j++)
                if (a->interval[j] == a->interval[i])
                    return fail(LAYOUT_TK_RULE_PADDED, why, cap, "interval %lld repeated", (long long)a->interval[i]);
        }
        return LAYOUT_TK_RULE_NONE;
    case LAYOUT_TRITON_LINEAR: return LAYOUT_TK_RULE_NONE;
    default: return fail(LAYOUT_TK_RULE_LOWERING, why, cap, "not a shared attribute (kind %lld)", (long long)a->kind);
    }
}
