/* Global-memory coalescing: distinct lines / sectors and useful bytes. */
#include "../core/bits.h"
#include "../core/internal.h"
#include "layout/coalesce.h"

#include <string.h>

layout_coalesce_params layout_coalesce_cdna(void)
{
    layout_coalesce_params p;
    p.line_bytes = 64;
    p.sector_bytes = 0;
    return p;
}

layout_coalesce_params layout_coalesce_nvidia(void)
{
    layout_coalesce_params p;
    p.line_bytes = 128;
    p.sector_bytes = 32;
    return p;
}

/* One touched line: its id and which of its (<= 256) bytes are wanted. */
typedef struct touched_line {
    uint64_t id;
    uint64_t bytes[4];
} touched_line;

layout_status layout_coalesce(const layout_instr *instr, const layout_coalesce_params *params,
                              layout_coalesce_result *out, layout_error *err)
{
    static const char fn[] = "layout_coalesce";
    if (!instr) return layout_fail(err, LAYOUT_ERR_NULL, "%s: instr is NULL", fn);
    if (!params) return layout_fail(err, LAYOUT_ERR_NULL, "%s: params is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    layout_error sub;
    layout_status st = layout_instr_validate(instr, &sub);
    if (st) return layout_fail(err, st, "%s: %s", fn, sub.message);
    const int line = params->line_bytes, sector = params->sector_bytes;
    if (!layout_is_pow2(line) || line < 16 || line > 256)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: params->line_bytes = %d must be a power of two in 16..256", fn,
                           line);
    if (sector != 0 && (!layout_is_pow2(sector) || sector < 4 || sector > line))
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "%s: params->sector_bytes = %d must be 0 or a power of two in 4..line_bytes = %d", fn,
                           sector, line);

    /* a lane of <= 16 bytes spans at most two lines of >= 16 bytes */
    touched_line lines[2 * LAYOUT_MAX_LANES];
    int n = 0;
    for (int l = 0; l < instr->n_lanes; l++) {
        if (!((instr->active_mask >> l) & 1)) continue;
        for (uint64_t a = instr->addr_bytes[l], end = a + (uint64_t)instr->width_bytes; a < end; a++) {
            uint64_t id = a / (uint64_t)line, off = a % (uint64_t)line;
            int i = 0;
            while (i < n && lines[i].id != id) i++;
            if (i == n) {
                memset(&lines[n], 0, sizeof lines[n]);
                lines[n++].id = id;
            }
            lines[i].bytes[off / 64] |= (uint64_t)1 << (off % 64);
        }
    }
    layout_coalesce_result r;
    memset(&r, 0, sizeof r);
    r.n_lines = n;
    r.requested_bytes = (int64_t)__builtin_popcountll(instr->active_mask) * instr->width_bytes;
    for (int i = 0; i < n; i++) {
        for (int w = 0; w < 4; w++) r.useful_bytes += __builtin_popcountll(lines[i].bytes[w]);
        if (sector)
            for (int s = 0; s < line / sector; s++) {
                int touched = 0;
                for (int b = s * sector; b < (s + 1) * sector && !touched; b++)
                    touched = (int)((lines[i].bytes[b / 64] >> (b % 64)) & 1);
                r.n_sectors += touched;
            }
    }
    if (!sector) r.n_sectors = n;
    r.n_transactions = sector ? r.n_sectors : n;
    r.fetched_bytes = (int64_t)r.n_transactions * (sector ? sector : line);
    r.efficiency = r.fetched_bytes ? (double)r.useful_bytes / (double)r.fetched_bytes : 0.0;
    *out = r;
    return layout_ok(err);
}
