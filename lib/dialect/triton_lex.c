/* Triton's TritonGPU layout attributes: the lexical pieces the readers
 * share (triton_read.c, triton_mma_text.c), the #ttg.blocked body and the
 * #ttg.linear dict (also a slice's parent). */
#include "triton_internal.h"

#include <stdio.h>
#include <string.h>

/* A field name, bare or quoted. */
layout_status layout_triton_read_key(text_cursor *c, char *buf, size_t cap, size_t *at, const char *what)
{
    char q;
    layout_tx_skip(c);
    *at = c->pos;
    q = c->text[c->pos];
    if (q == '"' || q == '\'') {
        size_t n = 0;
        c->pos++;
        while (c->text[c->pos] != q) {
            char ch = c->text[c->pos];
            if (ch == '\0' || ch == '\n') return layout_tx_expected(c, c->pos, "a closing quote");
            if (n + 1 >= cap) return layout_tx_fail_at(c, *at, LAYOUT_ERR_PARSE, "name too long (%s)", what);
            buf[n++] = ch;
            c->pos++;
        }
        c->pos++;
        buf[n] = '\0';
        if (n == 0) return layout_tx_fail_at(c, *at, LAYOUT_ERR_PARSE, "empty name (%s)", what);
        return LAYOUT_OK;
    }
    return layout_tx_ident(c, buf, cap, at, what);
}

layout_status layout_triton_read_sep(text_cursor *c)
{
    if (layout_tx_accept(c, '=') || layout_tx_accept(c, ':')) return LAYOUT_OK;
    return layout_tx_expected(c, c->pos, "'=' after the field name");
}

/* A list of at most cap ints, all powers of two. */
layout_status layout_triton_read_pow2_list(text_cursor *c, int64_t *out, int cap, int *n, const char *name)
{
    size_t at;
    int k;
    layout_tx_skip(c);
    at = c->pos;
    if (layout_tx_int_list(c, out, cap, n, name)) return c->status;
    for (k = 0; k < *n; k++)
        if (!layout_is_pow2(out[k]))
            return layout_tx_fail_at(c, at, LAYOUT_ERR_ARG, "%s[%d] = %lld is not a power of two", name, k,
                              (long long)out[k]);
    return LAYOUT_OK;
}

layout_status layout_triton_read_order(text_cursor *c, int *order, int *n)
{
    int64_t v[LAYOUT_TRITON_MAX_RANK];
    int k;
    uint32_t seen = 0;
    size_t at;
    layout_tx_skip(c);
    at = c->pos;
    if (layout_tx_int_list(c, v, LAYOUT_TRITON_MAX_RANK, n, "order")) return c->status;
    for (k = 0; k < *n; k++) {
        if (v[k] < 0 || v[k] >= *n || (seen >> v[k]) & 1)
            return layout_tx_fail_at(c, at, LAYOUT_ERR_ARG, "order is not a permutation of 0..%d", *n - 1);
        seen |= (uint32_t)1 << v[k];
        order[k] = (int)v[k];
    }
    if (*n == 0) return layout_tx_fail_at(c, at, LAYOUT_ERR_ARG, "order is empty");
    return LAYOUT_OK;
}

/* CTAsPerCGA / CTASplitNum / CTAOrder of older printers: single-CTA only.
 * Triton 3.6's `CGALayout = [[..], ..]` (printed when ttg.num-ctas > 1): the
 * block bases of the CGA layout, block id bit -> tensor coordinates.  All
 * zero, every CTA holds the whole tensor, and each CTA's layout is the
 * attribute's own (combineCtaCgaWithShape: the CTA shape is the shape
 * divided by the CGA layout's out sizes, all 1): read, nothing changes.  A
 * non-zero basis splits the tensor over the CTAs (each CTA's layout is the
 * attribute on the shape divided by the split): not modelled, said so. */
layout_status layout_triton_read_cga(text_cursor *c, const char *key, size_t at)
{
    int64_t v[LAYOUT_TRITON_MAX_RANK];
    int n, k;
    if (strcmp(key, "CGALayout") == 0) {
        int64_t vals[MAX_BASES * LAYOUT_TRITON_MAX_RANK];
        int width = -1, rows, j;
        if (layout_triton_read_bases(c, vals, MAX_BASES, &width, &rows, NULL, "'[' starting the CGALayout bases"))
            return c->status;
        for (k = 0; k < rows; k++)
            for (j = 0; j < width; j++)
                if (vals[k * LAYOUT_TRITON_MAX_RANK + j] != 0)
                    return layout_tx_fail_at(c, at, LAYOUT_ERR_UNSUPPORTED,
                                             "CGALayout: block basis %d moves dim %d, so the tensor is split over the "
                                             "CTAs of a cluster and each CTA's layout is the attribute on a part of "
                                             "the shape (combineCtaCgaWithShape); liblayout models one CTA holding "
                                             "the whole tensor (all-zero block bases)",
                                             k, j);
        return LAYOUT_OK;
    }
    if (layout_tx_int_list(c, v, LAYOUT_TRITON_MAX_RANK, &n, key)) return c->status;
    if (strcmp(key, "CTAOrder") != 0)
        for (k = 0; k < n; k++)
            if (v[k] != 1)
                return layout_tx_fail_at(c, at, LAYOUT_ERR_UNSUPPORTED, "%s: only one CTA is supported (all 1)", key);
    return LAYOUT_OK;
}

layout_status layout_triton_read_blocked(text_cursor *c, layout_triton_attr *a)
{
    int have = 0, n[4] = {0, 0, 0, 0}, k;
    size_t first_at = c->pos;
    if (layout_tx_expect(c, '<', "'<'") || layout_tx_expect(c, '{', "'{'")) return c->status;
    for (;;) {
        char key[32];
        size_t at;
        if (layout_triton_read_key(c, key, sizeof key, &at, "a field (sizePerThread, threadsPerWarp, warpsPerCTA, order)") ||
            layout_triton_read_sep(c))
            return c->status;
        if (strcmp(key, "sizePerThread") == 0) {
            if (layout_triton_read_pow2_list(c, a->size_per_thread, LAYOUT_TRITON_MAX_RANK, &n[0], key)) return c->status;
            have |= 1;
        } else if (strcmp(key, "threadsPerWarp") == 0) {
            if (layout_triton_read_pow2_list(c, a->threads_per_warp, LAYOUT_TRITON_MAX_RANK, &n[1], key)) return c->status;
            have |= 2;
        } else if (strcmp(key, "warpsPerCTA") == 0) {
            if (layout_triton_read_pow2_list(c, a->warps_per_cta, LAYOUT_TRITON_MAX_RANK, &n[2], key)) return c->status;
            have |= 4;
        } else if (strcmp(key, "order") == 0) {
            if (layout_triton_read_order(c, a->order, &n[3])) return c->status;
            have |= 8;
        } else if (strcmp(key, "CTAsPerCGA") == 0 || strcmp(key, "CTASplitNum") == 0 || strcmp(key, "CTAOrder") == 0 ||
                   strcmp(key, "CGALayout") == 0) {
            if (layout_triton_read_cga(c, key, at)) return c->status;
        } else {
            return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE,
                              "unknown field '%s' (blocked has sizePerThread, threadsPerWarp, warpsPerCTA, order)", key);
        }
        if (layout_tx_accept(c, '}')) break;
        if (layout_tx_expect(c, ',', "',' or '}'")) return c->status;
    }
    if (have != 15) {
        static const char *const names[4] = {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"};
        for (k = 0; k < 4; k++)
            if (!((have >> k) & 1)) return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "missing field '%s'", names[k]);
    }
    for (k = 1; k < 4; k++)
        if (n[k] != n[0])
            return layout_tx_fail_at(c, first_at, LAYOUT_ERR_MISMATCH,
                              "sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same length (%d, %d, "
                              "%d, %d)",
                              n[0], n[1], n[2], n[3]);
    a->rank = n[0];
    return layout_tx_expect(c, '>', "'>'");
}

/* '[' '[' ints ']' { ',' '[' ints ']' } ']' with every row `*width` wide
 * (*width < 0: set by the first row).  Rows appended to vals. */
layout_status layout_triton_read_bases(text_cursor *c, int64_t *vals, int max_rows, int *width, int *rows,
                                 size_t *row_at, const char *what)
{
    int n = 0;
    if (layout_tx_expect(c, '[', what)) return c->status;
    if (!layout_tx_accept(c, ']')) {
        for (;;) {
            int64_t row[LAYOUT_TRITON_MAX_RANK];
            int w, k;
            size_t at;
            layout_tx_skip(c);
            at = c->pos;
            if (n >= max_rows) return layout_tx_fail_at(c, at, LAYOUT_ERR_CAPACITY, "more than %d bases", max_rows);
            if (layout_tx_int_list(c, row, LAYOUT_TRITON_MAX_RANK, &w, "'[' starting a basis vector")) return c->status;
            if (*width < 0) *width = w;
            if (w != *width || w == 0)
                return layout_tx_fail_at(c, at, LAYOUT_ERR_MISMATCH, "basis has %d values, expected %d (one per output dim)",
                                  w, *width < 1 ? 1 : *width);
            for (k = 0; k < w; k++) vals[n * LAYOUT_TRITON_MAX_RANK + k] = row[k];
            if (row_at) row_at[n] = at;
            n++;
            if (layout_tx_accept(c, ']')) break;
            if (layout_tx_expect(c, ',', "',' or ']' between bases")) return c->status;
        }
    }
    *rows = n;
    return LAYOUT_OK;
}

/* Linear bases: '{' name ('='|':') bases {',' ...} '}' [',' '{' "dimK" ':' size ... '}'] */
layout_status layout_triton_read_linear(text_cursor *c, layout_triton_attr *a, int attr_form)
{
    static const int64_t zero = 0;
    char names[LAYOUT_LINEAR_MAX_DIMS][LAYOUT_LINEAR_NAME_CAP];
    const char *in_names[LAYOUT_LINEAR_MAX_DIMS];
    char onames[LAYOUT_LINEAR_MAX_DIMS][LAYOUT_LINEAR_NAME_CAP];
    const char *out_names[LAYOUT_LINEAR_MAX_DIMS];
    int in_bits[LAYOUT_LINEAR_MAX_DIMS], out_bits[LAYOUT_LINEAR_MAX_DIMS], have_sizes = 0;
    int64_t vals[MAX_BASES * LAYOUT_TRITON_MAX_RANK], flat[MAX_BASES * LAYOUT_TRITON_MAX_RANK];
    int n_in = 0, width = -1, total = 0, k, j;
    size_t start = c->pos;
    layout_error lerr;
    if (layout_tx_expect(c, '{', "'{'")) return c->status;
    if (!layout_tx_accept(c, '}')) {
        for (;;) {
            int rows;
            size_t at;
            if (layout_triton_read_key(c, names[n_in], LAYOUT_LINEAR_NAME_CAP, &at, "an input dim name") || layout_triton_read_sep(c))
                return c->status;
            for (k = 0; k < n_in; k++)
                if (strcmp(names[k], names[n_in]) == 0)
                    return layout_tx_fail_at(c, at, LAYOUT_ERR_ARG, "input dim '%s' appears twice", names[n_in]);
            if (layout_triton_read_bases(c, vals + (size_t)total * LAYOUT_TRITON_MAX_RANK, MAX_BASES - total, &width, &rows, NULL,
                            "'[' starting the bases"))
                return c->status;
            in_names[n_in] = names[n_in];
            in_bits[n_in] = rows;
            total += rows;
            n_in++;
            if (layout_tx_accept(c, '}')) break;
            if (layout_tx_expect(c, ',', "',' or '}'")) return c->status;
            layout_tx_skip(c);
            if (n_in >= LAYOUT_LINEAR_MAX_DIMS)
                return layout_tx_fail_at(c, c->pos, LAYOUT_ERR_CAPACITY, "more than %d input dims", LAYOUT_LINEAR_MAX_DIMS);
        }
    }
    if (!attr_form && layout_tx_accept(c, ',')) {
        /* The output dims: names in order, with their sizes. */
        int n_out = 0;
        if (layout_tx_expect(c, '{', "'{' starting the output sizes")) return c->status;
        for (;;) {
            size_t at, vat;
            int64_t v;
            if (n_out >= LAYOUT_LINEAR_MAX_DIMS)
                return layout_tx_fail_at(c, c->pos, LAYOUT_ERR_CAPACITY, "more than %d output dims", LAYOUT_LINEAR_MAX_DIMS);
            if (layout_triton_read_key(c, onames[n_out], LAYOUT_LINEAR_NAME_CAP, &at, "an output dim name") || layout_triton_read_sep(c))
                return c->status;
            for (j = 0; j < n_out; j++)
                if (strcmp(onames[j], onames[n_out]) == 0)
                    return layout_tx_fail_at(c, at, LAYOUT_ERR_ARG, "output dim '%s' repeats", onames[n_out]);
            layout_tx_skip(c);
            vat = c->pos;
            if (layout_tx_int(c, &v, "an output size")) return c->status;
            if (!layout_is_pow2(v) || v > ((int64_t)1 << LAYOUT_LINEAR_MAX_DIM_BITS))
                return layout_tx_fail_at(c, vat, LAYOUT_ERR_ARG, "output size %lld is not a power of two in 1..2^%d",
                                  (long long)v, LAYOUT_LINEAR_MAX_DIM_BITS);
            out_bits[n_out] = layout_log2_floor(v);
            out_names[n_out] = onames[n_out];
            n_out++;
            if (layout_tx_accept(c, '}')) break;
            if (layout_tx_expect(c, ',', "',' or '}'")) return c->status;
        }
        if (width >= 0 && width != n_out)
            return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_MISMATCH, "%d output sizes for bases of %d values", n_out, width);
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
            int64_t v = vals[k * LAYOUT_TRITON_MAX_RANK + j];
            if (v < 0) return layout_tx_fail_at(c, start, LAYOUT_ERR_ARG, "basis value %lld is negative", (long long)v);
            flat[k * width + j] = v;
        }
    if (layout_linear_from_bases(&a->linear, n_in, in_names, in_bits, total ? flat : &zero, width, out_names,
                                 have_sizes ? out_bits : NULL, &lerr))
        return layout_tx_lib_fail(c, start, &lerr);
    a->rank = width;
    return LAYOUT_OK;
}
