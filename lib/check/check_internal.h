/* Private interface between lib/check/check.c (validation, dispatch, scalar
 * reference) and lib/check/check_avx2.c.  Not installed. */
#ifndef LAYOUT_CHECK_INTERNAL_H
#define LAYOUT_CHECK_INTERNAL_H

#include "layout/check.h"

/* Both implementations receive an instruction already validated against the
 * arch (lane count, width supported, active bits) and the prepared rule. */

/* Scalar reference with per-group detail (detail may not be NULL). */
void layout_cost_scalar(const layout_arch *arch, const layout_lane_rule *rule, const layout_instr *instr,
                        layout_cost_detail *detail);

/* AVX2 implementation; only called when layout_check_impl_available(LAYOUT_IMPL_AVX2). */
void layout_cost_avx2(const layout_arch *arch, const layout_lane_rule *rule, const layout_checker_rule *prep,
                      const layout_instr *instr, layout_cost *out);

/* Validate instrs[0..n-1] against the checker's arch, naming the index
 * ("instrs[3]") in messages from function fn. */
layout_status layout_checker_validate_all(const char *fn, const layout_checker *checker, const layout_instr *instrs,
                                          size_t n, layout_error *err);

/* Cost of an instruction already validated against the checker's arch. */
void layout_checker_cost_unchecked(const layout_checker *checker, const layout_instr *instr, layout_cost *out);

/* log2 of the unit-bank count for width-aligned accesses of width_bytes,
 * or -1 when that width cannot be treated as one unit (see check.c). */
int layout_unit_banks_log2(const layout_arch *arch, int width_bytes);

/* 1 when lib/check/check_avx2.c was compiled with AVX2 (not the portable stub). */
int layout_avx2_compiled(void);

/* Inline copies of layout_width_index / layout_lane_mask_all for the
 * per-instruction paths (the public ones live in another translation unit). */
static inline int layout_width_idx_fast(int width_bytes)
{
    static const signed char index_of[17] = {-1, 0, 1, -1, 2, -1, -1, -1, 3, -1, -1, -1, 4, -1, -1, -1, 5};
    return ((unsigned)width_bytes <= 16u) ? index_of[width_bytes] : -1;
}
static inline uint64_t layout_lanes_all_fast(int n_lanes) /* n_lanes is 32 or 64 */
{
    return n_lanes == 64 ? ~(uint64_t)0 : (((uint64_t)1 << (n_lanes & 63)) - 1);
}

/* Lane mask with bit l = bit (l ^ m) of mask: the partner of each lane. */
static inline uint64_t layout_lane_xor_permute(uint64_t mask, int m)
{
    static const uint64_t keep[6] = {0x5555555555555555ull, 0x3333333333333333ull, 0x0F0F0F0F0F0F0F0Full,
                                     0x00FF00FF00FF00FFull, 0x0000FFFF0000FFFFull, 0x00000000FFFFFFFFull};
    for (int b = 0; b < 6; b++)
        if (m & (1 << b)) {
            int sh = 1 << b;
            mask = ((mask & keep[b]) << sh) | ((mask >> sh) & keep[b]);
        }
    return mask;
}

/* Architecture names (arch_names.c), given the preset names by
 * arch_presets.c: the preset a typed name means (case-insensitive preset
 * name, alias, or a gfx target with ROCm features), or NULL; and the
 * closest known name to a typo (the preset it means; *alias = the alias
 * spelled when the closest name is one, else NULL), or NULL when none is
 * close. */
const char *layout_arch_names_resolve(const char *name, const char *const *presets, size_t n_presets);
const char *layout_arch_names_closest(const char *name, const char *const *presets, size_t n_presets,
                                      const char **alias);

#endif /* LAYOUT_CHECK_INTERNAL_H */
