/**
 * @file triton_kernel.h
 * @brief A Triton kernel's shared-memory ops lowered as Triton 3.6 lowers
 *        them, each costed exactly by the bank-conflict checker.
 *
 * For every op of a parsed TTGIR module (ttgir.h) that moves data between
 * registers and shared memory, layout_triton_kernel_analyze() rebuilds what
 * Triton 3.6's `lowerLdStShared` (lib/Conversion/TritonGPUToLLVM/Utility.cpp)
 * emits for one warp:
 *
 *     cvt      = reg(register, lane, warp -> dim0, dim1) then shared(dim0, dim1 -> offset)
 *     vec      = largest v <= 128 / elem_bits with offsets 1, 2, .., v/2 all
 *                images of register bases (registers may be permuted)
 *     accesses = 2^(non-broadcast register bits - log2 v) per warp, lane l of
 *                access r at byte address cvt(r, l, warp 0) * elem_bytes
 *                (padded_shared: its linear part, the padding added after)
 *
 * then the mnemonic the ISA prints (AMD `ds_write_b16`, `ds_read_b64`, with
 * LLVM's SILoadStoreOptimizer pairing of b32/b64 accesses whose addresses
 * differ by a constant into `ds_read2[st64]_b32/b64`, and gfx950's
 * transposing `ds_read_b64_tr_b16/_b8` for MFMA operands not contiguous
 * along K; NVIDIA `ldmatrix` / `stmatrix` .x1/.x2/.x4[.trans] where Triton's
 * lowerLdStMatrix applies, else `st.shared.v2.b32`, `ld.shared.b16`,
 * `cp.async.ca.shared.global`) and the exact cost of every access on the
 * target's arch preset (docs/triton.md has the rules and their sources).
 * `ttg.convert_layout` is modelled as Triton 3.6 lowers it when it needs
 * no data movement (registers renamed: no instruction) or goes across warps
 * through Triton's swizzled scratch (its stores and loads, both in the
 * op's counts: optimalSwizzlingLdSt, or on NVIDIA the tile pair Triton's
 * search picks among st/ld.shared.v4, stmatrix / ldmatrix and .trans).
 * Ops Triton lowers another way (within-warp shuffles, reduce scratch,
 * wgmma operands, AMD direct-to-LDS loads) and layouts the dialect cannot
 * read are reported with `modelled = 0` and the reason, never dropped.
 * Example (tests/fixtures/triton/kernels/matmul_fp16_64x64x32_w4_s2_gfx942.ttgir):
 * @code
 *   static layout_ttgir m;  static layout_triton_kernel k;   // large: static or heap
 *   layout_ttgir_parse(text, len, &m, &err);
 *   layout_triton_kernel_analyze(&m, NULL, &k, &err);         // arch from ttg.target: gfx942
 *   // k.ops[0]: ttg.local_alloc, write, vec 1 x 16 bits, 8 x ds_write_b16 per warp
 *   // k.per_warp_total: ds_write_b16 8, ds_read_b64 4, ... (what is modelled)
 * @endcode
 *
 * Storage: no heap; ::layout_triton_kernel is about 1 MiB (one report per
 * op of ::LAYOUT_TTGIR_MAX_OPS): make it static or allocate it.  It keeps a
 * pointer to the module (which points into the text): both must outlive it.
 * Stack: this layer's own frames take up to about 46 KiB (gcc and clang
 * -O2, -fstack-usage; op_explain about 14 KiB), plus the dialect reader's
 * (layout_triton_from_text()) and the checker's.
 * Thread safety: the calls only read their inputs and write their outputs;
 * layout_triton_kernel_op_cost() may run on one analysed kernel from many
 * threads.  Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (an op index out of
 * range, no arch given and an unknown `ttg.target`); an op that cannot be
 * modelled is no error (its report says why).
 */
#ifndef LAYOUT_TRITON_KERNEL_H
#define LAYOUT_TRITON_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "layout/arch.h"
#include "layout/instr.h"
#include "layout/status.h"
#include "layout/ttgir.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Capacity of a mnemonic, including the NUL ("ds_read2st64_b64", "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"). */
#define LAYOUT_TRITON_KERNEL_MNEMONIC_CAP 56
/** Most distinct mnemonics of one op. */
#define LAYOUT_TRITON_KERNEL_MAX_OP_MNEMONICS 4
/** Most distinct mnemonics of one kernel's per_warp_total. */
#define LAYOUT_TRITON_KERNEL_MAX_MNEMONICS 32
/** Capacity of a not-modelled reason, including the NUL. */
#define LAYOUT_TRITON_KERNEL_REASON_CAP 256
/** Capacity of a source location, including the NUL. */
#define LAYOUT_TRITON_KERNEL_LOC_CAP 128
/** Most accesses (lane-level instructions) of one op per warp that are costed. */
#define LAYOUT_TRITON_KERNEL_MAX_ACCESSES 1024

/** A mnemonic and how many such instructions one warp issues. */
typedef struct layout_triton_kernel_count {
    char mnemonic[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP]; /**< as the ISA prints it: "ds_read_b64", "st.shared.v2.b32" */
    int64_t count;                                    /**< instructions per warp */
} layout_triton_kernel_count;

/** The lowering and cost of one shared-memory op. */
typedef struct layout_triton_kernel_op {
    int op;                                  /**< index into the module's ops */
    layout_ttgir_op_kind kind;               /**< which op */
    int line;                                /**< its TTGIR line */
    char loc[LAYOUT_TRITON_KERNEL_LOC_CAP];  /**< its source location (layout_ttgir_op_loc()), "" if none */
    int modelled;                            /**< 1: lowered and costed below; 0: see reason */
    char reason[LAYOUT_TRITON_KERNEL_REASON_CAP]; /**< why not modelled ("" when modelled) */
    layout_direction direction;              /**< write (registers -> shared) or read */
    size_t reg_enc_at, reg_enc_len;          /**< the register tensor's encoding in the text (alias or inline) */
    size_t shared_enc_at, shared_enc_len;    /**< the memdesc's encoding in the text */
    int elem_bits;                           /**< element bits */
    int vec_elems;                           /**< elements per lane per access */
    int vec_bits;                            /**< vec_elems * elem_bits */
    int n_accesses;                          /**< lane-level accesses per warp (before AMD pairing) */
    int n_counts;                            /**< mnemonics used */
    layout_triton_kernel_count counts[LAYOUT_TRITON_KERNEL_MAX_OP_MNEMONICS]; /**< instructions per warp */
    int64_t extra_cycles;                    /**< sum over accesses of extra (conflict) cycles: AMD extra cycles, NVIDIA bank conflicts */
    int64_t total_cycles;                    /**< sum of total cycles: NVIDIA wavefronts */
    int n_conflicted;                        /**< accesses with extra cycles */
    int worst_access;                        /**< index of the first access with the most extra cycles; -1 if none */
    int worst_extra;                         /**< its extra cycles */
    int worst_nway;                          /**< its worst N-way */
    layout_instr worst;                      /**< its lane addresses (warp 0), for layout_triton_kernel_op_explain() */
    /* ttg.convert_layout through shared memory (0 for other ops): the
     * stores and loads of its scratch are both in counts[] and the costs;
     * vec_elems is the store's vector. */
    int cvt_load_vec_elems;                  /**< the load's elements per lane per access */
    int cvt_reps;                            /**< rounds (store, barrier, load) over the scratch: 2^|reps| */
    int64_t cvt_scratch_bytes;               /**< scratch bytes of one round (Triton's `reps` dim excluded) */
} layout_triton_kernel_op;

/** One analysed kernel. */
typedef struct layout_triton_kernel {
    const layout_ttgir *module;              /**< borrowed */
    layout_arch arch;                        /**< the arch costed on */
    int is_nvidia;                           /**< 1: PTX mnemonics; 0: AMDGCN */
    int sm;                                  /**< NVIDIA: the compute capability of the arch name (sm_90 -> 90); 0 on AMD */
    int n_ops;                               /**< reports used */
    layout_triton_kernel_op ops[LAYOUT_TTGIR_MAX_OPS]; /**< one per shared-memory access op, in text order */
    int n_modelled;                          /**< reports with modelled = 1 */
    int n_per_warp;                          /**< entries of per_warp_total */
    layout_triton_kernel_count per_warp_total[LAYOUT_TRITON_KERNEL_MAX_MNEMONICS]; /**< mnemonic -> instructions per warp over the modelled ops */
    int64_t extra_cycles;                    /**< sum over modelled ops */
    int64_t total_cycles;                    /**< sum over modelled ops */
    int64_t n_accesses;                      /**< sum over modelled ops */
} layout_triton_kernel;

/**
 * The arch preset Triton's target names: "hip:gfx942" -> gfx942,
 * "cuda:90" -> sm_90 (any preset "sm_NN").
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (no such preset, naming the target).
 */
layout_status layout_triton_kernel_target_arch(const char *target, layout_arch *out, layout_error *err);

/**
 * Lower and cost every shared-memory op of @p m on @p arch (NULL: the
 * preset of `ttg.target`, layout_triton_kernel_target_arch()).  Ops that
 * only view or free memory (memdesc views, local_dealloc, local_alloc
 * without a source) issue no instruction and get no report.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (target); ::LAYOUT_ERR_MISMATCH
 * (the arch's wave size differs from `ttg.threads-per-warp`);
 * ::LAYOUT_ERR_CAPACITY (more than ::LAYOUT_TRITON_KERNEL_MAX_MNEMONICS mnemonics).
 */
layout_status layout_triton_kernel_analyze(const layout_ttgir *m, const layout_arch *arch, layout_triton_kernel *out,
                                           layout_error *err);

/**
 * The report of report index @p op as if its shared operand had the
 * encoding @p shared_attr (@p len bytes of `#ttg...` text; NULL = as
 * written).  Reentrant and heap-free (10 to 40 us per call on the corpus
 * kernels, gcc -O2): meant for a search scoring many candidate layouts.  A candidate that cannot be
 * read gives a report with modelled = 0 and the reason, not an error.
 * Errors: ::LAYOUT_ERR_NULL (k, out); ::LAYOUT_ERR_ARG (op out of range).
 */
layout_status layout_triton_kernel_op_cost(const layout_triton_kernel *k, int op, const char *shared_attr, size_t len,
                                           layout_triton_kernel_op *out, layout_error *err);

/**
 * The worst access of a modelled report explained as `layout check` does
 * (layout_check_report_text() of that one instruction): summary, then one
 * line per conflicted lane group.  snprintf semantics.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (not modelled, no access).
 */
layout_status layout_triton_kernel_op_explain(const layout_triton_kernel *k, const layout_triton_kernel_op *r,
                                              char *buf, size_t cap, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_TRITON_KERNEL_H */
