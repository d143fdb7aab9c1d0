/* Triton's TritonGPU layout attributes (triton.h): the reader.
 *
 *   attr    := '#ttg.swizzled_shared' '<' dict '>'
 *            | '#ttg.amd_rotating_shared' '<' dict '>'   (the swizzled_shared fields)
 *            | '#ttg.nvmma_shared' '<' dict '>'
 *            | '#ttg.padded_shared' '<' '[' pair {',' pair} ']' [dict] '>'
 *            | '#ttg.blocked' '<' dict '>'
 *            | '#ttg.linear' '<' dict '>'
 *            | '#ttg.amd_mfma' | '#ttg.amd_wmma' | '#ttg.nvidia_mma' | '#ttg.dot_op' | '#ttg.slice' ...
 *                                                   (triton_mma_read.c)
 *            | dict [',' dict]                      (from_bases: bases, then out sizes)
 *   dict    := '{' [ key ('=' | ':') value { ',' key ('=' | ':') value } ] '}'
 *   pair    := int ':' '+' int
 *   value   := int | '[' ... ']' (ints or lists of ints)
 *   key     := identifier | '"' identifier '"' | "'" identifier "'"
 *
 * '#' starts the attribute (not a comment) so the prefix is matched raw. */
#include "triton_internal.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- lexing */

/* ---------------------------------------------------------------- attributes */

/* The body of #ttg.swizzled_shared and of #ttg.amd_rotating_shared (the same
 * fields: Triton parses both with parseSwizzledEncoding, Dialect.cpp). */
static layout_status parse_swizzled(text_cursor *c, layout_triton_attr *a, const char *name)
{
    int have = 0, n;
    if (layout_tx_expect(c, '<', "'<'") || layout_tx_expect(c, '{', "'{'")) return c->status;
    for (;;) {
        char key[32];
        size_t at;
        if (layout_triton_read_key(c, key, sizeof key, &at, "a field (vec, perPhase, maxPhase, order)") || layout_triton_read_sep(c))
            return c->status;
        if (strcmp(key, "vec") == 0 || strcmp(key, "perPhase") == 0 || strcmp(key, "maxPhase") == 0) {
            int64_t v;
            size_t vat;
            layout_tx_skip(c);
            vat = c->pos;
            if (layout_tx_int(c, &v, key)) return c->status;
            if (!layout_is_pow2(v) || v > ((int64_t)1 << LAYOUT_TRITON_MAX_SWIZZLE_LOG2))
                return layout_tx_fail_at(c, vat, LAYOUT_ERR_ARG, "%s = %lld is not a power of two in 1..2^%d", key,
                                         (long long)v, LAYOUT_TRITON_MAX_SWIZZLE_LOG2);
            if (key[0] == 'v') {
                a->vec = v;
                have |= 1;
            } else if (key[0] == 'p') {
                a->per_phase = v;
                have |= 2;
            } else {
                a->max_phase = v;
                have |= 4;
            }
        } else if (strcmp(key, "order") == 0) {
            if (layout_triton_read_order(c, a->order, &n)) return c->status;
            a->rank = n;
            have |= 8;
        } else if (strcmp(key, "CTAsPerCGA") == 0 || strcmp(key, "CTASplitNum") == 0 || strcmp(key, "CTAOrder") == 0 ||
                   strcmp(key, "CGALayout") == 0) {
            if (layout_triton_read_cga(c, key, at)) return c->status;
        } else {
            return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "unknown field '%s' (%s has vec, perPhase, "
                                                       "maxPhase, order)", key, name);
        }
        if (layout_tx_accept(c, '}')) break;
        if (layout_tx_expect(c, ',', "',' or '}'")) return c->status;
    }
    if (have != 15) {
        static const char *const names[4] = {"vec", "perPhase", "maxPhase", "order"};
        int k;
        for (k = 0; k < 4; k++)
            if (!((have >> k) & 1)) return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "missing field '%s'", names[k]);
    }
    if (a->rank < 1 || a->rank > 4)
        return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_UNSUPPORTED, "%s of rank %d: liblayout supports ranks 1 to 4",
                          name, a->rank);
    return layout_tx_expect(c, '>', "'>'");
}

static layout_status read_nvmma_bool(text_cursor *c, int *out, const char *name)
{
    char w[8];
    size_t at;
    layout_tx_skip(c);
    if (layout_tx_ident(c, w, sizeof w, &at, name)) return c->status;
    if (strcmp(w, "true") == 0)
        *out = 1;
    else if (strcmp(w, "false") == 0)
        *out = 0;
    else
        return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "%s must be true or false", name);
    return LAYOUT_OK;
}

/* #ttg.nvmma_shared<{swizzlingByteWidth = S, transposed = B, elementBitWidth = E
 * [, fp4Padded = B] [, rank = N] [, CTAsPerCGA = .., CTASplitNum = .., CTAOrder = ..]}>
 * (Dialect.cpp NVMMASharedEncodingAttr::parse / print / verify: S in
 * {0, 32, 64, 128}, E non-zero; the printer adds `rank = N` only for a rank
 * other than 2). */
static layout_status parse_nvmma(text_cursor *c, layout_triton_attr *a)
{
    int have = 0;
    a->rank = 2;
    if (layout_tx_expect(c, '<', "'<'") || layout_tx_expect(c, '{', "'{'")) return c->status;
    for (;;) {
        char key[32];
        size_t at, vat;
        int64_t v;
        if (layout_triton_read_key(c, key, sizeof key, &at,
                                   "a field (swizzlingByteWidth, transposed, elementBitWidth, fp4Padded, rank)") ||
            layout_triton_read_sep(c))
            return c->status;
        layout_tx_skip(c);
        vat = c->pos;
        if (strcmp(key, "swizzlingByteWidth") == 0) {
            if (layout_tx_int(c, &v, key)) return c->status;
            if (v != 0 && v != 32 && v != 64 && v != 128)
                return layout_tx_fail_at(c, vat, LAYOUT_ERR_ARG, "swizzlingByteWidth = %lld: Triton accepts 0, 32, 64 or 128",
                                         (long long)v);
            a->swizzling_byte_width = (int)v;
            have |= 1;
        } else if (strcmp(key, "transposed") == 0) {
            if (read_nvmma_bool(c, &a->transposed, key)) return c->status;
            have |= 2;
        } else if (strcmp(key, "elementBitWidth") == 0) {
            if (layout_tx_int(c, &v, key)) return c->status;
            if (!layout_is_pow2(v) || v > 128)
                return layout_tx_fail_at(c, vat, LAYOUT_ERR_ARG,
                                         "elementBitWidth = %lld is not a power of two in 1..128 (8 for i8 / fp8, 16 for "
                                         "f16 / bf16, 32 for f32)",
                                         (long long)v);
            a->element_bit_width = (int)v;
            have |= 4;
        } else if (strcmp(key, "fp4Padded") == 0) {
            if (read_nvmma_bool(c, &a->fp4_padded, key)) return c->status;
        } else if (strcmp(key, "rank") == 0) {
            if (layout_tx_int(c, &v, key)) return c->status;
            if (v < 1 || v > LAYOUT_MAX_DIMS)
                return layout_tx_fail_at(c, vat, LAYOUT_ERR_ARG, "rank = %lld is outside 1..%d", (long long)v,
                                         LAYOUT_MAX_DIMS);
            a->rank = (int)v;
        } else if (strcmp(key, "CTAsPerCGA") == 0 || strcmp(key, "CTASplitNum") == 0 || strcmp(key, "CTAOrder") == 0 ||
                   strcmp(key, "CGALayout") == 0) {
            if (layout_triton_read_cga(c, key, at)) return c->status;
        } else {
            return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE,
                                     "unknown field '%s' (nvmma_shared has swizzlingByteWidth, transposed, "
                                     "elementBitWidth, fp4Padded, rank)",
                                     key);
        }
        if (layout_tx_accept(c, '}')) break;
        if (layout_tx_expect(c, ',', "',' or '}'")) return c->status;
    }
    if (have != 7) {
        static const char *const names[3] = {"swizzlingByteWidth", "transposed", "elementBitWidth"};
        int k;
        for (k = 0; k < 3; k++)
            if (!((have >> k) & 1)) return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "missing field '%s'", names[k]);
    }
    return layout_tx_expect(c, '>', "'>'");
}

/* Long-form offset bases: each a single coordinate bit. */
static layout_status offset_bases(text_cursor *c, layout_triton_attr *a, const int64_t *vals, int rows, int width,
                                  const size_t *row_at)
{
    int b, j, nbits[LAYOUT_TRITON_MAX_RANK] = {0};
    uint64_t seen[LAYOUT_TRITON_MAX_RANK] = {0};
    a->rank = width;
    for (b = 0; b < rows; b++) {
        int dim = -1, bit = 0;
        for (j = 0; j < width; j++) {
            int64_t v = vals[b * LAYOUT_TRITON_MAX_RANK + j];
            if (v == 0) continue;
            if (dim >= 0 || !layout_is_pow2(v))
                return layout_tx_fail_at(c, row_at[b], LAYOUT_ERR_UNSUPPORTED,
                                  "offset basis %d is not a single coordinate bit (liblayout supports bit permutations "
                                  "as the linear component)",
                                  b);
            dim = j;
            bit = layout_log2_floor(v);
        }
        if (dim < 0)
            return layout_tx_fail_at(c, row_at[b], LAYOUT_ERR_UNSUPPORTED, "offset basis %d is zero (a broadcast)", b);
        if (bit >= 62 || (seen[dim] >> bit) & 1)
            return layout_tx_fail_at(c, row_at[b], LAYOUT_ERR_ARG, "offset basis %d repeats bit %d of dim %d", b, bit, dim);
        seen[dim] |= (uint64_t)1 << bit;
        nbits[dim]++;
        a->offset_dim[b] = dim;
        a->offset_bit[b] = bit;
    }
    for (j = 0; j < width; j++) {
        if (seen[j] != (nbits[j] == 64 ? ~(uint64_t)0 : (((uint64_t)1 << nbits[j]) - 1)))
            return layout_tx_fail_at(c, row_at[0], LAYOUT_ERR_ARG, "the offset bases of dim %d skip a bit (not a permutation)",
                              j);
        a->shape[j] = (int64_t)1 << nbits[j];
    }
    a->n_offset_bits = rows;
    a->has_shape = 1;
    return LAYOUT_OK;
}

static layout_status parse_padded(text_cursor *c, layout_triton_attr *a)
{
    int k, j;
    if (layout_tx_expect(c, '<', "'<'") || layout_tx_expect(c, '[', "'[' starting the interval:+pad list")) return c->status;
    for (;;) {
        int64_t iv, pd;
        size_t at_i, at_p;
        layout_tx_skip(c);
        at_i = c->pos;
        if (a->n_pads >= LAYOUT_TRITON_MAX_PADS)
            return layout_tx_fail_at(c, at_i, LAYOUT_ERR_CAPACITY, "more than %d interval:+pad pairs", LAYOUT_TRITON_MAX_PADS);
        if (layout_tx_int(c, &iv, "an interval") || layout_tx_expect(c, ':', "':' after the interval") ||
            layout_tx_expect(c, '+', "'+' before the padding"))
            return c->status;
        layout_tx_skip(c);
        at_p = c->pos;
        if (layout_tx_int(c, &pd, "a padding")) return c->status;
        if (!layout_is_pow2(iv) || iv > TX_MAX_INTERVAL)
            return layout_tx_fail_at(c, at_i, LAYOUT_ERR_ARG, "interval %lld is not a power of two in 1..2^%d", (long long)iv,
                              TX_MAX_INTERVAL_LOG2);
        if (!layout_is_pow2(pd) || pd > TX_MAX_PAD)
            return layout_tx_fail_at(c, at_p, LAYOUT_ERR_ARG, "padding %lld is not a power of two in 1..2^%d", (long long)pd,
                              TX_MAX_PAD_LOG2);
        for (k = 0; k < a->n_pads; k++)
            if (a->interval[k] == iv)
                return layout_tx_fail_at(c, at_i, LAYOUT_ERR_ARG, "interval %lld appears twice", (long long)iv);
        a->interval[a->n_pads] = iv;
        a->pad[a->n_pads] = pd;
        a->n_pads++;
        if (layout_tx_accept(c, ']')) break;
        if (layout_tx_expect(c, ',', "',' or ']'")) return c->status;
    }
    if (layout_tx_accept(c, '{')) {
        int have = 0, n_shape = 0;
        for (;;) {
            char key[32];
            size_t at;
            if (layout_triton_read_key(c, key, sizeof key, &at, "a field (order, shape, offset, block)") || layout_triton_read_sep(c))
                return c->status;
            if (strcmp(key, "order") == 0) {
                if (layout_triton_read_order(c, a->order, &a->rank)) return c->status;
                have |= 1;
            } else if (strcmp(key, "shape") == 0) {
                if (layout_triton_read_pow2_list(c, a->shape, LAYOUT_TRITON_MAX_RANK, &n_shape, key)) return c->status;
                have |= 2;
            } else if (strcmp(key, "offset") == 0) {
                int64_t vals[MAX_BASES * LAYOUT_TRITON_MAX_RANK];
                size_t row_at[MAX_BASES];
                int rows, width = -1;
                if (layout_triton_read_bases(c, vals, MAX_BASES, &width, &rows, row_at, "'[' starting the offset bases"))
                    return c->status;
                if (rows == 0) return layout_tx_fail_at(c, at, LAYOUT_ERR_ARG, "no offset bases");
                if (offset_bases(c, a, vals, rows, width, row_at)) return c->status;
                have |= 4;
            } else if (strcmp(key, "block") == 0) {
                int64_t vals[MAX_BASES * LAYOUT_TRITON_MAX_RANK];
                int rows, width = -1;
                if (layout_triton_read_bases(c, vals, MAX_BASES, &width, &rows, NULL, "'[' starting the block bases"))
                    return c->status;
                if (rows) return layout_tx_fail_at(c, at, LAYOUT_ERR_UNSUPPORTED, "block bases: only one CTA is supported");
            } else {
                return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "unknown field '%s' (padded_shared has order and shape, or "
                                                           "offset and block)", key);
            }
            if (layout_tx_accept(c, '}')) break;
            if (layout_tx_expect(c, ',', "',' or '}'")) return c->status;
        }
        if (have == 3) {
            if (n_shape != a->rank)
                return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_MISMATCH, "order has %d entries, shape %d", a->rank,
                                  n_shape);
            a->has_shape = 1;
        } else if (have != 4) {
            return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "expected either order and shape, or offset bases");
        }
        if (have == 3) { /* the short form is the identity: order[0]'s bits lowest */
            int b = 0;
            for (k = 0; k < a->rank; k++) {
                int dim = a->order[k], nb = layout_log2_floor(a->shape[dim]);
                for (j = 0; j < nb; j++, b++) {
                    if (b >= 64) return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_CAPACITY, "more than 64 offset bits");
                    a->offset_dim[b] = dim;
                    a->offset_bit[b] = j;
                }
            }
            a->n_offset_bits = b;
        }
    }
    return layout_tx_expect(c, '>', "'>'");
}

layout_status layout_triton_from_text(const char *text, layout_triton_attr *out, size_t *where, layout_error *err)
{
    text_cursor c;
    layout_triton_attr *a;
    static const layout_triton_attr zero_attr;
    layout_triton_attr tmp;
    int st;
    if (!text) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": text is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": out is NULL");
    tmp = zero_attr;
    a = &tmp;
    layout_tx_init(&c, text, FN_PARSE, err, where);
    layout_dx_skip_blank(&c);
    if (layout_dx_accept_raw(&c, "#ttg.swizzled_shared")) {
        a->kind = LAYOUT_TRITON_SWIZZLED_SHARED;
        if (parse_swizzled(&c, a, "swizzled_shared")) return c.status;
    } else if (layout_dx_accept_raw(&c, "#ttg.amd_rotating_shared")) {
        a->kind = LAYOUT_TRITON_AMD_ROTATING_SHARED;
        if (parse_swizzled(&c, a, "amd_rotating_shared")) return c.status;
    } else if (layout_dx_accept_raw(&c, "#ttg.nvmma_shared")) {
        a->kind = LAYOUT_TRITON_NVMMA_SHARED;
        if (parse_nvmma(&c, a)) return c.status;
    } else if (layout_dx_accept_raw(&c, "#ttg.padded_shared")) {
        a->kind = LAYOUT_TRITON_PADDED_SHARED;
        if (parse_padded(&c, a)) return c.status;
    } else if (layout_dx_accept_raw(&c, "#ttg.blocked")) {
        a->kind = LAYOUT_TRITON_BLOCKED;
        if (layout_triton_read_blocked(&c, a)) return c.status;
    } else if ((st = layout_triton_read_mma(&c, a)) != LAYOUT_TRITON_NO_MMA) {
        if (st) return st;
    } else if (layout_dx_accept_raw(&c, "#ttg.shared_linear")) {
        a->kind = LAYOUT_TRITON_LINEAR;
        a->shared_linear = 1;
        a->alignment = 16;
        if (layout_tx_expect(&c, '<', "'<'") || layout_triton_read_linear(&c, a, 1)) return c.status;
        if (layout_linear_in_dim(&a->linear, "offset") < 0)
            return layout_tx_fail_at(&c, c.pos, LAYOUT_ERR_ARG, "shared_linear needs 'offset' bases");
        if (layout_tx_accept(&c, ',')) {
            size_t at;
            if (layout_dx_expect_ident(&c, "alignment", "'alignment'") || layout_tx_expect(&c, '=', "'=' after alignment")) return c.status;
            layout_tx_skip(&c);
            at = c.pos;
            if (layout_tx_int(&c, &a->alignment, "the alignment")) return c.status;
            if (!layout_is_pow2(a->alignment) || a->alignment > ((int64_t)1 << LAYOUT_TRITON_MAX_ALIGNMENT_LOG2))
                return layout_tx_fail_at(&c, at, LAYOUT_ERR_ARG, "alignment %lld is not a power of two in 1..2^%d",
                                  (long long)a->alignment, LAYOUT_TRITON_MAX_ALIGNMENT_LOG2);
        }
        if (layout_tx_expect(&c, '>', "'>'")) return c.status;
    } else if (layout_dx_accept_raw(&c, "#ttg.linear")) {
        a->kind = LAYOUT_TRITON_LINEAR;
        if (layout_tx_expect(&c, '<', "'<'") || layout_triton_read_linear(&c, a, 1) || layout_tx_expect(&c, '>', "'>'")) return c.status;
    } else if (c.text[c.pos] == '{') {
        a->kind = LAYOUT_TRITON_LINEAR;
        if (layout_triton_read_linear(&c, a, 0)) return c.status;
    } else {
        return layout_tx_expected(&c, c.pos,
                           "'#ttg.swizzled_shared', '#ttg.padded_shared', '#ttg.amd_rotating_shared', "
                           "'#ttg.nvmma_shared', '#ttg.blocked', '#ttg.linear', '#ttg.amd_mfma', '#ttg.amd_wmma', "
                           "'#ttg.nvidia_mma', '#ttg.dot_op', '#ttg.slice' or '{' (bases)");
    }
    if (layout_tx_expect_end(&c)) return c.status;
    *out = tmp;
    return layout_ok(err);
}
