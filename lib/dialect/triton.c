/* Triton's TritonGPU layout attributes (triton.h).
 *
 *   attr    := '#ttg.swizzled_shared' '<' dict '>'
 *            | '#ttg.padded_shared' '<' '[' pair {',' pair} ']' [dict] '>'
 *            | '#ttg.blocked' '<' dict '>'
 *            | '#ttg.linear' '<' dict '>'
 *            | dict [',' dict]                      (from_bases: bases, then out sizes)
 *   dict    := '{' [ key ('=' | ':') value { ',' key ('=' | ':') value } ] '}'
 *   pair    := int ':' '+' int
 *   value   := int | '[' ... ']' (ints or lists of ints)
 *   key     := identifier | '"' identifier '"' | "'" identifier "'"
 *
 * '#' starts the attribute (not a comment) so the prefix is matched raw. */
#include "dialect_internal.h"
#include "layout/family.h"
#include "layout/linear.h"
#include "layout/triton.h"

#include <stdio.h>
#include <string.h>

/* The padded_shared pairs the reader accepts (and so the recogniser
 * proposes): intervals up to 2^40, paddings up to 2^20 elements.  fuzz_dialect
 * found an export of [1:+2^42] that did not read back. */
#define TX_MAX_INTERVAL_LOG2 40
#define TX_MAX_PAD_LOG2 20
#define TX_MAX_INTERVAL ((int64_t)1 << TX_MAX_INTERVAL_LOG2)
#define TX_MAX_PAD ((int64_t)1 << TX_MAX_PAD_LOG2)
#define FN_PARSE "layout_triton_from_text"
#define MAX_BASES 64

/* ---------------------------------------------------------------- lexing */

static layout_status parse_key(text_cursor *c, char *buf, size_t cap, size_t *at, const char *what)
{
    char q;
    tx_skip(c);
    *at = c->pos;
    q = c->text[c->pos];
    if (q == '"' || q == '\'') {
        size_t n = 0;
        c->pos++;
        while (c->text[c->pos] != q) {
            char ch = c->text[c->pos];
            if (ch == '\0' || ch == '\n') return tx_expected(c, c->pos, "a closing quote");
            if (n + 1 >= cap) return tx_fail_at(c, *at, LAYOUT_ERR_PARSE, "name too long (%s)", what);
            buf[n++] = ch;
            c->pos++;
        }
        c->pos++;
        buf[n] = '\0';
        if (n == 0) return tx_fail_at(c, *at, LAYOUT_ERR_PARSE, "empty name (%s)", what);
        return LAYOUT_OK;
    }
    return tx_ident(c, buf, cap, at, what);
}

/* '[' '[' ints ']' { ',' '[' ints ']' } ']' with every row `*width` wide
 * (*width < 0: set by the first row).  Rows appended to vals. */
static layout_status parse_bases(text_cursor *c, int64_t *vals, int max_rows, int *width, int *rows,
                                 size_t *row_at, const char *what)
{
    int n = 0;
    if (tx_expect(c, '[', what)) return c->status;
    if (!tx_accept(c, ']')) {
        for (;;) {
            int64_t row[LAYOUT_MAX_DIMS];
            int w, k;
            size_t at;
            tx_skip(c);
            at = c->pos;
            if (n >= max_rows) return tx_fail_at(c, at, LAYOUT_ERR_CAPACITY, "more than %d bases", max_rows);
            if (tx_int_list(c, row, LAYOUT_MAX_DIMS, &w, "'[' starting a basis vector")) return c->status;
            if (*width < 0) *width = w;
            if (w != *width || w == 0)
                return tx_fail_at(c, at, LAYOUT_ERR_MISMATCH, "basis has %d values, expected %d (one per output dim)",
                                  w, *width < 1 ? 1 : *width);
            for (k = 0; k < w; k++) vals[n * LAYOUT_MAX_DIMS + k] = row[k];
            if (row_at) row_at[n] = at;
            n++;
            if (tx_accept(c, ']')) break;
            if (tx_expect(c, ',', "',' or ']' between bases")) return c->status;
        }
    }
    *rows = n;
    return LAYOUT_OK;
}

static layout_status expect_sep(text_cursor *c)
{
    if (tx_accept(c, '=') || tx_accept(c, ':')) return LAYOUT_OK;
    return tx_expected(c, c->pos, "'=' after the field name");
}

/* A list of ints all powers of two. */
static layout_status pow2_list(text_cursor *c, int64_t *out, int *n, const char *name)
{
    size_t at;
    int k;
    tx_skip(c);
    at = c->pos;
    if (tx_int_list(c, out, LAYOUT_MAX_DIMS, n, name)) return c->status;
    for (k = 0; k < *n; k++)
        if (!dx_is_pow2(out[k]))
            return tx_fail_at(c, at, LAYOUT_ERR_ARG, "%s[%d] = %lld is not a power of two", name, k,
                              (long long)out[k]);
    return LAYOUT_OK;
}

static layout_status order_list(text_cursor *c, int *order, int *n)
{
    int64_t v[LAYOUT_MAX_DIMS];
    int k, seen = 0;
    size_t at;
    tx_skip(c);
    at = c->pos;
    if (tx_int_list(c, v, LAYOUT_MAX_DIMS, n, "order")) return c->status;
    for (k = 0; k < *n; k++) {
        if (v[k] < 0 || v[k] >= *n || (seen >> v[k]) & 1)
            return tx_fail_at(c, at, LAYOUT_ERR_ARG, "order is not a permutation of 0..%d", *n - 1);
        seen |= 1 << v[k];
        order[k] = (int)v[k];
    }
    if (*n == 0) return tx_fail_at(c, at, LAYOUT_ERR_ARG, "order is empty");
    return LAYOUT_OK;
}

/* CTAsPerCGA / CTASplitNum / CTAOrder of older printers: single-CTA only. */
static layout_status cga_field(text_cursor *c, const char *key, size_t at)
{
    int64_t v[LAYOUT_MAX_DIMS];
    int n, k;
    if (tx_int_list(c, v, LAYOUT_MAX_DIMS, &n, key)) return c->status;
    if (strcmp(key, "CTAOrder") != 0)
        for (k = 0; k < n; k++)
            if (v[k] != 1)
                return tx_fail_at(c, at, LAYOUT_ERR_UNSUPPORTED, "%s: only one CTA is supported (all 1)", key);
    return LAYOUT_OK;
}

/* ---------------------------------------------------------------- attributes */

static layout_status parse_swizzled(text_cursor *c, layout_triton_attr *a)
{
    int have = 0, n;
    if (tx_expect(c, '<', "'<'") || tx_expect(c, '{', "'{'")) return c->status;
    for (;;) {
        char key[32];
        size_t at;
        if (parse_key(c, key, sizeof key, &at, "a field (vec, perPhase, maxPhase, order)") || expect_sep(c))
            return c->status;
        if (strcmp(key, "vec") == 0 || strcmp(key, "perPhase") == 0 || strcmp(key, "maxPhase") == 0) {
            int64_t v;
            size_t vat;
            tx_skip(c);
            vat = c->pos;
            if (tx_int(c, &v, key)) return c->status;
            if (!dx_is_pow2(v) || v > ((int64_t)1 << 30))
                return tx_fail_at(c, vat, LAYOUT_ERR_ARG, "%s = %lld is not a power of two", key, (long long)v);
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
            if (order_list(c, a->order, &n)) return c->status;
            a->rank = n;
            have |= 8;
        } else if (strcmp(key, "CTAsPerCGA") == 0 || strcmp(key, "CTASplitNum") == 0 || strcmp(key, "CTAOrder") == 0) {
            if (cga_field(c, key, at)) return c->status;
        } else {
            return tx_fail_at(c, at, LAYOUT_ERR_PARSE, "unknown field '%s' (swizzled_shared has vec, perPhase, "
                                                       "maxPhase, order)", key);
        }
        if (tx_accept(c, '}')) break;
        if (tx_expect(c, ',', "',' or '}'")) return c->status;
    }
    if (have != 15) {
        static const char *const names[4] = {"vec", "perPhase", "maxPhase", "order"};
        int k;
        for (k = 0; k < 4; k++)
            if (!((have >> k) & 1)) return tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "missing field '%s'", names[k]);
    }
    if (a->rank != 2)
        return tx_fail_at(c, c->pos - 1, LAYOUT_ERR_UNSUPPORTED, "swizzled_shared of rank %d: liblayout supports 2-D",
                          a->rank);
    return tx_expect(c, '>', "'>'");
}

static layout_status parse_blocked(text_cursor *c, layout_triton_attr *a)
{
    int have = 0, n[4] = {0, 0, 0, 0}, k;
    size_t first_at = c->pos;
    if (tx_expect(c, '<', "'<'") || tx_expect(c, '{', "'{'")) return c->status;
    for (;;) {
        char key[32];
        size_t at;
        if (parse_key(c, key, sizeof key, &at, "a field (sizePerThread, threadsPerWarp, warpsPerCTA, order)") ||
            expect_sep(c))
            return c->status;
        if (strcmp(key, "sizePerThread") == 0) {
            if (pow2_list(c, a->size_per_thread, &n[0], key)) return c->status;
            have |= 1;
        } else if (strcmp(key, "threadsPerWarp") == 0) {
            if (pow2_list(c, a->threads_per_warp, &n[1], key)) return c->status;
            have |= 2;
        } else if (strcmp(key, "warpsPerCTA") == 0) {
            if (pow2_list(c, a->warps_per_cta, &n[2], key)) return c->status;
            have |= 4;
        } else if (strcmp(key, "order") == 0) {
            if (order_list(c, a->order, &n[3])) return c->status;
            have |= 8;
        } else if (strcmp(key, "CTAsPerCGA") == 0 || strcmp(key, "CTASplitNum") == 0 || strcmp(key, "CTAOrder") == 0) {
            if (cga_field(c, key, at)) return c->status;
        } else {
            return tx_fail_at(c, at, LAYOUT_ERR_PARSE,
                              "unknown field '%s' (blocked has sizePerThread, threadsPerWarp, warpsPerCTA, order)", key);
        }
        if (tx_accept(c, '}')) break;
        if (tx_expect(c, ',', "',' or '}'")) return c->status;
    }
    if (have != 15) {
        static const char *const names[4] = {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"};
        for (k = 0; k < 4; k++)
            if (!((have >> k) & 1)) return tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "missing field '%s'", names[k]);
    }
    for (k = 1; k < 4; k++)
        if (n[k] != n[0])
            return tx_fail_at(c, first_at, LAYOUT_ERR_MISMATCH,
                              "sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same length (%d, %d, "
                              "%d, %d)",
                              n[0], n[1], n[2], n[3]);
    a->rank = n[0];
    return tx_expect(c, '>', "'>'");
}

/* Long-form offset bases: each a single coordinate bit. */
static layout_status offset_bases(text_cursor *c, layout_triton_attr *a, const int64_t *vals, int rows, int width,
                                  const size_t *row_at)
{
    int b, j, nbits[LAYOUT_MAX_DIMS] = {0};
    uint64_t seen[LAYOUT_MAX_DIMS] = {0};
    a->rank = width;
    for (b = 0; b < rows; b++) {
        int dim = -1, bit = 0;
        for (j = 0; j < width; j++) {
            int64_t v = vals[b * LAYOUT_MAX_DIMS + j];
            if (v == 0) continue;
            if (dim >= 0 || !dx_is_pow2(v))
                return tx_fail_at(c, row_at[b], LAYOUT_ERR_UNSUPPORTED,
                                  "offset basis %d is not a single coordinate bit (liblayout supports bit permutations "
                                  "as the linear component)",
                                  b);
            dim = j;
            bit = dx_log2(v);
        }
        if (dim < 0)
            return tx_fail_at(c, row_at[b], LAYOUT_ERR_UNSUPPORTED, "offset basis %d is zero (a broadcast)", b);
        if (bit >= 62 || (seen[dim] >> bit) & 1)
            return tx_fail_at(c, row_at[b], LAYOUT_ERR_ARG, "offset basis %d repeats bit %d of dim %d", b, bit, dim);
        seen[dim] |= (uint64_t)1 << bit;
        nbits[dim]++;
        a->offset_dim[b] = dim;
        a->offset_bit[b] = bit;
    }
    for (j = 0; j < width; j++) {
        if (seen[j] != (nbits[j] == 64 ? ~(uint64_t)0 : (((uint64_t)1 << nbits[j]) - 1)))
            return tx_fail_at(c, row_at[0], LAYOUT_ERR_ARG, "the offset bases of dim %d skip a bit (not a permutation)",
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
    if (tx_expect(c, '<', "'<'") || tx_expect(c, '[', "'[' starting the interval:+pad list")) return c->status;
    for (;;) {
        int64_t iv, pd;
        size_t at_i, at_p;
        tx_skip(c);
        at_i = c->pos;
        if (a->n_pads >= LAYOUT_TRITON_MAX_PADS)
            return tx_fail_at(c, at_i, LAYOUT_ERR_CAPACITY, "more than %d interval:+pad pairs", LAYOUT_TRITON_MAX_PADS);
        if (tx_int(c, &iv, "an interval") || tx_expect(c, ':', "':' after the interval") ||
            tx_expect(c, '+', "'+' before the padding"))
            return c->status;
        tx_skip(c);
        at_p = c->pos;
        if (tx_int(c, &pd, "a padding")) return c->status;
        if (!dx_is_pow2(iv) || iv > TX_MAX_INTERVAL)
            return tx_fail_at(c, at_i, LAYOUT_ERR_ARG, "interval %lld is not a power of two in 1..2^%d", (long long)iv,
                              TX_MAX_INTERVAL_LOG2);
        if (!dx_is_pow2(pd) || pd > TX_MAX_PAD)
            return tx_fail_at(c, at_p, LAYOUT_ERR_ARG, "padding %lld is not a power of two in 1..2^%d", (long long)pd,
                              TX_MAX_PAD_LOG2);
        for (k = 0; k < a->n_pads; k++)
            if (a->interval[k] == iv)
                return tx_fail_at(c, at_i, LAYOUT_ERR_ARG, "interval %lld appears twice", (long long)iv);
        a->interval[a->n_pads] = iv;
        a->pad[a->n_pads] = pd;
        a->n_pads++;
        if (tx_accept(c, ']')) break;
        if (tx_expect(c, ',', "',' or ']'")) return c->status;
    }
    if (tx_accept(c, '{')) {
        int have = 0, n_shape = 0;
        for (;;) {
            char key[32];
            size_t at;
            if (parse_key(c, key, sizeof key, &at, "a field (order, shape, offset, block)") || expect_sep(c))
                return c->status;
            if (strcmp(key, "order") == 0) {
                if (order_list(c, a->order, &a->rank)) return c->status;
                have |= 1;
            } else if (strcmp(key, "shape") == 0) {
                if (pow2_list(c, a->shape, &n_shape, key)) return c->status;
                have |= 2;
            } else if (strcmp(key, "offset") == 0) {
                int64_t vals[MAX_BASES * LAYOUT_MAX_DIMS];
                size_t row_at[MAX_BASES];
                int rows, width = -1;
                if (parse_bases(c, vals, MAX_BASES, &width, &rows, row_at, "'[' starting the offset bases"))
                    return c->status;
                if (rows == 0) return tx_fail_at(c, at, LAYOUT_ERR_ARG, "no offset bases");
                if (offset_bases(c, a, vals, rows, width, row_at)) return c->status;
                have |= 4;
            } else if (strcmp(key, "block") == 0) {
                int64_t vals[MAX_BASES * LAYOUT_MAX_DIMS];
                int rows, width = -1;
                if (parse_bases(c, vals, MAX_BASES, &width, &rows, NULL, "'[' starting the block bases"))
                    return c->status;
                if (rows) return tx_fail_at(c, at, LAYOUT_ERR_UNSUPPORTED, "block bases: only one CTA is supported");
            } else {
                return tx_fail_at(c, at, LAYOUT_ERR_PARSE, "unknown field '%s' (padded_shared has order and shape, or "
                                                           "offset and block)", key);
            }
            if (tx_accept(c, '}')) break;
            if (tx_expect(c, ',', "',' or '}'")) return c->status;
        }
        if (have == 3) {
            if (n_shape != a->rank)
                return tx_fail_at(c, c->pos - 1, LAYOUT_ERR_MISMATCH, "order has %d entries, shape %d", a->rank,
                                  n_shape);
            a->has_shape = 1;
        } else if (have != 4) {
            return tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "expected either order and shape, or offset bases");
        }
        if (have == 3) { /* the short form is the identity: order[0]'s bits lowest */
            int b = 0;
            for (k = 0; k < a->rank; k++) {
                int dim = a->order[k], nb = dx_log2(a->shape[dim]);
                for (j = 0; j < nb; j++, b++) {
                    if (b >= 64) return tx_fail_at(c, c->pos - 1, LAYOUT_ERR_CAPACITY, "more than 64 offset bits");
                    a->offset_dim[b] = dim;
                    a->offset_bit[b] = j;
                }
            }
            a->n_offset_bits = b;
        }
    }
    return tx_expect(c, '>', "'>'");
}

/* Linear bases: '{' name ('='|':') bases {',' ...} '}' [',' '{' "dimK" ':' size ... '}'] */
static layout_status parse_linear(text_cursor *c, layout_triton_attr *a, int attr_form)
{
    static const int64_t zero = 0;
    char names[LAYOUT_LINEAR_MAX_DIMS][LAYOUT_LINEAR_NAME_CAP];
    const char *in_names[LAYOUT_LINEAR_MAX_DIMS];
    char onames[LAYOUT_LINEAR_MAX_DIMS][LAYOUT_LINEAR_NAME_CAP];
    const char *out_names[LAYOUT_LINEAR_MAX_DIMS];
    int in_bits[LAYOUT_LINEAR_MAX_DIMS], out_bits[LAYOUT_LINEAR_MAX_DIMS], have_sizes = 0;
    int64_t vals[MAX_BASES * LAYOUT_MAX_DIMS], flat[MAX_BASES * LAYOUT_MAX_DIMS];
    int n_in = 0, width = -1, total = 0, k, j;
    size_t start = c->pos;
    layout_error lerr;
    if (tx_expect(c, '{', "'{'")) return c->status;
    if (!tx_accept(c, '}')) {
        for (;;) {
            int rows;
            size_t at;
            if (parse_key(c, names[n_in], LAYOUT_LINEAR_NAME_CAP, &at, "an input dim name") || expect_sep(c))
                return c->status;
            for (k = 0; k < n_in; k++)
                if (strcmp(names[k], names[n_in]) == 0)
                    return tx_fail_at(c, at, LAYOUT_ERR_ARG, "input dim '%s' appears twice", names[n_in]);
            if (parse_bases(c, vals + (size_t)total * LAYOUT_MAX_DIMS, MAX_BASES - total, &width, &rows, NULL,
                            "'[' starting the bases"))
                return c->status;
            in_names[n_in] = names[n_in];
            in_bits[n_in] = rows;
            total += rows;
            n_in++;
            if (tx_accept(c, '}')) break;
            if (tx_expect(c, ',', "',' or '}'")) return c->status;
            tx_skip(c);
            if (n_in >= LAYOUT_LINEAR_MAX_DIMS)
                return tx_fail_at(c, c->pos, LAYOUT_ERR_CAPACITY, "more than %d input dims", LAYOUT_LINEAR_MAX_DIMS);
        }
    }
    if (!attr_form && tx_accept(c, ',')) {
        /* The output dims: names in order, with their sizes. */
        int n_out = 0;
        if (tx_expect(c, '{', "'{' starting the output sizes")) return c->status;
        for (;;) {
            size_t at, vat;
            int64_t v;
            if (n_out >= LAYOUT_LINEAR_MAX_DIMS)
                return tx_fail_at(c, c->pos, LAYOUT_ERR_CAPACITY, "more than %d output dims", LAYOUT_LINEAR_MAX_DIMS);
            if (parse_key(c, onames[n_out], LAYOUT_LINEAR_NAME_CAP, &at, "an output dim name") || expect_sep(c))
                return c->status;
            for (j = 0; j < n_out; j++)
                if (strcmp(onames[j], onames[n_out]) == 0)
                    return tx_fail_at(c, at, LAYOUT_ERR_ARG, "output dim '%s' repeats", onames[n_out]);
            tx_skip(c);
            vat = c->pos;
            if (tx_int(c, &v, "an output size")) return c->status;
            if (!dx_is_pow2(v) || v > ((int64_t)1 << LAYOUT_LINEAR_MAX_DIM_BITS))
                return tx_fail_at(c, vat, LAYOUT_ERR_ARG, "output size %lld is not a power of two in 1..2^%d",
                                  (long long)v, LAYOUT_LINEAR_MAX_DIM_BITS);
            out_bits[n_out] = dx_log2(v);
            out_names[n_out] = onames[n_out];
            n_out++;
            if (tx_accept(c, '}')) break;
            if (tx_expect(c, ',', "',' or '}'")) return c->status;
        }
        if (width >= 0 && width != n_out)
            return tx_fail_at(c, c->pos - 1, LAYOUT_ERR_MISMATCH, "%d output sizes for bases of %d values", n_out, width);
        width = n_out;
        have_sizes = 1;
    } else {
        if (width < 1) width = 1;
        for (j = 0; j < width; j++) {
            snprintf(onames[j], sizeof onames[j], "dim%d", j);
            out_names[j] = onames[j];
        }
    }
    for (k = 0; k < total; k++)
        for (j = 0; j < width; j++) {
            int64_t v = vals[k * LAYOUT_MAX_DIMS + j];
            if (v < 0) return tx_fail_at(c, start, LAYOUT_ERR_ARG, "basis value %lld is negative", (long long)v);
            flat[k * width + j] = v;
        }
    if (layout_linear_from_bases(&a->linear, n_in, in_names, in_bits, total ? flat : &zero, width, out_names,
                                 have_sizes ? out_bits : NULL, &lerr))
        return tx_lib_fail(c, start, &lerr);
    a->rank = width;
    return LAYOUT_OK;
}

layout_status layout_triton_from_text(const char *text, layout_triton_attr *out, size_t *where, layout_error *err)
{
    text_cursor c;
    layout_triton_attr *a;
    static const layout_triton_attr zero_attr;
    layout_triton_attr tmp;
    if (!text) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": text is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": out is NULL");
    tmp = zero_attr;
    a = &tmp;
    tx_init(&c, text, FN_PARSE, err, where);
    dx_skip_blank(&c);
    if (dx_accept_raw(&c, "#ttg.swizzled_shared")) {
        a->kind = LAYOUT_TRITON_SWIZZLED_SHARED;
        if (parse_swizzled(&c, a)) return c.status;
    } else if (dx_accept_raw(&c, "#ttg.padded_shared")) {
        a->kind = LAYOUT_TRITON_PADDED_SHARED;
        if (parse_padded(&c, a)) return c.status;
    } else if (dx_accept_raw(&c, "#ttg.blocked")) {
        a->kind = LAYOUT_TRITON_BLOCKED;
        if (parse_blocked(&c, a)) return c.status;
    } else if (dx_accept_raw(&c, "#ttg.shared_linear")) {
        a->kind = LAYOUT_TRITON_LINEAR;
        a->shared_linear = 1;
        a->alignment = 16;
        if (tx_expect(&c, '<', "'<'") || parse_linear(&c, a, 1)) return c.status;
        if (layout_linear_in_dim(&a->linear, "offset") < 0)
            return tx_fail_at(&c, c.pos, LAYOUT_ERR_ARG, "shared_linear needs 'offset' bases");
        if (tx_accept(&c, ',')) {
            size_t at;
            if (dx_expect_ident(&c, "alignment", "'alignment'") || tx_expect(&c, '=', "'=' after alignment")) return c.status;
            tx_skip(&c);
            at = c.pos;
            if (tx_int(&c, &a->alignment, "the alignment")) return c.status;
            if (!dx_is_pow2(a->alignment) || a->alignment > ((int64_t)1 << 20))
                return tx_fail_at(&c, at, LAYOUT_ERR_ARG, "alignment %lld is not a power of two",
                                  (long long)a->alignment);
        }
        if (tx_expect(&c, '>', "'>'")) return c.status;
    } else if (dx_accept_raw(&c, "#ttg.linear")) {
        a->kind = LAYOUT_TRITON_LINEAR;
        if (tx_expect(&c, '<', "'<'") || parse_linear(&c, a, 1) || tx_expect(&c, '>', "'>'")) return c.status;
    } else if (c.text[c.pos] == '{') {
        a->kind = LAYOUT_TRITON_LINEAR;
        if (parse_linear(&c, a, 0)) return c.status;
    } else {
        return tx_expected(&c, c.pos,
                           "'#ttg.swizzled_shared', '#ttg.padded_shared', '#ttg.blocked', '#ttg.linear' or '{' (bases)");
    }
    if (tx_expect_end(&c)) return c.status;
    *out = tmp;
    return layout_ok(err);
}

/* ---------------------------------------------------------------- printing */

static void put_list(text_out *o, const int64_t *v, int n)
{
    int k;
    to_str(o, "[");
    for (k = 0; k < n; k++) to_printf(o, k ? ", %lld" : "%lld", (long long)v[k]);
    to_str(o, "]");
}

static void put_order(text_out *o, const int *order, int n)
{
    int k;
    to_str(o, "[");
    for (k = 0; k < n; k++) to_printf(o, k ? ", %d" : "%d", order[k]);
    to_str(o, "]");
}

/* Bases of one input dim: [[a, b], [c, d]]. */
static void put_bases(text_out *o, const layout_linear *ll, int in)
{
    int b, j;
    to_str(o, "[");
    for (b = 0; b < ll->in_bits[in]; b++) {
        int64_t v[LAYOUT_LINEAR_MAX_DIMS];
        layout_linear_get_basis(ll, in, b, v, NULL);
        to_str(o, b ? ", [" : "[");
        for (j = 0; j < ll->n_out; j++) to_printf(o, j ? ", %lld" : "%lld", (long long)v[j]);
        to_str(o, "]");
    }
    to_str(o, "]");
}

static int is_dist_linear(const layout_linear *ll)
{
    int k;
    for (k = 0; k < ll->n_in; k++)
        if (strcmp(ll->in_names[k], "register") && strcmp(ll->in_names[k], "lane") && strcmp(ll->in_names[k], "warp") &&
            strcmp(ll->in_names[k], "block"))
            return 0;
    return ll->n_in > 0;
}

static int print_linear(text_out *o, const void *obj)
{
    const layout_linear *ll = (const layout_linear *)obj;
    int k, j;
    if (is_dist_linear(ll)) {
        static const char *const order[4] = {"register", "lane", "warp", "block"};
        to_str(o, "#ttg.linear<{");
        for (k = 0; k < 4; k++) {
            int in = layout_linear_in_dim(ll, order[k]);
            to_printf(o, "%s%s = ", k ? ", " : "", order[k]);
            if (in < 0)
                to_str(o, "[]");
            else
                put_bases(o, ll, in);
        }
        to_str(o, "}>");
        return 0;
    }
    to_str(o, "{");
    for (k = 0; k < ll->n_in; k++) {
        to_printf(o, "%s\"%s\": ", k ? ", " : "", ll->in_names[k]);
        put_bases(o, ll, k);
    }
    to_str(o, "}, {");
    for (j = 0; j < ll->n_out; j++)
        to_printf(o, "%s\"%s\": %lld", j ? ", " : "", ll->out_names[j], (long long)((int64_t)1 << ll->out_bits[j]));
    to_str(o, "}");
    return 0;
}

static int print_attr(text_out *o, const void *obj)
{
    const layout_triton_attr *a = (const layout_triton_attr *)obj;
    int k;
    switch (a->kind) {
    case LAYOUT_TRITON_SWIZZLED_SHARED:
        to_printf(o, "#ttg.swizzled_shared<{vec = %lld, perPhase = %lld, maxPhase = %lld, order = ", (long long)a->vec,
                  (long long)a->per_phase, (long long)a->max_phase);
        put_order(o, a->order, a->rank);
        to_str(o, "}>");
        return 0;
    case LAYOUT_TRITON_PADDED_SHARED: {
        int identity = 1, b = 0;
        for (k = 0; k < a->rank && identity; k++) {
            int dim = a->order[k], j, nb = dx_log2(a->shape[dim]);
            for (j = 0; j < nb; j++, b++)
                if (b >= a->n_offset_bits || a->offset_dim[b] != dim || a->offset_bit[b] != j) identity = 0;
        }
        if (b != a->n_offset_bits || a->rank == 0) identity = 0;
        to_str(o, "#ttg.padded_shared<[");
        for (k = 0; k < a->n_pads; k++)
            to_printf(o, "%s%lld:+%lld", k ? ", " : "", (long long)a->interval[k], (long long)a->pad[k]);
        if (a->rank == 0 && a->n_offset_bits == 0) { /* the brace-less form: the order comes with --shape */
            to_str(o, "]>");
            return 0;
        }
        if (identity) {
            to_str(o, "] {order = ");
            put_order(o, a->order, a->rank);
            to_str(o, ", shape = ");
            put_list(o, a->shape, a->rank);
            to_str(o, "}>");
        } else {
            to_str(o, "] {offset = [");
            for (b = 0; b < a->n_offset_bits; b++) {
                to_str(o, b ? ", [" : "[");
                for (k = 0; k < a->rank; k++)
                    to_printf(o, k ? ", %lld" : "%lld",
                              (long long)(a->offset_dim[b] == k ? (int64_t)1 << a->offset_bit[b] : 0));
                to_str(o, "]");
            }
            to_str(o, "], block = []}>");
        }
        return 0;
    }
    case LAYOUT_TRITON_BLOCKED:
        to_str(o, "#ttg.blocked<{sizePerThread = ");
        put_list(o, a->size_per_thread, a->rank);
        to_str(o, ", threadsPerWarp = ");
        put_list(o, a->threads_per_warp, a->rank);
        to_str(o, ", warpsPerCTA = ");
        put_list(o, a->warps_per_cta, a->rank);
        to_str(o, ", order = ");
        put_order(o, a->order, a->rank);
        to_str(o, "}>");
        return 0;
    default:
        if (a->shared_linear) {
            const layout_linear *ll = &a->linear;
            int in = layout_linear_in_dim(ll, "offset"), blk = layout_linear_in_dim(ll, "block");
            to_str(o, "#ttg.shared_linear<{offset = ");
            if (in >= 0)
                put_bases(o, ll, in);
            else
                to_str(o, "[]");
            to_str(o, ", block = ");
            if (blk >= 0)
                put_bases(o, ll, blk);
            else
                to_str(o, "[]");
            to_printf(o, "}, alignment = %lld>", (long long)a->alignment);
            return 0;
        }
        return print_linear(o, &a->linear);
    }
}

layout_status layout_triton_to_text(const layout_triton_attr *a, char *buf, size_t cap, layout_error *err)
{
    if (!a || !buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_to_text: NULL argument");
    return to_render(print_attr, a, buf, cap, "layout_triton_to_text", "", err);
}

layout_status layout_linear_to_triton_text(const layout_linear *ll, char *buf, size_t cap, layout_error *err)
{
    if (!ll || !buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_linear_to_triton_text: NULL argument");
    return to_render(print_linear, ll, buf, cap, "layout_linear_to_triton_text", "", err);
}


/* The same layout without its `block` input dim, which must have no bits
 * (one CTA); a non-empty one is not supported. */
static layout_status drop_empty_block(const layout_linear *ll, layout_linear *out, layout_error *err)
{
    const char *names[LAYOUT_LINEAR_MAX_DIMS], *outs[LAYOUT_LINEAR_MAX_DIMS];
    int bits[LAYOUT_LINEAR_MAX_DIMS], obits[LAYOUT_LINEAR_MAX_DIMS], n = 0, k, b, j, nb = 0;
    int64_t flat[LAYOUT_LINEAR_MAX_BITS * LAYOUT_LINEAR_MAX_DIMS + 1];
    int blk = layout_linear_in_dim(ll, "block");
    if (ll->in_bits[blk] > 0)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "layout_triton: block bases (several CTAs) are not supported");
    for (k = 0; k < ll->n_in; k++) {
        if (k == blk) continue;
        names[n] = ll->in_names[k];
        bits[n++] = ll->in_bits[k];
        for (b = 0; b < ll->in_bits[k]; b++) {
            layout_linear_get_basis(ll, k, b, flat + nb * ll->n_out, NULL);
            nb++;
        }
    }
    for (j = 0; j < ll->n_out; j++) {
        outs[j] = ll->out_names[j];
        obits[j] = ll->out_bits[j];
    }
    return layout_linear_from_bases(out, n, names, bits, flat, ll->n_out, outs, obits, err);
}

/* ---------------------------------------------------------------- descriptors */

/* padded_shared: offset bit b of i holds coordinate bit (offset_dim[b], offset_bit[b]). */
static layout_status padded_to_desc(const layout_triton_attr *a, layout_descriptor *out, layout_error *err)
{
    int64_t len[LAYOUT_MAX_DIMS], str[LAYOUT_MAX_DIMS];
    int run_dim[LAYOUT_MAX_DIMS], run_bit[LAYOUT_MAX_DIMS], n_runs = 0, b, k, j;
    layout_descriptor d;
    layout_status st;
    dx_stage s;
    for (b = 0; b < a->n_offset_bits;) {
        int start = b, boundary;
        int64_t place = (int64_t)1 << b, stride = place;
        for (k = 0; k < a->n_pads; k++)
            if (a->interval[k] <= place) stride += (place / a->interval[k]) * a->pad[k];
        b++;
        for (;;) {
            if (b >= a->n_offset_bits || a->offset_dim[b] != a->offset_dim[start] ||
                a->offset_bit[b] != a->offset_bit[start] + (b - start))
                break;
            boundary = 0;
            for (k = 0; k < a->n_pads; k++)
                if (a->interval[k] == ((int64_t)1 << b)) boundary = 1;
            if (boundary) break;
            b++;
        }
        if (n_runs >= LAYOUT_MAX_DIMS)
            return layout_fail(err, LAYOUT_ERR_CAPACITY,
                               "layout_triton_to_desc: the padded layout needs more than %d digits", LAYOUT_MAX_DIMS);
        len[n_runs] = (int64_t)1 << (b - start);
        str[n_runs] = stride;
        run_dim[n_runs] = a->offset_dim[start];
        run_bit[n_runs] = a->offset_bit[start];
        n_runs++;
    }
    if (n_runs == 0) {
        len[0] = 1;
        str[0] = 1;
        run_dim[0] = -1;
        n_runs = 1;
    }
    if ((st = layout_naive(&d, n_runs, len, str, err))) return st;
    dx_stage_init(&s);
    for (j = 0; j < a->rank; j++) {
        int ids[LAYOUT_MAX_DIMS], n = 0;
        int64_t lens[LAYOUT_MAX_DIMS];
        layout_transform t;
        /* this dim's digits, most significant coordinate bit first */
        for (;;) {
            int best = -1;
            for (k = 0; k < n_runs; k++) {
                int used = 0, q;
                if (run_dim[k] != j) continue;
                for (q = 0; q < n; q++) used |= ids[q] == k;
                if (!used && (best < 0 || run_bit[k] > run_bit[best])) best = k;
            }
            if (best < 0) break;
            ids[n] = best;
            lens[n] = len[best];
            n++;
        }
        if (n == 0)
            st = layout_make_insert(1, &t, err);
        else if (n == 1)
            st = layout_make_pass_through(lens[0], &t, err);
        else
            st = layout_make_merge(n, lens, &t, err);
        if (st) return st;
        dx_stage_add(&s, &t, n, ids, 1, &j);
    }
    if (run_dim[0] < 0) { /* the dummy digit of a 1-element tile: consumed by a freeze */
        layout_transform t;
        int zero = 0;
        if ((st = layout_make_freeze(0, &t, err))) return st;
        dx_stage_add(&s, &t, 1, &zero, 0, NULL);
    }
    if ((st = dx_stage_apply(&d, &s, err))) return st;
    *out = d;
    return layout_ok(err);
}

static layout_status drop_empty_block(const layout_linear *ll, layout_linear *out, layout_error *err);

static layout_status linear_to_desc(const layout_linear *ll, layout_descriptor *out, layout_error *err)
{
    layout_linear inv, trimmed;
    layout_status st;
    if (layout_linear_in_dim(ll, "block") >= 0) {
        if ((st = drop_empty_block(ll, &trimmed, err))) return st;
        ll = &trimmed;
    }
    if (ll->n_in == 1 && strcmp(ll->in_names[0], "offset") == 0) {
        if ((st = layout_linear_invert(&inv, ll, err))) return st;
        return layout_linear_to_desc(&inv, out, err);
    }
    return layout_linear_to_desc(ll, out, err);
}

layout_status layout_triton_to_desc(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                    layout_descriptor *out, layout_error *err)
{
    int k;
    if (!a || !out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_to_desc: NULL argument");
    if (n_shape > 0 && !shape) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_to_desc: shape is NULL");
    switch (a->kind) {
    case LAYOUT_TRITON_SWIZZLED_SHARED: {
        layout_family_params p;
        if (n_shape != 2)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "layout_triton_to_desc: swizzled_shared needs a 2-D shape (--shape R,C); got %d values",
                               n_shape);
        memset(&p, 0, sizeof p);
        p.kind = LAYOUT_FAMILY_TRITON_SWIZZLED;
        p.contiguous_dim = a->order[0];
        p.p[0] = a->vec;
        p.p[1] = a->per_phase;
        p.p[2] = a->max_phase;
        return layout_family_build(&p, shape, out, err);
    }
    case LAYOUT_TRITON_PADDED_SHARED:
        if (!a->has_shape) {
            layout_triton_attr b = *a;
            int bit = 0;
            if (n_shape != 2)
                return layout_fail(err, LAYOUT_ERR_ARG,
                                   "layout_triton_to_desc: padded_shared without a shape needs --shape (2 values)");
            b.rank = 2;
            b.order[0] = 1;
            b.order[1] = 0;
            for (k = 0; k < 2; k++) {
                int dim = b.order[k], j;
                if (!dx_is_pow2(shape[dim]))
                    return layout_fail(err, LAYOUT_ERR_ARG, "layout_triton_to_desc: shape[%d] = %lld is not a power of two",
                                       dim, (long long)shape[dim]);
                b.shape[dim] = shape[dim];
                for (j = 0; j < dx_log2(shape[dim]); j++, bit++) {
                    b.offset_dim[bit] = dim;
                    b.offset_bit[bit] = j;
                }
            }
            b.n_offset_bits = bit;
            b.has_shape = 1;
            return padded_to_desc(&b, out, err);
        }
        if (n_shape > 0) {
            if (n_shape != a->rank)
                return layout_fail(err, LAYOUT_ERR_MISMATCH, "layout_triton_to_desc: --shape has %d values, the "
                                                             "attribute's shape %d", n_shape, a->rank);
            for (k = 0; k < n_shape; k++)
                if (shape[k] != a->shape[k])
                    return layout_fail(err, LAYOUT_ERR_MISMATCH,
                                       "layout_triton_to_desc: --shape[%d] = %lld but the attribute's shape is %lld", k,
                                       (long long)shape[k], (long long)a->shape[k]);
        }
        return padded_to_desc(a, out, err);
    case LAYOUT_TRITON_LINEAR:
        return linear_to_desc(&a->linear, out, err);
    default:
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "layout_triton_to_desc: #ttg.blocked is a distribution, not a shared-memory layout");
    }
}

layout_status layout_desc_from_triton(const char *text, int n_shape, const int64_t *shape, layout_descriptor *out,
                                      size_t *where, layout_error *err)
{
    layout_triton_attr a;
    layout_status st;
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_desc_from_triton: out is NULL");
    if ((st = layout_triton_from_text(text, &a, where, err))) return st;
    if ((st = layout_triton_to_desc(&a, n_shape, shape, out, err)) && where) *where = 0;
    return st;
}

/* ---------------------------------------------------------------- distributions */

/* One digit of dim d: H entry or (for the broadcast part) R entry. */
static layout_status blocked_to_dist(const layout_triton_attr *a, int n_shape, const int64_t *shape,
                                     layout_distribution *out, layout_error *err)
{
    layout_dist_encoding enc;
    int d, k, wave = 1, warps = 1;
    /* per dim: digit lengths (rep, warp, lane, reg) after broadcast; bcast warp / lane parts */
    int64_t rep[LAYOUT_MAX_DIMS], wh[LAYOUT_MAX_DIMS], wr[LAYOUT_MAX_DIMS], lh[LAYOUT_MAX_DIMS], lr[LAYOUT_MAX_DIMS];
    int h_rep[LAYOUT_MAX_DIMS], h_w[LAYOUT_MAX_DIMS], h_l[LAYOUT_MAX_DIMS], h_e[LAYOUT_MAX_DIMS];
    int r_w[LAYOUT_MAX_DIMS], r_l[LAYOUT_MAX_DIMS];
    if (n_shape != a->rank)
        return layout_fail(err, LAYOUT_ERR_ARG, "layout_triton_to_dist: the blocked layout has rank %d; --shape gives %d "
                                                "values", a->rank, n_shape);
    memset(&enc, 0, sizeof enc);
    for (d = 0; d < a->rank; d++) {
        int64_t cta = a->size_per_thread[d] * a->threads_per_warp[d] * a->warps_per_cta[d], k_b;
        if (!dx_is_pow2(shape[d]))
            return layout_fail(err, LAYOUT_ERR_ARG, "layout_triton_to_dist: shape[%d] = %lld is not a power of two", d,
                               (long long)shape[d]);
        wave *= (int)a->threads_per_warp[d];
        warps *= (int)a->warps_per_cta[d];
        if (wave > LAYOUT_MAX_LANES || warps > 1024)
            return layout_fail(err, LAYOUT_ERR_ARG, "layout_triton_to_dist: more than %d lanes or 1024 warps",
                               LAYOUT_MAX_LANES);
        rep[d] = shape[d] >= cta ? shape[d] / cta : 1;
        k_b = shape[d] >= cta ? 1 : cta / shape[d]; /* broadcast factor: warps first, then lanes */
        /* sizePerThread[d] <= shape[d] here: broadcast registers go through blocked_to_table(). */
        wr[d] = k_b < a->warps_per_cta[d] ? k_b : a->warps_per_cta[d];
        wh[d] = a->warps_per_cta[d] / wr[d];
        k_b /= wr[d];
        lr[d] = k_b;
        lh[d] = a->threads_per_warp[d] / lr[d];
    }
    /* R: broadcast warp parts then lane parts, dim by dim. */
    enc.n_x = a->rank;
    for (d = 0; d < a->rank; d++) {
        r_w[d] = r_l[d] = -1;
        if (wr[d] > 1) {
            r_w[d] = enc.n_r;
            enc.r[enc.n_r++] = wr[d];
        }
        if (lr[d] > 1) {
            r_l[d] = enc.n_r;
            enc.r[enc.n_r++] = lr[d];
        }
        /* H_d = [rep, warp, lane, reg], length-1 digits dropped (at least one kept) */
        h_rep[d] = h_w[d] = h_l[d] = h_e[d] = -1;
        if (rep[d] > 1) {
            h_rep[d] = enc.n_h[d];
            enc.h[d][enc.n_h[d]++] = rep[d];
        }
        if (wh[d] > 1) {
            h_w[d] = enc.n_h[d];
            enc.h[d][enc.n_h[d]++] = wh[d];
        }
        if (lh[d] > 1) {
            h_l[d] = enc.n_h[d];
            enc.h[d][enc.n_h[d]++] = lh[d];
        }
        if (a->size_per_thread[d] > 1 || enc.n_h[d] == 0) {
            h_e[d] = enc.n_h[d];
            enc.h[d][enc.n_h[d]++] = a->size_per_thread[d];
        }
    }
    /* P0 = warp, P1 = lane: slowest dim (order[rank-1]) first, broadcast part above the kept part. */
    enc.n_p = 2;
    for (k = a->rank - 1; k >= 0; k--) {
        d = a->order[k];
        if (r_w[d] >= 0) {
            enc.p_major[0][enc.n_p_rh[0]] = 0;
            enc.p_minor[0][enc.n_p_rh[0]++] = r_w[d];
        }
        if (h_w[d] >= 0) {
            enc.p_major[0][enc.n_p_rh[0]] = d + 1;
            enc.p_minor[0][enc.n_p_rh[0]++] = h_w[d];
        }
        if (r_l[d] >= 0) {
            enc.p_major[1][enc.n_p_rh[1]] = 0;
            enc.p_minor[1][enc.n_p_rh[1]++] = r_l[d];
        }
        if (h_l[d] >= 0) {
            enc.p_major[1][enc.n_p_rh[1]] = d + 1;
            enc.p_minor[1][enc.n_p_rh[1]++] = h_l[d];
        }
    }
    /* A P with no digit (one warp / one lane): an R entry of length 1. */
    for (k = 0; k < 2; k++)
        if (enc.n_p_rh[k] == 0) {
            enc.r[enc.n_r] = 1;
            enc.p_major[k][0] = 0;
            enc.p_minor[k][0] = enc.n_r++;
            enc.n_p_rh[k] = 1;
        }
    /* Y, most significant first: repetitions, then registers, each with
     * order[rank-1] first (Triton appends the repetition bits per out dim in
     * the CTA layout's minor-to-major order: ensureLayoutNotSmallerThan). */
    for (k = a->rank - 1; k >= 0; k--) {
        d = a->order[k];
        if (h_rep[d] >= 0) {
            enc.y_major[enc.n_y] = d + 1;
            enc.y_minor[enc.n_y++] = h_rep[d];
        }
    }
    for (k = a->rank - 1; k >= 0; k--) {
        d = a->order[k];
        if (h_e[d] >= 0) {
            enc.y_major[enc.n_y] = d + 1;
            enc.y_minor[enc.n_y++] = h_e[d];
        }
    }
    if (enc.n_y == 0) { /* one element per thread: Y names a length-1 digit (least significant) of order[0] */
        d = a->order[0];
        enc.h[d][enc.n_h[d]] = 1;
        enc.y_major[0] = d + 1;
        enc.y_minor[0] = enc.n_h[d]++;
        enc.n_y = 1;
    }
    return layout_dist_make(out, &enc, wave, warps, n_shape, shape, err);
}

/* Broadcast registers (sizePerThread[d] > shape[d]): Triton's layout over the
 * shape enlarged to the CTA tile, then every coordinate taken modulo the
 * shape (Triton's ensureLayoutNotLargerThan zeroes the bases that reach past
 * the shape; blocked bases are single bits, so that is the same map), written
 * as a table distribution into the caller's table. */
static layout_status blocked_to_table(const layout_triton_attr *a, int n_shape, const int64_t *shape, int64_t *table,
                                      size_t table_cap, layout_distribution *out, layout_error *err)
{
    layout_distribution big;
    layout_status st;
    int64_t enlarged[LAYOUT_MAX_DIMS], need, i = 0, e;
    int d, w, l;
    if (n_shape != a->rank) return blocked_to_dist(a, n_shape, shape, out, err); /* its rank message */
    for (d = 0; d < a->rank; d++) {
        int64_t cta = a->size_per_thread[d] * a->threads_per_warp[d] * a->warps_per_cta[d];
        if (!dx_is_pow2(shape[d])) return blocked_to_dist(a, n_shape, shape, out, err); /* its shape message */
        enlarged[d] = shape[d] > cta ? shape[d] : cta;
    }
    if ((st = blocked_to_dist(a, n_shape, enlarged, &big, err))) return st;
    need = (int64_t)big.n_warps * big.wave_size * big.elems_per_thread * a->rank;
    if (!table || (int64_t)table_cap < need)
        return layout_fail(err, table ? LAYOUT_ERR_BUFFER : LAYOUT_ERR_UNSUPPORTED,
                           "layout_triton_to_dist: sizePerThread exceeds the shape (broadcast registers): needs a "
                           "table of %lld values, %s",
                           (long long)need, table ? "the table is smaller" : "none given");
    for (w = 0; w < big.n_warps; w++)
        for (l = 0; l < big.wave_size; l++)
            for (e = 0; e < big.elems_per_thread; e++, i += a->rank) {
                if ((st = layout_dist_coord_elem(&big, w, l, e, table + i, err))) return st;
                for (d = 0; d < a->rank; d++) table[i + d] &= shape[d] - 1;
            }
    return layout_dist_from_table(out, a->rank, shape, big.wave_size, big.n_warps, big.elems_per_thread, table, err);
}

static int blocked_broadcasts_registers(const layout_triton_attr *a, int n_shape, const int64_t *shape)
{
    int d;
    for (d = 0; d < a->rank && d < n_shape; d++)
        if (a->size_per_thread[d] > shape[d]) return 1;
    return 0;
}

layout_status layout_triton_to_dist(const layout_triton_attr *a, int n_shape, const int64_t *shape, int64_t *table,
                                    size_t table_cap, layout_distribution *out, layout_error *err)
{
    if (!a || !out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_to_dist: NULL argument");
    if (a->kind == LAYOUT_TRITON_BLOCKED) {
        if (!shape) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_to_dist: #ttg.blocked needs a shape");
        if (blocked_broadcasts_registers(a, n_shape, shape))
            return blocked_to_table(a, n_shape, shape, table, table_cap, out, err);
        return blocked_to_dist(a, n_shape, shape, out, err);
    }
    if (a->kind == LAYOUT_TRITON_LINEAR) {
        const layout_linear *ll = &a->linear;
        layout_linear trimmed;
        int blk = layout_linear_in_dim(ll, "block");
        if (blk >= 0) {
            layout_status st = drop_empty_block(ll, &trimmed, err);
            if (st) return st;
            ll = &trimmed;
        }
        return layout_linear_to_dist(ll, table, table_cap, out, err);
    }
    return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                       "layout_triton_to_dist: a shared-memory attribute is a descriptor, not a distribution");
}

/* ---------------------------------------------------------------- recognition */

static int try_swizzled(const layout_descriptor *d, layout_triton_attr *out)
{
    int64_t tile[2], vec, pp, mp;
    int cd;
    tile[0] = layout_desc_length(d, 0);
    tile[1] = layout_desc_length(d, 1);
    for (cd = 1; cd >= 0; cd--) {
        int64_t R = tile[1 - cd], C = tile[cd];
        for (vec = 1; vec <= C; vec *= 2)
            for (pp = 1; pp <= R; pp *= 2)
                for (mp = 1; mp * vec <= C; mp *= 2) {
                    layout_family_params p;
                    layout_descriptor cand;
                    memset(&p, 0, sizeof p);
                    p.kind = LAYOUT_FAMILY_TRITON_SWIZZLED;
                    p.contiguous_dim = cd;
                    p.p[0] = vec;
                    p.p[1] = pp;
                    p.p[2] = mp;
                    if (layout_family_build(&p, tile, &cand, NULL) != LAYOUT_OK) continue;
                    if (dx_first_difference(d, &cand) >= 0) continue;
                    memset(out, 0, sizeof *out);
                    out->kind = LAYOUT_TRITON_SWIZZLED_SHARED;
                    out->rank = 2;
                    out->order[0] = cd;
                    out->order[1] = 1 - cd;
                    out->vec = vec;
                    out->per_phase = pp;
                    out->max_phase = mp;
                    return 0;
                }
    }
    return -1;
}

/* Index i (in padded_shared's linear order) of a candidate sits at offset
 * off.  The pairs found so far place it at want = i + sum (i / I_k) * P_k;
 * a surplus starts a new pair [i:+surplus] when both are powers of two the
 * reader takes back (intervals <= 2^40, paddings <= 2^20).  0: consistent
 * (a pair added or none needed); -1: not padded_shared. */
static int take_pad(layout_triton_attr *a, int64_t i, int64_t off)
{
    int64_t want = i;
    for (int k = 0; k < a->n_pads; k++) want += (i / a->interval[k]) * a->pad[k];
    if (off == want) return 0;
    if (off < want || !dx_is_pow2(i) || !dx_is_pow2(off - want) || a->n_pads >= LAYOUT_TRITON_MAX_PADS ||
        i > TX_MAX_INTERVAL || off - want > TX_MAX_PAD)
        return -1;
    a->interval[a->n_pads] = i;
    a->pad[a->n_pads++] = off - want;
    return 0;
}

/* Identity linear component in `order`: offsets = i + sum (i / I_k) * P_k. */
static int try_padded(const layout_descriptor *d, int64_t total, const int *order, layout_triton_attr *out)
{
    layout_triton_attr a;
    int n = layout_desc_ndims(d), k, j, bit = 0;
    int64_t i, coord[LAYOUT_MAX_DIMS];
    memset(&a, 0, sizeof a);
    a.kind = LAYOUT_TRITON_PADDED_SHARED;
    a.rank = n;
    a.has_shape = 1;
    for (k = 0; k < n; k++) {
        int dim = order[k];
        a.order[k] = dim;
        a.shape[dim] = layout_desc_length(d, dim);
        if (!dx_is_pow2(a.shape[dim])) return -1;
        for (j = 0; j < dx_log2(a.shape[dim]); j++, bit++) {
            a.offset_dim[bit] = dim;
            a.offset_bit[bit] = j;
        }
    }
    a.n_offset_bits = bit;
    for (i = 0; i < total; i++) {
        int64_t rest = i;
        for (k = 0; k < n; k++) {
            coord[order[k]] = rest % a.shape[order[k]];
            rest /= a.shape[order[k]];
        }
        if (take_pad(&a, i, layout_desc_offset_unchecked(d, coord))) return -1;
    }
    if (a.n_pads == 0) return -1;
    *out = a;
    return 0;
}

/* padded_shared whose linear component is any permutation of the coordinate
 * bits (the long form `{offset = [[..]], block = []}`, e.g. the docs'
 * [16:+1] with rows 0 2 4 6 first).  The padded offset i + sum (i / I_k) * P_k
 * is increasing in i, so the unit coordinates sorted by offset give the bit
 * of i each one is; the pairs are then read off as in try_padded(). */
static int try_padded_permuted(const layout_descriptor *d, int64_t total, layout_triton_attr *out)
{
    layout_triton_attr a;
    int n = layout_desc_ndims(d), k, j, b, nb = 0;
    int dim_of[64], bit_of[64];
    int64_t unit_off[64], coord[LAYOUT_MAX_DIMS], i;
    memset(&a, 0, sizeof a);
    for (k = 0; k < n; k++) {
        int64_t len = layout_desc_length(d, k);
        if (!dx_is_pow2(len)) return -1;
        a.shape[k] = len;
        a.order[k] = n - 1 - k;
        for (j = 0; j < dx_log2(len); j++) {
            memset(coord, 0, sizeof coord);
            coord[k] = (int64_t)1 << j;
            dim_of[nb] = k;
            bit_of[nb] = j;
            unit_off[nb++] = layout_desc_offset_unchecked(d, coord);
        }
    }
    for (b = 1; b < nb; b++) /* insertion sort by offset (at most 62 bits) */
        for (j = b; j > 0 && unit_off[j - 1] > unit_off[j]; j--) {
            int64_t t = unit_off[j];
            int td = dim_of[j], tb = bit_of[j];
            unit_off[j] = unit_off[j - 1];
            dim_of[j] = dim_of[j - 1];
            bit_of[j] = bit_of[j - 1];
            unit_off[j - 1] = t;
            dim_of[j - 1] = td;
            bit_of[j - 1] = tb;
        }
    a.kind = LAYOUT_TRITON_PADDED_SHARED;
    a.rank = n;
    a.has_shape = 1;
    a.n_offset_bits = nb;
    for (b = 0; b < nb; b++) {
        a.offset_dim[b] = dim_of[b];
        a.offset_bit[b] = bit_of[b];
    }
    for (i = 0; i < total; i++) {
        memset(coord, 0, sizeof coord);
        for (b = 0; b < nb; b++)
            if ((i >> b) & 1) coord[dim_of[b]] |= (int64_t)1 << bit_of[b];
        if (take_pad(&a, i, layout_desc_offset_unchecked(d, coord))) return -1;
    }
    if (a.n_pads == 0) return -1; /* no padding: swizzled_shared or shared_linear express it */
    *out = a;
    return 0;
}

layout_status layout_triton_from_desc(const layout_descriptor *d, layout_triton_attr *out, layout_error *err)
{
    int64_t total, k, coord[LAYOUT_MAX_DIMS];
    int n, order[LAYOUT_MAX_DIMS] = {0}, j;
    if (!d || !out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_from_desc: NULL argument");
    if ((total = dx_tile_size(d, "layout_triton_from_desc", err)) < 0) return LAYOUT_ERR_UNSUPPORTED;
    n = layout_desc_ndims(d);
    for (k = 0; k < total; k++) {
        int valid = 1;
        dx_coord(d, k, coord);
        layout_desc_is_valid(d, coord, &valid, NULL);
        if (!valid)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_from_desc: coordinate %lld (row-major) is padding; Triton's shared "
                               "layouts have no invalid coordinates",
                               (long long)k);
    }
    if (n == 2 && try_swizzled(d, out) == 0) return layout_ok(err);
    for (j = 0; j < n; j++) order[j] = n - 1 - j;
    if (try_padded(d, total, order, out) == 0) return layout_ok(err);
    if (n == 2) {
        order[0] = 0;
        order[1] = 1;
        if (try_padded(d, total, order, out) == 0) return layout_ok(err);
    }
    if (try_padded_permuted(d, total, out) == 0) return layout_ok(err);
    {
        layout_linear fwd;
        layout_error lerr;
        if (layout_desc_to_linear(d, &fwd, &lerr) != LAYOUT_OK)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_from_desc: no swizzled_shared or padded_shared matches; shared_linear: "
                               "%.180s",
                               lerr.message);
        memset(out, 0, sizeof *out);
        if (!layout_linear_is_bijective(&fwd) || layout_linear_invert(&out->linear, &fwd, NULL) != LAYOUT_OK)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_from_desc: the layout is linear over F2 but not a bijection onto "
                               "0..2^k-1, which #ttg.shared_linear (offset -> coordinate) needs");
        if (total == 1 && n != 1)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_from_desc: a one-element tile of %d dims has no offset bases, and "
                               "#ttg.shared_linear<{offset = []}> cannot carry the rank",
                               n);
        /* Triton names the output dims dim0.., linear.h's inverse keeps them as they are */
        out->kind = LAYOUT_TRITON_LINEAR;
        out->shared_linear = 1;
        out->alignment = 16;
        out->rank = n;
        return layout_ok(err);
    }
}

layout_status layout_desc_to_triton(const layout_descriptor *d, char *buf, size_t cap, layout_error *err)
{
    layout_triton_attr a;
    layout_status st;
    if (!buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_desc_to_triton: buf is NULL");
    if ((st = layout_triton_from_desc(d, &a, err))) return st;
    return layout_triton_to_text(&a, buf, cap, err);
}

/* ---------------------------------------------------------------- blocked recognition */

/* 1 when a and b give the same X for every (warp, lane, register). */
static int same_dist(const layout_distribution *a, const layout_distribution *b)
{
    int w, l, j;
    int64_t e, xa[LAYOUT_MAX_DIMS], xb[LAYOUT_MAX_DIMS];
    if (a->n_warps != b->n_warps || a->wave_size != b->wave_size || a->elems_per_thread != b->elems_per_thread ||
        a->n_x != b->n_x)
        return 0;
    for (w = 0; w < a->n_warps; w++)
        for (l = 0; l < a->wave_size; l++)
            for (e = 0; e < a->elems_per_thread; e++) {
                if (layout_dist_coord_elem(a, w, l, e, xa, NULL) || layout_dist_coord_elem(b, w, l, e, xb, NULL))
                    return 0;
                for (j = 0; j < a->n_x; j++)
                    if (xa[j] != xb[j]) return 0;
            }
    return 1;
}

layout_status layout_triton_from_dist(const layout_distribution *d, layout_triton_attr *out, layout_error *err)
{
    layout_triton_attr a;
    int n, j, ord;
    int64_t s0, s1, t0, w0;
    if (!d || !out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_triton_from_dist: NULL argument");
    n = d->n_x;
    if (n < 1 || n > 2)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "layout_triton_from_dist: %d tile dims (recognised: 1 or 2)", n);
    for (j = 0; j < n; j++)
        if (!dx_is_pow2(d->x_lengths[j]))
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_from_dist: X length %lld of dim %d is not a power of two",
                               (long long)d->x_lengths[j], j);
    if (!dx_is_pow2(d->wave_size) || !dx_is_pow2(d->n_warps) || (int64_t)d->wave_size * d->n_warps > 4096)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "layout_triton_from_dist: %d warps of %d lanes (powers of two needed)", d->n_warps,
                           d->wave_size);
    memset(&a, 0, sizeof a);
    a.kind = LAYOUT_TRITON_BLOCKED;
    a.rank = n;
    for (ord = 0; ord < n; ord++) {
        a.order[0] = n == 2 ? 1 - ord : 0;
        a.order[1] = ord;
        for (s0 = 1; s0 <= d->x_lengths[0]; s0 *= 2)
            for (s1 = 1; s1 <= (n == 2 ? d->x_lengths[1] : 1); s1 *= 2)
                for (t0 = 1; t0 <= d->wave_size; t0 *= 2)
                    for (w0 = 1; w0 <= d->n_warps; w0 *= 2) {
                        layout_distribution cand;
                        if (n == 1 && (t0 != d->wave_size || w0 != d->n_warps)) continue;
                        if (s0 * s1 > d->elems_per_thread) continue; /* registers never exceed the thread's */
                        a.size_per_thread[0] = s0;
                        a.threads_per_warp[0] = t0;
                        a.warps_per_cta[0] = w0;
                        if (n == 2) {
                            a.size_per_thread[1] = s1;
                            a.threads_per_warp[1] = d->wave_size / t0;
                            a.warps_per_cta[1] = d->n_warps / w0;
                        }
                        if (layout_triton_to_dist(&a, n, d->x_lengths, NULL, 0, &cand, NULL) != LAYOUT_OK) continue;
                        if (!same_dist(d, &cand)) continue;
                        *out = a;
                        return layout_ok(err);
                    }
    }
    return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                       "layout_triton_from_dist: no #ttg.blocked (any sizePerThread, threadsPerWarp, warpsPerCTA, "
                       "order) gives the same (warp, lane, register) -> coordinate map");
}
