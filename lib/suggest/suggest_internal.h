/* Private helpers of the layout search (lib/suggest).  Not installed. */
#ifndef LAYOUT_SUGGEST_INTERNAL_H
#define LAYOUT_SUGGEST_INTERNAL_H

#include "../internal.h"
#include "layout/suggest.h"

/* Stack workspace of one fast score (about 200 KiB): kept out of the
 * scorer so that a const scorer can be shared by threads. */
typedef struct layout_suggest_work {
    int64_t tile_off[LAYOUT_SUGGEST_MAX_TILE];       /* the candidate's offset of every tile element */
    uint32_t addr[LAYOUT_SUGGEST_MAX_SIDE_ELEMS];    /* one side's byte addresses, [position][thread] */
    /* per side: the tile index table in the issue order of the last vector
     * choice seen (most candidates of a family share it) */
    int cached_vy[LAYOUT_SUGGEST_MAX_SIDES], cached_ve[LAYOUT_SUGGEST_MAX_SIDES];
    int32_t lin_pm[LAYOUT_SUGGEST_MAX_SIDES][LAYOUT_SUGGEST_MAX_SIDE_ELEMS];
    layout_access_plan plan;
    layout_plan dplan;
} layout_suggest_work;

/* Mark the order cache of *w empty (before first use). */
void layout_suggest_work_init(layout_suggest_work *w);

/* layout_suggest_score() with a caller-provided workspace (the search
 * keeps one per thread). */
layout_status layout_suggest_score_work(const layout_suggest_scorer *sc, const layout_descriptor *desc,
                                        layout_suggest_work *w, layout_suggest_cost *out, layout_error *err);

#endif /* LAYOUT_SUGGEST_INTERNAL_H */
