/* The DS instructions an access plan can issue: each layout_ds_op's
 * mnemonic for either direction, its bytes per lane and its natural
 * alignment (access.h), as tables the compiler model (access_model.c) and
 * the printers index directly. */
#include "layout/access.h"
#include "access_internal.h"

static const char *const read_names[LAYOUT_DS_OP_COUNT] = {
    "auto",         "ds_read_u8",    "ds_read_u16",      "ds_read_b32",      "ds_read_b64",      "ds_read_b96",
    "ds_read_b128", "ds_read2_b32",  "ds_read2_b64",     "ds_read2st64_b32", "ds_read2st64_b64",
};
static const char *const write_names[LAYOUT_DS_OP_COUNT] = {
    "auto",          "ds_write_b8",   "ds_write_b16",      "ds_write_b32",      "ds_write_b64",      "ds_write_b96",
    "ds_write_b128", "ds_write2_b32", "ds_write2_b64",     "ds_write2st64_b32", "ds_write2st64_b64",
};
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

const char *layout_ds_op_name(layout_ds_op op, layout_direction direction)
{
    if (op < LAYOUT_DS_AUTO || op >= LAYOUT_DS_OP_COUNT) return "?";
    return direction == LAYOUT_WRITE ? write_names[op] : read_names[op];
}
