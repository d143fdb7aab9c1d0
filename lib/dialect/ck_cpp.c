/* ck_tile C++ for a descriptor (ck_cpp.h).  The stage structure comes from
 * the text printer (layout_text_desc_shape_of(), which verifies it by parsing the
 * text back); this file only spells each piece with ck_tile's makers. */
#include "../text/text_desc_shape.h"
#include "../text/text_scan.h"
#include "layout/ck_cpp.h"
#include "layout/text.h"

#include <stdint.h>
#include <string.h>

#define FN "layout_desc_to_ck_cpp"

static void num(text_out *o, int64_t v)
{
    if (v > INT32_MAX || v < INT32_MIN)
        layout_to_printf(o, "long_number<%lld>{}", (long long)v);
    else
        layout_to_printf(o, "number<%lld>{}", (long long)v);
}

static void tuple(text_out *o, const int64_t *v, int n)
{
    layout_to_str(o, "make_tuple(");
    for (int i = 0; i < n; i++) {
        if (i) layout_to_str(o, ", ");
        num(o, v[i]);
    }
    layout_to_str(o, ")");
}

static void seq(text_out *o, const layout_seq *s)
{
    layout_to_str(o, "sequence<");
    for (int i = 0; i < s->n; i++) layout_to_printf(o, i ? ", %d" : "%d", s->ids[i]);
    layout_to_str(o, ">{}");
}

static void maker(text_out *o, const layout_transform *t)
{
    switch (t->kind) {
    case LAYOUT_PASS_THROUGH:
        layout_to_str(o, "make_pass_through_transform(");
        num(o, t->upper_lengths[0]);
        break;
    case LAYOUT_PAD:
        layout_to_str(o, "make_pad_transform(");
        num(o, t->lower_lengths[0]);
        layout_to_str(o, ", ");
        num(o, t->params[0]);
        layout_to_str(o, ", ");
        num(o, t->params[1]);
        break;
    case LAYOUT_LEFT_PAD:
    case LAYOUT_RIGHT_PAD:
        layout_to_str(o, t->kind == LAYOUT_LEFT_PAD ? "make_left_pad_transform(" : "make_right_pad_transform(");
        num(o, t->lower_lengths[0]);
        layout_to_str(o, ", ");
        num(o, t->params[0]);
        break;
    case LAYOUT_EMBED:
        layout_to_str(o, "make_embed_transform(");
        tuple(o, t->upper_lengths, t->n_upper);
        layout_to_str(o, ", ");
        tuple(o, t->params, t->n_upper);
        break;
    case LAYOUT_MERGE:
    case LAYOUT_MERGE_DIVMOD:
        layout_to_str(o, t->kind == LAYOUT_MERGE ? "make_merge_transform(" : "make_merge_transform_v3_division_mod(");
        tuple(o, t->lower_lengths, t->n_lower);
        break;
    case LAYOUT_UNMERGE:
    case LAYOUT_REPLICATE:
    case LAYOUT_XOR:
        layout_to_str(o, t->kind == LAYOUT_UNMERGE     ? "make_unmerge_transform("
                  : t->kind == LAYOUT_REPLICATE ? "make_replicate_transform("
                                                : "make_xor_transform(");
        tuple(o, t->upper_lengths, t->n_upper);
        break;
    case LAYOUT_SLICE:
        layout_to_str(o, "make_slice_transform(");
        num(o, t->lower_lengths[0]);
        layout_to_str(o, ", ");
        num(o, t->params[0]);
        layout_to_str(o, ", ");
        num(o, t->params[1]);
        break;
    case LAYOUT_FREEZE:
        layout_to_str(o, "make_freeze_transform(");
        num(o, t->params[0]);
        break;
    case LAYOUT_INSERT:
        layout_to_str(o, "make_insert_transform(");
        num(o, t->upper_lengths[0]);
        break;
    case LAYOUT_MODULO:
        layout_to_str(o, "make_modulo_transform(");
        num(o, t->params[0]);
        layout_to_str(o, ", ");
        num(o, t->upper_lengths[0]);
        break;
    default: /* LAYOUT_OFFSET: the text form admits no other kind */
        layout_to_str(o, "make_offset_transform(");
        num(o, t->upper_lengths[0]);
        layout_to_str(o, ", ");
        num(o, t->params[0]);
        break;
    }
    layout_to_str(o, ")");
}

static void base(text_out *o, const layout_descriptor *d, const text_desc_shape *sh)
{
    const layout_adaptor *a = &d->adaptor;
    const layout_transform *t = &a->transforms[sh->base == TEXT_BASE_NAIVE_OFF ? 1 : 0];
    const layout_seq *up = &a->upper_hidden[sh->base == TEXT_BASE_NAIVE_OFF ? 1 : 0];
    int n = t->n_upper, last = up->ids[n - 1];
    int64_t gvl = d->guaranteed_vector_length[last], gvs = d->guaranteed_vector_stride[last];
    if (sh->base == TEXT_BASE_PACKED) {
        layout_to_str(o, "make_naive_tensor_descriptor_packed(\n    ");
        tuple(o, t->upper_lengths, n);
        if (gvl > t->upper_lengths[n - 1]) { /* packed() already guarantees the whole last row */
            layout_to_str(o, ",\n    ");
            num(o, gvl);
        }
        layout_to_str(o, ")");
        return;
    }
    layout_to_str(o, sh->base == TEXT_BASE_NAIVE ? "make_naive_tensor_descriptor(\n    "
                                          : "make_naive_tensor_descriptor_with_offset(\n    ");
    tuple(o, t->upper_lengths, n);
    layout_to_str(o, ",\n    ");
    tuple(o, t->params, n);
    if (sh->base == TEXT_BASE_NAIVE_OFF) {
        layout_to_str(o, ",\n    ");
        num(o, a->transforms[0].params[0]);
    } else if (gvl != -1 || gvs != -1) {
        layout_to_str(o, ",\n    ");
        num(o, gvl);
        if (gvs != -1) {
            layout_to_str(o, ", ");
            num(o, gvs);
        }
    }
    layout_to_str(o, ")");
}

layout_status layout_desc_to_ck_cpp(const layout_descriptor *d, char *buf, size_t cap, size_t *needed,
                                    layout_error *err)
{
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, FN ": d is NULL");
    if (!buf && cap > 0) return layout_fail(err, LAYOUT_ERR_NULL, FN ": buf is NULL with cap = %zu", cap);
    text_desc_shape sh;
    if (layout_text_desc_shape_of(d, &sh))
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           FN ": d was not built as a base plus transform stages; it has no ck_tile spelling");
    char text[LAYOUT_TEXT_CAP];
    layout_desc_to_text(d, text, sizeof text, NULL); /* cannot fail: layout_text_desc_shape_of found the text */
    const layout_adaptor *a = &d->adaptor;
    text_out o;
    layout_to_init(&o, buf, cap);
    layout_to_str(&o, "// liblayout: ");
    layout_to_str(&o, text);
    layout_to_str(&o, "\n");
    layout_to_printf(&o, "constexpr auto %s = ", sh.n_stages ? "desc_0" : "lds_desc");
    base(&o, d, &sh);
    layout_to_str(&o, ";\n");
    for (int s = 0; s < sh.n_stages; s++) {
        int b = sh.stage_begin[s], e = sh.stage_begin[s + 1];
        if (s + 1 == sh.n_stages)
            layout_to_printf(&o, "constexpr auto lds_desc = transform_tensor_descriptor(\n    desc_%d,\n    make_tuple(", s);
        else
            layout_to_printf(&o, "constexpr auto desc_%d = transform_tensor_descriptor(\n    desc_%d,\n    make_tuple(", s + 1,
                      s);
        for (int i = b; i < e; i++) {
            if (i > b) layout_to_str(&o, ",\n               ");
            maker(&o, &a->transforms[i]);
        }
        layout_to_str(&o, "),\n    make_tuple(");
        for (int i = b; i < e; i++) {
            if (i > b) layout_to_str(&o, ", ");
            seq(&o, &sh.lower[i]);
        }
        layout_to_str(&o, "),\n    make_tuple(");
        for (int i = b; i < e; i++) {
            if (i > b) layout_to_str(&o, ", ");
            seq(&o, &sh.upper[i]);
        }
        layout_to_str(&o, "));\n");
    }
    if (needed) *needed = o.len;
    return layout_ok(err);
}
