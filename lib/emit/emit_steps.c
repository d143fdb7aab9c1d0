/* The LDS accesses of a probe: one typed access per instruction the compiler
 * model plans (include/layout/emit.h, docs/emit.md "What it writes").
 *
 * Each step of a side's access plan becomes one load or store of a type of
 * exactly the step's width that claims exactly the step's proven alignment
 * (lp_v<n>_a<c>: n words of lp_s, c-byte aligned), at the byte address of
 * the step's first issue position plus its byte offset.  The two halves of
 * a read2 / write2 share one base: the lower half's address, the upper one
 * that plus the constant distance the model found.  So the compiler is
 * told what the model proves (alignment, distances) and nothing it would
 * have to prove through the descriptor's XOR / DIV arithmetic; a wrong
 * claim moves wrong bytes (a distance, a word map) or is counted by the
 * CPU emulation (an alignment), never silently passes.  Also here: the
 * small writers of offsets and coordinates that emit.c uses too. */
#include "emit_internal.h"
#include "../core/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* An integer literal of the index type (suffixed when it needs 64 bits). */
void layout_emit_put_lit(layout_strbuf *sb, int64_t v)
{
    layout_sb_printf(sb, "%" PRId64 "%s", v, (v > INT32_MAX || v < INT32_MIN) ? "LL" : "");
}

/* The Y part of register index elem's coordinate: c[x] = sum of y_j * weight_j over Y_j of X dim x. */
void layout_emit_y_const(const layout_distribution *d, int elem, int64_t *c)
{
    int64_t y[LAYOUT_MAX_DIMS];
    for (int x = 0; x < d->n_x; x++) c[x] = 0;
    if (layout_dist_y_index(d, elem, y)) return;
    for (int j = 0; j < d->n_y; j++) c[d->encoding.y_major[j] - 1] += y[j] * d->y_weight[j];
}

/* Arguments "x[0] + 8, x[1]" of coordinate base + c. */
void layout_emit_put_coord_args(layout_strbuf *sb, const char *base, int n_x, const int64_t *c)
{
    for (int x = 0; x < n_x; x++) {
        layout_sb_printf(sb, "%s%s[%d]", x ? ", " : "", base, x);
        if (c[x]) layout_sb_printf(sb, " + "), layout_emit_put_lit(sb, c[x]);
    }
}

/* The constant offset step of coordinate step c through an affine plan (no ops). */
static int64_t affine_step(const layout_plan *p, const int64_t *c)
{
    const layout_plan_expr *x = &p->exprs[p->offset_expr];
    uint64_t k = 0;
    for (int i = x->first_term; i < x->first_term + x->n_terms; i++)
        if (p->term_var[i] < p->n_top) k += (uint64_t)p->term_coef[i] * (uint64_t)c[p->term_var[i]];
    return (int64_t)k;
}

/* "lp_w_off(wx[0] + 1, wx[1])" or, through an affine view, "wo + 1": the
 * window's origin offset plus the constant step, as ck_tile moves a tile
 * window's coordinate through a linear descriptor. */
static void put_offset_of(layout_strbuf *sb, const layout_emit_side *s, const int64_t *c)
{
    if (s->plan.n_ops == 0) {
        int64_t k = affine_step(&s->plan, c);
        layout_sb_printf(sb, "%so", s->tag);
        if (k > 0) layout_sb_printf(sb, " + "), layout_emit_put_lit(sb, k);
        else if (k < 0) layout_sb_printf(sb, " - "), layout_emit_put_lit(sb, -k);
        return;
    }
    layout_sb_printf(sb, "lp_%s_off(", s->tag);
    layout_emit_put_coord_args(sb, s->tag[0] == 'w' ? "wx" : "rx", s->dist->n_x, c);
    layout_sb_printf(sb, ")");
}

/* The alignment a step's type claims: its proven alignment, at most the
 * width rounded up to a power of two.  A tile-window vector the model
 * flags misaligned but trusts (AMD: ck_tile's typed vector, issued whole)
 * claims its natural alignment in HIP, as ck_tile's type does; CUDA never
 * claims more than is proven (NVIDIA faults on a misaligned vector). */
static int step_claim(const layout_access_step *st, int hip, int word_bytes)
{
    int natural = 1;
    while (natural < st->width_bytes && natural < 16) natural *= 2;
    int c = st->align_bytes > 0 ? st->align_bytes : word_bytes;
    if (hip && (st->flags & LAYOUT_ACCESS_MISALIGNED)) c = natural;
    if (c > natural) c = natural;
    if (c < word_bytes) c = word_bytes;
    return c;
}

/* A 12-byte step: no power-of-two type; its words are stored one by one
 * through a pointer that claims the alignment, which the compiler merges
 * into the one access (the chop it would make itself). */
static int is_b96(const layout_access_step *st)
{
    return st->width_bytes == 12;
}

void layout_emit_put_step_types(layout_strbuf *sb, const layout_emit_side *side, int n_sides, int hip,
                                int word_bytes)
{
    int seen[17][17]; /* [words][claim] */
    int vec_seen[17];
    memset(seen, 0, sizeof seen);
    memset(vec_seen, 0, sizeof vec_seen);
    layout_sb_printf(sb, "/* The access types: lp_v<n>_a<c> is n words of lp_s claiming c-byte alignment, the\n"
                         " * width and proven alignment of one instruction of the model. */\n");
    for (int i = 0; i < n_sides; i++) {
        const layout_access_plan *ap = &side[i].access;
        for (int k = 0; k < ap->n_steps; k++) {
            const layout_access_step *st = &ap->steps[k];
            const int n = st->width_bytes / word_bytes, c = step_claim(st, hip, word_bytes);
            if (is_b96(st) || n < 1 || n > 16 || c > 16 || seen[n][c]) continue;
            seen[n][c] = 1;
            if (n == 1) {
                layout_sb_printf(sb, "typedef lp_s lp_v1_a%d", c);
                if (c > word_bytes) layout_sb_printf(sb, " __attribute__((aligned(%d)))", c);
                layout_sb_printf(sb, ";\n");
            } else if (hip) {
                if (!vec_seen[n])
                    layout_sb_printf(sb, "typedef lp_s lp_v%d __attribute__((ext_vector_type(%d)));\n", n, n);
                vec_seen[n] = 1;
                layout_sb_printf(sb, "typedef lp_v%d lp_v%d_a%d __attribute__((aligned(%d)));\n", n, n, c, c);
            } else {
                layout_sb_printf(sb, "typedef struct __attribute__((aligned(%d))) lp_v%d_a%d {\n    lp_s e[%d];\n} lp_v%d_a%d;\n",
                                 c, n, c, n, n, c);
            }
        }
    }
    layout_sb_printf(sb, "\n");
}

/* Byte address of issue position p in (warp, lane): base + offset x elem. */
static layout_status pos_addr(const layout_emit_side *s, int warp, int lane, int p, int64_t *out, layout_error *err)
{
    int64_t x[LAYOUT_MAX_DIMS];
    layout_status st = layout_dist_coord_elem(s->dist, warp, lane, s->access.order[p], x, err);
    if (st) return st;
    *out = s->access.base_bytes + (int64_t)s->access.elem_bytes * layout_plan_offset_unchecked(&s->plan, x);
    return LAYOUT_OK;
}

/* Which register word sits at each word of step st: reg_word[j] for the
 * step's bytes j*wb .. (j+1)*wb-1.  A vector the model flags
 * non-contiguous is ck_tile's vector as it is (its elements in order, the
 * wrong bytes by design); otherwise the words are found by address in
 * warp 0 lane 0 and must sit at the same distance from the step's address
 * in every lane of every warp (a rigid run: what the model claims). */
static layout_status map_step(const layout_emit_side *s, int k, int wb, int words, const int64_t *addr0,
                              int *reg_word, layout_error *err)
{
    const layout_access_plan *ap = &s->access;
    const layout_access_step *st = &ap->steps[k];
    const int n = st->width_bytes / wb;
    int pos[16], sub[16];
    layout_status e;
    if (n < 1 || n > 16 || n * wb != st->width_bytes)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "step %d: %d bytes are not whole %d-byte words", k,
                           st->width_bytes, wb);
    if (st->flags & LAYOUT_ACCESS_NONCONTIGUOUS) {
        const int dir = st->elem_dir ? st->elem_dir : 1;
        for (int j = 0; j < n; j++) {
            const int p = st->seq_first + dir * (j / words);
            if (p < 0 || p >= ap->n_elems)
                return layout_fail(err, LAYOUT_ERR_MISMATCH, "step %d: position %d out of range", k, p);
            reg_word[j] = ap->order[p] * words + j % words;
        }
        return LAYOUT_OK;
    }
    const int64_t a = addr0[st->seq_first] + st->byte_offset;
    for (int j = 0; j < n; j++) {
        pos[j] = -1;
        for (int p = 0; p < ap->n_elems && pos[j] < 0; p++)
            for (int q = 0; q < words; q++)
                if (addr0[p] + (int64_t)q * wb == a + (int64_t)j * wb) {
                    pos[j] = p;
                    sub[j] = q;
                    break;
                }
        if (pos[j] < 0)
            return layout_fail(err, LAYOUT_ERR_MISMATCH,
                               "step %d: no element of the thread at byte %" PRId64 " (warp 0 lane 0)", k,
                               a + (int64_t)j * wb);
        reg_word[j] = ap->order[pos[j]] * words + sub[j];
    }
    for (int w = 0; w < s->dist->n_warps; w++)
        for (int l = 0; l < s->dist->wave_size; l++) {
            int64_t at, x;
            if ((e = pos_addr(s, w, l, st->seq_first, &at, err))) return e;
            for (int j = 0; j < n; j++) {
                if ((e = pos_addr(s, w, l, pos[j], &x, err))) return e;
                if (x + (int64_t)sub[j] * wb != at + st->byte_offset + (int64_t)j * wb)
                    return layout_fail(err, LAYOUT_ERR_MISMATCH,
                                       "step %d: its bytes are not one run of the thread's elements in warp %d "
                                       "lane %d", k, w, l);
            }
        }
    return LAYOUT_OK;
}

/* "v0[3]" / "v0.e[3]" / "v0" / "q0[3]": word j of half h of step st. */
static void put_word(layout_strbuf *sb, const layout_access_step *st, int hip, int n, int h, int j)
{
    if (is_b96(st)) layout_sb_printf(sb, "q%d[%d]", h, j);
    else if (n == 1) layout_sb_printf(sb, "v%d", h);
    else layout_sb_printf(sb, hip ? "v%d[%d]" : "v%d.e[%d]", h, j);
}

static const char *op_name(layout_ds_op op, layout_direction dir, int nvidia);

layout_status layout_emit_put_lds_steps(layout_strbuf *sb, const layout_emit_side *s, int hip, int word_bytes,
                                        int write, layout_error *err)
{
    const layout_access_plan *ap = &s->access;
    const int words = ap->elem_bytes / word_bytes, nvidia = !hip;
    const char *rw = write ? "rw" : "rr";
    int64_t addr0[LAYOUT_MAX_THREAD_ELEMS];
    int n_instr = 0;
    layout_status e;
    for (int p = 0; p < ap->n_elems; p++)
        if ((e = pos_addr(s, 0, 0, p, &addr0[p], err))) return e;
    if (s->plan.n_ops == 0) {
        layout_sb_printf(sb, "    /* an affine view: each address is the origin's offset plus a constant */\n");
        layout_sb_printf(sb, "    const lp_idx %so = lp_%s_off(", s->tag, s->tag);
        for (int x = 0; x < s->dist->n_x; x++) layout_sb_printf(sb, "%s%sx[%d]", x ? ", " : "", s->tag, x);
        layout_sb_printf(sb, ");\n");
    }
    for (int k = 0; k < ap->n_steps; k++) {
        const layout_access_step *st = &ap->steps[k];
        if (st->pair_step >= 0 && st->pair_step < k) continue; /* written with its first half */
        int half[2] = {k, st->pair_step}, n_half = st->pair_step >= 0 ? 2 : 1;
        int reg[2][16];
        int64_t a[2];
        for (int h = 0; h < n_half; h++) {
            const layout_access_step *t = &ap->steps[half[h]];
            a[h] = addr0[t->seq_first] + t->byte_offset;
        }
        if (n_half == 2 && a[1] < a[0]) { /* the lower address is the base: a DS offset is unsigned */
            int t = half[0];
            int64_t u = a[0];
            half[0] = half[1];
            half[1] = t;
            a[0] = a[1];
            a[1] = u;
        }
        for (int h = 0; h < n_half; h++)
            if ((e = map_step(s, half[h], word_bytes, words, addr0, reg[h], err))) return e;
        const layout_access_step *lo = &ap->steps[half[0]];
        const int n = lo->width_bytes / word_bytes, c = step_claim(lo, hip, word_bytes);
        char type[32];
        snprintf(type, sizeof type, "lp_v%d_a%d", n, c);
        layout_sb_printf(sb, "    { /* %s (step %d", op_name(st->op, ap->direction, nvidia), half[0]);
        if (n_half == 2) layout_sb_printf(sb, " and step %d, %" PRId64 " bytes above", half[1], a[1] - a[0]);
        layout_sb_printf(sb, "): %d-byte aligned%s */\n", c,
                         (lo->flags & LAYOUT_ACCESS_MISALIGNED) ? ", flagged misaligned" :
                         (lo->flags & LAYOUT_ACCESS_NONCONTIGUOUS) ? ", flagged non-contiguous" : "");
        int64_t cst[LAYOUT_MAX_DIMS];
        layout_emit_y_const(s->dist, ap->order[lo->seq_first], cst);
        layout_sb_printf(sb, "        unsigned char *const b = lds_b + LP_ELEM_BYTES * (");
        put_offset_of(sb, s, cst);
        layout_sb_printf(sb, ")");
        if (lo->byte_offset) layout_sb_printf(sb, " + %d", lo->byte_offset);
        layout_sb_printf(sb, " + lp_zero * %d;\n", 16 * ++n_instr);
        for (int h = 0; h < n_half; h++) {
            char at[48];
            if (h) snprintf(at, sizeof at, "b + %" PRId64, a[h] - a[0]);
            else snprintf(at, sizeof at, "b");
            if (is_b96(lo)) {
                layout_sb_printf(sb, "        %slp_s *const q%d = (%slp_s *)LP_ALIGNED(%s, %d);\n",
                                 write ? "" : "const ", h, write ? "" : "const ", at, c);
            } else if (!write) {
                layout_sb_printf(sb, "        const %s v%d = LP_VLOAD(%s, %s);\n", type, h, type, at);
            } else {
                layout_sb_printf(sb, "        %s v%d;\n", type, h);
            }
            for (int j = 0; j < n; j++) {
                layout_sb_printf(sb, "        ");
                if (write) {
                    put_word(sb, lo, hip, n, h, j);
                    layout_sb_printf(sb, " = rw[%d];\n", reg[h][j]);
                } else {
                    layout_sb_printf(sb, "%s[%d] = ", rw, reg[h][j]);
                    put_word(sb, lo, hip, n, h, j);
                    layout_sb_printf(sb, ";\n");
                }
            }
            if (write && !is_b96(lo)) layout_sb_printf(sb, "        LP_VSTORE(%s, %s, v%d);\n", type, at, h);
        }
        layout_sb_printf(sb, "    }\n");
    }
    return LAYOUT_OK;
}

/* The instruction name of op in the target's vocabulary (AMD:
 * layout_ds_op_name; NVIDIA: st.shared / ld.shared of the width). */
static const char *op_name(layout_ds_op op, layout_direction dir, int nvidia)
{
    const int w = dir == LAYOUT_WRITE;
    if (!nvidia) return layout_ds_op_name(op, dir);
    switch (op) {
    case LAYOUT_DS_B8: return w ? "st.shared.b8" : "ld.shared.b8";
    case LAYOUT_DS_B16: return w ? "st.shared.b16" : "ld.shared.b16";
    case LAYOUT_DS_B32: return w ? "st.shared.b32" : "ld.shared.b32";
    case LAYOUT_DS_B64: return w ? "st.shared.v2.b32" : "ld.shared.v2.b32";
    case LAYOUT_DS_B96: return w ? "st.shared (12 bytes)" : "ld.shared (12 bytes)";
    case LAYOUT_DS_B128: return w ? "st.shared.v4.b32" : "ld.shared.v4.b32";
    default: return layout_ds_op_name(op, dir); /* paired forms: AMD only */
    }
}

int layout_emit_plan_print(const layout_access_plan *ap, int nvidia, char *buf, size_t cap)
{
    if (!nvidia) return layout_access_plan_print(ap, buf, cap);
    layout_strbuf sb;
    int done[LAYOUT_DS_OP_COUNT] = {0}, any = 0;
    layout_sb_init(&sb, buf, cap);
    for (int k = 0; k < ap->n_steps; k++) {
        const layout_ds_op op = ap->steps[k].op;
        if (op <= LAYOUT_DS_AUTO || op >= LAYOUT_DS_OP_COUNT || done[op] || !ap->op_count[op]) continue;
        done[op] = 1;
        layout_sb_printf(&sb, "%s%d x %s", any ? " + " : "", ap->op_count[op],
                         op_name(op, ap->direction, 1));
        any = 1;
    }
    if (!any) layout_sb_printf(&sb, "none");
    if (ap->n_misaligned) layout_sb_printf(&sb, " [%d misaligned]", ap->n_misaligned);
    if (ap->n_noncontiguous) layout_sb_printf(&sb, " [%d non-contiguous]", ap->n_noncontiguous);
    return layout_sb_result(&sb);
}
