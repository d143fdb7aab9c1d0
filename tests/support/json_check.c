/* A small JSON grammar check (json_check.h). */
#include "json_check.h"

#include <string.h>

const char *json_check_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    return p;
}

static const char *json_string(const char *p, int ascii_only)
{
    if (*p != '"') return NULL;
    for (p++; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20 || (ascii_only && (unsigned char)*p >= 0x7f)) return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                int i;
                for (i = 1; i <= 4; i++)
                    if (!p[i] || !strchr("0123456789abcdefABCDEF", p[i])) return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
    }
    return *p == '"' ? p + 1 : NULL;
}

const char *json_check_value(const char *p, int ascii_only)
{
    p = json_check_ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = json_check_ws(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                if (!(p = json_string(json_check_ws(p), ascii_only))) return NULL;
                p = json_check_ws(p);
                if (*p++ != ':') return NULL;
            }
            if (!(p = json_check_value(p, ascii_only))) return NULL;
            p = json_check_ws(p);
            if (*p == close) return p + 1;
            if (*p++ != ',') return NULL;
        }
    }
    if (*p == '"') return json_string(p, ascii_only);
    if (strncmp(p, "true", 4) == 0) return p + 4;
    if (strncmp(p, "false", 5) == 0) return p + 5;
    if (strncmp(p, "null", 4) == 0) return p + 4;
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
        if (*p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return NULL;
        while (*p >= '0' && *p <= '9') p++;
        return p;
    }
    return NULL;
}

int json_check_valid(const char *text, int ascii_only)
{
    const char *end = json_check_value(text, ascii_only);
    return end && *json_check_ws(end) == '\0';
}
