/* Descriptor text form: parser.  Grammar (see include/layout/text.h):
 *
 *   descriptor := base { '|' stage }
 *   base       := naive(list, list {, gvl=N | gvs=N})
 *               | naive_off(list, list, off=N) | packed(list {, gvl=N})
 *               | aligned(list, align=N)
 *   stage      := 'T' '{' [ item { ';' item } ] '}'
 *   item       := transform ':' idlist '->' idlist
 */
#include "text_internal.h"
#include "text_desc_internal.h"
#include "layout/text.h"

#include <stdio.h>
#include <string.h>

#define FN_PARSE "layout_desc_from_text"

/* Shapes of a transform's argument list. */
enum arg_shape { ARGS_1, ARGS_2, ARGS_3, ARGS_LIST, ARGS_2LIST };

typedef struct transform_syntax {
    const char *name;       /* canonical text name */
    const char *alias;      /* ck_tile name accepted too (or NULL) */
    layout_transform_kind kind;
    enum arg_shape shape;
    const char *args;       /* argument description for messages */
} transform_syntax;

static const transform_syntax k_syntax[] = {
    {"pass", "pass_through", LAYOUT_PASS_THROUGH, ARGS_1, "(length)"},
    {"pad", NULL, LAYOUT_PAD, ARGS_3, "(length, left, right)"},
    {"lpad", "left_pad", LAYOUT_LEFT_PAD, ARGS_2, "(length, left)"},
    {"rpad", "right_pad", LAYOUT_RIGHT_PAD, ARGS_2, "(length, right)"},
    {"embed", NULL, LAYOUT_EMBED, ARGS_2LIST, "([upper lengths], [coefficients])"},
    {"merge", NULL, LAYOUT_MERGE, ARGS_LIST, "([lower lengths])"},
    {"merge3", "merge_divmod", LAYOUT_MERGE_DIVMOD, ARGS_LIST, "([lower lengths])"},
    {"unmerge", NULL, LAYOUT_UNMERGE, ARGS_LIST, "([upper lengths])"},
    {"xor", NULL, LAYOUT_XOR, ARGS_LIST, "([length0, length1])"},
    {"slice", NULL, LAYOUT_SLICE, ARGS_3, "(length, begin, end)"},
    {"freeze", NULL, LAYOUT_FREEZE, ARGS_1, "(value)"},
    {"insert", NULL, LAYOUT_INSERT, ARGS_1, "(length)"},
    {"replicate", NULL, LAYOUT_REPLICATE, ARGS_LIST, "([lengths])"},
    {"modulo", NULL, LAYOUT_MODULO, ARGS_2, "(modulus, length)"},
    {"offset", NULL, LAYOUT_OFFSET, ARGS_2, "(length, offset)"},
};

const char *layout_text_transform_name(layout_transform_kind kind)
{
    size_t i;
    for (i = 0; i < sizeof k_syntax / sizeof k_syntax[0]; i++)
        if (k_syntax[i].kind == kind) return k_syntax[i].name;
    return NULL;
}

static const transform_syntax *find_syntax(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof k_syntax / sizeof k_syntax[0]; i++)
        if (strcmp(k_syntax[i].name, name) == 0 || (k_syntax[i].alias && strcmp(k_syntax[i].alias, name) == 0))
            return &k_syntax[i];
    return NULL;
}

/* Build the transform from parsed arguments with the library constructor. */
static layout_status make_transform(const transform_syntax *s, const int64_t *a, int n_a, const int64_t *b, int n_b,
                                    layout_transform *t, layout_error *e)
{
    switch (s->kind) {
    case LAYOUT_PASS_THROUGH: return layout_make_pass_through(a[0], t, e);
    case LAYOUT_PAD: return layout_make_pad(a[0], a[1], a[2], t, e);
    case LAYOUT_LEFT_PAD: return layout_make_left_pad(a[0], a[1], t, e);
    case LAYOUT_RIGHT_PAD: return layout_make_right_pad(a[0], a[1], t, e);
    case LAYOUT_EMBED:
        if (n_a != n_b)
            return layout_fail(e, LAYOUT_ERR_MISMATCH,
                               "embed has %d upper lengths but %d coefficients (the lists must be equally long)", n_a,
                               n_b);
        return layout_make_embed(n_a, a, b, t, e);
    case LAYOUT_MERGE: return layout_make_merge(n_a, a, t, e);
    case LAYOUT_MERGE_DIVMOD: return layout_make_merge_divmod(n_a, a, t, e);
    case LAYOUT_UNMERGE: return layout_make_unmerge(n_a, a, t, e);
    case LAYOUT_XOR:
        if (n_a != 2) return layout_fail(e, LAYOUT_ERR_ARG, "xor takes exactly 2 lengths [length0, length1], got %d", n_a);
        return layout_make_xor(a[0], a[1], t, e);
    case LAYOUT_SLICE: return layout_make_slice(a[0], a[1], a[2], t, e);
    case LAYOUT_FREEZE: return layout_make_freeze(a[0], t, e);
    case LAYOUT_INSERT: return layout_make_insert(a[0], t, e);
    case LAYOUT_REPLICATE: return layout_make_replicate(n_a, a, t, e);
    case LAYOUT_MODULO: return layout_make_modulo(a[0], a[1], t, e);
    case LAYOUT_OFFSET: return layout_make_offset(a[0], a[1], t, e);
    default: break;
    }
    return layout_fail(e, LAYOUT_ERR_UNSUPPORTED, "transform kind %d has no text form", (int)s->kind);
}

/* transform := name '(' args ')' */
static layout_status parse_transform(text_cursor *c, layout_transform *t)
{
    char name[24], what[96];
    size_t at;
    const transform_syntax *s;
    int64_t a[LAYOUT_MAX_TRANSFORM_DIMS], b[LAYOUT_MAX_TRANSFORM_DIMS];
    int n_a = 0, n_b = 0, k, count;
    layout_error e;

    if (layout_tx_ident(c, name, sizeof name, &at, "a transform name (pass, pad, embed, merge, unmerge, xor, ...)"))
        return c->status;
    s = find_syntax(name);
    if (!s)
        return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE,
                          "unknown transform '%s' (expected pass, pad, lpad, rpad, embed, merge, merge3, unmerge, "
                          "xor, slice, freeze, insert, replicate, modulo or offset)",
                          name);
    snprintf(what, sizeof what, "'(' after %s", s->name);
    if (layout_tx_expect(c, '(', what)) return c->status;
    switch (s->shape) {
    case ARGS_1:
    case ARGS_2:
    case ARGS_3:
        count = s->shape == ARGS_1 ? 1 : s->shape == ARGS_2 ? 2 : 3;
        for (k = 0; k < count; k++) {
            if (k && layout_tx_expect(c, ',', "',' (more arguments follow)")) return c->status;
            snprintf(what, sizeof what, "a number: %s%s", s->name, s->args);
            if (layout_tx_int(c, &a[k], what)) return c->status;
        }
        n_a = count;
        break;
    case ARGS_LIST:
        snprintf(what, sizeof what, "'[': %s%s", s->name, s->args);
        if (layout_tx_int_list(c, a, LAYOUT_MAX_TRANSFORM_DIMS, &n_a, what)) return c->status;
        break;
    case ARGS_2LIST:
        snprintf(what, sizeof what, "'[': %s%s", s->name, s->args);
        if (layout_tx_int_list(c, a, LAYOUT_MAX_TRANSFORM_DIMS, &n_a, what)) return c->status;
        if (layout_tx_expect(c, ',', "',' before the coefficient list")) return c->status;
        if (layout_tx_int_list(c, b, LAYOUT_MAX_TRANSFORM_DIMS, &n_b, "'[' starting the coefficient list")) return c->status;
        break;
    }
    snprintf(what, sizeof what, "')' closing %s%s", s->name, s->args);
    if (layout_tx_expect(c, ')', what)) return c->status;
    if (make_transform(s, a, n_a, b, n_b, t, &e)) return layout_tx_lib_fail(c, at, &e);
    return LAYOUT_OK;
}

/* stage := 'T' '{' [ item { ';' item } ] '}' ; applied to *cur in place. */
static layout_status parse_stage(text_cursor *c, layout_descriptor *cur, layout_descriptor *scratch)
{
    layout_transform ts[LAYOUT_MAX_TRANSFORMS];
    layout_seq lo[LAYOUT_MAX_TRANSFORMS], up[LAYOUT_MAX_TRANSFORMS];
    int n = 0;
    size_t at, item_at[LAYOUT_MAX_TRANSFORMS];
    char name[8];
    layout_error e;
    layout_status st;

    if (layout_tx_ident(c, name, sizeof name, &at, "'T{' starting a stage")) return c->status;
    if (strcmp(name, "T") != 0) return layout_tx_expected(c, at, "'T{' starting a stage");
    if (layout_tx_expect(c, '{', "'{' after T")) return c->status;
    if (!layout_tx_accept(c, '}')) {
        for (;;) {
            layout_tx_skip(c);
            item_at[n] = c->pos;
            if (n >= LAYOUT_MAX_TRANSFORMS)
                return layout_tx_fail_at(c, c->pos, LAYOUT_ERR_CAPACITY, "a stage holds at most %d transforms",
                                  LAYOUT_MAX_TRANSFORMS);
            if (parse_transform(c, &ts[n])) return c->status;
            if (layout_tx_expect(c, ':', "':' then the [lower ids]->[upper ids] of the transform")) return c->status;
            if (layout_tx_id_list(c, lo[n].ids, LAYOUT_MAX_TRANSFORM_DIMS, &lo[n].n, "lower ids")) return c->status;
            if (layout_tx_expect_arrow(c, "'->' between the lower and upper ids")) return c->status;
            if (layout_tx_id_list(c, up[n].ids, LAYOUT_MAX_TRANSFORM_DIMS, &up[n].n, "upper ids")) return c->status;
            n++;
            if (layout_tx_accept(c, '}')) break;
            if (layout_tx_expect(c, ';', "';' between transforms or '}' closing the stage")) return c->status;
        }
    }
    st = layout_transform_descriptor(scratch, cur, n, ts, lo, up, &e);
    if (st) {
        /* Point at the item a per-item message names, else at the stage. */
        size_t spot = at;
        int i;
        for (i = 0; i < n; i++) {
            char key[24];
            snprintf(key, sizeof key, "[%d]", i);
            if (strstr(e.message, key)) {
                spot = item_at[i];
                break;
            }
        }
        return layout_tx_lib_fail(c, spot, &e);
    }
    *cur = *scratch;
    return LAYOUT_OK;
}

/* Optional keyword arguments of a base: ", key=value" repeated. */
typedef struct base_kw {
    const char *key;
    int64_t value;
    int seen;
    size_t at; /* offset of the key, for errors about its value */
} base_kw;

static layout_status parse_keywords(text_cursor *c, base_kw *kw, int n_kw, const char *base, int required)
{
    char key[16], what[96];
    size_t at;
    int i;
    while (layout_tx_accept(c, ',')) {
        snprintf(what, sizeof what, "a keyword of %s (%s%s%s)", base, kw[0].key, n_kw > 1 ? ", " : "",
                 n_kw > 1 ? kw[1].key : "");
        if (layout_tx_ident(c, key, sizeof key, &at, what)) return c->status;
        for (i = 0; i < n_kw; i++)
            if (strcmp(kw[i].key, key) == 0) break;
        if (i == n_kw) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "unknown keyword '%s': %s", key, what);
        if (kw[i].seen) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "keyword '%s' given twice", key);
        kw[i].at = at;
        snprintf(what, sizeof what, "'=' after %s", key);
        if (layout_tx_expect(c, '=', what)) return c->status;
        snprintf(what, sizeof what, "a number for %s", key);
        if (layout_tx_int(c, &kw[i].value, what)) return c->status;
        kw[i].seen = 1;
    }
    for (i = 0; i < n_kw && required; i++)
        if (!kw[i].seen) {
            snprintf(what, sizeof what, "', %s=' (%s needs it)", kw[i].key, base);
            return layout_tx_expected(c, c->pos, what);
        }
    return LAYOUT_OK;
}

/* The token a base constructor's message is about: "lengths[k]" /
 * "strides[k]" (item k of that list), a keyword it names ("gvl", "align",
 * ...), else the base's name at `at`. */
static size_t base_error_at(const char *text, const layout_error *e, size_t at, size_t lens_at, size_t strides_at,
                            const base_kw *kw, int n_kw)
{
    static const char *const lists[2] = {"lengths[", "strides["};
    for (int l = 0; l < 2; l++) {
        const char *p = strstr(e->message, lists[l]);
        size_t open = l ? strides_at : lens_at;
        if (p && (l == 0 || strides_at)) {
            int k = 0;
            for (p += strlen(lists[l]); *p >= '0' && *p <= '9'; p++) k = k * 10 + (*p - '0');
            return layout_tx_list_item_at(text, open, k);
        }
    }
    for (int i = 0; i < n_kw; i++)
        if (kw[i].key && kw[i].seen && strstr(e->message, kw[i].key)) return kw[i].at;
    return at;
}

/* base := name '(' list [, list] {, key=value} ')' */
static layout_status parse_base(text_cursor *c, layout_descriptor *out)
{
    char name[16];
    size_t at, lens_at, strides_at = 0;
    int64_t lens[LAYOUT_MAX_DIMS], strides[LAYOUT_MAX_DIMS];
    int n_l = 0, n_s = 0;
    base_kw kw[2];
    layout_error e;
    layout_status st;
    enum { NAIVE, NAIVE_OFF, PACKED, ALIGNED } which;

    if (layout_tx_ident(c, name, sizeof name, &at, "a base: naive, naive_off, packed or aligned")) return c->status;
    if (strcmp(name, "naive") == 0) which = NAIVE;
    else if (strcmp(name, "naive_off") == 0) which = NAIVE_OFF;
    else if (strcmp(name, "packed") == 0) which = PACKED;
    else if (strcmp(name, "aligned") == 0) which = ALIGNED;
    else
        return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "unknown base '%s' (expected naive, naive_off, packed or aligned)",
                          name);
    if (layout_tx_expect(c, '(', "'(' after the base name")) return c->status;
    layout_tx_skip(c);
    lens_at = c->pos;
    if (layout_tx_int_list(c, lens, LAYOUT_MAX_DIMS, &n_l, "'[' starting the lengths")) return c->status;
    if (which == NAIVE || which == NAIVE_OFF) {
        if (layout_tx_expect(c, ',', "',' then the strides")) return c->status;
        layout_tx_skip(c);
        strides_at = c->pos;
        if (layout_tx_int_list(c, strides, LAYOUT_MAX_DIMS, &n_s, "'[' starting the strides")) return c->status;
    }
    memset(kw, 0, sizeof kw);
    switch (which) {
    case NAIVE:
        kw[0].key = "gvl";
        kw[1].key = "gvs";
        if (parse_keywords(c, kw, 2, name, 0)) return c->status;
        break;
    case NAIVE_OFF:
        kw[0].key = "off";
        if (parse_keywords(c, kw, 1, name, 1)) return c->status;
        break;
    case PACKED:
        kw[0].key = "gvl";
        if (parse_keywords(c, kw, 1, name, 0)) return c->status;
        break;
    case ALIGNED:
        kw[0].key = "align";
        if (parse_keywords(c, kw, 1, name, 1)) return c->status;
        break;
    }
    if (layout_tx_expect(c, ')', which == NAIVE ? "')' or ', gvl=' / ', gvs='"
                          : which == PACKED ? "')' or ', gvl='" : "')' closing the base"))
        return c->status;
    if ((which == NAIVE || which == NAIVE_OFF) && n_s != n_l)
        return layout_tx_fail_at(c, strides_at, LAYOUT_ERR_MISMATCH, "%s has %d lengths but %d strides", name, n_l,
                                 n_s);
    switch (which) {
    case NAIVE:
        st = layout_naive_vec(out, n_l, lens, strides, kw[0].seen ? kw[0].value : -1, kw[1].seen ? kw[1].value : -1,
                              &e);
        break;
    case NAIVE_OFF: st = layout_naive_offset(out, n_l, lens, strides, kw[0].value, &e); break;
    case PACKED: st = layout_packed_vec(out, n_l, lens, kw[0].seen ? kw[0].value : -1, &e); break;
    default: st = layout_aligned(out, n_l, lens, kw[0].value, &e); break;
    }
    if (st) return layout_tx_lib_fail(c, base_error_at(c->text, &e, at, lens_at, strides_at, kw, 2), &e);
    return LAYOUT_OK;
}

layout_status layout_desc_from_text(const char *text, layout_descriptor *out, size_t *where, layout_error *err)
{
    layout_descriptor cur, scratch;
    text_cursor c;
    if (!text) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": text is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": out is NULL");
    layout_tx_init(&c, text, FN_PARSE, err, where);
    if (parse_base(&c, &cur)) return c.status;
    while (layout_tx_accept(&c, '|'))
        if (parse_stage(&c, &cur, &scratch)) return c.status;
    if (c.status == LAYOUT_OK && layout_tx_peek(&c) != '\0')
        return layout_tx_expected(&c, c.pos, "'|' then a stage T{...}, or the end of the descriptor");
    *out = cur;
    return layout_ok(err);
}
