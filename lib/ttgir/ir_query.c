/* The queries of the TTGIR IR (ttgir.h, layout_ttgir_ir_*): an op's
 * name, operands, results, parent and users; attributes and constants as
 * integers.  They only read a parsed module; an index out of range is an
 * answer (-1, LAYOUT_ERR_ARG), never a read outside the arrays. */
#include "../core/internal.h"
#include "ir_internal.h"

#include <string.h>

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int layout_ttgir_ir_name_is(const layout_ttgir *m, int op, const char *name)
{
    size_t k = strlen(name);
    const layout_ttgir_ir_op *o = &m->ir.ops[op];
    return o->name.len == k && memcmp(m->text + o->name.at, name, k) == 0;
}

int layout_ttgir_ir_op_is(const layout_ttgir *m, int op, const char *name)
{
    if (!m || !name || op < 0 || op >= m->ir.n_ops) return 0;
    return layout_ttgir_ir_name_is(m, op, name);
}

int layout_ttgir_ir_operand(const layout_ttgir *m, int op, int k)
{
    if (!m || op < 0 || op >= m->ir.n_ops || k < 0 || k >= m->ir.ops[op].n_uses) return -1;
    return m->ir.uses[m->ir.ops[op].first_use + k];
}

int layout_ttgir_ir_result(const layout_ttgir *m, int op, int k)
{
    if (!m || op < 0 || op >= m->ir.n_ops || k < 0 || k >= m->ir.ops[op].n_results) return -1;
    return m->ir.ops[op].first_result + k;
}

int layout_ttgir_ir_def(const layout_ttgir *m, int v)
{
    if (!m || v < 0 || v >= m->ir.n_values) return -1;
    return m->ir.values[v].def_op;
}

int layout_ttgir_ir_parent(const layout_ttgir *m, int op)
{
    int b;
    if (!m || op < 0 || op >= m->ir.n_ops) return -1;
    b = m->ir.ops[op].parent_block;
    return b < 0 ? -1 : m->ir.regions[m->ir.blocks[b].parent_region].parent_op;
}

int layout_ttgir_ir_users(const layout_ttgir *m, int v, int *first_user)
{
    int op, n = 0;
    if (first_user) *first_user = -1;
    if (!m || v < 0 || v >= m->ir.n_values) return 0;
    for (op = 0; op < m->ir.n_ops; op++) {
        const layout_ttgir_ir_op *o = &m->ir.ops[op];
        int k, used = 0;
        for (k = 0; k < o->n_uses; k++) used += m->ir.uses[o->first_use + k] == v;
        if (used && first_user && *first_user < 0) *first_user = op;
        n += used;
    }
    return n;
}

layout_status layout_ttgir_ir_attr(const layout_ttgir *m, int op, const char *name, const char **value, size_t *len)
{
    const layout_ttgir_ir_op *o;
    size_t k;
    int i;
    if (!m || !name || !value || !len) return LAYOUT_ERR_NULL;
    if (op < 0 || op >= m->ir.n_ops) return LAYOUT_ERR_ARG;
    o = &m->ir.ops[op];
    k = strlen(name);
    for (i = 0; i < o->n_attrs; i++) {
        const layout_ttgir_attr *a = &m->ir.attrs[o->first_attr + i];
        if (a->name.len == k && memcmp(m->text + a->name.at, name, k) == 0) {
            *value = m->text + a->value.at;
            *len = a->value.len;
            return LAYOUT_OK;
        }
    }
    return LAYOUT_ERR_NOT_FOUND;
}

layout_status layout_ttgir_ir_attr_int(const layout_ttgir *m, int op, const char *name, int64_t *out)
{
    const char *v;
    size_t n, k = 0;
    int neg = 0;
    int64_t x = 0;
    layout_status st;
    if (!out) return LAYOUT_ERR_NULL;
    if ((st = layout_ttgir_ir_attr(m, op, name, &v, &n))) return st;
    if (n >= 4 && memcmp(v, "true", 4) == 0 && (n == 4 || v[4] == ' ')) {
        *out = 1;
        return LAYOUT_OK;
    }
    if (n >= 5 && memcmp(v, "false", 5) == 0 && (n == 5 || v[5] == ' ')) {
        *out = 0;
        return LAYOUT_OK;
    }
    if (k < n && v[k] == '-') neg = 1, k++;
    if (k >= n || v[k] < '0' || v[k] > '9') return LAYOUT_ERR_PARSE;
    for (; k < n && v[k] >= '0' && v[k] <= '9'; k++) {
        if (x > (INT64_MAX - 9) / 10) return LAYOUT_ERR_PARSE;
        x = x * 10 + (v[k] - '0');
    }
    if (k < n && v[k] != ' ' && v[k] != ':') return LAYOUT_ERR_PARSE;
    *out = neg ? -x : x;
    return LAYOUT_OK;
}

layout_status layout_ttgir_ir_const_int(const layout_ttgir *m, int v, int64_t *out)
{
    const layout_ttgir_ir_op *o;
    const char *t;
    size_t p, e;
    int64_t x = 0;
    int neg = 0, any = 0;
    if (!m || !out) return LAYOUT_ERR_NULL;
    if (v < 0 || v >= m->ir.n_values) return LAYOUT_ERR_ARG;
    if (m->ir.values[v].def_op < 0) return LAYOUT_ERR_NOT_FOUND;
    o = &m->ir.ops[m->ir.values[v].def_op];
    if (!layout_ttgir_ir_name_is(m, m->ir.values[v].def_op, "arith.constant")) return LAYOUT_ERR_NOT_FOUND;
    /* the custom form: `arith.constant 1 : i32`, `arith.constant true` */
    t = m->text;
    p = (size_t)o->name.at + o->name.len;
    e = (size_t)o->text.at + o->text.len;
    while (p < e && is_blank(t[p])) p++;
    if (e - p >= 4 && memcmp(t + p, "true", 4) == 0) {
        *out = 1;
        return LAYOUT_OK;
    }
    if (e - p >= 5 && memcmp(t + p, "false", 5) == 0) {
        *out = 0;
        return LAYOUT_OK;
    }
    if (p < e && t[p] == '-') neg = 1, p++;
    for (; p < e && t[p] >= '0' && t[p] <= '9'; p++, any = 1) {
        if (x > (INT64_MAX - 9) / 10) return LAYOUT_ERR_NOT_FOUND;
        x = x * 10 + (t[p] - '0');
    }
    if (!any || (p < e && t[p] != ' ' && t[p] != ':')) return LAYOUT_ERR_NOT_FOUND; /* 1.0, dense<...> */
    *out = neg ? -x : x;
    return LAYOUT_OK;
}
