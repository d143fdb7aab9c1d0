/* The search's scorer for candidates that are linear over F2 (the F2
 * swizzles of family 5): the same numbers as layout_suggest_score_offsets()
 * without computing, gathering or scanning an address per element.
 *
 * When a side's tile index is F2-linear in the bits of its (warp, lane,
 * element) index (scorer.f2_bits) and the candidate L maps the tile index
 * linearly to element offsets, every address of the side is
 *     base + eb * (T(warp) ^ T(lane) ^ E(element)),
 * T and E the images of the bits under L o lin.  Then:
 *  - the compiler model's facts (access_plan.h) follow from the images:
 *    the residues mod 16 at position q are base + eb * (E_q ^ v) over the
 *    span of the thread images, projected on the low bits; y + 1 = x holds
 *    for every x = v ^ E_q+1, y = v ^ E_q exactly when d = E_q ^ E_q+1 is
 *    2^(k+1) - 1, E_q & d = d >> 1 and no thread image has a bit of d;
 *  - the checker's cost (docs/lds-model.md §3.1: per lane group, per bank the
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
#include "score_summary_internal.h"
#include "../core/bits.h"

#include <string.h>

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

/* cyclic rotation of a 16-bit residue set by k */
static unsigned rot16(unsigned m, unsigned k)
{
    k &= 15u;
    return k ? ((m << k) | (m >> (16u - k))) & 0xFFFFu : m;
}

/* Whether the instruction lanes b[] are a[] + t for one t that is a
 * multiple of the bank width (bw a power of two): then they cost the same. */
static int lanes_translate_bw(const uint32_t *b, const uint32_t *a, int n, uint32_t bw)
{
    uint32_t t = b[0] - a[0], diff = 0;
    if (t & (bw - 1u)) return 0;
    for (int l = 0; l < n; l++) diff |= (b[l] - a[l]) ^ t;
    return diff == 0;
}

/* One side's images and plan between the two passes below. */
typedef struct side_state {
    uint32_t X[16];
    int64_t g[16];
    uint32_t XE[LAYOUT_MAX_THREAD_ELEMS];
    int64_t GE[LAYOUT_MAX_THREAD_ELEMS];
    const layout_access_plan *p;
    /* a plan deferred in pass 0 (its damage and instructions known from
     * the summary cache): the facts to build it from */
    int deferred, n, facts_done;
    /* a deferred plan's compact form in the summary cache (valid while
     * cs->fill == cs_fill), used in pass 1 instead of building the plan */
    const struct layout_suggest_sum_slot *cs;
    uint64_t cs_fill;
    layout_access_facts f;
    short succ[LAYOUT_MAX_THREAD_ELEMS];
    int64_t vl[LAYOUT_MAX_DIMS], vs[LAYOUT_MAX_DIMS];
} side_state;

/* The side's steps from the order and the facts (access_plan.h): kept
 * in the side's steps cache while the facts that shape them stay. */
static layout_status build_side(const layout_suggest_scorer *sc, layout_suggest_work *w, int i,
                                const layout_access_facts *f, const short *succ, const int64_t *vl, const int64_t *vs,
                                int n, layout_access_plan **pout, layout_error *err)
{
    const layout_suggest_spec *spec = &sc->spec;
    const layout_suggest_side *sd = &spec->sides[i];
    const layout_distribution *d = sd->dist;
    struct layout_suggest_steps_cache *cache = i < 2 ? &w->steps_cache[i] : NULL;
    layout_access_plan *p = cache ? &cache->plan : &w->plan;
    layout_status s;
        /* the steps follow from the order and the facts (access_plan.h) */
    if (!cache || !cache->built || cache->n != n || memcmp(cache->residues, f->residues, sizeof f->residues[0] * (size_t)n) ||
        memcmp(cache->next_adjacent, f->next_adjacent, (size_t)n) || memcmp(cache->next_below, f->next_below, (size_t)n) ||
        memcmp(cache->succ, succ, sizeof succ[0] * (size_t)n) ||
        (cache->pairable && (memcmp(cache->klass, f->klass, sizeof f->klass[0] * (size_t)n) ||
                             memcmp(cache->rel, f->rel, sizeof f->rel[0] * (size_t)n)))) {
        if (cache && cache->built) /* steps of other facts: back to the ordered state */
            layout_access_table_order(p, d, sd->direction, spec->elem_bytes, &sd->opt, vl, vs);
        if (cache) cache->built = 0;
        if ((s = layout_access_table_build_facts(p, &sd->opt, f, err))) {
            if (cache) cache->sc = NULL; /* half built: order again next time */
            return s;
        }
        if (cache) {
            cache->built = 1;
            cache->n = n;
            memcpy(cache->residues, f->residues, sizeof f->residues[0] * (size_t)n);
            memcpy(cache->next_adjacent, f->next_adjacent, (size_t)n);
            memcpy(cache->next_below, f->next_below, (size_t)n);
            cache->pairable = 0;
            for (int st = 0; st < p->n_steps; st++)
                cache->pairable |= p->steps[st].pair_step >= 0 || p->steps[st].op == LAYOUT_DS_B32 ||
                                   p->steps[st].op == LAYOUT_DS_B64;
            memcpy(cache->succ, succ, sizeof succ[0] * (size_t)n);
            memcpy(cache->klass, f->klass, sizeof f->klass[0] * (size_t)n);
            memcpy(cache->rel, f->rel, sizeof f->rel[0] * (size_t)n);
        }
    }
    *pout = p;
    return LAYOUT_OK;
}

/* Side i's element parts in issue order p->order: ss->XE (XOR) and ss->GE
 * (pad groups), from the images ss->X and pad groups ss->g of its element
 * bits. */
static void side_elems(const layout_suggest_scorer *sc, layout_suggest_work *w, int i, side_state *ss,
                       const layout_access_plan *p, const int64_t *vl, const int64_t *vs)
{
    const int ebits = sc->f2_bits[i][0], n = p->n_elems;
    const uint32_t *eX = ss->X;
    const int64_t *eg = ss->g;
    uint32_t *XE = ss->XE;
    int64_t *GE = ss->GE;
    /* XE, GE (and below the classes) depend on the issue order and the
     * element bits' images only, not on the pad: kept per side in *w */
    struct layout_suggest_ecache *ec = &w->ecache[i];
    const int ec_hit = ec->sc == (const void *)sc && ec->n == n && ec->ebits == ebits &&
                       !memcmp(ec->hl, vl, sizeof ec->hl) && !memcmp(ec->hs, vs, sizeof ec->hs) &&
                       !memcmp(ec->eX, eX, sizeof eX[0] * (size_t)ebits) &&
                       !memcmp(ec->eg, eg, sizeof eg[0] * (size_t)ebits);
    if (ec_hit) {
        memcpy(XE, ec->XE, sizeof XE[0] * (size_t)n);
        memcpy(GE, ec->GE, sizeof GE[0] * (size_t)n);
    } else {
        for (int q = 0; q < n; q++) {
            uint32_t e = (uint32_t)p->order[q], v = 0;
            int64_t gv = 0;
            for (int j = 0; e; j++, e >>= 1)
                if (e & 1u) v ^= eX[j], gv += eg[j];
            XE[q] = v;
            GE[q] = gv;
        }
        ec->sc = sc;
        ec->n = n;
        ec->ebits = ebits;
        memcpy(ec->hl, vl, sizeof ec->hl);
        memcpy(ec->hs, vs, sizeof ec->hs);
        memcpy(ec->eX, eX, sizeof eX[0] * (size_t)ebits);
        memcpy(ec->eg, eg, sizeof eg[0] * (size_t)ebits);
        memcpy(ec->XE, XE, sizeof XE[0] * (size_t)n);
        memcpy(ec->GE, GE, sizeof GE[0] * (size_t)n);
        ec->klass_or = 0;
        ec->klass_ok = 0;
    }
}

/* Side i's address facts (access_plan.h), its element parts ss->XE, ss->GE
 * and the successors ss->succ, in issue order p->order, for pads of P
 * bytes (ss->X, ss->g: the images and pad groups of its bits).  Returns
 * whether every position's pad group equals its class's (then nothing
 * but the residues depends on P, and those only on P mod 16). */
static int side_facts(const layout_suggest_scorer *sc, layout_suggest_work *w, int i, side_state *ss,
                      const layout_access_plan *p, int64_t P, const int64_t *vl, const int64_t *vs)
{
    const layout_suggest_spec *spec = &sc->spec;
    const int lg = layout_log2_ceil_u64((uint64_t)spec->elem_bytes);
    const int64_t eb = spec->elem_bytes, base = spec->sides[i].opt.base_bytes;
    const int ebits = sc->f2_bits[i][0], nb = ebits + sc->f2_bits[i][1] + sc->f2_bits[i][2], n = p->n_elems;
    const uint32_t *X = ss->X;
    const int64_t *g = ss->g;
    uint32_t *XE = ss->XE;
    int64_t *GE = ss->GE;
    layout_access_facts *f = &ss->f;
    short *succ = ss->succ;
    /* residues mod 16 of the thread parts: A[x] is the set of
     * (P * G) & 15 over the threads whose (eb * X) & 15 is x (X their
     * XOR part, G their pad-group sum); built bit by bit, a thread bit j
     * adding (eb * X_j) & 15 by XOR and (P * g_j) & 15 by rotation */
    uint32_t or_thread = 0;
    /* A[x] is 16-bit row x of AW: word x >> 2, lane x & 3 */
    uint64_t AW[4] = {1u, 0, 0, 0};
    for (int j = ebits; j < nb; j++) {
        or_thread |= X[j];
        const unsigned m = (X[j] << lg) & 15u, rot = (unsigned)((uint64_t)(g[j] * P) & 15u);
        if (!m && !rot) continue; /* the set maps to itself */
        uint64_t moved[4];
        for (int k = 0; k < 4; k++) {
            uint64_t v = AW[k];
            if (rot) /* rotate each 16-bit lane left by rot */
                v = ((v << rot) & (0xFFFFu * (0x0001000100010001ULL) & ~(0x0001000100010001ULL * ((1u << rot) - 1u)))) |
                    ((v >> (16u - rot)) & (0x0001000100010001ULL * ((1u << rot) - 1u)));
            if (m & 1u) v = ((v & 0x0000FFFF0000FFFFULL) << 16) | ((v >> 16) & 0x0000FFFF0000FFFFULL);
            if (m & 2u) v = (v << 32) | (v >> 32);
            moved[k ^ (int)(m >> 2)] = v;
        }
        for (int k = 0; k < 4; k++) AW[k] |= moved[k];
    }
    unsigned A[16];
    for (unsigned x = 0; x < 16; x++) A[x] = (unsigned)(AW[x >> 2] >> (16u * (x & 3u))) & 0xFFFFu;
    side_elems(sc, w, i, ss, p, vl, vs);
    struct layout_suggest_ecache *ec = &w->ecache[i];
    unsigned T[16], t_made = 0;
    for (int q = 0; q < n; q++) {
        /* OR over x of rot16(A[x], (xe16 ^ x) + add) = rot16(T[xe16], add),
         * T[v] = OR over x of rot16(A[x], x ^ v), each T[v] made once */
        unsigned xe16 = (XE[q] << lg) & 15u;
        unsigned add = (unsigned)((uint64_t)(base + P * GE[q]) & 15u);
        if (!(t_made & (1u << xe16))) {
            unsigned t = 0;
            for (unsigned x = 0; x < 16; x++)
                if (A[x]) t |= rot16(A[x], xe16 ^ x);
            T[xe16] = t;
            t_made |= 1u << xe16;
        }
        f->residues[q] = rot16(T[xe16], add);
        f->break_warp[q] = f->break_lane[q] = -1;
        f->next_adjacent[q] = f->next_below[q] = 0;
        if (q + 1 < n) {
            /* (y ^ d) - y over y in a coset of the thread span is constant
             * exactly when no thread image has a bit of d; it is then
             * d - 2 (XE_q & d) */
            uint32_t dd = XE[q] ^ XE[q + 1];
            if (!(or_thread & dd)) {
                int64_t diff = eb * ((int64_t)dd - 2 * (int64_t)(XE[q] & dd)) + P * (GE[q + 1] - GE[q]);
                f->next_adjacent[q] = (unsigned char)(diff == eb);
                f->next_below[q] = (unsigned char)(diff == -eb);
            }
        }
    }
    /* rigid classes: the difference of positions q and r is the same in
     * every thread exactly when XE_q ^ XE_r has no bit of a thread image
     * (as above); it is then eb * (XE_r - XE_q) + P * (GE_r - GE_q) */
    /* (the class of q is the first position r with XE_r & or_thread ==
     * XE_q & or_thread: found through a hash of that key, as is succ
     * below, so both take time linear in n) */
    enum { HB = 9, HN = 1 << HB }; /* 512 slots for n <= 256 keys */
    short slot[HN];
    if (ec->klass_ok && ec->klass_or == or_thread) {
        for (int q = 0; q < n; q++) {
            const int r = ec->klass[q];
            f->klass[q] = (unsigned char)r;
            f->rel[q] = eb * ((int64_t)XE[q] - (int64_t)XE[r]) + P * (GE[q] - GE[r]);
        }
    } else {
    for (int h = 0; h < HN; h++) slot[h] = -1;
    for (int q = 0; q < n; q++) {
        const uint32_t key = XE[q] & or_thread;
        uint32_t h = (key * 0x9E3779B1u) >> (32 - HB);
        int r = q;
        for (; slot[h] >= 0; h = (h + 1) & (HN - 1))
            if ((XE[slot[h]] & or_thread) == key) {
                r = slot[h];
                break;
            }
        if (r == q) slot[h] = (short)q;
        f->klass[q] = (unsigned char)r;
        f->rel[q] = eb * ((int64_t)XE[q] - (int64_t)XE[r]) + P * (GE[q] - GE[r]);
    }
    memcpy(ec->klass, f->klass, (size_t)n);
    ec->klass_or = or_thread;
    ec->klass_ok = 1;
    }
    /* The classes shape the steps through runs (succ: the class mate at
     * the next address, or -1) and through read2 / write2 pairs of b32 /
     * b64 steps.  Steps built from the same residues, adjacency and succ
     * are the same up to pairing; when they have no b32 / b64 step to
     * pair, they are the same for any klass / rel (the cache below). */
    /* succ[q] = the first r with klass_r = klass_q and rel_r = rel_q + eb
     * (r != q as eb > 0): the first position of each (klass, rel) in a
     * hash, then one look-up per q */
    for (int h = 0; h < HN; h++) slot[h] = -1;
#define KR_HASH(k, v) ((uint32_t)(((uint64_t)(k) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(v) * 0xC2B2AE3D27D4EB4FULL) >> (64 - HB)))
    for (int q = 0; q < n; q++) {
        uint32_t h = KR_HASH(f->klass[q], f->rel[q]);
        int dup = 0;
        for (; slot[h] >= 0; h = (h + 1) & (HN - 1))
            if (f->klass[slot[h]] == f->klass[q] && f->rel[slot[h]] == f->rel[q]) {
                dup = 1;
                break;
            }
        if (!dup) slot[h] = (short)q;
    }
    for (int q = 0; q < n; q++) {
        const int64_t want = f->rel[q] + eb;
        succ[q] = -1;
        for (uint32_t h = KR_HASH(f->klass[q], want); slot[h] >= 0; h = (h + 1) & (HN - 1))
            if (f->klass[slot[h]] == f->klass[q] && f->rel[slot[h]] == want) {
                succ[q] = slot[h];
                break;
            }
    }
#undef KR_HASH
    int h0 = 1;
    for (int q = 0; q < n; q++) h0 &= GE[q] == GE[f->klass[q]];
    return h0;
}

static void add_counts(layout_suggest_cost *r, int i, const layout_access_plan *p, int warps)
{
    r->side_steps[i] = p->n_steps;
    memcpy(r->side_op_count[i], p->op_count, sizeof r->side_op_count[i]);
    r->side_misaligned[i] = p->n_misaligned;
    r->side_noncontiguous[i] = p->n_noncontiguous;
    r->side_split[i] = p->n_vectors_split;
    r->vector_damage += p->n_misaligned + p->n_noncontiguous + p->n_vectors_split;
    r->instrs += (int64_t)p->n_instrs * warps;
}

/* The search's bound on the cost so far *r plus `damage` and `instrs`
 * and, for next >= 0, the fewest instructions side `next` can have
 * (ceil(elements x bytes / 16) per thread and warp): whether w->cut_fn
 * rules the candidate out; if so, w->cut_hit is set and *out is that
 * partial cost. */
static int bound_cut(const layout_suggest_scorer *sc, layout_suggest_work *w, const layout_suggest_cost *r,
                       int damage, int64_t instrs, int next, layout_suggest_cost *out)
{
    layout_suggest_cost lb = *r;
    lb.vector_damage += damage;
    lb.instrs += instrs;
    if (next >= 0) {
        const layout_distribution *od = sc->spec.sides[next].dist;
        lb.instrs += (int64_t)od->n_warps * ((od->elems_per_thread * sc->spec.elem_bytes + 15) / 16);
    }
    if (!w->cut_fn(w->cut_ctx, &lb)) return 0;
    w->cut_hit = 1;
    *out = lb;
    return 1;
}

layout_status layout_suggest_score_linear_pad(const layout_suggest_scorer *sc, layout_suggest_work *w,
                                              const layout_linear *ll, int contiguous_dim, int64_t pad, int pad_shift,
                                              int64_t space, const int64_t *hl, const int64_t *hs, int index_ops,
                                              layout_suggest_cost *out, layout_error *err)
{
    const layout_suggest_spec *spec = &sc->spec;
    const int b0 = ll->in_bits[0], b1 = ll->in_bits[1];
    const int lg = layout_log2_ceil_u64((uint64_t)spec->elem_bytes);
    const int64_t eb = spec->elem_bytes, P = pad * eb; /* bytes of one pad */
    const uint32_t bw = (uint32_t)spec->arch->bank_width_bytes;
    layout_suggest_cost r;
    memset(&r, 0, sizeof r);
    r.n_sides = spec->n_sides;
    r.lds_bytes = space * eb;
    r.index_ops = index_ops;
    /* The largest offset is at most the OR of the images plus the largest
     * pad term; where that bound could leave the 32-bit address range the
     * address path decides. */
    uint64_t any = 0;
    for (int j = 0; j < ll->total_in_bits; j++) any |= ll->bases[j];
    const int row_bits = contiguous_dim ? b0 : b1;
    const int64_t groups = row_bits >= pad_shift ? (int64_t)1 << (row_bits - pad_shift) : 1;
    if (pad < 0 || pad > ((int64_t)1 << 30) || pad_shift < 0 || pad_shift > 31) return LAYOUT_ERR_UNSUPPORTED;
    const int64_t hi = (int64_t)any + (groups - 1) * pad;
    for (int i = 0; i < spec->n_sides; i++)
        if (hi > ((int64_t)UINT32_MAX - 16 - spec->sides[i].opt.base_bytes) / eb) return LAYOUT_ERR_UNSUPPORTED;

    /* With a cut (the search's bound, w->cut_fn) and at most two sides
     * (whose plans have caches of their own), every side's plan comes first:
     * the vector damage and the instructions are then exact, and a
     * candidate the bound rules out skips the checker (pass 1). */
    side_state sst[2];
    const int two = spec->n_sides <= 2 && w->cut_fn;
    w->cut_hit = 0;
    int def_damage = 0; /* damage and instructions of the deferred plans */
    int64_t def_instrs = 0;
    sst[0].deferred = sst[1].deferred = 0;
    for (int pass = 0; pass < 2; pass++) {
    if (pass == 1 && !two) break;
    if (pass == 1) {
        if (bound_cut(sc, w, &r, def_damage, def_instrs, -1, out)) return layout_ok(err);
        for (int i = 0; i < spec->n_sides; i++) /* the deferred plans, now needed */
            if (sst[i].deferred) {
                side_state *sd_ = &sst[i];
                const int warps_ = spec->sides[i].dist->n_warps;
                const layout_access_plan *order_p = &w->steps_cache[i].plan;
                if (sd_->cs && sd_->cs->fill == sd_->cs_fill && sd_->cs->cp_n >= 0) {
                    /* the plan's compact form in the summary cache: no build */
                    if (!sd_->facts_done) side_elems(sc, w, i, sd_, order_p, sd_->vl, sd_->vs);
                    layout_suggest_sum_counts(&r, i, sd_->cs, warps_);
                    sd_->p = NULL;
                    continue;
                }
                sd_->cs = NULL;
                layout_access_plan *pd;
                if (!sd_->facts_done) /* known from an earlier pad: its facts now */
                    side_facts(sc, w, i, sd_, order_p, P, sd_->vl, sd_->vs);
                layout_status s = build_side(sc, w, i, &sd_->f, sd_->succ, sd_->vl, sd_->vs, sd_->n, &pd, err);
                if (s) return s;
                add_counts(&r, i, pd, warps_);
                sd_->p = pd;
            }
    }
    /* pass 0 plans first the side that had more instructions last time:
     * with the other side's least (file comment of search.c) the bound can
     * cut before the second plan */
    const int order[2] = {two && w->last_instrs[1] > w->last_instrs[0], !(two && w->last_instrs[1] > w->last_instrs[0])};
    for (int oi = 0; oi < spec->n_sides; oi++) {
        /* pass 1 costs first the side whose extra cycles cut the last
         * candidate cut by them */
        const int i = two && pass == 0 ? order[oi] : two && spec->n_sides == 2 ? oi ^ w->extra_first : oi;
        /* the side pass 0 plans next (its fewest instructions count in the bound), or -1 */
        const int next = two && oi + 1 < spec->n_sides ? order[oi + 1] : -1;
        const layout_suggest_side *sd = &spec->sides[i];
        const layout_distribution *d = sd->dist;
        const int ebits = sc->f2_bits[i][0], lbits = sc->f2_bits[i][1], wbits = sc->f2_bits[i][2];
        const int nb = ebits + lbits + wbits, lanes = d->wave_size, warps = d->n_warps;
        const int64_t base = sd->opt.base_bytes;
        side_state *ss = &sst[two ? i : 0];
        /* per bit of (element, lane, warp): its XOR image X and its pad group
         * g; the pad term is additive (sum of g) when the nonzero g share no
         * bit, which the distributions' bit-to-bit maps give */
        uint32_t *X = ss->X, *XE = ss->XE;
        int64_t *g = ss->g, *GE = ss->GE;
        const uint32_t *lX = X + ebits, *wX = X + ebits + lbits;
        const int64_t *lg_ = g + ebits, *wg = g + ebits + lbits;
        layout_status s;
        if (!two || pass == 0) {
        uint64_t g_seen = 0;
        struct layout_suggest_xcache *xc = &w->xcache[i];
        const size_t nbase = sizeof(uint64_t) * (size_t)(b0 + b1);
        if (xc->sc != (const void *)sc || xc->b0 != b0 || xc->b1 != b1 || b0 + b1 > 32 ||
            memcmp(xc->bases, ll->bases, nbase)) {
            xc->sc = NULL;
            for (int j = 0; j < nb; j++) xc->X[j] = apply_tile_index(ll, (uint32_t)sc->f2_basis[i][j], b0, b1);
            if (b0 + b1 <= 32) {
                xc->sc = sc;
                xc->b0 = b0;
                xc->b1 = b1;
                memcpy(xc->bases, ll->bases, nbase);
            }
        }
        for (int j = 0; j < nb; j++) {
            uint32_t lin = (uint32_t)sc->f2_basis[i][j];
            X[j] = xc->X[j];
            uint32_t row = contiguous_dim ? lin >> b1 : lin & ((1u << b1) - 1u);
            g[j] = P ? (int64_t)(row >> pad_shift) : 0;
            if ((uint64_t)g[j] & g_seen) return LAYOUT_ERR_UNSUPPORTED;
            g_seen |= (uint64_t)g[j];
        }

        int64_t vl[LAYOUT_MAX_DIMS] = {0}, vs[LAYOUT_MAX_DIMS] = {0};
        for (int k = 0; k < spec->n_dims; k++) {
            int t = sd->has_view ? sd->view[k] : k;
            vl[k] = hl[t];
            vs[k] = hs[t];
        }
        /* the issue order depends on the side and the vector hints only */
        struct layout_suggest_steps_cache *cache = i < 2 ? &w->steps_cache[i] : NULL;
        layout_access_plan *p = cache ? &cache->plan : &w->plan;
        int same_order = cache && cache->sc == (const void *)sc && !memcmp(cache->hl, vl, sizeof vl) &&
                         !memcmp(cache->hs, vs, sizeof vs);
        if (!same_order) {
            if (cache) {
                cache->sc = sc;
                cache->built = 0;
                memcpy(cache->hl, vl, sizeof vl);
                memcpy(cache->hs, vs, sizeof vs);
            }
            layout_access_table_order(p, d, sd->direction, spec->elem_bytes, &sd->opt, vl, vs);
        }
        const int n = p->n_elems;

        /* the facts: kept per pad residue where they do not depend on
         * the pad otherwise (w->rcache, below; two: i < 2) */
        struct layout_suggest_rcache *rc = two ? layout_suggest_rcache_for(sc, w, i, nb, n, X, g, vl, vs) : NULL;
        const unsigned rho = (unsigned)((uint64_t)P & 15u);
        ss->facts_done = 0;
        ss->cs = NULL;
        if (two && rc->h0 == 1 && (rc->known >> rho & 1u)) {
            /* facts as those of a pad scored before: its plan's damage
             * and instructions; the facts only if the plan is needed */
            if (bound_cut(sc, w, &r, def_damage + rc->damage[rho], def_instrs + rc->instrs[rho], next, out))
                return layout_ok(err);
            memcpy(ss->vl, vl, sizeof ss->vl);
            memcpy(ss->vs, vs, sizeof ss->vs);
            ss->n = n;
            ss->deferred = 1;
            ss->cs = layout_suggest_rcache_slot(w, i, rho, &ss->cs_fill);
            def_damage += rc->damage[rho];
            def_instrs += rc->instrs[rho];
            w->last_instrs[i] = rc->instrs[rho];
            continue;
        }
        const int h0 = side_facts(sc, w, i, ss, p, P, vl, vs);
        ss->facts_done = 1;
        if (two && rc->h0 < 0) rc->h0 = h0;
        const layout_access_facts *const f = &ss->f;
        const short *const succ = ss->succ;
        /* The bound's short cut: the vector damage and instructions of the
         * plans of earlier facts (w->sumcache, keyed as the steps cache
         * below: the hints, residues, adjacency and successors, plus the
         * classes when the plan pairs; fully associative, least recently
         * used out); with them the bound may rule the candidate out before
         * its plan is built. */
        struct layout_suggest_sum_slot *slot_sum = NULL;
        uint64_t key_hash = 0;
        int deferred = 0;
        if (two && n <= LAYOUT_SUGGEST_SUM_N) {
            struct layout_suggest_sum_slot *victim;
            const struct layout_suggest_sum_slot *relvar;
            slot_sum = layout_suggest_sum_find(sc, w, i, n, vl, vs, f, succ, &key_hash, &victim, &relvar);
            /* relvar: the same steps up to the pairing of b32 / b64 steps
             * (only the distances differ): the same damage, and no fewer
             * instructions than with every such step paired */
            if (!slot_sum && relvar &&
                bound_cut(sc, w, &r, def_damage + relvar->damage, def_instrs + relvar->instrs_min, next, out))
                return layout_ok(err);
            if (slot_sum) {
                if (rc->h0 == 1) /* a pad residue's summary (w->rcache) */
                    layout_suggest_rcache_put(w, i, rho, slot_sum->damage, slot_sum->instrs, slot_sum);
                deferred = 1;
                if (bound_cut(sc, w, &r, def_damage + slot_sum->damage, def_instrs + slot_sum->instrs, next, out))
                    return layout_ok(err);
            } else {
                slot_sum = victim; /* filled once the plan is built */
            }
        }
        /* a summary hit that did not cut: the plan waits (pass 1 builds it
         * if the bound lets the candidate through) */
        if (deferred) {
            memcpy(ss->vl, vl, sizeof ss->vl);
            memcpy(ss->vs, vs, sizeof ss->vs);
            ss->n = n;
            ss->deferred = 1;
            ss->cs = slot_sum;
            ss->cs_fill = slot_sum->fill;
            def_damage += slot_sum->damage;
            def_instrs += slot_sum->instrs;
            w->last_instrs[i] = slot_sum->instrs;
            continue;
        }
        if ((s = build_side(sc, w, i, f, succ, vl, vs, n, &p, err))) return s;
        add_counts(&r, i, p, warps);
        ss->p = p;
        if (slot_sum) /* keep this plan's damage and instructions for later facts like these */
            layout_suggest_sum_fill(w, i, slot_sum, key_hash, n, vl, vs, f, succ, p, warps);
        if (two && rc->h0 == 1) /* a pad residue's summary (w->rcache) */
            layout_suggest_rcache_put(w, i, rho, p->n_misaligned + p->n_noncontiguous + p->n_vectors_split,
                                      (int64_t)p->n_instrs * warps, slot_sum);
        }
        if (two && pass == 0) {
            w->last_instrs[i] = (int64_t)ss->p->n_instrs * warps;
            if (next >= 0 && bound_cut(sc, w, &r, def_damage, def_instrs, next, out)) return layout_ok(err);
            continue;
        }
        const layout_access_plan *p = ss->p;
        const struct layout_suggest_sum_slot *cs = ss->p ? NULL : ss->cs; /* or its compact form */
        const int n_steps = cs ? cs->cp_n : p->n_steps;

        /* lane and warp parts of the addresses: XOR part (bytes) and pad part */
        uint32_t lane_x[LAYOUT_MAX_LANES], *warp_x = w->warp_bytes;
        int64_t lane_g[LAYOUT_MAX_LANES], *warp_g = w->warp_pad;
        int lanes_padded = 0;
        lane_x[0] = 0, lane_g[0] = 0;
        for (int l = 1; l < lanes; l++) {
            int j = __builtin_ctz((unsigned)l);
            lane_x[l] = lane_x[l & (l - 1)] ^ (lX[j] << lg);
            lane_g[l] = lane_g[l & (l - 1)] + P * lg_[j];
            lanes_padded |= lane_g[l] != 0;
        }
        warp_x[0] = 0, warp_g[0] = 0;
        for (int x = 1; x < warps; x++) {
            int j = __builtin_ctz((unsigned)x);
            warp_x[x] = warp_x[x & (x - 1)] ^ (wX[j] << lg);
            warp_g[x] = warp_g[x & (x - 1)] + P * wg[j];
        }
        uint32_t or_lane_b = 0;
        for (int j = 0; j < lbits; j++) or_lane_b |= lX[j] << lg;

        layout_instr ins;
        ins.n_lanes = lanes;
        ins.active_mask = lanes == 64 ? ~(uint64_t)0 : (((uint64_t)1 << lanes) - 1);
        ins.direction = sd->direction;
        int width_cost[17];
        for (int k = 0; k < 17; k++) width_cost[k] = -1;
        /* Lanes (a0 ^ lane_x) + lane_g + add are (a0_in ^ lane_x) + lane_g
         * translated by t = a0_out + add, a0_in the bits of a0 that some
         * lane's XOR part has (the rest adds: no shared bit).  A translate
         * by t costs what one by t mod bw costs (banks rotate, words stay
         * distinct), so the cost is a function of (width, a0_in, t mod bw)
         * while lane_x and lane_g stay the same: a direct-mapped cache in
         * *w (bw up to 16), kept across candidates whose lane images agree
         * (most XOR + pad sets of one XOR set) */
        struct layout_suggest_tcache *tcache = &w->tcache[i];
        const int by_translate = bw <= 16 && lbits <= 8;
        if (by_translate) {
            int same = tcache->sc == (const void *)sc && tcache->lbits == lbits;
            for (int j = 0; j < lbits && same; j++)
                same = tcache->lane_x[j] == lX[j] << lg && tcache->lane_g[j] == P * lg_[j];
            if (!same) {
                tcache->sc = sc;
                tcache->lbits = lbits;
                for (int j = 0; j < lbits; j++) tcache->lane_x[j] = lX[j] << lg, tcache->lane_g[j] = P * lg_[j];
                for (int k = 0; k < 64; k++) tcache->slot[k].key = -1;
            }
        }
        /* instructions costed by the checker lately: lanes, width, cost */
        enum { RECENT = 4 };
        uint32_t recent[RECENT][LAYOUT_MAX_LANES];
        int recent_w[RECENT], recent_c[RECENT], n_recent = 0, next_recent = 0;
        int64_t extra = 0;
        int64_t extra_checked = 0;
        for (int st = 0; st < n_steps; st++) {
            const int first = cs ? cs->cp_first[st] : p->steps[st].seq_first;
            const uint32_t W = cs ? cs->cp_width[st] : (uint32_t)p->steps[st].width_bytes;
            const uint32_t bo = cs ? (uint32_t)(int32_t)cs->cp_off[st] : (uint32_t)p->steps[st].byte_offset;
            const uint32_t eq = XE[first] << lg;
            const int64_t gq = P * GE[first];
            const int pow2 = W <= 16 && !(W & (W - 1));
            ins.width_bytes = (int)W;
            for (int x = 0; x < warps; x++) {
                const uint32_t a0 = warp_x[x] ^ eq;
                const int64_t shift = base + warp_g[x] + gq; /* added to every lane, with bo */
                /* lanes are ((a0 ^ lane_x) + bo) + lane_g + shift.  With no
                 * lane pad part and shift a multiple of the bank width (a
                 * bank rotation) they cost what (a0 ^ bo) ^ lane_x costs when
                 * bo carries into nothing; every such instruction of one
                 * width is an XOR translate of every other (file comment) */
                int shaped = pow2 && !lanes_padded && !((uint64_t)shift & (bw - 1u)) && !((a0 | or_lane_b) & bo) &&
                             !(((a0 ^ bo) | or_lane_b) & (W - 1));
                if (shaped && width_cost[W] >= 0) {
                    extra += width_cost[W];
                    continue;
                }
                const uint32_t add = (uint32_t)((uint64_t)shift + bo);
                const uint32_t a0_in = a0 & or_lane_b;
                const int tkey = (int)(W * 16u + (((a0 & ~or_lane_b) + add) & (bw - 1u)));
                const uint32_t th = (a0_in * 0x9E3779B1u ^ (uint32_t)tkey * 0x85EBCA77u) >> 26; /* 64 slots */
                int *tc = NULL;
                if (by_translate && W <= 16) {
                    if (tcache->slot[th].key == tkey && tcache->slot[th].a0_in == a0_in) {
                        extra += tcache->slot[th].cost;
                        continue;
                    }
                    tcache->slot[th].key = -1;
                    tcache->slot[th].a0_in = a0_in;
                    tc = &tcache->slot[th].cost;
                }
                for (int l = 0; l < lanes; l++) ins.addr_bytes[l] = (a0 ^ lane_x[l]) + (uint32_t)lane_g[l] + add;
                int c_extra = -1;
                if (!shaped && !tc)
                    for (int k = 0; k < n_recent && c_extra < 0; k++)
                        if (recent_w[k] == (int)W && lanes_translate_bw(ins.addr_bytes, recent[k], lanes, bw))
                            c_extra = recent_c[k];
                if (c_extra < 0) {
                    layout_cost c;
                    if ((s = layout_checker_cost(&sc->checker, &ins, &c, err))) return s;
                    c_extra = c.extra_cycles;
                    if (shaped) {
                        width_cost[W] = c_extra;
                    } else if (!tc) {
                        memcpy(recent[next_recent], ins.addr_bytes, sizeof(uint32_t) * (size_t)lanes);
                        recent_w[next_recent] = (int)W;
                        recent_c[next_recent] = c_extra;
                        next_recent = (next_recent + 1) % RECENT;
                        if (n_recent < RECENT) n_recent++;
                    }
                }
                if (tc) *tc = c_extra, tcache->slot[th].key = tkey;
                extra += c_extra;
            }
            /* extra cycles only grow: the bound with those so far */
            if (two && extra > extra_checked) {
                layout_suggest_cost lb = r;
                lb.extra_cycles += extra;
                extra_checked = extra;
                if (w->cut_fn(w->cut_ctx, &lb)) {
                    w->extra_first = i;
                    w->cut_hit = 1;
                    *out = lb;
                    return layout_ok(err);
                }
            }
        }
        r.side_extra[i] = extra;
        r.extra_cycles += extra;
    }
    }
    *out = r;
    return layout_ok(err);
}

layout_status layout_suggest_score_linear(const layout_suggest_scorer *sc, layout_suggest_work *w,
                                          const layout_linear *ll, const int64_t *hl, const int64_t *hs,
                                          int index_ops, layout_suggest_cost *out, layout_error *err)
{
    return layout_suggest_score_linear_pad(sc, w, ll, 1, 0, 0, (int64_t)1 << ll->total_out_bits, hl, hs, index_ops,
                                           out, err);
}
