/* Self-contained SVG bank maps (no scripts, no external references).
 *
 * Picture: a title, the tile as a grid of cells coloured by bank (numbers in
 * the cells), a bank colour legend, and for up to two instructions (the
 * worst write and the worst read) one row block per lane group: each lane a
 * box striped with the banks of the dwords it touches, conflicting dwords
 * outlined in red.  Cells of the tile touched by a conflicting lane of a
 * shown instruction get a red outline too. */
#ifndef LAYOUT_TOOL_SVG_H
#define LAYOUT_TOOL_SVG_H

#include <stdint.h>
#include <stdio.h>

#define SVG_MAX_DWORDS 5 /* a 16-byte lane at an unaligned address touches 5 dwords */
#define SVG_MAX_GROUPS 64

typedef struct svg_lane {
    int lane;
    int group;                    /* lane group (phase) index */
    int n_dwords;
    int bank[SVG_MAX_DWORDS];
    int conflict[SVG_MAX_DWORDS]; /* non-zero: its bank serves > 1 distinct dword in the group */
} svg_lane;

typedef struct svg_instr {
    const char *heading;          /* e.g. "worst read: warp 0 step 3, ds_read_u16, 14 extra cycles" */
    int n_lanes;                  /* active lanes, ordered by group then lane */
    svg_lane lanes[64];
    int n_groups;
    int group_cycles[SVG_MAX_GROUPS]; /* max distinct dwords per bank in each group */
} svg_instr;

typedef struct svg_picture {
    const char *title;
    const char *subtitle;
    int rows, cols;            /* the 2-D tile (dim 0 down, dim 1 across) */
    const char *row_name;      /* axis names, e.g. "d0" */
    const char *col_name;
    const int *bank;           /* rows*cols banks, -1 = padding / not shown */
    const unsigned char *hot;  /* rows*cols, non-zero = touched by a conflicting lane (may be NULL) */
    int n_banks;
    int n_instrs;              /* 0..2 */
    const svg_instr *instrs[2];
} svg_picture;

/* Write the picture; returns 0 on success, -1 on a write error.  *width and
 * *height (either may be NULL) receive the declared pixel size. */
int svg_write(FILE *f, const svg_picture *p, int *width, int *height);

#endif /* LAYOUT_TOOL_SVG_H */
