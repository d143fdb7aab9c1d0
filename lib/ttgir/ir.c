/* The whole TTGIR module as an IR (ttgir.h, layout_ttgir_ir): every op with
 * its results, operands, attributes and regions, read from MLIR's tokens
 * (lex.c) without a heap.
 *
 * MLIR ops have custom assembly formats, which only each op's own parser
 * knows; this reader uses what every format shares:
 * - an op is `[%r[:n], ... =] name ...`, the name bare or quoted (the
 *   generic form "tt.reduce"(...));
 * - it ends at a line break outside brackets, unless the line ends in a
 *   token that cannot end an op (`:` `,` `->` `=`), the next line starts
 *   with one that cannot start an op (`:` `->` `,` `=` `to` `*` `{`), or the next
 *   line opens another region of it (`partition0(...) num_warps(4) {`,
 *   `default {`: a bare word then `{` or `(`, ttg.warp_specialize);
 * - `{` followed by a line break or a block label opens a region, any
 *   other `{` an attribute dictionary (properties `<{...}>` likewise);
 * - `%v` before `=` in its header (`scf.for %i = ...`, `iter_args(%a = ...)`)
 *   or before `:` inside parentheses (`tt.func @f(%arg0: T)`,
 *   `partition0(%a: T)`) names an argument of its next region; `%v` after
 *   a block label (`^bb1(%v : i32)`) and every other `%v` is a use;
 * - the types: after the last `:` outside brackets, split at `->` / `to`
 *   (or after a `->` before it: `scf.for ... -> (T) : i32`).
 * Names resolve as MLIR scopes them (ir_scope.c): a use sees the values of
 * its region and of the regions around it, the innermost first; a use
 * before its definition (a later block of the same region) is resolved
 * when the region closes. */
#include "../core/internal.h"
#include "lex_internal.h"
#include "ir_internal.h"
#include "ir_scope_internal.h"

#include <stdio.h>
#include <string.h>

#define FN "layout_ttgir_parse"

enum {
    MAX_BRACKETS = 256, /* open brackets inside one op's header */
    MAX_PEND = 512,     /* region arguments announced, not yet placed */
    MAX_GROUPS = 32     /* result groups `%a, %b:2 =` of one op */
};

typedef struct pend_arg {
    layout_ttgir_span name, type, attrs;
} pend_arg;

typedef struct parser {
    lexer lx;
    lex_tok tok;           /* the current token */
    lex_tok prev;          /* the one before it */
    layout_ttgir *m;
    layout_ttgir_ir *ir;
    layout_error *err;
    int depth;             /* regions open */
    int use_top, attr_top; /* in-flight uses / attributes, stacked from the arrays' ends */
    int n_pend;
    pend_arg pend[MAX_PEND];
    layout_ttgir_scope scope; /* which value each name means (ir_scope.c) */
} parser;

static layout_status fail_tok(const parser *ps, const lex_tok *t, layout_status st, const char *what)
{
    return layout_fail(ps->err, st, FN ": line %d, column %d: %s", t->line, t->col, what);
}

/* The next token.  The whole text was lexed without an error before the
 * IR is read (wellformed.c's check_structure), so lexing cannot fail here;
 * were it to, the reader would see the end of the text. */
static void advance(parser *ps)
{
    layout_error quiet;
    ps->prev = ps->tok;
    ps->lx.err = &quiet;
    if (layout_ttgir_lex_next(&ps->lx, &ps->tok) != LAYOUT_OK) ps->tok.kind = LEX_EOF;
    ps->lx.err = ps->err;
}

/* The token after the current one, without moving. */
static layout_status peek(const parser *ps, lex_tok *out)
{
    lexer copy = ps->lx;
    layout_error quiet;
    copy.err = &quiet;
    if (layout_ttgir_lex_next(&copy, out) != LAYOUT_OK) out->kind = LEX_EOF;
    return LAYOUT_OK;
}

static int tok_is(const parser *ps, const lex_tok *t, char ch) { return lex_is(t, ch, ps->lx.t); }

static int tok_word(const parser *ps, const lex_tok *t, const char *w)
{
    size_t k = strlen(w);
    return t->kind == LEX_ID && t->len == k && memcmp(ps->lx.t + t->at, w, k) == 0;
}

static layout_ttgir_span span_of(const lex_tok *t)
{
    layout_ttgir_span s;
    s.at = t->at;
    s.len = t->len;
    return s;
}

/* A new value named `name`, defined at token `where` (its errors' place). */
static layout_status new_value(parser *ps, const lex_tok *where, layout_ttgir_span name, int32_t *out)
{
    return layout_ttgir_scope_define(&ps->scope, where->line, where->col, name, out);
}

/* ------------------------------------------------------------------ in-flight lists */

static layout_status push_use(parser *ps, const lex_tok *t, layout_ttgir_span name, int32_t idx)
{
    layout_ttgir_ir *ir = ps->ir;
    int32_t v = layout_ttgir_scope_lookup(&ps->scope, name, idx);
    layout_status st;
    if (ir->n_uses + ps->use_top >= LAYOUT_TTGIR_MAX_USES)
        return fail_tok(ps, t, LAYOUT_ERR_CAPACITY, "more than 32768 operand uses in the module");
    if (v < 0 && (st = layout_ttgir_scope_forward(&ps->scope, t->line, t->col, name, idx, ps->depth,
                                                  -(ps->use_top + 1))))
        return st;
    ir->uses[LAYOUT_TTGIR_MAX_USES - 1 - ps->use_top++] = v;
    return LAYOUT_OK;
}

static layout_status push_attr(parser *ps, const lex_tok *t, layout_ttgir_span name, layout_ttgir_span value)
{
    layout_ttgir_ir *ir = ps->ir;
    layout_ttgir_attr *a;
    if (ir->n_attrs + ps->attr_top >= LAYOUT_TTGIR_MAX_ATTRS)
        return fail_tok(ps, t, LAYOUT_ERR_CAPACITY, "more than 16384 attributes in the module");
    a = &ir->attrs[LAYOUT_TTGIR_MAX_ATTRS - 1 - ps->attr_top++];
    if (name.len >= 2 && ps->lx.t[name.at] == '"') { /* "ttg.num-warps" */
        name.at++;
        name.len -= 2;
    }
    a->name = name;
    a->value = value;
    return LAYOUT_OK;
}

/* What ends a run of tokens read by skip_to (at bracket depth 0). */
enum { STOP_COMMA = 1, STOP_RPAREN = 2, STOP_RBRACE = 4, STOP_LBRACE = 8, STOP_LOC = 16, STOP_VALUE = 32,
       STOP_LINE = 64 /* a line break after a token that can end the run (an alias's attribute) */ };

static int continues_after(const parser *ps, const lex_tok *t);

static int stops_at(const parser *ps, const lex_tok *t, int stops)
{
    return ((stops & STOP_COMMA) && tok_is(ps, t, ',')) || ((stops & STOP_RPAREN) && tok_is(ps, t, ')')) ||
           ((stops & STOP_RBRACE) && tok_is(ps, t, '}')) || ((stops & STOP_LBRACE) && tok_is(ps, t, '{')) ||
           ((stops & STOP_LOC) && tok_word(ps, t, "loc")) || ((stops & STOP_VALUE) && t->kind == LEX_VALUE);
}

/* From the current token to the first one in `stops` outside the brackets
 * opened on the way (an attribute's value, an argument's type): its span
 * into *out, the stop the current token. */
static void skip_to(parser *ps, int stops, layout_ttgir_span *out)
{
    int depth = 0;
    uint32_t first = ps->tok.at, end = first;
    while (ps->tok.kind != LEX_EOF) {
        if (depth == 0 && stops_at(ps, &ps->tok, stops)) break;
        if (depth == 0 && (stops & STOP_LINE) && end > first && ps->tok.line > ps->prev.line &&
            !continues_after(ps, &ps->prev))
            break;
        if (ps->tok.kind == LEX_PUNCT) {
            char c = ps->lx.t[ps->tok.at];
            if (c == '(' || c == '[' || c == '{' || c == '<') depth++;
            if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) depth--;
        }
        end = ps->tok.at + ps->tok.len;
        advance(ps);
    }
    out->at = first;
    out->len = end - first;
}

/* ------------------------------------------------------------------ attribute dictionaries */

/* From the `{` of a dictionary (the current token) past its `}`; entries
 * recorded on the op when `keep`. */
static layout_status parse_dict(parser *ps, int keep)
{
    layout_status st;
    const lex_tok open = ps->tok;
    advance(ps);
    while (!tok_is(ps, &ps->tok, '}')) {
        lex_tok key = ps->tok;
        layout_ttgir_span value = {0, 0};
        if (key.kind == LEX_EOF) return fail_tok(ps, &open, LAYOUT_ERR_PARSE, "the attribute dictionary is not closed");
        advance(ps);
        if (tok_is(ps, &ps->tok, '=')) {
            advance(ps);
            skip_to(ps, STOP_COMMA | STOP_RBRACE, &value);
        }
        if (keep && key.kind != LEX_PUNCT && (st = push_attr(ps, &key, span_of(&key), value))) return st;
        if (tok_is(ps, &ps->tok, ',')) advance(ps);
        if (ps->tok.kind == LEX_EOF) return fail_tok(ps, &open, LAYOUT_ERR_PARSE, "the attribute dictionary is not closed");
    }
    advance(ps); /* past '}' */
    return LAYOUT_OK;
}

/* ------------------------------------------------------------------ ops and regions */

static layout_status parse_op(parser *ps, int32_t parent_block);

static int32_t new_block(parser *ps, int32_t region, int32_t *prev_block)
{
    layout_ttgir_ir *ir = ps->ir;
    layout_ttgir_block *b;
    int32_t id;
    if (ir->n_blocks >= LAYOUT_TTGIR_MAX_REGIONS) return -1;
    id = ir->n_blocks++;
    b = &ir->blocks[id];
    memset(b, 0, sizeof *b);
    b->parent_region = region;
    b->next = -1;
    b->first_op = -1;
    b->last_op = -1;
    b->first_arg = ir->n_values;
    if (*prev_block >= 0) ir->blocks[*prev_block].next = id;
    else ir->regions[region].first_block = id;
    ir->regions[region].n_blocks++;
    *prev_block = id;
    return id;
}

/* Block arguments `(%a: T loc(...), ...)` after a label; the current token is '('. */
static layout_status parse_block_args(parser *ps, int32_t block)
{
    layout_status st;
    layout_ttgir_ir *ir = ps->ir;
    advance(ps);
    while (ps->tok.kind == LEX_VALUE) {
        lex_tok name = ps->tok;
        int32_t v = -1;
        if ((st = new_value(ps, &name, span_of(&name), &v))) return st;
        ir->values[v].def_block = block;
        ir->values[v].index = ir->blocks[block].n_args++;
        advance(ps);
        if (!tok_is(ps, &ps->tok, ':')) return fail_tok(ps, &ps->tok, LAYOUT_ERR_PARSE, "expected ':' and the argument's type");
        advance(ps);
        skip_to(ps, STOP_COMMA | STOP_RPAREN | STOP_LOC | STOP_VALUE, &ir->values[v].type);
        ir->values[v].rule = LAYOUT_TTGIR_TYPE_AS_PRINTED;
        if (tok_word(ps, &ps->tok, "loc")) { /* loc(...) */
            int d = 0;
            do {
                advance(ps);
                if (tok_is(ps, &ps->tok, '(')) d++;
                if (tok_is(ps, &ps->tok, ')')) d--;
            } while (d > 0 && ps->tok.kind != LEX_EOF);
            advance(ps);
        }
        if (tok_is(ps, &ps->tok, ',')) {
            advance(ps);
        } else if (!tok_is(ps, &ps->tok, ')')) {
            break;
        }
    }
    if (!tok_is(ps, &ps->tok, ')')) return fail_tok(ps, &ps->tok, LAYOUT_ERR_PARSE, "expected ')' closing the block's arguments");
    advance(ps);
    return LAYOUT_OK;
}

/* A region from its `{` (the current token) past its `}`: op `op`'s next
 * region; its entry block takes the arguments announced from pend_base. */
static layout_status parse_region(parser *ps, int32_t op, int pend_base)
{
    layout_ttgir_ir *ir = ps->ir;
    layout_status st;
    const lex_tok open = ps->tok;
    int32_t region, block = -1, last_block = -1, first_value = ir->n_values, r;
    int i;
    if (ps->depth >= LAYOUT_TTGIR_MAX_NESTING)
        return fail_tok(ps, &open, LAYOUT_ERR_CAPACITY, "regions nested more than 64 deep");
    if (ir->n_regions >= LAYOUT_TTGIR_MAX_REGIONS)
        return fail_tok(ps, &open, LAYOUT_ERR_CAPACITY, "more than 2048 regions in the module");
    region = ir->n_regions++;
    ir->regions[region].parent_op = op;
    ir->regions[region].next = -1;
    ir->regions[region].first_block = -1;
    ir->regions[region].n_blocks = 0;
    if (ir->ops[op].n_regions == 0) {
        ir->ops[op].first_region = region;
    } else {
        for (r = ir->ops[op].first_region; ir->regions[r].next >= 0;) r = ir->regions[r].next;
        ir->regions[r].next = region;
    }
    ir->ops[op].n_regions++;
    ps->depth++;
    advance(ps);
    /* the entry block: the arguments the op's header announced, unless a label follows */
    if (ps->tok.kind != LEX_BLOCK || ps->n_pend > pend_base) {
        if ((block = new_block(ps, region, &last_block)) < 0)
            return fail_tok(ps, &open, LAYOUT_ERR_CAPACITY, "more than 2048 blocks in the module");
        for (i = pend_base; i < ps->n_pend; i++) {
            int32_t v = -1;
            if ((st = new_value(ps, &open, ps->pend[i].name, &v))) return st;
            ir->values[v].def_block = block;
            ir->values[v].index = ir->blocks[block].n_args++;
            ir->values[v].type = ps->pend[i].type;
            ir->values[v].attrs = ps->pend[i].attrs;
            ir->values[v].rule = ps->pend[i].type.len ? LAYOUT_TTGIR_TYPE_AS_PRINTED : LAYOUT_TTGIR_TYPE_UNKNOWN;
        }
    }
    ps->n_pend = pend_base;
    for (;;) {
        if (ps->tok.kind == LEX_EOF) {
            char what[128];
            snprintf(what, sizeof what, "the text ends inside the region opened at line %d, column %d "
                                        "(is it cut short?)", open.line, open.col);
            return fail_tok(ps, &ps->tok, LAYOUT_ERR_PARSE, what);
        }
        if (tok_is(ps, &ps->tok, '}')) break;
        if (ps->tok.kind == LEX_BLOCK) { /* ^bb1(%a: i32): */
            const lex_tok label = ps->tok;
            if ((block = new_block(ps, region, &last_block)) < 0)
                return fail_tok(ps, &label, LAYOUT_ERR_CAPACITY, "more than 2048 blocks in the module");
            ir->blocks[block].label = span_of(&label);
            advance(ps);
            if (tok_is(ps, &ps->tok, '(') && (st = parse_block_args(ps, block))) return st;
            if (!tok_is(ps, &ps->tok, ':'))
                return fail_tok(ps, &ps->tok, LAYOUT_ERR_PARSE, "expected ':' after the block label");
            advance(ps);
            continue;
        }
        if (block < 0 && (block = new_block(ps, region, &last_block)) < 0)
            return fail_tok(ps, &open, LAYOUT_ERR_CAPACITY, "more than 2048 blocks in the module");
        if ((st = parse_op(ps, block))) return st;
    }
    layout_ttgir_scope_resolve(&ps->scope, ps->depth);
    ps->depth--;
    if ((st = layout_ttgir_scope_hide_from(&ps->scope, first_value, ps->tok.line, ps->tok.col))) return st;
    advance(ps); /* past '}' */
    return LAYOUT_OK;
}

/* Can token `t` not end an op (the op goes on past the line break)? */
static int continues_after(const parser *ps, const lex_tok *t)
{
    return tok_is(ps, t, ':') || tok_is(ps, t, ',') || tok_is(ps, t, '=') || t->kind == LEX_ARROW ||
           tok_word(ps, t, "to");
}

/* Does a line starting with `t` (then `u`) go on with the op before it? */
static int continues_before(const parser *ps, const lex_tok *t, const lex_tok *u)
{
    if (tok_is(ps, t, ':') || tok_is(ps, t, ',') || tok_is(ps, t, '=') || t->kind == LEX_ARROW ||
        tok_word(ps, t, "to") || tok_is(ps, t, '*') || (tok_is(ps, t, '{') && !tok_is(ps, u, '-')))
        return 1; /* `{`: the op's attribute dictionary or region on the next line (`{-#` opens dialect
                     resources); `*`: tt.dot's `A * B` split */
    /* `default {`, `partition0(...) num_warps(4) {`: a bare word (no dialect
     * prefix) then a region or a parenthesis starts no op */
    if (t->kind == LEX_ID && !memchr(ps->lx.t + t->at, '.', t->len) && !tok_word(ps, t, "module") &&
        (tok_is(ps, u, '{') || tok_is(ps, u, '(')))
        return 1;
    return 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* A span without its leading and trailing blanks. */
static layout_ttgir_span trim(const char *t, layout_ttgir_span s)
{
    while (s.len && is_blank(t[s.at])) s.at++, s.len--;
    while (s.len && is_blank(t[s.at + s.len - 1])) s.len--;
    return s;
}

typedef struct op_scan {
    uint32_t colon, arrow, types_end;      /* the type section (0: unset; offsets are past the token) */
    uint32_t pre_arrow, pre_end;           /* a '->' before the last ':' (scf.for ... -> (T) : i32) */
    uint32_t end;                          /* past the op's last token */
    int brackets;                          /* open brackets */
    char open[MAX_BRACKETS];               /* which */
    unsigned char after_label[MAX_BRACKETS]; /* '(' right after a block label: successor operands */
} op_scan;

static void section_break(op_scan *sc, uint32_t at)
{
    if (sc->colon && !sc->types_end) sc->types_end = at;
    if (sc->pre_arrow && !sc->pre_end) sc->pre_end = at;
}

/* The results of op `op` into values, their types from the type section. */
static layout_status commit_results(parser *ps, int32_t op, const lex_tok *groups, const int *counts, int n_groups,
                                    layout_ttgir_span out_types, layout_ttgir_span in_types)
{
    layout_ttgir_ir *ir = ps->ir;
    const char *t = ps->lx.t;
    layout_ttgir_span types[64];
    int n_types = 0, g, k, n = 0;
    layout_ttgir_span from = out_types.len ? out_types : in_types;
    /* split the printed list at top-level commas, without its parentheses */
    if (from.len) {
        layout_ttgir_span whole = trim(t, from);
        uint32_t p = whole.at, e = whole.at + whole.len, s;
        int depth = 0;
        if (p < e && t[p] == '(' && t[e - 1] == ')') {
            p++;
            e--;
        }
        for (s = p; p <= e; p++) {
            if (p == e || (depth == 0 && t[p] == ',')) {
                layout_ttgir_span piece;
                piece.at = s;
                piece.len = p - s;
                piece = trim(t, piece);
                if (piece.len && n_types < 64) types[n_types++] = piece;
                s = p + 1;
                continue;
            }
            if (t[p] == '"') {
                for (p++; p < e && t[p] != '"'; p++)
                    if (t[p] == '\\') p++;
                continue;
            }
            if (t[p] == '-' && p + 1 < e && t[p + 1] == '>') {
                p++;
                continue;
            }
            if (t[p] == '<' || t[p] == '(' || t[p] == '[' || t[p] == '{') depth++;
            if ((t[p] == '>' || t[p] == ')' || t[p] == ']' || t[p] == '}') && depth > 0) depth--;
        }
    }
    ir->ops[op].first_result = ir->n_values;
    for (g = 0; g < n_groups; g++)
        for (k = 0; k < counts[g]; k++, n++) {
            int32_t v = -1;
            layout_status st;
            if ((st = new_value(ps, &groups[g], span_of(&groups[g]), &v))) return st;
            ir->values[v].def_op = op;
            ir->values[v].index = n;
        }
    ir->ops[op].n_results = n;
    /* the types: one each when the list has as many; else what the op's semantics say */
    for (k = 0; k < n; k++) {
        layout_ttgir_value *v = &ir->values[ir->ops[op].first_result + k];
        layout_ttgir_type_rule rule = LAYOUT_TTGIR_TYPE_AS_PRINTED;
        int pick = -1;
        if (out_types.len) {
            pick = n_types == n ? k : -1;
        } else if (n_types == n) {
            pick = k;
            if (layout_ttgir_ir_name_is(ps->m, op, "arith.cmpi") || layout_ttgir_ir_name_is(ps->m, op, "arith.cmpf"))
                rule = LAYOUT_TTGIR_TYPE_ELEM_I1;
            else if (layout_ttgir_ir_name_is(ps->m, op, "tt.load"))
                rule = LAYOUT_TTGIR_TYPE_ELEM_POINTEE;
        } else if (n == 1 && n_types > 1) {
            /* `arith.select %c, %a, %b : i1, T`: the last; `tt.addptr %p, %o : P, O`: the first */
            if (layout_ttgir_ir_name_is(ps->m, op, "arith.select")) pick = n_types - 1;
            else if (layout_ttgir_ir_name_is(ps->m, op, "tt.addptr")) pick = 0;
            else if (layout_ttgir_ir_name_is(ps->m, op, "tt.load")) {
                pick = 0;
                rule = LAYOUT_TTGIR_TYPE_ELEM_POINTEE;
            }
        }
        if (pick >= 0) {
            v->type = types[pick];
            v->rule = rule;
        }
    }
    return LAYOUT_OK;
}

/* Move op `op`'s in-flight uses and attributes (stack heights from
 * use_base / attr_base) to their final places. */
static void commit_lists(parser *ps, int32_t op, int use_base, int attr_base)
{
    layout_ttgir_ir *ir = ps->ir;
    int h;
    ir->ops[op].first_use = ir->n_uses;
    ir->ops[op].n_uses = ps->use_top - use_base;
    for (h = use_base; h < ps->use_top; h++) {
        int32_t slot = ir->n_uses++;
        ir->uses[slot] = ir->uses[LAYOUT_TTGIR_MAX_USES - 1 - h];
        layout_ttgir_scope_place(&ps->scope, -(h + 1), slot);
    }
    ps->use_top = use_base;
    ir->ops[op].first_attr = ir->n_attrs;
    ir->ops[op].n_attrs = ps->attr_top - attr_base;
    for (h = attr_base; h < ps->attr_top; h++) ir->attrs[ir->n_attrs++] = ir->attrs[LAYOUT_TTGIR_MAX_ATTRS - 1 - h];
    ps->attr_top = attr_base;
}

/* A `%v` token in an op's header: a use, or an argument of its next region. */
static layout_status header_value(parser *ps, op_scan *sc, layout_ttgir_ir_op *o)
{
    layout_status st;
    lex_tok v = ps->tok, next;
    int in_parens = sc->brackets > 0 && sc->open[sc->brackets - 1] == '(' && !sc->after_label[sc->brackets - 1];
    int32_t idx = 0;
    advance(ps);
    next = ps->tok;
    if (next.kind == LEX_HASH && next.at == v.at + v.len) { /* %x#1 */
        uint32_t k;
        for (k = next.at + 1; k < next.at + next.len && idx < 1000000; k++) {
            char c = ps->lx.t[k];
            if (c < '0' || c > '9') return fail_tok(ps, &next, LAYOUT_ERR_PARSE, "expected a result number after '#'");
            idx = idx * 10 + (c - '0');
        }
        advance(ps);
        if (!o->operand_text.len) o->operand_text = span_of(&v);
        return push_use(ps, &v, span_of(&v), idx);
    }
    if ((tok_is(ps, &next, '=') && (sc->brackets == 0 || in_parens)) || (tok_is(ps, &next, ':') && in_parens)) {
        pend_arg *a;
        if (ps->n_pend >= MAX_PEND) return fail_tok(ps, &v, LAYOUT_ERR_CAPACITY, "more than 512 region arguments");
        a = &ps->pend[ps->n_pend++];
        a->name = span_of(&v);
        a->type.at = a->type.len = 0;
        a->attrs.at = a->attrs.len = 0;
        if (tok_is(ps, &next, ':')) { /* its type, to the next ',' / ')' / loc / '{' at this level */
            advance(ps);
            skip_to(ps, STOP_COMMA | STOP_RPAREN | STOP_LBRACE | STOP_LOC | STOP_VALUE, &a->type);
            a->attrs.at = a->attrs.len = 0;
            if (tok_is(ps, &ps->tok, '{')) { /* its attributes: {tt.divisibility = 16 : i32} */
                uint32_t at = ps->tok.at;
                if ((st = parse_dict(ps, 0))) return st;
                a->attrs.at = at;
                a->attrs.len = ps->prev.at + ps->prev.len - at;
            }
        }
        return LAYOUT_OK; /* `=`: the initial value that follows is a use */
    }
    if (!o->operand_text.len) o->operand_text = span_of(&v);
    return push_use(ps, &v, span_of(&v), 0);
}

static layout_status parse_op(parser *ps, int32_t parent_block)
{
    layout_ttgir_ir *ir = ps->ir;
    layout_status st;
    lex_tok groups[MAX_GROUPS], first = ps->tok, name;
    int counts[MAX_GROUPS], n_groups = 0;
    int use_base = ps->use_top, attr_base = ps->attr_top, pend_base = ps->n_pend;
    int32_t op;
    layout_ttgir_ir_op *o;
    op_scan sc;
    /* [results =] */
    while (ps->tok.kind == LEX_VALUE) {
        if (n_groups >= MAX_GROUPS) return fail_tok(ps, &ps->tok, LAYOUT_ERR_CAPACITY, "more than 32 result groups");
        groups[n_groups] = ps->tok;
        counts[n_groups] = 1;
        advance(ps);
        if (tok_is(ps, &ps->tok, ':')) { /* %x:2 */
            long c = 0;
            uint32_t k;
            advance(ps);
            if (ps->tok.kind != LEX_NUM) return fail_tok(ps, &ps->tok, LAYOUT_ERR_PARSE, "expected the number of results");
            for (k = ps->tok.at; k < ps->tok.at + ps->tok.len && c <= 4096; k++) {
                char ch = ps->lx.t[k];
                if (ch < '0' || ch > '9') return fail_tok(ps, &ps->tok, LAYOUT_ERR_PARSE, "expected the number of results");
                c = c * 10 + (ch - '0');
            }
            if (c < 1 || c > 4096) return fail_tok(ps, &ps->tok, LAYOUT_ERR_PARSE, "the number of results is out of range");
            counts[n_groups] = (int)c;
            advance(ps);
        }
        n_groups++;
        if (tok_is(ps, &ps->tok, ',')) {
            advance(ps);
            continue;
        }
        if (!tok_is(ps, &ps->tok, '='))
            return fail_tok(ps, &ps->tok, LAYOUT_ERR_PARSE, "expected '=' after the op's results");
        advance(ps);
        break;
    }
    name = ps->tok;
    if (name.kind != LEX_ID && name.kind != LEX_STR)
        return fail_tok(ps, &name, LAYOUT_ERR_PARSE, n_groups ? "expected an op name after '='" : "expected an op");
    if (ir->n_ops >= LAYOUT_TTGIR_MAX_IR_OPS)
        return fail_tok(ps, &name, LAYOUT_ERR_CAPACITY, "more than 8192 ops in the module");
    op = ir->n_ops++;
    o = &ir->ops[op];
    memset(o, 0, sizeof *o);
    o->name = span_of(&name);
    if (name.kind == LEX_STR) {
        o->name.at++;
        o->name.len = name.len >= 2 ? name.len - 2 : 0;
    }
    o->line = name.line;
    o->column = name.col;
    o->parent_block = parent_block;
    o->next = -1;
    o->shared = -1;
    o->first_region = -1;
    if (parent_block >= 0) {
        layout_ttgir_block *b = &ir->blocks[parent_block];
        if (b->last_op >= 0) ir->ops[b->last_op].next = op;
        else b->first_op = op;
        b->last_op = op;
    }
    memset(&sc, 0, sizeof sc);
    sc.end = name.at + name.len;
    advance(ps);
    for (;;) {
        lex_tok t = ps->tok;
        if (t.kind == LEX_EOF) break;
        if (sc.brackets == 0) {
            /* the end of the op: a '}' closing the region around it, or a line break */
            if (tok_is(ps, &t, '}')) break;
            if (t.line > ps->prev.line && !continues_after(ps, &ps->prev)) {
                lex_tok u;
                peek(ps, &u);
                if (!continues_before(ps, &t, &u)) break;
            }
        }
        if (t.kind == LEX_VALUE) {
            if ((st = header_value(ps, &sc, o))) return st;
            sc.end = ps->prev.at + ps->prev.len;
            continue;
        }
        if (tok_word(ps, &t, "loc") && sc.brackets == 0) { /* loc(...) */
            lex_tok u;
            peek(ps, &u);
            if (tok_is(ps, &u, '(')) {
                int d = 0;
                uint32_t at;
                section_break(&sc, t.at);
                advance(ps);
                at = ps->tok.at + 1;
                do {
                    if (tok_is(ps, &ps->tok, '(')) d++;
                    if (tok_is(ps, &ps->tok, ')')) d--;
                    if (d > 0) advance(ps);
                } while (d > 0 && ps->tok.kind != LEX_EOF);
                o->loc.at = at;
                o->loc.len = ps->tok.at - at;
                sc.end = ps->tok.at + ps->tok.len;
                advance(ps);
                continue;
            }
        }
        if (tok_is(ps, &t, '{')) {
            lex_tok u;
            peek(ps, &u);
            if (u.line > t.line || u.kind == LEX_BLOCK) { /* a region */
                section_break(&sc, t.at);
                if ((st = parse_region(ps, op, pend_base))) return st;
                o = &ir->ops[op];
                sc.end = ps->prev.at + ps->prev.len;
                continue;
            }
            if (sc.brackets == 0 ||
                (sc.brackets == 1 && sc.open[0] == '<' && ps->prev.kind == LEX_PUNCT && ps->prev.at + 1 == t.at)) {
                /* the op's attribute dictionary, or its properties <{...}> */
                section_break(&sc, t.at);
                if ((st = parse_dict(ps, 1))) return st;
                sc.end = ps->prev.at + ps->prev.len;
                continue;
            }
        }
        if (tok_word(ps, &t, "attributes") && sc.brackets == 0) section_break(&sc, t.at);
        if (t.kind == LEX_PUNCT) {
            char c = ps->lx.t[t.at];
            if (c == '(' || c == '[' || c == '{' || c == '<') {
                if (sc.brackets >= MAX_BRACKETS)
                    return fail_tok(ps, &t, LAYOUT_ERR_CAPACITY, "brackets nested more than 256 deep in one op");
                sc.after_label[sc.brackets] = (unsigned char)(c == '(' && ps->prev.kind == LEX_BLOCK &&
                                                              ps->prev.at + ps->prev.len == t.at);
                sc.open[sc.brackets++] = c;
            } else if (c == ')' || c == ']' || c == '}' || c == '>') {
                static const char match[] = {')', '(', ']', '[', '}', '{', '>', '<'};
                char want = 0;
                int k;
                for (k = 0; k < 8; k += 2)
                    if (match[k] == c) want = match[k + 1];
                if (sc.brackets == 0 || sc.open[sc.brackets - 1] != want) {
                    char what[96];
                    snprintf(what, sizeof what, "unexpected '%c' in op '%.*s'", c, (int)(o->name.len > 40 ? 40 : o->name.len),
                             ps->lx.t + o->name.at);
                    return fail_tok(ps, &t, LAYOUT_ERR_PARSE, what);
                }
                sc.brackets--;
            } else if (c == ':' && sc.brackets == 0) {
                if (sc.pre_arrow && !sc.pre_end) sc.pre_end = t.at;
                sc.colon = t.at + 1;
                sc.arrow = 0;
                sc.types_end = 0;
            }
        } else if ((t.kind == LEX_ARROW || (tok_word(ps, &t, "to") && sc.colon)) && sc.brackets == 0) {
            /* `to` only among the types (`arith.extf %x : A to B`), not in `scf.for %i = %a to %b` */
            if (sc.colon && !sc.arrow && !sc.types_end) sc.arrow = t.at + t.len;
            else if (!sc.colon && !sc.pre_arrow) sc.pre_arrow = t.at + t.len;
        }
        sc.end = t.at + t.len;
        advance(ps);
    }
    if (sc.brackets) {
        char what[96];
        snprintf(what, sizeof what, "op '%.*s' ends with '%c' open", (int)(o->name.len > 40 ? 40 : o->name.len),
                 ps->lx.t + o->name.at, sc.open[sc.brackets - 1]);
        return fail_tok(ps, &name, LAYOUT_ERR_PARSE, what);
    }
    section_break(&sc, sc.end);
    o->text.at = first.at;
    o->text.len = sc.end - first.at;
    if (sc.colon) {
        uint32_t in_end = sc.arrow ? sc.arrow - 2 : sc.types_end; /* before `->` / `to` (both 2 bytes) */
        o->types_in.at = sc.colon;
        o->types_in.len = in_end > sc.colon ? in_end - sc.colon : 0;
        if (sc.arrow) {
            o->types_out.at = sc.arrow;
            o->types_out.len = sc.types_end > sc.arrow ? sc.types_end - sc.arrow : 0;
        }
    }
    if (!o->types_out.len && sc.pre_arrow) {
        uint32_t e = sc.pre_end ? sc.pre_end : sc.end;
        o->types_out.at = sc.pre_arrow;
        o->types_out.len = e > sc.pre_arrow ? e - sc.pre_arrow : 0;
    }
    o->types_in = trim(ps->lx.t, o->types_in);
    o->types_out = trim(ps->lx.t, o->types_out);
    ps->n_pend = pend_base; /* a declaration's arguments (no body) */
    commit_lists(ps, op, use_base, attr_base);
    return commit_results(ps, op, groups, counts, n_groups, o->types_out, o->types_in);
}

/* `#name = attribute` / `#locN = loc(...)` / `!name = type` at the top level. */
static layout_status parse_alias(parser *ps)
{
    layout_ttgir *m = ps->m;
    const lex_tok name = ps->tok;
    uint32_t first, end;
    layout_ttgir_span value;
    advance(ps); /* '=' */
    advance(ps);
    first = end = ps->tok.at;
    if (ps->tok.kind == LEX_EOF || ps->tok.line > ps->prev.line) {
        lex_tok after = ps->prev;
        after.col += 1;
        return fail_tok(ps, &after, LAYOUT_ERR_PARSE, "expected the alias's attribute after '='");
    }
    skip_to(ps, STOP_LINE, &value);
    first = value.at;
    end = value.at + value.len;
    if (name.kind == LEX_BANG) return LAYOUT_OK; /* a type alias: Triton prints none; no layout */
    if (end - first >= 4 && memcmp(ps->lx.t + first, "loc(", 4) == 0) {
        if (m->n_locs >= LAYOUT_TTGIR_MAX_LOCS)
            return fail_tok(ps, &name, LAYOUT_ERR_CAPACITY, "more than 8192 location definitions");
        m->loc_name_at[m->n_locs++] = name.at;
        return LAYOUT_OK;
    }
    if (m->n_aliases >= LAYOUT_TTGIR_MAX_ALIASES)
        return fail_tok(ps, &name, LAYOUT_ERR_CAPACITY, "more than 64 layout aliases");
    {
        layout_ttgir_alias *a = &m->aliases[m->n_aliases];
        int i;
        for (i = 0; i < m->n_aliases; i++)
            if (m->aliases[i].name_len == name.len && memcmp(m->text + m->aliases[i].name_at, m->text + name.at, name.len) == 0)
                return fail_tok(ps, &name, LAYOUT_ERR_PARSE, "this alias is defined twice");
        a->name_at = name.at;
        a->name_len = name.len;
        a->text_at = first;
        a->text_len = end - first;
        m->n_aliases++;
    }
    return LAYOUT_OK;
}

/* scf.for prints no types for its block arguments: the induction
 * variable has the type after its last ':' (`: i32`; `index` without),
 * each iter_arg its result's. */
static void loop_argument_types(layout_ttgir *m)
{
    layout_ttgir_ir *ir = &m->ir;
    int op;
    for (op = 0; op < ir->n_ops; op++) {
        const layout_ttgir_ir_op *o = &ir->ops[op];
        layout_ttgir_block *body;
        int k;
        if (o->n_regions < 1 || !layout_ttgir_ir_name_is(m, op, "scf.for") || ir->regions[o->first_region].first_block < 0)
            continue;
        body = &ir->blocks[ir->regions[o->first_region].first_block];
        if (body->n_args < 1 || body->n_args - 1 > o->n_results) continue;
        if (ir->values[body->first_arg].rule == LAYOUT_TTGIR_TYPE_UNKNOWN && o->types_in.len) {
            ir->values[body->first_arg].type = o->types_in;
            ir->values[body->first_arg].rule = LAYOUT_TTGIR_TYPE_AS_PRINTED;
        }
        for (k = 0; k + 1 < body->n_args; k++) {
            layout_ttgir_value *a = &ir->values[body->first_arg + 1 + k];
            const layout_ttgir_value *r = &ir->values[o->first_result + k];
            if (a->rule == LAYOUT_TTGIR_TYPE_UNKNOWN) {
                a->type = r->type;
                a->rule = r->rule;
            }
        }
    }
}

layout_status layout_ttgir_ir_read(layout_ttgir *m, layout_error *err)
{
    static const parser zero;
    parser ps = zero;
    layout_status st;
    int32_t last_top = -1;
    ps.m = m;
    ps.ir = &m->ir;
    ps.err = err;
    layout_ttgir_scope_init(&ps.scope, &m->ir, m->text, err);
    m->ir.first_op = -1;
    m->ir.n_ops = m->ir.n_values = m->ir.n_uses = m->ir.n_attrs = m->ir.n_regions = m->ir.n_blocks = 0;
    m->ir.n_undefined = m->ir.undefined_line = m->ir.undefined_column = 0;
    layout_ttgir_lex_init(&ps.lx, m->text, m->len, err);
    if ((st = layout_ttgir_lex_next(&ps.lx, &ps.tok))) return st;
    while (ps.tok.kind != LEX_EOF) {
        lex_tok u;
        if (ps.tok.kind == LEX_HASH || ps.tok.kind == LEX_BANG) {
            peek(&ps, &u);
            if (!tok_is(&ps, &u, '=')) return fail_tok(&ps, &ps.tok, LAYOUT_ERR_PARSE, "expected '=' defining this alias");
            if ((st = parse_alias(&ps))) return st;
            continue;
        }
        if (tok_is(&ps, &ps.tok, '{')) { /* {-# dialect resources #-}: to its end */
            const char *end = NULL;
            size_t k;
            for (k = ps.tok.at; k + 3 <= m->len; k++)
                if (memcmp(m->text + k, "#-}", 3) == 0) {
                    end = m->text + k + 3;
                    break;
                }
            peek(&ps, &u);
            if (!end || !tok_is(&ps, &u, '-'))
                return fail_tok(&ps, &ps.tok, LAYOUT_ERR_PARSE, "unexpected '{' at the top level");
            while (ps.lx.p < (size_t)(end - m->text)) {
                if (m->text[ps.lx.p] == '\n') {
                    ps.lx.line++;
                    ps.lx.ls = ps.lx.p + 1;
                }
                ps.lx.p++;
            }
            advance(&ps);
            continue;
        }
        {
            int32_t before = m->ir.n_ops;
            if ((st = parse_op(&ps, -1))) return st;
            if (last_top >= 0) m->ir.ops[last_top].next = before;
            else m->ir.first_op = before;
            last_top = before;
        }
    }
    layout_ttgir_scope_resolve(&ps.scope, 0);
    loop_argument_types(m);
    return LAYOUT_OK;
}
