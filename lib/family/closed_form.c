/* Layout families: closed forms of a parameter set's offsets, evaluated
 * without building its descriptor (the search scores most candidates from
 * these): per coordinate, the whole tile, the vector hints, the pad form
 * and the F2-linear bases.  test_family holds each against the descriptor. */
#include "family_internal.h"

#include <stdio.h>
#include <string.h>

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
        fam_cute_elem(p, &B, &M, &S);
        const int64_t o = r * C + c;
        if (B == 0) return o;
        const int64_t aS = fam_abs64(S), msk = ((int64_t)1 << B) - 1;
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
    layout_status s = layout_family_check_params(fn, params, tile, err);
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
    layout_status s = layout_family_check_params(fn, params, tile, err);
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
            fam_cute_elem(p, &B, &M, &S);
            const int64_t aS = fam_abs64(S), msk = B ? ((int64_t)1 << B) - 1 : 0;
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
        fam_cute_elem(p, &B, &M, &S);
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
        if (!layout_is_pow2(params->p[0])) return 0;
        *pad = params->p[1];
        *pad_shift = layout_log2_exact(params->p[0]);
        unpadded->p[1] = 0;
        break;
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE: /* r * row_stride = r C + r (row_stride - C) */
        *pad = params->p[2] - C;
        unpadded->p[2] = C;
        break;
    case LAYOUT_FAMILY_XOR_PAD:
        if (params->xor_kind == LAYOUT_FAMILY_IREE_XOR_SHUFFLE && params->p[2] != C) return 0; /* two pad terms */
        if (!layout_is_pow2(params->pad_rows)) return 0;
        *pad = params->pad;
        *pad_shift = layout_log2_exact(params->pad_rows);
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
    if (!layout_is_pow2(R) || !layout_is_pow2(C)) return 0;
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
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE: if (!layout_is_pow2(p[2])) return 0; break;
    case LAYOUT_FAMILY_CK_XOR: case LAYOUT_FAMILY_CUTE_SWIZZLE: case LAYOUT_FAMILY_TRITON_SWIZZLED: break;
    default: return 0; /* F2: lib/suggest/f2.c */
    }
    int64_t space = layout_family_space_elems(params, R, C);
    if (!layout_is_pow2(space) || layout_log2_exact(space) > 31) return 0;
    int ob = layout_log2_exact(space);
    int k = 0;
    for (int d = 0; d < 2; d++) {
        in_bits[d] = layout_log2_exact(tile[d]);
        for (int i = 0; i < in_bits[d]; i++) {
            int64_t x0 = d == 0 ? (int64_t)1 << i : 0, x1 = d == 1 ? (int64_t)1 << i : 0;
            bases[k++] = (uint64_t)layout_family_offset_unchecked(params, tile, x0, x1);
        }
    }
    *out_bits = ob;
    return 1;
}
