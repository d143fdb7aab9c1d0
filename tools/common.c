/* Helpers shared by the subcommands: errors, options, specs. */
#include "tool.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The library's messages name its C functions ("layout_dist_from_text:
 * column 41: layout_dist_make: ..."), which a user of the tool never
 * typed: drop every "layout_NAME: " / "layout_NAME(): " and say what a C
 * function list would have said in the tool's words. */
void tool_plain_words(char *s)
{
    static const char *const k_said[][2] = {
        {"layout_arch_preset_name() and layout_arch_alias_name() list all", "`layout arch` lists all"},
        {"enc->n_y = ", "Y lists = "},
    };
    char *r = s, *w = s;
    for (size_t i = 0; i < sizeof k_said / sizeof k_said[0]; i++) {
        char *at = strstr(s, k_said[i][0]);
        size_t from = strlen(k_said[i][0]), to = strlen(k_said[i][1]);
        if (at && to <= from) {
            memcpy(at, k_said[i][1], to);
            memmove(at + to, at + from, strlen(at + from) + 1);
        }
    }
    while (*r) {
        /* "layout_" at a word start, an identifier, optional "()", then ": " */
        if (strncmp(r, "layout_", 7) == 0 && (r == s || !(isalnum((unsigned char)r[-1]) || r[-1] == '_'))) {
            const char *q = r + 7;
            while (isalnum((unsigned char)*q) || *q == '_') q++;
            if (q[0] == '(' && q[1] == ')') q += 2;
            if (q[0] == ':' && q[1] == ' ') {
                r = (char *)q + 2;
                continue;
            }
        }
        *w++ = *r++;
    }
    *w = '\0';
}

int tool_error(const char *cmd, const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tool_plain_words(msg);
    fprintf(stderr, "layout %s: error: %s\n", cmd, msg);
    return TOOL_BAD_INPUT;
}

/* Optimal-string-alignment distance (insert, delete, substitute, swap two
 * neighbours), case-insensitive; names of up to 63 characters. */
static int osa_distance(const char *a, const char *b)
{
    int d[64][64];
    size_t n = strlen(a), m = strlen(b), i, j;
    if (n > 63 || m > 63) return 99;
    for (i = 0; i <= n; i++) d[i][0] = (int)i;
    for (j = 0; j <= m; j++) d[0][j] = (int)j;
    for (i = 1; i <= n; i++)
        for (j = 1; j <= m; j++) {
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

const char *tool_closest(const char *typed, const char *const *names, size_t n)
{
    const char *best = NULL;
    size_t len = strlen(typed);
    int best_d = 99, limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    for (size_t i = 0; i < n; i++) {
        int d;
        if (!names[i]) continue;
        d = osa_distance(typed, names[i]);
        /* a unique prefix of a longer name ("--sugg" for "--suggest") counts as close */
        if (d > limit && len >= 3 && strncmp(names[i], typed, len) == 0) d = limit;
        if (d <= limit && d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

void tool_hint(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    (void)cmd; /* the error line above names the command */
    fprintf(stderr, "  hint: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int tool_require(const char *cmd, const char *const *names, const char *const *values, int n, const char *example)
{
    char missing[256], all[256];
    size_t m = 0, a = 0;
    int i, k = 0, n_missing = 0;
    for (i = 0; i < n; i++) n_missing += values[i] == NULL;
    if (n_missing == 0) return 0;
    missing[0] = all[0] = '\0';
    for (i = 0; i < n; i++) {
        /* "--a", "--a and --b", "--a, --b and --c" */
        const char *sep_all = i == 0 ? "" : i == n - 1 ? " and " : ", ";
        a += (size_t)snprintf(all + a, a < sizeof all ? sizeof all - a : 0, "%s%s", sep_all, names[i]);
        if (a >= sizeof all) a = sizeof all - 1;
        if (values[i]) continue;
        k++;
        m += (size_t)snprintf(missing + m, m < sizeof missing ? sizeof missing - m : 0, "%s%s",
                              k == 1 ? "" : k == n_missing ? " and " : ", ", names[i]);
        if (m >= sizeof missing) m = sizeof missing - 1;
    }
    tool_error(cmd, "missing option%s %s (%s %s required)", n_missing == 1 ? "" : "s", missing, all,
               n == 1 ? "is" : "are");
    if (example) tool_hint(cmd, "%s", example);
    return TOOL_BAD_INPUT;
}

int tool_wants_help(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) return 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return 1;
    }
    return 0;
}

int tool_usage(const tool_command *cmd)
{
    printf("%s", cmd->usage);
    return TOOL_OK;
}

int tool_parse_args(const char *cmd, int argc, char **argv, const tool_option *opts, const char **pos, int max_pos,
                    int *n_pos)
{
    int i;
    *n_pos = 0;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const tool_option *o = NULL;
        size_t n = 0;
        if (a[0] == '-' && a[1] == '-') {
            for (o = opts; o->name; o++) {
                n = strlen(o->name);
                if (strncmp(a, o->name, n) == 0 && (a[n] == '\0' || (a[n] == '=' && o->value))) break;
            }
            if (!o->name) {
                const char *names[64], *near;
                size_t k = 0, alen = strcspn(a, "=");
                char typed[64];
                for (o = opts; o->name && k < 60; o++) names[k++] = o->name;
                names[k++] = "--help";
                names[k++] = "--dialect";
                names[k++] = "--shape";
                snprintf(typed, sizeof typed, "%.*s", (int)(alen < sizeof typed ? alen : sizeof typed - 1), a);
                near = tool_closest(typed, names, k);
                if (near)
                    return tool_error(cmd, "unknown option '%s'; did you mean %s? (see layout %s --help)", a, near, cmd);
                return tool_error(cmd, "unknown option '%s' (see layout %s --help)", a, cmd);
            }
            if (!o->value) {
                *o->flag = 1;
            } else if (a[n] == '=') {
                *o->value = a + n + 1;
            } else if (i + 1 < argc) {
                *o->value = argv[++i];
            } else {
                return tool_error(cmd, "option %s needs a value", o->name);
            }
        } else if (*n_pos < max_pos) {
            pos[(*n_pos)++] = a;
        } else {
            return tool_error(cmd, "unexpected argument '%s' (quote specs; see layout %s --help)", a, cmd);
        }
    }
    return 0;
}

int tool_int(const char *cmd, const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE) {
        /* the caret under the first character that is not part of the number */
        size_t at = errno == ERANGE ? 0 : (size_t)(end - text);
        tool_error(cmd, "%s '%s' is not an integer%s", opt, text, errno == ERANGE ? " (out of range)" : "");
        tool_caret(text, at);
        return -1;
    }
    if (v < lo || v > hi) {
        tool_error(cmd, "%s %lld is outside %lld..%lld", opt, v, (long long)lo, (long long)hi);
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

const char *tool_spec_text(const char *cmd, const char *arg, char *buf, size_t cap)
{
    FILE *f;
    size_t n;
    int is_stdin;
    if (arg[0] != '@') return arg;
    is_stdin = strcmp(arg, "@-") == 0;
    /* Every message names the file (or standard input) and the reason. */
    const char *name = is_stdin ? "standard input" : arg + 1;
    if (!is_stdin && arg[1] == '\0') {
        tool_error(cmd, "'@' needs a file name (@FILE, or @- for standard input)");
        return NULL;
    }
    errno = 0;
    f = is_stdin ? stdin : fopen(arg + 1, "rb");
    if (!f) {
        tool_error(cmd, "cannot open '%s': %s", name, strerror(errno));
        return NULL;
    }
    errno = 0;
    n = fread(buf, 1, cap - 1, f);
    if (ferror(f)) {
        /* fopen() accepts a directory on Linux; reading it fails with EISDIR. */
        int e = errno;
        if (!is_stdin) fclose(f);
        tool_error(cmd, "cannot read '%s': %s", name, e ? strerror(e) : "read error");
        return NULL;
    }
    if (n == cap - 1 && fgetc(f) != EOF) {
        if (!is_stdin) fclose(f);
        tool_error(cmd, "'%s' is too large: longer than %zu bytes", name, cap - 1);
        return NULL;
    }
    if (!is_stdin) fclose(f);
    buf[n] = '\0';
    if (n == 0) {
        tool_error(cmd, "'%s' is empty: expected a spec", name);
        return NULL;
    }
    if (strlen(buf) != n) {
        tool_error(cmd, "'%s' contains a NUL byte", name);
        return NULL;
    }
    return buf;
}

void tool_caret(const char *text, size_t where)
{
    char caret[2 * LAYOUT_TEXT_CARET_WIDTH + 32];
    if (layout_text_caret(text, where, caret, sizeof caret, NULL) == LAYOUT_OK) {
        const char *line = caret, *nl;
        while ((nl = strchr(line, '\n')) != NULL) {
            fprintf(stderr, "  %.*s\n", (int)(nl - line), line);
            line = nl + 1;
        }
    }
}

void tool_report_parse(const char *cmd, const char *what, const char *text, size_t where, const layout_error *e)
{
    char caret[2 * LAYOUT_TEXT_CARET_WIDTH + 32], msg[sizeof e->message];
    snprintf(msg, sizeof msg, "%s", e->message);
    tool_plain_words(msg);
    fprintf(stderr, "layout %s: error in %s: %s\n", cmd, what, msg);
    if (layout_text_caret(text, where, caret, sizeof caret, NULL) == LAYOUT_OK) {
        const char *line = caret, *nl;
        /* Indent both lines of the excerpt by two spaces. */
        while ((nl = strchr(line, '\n')) != NULL) {
            fprintf(stderr, "  %.*s\n", (int)(nl - line), line);
            line = nl + 1;
        }
    }
}

tool_vocab tool_vocab_of(const layout_arch *arch)
{
    tool_vocab v;
    v.vendor = layout_arch_vendor(arch);
    v.unit = layout_vendor_wave_word(v.vendor);
    v.extra = v.vendor == LAYOUT_VENDOR_NVIDIA ? "bank conflicts" : "extra cycles";
    return v;
}

int tool_counters(const layout_arch *arch, const layout_kernel_result *res, layout_counter *names, int64_t *values,
                  int max)
{
    int c, n = 0;
    for (c = 0; c < LAYOUT_CTR_COUNT && n < max; c++)
        if (layout_calibrate_predict(arch, res, (layout_counter)c, &values[n])) names[n++] = (layout_counter)c;
    return n;
}

/* "64 x 32" */
static void lengths_text(char *buf, size_t cap, int n, const int64_t *len)
{
    size_t k = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i < n && k < cap; i++) {
        k += (size_t)snprintf(buf + k, cap - k, "%s%" PRId64, i ? " x " : "", len[i]);
        if (k >= cap) k = cap - 1;
    }
}

int tool_explain_tile_mismatch(const char *cmd, const layout_descriptor *lds, const layout_descriptor *read_lds,
                               const layout_distribution *wdist, const layout_distribution *rdist)
{
    static char text[LAYOUT_TEXT_CAP], hint[LAYOUT_TEXT_CAP + 256];
    char want[128], have[128];
    int64_t lens[LAYOUT_MAX_DIMS];
    int n = layout_desc_ndims(lds), i, j;
    const layout_distribution *d = wdist;
    const char *side = "--write";
    for (i = 0; i < n; i++) lens[i] = layout_desc_length(lds, i);
    /* The write side must fit --lds; the read side --read-lds, else --lds. */
    for (int pass = 0; pass < 2; pass++) {
        const layout_descriptor *view = pass == 0 || !read_lds ? lds : read_lds;
        int nv = layout_desc_ndims(view), bad = d->n_x != nv;
        for (i = 0; !bad && i < nv; i++) bad = d->x_lengths[i] > layout_desc_length(view, i);
        if (bad) {
            int64_t vl[LAYOUT_MAX_DIMS];
            for (i = 0; i < nv && i < LAYOUT_MAX_DIMS; i++) vl[i] = layout_desc_length(view, i);
            lengths_text(want, sizeof want, d->n_x, d->x_lengths);
            lengths_text(have, sizeof have, nv, vl);
            if (layout_desc_to_text(view, text, sizeof text, NULL) != LAYOUT_OK) strcpy(text, "(descriptor)");
            tool_error(cmd, "the %s distribution covers a %s tile, but %s %s is %s", side, want,
                       view == lds ? "--lds" : "--read-lds", text, have);
            if (pass == 0) {
                tool_hint(cmd, "--lds describes the tile the --write distribution stores: its dims must be the "
                               "write tile's (%s)", want);
                return 1;
            }
            if (read_lds) {
                tool_hint(cmd, "--read-lds must describe the tile the --read distribution loads (%s)", want);
                return 1;
            }
            /* A read tile whose lengths permute the write tile's: the same
             * memory read through a permuted view, e.g. the transpose. */
            if (d->n_x == n && n <= LAYOUT_MAX_DIMS) {
                int used[LAYOUT_MAX_DIMS] = {0}, from[LAYOUT_MAX_DIMS], ok = 1;
                for (i = 0; i < n && ok; i++) {
                    from[i] = -1;
                    for (j = 0; j < n; j++)
                        if (!used[j] && lens[j] == d->x_lengths[i]) {
                            used[j] = 1;
                            from[i] = j;
                            break;
                        }
                    ok = from[i] >= 0;
                }
                if (ok && layout_desc_to_text(lds, text, sizeof text, NULL) == LAYOUT_OK) {
                    size_t k = (size_t)snprintf(hint, sizeof hint, "%s | T{", text);
                    for (i = 0; i < n && k < sizeof hint; i++)
                        k += (size_t)snprintf(hint + k, sizeof hint - k, "%spass(%" PRId64 "):[%d]->[%d]", i ? "; " : "",
                                              lens[from[i]], from[i], i);
                    if (k < sizeof hint) snprintf(hint + k, sizeof hint - k, "}");
                    tool_hint(cmd, "the read side sees the same LDS memory through another view: give it with "
                                   "--read-lds SPEC, e.g. the %s view --read-lds '%s'",
                              n == 2 ? "transposed" : "permuted", hint);
                    return 1;
                }
            }
            tool_hint(cmd, "give the read side its own view of the same LDS memory with --read-lds SPEC (its dims "
                           "= the read tile's, %s)", want);
            return 1;
        }
        d = rdist;
        side = "--read";
    }
    return 0;
}

/* What a spec argument describes. */
enum spec_kind { SPEC_DESC, SPEC_ARCH, SPEC_DIST };

/* Resolve @FILE, parse as `kind`, report failures with a caret. */
static int parse_spec(const char *cmd, const char *what, const char *arg, enum spec_kind kind, void *out, int wave)
{
    static char buf[LAYOUT_TEXT_CAP];
    const char *text = tool_spec_text(cmd, arg, buf, sizeof buf);
    layout_error e;
    size_t where = 0;
    layout_status st;
    if (!text) return TOOL_BAD_INPUT;
    switch (kind) {
    case SPEC_DESC:
        if (tool_spec_dialect(text) != LAYOUT_DIALECT_CK) {
            st = tool_desc_from_dialect(tool_spec_dialect(text), text, (layout_descriptor *)out, &where, &e);
            break;
        }
        st = layout_desc_from_text(text, (layout_descriptor *)out, &where, &e);
        break;
    case SPEC_ARCH: st = layout_arch_from_text(text, (layout_arch *)out, &where, &e); break;
    default:
        if (tool_spec_dialect(text) != LAYOUT_DIALECT_CK) {
            st = tool_dist_from_dialect(tool_spec_dialect(text), text, (layout_distribution *)out, &where, &e);
            break;
        }
        st = layout_dist_from_text(text, wave, 0, (layout_distribution *)out, &where, &e);
        break;
    }
    if (st == LAYOUT_OK) return 0;
    if (kind == SPEC_ARCH && st == LAYOUT_ERR_NOT_FOUND && !strchr(text, '(')) {
        /* a name, not arch(...) text: say it in the user's words, e.g.
         * "--arch gfx924: unknown architecture; did you mean gfx942?" */
        const char *alias = NULL, *near = layout_arch_closest_name(text, &alias);
        char said[128];
        if (strcmp(what, "--arch") == 0) snprintf(said, sizeof said, "--arch %.60s", text);
        else snprintf(said, sizeof said, "'%.60s'", text);
        if (near && alias) tool_error(cmd, "%s: unknown architecture; did you mean %s (%s)?", said, alias, near);
        else if (near) tool_error(cmd, "%s: unknown architecture; did you mean %s?", said, near);
        else tool_error(cmd, "%s: unknown architecture", said);
        tool_hint(cmd, "`layout arch` lists every preset and alias (H100, MI300X, cuda:90, hip:gfx942, ...)");
        return TOOL_BAD_INPUT;
    }
    tool_report_parse(cmd, what, text, where, &e);
    if (kind == SPEC_ARCH && st == LAYOUT_ERR_NOT_FOUND)
        tool_hint(cmd, "`layout arch` lists every preset and alias (H100, MI300X, cuda:90, hip:gfx942, ...)");
    if (kind == SPEC_DIST && wave > 0 && st == LAYOUT_ERR_MISMATCH && strstr(e.message, "wave_size"))
        tool_hint(cmd, "--arch runs %d lanes at a time: the lengths of the lane P list (the last) must multiply "
                       "to %d, or --arch must name a GPU with as many lanes as the distribution",
                  wave, wave);
    return TOOL_BAD_INPUT;
}

int tool_parse_desc(const char *cmd, const char *arg, layout_descriptor *out)
{
    return parse_spec(cmd, "the descriptor", arg, SPEC_DESC, out, 0);
}

int tool_parse_arch(const char *cmd, const char *arg, layout_arch *out)
{
    return parse_spec(cmd, "--arch", arg, SPEC_ARCH, out, 0);
}

int tool_parse_arch_as(const char *cmd, const char *what, const char *arg, layout_arch *out)
{
    return parse_spec(cmd, what, arg, SPEC_ARCH, out, 0);
}

int tool_parse_dist(const char *cmd, const char *what, const char *arg, int wave_size, layout_distribution *out)
{
    return parse_spec(cmd, what, arg, SPEC_DIST, out, wave_size);
}

int tool_elem_bytes(const char *cmd, const char *text, int *out)
{
    int64_t v;
    if (tool_int(cmd, "--elem", text, 1, 16, &v)) return TOOL_BAD_INPUT;
    if (v != 1 && v != 2 && v != 4 && v != 8 && v != 16)
        return tool_error(cmd, "--elem %lld must be 1, 2, 4, 8 or 16 bytes", (long long)v);
    *out = (int)v;
    return 0;
}

/* ---- foreign dialects (docs/dialects.md): --dialect NAME and --shape R,C, taken
 * out of argv by tool_take_dialect_options() before any command parses it. */

static const char *g_dialect_name;  /* --dialect, or NULL: auto-detect */
static int g_n_shape;
static int64_t g_shape[LAYOUT_MAX_DIMS];
/* Tables of linear-layout distributions (borrowed by the distribution): two,
 * because `check` reads a write and a read distribution. */
#define TOOL_TABLE_CAP (1u << 18)
static int64_t g_tables[2][TOOL_TABLE_CAP];
static int g_next_table;

int tool_parse_shape(const char *cmd, const char *text, int *n, int64_t *shape)
{
    /* numbers separated by ',' or 'x' ("64,32", "64x32"); anything else,
     * a missing number included ("64,32x", "64,,32"), is refused with a caret */
    const char *p = text;
    int k = 0;
    if (!*p) return tool_error(cmd, "--shape is empty: expected numbers like 64,32");
    for (;;) {
        char *end;
        long long v;
        if (k >= LAYOUT_MAX_DIMS) {
            tool_error(cmd, "--shape %s has more than %d values", text, LAYOUT_MAX_DIMS);
            tool_caret(text, (size_t)(p - text));
            return TOOL_BAD_INPUT;
        }
        errno = 0;
        v = isdigit((unsigned char)*p) ? strtoll(p, &end, 10) : 0;
        if (!isdigit((unsigned char)*p) || errno == ERANGE) {
            if (*p)
                tool_error(cmd, "--shape %s: expected a number at column %d, found '%c'", text, (int)(p - text) + 1, *p);
            else
                tool_error(cmd, "--shape %s: expected a number after '%c' at the end", text, p[-1]);
            tool_caret(text, (size_t)(p - text));
            return TOOL_BAD_INPUT;
        }
        if (v < 1 || v > (1LL << 40)) {
            tool_error(cmd, "--shape %s: %lld is outside 1..%lld", text, v, 1LL << 40);
            tool_caret(text, (size_t)(p - text));
            return TOOL_BAD_INPUT;
        }
        shape[k++] = v;
        p = end;
        if (!*p) break;
        if (*p != ',' && *p != 'x') {
            tool_error(cmd, "--shape %s: expected ',' or 'x' between numbers at column %d, found '%c'", text,
                       (int)(p - text) + 1, *p);
            tool_caret(text, (size_t)(p - text));
            return TOOL_BAD_INPUT;
        }
        p++;
    }
    *n = k;
    return 0;
}

int tool_take_dialect_options(const char *cmd, int *argc, char **argv)
{
    int i, j = 1;
    for (i = 1; i < *argc; i++) {
        const char *a = argv[i], *v = NULL;
        int is_dialect = strncmp(a, "--dialect", 9) == 0 && (a[9] == '\0' || a[9] == '=');
        int is_shape = strncmp(a, "--shape", 7) == 0 && (a[7] == '\0' || a[7] == '=');
        if (strcmp(a, "--") == 0) {
            while (i < *argc) argv[j++] = argv[i++];
            break;
        }
        if (!is_dialect && !is_shape) {
            argv[j++] = argv[i];
            continue;
        }
        v = strchr(a, '=');
        if (v)
            v++;
        else if (i + 1 < *argc)
            v = argv[++i];
        else
            return tool_error(cmd, "option %s needs a value", is_dialect ? "--dialect" : "--shape");
        if (is_dialect) {
            layout_dialect dl;
            layout_error e;
            (void)e;
            if (tool_dialect_named(cmd, "--dialect", v, &dl, NULL)) return TOOL_BAD_INPUT;
            g_dialect_name = v;
        } else if (tool_parse_shape(cmd, v, &g_n_shape, g_shape)) {
            return TOOL_BAD_INPUT;
        }
    }
    *argc = j;
    argv[j] = NULL;
    return 0;
}

/* The tool's dialect names: the library's, with liblayout's own text
 * called "layout" ("ck" stays an alias: it read as ck_tile, whose C++ is
 * "ck-cpp"), and "cute-cpp" (output only, convert). */
static const char *const k_dialect_names[] = {"layout", "triton", "cute", "iree", "linear", "ck-cpp", "cute-cpp", "ck"};

int tool_dialect_named(const char *cmd, const char *opt, const char *name, layout_dialect *out, int *cute_cpp)
{
    const char *near;
    if (cute_cpp) *cute_cpp = 0;
    if (strcmp(name, "layout") == 0 || strcmp(name, "ck") == 0) {
        *out = LAYOUT_DIALECT_CK;
        return 0;
    }
    if (strcmp(name, "cute-cpp") == 0 && cute_cpp) {
        *cute_cpp = 1;
        *out = LAYOUT_DIALECT_CUTE;
        return 0;
    }
    if (strcmp(name, "cute-cpp") != 0 && layout_dialect_from_name(name, out, NULL) == LAYOUT_OK) return 0;
    near = tool_closest(name, k_dialect_names, sizeof k_dialect_names / sizeof k_dialect_names[0] - 1);
    if (strcmp(name, "cute-cpp") == 0)
        return tool_error(cmd, "%s cute-cpp: cute-cpp is an output dialect (convert --to only)", opt);
    if (near) return tool_error(cmd, "%s %s: unknown dialect; did you mean %s?", opt, name, near);
    return tool_error(cmd, "%s %s: unknown dialect (layout, triton, cute, iree, linear, ck-cpp%s)", opt, name,
                      cute_cpp ? ", cute-cpp" : "");
}

layout_dialect tool_spec_dialect(const char *text)
{
    layout_dialect d;
    if (g_dialect_name && tool_dialect_named("", "", g_dialect_name, &d, NULL) == 0) return d;
    return layout_dialect_detect(text);
}

const int64_t *tool_shape(int *n)
{
    *n = g_n_shape;
    return g_n_shape ? g_shape : NULL;
}

layout_status tool_desc_from_dialect(layout_dialect d, const char *text, layout_descriptor *out, size_t *where,
                                     layout_error *e)
{
    return layout_desc_from_dialect(d, text, g_n_shape, g_n_shape ? g_shape : NULL, out, where, e);
}

layout_status tool_dist_from_dialect(layout_dialect d, const char *text, layout_distribution *out, size_t *where,
                                     layout_error *e)
{
    int64_t *table = g_tables[g_next_table];
    g_next_table ^= 1;
    return layout_dist_from_dialect(d, text, g_n_shape, g_n_shape ? g_shape : NULL, table, TOOL_TABLE_CAP, out, where,
                                    e);
}

/* ---- lint policy ---- */

int tool_lint_parse(const char *cmd, tool_lint *l)
{
    l->fail_above = 0;
    if (l->fail_above_text && tool_int(cmd, "--fail-above", l->fail_above_text, 0, (int64_t)1 << 62, &l->fail_above))
        return TOOL_BAD_INPUT;
    return 0;
}

int tool_lint_counts(const tool_lint *l, layout_confidence c)
{
    return l->strict || c == LAYOUT_CONFIDENCE_HIGH;
}

int tool_lint_status(const tool_lint *l, int64_t counted)
{
    return counted > l->fail_above ? TOOL_FINDING : TOOL_OK;
}

void tool_lint_print(const tool_lint *l, int64_t all_cycles, int64_t counted, const char *unit)
{
    int rc = tool_lint_status(l, counted);
    char above[64] = "";
    if (all_cycles <= 0) return;
    if (l->fail_above_text) snprintf(above, sizeof above, ", %s %" PRId64, rc ? "above" : "not above", l->fail_above);
    if (l->strict)
        printf("lint: exit %d: --strict counts all %" PRId64 " %s%s\n", rc, counted, unit, above);
    else if (counted == all_cycles)
        printf("lint: exit %d: all %" PRId64 " %s are of high confidence%s\n", rc, counted, unit, above);
    else if (counted == 0)
        printf("lint: exit %d: none of the %" PRId64 " %s is of high confidence (rules of low or medium "
               "confidence count only with --strict)\n", rc, all_cycles, unit);
    else
        printf("lint: exit %d: %" PRId64 " of the %" PRId64 " %s are of high confidence%s (the others, of low or "
               "medium confidence, count only with --strict)\n", rc, counted, all_cycles, unit, above);
}

int tool_choice(const char *cmd, const char *opt, const char *value, const char *const *names, int n)
{
    char list[256];
    size_t k = 0;
    const char *near;
    for (int i = 0; i < n; i++)
        if (strcmp(value, names[i]) == 0) return i;
    list[0] = '\0';
    for (int i = 0; i < n && k < sizeof list; i++) {
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
        if (k >= sizeof list) k = sizeof list - 1;
    }
    near = tool_closest(value, names, (size_t)n);
    if (near) tool_error(cmd, "%s '%s' must be %s; did you mean %s?", opt, value, list, near);
    else tool_error(cmd, "%s '%s' must be %s", opt, value, list);
    return -1;
}
