/* Bounded string building for the printers (snprintf semantics). */
#include "strbuf.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

void layout_sb_init(layout_strbuf *sb, char *buf, size_t cap)
{
    sb->buf = buf;
    sb->cap = buf ? cap : 0;
    sb->len = 0;
    if (sb->cap > 0) sb->buf[0] = '\0';
}

void layout_sb_printf(layout_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    char *dst = NULL;
    size_t room = 0;
    if (sb->len < sb->cap) {
        dst = sb->buf + sb->len;
        room = sb->cap - sb->len;
    }
    va_start(ap, fmt);
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0) sb->len += (size_t)n;
}

void layout_sb_list(layout_strbuf *sb, int n, const int64_t *values)
{
    layout_sb_printf(sb, "[");
    for (int i = 0; i < n; i++) layout_sb_printf(sb, "%s%" PRId64, i ? ", " : "", values[i]);
    layout_sb_printf(sb, "]");
}

int layout_sb_result(const layout_strbuf *sb)
{
    return sb->len > (size_t)INT_MAX ? INT_MAX : (int)sb->len;
}
