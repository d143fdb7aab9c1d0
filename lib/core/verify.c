/* Verification ck_tile lacks: enumerating offset checks, true contiguity,
 * static diagnostics of the transform chain. */
#include "layout/verify.h"

#include "adaptor_internal.h"
#include "bits.h"

#include <inttypes.h>
#include <string.h>

/* Row-major odometer over lengths (last dim fastest); 0 after the last. */
static int next_coord(int n, const int64_t *lengths, int64_t *c)
{
    for (int i = n - 1; i >= 0; i--) {
        if (++c[i] < lengths[i]) return 1;
        c[i] = 0;
    }
    return 0;
}

static void top_lengths(const layout_adaptor *a, int64_t *lengths)
{
    for (int d = 0; d < a->n_top; d++) lengths[d] = a->hidden_lengths[a->top_hidden[d]];
}

/* Offset of coordinate c (hidden 0) and its validity. */
static int offset_of(const layout_descriptor *d, const int64_t *c, int64_t *offset)
{
    int64_t hidden[LAYOUT_MAX_HIDDEN];
    int valid = layout_adaptor_eval(&d->adaptor, c, hidden);
    *offset = hidden[0];
    return valid;
}

/* ------------------------------------------------------ offset checks */

/* First pass: counts, offset range, first coordinate outside the space. */
static void scan_offsets(const layout_descriptor *d, layout_offset_report *r)
{
    const layout_adaptor *a = &d->adaptor;
    int64_t lengths[LAYOUT_MAX_DIMS], c[LAYOUT_MAX_DIMS] = { 0 };
    top_lengths(a, lengths);
    memset(r, 0, sizeof *r);
    r->max_offset = -1;
    r->in_space = 1;
    r->missing_offset = -1;
    do {
        int64_t off;
        r->n_coords++;
        if (!offset_of(d, c, &off)) continue;
        if (r->n_valid == 0 || off < r->min_offset) r->min_offset = off;
        if (r->n_valid == 0 || off > r->max_offset) r->max_offset = off;
        r->n_valid++;
        if (r->in_space && (off < 0 || off >= d->element_space_size)) {
            r->in_space = 0;
            memcpy(r->outside_coord, c, sizeof c);
        }
    } while (next_coord(a->n_top, lengths, c));
}

/* Bitmap span covering [0, size) and every valid offset. */
static layout_status bitmap_span(const char *fn, const layout_descriptor *d, const layout_offset_report *r,
                                 int64_t *lo, size_t *bytes, layout_error *err)
{
    int64_t low = r->n_valid && r->min_offset < 0 ? r->min_offset : 0;
    int64_t high = r->n_valid && r->max_offset > d->element_space_size - 1 ? r->max_offset : d->element_space_size - 1;
    int64_t span;
    if (__builtin_sub_overflow(high, low, &span) || span == INT64_MAX || (uint64_t)span / 8 + 1 > SIZE_MAX)
        return layout_fail(err, LAYOUT_ERR_OVERFLOW, "%s: the offset span %" PRId64 "..%" PRId64 " is too large", fn,
                           low, high);
    *lo = low;
    *bytes = (size_t)(((uint64_t)span + 1 + 7) / 8);
    return LAYOUT_OK;
}

/* First pass and the bitmap it needs. */
static layout_status scan_and_span(const char *fn, const layout_descriptor *d, layout_offset_report *r, int64_t *lo,
                                   size_t *need, layout_error *err)
{
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, "%s: d is NULL", fn);
    scan_offsets(d, r);
    return bitmap_span(fn, d, r, lo, need, err);
}

layout_status layout_desc_verify_workspace_size(const layout_descriptor *d, size_t *bytes, layout_error *err)
{
    static const char fn[] = "layout_desc_verify_workspace_size";
    layout_offset_report r;
    int64_t lo = 0;
    size_t need = 0;
    if (!bytes) return layout_fail(err, LAYOUT_ERR_NULL, "%s: bytes is NULL", fn);
    layout_status st = scan_and_span(fn, d, &r, &lo, &need, err);
    if (st) return st;
    *bytes = need;
    return layout_ok(err);
}

static layout_status verify_offsets(const char *fn, const layout_descriptor *d, void *workspace,
                                    size_t workspace_bytes, layout_offset_report *report, layout_error *err)
{
    layout_offset_report r;
    int64_t lo = 0;
    size_t need = 0;
    layout_status st = scan_and_span(fn, d, &r, &lo, &need, err);
    if (st) return st;
    if (!workspace) return layout_fail(err, LAYOUT_ERR_NULL, "%s: workspace is NULL (needs %zu bytes)", fn, need);
    if (workspace_bytes < need)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: workspace_bytes = %zu is less than the %zu bytes needed", fn,
                           workspace_bytes, need);

    unsigned char *seen = (unsigned char *)workspace;
    memset(seen, 0, need);
    const layout_adaptor *a = &d->adaptor;
    int64_t lengths[LAYOUT_MAX_DIMS], c[LAYOUT_MAX_DIMS] = { 0 };
    top_lengths(a, lengths);
    r.injective = 1;
    do {
        int64_t off;
        if (!offset_of(d, c, &off)) continue;
        uint64_t bit = (uint64_t)(off - lo);
        if (seen[bit / 8] & (1u << (bit % 8))) {
            r.injective = 0;
            r.collision_offset = off;
            memcpy(r.collision_b, c, sizeof c);
            break;
        }
        seen[bit / 8] |= (unsigned char)(1u << (bit % 8));
    } while (next_coord(a->n_top, lengths, c));

    if (!r.injective) {
        /* The first coordinate with the shared offset precedes collision_b. */
        memset(c, 0, sizeof c);
        do {
            int64_t off;
            if (offset_of(d, c, &off) && off == r.collision_offset) break;
        } while (next_coord(a->n_top, lengths, c));
        memcpy(r.collision_a, c, sizeof c);
    }
    r.bijective = r.injective && r.in_space && r.n_valid == d->element_space_size;
    if (r.injective && r.in_space && !r.bijective) {
        for (int64_t off = 0; off < d->element_space_size; off++) {
            uint64_t bit = (uint64_t)(off - lo);
            if (!(seen[bit / 8] & (1u << (bit % 8)))) {
                r.missing_offset = off;
                break;
            }
        }
    }
    *report = r;
    return layout_ok(err);
}

layout_status layout_desc_verify_offsets(const layout_descriptor *d, void *workspace, size_t workspace_bytes,
                                         layout_offset_report *report, layout_error *err)
{
    static const char fn[] = "layout_desc_verify_offsets";
    if (!report) return layout_fail(err, LAYOUT_ERR_NULL, "%s: report is NULL", fn);
    return verify_offsets(fn, d, workspace, workspace_bytes, report, err);
}

/* The two yes/no wrappers: one report field copied to *answer. */
static layout_status verify_answer(const char *fn, const char *arg, const layout_descriptor *d, void *workspace,
                                   size_t workspace_bytes, int want_bijective, int *answer, layout_error *err)
{
    layout_offset_report r;
    if (!answer) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, arg);
    layout_status st = verify_offsets(fn, d, workspace, workspace_bytes, &r, err);
    if (!st) *answer = want_bijective ? r.bijective : r.injective;
    return st;
}

layout_status layout_desc_is_injective(const layout_descriptor *d, void *workspace, size_t workspace_bytes,
                                       int *injective, layout_error *err)
{
    return verify_answer("layout_desc_is_injective", "injective", d, workspace, workspace_bytes, 0, injective, err);
}

layout_status layout_desc_is_bijective(const layout_descriptor *d, void *workspace, size_t workspace_bytes,
                                       int *bijective, layout_error *err)
{
    return verify_answer("layout_desc_is_bijective", "bijective", d, workspace, workspace_bytes, 1, bijective, err);
}

/* ------------------------------------------------------------ contiguity */

layout_status layout_desc_contiguity(const layout_descriptor *d, int dim, layout_contiguity *out, layout_error *err)
{
    static const char fn[] = "layout_desc_contiguity";
    if (!d || !out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !d ? "d" : "out");
    const layout_adaptor *a = &d->adaptor;
    if (dim < 0 || dim >= a->n_top)
        return layout_fail(err, LAYOUT_ERR_DIM_ID, "%s: dim = %d is not a top dim (0..%d)", fn, dim, a->n_top - 1);
    int64_t lengths[LAYOUT_MAX_DIMS], lines[LAYOUT_MAX_DIMS], c[LAYOUT_MAX_DIMS] = { 0 };
    top_lengths(a, lengths);
    memcpy(lines, lengths, sizeof lines);
    lines[dim] = 1; /* the odometer walks the other dims; each step is one line */
    const int64_t len = lengths[dim];

    layout_contiguity r;
    memset(&r, 0, sizeof r);
    r.vector_length = len;
    do {
        int64_t prev_off = 0, run = 0;
        int prev_valid = 0;
        for (int64_t p = 0; p < len; p++) {
            int64_t off;
            c[dim] = p;
            int valid = offset_of(d, c, &off);
            if (p > 0 && !(prev_valid && valid && off == prev_off + 1)) {
                /* The step from p-1 breaks: groups of V survive only if V divides p. */
                int64_t g = layout_gcd(r.vector_length, p);
                r.has_break = 1;
                if (g != r.vector_length) {
                    r.vector_length = g;
                    memcpy(r.break_coord, c, sizeof c);
                    r.break_coord[dim] = p - 1;
                    r.break_delta = prev_valid && valid ? off - prev_off : 0;
                }
                run = 0;
            }
            run = valid ? run + 1 : 0;
            if (run > r.longest_run) r.longest_run = run;
            prev_valid = valid;
            prev_off = off;
        }
        c[dim] = 0;
    } while (next_coord(a->n_top, lines, c));
    *out = r;
    return layout_ok(err);
}

/* ----------------------------------------------------------- diagnostics */

static void emit(layout_diagnostic *out, int cap, int *count, layout_diagnostic_kind kind, int transform,
                 int position, int hidden_id, int64_t declared, int64_t actual)
{
    if (*count < cap) {
        layout_diagnostic *dg = &out[*count];
        dg->kind = kind;
        dg->transform = transform;
        dg->position = position;
        dg->hidden_id = hidden_id;
        dg->declared = declared;
        dg->actual = actual;
    }
    (*count)++;
}

layout_status layout_adaptor_diagnose(const layout_adaptor *a, layout_diagnostic *out, int cap, int *count,
                                      layout_error *err)
{
    static const char fn[] = "layout_adaptor_diagnose";
    if (!a || !count) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !a ? "a" : "count");
    if (cap < 0) return layout_fail(err, LAYOUT_ERR_ARG, "%s: cap = %d must be >= 0", fn, cap);
    if (cap > 0 && !out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL with cap = %d", fn, cap);
    int n = 0;
    for (int i = 0; i < a->n_transforms; i++) {
        const layout_transform *t = &a->transforms[i];
        const layout_seq *low = &a->lower_hidden[i];
        for (int j = 0; j < low->n; j++) {
            int64_t declared = t->lower_lengths[j], actual = a->hidden_lengths[low->ids[j]];
            if (declared && actual && declared != actual)
                emit(out, cap, &n, LAYOUT_DIAG_LENGTH_MISMATCH, i, j, low->ids[j], declared, actual);
        }
        if (t->kind == LAYOUT_XOR && !layout_is_pow2(t->upper_lengths[1]))
            emit(out, cap, &n, LAYOUT_DIAG_XOR_NOT_POW2, i, 1, low->ids[1], t->upper_lengths[1], 0);
        if (t->kind == LAYOUT_FREEZE) {
            int64_t actual = a->hidden_lengths[low->ids[0]];
            if (actual && t->params[0] >= actual)
                emit(out, cap, &n, LAYOUT_DIAG_FREEZE_RANGE, i, 0, low->ids[0], t->params[0], actual);
        }
    }
    *count = n;
    return layout_ok(err);
}

int layout_diagnostic_print(const layout_diagnostic *dg, const layout_adaptor *a, char *buf, size_t cap)
{
    layout_strbuf sb;
    layout_sb_init(&sb, buf, cap);
    if (!dg || !a) return -1;
    char text[512] = "?";
    if (dg->transform >= 0 && dg->transform < a->n_transforms)
        layout_transform_print(&a->transforms[dg->transform], text, sizeof text);
    layout_sb_printf(&sb, "t%d %s: ", dg->transform, text);
    switch (dg->kind) {
    case LAYOUT_DIAG_LENGTH_MISMATCH:
        layout_sb_printf(&sb, "lower dim %d (h%d) declared length %" PRId64 " but its producer declares %" PRId64,
                         dg->position, dg->hidden_id, dg->declared, dg->actual);
        break;
    case LAYOUT_DIAG_XOR_NOT_POW2:
        layout_sb_printf(&sb, "modulus %" PRId64 " is not a power of two: h%d can leave 0..%" PRId64
                         " (not a bijection)", dg->declared, dg->hidden_id, dg->declared - 1);
        break;
    case LAYOUT_DIAG_FREEZE_RANGE:
        layout_sb_printf(&sb, "value %" PRId64 " is outside 0..%" PRId64 " of h%d", dg->declared, dg->actual - 1,
                         dg->hidden_id);
        break;
    default:
        layout_sb_printf(&sb, "unknown finding %d", (int)dg->kind);
        break;
    }
    return layout_sb_result(&sb);
}
