/* The scanner and the bounded output builder of the text layer, shared by
 * every text parser and printer: lib/text's own and the dialects'
 * (lib/dialect).  Not installed.  What stays private to lib/text is in
 * text_internal.h.
 *
 * The grammar of every text form is small and LL(1): a recursive-descent
 * parser reads it through one cursor.  The first error wins; every helper
 * returns the cursor's status so callers can write `if (layout_tx_expect(...)) return`.
 * Whitespace (spaces, tabs, newlines) and `#` comments to the end of a line
 * may appear between any two tokens. */
#ifndef LAYOUT_TEXT_SCAN_H
#define LAYOUT_TEXT_SCAN_H

#include "../core/internal.h"

#include <stddef.h>
#include <stdint.h>

/** A parse position over one NUL-terminated text; the first failure is
 * kept in status (and in *err / *where when given). */
typedef struct text_cursor {
    const char *text;       /* NUL-terminated input */
    size_t pos;             /* byte offset of the next unread character */
    const char *fn;         /* public function name, first word of messages */
    layout_error *err;      /* caller's error record (may be NULL) */
    size_t *where;          /* caller's error-offset out-parameter (may be NULL) */
    layout_status status;   /* LAYOUT_OK until the first failure */
} text_cursor;

/** Start a cursor at the beginning of text; fn names the public function
 * in messages, err and where (may be NULL) receive the first failure. */
void layout_tx_init(text_cursor *c, const char *text, const char *fn, layout_error *err, size_t *where);

/** Skip whitespace and comments. */
void layout_tx_skip(text_cursor *c);

/** Next significant character (after layout_tx_skip), 0 at the end. */
char layout_tx_peek(text_cursor *c);

/** Fail with LAYOUT_ERR_PARSE at offset `at`: "<fn>: column C: expected <what>, found <token>". */
layout_status layout_tx_expected(text_cursor *c, size_t at, const char *what);

/** Fail at offset `at` with an arbitrary status and message (the position is prefixed). */
layout_status layout_tx_fail_at(text_cursor *c, size_t at, layout_status status, const char *fmt, ...)
    LAYOUT_PRINTF(4, 5);

/** Consume character ch or fail "expected <what>". */
layout_status layout_tx_expect(text_cursor *c, char ch, const char *what);

/** Consume ch if it is next; return 1 when consumed. */
int layout_tx_accept(text_cursor *c, char ch);

/** Read an identifier [A-Za-z_][A-Za-z0-9_]* into buf (truncated names fail).
 * On success *start receives its offset. */
layout_status layout_tx_ident(text_cursor *c, char *buf, size_t cap, size_t *start, const char *what);

/** Read a decimal int64 (optional leading '-'); overflow fails with LAYOUT_ERR_PARSE. */
layout_status layout_tx_int(text_cursor *c, int64_t *out, const char *what);

/** Read an integer in [lo, hi]; outside fails with `status` and
 * "<name> V is outside lo..hi" at the number's column. */
layout_status layout_tx_int_in(text_cursor *c, int64_t lo, int64_t hi, layout_status status, const char *name, int64_t *out);

/** Read "[a, b, ...]" of at most max int64 values; "[]" gives *n = 0. */
layout_status layout_tx_int_list(text_cursor *c, int64_t *out, int max, int *n, const char *what);

/** After a complete object: only whitespace/comments may follow. */
layout_status layout_tx_expect_end(text_cursor *c);

/** Wrap a library failure (status/message in *lib_err) at offset `at`. */
layout_status layout_tx_lib_fail(text_cursor *c, size_t at, const layout_error *lib_err);

/** Print an object with `print` into buf only when the whole text fits
 * (measure first): LAYOUT_OK, or LAYOUT_ERR_BUFFER naming the size with buf
 * untouched.  `print` returns 0, or non-zero when the object has no text
 * (then LAYOUT_ERR_UNSUPPORTED with "<fn>: <why>"). */
struct text_out;
layout_status layout_to_render(int (*print)(struct text_out *, const void *), const void *obj, char *buf, size_t cap,
                        const char *fn, const char *why, layout_error *err);

/* ---- output: bounded string builder with snprintf semantics ---- */
/** A bounded output buffer: text beyond cap is counted in len, not written;
 * buf stays NUL-terminated when cap > 0. */
typedef struct text_out {
    char *buf;
    size_t cap;
    size_t len;   /* length the full text would have (may exceed cap) */
} text_out;

/** Start writing into buf of cap bytes (buf may be NULL with cap 0: measure only). */
void layout_to_init(text_out *o, char *buf, size_t cap);
/** Append a string / printf-formatted text. */
void layout_to_str(text_out *o, const char *s);
void layout_to_printf(text_out *o, const char *fmt, ...) LAYOUT_PRINTF(2, 3);

#endif /* LAYOUT_TEXT_SCAN_H */
