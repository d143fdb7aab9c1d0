/* Linear layouts over F2: the value type, its algebra and its printer.
 * Bases are packed (dim 0 lowest on both sides), so every operation is a
 * handful of XORs on uint64 words.  Gaussian elimination keeps its pivots
 * indexed by their highest set bit. */
#include "layout/linear.h"

#include "../core/internal.h"
#include "../core/strbuf.h"
#include "linear_internal.h"

#include <inttypes.h>
#include <string.h>

uint64_t layout_lin_mask(int bits)
{
    return bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
}

uint64_t layout_lin_extract(const layout_linear *ll, uint64_t packed, int out_dim)
{
    return layout_lin_shr(packed, ll->out_shift[out_dim]) & layout_lin_mask(ll->out_bits[out_dim]);
}

int layout_lin_single_out(const layout_linear *ll)
{
    int sized = 0;
    for (int j = 0; j < ll->n_out; j++) sized += ll->out_bits[j] > 0;
    return ll->n_out >= 1 && sized <= 1;
}

/* ---------------------------------------------------------------- build */

static layout_status check_name(const char *fn, const char *what, const char *name,
                                char (*names)[LAYOUT_LINEAR_NAME_CAP], int n, layout_error *err)
{
    if (!name) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s name is NULL", fn, what);
    size_t len = strlen(name);
    if (len == 0) return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s name is empty", fn, what);
    if (len >= LAYOUT_LINEAR_NAME_CAP)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s name '%.20s...' has %zu characters, at most %d allowed", fn,
                           what, name, len, LAYOUT_LINEAR_NAME_CAP - 1);
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s name '%s' is already used by %s dim %d", fn, what, name,
                               what, i);
    return LAYOUT_OK;
}

static layout_status add_dim(const char *fn, const char *what, char (*names)[LAYOUT_LINEAR_NAME_CAP], int *bits,
                             int *shift, int *n, int *total, const char *name, int n_bits, layout_error *err)
{
    layout_status st = check_name(fn, what, name, names, *n, err);
    if (st) return st;
    if (n_bits < 0 || n_bits > LAYOUT_LINEAR_MAX_DIM_BITS)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: n_bits = %d of %s dim '%s' must be in 0..%d", fn, n_bits, what,
                           name, LAYOUT_LINEAR_MAX_DIM_BITS);
    if (*n >= LAYOUT_LINEAR_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %s dim '%s' would be dim %d, at most %d %s dims", fn, what,
                           name, *n, LAYOUT_LINEAR_MAX_DIMS, what);
    if (*total + n_bits > LAYOUT_LINEAR_MAX_BITS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %s dim '%s' of %d bits makes %d %s bits, at most %d", fn,
                           what, name, n_bits, *total + n_bits, what, LAYOUT_LINEAR_MAX_BITS);
    memcpy(names[*n], name, strlen(name) + 1);
    bits[*n] = n_bits;
    shift[*n] = *total;
    *total += n_bits;
    (*n)++;
    return LAYOUT_OK;
}

layout_status layout_linear_init(layout_linear *out, layout_error *err)
{
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_linear_init: out is NULL");
    memset(out, 0, sizeof *out);
    return layout_ok(err);
}

layout_status layout_linear_add_in_dim(layout_linear *ll, const char *name, int n_bits, layout_error *err)
{
    static const char fn[] = "layout_linear_add_in_dim";
    if (!ll) return layout_fail(err, LAYOUT_ERR_NULL, "%s: ll is NULL", fn);
    layout_status st = add_dim(fn, "input", ll->in_names, ll->in_bits, ll->in_shift, &ll->n_in, &ll->total_in_bits,
                               name, n_bits, err);
    return st ? st : layout_ok(err);
}

layout_status layout_linear_add_out_dim(layout_linear *ll, const char *name, int n_bits, layout_error *err)
{
    static const char fn[] = "layout_linear_add_out_dim";
    if (!ll) return layout_fail(err, LAYOUT_ERR_NULL, "%s: ll is NULL", fn);
    /* the new dim takes the highest packed bits: existing bases stay as they are */
    layout_status st = add_dim(fn, "output", ll->out_names, ll->out_bits, ll->out_shift, &ll->n_out,
                               &ll->total_out_bits, name, n_bits, err);
    return st ? st : layout_ok(err);
}

static layout_status need_bit(const char *fn, const layout_linear *ll, int in_dim, int bit, layout_error *err)
{
    if (in_dim < 0 || in_dim >= ll->n_in)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: in_dim = %d is outside 0..%d", fn, in_dim, ll->n_in - 1);
    if (bit < 0 || bit >= ll->in_bits[in_dim])
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: bit = %d is outside 0..%d (input dim '%s' has %d bits)", fn,
                           bit, ll->in_bits[in_dim] - 1, ll->in_names[in_dim], ll->in_bits[in_dim]);
    return LAYOUT_OK;
}

layout_status layout_linear_set_basis(layout_linear *ll, int in_dim, int bit, const int64_t *out_values,
                                      layout_error *err)
{
    static const char fn[] = "layout_linear_set_basis";
    if (!ll) return layout_fail(err, LAYOUT_ERR_NULL, "%s: ll is NULL", fn);
    layout_status st = need_bit(fn, ll, in_dim, bit, err);
    if (st) return st;
    if (!out_values && ll->n_out > 0) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out_values is NULL", fn);
    uint64_t packed = 0;
    for (int j = 0; j < ll->n_out; j++) {
        if (out_values[j] < 0 || (uint64_t)out_values[j] > layout_lin_mask(ll->out_bits[j]))
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: out_values[%d] = %" PRId64 " is outside 0..%" PRIu64 " (output dim '%s')", fn, j,
                               out_values[j], layout_lin_mask(ll->out_bits[j]), ll->out_names[j]);
        packed |= layout_lin_shl((uint64_t)out_values[j], ll->out_shift[j]);
    }
    ll->bases[ll->in_shift[in_dim] + bit] = packed;
    return layout_ok(err);
}

layout_status layout_linear_get_basis(const layout_linear *ll, int in_dim, int bit, int64_t *out_values,
                                      layout_error *err)
{
    static const char fn[] = "layout_linear_get_basis";
    if (!ll) return layout_fail(err, LAYOUT_ERR_NULL, "%s: ll is NULL", fn);
    layout_status st = need_bit(fn, ll, in_dim, bit, err);
    if (st) return st;
    if (!out_values && ll->n_out > 0) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out_values is NULL", fn);
    uint64_t packed = ll->bases[ll->in_shift[in_dim] + bit];
    for (int j = 0; j < ll->n_out; j++) out_values[j] = (int64_t)layout_lin_extract(ll, packed, j);
    return layout_ok(err);
}

layout_status layout_linear_from_bases(layout_linear *out, int n_in, const char *const *in_names,
                                       const int *in_bits, const int64_t *bases, int n_out,
                                       const char *const *out_names, const int *out_bits, layout_error *err)
{
    static const char fn[] = "layout_linear_from_bases";
    layout_linear l;
    layout_status st;
    layout_error inner;
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (n_in < 0 || n_in > LAYOUT_LINEAR_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: n_in = %d is outside 0..%d", fn, n_in,
                           LAYOUT_LINEAR_MAX_DIMS);
    if (n_out < 0 || n_out > LAYOUT_LINEAR_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: n_out = %d is outside 0..%d", fn, n_out,
                           LAYOUT_LINEAR_MAX_DIMS);
    if (n_in > 0 && (!in_names || !in_bits))
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !in_names ? "in_names" : "in_bits");
    if (n_out > 0 && !out_names) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out_names is NULL", fn);
    int total = 0;
    for (int i = 0; i < n_in; i++) {
        if (in_bits[i] < 0 || in_bits[i] > LAYOUT_LINEAR_MAX_DIM_BITS)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: in_bits[%d] = %d must be in 0..%d", fn, i, in_bits[i],
                               LAYOUT_LINEAR_MAX_DIM_BITS);
        total += in_bits[i];
    }
    if (total > 0 && n_out > 0 && !bases) return layout_fail(err, LAYOUT_ERR_NULL, "%s: bases is NULL", fn);
    /* output sizes: given, or the bit length of the largest value (Triton's NextPowerOf2 rule) */
    int ob[LAYOUT_LINEAR_MAX_DIMS];
    for (int j = 0; j < n_out; j++) ob[j] = out_bits ? out_bits[j] : 0;
    if (total <= LAYOUT_LINEAR_MAX_BITS) {
        for (int k = 0; k < total; k++)
            for (int j = 0; j < n_out; j++) {
                int64_t v = bases[(size_t)k * (size_t)n_out + (size_t)j];
                if (v < 0)
                    return layout_fail(err, LAYOUT_ERR_ARG, "%s: bases[%d] = %" PRId64 " is negative", fn,
                                       k * n_out + j, v);
                if (!out_bits && layout_bit_length((uint64_t)v) > ob[j]) ob[j] = layout_bit_length((uint64_t)v);
            }
    }
    layout_linear_init(&l, NULL);
    for (int i = 0; i < n_in; i++)
        if ((st = layout_linear_add_in_dim(&l, in_names[i], in_bits[i], &inner)))
            return layout_fail(err, st, "%s: in_names[%d]: %s", fn, i, inner.message);
    for (int j = 0; j < n_out; j++)
        if ((st = layout_linear_add_out_dim(&l, out_names[j], ob[j], &inner)))
            return layout_fail(err, st, "%s: out_names[%d]: %s", fn, j, inner.message);
    for (int k = 0; k < total; k++) {
        uint64_t packed = 0;
        for (int j = 0; j < n_out; j++) {
            int64_t v = bases[(size_t)k * (size_t)n_out + (size_t)j];
            if ((uint64_t)v > layout_lin_mask(ob[j]))
                return layout_fail(err, LAYOUT_ERR_ARG,
                                   "%s: bases[%d] = %" PRId64 " does not fit output dim '%s' of %d bits", fn,
                                   k * n_out + j, v, l.out_names[j], ob[j]);
            packed |= layout_lin_shl((uint64_t)v, l.out_shift[j]);
        }
        l.bases[k] = packed;
    }
    *out = l;
    return layout_ok(err);
}

layout_status layout_linear_identity(layout_linear *out, const char *in_name, const char *out_name, int n_bits,
                                     layout_error *err)
{
    static const char fn[] = "layout_linear_identity";
    layout_linear l;
    layout_status st;
    layout_error inner;
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    layout_linear_init(&l, NULL);
    if ((st = layout_linear_add_in_dim(&l, in_name, n_bits, &inner)) ||
        (st = layout_linear_add_out_dim(&l, out_name, n_bits, &inner)))
        return layout_fail(err, st, "%s: %s", fn, inner.message);
    for (int b = 0; b < n_bits; b++) l.bases[b] = (uint64_t)1 << b;
    *out = l;
    return layout_ok(err);
}

/* Input (or output) dims of a layout as (name, bits) lists, for the rebuilders. */
typedef struct dim_list {
    int n;
    const char *names[2 * LAYOUT_LINEAR_MAX_DIMS];
    int bits[2 * LAYOUT_LINEAR_MAX_DIMS];
} dim_list;

static int dl_find(const dim_list *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->names[i], name) == 0) return i;
    return -1;
}

layout_status layout_linear_product(layout_linear *out, const layout_linear *inner, const layout_linear *outer,
                                    layout_error *err)
{
    static const char fn[] = "layout_linear_product";
    if (!out || !inner || !outer)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !out ? "out" : !inner ? "inner" : "outer");
    dim_list ins = {0}, outs = {0};
    const layout_linear *parts[2] = {inner, outer};
    for (int p = 0; p < 2; p++) {
        for (int i = 0; i < parts[p]->n_in; i++) {
            int k = dl_find(&ins, parts[p]->in_names[i]);
            if (k < 0) {
                k = ins.n++;
                ins.names[k] = parts[p]->in_names[i];
                ins.bits[k] = 0;
            }
            ins.bits[k] += parts[p]->in_bits[i];
        }
        for (int j = 0; j < parts[p]->n_out; j++) {
            int k = dl_find(&outs, parts[p]->out_names[j]);
            if (k < 0) {
                k = outs.n++;
                outs.names[k] = parts[p]->out_names[j];
                outs.bits[k] = 0;
            }
            outs.bits[k] += parts[p]->out_bits[j];
        }
    }
    layout_linear l;
    layout_status st;
    layout_error e2;
    layout_linear_init(&l, NULL);
    for (int i = 0; i < ins.n; i++)
        if ((st = layout_linear_add_in_dim(&l, ins.names[i], ins.bits[i], &e2)))
            return layout_fail(err, st, "%s: %s", fn, e2.message);
    for (int j = 0; j < outs.n; j++)
        if ((st = layout_linear_add_out_dim(&l, outs.names[j], outs.bits[j], &e2)))
            return layout_fail(err, st, "%s: %s", fn, e2.message);
    for (int p = 0; p < 2; p++) {
        const layout_linear *s = parts[p];
        for (int i = 0; i < s->n_in; i++) {
            int di = layout_linear_in_dim(&l, s->in_names[i]);
            int in_off = p == 1 ? (layout_linear_in_dim(inner, s->in_names[i]) >= 0
                                       ? inner->in_bits[layout_linear_in_dim(inner, s->in_names[i])]
                                       : 0)
                                : 0;
            for (int b = 0; b < s->in_bits[i]; b++) {
                uint64_t src = s->bases[s->in_shift[i] + b], dst = 0;
                for (int j = 0; j < s->n_out; j++) {
                    int dj = layout_linear_out_dim(&l, s->out_names[j]);
                    int ij = p == 1 ? layout_linear_out_dim(inner, s->out_names[j]) : -1;
                    int shift = ij >= 0 ? inner->out_bits[ij] : 0;
                    dst |= layout_lin_shl(layout_lin_extract(s, src, j), l.out_shift[dj] + shift);
                }
                l.bases[l.in_shift[di] + in_off + b] = dst;
            }
        }
    }
    *out = l;
    return layout_ok(err);
}

/* Check that names[0..n) is a permutation of the n_have names; perm[k] = old index. */
static layout_status need_perm(const char *fn, int n, const char *const *names, int n_have,
                               char (*have)[LAYOUT_LINEAR_NAME_CAP], int *perm, layout_error *err)
{
    if (n != n_have)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: n = %d names given, the layout has %d dims", fn, n, n_have);
    if (n > 0 && !names) return layout_fail(err, LAYOUT_ERR_NULL, "%s: names is NULL", fn);
    int used = 0;
    for (int k = 0; k < n; k++) {
        int f = -1;
        for (int i = 0; names[k] && i < n_have; i++)
            if (strcmp(have[i], names[k]) == 0) f = i;
        if (f < 0)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: names[%d] = '%s' is not a dim of the layout", fn, k,
                               names[k] ? names[k] : "(null)");
        if (used & (1 << f))
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: names[%d] = '%s' is repeated", fn, k, names[k]);
        used |= 1 << f;
        perm[k] = f;
    }
    return LAYOUT_OK;
}

layout_status layout_linear_transpose_outs(layout_linear *out, const layout_linear *in, int n,
                                           const char *const *names, layout_error *err)
{
    static const char fn[] = "layout_linear_transpose_outs";
    int perm[LAYOUT_LINEAR_MAX_DIMS];
    if (!out || !in) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !out ? "out" : "in");
    layout_status st = need_perm(fn, n, names, in->n_out, (char (*)[LAYOUT_LINEAR_NAME_CAP])in->out_names, perm, err);
    if (st) return st;
    layout_linear l = *in;
    l.n_out = 0;
    l.total_out_bits = 0;
    for (int k = 0; k < n; k++)
        layout_linear_add_out_dim(&l, in->out_names[perm[k]], in->out_bits[perm[k]], NULL);
    for (int b = 0; b < in->total_in_bits; b++) {
        uint64_t v = 0;
        for (int k = 0; k < n; k++) v |= layout_lin_shl(layout_lin_extract(in, in->bases[b], perm[k]), l.out_shift[k]);
        l.bases[b] = v;
    }
    *out = l;
    return layout_ok(err);
}

layout_status layout_linear_transpose_ins(layout_linear *out, const layout_linear *in, int n,
                                          const char *const *names, layout_error *err)
{
    static const char fn[] = "layout_linear_transpose_ins";
    int perm[LAYOUT_LINEAR_MAX_DIMS];
    if (!out || !in) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !out ? "out" : "in");
    layout_status st = need_perm(fn, n, names, in->n_in, (char (*)[LAYOUT_LINEAR_NAME_CAP])in->in_names, perm, err);
    if (st) return st;
    layout_linear l = *in;
    l.n_in = 0;
    l.total_in_bits = 0;
    memset(l.bases, 0, sizeof l.bases);
    for (int k = 0; k < n; k++) {
        layout_linear_add_in_dim(&l, in->in_names[perm[k]], in->in_bits[perm[k]], NULL);
        if (in->in_bits[perm[k]] > 0)
            memcpy(&l.bases[l.in_shift[k]], &in->bases[in->in_shift[perm[k]]],
                   sizeof(uint64_t) * (size_t)in->in_bits[perm[k]]);
    }
    *out = l;
    return layout_ok(err);
}

/* ---------------------------------------------------------------- query */

int layout_linear_in_dim(const layout_linear *ll, const char *name)
{
    if (!ll || !name) return -1;
    for (int i = 0; i < ll->n_in; i++)
        if (strcmp(ll->in_names[i], name) == 0) return i;
    return -1;
}

int layout_linear_out_dim(const layout_linear *ll, const char *name)
{
    if (!ll || !name) return -1;
    for (int j = 0; j < ll->n_out; j++)
        if (strcmp(ll->out_names[j], name) == 0) return j;
    return -1;
}

layout_status layout_linear_apply(const layout_linear *ll, const int64_t *in, int64_t *out, layout_error *err)
{
    static const char fn[] = "layout_linear_apply";
    if (!ll) return layout_fail(err, LAYOUT_ERR_NULL, "%s: ll is NULL", fn);
    if (!in && ll->n_in > 0) return layout_fail(err, LAYOUT_ERR_NULL, "%s: in is NULL", fn);
    if (!out && ll->n_out > 0) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    uint64_t packed = 0;
    for (int i = 0; i < ll->n_in; i++) {
        if (in[i] < 0 || (uint64_t)in[i] > layout_lin_mask(ll->in_bits[i]))
            return layout_fail(err, LAYOUT_ERR_RANGE,
                               "%s: in[%d] = %" PRId64 " is outside 0..%" PRIu64 " (input dim '%s')", fn, i, in[i],
                               layout_lin_mask(ll->in_bits[i]), ll->in_names[i]);
        packed |= layout_lin_shl((uint64_t)in[i], ll->in_shift[i]);
    }
    uint64_t r = layout_linear_apply_packed(ll, packed);
    for (int j = 0; j < ll->n_out; j++) out[j] = (int64_t)layout_lin_extract(ll, r, j);
    return layout_ok(err);
}

/* F2 rank of v[0..n). */
static int rank_of(const uint64_t *v, int n)
{
    uint64_t piv[64] = {0};
    int rank = 0;
    for (int k = 0; k < n; k++) {
        uint64_t x = v[k];
        while (x) {
            int h = layout_log2_floor_u64(x);
            if (!piv[h]) {
                piv[h] = x;
                rank++;
                break;
            }
            x ^= piv[h];
        }
    }
    return rank;
}

int layout_linear_rank(const layout_linear *ll)
{
    return ll ? rank_of(ll->bases, ll->total_in_bits) : -1;
}

int layout_linear_is_injective(const layout_linear *ll)
{
    return ll && layout_linear_rank(ll) == ll->total_in_bits;
}

int layout_linear_is_surjective(const layout_linear *ll)
{
    return ll && layout_linear_rank(ll) == ll->total_out_bits;
}

int layout_linear_is_bijective(const layout_linear *ll)
{
    return layout_linear_is_injective(ll) && layout_linear_is_surjective(ll);
}

int layout_linear_equal(const layout_linear *a, const layout_linear *b)
{
    if (!a || !b || a->n_in != b->n_in || a->n_out != b->n_out) return 0;
    for (int i = 0; i < a->n_in; i++)
        if (a->in_bits[i] != b->in_bits[i] || strcmp(a->in_names[i], b->in_names[i])) return 0;
    for (int j = 0; j < a->n_out; j++)
        if (a->out_bits[j] != b->out_bits[j] || strcmp(a->out_names[j], b->out_names[j])) return 0;
    for (int k = 0; k < a->total_in_bits; k++)
        if (a->bases[k] != b->bases[k]) return 0;
    return 1;
}

/* ---------------------------------------------------------------- algebra */

layout_status layout_linear_compose(layout_linear *out, const layout_linear *first, const layout_linear *second,
                                    layout_error *err)
{
    static const char fn[] = "layout_linear_compose";
    if (!out || !first || !second)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !out ? "out" : !first ? "first" : "second");
    int map[LAYOUT_LINEAR_MAX_DIMS];
    for (int j = 0; j < first->n_out; j++) {
        int k = layout_linear_in_dim(second, first->out_names[j]);
        if (k < 0)
            return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: first's output dim '%s' is not an input dim of second",
                               fn, first->out_names[j]);
        if (first->out_bits[j] > second->in_bits[k])
            return layout_fail(err, LAYOUT_ERR_MISMATCH,
                               "%s: first's output dim '%s' has %d bits, second's input dim has %d", fn,
                               first->out_names[j], first->out_bits[j], second->in_bits[k]);
        map[j] = k;
    }
    layout_linear l = *first;
    l.n_out = 0;
    l.total_out_bits = 0;
    for (int j = 0; j < second->n_out; j++)
        layout_linear_add_out_dim(&l, second->out_names[j], second->out_bits[j], NULL);
    for (int b = 0; b < first->total_in_bits; b++) {
        uint64_t mid = 0;
        for (int j = 0; j < first->n_out; j++)
            mid |= layout_lin_shl(layout_lin_extract(first, first->bases[b], j), second->in_shift[map[j]]);
        /* second's packed output = l's packed output: the same dims in the same order */
        l.bases[b] = layout_linear_apply_packed(second, mid);
    }
    *out = l;
    return layout_ok(err);
}

/* Right inverse on the pivot bits (see linear.h): rows[h] = the packed input
 * whose image is exactly bit h, for every output bit h (surjective only). */
static void right_inverse(const layout_linear *ll, uint64_t *pre)
{
    uint64_t img[64] = {0}, combo[64] = {0};
    for (int b = 0; b < ll->total_in_bits; b++) {
        uint64_t x = ll->bases[b], c = (uint64_t)1 << b;
        while (x) {
            int h = layout_log2_floor_u64(x);
            if (!img[h]) {
                img[h] = x;
                combo[h] = c;
                break;
            }
            x ^= img[h];
            c ^= combo[h];
        }
    }
    /* back substitution, lowest pivot first: img[h] becomes exactly bit h */
    for (int h = 0; h < ll->total_out_bits; h++) {
        uint64_t rest = img[h] & ~((uint64_t)1 << h);
        while (rest) {
            int l = __builtin_ctzll(rest);
            img[h] ^= img[l];
            combo[h] ^= combo[l];
            rest = img[h] & ~((uint64_t)1 << h);
        }
        pre[h] = combo[h];
    }
}

static layout_status invert_impl(const char *fn, layout_linear *out, const layout_linear *ll, int need_injective,
                                 layout_error *err)
{
    if (!out || !ll) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !out ? "out" : "ll");
    int rank = layout_linear_rank(ll);
    if (need_injective && rank != ll->total_in_bits)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: the layout is not injective (rank %d < %d input bits)", fn, rank,
                           ll->total_in_bits);
    if (rank != ll->total_out_bits)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: the layout is not surjective (rank %d < %d output bits)", fn,
                           rank, ll->total_out_bits);
    layout_linear l;
    layout_linear_init(&l, NULL);
    for (int j = 0; j < ll->n_out; j++) layout_linear_add_in_dim(&l, ll->out_names[j], ll->out_bits[j], NULL);
    for (int i = 0; i < ll->n_in; i++) layout_linear_add_out_dim(&l, ll->in_names[i], ll->in_bits[i], NULL);
    /* the packed layouts coincide: l's packed input is ll's packed output and vice versa */
    right_inverse(ll, l.bases);
    *out = l;
    return layout_ok(err);
}

layout_status layout_linear_invert(layout_linear *out, const layout_linear *ll, layout_error *err)
{
    return invert_impl("layout_linear_invert", out, ll, 1, err);
}

layout_status layout_linear_pseudo_invert(layout_linear *out, const layout_linear *ll, layout_error *err)
{
    return invert_impl("layout_linear_pseudo_invert", out, ll, 0, err);
}

/* ---------------------------------------------------------------- print */

int layout_linear_print(const layout_linear *ll, char *buf, size_t cap)
{
    if (!ll) return -1;
    layout_strbuf sb;
    layout_sb_init(&sb, buf, cap);
    if (ll->n_in == 0) {
        if (ll->n_out == 0) {
            layout_sb_printf(&sb, "(empty layout)");
            return layout_sb_result(&sb);
        }
        layout_sb_printf(&sb, "(empty layout with out-dims [");
    } else {
        for (int i = 0; i < ll->n_in; i++) {
            if (ll->in_bits[i] == 0) {
                layout_sb_printf(&sb, " - %s is a size 1 dimension\n", ll->in_names[i]);
                continue;
            }
            for (int b = 0; b < ll->in_bits[i]; b++) {
                uint64_t v = ll->bases[ll->in_shift[i] + b];
                layout_sb_printf(&sb, "%s%s=%" PRIu64 " -> (", b == 0 ? " - " : "   ", ll->in_names[i],
                                 (uint64_t)1 << b);
                for (int j = 0; j < ll->n_out; j++)
                    layout_sb_printf(&sb, "%s%" PRIu64, j ? ", " : "", layout_lin_extract(ll, v, j));
                layout_sb_printf(&sb, ")\n");
            }
        }
        layout_sb_printf(&sb, "where out dims are: [");
    }
    for (int j = 0; j < ll->n_out; j++)
        layout_sb_printf(&sb, "%s%s (size %" PRIu64 ")", j ? ", " : "", ll->out_names[j], (uint64_t)1 << ll->out_bits[j]);
    layout_sb_printf(&sb, ll->n_in == 0 ? "])" : "]");
    return layout_sb_result(&sb);
}
