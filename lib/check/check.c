/* The phase model: validation, implementation dispatch and the scalar
 * reference.  The reference is written to read like docs/lds-model.md §3; every
 * fast path is tested against it. */
#include "check_internal.h"
#include "../core/internal.h"

#include <stdio.h>
#include <string.h>

/* ---- scalar reference ------------------------------------------------ */

/* Largest number of words one group can touch: 64 lanes x 5 words (a 16-byte
 * access at a 4-byte bank width, not 4-byte aligned). */
#define MAX_GROUP_WORDS (LAYOUT_MAX_LANES * 5)

/* Fold rule: every active lane l whose partner l^m is active has the
 * partner's address (an inactive partner does not stop the fold: measured,
 * tests/fixtures/h100/partial). */
static int fold_holds(const layout_instr *in, int m)
{
    for (int l = 0; l < in->n_lanes; l++) {
        if (!((in->active_mask >> l) & 1)) continue;
        int p = l ^ m;
        if (p >= in->n_lanes || !((in->active_mask >> p) & 1)) continue;
        if (in->addr_bytes[p] != in->addr_bytes[l]) return 0;
    }
    return 1;
}

/* One group: count, for every bank, the distinct words its active lanes
 * touch; the busiest bank decides the group's cycles. */
static void cost_group(const layout_arch *arch, const layout_instr *in, layout_group_cost *gc)
{
    /* bank width and count are powers of two (validated), so the model's
     * word = a / bank_width and bank = word % n_banks become shifts/masks */
    const int log_bw = __builtin_ctz((unsigned)arch->bank_width_bytes);
    const uint64_t bank_mask = (uint64_t)arch->n_banks - 1;
    uint32_t word[MAX_GROUP_WORDS];
    int first_lane[MAX_GROUP_WORDS], next_on_bank[MAX_GROUP_WORDS];
    int head[LAYOUT_MAX_BANKS], count[LAYOUT_MAX_BANKS];
    int n_words = 0;
    for (int b = 0; b < arch->n_banks; b++) head[b] = -1, count[b] = 0;

    for (int l = 0; l < in->n_lanes; l++) {
        if (!((gc->active >> l) & 1)) continue;
        uint64_t a = in->addr_bytes[l];
        for (uint64_t w = a >> log_bw; w <= (a + (uint64_t)in->width_bytes - 1) >> log_bw; w++) {
            int b = (int)(w & bank_mask), i = head[b];
            while (i >= 0 && word[i] != (uint32_t)w) i = next_on_bank[i];
            if (i >= 0) continue; /* same word: shared (broadcast / merged write) */
            word[n_words] = (uint32_t)w;
            first_lane[n_words] = l;
            next_on_bank[n_words] = head[b];
            head[b] = n_words++;
            count[b]++;
        }
    }

    gc->nway = 0;
    gc->worst_bank = -1;
    for (int b = 0; b < arch->n_banks; b++)
        if (count[b] > gc->nway) gc->nway = count[b], gc->worst_bank = b;
    gc->cycles = gc->nway > 1 ? gc->nway : 1;
    gc->bank_lanes = gc->way_lanes = 0;
    if (gc->worst_bank < 0) return;
    for (int i = head[gc->worst_bank]; i >= 0; i = next_on_bank[i])
        gc->way_lanes |= (uint64_t)1 << first_lane[i];
    for (int l = 0; l < in->n_lanes; l++) {
        if (!((gc->active >> l) & 1)) continue;
        uint64_t a = in->addr_bytes[l];
        for (uint64_t w = a >> log_bw; w <= (a + (uint64_t)in->width_bytes - 1) >> log_bw; w++)
            if ((int)(w & bank_mask) == gc->worst_bank) gc->bank_lanes |= (uint64_t)1 << l;
    }
}

void layout_cost_scalar(const layout_arch *arch, const layout_lane_rule *rule, const layout_instr *in,
                        layout_cost_detail *d)
{
    const uint64_t *groups = rule->groups;
    int n_groups = rule->n_groups;
    memset(d, 0, sizeof *d);
    for (int i = 0; i < rule->n_fold_xors; i++)
        if (fold_holds(in, rule->fold_xor[i])) {
            groups = rule->fold_groups;
            n_groups = rule->n_fold_groups;
            d->cost.fold_xor = rule->fold_xor[i];
            break;
        }
    d->cost.n_groups = n_groups;
    d->cost.worst_group = -1;
    for (int g = 0; g < n_groups; g++) {
        layout_group_cost *gc = &d->groups[g];
        gc->lanes = groups[g];
        gc->active = groups[g] & in->active_mask;
        cost_group(arch, in, gc);
        if (!gc->active) gc->cycles = arch->idle_group_cycles; /* 1 on AMD, 0 on NVIDIA */
        d->cost.extra_cycles += gc->cycles > 1 ? gc->cycles - 1 : 0;
        d->cost.total_cycles += gc->cycles;
        if (gc->nway > d->cost.worst_nway) d->cost.worst_nway = gc->nway, d->cost.worst_group = g;
    }
}

/* ---- implementation selection ---------------------------------------- */

static int cpu_has_avx2(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
           __builtin_cpu_supports("popcnt");
#else
    return 0;
#endif
}

const char *layout_check_impl_name(layout_check_impl impl)
{
    switch (impl) {
    case LAYOUT_IMPL_AUTO: return "auto";
    case LAYOUT_IMPL_SCALAR: return "scalar";
    case LAYOUT_IMPL_AVX2: return "avx2";
    }
    return "?";
}

int layout_check_impl_available(layout_check_impl impl)
{
    switch (impl) {
    case LAYOUT_IMPL_AUTO:
    case LAYOUT_IMPL_SCALAR: return 1;
    case LAYOUT_IMPL_AVX2: return layout_avx2_compiled() && cpu_has_avx2();
    }
    return 0;
}

layout_check_impl layout_check_impl_best(void)
{
    return layout_check_impl_available(LAYOUT_IMPL_AVX2) ? LAYOUT_IMPL_AVX2 : LAYOUT_IMPL_SCALAR;
}

static layout_status resolve_impl(const char *fn, layout_check_impl impl, layout_check_impl *out,
                                  layout_error *err)
{
    switch (impl) {
    case LAYOUT_IMPL_AUTO: *out = layout_check_impl_best(); return LAYOUT_OK;
    case LAYOUT_IMPL_SCALAR: *out = LAYOUT_IMPL_SCALAR; return LAYOUT_OK;
    case LAYOUT_IMPL_AVX2:
        if (!layout_check_impl_available(LAYOUT_IMPL_AVX2))
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "%s: impl = avx2 is not available (build without AVX2 or CPU lacks it)", fn);
        *out = LAYOUT_IMPL_AVX2;
        return LAYOUT_OK;
    }
    return layout_fail(err, LAYOUT_ERR_ARG, "%s: impl = %d is not a layout_check_impl", fn, (int)impl);
}

/* ---- validation and preparation --------------------------------------- */

/* log2 of the number of "unit banks" when every lane is aligned to its
 * width W (a power of two >= bank width dividing the bank row): a lane then
 * covers W / bank_width whole banks, so units of W bytes on
 * n_banks * bank_width / W unit banks behave like single words.  -1 when
 * the width does not allow it. */
int layout_unit_banks_log2(const layout_arch *arch, int width_bytes)
{
    int bw = arch->bank_width_bytes, row = arch->n_banks * bw;
    if (width_bytes < bw || (width_bytes & (width_bytes - 1)) || (row & (width_bytes - 1))) return -1;
    return __builtin_ctz((unsigned)(row / width_bytes));
}

static void prepare_rule(const layout_arch *arch, int width_bytes, const layout_lane_rule *r, layout_checker_rule *p)
{
    memset(p, 0, sizeof *p);
    p->supported = r->supported;
    if (!r->supported) return;
    int shift = layout_unit_banks_log2(arch, width_bytes);
    if (shift < 0) shift = 0;
    p->n_groups = r->n_groups;
    for (int g = 0; g < r->n_groups; g++)
        for (int l = 0; l < LAYOUT_MAX_LANES; l++)
            if ((r->groups[g] >> l) & 1) {
                p->gid[l] = (uint8_t)g, p->unit_slot[l] = (uint32_t)g << shift;
                p->group_regs[g] |= (uint8_t)(1u << (l >> 3));
            }
    if (r->n_fold_xors) {
        p->n_fold_groups = r->n_fold_groups;
        for (int g = 0; g < r->n_fold_groups; g++)
            for (int l = 0; l < LAYOUT_MAX_LANES; l++)
                if ((r->fold_groups[g] >> l) & 1) {
                    p->fold_gid[l] = (uint8_t)g, p->fold_unit_slot[l] = (uint32_t)g << shift;
                    p->fold_group_regs[g] |= (uint8_t)(1u << (l >> 3));
                }
    }
}

/* Validate instr against arch; `what` names it in messages ("instr",
 * "instrs[3]"). */
static layout_status check_instr(const char *fn, const char *what, const layout_arch *arch,
                                 const layout_instr *in, layout_error *err)
{
    if (!in) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, what);
    if (in->n_lanes != 32 && in->n_lanes != 64)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s.n_lanes = %d must be 32 or 64", fn, what, in->n_lanes);
    int w = layout_width_index(in->width_bytes);
    if (w < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s.width_bytes = %d must be 1, 2, 4, 8, 12 or 16", fn, what,
                           in->width_bytes);
    if (in->direction != LAYOUT_READ && in->direction != LAYOUT_WRITE)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s.direction = %d must be LAYOUT_READ or LAYOUT_WRITE", fn,
                           what, (int)in->direction);
    if (in->active_mask & ~layout_lane_mask_all(in->n_lanes))
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s.active_mask = 0x%llx has bits at or above n_lanes = %d",
                           fn, what, (unsigned long long)in->active_mask, in->n_lanes);
    if (in->n_lanes != arch->wave_size)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: %s.n_lanes = %d differs from %.31s's wave size %d", fn,
                           what, in->n_lanes, arch->name, arch->wave_size);
    if (!arch->rules[in->direction][w].supported)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %s.width_bytes = %d: %.31s has no %s b%d instruction",
                           fn, what, in->width_bytes, arch->name, layout_direction_name(in->direction),
                           in->width_bytes * 8);
    return LAYOUT_OK;
}

layout_status layout_checker_init(layout_checker *out, const layout_arch *arch, layout_check_impl impl,
                                  layout_error *err)
{
    static const char fn[] = "layout_checker_init";
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: arch is NULL", fn);
    layout_check_impl resolved = LAYOUT_IMPL_SCALAR; /* set by resolve_impl; gcc -O3 cannot tell */
    layout_status st = resolve_impl(fn, impl, &resolved, err);
    if (st) return st;
    st = layout_arch_validate(arch, err);
    if (st) return st;
    out->arch = arch;
    out->impl = resolved;
    for (int d = 0; d < 2; d++)
        for (int w = 0; w < LAYOUT_N_WIDTHS; w++)
            prepare_rule(arch, layout_width_from_index(w), &arch->rules[d][w], &out->rules[d][w]);
    return layout_ok(err);
}

/* Width index of an instruction that passed validation (never -1; the clamp
 * only tells the compiler so). */
static inline int validated_width_idx(const layout_instr *in)
{
    int w = layout_width_idx_fast(in->width_bytes);
    return w < 0 ? 0 : w;
}

static void cost_one(const layout_arch *arch, layout_check_impl impl, const layout_checker_rule *prep,
                     const layout_instr *in, layout_cost *out)
{
    const layout_lane_rule *rule = &arch->rules[in->direction][validated_width_idx(in)];
    if (impl == LAYOUT_IMPL_AVX2) {
        layout_cost_avx2(arch, rule, prep, in, out);
    } else {
        layout_cost_detail d;
        layout_cost_scalar(arch, rule, in, &d);
        *out = d.cost;
    }
}

static const layout_checker_rule *prep_of(const layout_checker *c, const layout_instr *in)
{
    return &c->rules[in->direction][validated_width_idx(in)];
}

layout_status layout_checker_cost(const layout_checker *checker, const layout_instr *instr, layout_cost *out,
                                  layout_error *err)
{
    static const char fn[] = "layout_checker_cost";
    if (!checker || !checker->arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: checker is NULL", fn);
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    layout_status st = check_instr(fn, "instr", checker->arch, instr, err);
    if (st) return st;
    cost_one(checker->arch, checker->impl, prep_of(checker, instr), instr, out);
    return layout_ok(err);
}

layout_status layout_checker_validate_all(const char *fn, const layout_checker *checker, const layout_instr *instrs,
                                          size_t n, layout_error *err)
{
    if (!instrs && n) return layout_fail(err, LAYOUT_ERR_NULL, "%s: instrs is NULL with n = %zu", fn, n);
    for (size_t i = 0; i < n; i++) {
        const layout_instr *in = &instrs[i];
        int w = layout_width_idx_fast(in->width_bytes);
        if (in->n_lanes == checker->arch->wave_size && w >= 0 &&
            (in->direction == LAYOUT_READ || in->direction == LAYOUT_WRITE) &&
            !(in->active_mask & ~layout_lanes_all_fast(in->n_lanes)) && checker->rules[in->direction][w].supported)
            continue; /* the common, valid case without formatting a name */
        char what[40];
        snprintf(what, sizeof what, "instrs[%zu]", i);
        layout_status st = check_instr(fn, what, checker->arch, in, err);
        if (st) return st;
    }
    return LAYOUT_OK;
}

void layout_checker_cost_unchecked(const layout_checker *checker, const layout_instr *instr, layout_cost *out)
{
    cost_one(checker->arch, checker->impl, prep_of(checker, instr), instr, out);
}

layout_status layout_checker_cost_batch(const layout_checker *checker, const layout_instr *instrs, size_t n,
                                        layout_cost *costs, layout_cost_totals *totals, layout_error *err)
{
    static const char fn[] = "layout_checker_cost_batch";
    if (!checker || !checker->arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: checker is NULL", fn);
    layout_status st = layout_checker_validate_all(fn, checker, instrs, n, err);
    if (st) return st;
    layout_cost_totals t;
    memset(&t, 0, sizeof t);
    t.n_instrs = n;
    for (size_t i = 0; i < n; i++) {
        layout_cost c;
        cost_one(checker->arch, checker->impl, prep_of(checker, &instrs[i]), &instrs[i], &c);
        if (costs) costs[i] = c;
        t.extra_cycles += c.extra_cycles;
        t.total_cycles += c.total_cycles;
        t.n_conflicted += c.extra_cycles > 0;
        if (c.worst_nway > t.worst_nway) t.worst_nway = c.worst_nway;
        if (i == 0 || c.extra_cycles > t.worst_extra) t.worst_extra = c.extra_cycles, t.worst_index = i;
    }
    if (totals) *totals = t;
    return layout_ok(err);
}

/* Shape and the one rule an instruction needs (cheaper than a full
 * layout_arch_validate for one-shot calls). */
static layout_status check_arch_for(const char *fn, const layout_arch *arch, const layout_instr *in,
                                    layout_error *err)
{
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: arch is NULL", fn);
    layout_status st = check_instr(fn, "instr", arch, in, err);
    if (st) return st;
    if (arch->idle_group_cycles != 0 && arch->idle_group_cycles != 1)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: arch \"%.32s\" is invalid: idle_group_cycles = %d must be 0 or 1",
                           fn, arch->name, arch->idle_group_cycles);
    layout_arch one;
    layout_error sub;
    st = layout_arch_init(&one, "one-rule", arch->n_banks, arch->bank_width_bytes, arch->wave_size, &sub);
    if (!st) {
        const layout_lane_rule *r = &arch->rules[in->direction][layout_width_index(in->width_bytes)];
        st = layout_arch_set_groups(&one, in->direction, in->width_bytes, r->groups, r->n_groups, r->confidence,
                                    NULL, &sub);
        if (!st && r->n_fold_xors)
            st = layout_arch_set_fold(&one, in->direction, in->width_bytes, r->fold_xor, r->n_fold_xors,
                                      r->fold_groups, r->n_fold_groups, r->fold_confidence, &sub);
    }
    if (st) return layout_fail(err, st, "%s: arch \"%.32s\" is invalid: %s", fn, arch->name, sub.message);
    return LAYOUT_OK;
}

layout_status layout_instr_cost(const layout_arch *arch, const layout_instr *instr, layout_check_impl impl,
                                layout_cost *out, layout_error *err)
{
    static const char fn[] = "layout_instr_cost";
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    layout_check_impl resolved = LAYOUT_IMPL_SCALAR; /* set by resolve_impl; gcc -O3 cannot tell */
    layout_status st = resolve_impl(fn, impl, &resolved, err);
    if (st) return st;
    st = check_arch_for(fn, arch, instr, err);
    if (st) return st;
    layout_checker_rule prep;
    prepare_rule(arch, instr->width_bytes, &arch->rules[instr->direction][layout_width_index(instr->width_bytes)],
                 &prep);
    cost_one(arch, resolved, &prep, instr, out);
    return layout_ok(err);
}

layout_status layout_instr_explain(const layout_arch *arch, const layout_instr *instr, layout_cost_detail *out,
                                   layout_error *err)
{
    static const char fn[] = "layout_instr_explain";
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: out is NULL", fn);
    layout_status st = check_arch_for(fn, arch, instr, err);
    if (st) return st;
    layout_cost_scalar(arch, &arch->rules[instr->direction][layout_width_index(instr->width_bytes)], instr, out);
    return layout_ok(err);
}
