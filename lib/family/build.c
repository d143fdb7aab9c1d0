/* Layout families: the ck_tile construction of a parameter set.  Every
 * family is built from the ordinary transform constructors, so its
 * descriptor is checked, planned and printed like any other. */
#include "family_internal.h"

#include <stdio.h>
#include <string.h>

/* --- construction -------------------------------------------------------------- */

/* One transform_tensor_descriptor call being assembled. */
typedef struct stage {
    int n;
    layout_status status;
    layout_transform t[LAYOUT_MAX_DIMS];
    layout_seq lo[LAYOUT_MAX_DIMS], up[LAYOUT_MAX_DIMS];
} stage;

static void st_init(stage *s) { memset(s, 0, sizeof *s); }

static void st_push(stage *s, layout_status made, int nlo, const int *lo, int nup, const int *up)
{
    if (made && !s->status) s->status = made;
    s->lo[s->n] = layout_seq_from(nlo, lo);
    s->up[s->n] = layout_seq_from(nup, up);
    s->n++;
}

static void st_pass(stage *s, int64_t len, int lo, int up, layout_error *err)
{
    layout_status m = layout_make_pass_through(len, &s->t[s->n], err);
    st_push(s, m, 1, &lo, 1, &up);
}

static void st_xor(stage *s, int64_t l0, int64_t l1, int id0, int id1, layout_error *err)
{
    int ids[2] = {id0, id1};
    layout_status m = layout_make_xor(l0, l1, &s->t[s->n], err);
    st_push(s, m, 2, ids, 2, ids);
}

static void st_merge(stage *s, int n, const int64_t *lens, const int *lo, int up, layout_error *err)
{
    layout_status m = layout_make_merge(n, lens, &s->t[s->n], err);
    st_push(s, m, n, lo, 1, &up);
}

static void st_unmerge(stage *s, int n, const int64_t *lens, int lo, const int *up, layout_error *err)
{
    layout_status m = layout_make_unmerge(n, lens, &s->t[s->n], err);
    st_push(s, m, 1, &lo, n, up);
}

static layout_status st_apply(layout_descriptor *d, const stage *s, layout_error *err)
{
    if (s->status) return s->status;
    return layout_transform_descriptor(d, d, s->n, s->t, s->lo, s->up, err);
}

/* Storage [R, C] with one pad of `pad` elements after every N rows (N = 0: none) and row pitch S. */
static layout_status build_rows(layout_descriptor *d, int64_t R, int64_t C, int64_t S, int64_t N, int64_t pad,
                                int64_t vec, layout_error *err)
{
    if (N <= 0) {
        int64_t len[2] = {R, C}, str[2] = {S, 1};
        return vec > 0 ? layout_naive_vec(d, 2, len, str, vec, 1, err) : layout_naive(d, 2, len, str, err);
    }
    int64_t len[3] = {R / N, N, C}, str[3] = {N * S + pad, S, 1};
    layout_status s = vec > 0 ? layout_naive_vec(d, 3, len, str, vec, 1, err) : layout_naive(d, 3, len, str, err);
    if (s) return s;
    stage st;
    st_init(&st);
    int64_t rn[2] = {R / N, N};
    int lo[2] = {0, 1};
    st_merge(&st, 2, rn, lo, 0, err);
    st_pass(&st, C, 2, 1, err);
    return st_apply(d, &st, err);
}

/* Row-wise XOR (Triton swizzled_shared, IREE xor_shuffle): the column
 * group (c / w) % P is xored with (r / pp) % P; groups of w elements move
 * whole.  Storage pitch S, optional pad of `pad` after every N rows. */
static layout_status build_row_xor(layout_descriptor *d, int64_t R, int64_t C, int64_t S, int64_t N, int64_t pad,
                                   int64_t pp, int64_t P, int64_t w, layout_error *err)
{
    layout_status s;
    stage st;
    const int64_t rh = R / pp, gh = C / (w * P);
    if (N <= 0) {
        int64_t len[5] = {rh, pp, gh, P, w}, str[5] = {pp * S, S, P * w, w, 1};
        if ((s = layout_naive_vec(d, 5, len, str, w, 1, err))) return s;
    } else {
        if ((s = build_rows(d, R, C, S, N, pad, w, err))) return s;
        st_init(&st);
        int64_t rl[2] = {rh, pp}, cl[3] = {gh, P, w};
        int up0[2] = {0, 1}, up1[3] = {2, 3, 4};
        st_unmerge(&st, 2, rl, 0, up0, err);
        st_unmerge(&st, 3, cl, 1, up1, err);
        if ((s = st_apply(d, &st, err))) return s;
    }
    st_init(&st);
    st_xor(&st, rh, P, 0, 3, err);
    st_pass(&st, pp, 1, 1, err);
    st_pass(&st, gh, 2, 2, err);
    st_pass(&st, w, 4, 4, err);
    if ((s = st_apply(d, &st, err))) return s;
    st_init(&st);
    int64_t rl[2] = {rh, pp}, cl[3] = {gh, P, w};
    int lo0[2] = {0, 1}, lo1[3] = {2, 3, 4};
    st_merge(&st, 2, rl, lo0, 0, err);
    st_merge(&st, 3, cl, lo1, 1, err);
    return st_apply(d, &st, err);
}

/* Seed kernel 08's four ck_tile steps, generalised; pad after every N rows (N a multiple of L). */
static layout_status build_ck_xor(layout_descriptor *d, int64_t R, int64_t C, const int64_t *p, int64_t N,
                                  int64_t pad, layout_error *err)
{
    const int64_t kp = p[0], L = p[1], row_mul = p[2] > 0 ? p[2] : 1;
    const int64_t K0 = C / kp, A = K0 * L, B = R / L;
    const int64_t g = N > 0 ? N / L : 1;
    layout_status s;
    stage st;
    if (g <= 1) {
        int64_t len[3] = {A, B, kp}, str[3] = {kp, C * L + (N > 0 ? pad : 0), 1};
        if ((s = layout_naive_vec(d, 3, len, str, kp, 1, err))) return s;
    } else {
        int64_t len[4] = {A, B / g, g, kp}, str[4] = {kp, N * C + pad, C * L, 1};
        if ((s = layout_naive_vec(d, 4, len, str, kp, 1, err))) return s;
        st_init(&st);
        int64_t bg[2] = {B / g, g};
        int lo[2] = {1, 2};
        st_pass(&st, A, 0, 0, err);
        st_merge(&st, 2, bg, lo, 1, err);
        st_pass(&st, kp, 3, 2, err);
        if ((s = st_apply(d, &st, err))) return s;
    }
    /* K0' = K0 ^ (M % (KPerBlock / KPack * MLdsLayer)): xor(B * RowMul, A) on (B, A) */
    st_init(&st);
    st_xor(&st, B * row_mul, A, 1, 0, err);
    st_pass(&st, kp, 2, 2, err);
    if ((s = st_apply(d, &st, err))) return s;
    /* A -> (L, K0) */
    st_init(&st);
    int64_t lk[2] = {L, K0};
    int up0[2] = {1, 2};
    st_unmerge(&st, 2, lk, 0, up0, err);
    st_pass(&st, B, 1, 0, err);
    st_pass(&st, kp, 2, 3, err);
    if ((s = st_apply(d, &st, err))) return s;
    /* (B, L) -> M, (K0, KPack) -> K */
    st_init(&st);
    int64_t bl[2] = {B, L}, kc[2] = {K0, kp};
    int lo0[2] = {0, 1}, lo1[2] = {2, 3};
    st_merge(&st, 2, bl, lo0, 0, err);
    st_merge(&st, 2, kc, lo1, 1, err);
    return st_apply(d, &st, err);
}

/* CuTe Swizzle<B, M, S> on the row-major element offset; pad after every N rows. */
static layout_status build_cute(layout_descriptor *d, int64_t R, int64_t C, const int64_t *p, int64_t N,
                                int64_t pad, layout_error *err)
{
    int64_t B, M, S;
    fam_cute_elem(p, &B, &M, &S);
    if (B == 0) { /* the identity swizzle */
        if (N > 0) return build_rows(d, R, C, C, N, pad, -1, err);
        int64_t len[2] = {R, C};
        return layout_packed(d, 2, len, err);
    }
    const int64_t T = R * C, aS = fam_abs64(S);
    const int64_t Bk = (int64_t)1 << (M + aS + B);
    /* fields, most significant first: hi, f1, mid, f3, lo */
    int64_t f[5] = {T / Bk, (int64_t)1 << B, (int64_t)1 << (aS - B), (int64_t)1 << B, (int64_t)1 << M};
    const int y = S > 0 ? 1 : 3, z = S > 0 ? 3 : 1; /* yyy: source bits; zzz: bits that get xored */
    layout_status s;
    stage st;
    if (N <= 0) {
        if ((s = layout_packed(d, 5, f, err))) return s;
    } else {
        const int64_t h2 = N * C / Bk, h1 = f[0] / h2;
        int64_t len[6] = {h1, h2, f[1], f[2], f[3], f[4]};
        int64_t str[6] = {N * C + pad, Bk, f[2] * f[3] * f[4], f[3] * f[4], f[4], 1};
        if ((s = layout_naive_vec(d, 6, len, str, f[4], 1, err))) return s;
        st_init(&st);
        int64_t hh[2] = {h1, h2};
        int lo[2] = {0, 1};
        st_merge(&st, 2, hh, lo, 0, err);
        for (int i = 1; i < 5; i++) st_pass(&st, f[i], i + 1, i, err);
        if ((s = st_apply(d, &st, err))) return s;
    }
    /* zzz' = zzz ^ (yyy % 2^B): ck_tile xor(l0, l1) on (yyy, zzz) */
    st_init(&st);
    st_xor(&st, f[y], f[z], y, z, err);
    for (int i = 0; i < 5; i++)
        if (i != y && i != z) st_pass(&st, f[i], i, i, err);
    if ((s = st_apply(d, &st, err))) return s;
    /* fields -> offset o */
    st_init(&st);
    int lo5[5] = {0, 1, 2, 3, 4};
    st_merge(&st, 5, f, lo5, 0, err);
    if ((s = st_apply(d, &st, err))) return s;
    /* o -> (r, c) */
    st_init(&st);
    int64_t rc[2] = {R, C};
    int up2[2] = {0, 1};
    st_unmerge(&st, 2, rc, 0, up2, err);
    return st_apply(d, &st, err);
}

static layout_status build_kind(layout_descriptor *d, layout_family_kind kind, const int64_t *p, int64_t R, int64_t C,
                                int64_t N, int64_t pad, layout_error *err)
{
    switch (kind) {
    case LAYOUT_FAMILY_PAD:
        return build_rows(d, R, C, C + p[0], 0, 0, -1, err);
    case LAYOUT_FAMILY_PAD_EVERY:
        return build_rows(d, R, C, C, p[0], p[1], -1, err);
    case LAYOUT_FAMILY_CK_XOR:
        return build_ck_xor(d, R, C, p, N, pad, err);
    case LAYOUT_FAMILY_CUTE_SWIZZLE:
        return build_cute(d, R, C, p, N, pad, err);
    case LAYOUT_FAMILY_TRITON_SWIZZLED: {
        int64_t vec = p[0] < C ? p[0] : C;
        int64_t P = p[2] < C / vec ? p[2] : C / vec;
        int64_t pp = p[1] < R ? p[1] : R;
        return build_row_xor(d, R, C, C, N, pad, pp, P, vec, err);
    }
    default: { /* LAYOUT_FAMILY_IREE_XOR_SHUFFLE (layout_family_check_params admits nothing else) */
        int64_t pp = p[3] < R ? p[3] : R;
        return build_row_xor(d, R, C, p[2], N, pad, pp, C / p[1], p[1], err);
    }
    }
}

layout_status layout_family_build(const layout_family_params *params, const int64_t tile[2], layout_descriptor *out,
                                  layout_error *err)
{
    static const char fn[] = "layout_family_build";
    layout_status s = layout_family_check_params(fn, params, tile, err);
    if (s) return s;
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    int64_t R, C;
    fam_tile_rc(tile, params->contiguous_dim, &R, &C);
    layout_descriptor d;
    if (params->kind == LAYOUT_FAMILY_XOR_PAD)
        s = build_kind(&d, params->xor_kind, params->p, R, C, params->pad_rows, params->pad, err);
    else
        s = build_kind(&d, params->kind, params->p, R, C, 0, 0, err);
    if (s) return s;
    if (params->contiguous_dim == 0) { /* top (r, c) -> (d0, d1) = (c, r) */
        stage st;
        st_init(&st);
        st_pass(&st, R, 0, 1, err);
        st_pass(&st, C, 1, 0, err);
        if ((s = st_apply(&d, &st, err))) return s;
    }
    *out = d;
    return layout_ok(err);
}
