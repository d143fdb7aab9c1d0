/* NVIDIA: the shared-memory accesses ptxas joins into one wider LDS / STS
 * after LLVM's LoadStoreVectorizer left them apart (the op reports'
 * ptxas_joined_loads / _stores; ldst.c and scratch.c ask it).
 *
 * ptxas's source is not public; its rule here is what ptxas itself did
 * with the probes of tests/fixtures/triton/ptxas (67 kernels through the
 * ptxas that Triton 3.6.0 ships, CUDA 12.8.93; README.md there has the
 * table, tests/test_ptxas_passes.c checks this code against every probe):
 *
 *  - accesses of one base register, contiguous (no gap), join into the
 *    power of two of bytes that holds them, aligned: its size at most the
 *    base register's known alignment (ptxas reads it through shifts,
 *    multiplies and XORs), 16 bytes for 32-bit elements, 8 for 16-bit
 *    elements, never for 8-bit ones;
 *  - loads join across other loads (of any base), not across a store or
 *    a barrier; a run of loads may read bytes nobody asked for (three b32
 *    at 0, 4, 8: one LDS.128), a lone load stays as it is;
 *  - stores join only when adjacent in program order, and never write
 *    more than their bytes (three b32: STS.64 + STS);
 *  - 16-bit loads join only where ptxas keeps the values 16-bit or widens
 *    them cheaply (stored, fp16 arithmetic, fp16 -> fp32, sign extension),
 *    not when they are zero-extended or widened from bf16: the caller says
 *    which (join16), from the IR's uses of the op's result.
 *
 * Evidence on Triton's own kernels: the Gluon fixture g005 (padded [32:+4]
 * fp16: 13 loads as 4 LDS.64, 13 stores as 12 STS) and the corpus's 1-D
 * cumsums (the warp totals' v2 + b32 as one LDS.128); the SASS of every
 * sm_90 Gluon fixture is compared with the model's joins in
 * python/tests/test_gluon_fixtures.py. */
#include "tk_internal.h"

#include <string.h>

int layout_tk_ptxas_join16(const layout_triton_kernel *k, int op)
{
    const layout_ttgir *m = k->module;
    if (!m || op < 0 || op >= m->n_ops) return 1;
    int ir = m->ops[op].ir_op;
    if (ir < 0 || ir >= m->ir.n_ops) return 1;
    for (int res = 0; res < m->ir.ops[ir].n_results; res++) {
        int v = layout_ttgir_ir_result(m, ir, res);
        layout_ttgir_type t;
        int bf16 = layout_ttgir_ir_value_type(m, v, &t) == LAYOUT_OK && strcmp(t.elem, "bf16") == 0;
        for (int j = ir + 1; j < m->ir.n_ops; j++) {
            const layout_ttgir_ir_op *o = &m->ir.ops[j];
            int uses = 0;
            for (int u = 0; u < o->n_uses && !uses; u++) uses = m->ir.uses[o->first_use + u] == v;
            if (!uses) continue;
            /* ptxas keeps separate 16-bit loads for these (the probes' plain
             * and _use_bf16f32 kernels: cvt.u32.u16, cvt.f32.bf16) */
            if (layout_ttgir_ir_op_is(m, j, "arith.extui") || (bf16 && layout_ttgir_ir_op_is(m, j, "arith.extf")))
                return 0;
        }
    }
    return 1;
}

/* The widest join of elements of elem_bits (0: none). */
static int join_cap(int elem_bits, int write, int join16)
{
    if (elem_bits >= 32) return 16;
    if (elem_bits == 16) return write || join16 ? 8 : 0;
    return 0;
}

/* The smallest power of two p with [lo, end) inside one p-aligned block. */
static int64_t block_of(int64_t lo, int64_t end)
{
    int64_t p = 1;
    while (lo / p != (end - 1) / p) p *= 2;
    return p;
}

/* Loads x[0..m) (indices into a, one base, offset order) joined greedily
 * from the lowest: each run of contiguous loads whose holding block fits
 * the window is one LDS, led by its first in program order. */
static int join_loads(const layout_tk_pj_acc *a, const short *x, int m, int window, short *lead, int *width,
                      int64_t *start)
{
    int joined = 0;
    for (int i = 0; i < m;) {
        int64_t lo = a[x[i]].off, end = lo + a[x[i]].bytes;
        int j = i;
        while (j + 1 < m && a[x[j + 1]].off == end && block_of(lo, end + a[x[j + 1]].bytes) <= window)
            end += a[x[++j]].bytes;
        if (j > i && lo >= 0) {
            int64_t p = block_of(lo, end);
            int first = x[i];
            for (int t = i; t <= j; t++)
                if (x[t] < first) first = x[t];
            for (int t = i; t <= j; t++) lead[x[t]] = (short)first;
            width[first] = (int)p;
            start[first] = lo / p * p;
            joined += j - i;
        }
        i = j + 1;
    }
    return joined;
}

/* Stores y[0..m) (adjacent in program order, one base, their bytes one
 * contiguous span) covered from its low end by the largest aligned powers
 * of two that end on an access's end: each is one STS, led by its last in
 * program order. */
static int join_stores(const layout_tk_pj_acc *a, const short *y, int m, int window, short *lead, int *width,
                       int64_t *start)
{
    short x[LAYOUT_TK_PJ_MAX];
    int joined = 0;
    memcpy(x, y, (size_t)m * sizeof x[0]);
    for (int i = 1; i < m; i++) /* offset order */
        for (int j = i; j > 0 && a[x[j]].off < a[x[j - 1]].off; j--) {
            short t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
    for (int i = 0; i < m;) {
        int64_t lo = a[x[i]].off, end = lo;
        int j = i - 1, best = i - 1;
        while (j + 1 < m) {
            end += a[x[++j]].bytes;
            int64_t p = end - lo;
            if (p > window) break;
            if ((p & (p - 1)) == 0 && lo >= 0 && lo % p == 0) best = j;
        }
        if (best > i) {
            int last = x[i];
            for (int t = i; t <= best; t++)
                if (x[t] > last) last = x[t];
            for (int t = i; t <= best; t++) lead[x[t]] = (short)last;
            width[last] = (int)(a[x[best]].off + a[x[best]].bytes - lo);
            start[last] = lo;
            joined += best - i;
        }
        i = best > i ? best + 1 : i + 1;
    }
    return joined;
}

static int window_of(const layout_tk_pj_acc *p, int join16)
{
    int cap = join_cap(p->elem_bits, p->write, join16), al = p->base_align_log2 < 4 ? p->base_align_log2 : 4;
    return al < 0 ? 0 : (cap < (1 << al) ? cap : 1 << al);
}

int layout_tk_ptxas_join(const layout_tk_pj_acc *a, int n, int join16, short *lead, int *width, int64_t *start)
{
    short x[LAYOUT_TK_PJ_MAX];
    unsigned char done[LAYOUT_TK_PJ_MAX];
    int joined = 0;
    for (int i = 0; i < n; i++) lead[i] = -1, width[i] = a[i].bytes, start[i] = a[i].off;
    if (n > LAYOUT_TK_PJ_MAX) return 0;
    for (int i = 0; i < n; i++) done[i] = 0;
    for (int i = 0; i < n; i++) {
        if (done[i]) continue;
        int m = 0, window = window_of(&a[i], join16);
        if (!a[i].write) {
            /* the loads of i's base in its stretch of loads, in offset order */
            for (int j = i; j < n && !a[j].write; j++)
                if (!done[j] && a[j].base == a[i].base && a[j].elem_bits == a[i].elem_bits) {
                    int t = m++;
                    for (; t > 0 && a[x[t - 1]].off > a[j].off; t--) x[t] = x[t - 1];
                    x[t] = (short)j;
                    done[j] = 1;
                    int w = window_of(&a[j], join16);
                    if (w < window) window = w;
                }
            if (m > 1 && window > 0) joined += join_loads(a, x, m, window, lead, width, start);
            continue;
        }
        /* the stores adjacent to i, of its base, extending one span */
        int64_t lo = a[i].off, hi = a[i].off + a[i].bytes;
        x[m++] = (short)i;
        done[i] = 1;
        for (int j = i + 1; j < n && a[j].write && a[j].base == a[i].base && a[j].elem_bits == a[i].elem_bits; j++) {
            if (a[j].off == hi) hi += a[j].bytes;
            else if (a[j].off + a[j].bytes == lo) lo = a[j].off;
            else break;
            int w = window_of(&a[j], join16);
            if (w < window) window = w;
            x[m++] = (short)j;
            done[j] = 1;
        }
        if (m > 1 && window > 0) joined += join_stores(a, x, m, window, lead, width, start);
    }
    for (int i = 0; i < n; i++)
        if (lead[i] < 0) lead[i] = -1;
    return joined;
}
