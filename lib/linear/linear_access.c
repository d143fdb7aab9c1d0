/* Closed-form bank-conflict cost of an F2-linear access (linear.h).
 *
 * A lane group G = c + S (an affine subspace of lane ids) touches the words
 * w(c) + U, U = span of the word images of S's basis and of the sub-word
 * steps of a wide access; the words on one bank are the cosets of U ∩ K,
 * K = {w : bank(w) = 0}, so every bank the group touches sees
 * 2^(dim U - dim bank(U)) distinct words.  Two ranks per group. */
#include "layout/linear.h"

#include "../core/internal.h"
#include "linear_internal.h"

#include <inttypes.h>
#include <string.h>

static layout_status need_access(const char *fn, const layout_linear_access *acc, layout_error *err)
{
    if (acc->n_lane_bits != 5 && acc->n_lane_bits != 6)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: acc->n_lane_bits = %d must be 5 or 6", fn, acc->n_lane_bits);
    if (layout_width_index(acc->width_bytes) < 0)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: acc->width_bytes = %d must be 1, 2, 4, 8, 12 or 16", fn,
                           acc->width_bytes);
    if (acc->direction != LAYOUT_READ && acc->direction != LAYOUT_WRITE)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: acc->direction = %d is not read or write", fn,
                           (int)acc->direction);
    return LAYOUT_OK;
}

layout_status layout_linear_access_instr(const layout_linear_access *acc, layout_instr *out, layout_error *err)
{
    static const char fn[] = "layout_linear_access_instr";
    if (!acc || !out) return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !acc ? "acc" : "out");
    layout_status st = need_access(fn, acc, err);
    if (st) return st;
    layout_instr_init(out, 1 << acc->n_lane_bits, acc->width_bytes, acc->direction, NULL);
    /* lane l = (l with its lowest set bit cleared) ^ that bit's image */
    out->addr_bytes[0] = acc->base_bytes;
    for (unsigned l = 1; l < (1u << acc->n_lane_bits); l++)
        out->addr_bytes[l] = out->addr_bytes[l & (l - 1)] ^ acc->lane_images[__builtin_ctz(l)];
    return layout_ok(err);
}

layout_status layout_linear_lane_access(const layout_linear *ll, const char *lane_dim, const int64_t *in_values,
                                        int elem_bytes, layout_direction direction, int width_bytes,
                                        layout_linear_access *out, layout_error *err)
{
    static const char fn[] = "layout_linear_lane_access";
    if (!ll || !out || !lane_dim)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !ll ? "ll" : !out ? "out" : "lane_dim");
    if (!layout_lin_single_out(ll))
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: the layout has %d output dims, an offset needs 1 (others of size 1)",
                           fn, ll->n_out);
    int li = layout_linear_in_dim(ll, lane_dim);
    if (li < 0) return layout_fail(err, LAYOUT_ERR_ARG, "%s: no input dim '%s'", fn, lane_dim);
    if (ll->in_bits[li] != 5 && ll->in_bits[li] != 6)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: lane dim '%s' has %d bits, 5 or 6 needed", fn, lane_dim,
                           ll->in_bits[li]);
    int eb = layout_log2_exact(elem_bytes);
    if (eb < 0 || eb > 4)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: elem_bytes = %d must be 1, 2, 4, 8 or 16", fn, elem_bytes);
    if (!in_values && ll->n_in > 1) return layout_fail(err, LAYOUT_ERR_NULL, "%s: in_values is NULL", fn);
    uint64_t packed = 0;
    for (int i = 0; i < ll->n_in; i++) {
        if (i == li) continue;
        if (in_values[i] < 0 || (uint64_t)in_values[i] > layout_lin_mask(ll->in_bits[i]))
            return layout_fail(err, LAYOUT_ERR_RANGE,
                               "%s: in_values[%d] = %" PRId64 " is outside 0..%" PRIu64 " (input dim '%s')", fn, i,
                               in_values[i], layout_lin_mask(ll->in_bits[i]), ll->in_names[i]);
        packed |= layout_lin_shl((uint64_t)in_values[i], ll->in_shift[i]);
    }
    layout_linear_access a;
    memset(&a, 0, sizeof a);
    a.direction = direction;
    a.width_bytes = width_bytes;
    a.n_lane_bits = ll->in_bits[li];
    uint64_t limit = (uint64_t)UINT32_MAX >> eb;
    uint64_t base = layout_linear_apply_packed(ll, packed);
    if (base > limit)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: base offset %" PRIu64 " x %d bytes is over 32 bits", fn, base,
                           elem_bytes);
    a.base_bytes = (uint32_t)(base << eb);
    for (int b = 0; b < a.n_lane_bits; b++) {
        uint64_t v = ll->bases[ll->in_shift[li] + b];
        if (v > limit)
            return layout_fail(err, LAYOUT_ERR_ARG, "%s: lane bit %d's offset %" PRIu64 " x %d bytes is over 32 bits",
                               fn, b, v, elem_bytes);
        a.lane_images[b] = (uint32_t)(v << eb);
    }
    layout_status st = need_access(fn, &a, err);
    if (st) return st;
    *out = a;
    return layout_ok(err);
}

/* A small F2 basis: vectors with distinct leading bits.  Adding x reduces it
 * by every basis vector (x = min(x, x ^ b) clears b's leading bit when set,
 * whatever the order) and keeps it when something is left. */
typedef struct small_basis {
    int n;
    uint64_t v[16];
} small_basis;

static int basis_add(small_basis *sb, uint64_t x)
{
    for (int i = 0; i < sb->n; i++) {
        uint64_t y = x ^ sb->v[i];
        if (y < x) x = y;
    }
    if (!x) return 0;
    /* keep the basis sorted by decreasing leading bit so the min trick stays exact */
    int i = sb->n++;
    while (i > 0 && sb->v[i - 1] < x) {
        sb->v[i] = sb->v[i - 1];
        i--;
    }
    sb->v[i] = x;
    return 1;
}

/* {l ^ t : l in mask}: swap the blocks of 2^k lanes for every bit k of t */
static uint64_t lane_xor_mask(uint64_t mask, unsigned t)
{
    static const uint64_t low_half[6] = {0x5555555555555555u, 0x3333333333333333u, 0x0f0f0f0f0f0f0f0fu,
                                         0x00ff00ff00ff00ffu, 0x0000ffff0000ffffu, 0x00000000ffffffffu};
    for (int k = 0; k < 6; k++)
        if ((t >> k) & 1u) {
            int w = 1 << k;
            mask = ((mask & low_half[k]) << w) | ((mask >> w) & low_half[k]);
        }
    return mask;
}

layout_status layout_linear_access_cost(const layout_arch *arch, const layout_linear_access *acc, layout_cost *out,
                                        layout_error *err)
{
    static const char fn[] = "layout_linear_access_cost";
    if (!arch || !acc || !out)
        return layout_fail(err, LAYOUT_ERR_NULL, "%s: %s is NULL", fn, !arch ? "arch" : !acc ? "acc" : "out");
    layout_status st = need_access(fn, acc, err);
    if (st) return st;
    if ((1 << acc->n_lane_bits) != arch->wave_size)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: acc->n_lane_bits = %d (%d lanes) but %.31s has %d lanes", fn,
                           acc->n_lane_bits, 1 << acc->n_lane_bits, arch->name, arch->wave_size);
    const int W = acc->width_bytes;
    const layout_lane_rule *rule = layout_arch_rule(arch, acc->direction, W);
    if (!rule || !rule->supported)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %.31s has no %s b%d instruction", fn, arch->name,
                           layout_direction_name(acc->direction), W * 8);
    int lw = layout_log2_exact(W), lbw = layout_log2_exact(arch->bank_width_bytes),
        lnb = layout_log2_exact(arch->n_banks);
    if (lw < 0 || lbw < 0 || lnb < 0) /* bank width and count: only an invalid arch */
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: width %d bytes, bank width %d or bank count %d is not a power of two (not F2-linear)",
                           fn, W, arch->bank_width_bytes, arch->n_banks);
    /* aligned lanes touch whole words (W <= bank width) or W / bank width consecutive ones */
    uint32_t all = acc->base_bytes;
    for (int b = 0; b < acc->n_lane_bits; b++) all |= acc->lane_images[b];
    if (all & (uint32_t)(W - 1))
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                           "%s: some lane address is not a multiple of the width %d (unaligned accesses are not linear)",
                           fn, W);
    uint64_t word_img[6];
    for (int b = 0; b < acc->n_lane_bits; b++) word_img[b] = acc->lane_images[b] >> lbw;
    int sub_bits = lw > lbw ? lw - lbw : 0; /* sub-word steps 1, 2, .. of a wide access */
    /* fold: all lanes active, so lane l ^ m has the same address iff the images of m's bits cancel */
    const uint64_t *groups = rule->groups;
    int n_groups = rule->n_groups, fold = 0;
    for (int i = 0; i < rule->n_fold_xors; i++) {
        uint32_t img = 0;
        for (int b = 0; b < acc->n_lane_bits; b++)
            if ((rule->fold_xor[i] >> b) & 1) img ^= acc->lane_images[b];
        if (img == 0) {
            groups = rule->fold_groups;
            n_groups = rule->n_fold_groups;
            fold = rule->fold_xor[i];
            break;
        }
    }
    if (n_groups < 1 || n_groups > LAYOUT_MAX_LANE_GROUPS) /* only an invalid arch: never index past nway[] */
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: %.31s: %d lane groups (arch not validated?)", fn, arch->name,
                           n_groups);
    const uint64_t bank_mask = (uint64_t)arch->n_banks - 1;
    layout_cost c;
    memset(&c, 0, sizeof c);
    c.n_groups = n_groups;
    c.worst_group = -1;
    c.fold_xor = fold;
    int nway[LAYOUT_MAX_LANE_GROUPS];
    for (int g = 0; g < n_groups; g++) {
        uint64_t mask = groups[g];
        if (!mask) return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: lane group %d is empty", fn, g);
        /* the usual case: this group is the previous affine group moved by a lane xor, so it is
         * a coset of the same subspace and costs the same (two shifts per lane bit to check) */
        if (g > 0 && lane_xor_mask(groups[g - 1], (unsigned)(__builtin_ctzll(groups[g - 1]) ^ __builtin_ctzll(mask))) ==
                         mask) {
            nway[g] = nway[g - 1];
            c.extra_cycles += nway[g] - 1;
            c.total_cycles += nway[g];
            continue;
        }
        /* S = {l ^ c0 : l in the group} must be a subspace: take lanes until
         * log2(|group|) independent directions are found, then compare the
         * coset they span with the group */
        int c0 = __builtin_ctzll(mask), pop = __builtin_popcountll(mask);
        int r = __builtin_ctz((unsigned)pop);
        small_basis S = {0, {0}};
        for (uint64_t rest = mask & (mask - 1); rest && S.n < r; rest &= rest - 1)
            basis_add(&S, (uint64_t)(__builtin_ctzll(rest) ^ c0));
        uint64_t span = 0;
        if (pop == 1 << r && S.n == r) {
            unsigned lane = (unsigned)c0;
            span = (uint64_t)1 << lane;
            for (unsigned x = 1; x < (1u << r); x++) {
                lane ^= (unsigned)S.v[__builtin_ctz(x)]; /* Gray code over the span */
                span |= (uint64_t)1 << (lane & 63u);
            }
        }
        if (span != mask)
            return layout_fail(err, LAYOUT_ERR_UNSUPPORTED,
                               "%s: lane group %d (mask %#" PRIx64 ") is not an affine subspace of lane ids", fn, g,
                               mask);
        /* U = word images of S's basis plus the sub-word steps; bank(U) its bank bits */
        small_basis U = {0, {0}}, B = {0, {0}};
        for (int k = 0; k < S.n + sub_bits; k++) {
            uint64_t w = 0;
            if (k < S.n) {
                for (uint64_t v = S.v[k]; v; v &= v - 1) w ^= word_img[__builtin_ctzll(v)];
            } else {
                w = (uint64_t)1 << (k - S.n);
            }
            basis_add(&U, w);
            basis_add(&B, w & bank_mask);
        }
        int dim_u = U.n, dim_b = B.n;
        nway[g] = 1 << (dim_u - dim_b);
        c.extra_cycles += nway[g] - 1;
        c.total_cycles += nway[g];
        if (nway[g] > c.worst_nway) c.worst_nway = nway[g], c.worst_group = g;
    }
    *out = c;
    return layout_ok(err);
}
