/* Offsets of a whole tile of a linear layout: a block table over the lowest
 * row-major index bits and a Gray-code walk over the higher ones, so every
 * output costs one XOR (and the inner loop vectorises). */
#include "layout/linear.h"

#include "../core/internal.h"
#include "linear_internal.h"

#include <inttypes.h>

/* Row-major index bits of the lowest block. */
#define TILE_BLOCK_BITS 6

layout_status layout_linear_tile_offsets(const layout_linear *ll, int64_t *offsets, size_t cap, layout_error *err)
{
    static const char fn[] = "layout_linear_tile_offsets";
    if (!ll) return layout_fail(err, LAYOUT_ERR_NULL, "%s: ll is NULL", fn);
    if (!layout_lin_single_out(ll))
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: the layout has %d output dims, tile offsets need 1 (others of size 1)", fn, ll->n_out);
    const int T = ll->total_in_bits;
    if (T > 62)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %d input bits: the tile does not fit memory", fn, T);
    const uint64_t n = (uint64_t)1 << T;
    if (!offsets) return layout_fail(err, LAYOUT_ERR_NULL, "%s: offsets is NULL", fn);
    if ((uint64_t)cap < n)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: cap = %zu offsets, the tile has %" PRIu64, fn, cap, n);
    /* image of each row-major index bit: the last input dim is the fastest */
    uint64_t idx_img[64];
    int t = 0;
    for (int i = ll->n_in - 1; i >= 0; i--)
        for (int k = 0; k < ll->in_bits[i]; k++) idx_img[t++] = ll->bases[ll->in_shift[i] + k];
    const int K = T < TILE_BLOCK_BITS ? T : TILE_BLOCK_BITS;
    const size_t block = (size_t)1 << K;
    int64_t low[(size_t)1 << TILE_BLOCK_BITS];
    low[0] = 0;
    for (size_t j = 1; j < block; j++)
        low[j] = low[j & (j - 1)] ^ (int64_t)idx_img[__builtin_ctzll((uint64_t)j)];
    const uint64_t n_blocks = n >> K;
    int64_t base = 0;
    for (uint64_t h = 0; h < n_blocks; h++) {
        if (h) base ^= (int64_t)idx_img[K + __builtin_ctzll(h)]; /* Gray code: one bit flips */
        int64_t *o = offsets + ((h ^ (h >> 1)) << K);
        if (K == TILE_BLOCK_BITS) { /* a constant trip count: the compiler vectorises it */
            for (size_t j = 0; j < ((size_t)1 << TILE_BLOCK_BITS); j++) o[j] = base ^ low[j];
        } else {
            for (size_t j = 0; j < block; j++) o[j] = base ^ low[j];
        }
    }
    return layout_ok(err);
}
