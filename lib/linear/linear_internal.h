/* Private helpers of lib/linear.  Not installed. */
#ifndef LAYOUT_LINEAR_INTERNAL_H
#define LAYOUT_LINEAR_INTERNAL_H

#include "layout/linear.h"
#include "../core/bits.h"

#include <stdint.h>

/* Shifts that give 0 for a shift of 64 (a dim of 0 bits sits at bit 64 once
 * 64 bits are taken; its values are 0, but C leaves `x << 64` undefined). */
static inline uint64_t layout_lin_shl(uint64_t v, int s) { return s >= 64 ? 0 : v << s; }
static inline uint64_t layout_lin_shr(uint64_t v, int s) { return s >= 64 ? 0 : v >> s; }
/* Low `bits` bits set (bits in 0..64). */
uint64_t layout_lin_mask(int bits);
/* Value of output dim j in a packed output. */
uint64_t layout_lin_extract(const layout_linear *ll, uint64_t packed, int out_dim);
/* 1 when ll has at least one output dim and at most one of them has bits:
 * then a packed output is that dim's value (an offset). */
int layout_lin_single_out(const layout_linear *ll);

#endif /* LAYOUT_LINEAR_INTERNAL_H */
