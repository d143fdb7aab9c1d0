/* Architecture descriptions: construction and validation (no presets here). */
#include "../core/bits.h"
#include "../core/internal.h"
#include "layout/arch.h"

#include <stdio.h>
#include <string.h>

const char *layout_confidence_name(layout_confidence confidence)
{
    switch (confidence) {
    case LAYOUT_CONFIDENCE_LOW: return "low";
    case LAYOUT_CONFIDENCE_MEDIUM: return "medium";
    case LAYOUT_CONFIDENCE_HIGH: return "high";
    }
    return "?";
}

static void copy_text(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
}

static layout_status check_shape(const char *fn, int n_banks, int bank_width_bytes, int wave_size,
                                 layout_error *err)
{
    if (!layout_is_pow2(n_banks) || n_banks > LAYOUT_MAX_BANKS)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: n_banks = %d must be a power of two in 1..%d", fn,
                           n_banks, LAYOUT_MAX_BANKS);
    if (bank_width_bytes != 4 && bank_width_bytes != 8)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: bank_width_bytes = %d must be 4 or 8", fn,
                           bank_width_bytes);
    if (wave_size != 32 && wave_size != 64)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: wave_size = %d must be 32 or 64", fn, wave_size);
    return LAYOUT_OK;
}

layout_status layout_arch_init(layout_arch *out, const char *name, int n_banks, int bank_width_bytes,
                               int wave_size, layout_error *err)
{
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_arch_init: out is NULL");
    if (!name) return layout_fail(err, LAYOUT_ERR_NULL, "layout_arch_init: name is NULL");
    size_t len = strlen(name);
    if (len == 0 || len >= LAYOUT_ARCH_NAME_CAP)
        return layout_fail(err, LAYOUT_ERR_ARG, "layout_arch_init: name = \"%.40s\" must have 1..%d characters",
                           name, LAYOUT_ARCH_NAME_CAP - 1);
    layout_status st = check_shape("layout_arch_init", n_banks, bank_width_bytes, wave_size, err);
    if (st) return st;
    memset(out, 0, sizeof *out);
    memcpy(out->name, name, len + 1);
    out->n_banks = n_banks;
    out->bank_width_bytes = bank_width_bytes;
    out->wave_size = wave_size;
    out->bank_confidence = LAYOUT_CONFIDENCE_MEDIUM;
    out->ds_forms = LAYOUT_DS_FORMS_AMD;
    out->idle_group_cycles = 1;
    return layout_ok(err);
}

/* Groups must be non-empty, disjoint, inside the wave and cover it. */
static layout_status check_partition(const char *fn, const char *what, const uint64_t *groups, int n,
                                     int wave_size, layout_error *err)
{
    if (n < 1 || n > LAYOUT_MAX_LANE_GROUPS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: %s count = %d must be in 1..%d", fn, what, n,
                           LAYOUT_MAX_LANE_GROUPS);
    uint64_t all = layout_lane_mask_all(wave_size), seen = 0;
    for (int i = 0; i < n; i++) {
        if (groups[i] == 0)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s[%d] = 0 is empty", fn, what, i);
        if (groups[i] & ~all)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s[%d] = 0x%llx has lanes at or above wave_size = %d",
                               fn, what, i, (unsigned long long)groups[i], wave_size);
        if (groups[i] & seen)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s[%d] = 0x%llx overlaps an earlier group (lanes 0x%llx)",
                               fn, what, i, (unsigned long long)groups[i],
                               (unsigned long long)(groups[i] & seen));
        seen |= groups[i];
    }
    if (seen != all)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s miss lanes 0x%llx of the wave", fn, what,
                           (unsigned long long)(all & ~seen));
    return LAYOUT_OK;
}

static void sort_groups(uint64_t *g, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t v = g[i];
        int j = i;
        while (j > 0 && __builtin_ctzll(g[j - 1]) > __builtin_ctzll(v)) {
            g[j] = g[j - 1];
            j--;
        }
        g[j] = v;
    }
}

static layout_status check_entry_args(const char *fn, const layout_arch *arch, layout_direction direction,
                                      int width_bytes, layout_error *err)
{
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: arch is NULL", fn);
    if (direction != LAYOUT_READ && direction != LAYOUT_WRITE)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: direction = %d must be LAYOUT_READ or LAYOUT_WRITE", fn,
                           (int)direction);
    if (layout_width_index(width_bytes) < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: width_bytes = %d must be 1, 2, 4, 8, 12 or 16", fn,
                           width_bytes);
    if (arch->wave_size != 32 && arch->wave_size != 64)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: arch->wave_size = %d must be 32 or 64", fn, arch->wave_size);
    return LAYOUT_OK;
}

static int confidence_ok(layout_confidence c)
{
    return c == LAYOUT_CONFIDENCE_LOW || c == LAYOUT_CONFIDENCE_MEDIUM || c == LAYOUT_CONFIDENCE_HIGH;
}

layout_status layout_arch_set_groups(layout_arch *arch, layout_direction direction, int width_bytes,
                                     const uint64_t *groups, int n_groups, layout_confidence confidence,
                                     const char *source, layout_error *err)
{
    static const char fn[] = "layout_arch_set_groups";
    layout_status st = check_entry_args(fn, arch, direction, width_bytes, err);
    if (st) return st;
    if (!groups) return layout_fail(err, LAYOUT_ERR_NULL, "%s: groups is NULL", fn);
    if (!confidence_ok(confidence))
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: confidence = %d is not a layout_confidence", fn, (int)confidence);
    st = check_partition(fn, "groups", groups, n_groups, arch->wave_size, err);
    if (st) return st;
    layout_lane_rule *r = &arch->rules[direction][layout_width_index(width_bytes)];
    memset(r, 0, sizeof *r);
    r->supported = 1;
    r->n_groups = n_groups;
    memcpy(r->groups, groups, (size_t)n_groups * sizeof groups[0]);
    sort_groups(r->groups, n_groups);
    r->confidence = confidence;
    r->fold_confidence = confidence;
    copy_text(r->source, sizeof r->source, source);
    return layout_ok(err);
}

layout_status layout_arch_set_consecutive(layout_arch *arch, layout_direction direction, int width_bytes,
                                          int lanes_per_group, layout_confidence confidence,
                                          const char *source, layout_error *err)
{
    static const char fn[] = "layout_arch_set_consecutive";
    layout_status st = check_entry_args(fn, arch, direction, width_bytes, err);
    if (st) return st;
    if (lanes_per_group < 1 || lanes_per_group > arch->wave_size || arch->wave_size % lanes_per_group)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: lanes_per_group = %d must divide wave_size = %d", fn,
                           lanes_per_group, arch->wave_size);
    int n = arch->wave_size / lanes_per_group;
    if (n > LAYOUT_MAX_LANE_GROUPS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: lanes_per_group = %d gives %d groups > %d", fn,
                           lanes_per_group, n, LAYOUT_MAX_LANE_GROUPS);
    uint64_t g[LAYOUT_MAX_LANE_GROUPS];
    for (int i = 0; i < n; i++) g[i] = layout_lane_mask_all(lanes_per_group) << (i * lanes_per_group);
    return layout_arch_set_groups(arch, direction, width_bytes, g, n, confidence, source, err);
}

/* A fold: masks in 1..wave-1, and merged groups that partition the wave and
 * are each a union of the entry's own groups. */
static layout_status check_fold(const char *fn, const layout_lane_rule *r, const int *xors, int n_xors,
                                const uint64_t *fg, int n_fg, int wave_size, layout_error *err)
{
    if (n_xors < 1 || n_xors > LAYOUT_MAX_FOLDS)
        return layout_fail(err, LAYOUT_ERR_CAPACITY, "%s: n_fold_xors = %d must be in 1..%d", fn, n_xors,
                           LAYOUT_MAX_FOLDS);
    for (int i = 0; i < n_xors; i++)
        if (xors[i] < 1 || xors[i] >= wave_size)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: fold_xor[%d] = %d must be in 1..%d", fn, i, xors[i],
                               wave_size - 1);
    layout_status st = check_partition(fn, "fold_groups", fg, n_fg, wave_size, err);
    if (st) return st;
    for (int i = 0; i < n_fg; i++)
        for (int g = 0; g < r->n_groups; g++) {
            uint64_t common = fg[i] & r->groups[g];
            if (common && common != r->groups[g])
                return layout_fail(err, LAYOUT_ERR_ARG,
                                   "%s: fold_groups[%d] = 0x%llx splits groups[%d] = 0x%llx", fn, i,
                                   (unsigned long long)fg[i], g, (unsigned long long)r->groups[g]);
        }
    return LAYOUT_OK;
}

layout_status layout_arch_set_fold(layout_arch *arch, layout_direction direction, int width_bytes,
                                   const int *xors, int n_xors, const uint64_t *fold_groups,
                                   int n_fold_groups, layout_confidence confidence, layout_error *err)
{
    static const char fn[] = "layout_arch_set_fold";
    layout_status st = check_entry_args(fn, arch, direction, width_bytes, err);
    if (st) return st;
    if (!xors) return layout_fail(err, LAYOUT_ERR_NULL, "%s: xors is NULL", fn);
    if (!fold_groups) return layout_fail(err, LAYOUT_ERR_NULL, "%s: fold_groups is NULL", fn);
    if (!confidence_ok(confidence))
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: confidence = %d is not a layout_confidence", fn, (int)confidence);
    layout_lane_rule *r = &arch->rules[direction][layout_width_index(width_bytes)];
    if (!r->supported)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %s b%d has no lane groups to fold", fn,
                           layout_direction_name(direction), width_bytes * 8);
    st = check_fold(fn, r, xors, n_xors, fold_groups, n_fold_groups, arch->wave_size, err);
    if (st) return st;
    r->n_fold_xors = n_xors;
    for (int i = 0; i < n_xors; i++) r->fold_xor[i] = xors[i];
    r->n_fold_groups = n_fold_groups;
    memcpy(r->fold_groups, fold_groups, (size_t)n_fold_groups * sizeof fold_groups[0]);
    sort_groups(r->fold_groups, n_fold_groups);
    r->fold_confidence = confidence;
    return layout_ok(err);
}

static int text_terminated(const char *s, size_t cap) { return memchr(s, '\0', cap) != NULL; }

layout_status layout_arch_validate(const layout_arch *arch, layout_error *err)
{
    static const char fn[] = "layout_arch_validate";
    if (!arch) return layout_fail(err, LAYOUT_ERR_NULL, "%s: arch is NULL", fn);
    if (!text_terminated(arch->name, sizeof arch->name) || arch->name[0] == '\0')
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: name must be a non-empty NUL-terminated string", fn);
    if (!text_terminated(arch->note, sizeof arch->note))
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: note is not NUL-terminated", fn);
    layout_status st = check_shape(fn, arch->n_banks, arch->bank_width_bytes, arch->wave_size, err);
    if (st) return st;
    if (arch->ds_forms & ~(unsigned)LAYOUT_DS_FORMS_AMD)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: ds_forms = 0x%x has bits outside layout_ds_form", fn,
                           arch->ds_forms);
    if (arch->isa_features & ~(unsigned)LAYOUT_ISA_FEATURES_ALL)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: isa_features = 0x%x has bits outside layout_isa_feature", fn,
                           arch->isa_features);
    if (arch->idle_group_cycles != 0 && arch->idle_group_cycles != 1)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: idle_group_cycles = %d must be 0 or 1", fn,
                           arch->idle_group_cycles);
    for (int d = 0; d < 2; d++)
        for (int w = 0; w < LAYOUT_N_WIDTHS; w++) {
            const layout_lane_rule *r = &arch->rules[d][w];
            if (!r->supported) continue;
            char label[64];
            snprintf(label, sizeof label, "rules[%s][b%d].groups", layout_direction_name((layout_direction)d),
                     layout_width_from_index(w) * 8);
            st = check_partition(fn, label, r->groups, r->n_groups, arch->wave_size, err);
            if (st) return st;
            if (!text_terminated(r->source, sizeof r->source))
                return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s source is not NUL-terminated", fn, label);
            if (!confidence_ok(r->confidence) || !confidence_ok(r->fold_confidence))
                return layout_fail(err, LAYOUT_ERR_ARG, "%s: %s confidence = %d is not a layout_confidence", fn,
                                   label, (int)r->confidence);
            if (r->n_fold_xors != 0) {
                st = check_fold(fn, r, r->fold_xor, r->n_fold_xors, r->fold_groups, r->n_fold_groups,
                                arch->wave_size, err);
                if (st) return st;
            }
        }
    return layout_ok(err);
}

const layout_lane_rule *layout_arch_rule(const layout_arch *arch, layout_direction direction, int width_bytes)
{
    int w = layout_width_index(width_bytes);
    if (!arch || w < 0 || (direction != LAYOUT_READ && direction != LAYOUT_WRITE)) return NULL;
    return &arch->rules[direction][w];
}
