/* AVX2 implementation of the phase model (see check.h for the model and
 * lib/check.c for the scalar reference it must equal).
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
 *     OR 1 << (row - min_row) into a 64-bit set per slot; the popcount of a
 *     slot's set is its number of distinct words, and the group's N-way is
 *     the maximum over its slots.  Wider row spans (rare: addresses more than
 *     64 rows apart, e.g. 8 KiB on gfx942) use the scalar reference.
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

static inline __m128i fold128(__m256i v) { return _mm256_extracti128_si256(v, 1); }

static inline uint32_t hor_or(__m256i v)
{
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), fold128(v));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0xB1));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

static inline uint32_t hor_max(__m256i v)
{
    __m128i x = _mm_max_epu32(_mm256_castsi256_si128(v), fold128(v));
    x = _mm_max_epu32(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_max_epu32(x, _mm_shuffle_epi32(x, 0xB1));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

static inline uint32_t hor_min(__m256i v)
{
    __m128i x = _mm_min_epu32(_mm256_castsi256_si128(v), fold128(v));
    x = _mm_min_epu32(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_min_epu32(x, _mm_shuffle_epi32(x, 0xB1));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

static inline uint32_t hor_add(__m256i v)
{
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), fold128(v));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xB1));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

/* Every active lane l has lane l^m active with the same address. */
static int fold_holds(const __m256i *addr, int n_regs, uint64_t active, int m)
{
    const __m256i idx = _mm256_loadu_si256((const __m256i *)xor_index[m & 7]);
    uint64_t eq = 0;
    for (int r = 0; r < n_regs; r++) {
        __m256i partner = _mm256_permutevar8x32_epi32(addr[r ^ (m >> 3)], idx);
        uint32_t e = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(addr[r], partner)));
        eq |= (uint64_t)e << (8 * r);
    }
    return (active & ~(eq & layout_lane_xor_permute(active, m))) == 0;
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

void layout_cost_avx2(const layout_arch *arch, const layout_lane_rule *rule, const layout_checker_rule *prep,
                      const layout_instr *in, layout_cost *out)
{
    const int n_regs = in->n_lanes >> 3;
    const uint64_t active = in->active_mask;
    const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i addr[8], act[8];
    for (int r = 0; r < n_regs; r++) {
        addr[r] = _mm256_loadu_si256((const __m256i *)(in->addr_bytes + 8 * r));
        __m256i b = _mm256_and_si256(_mm256_set1_epi32((int)((active >> (8 * r)) & 0xFF)), lane_bit);
        act[r] = _mm256_cmpeq_epi32(b, lane_bit);
    }

    const uint8_t *gid = prep->gid;
    int n_groups = prep->n_groups;
    out->fold_xor = 0;
    for (int i = 0; i < rule->n_fold_xors; i++)
        if (fold_holds(addr, n_regs, active, rule->fold_xor[i])) {
            gid = prep->fold_gid;
            n_groups = prep->n_fold_groups;
            out->fold_xor = rule->fold_xor[i];
            break;
        }
    out->n_groups = n_groups;
    if (!active) {
        result_no_conflict(out, -1);
        return;
    }

    /* 1. unit size and units per lane */
    const int width = in->width_bytes, bw = arch->bank_width_bytes;
    const int log_bw = bw == 4 ? 2 : 3, log_nb = __builtin_ctz((unsigned)arch->n_banks);
    int log_unit = log_bw, log_nbu = log_nb, k_max = 1;
    __m256i k[8];
    int reducible = width >= bw && (width & (width - 1)) == 0 && (arch->n_banks * bw) % width == 0;
    if (reducible) {
        __m256i mis = _mm256_setzero_si256();
        const __m256i low = _mm256_set1_epi32(width - 1);
        for (int r = 0; r < n_regs; r++) mis = _mm256_or_si256(mis, _mm256_and_si256(_mm256_and_si256(addr[r], low), act[r]));
        reducible = _mm256_testz_si256(mis, mis);
    }
    if (reducible) {
        log_unit = __builtin_ctz((unsigned)width);
        log_nbu = log_nb - (log_unit - log_bw);
    } else {
        const __m256i in_word = _mm256_set1_epi32(bw - 1), span = _mm256_set1_epi32(width - 1);
        __m256i kmax_v = _mm256_setzero_si256();
        for (int r = 0; r < n_regs; r++) {
            /* words touched = ((a % bw) + W - 1) / bw + 1 */
            __m256i kk = _mm256_add_epi32(_mm256_and_si256(addr[r], in_word), span);
            kk = _mm256_add_epi32(_mm256_srl_epi32(kk, _mm_cvtsi32_si128(log_bw)), _mm256_set1_epi32(1));
            k[r] = _mm256_and_si256(kk, act[r]);
            kmax_v = _mm256_max_epu32(kmax_v, k[r]);
        }
        k_max = (int)hor_max(kmax_v);
    }
    const int multi = k_max > 1;
    const __m128i unit_shift = _mm_cvtsi32_si128(log_unit), nbu_shift = _mm_cvtsi32_si128(log_nbu);
    const __m256i bank_mask = _mm256_set1_epi32((1 << log_nbu) - 1);
    const int n_slots = n_groups << log_nbu;
    __m256i key[8], gslot[8];
    for (int r = 0; r < n_regs; r++) {
        key[r] = _mm256_srl_epi32(addr[r], unit_shift);
        __m256i g = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(gid + 8 * r)));
        gslot[r] = _mm256_sll_epi32(g, nbu_shift);
    }

    /* 2. fast path: all units on distinct slots */
    uint32_t occ[8] = {0};
    const int n_words = (n_slots + 31) >> 5;
    const int have_occ = n_slots <= 256;
    if (have_occ) {
        const __m256i one = _mm256_set1_epi32(1);
        uint32_t units;
        __m256i acc[8];
        for (int j = 0; j < 8; j++) acc[j] = _mm256_setzero_si256();
        if (!multi) {
            units = (uint32_t)__builtin_popcountll(active);
            if (n_words <= 2) {
                __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256();
                const __m256i c32 = _mm256_set1_epi32(32);
                for (int r = 0; r < n_regs; r++) {
                    __m256i slot = _mm256_add_epi32(gslot[r], _mm256_and_si256(key[r], bank_mask));
                    lo = _mm256_or_si256(lo, _mm256_and_si256(_mm256_sllv_epi32(one, slot), act[r]));
                    hi = _mm256_or_si256(hi, _mm256_and_si256(_mm256_sllv_epi32(one, _mm256_sub_epi32(slot, c32)), act[r]));
                }
                acc[0] = lo;
                acc[1] = hi;
            } else {
                for (int r = 0; r < n_regs; r++) {
                    __m256i slot = _mm256_add_epi32(gslot[r], _mm256_and_si256(key[r], bank_mask));
                    for (int j = 0; j < n_words; j++)
                        acc[j] = _mm256_or_si256(acc[j], _mm256_and_si256(
                            _mm256_sllv_epi32(one, _mm256_sub_epi32(slot, _mm256_set1_epi32(32 * j))), act[r]));
                }
            }
        } else {
            __m256i sum = _mm256_setzero_si256();
            for (int r = 0; r < n_regs; r++) sum = _mm256_add_epi32(sum, k[r]);
            units = hor_add(sum);
            for (int t = 0; t < k_max; t++) {
                const __m256i tv = _mm256_set1_epi32(t);
                for (int r = 0; r < n_regs; r++) {
                    __m256i valid = _mm256_cmpgt_epi32(k[r], tv);
                    __m256i slot = _mm256_add_epi32(gslot[r], _mm256_and_si256(_mm256_add_epi32(key[r], tv), bank_mask));
                    for (int j = 0; j < n_words; j++)
                        acc[j] = _mm256_or_si256(acc[j], _mm256_and_si256(
                            _mm256_sllv_epi32(one, _mm256_sub_epi32(slot, _mm256_set1_epi32(32 * j))), valid));
                }
            }
        }
        uint32_t pop = 0;
        for (int j = 0; j < n_words; j++) {
            occ[j] = hor_or(acc[j]);
            pop += (uint32_t)__builtin_popcount(occ[j]);
        }
        if (pop == units) {
            result_no_conflict(out, lowest_slot(occ, n_words) >> log_nbu);
            return;
        }
    }

    /* 3. exact path: per-slot row sets */
    __m256i lo_row = _mm256_set1_epi32(-1), hi_row = _mm256_setzero_si256();
    for (int r = 0; r < n_regs; r++) {
        __m256i first = _mm256_srl_epi32(key[r], nbu_shift);
        __m256i last = multi ? _mm256_srl_epi32(_mm256_sub_epi32(_mm256_add_epi32(key[r], k[r]), _mm256_set1_epi32(1)), nbu_shift)
                             : first;
        lo_row = _mm256_min_epu32(lo_row, _mm256_or_si256(first, _mm256_andnot_si256(act[r], _mm256_set1_epi32(-1))));
        hi_row = _mm256_max_epu32(hi_row, _mm256_and_si256(last, act[r]));
    }
    const uint32_t min_row = hor_min(lo_row), max_row = hor_max(hi_row);
    if (max_row - min_row >= 64) {
        layout_cost_detail d;
        layout_cost_scalar(arch, rule, in, &d);
        *out = d.cost;
        return;
    }
    uint32_t slot_of[5 * LAYOUT_MAX_LANES], rel_of[5 * LAYOUT_MAX_LANES];
    const __m256i dummy = _mm256_set1_epi32(n_slots), minv = _mm256_set1_epi32((int)min_row), m63 = _mm256_set1_epi32(63);
    int n_units = 0;
    for (int t = 0; t < k_max; t++) {
        const __m256i tv = _mm256_set1_epi32(t);
        for (int r = 0; r < n_regs; r++, n_units += 8) {
            __m256i valid = multi ? _mm256_cmpgt_epi32(k[r], tv) : act[r];
            __m256i kt = _mm256_add_epi32(key[r], tv);
            __m256i slot = _mm256_add_epi32(gslot[r], _mm256_and_si256(kt, bank_mask));
            __m256i rel = _mm256_and_si256(_mm256_sub_epi32(_mm256_srl_epi32(kt, nbu_shift), minv), m63);
            _mm256_storeu_si256((__m256i *)(slot_of + n_units), _mm256_blendv_epi8(dummy, slot, valid));
            _mm256_storeu_si256((__m256i *)(rel_of + n_units), rel);
        }
    }
    uint64_t rows[LAYOUT_MAX_LANE_GROUPS * LAYOUT_MAX_BANKS + 1];
    int cyc[LAYOUT_MAX_LANE_GROUPS + 1];
    memset(cyc, 0, sizeof cyc);
    rows[n_slots] = 0;
    if (have_occ) {
        for (int j = 0; j < n_words; j++)
            for (uint32_t b = occ[j]; b; b &= b - 1) rows[32 * j + __builtin_ctz(b)] = 0;
    } else {
        for (int u = 0; u < n_units; u++) rows[slot_of[u]] = 0;
    }
    for (int u = 0; u < n_units; u++) rows[slot_of[u]] |= (uint64_t)1 << rel_of[u];
    if (have_occ) {
        for (int j = 0; j < n_words; j++)
            for (uint32_t b = occ[j]; b; b &= b - 1) {
                int s = 32 * j + __builtin_ctz(b), c = __builtin_popcountll(rows[s]), g = s >> log_nbu;
                if (c > cyc[g]) cyc[g] = c;
            }
    } else {
        for (int u = 0; u < n_units; u++) {
            int s = (int)slot_of[u], c = __builtin_popcountll(rows[s]), g = s >> log_nbu;
            if (c > cyc[g]) cyc[g] = c;
        }
    }
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
