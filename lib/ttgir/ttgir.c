/* Reading TTGIR (ttgir.h): one pass over the lines, no heap.  Only what the
 * shared-memory analysis needs is parsed: the module header, the layout
 * aliases, the `#locN` definitions and the lines of the shared-memory ops
 * (their types in full); every other line is skipped, so a new op or
 * attribute in a later Triton does not stop the reader. */
#include "../core/internal.h"
#include "alias.h"
#include "wellformed_internal.h"
#include "layout/ttgir.h"

#include <stdio.h>
#include <string.h>

#define FN "layout_ttgir_parse"

static const struct {
    const char *name;
    layout_ttgir_op_kind kind;
} k_ops[] = {
    {"ttg.local_alloc", LAYOUT_TTGIR_LOCAL_ALLOC},
    {"ttg.local_store", LAYOUT_TTGIR_LOCAL_STORE},
    {"ttg.local_load", LAYOUT_TTGIR_LOCAL_LOAD},
    {"ttg.local_dealloc", LAYOUT_TTGIR_LOCAL_DEALLOC},
    {"ttg.async_copy_global_to_local", LAYOUT_TTGIR_ASYNC_COPY},
    {"amdg.buffer_load_to_local", LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL},
    {"amdgpu.buffer_load_to_local", LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL},
    {"ttg.memdesc_index", LAYOUT_TTGIR_MEMDESC_VIEW},
    {"ttg.memdesc_subview", LAYOUT_TTGIR_MEMDESC_VIEW},
    {"ttg.memdesc_subslice", LAYOUT_TTGIR_MEMDESC_VIEW},
    {"ttg.memdesc_trans", LAYOUT_TTGIR_MEMDESC_VIEW},
    {"ttg.memdesc_reshape", LAYOUT_TTGIR_MEMDESC_VIEW},
    {"ttg.convert_layout", LAYOUT_TTGIR_CONVERT_LAYOUT},
    {"ttng.warp_group_dot", LAYOUT_TTGIR_WARP_GROUP_DOT},
    {"tt.reduce", LAYOUT_TTGIR_REDUCE},
    {"tt.scan", LAYOUT_TTGIR_SCAN},
    {"tt.histogram", LAYOUT_TTGIR_HISTOGRAM},
    {"tt.gather", LAYOUT_TTGIR_GATHER},
    {"ttg.warp_specialize", LAYOUT_TTGIR_WARP_SPECIALIZE},
};

static const char *const k_kind_names[LAYOUT_TTGIR_OP_KIND_COUNT] = {
    "ttg.local_alloc",   "ttg.local_store",      "ttg.local_load",       "ttg.local_dealloc",
    "ttg.async_copy_global_to_local", "amdg.buffer_load_to_local", "ttg.memdesc_index",
    "ttg.convert_layout", "ttng.warp_group_dot", "tt.reduce", "tt.scan", "tt.histogram", "tt.gather",
    "ttg.warp_specialize", "(other shared-memory op)"};

const char *layout_ttgir_op_name(layout_ttgir_op_kind kind)
{
    return (int)kind >= 0 && kind < LAYOUT_TTGIR_OP_KIND_COUNT ? k_kind_names[kind] : "?";
}

/* ------------------------------------------------------------------ scanning */

typedef struct scan {
    const char *t;
    size_t n;         /* end of the text */
    size_t ls, le;    /* the current line [ls, le) */
    int line;         /* its 1-based number */
    layout_error *err;
} scan;

static layout_status fail_at(const scan *s, size_t at, layout_status st, const char *what)
{
    return layout_fail(s->err, st, FN ": line %d, column %d: %s", s->line, (int)(at - s->ls) + 1, what);
}

static int is_ident(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
           ch == '.' || ch == '-' || ch == '$';
}

static size_t skip_blank(const scan *s, size_t p)
{
    while (p < s->le && (s->t[p] == ' ' || s->t[p] == '\t' || s->t[p] == '\r')) p++;
    return p;
}

static int starts(const scan *s, size_t p, const char *lit)
{
    size_t k = strlen(lit);
    return p + k <= s->le && memcmp(s->t + p, lit, k) == 0;
}

/* The end of the balanced group opened at p (one of < ( [ {), strings
 * skipped; s->le if it is not closed on the line. */
static size_t close_of(const scan *s, size_t p)
{
    int depth = 0;
    for (; p < s->le; p++) {
        char ch = s->t[p];
        if (ch == '"') {
            for (p++; p < s->le && s->t[p] != '"'; p++)
                if (s->t[p] == '\\') p++;
            continue;
        }
        if (ch == '-' && p + 1 < s->le && s->t[p + 1] == '>') { /* an arrow, not a closing '>' */
            p++;
            continue;
        }
        if (ch == '<' || ch == '(' || ch == '[' || ch == '{') depth++;
        if (ch == '>' || ch == ')' || ch == ']' || ch == '}') {
            if (--depth == 0) return p;
            if (depth < 0) return s->le;
        }
    }
    return s->le;
}

/* First position in [p, end) of `lit` at nesting depth 0 (strings skipped). */
static size_t find_top(const scan *s, size_t p, size_t end, const char *lit)
{
    int depth = 0;
    size_t k = strlen(lit);
    for (; p < end; p++) {
        char ch = s->t[p];
        if (depth == 0 && p + k <= end && memcmp(s->t + p, lit, k) == 0) return p;
        if (ch == '"') {
            for (p++; p < end && s->t[p] != '"'; p++)
                if (s->t[p] == '\\') p++;
            continue;
        }
        if (ch == '-' && p + 1 < end && s->t[p + 1] == '>') {
            p++;
            continue;
        }
        if (ch == '<' || ch == '(' || ch == '[' || ch == '{') depth++;
        if ((ch == '>' || ch == ')' || ch == ']' || ch == '}') && depth > 0) depth--;
    }
    return end;
}

/* ------------------------------------------------------------------ types */

static int elem_bits(const char *e)
{
    static const struct {
        const char *name;
        int bits;
    } k[] = {{"f16", 16}, {"bf16", 16}, {"f32", 32}, {"f64", 64}, {"tf32", 32}, {"i1", 1},  {"i8", 8},
             {"i16", 16}, {"i32", 32},  {"i64", 64}, {"f8E4M3FN", 8}, {"f8E5M2", 8}, {"f8E4M3FNUZ", 8},
             {"f8E5M2FNUZ", 8}, {"f8E4M3B11FNUZ", 8}, {"f4E2M1FN", 4}, {"f8E8M0FNU", 8}};
    size_t i;
    if (strncmp(e, "!tt.ptr", 7) == 0) return 64;
    for (i = 0; i < sizeof k / sizeof k[0]; i++)
        if (strcmp(e, k[i].name) == 0) return k[i].bits;
    return 0;
}

/* One type at p: `tensor<...>`, `!ttg.memdesc<...>` or a bare memdesc
 * `<...>` (async copies print their result so).  Other types (i32,
 * !tt.ptr<...>, ...) are skipped: *kept = 0.  Returns the end of the type. */
static layout_status parse_type(const scan *s, size_t p, size_t end, layout_ttgir_type *out, int *kept, size_t *next)
{
    size_t open, close, q;
    int memdesc;
    *kept = 0;
    if (starts(s, p, "tensor<")) {
        memdesc = 0;
        open = p + 6;
    } else if (starts(s, p, "!ttg.memdesc<")) {
        memdesc = 1;
        open = p + 12;
    } else if (p < end && s->t[p] == '<') {
        memdesc = 1;
        open = p;
    } else { /* some other type: to the next top-level ',' */
        *next = find_top(s, p, end, ",");
        return LAYOUT_OK;
    }
    close = close_of(s, open);
    if (close >= end) return fail_at(s, open, LAYOUT_ERR_PARSE, memdesc ? "expected '>' closing the memdesc type"
                                                                       : "expected '>' closing tensor<...>");
    memset(out, 0, sizeof *out);
    out->is_memdesc = memdesc;
    /* dims: int 'x' int 'x' ... elem */
    q = open + 1;
    for (;;) {
        size_t d = q;
        int64_t v = 0;
        while (q < close && s->t[q] >= '0' && s->t[q] <= '9') {
            if (v > (INT64_MAX - 9) / 10) return fail_at(s, d, LAYOUT_ERR_PARSE, "a dim of the shape is too large");
            v = v * 10 + (s->t[q] - '0');
            q++;
        }
        if (q == d || q >= close || s->t[q] != 'x') {
            q = d; /* not a dim: the element type starts here */
            break;
        }
        if (out->rank >= LAYOUT_TTGIR_MAX_RANK)
            return fail_at(s, d, LAYOUT_ERR_CAPACITY, "more than 6 dims in a type");
        out->shape[out->rank++] = v;
        q++;
    }
    {
        size_t e = q;
        if (starts(s, q, "!tt.ptr<")) {
            size_t c = close_of(s, q + 7);
            if (c >= close) return fail_at(s, q, LAYOUT_ERR_PARSE, "expected '>' closing !tt.ptr<...>");
            q = c + 1;
        } else {
            while (q < close && is_ident(s->t[q])) q++;
        }
        if (q == e) return fail_at(s, e, LAYOUT_ERR_PARSE, "expected an element type");
        if (q - e >= sizeof out->elem) return fail_at(s, e, LAYOUT_ERR_PARSE, "the element type is too long");
        memcpy(out->elem, s->t + e, q - e);
        out->elem[q - e] = '\0';
        out->elem_bits = elem_bits(out->elem);
    }
    /* , encoding [, memory space] [, mutable] [, alloc shape] */
    while (q < close) {
        size_t f;
        q = skip_blank(s, q);
        if (s->t[q] != ',') return fail_at(s, q, LAYOUT_ERR_PARSE, "expected ',' or '>' in the type");
        q = skip_blank(s, q + 1);
        f = find_top(s, q, close, ",");
        if (f == q) return fail_at(s, q, LAYOUT_ERR_PARSE, "expected a type parameter");
        if (s->t[q] == '#' && out->enc_len == 0) {
            out->enc_at = q;
            out->enc_len = f - q;
            while (out->enc_len && (s->t[q + out->enc_len - 1] == ' ')) out->enc_len--;
        } else if (starts(s, q, "mutable")) {
            out->mutable_ = 1;
        }
        q = f;
    }
    *kept = 1;
    *next = close + 1;
    return LAYOUT_OK;
}

/* A comma-separated list of types in [p, end), maybe in parentheses. */
static layout_status parse_types(const scan *s, size_t p, size_t end, layout_ttgir_type *out, int *n)
{
    layout_status st;
    *n = 0;
    p = skip_blank(s, p);
    while (end > p && (s->t[end - 1] == ' ')) end--;
    if (p < end && s->t[p] == '(') {
        size_t c = close_of(s, p);
        if (c >= end) return fail_at(s, p, LAYOUT_ERR_PARSE, "expected ')' closing the type list");
        end = c;
        p++;
    }
    while (p < end) {
        layout_ttgir_type t;
        int kept;
        size_t next = end;
        p = skip_blank(s, p);
        if (p >= end) break;
        if ((st = parse_type(s, p, end, &t, &kept, &next))) return st;
        if (kept && *n < LAYOUT_TTGIR_MAX_TYPES) out[(*n)++] = t;
        p = skip_blank(s, next);
        if (p < end && (s->t[p] == ',' || s->t[p] == '*')) p++; /* ',' or wgmma's 'A * B' */
        else if (p < end) return fail_at(s, p, LAYOUT_ERR_PARSE, "expected ',' between types");
    }
    return LAYOUT_OK;
}

/* ------------------------------------------------------------------ lines */

static int op_kind_of(const scan *s, size_t p, size_t q, layout_ttgir_op_kind *kind)
{
    size_t i;
    for (i = 0; i < sizeof k_ops / sizeof k_ops[0]; i++)
        if (strlen(k_ops[i].name) == q - p && memcmp(s->t + p, k_ops[i].name, q - p) == 0) {
            *kind = k_ops[i].kind;
            return 1;
        }
    return 0;
}

/* Text [p, q) of the current line has `lit` (strings included). */
static int has(const scan *s, size_t p, size_t q, const char *lit)
{
    size_t k = strlen(lit);
    for (; p + k <= q; p++)
        if (memcmp(s->t + p, lit, k) == 0) return 1;
    return 0;
}

static int name_is(const scan *s, size_t p, size_t q, const char *lit)
{
    return q - p == strlen(lit) && memcmp(s->t + p, lit, q - p) == 0;
}

static int name_starts(const scan *s, size_t p, size_t q, const char *lit)
{
    size_t k = strlen(lit);
    return q - p >= k && memcmp(s->t + p, lit, k) == 0;
}

/* An op named [p, q) that k_ops does not know but whose lowering may touch
 * shared memory, by Triton's own evidence in the text: the allocation
 * analysis gave it scratch (`allocation.offset`), it is an op of a GPU
 * dialect on a memdesc, or it is an atomic on one scalar (its result is
 * broadcast through shared memory).  Ops on memdescs that issue no access
 * (views, waits) are not. */
static int may_touch_shared(const scan *s, size_t p, size_t q)
{
    if (has(s, q, s->le, "allocation.offset")) return 1;
    if (name_is(s, p, q, "tt.atomic_rmw") || name_is(s, p, q, "tt.atomic_cas")) return !has(s, q, s->le, "tensor<");
    if (name_starts(s, p, q, "ttg.memdesc_") || name_is(s, p, q, "ttng.warp_group_dot_wait") ||
        name_is(s, p, q, "ttg.async_wait") || name_is(s, p, q, "ttg.async_commit_group"))
        return 0;
    if (!(name_starts(s, p, q, "ttg.") || name_starts(s, p, q, "ttng.") || name_starts(s, p, q, "amdg.") ||
          name_starts(s, p, q, "amdgpu.") || name_starts(s, p, q, "nvws.") || name_starts(s, p, q, "nvg.")))
        return 0;
    return has(s, q, s->le, "memdesc<");
}

static void next_line(scan *s)
{
    s->ls = s->le < s->n ? s->le + 1 : s->n;
    s->le = s->ls;
    while (s->le < s->n && s->t[s->le] != '\n') s->le++;
    s->line++;
}

/* `key = value` of the module header: an int (`= 4 : i32`) or a string. */
static void header_int(const scan *s, const char *key, int *out)
{
    size_t p = s->ls, k = strlen(key);
    for (; p + k < s->le; p++)
        if (memcmp(s->t + p, key, k) == 0 && (p == s->ls || !is_ident(s->t[p - 1])) && !is_ident(s->t[p + k])) {
            size_t q = p + k;
            long v = 0;
            if (q < s->le && s->t[q] == '"') q++;
            q = skip_blank(s, q);
            if (q >= s->le || s->t[q] != '=') continue;
            q = skip_blank(s, q + 1);
            if (q >= s->le || s->t[q] == '"') continue; /* the end, or a string value: not this key's */
            while (q < s->le && s->t[q] >= '0' && s->t[q] <= '9' && v < 1000000) v = v * 10 + (s->t[q++] - '0');
            *out = (int)v;
            return;
        }
}

static void header_target(const scan *s, char *out, size_t cap)
{
    size_t p = s->ls;
    static const char key[] = "ttg.target";
    for (; p + sizeof key < s->le; p++)
        if (memcmp(s->t + p, key, sizeof key - 1) == 0) {
            size_t q = p + sizeof key - 1, e;
            if (s->t[q] == '"') q++;
            q = skip_blank(s, q);
            if (q >= s->le || s->t[q] != '=') continue;
            q = skip_blank(s, q + 1);
            if (q >= s->le || s->t[q] != '"') continue;
            for (e = q + 1; e < s->le && s->t[e] != '"'; e++) {}
            if (e - q - 1 < cap) {
                memcpy(out, s->t + q + 1, e - q - 1);
                out[e - q - 1] = '\0';
            }
            return;
        }
}

/* An op line from p (after the results and '='): its name ends at q. */
static layout_status parse_op(scan *s, layout_ttgir *m, size_t p, size_t q, size_t res_at, size_t res_len,
                              layout_ttgir_op_kind kind, int quoted)
{
    layout_ttgir_op *op;
    size_t colon, arrow, loc, r, end;
    layout_status st;
    if (m->n_ops >= LAYOUT_TTGIR_MAX_OPS) return fail_at(s, p, LAYOUT_ERR_CAPACITY, "more than 1024 shared-memory ops");
    op = &m->ops[m->n_ops];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->line = s->line;
    op->column = (int)(p - s->ls) + 1;
    op->result_at = res_at;
    op->result_len = res_len;
    op->name_at = p + (quoted ? 1 : 0);
    op->name_len = q - op->name_at;
    if (kind == LAYOUT_TTGIR_OTHER_SHARED || kind == LAYOUT_TTGIR_WARP_SPECIALIZE) {
        /* recorded, not read: their types and regions vary; the report lists them as not modelled */
        m->n_ops++;
        return LAYOUT_OK;
    }
    r = skip_blank(s, q + (quoted ? 1 : 0));
    if (r < s->le && s->t[r] == '(') r = skip_blank(s, r + 1);
    if (r < s->le && s->t[r] == '%') {
        size_t e = r + 1;
        while (e < s->le && is_ident(s->t[e])) e++;
        op->operand_at = r;
        op->operand_len = e - r;
    }
    if (quoted) {
        /* the generic form with a region ("tt.reduce"(...) ... ({ ... }) : types):
         * the types and the location are on the line that closes the region */
        int depth = 0;
        size_t k;
        for (k = p; k < s->le; k++) depth += (s->t[k] == '{') - (s->t[k] == '}');
        while (depth > 0 && s->le < s->n) {
            next_line(s);
            for (k = s->ls; k < s->le; k++) {
                if (s->t[k] == '"') {
                    for (k++; k < s->le && s->t[k] != '"'; k++) {}
                    continue;
                }
                depth += (s->t[k] == '{') - (s->t[k] == '}');
                if (depth == 0) {
                    q = k;
                    break;
                }
            }
        }
        if (depth > 0) return fail_at(s, s->le, LAYOUT_ERR_PARSE, "the op's region is not closed");
    }
    end = s->le;
    for (loc = find_top(s, q, end, "loc("); loc < end && loc > s->ls && is_ident(s->t[loc - 1]);)
        loc = find_top(s, loc + 4, end, "loc(");
    if (loc < end) {
        size_t c = close_of(s, loc + 3);
        if (c >= end) return fail_at(s, loc, LAYOUT_ERR_PARSE, "expected ')' closing loc(...)");
        op->loc_at = loc + 4;
        op->loc_len = c - loc - 4;
        end = loc;
    }
    colon = find_top(s, q, end, " : ");
    if (colon >= end) { /* ops without types (a dealloc may print none) */
        m->n_ops++;
        return LAYOUT_OK;
    }
    arrow = find_top(s, colon + 3, end, "->");
    if ((st = parse_types(s, colon + 3, arrow, op->src, &op->n_src))) return st;
    if (arrow < end && (st = parse_types(s, arrow + 2, end, op->dst, &op->n_dst))) return st;
    m->n_ops++;
    return LAYOUT_OK;
}

static layout_status parse_line(scan *s, layout_ttgir *m)
{
    size_t p = skip_blank(s, s->ls), q, res_at = 0, res_len = 0;
    layout_ttgir_op_kind kind;
    if (p >= s->le) return LAYOUT_OK;
    if (s->t[p] == '#') { /* an alias or a location */
        size_t name = p, eq;
        for (q = p + 1; q < s->le && is_ident(s->t[q]); q++) {}
        eq = skip_blank(s, q);
        if (eq >= s->le || s->t[eq] != '=' || q == p + 1) return LAYOUT_OK; /* not a definition */
        eq = skip_blank(s, eq + 1);
        if (starts(s, eq, "loc(")) {
            if (m->n_locs >= LAYOUT_TTGIR_MAX_LOCS)
                return fail_at(s, name, LAYOUT_ERR_CAPACITY, "more than 8192 location definitions");
            m->loc_name_at[m->n_locs++] = (uint32_t)name;
            return LAYOUT_OK;
        }
        if (m->n_aliases >= LAYOUT_TTGIR_MAX_ALIASES)
            return fail_at(s, name, LAYOUT_ERR_CAPACITY, "more than 64 layout aliases");
        {
            layout_ttgir_alias *a = &m->aliases[m->n_aliases];
            size_t e = s->le;
            while (e > eq && (s->t[e - 1] == ' ' || s->t[e - 1] == '\r')) e--;
            if (e == eq) return fail_at(s, eq, LAYOUT_ERR_PARSE, "expected the alias's attribute after '='");
            if (layout_ttgir_alias_find(m, s->t + name, q - name) >= 0)
                return fail_at(s, name, LAYOUT_ERR_PARSE, "this alias is defined twice");
            a->name_at = name;
            a->name_len = q - name;
            a->text_at = eq;
            a->text_len = e - eq;
            m->n_aliases++;
        }
        return LAYOUT_OK;
    }
    if (starts(s, p, "module attributes")) {
        size_t a = p + 17, c;
        if (!m->module_line) {
            m->module_line = s->line;
            m->module_column = (int)(p - s->ls) + 1;
        }
        /* `module attributes {...} {`: without the body's '{' the module was cut after its header */
        while (a < s->le && s->t[a] != '{') a++;
        c = a < s->le ? close_of(s, a) : s->le;
        c = c < s->le ? skip_blank(s, c + 1) : s->le;
        if (c >= s->le || s->t[c] != '{')
            return fail_at(s, c, LAYOUT_ERR_PARSE, "expected '{' opening the module's body after its attributes "
                                                   "(is the text cut short?)");
        header_int(s, "ttg.num-warps", &m->num_warps);
        header_int(s, "ttg.threads-per-warp", &m->threads_per_warp);
        header_int(s, "ttg.num-ctas", &m->num_ctas);
        header_target(s, m->target, sizeof m->target);
        return LAYOUT_OK;
    }
    /* [results '='] op-name ... */
    q = p;
    if (s->t[p] == '%') {
        size_t e = p + 1, eq;
        while (e < s->le && is_ident(s->t[e])) e++;
        res_at = p;
        res_len = e - p;
        eq = find_top(s, e, s->le, "=");
        if (eq >= s->le) return LAYOUT_OK;
        q = skip_blank(s, eq + 1);
    }
    if (q < s->le && s->t[q] == '"') { /* the generic form: "tt.reduce"(...) */
        size_t e = q + 1;
        while (e < s->le && s->t[e] != '"') e++;
        if (e < s->le && op_kind_of(s, q + 1, e, &kind)) return parse_op(s, m, q, e, res_at, res_len, kind, 1);
        if (e < s->le && may_touch_shared(s, q + 1, e))
            return parse_op(s, m, q, e, res_at, res_len, LAYOUT_TTGIR_OTHER_SHARED, 1);
        return LAYOUT_OK;
    }
    p = q;
    while (q < s->le && is_ident(s->t[q])) q++;
    if (q > p && op_kind_of(s, p, q, &kind)) return parse_op(s, m, p, q, res_at, res_len, kind, 0);
    if (q > p && may_touch_shared(s, p, q)) return parse_op(s, m, p, q, res_at, res_len, LAYOUT_TTGIR_OTHER_SHARED, 0);
    return LAYOUT_OK;
}

layout_status layout_ttgir_parse(const char *text, size_t len, layout_ttgir *out, layout_error *err)
{
    scan s;
    layout_status st;
    if (!text || !out) return layout_fail(err, LAYOUT_ERR_NULL, FN ": text or out is NULL");
    if (len > UINT32_MAX) return layout_fail(err, LAYOUT_ERR_CAPACITY, FN ": the text is larger than 4 GiB");
    memset(out, 0, sizeof *out);
    out->text = text;
    out->len = len;
    s.t = text;
    s.n = len;
    s.err = err;
    s.line = 0;
    s.le = (size_t)-1; /* next_line starts at 0 */
    s.ls = 0;
    /* A NUL byte anywhere is refused up front: an op that spans lines (a
     * region of tt.scan / tt.reduce) is read past the per-line check below,
     * and a writer of the module (layout_triton_kernel_apply) copies text. */
    {
        const char *nul = memchr(text, '\0', len);
        if (nul) {
            size_t at = (size_t)(nul - text), k;
            s.line = 1;
            for (k = 0; k < at; k++)
                if (text[k] == '\n') {
                    s.line++;
                    s.ls = k + 1;
                }
            return fail_at(&s, at, LAYOUT_ERR_PARSE, "a NUL byte in the text");
        }
    }
    if ((st = layout_ttgir_check_text(text, len, err))) return st;
    for (;;) {
        if (s.le == (size_t)-1) {
            s.ls = 0;
            s.le = 0;
            while (s.le < s.n && s.t[s.le] != '\n') s.le++;
            s.line = 1;
        } else if (s.le >= s.n) {
            break;
        } else {
            next_line(&s);
        }
        {
            size_t k;
            for (k = s.ls; k < s.le; k++)
                if (s.t[k] == '\0') return fail_at(&s, k, LAYOUT_ERR_PARSE, "a NUL byte in the text");
        }
        if ((st = parse_line(&s, out))) return st;
    }
    out->n_lines = s.line;
    if ((st = layout_ttgir_check_locs(out, err))) return st;
    return layout_ok(err);
}

/* ------------------------------------------------------------------ queries */

int layout_ttgir_alias_find(const layout_ttgir *m, const char *name, size_t len)
{
    int i;
    if (!m || !name) return -1;
    for (i = 0; i < m->n_aliases; i++)
        if (m->aliases[i].name_len == len && memcmp(m->text + m->aliases[i].name_at, name, len) == 0) return i;
    return -1;
}

layout_status layout_ttgir_encoding(const layout_ttgir *m, const layout_ttgir_type *t, const char **attr,
                                    size_t *attr_len)
{
    size_t at, len;
    int hops;
    if (!m || !t || !attr || !attr_len) return LAYOUT_ERR_NULL;
    at = t->enc_at;
    len = t->enc_len;
    if (len == 0) return LAYOUT_ERR_NOT_FOUND;
    for (hops = 0; hops <= LAYOUT_TTGIR_MAX_ALIASES; hops++) {
        size_t k = 1;
        int a;
        while (k < len && m->text[at + k] != '<' && m->text[at + k] != '.') k++;
        if (k < len || m->text[at + len - 1] == '>') break; /* an inline attribute */
        if ((a = layout_ttgir_alias_find(m, m->text + at, len)) < 0) return LAYOUT_ERR_NOT_FOUND;
        at = m->aliases[a].text_at;
        len = m->aliases[a].text_len;
    }
    *attr = m->text + at;
    *attr_len = len;
    return LAYOUT_OK;
}

/* The `loc(...)` contents of definition `#name`. */
static int loc_def(const layout_ttgir *m, size_t at, size_t len, size_t *c_at, size_t *c_len)
{
    int i;
    for (i = 0; i < m->n_locs; i++) {
        size_t p = m->loc_name_at[i], e, q;
        if (p + len > m->len || memcmp(m->text + p, m->text + at, len) != 0) continue;
        e = p + len;
        if (e < m->len && (m->text[e] != ' ' && m->text[e] != '=')) continue;
        q = e;
        while (q < m->len && m->text[q] != '(' && m->text[q] != '\n') q++;
        if (q >= m->len || m->text[q] != '(') return 0;
        {
            int depth = 0;
            size_t k;
            for (k = q; k < m->len && m->text[k] != '\n'; k++) {
                if (m->text[k] == '"') {
                    for (k++; k < m->len && m->text[k] != '"' && m->text[k] != '\n'; k++) {}
                    continue;
                }
                depth += (m->text[k] == '(') - (m->text[k] == ')');
                if (depth == 0) {
                    *c_at = q + 1;
                    *c_len = k - q - 1;
                    return 1;
                }
            }
        }
        return 0;
    }
    return 0;
}

/* Resolve the location [at, at+len) into "file":line:col; 1 when found. */
static int resolve_loc(const layout_ttgir *m, size_t at, size_t len, int depth, int *budget, size_t *f_at,
                       size_t *f_len)
{
    /* every step spends one unit of a fixed budget: a callsite tries two
     * branches, so chains of them would otherwise take exponential time
     * (fuzz_ttgir found a 12 KB text that took minutes) */
    if (--*budget < 0) return 0;
    const char *t = m->text;
    while (len && t[at] == ' ') at++, len--;
    if (depth > 64 || len == 0) return 0;
    if (t[at] == '#') {
        size_t n = 1, c_at, c_len;
        while (n < len && is_ident(t[at + n])) n++;
        if (!loc_def(m, at, n, &c_at, &c_len)) return 0;
        return resolve_loc(m, c_at, c_len, depth + 1, budget, f_at, f_len);
    }
    if (t[at] == '"') {
        size_t e = at + 1;
        while (e < at + len && t[e] != '"') e++;
        if (e + 1 < at + len && t[e + 1] == ':') { /* "file":line:col */
            size_t k = e + 1;
            while (k < at + len && (t[k] == ':' || (t[k] >= '0' && t[k] <= '9'))) k++;
            *f_at = at;
            *f_len = k - at;
            return 1;
        }
        if (e + 1 < at + len && t[e + 1] == '(') /* "name"(inner) */
            return resolve_loc(m, e + 2, at + len - e - 3, depth + 1, budget, f_at, f_len);
        return 0;
    }
    if (len > 9 && memcmp(t + at, "callsite(", 9) == 0) {
        /* callsite(callee at caller): the caller is the kernel's own line */
        size_t k;
        int d = 0;
        for (k = at + 9; k + 4 <= at + len; k++) {
            d += (t[k] == '(') - (t[k] == ')');
            if (d == 0 && memcmp(t + k, " at ", 4) == 0)
                return resolve_loc(m, k + 4, at + len - k - 5, depth + 1, budget, f_at, f_len) ||
                       resolve_loc(m, at + 9, k - at - 9, depth + 1, budget, f_at, f_len);
        }
        return 0;
    }
    if (len > 6 && memcmp(t + at, "fused", 5) == 0) {
        size_t k = at + 5;
        while (k < at + len && t[k] != '[') k++;
        return k < at + len && resolve_loc(m, k + 1, at + len - k - 1, depth + 1, budget, f_at, f_len);
    }
    return 0;
}

layout_status layout_ttgir_op_loc(const layout_ttgir *m, int op, char *buf, size_t cap)
{
    size_t f_at = 0, f_len = 0;
    int budget = 256; /* resolution steps: a real location takes a handful */
    if (!m || !buf || cap == 0) return LAYOUT_ERR_NULL;
    if (op < 0 || op >= m->n_ops) return LAYOUT_ERR_ARG;
    buf[0] = '\0';
    if (!m->ops[op].loc_len || !resolve_loc(m, m->ops[op].loc_at, m->ops[op].loc_len, 0, &budget, &f_at, &f_len))
        return LAYOUT_OK;
    if (f_len >= cap) {
        memcpy(buf, m->text + f_at, cap - 1);
        buf[cap - 1] = '\0';
        return LAYOUT_ERR_BUFFER;
    }
    memcpy(buf, m->text + f_at, f_len);
    buf[f_len] = '\0';
    return LAYOUT_OK;
}
