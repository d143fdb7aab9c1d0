/* Distribution text form: a ck_tile tile_distribution_encoding.
 *
 *   dist    := 'dist' '(' 'R' '=' list ',' 'H' '=' '(' list {',' list} ')'
 *              ',' 'P' '=' '(' rhlist {',' rhlist} ')' ',' 'Y' '=' rhlist
 *              [',' 'warps' '=' int] ')'
 *   rhlist  := '[' [ rh {',' rh} ] ']'        rh := '(' major ',' minor ')'
 *
 * e.g. dist(R=[1], H=([1,8,8],[4,8]), P=([(2,0)],[(1,1),(1,2)]), Y=[(1,0),(2,1)])
 */
#include "text_internal.h"
#include "layout/text.h"

#include <stdio.h>
#include <string.h>

#define FN_PARSE "layout_dist_from_text"
#define FN_PRINT "layout_dist_to_text"

/* Where each part of the text is (offsets of '[' or '('), so a semantic
 * error of layout_dist_make() gets its caret under the token it is about. */
typedef struct dist_pos {
    size_t r;                                           /* R's '[' */
    size_t h[LAYOUT_MAX_DIMS];                          /* each H list's '[' */
    size_t p[LAYOUT_MAX_DIST_P];                        /* each P list's '[' */
    size_t p_rh[LAYOUT_MAX_DIST_P][LAYOUT_MAX_DIST_RH]; /* each (major,minor) of P */
    size_t y;                                           /* Y's '[' */
    size_t y_rh[LAYOUT_MAX_DIMS];                       /* each (major,minor) of Y */
    size_t warps;                                       /* the warps= value */
} dist_pos;

/* "NAME=" with NAME exactly as given. */
static layout_status expect_field(text_cursor *c, const char *name, const char *what)
{
    char id[16];
    size_t at;
    if (layout_tx_ident(c, id, sizeof id, &at, what)) return c->status;
    if (strcmp(id, name) != 0) return layout_tx_expected(c, at, what);
    return layout_tx_expect(c, '=', what);
}

/* rh := '(' major ',' minor ')' */
static layout_status parse_rh(text_cursor *c, int *major, int *minor)
{
    int64_t maj, min;
    if (layout_tx_expect(c, '(', "'(' starting an RH dim (major,minor)") ||
        layout_tx_int_in(c, 0, LAYOUT_MAX_DIMS, LAYOUT_ERR_DIM_ID, "RH major", &maj) ||
        layout_tx_expect(c, ',', "',' between RH major and minor") ||
        layout_tx_int_in(c, 0, LAYOUT_MAX_DIST_RH - 1, LAYOUT_ERR_DIM_ID, "RH minor", &min) ||
        layout_tx_expect(c, ')', "')' closing the RH dim"))
        return c->status;
    *major = (int)maj;
    *minor = (int)min;
    return LAYOUT_OK;
}

static layout_status parse_rh_list(text_cursor *c, int *major, int *minor, int max, int *n, size_t *open_at,
                                   size_t *item_at, const char *what)
{
    int k = 0;
    layout_tx_skip(c);
    *open_at = c->pos;
    if (layout_tx_expect(c, '[', what)) return c->status;
    if (layout_tx_accept(c, ']')) {
        *n = 0;
        return LAYOUT_OK;
    }
    for (;;) {
        layout_tx_skip(c);
        if (k >= max)
            return layout_tx_fail_at(c, c->pos, LAYOUT_ERR_CAPACITY, "more than %d RH dims in one list", max);
        item_at[k] = c->pos;
        if (parse_rh(c, &major[k], &minor[k])) return c->status;
        k++;
        if (layout_tx_accept(c, ']')) break;
        if (layout_tx_expect(c, ',', "',' or ']' in the RH list")) return c->status;
    }
    *n = k;
    return LAYOUT_OK;
}

/* One list inside "( list, list, ... )": H lists (index i of enc) or P lists. */
typedef layout_status (*list_fn)(text_cursor *c, layout_dist_encoding *enc, int i, dist_pos *ps);

static layout_status h_list(text_cursor *c, layout_dist_encoding *enc, int i, dist_pos *ps)
{
    ps->h[i] = c->pos;
    return layout_tx_int_list(c, enc->h[i], LAYOUT_MAX_DIST_RH, &enc->n_h[i], "'[' starting an H list");
}

static layout_status p_list(text_cursor *c, layout_dist_encoding *enc, int i, dist_pos *ps)
{
    return parse_rh_list(c, enc->p_major[i], enc->p_minor[i], LAYOUT_MAX_DIST_RH, &enc->n_p_rh[i], &ps->p[i],
                         ps->p_rh[i], "'[' starting a P list");
}

/* '(' list { ',' list } ')' with at most max lists; *count receives how many. */
static layout_status paren_lists(text_cursor *c, layout_dist_encoding *enc, dist_pos *ps, list_fn item, int max,
                                 int *count, const char *open_what, const char *kind)
{
    char what[64];
    if (layout_tx_expect(c, '(', open_what)) return c->status;
    snprintf(what, sizeof what, "',' or ')' after a %s", kind);
    for (;;) {
        layout_tx_skip(c);
        if (*count >= max) return layout_tx_fail_at(c, c->pos, LAYOUT_ERR_CAPACITY, "more than %d %ss", max, kind);
        if (item(c, enc, *count, ps)) return c->status;
        ++*count;
        if (layout_tx_accept(c, ')')) return LAYOUT_OK;
        if (layout_tx_expect(c, ',', what)) return c->status;
    }
}

/* Parse the text into an encoding and the optional warps= value (0 if absent). */
static layout_status parse_encoding(text_cursor *c, layout_dist_encoding *enc, int64_t *warps, size_t *start,
                                    dist_pos *ps)
{
    char id[16];
    size_t at;
    memset(enc, 0, sizeof *enc);
    *warps = 0;
    if (layout_tx_ident(c, id, sizeof id, &at, "'dist('")) return c->status;
    if (strcmp(id, "dist") != 0) return layout_tx_expected(c, at, "'dist('");
    *start = at;
    if (layout_tx_expect(c, '(', "'(' after dist")) return c->status;
    if (expect_field(c, "R", "'R=' (the replication lengths)")) return c->status;
    layout_tx_skip(c);
    ps->r = c->pos;
    if (layout_tx_int_list(c, enc->r, LAYOUT_MAX_DIST_RH, &enc->n_r, "'[' starting R")) return c->status;
    if (layout_tx_expect(c, ',', "',' then H=")) return c->status;
    if (expect_field(c, "H", "'H=' (the hierarchical lengths per tile dim)")) return c->status;
    if (paren_lists(c, enc, ps, h_list, LAYOUT_MAX_DIMS, &enc->n_x, "'(' starting the H lists, e.g. H=([4,16],[8])",
                    "H list"))
        return c->status;
    if (layout_tx_expect(c, ',', "',' then P=")) return c->status;
    if (expect_field(c, "P", "'P=' (the RH dims merged into each partition dim)")) return c->status;
    if (paren_lists(c, enc, ps, p_list, LAYOUT_MAX_DIST_P, &enc->n_p, "'(' starting the P lists, e.g. P=([(1,0)],[(1,1)])",
                    "P list"))
        return c->status;
    if (layout_tx_expect(c, ',', "',' then Y=")) return c->status;
    if (expect_field(c, "Y", "'Y=' (the RH dim of each register dim)")) return c->status;
    if (parse_rh_list(c, enc->y_major, enc->y_minor, LAYOUT_MAX_DIMS, &enc->n_y, &ps->y, ps->y_rh,
                      "'[' starting the Y list"))
        return c->status;
    if (layout_tx_accept(c, ',')) {
        if (expect_field(c, "warps", "'warps=' or ')'")) return c->status;
        layout_tx_skip(c);
        ps->warps = c->pos;
        if (layout_tx_int_in(c, 1, 1024, LAYOUT_ERR_ARG, "warps", warps)) return c->status;
    }
    return layout_tx_expect(c, ')', "')' closing dist(...)");
}

/* Product of the RH lengths listed by P_p (0 if a reference is out of range or overflows). */
static int64_t p_length(const layout_dist_encoding *e, int p)
{
    int64_t len = 1;
    int k;
    for (k = 0; k < e->n_p_rh[p]; k++) {
        int maj = e->p_major[p][k], min = e->p_minor[p][k];
        int64_t l;
        if (maj == 0) {
            if (min >= e->n_r) return 0;
            l = e->r[min];
        } else {
            if (maj > e->n_x || min >= e->n_h[maj - 1]) return 0;
            l = e->h[maj - 1][min];
        }
        if (l <= 0 || layout_mul_overflow(len, l, &len) || len > (int64_t)1 << 30) return 0;
    }
    return len;
}

/* The token layout_dist_make()'s first complaint is about, found by the
 * same checks in the same order (distribution.c validate_encoding, then
 * the P lengths); `start` ("dist") for anything else. */
static size_t locate_error(const char *text, const layout_dist_encoding *e, const dist_pos *ps, int wave_size,
                           int n_warps, size_t start)
{
    size_t second[LAYOUT_MAX_DIMS + 1][LAYOUT_MAX_DIST_RH];
    int uses[LAYOUT_MAX_DIMS + 1][LAYOUT_MAX_DIST_RH];
    int i, k, p, j;
    if (e->n_y < 1 || e->n_p + e->n_y > LAYOUT_MAX_DIMS) return ps->y;
    for (i = 0; i < e->n_r; i++)
        if (e->r[i] < 1) return layout_tx_list_item_at(text, ps->r, i);
    for (i = 0; i < e->n_x; i++)
        for (k = 0; k < e->n_h[i]; k++)
            if (e->h[i][k] < 1) return layout_tx_list_item_at(text, ps->h[i], k);
    memset(uses, 0, sizeof uses);
    memset(second, 0, sizeof second);
    for (p = 0; p < e->n_p; p++) {
        if (e->n_p_rh[p] < 1) return ps->p[p];
        for (k = 0; k < e->n_p_rh[p]; k++) {
            int ma = e->p_major[p][k], mi = e->p_minor[p][k];
            if (ma < 0 || ma > e->n_x || mi < 0 || mi >= (ma == 0 ? e->n_r : e->n_h[ma - 1])) return ps->p_rh[p][k];
            if (uses[ma][mi]++ == 1) second[ma][mi] = ps->p_rh[p][k];
        }
    }
    for (j = 0; j < e->n_y; j++) {
        int ma = e->y_major[j], mi = e->y_minor[j];
        if (ma <= 0 || ma > e->n_x || mi < 0 || mi >= e->n_h[ma - 1]) return ps->y_rh[j];
        if (uses[ma][mi]++ == 1) second[ma][mi] = ps->y_rh[j];
    }
    for (k = 0; k < e->n_r; k++) {
        if (uses[0][k] > 1) return second[0][k];
        if (uses[0][k] == 0 && e->r[k] != 1) return layout_tx_list_item_at(text, ps->r, k);
    }
    for (i = 0; i < e->n_x; i++)
        for (k = 0; k < e->n_h[i]; k++) {
            if (uses[i + 1][k] > 1) return second[i + 1][k];
            if (uses[i + 1][k] == 0) return layout_tx_list_item_at(text, ps->h[i], k);
        }
    if (e->n_p == 2) {
        if (p_length(e, 0) != n_warps) return ps->p[0];
        if (p_length(e, 1) != wave_size) return ps->p[1];
    } else if (e->n_p == 1 && p_length(e, 0) != wave_size) {
        return ps->p[0];
    }
    return start;
}

layout_status layout_dist_from_text(const char *text, int wave_size, int n_warps, layout_distribution *out,
                                    size_t *where, layout_error *err)
{
    layout_dist_encoding enc;
    layout_distribution d;
    dist_pos ps;
    text_cursor c;
    int64_t warps_kw;
    size_t start = 0;
    layout_error e;
    if (!text) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": text is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": out is NULL");
    if (wave_size < 0 || wave_size > LAYOUT_MAX_LANES)
        return layout_fail(err, LAYOUT_ERR_ARG, FN_PARSE ": wave_size = %d must be 0 (derive) or 1..%d", wave_size,
                           LAYOUT_MAX_LANES);
    if (n_warps < 0) return layout_fail(err, LAYOUT_ERR_ARG, FN_PARSE ": n_warps = %d must be >= 0", n_warps);
    layout_tx_init(&c, text, FN_PARSE, err, where);
    memset(&ps, 0, sizeof ps);
    if (parse_encoding(&c, &enc, &warps_kw, &start, &ps) || layout_tx_expect_end(&c)) return c.status;
    /* Derive what the caller left open from the encoding itself. */
    if (wave_size == 0) {
        int64_t l = enc.n_p >= 1 ? p_length(&enc, enc.n_p - 1) : 0;
        wave_size = l >= 1 && l <= LAYOUT_MAX_LANES ? (int)l : 64;
    }
    if (n_warps == 0) {
        if (enc.n_p == 2) {
            int64_t l = p_length(&enc, 0);
            n_warps = l >= 1 && l <= 1024 ? (int)l : 1;
        } else {
            n_warps = warps_kw ? (int)warps_kw : 1;
        }
    }
    if (warps_kw && warps_kw != n_warps)
        return layout_tx_fail_at(&c, ps.warps, LAYOUT_ERR_MISMATCH,
                                 "warps=%lld in the text but n_warps = %d was asked for", (long long)warps_kw, n_warps);
    if (layout_dist_make(&d, &enc, wave_size, n_warps, 0, NULL, &e))
        return layout_tx_lib_fail(&c, locate_error(text, &enc, &ps, wave_size, n_warps, start), &e);
    *out = d;
    return layout_ok(err);
}

static void print_rh_list(text_out *o, const int *major, const int *minor, int n)
{
    int k;
    layout_to_str(o, "[");
    for (k = 0; k < n; k++) layout_to_printf(o, "%s(%d,%d)", k ? "," : "", major[k], minor[k]);
    layout_to_str(o, "]");
}

static int print_dist(text_out *o, const void *obj)
{
    const layout_distribution *d = (const layout_distribution *)obj;
    const layout_dist_encoding *e = &d->encoding;
    int i;
    layout_to_str(o, "dist(R=");
    layout_to_int_list(o, e->r, e->n_r);
    layout_to_str(o, ", H=(");
    for (i = 0; i < e->n_x; i++) {
        if (i) layout_to_str(o, ",");
        layout_to_int_list(o, e->h[i], e->n_h[i]);
    }
    layout_to_str(o, "), P=(");
    for (i = 0; i < e->n_p; i++) {
        if (i) layout_to_str(o, ",");
        print_rh_list(o, e->p_major[i], e->p_minor[i], e->n_p_rh[i]);
    }
    layout_to_str(o, "), Y=");
    print_rh_list(o, e->y_major, e->y_minor, e->n_y);
    if (e->n_p == 1 && d->n_warps != 1) layout_to_printf(o, ", warps=%d", d->n_warps);
    layout_to_str(o, ")");
    return 0;
}

layout_status layout_dist_to_text(const layout_distribution *d, char *buf, size_t cap, layout_error *err)
{
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, FN_PRINT ": d is NULL");
    if (!buf) return layout_fail(err, LAYOUT_ERR_NULL, FN_PRINT ": buf is NULL");
    if (d->kind != LAYOUT_DIST_ENCODING)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           FN_PRINT ": d is a plain (callback or table) distribution; only encodings have a text form");
    return layout_to_render(print_dist, d, buf, cap, FN_PRINT, "", err);
}
