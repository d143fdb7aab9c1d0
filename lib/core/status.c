/* Status names and the shared error-reporting helper. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

const char *layout_status_name(layout_status status)
{
    switch (status) {
    case LAYOUT_OK: return "LAYOUT_OK";
    case LAYOUT_ERR_NULL: return "LAYOUT_ERR_NULL";
    case LAYOUT_ERR_ARG: return "LAYOUT_ERR_ARG";
    case LAYOUT_ERR_OVERFLOW: return "LAYOUT_ERR_OVERFLOW";
    case LAYOUT_ERR_CAPACITY: return "LAYOUT_ERR_CAPACITY";
    case LAYOUT_ERR_DIM_ID: return "LAYOUT_ERR_DIM_ID";
    case LAYOUT_ERR_RANGE: return "LAYOUT_ERR_RANGE";
    case LAYOUT_ERR_UNSUPPORTED: return "LAYOUT_ERR_UNSUPPORTED";
    case LAYOUT_ERR_MISALIGNED: return "LAYOUT_ERR_MISALIGNED";
    case LAYOUT_ERR_NOT_FOUND: return "LAYOUT_ERR_NOT_FOUND";
    case LAYOUT_ERR_BUFFER: return "LAYOUT_ERR_BUFFER";
    case LAYOUT_ERR_PARSE: return "LAYOUT_ERR_PARSE";
    case LAYOUT_ERR_MISMATCH: return "LAYOUT_ERR_MISMATCH";
    }
    return "LAYOUT_ERR_UNKNOWN";
}

layout_status layout_fail(layout_error *err, layout_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->status = status;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

layout_status layout_ok(layout_error *err)
{
    if (err) {
        err->status = LAYOUT_OK;
        err->message[0] = '\0';
    }
    return LAYOUT_OK;
}
