/**
 * @file ttgir.h
 * @brief Reading a Triton kernel as Triton prints it (TTGIR): the module's
 *        target, the layout aliases, every op as an IR, and the ops that
 *        touch shared memory.
 *
 * TTGIR is the text of Triton's TritonGPU dialect that `kernel.asm["ttgir"]`
 * (or `MLIR_ENABLE_DUMP=1`) prints: a few `#name = #ttg.<layout><...>`
 * aliases, a `module attributes {...}` line with `ttg.target`,
 * `ttg.num-warps`, `ttg.threads-per-warp` and `ttg.num-ctas`, the ops
 * (MLIR syntax: comments, an op or type over several lines, generic and
 * custom forms), and `#locN = loc(...)` source locations at the end.
 *
 * layout_ttgir_parse() reads it once, with no heap, into a ::layout_ttgir
 * that refers into the caller's text: the module attributes, each alias,
 * every op of the module as an IR (layout_ttgir::ir: results, operands,
 * attributes, regions, blocks; the layout_ttgir_ir_* queries below), and
 * each op that reads or writes shared memory (::layout_ttgir_op_kind) with
 * its source and result types (shape, element type and bits, the layout as
 * an alias or an inline attribute, the memory space) and its source line.
 * Example (a 64 x 32 fp16 tile stored to and read from LDS on gfx942):
 * @code
 *   static layout_ttgir m;              // about 3.4 MiB: static or heap, the caller's choice
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
 * ::LAYOUT_ERR_CAPACITY.  layout_ttgir_parse() uses about 40 KiB of stack.
 * Thread safety: the calls only read their inputs;
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
/** Most dims of a tensor or memdesc type: Triton's `tt.sort` lowering
 *  reshapes an n-element tensor to log2(n) dims of 2, and Triton tensors
 *  hold at most 2^20 elements. */
#define LAYOUT_TTGIR_MAX_RANK 20
/** Most ops of the whole module (every op, not only shared-memory ones). */
#define LAYOUT_TTGIR_MAX_IR_OPS 8192
/** Most SSA values (op results and block arguments) of one module. */
#define LAYOUT_TTGIR_MAX_VALUES 16384
/** Most operand uses of one module. */
#define LAYOUT_TTGIR_MAX_USES 32768
/** Most attributes (`name = value` of attribute dictionaries and properties) of one module. */
#define LAYOUT_TTGIR_MAX_ATTRS 16384
/** Most regions, and most blocks, of one module. */
#define LAYOUT_TTGIR_MAX_REGIONS 2048
/** Most regions nested in one another. */
#define LAYOUT_TTGIR_MAX_NESTING 64
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
    int ir_op;                            /**< the same op in layout_ttgir::ir (its operands, attributes, block) */
} layout_ttgir_op;

/** A layout alias: `#name = <text>`. */
typedef struct layout_ttgir_alias {
    size_t name_at;                       /**< offset of the name, `#shared` (with the '#') */
    size_t name_len;                      /**< its length */
    size_t text_at;                       /**< offset of the attribute, `#ttg.swizzled_shared<{...}>` */
    size_t text_len;                      /**< its length */
} layout_ttgir_alias;

/** A piece of the module's text: `text + at`, `len` bytes. */
typedef struct layout_ttgir_span {
    uint32_t at;                          /**< offset in the text */
    uint32_t len;                         /**< length; 0: absent */
} layout_ttgir_span;

/** How a value's type follows from the printed type it refers to. */
typedef enum layout_ttgir_type_rule {
    LAYOUT_TTGIR_TYPE_AS_PRINTED = 0,     /**< the span is the value's type */
    LAYOUT_TTGIR_TYPE_ELEM_I1,            /**< the span's shape with element i1 (`arith.cmpi`, `arith.cmpf`) */
    LAYOUT_TTGIR_TYPE_ELEM_POINTEE,       /**< the span's shape with the pointee of its `!tt.ptr<T>` element (`tt.load`) */
    LAYOUT_TTGIR_TYPE_UNKNOWN             /**< not printed and not derivable without the op's verifier */
} layout_ttgir_type_rule;

/** An SSA value: an op's result or a block's argument. */
typedef struct layout_ttgir_value {
    layout_ttgir_span name;               /**< `%acc_40` as printed (a result group's name, without `#k`) */
    int32_t def_op;                       /**< the op (index into ir_ops) whose result it is; -1: a block argument */
    int32_t def_block;                    /**< the block whose argument it is; -1: an op result */
    int32_t index;                        /**< result number of def_op, or argument number of def_block */
    layout_ttgir_span type;               /**< the printed type it is read from; len 0 with rule UNKNOWN */
    layout_ttgir_type_rule rule;          /**< how its type follows from `type` */
    layout_ttgir_span attrs;              /**< a function argument's attributes (`{tt.divisibility = 16 : i32}`,
                                               braces included); len 0: none */
} layout_ttgir_value;

/** An attribute: `axis = 1 : i32` of `<{...}>` properties or `{...}` dictionaries. */
typedef struct layout_ttgir_attr {
    layout_ttgir_span name;               /**< `axis`, `allocation.offset`, `ttg.num-warps` (without quotes) */
    layout_ttgir_span value;              /**< `1 : i32`; len 0 for a unit attribute (`{tt.warp_specialize}`) */
} layout_ttgir_attr;

/** Any op of the module, in the order of its name in the text (pre-order). */
typedef struct layout_ttgir_ir_op {
    layout_ttgir_span name;               /**< `tt.load`, `scf.for`, `tt.reduce` (a generic op's name without quotes) */
    int32_t line;                         /**< 1-based line of the name */
    int32_t column;                       /**< 1-based column of the name */
    int32_t parent_block;                 /**< the block holding it; -1: top level */
    int32_t next;                         /**< the next op of its block (or of the top level); -1: the last */
    int32_t first_result;                 /**< its first result in values[] */
    int32_t n_results;                    /**< its results: values[first_result .. + n_results) */
    int32_t first_use;                    /**< its first operand in uses[] */
    int32_t n_uses;                       /**< its operands: uses[first_use .. + n_uses) are value indices
                                               (-1: defined nowhere visible, layout_ttgir_ir::n_undefined) */
    int32_t first_attr;                   /**< its first attribute in attrs[] */
    int32_t n_attrs;                      /**< attrs[first_attr .. + n_attrs): properties and attribute dictionaries */
    int32_t first_region;                 /**< its first region in regions[]; -1: none */
    int32_t n_regions;                    /**< how many (follow layout_ttgir_region::next) */
    layout_ttgir_span types_in;           /**< the printed types after its last top-level ':' (before any '->' / `to`) */
    layout_ttgir_span types_out;          /**< the printed types after its top-level '->' or `to` */
    layout_ttgir_span loc;                /**< the contents of its trailing `loc(...)`; len 0: none */
    layout_ttgir_span text;               /**< the op's text: from its first result (or name) to its end, regions included */
    layout_ttgir_span operand_text;       /**< its first operand as written (`%acc_38`, `%x` of `%x#1`); len 0: none */
    int32_t shared;                       /**< its index in ops[] (the shared-memory view); -1: not a shared-memory op */
} layout_ttgir_ir_op;

/** A region: a list of blocks. */
typedef struct layout_ttgir_region {
    int32_t parent_op;                    /**< the op it belongs to */
    int32_t next;                         /**< the op's next region; -1: the last */
    int32_t first_block;                  /**< its entry block in blocks[]; -1: none */
    int32_t n_blocks;                     /**< how many (follow layout_ttgir_block::next) */
} layout_ttgir_region;

/** A block: arguments and a list of ops. */
typedef struct layout_ttgir_block {
    int32_t parent_region;                /**< the region holding it */
    int32_t next;                         /**< the region's next block; -1: the last */
    int32_t first_op;                     /**< its first op (follow layout_ttgir_ir_op::next); -1: empty */
    int32_t last_op;                      /**< its last op; -1: empty */
    int32_t first_arg;                    /**< its first argument in values[] */
    int32_t n_args;                       /**< its arguments: values[first_arg .. + n_args) */
    layout_ttgir_span label;              /**< `^bb1`; len 0 for an unlabelled entry block */
} layout_ttgir_block;

/** The whole module as an IR: every op with its SSA results and operands,
 *  attributes, regions and blocks.  Names of values are resolved with
 *  MLIR's scoping (a region sees the values of the regions around it). */
typedef struct layout_ttgir_ir {
    int32_t first_op;                     /**< the first top-level op (the `module`); -1: none */
    int32_t n_ops;                        /**< ops */
    int32_t n_values;                     /**< values */
    int32_t n_uses;                       /**< operand uses */
    int32_t n_attrs;                      /**< attributes */
    int32_t n_regions;                    /**< regions */
    int32_t n_blocks;                     /**< blocks */
    int32_t n_undefined;                  /**< uses of a value defined nowhere visible (a fragment's inputs): their
                                               entry in uses[] is -1 */
    int32_t undefined_line;               /**< the first such use's line; 0: none */
    int32_t undefined_column;             /**< its column */
    layout_ttgir_ir_op ops[LAYOUT_TTGIR_MAX_IR_OPS];      /**< every op, in text order */
    layout_ttgir_value values[LAYOUT_TTGIR_MAX_VALUES];   /**< every value */
    int32_t uses[LAYOUT_TTGIR_MAX_USES];                  /**< operand lists: value indices */
    layout_ttgir_attr attrs[LAYOUT_TTGIR_MAX_ATTRS];      /**< attribute lists */
    layout_ttgir_region regions[LAYOUT_TTGIR_MAX_REGIONS]; /**< regions */
    layout_ttgir_block blocks[LAYOUT_TTGIR_MAX_REGIONS];  /**< blocks */
} layout_ttgir_ir;

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
    layout_ttgir_ir ir;                   /**< every op of the module (layout_ttgir_ir_* below) */
} layout_ttgir;

/**
 * Read TTGIR text (len bytes; need not be NUL-terminated) into *out.
 * Every op is read into the IR (an op Triton adds later is kept there, by
 * the shapes all MLIR ops share); a shared-memory op's types must parse.
 * The whole text must be well formed as far as a cut would show: not
 * empty, every string closed on its line, every `(`, `[`, `{` and `<`
 * closed by its own kind, and every `#name` a `loc(...)` refers to
 * defined; a value used but never defined where it is visible (a
 * fragment's inputs) is no error: its use is -1 and counted in
 * layout_ttgir_ir::n_undefined.  A text of Triton before 3.2
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

/**
 * @name The whole module as an IR
 * layout_ttgir_parse() also reads every op into layout_ttgir::ir, with its
 * results, operands, attributes and regions.  Ops are numbered in text
 * order; an op's regions hold blocks, a block's ops are chained by
 * layout_ttgir_ir_op::next.  Example: the axis of every `tt.reduce` and the
 * op defining its operand:
 * @code
 *   for (int i = 0; i < m.ir.n_ops; i++) {
 *       int64_t axis;
 *       if (!layout_ttgir_ir_op_is(&m, i, "tt.reduce")) continue;
 *       layout_ttgir_ir_attr_int(&m, i, "axis", &axis);                        // 1
 *       int src = layout_ttgir_ir_def(&m, layout_ttgir_ir_operand(&m, i, 0));  // the op making its input
 *   }
 * @endcode
 * Thread safety: read-only queries of a parsed module.  Indices out of
 * range give -1 (or ::LAYOUT_ERR_ARG), never undefined behaviour.
 * @{
 */

/** 1 when op `op` is named `name` ("tt.load"); 0 otherwise (also out of range). */
int layout_ttgir_ir_op_is(const layout_ttgir *m, int op, const char *name);

/** The value index of operand `k` of op `op`; -1 when out of range. */
int layout_ttgir_ir_operand(const layout_ttgir *m, int op, int k);

/** The value index of result `k` of op `op`; -1 when out of range. */
int layout_ttgir_ir_result(const layout_ttgir *m, int op, int k);

/** The op whose result value `v` is; -1 for a block argument or out of range. */
int layout_ttgir_ir_def(const layout_ttgir *m, int v);

/** The op holding op `op` in one of its regions (`scf.for` around a load); -1 at the top level. */
int layout_ttgir_ir_parent(const layout_ttgir *m, int op);

/** The number of uses of value `v` as an operand, and in *first_user the
 *  first op (in text order) using it (-1 when none). */
int layout_ttgir_ir_users(const layout_ttgir *m, int v, int *first_user);

/**
 * The value text of attribute `name` of op `op` (`1 : i32` for `axis`).
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NOT_FOUND when the op has no such
 *         attribute; ::LAYOUT_ERR_ARG when op is out of range.
 */
layout_status layout_ttgir_ir_attr(const layout_ttgir *m, int op, const char *name, const char **value,
                                   size_t *len);

/**
 * Attribute `name` of op `op` as an integer: `1 : i32` -> 1, `true` -> 1,
 * `false` -> 0, `-3` -> -3.
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NOT_FOUND (no such attribute);
 *         ::LAYOUT_ERR_PARSE (not an integer or boolean); ::LAYOUT_ERR_ARG.
 */
layout_status layout_ttgir_ir_attr_int(const layout_ttgir *m, int op, const char *name, int64_t *out);

/**
 * The type of value `v`, parsed (any rank up to ::LAYOUT_TTGIR_MAX_RANK):
 * a result's printed type, or the one its op derives (`arith.cmpi`: i1,
 * `tt.load`: the pointee).  Scalars (`i32`, `!tt.ptr<f16>`) have rank 0.
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NOT_FOUND when the text does not
 *         determine it; ::LAYOUT_ERR_ARG; ::LAYOUT_ERR_PARSE.
 */
layout_status layout_ttgir_ir_value_type(const layout_ttgir *m, int v, layout_ttgir_type *out);

/**
 * The integer a value holds when an `arith.constant` defines it
 * (`%c1_i32 = arith.constant 1 : i32` -> 1; `true` -> 1).
 * @return ::LAYOUT_OK; ::LAYOUT_ERR_NOT_FOUND when no integer constant
 *         defines it (a loop's induction variable, a tensor constant);
 *         ::LAYOUT_ERR_ARG when v is out of range.
 */
layout_status layout_ttgir_ir_const_int(const layout_ttgir *m, int v, int64_t *out);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_TTGIR_H */
