/* The whole-text checks of the TTGIR reader (wellformed_internal.h): what
 * a cut or a stray edit leaves, found before and after the line-by-line
 * read, each an error with the line and column. */
#include "../core/internal.h"
#include "lex_internal.h"
#include "wellformed_internal.h"

#include <stdio.h>
#include <string.h>

#define FN "layout_ttgir_parse"

typedef struct wf {
    const char *t;
    size_t n;
    layout_error *err;
} wf;

static int is_ident(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
           ch == '.' || ch == '-' || ch == '$';
}

static int line_of(const wf *s, size_t at, int *col)
{
    int line = 1;
    size_t k, ls = 0;
    for (k = 0; k < at && k < s->n; k++)
        if (s->t[k] == '\n') line++, ls = k + 1;
    *col = (int)(at - ls) + 1;
    return line;
}

/* The error `what` at byte `at` of the text (its line and column counted). */
static layout_status fail_pos(const wf *s, size_t at, const char *what)
{
    int col, line = line_of(s, at, &col);
    return layout_fail(s->err, LAYOUT_ERR_PARSE, FN ": line %d, column %d: %s", line, col, what);
}

static const char k_cut[] = "is the text cut short?";

/* What a cut or a stray edit shows, over the whole text's tokens (comments
 * skipped, lex.c): no text at all, the dialect of Triton < 3.2, a string
 * not closed on its line, a bracket ( [ { < never closed or closed by the
 * wrong one.  An op or a type may span lines (MLIR allows it). */
static layout_status check_structure(wf *s)
{
    enum { MAX_DEPTH = 256 };
    size_t open[MAX_DEPTH];
    int depth = 0, l, c;
    char what[160];
    lexer lx;
    lex_tok tok;
    layout_status st;
    layout_ttgir_lex_init(&lx, s->t, s->n, s->err);
    for (;;) {
        char ch;
        if ((st = layout_ttgir_lex_next(&lx, &tok))) return st;
        if (tok.kind == LEX_EOF) break;
        if ((tok.kind == LEX_HASH || tok.kind == LEX_BANG || tok.kind == LEX_ID || tok.kind == LEX_STR) &&
            tok.len >= 11) { /* `#triton_gpu.blocked`, "triton_gpu.num-warps" */
            size_t skip = tok.kind == LEX_ID ? 0 : 1;
            if (tok.len >= 11 + skip && memcmp(s->t + tok.at + skip, "triton_gpu.", 11) == 0)
                return fail_pos(s, tok.at + skip, "this TTGIR is from Triton < 3.2 (triton_gpu dialect); liblayout "
                                                  "reads Triton 3.2+ (ttg dialect)");
        }
        if (tok.kind != LEX_PUNCT) continue;
        ch = s->t[tok.at];
        if (ch == '(' || ch == '[' || ch == '{' || ch == '<') {
            if (depth == MAX_DEPTH) {
                snprintf(what, sizeof what, "'%c' nested more than %d deep", ch, MAX_DEPTH);
                return fail_pos(s, tok.at, what);
            }
            open[depth++] = tok.at;
        } else if (ch == ')' || ch == ']' || ch == '}' || ch == '>') {
            char o = depth ? s->t[open[depth - 1]] : 0;
            char want = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : o == '<' ? '>' : 0;
            if (ch != want) {
                if (depth) {
                    l = line_of(s, open[depth - 1], &c);
                    snprintf(what, sizeof what, "unexpected '%c': the '%c' open at line %d, column %d is not closed by it",
                             ch, o, l, c);
                } else {
                    snprintf(what, sizeof what, "unexpected '%c': no bracket is open", ch);
                }
                return fail_pos(s, tok.at, what);
            }
            depth--;
        }
    }
    if (depth > 0) {
        l = line_of(s, open[depth - 1], &c);
        snprintf(what, sizeof what, "the text ends inside '%c' opened at line %d, column %d (%s)", s->t[open[depth - 1]],
                 l, c, k_cut);
        return fail_pos(s, s->n, what);
    }
    layout_ttgir_lex_init(&lx, s->t, s->n, s->err); /* only blanks and comments: nothing to read */
    if ((st = layout_ttgir_lex_next(&lx, &tok))) return st;
    if (tok.kind == LEX_EOF) return fail_pos(s, 0, "the text is empty: no TTGIR module");
    return LAYOUT_OK;
}

static int loc_defined(const layout_ttgir *m, size_t at, size_t len)
{
    int i;
    for (i = 0; i < m->n_locs; i++) {
        size_t p = m->loc_name_at[i];
        if (p + len <= m->len && memcmp(m->text + p, m->text + at, len) == 0 &&
            (p + len == m->len || !is_ident(m->text[p + len])))
            return 1;
    }
    return 0;
}

/* Every `#name` inside a `loc(...)` names a location definition: the
 * definitions come last, so a text cut among them leaves references. */
static layout_status check_loc_refs(wf *s, const layout_ttgir *m)
{
    size_t k;
    long budget = 1L << 26; /* name comparisons; a real kernel needs far fewer */
    char what[128];
    for (k = 0; k + 4 <= s->n; k++) {
        size_t e, j;
        if (s->t[k] == '"') { /* strings hold no references */
            for (k++; k < s->n && s->t[k] != '"'; k++)
                if (s->t[k] == '\\') k++;
            continue;
        }
        if (s->t[k] == '/' && s->t[k + 1] == '/') { /* nor comments */
            while (k + 1 < s->n && s->t[k + 1] != '\n') k++;
            continue;
        }
        if (memcmp(s->t + k, "loc(", 4) != 0 || (k > 0 && is_ident(s->t[k - 1]))) continue;
        for (e = k + 4; e < s->n && s->t[e] != '\n'; e++) {}
        for (j = k + 4; j < e; j++) {
            size_t q;
            if (s->t[j] == '"') {
                for (j++; j < e && s->t[j] != '"'; j++)
                    if (s->t[j] == '\\') j++;
                continue;
            }
            if (s->t[j] != '#') continue;
            for (q = j + 1; q < e && is_ident(s->t[q]); q++) {}
            if (q == j + 1) continue;
            if ((budget -= m->n_locs + 1) < 0) return fail_pos(s, j, "too many location references to check");
            if (!loc_defined(m, j, q - j)) {
                snprintf(what, sizeof what, "location %.*s is used but never defined (%s)", (int)(q - j > 40 ? 40 : q - j),
                         s->t + j, k_cut);
                return fail_pos(s, j, what);
            }
            j = q - 1;
        }
        k = e > k + 4 ? e - 1 : k;
    }
    return LAYOUT_OK;
}

layout_status layout_ttgir_check_text(const char *text, size_t len, layout_error *err)
{
    wf s;
    s.t = text;
    s.n = len;
    s.err = err;
    return check_structure(&s);
}

layout_status layout_ttgir_check_locs(const layout_ttgir *m, layout_error *err)
{
    wf s;
    s.t = m->text;
    s.n = m->len;
    s.err = err;
    return check_loc_refs(&s, m);
}
