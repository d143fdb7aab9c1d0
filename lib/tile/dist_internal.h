/* Private: a tile distribution's X split into its thread and element parts.
 * For an encoding, P and Y own disjoint H entries, so
 *   X = thread_part(warp, lane) + elem_part(y)
 * which lets the access layer compute each part once.  Not installed. */
#ifndef LAYOUT_DIST_INTERNAL_H
#define LAYOUT_DIST_INTERNAL_H

#include "layout/distribution.h"

/* Encodings only; warp, lane in range.  Writes n_x values. */
void layout_dist_thread_part(const layout_distribution *d, int warp, int lane, int64_t *x);
/* Encodings only; y in range.  Writes n_x values. */
void layout_dist_elem_part(const layout_distribution *d, const int64_t *y, int64_t *x);

#endif
