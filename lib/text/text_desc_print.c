/* Descriptor text form: printer.
 *
 * A descriptor keeps only its adaptor (transforms over hidden ids), not the
 * calls that built it, so the printer recovers them:
 *  - the base is the first transform(s), reading hidden 0;
 *  - a stage is a run of transforms that together consume every top dim of
 *    the previous stage (transforms without lower dims join the stage they
 *    follow while it is still consuming);
 *  - positions of an intermediate stage's top dims are not stored, so they
 *    are numbered by hidden id; the last stage uses the stored top order.
 * The text is then parsed back and compared with the input, so a
 * descriptor the text cannot reproduce is refused rather than misprinted. */
#include "text_internal.h"
#include "text_desc_internal.h"
#include "layout/text.h"

#include <string.h>

#define FN_PRINT "layout_desc_to_text"

/* Arguments of one transform, e.g. "(8)" or "([32,8])". */
static void print_transform(text_out *o, const layout_transform *t)
{
    layout_to_str(o, layout_text_transform_name(t->kind));
    layout_to_str(o, "(");
    switch (t->kind) {
    case LAYOUT_PASS_THROUGH:
    case LAYOUT_INSERT: layout_to_printf(o, "%lld", (long long)t->upper_lengths[0]); break;
    case LAYOUT_PAD:
        layout_to_printf(o, "%lld,%lld,%lld", (long long)t->lower_lengths[0], (long long)t->params[0],
                  (long long)t->params[1]);
        break;
    case LAYOUT_LEFT_PAD:
    case LAYOUT_RIGHT_PAD:
        layout_to_printf(o, "%lld,%lld", (long long)t->lower_lengths[0], (long long)t->params[0]);
        break;
    case LAYOUT_EMBED:
        layout_to_int_list(o, t->upper_lengths, t->n_upper);
        layout_to_str(o, ",");
        layout_to_int_list(o, t->params, t->n_upper);
        break;
    case LAYOUT_MERGE:
    case LAYOUT_MERGE_DIVMOD: layout_to_int_list(o, t->lower_lengths, t->n_lower); break;
    case LAYOUT_UNMERGE:
    case LAYOUT_REPLICATE:
    case LAYOUT_XOR: layout_to_int_list(o, t->upper_lengths, t->n_upper); break;
    case LAYOUT_SLICE:
        layout_to_printf(o, "%lld,%lld,%lld", (long long)t->lower_lengths[0], (long long)t->params[0],
                  (long long)t->params[1]);
        break;
    case LAYOUT_FREEZE: layout_to_printf(o, "%lld", (long long)t->params[0]); break;
    case LAYOUT_MODULO:
        layout_to_printf(o, "%lld,%lld", (long long)t->params[0], (long long)t->upper_lengths[0]);
        break;
    case LAYOUT_OFFSET:
        layout_to_printf(o, "%lld,%lld", (long long)t->upper_lengths[0], (long long)t->params[0]);
        break;
    default: break;
    }
    layout_to_str(o, ")");
}

static int index_of(const int *v, int n, int x)
{
    int i;
    for (i = 0; i < n; i++)
        if (v[i] == x) return i;
    return -1;
}

/* Print the base; return the number of transforms it accounts for (0 if
 * unrecognised) and its top hidden ids in *top / *n_top. */
static int print_base(text_out *o, const layout_descriptor *d, int *top, int *n_top, text_desc_shape *rec)
{
    const layout_adaptor *a = &d->adaptor;
    const layout_transform *t0;
    int i, n, last;
    if (a->n_transforms < 1 || a->n_bottom != 1 || a->bottom_hidden[0] != 0) return 0;
    t0 = &a->transforms[0];
    if (a->lower_hidden[0].n != 1 || a->lower_hidden[0].ids[0] != 0) return 0;
    n = t0->n_upper;
    for (i = 0; i < n; i++) top[i] = a->upper_hidden[0].ids[i];
    *n_top = n;
    last = n > 0 ? top[n - 1] : 0;
    if (t0->kind == LAYOUT_UNMERGE) {
        layout_to_str(o, "packed(");
        layout_to_int_list(o, t0->upper_lengths, n);
        /* packed() already guarantees the whole last row (max(len, gvl)). */
        if (d->guaranteed_vector_length[last] > t0->upper_lengths[n - 1])
            layout_to_printf(o, ",gvl=%lld", (long long)d->guaranteed_vector_length[last]);
        layout_to_str(o, ")");
        if (rec) rec->base = TEXT_BASE_PACKED;
        return 1;
    }
    if (t0->kind == LAYOUT_OFFSET && a->n_transforms >= 2 && a->transforms[1].kind == LAYOUT_EMBED &&
        a->upper_hidden[0].n == 1 && a->lower_hidden[1].n == 1 &&
        a->lower_hidden[1].ids[0] == a->upper_hidden[0].ids[0]) {
        const layout_transform *t1 = &a->transforms[1];
        n = t1->n_upper;
        for (i = 0; i < n; i++) top[i] = a->upper_hidden[1].ids[i];
        *n_top = n;
        layout_to_str(o, "naive_off(");
        layout_to_int_list(o, t1->upper_lengths, n);
        layout_to_str(o, ",");
        layout_to_int_list(o, t1->params, n);
        layout_to_printf(o, ",off=%lld)", (long long)t0->params[0]);
        if (rec) rec->base = TEXT_BASE_NAIVE_OFF;
        return 2;
    }
    if (t0->kind == LAYOUT_EMBED) {
        layout_to_str(o, "naive(");
        layout_to_int_list(o, t0->upper_lengths, n);
        layout_to_str(o, ",");
        layout_to_int_list(o, t0->params, n);
        if (d->guaranteed_vector_length[last] != -1)
            layout_to_printf(o, ",gvl=%lld", (long long)d->guaranteed_vector_length[last]);
        if (d->guaranteed_vector_stride[last] != -1)
            layout_to_printf(o, ",gvs=%lld", (long long)d->guaranteed_vector_stride[last]);
        layout_to_str(o, ")");
        if (rec) rec->base = TEXT_BASE_NAIVE;
        return 1;
    }
    return 0;
}

/* Print the whole text into o; return 0, or 1 when the adaptor has no stage
 * form.  A transform without lower dims (insert, replicate) right after a
 * stage has consumed all its input may close that stage or open the next;
 * bit j of `choices` picks "open the next" at the j-th such point, and
 * *n_choices counts the points met. */
static int print_desc(text_out *o, const layout_descriptor *d, unsigned choices, int *n_choices, text_desc_shape *rec)
{
    const layout_adaptor *a = &d->adaptor;
    int top[LAYOUT_MAX_HIDDEN], n_top = 0, k;
    *n_choices = 0;
    k = print_base(o, d, top, &n_top, rec);
    if (k == 0) return 1;
    if (rec) {
        rec->base_transforms = k;
        rec->n_stages = 0;
    }
    while (k < a->n_transforms) {
        int consumed[LAYOUT_MAX_HIDDEN], produced[LAYOUT_MAX_HIDDEN], new_top[LAYOUT_MAX_HIDDEN];
        int n_consumed = 0, n_produced = 0, first = k, i, j, last_stage;
        /* Collect the stage's transforms. */
        while (k < a->n_transforms) {
            const layout_seq *lo = &a->lower_hidden[k];
            if (n_consumed == n_top && k > first) {
                if (lo->n > 0) break;
                /* Ambiguous: a zero-lower transform after full consumption. */
                if (*n_choices < 31 && (choices >> *n_choices) & 1u) {
                    ++*n_choices;
                    break;
                }
                ++*n_choices;
            }
            for (i = 0; i < lo->n; i++)
                if (index_of(top, n_top, lo->ids[i]) < 0 || index_of(consumed, n_consumed, lo->ids[i]) >= 0)
                    return 1;
            for (i = 0; i < lo->n; i++) consumed[n_consumed++] = lo->ids[i];
            for (i = 0; i < a->upper_hidden[k].n; i++) {
                if (n_produced >= LAYOUT_MAX_HIDDEN) return 1;
                produced[n_produced++] = a->upper_hidden[k].ids[i];
            }
            k++;
        }
        if (n_consumed != n_top) return 1;
        last_stage = k == a->n_transforms;
        if (last_stage) {
            if (a->n_top != n_produced) return 1;
            for (i = 0; i < n_produced; i++) new_top[i] = a->top_hidden[i];
        } else {
            /* The positions are not stored: keep each dim where it was, as
             * ck_tile code usually does (upper k of a transform takes the
             * position of its lower k when free), then fill the rest in order. */
            int taken[LAYOUT_MAX_HIDDEN] = {0}, placed[LAYOUT_MAX_HIDDEN] = {0}, u = 0, next = 0;
            for (i = first; i < k; i++)
                for (j = 0; j < a->upper_hidden[i].n; j++, u++) {
                    int want = j < a->lower_hidden[i].n ? index_of(top, n_top, a->lower_hidden[i].ids[j]) : -1;
                    if (want >= 0 && want < n_produced && !taken[want]) {
                        taken[want] = placed[u] = 1;
                        new_top[want] = produced[u];
                    }
                }
            for (u = 0; u < n_produced; u++) {
                if (placed[u]) continue;
                while (taken[next]) next++;
                taken[next] = 1;
                new_top[next] = produced[u];
            }
        }
        layout_to_str(o, " | T{");
        if (rec) {
            rec->stage_begin[rec->n_stages++] = first;
            rec->stage_begin[rec->n_stages] = k;
        }
        for (i = first; i < k; i++) {
            int ids[LAYOUT_MAX_TRANSFORM_DIMS];
            if (i > first) layout_to_str(o, " ; ");
            print_transform(o, &a->transforms[i]);
            layout_to_str(o, ":");
            for (j = 0; j < a->lower_hidden[i].n; j++) ids[j] = index_of(top, n_top, a->lower_hidden[i].ids[j]);
            layout_to_id_list(o, ids, a->lower_hidden[i].n);
            if (rec) rec->lower[i] = layout_seq_from(a->lower_hidden[i].n, ids);
            layout_to_str(o, "->");
            for (j = 0; j < a->upper_hidden[i].n; j++) {
                ids[j] = index_of(new_top, n_produced, a->upper_hidden[i].ids[j]);
                if (ids[j] < 0) return 1;
            }
            layout_to_id_list(o, ids, a->upper_hidden[i].n);
            if (rec) rec->upper[i] = layout_seq_from(a->upper_hidden[i].n, ids);
        }
        layout_to_str(o, "}");
        memcpy(top, new_top, sizeof(int) * (size_t)n_produced);
        n_top = n_produced;
    }
    if (a->n_top != n_top) return 1;
    for (k = 0; k < n_top; k++)
        if (a->top_hidden[k] != top[k]) return 1;
    return 0;
}

static int desc_equal(const layout_descriptor *a, const layout_descriptor *b);

/* Find the print whose text parses back to d: 0 with the text in text[]
 * (o->len bytes) and the winning choice bits in *choices_out; 1 when the
 * adaptor has no stage form at all, 2 when no text reproduces it. */
static int find_text(const layout_descriptor *d, char *text, size_t cap, text_out *o, unsigned *choices_out)
{
    layout_descriptor back;
    layout_error e;
    unsigned choices;
    int n_choices = 0, structural = 0;
    /* Usually one attempt; a few more only around inserts at stage ends. */
    for (choices = 0; choices < 64u; choices++) {
        layout_to_init(o, text, cap);
        if (print_desc(o, d, choices, &n_choices, NULL) || o->len + 1 > cap) {
            structural = structural || choices == 0;
        } else if (layout_desc_from_text(text, &back, NULL, &e) == LAYOUT_OK && desc_equal(&back, d)) {
            *choices_out = choices;
            return 0;
        }
        if (n_choices > 6 || choices + 1 >= (1u << n_choices)) break;
    }
    return structural && o->len == 0 ? 1 : 2;
}

layout_status layout_desc_to_text(const layout_descriptor *d, char *buf, size_t cap, layout_error *err)
{
    char text[LAYOUT_TEXT_CAP];
    text_out o;
    unsigned choices;
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, FN_PRINT ": d is NULL");
    if (!buf) return layout_fail(err, LAYOUT_ERR_NULL, FN_PRINT ": buf is NULL");
    int found = find_text(d, text, sizeof text, &o, &choices);
    if (found == 1)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           FN_PRINT ": d was not built as a base plus transform stages; it has no text form");
    if (found == 2)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           FN_PRINT ": d was not built as a base plus transform stages; no text reproduces it");
    if (o.len + 1 > cap)
        return layout_fail(err, LAYOUT_ERR_BUFFER, FN_PRINT ": cap = %zu is too small, the text needs %zu bytes", cap,
                           o.len + 1);
    memcpy(buf, text, o.len + 1);
    return layout_ok(err);
}

int layout_text_desc_shape_of(const layout_descriptor *d, text_desc_shape *out)
{
    char text[LAYOUT_TEXT_CAP];
    text_out o;
    unsigned choices;
    int n_choices;
    int found = find_text(d, text, sizeof text, &o, &choices);
    if (found) return found;
    memset(out, 0, sizeof *out);
    layout_to_init(&o, text, sizeof text);
    print_desc(&o, d, choices, &n_choices, out);
    return 0;
}

static int seq_equal(const layout_seq *a, const layout_seq *b)
{
    return a->n == b->n && memcmp(a->ids, b->ids, sizeof(int) * (size_t)a->n) == 0;
}

static int transform_equal(const layout_transform *a, const layout_transform *b)
{
    return a->kind == b->kind && a->n_upper == b->n_upper && a->n_lower == b->n_lower &&
           memcmp(a->upper_lengths, b->upper_lengths, sizeof(int64_t) * (size_t)a->n_upper) == 0 &&
           memcmp(a->lower_lengths, b->lower_lengths, sizeof(int64_t) * (size_t)a->n_lower) == 0 &&
           memcmp(a->params, b->params, sizeof a->params) == 0;
}

/* Structural equality of two descriptors: same transforms (kind, lengths,
 * parameters), same hidden-id wiring, same element space size and vector
 * guarantees.  1 when equal. */
static int desc_equal(const layout_descriptor *a, const layout_descriptor *b)
{
    const layout_adaptor *x = &a->adaptor, *y = &b->adaptor;
    int i;
    if (x->n_transforms != y->n_transforms || x->n_hidden != y->n_hidden || x->n_bottom != y->n_bottom ||
        x->n_top != y->n_top || a->element_space_size != b->element_space_size)
        return 0;
    for (i = 0; i < x->n_transforms; i++)
        if (!transform_equal(&x->transforms[i], &y->transforms[i]) ||
            !seq_equal(&x->lower_hidden[i], &y->lower_hidden[i]) ||
            !seq_equal(&x->upper_hidden[i], &y->upper_hidden[i]))
            return 0;
    for (i = 0; i < x->n_bottom; i++)
        if (x->bottom_hidden[i] != y->bottom_hidden[i]) return 0;
    for (i = 0; i < x->n_top; i++)
        if (x->top_hidden[i] != y->top_hidden[i]) return 0;
    for (i = 0; i < x->n_hidden; i++)
        if (x->hidden_lengths[i] != y->hidden_lengths[i] ||
            a->guaranteed_vector_length[i] != b->guaranteed_vector_length[i] ||
            a->guaranteed_vector_stride[i] != b->guaranteed_vector_stride[i])
            return 0;
    return 1;
}
