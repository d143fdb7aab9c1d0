/* Private to lib/emit: the fixed text of a probe kernel (emit_templates.c),
 * which emit.c puts around the code it writes from the spec.
 *
 * A probe is laid out as
 *
 *     header comment, LP_* size macros             (emit.c)
 *     #if defined(LP_EMULATE) tpl_emulate #else tpl_hip | tpl_cuda #endif
 *     types, index arithmetic, the kernel          (emit.c)
 *     host coordinate functions under LP_HOST      (emit.c)
 *     tpl_emulate_launch, tpl_host, tpl_host_check
 *
 * Each preamble defines LP_TID(), LP_BID(), LP_BOUNDS, LP_(name) (the
 * runtime's prefix: hip / cuda / lp_emu), LP_LAUNCH(in, out), the access
 * macros LP_VSTORE(T, p, v) / LP_VLOAD(T, p), and LP_HOST where the host
 * part is compiled.  The preambles use LP_THREADS; the host part uses
 * LP_TILES, LP_WAVE, LP_WARPS, LP_W_TILE, LP_R_TILE, LP_WORDS, LP_W_ELEMS,
 * LP_R_ELEMS, LP_W_NX, LP_R_NX, LP_LDS_ELEMS, the types lp_s and lp_idx,
 * lp_w_coord / lp_r_coord and the LP_{W,R}_{OFF,LIN}_OF macros, all
 * written by emit.c before it.  Every piece is a NUL-terminated constant
 * string ending in a newline. */
#ifndef LAYOUT_EMIT_INTERNAL_H
#define LAYOUT_EMIT_INTERNAL_H

/* HIP: hip_runtime.h when present, else the keywords from clang builtins. */
extern const char layout_emit_tpl_hip[];
/* CUDA: nvcc / the CUDA runtime headers, else the keywords from clang builtins. */
extern const char layout_emit_tpl_cuda[];
/* LP_EMULATE: a C++ build for the CPU, one POSIX thread per GPU thread. */
extern const char layout_emit_tpl_emulate[];
/* LP_EMULATE: the launch (threads, barrier) of one block after another. */
extern const char layout_emit_tpl_emulate_launch[];
/* The host's main(), first part: allocate, copy, launch, time. */
extern const char layout_emit_tpl_host[];
/* The host's main(), second part: check every element read, print, free. */
extern const char layout_emit_tpl_host_check[];

#endif /* LAYOUT_EMIT_INTERNAL_H */
