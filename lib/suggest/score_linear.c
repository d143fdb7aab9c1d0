/* The search's scorer for candidates that are linear over F2 (the F2
 * swizzles of family 5): the same numbers as layout_suggest_score_offsets()
 * without computing, gathering or scanning an address per element.
 *
 * When a side's tile index is F2-linear in the bits of its (warp, lane,
 * element) index (scorer.f2_bits) and the candidate L maps the tile index
 * linearly to element offsets, every address of the side is
 *     base + eb * (T(warp) ^ T(lane) ^ E(element)),
 * T and E the images of the bits under L o lin.  Then:
 *  - the compiler model's facts (access_internal.h) follow from the images:
 *    the residues mod 16 at position q are base + eb * (E_q ^ v) over the
 *    span of the thread images, projected on the low bits; y + 1 = x holds
 *    for every x = v ^ E_q+1, y = v ^ E_q exactly when d = E_q ^ E_q+1 is
 *    2^(k+1) - 1, E_q & d = d >> 1 and no thread image has a bit of d;
 *  - the checker's cost (LDS_MODEL.md §1-2: per lane group, per bank the
 *    distinct words) is unchanged by address ^ c when every lane is
 *    W-aligned and c is a multiple of W (W, bank width and bank count
 *    powers of two): each lane's words map by word ^ (c / bank width),
 *    banks by bank ^ const, so words stay distinct or equal per bank and
 *    equal addresses (the fold rule) stay equal.  An instruction of width
 *    W whose lanes are K ^ eb * T(lane) with K a multiple of W therefore
 *    costs what every other such instruction of the side costs: the
 *    checker runs once per side and width, plus once per instruction that
 *    is not of that shape (a misaligned part of a split vector).
 * The caller falls back to the address path when a condition fails. */
#include "suggest_internal.h"
#include "../access_internal.h"

#include <string.h>

static int log2_u(uint64_t v)
{
    int b = 0;
    while (((uint64_t)1 << b) < v) b++;
    return b;
}

/* L(packed coordinates) for a row-major tile index of tile [2^b0, 2^b1]:
 * the index is d0 * 2^b1 + d1, L's packed input d0 | d1 << b0. */
static uint32_t apply_tile_index(const layout_linear *ll, uint32_t lin, int b0, int b1)
{
    uint32_t packed = (lin >> b1) | ((lin & ((1u << b1) - 1u)) << b0);
    uint64_t o = 0;
    for (int j = 0; packed; j++, packed >>= 1)
        if (packed & 1u) o ^= ll->bases[j];
    return (uint32_t)o;
}

int layout_suggest_linear_usable(const layout_suggest_scorer *sc, const layout_linear *ll)
{
    const layout_suggest_spec *spec = &sc->spec;
    if (spec->n_dims != 2 || ll->n_in != 2 || ll->n_out != 1) return 0;
    for (int k = 0; k < 2; k++)
        if (((int64_t)1 << ll->in_bits[k]) != spec->tile[k]) return 0;
    if (ll->total_out_bits > 31) return 0;
    for (int i = 0; i < spec->n_sides; i++) {
        if (sc->f2_bits[i][0] < 0) return 0;
        if (spec->sides[i].opt.base_bytes % sc->period) return 0;
    }
    return 1;
}

layout_status layout_suggest_score_linear(const layout_suggest_scorer *sc, layout_suggest_work *w,
                                          const layout_linear *ll, const int64_t *hl, const int64_t *hs,
                                          int index_ops, layout_suggest_cost *out, layout_error *err)
{
    const layout_suggest_spec *spec = &sc->spec;
    const int b0 = ll->in_bits[0], b1 = ll->in_bits[1];
    const int lg = log2_u((uint64_t)spec->elem_bytes);
    layout_suggest_cost r;
    memset(&r, 0, sizeof r);
    r.n_sides = spec->n_sides;
    r.lds_bytes = ((int64_t)1 << ll->total_out_bits) * spec->elem_bytes;
    r.index_ops = index_ops;
    /* The largest offset is at most the OR of the images; where that bound
     * could leave the 32-bit address range the address path decides. */
    uint64_t any = 0;
    for (int j = 0; j < ll->total_in_bits; j++) any |= ll->bases[j];
    for (int i = 0; i < spec->n_sides; i++)
        if ((int64_t)any > ((int64_t)UINT32_MAX - 16 - spec->sides[i].opt.base_bytes) / spec->elem_bytes)
            return LAYOUT_ERR_UNSUPPORTED;

    for (int i = 0; i < spec->n_sides; i++) {
        const layout_suggest_side *sd = &spec->sides[i];
        const layout_distribution *d = sd->dist;
        const int ebits = sc->f2_bits[i][0], lbits = sc->f2_bits[i][1], wbits = sc->f2_bits[i][2];
        const int lanes = d->wave_size, warps = d->n_warps;
        const uint32_t base = (uint32_t)sd->opt.base_bytes;
        uint32_t img[16];
        for (int j = 0; j < ebits + lbits + wbits; j++)
            img[j] = apply_tile_index(ll, (uint32_t)sc->f2_basis[i][j], b0, b1);
        const uint32_t *eimg = img, *limg = img + ebits, *wimg = img + ebits + lbits;

        int64_t vl[LAYOUT_MAX_DIMS], vs[LAYOUT_MAX_DIMS];
        for (int k = 0; k < spec->n_dims; k++) {
            int t = sd->has_view ? sd->view[k] : k;
            vl[k] = hl[t];
            vs[k] = hs[t];
        }
        layout_access_plan *p = &w->plan;
        layout_access_table_order(p, d, sd->direction, spec->elem_bytes, &sd->opt, vl, vs);
        const int n = p->n_elems;

        /* thread images: their OR and the residues mod 16 their span adds */
        uint32_t or_lane = 0, or_thread = 0;
        unsigned span16 = 1u; /* bit x: x = (eb * v) & 15 for some v in the span */
        for (int j = 0; j < lbits + wbits; j++) {
            uint32_t v = limg[j];
            or_thread |= v;
            if (j < lbits) or_lane |= v;
            unsigned m = (v << lg) & 15u, add = 0;
            for (unsigned x = 0; x < 16; x++)
                if (span16 & (1u << x)) add |= 1u << (x ^ m);
            span16 |= add;
        }
        uint32_t E[LAYOUT_MAX_THREAD_ELEMS];
        for (int q = 0; q < n; q++) {
            uint32_t e = (uint32_t)p->order[q], v = 0;
            for (int j = 0; e; j++, e >>= 1)
                if (e & 1u) v ^= eimg[j];
            E[q] = v;
        }
        layout_access_facts f;
        for (int q = 0; q < n; q++) {
            unsigned res = 0, e16 = (E[q] << lg) & 15u;
            for (unsigned x = 0; x < 16; x++)
                if (span16 & (1u << x)) res |= 1u << ((base + (e16 ^ x)) & 15u);
            f.residues[q] = res;
            f.break_warp[q] = f.break_lane[q] = -1;
            f.next_adjacent[q] = f.next_below[q] = 0;
            if (q + 1 < n) {
                uint32_t dd = E[q] ^ E[q + 1];
                if (dd && !(dd & (dd + 1)) && !(or_thread & dd)) {
                    f.next_adjacent[q] = (unsigned char)((E[q] & dd) == dd >> 1);
                    f.next_below[q] = (unsigned char)((E[q + 1] & dd) == dd >> 1);
                }
            }
        }
        layout_status s = layout_access_table_build_facts(p, &sd->opt, &f, err);
        if (s) return s;
        r.side_steps[i] = p->n_steps;
        memcpy(r.side_op_count[i], p->op_count, sizeof r.side_op_count[i]);
        r.side_misaligned[i] = p->n_misaligned;
        r.side_noncontiguous[i] = p->n_noncontiguous;
        r.side_split[i] = p->n_vectors_split;
        r.vector_damage += p->n_misaligned + p->n_noncontiguous + p->n_vectors_split;
        r.instrs += (int64_t)p->n_steps * warps;

        /* lane and warp parts of the addresses (bytes, before base) */
        uint32_t lane_b[LAYOUT_MAX_LANES];
        lane_b[0] = 0;
        for (int l = 1; l < lanes; l++) lane_b[l] = lane_b[l & (l - 1)] ^ (limg[__builtin_ctz((unsigned)l)] << lg);
        uint32_t *warp_b = w->warp_bytes;
        warp_b[0] = 0;
        for (int x = 1; x < warps; x++) warp_b[x] = warp_b[x & (x - 1)] ^ (wimg[__builtin_ctz((unsigned)x)] << lg);
        const uint32_t or_lane_b = or_lane << lg;

        layout_instr ins;
        ins.n_lanes = lanes;
        ins.active_mask = lanes == 64 ? ~(uint64_t)0 : (((uint64_t)1 << lanes) - 1);
        ins.direction = sd->direction;
        int width_cost[17];
        for (int k = 0; k < 17; k++) width_cost[k] = -1;
        int64_t extra = 0;
        for (int st = 0; st < p->n_steps; st++) {
            const layout_access_step *step = &p->steps[st];
            const uint32_t W = (uint32_t)step->width_bytes, bo = (uint32_t)step->byte_offset;
            const uint32_t eq = E[step->seq_first] << lg;
            const int pow2 = W <= 16 && !(W & (W - 1));
            ins.width_bytes = step->width_bytes;
            for (int x = 0; x < warps; x++) {
                uint32_t a0 = warp_b[x] ^ eq;
                /* lanes are base + bo + (a0 ^ lane_b[l]); with no carry from
                 * bo they are base + ((a0 ^ bo) ^ lane_b[l]) */
                int shaped = pow2 && !((a0 | or_lane_b) & bo) && !(((a0 ^ bo) | or_lane_b) & (W - 1));
                if (shaped && width_cost[W] >= 0) {
                    extra += width_cost[W];
                    continue;
                }
                uint32_t add = base + bo;
                for (int l = 0; l < lanes; l++) ins.addr_bytes[l] = (a0 ^ lane_b[l]) + add;
                layout_cost c;
                if ((s = layout_checker_cost(&sc->checker, &ins, &c, err))) return s;
                if (shaped) width_cost[W] = c.extra_cycles;
                extra += c.extra_cycles;
            }
        }
        r.side_extra[i] = extra;
        r.extra_cycles += extra;
    }
    *out = r;
    return layout_ok(err);
}
