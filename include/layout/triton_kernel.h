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
 * transposing `ds_read_b64_tr_b16/_b8` for 16- and 8-bit loads whose
 * lanes run along the contiguous elements (any register layout); NVIDIA `ldmatrix` / `stmatrix` .x1/.x2/.x4[.trans] where Triton's
 * lowerLdStMatrix applies, else `st.shared.v2.b32`, `ld.shared.b16`,
 * `cp.async.ca.shared.global`) and the exact cost of every access on the
 * target's arch preset (docs/triton.md has the rules and their sources).
 * `ttg.convert_layout` is modelled as Triton 3.6 lowers it when it needs
 * no data movement (registers renamed: no instruction), moves data within
 * a warp with shuffles (cvtNeedsWarpShuffle: fewer than 2 mixed
 * register-lane transpositions; no shared-memory instruction) or goes
 * through Triton's swizzled scratch (across warps, or within a warp when
 * cvtNeedsWarpShuffle declines; its stores and loads, both in the
 * op's counts: optimalSwizzlingLdSt, or on NVIDIA the tile pair Triton's
 * search picks among st/ld.shared.v4, stmatrix / ldmatrix and .trans).
 * `tt.reduce` is modelled as ReduceOpToLLVM.cpp lowers it: within a warp
 * no instruction (shuffles); across warps its scratch (getScratchRepShape:
 * the operand's shape with the axis replaced by the warps along it): one
 * store of each warp's partial per accumulator, max(elements / threads, 1)
 * rounds of a load and a store, one load per result element, all scalar,
 * in counts, costs and cvt_scratch_bytes.
 * `ttng.warp_group_dot` on sm_90 is costed as measured on an H200
 * (tests/fixtures/triton/corpus/gmma): the tensor core reads each wgmma's
 * A tile (64 x K_instr, when in shared memory) and B tile (K_instr x
 * N_instr) in bytes / 128 wavefronts without a bank conflict, for the
 * 32-, 64- and 128-byte swizzles; no LSU instruction (counts empty), the
 * CTA's wavefronts in cta_total_cycles.
 * On NVIDIA the counts are the PTX's; ptxas then joins some accesses of
 * one base register into wider LDS / STS (ptxas_joined_loads / _stores,
 * the SASS's costs in cta_total_cycles / cta_extra_cycles) and sinks the
 * kernel's last load past an EXIT (sunk_warps).
 * Ops Triton lowers another way (AMD direct-to-LDS loads, an unswizzled
 * wgmma operand) and layouts the dialect cannot read are reported with
 * `modelled = 0` and the reason, never dropped.
 * Example (tests/fixtures/triton/kernels/matmul_fp16_64x64x32_w4_s2_gfx942.ttgir):
 * @code
 *   static layout_ttgir m;  static layout_triton_kernel k;   // large: static or heap
 *   layout_ttgir_parse(text, len, &m, &err);
 *   layout_triton_kernel_analyze(&m, NULL, &k, &err);         // arch from ttg.target: gfx942
 *   // k.ops[0]: ttg.local_alloc, write, vec 1 x 16 bits, 8 x ds_write_b16 per warp
 *   // k.per_warp_total: ds_write_b16 8, ds_read_b64 4, ... (what is modelled)
 * @endcode
 *
 * Storage: no heap; ::layout_triton_kernel is about 1.3 MiB (one report per
 * op of ::LAYOUT_TTGIR_MAX_OPS): make it static or allocate it.  It keeps a
 * pointer to the module (which points into the text): both must outlive it.
 * Stack: layout_triton_kernel_analyze() takes up to about 352 KiB
 * (tests/test_stack_bounds.c measures 328 KiB on a gfx942 matmul; gcc -O2
 * -fstack-usage: the pairing across ops, 169 KiB, lowering each op again
 * through ldst.c, 84 KiB, and SILoadStoreOptimizer's model, 53 KiB);
 * op_cost and op_explain a convert_layout's scratch lowered through ldst.c,
 * about 200 KiB; layout_triton_kernel_suggest about 150 KiB more than
 * op_cost (below); plus the dialect reader's (layout_triton_from_text())
 * and the checker's.
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
/** Most distinct mnemonics of one op (a two-operand tt.reduce on AMD: b16 and b32 stores and loads, single and paired). */
#define LAYOUT_TRITON_KERNEL_MAX_OP_MNEMONICS 8
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
    size_t reg_enc_at;                       /**< offset in the text of the register tensor's encoding (alias or inline) */
    size_t reg_enc_len;                      /**< its length; 0: none */
    size_t shared_enc_at;                    /**< offset in the text of the memdesc's encoding */
    size_t shared_enc_len;                   /**< its length; 0: none */
    int elem_bits;                           /**< element bits */
    int vec_elems;                           /**< elements per lane per access */
    int vec_bits;                            /**< vec_elems * elem_bits */
    int n_accesses;                          /**< lane-level accesses per warp (before AMD pairing) */
    int n_counts;                            /**< mnemonics used */
    layout_triton_kernel_count counts[LAYOUT_TRITON_KERNEL_MAX_OP_MNEMONICS]; /**< instructions per warp */
    int64_t extra_cycles;                    /**< sum over accesses of extra (conflict) cycles: AMD extra cycles, NVIDIA bank conflicts */
    int64_t total_cycles;                    /**< sum of total cycles: NVIDIA wavefronts */
    /** extra_cycles and total_cycles summed over the CTA's warps (the
     * module's num_warps): num_warps x the per-warp figures above (which are
     * warp 0's), unless a padded layout gives the warps other bank patterns,
     * where each warp is costed (what Nsight Compute and the LDS counters sum;
     * divide by num_warps for the average per warp). */
    int64_t cta_extra_cycles;
    int64_t cta_total_cycles;                /**< see cta_extra_cycles */
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
    int64_t cvt_scratch_bytes;               /**< scratch bytes of one round (Triton's `reps` dim excluded); a tt.reduce: its scratch (getScratchSizeInBytes), 0 within a warp */
    int64_t last_total_cycles;               /**< the op's last access (program order), warp 0: its total cycles */
    int64_t last_extra_cycles;               /**< and its extra cycles */
    layout_instr last;                       /**< a read by ld.shared / ds_read: its last instruction's lane addresses (sink.c costs it again with the copying lanes off) */
    /** NVIDIA: how many warps issue the op's last load when ptxas sinks it
     * past the `EXIT` of the threads that store nothing; 0 when it is not
     * sunk.  The kernel's last shared-memory op, at the function's top
     * level, a local_load or a convert's load by ld.shared, whose result
     * layout gives some warps only copies of other warps' elements (a zero
     * warp basis, no zero lane basis): Triton masks those warps' global
     * store, ptxas exits them before the load that fed only that store
     * (SASS of the generated corpus's and the Gluon fixtures' sm_90
     * kernels: always the one last LDS, run by these warps only).  Where
     * the layout's lane bases have zeros too, the lanes with those lane-id
     * bits set exit as well (a one-warp kernel included).  The per-warp
     * counts stay Triton's; cta_total_cycles / cta_extra_cycles count that
     * load on sunk_warps warps with sunk_lanes lanes each (costed with the
     * other lanes off: docs/lds-model.md §2.5, "Lanes off"). */
    int sunk_warps;
    int sunk_lanes;                          /**< lanes of each of those warps that run it (the warp's size when none exits); 0 when not sunk */
    /** NVIDIA: PTX loads per warp that ptxas joins into another load's
     * LDS (lib/triton_kernel/ptxas_join.c, from ptxas's own output on the
     * probes of tests/fixtures/triton/ptxas): loads of one base register,
     * contiguous, in one stretch without a store, as one LDS of the
     * aligned power of two that holds them, up to the base's known
     * alignment, 16 bytes (8 for 16-bit elements, whose values must stay
     * 16-bit or widen from fp16 / by sign; never 8-bit).  The per-warp
     * counts stay the PTX's; the SASS issues ptxas_joined_loads fewer
     * loads per warp, and cta_total_cycles / cta_extra_cycles cost the
     * joined LDS as it runs.  Example: a 1-D cumsum of 4 warps reads its
     * warp totals with ld.shared.v4.b32, .v2.b32, .b32 (global_smem + 0,
     * 16, 24): 2 LDS.128, so 1.  0 when none (and on AMD). */
    int ptxas_joined_loads;
    /** The same for stores (adjacent in program order only, never wider
     * than their bytes): PTX stores per warp joined into another's STS. */
    int ptxas_joined_stores;
    /** What ptxas's joins change in cta_total_cycles / cta_extra_cycles
     * (included there): the joined instructions' CTA costs out, the joined
     * LDS / STS's in; 0 when nothing joins. */
    int64_t ptxas_cta_total_delta;
    int64_t ptxas_cta_extra_delta;           /**< see ptxas_cta_total_delta */
    /** NVIDIA: the `@!PT LDS RZ, [RZ]` ptxas writes at this op, per warp
     * and execution (lib/triton_kernel/ptxas_dummy.c, from ptxas's own
     * output on the probes of tests/fixtures/triton/ptxas): 3 before a
     * cp.async (`ttg.async_copy_global_to_local`) when a shared load,
     * store or barrier ran since the previous cp.async or the kernel's
     * start; at a `ttng.fence_async_shared` after a cp.async, 4 when such
     * an access ran since the last cp.async, else 1 (counted at the
     * nearest op of the report in the fence's block).  Under a never-true
     * predicate they access nothing (no wavefront, no conflict), but every
     * warp issues them and Nsight Compute counts each as an executed
     * shared load.  Not in counts[].  Example: a 2-stage fp16 matmul's
     * first cp.async of the prologue and of the loop: 3 each.  0 when none
     * (and on AMD). */
    int ptxas_dummy_loads;
    /** A write (`local_store`, `local_alloc` with a value) of a modelled
     * op: 1 when Triton emits its stores in another order than register
     * order, 0 in register order.  lowerLdStShared (LayoutUtils.cpp's
     * actionAdditiveStrides) loops over the register bits whose shared
     * offset no lane or warp bit touches innermost, then the others: when
     * such a bit is not among the lowest register bits, the stores leave
     * register order (a swizzled layout groups them by XOR phase).  What it
     * does to the code is ptxas's: on an H200 the same 40 registers took
     * 17 global-load rounds instead of 8 (tests/fixtures/triton/suggest_proof/alt).
     * 0 for reads and ops that are not modelled. */
    int stores_out_of_register_order;
    /** Of cta_total_cycles / cta_extra_cycles, the shared-memory atomics'
     * (a tt.histogram's adds): Nsight Compute files them under
     * op_shared_atom, apart from the loads and stores; 0 when none. */
    int64_t cta_atomic_total_cycles;
    int64_t cta_atomic_extra_cycles;         /**< see cta_atomic_total_cycles */
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
    int64_t cta_extra_cycles;                /**< sum over modelled ops, all warps (layout_triton_kernel_op) */
    int64_t cta_total_cycles;                /**< sum over modelled ops, all warps */
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
 * written: the analysis's report field for field, on AMD with the pairing
 * across the ops of its block, which lowers the block's ops again and
 * takes about the analysis's stack; a candidate is costed alone).
 * Reentrant and heap-free (10 to 40 us per call on the corpus
 * kernels, gcc -O2): meant for a search scoring many candidate layouts.  A candidate that cannot be
 * read gives a report with modelled = 0 and the reason, not an error.
 * Errors: ::LAYOUT_ERR_NULL (k, out); ::LAYOUT_ERR_ARG (op out of range).
 */
layout_status layout_triton_kernel_op_cost(const layout_triton_kernel *k, int op, const char *shared_attr, size_t len,
                                           layout_triton_kernel_op *out, layout_error *err);

/**
 * How well the rule that costs op @p r is established: the least of the
 * arch's bank confidence and the confidence of each lane rule the op uses
 * (its direction at its access width; a convert's load side too), and
 * ::LAYOUT_CONFIDENCE_LOW for a transposing read (`ds_read_b64_tr_b16` /
 * `_b8`): no measurement or document gives its bank rule, so it is costed
 * as an ordinary read of its width.  Example: the B operand of the gfx950
 * fp16 matmul (4 `ds_read_b64_tr_b16` per warp) is low; its A operand (2
 * `ds_read_b128`) has gfx950's b128 read rule's confidence, high.  A
 * `tt.gather` through shared scratch is low too: its loads' addresses are
 * the index values, costed conflict-free (a lower bound).  On NVIDIA an
 * op whose result is an operand of a `tt.dot` with a `#ttg.blocked`
 * result (an FMA dot, no MMA) is at most medium, note "LLVM's SLP
 * vectorizer may regroup these loads": the report gives Triton's own
 * loads, which Triton's O3 build may regroup (not modelled).
 * @p note (may be NULL) gets a static sentence saying why when the answer
 * is lowered for the instruction, else "".  A report that is not modelled
 * is low with note "not modelled".  Thread safety: pure.
 */
layout_confidence layout_triton_kernel_op_confidence(const layout_triton_kernel *k, const layout_triton_kernel_op *r,
                                                     const char **note);

/**
 * The worst access of a modelled report explained as `layout check` does
 * (layout_check_report_text() of that one instruction): summary, then one
 * line per conflicted lane group.  snprintf semantics.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (not modelled, no access).
 */
layout_status layout_triton_kernel_op_explain(const layout_triton_kernel *k, const layout_triton_kernel_op *r,
                                              char *buf, size_t cap, layout_error *err);

/* ---- Per-allocation suggestion (lib/triton_kernel/suggest.c) ---- */

/** Most shared allocations one suggestion call reports. */
#define LAYOUT_TRITON_KERNEL_MAX_ALLOCS 16
/** Most reports (k->ops indices) one allocation's group keeps. */
#define LAYOUT_TRITON_KERNEL_ALLOC_MAX_OPS 32
/** Capacity of an attribute text in a suggestion (with its NUL). */
#define LAYOUT_TRITON_KERNEL_ATTR_CAP 256

/** How to search.  Zero-initialise (or pass NULL) for the defaults. */
typedef struct layout_triton_kernel_suggest_options {
    int same_bytes;       /**< 1: the budget is the allocation's own current bytes (no padding added); 0: the target's LDS less the other allocations */
    int max_pad_levels;   /**< padded_shared interval:+pad pairs, 1 or 2 (0 = 1: 2 levels cost ~40x more candidates) */
    unsigned families;    /**< LAYOUT_TRITON_SEARCH_* bits (triton_search.h); 0 = all the target's Triton accepts */
    int64_t lds_bytes;    /**< the target's shared memory per block; 0 = layout_triton_kernel_lds_bytes() */
    int exhaustive;       /**< 1: score each candidate by lowering every op again from the text (layout_triton_kernel_op_cost per op: the reference the default path is tested against, same result, about 5x slower); 0: each op's register side and each candidate's shared layout are read once */
} layout_triton_kernel_suggest_options;

/** One shared allocation: its accesses, its current layout and cost, the best one found. */
typedef struct layout_triton_kernel_alloc {
    int alloc_op;          /**< module op index (layout_ttgir::ops) of the defining `ttg.local_alloc`; -1 when grouped by type */
    int line;              /**< its TTGIR line */
    char loc[LAYOUT_TRITON_KERNEL_LOC_CAP]; /**< its source location, "" if none */
    int rank;              /**< 2, or 3 with a leading buffer dim */
    int64_t shape[3];      /**< the memdesc shape of the allocation, outermost first */
    int elem_bits;         /**< element bits */
    size_t enc_at;         /**< offset in the text of the encoding as written in the allocation's type (`#shared` or inline) */
    size_t enc_len;        /**< its length */
    int n_ops;             /**< reports (k->ops indices) of this allocation's writers and readers */
    int ops[LAYOUT_TRITON_KERNEL_ALLOC_MAX_OPS]; /**< those indices, text order */
    int n_ops_dropped;     /**< further accesses past ::LAYOUT_TRITON_KERNEL_ALLOC_MAX_OPS: not listed, not scored (the note says so) */
    int n_scored;          /**< of those, modelled (summed into the cost) */
    int wgmma_operand;     /**< 1: read by ttng.warp_group_dot (the tensor core's reads cost the same under every swizzle Triton lowers: the allocation is kept, rule "wgmma-reader") */
    char rule[32];         /**< the rule that kept the allocation unchanged ("wgmma-reader", "ds-read-tr-reader", "unmodelled-user", "inferred-view"; "" none): docs/triton.md's rules table */
    int64_t rejected;      /**< candidates the rules rejected (a reader lowered to ds_read_b64_tr, an attribute Triton's verifiers refuse, no modelled lowering) */
    int searched;          /**< 1: the search ran; 0: see note */
    char note[LAYOUT_TRITON_KERNEL_REASON_CAP]; /**< why not searched, or what is not scored ("" if nothing) */
    char current[LAYOUT_TRITON_KERNEL_ATTR_CAP]; /**< the current attribute, aliases resolved (truncated at the cap) */
    int64_t current_bytes; /**< its bytes, all buffers (padding included) */
    int64_t current_cost;  /**< cost unit (below) summed over the scored ops, current layout */
    int64_t current_extra; /**< AMD extra cycles / NVIDIA bank conflicts of those, current layout */
    char attr[LAYOUT_TRITON_KERNEL_ATTR_CAP]; /**< the suggested attribute to paste back (= current when nothing is better) */
    int improved;          /**< 1: attr costs less than current */
    int64_t cost;          /**< its cost, same unit */
    int64_t extra;         /**< its extra cycles / bank conflicts */
    int64_t bytes;         /**< its bytes, all buffers */
    int64_t budget_bytes;  /**< the byte budget searched within */
    int64_t scored;        /**< candidates scored by the search */
    /** Per op of ops[], under attr: -1 not a modelled write; 0 Triton emits
     * its stores in register order; 1 in another order
     * (layout_triton_kernel_op::stores_out_of_register_order). */
    signed char store_order[LAYOUT_TRITON_KERNEL_ALLOC_MAX_OPS];
    int store_order_changed; /**< writers whose store order under attr is not the current layout's (0: attr keeps it) */
    int order_kept;        /**< 1: the search's first candidate changed a writer's store order and a candidate of the
                                same cost, bytes and instructions that keeps it was taken instead */
} layout_triton_kernel_alloc;

/** Every allocation of one kernel. */
typedef struct layout_triton_kernel_suggestions {
    int n_allocs;          /**< entries used */
    int grouped_by_type;   /**< always 0 today (SSA tracking); see the function's comment */
    int64_t lds_bytes;     /**< the target's shared memory per block used for the budgets */
    int64_t total_bytes;   /**< the current allocations' bytes, summed (those listed) */
    int64_t lds_bound;     /**< an upper bound of Triton's shared memory for the module as written: every allocation and every scratch buffer as if all were live at once, each with its alignment slack (rule "lds-budget") */
    int64_t lds_bound_after; /**< the same bound with every improving suggestion applied: at most max(lds_bytes, lds_bound) */
    int n_dropped;         /**< allocations past ::LAYOUT_TRITON_KERNEL_MAX_ALLOCS: not listed, not searched; their accesses are in no group */
    layout_triton_kernel_alloc allocs[LAYOUT_TRITON_KERNEL_MAX_ALLOCS]; /**< text order of the allocations */
} layout_triton_kernel_suggestions;

/**
 * Shared memory one block may allocate on the arch of @p k: gfx942 64 KiB,
 * gfx950 160 KiB (ROCm docs, "Accelerator and GPU hardware specifications":
 * LDS 64 KiB per CU on MI300X, 160 KiB on MI355X; LLVM's AMDGPU tests,
 * "gfx950 supports upto 160 KB configurable LDS memory"; Triton's AMD
 * backend asks the target, TargetInfo::getSharedMemorySize in
 * third_party/amd/lib/TritonAMDGPUToLLVM/TargetInfo.cpp), sm_90 227 KiB =
 * 232448 bytes (CUDA C++
 * Programming Guide, "Technical Specifications per Compute Capability":
 * 228 KB per SM, of which 227 KB per block with the opt-in; Triton compares
 * against the driver's `max_shared_mem`, that same number), other sm_NN
 * 48 KiB, other AMD 64 KiB.  Example: a kernel analysed for gfx950 ->
 * 163840.  Returns 0 for a NULL @p k.  Thread safety: reads k only.
 */
int64_t layout_triton_kernel_lds_bytes(const layout_triton_kernel *k);

/**
 * For each shared allocation of an analysed kernel, the best shared layout
 * Triton accepts for it, costed over all of its writers and readers:
 *
 *     cost(attr) = sum over the allocation's modelled ops o of
 *                  layout_triton_kernel_op_cost(k, o, attr).total_cycles
 *
 * the unit being the op's cycles per warp as the checker counts them: on
 * AMD the LDS cycles of every DS instruction of one warp, conflict cycles
 * included (extra cycles alone would prefer halving the vector to remove
 * one conflict); on NVIDIA shared-memory wavefronts (accesses + bank
 * conflicts, what ncu counts).  `extra` / `current_extra` give the
 * conflict part alone.  The candidates are layout_triton_shared_search()'s
 * for the allocation's shape and element width on the target's vendor;
 * the budget is opts->lds_bytes (default layout_triton_kernel_lds_bytes())
 * less an upper bound of the module's shared memory (every allocation and
 * scratch buffer live at once, with alignment slack: lds_bound) plus the
 * allocation's own bytes, the growth of earlier suggestions counted, or
 * with same_bytes the allocation's own current bytes.  Only what Triton
 * 3.6 lowers for every user of the allocation is suggested (the rules
 * table, docs/triton.md): an allocation read by `ttng.warp_group_dot` or
 * by `ds_read_b64_tr_b*` (no published bank rule), used by an op the
 * analysis does not lower or viewed through `memdesc_trans` / `_reshape`
 * keeps its attribute (rule names the row, note says why); a candidate
 * Triton's verifiers refuse, or under which an op is unmodellable or a
 * reader would use `ds_read_b64_tr_b*`, is rejected.  When no candidate
 * beats the current layout, attr = current and improved = 0, so cost <=
 * current_cost always.  Among candidates of the best cost, bytes and
 * instructions per warp, one under which every writer emits its stores in
 * the same order as now
 * (register order or not: store_order, store_order_changed) is preferred
 * to one that changes it (order_kept says the tie-break chose): the cost
 * is the same, and a changed store order is what made a conflict-free
 * suggestion slower on an H200 (ptxas's batching of the global loads;
 * tests/fixtures/triton/suggest_proof/alt).
 *
 * Grouping (SSA): an allocation is a `ttg.local_alloc` result; it collects
 * every op whose memdesc operand is that value or a value derived from it
 * through `ttg.memdesc_index` / `_subview` / `_trans` / `_reshape`, the
 * `iter_args` of an `scf.for` (init, block argument, the matching
 * `scf.yield` operand and the loop's `%r#k` result).  An op whose memdesc
 * cannot be traced (a name the text reuses in sibling regions in a way
 * that joins different types) forms its own group keyed by that op.
 * Example (matmul_fp32_64x64x32_w4_s2_gfx950, tests/test_triton_apply.c):
 * @code
 *   layout_triton_kernel_suggest(&k, NULL, &s, &err);   // s.n_allocs 2, s.lds_bytes 163840
 *   // s.allocs[0]: A, 1x64x32 f32, 2 local_store + 2 local_load;
 *   //   current #ttg.swizzled_shared<{vec = 1, perPhase = 2, maxPhase = 8, order = [1, 0]}>
 *   //   160 cycles (64 extra);
 *   //   attr    #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 32, order = [1, 0]}>
 *   //   96 cycles, 0 extra, 8192 bytes
 *   // s.allocs[1] of the fp16 kernel: rule "ds-read-tr-reader", kept
 * @endcode
 * Storage: @p out is about 20 KiB (static, heap or stack); the call's own
 * frame about 58 KiB (gcc -O2, -fstack-usage: the scorer keeps the
 * register side of up to 8 ops of the allocation searched) plus the
 * lowering's (about 90 KiB with its LoadStoreVectorizer model) and the
 * search's.  No heap.
 * Cost: each candidate's total equals the sum of
 * layout_triton_kernel_op_cost() over the ops (what opts->exhaustive = 1
 * computes, op by op from the text), but each op's register side is read
 * once per allocation, each candidate's shared layout once for all of its
 * ops, unpadded accesses that are XOR translates of one another are costed
 * once (the checker's model gives them one cost), and a candidate stops
 * being costed once its partial sum exceeds the best so far (its verdict,
 * scored or rejected, is still found): about 10-20 ms for the attention
 * kernels of the corpus on one core, 4-5x less than the exhaustive path
 * (bench/RESULTS.md); tests/test_suggest_fast.c compares the two on every
 * candidate of every corpus and Gluon kernel.
 * Thread safety: reads k, writes out.  Errors: ::LAYOUT_ERR_NULL.  More
 * allocations than ::LAYOUT_TRITON_KERNEL_MAX_ALLOCS, or accesses than
 * ::LAYOUT_TRITON_KERNEL_ALLOC_MAX_OPS for one, are no error: they are
 * counted in n_dropped / n_ops_dropped (and the JSON's
 * `suggestions_dropped`, the allocation's note).
 * An allocation that cannot be searched is no error: searched = 0 and note.
 */
layout_status layout_triton_kernel_suggest(const layout_triton_kernel *k, const layout_triton_kernel_suggest_options *opts,
                                           layout_triton_kernel_suggestions *out, layout_error *err);

/** Most entries of a ranked list (layout_triton_kernel_suggest_ranked(); triton_search.h's LAYOUT_TRITON_SEARCH_MAX_TOP). */
#define LAYOUT_TRITON_KERNEL_RANKED_MAX 16
/** Entries of a ranked list when top_k is 0. */
#define LAYOUT_TRITON_KERNEL_RANKED_DEFAULT 8

/** One entry of a ranked list: a candidate attribute and its cost per side. */
typedef struct layout_triton_kernel_ranked_entry {
    char attr[LAYOUT_TRITON_KERNEL_ATTR_CAP]; /**< the attribute, as Triton prints it */
    int64_t cost;          /**< both sides: write_cost + read_cost (the search's unit, layout_triton_kernel_suggest()) */
    int64_t extra;         /**< both sides: write_extra + read_extra */
    int64_t write_cost;    /**< the allocation's modelled writers (registers -> shared), summed */
    int64_t write_extra;   /**< their AMD extra cycles / NVIDIA bank conflicts */
    int64_t read_cost;     /**< the allocation's modelled readers (shared -> registers), summed */
    int64_t read_extra;    /**< their AMD extra cycles / NVIDIA bank conflicts */
    int64_t bytes;         /**< bytes of the allocation under it, all buffers (padding included) */
    unsigned family;       /**< its LAYOUT_TRITON_SEARCH_* bit (triton_search.h) */
} layout_triton_kernel_ranked_entry;

/** The best candidates of one allocation, best first. */
typedef struct layout_triton_kernel_ranked {
    int alloc;             /**< the allocation (index into layout_triton_kernel_suggestions::allocs) */
    int n;                 /**< entries in top[] */
    layout_triton_kernel_ranked_entry top[LAYOUT_TRITON_KERNEL_RANKED_MAX]; /**< best first */
    int64_t budget_bytes;  /**< the byte budget searched within (the allocation's) */
    int64_t scored;        /**< candidates scored */
    int64_t rejected;      /**< candidates the rules rejected */
} layout_triton_kernel_ranked;

/**
 * The @p top_k best shared layouts of allocation @p alloc of @p s (the
 * result of layout_triton_kernel_suggest() on @p k with the same @p opts),
 * ranked as the search ranks them, with the cost of each side:
 *
 *     top[0..n) = the first top_k of every candidate c Triton lowers for all of the
 *                 allocation's ops, within budget_bytes, sorted ascending by
 *                 (cost(c), bytes(c), family, complexity, order, enumeration index)
 *     cost(c)   = write_cost(c) + read_cost(c),  write_cost = sum over the modelled writers w
 *                 of layout_triton_kernel_op_cost(k, w, c).total_cycles (readers alike)
 *
 * (triton_search.h gives the tie-break; the candidates and rules are those
 * of layout_triton_kernel_suggest(), so top[0] is its search's best: the
 * allocation's attr when improved, unless order_kept: then the
 * attr is a later entry of the same cost, bytes and instructions).  The current layout is one candidate
 * when the search enumerates it (the identity swizzled_shared is).
 * Example (tests/test_triton_ranked.c): a 64 x 32 fp16 tile on gfx942
 * written from `#ttg.blocked<{sizePerThread = [1, 8], ...}>` and read into
 * an MFMA operand, swizzled_shared only, top_k 8: eight candidates of 4096
 * bytes, costs ascending, equal to scoring every candidate by brute force.
 * @p top_k 0 = ::LAYOUT_TRITON_KERNEL_RANKED_DEFAULT.  Storage: @p out
 * about 5 KiB; the call's frame about 53 KiB (the scorer of
 * layout_triton_kernel_suggest(), without its cut: every entry costed
 * whole; opts->exhaustive as there) plus the lowering's and the
 * search's.  No heap.  Cost: one more search of the allocation.  Thread
 * safety: reads k and s, writes out.  Errors: ::LAYOUT_ERR_NULL;
 * ::LAYOUT_ERR_ARG (alloc outside s, top_k outside
 * 0..::LAYOUT_TRITON_KERNEL_RANKED_MAX, an allocation that was not
 * searched: its note); the search's (::LAYOUT_ERR_NOT_FOUND: no candidate).
 */
layout_status layout_triton_kernel_suggest_ranked(const layout_triton_kernel *k,
                                                  const layout_triton_kernel_suggest_options *opts,
                                                  const layout_triton_kernel_suggestions *s, int alloc, int top_k,
                                                  layout_triton_kernel_ranked *out, layout_error *err);

/** The source forms of a suggested attribute (layout_triton_kernel_attr_form()). */
typedef enum layout_triton_form {
    LAYOUT_TRITON_FORM_GLUON = 0, /**< Gluon: `gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])` (layout_triton_to_gluon()) */
    LAYOUT_TRITON_FORM_CUTE = 1,  /**< CuTe's printed layout of the tile, `Sw<3,3,3> o _0 o (_64,_32):(_32,_1)` (layout_desc_to_cute()) */
    LAYOUT_TRITON_FORM_CK_TILE = 2 /**< the ck_tile C++ snippet of the tile (layout_desc_to_ck_cpp()) */
} layout_triton_form;

/**
 * Attribute text @p attr of an allocation of @p rank dims @p shape (the
 * tile is the last two) in another source form.  Not every attribute has
 * every form (CuTe has no padding: padded_shared has none; a form whose
 * printer refuses the layout is an error, not a guess).  Example:
 * `#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 32, order = [1, 0]}>`
 * -> `gl.SwizzledSharedLayout(vec=2, per_phase=1, max_phase=32, order=[1, 0])`.
 * snprintf semantics into @p buf (truncation is ::LAYOUT_ERR_BUFFER here).
 * Thread safety: pure.  Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (rank);
 * the parser's and the printers' errors (::LAYOUT_ERR_UNSUPPORTED).
 */
layout_status layout_triton_kernel_attr_form(const char *attr, int rank, const int64_t *shape, layout_triton_form form,
                                             char *buf, size_t cap, layout_error *err);

/* ---- Apply (lib/triton_kernel/apply.c) ---- */

/** What layout_triton_kernel_apply() did with each allocation. */
typedef struct layout_triton_kernel_apply_result {
    int n_applied;     /**< allocations whose attribute was written */
    int n_skipped;     /**< improving suggestions not written (note says why) */
    int how[LAYOUT_TRITON_KERNEL_MAX_ALLOCS];   /**< 0 nothing to apply, 1 its alias redefined, 2 a fresh alias, -1 skipped */
    char alias[LAYOUT_TRITON_KERNEL_MAX_ALLOCS][32]; /**< the alias written (`#shared2`, `#shared_ll0`), "" if none */
    char note[LAYOUT_TRITON_KERNEL_MAX_ALLOCS][LAYOUT_TRITON_KERNEL_REASON_CAP]; /**< why skipped ("" otherwise) */
} layout_triton_kernel_apply_result;

/**
 * The module text of @p k with every improving suggestion of @p s written
 * in, as `layout triton --apply` writes it:
 *
 *     alias A used only by allocations given attribute X  ->  `A = X` (the alias line replaced)
 *     otherwise                                           ->  `#shared_llN = X` added after the
 *                                                             last alias, and N written into each
 *                                                             memdesc type of the allocation
 *
 * An allocation's memdesc types are the type texts its ops print (its
 * `ttg.local_alloc`, views that keep the encoding, accesses, dot operands,
 * dealloc); a type is the same text wherever the value goes, so scf.for
 * iter_args, results, yields and block arguments follow.  A suggestion is
 * skipped (how -1, note) when another allocation given another attribute
 * prints the very same memdesc type, or when its attribute breaks a rule of
 * docs/triton.md's table.  Reading the result back gives each written
 * allocation the cost its suggestion said (tests/test_triton_apply.c).
 * Example: matmul_fp32_64x64x32_w4_s2_gfx950's A: `#shared = #ttg.swizzled_shared<{vec = 1,
 * perPhase = 1, maxPhase = 32, order = [1, 0]}>`.
 * snprintf-like: *@p written (may be NULL) gets the length needed.
 * Storage: no heap; the call's frame is about 40 KiB.  Thread safety: reads
 * k and s, writes buf and res.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_BUFFER (cap too small: buf holds a
 * truncated, NUL-terminated prefix).
 */
layout_status layout_triton_kernel_apply(const layout_triton_kernel *k, const layout_triton_kernel_suggestions *s,
                                         char *buf, size_t cap, size_t *written, layout_triton_kernel_apply_result *res,
                                         layout_error *err);

/**
 * Analyze @p m into *work on preset @p arch_name_or_NULL (NULL: its
 * `ttg.target`), suggest (default options) and apply
 * (layout_triton_kernel_apply()) into buf: for callers without C structs
 * (Python's `liblayout.triton.apply`).  Example: on
 * matmul_fp32_64x64x32_w4_s2_gfx950 the text with `#shared = #ttg.swizzled_shared<{vec = 1,
 * perPhase = 1, maxPhase = 32, order = [1, 0]}>`.  Frame about 60 KiB
 * plus suggest's.  Thread safety: reads m, writes *work and buf.
 * Errors: those of analyze, suggest and apply; ::LAYOUT_ERR_ARG (no preset).
 */
layout_status layout_triton_kernel_apply_text(const layout_ttgir *m, const char *arch_name_or_NULL,
                                              layout_triton_kernel *work, char *buf, size_t cap, size_t *written,
                                              layout_error *err);

/* ---- JSON (lib/triton_kernel/json.c) ---- */

/**
 * Render an analysed kernel (and its suggestions, NULL = none: the key is
 * then omitted) as one JSON object, NUL-terminated, no newline:
 * `{"target", "arch", "num_warps", "ops": [...], "per_warp_total": {...},
 * "not_modelled": [...], "totals": {...}, "suggestions": [...]}`
 * (docs/triton.md lists every key).  Example: an AMD op renders as
 * `{"op":"ttg.local_load","line":67,"loc":"\"kernel.py\":49:30","modelled":1,
 * "register_layout":"#ttg.dot_op<...>","shared_layout":"#ttg.swizzled_shared<...>",
 * "direction":"read","vector":{"elements":4,"bits":64,"elem_bits":16},"accesses":4,
 * "instructions":{"ds_read_b64":4},"cost":{"extra_cycles":0,"total_cycles":16,...},
 * "worst":{...}}`.  Thread safety: reads k and sugg, writes buf.
 * Stack: about 4 KiB plus layout_triton_kernel_op_explain()'s.
 * snprintf-like: *written (may be NULL)
 * gets the length the whole object needs.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_BUFFER (cap too small: buf holds
 * a truncated, NUL-terminated prefix).
 */
layout_status layout_triton_kernel_json(const layout_triton_kernel *k, const layout_triton_kernel_suggestions *sugg,
                                        char *buf, size_t cap, size_t *written, layout_error *err);

/**
 * Analyze @p m into *work on the preset @p arch_name (NULL: the module's
 * `ttg.target`), suggest a layout for every allocation (default options),
 * and render the JSON of layout_triton_kernel_json() into buf.  Meant for
 * callers without C structs (the Python module through ctypes allocates
 * *work by layout_abi_sizeof("layout_triton_kernel")).  The suggestions
 * live on this call's stack: its frame is about 25 KiB, plus suggest's.
 * Example: `layout_triton_kernel_report_json(&m, NULL, k, buf, 1 << 20, &err)`
 * on matmul_fp16_64x64x32_w4_s2_gfx950 gives `{"target":"hip:gfx950",
 * "arch":"gfx950",...,"suggestions":[{"alloc":0,...}]}`.
 * Thread safety: reads m, writes *work and buf.
 * Errors: those of layout_triton_kernel_analyze() and _suggest();
 * ::LAYOUT_ERR_ARG (no preset @p arch_name); ::LAYOUT_ERR_BUFFER (cap too small).
 */
layout_status layout_triton_kernel_report_json(const layout_ttgir *m, const char *arch_name_or_NULL,
                                               layout_triton_kernel *work, char *buf, size_t cap, layout_error *err);

/**
 * Analyze @p m into *work on preset @p arch_name_or_NULL (NULL: its
 * `ttg.target`), suggest (default options but @p families:
 * LAYOUT_TRITON_SEARCH_* bits of triton_search.h, 0 = every family the
 * target accepts), rank allocation @p alloc
 * (-1: the first one searched) with layout_triton_kernel_suggest_ranked()
 * and render it as one JSON object: for callers without C structs
 * (Python's `liblayout.gluon.suggest`, which leaves out
 * `amd_rotating_shared`: Gluon 3.6 has no class for it).
 * `{"target", "arch", "alloc", "shape", "elem_bits", "current",
 * "current_cost", "current_bytes", "budget_bytes", "scored", "rejected",
 * "ranked": [{"attr", "gluon", "cost", "extra", "bytes", "write": {"cost",
 * "extra"}, "read": {"cost", "extra"}, "ops": [...]}]}`, each entry's "ops"
 * the allocation's modelled ops lowered under its attribute, rendered as
 * the report's ops are (layout_triton_kernel_json(); "shared_layout" is the
 * entry's attribute).  Example: the module of a 128 x 32 fp16 tile on
 * gfx942 written from a blocked layout and read as an MFMA operand, top_k
 * 8 -> `{"target":"hip:gfx942",...,"ranked":[{"attr":"#ttg.swizzled_shared<...>",
 * "cost":..,...}, ...]}` (8 entries, costs ascending).  Frame about 30 KiB
 * plus suggest's.  Thread safety: reads m, writes *work and buf.
 * Errors: those of analyze, suggest and _suggest_ranked; ::LAYOUT_ERR_ARG (no
 * preset, no allocation searched for alloc -1); ::LAYOUT_ERR_BUFFER (cap
 * too small: a truncated, NUL-terminated prefix).
 */
layout_status layout_triton_kernel_ranked_json(const layout_ttgir *m, const char *arch_name_or_NULL, int alloc,
                                               int top_k, unsigned families, layout_triton_kernel *work, char *buf,
                                               size_t cap, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_TRITON_KERNEL_H */
