/* Triton's lowerLdStShared for one register -> offset map (tk_internal.h):
 * the vector, the accesses of warp 0 costed by the checker, the mnemonics
 * the ISA prints; and the readers of a register layout shared by the ops
 * (triton_kernel.c) and ttg.convert_layout (convert.c). */
#include "../core/internal.h"
#include "../core/strbuf.h"
#include "../ttgir/alias.h"
#include "layout/access.h"
#include "layout/check.h"
#include "layout/linear.h"
#include "layout/triton.h"
#include "layout/triton_kernel.h"
#include "layout/triton_stream.h"
#include "tk_internal.h"
#include "ldst_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

layout_status layout_tk_not_modelled(layout_triton_kernel_op *r, const char *fmt, ...)
{
    va_list ap;
    r->modelled = 0;
    r->reason[0] = '\0';
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
    return LAYOUT_OK;
}

/* The op kind of access.h for one lane access of `bytes` bytes (pair_kind:
 * 0 single, 1 read2 / write2, 2 their st64 forms); LAYOUT_DS_AUTO when
 * there is none. */
static layout_ds_op ds_op_of(int bytes, int pair_kind)
{
    if (pair_kind)
        return bytes == 4   ? (pair_kind == 2 ? LAYOUT_DS_PAIR_ST64_B32 : LAYOUT_DS_PAIR_B32)
               : bytes == 8 ? (pair_kind == 2 ? LAYOUT_DS_PAIR_ST64_B64 : LAYOUT_DS_PAIR_B64)
                            : LAYOUT_DS_AUTO;
    switch (bytes) {
    case 1: return LAYOUT_DS_B8;
    case 2: return LAYOUT_DS_B16;
    case 4: return LAYOUT_DS_B32;
    case 8: return LAYOUT_DS_B64;
    case 12: return LAYOUT_DS_B96;
    case 16: return LAYOUT_DS_B128;
    default: return LAYOUT_DS_AUTO;
    }
}

/* The mnemonic of one access of `bytes` bytes per lane: the access layer's
 * vendor names (layout_ds_op_vendor_name()), refined where Triton's PTX
 * keeps the element type (cp.async, vectors of sub-32-bit elements). */
static void mnemonic(const layout_triton_kernel *k, const layout_triton_kernel_op *r, int velems, int bytes,
                     int pair_kind, int gword, int in_word, char *buf, size_t cap)
{
    int bits = bytes * 8;
    layout_ds_op op = ds_op_of(bytes, pair_kind);
    if (k->is_nvidia) {
        if (r->kind == LAYOUT_TTGIR_ASYNC_COPY) {
            /* cp.async: 16 bytes may bypass L1 (.cg); smaller sizes must use .ca. */
            snprintf(buf, cap, "cp.async.%s.shared.global", bytes == 16 ? "cg" : "ca");
            return;
        }
        const char *pre = r->direction == LAYOUT_WRITE ? "st.shared" : "ld.shared";
        /* Next to a global tt.load / tt.store, NVPTX keeps the registers as
         * that access packed them: a vector that is one global word prints as
         * that word (st.shared.b32 of two f16, .b16 of two i8); a vector of
         * 16-bit elements from 32-bit words as .v2.b32; elements that came
         * one per register as .vN.bE (four i8 are one 32-bit register in
         * NVPTX, and Triton packs 128-bit vectors into b32 itself).  The
         * Gluon fixtures' PTX shows each case (st/ld.shared.v2.b16 beside
         * ld.global.b16, .b32 beside ld.global.b32, .b16 of two i8 beside
         * ld.global.b16, .v2.b8 beside ld.global.b32). */
        if (gword && r->elem_bits < 32 && velems > 1 && !(r->elem_bits == 8 && velems >= 4) && bits <= 64) {
            if (bits <= 32) {
                /* a vector of other registers than one word's: loaded as
                 * elements; stored from 32-bit words as one word (prmt) */
                if ((gword == bits && in_word) || (gword >= 32 && bits == 32 && r->direction == LAYOUT_WRITE))
                    snprintf(buf, cap, "%s.b%d", pre, bits);
                else snprintf(buf, cap, "%s.v%d.b%d", pre, velems, r->elem_bits);
            } else if (gword >= 32) {
                snprintf(buf, cap, "%s.v%d.b32", pre, bits / 32);
            } else {
                snprintf(buf, cap, "%s.v%d.b%d", pre, velems, r->elem_bits);
            }
            return;
        }
        /* A load of two 16-bit elements keeps LLVM's <2 x i16> in the PTX
         * (ld.shared.v2.b16); the store of the same pair is packed into a
         * b32 (attn_fp16_64x64x64_w4_s2_sm90 93:63 shows both). */
        if (r->direction == LAYOUT_READ && r->elem_bits == 16 && velems == 2) {
            snprintf(buf, cap, "ld.shared.v2.b16");
            return;
        }
        if (r->elem_bits == 64 && velems == 1) /* one i64 / f64: st.shared.b64 (fp64 transposes' PTX) */
            snprintf(buf, cap, "%s.b64", pre);
        else if (bits < 32 && velems > 1)
            snprintf(buf, cap, "%s.v%d.b%d", pre, velems, r->elem_bits);
        else if (op != LAYOUT_DS_AUTO && op != LAYOUT_DS_B96 && !pair_kind)
            snprintf(buf, cap, "%s", layout_ds_op_vendor_name(op, r->direction, LAYOUT_VENDOR_NVIDIA));
        else if (bits >= 32 && bits / 32 > 1)
            snprintf(buf, cap, "%s.v%d.b32", pre, bits / 32);
        else
            snprintf(buf, cap, "%s.b%d", pre, bits);
        return;
    }
    if (op != LAYOUT_DS_AUTO) snprintf(buf, cap, "%s", layout_ds_op_vendor_name(op, r->direction, LAYOUT_VENDOR_AMD));
    else snprintf(buf, cap, "%s_b%d", r->direction == LAYOUT_WRITE ? "ds_write" : "ds_read", bits);
}

void layout_tk_count_add(layout_triton_kernel_op *r, const char *mn, int64_t n)
{
    int i;
    for (i = 0; i < r->n_counts; i++)
        if (strcmp(r->counts[i].mnemonic, mn) == 0) { r->counts[i].count += n; return; }
    if (r->n_counts < LAYOUT_TRITON_KERNEL_MAX_OP_MNEMONICS) {
        snprintf(r->counts[r->n_counts].mnemonic, LAYOUT_TRITON_KERNEL_MNEMONIC_CAP, "%s", mn);
        r->counts[r->n_counts++].count = n;
    }
}

void layout_tk_cost_add(layout_triton_kernel_op *r, int access, const layout_cost *c, const layout_instr *ins)
{
    r->extra_cycles += c->extra_cycles;
    r->total_cycles += c->total_cycles;
    r->last_total_cycles = c->total_cycles;
    r->last_extra_cycles = c->extra_cycles;
    if (c->extra_cycles > 0) r->n_conflicted++;
    if (r->worst_access < 0 || c->extra_cycles > r->worst_extra) {
        r->worst_access = access;
        r->worst_extra = c->extra_cycles;
        r->worst_nway = c->worst_nway;
        r->worst = *ins;
    }
}

/* SILoadStoreOptimizer over one op's instructions after the
 * LoadStoreVectorizer (layout_tk_pair_ds, xpair.c).  The ni instructions
 * are given in program order: instruction i is access st[i]'s run (its
 * lowest offset), w[i] its b32 / b64 width in bytes or 0 (not pairable,
 * but a store that may block).  One list per instruction class and base
 * register (w, key; var: the address's variable part, which padding's
 * constant terms do not change).  Two stores merge only if the earlier
 * one can sink to the later one: no store with another variable part lies
 * between them in program order, nor, padded, a store on another base
 * register (whose padding term may be anything to it: the Gluon
 * fixtures' AMDGCN, g375, ds_write_b32 at v4+0, v1+256, v4+4, .. left
 * unpaired) -- unless alias analysis tells that store apart from both
 * (layout_tk_lsv_no_alias on lsv, indexed by program place prog[]; g344,
 * g357, g360 pair across such stores).  Counts the mnemonics; list (NULL:
 * none) gets the instructions, partner_out and kind_out (NULL: not wanted)
 * each instruction's partner and pair kind (layout_tk_pair_ds). */
static void pair_ds(const layout_triton_kernel *k, layout_triton_kernel_op *r, int gword, int in_word, int ni,
                    const short *st, const unsigned char *w, const int *sz, const uint64_t *key, const uint64_t *var,
                    const int64_t *off, int64_t span, const layout_tk_lsv_acc *lsv, const int *prog, int padded,
                    layout_tk_ds_list *list, short *partner_out, unsigned char *kind_out)
{
    layout_tk_dsi ins[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    short own_partner[LAYOUT_TRITON_KERNEL_MAX_ACCESSES], walk[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    unsigned char own_kind[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    short *partner = partner_out ? partner_out : own_partner;
    unsigned char *kind = kind_out ? kind_out : own_kind;
    char mn[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP];
    for (int i = 0; i < ni; i++) {
        ins[i].off = off[st[i]];
        ins[i].key = key[st[i]];
        ins[i].var = var[st[i]];
        ins[i].grp = 0;
        ins[i].at = (short)prog[st[i]];
        ins[i].w = w[i];
        ins[i].size = sz[i];
        ins[i].span = span;
        ins[i].store = r->direction == LAYOUT_WRITE;
        if (list) {
            list->off[i] = ins[i].off;
            list->key[i] = ins[i].key;
            list->var[i] = ins[i].var;
            list->size[i] = sz[i];
            list->w[i] = w[i];
        }
    }
    if (list) list->n = ni, list->span = span;
    int nw = layout_tk_pair_ds(ins, ni, lsv, padded, partner, kind, walk);
    for (int q = 0; q < nw; q++) {
        int i = walk[q];
        mnemonic(k, r, w[i] * 8 / r->elem_bits, w[i], kind[i], gword, in_word, mn, sizeof mn);
        layout_tk_count_add(r, mn, 1);
    }
}

void layout_tk_pair_block(const layout_triton_kernel *k, layout_triton_kernel_op *r, int n, const unsigned char *w,
                          const uint64_t *key, const int64_t *off, short *partner, unsigned char *kind)
{
    short st[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    int i, sz[LAYOUT_TRITON_KERNEL_MAX_ACCESSES], prog[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    if (n > LAYOUT_TRITON_KERNEL_MAX_ACCESSES) n = LAYOUT_TRITON_KERNEL_MAX_ACCESSES;
    for (i = 0; i < n; i++) {
        st[i] = (short)i;
        prog[i] = i;
        sz[i] = w[i] ? w[i] : 4;
    }
    /* the variable part of an address is its base register's (key); span
     * -1: a store on another base register may alias (none is told apart) */
    pair_ds(k, r, 0, 0, n, st, w, sz, key, key, off, -1, NULL, prog, 0, NULL, partner, kind);
}

/* Copy attr into buf with every `#alias` (e.g. a dot_op's `parent = #mma`)
 * replaced by the alias's text, recursively (the dialect reads only inline
 * attributes).  Returns the length, or -1 when buf is too small or aliases nest
 * deeper than 8. */
long layout_tk_inline_aliases(const layout_ttgir *m, const char *attr, size_t alen, char *buf, size_t cap, int depth)
{
    size_t i = 0, n = 0;
    if (depth > 8) return -1;
    while (i < alen) {
        if (attr[i] == '#' && !(i + 5 <= alen && memcmp(attr + i, "#ttg.", 5) == 0)) {
            size_t j = i + 1;
            int found;
            while (j < alen && (attr[j] == '_' || attr[j] == '.' || attr[j] == '$' || attr[j] == '-' ||
                                (attr[j] >= '0' && attr[j] <= '9') || (attr[j] >= 'a' && attr[j] <= 'z') ||
                                (attr[j] >= 'A' && attr[j] <= 'Z')))
                j++;
            found = layout_ttgir_alias_find(m, attr + i, j - i);
            if (found >= 0) {
                long got = layout_tk_inline_aliases(m, m->text + m->aliases[found].text_at, m->aliases[found].text_len, buf + n,
                                          cap - n, depth + 1);
                if (got < 0) return -1;
                n += (size_t)got;
                i = j;
                continue;
            }
        }
        if (n + 1 >= cap) return -1;
        buf[n++] = attr[i++];
    }
    buf[n] = 0;
    return (long)n;
}

/* why = prefix + message, truncated. */
void layout_tk_set_why(char *why, size_t cap, const char *prefix, const char *msg)
{
    layout_strbuf sb;
    layout_sb_init(&sb, why, cap);
    layout_sb_printf(&sb, "%s%s", prefix, msg);
}

layout_status layout_tk_reg_linear(const layout_ttgir *m, const layout_ttgir_type *reg, const char *attr, size_t alen,
                                   layout_triton_attr *a_out, layout_linear *out, char *why, size_t why_cap)
{
    char text[2048];
    layout_triton_attr *a = a_out;
    layout_error e;
    size_t where = 0;
    if (layout_tk_inline_aliases(m, attr, alen, text, sizeof text, 0) < 0) {
        layout_tk_set_why(why, why_cap, "register layout not read: ", "its aliases expand to more than 2 KiB or nest too deep");
        return LAYOUT_ERR_UNSUPPORTED;
    }
    if (layout_triton_from_text(text, a, &where, &e) != LAYOUT_OK ||
        layout_triton_to_linear(a, reg->rank, reg->shape, out, &e) != LAYOUT_OK) {
        layout_tk_set_why(why, why_cap, "register layout not read: ", e.message);
        return LAYOUT_ERR_UNSUPPORTED;
    }
    return LAYOUT_OK;
}

int layout_tk_last_dim(const layout_linear *rl)
{
    char name[16];
    snprintf(name, sizeof name, "dim%d", rl->n_out - 1);
    return layout_linear_out_dim(rl, name);
}


int layout_tk_packed_words(const layout_triton_kernel *k, int value, const layout_linear *rl, int elem_bits,
                           layout_tk_global *g)
{
    const layout_ttgir *m = k->module;
    int def = value >= 0 ? layout_ttgir_ir_def(m, value) : -1, ir = layout_linear_in_dim(rl, "register");
    layout_ttgir_type from;
    g->word_bits = 0, g->run1 = g->run2 = g->part_phi = -1;
    if (def < 0 || ir < 0) return 0;
    /* tt.trans relabels the dims of the same registers (TransOpConversion
     * returns its operand's values): register i stays register i */
    int load = def;
    for (int hops = 0; hops < 8 && load >= 0 && layout_ttgir_ir_op_is(m, load, "tt.trans"); hops++)
        load = layout_ttgir_ir_def(m, layout_ttgir_ir_operand(m, load, 0));
    if (load >= 0 && layout_ttgir_ir_op_is(m, load, "tt.load")) {
        /* a thread's elements 2c, 2c + 1 (4c .. 4c + 3) along the loaded
         * tensor's last dim, one global word */
        layout_linear ll;
        const layout_linear *l = rl;
        if (load != def) {
            const char *attr;
            size_t alen;
            layout_triton_attr a;
            char why[LAYOUT_TRITON_KERNEL_REASON_CAP];
            if (layout_ttgir_ir_value_type(m, layout_ttgir_ir_result(m, load, 0), &from) != LAYOUT_OK ||
                layout_ttgir_encoding(m, &from, &attr, &alen) != LAYOUT_OK ||
                layout_tk_reg_linear(m, &from, attr, alen, &a, &ll, why, sizeof why) != LAYOUT_OK ||
                layout_linear_in_dim(&ll, "register") != ir || ll.in_bits[ir] != rl->in_bits[ir])
                return 0;
            l = &ll;
        }
        int d1 = layout_tk_last_dim(l);
        g->word_bits = layout_tk_global_word_bits(l, elem_bits);
        for (int i = 0; d1 >= 0 && i < l->in_bits[ir]; i++) {
            if (layout_tk_basis(l, ir, i) == (uint64_t)1 << l->out_shift[d1]) g->run1 = i;
            if (layout_tk_basis(l, ir, i) == (uint64_t)2 << l->out_shift[d1]) g->run2 = i;
        }
        return 1;
    }
    /* An f32 -> 16-bit arith.truncf that the arch converts two at a time
     * (v_cvt_pk_f16_f32 / v_cvt_pk_bf16_f32): registers 2c, 2c + 1 in one
     * VGPR, the second in its high half (the corpus's gfx950 attentions). */
    if ((k->arch.isa_features & LAYOUT_ISA_CVT_PK_F16_F32) && elem_bits == 16 &&
        layout_ttgir_ir_op_is(m, def, "arith.truncf") &&
        layout_ttgir_ir_value_type(m, layout_ttgir_ir_operand(m, def, 0), &from) == LAYOUT_OK && from.elem_bits == 32 &&
        rl->in_bits[ir] > 0 && layout_tk_basis(rl, ir, 0) != 0) {
        g->word_bits = 32;
        g->run1 = 0;
        return 2;
    }
    return 0;
}

int layout_tk_global_word_bits(const layout_linear *rl, int elem_bits)
{
    int ir = layout_linear_in_dim(rl, "register"), d1 = layout_tk_last_dim(rl);
    int n = 0, i, cap = elem_bits > 0 ? 128 / elem_bits : 1;
    if (ir < 0 || d1 < 0 || elem_bits <= 0) return elem_bits;
    /* the first register basis that moves: it names the order's first dim */
    for (i = 0; i < rl->in_bits[ir]; i++) {
        uint64_t b = layout_tk_basis(rl, ir, i);
        if (!b) continue;
        if (b != (uint64_t)1 << rl->out_shift[d1]) return elem_bits; /* not 1 along the last dim */
        break;
    }
    /* contiguous elements per thread along the last dim: registers 1, 2, 4, .. */
    for (i = 0; i < rl->in_bits[ir] && (1 << n) < cap; i++)
        if (layout_tk_basis(rl, ir, i) == (uint64_t)1 << (rl->out_shift[d1] + n)) n++;
        else break;
    return (1 << n) * elem_bits < 32 ? (1 << n) * elem_bits : 32;
}

/* lowerLdStShared for one cvt (register, lane, warp -> element offset):
 * Triton's vectorisation, the accesses of warp 0 costed by the checker, and
 * the mnemonics; fills r's vec_*, n_accesses, counts and costs (r->kind,
 * direction and elem_bits set by the caller). */
layout_status layout_tk_lower_ldst(const layout_triton_kernel *k, const layout_checker *ck, const layout_linear *cvt,
                                   const layout_tk_pad *pad, int tr, const layout_tk_global *g,
                                   layout_triton_kernel_op *r)
{
    return layout_tk_lower_ldst_bounded(k, ck, cvt, pad, tr, g, INT64_MAX, r);
}

/* lower_ldst's flags: the runs may be costed as translations of the first
 * (ldst_translate_check); ptxas's joins are asked (layout_tk_ldst_pass_ptxas, ldst_ptxas.c) */
enum { LDST_SHORTCUT = 1, LDST_PTXAS = 2 };
static layout_status lower_ldst(const layout_triton_kernel *k, const layout_checker *ck, const layout_linear *cvt,
                                const layout_tk_pad *pad, int tr, const layout_tk_global *g, int64_t ceiling,
                                int flags, layout_triton_kernel_op *r, layout_tk_ds_list *list);

layout_status layout_tk_lower_ldst_bounded(const layout_triton_kernel *k, const layout_checker *ck,
                                           const layout_linear *cvt, const layout_tk_pad *pad, int tr,
                                           const layout_tk_global *g, int64_t ceiling, layout_triton_kernel_op *r)
{
    return lower_ldst(k, ck, cvt, pad, tr, g, ceiling, LDST_SHORTCUT | LDST_PTXAS, r, NULL);
}

layout_status layout_tk_lower_ldst_warp0(const layout_triton_kernel *k, const layout_checker *ck,
                                         const layout_linear *cvt, const layout_tk_pad *pad, int tr,
                                         const layout_tk_global *g, int64_t ceiling, layout_triton_kernel_op *r)
{
    return lower_ldst(k, ck, cvt, pad, tr, g, ceiling, LDST_SHORTCUT, r, NULL);
}

layout_status layout_tk_lower_ldst_list(const layout_triton_kernel *k, const layout_checker *ck,
                                        const layout_linear *cvt, const layout_tk_pad *pad, int tr,
                                        const layout_tk_global *g, int64_t ceiling, layout_triton_kernel_op *r,
                                        layout_tk_ds_list *list)
{
    list->ok = 0;
    layout_status st = lower_ldst(k, ck, cvt, pad, tr, g, ceiling, LDST_SHORTCUT | LDST_PTXAS, r, list);
    if (st != LAYOUT_OK || !r->modelled || k->is_nvidia || tr || pad->n) list->ok = 0;
    return st;
}

layout_status layout_tk_lower_ldst_each(const layout_triton_kernel *k, const layout_checker *ck,
                                        const layout_linear *cvt, const layout_tk_pad *pad, int tr,
                                        const layout_tk_global *g, layout_triton_kernel_op *r)
{
    return lower_ldst(k, ck, cvt, pad, tr, g, INT64_MAX, LDST_PTXAS, r, NULL);
}

/* One instruction: the lanes' byte addresses for the inputs ins (register
 * and warp values) of accesses of `bytes` each, `width` bytes moved per
 * lane, padded after the linear part, costed by the checker.  Returns 0,
 * or 1 with r recorded as not modelled (why). */
static int cost_instr(const layout_checker *ck, const layout_linear *cvt, const layout_tk_pad *pad, const int64_t *ins,
                      int elem_bytes, int bytes, int width, layout_instr *out, layout_cost *c,
                      layout_triton_kernel_op *r)
{
    layout_error e;
    if (layout_tk_ldst_instr_of(cvt, pad, ins, elem_bytes, bytes, width, out, r)) return 1;
    if (layout_checker_cost(ck, out, c, &e) != LAYOUT_OK)
        return layout_tk_not_modelled(r, "the checker has no rule: %s", e.message), 1;
    return 0;
}

/* ---- lowerLdStShared as a stream, then the compilers' passes -------------
 *
 * One op's lowering is four steps over one instruction stream
 * (ldst_stream): Triton's own lowering emits the accesses of one warp in
 * program order, each as (base register, constant byte offset, bytes per
 * lane) with every lane of every warp active (lowerLdStShared predicates
 * none of them); LLVM's LoadStoreVectorizer merges runs of them (lsv.c);
 * each instruction is costed by the checker and named; on AMD,
 * SILoadStoreOptimizer pairs what is left (dspair.c).  Each step is a
 * function below, in that order. */

typedef layout_tk_ldst_stream ldst_stream; /* ldst_internal.h */

/* Triton's largestVectorisation (Utility.cpp): the largest v <= 128 bits
 * such that offsets 1, 2, .., v/2 are each the image of a register bit
 * (registers permuted to put them first) and cvt divides on the left by
 * that tile (divideLeft, getReps in LayoutUtils.cpp): every other basis,
 * of any input dim, is clear of the tile's offset bits. */
static void ldst_vectorise(ldst_stream *s)
{
    const layout_linear *cvt = s->cvt;
    layout_triton_kernel_op *r = s->r;
    int nreg = s->ir >= 0 ? cvt->in_bits[s->ir] : 0, nvec, i, j;
    int max_log = layout_log2_floor((s->tr ? 64 : 128) / r->elem_bits); /* ds_read_b64_tr_b*: 64 bits per lane */
    if (s->pad->n && layout_log2_floor(s->pad->min_interval) < max_log) max_log = layout_log2_floor(s->pad->min_interval);
    for (nvec = max_log; nvec > 0; nvec--) {
        int ok = 1, d, b2;
        uint64_t mask = ((uint64_t)1 << nvec) - 1;
        memset(s->is_vec, 0, sizeof s->is_vec);
        for (j = 0; j < nvec && ok; j++) {
            int found = -1;
            for (i = 0; i < nreg && found < 0; i++)
                if (!s->is_vec[i] && layout_tk_basis(cvt, s->ir, i) == (uint64_t)1 << j) found = i;
            if (s->pad->n && found != j) found = -1; /* padded: no register permutation */
            if (found < 0) ok = 0;
            else s->is_vec[found] = 1;
        }
        for (d = 0; d < cvt->n_in && ok; d++)
            for (b2 = 0; b2 < cvt->in_bits[d] && ok; b2++)
                if (!(d == s->ir && s->is_vec[b2]) && (layout_tk_basis(cvt, d, b2) & mask)) ok = 0;
        if (ok) break;
    }
    if (nvec == 0) memset(s->is_vec, 0, sizeof s->is_vec);
    s->nvec = nvec;
    r->vec_elems = 1 << nvec;
    /* the vector is registers 0 .. vec - 1 in order (one global word's) */
    s->in_word = 1;
    for (j = 0; j < nvec; j++)
        if (!s->is_vec[j] || layout_tk_basis(cvt, s->ir, j) != (uint64_t)1 << j) s->in_word = 0;
    r->vec_bits = r->vec_elems * r->elem_bits;
    s->bytes = r->vec_bits / 8;
    s->elem_bytes = r->elem_bits / 8;
}

/* The accesses' register bits (the non-broadcast register bits outside
 * the vector), the lane / warp part of the offsets, program order's
 * effect on the stores and regBase for the cross-op list.  Returns 1 when
 * there are too many accesses (r not modelled). */
static int ldst_accesses(ldst_stream *s)
{
    const layout_linear *cvt = s->cvt;
    layout_triton_kernel_op *r = s->r;
    int nreg = s->ir >= 0 ? cvt->in_bits[s->ir] : 0, i;
    s->nrest = 0;
    s->lanewarp = 0;
    for (i = 0; i < nreg; i++)
        if (!s->is_vec[i] && layout_tk_basis(cvt, s->ir, i) != 0) s->rest[s->nrest++] = i;
    for (i = 0; i < cvt->in_bits[s->il]; i++) s->lanewarp |= layout_tk_basis(cvt, s->il, i);
    if (s->iw >= 0)
        for (i = 0; i < cvt->in_bits[s->iw]; i++) s->lanewarp |= layout_tk_basis(cvt, s->iw, i);
    if ((1 << s->nrest) > LAYOUT_TRITON_KERNEL_MAX_ACCESSES)
        return layout_tk_not_modelled(r, "more than LAYOUT_TRITON_KERNEL_MAX_ACCESSES (1024) accesses per warp"), 1;
    s->n_acc = r->n_accesses = 1 << s->nrest;
    /* Program order (prog[] below) is register order unless an additive
     * register bit (no lane or warp bit in its offset) follows one that is
     * not: then the loops over them reorder the stores. */
    r->stores_out_of_register_order = 0;
    if (r->direction == LAYOUT_WRITE) {
        int seen_lw = 0;
        for (i = 0; i < s->nrest; i++) {
            if (layout_tk_basis(cvt, s->ir, s->rest[i]) & s->lanewarp) seen_lw = 1;
            else if (seen_lw) r->stores_out_of_register_order = 1;
        }
    }
    if (s->list) { /* regBase's images (layout_tk_ds_list) */
        layout_tk_ds_list *list = s->list;
        list->elem_bytes = r->elem_bits / 8;
        list->n_lane = cvt->in_bits[s->il];
        list->n_warp = s->iw >= 0 ? cvt->in_bits[s->iw] : 0;
        for (i = 0; i < list->n_lane; i++) list->lw[i] = layout_tk_basis(cvt, s->il, i);
        for (i = 0; i < list->n_warp; i++) list->lw[list->n_lane + i] = layout_tk_basis(cvt, s->iw, i);
        list->n = 0;
        list->ok = 1;
    }
    return 0;
}

/* Whether the op's lane / warp part reaches SeparateConstOffsetFromGEP
 * through a phi (layout_tk_part_through_phi), asked once per lowering and
 * only where an access's key is partly inside the part: the question walks
 * the op's block and loops (callgrind: 17 % of a gfx942 attention's report
 * when asked for every lowering). */
static int ldst_part_phi(ldst_stream *s)
{
    if (s->part_phi < 0) s->part_phi = layout_tk_part_through_phi(s->k, s->r->op);
    return s->part_phi;
}

/* Access a's address as Triton emits it: its base register, the variable
 * part alias analysis sees, its constant byte offset (additive register
 * bits, Triton's actionAdditiveStrides: base + constant, what LLVM can
 * pair; the XOR of the other register bits is another base register) and
 * its place in program order (lowerLdStShared's loops: the additive
 * register bits inner, then the others, each in register order;
 * actionAdditiveStrides in LayoutUtils.cpp). */
static void ldst_address(ldst_stream *s, int a, int least_ishift)
{
    const layout_tk_pad *pad = s->pad;
    uint64_t key = 0, add = 0;
    int i, j;
    for (i = 0; i < s->nrest; i++)
        if (a >> i & 1) {
            uint64_t bimg = layout_tk_basis(s->cvt, s->ir, s->rest[i]);
            if (bimg & s->lanewarp) key ^= bimg;
            else add ^= bimg;
        }
    s->base_key[a] = s->alias_key[a] = key;
    s->add_off[a] = (int64_t)layout_tk_apply_padding(pad, add * (uint64_t)s->elem_bytes);
    /* Unpadded: (base ^ key) + add, and the bits of key that no lane or
     * warp sets are zero in base, so LLVM adds them to the immediate
     * (InstCombine's `or disjoint` for a key without lane / warp bits,
     * SeparateConstOffsetFromGEP's split of a mixed key: tidbits.c):
     * the base register is base ^ (key & lanewarp) (the Gluon fixtures'
     * AMDGCN: a shared_linear bf16 operand writes on two base registers
     * with offsets 0, 48, 64, .. and 16, 32, 80, .., the XOR keys 0x108
     * and 0x110 sharing the register of their common lane bit). */
    if (!pad->n) {
        s->base_key[a] = s->alias_key[a] = key & s->lanewarp;
        s->add_off[a] = (int64_t)(((key & ~s->lanewarp) + add) * (uint64_t)s->elem_bytes);
        /* unless the part is a phi for SeparateConstOffsetFromGEP
         * (tidbits.c): the whole key then stays in the register */
        if ((key & s->lanewarp) && (key & ~s->lanewarp) && ldst_part_phi(s)) {
            s->base_key[a] = s->alias_key[a] = key;
            s->add_off[a] = (int64_t)(add * (uint64_t)s->elem_bytes);
        }
    }
    /* Padded: Triton pads each access's whole offset, base + constant,
     * and the accesses share a base register only where the constant's
     * own padding term is the same (the Gluon fixtures' AMDGCN: pairs
     * within one padding term, ds_write2_b32 offset0:33 offset1:49 of
     * [128:+4] beside offset1:16 on another base; none across). */
    if (pad->n)
        s->base_key[a] = key ^ (((uint64_t)s->add_off[a] - add * (uint64_t)s->elem_bytes) * 0x9E3779B97F4A7C15ull);
    /* With two or more padding terms LLVM recomputes both padding terms
     * for every constant with a bit at or above the least interval: each
     * such access has a base register of its own (the Gluon fixtures'
     * AMDGCN: [128:+1, 256:+4] bf16 pairs only the accesses below 256
     * bytes, offsets 0..192 on one base, and writes the other 28 with
     * ds_write_b32 on 28 bases; one term ([128:+4] fp8) keeps a base
     * for 1024 + 0..192 and pairs all). */
    if (pad->n > 1 && (add * (uint64_t)s->elem_bytes) >> least_ishift)
        s->base_key[a] = s->alias_key[a] = key ^ ((uint64_t)(a + 1) * 0xC2B2AE3D27D4EB4Full);
    /* AMD: base + C with C = the XOR constant, clear of every lane / warp
     * bit (InstCombine's `or disjoint`), plus the additive one; where the
     * part is one `and` whose cleared bits C covers, InstCombine drops the
     * `and` and `or (shl tid, s), C` is a register of its own unless
     * instruction selection folds C back (tidbits.c) */
    if (!pad->n && s->tid_ok) {
        uint64_t kb = key * (uint64_t)s->elem_bytes, ab = add * (uint64_t)s->elem_bytes, rk;
        int64_t ro;
        if (!(kb & s->tid_mask) && !(ab & (s->tid_mask | kb)) &&
            layout_tk_tid_reg(s->k, s->tid_mask, s->tid_shift, kb | ab, 0, &rk, &ro)) {
            s->base_key[a] = s->alias_key[a] = rk;
            s->add_off[a] = ro;
        }
    }
    s->prog[a] = 0;
    for (i = 0, j = 0; i < s->nrest; i++)
        if (!(layout_tk_basis(s->cvt, s->ir, s->rest[i]) & s->lanewarp)) s->prog[a] |= (a >> i & 1) << j++;
    for (i = 0; i < s->nrest; i++)
        if (layout_tk_basis(s->cvt, s->ir, s->rest[i]) & s->lanewarp) s->prog[a] |= (a >> i & 1) << j++;
    s->byprog[s->prog[a]] = a;
}

/* What LLVM's LoadStoreVectorizer sees of access a (lsv.c), at its place
 * in program order: the lane / warp part regBase may set bits span_b of
 * the byte offset and no other (LLVM's known bits), so XOR with a
 * constant outside span_b is an add; the base is regBase ^ (the key's bits
 * inside span_b), the rest a constant.  Alignment: the smem base's 16
 * bytes, regBase's trailing zeros, the constant's; padded: also those of
 * each padding term (base >> interval) << pad and of the constant's own
 * term.  Returns 1 when the offset does not fit (r not modelled). */
static int ldst_lsv_view(ldst_stream *s, int a, int least_ishift, int tz_x)
{
    const layout_tk_pad *pad = s->pad;
    int lg_eb = layout_log2_floor(s->elem_bytes), i;
    uint64_t key = 0, add = 0;
    for (i = 0; i < s->nrest; i++)
        if (a >> i & 1) {
            uint64_t bimg = layout_tk_basis(s->cvt, s->ir, s->rest[i]);
            if (bimg & s->lanewarp) key ^= bimg;
            else add ^= bimg;
        }
    layout_tk_lsv_acc *v = &s->lsv[s->prog[a]];
    uint64_t keyb = key << lg_eb, addb = add << lg_eb, off;
    int tzb = tz_x;
    v->lo = 1, v->hi = 0; /* the bases told apart only where padded (below) */
    v->ua_ok = 1;
    if (!pad->n) {
        v->group = s->base_key[a];
        off = (uint64_t)s->add_off[a];
    } else if (!(s->span_b >> least_ishift)) {
        /* regBase below every interval: its padding is 0, each access
         * is regBase ^ key plus the padded constant (one base) */
        v->group = keyb;
        off = (uint64_t)s->add_off[a];
        if (keyb && layout_ctz(keyb) < tzb) tzb = layout_ctz(keyb);
    } else {
        /* the padding of regBase ^ key ^ constant: one base per key and
         * padding term of the constant (base_key), the constant's
         * unpadded bytes on top.  The base pad(regBase) (no key, no
         * term) has the known bits of each term; LLVM knows no more
         * than the element's alignment of the others (the Gluon
         * fixtures' AMDGCN and PTX: 8 bytes of fp32 there as
         * ds_read2_b32, never a pair of bf16 or i8 merged) */
        uint64_t term = (uint64_t)s->add_off[a] - addb;
        v->group = s->base_key[a];
        v->ua_ok = term == 0; /* a constant past an interval: its own padding, its own base (g220's rows 1-3) */
        off = addb;
        for (int q = 0; q < pad->n; q++) {
            int t = layout_ctz(((s->span_b | keyb) >> pad->ishift[q]) << pad->pshift[q]);
            if (t < tzb) tzb = t;
        }
        if ((term || keyb) && lg_eb < tzb) tzb = lg_eb;
        /* its padding term: the constant's own (known ones) up to that
         * of every bit regBase may set (known bits' range) */
        uint64_t hi_t = 0;
        for (int q = 0; q < pad->n; q++) hi_t += ((s->span_b | addb) >> pad->ishift[q]) << pad->pshift[q];
        if (!keyb && hi_t <= INT32_MAX) v->lo = (int32_t)term, v->hi = (int32_t)hi_t;
    }
    if (off > INT32_MAX) return layout_tk_not_modelled(s->r, "byte offset beyond 31 bits"), 1;
    v->off = (int32_t)off;
    v->align_log2 = off && layout_ctz(off) < tzb ? layout_ctz(off) : tzb;
    return 0;
}

/* The lane / warp images in bytes, thread-id bit order (lanes, then
 * warps), read as LLVM sees the part they make (tidbits.c); AMD only:
 * NVIDIA's ld/st.shared fold no constant this way. */
static void ldst_tid_field(ldst_stream *s)
{
    const layout_linear *cvt = s->cvt;
    uint64_t img[2 * LAYOUT_LINEAR_MAX_BITS];
    int n = 0, i;
    s->tid_ok = 0;
    if (s->k->is_nvidia || s->pad->n) return;
    for (i = 0; i < cvt->in_bits[s->il]; i++) img[n++] = layout_tk_basis(cvt, s->il, i) * (uint64_t)s->elem_bytes;
    for (i = 0; s->iw >= 0 && i < cvt->in_bits[s->iw]; i++)
        img[n++] = layout_tk_basis(cvt, s->iw, i) * (uint64_t)s->elem_bytes;
    s->tid_ok = layout_tk_tid_field(img, n, &s->tid_mask, &s->tid_shift);
}

/* Step 1, Triton's lowering: every access's address and its view for the
 * vectorizer, and whether the costing may stop at the ceiling.  Returns 1
 * when r is not modelled. */
static int ldst_emit(ldst_stream *s)
{
    const layout_tk_pad *pad = s->pad;
    int least_ishift = 63, i;
    for (i = 0; i < pad->n; i++)
        if (pad->ishift[i] < least_ishift) least_ishift = pad->ishift[i];
    uint64_t moved = 0;
    for (i = 0; i < s->nrest; i++) moved |= layout_tk_basis(s->cvt, s->ir, s->rest[i]);
    /* Past the ceiling the accesses left are not costed when none of them
     * can fail (every lane address, padded, is at most the padded OR of
     * all images: padding is monotone): the report is then a lower bound
     * (tk_internal.h). */
    uint64_t top = (moved | s->lanewarp) * (uint64_t)s->elem_bytes;
    s->can_cut = s->ceiling < INT64_MAX && (moved | s->lanewarp) <= (uint64_t)UINT32_MAX / (uint64_t)s->elem_bytes &&
                 layout_tk_apply_padding(pad, top) <= (uint64_t)UINT32_MAX - 16;
    s->cut = 0;
    s->span_b = s->lanewarp << layout_log2_floor(s->elem_bytes);
    ldst_tid_field(s);
    s->part_phi = s->g ? s->g->part_phi : -1; /* else asked only for a key partly inside the part (ldst_part_phi) */
    int tz_x = layout_ctz(s->span_b) < 4 ? layout_ctz(s->span_b) : 4;
    for (int a = 0; a < s->n_acc; a++) {
        ldst_address(s, a, least_ishift);
        if (ldst_lsv_view(s, a, least_ishift, tz_x)) return 1;
    }
    return 0;
}

/* Step 2, LLVM's LoadStoreVectorizer (lsv.c): the runs it merges, each one
 * instruction of run_len x bytes per lane, listed by access index. */
static void ldst_pass_lsv(ldst_stream *s)
{
    const layout_triton_kernel *k = s->k;
    s->n_runs = s->n_acc;
    if (s->tr) { /* ds_read_b64_tr_b*: an intrinsic, not merged */
        for (int a = 0; a < s->n_runs; a++) s->order[a] = (short)a, s->run_len[a] = 1;
        return;
    }
    int ua_elem = !k->is_nvidia && (k->arch.ds_forms & LAYOUT_DS_FORM_UNALIGNED) ? s->elem_bytes : 0;
    s->n_runs = layout_tk_lsv(s->lsv, s->n_acc, s->bytes, s->r->direction == LAYOUT_WRITE && s->pad->n, k->is_nvidia,
                              ua_elem, s->order, s->run_len);
    for (int a = 0; a < s->n_acc; a++) s->order[a] = (short)s->byprog[s->order[a]];
}

/* Unpadded, run q's lane addresses are run 0's XOR one constant (the
 * images of its first access's register bits, times the element bytes).
 * When the runs have one width W (a power of two) and every lane image and
 * every such constant is a multiple of W, a lane's words move by one XOR
 * too (aligned, W / bank width whole words or one word), so each bank's
 * distinct words map one to one onto another bank's, equal addresses stay
 * equal (the folds) and the lane groups are the same: the checker's model
 * (check.h) gives every run the first run's cost, which is costed once.
 * The addresses' 32-bit limit is still checked per run. */
static void ldst_translate_check(ldst_stream *s)
{
    uint64_t starts = 0;
    int same_len = 1, i;
    for (int q = 0, pos = 0; q < s->n_runs; pos += s->run_len[q++]) {
        for (i = 0; i < s->nrest; i++)
            if (s->order[pos] >> i & 1) starts |= layout_tk_basis(s->cvt, s->ir, s->rest[i]);
        if (s->run_len[q] != s->run_len[0]) same_len = 0;
    }
    int wbytes = s->run_len[0] * s->bytes;
    s->translate = s->shortcut && !s->pad->n && same_len && !(wbytes & (wbytes - 1)) &&
                   !(((starts | s->lanewarp) * (uint64_t)s->elem_bytes) & (uint64_t)(wbytes - 1));
}

/* Step 3a: run q's one instruction costed by the checker (its lanes'
 * addresses are those of its first, lowest access), or the first run's
 * cost where the runs translate.  Returns 1 when r is not modelled. */
static int ldst_cost_run(ldst_stream *s, int q, int a, int rbytes, int64_t regval, uint64_t image)
{
    layout_triton_kernel_op *r = s->r;
    layout_cost c;
    if (s->cut) return 0;
    if (s->translate && q > 0) {
        if (image > (uint64_t)UINT32_MAX / (uint64_t)s->elem_bytes)
            return layout_tk_not_modelled(r, "lane addresses: layout_linear_lane_access: base offset %llu x %d "
                                             "bytes is over 32 bits", (unsigned long long)image, s->elem_bytes), 1;
        layout_tk_cost_add(r, q, &s->first_cost, &s->first_ins);
        return 0;
    }
    (void)a;
    if (s->ir >= 0) s->ins[s->ir] = regval;
    if (cost_instr(s->ck, s->cvt, s->pad, s->ins, s->elem_bytes, s->bytes, rbytes, &s->last_ins, &c, r)) return 1;
    layout_tk_cost_add(r, q, &c, &s->last_ins);
    if (s->can_cut && !s->translate && r->total_cycles > s->ceiling) s->cut = 1;
    if (s->translate && q == 0) {
        s->first_ins = s->last_ins;
        s->first_cost = c;
    }
    return 0;
}

/* Whether a single access of register value regval holds an element from
 * the upper half of a 32-bit VGPR the global load packed (a thread's
 * elements 2c, 2c + 1 along the last dim; ldst_single_name). */
static int ldst_is_hi(const ldst_stream *s, int64_t regval)
{
    const layout_tk_global *g = s->g;
    if (!g || g->run1 < 0) return 0;
    int h1 = (int)(regval >> g->run1 & 1), h2 = g->run2 >= 0 ? (int)(regval >> g->run2 & 1) : 0;
    return s->bytes == 2 ? h1 : (h2 && !h1);
}

/* Run (pos, len)'s kind: 0 a merged run, named in mn; 1 an instruction
 * SILoadStoreOptimizer may pair, of *w bytes; 2 a single access (named
 * by ldst_single_name). */
static int ldst_run_kind(const ldst_stream *s, int pos, int len, int64_t regval, int *w, char *mn, size_t cap)
{
    const layout_triton_kernel *k = s->k;
    const layout_triton_kernel_op *r = s->r;
    int a = s->order[pos], rbytes = len * s->bytes, i;
    if (len == 1) {
        *w = !k->is_nvidia && !s->tr && (s->bytes == 4 || s->bytes == 8) ? s->bytes : 0;
        return *w ? 1 : 2;
    }
    /* a merged run: registers in offset order, one global word's when
     * they are consecutive from a multiple of their count */
    int run_in_word = r->vec_elems == 1 && (regval & (len - 1)) == 0;
    for (int m = 1; m < len && run_in_word; m++) {
        int64_t rv = 0;
        for (i = 0; i < s->nrest; i++)
            if (s->order[pos + m] >> i & 1) rv |= (int64_t)1 << s->rest[i];
        if (rv != regval + m) run_in_word = 0;
    }
    int align = s->lsv[s->prog[a]].align_log2;
    int below_dword = !k->is_nvidia && rbytes >= 8 && align < 2;
    *w = !k->is_nvidia && !below_dword && (rbytes == 4 || (rbytes == 8 && align >= 3)) ? rbytes : 0;
    if (*w) return 1;
    if (below_dword)
        /* merged below 4-byte alignment (unaligned DS mode): one wide
         * access, not a pair of dwords (g220's ds_write_b64) */
        snprintf(mn, cap, "%s_b%d", r->direction == LAYOUT_WRITE ? "ds_write" : "ds_read", rbytes * 8);
    else if (!k->is_nvidia && rbytes == 8)
        snprintf(mn, cap, "%s", r->direction == LAYOUT_WRITE ? "ds_write2_b32" : "ds_read2_b32");
    else if (!k->is_nvidia && rbytes == 16 && align < 4)
        snprintf(mn, cap, "%s", r->direction == LAYOUT_WRITE ? "ds_write2_b64" : "ds_read2_b64");
    else if (k->is_nvidia && r->direction == LAYOUT_READ && r->elem_bits < 32 && rbytes <= 8)
        /* LLVM loads the merged chain as <n x elem> (getChainElemTy) */
        snprintf(mn, cap, "ld.shared.v%d.b%d", len * r->vec_elems, r->elem_bits);
    else
        mnemonic(k, r, len * r->vec_elems, rbytes, 0, s->gword, run_in_word && s->in_word, mn, cap);
    return 0;
}

/* Step 3b: run q's mnemonic counted, or its width left to
 * SILoadStoreOptimizer (pair_w), or counted among the single accesses
 * named at the end. */
static void ldst_name_run(ldst_stream *s, int q, int pos, int len, int64_t regval)
{
    char mn[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP];
    int w, kind = ldst_run_kind(s, pos, len, regval, &w, mn, sizeof mn);
    s->pair_w[q] = (unsigned char)w;
    if (kind == 0) layout_tk_count_add(s->r, mn, 1);
    if (kind == 2) {
        s->n_single++;
        if (ldst_is_hi(s, regval)) s->hi++; /* a single element from the upper half of a 32-bit VGPR */
    }
}

/* Step 3: every run of warp 0, in run order: where it stands in program
 * order (a merged load at its first access, a store at its last), its
 * cost and its name.  Returns 1 when r is not modelled. */
static int ldst_cost_runs(ldst_stream *s)
{
    layout_triton_kernel_op *r = s->r;
    s->n_single = s->hi = 0;
    memset(&s->first_ins, 0, sizeof s->first_ins);
    memset(&s->first_cost, 0, sizeof s->first_cost);
    memset(&s->last_ins, 0, sizeof s->last_ins); /* after the loop: the last run's lanes (translated: the first's) */
    for (int a = 0; a < s->n_acc; a++) s->run_at[a] = -1;
    for (int q = 0, pos = 0; q < s->n_runs; q++) {
        int a = s->order[pos], len = s->run_len[q], place = s->prog[a];
        uint64_t image;
        int64_t regval = layout_tk_ldst_regval(s, a, &image);
        for (int m = 0; m < len; m++) {
            int pm = s->prog[s->order[pos + m]];
            if (r->direction == LAYOUT_WRITE ? pm > place : pm < place) place = pm;
        }
        s->run_at[place] = (short)q;
        if (ldst_cost_run(s, q, a, len * s->bytes, regval, image)) return 1;
        ldst_name_run(s, q, pos, len, regval);
        pos += len;
    }
    if (s->n_runs > 0 && !s->cut && r->direction == LAYOUT_READ) r->last = s->last_ins; /* for sink.c */
    return 0;
}

/* Step 3c, padded: the warps' bank patterns may differ (the padding of
 * warp w's offsets is not warp 0's moved by a constant): with the whole
 * cost asked for, each warp's runs are costed too, for the CTA's sums
 * (Nsight Compute on an H200, tests/fixtures/gluon/probe.jsonl, g132: fp8
 * under [32:+2], 2 or 3 wavefronts by warp, 20 over 8 warps).  Returns 1
 * when r is not modelled. */
static int ldst_cost_warps(ldst_stream *s, int64_t warp0_total, int64_t warp0_extra)
{
    layout_triton_kernel_op *r = s->r;
    const layout_linear *cvt = s->cvt;
    int iw = s->iw;
    if (!(s->pad->n && s->ceiling == INT64_MAX && iw >= 0 && cvt->in_bits[iw] > 0)) return 0;
    int nw = 1 << cvt->in_bits[iw];
    int64_t per = s->k->module && s->k->module->num_warps > nw ? s->k->module->num_warps / nw : 1;
    int64_t cta_t = r->total_cycles - warp0_total, cta_x = r->extra_cycles - warp0_extra;
    for (int w = 1; w < nw; w++) {
        s->ins[iw] = w;
        for (int q = 0, pos = 0; q < s->n_runs; pos += s->run_len[q++]) {
            layout_instr ins_;
            layout_cost c;
            if (s->ir >= 0) s->ins[s->ir] = layout_tk_ldst_regval(s, s->order[pos], NULL);
            if (cost_instr(s->ck, cvt, s->pad, s->ins, s->elem_bytes, s->bytes, s->run_len[q] * s->bytes, &ins_, &c, r))
                return 1;
            cta_t += c.total_cycles;
            cta_x += c.extra_cycles;
        }
    }
    s->ins[iw] = 0;
    r->cta_total_cycles = cta_t * per;
    r->cta_extra_cycles = cta_x * per;
    return 0;
}

/* Step 4, AMD: SILoadStoreOptimizer pairs the b32 / b64 instructions,
 * taken in program order (pair_ds; dspair.c). */
static void ldst_pass_silsopt(ldst_stream *s)
{
    short st[LAYOUT_TRITON_KERNEL_MAX_ACCESSES], start[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    int sz[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    unsigned char w[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    int ni = 0, any = 0;
    s->paired = 0;
    if (s->k->is_nvidia || s->tr) return;
    for (int q = 0; q < s->n_runs; q++)
        if (s->pair_w[q]) any = 1;
    if (!any && !s->list) return;
    for (int q = 0, pos = 0; q < s->n_runs; pos += s->run_len[q++]) start[q] = s->order[pos];
    for (int place = 0; place < s->n_acc; place++)
        if (s->run_at[place] >= 0) {
            st[ni] = start[s->run_at[place]];
            sz[ni] = s->run_len[s->run_at[place]] * s->bytes;
            w[ni++] = s->pair_w[s->run_at[place]];
        }
    pair_ds(s->k, s->r, s->gword, s->in_word, ni, st, w, sz, s->base_key, s->alias_key, s->add_off, (int64_t)s->span_b,
            s->lsv, s->prog, s->pad->n > 0, s->list, s->partner, s->pair_kind);
    s->paired = 1;
}

/* Whether single stores take the _d16_hi form for elements in the upper
 * half of a register (ldst_name_singles). */
static int ldst_d16(const ldst_stream *s)
{
    const layout_tk_global *g = s->g;
    int bytes = s->bytes;
    return !s->k->is_nvidia && g && g->word_bits && g->run1 >= 0 && (bytes == 2 || g->run2 >= 0) &&
           s->r->direction == LAYOUT_WRITE && s->r->vec_elems == 1 && (bytes == 1 || bytes == 2);
}

/* Step 5: the mnemonics of the runs left single, one instruction each. */
static void ldst_name_singles(ldst_stream *s)
{
    const layout_triton_kernel *k = s->k;
    layout_triton_kernel_op *r = s->r;
    int bytes = s->bytes;
    char mn[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP];
    if (s->tr && bytes == 8) {
        snprintf(mn, sizeof mn, "ds_read_b64_tr_b%d", r->elem_bits);
        layout_tk_count_add(r, mn, s->n_single);
    } else if (ldst_d16(s) && s->n_single) {
        /* One element per ds_write of 32-bit VGPRs that the global load
         * packed (a thread's elements 2c, 2c + 1 along the last dim): LLVM
         * stores an element in bits 16..31 with the _d16_hi form
         * (ds_write_b16_d16_hi; ds_write_b8_d16_hi for byte 2, bytes 1 and
         * 3 are shifted down first): odd f16, byte 2 of four i8. */
        mnemonic(k, r, r->vec_elems, bytes, 0, s->gword, s->in_word, mn, sizeof mn);
        layout_tk_count_add(r, mn, s->n_single - s->hi);
        if (s->hi) {
            snprintf(mn, sizeof mn, "ds_write_b%d_d16_hi", bytes * 8);
            layout_tk_count_add(r, mn, s->hi);
        }
    } else if (s->n_single) {
        mnemonic(k, r, r->vec_elems, bytes, 0, s->gword, s->in_word, mn, sizeof mn);
        layout_tk_count_add(r, mn, s->n_single);
    }
}

/* The name of single access a (ldst_name_singles' rules, one by one). */
static void ldst_single_name(const ldst_stream *s, int64_t regval, char *mn, size_t cap)
{
    const layout_triton_kernel_op *r = s->r;
    if (s->tr && s->bytes == 8) snprintf(mn, cap, "ds_read_b64_tr_b%d", r->elem_bits);
    else if (ldst_d16(s) && ldst_is_hi(s, regval)) snprintf(mn, cap, "ds_write_b%d_d16_hi", s->bytes * 8);
    else mnemonic(s->k, r, r->vec_elems, s->bytes, 0, s->gword, s->in_word, mn, cap);
}

/* Step 6, where asked (list->capture): the stream itself, one entry per
 * instruction in program order (triton_stream.h), named by the steps'
 * own rules, each run costed again (only here: the analysis keeps no
 * per-run costs).  Returns 1 when r is not modelled. */
static int ldst_capture(ldst_stream *s)
{
    layout_tk_capture *cap = s->list ? s->list->capture : NULL;
    const layout_triton_kernel *k = s->k;
    short run_pos[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    if (!cap) return 0;
    short entry_of[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    int from = cap ? cap->n : 0;
    for (int q = 0, pos = 0; q < s->n_runs; pos += s->run_len[q++]) run_pos[q] = (short)pos, entry_of[q] = -1;
    int nw = k->module && k->module->num_warps > 0 ? k->module->num_warps : 1, ni = 0;
    uint64_t lanes = k->arch.wave_size >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << k->arch.wave_size) - 1;
    if (nw > LAYOUT_TRITON_STREAM_MAX_WARPS) nw = LAYOUT_TRITON_STREAM_MAX_WARPS;
    for (int place = 0; place < s->n_acc; place++) {
        int q = s->run_at[place];
        if (q < 0) continue;
        int pos = run_pos[q], len = s->run_len[q], a = s->order[pos], w;
        int partner = s->paired ? s->partner[ni] : -1;
        layout_triton_inst *e = cap->n < cap->cap ? &cap->out[cap->n] : NULL;
        entry_of[q] = (short)(cap->n - from);
        cap->n++;
        if (!e) { ni++; continue; }
        memset(e, 0, sizeof *e);
        int64_t regval = layout_tk_ldst_regval(s, a, NULL);
        int kind = ldst_run_kind(s, pos, len, regval, &w, e->mnemonic, sizeof e->mnemonic);
        if (kind == 1)
            mnemonic(k, s->r, w * 8 / s->r->elem_bits, w, partner >= 0 ? s->pair_kind[ni] : 0, s->gword, s->in_word,
                     e->mnemonic, sizeof e->mnemonic);
        else if (kind == 2)
            ldst_single_name(s, regval, e->mnemonic, sizeof e->mnemonic);
        e->seq = ni;
        e->direction = s->r->direction;
        e->bytes = len * s->bytes;
        e->offset = s->add_off[a];
        e->base_reg = s->base_key[a];
        e->accesses = len;
        e->partner = partner;
        e->pair_form = partner >= 0 ? s->pair_kind[ni] : 0;
        e->standing = partner < 0 || (s->r->direction == LAYOUT_WRITE ? ni > partner : ni < partner);
        e->passes = (len > 1 ? LAYOUT_TRITON_PASS_LSV : 0u) | (partner >= 0 ? LAYOUT_TRITON_PASS_SILSOPT : 0u);
        e->n_warps = nw;
        for (int x = 0; x < nw; x++) e->lanes[x] = lanes; /* lowerLdStShared predicates no lane */
        layout_instr in;
        layout_cost c;
        if (s->ir >= 0) s->ins[s->ir] = regval;
        if (cost_instr(s->ck, s->cvt, s->pad, s->ins, s->elem_bytes, s->bytes, e->bytes, &in, &c, s->r)) return 1;
        e->extra_cycles = c.extra_cycles;
        e->total_cycles = c.total_cycles;
        e->buffer = -1;
        ni++;
    }
    /* ptxas's joins (layout_tk_ldst_pass_ptxas, ldst_ptxas.c): each joined entry names its lead's */
    for (int q = 0; s->pj_ran && q < s->n_runs && q < LAYOUT_TK_PJ_MAX; q++) {
        int i = from + entry_of[q];
        if (s->pj_lead[q] < 0 || entry_of[q] < 0 || i >= cap->cap || entry_of[s->pj_lead[q]] < 0) continue;
        layout_triton_inst *e = &cap->out[i];
        e->passes |= LAYOUT_TRITON_PASS_PTXAS_JOIN;
        e->ptxas_lead = from + entry_of[s->pj_lead[q]];
        e->ptxas_bytes = s->pj_lead[q] == q ? s->pj_width[q] : 0;
    }
    return 0;
}

/* Per-thread: the stream is large (about 60 KiB); one per call, on the
 * caller's stack as before the split. */
static layout_status lower_ldst(const layout_triton_kernel *k, const layout_checker *ck, const layout_linear *cvt,
                                const layout_tk_pad *pad, int tr, const layout_tk_global *g, int64_t ceiling,
                                int flags, layout_triton_kernel_op *r, layout_tk_ds_list *list)
{
    int shortcut = flags & LDST_SHORTCUT;
    ldst_stream st_, *s = &st_;
    s->k = k, s->ck = ck, s->cvt = cvt, s->pad = pad, s->g = g, s->r = r, s->list = list;
    s->tr = tr, s->shortcut = shortcut, s->ceiling = ceiling;
    s->gword = g ? g->word_bits : 0;
    s->ir = layout_linear_in_dim(cvt, "register");
    s->il = layout_linear_in_dim(cvt, "lane");
    s->iw = layout_linear_in_dim(cvt, "warp");
    for (int j = 0; j < LAYOUT_LINEAR_MAX_DIMS; j++) s->ins[j] = 0;
    ldst_vectorise(s);
    if (ldst_accesses(s) || ldst_emit(s)) return LAYOUT_OK;
    ldst_pass_lsv(s);
    ldst_translate_check(s);
    int64_t warp0_total = r->total_cycles, warp0_extra = r->extra_cycles;
    s->pj_ran = 0;
    if (ldst_cost_runs(s) || ldst_cost_warps(s, warp0_total, warp0_extra) ||
        (k->is_nvidia && (flags & LDST_PTXAS) && layout_tk_ldst_pass_ptxas(s)))
        return LAYOUT_OK;
    r->n_accesses = s->n_runs;
    ldst_pass_silsopt(s);
    ldst_name_singles(s);
    if (ldst_capture(s)) return LAYOUT_OK;
    r->modelled = 1;
    return LAYOUT_OK;
}
