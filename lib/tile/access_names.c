/* Names of the DS op kinds of access.h, in each vendor's vocabulary: AMD's
 * DS mnemonics (the ISA's) and, for NVIDIA, the PTX shared-memory
 * instructions of the same width.  access_print.c prints plans with these. */
#include "layout/access.h"

static const char *const read_names[LAYOUT_DS_OP_COUNT] = {
    "auto",         "ds_read_u8",    "ds_read_u16",      "ds_read_b32",      "ds_read_b64",      "ds_read_b96",
    "ds_read_b128", "ds_read2_b32",  "ds_read2_b64",     "ds_read2st64_b32", "ds_read2st64_b64",
};
static const char *const write_names[LAYOUT_DS_OP_COUNT] = {
    "auto",          "ds_write_b8",   "ds_write_b16",      "ds_write_b32",      "ds_write_b64",      "ds_write_b96",
    "ds_write_b128", "ds_write2_b32", "ds_write2_b64",     "ds_write2st64_b32", "ds_write2st64_b64",
};
/* PTX (the spelling LLVM's NVPTX back end prints and Triton's kernels show):
 * a b64 / b128 lane access is a vector of 2 / 4 b32.  PTX has no 12-byte
 * vector and no two-address pair: those keep the AMD name (NULL here). */
static const char *const ptx_read_names[LAYOUT_DS_OP_COUNT] = {
    "auto", "ld.shared.b8", "ld.shared.b16", "ld.shared.b32", "ld.shared.v2.b32", NULL, "ld.shared.v4.b32",
    NULL,   NULL,           NULL,            NULL,
};
static const char *const ptx_write_names[LAYOUT_DS_OP_COUNT] = {
    "auto", "st.shared.b8", "st.shared.b16", "st.shared.b32", "st.shared.v2.b32", NULL, "st.shared.v4.b32",
    NULL,   NULL,           NULL,            NULL,
};

const char *layout_ds_op_name(layout_ds_op op, layout_direction direction)
{
    if (op < LAYOUT_DS_AUTO || op >= LAYOUT_DS_OP_COUNT) return "?";
    return direction == LAYOUT_WRITE ? write_names[op] : read_names[op];
}

const char *layout_ds_op_vendor_name(layout_ds_op op, layout_direction direction, layout_vendor vendor)
{
    if (op < LAYOUT_DS_AUTO || op >= LAYOUT_DS_OP_COUNT) return "?";
    if (vendor == LAYOUT_VENDOR_NVIDIA) {
        const char *p = direction == LAYOUT_WRITE ? ptx_write_names[op] : ptx_read_names[op];
        if (p) return p;
    }
    return layout_ds_op_name(op, direction);
}
