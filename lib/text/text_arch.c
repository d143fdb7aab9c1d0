/* Architecture text form.
 *
 *   arch_text := PRESET | 'arch' '(' item { ',' item } ')'
 *   item      := 'base' '=' PRESET                 (first item only)
 *              | 'name' '=' NAME | 'banks' '=' INT | 'bank_bytes' '=' INT | 'wave' '=' INT
 *              | dir widths '=' groups [ 'fold' '[' INT {',' INT} ']' '=' groups ]
 *   dir       := 'read' | 'write' | 'rw'
 *   widths    := WIDTH { '/' WIDTH }               WIDTH := b8 | b16 | b32 | b64 | b96 | b128
 *   groups    := 'none' | 'seq' '(' INT ')' | set { set }
 *   set       := '{' range { ',' range } '}'       range := INT [ '-' INT ]
 *   NAME      := [A-Za-z0-9_.:+-]+ | '"' any but '"' '"'
 *
 * e.g. arch(name=mygpu, banks=32, wave=32, rw b8/b16/b32=seq(32), rw b64=seq(16), rw b96/b128=seq(8))
 */
#include "text_internal.h"
#include "layout/text.h"

#include <stdio.h>
#include <string.h>

#define FN_PARSE "layout_arch_from_text"
#define FN_PRINT "layout_arch_to_text"
#define USER_SOURCE "user-defined (text form)"
#define MAX_ITEMS (2 * LAYOUT_N_WIDTHS * 2)

/* Lane groups as written: none, seq(N) or explicit sets. */
typedef struct groups_text {
    int kind; /* 0 none, 1 seq, 2 sets */
    int seq;
    int n;
    uint64_t sets[LAYOUT_MAX_LANE_GROUPS];
} groups_text;

typedef struct rule_item {
    size_t at;           /* offset of the item, for errors */
    unsigned dirs;       /* bit 0 read, bit 1 write */
    unsigned widths;     /* bit = width index */
    groups_text groups;
    int n_xors;          /* > 0: a fold follows */
    int xors[LAYOUT_MAX_FOLDS];
    groups_text fold;
} rule_item;

/* ':' and '+' for the Triton / ROCm target names presets answer to ("cuda:90",
 * "hip:gfx942", "gfx90a:sramecc+:xnack-"). */
static int name_char(char ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
           ch == '-' || ch == '.' || ch == ':' || ch == '+';
}

/* NAME: bare [A-Za-z0-9_.:+-]+ or "quoted". */
static layout_status parse_name(text_cursor *c, char *buf, size_t cap, size_t *at, const char *what)
{
    size_t n = 0;
    layout_tx_skip(c);
    *at = c->pos;
    if (c->status) return c->status;
    if (c->text[c->pos] == '"') {
        size_t p = c->pos + 1;
        while (c->text[p] != '\0' && c->text[p] != '"' && c->text[p] != '\n') p++;
        if (c->text[p] != '"') return layout_tx_expected(c, p, "'\"' closing the name");
        n = p - c->pos - 1;
        if (n == 0 || n + 1 > cap)
            return layout_tx_fail_at(c, *at, LAYOUT_ERR_ARG, "a name must have 1..%zu characters", cap - 1);
        memcpy(buf, c->text + c->pos + 1, n);
        buf[n] = '\0';
        c->pos = p + 1;
        return LAYOUT_OK;
    }
    while (name_char(c->text[c->pos + n])) n++;
    if (n == 0) return layout_tx_expected(c, c->pos, what);
    if (n + 1 > cap) return layout_tx_fail_at(c, *at, LAYOUT_ERR_ARG, "a name must have 1..%zu characters", cap - 1);
    memcpy(buf, c->text + c->pos, n);
    buf[n] = '\0';
    c->pos += n;
    return LAYOUT_OK;
}

static int width_index_of(const char *w)
{
    static const char *const names[LAYOUT_N_WIDTHS] = {"b8", "b16", "b32", "b64", "b96", "b128"};
    int i;
    for (i = 0; i < LAYOUT_N_WIDTHS; i++)
        if (strcmp(names[i], w) == 0) return i;
    return -1;
}

/* A lane number 0..63. */
static layout_status parse_lane(text_cursor *c, int *lane)
{
    int64_t v;
    if (layout_tx_int_in(c, 0, LAYOUT_MAX_LANES - 1, LAYOUT_ERR_ARG, "lane", &v)) return c->status;
    *lane = (int)v;
    return LAYOUT_OK;
}

static layout_status parse_groups(text_cursor *c, groups_text *g)
{
    char word[8];
    size_t at;
    memset(g, 0, sizeof *g);
    if (layout_tx_peek(c) == '{') {
        g->kind = 2;
        while (layout_tx_peek(c) == '{') {
            uint64_t mask = 0;
            layout_tx_skip(c);
            if (g->n >= LAYOUT_MAX_LANE_GROUPS)
                return layout_tx_fail_at(c, c->pos, LAYOUT_ERR_CAPACITY, "more than %d lane groups", LAYOUT_MAX_LANE_GROUPS);
            c->pos++;
            for (;;) {
                int lo = 0, hi; /* gcc -O3: parse_lane may return c->status without setting it */
                if (parse_lane(c, &lo)) return c->status;
                hi = lo;
                if (layout_tx_accept(c, '-') && parse_lane(c, &hi)) return c->status;
                if (hi < lo) return layout_tx_fail_at(c, c->pos, LAYOUT_ERR_ARG, "lane range %d-%d runs backwards", lo, hi);
                for (; lo <= hi; lo++) mask |= (uint64_t)1 << lo;
                if (layout_tx_accept(c, '}')) break;
                if (layout_tx_expect(c, ',', "',' or '}' in a lane group")) return c->status;
            }
            g->sets[g->n++] = mask;
        }
        return LAYOUT_OK;
    }
    if (layout_tx_ident(c, word, sizeof word, &at, "lane groups: none, seq(N) or {lanes}{lanes}...")) return c->status;
    if (strcmp(word, "none") == 0) return LAYOUT_OK;
    if (strcmp(word, "seq") == 0) {
        int64_t v;
        g->kind = 1;
        if (layout_tx_expect(c, '(', "'(' after seq") ||
            layout_tx_int_in(c, 1, LAYOUT_MAX_LANES, LAYOUT_ERR_ARG, "seq() lanes per group", &v))
            return c->status;
        g->seq = (int)v;
        return layout_tx_expect(c, ')', "')' closing seq(");
    }
    return layout_tx_expected(c, at, "lane groups: none, seq(N) or {lanes}{lanes}...");
}

/* dir widths = groups [fold[...] = groups]; the direction word was read already. */
static layout_status parse_rule(text_cursor *c, const char *dir, size_t at, rule_item *it)
{
    char w[8];
    size_t wat;
    memset(it, 0, sizeof *it);
    it->at = at;
    it->dirs = strcmp(dir, "read") == 0 ? 1u : strcmp(dir, "write") == 0 ? 2u : 3u;
    do {
        int wi;
        if (layout_tx_ident(c, w, sizeof w, &wat, "a width: b8, b16, b32, b64, b96 or b128")) return c->status;
        wi = width_index_of(w);
        if (wi < 0) return layout_tx_expected(c, wat, "a width: b8, b16, b32, b64, b96 or b128");
        it->widths |= 1u << wi;
    } while (layout_tx_accept(c, '/'));
    if (layout_tx_expect(c, '=', "'=' then the lane groups (or '/' and another width)")) return c->status;
    if (parse_groups(c, &it->groups)) return c->status;
    layout_tx_skip(c);
    if (strncmp(c->text + c->pos, "fold", 4) == 0 && !name_char(c->text[c->pos + 4])) {
        c->pos += 4;
        if (layout_tx_expect(c, '[', "'[' starting the fold xor masks")) return c->status;
        for (;;) {
            int64_t v;
            layout_tx_skip(c);
            if (it->n_xors >= LAYOUT_MAX_FOLDS)
                return layout_tx_fail_at(c, c->pos, LAYOUT_ERR_CAPACITY, "more than %d fold masks", LAYOUT_MAX_FOLDS);
            if (layout_tx_int_in(c, 1, LAYOUT_MAX_LANES - 1, LAYOUT_ERR_ARG, "fold mask", &v)) return c->status;
            it->xors[it->n_xors++] = (int)v;
            if (layout_tx_accept(c, ']')) break;
            if (layout_tx_expect(c, ',', "',' or ']' in the fold masks")) return c->status;
        }
        if (layout_tx_expect(c, '=', "'=' then the folded lane groups")) return c->status;
        if (parse_groups(c, &it->fold)) return c->status;
        if (it->fold.kind == 0) return layout_tx_fail_at(c, c->pos, LAYOUT_ERR_ARG, "folded groups cannot be none");
    }
    return LAYOUT_OK;
}

/* Explicit masks of a groups_text for a wave (seq expands). */
static int expand_groups(const groups_text *g, int wave, uint64_t *out)
{
    int i, n = 0;
    if (g->kind == 2) {
        memcpy(out, g->sets, sizeof(uint64_t) * (size_t)g->n);
        return g->n;
    }
    for (i = 0; i < wave && n < LAYOUT_MAX_LANE_GROUPS; i += g->seq) {
        int k;
        uint64_t m = 0;
        for (k = i; k < i + g->seq && k < LAYOUT_MAX_LANES; k++) m |= (uint64_t)1 << k;
        out[n++] = m;
    }
    return n;
}

static layout_status apply_rule(text_cursor *c, layout_arch *a, const rule_item *it)
{
    int d, w;
    layout_error e;
    for (d = 0; d < 2; d++) {
        if (!(it->dirs & (1u << d))) continue;
        for (w = 0; w < LAYOUT_N_WIDTHS; w++) {
            layout_direction dir = (layout_direction)d;
            int width = layout_width_from_index(w);
            layout_status st = LAYOUT_OK;
            if (!(it->widths & (1u << w))) continue;
            if (it->groups.kind == 0) {
                memset(&a->rules[d][w], 0, sizeof a->rules[d][w]);
                continue;
            }
            if (it->groups.kind == 1 && a->wave_size % it->groups.seq != 0)
                return layout_tx_fail_at(c, it->at, LAYOUT_ERR_ARG, "seq(%d) does not divide the wave size %d",
                                  it->groups.seq, a->wave_size);
            if (it->groups.kind == 1)
                st = layout_arch_set_consecutive(a, dir, width, it->groups.seq, LAYOUT_CONFIDENCE_MEDIUM, USER_SOURCE,
                                                 &e);
            else
                st = layout_arch_set_groups(a, dir, width, it->groups.sets, it->groups.n, LAYOUT_CONFIDENCE_MEDIUM,
                                            USER_SOURCE, &e);
            if (st == LAYOUT_OK && it->n_xors > 0) {
                uint64_t fg[LAYOUT_MAX_LANE_GROUPS];
                int nf;
                if (it->fold.kind == 1 && a->wave_size % it->fold.seq != 0)
                    return layout_tx_fail_at(c, it->at, LAYOUT_ERR_ARG, "fold seq(%d) does not divide the wave size %d",
                                      it->fold.seq, a->wave_size);
                nf = expand_groups(&it->fold, a->wave_size, fg);
                st = layout_arch_set_fold(a, dir, width, it->xors, it->n_xors, fg, nf, LAYOUT_CONFIDENCE_MEDIUM, &e);
            }
            if (st) return layout_tx_lib_fail(c, it->at, &e);
        }
    }
    return LAYOUT_OK;
}

static layout_status parse_arch(text_cursor *c, layout_arch *out)
{
    char word[LAYOUT_ARCH_NAME_CAP], name[LAYOUT_ARCH_NAME_CAP];
    size_t at, start;
    int64_t banks = 0, bank_bytes = 0, wave = 0;
    size_t banks_at = 0, wave_at = 0, bytes_at = 0;
    int have_name = 0, have_base = 0, have_ds = 0, n_items = 0, i;
    int64_t idle = -1;
    unsigned ds = 0;
    rule_item items[MAX_ITEMS];
    layout_arch a;
    layout_error e;

    if (parse_name(c, word, sizeof word, &start, "'arch(' or a preset name (gfx942, gfx950, sm_90, ...)"))
        return c->status;
    if (strcmp(word, "arch") != 0 || layout_tx_peek(c) != '(') {
        /* A bare preset name. */
        if (layout_arch_preset(word, out, &e)) return layout_tx_lib_fail(c, start, &e);
        return LAYOUT_OK;
    }
    c->pos++;
    strcpy(name, "custom");
    for (;;) {
        if (parse_name(c, word, sizeof word, &at, "an arch item: base=, name=, banks=, bank_bytes=, wave=, or a rule"))
            return c->status;
        if (strcmp(word, "read") == 0 || strcmp(word, "write") == 0 || strcmp(word, "rw") == 0) {
            if (n_items >= MAX_ITEMS) return layout_tx_fail_at(c, at, LAYOUT_ERR_CAPACITY, "more than %d rules", MAX_ITEMS);
            if (parse_rule(c, word, at, &items[n_items])) return c->status;
            n_items++;
        } else if (strcmp(word, "base") == 0) {
            char preset[LAYOUT_ARCH_NAME_CAP];
            size_t pat;
            if (have_base || have_name || banks || wave || bank_bytes || n_items)
                return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "base= must be the first item");
            if (layout_tx_expect(c, '=', "'=' after base")) return c->status;
            if (parse_name(c, preset, sizeof preset, &pat, "a preset name")) return c->status;
            if (layout_arch_preset(preset, &a, &e)) return layout_tx_lib_fail(c, pat, &e);
            have_base = 1;
        } else if (strcmp(word, "ds") == 0) { /* the DS instruction forms (arch.h layout_ds_form) */
            char v[16];
            size_t vat;
            if (have_ds) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "ds= given twice");
            if (layout_tx_expect(c, '=', "'=' after ds")) return c->status;
            if (parse_name(c, v, sizeof v, &vat, "none, paired, unaligned or amd")) return c->status;
            if (strcmp(v, "none") == 0) ds = 0;
            else if (strcmp(v, "paired") == 0) ds = LAYOUT_DS_FORM_PAIRED;
            else if (strcmp(v, "unaligned") == 0) ds = LAYOUT_DS_FORM_UNALIGNED;
            else if (strcmp(v, "amd") == 0) ds = LAYOUT_DS_FORMS_AMD;
            else return layout_tx_fail_at(c, vat, LAYOUT_ERR_PARSE, "ds=%s: expected none, paired, unaligned or amd", v);
            have_ds = 1;
        } else if (strcmp(word, "idle") == 0) { /* cycles of a lane group without an active lane (arch.h) */
            if (idle >= 0) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "idle= given twice");
            if (layout_tx_expect(c, '=', "'=' after idle")) return c->status;
            layout_tx_skip(c);
            if (layout_tx_int_in(c, 0, 1, LAYOUT_ERR_ARG, "idle", &idle)) return c->status;
        } else if (strcmp(word, "name") == 0) {
            size_t nat;
            if (have_name) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "name= given twice");
            if (layout_tx_expect(c, '=', "'=' after name")) return c->status;
            if (parse_name(c, name, sizeof name, &nat, "the architecture's name")) return c->status;
            have_name = 1;
        } else if (strcmp(word, "banks") == 0 || strcmp(word, "bank_bytes") == 0 || strcmp(word, "wave") == 0) {
            int64_t *slot = word[0] == 'w' ? &wave : strcmp(word, "banks") == 0 ? &banks : &bank_bytes;
            size_t *slot_at = word[0] == 'w' ? &wave_at : strcmp(word, "banks") == 0 ? &banks_at : &bytes_at;
            char what[48];
            if (*slot) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "%s= given twice", word);
            if (n_items) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "%s= must come before the rules", word);
            snprintf(what, sizeof what, "'=' after %s", word);
            if (layout_tx_expect(c, '=', what)) return c->status;
            layout_tx_skip(c);
            *slot_at = c->pos;
            if (layout_tx_int_in(c, 1, 1024, LAYOUT_ERR_ARG, word, slot)) return c->status;
        } else {
            return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE,
                              "unknown arch item '%s' (expected base, name, banks, bank_bytes, wave, ds, idle, read, write or rw)",
                              word);
        }
        if (layout_tx_accept(c, ')')) break;
        if (layout_tx_expect(c, ',', "',' or ')' in arch(...)")) return c->status;
    }
    if (have_base) {
        /* Overrides of a preset: shape fields are copied and re-validated at the end. */
        if (have_name) memcpy(a.name, name, sizeof a.name);
        if (banks) a.n_banks = (int)banks;
        if (bank_bytes) a.bank_width_bytes = (int)bank_bytes;
        if (wave) a.wave_size = (int)wave;
    } else {
        if (!banks) return layout_tx_fail_at(c, start, LAYOUT_ERR_ARG, "arch(...) without base= needs banks=");
        if (!wave) return layout_tx_fail_at(c, start, LAYOUT_ERR_ARG, "arch(...) without base= needs wave=");
        if (layout_arch_init(&a, name, (int)banks, bank_bytes ? (int)bank_bytes : 4, (int)wave, &e))
            return layout_tx_lib_fail(c, strstr(e.message, "n_banks") ? banks_at
                                  : strstr(e.message, "wave") ? wave_at
                                  : strstr(e.message, "bank_width") ? bytes_at
                                                                     : start,
                               &e);
        a.bank_confidence = LAYOUT_CONFIDENCE_MEDIUM;
        snprintf(a.note, sizeof a.note, "%s", USER_SOURCE);
    }
    if (have_ds) a.ds_forms = ds;
    if (idle >= 0) a.idle_group_cycles = (int)idle;
    for (i = 0; i < n_items; i++)
        if (apply_rule(c, &a, &items[i])) return c->status;
    if (layout_arch_validate(&a, &e)) return layout_tx_lib_fail(c, start, &e);
    *out = a;
    return LAYOUT_OK;
}

layout_status layout_arch_from_text(const char *text, layout_arch *out, size_t *where, layout_error *err)
{
    layout_arch a;
    text_cursor c;
    if (!text) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": text is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, FN_PARSE ": out is NULL");
    layout_tx_init(&c, text, FN_PARSE, err, where);
    if (parse_arch(&c, &a) || layout_tx_expect_end(&c)) return c.status;
    *out = a;
    return layout_ok(err);
}

/* ------------------------------------------------------------------ print */

static int rule_equal(const layout_lane_rule *x, const layout_lane_rule *y)
{
    if (x->supported != y->supported) return 0;
    if (!x->supported) return 1;
    return x->n_groups == y->n_groups &&
           memcmp(x->groups, y->groups, sizeof(uint64_t) * (size_t)x->n_groups) == 0 &&
           x->n_fold_xors == y->n_fold_xors &&
           memcmp(x->fold_xor, y->fold_xor, sizeof(int) * (size_t)x->n_fold_xors) == 0 &&
           (x->n_fold_xors == 0 || (x->n_fold_groups == y->n_fold_groups &&
                                    memcmp(x->fold_groups, y->fold_groups,
                                           sizeof(uint64_t) * (size_t)x->n_fold_groups) == 0));
}

/* Everything the text form describes, and when `exact` provenance and the
 * ISA features too (what only a preset's name carries in the text). */
static int arch_equal(const layout_arch *x, const layout_arch *y, int exact)
{
    int d, w;
    if (strcmp(x->name, y->name) != 0 || x->n_banks != y->n_banks || x->bank_width_bytes != y->bank_width_bytes ||
        x->wave_size != y->wave_size || x->ds_forms != y->ds_forms || x->idle_group_cycles != y->idle_group_cycles)
        return 0;
    for (d = 0; d < 2; d++)
        for (w = 0; w < LAYOUT_N_WIDTHS; w++) {
            const layout_lane_rule *a = &x->rules[d][w], *b = &y->rules[d][w];
            if (!rule_equal(a, b)) return 0;
            if (exact && a->supported &&
                (a->confidence != b->confidence || strcmp(a->source, b->source) != 0 ||
                 (a->n_fold_xors && a->fold_confidence != b->fold_confidence)))
                return 0;
        }
    return !exact || (x->bank_confidence == y->bank_confidence && strcmp(x->note, y->note) == 0 &&
                      x->isa_features == y->isa_features);
}

static void print_groups(text_out *o, const uint64_t *g, int n, int wave)
{
    int i, size, consecutive = 1;
    if (n <= 0) {
        layout_to_str(o, "none");
        return;
    }
    size = wave / n;
    for (i = 0; i < n && consecutive; i++) {
        uint64_t want = (size >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << size) - 1)) << (i * size);
        consecutive = size * n == wave && g[i] == want;
    }
    if (consecutive) {
        layout_to_printf(o, "seq(%d)", size);
        return;
    }
    for (i = 0; i < n; i++) {
        int lane = 0, first = 1;
        layout_to_str(o, "{");
        while (lane < LAYOUT_MAX_LANES) {
            int end;
            if (!((g[i] >> lane) & 1u)) {
                lane++;
                continue;
            }
            end = lane;
            while (end + 1 < LAYOUT_MAX_LANES && ((g[i] >> (end + 1)) & 1u)) end++;
            layout_to_printf(o, first ? "%d" : ",%d", lane);
            if (end > lane) layout_to_printf(o, "-%d", end);
            first = 0;
            lane = end + 1;
        }
        layout_to_str(o, "}");
    }
}

static void print_rule(text_out *o, const layout_lane_rule *r, int wave)
{
    int i;
    if (!r->supported) {
        layout_to_str(o, "none");
        return;
    }
    print_groups(o, r->groups, r->n_groups, wave);
    if (r->n_fold_xors > 0) {
        layout_to_str(o, " fold[");
        for (i = 0; i < r->n_fold_xors; i++) layout_to_printf(o, i ? ",%d" : "%d", r->fold_xor[i]);
        layout_to_str(o, "]=");
        print_groups(o, r->fold_groups, r->n_fold_groups, wave);
    }
}

static int name_is_bare(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!name_char(*s)) return 0;
    return 1;
}

/* 0 on success, 1 when the name cannot be written. */
static int print_arch(text_out *o, const void *obj)
{
    const layout_arch *a = (const layout_arch *)obj;
    static const char *const wnames[LAYOUT_N_WIDTHS] = {"b8", "b16", "b32", "b64", "b96", "b128"};
    /* Entries: (direction key, width) in width order, rw when both sides agree. */
    int keys[2 * LAYOUT_N_WIDTHS], widths[2 * LAYOUT_N_WIDTHS], n = 0, i, w;
    layout_arch preset;
    if (strcmp(a->name, "arch") != 0 && layout_arch_preset(a->name, &preset, NULL) == LAYOUT_OK &&
        arch_equal(a, &preset, 1)) {
        layout_to_str(o, a->name);
        return 0;
    }
    if (name_is_bare(a->name)) layout_to_printf(o, "arch(name=%s", a->name);
    else if (!strchr(a->name, '"') && !strchr(a->name, '\n')) layout_to_printf(o, "arch(name=\"%s\"", a->name);
    else return 1;
    layout_to_printf(o, ", banks=%d, bank_bytes=%d, wave=%d", a->n_banks, a->bank_width_bytes, a->wave_size);
    if (a->ds_forms != LAYOUT_DS_FORMS_AMD) /* the default of arch(...) */
        layout_to_str(o, a->ds_forms == 0 ? ", ds=none" : a->ds_forms == LAYOUT_DS_FORM_PAIRED ? ", ds=paired" : ", ds=unaligned");
    if (a->idle_group_cycles != 1) layout_to_printf(o, ", idle=%d", a->idle_group_cycles);
    for (w = 0; w < LAYOUT_N_WIDTHS; w++) {
        if (rule_equal(&a->rules[0][w], &a->rules[1][w])) {
            keys[n] = 3;
            widths[n++] = w;
        } else {
            keys[n] = 1;
            widths[n++] = w;
            keys[n] = 2;
            widths[n++] = w;
        }
    }
    /* Merge entries with the same key and rule into "b8/b16/b32"; keep width order. */
    {
        int used[2 * LAYOUT_N_WIDTHS] = {0};
        for (i = 0; i < n; i++) {
            const layout_lane_rule *r;
            int j;
            if (used[i]) continue;
            r = &a->rules[keys[i] == 2 ? 1 : 0][widths[i]];
            layout_to_printf(o, ", %s %s", keys[i] == 3 ? "rw" : keys[i] == 1 ? "read" : "write", wnames[widths[i]]);
            for (j = i + 1; j < n; j++)
                if (!used[j] && keys[j] == keys[i] && rule_equal(&a->rules[keys[j] == 2 ? 1 : 0][widths[j]], r)) {
                    used[j] = 1;
                    layout_to_printf(o, "/%s", wnames[widths[j]]);
                }
            layout_to_str(o, "=");
            print_rule(o, r, a->wave_size);
        }
    }
    layout_to_str(o, ")");
    return 0;
}

layout_status layout_arch_to_text(const layout_arch *a, char *buf, size_t cap, layout_error *err)
{
    layout_error e;
    if (!a) return layout_fail(err, LAYOUT_ERR_NULL, FN_PRINT ": arch is NULL");
    if (!buf) return layout_fail(err, LAYOUT_ERR_NULL, FN_PRINT ": buf is NULL");
    if (layout_arch_validate(a, &e))
        return layout_fail(err, e.status, FN_PRINT ": arch is invalid: %s", e.message);
    return layout_to_render(print_arch, a, buf, cap, FN_PRINT, "the name contains '\"' or a newline", err);
}

int layout_arch_same_model(const layout_arch *a, const layout_arch *b)
{
    if (!a || !b) return 0;
    return arch_equal(a, b, 0);
}
