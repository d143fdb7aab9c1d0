/* The search's bound inside the scorer (score_linear.c) is exact: a
 * differential test of the scorer with a cut against the same scorer
 * without one, on padded and unpadded family sets met in enumeration order
 * (runs of consecutive sets, so that the caches the bound keeps across
 * pads -- plan summaries per pad residue, the fully associative summary
 * cache, the pairing bound of summaries whose distances differ -- fill,
 * hit and are evicted as in a search).
 *
 * The cut is a predicate that is monotone in every field (damage,
 * instructions, extra cycles); random thresholds per run.  For every
 * candidate: a candidate the scorer does not cut must score exactly what
 * the scorer without a cut gives (every field); a candidate it cuts must
 * have been cut on a partial cost no larger than the full cost in every
 * field (the bound's promise), so the predicate also holds on the full
 * cost -- the search drops nothing it would have kept.  The scorer without
 * a cut is itself compared with the address path and layout_check_kernel()
 * by tests/test_suggest.c (test_pad_form_equal).
 *
 * Specs: seed kernels 01 and 08 on gfx942 and gfx950 with random element
 * sizes, vector policies, explicit ops and bases, and the 128 x 128 fp16
 * GEMM operand pair (64 elements per thread and side; b128 row writes,
 * MFMA-style b64 reads), both storage orders, budget 1 KiB. */
#define _ISOC11_SOURCE
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"
#include "suggest/suggest_internal.h"
#include "../examples/seed_kernels.h"

static seed_kernel k;
static layout_suggest_scorer sc;
static layout_suggest_work w_cut, w_ref;
static int32_t lin_tab[2 * 16384];

typedef struct pred {
    int damage;
    int64_t instrs, extra;
} pred;

/* monotone: true for a cost, true for every cost at least as large */
static int pred_holds(const pred *p, int64_t damage, int64_t instrs, int64_t extra)
{
    return damage > p->damage || instrs > p->instrs || extra > p->extra;
}

static int cut_fn(const void *ctx, const layout_suggest_cost *c)
{
    return pred_holds(ctx, c->vector_damage, c->instrs, c->extra_cycles);
}

static int64_t g_cut, g_kept, g_padded_cut, g_padded_kept;
static uint64_t g_rng = 0xc0ffee5eedULL;

/* Every family set of spec *s (XOR + pad in sampled runs of 64), scored
 * by both works; `min_instrs`: the bound's least instructions (the
 * thresholds start there). */
static void run_spec(const layout_suggest_spec *s, int32_t *lin, int64_t lin_stride, const char *what)
{
    layout_error e;
    if (layout_suggest_prepare_ext(&sc, s, lin, lin_stride, &e) != LAYOUT_OK) {
        CHECK_MSG(0, "%s: %s", what, e.message);
        return;
    }
    static void *ext[2];
    if (lin) { /* the tables of a tile past the inline ones, as layout_suggest_ws() gives them */
        for (int i = 0; i < 2; i++) {
            free(ext[i]);
            ext[i] = aligned_alloc(64, (layout_suggest_work_ext_bytes(&sc) + 63u) & ~(size_t)63u);
            CHECK(ext[i] != NULL);
            if (!ext[i]) return;
        }
        layout_suggest_work_attach(&w_cut, &sc, ext[0]);
        layout_suggest_work_attach(&w_ref, &sc, ext[1]);
    } else {
        layout_suggest_work_init(&w_cut);
        layout_suggest_work_init(&w_ref);
    }
    int64_t min_instrs = 0;
    for (int i = 0; i < s->n_sides; i++) {
        const layout_distribution *d = s->sides[i].dist;
        min_instrs += (int64_t)d->n_warps * ((d->elems_per_thread * s->elem_bytes + 15) / 16);
    }
    pred p = {0, min_instrs, 0};
    w_cut.cut_fn = cut_fn;
    w_cut.cut_ctx = &p;
    const int64_t scale = 1000 / harness_scaled(1000) < 1 ? 1 : 1000 / harness_scaled(1000);
    int64_t seen = 0;
    for (int kind = 0; kind < LAYOUT_FAMILY_F2; kind++)
        for (int cd = 1; cd >= 0; cd--) {
            layout_family_iter it;
            layout_family_params prm;
            if (layout_family_iter_init(&it, (layout_family_kind)kind, s->tile, cd, s->elem_bytes, s->budget_bytes,
                                        NULL) != LAYOUT_OK)
                continue;
            const int64_t every = (kind == LAYOUT_FAMILY_XOR_PAD ? 37 : 3) * scale;
            while (layout_family_iter_next(&it, &prm)) {
                const int64_t run = seen++ >> 6;
                if (run % every) continue;
                if ((seen & 63) == 1) { /* a new run: new thresholds, sometimes none */
                    int r = (int)xorshift64s_range(&g_rng, 0, 3);
                    p.damage = r == 0 ? 1000 : (int)xorshift64s_range(&g_rng, 0, 2);
                    p.instrs = r == 0 ? INT64_MAX : min_instrs + (int64_t)xorshift64s_range(&g_rng, 0, 3) * min_instrs / 2;
                    p.extra = r == 0 ? INT64_MAX : (int64_t)xorshift64s_range(&g_rng, 0, 64);
                }
                layout_suggest_cost a, b;
                layout_status sa = layout_suggest_score_params(&sc, &prm, &w_cut, &a, NULL);
                const int cut = sa == LAYOUT_OK && w_cut.cut_hit;
                layout_status sb = layout_suggest_score_params(&sc, &prm, &w_ref, &b, NULL);
                CHECK_MSG(sa == sb, "%s: status with the cut %d, without %d", what, sa, sb);
                if (sa || sb) continue;
                CHECK(!w_ref.cut_hit);
                char name[160];
                layout_suggest_params_print(&prm, name, sizeof name);
                const int padded = prm.kind == LAYOUT_FAMILY_XOR_PAD;
                if (!cut) {
                    g_kept++;
                    g_padded_kept += padded;
                    a.index_ops = b.index_ops;
                    CHECK_MSG(memcmp(&a, &b, sizeof a) == 0,
                              "%s: %s (cd %d): with the cut %d/%lld/%lld, without %d/%lld/%lld", what, name,
                              prm.contiguous_dim, a.vector_damage, (long long)a.instrs, (long long)a.extra_cycles,
                              b.vector_damage, (long long)b.instrs, (long long)b.extra_cycles);
                    CHECK(!pred_holds(&p, b.vector_damage, b.instrs, b.extra_cycles));
                    continue;
                }
                g_cut++;
                g_padded_cut += padded;
                CHECK_MSG(a.vector_damage <= b.vector_damage && a.instrs <= b.instrs &&
                              a.extra_cycles <= b.extra_cycles && a.lds_bytes == b.lds_bytes,
                          "%s: %s (cd %d): cut at %d/%lld/%lld, the full cost is %d/%lld/%lld", what, name,
                          prm.contiguous_dim, a.vector_damage, (long long)a.instrs, (long long)a.extra_cycles,
                          b.vector_damage, (long long)b.instrs, (long long)b.extra_cycles);
                CHECK(pred_holds(&p, b.vector_damage, b.instrs, b.extra_cycles));
            }
        }
}

static void test_cut_exact_seeds(void)
{
    const char *archs[2] = {"gfx942", "gfx950"};
    seed_kernel_id ids[2] = {SEED_K01, SEED_K08};
    for (int a = 0; a < 2; a++)
        for (int ki = 0; ki < 2; ki++)
            for (int rep = 0; rep < 2; rep++) {
                layout_arch arch;
                CHECK(layout_arch_preset(archs[a], &arch, NULL) == LAYOUT_OK);
                CHECK(seed_kernel_build(&k, ids[ki], arch.n_banks, NULL) == LAYOUT_OK);
                layout_suggest_spec s;
                memset(&s, 0, sizeof s);
                s.arch = &arch;
                s.elem_bytes = SK_ELEM_BYTES;
                s.n_dims = 2;
                s.tile[0] = SK_KM;
                s.tile[1] = SK_KK;
                s.n_sides = 2;
                s.sides[0].dist = &k.write_dist;
                s.sides[0].direction = LAYOUT_WRITE;
                s.sides[1].dist = &k.read_dist;
                s.sides[1].direction = LAYOUT_READ;
                if (k.read_dist.x_lengths[0] == SK_KK) {
                    s.sides[1].has_view = 1;
                    s.sides[1].view[0] = 1;
                    s.sides[1].view[1] = 0;
                }
                s.families = (1u << LAYOUT_FAMILY_COUNT) - 1u;
                s.top_k = 8;
                s.budget_bytes = 1024;
                if (rep) { /* random element size, policies, explicit ops, base */
                    static const layout_ds_op ops[5] = {LAYOUT_DS_AUTO, LAYOUT_DS_AUTO, LAYOUT_DS_B16, LAYOUT_DS_B32,
                                                        LAYOUT_DS_B64};
                    static const int ebs[4] = {1, 2, 4, 8};
                    s.elem_bytes = ebs[xorshift64s_range(&g_rng, 0, 3)];
                    for (int i = 0; i < 2; i++) {
                        s.sides[i].opt.policy = xorshift64s_range(&g_rng, 0, 1) ? LAYOUT_VECTOR_SPLIT : LAYOUT_VECTOR_TRUST;
                        /* an explicit op moves a whole number of elements (prepare refuses the rest) */
                        static const int op_bytes[5] = {0, 0, 2, 4, 8};
                        int o;
                        do
                            o = (int)xorshift64s_range(&g_rng, 0, 4);
                        while (op_bytes[o] && op_bytes[o] % s.elem_bytes);
                        s.sides[i].opt.op = ops[o];
                    }
                    s.sides[0].opt.base_bytes = s.sides[1].opt.base_bytes = 256 * xorshift64s_range(&g_rng, 0, 3);
                }
                char what[64];
                snprintf(what, sizeof what, "kernel %s on %s%s", k.id, archs[a], rep ? ", random options" : "");
                run_spec(&s, NULL, 0, what);
            }
    printf("  seeds: %lld candidates cut (%lld padded), %lld kept (%lld padded)\n", (long long)g_cut,
           (long long)g_padded_cut, (long long)g_kept, (long long)g_padded_kept);
    CHECK(g_padded_cut > 0 && g_padded_kept > 0);
}

static void test_cut_exact_gemm128(void)
{
    static layout_distribution wd, rd;
    layout_arch arch;
    layout_error e;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    /* 256 threads write 16-byte vectors row-major; MFMA 32x32x8-style reads */
    CHECK(layout_dist_from_text("dist(R=[], H=([8,4,4],[16,8]), P=([(1,1)],[(1,2),(2,0)]), Y=[(1,0),(2,1)])", 64, 4,
                                &wd, NULL, &e) == LAYOUT_OK);
    CHECK(layout_dist_from_text("dist(R=[], H=([4,32],[16,2,4]), P=([(1,0)],[(2,1),(1,1)]), Y=[(2,0),(2,2)])", 64, 4,
                                &rd, NULL, &e) == LAYOUT_OK);
    layout_suggest_spec s;
    memset(&s, 0, sizeof s);
    s.arch = &arch;
    s.elem_bytes = 2;
    s.n_dims = 2;
    s.tile[0] = s.tile[1] = 128;
    s.n_sides = 2;
    s.sides[0].dist = &wd;
    s.sides[0].direction = LAYOUT_WRITE;
    s.sides[1].dist = &rd;
    s.sides[1].direction = LAYOUT_READ;
    s.families = (1u << LAYOUT_FAMILY_COUNT) - 1u;
    s.top_k = 8;
    s.budget_bytes = 1024;
    int64_t cut0 = g_cut, kept0 = g_kept;
    run_spec(&s, lin_tab, 16384, "GEMM 128 x 128");
    printf("  GEMM 128 x 128: %lld candidates cut, %lld kept\n", (long long)(g_cut - cut0), (long long)(g_kept - kept0));
    CHECK(g_cut > cut0 && g_kept > kept0);
}

int main(void)
{
    RUN(test_cut_exact_seeds);
    RUN(test_cut_exact_gemm128);
    return harness_finish("test_suggest_cut");
}
