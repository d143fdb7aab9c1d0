/* The talk's LDS descriptors (docs/lds-model.md §4.1), built exactly as the
 * talk builds them, and the closed form of docs/lds-model.md §4.2 for the
 * XOR layouts.
 * Tile kM = 64 x kK = 32 fp16, kKPack = 8. */
#ifndef LAYOUT_TEST_SEED_LDS_H
#define LAYOUT_TEST_SEED_LDS_H

#include "layout.h"

enum { SEED_KM = 64, SEED_KK = 32, SEED_KPACK = 8 };

/* 01: packed [M, K] (write view) */
layout_status seed_01_mk(layout_descriptor *d);
/* 01: naive [K, M] strides [1, kK] (read view) */
layout_status seed_01_km(layout_descriptor *d);
/* 02: naive [M, K] strides [1, kM]; [K, M] strides [kM, 1] */
layout_status seed_02_mk(layout_descriptor *d);
layout_status seed_02_km(layout_descriptor *d);
/* 03: naive [M, K] strides [34, 1]; [K, M] strides [1, 34] */
layout_status seed_03_mk(layout_descriptor *d);
layout_status seed_03_km(layout_descriptor *d);
/* XOR layouts [M, K] of kernels 05 (pad 1, 32 banks) and 08 (pad 0):
 * naive [A, B, KPack] strides [KPack, (kK+pad)*L, 1] (+ gvl 8, gvs 1),
 * xor(kM/L*row_mul, kK/KPack*L) on [1,0]->[1,0], pass(KPack) [2]->[2];
 * unmerge(L, K0) [0]->[0,2], pass(B) [1]->[1], pass(KPack) [2]->[3];
 * merge(B, L) [1,0]->[0], merge(K0, KPack) [2,3]->[1]. */
layout_status seed_xor_mk(layout_descriptor *d, int n_banks, int row_mul, int pad);
/* MLdsLayer = NBanks*4/kK/sizeof(fp16) */
int seed_mlds_layer(int n_banks);
/* docs/lds-model.md §4.2: B*(kK+pad)*L + A'*8 + C with B = m/L,
 * A = (m%L)*(kK/8) + k/8, C = k%8, A' = A ^ (B % (kK/8*L)). */
int64_t seed_xor_closed_form(int64_t m, int64_t k, int n_banks, int pad);

#endif
