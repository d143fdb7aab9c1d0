/* Closed-form references for the talk's kernels (docs/lds-model.md §4.2), written
 * independently of the library: which tile element a lane holds, and at
 * which element offset each kernel's LDS view stores it. */
#ifndef LAYOUT_TEST_SEED_MAPS_H
#define LAYOUT_TEST_SEED_MAPS_H

#include <stdint.h>

/* Kernel numbers as in the talk: 1, 2, 3, 4, 5, 8, 10. */
enum { SEED_MAP_WRITE = 0, SEED_MAP_READ = 1 };

/* Coordinate held by lane l of warp w in register element e, in the view's
 * dim order: the write side and reads of 08/10 are (m, k); reads of 01..05
 * are (k, m).  Returns 0, or -1 for an unknown kernel. */
int seed_map_coord(int kernel, int side, int w, int l, int64_t e, int64_t *x);

/* Element offset of view coordinate x (as above) in the kernel's LDS layout
 * for an LDS of n_banks banks (04/05 hard-code 32).  -1 for an unknown kernel. */
int64_t seed_map_offset(int kernel, int side, int n_banks, const int64_t *x);

#endif
