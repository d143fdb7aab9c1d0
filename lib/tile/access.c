/* Access plans: ck_tile's tile-window vectorisation and snake order, then
 * the compiler's merging of adjacent elements into the fewest DS
 * instructions their proven alignment allows (see access.h for the rule). */
#include "../core/internal.h"
#include "../core/strbuf.h"
#include "layout/access.h"
#include "dist_internal.h"
#include "access_internal.h"

#include <stdio.h>
#include <string.h>

/* bytes per lane over both halves of a pair; natural alignment of one half */
static const int op_widths[LAYOUT_DS_OP_COUNT] = {0, 1, 2, 4, 8, 12, 16, 8, 16, 8, 16};
static const int op_aligns[LAYOUT_DS_OP_COUNT] = {0, 1, 2, 4, 8, 16, 16, 4, 8, 4, 8};

int layout_ds_op_width(layout_ds_op op)
{
    return op > LAYOUT_DS_AUTO && op < LAYOUT_DS_OP_COUNT ? op_widths[op] : 0;
}

int layout_ds_op_align(layout_ds_op op)
{
    return op > LAYOUT_DS_AUTO && op < LAYOUT_DS_OP_COUNT ? op_aligns[op] : 0;
}

/* Largest power of two <= 16 dividing (r + off) for every residue r (mod 16) in the set. */
static int proven_align(unsigned residues, int64_t off)
{
    int best = 16;
    for (int r = 0; r < 16; r++) {
        if (!(residues & (1u << r))) continue;
        int v = (int)((r + off) % 16);
        int a = v == 0 ? 16 : (v & -v);
        if (a < best) best = a;
    }
    return best;
}

/* The fewest-instructions rule: the op for `left` bytes at alignment `al`. */
static layout_ds_op choose_op(int al, int64_t left)
{
    if (al >= 16 && left >= 16) return LAYOUT_DS_B128;
    if (al >= 16 && left >= 12) return LAYOUT_DS_B96;
    if (al >= 8 && left >= 8) return LAYOUT_DS_B64;
    if (al >= 4 && left >= 8) return LAYOUT_DS_PAIR_B32;
    if (al >= 4 && left >= 4) return LAYOUT_DS_B32;
    if (al >= 2 && left >= 2) return LAYOUT_DS_B16;
    return LAYOUT_DS_B8;
}

_Static_assert(LAYOUT_MAX_THREAD_ELEMS <= 256, "rigid classes store positions in unsigned char");

/* Per-position facts gathered over every lane of every warp (access_internal.h). */
typedef layout_access_facts pos_facts;

/* Byte address of element offset `off` of (warp, lane, position pos), range-checked. */
static layout_status byte_addr(const layout_access_plan *pl, int warp, int lane, int pos, int64_t off, int64_t *addr,
                               layout_error *err)
{
    int64_t a;
    if (layout_mul_overflow(off, pl->elem_bytes, &a) || layout_add_overflow(a, pl->base_bytes, &a) || a < 0 ||
        a > (int64_t)UINT32_MAX - 16)
        return layout_fail(err, LAYOUT_ERR_RANGE,
                           "layout_access_plan_make: warp %d lane %d element %d has element offset %lld, byte "
                           "address outside 0..2^32-17",
                           warp, lane, pl->order[pos], (long long)off);
    *addr = a;
    return LAYOUT_OK;
}

/* Y digits' share of X of every position (encodings: X = thread part + this). */
static void elem_parts(const layout_access_plan *pl, int64_t (*part)[LAYOUT_MAX_DIMS])
{
    for (int p = 0; p < pl->n_elems; p++) {
        int64_t y[LAYOUT_MAX_DIMS];
        layout_dist_y_index(pl->dist, pl->order[p], y);
        layout_dist_elem_part(pl->dist, y, part[p]);
    }
}

/* Addresses of positions [p0, p0 + n) of one thread; `part` = elem_parts() for
 * encodings (indexed by position), NULL for plain distributions; `given_tp`:
 * the thread's layout_dist_thread_part() when the caller has it, else NULL. */
static layout_status thread_addrs_tp(const layout_access_plan *pl, int warp, int lane, int p0, int n,
                                     const int64_t (*part)[LAYOUT_MAX_DIMS], const int64_t *given_tp, int64_t *addr,
                                     layout_error *err)
{
    int64_t own_tp[LAYOUT_MAX_DIMS], x[LAYOUT_MAX_DIMS];
    const int64_t *tp = given_tp ? given_tp : own_tp;
    int nx = pl->dist->n_x;
    if (part && !given_tp) layout_dist_thread_part(pl->dist, warp, lane, own_tp);
    for (int p = p0; p < p0 + n; p++) {
        if (part) {
            for (int i = 0; i < nx; i++) x[i] = tp[i] + part[p - p0][i];
        } else {
            layout_status s = layout_dist_coord_elem(pl->dist, warp, lane, pl->order[p], x, err);
            if (s) return s;
        }
        /* x is inside the tile and the plan checked tile <= descriptor lengths. */
        int64_t off = pl->desc_plan ? layout_plan_offset_unchecked(pl->desc_plan, x)
                                    : layout_desc_offset_unchecked(pl->desc, x);
        layout_status s = byte_addr(pl, warp, lane, p, off, &addr[p - p0], err);
        if (s) return s;
    }
    return LAYOUT_OK;
}

static layout_status thread_addrs(const layout_access_plan *pl, int warp, int lane, int p0, int n,
                                  const int64_t (*part)[LAYOUT_MAX_DIMS], int64_t *addr, layout_error *err)
{
    return thread_addrs_tp(pl, warp, lane, p0, n, part, NULL, addr, err);
}

/* Address of one position of one thread (slow path: explanations). */
static layout_status elem_addr(const layout_access_plan *pl, int warp, int lane, int pos, int64_t *addr,
                               layout_error *err)
{
    if (pl->dist->kind != LAYOUT_DIST_ENCODING) return thread_addrs(pl, warp, lane, pos, 1, NULL, addr, err);
    int64_t part[1][LAYOUT_MAX_DIMS], y[LAYOUT_MAX_DIMS];
    layout_dist_y_index(pl->dist, pl->order[pos], y);
    layout_dist_elem_part(pl->dist, y, part[0]);
    return thread_addrs(pl, warp, lane, pos, 1, (const int64_t(*)[LAYOUT_MAX_DIMS])part, addr, err);
}

/* One thread's step of the rigid classes: positions p and q stay in one
 * class while addr(p) - addr0(p) == addr(q) - addr0(q) in every thread
 * (addr0: thread 0's addresses).  klass[p] is the class's first position;
 * a position that leaves its class joins the class of the first earlier
 * position that left the same class with the same difference, or founds one. */
static void refine_classes(unsigned char *klass, unsigned char *prev, const int64_t *addr, const int64_t *addr0, int n)
{
    for (int p = 0; p < n; p++) {
        const int64_t e = addr[p] - addr0[p];
        prev[p] = klass[p];
        const int old = klass[p];
        if (old == p || e == addr[old] - addr0[old]) continue;
        int to = p;
        for (int q = old + 1; q < p; q++)
            if (prev[q] == old && klass[q] == q && addr[q] - addr0[q] == e) {
                to = q;
                break;
            }
        klass[p] = (unsigned char)to;
    }
}

static layout_status gather(const layout_access_plan *pl, pos_facts *f, layout_error *err)
{
    int n = pl->n_elems;
    int64_t addr[LAYOUT_MAX_THREAD_ELEMS];
    int64_t part[LAYOUT_MAX_THREAD_ELEMS][LAYOUT_MAX_DIMS];
    int enc = pl->dist->kind == LAYOUT_DIST_ENCODING;
    if (enc) elem_parts(pl, part);
    int64_t *addr0 = f->rel; /* thread 0's addresses until the end */
    unsigned char prev[LAYOUT_MAX_THREAD_ELEMS];
    for (int p = 0; p < n; p++) {
        f->residues[p] = 0;
        f->next_adjacent[p] = 1;
        f->next_below[p] = 1;
        f->break_warp[p] = f->break_lane[p] = -1;
        f->klass[p] = 0;
    }
    for (int w = 0; w < pl->dist->n_warps; w++)
        for (int l = 0; l < pl->dist->wave_size; l++) {
            layout_status s = thread_addrs(pl, w, l, 0, n, enc ? (const int64_t(*)[LAYOUT_MAX_DIMS])part : NULL, addr, err);
            if (s) return s;
            for (int p = 0; p < n; p++) f->residues[p] |= 1u << (addr[p] % 16);
            if (w == 0 && l == 0) memcpy(addr0, addr, sizeof addr0[0] * (size_t)n);
            else refine_classes(f->klass, prev, addr, addr0, n);
            for (int p = 0; p + 1 < n; p++) {
                if (addr[p + 1] != addr[p] - pl->elem_bytes) f->next_below[p] = 0;
                if (f->next_adjacent[p] && addr[p + 1] != addr[p] + pl->elem_bytes) {
                    f->next_adjacent[p] = 0;
                    f->break_warp[p] = w;
                    f->break_lane[p] = l;
                }
            }
        }
    if (n > 0) f->next_adjacent[n - 1] = f->next_below[n - 1] = 0;
    for (int p = n - 1; p >= 0; p--) f->rel[p] = addr0[p] - addr0[f->klass[p]]; /* klass[p] <= p: downwards */
    return LAYOUT_OK;
}

/* Greedy chop of `bytes` starting at position p0 (residues `res`) into ops. */
typedef struct chop_piece { layout_ds_op op; int64_t off; } chop_piece;

static int chop(unsigned res, int64_t bytes, chop_piece *out, int cap)
{
    int n = 0;
    for (int64_t o = 0; o < bytes;) {
        layout_ds_op op = choose_op(proven_align(res, o), bytes - o);
        if (out && n < cap) {
            out[n].op = op;
            out[n].off = o;
        }
        n++;
        o += op_widths[op];
    }
    return n;
}

/* Legal instructions needed by positions [p0, p0+k): contiguous runs, each chopped. */
/* Last position (inclusive) of the run starting at p inside [p, limit):
 * ascending (dir +1) or, when the next element sits just below, descending. */
static int run_end(const pos_facts *f, int p, int limit, int *dir)
{
    int q = p;
    *dir = 1;
    if (p + 1 < limit && !f->next_adjacent[p] && f->next_below[p]) {
        *dir = -1;
        while (q + 1 < limit && f->next_below[q]) q++;
    } else {
        while (q + 1 < limit && f->next_adjacent[q]) q++;
    }
    return q;
}

static void count_split(const layout_access_plan *pl, const pos_facts *f, int p0, int k, layout_access_step *st)
{
    st->n_split = 0;
    memset(st->split_count, 0, sizeof st->split_count);
    for (int p = p0; p < p0 + k;) {
        int dir, q = run_end(f, p, p0 + k, &dir);
        chop_piece pieces[64];
        int m = chop(f->residues[dir > 0 ? p : q], (int64_t)(q - p + 1) * pl->elem_bytes, pieces, 64);
        for (int i = 0; i < m && i < 64; i++) st->split_count[pieces[i].op]++;
        st->n_split += m;
        p = q + 1;
    }
}

/* Append a step based at position p0 moving `off`.. of a run of run_len
 * elements walked in direction dir from p0. */
static layout_status push_step(layout_access_plan *pl, layout_ds_op op, int p0, int64_t off, int dir, int run_len,
                               int align, layout_error *err)
{
    if (pl->n_steps >= LAYOUT_MAX_ACCESS_STEPS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY,
                           "layout_access_plan_make: more than LAYOUT_MAX_ACCESS_STEPS = %d instructions per thread",
                           LAYOUT_MAX_ACCESS_STEPS);
    layout_access_step *st = &pl->steps[pl->n_steps++];
    memset(st, 0, sizeof *st);
    st->op = op;
    st->width_bytes = op_widths[op];
    st->seq_first = p0;
    st->elem_dir = dir;
    int64_t first = off / pl->elem_bytes, last = (off + op_widths[op] - 1) / pl->elem_bytes;
    if (last >= run_len) last = run_len - 1;
    st->n_elems = (int)(last - first + 1);
    st->byte_offset = (int)off;
    st->access = (p0 + dir * (int)first) / pl->vector_elems;
    st->align_bytes = align;
    st->bad_warp = st->bad_lane = -1;
    st->pair_step = -1;
    pl->op_count[op]++;
    pl->n_instrs++;
    return LAYOUT_OK;
}

/* First thread whose address of (p0, off) is not a multiple of `need`. */
static void find_misaligned(const layout_access_plan *pl, int p0, int64_t off, int need, int *bw, int *bl)
{
    if (!pl->desc) return; /* a table plan (layout_access_plan_from_table): no descriptor to explain with */
    for (int w = 0; w < pl->dist->n_warps; w++)
        for (int l = 0; l < pl->dist->wave_size; l++) {
            int64_t a = 0; /* gcc -O3 cannot see that elem_addr sets it on success */
            if (elem_addr(pl, w, l, p0, &a, NULL)) return;
            if ((a + off) % need) {
                *bw = w;
                *bl = l;
                return;
            }
        }
}

/* Flags and split record of a step moving positions [p0, p0+k), part of the
 * vector [v0, v0+vk) whose base address it is computed from: NONCONTIGUOUS
 * when that vector's elements are not adjacent in LDS, MISALIGNED when the
 * step's address is less aligned than its op needs. */
static void mark_step(layout_access_plan *pl, const pos_facts *f, layout_access_step *st, int p0, int k, int v0,
                      int vk)
{
    for (int p = v0; p + 1 < v0 + vk; p++)
        if (!f->next_adjacent[p]) {
            st->flags |= LAYOUT_ACCESS_NONCONTIGUOUS;
            st->bad_warp = f->break_warp[p];
            st->bad_lane = f->break_lane[p];
            break;
        }
    if (st->align_bytes < op_aligns[st->op]) {
        st->flags |= LAYOUT_ACCESS_MISALIGNED;
        find_misaligned(pl, st->seq_first, st->byte_offset, op_aligns[st->op], &st->bad_warp, &st->bad_lane);
    }
    if (st->flags) count_split(pl, f, p0, k, st);
    if (st->flags & LAYOUT_ACCESS_MISALIGNED) pl->n_misaligned++;
    if (st->flags & LAYOUT_ACCESS_NONCONTIGUOUS) pl->n_noncontiguous++;
}

/* Whether LLVM's load/store vectorizer forms a chunk of `size` bytes of
 * `eb`-byte elements at known alignment `a` (LoadStoreVectorizer.cpp,
 * IsAllowedAndFast: aligned, or allowed misaligned and at least as fast as
 * the elements; the AMDGPU speeds of SIISelLowering.cpp
 * allowsMisalignedMemoryAccessesImpl for LDS: a wide access below 4-byte
 * alignment rates 32, a dword or narrower one below its natural alignment 0,
 * b64 at 4 and b128 at 8 bytes are full speed as read2/write2). */
static int chunk_allowed(int size, int eb, int a, unsigned forms)
{
    if (size == 12) return a >= 16 || (a < 4 && (forms & LAYOUT_DS_FORM_UNALIGNED));
    if (a % size == 0) return 1;
    if (size == 8 && a == 4) return (forms & LAYOUT_DS_FORM_PAIRED) != 0;
    if (size == 16 && a == 8) return (forms & LAYOUT_DS_FORM_PAIRED) != 0;
    if (!(forms & LAYOUT_DS_FORM_UNALIGNED) || a >= 4) return 0;
    if (size >= 8) return 1;                  /* speed 32 >= any element's */
    return eb < 8 && a < eb;                   /* speed 0 >= an under-aligned element's 0 */
}

/* The compiler's chop of a run of `bytes` whose start is proven a0-aligned
 * (access.h step 2b): a piece at `off` is known aligned to min(a0, low bit
 * of off) only (R3); from there the widest chunk the vectorizer forms
 * (chunk_allowed: R4 below 4 bytes).  A 16-byte chunk at 8 is one
 * read2/write2_b64 of two adjacent qwords (LAYOUT_DS_PAIR_B64 here), an
 * 8-byte one at 4 one read2/write2_b32 of two adjacent dwords. */
static layout_ds_op chop_compiler_next(int a0, int64_t o, int64_t bytes, int eb, unsigned forms, int *size_out)
{
    static const int sizes[6] = {16, 12, 8, 4, 2, 1};
    int64_t left = bytes - o;
    int a = a0, size = eb;
    if (o) {
        int low = (int)(o & -o);
        if (low < a) a = low;
    }
    int found = 0;
    for (int i = 0; i < 6 && !found; i++) /* whole elements */
        if (sizes[i] <= left && sizes[i] % eb == 0 && chunk_allowed(sizes[i], eb, a, forms)) {
            size = sizes[i];
            found = 1;
        }
    for (int i = 0; i < 6 && !found; i++) /* an element under its own alignment: its naturally aligned pieces */
        if (sizes[i] < eb && sizes[i] <= left && sizes[i] != 12 &&
            (a % sizes[i] == 0 || (sizes[i] == 8 && a == 4 && (forms & LAYOUT_DS_FORM_PAIRED)))) {
            size = sizes[i];
            found = 1;
        }
    *size_out = size;
    return size == 16 ? (a == 8 ? LAYOUT_DS_PAIR_B64 : LAYOUT_DS_B128)
         : size == 12 ? LAYOUT_DS_B96
         : size == 8  ? (a == 4 ? LAYOUT_DS_PAIR_B32 : LAYOUT_DS_B64)
         : size == 4  ? LAYOUT_DS_B32 : size == 2 ? LAYOUT_DS_B16 : LAYOUT_DS_B8;
}

/* Emit the compiler's chop of a run based at position `base` (its lowest
 * address) of n_el elements; dir as layout_access_step::elem_dir. */
static layout_status emit_run_at(layout_access_plan *pl, const pos_facts *f, int base, int n_el, int dir,
                                 unsigned forms, layout_error *err)
{
    int64_t bytes = (int64_t)n_el * pl->elem_bytes;
    int a0 = proven_align(f->residues[base], 0);
    for (int64_t o = 0; o < bytes;) {
        int size;
        layout_ds_op op = chop_compiler_next(a0, o, bytes, pl->elem_bytes, forms, &size);
        const int halves = op == LAYOUT_DS_PAIR_B64; /* two qword steps, one instruction */
        for (int h = 0; h <= halves; h++) {
            int64_t off = o + 8 * h;
            int al = proven_align(f->residues[base], off);
            layout_status s = push_step(pl, halves ? LAYOUT_DS_B64 : op, base, off, dir ? dir : 1, n_el, al, err);
            if (s) return s;
            layout_access_step *st = &pl->steps[pl->n_steps - 1];
            if (!dir) st->elem_dir = 0;
            if (h) { /* the vectorizer's 16-byte chunk at 8: ds_read2_b64 offset1:1 */
                layout_access_step *lo = st - 1;
                pl->op_count[LAYOUT_DS_B64] -= 2;
                pl->op_count[LAYOUT_DS_PAIR_B64]++;
                pl->n_instrs--;
                lo->op = st->op = LAYOUT_DS_PAIR_B64;
                lo->pair_step = pl->n_steps - 1;
                st->pair_step = pl->n_steps - 2;
            }
        }
        o += size;
    }
    return LAYOUT_OK;
}

/* Emit the chop of contiguous issue positions [p0, p1) walked in dir. */
static layout_status emit_run(layout_access_plan *pl, const pos_facts *f, int p0, int p1, int dir, unsigned forms,
                              layout_error *err)
{
    return emit_run_at(pl, f, dir > 0 ? p0 : p1 - 1, p1 - p0, dir, forms, err);
}

/* A tile-window vector at [p0, p0+k) is flagged when not adjacent or, chopped at its
 * natural alignment, some piece is less aligned than its op needs. */
static int vector_is_bad(const layout_access_plan *pl, const pos_facts *f, int p0, int k)
{
    for (int p = p0; p + 1 < p0 + k; p++)
        if (!f->next_adjacent[p]) return 1;
    chop_piece pieces[64];
    int m = chop(1u, (int64_t)k * pl->elem_bytes, pieces, 64); /* residue {0}: trusted natural alignment */
    for (int i = 0; i < m && i < 64; i++)
        if (proven_align(f->residues[p0], pieces[i].off) < op_aligns[pieces[i].op]) return 1;
    return 0;
}

/* Emit a flagged vector the way ck_tile does: chopped as if naturally aligned, flagged. */
static layout_status emit_trusted(layout_access_plan *pl, const pos_facts *f, int p0, int k, layout_error *err)
{
    chop_piece pieces[64];
    int m = chop(1u, (int64_t)k * pl->elem_bytes, pieces, 64);
    for (int i = 0; i < m && i < 64; i++) {
        layout_status s = push_step(pl, pieces[i].op, p0, pieces[i].off, 1, k,
                                    proven_align(f->residues[p0], pieces[i].off), err);
        if (s) return s;
        layout_access_step *st = &pl->steps[pl->n_steps - 1];
        mark_step(pl, f, st, p0 + (int)(pieces[i].off / pl->elem_bytes), st->n_elems, p0, k);
    }
    return LAYOUT_OK;
}

/* The DS forms of the target (access.h step 2). */
static unsigned ds_forms_of(const layout_access_options *opt)
{
    return opt->arch ? opt->arch->ds_forms : (unsigned)LAYOUT_DS_FORMS_AMD;
}

/* Rule R1 (access.h step 2c), as SILoadStoreOptimizer does it: the b32
 * (and the b64) steps of one rigid class (one base register) sorted by
 * address; neighbours in that order pair when their distance fits the
 * offsets, the pair leaves the list and the walk goes on after it. */
static void pair_steps(layout_access_plan *pl, const pos_facts *f)
{
    int idx[LAYOUT_MAX_ACCESS_STEPS];
    int64_t at[LAYOUT_MAX_ACCESS_STEPS];
    int m = 0;
    for (int i = 0; i < pl->n_steps; i++) {
        const layout_access_step *a = &pl->steps[i];
        if (a->op != LAYOUT_DS_B32 && a->op != LAYOUT_DS_B64) continue;
        int64_t ai = f->rel[a->seq_first] + a->byte_offset;
        int j = m++;
        for (; j > 0; j--) { /* by (class, op, address, step) */
            const layout_access_step *b = &pl->steps[idx[j - 1]];
            int kb = f->klass[b->seq_first], ka = f->klass[a->seq_first];
            if (kb < ka || (kb == ka && (b->op < a->op || (b->op == a->op && at[j - 1] <= ai)))) break;
            idx[j] = idx[j - 1];
            at[j] = at[j - 1];
        }
        idx[j] = i;
        at[j] = ai;
    }
    for (int j = 0; j + 1 < m; j++) {
        layout_access_step *a = &pl->steps[idx[j]], *b = &pl->steps[idx[j + 1]];
        if (b->op != a->op || f->klass[b->seq_first] != f->klass[a->seq_first]) continue;
        const int64_t w = a->op == LAYOUT_DS_B32 ? 4 : 8, d = at[j + 1] - at[j];
        if (d == 0 || d % w) continue;
        const int64_t q = d / w;
        const int st64 = q % 64 == 0 && q / 64 <= 255;
        if (!st64 && q > 255) continue;
        layout_ds_op op = w == 4 ? (st64 ? LAYOUT_DS_PAIR_ST64_B32 : LAYOUT_DS_PAIR_B32)
                                 : (st64 ? LAYOUT_DS_PAIR_ST64_B64 : LAYOUT_DS_PAIR_B64);
        pl->op_count[a->op] -= 2;
        pl->op_count[op]++;
        pl->n_instrs--;
        a->op = b->op = op;
        a->pair_step = idx[j + 1];
        b->pair_step = idx[j];
        j++; /* the pair leaves the list */
    }
}

/* A unit of the plan: a run (indices [first, first + len) of the address-
 * sorted positions) or a flagged vector (len = 0, issue positions from
 * first); `key` = the issue position that orders it. */
typedef struct plan_unit { int key, first, len; } plan_unit;

static layout_status build_auto(layout_access_plan *pl, const pos_facts *f, const layout_access_options *opt,
                                layout_error *err)
{
    const int n = pl->n_elems, k = pl->vector_elems;
    const unsigned forms = ds_forms_of(opt);
    unsigned char flagged[LAYOUT_MAX_THREAD_ELEMS];
    int sorted[LAYOUT_MAX_THREAD_ELEMS], m = 0, n_units = 0;
    plan_unit units[LAYOUT_MAX_THREAD_ELEMS];
    memset(flagged, 0, (size_t)n);
    for (int p = 0; p < n; p += k)
        if (k > 1 && vector_is_bad(pl, f, p, k)) {
            memset(flagged + p, 1, (size_t)k);
            units[n_units].key = p;
            units[n_units].first = p;
            units[n_units++].len = 0;
        }
    /* Step 2a: the other positions sorted by (class, [access,] address,
     * issue position); runs are the address-adjacent stretches. */
    for (int p = 0; p < n; p++) {
        if (flagged[p]) continue;
        int j = m++;
        for (; j > 0; j--) {
            int q = sorted[j - 1];
            int64_t kq = f->klass[q], kp = f->klass[p];
            if (opt->no_merge) {
                kq = kq * LAYOUT_MAX_THREAD_ELEMS + q / k;
                kp = kp * LAYOUT_MAX_THREAD_ELEMS + p / k;
            }
            if (kq < kp || (kq == kp && f->rel[q] <= f->rel[p])) break;
            sorted[j] = q;
        }
        sorted[j] = p;
    }
    for (int i = 0; i < m;) {
        int j = i;
        while (j + 1 < m && f->klass[sorted[j + 1]] == f->klass[sorted[i]] &&
               f->rel[sorted[j + 1]] == f->rel[sorted[j]] + pl->elem_bytes &&
               (!opt->no_merge || sorted[j + 1] / k == sorted[i] / k))
            j++;
        units[n_units].key = sorted[i];
        units[n_units].first = i;
        units[n_units++].len = j - i + 1;
        i = j + 1;
    }
    for (int i = 1; i < n_units; i++) /* by issue position of the lowest address */
        for (int j = i; j > 0 && units[j - 1].key > units[j].key; j--) {
            plan_unit t = units[j];
            units[j] = units[j - 1];
            units[j - 1] = t;
        }
    for (int u = 0; u < n_units; u++) {
        const plan_unit *un = &units[u];
        layout_status s;
        if (un->len == 0) { /* a flagged tile-window vector */
            int p = un->first, contiguous = 1;
            for (int q = p; q + 1 < p + k; q++)
                if (!f->next_adjacent[q]) contiguous = 0;
            /* Without unaligned DS access (NVIDIA) a misaligned vector cannot
             * be issued whole (the hardware faults: the seed 05 probe on the
             * H100 did, until the emitter gave its type the alignment it
             * has), so a contiguous one is issued in its aligned pieces, as
             * the compiler then does (docs/calibrate.md, rule N3). */
            if (opt->policy == LAYOUT_VECTOR_SPLIT || (contiguous && !(forms & LAYOUT_DS_FORM_UNALIGNED))) {
                pl->n_vectors_split++;
                for (int q = p; q < p + k;) {
                    int dir, r = run_end(f, q, p + k, &dir);
                    s = emit_run(pl, f, q, r + 1, dir, forms, err);
                    if (s) return s;
                    q = r + 1;
                }
            } else {
                s = emit_trusted(pl, f, p, k, err);
                if (s) return s;
            }
            continue;
        }
        /* Step 2b: the run's direction in issue order, if it has one. */
        const int *el = sorted + un->first;
        int dir = 1, len = un->len;
        for (int i = 1; i < len && dir; i++)
            if (el[i] != el[0] + i) dir = 0;
        if (!dir) {
            dir = -1;
            for (int i = 1; i < len && dir; i++)
                if (el[i] != el[0] - i) dir = 0;
        }
        if (len == 1) dir = 1;
        s = emit_run_at(pl, f, el[0], len, dir, forms, err);
        if (s) return s;
    }
    if (forms & LAYOUT_DS_FORM_PAIRED) pair_steps(pl, f);
    return LAYOUT_OK;
}

static layout_status build_explicit(layout_access_plan *pl, const pos_facts *f, layout_ds_op op, layout_error *err)
{
    int w = op_widths[op], eb = pl->elem_bytes;
    if (op > LAYOUT_DS_PAIR_B32)
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "layout_access_plan_make: opt->op %s pairs two addresses: only the compiler model forms it",
                           layout_ds_op_name(op, pl->direction));
    if (w < eb || w % eb)
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "layout_access_plan_make: opt->op %s moves %d bytes, not a multiple of elem_bytes %d",
                           layout_ds_op_name(op, pl->direction), w, eb);
    int k = w / eb;
    if (pl->n_elems % k)
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "layout_access_plan_make: opt->op %s takes %d elements, %d elements per thread is not a "
                           "multiple",
                           layout_ds_op_name(op, pl->direction), k, pl->n_elems);
    for (int p = 0; p < pl->n_elems; p += k) {
        layout_status s = push_step(pl, op, p, 0, 1, k, proven_align(f->residues[p], 0), err);
        if (s) return s;
        mark_step(pl, f, &pl->steps[pl->n_steps - 1], p, k, p, k);
    }
    return LAYOUT_OK;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ck_tile's choice of vector Y and ScalarPerVector from the descriptor's hints. */
static void pick_vector_hints(layout_access_plan *pl, const int64_t *lens, const int64_t *strides);

static layout_status pick_vector(layout_access_plan *pl, layout_error *err)
{
    pl->vector_y = -1;
    pl->vector_elems = 1;
    if (pl->dist->kind != LAYOUT_DIST_ENCODING) return LAYOUT_OK;
    int64_t lens[LAYOUT_MAX_DIMS], strides[LAYOUT_MAX_DIMS];
    layout_status s = layout_desc_vector_hints(pl->desc, lens, strides, err);
    if (s) return s;
    pick_vector_hints(pl, lens, strides);
    return LAYOUT_OK;
}

/* The choice itself, from the view's hints (lens, strides per X dim). */
static void pick_vector_hints(layout_access_plan *pl, const int64_t *lens, const int64_t *strides)
{
    const layout_distribution *d = pl->dist;
    pl->vector_y = -1;
    pl->vector_elems = 1;
    if (d->kind != LAYOUT_DIST_ENCODING) return;
    const layout_dist_encoding *e = &d->encoding;
    int64_t best = 1;
    for (int j = 0; j < e->n_y; j++) {
        int ma = e->y_major[j], mi = e->y_minor[j];
        if (ma < 1) continue;
        int i = ma - 1;
        if (mi != e->n_h[i] - 1 || strides[i] != 1 || lens[i] <= 0) continue;
        int64_t v = gcd64(lens[i], e->h[i][mi]);
        if (v > best) {
            best = v;
            pl->vector_y = j;
        }
    }
    pl->vector_elems = (int)best;
}

/* Snake-ordered space-filling curve over the Y access lengths (ck_tile's order). */
static void build_order(layout_access_plan *pl)
{
    const layout_distribution *d = pl->dist;
    int ny = d->n_y;
    int64_t alen[LAYOUT_MAX_DIMS];
    for (int j = 0; j < ny; j++) alen[j] = d->y_lengths[j] / (j == pl->vector_y ? pl->vector_elems : 1);
    int pos = 0;
    for (int a = 0; a < pl->n_accesses; a++) {
        int64_t digit[LAYOUT_MAX_DIMS], y[LAYOUT_MAX_DIMS], rest = a;
        for (int j = ny - 1; j >= 0; j--) {
            digit[j] = rest % alen[j];
            rest /= alen[j];
        }
        int64_t prefix = 0;
        for (int j = 0; j < ny; j++) {
            int64_t idx = (j > 0 && prefix % 2) ? alen[j] - 1 - digit[j] : digit[j];
            prefix = prefix * alen[j] + digit[j];
            y[j] = idx * (j == pl->vector_y ? pl->vector_elems : 1);
        }
        for (int v = 0; v < pl->vector_elems; v++) {
            if (pl->vector_y >= 0) y[pl->vector_y] = (y[pl->vector_y] / pl->vector_elems) * pl->vector_elems + v;
            pl->order[pos++] = (int)layout_dist_elem_index(d, y);
        }
    }
}

layout_status layout_access_plan_make(layout_access_plan *plan, const layout_descriptor *desc,
                                      const layout_distribution *dist, layout_direction direction, int elem_bytes,
                                      const layout_access_options *opt, layout_error *err)
{
    static const char name[] = "layout_access_plan_make";
    static const layout_access_options defaults;
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "%s: plan is NULL", name);
    if (!desc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: desc is NULL", name);
    if (!dist) return layout_fail(err, LAYOUT_ERR_NULL, "%s: dist is NULL", name);
    if (!opt) opt = &defaults;
    if (direction != LAYOUT_READ && direction != LAYOUT_WRITE)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: direction = %d must be LAYOUT_READ or LAYOUT_WRITE", name,
                           (int)direction);
    if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8 && elem_bytes != 16)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: elem_bytes = %d must be 1, 2, 4, 8 or 16", name, elem_bytes);
    if (opt->policy != LAYOUT_VECTOR_TRUST && opt->policy != LAYOUT_VECTOR_SPLIT)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->policy = %d is not a layout_vector_policy", name,
                           (int)opt->policy);
    if (opt->op < LAYOUT_DS_AUTO || opt->op >= LAYOUT_DS_OP_COUNT)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->op = %d is not a layout_ds_op", name, (int)opt->op);
    if (opt->base_bytes < 0 || opt->base_bytes > (int64_t)UINT32_MAX)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->base_bytes = %lld must be in 0..2^32-1", name,
                           (long long)opt->base_bytes);
    if (layout_desc_ndims(desc) != dist->n_x)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: desc has %d dims, the distribution's tile has %d", name,
                           layout_desc_ndims(desc), dist->n_x);
    for (int i = 0; i < dist->n_x; i++)
        if (layout_desc_length(desc, i) < dist->x_lengths[i])
            return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: desc length[%d] = %lld < tile length %lld", name, i,
                               (long long)layout_desc_length(desc, i), (long long)dist->x_lengths[i]);
    if (dist->elems_per_thread > LAYOUT_MAX_THREAD_ELEMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %lld elements per thread, capacity LAYOUT_MAX_THREAD_ELEMS is %d",
                           name, (long long)dist->elems_per_thread, LAYOUT_MAX_THREAD_ELEMS);

    /* Work on a local copy so *plan stays untouched on failure. */
    layout_access_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.desc = desc;
    pl.dist = dist;
    pl.direction = direction;
    pl.elem_bytes = elem_bytes;
    pl.base_bytes = opt->base_bytes;
    if (opt->desc_plan) {
        if (opt->desc_plan->n_top != layout_desc_ndims(desc))
            return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: opt->desc_plan has %d top dims, desc has %d", name,
                               opt->desc_plan->n_top, layout_desc_ndims(desc));
        for (int i = 0; i < opt->desc_plan->n_top; i++)
            if (opt->desc_plan->top_lengths[i] != layout_desc_length(desc, i))
                return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: opt->desc_plan top length[%d] = %lld, desc has %lld",
                                   name, i, (long long)opt->desc_plan->top_lengths[i],
                                   (long long)layout_desc_length(desc, i));
        pl.desc_plan = opt->desc_plan;
    }
    pl.n_elems = (int)dist->elems_per_thread;
    if (opt->vector_elems > 0) {
        if (opt->vector_y < 0 || opt->vector_y >= dist->n_y)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->vector_y = %d must be in 0..%d", name, opt->vector_y,
                               dist->n_y - 1);
        if (dist->y_lengths[opt->vector_y] % opt->vector_elems)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->vector_elems = %d does not divide Y%d length %lld", name,
                               opt->vector_elems, opt->vector_y, (long long)dist->y_lengths[opt->vector_y]);
        pl.vector_y = opt->vector_y;
        pl.vector_elems = opt->vector_elems;
    } else if (opt->vector_elems < 0) {
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->vector_elems = %d must be >= 0", name, opt->vector_elems);
    } else {
        layout_status s = pick_vector(&pl, err);
        if (s) return s;
    }
    pl.n_accesses = pl.n_elems / pl.vector_elems;
    build_order(&pl);

    pos_facts facts;
    layout_status s = gather(&pl, &facts, err);
    if (s) return s;
    s = opt->op == LAYOUT_DS_AUTO ? build_auto(&pl, &facts, opt, err) : build_explicit(&pl, &facts, opt->op, err);
    if (s) return s;
    *plan = pl;
    return layout_ok(err);
}

/* layout_access_instr(); `tps` (encodings only, may be NULL) holds every
 * lane's layout_dist_thread_part() of this warp, so a stream derives each
 * thread's P digits once per warp instead of once per step (kernel_internal.h). */
layout_status layout_access_instr_tp(const layout_access_plan *plan, int warp, int step,
                                     const int64_t (*tps)[LAYOUT_MAX_DIMS], layout_instr *out, layout_error *err)
{
    static const char name[] = "layout_access_instr";
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "%s: plan is NULL", name);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", name);
    if (warp < 0 || warp >= plan->dist->n_warps)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: warp = %d must be in 0..%d", name, warp,
                           plan->dist->n_warps - 1);
    if (step < 0 || step >= plan->n_steps)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: step = %d must be in 0..%d", name, step, plan->n_steps - 1);
    const layout_access_step *st = &plan->steps[step];
    int lanes = plan->dist->wave_size;
    uint32_t addr[LAYOUT_MAX_LANES];
    int enc = plan->dist->kind == LAYOUT_DIST_ENCODING;
    int64_t part[1][LAYOUT_MAX_DIMS], y[LAYOUT_MAX_DIMS];
    if (enc) {
        layout_dist_y_index(plan->dist, plan->order[st->seq_first], y);
        layout_dist_elem_part(plan->dist, y, part[0]);
    }
    for (int l = 0; l < lanes; l++) {
        int64_t a = 0; /* gcc -O3 cannot see that thread_addrs sets it on success */
        layout_status s = thread_addrs_tp(plan, warp, l, st->seq_first, 1,
                                          enc ? (const int64_t(*)[LAYOUT_MAX_DIMS])part : NULL,
                                          enc && tps ? tps[l] : NULL, &a, err);
        if (s) return s;
        addr[l] = (uint32_t)(a + st->byte_offset);
    }
    memset(out, 0, sizeof *out);
    out->n_lanes = lanes;
    out->active_mask = lanes == 64 ? ~(uint64_t)0 : (((uint64_t)1 << lanes) - 1);
    out->width_bytes = st->width_bytes;
    out->direction = plan->direction;
    memcpy(out->addr_bytes, addr, sizeof(uint32_t) * (size_t)lanes);
    return layout_ok(err);
}

int layout_access_thread_parts(const layout_access_plan *plan, int warp, int64_t (*tps)[LAYOUT_MAX_DIMS])
{
    if (plan->dist->kind != LAYOUT_DIST_ENCODING) return 0;
    for (int l = 0; l < plan->dist->wave_size; l++) /* <= LAYOUT_MAX_LANES (layout_dist_make) */
        layout_dist_thread_part(plan->dist, warp, l, tps[l]);
    return 1;
}

layout_status layout_access_instr(const layout_access_plan *plan, int warp, int step, layout_instr *out,
                                  layout_error *err)
{
    return layout_access_instr_tp(plan, warp, step, NULL, out, err);
}

layout_status layout_access_stream(const layout_access_plan *plan, layout_instr *buf, size_t cap, size_t *count,
                                   layout_error *err)
{
    static const char name[] = "layout_access_stream";
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "%s: plan is NULL", name);
    if (!count) return layout_fail(err, LAYOUT_ERR_NULL, "%s: count is NULL", name);
    size_t need = (size_t)plan->dist->n_warps * (size_t)plan->n_steps;
    *count = need;
    if (!buf && cap == 0) return layout_ok(err);
    if (!buf) return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: buf is NULL with cap = %zu", name, cap);
    if (cap < need)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: cap = %zu, the stream has %zu instructions", name, cap, need);
    size_t k = 0;
    int64_t tps[LAYOUT_MAX_LANES][LAYOUT_MAX_DIMS];
    for (int w = 0; w < plan->dist->n_warps; w++) {
        int enc = layout_access_thread_parts(plan, w, tps);
        for (int i = 0; i < plan->n_steps; i++) {
            layout_status s = layout_access_instr_tp(plan, w, i, enc ? (const int64_t(*)[LAYOUT_MAX_DIMS])tps : NULL,
                                                     &buf[k++], err);
            if (s) return s;
        }
    }
    return layout_ok(err);
}

int layout_access_plan_print(const layout_access_plan *plan, char *buf, size_t cap)
{
    return layout_access_plan_print_vendor(plan, LAYOUT_VENDOR_AMD, buf, cap);
}

int layout_access_plan_print_vendor(const layout_access_plan *plan, layout_vendor vendor, char *buf, size_t cap)
{
    layout_strbuf t;
    layout_sb_init(&t, buf, cap);
    if (!plan) {
        layout_sb_printf(&t, "(null plan)");
        return layout_sb_result(&t);
    }
    int seen[LAYOUT_DS_OP_COUNT] = {0};
    int first = 1;
    for (int i = 0; i < plan->n_steps; i++) {
        layout_ds_op op = plan->steps[i].op;
        if (seen[op]) continue;
        seen[op] = 1;
        layout_sb_printf(&t, "%s%d x %s", first ? "" : " + ", plan->op_count[op],
                         layout_ds_op_vendor_name(op, plan->direction, vendor));
        first = 0;
    }
    if (plan->n_misaligned) layout_sb_printf(&t, " [%d misaligned]", plan->n_misaligned);
    if (plan->n_noncontiguous) layout_sb_printf(&t, " [%d non-contiguous]", plan->n_noncontiguous);
    return layout_sb_result(&t);
}

int layout_access_step_explain(const layout_access_plan *plan, int step, char *buf, size_t cap)
{
    return layout_access_step_explain_vendor(plan, step, LAYOUT_VENDOR_AMD, buf, cap);
}

int layout_access_step_explain_vendor(const layout_access_plan *plan, int step, layout_vendor vendor, char *buf,
                                      size_t cap)
{
    layout_strbuf t;
    layout_sb_init(&t, buf, cap);
    if (!plan || step < 0 || step >= plan->n_steps) return layout_sb_result(&t);
    const layout_access_step *st = &plan->steps[step];
    layout_sb_printf(&t, "step %d %s (access %d, positions %d..%d, +%d bytes): %d-byte aligned", step,
                     layout_ds_op_vendor_name(st->op, plan->direction, vendor), st->access, st->seq_first,
                     st->seq_first + st->elem_dir * (st->n_elems - 1), st->byte_offset, st->align_bytes);
    if (st->pair_step >= 0) layout_sb_printf(&t, "; paired with step %d", st->pair_step);
    if (st->flags == LAYOUT_ACCESS_NONCONTIGUOUS)
        layout_sb_printf(&t, "; non-contiguous: warp %d lane %d's elements are not adjacent in LDS", st->bad_warp,
                         st->bad_lane);
    else if (st->flags & LAYOUT_ACCESS_NONCONTIGUOUS)
        layout_sb_printf(&t, "; non-contiguous: the elements of its vector are not adjacent in LDS");
    if (st->flags & LAYOUT_ACCESS_MISALIGNED) {
        int64_t a = -1;
        if (st->bad_warp >= 0) elem_addr(plan, st->bad_warp, st->bad_lane, st->seq_first, &a, NULL);
        layout_sb_printf(&t, "; misaligned: needs %d-byte alignment, warp %d lane %d is at byte %lld",
                op_aligns[st->op], st->bad_warp, st->bad_lane, a < 0 ? -1LL : (long long)(a + st->byte_offset));
    }
    if (st->flags) {
        layout_sb_printf(&t, "; needs");
        int first = 1;
        for (int op = 1; op < LAYOUT_DS_OP_COUNT; op++)
            if (st->split_count[op]) {
                layout_sb_printf(&t, "%s %d x %s", first ? "" : " +", st->split_count[op],
                        layout_ds_op_vendor_name((layout_ds_op)op, plan->direction, vendor));
                first = 0;
            }
    }
    return layout_sb_result(&t);
}

void layout_access_table_order(layout_access_plan *pl, const layout_distribution *dist, layout_direction direction,
                               int elem_bytes, const layout_access_options *opt, const int64_t *hint_lengths,
                               const int64_t *hint_strides)
{
    /* The caller (lib/suggest) validated everything once with
     * layout_access_plan_make(); only the addresses and hints vary. */
    pl->desc = NULL;
    pl->dist = dist;
    pl->desc_plan = NULL;
    pl->direction = direction;
    pl->elem_bytes = elem_bytes;
    pl->base_bytes = opt->base_bytes;
    pl->n_elems = (int)dist->elems_per_thread;
    pl->n_steps = pl->n_instrs = 0;
    memset(pl->op_count, 0, sizeof pl->op_count);
    pl->n_misaligned = pl->n_noncontiguous = pl->n_vectors_split = 0;
    if (opt->vector_elems > 0) {
        pl->vector_y = opt->vector_y;
        pl->vector_elems = opt->vector_elems;
    } else {
        pick_vector_hints(pl, hint_lengths, hint_strides);
    }
    pl->n_accesses = pl->n_elems / pl->vector_elems;
    build_order(pl);
}

/* Rigid classes (access_internal.h) of position-major addresses: p joins
 * the class of the first earlier founder r with addr_t(p) - addr_t(r) the
 * same in every thread t (a mismatch shows within a few threads); the
 * previous position's class is tried first. */
static int same_difference(const uint32_t *a, const uint32_t *b, int n_threads)
{
    const uint32_t d = a[0] - b[0];
    for (int t = 1; t < n_threads; t++)
        if (a[t] - b[t] != d) return 0;
    return 1;
}

static void table_classes(pos_facts *f, const uint32_t *addr, int n, int n_threads, int64_t eb)
{
    for (int p = 0; p < n; p++) {
        const uint32_t *a = addr + (size_t)p * (size_t)n_threads;
        int r = p;
        if (p > 0 && (f->next_adjacent[p - 1] || f->next_below[p - 1])) { /* adjacent: rigid already */
            f->klass[p] = f->klass[p - 1];
            f->rel[p] = f->rel[p - 1] + (f->next_adjacent[p - 1] ? eb : -eb);
            continue;
        }
        if (p > 0 && same_difference(a, addr + (size_t)f->klass[p - 1] * (size_t)n_threads, n_threads))
            r = f->klass[p - 1];
        for (int q = 0; r == p && q < p; q++)
            if (f->klass[q] == q && (p == 0 || q != f->klass[p - 1]) &&
                same_difference(a, addr + (size_t)q * (size_t)n_threads, n_threads))
                r = q;
        f->klass[p] = (unsigned char)r;
        f->rel[p] = (int64_t)a[0] - (int64_t)addr[(size_t)r * (size_t)n_threads];
    }
}

layout_status layout_access_table_build(layout_access_plan *pl, const layout_access_options *opt,
                                        const uint32_t *addr, int n_threads, layout_error *err)
{
    pos_facts facts;
    pos_facts *f = &facts;
    int n = pl->n_elems;
    uint32_t eb = (uint32_t)pl->elem_bytes;
    for (int p = 0; p < n; p++) {
        const uint32_t *a = addr + (size_t)p * (size_t)n_threads;
        /* residues: a 16-entry presence table, four independent chains */
        unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
        int t = 0;
        for (; t + 4 <= n_threads; t += 4) {
            r0 |= 1u << (a[t] & 15u);
            r1 |= 1u << (a[t + 1] & 15u);
            r2 |= 1u << (a[t + 2] & 15u);
            r3 |= 1u << (a[t + 3] & 15u);
        }
        for (; t < n_threads; t++) r0 |= 1u << (a[t] & 15u);
        f->residues[p] = r0 | r1 | r2 | r3;
        f->break_warp[p] = f->break_lane[p] = -1;
        if (p + 1 == n) {
            f->next_adjacent[p] = f->next_below[p] = 0;
            break;
        }
        /* adjacency: the same difference eb (or -eb) in every thread */
        const uint32_t *b = a + n_threads;
        uint32_t d0 = b[0] - a[0];
        unsigned same = d0 == eb || d0 == 0u - eb;
        for (t = 1; same && t < n_threads; t++) same = b[t] - a[t] == d0;
        f->next_adjacent[p] = (unsigned char)(same && d0 == eb);
        f->next_below[p] = (unsigned char)(same && d0 == 0u - eb);
    }
    table_classes(f, addr, n, n_threads, (int64_t)eb);
    return layout_access_table_build_facts(pl, opt, f, err);
}

layout_status layout_access_table_build_facts(layout_access_plan *pl, const layout_access_options *opt,
                                              const layout_access_facts *f, layout_error *err)
{
    return opt->op == LAYOUT_DS_AUTO ? build_auto(pl, f, opt, err) : build_explicit(pl, f, opt->op, err);
}
