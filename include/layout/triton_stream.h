/**
 * @file triton_stream.h
 * @brief A Triton kernel's shared-memory instructions, one warp's stream in
 *        program order, after the compilers' passes.
 *
 * layout_triton_kernel_analyze() (triton_kernel.h) gives each op's
 * instruction counts and costs.  The stream gives the instructions
 * themselves, as the model builds them in three stages:
 *
 *     Triton's lowering   each access of one warp in program order, its
 *                         address  regBase(lane, warp) [^ key] + constant,
 *                         its bytes per lane, the lanes of every warp that
 *                         run it (a reduction's `laneId == 0` stores: lane
 *                         0 of every warp; its `tid < numWarps` loads: the
 *                         first lanes of warp 0)
 *     LoadStoreVectorizer runs of accesses a constant apart merged into one
 *                         wider access (`accesses` > 1)
 *     SILoadStoreOptimizer (AMD) two b32 / b64 accesses on one base register
 *                         paired into `ds_read2` / `ds_write2` (st64 too):
 *                         both halves listed, `partner` naming the other,
 *                         `standing` the one counted (within an op: a
 *                         load's first, a store's last, where the ISA keeps
 *                         it); across the ops of one basic block too
 *                         (`partner_op`: the other op; the pair counted at
 *                         the earlier, whose debug location LLVM keeps)
 *     ptxas (NVIDIA)      the kernel's last load sunk past the EXIT of the
 *                         threads that store nothing: `lanes` of the warps
 *                         and lanes that still run it, its cost as run;
 *                         accesses of one base register joined into one
 *                         wider LDS / STS (`ptxas_lead`, `ptxas_bytes`:
 *                         the entries keep the PTX's names and costs)
 *
 * One instruction of the ISA is an entry with `standing` = 1; summing them
 * by mnemonic gives the op's counts, their costs its costs (warp 0); a
 * `ttng.warp_group_dot`'s stream is empty (the tensor core reads its
 * operands, no LSU instruction; the report costs those reads).  Two
 * entries with equal `base_reg` of one op address from one base register,
 * `offset` bytes apart from it; `buffer` names the SSA value of the buffer
 * the op addresses (the `ttg.local_alloc` result its memdesc comes from),
 * so instructions of two ops on one buffer can be compared.
 *
 * Example (tests/fixtures/triton/kernels/matmul_fp16_64x64x32_w4_s2_gfx942.ttgir):
 * @code
 *   static layout_ttgir m;  static layout_triton_kernel k;
 *   static layout_triton_inst inst[4096];
 *   int n;
 *   layout_ttgir_parse(text, len, &m, &err);
 *   layout_triton_kernel_analyze(&m, NULL, &k, &err);
 *   layout_triton_kernel_op_stream(&k, 0, inst, 4096, &n, &err);
 *   // inst[0]: ds_write_b16, 2 bytes per lane, offset 0, all 64 lanes of the 4 warps
 * @endcode
 *
 * Storage: no heap; the caller owns `out` (a ::layout_triton_inst is about
 * 400 bytes).  Stack: up to about 400 KiB (tests/test_stack_bounds.c
 * measures 381 KiB: the op lowered again, then the pairing across the ops
 * of its block).
 * Thread safety: reads k, writes out; any number of threads may ask for
 * streams of one analysed kernel.  Errors: ::LAYOUT_ERR_NULL,
 * ::LAYOUT_ERR_ARG (op out of range), ::LAYOUT_ERR_UNSUPPORTED (an op not
 * modelled, or one whose lowering is not listed instruction by
 * instruction -- a gather's or a tensor atomic's scratch: the message
 * says which; its counts are in the report).
 */
#ifndef LAYOUT_TRITON_STREAM_H
#define LAYOUT_TRITON_STREAM_H

#include "layout/arch.h"
#include "layout/triton_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Warps a stream entry lists lanes for: Triton's largest CTA (1024
 * threads of 32 lanes). */
#define LAYOUT_TRITON_STREAM_MAX_WARPS 32

/** Passes that changed an entry (::layout_triton_inst::passes). */
enum {
    LAYOUT_TRITON_PASS_LSV = 1,           /**< LLVM's LoadStoreVectorizer merged accesses into it */
    LAYOUT_TRITON_PASS_SILSOPT = 2,       /**< AMDGPU's SILoadStoreOptimizer paired it within its op */
    LAYOUT_TRITON_PASS_SILSOPT_XOP = 4,   /**< ... with an instruction of another op of its block */
    LAYOUT_TRITON_PASS_PTXAS_SINK = 8,    /**< ptxas sank it past the EXIT of threads that store nothing */
    LAYOUT_TRITON_PASS_PTXAS_JOIN = 16    /**< ptxas joined it with others of its base register into one wider LDS / STS */
};

/** One shared-memory instruction of one warp.  Example: the second of
 * two b32 stores paired into `ds_write2_b32 offset0:0 offset1:16`: bytes
 * 4, offset 64, partner the first's index, standing 1, pair_form 1. */
typedef struct layout_triton_inst {
    int op;                          /**< the report it belongs to: k->ops[op] */
    int block;                       /**< its op's IR block (layout_ttgir_ir_op::parent_block) */
    int seq;                         /**< its place in its op's program order: 0, 1, .. */
    layout_direction direction;      /**< write (a store) or read */
    int bytes;                       /**< bytes each lane moves (one half of a pair) */
    char mnemonic[LAYOUT_TRITON_KERNEL_MNEMONIC_CAP]; /**< what the ISA prints (a pair's name on both halves) */
    int buffer;                      /**< IR value id of the buffer's `ttg.local_alloc` result; -1: a scratch of Triton's or not known */
    int64_t buffer_offset;           /**< the byte offset of the op's view of that buffer in the kernel's shared memory
                                          (Triton's allocation, a constant slot of a multi-buffered one; a slot of a
                                          variable index: the allocation's offset, index x slot bytes being in the
                                          base register, one register for the views of one index and slot size);
                                          -1: not known */
    int64_t offset;                  /**< constant bytes added to the base register within the op's view (lane 0 of
                                          warp 0 is at base + offset); across ops, add buffer_offset */
    uint64_t base_reg;               /**< the base register: equal within one op = one register */
    int accesses;                    /**< Triton's accesses the LoadStoreVectorizer merged into it (1: none) */
    int partner_op;                  /**< the report of its SILoadStoreOptimizer partner: op itself, another op of its block (a pair across ops), -1 none */
    int partner;                     /**< the partner's index in that op's stream, -1 none */
    int pair_form;                   /**< 0 none, 1 read2 / write2, 2 their st64 form */
    int standing;                    /**< 1: the instruction the ISA keeps (of a pair: a load's first, a store's last) */
    unsigned passes;                 /**< LAYOUT_TRITON_PASS_* bits */
    int n_warps;                     /**< warps of the CTA (entries of lanes) */
    uint64_t lanes[LAYOUT_TRITON_STREAM_MAX_WARPS]; /**< lanes of warp w that run it (bit l: lane l); an ldmatrix /
                                          stmatrix: those that give a row address */
    int64_t extra_cycles;            /**< warp 0's conflict cost of it (AMD extra cycles, NVIDIA bank conflicts) */
    int64_t total_cycles;            /**< warp 0's total (NVIDIA: wavefronts) */
    int ptxas_lead;                  /**< NVIDIA, LAYOUT_TRITON_PASS_PTXAS_JOIN: the index (in this op's stream) of the
                                          entry whose SASS instruction holds it (itself when it leads); -1 not joined */
    int ptxas_bytes;                 /**< on a lead: bytes per lane of the joined LDS / STS (ptxas_join.c); 0 otherwise */
    layout_confidence confidence;    /**< how far its name, address and cost are known: its op's
                                          (layout_triton_kernel_op_confidence(), whose note says why when lower) */
} layout_triton_inst;

/**
 * The instruction stream of report `op` of k (k->ops[op]), in program
 * order, after the passes (file comment): *n_out entries, the first
 * min(*n_out, cap) written to out (the passes past the op are applied
 * only when all of them fit).  An instruction paired with another op's
 * (AMD, one basic block) names it by partner_op and partner.  Example: a
 * `local_store` of 64 x 32 fp16 with 4 warps on gfx942 under
 * `#ttg.swizzled_shared<{vec = 8, ..}>` lists 1 entry: ds_write_b128, 16
 * bytes, accesses 1.  Returns LAYOUT_OK, or the error contract above.
 */
layout_status layout_triton_kernel_op_stream(const layout_triton_kernel *k, int op, layout_triton_inst *out, int cap,
                                             int *n_out, layout_error *err);

/** The name of one LAYOUT_TRITON_PASS_* bit ("lsv", "si-load-store-opt",
 * "si-load-store-opt across ops", "ptxas sink"); "" for other values. */
const char *layout_triton_pass_name(unsigned pass);

#ifdef __cplusplus
}
#endif

#endif
