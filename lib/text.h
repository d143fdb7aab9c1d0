/* Private snprintf-style text builder for the printers (arch, report).
 * Keeps the full length even when the buffer is too small, so callers can
 * report the size needed.  Not installed. */
#ifndef LAYOUT_TEXT_H
#define LAYOUT_TEXT_H

#include "internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

typedef struct layout_text {
    char *buf;  /* may be NULL when cap == 0 */
    size_t cap; /* bytes available including the NUL */
    size_t len; /* full length produced so far (may exceed cap - 1) */
} layout_text;

static inline void layout_text_start(layout_text *t, char *buf, size_t cap)
{
    t->buf = buf;
    t->cap = buf ? cap : 0;
    t->len = 0;
    if (t->cap) t->buf[0] = '\0';
}

static inline void layout_text_add(layout_text *t, const char *fmt, ...) LAYOUT_PRINTF(2, 3);
static inline void layout_text_add(layout_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = t->len < t->cap ? t->buf + t->len : NULL;
    size_t room = t->len < t->cap ? t->cap - t->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0) t->len += (size_t)n;
}

#endif /* LAYOUT_TEXT_H */
