/* MLIR's tokens, as far as TTGIR uses them (lex_internal.h).  The grammar
 * is MLIR's LangRef: `%`, `^`, `#`, `!` and `@` start a suffix id
 * ([A-Za-z0-9_$.-]+), bare ids are [A-Za-z_][A-Za-z0-9_$.]*, strings do not
 * cross a line, `//` starts a comment to the end of the line.  A dimension
 * list such as `64x32xf16` comes out as `64` and `x32xf16`: the reader takes
 * types from their text, not from tokens. */
#include "../core/internal.h"
#include "lex_internal.h"

#include <string.h>

#define FN "layout_ttgir_parse"

void layout_ttgir_lex_init(lexer *lx, const char *t, size_t n, layout_error *err)
{
    lx->t = t;
    lx->n = n;
    lx->p = 0;
    lx->line = 1;
    lx->ls = 0;
    lx->err = err;
}

static int is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_suffix(char c) { return is_letter(c) || is_digit(c) || c == '_' || c == '$' || c == '.' || c == '-'; }
static int is_bare(char c) { return is_letter(c) || is_digit(c) || c == '_' || c == '$' || c == '.'; }

static layout_status fail(const lexer *lx, size_t at, const char *what)
{
    return layout_fail(lx->err, LAYOUT_ERR_PARSE, FN ": line %d, column %d: %s", lx->line, (int)(at - lx->ls) + 1,
                       what);
}

/* Blanks, newlines and comments before the next token. */
static void skip_space(lexer *lx)
{
    while (lx->p < lx->n) {
        char c = lx->t[lx->p];
        if (c == '\n') {
            lx->p++;
            lx->line++;
            lx->ls = lx->p;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->n && lx->t[lx->p + 1] == '/') {
            while (lx->p < lx->n && lx->t[lx->p] != '\n') lx->p++;
        } else {
            break;
        }
    }
}

/* A string from its opening quote at p; the end past its closing quote. */
static layout_status lex_string(lexer *lx, size_t p, size_t *end)
{
    for (p++; p < lx->n && lx->t[p] != '"' && lx->t[p] != '\n'; p++)
        if (lx->t[p] == '\\' && p + 1 < lx->n && lx->t[p + 1] != '\n') p++;
    if (p >= lx->n || lx->t[p] != '"')
        return fail(lx, *end, "a string opened here is not closed on its line (is the text cut short?)");
    *end = p + 1;
    return LAYOUT_OK;
}

static size_t lex_number(const lexer *lx, size_t p)
{
    const char *t = lx->t;
    if (p < lx->n && t[p] == '-') p++;
    if (p + 1 < lx->n && t[p] == '0' && t[p + 1] == 'x') {
        for (p += 2; p < lx->n && (is_digit(t[p]) || (t[p] >= 'a' && t[p] <= 'f') || (t[p] >= 'A' && t[p] <= 'F'));)
            p++;
        return p;
    }
    while (p < lx->n && is_digit(t[p])) p++;
    if (p + 1 < lx->n && t[p] == '.' && is_digit(t[p + 1])) {
        for (p++; p < lx->n && is_digit(t[p]);) p++;
        if (p < lx->n && (t[p] == 'e' || t[p] == 'E')) {
            size_t q = p + 1;
            if (q < lx->n && (t[q] == '+' || t[q] == '-')) q++;
            if (q < lx->n && is_digit(t[q])) {
                for (p = q; p < lx->n && is_digit(t[p]);) p++;
            }
        }
    }
    return p;
}

layout_status layout_ttgir_lex_next(lexer *lx, lex_tok *tok)
{
    const char *t = lx->t;
    size_t p, e;
    char c;
    skip_space(lx);
    p = lx->p;
    tok->at = (uint32_t)p;
    tok->line = lx->line;
    tok->col = (int)(p - lx->ls) + 1;
    if (p >= lx->n) {
        tok->kind = LEX_EOF;
        tok->len = 0;
        return LAYOUT_OK;
    }
    c = t[p];
    e = p + 1;
    if (c == '%' || c == '^' || c == '#' || c == '!') {
        while (e < lx->n && is_suffix(t[e])) e++;
        tok->kind = c == '%' ? LEX_VALUE : c == '^' ? LEX_BLOCK : c == '#' ? LEX_HASH : LEX_BANG;
        if (e == p + 1 && c != '!') tok->kind = LEX_PUNCT; /* a lone sigil */
    } else if (c == '@') {
        if (e < lx->n && t[e] == '"') {
            layout_status st;
            e = p;
            if ((st = lex_string(lx, p + 1, &e))) return st;
        } else {
            while (e < lx->n && is_suffix(t[e])) e++;
        }
        tok->kind = LEX_SYMBOL;
    } else if (c == '"') {
        layout_status st;
        e = p;
        if ((st = lex_string(lx, p, &e))) return st;
        tok->kind = LEX_STR;
    } else if (is_letter(c) || c == '_') {
        while (e < lx->n && is_bare(t[e])) e++;
        tok->kind = LEX_ID;
    } else if (is_digit(c) || (c == '-' && e < lx->n && is_digit(t[e]))) {
        e = lex_number(lx, p);
        tok->kind = LEX_NUM;
    } else if (c == '-' && e < lx->n && t[e] == '>') {
        e++;
        tok->kind = LEX_ARROW;
    } else if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f) {
        return fail(lx, p, (unsigned char)c == 0 ? "a NUL byte in the text"
                                                 : "a byte no MLIR token starts with (outside strings and comments)");
    } else {
        tok->kind = LEX_PUNCT;
    }
    tok->len = (uint32_t)(e - p);
    lx->p = e;
    return LAYOUT_OK;
}
