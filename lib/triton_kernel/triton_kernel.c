/* A Triton kernel's shared-memory ops lowered as Triton 3.6 lowers them
 * (triton_kernel.h): the register -> offset map of each op, Triton's
 * vectorisation, the mnemonics the ISA prints, and every access costed by
 * the checker. */
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

layout_status layout_triton_kernel_target_arch(const char *target, layout_arch *out, layout_error *err)
{
    static const char name[] = "layout_triton_kernel_target_arch";
    char preset[LAYOUT_ARCH_NAME_CAP];
    layout_error e2;
    if (!target || !out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: NULL argument", name);
    if (strncmp(target, "hip:", 4) == 0 && strlen(target + 4) < sizeof preset)
        snprintf(preset, sizeof preset, "%s", target + 4);
    else if (strncmp(target, "cuda:", 5) == 0 && strlen(target + 5) < sizeof preset - 3)
        snprintf(preset, sizeof preset, "sm_%s", target + 5);
    else
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: target \"%s\" is neither hip:<gfx> nor cuda:<sm>", name, target);
    if (layout_arch_preset(preset, out, &e2) != LAYOUT_OK)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: target \"%s\": no arch preset \"%s\" (layout arch lists them)",
                           name, target, preset);
    return LAYOUT_OK;
}

/* Does this op kind access shared memory (and so get a report)? */
static int accesses_memory(const layout_ttgir_op *o)
{
    switch (o->kind) {
    case LAYOUT_TTGIR_LOCAL_ALLOC: return o->n_src > 0 && !o->src[0].is_memdesc;
    case LAYOUT_TTGIR_LOCAL_DEALLOC: /* the allocator frees it: no instruction */
    case LAYOUT_TTGIR_MEMDESC_VIEW:  /* address arithmetic only */
    case LAYOUT_TTGIR_OP_KIND_COUNT: return 0;
    default: return 1;
    }
}

/* Lower and cost one op; the shared encoding is (sattr, slen), NULL: the
 * memdesc's own. */
static layout_status lower_op(const layout_triton_kernel *k, int op, const char *sattr, size_t slen,
                              layout_triton_kernel_op *r, layout_error *err)
{
    layout_tk_op_prep p;
    layout_tk_shared s;
    layout_status st = layout_tk_op_prepare(k, op, &p, r, err);
    if (st == LAYOUT_OK && p.generic) {
        layout_tk_shared_prepare(k->module, p.mem, sattr, slen, NULL, &s);
        st = layout_tk_op_finish(k, NULL, &p, &s, INT64_MAX, r, NULL, err);
    }
    if (r->cta_total_cycles < 0) { /* every warp costs what warp 0 costs */
        int64_t nw = k->module->num_warps > 0 ? k->module->num_warps : 1;
        r->cta_total_cycles = r->modelled ? r->total_cycles * nw : 0;
        r->cta_extra_cycles = r->modelled ? r->extra_cycles * nw : 0;
    }
    if (r->modelled) { /* ptxas's joins (ptxas_join.c): the SASS's CTA figures */
        r->cta_total_cycles += r->ptxas_cta_total_delta;
        r->cta_extra_cycles += r->ptxas_cta_extra_delta;
    }
    if (st == LAYOUT_OK && r->modelled) layout_tk_rdna_names(k, r);
    return st;
}

layout_status layout_triton_kernel_op_cost(const layout_triton_kernel *k, int op, const char *shared_attr, size_t len,
                                           layout_triton_kernel_op *out, layout_error *err)
{
    if (!k || !out || !k->module) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_kernel_op_cost: NULL argument");
    if (op < 0 || op >= k->n_ops)
        return layout_fail(err, LAYOUT_ERR_ARG, "layout_triton_kernel_op_cost: op %d outside 0..%d", op, k->n_ops - 1);
    layout_status st = lower_op(k, k->ops[op].op, shared_attr, shared_attr ? len : 0, out, err);
    /* the last op as analyze costs it: ptxas's sunk load (sink.c) */
    if (st == LAYOUT_OK && k->is_nvidia && op == k->n_ops - 1) layout_tk_sink_last_load(k, out);
    /* ptxas's dummy loads: where the op stands, whatever its encoding */
    if (st == LAYOUT_OK && k->is_nvidia) out->ptxas_dummy_loads = k->ops[op].ptxas_dummy_loads;
    /* as written: paired across the ops of its block as analyze pairs it
     * (xpair.c); a candidate encoding is costed alone */
    if (st == LAYOUT_OK && !shared_attr && !k->is_nvidia && out->modelled)
        st = layout_tk_xpair_recount(k, op, out, err);
    return st;
}

layout_status layout_triton_kernel_analyze(const layout_ttgir *m, const layout_arch *arch, layout_triton_kernel *out,
                                           layout_error *err)
{
    static const char name[] = "layout_triton_kernel_analyze";
    layout_status st;
    int i, j;
    if (!m || !out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: NULL argument", name);
    /* A whole module, whatever arch is given: without the header's warps
     * and target the text is a fragment or was edited, and every figure
     * below would rest on a guess. */
    if (!m->module_line)
        return layout_fail(err, LAYOUT_ERR_PARSE,
                           "%s: line 1, column 1: no `module attributes {...}` line: not a whole TTGIR module "
                           "(hint: pass all of kernel.asm[\"ttgir\"] or the .ttgir file Triton wrote)", name);
    if (m->num_warps <= 0)
        return layout_fail(err, LAYOUT_ERR_PARSE,
                           "%s: line %d, column %d: the module has no ttg.num-warps attribute (hint: Triton 3.2+ "
                           "prints \"ttg.num-warps\" = N : i32 in the module attributes; --arch does not replace it)",
                           name, m->module_line, m->module_column);
    if (!m->target[0])
        return layout_fail(err, LAYOUT_ERR_PARSE,
                           "%s: line %d, column %d: the module has no ttg.target attribute (hint: Triton 3.2+ "
                           "prints ttg.target = \"hip:gfx942\" or \"cuda:90\" in the module attributes; --arch does "
                           "not replace it)", name, m->module_line, m->module_column);
    out->module = m;
    out->n_ops = out->n_modelled = out->n_per_warp = 0;
    out->extra_cycles = out->total_cycles = out->n_accesses = 0;
    out->cta_extra_cycles = out->cta_total_cycles = 0;
    if (arch) out->arch = *arch;
    else if ((st = layout_triton_kernel_target_arch(m->target, &out->arch, err)) != LAYOUT_OK) return st;
    out->is_nvidia = strncmp(out->arch.name, "sm_", 3) == 0;
    out->sm = out->is_nvidia ? atoi(out->arch.name + 3) : 0;
    if (m->threads_per_warp > 0 && m->threads_per_warp != out->arch.wave_size)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: the module has %d threads per warp, arch %s %d", name,
                           m->threads_per_warp, out->arch.name, out->arch.wave_size);
    for (i = 0; i < m->n_ops; i++) {
        if (!accesses_memory(&m->ops[i])) continue;
        if ((st = lower_op(out, i, NULL, 0, &out->ops[out->n_ops++], err)) != LAYOUT_OK) return st;
    }
    /* ptxas runs the last load only on the warps that store (sink.c), and
     * writes dummy loads beside cp.async (ptxas_dummy.c) */
    if (out->is_nvidia && out->n_ops > 0) layout_tk_sink_last_load(out, &out->ops[out->n_ops - 1]);
    if (out->is_nvidia) layout_tk_ptxas_dummies(out);
    /* LLVM pairs DS instructions of several ops of one basic block */
    if (!out->is_nvidia && (st = layout_tk_xpair(out, err)) != LAYOUT_OK) return st;
    for (i = 0; i < out->n_ops; i++) {
        const layout_triton_kernel_op *r = &out->ops[i];
        if (!r->modelled) continue;
        out->n_modelled++;
        out->extra_cycles += r->extra_cycles;
        out->total_cycles += r->total_cycles;
        out->cta_extra_cycles += r->cta_extra_cycles;
        out->cta_total_cycles += r->cta_total_cycles;
        out->n_accesses += r->n_accesses;
        for (j = 0; j < r->n_counts; j++) {
            int t;
            for (t = 0; t < out->n_per_warp; t++)
                if (strcmp(out->per_warp_total[t].mnemonic, r->counts[j].mnemonic) == 0) break;
            if (t == out->n_per_warp) {
                if (t == LAYOUT_TRITON_KERNEL_MAX_MNEMONICS)
                    return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: more than %d mnemonics", name,
                                       LAYOUT_TRITON_KERNEL_MAX_MNEMONICS);
                out->per_warp_total[t] = r->counts[j];
                out->n_per_warp++;
            } else {
                out->per_warp_total[t].count += r->counts[j].count;
            }
        }
    }
    return LAYOUT_OK;
}

layout_status layout_triton_kernel_op_explain(const layout_triton_kernel *k, const layout_triton_kernel_op *r,
                                              char *buf, size_t cap, layout_error *err)
{
    static const char name[] = "layout_triton_kernel_op_explain";
    layout_check_report rep;
    layout_checker ck;
    layout_status st;
    if (!k || !r || (!buf && cap)) return layout_fail(err, LAYOUT_ERR_NULL, "%s: NULL argument", name);
    if (!r->modelled || r->worst_access < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: op %d is not modelled", name, r->op);
    if ((st = layout_checker_init(&ck, &k->arch, LAYOUT_IMPL_SCALAR, err)) != LAYOUT_OK) return st;
    if ((st = layout_check_report_init(&rep, &k->arch, err)) != LAYOUT_OK) return st;
    if ((st = layout_check_report_add(&rep, &ck, "worst", &r->worst, 1, err)) != LAYOUT_OK) return st;
    return layout_check_report_text(&rep, buf, cap, NULL, err);
}

static layout_confidence least_confidence(layout_confidence a, layout_confidence b) { return a < b ? a : b; }

/* The rule of (direction, bytes) capped to the widest width the arch rules
 * know; an unsupported or unknown width leaves the confidence as it is. */
static layout_confidence rule_confidence(const layout_arch *arch, layout_direction dir, int bytes, layout_confidence c)
{
    if (bytes > 16) bytes = 16;
    const layout_lane_rule *rule = layout_arch_rule(arch, dir, bytes);
    return rule && rule->supported ? least_confidence(c, rule->confidence) : c;
}

/* 1 when the result of shared-memory op `shared_op` is an operand of a
 * `tt.dot` that Triton lowers without MMA: on NVIDIA, DotOpConversion
 * (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/DotOpToLLVM.cpp,
 * matchAndRewrite; triton-lang/triton 00a287a7) takes the MMA path for an
 * `#ttg.nvidia_mma` result and convertFMADot for a `#ttg.blocked` one.
 * Read from the IR: the dot's operands and its result's encoding. */
static int feeds_fma_dot(const layout_ttgir *m, int shared_op)
{
    int v = layout_ttgir_ir_result(m, m->ops[shared_op].ir_op, 0);
    if (v < 0) return 0;
    for (int i = 0; i < m->ir.n_ops; i++) {
        layout_ttgir_type t;
        const char *enc;
        size_t len;
        static const char blocked[] = "#ttg.blocked<";
        if (!layout_ttgir_ir_op_is(m, i, "tt.dot")) continue;
        if (layout_ttgir_ir_operand(m, i, 0) != v && layout_ttgir_ir_operand(m, i, 1) != v) continue;
        if (layout_ttgir_ir_value_type(m, layout_ttgir_ir_result(m, i, 0), &t) == LAYOUT_OK &&
            layout_ttgir_encoding(m, &t, &enc, &len) == LAYOUT_OK && len >= sizeof blocked - 1 &&
            memcmp(enc, blocked, sizeof blocked - 1) == 0)
            return 1;
    }
    return 0;
}

layout_confidence layout_triton_kernel_op_confidence(const layout_triton_kernel *k, const layout_triton_kernel_op *r,
                                                     const char **note)
{
    if (note) *note = "";
    if (!k || !r || !r->modelled) {
        if (note) *note = "not modelled";
        return LAYOUT_CONFIDENCE_LOW;
    }
    for (int j = 0; j < r->n_counts; j++)
        if (strstr(r->counts[j].mnemonic, "_tr_")) {
            if (note)
                *note = "a transposing read (ds_read_b64_tr_b*): no measurement or document gives its bank rule; "
                        "costed as an ordinary read of its width";
            return LAYOUT_CONFIDENCE_LOW;
        }
    layout_confidence c = k->arch.bank_confidence;
    c = rule_confidence(&k->arch, r->direction, r->vec_bits / 8 > 0 ? r->vec_bits / 8 : 1, c);
    if (r->kind == LAYOUT_TTGIR_CONVERT_LAYOUT && r->cvt_load_vec_elems > 0) {
        int bytes = r->cvt_load_vec_elems * r->elem_bits / 8;
        c = rule_confidence(&k->arch, LAYOUT_READ, bytes > 0 ? bytes : 1, c);
    }
    if (r->kind == LAYOUT_TTGIR_GATHER && r->n_accesses > 0) {
        if (note)
            *note = "the gathered loads' bank cost depends on the index values: counted conflict-free (a lower bound)";
        return LAYOUT_CONFIDENCE_LOW;
    }
    if ((r->kind == LAYOUT_TTGIR_REDUCE || r->kind == LAYOUT_TTGIR_SCAN) && r->n_accesses > 0) /* its scratch is written and read */
        c = rule_confidence(&k->arch, LAYOUT_READ, r->elem_bits / 8 > 0 ? r->elem_bits / 8 : 1, c);
    /* The operand loads of an FMA dot are Triton's own accesses, before
     * LLVM's optimiser; Triton's O3 build (the SLP vectorizer, its own LLVM)
     * regroups them in 12 of the corpus's FMA dots (the corpus's llir
     * fixture: the IR before O3 has exactly these loads, after it not).
     * That build is not modelled. */
    if (k->is_nvidia && r->direction == LAYOUT_READ && r->op >= 0 && r->op < k->module->n_ops &&
        c >= LAYOUT_CONFIDENCE_MEDIUM && feeds_fma_dot(k->module, r->op)) {
        if (note) *note = "LLVM's SLP vectorizer may regroup these loads";
        c = LAYOUT_CONFIDENCE_MEDIUM;
    }
    return c;
}
