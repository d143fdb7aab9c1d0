/* AVX2 box walk of a plan: 8 coordinates of a row per step in 32-bit lanes.
 * Compiled with -mavx2 on x86; elsewhere a stub that reports itself absent.
 * Only plans with fits_int32 come here: every op input, op result, check
 * input and offset is proven to fit int32, so affine parts computed modulo
 * 2^32 are exact, and a division in double precision is exact (|x| < 2^53). */
#include "plan_internal.h"
#include "../core/bits.h"

#include <string.h>

#ifdef __AVX2__
#include <immintrin.h>

int layout_plan_avx2_compiled(void) { return 1; }

/* The low 32 bits as int32 (two's complement) without implementation-defined conversion. */
static inline int32_t wrap32(uint64_t u)
{
    uint32_t w = (uint32_t)u;
    return w <= (uint32_t)INT32_MAX ? (int32_t)w : (int32_t)(w - 0x80000000u) + INT32_MIN;
}

enum { GROUP = 8 }; /* chunks of 8 lanes evaluated together (up to 64 coordinates, possibly from several rows) */

#if defined(__GNUC__)
#define PLAN_INLINE static inline __attribute__((always_inline))
#else
#define PLAN_INLINE static inline
#endif

/* S once per chunk with a constant index c (0..7): straight-line code keeps
 * the 8 accumulators in registers where a loop would go through memory. */
#define EACH_CHUNK(S)                                                                                   \
    do {                                                                                                \
        { enum { c = 0 }; S; } { enum { c = 1 }; S; } { enum { c = 2 }; S; } { enum { c = 3 }; S; }     \
        { enum { c = 4 }; S; } { enum { c = 5 }; S; } { enum { c = 6 }; S; } { enum { c = 7 }; S; }     \
    } while (0)

/* A group of chunks: chunk c covers lanes of row slot[c] starting at inner
 * coordinate k[c]; rb[slot][e] is the row base of expression e. */
typedef struct group {
    int nch;
    int slot[GROUP];
    int n[GROUP];
    int32_t rb[GROUP][LAYOUT_PLAN_MAX_EXPRS]; /* low 32 bits: exact, values fit int32 */
    int row_ok[GROUP];
} group;

/* acc[c] += the terms from..to of the plan for every chunk c: every term is
 * decoded once per group of 8 chunks, not once per chunk, and the 8
 * accumulators live in registers (straight-line updates, no loop). */
PLAN_INLINE void vterms(const layout_plan *p, int from, int to, __m256i (*vv)[GROUP], __m256i *acc)
{
    __m256i a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3], a4 = acc[4], a5 = acc[5], a6 = acc[6], a7 = acc[7];
#define UPD(OP)                                                                                         \
    do {                                                                                                \
        a0 = OP(a0, t[0]); a1 = OP(a1, t[1]); a2 = OP(a2, t[2]); a3 = OP(a3, t[3]);                     \
        a4 = OP(a4, t[4]); a5 = OP(a5, t[5]); a6 = OP(a6, t[6]); a7 = OP(a7, t[7]);                     \
    } while (0)
    for (int i = from; i < to; i++) {
        int64_t coef = p->term_coef[i];
        const __m256i *t = vv[p->term_var[i]];
        if (coef == 1) {
            UPD(_mm256_add_epi32);
        } else if (coef == -1) {
            UPD(_mm256_sub_epi32);
        } else if (layout_is_pow2(coef)) {
            int sh = layout_log2_exact(coef);
            const __m128i cnt = _mm_cvtsi32_si128(sh);
#define ADD_SHL(a, b) _mm256_add_epi32(a, _mm256_sll_epi32(b, cnt))
            UPD(ADD_SHL);
#undef ADD_SHL
        } else {
            const __m256i m = _mm256_set1_epi32(wrap32((uint64_t)coef));
#define ADD_MUL(a, b) _mm256_add_epi32(a, _mm256_mullo_epi32(b, m))
            UPD(ADD_MUL);
#undef ADD_MUL
        }
    }
#undef UPD
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
    acc[4] = a4;
    acc[5] = a5;
    acc[6] = a6;
    acc[7] = a7;
}

/* Row walk: per-element part of expression e on top of each chunk's row base
 * (always all GROUP chunks; idle ones compute garbage that is never stored). */
PLAN_INLINE void vexpr(const layout_plan *p, int e, const group *g, __m256i (*vv)[GROUP], __m256i *acc)
{
    const layout_plan_expr *x = &p->exprs[e];
    EACH_CHUNK(acc[c] = _mm256_set1_epi32(g->rb[g->slot[c]][e]));
    vterms(p, x->first_term + x->n_row_terms, x->first_term + x->n_terms, vv, acc);
}

/* Flat walk: the whole expression e per lane. */
PLAN_INLINE void vexpr_all(const layout_plan *p, int e, __m256i (*vv)[GROUP], __m256i *acc)
{
    const layout_plan_expr *x = &p->exprs[e];
    const __m256i k = _mm256_set1_epi32(wrap32((uint64_t)x->constant));
    EACH_CHUNK(acc[c] = k);
    vterms(p, x->first_term, x->first_term + x->n_terms, vv, acc);
}

static inline __m256i vdiv(const layout_plan_op *op, __m256i x)
{
    if (op->mode == LAYOUT_PLAN_DIV_SHIFT) return _mm256_srl_epi32(x, _mm_cvtsi32_si128(op->shift));
    /* truncating division in double: exact for |x| < 2^53, cvtt truncates like C */
    __m256d d = _mm256_set1_pd((double)op->divisor);
    __m128i lo = _mm256_cvttpd_epi32(_mm256_div_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(x)), d));
    __m128i hi = _mm256_cvttpd_epi32(_mm256_div_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(x, 1)), d));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

static inline int32_t clamp32(int64_t v)
{
    return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

/* Evaluate one assembled group and store its outputs at offsets / valid. */
static void run_group(const layout_plan *p, group *g, __m256i (*vv)[GROUP], int any_elem_check, int64_t *offsets,
                      uint8_t *valid)
{
    __m256i x[GROUP], y[GROUP];
    int nch = g->nch;
    for (int c = nch; c < GROUP; c++) { /* idle chunks: any in-range row, no output */
        g->slot[c] = 0;
        g->n[c] = 0;
        vv[p->n_top - 1][c] = _mm256_setzero_si256();
    }
    for (int i = 0; i < p->n_ops; i++) {
        const layout_plan_op *op = &p->ops[i];
        if (!op->per_element) continue;
        __m256i *res = vv[LAYOUT_MAX_DIMS + i];
        vexpr(p, op->in0, g, vv, x);
        if (op->kind == LAYOUT_PLAN_OP_DIV && op->mode == LAYOUT_PLAN_DIV_SHIFT) {
            const __m128i cnt = _mm_cvtsi32_si128(op->shift);
            EACH_CHUNK(res[c] = _mm256_srl_epi32(x[c], cnt));
        } else if (op->kind == LAYOUT_PLAN_OP_DIV) {
            EACH_CHUNK(res[c] = vdiv(op, x[c]));
        } else {
            vexpr(p, op->in1, g, vv, y);
            EACH_CHUNK(res[c] = _mm256_xor_si256(x[c], y[c]));
        }
    }
    vexpr(p, p->offset_expr, g, vv, x);
    size_t o = 0;
    for (int c = 0; c < nch; c++) {
        __m256i w0 = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(x[c]));
        __m256i w1 = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(x[c], 1));
        if (g->n[c] == 8) {
            _mm256_storeu_si256((__m256i *)(void *)(offsets + o), w0);
            _mm256_storeu_si256((__m256i *)(void *)(offsets + o + 4), w1);
        } else {
            int64_t tmp[8];
            _mm256_storeu_si256((__m256i *)(void *)tmp, w0);
            _mm256_storeu_si256((__m256i *)(void *)(tmp + 4), w1);
            memcpy(offsets + o, tmp, (size_t)g->n[c] * sizeof *tmp);
        }
        o += (size_t)g->n[c];
    }
    if (!valid) return;
    __m256i bad[GROUP];
    for (int c = 0; c < nch; c++) bad[c] = _mm256_setzero_si256();
    for (int ci = 0; any_elem_check && ci < p->n_checks; ci++) {
        const layout_plan_check *ch = &p->checks[ci];
        if (!ch->per_element) continue;
        vexpr(p, ch->expr, g, vv, y);
        const __m256i lo = _mm256_set1_epi32(clamp32(ch->lo)), hi = _mm256_set1_epi32(clamp32(ch->hi));
        for (int c = 0; c < nch; c++)
            bad[c] = _mm256_or_si256(bad[c], _mm256_or_si256(_mm256_cmpgt_epi32(lo, y[c]), _mm256_cmpgt_epi32(y[c], hi)));
    }
    o = 0;
    for (int c = 0; c < nch; c++) {
        unsigned bits = g->row_ok[g->slot[c]] ? ~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(bad[c])) & 0xffu : 0u;
        for (int j = 0; j < g->n[c]; j++) valid[o + (size_t)j] = (uint8_t)((bits >> j) & 1u);
        o += (size_t)g->n[c];
    }
}

/* Row parts of the next rows of a box walk, 8 rows at a time in the lanes of
 * one vector: the row-invariant ops and the row terms of every needed
 * expression are decoded once per 8 rows instead of once per row. */
typedef struct row_batch {
    int n;                                    /* rows in the batch */
    int pos;                                  /* next row to hand out */
    int32_t rb[LAYOUT_PLAN_MAX_EXPRS][8];     /* row base of expression e for row r */
    int ok[8];                                /* row-only checks pass */
    int64_t idx[LAYOUT_MAX_DIMS];             /* odometer of the next row to compute (dims < inner) */
} row_batch;

static void row_batch_fill(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t rows_left,
                           const int *list, int n_list, __m256i (*vv)[GROUP], row_batch *b)
{
    int inner = p->n_top - 1;
    int32_t rc[LAYOUT_MAX_DIMS][8];
    __m256i x[GROUP], y[GROUP];
    b->n = rows_left < 8 ? (int)rows_left : 8;
    b->pos = 0;
    for (int r = 0; r < 8; r++) {
        for (int d = 0; d < inner; d++) rc[d][r] = r < b->n ? (int32_t)(origin[d] + b->idx[d]) : rc[d][0];
        if (r < b->n)
            for (int d = inner - 1; d >= 0 && ++b->idx[d] == extent[d]; d--) b->idx[d] = 0;
    }
    /* the row variables in every chunk (chunks 1..7 repeat chunk 0: values stay in range) */
    for (int d = 0; d < inner; d++) {
        const __m256i r0 = _mm256_loadu_si256((const __m256i *)(const void *)rc[d]);
        EACH_CHUNK(vv[d][c] = r0);
    }
    for (int i = 0; i < p->n_ops; i++) {
        const layout_plan_op *op = &p->ops[i];
        if (op->per_element) continue;
        __m256i *res = vv[LAYOUT_MAX_DIMS + i];
        vexpr_all(p, op->in0, vv, x);
        if (op->kind == LAYOUT_PLAN_OP_DIV && op->mode == LAYOUT_PLAN_DIV_SHIFT) {
            const __m128i sh = _mm_cvtsi32_si128(op->shift);
            res[0] = _mm256_srl_epi32(x[0], sh);
        } else if (op->kind == LAYOUT_PLAN_OP_DIV) {
            res[0] = vdiv(op, x[0]);
        } else {
            vexpr_all(p, op->in1, vv, y);
            res[0] = _mm256_xor_si256(x[0], y[0]);
        }
        EACH_CHUNK(res[c] = res[0]);
    }
    for (int i = 0; i < n_list; i++) {
        const layout_plan_expr *e = &p->exprs[list[i]];
        const __m256i k = _mm256_set1_epi32(wrap32((uint64_t)e->constant));
        EACH_CHUNK(x[c] = k);
        vterms(p, e->first_term, e->first_term + e->n_row_terms, vv, x);
        _mm256_storeu_si256((__m256i *)(void *)b->rb[list[i]], x[0]);
    }
    for (int r = 0; r < 8; r++) b->ok[r] = 1;
    for (int ci = 0; ci < p->n_checks; ci++) {
        const layout_plan_check *ch = &p->checks[ci];
        if (ch->per_element) continue;
        for (int r = 0; r < b->n; r++) {
            int32_t val = b->rb[ch->expr][r];
            if (val < ch->lo || val > ch->hi) b->ok[r] = 0;
        }
    }
}

static void box_rows(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                     uint8_t *valid)
{
    __m256i vv[LAYOUT_PLAN_MAX_VARS][GROUP];
    group g;
    row_batch batch;
    int64_t idx[LAYOUT_MAX_DIMS] = {0}, rows_left = 1;
    int inner = p->n_top - 1, list[LAYOUT_PLAN_MAX_EXPRS];
    for (int d = 0; d < inner; d++) {
        rows_left *= extent[d];
        batch.idx[d] = 0;
    }
    batch.n = batch.pos = 0;
    const int few_rows = rows_left <= 2;
    int n_list = layout_plan_row_exprs(p, list);
    int64_t len = extent[inner];
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    int any_elem_check = 0;
    for (int c = 0; c < p->n_checks; c++) any_elem_check |= p->checks[c].per_element;
    size_t o = 0;
    int more_rows = 1, nslots = 0;
    int64_t k = len; /* position in the current row; len = row exhausted, fetch the next */
    int first = 1;
    g.nch = 0;
    while (more_rows) {
        if (k == len) { /* next row */
            if (!first) {
                int d = inner - 1;
                while (d >= 0 && ++idx[d] == extent[d]) idx[d--] = 0;
                if (d < 0) {
                    more_rows = 0;
                    break;
                }
            }
            first = 0;
            if (nslots == GROUP) { /* no slot left for a new row: flush */
                run_group(p, &g, vv, any_elem_check, offsets + o, valid ? valid + o : NULL);
                for (int c = 0; c < g.nch; c++) o += (size_t)g.n[c];
                g.nch = 0;
                nslots = 0;
            }
            if (few_rows) { /* one or two rows (e.g. the lanes of one instruction): scalar setup is cheaper */
                uint64_t v[LAYOUT_PLAN_MAX_VARS], rb[LAYOUT_PLAN_MAX_EXPRS];
                for (int d = 0; d < inner; d++) v[d] = (uint64_t)(origin[d] + idx[d]);
                g.row_ok[nslots] = layout_plan_row_setup(p, v, rb, list, n_list);
                for (int i = 0; i < n_list; i++) g.rb[nslots][list[i]] = wrap32(rb[list[i]]);
            } else {
                if (batch.pos == batch.n) {
                    row_batch_fill(p, origin, extent, rows_left, list, n_list, vv, &batch);
                    rows_left -= batch.n;
                }
                for (int i = 0; i < n_list; i++) g.rb[nslots][list[i]] = batch.rb[list[i]][batch.pos];
                g.row_ok[nslots] = batch.ok[batch.pos++];
            }
            nslots++;
            k = 0;
        }
        int c = g.nch;
        g.slot[c] = nslots - 1;
        g.n[c] = (int)(len - k < 8 ? len - k : 8);
        vv[inner][c] = _mm256_add_epi32(_mm256_set1_epi32((int32_t)(origin[inner] + k)), iota);
        k += g.n[c];
        g.nch++;
        if (g.nch == GROUP) {
            run_group(p, &g, vv, any_elem_check, offsets + o, valid ? valid + o : NULL);
            for (int cc = 0; cc < g.nch; cc++) o += (size_t)g.n[cc];
            /* keep the current row's base in slot 0 for its remaining chunks */
            if (nslots > 1 && k < len) {
                for (int i = 0; i < n_list; i++) g.rb[0][list[i]] = g.rb[nslots - 1][list[i]];
                g.row_ok[0] = g.row_ok[nslots - 1];
            }
            nslots = k < len ? 1 : 0;
            if (k == len) nslots = 0;
            g.nch = 0;
        }
    }
    if (g.nch) run_group(p, &g, vv, any_elem_check, offsets + o, valid ? valid + o : NULL);
}

/* Store n int32 results of chunk x as int64 at out. */
static inline void store_chunk(__m256i x, int n, int64_t *out)
{
    __m256i w0 = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(x));
    __m256i w1 = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(x, 1));
    if (n == 8) {
        _mm256_storeu_si256((__m256i *)(void *)out, w0);
        _mm256_storeu_si256((__m256i *)(void *)(out + 4), w1);
    } else {
        int64_t tmp[8];
        _mm256_storeu_si256((__m256i *)(void *)tmp, w0);
        _mm256_storeu_si256((__m256i *)(void *)(tmp + 4), w1);
        memcpy(out, tmp, (size_t)n * sizeof *tmp);
    }
}

/* Flat walk for boxes whose rows are short: 64 coordinates at a time in
 * row-major order, each lane with its own full coordinate; every op and
 * every term runs per lane (no scalar row setup, which would dominate). */
static void box_flat(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                     uint8_t *valid)
{
    __m256i vv[LAYOUT_PLAN_MAX_VARS][GROUP], x[GROUP], y[GROUP];
    int32_t coord[LAYOUT_MAX_DIMS][8 * GROUP];
    int64_t idx[LAYOUT_MAX_DIMS] = {0};
    int n = p->n_top;
    int64_t total = 1;
    for (int d = 0; d < n; d++) total *= extent[d];
    memset(coord, 0, sizeof coord); /* idle lanes: coordinate 0, in range */
    for (int64_t base = 0; base < total; base += 8 * GROUP) {
        int cnt = total - base < 8 * GROUP ? (int)(total - base) : 8 * GROUP;
        /* fill the lanes run by run of the last dim: the other dims are
         * constant along a run, the last one counts up */
        for (int l = 0; l < cnt;) {
            int run = (int)(extent[n - 1] - idx[n - 1]);
            if (run > cnt - l) run = cnt - l;
            for (int d = 0; d < n - 1; d++) {
                int32_t val = (int32_t)(origin[d] + idx[d]);
                for (int j = 0; j < run; j++) coord[d][l + j] = val;
            }
            int32_t first = (int32_t)(origin[n - 1] + idx[n - 1]);
            for (int j = 0; j < run; j++) coord[n - 1][l + j] = first + j;
            l += run;
            idx[n - 1] += run;
            for (int d = n - 1; d > 0 && idx[d] == extent[d]; d--) {
                idx[d] = 0;
                idx[d - 1]++;
            }
        }
        for (int d = 0; d < n; d++) EACH_CHUNK(vv[d][c] = _mm256_loadu_si256((const __m256i *)(const void *)&coord[d][8 * c]));
        for (int i = 0; i < p->n_ops; i++) {
            const layout_plan_op *op = &p->ops[i];
            __m256i *res = vv[LAYOUT_MAX_DIMS + i];
            vexpr_all(p, op->in0, vv, x);
            if (op->kind == LAYOUT_PLAN_OP_DIV && op->mode == LAYOUT_PLAN_DIV_SHIFT) {
                const __m128i sh = _mm_cvtsi32_si128(op->shift);
                EACH_CHUNK(res[c] = _mm256_srl_epi32(x[c], sh));
            } else if (op->kind == LAYOUT_PLAN_OP_DIV) {
                EACH_CHUNK(res[c] = vdiv(op, x[c]));
            } else {
                vexpr_all(p, op->in1, vv, y);
                EACH_CHUNK(res[c] = _mm256_xor_si256(x[c], y[c]));
            }
        }
        vexpr_all(p, p->offset_expr, vv, x);
        for (int c = 0; c * 8 < cnt; c++) store_chunk(x[c], cnt - 8 * c < 8 ? cnt - 8 * c : 8, offsets + base + 8 * c);
        if (!valid) continue;
        __m256i bad[GROUP];
        EACH_CHUNK(bad[c] = _mm256_setzero_si256());
        for (int ci = 0; ci < p->n_checks; ci++) {
            const layout_plan_check *ch = &p->checks[ci];
            vexpr_all(p, ch->expr, vv, y);
            const __m256i lo = _mm256_set1_epi32(clamp32(ch->lo)), hi = _mm256_set1_epi32(clamp32(ch->hi));
            EACH_CHUNK(bad[c] = _mm256_or_si256(bad[c], _mm256_or_si256(_mm256_cmpgt_epi32(lo, y[c]),
                                                                       _mm256_cmpgt_epi32(y[c], hi))));
        }
        for (int c = 0; c * 8 < cnt; c++) {
            unsigned bits = ~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(bad[c])) & 0xffu;
            for (int j = 0; j < 8 && 8 * c + j < cnt; j++) valid[base + 8 * c + j] = (uint8_t)((bits >> j) & 1u);
        }
    }
}

/* Rows shorter than this walk flat: per-row scalar setup would cost more
 * than evaluating the row-invariant part per lane. */
enum { FLAT_BELOW = 16 };

void layout_plan_box_avx2(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                          uint8_t *valid)
{
    if (extent[p->n_top - 1] < FLAT_BELOW)
        box_flat(p, origin, extent, offsets, valid);
    else
        box_rows(p, origin, extent, offsets, valid);
}

#else /* !__AVX2__ */

int layout_plan_avx2_compiled(void) { return 0; }

void layout_plan_box_avx2(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                          uint8_t *valid)
{
    (void)p;
    (void)origin;
    (void)extent;
    (void)offsets;
    (void)valid;
}

#endif
