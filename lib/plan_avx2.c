/* AVX2 box walk of a plan: 8 coordinates of a row per step in 32-bit lanes.
 * Compiled with -mavx2 on x86; elsewhere a stub that reports itself absent.
 * Only plans with fits_int32 come here: every op input, op result, check
 * input and offset is proven to fit int32, so affine parts computed modulo
 * 2^32 are exact, and a division in double precision is exact (|x| < 2^53). */
#include "plan_internal.h"

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
    uint64_t rb[GROUP][LAYOUT_PLAN_MAX_EXPRS];
    int row_ok[GROUP];
} group;

/* Per-element part of expression e for every chunk of the group: every term
 * is decoded once per group, not once per chunk. */
PLAN_INLINE void vexpr(const layout_plan *p, int e, const group *g, __m256i (*vv)[GROUP], __m256i *acc)
{
    const layout_plan_expr *x = &p->exprs[e];
    /* always all GROUP chunks (unused ones compute garbage that is never stored) */
    __m256i a0, a1, a2, a3, a4, a5, a6, a7;
    a0 = _mm256_set1_epi32(wrap32(g->rb[g->slot[0]][e]));
    a1 = _mm256_set1_epi32(wrap32(g->rb[g->slot[1]][e]));
    a2 = _mm256_set1_epi32(wrap32(g->rb[g->slot[2]][e]));
    a3 = _mm256_set1_epi32(wrap32(g->rb[g->slot[3]][e]));
    a4 = _mm256_set1_epi32(wrap32(g->rb[g->slot[4]][e]));
    a5 = _mm256_set1_epi32(wrap32(g->rb[g->slot[5]][e]));
    a6 = _mm256_set1_epi32(wrap32(g->rb[g->slot[6]][e]));
    a7 = _mm256_set1_epi32(wrap32(g->rb[g->slot[7]][e]));
#define UPD(OP)                                                                                         \
    do {                                                                                                \
        a0 = OP(a0, t[0]); a1 = OP(a1, t[1]); a2 = OP(a2, t[2]); a3 = OP(a3, t[3]);                     \
        a4 = OP(a4, t[4]); a5 = OP(a5, t[5]); a6 = OP(a6, t[6]); a7 = OP(a7, t[7]);                     \
    } while (0)
    for (int i = x->first_term + x->n_row_terms; i < x->first_term + x->n_terms; i++) {
        int64_t coef = p->term_coef[i];
        const __m256i *t = vv[p->term_var[i]];
        if (coef == 1) {
            UPD(_mm256_add_epi32);
        } else if (coef == -1) {
            UPD(_mm256_sub_epi32);
        } else if (coef > 0 && (coef & (coef - 1)) == 0) {
            int sh = 0;
            while (((int64_t)1 << sh) < coef) sh++;
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

void layout_plan_box_avx2(const layout_plan *p, const int64_t *origin, const int64_t *extent, int64_t *offsets,
                          uint8_t *valid)
{
    uint64_t v[LAYOUT_PLAN_MAX_VARS];
    __m256i vv[LAYOUT_PLAN_MAX_VARS][GROUP];
    group g;
    int64_t idx[LAYOUT_MAX_DIMS] = {0};
    int inner = p->n_top - 1, list[LAYOUT_PLAN_MAX_EXPRS];
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
            for (int d = 0; d < inner; d++) v[d] = (uint64_t)(origin[d] + idx[d]);
            g.row_ok[nslots] = layout_plan_row_setup(p, v, g.rb[nslots], list, n_list);
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
