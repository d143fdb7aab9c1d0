/* What other layers (the CK C++ printer, lib/dialect/ck_cpp.c) need of a
 * descriptor's text form: the stage structure (base constructor, then
 * transform_tensor_descriptor stages) that layout_desc_to_text() recovers,
 * so another printer can write the same stages.  Pure, no heap,
 * thread-safe.  Not installed. */
#ifndef LAYOUT_TEXT_DESC_SHAPE_H
#define LAYOUT_TEXT_DESC_SHAPE_H

#include "layout/descriptor.h"

/** Base constructor of a descriptor's text form. */
enum { TEXT_BASE_NONE = 0, TEXT_BASE_PACKED, TEXT_BASE_NAIVE, TEXT_BASE_NAIVE_OFF };

/** The stage structure layout_desc_to_text() recovers (and verifies by
 * parsing it back): the base, then stages of consecutive transforms with
 * the positional lower / upper ids of ck_tile's two sequence<> tuples. */
typedef struct text_desc_shape {
    int base;                                    /* TEXT_BASE_* */
    int base_transforms;                         /* transforms the base accounts for (1 or 2) */
    int n_stages;                                /* transform_tensor_descriptor calls */
    int stage_begin[LAYOUT_MAX_TRANSFORMS + 1];  /* stage s = transforms stage_begin[s] .. stage_begin[s+1]-1 */
    layout_seq lower[LAYOUT_MAX_TRANSFORMS];     /* per transform: old top positions it consumes */
    layout_seq upper[LAYOUT_MAX_TRANSFORMS];     /* per transform: new top positions it produces */
} text_desc_shape;

/** Fill *out with d's stage structure: 0, or 1 (no stage form) / 2 (no text
 * reproduces d), as layout_desc_to_text() decides. */
int layout_text_desc_shape_of(const layout_descriptor *d, text_desc_shape *out);

#endif /* LAYOUT_TEXT_DESC_SHAPE_H */
