/* Fuzz target: descriptor construction and evaluation from arbitrary bytes.
 *
 * The input decodes into a composition (a naive or packed base, then up to
 * three stages of transforms of any kind, with lengths that may be 0,
 * negative or near INT64 limits and dimension ids that may be out of range
 * or repeated), built through the public constructors by the test
 * reference's builder (tests/support/ref_eval.c).  Properties:
 * - construction either fails with a status and a message (output
 *   untouched) or yields a descriptor whose top lengths, offsets and
 *   validity agree with the independent reference evaluator at every probed
 *   coordinate (in range: equal; out of range: ::LAYOUT_ERR_RANGE);
 * - checked, batch and unchecked offsets agree; verify() agrees with a
 *   brute-force enumeration by the reference on small descriptors;
 * - the text form round-trips to a descriptor with the same offsets;
 * - a transform struct of arbitrary bytes is rejected or, when
 *   layout_transform_check() accepts it, evaluates without UB;
 * - nothing reads out of bounds (ASan), no signed overflow (UBSan: also in
 *   the reference, so an accepted descriptor whose offsets overflow int64 is
 *   found too).
 * Cost: the verify() enumeration runs on descriptors of at most
 * SMALL_ENUM coordinates, up to MAX_ENUM (as before) on sampled inputs
 * (fuzz_sample_level() > 0: one in 16). */
#include "layout.h"
#include "fuzz_input.h"
#include "support/ref_eval.h"

#include <stdio.h>
#include <stdlib.h>

/* A dimension id: usually valid for a dim count n, sometimes hostile. */
static int pick_id(fuzz_in *in, int n)
{
    uint8_t v = fuzz_u8(in);
    if (v < 240 && n > 0) return v % n;
    return (int)fuzz_range(in, -2, REF_MAX + 1);
}

/* Small mostly-valid value (lengths that make evaluation interesting) or a
 * hostile one. */
static int64_t pick_len(fuzz_in *in)
{
    uint8_t v = fuzz_u8(in);
    return v < 200 ? 1 + v % 8 : fuzz_i64(in);
}

static int64_t pick_param(fuzz_in *in)
{
    uint8_t v = fuzz_u8(in);
    return v < 200 ? v % 8 : fuzz_i64(in);
}

/* a - b with two's complement wrap-around (hostile values stay hostile). */
static int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

static void decode_xf(fuzz_in *in, int n_old, ref_xf *x)
{
    memset(x, 0, sizeof *x);
    x->kind = (int)fuzz_range(in, 0, REF_KIND_COUNT - 1); /* bad kinds: check_raw_transform */
    int arity = x->kind == REF_XOR ? 2 : 1;
    uint8_t shape = fuzz_u8(in);
    x->n_low = x->kind == REF_INSERT || x->kind == REF_REPLICATE ? 0 : arity;
    x->n_up = x->kind == REF_FREEZE ? 0 : arity;
    if (x->kind == REF_MERGE || x->kind == REF_MERGE_DIVMOD) x->n_low = 1 + shape % 3;
    if (x->kind == REF_EMBED || x->kind == REF_UNMERGE || x->kind == REF_REPLICATE)
        x->n_up = (x->kind == REF_REPLICATE ? 0 : 1) + shape % 3;
    if (shape >= 248) { /* sizes that disagree with the kind, or beyond capacity */
        x->n_low = (int)fuzz_range(in, 0, REF_MAX);
        x->n_up = (int)fuzz_range(in, 0, REF_MAX);
    }
    for (int j = 0; j < x->n_low; j++) x->low_ids[j] = pick_id(in, n_old);
    for (int j = 0; j < x->n_up; j++) x->up_ids[j] = -1; /* assigned by the stage */
    x->len = pick_len(in);
    x->x = pick_param(in);
    x->y = pick_param(in);
    for (int j = 0; j < REF_MAX; j++) x->a[j] = pick_len(in);
    for (int j = 0; j < REF_MAX; j++) x->b[j] = wrap_sub(pick_param(in), fuzz_u8(in) & 1 ? 0 : 3);
    /* Keep slices and freezes often in range so deep stages are reachable. */
    if (x->kind == REF_SLICE && x->len > 0 && fuzz_u8(in) < 200) {
        /* 0 <= begin < end <= len, computed without overflow */
        x->x = (int64_t)((uint64_t)x->x % (uint64_t)x->len);
        x->y = x->x + 1 + (int64_t)((uint64_t)x->y % (uint64_t)(x->len - x->x));
    }
}

/* Returns 0 when the decoded composition does not fit the reference's
 * arrays (then it is not built). */
static int decode_desc(fuzz_in *in, ref_desc *d)
{
    memset(d, 0, sizeof *d);
    d->packed = fuzz_u8(in) & 1;
    d->n_base = (int)fuzz_range(in, 0, REF_MAX);
    for (int i = 0; i < REF_MAX; i++) {
        d->base_len[i] = pick_len(in);
        d->base_stride[i] = wrap_sub(pick_param(in), fuzz_u8(in) < 32 ? 4 : 0);
    }
    d->n_stages = (int)fuzz_range(in, 0, REF_MAX_STAGES);
    int n_old = d->n_base;
    for (int s = 0; s < d->n_stages; s++) {
        ref_stage *st = &d->stages[s];
        st->n_xf = (int)fuzz_range(in, 0, REF_MAX);
        int n_new = 0;
        for (int i = 0; i < st->n_xf; i++) {
            decode_xf(in, n_old, &st->xf[i]);
            n_new += st->xf[i].n_up;
        }
        if (n_new > REF_MAX) return 0;
        /* New top positions: a permutation of 0..n_new-1, rotated by the
         * input; occasionally one id is made hostile. */
        int rot = n_new ? (int)fuzz_range(in, 0, n_new - 1) : 0, k = 0;
        for (int i = 0; i < st->n_xf; i++)
            for (int j = 0; j < st->xf[i].n_up; j++) st->xf[i].up_ids[j] = (k++ + rot) % n_new;
        if (n_new && fuzz_u8(in) >= 250) {
            int i = (int)fuzz_range(in, 0, st->n_xf - 1);
            if (st->xf[i].n_up) st->xf[i].up_ids[0] = pick_id(in, n_new + 1);
        }
        st->n_top = n_new;
        n_old = n_new;
    }
    return 1;
}

/* ---- properties of one accepted descriptor ------------------------------ */

enum { MAX_ENUM = 512, SMALL_ENUM = 64 };

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void check_offsets(fuzz_in *in, const ref_desc *r, const layout_descriptor *d, int heavy)
{
    int64_t len[REF_MAX];
    int n = ref_top_lengths(r, len);
    FUZZ_ASSERT(n == layout_desc_ndims(d));
    int64_t size = 1;
    for (int i = 0; i < n; i++) {
        FUZZ_ASSERT(len[i] == layout_desc_length(d, i));
        FUZZ_ASSERT(len[i] > 0);
        FUZZ_ASSERT(!__builtin_mul_overflow(size, len[i], &size));
    }
    FUZZ_ASSERT(size == layout_desc_size(d));
    FUZZ_ASSERT(layout_desc_length(d, n) == -1 && layout_desc_length(d, -1) == -1);

    enum { PROBES = 16 };
    int64_t coords[PROBES][LAYOUT_MAX_DIMS], offs[PROBES];
    layout_error err;
    int n_probes = (int)fuzz_range(in, 1, PROBES);
    for (int p = 0; p < n_probes; p++) {
        int64_t c[LAYOUT_MAX_DIMS] = {0};
        int outside = -1;
        for (int i = 0; i < n; i++) {
            uint8_t v = fuzz_u8(in);
            if (v < 250) {
                c[i] = (int64_t)(fuzz_u64(in) % (uint64_t)len[i]);
            } else {
                int64_t bad[4] = {-1, len[i], INT64_MAX, INT64_MIN};
                c[i] = bad[v & 3];
                if (outside < 0) outside = i;
            }
        }
        int64_t off = 0x5a5a, want;
        int valid = -7, ref_valid;
        layout_status st = layout_desc_offset(d, c, &off, &err);
        layout_status sv = layout_desc_is_valid(d, c, &valid, &err);
        if (outside >= 0) {
            FUZZ_ASSERT(st == LAYOUT_ERR_RANGE && sv == LAYOUT_ERR_RANGE);
            FUZZ_ASSERT(off == 0x5a5a && valid == -7);
            FUZZ_ASSERT(strstr(err.message, "coord[") != NULL);
            p--, n_probes--;
            continue;
        }
        want = ref_offset(r, c, &ref_valid);
        FUZZ_ASSERT(st == LAYOUT_OK && sv == LAYOUT_OK);
        FUZZ_ASSERT(valid == ref_valid);
        FUZZ_ASSERT(off == want);
        FUZZ_ASSERT(layout_desc_offset_unchecked(d, c) == want);
        memcpy(coords[p], c, sizeof c);
        offs[p] = want;
    }
    if (n_probes > 0) {
        int64_t flat[PROBES * LAYOUT_MAX_DIMS], got[PROBES];
        for (int p = 0; p < n_probes; p++)
            for (int i = 0; i < n; i++) flat[p * n + i] = coords[p][i];
        FUZZ_ASSERT(layout_desc_offsets(d, (size_t)n_probes, flat, got, &err) == LAYOUT_OK);
        for (int p = 0; p < n_probes; p++) FUZZ_ASSERT(got[p] == offs[p]);
    }

    /* verify() against an enumeration by the reference: always on small
     * descriptors, up to MAX_ENUM coordinates on sampled inputs. */
    if (size > (heavy ? MAX_ENUM : SMALL_ENUM)) return;
    static int64_t all[MAX_ENUM];
    static unsigned char valid_at[MAX_ENUM];
    int64_t c[LAYOUT_MAX_DIMS] = {0}, lo = 0, hi = -1, space = layout_desc_element_space_size(d);
    int injective = 1, in_space = 1, n_valid = 0;
    static int64_t sorted[MAX_ENUM]; /* the valid offsets: injective iff no two sorted neighbours are equal */
    for (int64_t k = 0; k < size; k++) {
        int v;
        all[k] = ref_offset(r, c, &v);
        valid_at[k] = (unsigned char)v;
        if (v) {
            if (hi < lo) lo = hi = all[k];
            if (all[k] < lo) lo = all[k];
            if (all[k] > hi) hi = all[k];
            if (all[k] < 0 || all[k] >= space) in_space = 0;
            sorted[n_valid++] = all[k];
        }
        for (int i = n - 1; i >= 0; i--) { /* next coordinate, last dim fastest */
            if (++c[i] < len[i]) break;
            c[i] = 0;
        }
    }
    qsort(sorted, (size_t)n_valid, sizeof sorted[0], cmp_i64);
    for (int k = 1; k < n_valid && injective; k++) injective = sorted[k] != sorted[k - 1];
    size_t ws = 0;
    if (layout_desc_verify_workspace_size(d, &ws, &err) != LAYOUT_OK) {
        FUZZ_ASSERT(err.status == LAYOUT_ERR_OVERFLOW);
        return;
    }
    if (ws > ((size_t)1 << 20)) return; /* a sparse layout over a huge span */
    void *buf = malloc(ws ? ws : 1);
    layout_offset_report rep;
    layout_status st = layout_desc_verify_offsets(d, buf, ws, &rep, &err);
    FUZZ_ASSERT(st == LAYOUT_OK);
    FUZZ_ASSERT(rep.n_coords == size);
    FUZZ_ASSERT(rep.injective == injective);
    FUZZ_ASSERT(rep.in_space == in_space);
    if (hi >= lo) FUZZ_ASSERT(rep.min_offset == lo && rep.max_offset == hi);
    if (ws > 0) FUZZ_ASSERT(layout_desc_verify_offsets(d, buf, ws - 1, &rep, &err) == LAYOUT_ERR_BUFFER);
    free(buf);
}

static void check_text(const ref_desc *r, const layout_descriptor *d)
{
    char text[4096];
    layout_error err;
    if (layout_desc_to_text(d, text, sizeof text, &err)) return; /* too long, or a form the text lacks */
    layout_descriptor back;
    size_t where = 0;
    FUZZ_ASSERT(layout_desc_from_text(text, &back, &where, &err) == LAYOUT_OK);
    FUZZ_ASSERT(layout_desc_ndims(&back) == layout_desc_ndims(d));
    FUZZ_ASSERT(layout_desc_element_space_size(&back) == layout_desc_element_space_size(d));
    int64_t len[REF_MAX], c[REF_MAX];
    int n = ref_top_lengths(r, len);
    for (int corner = 0; corner < 4; corner++) {
        for (int i = 0; i < n; i++) c[i] = corner & 1 ? len[i] - 1 : corner & 2 ? len[i] / 2 : 0;
        int v;
        FUZZ_ASSERT(layout_desc_offset_unchecked(&back, c) == ref_offset(r, c, &v));
    }
}

/* A transform of arbitrary bytes: rejected, or usable without UB. */
static void check_raw_transform(fuzz_in *in)
{
    layout_transform t;
    unsigned char *p = (unsigned char *)&t;
    for (size_t i = 0; i < sizeof t; i++) p[i] = fuzz_u8(in);
    if (fuzz_u8(in) < 224) { /* start from a real one, then maybe damage a byte */
        ref_xf x;
        decode_xf(in, 1, &x);
        if (ref_build_xf(&x, &t, NULL) == LAYOUT_OK && fuzz_u8(in) & 1)
            p[fuzz_range(in, 0, (int64_t)sizeof t - 1)] = fuzz_u8(in);
    }
    layout_error err;
    char buf[64];
    if (layout_transform_check(&t, &err) != LAYOUT_OK) {
        FUZZ_ASSERT(err.status < 0 && err.message[0]);
        return;
    }
    int64_t up[LAYOUT_MAX_TRANSFORM_DIMS], low[LAYOUT_MAX_TRANSFORM_DIMS];
    FUZZ_ASSERT(t.n_upper >= 0 && t.n_upper <= LAYOUT_MAX_TRANSFORM_DIMS);
    FUZZ_ASSERT(t.n_lower >= 0 && t.n_lower <= LAYOUT_MAX_TRANSFORM_DIMS);
    for (int i = 0; i < t.n_upper; i++) FUZZ_ASSERT(t.upper_lengths[i] > 0);
    for (int i = 0; i < t.n_upper; i++) up[i] = (int64_t)(fuzz_u64(in) % (uint64_t)t.upper_lengths[i]);
    layout_transform_lower(&t, up, low);
    (void)layout_transform_is_valid(&t, up);
    FUZZ_ASSERT(layout_transform_print(&t, buf, sizeof buf) >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    if (fuzz_u8(&in) >= 240) {
        check_raw_transform(&in);
        return 0;
    }
    ref_desc r;
    if (fuzz_u8(&in) < 96) {
        /* A valid random composition (the tests' generator), then a few
         * fields replaced by hostile values. */
        uint64_t seed = fuzz_u64(&in) | 1;
        long used[REF_KIND_COUNT] = {0};
        ref_random(&seed, &r, used);
        int k = (int)fuzz_range(&in, 0, 3);
        for (int i = 0; i < k && r.n_stages; i++) {
            ref_stage *st = &r.stages[fuzz_range(&in, 0, r.n_stages - 1)];
            ref_xf *x = &st->xf[fuzz_range(&in, 0, st->n_xf - 1)];
            switch (fuzz_u8(&in) % 6) {
            case 0: x->len = fuzz_i64(&in); break;
            case 1: x->x = fuzz_i64(&in); break;
            case 2: x->y = fuzz_i64(&in); break;
            case 3: x->a[fuzz_range(&in, 0, REF_MAX - 1)] = fuzz_i64(&in); break;
            case 4: x->b[fuzz_range(&in, 0, REF_MAX - 1)] = fuzz_i64(&in); break;
            default: r.base_stride[fuzz_range(&in, 0, REF_MAX - 1)] = fuzz_i64(&in); break;
            }
        }
    } else if (!decode_desc(&in, &r)) {
        return 0;
    }
    layout_descriptor d, poison;
    layout_error err;
    memset(&d, 0x5a, sizeof d);
    memcpy(&poison, &d, sizeof d);
    layout_status st = ref_build(&r, &d, &err);
    if (st != LAYOUT_OK) {
        /* ref_build writes *out only on success; the library's own untouched
         * guarantee is checked on its last call inside it. */
        FUZZ_ASSERT(st < 0 && err.status == st && err.message[0]);
        FUZZ_ASSERT(memcmp(&d, &poison, sizeof d) == 0);
        return 0;
    }
    FUZZ_ASSERT(err.status == LAYOUT_OK && err.message[0] == 0);
    check_offsets(&in, &r, &d, fuzz_sample_level(data, size) > 0);
    check_text(&r, &d);
    char buf[128];
    FUZZ_ASSERT(layout_desc_print(&d, buf, sizeof buf) >= 0);
    int64_t hl[LAYOUT_MAX_DIMS], hs[LAYOUT_MAX_DIMS];
    FUZZ_ASSERT(layout_desc_vector_hints(&d, hl, hs, &err) == LAYOUT_OK);
    return 0;
}
