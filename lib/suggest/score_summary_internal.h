/* The linear scorers' plan summaries (score_summary.c): private to
 * lib/suggest.  Not installed. */
#ifndef LAYOUT_SCORE_SUMMARY_INTERNAL_H
#define LAYOUT_SCORE_SUMMARY_INTERNAL_H

#include "suggest_internal.h"
#include "../tile/access_plan.h"

/* Side i's pad residue summaries (w->rcache[i]) for the bit images X and
 * pad groups g of its nb (element, lane, warp) bits, n positions and
 * vector hints vl, vs: emptied (h0 unknown, no residue known) unless they
 * were kept for exactly these. */
struct layout_suggest_rcache *layout_suggest_rcache_for(const layout_suggest_scorer *sc, layout_suggest_work *w, int i,
                                                        int nb, int n, const uint32_t *X, const int64_t *g,
                                                        const int64_t *vl, const int64_t *vs);

/* Record pad residue rho's plan summary in w->rcache[i]: its vector
 * damage and instructions per tile, and the summary cache slot that
 * holds the plan's compact form (NULL: none). */
void layout_suggest_rcache_put(layout_suggest_work *w, int i, unsigned rho, int damage, int64_t instrs,
                               const struct layout_suggest_sum_slot *slot);

/* The summary cache slot that held pad residue rho's plan when it was
 * recorded (NULL: none); *fill its fill then (a slot refilled since is
 * stale: cs->fill != *fill). */
const struct layout_suggest_sum_slot *layout_suggest_rcache_slot(const layout_suggest_work *w, int i, unsigned rho,
                                                                 uint64_t *fill);

/* Look up side i's plan summary for facts *f, successors succ (n <=
 * LAYOUT_SUGGEST_SUM_N positions) and vector hints vl, vs in w->sumcache[i]
 * (emptied first if it served another scorer).  Returns the slot whose
 * plan these facts give (marked as used), or NULL; then *relvar is a slot
 * whose plan differs from it at most in the pairing of b32 / b64 steps
 * (or NULL) and *victim the least recently used slot.  *hash: the key's
 * hash, for layout_suggest_sum_fill(). */
struct layout_suggest_sum_slot *layout_suggest_sum_find(const layout_suggest_scorer *sc, layout_suggest_work *w, int i,
                                                        int n, const int64_t *vl, const int64_t *vs,
                                                        const layout_access_facts *f, const short *succ, uint64_t *hash,
                                                        struct layout_suggest_sum_slot **victim,
                                                        const struct layout_suggest_sum_slot **relvar);

/* Fill slot *slot of w->sumcache[i] with plan *p (of `warps` warps), built
 * from the facts layout_suggest_sum_find() was given (and its *hash):
 * damage, instructions, the fewest instructions any pairing gives, and
 * the plan in compact form where it fits (else slot->cp_n = -1). */
void layout_suggest_sum_fill(layout_suggest_work *w, int i, struct layout_suggest_sum_slot *slot, uint64_t hash, int n,
                             const int64_t *vl, const int64_t *vs, const layout_access_facts *f, const short *succ,
                             const layout_access_plan *p, int warps);

/* Add side i's counts from the compact plan *cs (cs->cp_n >= 0) of
 * `warps` warps to *r, as the plan itself would add them. */
void layout_suggest_sum_counts(layout_suggest_cost *r, int i, const struct layout_suggest_sum_slot *cs, int warps);

#endif /* LAYOUT_SCORE_SUMMARY_INTERNAL_H */
