/* Private helpers of lib/linear.  Not installed. */
#ifndef LAYOUT_LINEAR_INTERNAL_H
#define LAYOUT_LINEAR_INTERNAL_H

#include "layout/linear.h"

#include <stdint.h>

/* Low `bits` bits set (bits in 0..64). */
uint64_t layout_lin_mask(int bits);
/* Index of the highest set bit of v != 0. */
int layout_lin_top_bit(uint64_t v);
/* Bits needed to hold v (0 for 0). */
int layout_lin_bit_length(uint64_t v);
/* log2(v) when v is a power of two >= 1, else -1. */
int layout_lin_log2_exact(int64_t v);
/* Value of output dim j in a packed output. */
uint64_t layout_lin_extract(const layout_linear *ll, uint64_t packed, int out_dim);
/* F2 rank of v[0..n). */
int layout_lin_rank_of(const uint64_t *v, int n);

#endif /* LAYOUT_LINEAR_INTERNAL_H */
