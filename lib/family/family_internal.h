/* Private helpers shared by the layout-family files (lib/family); what
 * other layers need of a family set is family_set.h.  Not installed. */
#ifndef LAYOUT_FAMILY_INTERNAL_H
#define LAYOUT_FAMILY_INTERNAL_H

#include "../core/internal.h"
#include "../core/bits.h"
#include "layout/family.h"
#include "family_set.h"

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
