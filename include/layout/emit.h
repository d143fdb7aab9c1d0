/**
 * @file emit.h
 * @brief Probe kernels: one self-contained HIP or CUDA source file that
 * moves tiles through LDS exactly as a kernel spec says, so that a real
 * compiler (and a real GPU under a profiler) can be held against the
 * compiler model of access.h.
 *
 * The kernel of the emitted file, one tile per block, one block per tile:
 *
 *     global -> registers : every thread loads its write-side elements
 *                           (register index order, row-major Y)
 *     registers -> LDS    : one typed access per instruction of the write
 *                           side's access plan (layout_access_plan_make for
 *                           spec->arch), in the plan's order: a type of
 *                           exactly the instruction's width claiming exactly
 *                           its proven alignment; the two halves of a
 *                           read2 / write2 from one base and the model's
 *                           constant distance; each address plus its own
 *                           multiple of a kernel argument that is 0 at run
 *                           time, so that the compiler joins nothing the
 *                           model keeps apart
 *     __syncthreads()
 *     LDS -> registers    : the same for the read side
 *     registers -> global : every thread stores its read-side elements
 *
 * Coordinates come from the distribution's own arithmetic (the P digits of
 * warp = tid / wave and lane = tid % wave times their X weights, plus the
 * Y constants of each access); offsets from the descriptor's compiled plan
 * (plan.h: its affine expressions and DIV / XOR ops, written out as C).
 * Through an affine view (a plan without ops) an access's offset is the
 * window origin's offset plus the constant step of its Y constants, as
 * ck_tile moves a tile window through a linear descriptor; otherwise every
 * access evaluates the whole plan at its coordinate.
 * There is no hand-picked instruction, intrinsic or inline assembly: the
 * compiler chooses the DS instructions, which is what a probe tests.  The
 * host part (guarded by `__HIP_DEVICE_COMPILE__` / `__CUDA_ARCH__`, and for
 * HIP by the presence of the HIP runtime headers) allocates, launches
 * `tiles` blocks, checks every element read against where the spec puts it
 * and prints the time.  Without HIP headers the device code defines the few
 * keywords it needs from clang builtins, so it compiles with
 * `clang -x hip --cuda-device-only -nogpuinc -nogpulib --offload-arch=gfx942 -O3 -S`.
 * Built as C++ with `-DLP_EMULATE` (clang++, -pthread) the same file runs on
 * the CPU, one thread per GPU thread and a barrier for __syncthreads(), so
 * the host check can be run without a GPU.
 *
 * The file opens with a comment stating the spec it was made from (the
 * `layout check` options) and the model's prediction per wave, e.g.
 *
 *     spec:  --arch gfx942 --elem 2 --lds 'packed([64,32])' ... --tiles 8192
 *     model: write 1 x ds_write_b128, read 8 x ds_read_u16 per wave and tile
 *
 * Ownership and thread safety: the call writes only into the caller's
 * buffer, allocates nothing (about 65 KiB of stack for the two access
 * plans and compiled descriptors it keeps, plus the 70 KiB that building a
 * compiled descriptor takes) and is reentrant.  The output for a
 * given spec is byte-for-byte deterministic.  Errors follow status.h.
 */
#ifndef LAYOUT_EMIT_H
#define LAYOUT_EMIT_H

#include "layout/status.h"
#include "layout/arch.h"
#include "layout/descriptor.h"
#include "layout/distribution.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The language of an emitted probe. */
typedef enum layout_emit_lang {
    LAYOUT_EMIT_HIP = 0,  ///< HIP (AMD; clang or hipcc)
    LAYOUT_EMIT_CUDA = 1  ///< CUDA (nvcc, or clang -x cuda)
} layout_emit_lang;

/**
 * What to emit: the same fields as a ::layout_kernel_spec plus the
 * architecture, the language and the spec text for the header comment.
 * Zero-initialise, then fill.
 */
typedef struct layout_emit_spec {
    layout_emit_lang lang;                   ///< HIP or CUDA
    const layout_arch *arch;                 ///< target named in the comment (may be NULL: none named)
    const layout_descriptor *write_desc;     ///< LDS view of the store (top dims = write_dist's X)
    const layout_distribution *write_dist;   ///< who stores what (an encoding: plain forms are not emitted)
    const layout_descriptor *read_desc;      ///< LDS view of the load; NULL = write_desc
    const layout_distribution *read_dist;    ///< who loads what (an encoding)
    int elem_bytes;                          ///< bytes per element: 1, 2, 4, 8 or 16
    int64_t tiles;                           ///< tiles (blocks) the host part launches, >= 1
    int64_t base_bytes;                      ///< byte address of LDS offset 0 (0..2^20), as `layout check --base`
    const char *spec_text;                   ///< NULL: the comment states the spec from the objects' text forms; else this text (the caller's options) verbatim
} layout_emit_spec;

/**
 * Write the probe source of @p spec into @p buf (NUL-terminated).
 *
 * *len (may be NULL) receives the length of the whole source without the
 * NUL, also on ::LAYOUT_ERR_BUFFER; @p buf NULL with @p cap 0 is a query
 * and returns ::LAYOUT_OK.  Example:
 * @code
 *   size_t n;
 *   layout_emit_probe(&spec, NULL, 0, &n, &err);      // query
 *   char *src = malloc(n + 1);                         // caller's buffer
 *   layout_emit_probe(&spec, src, n + 1, NULL, &err);  // the source
 * @endcode
 *
 * Errors: ::LAYOUT_ERR_NULL (spec, a descriptor or distribution, len-less
 * NULL buf with cap > 0), ::LAYOUT_ERR_ARG (lang, elem_bytes, tiles,
 * base_bytes, the distributions' waves differ), ::LAYOUT_ERR_UNSUPPORTED
 * (a plain-form distribution, a descriptor with validity checks (pads),
 * offsets that do not fit 32 bits), ::LAYOUT_ERR_MISMATCH (an instruction
 * of the plan whose bytes are not one rigid run of the thread's elements in
 * every lane: the model's claim does not hold), ::LAYOUT_ERR_BUFFER (@p cap too small:
 * nothing useful in @p buf, *len set), and the errors of
 * layout_access_plan_make() and layout_plan_build() (prefixed by the side).
 */
layout_status layout_emit_probe(const layout_emit_spec *spec, char *buf, size_t cap, size_t *len,
                                layout_error *err);

/** "hip" or "cuda"; "?" for other values.  Never NULL. */
const char *layout_emit_lang_name(layout_emit_lang lang);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_EMIT_H */
