/* Access plans' entry point (layout_access_plan_make): the argument checks,
 * then ck_tile's tile-window vectorisation (the vector Y and its length from
 * the view's hints) and snake issue order, then the facts of the addresses
 * (access_addr.c) and the compiler model (access_model.c). */
#include "../core/internal.h"
#include "../core/bits.h"
#include "layout/access.h"
#include "dist_internal.h"
#include "access_internal.h"

#include <string.h>

/* ck_tile's choice of vector Y and ScalarPerVector from the descriptor's hints. */
static layout_status pick_vector(layout_access_plan *pl, layout_error *err)
{
    pl->vector_y = -1;
    pl->vector_elems = 1;
    if (pl->dist->kind != LAYOUT_DIST_ENCODING) return LAYOUT_OK;
    int64_t lens[LAYOUT_MAX_DIMS], strides[LAYOUT_MAX_DIMS];
    layout_status s = layout_desc_vector_hints(pl->desc, lens, strides, err);
    if (s) return s;
    layout_access_pick_vector_hints(pl, lens, strides);
    return LAYOUT_OK;
}

/* The choice itself, from the view's hints (lens, strides per X dim). */
void layout_access_pick_vector_hints(layout_access_plan *pl, const int64_t *lens, const int64_t *strides)
{
    const layout_distribution *d = pl->dist;
    pl->vector_y = -1;
    pl->vector_elems = 1;
    if (d->kind != LAYOUT_DIST_ENCODING) return;
    const layout_dist_encoding *e = &d->encoding;
    int64_t best = 1;
    for (int j = 0; j < e->n_y; j++) {
        int ma = e->y_major[j], mi = e->y_minor[j];
        if (ma < 1) continue;
        int i = ma - 1;
        if (mi != e->n_h[i] - 1 || strides[i] != 1 || lens[i] <= 0) continue;
        int64_t v = layout_gcd(lens[i], e->h[i][mi]);
        if (v > best) {
            best = v;
            pl->vector_y = j;
        }
    }
    pl->vector_elems = (int)best;
}

/* Snake-ordered space-filling curve over the Y access lengths (ck_tile's order). */
void layout_access_build_order(layout_access_plan *pl)
{
    const layout_distribution *d = pl->dist;
    int ny = d->n_y;
    int64_t alen[LAYOUT_MAX_DIMS];
    for (int j = 0; j < ny; j++) alen[j] = d->y_lengths[j] / (j == pl->vector_y ? pl->vector_elems : 1);
    int pos = 0;
    for (int a = 0; a < pl->n_accesses; a++) {
        int64_t digit[LAYOUT_MAX_DIMS], y[LAYOUT_MAX_DIMS], rest = a;
        for (int j = ny - 1; j >= 0; j--) {
            digit[j] = rest % alen[j];
            rest /= alen[j];
        }
        int64_t prefix = 0;
        for (int j = 0; j < ny; j++) {
            int64_t idx = (j > 0 && prefix % 2) ? alen[j] - 1 - digit[j] : digit[j];
            prefix = prefix * alen[j] + digit[j];
            y[j] = idx * (j == pl->vector_y ? pl->vector_elems : 1);
        }
        for (int v = 0; v < pl->vector_elems; v++) {
            if (pl->vector_y >= 0) y[pl->vector_y] = (y[pl->vector_y] / pl->vector_elems) * pl->vector_elems + v;
            pl->order[pos++] = (int)layout_dist_elem_index(d, y);
        }
    }
}

layout_status layout_access_plan_make(layout_access_plan *plan, const layout_descriptor *desc,
                                      const layout_distribution *dist, layout_direction direction, int elem_bytes,
                                      const layout_access_options *opt, layout_error *err)
{
    static const char name[] = "layout_access_plan_make";
    static const layout_access_options defaults;
    if (!plan) return layout_fail(err, LAYOUT_ERR_NULL, "%s: plan is NULL", name);
    if (!desc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: desc is NULL", name);
    if (!dist) return layout_fail(err, LAYOUT_ERR_NULL, "%s: dist is NULL", name);
    if (!opt) opt = &defaults;
    if (direction != LAYOUT_READ && direction != LAYOUT_WRITE)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: direction = %d must be LAYOUT_READ or LAYOUT_WRITE", name,
                           (int)direction);
    if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8 && elem_bytes != 16)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: elem_bytes = %d must be 1, 2, 4, 8 or 16", name, elem_bytes);
    if (opt->policy != LAYOUT_VECTOR_TRUST && opt->policy != LAYOUT_VECTOR_SPLIT)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->policy = %d is not a layout_vector_policy", name,
                           (int)opt->policy);
    if (opt->op < LAYOUT_DS_AUTO || opt->op >= LAYOUT_DS_OP_COUNT)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->op = %d is not a layout_ds_op", name, (int)opt->op);
    if (opt->base_bytes < 0 || opt->base_bytes > (int64_t)UINT32_MAX)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->base_bytes = %lld must be in 0..2^32-1", name,
                           (long long)opt->base_bytes);
    if (layout_desc_ndims(desc) != dist->n_x)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: desc has %d dims, the distribution's tile has %d", name,
                           layout_desc_ndims(desc), dist->n_x);
    for (int i = 0; i < dist->n_x; i++)
        if (layout_desc_length(desc, i) < dist->x_lengths[i])
            return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: desc length[%d] = %lld < tile length %lld", name, i,
                               (long long)layout_desc_length(desc, i), (long long)dist->x_lengths[i]);
    if (dist->elems_per_thread > LAYOUT_MAX_THREAD_ELEMS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %lld elements per thread, capacity LAYOUT_MAX_THREAD_ELEMS is %d",
                           name, (long long)dist->elems_per_thread, LAYOUT_MAX_THREAD_ELEMS);

    /* Work on a local copy so *plan stays untouched on failure. */
    layout_access_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.desc = desc;
    pl.dist = dist;
    pl.direction = direction;
    pl.elem_bytes = elem_bytes;
    pl.base_bytes = opt->base_bytes;
    if (opt->desc_plan) {
        if (opt->desc_plan->n_top != layout_desc_ndims(desc))
            return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: opt->desc_plan has %d top dims, desc has %d", name,
                               opt->desc_plan->n_top, layout_desc_ndims(desc));
        for (int i = 0; i < opt->desc_plan->n_top; i++)
            if (opt->desc_plan->top_lengths[i] != layout_desc_length(desc, i))
                return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: opt->desc_plan top length[%d] = %lld, desc has %lld",
                                   name, i, (long long)opt->desc_plan->top_lengths[i],
                                   (long long)layout_desc_length(desc, i));
        pl.desc_plan = opt->desc_plan;
    }
    pl.n_elems = (int)dist->elems_per_thread;
    if (opt->vector_elems > 0) {
        if (opt->vector_y < 0 || opt->vector_y >= dist->n_y)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->vector_y = %d must be in 0..%d", name, opt->vector_y,
                               dist->n_y - 1);
        if (dist->y_lengths[opt->vector_y] % opt->vector_elems)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->vector_elems = %d does not divide Y%d length %lld", name,
                               opt->vector_elems, opt->vector_y, (long long)dist->y_lengths[opt->vector_y]);
        pl.vector_y = opt->vector_y;
        pl.vector_elems = opt->vector_elems;
    } else if (opt->vector_elems < 0) {
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: opt->vector_elems = %d must be >= 0", name, opt->vector_elems);
    } else {
        layout_status s = pick_vector(&pl, err);
        if (s) return s;
    }
    pl.n_accesses = pl.n_elems / pl.vector_elems;
    layout_access_build_order(&pl);

    layout_access_facts facts;
    layout_status s = layout_access_gather(&pl, &facts, err);
    if (s) return s;
    s = opt->op == LAYOUT_DS_AUTO ? layout_access_build_auto(&pl, &facts, opt, err)
                                  : layout_access_build_explicit(&pl, &facts, opt->op, err);
    if (s) return s;
    *plan = pl;
    return layout_ok(err);
}
