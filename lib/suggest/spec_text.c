/* The text form of a search spec (suggest.h: layout_suggest_spec_from_text):
 * `key=value` items separated by ';' or newlines at parenthesis depth 0. */
#include "suggest_internal.h"
#include "layout/text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char fn[] = "layout_suggest_spec_from_text";

typedef struct item {
    size_t key, key_len, val, val_len; /* byte offsets into the text */
} item;

#define MAX_ITEMS 64

static layout_status perr(layout_error *err, size_t *where, size_t at, const char *msg, const char *detail)
{
    if (where) *where = at;
    return layout_fail(err, LAYOUT_ERR_PARSE, "%s: column %zu: %s%s", fn, at + 1, msg, detail ? detail : "");
}

/* Split into items; each "key=value" trimmed. */
static layout_status split(const char *text, item *items, int *n_items, size_t *where, layout_error *err)
{
    size_t i = 0, n = strlen(text);
    int count = 0;
    while (i <= n) {
        size_t start = i;
        int depth = 0;
        while (i < n && !(depth == 0 && (text[i] == ';' || text[i] == '\n'))) {
            if (text[i] == '(' || text[i] == '[') depth++;
            if ((text[i] == ')' || text[i] == ']') && depth > 0) depth--;
            i++;
        }
        size_t a = start, b = i;
        while (a < b && isspace((unsigned char)text[a])) a++;
        while (b > a && isspace((unsigned char)text[b - 1])) b--;
        if (a < b) {
            size_t eq = a;
            while (eq < b && text[eq] != '=') eq++;
            if (eq == b) return perr(err, where, a, "expected key=value", NULL);
            size_t ke = eq;
            while (ke > a && isspace((unsigned char)text[ke - 1])) ke--;
            size_t vs = eq + 1;
            while (vs < b && isspace((unsigned char)text[vs])) vs++;
            if (ke == a) return perr(err, where, a, "missing key before '='", NULL);
            if (vs == b) return perr(err, where, eq, "missing value after '='", NULL);
            if (count == MAX_ITEMS) return perr(err, where, a, "more than 64 items", NULL);
            items[count].key = a;
            items[count].key_len = ke - a;
            items[count].val = vs;
            items[count].val_len = b - vs;
            count++;
        }
        i++; /* past the separator (or the end) */
    }
    *n_items = count;
    return LAYOUT_OK;
}

static int key_is(const char *text, const item *it, const char *key)
{
    return strlen(key) == it->key_len && strncmp(text + it->key, key, it->key_len) == 0;
}

/* The item's value as a NUL-terminated copy. */
static layout_status value_copy(const char *text, const item *it, char *buf, size_t cap, size_t *where,
                                layout_error *err)
{
    if (it->val_len >= cap) return perr(err, where, it->val, "value too long", NULL);
    memcpy(buf, text + it->val, it->val_len);
    buf[it->val_len] = '\0';
    return LAYOUT_OK;
}

/* Comma-separated integers in [lo, hi]; at most cap of them. */
static layout_status int_list(const char *text, const item *it, int64_t lo, int64_t hi, int64_t *vals, int cap,
                              int *n, size_t *where, layout_error *err)
{
    size_t i = it->val, end = it->val + it->val_len;
    int count = 0;
    for (;;) {
        while (i < end && isspace((unsigned char)text[i])) i++;
        size_t s = i;
        int neg = 0;
        if (i < end && text[i] == '-') {
            neg = 1;
            i++;
        }
        if (i >= end || !isdigit((unsigned char)text[i])) return perr(err, where, s, "expected a number", NULL);
        int64_t v = 0;
        while (i < end && isdigit((unsigned char)text[i])) {
            if (v > (INT64_MAX - 9) / 10) return perr(err, where, s, "number too large", NULL);
            v = v * 10 + (text[i] - '0');
            i++;
        }
        if (neg) v = -v;
        if (v < lo || v > hi) {
            char d[96];
            snprintf(d, sizeof d, " %lld (must be in %lld..%lld)", (long long)v, (long long)lo, (long long)hi);
            return perr(err, where, s, "number out of range:", d);
        }
        if (count == cap) return perr(err, where, s, "too many numbers", NULL);
        vals[count++] = v;
        while (i < end && isspace((unsigned char)text[i])) i++;
        if (i == end) break;
        if (text[i] != ',') return perr(err, where, i, "expected ','", NULL);
        i++;
    }
    *n = count;
    return LAYOUT_OK;
}

static layout_status one_int(const char *text, const item *it, int64_t lo, int64_t hi, int64_t *v, size_t *where,
                             layout_error *err)
{
    int n = 0;
    return int_list(text, it, lo, hi, v, 1, &n, where, err);
}

/* Re-anchor a nested decoder's error at the value's offset. */
static layout_status nested(layout_status s, const item *it, size_t inner, size_t *where, layout_error *err,
                            const char *what)
{
    if (where) *where = it->val + inner;
    if (err) {
        char msg[LAYOUT_ERROR_MESSAGE_CAP];
        memcpy(msg, err->message, sizeof msg);
        layout_fail(err, s, "%s: %s: %s", fn, what, msg);
    }
    return s;
}

static const struct {
    const char *name;
    layout_ds_op op;
} op_names[] = {{"b8", LAYOUT_DS_B8},   {"b16", LAYOUT_DS_B16},   {"b32", LAYOUT_DS_B32}, {"b64", LAYOUT_DS_B64},
                {"b96", LAYOUT_DS_B96}, {"b128", LAYOUT_DS_B128}, {"pair", LAYOUT_DS_PAIR_B32}};

layout_status layout_suggest_spec_from_text(const char *text, layout_suggest_text_spec *out, size_t *where,
                                            layout_error *err)
{
    if (!text) return layout_fail(err, LAYOUT_ERR_NULL, "%s: text is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    item items[MAX_ITEMS];
    int n_items = 0;
    layout_status s = split(text, items, &n_items, where, err);
    if (s) return s;

    /* Decoded into locals, copied into *out at the end (pointers fixed then). */
    static const layout_suggest_spec zero_spec;
    layout_suggest_spec spec = zero_spec;
    layout_arch arch;
    layout_distribution dists[LAYOUT_SUGGEST_MAX_SIDES];
    char buf[LAYOUT_TEXT_CAP];
    int have_shape = 0, view_set[LAYOUT_SUGGEST_MAX_SIDES] = {0};
    const item *arch_item = NULL;
    for (int i = 0; i < n_items; i++)
        if (key_is(text, &items[i], "arch")) arch_item = &items[i];
    if (arch_item) {
        size_t inner = 0;
        if ((s = value_copy(text, arch_item, buf, sizeof buf, where, err))) return s;
        if ((s = layout_arch_from_text(buf, &arch, &inner, err))) return nested(s, arch_item, inner, where, err, "arch");
    } else if ((s = layout_arch_preset("gfx942", &arch, err))) {
        return s; /* (the preset exists) */
    }
    spec.elem_bytes = 2;
    spec.families = (1u << LAYOUT_FAMILY_COUNT) - 1u;
    spec.top_k = 8;
    spec.threads = 1;
    for (int i = 0; i < n_items; i++) {
        const item *it = &items[i];
        int64_t v[LAYOUT_MAX_DIMS];
        int nv = 0;
        layout_suggest_side *last = spec.n_sides ? &spec.sides[spec.n_sides - 1] : NULL;
        if (key_is(text, it, "arch")) continue;
        if (key_is(text, it, "elem")) {
            if ((s = one_int(text, it, 1, 16, v, where, err))) return s;
            spec.elem_bytes = (int)v[0];
        } else if (key_is(text, it, "shape")) {
            if ((s = int_list(text, it, 1, LAYOUT_SUGGEST_MAX_TILE, v, LAYOUT_MAX_DIMS, &nv, where, err))) return s;
            spec.n_dims = nv;
            memcpy(spec.tile, v, sizeof v[0] * (size_t)nv);
            have_shape = 1;
        } else if (key_is(text, it, "budget")) {
            if ((s = one_int(text, it, 0, (int64_t)1 << 40, v, where, err))) return s;
            spec.budget_bytes = v[0];
        } else if (key_is(text, it, "top")) {
            if ((s = one_int(text, it, 1, LAYOUT_SUGGEST_MAX_TOP, v, where, err))) return s;
            spec.top_k = (int)v[0];
        } else if (key_is(text, it, "threads")) {
            if ((s = one_int(text, it, 1, LAYOUT_SUGGEST_MAX_THREADS, v, where, err))) return s;
            spec.threads = (int)v[0];
        } else if (key_is(text, it, "max")) {
            if ((s = one_int(text, it, 0, INT64_MAX / 2, v, where, err))) return s;
            spec.max_candidates = v[0];
        } else if (key_is(text, it, "families")) {
            unsigned fam = 0;
            size_t p = it->val, end = it->val + it->val_len;
            while (p < end) {
                while (p < end && (isspace((unsigned char)text[p]) || text[p] == ',')) p++;
                size_t q = p;
                while (q < end && text[q] != ',' && !isspace((unsigned char)text[q])) q++;
                if (q == p) break;
                char name[32];
                if (q - p >= sizeof name) return perr(err, where, p, "unknown family name", NULL);
                memcpy(name, text + p, q - p);
                name[q - p] = '\0';
                layout_family_kind k;
                if (strcmp(name, "all") == 0) {
                    fam |= (1u << LAYOUT_FAMILY_COUNT) - 1u;
                } else if (layout_family_from_name(name, &k, NULL)) {
                    return perr(err, where, p, "unknown family name: ", name);
                } else {
                    fam |= 1u << k;
                }
                p = q;
            }
            spec.families = fam;
        } else if (key_is(text, it, "write") || key_is(text, it, "read")) {
            if (spec.n_sides == LAYOUT_SUGGEST_MAX_SIDES) return perr(err, where, it->key, "more than 4 sides", NULL);
            size_t inner = 0;
            if ((s = value_copy(text, it, buf, sizeof buf, where, err))) return s;
            if ((s = layout_dist_from_text(buf, arch.wave_size, 0, &dists[spec.n_sides], &inner, err)))
                return nested(s, it, inner, where, err, key_is(text, it, "write") ? "write" : "read");
            layout_suggest_side *sd = &spec.sides[spec.n_sides];
            memset(sd, 0, sizeof *sd);
            sd->direction = key_is(text, it, "write") ? LAYOUT_WRITE : LAYOUT_READ;
            spec.n_sides++;
        } else if (!last && (key_is(text, it, "view") || key_is(text, it, "policy") || key_is(text, it, "op") ||
                             key_is(text, it, "base"))) {
            return perr(err, where, it->key, "this key needs a write= or read= side before it", NULL);
        } else if (key_is(text, it, "view")) {
            if ((s = int_list(text, it, 0, LAYOUT_MAX_DIMS - 1, v, LAYOUT_MAX_DIMS, &nv, where, err))) return s;
            last->has_view = 1;
            for (int k = 0; k < nv; k++) last->view[k] = (int)v[k];
            for (int k = nv; k < LAYOUT_MAX_DIMS; k++) last->view[k] = -1; /* a short view fails prepare */
            view_set[spec.n_sides - 1] = 1;
        } else if (key_is(text, it, "policy")) {
            if (it->val_len == 5 && strncmp(text + it->val, "trust", 5) == 0)
                last->opt.policy = LAYOUT_VECTOR_TRUST;
            else if (it->val_len == 5 && strncmp(text + it->val, "split", 5) == 0)
                last->opt.policy = LAYOUT_VECTOR_SPLIT;
            else
                return perr(err, where, it->val, "policy must be trust or split", NULL);
        } else if (key_is(text, it, "op")) {
            size_t k;
            for (k = 0; k < sizeof op_names / sizeof op_names[0]; k++)
                if (strlen(op_names[k].name) == it->val_len && strncmp(text + it->val, op_names[k].name, it->val_len) == 0)
                    break;
            if (k == sizeof op_names / sizeof op_names[0])
                return perr(err, where, it->val, "op must be b8, b16, b32, b64, b96, b128 or pair", NULL);
            last->opt.op = op_names[k].op;
        } else if (key_is(text, it, "base")) {
            if ((s = one_int(text, it, 0, UINT32_MAX, v, where, err))) return s;
            last->opt.base_bytes = v[0];
        } else {
            char key[32];
            snprintf(key, sizeof key, "%.*s", (int)(it->key_len < 31 ? it->key_len : 31), text + it->key);
            return perr(err, where, it->key, "unknown key: ", key);
        }
    }
    if (!have_shape) return perr(err, where, strlen(text), "missing shape=", NULL);
    if (spec.n_sides == 0) return perr(err, where, strlen(text), "no side: give write= and/or read=", NULL);
    for (int i = 0; i < spec.n_sides; i++) {
        const layout_distribution *d = &dists[i];
        if (view_set[i] || spec.n_dims != 2 || d->n_x != 2) continue;
        if ((d->x_lengths[0] != spec.tile[0] || d->x_lengths[1] != spec.tile[1]) && d->x_lengths[0] == spec.tile[1] &&
            d->x_lengths[1] == spec.tile[0]) {
            spec.sides[i].has_view = 1;
            spec.sides[i].view[0] = 1;
            spec.sides[i].view[1] = 0;
        }
    }
    out->arch = arch;
    for (int i = 0; i < spec.n_sides; i++) out->dists[i] = dists[i];
    out->spec = spec;
    out->spec.arch = &out->arch;
    for (int i = 0; i < spec.n_sides; i++) out->spec.sides[i].dist = &out->dists[i];
    return layout_ok(err);
}
