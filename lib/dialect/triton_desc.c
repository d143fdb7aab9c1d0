/* Triton's shared-memory layouts as descriptors: swizzled_shared,
 * padded_shared, linear shared layouts, amd_rotating_shared and
 * nvmma_shared (through their linear layouts, triton_shared.c) on a shape. */
#include "triton_internal.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- descriptors */

/* The same layout without its `block` input dim, which must have no bits
 * (one CTA); a non-empty one is not supported. */
layout_status layout_triton_drop_empty_block(const layout_linear *ll, layout_linear *out, layout_error *err)
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
    layout_dx_stage_init(&s);
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
        layout_dx_stage_add(&s, &t, n, ids, 1, &j);
    }
    if (run_dim[0] < 0) { /* the dummy digit of a 1-element tile: consumed by a freeze */
        layout_transform t;
        int zero = 0;
        if ((st = layout_make_freeze(0, &t, err))) return st;
        layout_dx_stage_add(&s, &t, 1, &zero, 0, NULL);
    }
    if ((st = layout_dx_stage_apply(&d, &s, err))) return st;
    *out = d;
    return layout_ok(err);
}


static layout_status linear_to_desc(const layout_linear *ll, layout_descriptor *out, layout_error *err)
{
    layout_linear inv, trimmed;
    layout_status st;
    if (layout_linear_in_dim(ll, "block") >= 0) {
        if ((st = layout_triton_drop_empty_block(ll, &trimmed, err))) return st;
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
    if ((a->kind == LAYOUT_TRITON_SWIZZLED_SHARED || a->kind == LAYOUT_TRITON_AMD_ROTATING_SHARED ||
         a->kind == LAYOUT_TRITON_NVMMA_SHARED) &&
        n_shape > (a->kind == LAYOUT_TRITON_NVMMA_SHARED && a->rank == 0 ? 2 : a->rank)) {
        /* leading buffer dims (layout_triton_shared_linear): Triton's linear layout, inverted */
        layout_linear ll;
        layout_status st;
        if ((st = layout_triton_shared_linear(a, n_shape, shape, &ll, err))) return st;
        return linear_to_desc(&ll, out, err);
    }
    switch (a->kind) {
    case LAYOUT_TRITON_SWIZZLED_SHARED: {
        layout_family_params p;
        if (n_shape != 2)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "layout_triton_to_desc: swizzled_shared needs a 2-D shape (--shape R,C); got %d values",
                               n_shape);
        if (a->rank != 2)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "layout_triton_to_desc: swizzled_shared of rank %d: descriptors are 2-D (its linear "
                               "layout, layout_triton_shared_linear, takes ranks 1 to 4)",
                               a->rank);
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
                if (!layout_is_pow2(shape[dim]))
                    return layout_fail(err, LAYOUT_ERR_ARG, "layout_triton_to_desc: shape[%d] = %lld is not a power of two",
                                       dim, (long long)shape[dim]);
                b.shape[dim] = shape[dim];
                for (j = 0; j < layout_log2_floor(shape[dim]); j++, bit++) {
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
    case LAYOUT_TRITON_AMD_ROTATING_SHARED:
        return layout_triton_rotating_to_desc(a, n_shape, shape, out, err);
    case LAYOUT_TRITON_NVMMA_SHARED: {
        /* Triton's own linear layout (triton_shared.c), inverted into a descriptor */
        layout_linear ll;
        layout_status st;
        if ((st = layout_triton_shared_linear(a, n_shape, shape, &ll, err))) return st;
        return linear_to_desc(&ll, out, err);
    }
    default: {
        static const char *const names[] = {"swizzled_shared", "padded_shared", "blocked", "linear", "amd_mfma",
                                            "amd_wmma", "nvidia_mma", "dot_op", "slice"};
        int i = (int)a->kind;
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "layout_triton_to_desc: #ttg.%s is a distribution, not a shared-memory layout",
                           i >= 0 && i < (int)(sizeof names / sizeof names[0]) ? names[i] : "?");
    }
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
