/* Profiler CSV (profile.h): a small CSV scanner (quoted fields, "" escapes,
 * CRLF), the header that says which format it is, then one dispatch per
 * row (wide) or per run of rows with the same dispatch id (long). */
#include "../core/internal.h"
#include "layout/profile.h"

#include <string.h>

#define FN "layout_profile_from_csv"

static const char *const k_names[LAYOUT_CTR_COUNT] = {
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "SQ_LDS_BANK_CONFLICT",
    "SQ_INSTS_LDS",
};

const char *layout_counter_name(layout_counter c)
{
    return (int)c >= 0 && c < LAYOUT_CTR_COUNT ? k_names[c] : "?";
}

/* One field of the current row: [at, at+len) of the text, unquoted
 * (quote_escapes: it holds "" pairs to fold when copied). */
typedef struct field {
    size_t at, len;
    int quote_escapes;
} field;

typedef struct row {
    int n;
    int line;
    size_t line_start;
    field f[LAYOUT_PROFILE_MAX_COLUMNS];
} row;

typedef struct csv {
    const char *t;
    size_t n, pos;
    int line;
    layout_error *err;
} csv;

static layout_status fail(const csv *c, int line, size_t line_start, size_t at, layout_status st, const char *what)
{
    return layout_fail(c->err, st, FN ": line %d, column %d: %s", line, (int)(at - line_start) + 1, what);
}

/* The next row into *r; 0 at the end of the text. */
static int next_row(csv *c, row *r, layout_status *st)
{
    *st = LAYOUT_OK;
    if (c->pos >= c->n) return 0;
    r->n = 0;
    r->line = ++c->line;
    r->line_start = c->pos;
    for (;;) {
        field f = {c->pos, 0, 0};
        if (r->n >= LAYOUT_PROFILE_MAX_COLUMNS) {
            *st = fail(c, r->line, r->line_start, c->pos, LAYOUT_ERR_CAPACITY, "more than 1024 columns");
            return 1;
        }
        if (c->pos < c->n && c->t[c->pos] == '"') {
            size_t q = ++c->pos;
            for (;;) {
                if (c->pos >= c->n) {
                    *st = fail(c, r->line, r->line_start, q - 1, LAYOUT_ERR_PARSE, "a quoted field is not closed");
                    return 1;
                }
                if (c->t[c->pos] == '"') {
                    if (c->pos + 1 < c->n && c->t[c->pos + 1] == '"') {
                        f.quote_escapes = 1;
                        c->pos += 2;
                        continue;
                    }
                    break;
                }
                if (c->t[c->pos] == '\n') c->line++; /* a newline inside quotes */
                c->pos++;
            }
            f.at = q;
            f.len = c->pos - q;
            c->pos++; /* the closing quote */
        } else {
            while (c->pos < c->n && c->t[c->pos] != ',' && c->t[c->pos] != '\n') c->pos++;
            f.len = c->pos - f.at;
            if (f.len && c->t[f.at + f.len - 1] == '\r') f.len--;
        }
        r->f[r->n++] = f;
        if (c->pos < c->n && c->t[c->pos] == '\r') c->pos++;
        if (c->pos >= c->n || c->t[c->pos] == '\n') {
            if (c->pos < c->n) c->pos++;
            return 1;
        }
        if (c->t[c->pos] != ',') {
            *st = fail(c, r->line, r->line_start, c->pos, LAYOUT_ERR_PARSE, "expected ',' after a quoted field");
            return 1;
        }
        c->pos++;
    }
}

static int field_is(const csv *c, const field *f, const char *s)
{
    size_t k = strlen(s);
    return !f->quote_escapes && f->len == k && memcmp(c->t + f->at, s, k) == 0;
}

static int column_of(const csv *c, const row *h, const char *const *names)
{
    int i, k;
    for (i = 0; i < h->n; i++)
        for (k = 0; names[k]; k++)
            if (field_is(c, &h->f[i], names[k])) return i;
    return -1;
}

static int counter_of(const csv *c, const field *f)
{
    int k;
    for (k = 0; k < LAYOUT_CTR_COUNT; k++)
        if (field_is(c, f, k_names[k])) return k;
    return -1;
}

/* A whole non-negative number: digits with ',' separators, maybe a zero
 * fraction.  1: a number; 0: empty or "n/a" (not measured); -1: malformed. */
static int parse_count(const csv *c, const field *f, int64_t *out)
{
    size_t i = 0;
    int64_t v = 0;
    int digits = 0;
    const char *s = c->t + f->at;
    while (i < f->len && s[i] == ' ') i++;
    if (i == f->len || (f->len - i == 3 && memcmp(s + i, "n/a", 3) == 0)) return 0;
    for (; i < f->len; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            if (v > (INT64_MAX - 9) / 10) return -1;
            v = v * 10 + (s[i] - '0');
            digits++;
        } else if (s[i] == ',' && digits) {
            continue;
        } else {
            break;
        }
    }
    if (!digits) return -1;
    if (i < f->len && s[i] == '.') {
        for (i++; i < f->len && s[i] == '0'; i++) {}
    }
    while (i < f->len && s[i] == ' ') i++;
    if (i != f->len) return -1;
    *out = v;
    return 1;
}

static void copy_name(const csv *c, const field *f, char *dst, size_t cap)
{
    size_t i, k = 0;
    for (i = 0; i < f->len && k + 1 < cap; i++) {
        char ch = c->t[f->at + i];
        if (ch == '"' && f->quote_escapes) i++; /* "" -> " */
        dst[k++] = ch;
    }
    dst[k] = '\0';
}

static layout_status set_value(const csv *c, const row *r, const field *f, layout_profile_dispatch *d, int k)
{
    int64_t v;
    int got = parse_count(c, f, &v);
    if (got < 0) return fail(c, r->line, r->line_start, f->at, LAYOUT_ERR_PARSE, "a counter value is not a whole number >= 0");
    if (got > 0) {
        d->value[k] = v;
        d->present |= 1u << k;
    }
    return LAYOUT_OK;
}

static layout_status new_dispatch(const csv *c, const row *r, const field *name, const field *id,
                                  layout_profile *out, layout_profile_dispatch **d)
{
    int64_t v;
    if (out->n_dispatches >= LAYOUT_PROFILE_MAX_DISPATCHES)
        return fail(c, r->line, r->line_start, r->line_start, LAYOUT_ERR_CAPACITY, "more than 256 dispatches");
    *d = &out->dispatches[out->n_dispatches++];
    memset(*d, 0, sizeof **d);
    copy_name(c, name, (*d)->kernel, sizeof (*d)->kernel);
    (*d)->id = id && parse_count(c, id, &v) == 1 ? v : -1;
    return LAYOUT_OK;
}

layout_status layout_profile_from_csv(const char *text, size_t len, layout_profile *out, layout_error *err)
{
    static const char *const name_cols[] = {"Kernel Name", "Kernel_Name", "KernelName", "case", NULL};
    static const char *const id_cols[] = {"ID", "Dispatch_Id", "Index", NULL};
    static const char *const metric_cols[] = {"Metric Name", "Counter_Name", NULL};
    static const char *const value_cols[] = {"Metric Value", "Counter_Value", NULL};
    csv c;
    row h, r;
    layout_status st;
    int name_col, id_col, metric_col, value_col, col_ctr[LAYOUT_PROFILE_MAX_COLUMNS], i;
    if (!text || !out) return layout_fail(err, LAYOUT_ERR_NULL, FN ": csv or out is NULL");
    memset(out, 0, sizeof *out);
    c.t = text;
    c.n = len;
    c.pos = 0;
    c.line = 0;
    c.err = err;
    /* the header: the first row that is not ncu's ==PROF== chatter */
    for (;;) {
        if (!next_row(&c, &h, &st)) return layout_fail(err, LAYOUT_ERR_PARSE, FN ": no header row");
        if (st) return st;
        if (!(h.n == 1 && h.f[0].len == 0) && !(h.f[0].len >= 2 && memcmp(text + h.f[0].at, "==", 2) == 0)) break;
    }
    if ((name_col = column_of(&c, &h, name_cols)) < 0)
        return fail(&c, h.line, h.line_start, h.line_start, LAYOUT_ERR_PARSE,
                    "the header has no kernel-name column (\"Kernel Name\", \"Kernel_Name\", \"KernelName\")");
    id_col = column_of(&c, &h, id_cols);
    metric_col = column_of(&c, &h, metric_cols);
    value_col = column_of(&c, &h, value_cols);
    if ((metric_col < 0) != (value_col < 0))
        return fail(&c, h.line, h.line_start, h.line_start, LAYOUT_ERR_PARSE,
                    "the header names a counter-name column without a value column, or the reverse");
    for (i = 0; i < h.n; i++) col_ctr[i] = counter_of(&c, &h.f[i]);
    while (next_row(&c, &r, &st)) {
        layout_profile_dispatch *d = NULL;
        if (st) return st;
        if (r.n == 1 && r.f[0].len == 0) continue;                                  /* an empty line */
        if (r.f[0].len >= 2 && memcmp(text + r.f[0].at, "==", 2) == 0) continue;    /* ncu chatter */
        if (r.n <= name_col || r.f[name_col].len == 0) continue;                    /* ncu's units row */
        if (metric_col >= 0) { /* long: one row per counter, rows of one dispatch together */
            int k;
            if (r.n <= metric_col || r.n <= value_col)
                return fail(&c, r.line, r.line_start, r.line_start, LAYOUT_ERR_PARSE, "the row has fewer columns than the header");
            if (out->n_dispatches) {
                layout_profile_dispatch *last = &out->dispatches[out->n_dispatches - 1];
                int64_t id;
                int same = id_col >= 0 && r.n > id_col && parse_count(&c, &r.f[id_col], &id) == 1 && id == last->id;
                if (id_col < 0) { /* no id column: a repeated counter starts the next dispatch */
                    char name[sizeof last->kernel];
                    copy_name(&c, &r.f[name_col], name, sizeof name);
                    k = counter_of(&c, &r.f[metric_col]);
                    same = strcmp(name, last->kernel) == 0 && !(k >= 0 && (last->present >> k & 1));
                }
                if (same) d = last;
            }
            if (!d && (st = new_dispatch(&c, &r, &r.f[name_col], id_col >= 0 && r.n > id_col ? &r.f[id_col] : NULL, out, &d)))
                return st;
            k = counter_of(&c, &r.f[metric_col]);
            if (k >= 0 && (st = set_value(&c, &r, &r.f[value_col], d, k))) return st;
        } else { /* wide: one row per dispatch, a column per counter */
            if ((st = new_dispatch(&c, &r, &r.f[name_col], id_col >= 0 && r.n > id_col ? &r.f[id_col] : NULL, out, &d)))
                return st;
            for (i = 0; i < r.n && i < h.n; i++)
                if (col_ctr[i] >= 0 && (st = set_value(&c, &r, &r.f[i], d, col_ctr[i]))) return st;
        }
    }
    return layout_ok(err);
}
