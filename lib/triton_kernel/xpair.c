/* LLVM's SILoadStoreOptimizer across the ops of one basic block
 * (layout_tk_xpair, over dspair.c's list: two ops' instructions on the same base register
 * merged, e.g. the A and B tiles' ds_write_b64 into one
 * ds_write2st64_b64).  Source followed: llvm/lib/Target/AMDGPU/
 * SILoadStoreOptimizer.cpp at commit 27e2f647a5f7 (collectMergeableInsts,
 * addInstToMergeableList, optimizeInstsWithSameBaseAddr,
 * checkAndPrepareMerge, canSwapInstructions, offsetsCanBeCombined,
 * mergeRead2Pair / mergeWrite2Pair); Triton's addresses as the
 * tk_internal.h comments of layout_tk_ds_list say. */
#include "../core/internal.h"
#include "layout/access.h"
#include "layout/triton_kernel.h"
#include "tk_internal.h"
#include "web_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- across ops ---------------------------------------------------------
 *
 * Where the instructions of two ops get one base register.  Triton's
 * lowerLdStShared (third_party/amd/.../MemoryOpToLLVM.cpp and
 * lib/Conversion/TritonGPUToLLVM/Utility.cpp) addresses each access as the
 * memdesc's base, gep(global_smem, allocation offset) and the view's slot
 * offset, plus regBase (the lane and warp ids through the op's offset
 * map) XOR / plus the access's constant.  global_smem is LDS address 0 on
 * AMD (the AMDGCN's `v_add_u32 v17, 0, v1`), constant slot and
 * allocation offsets fold with the access's constant into the DS
 * instruction's 16-bit offset field (SITargetLowering's isDSOffsetLegal),
 * and what is left, regBase ^ key, is one value wherever two ops compute
 * it from the same lane / warp images (CSE): the corpus's
 * matmul_i8_nt_64x64x32_w4_s2_gfx942 writes its A and B tiles (two
 * local_stores of one offset map, buffers 2048 bytes apart) with one
 * `ds_write2st64_b64 v17, v[10:11], v[8:9] offset1:4`.  So two ops' lists
 * join when their element bytes and lane / warp images agree and their
 * slot offsets are constants: a view of a one-deep buffer (the
 * pipeliner's index select(i + 1 < 1, i + 1, 0) is 0 for LLVM's SCCP:
 * the corpus's loop bodies keep the prologue's base register) or of a
 * constant index.
 *
 * One basic block, in program order, without what ends
 * collectMergeableInsts' search (an instruction with unmodeled side
 * effects: s_barrier, s_setprio, sched_barrier) between: consecutive
 * local loads / stores of one region level, none of the lines between
 * opening or closing a region or naming a barrier, rocdl op, atomic,
 * call, print, assert or inline asm, and no op between that Triton's
 * Membar would fence (lib/Analysis/Membar.cpp: an op touching a buffer an
 * earlier op of the run touched, one of them writing, gets a barrier
 * before it). */

#define XP_MAX_OPS 64

/* Op name [at, at + len) holds w. */
static int name_has(const char *s, size_t at, size_t len, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = at; i + n <= at + len; i++)
        if (memcmp(s + i, w, n) == 0) return 1;
    return 0;
}

/* Whether ops x and y (x before y) stay in one run of
 * collectMergeableInsts: one block of the IR, and no op between opens a
 * region or is one whose lowering has unmodeled side effects (a barrier,
 * a rocdl intrinsic, an atomic, a call, a print or assert, inline asm, an
 * async copy or wait). */
static int one_block(const layout_ttgir *m, const layout_ttgir_op *x, const layout_ttgir_op *y)
{
    static const char *const stop[] = {"barrier", "rocdl.", "atomic", "tt.call", "print", "assert", "inline_asm",
                                       "async_"};
    int j;
    if (m->ir.ops[x->ir_op].parent_block != m->ir.ops[y->ir_op].parent_block) return 0;
    for (j = m->ir.ops[x->ir_op].next; j >= 0 && j != y->ir_op; j = m->ir.ops[j].next) {
        const layout_ttgir_ir_op *o = &m->ir.ops[j];
        if (o->n_regions > 0) return 0;
        for (size_t q = 0; q < sizeof stop / sizeof stop[0]; q++)
            if (name_has(m->text, o->name.at, o->name.len, stop[q])) return 0;
    }
    return j == y->ir_op;
}

/* layout_tk_base_offset (tk_internal.h). */
int layout_tk_base_offset(const layout_triton_kernel *k, layout_tk_web *w, const int64_t *alloc_off, int op, int *root,
                          int64_t *out)
{
    return layout_tk_base_offset_var(k, w, alloc_off, op, root, out, NULL);
}

/* layout_tk_base_offset_var (tk_internal.h). */
int layout_tk_base_offset_var(const layout_triton_kernel *k, layout_tk_web *w, const int64_t *alloc_off, int op,
                              int *root, int64_t *out, uint64_t *var)
{
    const layout_ttgir *m = k->module;
    const layout_ttgir_op *o = &m->ops[op];
    layout_tk_name v, res;
    int alloc = -1;
    *root = -1;
    if (!layout_tk_access_memdesc(m, o, &v) || (*root = layout_tk_web_root(w, &v)) < 0) return -1;
    for (int i = 0; i < m->n_ops; i++)
        if (m->ops[i].kind == LAYOUT_TTGIR_LOCAL_ALLOC && layout_tk_op_result(m, &m->ops[i], &res) &&
            layout_tk_web_root(w, &res) == *root) {
            if (alloc >= 0) return -1; /* two buffers in one class */
            alloc = i;
        }
    if (alloc < 0 || alloc_off[alloc] < 0) return -1;
    const layout_ttgir_type *t = &m->ops[alloc].dst[0];
    int64_t slot = 0;
    if (var) *var = 0;
    if (o->kind != LAYOUT_TTGIR_LOCAL_ALLOC && t->rank == 3 && t->shape[0] > 1) {
        /* a constant index of a view of the buffer: `%v = ttg.memdesc_index %a[%c1_i32]` */
        int64_t idx = -1, bytes = (t->elem_bits / 8) * t->shape[1] * t->shape[2];
        int def = layout_ttgir_ir_def(m, v.value);
        if (def >= 0 && m->ir.ops[def].shared >= 0 && m->ops[m->ir.ops[def].shared].kind == LAYOUT_TTGIR_MEMDESC_VIEW) {
            if (!layout_ttgir_ir_op_is(m, def, "ttg.memdesc_index")) return -1;
            int iv = layout_ttgir_ir_operand(m, def, 1);
            if (layout_ttgir_ir_const_int(m, iv, &idx) != LAYOUT_OK) {
                /* a loop's index: index * slot, a register LLVM computes
                 * once for the views that share both (the mix tuning set's
                 * matmul_bf16_tn_64x64x16_cfp32_w4_s3_gfx950: its loop's A
                 * and B stores, `memdesc_index %x_44[%acc_89]` and
                 * `%y_45[%acc_89]`, 2048-byte slots, one
                 * `ds_write2st64_b64 v11, ... offset1:8`) */
                if (!var || iv < 0) return -1;
                *var = ((uint64_t)(unsigned)iv << 32 | (uint64_t)bytes) | 1;
                *out = alloc_off[alloc];
                return 0;
            }
        }
        if (idx < 0 || idx >= t->shape[0]) return -1; /* a block argument: a variable */
        slot = idx * bytes;
    }
    *out = alloc_off[alloc] + slot;
    return 0;
}

/* FNV-1a over the words of an op's regBase images. */
static uint64_t mix(uint64_t h, uint64_t x)
{
    for (int i = 0; i < 8; i++) h = (h ^ ((x >> (8 * i)) & 0xff)) * 0x100000001b3ull;
    return h;
}

/* The mnemonic of a b32 / b64 access, paired (kind 1, 2) or not, in a
 * report's counts (AMD names, then the gfx11 / gfx12 ones). */
static void count(layout_triton_kernel_op *t, int w, int kind)
{
    char mn[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP];
    layout_tk_pair_name(w, kind, t->direction, mn, sizeof mn);
    layout_tk_count_add(t, mn, 1);
}

/* r's counts less those of `less`, plus those of `more` (both named as r's). */
static void recount(layout_triton_kernel_op *r, const layout_triton_kernel_op *less,
                    const layout_triton_kernel_op *more)
{
    int i, j, n = 0;
    for (i = 0; i < less->n_counts; i++)
        for (j = 0; j < r->n_counts; j++)
            if (strcmp(r->counts[j].mnemonic, less->counts[i].mnemonic) == 0) r->counts[j].count -= less->counts[i].count;
    for (j = 0; j < r->n_counts; j++)
        if (r->counts[j].count != 0) r->counts[n++] = r->counts[j];
    r->n_counts = n;
    for (i = 0; i < more->n_counts; i++) layout_tk_count_add(r, more->counts[i].mnemonic, more->counts[i].count);
}

typedef struct xp_state {
    layout_tk_dsi ins[LAYOUT_TK_XPAIR_MAX];
    short owner[LAYOUT_TK_XPAIR_MAX], partner[LAYOUT_TK_XPAIR_MAX], alone[LAYOUT_TK_XPAIR_MAX];
    unsigned char kind[LAYOUT_TK_XPAIR_MAX], alone_kind[LAYOUT_TK_XPAIR_MAX];
    int start[XP_MAX_OPS + 1];
    layout_tk_ds_list list;
    layout_tk_op_prep prep;
    layout_tk_shared sh;
    layout_triton_kernel_op tmp, less, more;
} xp_state;

/* One run of ops (k->ops[first..first + n)): their instruction lists
 * joined in x (ins, owner, start) and paired, each op alone (alone,
 * alone_kind: as ldst.c paired it) and joined where ops share a base
 * register (partner, kind).  *joined = 0 when no two ops share one or an
 * op has no list (left as lowered). */
static layout_status join_section(const layout_triton_kernel *k, layout_tk_web *w, const int64_t *alloc_off, int first,
                                  int n, xp_state *x, int *joined, layout_error *err)
{
    uint64_t sig[XP_MAX_OPS];
    int grp_of[XP_MAX_OPS], ni = 0, shared = 0;
    int64_t base[XP_MAX_OPS];
    layout_status st;
    *joined = 0;
    for (int j = 0; j < n; j++) {
        const layout_triton_kernel_op *r = &k->ops[first + j];
        int root, grp = j;
        x->start[j] = ni;
        x->list.ok = 0;
        x->list.capture = NULL;
        if ((st = layout_tk_op_prepare(k, r->op, &x->prep, &x->tmp, err)) != LAYOUT_OK) return st;
        if (x->prep.generic) { /* the instructions only: ceiling 0 lets the costing stop early */
            layout_tk_shared_prepare(k->module, x->prep.mem, NULL, 0, NULL, &x->sh);
            if ((st = layout_tk_op_finish(k, NULL, &x->prep, &x->sh, 0, &x->tmp, &x->list, err)) != LAYOUT_OK)
                return st;
        }
        if (!x->list.ok || ni + x->list.n > LAYOUT_TK_XPAIR_MAX) return LAYOUT_OK; /* not listed: left as lowered */
        sig[j] = 0;
        uint64_t var = 0;
        if (layout_tk_base_offset_var(k, w, alloc_off, r->op, &root, &base[j], &var) == 0) {
            uint64_t h = mix(mix(0xcbf29ce484222325ull, var), (uint64_t)x->list.elem_bytes);
            h = mix(mix(h, (uint64_t)x->list.n_lane), (uint64_t)x->list.n_warp);
            for (int i = 0; i < x->list.n_lane + x->list.n_warp; i++) h = mix(h, x->list.lw[i]);
            sig[j] = h | 1;
            for (int q = 0; q < j && grp == j; q++)
                if (sig[q] == sig[j]) grp = grp_of[q], shared = 1;
        }
        grp_of[j] = grp;
        for (int i = 0; i < x->list.n; i++, ni++) {
            layout_tk_dsi *d = &x->ins[ni];
            d->off = x->list.off[i];
            d->key = x->list.key[i];
            d->var = x->list.var[i];
            d->grp = grp;
            d->at = 0;
            d->w = x->list.w[i];
            d->size = x->list.size[i];
            d->span = x->list.span;
            d->store = r->direction == LAYOUT_WRITE;
            x->owner[ni] = (short)j;
        }
    }
    x->start[n] = ni;
    if (!shared) return LAYOUT_OK;
    /* each op alone, as ldst.c paired it (the counts to take back) */
    for (int j = 0; j < n; j++)
        layout_tk_pair_ds(x->ins + x->start[j], x->start[j + 1] - x->start[j], NULL, 0, x->alone + x->start[j],
                          x->alone_kind + x->start[j], NULL);
    /* the joined lists: offsets from the shared base; one past the DS
     * offset field's 16 bits is not folded (a base register of its own) */
    for (int i = 0; i < ni; i++) {
        if (sig[x->owner[i]] == 0) {
            x->ins[i].span = -1; /* its base is not a constant: anywhere */
            continue;
        }
        x->ins[i].off += base[x->owner[i]];
        if (x->ins[i].off > 0xffff) x->ins[i].grp = -1 - i;
    }
    layout_tk_pair_ds(x->ins, ni, NULL, 0, x->partner, x->kind, NULL);
    *joined = 1;
    return LAYOUT_OK;
}

/* One run of ops: joined (join_section), each op's counts set to what the
 * joined lists give. */
/* Op j of a joined section: r's counts (op j's report, as lowered alone)
 * set to what the joined lists give. */
static void recount_joined(const layout_triton_kernel *k, xp_state *x, int n, int j, layout_triton_kernel_op *r)
{
    int ni = x->start[n];
    memset(&x->less, 0, sizeof x->less);
    memset(&x->more, 0, sizeof x->more);
    x->less.direction = x->more.direction = r->direction;
    for (int i = x->start[j]; i < x->start[j + 1]; i++) {
        int a = i - x->start[j];
        if (x->ins[i].w && (x->alone[i] < 0 || x->alone[i] > a)) count(&x->less, x->ins[i].w, x->alone_kind[i]);
    }
    /* a pair counts at its earlier instruction: mergeRead2Pair and
     * mergeWrite2Pair give the merged one CI's DebugLoc */
    for (int i = 0; i < ni; i++)
        if (x->owner[i] == j && x->ins[i].w && (x->partner[i] < 0 || x->partner[i] > i))
            count(&x->more, x->ins[i].w, x->kind[i]);
    layout_tk_rdna_names(k, &x->less);
    layout_tk_rdna_names(k, &x->more);
    recount(r, &x->less, &x->more);
}

static layout_status run_section(layout_triton_kernel *k, layout_tk_web *w, const int64_t *alloc_off, int first,
                                 int n, xp_state *x, layout_error *err)
{
    int joined;
    layout_status st = join_section(k, w, alloc_off, first, n, x, &joined, err);
    if (st != LAYOUT_OK || !joined) return st;
    for (int j = 0; j < n; j++) recount_joined(k, x, n, j, &k->ops[first + j]);
    return LAYOUT_OK;
}

/* The generic ops (local loads and stores) whose instructions
 * SILoadStoreOptimizer may join. */
static int joinable(const layout_triton_kernel_op *r)
{
    return r->modelled && (r->kind == LAYOUT_TTGIR_LOCAL_LOAD || r->kind == LAYOUT_TTGIR_LOCAL_STORE ||
                           r->kind == LAYOUT_TTGIR_LOCAL_ALLOC);
}

/* The run of joinable ops that starts at report i: its length (1: alone),
 * up to what ends collectMergeableInsts' search or a Membar fence. */
static int section_at(const layout_triton_kernel *k, layout_tk_web *w, int i)
{
    const layout_ttgir *m = k->module;
    int n = 1, roots[XP_MAX_OPS], writes[XP_MAX_OPS];
    layout_tk_name v;
    for (;; n++) {
        const layout_triton_kernel_op *r = &k->ops[i + n - 1];
        roots[n - 1] = layout_tk_access_memdesc(m, &m->ops[r->op], &v) ? layout_tk_web_root(w, &v) : -1;
        writes[n - 1] = r->direction == LAYOUT_WRITE;
        int fenced = roots[n - 1] < 0; /* Membar: an earlier op of the run on this buffer, one writing */
        for (int q = 0; q < n - 1 && !fenced; q++)
            fenced = roots[q] == roots[n - 1] && (writes[q] || writes[n - 1]);
        if (fenced && n > 1) return n - 1;
        if (n == XP_MAX_OPS || i + n >= k->n_ops || !joinable(&k->ops[i + n]) ||
            !one_block(m, &m->ops[r->op], &m->ops[k->ops[i + n].op]))
            return n;
    }
}

/* Whether some two neighbouring reports are joinable in one block. */
static int any_joinable(const layout_triton_kernel *k)
{
    const layout_ttgir *m = k->module;
    for (int i = 0; i + 1 < k->n_ops; i++)
        if (joinable(&k->ops[i]) && joinable(&k->ops[i + 1]) &&
            one_block(m, &m->ops[k->ops[i].op], &m->ops[k->ops[i + 1].op]))
            return 1;
    return 0;
}

layout_status layout_tk_xpair(layout_triton_kernel *k, layout_error *err)
{
    layout_tk_web web, *w = &web;
    int64_t alloc_off[LAYOUT_TTGIR_MAX_OPS];
    xp_state xs, *x = &xs;
    layout_status st;
    if (!any_joinable(k)) return LAYOUT_OK;
    layout_tk_web_build(w, k->module);
    if (!layout_tk_alloc_offsets(k, w, alloc_off)) return LAYOUT_OK;
    for (int i = 0; i < k->n_ops;) {
        int n = joinable(&k->ops[i]) ? section_at(k, w, i) : 1;
        if (n > 1 && (st = run_section(k, w, alloc_off, i, n, x, err)) != LAYOUT_OK) return st;
        i += n;
    }
    return LAYOUT_OK;
}

layout_status layout_tk_xpair_recount(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                      layout_error *err)
{
    layout_tk_web web, *w = &web;
    int64_t alloc_off[LAYOUT_TTGIR_MAX_OPS];
    xp_state xs, *x = &xs;
    int joined;
    layout_status st;
    if (k->is_nvidia || !any_joinable(k)) return LAYOUT_OK;
    layout_tk_web_build(w, k->module);
    if (!layout_tk_alloc_offsets(k, w, alloc_off)) return LAYOUT_OK;
    for (int i = 0; i < k->n_ops;) {
        int n = joinable(&k->ops[i]) ? section_at(k, w, i) : 1;
        if (op >= i + n) {
            i += n;
            continue;
        }
        if (n < 2) return LAYOUT_OK;
        if ((st = join_section(k, w, alloc_off, i, n, x, &joined, err)) != LAYOUT_OK || !joined) return st;
        recount_joined(k, x, n, op - i, r);
        return LAYOUT_OK;
    }
    return LAYOUT_OK;
}

int layout_tk_xpair_op(const layout_triton_kernel *k, int op, layout_tk_xpair_out *out, layout_error *err)
{
    layout_tk_web web, *w = &web;
    int64_t alloc_off[LAYOUT_TTGIR_MAX_OPS];
    xp_state xs, *x = &xs;
    int joined;
    out->n = 0;
    if (k->is_nvidia || !any_joinable(k)) return 0;
    layout_tk_web_build(w, k->module);
    if (!layout_tk_alloc_offsets(k, w, alloc_off)) return 0;
    for (int i = 0; i < k->n_ops;) {
        int n = joinable(&k->ops[i]) ? section_at(k, w, i) : 1;
        if (op >= i + n) {
            i += n;
            continue;
        }
        if (n < 2 || join_section(k, w, alloc_off, i, n, x, &joined, err) != LAYOUT_OK || !joined) return 0;
        int j = op - i;
        for (int q = x->start[j]; q < x->start[j + 1]; q++) {
            int p = x->partner[q], e = out->n++;
            out->partner_op[e] = p >= 0 ? i + x->owner[p] : -1;
            out->partner[e] = p >= 0 ? p - x->start[x->owner[p]] : -1;
            out->kind[e] = x->kind[q];
            out->standing[e] = p < 0 || p > q; /* counted at the earlier one (run_section) */
            out->w[e] = x->ins[q].w;
        }
        return 1;
    }
    return 0;
}

void layout_tk_xpair_name(const layout_triton_kernel *k, int w, int kind, layout_direction dir, char *buf, size_t cap)
{
    layout_triton_kernel_op t;
    memset(&t, 0, sizeof t);
    t.direction = dir;
    count(&t, w, kind);
    layout_tk_rdna_names(k, &t);
    snprintf(buf, cap, "%s", t.counts[0].mnemonic);
}
