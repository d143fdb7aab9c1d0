/* CuTe layouts (cute.h), evaluated: CuTe's definition of a layout's offset
 * (layout_cute_offset()), and the recogniser behind layout_cute_from_desc()
 * and layout_desc_to_cute().  The recogniser tries the plain
 * shape:stride form, then every Swizzle<B,M,S> whose fields touch the
 * offsets' bits, each checked on the whole tile.  Kept apart from the
 * parser and printers (cute.c) because these are evaluation loops: the fuzz
 * build drops libFuzzer's comparison tracing here (FUZZ_EVAL_SRCS). */
#include "dialect_internal.h"
#include "layout/cute.h"
#include "layout/plan.h"

#include <string.h>

#define FN_FROM_DESC "layout_cute_from_desc"

/* CuTe's Swizzle<B,M,S> on x: x ^ ((x & (mask << (M+S))) >> S) for S >= 0,
 * x ^ ((x & (mask << M)) << -S) otherwise.  In uint64 (the same bits) so
 * that the recogniser's wide trial swizzles (e.g. B = 12 at bit 52) neither
 * overflow a signed shift nor shift by 64 or more (found by fuzz_dialect). */
static int64_t cute_swizzle(int b, int m, int s, int64_t x)
{
    if (b <= 0) return x;
    const uint64_t ux = (uint64_t)x, mask = b >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << b) - 1;
    const int from = s >= 0 ? m + s : m; /* lowest bit of the source field */
    if (from < 0 || from >= 64) return x;
    const uint64_t field = ux & (mask << from);
    const int by = s >= 0 ? s : -s;
    if (by >= 64) return x;
    return (int64_t)(ux ^ (s >= 0 ? field >> by : field << by));
}

/* ---- reference evaluation: CuTe's definition ---- */

static int64_t mode_size(const layout_cute_layout *l, int m)
{
    int64_t n = 1;
    int k;
    for (k = 0; k < l->mode_count[m]; k++) n *= l->shape[l->mode_first[m] + k];
    return n;
}

layout_status layout_cute_offset(const layout_cute_layout *l, const int64_t *coord, int64_t *offset,
                                 layout_error *err)
{
    int m, k;
    int64_t sum;
    if (!l || !coord || !offset) return layout_fail(err, LAYOUT_ERR_NULL, "layout_cute_offset: NULL argument");
    sum = l->has_swizzle ? l->sw_offset : 0;
    for (m = 0; m < l->n_modes; m++) {
        int64_t idx = coord[m], size = mode_size(l, m);
        if (idx < 0 || idx >= size)
            return layout_fail(err, LAYOUT_ERR_RANGE, "layout_cute_offset: coord[%d] = %lld is outside 0..%lld", m,
                               (long long)idx, (long long)(size - 1));
        for (k = 0; k < l->mode_count[m]; k++) { /* colexicographic: first leaf fastest */
            int leaf = l->mode_first[m] + k;
            int64_t term;
            if (layout_mul_overflow(idx % l->shape[leaf], l->stride[leaf], &term) ||
                layout_add_overflow(sum, term, &sum))
                return layout_fail(err, LAYOUT_ERR_OVERFLOW,
                                   "layout_cute_offset: the offset of coord[%d] = %lld overflows int64 (leaf %d, stride %lld)",
                                   m, (long long)coord[m], leaf, (long long)l->stride[leaf]);
            idx /= l->shape[leaf];
        }
    }
    *offset = l->has_swizzle ? cute_swizzle(l->sw_bits, l->sw_base, l->sw_shift, sum) : sum;
    return layout_ok(err);
}

/* ---- the recogniser ---- */


/* Split g(0..L-1) (g(0) = 0) into CuTe modes, first fastest: shapes/strides
 * appended to the arrays from index *n.  0 on success, -1 when g is not a
 * mixed radix with non-negative strides (checked later on the whole tile). */
static int split_modes(const int64_t *g, int64_t L, int64_t *shape, int64_t *stride, int *n)
{
    int64_t p = 1;
    if (L == 1) {
        if (*n >= LAYOUT_CUTE_MAX_LEAVES) return -1;
        shape[*n] = 1;
        stride[*n] = 0;
        (*n)++;
        return 0;
    }
    while (p < L) {
        int64_t d = g[p], cnt = 2;
        if (d < 0) return -1;
        for (;;) {
            int64_t want;
            if (p * (cnt + 1) > L || layout_mul_overflow(cnt, d, &want) || g[p * cnt] != want) break;
            cnt++;
        }
        /* cnt counts the indices 0..cnt-1 that lie on the line (g[p*k] = k*d for k < cnt). */
        while (cnt > 1 && (L % (p * cnt)) != 0) cnt--;
        if (cnt < 2 || *n >= LAYOUT_CUTE_MAX_LEAVES) return -1;
        shape[*n] = cnt;
        stride[*n] = d;
        (*n)++;
        p *= cnt;
    }
    return 0;
}

/* A few coordinates that move every dim at once (every dim at 1, at its
 * middle, at its end) and the descriptor's offsets there: a wrong trial
 * swizzle shows in them (see try_layout). */
typedef struct cute_probe {
    int64_t coord[3][LAYOUT_MAX_DIMS], offset[3];
} cute_probe;

static void probe_init(const layout_descriptor *d, cute_probe *p)
{
    int k, j;
    memset(p, 0, sizeof *p);
    for (k = 0; k < 3; k++) {
        for (j = 0; j < layout_desc_ndims(d); j++) {
            int64_t L = layout_desc_length(d, j);
            p->coord[k][j] = k == 0 ? (L > 1) : k == 1 ? L / 2 : L - 1;
        }
        p->offset[k] = layout_desc_offset_unchecked(d, p->coord[k]);
    }
}

/* Try one swizzle (b = 0: none): unswizzled offsets must be O + sum of modes. */
/* raw (may be NULL): the unswizzled offsets along each dim from the
 * origin, dim after dim (raw[0] the origin's), so that the many trial
 * swizzles do not re-evaluate the descriptor; probe (with raw): see
 * cute_probe; all (may be NULL): the offset of every coordinate in
 * layout_dx_coord() order; g: room for 4096 line offsets (the caller's, once). */
static int try_layout(const layout_descriptor *d, const int64_t *raw, const cute_probe *probe, const int64_t *all,
                      int64_t total, int b, int m, int s, int64_t *g, layout_cute_layout *out)
{
    layout_cute_layout l;
    int64_t coord[LAYOUT_MAX_DIMS], k;
    int n = layout_desc_ndims(d), j, leaves = 0;
    /* The layout tried is offset(c) = Sw(Sw(raw0) + sum_j (Sw(raw_j[c_j]) -
     * Sw(raw0))) (the lines below; every trial Sw has |S| >= B, so it is an
     * involution and a bijection).  It can match only if Sw(offset(c)) is
     * that sum at the probe coordinates: checked first, in uint64 (equal
     * integers are equal mod 2^64), so that most trials are refused after a
     * dozen swizzles instead of a line per dim. */
    if (raw && probe) {
        const uint64_t sw0 = (uint64_t)cute_swizzle(b, m, s, raw[0]);
        for (k = 0; k < 3; k++) {
            const int64_t *line = raw + 1;
            uint64_t sum = sw0;
            for (j = 0; j < n; j++) {
                sum += (uint64_t)cute_swizzle(b, m, s, line[probe->coord[k][j]]) - sw0;
                line += layout_desc_length(d, j);
            }
            if (sum != (uint64_t)cute_swizzle(b, m, s, probe->offset[k])) return -1;
        }
    }
    memset(&l, 0, sizeof l);
    memset(coord, 0, sizeof coord);
    l.sw_offset = cute_swizzle(b, m, s, raw ? raw[0] : layout_desc_offset_unchecked(d, coord));
    const int64_t *raw_dim = raw ? raw + 1 : NULL;
    l.top_is_tuple = 1;
    l.n_modes = n;
    for (j = 0; j < n; j++) {
        int64_t L = layout_desc_length(d, j), i;
        if (L > 4096) return -1;
        for (i = 0; i < L; i++) {
            coord[j] = i;
            g[i] = cute_swizzle(b, m, s, raw_dim ? raw_dim[i] : layout_desc_offset_unchecked(d, coord)) - l.sw_offset;
        }
        if (raw_dim) raw_dim += L;
        coord[j] = 0;
        l.mode_first[j] = leaves;
        if (split_modes(g, L, l.shape, l.stride, &leaves)) return -1;
        l.mode_count[j] = leaves - l.mode_first[j];
        l.mode_is_tuple[j] = l.mode_count[j] > 1;
    }
    l.n_leaves = leaves;
    for (j = 0; j < leaves; j++) l.shape_static[j] = l.stride_static[j] = 1;
    l.has_swizzle = b > 0 || l.sw_offset != 0;
    l.sw_bits = b;
    l.sw_base = b > 0 ? m : 4; /* CuTe's identity swizzle prints Sw<0,4,3> */
    l.sw_shift = b > 0 ? s : 3;
    l.sw_offset_static = 1;
    /* Each dim alone matches by construction; a wrong swizzle shows in
     * coordinates that move several dims at once.  Try a few such first
     * (every dim at 1, at its middle, at its end) so that most of the
     * recogniser's trials fail in a handful of evaluations, then all. */
    for (k = 1; k <= 3; k++) {
        int64_t ref;
        for (j = 0; j < n; j++) {
            int64_t L = layout_desc_length(d, j);
            coord[j] = k == 1 ? (L > 1) : k == 2 ? L / 2 : L - 1;
        }
        if (layout_cute_offset(&l, coord, &ref, NULL) ||
            ref != (probe ? probe->offset[k - 1] : layout_desc_offset_unchecked(d, coord)))
            return -1;
    }
    for (k = 0; k < total; k++) {
        int64_t ref;
        layout_dx_coord(d, k, coord);
        if (layout_cute_offset(&l, coord, &ref, NULL) || ref != (all ? all[k] : layout_desc_offset_unchecked(d, coord)))
            return -1;
    }
    *out = l;
    return 0;
}

layout_status layout_cute_from_desc(const layout_descriptor *d, layout_cute_layout *out, layout_error *err)
{
    int64_t total, k, coord[LAYOUT_MAX_DIMS], maxoff = 0;
    int64_t all[4096]; /* every coordinate's offset, when the tile fits: the trials' whole-tile check */
    int bits = 0, b, m, s, j, n;
    layout_cute_layout l;
    if (!d) return layout_fail(err, LAYOUT_ERR_NULL, FN_FROM_DESC ": d is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, FN_FROM_DESC ": out is NULL");
    if ((total = layout_dx_tile_size(d, FN_FROM_DESC, err)) < 0) return LAYOUT_ERR_UNSUPPORTED;
    n = layout_desc_ndims(d);
    /* every coordinate's offset and validity at once from a compiled plan
     * (row-major, layout_dx_coord's order) when the tile fits: a plan
     * evaluates a coordinate in a few operations where the descriptor
     * walks its adaptors twice (offset and validity) */
    uint8_t valid_all[4096];
    layout_plan plan;
    const int planned = total <= 4096 && layout_plan_build(&plan, d, LAYOUT_PLAN_SCALAR, NULL) == LAYOUT_OK &&
                        layout_plan_tile(&plan, all, valid_all, 4096, NULL) == LAYOUT_OK;
    for (k = 0; k < total; k++) {
        int valid = 1;
        int64_t off;
        if (planned) {
            valid = valid_all[k];
            off = all[k];
        } else {
            layout_dx_coord(d, k, coord);
            layout_desc_is_valid(d, coord, &valid, NULL);
            off = layout_desc_offset_unchecked(d, coord);
            if (total <= 4096) all[k] = off;
        }
        if (!valid || off < 0) {
            char pos[96];
            text_out o;
            layout_dx_coord(d, k, coord); /* for the message (the plan did not need it) */
            layout_to_init(&o, pos, sizeof pos);
            layout_to_str(&o, "(");
            for (j = 0; j < n; j++) layout_to_printf(&o, j ? ",%lld" : "%lld", (long long)coord[j]);
            layout_to_str(&o, ")");
            if (!valid)
                return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                                   "%s: coordinate %s is padding; CuTe layouts have no padding", FN_FROM_DESC, pos);
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "%s: coordinate %s has the negative offset %lld; CuTe offsets are >= 0", FN_FROM_DESC,
                               pos, (long long)off);
        }
        if (off > maxoff) maxoff = off;
    }
    for (j = 0; j < n; j++)
        if (layout_desc_length(d, j) > 4096)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               FN_FROM_DESC ": dim %d has length %lld; the recogniser handles dims up to 4096", j,
                               (long long)layout_desc_length(d, j));
    bits = layout_bit_length((uint64_t)maxoff); /* maxoff >= 0 */
    if (bits > 62) bits = 62;
    /* the raw offsets along each dim, once (when they fit) */
    int64_t raw[4096], n_raw = 1;
    for (j = 0; j < n; j++) n_raw += layout_desc_length(d, j);
    const int64_t *rawp = NULL;
    if (n_raw <= 4096) {
        int64_t *w = raw;
        memset(coord, 0, sizeof coord);
        *w++ = layout_desc_offset_unchecked(d, coord);
        for (j = 0; j < n; j++) {
            for (int64_t i = 0; i < layout_desc_length(d, j); i++) {
                coord[j] = i;
                *w++ = layout_desc_offset_unchecked(d, coord);
            }
            coord[j] = 0;
        }
        rawp = raw;
    }
    cute_probe probe;
    int64_t line[4096];
    const int64_t *allp = total <= 4096 ? all : NULL;
    probe_init(d, &probe);
    if (try_layout(d, rawp, &probe, allp, total, 0, 0, 0, line, &l) == 0) goto found;
    /* Swizzles whose fields lie inside the offsets' bits: larger B first. */
    /* Fields may reach beyond the offsets' bits (they read zeros there), so
     * Sw<3,4,3> on an 8x64 tile is found as itself; the source field must
     * start inside. */
    /* ... and only swizzles the parser reads back (M <= 32, |S| <= 48,
     * M + |S| + B <= 62: an export must round-trip; found by fuzz_dialect,
     * which met Sw<12,7,49>) */
    for (b = bits < 12 ? bits : 12; b >= 1; b--)
        for (m = 0; m + b < bits && m <= 32; m++)
            for (s = b; m + s < bits && s <= 48 && m + s + b <= 62; s++) {
                if (try_layout(d, rawp, &probe, allp, total, b, m, s, line, &l) == 0) goto found;
                if (try_layout(d, rawp, &probe, allp, total, b, m, -s, line, &l) == 0) goto found;
            }
    return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                       FN_FROM_DESC ": the offsets are not a CuTe layout (shape:stride) nor one composed with a "
                                    "Swizzle<B,M,S> (checked on all %lld coordinates)",
                       (long long)total);
found:
    if (n > LAYOUT_MAX_DIMS) return layout_fail(err, LAYOUT_ERR_CAPACITY, FN_FROM_DESC ": too many dims");
    *out = l;
    return layout_ok(err);
}

layout_status layout_desc_to_cute(const layout_descriptor *d, char *buf, size_t cap, layout_error *err)
{
    layout_cute_layout l;
    layout_status st;
    if (!buf) return layout_fail(err, LAYOUT_ERR_NULL, "layout_desc_to_cute: buf is NULL");
    layout_descriptor back;
    layout_error e;
    if ((st = layout_cute_from_desc(d, &l, err))) return st;
    if ((st = layout_cute_to_text(&l, buf, cap, err))) return st;
    /* the text must also build a descriptor (layout_desc_from_cute) */
    return layout_dx_reads_back("layout_desc_to_cute", layout_desc_from_cute(buf, &back, NULL, &e), &e, buf, err);
}
