/* Linear layouts <-> descriptors and distributions.
 *
 * desc -> linear: a structural proof that walks the adaptor from the top dims
 * to the offset, carrying for every hidden dim the F2 linear form of each of
 * its bits (a mask over the packed input bits).  A transform that cannot be
 * proved F2-linear on the values it can see stops the proof with a reason;
 * small tiles then get an exhaustive check against the evaluator instead.
 *
 * linear -> desc: merge each top dim into bits, a network of xor(2, 2)
 * transforms (b_t ^= b_s) from column Gaussian elimination, and embeds that
 * place each reduced basis at its offset bits. */
#include "layout/linear.h"

#include "../core/internal.h"
#include "linear_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Tiles of at most this many coordinates are verified exhaustively when the
 * structural proof fails. */
#define LIN_EXHAUSTIVE_MAX ((int64_t)1 << 16)

/* Linear form of every bit of one hidden value: bit k = parity(f[k] & x). */
typedef struct lin_rep {
    int nb;         /* the value is < 2^nb */
    int set;        /* computed */
    uint64_t f[64];
} lin_rep;

typedef struct lin_proof {
    lin_rep rep[LAYOUT_MAX_HIDDEN];
    char why[320];
} lin_proof;

static int fail_why(lin_proof *p, const layout_transform *t, int index, const char *fmt, int64_t a, int64_t b)
{
    char tbuf[120], rbuf[120];
    layout_transform_print(t, tbuf, sizeof tbuf);
    snprintf(rbuf, sizeof rbuf, fmt, a, b);
    snprintf(p->why, sizeof p->why, "not linear over F2: %s (transform t%d): %s", tbuf, index, rbuf);
    return 0;
}

/* low = sum up[i] * coef[i] for embed and unmerge: linear when every
 * coefficient that multiplies a non-constant value is a power of two and the
 * shifted bit ranges do not overlap (no carries). */
static int prove_sum(lin_proof *p, const layout_transform *t, int index, const layout_seq *up, lin_rep *low)
{
    lin_rep r;
    uint64_t used = 0;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < t->n_upper; i++) {
        const lin_rep *u = &p->rep[up->ids[i]];
        int64_t c = t->params[i];
        if (u->nb == 0 || c == 0) continue;
        int s = layout_log2_exact(c);
        if (s < 0) {
            if (t->kind == LAYOUT_UNMERGE)
                return fail_why(p, t, index, "place value %" PRId64 " of upper dim %" PRId64 " is not a power of two",
                                c, i);
            if (index == 0)
                return fail_why(p, t, index, "stride %" PRId64 " of dim %" PRId64 " is not a power of two", c, i);
            return fail_why(p, t, index, "coefficient %" PRId64 " of upper dim %" PRId64 " is not a power of two", c,
                            i);
        }
        if (s + u->nb > 63) return fail_why(p, t, index, "upper dim %" PRId64 " reaches bit %" PRId64, i, s + u->nb);
        uint64_t range = layout_lin_mask(u->nb) << s;
        if (used & range)
            return fail_why(p, t, index, "upper dim %" PRId64 " (coefficient %" PRId64
                            ") overlaps the bits of another upper dim (carries)", i, c);
        used |= range;
        for (int k = 0; k < u->nb; k++) r.f[s + k] = u->f[k];
        if (s + u->nb > r.nb) r.nb = s + u->nb;
    }
    r.set = 1;
    *low = r;
    return 1;
}

static void copy_rep(lin_rep *dst, const lin_rep *src)
{
    *dst = *src;
}

/* Bits [lo, hi) of u as a new value (hi clamped to u's bits). */
static void bit_field(lin_rep *dst, const lin_rep *u, int lo, int hi)
{
    lin_rep r;
    memset(&r, 0, sizeof r);
    if (hi > u->nb) hi = u->nb;
    for (int k = lo; k < hi; k++) r.f[k - lo] = u->f[k];
    r.nb = hi > lo ? hi - lo : 0;
    r.set = 1;
    *dst = r;
}

static int prove_transform(lin_proof *p, const layout_adaptor *a, int index)
{
    const layout_transform *t = &a->transforms[index];
    const layout_seq *up = &a->upper_hidden[index], *lo = &a->lower_hidden[index];
    lin_rep *low0 = lo->n > 0 ? &p->rep[lo->ids[0]] : NULL;
    const lin_rep *u0 = up->n > 0 ? &p->rep[up->ids[0]] : NULL;
    switch (t->kind) {
    case LAYOUT_PASS_THROUGH:
        copy_rep(low0, u0);
        return 1;
    case LAYOUT_PAD:
    case LAYOUT_LEFT_PAD:
    case LAYOUT_RIGHT_PAD:
        if (t->params[0] != 0 || t->params[1] != 0)
            return fail_why(p, t, index, "padding %" PRId64 " + %" PRId64
                            " makes coordinates invalid (padding is not linear)",
                            t->kind == LAYOUT_RIGHT_PAD ? 0 : t->params[0],
                            t->kind == LAYOUT_RIGHT_PAD ? t->params[0] : t->params[1]);
        /* zero padding still rejects values at or above the length: the value must stay below it */
        if (t->kind != LAYOUT_LEFT_PAD && ((uint64_t)1 << u0->nb) > (uint64_t)t->lower_lengths[0])
            return fail_why(p, t, index, "its upper value may reach 2^%" PRId64 " - 1, beyond its length %" PRId64
                            " (invalid coordinates)", u0->nb, t->lower_lengths[0]);
        copy_rep(low0, u0);
        return 1;
    case LAYOUT_SLICE:
    case LAYOUT_OFFSET:
        if (t->params[0] != 0)
            return fail_why(p, t, index, "adds the constant %" PRId64 " (affine, not linear)%.0" PRId64, t->params[0],
                            0);
        copy_rep(low0, u0);
        return 1;
    case LAYOUT_FREEZE:
        if (t->params[0] != 0)
            return fail_why(p, t, index, "pins a dim to the constant %" PRId64 " (affine, not linear)%.0" PRId64,
                            t->params[0], 0);
        memset(low0, 0, sizeof *low0);
        low0->set = 1;
        return 1;
    case LAYOUT_INSERT:
    case LAYOUT_REPLICATE:
        return 1;
    case LAYOUT_EMBED:
    case LAYOUT_UNMERGE:
        return prove_sum(p, t, index, up, low0);
    case LAYOUT_MODULO: {
        int m = layout_log2_exact(t->params[0]);
        if ((uint64_t)t->params[0] >= ((uint64_t)1 << u0->nb)) {
            copy_rep(low0, u0); /* never reduces */
            return 1;
        }
        if (m < 0) return fail_why(p, t, index, "modulus %" PRId64 " is not a power of two%.0" PRId64, t->params[0], 0);
        bit_field(low0, u0, 0, m);
        return 1;
    }
    case LAYOUT_XOR: {
        const lin_rep *u1 = &p->rep[up->ids[1]];
        lin_rep a0 = *u0, r = *u1;
        int m = layout_log2_exact(t->upper_lengths[1]);
        int reach = u0->nb;
        if ((uint64_t)t->upper_lengths[1] < ((uint64_t)1 << u0->nb)) {
            if (m < 0)
                return fail_why(p, t, index, "modulus %" PRId64 " is not a power of two%.0" PRId64,
                                t->upper_lengths[1], 0);
            reach = m;
        }
        for (int k = 0; k < reach; k++) r.f[k] ^= a0.f[k];
        if (reach > r.nb) r.nb = reach;
        r.set = 1;
        p->rep[lo->ids[0]] = a0;
        p->rep[lo->ids[1]] = r;
        return 1;
    }
    case LAYOUT_MERGE:
    case LAYOUT_MERGE_DIVMOD: {
        int total = 0, lg[LAYOUT_MAX_TRANSFORM_DIMS];
        for (int i = 0; i < t->n_lower; i++) {
            lg[i] = layout_log2_exact(t->lower_lengths[i]);
            if (lg[i] < 0)
                return fail_why(p, t, index, "length %" PRId64 " of lower dim %" PRId64 " is not a power of two",
                                t->lower_lengths[i], i);
            total += lg[i];
        }
        if (u0->nb > total)
            return fail_why(p, t, index, "its upper value may reach 2^%" PRId64 ", beyond its length 2^%" PRId64,
                            u0->nb, total);
        lin_rep src = *u0;
        int at = total;
        for (int i = 0; i < t->n_lower; i++) {
            at -= lg[i];
            bit_field(&p->rep[lo->ids[i]], &src, at, at + lg[i]);
        }
        return 1;
    }
    case LAYOUT_TRANSFORM_KIND_COUNT:
        break;
    }
    /* not reached: adaptors hold only checked kinds */
    return fail_why(p, t, index, "unknown transform kind %" PRId64 "%.0" PRId64, (int64_t)t->kind, 0);
}

/* Structural proof; on success img[b] = image of packed input bit b. */
static int prove_desc(lin_proof *p, const layout_descriptor *d, const layout_linear *l, uint64_t *img)
{
    const layout_adaptor *a = &d->adaptor;
    /* hidden ids are 0 .. n_hidden - 1: only those are read or written */
    int n_hidden = a->n_hidden > 0 && a->n_hidden <= LAYOUT_MAX_HIDDEN ? a->n_hidden : LAYOUT_MAX_HIDDEN;
    memset(p->rep, 0, (size_t)n_hidden * sizeof p->rep[0]);
    for (int i = 0; i < a->n_top; i++) {
        lin_rep *r = &p->rep[a->top_hidden[i]];
        r->nb = l->in_bits[i];
        r->set = 1;
        for (int k = 0; k < r->nb; k++) r->f[k] = (uint64_t)1 << (l->in_shift[i] + k);
    }
    for (int t = a->n_transforms - 1; t >= 0; t--)
        if (!prove_transform(p, a, t)) return 0;
    const lin_rep *off = &p->rep[a->bottom_hidden[0]];
    for (int b = 0; b < l->total_in_bits; b++) {
        uint64_t v = 0;
        for (int k = 0; k < off->nb; k++)
            if ((off->f[k] >> b) & 1u) v |= (uint64_t)1 << k;
        img[b] = v;
    }
    return 1;
}

static void unpack_coord(const layout_linear *l, uint64_t packed, int64_t *coord)
{
    for (int i = 0; i < l->n_in; i++) coord[i] = (int64_t)(layout_lin_shr(packed, l->in_shift[i]) & layout_lin_mask(l->in_bits[i]));
}

layout_status layout_desc_to_linear(const layout_descriptor *d, layout_linear *out, layout_error *err)
{
    static const char fn[] = "layout_desc_to_linear";
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, "%s: d is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    layout_linear l;
    layout_linear_init(&l, NULL);
    int n = d->adaptor.n_top;
    for (int i = 0; i < n; i++) {
        int64_t len = layout_desc_length(d, i);
        int lg = layout_log2_exact(len);
        if (lg < 0)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "%s: not linear over F2: top length %" PRId64 " of dim %d is not a power of two", fn,
                               len, i);
        char name[16];
        snprintf(name, sizeof name, "dim%d", i);
        layout_linear_add_in_dim(&l, name, lg, NULL); /* bits <= 62 in all: the tile size fits int64 */
    }
    lin_proof proof; /* prove_desc clears the reps it uses; why is set where the proof fails */
    proof.why[0] = '\0';
    uint64_t img[64] = {0};
    if (!prove_desc(&proof, d, &l, img)) {
        int64_t size = layout_desc_size(d);
        if (size > LIN_EXHAUSTIVE_MAX)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %s", fn, proof.why);
        /* exhaustive: the candidate is the offsets of the unit coordinates */
        int64_t coord[LAYOUT_MAX_DIMS];
        for (int b = 0; b < l.total_in_bits; b++) {
            unpack_coord(&l, (uint64_t)1 << b, coord);
            int64_t o = layout_desc_offset_unchecked(d, coord);
            if (o < 0) return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %s", fn, proof.why);
            img[b] = (uint64_t)o;
        }
        uint64_t expect = 0;
        for (uint64_t x = 0; x < (uint64_t)size; x++) {
            if (x) expect ^= img[__builtin_ctzll(x)]; /* Gray code: x and x-1 differ in bit ctz(x) */
            unpack_coord(&l, x ^ (x >> 1), coord);
            if (!layout_adaptor_is_valid_unchecked(&d->adaptor, coord) ||
                layout_desc_offset_unchecked(d, coord) != (int64_t)expect)
                return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %s", fn, proof.why);
        }
    }
    uint64_t all = 0;
    for (int b = 0; b < l.total_in_bits; b++) all |= img[b];
    if (layout_bit_length(all) > LAYOUT_LINEAR_MAX_DIM_BITS)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: offsets reach 2^%d, beyond a linear dim's %d bits", fn,
                           layout_bit_length(all) - 1, LAYOUT_LINEAR_MAX_DIM_BITS);
    layout_linear_add_out_dim(&l, "offset", layout_bit_length(all), NULL);
    memcpy(l.bases, img, sizeof img);
    *out = l;
    return layout_ok(err);
}

/* ---------------------------------------------------------------- distributions */

static void dist_unpack(const layout_linear *l, uint64_t packed, int *warp, int *lane, int64_t *elem)
{
    *elem = (int64_t)(packed & layout_lin_mask(l->in_bits[0]));
    *lane = (int)(layout_lin_shr(packed, l->in_shift[1]) & layout_lin_mask(l->in_bits[1]));
    *warp = (int)(layout_lin_shr(packed, l->in_shift[2]) & layout_lin_mask(l->in_bits[2]));
}

static int enc_is_placement(const layout_distribution *d)
{
    if (d->kind != LAYOUT_DIST_ENCODING) return 0;
    const layout_dist_encoding *e = &d->encoding;
    for (int i = 0; i < e->n_r; i++)
        if (layout_log2_exact(e->r[i]) < 0) return 0;
    for (int x = 0; x < e->n_x; x++)
        for (int i = 0; i < e->n_h[x]; i++)
            if (layout_log2_exact(e->h[x][i]) < 0) return 0;
    return 1;
}

layout_status layout_dist_to_linear(const layout_distribution *d, layout_linear *out, layout_error *err)
{
    static const char fn[] = "layout_dist_to_linear";
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, "%s: d is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    int rb = layout_log2_exact(d->elems_per_thread), lb = layout_log2_exact(d->wave_size),
        wb = layout_log2_exact(d->n_warps);
    if (rb < 0)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: not linear over F2: elems_per_thread %" PRId64 " is not a power of two", fn,
                           d->elems_per_thread);
    if (lb < 0)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: not linear over F2: wave_size %d is not a power of two",
                           fn, d->wave_size);
    if (wb < 0)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: not linear over F2: n_warps %d is not a power of two", fn,
                           d->n_warps);
    layout_linear l;
    layout_linear_init(&l, NULL);
    layout_linear_add_in_dim(&l, "register", rb, NULL);
    layout_linear_add_in_dim(&l, "lane", lb, NULL);
    layout_linear_add_in_dim(&l, "warp", wb, NULL);
    for (int x = 0; x < d->n_x; x++) {
        int lg = layout_log2_exact(d->x_lengths[x]);
        if (lg < 0)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "%s: not linear over F2: X length %" PRId64 " of dim %d is not a power of two", fn,
                               d->x_lengths[x], x);
        char name[16];
        snprintf(name, sizeof name, "dim%d", x);
        layout_status st = layout_linear_add_out_dim(&l, name, lg, NULL);
        if (st) return layout_fail(err, st, "%s: the X dims have more than %d bits", fn, LAYOUT_LINEAR_MAX_BITS);
    }
    int64_t xs[LAYOUT_MAX_DIMS];
    layout_status st;
    layout_error inner;
    int warp, lane;
    int64_t elem;
    /* candidate: images of the unit inputs */
    for (int b = 0; b < l.total_in_bits; b++) {
        dist_unpack(&l, (uint64_t)1 << b, &warp, &lane, &elem);
        if ((st = layout_dist_coord_elem(d, warp, lane, elem, xs, &inner)))
            return layout_fail(err, st, "%s: %s", fn, inner.message);
        uint64_t v = 0;
        for (int x = 0; x < d->n_x; x++) v |= layout_lin_shl((uint64_t)xs[x], l.out_shift[x]);
        l.bases[b] = v;
    }
    if (!enc_is_placement(d)) {
        int64_t triples = (int64_t)1 << l.total_in_bits;
        if (triples > LIN_EXHAUSTIVE_MAX)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "%s: cannot decide: %" PRId64 " (warp, lane, register) triples are too many to verify "
                               "and the distribution is not an encoding with power-of-two R and H",
                               fn, triples);
        for (uint64_t p = 0; p < (uint64_t)triples; p++) {
            dist_unpack(&l, p, &warp, &lane, &elem);
            if ((st = layout_dist_coord_elem(d, warp, lane, elem, xs, &inner)))
                return layout_fail(err, st, "%s: %s", fn, inner.message);
            uint64_t expect = layout_linear_apply_packed(&l, p);
            for (int x = 0; x < d->n_x; x++)
                if ((uint64_t)xs[x] != layout_lin_extract(&l, expect, x))
                    return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                                       "%s: not linear over F2: warp %d lane %d register %" PRId64 " holds X[%d] = %"
                                       PRId64 ", the XOR of its bits' images gives %" PRIu64,
                                       fn, warp, lane, elem, x, xs[x], layout_lin_extract(&l, expect, x));
        }
    }
    *out = l;
    return layout_ok(err);
}

layout_status layout_linear_to_dist(const layout_linear *ll, int64_t *table, size_t table_cap,
                                    layout_distribution *out, layout_error *err)
{
    static const char fn[] = "layout_linear_to_dist";
    if (!ll) return layout_fail(err, LAYOUT_ERR_NULL, "%s: ll is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    int ri = layout_linear_in_dim(ll, "register"), li = layout_linear_in_dim(ll, "lane"),
        wi = layout_linear_in_dim(ll, "warp");
    if (ri < 0 || li < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: the layout has no input dim '%s'", fn, ri < 0 ? "register" : "lane");
    for (int i = 0; i < ll->n_in; i++)
        if (i != ri && i != li && i != wi)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "%s: input dim '%s' is not one of register, lane, warp", fn, ll->in_names[i]);
    if (ll->n_out < 1 || ll->n_out > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: n_out = %d must be in 1..%d", fn, ll->n_out, LAYOUT_MAX_DIMS);
    if (ll->in_bits[li] > 6)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: input dim 'lane' has %d bits: wave size %" PRIu64 " > %d", fn,
                           ll->in_bits[li], (uint64_t)1 << ll->in_bits[li], LAYOUT_MAX_LANES);
    int wbits = wi >= 0 ? ll->in_bits[wi] : 0;
    if (ll->in_bits[ri] + wbits > 30)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %d register + warp bits are too many for a table", fn,
                           ll->in_bits[ri] + wbits);
    uint64_t elems = (uint64_t)1 << ll->in_bits[ri], wave = (uint64_t)1 << ll->in_bits[li],
             warps = (uint64_t)1 << wbits;
    uint64_t need = elems * wave * warps * (uint64_t)ll->n_out;
    if (!table) return layout_fail(err, LAYOUT_ERR_NULL, "%s: table is NULL", fn);
    if (table_cap < need)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: table_cap = %zu values, %" PRIu64 " needed", fn, table_cap,
                           need);
    int64_t xl[LAYOUT_MAX_DIMS];
    for (int j = 0; j < ll->n_out; j++) {
        if (ll->out_bits[j] > LAYOUT_LINEAR_MAX_DIM_BITS)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: output dim %d has %d bits, at most %d", fn, j, ll->out_bits[j],
                               LAYOUT_LINEAR_MAX_DIM_BITS);
        xl[j] = (int64_t)1 << ll->out_bits[j];
    }
    layout_distribution d;
    /* fill a scratch-free way: write straight into the caller's table, then validate */
    size_t k = 0;
    for (uint64_t w = 0; w < warps; w++)
        for (uint64_t l = 0; l < wave; l++)
            for (uint64_t e = 0; e < elems; e++) {
                uint64_t p = layout_lin_shl(e, ll->in_shift[ri]) | layout_lin_shl(l, ll->in_shift[li]) | (wi >= 0 ? layout_lin_shl(w, ll->in_shift[wi]) : 0);
                uint64_t v = layout_linear_apply_packed(ll, p);
                for (int j = 0; j < ll->n_out; j++) table[k++] = (int64_t)layout_lin_extract(ll, v, j);
            }
    layout_status st = layout_dist_from_table(&d, ll->n_out, xl, (int)wave, (int)warps, (int64_t)elems, table, err);
    if (st) return st;
    *out = d;
    return layout_ok(err);
}

/* ---------------------------------------------------------------- linear -> descriptor */

typedef struct net {
    int n_t, n_h;
    layout_transform t[LAYOUT_MAX_TRANSFORMS];
    layout_seq lo[LAYOUT_MAX_TRANSFORMS], up[LAYOUT_MAX_TRANSFORMS];
    int overflow;
} net;

static int net_id(net *n)
{
    if (n->n_h >= LAYOUT_MAX_HIDDEN) {
        n->overflow = 1;
        return 0;
    }
    return n->n_h++;
}

static layout_transform *net_add(net *n)
{
    if (n->n_t >= LAYOUT_MAX_TRANSFORMS) {
        n->overflow = 1;
        return NULL;
    }
    n->lo[n->n_t].n = n->up[n->n_t].n = 0;
    return &n->t[n->n_t++];
}

/* merge top id `top` into the bits wires[0..k) (wires[0] least significant);
 * inner merges come first in the list (their uppers are read by the outer one). */
static void net_split(net *n, int top, const int *wires, int k)
{
    int64_t lens[LAYOUT_MAX_TRANSFORM_DIMS] = {0}; /* -O3 cannot see that k >= 1 */
    int ids[LAYOUT_MAX_TRANSFORM_DIMS], m = 0;
    if (k > 8) {
        int hi = net_id(n);
        net_split(n, hi, wires + 7, k - 7);
        lens[m] = (int64_t)1 << (k - 7);
        ids[m++] = hi;
        for (int b = 6; b >= 0; b--) {
            lens[m] = 2;
            ids[m++] = wires[b];
        }
    } else {
        for (int b = k - 1; b >= 0; b--) {
            lens[m] = 2;
            ids[m++] = wires[b];
        }
    }
    layout_transform *t = net_add(n);
    if (!t) return;
    layout_make_merge(m, lens, t, NULL);
    n->lo[n->n_t - 1] = layout_seq_from(m, ids);
    n->up[n->n_t - 1] = layout_seq_from(1, &top);
}

/* The stage form, when the layout is a placement plus one xor per field pair
 * (the shape of ck_tile's and Triton's swizzles): naive over "fields" (runs
 * of input bits placed at runs of offset bits), one stage of xor(2^w, 2^w)
 * between fields, one stage of merges back to the input dims.  It has a text
 * form.  Returns 1 and fills *out when the layout has that shape. */
static int stage_form(const layout_linear *ll, layout_descriptor *out)
{
    const int T = ll->total_in_bits;
    int home[64], tgt[64], owner[64], src_of[64], dim_of[64], same[64];
    const uint64_t *v = ll->bases;
    if (T == 0) return 0;
    for (int k = 0; k < 64; k++) owner[k] = src_of[k] = -1;
    for (int i = 0; i < ll->n_in; i++)
        for (int k = 0; k < ll->in_bits[i]; k++) dim_of[ll->in_shift[i] + k] = i;
    for (int b = 0; b < T; b++) {
        tgt[b] = -1;
        home[b] = v[b] ? layout_log2_floor_u64(v[b]) : -1;
        if (home[b] < 0) continue;
        if (owner[home[b]] >= 0) return 0;
        owner[home[b]] = b;
    }
    for (int b = 0; b < T; b++) {
        if (home[b] < 0) continue;
        uint64_t extra = v[b] & ~((uint64_t)1 << home[b]);
        if (!extra) continue;
        if (extra & (extra - 1)) return 0; /* one target per source */
        int t = __builtin_ctzll(extra);
        if (owner[t] < 0 || src_of[t] >= 0) return 0; /* a bit nobody places, or two sources */
        src_of[t] = b;
        tgt[b] = t;
    }
    for (int b = 0; b < T; b++) /* one xor stage: no source is a target, no target a source */
        if (tgt[b] >= 0 && (tgt[owner[tgt[b]]] >= 0 || src_of[home[b]] >= 0)) return 0;
    /* join b and b+1 of one dim when they continue each other in every role; refine to a fixpoint */
    for (int b = 0; b + 1 < T; b++) {
        int c = b + 1;
        same[b] = dim_of[c] == dim_of[b];
        if (!same[b]) continue;
        if (home[b] < 0 || home[c] < 0) {
            same[b] = home[b] < 0 && home[c] < 0;
            continue;
        }
        same[b] = home[c] == home[b] + 1 && ((tgt[b] < 0 && tgt[c] < 0) || (tgt[b] >= 0 && tgt[c] == tgt[b] + 1)) &&
                  ((src_of[home[b]] < 0 && src_of[home[c]] < 0) ||
                   (src_of[home[b]] >= 0 && src_of[home[c]] == src_of[home[b]] + 1));
    }
    if (T > 0) same[T - 1] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int b = 0; b + 1 < T; b++) {
            if (!same[b]) continue;
            int partner = tgt[b] >= 0 ? owner[tgt[b]] : home[b] >= 0 && src_of[home[b]] >= 0 ? src_of[home[b]] : -1;
            if (partner >= 0 && !same[partner]) same[b] = 0, changed = 1;
        }
    }
    /* fields: runs of joined bits */
    int field[64], nf = 0, f_lo[LAYOUT_MAX_DIMS], f_w[LAYOUT_MAX_DIMS];
    for (int b = 0; b < T; b++) {
        if (b == 0 || !same[b - 1]) {
            if (nf == LAYOUT_MAX_DIMS) return 0;
            f_lo[nf] = b;
            f_w[nf++] = 0;
        }
        field[b] = nf - 1;
        f_w[nf - 1]++;
    }
    int64_t lens[LAYOUT_MAX_DIMS], strides[LAYOUT_MAX_DIMS];
    for (int f = 0; f < nf; f++) {
        lens[f] = (int64_t)1 << f_w[f];
        strides[f] = home[f_lo[f]] < 0 ? 0 : (int64_t)1 << home[f_lo[f]];
    }
    layout_descriptor d;
    if (layout_naive(&d, nf, lens, strides, NULL)) return 0;
    /* the xor stage */
    layout_transform t[LAYOUT_MAX_DIMS];
    layout_seq lo[LAYOUT_MAX_DIMS], up[LAYOUT_MAX_DIMS];
    int n_t = 0, n_xor = 0, done[LAYOUT_MAX_DIMS] = {0};
    for (int f = 0; f < nf; f++) {
        int b = f_lo[f];
        if (tgt[b] < 0) continue;
        int g = field[owner[tgt[b]]];
        if (f_w[g] != f_w[f] || f_lo[g] != owner[tgt[b]]) return 0; /* not reached after the refinement */
        layout_make_xor(lens[f], lens[g], &t[n_t], NULL);
        int ids[2] = {f, g};
        lo[n_t] = up[n_t] = layout_seq_from(2, ids);
        n_t++, n_xor++;
        done[f] = done[g] = 1;
    }
    if (n_xor) {
        for (int f = 0; f < nf; f++)
            if (!done[f]) {
                layout_make_pass_through(lens[f], &t[n_t], NULL);
                lo[n_t] = up[n_t] = layout_seq_from(1, &f);
                n_t++;
            }
        if (layout_transform_descriptor(&d, &d, n_t, t, lo, up, NULL)) return 0;
    }
    /* the merge stage: fields of each input dim, most significant first */
    n_t = 0;
    for (int i = 0; i < ll->n_in; i++) {
        int ids[LAYOUT_MAX_DIMS], n_ids = 0;
        int64_t fl[LAYOUT_MAX_DIMS];
        for (int f = nf - 1; f >= 0; f--)
            if (dim_of[f_lo[f]] == i && ll->in_bits[i] > 0) ids[n_ids] = f, fl[n_ids++] = lens[f];
        if (n_ids == 0) {
            layout_make_insert(1, &t[n_t], NULL);
            lo[n_t].n = 0;
        } else if (n_ids == 1) {
            layout_make_pass_through(fl[0], &t[n_t], NULL);
            lo[n_t] = layout_seq_from(1, ids);
        } else {
            layout_make_merge(n_ids, fl, &t[n_t], NULL);
            lo[n_t] = layout_seq_from(n_ids, ids);
        }
        up[n_t] = layout_seq_from(1, &i);
        n_t++;
    }
    if (layout_transform_descriptor(&d, &d, n_t, t, lo, up, NULL)) return 0;
    *out = d;
    return 1;
}

layout_status layout_linear_to_desc(const layout_linear *ll, layout_descriptor *out, layout_error *err)
{
    static const char fn[] = "layout_linear_to_desc";
    if (!ll) return layout_fail(err, LAYOUT_ERR_NULL, "%s: ll is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (!layout_lin_single_out(ll))
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: the layout has %d output dims, a descriptor has one offset (others must be of size 1)",
                           fn, ll->n_out);
    if (ll->n_in < 1 || ll->n_in > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: the layout has %d input dims, a descriptor needs 1..%d", fn,
                           ll->n_in, LAYOUT_MAX_DIMS);
    int T = ll->total_in_bits, nonzero = 0;
    for (int b = 0; b < T; b++) nonzero += ll->bases[b] != 0;
    int rank = layout_linear_rank(ll);
    if (rank != nonzero)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: the non-zero bases are dependent (rank %d < %d): two coordinates that differ in "
                           "non-broadcast bits share an offset",
                           fn, rank, nonzero);
    if (stage_form(ll, out)) return layout_ok(err);
    /* column elimination, pivot = highest bit; ops[k] = (target wire, source wire) */
    uint64_t col[64];
    int piv[64], ops_t[64 * 64 / 8 + 64], ops_s[64 * 64 / 8 + 64], n_ops = 0;
    const int max_ops = (int)(sizeof ops_t / sizeof ops_t[0]);
    memcpy(col, ll->bases, sizeof col);
    for (int b = 0; b < T; b++) {
        piv[b] = -1;
        if (!col[b]) continue;
        for (int a = 0; a < b; a++)
            if (piv[a] >= 0 && ((col[b] >> piv[a]) & 1u)) {
                col[b] ^= col[a]; /* column op b ^= a  ->  wire a ^= wire b */
                if (n_ops < max_ops) ops_t[n_ops] = a, ops_s[n_ops] = b;
                n_ops++;
            }
        piv[b] = layout_log2_floor_u64(col[b]);
        for (int a = 0; a < b; a++)
            if (piv[a] >= 0 && ((col[a] >> piv[b]) & 1u)) {
                col[a] ^= col[b]; /* column op a ^= b  ->  wire b ^= wire a */
                if (n_ops < max_ops) ops_t[n_ops] = b, ops_s[n_ops] = a;
                n_ops++;
            }
    }
    uint64_t used = 0;
    for (int b = 0; b < T; b++) {
        if (used & col[b])
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "%s: reduced basis %#" PRIx64 " shares output bits with another (an offset bit is the "
                               "XOR of several reduced bases, which embed cannot sum)",
                               fn, col[b]);
        used |= col[b];
    }
    if (n_ops > LAYOUT_MAX_TRANSFORMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %d xor steps needed, at most %d transforms", fn, n_ops,
                           LAYOUT_MAX_TRANSFORMS);
    /* the network, bottom first */
    static const net zero_net;
    net nt = zero_net;
    int bottom = net_id(&nt);
    int leaf_id[LAYOUT_LINEAR_MAX_BITS + LAYOUT_LINEAR_MAX_DIMS];
    int64_t leaf_len[LAYOUT_LINEAR_MAX_BITS + LAYOUT_LINEAR_MAX_DIMS], leaf_coef[LAYOUT_LINEAR_MAX_BITS + LAYOUT_LINEAR_MAX_DIMS];
    int n_leaf = 0, wire[64], top_id[LAYOUT_MAX_DIMS];
    for (int i = 0; i < ll->n_in; i++) {
        if (ll->in_bits[i] == 0) {
            top_id[i] = leaf_id[n_leaf] = net_id(&nt);
            leaf_len[n_leaf] = 1;
            leaf_coef[n_leaf++] = 0;
            continue;
        }
        for (int k = 0; k < ll->in_bits[i]; k++) {
            int b = ll->in_shift[i] + k;
            wire[b] = leaf_id[n_leaf] = net_id(&nt);
            leaf_len[n_leaf] = 2;
            leaf_coef[n_leaf++] = (int64_t)col[b];
        }
    }
    /* embeds: one, or one over chunks of at most 8 leaves */
    int n_chunks = (n_leaf + LAYOUT_MAX_TRANSFORM_DIMS - 1) / LAYOUT_MAX_TRANSFORM_DIMS;
    if (n_chunks > LAYOUT_MAX_TRANSFORM_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %d leaves need %d embeds of 8", fn, n_leaf, n_chunks);
    if (n_chunks <= 1) {
        layout_transform *t = net_add(&nt);
        layout_make_embed(n_leaf, leaf_len, leaf_coef, t, NULL);
        nt.lo[0] = layout_seq_from(1, &bottom);
        nt.up[0] = layout_seq_from(n_leaf, leaf_id);
    } else {
        int chunk_id[LAYOUT_MAX_TRANSFORM_DIMS];
        int64_t chunk_len[LAYOUT_MAX_TRANSFORM_DIMS], ones[LAYOUT_MAX_TRANSFORM_DIMS];
        for (int c = 0; c < n_chunks; c++) {
            int64_t max = 0;
            for (int k = c * 8; k < n_leaf && k < c * 8 + 8; k++) max += leaf_coef[k] * (leaf_len[k] - 1);
            chunk_id[c] = net_id(&nt);
            chunk_len[c] = max + 1;
            ones[c] = 1;
        }
        layout_transform *t = net_add(&nt);
        layout_make_embed(n_chunks, chunk_len, ones, t, NULL);
        nt.lo[0] = layout_seq_from(1, &bottom);
        nt.up[0] = layout_seq_from(n_chunks, chunk_id);
        for (int c = 0; c < n_chunks; c++) {
            int m = n_leaf - c * 8 < 8 ? n_leaf - c * 8 : 8;
            t = net_add(&nt);
            layout_make_embed(m, leaf_len + c * 8, leaf_coef + c * 8, t, NULL);
            nt.lo[nt.n_t - 1] = layout_seq_from(1, &chunk_id[c]);
            nt.up[nt.n_t - 1] = layout_seq_from(m, leaf_id + c * 8);
        }
    }
    /* xor steps, last applied first: upper (source, target) -> lower (source, target ^ source) */
    for (int k = n_ops - 1; k >= 0; k--) {
        layout_transform *t = net_add(&nt);
        if (!t) break;
        int s = ops_s[k], tg = ops_t[k];
        int lo_ids[2] = {wire[s], wire[tg]};
        wire[s] = net_id(&nt);
        wire[tg] = net_id(&nt);
        int up_ids[2] = {wire[s], wire[tg]};
        layout_make_xor(2, 2, t, NULL);
        nt.lo[nt.n_t - 1] = layout_seq_from(2, lo_ids);
        nt.up[nt.n_t - 1] = layout_seq_from(2, up_ids);
    }
    /* top dims: split into bits */
    for (int i = 0; i < ll->n_in; i++) {
        if (ll->in_bits[i] == 0) continue;
        if (ll->in_bits[i] == 1) {
            top_id[i] = wire[ll->in_shift[i]];
            continue;
        }
        top_id[i] = net_id(&nt);
        net_split(&nt, top_id[i], wire + ll->in_shift[i], ll->in_bits[i]);
    }
    if (nt.overflow)
        return layout_fail(err, LAYOUT_ERR_CAPACITY,
                           "%s: the network (%d xor steps, %d bits) exceeds %d transforms or %d hidden dims", fn, n_ops,
                           T, LAYOUT_MAX_TRANSFORMS, LAYOUT_MAX_HIDDEN);
    layout_descriptor d;
    layout_error inner;
    layout_status st = layout_adaptor_from_hidden(&d.adaptor, nt.n_t, nt.t, nt.lo, nt.up, 1, &bottom, ll->n_in,
                                                  top_id, &inner);
    if (st) return layout_fail(err, st, "%s: %s", fn, inner.message);
    d.element_space_size = (int64_t)1 << ll->total_out_bits;
    for (int h = 0; h < LAYOUT_MAX_HIDDEN; h++) d.guaranteed_vector_length[h] = d.guaranteed_vector_stride[h] = -1;
    *out = d;
    return layout_ok(err);
}
