/**
 * @file text.h
 * @brief Text forms: parse and print descriptors in a ck_tile-shaped syntax.
 *
 * A text form lets a layout travel through a command line, a bug report or a
 * configuration file.  Printing gives the *canonical* text; parsing it back
 * gives an equal object, and printing that again gives the same text.
 *
 * ## Descriptors
 *
 * One base constructor, then one `T{...}` stage per ck_tile
 * `transform_tensor_descriptor` call, separated by `|`:
 *
 *     naive([8,32,8],[8,64,1],gvl=8,gvs=1)
 *       | T{xor([32,8]):[1,0]->[1,0] ; pass(8):[2]->[2]}
 *       | T{unmerge([2,4]):[0]->[0,2] ; pass(32):[1]->[1] ; pass(8):[2]->[3]}
 *       | T{merge([32,2]):[1,0]->[0] ; merge([4,8]):[2,3]->[1]}
 *
 * (the LDS descriptor of seed kernel 08: a 64x32 fp16 tile as [M, K]).
 *
 * Bases (lengths and strides in elements):
 * | text | library call |
 * |---|---|
 * | `naive([l..],[s..])`, optional `gvl=V`, `gvs=S` | layout_naive_vec() (guaranteed last-dim vector length / stride) |
 * | `naive_off([l..],[s..],off=O)` | layout_naive_offset() |
 * | `packed([l..])`, optional `gvl=V` | layout_packed_vec() |
 * | `aligned([l..],align=A)` | layout_aligned() (prints back as the equal `naive`) |
 *
 * Transforms (ck_tile names in brackets are accepted as aliases):
 * `pass(L)` [pass_through], `pad(L,left,right)`, `lpad(L,left)` [left_pad],
 * `rpad(L,right)` [right_pad], `embed([u..],[c..])`, `merge([l..])`,
 * `merge3([l..])` (the div/mod variant) [merge_divmod], `unmerge([u..])`,
 * `xor([l0,l1])`, `slice(L,begin,end)`, `freeze(v)`, `insert(L)`,
 * `replicate([u..])`, `modulo(m,L)`, `offset(L,o)`.
 *
 * Each stage item is `transform:[lower ids]->[upper ids]`, exactly ck_tile's
 * two sequences: lower ids name the previous stage's top dims, the upper
 * lists together are a permutation of the new top dims; `[]` where a
 * transform has none.  Items are separated by `;`.
 *
 * Lexical rules: whitespace (including newlines) may appear between any two
 * tokens; `#` starts a comment running to the end of the line; numbers are
 * decimal int64 with an optional `-`.  Canonical text has no spaces except
 * `" ; "` between stage items and `" | "` between stages.
 *
 * ## Distributions
 *
 * ck_tile's `tile_distribution_encoding<R, H..., P->RH, Y->RH>`, each RH dim
 * written `(major,minor)` (major 0 = R, major i = H_{i-1}):
 *
 *     dist(R=[1], H=([1,8,8],[4,8]), P=([(2,0)],[(1,1),(1,2)]), Y=[(1,0),(2,1)])
 *
 * is seed kernel 08's read side (m = lane, k = 8*warp + y1).  With two P
 * lists the warp count and wave size are the lengths of P0 and P1; with one
 * P list (lane only, every warp holding the same data) the wave size is its
 * length and an optional trailing `, warps=N` gives the warp count
 * (default 1).
 *
 * ## Architectures
 *
 * A preset is written by its name (`gfx942`, `gfx950`, `sm_90`, ...).  A
 * custom architecture lists its bank count, bank width, wave size and the
 * lane groups of each (direction, width):
 *
 *     arch(name=rdna64, banks=64, bank_bytes=4, wave=32,
 *          rw b8/b16/b32=seq(32), rw b64=seq(16), rw b96/b128=seq(8))
 *
 * `read` / `write` / `rw` picks the direction(s); widths are b8 b16 b32 b64
 * b96 b128 joined by `/`.  Groups are `seq(N)` (consecutive groups of N
 * lanes), explicit lane sets `{0-3,20-23}{4-7,16-19}...`, or `none` (no such
 * instruction).  A load fold (NVIDIA, docs/lds-model.md §2.5) follows the groups:
 * `rw b64=seq(16) fold[1,2]=seq(32)`.  `base=PRESET` as the first item
 * starts from a preset and overrides what follows:
 * `arch(base=gfx942, name=gfx942-64, banks=64)`.  Omitted rules are
 * unsupported; `bank_bytes` defaults to 4; the name to `custom`.  `ds=none`
 * / `paired` / `unaligned` / `amd` sets the DS instruction forms the
 * compiler model may use (::layout_arch::ds_forms: `none` on NVIDIA); it
 * defaults to `amd` (paired and unaligned) and prints only when it differs.
 * `idle=0` / `idle=1` sets the cycles of a lane group without an active lane
 * (::layout_arch::idle_group_cycles: 0 on NVIDIA); it defaults to 1 and
 * prints only when it differs.
 *
 * The canonical text of a preset is its name; any other architecture prints
 * as `arch(name=..., banks=..., bank_bytes=..., wave=..., <rules>)` with
 * every width listed (`rw` when both directions agree, equal rules merged).
 * Rules read from text carry confidence "medium" and the source
 * "user-defined (text form)": the text keeps the model, not the provenance.
 *
 * ## Errors
 *
 * A parse error returns ::LAYOUT_ERR_PARSE (or the library's status when the
 * text is well-formed but a constructor refuses it, e.g. ::LAYOUT_ERR_ARG
 * for `pass(0)`) with a message "<function>: column C: expected ..., found
 * ..." ("line L, column C" for multi-line text).  The byte offset of the spot
 * is also returned so layout_text_caret() can draw
 *
 *     naive([8,32],[32 1])
 *                     ^
 *
 * Thread safety: every function here is reentrant and allocation-free; the
 * objects and buffers are caller-owned.  Parsing works on the stack (up to
 * about 48 KiB; layout_desc_to_text() parses its own output back to verify
 * it, about 76 KiB), so threads with tiny stacks should print elsewhere.
 */
#ifndef LAYOUT_TEXT_H
#define LAYOUT_TEXT_H

#include <stddef.h>

#include "layout/status.h"
#include "layout/descriptor.h"
#include "layout/arch.h"
#include "layout/distribution.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A text buffer of this many bytes always holds the canonical text of any
 * object liblayout can represent (descriptor, distribution, architecture).
 */
#define LAYOUT_TEXT_CAP 16384

/** Width in characters of the line excerpt layout_text_caret() shows. */
#define LAYOUT_TEXT_CARET_WIDTH 72

/**
 * Parse a descriptor from its text form (see the file documentation).
 *
 * @param text     NUL-terminated text; whitespace and comments allowed.
 * @param out      receives the descriptor; untouched on failure.
 * @param where    if non-NULL, receives the byte offset in @p text of the
 *                 offending spot on failure (left untouched on success);
 *                 feed it to layout_text_caret().
 * @param err      may be NULL; message "layout_desc_from_text: column 17:
 *                 expected ',' or ']', found '1'".
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NULL for NULL @p text / @p out;
 *         ::LAYOUT_ERR_PARSE for a syntax error; the constructor's status
 *         (::LAYOUT_ERR_ARG, ::LAYOUT_ERR_DIM_ID, ::LAYOUT_ERR_OVERFLOW,
 *         ::LAYOUT_ERR_CAPACITY, ...) when a well-formed text describes an
 *         invalid descriptor; the offset then points at the base or item.
 *
 * Example: `layout_desc_from_text("packed([64,32])", &d, NULL, &e)` is
 * layout_packed() of a 64x32 row-major tile.
 */
layout_status layout_desc_from_text(const char *text, layout_descriptor *out, size_t *where, layout_error *err);

/**
 * Print the canonical text of a descriptor built by the library's
 * constructors (a base then any number of layout_transform_descriptor()
 * stages).
 *
 * Stage boundaries are recovered from the hidden-dimension dataflow.  The
 * order of an intermediate stage's top dims is not stored (only the final
 * one is), so the printer chooses it: upper dim k of a transform keeps the
 * position of its lower dim k when that is free, the others fill the free
 * positions in transform order.  A text written by hand may therefore come
 * back with an intermediate stage renumbered — still the same descriptor.  An
 * aligned() base prints as the equal naive().
 *
 * @param d    the descriptor.
 * @param buf  receives the NUL-terminated text; untouched on failure.
 * @param cap  size of @p buf in bytes; ::LAYOUT_TEXT_CAP always suffices.
 * @param err  may be NULL.
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_BUFFER when @p cap is
 *         too small (the message names the size needed);
 *         ::LAYOUT_ERR_UNSUPPORTED when the descriptor's adaptor was not built
 *         as base + stages (no text form reproduces it).
 */
layout_status layout_desc_to_text(const layout_descriptor *d, char *buf, size_t cap, layout_error *err);

/**
 * Parse a tile distribution from its encoding text and build it with
 * layout_dist_make().
 *
 * @param text       NUL-terminated `dist(...)` text.
 * @param wave_size  lanes per wave, or 0 to take it from the encoding (the
 *                   length of the last P list).
 * @param n_warps    warps, or 0 to take it from the encoding (two P lists:
 *                   the length of P0; one P list: `warps=N`, default 1).
 * @param out        receives the distribution; untouched on failure.
 * @param where      if non-NULL, receives the byte offset of the error.
 * @param err        may be NULL.
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG for a negative
 *         @p wave_size / @p n_warps; ::LAYOUT_ERR_PARSE for a syntax error;
 *         ::LAYOUT_ERR_MISMATCH when `warps=` disagrees with @p n_warps;
 *         layout_dist_make()'s status for an invalid encoding (the offset
 *         then points at `dist`).
 */
layout_status layout_dist_from_text(const char *text, int wave_size, int n_warps, layout_distribution *out,
                                    size_t *where, layout_error *err);

/**
 * Print the canonical text of an encoding-based distribution, e.g.
 * `dist(R=[1], H=([1,8,8],[4,8]), P=([(2,0)],[(1,1),(1,2)]), Y=[(1,0),(2,1)])`
 * (`, warps=N` is appended for a one-P encoding over several warps).
 *
 * @param d    the distribution.
 * @param buf  receives the NUL-terminated text; untouched on failure.
 * @param cap  size of @p buf; ::LAYOUT_TEXT_CAP always suffices.
 * @param err  may be NULL.
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_UNSUPPORTED for a
 *         callback or table distribution (no text form);
 *         ::LAYOUT_ERR_BUFFER when @p cap is too small.
 */
layout_status layout_dist_to_text(const layout_distribution *d, char *buf, size_t cap, layout_error *err);

/**
 * Parse an architecture: a preset name or alias (layout_arch_preset():
 * any case, "H100", "MI300X", "cuda:90", "hip:gfx942" ...) or `arch(...)`
 * (see the file documentation; `base=` takes the same names), validated
 * with layout_arch_validate().  An unknown name fails at its first
 * character with layout_arch_preset()'s "did you mean ...?" message.
 *
 * @param text   NUL-terminated text.
 * @param out    receives the architecture; untouched on failure.
 * @param where  if non-NULL, receives the byte offset of the error.
 * @param err    may be NULL; e.g. "layout_arch_from_text: column 20:
 *               layout_arch_init: n_banks = 48 must be a power of two in 1..64".
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_PARSE (syntax);
 *         ::LAYOUT_ERR_NOT_FOUND (unknown preset); ::LAYOUT_ERR_ARG and the
 *         other statuses of arch.h's setters for invalid values (groups that
 *         overlap or do not cover the wave, a bank count that is not a power
 *         of two, ...).
 */
layout_status layout_arch_from_text(const char *text, layout_arch *out, size_t *where, layout_error *err);

/**
 * Print the canonical text of an architecture: its name when it equals that
 * preset exactly, else the full `arch(...)` form.
 *
 * @param arch  a valid architecture.
 * @param buf   receives the NUL-terminated text; untouched on failure.
 * @param cap   size of @p buf; ::LAYOUT_TEXT_CAP always suffices.
 * @param err   may be NULL.
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NULL; the status of
 *         layout_arch_validate() for an invalid @p arch;
 *         ::LAYOUT_ERR_UNSUPPORTED for a name containing '"' or a newline;
 *         ::LAYOUT_ERR_BUFFER when @p cap is too small.
 */
layout_status layout_arch_to_text(const layout_arch *arch, char *buf, size_t cap, layout_error *err);

/**
 * 1 when @p a and @p b describe the same model: name, bank count, bank
 * width, wave size and every rule's groups and fold (provenance ignored);
 * 0 otherwise or when either is NULL.  This is the equality the text form
 * preserves: layout_arch_from_text(layout_arch_to_text(a)) is the same
 * model as a.
 */
int layout_arch_same_model(const layout_arch *a, const layout_arch *b);

/**
 * Draw the line of @p text containing byte @p offset and a caret under it:
 * two lines, each ending in '\\n'.  Lines longer than
 * ::LAYOUT_TEXT_CARET_WIDTH are cut to a window around the offset with
 * "..." marks; control bytes show as spaces so the caret stays aligned.
 *
 * @param text    NUL-terminated text (the one given to the parser).
 * @param offset  byte offset, 0 .. strlen(text) (the end of input is allowed).
 * @param buf     receives the two lines; untouched on failure.
 * @param cap     size of @p buf; 2 * ::LAYOUT_TEXT_CARET_WIDTH + 16 always suffices.
 * @param err     may be NULL.
 * @return ::LAYOUT_OK, ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE (offset beyond
 *         the text) or ::LAYOUT_ERR_BUFFER.
 */
layout_status layout_text_caret(const char *text, size_t offset, char *buf, size_t cap, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_TEXT_H */
