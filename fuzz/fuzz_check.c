/* Fuzz target: the bank-conflict checker from arbitrary bytes.
 *
 * The input picks an architecture (a preset, gfx11 with any bank count, one
 * built through the public setters from hostile arguments, or a preset with
 * random bytes of the struct overwritten) and a few instructions (lane
 * counts, masks, widths, directions and addresses, valid or not).  Every
 * entry point must either fail with a status or return a cost, and:
 * - the scalar and AVX2 implementations, the one-shot and the prepared
 *   checker, single and batch calls all agree (status and cost);
 * - the cost equals this file's own reading of the phase model
 *   (docs/lds-model.md §3) over the arch's lane groups;
 * - nothing reads or writes out of bounds (ASan) or overflows (UBSan). */
#include "layout.h"
#include "fuzz_input.h"

#include <stdio.h>
#include <stdlib.h>

static const int widths[LAYOUT_N_WIDTHS] = {1, 2, 4, 8, 12, 16};

/* ---- the model, written from docs/lds-model.md §3 (FUZZ_REFERENCE) ---- */

FUZZ_REFERENCE static int fold_applies(const layout_instr *in, int m)
{
    for (int l = 0; l < in->n_lanes; l++) {
        if (!(in->active_mask >> l & 1)) continue;
        int partner = l ^ m;
        if (partner >= in->n_lanes || !(in->active_mask >> partner & 1)) continue; /* an inactive partner */
        if (in->addr_bytes[partner] != in->addr_bytes[l]) return 0;
    }
    return 1;
}

/* Distinct words on the busiest bank among the given lanes. */
FUZZ_REFERENCE static int group_nway(const layout_arch *a, const layout_instr *in, uint64_t lanes)
{
    uint64_t words[LAYOUT_MAX_LANES * 5];
    int banks[LAYOUT_MAX_LANES * 5];
    int n = 0, best = 0;
    for (int l = 0; l < in->n_lanes; l++) {
        if (!(lanes >> l & 1)) continue;
        uint64_t lo = in->addr_bytes[l] / (uint64_t)a->bank_width_bytes;
        uint64_t hi = ((uint64_t)in->addr_bytes[l] + (uint64_t)in->width_bytes - 1) / (uint64_t)a->bank_width_bytes;
        for (uint64_t w = lo; w <= hi; w++) {
            int seen = 0;
            for (int i = 0; i < n; i++) seen |= words[i] == w;
            if (!seen) words[n] = w, banks[n] = (int)(w % (uint64_t)a->n_banks), n++;
        }
    }
    for (int b = 0; b < a->n_banks; b++) {
        int c = 0;
        for (int i = 0; i < n; i++) c += banks[i] == b;
        if (c > best) best = c;
    }
    return best;
}

FUZZ_REFERENCE static layout_cost model_cost(const layout_arch *a, const layout_instr *in)
{
    const layout_lane_rule *r = &a->rules[in->direction][layout_width_index(in->width_bytes)];
    const uint64_t *groups = r->groups;
    layout_cost c;
    memset(&c, 0, sizeof c);
    c.n_groups = r->n_groups;
    c.worst_group = -1;
    for (int i = 0; i < r->n_fold_xors; i++)
        if (fold_applies(in, r->fold_xor[i])) {
            groups = r->fold_groups;
            c.n_groups = r->n_fold_groups;
            c.fold_xor = r->fold_xor[i];
            break;
        }
    for (int g = 0; g < c.n_groups; g++) {
        int nway = group_nway(a, in, groups[g] & in->active_mask);
        int cycles = !(groups[g] & in->active_mask) ? a->idle_group_cycles : nway > 1 ? nway : 1;
        c.extra_cycles += cycles > 1 ? cycles - 1 : 0;
        c.total_cycles += cycles;
        if (nway > c.worst_nway) c.worst_nway = nway, c.worst_group = g;
    }
    return c;
}

FUZZ_REFERENCE static int cost_eq(const layout_cost *x, const layout_cost *y)
{
    return x->extra_cycles == y->extra_cycles && x->total_cycles == y->total_cycles &&
           x->n_groups == y->n_groups && x->worst_nway == y->worst_nway && x->worst_group == y->worst_group &&
           x->fold_xor == y->fold_xor;
}

/* ---- decoding ---------------------------------------------------------- */

static int pick_width(fuzz_in *in)
{
    uint8_t v = fuzz_u8(in);
    return v < 240 ? widths[v % LAYOUT_N_WIDTHS] : (int)(int8_t)fuzz_u8(in);
}

static layout_direction pick_direction(fuzz_in *in)
{
    uint8_t v = fuzz_u8(in);
    return (layout_direction)(v < 250 ? (v & 1) : (int)(int8_t)fuzz_u8(in));
}

/* A lane partition into n groups (valid by construction) or raw masks. */
static int pick_groups(fuzz_in *in, int wave, uint64_t *groups)
{
    int n = (int)fuzz_range(in, 0, LAYOUT_MAX_LANE_GROUPS + 1);
    if (n > LAYOUT_MAX_LANE_GROUPS || fuzz_u8(in) >= 224) {
        for (int g = 0; g < LAYOUT_MAX_LANE_GROUPS; g++) groups[g] = fuzz_u64(in);
        return n;
    }
    memset(groups, 0, sizeof(uint64_t) * LAYOUT_MAX_LANE_GROUPS);
    if (n == 0) return 0;
    for (int l = 0; l < wave; l++) groups[l < n ? l : fuzz_range(in, 0, n - 1)] |= (uint64_t)1 << l;
    return n;
}

static void build_custom(fuzz_in *in, layout_arch *a)
{
    char name[LAYOUT_ARCH_NAME_CAP + 4];
    int name_len = (int)fuzz_range(in, 0, (int)sizeof name - 1);
    for (int i = 0; i < name_len; i++) name[i] = (char)('a' + fuzz_range(in, 0, 25));
    name[name_len] = 0;
    int banks = fuzz_u8(in) < 230 ? 1 << fuzz_range(in, 0, 6) : (int)(int8_t)fuzz_u8(in);
    int bw = fuzz_u8(in) < 230 ? 4 << fuzz_range(in, 0, 1) : (int)(int8_t)fuzz_u8(in);
    int wave = fuzz_u8(in) < 230 ? 32 << fuzz_range(in, 0, 1) : (int)(int8_t)fuzz_u8(in);
    layout_error err;
    if (layout_arch_init(a, fuzz_u8(in) < 8 ? NULL : name, banks, bw, wave, &err)) {
        FUZZ_ASSERT(err.status < 0 && err.message[0]);
        layout_arch_preset("gfx942", a, NULL);
        return;
    }
    int n_rules = (int)fuzz_range(in, 0, 12);
    if (fuzz_u8(in) < 64) a->idle_group_cycles = 0; /* NVIDIA's idle phases */
    for (int k = 0; k < n_rules; k++) {
        layout_direction dir = pick_direction(in);
        int width = pick_width(in);
        layout_confidence conf = (layout_confidence)fuzz_range(in, -1, 3);
        layout_status st;
        if (fuzz_u8(in) & 1) {
            int per = fuzz_u8(in) < 200 ? 1 << fuzz_range(in, 0, 6) : (int)(int8_t)fuzz_u8(in);
            st = layout_arch_set_consecutive(a, dir, width, per, conf, "fuzz", &err);
        } else {
            uint64_t groups[LAYOUT_MAX_LANE_GROUPS];
            int n = pick_groups(in, a->wave_size, groups);
            st = layout_arch_set_groups(a, dir, width, fuzz_u8(in) < 4 ? NULL : groups, n, conf, NULL, &err);
        }
        if (st) FUZZ_ASSERT(err.status == st && err.message[0]);
        if (st || !(fuzz_u8(in) & 1)) continue;
        /* A fold: merged groups from pairs of this rule's groups (valid when the
         * count is even), or raw masks. */
        const layout_lane_rule *r = layout_arch_rule(a, dir, width);
        int xors[LAYOUT_MAX_FOLDS + 1];
        int n_x = (int)fuzz_range(in, 0, LAYOUT_MAX_FOLDS + 1);
        for (int i = 0; i < LAYOUT_MAX_FOLDS + 1; i++) xors[i] = (int)fuzz_range(in, -1, 64);
        uint64_t fg[LAYOUT_MAX_LANE_GROUPS];
        int n_fg = 0;
        if (fuzz_u8(in) < 200) {
            memset(fg, 0, sizeof fg);
            for (int g = 0; g < r->n_groups; g++) fg[g / 2] |= r->groups[g];
            n_fg = (r->n_groups + 1) / 2;
        } else {
            n_fg = (int)fuzz_range(in, -1, LAYOUT_MAX_LANE_GROUPS + 1);
            for (int g = 0; g < LAYOUT_MAX_LANE_GROUPS; g++) fg[g] = fuzz_u64(in);
        }
        st = layout_arch_set_fold(a, dir, width, xors, n_x, fg, n_fg, conf, &err);
        if (st) FUZZ_ASSERT(err.status == st && err.message[0]);
    }
}

static void build_arch(fuzz_in *in, layout_arch *a)
{
    layout_error err;
    switch (fuzz_u8(in) % 4) {
    case 0: {
        size_t n = layout_arch_preset_count();
        const char *name = layout_arch_preset_name(fuzz_range(in, 0, (int64_t)n - 1));
        FUZZ_ASSERT(name && layout_arch_preset(name, a, &err) == LAYOUT_OK);
        return;
    }
    case 1:
        if (layout_arch_gfx11((int)(int8_t)fuzz_u8(in), a, &err)) layout_arch_preset("gfx11", a, NULL);
        return;
    case 2: build_custom(in, a); return;
    default: {
        /* Hostile struct: overwrite random bytes of a valid preset. */
        size_t n = layout_arch_preset_count();
        layout_arch_preset(layout_arch_preset_name(fuzz_range(in, 0, (int64_t)n - 1)), a, NULL);
        int k = (int)fuzz_range(in, 1, 8);
        for (int i = 0; i < k; i++) {
            size_t at = (size_t)fuzz_range(in, 0, (int64_t)sizeof *a - 1);
            ((unsigned char *)a)[at] = fuzz_u8(in);
        }
        return;
    }
    }
}

static void build_instr(fuzz_in *in, const layout_arch *a, layout_instr *ins)
{
    memset(ins, 0, sizeof *ins);
    uint8_t sel = fuzz_u8(in);
    ins->n_lanes = sel < 230 ? a->wave_size : sel < 245 ? (a->wave_size == 32 ? 64 : 32) : (int)(int8_t)fuzz_u8(in);
    ins->width_bytes = pick_width(in);
    ins->direction = pick_direction(in);
    uint8_t m = fuzz_u8(in);
    int lanes = ins->n_lanes > 0 && ins->n_lanes <= 64 ? ins->n_lanes : 64;
    ins->active_mask = m < 128 ? layout_lane_mask_all(lanes) : m < 250 ? fuzz_u64(in) & layout_lane_mask_all(lanes)
                                                                       : fuzz_u64(in);
    switch (fuzz_u8(in) % 4) {
    case 0: { /* strided */
        uint32_t base = fuzz_u8(in) & 1 ? fuzz_u32(in) : (uint32_t)fuzz_range(in, 0, 4096);
        uint32_t stride = (uint32_t)fuzz_range(in, 0, 1024);
        for (int l = 0; l < LAYOUT_MAX_LANES; l++) ins->addr_bytes[l] = base + (uint32_t)l * stride;
        break;
    }
    case 1: /* arbitrary 32-bit addresses */
        for (int l = 0; l < LAYOUT_MAX_LANES; l++) ins->addr_bytes[l] = fuzz_u32(in);
        break;
    case 2: { /* a few distinct small addresses: broadcasts, folds */
        uint32_t pool[4];
        for (int i = 0; i < 4; i++) pool[i] = (uint32_t)fuzz_range(in, 0, 65535);
        for (int l = 0; l < LAYOUT_MAX_LANES; l++) ins->addr_bytes[l] = pool[fuzz_u8(in) & 3];
        break;
    }
    default: { /* paired lanes (l, l ^ m) on one address: the NVIDIA fold */
        int x = 1 << fuzz_range(in, 0, 5);
        for (int l = 0; l < LAYOUT_MAX_LANES; l++)
            ins->addr_bytes[l] = (uint32_t)((l & ~x) * (int)fuzz_range(in, 0, 32));
        for (int l = 0; l < LAYOUT_MAX_LANES; l++) ins->addr_bytes[l] = ins->addr_bytes[l & ~x];
        if (fuzz_u8(in) & 1) ins->addr_bytes[fuzz_range(in, 0, 63)] ^= 4;
        break;
    }
    }
}

/* ---- the properties ---------------------------------------------------- */

static void check_one(const layout_arch *a, int arch_ok, const layout_checker *cs, const layout_checker *cv,
                      const layout_instr *ins, layout_status *st_out, layout_cost *cost_out)
{
    int avx2 = layout_check_impl_available(LAYOUT_IMPL_AVX2);
    layout_error e1, e2, e3;
    layout_cost c1, c2, c3;
    layout_cost_detail det;
    memset(&c1, 0x5a, sizeof c1);

    layout_status s1 = layout_instr_cost(a, ins, LAYOUT_IMPL_SCALAR, &c1, &e1);
    layout_status s3 = layout_instr_explain(a, ins, &det, &e3);
    FUZZ_ASSERT(s1 == s3);
    FUZZ_ASSERT(e1.status == s1 && (s1 == LAYOUT_OK) == (e1.message[0] == 0));
    if (avx2) {
        layout_status s2 = layout_instr_cost(a, ins, LAYOUT_IMPL_AVX2, &c2, &e2);
        FUZZ_ASSERT(s1 == s2);
        if (!s1) FUZZ_ASSERT(cost_eq(&c1, &c2));
    }
    if (!s1) {
        layout_cost want = model_cost(a, ins);
        FUZZ_ASSERT(cost_eq(&c1, &want));
        FUZZ_ASSERT(cost_eq(&c1, &det.cost));
        /* every group one cycle, or none where idle on NVIDIA */
        FUZZ_ASSERT(c1.total_cycles <= c1.n_groups + c1.extra_cycles &&
                    (a->idle_group_cycles == 0 || c1.total_cycles == c1.n_groups + c1.extra_cycles));
    } else {
        /* Errors leave the out-parameter untouched. */
        layout_cost poison;
        memset(&poison, 0x5a, sizeof poison);
        FUZZ_ASSERT(memcmp(&c1, &poison, sizeof poison) == 0);
    }
    if (arch_ok) {
        layout_status sc = layout_checker_cost(cs, ins, &c3, &e3);
        /* The prepared checker validated the whole arch, so it accepts
         * exactly what the one-shot call accepts. */
        FUZZ_ASSERT(sc == s1);
        if (!sc) FUZZ_ASSERT(cost_eq(&c3, &c1));
        if (avx2) {
            sc = layout_checker_cost(cv, ins, &c3, &e3);
            FUZZ_ASSERT(sc == s1);
            if (!sc) FUZZ_ASSERT(cost_eq(&c3, &c1));
        }
    }
    *st_out = s1;
    *cost_out = c1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    layout_arch a;
    layout_error err;
    build_arch(&in, &a);

    int avx2 = layout_check_impl_available(LAYOUT_IMPL_AVX2);
    layout_checker cs, cv;
    layout_status sv = layout_arch_validate(&a, &err);
    layout_status si = layout_checker_init(&cs, &a, LAYOUT_IMPL_SCALAR, &err);
    FUZZ_ASSERT(sv == si);
    if (avx2) FUZZ_ASSERT(layout_checker_init(&cv, &a, LAYOUT_IMPL_AVX2, &err) == sv);
    int arch_ok = sv == LAYOUT_OK;
    /* Formatting the whole arch costs more than the rest of an input: on
     * sampled inputs only (fuzz_sample_level(), one in 16). */
    if (arch_ok && fuzz_sample_level(data, size) > 0) {
        char buf[64];
        size_t need = 0;
        FUZZ_ASSERT(layout_arch_format(&a, buf, sizeof buf, &need, &err) == LAYOUT_OK);
        FUZZ_ASSERT(need >= strlen(buf));
    }

    enum { MAX_BATCH = 6 };
    layout_instr ins[MAX_BATCH];
    layout_status st[MAX_BATCH];
    layout_cost cost[MAX_BATCH];
    int n = (int)fuzz_range(&in, 1, MAX_BATCH);
    for (int i = 0; i < n; i++) {
        build_instr(&in, &a, &ins[i]);
        check_one(&a, arch_ok, &cs, &cv, &ins[i], &st[i], &cost[i]);
    }
    if (!arch_ok) return 0;

    /* Batch = the singles: the first failing instruction's status, else the
     * same costs and their sums. */
    for (int impl = 0; impl < 1 + avx2; impl++) {
        layout_cost bc[MAX_BATCH];
        layout_cost_totals t;
        layout_status bs = layout_checker_cost_batch(impl ? &cv : &cs, ins, (size_t)n, bc, &t, &err);
        layout_status want = LAYOUT_OK;
        for (int i = 0; i < n && !want; i++) want = st[i];
        /* Batch checks one instruction against the prepared (whole-arch) rule
         * table; the one-shot call also re-validates the arch's other fields
         * only through the one rule it needs, so statuses match exactly. */
        FUZZ_ASSERT(bs == want);
        if (bs) continue;
        int64_t extra = 0, total = 0;
        for (int i = 0; i < n; i++) {
            FUZZ_ASSERT(cost_eq(&bc[i], &cost[i]));
            extra += cost[i].extra_cycles;
            total += cost[i].total_cycles;
        }
        FUZZ_ASSERT(t.n_instrs == (size_t)n && t.extra_cycles == extra && t.total_cycles == total);
        FUZZ_ASSERT(t.worst_extra == cost[t.worst_index].extra_cycles);
    }
    return 0;
}
