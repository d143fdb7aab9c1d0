/* The linear scorers' plan summaries (score_linear.c): why they exist.
 *
 * With the search's bound, the linear scorers need a side's vector damage
 * and instructions before its extra cycles, and most candidates are ruled
 * out on those two numbers alone.  Building the side's plan (the compiler
 * model's steps) is then most of a candidate's cost, yet the plan depends
 * only on the address facts (access_plan.h), which recur: many XOR + pad
 * sets give the same facts.  Two caches in the worker's
 * layout_suggest_work keep what a plan gave, per side (0 and 1):
 *  - the summary cache (sumcache): fully associative, least recently used
 *    out, keyed by the facts that shape the steps (vector hints, residues,
 *    adjacency, successors, and the rigid classes when the plan pairs
 *    b32 / b64 steps); each slot keeps the plan's damage and instructions,
 *    the fewest instructions any pairing of its steps gives (a bound for
 *    facts that differ only in the pairing distances), and the plan in
 *    compact form (what the checker pass reads), so that a candidate the
 *    bound lets through needs no build either;
 *  - the pad residue summaries (rcache): for one set of bit images, pad
 *    groups and hints, while every position's pad group is its class's,
 *    the facts depend on the pad P only through P mod 16: per residue, the
 *    damage and instructions and the summary slot of its plan, found
 *    without computing the facts at all.
 * Both only skip work: every number they give is the one the plan gives
 * (tests/test_suggest_cut.c, tests/test_suggest.c). */
#include "score_summary_internal.h"

#include <string.h>

struct layout_suggest_rcache *layout_suggest_rcache_for(const layout_suggest_scorer *sc, layout_suggest_work *w, int i,
                                                        int nb, int n, const uint32_t *X, const int64_t *g,
                                                        const int64_t *vl, const int64_t *vs)
{
    struct layout_suggest_rcache *rc = &w->rcache[i];
    if (!(rc->sc == (const void *)sc && rc->nb == nb && rc->n == n && !memcmp(rc->X, X, sizeof X[0] * (size_t)nb) &&
          !memcmp(rc->g, g, sizeof g[0] * (size_t)nb) && !memcmp(rc->hl, vl, sizeof rc->hl) &&
          !memcmp(rc->hs, vs, sizeof rc->hs))) {
        rc->sc = sc;
        rc->nb = nb;
        rc->n = n;
        memcpy(rc->X, X, sizeof X[0] * (size_t)nb);
        memcpy(rc->g, g, sizeof g[0] * (size_t)nb);
        memcpy(rc->hl, vl, sizeof rc->hl);
        memcpy(rc->hs, vs, sizeof rc->hs);
        rc->h0 = -1;
        rc->known = 0;
    }
    return rc;
}

void layout_suggest_rcache_put(layout_suggest_work *w, int i, unsigned rho, int damage, int64_t instrs,
                               const struct layout_suggest_sum_slot *slot)
{
    struct layout_suggest_rcache *rc = &w->rcache[i];
    rc->damage[rho] = damage;
    rc->instrs[rho] = instrs;
    rc->slot[rho] = slot ? (short)(slot - w->sumcache[i].slot) : -1;
    rc->stamp[rho] = slot ? slot->fill : 0;
    rc->known |= 1u << rho;
}

const struct layout_suggest_sum_slot *layout_suggest_rcache_slot(const layout_suggest_work *w, int i, unsigned rho,
                                                                 uint64_t *fill)
{
    const struct layout_suggest_rcache *rc = &w->rcache[i];
    *fill = rc->stamp[rho];
    return rc->slot[rho] >= 0 ? &w->sumcache[i].slot[rc->slot[rho]] : NULL;
}

struct layout_suggest_sum_slot *layout_suggest_sum_find(const layout_suggest_scorer *sc, layout_suggest_work *w, int i,
                                                        int n, const int64_t *vl, const int64_t *vs,
                                                        const layout_access_facts *f, const short *succ, uint64_t *hash,
                                                        struct layout_suggest_sum_slot **victim,
                                                        const struct layout_suggest_sum_slot **relvar)
{
    uint64_t h = 0xcbf29ce484222325ULL;
#define SUM_MIX(v) (h = (h ^ (uint64_t)(v)) * 0x100000001b3ULL)
    for (int k = 0; k < 2; k++) SUM_MIX(vl[k]), SUM_MIX(vs[k]);
    SUM_MIX(n);
    for (int q = 0; q < n; q++)
        SUM_MIX(f->residues[q] | (unsigned)f->next_adjacent[q] << 16 | (unsigned)f->next_below[q] << 17 |
                (unsigned)(uint16_t)succ[q] << 18);
#undef SUM_MIX
    *hash = h;
    struct layout_suggest_sumcache *sm = &w->sumcache[i];
    if (sm->sc != (const void *)sc) {
        for (int k = 0; k < LAYOUT_SUGGEST_SUM_SLOTS; k++) sm->slot[k].n = -1, sm->slot[k].used = 0;
        sm->sc = sc;
        sm->clock = 0;
    }
    struct layout_suggest_sum_slot *hit = NULL, *lru = &sm->slot[0];
    const struct layout_suggest_sum_slot *rv = NULL;
    for (int k = 0; k < LAYOUT_SUGGEST_SUM_SLOTS && !hit; k++) {
        struct layout_suggest_sum_slot *sl = &sm->slot[k];
        if (sl->used < lru->used) lru = sl;
        if (sl->n != n || sl->hash != h || memcmp(sl->hl, vl, sizeof sl->hl) || memcmp(sl->hs, vs, sizeof sl->hs))
            continue;
        int same = 1, same_rel = 1;
        for (int q = 0; q < n && same; q++) {
            same = sl->residues[q] == f->residues[q] && sl->adj[q] == f->next_adjacent[q] &&
                   sl->below[q] == f->next_below[q] && sl->succ[q] == succ[q] &&
                   (!sl->pairable || sl->klass[q] == f->klass[q]);
            same_rel &= sl->rel[q] == f->rel[q];
        }
        if (same && (same_rel || !sl->pairable)) hit = sl;
        else if (same && !rv) rv = sl;
    }
    if (hit) hit->used = ++sm->clock;
    *victim = lru;
    *relvar = rv;
    return hit;
}

void layout_suggest_sum_fill(layout_suggest_work *w, int i, struct layout_suggest_sum_slot *slot, uint64_t hash, int n,
                             const int64_t *vl, const int64_t *vs, const layout_access_facts *f, const short *succ,
                             const layout_access_plan *p, int warps)
{
    int pairable = 0, paired = 0, n32 = 0, n64 = 0;
    for (int st = 0; st < p->n_steps; st++) {
        /* the steps pair_steps() could pair: b32 / b64, and the halves of its pairs */
        const layout_ds_op op = p->steps[st].op;
        const int half = p->steps[st].pair_step >= 0;
        paired += half;
        n32 += op == LAYOUT_DS_B32 || (half && (op == LAYOUT_DS_PAIR_B32 || op == LAYOUT_DS_PAIR_ST64_B32));
        n64 += op == LAYOUT_DS_B64 || (half && (op == LAYOUT_DS_PAIR_B64 || op == LAYOUT_DS_PAIR_ST64_B64));
    }
    pairable = paired || n32 || n64;
    /* unpaired: n_instrs + paired / 2; at best n32 / 2 + n64 / 2 pairs */
    slot->instrs_min = ((int64_t)p->n_instrs + paired / 2 - n32 / 2 - n64 / 2) * warps;
    slot->n = n;
    slot->hash = hash;
    slot->used = ++w->sumcache[i].clock;
    memcpy(slot->hl, vl, sizeof slot->hl);
    memcpy(slot->hs, vs, sizeof slot->hs);
    slot->pairable = pairable;
    for (int q = 0; q < n; q++) {
        slot->residues[q] = (uint16_t)f->residues[q];
        slot->adj[q] = f->next_adjacent[q];
        slot->below[q] = f->next_below[q];
        slot->succ[q] = succ[q];
        slot->klass[q] = f->klass[q];
        slot->rel[q] = f->rel[q];
    }
    slot->damage = p->n_misaligned + p->n_noncontiguous + p->n_vectors_split;
    slot->instrs = (int64_t)p->n_instrs * warps;
    slot->fill = slot->used;
    /* the plan, compact, where it fits */
    int fits = p->n_steps <= LAYOUT_SUGGEST_SUM_N && p->n_instrs <= 255 && p->n_misaligned <= 255 &&
               p->n_noncontiguous <= 255 && p->n_vectors_split <= 255;
    for (int st = 0; st < p->n_steps && fits; st++)
        fits = p->steps[st].width_bytes <= 255 && p->steps[st].seq_first >= 0 && p->steps[st].seq_first < 256 &&
               p->steps[st].byte_offset >= -32768 && p->steps[st].byte_offset <= 32767;
    slot->cp_n = -1;
    if (fits) {
        slot->cp_n = (short)p->n_steps;
        slot->cp_instrs = (short)p->n_instrs;
        slot->cp_damage[0] = (short)p->n_misaligned;
        slot->cp_damage[1] = (short)p->n_noncontiguous;
        slot->cp_damage[2] = (short)p->n_vectors_split;
        for (int k = 0; k < LAYOUT_DS_OP_COUNT; k++) slot->cp_ops[k] = (unsigned char)p->op_count[k];
        for (int st = 0; st < p->n_steps; st++) {
            slot->cp_first[st] = (unsigned char)p->steps[st].seq_first;
            slot->cp_width[st] = (unsigned char)p->steps[st].width_bytes;
            slot->cp_off[st] = (short)p->steps[st].byte_offset;
        }
    }
}

void layout_suggest_sum_counts(layout_suggest_cost *r, int i, const struct layout_suggest_sum_slot *cs, int warps)
{
    r->side_steps[i] = cs->cp_n;
    for (int k = 0; k < LAYOUT_DS_OP_COUNT; k++) r->side_op_count[i][k] = cs->cp_ops[k];
    r->side_misaligned[i] = cs->cp_damage[0];
    r->side_noncontiguous[i] = cs->cp_damage[1];
    r->side_split[i] = cs->cp_damage[2];
    r->vector_damage += cs->cp_damage[0] + cs->cp_damage[1] + cs->cp_damage[2];
    r->instrs += (int64_t)cs->cp_instrs * warps;
}
