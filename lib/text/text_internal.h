/* Private scanner shared by the text parsers (lib/text_*.c).  Not installed.
 *
 * The grammar of every text form is small and LL(1): a recursive-descent
 * parser reads it through one cursor.  The first error wins; every helper
 * returns the cursor's status so callers can write `if (layout_tx_expect(...)) return`.
 * Whitespace (spaces, tabs, newlines) and `#` comments to the end of a line
 * may appear between any two tokens. */
#ifndef LAYOUT_TEXT_INTERNAL_H
#define LAYOUT_TEXT_INTERNAL_H

#include "../core/internal.h"

#include <stddef.h>
#include <stdint.h>

typedef struct text_cursor {
    const char *text;       /* NUL-terminated input */
    size_t pos;             /* byte offset of the next unread character */
    const char *fn;         /* public function name, first word of messages */
    layout_error *err;      /* caller's error record (may be NULL) */
    size_t *where;          /* caller's error-offset out-parameter (may be NULL) */
    layout_status status;   /* LAYOUT_OK until the first failure */
} text_cursor;

void layout_tx_init(text_cursor *c, const char *text, const char *fn, layout_error *err, size_t *where);

/* Skip whitespace and comments. */
void layout_tx_skip(text_cursor *c);

/* Next significant character (after layout_tx_skip), 0 at the end. */
char layout_tx_peek(text_cursor *c);

/* Fail with LAYOUT_ERR_PARSE at offset `at`: "<fn>: column C: expected <what>, found <token>". */
layout_status layout_tx_expected(text_cursor *c, size_t at, const char *what);

/* Fail at offset `at` with an arbitrary status and message (the position is prefixed). */
layout_status layout_tx_fail_at(text_cursor *c, size_t at, layout_status status, const char *fmt, ...)
    LAYOUT_PRINTF(4, 5);

/* Consume character ch or fail "expected <what>". */
layout_status layout_tx_expect(text_cursor *c, char ch, const char *what);

/* Consume ch if it is next; return 1 when consumed. */
int layout_tx_accept(text_cursor *c, char ch);

/* Consume the two-character token "->" (or fail "expected <what>"). */
layout_status layout_tx_expect_arrow(text_cursor *c, const char *what);

/* Read an identifier [A-Za-z_][A-Za-z0-9_]* into buf (truncated names fail).
 * On success *start receives its offset. */
layout_status layout_tx_ident(text_cursor *c, char *buf, size_t cap, size_t *start, const char *what);

/* Read a decimal int64 (optional leading '-'); overflow fails with LAYOUT_ERR_PARSE. */
layout_status layout_tx_int(text_cursor *c, int64_t *out, const char *what);

/* Read an integer in [lo, hi]; outside fails with `status` and
 * "<name> V is outside lo..hi" at the number's column. */
layout_status layout_tx_int_in(text_cursor *c, int64_t lo, int64_t hi, layout_status status, const char *name, int64_t *out);

/* Read "[a, b, ...]" of at most max int64 values; "[]" gives *n = 0. */
layout_status layout_tx_int_list(text_cursor *c, int64_t *out, int max, int *n, const char *what);

/* Same for int dim ids (each must fit in an int; range is checked by the library). */
layout_status layout_tx_id_list(text_cursor *c, int *out, int max, int *n, const char *what);

/* Offset of item k (0-based) of the "[a, b, ...]" list of integers whose
 * '[' is at offset `open` (whitespace and comments skipped), for carets
 * under the item a semantic error names; `open` when the list is shorter
 * or malformed. */
size_t layout_tx_list_item_at(const char *text, size_t open, int k);

/* After a complete object: only whitespace/comments may follow. */
layout_status layout_tx_expect_end(text_cursor *c);

/* Wrap a library failure (status/message in *lib_err) at offset `at`. */
layout_status layout_tx_lib_fail(text_cursor *c, size_t at, const layout_error *lib_err);

/* Print an object with `print` into buf only when the whole text fits
 * (measure first): LAYOUT_OK, or LAYOUT_ERR_BUFFER naming the size with buf
 * untouched.  `print` returns 0, or non-zero when the object has no text
 * (then LAYOUT_ERR_UNSUPPORTED with "<fn>: <why>"). */
struct text_out;
layout_status layout_to_render(int (*print)(struct text_out *, const void *), const void *obj, char *buf, size_t cap,
                        const char *fn, const char *why, layout_error *err);

/* ---- output: bounded string builder with snprintf semantics ---- */
typedef struct text_out {
    char *buf;
    size_t cap;
    size_t len;   /* length the full text would have (may exceed cap) */
} text_out;

void layout_to_init(text_out *o, char *buf, size_t cap);
void layout_to_str(text_out *o, const char *s);
void layout_to_printf(text_out *o, const char *fmt, ...) LAYOUT_PRINTF(2, 3);
void layout_to_int_list(text_out *o, const int64_t *v, int n);
void layout_to_id_list(text_out *o, const int *v, int n);

#endif /* LAYOUT_TEXT_INTERNAL_H */
