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

/* Residues mod 16 of the thread parts of side i's addresses, for pads of
 * P bytes: A[x] is the set of (P * G) & 15 over the threads whose
 * (eb * X) & 15 is x (X their XOR part, G their pad-group sum); built bit
 * by bit, a thread bit j adding (eb * X_j) & 15 by XOR and (P * g_j) & 15
 * by rotation.  Returns the OR of the thread bits' images. */
static uint32_t facts_thread_residues(const layout_suggest_scorer *sc, int i, const side_state *ss, int64_t P,
                                      unsigned *A)
{
    const int lg = layout_log2_ceil_u64((uint64_t)sc->spec.elem_bytes);
    const int ebits = sc->f2_bits[i][0], nb = ebits + sc->f2_bits[i][1] + sc->f2_bits[i][2];
    const uint32_t *X = ss->X;
    const int64_t *g = ss->g;
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
    for (unsigned x = 0; x < 16; x++) A[x] = (unsigned)(AW[x >> 2] >> (16u * (x & 3u))) & 0xFFFFu;
    return or_thread;
}

/* Each position's residues mod 16 (from the thread residues A) and
 * whether the next position is the next or the previous element in
 * every thread. */
static void facts_residues(const layout_suggest_scorer *sc, int i, side_state *ss, int n, int64_t P, const unsigned *A,
                           uint32_t or_thread)
{
    const int lg = layout_log2_ceil_u64((uint64_t)sc->spec.elem_bytes);
    const int64_t eb = sc->spec.elem_bytes, base = sc->spec.sides[i].opt.base_bytes;
    const uint32_t *XE = ss->XE;
    const int64_t *GE = ss->GE;
    layout_access_facts *f = &ss->f;
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
}

/* The hash tables of the two steps below: 512 slots for n <= 256 keys. */
enum { FACTS_HB = 9, FACTS_HN = 1 << FACTS_HB };

/* Rigid classes: the difference of positions q and r is the same in
 * every thread exactly when XE_q ^ XE_r has no bit of a thread image (as
 * in facts_residues); it is then eb * (XE_r - XE_q) + P * (GE_r - GE_q).
 * The class of q is the first position r with XE_r & or_thread == XE_q &
 * or_thread: found through a hash of that key (time linear in n), kept in
 * the side's element cache while the thread images' OR stays. */
static void facts_classes(const layout_suggest_scorer *sc, layout_suggest_work *w, int i, side_state *ss, int n,
                          int64_t P, uint32_t or_thread)
{
    const int64_t eb = sc->spec.elem_bytes;
    const uint32_t *XE = ss->XE;
    const int64_t *GE = ss->GE;
    layout_access_facts *f = &ss->f;
    struct layout_suggest_ecache *ec = &w->ecache[i];
    short slot[FACTS_HN];
    if (ec->klass_ok && ec->klass_or == or_thread) {
        for (int q = 0; q < n; q++) {
            const int r = ec->klass[q];
            f->klass[q] = (unsigned char)r;
            f->rel[q] = eb * ((int64_t)XE[q] - (int64_t)XE[r]) + P * (GE[q] - GE[r]);
        }
        return;
    }
    for (int h = 0; h < FACTS_HN; h++) slot[h] = -1;
    for (int q = 0; q < n; q++) {
        const uint32_t key = XE[q] & or_thread;
        uint32_t h = (key * 0x9E3779B1u) >> (32 - FACTS_HB);
        int r = q;
        for (; slot[h] >= 0; h = (h + 1) & (FACTS_HN - 1))
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

/* The classes shape the steps through runs (succ: the class mate at the
 * next address, or -1) and through read2 / write2 pairs of b32 / b64
 * steps.  Steps built from the same residues, adjacency and succ are the
 * same up to pairing; when they have no b32 / b64 step to pair, they are
 * the same for any klass / rel (the steps cache).  succ[q] = the first r
 * with klass_r = klass_q and rel_r = rel_q + eb (r != q as eb > 0): the
 * first position of each (klass, rel) in a hash, then one look-up per q. */
static void facts_successors(const layout_suggest_scorer *sc, side_state *ss, int n)
{
    const int64_t eb = sc->spec.elem_bytes;
    const layout_access_facts *f = &ss->f;
    short *succ = ss->succ;
    short slot[FACTS_HN];
    for (int h = 0; h < FACTS_HN; h++) slot[h] = -1;
#define KR_HASH(k, v) \
    ((uint32_t)(((uint64_t)(k) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(v) * 0xC2B2AE3D27D4EB4FULL) >> (64 - FACTS_HB)))
    for (int q = 0; q < n; q++) {
        uint32_t h = KR_HASH(f->klass[q], f->rel[q]);
        int dup = 0;
        for (; slot[h] >= 0; h = (h + 1) & (FACTS_HN - 1))
            if (f->klass[slot[h]] == f->klass[q] && f->rel[slot[h]] == f->rel[q]) {
                dup = 1;
                break;
            }
        if (!dup) slot[h] = (short)q;
    }
    for (int q = 0; q < n; q++) {
        const int64_t want = f->rel[q] + eb;
        succ[q] = -1;
        for (uint32_t h = KR_HASH(f->klass[q], want); slot[h] >= 0; h = (h + 1) & (FACTS_HN - 1))
            if (f->klass[slot[h]] == f->klass[q] && f->rel[slot[h]] == want) {
                succ[q] = slot[h];
                break;
            }
    }
#undef KR_HASH
}

/* Side i's address facts (access_plan.h), its element parts ss->XE, ss->GE
 * and the successors ss->succ, in issue order p->order, for pads of P
 * bytes (ss->X, ss->g: the images and pad groups of its bits).  Returns
 * whether every position's pad group equals its class's (then nothing
 * but the residues depends on P, and those only on P mod 16). */
static int side_facts(const layout_suggest_scorer *sc, layout_suggest_work *w, int i, side_state *ss,
                      const layout_access_plan *p, int64_t P, const int64_t *vl, const int64_t *vs)
{
    const int n = p->n_elems;
    unsigned A[16];
    const uint32_t or_thread = facts_thread_residues(sc, i, ss, P, A);
    side_elems(sc, w, i, ss, p, vl, vs);
    facts_residues(sc, i, ss, n, P, A, or_thread);
    facts_classes(sc, w, i, ss, n, P, or_thread);
    facts_successors(sc, ss, n);
    int h0 = 1;
    for (int q = 0; q < n; q++) h0 &= ss->GE[q] == ss->GE[ss->f.klass[q]];
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

/* ---- layout_suggest_score_linear_pad, in steps ---- */

/* What a step says: go on; this side is done for the pass (its plan
 * deferred, or pass 0 of two sides); or the call ends with *st (an error,
 * or a cut: *out the partial cost). */
enum { LIN_ON, LIN_NEXT_SIDE, LIN_END };

/* One call: its inputs, the cost so far and the sides' state, shared by
 * the steps by pointer (the two side states are large). */
typedef struct lin_call {
    const layout_suggest_scorer *sc;
    layout_suggest_work *w;
    const layout_linear *ll;
    int contiguous_dim, pad_shift, b0, b1, lg;
    int64_t pad, eb, P;  /* P: bytes of one pad */
    uint32_t bw;         /* bank width in bytes */
    const int64_t *hl, *hs;
    int two;             /* plans first, then the checker (the file's cut) */
    layout_suggest_cost r;
    side_state sst[2];
    int def_damage;      /* damage and instructions of the deferred plans */
    int64_t def_instrs;
    layout_suggest_cost *out;
} lin_call;

/* The largest offset is at most the OR of the images plus the largest
 * pad term; where that bound could leave the 32-bit address range the
 * address path decides (LAYOUT_ERR_UNSUPPORTED). */
static layout_status lin_check_range(const lin_call *c)
{
    const layout_suggest_spec *spec = &c->sc->spec;
    uint64_t any = 0;
    for (int j = 0; j < c->ll->total_in_bits; j++) any |= c->ll->bases[j];
    const int row_bits = c->contiguous_dim ? c->b0 : c->b1;
    const int64_t groups = row_bits >= c->pad_shift ? (int64_t)1 << (row_bits - c->pad_shift) : 1;
    if (c->pad < 0 || c->pad > ((int64_t)1 << 30) || c->pad_shift < 0 || c->pad_shift > 31) return LAYOUT_ERR_UNSUPPORTED;
    const int64_t hi = (int64_t)any + (groups - 1) * c->pad;
    for (int i = 0; i < spec->n_sides; i++)
        if (hi > ((int64_t)UINT32_MAX - 16 - spec->sides[i].opt.base_bytes) / c->eb) return LAYOUT_ERR_UNSUPPORTED;
    return LAYOUT_OK;
}

/* Pass 1's start: the bound with every side's plan summary, then the
 * plans deferred in pass 0, now needed (from the summary cache's compact
 * form where it still holds, else built). */
static int lin_deferred_plans(lin_call *c, layout_status *st, layout_error *err)
{
    const layout_suggest_scorer *sc = c->sc;
    layout_suggest_work *w = c->w;
    if (bound_cut(sc, w, &c->r, c->def_damage, c->def_instrs, -1, c->out)) {
        *st = layout_ok(err);
        return LIN_END;
    }
    for (int i = 0; i < sc->spec.n_sides; i++) {
        side_state *ss = &c->sst[i];
        if (!ss->deferred) continue;
        const int warps = sc->spec.sides[i].dist->n_warps;
        const layout_access_plan *order_p = &w->steps_cache[i].plan;
        if (ss->cs && ss->cs->fill == ss->cs_fill && ss->cs->cp_n >= 0) {
            /* the plan's compact form in the summary cache: no build */
            if (!ss->facts_done) side_elems(sc, w, i, ss, order_p, ss->vl, ss->vs);
            layout_suggest_sum_counts(&c->r, i, ss->cs, warps);
            ss->p = NULL;
            continue;
        }
        ss->cs = NULL;
        layout_access_plan *pd;
        if (!ss->facts_done) /* known from an earlier pad: its facts now */
            side_facts(sc, w, i, ss, order_p, c->P, ss->vl, ss->vs);
        if ((*st = build_side(sc, w, i, &ss->f, ss->succ, ss->vl, ss->vs, ss->n, &pd, err))) return LIN_END;
        add_counts(&c->r, i, pd, warps);
        ss->p = pd;
    }
    return LIN_ON;
}

/* Per bit of side i's (element, lane, warp) index: its XOR image X
 * (kept per side in w->xcache while the candidate's bases stay) and its
 * pad group g.  The pad term is additive (sum of g) when the nonzero g
 * share no bit, which the distributions' bit-to-bit maps give; else
 * LAYOUT_ERR_UNSUPPORTED. */
static layout_status lin_side_images(const lin_call *c, int i, side_state *ss)
{
    const layout_suggest_scorer *sc = c->sc;
    const int b0 = c->b0, b1 = c->b1;
    const int nb = sc->f2_bits[i][0] + sc->f2_bits[i][1] + sc->f2_bits[i][2];
    struct layout_suggest_xcache *xc = &c->w->xcache[i];
    const size_t nbase = sizeof(uint64_t) * (size_t)(b0 + b1);
    uint64_t g_seen = 0;
    if (xc->sc != (const void *)sc || xc->b0 != b0 || xc->b1 != b1 || b0 + b1 > 32 ||
        memcmp(xc->bases, c->ll->bases, nbase)) {
        xc->sc = NULL;
        for (int j = 0; j < nb; j++) xc->X[j] = apply_tile_index(c->ll, (uint32_t)sc->f2_basis[i][j], b0, b1);
        if (b0 + b1 <= 32) {
            xc->sc = sc;
            xc->b0 = b0;
            xc->b1 = b1;
            memcpy(xc->bases, c->ll->bases, nbase);
        }
    }
    for (int j = 0; j < nb; j++) {
        uint32_t lin = (uint32_t)sc->f2_basis[i][j];
        ss->X[j] = xc->X[j];
        uint32_t row = c->contiguous_dim ? lin >> b1 : lin & ((1u << b1) - 1u);
        ss->g[j] = c->P ? (int64_t)(row >> c->pad_shift) : 0;
        if ((uint64_t)ss->g[j] & g_seen) return LAYOUT_ERR_UNSUPPORTED;
        g_seen |= (uint64_t)ss->g[j];
    }
    return LAYOUT_OK;
}

/* Side i's vector hints vl, vs (its view of hl, hs) and its issue order,
 * which depends on the side and the hints only: ordered again only when
 * the steps cache holds another's.  Returns the plan that holds it. */
static layout_access_plan *lin_side_order(const lin_call *c, int i, int64_t *vl, int64_t *vs)
{
    const layout_suggest_spec *spec = &c->sc->spec;
    const layout_suggest_side *sd = &spec->sides[i];
    for (int k = 0; k < spec->n_dims; k++) {
        int t = sd->has_view ? sd->view[k] : k;
        vl[k] = c->hl[t];
        vs[k] = c->hs[t];
    }
    struct layout_suggest_steps_cache *cache = i < 2 ? &c->w->steps_cache[i] : NULL;
    layout_access_plan *p = cache ? &cache->plan : &c->w->plan;
    const size_t hb = sizeof(int64_t) * LAYOUT_MAX_DIMS;
    int same_order = cache && cache->sc == (const void *)c->sc && !memcmp(cache->hl, vl, hb) && !memcmp(cache->hs, vs, hb);
    if (!same_order) {
        if (cache) {
            cache->sc = c->sc;
            cache->built = 0;
            memcpy(cache->hl, vl, hb);
            memcpy(cache->hs, vs, hb);
        }
        layout_access_table_order(p, sd->dist, sd->direction, spec->elem_bytes, &sd->opt, vl, vs);
    }
    return p;
}

/* Side i's plan waits (pass 1 builds it if the bound lets the candidate
 * through): what builds it kept in *ss, its summary's damage and
 * instructions counted in the bound. */
static void lin_defer(lin_call *c, int i, side_state *ss, const int64_t *vl, const int64_t *vs, int n, int damage,
                      int64_t instrs)
{
    memcpy(ss->vl, vl, sizeof ss->vl);
    memcpy(ss->vs, vs, sizeof ss->vs);
    ss->n = n;
    ss->deferred = 1;
    c->def_damage += damage;
    c->def_instrs += instrs;
    c->w->last_instrs[i] = instrs;
}

/* The bound's short cut: the vector damage and instructions of the plans
 * of earlier facts (w->sumcache, keyed as the steps cache: the hints,
 * residues, adjacency and successors, plus the classes when the plan
 * pairs; fully associative, least recently used out); with them the
 * bound may rule the candidate out before its plan is built.  A hit that
 * does not cut defers the plan; a miss leaves in *slot_sum the slot the
 * plan will fill. */
static int lin_summary(lin_call *c, int i, int next, side_state *ss, const int64_t *vl, const int64_t *vs, int n,
                       struct layout_suggest_rcache *rc, unsigned rho, struct layout_suggest_sum_slot **slot_sum,
                       uint64_t *key_hash, layout_status *st, layout_error *err)
{
    struct layout_suggest_sum_slot *victim;
    const struct layout_suggest_sum_slot *relvar;
    *slot_sum = layout_suggest_sum_find(c->sc, c->w, i, n, vl, vs, &ss->f, ss->succ, key_hash, &victim, &relvar);
    /* relvar: the same steps up to the pairing of b32 / b64 steps (only
     * the distances differ): the same damage, and no fewer instructions
     * than with every such step paired */
    if (!*slot_sum && relvar &&
        bound_cut(c->sc, c->w, &c->r, c->def_damage + relvar->damage, c->def_instrs + relvar->instrs_min, next, c->out)) {
        *st = layout_ok(err);
        return LIN_END;
    }
    if (!*slot_sum) {
        *slot_sum = victim; /* filled once the plan is built */
        return LIN_ON;
    }
    if (rc->h0 == 1) /* a pad residue's summary (w->rcache) */
        layout_suggest_rcache_put(c->w, i, rho, (*slot_sum)->damage, (*slot_sum)->instrs, *slot_sum);
    if (bound_cut(c->sc, c->w, &c->r, c->def_damage + (*slot_sum)->damage, c->def_instrs + (*slot_sum)->instrs, next,
                  c->out)) {
        *st = layout_ok(err);
        return LIN_END;
    }
    ss->cs = *slot_sum;
    ss->cs_fill = (*slot_sum)->fill;
    lin_defer(c, i, ss, vl, vs, n, (*slot_sum)->damage, (*slot_sum)->instrs);
    return LIN_NEXT_SIDE;
}

/* Side i's plan: its images, issue order and facts (kept per pad residue
 * where they do not depend on the pad otherwise: w->rcache, two sides
 * only), deferred where a summary says what it gives, else built and its
 * counts added.  next: the side pass 0 plans next (its fewest
 * instructions count in the bound), or -1. */
static int lin_side_plan(lin_call *c, int i, int next, side_state *ss, layout_status *st, layout_error *err)
{
    const layout_suggest_scorer *sc = c->sc;
    layout_suggest_work *w = c->w;
    const int nb = sc->f2_bits[i][0] + sc->f2_bits[i][1] + sc->f2_bits[i][2];
    const int warps = sc->spec.sides[i].dist->n_warps;
    int64_t vl[LAYOUT_MAX_DIMS] = {0}, vs[LAYOUT_MAX_DIMS] = {0};
    if ((*st = lin_side_images(c, i, ss))) return LIN_END;
    layout_access_plan *p = lin_side_order(c, i, vl, vs);
    const int n = p->n_elems;
    struct layout_suggest_rcache *rc = c->two ? layout_suggest_rcache_for(sc, w, i, nb, n, ss->X, ss->g, vl, vs) : NULL;
    const unsigned rho = (unsigned)((uint64_t)c->P & 15u);
    ss->facts_done = 0;
    ss->cs = NULL;
    if (c->two && rc->h0 == 1 && (rc->known >> rho & 1u)) {
        /* facts as those of a pad scored before: its plan's damage and
         * instructions; the facts only if the plan is needed */
        if (bound_cut(sc, w, &c->r, c->def_damage + rc->damage[rho], c->def_instrs + rc->instrs[rho], next, c->out)) {
            *st = layout_ok(err);
            return LIN_END;
        }
        ss->cs = layout_suggest_rcache_slot(w, i, rho, &ss->cs_fill);
        lin_defer(c, i, ss, vl, vs, n, rc->damage[rho], rc->instrs[rho]);
        return LIN_NEXT_SIDE;
    }
    const int h0 = side_facts(sc, w, i, ss, p, c->P, vl, vs);
    ss->facts_done = 1;
    if (c->two && rc->h0 < 0) rc->h0 = h0;
    struct layout_suggest_sum_slot *slot_sum = NULL;
    uint64_t key_hash = 0;
    if (c->two && n <= LAYOUT_SUGGEST_SUM_N) {
        int k = lin_summary(c, i, next, ss, vl, vs, n, rc, rho, &slot_sum, &key_hash, st, err);
        if (k != LIN_ON) return k;
    }
    if ((*st = build_side(sc, w, i, &ss->f, ss->succ, vl, vs, n, &p, err))) return LIN_END;
    add_counts(&c->r, i, p, warps);
    ss->p = p;
    if (slot_sum) /* keep this plan's damage and instructions for later facts like these */
        layout_suggest_sum_fill(w, i, slot_sum, key_hash, n, vl, vs, &ss->f, ss->succ, p, warps);
    if (c->two && rc->h0 == 1) /* a pad residue's summary (w->rcache) */
        layout_suggest_rcache_put(w, i, rho, p->n_misaligned + p->n_noncontiguous + p->n_vectors_split,
                                  (int64_t)p->n_instrs * warps, slot_sum);
    return LIN_ON;
}

/* Instructions costed by the checker lately (lin_lanes.recent). */
enum { LIN_RECENT = 4 };

/* Side i's lanes and warps as its instructions' costs see them, and the
 * caches of costs that hold for every instruction of one shape. */
typedef struct lin_lanes {
    uint32_t lane_x[LAYOUT_MAX_LANES]; /* each lane's XOR part (bytes) */
    int64_t lane_g[LAYOUT_MAX_LANES];  /* and its pad part */
    uint32_t or_lane_b;                /* the OR of the lane images (bytes) */
    int lanes_padded;                  /* some lane has a pad part */
    int width_cost[17];                /* an XOR-translate-shaped instruction of W bytes: its cost, or -1 */
    struct layout_suggest_tcache *tcache;
    int by_translate;                  /* the translate cache applies (bank width, lane bits) */
    uint32_t recent[LIN_RECENT][LAYOUT_MAX_LANES];
    int recent_w[LIN_RECENT], recent_c[LIN_RECENT], n_recent, next_recent;
    layout_instr ins;                  /* the instruction costed by the checker */
} lin_lanes;

/* Side i's lane and warp parts of the addresses (the warps' in
 * w->warp_bytes, w->warp_pad) and its caches made ready. */
static void lin_lane_parts(const lin_call *c, int i, const side_state *ss, lin_lanes *L)
{
    const layout_suggest_scorer *sc = c->sc;
    const layout_suggest_side *sd = &sc->spec.sides[i];
    const int ebits = sc->f2_bits[i][0], lbits = sc->f2_bits[i][1], lg = c->lg;
    const int lanes = sd->dist->wave_size, warps = sd->dist->n_warps;
    const uint32_t *lX = ss->X + ebits, *wX = ss->X + ebits + lbits;
    const int64_t *lg_ = ss->g + ebits, *wg = ss->g + ebits + lbits, P = c->P;
    uint32_t *warp_x = c->w->warp_bytes;
    int64_t *warp_g = c->w->warp_pad;
    L->lanes_padded = 0;
    L->lane_x[0] = 0, L->lane_g[0] = 0;
    for (int l = 1; l < lanes; l++) {
        int j = __builtin_ctz((unsigned)l);
        L->lane_x[l] = L->lane_x[l & (l - 1)] ^ (lX[j] << lg);
        L->lane_g[l] = L->lane_g[l & (l - 1)] + P * lg_[j];
        L->lanes_padded |= L->lane_g[l] != 0;
    }
    warp_x[0] = 0, warp_g[0] = 0;
    for (int x = 1; x < warps; x++) {
        int j = __builtin_ctz((unsigned)x);
        warp_x[x] = warp_x[x & (x - 1)] ^ (wX[j] << lg);
        warp_g[x] = warp_g[x & (x - 1)] + P * wg[j];
    }
    L->or_lane_b = 0;
    for (int j = 0; j < lbits; j++) L->or_lane_b |= lX[j] << lg;
    L->ins.n_lanes = lanes;
    L->ins.active_mask = lanes == 64 ? ~(uint64_t)0 : (((uint64_t)1 << lanes) - 1);
    L->ins.direction = sd->direction;
    for (int k = 0; k < 17; k++) L->width_cost[k] = -1;
    L->n_recent = L->next_recent = 0;
    /* Lanes (a0 ^ lane_x) + lane_g + add are (a0_in ^ lane_x) + lane_g
     * translated by t = a0_out + add, a0_in the bits of a0 that some
     * lane's XOR part has (the rest adds: no shared bit).  A translate by
     * t costs what one by t mod bw costs (banks rotate, words stay
     * distinct), so the cost is a function of (width, a0_in, t mod bw)
     * while lane_x and lane_g stay the same: a direct-mapped cache in *w
     * (bw up to 16), kept across candidates whose lane images agree (most
     * XOR + pad sets of one XOR set) */
    L->tcache = &c->w->tcache[i];
    L->by_translate = c->bw <= 16 && lbits <= 8;
    if (L->by_translate) {
        struct layout_suggest_tcache *tcache = L->tcache;
        int same = tcache->sc == (const void *)sc && tcache->lbits == lbits;
        for (int j = 0; j < lbits && same; j++) same = tcache->lane_x[j] == lX[j] << lg && tcache->lane_g[j] == P * lg_[j];
        if (!same) {
            tcache->sc = sc;
            tcache->lbits = lbits;
            for (int j = 0; j < lbits; j++) tcache->lane_x[j] = lX[j] << lg, tcache->lane_g[j] = P * lg_[j];
            for (int k = 0; k < 64; k++) tcache->slot[k].key = -1;
        }
    }
}

/* The extra cycles *c_out of one warp's instruction of W bytes: lanes
 * ((a0 ^ lane_x) + bo) + lane_g + shift.  With no lane pad part and shift
 * a multiple of the bank width (a bank rotation) they cost what (a0 ^ bo)
 * ^ lane_x costs when bo carries into nothing; every such instruction of
 * one width is an XOR translate of every other (file comment): costed
 * once.  Others from the translate cache or the recent instructions when
 * they hold it, else from the checker. */
static layout_status lin_warp_extra(const lin_call *c, lin_lanes *L, int lanes, uint32_t W, int pow2, uint32_t a0,
                                    uint32_t bo, int64_t shift, int *c_out, layout_error *err)
{
    const uint32_t bw = c->bw, or_lane_b = L->or_lane_b;
    struct layout_suggest_tcache *tcache = L->tcache;
    int shaped = pow2 && !L->lanes_padded && !((uint64_t)shift & (bw - 1u)) && !((a0 | or_lane_b) & bo) &&
                 !(((a0 ^ bo) | or_lane_b) & (W - 1));
    if (shaped && L->width_cost[W] >= 0) {
        *c_out = L->width_cost[W];
        return LAYOUT_OK;
    }
    const uint32_t add = (uint32_t)((uint64_t)shift + bo);
    const uint32_t a0_in = a0 & or_lane_b;
    const int tkey = (int)(W * 16u + (((a0 & ~or_lane_b) + add) & (bw - 1u)));
    const uint32_t th = (a0_in * 0x9E3779B1u ^ (uint32_t)tkey * 0x85EBCA77u) >> 26; /* 64 slots */
    int *tc = NULL;
    if (L->by_translate && W <= 16) {
        if (tcache->slot[th].key == tkey && tcache->slot[th].a0_in == a0_in) {
            *c_out = tcache->slot[th].cost;
            return LAYOUT_OK;
        }
        tcache->slot[th].key = -1;
        tcache->slot[th].a0_in = a0_in;
        tc = &tcache->slot[th].cost;
    }
    for (int l = 0; l < lanes; l++) L->ins.addr_bytes[l] = (a0 ^ L->lane_x[l]) + (uint32_t)L->lane_g[l] + add;
    int c_extra = -1;
    if (!shaped && !tc)
        for (int k = 0; k < L->n_recent && c_extra < 0; k++)
            if (L->recent_w[k] == (int)W && lanes_translate_bw(L->ins.addr_bytes, L->recent[k], lanes, bw))
                c_extra = L->recent_c[k];
    if (c_extra < 0) {
        layout_cost cost;
        layout_status s;
        if ((s = layout_checker_cost(&c->sc->checker, &L->ins, &cost, err))) return s;
        c_extra = cost.extra_cycles;
        if (shaped) {
            L->width_cost[W] = c_extra;
        } else if (!tc) {
            memcpy(L->recent[L->next_recent], L->ins.addr_bytes, sizeof(uint32_t) * (size_t)lanes);
            L->recent_w[L->next_recent] = (int)W;
            L->recent_c[L->next_recent] = c_extra;
            L->next_recent = (L->next_recent + 1) % LIN_RECENT;
            if (L->n_recent < LIN_RECENT) L->n_recent++;
        }
    }
    if (tc) *tc = c_extra, tcache->slot[th].key = tkey;
    *c_out = c_extra;
    return LAYOUT_OK;
}

/* Side i's extra cycles: every step of its plan (or of the plan's compact
 * form), every warp; with two sides the bound after each step (extra
 * cycles only grow). */
static int lin_side_extra(lin_call *c, int i, const side_state *ss, lin_lanes *L, layout_status *st, layout_error *err)
{
    const layout_suggest_side *sd = &c->sc->spec.sides[i];
    const int lanes = sd->dist->wave_size, warps = sd->dist->n_warps, lg = c->lg;
    const int64_t base = sd->opt.base_bytes;
    const layout_access_plan *p = ss->p;
    const struct layout_suggest_sum_slot *cs = ss->p ? NULL : ss->cs; /* or its compact form */
    const int n_steps = cs ? cs->cp_n : p->n_steps;
    const uint32_t *warp_x = c->w->warp_bytes;
    const int64_t *warp_g = c->w->warp_pad;
    int64_t extra = 0, extra_checked = 0;
    for (int k = 0; k < n_steps; k++) {
        const int first = cs ? cs->cp_first[k] : p->steps[k].seq_first;
        const uint32_t W = cs ? cs->cp_width[k] : (uint32_t)p->steps[k].width_bytes;
        const uint32_t bo = cs ? (uint32_t)(int32_t)cs->cp_off[k] : (uint32_t)p->steps[k].byte_offset;
        const uint32_t eq = ss->XE[first] << lg;
        const int64_t gq = c->P * ss->GE[first];
        const int pow2 = W <= 16 && !(W & (W - 1));
        L->ins.width_bytes = (int)W;
        for (int x = 0; x < warps; x++) {
            int c_extra;
            /* added to every lane, with bo */
            if ((*st = lin_warp_extra(c, L, lanes, W, pow2, warp_x[x] ^ eq, bo, base + warp_g[x] + gq, &c_extra, err)))
                return LIN_END;
            extra += c_extra;
        }
        if (c->two && extra > extra_checked) {
            layout_suggest_cost lb = c->r;
            lb.extra_cycles += extra;
            extra_checked = extra;
            if (c->w->cut_fn(c->w->cut_ctx, &lb)) {
                c->w->extra_first = i;
                c->w->cut_hit = 1;
                *c->out = lb;
                *st = layout_ok(err);
                return LIN_END;
            }
        }
    }
    c->r.side_extra[i] = extra;
    c->r.extra_cycles += extra;
    return LIN_ON;
}

/* Side i in pass `pass`: its plan (pass 0, or the only pass), then with
 * two sides the bound (pass 0) or its extra cycles (pass 1). */
static int lin_side(lin_call *c, int pass, int i, int next, layout_status *st, layout_error *err)
{
    side_state *ss = &c->sst[c->two ? i : 0];
    if (!c->two || pass == 0) {
        int k = lin_side_plan(c, i, next, ss, st, err);
        if (k != LIN_ON) return k;
    }
    if (c->two && pass == 0) {
        c->w->last_instrs[i] = (int64_t)ss->p->n_instrs * c->sc->spec.sides[i].dist->n_warps;
        if (next >= 0 && bound_cut(c->sc, c->w, &c->r, c->def_damage, c->def_instrs, next, c->out)) {
            *st = layout_ok(err);
            return LIN_END;
        }
        return LIN_NEXT_SIDE;
    }
    lin_lanes L;
    lin_lane_parts(c, i, ss, &L);
    return lin_side_extra(c, i, ss, &L, st, err);
}

layout_status layout_suggest_score_linear_pad(const layout_suggest_scorer *sc, layout_suggest_work *w,
                                              const layout_linear *ll, int contiguous_dim, int64_t pad, int pad_shift,
                                              int64_t space, const int64_t *hl, const int64_t *hs, int index_ops,
                                              layout_suggest_cost *out, layout_error *err)
{
    const layout_suggest_spec *spec = &sc->spec;
    lin_call c;
    layout_status st;
    c.sc = sc;
    c.w = w;
    c.ll = ll;
    c.contiguous_dim = contiguous_dim;
    c.pad = pad;
    c.pad_shift = pad_shift;
    c.b0 = ll->in_bits[0];
    c.b1 = ll->in_bits[1];
    c.lg = layout_log2_ceil_u64((uint64_t)spec->elem_bytes);
    c.eb = spec->elem_bytes;
    c.P = pad * c.eb;
    c.bw = (uint32_t)spec->arch->bank_width_bytes;
    c.hl = hl;
    c.hs = hs;
    c.out = out;
    memset(&c.r, 0, sizeof c.r);
    c.r.n_sides = spec->n_sides;
    c.r.lds_bytes = space * c.eb;
    c.r.index_ops = index_ops;
    if ((st = lin_check_range(&c))) return st;
    /* With a cut (the search's bound, w->cut_fn) and at most two sides
     * (whose plans have caches of their own), every side's plan comes
     * first: the vector damage and the instructions are then exact, and a
     * candidate the bound rules out skips the checker (pass 1). */
    c.two = spec->n_sides <= 2 && w->cut_fn;
    w->cut_hit = 0;
    c.def_damage = 0;
    c.def_instrs = 0;
    c.sst[0].deferred = c.sst[1].deferred = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && !c.two) break;
        if (pass == 1 && lin_deferred_plans(&c, &st, err) == LIN_END) return st;
        /* pass 0 plans first the side that had more instructions last
         * time: with the other side's least (file comment of search.c)
         * the bound can cut before the second plan */
        const int more1 = c.two && w->last_instrs[1] > w->last_instrs[0];
        const int order[2] = {more1, !more1};
        for (int oi = 0; oi < spec->n_sides; oi++) {
            /* pass 1 costs first the side whose extra cycles cut the last
             * candidate cut by them */
            const int i = c.two && pass == 0 ? order[oi] : c.two && spec->n_sides == 2 ? oi ^ w->extra_first : oi;
            const int next = c.two && oi + 1 < spec->n_sides ? order[oi + 1] : -1;
            if (lin_side(&c, pass, i, next, &st, err) == LIN_END) return st;
        }
    }
    *out = c.r;
    return layout_ok(err);
}

layout_status layout_suggest_score_linear(const layout_suggest_scorer *sc, layout_suggest_work *w,
                                          const layout_linear *ll, const int64_t *hl, const int64_t *hs,
                                          int index_ops, layout_suggest_cost *out, layout_error *err)
{
    return layout_suggest_score_linear_pad(sc, w, ll, 1, 0, 0, (int64_t)1 << ll->total_out_bits, hl, hs, index_ops,
                                           out, err);
}
