/* Closed forms of the talk's lane maps and LDS layouts (see seed_maps.h). */
#include "seed_maps.h"

int seed_map_coord(int kernel, int side, int w, int l, int64_t e, int64_t *x)
{
    if (side == SEED_MAP_WRITE) { /* every kernel: m = 16w + l/4, k = 8(l%4) + e */
        x[0] = 16 * w + l / 4;
        x[1] = 8 * (l % 4) + e;
        return 0;
    }
    switch (kernel) {
    case 1: case 2: case 3: case 4: case 5: /* (k, m): k = 8w + l/8, m = 8(l%8) + e */
        x[0] = 8 * w + l / 8;
        x[1] = 8 * (l % 8) + e;
        return 0;
    case 8: /* (m, k): m = l, k = 8w + e */
        x[0] = l;
        x[1] = 8 * w + e;
        return 0;
    case 10: /* (m, k): m = 8(l/8) + e, k = 8w + l%8 */
        x[0] = 8 * (l / 8) + e;
        x[1] = 8 * w + l % 8;
        return 0;
    }
    return -1;
}

/* B*(kK+pad)*L + A'*8 + C, B = m/L, A = (m%L)*(kK/8) + k/8, C = k%8, A' = A ^ (B % (kK/8*L)). */
static int64_t xor_layout(int64_t m, int64_t k, int64_t L, int64_t pad)
{
    int64_t B = m / L, A = (m % L) * 4 + k / 8, C = k % 8;
    int64_t Ap = A ^ (B % (4 * L));
    return B * (32 + pad) * L + Ap * 8 + C;
}

int64_t seed_map_offset(int kernel, int side, int n_banks, const int64_t *x)
{
    int km = side == SEED_MAP_READ && kernel <= 5;
    int64_t m = km ? x[1] : x[0], k = km ? x[0] : x[1];
    switch (kernel) {
    case 1: return m * 32 + k;
    case 2: return m + 64 * k;
    case 3: return m * 34 + k;
    case 4: return xor_layout(m, k, 2, 0);
    case 5: return xor_layout(m, k, 2, 1);
    case 8: case 10: return xor_layout(m, k, n_banks * 4 / 32 / 2, 0);
    }
    return -1;
}
