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

#include "layout/emit.h"
#include "layout/access.h"
#include "layout/plan.h"
#include "../core/strbuf.h"

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

/* One side of the probe: its view, distribution, compiled offsets and
 * access plan (the model's instructions for the probe's architecture). */
typedef struct layout_emit_side {
    const char *tag; /* "w" / "r" */
    const layout_descriptor *desc;
    const layout_distribution *dist;
    layout_plan plan;
    layout_access_plan access;
} layout_emit_side;

/* emit_steps.c: an integer literal of the index type (LL when it needs 64 bits). */
void layout_emit_put_lit(layout_strbuf *sb, int64_t v);
/* emit_steps.c: the Y part c[x] of register index elem's X coordinate. */
void layout_emit_y_const(const layout_distribution *d, int elem, int64_t *c);
/* emit_steps.c: the arguments "x[0] + 8, x[1]" of coordinate base + c. */
void layout_emit_put_coord_args(layout_strbuf *sb, const char *base, int n_x, const int64_t *c);

/* emit_steps.c: the typedefs of the access types both sides use
 * (lp_v<n>_a<c>: n words of lp_s, claiming c-byte alignment). */
void layout_emit_put_step_types(layout_strbuf *sb, const layout_emit_side *side, int n_sides, int hip,
                                int word_bytes);
/* emit_steps.c: a side's LDS accesses, one typed access per instruction of
 * its access plan (a read2 / write2 as two accesses from one base), in the
 * plan's order.  Errors: ::LAYOUT_ERR_MISMATCH when a step's bytes are not
 * a rigid run of the thread's elements in every lane (the model's claim
 * does not hold), evaluation errors. */
layout_status layout_emit_put_lds_steps(layout_strbuf *sb, const layout_emit_side *s, int hip, int word_bytes,
                                        int write, layout_error *err);
/* emit_steps.c: "1 x st.shared.v4.b32 + 2 x ..." of a plan in the target's
 * vocabulary, snprintf semantics (layout_access_plan_print for AMD). */
int layout_emit_plan_print(const layout_access_plan *ap, int nvidia, char *buf, size_t cap);

#endif /* LAYOUT_EMIT_INTERNAL_H */
