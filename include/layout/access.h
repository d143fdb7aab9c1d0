/**
 * @file access.h
 * @brief Instruction streams: the DS instructions a wave issues to move its
 * part of a tile through an LDS descriptor.
 *
 * Given an LDS descriptor (the view a side uses), a tile distribution and
 * the element size, an access plan models two steps:
 *
 * 1. **ck_tile's tile window.** Only a Y dim that is the innermost H entry
 *    of some X can be vectorised, with length gcd(X's vector-hint length,
 *    that H length) and only when X's hint stride is 1; the Y with the
 *    largest such length wins (first on ties): ScalarPerVector = that length.
 *    Accesses = elems / ScalarPerVector, issued along a snake-ordered
 *    space-filling curve over the Y lengths (last Y fastest; a dim runs
 *    backwards when the combined index of the dims before it is odd).
 *
 * 2. **The compiler** (clang-22's AMDGPU backend: LLVM's load/store
 *    vectorizer, then SILoadStoreOptimizer; held against it on 600+ probes
 *    by tests/test_emit.c, docs/emit.md).  Two positions of a thread are
 *    *rigid* when their byte addresses differ by the same constant in every
 *    lane of every warp (the compiler sees one base plus constant offsets).
 *
 *    a. **Runs in address order.**  Among rigid positions the elements are
 *       sorted by address, and elements at adjacent addresses
 *       (addr(next) = addr(prev) + elem_bytes) form one run, wherever they
 *       sit in the issue order: a row the snake order walks backwards, two
 *       rows interleaved, two adjacent b64 vectors (rule R2).
 *    b. **Chopped at the start's alignment.**  a0 = the run start's proven
 *       alignment, the largest power of two <= 16 dividing its address in
 *       every lane of every warp (what the compiler proves from the index
 *       arithmetic; the two agree on every seed layout, and the
 *       address-based value can only be more optimistic).  A piece at byte
 *       `off` of the run is known aligned to a = min(a0, lowest set bit of
 *       off) only: the compiler never re-aligns inside a run (rule R3).
 *       Greedily from the start:
 *
 *           a >= 16 : b128 (>= 16 bytes left), b96 (>= 12), b64, b32, b16, b8
 *           a >=  8 : b64, b32, b16, b8
 *           a >=  4 : two adjacent dwords as one read2/write2_b32 (>= 8 left,
 *                     where the arch has paired DS instructions), b32, b16, b8
 *           a <   4 : with unaligned DS access (::LAYOUT_DS_FORM_UNALIGNED):
 *                     b128, b96, b64, b32, b16, b8 by the bytes left, at that
 *                     alignment (rule R4); otherwise b16 (a = 2) or b8
 *
 *    c. **Pairing** (::LAYOUT_DS_FORM_PAIRED only; NVIDIA has no paired DS
 *       instruction).  In issue order, every b32 or b64 step is paired with
 *       the first later step of the same op whose address differs by a
 *       constant d in every lane (rigid), d a non-zero multiple of the width w:
 *       |d| / w = 64 k (k <= 255) gives the st64 form, else |d| / w <= 255 the
 *       plain read2 / write2 (rule R1).  The two halves stay two steps for
 *       the checker, counted as one instruction (::layout_access_plan::n_instrs).
 *
 *    Steps are issued in the order of their lowest-address element's issue
 *    position.  The arch comes from ::layout_access_options::arch
 *    (::layout_arch::ds_forms); without one, AMD's forms (paired, unaligned).
 *    Where the compiler proves less than the addresses say (XOR and DIV of
 *    swizzled views, rule R5 of docs/emit.md) it forms fewer or narrower
 *    instructions than this model.
 *
 *    A tile-window vector access (ScalarPerVector > 1) is a typed vector in
 *    ck_tile: the compiler trusts its natural alignment and emits it whole
 *    even when the addresses say otherwise.  Such a vector whose elements are
 *    not adjacent in LDS (::LAYOUT_ACCESS_NONCONTIGUOUS: ck_tile then moves
 *    the wrong bytes) or whose address is not a multiple of its natural
 *    alignment (::LAYOUT_ACCESS_MISALIGNED, e.g. b128 on a 68-byte row
 *    pitch) is flagged; the step records how it would have to be split.
 *    With ::LAYOUT_VECTOR_SPLIT the split is emitted instead.  Flagged
 *    vectors do not join runs (they may pair).
 *
 * Seed 000's kernels come out as measured: 01 writes one b128 (packed rows,
 * vector 8) and reads 8 b16 (column at a 64-byte stride); 02 writes 8 b16
 * and its 8 scalar reads of one contiguous, 16-byte-aligned column become one
 * b128; 03's 68-byte rows prove only 4-byte alignment, so the 16-byte row
 * segment is stored as two write2_b32 (8 bytes each).
 *
 * An explicit choice (::layout_access_options::op) replaces step 2: every
 * instruction is that op over consecutive elements in issue order, flagged
 * where it is not contiguous or not aligned.
 *
 * Ownership and thread safety: ::layout_access_plan is a caller-owned value
 * (no heap, about 20 KiB; building one takes about 52 KiB more of stack) that *borrows* the descriptor and distribution it
 * was built from: they must outlive it and stay unchanged.  All functions are
 * reentrant.  Errors follow status.h.
 */
#ifndef LAYOUT_ACCESS_H
#define LAYOUT_ACCESS_H

#include "layout/status.h"
#include "layout/limits.h"
#include "layout/instr.h"
#include "layout/arch.h"
#include "layout/descriptor.h"
#include "layout/plan.h"
#include "layout/distribution.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum elements per thread (product of Y lengths) an access plan handles. */
#define LAYOUT_MAX_THREAD_ELEMS 256
/** Maximum DS instructions per thread an access plan holds. */
#define LAYOUT_MAX_ACCESS_STEPS 256

/** A DS (LDS) instruction kind; the name depends on the direction (::layout_ds_op_name). */
typedef enum layout_ds_op {
    LAYOUT_DS_AUTO = 0,   ///< options only: let the model choose
    LAYOUT_DS_B8,         ///< 1 byte per lane: ds_read_u8 / ds_write_b8
    LAYOUT_DS_B16,        ///< 2 bytes: ds_read_u16 / ds_write_b16
    LAYOUT_DS_B32,        ///< 4 bytes: ds_read_b32 / ds_write_b32
    LAYOUT_DS_B64,        ///< 8 bytes, 8-byte aligned: ds_read_b64 / ds_write_b64
    LAYOUT_DS_B96,        ///< 12 bytes, 16-byte aligned: ds_read_b96 / ds_write_b96
    LAYOUT_DS_B128,       ///< 16 bytes, 16-byte aligned: ds_read_b128 / ds_write_b128
    LAYOUT_DS_PAIR_B32,   ///< ds_read2_b32 / ds_write2_b32: two dwords per lane.  Two adjacent dwords at 4-byte alignment are one step, materialised as an 8-byte lane access (the checker applies the b64 lane groups to its two dwords); two dwords further apart are two steps of 4 bytes (layout_access_step::pair_step)
    LAYOUT_DS_PAIR_B64,   ///< ds_read2_b64 / ds_write2_b64: two 8-byte accesses per lane at a distance of 1..255 x 8 bytes, two steps of 8 bytes
    LAYOUT_DS_PAIR_ST64_B32, ///< ds_read2st64_b32 / ds_write2st64_b32: two dwords 64 x k x 4 bytes apart (k in 1..255), two steps of 4 bytes
    LAYOUT_DS_PAIR_ST64_B64, ///< ds_read2st64_b64 / ds_write2st64_b64: two 8-byte accesses 64 x k x 8 bytes apart (k in 1..255), two steps of 8 bytes
    LAYOUT_DS_OP_COUNT    ///< number of values above
} layout_ds_op;

/** How flagged tile-window vectors are emitted. */
typedef enum layout_vector_policy {
    LAYOUT_VECTOR_TRUST = 0,  ///< as ck_tile + compiler do: one instruction of the vector's width, flagged
    LAYOUT_VECTOR_SPLIT = 1   ///< emit the legal split instead (what correct code would need)
} layout_vector_policy;

/** Step flags: what ck_tile silently allows. */
enum layout_access_flag {
    LAYOUT_ACCESS_MISALIGNED = 1,    ///< address not a multiple of the op's natural alignment in some lane
    LAYOUT_ACCESS_NONCONTIGUOUS = 2  ///< the elements it moves are not adjacent in LDS in some lane
};

/**
 * Options of ::layout_access_plan_make.  All-zero (or NULL) = ck_tile's
 * tile window followed by the compiler's merging, vectors trusted.
 */
typedef struct layout_access_options {
    layout_vector_policy policy;  ///< flagged vectors: trust (default) or split
    int no_merge;                 ///< non-zero: do not merge across tile-window accesses (each access chopped alone)
    int vector_elems;             ///< 0 = ScalarPerVector from the descriptor's hints; > 0 = force it (must divide the Y length)
    int vector_y;                 ///< with vector_elems > 0: the Y dim to vectorise (plain distributions: 0)
    layout_ds_op op;              ///< ::LAYOUT_DS_AUTO, or the explicit op of every instruction
    int64_t base_bytes;           ///< byte address of element offset 0 in LDS (>= 0; affects alignment)
    const layout_plan *desc_plan; ///< NULL, or layout_plan_build() of the same descriptor (borrowed): offsets then run compiled, several times faster in search loops
    const layout_arch *arch;      ///< NULL, or the target (borrowed, read during the call only): its ::layout_arch::ds_forms decide pairing and widening; NULL = ::LAYOUT_DS_FORMS_AMD
} layout_access_options;

/** One DS instruction of a thread; every lane of every warp issues the same step. */
typedef struct layout_access_step {
    layout_ds_op op;               ///< instruction kind
    int width_bytes;               ///< bytes per lane of this lane access (an adjacent-dword ::LAYOUT_DS_PAIR_B32: 8; a half of a pair of separate addresses: 4 or 8)
    int seq_first;                 ///< issue position whose address is the base (see ::layout_access_plan::order)
    int elem_dir;                  ///< +1: it moves positions seq_first, seq_first+1, ...; -1: seq_first, seq_first-1, ... (a run issued downwards; seq_first holds its lowest address); 0: a run merged in address order whose positions are not consecutive in issue order (seq_first holds its lowest address)
    int n_elems;                   ///< issue positions from seq_first (in elem_dir) whose bytes it moves (a partly moved element counts)
    int byte_offset;               ///< lane address = address of position seq_first + byte_offset
    int access;                    ///< tile-window access containing seq_first
    unsigned flags;                ///< ::layout_access_flag bits
    int align_bytes;               ///< proven alignment of the lane addresses (power of two, <= 16)
    int n_split;                   ///< flagged steps: legal instructions needed (0 when not flagged)
    short split_count[LAYOUT_DS_OP_COUNT]; ///< flagged steps: those instructions per op
    int bad_warp;                  ///< flagged steps: a warp showing the problem
    int bad_lane;                  ///< flagged steps: a lane showing the problem
    int pair_step;                 ///< -1, or the other half of this step's read2 / write2 (both carry the pair's op; the lower index counts in op_count)
} layout_access_step;

/** A thread's instruction plan for one side (write or read) of a tile. */
typedef struct layout_access_plan {
    const layout_descriptor *desc;    ///< borrowed LDS view (top dims = the distribution's X)
    const layout_distribution *dist;  ///< borrowed distribution (wave size, warps)
    const layout_plan *desc_plan;     ///< borrowed compiled descriptor from the options, or NULL
    layout_direction direction;       ///< read or write
    int elem_bytes;                   ///< bytes per element (1, 2, 4, 8 or 16)
    int64_t base_bytes;               ///< byte address of element offset 0
    int vector_y;                     ///< Y dim the tile window vectorises (-1: none, scalar accesses)
    int vector_elems;                 ///< ScalarPerVector
    int n_accesses;                   ///< tile-window accesses per thread
    int n_elems;                      ///< elements per thread
    int order[LAYOUT_MAX_THREAD_ELEMS];      ///< issue order: position -> register index (row-major Y)
    int n_steps;                      ///< lane accesses per thread (the checker's instructions: both halves of a read2 / write2 of two separate addresses count)
    int n_instrs;                     ///< DS instructions per thread (= per wave): n_steps less one per pair of steps
    layout_access_step steps[LAYOUT_MAX_ACCESS_STEPS]; ///< the instructions in issue order
    int op_count[LAYOUT_DS_OP_COUNT]; ///< DS instructions per op (sums to n_instrs)
    int n_misaligned;                 ///< steps flagged ::LAYOUT_ACCESS_MISALIGNED
    int n_noncontiguous;              ///< steps flagged ::LAYOUT_ACCESS_NONCONTIGUOUS
    int n_vectors_split;              ///< with ::LAYOUT_VECTOR_SPLIT: flagged vectors that were split
} layout_access_plan;

/**
 * Build the plan of one side.  @p desc's top dims must be the
 * distribution's X dims with lengths >= x_lengths; elem_bytes in
 * {1, 2, 4, 8, 16}; @p opt may be NULL.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (elem_bytes, options,
 * explicit op not a multiple of the element), ::LAYOUT_ERR_MISMATCH (dims),
 * ::LAYOUT_ERR_MISMATCH also when opt->desc_plan's top lengths differ from
 * the descriptor's, ::LAYOUT_ERR_CAPACITY (more than ::LAYOUT_MAX_THREAD_ELEMS elements or
 * ::LAYOUT_MAX_ACCESS_STEPS steps), ::LAYOUT_ERR_RANGE (an address outside
 * 0..2^32-1), and evaluation errors of the distribution / descriptor.
 */
layout_status layout_access_plan_make(layout_access_plan *plan, const layout_descriptor *desc,
                                      const layout_distribution *dist, layout_direction direction,
                                      int elem_bytes, const layout_access_options *opt, layout_error *err);

/**
 * Materialise step @p step of warp @p warp: every lane's byte address, the
 * width and direction, all lanes active.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE (warp, step), evaluation errors.
 */
layout_status layout_access_instr(const layout_access_plan *plan, int warp, int step, layout_instr *out,
                                  layout_error *err);

/**
 * All instructions of all warps, warp-major (warp 0's steps, then warp 1's...).
 * *count receives n_warps * n_steps always (also on ::LAYOUT_ERR_BUFFER);
 * @p buf may be NULL with cap 0 to query the count (returns ::LAYOUT_OK).
 * Errors: ::LAYOUT_ERR_NULL (plan, count), ::LAYOUT_ERR_BUFFER (0 < cap < count,
 * or buf NULL with cap > 0).
 */
layout_status layout_access_stream(const layout_access_plan *plan, layout_instr *buf, size_t cap, size_t *count,
                                   layout_error *err);

/** Bytes per lane moved by @p op, both halves of a pair (PAIR_B32, PAIR_ST64_B32: 8; PAIR_B64, PAIR_ST64_B64: 16); 0 for ::LAYOUT_DS_AUTO or unknown values. */
int layout_ds_op_width(layout_ds_op op);

/** Natural alignment in bytes the op requires of each address (b96, b128: 16; b64 and its pairs: 8; b32 and its pairs: 4; b16: 2; b8: 1); 0 if unknown. */
int layout_ds_op_align(layout_ds_op op);

/** ISA-style name, e.g. "ds_read_b128", "ds_write2_b32", "ds_read2st64_b64", "ds_read_u16"; "auto" / "?" otherwise. Never NULL. */
const char *layout_ds_op_name(layout_ds_op op, layout_direction direction);

/**
 * The op's name in @p vendor's vocabulary: NVIDIA's PTX shared-memory
 * instruction of the same width, else layout_ds_op_name().
 *
 *   op         AMD (and unknown, Intel)      NVIDIA (PTX)
 *   B8         ds_read_u8 / ds_write_b8      ld.shared.b8 / st.shared.b8
 *   B16        ds_read_u16 / ds_write_b16    ld.shared.b16 / st.shared.b16
 *   B32        ds_read_b32 / ds_write_b32    ld.shared.b32 / st.shared.b32
 *   B64        ds_read_b64 / ds_write_b64    ld.shared.v2.b32 / st.shared.v2.b32
 *   B128       ds_read_b128 / ds_write_b128  ld.shared.v4.b32 / st.shared.v4.b32
 *
 * PTX has no 12-byte access and no two-address pair, so B96 and the
 * PAIR_* kinds keep their AMD names (no NVIDIA preset plans them:
 * ::layout_arch::ds_forms is 0 there and no 12-byte rule exists).  Example:
 * `layout_ds_op_vendor_name(LAYOUT_DS_B128, LAYOUT_WRITE,
 * layout_arch_vendor(&sm90))` is "st.shared.v4.b32".  "?" for an op
 * outside the enum; never NULL; static strings; thread-safe.
 */
const char *layout_ds_op_vendor_name(layout_ds_op op, layout_direction direction, layout_vendor vendor);

/**
 * One line per plan: "1 x ds_write_b128" or "2 x ds_write2_b32" or
 * "8 x ds_read_u16" (ops in issue order of first use, "+"-joined), plus
 * " [3 misaligned]" / " [2 non-contiguous]" when flagged.
 * snprintf semantics.  AMD's names; layout_access_plan_print_vendor()
 * prints another vendor's.
 */
int layout_access_plan_print(const layout_access_plan *plan, char *buf, size_t cap);

/**
 * layout_access_plan_print() with the op names of @p vendor
 * (layout_ds_op_vendor_name()), e.g. "1 x st.shared.v4.b32" for the plan
 * printed "1 x ds_write_b128" on AMD.  snprintf semantics.
 */
int layout_access_plan_print_vendor(const layout_access_plan *plan, layout_vendor vendor, char *buf, size_t cap);

/**
 * Explain step @p step: its op, issue positions, alignment and, when
 * flagged, why and how it would have to be split, e.g.
 * "step 0 ds_write_b128 (access 0): misaligned: warp 0 lane 4 at byte 132 is not 16-byte aligned;
 *  needs 2 x ds_write2_b32".  snprintf semantics; "" for an invalid step.
 */
int layout_access_step_explain(const layout_access_plan *plan, int step, char *buf, size_t cap);

/**
 * layout_access_step_explain() with the op names of @p vendor
 * (layout_ds_op_vendor_name()).  snprintf semantics; "" for an invalid step.
 */
int layout_access_step_explain_vendor(const layout_access_plan *plan, int step, layout_vendor vendor, char *buf,
                                      size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_ACCESS_H */
