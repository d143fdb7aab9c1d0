/* Fuzz target: tile distributions, access plans and instruction streams
 * from arbitrary encodings.
 *
 * The input decodes into a tile_distribution_encoding (mostly a
 * well-formed one: H lists whose entries are each given to P0, P1 or a Y;
 * sometimes arbitrary counts, references and lengths), an LDS descriptor
 * over the tile (naive or packed, padded, aliased strides, an optional XOR
 * stage), an element size and access options.  Properties:
 * - layout_dist_make() fails with a status and message, or every (warp,
 *   lane, Y) maps to the X this file computes from the encoding's digits,
 *   to the same X through the distribution's own adaptor, inside the tile;
 *   coverage counts sum to warps x lanes x elements;
 * - an access plan, when built, issues lane addresses equal to
 *   base + elem_bytes * offset(X of the step's first element) + byte_offset
 *   (the first element holds the lowest address; a run may walk the issue
 *   positions downwards, elem_dir = -1);
 *   its order is a permutation; unflagged steps really are contiguous and
 *   aligned; automatic plans move exactly the thread's bytes;
 * - the stream equals the per-step instructions, and layout_check_side()
 *   equals the sum of the checker's costs (scalar and AVX2 alike);
 * - a plan built over a compiled descriptor (opt.desc_plan) issues the same
 *   addresses as the interpreted descriptor's offsets above.
 *
 * Cost: level = fuzz_sample_level() (0 for most inputs, 1 for
 * one in 16, 2 for one in 256) caps the work: plans and the coverage count
 * are checked for distributions of at most work_cap[level] thread
 * elements (warps x lanes x elements; 2^16 on level 2, as before), the
 * stream / side-total check for streams of at most stream_cap[level]
 * instructions (4096 on level 2, as before; 16 on level 0).  On level 0 the side
 * totals use one checker (scalar or AVX2, picked by the input), else both; the
 * lane addresses of four steps (the first, the last, two picked) and of
 * four lanes each (lane 0, the last, two picked) are compared, of every
 * step and lane on levels 1 and 2. */
#include "layout.h"
#include "fuzz_input.h"

#include <stdio.h>
#include <stdlib.h>

static const int64_t work_cap[3] = {2048, 8192, 1 << 16};
static const size_t stream_cap[3] = {16, 256, 4096};

/* ---- decoding an encoding ------------------------------------------------ */

static void decode_wellformed(fuzz_in *in, layout_dist_encoding *e)
{
    memset(e, 0, sizeof *e);
    e->n_r = (int)fuzz_range(in, 0, 2);
    for (int k = 0; k < e->n_r; k++) e->r[k] = 1 << fuzz_range(in, 0, 2);
    e->n_x = (int)fuzz_range(in, 1, 3);
    e->n_p = (int)fuzz_range(in, 1, 2);
    for (int i = 0; i < e->n_x; i++) {
        e->n_h[i] = (int)fuzz_range(in, 1, 4);
        for (int k = 0; k < e->n_h[i]; k++) {
            uint8_t v = fuzz_u8(in);
            e->h[i][k] = v < 200 ? (int64_t)1 << (v % 4) : 1 + v % 7;
        }
    }
    /* Give every RH entry to one owner: P0, P1 or a new Y (R only to P). */
    for (int major = 0; major <= e->n_x; major++) {
        int n = major ? e->n_h[major - 1] : e->n_r;
        for (int minor = 0; minor < n; minor++) {
            int owner = (int)fuzz_range(in, 0, 2);
            if (major == 0 && owner == 2) owner = 0;
            if (owner < 2 && owner >= e->n_p) owner = major ? 2 : 0;
            if (owner == 2 && e->n_p + e->n_y >= LAYOUT_MAX_DIMS) owner = e->n_p - 1;
            if (owner < 2) {
                if (e->n_p_rh[owner] >= LAYOUT_MAX_DIST_RH) continue;
                int at = e->n_p_rh[owner]++;
                e->p_major[owner][at] = major;
                e->p_minor[owner][at] = minor;
            } else {
                e->y_major[e->n_y] = major;
                e->y_minor[e->n_y] = minor;
                e->n_y++;
            }
        }
    }
}

static void decode_hostile(fuzz_in *in, layout_dist_encoding *e)
{
    decode_wellformed(in, e);
    int k = (int)fuzz_range(in, 1, 4);
    for (int i = 0; i < k; i++) {
        switch (fuzz_u8(in) % 8) {
        case 0: e->n_r = (int)fuzz_range(in, -1, LAYOUT_MAX_DIST_RH + 1); break;
        case 1: e->n_x = (int)fuzz_range(in, -1, LAYOUT_MAX_DIMS + 1); break;
        case 2: e->n_p = (int)fuzz_range(in, -1, 3); break;
        case 3: e->n_y = (int)fuzz_range(in, -1, LAYOUT_MAX_DIMS + 1); break;
        case 4: e->h[fuzz_range(in, 0, LAYOUT_MAX_DIMS - 1)][fuzz_range(in, 0, LAYOUT_MAX_DIST_RH - 1)] = fuzz_i64(in); break;
        case 5: e->n_p_rh[fuzz_range(in, 0, 1)] = (int)fuzz_range(in, -1, LAYOUT_MAX_DIST_RH + 1); break;
        case 6: e->p_major[fuzz_range(in, 0, 1)][fuzz_range(in, 0, LAYOUT_MAX_DIST_RH - 1)] = (int)fuzz_range(in, -2, 9); break;
        default: e->y_minor[fuzz_range(in, 0, LAYOUT_MAX_DIMS - 1)] = (int)fuzz_range(in, -2, 9); break;
        }
    }
}

/* Length of P_p, or -1 when a count or reference is out of range. */
static int64_t p_length(const layout_dist_encoding *e, int p)
{
    int64_t len = 1;
    if (e->n_p_rh[p] < 0 || e->n_p_rh[p] > LAYOUT_MAX_DIST_RH) return -1;
    for (int k = 0; k < e->n_p_rh[p]; k++) {
        int major = e->p_major[p][k], minor = e->p_minor[p][k];
        if (major < 0 || major > LAYOUT_MAX_DIMS || minor < 0 || minor >= LAYOUT_MAX_DIST_RH) return -1;
        int64_t l = major ? e->h[major - 1][minor] : e->r[minor];
        if (l < 1 || l > 1024 || len > ((int64_t)1 << 40)) return -1;
        len *= l;
    }
    return len;
}

/* ---- the reference: digits of the encoding ------------------------------- */

static void ref_coord(const layout_dist_encoding *e, int warp, int lane, const int64_t *y, int64_t *x)
{
    int64_t digit[LAYOUT_MAX_DIMS + 1][LAYOUT_MAX_DIST_RH];
    memset(digit, 0, sizeof digit);
    for (int p = 0; p < e->n_p; p++) {
        int64_t v = e->n_p == 2 && p == 0 ? warp : lane;
        for (int k = e->n_p_rh[p] - 1; k >= 0; k--) { /* first listed most significant */
            int major = e->p_major[p][k], minor = e->p_minor[p][k];
            int64_t len = major ? e->h[major - 1][minor] : e->r[minor];
            digit[major][minor] = v % len;
            v /= len;
        }
    }
    for (int j = 0; j < e->n_y; j++) digit[e->y_major[j]][e->y_minor[j]] = y[j];
    for (int i = 0; i < e->n_x; i++) {
        int64_t xi = 0;
        for (int k = 0; k < e->n_h[i]; k++) xi = xi * e->h[i][k] + digit[i + 1][k];
        x[i] = xi;
    }
}

/* ---- properties -------------------------------------------------------- */

static void check_dist(fuzz_in *in, const layout_distribution *d, const layout_dist_encoding *e, int level)
{
    layout_error err;
    int64_t total = (int64_t)d->n_warps * d->wave_size * d->elems_per_thread;
    int probes = (int)fuzz_range(in, 1, 32);
    for (int k = 0; k < probes; k++) {
        int warp = (int)fuzz_range(in, 0, d->n_warps - 1), lane = (int)fuzz_range(in, 0, d->wave_size - 1);
        int64_t elem = (int64_t)(fuzz_u32(in) % (uint64_t)d->elems_per_thread);
        int64_t y[LAYOUT_MAX_DIMS], x[LAYOUT_MAX_DIMS], x2[LAYOUT_MAX_DIMS], want[LAYOUT_MAX_DIMS];
        FUZZ_ASSERT(layout_dist_y_index(d, elem, y) == 0);
        FUZZ_ASSERT(layout_dist_elem_index(d, y) == elem);
        FUZZ_ASSERT(layout_dist_coord(d, warp, lane, y, x, &err) == LAYOUT_OK);
        FUZZ_ASSERT(layout_dist_coord_elem(d, warp, lane, elem, x2, &err) == LAYOUT_OK);
        ref_coord(e, warp, lane, y, want);
        /* The adaptor: top = [P..., Y...], bottom = X. */
        int64_t top[LAYOUT_MAX_DIMS], bottom[LAYOUT_MAX_DIMS];
        int t = 0;
        if (e->n_p == 2) top[t++] = warp;
        top[t++] = lane;
        for (int j = 0; j < e->n_y; j++) top[t++] = y[j];
        FUZZ_ASSERT(layout_adaptor_calculate_bottom(&d->adaptor, top, bottom, &err) == LAYOUT_OK);
        for (int i = 0; i < d->n_x; i++) {
            FUZZ_ASSERT(x[i] == want[i] && x2[i] == want[i] && bottom[i] == want[i]);
            FUZZ_ASSERT(x[i] >= 0 && x[i] < d->x_lengths[i]);
        }
        /* Out of range threads and elements are errors, x untouched. */
        int64_t keep = x[0];
        FUZZ_ASSERT(layout_dist_coord_elem(d, d->n_warps, lane, elem, x, &err) == LAYOUT_ERR_RANGE);
        FUZZ_ASSERT(layout_dist_coord_elem(d, warp, -1, elem, x, &err) == LAYOUT_ERR_RANGE);
        FUZZ_ASSERT(layout_dist_coord_elem(d, warp, lane, d->elems_per_thread, x, &err) == LAYOUT_ERR_RANGE);
        FUZZ_ASSERT(x[0] == keep);
    }
    int64_t n = 1;
    for (int i = 0; i < d->n_x; i++) n *= d->x_lengths[i];
    if (n > 4096 || total > work_cap[level]) return;
    static uint32_t counts[4096];
    int64_t lo = -1, hi = -1, sum = 0;
    FUZZ_ASSERT(layout_dist_coverage(d, counts, (size_t)n, &lo, &hi, &err) == LAYOUT_OK);
    for (int64_t i = 0; i < n; i++) sum += counts[i];
    FUZZ_ASSERT(sum == total && lo <= hi);
    if (n > 1) FUZZ_ASSERT(layout_dist_coverage(d, counts, (size_t)n - 1, &lo, &hi, &err) == LAYOUT_ERR_BUFFER);
}

/* Natural alignment of one step's lane access (a half of a pair: its width). */
static int natural_align(const layout_access_step *st)
{
    if (st->pair_step >= 0) return st->width_bytes;
    return st->op == LAYOUT_DS_PAIR_B32 ? 4 : st->op == LAYOUT_DS_B96 ? 16 : layout_ds_op_width(st->op);
}

static void check_plan(fuzz_in *in, const layout_descriptor *desc, const layout_distribution *d, int level)
{
    static const int elem_sizes[5] = {1, 2, 4, 8, 16};
    layout_access_options opt;
    memset(&opt, 0, sizeof opt);
    uint8_t sel = fuzz_u8(in);
    if (sel & 1) opt.policy = LAYOUT_VECTOR_SPLIT;
    if (sel & 2) opt.no_merge = 1;
    if (sel & 4) opt.base_bytes = (int64_t)fuzz_range(in, 0, 64);
    if ((sel & 24) == 8) opt.op = (layout_ds_op)fuzz_range(in, 0, LAYOUT_DS_OP_COUNT);
    if ((sel & 96) == 32) {
        opt.vector_elems = (int)fuzz_range(in, 0, 8);
        opt.vector_y = (int)fuzz_range(in, 0, d->n_y);
    }
    int eb = fuzz_u8(in) < 250 ? elem_sizes[fuzz_range(in, 0, 4)] : (int)fuzz_range(in, -1, 17);
    layout_direction dir = (layout_direction)(fuzz_u8(in) & 1);
    int64_t work = (int64_t)d->n_warps * d->wave_size * d->elems_per_thread;
    if (work > work_cap[level]) return;

    static layout_access_plan plan;
    layout_error err;
    /* Half the plans run over the compiled descriptor: the lane addresses
     * below are still compared with the interpreted layout_desc_offset(). */
    static layout_plan desc_plan;
    if (sel & 128) {
        layout_plan_impl impl = fuzz_u8(in) & 1 ? LAYOUT_PLAN_SCALAR : LAYOUT_PLAN_AUTO;
        if (layout_plan_build(&desc_plan, desc, impl, &err) == LAYOUT_OK) opt.desc_plan = &desc_plan;
        else FUZZ_ASSERT(err.status == LAYOUT_ERR_CAPACITY);
    }
    layout_status st = layout_access_plan_make(&plan, desc, d, dir, eb, &opt, &err);
    if (st) {
        FUZZ_ASSERT(st < 0 && err.status == st && err.message[0]);
        return;
    }
    /* The issue order is a permutation of the thread's elements. */
    unsigned char seen[LAYOUT_MAX_THREAD_ELEMS] = {0};
    FUZZ_ASSERT(plan.n_elems == d->elems_per_thread);
    for (int p = 0; p < plan.n_elems; p++) {
        FUZZ_ASSERT(plan.order[p] >= 0 && plan.order[p] < plan.n_elems && !seen[plan.order[p]]);
        seen[plan.order[p]] = 1;
    }
    int64_t bytes = 0;
    for (int s = 0; s < plan.n_steps; s++) bytes += plan.steps[s].width_bytes;
    if (opt.op == LAYOUT_DS_AUTO && opt.policy == LAYOUT_VECTOR_SPLIT)
        FUZZ_ASSERT(bytes == (int64_t)plan.n_elems * eb);

    /* Lane addresses against descriptor offsets of distribution coordinates. */
    int warp = (int)fuzz_range(in, 0, d->n_warps - 1);
    /* All lanes on sampled inputs, else lane 0, the last and two picked. */
    int lanes[LAYOUT_MAX_LANES], n_lanes = 0;
    if (level > 0 || d->wave_size <= 4) {
        for (int l = 0; l < d->wave_size; l++) lanes[n_lanes++] = l;
    } else {
        lanes[n_lanes++] = 0;
        lanes[n_lanes++] = d->wave_size - 1;
        lanes[n_lanes++] = (int)fuzz_range(in, 1, d->wave_size - 2);
        lanes[n_lanes++] = (int)fuzz_range(in, 1, d->wave_size - 2);
    }
    /* All steps on sampled inputs, else the first, the last and two picked
     * (every layout_access_instr() computes all lanes of its step). */
    int steps[LAYOUT_MAX_THREAD_ELEMS], n_check = 0;
    if (level > 0 || plan.n_steps <= 4) {
        for (int s = 0; s < plan.n_steps; s++) steps[n_check++] = s;
    } else {
        steps[n_check++] = 0;
        steps[n_check++] = plan.n_steps - 1;
        steps[n_check++] = (int)fuzz_range(in, 1, plan.n_steps - 2);
        steps[n_check++] = (int)fuzz_range(in, 1, plan.n_steps - 2);
    }
    for (int si = 0; si < n_check; si++) {
        const int s = steps[si];
        const layout_access_step *stp = &plan.steps[s];
        layout_instr ins;
        FUZZ_ASSERT(layout_access_instr(&plan, warp, s, &ins, &err) == LAYOUT_OK);
        FUZZ_ASSERT(ins.n_lanes == d->wave_size && ins.width_bytes == stp->width_bytes);
        FUZZ_ASSERT(ins.direction == dir);
        for (int li = 0; li < n_lanes; li++) {
            int l = lanes[li];
            int64_t x[LAYOUT_MAX_DIMS], off;
            FUZZ_ASSERT(layout_dist_coord_elem(d, warp, l, plan.order[stp->seq_first], x, &err) == LAYOUT_OK);
            FUZZ_ASSERT(layout_desc_offset(desc, x, &off, &err) == LAYOUT_OK);
            int64_t a = plan.base_bytes + off * eb;
            FUZZ_ASSERT(ins.addr_bytes[l] == (uint32_t)(a + stp->byte_offset));
            FUZZ_ASSERT((a + stp->byte_offset) % stp->align_bytes == 0);
            /* naturally aligned unless flagged, or widened below 4-byte alignment (access.h R4) */
            if (!(stp->flags & LAYOUT_ACCESS_MISALIGNED) && stp->align_bytes >= 4)
                FUZZ_ASSERT((a + stp->byte_offset) % natural_align(stp) == 0);
            /* An unflagged step's elements sit at consecutive offsets from
             * seq_first's upwards, walking positions in elem_dir (0: a run
             * merged in address order, positions not consecutive). */
            FUZZ_ASSERT(stp->elem_dir >= -1 && stp->elem_dir <= 1);
            if (!(stp->flags & LAYOUT_ACCESS_NONCONTIGUOUS) && stp->elem_dir != 0)
                for (int k = 1; k < stp->n_elems; k++) {
                    int p = stp->seq_first + k * stp->elem_dir;
                    FUZZ_ASSERT(p >= 0 && p < plan.n_elems);
                    int64_t xp[LAYOUT_MAX_DIMS], op;
                    layout_dist_coord_elem(d, warp, l, plan.order[p], xp, &err);
                    layout_desc_offset(desc, xp, &op, &err);
                    FUZZ_ASSERT(op == off + k);
                }
        }
    }
    FUZZ_ASSERT(layout_access_instr(&plan, warp, plan.n_steps, NULL, &err) != LAYOUT_OK);

    /* Stream = per-step instructions; side totals = sum of costs. */
    size_t n = (size_t)d->n_warps * (size_t)plan.n_steps, count = 0;
    if (n == 0 || n > stream_cap[level]) return;
    layout_instr *stream = malloc(n * sizeof *stream);
    FUZZ_ASSERT(stream);
    if (n > 1) FUZZ_ASSERT(layout_access_stream(&plan, stream, n - 1, &count, &err) == LAYOUT_ERR_BUFFER);
    FUZZ_ASSERT(layout_access_stream(&plan, stream, n, &count, &err) == LAYOUT_OK && count == n);
    layout_instr one;
    layout_access_instr(&plan, warp, 0, &one, &err);
    FUZZ_ASSERT(memcmp(&one, &stream[(size_t)warp * (size_t)plan.n_steps], sizeof one) == 0);

    const char *name = d->wave_size == 32 ? "gfx11" : d->wave_size == 64 ? "gfx942" : NULL;
    if (name) {
        layout_arch arch;
        layout_arch_preset(name, &arch, NULL);
        /* Both checkers on sampled inputs, else the one the input picks
         * (fuzz_check holds scalar == AVX2 on every instruction). */
        int pick = fuzz_u8(in) & 1;
        for (int impl = LAYOUT_IMPL_SCALAR; impl <= LAYOUT_IMPL_AVX2; impl++) {
            if (!layout_check_impl_available((layout_check_impl)impl)) continue;
            if (level == 0 && impl != (pick ? LAYOUT_IMPL_AVX2 : LAYOUT_IMPL_SCALAR)) continue;
            layout_checker ck;
            layout_side_result res;
            layout_cost_totals tot;
            FUZZ_ASSERT(layout_checker_init(&ck, &arch, (layout_check_impl)impl, &err) == LAYOUT_OK);
            layout_status s1 = layout_check_side(&ck, &plan, 1, &res, &err);
            layout_status s2 = layout_checker_cost_batch(&ck, stream, n, NULL, &tot, &err);
            FUZZ_ASSERT(s1 == s2);
            if (!s1) {
                FUZZ_ASSERT(res.extra_cycles_per_tile == tot.extra_cycles);
                FUZZ_ASSERT(res.total_cycles_per_tile == tot.total_cycles);
                FUZZ_ASSERT(res.instrs_per_tile == (int64_t)d->n_warps * plan.n_instrs);
            }
        }
    }
    free(stream);
}

/* An LDS view over the tile: naive/packed, maybe padded, maybe XOR-swizzled. */
static int build_desc(fuzz_in *in, const layout_distribution *d, layout_descriptor *desc)
{
    int64_t len[LAYOUT_MAX_DIMS], str[LAYOUT_MAX_DIMS];
    layout_error err;
    int n = d->n_x;
    for (int i = 0; i < n; i++)
        if (__builtin_add_overflow(d->x_lengths[i], fuzz_u8(in) < 220 ? 0 : fuzz_range(in, 0, 3), &len[i])) return 0;
    if (fuzz_u8(in) & 1) {
        if (layout_packed(desc, n, len, &err)) return 0;
    } else {
        int64_t s = 1;
        for (int i = n - 1; i >= 0; i--) {
            uint8_t v = fuzz_u8(in);
            str[i] = v < 200 ? s : v < 230 ? 0 : fuzz_range(in, 1, 70);
            /* The next stride spans this dim (plus an optional pad element);
             * huge tiles overflow int64 here: not a descriptor worth building. */
            if (str[i] && (__builtin_mul_overflow(str[i], len[i], &s) || __builtin_add_overflow(s, v & 1, &s))) return 0;
        }
        if (layout_naive(desc, n, len, str, &err)) return 0;
    }
    if (n >= 2 && fuzz_u8(in) < 64) {
        layout_transform t[LAYOUT_MAX_DIMS];
        layout_seq lo[LAYOUT_MAX_DIMS], up[LAYOUT_MAX_DIMS];
        int k = 0;
        layout_make_xor(len[0], len[1], &t[k], NULL);
        lo[k].n = up[k].n = 2;
        lo[k].ids[0] = up[k].ids[0] = 0;
        lo[k].ids[1] = up[k].ids[1] = 1;
        k++;
        for (int i = 2; i < n; i++, k++) {
            layout_make_pass_through(len[i], &t[k], NULL);
            lo[k].n = up[k].n = 1;
            lo[k].ids[0] = up[k].ids[0] = i;
        }
        if (layout_transform_descriptor(desc, desc, k, t, lo, up, &err)) return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    layout_dist_encoding e;
    if (fuzz_u8(&in) < 200) decode_wellformed(&in, &e);
    else decode_hostile(&in, &e);

    /* Warps and wave size as the encoding implies, sometimes not. */
    int wave = 0, warps = 1;
    if (e.n_p >= 1 && e.n_p <= 2) {
        int64_t last = p_length(&e, e.n_p - 1), first = p_length(&e, 0);
        wave = last >= 1 && last <= 64 ? (int)last : 64;
        warps = e.n_p == 2 && first >= 1 && first <= 1024 ? (int)first : 1;
    }
    if (fuzz_u8(&in) >= 240) wave = (int)fuzz_range(&in, -1, 65);
    if (fuzz_u8(&in) >= 240) warps = (int)fuzz_range(&in, -1, 1025);
    int64_t tile[LAYOUT_MAX_DIMS];
    int n_tile = e.n_x >= 0 && e.n_x <= LAYOUT_MAX_DIMS ? e.n_x : 0;
    for (int i = 0; i < n_tile; i++) {
        tile[i] = 1;
        for (int k = 0; k < e.n_h[i] && k < LAYOUT_MAX_DIST_RH && tile[i] < ((int64_t)1 << 40); k++)
            tile[i] *= e.h[i][k] > 0 && e.h[i][k] < 1024 ? e.h[i][k] : 1;
    }
    static layout_distribution d, poison;
    layout_error err;
    memset(&d, 0x5a, sizeof d);
    memcpy(&poison, &d, sizeof d);
    layout_status st = layout_dist_make(&d, &e, wave, warps, n_tile, fuzz_u8(&in) < 128 ? tile : NULL, &err);
    if (st) {
        FUZZ_ASSERT(st < 0 && err.status == st && err.message[0]);
        FUZZ_ASSERT(memcmp(&d, &poison, sizeof d) == 0);
        return 0;
    }
    int level = fuzz_sample_level(data, size);
    check_dist(&in, &d, &e, level);
    char text[256];
    FUZZ_ASSERT(layout_dist_print(&d, text, sizeof text) >= 0);
    static layout_descriptor desc;
    if (build_desc(&in, &d, &desc)) check_plan(&in, &desc, &d, level);
    return 0;
}
