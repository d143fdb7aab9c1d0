/* Lane addresses of an access plan: the byte address of every position of
 * every thread through the descriptor (or its compiled offset plan),
 * range-checked, and the per-position facts the compiler model reads from
 * them over every lane of every warp (layout_access_gather). */
#include "../core/internal.h"
#include "layout/access.h"
#include "dist_internal.h"
#include "access_internal.h"

#include <string.h>

_Static_assert(LAYOUT_MAX_THREAD_ELEMS <= 256, "rigid classes store positions in unsigned char");

/* Byte address of element offset `off` of (warp, lane, position pos), range-checked. */
static layout_status byte_addr(const layout_access_plan *pl, int warp, int lane, int pos, int64_t off, int64_t *addr,
                               layout_error *err)
{
    int64_t a;
    if (layout_mul_overflow(off, pl->elem_bytes, &a) || layout_add_overflow(a, pl->base_bytes, &a) || a < 0 ||
        a > (int64_t)UINT32_MAX - 16)
        return layout_fail(err, LAYOUT_ERR_RANGE,
                           "layout_access_plan_make: warp %d lane %d element %d has element offset %lld, byte "
                           "address outside 0..2^32-17",
                           warp, lane, pl->order[pos], (long long)off);
    *addr = a;
    return LAYOUT_OK;
}

/* Y digits' share of X of every position (encodings: X = thread part + this). */
static void elem_parts(const layout_access_plan *pl, int64_t (*part)[LAYOUT_MAX_DIMS])
{
    for (int p = 0; p < pl->n_elems; p++) {
        int64_t y[LAYOUT_MAX_DIMS];
        layout_dist_y_index(pl->dist, pl->order[p], y);
        layout_dist_elem_part(pl->dist, y, part[p]);
    }
}

/* Addresses of positions [p0, p0 + n) of one thread; `part` = elem_parts() for
 * encodings (indexed by position), NULL for plain distributions; `given_tp`:
 * the thread's layout_dist_thread_part() when the caller has it, else NULL. */
layout_status layout_access_thread_addrs_tp(const layout_access_plan *pl, int warp, int lane, int p0, int n,
                                     const int64_t (*part)[LAYOUT_MAX_DIMS], const int64_t *given_tp, int64_t *addr,
                                     layout_error *err)
{
    int64_t own_tp[LAYOUT_MAX_DIMS], x[LAYOUT_MAX_DIMS];
    const int64_t *tp = given_tp ? given_tp : own_tp;
    int nx = pl->dist->n_x;
    if (part && !given_tp) layout_dist_thread_part(pl->dist, warp, lane, own_tp);
    for (int p = p0; p < p0 + n; p++) {
        if (part) {
            for (int i = 0; i < nx; i++) x[i] = tp[i] + part[p - p0][i];
        } else {
            layout_status s = layout_dist_coord_elem(pl->dist, warp, lane, pl->order[p], x, err);
            if (s) return s;
        }
        /* x is inside the tile and the plan checked tile <= descriptor lengths. */
        int64_t off = pl->desc_plan ? layout_plan_offset_unchecked(pl->desc_plan, x)
                                    : layout_desc_offset_unchecked(pl->desc, x);
        layout_status s = byte_addr(pl, warp, lane, p, off, &addr[p - p0], err);
        if (s) return s;
    }
    return LAYOUT_OK;
}

static layout_status thread_addrs(const layout_access_plan *pl, int warp, int lane, int p0, int n,
                                  const int64_t (*part)[LAYOUT_MAX_DIMS], int64_t *addr, layout_error *err)
{
    return layout_access_thread_addrs_tp(pl, warp, lane, p0, n, part, NULL, addr, err);
}

/* Address of one position of one thread (slow path: explanations). */
layout_status layout_access_elem_addr(const layout_access_plan *pl, int warp, int lane, int pos, int64_t *addr,
                               layout_error *err)
{
    if (pl->dist->kind != LAYOUT_DIST_ENCODING) return thread_addrs(pl, warp, lane, pos, 1, NULL, addr, err);
    int64_t part[1][LAYOUT_MAX_DIMS], y[LAYOUT_MAX_DIMS];
    layout_dist_y_index(pl->dist, pl->order[pos], y);
    layout_dist_elem_part(pl->dist, y, part[0]);
    return thread_addrs(pl, warp, lane, pos, 1, (const int64_t(*)[LAYOUT_MAX_DIMS])part, addr, err);
}

/* One thread's step of the rigid classes: positions p and q stay in one
 * class while addr(p) - addr0(p) == addr(q) - addr0(q) in every thread
 * (addr0: thread 0's addresses).  klass[p] is the class's first position;
 * a position that leaves its class joins the class of the first earlier
 * position that left the same class with the same difference, or founds one. */
static void refine_classes(unsigned char *klass, unsigned char *prev, const int64_t *addr, const int64_t *addr0, int n)
{
    for (int p = 0; p < n; p++) {
        const int64_t e = addr[p] - addr0[p];
        prev[p] = klass[p];
        const int old = klass[p];
        if (old == p || e == addr[old] - addr0[old]) continue;
        int to = p;
        for (int q = old + 1; q < p; q++)
            if (prev[q] == old && klass[q] == q && addr[q] - addr0[q] == e) {
                to = q;
                break;
            }
        klass[p] = (unsigned char)to;
    }
}

layout_status layout_access_gather(const layout_access_plan *pl, layout_access_facts *f, layout_error *err)
{
    int n = pl->n_elems;
    int64_t addr[LAYOUT_MAX_THREAD_ELEMS];
    int64_t part[LAYOUT_MAX_THREAD_ELEMS][LAYOUT_MAX_DIMS];
    int enc = pl->dist->kind == LAYOUT_DIST_ENCODING;
    if (enc) elem_parts(pl, part);
    int64_t *addr0 = f->rel; /* thread 0's addresses until the end */
    unsigned char prev[LAYOUT_MAX_THREAD_ELEMS];
    for (int p = 0; p < n; p++) {
        f->residues[p] = 0;
        f->next_adjacent[p] = 1;
        f->next_below[p] = 1;
        f->break_warp[p] = f->break_lane[p] = -1;
        f->klass[p] = 0;
    }
    for (int w = 0; w < pl->dist->n_warps; w++)
        for (int l = 0; l < pl->dist->wave_size; l++) {
            layout_status s = thread_addrs(pl, w, l, 0, n, enc ? (const int64_t(*)[LAYOUT_MAX_DIMS])part : NULL, addr, err);
            if (s) return s;
            for (int p = 0; p < n; p++) f->residues[p] |= 1u << (addr[p] % 16);
            if (w == 0 && l == 0) memcpy(addr0, addr, sizeof addr0[0] * (size_t)n);
            else refine_classes(f->klass, prev, addr, addr0, n);
            for (int p = 0; p + 1 < n; p++) {
                if (addr[p + 1] != addr[p] - pl->elem_bytes) f->next_below[p] = 0;
                if (f->next_adjacent[p] && addr[p + 1] != addr[p] + pl->elem_bytes) {
                    f->next_adjacent[p] = 0;
                    f->break_warp[p] = w;
                    f->break_lane[p] = l;
                }
            }
        }
    if (n > 0) f->next_adjacent[n - 1] = f->next_below[n - 1] = 0;
    for (int p = n - 1; p >= 0; p--) f->rel[p] = addr0[p] - addr0[f->klass[p]]; /* klass[p] <= p: downwards */
    return LAYOUT_OK;
}
