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

/* Character classes, one table lookup each (the lexer's inner loops). */
enum { C_LETTER = 1, C_DIGIT = 2, C_SUFFIX = 4, C_BARE = 8, C_BLANK = 16 };
#define L_ (C_LETTER | C_SUFFIX | C_BARE)
#define D_ (C_DIGIT | C_SUFFIX | C_BARE)
static const unsigned char k_class[256] = {
    ['\t'] = C_BLANK, ['\r'] = C_BLANK, ['\f'] = C_BLANK, ['\v'] = C_BLANK, [' '] = C_BLANK,
    ['$'] = C_SUFFIX | C_BARE, ['.'] = C_SUFFIX | C_BARE, ['_'] = C_SUFFIX | C_BARE, ['-'] = C_SUFFIX,
    ['0'] = D_, ['1'] = D_, ['2'] = D_, ['3'] = D_, ['4'] = D_, ['5'] = D_, ['6'] = D_, ['7'] = D_, ['8'] = D_, ['9'] = D_,
    ['a'] = L_, ['b'] = L_, ['c'] = L_, ['d'] = L_, ['e'] = L_, ['f'] = L_, ['g'] = L_, ['h'] = L_, ['i'] = L_,
    ['j'] = L_, ['k'] = L_, ['l'] = L_, ['m'] = L_, ['n'] = L_, ['o'] = L_, ['p'] = L_, ['q'] = L_, ['r'] = L_,
    ['s'] = L_, ['t'] = L_, ['u'] = L_, ['v'] = L_, ['w'] = L_, ['x'] = L_, ['y'] = L_, ['z'] = L_,
    ['A'] = L_, ['B'] = L_, ['C'] = L_, ['D'] = L_, ['E'] = L_, ['F'] = L_, ['G'] = L_, ['H'] = L_, ['I'] = L_,
    ['J'] = L_, ['K'] = L_, ['L'] = L_, ['M'] = L_, ['N'] = L_, ['O'] = L_, ['P'] = L_, ['Q'] = L_, ['R'] = L_,
    ['S'] = L_, ['T'] = L_, ['U'] = L_, ['V'] = L_, ['W'] = L_, ['X'] = L_, ['Y'] = L_, ['Z'] = L_,
};
#undef L_
#undef D_

static int is_letter(char c) { return k_class[(unsigned char)c] & C_LETTER; }
static int is_digit(char c) { return k_class[(unsigned char)c] & C_DIGIT; }
static int is_suffix(char c) { return k_class[(unsigned char)c] & C_SUFFIX; }
static int is_bare(char c) { return k_class[(unsigned char)c] & C_BARE; }

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
        } else if (k_class[(unsigned char)c] & C_BLANK) {
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
