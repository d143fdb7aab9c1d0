/* Reference evaluator and random compositions (see ref_eval.h).  Only the
 * builder touches the library, through public constructors. */
#include "ref_eval.h"

#include <string.h>

static int64_t product(int n, const int64_t *v)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++) p *= v[i];
    return p;
}

/* Upper length of output j of transform x. */
static int64_t up_length(const ref_xf *x, int j)
{
    switch (x->kind) {
    case REF_PASS: case REF_INSERT: case REF_OFFSET: case REF_MODULO: return x->len;
    case REF_PAD: return x->len + x->x + x->y;
    case REF_LPAD: return x->len + x->x;
    case REF_RPAD: return x->len + x->y;
    case REF_EMBED: case REF_UNMERGE: case REF_REPLICATE: return x->a[j];
    case REF_MERGE: case REF_MERGE_DIVMOD: return product(x->n_low, x->a);
    case REF_SLICE: return x->y - x->x;
    case REF_XOR: return x->a[j];
    default: return 0;
    }
}

static int stage_lengths(const ref_stage *s, int64_t *lengths)
{
    for (int i = 0; i < s->n_xf; i++)
        for (int j = 0; j < s->xf[i].n_up; j++) lengths[s->xf[i].up_ids[j]] = up_length(&s->xf[i], j);
    return s->n_top;
}

int ref_top_lengths(const ref_desc *d, int64_t *lengths)
{
    if (d->n_stages == 0) {
        memcpy(lengths, d->base_len, sizeof(int64_t) * (size_t)d->n_base);
        return d->n_base;
    }
    return stage_lengths(&d->stages[d->n_stages - 1], lengths);
}

/* Lower values from upper values for one transform; returns 0 if a pad
 * rejects the upper value. */
static int ref_lower(const ref_xf *x, const int64_t *up, int64_t *low)
{
    switch (x->kind) {
    case REF_PASS: low[0] = up[0]; return 1;
    case REF_PAD: low[0] = up[0] - x->x; return up[0] >= x->x && up[0] < x->x + x->len;
    case REF_LPAD: low[0] = up[0] - x->x; return up[0] >= x->x;
    case REF_RPAD: low[0] = up[0]; return up[0] < x->len;
    case REF_EMBED: {
        int64_t s = 0;
        for (int i = 0; i < x->n_up; i++) s += up[i] * x->b[i];
        low[0] = s;
        return 1;
    }
    case REF_MERGE: case REF_MERGE_DIVMOD: {
        /* mixed radix, least significant (last) digit first */
        int64_t v = up[0];
        for (int i = x->n_low - 1; i > 0; i--) {
            low[i] = v % x->a[i];
            v /= x->a[i];
        }
        low[0] = v;
        return 1;
    }
    case REF_UNMERGE: {
        int64_t s = 0;
        for (int i = 0; i < x->n_up; i++) s = s * x->a[i] + up[i];
        low[0] = s;
        return 1;
    }
    case REF_FREEZE: low[0] = x->x; return 1;
    case REF_INSERT: case REF_REPLICATE: return 1;
    case REF_SLICE: low[0] = up[0] + x->x; return 1;
    case REF_MODULO: low[0] = up[0] % x->x; return 1;
    case REF_XOR: low[0] = up[0]; low[1] = up[1] ^ (up[0] % x->a[1]); return 1;
    case REF_OFFSET: low[0] = up[0] + x->x; return 1;
    default: return 0;
    }
}

int64_t ref_offset(const ref_desc *d, const int64_t *top, int *valid)
{
    int64_t cur[REF_MAX], old[REF_MAX];
    int n_cur = ref_top_lengths(d, cur); /* only for the count */
    memcpy(cur, top, sizeof(int64_t) * (size_t)n_cur);
    *valid = 1;
    for (int s = d->n_stages - 1; s >= 0; s--) {
        const ref_stage *st = &d->stages[s];
        memset(old, 0, sizeof old);
        for (int i = 0; i < st->n_xf; i++) {
            const ref_xf *x = &st->xf[i];
            int64_t up[REF_MAX], low[REF_MAX];
            for (int j = 0; j < x->n_up; j++) up[j] = cur[x->up_ids[j]];
            if (!ref_lower(x, up, low)) *valid = 0;
            for (int j = 0; j < x->n_low; j++) old[x->low_ids[j]] = low[j];
        }
        memcpy(cur, old, sizeof cur);
    }
    int64_t off = 0;
    if (d->packed) {
        for (int i = 0; i < d->n_base; i++) off = off * d->base_len[i] + cur[i];
    } else {
        for (int i = 0; i < d->n_base; i++) off += cur[i] * d->base_stride[i];
    }
    return off;
}

/* ----------------------------------------------------------- builder */

layout_status ref_build_xf(const ref_xf *x, layout_transform *t, layout_error *err)
{
    switch (x->kind) {
    case REF_PASS: return layout_make_pass_through(x->len, t, err);
    case REF_PAD: return layout_make_pad(x->len, x->x, x->y, t, err);
    case REF_LPAD: return layout_make_left_pad(x->len, x->x, t, err);
    case REF_RPAD: return layout_make_right_pad(x->len, x->y, t, err);
    case REF_EMBED: return layout_make_embed(x->n_up, x->a, x->b, t, err);
    case REF_MERGE: return layout_make_merge(x->n_low, x->a, t, err);
    case REF_MERGE_DIVMOD: return layout_make_merge_divmod(x->n_low, x->a, t, err);
    case REF_UNMERGE: return layout_make_unmerge(x->n_up, x->a, t, err);
    case REF_FREEZE: return layout_make_freeze(x->x, t, err);
    case REF_INSERT: return layout_make_insert(x->len, t, err);
    case REF_REPLICATE: return layout_make_replicate(x->n_up, x->a, t, err);
    case REF_SLICE: return layout_make_slice(x->len, x->x, x->y, t, err);
    case REF_MODULO: return layout_make_modulo(x->x, x->len, t, err);
    case REF_XOR: return layout_make_xor(x->a[0], x->a[1], t, err);
    case REF_OFFSET: return layout_make_offset(x->len, x->x, t, err);
    default: return LAYOUT_ERR_ARG;
    }
}

layout_status ref_build(const ref_desc *d, layout_descriptor *out, layout_error *err)
{
    layout_descriptor cur;
    layout_status st = d->packed ? layout_packed(&cur, d->n_base, d->base_len, err)
                                 : layout_naive(&cur, d->n_base, d->base_len, d->base_stride, err);
    if (st) return st;
    for (int s = 0; s < d->n_stages; s++) {
        const ref_stage *rs = &d->stages[s];
        layout_transform ts[REF_MAX];
        layout_seq low[REF_MAX], up[REF_MAX];
        for (int i = 0; i < rs->n_xf; i++) {
            if ((st = ref_build_xf(&rs->xf[i], &ts[i], err))) return st;
            low[i] = layout_seq_from(rs->xf[i].n_low, rs->xf[i].low_ids);
            up[i] = layout_seq_from(rs->xf[i].n_up, rs->xf[i].up_ids);
        }
        if ((st = layout_transform_descriptor(&cur, &cur, rs->n_xf, ts, low, up, err))) return st;
    }
    *out = cur;
    return LAYOUT_OK;
}

/* --------------------------------------------------------- generator */

static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static int64_t pick(uint64_t *s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(next(s) % (uint64_t)(hi - lo + 1));
}

/* Split n into factors (at most max_parts); returns the count. */
static int factorize(uint64_t *s, int64_t n, int max_parts, int64_t *parts)
{
    int k = 0;
    while (k < max_parts - 1 && n > 1 && pick(s, 0, 2)) {
        int64_t f = pick(s, 1, n);
        if (n % f) continue;
        parts[k++] = f;
        n /= f;
    }
    parts[k++] = n;
    return k;
}

/* One random transform consuming some of the old dims in[0..n_in)
 * (lengths len[]) and adding at most `room` new dims.  Returns how many old
 * dims it consumed (0 for insert/replicate, only when allow_zero). */
static int random_xf(uint64_t *s, const int *in, int n_in, const int64_t *len, int room, int allow_zero,
                     ref_xf *x)
{
    memset(x, 0, sizeof *x);
    int r = (int)pick(s, 0, 99);
    if (n_in >= 2 && r < 12) {
        x->kind = REF_XOR;
        x->n_low = x->n_up = 2;
        x->low_ids[0] = in[0];
        x->low_ids[1] = in[1];
        x->a[0] = len[in[0]] * (pick(s, 0, 3) == 0 ? 2 : 1); /* RowMul-style declared length */
        x->a[1] = len[in[1]];
        return 2;
    }
    if (n_in >= 2 && r < 24) {
        int k = (int)pick(s, 2, n_in < 3 ? n_in : 3);
        x->kind = pick(s, 0, 1) ? REF_MERGE : REF_MERGE_DIVMOD;
        x->n_low = k;
        x->n_up = 1;
        for (int j = 0; j < k; j++) {
            x->low_ids[j] = in[j];
            x->a[j] = len[in[j]];
        }
        return k;
    }
    if (allow_zero && room >= 2 && r < 30) {
        x->kind = pick(s, 0, 1) ? REF_INSERT : REF_REPLICATE;
        if (x->kind == REF_INSERT) {
            x->n_up = 1;
            x->len = pick(s, 1, 3);
        } else {
            x->n_up = (int)pick(s, 1, room - 1 < 2 ? room - 1 : 2);
            for (int j = 0; j < x->n_up; j++) x->a[j] = pick(s, 1, 3);
        }
        return 0;
    }
    int64_t L = len[in[0]];
    int most = room < 3 ? room : 3;
    x->n_low = 1;
    x->low_ids[0] = in[0];
    x->n_up = 1;
    x->len = L;
    switch (pick(s, 0, 11)) {
    case 0: x->kind = REF_PASS; break;
    case 1: x->kind = REF_PAD; x->x = pick(s, 0, 2); x->y = pick(s, 0, 2); break;
    case 2: x->kind = REF_LPAD; x->x = pick(s, 0, 2); break;
    case 3: x->kind = REF_RPAD; x->y = pick(s, 0, 2); break;
    case 4:
        x->kind = REF_EMBED;
        x->n_up = (int)pick(s, 1, most);
        for (int j = 0; j < x->n_up; j++) {
            x->a[j] = pick(s, 1, 4);
            x->b[j] = pick(s, 0, 5);
        }
        break;
    case 5:
        x->kind = REF_UNMERGE;
        x->n_up = factorize(s, L, most, x->a);
        break;
    case 6:
        x->kind = REF_FREEZE;
        x->n_up = 0;
        x->x = pick(s, 0, L - 1);
        break;
    case 7: x->kind = REF_SLICE; x->x = pick(s, 0, L - 1); x->y = pick(s, x->x + 1, L); break;
    case 8: x->kind = REF_MODULO; x->x = pick(s, 1, L); x->len = pick(s, 1, 2 * L); break;
    case 9: x->kind = REF_OFFSET; x->x = pick(s, 0, 5); break;
    default:
        x->kind = pick(s, 0, 1) ? REF_MERGE : REF_MERGE_DIVMOD; /* a one-digit merge */
        x->n_low = 1;
        x->a[0] = L;
        break;
    }
    return 1;
}

void ref_random(uint64_t *s, ref_desc *d, long *kinds_used)
{
    memset(d, 0, sizeof *d);
    d->packed = pick(s, 0, 3) == 0;
    d->n_base = (int)pick(s, 2, 4);
    for (int i = 0; i < d->n_base; i++) {
        d->base_len[i] = pick(s, 1, 6);
        d->base_stride[i] = pick(s, 0, 12);
    }
    int64_t len[REF_MAX];
    int n_top = d->n_base;
    memcpy(len, d->base_len, sizeof len);
    d->n_stages = (int)pick(s, 1, 3);
    for (int st = 0; st < d->n_stages; st++) {
        ref_stage *rs = &d->stages[st];
        int order[REF_MAX], pos = 0, n_new = 0;
        for (int i = 0; i < n_top; i++) order[i] = i;
        for (int i = n_top - 1; i > 0; i--) { /* shuffle the old dims */
            int j = (int)pick(s, 0, i), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        /* Invariant: n_new + (old dims left) <= REF_MAX and
         * n_xf + (old dims left) <= REF_MAX. */
        while (pos < n_top) {
            int left = n_top - pos;
            int room = REF_MAX - n_new - (left - 1);
            int allow_zero = rs->n_xf + left + 1 <= REF_MAX;
            ref_xf *x = &rs->xf[rs->n_xf++];
            pos += random_xf(s, order + pos, left, len, room, allow_zero, x);
            n_new += x->n_up;
            kinds_used[x->kind]++;
        }
        if (n_new == 0) { /* everything frozen: turn the last freeze into a pass_through */
            ref_xf *x = &rs->xf[rs->n_xf - 1];
            int64_t L = len[x->low_ids[0]];
            kinds_used[x->kind]--;
            memset(x->a, 0, sizeof x->a);
            x->kind = REF_PASS;
            x->n_up = 1;
            x->len = L;
            n_new = 1;
            kinds_used[REF_PASS]++;
        }
        int perm[REF_MAX], k = 0; /* random new top order */
        for (int i = 0; i < n_new; i++) perm[i] = i;
        for (int i = n_new - 1; i > 0; i--) {
            int j = (int)pick(s, 0, i), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int i = 0; i < rs->n_xf; i++)
            for (int j = 0; j < rs->xf[i].n_up; j++) rs->xf[i].up_ids[j] = perm[k++];
        rs->n_top = n_new;
        n_top = stage_lengths(rs, len);
    }
}
