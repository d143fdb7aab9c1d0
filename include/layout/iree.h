/**
 * @file iree.h
 * @brief IREE's `#iree_codegen.xor_shuffle` shared-memory swizzle (the IREE
 *        swizzle talk, docs/lds-model.md §6):
 *        parse, print, and convert to and from descriptors.
 *
 * ## Syntax
 *
 *     #iree_codegen.xor_shuffle<128, 4, 128, 1>
 *     #iree_codegen.xor_shuffle<row_width = 128, access_width = 4, row_stride = 128, per_phase = 1>
 *     #xor<128,4,128,1>                      (the short alias the talk's IR snapshots use)
 *
 * Parameters are positional in the order row_width, access_width,
 * row_stride, per_phase, or named (`name = value`, the same order); C-style
 * comments (slash-star ... star-slash, as the talk writes the names) may
 * appear between tokens.  row_stride and per_phase may be
 * omitted: IREE creates the attribute with them unset (0) and its resolver
 * then uses row_stride = row_width and per_phase = 1; liblayout reads an
 * omitted or 0 value the same way and prints all four.
 *
 * ## Semantics (the talk's slide "Swizzle: Permute Columns Per Row")
 *
 * For logical element (row, col) of a tile [R, C] with C = row_width:
 * `groups = row_width / access_width`, `phase = (row / per_phase) % groups`,
 * `physical_group = (col / access_width) ^ phase`, offset =
 * `row * row_stride + physical_group * access_width + col % access_width`.
 * Seed 004's worked example: xor_shuffle<128, 4, 128, 1>, tile[3][8] -> 388.
 * row_stride > row_width is IREE's padding (the GPUReduceBankConflicts
 * fallback widens the row pitch, e.g. 128 -> 132 f16); IREE has no separate
 * padding attribute, so a padded, unswizzled row-major tile is
 * `xor_shuffle<C, C, C + pad, 1>` (one group: the XOR is the identity).
 *
 * The descriptor is built by family.h (::LAYOUT_FAMILY_IREE_XOR_SHUFFLE,
 * one evaluator per concept): top dims [R, C] = (row, col).
 *
 * Thread safety: reentrant, allocation-free.  Errors: as text.h (column,
 * `*where` for layout_text_caret()).
 */
#ifndef LAYOUT_IREE_H
#define LAYOUT_IREE_H

#include <stddef.h>
#include <stdint.h>

#include "layout/descriptor.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The four parameters of `#iree_codegen.xor_shuffle`. */
typedef struct layout_iree_xor_shuffle {
    int64_t row_width;    /**< elements of one row (the tile's column count) */
    int64_t access_width; /**< contiguous elements moved together; divides row_width */
    int64_t row_stride;   /**< elements between row starts (>= row_width; larger = padding) */
    int64_t per_phase;    /**< rows sharing one permutation (>= 1) */
} layout_iree_xor_shuffle;

/**
 * Parse the attribute (see the file comment).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_PARSE (syntax, a wrong parameter
 * name); ::LAYOUT_ERR_ARG (a value < 1, access_width not dividing
 * row_width, row_width / access_width not a power of two, row_stride <
 * row_width), at the offending value's column.
 */
layout_status layout_iree_from_text(const char *text, layout_iree_xor_shuffle *out, size_t *where,
                                    layout_error *err);

/**
 * Print `#iree_codegen.xor_shuffle<row_width, access_width, row_stride, per_phase>`.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_BUFFER.
 */
layout_status layout_iree_to_text(const layout_iree_xor_shuffle *x, char *buf, size_t cap, layout_error *err);

/**
 * The descriptor of @p x over @p rows rows (top dims [rows, row_width]).
 * Errors: ::LAYOUT_ERR_NULL; layout_family_build()'s errors (::LAYOUT_ERR_ARG
 * for illegal parameters).
 */
layout_status layout_iree_to_desc(const layout_iree_xor_shuffle *x, int64_t rows, layout_descriptor *out,
                                  layout_error *err);

/**
 * Recognise a 2-D descriptor [R, C] as an xor_shuffle: row_width = C, row_stride
 * read from the offsets, then every access_width dividing C (C / aw a power of
 * two) and every per_phase dividing R is built with family.h and compared on
 * the whole tile; the first exact match is returned.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_UNSUPPORTED naming why (not 2-D,
 * padding, no parameter set matches).
 */
layout_status layout_iree_from_desc(const layout_descriptor *d, layout_iree_xor_shuffle *out, layout_error *err);

/**
 * Parse and build: @p shape is {rows, cols} (cols must equal row_width) or
 * NULL for rows = 1.  Parse errors carry the offset in @p where; a shape that
 * does not match returns ::LAYOUT_ERR_MISMATCH with *where at the row_width.
 */
layout_status layout_desc_from_iree(const char *text, const int64_t *shape, layout_descriptor *out, size_t *where,
                                    layout_error *err);

/** layout_iree_from_desc() then layout_iree_to_text(). */
layout_status layout_desc_to_iree(const layout_descriptor *d, char *buf, size_t cap, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_IREE_H */
