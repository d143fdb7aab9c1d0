/* The search's scorer: each side's (warp, lane, element) -> tile index once
 * per spec, then per candidate only the LDS mapping, the compiler model on
 * the resulting addresses and the checker (see suggest.h). */
#include "suggest_internal.h"
#include "../tile/access_plan.h"
#include "../core/bits.h"
#include "layout/plan.h"
#include "layout/transform.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static layout_status side_fail(layout_error *err, layout_status s, const char *fn, int side)
{
    if (err) {
        char msg[LAYOUT_ERROR_MESSAGE_CAP];
        memcpy(msg, err->message, sizeof msg);
        layout_fail(err, s, "%s: sides[%d]: %s", fn, side, msg);
    }
    return s;
}

layout_status layout_suggest_check_spec(const char *fn, const layout_suggest_spec *spec, int64_t *tile_elems,
                                        int64_t *side_max, layout_error *err)
{
    int64_t most = 0;
    if (!spec->arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->arch is NULL", fn);
    int eb = spec->elem_bytes;
    if (eb != 1 && eb != 2 && eb != 4 && eb != 8 && eb != 16)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->elem_bytes = %d must be 1, 2, 4, 8 or 16", fn, eb);
    if (spec->n_dims < 1 || spec->n_dims > LAYOUT_MAX_DIMS)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->n_dims = %d must be in 1..%d", fn, spec->n_dims,
                           LAYOUT_MAX_DIMS);
    int64_t n = 1;
    for (int i = 0; i < spec->n_dims; i++) {
        if (spec->tile[i] < 1)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->tile[%d] = %lld must be >= 1", fn, i,
                               (long long)spec->tile[i]);
        if (spec->tile[i] > LAYOUT_SUGGEST_MAX_TILE || (n *= spec->tile[i]) > LAYOUT_SUGGEST_MAX_TILE)
            return layout_fail(err, LAYOUT_ERR_CAPACITY,
                               "%s: the tile has more than LAYOUT_SUGGEST_MAX_TILE = %d elements (256 x 256)", fn,
                               LAYOUT_SUGGEST_MAX_TILE);
    }
    if (spec->n_sides < 1 || spec->n_sides > LAYOUT_SUGGEST_MAX_SIDES)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->n_sides = %d must be in 1..%d", fn, spec->n_sides,
                           LAYOUT_SUGGEST_MAX_SIDES);
    if (spec->budget_bytes < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->budget_bytes = %lld must be >= 0", fn,
                           (long long)spec->budget_bytes);
    if (spec->families == 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->families = 0: no family to search", fn);
    if (spec->top_k < 0 || spec->top_k > LAYOUT_SUGGEST_MAX_TOP)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->top_k = %d must be in 0..%d", fn, spec->top_k,
                           LAYOUT_SUGGEST_MAX_TOP);
    if (spec->threads < 0 || spec->threads > LAYOUT_SUGGEST_MAX_THREADS)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->threads = %d must be in 0..%d", fn, spec->threads,
                           LAYOUT_SUGGEST_MAX_THREADS);
    for (int s = 0; s < spec->n_sides; s++) {
        const layout_suggest_side *sd = &spec->sides[s];
        const layout_distribution *d = sd->dist;
        if (!d) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->sides[%d].dist is NULL", fn, s);
        if (sd->direction != LAYOUT_READ && sd->direction != LAYOUT_WRITE)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->sides[%d].direction = %d must be LAYOUT_READ or LAYOUT_WRITE",
                               fn, s, (int)sd->direction);
        if (sd->opt.desc_plan)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->sides[%d].opt.desc_plan must be NULL (the search compiles each candidate)",
                               fn, s);
        if (d->n_x != spec->n_dims)
            return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: spec->sides[%d]: the distribution has %d dims, the tile %d",
                               fn, s, d->n_x, spec->n_dims);
        if (sd->has_view) {
            unsigned seen = 0;
            for (int i = 0; i < spec->n_dims; i++) {
                int v = sd->view[i];
                if (v < 0 || v >= spec->n_dims || (seen & (1u << v)))
                    return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->sides[%d].view is not a permutation of 0..%d (view[%d] = %d)",
                                       fn, s, spec->n_dims - 1, i, v);
                seen |= 1u << v;
            }
        }
        for (int i = 0; i < spec->n_dims; i++) {
            int64_t want = spec->tile[sd->has_view ? sd->view[i] : i];
            if (d->x_lengths[i] != want)
                return layout_fail(err, LAYOUT_ERR_MISMATCH,
                                   "%s: spec->sides[%d]: the distribution's tile length[%d] = %lld != %lld, the tile seen through the side's view",
                                   fn, s, i, (long long)d->x_lengths[i], (long long)want);
        }
        if (d->wave_size != spec->arch->wave_size)
            return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: spec->sides[%d]: distribution wave_size %d != arch %s wave_size %d",
                               fn, s, d->wave_size, spec->arch->name, spec->arch->wave_size);
        int64_t m = (int64_t)d->n_warps * d->wave_size * d->elems_per_thread;
        if (m > LAYOUT_SUGGEST_MAX_SIDE_ELEMS)
            return layout_fail(err, LAYOUT_ERR_CAPACITY,
                               "%s: spec->sides[%d]: %lld (thread, element) pairs, capacity LAYOUT_SUGGEST_MAX_SIDE_ELEMS is %d",
                               fn, s, (long long)m, LAYOUT_SUGGEST_MAX_SIDE_ELEMS);
        if (d->n_warps > LAYOUT_SUGGEST_MAX_WARPS) /* distributions stop there already; the scorer's tables rely on it */
            return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: sides[%d]: %d warps, at most %d", fn, s, d->n_warps,
                               LAYOUT_SUGGEST_MAX_WARPS);
        most = m > most ? m : most;
    }
    *tile_elems = n;
    *side_max = most;
    return LAYOUT_OK;
}

layout_status layout_suggest_view(const layout_suggest_spec *spec, int side, const layout_descriptor *desc,
                                  layout_descriptor *out, layout_error *err)
{
    static const char fn[] = "layout_suggest_view";
    if (!spec) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec is NULL", fn);
    if (!desc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: desc is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (side < 0 || side >= spec->n_sides || side >= LAYOUT_SUGGEST_MAX_SIDES)
        return layout_fail(err, LAYOUT_ERR_RANGE, "%s: side = %d must be in 0..%d", fn, side, spec->n_sides - 1);
    const layout_suggest_side *sd = &spec->sides[side];
    if (!sd->has_view) {
        if (out != desc) *out = *desc;
        return layout_ok(err);
    }
    int n = layout_desc_ndims(desc);
    layout_transform t[LAYOUT_MAX_DIMS];
    layout_seq lo[LAYOUT_MAX_DIMS], up[LAYOUT_MAX_DIMS];
    memset(lo, 0, sizeof lo);
    memset(up, 0, sizeof up);
    if (n != spec->n_dims)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: desc has %d dims, the tile %d", fn, n, spec->n_dims);
    /* Transform j passes old (tile) dim j through to the view position showing it. */
    for (int i = 0; i < n; i++) {
        int j = sd->view[i];
        if (j < 0 || j >= n) return layout_fail(err, LAYOUT_ERR_ARG, "%s: view[%d] = %d is out of range", fn, i, j);
        layout_status s = layout_make_pass_through(layout_desc_length(desc, j), &t[j], err);
        if (s) return s;
        lo[j].n = 1;
        lo[j].ids[0] = j;
        up[j].n = 1;
        up[j].ids[0] = i;
    }
    return layout_transform_descriptor(out, desc, n, t, lo, up, err);
}

/* Whether side i's tile index is F2-linear in the bits of its (warp, lane,
 * element) index (scorer.f2_bits): checked on every index, as the F2 scorer
 * (score_linear.c) relies on it. */
static void f2_side(layout_suggest_scorer *sc, int i)
{
    const layout_distribution *d = sc->spec.sides[i].dist;
    int eb = layout_log2_exact(d->elems_per_thread), lb = layout_log2_exact(d->wave_size), wb = layout_log2_exact(d->n_warps);
    sc->f2_bits[i][0] = sc->f2_bits[i][1] = sc->f2_bits[i][2] = -1;
    memset(sc->f2_basis[i], 0, sizeof sc->f2_basis[i]);
    if (eb < 0 || lb < 0 || wb < 0 || eb + lb + wb > 16) return;
    const int32_t *lin = layout_suggest_side_lin(sc, i);
    int nb = eb + lb + wb, m = sc->side_elems[i];
    if (lin[0] != 0) return;
    for (int j = 0; j < nb; j++) sc->f2_basis[i][j] = lin[(size_t)1 << j];
    for (int k = 1; k < m; k++) /* lin[k] = lin[k without its lowest bit] ^ lin[lowest bit] */
        if (lin[k] != (lin[k & (k - 1)] ^ lin[k & -k])) return;
    sc->f2_bits[i][0] = eb;
    sc->f2_bits[i][1] = lb;
    sc->f2_bits[i][2] = wb;
}

layout_status layout_suggest_prepare(layout_suggest_scorer *out, const layout_suggest_spec *spec, layout_error *err)
{
    return layout_suggest_prepare_ext(out, spec, NULL, 0, err);
}

layout_status layout_suggest_prepare_ext(layout_suggest_scorer *out, const layout_suggest_spec *spec, int32_t *lin_ext,
                                         int64_t lin_stride, layout_error *err)
{
    static const char fn[] = "layout_suggest_prepare";
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (!spec) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec is NULL", fn);
    int64_t tile_elems = 0, side_max = 0;
    layout_status s = layout_suggest_check_spec(fn, spec, &tile_elems, &side_max, err);
    if (s) return s;
    if (!lin_ext && (tile_elems > LAYOUT_SUGGEST_INLINE_ELEMS || side_max > LAYOUT_SUGGEST_INLINE_ELEMS))
        return layout_fail(err, LAYOUT_ERR_CAPACITY,
                           "%s: %lld tile elements and up to %lld (thread, element) pairs per side: more than "
                           "LAYOUT_SUGGEST_INLINE_ELEMS = %d, the scorer's own tables (use layout_suggest_ws() with a "
                           "workspace: up to LAYOUT_SUGGEST_MAX_TILE = %d)",
                           fn, (long long)tile_elems, (long long)side_max, LAYOUT_SUGGEST_INLINE_ELEMS,
                           LAYOUT_SUGGEST_MAX_TILE);
    if (lin_ext && side_max > lin_stride)
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: %lld (thread, element) pairs per side, the tables hold %lld", fn,
                           (long long)side_max, (long long)lin_stride);

    /* Every side must plan on the packed tile (it validates options, capacity). */
    layout_descriptor packed, view;
    if ((s = layout_packed(&packed, spec->n_dims, spec->tile, err))) return s;
    for (int i = 0; i < spec->n_sides; i++) {
        layout_access_plan plan;
        const layout_suggest_side *sd = &spec->sides[i];
        if ((s = layout_suggest_view(spec, i, &packed, &view, err)) ||
            (s = layout_access_plan_make(&plan, &view, sd->dist, sd->direction, spec->elem_bytes, &sd->opt, err)))
            return side_fail(err, s, fn, i);
    }

    layout_checker checker;
    if ((s = layout_checker_init(&checker, spec->arch, LAYOUT_IMPL_AUTO, err))) return s;

    /* Built in place: the scorer is large; on failure only the lin table may
     * have been touched, so check coverage into a local bitmap first. */
    static const uint8_t zero = 0;
    (void)zero;
    for (int i = 0; i < spec->n_sides; i++) {
        const layout_suggest_side *sd = &spec->sides[i];
        const layout_distribution *d = sd->dist;
        uint8_t seen[LAYOUT_SUGGEST_MAX_TILE / 8 + 1];
        memset(seen, 0, sizeof seen);
        int n = (int)d->elems_per_thread;
        for (int w = 0; w < d->n_warps; w++)
            for (int l = 0; l < d->wave_size; l++)
                for (int e = 0; e < n; e++) {
                    int64_t x[LAYOUT_MAX_DIMS], t[LAYOUT_MAX_DIMS];
                    if ((s = layout_dist_coord_elem(d, w, l, e, x, err))) return side_fail(err, s, fn, i);
                    for (int k = 0; k < spec->n_dims; k++) t[sd->has_view ? sd->view[k] : k] = x[k];
                    int64_t lin = 0;
                    for (int k = 0; k < spec->n_dims; k++) lin = lin * spec->tile[k] + t[k];
                    seen[lin >> 3] |= (uint8_t)(1u << (lin & 7));
                }
        for (int64_t e = 0; e < tile_elems; e++)
            if (!(seen[e >> 3] & (1u << (e & 7)))) {
                char where[128];
                int len = 0;
                int64_t rest = e, c[LAYOUT_MAX_DIMS];
                for (int k = spec->n_dims - 1; k >= 0; k--) {
                    c[k] = rest % spec->tile[k];
                    rest /= spec->tile[k];
                }
                for (int k = 0; k < spec->n_dims; k++)
                    len += snprintf(where + len, sizeof where - (size_t)len, "%s%lld", k ? ", " : "", (long long)c[k]);
                return layout_fail(err, LAYOUT_ERR_ARG,
                                   "%s: spec->sides[%d]: the distribution does not cover the tile: no thread touches tile element (%s)",
                                   fn, i, where);
            }
    }
    memset(out->side_elems, 0, sizeof out->side_elems);
    for (int i = 0; i < LAYOUT_SUGGEST_MAX_SIDES; i++) out->f2_bits[i][0] = out->f2_bits[i][1] = out->f2_bits[i][2] = -1;
    memset(out->f2_basis, 0, sizeof out->f2_basis);
    out->spec = *spec;
    if (out->spec.top_k == 0) out->spec.top_k = 8;
    for (int i = 0; i < out->spec.n_sides; i++) /* the compiler model's forms are the target's (access.h) */
        if (!out->spec.sides[i].opt.arch) out->spec.sides[i].opt.arch = spec->arch;
    out->checker = checker;
    out->tile_elems = tile_elems;
    out->lin_ext = lin_ext;
    out->lin_ext_stride = lin_ext ? lin_stride : 0;
    /* lcm(bank row bytes, 16): shifts by it keep banks and alignments (score) */
    {
        int64_t row = (int64_t)spec->arch->n_banks * spec->arch->bank_width_bytes, a = row, b = 16;
        while (b) {
            int64_t t = a % b;
            a = b;
            b = t;
        }
        out->period = row / a * 16;
    }
    for (int i = 0; i < spec->n_sides; i++) {
        const layout_suggest_side *sd = &spec->sides[i];
        const layout_distribution *d = sd->dist;
        int n = (int)d->elems_per_thread, k = 0;
        for (int w = 0; w < d->n_warps; w++)
            for (int l = 0; l < d->wave_size; l++)
                for (int e = 0; e < n; e++, k++) {
                    int64_t x[LAYOUT_MAX_DIMS], t[LAYOUT_MAX_DIMS];
                    layout_dist_coord_elem(d, w, l, e, x, NULL); /* succeeded above */
                    for (int q = 0; q < spec->n_dims; q++) t[sd->has_view ? sd->view[q] : q] = x[q];
                    int64_t lin = 0;
                    for (int q = 0; q < spec->n_dims; q++) lin = lin * spec->tile[q] + t[q];
                    (lin_ext ? lin_ext + (size_t)i * (size_t)lin_stride : out->lin[i])[k] = (int32_t)lin;
                }
        out->side_elems[i] = k;
        f2_side(out, i);
    }
    return layout_ok(err);
}

int layout_suggest_score_cmp(const layout_suggest_cost *a, const layout_suggest_cost *b)
{
#define LAYOUT_CMP_FIELD(f) \
    if (a->f != b->f) return a->f < b->f ? -1 : 1
    LAYOUT_CMP_FIELD(vector_damage);
    LAYOUT_CMP_FIELD(extra_cycles);
    LAYOUT_CMP_FIELD(instrs);
    LAYOUT_CMP_FIELD(lds_bytes);
    LAYOUT_CMP_FIELD(index_ops);
#undef LAYOUT_CMP_FIELD
    return 0;
}

static layout_status check_desc(const char *fn, const layout_suggest_scorer *sc, const layout_descriptor *desc,
                                layout_error *err)
{
    if (layout_desc_ndims(desc) != sc->spec.n_dims)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: desc has %d dims, the tile %d", fn, layout_desc_ndims(desc),
                           sc->spec.n_dims);
    for (int i = 0; i < sc->spec.n_dims; i++)
        if (layout_desc_length(desc, i) != sc->spec.tile[i])
            return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: desc length[%d] = %lld != tile length %lld", fn, i,
                               (long long)layout_desc_length(desc, i), (long long)sc->spec.tile[i]);
    return LAYOUT_OK;
}

static void score_side_counts(layout_suggest_cost *r, int i, const layout_access_plan *p)
{
    r->side_steps[i] = p->n_steps;
    memcpy(r->side_op_count[i], p->op_count, sizeof r->side_op_count[i]);
    r->side_misaligned[i] = p->n_misaligned;
    r->side_noncontiguous[i] = p->n_noncontiguous;
    r->side_split[i] = p->n_vectors_split;
    r->vector_damage += p->n_misaligned + p->n_noncontiguous + p->n_vectors_split;
    r->instrs += (int64_t)p->n_instrs * p->dist->n_warps;
}

#define WS_ROUND(x) (((size_t)(x) + 63u) & ~(size_t)63u)

size_t layout_suggest_work_ext_bytes(const layout_suggest_scorer *sc)
{
    int64_t most = 0;
    for (int i = 0; i < sc->spec.n_sides; i++) most = sc->side_elems[i] > most ? sc->side_elems[i] : most;
    return WS_ROUND(sizeof(int64_t) * (size_t)sc->tile_elems) + WS_ROUND(sizeof(uint32_t) * (size_t)sc->tile_elems) +
           (size_t)(1 + sc->spec.n_sides) * WS_ROUND(sizeof(uint32_t) * (size_t)most);
}

void layout_suggest_work_attach(layout_suggest_work *w, const layout_suggest_scorer *sc, void *ext)
{
    layout_suggest_work_init(w);
    int64_t most = 0;
    for (int i = 0; i < sc->spec.n_sides; i++) most = sc->side_elems[i] > most ? sc->side_elems[i] : most;
    unsigned char *p = ext;
    w->tile_off = (int64_t *)(void *)p;
    p += WS_ROUND(sizeof(int64_t) * (size_t)sc->tile_elems);
    w->tile_addr = (uint32_t *)(void *)p;
    p += WS_ROUND(sizeof(uint32_t) * (size_t)sc->tile_elems);
    w->addr = (uint32_t *)(void *)p;
    p += WS_ROUND(sizeof(uint32_t) * (size_t)most);
    for (int i = 0; i < sc->spec.n_sides; i++) {
        w->lin_pm[i] = (int32_t *)(void *)p;
        p += WS_ROUND(sizeof(uint32_t) * (size_t)most);
    }
    w->tile_cap = (size_t)sc->tile_elems;
}

void layout_suggest_work_init(layout_suggest_work *w)
{
    w->tile_off = w->inl_tile_off;
    w->tile_addr = w->inl_tile_addr;
    w->addr = w->inl_addr;
    for (int i = 0; i < LAYOUT_SUGGEST_MAX_SIDES; i++) w->lin_pm[i] = w->inl_lin_pm[i];
    w->tile_cap = LAYOUT_SUGGEST_INLINE_ELEMS;
    w->cut_fn = NULL;
    w->cut_ctx = NULL;
    w->cut_hit = 0;
    w->last_instrs[0] = w->last_instrs[1] = 0;
    w->extra_first = 0;
    w->ll_sc = NULL;
    w->sumcache[0].sc = w->sumcache[1].sc = NULL;
    w->rcache[0].sc = w->rcache[1].sc = NULL;
    for (int i = 0; i < LAYOUT_SUGGEST_MAX_SIDES; i++) w->ecache[i].sc = NULL;
    for (int i = 0; i < LAYOUT_SUGGEST_MAX_SIDES; i++) w->xcache[i].sc = NULL;
    w->hint_valid = 0;
    memset(&w->hint_key, 0, sizeof w->hint_key);
    for (int i = 0; i < LAYOUT_SUGGEST_MAX_SIDES; i++) {
        w->cached_vy[i] = w->cached_ve[i] = -2;
        w->tcache[i].sc = NULL;
    }
    w->steps_cache[0].sc = w->steps_cache[1].sc = NULL;
}

layout_status layout_suggest_score_work(const layout_suggest_scorer *sc, const layout_descriptor *desc,
                                        layout_suggest_work *w, layout_suggest_cost *out, layout_error *err)
{
    static const char fn[] = "layout_suggest_score";
    layout_status s = check_desc(fn, sc, desc, err);
    if (s) return s;
    if ((s = layout_plan_build(&w->dplan, desc, LAYOUT_PLAN_AUTO, err))) return s;
    if ((s = layout_plan_tile(&w->dplan, w->tile_off, NULL, w->tile_cap, err))) return s;
    int64_t hl[LAYOUT_MAX_DIMS], hs[LAYOUT_MAX_DIMS];
    if ((s = layout_desc_vector_hints(desc, hl, hs, err))) return s;
    return layout_suggest_score_offsets(sc, w, hl, hs, layout_desc_element_space_size(desc), w->dplan.n_ops, out, err);
}

/* A family set's score from its vector hints (hl, hs) and element space:
 * offsets from the linear form where the set is linear, else from the
 * closed form's tile. */
static layout_status score_family_hinted(const layout_suggest_scorer *sc, const layout_family_params *params,
                                         const int64_t *hl, const int64_t *hs, int64_t space, layout_suggest_work *w,
                                         layout_suggest_cost *out, layout_error *err)
{
    int pad_shift;
    int64_t pad;
    layout_family_params unpadded;
    /* linear, or linear plus a pad term (score_linear.c); the linear form
     * of the unpadded set is kept in *w for the next set (the enumeration
     * varies the padding fastest) */
    if (sc->spec.n_dims == 2 && layout_family_pad_form(params, sc->spec.tile, &unpadded, &pad, &pad_shift)) {
        if (w->ll_sc != (const void *)sc || memcmp(&unpadded, &w->ll_key, sizeof unpadded)) {
            uint64_t bases[64];
            int in_bits[2], out_bits;
            w->ll_sc = sc;
            w->ll_key = unpadded;
            w->ll_ok = 0;
            if (layout_family_linear_bases(&unpadded, sc->spec.tile, bases, in_bits, &out_bits)) {
                static const char *const ins[2] = {"dim0", "dim1"}, *const outs[1] = {"offset"};
                int64_t b[64];
                for (int j = 0; j < in_bits[0] + in_bits[1]; j++) b[j] = (int64_t)bases[j];
                w->ll_ok = !layout_linear_from_bases(&w->ll, 2, ins, in_bits, b, 1, outs, &out_bits, NULL) &&
                           layout_suggest_linear_usable(sc, &w->ll);
            }
        }
        if (w->ll_ok &&
            !layout_suggest_score_linear_pad(sc, w, &w->ll, params->contiguous_dim, pad, pad_shift, space, hl, hs,
                                             INT_MAX, out, NULL))
            return layout_ok(err);
    }
    layout_status s = layout_family_tile_offsets(params, sc->spec.tile, w->tile_off, w->tile_cap, err);
    if (s) return s;
    return layout_suggest_score_offsets(sc, w, hl, hs, space, INT_MAX, out, err);
}

layout_status layout_suggest_score_family(const layout_suggest_scorer *sc, const layout_family_params *params,
                                          const layout_descriptor *desc, layout_suggest_work *w,
                                          layout_suggest_cost *out, layout_error *err)
{
    static const char fn[] = "layout_suggest_score";
    layout_status s = check_desc(fn, sc, desc, err);
    if (s) return s;
    int64_t hl[LAYOUT_MAX_DIMS], hs[LAYOUT_MAX_DIMS];
    if ((s = layout_desc_vector_hints(desc, hl, hs, err))) return s;
    return score_family_hinted(sc, params, hl, hs, layout_desc_element_space_size(desc), w, out, err);
}

layout_status layout_suggest_score_params(const layout_suggest_scorer *sc, const layout_family_params *params,
                                          layout_suggest_work *w, layout_suggest_cost *out, layout_error *err)
{
    layout_status s;
    int64_t hl[2], hs[2], bytes;
    if (sc->spec.n_dims == 2 && layout_family_vector_hints(params, sc->spec.tile, hl, hs)) {
        /* the closed forms give everything: no descriptor */
        if ((s = layout_family_lds_bytes(params, sc->spec.tile, sc->spec.elem_bytes, &bytes, err))) return s;
        return score_family_hinted(sc, params, hl, hs, bytes / sc->spec.elem_bytes, w, out, err);
    }
    if (params->kind != LAYOUT_FAMILY_XOR_PAD) {
        layout_descriptor desc;
        if ((s = layout_suggest_build(params, sc->spec.tile, &desc, err))) return s;
        return layout_suggest_score_family(sc, params, &desc, w, out, err);
    }
    /* XOR + pad: the vector hints do not depend on the padding (pad,
     * pad_rows; test_family checks it on every set of its tiles), so the
     * sets of one XOR set (the enumeration varies the padding fastest)
     * share one descriptor build; the element space comes from the closed
     * form. */
    if ((s = layout_family_lds_bytes(params, sc->spec.tile, sc->spec.elem_bytes, &bytes, err))) return s;
    layout_family_params key = *params;
    key.pad = key.pad_rows = 0;
    if (!w->hint_valid || memcmp(&key, &w->hint_key, sizeof key)) {
        layout_descriptor desc;
        w->hint_valid = 0;
        if ((s = layout_suggest_build(params, sc->spec.tile, &desc, err)) ||
            (s = layout_desc_vector_hints(&desc, w->hint_l, w->hint_s, err)))
            return s;
        w->hint_key = key;
        w->hint_valid = 1;
    }
    return score_family_hinted(sc, params, w->hint_l, w->hint_s, bytes / sc->spec.elem_bytes, w, out, err);
}

/* dst[l] = src[l] + add for l < n, in blocks of 16 with a constant trip
 * count so that -O2 vectorises them (this copy and the translation test
 * below run once per warp and instruction of every candidate). */
static void lanes_add(uint32_t *dst, const uint32_t *src, uint32_t add, int n)
{
    int l = 0;
    for (; l + 16 <= n; l += 16)
        for (int j = 0; j < 16; j++) dst[l + j] = src[l + j] + add;
    for (; l < n; l++) dst[l] = src[l] + add;
}

/* Whether row[l] - row0[l] == delta for every l < n. */
static int lanes_translate(const uint32_t *row, const uint32_t *row0, uint32_t delta, int n)
{
    uint32_t diff = 0;
    int l = 0;
    for (; l + 16 <= n; l += 16) {
        for (int j = 0; j < 16; j++) diff |= (row[l + j] - row0[l + j]) ^ delta;
        if (diff) return 0;
    }
    for (; l < n; l++) diff |= (row[l] - row0[l]) ^ delta;
    return diff == 0;
}

layout_status layout_suggest_score_offsets(const layout_suggest_scorer *sc, layout_suggest_work *w, const int64_t *hl,
                                           const int64_t *hs, int64_t element_space, int index_ops,
                                           layout_suggest_cost *out, layout_error *err)
{
    static const char fn[] = "layout_suggest_score";
    const layout_suggest_spec *spec = &sc->spec;
    layout_status s;
    int64_t eb = spec->elem_bytes;
    if ((size_t)sc->tile_elems > w->tile_cap)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: a tile of %lld elements, the workspace holds %zu", fn,
                           (long long)sc->tile_elems, w->tile_cap);
    layout_suggest_cost r;
    memset(&r, 0, sizeof r);
    r.n_sides = spec->n_sides;
    r.lds_bytes = element_space * eb;
    r.index_ops = index_ops;
    /* Byte offsets of every tile element once (every side covers the tile,
     * so their range bounds every side's addresses). */
    /* One vectorisable pass: the 32-bit byte addresses (the low bits of
     * o * eb, all the range check below lets through) and the OR of the
     * offsets, an upper bound of the largest (and negative when any is).
     * The exact minimum and maximum are needed only when that bound fails a
     * side's range check. */
    int64_t lo = 0, hi;
    {
        const int64_t *off = w->tile_off;
        uint32_t *ta = w->tile_addr;
        uint64_t any = 0;
        uint32_t eb32 = (uint32_t)eb;
        int64_t e = 0;
        for (; e + 16 <= sc->tile_elems; e += 16) /* constant inner trip count: -O2 vectorises it */
            for (int j = 0; j < 16; j++) {
                any |= (uint64_t)off[e + j];
                ta[e + j] = (uint32_t)off[e + j] * eb32;
            }
        for (; e < sc->tile_elems; e++) {
            any |= (uint64_t)off[e];
            ta[e] = (uint32_t)off[e] * eb32;
        }
        hi = (int64_t)any;
        if (hi < 0) lo = -1; /* some offset is negative: the exact bounds below */
    }
    for (int i = 0; i < spec->n_sides; i++) {
        const layout_suggest_side *sd = &spec->sides[i];
        const layout_distribution *d = sd->dist;
        int64_t base = sd->opt.base_bytes;
        int64_t vl[LAYOUT_MAX_DIMS], vs[LAYOUT_MAX_DIMS];
        for (int k = 0; k < spec->n_dims; k++) {
            int t = sd->has_view ? sd->view[k] : k;
            vl[k] = hl[t];
            vs[k] = hs[t];
        }
        layout_access_plan *p = &w->plan;
        layout_access_table_order(p, d, sd->direction, spec->elem_bytes, &sd->opt, vl, vs);
        int n = p->n_elems, lanes = d->wave_size, threads = d->n_warps * lanes;
        int32_t *lin_pm = w->lin_pm[i];
        if (w->cached_vy[i] != p->vector_y || w->cached_ve[i] != p->vector_elems) {
            const int32_t *lin = layout_suggest_side_lin(sc, i);
            for (int q = 0; q < n; q++) {
                int e = p->order[q];
                for (int t = 0; t < threads; t++) lin_pm[q * threads + t] = lin[t * n + e];
            }
            w->cached_vy[i] = p->vector_y;
            w->cached_ve[i] = p->vector_elems;
        }
        /* Every address must be a valid LDS byte address (as access_addr.c checks). */
        if (lo < 0 || hi > ((int64_t)UINT32_MAX - 16 - base) / eb) {
            lo = INT64_MAX, hi = INT64_MIN;
            for (int64_t e = 0; e < sc->tile_elems; e++) {
                lo = w->tile_off[e] < lo ? w->tile_off[e] : lo;
                hi = w->tile_off[e] > hi ? w->tile_off[e] : hi;
            }
        }
        if (lo < 0 || hi > ((int64_t)UINT32_MAX - 16 - base) / eb)
            return layout_fail(err, LAYOUT_ERR_RANGE,
                               "%s: sides[%d]: element offsets %lld..%lld give byte addresses outside 0..2^32-17", fn, i,
                               (long long)lo, (long long)hi);
        uint32_t *addr = w->addr, ub = (uint32_t)base;
        const uint32_t *ta = w->tile_addr;
        int m = sc->side_elems[i];
        int k = 0;
        for (; k + 16 <= m; k += 16) /* blocks of 16: independent loads, AVX2 gathers where the compiler uses them */
            for (int j = 0; j < 16; j++) addr[k + j] = ta[lin_pm[k + j]] + ub;
        for (; k < m; k++) addr[k] = ta[lin_pm[k]] + ub;
        if ((s = layout_access_table_build(p, &sd->opt, addr, threads, err))) return side_fail(err, s, fn, i);
        score_side_counts(&r, i, p);

        layout_instr ins;
        ins.n_lanes = lanes;
        ins.active_mask = lanes == 64 ? ~(uint64_t)0 : (((uint64_t)1 << lanes) - 1);
        ins.direction = sd->direction;
        int64_t extra = 0;
        /* A warp whose addresses are warp 0's plus one constant that is a
         * multiple of `period` (a whole number of bank rows and of 16 bytes)
         * touches the same banks, the same number of distinct words per bank
         * and the same lane equalities and alignments: its cost is warp 0's,
         * so only warps that are not such translations reach the checker. */
        int64_t period = sc->period;
        /* The same holds between steps: the checker's cost is a function of
         * which lanes share a bank and a word (docs/lds-model.md §2, §3.1: lane groups
         * by lane number and width, per bank the distinct words, the fold by
         * equal addresses), so an instruction of the same width whose lane
         * addresses are an earlier one's plus a multiple of the bank width
         * costs the same: banks rotate, words stay distinct or equal.  The
         * u16 reads of a pack (steps j and j + 2 are 4 bytes apart) share
         * costs this way.  The last two steps' per-warp costs are kept. */
        const int64_t bw = sc->spec.arch->bank_width_bytes;
        int ring_step[2] = {-1, -1};
        for (int st = 0; st < p->n_steps; st++) {
            const layout_access_step *step = &p->steps[st];
            uint32_t boff = (uint32_t)step->byte_offset;
            const uint32_t *row0 = addr + (size_t)step->seq_first * threads;
            int extra0 = 0, *cost_now = w->step_cost[st & 1];
            ins.width_bytes = step->width_bytes;
            for (int wp = 0; wp < d->n_warps; wp++) {
                const uint32_t *row = row0 + (size_t)wp * lanes;
                int c_extra = -1;
                if (wp > 0) {
                    int64_t sdelta = (int64_t)row[0] - (int64_t)row0[0];
                    uint32_t delta = row[0] - row0[0];
                    if (sdelta % period == 0 && lanes_translate(row, row0, delta, lanes)) c_extra = extra0;
                }
                for (int back = 1; c_extra < 0 && back <= 2; back++) {
                    int ps = ring_step[(st - back) & 1];
                    if (ps < 0 || ps != st - back) continue;
                    const layout_access_step *pst = &p->steps[ps];
                    if (pst->width_bytes != step->width_bytes) continue;
                    const uint32_t *prow = addr + (size_t)pst->seq_first * threads + (size_t)wp * lanes;
                    uint32_t pboff = (uint32_t)pst->byte_offset;
                    int64_t sdelta = ((int64_t)row[0] + boff) - ((int64_t)prow[0] + pboff);
                    uint32_t delta = (row[0] + boff) - (prow[0] + pboff) - (boff - pboff);
                    if (sdelta % bw == 0 && lanes_translate(row, prow, delta, lanes))
                        c_extra = w->step_cost[ps & 1][wp];
                }
                if (c_extra < 0) {
                    lanes_add(ins.addr_bytes, row, boff, lanes);
                    layout_cost c;
                    if ((s = layout_checker_cost(&sc->checker, &ins, &c, err))) return side_fail(err, s, fn, i);
                    c_extra = c.extra_cycles;
                }
                if (wp == 0) extra0 = c_extra;
                cost_now[wp] = c_extra;
                extra += c_extra;
            }
            ring_step[st & 1] = st;
        }
        r.side_extra[i] = extra;
        r.extra_cycles += extra;
    }
    *out = r;
    return layout_ok(err);
}

layout_status layout_suggest_score(const layout_suggest_scorer *sc, const layout_descriptor *desc,
                                   layout_suggest_cost *out, layout_error *err)
{
    static const char fn[] = "layout_suggest_score";
    if (!sc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: sc is NULL", fn);
    if (!desc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: desc is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    layout_suggest_work w;
    layout_suggest_work_init(&w);
    return layout_suggest_score_work(sc, desc, &w, out, err);
}

layout_status layout_suggest_score_reference(const layout_suggest_scorer *sc, const layout_descriptor *desc,
                                             layout_suggest_cost *out, layout_side_result *sides,
                                             layout_error *err)
{
    static const char fn[] = "layout_suggest_score_reference";
    if (!sc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: sc is NULL", fn);
    if (!desc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: desc is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    const layout_suggest_spec *spec = &sc->spec;
    layout_status s = check_desc(fn, sc, desc, err);
    if (s) return s;
    layout_plan dplan;
    if ((s = layout_plan_build(&dplan, desc, LAYOUT_PLAN_AUTO, err))) return s;
    layout_suggest_cost r;
    layout_side_result res[LAYOUT_SUGGEST_MAX_SIDES];
    memset(&r, 0, sizeof r);
    r.n_sides = spec->n_sides;
    r.lds_bytes = layout_desc_element_space_size(desc) * spec->elem_bytes;
    r.index_ops = dplan.n_ops;
    for (int i = 0; i < spec->n_sides; i++) {
        const layout_suggest_side *sd = &spec->sides[i];
        layout_descriptor view;
        layout_access_plan plan;
        if ((s = layout_suggest_view(spec, i, desc, &view, err)) ||
            (s = layout_access_plan_make(&plan, &view, sd->dist, sd->direction, spec->elem_bytes, &sd->opt, err)) ||
            (s = layout_check_side(&sc->checker, &plan, 1, &res[i], err)))
            return side_fail(err, s, fn, i);
        score_side_counts(&r, i, &plan);
        r.side_extra[i] = res[i].extra_cycles_per_tile;
        r.extra_cycles += res[i].extra_cycles_per_tile;
    }
    if (sides) memcpy(sides, res, sizeof res[0] * (size_t)spec->n_sides);
    *out = r;
    return layout_ok(err);
}
