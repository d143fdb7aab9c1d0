/* Seed 000's LDS descriptors, transcribed call by call from the talk. */
#include "seed_lds.h"

static layout_status naive2(layout_descriptor *d, int64_t l0, int64_t l1, int64_t s0, int64_t s1)
{
    int64_t lengths[2] = { l0, l1 }, strides[2] = { s0, s1 };
    return layout_naive(d, 2, lengths, strides, NULL);
}

layout_status seed_01_mk(layout_descriptor *d)
{
    int64_t lengths[2] = { SEED_KM, SEED_KK };
    return layout_packed(d, 2, lengths, NULL);
}
layout_status seed_01_km(layout_descriptor *d) { return naive2(d, SEED_KK, SEED_KM, 1, SEED_KK); }
layout_status seed_02_mk(layout_descriptor *d) { return naive2(d, SEED_KM, SEED_KK, 1, SEED_KM); }
layout_status seed_02_km(layout_descriptor *d) { return naive2(d, SEED_KK, SEED_KM, SEED_KM, 1); }
layout_status seed_03_mk(layout_descriptor *d) { return naive2(d, SEED_KM, SEED_KK, SEED_KK + 2, 1); }
layout_status seed_03_km(layout_descriptor *d) { return naive2(d, SEED_KK, SEED_KM, 1, SEED_KK + 2); }

int seed_mlds_layer(int n_banks) { return n_banks * 4 / SEED_KK / 2; }

layout_status seed_xor_mk(layout_descriptor *d, int n_banks, int row_mul, int pad)
{
    const int64_t L = seed_mlds_layer(n_banks), K0 = SEED_KK / SEED_KPACK;
    const int64_t A = K0 * L, B = SEED_KM / L;
    layout_status st;
    layout_descriptor base, permuted, unmerged;
    int64_t lengths[3] = { A, B, SEED_KPACK }, strides[3] = { SEED_KPACK, (SEED_KK + pad) * L, 1 };
    if ((st = layout_naive_vec(&base, 3, lengths, strides, SEED_KPACK, 1, NULL))) return st;

    layout_transform t2[2];
    layout_make_xor(B * row_mul, A, &t2[0], NULL);
    layout_make_pass_through(SEED_KPACK, &t2[1], NULL);
    layout_seq low2[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2) }, up2[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2) };
    if ((st = layout_transform_descriptor(&permuted, &base, 2, t2, low2, up2, NULL))) return st;

    layout_transform t3[3];
    int64_t split[2] = { L, K0 };
    layout_make_unmerge(2, split, &t3[0], NULL);
    layout_make_pass_through(B, &t3[1], NULL);
    layout_make_pass_through(SEED_KPACK, &t3[2], NULL);
    layout_seq low3[3] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1), LAYOUT_SEQ(2) };
    layout_seq up3[3] = { LAYOUT_SEQ(0, 2), LAYOUT_SEQ(1), LAYOUT_SEQ(3) };
    if ((st = layout_transform_descriptor(&unmerged, &permuted, 3, t3, low3, up3, NULL))) return st;

    layout_transform t4[2];
    int64_t m_parts[2] = { B, L }, k_parts[2] = { K0, SEED_KPACK };
    layout_make_merge(2, m_parts, &t4[0], NULL);
    layout_make_merge(2, k_parts, &t4[1], NULL);
    layout_seq low4[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2, 3) }, up4[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1) };
    return layout_transform_descriptor(d, &unmerged, 2, t4, low4, up4, NULL);
}

int64_t seed_xor_closed_form(int64_t m, int64_t k, int n_banks, int pad)
{
    const int64_t L = seed_mlds_layer(n_banks);
    int64_t B = m / L, A = (m % L) * (SEED_KK / 8) + k / 8, C = k % 8;
    int64_t A2 = A ^ (B % (SEED_KK / 8 * L));
    return B * (SEED_KK + pad) * L + A2 * 8 + C;
}
