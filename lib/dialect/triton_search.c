/* The shared layouts Triton 3.6 accepts for one allocation, scored by the
 * caller (triton_search.h).  The swizzled parameter sets come from family.h's
 * enumeration of LAYOUT_FAMILY_TRITON_SWIZZLED (the same sets the layout
 * search of suggest.h walks); padded_shared pairs, amd_rotating_shared and
 * nvmma_shared are enumerated here. */
#include "triton_internal.h"
#include "layout/triton_search.h"

#include <stdio.h>
#include <string.h>

#define FN_S "layout_triton_shared_search"

/* Family ranks of the tie-break (triton_search.h). */
static int family_rank(unsigned family)
{
    return family == LAYOUT_TRITON_SEARCH_SWIZZLED ? 0
           : family == LAYOUT_TRITON_SEARCH_PADDED ? 1
           : family == LAYOUT_TRITON_SEARCH_ROTATING ? 2
                                                      : 3;
}

/* a ranks before b */
static int better(const layout_triton_search_entry *a, const layout_triton_search_entry *b)
{
    if (a->cost != b->cost) return a->cost < b->cost;
    if (a->bytes != b->bytes) return a->bytes < b->bytes;
    if (a->family != b->family) return family_rank(a->family) < family_rank(b->family);
    if (a->complexity != b->complexity) return a->complexity < b->complexity;
    if (a->order != b->order) return a->order < b->order;
    return a->index < b->index;
}

typedef struct search_state {
    const layout_triton_search_spec *spec;
    layout_triton_score_fn score;
    void *ctx;
    layout_triton_search_result *res;
    int top_k;
    int64_t budget;     /* bytes */
    int64_t n_buf;      /* leading buffer dim (1 without) */
    int64_t rows, cols; /* the tile [rows, cols] = [dim0, dim1] */
    int elem_bytes;
} search_state;

/* One candidate of `elems` elements (all buffers, padding included): count
 * it, check its bytes, score it, keep it if it ranks. */
static void offer(search_state *s, const char *text, int64_t elems, unsigned family, int complexity, int order)
{
    layout_triton_search_entry e;
    layout_triton_search_result *r = s->res;
    size_t len = strlen(text);
    double cost = 0;
    int i;
    memset(&e, 0, sizeof e); /* results compare equal byte for byte */
    e.index = r->enumerated++;
    e.bytes = elems * s->elem_bytes;
    if (e.bytes > s->budget) {
        r->over_budget++;
        return;
    }
    if (s->score(s->ctx, text, len, &cost) != 0) {
        r->rejected++;
        return;
    }
    r->scored++;
    memcpy(e.attr, text, len + 1);
    e.cost = cost;
    e.family = family;
    e.complexity = complexity;
    e.order = order;
    if (r->n_top == s->top_k && !better(&e, &r->top[r->n_top - 1])) return;
    i = r->n_top < s->top_k ? r->n_top++ : r->n_top - 1;
    while (i > 0 && better(&e, &r->top[i - 1])) {
        r->top[i] = r->top[i - 1];
        i--;
    }
    r->top[i] = e;
}

/* swizzled_shared and amd_rotating_shared over family.h's parameter sets. */
static layout_status swizzled_family(search_state *s, int rotating, layout_error *err)
{
    int o;
    for (o = 0; o < 2; o++) {
        layout_family_iter it;
        layout_family_params p;
        int64_t tile[2];
        int64_t rows_c; /* rows of the swizzled view: the non-contiguous dim's length */
        layout_status st;
        if (!(s->spec->orders & (o ? LAYOUT_TRITON_SEARCH_ORDER_01 : LAYOUT_TRITON_SEARCH_ORDER_10))) continue;
        tile[0] = s->rows;
        tile[1] = s->cols;
        rows_c = o ? s->cols : s->rows;
        if ((st = layout_family_iter_init(&it, LAYOUT_FAMILY_TRITON_SWIZZLED, tile, o ? 0 : 1,
                                          s->elem_bytes > 16 ? 16 : s->elem_bytes, 0, err)))
            return st;
        while (layout_family_iter_next(&it, &p)) {
            char text[LAYOUT_TRITON_ATTR_TEXT_CAP];
            int64_t vec = p.p[0], pp = p.p[1], mp = p.p[2];
            int identity = mp == 1 || pp >= rows_c;
            if (rotating) {
                /* the rotation acts only past one pattern of pp * mp rows */
                if (identity || pp * mp >= rows_c) continue;
            } else if (identity && !(vec == 1 && pp == 1 && mp == 1)) {
                continue; /* the identity once */
            }
            snprintf(text, sizeof text, "#ttg.%s<{vec = %lld, perPhase = %lld, maxPhase = %lld, order = [%d, %d]}>",
                     rotating ? "amd_rotating_shared" : "swizzled_shared", (long long)vec, (long long)pp,
                     (long long)mp, o ? 0 : 1, o ? 1 : 0);
            offer(s, text, s->rows * s->cols * s->n_buf,
                  rotating ? LAYOUT_TRITON_SEARCH_ROTATING : LAYOUT_TRITON_SEARCH_SWIZZLED,
                  layout_log2_floor(vec) + layout_log2_floor(pp) + layout_log2_floor(mp), o);
        }
    }
    return layout_ok(err);
}

/* Elements of a padded allocation of n elements: Triton's
 * PaddedSharedEncodingAttr::getPaddedSize (Dialect.cpp), n + sum_k
 * (n / I_k) * P_k, less P_k when I_k divides n (no pad after the last
 * element); for one buffer, the descriptor's element space.  The buffers of
 * a multi-buffered allocation are one padded sequence (the size of the
 * whole shape). */
static int64_t padded_elems(int64_t n, int n_pairs, const int64_t *iv, const int64_t *pd)
{
    int64_t e = n;
    int k;
    for (k = 0; k < n_pairs; k++) e += (n / iv[k]) * pd[k] - (n % iv[k] == 0 ? pd[k] : 0);
    return e;
}

static void padded_offer(search_state *s, int n_pairs, const int64_t *iv, const int64_t *pd)
{
    int64_t n = s->rows * s->cols * s->n_buf;
    int o, k;
    for (o = 0; o < 2; o++) {
        char text[LAYOUT_TRITON_ATTR_TEXT_CAP];
        size_t len = 0;
        int complexity = 16 * n_pairs;
        if (!(s->spec->orders & (o ? LAYOUT_TRITON_SEARCH_ORDER_01 : LAYOUT_TRITON_SEARCH_ORDER_10))) continue;
        len += (size_t)snprintf(text + len, sizeof text - len, "#ttg.padded_shared<[");
        for (k = 0; k < n_pairs; k++) {
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%lld:+%lld", k ? ", " : "", (long long)iv[k],
                                    (long long)pd[k]);
            complexity += layout_log2_floor(pd[k]);
        }
        snprintf(text + len, sizeof text - len, "] {order = [%d, %d], shape = [%lld, %lld]}>", o ? 0 : 1, o ? 1 : 0,
                 (long long)s->rows, (long long)s->cols);
        offer(s, text, padded_elems(n, n_pairs, iv, pd), LAYOUT_TRITON_SEARCH_PADDED, complexity, o);
    }
}

static void padded_family(search_state *s)
{
    int64_t n = s->rows * s->cols, max_pad = 128 / s->elem_bytes, iv[2], pd[2];
    int levels = s->spec->max_pad_levels ? s->spec->max_pad_levels : 2;
    if (max_pad < 1) max_pad = 1;
    for (iv[0] = 2; iv[0] < n; iv[0] *= 2)
        for (pd[0] = 1; pd[0] <= max_pad; pd[0] *= 2) {
            padded_offer(s, 1, iv, pd);
            if (levels < 2) continue;
            for (iv[1] = iv[0] * 2; iv[1] < n; iv[1] *= 2)
                for (pd[1] = 1; pd[1] <= max_pad; pd[1] *= 2) padded_offer(s, 2, iv, pd);
        }
}

static void nvmma_family(search_state *s)
{
    static const int widths[4] = {0, 32, 64, 128};
    int w, t, eb = s->elem_bytes * 8;
    for (w = 0; w < 4; w++)
        for (t = 0; t < 2; t++) {
            char text[LAYOUT_TRITON_ATTR_TEXT_CAP];
            int sw = widths[w];
            if (!(s->spec->orders & (t ? LAYOUT_TRITON_SEARCH_ORDER_01 : LAYOUT_TRITON_SEARCH_ORDER_10))) continue;
            if (sw) { /* the shapes Triton accepts (triton_shared.c) */
                int64_t contig = t ? s->rows : s->cols, strided = t ? s->cols : s->rows;
                if (contig > 256) contig = 256;
                if (strided > 256) strided = 256;
                if (contig < 8 * (int64_t)sw / eb || strided < 8) continue;
            }
            snprintf(text, sizeof text,
                     "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, elementBitWidth = %d}>", sw,
                     t ? "true" : "false", eb);
            offer(s, text, s->rows * s->cols * s->n_buf, LAYOUT_TRITON_SEARCH_NVMMA, sw ? layout_log2_floor(sw / 16) + 1 + t : t, t);
        }
}

/* NVIDIA arch names: "sm_90", "sm_90a", "cuda:90", "90"; the number, or -1. */
static int nv_arch_number(const char *arch)
{
    const char *p = arch;
    int v = 0, any = 0;
    if (strncmp(p, "sm_", 3) == 0) p += 3;
    else if (strncmp(p, "cuda:", 5) == 0) p += 5;
    while (*p >= '0' && *p <= '9' && v < 100000) {
        v = v * 10 + (*p++ - '0');
        any = 1;
    }
    return any ? v : -1;
}

layout_status layout_triton_shared_search(const layout_triton_search_spec *spec, layout_triton_score_fn score,
                                          void *ctx, layout_triton_search_result *out, layout_error *err)
{
    static const layout_triton_search_result zero;
    layout_triton_search_spec sp;
    layout_triton_search_result r = zero;
    search_state s;
    unsigned fam;
    int k;
    layout_status st;
    if (!spec || !score || !out) return layout_fail(err, LAYOUT_ERR_NULL, FN_S ": NULL argument");
    sp = *spec;
    if (sp.rank != 2 && sp.rank != 3)
        return layout_fail(err, LAYOUT_ERR_ARG, FN_S ": rank = %d: 2 (a tile) or 3 (a leading buffer dim) expected",
                           sp.rank);
    for (k = 0; k < sp.rank; k++) {
        int tile_dim = k >= sp.rank - 2;
        if (sp.shape[k] < 1 || sp.shape[k] > (1 << 20) || (tile_dim && !layout_is_pow2(sp.shape[k])))
            return layout_fail(err, LAYOUT_ERR_ARG, FN_S ": shape[%d] = %lld is not %s", k, (long long)sp.shape[k],
                               tile_dim ? "a power of two in 1..2^20" : "in 1..2^20");
    }
    if (sp.shape[sp.rank - 2] * sp.shape[sp.rank - 1] > ((int64_t)1 << 20))
        return layout_fail(err, LAYOUT_ERR_ARG, FN_S ": the tile has more than 2^20 elements");
    if (sp.elem_bits != 8 && sp.elem_bits != 16 && sp.elem_bits != 32 && sp.elem_bits != 64)
        return layout_fail(err, LAYOUT_ERR_ARG, FN_S ": elem_bits = %d: 8, 16, 32 or 64 expected", sp.elem_bits);
    if (sp.vendor != LAYOUT_TRITON_VENDOR_AMD && sp.vendor != LAYOUT_TRITON_VENDOR_NVIDIA)
        return layout_fail(err, LAYOUT_ERR_ARG, FN_S ": vendor = %d: LAYOUT_TRITON_VENDOR_AMD or _NVIDIA expected",
                           (int)sp.vendor);
    if (sp.top_k == 0) sp.top_k = 8;
    if (sp.top_k < 1 || sp.top_k > LAYOUT_TRITON_SEARCH_MAX_TOP)
        return layout_fail(err, LAYOUT_ERR_ARG, FN_S ": top_k = %d is outside 1..%d", sp.top_k,
                           LAYOUT_TRITON_SEARCH_MAX_TOP);
    if (sp.max_pad_levels < 0 || sp.max_pad_levels > 2)
        return layout_fail(err, LAYOUT_ERR_ARG, FN_S ": max_pad_levels = %d: 1 or 2 (0 = 2) expected",
                           sp.max_pad_levels);
    if (sp.families & ~15u)
        return layout_fail(err, LAYOUT_ERR_ARG, FN_S ": families = 0x%x has unknown bits", sp.families);
    if (sp.orders & ~3u) return layout_fail(err, LAYOUT_ERR_ARG, FN_S ": orders = 0x%x has unknown bits", sp.orders);
    if (sp.orders == 0) sp.orders = 3u;
    /* the families this target's Triton has */
    fam = sp.families ? sp.families : 15u;
    if (sp.vendor == LAYOUT_TRITON_VENDOR_AMD) fam &= ~LAYOUT_TRITON_SEARCH_NVMMA;
    if (sp.vendor == LAYOUT_TRITON_VENDOR_NVIDIA) {
        fam &= ~LAYOUT_TRITON_SEARCH_ROTATING;
        if (sp.arch && sp.arch[0] && nv_arch_number(sp.arch) >= 0 && nv_arch_number(sp.arch) < 90)
            fam &= ~LAYOUT_TRITON_SEARCH_NVMMA;
    }
    memset(&s, 0, sizeof s);
    s.spec = &sp;
    s.score = score;
    s.ctx = ctx;
    s.res = &r;
    s.top_k = sp.top_k;
    s.n_buf = sp.rank == 3 ? sp.shape[0] : 1;
    s.rows = sp.shape[sp.rank - 2];
    s.cols = sp.shape[sp.rank - 1];
    s.elem_bytes = sp.elem_bits / 8;
    r.families = fam;
    r.packed_bytes = s.rows * s.cols * s.elem_bytes * s.n_buf;
    s.budget = sp.lds_budget_bytes ? sp.lds_budget_bytes : r.packed_bytes;
    if (s.budget < r.packed_bytes)
        return layout_fail(err, LAYOUT_ERR_ARG, FN_S ": lds_budget_bytes = %lld is below the packed allocation, %lld bytes",
                           (long long)sp.lds_budget_bytes, (long long)r.packed_bytes);
    if (fam & LAYOUT_TRITON_SEARCH_SWIZZLED && (st = swizzled_family(&s, 0, err))) return st;
    if (fam & LAYOUT_TRITON_SEARCH_PADDED) padded_family(&s);
    if (fam & LAYOUT_TRITON_SEARCH_ROTATING && (st = swizzled_family(&s, 1, err))) return st;
    if (fam & LAYOUT_TRITON_SEARCH_NVMMA) nvmma_family(&s);
    if (r.scored == 0)
        return layout_fail(err, LAYOUT_ERR_NOT_FOUND,
                           FN_S ": nothing scored: %lld candidates, %lld over the budget of %lld bytes, %lld rejected "
                                "by the scorer (families 0x%x for this target)",
                           (long long)r.enumerated, (long long)r.over_budget, (long long)s.budget,
                           (long long)r.rejected, fam);
    *out = r;
    return layout_ok(err);
}
