/* The scorer of layout_triton_kernel_suggest (score_internal.h): one
 * allocation's modelled ops costed under a candidate shared attribute,
 * exhaustively (each op lowered from the text) or with the register side
 * of each op and the candidate's shared layout each read once. */
#include "../core/internal.h"
#include "layout/triton.h"
#include "layout/triton_kernel.h"
#include "rules_internal.h"
#include "score_internal.h"

#include <string.h>

int layout_tk_op_uses_tr(const layout_triton_kernel_op *r)
{
    int j;
    for (j = 0; j < r->n_counts; j++)
        if (strstr(r->counts[j].mnemonic, "_tr_")) return 1;
    return 0;
}

void layout_tk_scorer_init(layout_tk_scorer *s, const layout_triton_kernel *k, int exhaustive)
{
    s->k = k;
    s->a = NULL;
    s->exhaustive = exhaustive;
    s->n_prep = 0;
    s->sh_mem = NULL;
    s->extra = 0;
    s->cut = 0;
    s->best = INT64_MAX;
    /* the exhaustive path (and lower_op) make one per op; a failure here
     * leaves finish to fail the same way */
    s->have_ck = !exhaustive && layout_checker_init(&s->ck, &k->arch, LAYOUT_IMPL_AUTO, NULL) == LAYOUT_OK;
}

void layout_tk_scorer_alloc(layout_tk_scorer *s, const layout_triton_kernel_alloc *a)
{
    int i;
    s->a = a;
    s->n_prep = 0;
    s->best = INT64_MAX;
    if (s->exhaustive) return;
    for (i = 0; i < a->n_ops && i < LAYOUT_TK_SCORE_PREP; i++) {
        int o = a->ops[i];
        s->prep[i].generic = 0;
        if (s->k->ops[o].modelled &&
            layout_tk_op_prepare(s->k, s->k->ops[o].op, &s->prep[i], &s->head[i], NULL) != LAYOUT_OK)
            s->prep[i].generic = 0;
        s->n_prep = i + 1;
    }
}

/* Lower op number i of the allocation under attr into s->rep (ceiling:
 * layout_tk_lower_ldst_bounded's). */
static layout_status lower(layout_tk_scorer *s, int i, const char *attr, size_t len, int64_t ceiling)
{
    /* ops past the LAYOUT_TK_SCORE_PREP prepared ones go the exhaustive way
     * (no pointer into prep[] is formed for them) */
    if (s->exhaustive || i >= s->n_prep || !s->prep[i].generic)
        return layout_triton_kernel_op_cost(s->k, s->a->ops[i], attr, len, &s->rep, NULL);
    const layout_tk_op_prep *p = &s->prep[i];
    if (!s->sh_mem || !layout_tk_shared_fits(s->sh_mem, p->mem)) {
        layout_tk_shared_prepare(s->k->module, p->mem, attr, len, &s->attr, &s->sh);
        s->sh_mem = p->mem;
    }
    s->sh.warp0_only = 1; /* the score is warp 0's: no CTA-only pass */
    s->rep = s->head[i];
    return layout_tk_op_finish(s->k, s->have_ck ? &s->ck : NULL, p, &s->sh, ceiling, &s->rep, NULL, NULL);
}

int layout_tk_score(void *ctx, const char *attr, size_t len, double *cost)
{
    layout_tk_scorer *s = (layout_tk_scorer *)ctx;
    const layout_triton_kernel_alloc *a = s->a;
    int64_t total = 0, extra = 0, tile[2];
    size_t where = 0;
    int i;
    tile[0] = a->shape[a->rank - 2];
    tile[1] = a->shape[a->rank - 1];
    if (layout_triton_from_text(attr, &s->attr, &where, NULL) != LAYOUT_OK ||
        layout_tk_rule_check(&s->attr, a->elem_bits, tile, NULL, NULL, 0) != LAYOUT_TK_RULE_NONE)
        return 1;
    s->sh_mem = NULL;
    for (i = 0; i < a->n_ops; i++) {
        if (!s->k->ops[a->ops[i]].modelled) continue;
        /* with cut, an op stops costing once the sum passes the best so far */
        int64_t ceiling = s->cut && !s->exhaustive && s->best < INT64_MAX ? s->best - total : INT64_MAX;
        if (lower(s, i, attr, len, ceiling) != LAYOUT_OK || !s->rep.modelled || layout_tk_op_uses_tr(&s->rep))
            return 1;
        total += s->rep.total_cycles;
        extra += s->rep.extra_cycles;
    }
    if (total < s->best) s->best = total;
    s->extra = extra;
    *cost = (double)total;
    return 0;
}
