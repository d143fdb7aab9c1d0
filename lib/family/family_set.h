/* What other layers (the layout search, lib/suggest) need of a family
 * parameter set beyond the public family.h: its closed forms, read off the
 * parameters without building the descriptor.  Each function is pure (no
 * heap, no state; thread-safe), takes a set that layout_family_check()
 * accepts on the tile, and answers 0 when the set has no such form.  Not
 * installed. */
#ifndef LAYOUT_FAMILY_SET_H
#define LAYOUT_FAMILY_SET_H

#include "layout/family.h"

#include <stdint.h>

/** The vector hints (layout_desc_vector_hints) of family set *params's
 * descriptor on the tile without building it: returns 1 and fills lens[2],
 * strides[2] for the forms whose builders it mirrors (test_family compares
 * it with the descriptor on every set of its tiles), 0 for the rest (CuTe's
 * byte form and identity swizzle, F2): build the descriptor (closed_form.c). */
int layout_family_vector_hints(const layout_family_params *params, const int64_t tile[2], int64_t *lens,
                               int64_t *strides);

/** The family set *params as an unpadded set plus a pad term:
 * offset(r, c) = offset_unpadded(r, c) + (r >> *pad_shift) * *pad (r the
 * storage row); returns 0 when it has no such form (a pad every N rows with
 * N not a power of two, IREE's row stride and a XOR + pad together).
 * test_family checks the identity on every set of its tiles (closed_form.c). */
int layout_family_pad_form(const layout_family_params *params, const int64_t tile[2], layout_family_params *unpadded,
                           int64_t *pad, int *pad_shift);

/** When the family set *params (accepted by layout_family_check(), not F2)
 * is linear over F2 on the tile: every length a power of two and no
 * padding.  Then bases[] gets the offset of each unit coordinate (dim 0's
 * bits, then dim 1's), in_bits[] log2 of the tile, *out_bits log2 of the
 * element space; returns 1.  Returns 0 otherwise (closed_form.c). */
int layout_family_linear_bases(const layout_family_params *params, const int64_t tile[2], uint64_t *bases,
                               int *in_bits, int *out_bits);

#endif /* LAYOUT_FAMILY_SET_H */
