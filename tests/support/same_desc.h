/* Whole-tile comparison of two descriptors for the dialect tests: the same
 * top lengths, and on every coordinate the same offset and validity
 * (header-only, written independently of the library's recognisers). */
#ifndef SAME_DESC_H
#define SAME_DESC_H

#include "layout.h"

#include <stdint.h>

/* -1 when equal; else the first row-major index that differs (0 when the
 * top lengths differ). */
static inline int64_t sd_first_difference(const layout_descriptor *a, const layout_descriptor *b)
{
    int n = layout_desc_ndims(a), j;
    int64_t total = 1, k, c[LAYOUT_MAX_DIMS];
    if (n != layout_desc_ndims(b)) return 0;
    for (j = 0; j < n; j++) {
        if (layout_desc_length(a, j) != layout_desc_length(b, j)) return 0;
        total *= layout_desc_length(a, j);
    }
    for (k = 0; k < total; k++) {
        int64_t r = k, oa, ob;
        int va = -1, vb = -1;
        for (j = n - 1; j >= 0; j--) {
            c[j] = r % layout_desc_length(a, j);
            r /= layout_desc_length(a, j);
        }
        if (layout_desc_offset(a, c, &oa, NULL) != LAYOUT_OK || layout_desc_offset(b, c, &ob, NULL) != LAYOUT_OK)
            return k;
        if (layout_desc_is_valid(a, c, &va, NULL) != LAYOUT_OK || layout_desc_is_valid(b, c, &vb, NULL) != LAYOUT_OK)
            return k;
        if (oa != ob || va != vb) return k;
    }
    return -1;
}

#endif /* SAME_DESC_H */
