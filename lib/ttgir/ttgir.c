/* Reading TTGIR (ttgir.h), no heap: the whole-text checks (wellformed.c),
 * the IR of every op (ir.c), then the shared-memory view over it: the
 * module's target and warps from the module op's attributes, and every op
 * that reads or writes shared memory with its types in full.  An op the
 * tables below do not know is kept in the IR and skipped by the view, so a
 * new op or attribute in a later Triton does not stop the reader. */
#include "../core/internal.h"
#include "alias.h"
#include "ir_internal.h"
#include "wellformed_internal.h"
#include "layout/ttgir.h"

#include <stddef.h>
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

/* ------------------------------------------------------------------ types */

typedef struct span_scan {
    const char *t;
    size_t n;
    layout_error *err;
} span_scan;

static layout_status fail_at(const span_scan *s, size_t at, layout_status st, const char *what)
{
    int line = 1;
    size_t k, ls = 0;
    for (k = 0; k < at && k < s->n; k++)
        if (s->t[k] == '\n') line++, ls = k + 1;
    return layout_fail(s->err, st, FN ": line %d, column %d: %s", line, (int)(at - ls) + 1, what);
}

static int is_ident(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
           ch == '.' || ch == '-' || ch == '$';
}

static int is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }

static size_t skip_blank(const span_scan *s, size_t p, size_t end)
{
    while (p < end && is_space(s->t[p])) p++;
    return p;
}

static int starts(const span_scan *s, size_t p, size_t end, const char *lit)
{
    size_t k = strlen(lit);
    return p + k <= end && memcmp(s->t + p, lit, k) == 0;
}

/* The end of the balanced group opened at p (one of < ( [ {) before end,
 * strings skipped; end if it is not closed. */
static size_t close_of(const span_scan *s, size_t p, size_t end)
{
    int depth = 0;
    for (; p < end; p++) {
        char ch = s->t[p];
        if (ch == '"') {
            for (p++; p < end && s->t[p] != '"'; p++)
                if (s->t[p] == '\\') p++;
            continue;
        }
        if (ch == '-' && p + 1 < end && s->t[p + 1] == '>') { /* an arrow, not a closing '>' */
            p++;
            continue;
        }
        if (ch == '<' || ch == '(' || ch == '[' || ch == '{') depth++;
        if (ch == '>' || ch == ')' || ch == ']' || ch == '}') {
            if (--depth == 0) return p;
            if (depth < 0) return end;
        }
    }
    return end;
}

/* First position in [p, end) of `lit` at nesting depth 0 (strings skipped). */
static size_t find_top(const span_scan *s, size_t p, size_t end, const char *lit)
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

static int elem_bits(const char *e)
{
    static const struct {
        const char *name;
        int bits;
    } k[] = {{"f16", 16}, {"bf16", 16}, {"f32", 32}, {"f64", 64}, {"tf32", 32}, {"i1", 1},  {"i8", 8},
             {"i16", 16}, {"i32", 32},  {"i64", 64}, {"f8E4M3FN", 8}, {"f8E5M2", 8}, {"f8E4M3FNUZ", 8},
             {"f8E5M2FNUZ", 8}, {"f8E4M3B11FNUZ", 8}, {"f4E2M1FN", 4}, {"f8E8M0FNU", 8}, {"index", 64}};
    size_t i;
    if (strncmp(e, "!tt.ptr", 7) == 0) return 64;
    for (i = 0; i < sizeof k / sizeof k[0]; i++)
        if (strcmp(e, k[i].name) == 0) return k[i].bits;
    return 0;
}

/* The element type at q (before `close`) into out->elem; *next past it. */
static layout_status read_elem(const span_scan *s, size_t q, size_t close, layout_ttgir_type *out, size_t *next)
{
    size_t e = q;
    if (starts(s, q, close, "!tt.ptr<")) {
        size_t c = close_of(s, q + 7, close);
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
    *next = q;
    return LAYOUT_OK;
}

/* One type at p: `tensor<...>`, `!ttg.memdesc<...>` or a bare memdesc
 * `<...>` (async copies print their result so).  Other types (i32,
 * !tt.ptr<...>, ...) are skipped: *kept = 0.  Returns the end of the type. */
static layout_status parse_type(const span_scan *s, size_t p, size_t end, layout_ttgir_type *out, int *kept, size_t *next)
{
    size_t open, close, q;
    int memdesc;
    layout_status st;
    *kept = 0;
    if (starts(s, p, end, "tensor<")) {
        memdesc = 0;
        open = p + 6;
    } else if (starts(s, p, end, "!ttg.memdesc<")) {
        memdesc = 1;
        open = p + 12;
    } else if (p < end && s->t[p] == '<') {
        memdesc = 1;
        open = p;
    } else { /* some other type: to the next top-level ',' or '[' */
        size_t c = find_top(s, p, end, ","), b = find_top(s, p, end, "[");
        *next = b < c ? b : c;
        return LAYOUT_OK;
    }
    close = close_of(s, open, end);
    if (close >= end) return fail_at(s, open, LAYOUT_ERR_PARSE, memdesc ? "expected '>' closing the memdesc type"
                                                                       : "expected '>' closing tensor<...>");
    memset(out, 0, sizeof *out);
    out->is_memdesc = memdesc;
    /* dims: int 'x' int 'x' ... elem */
    q = skip_blank(s, open + 1, close);
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
            return fail_at(s, d, LAYOUT_ERR_CAPACITY, "more than 20 dims in a type");
        out->shape[out->rank++] = v;
        q++;
    }
    if ((st = read_elem(s, q, close, out, &q))) return st;
    /* , encoding [, memory space] [, mutable] [, alloc shape] */
    while ((q = skip_blank(s, q, close)) < close) {
        size_t f;
        if (s->t[q] != ',') return fail_at(s, q, LAYOUT_ERR_PARSE, "expected ',' or '>' in the type");
        q = skip_blank(s, q + 1, close);
        f = find_top(s, q, close, ",");
        if (f == q) return fail_at(s, q, LAYOUT_ERR_PARSE, "expected a type parameter");
        if (s->t[q] == '#' && out->enc_len == 0) {
            out->enc_at = q;
            out->enc_len = f - q;
            while (out->enc_len && is_space(s->t[q + out->enc_len - 1])) out->enc_len--;
        } else if (starts(s, q, close, "mutable")) {
            out->mutable_ = 1;
        }
        q = f;
    }
    *kept = 1;
    *next = close + 1;
    return LAYOUT_OK;
}

/* A comma-separated list of types in [p, end), maybe in parentheses; a
 * type followed by `[T]` (`<f32>[tensor<64xi32>]`: a buffer op's pointer
 * element and its offsets) keeps T. */
static layout_status parse_types(const span_scan *s, size_t p, size_t end, layout_ttgir_type *out, int *n)
{
    layout_status st;
    *n = 0;
    p = skip_blank(s, p, end);
    while (end > p && is_space(s->t[end - 1])) end--;
    if (p < end && s->t[p] == '(') {
        size_t c = close_of(s, p, end);
        if (c >= end) return fail_at(s, p, LAYOUT_ERR_PARSE, "expected ')' closing the type list");
        end = c;
        p++;
    }
    while (p < end) {
        layout_ttgir_type t;
        int kept;
        size_t next = end;
        p = skip_blank(s, p, end);
        if (p >= end) break;
        if ((st = parse_type(s, p, end, &t, &kept, &next))) return st;
        p = skip_blank(s, next, end);
        if (p < end && s->t[p] == '[') { /* a pointer then its offsets: keep the offsets */
            size_t c = close_of(s, p, end);
            if (c >= end) return fail_at(s, p, LAYOUT_ERR_PARSE, "expected ']' closing the offsets' type");
            if ((st = parse_type(s, skip_blank(s, p + 1, c), c, &t, &kept, &next))) return st;
            p = skip_blank(s, c + 1, end);
            if (kept && *n < LAYOUT_TTGIR_MAX_TYPES) out[(*n)++] = t;
            /* buffer ops print their `other` value's type next, without a comma */
            if (p < end && s->t[p] != ',' && s->t[p] != '*') continue;
            kept = 0;
        }
        if (kept && *n < LAYOUT_TTGIR_MAX_TYPES) out[(*n)++] = t;
        if (p < end && (s->t[p] == ',' || s->t[p] == '*')) p++; /* ',' or wgmma's 'A * B' */
        else if (p < end) return fail_at(s, p, LAYOUT_ERR_PARSE, "expected ',' between types");
    }
    return LAYOUT_OK;
}

layout_status layout_ttgir_type_read(const layout_ttgir *m, size_t at, size_t len, layout_ttgir_type *out, int *kept,
                                     layout_error *err)
{
    span_scan s;
    size_t next;
    layout_status st;
    s.t = m->text;
    s.n = m->len;
    s.err = err;
    memset(out, 0, sizeof *out);
    while (len && is_space(m->text[at])) at++, len--;
    if ((st = parse_type(&s, at, at + len, out, kept, &next))) return st;
    if (!*kept) { /* a scalar: its element only */
        size_t e = at + len;
        while (e > at && is_space(m->text[e - 1])) e--;
        if (e - at >= sizeof out->elem) return fail_at(&s, at, LAYOUT_ERR_PARSE, "the type is too long");
        memcpy(out->elem, m->text + at, e - at);
        out->elem[e - at] = '\0';
        out->elem_bits = elem_bits(out->elem);
    }
    return LAYOUT_OK;
}

/* ------------------------------------------------------------------ the shared-memory view */

static int op_kind_of(const layout_ttgir *m, int op, layout_ttgir_op_kind *kind)
{
    size_t i;
    for (i = 0; i < sizeof k_ops / sizeof k_ops[0]; i++)
        if (layout_ttgir_ir_name_is(m, op, k_ops[i].name)) {
            *kind = k_ops[i].kind;
            return 1;
        }
    return 0;
}

static int name_starts(const layout_ttgir *m, int op, const char *lit)
{
    size_t k = strlen(lit);
    const layout_ttgir_span *n = &m->ir.ops[op].name;
    return n->len >= k && memcmp(m->text + n->at, lit, k) == 0;
}

static int span_has(const layout_ttgir *m, layout_ttgir_span sp, const char *lit)
{
    size_t k = strlen(lit), p;
    for (p = sp.at; p + k <= (size_t)sp.at + sp.len; p++)
        if (memcmp(m->text + p, lit, k) == 0) return 1;
    return 0;
}

/* A value's printed type names a memdesc. */
static int value_is_memdesc(const layout_ttgir *m, int v)
{
    return v >= 0 && span_has(m, m->ir.values[v].type, "memdesc<");
}

/* An op k_ops does not know but whose lowering may touch shared memory,
 * by Triton's own evidence: the allocation analysis gave it scratch
 * (`allocation.offset`), it is an op of a GPU dialect on a memdesc, or it
 * is an atomic on one scalar (`tt.atomic_rmw`, `_cas`, `_poll`: its result
 * is broadcast through shared memory) or on a tensor with its result used
 * (through shared memory when its layout broadcasts).  Ops on memdescs
 * that issue no access (views, waits) are not. */
static int may_touch_shared(const layout_ttgir *m, int op)
{
    const layout_ttgir_ir_op *o = &m->ir.ops[op];
    const char *v;
    size_t n;
    int k;
    if (layout_ttgir_ir_attr(m, op, "allocation.offset", &v, &n) == LAYOUT_OK) return 1;
    if (name_starts(m, op, "tt.atomic_")) { /* atomic_rmw, atomic_cas, atomic_poll */
        int first;
        if (!span_has(m, o->types_in, "tensor<") && !span_has(m, o->types_out, "tensor<")) return 1;
        /* a tensor one whose result is used: scratch when its layout
         * broadcasts (getRepShapeForAtomic), decided by the lowering */
        return o->n_results > 0 && layout_ttgir_ir_users(m, o->first_result, &first) > 0;
    }
    if (name_starts(m, op, "ttg.memdesc_") || layout_ttgir_ir_name_is(m, op, "ttng.warp_group_dot_wait") ||
        layout_ttgir_ir_name_is(m, op, "ttg.async_wait") || layout_ttgir_ir_name_is(m, op, "ttg.async_commit_group"))
        return 0;
    if (!(name_starts(m, op, "ttg.") || name_starts(m, op, "ttng.") || name_starts(m, op, "amdg.") ||
          name_starts(m, op, "amdgpu.") || name_starts(m, op, "nvws.") || name_starts(m, op, "nvg.")))
        return 0;
    if (span_has(m, o->types_in, "memdesc<") || span_has(m, o->types_out, "memdesc<")) return 1;
    for (k = 0; k < o->n_uses; k++)
        if (value_is_memdesc(m, m->ir.uses[o->first_use + k])) return 1;
    for (k = 0; k < o->n_results; k++)
        if (value_is_memdesc(m, o->first_result + k)) return 1;
    return 0;
}

static layout_status add_shared_op(layout_ttgir *m, int op, layout_ttgir_op_kind kind, layout_error *err)
{
    layout_ttgir_ir_op *io = &m->ir.ops[op];
    layout_ttgir_op *o;
    span_scan s;
    layout_status st;
    s.t = m->text;
    s.n = m->len;
    s.err = err;
    if (m->n_ops >= LAYOUT_TTGIR_MAX_OPS)
        return fail_at(&s, io->name.at, LAYOUT_ERR_CAPACITY, "more than 1024 shared-memory ops");
    o = &m->ops[m->n_ops];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->line = io->line;
    o->column = io->column;
    o->name_at = io->name.at;
    o->name_len = io->name.len;
    o->ir_op = op;
    if (io->n_results) {
        o->result_at = m->ir.values[io->first_result].name.at;
        o->result_len = m->ir.values[io->first_result].name.len;
    }
    io->shared = m->n_ops;
    if (kind == LAYOUT_TTGIR_OTHER_SHARED || kind == LAYOUT_TTGIR_WARP_SPECIALIZE) {
        /* recorded, not read: their types and regions vary; the report lists them as not modelled */
        m->n_ops++;
        return LAYOUT_OK;
    }
    o->operand_at = io->operand_text.at;
    o->operand_len = io->operand_text.len;
    o->loc_at = io->loc.at;
    o->loc_len = io->loc.len;
    if (io->types_in.len && (st = parse_types(&s, io->types_in.at, (size_t)io->types_in.at + io->types_in.len, o->src,
                                               &o->n_src)))
        return st;
    if (io->types_out.len && (st = parse_types(&s, io->types_out.at, (size_t)io->types_out.at + io->types_out.len,
                                                o->dst, &o->n_dst)))
        return st;
    m->n_ops++;
    return LAYOUT_OK;
}

/* `key = value` of the module op: an int (`4 : i32`) or a string. */
static void module_attrs(layout_ttgir *m, int op)
{
    int64_t v;
    const char *s;
    size_t n;
    if (layout_ttgir_ir_attr_int(m, op, "ttg.num-warps", &v) == LAYOUT_OK && v >= 0 && v < 1000000) m->num_warps = (int)v;
    if (layout_ttgir_ir_attr_int(m, op, "ttg.threads-per-warp", &v) == LAYOUT_OK && v >= 0 && v < 1000000)
        m->threads_per_warp = (int)v;
    if (layout_ttgir_ir_attr_int(m, op, "ttg.num-ctas", &v) == LAYOUT_OK && v >= 0 && v < 1000000) m->num_ctas = (int)v;
    if (layout_ttgir_ir_attr(m, op, "ttg.target", &s, &n) == LAYOUT_OK && n >= 2 && s[0] == '"' &&
        n - 2 < sizeof m->target) {
        memcpy(m->target, s + 1, n - 2);
        m->target[n - 2] = '\0';
    }
}

static layout_status build_view(layout_ttgir *m, layout_error *err)
{
    int op;
    layout_status st;
    for (op = 0; op < m->ir.n_ops; op++) {
        layout_ttgir_op_kind kind;
        if (layout_ttgir_ir_name_is(m, op, "module") || layout_ttgir_ir_name_is(m, op, "builtin.module")) {
            const layout_ttgir_ir_op *o = &m->ir.ops[op];
            if (!m->module_line && o->n_attrs) {
                m->module_line = o->line;
                m->module_column = o->column;
                module_attrs(m, op);
                if (o->n_regions == 0) {
                    span_scan s;
                    s.t = m->text;
                    s.n = m->len;
                    s.err = err;
                    return fail_at(&s, (size_t)o->text.at + o->text.len, LAYOUT_ERR_PARSE,
                                   "expected '{' opening the module's body after its attributes "
                                   "(is the text cut short?)");
                }
            }
            continue;
        }
        if (op_kind_of(m, op, &kind)) {
            if ((st = add_shared_op(m, op, kind, err))) return st;
        } else if (may_touch_shared(m, op)) {
            if ((st = add_shared_op(m, op, LAYOUT_TTGIR_OTHER_SHARED, err))) return st;
        }
    }
    return LAYOUT_OK;
}

layout_status layout_ttgir_parse(const char *text, size_t len, layout_ttgir *out, layout_error *err)
{
    layout_status st;
    size_t k;
    if (!text || !out) return layout_fail(err, LAYOUT_ERR_NULL, FN ": text or out is NULL");
    if (len > UINT32_MAX) return layout_fail(err, LAYOUT_ERR_CAPACITY, FN ": the text is larger than 4 GiB");
    /* the view and the header; the IR's arrays are written as they fill */
    memset(out, 0, offsetof(layout_ttgir, ir));
    out->text = text;
    out->len = len;
    /* A NUL byte anywhere is refused up front, in a comment or a string
     * too: a writer of the module (layout_triton_kernel_apply) copies the
     * text as a C string. */
    {
        const char *nul = memchr(text, '\0', len);
        if (nul) {
            span_scan s;
            s.t = text;
            s.n = len;
            s.err = err;
            return fail_at(&s, (size_t)(nul - text), LAYOUT_ERR_PARSE, "a NUL byte in the text");
        }
    }
    if ((st = layout_ttgir_check_text(text, len, err))) return st;
    if ((st = layout_ttgir_ir_read(out, err))) return st;
    out->n_lines = 1;
    for (k = 0; k < len; k++) out->n_lines += text[k] == '\n';
    if (len && text[len - 1] == '\n') out->n_lines--;
    if ((st = build_view(out, err))) return st;
    if ((st = layout_ttgir_check_locs(out, err))) return st;
    return layout_ok(err);
}

/* ------------------------------------------------------------------ queries */

layout_status layout_ttgir_ir_value_type(const layout_ttgir *m, int v, layout_ttgir_type *out)
{
    const layout_ttgir_value *val;
    layout_status st;
    layout_error err;
    int kept;
    if (!m || !out) return LAYOUT_ERR_NULL;
    if (v < 0 || v >= m->ir.n_values) return LAYOUT_ERR_ARG;
    val = &m->ir.values[v];
    if (val->rule == LAYOUT_TTGIR_TYPE_UNKNOWN || val->type.len == 0) return LAYOUT_ERR_NOT_FOUND;
    if ((st = layout_ttgir_type_read(m, val->type.at, val->type.len, out, &kept, &err))) return st;
    if (val->rule == LAYOUT_TTGIR_TYPE_ELEM_I1) {
        strcpy(out->elem, "i1");
        out->elem_bits = 1;
    } else if (val->rule == LAYOUT_TTGIR_TYPE_ELEM_POINTEE) {
        size_t n = strlen(out->elem);
        if (n < 9 || memcmp(out->elem, "!tt.ptr<", 8) != 0 || out->elem[n - 1] != '>') return LAYOUT_ERR_NOT_FOUND;
        memmove(out->elem, out->elem + 8, n - 9);
        out->elem[n - 9] = '\0';
        out->elem_bits = elem_bits(out->elem);
    }
    return LAYOUT_OK;
}

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
