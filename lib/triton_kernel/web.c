/* The SSA web of a module's shared allocations (web_internal.h): memdesc
 * values united through views, scf.for iter_args and warp_group_dot_wait,
 * so that every op on one buffer finds its allocation. */
#include "web_internal.h"

#include <string.h>

static int is_name_char(char c)
{
    return c == '_' || c == '$' || c == '.' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z');
}

/* Parse a value use at text[*p] (after blanks); 1 and *p past it, else 0. */
static int parse_name(const char *text, size_t len, size_t *p, layout_tk_name *out)
{
    size_t i = *p, j;
    while (i < len && (text[i] == ' ' || text[i] == '\t')) i++;
    if (i >= len || text[i] != '%') return 0;
    j = i + 1;
    while (j < len && is_name_char(text[j])) j++;
    if (j == i + 1 || j - i > 0xffff || i > 0xffffffffu) return 0;
    out->at = (uint32_t)i;
    out->len = (uint16_t)(j - i);
    out->idx = -1;
    if (j < len && text[j] == '#') {
        int v = 0, any = 0;
        size_t q = j + 1;
        while (q < len && text[q] >= '0' && text[q] <= '9' && v < 10000) {
            v = v * 10 + (text[q++] - '0');
            any = 1;
        }
        if (any) {
            out->idx = (int16_t)v;
            j = q;
        }
    }
    *p = j;
    return 1;
}

static int name_eq(const char *text, const layout_tk_name *a, const layout_tk_name *b)
{
    return a->len == b->len && a->idx == b->idx && memcmp(text + a->at, text + b->at, a->len) == 0;
}

static int name_id(layout_tk_web *t, const layout_tk_name *nm)
{
    int i;
    for (i = 0; i < t->n; i++)
        if (name_eq(t->text, &t->names[i], nm)) return i;
    if (t->n == LAYOUT_TK_WEB_MAX_NAMES) return -1;
    t->names[t->n] = *nm;
    t->parent[t->n] = (int16_t)t->n;
    return t->n++;
}

static int find_root(layout_tk_web *t, int i)
{
    while (t->parent[i] != i) {
        t->parent[i] = t->parent[t->parent[i]];
        i = t->parent[i];
    }
    return i;
}

int layout_tk_web_root(layout_tk_web *w, const layout_tk_name *nm)
{
    int id = name_id(w, nm);
    return id < 0 ? -1 : find_root(w, id);
}

static void unite(layout_tk_web *t, const layout_tk_name *a, const layout_tk_name *b)
{
    int x = name_id(t, a), y = name_id(t, b);
    if (x < 0 || y < 0) return;
    x = find_root(t, x);
    y = find_root(t, y);
    if (x != y) t->parent[x] = (int16_t)y;
}

/* `word` as a whole token in s[b, e): its offset, or (size_t)-1. */
static size_t find_word(const char *s, size_t b, size_t e, const char *word)
{
    size_t n = strlen(word), i;
    for (i = b; i + n <= e; i++)
        if (memcmp(s + i, word, n) == 0 && (i == b || !is_name_char(s[i - 1])) &&
            (i + n == e || !is_name_char(s[i + n])))
            return i;
    return (size_t)-1;
}

/* ---- scf.for: init <-> block argument <-> yield operand <-> result #k ---- */

#define MAX_FOR_ARGS 48
#define MAX_FOR_DEPTH 16

typedef struct for_frame {
    int body_depth; /* brace depth inside the body */
    int n_args;
    layout_tk_name args[MAX_FOR_ARGS];
} for_frame;

/* The `%r` or `%r:N` result at s[b..e): 1 and *res, *n (1 without `:N`), p past it. */
static int parse_result(const char *s, size_t e, size_t *p, layout_tk_name *res, int *n)
{
    *n = 1;
    if (!parse_name(s, e, p, res)) return 0;
    if (*p < e && s[*p] == ':') {
        int v = 0;
        (*p)++;
        while (*p < e && s[*p] >= '0' && s[*p] <= '9' && v < 10000) v = v * 10 + (s[(*p)++] - '0');
        *n = v;
    }
    return 1;
}

/* One `scf.for` line [b, e): unite each block argument with its init and
 * with the loop's result #k. */
static void parse_for(layout_tk_web *t, const char *s, size_t b, size_t e, for_frame *f)
{
    size_t p = b, q;
    layout_tk_name res;
    int n_results, have_res = parse_result(s, e, &p, &res, &n_results);
    f->n_args = 0;
    q = find_word(s, b, e, "iter_args");
    if (q == (size_t)-1) return;
    p = q + 9;
    while (p < e && s[p] != '(') p++;
    p++;
    while (p < e && f->n_args < MAX_FOR_ARGS) {
        layout_tk_name arg, init;
        if (!parse_name(s, e, &p, &arg)) break;
        while (p < e && (s[p] == ' ' || s[p] == '=')) p++;
        if (!parse_name(s, e, &p, &init)) break;
        unite(t, &arg, &init);
        if (have_res) {
            layout_tk_name r = res;
            r.idx = n_results > 1 ? (int16_t)f->n_args : (int16_t)-1;
            unite(t, &r, &arg);
        }
        f->args[f->n_args++] = arg;
        while (p < e && s[p] == ' ') p++;
        if (p < e && s[p] == ',') p++;
        else break;
    }
}

/* `%r:N = ttng.warp_group_dot_wait %acc, %a, %b ...`: result #k is operand k. */
static void parse_dot_wait(layout_tk_web *t, const char *s, size_t b, size_t e, size_t at)
{
    size_t p = b;
    layout_tk_name res;
    int n, k;
    if (!parse_result(s, e, &p, &res, &n)) return;
    p = at + strlen("ttng.warp_group_dot_wait");
    for (k = 0; k < n; k++) {
        layout_tk_name v, r = res;
        if (!parse_name(s, e, &p, &v)) break;
        r.idx = n > 1 ? (int16_t)k : (int16_t)-1;
        unite(t, &r, &v);
        while (p < e && s[p] == ' ') p++;
        if (p < e && s[p] == ',') p++;
        else break;
    }
}

/* The `{` less the `}` on line [b, e), outside strings. */
static int brace_delta(const char *s, size_t b, size_t e)
{
    int in_str = 0, d = 0;
    for (size_t i = b; i < e; i++) {
        if (s[i] == '"' && (i == b || s[i - 1] != '\\')) in_str = !in_str;
        else if (!in_str && s[i] == '{') d++;
        else if (!in_str && s[i] == '}') d--;
    }
    return d;
}

int layout_tk_region_depth(const layout_ttgir *m, size_t at, size_t until, int *deepest)
{
    const char *s = m->text;
    size_t b = 0;
    int depth = 0, d_at = -1, most = -1;
    while (b < m->len && b <= until) {
        size_t e = b;
        while (e < m->len && s[e] != '\n') e++;
        if (at <= e && d_at < 0) d_at = most = depth; /* the line holding at */
        else if (d_at >= 0 && depth > most) most = depth;
        depth += brace_delta(s, b, e);
        b = e + 1;
    }
    if (deepest) *deepest = most;
    return d_at;
}

/* Walk the text once: brace depth (outside strings), scf.for frames, the
 * yields that close them, dot waits. */
static void scan_lines(layout_tk_web *t, const layout_ttgir *m)
{
    for_frame frames[MAX_FOR_DEPTH];
    int n_frames = 0, depth = 0;
    const char *s = m->text;
    size_t b = 0, len = m->len;
    while (b < len) {
        size_t e = b, f0, y0, first = b;
        int d0 = depth;
        while (e < len && s[e] != '\n') e++;
        while (first < e && (s[first] == ' ' || s[first] == '\t')) first++;
        if ((f0 = find_word(s, b, e, "scf.for")) != (size_t)-1 && n_frames < MAX_FOR_DEPTH) {
            parse_for(t, s, first, e, &frames[n_frames]);
            frames[n_frames].body_depth = d0 + 1;
            n_frames++;
        } else if ((f0 = find_word(s, b, e, "ttng.warp_group_dot_wait")) != (size_t)-1) {
            parse_dot_wait(t, s, first, e, f0);
        } else if (n_frames > 0 && frames[n_frames - 1].body_depth == d0 &&
                   (y0 = find_word(s, b, e, "scf.yield")) != (size_t)-1) {
            for_frame *f = &frames[n_frames - 1];
            size_t p = y0 + 9;
            int k;
            for (k = 0; k < f->n_args; k++) {
                layout_tk_name v;
                if (!parse_name(s, e, &p, &v)) break;
                unite(t, &v, &f->args[k]);
                while (p < e && s[p] == ' ') p++;
                if (p < e && s[p] == ',') p++;
                else break;
            }
        }
        depth += brace_delta(s, b, e);
        while (n_frames > 0 && depth < frames[n_frames - 1].body_depth) n_frames--;
        b = e + 1;
    }
}

int layout_tk_op_result(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out)
{
    size_t p = o->result_at;
    if (!o->result_len) return 0;
    return parse_name(m->text, m->len, &p, out);
}

int layout_tk_op_uses(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out, int max)
{
    const char *s = m->text;
    size_t p = o->operand_at, e = p;
    int n = 0;
    if (!o->operand_len) return 0;
    while (e < m->len && s[e] != '\n') e++;
    while (p < e && n < max) {
        char c = s[p];
        if (c == '%') {
            if (parse_name(s, e, &p, &out[n])) n++;
            else p++;
        } else if (c == '[') { /* memdesc_index %x[%i]: the index is no memdesc */
            while (p < e && s[p] != ']') p++;
        } else if (c == '{' || (c == ':' && p > 0 && s[p - 1] == ' ') ||
                   (c == 'l' && p + 4 <= e && memcmp(s + p, "loc(", 4) == 0)) {
            break;
        } else {
            p++;
        }
    }
    return n;
}

int layout_tk_access_memdesc(const layout_ttgir *m, const layout_ttgir_op *o, layout_tk_name *out)
{
    layout_tk_name v[2];
    int n;
    switch (o->kind) {
    case LAYOUT_TTGIR_LOCAL_ALLOC: return layout_tk_op_result(m, o, out);
    case LAYOUT_TTGIR_LOCAL_LOAD:
        if (layout_tk_op_uses(m, o, v, 1) < 1) return 0;
        *out = v[0];
        return 1;
    case LAYOUT_TTGIR_LOCAL_STORE:
    case LAYOUT_TTGIR_ASYNC_COPY:
        n = layout_tk_op_uses(m, o, v, 2);
        if (n < 2) return 0;
        *out = v[1];
        return 1;
    case LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL: {
        size_t e = o->operand_at, q;
        while (e < m->len && m->text[e] != '\n') e++;
        q = find_word(m->text, o->operand_at, e, "into");
        if (q == (size_t)-1) return 0;
        q += 4;
        return parse_name(m->text, e, &q, out);
    }
    default: return 0;
    }
}

void layout_tk_web_build(layout_tk_web *w, const layout_ttgir *m)
{
    int i;
    w->text = m->text;
    w->len = m->len;
    w->n = 0;
    for (i = 0; i < m->n_ops; i++) {
        layout_tk_name v[1], res;
        if (m->ops[i].kind != LAYOUT_TTGIR_MEMDESC_VIEW) continue;
        if (layout_tk_op_uses(m, &m->ops[i], v, 1) >= 1 && layout_tk_op_result(m, &m->ops[i], &res))
            unite(w, &res, &v[0]);
    }
    scan_lines(w, m);
}
