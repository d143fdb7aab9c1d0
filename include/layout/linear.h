/**
 * @file linear.h
 * @brief Linear layouts over F2 (Triton's `LinearLayout`): bases, apply,
 *        compose, invert, conversions from / to descriptors and
 *        distributions, a closed-form bank-conflict count and a fast tile walk.
 *
 * A linear layout maps named *input dims* (each of size 2^k: `offset`,
 * `register`, `lane`, `warp`, `block`, or the top dims `dim0`, `dim1`, ... of
 * a descriptor) to named *output dims* (each of size 2^m).  It is stored as
 * the image of every input bit, its **basis**; the image of any input is the
 * XOR of the bases of its set bits:
 *
 *     L(x) = XOR over input bits b set in x of basis[b]          (over F2)
 *
 * Example (Triton's docs for `LinearLayout`): in dim `lane` with 2 bits and
 * bases lane=1 -> (0, 1), lane=2 -> (1, 0) onto out dims (dim0, dim1) of 2
 * bits each maps lane 3 to (1, 1) and lane 2 to (1, 0).
 *
 * Packing.  Input dim i occupies bits [in_shift[i], in_shift[i] + in_bits[i])
 * of a packed input word, dim 0 lowest (Triton's "first dim is the most
 * minor" flattening); output dims are packed the same way, so a basis is one
 * `uint64_t` and apply is a loop of XORs (layout_linear_apply_packed()).
 * Capacity: ::LAYOUT_LINEAR_MAX_DIMS input dims and as many output dims, at
 * most ::LAYOUT_LINEAR_MAX_BITS bits in all on each side, at most
 * ::LAYOUT_LINEAR_MAX_DIM_BITS bits per dim (values fit int64).
 *
 * Sizes are powers of two by construction; output sizes need not be reached
 * (a layout need not be surjective), as in Triton with
 * `requireSurjective = false`.
 *
 * Ownership: ::layout_linear is a plain fixed-capacity value (about 1 KiB,
 * no pointers, no heap); copy it freely.  Thread safety: every function is
 * pure and reentrant.  Error contract (status.h): fallible functions return a
 * ::layout_status, fill @p err (may be NULL) and leave every out-parameter
 * untouched on failure; @p out may alias an input.
 */
#ifndef LAYOUT_LINEAR_H
#define LAYOUT_LINEAR_H

#include <stddef.h>
#include <stdint.h>

#include "layout/arch.h"
#include "layout/check.h"
#include "layout/descriptor.h"
#include "layout/distribution.h"
#include "layout/instr.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum input dims, and maximum output dims, of one linear layout. */
#define LAYOUT_LINEAR_MAX_DIMS 24
/** Maximum total bits of all input dims together, and of all output dims together. */
#define LAYOUT_LINEAR_MAX_BITS 64
/** Maximum bits of one dim (its values 0 .. 2^bits - 1 fit an int64). */
#define LAYOUT_LINEAR_MAX_DIM_BITS 62
/** Capacity of a dim name in bytes, including the NUL (names are 1..15 characters). */
#define LAYOUT_LINEAR_NAME_CAP 16

/**
 * A linear layout over F2 (see the file comment).  Build it with
 * layout_linear_init() + layout_linear_add_in_dim() /
 * layout_linear_add_out_dim() + layout_linear_set_basis(), or with
 * layout_linear_from_bases(), layout_linear_identity(), or a conversion.
 * Fields are readable; change them only through the functions.
 */
typedef struct layout_linear {
    int n_in;                                               /**< input dims, 0..::LAYOUT_LINEAR_MAX_DIMS */
    int n_out;                                              /**< output dims, 0..::LAYOUT_LINEAR_MAX_DIMS */
    char in_names[LAYOUT_LINEAR_MAX_DIMS][LAYOUT_LINEAR_NAME_CAP];  /**< input dim names (distinct) */
    char out_names[LAYOUT_LINEAR_MAX_DIMS][LAYOUT_LINEAR_NAME_CAP]; /**< output dim names (distinct) */
    int in_bits[LAYOUT_LINEAR_MAX_DIMS];                    /**< log2 of each input dim's size */
    int out_bits[LAYOUT_LINEAR_MAX_DIMS];                   /**< log2 of each output dim's size */
    int in_shift[LAYOUT_LINEAR_MAX_DIMS];                   /**< first packed input bit of each input dim */
    int out_shift[LAYOUT_LINEAR_MAX_DIMS];                  /**< first packed output bit of each output dim */
    int total_in_bits;                                      /**< sum of in_bits */
    int total_out_bits;                                     /**< sum of out_bits */
    uint64_t bases[LAYOUT_LINEAR_MAX_BITS];                 /**< packed image of packed input bit j, j < total_in_bits (others 0) */
} layout_linear;

/* ---------------------------------------------------------------- build */

/**
 * The empty layout: no input dims, no output dims.
 * Errors: ::LAYOUT_ERR_NULL.
 */
layout_status layout_linear_init(layout_linear *out, layout_error *err);

/**
 * Append an input dim @p name of size 2^@p n_bits; its bases start at zero.
 * n_bits = 0 is allowed (a dim of size 1, as Triton's `warp` of a one-warp
 * layout).  Example: add_in_dim(&l, "lane", 5, &err) for a 32-lane warp.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (empty name, name of
 * ::LAYOUT_LINEAR_NAME_CAP bytes or more, a name already used by an input
 * dim, n_bits outside 0..::LAYOUT_LINEAR_MAX_DIM_BITS); ::LAYOUT_ERR_CAPACITY
 * (more than ::LAYOUT_LINEAR_MAX_DIMS dims or ::LAYOUT_LINEAR_MAX_BITS bits).
 */
layout_status layout_linear_add_in_dim(layout_linear *ll, const char *name, int n_bits, layout_error *err);

/**
 * Append an output dim @p name of size 2^@p n_bits (the packed images are
 * re-packed; existing bases keep their values).  Errors as
 * layout_linear_add_in_dim() (names checked among the output dims).
 */
layout_status layout_linear_add_out_dim(layout_linear *ll, const char *name, int n_bits, layout_error *err);

/**
 * Set the image of bit @p bit of input dim @p in_dim: @p out_values[j] is the
 * value in output dim j (n_out values).
 * Example: set_basis(&l, lane, 0, (int64_t[]){0, 1}) is Triton's `lane=1 -> (0, 1)`.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_RANGE (in_dim or bit out of range);
 * ::LAYOUT_ERR_ARG (a value outside 0 .. 2^out_bits[j] - 1, naming j).
 */
layout_status layout_linear_set_basis(layout_linear *ll, int in_dim, int bit, const int64_t *out_values,
                                      layout_error *err);

/**
 * Read the image of bit @p bit of input dim @p in_dim into `out_values[0..n_out)`.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_RANGE.
 */
layout_status layout_linear_get_basis(const layout_linear *ll, int in_dim, int bit, int64_t *out_values,
                                      layout_error *err);

/**
 * Build from explicit bases, the form Triton's `LinearLayout.from_bases`
 * takes: `{in_name: [[v_0, .., v_{n_out-1}] per bit]}` plus the output names.
 *
 * @p bases is flat: for input dim i (in order), for bit b < in_bits[i], the
 * n_out values of that bit's image.  @p out_bits may be NULL: then each output
 * dim gets the smallest bit count holding every value given for it (Triton's
 * rule: size = the next power of two above the largest coordinate, at least 1).
 *
 * Example: two in dims, `register` (1 bit) and `lane` (2 bits), two out dims:
 * @code
 *   const char *ins[2] = {"register", "lane"}, *outs[2] = {"dim0", "dim1"};
 *   int in_bits[2] = {1, 2};
 *   int64_t b[] = {0, 1,    1, 0, 2, 0};   // register=1 -> (0,1); lane=1 -> (1,0); lane=2 -> (2,0)
 *   layout_linear_from_bases(&l, 2, ins, in_bits, b, 2, outs, NULL, &err);  // dim0: 2 bits, dim1: 1 bit
 * @endcode
 * Errors: ::LAYOUT_ERR_NULL (out, names, in_bits, or bases with bits > 0);
 * the errors of the add / set functions (message names the argument);
 * ::LAYOUT_ERR_ARG for a negative value or a value that does not fit the given out_bits.
 */
layout_status layout_linear_from_bases(layout_linear *out, int n_in, const char *const *in_names,
                                       const int *in_bits, const int64_t *bases, int n_out,
                                       const char *const *out_names, const int *out_bits, layout_error *err);

/**
 * Triton's `identity1D(2^n_bits, in_name, out_name)`: one input dim, one
 * output dim of n_bits each, basis[b] = 2^b.
 * Errors: as layout_linear_add_in_dim().
 */
layout_status layout_linear_identity(layout_linear *out, const char *in_name, const char *out_name, int n_bits,
                                     layout_error *err);

/**
 * Triton's `operator*` (direct product): the input dims of @p inner followed
 * by the new ones of @p outer; a dim present in both is concatenated with
 * @p inner's bits low and @p outer's bits high, on both sides.
 * Example: identity(register->dim1, 2 bits) * identity(lane->dim1, 3 bits)
 * is identity(register->dim1, ...) with `lane` bases 4, 8, 16 on dim1.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_CAPACITY, ::LAYOUT_ERR_ARG (a dim
 * would exceed ::LAYOUT_LINEAR_MAX_DIM_BITS).
 */
layout_status layout_linear_product(layout_linear *out, const layout_linear *inner, const layout_linear *outer,
                                    layout_error *err);

/**
 * Reorder the output dims: @p names lists every output dim once, in the new
 * order (Triton's `transposeOuts`).  Bases are re-packed; values unchanged.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG (n differs from n_out, unknown or repeated name).
 */
layout_status layout_linear_transpose_outs(layout_linear *out, const layout_linear *in, int n,
                                           const char *const *names, layout_error *err);

/**
 * Reorder the input dims (Triton's `transposeIns`).  Errors as
 * layout_linear_transpose_outs().
 */
layout_status layout_linear_transpose_ins(layout_linear *out, const layout_linear *in, int n,
                                          const char *const *names, layout_error *err);

/* ---------------------------------------------------------------- query */

/** Index of the input dim called @p name, or -1 (also for NULL arguments). */
int layout_linear_in_dim(const layout_linear *ll, const char *name);
/** Index of the output dim called @p name, or -1 (also for NULL arguments). */
int layout_linear_out_dim(const layout_linear *ll, const char *name);

/**
 * Image of a packed input (dim 0 in the lowest bits, see the file comment):
 * XOR of the bases of the set bits.  Unchecked: bits at or above
 * total_in_bits are ignored.  Example: the file comment's lane layout
 * (out dims dim0, dim1 of 2 bits each) maps packed 3 to (dim0 = 1,
 * dim1 = 1), packed 1 | 1 << 2 = 5.
 */
static inline uint64_t layout_linear_apply_packed(const layout_linear *ll, uint64_t in)
{
    uint64_t r = 0;
    int b;
    for (b = 0; b < ll->total_in_bits; b++)
        if ((in >> b) & 1u) r ^= ll->bases[b];
    return r;
}

/**
 * Apply to one value per input dim: `in[0..n_in)` -> `out[0..n_out)`.
 * Example: the file comment's layout maps lane 3 to (1, 1).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_RANGE ("in[1] = 4 is outside 0..3").
 */
layout_status layout_linear_apply(const layout_linear *ll, const int64_t *in, int64_t *out, layout_error *err);

/** Rank over F2 of the bases (dimension of the image); -1 for NULL. */
int layout_linear_rank(const layout_linear *ll);
/** 1 when distinct inputs have distinct images (rank == total_in_bits), else 0 (0 for NULL). */
int layout_linear_is_injective(const layout_linear *ll);
/** 1 when every output value is reached (rank == total_out_bits), else 0 (0 for NULL). */
int layout_linear_is_surjective(const layout_linear *ll);
/** 1 when injective and surjective, else 0. */
int layout_linear_is_bijective(const layout_linear *ll);

/**
 * 1 when @p a and @p b are the same value: the same input dims (names, order,
 * bits), the same output dims (names, order, bits) and the same bases; else 0.
 * Triton's `operator==` (order-sensitive, like its ordered maps).
 */
int layout_linear_equal(const layout_linear *a, const layout_linear *b);

/* ---------------------------------------------------------------- algebra */

/**
 * Composition "first, then second": out(x) = second(first(x)), Triton's
 * `first.compose(second)`.  The output dims of @p first are matched **by
 * name** with input dims of @p second (every output dim of @p first must be
 * an input dim of @p second, with out_bits <= that input dim's bits; input
 * dims of @p second that @p first does not produce read 0).  The result has
 * first's input dims and second's output dims.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_MISMATCH naming the dim
 * ("first's output dim 'offset' is not an input dim of second", or "has 6
 * bits, second's input dim has 5").
 */
layout_status layout_linear_compose(layout_linear *out, const layout_linear *first, const layout_linear *second,
                                    layout_error *err);

/**
 * Inverse of a bijective layout: the input dims of the result are @p ll's
 * output dims and vice versa, and out(ll(x)) = x, ll(out(y)) = y for all x, y.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG when @p ll is not bijective
 * (the message says whether it is not injective or not surjective, and the rank).
 */
layout_status layout_linear_invert(layout_linear *out, const layout_linear *ll, layout_error *err);

/**
 * A right inverse of a surjective layout: ll(out(y)) = y for every output y
 * (Triton's `pseudoinvert` contract).  Which one: Gaussian elimination picks,
 * scanning packed input bits from the lowest, every bit whose basis is
 * independent of the bases picked before (the "pivot" bits); out(y) is the
 * unique input using only pivot bits with ll(input) = y.  So inputs take the
 * lowest possible bits, and for a bijective layout the result equals
 * layout_linear_invert().
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG when not surjective.
 */
layout_status layout_linear_pseudo_invert(layout_linear *out, const layout_linear *ll, layout_error *err);

/* ---------------------------------------------------------------- print */

/**
 * Print in Triton's `LinearLayout::toString` form: one line per input bit,
 * grouped by input dim, the first line of a dim prefixed " - ", the others
 * "   ", then the output dims:
 * @code
 *  - register=1 -> (0, 1)
 *    register=2 -> (0, 2)
 *  - lane=1 -> (1, 0)
 * where out dims are: [dim0 (size 2), dim1 (size 4)]
 * @endcode
 * An input dim of size 1 prints " - warp is a size 1 dimension"; a layout
 * without input dims prints "(empty layout)" or "(empty layout with out-dims
 * [...])".  Identical to Triton's toString() without its leading newline.
 * snprintf semantics: returns the full length (-1 for NULL @p ll).
 */
int layout_linear_print(const layout_linear *ll, char *buf, size_t cap);

/* ---------------------------------------------------------------- descriptors and distributions */

/**
 * Decide whether a descriptor is linear over F2 and, if so, return its bases.
 *
 * The result has input dims "dim0" .. "dim{n-1}" (the top dims, in order,
 * each of log2(length) bits) and one output dim "offset" of the bits needed
 * by the largest offset.  Linear means: every top length is a power of two,
 * every coordinate is valid, and offset(x ^ y) = offset(x) ^ offset(y) for
 * all coordinates x, y (XOR taken per top dim).
 *
 * Decision: first a sound structural proof walks the stages from the top
 * dims to the offset, carrying the F2 form of every bit (pass_through; embed /
 * unmerge with power-of-two coefficients whose bit ranges do not overlap;
 * merge of power-of-two lengths; xor and modulo with a power-of-two modulus
 * or one the value never reaches; pad / slice / offset / freeze only when
 * they are the identity, a zero pad only when the value provably stays below
 * its length).  When it fails on a tile of at most 2^16 coordinates, the
 * offsets of the unit coordinates are checked exhaustively against the
 * evaluator instead (so e.g. a stride 3 on a dim of length 2 is accepted);
 * a larger tile the proof cannot handle is rejected even if it happens to
 * be linear.  The bases are the offsets of the unit coordinates.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_UNSUPPORTED naming the first
 * stage the proof could not pass and why (also when the exhaustive check
 * then confirms the map is not linear), e.g. "not linear over F2: top length
 * 3 of dim 1 is not a power of two", "not linear over F2: embed([64, 32],
 * [34, 1]) (transform t0): stride 34 of dim 0 is not a power of two" (seed
 * kernel 03), "not linear over F2: pad(30, 2, 0) (transform t1): padding
 * 2 + 0 makes coordinates invalid (padding is not linear)".
 */
layout_status layout_desc_to_linear(const layout_descriptor *d, layout_linear *out, layout_error *err);

/**
 * The same for a distribution: input dims "register" (bits of the register
 * index, row-major over Y), "lane" (log2 wave_size bits), "warp" (log2 n_warps
 * bits, 0 for one warp), output dims "dim0" .. "dim{n_x-1}" (log2 of each X
 * length).  Linear when elems_per_thread, wave_size, n_warps and every X
 * length are powers of two and X(r ^ r', l ^ l', w ^ w') = X(r,l,w) ^ X(r',l',w')
 * per dim.  Verified exhaustively when there are at most 2^16 (warp, lane,
 * register) triples; larger encodings are proved by a structural check
 * (every H and R entry a power of two: the map is then a bit placement).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_UNSUPPORTED naming the reason
 * ("not linear over F2: X length 48 of dim 1 is not a power of two").
 */
layout_status layout_dist_to_linear(const layout_distribution *d, layout_linear *out, layout_error *err);

/**
 * A descriptor with the same offsets as @p ll: top dims = the input dims in
 * order (lengths 2^in_bits), offset = the single output dim of size > 1
 * (further output dims of size 1, e.g. Triton's `block` of one CTA, are
 * allowed and ignored).
 *
 * Two constructions, the first that applies:
 * 1. **Stage form** (has a text form, layout_desc_to_text()): when every
 *    basis is one "home" offset bit (its highest) plus at most one bit that
 *    is another input bit's home, no bit is both xor source and target, and
 *    the input bits group into at most ::LAYOUT_MAX_DIMS runs ("fields")
 *    that are contiguous in input and offset alike: layout_naive() over the
 *    fields (strides 2^home, 0 for broadcast bits), one stage of
 *    xor(2^w, 2^w) between source and target fields, one stage of merges back
 *    to the input dims — the shape of seed kernel 08 and of Triton's
 *    swizzled shared layouts.  Element space size: the naive rule
 *    (2^out_bits when bijective).
 * 2. **Xor network** (checkable and plannable, no text form): each top dim
 *    merged into single bits, a network of xor(2, 2) transforms (each the F2
 *    step b_t ^= b_s) from column Gaussian elimination, embeds placing each
 *    reduced basis at its offset bits; element space size 2^out_bits.  Limits:
 *    after elimination the reduced bases must not share offset bits (true for
 *    every bijective layout), and the network must fit ::LAYOUT_MAX_TRANSFORMS
 *    transforms and ::LAYOUT_MAX_HIDDEN hidden dims (about 20 xor steps on
 *    a 2^11 tile).
 *
 * Either way the non-zero bases must be linearly independent (zero bases are
 * broadcast dims and are fine).
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_UNSUPPORTED (not one output dim,
 * no input dim, the non-zero bases dependent, reduced bases sharing offset
 * bits); ::LAYOUT_ERR_CAPACITY (the network does not fit, naming the count).
 */
layout_status layout_linear_to_desc(const layout_linear *ll, layout_descriptor *out, layout_error *err);

/**
 * A table-form distribution (layout_dist_from_table()) with the coordinates
 * of @p ll: input dims "register", "lane", "warp" (found by name; a missing
 * "warp" means one warp; no other input dim allowed), output dims = X dims in
 * order.  @p table (caller-owned, borrowed by the distribution, must outlive
 * it) receives n_warps * wave_size * elems * n_x values; @p table_cap is its
 * capacity in values.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (a missing or unknown input
 * dim, a wave size over ::LAYOUT_MAX_LANES); ::LAYOUT_ERR_BUFFER (table_cap
 * too small, naming the size needed); errors of layout_dist_from_table().
 */
layout_status layout_linear_to_dist(const layout_linear *ll, int64_t *table, size_t table_cap,
                                    layout_distribution *out, layout_error *err);

/* ---------------------------------------------------------------- tile walk */

/**
 * Outputs of every input of a layout with ONE output dim (others of size 1
 * allowed), in row-major order
 * over the input dims (the LAST input dim fastest, as a descriptor's tile:
 * index = ((x0 * 2^b1 + x1) * 2^b2 + x2) ...), written to
 * `offsets[0 .. 2^total_in_bits)`.
 *
 * Method: a table of the images of the 2^k lowest row-major index bits
 * (k <= 6), and a Gray-code walk over the higher bits, each next block base
 * being the previous one XOR one precomputed image: one XOR per output.
 * Example: identity over 3 bits writes 0 1 2 .. 7.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_UNSUPPORTED (not one output dim,
 * more than 62 input bits); ::LAYOUT_ERR_BUFFER (cap < 2^total_in_bits, naming the size needed).
 */
layout_status layout_linear_tile_offsets(const layout_linear *ll, int64_t *offsets, size_t cap, layout_error *err);

/* ---------------------------------------------------------------- bank conflicts */

/**
 * One wave-level LDS instruction whose lane addresses are F2-linear in the
 * lane bits plus a constant:
 *
 *     addr_bytes(l) = base_bytes XOR (XOR over lane bits b set in l of lane_images[b])
 *
 * for every lane l of the wave (all lanes active).  This is what a linear
 * layout gives when the other input dims (registers, warp) are fixed and the
 * element size is a power of two (see layout_linear_lane_access()).
 */
typedef struct layout_linear_access {
    layout_direction direction; /**< read or write */
    int width_bytes;            /**< bytes per lane: 1, 2, 4, 8 or 16 (12 is not linear) */
    int n_lane_bits;            /**< log2 of the wave size (5 or 6); must match the arch */
    uint32_t lane_images[6];    /**< byte-address image of lane bit b, b < n_lane_bits */
    uint32_t base_bytes;        /**< per-instruction constant, XORed in */
} layout_linear_access;

/**
 * Fill an access from a linear layout with one output dim (an element
 * offset; further output dims of size 1 allowed): lane images = image of each bit of input dim @p lane_dim times
 * @p elem_bytes; base = image of @p in_values (one value per input dim; the
 * lane dim's entry is ignored) times @p elem_bytes.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (elem_bytes not a power of two
 * in 1..16, no such lane dim, lane dim not 5 or 6 bits, not one output dim, an
 * address over 32 bits); ::LAYOUT_ERR_RANGE (an input value out of range).
 */
layout_status layout_linear_lane_access(const layout_linear *ll, const char *lane_dim, const int64_t *in_values,
                                        int elem_bytes, layout_direction direction, int width_bytes,
                                        layout_linear_access *out, layout_error *err);

/**
 * The instruction an access describes (every lane active), for the exact
 * checker.  Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (n_lane_bits not 5/6,
 * a bad width or direction).
 */
layout_status layout_linear_access_instr(const layout_linear_access *acc, layout_instr *out, layout_error *err);

/**
 * Closed-form bank-conflict cost of a linear access, equal field for field
 * to layout_checker_cost() on layout_linear_access_instr() whenever it
 * returns ::LAYOUT_OK.
 *
 * Over F2 the words a lane group touches form an affine space a + U, where U
 * is spanned by the images (in word units) of the group's lane directions and,
 * for widths above the bank width, of the sub-word steps; the words on one
 * bank are the cosets of U ∩ K (K = words whose bank bits are zero), so each
 * bank the group touches sees 2^(dim U - rank of U's bank bits) distinct words:
 * nway = 2^(dim U - dim bank(U)), extra = nway - 1 per group.
 *
 * Applies when: every lane group of the arch's rule (and of its fold, which is
 * taken when lane_images of a fold mask XOR to 0) is an affine subspace of
 * lane ids (true of every preset); width is 1, 2, 4, 8 or 16 bytes; every
 * lane address (base and images) is a multiple of the width (so no lane
 * straddles a bank word it does not fill).  Otherwise
 * ::LAYOUT_ERR_UNSUPPORTED saying which condition fails.
 * Errors: ::LAYOUT_ERR_NULL; ::LAYOUT_ERR_ARG (a malformed access; a group
 * count outside 1..::LAYOUT_MAX_LANE_GROUPS); ::LAYOUT_ERR_MISMATCH
 * (n_lane_bits vs the arch's wave size); ::LAYOUT_ERR_UNSUPPORTED (above, or
 * the arch has no rule for the width); the rest of layout_arch_validate() is
 * not repeated here (pass a valid arch, e.g. a preset).
 */
layout_status layout_linear_access_cost(const layout_arch *arch, const layout_linear_access *acc, layout_cost *out,
                                        layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_LINEAR_H */
