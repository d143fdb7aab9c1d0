/**
 * @file kernel_plan.h
 * @brief The triple check, precompiled: build once, check a tile in
 * microseconds, with no allocation and no per-element interpretation.
 *
 * layout_check_kernel() (kernel.h) rebuilds both access plans and
 * re-interprets the distribution and the descriptor for every lane of
 * every instruction.  An autotuner scoring many candidates, or re-checking
 * one candidate against many architectures, wants that work done once.  A
 * ::layout_kernel_plan holds, per side:
 *
 * - the access plan (which DS instructions a wave issues, access.h);
 * - one evaluation plan (plan.h) compiled from the *composition* of the
 *   distribution's adaptor and the LDS descriptor: it maps
 *   (warp, y..., lane) straight to the element offset, so the 64 lane
 *   addresses of an instruction are one box walk over the lane dim
 *   (AVX2: 8 lanes per step);
 *
 * plus a prepared checker.  layout_kernel_plan_check() then materialises
 * every instruction of every warp on the stack and costs it:
 * @code
 *   addr_bytes[lane] = base_bytes + elem_bytes * offset(warp, y(step), lane) + step byte_offset
 * @endcode
 * and returns exactly the ::layout_kernel_result of layout_check_kernel()
 * for the same spec (tested field by field on every seed kernel).
 *
 * Distributions that are not ck_tile encodings (callbacks, tables) or with
 * more than 6 Y dims fall back to layout_access_instr() per instruction:
 * still exact and allocation-free, only slower (::layout_side_plan::composed = 0).
 *
 * Example: seed kernel 08 on gfx942: 4 b128 writes + 4 b128 reads per tile,
 * 0 conflict cycles; one layout_kernel_plan_check() costs about a
 * microsecond (bench/RESULTS.md).
 *
 * Ownership: ::layout_kernel_plan is a caller-owned value of about 78 KiB
 * (allocate it statically or wherever you like; the library never
 * allocates).  It *borrows* the arch, descriptors and distributions of the
 * spec: they must outlive it and stay unchanged.  Thread safety: reentrant;
 * a const plan may be checked from many threads.  Errors follow status.h.
 */
#ifndef LAYOUT_KERNEL_PLAN_H
#define LAYOUT_KERNEL_PLAN_H

#include "layout/status.h"
#include "layout/plan.h"
#include "layout/access.h"
#include "layout/check.h"
#include "layout/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One precompiled side (write or read) of a triple check. */
typedef struct layout_side_plan {
    layout_access_plan access;  ///< the DS instructions of one thread (borrows the descriptor and distribution)
    layout_plan offsets;        ///< (warp if two P dims, y..., lane) -> element offset; valid when composed
    int composed;               ///< 1: offsets is the composed plan; 0: fall back to layout_access_instr()
    int warp_var;               ///< 1 when the first plan dim is the warp (distribution with two P dims)
    char ops[96];               ///< the access plan summary (layout_access_plan_print), copied into results
} layout_side_plan;

/** A precompiled triple check (see the file comment). */
typedef struct layout_kernel_plan {
    layout_checker checker;     ///< prepared checker (borrows the arch)
    layout_side_plan write;     ///< the store side
    layout_side_plan read;      ///< the load side
    int64_t tiles;              ///< tiles per kernel (>= 1), scales the sq_* totals
} layout_kernel_plan;

/**
 * Build the plan of @p spec on @p arch: both access plans (as
 * layout_check_kernel() builds them), both composed offset plans running
 * @p impl (::LAYOUT_PLAN_AUTO picks AVX2 when possible), the checker
 * (::LAYOUT_IMPL_AUTO).
 * Errors: ::LAYOUT_ERR_NULL (out, arch, spec, its descriptors or
 * distributions), ::LAYOUT_ERR_ARG (tiles < 1, impl), those of
 * layout_access_plan_make() (message prefixed by the side),
 * layout_checker_init() and layout_plan_build() (::LAYOUT_ERR_UNSUPPORTED
 * when AVX2 is forced but cannot run).  @p out untouched on error.
 */
layout_status layout_kernel_plan_make(layout_kernel_plan *out, const layout_arch *arch,
                                      const layout_kernel_spec *spec, layout_plan_impl impl, layout_error *err);

/**
 * Check every instruction of every warp of both sides; *out receives the
 * same result as layout_check_kernel() on the spec the plan was built from.
 * No allocation; about 32 KiB of stack (layout_kernel_plan_make() needs about 150 KiB).
 * Errors: ::LAYOUT_ERR_NULL, checker errors (none for a plan built by
 * layout_kernel_plan_make()), ::LAYOUT_ERR_OVERFLOW (totals over tiles).
 */
layout_status layout_kernel_plan_check(const layout_kernel_plan *plan, layout_kernel_result *out, layout_error *err);

/**
 * Materialise instruction @p step of warp @p warp of one side, exactly as
 * layout_access_instr() does, through the composed plan.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE (warp, step).
 */
layout_status layout_side_plan_instr(const layout_side_plan *side, int warp, int step, layout_instr *out,
                                     layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_KERNEL_PLAN_H */
