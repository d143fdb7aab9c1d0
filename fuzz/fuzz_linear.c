/* Fuzz target: linear layouts over F2 (linear.h).
 *
 * The input picks one of three modes:
 * - bases: layout_linear_from_bases() on hostile dims, names and values; on
 *   success apply equals the XOR of the bases read back, rank bounds the
 *   injective / surjective answers, invert / pseudo-invert / compose satisfy
 *   their postconditions on sampled inputs, layout_linear_to_desc() (when it
 *   succeeds) and the tile walk give the same offsets, the printer's length
 *   is consistent;
 * - access: random lane images on a preset arch: the closed-form cost equals
 *   the checker wherever it returns OK, and refuses only unaligned accesses
 *   or width 12;
 * - descriptor: a random descriptor from the test generator (seeded by the
 *   input): layout_desc_to_linear() agrees with the evaluator on every
 *   coordinate or refuses with "not linear over F2". */
#include "layout.h"
#include "fuzz_input.h"
#include "support/rand_desc.h"

static const char *const pool[6] = {"register", "lane", "warp", "block", "offset", "dim0"};

static void ref_apply(const layout_linear *l, uint64_t packed_in, int64_t *out)
{
    for (int j = 0; j < l->n_out; j++) out[j] = 0;
    for (int i = 0; i < l->n_in; i++)
        for (int b = 0; b < l->in_bits[i]; b++)
            /* bits at or above 64 cannot be in packed_in (found by a 240 s run) */
            if (l->in_shift[i] + b < 64 && ((packed_in >> (l->in_shift[i] + b)) & 1)) {
                int64_t v[LAYOUT_LINEAR_MAX_DIMS];
                FUZZ_ASSERT(layout_linear_get_basis(l, i, b, v, NULL) == LAYOUT_OK);
                for (int j = 0; j < l->n_out; j++) out[j] ^= v[j];
            }
}

static void unpack(const layout_linear *l, uint64_t p, int64_t *in)
{
    for (int i = 0; i < l->n_in; i++)
        in[i] = l->in_shift[i] >= 64 ? 0 /* a dim with no bits left below 64 */
                : (int64_t)((p >> l->in_shift[i]) & (l->in_bits[i] >= 64 ? ~0ull : ((1ull << l->in_bits[i]) - 1)));
}

static uint64_t in_mask(const layout_linear *l)
{
    return l->total_in_bits >= 64 ? ~0ull : (1ull << l->total_in_bits) - 1;
}

static void mode_bases(fuzz_in *in)
{
    const char *ins[LAYOUT_LINEAR_MAX_DIMS + 1], *outs[LAYOUT_LINEAR_MAX_DIMS + 1];
    int in_bits[LAYOUT_LINEAR_MAX_DIMS + 1], out_bits[LAYOUT_LINEAR_MAX_DIMS + 1];
    static int64_t bases[70 * (LAYOUT_LINEAR_MAX_DIMS + 1)];
    int n_in = (int)fuzz_range(in, 0, LAYOUT_LINEAR_MAX_DIMS + 1), n_out = (int)fuzz_range(in, 0, LAYOUT_LINEAR_MAX_DIMS + 1);
    int hostile = fuzz_u8(in) < 32, total = 0;
    for (int i = 0; i < n_in; i++) {
        ins[i] = pool[fuzz_range(in, 0, 5)];
        in_bits[i] = hostile ? (int)fuzz_range(in, -1, 64) : (int)fuzz_range(in, 0, 4);
        total += in_bits[i] > 0 ? in_bits[i] : 0;
    }
    for (int j = 0; j < n_out; j++) {
        outs[j] = pool[fuzz_range(in, 0, 5)];
        out_bits[j] = hostile ? (int)fuzz_range(in, -1, 64) : (int)fuzz_range(in, 0, 5);
    }
    int infer = fuzz_u8(in) & 1;
    if (total > 70) total = 70;
    for (int k = 0; k < total * n_out; k++) bases[k] = hostile ? fuzz_i64(in) : (int64_t)fuzz_range(in, 0, 31);
    layout_linear l;
    layout_error err;
    layout_status st = layout_linear_from_bases(&l, n_in, ins, in_bits, bases, n_out, outs, infer ? NULL : out_bits, &err);
    if (st != LAYOUT_OK) {
        FUZZ_ASSERT(st < 0 && err.status == st && err.message[0] != '\0');
        return;
    }
    /* apply = the reference */
    uint64_t mask = in_mask(&l);
    for (int s = 0; s < 8; s++) {
        uint64_t p = fuzz_u64(in) & mask;
        int64_t x[LAYOUT_LINEAR_MAX_DIMS], a[LAYOUT_LINEAR_MAX_DIMS], b[LAYOUT_LINEAR_MAX_DIMS];
        unpack(&l, p, x);
        FUZZ_ASSERT(layout_linear_apply(&l, x, a, NULL) == LAYOUT_OK);
        ref_apply(&l, p, b);
        for (int j = 0; j < l.n_out; j++) FUZZ_ASSERT(a[j] == b[j]);
    }
    int rank = layout_linear_rank(&l);
    FUZZ_ASSERT(rank <= l.total_in_bits && rank <= l.total_out_bits);
    FUZZ_ASSERT(layout_linear_is_injective(&l) == (rank == l.total_in_bits));
    FUZZ_ASSERT(layout_linear_is_surjective(&l) == (rank == l.total_out_bits));
    char buf[256];
    int need = layout_linear_print(&l, buf, sizeof buf);
    FUZZ_ASSERT(need >= 0 && strlen(buf) == (size_t)(need < 255 ? need : 255));
    layout_linear pi, c;
    if (layout_linear_pseudo_invert(&pi, &l, NULL) == LAYOUT_OK) {
        FUZZ_ASSERT(layout_linear_is_surjective(&l));
        /* l(pi(y)) = y: compose and check it is the identity on sampled outputs */
        FUZZ_ASSERT(layout_linear_compose(&c, &pi, &l, NULL) == LAYOUT_OK);
        for (int b = 0; b < c.total_in_bits; b++) FUZZ_ASSERT(c.bases[b] == (1ull << b));
        layout_linear inv;
        if (layout_linear_invert(&inv, &l, NULL) == LAYOUT_OK) {
            FUZZ_ASSERT(layout_linear_is_bijective(&l) && layout_linear_equal(&inv, &pi));
            FUZZ_ASSERT(layout_linear_compose(&c, &l, &inv, NULL) == LAYOUT_OK);
            for (int b = 0; b < c.total_in_bits; b++) FUZZ_ASSERT(c.bases[b] == (1ull << b));
        } else {
            FUZZ_ASSERT(!layout_linear_is_injective(&l));
        }
    } else {
        FUZZ_ASSERT(!layout_linear_is_surjective(&l));
    }
    layout_descriptor d;
    if (layout_linear_to_desc(&l, &d, &err) == LAYOUT_OK) {
        for (int s = 0; s < 8; s++) {
            uint64_t p = fuzz_u64(in) & mask;
            int64_t x[LAYOUT_LINEAR_MAX_DIMS], a[LAYOUT_LINEAR_MAX_DIMS], o = -1;
            unpack(&l, p, x);
            layout_linear_apply(&l, x, a, NULL);
            uint64_t want = layout_linear_apply_packed(&l, p);
            FUZZ_ASSERT(layout_desc_offset(&d, x, &o, NULL) == LAYOUT_OK && (uint64_t)o == want);
        }
        if (l.total_in_bits <= 10) {
            static int64_t tile[1024];
            FUZZ_ASSERT(layout_linear_tile_offsets(&l, tile, 1024, NULL) == LAYOUT_OK);
            layout_linear back;
            FUZZ_ASSERT(layout_desc_to_linear(&d, &back, NULL) == LAYOUT_OK);
            for (uint64_t p = 0; p <= mask; p++) {
                int64_t x[LAYOUT_LINEAR_MAX_DIMS], o = -1;
                unpack(&l, p, x);
                layout_desc_offset(&d, x, &o, NULL);
                FUZZ_ASSERT((uint64_t)o == layout_linear_apply_packed(&l, p));
                FUZZ_ASSERT((uint64_t)o == layout_linear_apply_packed(&back, p));
            }
        }
    } else {
        FUZZ_ASSERT(err.status < 0 && err.message[0] != '\0');
    }
}

static void mode_access(fuzz_in *in)
{
    static const char *const archs[] = {"gfx90a", "gfx942", "gfx950", "gfx950-b32x64", "gfx11", "gfx12", "sm_80", "sm_90"};
    static const int widths[6] = {1, 2, 4, 8, 12, 16};
    layout_arch a;
    FUZZ_ASSERT(layout_arch_preset(archs[fuzz_range(in, 0, 7)], &a, NULL) == LAYOUT_OK);
    layout_linear_access acc;
    memset(&acc, 0, sizeof acc);
    acc.width_bytes = widths[fuzz_range(in, 0, 5)];
    acc.direction = fuzz_u8(in) & 1 ? LAYOUT_WRITE : LAYOUT_READ;
    acc.n_lane_bits = a.wave_size == 64 ? 6 : 5;
    int W = acc.width_bytes;
    for (int b = 0; b < acc.n_lane_bits; b++) {
        uint8_t sel = fuzz_u8(in);
        acc.lane_images[b] = sel < 64 ? 0 : sel < 192 ? (uint32_t)W << (sel % 14) : fuzz_u32(in);
    }
    acc.base_bytes = fuzz_u8(in) < 200 ? (uint32_t)W * (uint32_t)fuzz_range(in, 0, 4096) : fuzz_u32(in);
    layout_instr ins;
    layout_cost lc, cc;
    layout_error err;
    FUZZ_ASSERT(layout_linear_access_instr(&acc, &ins, NULL) == LAYOUT_OK);
    layout_status s2 = layout_instr_cost(&a, &ins, LAYOUT_IMPL_SCALAR, &cc, NULL);
    layout_status s1 = layout_linear_access_cost(&a, &acc, &lc, &err);
    if (s1 == LAYOUT_OK) {
        FUZZ_ASSERT(s2 == LAYOUT_OK && memcmp(&lc, &cc, sizeof lc) == 0);
    } else {
        FUZZ_ASSERT(s1 == LAYOUT_ERR_UNSUPPORTED);
        uint32_t all = acc.base_bytes;
        for (int b = 0; b < acc.n_lane_bits; b++) all |= acc.lane_images[b];
        FUZZ_ASSERT(s2 != LAYOUT_OK || W == 12 || (all & (uint32_t)(W - 1)) != 0);
    }
}

static void mode_desc(fuzz_in *in)
{
    rd_rng r = {fuzz_u64(in) | 1};
    layout_descriptor d;
    if (!rd_random_desc(&r, 3, 1 << 12, &d)) return;
    layout_linear l;
    layout_error err;
    layout_status st = layout_desc_to_linear(&d, &l, &err);
    if (st != LAYOUT_OK) {
        FUZZ_ASSERT(st == LAYOUT_ERR_UNSUPPORTED && strstr(err.message, "not linear over F2") != NULL);
        return;
    }
    int n = layout_desc_ndims(&d);
    int64_t size = layout_desc_size(&d), c[LAYOUT_MAX_DIMS] = {0};
    for (int64_t k = 0; k < size; k++) {
        int64_t want = -1, got = -2;
        int valid = 0;
        layout_desc_offset(&d, c, &want, NULL);
        layout_desc_is_valid(&d, c, &valid, NULL);
        FUZZ_ASSERT(layout_linear_apply(&l, c, &got, NULL) == LAYOUT_OK);
        FUZZ_ASSERT(valid && got == want);
        for (int i = n - 1; i >= 0 && ++c[i] == layout_desc_length(&d, i); i--) c[i] = 0;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    switch (fuzz_u8(&in) % 3) {
    case 0: mode_bases(&in); break;
    case 1: mode_access(&in); break;
    default: mode_desc(&in); break;
    }
    return 0;
}
