/* Family 5: F2 swizzles of power-of-two tiles (suggest.h,
 * layout_suggest_build), built with linear.h, and their enumeration. */
#include "suggest_internal.h"
#include "../core/strbuf.h"
#include "../core/bits.h"
#include "layout/linear.h"

#include <string.h>

layout_status layout_suggest_f2_linear(const layout_family_params *params, const int64_t tile[2], layout_linear *out,
                                       layout_error *err)
{
    static const char fn[] = "layout_suggest_build";
    int cd = params->contiguous_dim;
    if (cd != 0 && cd != 1)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: contiguous_dim = %d must be 0 or 1", fn, cd);
    int64_t R = tile[1 - cd], C = tile[cd], vec = params->p[0];
    int rb = layout_log2_exact(R), cb = layout_log2_exact(C), vb = layout_log2_exact(vec);
    if (rb < 0 || cb < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: F2 swizzle: tile [%lld, %lld] is not a power of two in each dim",
                           fn, (long long)tile[0], (long long)tile[1]);
    if (rb + cb > 30)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: F2 swizzle: tile of 2^%d elements is too large", fn, rb + cb);
    if (vb < 0 || vec > C)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: F2 swizzle: vec = p[0] = %lld must be a power of two dividing %lld",
                           fn, (long long)vec, (long long)C);
    int g = cb - vb;
    if (g * rb > 62)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: F2 swizzle: %d x %d matrix does not fit 62 bits", fn, g, rb);
    if (params->p[2] != rb || params->p[3] != g)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: F2 swizzle: p[2] = %lld, p[3] = %lld must be rb = %d, g = %d", fn,
                           (long long)params->p[2], (long long)params->p[3], rb, g);
    uint64_t A = (uint64_t)params->p[1];
    if (params->p[1] < 0 || (A >> (g * rb)))
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: F2 swizzle: matrix p[1] = %lld has bits outside %d x %d", fn,
                           (long long)params->p[1], g, rb);
    /* bases: dims (dim0, dim1) = (rows, cols) or (cols, rows); out "offset" */
    int bits[2];
    bits[1 - cd] = rb;
    bits[cd] = cb;
    const char *ins[2] = {"dim0", "dim1"}, *outs[1] = {"offset"};
    int64_t b[64];
    int k = 0;
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < bits[d]; i++) {
            int64_t v;
            if (d == cd) {
                v = (int64_t)1 << i; /* column bit */
            } else {
                v = C << i;          /* row bit i, plus the group bits it flips */
                for (int j = 0; j < g; j++)
                    if ((A >> (j * rb + i)) & 1u) v ^= vec << j;
            }
            b[k++] = v;
        }
    int out_bits[1] = {rb + cb};
    return layout_linear_from_bases(out, 2, ins, bits, b, 1, outs, out_bits, err);
}

layout_status layout_suggest_build(const layout_family_params *params, const int64_t tile[2], layout_descriptor *out,
                                   layout_error *err)
{
    static const char fn[] = "layout_suggest_build";
    if (!params) return layout_fail(err, LAYOUT_ERR_NULL, "%s: params is NULL", fn);
    if (!tile) return layout_fail(err, LAYOUT_ERR_NULL, "%s: tile is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (params->kind != LAYOUT_FAMILY_F2) return layout_family_build(params, tile, out, err);
    layout_linear ll;
    layout_status s = layout_suggest_f2_linear(params, tile, &ll, err);
    if (s) return s;
    return layout_linear_to_desc(&ll, out, err);
}

int layout_suggest_params_print(const layout_family_params *params, char *buf, size_t cap)
{
    if (!params) return -1;
    if (params->kind != LAYOUT_FAMILY_F2) return layout_family_params_print(params, buf, cap);
    layout_strbuf t;
    layout_sb_init(&t, buf, cap);
    int rb = (int)params->p[2], g = (int)params->p[3];
    uint64_t A = (uint64_t)params->p[1];
    layout_sb_printf(&t, "F2 vec=%lld:", (long long)params->p[0]);
    if (!A) layout_sb_printf(&t, " identity");
    for (int j = 0; j < g; j++) {
        int any = 0;
        for (int i = 0; i < rb && j * rb + i < 64; i++)
            if ((A >> (j * rb + i)) & 1u) {
                layout_sb_printf(&t, any ? "^r%d" : " g%d^=r%d", any ? i : j, i);
                any = 1;
            }
    }
    return layout_sb_result(&t);
}

/* Mixed-radix digits (base rb + 1) of n -> the "one row bit per group bit" matrix. */
static uint64_t single_matrix(int64_t n, int g, int rb)
{
    uint64_t A = 0;
    for (int j = 0; j < g; j++) {
        int64_t d = n % (rb + 1);
        n /= rb + 1;
        if (d) A |= (uint64_t)1 << (j * rb + (int)(d - 1));
    }
    return A;
}

/* Matrices of the current vec: count and the n-th (n from 0). */
static int64_t f2_count(const layout_suggest_f2_iter *it)
{
    int g = it->g, rb = it->rb;
    if (g * rb > 62) return 0;
    if (g * rb <= 12) return ((int64_t)1 << (g * rb)) - 1; /* A = 1 .. 2^(g rb) - 1 */
    int64_t n = 1;
    for (int j = 0; j < g && n <= 20000; j++) n *= rb + 1;
    if (n <= 20000) return n - 1;                           /* skip all-zero */
    return rb;                                              /* diagonals s = 0 .. rb-1 */
}

static uint64_t f2_matrix(const layout_suggest_f2_iter *it, int64_t n)
{
    int g = it->g, rb = it->rb;
    if (g * rb <= 12) return (uint64_t)(n + 1);
    int64_t m = 1;
    for (int j = 0; j < g && m <= 20000; j++) m *= rb + 1;
    if (m <= 20000) return single_matrix(n + 1, g, rb);
    uint64_t A = 0;
    for (int j = 0; j < g && j + n < rb; j++) A |= (uint64_t)1 << (j * rb + (int)(j + n));
    return A;
}

void layout_suggest_f2_iter_init(layout_suggest_f2_iter *it, const int64_t tile[2], int contiguous_dim)
{
    memset(it, 0, sizeof *it);
    it->cd = contiguous_dim;
    it->R = tile[1 - contiguous_dim];
    it->C = tile[contiguous_dim];
    it->rb = layout_log2_exact(it->R);
    it->cb = layout_log2_exact(it->C);
    if (it->rb < 1 || it->cb < 1 || it->rb + it->cb > 30 || it->rb > 12) {
        it->done = 1;
        return;
    }
    it->vec = it->C / 2;
    it->g = 1;
    it->n = -1; /* -1: the identity, produced once */
}

int layout_suggest_f2_iter_next(layout_suggest_f2_iter *it, layout_family_params *out)
{
    while (!it->done) {
        uint64_t A;
        if (it->n < 0) {
            A = 0;
            it->n = 0;
        } else if (it->n < f2_count(it)) {
            A = f2_matrix(it, it->n);
            it->n++;
        } else {
            if (it->vec == 1) {
                it->done = 1;
                break;
            }
            it->vec /= 2;
            it->g++;
            it->n = 0;
            continue;
        }
        memset(out, 0, sizeof *out);
        out->kind = LAYOUT_FAMILY_F2;
        out->contiguous_dim = it->cd;
        out->p[0] = it->vec;
        out->p[1] = (int64_t)A;
        out->p[2] = it->rb;
        out->p[3] = it->g;
        it->produced++;
        return 1;
    }
    return 0;
}
