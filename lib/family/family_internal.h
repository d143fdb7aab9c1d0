/* Private helpers shared by the layout-family files (lib/family).  Not
 * installed. */
#ifndef LAYOUT_FAMILY_INTERNAL_H
#define LAYOUT_FAMILY_INTERNAL_H

#include "../core/internal.h"
#include "../core/bits.h"
#include "layout/family.h"

#define FAM_MAX_TILE ((int64_t)1 << 40)
#define FAM_MAX_PAD ((int64_t)1 << 30)
#define FAM_MAX_BITS 30

static inline int64_t fam_abs64(int64_t x) { return x < 0 ? -x : x; }

/* Rows R and columns C of the tile in storage order. */
static inline void fam_tile_rc(const int64_t tile[2], int contiguous_dim, int64_t *R, int64_t *C)
{
    *C = tile[contiguous_dim];
    *R = tile[1 - contiguous_dim];
}

/* CuTe swizzle parameters p[] -> its B, M, S in elements. */
static inline void fam_cute_elem(const int64_t *p, int64_t *B, int64_t *M, int64_t *S)
{
    *B = p[0];
    *S = p[2];
    *M = p[3] > 0 ? p[1] - layout_log2_exact(p[3]) : p[1];
}

/* The vector hints (layout_desc_vector_hints) of family set *params's
 * descriptor on the tile without building it: returns 1 and fills lens[2],
 * strides[2] for the forms whose builders it mirrors (test_family compares
 * it with the descriptor on every set of its tiles), 0 for the rest (CuTe's
 * byte form and identity swizzle, F2): build the descriptor (closed_form.c). */
int layout_family_vector_hints(const layout_family_params *params, const int64_t tile[2], int64_t *lens,
                               int64_t *strides);

/* The family set *params as an unpadded set plus a pad term:
 * offset(r, c) = offset_unpadded(r, c) + (r >> *pad_shift) * *pad (r the
 * storage row); returns 0 when it has no such form (a pad every N rows with
 * N not a power of two, IREE's row stride and a XOR + pad together).
 * test_family checks the identity on every set of its tiles (closed_form.c). */
int layout_family_pad_form(const layout_family_params *params, const int64_t tile[2], layout_family_params *unpadded,
                           int64_t *pad, int *pad_shift);

/* When the family set *params (accepted by layout_family_check(), not F2)
 * is linear over F2 on the tile: every length a power of two and no
 * padding.  Then bases[] gets the offset of each unit coordinate (dim 0's
 * bits, then dim 1's), in_bits[] log2 of the tile, *out_bits log2 of the
 * element space; returns 1.  Returns 0 otherwise (closed_form.c). */
int layout_family_linear_bases(const layout_family_params *params, const int64_t tile[2], uint64_t *bases,
                               int *in_bits, int *out_bits);


/* Legality of a tile (1..2^40 elements per dim and in all, contiguous_dim
 * 0 or 1) and of a whole parameter set on it; fn names the caller in the
 * message (family.c). */
layout_status layout_family_check_tile(const char *fn, const int64_t tile[2], int contiguous_dim, layout_error *err);
layout_status layout_family_check_params(const char *fn, const layout_family_params *pr, const int64_t tile[2],
                           layout_error *err);

/* Elements of the set's storage on an R x C tile (rows x columns in
 * storage order), the set accepted by layout_family_check_params() (family.c). */
int64_t layout_family_space_elems(const layout_family_params *pr, int64_t R, int64_t C);

#endif
