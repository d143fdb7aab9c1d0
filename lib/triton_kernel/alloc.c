/* Triton 3.6's shared-memory offsets of a kernel's explicit buffers
 * (layout_tk_alloc_offsets, tk_internal.h), as lib/Analysis/Allocation.cpp
 * computes them (triton at v3.6.1, facebookexperimental/triton
 * 3aa72b49b4e8: AllocationAnalysis::getValuesAndSizes, resolveLiveness,
 * computeOffsets, calculateStarts, buildInterferenceGraph, allocate;
 * include/triton/Analysis/Allocation.h for Interval and BufferT).
 *
 * Buffers: each `ttg.local_alloc` (its memdesc's elements times their
 * bytes, aligned to the encoding's getAlignment(), 16 unless a
 * shared_linear prints another), then each op's scratch (convert_layout,
 * tt.reduce, tt.scan: the model's scratch bytes; alignment 128), in that
 * order (bufferRange, a MapVector filled explicit buffers first).
 * Liveness in post-order operation ids, which order ops as their text
 * ends (a region op after its body): an explicit buffer from its
 * local_alloc to the last op of the local_alloc's block that uses, or
 * holds in its regions a use of, a value of its alias class (views,
 * iter_args, loop results: web.c), plus one; a scratch buffer its op's id,
 * plus one.  Both read from the module's IR. */
#include "../core/internal.h"
#include "layout/triton_kernel.h"
#include "tk_internal.h"
#include "web_internal.h"

#include <string.h>

#define MAX_BUFS 64

typedef struct abuf {
    int64_t size, align, off;
    int start, end; /* [start, end): operation ids (op_id) */
} abuf;

/* Triton's post-order operation ids (an op after the ops of its regions)
 * keep the order in which the ops' texts end: the end offset of an op's
 * text stands for its id. */
static int op_id(const layout_ttgir *m, int ir_op)
{
    const layout_ttgir_ir_op *o = &m->ir.ops[ir_op];
    return (int)(o->text.at + o->text.len);
}

/* Whether op `op` or an op in its regions uses or defines a value of web class `root`. */
static int touches_class(const layout_ttgir *m, layout_tk_web *w, int op, int root)
{
    uint32_t end = m->ir.ops[op].text.at + m->ir.ops[op].text.len;
    for (int j = op; j < m->ir.n_ops && m->ir.ops[j].text.at < end; j++) { /* the op, then its regions' ops */
        const layout_ttgir_ir_op *o = &m->ir.ops[j];
        for (int k = 0; k < o->n_uses + o->n_results; k++) {
            layout_tk_name v;
            v.value = k < o->n_uses ? m->ir.uses[o->first_use + k] : o->first_result + (k - o->n_uses);
            if (v.value >= 0 && layout_tk_web_root(w, &v) == root) return 1;
        }
    }
    return 0;
}

/* The liveness end of class `root` in the block of op `op`: the id of the
 * last later op there that uses it (itself, or an op of its regions); 0: none. */
static int last_use_in_block(const layout_ttgir *m, layout_tk_web *w, int op, int root)
{
    int last = 0;
    for (int j = m->ir.ops[op].next; j >= 0; j = m->ir.ops[j].next)
        if (touches_class(m, w, j, root)) last = op_id(m, j);
    return last;
}

/* Any op of the module named with prefix lit. */
static int has_op(const layout_ttgir *m, const char *lit)
{
    size_t n = strlen(lit);
    for (int i = 0; i < m->ir.n_ops; i++)
        if (m->ir.ops[i].name.len >= n && memcmp(m->text + m->ir.ops[i].name.at, lit, n) == 0) return 1;
    return 0;
}

/* The alignment and bytes of a local_alloc's buffer; 0 when not known
 * here: an encoding the dialect layer does not read (its alignment could
 * be its own), or one whose sizes and alignments are not rebuilt here
 * (padded_shared, nvmma_shared). */
static int explicit_buffer(const layout_ttgir *m, const layout_ttgir_op *o, abuf *bf)
{
    const layout_ttgir_type *t = o->n_dst > 0 && o->dst[0].is_memdesc ? &o->dst[0] : NULL;
    char enc[2048];
    layout_triton_attr a;
    size_t where = 0;
    if (!t || t->elem_bits < 8 || !t->enc_len) return 0;
    if (layout_tk_inline_aliases(m, m->text + t->enc_at, t->enc_len, enc, sizeof enc, 0) < 0) return 0;
    if (layout_triton_from_text(enc, &a, &where, NULL) != LAYOUT_OK) return 0;
    if (a.kind == LAYOUT_TRITON_PADDED_SHARED || a.kind == LAYOUT_TRITON_NVMMA_SHARED) return 0;
    bf->size = t->elem_bits / 8;
    for (int d = 0; d < t->rank; d++) bf->size *= t->shape[d];
    /* shared_linear's own alignment (the dialect reads it: 16 when not
     * printed), else SharedEncodingTrait::getAlignment's default */
    bf->align = a.kind == LAYOUT_TRITON_LINEAR && a.shared_linear ? a.alignment : 16;
    return bf->align > 0 && (bf->align & (bf->align - 1)) == 0;
}

static int64_t align_to(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

static int meets(const abuf *x, int s, int e) { return x->start < e && s < x->end; }

/* calculateStarts: a multimap of triples (offset -> liveness range) taken
 * from its least offset (equal offsets in insertion order); a buffer is
 * placed on the first triple whose range meets its own and no other
 * triple's does. */
static int calculate_starts(abuf *bf, const int *order, int n)
{
    int64_t t_off[4 * MAX_BUFS];
    int t_s[4 * MAX_BUFS], t_e[4 * MAX_BUFS], t_seq[4 * MAX_BUFS], nt = 1, seq = 1, left = n;
    int placed[MAX_BUFS] = {0};
    t_off[0] = 0, t_s[0] = 0, t_e[0] = INT32_MAX, t_seq[0] = 0; /* Interval<size_t>(): everything */
    while (left > 0) {
        if (nt == 0 || nt + 2 > 4 * MAX_BUFS) return 0;
        int best = 0;
        for (int i = 1; i < nt; i++)
            if (t_off[i] < t_off[best] || (t_off[i] == t_off[best] && t_seq[i] < t_seq[best])) best = i;
        int64_t off = t_off[best];
        int rs = t_s[best], re = t_e[best];
        t_off[best] = t_off[nt - 1], t_s[best] = t_s[nt - 1], t_e[best] = t_e[nt - 1], t_seq[best] = t_seq[nt - 1];
        nt--;
        for (int q = 0; q < n; q++) {
            abuf *x = &bf[order[q]];
            int ok = !placed[q] && meets(x, rs, re);
            for (int i = 0; i < nt && ok; i++)
                if (meets(x, t_s[i], t_e[i])) ok = 0;
            if (!ok) continue;
            x->off = align_to(off, x->align);
            t_off[nt] = x->off + x->size, t_s[nt] = rs > x->start ? rs : x->start;
            t_e[nt] = re < x->end ? re : x->end, t_seq[nt++] = seq++;
            if (rs < x->start) t_off[nt] = off, t_s[nt] = rs, t_e[nt] = x->end, t_seq[nt++] = seq++;
            if (x->end < re) t_off[nt] = off, t_s[nt] = x->start, t_e[nt] = re, t_seq[nt++] = seq++;
            placed[q] = 1;
            left--;
            break;
        }
    }
    return 1;
}

/* Interference: live together and overlapping bytes. */
static int interferes(const abuf *x, const abuf *y)
{
    return x->start < y->end && y->start < x->end && x->off < y->off + y->size && y->off < x->off + x->size;
}

int layout_tk_alloc_offsets(const layout_triton_kernel *k, layout_tk_web *w, int64_t *off)
{
    const layout_ttgir *m = k->module;
    abuf bf[MAX_BUFS];
    int owner[MAX_BUFS], order[MAX_BUFS], n = 0;
    for (int i = 0; i < m->n_ops; i++) off[i] = -1;
    for (int pass = 0; pass < 2; pass++) /* explicit buffers, then scratch */
        for (int i = 0; i < m->n_ops; i++) {
            const layout_ttgir_op *o = &m->ops[i];
            if (pass == 0 && o->kind == LAYOUT_TTGIR_LOCAL_ALLOC) {
                layout_tk_name res;
                if (n == MAX_BUFS || !explicit_buffer(m, o, &bf[n]) || !layout_tk_op_result(m, o, &res)) return 0;
                int root = layout_tk_web_root(w, &res), last;
                if (root < 0) return 0;
                last = last_use_in_block(m, w, o->ir_op, root);
                bf[n].start = op_id(m, o->ir_op);
                bf[n].end = (last ? last : bf[n].start) + 1;
            } else if (pass == 1 && (o->kind == LAYOUT_TTGIR_CONVERT_LAYOUT || o->kind == LAYOUT_TTGIR_REDUCE ||
                                     o->kind == LAYOUT_TTGIR_SCAN)) {
                const layout_triton_kernel_op *r = NULL;
                for (int q = 0; q < k->n_ops && !r; q++)
                    if (k->ops[q].op == i) r = &k->ops[q];
                if (!r || !r->modelled) return 0; /* its scratch is not known */
                int64_t bytes = o->kind == LAYOUT_TTGIR_SCAN ? 0 : r->cvt_scratch_bytes;
                if (bytes <= 0) continue;
                if (n == MAX_BUFS) return 0;
                bf[n].size = bytes, bf[n].align = 128;
                bf[n].start = op_id(m, o->ir_op);
                bf[n].end = bf[n].start + 1;
            } else if (o->kind == LAYOUT_TTGIR_HISTOGRAM || o->kind == LAYOUT_TTGIR_GATHER ||
                       o->kind == LAYOUT_TTGIR_WARP_SPECIALIZE || o->kind == LAYOUT_TTGIR_OTHER_SHARED) {
                return 0; /* scratch not sized here */
            } else {
                continue;
            }
            bf[n].off = 0;
            owner[n] = pass == 0 ? i : -1;
            n++;
        }
    /* atomics and calls take scratch or virtual buffers too */
    if (has_op(m, "tt.atomic_") || has_op(m, "tt.call")) return 0;
    /* computeOffsets: stable sort by size, largest first */
    for (int i = 0; i < n; i++) {
        int t = i;
        while (t > 0 && bf[order[t - 1]].size < bf[i].size) {
            order[t] = order[t - 1];
            t--;
        }
        order[t] = i;
    }
    if (!calculate_starts(bf, order, n)) return 0;
    /* buildInterferenceGraph, then allocate() and again until no two
     * buffers interfere: a first-fit colouring in the sorted order (the
     * largest buffer colour 0, each later one the least colour none of
     * its coloured neighbours has), then in the same order each buffer of
     * a colour other than 0 moves to the end of its farthest neighbour
     * (offsets read as they are moved; the graph stays the one built) */
    for (int round = 0; round < 4 * MAX_BUFS; round++) {
        unsigned char adj[MAX_BUFS][MAX_BUFS];
        int color[MAX_BUFS], any = 0;
        for (int q = 0; q < n; q++)
            for (int r = 0; r < n; r++) {
                adj[q][r] = (unsigned char)(q != r && interferes(&bf[q], &bf[r]));
                any |= adj[q][r];
            }
        if (!any) {
            for (int q = 0; q < n; q++)
                if (owner[q] >= 0) off[owner[q]] = bf[q].off;
            return 1;
        }
        for (int q = 0; q < n; q++) color[q] = q == order[0] ? 0 : -1;
        for (int q = 0; q < n; q++) {
            int x = order[q], c = 0;
            unsigned char avail[MAX_BUFS];
            memset(avail, 1, sizeof avail);
            for (int r = 0; r < n; r++)
                if (adj[x][r] && color[r] >= 0) avail[color[r]] = 0;
            while (c < n - 1 && !avail[c]) c++;
            color[x] = c;
        }
        for (int q = 0; q < n; q++) {
            int x = order[q];
            int64_t o2 = 0;
            for (int r = 0; r < n; r++)
                if (adj[x][r] && bf[r].off + bf[r].size > o2) o2 = bf[r].off + bf[r].size;
            if (color[x] != 0) bf[x].off = align_to(o2, bf[x].align);
        }
    }
    return 0;
}
