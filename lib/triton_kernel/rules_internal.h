/* What Triton 3.6 lowers: the rules that restrict `layout triton --suggest`
 * and `--apply` to attributes every user of an allocation accepts, in one
 * table (rules.c; docs/triton.md prints it).  Each row names the op or
 * attribute it constrains, the rule, what the search does with it, and the
 * Triton source it was read from (file, function, the triton-lang/triton
 * commit read).  Two kinds of rows:
 *
 *   keep   the allocation keeps its attribute (no suggestion), with the
 *          row's note: a user whose bank rule is unknown or whose accepted
 *          layouts are not checked here;
 *   check  a candidate attribute that breaks the row is rejected
 *          (layout_tk_rule_check), or, for the LDS row, kept within budget.
 *
 * Example: an allocation read by ttng.warp_group_dot is kept with
 * LAYOUT_TK_RULE_WGMMA_READER; `#ttg.nvmma_shared<{swizzlingByteWidth = 16,
 * ...}>` fails LAYOUT_TK_RULE_NVMMA_SWIZZLE. */
#ifndef LAYOUT_TK_RULES_INTERNAL_H
#define LAYOUT_TK_RULES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "layout/triton.h"

typedef enum layout_tk_rule_id {
    LAYOUT_TK_RULE_NONE = 0,
    LAYOUT_TK_RULE_WGMMA_READER,   /* keep */
    LAYOUT_TK_RULE_TR_READER,      /* keep (current reader) / check (a candidate's reader) */
    LAYOUT_TK_RULE_UNMODELLED_USER, /* keep */
    LAYOUT_TK_RULE_INFERRED_VIEW,  /* keep */
    LAYOUT_TK_RULE_WGMMA_ENCODING, /* check (wgmma operand) */
    LAYOUT_TK_RULE_NVMMA_SWIZZLE,  /* check */
    LAYOUT_TK_RULE_NVMMA_ELEMENT,  /* check */
    LAYOUT_TK_RULE_NVMMA_UNSWIZZLED, /* check (wgmma operand) */
    LAYOUT_TK_RULE_NVMMA_ROW,      /* check (wgmma operand) */
    LAYOUT_TK_RULE_NVMMA_KMAJOR,   /* check (wgmma operand) */
    LAYOUT_TK_RULE_SWIZZLED,       /* check */
    LAYOUT_TK_RULE_PADDED,         /* check */
    LAYOUT_TK_RULE_LOWERING,       /* check */
    LAYOUT_TK_RULE_LDS,            /* check */
    LAYOUT_TK_RULE_COUNT
} layout_tk_rule_id;

typedef struct layout_tk_rule {
    layout_tk_rule_id id;
    const char *name;    /* short name, as the notes and the JSON print it */
    const char *kind;    /* "keep" or "check" */
    const char *applies; /* the op or attribute it constrains */
    const char *rule;    /* what Triton 3.6 requires, or why the allocation is kept */
    const char *source;  /* Triton file and function (triton-lang/triton) */
    const char *commit;  /* the commit of that file that was read */
} layout_tk_rule;

/* The row of id; NULL for NONE or out of range. */
const layout_tk_rule *layout_tk_rule_get(layout_tk_rule_id id);

/* How an allocation's memdesc is used by ttng.warp_group_dot: -1 not an
 * operand, 0 A, 1 B; with the operand's element bits and whether the dot
 * reads it as tf32 (inputPrecision tf32: 32-bit elements). */
typedef struct layout_tk_wgmma_use {
    int operand;
    int elem_bits;
} layout_tk_wgmma_use;

/* Check attribute a (parsed) for an allocation of elem_bits-bit elements
 * whose tile (last two dims) is tile[0] x tile[1], read by wgmma as w (NULL
 * or w->operand < 0: no wgmma user): the first row it breaks, or NONE.
 * why (may be NULL) gets a sentence naming the value. */
layout_tk_rule_id layout_tk_rule_check(const layout_triton_attr *a, int elem_bits, const int64_t tile[2],
                                       const layout_tk_wgmma_use *w, char *why, size_t cap);

/* A note "kept (rule NAME): RULE (SOURCE @ COMMIT)" with detail (may be
 * NULL) after the rule, into buf. */
void layout_tk_rule_note(layout_tk_rule_id id, const char *detail, char *buf, size_t cap);

#endif
