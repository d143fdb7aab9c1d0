/* Layout families (family.h): legality, ck_tile construction, LDS bytes,
 * native spelling and the heap-free enumeration of every legal parameter
 * set.  Every family is built from the ordinary transform constructors, so
 * its descriptor is checked, planned and printed like any other. */
#include "../internal.h"
#include "layout/family.h"
#include "suggest_internal.h"

#include <stdio.h>
#include <string.h>

#define FAM_MAX_TILE ((int64_t)1 << 40)
#define FAM_MAX_PAD ((int64_t)1 << 30)
#define FAM_MAX_BITS 30

static const char *const family_names[LAYOUT_FAMILY_COUNT] = {
    "pad", "pad_every", "ck_xor", "cute_swizzle", "triton_swizzled", "iree_xor_shuffle", "xor_pad", "f2"};

const char *layout_family_name(layout_family_kind kind)
{
    return (int)kind >= 0 && kind < LAYOUT_FAMILY_COUNT ? family_names[kind] : "?";
}

layout_status layout_family_from_name(const char *name, layout_family_kind *out, layout_error *err)
{
    if (!name) return layout_fail(err, LAYOUT_ERR_NULL, "layout_family_from_name: name is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_family_from_name: out is NULL");
    for (int k = 0; k < LAYOUT_FAMILY_COUNT; k++)
        if (strcmp(family_names[k], name) == 0) {
            *out = (layout_family_kind)k;
            return layout_ok(err);
        }
    return layout_fail(err, LAYOUT_ERR_NOT_FOUND,
                       "layout_family_from_name: name = \"%.40s\" is unknown (known: pad, pad_every, ck_xor, "
                       "cute_swizzle, triton_swizzled, iree_xor_shuffle, xor_pad, f2)",
                       name);
}

/* --- small arithmetic ------------------------------------------------------ */

static int is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

static int log2_exact(int64_t x)
{
    int b = 0;
    while (((int64_t)1 << b) < x) b++;
    return b;
}

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* Rows R and columns C of the tile in storage order. */
static void tile_rc(const int64_t tile[2], int contiguous_dim, int64_t *R, int64_t *C)
{
    *C = tile[contiguous_dim];
    *R = tile[1 - contiguous_dim];
}

static layout_status check_tile(const char *fn, const int64_t tile[2], int contiguous_dim, layout_error *err)
{
    for (int i = 0; i < 2; i++)
        if (tile[i] < 1 || tile[i] > FAM_MAX_TILE)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: tile[%d] = %lld must be in 1..2^40", fn, i,
                               (long long)tile[i]);
    if (tile[0] > FAM_MAX_TILE / tile[1])
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: tile %lld x %lld has more than 2^40 elements", fn,
                           (long long)tile[0], (long long)tile[1]);
    if (contiguous_dim != 0 && contiguous_dim != 1)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: contiguous_dim = %d must be 0 or 1", fn, contiguous_dim);
    return LAYOUT_OK;
}

/* --- legality ---------------------------------------------------------------- */

static int is_xor_kind(layout_family_kind k)
{
    return k == LAYOUT_FAMILY_CK_XOR || k == LAYOUT_FAMILY_CUTE_SWIZZLE || k == LAYOUT_FAMILY_TRITON_SWIZZLED ||
           k == LAYOUT_FAMILY_IREE_XOR_SHUFFLE;
}

static layout_status check_pad_value(const char *fn, const char *what, int64_t pad, layout_error *err)
{
    if (pad < 0 || pad > FAM_MAX_PAD)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s = %lld must be in 0..2^30", fn, what, (long long)pad);
    return LAYOUT_OK;
}

/* Element-offset CuTe parameters (byte form converted): B, M, S. */
static void cute_elem(const int64_t *p, int64_t *B, int64_t *M, int64_t *S)
{
    *B = p[0];
    *S = p[2];
    *M = p[3] > 0 ? p[1] - log2_exact(p[3]) : p[1];
}

/* Rules of one XOR kind (or PAD / PAD_EVERY) on an R x C storage. */
static layout_status check_kind(const char *fn, layout_family_kind kind, const int64_t *p, int64_t R, int64_t C,
                                layout_error *err)
{
    switch (kind) {
    case LAYOUT_FAMILY_PAD:
        return check_pad_value(fn, "p[0] (pad)", p[0], err);
    case LAYOUT_FAMILY_PAD_EVERY:
        if (p[0] < 1 || R % p[0] != 0)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[0] (rows) = %lld must be >= 1 and divide the rows (%lld)",
                               fn, (long long)p[0], (long long)R);
        return check_pad_value(fn, "p[1] (pad)", p[1], err);
    case LAYOUT_FAMILY_CK_XOR:
        if (p[0] < 1 || C % p[0] != 0)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: p[0] (kpack) = %lld must be >= 1 and divide the columns (KPerBlock = %lld)", fn,
                               (long long)p[0], (long long)C);
        if (p[1] < 1 || R % p[1] != 0)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: p[1] (mlds_layer) = %lld must be >= 1 and divide the rows (%lld)", fn,
                               (long long)p[1], (long long)R);
        if (!is_pow2(C / p[0] * p[1]))
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: KPerBlock/KPack*MLdsLayer = %lld/%lld*%lld = %lld must be a power of two (else "
                               "the xor leaves [0, A) and is no bijection)",
                               fn, (long long)C, (long long)p[0], (long long)p[1], (long long)(C / p[0] * p[1]));
        if (p[2] < 0 || p[2] > FAM_MAX_TILE)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[2] (row_mul) = %lld must be in 0..2^40 (0 = 1)", fn,
                               (long long)p[2]);
        {
            /* the xor stage's top is (B * RowMul, A) next to KPack: its
             * lengths multiply to rows * columns * RowMul (found by
             * fuzz_family: RowMul 2^31 on a 2^31 x 32 tile) */
            int64_t rc, all;
            if (layout_mul_overflow(R, C, &rc) || layout_mul_overflow(rc, p[2] > 0 ? p[2] : 1, &all))
                return layout_fail(err, LAYOUT_ERR_ARG,
                                   "%s: p[2] (row_mul) = %lld: rows x columns x row_mul = %lld x %lld x %lld overflows "
                                   "int64",
                                   fn, (long long)p[2], (long long)R, (long long)C, (long long)p[2]);
        }
        return LAYOUT_OK;
    case LAYOUT_FAMILY_CUTE_SWIZZLE: {
        if (p[0] < 0 || p[0] > FAM_MAX_BITS)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[0] (B) = %lld must be in 0..30", fn, (long long)p[0]);
        if (p[1] < 0 || p[1] > FAM_MAX_BITS)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[1] (M) = %lld must be in 0..30", fn, (long long)p[1]);
        if (p[2] < -FAM_MAX_BITS || p[2] > FAM_MAX_BITS || abs64(p[2]) < p[0])
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[2] (S) = %lld must satisfy B = %lld <= |S| <= 30", fn,
                               (long long)p[2], (long long)p[0]);
        if (p[3] != 0 && (!is_pow2(p[3]) || p[3] > 16 || ((int64_t)1 << p[1]) < p[3]))
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: p[3] (byte_elem) = %lld must be 0 or a power of two <= 16 and <= 2^M = %lld", fn,
                               (long long)p[3], (long long)((int64_t)1 << p[1]));
        int64_t B, M, S;
        cute_elem(p, &B, &M, &S);
        if (B > 0) {
            int bits = (int)(M + abs64(S) + B);
            if (bits > 40 || (R * C) % ((int64_t)1 << bits) != 0)
                return layout_fail(err, LAYOUT_ERR_ARG,
                                   "%s: Swizzle<%lld,%lld,%lld> (element form) touches bit %d but the tile has %lld "
                                   "elements (2^(M+|S|+B) must divide it)",
                                   fn, (long long)B, (long long)M, (long long)S, bits - 1, (long long)(R * C));
        }
        return LAYOUT_OK;
    }
    case LAYOUT_FAMILY_TRITON_SWIZZLED:
        if (!is_pow2(p[0]) || p[0] > FAM_MAX_TILE)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[0] (vec) = %lld must be a power of two", fn,
                               (long long)p[0]);
        if (!is_pow2(p[1]) || p[1] > FAM_MAX_TILE)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[1] (perPhase) = %lld must be a power of two", fn,
                               (long long)p[1]);
        if (!is_pow2(p[2]) || p[2] > FAM_MAX_TILE)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[2] (maxPhase) = %lld must be a power of two", fn,
                               (long long)p[2]);
        if (!is_pow2(C))
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: swizzled_shared needs a power-of-two contiguous length, got %lld", fn,
                               (long long)C);
        if (p[1] < R && R % p[1] != 0)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[1] (perPhase) = %lld must divide the rows (%lld) or be >= them",
                               fn, (long long)p[1], (long long)R);
        return LAYOUT_OK;
    default: /* LAYOUT_FAMILY_IREE_XOR_SHUFFLE: callers pass only family kinds with rules */
        if (p[0] != C)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[0] (row_width) = %lld must equal the contiguous length %lld",
                               fn, (long long)p[0], (long long)C);
        if (p[1] < 1 || C % p[1] != 0 || !is_pow2(C / p[1]))
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: p[1] (access_width) = %lld must divide row_width = %lld into a power-of-two "
                               "number of groups",
                               fn, (long long)p[1], (long long)C);
        if (p[2] < C || p[2] - C > FAM_MAX_PAD)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[2] (row_stride) = %lld must be in row_width .. row_width + 2^30",
                               fn, (long long)p[2]);
        if (p[3] < 1 || (p[3] < R && R % p[3] != 0))
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: p[3] (per_phase) = %lld must be >= 1 and divide the rows (%lld) or be >= them", fn,
                               (long long)p[3], (long long)R);
        if (p[3] > FAM_MAX_TILE)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[3] (per_phase) = %lld is above 2^40", fn, (long long)p[3]);
        return LAYOUT_OK;
    }
}

static layout_status check_params_shape(const char *fn, const layout_family_params *pr, const int64_t tile[2],
                                        layout_error *err)
{
    layout_status s;
    if (!pr) return layout_fail(err, LAYOUT_ERR_NULL, "%s: params is NULL", fn);
    if (!tile) return layout_fail(err, LAYOUT_ERR_NULL, "%s: tile is NULL", fn);
    if ((int)pr->kind < 0 || pr->kind >= LAYOUT_FAMILY_COUNT)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: kind = %d is not a layout_family_kind", fn, (int)pr->kind);
    if (pr->kind == LAYOUT_FAMILY_F2)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: kind f2 (constructive F2 swizzle) is built by the suggest module, not here", fn);
    if ((s = check_tile(fn, tile, pr->contiguous_dim, err))) return s;
    int64_t R, C;
    tile_rc(tile, pr->contiguous_dim, &R, &C);
    if (pr->kind != LAYOUT_FAMILY_XOR_PAD) return check_kind(fn, pr->kind, pr->p, R, C, err);

    if (!is_xor_kind(pr->xor_kind))
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "%s: xor_kind = %d (%s) must be ck_xor, cute_swizzle, triton_swizzled or iree_xor_shuffle",
                           fn, (int)pr->xor_kind, layout_family_name(pr->xor_kind));
    if ((s = check_kind(fn, pr->xor_kind, pr->p, R, C, err))) return s;
    if ((s = check_pad_value(fn, "pad", pr->pad, err))) return s;
    if (pr->pad_rows < 1 || R % pr->pad_rows != 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: pad_rows = %lld must be >= 1 and divide the rows (%lld)", fn,
                           (long long)pr->pad_rows, (long long)R);
    if (pr->xor_kind == LAYOUT_FAMILY_CK_XOR && pr->pad_rows % pr->p[1] != 0)
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "%s: pad_rows = %lld must be a multiple of MLdsLayer = %lld (the xor permutes L rows together)",
                           fn, (long long)pr->pad_rows, (long long)pr->p[1]);
    if (pr->xor_kind == LAYOUT_FAMILY_CUTE_SWIZZLE) {
        int64_t B, M, S;
        cute_elem(pr->p, &B, &M, &S);
        int bits = (int)(M + abs64(S) + B);
        if (B > 0 && (pr->pad_rows * C) % ((int64_t)1 << bits) != 0)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: pad_rows * C = %lld must be a multiple of 2^(M+|S|+B) = %lld (the swizzle must not "
                               "cross a pad)",
                               fn, (long long)(pr->pad_rows * C), (long long)((int64_t)1 << bits));
    }
    return LAYOUT_OK;
}

/* The element space (space_elems() below) with every product and sum
 * checked: a legal set must have one that fits int64 with room for 16-byte
 * elements, or its descriptor cannot be built and its LDS bytes not be
 * counted (found by fuzz_family: pad 2^24 - 1 after every row of a
 * 9 * 10^11-row tile). */
static int space_elems_checked(const layout_family_params *pr, int64_t R, int64_t C, int64_t *out)
{
    int64_t T, extra = 0, t, rows_pad = 0, pad = 0, e;
    if (layout_mul_overflow(R, C, &T)) return 1;
    switch (pr->kind) {
    case LAYOUT_FAMILY_PAD: rows_pad = R - 1; pad = pr->p[0]; break;
    case LAYOUT_FAMILY_PAD_EVERY: rows_pad = R / pr->p[0] - 1; pad = pr->p[1]; break;
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE: rows_pad = R - 1; pad = pr->p[2] - C; break;
    case LAYOUT_FAMILY_XOR_PAD:
        rows_pad = R / pr->pad_rows - 1;
        pad = pr->pad;
        if (pr->xor_kind == LAYOUT_FAMILY_IREE_XOR_SHUFFLE &&
            (layout_mul_overflow(R - 1, pr->p[2] - C, &extra)))
            return 1;
        break;
    default: break;
    }
    if (layout_mul_overflow(rows_pad, pad, &t) || layout_add_overflow(extra, t, &e) || layout_add_overflow(T, e, &t))
        return 1;
    if (t > INT64_MAX / 16) return 1;
    *out = t;
    return 0;
}

static layout_status check_params(const char *fn, const layout_family_params *pr, const int64_t tile[2],
                                  layout_error *err)
{
    layout_status s = check_params_shape(fn, pr, tile, err);
    if (s) return s;
    int64_t R, C, space;
    tile_rc(tile, pr->contiguous_dim, &R, &C);
    if (space_elems_checked(pr, R, C, &space))
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "%s: the LDS element space of this set on a %lld x %lld tile overflows int64 (16-byte "
                           "elements included)",
                           fn, (long long)tile[0], (long long)tile[1]);
    return LAYOUT_OK;
}

layout_status layout_family_check(const layout_family_params *params, const int64_t tile[2], layout_error *err)
{
    layout_status s = check_params("layout_family_check", params, tile, err);
    return s ? s : layout_ok(err);
}

/* --- LDS bytes --------------------------------------------------------------- */

static int64_t space_elems(const layout_family_params *pr, int64_t R, int64_t C)
{
    int64_t T = R * C;
    switch (pr->kind) {
    case LAYOUT_FAMILY_PAD: return T + (R - 1) * pr->p[0];
    case LAYOUT_FAMILY_PAD_EVERY: return T + (R / pr->p[0] - 1) * pr->p[1];
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE: return T + (R - 1) * (pr->p[2] - C);
    case LAYOUT_FAMILY_XOR_PAD: {
        int64_t extra = (R / pr->pad_rows - 1) * pr->pad;
        if (pr->xor_kind == LAYOUT_FAMILY_IREE_XOR_SHUFFLE) extra += (R - 1) * (pr->p[2] - C);
        return T + extra;
    }
    default: return T;
    }
}

layout_status layout_family_lds_bytes(const layout_family_params *params, const int64_t tile[2], int elem_bytes,
                                      int64_t *bytes, layout_error *err)
{
    layout_status s = check_params("layout_family_lds_bytes", params, tile, err);
    if (s) return s;
    if (!bytes) return layout_fail(err, LAYOUT_ERR_NULL, "layout_family_lds_bytes: bytes is NULL");
    if (elem_bytes < 1 || elem_bytes > 16)
        return layout_fail(err, LAYOUT_ERR_ARG, "layout_family_lds_bytes: elem_bytes = %d must be in 1..16",
                           elem_bytes);
    int64_t R, C;
    tile_rc(tile, params->contiguous_dim, &R, &C);
    *bytes = space_elems(params, R, C) * elem_bytes;
    return layout_ok(err);
}

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
    cute_elem(p, &B, &M, &S);
    if (B == 0) { /* the identity swizzle */
        if (N > 0) return build_rows(d, R, C, C, N, pad, -1, err);
        int64_t len[2] = {R, C};
        return layout_packed(d, 2, len, err);
    }
    const int64_t T = R * C, aS = abs64(S);
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
    default: { /* LAYOUT_FAMILY_IREE_XOR_SHUFFLE (check_params admits nothing else) */
        int64_t pp = p[3] < R ? p[3] : R;
        return build_row_xor(d, R, C, p[2], N, pad, pp, C / p[1], p[1], err);
    }
    }
}

layout_status layout_family_build(const layout_family_params *params, const int64_t tile[2], layout_descriptor *out,
                                  layout_error *err)
{
    static const char fn[] = "layout_family_build";
    layout_status s = check_params(fn, params, tile, err);
    if (s) return s;
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    int64_t R, C;
    tile_rc(tile, params->contiguous_dim, &R, &C);
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

/* --- closed forms -------------------------------------------------------------- */

static int64_t base_offset(layout_family_kind kind, const int64_t *p, int64_t C, int64_t r, int64_t c)
{
    switch (kind) {
    case LAYOUT_FAMILY_PAD: return r * (C + p[0]) + c;
    case LAYOUT_FAMILY_PAD_EVERY: return r * C + (r / p[0]) * p[1] + c;
    case LAYOUT_FAMILY_CK_XOR: {
        const int64_t kp = p[0], L = p[1], K0 = C / kp, A = K0 * L;
        const int64_t B = r / L, a = (r % L) * K0 + c / kp;
        return B * C * L + (a ^ (B % A)) * kp + c % kp;
    }
    case LAYOUT_FAMILY_CUTE_SWIZZLE: {
        int64_t B, M, S;
        cute_elem(p, &B, &M, &S);
        const int64_t o = r * C + c;
        if (B == 0) return o;
        const int64_t aS = abs64(S), msk = ((int64_t)1 << B) - 1;
        return S > 0 ? o ^ (((o >> (M + S)) & msk) << M) : o ^ (((o >> M) & msk) << (M + aS));
    }
    case LAYOUT_FAMILY_TRITON_SWIZZLED: {
        const int64_t vec = p[0] < C ? p[0] : C, P = p[2] < C / vec ? p[2] : C / vec;
        const int64_t ph = (r / p[1]) % P;
        return r * C + (((c / vec) ^ ph) * vec) + c % vec;
    }
    default: { /* LAYOUT_FAMILY_IREE_XOR_SHUFFLE */
        const int64_t aw = p[1], ph = (r / p[3]) % (C / aw);
        return r * p[2] + ((c / aw) ^ ph) * aw + c % aw;
    }
    }
}

int64_t layout_family_offset_unchecked(const layout_family_params *params, const int64_t tile[2], int64_t d0,
                                       int64_t d1)
{
    const int cd = params->contiguous_dim;
    const int64_t C = tile[cd], r = cd ? d0 : d1, c = cd ? d1 : d0;
    if (params->kind == LAYOUT_FAMILY_XOR_PAD)
        return base_offset(params->xor_kind, params->p, C, r, c) + (r / params->pad_rows) * params->pad;
    return base_offset(params->kind, params->p, C, r, c);
}

layout_status layout_family_offsets(const layout_family_params *params, const int64_t tile[2], size_t n,
                                    const int64_t *coords, int64_t *offsets, layout_error *err)
{
    static const char fn[] = "layout_family_offsets";
    layout_status s = check_params(fn, params, tile, err);
    if (s) return s;
    if (n == 0) return layout_ok(err);
    if (!coords) return layout_fail(err, LAYOUT_ERR_NULL, "%s: coords is NULL", fn);
    if (!offsets) return layout_fail(err, LAYOUT_ERR_NULL, "%s: offsets is NULL", fn);
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            if (coords[2 * i + (size_t)k] < 0 || coords[2 * i + (size_t)k] >= tile[k])
                return layout_fail(err, LAYOUT_ERR_RANGE, "%s: coords[%zu][%d] = %lld is outside 0..%lld", fn, i, k,
                                   (long long)coords[2 * i + (size_t)k], (long long)(tile[k] - 1));
    for (size_t i = 0; i < n; i++)
        offsets[i] = layout_family_offset_unchecked(params, tile, coords[2 * i], coords[2 * i + 1]);
    return layout_ok(err);
}

layout_status layout_family_tile_offsets(const layout_family_params *params, const int64_t tile[2], int64_t *out,
                                         size_t cap, layout_error *err)
{
    static const char fn[] = "layout_family_tile_offsets";
    layout_status s = check_params(fn, params, tile, err);
    if (s) return s;
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if ((uint64_t)tile[0] * (uint64_t)tile[1] > (uint64_t)cap)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: cap = %zu, the tile has %lld elements", fn, cap,
                           (long long)(tile[0] * tile[1]));
    const int cd = params->contiguous_dim;
    const int64_t C = tile[cd], R = tile[1 - cd];
    const int64_t *p = params->p;
    const layout_family_kind kind = params->kind == LAYOUT_FAMILY_XOR_PAD ? params->xor_kind : params->kind;
    /* out index of (row r, column c): row-major over [d0, d1] */
    const int64_t row_step = cd ? C : 1, col_step = cd ? 1 : R;
    for (int64_t r = 0; r < R; r++) {
        /* per row: base + ((unit index + hi) ^ x) * unit + within-unit, as
         * base_offset() with the row's terms taken out; the column walks
         * (q, m) = (c / unit, c % unit) by counting */
        int64_t base = 0, hi = 0, x = 0, unit = 1;
        int swz = 0;
        switch (kind) {
        case LAYOUT_FAMILY_PAD: base = r * (C + p[0]); break;
        case LAYOUT_FAMILY_PAD_EVERY: base = r * C + (r / p[0]) * p[1]; break;
        case LAYOUT_FAMILY_CK_XOR: {
            const int64_t kp = p[0], L = p[1], K0 = C / kp, A = K0 * L, B = r / L;
            base = B * C * L;
            hi = (r % L) * K0;
            x = B % A;
            unit = kp;
            break;
        }
        case LAYOUT_FAMILY_CUTE_SWIZZLE: base = r * C; swz = 1; break;
        case LAYOUT_FAMILY_TRITON_SWIZZLED: {
            const int64_t vec = p[0] < C ? p[0] : C, P = p[2] < C / vec ? p[2] : C / vec;
            base = r * C;
            x = (r / p[1]) % P;
            unit = vec;
            break;
        }
        default: /* LAYOUT_FAMILY_IREE_XOR_SHUFFLE */
            base = r * p[2];
            x = (r / p[3]) % (C / p[1]);
            unit = p[1];
            break;
        }
        const int64_t pad = params->kind == LAYOUT_FAMILY_XOR_PAD ? (r / params->pad_rows) * params->pad : 0;
        int64_t *o = out + r * row_step;
        if (swz) { /* the swizzle acts on the unpadded offset */
            int64_t B, M, S;
            cute_elem(p, &B, &M, &S);
            const int64_t aS = abs64(S), msk = B ? ((int64_t)1 << B) - 1 : 0;
            for (int64_t c = 0; c < C; c++) {
                const int64_t v = base + c;
                o[c * col_step] =
                    pad + (!B ? v : S > 0 ? v ^ (((v >> (M + S)) & msk) << M) : v ^ (((v >> M) & msk) << (M + aS)));
            }
            continue;
        }
        base += pad;
        int64_t q = 0, m = 0;
        for (int64_t c = 0; c < C; c++) {
            o[c * col_step] = base + ((hi + q) ^ x) * unit + m;
            if (++m == unit) m = 0, q++;
        }
    }
    return layout_ok(err);
}

int layout_family_vector_hints(const layout_family_params *params, const int64_t tile[2], int64_t *lens,
                               int64_t *strides)
{
    const int cd = params->contiguous_dim;
    const int64_t C = tile[cd];
    const int64_t *p = params->p;
    const layout_family_kind kind = params->kind == LAYOUT_FAMILY_XOR_PAD ? params->xor_kind : params->kind;
    int64_t unit = -1; /* the builders' guaranteed vector along the contiguous dim, -1: none */
    switch (kind) {
    case LAYOUT_FAMILY_PAD: case LAYOUT_FAMILY_PAD_EVERY: break; /* plain strided rows: no guarantee */
    case LAYOUT_FAMILY_CK_XOR: unit = p[0]; break;                 /* KPack */
    case LAYOUT_FAMILY_CUTE_SWIZZLE: {
        int64_t B, M, S;
        if (p[3] != 0) return 0; /* byte form: the descriptor decides */
        cute_elem(p, &B, &M, &S);
        if (B == 0) return 0;    /* identity swizzle: a different builder */
        unit = (int64_t)1 << (M < 40 ? M : 40); /* gcd(2^M, C): the row-major offset's low field that stays whole */
        while (C % unit) unit >>= 1;
        break;
    }
    case LAYOUT_FAMILY_TRITON_SWIZZLED: unit = p[0] < C ? p[0] : C; break; /* vec */
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE: unit = p[1]; break;           /* access_width */
    default: return 0;
    }
    for (int d = 0; d < 2; d++) lens[d] = strides[d] = -1;
    if (unit > 0) {
        lens[cd] = unit;
        strides[cd] = 1;
    }
    return 1;
}

int layout_family_pad_form(const layout_family_params *params, const int64_t tile[2], layout_family_params *unpadded,
                           int64_t *pad, int *pad_shift)
{
    const int cd = params->contiguous_dim;
    const int64_t C = tile[cd];
    *unpadded = *params;
    *pad = 0;
    *pad_shift = 0;
    switch (params->kind) {
    case LAYOUT_FAMILY_PAD: /* r (C + p) + c */
        *pad = params->p[0];
        unpadded->p[0] = 0;
        break;
    case LAYOUT_FAMILY_PAD_EVERY: /* r C + (r / N) p + c */
        if (!is_pow2(params->p[0])) return 0;
        *pad = params->p[1];
        *pad_shift = log2_exact(params->p[0]);
        unpadded->p[1] = 0;
        break;
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE: /* r * row_stride = r C + r (row_stride - C) */
        *pad = params->p[2] - C;
        unpadded->p[2] = C;
        break;
    case LAYOUT_FAMILY_XOR_PAD:
        if (params->xor_kind == LAYOUT_FAMILY_IREE_XOR_SHUFFLE && params->p[2] != C) return 0; /* two pad terms */
        if (!is_pow2(params->pad_rows)) return 0;
        *pad = params->pad;
        *pad_shift = log2_exact(params->pad_rows);
        unpadded->kind = params->xor_kind;
        unpadded->pad = unpadded->pad_rows = 0;
        unpadded->xor_kind = (layout_family_kind)0;
        break;
    case LAYOUT_FAMILY_CK_XOR: case LAYOUT_FAMILY_CUTE_SWIZZLE: case LAYOUT_FAMILY_TRITON_SWIZZLED: break;
    default: return 0;
    }
    return 1;
}

int layout_family_linear_bases(const layout_family_params *params, const int64_t tile[2], uint64_t *bases,
                               int *in_bits, int *out_bits)
{
    const int cd = params->contiguous_dim;
    const int64_t C = tile[cd], R = tile[1 - cd];
    const int64_t *p = params->p;
    layout_family_kind kind = params->kind;
    if (!is_pow2(R) || !is_pow2(C)) return 0;
    if (kind == LAYOUT_FAMILY_XOR_PAD) {
        if (params->pad) return 0;
        kind = params->xor_kind;
    }
    /* Each form is a bit field arrangement when every length is a power of
     * two: products become shifts, quotients and remainders bit fields,
     * sums of disjoint fields ORs; only padding adds across bits. */
    switch (kind) {
    case LAYOUT_FAMILY_PAD: if (p[0]) return 0; break;
    case LAYOUT_FAMILY_PAD_EVERY: if (p[1]) return 0; break;
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE: if (!is_pow2(p[2])) return 0; break;
    case LAYOUT_FAMILY_CK_XOR: case LAYOUT_FAMILY_CUTE_SWIZZLE: case LAYOUT_FAMILY_TRITON_SWIZZLED: break;
    default: return 0; /* F2: lib/suggest/f2.c */
    }
    int64_t space = space_elems(params, R, C);
    if (!is_pow2(space) || log2_exact(space) > 31) return 0;
    int ob = log2_exact(space);
    int k = 0;
    for (int d = 0; d < 2; d++) {
        in_bits[d] = log2_exact(tile[d]);
        for (int i = 0; i < in_bits[d]; i++) {
            int64_t x0 = d == 0 ? (int64_t)1 << i : 0, x1 = d == 1 ? (int64_t)1 << i : 0;
            bases[k++] = (uint64_t)layout_family_offset_unchecked(params, tile, x0, x1);
        }
    }
    *out_bits = ob;
    return 1;
}

/* --- native spelling ------------------------------------------------------------- */

static int print_base(layout_family_kind kind, const int64_t *p, int contiguous_dim, char *buf, size_t cap)
{
    switch (kind) {
    case LAYOUT_FAMILY_PAD:
        return snprintf(buf, cap, "pad %lld", (long long)p[0]);
    case LAYOUT_FAMILY_PAD_EVERY:
        return snprintf(buf, cap, "pad %lld every %lld rows", (long long)p[1], (long long)p[0]);
    case LAYOUT_FAMILY_CK_XOR:
        if (p[2] > 1)
            return snprintf(buf, cap, "KPack=%lld MLdsLayer=%lld RowMul=%lld", (long long)p[0], (long long)p[1],
                            (long long)p[2]);
        return snprintf(buf, cap, "KPack=%lld MLdsLayer=%lld", (long long)p[0], (long long)p[1]);
    case LAYOUT_FAMILY_CUTE_SWIZZLE:
        if (p[3] > 0)
            return snprintf(buf, cap, "Swizzle<%lld,%lld,%lld> on bytes of %lld-byte elements", (long long)p[0],
                            (long long)p[1], (long long)p[2], (long long)p[3]);
        return snprintf(buf, cap, "Swizzle<%lld,%lld,%lld>", (long long)p[0], (long long)p[1], (long long)p[2]);
    case LAYOUT_FAMILY_TRITON_SWIZZLED:
        return snprintf(buf, cap, "swizzled_shared<vec=%lld, perPhase=%lld, maxPhase=%lld, order=[%d,%d]>",
                        (long long)p[0], (long long)p[1], (long long)p[2], contiguous_dim == 0 ? 0 : 1,
                        contiguous_dim == 0 ? 1 : 0);
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE:
        return snprintf(buf, cap, "xor_shuffle<%lld,%lld,%lld,%lld>", (long long)p[0], (long long)p[1],
                        (long long)p[2], (long long)p[3]);
    case LAYOUT_FAMILY_F2:
        return snprintf(buf, cap, "F2 swizzle");
    default:
        return snprintf(buf, cap, "?");
    }
}

int layout_family_params_print(const layout_family_params *params, char *buf, size_t cap)
{
    if (!params) return -1;
    if (!buf) cap = 0;
    if (params->kind != LAYOUT_FAMILY_XOR_PAD)
        return print_base(params->kind, params->p, params->contiguous_dim, buf, cap);
    int n = print_base(params->xor_kind, params->p, params->contiguous_dim, buf, cap);
    size_t used = (size_t)n < cap ? (size_t)n : (cap ? cap - 1 : 0);
    int m = snprintf(buf ? buf + used : NULL, cap - used, " + pad %lld every %lld rows", (long long)params->pad,
                     (long long)params->pad_rows);
    return n + m;
}

/* --- enumeration ------------------------------------------------------------------- */

enum { STEP_LINEAR, STEP_POW2, STEP_DIVISOR };

typedef struct dim_range {
    int64_t lo, hi, of; /* of: the number a divisor step divides */
    int step;
} dim_range;

static const layout_family_kind xor_pad_bases[4] = {LAYOUT_FAMILY_CK_XOR, LAYOUT_FAMILY_CUTE_SWIZZLE,
                                                    LAYOUT_FAMILY_TRITON_SWIZZLED, LAYOUT_FAMILY_IREE_XOR_SHUFFLE};

static void it_rc(const layout_family_iter *it, int64_t *R, int64_t *C) { tile_rc(it->tile, it->contiguous_dim, R, C); }

/* Largest pad p with groups * p * elem <= budget. */
static int64_t max_pad(const layout_family_iter *it, int64_t groups)
{
    if (groups <= 0) return 0;
    int64_t m = it->budget_bytes / (groups * it->elem_bytes);
    return m > FAM_MAX_PAD ? FAM_MAX_PAD : m;
}

static int floor_log2(int64_t x)
{
    int b = 0;
    while (((int64_t)2 << b) <= x) b++;
    return b;
}

/* Loop dims of one base kind (first dim index k0 into v); returns how many. */
static int base_dims(const layout_family_iter *it, layout_family_kind kind, const int64_t *v, int k, int with_pad,
                     dim_range *r)
{
    int64_t R, C;
    it_rc(it, &R, &C);
    int n = 0;
    switch (kind) {
    case LAYOUT_FAMILY_CK_XOR:
        n = 2;
        if (k == 0) *r = (dim_range){1, C, C, STEP_DIVISOR};
        if (k == 1) *r = (dim_range){1, R, R, STEP_DIVISOR};
        break;
    case LAYOUT_FAMILY_CUTE_SWIZZLE: {
        int nb = floor_log2(R * C);
        n = 3;
        if (k == 0) *r = (dim_range){1, nb, 0, STEP_LINEAR};
        if (k == 1) *r = (dim_range){0, nb - v[0], 0, STEP_LINEAR};
        if (k == 2) *r = (dim_range){-(nb - v[0] - v[1]), nb - v[0] - v[1], 0, STEP_LINEAR};
        break;
    }
    case LAYOUT_FAMILY_TRITON_SWIZZLED:
        n = 3;
        if (k == 0) *r = (dim_range){1, C, 0, STEP_POW2};
        if (k == 1) *r = (dim_range){1, R, 0, STEP_POW2};
        if (k == 2) *r = (dim_range){1, v[0] > 0 ? C / v[0] : 0, 0, STEP_POW2};
        break;
    default: /* IREE */
        n = with_pad ? 3 : 2;
        if (k == 0) *r = (dim_range){1, C, C, STEP_DIVISOR};
        if (k == 1) *r = (dim_range){1, R, R, STEP_DIVISOR};
        if (k == 2) *r = (dim_range){0, max_pad(it, R - 1), 0, STEP_LINEAR};
        break;
    }
    return n;
}

/* Number of loop dims and the range of dim k given the outer counters v[0..k). */
static int iter_dims(const layout_family_iter *it, int k, dim_range *r)
{
    int64_t R, C;
    it_rc(it, &R, &C);
    const int64_t *v = it->v;
    dim_range tmp;
    if (!r) r = &tmp;
    switch (it->kind) {
    case LAYOUT_FAMILY_PAD:
        *r = (dim_range){0, max_pad(it, R - 1), 0, STEP_LINEAR};
        return 1;
    case LAYOUT_FAMILY_PAD_EVERY:
        if (k == 0) *r = (dim_range){2, R - 1, R, STEP_DIVISOR};
        if (k == 1) *r = (dim_range){1, (v[0] > 0 && R % v[0] == 0) ? max_pad(it, R / v[0] - 1) : 0, 0, STEP_LINEAR};
        return 2;
    case LAYOUT_FAMILY_CK_XOR:
    case LAYOUT_FAMILY_CUTE_SWIZZLE:
    case LAYOUT_FAMILY_TRITON_SWIZZLED:
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE:
        return base_dims(it, it->kind, v, k, 1, r);
    default: { /* LAYOUT_FAMILY_XOR_PAD (F2 is exhausted at init and never asks) */
        if (k == 0) *r = (dim_range){0, 3, 0, STEP_LINEAR};
        layout_family_kind base = xor_pad_bases[v[0] >= 0 && v[0] < 4 ? v[0] : 0];
        int nb = base_dims(it, base, v + 1, k - 1, 0, r);
        if (k == nb + 1) *r = (dim_range){base == LAYOUT_FAMILY_IREE_XOR_SHUFFLE ? 2 : 1, R - 1, R, STEP_DIVISOR};
        if (k == nb + 2) {
            int64_t pr = v[nb + 1];
            *r = (dim_range){1, (pr > 0 && R % pr == 0) ? max_pad(it, R / pr - 1) : 0, 0, STEP_LINEAR};
        }
        return nb + 3;
    }
    }
}

static int64_t step_value(const dim_range *r, int64_t x)
{
    if (r->step == STEP_POW2) return x * 2;
    x++;
    if (r->step == STEP_DIVISOR)
        while (x <= r->hi && r->of % x != 0) x++;
    return x;
}

static int64_t first_value(const dim_range *r)
{
    int64_t x = r->lo;
    if (r->step == STEP_DIVISOR)
        while (x <= r->hi && (x < 1 || r->of % x != 0)) x++;
    return x;
}

static int first_from(layout_family_iter *it, int k)
{
    dim_range r;
    if (k >= iter_dims(it, k, &r)) return 1;
    iter_dims(it, k, &r);
    for (it->v[k] = first_value(&r); it->v[k] <= r.hi; it->v[k] = step_value(&r, it->v[k]))
        if (first_from(it, k + 1)) return 1;
    return 0;
}

static int next_from(layout_family_iter *it, int k)
{
    dim_range r;
    if (k >= iter_dims(it, k, &r)) return 0;
    if (next_from(it, k + 1)) return 1;
    iter_dims(it, k, &r);
    for (it->v[k] = step_value(&r, it->v[k]); it->v[k] <= r.hi; it->v[k] = step_value(&r, it->v[k]))
        if (first_from(it, k + 1)) return 1;
    return 0;
}

static void fill_base(layout_family_kind kind, const int64_t *v, int64_t R, int64_t C, int64_t *p)
{
    (void)R;
    switch (kind) {
    case LAYOUT_FAMILY_CK_XOR: p[0] = v[0]; p[1] = v[1]; p[2] = 1; break;
    case LAYOUT_FAMILY_CUTE_SWIZZLE: p[0] = v[0]; p[1] = v[1]; p[2] = v[2]; p[3] = 0; break;
    case LAYOUT_FAMILY_TRITON_SWIZZLED: p[0] = v[0]; p[1] = v[1]; p[2] = v[2]; break;
    default: p[0] = C; p[1] = v[0]; p[2] = C + v[2]; p[3] = v[1]; break;
    }
}

static void fill_params(const layout_family_iter *it, layout_family_params *o)
{
    int64_t R, C;
    it_rc(it, &R, &C);
    memset(o, 0, sizeof *o);
    o->kind = it->kind;
    o->contiguous_dim = it->contiguous_dim;
    const int64_t *v = it->v;
    switch (it->kind) {
    case LAYOUT_FAMILY_PAD: o->p[0] = v[0]; break;
    case LAYOUT_FAMILY_PAD_EVERY: o->p[0] = v[0]; o->p[1] = v[1]; break;
    case LAYOUT_FAMILY_XOR_PAD: {
        layout_family_kind base = xor_pad_bases[v[0]];
        dim_range r;
        int nb = base_dims(it, base, v + 1, 0, 0, &r);
        int64_t vb[4] = {0, 0, 0, 0}; /* IREE in XOR_PAD: no row_stride pad */
        for (int i = 0; i < nb; i++) vb[i] = v[1 + i];
        fill_base(base, vb, R, C, o->p);
        o->xor_kind = base;
        o->pad_rows = v[nb + 1];
        o->pad = v[nb + 2];
        break;
    }
    default: fill_base(it->kind, v, R, C, o->p); break;
    }
}

layout_status layout_family_iter_init(layout_family_iter *it, layout_family_kind kind, const int64_t tile[2],
                                      int contiguous_dim, int elem_bytes, int64_t budget_bytes, layout_error *err)
{
    static const char fn[] = "layout_family_iter_init";
    if (!it) return layout_fail(err, LAYOUT_ERR_NULL, "%s: it is NULL", fn);
    if (!tile) return layout_fail(err, LAYOUT_ERR_NULL, "%s: tile is NULL", fn);
    if ((int)kind < 0 || kind >= LAYOUT_FAMILY_COUNT)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: kind = %d is not a layout_family_kind", fn, (int)kind);
    layout_status s = check_tile(fn, tile, contiguous_dim, err);
    if (s) return s;
    if (elem_bytes < 1 || elem_bytes > 16)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: elem_bytes = %d must be in 1..16", fn, elem_bytes);
    if (budget_bytes < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: budget_bytes = %lld must be >= 0", fn, (long long)budget_bytes);
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->tile[0] = tile[0];
    it->tile[1] = tile[1];
    it->contiguous_dim = contiguous_dim;
    it->elem_bytes = elem_bytes;
    it->budget_bytes = budget_bytes;
    it->done = kind == LAYOUT_FAMILY_F2;
    return layout_ok(err);
}

int layout_family_iter_next(layout_family_iter *it, layout_family_params *out)
{
    if (!it || !out) return 0;
    while (!it->done) {
        int ok = it->started ? next_from(it, 0) : first_from(it, 0);
        it->started = 1;
        if (!ok) {
            it->done = 1;
            break;
        }
        layout_family_params p;
        fill_params(it, &p);
        if (check_params("layout_family_iter_next", &p, it->tile, NULL) != LAYOUT_OK) continue;
        int64_t R, C;
        it_rc(it, &R, &C);
        if ((space_elems(&p, R, C) - R * C) * it->elem_bytes > it->budget_bytes) continue;
        *out = p;
        it->produced++;
        return 1;
    }
    return 0;
}
