/* The DS instructions an access plan can issue: each layout_ds_op's bytes
 * per lane and its natural alignment (access.h), as tables the compiler
 * model (access_model.c) indexes directly.  Their names, in each vendor's
 * words, are in access_names.c. */
#include "layout/access.h"
#include "access_internal.h"

/* bytes per lane over both halves of a pair; natural alignment of one half */
const int layout_access_op_widths[LAYOUT_DS_OP_COUNT] = {0, 1, 2, 4, 8, 12, 16, 8, 16, 8, 16};
const int layout_access_op_aligns[LAYOUT_DS_OP_COUNT] = {0, 1, 2, 4, 8, 16, 16, 4, 8, 4, 8};

int layout_ds_op_width(layout_ds_op op)
{
    return op > LAYOUT_DS_AUTO && op < LAYOUT_DS_OP_COUNT ? layout_access_op_widths[op] : 0;
}

int layout_ds_op_align(layout_ds_op op)
{
    return op > LAYOUT_DS_AUTO && op < LAYOUT_DS_OP_COUNT ? layout_access_op_aligns[op] : 0;
}
