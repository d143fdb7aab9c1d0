/* Dialect detection and dispatch (dialect.h). */
#include "dialect_internal.h"
#include "layout/ck_cpp.h"
#include "layout/cute.h"
#include "layout/dialect.h"
#include "layout/iree.h"
#include "layout/linear.h"
#include "layout/text.h"
#include "layout/triton.h"

#include <string.h>

static const char *const k_names[6] = {"ck", "triton", "cute", "iree", "linear", "ck-cpp"};

const char *layout_dialect_name(layout_dialect d)
{
    return (int)d >= 0 && (int)d < 6 ? k_names[d] : "?";
}

layout_status layout_dialect_from_name(const char *name, layout_dialect *out, layout_error *err)
{
    int k;
    if (!name || !out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_dialect_from_name: NULL argument");
    for (k = 0; k < 6; k++)
        if (strcmp(name, k_names[k]) == 0) {
            *out = (layout_dialect)k;
            return layout_ok(err);
        }
    return layout_fail(err, LAYOUT_ERR_NOT_FOUND,
                       "layout_dialect_from_name: unknown dialect '%.40s' (ck, triton, cute, iree, linear, ck-cpp)",
                       name);
}

layout_dialect layout_dialect_detect(const char *text)
{
    const char *s = text;
    if (!s) return LAYOUT_DIALECT_CK;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (strncmp(s, "#ttg.linear", 11) == 0 || *s == '{') return LAYOUT_DIALECT_LINEAR;
    if (strncmp(s, "#ttg.", 5) == 0) return LAYOUT_DIALECT_TRITON;
    if (strncmp(s, "#iree_codegen.", 14) == 0 || strncmp(s, "#xor<", 5) == 0) return LAYOUT_DIALECT_IREE;
    if (strncmp(s, "Sw<", 3) == 0 || strstr(s, "):(") != NULL) return LAYOUT_DIALECT_CUTE;
    {
        const char *p = s;
        if (*p == '_') p++;
        if (*p >= '0' && *p <= '9') {
            while (*p >= '0' && *p <= '9') p++;
            if (*p == ':') return LAYOUT_DIALECT_CUTE;
        }
    }
    return LAYOUT_DIALECT_CK;
}

layout_status layout_desc_from_dialect(layout_dialect dialect, const char *text, int n_shape, const int64_t *shape,
                                       layout_descriptor *out, size_t *where, layout_error *err)
{
    switch (dialect) {
    case LAYOUT_DIALECT_CK: return layout_desc_from_text(text, out, where, err);
    case LAYOUT_DIALECT_CUTE: return layout_desc_from_cute(text, out, where, err);
    case LAYOUT_DIALECT_IREE:
        if (n_shape != 0 && n_shape != 2)
            return layout_fail(err, LAYOUT_ERR_ARG, "layout_desc_from_dialect: iree needs a 2-D shape, got %d values",
                               n_shape);
        return layout_desc_from_iree(text, n_shape ? shape : NULL, out, where, err);
    case LAYOUT_DIALECT_TRITON:
    case LAYOUT_DIALECT_LINEAR: return layout_desc_from_triton(text, n_shape, shape, out, where, err);
    default:
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "layout_desc_from_dialect: dialect '%s' is not readable",
                           layout_dialect_name(dialect));
    }
}

layout_status layout_dist_from_dialect(layout_dialect dialect, const char *text, int n_shape, const int64_t *shape,
                                       int64_t *table, size_t table_cap, layout_distribution *out, size_t *where,
                                       layout_error *err)
{
    layout_triton_attr a;
    layout_status st;
    if (dialect == LAYOUT_DIALECT_CK) return layout_dist_from_text(text, 0, 0, out, where, err);
    if (dialect != LAYOUT_DIALECT_TRITON && dialect != LAYOUT_DIALECT_LINEAR)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "layout_dist_from_dialect: dialect '%s' has no distributions (ck, triton, linear do)",
                           layout_dialect_name(dialect));
    if ((st = layout_triton_from_text(text, &a, where, err))) return st;
    if ((st = layout_triton_to_dist(&a, n_shape, shape, table, table_cap, out, err)) && where) *where = 0;
    return st;
}

/* Descriptor -> linear text in Triton's shared direction when bijective. */
static layout_status desc_to_linear_text(const layout_descriptor *d, char *buf, size_t cap, layout_error *err)
{
    layout_linear fwd, inv;
    layout_status st;
    if ((st = layout_desc_to_linear(d, &fwd, err))) return st;
    if (layout_linear_is_bijective(&fwd) && layout_linear_invert(&inv, &fwd, NULL) == LAYOUT_OK)
        return layout_linear_to_triton_text(&inv, buf, cap, err);
    return layout_linear_to_triton_text(&fwd, buf, cap, err);
}

layout_status layout_desc_to_dialect(layout_dialect dialect, const layout_descriptor *d, char *buf, size_t cap,
                                     layout_error *err)
{
    if (!d || !buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_desc_to_dialect: NULL argument");
    switch (dialect) {
    case LAYOUT_DIALECT_CK: return layout_desc_to_text(d, buf, cap, err);
    case LAYOUT_DIALECT_CUTE: return layout_desc_to_cute(d, buf, cap, err);
    case LAYOUT_DIALECT_IREE: return layout_desc_to_iree(d, buf, cap, err);
    case LAYOUT_DIALECT_TRITON: return layout_desc_to_triton(d, buf, cap, err);
    case LAYOUT_DIALECT_LINEAR: return desc_to_linear_text(d, buf, cap, err);
    case LAYOUT_DIALECT_CK_CPP: {
        size_t needed = 0;
        layout_status st = layout_desc_to_ck_cpp(d, NULL, 0, &needed, err);
        if (st) return st;
        if (needed + 1 > cap)
            return layout_fail(err, LAYOUT_ERR_BUFFER, "layout_desc_to_dialect: cap = %zu is too small, the ck_tile C++ "
                                                       "needs %zu bytes", cap, needed + 1);
        return layout_desc_to_ck_cpp(d, buf, cap, NULL, err);
    }
    default:
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "layout_desc_to_dialect: '%s' output is not built into this library (ck_cpp.h)",
                           layout_dialect_name(dialect));
    }
}
