/* Layout families (family.h): every parameter set of every family on
 * several tiles against the families' own formulas written here
 * independently, bijectivity, LDS bytes, iterator counts against a
 * brute-force enumeration, known answers from the seeds and from each
 * dialect's documentation / unit tests, and every error path. */
#include "harness.h"
#include "layout.h"

#include "../examples/seed_kernels.h"
#include "suggest/suggest_internal.h"

static int64_t g_linear_sets; /* sets layout_family_linear_bases() called linear (test_linear_sets) */
static int64_t g_pad_forms; /* sets whose pad form was compared */
static int64_t g_hints_closed; /* sets whose closed-form hints were compared */
static int64_t g_hint_shared; /* XOR + pad sets whose hints were compared with another padding's */

/* ---- independent references ---------------------------------------------- */

static int64_t r_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/* CuTe swizzle.hpp's definition: yyy_msk = bit_msk << (M + max(0, S)),
 * zzz_msk = bit_msk << (M - min(0, S)), swizzle(o) = o ^ shiftr(o & yyy_msk, S)
 * (shiftr by a negative amount shifts left). */
static int64_t cute_swizzle(int64_t o, int64_t B, int64_t M, int64_t S)
{
    int64_t bit_msk = ((int64_t)1 << B) - 1;
    int64_t yyy = bit_msk << (M + (S > 0 ? S : 0));
    int64_t t = o & yyy;
    return o ^ (S >= 0 ? t >> S : t << -S);
}

/* Triton's linear layout of swizzled_shared (LinearLayoutConversions.cpp,
 * swizzledSharedToLinearLayout): the offset bit of row 2^i carries column
 * (vec * ((2^i / perPhase) % maxPhase)) % C; the physical column of (r, c)
 * is c xor the columns of r's set bits. */
static int64_t triton_col(int64_t r, int64_t c, int64_t C, int64_t vec, int64_t pp, int64_t mp)
{
    int64_t x = 0;
    for (int i = 0; ((int64_t)1 << i) <= r; i++)
        if (r >> i & 1) x ^= (vec * ((((int64_t)1 << i) / pp) % mp)) % C;
    return c ^ x;
}

static int64_t ref_base(layout_family_kind kind, const int64_t *p, int64_t R, int64_t C, int64_t r, int64_t c)
{
    (void)R;
    switch (kind) {
    case LAYOUT_FAMILY_PAD: return r * (C + p[0]) + c;
    case LAYOUT_FAMILY_PAD_EVERY: return r * C + (r / p[0]) * p[1] + c;
    case LAYOUT_FAMILY_CK_XOR: { /* docs/lds-model.md §4.2 / the ROCm CK-Tile blog: K0' = K0 ^ (M % (KPerBlock/KPack*MLdsLayer)) */
        int64_t kp = p[0], L = p[1], K0 = C / kp, Al = K0 * L;
        int64_t B = r / L, A = (r % L) * K0 + c / kp, A2 = A ^ (B % Al);
        return B * C * L + A2 * kp + c % kp;
    }
    case LAYOUT_FAMILY_CUTE_SWIZZLE: {
        int64_t o = r * C + c;
        if (p[3] > 0) return cute_swizzle(o * p[3], p[0], p[1], p[2]) / p[3];
        return cute_swizzle(o, p[0], p[1], p[2]);
    }
    case LAYOUT_FAMILY_TRITON_SWIZZLED: return r * C + triton_col(r, c, C, p[0], p[1], p[2]);
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE: { /* the IREE swizzle talk (docs/lds-model.md §6) */
        int64_t aw = p[1], groups = p[0] / aw, phase = (r / p[3]) % groups;
        int64_t phys = ((c / aw) ^ phase) * aw + c % aw;
        return r * p[2] + phys;
    }
    default: return -1;
    }
}

static int64_t ref_offset(const layout_family_params *pr, const int64_t tile[2], int64_t d0, int64_t d1)
{
    int64_t R = tile[1 - pr->contiguous_dim], C = tile[pr->contiguous_dim];
    int64_t r = pr->contiguous_dim ? d0 : d1, c = pr->contiguous_dim ? d1 : d0;
    if (pr->kind == LAYOUT_FAMILY_XOR_PAD)
        return ref_base(pr->xor_kind, pr->p, R, C, r, c) + (r / pr->pad_rows) * pr->pad;
    return ref_base(pr->kind, pr->p, R, C, r, c);
}

/* Extra elements over R*C, from the definitions of each family's storage. */
static int64_t ref_extra(const layout_family_params *pr, int64_t R, int64_t C)
{
    switch (pr->kind) {
    case LAYOUT_FAMILY_PAD: return (R - 1) * pr->p[0];
    case LAYOUT_FAMILY_PAD_EVERY: return (R / pr->p[0] - 1) * pr->p[1];
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE: return (R - 1) * (pr->p[2] - C);
    case LAYOUT_FAMILY_XOR_PAD:
        return (R / pr->pad_rows - 1) * pr->pad +
               (pr->xor_kind == LAYOUT_FAMILY_IREE_XOR_SHUFFLE ? (R - 1) * (pr->p[2] - C) : 0);
    default: return 0;
    }
}

/* ---- brute-force legality and counts (the header's rules, restated) ---------- */

static int bf_legal_base(layout_family_kind k, const int64_t *p, int64_t R, int64_t C)
{
    switch (k) {
    case LAYOUT_FAMILY_CK_XOR:
        return p[0] >= 1 && C % p[0] == 0 && p[1] >= 1 && R % p[1] == 0 && r_pow2(C / p[0] * p[1]);
    case LAYOUT_FAMILY_CUTE_SWIZZLE: {
        int64_t aS = p[2] < 0 ? -p[2] : p[2];
        if (p[0] < 1 || p[1] < 0 || aS < p[0]) return 0;
        int64_t bits = p[1] + aS + p[0];
        return bits <= 40 && (R * C) % ((int64_t)1 << bits) == 0;
    }
    case LAYOUT_FAMILY_TRITON_SWIZZLED:
        return r_pow2(p[0]) && r_pow2(p[1]) && r_pow2(p[2]) && r_pow2(C) && (p[1] >= R || R % p[1] == 0);
    default: /* IREE */
        return p[0] == C && p[1] >= 1 && C % p[1] == 0 && r_pow2(C / p[1]) && p[2] >= C && p[3] >= 1 &&
               (p[3] >= R || R % p[3] == 0);
    }
}

/* Count of every parameter set of the documented enumeration domain that the
 * rules accept and the budget admits, by plain nested loops over wide ranges. */
static int64_t bf_count(layout_family_kind kind, int64_t R, int64_t C, int e, int64_t budget)
{
    int64_t n = 0, p[6] = {0};
    switch (kind) {
    case LAYOUT_FAMILY_PAD:
        if (R == 1) return 1;
        for (int64_t pad = 0; pad <= 5000; pad++) n += (R - 1) * pad * e <= budget;
        return n;
    case LAYOUT_FAMILY_PAD_EVERY:
        for (int64_t N = 2; N < R; N++)
            for (int64_t pad = 1; pad <= 5000; pad++) n += R % N == 0 && (R / N - 1) * pad * e <= budget;
        return n;
    case LAYOUT_FAMILY_CK_XOR:
        for (p[0] = 1; p[0] <= C; p[0]++)
            for (p[1] = 1; p[1] <= R; p[1]++) n += bf_legal_base(kind, p, R, C);
        return n;
    case LAYOUT_FAMILY_CUTE_SWIZZLE:
        for (p[0] = 0; p[0] <= 30; p[0]++)
            for (p[1] = 0; p[1] <= 30; p[1]++)
                for (p[2] = -30; p[2] <= 30; p[2]++) n += bf_legal_base(kind, p, R, C);
        return n;
    case LAYOUT_FAMILY_TRITON_SWIZZLED:
        for (p[0] = 1; p[0] <= C; p[0]++)
            for (p[1] = 1; p[1] <= R; p[1]++)
                for (p[2] = 1; p[2] <= C / p[0]; p[2]++) n += bf_legal_base(kind, p, R, C);
        return n;
    case LAYOUT_FAMILY_IREE_XOR_SHUFFLE:
        p[0] = C;
        for (p[1] = 1; p[1] <= C; p[1]++)
            for (p[3] = 1; p[3] <= R; p[3]++)
                for (int64_t pad = 0; pad <= 2000; pad++) {
                    p[2] = C + pad;
                    if (pad > 0 && (R == 1 || (R - 1) * pad * e > budget)) break;
                    n += bf_legal_base(kind, p, R, C);
                }
        return n;
    case LAYOUT_FAMILY_XOR_PAD: {
        static const layout_family_kind bases[4] = {LAYOUT_FAMILY_CK_XOR, LAYOUT_FAMILY_CUTE_SWIZZLE,
                                                    LAYOUT_FAMILY_TRITON_SWIZZLED, LAYOUT_FAMILY_IREE_XOR_SHUFFLE};
        for (int b = 0; b < 4; b++) {
            int64_t q[6] = {0};
            for (int64_t N = (b == 3 ? 2 : 1); N < R; N++) {
                if (R % N) continue;
                int64_t legal = 0;
                if (b == 0) {
                    for (q[0] = 1; q[0] <= C; q[0]++)
                        for (q[1] = 1; q[1] <= R; q[1]++)
                            legal += bf_legal_base(bases[b], q, R, C) && N % q[1] == 0;
                } else if (b == 1) {
                    for (q[0] = 1; q[0] <= 30; q[0]++)
                        for (q[1] = 0; q[1] <= 30; q[1]++)
                            for (q[2] = -30; q[2] <= 30; q[2]++) {
                                if (!bf_legal_base(bases[b], q, R, C)) continue;
                                int64_t aS = q[2] < 0 ? -q[2] : q[2];
                                legal += (N * C) % ((int64_t)1 << (q[0] + q[1] + aS)) == 0;
                            }
                } else if (b == 2) {
                    for (q[0] = 1; q[0] <= C; q[0]++)
                        for (q[1] = 1; q[1] <= R; q[1]++)
                            for (q[2] = 1; q[2] <= C / q[0]; q[2]++) legal += bf_legal_base(bases[b], q, R, C);
                } else {
                    q[0] = C;
                    q[2] = C;
                    for (q[1] = 1; q[1] <= C; q[1]++)
                        for (q[3] = 1; q[3] <= R; q[3]++) legal += bf_legal_base(bases[b], q, R, C);
                }
                for (int64_t pad = 1; pad <= 5000; pad++)
                    if ((R / N - 1) * pad * e <= budget) n += legal;
            }
        }
        return n;
    }
    default: return 0;
    }
}

/* ---- every parameter set, every coordinate ----------------------------------- */

static int64_t g_coords[1 << 14][2], g_offs[1 << 14];
static unsigned char g_ws[1 << 20];

static void check_one(const layout_family_params *pr, const int64_t tile[2], int e)
{
    layout_descriptor d;
    layout_error err;
    char name[160];
    layout_family_params_print(pr, name, sizeof name);
    layout_status s = layout_family_build(pr, tile, &d, &err);
    CHECK_MSG(s == LAYOUT_OK, "%s on %lldx%lld: %s", name, (long long)tile[0], (long long)tile[1], err.message);
    if (s) return;
    CHECK_EQ_I64(layout_desc_ndims(&d), 2);
    CHECK_EQ_I64(layout_desc_length(&d, 0), tile[0]);
    CHECK_EQ_I64(layout_desc_length(&d, 1), tile[1]);
    size_t n = 0;
    for (int64_t i = 0; i < tile[0]; i++)
        for (int64_t j = 0; j < tile[1]; j++) {
            g_coords[n][0] = i;
            g_coords[n][1] = j;
            n++;
        }
    CHECK(layout_desc_offsets(&d, n, &g_coords[0][0], g_offs, NULL) == LAYOUT_OK);
    int bad = 0;
    for (size_t k = 0; k < n && bad < 3; k++) {
        int64_t want = ref_offset(pr, tile, g_coords[k][0], g_coords[k][1]);
        if (g_offs[k] != want) {
            bad++;
            CHECK_MSG(0, "%s on %lldx%lld c%d: (%lld,%lld) -> %lld, formula %lld", name, (long long)tile[0],
                      (long long)tile[1], pr->contiguous_dim, (long long)g_coords[k][0], (long long)g_coords[k][1],
                      (long long)g_offs[k], (long long)want);
        }
    }
    /* the library's closed form agrees with its own descriptor */
    static int64_t fam[1 << 14];
    CHECK(layout_family_offsets(pr, tile, n, &g_coords[0][0], fam, NULL) == LAYOUT_OK);
    CHECK(memcmp(fam, g_offs, n * sizeof fam[0]) == 0);
    /* the whole-tile form (row by row, no divisions) too */
    static int64_t whole[1 << 14];
    CHECK(layout_family_tile_offsets(pr, tile, whole, n, NULL) == LAYOUT_OK);
    CHECK_MSG(memcmp(whole, g_offs, n * sizeof whole[0]) == 0, "%s: layout_family_tile_offsets differs", name);
    /* the pad form: the unpadded set's offsets plus (row >> shift) * pad */
    {
        layout_family_params un;
        int64_t pad;
        int shift;
        if (layout_family_pad_form(pr, tile, &un, &pad, &shift)) {
            g_pad_forms++;
            CHECK(layout_family_check(&un, tile, NULL) == LAYOUT_OK);
            int pf_bad = 0;
            for (size_t k = 0; k < n && !pf_bad; k++) {
                int64_t row = pr->contiguous_dim ? g_coords[k][0] : g_coords[k][1];
                pf_bad = layout_family_offset_unchecked(&un, tile, g_coords[k][0], g_coords[k][1]) + (row >> shift) * pad !=
                         g_offs[k];
            }
            CHECK_MSG(!pf_bad, "%s on %lldx%lld: pad form (pad %lld every 2^%d rows) differs", name, (long long)tile[0],
                      (long long)tile[1], (long long)pad, shift);
        }
    }
    /* the closed-form vector hints, where given, are the descriptor's */
    {
        int64_t hl[LAYOUT_MAX_DIMS], hs[LAYOUT_MAX_DIMS], cl[2], cs[2];
        CHECK(layout_desc_vector_hints(&d, hl, hs, NULL) == LAYOUT_OK);
        if (layout_family_vector_hints(pr, tile, cl, cs)) {
            g_hints_closed++;
            CHECK_MSG(hl[0] == cl[0] && hl[1] == cl[1] && hs[0] == cs[0] && hs[1] == cs[1],
                      "%s on %lldx%lld: closed-form hints (%lld/%lld, %lld/%lld), descriptor (%lld/%lld, %lld/%lld)", name,
                      (long long)tile[0], (long long)tile[1], (long long)cl[0], (long long)cs[0], (long long)cl[1],
                      (long long)cs[1], (long long)hl[0], (long long)hs[0], (long long)hl[1], (long long)hs[1]);
        }
    }
    /* XOR + pad: the vector hints do not depend on the padding (the search
     * builds one descriptor per XOR set for its padded variants): every set
     * against the last one seen with the same set apart from pad, pad_rows */
    if (pr->kind == LAYOUT_FAMILY_XOR_PAD) {
        static layout_family_params last_key;
        static int64_t last_l[LAYOUT_MAX_DIMS], last_s[LAYOUT_MAX_DIMS], last_tile[2];
        static int have_last;
        layout_family_params key = *pr;
        key.pad = key.pad_rows = 0;
        int64_t hl[LAYOUT_MAX_DIMS], hs[LAYOUT_MAX_DIMS];
        CHECK(layout_desc_vector_hints(&d, hl, hs, NULL) == LAYOUT_OK);
        if (have_last && memcmp(&key, &last_key, sizeof key) == 0 && last_tile[0] == tile[0] && last_tile[1] == tile[1]) {
            g_hint_shared++;
            CHECK_MSG(memcmp(hl, last_l, 2 * sizeof hl[0]) == 0 && memcmp(hs, last_s, 2 * sizeof hs[0]) == 0,
                      "%s: hints (%lld/%lld, %lld/%lld) differ from another padding's", name, (long long)hl[0],
                      (long long)hs[0], (long long)hl[1], (long long)hs[1]);
        }
        last_key = key;
        memcpy(last_l, hl, sizeof last_l);
        memcpy(last_s, hs, sizeof last_s);
        last_tile[0] = tile[0];
        last_tile[1] = tile[1];
        have_last = 1;
    }
    /* where the set claims to be linear over F2, its bases give every offset */
    uint64_t bases[64];
    int in_bits[2], out_bits = -1;
    if (layout_family_linear_bases(pr, tile, bases, in_bits, &out_bits)) {
        g_linear_sets++;
        CHECK_EQ_I64((int64_t)1 << out_bits, layout_desc_element_space_size(&d));
        int lin_bad = 0;
        for (size_t k = 0; k < n && !lin_bad; k++) {
            uint64_t x = (uint64_t)g_coords[k][0] | ((uint64_t)g_coords[k][1] << in_bits[0]), v = 0;
            for (int j = 0; x; j++, x >>= 1)
                if (x & 1u) v ^= bases[j];
            lin_bad = (int64_t)v != g_offs[k];
        }
        CHECK_MSG(!lin_bad, "%s on %lldx%lld: linear bases differ from the descriptor", name, (long long)tile[0],
                  (long long)tile[1]);
    }
    int64_t R = tile[1 - pr->contiguous_dim], C = tile[pr->contiguous_dim];
    int64_t bytes = -1;
    CHECK(layout_family_lds_bytes(pr, tile, e, &bytes, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(bytes, layout_desc_element_space_size(&d) * e);
    CHECK_EQ_I64(bytes, (R * C + ref_extra(pr, R, C)) * e);
    layout_offset_report rep;
    CHECK(layout_desc_verify_offsets(&d, g_ws, sizeof g_ws, &rep, NULL) == LAYOUT_OK);
    CHECK_MSG(rep.injective, "%s not injective", name);
    if (ref_extra(pr, R, C) == 0) CHECK_MSG(rep.bijective, "%s not a bijection onto [0, %lld)", name, (long long)(R * C));
}

/* Under LAYOUT_TEST_SCALE < 1 (valgrind) every set is still enumerated and
 * counted, but only one in 1/scale is built and checked coordinate by
 * coordinate. */
static long check_every(void)
{
    long k = 1000 / harness_scaled(1000);
    return k < 1 ? 1 : k;
}

static const int64_t tiles[][2] = {{64, 32}, {32, 64}, {16, 16}, {128, 8}, {8, 128}, {48, 32}, {4, 8}, {1, 8}, {12, 6}};
enum { N_TILES = sizeof tiles / sizeof tiles[0] };

static void run_kind_on(layout_family_kind kind, int64_t budget, const int64_t (*tl)[2], int n_tiles)
{
    for (int t = 0; t < n_tiles; t++)
        for (int cd = 0; cd < 2; cd++) {
            const int e = 2;
            layout_family_iter it;
            layout_error err;
            CHECK(layout_family_iter_init(&it, kind, tl[t], cd, e, budget, &err) == LAYOUT_OK);
            layout_family_params p, prev;
            int64_t count = 0;
            memset(&prev, 0, sizeof prev);
            while (layout_family_iter_next(&it, &p)) {
                CHECK(p.kind == kind && p.contiguous_dim == cd);
                CHECK(layout_family_check(&p, tl[t], NULL) == LAYOUT_OK);
                if (count) CHECK(memcmp(&p, &prev, sizeof p) != 0);
                prev = p;
                if (count % check_every() == 0) check_one(&p, tl[t], e);
                count++;
            }
            CHECK(it.done && !layout_family_iter_next(&it, &p));
            CHECK_EQ_I64(it.produced, count);
            int64_t R = tl[t][1 - cd], C = tl[t][cd];
            int64_t want = bf_count(kind, R, C, e, budget);
            CHECK_MSG(count == want, "%s %lldx%lld c%d budget %lld: iterator %lld, brute force %lld",
                      layout_family_name(kind), (long long)tl[t][0], (long long)tl[t][1], cd, (long long)budget,
                      (long long)count, (long long)want);
        }
}

static void run_kind(layout_family_kind kind, int64_t budget) { run_kind_on(kind, budget, tiles, N_TILES); }

/* XOR + pad multiplies every XOR set by every (pad_rows, pad): smaller tiles
 * with a real budget, the seed tile with a tight one. */
static const int64_t pad_tiles[][2] = {{16, 16}, {4, 8}, {12, 6}, {8, 32}, {1, 8}};

static void test_pad(void) { run_kind(LAYOUT_FAMILY_PAD, 0); run_kind(LAYOUT_FAMILY_PAD, 96); }
static void test_pad_every(void) { run_kind(LAYOUT_FAMILY_PAD_EVERY, 0); run_kind(LAYOUT_FAMILY_PAD_EVERY, 96); }
static void test_ck_xor(void) { run_kind(LAYOUT_FAMILY_CK_XOR, 0); }
static void test_cute(void) { run_kind(LAYOUT_FAMILY_CUTE_SWIZZLE, 0); }
static void test_triton(void) { run_kind(LAYOUT_FAMILY_TRITON_SWIZZLED, 0); }
static void test_iree(void) { run_kind(LAYOUT_FAMILY_IREE_XOR_SHUFFLE, 0); run_kind(LAYOUT_FAMILY_IREE_XOR_SHUFFLE, 40); }
static void test_xor_pad(void)
{
    static const int64_t seed_tile[1][2] = {{64, 32}};
    run_kind(LAYOUT_FAMILY_XOR_PAD, 0);
    run_kind_on(LAYOUT_FAMILY_XOR_PAD, 24, pad_tiles, 5);
    run_kind_on(LAYOUT_FAMILY_XOR_PAD, 4, seed_tile, 1);
}

static void test_f2_reserved(void)
{
    layout_family_iter it;
    layout_family_params p;
    int64_t tile[2] = {64, 32};
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_F2, tile, 1, 2, 0, NULL) == LAYOUT_OK);
    CHECK(!layout_family_iter_next(&it, &p));
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_F2;
    layout_error err;
    CHECK(layout_family_check(&p, tile, &err) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(err.message, "suggest");
}

/* Hand-picked parameter sets the enumeration does not produce (byte form,
 * row_mul, IREE rows with their own stride plus XOR_PAD, B = 0). */
static void test_extra_forms(void)
{
    layout_family_params p;
    int64_t t6432[2] = {64, 32}, t16128[2] = {16, 128};
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_CUTE_SWIZZLE;
    p.contiguous_dim = 1;
    p.p[0] = 3; p.p[1] = 4; p.p[2] = 3; p.p[3] = 2; /* Swizzle<3,4,3> on fp16 bytes = Swizzle<3,3,3> on elements */
    check_one(&p, t6432, 2);
    p.p[0] = 2; p.p[1] = 1; p.p[2] = -3; p.p[3] = 0;
    check_one(&p, t6432, 2);
    p.p[0] = 0; p.p[1] = 4; p.p[2] = 3; /* Swizzle<0,4,3>: identity */
    check_one(&p, t6432, 2);
    p.kind = LAYOUT_FAMILY_XOR_PAD; p.xor_kind = LAYOUT_FAMILY_CUTE_SWIZZLE; p.pad = 3; p.pad_rows = 4;
    check_one(&p, t6432, 2);
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_CK_XOR; p.contiguous_dim = 1; p.p[0] = 8; p.p[1] = 4; p.p[2] = 2;
    check_one(&p, t6432, 2);
    p.contiguous_dim = 0;
    check_one(&p, t6432, 2);
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_XOR_PAD; p.xor_kind = LAYOUT_FAMILY_IREE_XOR_SHUFFLE; p.contiguous_dim = 1;
    p.p[0] = 128; p.p[1] = 8; p.p[2] = 136; p.p[3] = 3; /* per_phase 3 does not divide 16 */
    CHECK(layout_family_check(&p, t16128, NULL) == LAYOUT_ERR_ARG);
    p.p[3] = 32; p.pad = 5; p.pad_rows = 4; /* per_phase >= rows: phase always 0 */
    check_one(&p, t16128, 2);
    p.p[3] = 2;
    check_one(&p, t16128, 2);
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_TRITON_SWIZZLED; p.contiguous_dim = 1;
    p.p[0] = 256; p.p[1] = 64; p.p[2] = 64; /* vec beyond the row, perPhase beyond the rows */
    check_one(&p, t16128, 4);
}

/* ---- known answers -------------------------------------------------------------- */

static int64_t off_of(const layout_descriptor *d, int64_t a, int64_t b)
{
    int64_t c[2] = {a, b}, o = -1;
    layout_desc_offset(d, c, &o, NULL);
    return o;
}

/* Seed 004 (IREE talk): xor_shuffle<128, 4, 128, 1>, tile[3][8] -> 388 elements. */
static void test_seed004(void)
{
    layout_family_params p;
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_IREE_XOR_SHUFFLE;
    p.contiguous_dim = 1;
    p.p[0] = 128; p.p[1] = 4; p.p[2] = 128; p.p[3] = 1;
    int64_t tile[2] = {16, 128};
    layout_descriptor d;
    CHECK(layout_family_build(&p, tile, &d, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(off_of(&d, 3, 8), 388);
    CHECK_EQ_I64(off_of(&d, 3, 8) * 2 / 4 % 32, 2); /* the IREE talk's example: bank 2 for f16 */
    char buf[64];
    CHECK_EQ_I64(layout_family_params_print(&p, buf, sizeof buf), (int64_t)strlen("xor_shuffle<128,4,128,1>"));
    CHECK(strcmp(buf, "xor_shuffle<128,4,128,1>") == 0);
}

static void same_offsets(const layout_descriptor *a, const layout_descriptor *b)
{
    CHECK_EQ_I64(layout_desc_length(a, 0), layout_desc_length(b, 0));
    CHECK_EQ_I64(layout_desc_length(a, 1), layout_desc_length(b, 1));
    CHECK_EQ_I64(layout_desc_element_space_size(a), layout_desc_element_space_size(b));
    int bad = 0;
    for (int64_t i = 0; i < layout_desc_length(a, 0); i++)
        for (int64_t j = 0; j < layout_desc_length(a, 1); j++) bad += off_of(a, i, j) != off_of(b, i, j);
    CHECK_EQ_I64(bad, 0);
}

/* Seed kernels 08 (32 and 64 banks), 05 and 03 built by examples/seed_kernels.h. */
static void test_seed_kernels(void)
{
    layout_family_params p;
    layout_descriptor d, s;
    int64_t tile[2] = {64, 32};
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_CK_XOR;
    p.contiguous_dim = 1;
    p.p[0] = 8; p.p[1] = 2;
    CHECK(layout_family_build(&p, tile, &d, NULL) == LAYOUT_OK);
    CHECK(seed_xor_desc(&s, 2, 0, 1, NULL) == LAYOUT_OK);
    same_offsets(&d, &s);
    CHECK_EQ_I64(off_of(&d, 2, 0), 72); /* layout.h's tour */
    char a[4096], b[4096];
    CHECK(layout_desc_to_text(&d, a, sizeof a, NULL) == LAYOUT_OK);
    CHECK(layout_desc_to_text(&s, b, sizeof b, NULL) == LAYOUT_OK);
    CHECK_MSG(strcmp(a, b) == 0, "%s\n vs %s", a, b); /* the same ck_tile chain, stage for stage */
    p.p[1] = 4; p.p[2] = 2;                           /* 64 banks: MLdsLayer 4, RowMul 2 */
    CHECK(layout_family_build(&p, tile, &d, NULL) == LAYOUT_OK);
    CHECK(seed_xor_desc(&s, 4, 0, 2, NULL) == LAYOUT_OK);
    same_offsets(&d, &s);
    CHECK(layout_desc_to_text(&d, a, sizeof a, NULL) == LAYOUT_OK);
    CHECK(layout_desc_to_text(&s, b, sizeof b, NULL) == LAYOUT_OK);
    CHECK(strcmp(a, b) == 0);
    /* kernel 05: B-row stride (kK + 1) * L = 66, i.e. 2 elements after every L = 2 rows */
    p.kind = LAYOUT_FAMILY_XOR_PAD; p.xor_kind = LAYOUT_FAMILY_CK_XOR;
    p.p[1] = 2; p.p[2] = 0; p.pad = 2; p.pad_rows = 2; /* (kK + 1) * L: 2 elements per 2 rows */
    CHECK(layout_family_build(&p, tile, &d, NULL) == LAYOUT_OK);
    CHECK(seed_xor_desc(&s, 2, 1, 1, NULL) == LAYOUT_OK);
    same_offsets(&d, &s);
    CHECK(layout_desc_to_text(&d, a, sizeof a, NULL) == LAYOUT_OK);
    CHECK(layout_desc_to_text(&s, b, sizeof b, NULL) == LAYOUT_OK);
    CHECK(strcmp(a, b) == 0);
    /* kernel 03: rows of 34 fp16 */
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_PAD; p.contiguous_dim = 1; p.p[0] = 2;
    seed_kernel k;
    CHECK(seed_kernel_build(&k, SEED_K03, 32, NULL) == LAYOUT_OK);
    CHECK(layout_family_build(&p, tile, &d, NULL) == LAYOUT_OK);
    same_offsets(&d, &k.write_desc);
    int64_t bytes;
    CHECK(layout_family_lds_bytes(&p, tile, 2, &bytes, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(bytes, 4348); /* family.h's example: (64*32 + 63*2)*2 */
    /* kernel 02: column-major storage = PAD 0 with M contiguous */
    p.p[0] = 0; p.contiguous_dim = 0;
    CHECK(seed_kernel_build(&k, SEED_K02, 32, NULL) == LAYOUT_OK);
    CHECK(layout_family_build(&p, tile, &d, NULL) == LAYOUT_OK);
    same_offsets(&d, &k.write_desc);
}

/* CuTe Swizzle<3,3,3> on a row-major 8x64 fp16 tile (offset = 64 r + c),
 * worked from swizzle.hpp's documented definition (YYY = offset bits 6..8,
 * ZZZ = bits 3..5, result ZZZ ^= YYY): (1, 0): 64 = 0b001_000_000 ->
 * 0b001_001_000 = 72; (3, 17): 209 = 0b011_010_001 -> 0b011_001_001 = 201;
 * (7, 63): 511 -> 0b111_000_111 = 455; row 0 unchanged.  And
 * Swizzle<3,4,3> on fp16 *bytes* (CUTLASS's 128-byte swizzle) is the same
 * permutation of elements. */
static void test_cute_known(void)
{
    layout_family_params p;
    layout_descriptor d;
    int64_t tile[2] = {8, 64};
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_CUTE_SWIZZLE;
    p.contiguous_dim = 1;
    p.p[0] = 3; p.p[1] = 3; p.p[2] = 3;
    CHECK(layout_family_build(&p, tile, &d, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(off_of(&d, 1, 0), 72);
    CHECK_EQ_I64(off_of(&d, 3, 17), 201);
    CHECK_EQ_I64(off_of(&d, 7, 63), 455);
    CHECK_EQ_I64(off_of(&d, 0, 13), 13);
    layout_descriptor e;
    p.p[1] = 4; p.p[3] = 2;
    CHECK(layout_family_build(&p, tile, &e, NULL) == LAYOUT_OK);
    same_offsets(&d, &e);
    char buf[80];
    layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "Swizzle<3,4,3> on bytes of 2-byte elements") == 0);
    p.p[3] = 0;
    layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "Swizzle<3,4,3>") == 0);
    /* ck_tile's vector hint is the unswizzled granule 2^M = 8 */
    int64_t vl[2], vs[2];
    CHECK(layout_desc_vector_hints(&d, vl, vs, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(vl[1], 8);
}

/* Triton's own unit tests (triton-lang/triton,
 * unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp, main branch of
 * late 2025): the "offset" bases of toLinearLayout(shape, shared(vec,
 * perPhase, maxPhase, ..., order)) give (dim0, dim1) of offset 2^i.  The
 * descriptor maps (dim0, dim1) -> offset, so offset 2^i must come back. */
static void triton_case(int64_t s0, int64_t s1, int64_t vec, int64_t pp, int64_t mp, int order0,
                        const int64_t (*bases)[2], int n)
{
    layout_family_params p;
    layout_descriptor d;
    int64_t tile[2] = {s0, s1};
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_TRITON_SWIZZLED;
    p.contiguous_dim = order0;
    p.p[0] = vec; p.p[1] = pp; p.p[2] = mp;
    CHECK(layout_family_build(&p, tile, &d, NULL) == LAYOUT_OK);
    for (int i = 0; i < n; i++)
        CHECK_MSG(off_of(&d, bases[i][0], bases[i][1]) == ((int64_t)1 << i), "basis %d of shared(%lld,%lld,%lld)", i,
                  (long long)vec, (long long)pp, (long long)mp);
}

static void test_triton_known(void)
{
    static const int64_t max_phase_only[10][2] = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16},
                                                  {1, 1}, {2, 2}, {4, 0}, {8, 0}, {16, 0}};
    static const int64_t vec_4x8[5][2] = {{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}};
    static const int64_t pp_mp_vec[10][2] = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16},
                                             {1, 0}, {2, 2}, {4, 4}, {8, 0}, {16, 0}};
    static const int64_t order01[5][2] = {{1, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 4}};
    static const int64_t one_d[6][2] = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}};
    triton_case(32, 32, 1, 1, 4, 1, max_phase_only, 10);   /* SharedSwizzled2D_MaxPhaseOnly */
    triton_case(4, 8, 2, 1, 4, 1, vec_4x8, 5);             /* SharedSwizzled2D_Vec */
    triton_case(32, 32, 2, 2, 4, 1, pp_mp_vec, 10);        /* SharedSwizzled2D_PerPhaseMaxPhaseVec */
    triton_case(4, 8, 1, 1, 4, 0, order01, 5);             /* SharedSwizzled2D_Order01 */
    triton_case(64, 1, 2, 2, 4, 1, one_d, 6);              /* Shared1DSwizzle: identity */
    /* vec=2 on 4 columns leaves 2 groups: maxPhase 4 acts as 2 (vec_4x8's row 2 basis is (2, 4 % 8)...) */
    char buf[96];
    layout_family_params p;
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_TRITON_SWIZZLED; p.contiguous_dim = 1; p.p[0] = 8; p.p[1] = 1; p.p[2] = 8;
    layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "swizzled_shared<vec=8, perPhase=1, maxPhase=8, order=[1,0]>") == 0);
    p.contiguous_dim = 0;
    layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "swizzled_shared<vec=8, perPhase=1, maxPhase=8, order=[0,1]>") == 0);
}

static void test_print(void)
{
    layout_family_params p;
    char buf[128];
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_PAD; p.p[0] = 8;
    layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "pad 8") == 0);
    p.kind = LAYOUT_FAMILY_PAD_EVERY; p.p[0] = 16; p.p[1] = 4;
    layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "pad 4 every 16 rows") == 0);
    p.kind = LAYOUT_FAMILY_CK_XOR; p.p[0] = 8; p.p[1] = 2; p.p[2] = 0;
    layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "KPack=8 MLdsLayer=2") == 0);
    p.p[2] = 2;
    layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "KPack=8 MLdsLayer=2 RowMul=2") == 0);
    p.kind = LAYOUT_FAMILY_XOR_PAD; p.xor_kind = LAYOUT_FAMILY_CK_XOR; p.p[2] = 0; p.pad = 1; p.pad_rows = 2;
    int n = layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "KPack=8 MLdsLayer=2 + pad 1 every 2 rows") == 0);
    CHECK_EQ_I64(n, (int64_t)strlen(buf));
    char small[6];
    CHECK_EQ_I64(layout_family_params_print(&p, small, sizeof small), n); /* truncated, full length returned */
    CHECK(strcmp(small, "KPack") == 0);
    CHECK_EQ_I64(layout_family_params_print(&p, NULL, 0), n);
    CHECK_EQ_I64(layout_family_params_print(NULL, buf, sizeof buf), -1);
    p.kind = LAYOUT_FAMILY_F2;
    layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "F2 swizzle") == 0);
    p.kind = (layout_family_kind)99;
    layout_family_params_print(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "?") == 0);
}

static void test_names(void)
{
    for (int k = 0; k < LAYOUT_FAMILY_COUNT; k++) {
        layout_family_kind back;
        CHECK(layout_family_from_name(layout_family_name((layout_family_kind)k), &back, NULL) == LAYOUT_OK);
        CHECK(back == (layout_family_kind)k);
    }
    CHECK(strcmp(layout_family_name(LAYOUT_FAMILY_CUTE_SWIZZLE), "cute_swizzle") == 0);
    CHECK(strcmp(layout_family_name((layout_family_kind)-1), "?") == 0);
    layout_family_kind k;
    layout_error err;
    CHECK(layout_family_from_name("swizzle", &k, &err) == LAYOUT_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(err.message, "\"swizzle\"");
    CHECK(layout_family_from_name(NULL, &k, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_family_from_name("pad", NULL, &err) == LAYOUT_ERR_NULL);
}

/* ---- error paths -------------------------------------------------------------------- */

static void expect_err(const layout_family_params *p, const int64_t *tile, layout_status want, const char *needle)
{
    layout_error err;
    layout_descriptor d;
    memset(&d, 0x5a, sizeof d);
    layout_descriptor before = d;
    CHECK_EQ_I64(layout_family_check(p, tile, &err), want);
    if (needle) CHECK_STR_CONTAINS(err.message, needle);
    CHECK_EQ_I64(layout_family_build(p, tile, &d, &err), want);
    if (needle) CHECK_STR_CONTAINS(err.message, needle);
    CHECK(memcmp(&d, &before, sizeof d) == 0);
    int64_t bytes = 77;
    CHECK_EQ_I64(layout_family_lds_bytes(p, tile, 2, &bytes, &err), want);
    CHECK_EQ_I64(bytes, 77);
}

/* Which sets are linear over F2: on [64, 32] every XOR set without
 * padding (ck_xor, cute, triton; iree with a power-of-two row stride) and
 * pad 0, none with padding; each claim was checked element by element
 * against the descriptor in check_set() above. */
static void test_linear_sets(void)
{
    CHECK(g_linear_sets > 1000 / check_every());
    CHECK(g_hints_closed > 10000 / check_every());
    CHECK(g_pad_forms > 10000 / check_every());
    if (check_every() == 1) CHECK(g_hint_shared > 1000); /* sampled runs (valgrind) rarely meet neighbours */
    static const int64_t t[2] = {64, 32};
    layout_family_params p;
    memset(&p, 0, sizeof p);
    uint64_t b[64];
    int ib[2], ob;
    p.kind = LAYOUT_FAMILY_CK_XOR;
    p.contiguous_dim = 1;
    p.p[0] = 8;
    p.p[1] = 2; /* seed kernel 08: offset(2, 0) = 72 (family.h) */
    CHECK(layout_family_linear_bases(&p, t, b, ib, &ob));
    CHECK_EQ_I64(ib[0], 6);
    CHECK_EQ_I64(ib[1], 5);
    CHECK_EQ_I64(ob, 11);
    CHECK_EQ_I64((int64_t)b[1], 72); /* row 2 */
    p.kind = LAYOUT_FAMILY_PAD;
    p.p[0] = 0;
    p.p[1] = 0;
    CHECK(layout_family_linear_bases(&p, t, b, ib, &ob));
    p.p[0] = 2;
    CHECK(!layout_family_linear_bases(&p, t, b, ib, &ob));
    static const int64_t odd[2] = {48, 32};
    p.p[0] = 0;
    CHECK(!layout_family_linear_bases(&p, odd, b, ib, &ob));
    /* the doc example: PAD {1} on {2, 4} */
    static const int64_t small[2] = {2, 4};
    int64_t o[8], want[8] = {0, 1, 2, 3, 5, 6, 7, 8};
    p.p[0] = 1;
    layout_error err;
    CHECK(layout_family_tile_offsets(&p, small, o, 8, &err) == LAYOUT_OK);
    CHECK(memcmp(o, want, sizeof o) == 0);
    CHECK(layout_family_tile_offsets(&p, small, o, 7, &err) == LAYOUT_ERR_BUFFER);
    CHECK_STR_CONTAINS(err.message, "cap = 7");
    CHECK(layout_family_tile_offsets(&p, small, NULL, 8, &err) == LAYOUT_ERR_NULL);
    p.p[0] = -1;
    CHECK(layout_family_tile_offsets(&p, small, o, 8, &err) == LAYOUT_ERR_ARG);
}

static void test_errors(void)
{
    layout_family_params p;
    int64_t tile[2] = {64, 32};
    memset(&p, 0, sizeof p);
    p.contiguous_dim = 1;
    expect_err(NULL, tile, LAYOUT_ERR_NULL, "params is NULL");
    expect_err(&p, NULL, LAYOUT_ERR_NULL, "tile is NULL");
    p.kind = (layout_family_kind)42;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "kind = 42");
    p.kind = LAYOUT_FAMILY_PAD;
    int64_t t0[2] = {0, 32}, tbig[2] = {(int64_t)1 << 30, (int64_t)1 << 30}, thuge[2] = {(int64_t)1 << 41, 1};
    expect_err(&p, t0, LAYOUT_ERR_ARG, "tile[0] = 0");
    expect_err(&p, thuge, LAYOUT_ERR_ARG, "tile[0]");
    expect_err(&p, tbig, LAYOUT_ERR_ARG, "more than 2^40");
    p.contiguous_dim = 2;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "contiguous_dim = 2");
    p.contiguous_dim = 1;
    p.p[0] = -1;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[0] (pad) = -1");
    p.kind = LAYOUT_FAMILY_PAD_EVERY; p.p[0] = 3; p.p[1] = 1;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[0] (rows) = 3");
    p.p[0] = 4; p.p[1] = -2;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[1] (pad) = -2");
    p.kind = LAYOUT_FAMILY_CK_XOR; p.p[0] = 3; p.p[1] = 2; p.p[2] = 0;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[0] (kpack) = 3");
    p.p[0] = 8; p.p[1] = 3;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[1] (mlds_layer) = 3");
    int64_t t48[2] = {48, 24};
    p.p[1] = 1;
    expect_err(&p, t48, LAYOUT_ERR_ARG, "power of two");
    p.p[1] = 2; p.p[2] = -1;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[2] (row_mul) = -1");
    {
        /* rows x columns x row_mul = 32 x 2^31 x 2^31 = 2^67: refused by the
         * check, as the descriptor it would build cannot exist */
        int64_t big[2] = {(int64_t)1 << 31, 32};
        layout_family_params q = p;
        q.contiguous_dim = 0;
        q.p[0] = (int64_t)1 << 31; q.p[1] = 1; q.p[2] = (int64_t)1 << 31;
        expect_err(&q, big, LAYOUT_ERR_ARG, "overflows int64");
        q.p[2] = 1; /* RowMul 1: 2^36 elements, fine */
        CHECK(layout_family_check(&q, big, NULL) == LAYOUT_OK);
        /* a pad of 2^24 - 1 after each of 905,265,169,152 rows of one
         * element: (R - 1) * pad ~ 1.5e19 > INT64_MAX */
        int64_t tall[2] = {1, 905265169152};
        layout_family_params r;
        memset(&r, 0, sizeof r);
        r.kind = LAYOUT_FAMILY_PAD_EVERY;
        r.contiguous_dim = 0;
        r.p[0] = 1;
        r.p[1] = 16777215;
        expect_err(&r, tall, LAYOUT_ERR_ARG, "overflows int64");
        r.p[1] = 1; /* 1.8e12 elements: fine */
        CHECK(layout_family_check(&r, tall, NULL) == LAYOUT_OK);
    }
    p.kind = LAYOUT_FAMILY_CUTE_SWIZZLE; p.p[0] = 31; p.p[1] = 0; p.p[2] = 31; p.p[3] = 0;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[0] (B) = 31");
    p.p[0] = 3; p.p[1] = -1; p.p[2] = 3;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[1] (M) = -1");
    p.p[1] = 3; p.p[2] = 2;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[2] (S) = 2");
    p.p[2] = -31;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[2] (S) = -31");
    p.p[2] = INT64_MIN; /* found by fuzz_family: |S| must not be taken before the range check */
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[2] (S) = -9223372036854775808");
    p.p[2] = 3; p.p[3] = 3;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[3] (byte_elem) = 3");
    p.p[3] = 16;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[3] (byte_elem) = 16");
    p.p[3] = 0; p.p[1] = 4; p.p[2] = 5; /* bits 4+5+3 = 12 > 11 */
    expect_err(&p, tile, LAYOUT_ERR_ARG, "touches bit 11");
    p.p[1] = 20; p.p[2] = 20; p.p[0] = 3; /* 43 bits: rejected before shifting */
    expect_err(&p, tile, LAYOUT_ERR_ARG, "touches bit");
    p.kind = LAYOUT_FAMILY_TRITON_SWIZZLED; p.p[0] = 3; p.p[1] = 1; p.p[2] = 1; p.p[3] = 0;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[0] (vec) = 3");
    p.p[0] = 2; p.p[1] = 0;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[1] (perPhase) = 0");
    p.p[1] = 1; p.p[2] = 6;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[2] (maxPhase) = 6");
    p.p[2] = 4;
    expect_err(&p, t48, LAYOUT_ERR_ARG, "power-of-two contiguous length");
    int64_t t48b[2] = {48, 32};
    p.p[1] = 32;
    expect_err(&p, t48b, LAYOUT_ERR_ARG, "p[1] (perPhase) = 32 must divide");
    p.kind = LAYOUT_FAMILY_IREE_XOR_SHUFFLE; p.p[0] = 64; p.p[1] = 4; p.p[2] = 64; p.p[3] = 1;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[0] (row_width) = 64");
    p.p[0] = 32; p.p[1] = 3;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[1] (access_width) = 3");
    p.p[1] = 4; p.p[2] = 31;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[2] (row_stride) = 31");
    p.p[2] = 32; p.p[3] = 0;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[3] (per_phase) = 0");
    p.p[3] = 5;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "p[3] (per_phase) = 5");
    p.p[3] = (int64_t)1 << 41;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "above 2^40");
    /* XOR_PAD */
    memset(&p, 0, sizeof p);
    p.contiguous_dim = 1;
    p.kind = LAYOUT_FAMILY_XOR_PAD; p.xor_kind = LAYOUT_FAMILY_PAD; p.pad = 1; p.pad_rows = 2;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "xor_kind = 0 (pad)");
    p.xor_kind = LAYOUT_FAMILY_CK_XOR; p.p[0] = 8; p.p[1] = 4;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "multiple of MLdsLayer = 4");
    p.p[1] = 2; p.pad = -1;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "pad = -1");
    p.pad = 1; p.pad_rows = 5;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "pad_rows = 5");
    p.pad_rows = 0;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "pad_rows = 0");
    p.xor_kind = LAYOUT_FAMILY_CUTE_SWIZZLE; p.p[0] = 3; p.p[1] = 3; p.p[2] = 3; p.pad_rows = 8;
    expect_err(&p, tile, LAYOUT_ERR_ARG, "must not cross a pad");
    p.p[1] = 9; /* base illegal: reported first */
    expect_err(&p, tile, LAYOUT_ERR_ARG, "Swizzle<3,9,3>");
    /* lds_bytes / build specifics */
    layout_error err;
    memset(&p, 0, sizeof p);
    p.contiguous_dim = 1;
    int64_t bytes;
    CHECK(layout_family_lds_bytes(&p, tile, 2, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_family_lds_bytes(&p, tile, 0, &bytes, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "elem_bytes = 0");
    CHECK(layout_family_lds_bytes(&p, tile, 17, &bytes, &err) == LAYOUT_ERR_ARG);
    CHECK(layout_family_build(&p, tile, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK_STR_CONTAINS(err.message, "out is NULL");
    CHECK(layout_family_check(&p, tile, &err) == LAYOUT_OK && err.status == LAYOUT_OK);
    /* closed-form batch */
    int64_t cc[4] = {63, 31, 64, 0}, oo[2] = {-7, -7};
    CHECK(layout_family_offsets(&p, tile, 0, NULL, NULL, &err) == LAYOUT_OK);
    CHECK(layout_family_offsets(&p, tile, 1, NULL, oo, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_family_offsets(&p, tile, 1, cc, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_family_offsets(&p, tile, 2, cc, oo, &err) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(err.message, "coords[1][0] = 64 is outside 0..63");
    CHECK(oo[0] == -7 && oo[1] == -7);
    cc[2] = -1;
    CHECK(layout_family_offsets(&p, tile, 2, cc, oo, &err) == LAYOUT_ERR_RANGE);
    CHECK(layout_family_offsets(NULL, tile, 1, cc, oo, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_family_offsets(&p, tile, 1, cc, oo, &err) == LAYOUT_OK);
    CHECK_EQ_I64(oo[0], 63 * 32 + 31);
    /* iterator */
    layout_family_iter it;
    CHECK(layout_family_iter_init(NULL, LAYOUT_FAMILY_PAD, tile, 1, 2, 0, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_PAD, NULL, 1, 2, 0, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_COUNT, tile, 1, 2, 0, &err) == LAYOUT_ERR_ARG);
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_PAD, t0, 1, 2, 0, &err) == LAYOUT_ERR_ARG);
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_PAD, tile, -1, 2, 0, &err) == LAYOUT_ERR_ARG);
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_PAD, tile, 1, 0, 0, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "elem_bytes = 0");
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_PAD, tile, 1, 2, -1, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "budget_bytes = -1");
    CHECK(!layout_family_iter_next(NULL, &p));
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_PAD, tile, 1, 2, 0, &err) == LAYOUT_OK);
    CHECK(!layout_family_iter_next(&it, NULL));
}

/* A budget too small for any pad leaves exactly the zero-growth sets; a huge
 * budget is capped (pads up to 2^30) without overflow. */
static void test_budget_edges(void)
{
    int64_t tile[2] = {64, 32};
    layout_family_iter it;
    layout_family_params p;
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_PAD, tile, 1, 2, 125, NULL) == LAYOUT_OK);
    int n = 0;
    while (layout_family_iter_next(&it, &p)) n++;
    CHECK_EQ_I64(n, 1); /* pad 1 costs 63 * 2 = 126 bytes */
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_PAD_EVERY, tile, 1, 2, 1, NULL) == LAYOUT_OK);
    CHECK(!layout_family_iter_next(&it, &p));
    CHECK(layout_family_iter_init(&it, LAYOUT_FAMILY_PAD, tile, 1, 16, INT64_MAX, NULL) == LAYOUT_OK);
    CHECK(layout_family_iter_next(&it, &p) && p.p[0] == 0);
}

int main(void)
{
    RUN(test_pad);
    RUN(test_pad_every);
    RUN(test_ck_xor);
    RUN(test_cute);
    RUN(test_triton);
    RUN(test_iree);
    RUN(test_xor_pad);
    RUN(test_f2_reserved);
    RUN(test_extra_forms);
    RUN(test_seed004);
    RUN(test_seed_kernels);
    RUN(test_cute_known);
    RUN(test_triton_known);
    RUN(test_print);
    RUN(test_names);
    RUN(test_linear_sets);
    RUN(test_errors);
    RUN(test_budget_edges);
    return harness_finish("test_family");
}
