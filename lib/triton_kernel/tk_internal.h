/* Shared between the files of lib/triton_kernel (not a public header):
 * the lowering of one register <-> shared map as Triton's lowerLdStShared
 * emits it, and the readers of an op's layouts. */
#ifndef LAYOUT_TK_INTERNAL_H
#define LAYOUT_TK_INTERNAL_H

#include "../core/internal.h"
#include "layout/check.h"
#include "../core/bits.h"
#include "layout/linear.h"
#include "layout/triton.h"
#include "layout/triton_kernel.h"
#include "layout/triton_stream.h"

/* padded_shared: byte offset b becomes b + sum_k (b >> ishift_k) << pshift_k
 * (Triton's getPaddedSharedShifts / applyPadding, Utility.cpp), and Triton
 * caps the vector at the smallest interval with no register permutation.
 * n = 0: not padded. */
typedef struct layout_tk_pad {
    int n;
    int ishift[LAYOUT_TRITON_MAX_PADS]; /* log2(interval * elem_bytes) */
    int pshift[LAYOUT_TRITON_MAX_PADS]; /* log2(pad * elem_bytes) */
    int64_t min_interval;               /* elements */
} layout_tk_pad;

/* Record that op report r is not modelled, with its reason:
 *
 *   r->modelled = 0,  r->reason = the printf of fmt, cut to
 *   LAYOUT_TRITON_KERNEL_REASON_CAP - 1 bytes and NUL-terminated
 *
 * nothing else of r changes (what a lowering filled before it gave up
 * stays).  Returns LAYOUT_OK: an op Triton lowers in a way the model does
 * not rebuild is a finding of the analysis, not an error.  Every "not
 * modelled" of lib/triton_kernel is recorded here; an op's name, when the
 * reason carries it, is part of fmt:
 *   return layout_tk_not_modelled(r, "tt.reduce: %s", why);
 */
layout_status layout_tk_not_modelled(layout_triton_kernel_op *r, const char *fmt, ...) LAYOUT_PRINTF(2, 3);

/* The global access beside a local_store / local_alloc (the tt.load that
 * made its tensor) or a local_load (the tt.store that takes its result):
 * word_bits, the bits of one register word as Triton packs the global
 * vector (layout_tk_global_word_bits(); 0: no such neighbour); run1, run2:
 * the register bits whose images are 1 and 2 elements along the last
 * (memory-contiguous) dim, -1 when none (AMD: LLVM's load/store vectoriser
 * merges a thread's contiguous elements into dwords whatever the layout's
 * order). */
typedef struct layout_tk_global {
    int word_bits;
    int run1, run2;
    int part_phi; /* layout_tk_part_through_phi of the op, -1: not known (ldst.c asks where needed) */
} layout_tk_global;

/* lowerLdStShared of cvt (register, lane, warp -> element offset): the
 * vector, warp 0's accesses costed on ck, the mnemonics (AMD pairing;
 * tr: gfx950's ds_read_b64_tr_b*; g: the neighbouring global access or NULL).
 * r->kind, direction and elem_bits must be set; fills vec_*, n_accesses,
 * counts, costs, worst and modelled (or a reason).  Returns LAYOUT_OK also
 * when not modelled. */
layout_status layout_tk_lower_ldst(const layout_triton_kernel *k, const layout_checker *ck, const layout_linear *cvt,
                                   const layout_tk_pad *pad, int tr, const layout_tk_global *g,
                                   layout_triton_kernel_op *r);

/* An op's lowering in two steps, so that a search re-lowers an op under
 * many shared layouts without redoing what does not depend on the shared
 * layout (layout_triton_kernel_op_cost is prepare, shared, finish):
 *
 *   layout_tk_op_prepare: the report's head (op, kind, line, loc,
 *     direction, encodings, elem_bits) into r and, for a local load /
 *     store / alloc / async copy that passes the type checks, generic = 1
 *     and the register side in p (the register layout read as a linear
 *     layout, whether a global tt.load / tt.store is its neighbour); every
 *     other op is lowered (or found not modelled) into r, generic = 0;
 *   layout_tk_shared_prepare: a shared attribute (NULL: the memdesc's own
 *     encoding) read as a linear layout on mem's tile, with its padding
 *     (parsed, may be NULL: attr as layout_triton_from_text read it,
 *     used when attr names no alias);
 *     it depends only on the tile (last two dims) and element bits
 *     (layout_tk_shared_fits: may s, read for a, serve b);
 *   layout_tk_op_finish: from a copy of prepare's head r, compose and
 *     lower (ck: a checker of k's arch, NULL: one is made; ceiling: as
 *     layout_tk_lower_ldst_bounded's, INT64_MAX for the whole cost).
 * p and s are read only by finish: one p serves any number of shared
 * layouts, one s any number of ops of a fitting tile. */
typedef struct layout_tk_op_prep {
    int generic;                                 /* 1: the fields below are set */
    const layout_ttgir_type *reg, *mem;          /* the op's register tensor and memdesc */
    int rattr_ok;                                /* the tensor's encoding is defined */
    layout_status reg_st;                        /* reading the register layout: LAYOUT_OK or why */
    char reg_why[LAYOUT_TRITON_KERNEL_REASON_CAP];
    layout_triton_attr ra;                       /* the register layout, parsed */
    layout_linear rl;                            /* ... as a linear layout (register, lane, warp -> dim0, dim1) */
    int neighbour;                               /* a global tt.load / tt.store beside it */
    int div_bits;                                /* then: the bits its pointer is known aligned to */
    int pk_pairs;                                /* a store of an f32 -> 16-bit truncation converted in pairs
                                                    (layout_tk_packed_words 2): register bit 0 in the high half */
    int part_phi;                                /* layout_tk_part_through_phi of the op (once per op, not per
                                                    candidate layout of a search) */
} layout_tk_op_prep;

typedef struct layout_tk_shared {
    int defined;                                 /* 0: the memdesc's encoding is not defined */
    layout_status st;                            /* LAYOUT_OK or why */
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP];
    layout_triton_attr sa;                       /* the attribute, parsed */
    layout_linear sl;                            /* (dim0, dim1) -> offset */
    layout_tk_pad pad;                           /* padded_shared's padding (n = 0: none) */
    /* 1: the caller asks warp 0's figures only (the suggestion's scorer,
     * score.c): ptxas's joins, which change only the CTA's, are skipped */
    int warp0_only;
} layout_tk_shared;

layout_status layout_tk_op_prepare(const layout_triton_kernel *k, int op, layout_tk_op_prep *p,
                                   layout_triton_kernel_op *r, layout_error *err);
/* layout_tk_op_prepare whose op, where it is lowered here (generic = 0),
 * writes its instruction stream to capture (NULL: none; for now a
 * ttg.convert_layout through its scratch). */
struct layout_tk_capture;
layout_status layout_tk_op_prepare_captured(const layout_triton_kernel *k, int op, layout_tk_op_prep *p,
                                            layout_triton_kernel_op *r, struct layout_tk_capture *capture,
                                            layout_error *err);
void layout_tk_shared_prepare(const layout_ttgir *m, const layout_ttgir_type *mem, const char *attr, size_t alen,
                              const layout_triton_attr *parsed, layout_tk_shared *s);
/* The rank of module op `op`'s register tensor (the tile a local load /
 * store addresses), 0 if it has none. */
int layout_tk_op_tile_rank(const layout_triton_kernel *k, int op);
int layout_tk_shared_fits(const layout_ttgir_type *a, const layout_ttgir_type *b);
/* list: NULL, or where layout_tk_lower_ldst_list's instruction list goes
 * (ok = 0 when the op has none: not lowered by lowerLdStShared). */
struct layout_tk_ds_list;
layout_status layout_tk_op_finish(const layout_triton_kernel *k, const layout_checker *ck, const layout_tk_op_prep *p,
                                  const layout_tk_shared *s, int64_t ceiling, layout_triton_kernel_op *r,
                                  struct layout_tk_ds_list *list, layout_error *err);

/* layout_tk_lower_ldst that may stop costing once r->total_cycles exceeds
 * ceiling: every field is as layout_tk_lower_ldst fills it (the same
 * modelled verdict, reason, vector, accesses, mnemonics) except that the
 * costs then sum only the accesses costed so far, more than ceiling, a
 * lower bound of the whole; it stops only where no access left could fail
 * (the 32-bit address checks hold for all).  INT64_MAX: never stops. */
layout_status layout_tk_lower_ldst_bounded(const layout_triton_kernel *k, const layout_checker *ck,
                                           const layout_linear *cvt, const layout_tk_pad *pad, int tr,
                                           const layout_tk_global *g, int64_t ceiling, layout_triton_kernel_op *r);
/* layout_tk_lower_ldst_bounded for warp 0's figures only: ptxas's joins
 * (ldst.c's last NVIDIA step, which changes only the CTA's figures) are
 * not asked (the ptxas_* fields stay 0). */
layout_status layout_tk_lower_ldst_warp0(const layout_triton_kernel *k, const layout_checker *ck,
                                         const layout_linear *cvt, const layout_tk_pad *pad, int tr,
                                         const layout_tk_global *g, int64_t ceiling, layout_triton_kernel_op *r);

/* layout_tk_lower_ldst_bounded that also fills list (layout_tk_ds_list,
 * below; list->ok = 0 where it cannot: NVIDIA, padded, ds_read_tr, not
 * modelled). */
layout_status layout_tk_lower_ldst_list(const layout_triton_kernel *k, const layout_checker *ck,
                                        const layout_linear *cvt, const layout_tk_pad *pad, int tr,
                                        const layout_tk_global *g, int64_t ceiling, layout_triton_kernel_op *r,
                                        struct layout_tk_ds_list *list);

/* layout_tk_lower_ldst with every instruction costed through the checker
 * (no one-run shortcut for translated runs): the reference
 * tests/test_suggest_fast.c holds the shortcut to. */
layout_status layout_tk_lower_ldst_each(const layout_triton_kernel *k, const layout_checker *ck,
                                        const layout_linear *cvt, const layout_tk_pad *pad, int tr,
                                        const layout_tk_global *g, layout_triton_kernel_op *r);

/* One access lowerLdStShared emits, as LLVM's LoadStoreVectorizer sees it
 * (lsv.c): accesses of one group are at base(group) + off bytes, the base
 * unknown and different for each group; align_log2: log2 of the alignment
 * LLVM knows of base(group) + off (known bits).  What alias analysis knows
 * of two groups' bases: base(group) = X + a value in [lo, hi] with X the
 * same for every group (a padded layout: the padding term of the base,
 * from its known bits); lo > hi: nothing (never told apart). */
typedef struct layout_tk_lsv_acc {
    uint64_t group;
    int32_t off;
    int32_t align_log2;
    int32_t lo, hi;
    /* 1: LLVM sees this access on the padded base of its run (no constant
     * at or above a padding interval: Triton's IR adds that constant before
     * the padding and recomputes it, a base of its own for the vectorizer),
     * so the unaligned DS mode's merges apply (layout_tk_lsv's ua_elem) */
    int32_t ua_ok;
} layout_tk_lsv_acc;

/* Whether alias analysis tells accesses x and y (`bytes` each) apart: the
 * same group and other offsets, or the range of y's address minus x's,
 * [lo_y - hi_x, hi_y - lo_x] + off_y - off_x, clear of (-bytes, bytes). */
int layout_tk_lsv_no_alias(const layout_tk_lsv_acc *x, const layout_tk_lsv_acc *y, int bytes);

/* Whether LLVM's LoadStoreVectorizer forms one access of `size` bytes at
 * alignment 2^align_log2 (NVPTX: natural alignment; AMDGPU LDS: 8 bytes at
 * 4, 16 at 8); size a power of two up to 16. */
int layout_tk_lsv_legal(int size, int align_log2, int is_nvidia);

/* The same for AMDGPU LDS in the unaligned DS access mode (lsv.c: the
 * vectorizer's speed ranks), for a chain of elem_bytes elements. */
int layout_tk_lsv_legal_ua(int size, int align_log2, int elem_bytes);

/* The LoadStoreVectorizer over n accesses (program order, n <= 1024) of
 * `bytes` each (ua_elem: 0, or AMDGPU's unaligned DS access mode with
 * elements of ua_elem bytes): the runs it merges into one instruction.  order lists the
 * access indices run after run (each run in offset order), run_len[k] the
 * accesses of run k (at most 16); every access is in exactly one run (a
 * run of 1: left as emitted).  Returns the number of runs (0 for bad
 * arguments). */
int layout_tk_lsv(const layout_tk_lsv_acc *acc, int n, int bytes, int is_store, int is_nvidia, int ua_elem,
                  short *order, unsigned char *run_len);

/* One b32 / b64 DS instruction as SILoadStoreOptimizer sees it (xpair.c):
 * off, its constant byte offset from its base register; key, that base
 * register (with grp: instructions of other groups never share one);
 * var, the variable part of its address (alias analysis: the same var of
 * one group at other offsets does not alias, anything else may); w, its
 * bytes per lane (4, 8) or 0 (not pairable, but a store may block a
 * merge); store: 1 a store, 0 a load; size: its bytes per lane; span:
 * what alias analysis knows of the variable part (its known bits: a value
 * in [0, span] bytes; -1 nothing), so that the address lies in [off, off +
 * span]; at: its index into the padded no-alias ranges (ldst.c; unused
 * unpadded). */
typedef struct layout_tk_dsi {
    int64_t off;
    uint64_t key, var;
    int64_t span;
    int32_t grp, size;
    short at;
    unsigned char w, store;
} layout_tk_dsi;

#define LAYOUT_TK_XPAIR_MAX (2 * LAYOUT_TRITON_KERNEL_MAX_ACCESSES)

/* The AMD name of a b32 / b64 (w bytes) DS access, paired (kind 1 read2 /
 * write2, 2 their st64 form) or not (kind 0) (dspair.c). */
void layout_tk_pair_name(int w, int kind, layout_direction dir, char *buf, size_t cap);

/* SILoadStoreOptimizer's offsetsCanBeCombined for two accesses of `size`
 * bytes at byte offsets a and b of one base: 0 no, 1 read2 / write2, 2
 * their st64 form. */
int layout_tk_pair_kind(int64_t a, int64_t b, int size);

/* SILoadStoreOptimizer over n (<= LAYOUT_TK_XPAIR_MAX) instructions in
 * program order: partner[i] the instruction i merges with (-1 none) and
 * kind[i] the pair's layout_tk_pair_kind (0 none); walk (NULL: not
 * wanted) the pairable instructions in the order the pass meets them, a
 * pair once; returns how many that is.  padded: one padded op's
 * instructions, told apart by acc (layout_tk_lsv_no_alias). */
int layout_tk_pair_ds(const layout_tk_dsi *ins, int n, const layout_tk_lsv_acc *acc, int padded, short *partner,
                      unsigned char *kind, short *walk);

/* What an AMD local load / store's lowering leaves to SILoadStoreOptimizer
 * (ldst.c fills it when asked, layout_tk_op_finish): ok = 1 when filled
 * (unpadded, no ds_read_tr, every instruction listed); the instructions
 * after the LoadStoreVectorizer in program order (n; w, key, var, off,
 * size as layout_tk_dsi's, off and key in bytes and elements of the op's
 * own offset map; span, the same for all); the images of its lane and warp bits (n_lane + n_warp,
 * elements) and elem_bytes: regBase, the part of each address the lane and
 * warp ids make. */
struct layout_tk_capture;
typedef struct layout_tk_ds_list {
    struct layout_tk_capture *capture;     /* NULL, or where the op's stream goes (triton_stream.h) */
    int ok;
    int n;
    int elem_bytes;
    int n_lane, n_warp;
    uint64_t lw[2 * LAYOUT_LINEAR_MAX_BITS];
    int64_t span;
    int64_t off[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    uint64_t key[LAYOUT_TRITON_KERNEL_MAX_ACCESSES], var[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    int32_t size[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    unsigned char w[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
} layout_tk_ds_list;

/* Where lowerLdStShared's lowering writes the op's instruction stream
 * (ldst.c, step 6; stream.c): entries out[0 .. min(n, cap)), n counting
 * all of them; op, block and buffer are left for the caller. */
typedef struct layout_tk_capture {
    struct layout_triton_inst *out;
    int cap, n;
    int unlisted; /* 1: some instruction of the op was not captured (a lowering that lists none) */
} layout_tk_capture;

/* Triton 3.6's shared-memory allocation of k's module (alloc.c,
 * lib/Analysis/Allocation.cpp): off[i] the byte offset of module op i's
 * buffer for each `ttg.local_alloc` (-1 for other ops), w the module's
 * memdesc web (web_internal.h).  Returns 1, or 0 when some buffer is not
 * sized here (padded or nvmma encodings, scratch of an op not modelled,
 * histograms, gathers, atomics, calls, warp specialisation). */
struct layout_tk_web;
int layout_tk_alloc_offsets(const layout_triton_kernel *k, struct layout_tk_web *w, int64_t *off);

/* SILoadStoreOptimizer across the ops of k (AMD; xpair.c): where ops of
 * one basic block address the same base register, their instructions
 * merge as one list, and each op's counts are set to what the merged
 * lists give (a merged pair counted at its earlier instruction's op,
 * whose debug location LLVM keeps).  Run by layout_triton_kernel_analyze
 * after every op is lowered; returns LAYOUT_OK (a kernel it cannot place,
 * e.g. an allocation it cannot size, is left as lowered op by op). */
layout_status layout_tk_xpair(layout_triton_kernel *k, layout_error *err);

/* The constant byte offset of module op `op`'s memdesc in the kernel's
 * shared memory (allocation offset alloc_off[] of layout_tk_alloc_offsets
 * + the slot of a constant index into a multi-buffered allocation): 0 and
 * *out, or -1 when it is not a constant or not known (xpair.c).  *root:
 * the memdesc's web class (-1: none).  layout_tk_base_offset_var also
 * takes a variable index: *out the allocation offset and *var a key of
 * (the index's SSA value, the slot's bytes), the register part two views
 * share exactly when they index with one value and equal slots (LLVM
 * computes index * slot once); *var = 0 for a constant offset. */
int layout_tk_base_offset_var(const layout_triton_kernel *k, struct layout_tk_web *w, const int64_t *alloc_off, int op,
                              int *root, int64_t *out, uint64_t *var);
int layout_tk_base_offset(const layout_triton_kernel *k, struct layout_tk_web *w, const int64_t *alloc_off, int op,
                          int *root, int64_t *out);

/* The cross-op pairing of one report's instructions (xpair.c): for each
 * instruction of report op's list (program order, as its stream lists
 * them), the report and list index of its joined partner (-1 none), the
 * pair kind, whether it is the one counted (the earlier) and its b32 /
 * b64 width (0: not pairable).  Returns 1 when op's block joins its lists
 * with other ops' (out filled), 0 when op is paired alone (out->n = 0). */
typedef struct layout_tk_xpair_out {
    int n;
    short partner_op[LAYOUT_TRITON_KERNEL_MAX_ACCESSES], partner[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    unsigned char kind[LAYOUT_TRITON_KERNEL_MAX_ACCESSES], standing[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    unsigned char w[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
} layout_tk_xpair_out;
int layout_tk_xpair_op(const layout_triton_kernel *k, int op, layout_tk_xpair_out *out, layout_error *err);
/* r (report op `op`, lowered alone, as written) recounted as the
 * analysis's pairing across the ops of its block leaves it (xpair.c). */
layout_status layout_tk_xpair_recount(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                      layout_error *err);
/* The name of a b32 / b64 (w bytes) DS instruction, paired (kind 1, 2) or
 * not, on k's arch (xpair.c). */
void layout_tk_xpair_name(const layout_triton_kernel *k, int w, int kind, layout_direction dir, char *buf, size_t cap);

/* gfx11 / gfx12 DS names (op.c). */
void layout_tk_rdna_names(const layout_triton_kernel *k, layout_triton_kernel_op *r);

/* The register word of a global tt.load / tt.store of a tensor in register
 * layout rl (register, lane, warp -> dim0, dim1) of elem_bits elements, as
 * Triton 3.6 vectorises it (ModuleAxisInfoAnalysis::getContiguity in
 * lib/Analysis/AxisInfo.cpp: the contiguous elements per thread along the
 * layout's first order dim, here taken as contiguous in memory only when it
 * is the last dim of a row-major tensor; at most 128 bits) and packs it
 * (words of min(vector, 32) bits): returns the word's bits. */
int layout_tk_global_word_bits(const layout_linear *rl, int elem_bits);

/* How the registers of SSA value `value` (a tensor of register layout rl,
 * elem_bits elements) came packed into 32-bit VGPRs, as AMDGPU's
 * instruction selection sees them for its `_d16_hi` stores
 * (DSInstructions.td: DSWritePat<DS_WRITE_B16_D16_HI, i32,
 * store_hi16_local>, a store of bits [31:16]; docs/notes/amd-misses.md):
 * 1, a global tt.load, directly or through tt.trans (g: its word, run1 /
 * run2 the register bits one and two elements along the loaded tensor's
 * last dim); 2, an f32 -> 16-bit arith.truncf the
 * arch converts two at a time (LAYOUT_ISA_CVT_PK_F16_F32: registers 2c,
 * 2c + 1 share a VGPR, run1 = register bit 0); 0, neither (g empty). */
int layout_tk_packed_words(const layout_triton_kernel *k, int value, const layout_linear *rl, int elem_bits,
                           layout_tk_global *g);

/* An op's register layout text (aliases inlined) read as a linear layout on
 * the tensor's shape; why gets the reason when it cannot be. */
layout_status layout_tk_reg_linear(const layout_ttgir *m, const layout_ttgir_type *reg, const char *attr, size_t alen,
                                   layout_triton_attr *a_out, layout_linear *out, char *why, size_t why_cap);

/* Helpers of ldst.c used by op.c and the lowering files: add n instructions of mnemonic
 * mn to r; copy attr into buf with every `#alias` replaced by its text (-1:
 * too long or nested deeper than 8); why = prefix + msg; the image of input
 * dim d's bit b. */
void layout_tk_count_add(layout_triton_kernel_op *r, const char *mn, int64_t n);
/* Add access number `access`'s checker cost c (of instruction ins) to r's
 * sums, its conflicted count and, if it is the costliest so far, its worst. */
void layout_tk_cost_add(layout_triton_kernel_op *r, int access, const layout_cost *c, const layout_instr *ins);
/* AMD: LLVM's view of the thread-id part of an address (tidbits.c).  img
 * holds the images of bits 0 .. n - 1 of the thread id (lane bits, then
 * warp bits) in the address's own units (ldst.c: bytes; scan.c: elements
 * of its GEP).  layout_tk_tid_field: 1 when the part is one `and` of the
 * shifted thread id as InstCombine leaves it, (tid << shift) & mask
 * (shift < 0: tid >> -shift), else 0.  layout_tk_tid_extra: the bits
 * that shifted tid may hold (tid < 1024) and mask clears.
 * layout_tk_tid_own_reg: 1 when that part plus the constant c gets a base
 * register of its own, `or (shl tid, shift), c` (InstCombine drops the
 * mask, and the or is no longer disjoint). */
int layout_tk_tid_field(const uint64_t *img, int n, uint64_t *mask, int *shift);
uint64_t layout_tk_tid_extra(uint64_t mask, int shift);
int layout_tk_tid_own_reg(uint64_t mask, int shift, uint64_t c);
/* What an access at that part plus c gets on k's target: 0 the part's
 * own base register (the caller's), 1 the register `or (shl tid, shift),
 * c` of its own (*key, *off = 0), 2 the register tid << shift with c in
 * the DS offset (*key, *off = c): instruction selection knows the thread
 * count and folds c back where no block but one uses it (tidbits.c).
 * elsewhere: the access stands in another LLVM block than the part's
 * computation (a predicated scratch store, or past one). */
int layout_tk_tid_reg(const layout_triton_kernel *k, uint64_t mask, int shift, uint64_t c, int elsewhere,
                      uint64_t *key, int64_t *off);
/* Whether ir ops a and b have the same name and the same printed operand
 * and result types (encodings included): Triton lowers them to the same
 * LLVM values, which its CSE merges (tidbits.c). */
int layout_tk_ir_same_op(const layout_ttgir *m, int a, int b);
/* AMD: whether module op `op`'s lane / warp part reaches
 * SeparateConstOffsetFromGEP through a phi GVN made (an op after a loop
 * that may run no iteration, the same as an op in its body), so that an
 * XOR constant with bits inside and outside the part stays one `xor`, a
 * register of its own (tidbits.c). */
int layout_tk_part_through_phi(const layout_triton_kernel *k, int op);
/* The base-register key of such an access: none of the lane / warp keys
 * the lowerings give (those are offsets below 2^32).  Its register holds
 * (tid << shift) | c, within [c, c + mask] (c clear of the mask, and
 * covering what the mask clears): LAYOUT_TK_OWN_REG_LO gives c back for
 * alias analysis (dspair.c), 0 for any other key. */
#define LAYOUT_TK_OWN_REG_TAG ((uint64_t)1 << 62)
#define LAYOUT_TK_OWN_REG_KEY(c) (LAYOUT_TK_OWN_REG_TAG | (uint64_t)(c))
#define LAYOUT_TK_OWN_REG_LO(key) \
    (((key) & LAYOUT_TK_OWN_REG_TAG) ? (int64_t)((key) & (LAYOUT_TK_OWN_REG_TAG - 1)) : (int64_t)0)

/* The base-register key of a DS access at a constant address: the LDS
 * base @global_smem plus a constant, no thread part.  Triton's LLVM
 * selects that base as GET_GROUPSTATICSIZE and copies it into a VGPR once
 * per access (the machine IR after instruction selection: `%170 = COPY
 * %168`, `%172 = COPY %168`, one for each ds_read_b32; MachineCSE leaves
 * COPYs alone and SIFoldOperands turns each into its own V_MOV_B32 0), so
 * no two such accesses share a register when SILoadStoreOptimizer runs:
 * they never pair (reduce.c, scan.c).  i: the access's number, unique
 * within its op. */
#define LAYOUT_TK_CONST_ADDR_KEY(i) (((uint64_t)1 << 61) | (uint64_t)(i))

/* SILoadStoreOptimizer (pair_ds) over the n scalar accesses of one basic
 * block, in program order (reduce.c): access i at byte offset off[i] from
 * base register key[i], w[i] its b32 / b64 width in bytes (4 or 8) or 0
 * when it cannot pair; r->direction says loads or stores.  Counts the
 * mnemonics of every access with w[i] != 0 (paired or left single) into r;
 * partner, kind (NULL: not wanted) get each access's partner and pair kind
 * (layout_tk_pair_ds). */
void layout_tk_pair_block(const layout_triton_kernel *k, layout_triton_kernel_op *r, int n, const unsigned char *w,
                          const uint64_t *key, const int64_t *off, short *partner, unsigned char *kind);
long layout_tk_inline_aliases(const layout_ttgir *m, const char *attr, size_t alen, char *buf, size_t cap, int depth);
void layout_tk_set_why(char *why, size_t cap, const char *prefix, const char *msg);
/* The index of rl's last output dim (dim<n_out - 1>: a tensor's fastest
 * varying in Triton's standard order), -1 if none. */
int layout_tk_last_dim(const layout_linear *rl);

/* The image (offset) of input dim d's bit b: inline, as the lowerings'
 * inner loops call it per access and bit (callgrind: 5 % of a gfx1200
 * fp32 matmul's report as a call). */
static inline uint64_t layout_tk_basis(const layout_linear *c, int d, int b)
{
    return c->bases[c->in_shift[d] + b];
}

/* NVIDIA: when ptxas sinks the kernel's last shared load past the EXIT of
 * the threads that store nothing, the warps that still issue it (sunk_warps
 * of r, a report of k's last op: analyze's, or op_cost's under another
 * layout) and its CTA costs on those warps only (sink.c). */
void layout_tk_sink_last_load(const layout_triton_kernel *k, layout_triton_kernel_op *r);

/* Whether ptxas sinks r's last load (sink.c's rules but the CTA-cost one):
 * 1 with *warp_copies, the warp-id bits whose warps hold only copies
 * (a warp w with w & *warp_copies exits), and *copy_lanes, the lane-id
 * bits whose lanes do (lane l with l & *copy_lanes exits). */
int layout_tk_sink_applies(const layout_triton_kernel *k, const layout_triton_kernel_op *r, uint64_t *warp_copies,
                           uint64_t *copy_lanes);

/* NVIDIA ldmatrix / stmatrix of cvt (Triton's lowerLdStMatrix; ldmatrix.c), plain or
 * transposed: 1 and r filled when the op lowers this way, else 0 (and cap
 * as it was).  cap (NULL: none): the instructions' stream, each with the
 * lanes that give a row address. */
int layout_tk_ldst_matrix(const layout_triton_kernel *k, const layout_checker *ck, const layout_linear *cvt,
                          int transpose, layout_triton_kernel_op *r, layout_tk_capture *cap);

/* ttg.convert_layout (convert.c): Triton 3.6's transferWithinBlockSwizzling
 * on AMD, the rest reported as not modelled.  r has op, kind, line, loc
 * set.  capture (NULL: none): its stream, every round's stores then loads
 * (capture->unlisted set where a half is ldmatrix / stmatrix).  The same
 * cap argument of tt.reduce, tt.scan and tt.histogram below: their
 * scratch accesses' stream, each with the lanes of every warp that its
 * predicates leave on. */
layout_status layout_tk_lower_convert(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                      struct layout_tk_capture *capture, layout_error *err);

/* tt.reduce (reduce.c): Triton 3.6's inter-warp scratch for an operand of
 * any rank and up to three operands (stores of each warp's partials, the
 * accumulation rounds, the used results' loads; AMD pairing; the CTA's
 * sums over every warp), or no instruction when the axis stays within a
 * warp; else not modelled with a reason.  r has op, kind, line, loc set. */
layout_status layout_tk_lower_reduce(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                     layout_tk_capture *cap, layout_error *err);

/* tt.scan (scan.c): Triton 3.6's scanAcrossWarps when warps lie along the
 * axis (each warp's partial totals stored to a scratch, read back by every
 * thread), costed for every warp; no instruction when the axis stays
 * within a warp; else not modelled with a reason.  r has op, kind, line,
 * loc set. */
layout_status layout_tk_lower_scan(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                   layout_tk_capture *cap, layout_error *err);

/* tt.gather (gather.c): Triton 3.6's warp-local gather (shuffles, no
 * shared instruction) or its shared path (the source stored to a scratch,
 * then one load per gathered element at a data-dependent address, costed
 * conflict-free: a lower bound).  r has op, kind, line, loc set. */
layout_status layout_tk_lower_gather(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                     layout_tk_capture *cap, layout_error *err);

/* The layout S (register/lane/warp -> dim0..) onto a row-major scratch
 * of `shape` (the last dim fastest): register/lane/warp -> offset in
 * elements (gather.c; 0 when a dim is not a power of two). */
int layout_tk_row_major(const layout_linear *S, const int64_t *shape, int rank, layout_linear *cvt);

/* Add sub's counts and costs, times reps, into r (convert.c). */
void layout_tk_merge(layout_triton_kernel_op *r, const layout_triton_kernel_op *sub, int64_t reps);

/* A tensor tt.atomic_rmw / tt.atomic_cas whose result is used (atomic.c):
 * when its layout broadcasts, Triton 3.6 passes the results through a
 * scratch (finalizeTensorAtomicResults): stored by the threads that own
 * each element, a barrier, loaded by every thread.  r has op, kind, line,
 * loc set. */
layout_status layout_tk_lower_atomic(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                     layout_tk_capture *cap, layout_error *err);

/* tt.histogram (histogram.c): HistogramOpToLLVM's shared scratch (zeroed,
 * atomically added to, loaded).  r has op, kind, line, loc set. */
layout_status layout_tk_lower_histogram(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                        layout_tk_capture *cap, layout_error *err);

/* ttg.async_copy_global_to_local / amdg.buffer_load_to_local on AMD
 * (op.c): direct-to-LDS loads, no DS instruction; cvt is the source
 * layout composed with the memdesc's. */
layout_status layout_tk_lower_direct_to_lds(const layout_triton_kernel *k, const layout_ttgir_op *o,
                                            const layout_linear *cvt, layout_triton_kernel_op *r);

/* Helpers of reduce.c that scan.c and gather.c share: the coordinate of
 * packed output vector v along output dim d; the op's `axis = N`
 * attribute (-1: unread); the first of the rank dims (output dims od[])
 * that v moves along (-1: none); Triton's delinearize (LLVM Utility.cpp)
 * of value x of input dim din into per-dim indices (multi), with *rep = 0
 * when x sets a free (zero-basis) bit; the image of x of input dim din. */
uint64_t layout_tk_coord(const layout_linear *l, uint64_t v, int d);
int layout_tk_op_axis(const layout_ttgir *m, const layout_ttgir_op *o);
int layout_tk_dim_of(const layout_linear *l, uint64_t v, const int *od, int rank);
void layout_tk_delinearize(const layout_linear *l, int din, uint64_t x, const int *od, int rank, const int *order,
                           int64_t *multi, int *rep);
uint64_t layout_tk_image(const layout_linear *l, int din, uint64_t x);

/* getSmemBases (Triton 3.6 lib/Conversion/TritonGPUToLLVM/Utility.cpp, for
 * ReduceOpToLLVM and ScanOpToLLVM): the scratch of n_ops operands of
 * bits[i] bits, elems elements each, laid out widest first (a stable
 * sort) one after another; base[i] gets operand i's byte offset.  Returns
 * the bytes in all.  n_ops <= LAYOUT_TK_SMEM_MAX_OPS. */
#define LAYOUT_TK_SMEM_MAX_OPS LAYOUT_TTGIR_MAX_TYPES
int64_t layout_tk_smem_bases(const int *bits, int n_ops, int64_t elems, int64_t *base);

/* A scratch exchange's accesses (reduce.c, scan.c): the checker, the
 * report, the CTA's sums over every warp and the current basic block's
 * accesses (AMD: SILoadStoreOptimizer pairs within one block). */
#define LAYOUT_TK_PJ_SCRATCH 64
typedef struct layout_tk_scratch {
    const layout_triton_kernel *k;
    layout_checker ck;
    layout_triton_kernel_op *r;
    int lanes;
    int64_t cta_total, cta_extra;
    int blk_n, blk_write;
    unsigned char blk_w[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    uint64_t blk_key[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    int64_t blk_off[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    unsigned char blk_bits[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    unsigned char blk_vec[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    /* NULL, or where the accesses' stream goes: each access's entry is
     * built by its warps' layout_tk_scratch_cost calls (cap_open: begun),
     * kept by layout_tk_scratch_block_add (the block's first at cap_blk0)
     * and named, paired, by layout_tk_scratch_block_end */
    layout_tk_capture *cap;
    int cap_open, cap_blk0;
    /* NVIDIA, for ptxas's joins (ptxas_join.c; scratch.c joins accesses
     * whose every active lane of every warp reads one address, the first
     * LAYOUT_TK_PJ_SCRATCH of a block): the access being costed (pend_*),
     * then each kept one: uniform (and one active mask on every warp that
     * runs it), that address and mask, its warps, its CTA cost */
    int pend_open, pend_uniform, pend_warps;
    uint64_t pend_addr, pend_act;
    int64_t pend_t, pend_x;
    unsigned char blk_uniform[LAYOUT_TK_PJ_SCRATCH], blk_warps[LAYOUT_TK_PJ_SCRATCH];
    uint64_t blk_addr[LAYOUT_TK_PJ_SCRATCH], blk_act[LAYOUT_TK_PJ_SCRATCH];
    int64_t blk_t[LAYOUT_TK_PJ_SCRATCH], blk_x[LAYOUT_TK_PJ_SCRATCH];
} layout_tk_scratch;

/* An access that joins no block (a histogram's shared atomic), named mn:
 * kept in the stream as layout_tk_scratch_block_add keeps the others. */
void layout_tk_scratch_keep_named(layout_tk_scratch *s, int write, int bytes, uint64_t key, int64_t off, const char *mn);

/* Warp w's part of one access of `bytes` per lane: lane l at addr[l]
 * when bit l of active is set.  Warp 0 goes into r's per-warp figures
 * (access number r->n_accesses), every warp into the CTA's; a warp with
 * no active lane moves nothing.  Returns 0, or 1 when the checker
 * refuses it. */
int layout_tk_scratch_cost(layout_tk_scratch *s, int write, int bytes, int w, uint64_t active, const uint64_t *addr);
/* Add the access just costed (bits in all, vec elements; warp 0's lane 0
 * at byte off from base register key) to the block, and count it; a
 * change of direction ends the block. */
void layout_tk_scratch_block_add(layout_tk_scratch *s, int write, int bits, int vec, uint64_t key, int64_t off);
/* End the block: its mnemonics (AMD: b32 / b64 paired where
 * SILoadStoreOptimizer pairs them) counted into r. */
void layout_tk_scratch_block_end(layout_tk_scratch *s);

/* One shared access as ptxas sees it (ptxas_join.c): a store or a load of
 * `bytes` per lane (elements of elem_bits) at constant byte offset `off`
 * from base register `base`, whose known alignment (the address minus off,
 * over every lane of every warp) is 2^base_align_log2 bytes. */
typedef struct layout_tk_pj_acc {
    int write, bytes, elem_bits;
    uint64_t base;
    int64_t off;
    int base_align_log2;
} layout_tk_pj_acc;

/* ptxas's joins over a[0..n) in program order (ptxas_join.c; join16: the
 * values of 16-bit loads stay 16-bit or widen cheaply, so they join):
 * lead[i] the access whose SASS instruction holds access i (-1: i is
 * not joined), and on each lead width[] its bytes per lane and start[]
 * its offset.  Returns the instructions joined away (n minus the SASS's);
 * n at most LAYOUT_TK_PJ_MAX (more: nothing joins). */
int layout_tk_ptxas_join(const layout_tk_pj_acc *a, int n, int join16, short *lead, int *width, int64_t *start);
/* The most accesses one layout_tk_ptxas_join call takes (an op with more
 * instructions per warp is left unjoined: stack, not a rule). */
#define LAYOUT_TK_PJ_MAX 256

/* ptxas's dummy loads beside cp.async (ptxas_dummy.c): every report's
 * ptxas_dummy_loads set from the IR and the lowered reports (NVIDIA). */
void layout_tk_ptxas_dummies(layout_triton_kernel *k);

/* Whether the 16-bit values module op `op` loads may join (ptxas_join.c):
 * 0 when the IR zero-extends one of its results (arith.extui) or widens a
 * bf16 one (arith.extf), 1 otherwise. */
int layout_tk_ptxas_join16(const layout_triton_kernel *k, int op);

#endif
