/* Access plans from precomputed addresses, the layout search's entry point
 * (lib/suggest): the issue order from the view's hints
 * (layout_access_table_order), the facts from a position-major address table
 * or given in closed form, then the compiler model (access_model.c). */
#include "layout/access.h"
#include "access_internal.h"

#include <string.h>

void layout_access_table_order(layout_access_plan *pl, const layout_distribution *dist, layout_direction direction,
                               int elem_bytes, const layout_access_options *opt, const int64_t *hint_lengths,
                               const int64_t *hint_strides)
{
    /* The caller (lib/suggest) validated everything once with
     * layout_access_plan_make(); only the addresses and hints vary. */
    pl->desc = NULL;
    pl->dist = dist;
    pl->desc_plan = NULL;
    pl->direction = direction;
    pl->elem_bytes = elem_bytes;
    pl->base_bytes = opt->base_bytes;
    pl->n_elems = (int)dist->elems_per_thread;
    pl->n_steps = pl->n_instrs = 0;
    memset(pl->op_count, 0, sizeof pl->op_count);
    pl->n_misaligned = pl->n_noncontiguous = pl->n_vectors_split = 0;
    if (opt->vector_elems > 0) {
        pl->vector_y = opt->vector_y;
        pl->vector_elems = opt->vector_elems;
    } else {
        layout_access_pick_vector_hints(pl, hint_lengths, hint_strides);
    }
    pl->n_accesses = pl->n_elems / pl->vector_elems;
    layout_access_build_order(pl);
}

/* Rigid classes (access_plan.h) of position-major addresses: p joins
 * the class of the first earlier founder r with addr_t(p) - addr_t(r) the
 * same in every thread t (a mismatch shows within a few threads); the
 * previous position's class is tried first. */
static int same_difference(const uint32_t *a, const uint32_t *b, int n_threads)
{
    const uint32_t d = a[0] - b[0];
    for (int t = 1; t < n_threads; t++)
        if (a[t] - b[t] != d) return 0;
    return 1;
}

static void table_classes(layout_access_facts *f, const uint32_t *addr, int n, int n_threads, int64_t eb)
{
    for (int p = 0; p < n; p++) {
        const uint32_t *a = addr + (size_t)p * (size_t)n_threads;
        int r = p;
        if (p > 0 && (f->next_adjacent[p - 1] || f->next_below[p - 1])) { /* adjacent: rigid already */
            f->klass[p] = f->klass[p - 1];
            f->rel[p] = f->rel[p - 1] + (f->next_adjacent[p - 1] ? eb : -eb);
            continue;
        }
        if (p > 0 && same_difference(a, addr + (size_t)f->klass[p - 1] * (size_t)n_threads, n_threads))
            r = f->klass[p - 1];
        for (int q = 0; r == p && q < p; q++)
            if (f->klass[q] == q && (p == 0 || q != f->klass[p - 1]) &&
                same_difference(a, addr + (size_t)q * (size_t)n_threads, n_threads))
                r = q;
        f->klass[p] = (unsigned char)r;
        f->rel[p] = (int64_t)a[0] - (int64_t)addr[(size_t)r * (size_t)n_threads];
    }
}

layout_status layout_access_table_build(layout_access_plan *pl, const layout_access_options *opt,
                                        const uint32_t *addr, int n_threads, layout_error *err)
{
    layout_access_facts facts;
    layout_access_facts *f = &facts;
    int n = pl->n_elems;
    uint32_t eb = (uint32_t)pl->elem_bytes;
    for (int p = 0; p < n; p++) {
        const uint32_t *a = addr + (size_t)p * (size_t)n_threads;
        /* residues: a 16-entry presence table, four independent chains */
        unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
        int t = 0;
        for (; t + 4 <= n_threads; t += 4) {
            r0 |= 1u << (a[t] & 15u);
            r1 |= 1u << (a[t + 1] & 15u);
            r2 |= 1u << (a[t + 2] & 15u);
            r3 |= 1u << (a[t + 3] & 15u);
        }
        for (; t < n_threads; t++) r0 |= 1u << (a[t] & 15u);
        f->residues[p] = r0 | r1 | r2 | r3;
        f->break_warp[p] = f->break_lane[p] = -1;
        if (p + 1 == n) {
            f->next_adjacent[p] = f->next_below[p] = 0;
            break;
        }
        /* adjacency: the same difference eb (or -eb) in every thread */
        const uint32_t *b = a + n_threads;
        uint32_t d0 = b[0] - a[0];
        unsigned same = d0 == eb || d0 == 0u - eb;
        for (t = 1; same && t < n_threads; t++) same = b[t] - a[t] == d0;
        f->next_adjacent[p] = (unsigned char)(same && d0 == eb);
        f->next_below[p] = (unsigned char)(same && d0 == 0u - eb);
    }
    table_classes(f, addr, n, n_threads, (int64_t)eb);
    return layout_access_table_build_facts(pl, opt, f, err);
}

layout_status layout_access_table_build_facts(layout_access_plan *pl, const layout_access_options *opt,
                                              const layout_access_facts *f, layout_error *err)
{
    return opt->op == LAYOUT_DS_AUTO ? layout_access_build_auto(pl, f, opt, err)
                                     : layout_access_build_explicit(pl, f, opt->op, err);
}
