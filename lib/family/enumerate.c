/* Layout families: the heap-free enumeration of every legal parameter set
 * of a family on a tile within an LDS budget (layout_family_iter). */
#include "family_internal.h"

#include <stdio.h>
#include <string.h>

/* --- enumeration ------------------------------------------------------------------- */

enum { STEP_LINEAR, STEP_POW2, STEP_DIVISOR };

typedef struct dim_range {
    int64_t lo, hi, of; /* of: the number a divisor step divides */
    int step;
} dim_range;

static const layout_family_kind xor_pad_bases[4] = {LAYOUT_FAMILY_CK_XOR, LAYOUT_FAMILY_CUTE_SWIZZLE,
                                                    LAYOUT_FAMILY_TRITON_SWIZZLED, LAYOUT_FAMILY_IREE_XOR_SHUFFLE};

static void it_rc(const layout_family_iter *it, int64_t *R, int64_t *C) { fam_tile_rc(it->tile, it->contiguous_dim, R, C); }

/* Largest pad p with groups * p * elem <= budget. */
static int64_t max_pad(const layout_family_iter *it, int64_t groups)
{
    if (groups <= 0) return 0;
    int64_t m = it->budget_bytes / (groups * it->elem_bytes);
    return m > FAM_MAX_PAD ? FAM_MAX_PAD : m;
}

/* Loop dims of one base kind (first dim index k0 into v); returns how many. */
static int base_dims(const layout_family_iter *it, layout_family_kind kind, const int64_t *v, int k, int with_pad,
                     dim_range *r)
{
    int64_t R, C;
    it_rc(it, &R, &C);
    int n = 0;
    switch (kind) {
    case LAYOUT_FAMILY_CK_XOR:
        n = 2;
        if (k == 0) *r = (dim_range){1, C, C, STEP_DIVISOR};
        if (k == 1) *r = (dim_range){1, R, R, STEP_DIVISOR};
        break;
    case LAYOUT_FAMILY_CUTE_SWIZZLE: {
        int nb = layout_log2_floor(R * C);
        n = 3;
        if (k == 0) *r = (dim_range){1, nb, 0, STEP_LINEAR};
        if (k == 1) *r = (dim_range){0, nb - v[0], 0, STEP_LINEAR};
        if (k == 2) *r = (dim_range){-(nb - v[0] - v[1]), nb - v[0] - v[1], 0, STEP_LINEAR};
        break;
    }
    case LAYOUT_FAMILY_TRITON_SWIZZLED:
        n = 3;
        if (k == 0) *r = (dim_range){1, C, 0, STEP_POW2};
        if (k == 1) *r = (dim_range){1, R, 0, STEP_POW2};
        if (k == 2) *r = (dim_range){1, v[0] > 0 ? C / v[0] : 0, 0, STEP_POW2};
        break;
    default: /* IREE */
        n = with_pad ? 3 : 2;
        if (k == 0) *r = (dim_range){1, C, C, STEP_DIVISOR};
        if (k == 1) *r = (dim_range){1, R, R, STEP_DIVISOR};
        if (k == 2) *r = (dim_range){0, max_pad(it, R - 1), 0, STEP_LINEAR};
        break;
    }
    return n;
}

/* Number of loop dims and the range of dim k given the outer counters v[0..k). */
static int iter_dims(const layout_family_iter *it, int k, dim_range *r)
{
    int64_t R, C;
    it_rc(it, &R, &C);
    const int64_t *v = it->v;
    dim_range tmp;
    if (!r) r = &tmp;
    switch (it->kind) {
    case LAYOUT_FAMILY_PAD:
        *r = (dim_range){0, max_pad(it, R - 1), 0, STEP_LINEAR};
        return 1;
    case LAYOUT_FAMILY_PAD_EVERY:
        if (k == 0) *r = (dim_range){2, R - 1, R, STEP_DIVISOR};
        if (k == 1) *r = (dim_range){1, (v[0] > 0 && R % v[0] == 0) ? max_pad(it, R / v[0] - 1) : 0, 0, STEP_LINEAR};
        return 2;
    case LAYOUT_FAMILY_CK_XOR:
    case LAYOUT_FAMILY_CUTE_SWIZZLE:
    case LAYOUT_FAMILY_TRITON_SWIZZLED:
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE:
        return base_dims(it, it->kind, v, k, 1, r);
    default: { /* LAYOUT_FAMILY_XOR_PAD (F2 is exhausted at init and never asks) */
        if (k == 0) *r = (dim_range){0, 3, 0, STEP_LINEAR};
        layout_family_kind base = xor_pad_bases[v[0] >= 0 && v[0] < 4 ? v[0] : 0];
        int nb = base_dims(it, base, v + 1, k - 1, 0, r);
        if (k == nb + 1) *r = (dim_range){base == LAYOUT_FAMILY_IREE_XOR_SHUFFLE ? 2 : 1, R - 1, R, STEP_DIVISOR};
        if (k == nb + 2) {
            int64_t pr = v[nb + 1];
            *r = (dim_range){1, (pr > 0 && R % pr == 0) ? max_pad(it, R / pr - 1) : 0, 0, STEP_LINEAR};
        }
        return nb + 3;
    }
    }
}

static int64_t step_value(const dim_range *r, int64_t x)
{
    if (r->step == STEP_POW2) return x * 2;
    x++;
    if (r->step == STEP_DIVISOR)
        while (x <= r->hi && r->of % x != 0) x++;
    return x;
}

static int64_t first_value(const dim_range *r)
{
    int64_t x = r->lo;
    if (r->step == STEP_DIVISOR)
        while (x <= r->hi && (x < 1 || r->of % x != 0)) x++;
    return x;
}

static int first_from(layout_family_iter *it, int k)
{
    dim_range r;
    if (k >= iter_dims(it, k, &r)) return 1;
    iter_dims(it, k, &r);
    for (it->v[k] = first_value(&r); it->v[k] <= r.hi; it->v[k] = step_value(&r, it->v[k]))
        if (first_from(it, k + 1)) return 1;
    return 0;
}

static int next_from(layout_family_iter *it, int k)
{
    dim_range r;
    if (k >= iter_dims(it, k, &r)) return 0;
    if (next_from(it, k + 1)) return 1;
    iter_dims(it, k, &r);
    for (it->v[k] = step_value(&r, it->v[k]); it->v[k] <= r.hi; it->v[k] = step_value(&r, it->v[k]))
        if (first_from(it, k + 1)) return 1;
    return 0;
}

static void fill_base(layout_family_kind kind, const int64_t *v, int64_t R, int64_t C, int64_t *p)
{
    (void)R;
    switch (kind) {
    case LAYOUT_FAMILY_CK_XOR: p[0] = v[0]; p[1] = v[1]; p[2] = 1; break;
    case LAYOUT_FAMILY_CUTE_SWIZZLE: p[0] = v[0]; p[1] = v[1]; p[2] = v[2]; p[3] = 0; break;
    case LAYOUT_FAMILY_TRITON_SWIZZLED: p[0] = v[0]; p[1] = v[1]; p[2] = v[2]; break;
    default: p[0] = C; p[1] = v[0]; p[2] = C + v[2]; p[3] = v[1]; break;
    }
}

static void fill_params(const layout_family_iter *it, layout_family_params *o)
{
    int64_t R, C;
    it_rc(it, &R, &C);
    memset(o, 0, sizeof *o);
    o->kind = it->kind;
    o->contiguous_dim = it->contiguous_dim;
    const int64_t *v = it->v;
    switch (it->kind) {
    case LAYOUT_FAMILY_PAD: o->p[0] = v[0]; break;
    case LAYOUT_FAMILY_PAD_EVERY: o->p[0] = v[0]; o->p[1] = v[1]; break;
    case LAYOUT_FAMILY_XOR_PAD: {
        layout_family_kind base = xor_pad_bases[v[0]];
        dim_range r;
        int nb = base_dims(it, base, v + 1, 0, 0, &r);
        int64_t vb[4] = {0, 0, 0, 0}; /* IREE in XOR_PAD: no row_stride pad */
        for (int i = 0; i < nb; i++) vb[i] = v[1 + i];
        fill_base(base, vb, R, C, o->p);
        o->xor_kind = base;
        o->pad_rows = v[nb + 1];
        o->pad = v[nb + 2];
        break;
    }
    default: fill_base(it->kind, v, R, C, o->p); break;
    }
}

layout_status layout_family_iter_init(layout_family_iter *it, layout_family_kind kind, const int64_t tile[2],
                                      int contiguous_dim, int elem_bytes, int64_t budget_bytes, layout_error *err)
{
    static const char fn[] = "layout_family_iter_init";
    if (!it) return layout_fail(err, LAYOUT_ERR_NULL, "%s: it is NULL", fn);
    if (!tile) return layout_fail(err, LAYOUT_ERR_NULL, "%s: tile is NULL", fn);
    if ((int)kind < 0 || kind >= LAYOUT_FAMILY_COUNT)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: kind = %d is not a layout_family_kind", fn, (int)kind);
    layout_status s = layout_family_check_tile(fn, tile, contiguous_dim, err);
    if (s) return s;
    if (elem_bytes < 1 || elem_bytes > 16)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: elem_bytes = %d must be in 1..16", fn, elem_bytes);
    if (budget_bytes < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: budget_bytes = %lld must be >= 0", fn, (long long)budget_bytes);
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->tile[0] = tile[0];
    it->tile[1] = tile[1];
    it->contiguous_dim = contiguous_dim;
    it->elem_bytes = elem_bytes;
    it->budget_bytes = budget_bytes;
    it->done = kind == LAYOUT_FAMILY_F2;
    return layout_ok(err);
}

int layout_family_iter_next(layout_family_iter *it, layout_family_params *out)
{
    if (!it || !out) return 0;
    while (!it->done) {
        int ok = it->started ? next_from(it, 0) : first_from(it, 0);
        it->started = 1;
        if (!ok) {
            it->done = 1;
            break;
        }
        layout_family_params p;
        fill_params(it, &p);
        if (layout_family_check_params("layout_family_iter_next", &p, it->tile, NULL) != LAYOUT_OK) continue;
        int64_t R, C;
        it_rc(it, &R, &C);
        if ((layout_family_space_elems(&p, R, C) - R * C) * it->elem_bytes > it->budget_bytes) continue;
        *out = p;
        it->produced++;
        return 1;
    }
    return 0;
}
