/* The kernels of the talk "LDS Bank Conflicts on CDNA" (docs/lds-model.md
 * §4.1, §4.2), written with
 * liblayout the way the talk writes them in ck_tile: LDS descriptors built
 * step by step, thread distributions as tile_distribution_encodings.
 *
 * Header-only (static functions) so that every example, the demo and the
 * tests share one definition:  #include "seed_kernels.h"  (examples/) or
 * #include "../examples/seed_kernels.h"  (tests/).
 *
 * Tile: kM = 64 rows (M) x kK = 32 columns (K) of fp16, 4 waves of 64 lanes.
 * The write side always stores row m = 16*warp + lane/4, k = 8*(lane%4)..+7.
 * Each kernel differs in its LDS descriptor and read distribution:
 *
 *   01 row-major   packed [M, K]; read K-major columns (k = 8w + l/8, m = 8(l%8) + j)
 *   02 col-major   [M, K] with M contiguous; same read
 *   03 padded      [M, K] rows of 34 fp16; same read
 *   04 XOR         XOR descriptor (32 banks hard-coded) with the 01 read
 *   05 XOR + pad   XOR descriptor with 33-element rows (32 banks); the 01 read
 *   08 XOR         XOR descriptor, MLdsLayer from the bank count; read m = l, k = 8w..+7
 *   10 M-vector    08's descriptor; read m = 8(l/8) + j, k = 8w + l%8
 */
#ifndef SEED_KERNELS_H
#define SEED_KERNELS_H

#include "layout.h"

#include <string.h>

enum {
    SK_KM = 64,        /* tile rows (M) */
    SK_KK = 32,        /* tile columns (K) */
    SK_KPACK = 8,      /* fp16 per 16-byte vector */
    SK_ELEM_BYTES = 2, /* fp16 */
    SK_WARPS = 4,
    SK_WAVE = 64
};

/** Problem of the talk's table: M = 65536, K = 256 -> 8192 tiles of 64 x 32. */
#define SEED_PROBLEM_M 65536
#define SEED_PROBLEM_K 256
#define SEED_TILES ((int64_t)(SEED_PROBLEM_M / SK_KM) * (SEED_PROBLEM_K / SK_KK))

typedef enum seed_kernel_id {
    SEED_K01, SEED_K02, SEED_K03, SEED_K04, SEED_K05, SEED_K08, SEED_K10, SEED_KERNEL_COUNT
} seed_kernel_id;

/** One kernel: the LDS views and distributions of its write and read side. */
typedef struct seed_kernel {
    const char *id;                   /* "01" */
    const char *name;                 /* "row-major" */
    layout_descriptor write_desc;     /* [M, K] view the store uses */
    layout_descriptor read_desc;      /* view the load uses ([K, M] or [M, K]) */
    layout_distribution write_dist;   /* over (M, K) */
    layout_distribution read_dist;    /* over read_desc's dims */
} seed_kernel;

/* Short id ("01") and name ("row-major") of a kernel. */
static inline const char *seed_kernel_id_str(seed_kernel_id which)
{
    static const char *const ids[SEED_KERNEL_COUNT] = {"01", "02", "03", "04", "05", "08", "10"};
    return (int)which >= 0 && which < SEED_KERNEL_COUNT ? ids[which] : "?";
}
static inline const char *seed_kernel_name(seed_kernel_id which)
{
    static const char *const names[SEED_KERNEL_COUNT] = {"row-major",  "col-major",      "padding",      "XOR (01 read)",
                                                         "XOR + pad", "XOR done right", "M-vector read"};
    return (int)which >= 0 && which < SEED_KERNEL_COUNT ? names[which] : "?";
}

/* --- distributions -------------------------------------------------------- */

/* The shape shared by the write side and the 01..05 read side:
 *   R = <>, H = (<a0, a1>, <b0, b1>), P0 (warp) -> (1,0), P1 (lane) -> (1,1),(2,0), Y -> (2,1)
 *   x0 = a1*warp + lane/b0, x1 = b1*(lane%b0) + y. */
static inline layout_status seed_dist_rows(layout_distribution *out, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
                                           layout_error *err)
{
    layout_dist_encoding e;
    memset(&e, 0, sizeof e);
    e.n_x = 2;
    e.n_h[0] = 2; e.h[0][0] = a0; e.h[0][1] = a1;
    e.n_h[1] = 2; e.h[1][0] = b0; e.h[1][1] = b1;
    e.n_p = 2;
    e.n_p_rh[0] = 1; e.p_major[0][0] = 1; e.p_minor[0][0] = 0;
    e.n_p_rh[1] = 2; e.p_major[1][0] = 1; e.p_minor[1][0] = 1; e.p_major[1][1] = 2; e.p_minor[1][1] = 0;
    e.n_y = 1; e.y_major[0] = 2; e.y_minor[0] = 1;
    int64_t tile[2] = {a0 * a1, b0 * b1};
    return layout_dist_make(out, &e, SK_WAVE, SK_WARPS, 2, tile, err);
}

/* Write side of every kernel, over (M, K): H = (<4,16>, <4,8>):
 *   m = 16*warp + lane/4, k = 8*(lane%4) + y. */
static inline layout_status seed_write_dist(layout_distribution *out, layout_error *err)
{
    return seed_dist_rows(out, SK_WARPS, SK_KM / SK_WARPS, SK_KK / SK_KPACK, SK_KPACK, err);
}

/* Read side of 01-05, over (K, M): H = (<4,8>, <8,8>):
 *   k = 8*warp + lane/8, m = 8*(lane%8) + y. */
static inline layout_status seed_read_dist_kmajor(layout_distribution *out, layout_error *err)
{
    return seed_dist_rows(out, SK_WARPS, SK_KK / SK_WARPS, SK_KM / 8, 8, err);
}

/* Read side of 08, over (M, K), exactly the talk's encoding:
 *   R = <1>, H = (<1,8,8>, <4,8>), P0 -> (2,0), P1 -> (1,1),(1,2), Y -> (1,0),(2,1)
 *   m = lane, k = 8*warp + y1. */
static inline layout_status seed_read_dist_08(layout_distribution *out, layout_error *err)
{
    layout_dist_encoding e;
    memset(&e, 0, sizeof e);
    e.n_r = 1; e.r[0] = 1;
    e.n_x = 2;
    e.n_h[0] = 3; e.h[0][0] = 1; e.h[0][1] = 8; e.h[0][2] = 8;
    e.n_h[1] = 2; e.h[1][0] = SK_KK / SK_KPACK; e.h[1][1] = SK_KPACK;
    e.n_p = 2;
    e.n_p_rh[0] = 1; e.p_major[0][0] = 2; e.p_minor[0][0] = 0;
    e.n_p_rh[1] = 2; e.p_major[1][0] = 1; e.p_minor[1][0] = 1; e.p_major[1][1] = 1; e.p_minor[1][1] = 2;
    e.n_y = 2; e.y_major[0] = 1; e.y_minor[0] = 0; e.y_major[1] = 2; e.y_minor[1] = 1;
    int64_t tile[2] = {SK_KM, SK_KK};
    return layout_dist_make(out, &e, SK_WAVE, SK_WARPS, 2, tile, err);
}

/* Read side of 10, over (M, K):
 *   R = <>, H = (<8,8>, <4,8>), P0 -> (2,0), P1 -> (1,0),(2,1), Y -> (1,1)
 *   m = 8*(lane/8) + y, k = 8*warp + lane%8. */
static inline layout_status seed_read_dist_10(layout_distribution *out, layout_error *err)
{
    layout_dist_encoding e;
    memset(&e, 0, sizeof e);
    e.n_x = 2;
    e.n_h[0] = 2; e.h[0][0] = SK_KM / 8; e.h[0][1] = 8;
    e.n_h[1] = 2; e.h[1][0] = SK_KK / 8; e.h[1][1] = 8;
    e.n_p = 2;
    e.n_p_rh[0] = 1; e.p_major[0][0] = 2; e.p_minor[0][0] = 0;
    e.n_p_rh[1] = 2; e.p_major[1][0] = 1; e.p_minor[1][0] = 0; e.p_major[1][1] = 2; e.p_minor[1][1] = 1;
    e.n_y = 1; e.y_major[0] = 1; e.y_minor[0] = 1;
    int64_t tile[2] = {SK_KM, SK_KK};
    return layout_dist_make(out, &e, SK_WAVE, SK_WARPS, 2, tile, err);
}

/* --- descriptors ------------------------------------------------------------ */

/* MLdsLayer = NBanks * 4 / kK / sizeof(fp16): 2 with 32 banks, 4 with 64. */
static inline int sk_mlds_layer(int n_banks) { return n_banks * 4 / SK_KK / SK_ELEM_BYTES; }

/* The XOR LDS descriptor of 04/05/08/10, presented as [M, K]:
 *   step 1  naive [A = kK/kKPack*L, B = kM/L, kKPack], strides [kKPack, (kK+pad)*L, 1], vector kKPack
 *   step 2  xor(B len * row_mul, A len) on (B, A): A' = A ^ (B % A len); pass_through(kKPack)
 *   step 3  unmerge A -> (L, K0 = kK/kKPack)
 *   step 4  merge (B, L) -> M; merge (K0, kKPack) -> K
 * element offset = B*(kK+pad)*L + A'*8 + C with B = m/L, A = (m%L)*(kK/8) + k/8, C = k%8. */
static inline layout_status seed_xor_desc(layout_descriptor *out, int mlds_layer, int pad, int row_mul, layout_error *err)
{
    const int64_t L = mlds_layer, K0 = SK_KK / SK_KPACK;
    const int64_t a_len = K0 * L, b_len = SK_KM / L;
    layout_descriptor d0, d1, d2;
    layout_transform t[3];
    layout_status s;

    int64_t lens0[3] = {a_len, b_len, SK_KPACK};
    int64_t strides0[3] = {SK_KPACK, (SK_KK + pad) * L, 1};
    s = layout_naive_vec(&d0, 3, lens0, strides0, SK_KPACK, 1, err);
    if (s) return s;

    if ((s = layout_make_xor(b_len * row_mul, a_len, &t[0], err)) ||
        (s = layout_make_pass_through(SK_KPACK, &t[1], err)))
        return s;
    layout_seq lo1[2] = {LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2)};
    layout_seq up1[2] = {LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2)};
    s = layout_transform_descriptor(&d1, &d0, 2, t, lo1, up1, err);
    if (s) return s;

    int64_t lk[2] = {L, K0};
    if ((s = layout_make_unmerge(2, lk, &t[0], err)) || (s = layout_make_pass_through(b_len, &t[1], err)) ||
        (s = layout_make_pass_through(SK_KPACK, &t[2], err)))
        return s;
    layout_seq lo2[3] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1), LAYOUT_SEQ(2)};
    layout_seq up2[3] = {LAYOUT_SEQ(1, 2), LAYOUT_SEQ(0), LAYOUT_SEQ(3)};
    s = layout_transform_descriptor(&d2, &d1, 3, t, lo2, up2, err);
    if (s) return s;

    int64_t bl[2] = {b_len, L}, kc[2] = {K0, SK_KPACK};
    if ((s = layout_make_merge(2, bl, &t[0], err)) || (s = layout_make_merge(2, kc, &t[1], err))) return s;
    layout_seq lo3[2] = {LAYOUT_SEQ(0, 1), LAYOUT_SEQ(2, 3)};
    layout_seq up3[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)};
    return layout_transform_descriptor(out, &d2, 2, t, lo3, up3, err);
}

/* [K, M] view of an [M, K] descriptor (the transposed read window). */
static inline layout_status seed_transposed_view(layout_descriptor *out, const layout_descriptor *mk, layout_error *err)
{
    layout_transform t[2];
    layout_status s;
    if ((s = layout_make_pass_through(SK_KM, &t[0], err)) || (s = layout_make_pass_through(SK_KK, &t[1], err)))
        return s;
    layout_seq lo[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)};
    layout_seq up[2] = {LAYOUT_SEQ(1), LAYOUT_SEQ(0)};
    return layout_transform_descriptor(out, mk, 2, t, lo, up, err);
}

/* --- kernels ---------------------------------------------------------------- */

/* Build kernel `which` for an LDS with n_banks banks (32: gfx942, 64: gfx950). */
static inline layout_status seed_kernel_build(seed_kernel *k, seed_kernel_id which, int n_banks, layout_error *err)
{
    layout_status s;
    memset(k, 0, sizeof *k);
    if ((int)which < 0 || which >= SEED_KERNEL_COUNT) return LAYOUT_ERR_ARG;
    k->id = seed_kernel_id_str(which);
    k->name = seed_kernel_name(which);
    if ((s = seed_write_dist(&k->write_dist, err))) return s;

    int64_t mk[2] = {SK_KM, SK_KK}, km[2] = {SK_KK, SK_KM};
    switch (which) {
    case SEED_K01: { /* packed row-major [M, K]; read [K, M] with strides (1, kK) */
        int64_t rs[2] = {1, SK_KK};
        if ((s = layout_packed(&k->write_desc, 2, mk, err))) return s;
        if ((s = layout_naive(&k->read_desc, 2, km, rs, err))) return s;
        return seed_read_dist_kmajor(&k->read_dist, err);
    }
    case SEED_K02: { /* column-major: M is the fast axis */
        int64_t ws[2] = {1, SK_KM}, rs[2] = {SK_KM, 1};
        if ((s = layout_naive(&k->write_desc, 2, mk, ws, err))) return s;
        if ((s = layout_naive(&k->read_desc, 2, km, rs, err))) return s;
        return seed_read_dist_kmajor(&k->read_dist, err);
    }
    case SEED_K03: { /* rows padded to kK + 2 = 34 fp16 (68 bytes) */
        int64_t ws[2] = {SK_KK + 2, 1}, rs[2] = {1, SK_KK + 2};
        if ((s = layout_naive(&k->write_desc, 2, mk, ws, err))) return s;
        if ((s = layout_naive(&k->read_desc, 2, km, rs, err))) return s;
        return seed_read_dist_kmajor(&k->read_dist, err);
    }
    case SEED_K04: /* XOR with 32 banks hard-coded, read with 01's distribution */
    case SEED_K05: /* the same plus one element of padding per kK*L row block */
        if ((s = seed_xor_desc(&k->write_desc, sk_mlds_layer(32), which == SEED_K05 ? 1 : 0, 1, err))) return s;
        if ((s = seed_transposed_view(&k->read_desc, &k->write_desc, err))) return s;
        return seed_read_dist_kmajor(&k->read_dist, err);
    case SEED_K08:
    case SEED_K10: /* MLdsLayer and RowMul from the bank count */
        if ((s = seed_xor_desc(&k->write_desc, sk_mlds_layer(n_banks), 0, n_banks == 64 ? 2 : 1, err))) return s;
        k->read_desc = k->write_desc;
        return which == SEED_K08 ? seed_read_dist_08(&k->read_dist, err) : seed_read_dist_10(&k->read_dist, err);
    default:
        return LAYOUT_ERR_ARG;
    }
}

/* The kernel as a layout_check_kernel spec: fp16, SEED_TILES tiles, default options. */
static inline layout_kernel_spec seed_kernel_spec(const seed_kernel *k)
{
    layout_kernel_spec s;
    memset(&s, 0, sizeof s);
    s.write_desc = &k->write_desc;
    s.write_dist = &k->write_dist;
    s.read_desc = &k->read_desc;
    s.read_dist = &k->read_dist;
    s.elem_bytes = SK_ELEM_BYTES;
    s.tiles = SEED_TILES;
    return s;
}

#endif /* SEED_KERNELS_H */
