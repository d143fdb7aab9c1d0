/**
 * @file ttgir.h
 * @brief Reading a Triton kernel as Triton prints it (TTGIR): the module's
 *        target, the layout aliases, and every op that touches shared memory.
 *
 * TTGIR is the text of Triton's TritonGPU dialect that `kernel.asm["ttgir"]`
 * (or `MLIR_ENABLE_DUMP=1`) prints: a few `#name = #ttg.<layout><...>`
 * aliases, a `module attributes {...}` line with `ttg.target`,
 * `ttg.num-warps`, `ttg.threads-per-warp` and `ttg.num-ctas`, one op per
 * line, and `#locN = loc(...)` source locations at the end.
 *
 * layout_ttgir_parse() reads it once, with no heap, into a ::layout_ttgir
 * that refers into the caller's text: the module attributes, each alias, and
 * each op that reads or writes shared memory (::layout_ttgir_op_kind) with
 * its source and result types (shape, element type and bits, the layout as
 * an alias or an inline attribute, the memory space) and its source line.
 * Example (a 64 x 32 fp16 tile stored to and read from LDS on gfx942):
 * @code
 *   static layout_ttgir m;              // about 780 KiB: static or heap, the caller's choice
 *   layout_error err;
 *   if (layout_ttgir_parse(text, strlen(text), &m, &err) != LAYOUT_OK)
 *       fprintf(stderr, "%s\n", err.message);      // "layout_ttgir_parse: line 12, column 40: ..."
 *   // m.target "hip:gfx942", m.num_warps 4, m.threads_per_warp 64
 *   // m.ops[0].kind LAYOUT_TTGIR_LOCAL_ALLOC, m.ops[0].src[0]: tensor<64x32xf16, #blocked>,
 *   //   m.ops[0].dst[0]: !ttg.memdesc<64x32xf16, #shared, #smem>
 *   const char *attr; size_t n;
 *   layout_ttgir_encoding(&m, &m.ops[0].dst[0], &attr, &n);   // "#ttg.swizzled_shared<{vec = 4, ...}>"
 *   char loc[128];
 *   layout_ttgir_op_loc(&m, 0, loc, sizeof loc);              // "kernel.py":38:20
 * @endcode
 *
 * Errors: malformed text is ::LAYOUT_ERR_PARSE with the line and column in
 * the message ("line 12, column 40: expected '>' closing tensor<...>"); more
 * aliases, ops or locations than the capacities below is
 * ::LAYOUT_ERR_CAPACITY.  Thread safety: the calls only read their inputs;
 * a parsed module may be shared by threads.  Ownership: the module keeps a
 * pointer to the caller's text, which must outlive it.
 */
#ifndef LAYOUT_TTGIR_H
#define LAYOUT_TTGIR_H

#include <stddef.h>
#include <stdint.h>

#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most `#name = ...` layout aliases of one module. */
#define LAYOUT_TTGIR_MAX_ALIASES 64
/** Most shared-memory ops of one module. */
#define LAYOUT_TTGIR_MAX_OPS 1024
/** Most `#locN = loc(...)` lines of one module. */
#define LAYOUT_TTGIR_MAX_LOCS 8192
/** Most dims of a tensor or memdesc type. */
#define LAYOUT_TTGIR_MAX_RANK 6
/** Most source or result types kept per op. */
#define LAYOUT_TTGIR_MAX_TYPES 3

/** The ops that read or write shared memory, as TTGIR names them. */
typedef enum layout_ttgir_op_kind {
    LAYOUT_TTGIR_LOCAL_ALLOC = 0,    /**< `ttg.local_alloc`: with a source, a store into the new buffer */
    LAYOUT_TTGIR_LOCAL_STORE,        /**< `ttg.local_store`: registers -> shared */
    LAYOUT_TTGIR_LOCAL_LOAD,         /**< `ttg.local_load`: shared -> registers */
    LAYOUT_TTGIR_LOCAL_DEALLOC,      /**< `ttg.local_dealloc` (no access) */
    LAYOUT_TTGIR_ASYNC_COPY,         /**< `ttg.async_copy_global_to_local`: global -> shared */
    LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL, /**< `amdg.buffer_load_to_local`: global -> LDS (AMD) */
    LAYOUT_TTGIR_MEMDESC_VIEW,       /**< `ttg.memdesc_index`, `_subview`, `_trans`, `_reshape`: a view (no access) */
    LAYOUT_TTGIR_CONVERT_LAYOUT,     /**< `ttg.convert_layout`: registers -> registers, maybe through shared scratch */
    LAYOUT_TTGIR_WARP_GROUP_DOT,     /**< `ttng.warp_group_dot`: wgmma reading shared operands (sm_90) */
    LAYOUT_TTGIR_REDUCE,             /**< `tt.reduce`: may exchange partial results through shared scratch */
    LAYOUT_TTGIR_SCAN,               /**< `tt.scan`: across warps, exchanges partial results through shared scratch */
    LAYOUT_TTGIR_HISTOGRAM,          /**< `tt.histogram`: counts in shared scratch when several warps share a bin */
    LAYOUT_TTGIR_GATHER,             /**< `tt.gather`: unless warp-local, the source goes through shared scratch */
    LAYOUT_TTGIR_WARP_SPECIALIZE,    /**< `ttg.warp_specialize`: captures passed to the partitions through shared memory */
    LAYOUT_TTGIR_OTHER_SHARED,       /**< any other op that may touch shared memory: one carrying `allocation.offset`,
                                          a `ttg.` / `ttng.` / `amdg.` / `nvws.` op on a memdesc, a scalar
                                          `tt.atomic_rmw` / `tt.atomic_cas`; its name is layout_ttgir_op::name_at */
    LAYOUT_TTGIR_OP_KIND_COUNT
} layout_ttgir_op_kind;

/** A tensor or memdesc type: `tensor<64x32xf16, #blocked>`,
 *  `!ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>`. */
typedef struct layout_ttgir_type {
    int is_memdesc;                       /**< 1: a shared-memory descriptor; 0: a register tensor */
    int rank;                             /**< dims of `shape` */
    int64_t shape[LAYOUT_TTGIR_MAX_RANK]; /**< the shape, outermost first (a memdesc's leading buffer dim included) */
    char elem[24];                        /**< element type as printed: f16, bf16, f32, f8E4M3FN, i8, !tt.ptr<f16> ... */
    int elem_bits;                        /**< bits of the element (pointers: 64); 0 when unknown */
    size_t enc_at;                        /**< offset of the encoding (`#blocked` or an inline `#ttg...<...>`) in the text */
    size_t enc_len;                       /**< its length; 0: the type has none */
    int mutable_;                         /**< memdesc: `mutable` given */
} layout_ttgir_type;

/** One shared-memory op. */
typedef struct layout_ttgir_op {
    layout_ttgir_op_kind kind;            /**< which op */
    int line;                             /**< 1-based line of the op name in the text */
    int column;                           /**< 1-based column of the op name */
    size_t result_at;                     /**< offset of its first result (`%acc_40`) */
    size_t result_len;                    /**< its length; 0: no result */
    size_t operand_at;                    /**< offset of its first operand (`%acc_38`) */
    size_t operand_len;                   /**< its length; 0: no operand */
    size_t loc_at;                        /**< offset of the contents of its `loc(...)` (`#loc59`) */
    size_t loc_len;                       /**< their length; 0: no location */
    int n_src;                            /**< operand types kept */
    int n_dst;                            /**< result types kept */
    layout_ttgir_type src[LAYOUT_TTGIR_MAX_TYPES]; /**< operand types, in order */
    layout_ttgir_type dst[LAYOUT_TTGIR_MAX_TYPES]; /**< result types, in order */
    size_t name_at;                       /**< offset of the op's name as the text spells it (`ttg.local_load`, `ttng.tc_gen5_mma`) */
    size_t name_len;                      /**< its length */
} layout_ttgir_op;

/** A layout alias: `#name = <text>`. */
typedef struct layout_ttgir_alias {
    size_t name_at;                       /**< offset of the name, `#shared` (with the '#') */
    size_t name_len;                      /**< its length */
    size_t text_at;                       /**< offset of the attribute, `#ttg.swizzled_shared<{...}>` */
    size_t text_len;                      /**< its length */
} layout_ttgir_alias;

/** A parsed module; refers into the caller's text. */
typedef struct layout_ttgir {
    const char *text;                     /**< the text given to layout_ttgir_parse() */
    size_t len;                           /**< its length */
    char target[32];                      /**< `ttg.target`: "hip:gfx942", "cuda:90"; "" if absent */
    int num_warps;                        /**< `ttg.num-warps`; 0 if absent */
    int threads_per_warp;                 /**< `ttg.threads-per-warp`; 0 if absent */
    int num_ctas;                         /**< `ttg.num-ctas`; 0 if absent */
    int n_lines;                          /**< lines of the text */
    int n_aliases;                        /**< layout aliases */
    layout_ttgir_alias aliases[LAYOUT_TTGIR_MAX_ALIASES]; /**< the aliases, in text order */
    int n_ops;                            /**< shared-memory ops */
    layout_ttgir_op ops[LAYOUT_TTGIR_MAX_OPS]; /**< the shared-memory ops, in text order */
    int n_locs;                           /**< `#locN = loc(...)` definitions */
    uint32_t loc_name_at[LAYOUT_TTGIR_MAX_LOCS]; /**< offset of each `#locN` definition */
    int module_line;                      /**< line of the `module attributes {...}` header; 0: none (a fragment) */
    int module_column;                    /**< its column (1-based); 0: none */
} layout_ttgir;

/**
 * Read TTGIR text (len bytes; need not be NUL-terminated) into *out.
 * Lines that are no alias, module header, shared-memory op or location are
 * skipped; a shared-memory op's types must parse.  The whole text must be
 * well formed as far as a cut would show: not empty, every string closed on
 * its line, every `<` closed on its line, every `(`, `[` and `{` closed, and
 * every `#name` a `loc(...)` refers to defined; a text of Triton before 3.2
 * (the `triton_gpu` dialect) is refused by name.  A fragment without a
 * module header parses (module_line = 0); layout_triton_kernel_analyze()
 * needs the header.  On error *out is unspecified (it may be partly
 * written).  Errors seen on a cut text, for example:
 * "line 40, column 1: the text ends inside '{' opened at line 12, column 88
 * (is it cut short?)".
 * @return ::LAYOUT_OK, ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_PARSE (line and
 *         column in the message), ::LAYOUT_ERR_CAPACITY.
 */
layout_status layout_ttgir_parse(const char *text, size_t len, layout_ttgir *out, layout_error *err);

/** The TTGIR spelling of an op kind ("ttg.local_alloc", ...); "?" outside the enum. */
const char *layout_ttgir_op_name(layout_ttgir_op_kind kind);

/**
 * The layout attribute of a type: its inline `#ttg...<...>` or the text of
 * the alias it names, resolved through aliases of aliases.
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NOT_FOUND when the type has no encoding
 *         or names an alias the module lacks.
 */
layout_status layout_ttgir_encoding(const layout_ttgir *m, const layout_ttgir_type *t, const char **attr,
                                    size_t *attr_len);

/**
 * The source location of op `op` as `"file":line:col`, following
 * `#locN` references and taking the first file position of a `callsite`,
 * `fused` or named location; "" when the op has none.
 * @return ::LAYOUT_OK, ::LAYOUT_ERR_ARG (op out of range),
 *         ::LAYOUT_ERR_BUFFER (cap too small; buf holds a truncated copy).
 */
layout_status layout_ttgir_op_loc(const layout_ttgir *m, int op, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_TTGIR_H */
