/* Layout families (family.h): names, legality, LDS bytes and the native
 * spelling of a parameter set.  Construction is in build.c, the closed
 * forms the search scores from in closed_form.c, the enumeration of every
 * legal set in enumerate.c. */
#include "family_internal.h"

#include <stdio.h>
#include <string.h>

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
layout_status layout_family_check_tile(const char *fn, const int64_t tile[2], int contiguous_dim, layout_error *err)
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
        if (!layout_is_pow2(C / p[0] * p[1]))
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
        if (p[2] < -FAM_MAX_BITS || p[2] > FAM_MAX_BITS || fam_abs64(p[2]) < p[0])
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[2] (S) = %lld must satisfy B = %lld <= |S| <= 30", fn,
                               (long long)p[2], (long long)p[0]);
        if (p[3] != 0 && (!layout_is_pow2(p[3]) || p[3] > 16 || ((int64_t)1 << p[1]) < p[3]))
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: p[3] (byte_elem) = %lld must be 0 or a power of two <= 16 and <= 2^M = %lld", fn,
                               (long long)p[3], (long long)((int64_t)1 << p[1]));
        int64_t B, M, S;
        fam_cute_elem(p, &B, &M, &S);
        if (B > 0) {
            int bits = (int)(M + fam_abs64(S) + B);
            if (bits > 40 || (R * C) % ((int64_t)1 << bits) != 0)
                return layout_fail(err, LAYOUT_ERR_ARG,
                                   "%s: Swizzle<%lld,%lld,%lld> (element form) touches bit %d but the tile has %lld "
                                   "elements (2^(M+|S|+B) must divide it)",
                                   fn, (long long)B, (long long)M, (long long)S, bits - 1, (long long)(R * C));
        }
        return LAYOUT_OK;
    }
    case LAYOUT_FAMILY_TRITON_SWIZZLED:
        if (!layout_is_pow2(p[0]) || p[0] > FAM_MAX_TILE)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[0] (vec) = %lld must be a power of two", fn,
                               (long long)p[0]);
        if (!layout_is_pow2(p[1]) || p[1] > FAM_MAX_TILE)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[1] (perPhase) = %lld must be a power of two", fn,
                               (long long)p[1]);
        if (!layout_is_pow2(p[2]) || p[2] > FAM_MAX_TILE)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: p[2] (maxPhase) = %lld must be a power of two", fn,
                               (long long)p[2]);
        if (!layout_is_pow2(C))
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
        if (p[1] < 1 || C % p[1] != 0 || !layout_is_pow2(C / p[1]))
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
    if ((s = layout_family_check_tile(fn, tile, pr->contiguous_dim, err))) return s;
    int64_t R, C;
    fam_tile_rc(tile, pr->contiguous_dim, &R, &C);
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
        fam_cute_elem(pr->p, &B, &M, &S);
        int bits = (int)(M + fam_abs64(S) + B);
        if (B > 0 && (pr->pad_rows * C) % ((int64_t)1 << bits) != 0)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: pad_rows * C = %lld must be a multiple of 2^(M+|S|+B) = %lld (the swizzle must not "
                               "cross a pad)",
                               fn, (long long)(pr->pad_rows * C), (long long)((int64_t)1 << bits));
    }
    return LAYOUT_OK;
}

/* The element space (layout_family_space_elems() below) with every product and sum
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

layout_status layout_family_check_params(const char *fn, const layout_family_params *pr, const int64_t tile[2],
                                  layout_error *err)
{
    layout_status s = check_params_shape(fn, pr, tile, err);
    if (s) return s;
    int64_t R, C, space;
    fam_tile_rc(tile, pr->contiguous_dim, &R, &C);
    if (space_elems_checked(pr, R, C, &space))
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "%s: the LDS element space of this set on a %lld x %lld tile overflows int64 (16-byte "
                           "elements included)",
                           fn, (long long)tile[0], (long long)tile[1]);
    return LAYOUT_OK;
}

layout_status layout_family_check(const layout_family_params *params, const int64_t tile[2], layout_error *err)
{
    layout_status s = layout_family_check_params("layout_family_check", params, tile, err);
    return s ? s : layout_ok(err);
}

/* --- LDS bytes --------------------------------------------------------------- */

int64_t layout_family_space_elems(const layout_family_params *pr, int64_t R, int64_t C)
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
    layout_status s = layout_family_check_params("layout_family_lds_bytes", params, tile, err);
    if (s) return s;
    if (!bytes) return layout_fail(err, LAYOUT_ERR_NULL, "layout_family_lds_bytes: bytes is NULL");
    if (elem_bytes < 1 || elem_bytes > 16)
        return layout_fail(err, LAYOUT_ERR_ARG, "layout_family_lds_bytes: elem_bytes = %d must be in 1..16",
                           elem_bytes);
    int64_t R, C;
    fam_tile_rc(tile, params->contiguous_dim, &R, &C);
    *bytes = layout_family_space_elems(params, R, C) * elem_bytes;
    return layout_ok(err);
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
