/* The compiler model of access plans: how the compiler merges a thread's
 * adjacent elements into the fewest DS instructions their proven alignment
 * allows (see access.h for the rule), from the per-position facts
 * (access_plan.h) that access_addr.c gathers from a descriptor and
 * access_table.c from a search's address table. */
#include "../core/internal.h"
#include "layout/access.h"
#include "access_internal.h"

#include <string.h>

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
        o += layout_access_op_widths[op];
    }
    return n;
}

/* Legal instructions needed by positions [p0, p0+k): contiguous runs, each chopped. */
/* Last position (inclusive) of the run starting at p inside [p, limit):
 * ascending (dir +1) or, when the next element sits just below, descending. */
static int run_end(const layout_access_facts *f, int p, int limit, int *dir)
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

static void count_split(const layout_access_plan *pl, const layout_access_facts *f, int p0, int k,
                        layout_access_step *st)
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
    st->width_bytes = layout_access_op_widths[op];
    st->seq_first = p0;
    st->elem_dir = dir;
    int64_t first = off / pl->elem_bytes, last = (off + layout_access_op_widths[op] - 1) / pl->elem_bytes;
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
            if (layout_access_elem_addr(pl, w, l, p0, &a, NULL)) return;
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
static void mark_step(layout_access_plan *pl, const layout_access_facts *f, layout_access_step *st, int p0, int k,
                      int v0, int vk)
{
    for (int p = v0; p + 1 < v0 + vk; p++)
        if (!f->next_adjacent[p]) {
            st->flags |= LAYOUT_ACCESS_NONCONTIGUOUS;
            st->bad_warp = f->break_warp[p];
            st->bad_lane = f->break_lane[p];
            break;
        }
    if (st->align_bytes < layout_access_op_aligns[st->op]) {
        st->flags |= LAYOUT_ACCESS_MISALIGNED;
        find_misaligned(pl, st->seq_first, st->byte_offset, layout_access_op_aligns[st->op], &st->bad_warp,
                        &st->bad_lane);
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
static layout_status emit_run_at(layout_access_plan *pl, const layout_access_facts *f, int base, int n_el, int dir,
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
static layout_status emit_run(layout_access_plan *pl, const layout_access_facts *f, int p0, int p1, int dir,
                              unsigned forms, layout_error *err)
{
    return emit_run_at(pl, f, dir > 0 ? p0 : p1 - 1, p1 - p0, dir, forms, err);
}

/* A tile-window vector at [p0, p0+k) is flagged when not adjacent or, chopped at its
 * natural alignment, some piece is less aligned than its op needs. */
static int vector_is_bad(const layout_access_plan *pl, const layout_access_facts *f, int p0, int k)
{
    for (int p = p0; p + 1 < p0 + k; p++)
        if (!f->next_adjacent[p]) return 1;
    chop_piece pieces[64];
    int m = chop(1u, (int64_t)k * pl->elem_bytes, pieces, 64); /* residue {0}: trusted natural alignment */
    for (int i = 0; i < m && i < 64; i++)
        if (proven_align(f->residues[p0], pieces[i].off) < layout_access_op_aligns[pieces[i].op]) return 1;
    return 0;
}

/* Emit a flagged vector the way ck_tile does: chopped as if naturally aligned, flagged. */
static layout_status emit_trusted(layout_access_plan *pl, const layout_access_facts *f, int p0, int k,
                                  layout_error *err)
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
static void pair_steps(layout_access_plan *pl, const layout_access_facts *f)
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

layout_status layout_access_build_auto(layout_access_plan *pl, const layout_access_facts *f,
                                       const layout_access_options *opt, layout_error *err)
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
     * issue position), a strict total order (bottom-up merge sort: n log n
     * where the plans of a search are built by the hundred thousand);
     * runs are the address-adjacent stretches. */
    {
        int64_t key[LAYOUT_MAX_THREAD_ELEMS];
        int tmp[LAYOUT_MAX_THREAD_ELEMS];
        for (int p = 0; p < n; p++) {
            key[p] = opt->no_merge ? (int64_t)f->klass[p] * LAYOUT_MAX_THREAD_ELEMS + p / k : f->klass[p];
            if (!flagged[p]) sorted[m++] = p;
        }
#define BEFORE(q, p) (key[q] < key[p] || (key[q] == key[p] && (f->rel[q] < f->rel[p] || (f->rel[q] == f->rel[p] && (q) < (p)))))
        int *src = sorted, *dst = tmp;
        for (int width = 1; width < m; width *= 2) {
            for (int lo = 0; lo < m; lo += 2 * width) {
                int mid = lo + width < m ? lo + width : m, hi = lo + 2 * width < m ? lo + 2 * width : m;
                int a = lo, b = mid, o = lo;
                while (a < mid && b < hi) dst[o++] = BEFORE(src[b], src[a]) ? src[b++] : src[a++];
                while (a < mid) dst[o++] = src[a++];
                while (b < hi) dst[o++] = src[b++];
            }
            int *t = src;
            src = dst;
            dst = t;
        }
#undef BEFORE
        if (src != sorted) memcpy(sorted, src, sizeof sorted[0] * (size_t)m);
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
    { /* by issue position of the lowest address: the keys are distinct
       * positions (each position is in one unit), so by a table */
        short at[LAYOUT_MAX_THREAD_ELEMS];
        plan_unit was[LAYOUT_MAX_THREAD_ELEMS];
        memset(at, 0xff, sizeof at[0] * (size_t)n);
        for (int u = 0; u < n_units; u++) at[units[u].key] = (short)u;
        memcpy(was, units, sizeof units[0] * (size_t)n_units);
        int o = 0;
        for (int p = 0; p < n; p++)
            if (at[p] >= 0) units[o++] = was[at[p]];
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

layout_status layout_access_build_explicit(layout_access_plan *pl, const layout_access_facts *f, layout_ds_op op,
                                           layout_error *err)
{
    int w = layout_access_op_widths[op], eb = pl->elem_bytes;
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
