/* ttg.convert_layout as Triton 3.6 lowers it (triton_kernel.h).
 *
 * Sources read (triton-lang/triton; the index holds no v3.6.0 tag.  The
 * revision of lib/Tools/GenericSwizzling.cpp whose optimalSwizzlingLdSt
 * fills the bank with registers that are warps of the other side
 * (`srcFillsBank`) is the one the corpus's ISA confirms; the newer one at
 * 014546ac and the older one at 1a006ef1 each mispredict a transpose,
 * docs/triton.md.  Also lib/Conversion/TritonGPUToLLVM/
 * ConvertLayoutOpToLLVM.cpp, lib/Analysis/Utility.cpp and getSrcDstTiles in
 * lib/Conversion/TritonGPUToLLVM/Utility.cpp of that era):
 *
 *  - ConvertLayoutOpConversion::matchAndRewrite takes minimalCvtLayout
 *    (dst^-1 o src, quotiented by warp, then lane, while the map is the
 *    identity on them): a warp part left -> transferWithinBlockSwizzling
 *    (shared memory); only lanes -> warp shuffles when cvtNeedsWarpShuffle
 *    finds fewer than 2 mixed register-lane transpositions in
 *    getWarpLayoutConvertDecomposition (transferWithinWarp; on gfx950
 *    ConvertLayoutOpPermlaneSwap of third_party/amd first, under the same
 *    test), else shared memory as across warps; only registers -> a
 *    register permutation.
 *  - transferWithinBlockSwizzlingImpl removes broadcast registers and takes
 *    the scratch layout: on NVIDIA the best tile pair of optimalSwizzling
 *    (optimalSwizzlingTile, getTile, bankConflicts) when one fits, else
 *    optimalSwizzlingLdSt (intersection, bank fill, computeSegment,
 *    complementBasis, buildReps, bank reorder); for each of its 2^|reps|
 *    rounds it stores the tile and loads it back (lowerLdStShared, or
 *    stmatrix / ldmatrix for a matrix tile).
 *
 * Nothing is copied: the steps are re-derived on bit vectors here (every
 * basis of the flattened tensor is one uint64_t, dim0 the fastest, as
 * Triton's flattenOuts). */
#include "../core/internal.h"
#include "../core/bits.h"
#include "layout/linear.h"
#include "layout/triton.h"
#include "layout/triton_kernel.h"
#include "tk_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB LAYOUT_LINEAR_MAX_BITS

typedef struct bvec {
    int n;
    uint64_t v[NB];
} bvec;

static int has(const bvec *s, uint64_t x)
{
    int i;
    for (i = 0; i < s->n; i++)
        if (s->v[i] == x) return 1;
    return 0;
}

static void push(bvec *s, uint64_t x)
{
    if (s->n < NB) s->v[s->n++] = x;
}

/* The bases of one input dim (flattened: the packed output value). */
static void dim_bases(const layout_linear *l, const char *name, bvec *out)
{
    int d = layout_linear_in_dim(l, name), i;
    out->n = 0;
    if (d < 0) return;
    for (i = 0; i < l->in_bits[d]; i++) push(out, l->bases[l->in_shift[d] + i]);
}

/* Echelon insert keyed by the lowest set bit (tags track which inputs were
 * combined); 1 when x was independent. */
typedef struct echelon {
    uint64_t row[64], tag[64]; /* row[p]: lowest set bit p */
    int used[64];
} echelon;

static int ech_insert(echelon *e, uint64_t x, uint64_t tag)
{
    while (x) {
        int p = layout_ctz(x);
        if (!e->used[p]) {
            e->used[p] = 1;
            e->row[p] = x;
            e->tag[p] = tag;
            return 1;
        }
        x ^= e->row[p];
        tag ^= e->tag[p];
    }
    return 0;
}

/* The tag combination giving x, or -1 (as all ones) when x is outside the span. */
static uint64_t ech_solve(const echelon *e, uint64_t x)
{
    uint64_t tag = 0;
    while (x) {
        int p = layout_ctz(x);
        if (!e->used[p]) return ~(uint64_t)0;
        x ^= e->row[p];
        tag ^= e->tag[p];
    }
    return tag;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* computeSegment (GenericSwizzling.cpp). */
static void compute_segment(const bvec *bank_src, const bvec *bank_dst, int dim, int len, bvec *seg)
{
    bvec a = {0, {0}}, b = {0, {0}};
    int i, lbc;
    seg->n = 0;
    for (i = 0; i < dim; i++) {
        uint64_t u = (uint64_t)1 << i;
        if (!has(bank_src, u) && !has(bank_dst, u)) push(seg, u);
    }
    if (seg->n >= len) {
        seg->n = len;
        return;
    }
    for (i = 0; i < bank_src->n; i++)
        if (bank_src->v[i] && !has(bank_dst, bank_src->v[i]) && !has(&a, bank_src->v[i])) push(&a, bank_src->v[i]);
    for (i = 0; i < bank_dst->n; i++)
        if (bank_dst->v[i] && !has(bank_src, bank_dst->v[i]) && !has(&b, bank_dst->v[i])) push(&b, bank_dst->v[i]);
    if (a.n > b.n) {
        bvec t = a;
        a = b;
        b = t;
    }
    qsort(a.v, (size_t)a.n, sizeof a.v[0], cmp_u64);
    qsort(b.v, (size_t)b.n, sizeof b.v[0], cmp_u64);
    lbc = len - a.n - seg->n;
    if (lbc < 0) lbc = 0;
    if (lbc > a.n) lbc = a.n;
    for (i = lbc; i < a.n; i++) push(seg, a.v[i] ^ b.v[i]); /* conflict-free */
    for (i = 0; i < lbc; i++) push(seg, a.v[i]);            /* write conflicts */
    for (i = 0; i < lbc; i++) push(seg, b.v[i]);            /* read conflicts */
    if (seg->n > len) seg->n = len;
}

/* complementBasis: the unit vectors of the non-pivot columns of the
 * reduced echelon form (pivot = lowest set bit). */
static void complement(const bvec *basis, int dim, bvec *out)
{
    echelon e;
    int i;
    memset(&e, 0, sizeof e);
    for (i = 0; i < basis->n; i++) ech_insert(&e, basis->v[i], 0);
    out->n = 0;
    for (i = 0; i < dim; i++)
        if (!e.used[i]) push(out, (uint64_t)1 << i);
}

/* Build cvt: register (the given bases), lane, warp -> address, where the
 * address of logical x solves x = sum addr_i A[i] (A: vector, bank,
 * segment bases; reps excluded).  0 when some basis is outside the span. */
static int addr_cvt(const echelon *inv, int addr_bits, const bvec *regs, const bvec *lanes, const bvec *warps,
                    layout_linear *out)
{
    layout_error e;
    const bvec *dims[3] = {regs, lanes, warps};
    static const char *const names[3] = {"register", "lane", "warp"};
    int d, i;
    if (layout_linear_init(out, &e) != LAYOUT_OK) return 0;
    for (d = 0; d < 3; d++)
        if (layout_linear_add_in_dim(out, names[d], dims[d]->n, &e) != LAYOUT_OK) return 0;
    if (layout_linear_add_out_dim(out, "offset", addr_bits, &e) != LAYOUT_OK) return 0;
    for (d = 0; d < 3; d++)
        for (i = 0; i < dims[d]->n; i++) {
            uint64_t a = ech_solve(inv, dims[d]->v[i]);
            int64_t v;
            if (a == ~(uint64_t)0 || (addr_bits < 64 && (a >> addr_bits))) return 0;
            v = (int64_t)a;
            if (layout_linear_set_basis(out, d, i, &v, &e) != LAYOUT_OK) return 0;
        }
    return 1;
}

/* Add sub's counts and costs, times reps, into r. */
void layout_tk_merge(layout_triton_kernel_op *r, const layout_triton_kernel_op *sub, int64_t reps)
{
    int i, j;
    for (i = 0; i < sub->n_counts; i++) {
        for (j = 0; j < r->n_counts && strcmp(r->counts[j].mnemonic, sub->counts[i].mnemonic) != 0; j++) {}
        if (j == r->n_counts) {
            if (r->n_counts == LAYOUT_TRITON_KERNEL_MAX_OP_MNEMONICS) continue;
            r->counts[r->n_counts] = sub->counts[i];
            r->counts[r->n_counts++].count = 0;
        }
        r->counts[j].count += sub->counts[i].count * reps;
    }
    r->n_accesses += (int)(sub->n_accesses * reps);
    r->extra_cycles += sub->extra_cycles * reps;
    r->total_cycles += sub->total_cycles * reps;
    r->n_conflicted += (int)(sub->n_conflicted * reps);
    r->ptxas_joined_loads += (int)(sub->ptxas_joined_loads * reps);
    r->ptxas_joined_stores += (int)(sub->ptxas_joined_stores * reps);
    r->ptxas_cta_total_delta += sub->ptxas_cta_total_delta * reps;
    r->ptxas_cta_extra_delta += sub->ptxas_cta_extra_delta * reps;
    if (sub->n_accesses > 0) { /* the later side's last access is the op's */
        r->last_total_cycles = sub->last_total_cycles;
        r->last_extra_cycles = sub->last_extra_cycles;
        r->last = sub->last;
    }
    if (sub->worst_access >= 0 && (r->worst_access < 0 || sub->worst_extra > r->worst_extra)) {
        r->worst_access = sub->worst_access;
        r->worst_extra = sub->worst_extra;
        r->worst_nway = sub->worst_nway;
        r->worst = sub->worst;
    }
}

/* A layout's hardware bits (register, lane, warp) for solving flat offsets. */
typedef struct hw_side {
    const bvec *reg, *lane, *warp;
} hw_side;

/* The register and lane parts of the hardware index of flat offset x in
 * side s (x outside its span: both ~0). */
static void hw_of(const hw_side *s, uint64_t x, uint64_t *reg, uint64_t *lane)
{
    echelon e;
    uint64_t t;
    int i, nr = s->reg->n, nl = s->lane->n;
    memset(&e, 0, sizeof e);
    for (i = 0; i < nr; i++) ech_insert(&e, s->reg->v[i], (uint64_t)1 << i);
    for (i = 0; i < nl; i++) ech_insert(&e, s->lane->v[i], (uint64_t)1 << (nr + i));
    for (i = 0; i < s->warp->n; i++) ech_insert(&e, s->warp->v[i], (uint64_t)1 << (nr + nl + i));
    t = ech_solve(&e, x);
    if (t == ~(uint64_t)0) {
        *reg = *lane = ~(uint64_t)0;
        return;
    }
    *reg = t & (((uint64_t)1 << nr) - 1);
    *lane = (t >> nr) & (((uint64_t)1 << nl) - 1);
}

/* A LocalMemOpTile (GenericSwizzling.h): lanes that hold contiguous
 * elements, lanes that give row addresses. */
typedef struct mem_tile {
    int n_contig, contig[3], n_addr, addr[3];
} mem_tile;

/* optimalSwizzlingTile (GenericSwizzling.cpp): 1 and the tile's vector
 * bases (nRegB common registers, then tb's contiguous lanes of side b,
 * after the swap to nRegA >= nRegB) when instruction ta on side a and tb on
 * side b fit. */
static int swz_tile(const hw_side *a, const hw_side *b, int nra, int nrb, const mem_tile *ta, const mem_tile *tb,
                    bvec *vb)
{
    int i;
    if (nra < nrb) return swz_tile(b, a, nrb, nra, tb, ta, vb);
    vb->n = 0;
    for (i = 0; i < a->reg->n; i++)
        if (a->reg->v[i] && has(b->reg, a->reg->v[i])) push(vb, a->reg->v[i]);
    if (vb->n < nrb) return 0;
    vb->n = nrb;
    for (i = 0; i < ta->n_contig; i++)
        if (ta->contig[i] >= a->lane->n || !a->lane->v[ta->contig[i]]) return 0;
    for (i = 0; i < tb->n_contig; i++)
        if (tb->contig[i] >= b->lane->n || !b->lane->v[tb->contig[i]]) return 0;
    /* cvt = b.invertAndCompose(a) = a^-1 o b, from b's hardware to a's: the
     * first nra - nrb of tb's lanes of b must be registers of a, the rest
     * exactly the lanes ta names in a */
    for (i = 0; i < nra - nrb; i++) {
        uint64_t rg, ln;
        if (i >= tb->n_contig) return 0;
        hw_of(a, b->lane->v[tb->contig[i]], &rg, &ln);
        if (rg == 0 || rg == ~(uint64_t)0) return 0;
    }
    for (i = 0; i < ta->n_contig; i++) {
        uint64_t rg, ln;
        int idx_b = tb->contig[tb->n_contig - ta->n_contig + i];
        hw_of(a, b->lane->v[idx_b], &rg, &ln);
        if (ln != (uint64_t)1 << ta->contig[i]) return 0;
    }
    for (i = 0; i < tb->n_contig; i++) push(vb, b->lane->v[tb->contig[i]]);
    return 1;
}

/* getTile: the first 3 - |laneAddr| registers not in vb, then the laneAddr
 * lanes; 0 when registers run short. */
static int get_tile(const mem_tile *t, const hw_side *s, const bvec *vb, bvec *tile)
{
    int need = 3 - t->n_addr, i;
    tile->n = 0;
    for (i = 0; i < s->reg->n && need > 0; i++)
        if (!has(vb, s->reg->v[i])) {
            push(tile, s->reg->v[i]);
            need--;
        }
    if (need > 0) return 0;
    for (i = 0; i < t->n_addr; i++) {
        if (t->addr[i] >= s->lane->n) return 0;
        push(tile, s->lane->v[t->addr[i]]);
    }
    return 1;
}

/* The scratch of optimalSwizzling (GenericSwizzling.cpp) for vector bases
 * vb and the two bank tiles: bank bases (complementBasis of vector +
 * segment), segment bases (computeSegment) and reps (buildReps: segment
 * bases that are registers of both sides). */
static void scratch_of(const bvec *vb, const bvec *tile_s, const bvec *tile_d, int dim, int bitwidth, const bvec *rs,
                       const bvec *rd, int leave_reps, bvec *bb, bvec *seg2, bvec *reps)
{
    bvec bank_s = *vb, bank_d = *vb, seg, uni;
    int i, len_b, len_s;
    for (i = 0; i < tile_s->n; i++) push(&bank_s, tile_s->v[i]);
    for (i = 0; i < tile_d->n; i++) push(&bank_d, tile_d->v[i]);
    len_b = layout_log2_floor_u64((uint64_t)(1024 / ((1 << vb->n) * bitwidth)));
    if (len_b > dim - vb->n) len_b = dim - vb->n;
    len_s = dim - len_b - vb->n;
    compute_segment(&bank_s, &bank_d, dim, len_s, &seg);
    uni = *vb;
    for (i = 0; i < seg.n; i++) push(&uni, seg.v[i]);
    complement(&uni, dim, bb);
    seg2->n = reps->n = 0;
    for (i = 0; i < seg.n; i++) {
        int rep = has(rs, seg.v[i]) && has(rd, seg.v[i]);
        if (rep && leave_reps > 0) {
            leave_reps--;
            rep = 0;
        }
        push(rep ? reps : seg2, seg.v[i]);
    }
}

/* The rank over GF(2) of a set of bases. */
static int f2_rank(const bvec *a, const bvec *b)
{
    uint64_t row[2 * NB];
    int n = 0, rank = 0, i, j;
    for (i = 0; i < a->n; i++) row[n++] = a->v[i];
    for (i = 0; b && i < b->n; i++) row[n++] = b->v[i];
    for (i = 0; i < n; i++) {
        uint64_t p;
        if (!row[i]) continue;
        rank++;
        p = row[i] & (~row[i] + 1);
        for (j = i + 1; j < n; j++)
            if (row[j] & p) row[j] ^= row[i];
    }
    return rank;
}

/* |intersectionBasis(a, b)| (GenericSwizzling.cpp): with unit vectors the
 * nonzero bases in both, else the dimension of the spans' intersection. */
static int intersection_size(const bvec *a, const bvec *b)
{
    int i, n = 0, unit = 1;
    for (i = 0; i < a->n; i++) unit &= a->v[i] == 0 || layout_is_pow2_u64(a->v[i]);
    for (i = 0; i < b->n; i++) unit &= b->v[i] == 0 || layout_is_pow2_u64(b->v[i]);
    if (unit) {
        for (i = 0; i < a->n; i++) n += a->v[i] && has(b, a->v[i]);
        return n;
    }
    return f2_rank(a, NULL) + f2_rank(b, NULL) - f2_rank(a, b);
}

/* The tile path (optimalSwizzling with getSrcDstTiles' lists,
 * lib/Conversion/TritonGPUToLLVM/Utility.cpp): among the instruction pairs
 * whose tiles fit, the scratch with the fewest bank conflicts by 3.6's
 * bankConflicts (2^|segment n tile| - 1 per side, the segment after
 * buildReps kept 2 reps for a matrix pair: triton-lang/triton #8200 and
 * #8655), ties to more reps.  3.5's logBankConflicts (bank zero plus
 * segment, counted in bases) chose differently for the corpus's reduce3d
 * sm_90 / sm_120 converts (stmatrix .x4 + ldmatrix .x1 where the PTX has
 * st.shared.v4 / ld.shared.v4), and equals 1 fewer of the 419 scratch
 * converts of python/tests/test_triton_cvt_warp.py.  Returns 1 with the
 * chosen scratch and instructions (0 st/ld.shared, 1 stmatrix/ldmatrix,
 * 2 .trans), 0 when no pair fits. */
static int nvidia_tiles(const layout_triton_kernel *k, const hw_side *src, const hw_side *dst, int bitwidth, int dim,
                        bvec *vb_out, bvec *bb_out, bvec *seg_out, bvec *reps_out, int *kind_s, int *kind_d)
{
    static const mem_tile tiles[3] = {{0, {0}, 3, {0, 1, 2}}, {2, {0, 1}, 3, {2, 3, 4}}, {3, {2, 3, 4}, 2, {0, 1}}};
    int ks[3], kd[3], ns = 0, nd = 0, i, j, found = 0, best = 0, best_reps = 0;
    int total = layout_log2_floor_u64((uint64_t)(128 / bitwidth));
    ks[ns++] = 0;
    kd[nd++] = 0;
    if (bitwidth <= 32) {
        if (k->sm >= 90) ks[ns++] = 1;
        if (k->sm >= 75) kd[nd++] = 1;
    }
    if (bitwidth == 16) {
        if (k->sm >= 90) ks[ns++] = 2;
        if (k->sm >= 75) kd[nd++] = 2;
    }
    for (i = 0; i < ns; i++)
        for (j = 0; j < nd; j++) {
            const mem_tile *ts = &tiles[ks[i]], *td = &tiles[kd[j]];
            int nrs = total - ts->n_contig, nrd = total - td->n_contig, score;
            /* regsMissing: 2 for a matrix tile, 0 for ld/st.shared; two matrix
             * tiles keep 2 reps in the segment (their .x2 / .x4 vectorisation) */
            int miss_s = ts->n_contig + ts->n_addr - 3, miss_d = td->n_contig + td->n_addr - 3;
            int leave = miss_s < miss_d ? miss_s : miss_d;
            bvec vb, tile_s, tile_d, bb, seg2, reps;
            if (nrs < 0 || nrd < 0 || !swz_tile(src, dst, nrs, nrd, ts, td, &vb)) continue;
            if (!get_tile(ts, src, &vb, &tile_s) || !get_tile(td, dst, &vb, &tile_d)) continue;
            scratch_of(&vb, &tile_s, &tile_d, dim, bitwidth, src->reg, dst->reg, leave, &bb, &seg2, &reps);
            /* bankConflicts: (2^|segment n tile| - 1) per side */
            score = ((1 << intersection_size(&seg2, &tile_s)) - 1) + ((1 << intersection_size(&seg2, &tile_d)) - 1);
            if (!found || score < best || (score == best && reps.n > best_reps)) {
                found = 1;
                best = score;
                best_reps = reps.n;
                *vb_out = vb;
                *bb_out = bb;
                *seg_out = seg2;
                *reps_out = reps;
                *kind_s = ks[i];
                *kind_d = kd[j];
            }
        }
    return found;
}

/* cvtNeedsWarpShuffle (lib/Analysis/Utility.cpp) for a conversion that
 * minimalCvtLayout leaves as {register, lane}: Triton shuffles when
 * getWarpLayoutConvertDecomposition finds fewer than 2 mixed
 * transpositions (`factors.mixedTranspositions.size() < 2`, asked with
 * bitwidth 32, which only sets nPack), else it takes
 * transferWithinBlockSwizzling (matchAndRewrite's "Case 3"; NVIDIA's
 * ConvertLayoutOpSwizzlingConversion and Allocation's scratch both ask
 * cvtNeedsSharedMemory = not registers only and not cvtNeedsWarpShuffle).
 *
 * The decomposition: both layouts without their broadcast registers
 * (actionRemoveBroadcastedRegs: the zero bases dropped, order kept), the
 * register and lane dims padded with zero bases to the larger count; P =
 * S.invertAndCompose(T) maps each source hardware bit (registers, then
 * lanes) to the result's: lstsq, the solution over T's pivot columns (a
 * column independent of the ones before it) with the free ones zero --
 * invertAndCompose's identity heuristic (a dim whose bases are equal in
 * both maps to itself) gives the same map when each basis is a basis of
 * the other; a position zero in both is a fixed point, and the positions
 * zero only in S are paired in order with those zero only in T.  The
 * cycle walk over P (registers first) factors out one transposition
 * (r_i l_j) per run of lanes entered from a register, so their number is
 * the number of registers that P sends to a lane.  Returns it, or -1 when
 * P is not a permutation of bits (a source basis that is no single basis
 * of the result: Triton's walk assumes a permutation). */
static int warp_mixed_transpositions(const bvec *rs, const bvec *ls, const bvec *rd, const bvec *ld)
{
    int n_reg = rs->n > rd->n ? rs->n : rd->n, n_lane = ls->n > ld->n ? ls->n : ld->n, n = n_reg + n_lane;
    uint64_t s[2 * NB], t[2 * NB];
    int p[2 * NB], used[2 * NB], src_free[2 * NB], dst_free[2 * NB], n_sf = 0, n_df = 0, k, m = 0;
    echelon e;
    if (n > 2 * NB || n > 64) return -1;
    for (k = 0; k < n; k++) {
        int lane = k >= n_reg, i = lane ? k - n_reg : k;
        const bvec *bs = lane ? ls : rs, *bt = lane ? ld : rd;
        s[k] = i < bs->n ? bs->v[i] : 0;
        t[k] = i < bt->n ? bt->v[i] : 0;
    }
    /* lstsq(T, S): T's columns in order, a pivot when independent */
    memset(&e, 0, sizeof e);
    for (k = 0; k < n; k++)
        if (t[k]) ech_insert(&e, t[k], (uint64_t)1 << k);
    for (k = 0; k < n; k++) {
        uint64_t x;
        p[k] = -1;
        used[k] = 0;
        if (!s[k]) continue;
        x = ech_solve(&e, s[k]);
        if (x == ~(uint64_t)0 || !layout_is_pow2_u64(x)) return -1;
        p[k] = layout_ctz(x);
    }
    for (k = 0; k < n; k++) {
        if (!s[k] && !t[k]) p[k] = k;
        else if (!s[k]) src_free[n_sf++] = k;
        else if (!t[k]) dst_free[n_df++] = k;
    }
    for (k = 0; k < n_sf && k < n_df; k++) p[src_free[k]] = dst_free[k];
    for (k = 0; k < n; k++) {
        if (p[k] < 0 || used[p[k]]) return -1;
        used[p[k]] = 1;
    }
    for (k = 0; k < n_reg; k++)
        if (p[k] >= n_reg) m++;
    return m;
}

/* ---- layout_tk_lower_convert, in steps ----
 *
 * Each step below either fills its part and returns 0, or ends the
 * lowering: it returns 1 with *st what layout_tk_lower_convert returns (r
 * final: not modelled with a reason, or modelled without shared memory). */

/* The two sides of one convert, flattened as Triton's flattenOuts (dim0
 * the fastest).  The steps share it by pointer: six bases of about 520
 * bytes each are not copied onto every step's frame. */
typedef struct cvt_sides {
    bvec rs, ls, ws; /* the source's register, lane and warp bases */
    bvec rd, ld, wd; /* the result's */
    int dim;         /* bits of the flattened tensor */
    int bitwidth;    /* of one element in the scratch (sub-byte types as i8) */
    int source;      /* the source's SSA value */
    layout_linear sl; /* the source's layout */
} cvt_sides;

/* The scratch of transferWithinBlockSwizzlingImpl and the maps into it. */
typedef struct cvt_scratch {
    bvec rs2, rd2;           /* the sides' registers, broadcast ones removed */
    bvec vb, bb, seg2, reps; /* vector, bank, segment and rep bases */
    int kind_s, kind_d;      /* 0 st/ld.shared, 1 stmatrix/ldmatrix, 2 .trans */
    int n_addr;              /* address bits of one round (all but the reps) */
    layout_linear cst, cld;  /* register, lane, warp -> scratch offset: the store's, the load's */
} cvt_scratch;

/* A step's end of the lowering: *st = s, and 1. */
static int cvt_final(layout_status *st, layout_status s)
{
    *st = s;
    return 1;
}

/* The op's source and result tensors as linear layouts, split into cs's
 * register / lane / warp bases; the report's encodings and element bits
 * set on the way (what a convert that is not modelled still reports). */
static int cvt_read_sides(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r, cvt_sides *cs,
                          layout_status *st)
{
    const layout_ttgir *m = k->module;
    const layout_ttgir_op *o = &m->ops[op];
    const layout_ttgir_type *sty, *dty;
    const char *sattr, *dattr;
    size_t slen, dlen;
    layout_triton_attr sa, da;
    layout_linear sl, dl;
    char why[LAYOUT_TRITON_KERNEL_REASON_CAP] = "";
    int bitwidth;

    if (o->n_src < 1 || o->n_dst < 1 || o->src[0].is_memdesc || o->dst[0].is_memdesc)
        return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: no source and result tensor among the op's types"));
    sty = &o->src[0];
    dty = &o->dst[0];
    r->reg_enc_at = sty->enc_at;
    r->reg_enc_len = sty->enc_len;
    r->shared_enc_at = dty->enc_at; /* the result's layout, in the place of a memdesc's */
    r->shared_enc_len = dty->enc_len;
    if (sty->rank < 1 || sty->rank != dty->rank)
        return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: the two tensors differ in rank"));
    bitwidth = sty->elem_bits < 8 ? 8 : sty->elem_bits; /* sub-byte types go through i8 */
    if (bitwidth > 64 || (bitwidth & (bitwidth - 1)))
        return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: element type not 8, 16, 32 or 64 bits"));
    r->elem_bits = bitwidth;
    if (layout_ttgir_encoding(m, sty, &sattr, &slen) != LAYOUT_OK ||
        layout_ttgir_encoding(m, dty, &dattr, &dlen) != LAYOUT_OK)
        return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: a tensor's encoding is not defined"));
    if (layout_tk_reg_linear(m, sty, sattr, slen, &sa, &sl, why, sizeof why) != LAYOUT_OK ||
        layout_tk_reg_linear(m, dty, dattr, dlen, &da, &dl, why, sizeof why) != LAYOUT_OK)
        return cvt_final(st, layout_tk_not_modelled(r, "%s", why));
    /* flattened as Triton's flattenOuts: dim0 the fastest (the packed order) */
    if (sl.n_out != dl.n_out || sl.out_shift[0] != 0 || dl.out_shift[0] != 0 ||
        dl.total_out_bits != sl.total_out_bits)
        return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: the two layouts do not span the same tensor"));
    /* Triton's bases are int32: tensors of at most 2^31 elements; the
     * hardware tags below need register + lane + warp bits < 64 */
    if (sl.total_out_bits > 31 || sl.total_in_bits > 62 || dl.total_in_bits > 62)
        return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: a tensor of more than 2^31 elements or 62 hardware bits"));
    cs->dim = sl.total_out_bits;
    cs->bitwidth = bitwidth;
    cs->source = layout_ttgir_ir_operand(m, o->ir_op, 0);
    cs->sl = sl;
    dim_bases(&sl, "register", &cs->rs);
    dim_bases(&sl, "lane", &cs->ls);
    dim_bases(&sl, "warp", &cs->ws);
    dim_bases(&dl, "register", &cs->rd);
    dim_bases(&dl, "lane", &cs->ld);
    dim_bases(&dl, "warp", &cs->wd);
    if (cs->ls.n != layout_log2_floor_u64((uint64_t)k->arch.wave_size) || cs->ld.n != cs->ls.n)
        return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: the layouts' lanes differ from the arch's wave size"));
    return 0;
}

/* cvtNeedsWarpShuffle for a convert whose data moves only between the
 * lanes of a warp: fewer than 2 mixed transpositions end the lowering
 * (transferWithinWarp, no shared memory); 2 or more go on to the scratch. */
static int cvt_warp_shuffle(const cvt_sides *cs, layout_triton_kernel_op *r, layout_status *st)
{
    bvec rs_nz = {0, {0}}, rd_nz = {0, {0}};
    int i, m;
    for (i = 0; i < cs->rs.n; i++)
        if (cs->rs.v[i]) push(&rs_nz, cs->rs.v[i]);
    for (i = 0; i < cs->rd.n; i++)
        if (cs->rd.v[i]) push(&rd_nz, cs->rd.v[i]);
    m = warp_mixed_transpositions(&rs_nz, &cs->ls, &rd_nz, &cs->ld);
    if (m < 0)
        return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: the data moves only between lanes of a warp, and a source "
                                                       "register or lane basis is not one of the result's (getWarpLayoutConvertDecomposition "
                                                       "needs a permutation of the hardware bits); not modelled"));
    /* Fewer than 2: transferWithinWarp, no shared memory.  The corpus's
     * ISA at these converts: shfl.sync.idx.b32 on sm_80 / sm_90 / sm_120;
     * on gfx950 v_permlane32_swap_b32 / v_permlane16_swap_b32 where
     * ConvertLayoutOpPermlaneSwap applies (one transposition with lane bit
     * 4 or 5), else ds_bpermute_b32, as on gfx942; v_permlanex16_b32 on
     * gfx1100.  ds_bpermute goes through the LDS unit but reads and writes
     * no LDS memory (the ISA has no ds_read / ds_write there), so nothing
     * is counted. */
    if (m < 2) {
        r->modelled = 1;
        r->direction = LAYOUT_WRITE;
        r->n_accesses = 0;
        r->n_counts = 0;
        return cvt_final(st, LAYOUT_OK);
    }
    /* two or more mixed transpositions: cvtNeedsWarpShuffle declines;
     * transferWithinBlockSwizzling */
    return 0;
}

/* minimalCvtLayout: dst's hardware index of each src basis (tags: dst
 * register bits, then lane, then warp).  When no warp moves data the
 * convert ends here: a register renaming, or warp shuffles. */
static int cvt_within_warp(const cvt_sides *cs, layout_triton_kernel_op *r, layout_status *st)
{
    const bvec *rs = &cs->rs, *ls = &cs->ls, *ws = &cs->ws, *rd = &cs->rd, *ld = &cs->ld, *wd = &cs->wd;
    const int nr = rd->n, nl = ld->n;
    echelon e;
    uint64_t warp_mask, lane_mask;
    int i, warp_q = ws->n == wd->n, lane_q = 1;

    memset(&e, 0, sizeof e);
    for (i = 0; i < rd->n; i++) ech_insert(&e, rd->v[i], (uint64_t)1 << i);
    for (i = 0; i < ld->n; i++) ech_insert(&e, ld->v[i], (uint64_t)1 << (nr + i));
    for (i = 0; i < wd->n; i++) ech_insert(&e, wd->v[i], (uint64_t)1 << (nr + nl + i));
    warp_mask = ((((uint64_t)1 << wd->n) - 1) << (nr + nl));
    lane_mask = ((((uint64_t)1 << nl) - 1) << nr);
    for (i = 0; i < ws->n && warp_q; i++) {
        uint64_t t = ech_solve(&e, ws->v[i]);
        if (!(ws->v[i] == 0 && wd->v[i] == 0) && t != (uint64_t)1 << (nr + nl + i)) warp_q = 0;
    }
    for (i = 0; i < rs->n + ls->n && warp_q; i++) {
        uint64_t t = ech_solve(&e, i < rs->n ? rs->v[i] : ls->v[i - rs->n]);
        if (t == ~(uint64_t)0 || (t & warp_mask)) warp_q = 0;
    }
    if (!warp_q) return 0;
    for (i = 0; i < ls->n && lane_q; i++) {
        uint64_t t = ech_solve(&e, ls->v[i]);
        if (!(ls->v[i] == 0 && ld->v[i] == 0) && t != (uint64_t)1 << (nr + i)) lane_q = 0;
    }
    for (i = 0; i < rs->n && lane_q; i++)
        if (ech_solve(&e, rs->v[i]) & lane_mask) lane_q = 0;
    if (lane_q) { /* transferWithinThread: registers renamed, no instruction */
        r->modelled = 1;
        r->direction = LAYOUT_WRITE;
        r->n_accesses = 0;
        return cvt_final(st, LAYOUT_OK);
    }
    /* only lanes (and registers) move: cvtNeedsWarpShuffle */
    return cvt_warp_shuffle(cs, r, st);
}

/* optimalSwizzlingLdSt's bank fill: below 32 bits of vector, the vector
 * bases sc->vb grow by registers of one side that are warps of the other
 * (more wins; on a tie the smaller lowest basis), then common warps, then
 * warps of each side alternately.  Returns which side filled the bank (1
 * the source, 0 the result), -1 when the vector needed no filling. */
static int cvt_fill_bank(const cvt_sides *cs, cvt_scratch *sc)
{
    const int bitwidth = cs->bitwidth;
    bvec *vb = &sc->vb;
    bvec wsn = {0, {0}}, wdn = {0, {0}}, rsw = {0, {0}}, rdw = {0, {0}};
    const bvec *largest;
    int i, per_bank, src_fills;
    if ((1 << vb->n) * bitwidth >= 32) return -1;
    per_bank = layout_log2_floor_u64((uint64_t)(32 / bitwidth));
    for (i = 0; i < cs->ws.n; i++)
        if (cs->ws.v[i]) push(&wsn, cs->ws.v[i]);
    for (i = 0; i < cs->wd.n; i++)
        if (cs->wd.v[i]) push(&wdn, cs->wd.v[i]);
    for (i = 0; i < sc->rs2.n; i++)
        if (!has(vb, sc->rs2.v[i]) && has(&wdn, sc->rs2.v[i])) push(&rsw, sc->rs2.v[i]);
    for (i = 0; i < sc->rd2.n; i++)
        if (!has(vb, sc->rd2.v[i]) && has(&wsn, sc->rd2.v[i])) push(&rdw, sc->rd2.v[i]);
    if (rsw.n == rdw.n && rsw.n > 0) {
        uint64_t ms = rsw.v[0], md = rdw.v[0];
        for (i = 1; i < rsw.n; i++) ms = rsw.v[i] < ms ? rsw.v[i] : ms;
        for (i = 1; i < rdw.n; i++) md = rdw.v[i] < md ? rdw.v[i] : md;
        src_fills = ms < md;
    } else {
        src_fills = rsw.n > rdw.n;
    }
    largest = src_fills ? &rsw : &rdw;
    for (i = 0; i < largest->n; i++) push(vb, largest->v[i]);
    if (vb->n < per_bank)
        for (i = 0; i < wsn.n; i++)
            if (has(&wdn, wsn.v[i])) push(vb, wsn.v[i]);
    for (i = 0; vb->n < per_bank && (i < wsn.n || i < wdn.n); i++) {
        if (i < wsn.n && !has(vb, wsn.v[i])) push(vb, wsn.v[i]);
        if (vb->n < per_bank && i < wdn.n && !has(vb, wdn.v[i])) push(vb, wdn.v[i]);
    }
    if (vb->n > per_bank) vb->n = per_bank;
    return src_fills;
}

/* optimalSwizzlingLdSt (the path every target takes when no tile pair
 * applies): the vector bases, the bank fill, the lane tiles and scratch_of,
 * and below 128-bit vectors the bank bases reordered. */
static void cvt_ldst_scratch(const cvt_sides *cs, cvt_scratch *sc)
{
    const int bitwidth = cs->bitwidth;
    bvec tile_s = {0, {0}}, tile_d = {0, {0}};
    int i, src_fills, log2_vec;
    /* vbasis = intersectionBasis(regSrc, regDst) (unit vectors: src's
     * order), at most log2(128 / bitwidth) of them */
    sc->vb.n = 0;
    for (i = 0; i < sc->rs2.n; i++)
        if (has(&sc->rd2, sc->rs2.v[i]) && sc->vb.n < layout_log2_floor_u64((uint64_t)(128 / bitwidth)))
            push(&sc->vb, sc->rs2.v[i]);
    src_fills = cvt_fill_bank(cs, sc);
    /* tiles: the lanes, minus the last log2(vector bits / 32) */
    log2_vec = layout_log2_floor_u64(
        (uint64_t)((1 << sc->vb.n) * bitwidth / 32 > 1 ? (1 << sc->vb.n) * bitwidth / 32 : 1));
    for (i = 0; i < cs->ls.n - log2_vec; i++) push(&tile_s, cs->ls.v[i]);
    for (i = 0; i < cs->ld.n - log2_vec; i++) push(&tile_d, cs->ld.v[i]);
    scratch_of(&sc->vb, &tile_s, &tile_d, cs->dim, bitwidth, &sc->rs2, &sc->rd2, 0, &sc->bb, &sc->seg2, &sc->reps);
    /* below 128-bit vectors: the bank bases that are registers of the
     * side that filled the bank (else of the side with more) first */
    if (log2_vec < 2) {
        bvec in_s = {0, {0}}, in_d = {0, {0}}, order = {0, {0}};
        const bvec *first;
        for (i = 0; i < sc->bb.n; i++) {
            if (has(&sc->rs2, sc->bb.v[i])) push(&in_s, sc->bb.v[i]);
            if (has(&sc->rd2, sc->bb.v[i])) push(&in_d, sc->bb.v[i]);
        }
        first = src_fills == 1 ? &in_s : src_fills == 0 ? &in_d : in_s.n > in_d.n ? &in_s : &in_d;
        order = *first;
        for (i = 0; i < sc->bb.n; i++)
            if (!has(&order, sc->bb.v[i])) push(&order, sc->bb.v[i]);
        sc->bb = order;
    }
}

/* transferWithinBlockSwizzlingImpl's scratch: the broadcast registers
 * removed, then on NVIDIA the best tile pair when one fits, else
 * optimalSwizzlingLdSt. */
static int cvt_scratch_layout(const layout_triton_kernel *k, const cvt_sides *cs, cvt_scratch *sc,
                              layout_triton_kernel_op *r, layout_status *st)
{
    int i, tiled = 0;
    sc->rs2.n = sc->rd2.n = sc->seg2.n = sc->reps.n = 0;
    sc->kind_s = sc->kind_d = 0;
    for (i = 0; i < cs->rs.n; i++)
        if (cs->rs.v[i]) push(&sc->rs2, cs->rs.v[i]);
    for (i = 0; i < cs->rd.n; i++)
        if (cs->rd.v[i]) push(&sc->rd2, cs->rd.v[i]);
    for (i = 0; i < sc->rs2.n; i++)
        if (!layout_is_pow2_u64(sc->rs2.v[i]))
            return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: a source register basis is not a unit vector (intersectionBasis's nullspace path is not modelled)"));
    for (i = 0; i < sc->rd2.n; i++)
        if (!layout_is_pow2_u64(sc->rd2.v[i]))
            return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: a result register basis is not a unit vector (intersectionBasis's nullspace path is not modelled)"));
    if (k->is_nvidia) {
        hw_side hs = {&sc->rs2, &cs->ls, &cs->ws}, hd = {&sc->rd2, &cs->ld, &cs->wd};
        tiled = nvidia_tiles(k, &hs, &hd, cs->bitwidth, cs->dim, &sc->vb, &sc->bb, &sc->seg2, &sc->reps, &sc->kind_s,
                             &sc->kind_d);
    }
    if (!tiled) cvt_ldst_scratch(cs, sc);
    return 0;
}

/* The address of logical x: its coordinates in (vector, bank, segment,
 * reps); the maps of both sides' registers (those not mapped to reps,
 * divideRight), lanes and warps into one round's scratch. */
static int cvt_scratch_maps(const cvt_sides *cs, cvt_scratch *sc, layout_triton_kernel_op *r, layout_status *st)
{
    const bvec *parts[4] = {&sc->vb, &sc->bb, &sc->seg2, &sc->reps};
    bvec ts_reg = {0, {0}}, td_reg = {0, {0}};
    echelon e;
    int i, p, n_addr = 0;
    if (sc->vb.n + sc->bb.n + sc->seg2.n + sc->reps.n != cs->dim)
        return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: the scratch layout is not a basis (internal)"));
    memset(&e, 0, sizeof e);
    for (p = 0; p < 4; p++)
        for (i = 0; i < parts[p]->n; i++, n_addr++)
            if (!ech_insert(&e, parts[p]->v[i], (uint64_t)1 << n_addr))
                return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: the scratch bases are dependent (internal)"));
    sc->n_addr = cs->dim - sc->reps.n;
    for (i = 0; i < sc->rs2.n; i++)
        if (!has(&sc->reps, sc->rs2.v[i])) push(&ts_reg, sc->rs2.v[i]);
    for (i = 0; i < sc->rd2.n; i++)
        if (!has(&sc->reps, sc->rd2.v[i])) push(&td_reg, sc->rd2.v[i]);
    if (!addr_cvt(&e, sc->n_addr, &ts_reg, &cs->ls, &cs->ws, &sc->cst) ||
        !addr_cvt(&e, sc->n_addr, &td_reg, &cs->ld, &cs->wd, &sc->cld))
        return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: a register, lane or warp maps outside the scratch tile (internal)"));
    return 0;
}

/* One half of a round through the scratch (the store: dir LAYOUT_WRITE,
 * or the load), lowered into *sub: stmatrix / ldmatrix (.trans) where the
 * tile path chose them, else lowerLdStShared. */
static int cvt_lower_half(const layout_triton_kernel *k, const layout_checker *ck, const layout_linear *cvt, int kind,
                          layout_direction dir, int bitwidth, const layout_tk_global *g, layout_triton_kernel_op *r,
                          layout_triton_kernel_op *sub, layout_tk_capture *cap, layout_status *st)
{
    layout_tk_pad nopad = {0, {0}, {0}, 0};
    layout_tk_ds_list list;
    layout_status s2;
    list.capture = cap;
    memset(sub, 0, sizeof *sub);
    sub->kind = r->kind;
    sub->op = r->op; /* its IR uses decide ptxas's 16-bit joins (ptxas_join.c) */
    sub->direction = dir;
    sub->elem_bits = bitwidth;
    sub->worst_access = -1;
    if (kind) {
        if (!layout_tk_ldst_matrix(k, ck, cvt, kind == 2, sub, cap))
            return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: the tile path chose %s but its lowering does not apply (not modelled)",
                                                        dir == LAYOUT_WRITE ? "stmatrix" : "ldmatrix"));
    } else if ((s2 = cap ? layout_tk_lower_ldst_list(k, ck, cvt, &nopad, 0, g, INT64_MAX, sub, &list)
                         : layout_tk_lower_ldst(k, ck, cvt, &nopad, 0, g, sub)) != LAYOUT_OK) {
        return cvt_final(st, s2);
    }
    if (!sub->modelled) return cvt_final(st, layout_tk_not_modelled(r, "ttg.convert_layout: %s", sub->reason));
    return 0;
}

/* AMD: how the source's registers came packed into VGPRs
 * (layout_tk_packed_words: a global load's words, gfx950's pairs of
 * converted f32), in the store map's register bits (the source's
 * registers less the broadcast ones and the rounds'): the stores of the
 * elements in a VGPR's high half are `_d16_hi` (ldst.c). */
static void cvt_store_words(const layout_triton_kernel *k, const cvt_sides *cs, const cvt_scratch *sc,
                            layout_tk_global *g)
{
    layout_tk_global own;
    int ir = layout_linear_in_dim(&cs->sl, "register");
    g->word_bits = 0, g->run1 = g->run2 = g->part_phi = -1;
    if (k->is_nvidia || ir < 0 || !layout_tk_packed_words(k, cs->source, &cs->sl, cs->bitwidth, &own)) return;
    bvec ts_reg = {0, {0}};
    for (int i = 0; i < sc->rs2.n; i++)
        if (!has(&sc->reps, sc->rs2.v[i])) push(&ts_reg, sc->rs2.v[i]);
    g->word_bits = own.word_bits;
    for (int j = 0; j < ts_reg.n; j++) {
        if (own.run1 >= 0 && ts_reg.v[j] == layout_tk_basis(&cs->sl, ir, own.run1)) g->run1 = j;
        if (own.run2 >= 0 && ts_reg.v[j] == layout_tk_basis(&cs->sl, ir, own.run2)) g->run2 = j;
    }
}

/* The captured entries [from, cap->n) of one half: their seq and partners
 * moved to start at from (ldst.c numbers each list from 0). */
static void cvt_renumber(layout_tk_capture *cap, int from)
{
    for (int i = from; i < cap->n && i < cap->cap; i++) {
        cap->out[i].seq = i;
        if (cap->out[i].partner >= 0) cap->out[i].partner += from;
    }
}

/* Rounds 1 .. rounds - 1 of the stream: round 0's entries [0, per) again,
 * each round after the one before (Triton's loop: store, barrier, load,
 * barrier, per round). */
static void cvt_repeat_rounds(layout_tk_capture *cap, int per, int rounds)
{
    for (int q = 1; q < rounds; q++)
        for (int i = 0; i < per; i++, cap->n++) {
            if (cap->n >= cap->cap || i >= cap->cap) continue;
            cap->out[cap->n] = cap->out[i];
            cap->out[cap->n].seq = cap->n;
            if (cap->out[i].partner >= 0) cap->out[cap->n].partner += q * per;
            if (cap->out[i].passes & LAYOUT_TRITON_PASS_PTXAS_JOIN) cap->out[cap->n].ptxas_lead += q * per;
        }
}

/* The store and the load of every round (2^|reps| of them), costed and
 * merged into r; their stream into cap (NULL: none). */
static layout_status cvt_cost_rounds(const layout_triton_kernel *k, const cvt_sides *cs, const cvt_scratch *sc,
                                     layout_triton_kernel_op *r, layout_tk_capture *cap, layout_error *err)
{
    layout_triton_kernel_op sub;
    layout_checker ck;
    layout_status st;
    if (layout_checker_init(&ck, &k->arch, LAYOUT_IMPL_AUTO, err) != LAYOUT_OK) return err ? err->status : LAYOUT_ERR_ARG;
    r->direction = LAYOUT_WRITE;
    r->worst_access = -1;
    r->n_accesses = 0;
    r->n_counts = 0;
    layout_tk_global g;
    cvt_store_words(k, cs, sc, &g);
    if (cvt_lower_half(k, &ck, &sc->cst, sc->kind_s, LAYOUT_WRITE, cs->bitwidth, &g, r, &sub, cap, &st)) return st;
    r->vec_elems = sub.vec_elems;
    r->vec_bits = sub.vec_bits;
    layout_tk_merge(r, &sub, (int64_t)1 << sc->reps.n);
    int loads_from = cap ? cap->n : 0;
    if (cvt_lower_half(k, &ck, &sc->cld, sc->kind_d, LAYOUT_READ, cs->bitwidth, NULL, r, &sub, cap, &st)) return st;
    if (cap) {
        cvt_renumber(cap, loads_from);
        cvt_repeat_rounds(cap, cap->n, 1 << sc->reps.n);
    }
    r->cvt_load_vec_elems = sub.vec_elems;
    layout_tk_merge(r, &sub, (int64_t)1 << sc->reps.n);
    r->cvt_reps = 1 << sc->reps.n;
    r->cvt_scratch_bytes = ((int64_t)1 << sc->n_addr) * (cs->bitwidth / 8);
    r->modelled = 1;
    return LAYOUT_OK;
}

layout_status layout_tk_lower_convert(const layout_triton_kernel *k, int op, layout_triton_kernel_op *r,
                                      layout_tk_capture *capture, layout_error *err)
{
    cvt_sides cs;
    cvt_scratch sc;
    layout_status st;
    if (cvt_read_sides(k, op, r, &cs, &st) || cvt_within_warp(&cs, r, &st) ||
        cvt_scratch_layout(k, &cs, &sc, r, &st) || cvt_scratch_maps(&cs, &sc, r, &st))
        return st;
    return cvt_cost_rounds(k, &cs, &sc, r, capture, err);
}
