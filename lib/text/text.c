/* The scanner and output builder shared by every text form, and the public
 * caret helper.  The individual grammars live in text_desc.c, text_dist.c and
 * text_arch.c. */
#include "text_internal.h"
#include "layout/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void layout_tx_init(text_cursor *c, const char *text, const char *fn, layout_error *err, size_t *where)
{
    c->text = text;
    c->pos = 0;
    c->fn = fn;
    c->err = err;
    c->where = where;
    c->status = LAYOUT_OK;
}

void layout_tx_skip(text_cursor *c)
{
    for (;;) {
        char ch = c->text[c->pos];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            c->pos++;
        } else if (ch == '#') {
            while (c->text[c->pos] != '\0' && c->text[c->pos] != '\n') c->pos++;
        } else {
            return;
        }
    }
}

char layout_tx_peek(text_cursor *c)
{
    layout_tx_skip(c);
    return c->text[c->pos];
}

/* Line (1-based) and column (1-based, in bytes) of offset `at`. */
static void line_col(const char *text, size_t at, size_t *line, size_t *col, int *multiline)
{
    size_t l = 1, line_start = 0, i;
    for (i = 0; i < at && text[i] != '\0'; i++) {
        if (text[i] == '\n') {
            l++;
            line_start = i + 1;
        }
    }
    *line = l;
    *col = at - line_start + 1;
    *multiline = l > 1 || strchr(text, '\n') != NULL;
}

/* "column 7" or "line 2, column 7" into buf. */
static void position_text(const char *text, size_t at, char *buf, size_t cap)
{
    size_t line, col;
    int multi;
    line_col(text, at, &line, &col, &multi);
    if (multi)
        snprintf(buf, cap, "line %zu, column %zu", line, col);
    else
        snprintf(buf, cap, "column %zu", col);
}

size_t layout_tx_list_item_at(const char *text, size_t open, int k)
{
    text_cursor t;
    int64_t v;
    layout_tx_init(&t, text, "", NULL, NULL);
    t.pos = open;
    if (layout_tx_expect(&t, '[', "")) return open;
    for (int j = 0; j < k; j++)
        if (layout_tx_int(&t, &v, "") || layout_tx_expect(&t, ',', "")) return open;
    layout_tx_skip(&t);
    return t.pos;
}

layout_status layout_tx_fail_at(text_cursor *c, size_t at, layout_status status, const char *fmt, ...)
{
    char pos[48], msg[LAYOUT_ERROR_MESSAGE_CAP];
    va_list ap;
    if (c->status != LAYOUT_OK) return c->status;
    position_text(c->text, at, pos, sizeof pos);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->status = status;
    if (c->where) *c->where = at;
    return layout_fail(c->err, status, "%s: %s: %s", c->fn, pos, msg);
}

/* Describe the token at `at` for "found ..." ("end of input", "'x'", "'naiv'"). */
static void describe_token(const char *text, size_t at, char *buf, size_t cap)
{
    const char *s = text + at;
    size_t n = 0;
    if (*s == '\0') {
        snprintf(buf, cap, "end of input");
        return;
    }
    if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_' || *s == '-' ||
        (*s >= '0' && *s <= '9')) {
        n = 1;
        while (n < 16 && ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') ||
                          s[n] == '_' || (s[n] >= '0' && s[n] <= '9')))
            n++;
    } else {
        n = 1;
    }
    if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
        snprintf(buf, cap, "byte 0x%02x", (unsigned)(unsigned char)*s);
    else
        snprintf(buf, cap, "'%.*s'", (int)n, s);
}

layout_status layout_tx_expected(text_cursor *c, size_t at, const char *what)
{
    char tok[40];
    describe_token(c->text, at, tok, sizeof tok);
    return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "expected %s, found %s", what, tok);
}

layout_status layout_tx_expect(text_cursor *c, char ch, const char *what)
{
    if (c->status != LAYOUT_OK) return c->status;
    if (layout_tx_peek(c) != ch) return layout_tx_expected(c, c->pos, what);
    c->pos++;
    return LAYOUT_OK;
}

int layout_tx_accept(text_cursor *c, char ch)
{
    if (c->status != LAYOUT_OK) return 0;
    if (layout_tx_peek(c) != ch) return 0;
    c->pos++;
    return 1;
}

layout_status layout_tx_expect_arrow(text_cursor *c, const char *what)
{
    if (c->status != LAYOUT_OK) return c->status;
    layout_tx_skip(c);
    if (c->text[c->pos] != '-' || c->text[c->pos + 1] != '>') return layout_tx_expected(c, c->pos, what);
    c->pos += 2;
    return LAYOUT_OK;
}

static int is_ident_start(char ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
}

static int is_ident_char(char ch)
{
    return is_ident_start(ch) || (ch >= '0' && ch <= '9');
}

layout_status layout_tx_ident(text_cursor *c, char *buf, size_t cap, size_t *start, const char *what)
{
    size_t n = 0, at;
    if (c->status != LAYOUT_OK) return c->status;
    layout_tx_skip(c);
    at = c->pos;
    if (!is_ident_start(c->text[at])) return layout_tx_expected(c, at, what);
    while (is_ident_char(c->text[at + n])) n++;
    if (n + 1 > cap) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "unknown name '%.*s...' (%s)", 12, c->text + at, what);
    memcpy(buf, c->text + at, n);
    buf[n] = '\0';
    c->pos = at + n;
    if (start) *start = at;
    return LAYOUT_OK;
}

layout_status layout_tx_int(text_cursor *c, int64_t *out, const char *what)
{
    size_t at, p;
    int neg = 0;
    uint64_t v = 0, limit;
    if (c->status != LAYOUT_OK) return c->status;
    layout_tx_skip(c);
    at = p = c->pos;
    if (c->text[p] == '-') {
        neg = 1;
        p++;
    }
    if (c->text[p] < '0' || c->text[p] > '9') return layout_tx_expected(c, at, what);
    limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    while (c->text[p] >= '0' && c->text[p] <= '9') {
        unsigned d = (unsigned)(c->text[p] - '0');
        if (v > (limit - d) / 10u)
            return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "%s does not fit in a 64-bit signed integer", what);
        v = v * 10u + d;
        p++;
    }
    if (is_ident_char(c->text[p])) return layout_tx_expected(c, p, "a digit or a separator after the number");
    c->pos = p;
    if (neg)
        *out = v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v;
    else
        *out = (int64_t)v;
    return LAYOUT_OK;
}

layout_status layout_tx_int_in(text_cursor *c, int64_t lo, int64_t hi, layout_status status, const char *name, int64_t *out)
{
    int64_t v;
    size_t at;
    layout_tx_skip(c);
    at = c->pos;
    if (layout_tx_int(c, &v, name)) return c->status;
    if (v < lo || v > hi)
        return layout_tx_fail_at(c, at, status, "%s %lld is outside %lld..%lld", name, (long long)v, (long long)lo,
                          (long long)hi);
    *out = v;
    return LAYOUT_OK;
}

/* "[a, b, ...]" of at most max int64 values; with ids, each must be a
 * dimension id (0..LAYOUT_MAX_HIDDEN-1), reported at its own column. */
static layout_status int_list(text_cursor *c, int64_t *out, int max, int *n, const char *what, int ids)
{
    int k = 0;
    char item[96];
    if (layout_tx_expect(c, '[', what)) return c->status;
    snprintf(item, sizeof item, "%s or ']' in %s", ids ? "a dimension id" : "a number", what);
    if (layout_tx_accept(c, ']')) {
        *n = 0;
        return LAYOUT_OK;
    }
    for (;;) {
        int64_t v;
        size_t at;
        layout_tx_skip(c);
        at = c->pos;
        if (layout_tx_int(c, &v, k == 0 ? item : ids ? "a dimension id" : "a number")) return c->status;
        if (ids && (v < 0 || v >= LAYOUT_MAX_HIDDEN))
            return layout_tx_fail_at(c, at, LAYOUT_ERR_DIM_ID, "%s[%d] = %lld is not a dimension id (0..%d)", what, k,
                              (long long)v, LAYOUT_MAX_HIDDEN - 1);
        if (k >= max) return layout_tx_fail_at(c, at, LAYOUT_ERR_CAPACITY, "%s has more than %d entries", what, max);
        out[k++] = v;
        if (layout_tx_accept(c, ']')) break;
        if (layout_tx_expect(c, ',', "',' or ']'")) return c->status;
    }
    *n = k;
    return LAYOUT_OK;
}

layout_status layout_tx_int_list(text_cursor *c, int64_t *out, int max, int *n, const char *what)
{
    return int_list(c, out, max, n, what, 0);
}

layout_status layout_tx_id_list(text_cursor *c, int *out, int max, int *n, const char *what)
{
    int64_t tmp[LAYOUT_MAX_HIDDEN];
    int k, i;
    if (max > LAYOUT_MAX_HIDDEN) max = LAYOUT_MAX_HIDDEN;
    if (int_list(c, tmp, max, &k, what, 1)) return c->status;
    for (i = 0; i < k; i++) out[i] = (int)tmp[i];
    *n = k;
    return LAYOUT_OK;
}

layout_status layout_tx_expect_end(text_cursor *c)
{
    if (c->status != LAYOUT_OK) return c->status;
    if (layout_tx_peek(c) != '\0') return layout_tx_expected(c, c->pos, "end of input");
    return LAYOUT_OK;
}

layout_status layout_tx_lib_fail(text_cursor *c, size_t at, const layout_error *lib_err)
{
    return layout_tx_fail_at(c, at, lib_err->status, "%s", lib_err->message);
}

/* ---- output builder ---- */

void layout_to_init(text_out *o, char *buf, size_t cap)
{
    o->buf = buf;
    o->cap = buf ? cap : 0;
    o->len = 0;
    if (o->cap) o->buf[0] = '\0';
}

static void to_raw(text_out *o, const char *s, size_t n)
{
    if (o->len < o->cap) {
        size_t room = o->cap - 1 - o->len;
        size_t k = n < room ? n : room;
        memcpy(o->buf + o->len, s, k);
        o->buf[o->len + k] = '\0';
    }
    o->len += n;
}

void layout_to_str(text_out *o, const char *s)
{
    to_raw(o, s, strlen(s));
}

void layout_to_printf(text_out *o, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    to_raw(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void layout_to_int_list(text_out *o, const int64_t *v, int n)
{
    int i;
    layout_to_str(o, "[");
    for (i = 0; i < n; i++) layout_to_printf(o, i ? ",%lld" : "%lld", (long long)v[i]);
    layout_to_str(o, "]");
}

void layout_to_id_list(text_out *o, const int *v, int n)
{
    int i;
    layout_to_str(o, "[");
    for (i = 0; i < n; i++) layout_to_printf(o, i ? ",%d" : "%d", v[i]);
    layout_to_str(o, "]");
}

layout_status layout_to_render(int (*print)(text_out *, const void *), const void *obj, char *buf, size_t cap,
                        const char *fn, const char *why, layout_error *err)
{
    text_out o;
    layout_to_init(&o, NULL, 0);
    if (print(&o, obj)) return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %s", fn, why);
    if (o.len + 1 > cap)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: cap = %zu is too small, the text needs %zu bytes", fn, cap,
                           o.len + 1);
    layout_to_init(&o, buf, cap);
    print(&o, obj);
    return layout_ok(err);
}

/* ---- public caret helper ---- */

layout_status layout_text_caret(const char *text, size_t offset, char *buf, size_t cap, layout_error *err)
{
    size_t n, line_start, line_end, from, to, i, caret;
    text_out o;
    char tmp[2 * LAYOUT_TEXT_CARET_WIDTH + 32];
    if (!text) return layout_fail(err, LAYOUT_ERR_NULL, "layout_text_caret: text is NULL");
    if (!buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_text_caret: buf is NULL");
    n = strlen(text);
    if (offset > n)
        return layout_fail(err, LAYOUT_ERR_RANGE, "layout_text_caret: offset = %zu is beyond the text length %zu",
                           offset, n);
    line_start = offset;
    while (line_start > 0 && text[line_start - 1] != '\n') line_start--;
    line_end = offset;
    while (line_end < n && text[line_end] != '\n') line_end++;
    /* Show a window of the line around the offset when the line is long. */
    from = line_start;
    to = line_end;
    if (to - from > LAYOUT_TEXT_CARET_WIDTH) {
        size_t half = LAYOUT_TEXT_CARET_WIDTH / 2;
        from = offset > line_start + half ? offset - half : line_start;
        to = from + LAYOUT_TEXT_CARET_WIDTH < line_end ? from + LAYOUT_TEXT_CARET_WIDTH : line_end;
        if (to - from < LAYOUT_TEXT_CARET_WIDTH && to == line_end)
            from = line_end - LAYOUT_TEXT_CARET_WIDTH > line_start ? line_end - LAYOUT_TEXT_CARET_WIDTH : line_start;
    }
    layout_to_init(&o, tmp, sizeof tmp);
    if (from > line_start) layout_to_str(&o, "...");
    caret = (from > line_start ? 3 : 0) + (offset - from);
    for (i = from; i < to; i++) {
        char ch = text[i];
        char s[2];
        s[0] = ((unsigned char)ch < 0x20 || (unsigned char)ch >= 0x7f) ? ' ' : ch;
        s[1] = '\0';
        layout_to_str(&o, s);
    }
    if (to < line_end) layout_to_str(&o, "...");
    layout_to_str(&o, "\n");
    for (i = 0; i < caret; i++) layout_to_str(&o, " ");
    layout_to_str(&o, "^\n");
    if (o.len + 1 > cap)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "layout_text_caret: cap = %zu is too small, the text needs %zu bytes",
                           cap, o.len + 1);
    memcpy(buf, tmp, o.len + 1);
    return layout_ok(err);
}
