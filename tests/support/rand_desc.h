/* Random descriptor compositions using every transform kind, for the
 * plan's differential tests and the benchmarks (header-only: static
 * functions; bench/ includes it as "../tests/support/rand_desc.h").
 *
 * rd_random_desc() builds a random base (naive / packed / naive with an
 * offset) and adds 1..max_stages random stages.  Each stage consumes the
 * old top dims in a random order with random transforms: pass_through,
 * pad, left_pad, right_pad, slice, modulo, offset, embed (coefficients may
 * be negative), unmerge, freeze, merge, merge_divmod, xor (power-of-two
 * and other lengths), plus insert / replicate adding dims.  Lengths are
 * sometimes deliberately inconsistent between stages (ck_tile allows it),
 * so values can leave the declared ranges or become negative; one base in
 * eight has strides beyond int32 (the plans' 64-bit path). */
#ifndef RAND_DESC_H
#define RAND_DESC_H

#include "layout.h"
#include "xorshift.h"

#include <stdint.h>
#include <string.h>

typedef struct rd_rng { uint64_t s; } rd_rng;

static inline uint64_t rd_next(rd_rng *r) { return xorshift64s_next(&r->s); }
static inline int64_t rd_range(rd_rng *r, int64_t lo, int64_t hi) { return xorshift64s_range(&r->s, lo, hi); }

/* One random stage on top of `in`; 1 on success. */
static inline int rd_stage(rd_rng *r, const layout_descriptor *in, layout_descriptor *out)
{
    int n = layout_desc_ndims(in);
    int64_t L[LAYOUT_MAX_DIMS];
    int perm[LAYOUT_MAX_DIMS];
    for (int d = 0; d < n; d++) {
        L[d] = layout_desc_length(in, d);
        perm[d] = d;
    }
    for (int d = n - 1; d > 0; d--) {
        int j = (int)rd_range(r, 0, d), t = perm[d];
        perm[d] = perm[j];
        perm[j] = t;
    }
    layout_transform t[LAYOUT_MAX_TRANSFORMS];
    layout_seq lo[LAYOUT_MAX_TRANSFORMS], up[LAYOUT_MAX_TRANSFORMS];
    int nt = 0, n_new = 0, i = 0;
    const int max_new = LAYOUT_MAX_DIMS;
    while (i < n) {
        int left = n - i, a = perm[i];
        int64_t la = L[a], lens[4], coefs[4];
        int kind = (int)rd_range(r, 0, 15), k, ok = 0;
        if (left >= 2 && rd_range(r, 0, 2) == 0) kind = (int)rd_range(r, 0, 1); /* favour xor / merge */
        memset(&lo[nt], 0, sizeof lo[nt]);
        memset(&up[nt], 0, sizeof up[nt]);
        if (kind == 0 && left >= 2 && n_new + 2 <= max_new) { /* xor */
            int b = perm[i + 1];
            int64_t l1 = rd_range(r, 0, 2) ? L[b] : rd_range(r, 1, L[b] + 3);
            if (rd_range(r, 0, 1)) l1 = (int64_t)1 << rd_range(r, 0, 3);
            ok = layout_make_xor(rd_range(r, 0, 3) ? la : rd_range(r, 1, la + 2), l1, &t[nt], NULL) == LAYOUT_OK;
            lo[nt].n = 2;
            lo[nt].ids[0] = a;
            lo[nt].ids[1] = b;
            k = 2;
            i += 2;
        } else if (kind == 1 && left >= 2 && n_new + 1 <= max_new) { /* merge of 2..3 dims */
            int m = left >= 3 && rd_range(r, 0, 1) ? 3 : 2;
            lo[nt].n = m;
            for (int j = 0; j < m; j++) {
                lo[nt].ids[j] = perm[i + j];
                lens[j] = L[perm[i + j]];
            }
            ok = (rd_range(r, 0, 1) ? layout_make_merge(m, lens, &t[nt], NULL)
                                    : layout_make_merge_divmod(m, lens, &t[nt], NULL)) == LAYOUT_OK;
            k = 1;
            i += m;
        } else {
            lo[nt].n = 1;
            lo[nt].ids[0] = a;
            i++;
            k = 1;
            int room = max_new - n_new - (n - i); /* keep one slot per dim still to consume */
            switch (kind) {
            case 2: ok = !layout_make_pad(la, rd_range(r, 0, 2), rd_range(r, 0, 2), &t[nt], NULL); break;
            case 3: ok = !layout_make_left_pad(la, rd_range(r, 0, 3), &t[nt], NULL); break;
            case 4: ok = !layout_make_right_pad(la, rd_range(r, 0, 3), &t[nt], NULL); break;
            case 5: {
                int64_t b = rd_range(r, 0, la - 1);
                ok = !layout_make_slice(la, b, rd_range(r, b + 1, la), &t[nt], NULL);
                break;
            }
            case 6: ok = !layout_make_modulo(rd_range(r, 1, la + 2), rd_range(r, 1, 2 * la + 1), &t[nt], NULL); break;
            case 7: ok = !layout_make_offset(la, rd_range(r, -3, 6), &t[nt], NULL); break;
            case 8:
            case 9: { /* embed of 1..3 dims */
                int m = (int)rd_range(r, 1, room < 3 ? (room < 1 ? 1 : room) : 3);
                for (int j = 0; j < m; j++) {
                    lens[j] = rd_range(r, 1, 5);
                    coefs[j] = rd_range(r, -3, 9);
                }
                ok = !layout_make_embed(m, lens, coefs, &t[nt], NULL);
                k = m;
                break;
            }
            case 10:
            case 11: { /* unmerge into 2..3 dims (a factorisation when possible) */
                int m = room >= 3 && rd_range(r, 0, 1) ? 3 : 2;
                if (room < 2) m = 1;
                int64_t rest = la;
                for (int j = m - 1; j > 0; j--) {
                    int64_t f = rd_range(r, 0, 2) && rest % 2 == 0 ? 2 : rd_range(r, 1, 3);
                    lens[j] = f;
                    rest = rest % f == 0 ? rest / f : rest;
                }
                lens[0] = rest;
                ok = !layout_make_unmerge(m, lens, &t[nt], NULL);
                k = m;
                break;
            }
            case 12:
                if (n_new > 0 || i < n) {
                    ok = !layout_make_freeze(rd_range(r, 0, la - 1), &t[nt], NULL);
                    k = 0;
                    break;
                }
                /* fall through */
            default: ok = !layout_make_pass_through(la, &t[nt], NULL); break;
            }
        }
        if (!ok || n_new + k > max_new) return 0;
        up[nt].n = k;
        for (int j = 0; j < k; j++) up[nt].ids[j] = n_new++;
        nt++;
        if (n_new < max_new && nt < 6 && rd_range(r, 0, 9) == 0) { /* insert / replicate */
            memset(&lo[nt], 0, sizeof lo[nt]);
            memset(&up[nt], 0, sizeof up[nt]);
            if (rd_range(r, 0, 1)) {
                ok = !layout_make_insert(rd_range(r, 1, 3), &t[nt], NULL);
                k = 1;
            } else {
                int m = n_new + 2 <= max_new ? (int)rd_range(r, 0, 2) : 0;
                for (int j = 0; j < m; j++) lens[j] = rd_range(r, 1, 3);
                ok = !layout_make_replicate(m, lens, &t[nt], NULL);
                k = m;
            }
            if (!ok || n_new + k > max_new) return 0;
            up[nt].n = k;
            for (int j = 0; j < k; j++) up[nt].ids[j] = n_new++;
            nt++;
        }
    }
    if (n_new == 0) return 0;
    /* random new top order */
    int order[LAYOUT_MAX_DIMS];
    for (int d = 0; d < n_new; d++) order[d] = d;
    for (int d = n_new - 1; d > 0; d--) {
        int j = (int)rd_range(r, 0, d), x = order[d];
        order[d] = order[j];
        order[j] = x;
    }
    for (int s = 0; s < nt; s++)
        for (int j = 0; j < up[s].n; j++) up[s].ids[j] = order[up[s].ids[j]];
    return layout_transform_descriptor(out, in, nt, t, lo, up, NULL) == LAYOUT_OK;
}

/* A random base plus exactly `stages` stages with at most max_size top
 * coordinates; 1 on success (retry on 0). */
static inline int rd_random_desc_stages(rd_rng *r, int stages, int64_t max_size, layout_descriptor *out)
{
    layout_descriptor d;
    int64_t lens[3], strides[3];
    int n = (int)rd_range(r, 1, 3), wide = rd_range(r, 0, 7) == 0; /* 1 in 8: strides beyond int32 */
    for (int j = 0; j < n; j++) {
        lens[j] = rd_range(r, 1, 8);
        strides[j] = rd_range(r, 0, 12) * (wide ? (int64_t)1 << 33 : 1);
    }
    int base = (int)rd_range(r, 0, 2);
    layout_status s = base == 0   ? layout_naive(&d, n, lens, strides, NULL)
                      : base == 1 ? layout_packed(&d, n, lens, NULL)
                                  : layout_naive_offset(&d, n, lens, strides, rd_range(r, 0, 10), NULL);
    if (s) return 0;
    for (int k = 0; k < stages; k++) {
        layout_descriptor next;
        if (!rd_stage(r, &d, &next)) return 0;
        d = next;
    }
    if (layout_desc_size(&d) > max_size) return 0;
    *out = d;
    return 1;
}

/* A random base plus 1..max_stages stages (see rd_random_desc_stages()). */
static inline int rd_random_desc(rd_rng *r, int max_stages, int64_t max_size, layout_descriptor *out)
{
    return rd_random_desc_stages(r, (int)rd_range(r, 1, max_stages), max_size, out);
}

#endif /* RAND_DESC_H */
