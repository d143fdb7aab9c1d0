/* AVX2 implementation of the phase model (see check.h for the model and
 * lib/check/check.c for the scalar reference it must equal).
 *
 * Idea: give every (group, bank) pair a "slot" number,
 *     slot = group << log2(banks) | bank,
 * so that two accesses can only conflict when they share a slot.  Per lane
 * and per touched unit the slot is computed 8 lanes at a time.
 *
 *  1. Unit reduction: when every active lane is aligned to a power-of-two
 *     width W >= bank width, a lane touches W/bank_width consecutive banks
 *     that no other unit partially overlaps, so the lane is one "unit" of W
 *     bytes on one of banks*bank_width/W "unit banks".  Otherwise a unit is
 *     one bank word and a lane touches 1..5 of them.
 *  2. Fast path: OR one-hot slot bits of all units into a <= 256-bit set;
 *     when its popcount equals the number of units, no two units share a
 *     slot, so every group costs one cycle.
 *  3. Exact path: units sharing a slot differ only in their row
 *     (key >> log2(unit banks)).  When all rows lie within 64 of each other,
 *     a row's residue modulo 64 stands for it; a slot's number of distinct
 *     words is the size of its set of residues, and the group's N-way is the
 *     maximum over its slots.  One unit per lane: the set is gathered by
 *     per-slot compares (few occupied slots) or in a byte map of plain
 *     stores (many).  Several units per lane: 64-bit row sets in memory.
 *     Wider row spans (rare: addresses more than 64 rows apart, e.g. 8 KiB
 *     on gfx942) use the scalar reference.
 *
 * Compiled with -mavx2 on x86; elsewhere this file is a stub that reports
 * itself absent and is never called. */
#include "check_internal.h"

#include <string.h>

#ifdef __AVX2__
#include <immintrin.h>

int layout_avx2_compiled(void) { return 1; }

static const int32_t xor_index[8][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4},
    {4, 5, 6, 7, 0, 1, 2, 3}, {5, 4, 7, 6, 1, 0, 3, 2}, {6, 7, 4, 5, 2, 3, 0, 1}, {7, 6, 5, 4, 3, 2, 1, 0},
};

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE __m128i high128(__m256i v) { return _mm256_extracti128_si256(v, 1); }

/* Horizontal reductions of 8 x u32 to one value. */
#define HOR_REDUCE(name, op)                                      \
    ALWAYS_INLINE uint32_t name(__m256i v)                        \
    {                                                             \
        __m128i x = op(_mm256_castsi256_si128(v), high128(v));    \
        x = op(x, _mm_shuffle_epi32(x, 0x4E));                    \
        x = op(x, _mm_shuffle_epi32(x, 0xB1));                    \
        return (uint32_t)_mm_cvtsi128_si32(x);                    \
    }
HOR_REDUCE(hor_or, _mm_or_si128)
HOR_REDUCE(hor_max, _mm_max_epu32)
HOR_REDUCE(hor_min, _mm_min_epu32)
HOR_REDUCE(hor_add, _mm_add_epi32)
#undef HOR_REDUCE

/* All-ones in the lanes of register r whose active bit is set. */
ALWAYS_INLINE __m256i active_lanes(uint64_t active, int r)
{
    const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i b = _mm256_and_si256(_mm256_set1_epi32((int)((active >> (8 * r)) & 0xFF)), lane_bit);
    return _mm256_cmpeq_epi32(b, lane_bit);
}

ALWAYS_INLINE __m256i load_lanes(const layout_instr *in, int r)
{
    return _mm256_loadu_si256((const __m256i *)(in->addr_bytes + 8 * r));
}

/* gid of register r's lanes, shifted to the first slot of each group. */
ALWAYS_INLINE __m256i group_slot(const uint8_t *gid, int r, __m128i log_nbu)
{
    __m256i g = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(gid + 8 * r)));
    return _mm256_sll_epi32(g, log_nbu);
}

/* Every active lane l whose partner l^m is active has its address. */
static int fold_holds(const layout_instr *in, int m)
{
    if (!in->active_mask) return 1; /* vacuously true, as in the reference */
    /* most instructions fail on their first active lane: check it alone first */
    int l0 = __builtin_ctzll(in->active_mask), p0 = l0 ^ m;
    if (((in->active_mask >> p0) & 1) && in->addr_bytes[p0] != in->addr_bytes[l0]) return 0;
    const __m256i idx = _mm256_loadu_si256((const __m256i *)xor_index[m & 7]);
    const int n_regs = in->n_lanes >> 3;
    uint64_t eq = 0;
    for (int r = 0; r < n_regs; r++) {
        __m256i partner = _mm256_permutevar8x32_epi32(load_lanes(in, r ^ (m >> 3)), idx);
        uint32_t e = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(load_lanes(in, r), partner)));
        eq |= (uint64_t)e << (8 * r);
    }
    return (in->active_mask & layout_lane_xor_permute(in->active_mask, m) & ~eq) == 0;
}

static void result_no_conflict(layout_cost *out, int first_group)
{
    out->extra_cycles = 0;
    out->total_cycles = out->n_groups;
    out->worst_nway = first_group >= 0 ? 1 : 0;
    out->worst_group = first_group;
}

static int lowest_slot(const uint32_t *occ, int n_words)
{
    for (int j = 0; j < n_words; j++)
        if (occ[j]) return 32 * j + __builtin_ctz(occ[j]);
    return -1;
}

/* Parameters of one instruction's unit decomposition. */
typedef struct units {
    const uint8_t *gid; /* lane -> group */
    const uint32_t *unit_slot; /* lane -> group << log_nbu, for reduced units */
    const uint8_t *group_regs; /* group -> registers (8 lanes each) holding its lanes */
    int n_groups;
    int log_unit;       /* unit = 1 << log_unit bytes */
    int log_nbu;        /* 1 << log_nbu unit banks */
    int k_max;          /* most units one lane touches (1 when reduced) */
} units;

/* Fast path for reduced units (one unit per lane) and <= 64 slots, with
 * the register count and "all lanes active" known at compile time so the
 * loop unrolls into registers.  Returns -1 when some active lane is not
 * aligned to the width (no reduction), else 1 when conflict-free, 0 when
 * not (occ then holds the occupied slots). */
ALWAYS_INLINE int fast_reduced(const layout_instr *in, const units *u, int n_regs, int full, uint32_t *occ)
{
    const __m128i ls = _mm_cvtsi32_si128(u->log_unit);
    const __m256i low = _mm256_set1_epi32(in->width_bytes - 1), bank_mask = _mm256_set1_epi32((1 << u->log_nbu) - 1);
    const __m256i one = _mm256_set1_epi32(1), c32 = _mm256_set1_epi32(32);
    __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256(), mis = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int r = 0; r < n_regs; r++) {
        __m256i a = load_lanes(in, r);
        __m256i gs = _mm256_loadu_si256((const __m256i *)(u->unit_slot + 8 * r));
        __m256i slot = _mm256_add_epi32(gs, _mm256_and_si256(_mm256_srl_epi32(a, ls), bank_mask));
        __m256i bl = _mm256_sllv_epi32(one, slot), bh = _mm256_sllv_epi32(one, _mm256_sub_epi32(slot, c32));
        __m256i m = _mm256_and_si256(a, low);
        if (!full) {
            __m256i act = active_lanes(in->active_mask, r);
            bl = _mm256_and_si256(bl, act);
            bh = _mm256_and_si256(bh, act);
            m = _mm256_and_si256(m, act);
        }
        lo = _mm256_or_si256(lo, bl);
        hi = _mm256_or_si256(hi, bh);
        mis = _mm256_or_si256(mis, m);
    }
    if (!_mm256_testz_si256(mis, mis)) return -1;
    occ[0] = hor_or(lo);
    occ[1] = hor_or(hi);
    return (uint32_t)(__builtin_popcount(occ[0]) + __builtin_popcount(occ[1])) ==
           (uint32_t)__builtin_popcountll(in->active_mask);
}

/* Fast path for one word per lane (sub-word or word-aligned accesses that
 * cannot be reduced) and <= 128 slots.  Lanes on one word share it, which
 * the slot count alone would mistake for a conflict, so an active lane
 * whose (group, word) equals that of active lane l-1 or l-8 is not counted:
 * it adds no distinct word.  When the occupied slots then number exactly
 * the counted lanes, every slot holds one distinct word (conflict-free).
 * This catches b8/b16 lanes sharing words and broadcasts; what it misses
 * goes to the exact path.  Returns 1 when conflict-free; fills
 * occ[0..n_words-1] (n_words 2 or 4, a compile-time constant here). */
ALWAYS_INLINE int fast_words(const layout_instr *in, const units *u, int n_regs, int n_words, int full, uint32_t *occ)
{
    const __m128i ls = _mm_cvtsi32_si128(u->log_unit), ln = _mm_cvtsi32_si128(u->log_nbu);
    const __m256i bank_mask = _mm256_set1_epi32((1 << u->log_nbu) - 1), one = _mm256_set1_epi32(1);
    const __m256i c32 = _mm256_set1_epi32(32), c64 = _mm256_set1_epi32(64), c96 = _mm256_set1_epi32(96);
    const __m256i rot = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
    const __m256i not_first = _mm256_setr_epi32(0, -1, -1, -1, -1, -1, -1, -1);
    __m256i w0 = _mm256_setzero_si256(), w1 = w0, w2 = w0, w3 = w0;
    __m256i pkey = w0, pg = w0, pact = w0;
    int dups = 0;
#pragma GCC unroll 8
    for (int r = 0; r < n_regs; r++) {
        __m256i key = _mm256_srl_epi32(load_lanes(in, r), ls);
        __m256i act = full ? _mm256_set1_epi32(-1) : active_lanes(in->active_mask, r);
        __m256i g = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(u->gid + 8 * r)));
        __m256i slot = _mm256_add_epi32(_mm256_sll_epi32(g, ln), _mm256_and_si256(key, bank_mask));
        __m256i b0 = _mm256_sllv_epi32(one, slot), b1 = _mm256_sllv_epi32(one, _mm256_sub_epi32(slot, c32));
        if (!full) b0 = _mm256_and_si256(b0, act), b1 = _mm256_and_si256(b1, act);
        w0 = _mm256_or_si256(w0, b0);
        w1 = _mm256_or_si256(w1, b1);
        if (n_words > 2) {
            __m256i b2 = _mm256_sllv_epi32(one, _mm256_sub_epi32(slot, c64));
            __m256i b3 = _mm256_sllv_epi32(one, _mm256_sub_epi32(slot, c96));
            if (!full) b2 = _mm256_and_si256(b2, act), b3 = _mm256_and_si256(b3, act);
            w2 = _mm256_or_si256(w2, b2);
            w3 = _mm256_or_si256(w3, b3);
        }
        /* lane l-1: rotate by one; element 0 comes from the previous register's element 7 */
        __m256i k1 = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(key, rot), _mm256_permutevar8x32_epi32(pkey, rot), 1);
        __m256i g1 = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(g, rot), _mm256_permutevar8x32_epi32(pg, rot), 1);
        __m256i d1 = _mm256_and_si256(_mm256_cmpeq_epi32(key, k1), _mm256_cmpeq_epi32(g, g1));
        if (!full) {
            __m256i a1 = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(act, rot), _mm256_permutevar8x32_epi32(pact, rot), 1);
            d1 = _mm256_and_si256(d1, a1);
        } else if (r == 0) {
            d1 = _mm256_and_si256(d1, not_first); /* lane 0 has no lane -1 */
        }
        __m256i d = d1;
        if (r > 0) { /* lane l-8: the previous register, same position */
            __m256i d8 = _mm256_and_si256(_mm256_cmpeq_epi32(key, pkey), _mm256_cmpeq_epi32(g, pg));
            if (!full) d8 = _mm256_and_si256(d8, pact);
            d = _mm256_or_si256(d, d8);
        }
        if (!full) d = _mm256_and_si256(d, act);
        dups += __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(d)));
        pkey = key, pg = g, pact = act;
    }
    occ[0] = hor_or(w0), occ[1] = hor_or(w1);
    int pop = __builtin_popcount(occ[0]) + __builtin_popcount(occ[1]);
    if (n_words > 2) {
        occ[2] = hor_or(w2), occ[3] = hor_or(w3);
        pop += __builtin_popcount(occ[2]) + __builtin_popcount(occ[3]);
    }
    return pop == __builtin_popcountll(in->active_mask) - dups;
}

/* The exact paths return 1 where they answered with the scalar reference
 * (which costs idle groups itself), else 0. */
static int exact_one_unit(const layout_arch *arch, const layout_lane_rule *rule, const layout_instr *in,
                          const units *u, const uint32_t *occ, layout_cost *out);
static int exact_path(const layout_arch *arch, const layout_lane_rule *rule, const layout_instr *in,
                      const units *u, const uint32_t *occ, layout_cost *out);

/* The fast path proper: counts a cycle for every group, as AMD does; 1 when
 * the answer came from the scalar reference instead. */
static int cost_native(const layout_arch *arch, const layout_lane_rule *rule, const layout_checker_rule *prep,
                       const layout_instr *in, layout_cost *out)
{
    const uint64_t active = in->active_mask;
    const int n_regs = in->n_lanes >> 3;
    units u;
    u.gid = prep->gid;
    u.unit_slot = prep->unit_slot;
    u.group_regs = prep->group_regs;
    u.n_groups = prep->n_groups;
    out->fold_xor = 0;
    for (int i = 0; i < rule->n_fold_xors; i++)
        if (fold_holds(in, rule->fold_xor[i])) {
            u.gid = prep->fold_gid;
            u.unit_slot = prep->fold_unit_slot;
            u.group_regs = prep->fold_group_regs;
            u.n_groups = prep->n_fold_groups;
            out->fold_xor = rule->fold_xor[i];
            break;
        }
    out->n_groups = u.n_groups;
    if (!active) {
        result_no_conflict(out, -1);
        return 0;
    }

    /* 1. unit reduction: W-aligned lanes, W a power of two >= bank width */
    const int width = in->width_bytes, bw = arch->bank_width_bytes;
    const int log_bw = bw == 4 ? 2 : 3, log_nb = __builtin_ctz((unsigned)arch->n_banks);
    uint32_t occ[8];
    const int reduced_log_nbu = layout_unit_banks_log2(arch, width);
    if (reduced_log_nbu >= 0) {
        u.log_unit = __builtin_ctz((unsigned)width);
        u.log_nbu = reduced_log_nbu;
        u.k_max = 1;
        if ((u.n_groups << u.log_nbu) <= 64) {
            int full = active == layout_lanes_all_fast(in->n_lanes), f;
            if (n_regs == 8) f = full ? fast_reduced(in, &u, 8, 1, occ) : fast_reduced(in, &u, 8, 0, occ);
            else f = full ? fast_reduced(in, &u, 4, 1, occ) : fast_reduced(in, &u, 4, 0, occ);
            if (f == 1) {
                result_no_conflict(out, lowest_slot(occ, 2) >> u.log_nbu);
                return 0;
            }
            if (f == 0) {
                return exact_one_unit(arch, rule, in, &u, occ, out);
                return 0;
            }
        } else {
            __m256i mis = _mm256_setzero_si256();
            const __m256i low = _mm256_set1_epi32(width - 1);
            for (int r = 0; r < n_regs; r++)
                mis = _mm256_or_si256(mis, _mm256_and_si256(_mm256_and_si256(load_lanes(in, r), low), active_lanes(active, r)));
            if (_mm256_testz_si256(mis, mis)) goto general; /* reduced, many slots */
        }
    }
    /* no reduction: a unit is one bank word; a lane touches 1..5 of them */
    u.log_unit = log_bw;
    u.log_nbu = log_nb;
    {
        const __m256i in_word = _mm256_set1_epi32(bw - 1), span = _mm256_set1_epi32(width - 1);
        const __m128i lb = _mm_cvtsi32_si128(log_bw);
        __m256i kmax_v = _mm256_setzero_si256();
        for (int r = 0; r < n_regs; r++) {
            /* words touched = ((a % bw) + W - 1) / bw + 1 */
            __m256i kk = _mm256_add_epi32(_mm256_and_si256(load_lanes(in, r), in_word), span);
            kk = _mm256_add_epi32(_mm256_srl_epi32(kk, lb), _mm256_set1_epi32(1));
            kmax_v = _mm256_max_epu32(kmax_v, _mm256_and_si256(kk, active_lanes(active, r)));
        }
        u.k_max = (int)hor_max(kmax_v);
    }

general:;
    /* 2. fast path, general form: up to 256 slots, k_max units per lane */
    const int n_slots = u.n_groups << u.log_nbu, n_words = (n_slots + 31) >> 5;
    if (n_slots > 256) {
        return exact_path(arch, rule, in, &u, NULL, out);
        return 0;
    }
    if (u.k_max == 1 && n_words <= 4) {
        int f;
        if (active == layout_lanes_all_fast(in->n_lanes))
            f = n_words <= 2 ? (n_regs == 8 ? fast_words(in, &u, 8, 2, 1, occ) : fast_words(in, &u, 4, 2, 1, occ))
                             : (n_regs == 8 ? fast_words(in, &u, 8, 4, 1, occ) : fast_words(in, &u, 4, 4, 1, occ));
        else
            f = n_words <= 2 ? (n_regs == 8 ? fast_words(in, &u, 8, 2, 0, occ) : fast_words(in, &u, 4, 2, 0, occ))
                             : (n_regs == 8 ? fast_words(in, &u, 8, 4, 0, occ) : fast_words(in, &u, 4, 4, 0, occ));
        if (f) result_no_conflict(out, lowest_slot(occ, n_words) >> u.log_nbu);
        else return exact_path(arch, rule, in, &u, occ, out);
        return 0;
    }
    const __m128i ls = _mm_cvtsi32_si128(u.log_unit), ln = _mm_cvtsi32_si128(u.log_nbu);
    const __m256i bank_mask = _mm256_set1_epi32((1 << u.log_nbu) - 1), one = _mm256_set1_epi32(1);
    const __m256i in_word = _mm256_set1_epi32(bw - 1), span = _mm256_set1_epi32(width - 1);
    const __m128i lb = _mm_cvtsi32_si128(log_bw);
    uint32_t units_total = 0, pop = 0;
    for (int j = 0; j < n_words; j++) {
        __m256i acc = _mm256_setzero_si256(), cnt = _mm256_setzero_si256();
        const __m256i base = _mm256_set1_epi32(32 * j);
        for (int r = 0; r < n_regs; r++) {
            __m256i a = load_lanes(in, r), act = active_lanes(active, r);
            __m256i key = _mm256_srl_epi32(a, ls), gs = group_slot(u.gid, r, ln);
            __m256i k = one;
            if (u.k_max > 1) {
                k = _mm256_add_epi32(_mm256_and_si256(a, in_word), span);
                k = _mm256_add_epi32(_mm256_srl_epi32(k, lb), one);
            }
            k = _mm256_and_si256(k, act);
            if (j == 0) cnt = _mm256_add_epi32(cnt, k);
            for (int t = 0; t < u.k_max; t++) {
                const __m256i tv = _mm256_set1_epi32(t);
                __m256i slot = _mm256_add_epi32(gs, _mm256_and_si256(_mm256_add_epi32(key, tv), bank_mask));
                acc = _mm256_or_si256(acc, _mm256_and_si256(_mm256_sllv_epi32(one, _mm256_sub_epi32(slot, base)),
                                                            _mm256_cmpgt_epi32(k, tv)));
            }
        }
        if (j == 0) units_total = hor_add(cnt);
        occ[j] = hor_or(acc);
        pop += (uint32_t)__builtin_popcount(occ[j]);
    }
    if (pop == units_total) {
        result_no_conflict(out, lowest_slot(occ, n_words) >> u.log_nbu);
        return 0;
    }
    return exact_path(arch, rule, in, &u, occ, out);
}

void layout_cost_avx2(const layout_arch *arch, const layout_lane_rule *rule, const layout_checker_rule *prep,
                      const layout_instr *in, layout_cost *out)
{
    if (cost_native(arch, rule, prep, in, out) || arch->idle_group_cycles ||
        in->active_mask == layout_lanes_all_fast(in->n_lanes))
        return;
    /* NVIDIA: a group without an active lane costs no cycle */
    const uint64_t *groups = out->fold_xor ? rule->fold_groups : rule->groups;
    for (int g = 0; g < out->n_groups; g++) out->total_cycles -= !(groups[g] & in->active_mask);
}

/* extra / total / worst from the per-group N-ways. */
ALWAYS_INLINE void summarize(const int *cyc, int n_groups, layout_cost *out)
{
    int extra = 0, worst = 0, worst_group = -1;
    for (int g = 0; g < n_groups; g++) {
        if (cyc[g] > 1) extra += cyc[g] - 1;
        if (cyc[g] > worst) worst = cyc[g], worst_group = g;
    }
    out->extra_cycles = extra;
    out->total_cycles = n_groups + extra;
    out->worst_nway = worst;
    out->worst_group = worst_group;
}

/* Zero the 8 partial row sets of every occupied slot and of the dummy slot. */
ALWAYS_INLINE void clear_slots(uint64_t *rows, const uint32_t *occ, int n_words, int n_slots)
{
    const __m256i zero = _mm256_setzero_si256();
    _mm256_storeu_si256((__m256i *)(rows + 8 * n_slots), zero);
    _mm256_storeu_si256((__m256i *)(rows + 8 * n_slots + 4), zero);
    for (int j = 0; j < n_words; j++)
        for (uint32_t b = occ[j]; b; b &= b - 1) {
            int s = 32 * j + __builtin_ctz(b);
            _mm256_storeu_si256((__m256i *)(rows + 8 * s), zero);
            _mm256_storeu_si256((__m256i *)(rows + 8 * s + 4), zero);
        }
}

/* N-way of each group from per-slot row sets: rows[] holds 8 partial sets
 * per occupied slot (see exact_path). */
ALWAYS_INLINE void finish_from_rows(const uint64_t *rows, const uint32_t *occ, int n_words, int log_nbu,
                                    int n_groups, layout_cost *out)
{
    int cyc[LAYOUT_MAX_LANE_GROUPS + 1];
    memset(cyc, 0, sizeof cyc);
    for (int j = 0; j < n_words; j++)
        for (uint32_t b = occ[j]; b; b &= b - 1) {
            int s = 32 * j + __builtin_ctz(b);
            __m256i v = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(rows + 8 * s)),
                                        _mm256_loadu_si256((const __m256i *)(rows + 8 * s + 4)));
            __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), high128(v));
            x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
            int c = __builtin_popcountll((uint64_t)_mm_cvtsi128_si64(x)), g = s >> log_nbu;
            if (c > cyc[g]) cyc[g] = c;
        }
    summarize(cyc, n_groups, out);
}

/* Per-lane data of one unit per lane for the exact path (inactive lanes get
 * the dummy slot n_slots): the slot, id = slot * 64 + (row mod 64), and the
 * row residue as a one-hot 64-bit set split in 32-bit halves (lo: residues
 * 0..31, hi: 32..63; the other half is 0). */
typedef struct lane_units {
    uint32_t slot[LAYOUT_MAX_LANES];
    uint32_t id[LAYOUT_MAX_LANES];
    uint32_t lo[LAYOUT_MAX_LANES];
    uint32_t hi[LAYOUT_MAX_LANES];
} lane_units;

/* Fill lu for n_regs registers of lanes (n_regs and full, "all lanes
 * active", are compile-time constants at each call site, so the loop
 * unrolls).  Returns the row span, max - min over active lanes. */
ALWAYS_INLINE uint32_t build_lane_units(const layout_instr *in, const units *u, int n_regs, int full, lane_units *lu)
{
    const __m128i ls = _mm_cvtsi32_si128(u->log_unit), ln = _mm_cvtsi32_si128(u->log_nbu);
    const __m256i bank_mask = _mm256_set1_epi32((1 << u->log_nbu) - 1), m63 = _mm256_set1_epi32(63);
    const __m256i ones = _mm256_set1_epi32(-1), one = _mm256_set1_epi32(1), c32 = _mm256_set1_epi32(32);
    const __m256i dummy = _mm256_set1_epi32(u->n_groups << u->log_nbu);
    __m256i lo_row = ones, hi_row = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int r = 0; r < n_regs; r++) {
        __m256i key = _mm256_srl_epi32(load_lanes(in, r), ls), row = _mm256_srl_epi32(key, ln);
        __m256i slot = _mm256_add_epi32(group_slot(u->gid, r, ln), _mm256_and_si256(key, bank_mask));
        __m256i rel = _mm256_and_si256(row, m63);
        if (full) {
            lo_row = _mm256_min_epu32(lo_row, row);
            hi_row = _mm256_max_epu32(hi_row, row);
        } else {
            __m256i act = active_lanes(in->active_mask, r);
            lo_row = _mm256_min_epu32(lo_row, _mm256_or_si256(row, _mm256_andnot_si256(act, ones)));
            hi_row = _mm256_max_epu32(hi_row, _mm256_and_si256(row, act));
            slot = _mm256_blendv_epi8(dummy, slot, act);
        }
        _mm256_storeu_si256((__m256i *)(lu->slot + 8 * r), slot);
        _mm256_storeu_si256((__m256i *)(lu->id + 8 * r), _mm256_or_si256(_mm256_slli_epi32(slot, 6), rel));
        _mm256_storeu_si256((__m256i *)(lu->lo + 8 * r), _mm256_sllv_epi32(one, rel));
        _mm256_storeu_si256((__m256i *)(lu->hi + 8 * r), _mm256_sllv_epi32(one, _mm256_sub_epi32(rel, c32)));
    }
    return hor_max(hi_row) - hor_min(lo_row);
}

/* Group results from per-slot distinct-word counts delivered in increasing
 * slot order (so one group's slots are consecutive): a running maximum of
 * the current group instead of a per-group array. */
typedef struct group_max {
    int cur_g, cur, extra, worst, worst_group;
} group_max;

ALWAYS_INLINE void group_max_add(group_max *m, int g, int c)
{
    if (g != m->cur_g) {
        m->extra += m->cur > 1 ? m->cur - 1 : 0;
        if (m->cur > m->worst) m->worst = m->cur, m->worst_group = m->cur_g;
        m->cur_g = g, m->cur = c;
    } else if (c > m->cur) {
        m->cur = c;
    }
}

ALWAYS_INLINE void group_max_finish(group_max *m, int n_groups, layout_cost *out)
{
    group_max_add(m, -2, 0); /* flush the last group */
    out->extra_cycles = m->extra;
    out->total_cycles = n_groups + m->extra;
    out->worst_nway = m->worst;
    out->worst_group = m->worst_group;
}

/* Exact path for one unit per lane and <= 256 slots (occ: the occupied
 * slots).  A row's residue modulo 64 stands for the row: distinct rows less
 * than 64 apart have distinct residues, and the span is checked (wider:
 * scalar reference).  With few occupied slots (the heavily conflicted case)
 * each slot's row set is the OR of the one-hot halves of its lanes, found by
 * compares over only the registers holding its group's lanes.  With many,
 * each slot owns 64 bytes of a byte map, one per row residue: every lane
 * stores 0x80 at (slot, residue) -- plain stores, no read-modify-write
 * chains between lanes of one slot -- and a slot's distinct words are the
 * set bytes of its 64, two movemasks. */
static __attribute__((noinline)) int exact_one_unit(const layout_arch *arch, const layout_lane_rule *rule,
                                                    const layout_instr *in, const units *u, const uint32_t *occ,
                                                    layout_cost *out)
{
    const int n_regs = in->n_lanes >> 3, log_nbu = u->log_nbu, n_groups = u->n_groups;
    const int n_slots = n_groups << log_nbu, n_words = (n_slots + 31) >> 5;
    lane_units lu;
    uint32_t span;
    if (in->active_mask == layout_lanes_all_fast(in->n_lanes))
        span = n_regs == 8 ? build_lane_units(in, u, 8, 1, &lu) : build_lane_units(in, u, 4, 1, &lu);
    else
        span = n_regs == 8 ? build_lane_units(in, u, 8, 0, &lu) : build_lane_units(in, u, 4, 0, &lu);
    if (span >= 64) {
        layout_cost_detail d;
        layout_cost_scalar(arch, rule, in, &d);
        *out = d.cost;
        return 1;
    }
    int n_occ = 0;
    for (int j = 0; j < n_words; j++) n_occ += __builtin_popcount(occ[j]);
    group_max gm = {-1, 0, 0, 0, -1};
    if (n_occ <= 16) {
        for (int j = 0; j < n_words; j++)
            for (uint32_t b = occ[j]; b; b &= b - 1) {
                int s = 32 * j + __builtin_ctz(b), g = s >> log_nbu;
                const __m256i sv = _mm256_set1_epi32(s);
                __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256();
                for (unsigned rm = u->group_regs[g]; rm; rm &= rm - 1) {
                    int r = __builtin_ctz(rm);
                    __m256i m = _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(lu.slot + 8 * r)), sv);
                    lo = _mm256_or_si256(lo, _mm256_and_si256(m, _mm256_loadu_si256((const __m256i *)(lu.lo + 8 * r))));
                    hi = _mm256_or_si256(hi, _mm256_and_si256(m, _mm256_loadu_si256((const __m256i *)(lu.hi + 8 * r))));
                }
                /* interleave the halves into 64-bit sets, then OR the four */
                __m256i x = _mm256_or_si256(_mm256_unpacklo_epi32(lo, hi), _mm256_unpackhi_epi32(lo, hi));
                __m128i y = _mm_or_si128(_mm256_castsi256_si128(x), high128(x));
                y = _mm_or_si128(y, _mm_unpackhi_epi64(y, y));
                group_max_add(&gm, g, __builtin_popcountll((uint64_t)_mm_cvtsi128_si64(y)));
            }
        group_max_finish(&gm, n_groups, out);
        return 0;
    }
    _Alignas(32) uint8_t map[(256 + 1) * 64];
    const __m256i zero = _mm256_setzero_si256();
    _mm256_store_si256((__m256i *)(map + 64 * n_slots), zero);
    _mm256_store_si256((__m256i *)(map + 64 * n_slots + 32), zero);
    for (int j = 0; j < n_words; j++)
        for (uint32_t b = occ[j]; b; b &= b - 1) {
            int s = 32 * j + __builtin_ctz(b);
            _mm256_store_si256((__m256i *)(map + 64 * s), zero);
            _mm256_store_si256((__m256i *)(map + 64 * s + 32), zero);
        }
    if (n_regs == 8) {
#pragma GCC unroll 64
        for (int i = 0; i < 64; i++) map[lu.id[i]] = 0x80;
    } else {
#pragma GCC unroll 32
        for (int i = 0; i < 32; i++) map[lu.id[i]] = 0x80;
    }
    for (int j = 0; j < n_words; j++)
        for (uint32_t b = occ[j]; b; b &= b - 1) {
            int s = 32 * j + __builtin_ctz(b);
            uint32_t m0 = (uint32_t)_mm256_movemask_epi8(_mm256_load_si256((const __m256i *)(map + 64 * s)));
            uint32_t m1 = (uint32_t)_mm256_movemask_epi8(_mm256_load_si256((const __m256i *)(map + 64 * s + 32)));
            group_max_add(&gm, s >> log_nbu, __builtin_popcount(m0) + __builtin_popcount(m1));
        }
    group_max_finish(&gm, n_groups, out);
    return 0;
}

/* 3. exact path: per-slot row sets.  With <= 256 slots, the unit of lane
 * l ORs its row bit into rows[slot * 8 + l % 8], so consecutive lanes on one
 * slot do not wait on each other's read-modify-write; the 8 partial sets
 * of a slot are ORed at the end. */
static __attribute__((noinline)) int exact_path(const layout_arch *arch, const layout_lane_rule *rule,
                                                const layout_instr *in, const units *u, const uint32_t *occ,
                                                layout_cost *out)
{
    if (u->k_max == 1 && occ) return exact_one_unit(arch, rule, in, u, occ, out);
    const int n_regs = in->n_lanes >> 3, k_max = u->k_max, log_nbu = u->log_nbu, n_groups = u->n_groups;
    const int n_slots = n_groups << log_nbu, n_words = (n_slots + 31) >> 5;
    const int bw = arch->bank_width_bytes;
    const __m128i ls = _mm_cvtsi32_si128(u->log_unit), ln = _mm_cvtsi32_si128(log_nbu);
    const __m128i lb = _mm_cvtsi32_si128(bw == 4 ? 2 : 3);
    const __m256i bank_mask = _mm256_set1_epi32((1 << log_nbu) - 1), one = _mm256_set1_epi32(1);
    const __m256i in_word = _mm256_set1_epi32(bw - 1), span = _mm256_set1_epi32(in->width_bytes - 1);
    __m256i key[8], k[8];

    /* rows of all units; the set trick needs them within 64 of each other */
    __m256i lo_row = _mm256_set1_epi32(-1), hi_row = _mm256_setzero_si256();
    for (int r = 0; r < n_regs; r++) {
        __m256i a = load_lanes(in, r), act = active_lanes(in->active_mask, r);
        key[r] = _mm256_srl_epi32(a, ls);
        k[r] = one;
        if (k_max > 1) {
            k[r] = _mm256_add_epi32(_mm256_and_si256(a, in_word), span);
            k[r] = _mm256_add_epi32(_mm256_srl_epi32(k[r], lb), one);
        }
        k[r] = _mm256_and_si256(k[r], act);
        __m256i first = _mm256_srl_epi32(key[r], ln);
        __m256i last = _mm256_srl_epi32(_mm256_sub_epi32(_mm256_add_epi32(key[r], k[r]), one), ln);
        lo_row = _mm256_min_epu32(lo_row, _mm256_or_si256(first, _mm256_andnot_si256(act, _mm256_set1_epi32(-1))));
        hi_row = _mm256_max_epu32(hi_row, _mm256_and_si256(last, act));
    }
    const uint32_t min_row = hor_min(lo_row), max_row = hor_max(hi_row);
    if (max_row - min_row >= 64) {
        layout_cost_detail d;
        layout_cost_scalar(arch, rule, in, &d);
        *out = d.cost;
        return 1;
    }

    /* With <= 256 slots (occ known) each slot gets 8 partial sets, indexed
     * slot * 8 + lane % 8; beyond that one set per slot.  Absent units go
     * to the dummy slot n_slots. */
    const int split = occ != NULL;
    uint32_t idx_of[5 * LAYOUT_MAX_LANES], rel_of[5 * LAYOUT_MAX_LANES];
    const __m256i dummy = _mm256_set1_epi32(n_slots), minv = _mm256_set1_epi32((int)min_row);
    const __m256i m63 = _mm256_set1_epi32(63);
    const __m256i pos = split ? _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7) : _mm256_setzero_si256();
    const __m128i split_shift = _mm_cvtsi32_si128(split ? 3 : 0);
    int n_units = 0;
    for (int t = 0; t < k_max; t++) {
        const __m256i tv = _mm256_set1_epi32(t);
        for (int r = 0; r < n_regs; r++, n_units += 8) {
            __m256i kt = _mm256_add_epi32(key[r], tv);
            __m256i slot = _mm256_add_epi32(group_slot(u->gid, r, ln), _mm256_and_si256(kt, bank_mask));
            slot = _mm256_blendv_epi8(dummy, slot, _mm256_cmpgt_epi32(k[r], tv));
            __m256i rel = _mm256_and_si256(_mm256_sub_epi32(_mm256_srl_epi32(kt, ln), minv), m63);
            _mm256_storeu_si256((__m256i *)(idx_of + n_units), _mm256_or_si256(_mm256_sll_epi32(slot, split_shift), pos));
            _mm256_storeu_si256((__m256i *)(rel_of + n_units), rel);
        }
    }

    uint64_t rows[(256 + 1) * 8]; /* also holds 1024 + 1 unsplit sets */
    if (split) {
        clear_slots(rows, occ, n_words, n_slots);
#pragma GCC unroll 8
        for (int i = 0; i < n_units; i++) rows[idx_of[i]] |= (uint64_t)1 << rel_of[i];
        finish_from_rows(rows, occ, n_words, log_nbu, n_groups, out);
        return 0;
    }
    int cyc[LAYOUT_MAX_LANE_GROUPS + 1];
    memset(cyc, 0, sizeof cyc);
    rows[n_slots] = 0;
    for (int i = 0; i < n_units; i++) rows[idx_of[i]] = 0;
    for (int i = 0; i < n_units; i++) rows[idx_of[i]] |= (uint64_t)1 << rel_of[i];
    for (int i = 0; i < n_units; i++) {
        int s = (int)idx_of[i], c = __builtin_popcountll(rows[s]), g = s >> log_nbu;
        if (c > cyc[g]) cyc[g] = c;
    }
    summarize(cyc, n_groups, out);
    return 0;
}

#else /* !__AVX2__: portable stub, never called (layout_avx2_compiled() == 0) */

int layout_avx2_compiled(void) { return 0; }

void layout_cost_avx2(const layout_arch *arch, const layout_lane_rule *rule, const layout_checker_rule *prep,
                      const layout_instr *in, layout_cost *out)
{
    layout_cost_detail d;
    (void)prep;
    layout_cost_scalar(arch, rule, in, &d);
    *out = d.cost;
}

#endif
