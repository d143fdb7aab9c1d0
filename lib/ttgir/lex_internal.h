/* The MLIR tokens of TTGIR text (lex.c): what the structural check
 * (wellformed.c) and the IR reader (ir.c) walk.  Comments (`// ...` to the
 * end of the line) and blanks are skipped; a string is one token.  No
 * heap, no state outside the lexer. */
#ifndef LAYOUT_TTGIR_LEX_INTERNAL_H
#define LAYOUT_TTGIR_LEX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "layout/status.h"

typedef enum lex_kind {
    LEX_EOF = 0,
    LEX_VALUE,  /* %name        (an SSA value) */
    LEX_BLOCK,  /* ^name        (a block label) */
    LEX_SYMBOL, /* @name, @"name" */
    LEX_HASH,   /* #name        (an attribute alias or location; also `#1` after a value) */
    LEX_BANG,   /* !name        (a dialect type: !tt.ptr, !ttg.memdesc) */
    LEX_ID,     /* a bare identifier: tt.load, x32xf16, to, loc */
    LEX_NUM,    /* 12, -3, 1.5e+00, 0xFF */
    LEX_STR,    /* "..." (quotes included) */
    LEX_ARROW,  /* -> */
    LEX_PUNCT   /* one character: ( ) [ ] { } < > , : = * ? + - ... */
} lex_kind;

typedef struct lex_tok {
    lex_kind kind;
    uint32_t at, len; /* the token's bytes in the text */
    int line, col;    /* 1-based, of its first byte */
} lex_tok;

typedef struct lexer {
    const char *t;
    size_t n, p;   /* the text, its length, the next byte */
    int line;      /* line of byte p */
    size_t ls;     /* where that line starts */
    layout_error *err;
} lexer;

/* Start lexing text[0, n). */
void layout_ttgir_lex_init(lexer *lx, const char *t, size_t n, layout_error *err);

/* The next token into *tok (LEX_EOF at the end).  ::LAYOUT_ERR_PARSE, with
 * the line and column, for a string not closed on its line or a byte no
 * MLIR token starts with. */
layout_status layout_ttgir_lex_next(lexer *lx, lex_tok *tok);

/* Token `tok` is the punctuation `ch`. */
static inline int lex_is(const lex_tok *tok, char ch, const char *t)
{
    return tok->kind == LEX_PUNCT && t[tok->at] == ch;
}

#endif /* LAYOUT_TTGIR_LEX_INTERNAL_H */
