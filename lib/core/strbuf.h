/* Private: a bounded string builder with snprintf semantics, shared by the
 * printers.  Not installed. */
#ifndef LAYOUT_STRBUF_H
#define LAYOUT_STRBUF_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Appends into buf[0..cap) (always NUL-terminated when cap > 0) while
 * counting the full length the text would need, like snprintf. */
typedef struct layout_strbuf {
    char *buf;
    size_t cap;
    size_t len; /* bytes the whole text needs, without the NUL */
} layout_strbuf;

void layout_sb_init(layout_strbuf *sb, char *buf, size_t cap);
void layout_sb_printf(layout_strbuf *sb, const char *fmt, ...) LAYOUT_PRINTF(2, 3);
/* "[a, b, c]" */
void layout_sb_list(layout_strbuf *sb, int n, const int64_t *values);
/* The snprintf-style result (clamped to INT_MAX). */
int layout_sb_result(const layout_strbuf *sb);

#endif /* LAYOUT_STRBUF_H */
