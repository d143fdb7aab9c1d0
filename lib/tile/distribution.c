/* Tile distributions: a ck_tile encoding lowered to an adaptor
 * (replicate R, unmerge per X, merge per P), or a plain callback / table. */
#include "../core/internal.h"
#include "../core/strbuf.h"
#include "dist_internal.h"
#include "layout/distribution.h"

#include <stdio.h>
#include <string.h>

/* Largest n_warps accepted: a block of at most 1024 threads of 1 lane still fits. */
#define DIST_MAX_WARPS 1024

static layout_status check_threads(const char *fn, int wave_size, int n_warps, layout_error *err)
{
    if (wave_size < 1 || wave_size > LAYOUT_MAX_LANES)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: wave_size = %d must be in 1..%d", fn, wave_size,
                           LAYOUT_MAX_LANES);
    if (n_warps < 1 || n_warps > DIST_MAX_WARPS)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: n_warps = %d must be in 1..%d", fn, n_warps,
                           DIST_MAX_WARPS);
    return LAYOUT_OK;
}

/* Length of RH dim (major, minor); the caller has range-checked both. */
static int64_t rh_length(const layout_dist_encoding *e, int major, int minor)
{
    return major == 0 ? e->r[minor] : e->h[major - 1][minor];
}

static layout_status check_rh_ref(const layout_dist_encoding *e, const char *what, int idx, int k,
                                  int major, int minor, layout_error *err)
{
    if (major < 0 || major > e->n_x)
        return layout_fail(err, LAYOUT_ERR_DIM_ID,
                           "layout_dist_make: %s%d entry %d has major %d, must be in 0..%d (0 = R, i = H[i-1])",
                           what, idx, k, major, e->n_x);
    int n = major == 0 ? e->n_r : e->n_h[major - 1];
    if (minor < 0 || minor >= n)
        return layout_fail(err, LAYOUT_ERR_DIM_ID,
                           "layout_dist_make: %s%d entry %d has minor %d, must be in 0..%d for major %d",
                           what, idx, k, minor, n - 1, major);
    return LAYOUT_OK;
}

/* Validate counts, lengths and references; fill the product of each P. */
static layout_status validate_encoding(const layout_dist_encoding *e, int64_t *p_len, layout_error *err)
{
    if (e->n_r < 0 || e->n_r > LAYOUT_MAX_DIST_RH)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "layout_dist_make: enc->n_r = %d must be in 0..%d",
                           e->n_r, LAYOUT_MAX_DIST_RH);
    if (e->n_x < 1 || e->n_x > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "layout_dist_make: enc->n_x = %d must be in 1..%d",
                           e->n_x, LAYOUT_MAX_DIMS);
    if (e->n_p < 1 || e->n_p > LAYOUT_MAX_DIST_P)
        return layout_fail(err, LAYOUT_ERR_ARG, "layout_dist_make: enc->n_p = %d must be 1 (lane) or 2 (warp, lane)",
                           e->n_p);
    if (e->n_y < 1 || e->n_p + e->n_y > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY,
                           "layout_dist_make: enc->n_y = %d must be in 1..%d (P + Y dims <= %d)", e->n_y,
                           LAYOUT_MAX_DIMS - e->n_p, LAYOUT_MAX_DIMS);
    for (int i = 0; i < e->n_r; i++)
        if (e->r[i] < 1)
            return layout_fail(err, LAYOUT_ERR_ARG, "layout_dist_make: enc->r[%d] = %lld must be > 0", i,
                               (long long)e->r[i]);
    int hidden = e->n_x + e->n_r + e->n_p;
    for (int i = 0; i < e->n_x; i++) {
        if (e->n_h[i] < 1 || e->n_h[i] > LAYOUT_MAX_DIST_RH)
            return layout_fail(err, LAYOUT_ERR_CAPACITY, "layout_dist_make: enc->n_h[%d] = %d must be in 1..%d",
                               i, e->n_h[i], LAYOUT_MAX_DIST_RH);
        hidden += e->n_h[i];
        for (int k = 0; k < e->n_h[i]; k++)
            if (e->h[i][k] < 1)
                return layout_fail(err, LAYOUT_ERR_ARG, "layout_dist_make: enc->h[%d][%d] = %lld must be > 0", i,
                                   k, (long long)e->h[i][k]);
    }
    if (hidden > LAYOUT_MAX_HIDDEN)
        return layout_fail(err, LAYOUT_ERR_CAPACITY,
                           "layout_dist_make: encoding needs %d hidden dims, capacity LAYOUT_MAX_HIDDEN is %d", hidden,
                           LAYOUT_MAX_HIDDEN);

    int uses[LAYOUT_MAX_DIMS + 1][LAYOUT_MAX_DIST_RH];
    memset(uses, 0, sizeof uses);
    for (int p = 0; p < e->n_p; p++) {
        if (e->n_p_rh[p] < 1 || e->n_p_rh[p] > LAYOUT_MAX_DIST_RH)
            return layout_fail(err, LAYOUT_ERR_ARG, "layout_dist_make: enc->n_p_rh[%d] = %d must be in 1..%d", p,
                               e->n_p_rh[p], LAYOUT_MAX_DIST_RH);
        int64_t prod = 1;
        for (int k = 0; k < e->n_p_rh[p]; k++) {
            int ma = e->p_major[p][k], mi = e->p_minor[p][k];
            layout_status s = check_rh_ref(e, "P", p, k, ma, mi, err);
            if (s) return s;
            uses[ma][mi]++;
            if (layout_mul_overflow(prod, rh_length(e, ma, mi), &prod))
                return layout_fail(err, LAYOUT_ERR_OVERFLOW, "layout_dist_make: length of P%d overflows int64", p);
        }
        p_len[p] = prod;
    }
    for (int j = 0; j < e->n_y; j++) {
        int ma = e->y_major[j], mi = e->y_minor[j];
        layout_status s = check_rh_ref(e, "Y", j, 0, ma, mi, err);
        if (s) return s;
        if (ma == 0)
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "layout_dist_make: Y%d names R[%d]; R dims may only appear in P lists", j, mi);
        uses[ma][mi]++;
    }
    /* An R entry of length 1 may go unnamed (the talk's R = <1> is); any other must be named once. */
    for (int k = 0; k < e->n_r; k++)
        if (uses[0][k] > 1 || (uses[0][k] == 0 && e->r[k] != 1))
            return layout_fail(err, LAYOUT_ERR_ARG,
                               "layout_dist_make: R[%d] = %lld (major 0, minor %d) is named %d times by P, must be "
                               "exactly once (or never, for length 1)",
                               k, (long long)e->r[k], k, uses[0][k]);
    for (int i = 0; i < e->n_x; i++)
        for (int k = 0; k < e->n_h[i]; k++)
            if (uses[i + 1][k] != 1)
                return layout_fail(err, LAYOUT_ERR_ARG,
                                   "layout_dist_make: H%d[%d] (major %d, minor %d) is named %d times by P and Y, "
                                   "must be exactly once",
                                   i, k, i + 1, k, uses[i + 1][k]);
    return LAYOUT_OK;
}

static layout_seq seq_of(int n, const int *ids)
{
    layout_seq s;
    memset(&s, 0, sizeof s);
    s.n = n;
    for (int i = 0; i < n; i++) s.ids[i] = ids[i];
    return s;
}

/* Lower the validated encoding to an adaptor: top [P..., Y...], bottom X. */
static layout_status build_adaptor(const layout_dist_encoding *e, layout_adaptor *a, layout_error *err)
{
    layout_transform tr[1 + LAYOUT_MAX_DIMS + LAYOUT_MAX_DIST_P];
    layout_seq lo[1 + LAYOUT_MAX_DIMS + LAYOUT_MAX_DIST_P], up[1 + LAYOUT_MAX_DIMS + LAYOUT_MAX_DIST_P];
    int rh_id[LAYOUT_MAX_DIMS + 1][LAYOUT_MAX_DIST_RH];
    int next = e->n_x, nt = 0, ids[LAYOUT_MAX_DIST_RH];
    int64_t lens[LAYOUT_MAX_DIST_RH];
    layout_status s;

    if (e->n_r > 0) {
        for (int k = 0; k < e->n_r; k++) ids[k] = rh_id[0][k] = next++;
        s = layout_make_replicate(e->n_r, e->r, &tr[nt], err);
        if (s) return s;
        lo[nt] = seq_of(0, ids);
        up[nt] = seq_of(e->n_r, ids);
        nt++;
    }
    for (int i = 0; i < e->n_x; i++) {
        for (int k = 0; k < e->n_h[i]; k++) ids[k] = rh_id[i + 1][k] = next++;
        s = layout_make_unmerge(e->n_h[i], e->h[i], &tr[nt], err);
        if (s) return s;
        lo[nt] = seq_of(1, &i);
        up[nt] = seq_of(e->n_h[i], ids);
        nt++;
    }
    int top[LAYOUT_MAX_DIMS], bottom[LAYOUT_MAX_DIMS];
    for (int p = 0; p < e->n_p; p++) {
        for (int k = 0; k < e->n_p_rh[p]; k++) {
            ids[k] = rh_id[e->p_major[p][k]][e->p_minor[p][k]];
            lens[k] = rh_length(e, e->p_major[p][k], e->p_minor[p][k]);
        }
        s = layout_make_merge(e->n_p_rh[p], lens, &tr[nt], err);
        if (s) return s;
        lo[nt] = seq_of(e->n_p_rh[p], ids);
        top[p] = next++;
        up[nt] = seq_of(1, &top[p]);
        nt++;
    }
    for (int j = 0; j < e->n_y; j++) top[e->n_p + j] = rh_id[e->y_major[j]][e->y_minor[j]];
    for (int i = 0; i < e->n_x; i++) bottom[i] = i;
    return layout_adaptor_from_hidden(a, nt, tr, lo, up, e->n_x, bottom, e->n_p + e->n_y, top, err);
}

/* Place value of H_i entry k in X_i: the product of the later H_i lengths. */
static int64_t place_value(const layout_dist_encoding *e, int i, int k)
{
    int64_t w = 1;
    for (int j = k + 1; j < e->n_h[i]; j++) w *= e->h[i][j];
    return w;
}

/* The adaptor's unmerges and merges as place values (X fits in int64, so no product overflows). */
static void fold_adaptor(layout_distribution *d)
{
    const layout_dist_encoding *e = &d->encoding;
    for (int p = 0; p < e->n_p; p++)
        for (int k = 0; k < e->n_p_rh[p]; k++) {
            int ma = e->p_major[p][k];
            d->p_x[p][k] = ma - 1;
            d->p_weight[p][k] = ma == 0 ? 0 : place_value(e, ma - 1, e->p_minor[p][k]);
        }
    for (int j = 0; j < e->n_y; j++) d->y_weight[j] = place_value(e, e->y_major[j] - 1, e->y_minor[j]);
}

layout_status layout_dist_make(layout_distribution *out, const layout_dist_encoding *enc, int wave_size,
                               int n_warps, int n_tile, const int64_t *tile_lengths, layout_error *err)
{
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_dist_make: out is NULL");
    if (!enc) return layout_fail(err, LAYOUT_ERR_NULL, "layout_dist_make: enc is NULL");
    layout_status s = check_threads("layout_dist_make", wave_size, n_warps, err);
    if (s) return s;
    int64_t p_len[LAYOUT_MAX_DIST_P] = {0, 0};
    s = validate_encoding(enc, p_len, err);
    if (s) return s;
    if (enc->n_p == 2) {
        if (p_len[0] != n_warps)
            return layout_fail(err, LAYOUT_ERR_MISMATCH,
                               "layout_dist_make: P0 (warp) length %lld != n_warps %d", (long long)p_len[0], n_warps);
        if (p_len[1] != wave_size)
            return layout_fail(err, LAYOUT_ERR_MISMATCH,
                               "layout_dist_make: P1 (lane) length %lld != wave_size %d", (long long)p_len[1],
                               wave_size);
    } else if (p_len[0] != wave_size) {
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "layout_dist_make: P0 (lane) length %lld != wave_size %d",
                           (long long)p_len[0], wave_size);
    }

    /* Build into a local so *out stays untouched on failure. */
    static const layout_distribution zero;
    layout_distribution d = zero;
    d.kind = LAYOUT_DIST_ENCODING;
    d.wave_size = wave_size;
    d.n_warps = n_warps;
    d.n_x = enc->n_x;
    d.n_y = enc->n_y;
    d.encoding = *enc;
    for (int i = 0; i < enc->n_x; i++) {
        int64_t len = 1;
        for (int k = 0; k < enc->n_h[i]; k++)
            if (layout_mul_overflow(len, enc->h[i][k], &len))
                return layout_fail(err, LAYOUT_ERR_OVERFLOW, "layout_dist_make: product of H%d overflows int64", i);
        d.x_lengths[i] = len;
    }
    if (tile_lengths) {
        if (n_tile != enc->n_x)
            return layout_fail(err, LAYOUT_ERR_MISMATCH, "layout_dist_make: n_tile = %d != enc->n_x = %d", n_tile,
                               enc->n_x);
        for (int i = 0; i < n_tile; i++)
            if (tile_lengths[i] != d.x_lengths[i])
                return layout_fail(err, LAYOUT_ERR_MISMATCH,
                                   "layout_dist_make: tile_lengths[%d] = %lld != product of H%d = %lld", i,
                                   (long long)tile_lengths[i], i, (long long)d.x_lengths[i]);
    }
    int64_t elems = 1, rep = enc->n_p == 1 ? n_warps : 1;
    for (int j = 0; j < enc->n_y; j++) {
        d.y_lengths[j] = rh_length(enc, enc->y_major[j], enc->y_minor[j]);
        if (layout_mul_overflow(elems, d.y_lengths[j], &elems))
            return layout_fail(err, LAYOUT_ERR_OVERFLOW, "layout_dist_make: product of Y lengths overflows int64");
    }
    for (int k = 0; k < enc->n_r; k++)
        if (layout_mul_overflow(rep, enc->r[k], &rep))
            return layout_fail(err, LAYOUT_ERR_OVERFLOW, "layout_dist_make: product of R overflows int64");
    d.elems_per_thread = elems;
    d.replication = rep;
    int64_t threads_elems;
    if (layout_mul_overflow((int64_t)wave_size * n_warps, elems, &threads_elems))
        return layout_fail(err, LAYOUT_ERR_OVERFLOW,
                           "layout_dist_make: warps x lanes x elements per thread (%lld per thread) overflows int64",
                           (long long)elems);
    s = build_adaptor(enc, &d.adaptor, err);
    if (s) {
        /* name the public function in front of the engine's message */
        if (err) {
            char msg[LAYOUT_ERROR_MESSAGE_CAP];
            memcpy(msg, err->message, sizeof msg);
            layout_fail(err, s, "layout_dist_make: %s", msg);
        }
        return s;
    }
    fold_adaptor(&d);
    *out = d;
    return layout_ok(err);
}

/* Shared by the plain forms: everything but the evaluation source. */
static layout_status plain_init(const char *fn, layout_distribution *d, int n_x, const int64_t *x_lengths,
                                int wave_size, int n_warps, int64_t elems, layout_error *err)
{
    if (!x_lengths) return layout_fail(err, LAYOUT_ERR_NULL, "%s: x_lengths is NULL", fn);
    if (n_x < 1 || n_x > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: n_x = %d must be in 1..%d", fn, n_x, LAYOUT_MAX_DIMS);
    layout_status s = check_threads(fn, wave_size, n_warps, err);
    if (s) return s;
    if (elems < 1)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: elems_per_thread = %lld must be > 0", fn, (long long)elems);
    int64_t total = (int64_t)wave_size * n_warps;
    if (layout_mul_overflow(total, elems, &total) || layout_mul_overflow(total, n_x, &total))
        return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: warps x lanes x elems x n_x overflows int64", fn);
    for (int i = 0; i < n_x; i++) {
        if (x_lengths[i] < 1)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: x_lengths[%d] = %lld must be > 0", fn, i,
                               (long long)x_lengths[i]);
        d->x_lengths[i] = x_lengths[i];
    }
    d->wave_size = wave_size;
    d->n_warps = n_warps;
    d->n_x = n_x;
    d->n_y = 1;
    d->y_lengths[0] = elems;
    d->elems_per_thread = elems;
    d->replication = 0;
    return LAYOUT_OK;
}

static layout_status plain_eval(const char *fn, const layout_distribution *d, int warp, int lane, int64_t elem,
                                int64_t *x, layout_error *err)
{
    int64_t tmp[LAYOUT_MAX_DIMS];
    if (d->kind == LAYOUT_DIST_CALLBACK) {
        int rc = d->fn(d->user, warp, lane, elem, tmp);
        if (rc)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: callback returned %d for warp %d lane %d elem %lld", fn, rc,
                               warp, lane, (long long)elem);
    } else {
        const int64_t *row = d->table + (((int64_t)warp * d->wave_size + lane) * d->elems_per_thread + elem) * d->n_x;
        memcpy(tmp, row, sizeof(int64_t) * (size_t)d->n_x);
    }
    for (int i = 0; i < d->n_x; i++)
        if (tmp[i] < 0 || tmp[i] >= d->x_lengths[i])
            return layout_fail(err, LAYOUT_ERR_RANGE,
                               "%s: warp %d lane %d elem %lld maps to x[%d] = %lld outside 0..%lld", fn, warp, lane,
                               (long long)elem, i, (long long)tmp[i], (long long)d->x_lengths[i] - 1);
    memcpy(x, tmp, sizeof(int64_t) * (size_t)d->n_x);
    return LAYOUT_OK;
}

static layout_status plain_validate(const char *fn, const layout_distribution *d, layout_error *err)
{
    int64_t x[LAYOUT_MAX_DIMS];
    for (int w = 0; w < d->n_warps; w++)
        for (int l = 0; l < d->wave_size; l++)
            for (int64_t e = 0; e < d->elems_per_thread; e++) {
                layout_status s = plain_eval(fn, d, w, l, e, x, err);
                if (s) return s;
            }
    return LAYOUT_OK;
}

/* Shared body of the plain constructors: validate, build into a local, publish. */
static layout_status plain_make(const char *name, layout_distribution *out, layout_dist_kind kind, int n_x,
                                const int64_t *x_lengths, int wave_size, int n_warps, int64_t elems,
                                layout_dist_coord_fn fn, void *user, const int64_t *table, layout_error *err)
{
    static const layout_distribution zero;
    layout_distribution d = zero;
    layout_status s = plain_init(name, &d, n_x, x_lengths, wave_size, n_warps, elems, err);
    if (s) return s;
    d.kind = kind;
    d.fn = fn;
    d.user = user;
    d.table = table;
    s = plain_validate(name, &d, err);
    if (s) return s;
    *out = d;
    return layout_ok(err);
}

layout_status layout_dist_from_callback(layout_distribution *out, int n_x, const int64_t *x_lengths, int wave_size,
                                        int n_warps, int64_t elems_per_thread, layout_dist_coord_fn fn, void *user,
                                        layout_error *err)
{
    static const char name[] = "layout_dist_from_callback";
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", name);
    if (!fn) return layout_fail(err, LAYOUT_ERR_NULL, "%s: fn is NULL", name);
    return plain_make(name, out, LAYOUT_DIST_CALLBACK, n_x, x_lengths, wave_size, n_warps, elems_per_thread, fn, user,
                      NULL, err);
}

layout_status layout_dist_from_table(layout_distribution *out, int n_x, const int64_t *x_lengths, int wave_size,
                                     int n_warps, int64_t elems_per_thread, const int64_t *table, layout_error *err)
{
    static const char name[] = "layout_dist_from_table";
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", name);
    if (!table) return layout_fail(err, LAYOUT_ERR_NULL, "%s: table is NULL", name);
    return plain_make(name, out, LAYOUT_DIST_TABLE, n_x, x_lengths, wave_size, n_warps, elems_per_thread, NULL, NULL,
                      table, err);
}

static layout_status check_thread(const char *fn, const layout_distribution *d, int warp, int lane,
                                  layout_error *err)
{
    if (warp < 0 || warp >= d->n_warps)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: warp = %d must be in 0..%d", fn, warp, d->n_warps - 1);
    if (lane < 0 || lane >= d->wave_size)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: lane = %d must be in 0..%d", fn, lane, d->wave_size - 1);
    return LAYOUT_OK;
}

/* Encoding evaluation after range checks. */
/* The P digits' share of X: mixed-radix split of each P (last entry
 * fastest), every digit times its place value in its X. */
void layout_dist_thread_part(const layout_distribution *d, int warp, int lane, int64_t *x)
{
    const layout_dist_encoding *e = &d->encoding;
    int64_t pidx[LAYOUT_MAX_DIST_P] = {warp, lane};
    if (e->n_p == 1) pidx[0] = lane;
    for (int i = 0; i < d->n_x; i++) x[i] = 0;
    for (int p = 0; p < e->n_p; p++) {
        int64_t v = pidx[p];
        for (int k = e->n_p_rh[p] - 1; k >= 0; k--) {
            int ma = e->p_major[p][k];
            int64_t len = ma == 0 ? e->r[e->p_minor[p][k]] : e->h[ma - 1][e->p_minor[p][k]];
            int64_t digit = k == 0 ? v : v % len;
            v /= len;
            if (ma > 0) x[ma - 1] += digit * d->p_weight[p][k];
        }
    }
}

/* The Y digits' share of X (P and Y own disjoint H entries, so X is the sum). */
void layout_dist_elem_part(const layout_distribution *d, const int64_t *y, int64_t *x)
{
    const layout_dist_encoding *e = &d->encoding;
    for (int i = 0; i < d->n_x; i++) x[i] = 0;
    for (int j = 0; j < d->n_y; j++) x[e->y_major[j] - 1] += y[j] * d->y_weight[j];
}

/* Encoding evaluation after range checks. */
static void encoding_eval(const layout_distribution *d, int warp, int lane, const int64_t *y, int64_t *x)
{
    int64_t ex[LAYOUT_MAX_DIMS];
    layout_dist_thread_part(d, warp, lane, x);
    layout_dist_elem_part(d, y, ex);
    for (int i = 0; i < d->n_x; i++) x[i] += ex[i];
}

layout_status layout_dist_coord(const layout_distribution *d, int warp, int lane, const int64_t *y, int64_t *x,
                                layout_error *err)
{
    static const char name[] = "layout_dist_coord";
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, "%s: d is NULL", name);
    if (!y) return layout_fail(err, LAYOUT_ERR_NULL, "%s: y is NULL", name);
    if (!x) return layout_fail(err, LAYOUT_ERR_NULL, "%s: x is NULL", name);
    layout_status s = check_thread(name, d, warp, lane, err);
    if (s) return s;
    for (int j = 0; j < d->n_y; j++)
        if (y[j] < 0 || y[j] >= d->y_lengths[j])
            return layout_fail(err, LAYOUT_ERR_RANGE, "%s: y[%d] = %lld must be in 0..%lld", name, j,
                               (long long)y[j], (long long)d->y_lengths[j] - 1);
    if (d->kind == LAYOUT_DIST_ENCODING) {
        encoding_eval(d, warp, lane, y, x);
        return layout_ok(err);
    }
    s = plain_eval(name, d, warp, lane, y[0], x, err);
    return s ? s : layout_ok(err);
}

layout_status layout_dist_coord_elem(const layout_distribution *d, int warp, int lane, int64_t elem, int64_t *x,
                                     layout_error *err)
{
    static const char name[] = "layout_dist_coord_elem";
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, "%s: d is NULL", name);
    if (!x) return layout_fail(err, LAYOUT_ERR_NULL, "%s: x is NULL", name);
    layout_status s = check_thread(name, d, warp, lane, err);
    if (s) return s;
    if (elem < 0 || elem >= d->elems_per_thread)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: elem = %lld must be in 0..%lld", name, (long long)elem,
                           (long long)d->elems_per_thread - 1);
    if (d->kind == LAYOUT_DIST_ENCODING) {
        int64_t y[LAYOUT_MAX_DIMS];
        layout_dist_y_index(d, elem, y);
        encoding_eval(d, warp, lane, y, x);
        return layout_ok(err);
    }
    s = plain_eval(name, d, warp, lane, elem, x, err);
    return s ? s : layout_ok(err);
}

int64_t layout_dist_elem_index(const layout_distribution *d, const int64_t *y)
{
    if (!d || !y) return -1;
    int64_t e = 0;
    for (int j = 0; j < d->n_y; j++) {
        if (y[j] < 0 || y[j] >= d->y_lengths[j]) return -1;
        e = e * d->y_lengths[j] + y[j];
    }
    return e;
}

int layout_dist_y_index(const layout_distribution *d, int64_t elem, int64_t *y)
{
    if (!d || !y || elem < 0 || elem >= d->elems_per_thread) return -1;
    for (int j = d->n_y - 1; j >= 0; j--) {
        y[j] = elem % d->y_lengths[j];
        elem /= d->y_lengths[j];
    }
    return 0;
}

layout_status layout_dist_coverage(const layout_distribution *d, uint32_t *counts, size_t n_counts,
                                   int64_t *min_count, int64_t *max_count, layout_error *err)
{
    static const char name[] = "layout_dist_coverage";
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, "%s: d is NULL", name);
    if (!counts) return layout_fail(err, LAYOUT_ERR_NULL, "%s: counts is NULL", name);
    int64_t need = 1;
    for (int i = 0; i < d->n_x; i++)
        if (layout_mul_overflow(need, d->x_lengths[i], &need))
            return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: tile size overflows int64", name);
    if ((uint64_t)need > (uint64_t)n_counts)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: n_counts = %zu, the tile needs %lld", name, n_counts,
                           (long long)need);
    memset(counts, 0, sizeof(uint32_t) * (size_t)need);
    int64_t x[LAYOUT_MAX_DIMS];
    if (d->kind == LAYOUT_DIST_ENCODING) {
        /* X = thread part + element part (encoding_eval): the elements' parts
         * a block at a time, each thread's part once per block, instead of
         * re-deriving the thread's P digits for every element. */
        enum { BLOCK = 64 };
        int64_t ep[BLOCK][LAYOUT_MAX_DIMS], tp[LAYOUT_MAX_DIMS], y[LAYOUT_MAX_DIMS];
        for (int64_t e0 = 0; e0 < d->elems_per_thread; e0 += BLOCK) {
            int64_t nb = d->elems_per_thread - e0 < BLOCK ? d->elems_per_thread - e0 : BLOCK;
            for (int64_t k = 0; k < nb; k++) {
                layout_dist_y_index(d, e0 + k, y);
                layout_dist_elem_part(d, y, ep[k]);
            }
            for (int w = 0; w < d->n_warps; w++)
                for (int l = 0; l < d->wave_size; l++) {
                    layout_dist_thread_part(d, w, l, tp);
                    for (int64_t k = 0; k < nb; k++) {
                        int64_t lin = 0;
                        for (int i = 0; i < d->n_x; i++) lin = lin * d->x_lengths[i] + tp[i] + ep[k][i];
                        counts[lin]++;
                    }
                }
        }
    } else {
        for (int w = 0; w < d->n_warps; w++)
            for (int l = 0; l < d->wave_size; l++)
                for (int64_t e = 0; e < d->elems_per_thread; e++) {
                    layout_status s = layout_dist_coord_elem(d, w, l, e, x, err);
                    if (s) return s;
                    int64_t lin = 0;
                    for (int i = 0; i < d->n_x; i++) lin = lin * d->x_lengths[i] + x[i];
                    counts[lin]++;
                }
    }
    int64_t lo = INT64_MAX, hi = 0;
    for (int64_t i = 0; i < need; i++) {
        if (counts[i] < lo) lo = counts[i];
        if (counts[i] > hi) hi = counts[i];
    }
    if (min_count) *min_count = lo;
    if (max_count) *max_count = hi;
    return layout_ok(err);
}

static void sb_list_int(layout_strbuf *sb, int n, const int *v)
{
    layout_sb_printf(sb, "<");
    for (int i = 0; i < n; i++) layout_sb_printf(sb, i ? ",%d" : "%d", v[i]);
    layout_sb_printf(sb, ">");
}

static void sb_list_i64(layout_strbuf *sb, int n, const int64_t *v)
{
    layout_sb_printf(sb, "<");
    for (int i = 0; i < n; i++) layout_sb_printf(sb, i ? ",%lld" : "%lld", (long long)v[i]);
    layout_sb_printf(sb, ">");
}

int layout_dist_print(const layout_distribution *d, char *buf, size_t cap)
{
    layout_strbuf sb;
    layout_sb_init(&sb, buf, cap);
    if (!d) {
        layout_sb_printf(&sb, "(null distribution)");
    } else if (d->kind != LAYOUT_DIST_ENCODING) {
        layout_sb_printf(&sb, "plain %s (%d warps x %d lanes x %lld elems -> %d dims)",
                         d->kind == LAYOUT_DIST_CALLBACK ? "callback" : "table", d->n_warps, d->wave_size,
                         (long long)d->elems_per_thread, d->n_x);
    } else {
        const layout_dist_encoding *e = &d->encoding;
        layout_sb_printf(&sb, "R");
        sb_list_i64(&sb, e->n_r, e->r);
        layout_sb_printf(&sb, " H<");
        for (int i = 0; i < e->n_x; i++) {
            if (i) layout_sb_printf(&sb, ",");
            sb_list_i64(&sb, e->n_h[i], e->h[i]);
        }
        layout_sb_printf(&sb, "> P<");
        for (int p = 0; p < e->n_p; p++) {
            if (p) layout_sb_printf(&sb, ",");
            sb_list_int(&sb, e->n_p_rh[p], e->p_major[p]);
        }
        layout_sb_printf(&sb, ">/<");
        for (int p = 0; p < e->n_p; p++) {
            if (p) layout_sb_printf(&sb, ",");
            sb_list_int(&sb, e->n_p_rh[p], e->p_minor[p]);
        }
        layout_sb_printf(&sb, "> Y");
        sb_list_int(&sb, e->n_y, e->y_major);
        layout_sb_printf(&sb, "/");
        sb_list_int(&sb, e->n_y, e->y_minor);
        layout_sb_printf(&sb, " (%d warps x %d lanes)", d->n_warps, d->wave_size);
    }
    return layout_sb_result(&sb);
}
