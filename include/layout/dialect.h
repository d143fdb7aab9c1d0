/**
 * @file dialect.h
 * @brief One entry point for every layout dialect: detect which one a text
 *        is written in, read it as a descriptor or distribution, and write a
 *        descriptor in any dialect that can express it.
 *
 * | dialect | reads | writes | header |
 * |---|---|---|---|
 * | ck      | text.h descriptor / `dist(...)` | descriptor / encoding text | text.h |
 * | triton  | swizzled_shared, padded_shared, shared_linear, blocked, linear | swizzled_shared, padded_shared, shared_linear (descriptors); blocked, linear (distributions) | triton.h |
 * | cute    | `(shape):(stride)`, `Sw<B,M,S> o O o ...` | the same | cute.h |
 * | iree    | `#iree_codegen.xor_shuffle<...>` | the same | iree.h |
 * | linear  | bases (`{"offset": [[..]]}`, `#ttg.linear<...>`) | bases | triton.h, linear.h |
 * | ck-cpp  | (write only) | ck_tile C++ maker calls | ck_cpp.h |
 *
 * Detection (layout_dialect_detect()), on the text after leading blanks:
 * `#ttg.linear` or `{` -> linear; `#ttg.` -> triton; `#iree_codegen.` or
 * `#xor<` -> iree; `Sw<`, or a text containing "):(" or matching
 * `_N:` / `N:` at the start -> cute; anything else -> ck.
 *
 * Thread safety: reentrant; no allocation.  Errors follow each dialect's
 * header (parse errors carry the byte offset for layout_text_caret()).
 */
#ifndef LAYOUT_DIALECT_H
#define LAYOUT_DIALECT_H

#include <stddef.h>
#include <stdint.h>

#include "layout/descriptor.h"
#include "layout/distribution.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The dialects (names as layout_dialect_name() spells them). */
typedef enum layout_dialect {
    LAYOUT_DIALECT_CK = 0,     /**< liblayout's ck_tile-shaped text (text.h) */
    LAYOUT_DIALECT_TRITON = 1, /**< TritonGPU attributes (triton.h) */
    LAYOUT_DIALECT_CUTE = 2,   /**< CuTe printed layouts (cute.h) */
    LAYOUT_DIALECT_IREE = 3,   /**< IREE xor_shuffle (iree.h) */
    LAYOUT_DIALECT_LINEAR = 4, /**< linear-layout bases (triton.h / linear.h) */
    LAYOUT_DIALECT_CK_CPP = 5  /**< ck_tile C++ (output only) */
} layout_dialect;

/** "ck", "triton", "cute", "iree", "linear", "ck-cpp"; "?" for others. Never NULL. */
const char *layout_dialect_name(layout_dialect d);

/** Dialect from its name.  Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_NOT_FOUND (message lists the names). */
layout_status layout_dialect_from_name(const char *name, layout_dialect *out, layout_error *err);

/** The dialect a text is written in (rules in the file comment); ck for NULL. */
layout_dialect layout_dialect_detect(const char *text);

/**
 * Read a descriptor written in @p dialect.  @p shape (n_shape values, may be
 * 0 / NULL) is the tile shape that Triton's swizzled_shared and IREE's
 * xor_shuffle need ({rows, cols}).
 * Errors: each dialect's parse / build errors; ::LAYOUT_ERR_UNSUPPORTED for
 * ck-cpp (write only) or a distribution attribute (`#ttg.blocked`).
 */
layout_status layout_desc_from_dialect(layout_dialect dialect, const char *text, int n_shape, const int64_t *shape,
                                       layout_descriptor *out, size_t *where, layout_error *err);

/**
 * Read a distribution: ck `dist(...)` (wave size 0 = from the text),
 * Triton `#ttg.blocked` (needs @p shape) or linear bases over register /
 * lane / warp (a table distribution written into @p table, @p table_cap
 * values, which must outlive @p out).
 * Errors: each dialect's errors; ::LAYOUT_ERR_UNSUPPORTED for dialects without distributions.
 */
layout_status layout_dist_from_dialect(layout_dialect dialect, const char *text, int n_shape, const int64_t *shape,
                                       int64_t *table, size_t table_cap, layout_distribution *out, size_t *where,
                                       layout_error *err);

/**
 * Write @p d in @p dialect.  ck: layout_desc_to_text(); triton:
 * layout_desc_to_triton(); cute: layout_desc_to_cute(); iree:
 * layout_desc_to_iree(); linear: layout_desc_to_linear() printed in
 * Triton's shared direction (`{"offset": ...}` when bijective onto
 * 0..2^k-1, else dims -> offset); ck-cpp: layout_desc_to_ck_cpp() (the
 * whole snippet must fit: ::LAYOUT_ERR_BUFFER otherwise).
 * Errors: ::LAYOUT_ERR_UNSUPPORTED saying why the dialect cannot express
 * @p d; ::LAYOUT_ERR_BUFFER.
 */
layout_status layout_desc_to_dialect(layout_dialect dialect, const layout_descriptor *d, char *buf, size_t cap,
                                     layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_DIALECT_H */
