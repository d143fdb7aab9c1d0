/* Fuzz target: distributions and access plans from arbitrary bytes.
 *
 * The input builds an encoding (often valid: H lists dealt from factors of
 * the warp count, the wave size and a few Y lengths; sometimes with hostile
 * fields), an LDS view (packed, naive with arbitrary strides and vector
 * hints, or an XOR of two dims), an element size and access options.
 * Every call must either fail with a status or succeed, and:
 * - a made distribution covers its tile exactly `replication` times;
 * - a made plan's steps walk the issue positions in order without gaps;
 * - when no step is flagged, every thread's instructions move exactly the
 *   bytes of its elements (each byte once), and the stream equals the
 *   per-instruction calls;
 * - nothing reads or writes out of bounds (ASan) or overflows (UBSan).
 *
 * Cost: the coverage count and the stream / bytes-moved check
 * run on tiles of at most tile_cap[level] elements and streams of at most
 * stream_cap[level] instructions, level = fuzz_sample_level(): the largest
 * (2^16 elements, 1024 instructions, as before) on one input in 256.  Plans
 * are made for distributions of at most work_cap[level] thread elements
 * (warps x lanes x elements; every encoding this file makes on level 1).  The bytes-moved comparison sorts the byte
 * addresses (a multiset compare) instead of clearing two 128 KiB tables
 * per lane. */
#include "layout.h"
#include "fuzz_input.h"

#include <stdio.h>
#include <stdlib.h>

static const int64_t tile_cap[3] = {1024, 8192, 1 << 16};
static const size_t stream_cap[3] = {64, 256, 4 * 256};
static const int64_t work_cap[3] = {2048, 1 << 16, 1 << 16};

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Deal factors of warps, lanes and Y lengths over n_x H lists. */
static void make_encoding(fuzz_in *in, layout_dist_encoding *e, int *wave, int *warps)
{
    memset(e, 0, sizeof *e);
    *wave = fuzz_u8(in) & 1 ? 64 : 32;
    *warps = 1 << fuzz_range(in, 0, 2);
    e->n_x = (int)fuzz_range(in, 1, 3);
    e->n_p = fuzz_u8(in) % 4 ? 2 : 1;
    int64_t fac[24];
    int owner[24], nf = 0;
    if (e->n_p == 2)
        for (int v = *warps; v > 1; v /= 2) fac[nf] = 2, owner[nf++] = 0;
    for (int v = *wave; v > 1; v /= 2) fac[nf] = 2, owner[nf++] = e->n_p - 1;
    int ny = (int)fuzz_range(in, 1, 3);
    for (int j = 0; j < ny; j++) fac[nf] = fuzz_range(in, 1, 4), owner[nf++] = 2;
    for (int i = 0; i < nf; i++) {
        int xi = (int)fuzz_range(in, 0, e->n_x - 1);
        if (e->n_h[xi] >= LAYOUT_MAX_DIST_RH) continue; /* leaves a factor out: layout_dist_make must say so */
        int mi = e->n_h[xi]++;
        e->h[xi][mi] = fac[i];
        if (owner[i] < 2) {
            int p = owner[i];
            e->p_major[p][e->n_p_rh[p]] = xi + 1;
            e->p_minor[p][e->n_p_rh[p]++] = mi;
        } else if (e->n_y < LAYOUT_MAX_DIMS - 2) {
            e->y_major[e->n_y] = xi + 1;
            e->y_minor[e->n_y++] = mi;
        }
    }
    for (int i = 0; i < e->n_x; i++)
        if (e->n_h[i] == 0 && e->n_y < LAYOUT_MAX_DIMS - 2) {
            e->n_h[i] = 1;
            e->h[i][0] = 1;
            e->y_major[e->n_y] = i + 1;
            e->y_minor[e->n_y++] = 0;
        }
    for (int p = 0; p < e->n_p; p++)
        if (e->n_p_rh[p] == 0) {
            e->r[e->n_r] = 1;
            e->p_major[p][0] = 0;
            e->p_minor[p][0] = e->n_r++;
            e->n_p_rh[p] = 1;
        }
    /* sometimes a hostile field */
    if (fuzz_u8(in) % 8 == 0) {
        switch (fuzz_u8(in) % 6) {
        case 0: e->h[fuzz_range(in, 0, 2)][fuzz_range(in, 0, 3)] = fuzz_i64(in); break;
        case 1: e->y_major[fuzz_range(in, 0, 2)] = (int)fuzz_range(in, -2, 9); break;
        case 2: e->p_minor[fuzz_range(in, 0, 1)][fuzz_range(in, 0, 3)] = (int)fuzz_range(in, -2, 9); break;
        case 3: e->n_y = (int)fuzz_range(in, -1, 9); break;
        case 4: e->n_r = (int)fuzz_range(in, -1, 9); e->r[0] = fuzz_i64(in); break;
        default: e->n_p_rh[fuzz_range(in, 0, 1)] = (int)fuzz_range(in, -1, 9); break;
        }
    }
}

static int make_view(fuzz_in *in, const layout_distribution *d, layout_descriptor *out)
{
    int n = d->n_x;
    int64_t lens[LAYOUT_MAX_DIMS], strides[LAYOUT_MAX_DIMS];
    for (int i = 0; i < n; i++) lens[i] = d->x_lengths[i] + (fuzz_u8(in) % 4 == 0 ? fuzz_range(in, 0, 3) : 0);
    switch (fuzz_u8(in) % 4) {
    case 0:
        return layout_packed(out, n, lens, NULL) == LAYOUT_OK;
    case 1: {
        for (int i = 0; i < n; i++) strides[i] = fuzz_range(in, 0, 300);
        int64_t gvl = fuzz_u8(in) % 2 ? fuzz_range(in, 1, 16) : -1;
        return layout_naive_vec(out, n, lens, strides, gvl, gvl > 0 ? 1 : -1, NULL) == LAYOUT_OK;
    }
    case 2: {
        layout_descriptor p;
        if (layout_packed_vec(&p, n, lens, fuzz_range(in, 1, 8), NULL) != LAYOUT_OK || n < 2) return 0;
        layout_transform t[LAYOUT_MAX_DIMS];
        layout_seq lo[LAYOUT_MAX_DIMS], up[LAYOUT_MAX_DIMS];
        if (layout_make_xor(lens[0], lens[n - 1], &t[0], NULL)) return 0;
        int ids2[2] = {0, n - 1};
        lo[0] = layout_seq_from(2, ids2);
        up[0] = layout_seq_from(2, ids2);
        for (int i = 1; i < n - 1; i++) {
            if (layout_make_pass_through(lens[i], &t[i], NULL)) return 0;
            lo[i] = layout_seq_from(1, &i);
            up[i] = layout_seq_from(1, &i);
        }
        return layout_transform_descriptor(out, &p, n - 1, t, lo, up, NULL) == LAYOUT_OK;
    }
    default:
        for (int i = 0; i < n; i++) strides[i] = fuzz_i64(in);
        return layout_naive(out, n, lens, strides, NULL) == LAYOUT_OK;
    }
}

static void check_plan(const layout_access_plan *p, int level)
{
    static layout_instr stream[4 * 256];
    /* steps walk the positions in order without gaps */
    int64_t next_byte = 0;
    int all_up = 1;
    int halves = 0, ops = 0;
    for (int s = 0; s < p->n_steps; s++) {
        FUZZ_ASSERT(p->steps[s].elem_dir >= -1 && p->steps[s].elem_dir <= 1);
        all_up &= p->steps[s].elem_dir == 1;
    }
    for (int op = 1; op < LAYOUT_DS_OP_COUNT; op++) ops += p->op_count[op];
    for (int s = 0; s < p->n_steps; s++) {
        const layout_access_step *st = &p->steps[s];
        int64_t start = (int64_t)st->seq_first * p->elem_bytes + st->byte_offset;
        FUZZ_ASSERT(st->op > LAYOUT_DS_AUTO && st->op < LAYOUT_DS_OP_COUNT);
        if (st->pair_step >= 0) { /* one half of a read2 / write2 of two addresses */
            FUZZ_ASSERT(st->pair_step < p->n_steps && st->pair_step != s);
            FUZZ_ASSERT(p->steps[st->pair_step].pair_step == s && p->steps[st->pair_step].op == st->op);
            FUZZ_ASSERT(2 * st->width_bytes == layout_ds_op_width(st->op));
            halves++;
        } else {
            FUZZ_ASSERT(st->width_bytes == layout_ds_op_width(st->op));
        }
        if (all_up && p->n_misaligned + p->n_noncontiguous == 0) FUZZ_ASSERT(start == next_byte);
        next_byte = start + st->width_bytes;
        char buf[512];
        layout_access_step_explain(p, s, buf, sizeof buf);
    }
    FUZZ_ASSERT(halves % 2 == 0 && p->n_instrs == p->n_steps - halves / 2 && ops == p->n_instrs);
    size_t count = 0;
    FUZZ_ASSERT(layout_access_stream(p, NULL, 0, &count, NULL) == LAYOUT_OK);
    FUZZ_ASSERT(count == (size_t)p->dist->n_warps * (size_t)p->n_steps);
    if (count > stream_cap[level]) return;
    FUZZ_ASSERT(layout_access_stream(p, stream, count, &count, NULL) == LAYOUT_OK);
    if (p->n_misaligned + p->n_noncontiguous) return;
    if ((int64_t)p->n_elems * p->elem_bytes > 4096) return;
    /* bytes moved == bytes of the elements, for lane 0 and the last lane of the last warp */
    int lanes[2] = {0, p->dist->wave_size - 1}, w = p->dist->n_warps - 1;
    for (int li = 0; li < 2; li++) {
        int l = lanes[li];
        int64_t elem_at[LAYOUT_MAX_THREAD_ELEMS], lo = INT64_MAX;
        for (int e = 0; e < p->n_elems; e++) {
            int64_t x[LAYOUT_MAX_DIMS], off;
            FUZZ_ASSERT(layout_dist_coord_elem(p->dist, w, l, e, x, NULL) == LAYOUT_OK);
            FUZZ_ASSERT(layout_desc_offset(p->desc, x, &off, NULL) == LAYOUT_OK);
            elem_at[e] = p->base_bytes + off * p->elem_bytes;
            if (elem_at[e] < lo) lo = elem_at[e];
        }
        /* The element bytes and the instruction bytes, as sorted multisets
         * (at most 4096 each: n_elems * elem_bytes <= 4096 above, and an
         * unflagged plan's steps move exactly that many bytes or it fails). */
        static int64_t want[4096], got[4096 + 16];
        int n_want = 0, n_got = 0, over = 0;
        for (int e = 0; e < p->n_elems; e++)
            for (int b = 0; b < p->elem_bytes; b++) want[n_want++] = elem_at[e] + b;
        for (int s = 0; s < p->n_steps && !over; s++) {
            const layout_instr *ins = &stream[(size_t)w * (size_t)p->n_steps + (size_t)s];
            for (int b = 0; b < ins->width_bytes; b++) {
                if (n_got == (int)(sizeof got / sizeof got[0])) { over = 1; break; }
                got[n_got++] = (int64_t)ins->addr_bytes[l] + b;
            }
        }
        qsort(want, (size_t)n_want, sizeof want[0], cmp_i64);
        qsort(got, (size_t)n_got, sizeof got[0], cmp_i64);
        int same = !over && n_want == n_got && memcmp(want, got, sizeof want[0] * (size_t)n_want) == 0;
        if (!same && getenv("FUZZ_DEBUG")) {
            char b[512];
            layout_access_plan_print(p, b, sizeof b);
            fprintf(stderr, "plan: %s eb %d n_elems %d spv %d vy %d base %lld lane %d warp %d\n", b, p->elem_bytes,
                    p->n_elems, p->vector_elems, p->vector_y, (long long)p->base_bytes, l, w);
            for (int e = 0; e < p->n_elems; e++) fprintf(stderr, " e%d@%lld", e, (long long)elem_at[e]);
            fprintf(stderr, "\n order:");
            for (int e = 0; e < p->n_elems; e++) fprintf(stderr, " %d", p->order[e]);
            fprintf(stderr, "\n");
            for (int s = 0; s < p->n_steps; s++)
                fprintf(stderr, " step %d op %d w %d first %d off %d addr %u\n", s, p->steps[s].op, p->steps[s].width_bytes,
                        p->steps[s].seq_first, p->steps[s].byte_offset, stream[(size_t)w * (size_t)p->n_steps + (size_t)s].addr_bytes[l]);
        }
        FUZZ_ASSERT(same);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    static layout_distribution d;
    static layout_descriptor desc;
    static layout_access_plan plan;
    static uint32_t counts[1 << 16];
    layout_dist_encoding e;
    int wave, warps;
    make_encoding(&in, &e, &wave, &warps);
    layout_error err;
    if (layout_dist_make(&d, &e, wave, warps, 0, NULL, &err) != LAYOUT_OK) {
        if (strncmp(err.message, "layout_dist_make: ", 18)) fprintf(stderr, "msg: %s\n", err.message);
        FUZZ_ASSERT(err.status < 0 && strncmp(err.message, "layout_dist_make: ", 18) == 0);
        return 0;
    }
    int64_t size_x = 1;
    for (int i = 0; i < d.n_x; i++) size_x *= d.x_lengths[i];
    int level = fuzz_sample_level(data, size);
    if (size_x <= tile_cap[level]) {
        int64_t lo = -1, hi = -1;
        FUZZ_ASSERT(layout_dist_coverage(&d, counts, sizeof counts / sizeof counts[0], &lo, &hi, NULL) == LAYOUT_OK);
        FUZZ_ASSERT(lo == d.replication && hi == d.replication);
    }
    if (!make_view(&in, &d, &desc)) return 0;
    if ((int64_t)d.n_warps * d.wave_size * d.elems_per_thread > work_cap[level]) return 0;
    static const int sizes[5] = {1, 2, 4, 8, 16};
    int eb = sizes[fuzz_u8(&in) % 5];
    layout_access_options o;
    memset(&o, 0, sizeof o);
    o.policy = fuzz_u8(&in) % 3 == 0 ? LAYOUT_VECTOR_SPLIT : LAYOUT_VECTOR_TRUST;
    o.no_merge = fuzz_u8(&in) % 5 == 0;
    if (fuzz_u8(&in) % 4 == 0) {
        o.vector_y = (int)fuzz_range(&in, 0, d.n_y - 1);
        o.vector_elems = (int)fuzz_range(&in, 1, 8);
    }
    if (fuzz_u8(&in) % 5 == 0) o.op = (layout_ds_op)fuzz_range(&in, 1, LAYOUT_DS_OP_COUNT - 1);
    if (fuzz_u8(&in) % 6 == 0) o.base_bytes = fuzz_range(&in, 0, 64);
    layout_status s = layout_access_plan_make(&plan, &desc, &d, fuzz_u8(&in) & 1 ? LAYOUT_READ : LAYOUT_WRITE, eb, &o,
                                              &err);
    if (s != LAYOUT_OK) {
        FUZZ_ASSERT(s < 0 && strncmp(err.message, "layout_access_plan_make: ", 25) == 0);
        return 0;
    }
    check_plan(&plan, level);
    return 0;
}
