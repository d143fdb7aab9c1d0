/* Private: the transform protocol table.  One row per kind; every row has the
 * same functions, so a new kind is one row plus its functions.  Not installed. */
#ifndef LAYOUT_TRANSFORM_TABLE_H
#define LAYOUT_TRANSFORM_TABLE_H

#include "layout/transform.h"
#include "internal.h"
#include "strbuf.h"

/* Closed interval [lo, hi] of values a hidden index can take. */
typedef struct layout_interval {
    int64_t lo, hi;
} layout_interval;

typedef struct layout_kind_row {
    const char *name;
    /* 1 when `lower` is an affine function of the upper index over all
     * integers (lets batch evaluation fold a chain into a dot product) */
    int affine;
    /* lower index from upper index (the formula) */
    void (*lower)(const layout_transform *t, const int64_t *up, int64_t *low);
    /* 1 when the upper index maps to a valid lower index; NULL = always */
    int (*valid)(const layout_transform *t, const int64_t *up);
    /* ck_tile's upper vector (length, stride) from the lower ones */
    void (*hint)(const layout_transform *t, const int64_t *low_len, const int64_t *low_stride,
                 int64_t *up_len, int64_t *up_stride);
    /* text of the constructor call */
    void (*print)(const layout_transform *t, layout_strbuf *sb);
    /* rebuild through the public constructor from the defining fields */
    layout_status (*rebuild)(const layout_transform *t, layout_transform *out, layout_error *err);
    /* bounds of the lower indices from bounds of the upper ones, including
     * every intermediate value of `lower`; returns 1 if some value could
     * overflow int64 */
    int (*range)(const layout_transform *t, const layout_interval *up, layout_interval *low);
} layout_kind_row;

/* Indexed by layout_transform_kind. */
extern const layout_kind_row layout_kind_table[LAYOUT_TRANSFORM_KIND_COUNT];

#endif /* LAYOUT_TRANSFORM_TABLE_H */
