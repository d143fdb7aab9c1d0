#define _POSIX_C_SOURCE 200809L
/* layout_triton_kernel_suggest's fast scorer (each op's register side read
 * once per allocation, each candidate's shared layout once for all of its
 * ops, one checker per kernel, unpadded accesses that are XOR translates
 * costed once) against the exhaustive one (every op lowered again from the
 * text through layout_triton_kernel_op_cost for every candidate), on every
 * kernel of the corpus (tests/fixtures/triton/kernels, on its own target)
 * and every Gluon fixture kernel (tests/fixtures/gluon/kernels.tar.xz):
 *
 *   - per candidate: every candidate of every searched allocation (the
 *     search's own enumeration and budget) gets the same verdict from both
 *     scorers: rejected by both, or scored by both with the same total and
 *     extra cycles;
 *   - per allocation: the fast scorer alone ranks the same best 16, and
 *     with its cut (a candidate stops being costed past the best so far,
 *     as layout_triton_kernel_suggest's top-1 search runs it) finds the
 *     same best and the same counts;
 *   - per kernel (every corpus kernel, every 8th Gluon kernel: the
 *     exhaustive call is the slow part): the suggestions (every
 *     allocation: attribute, costs, bytes, scored and rejected counts,
 *     notes) are equal byte for byte,
 *     layout_triton_kernel_suggest_options.exhaustive 0 and 1.
 *
 * LAYOUT_TEST_SCALE below 1 takes every n-th kernel (sanitizer and
 * valgrind runs). */
#include "harness.h"
#include "layout.h"
#include "triton_kernel/score_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char g_text[1 << 20];
static layout_ttgir g_m;
static layout_triton_kernel g_k;
static layout_triton_kernel_suggestions g_fast, g_slow;
static layout_tk_scorer g_sf, g_ss;
static long g_candidates, g_scored, g_kernels, g_allocs, g_whole, g_order_kept;

typedef struct both {
    const char *kernel;
    int alloc;
    long n_diff;
} both;

/* Score with both paths; the verdicts and costs must agree. */
static int score_both(void *ctx, const char *attr, size_t len, double *cost)
{
    both *b = (both *)ctx;
    double cf = -1, cs = -2;
    int rf = layout_tk_score(&g_sf, attr, len, &cf), rs = layout_tk_score(&g_ss, attr, len, &cs);
    g_candidates++;
    if (rf != rs || (!rs && (cf != cs || g_sf.extra != g_ss.extra))) {
        if (b->n_diff++ < 3)
            CHECK_MSG(0, "%s allocation %d, %s: fast %s %.0f (%lld extra), exhaustive %s %.0f (%lld extra)", b->kernel,
                      b->alloc, attr, rf ? "rejects" : "scores", cf, (long long)g_sf.extra, rs ? "rejects" : "scores",
                      cs, (long long)g_ss.extra);
    }
    if (!rs) g_scored++;
    *cost = cs;
    return rs;
}

/* Every candidate of every searched allocation (the search's own spec),
 * both scorers; then the fast scorer alone must rank the same best 16 with
 * the same costs and counts, and its best be the fast suggestion. */
static void all_candidates(const char *name)
{
    int j;
    layout_tk_scorer_init(&g_sf, &g_k, 0);
    layout_tk_scorer_init(&g_ss, &g_k, 1);
    for (j = 0; j < g_fast.n_allocs; j++) {
        const layout_triton_kernel_alloc *a = &g_fast.allocs[j];
        static layout_triton_search_result res, res2;
        layout_triton_search_spec sp;
        layout_error err;
        both b = {name, j, 0};
        int i;
        if (!a->searched) continue;
        g_allocs++;
        memset(&sp, 0, sizeof sp);
        sp.rank = a->rank;
        for (i = 0; i < a->rank; i++) sp.shape[i] = a->shape[i];
        sp.elem_bits = a->elem_bits;
        sp.vendor = g_k.is_nvidia ? LAYOUT_TRITON_VENDOR_NVIDIA : LAYOUT_TRITON_VENDOR_AMD;
        sp.arch = g_k.arch.name;
        sp.max_pad_levels = 1;
        sp.top_k = LAYOUT_TRITON_SEARCH_MAX_TOP;
        sp.lds_budget_bytes = a->budget_bytes;
        layout_tk_scorer_alloc(&g_sf, a);
        layout_tk_scorer_alloc(&g_ss, a);
        memset(&res, 0, sizeof res);
        memset(&res2, 0, sizeof res2);
        CHECK_MSG(layout_triton_shared_search(&sp, score_both, &b, &res, &err) == LAYOUT_OK, "%s: %s", name,
                  err.message);
        CHECK_MSG(layout_triton_shared_search(&sp, layout_tk_score, &g_sf, &res2, &err) == LAYOUT_OK, "%s: %s", name,
                  err.message);
        CHECK_MSG(memcmp(&res, &res2, sizeof res) == 0, "%s allocation %d: the rankings differ", name, j);
        /* the search for the best alone, as suggest runs it: the fast scorer
         * stopping each candidate past the best so far finds the same best
         * and the same counts */
        sp.top_k = 1;
        memset(&res2, 0, sizeof res2);
        layout_tk_scorer_alloc(&g_sf, a);
        g_sf.cut = 1;
        CHECK_MSG(layout_triton_shared_search(&sp, layout_tk_score, &g_sf, &res2, &err) == LAYOUT_OK, "%s: %s", name,
                  err.message);
        g_sf.cut = 0;
        CHECK_MSG(res2.n_top == 1 && memcmp(&res.top[0], &res2.top[0], sizeof res.top[0]) == 0 &&
                      res2.enumerated == res.enumerated && res2.over_budget == res.over_budget &&
                      res2.rejected == res.rejected && res2.scored == res.scored,
                  "%s allocation %d: the best with the cut differs", name, j);
        CHECK_MSG(res.scored == a->scored && res.rejected == a->rejected, "%s allocation %d: counts", name, j);
        if (res.n_top > 0 && res.top[0].cost < (double)a->current_cost) {
            /* the suggestion is the best, or with order_kept a later entry
             * of the same cost and bytes (the store-order tie-break) */
            int at = 0;
            if (a->order_kept)
                for (at = 1; at < res.n_top && strcmp(res.top[at].attr, a->attr) != 0; at++) {}
            CHECK_MSG(at < res.n_top && strcmp(res.top[at].attr, a->attr) == 0 && (int64_t)res.top[at].cost == a->cost &&
                          res.top[at].cost == res.top[0].cost && res.top[at].bytes == res.top[0].bytes &&
                          (at == 0) == !a->order_kept,
                      "%s allocation %d: best %s, suggested %s", name, j, res.top[0].attr, a->attr);
            if (a->order_kept) g_order_kept++;
        }
    }
}

static void one_kernel(const char *path, const char *name, int whole)
{
    FILE *f = fopen(path, "rb");
    layout_triton_kernel_suggest_options o;
    layout_error err;
    size_t n = 0;
    CHECK_MSG(f != NULL, "%s", path);
    if (!f) return;
    n = fread(g_text, 1, sizeof g_text - 1, f);
    fclose(f);
    g_text[n] = 0;
    if (layout_ttgir_parse(g_text, n, &g_m, &err) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&g_m, NULL, &g_k, &err) != LAYOUT_OK) {
        CHECK_MSG(0, "%s: %s", name, err.message);
        return;
    }
    memset(&o, 0, sizeof o);
    CHECK(layout_triton_kernel_suggest(&g_k, &o, &g_fast, &err) == LAYOUT_OK);
    all_candidates(name);
    if (whole) { /* the whole call both ways, byte for byte */
        o.exhaustive = 1;
        CHECK(layout_triton_kernel_suggest(&g_k, &o, &g_slow, &err) == LAYOUT_OK);
        CHECK_MSG(memcmp(&g_fast, &g_slow, sizeof g_fast) == 0, "%s: the suggestions differ", name);
        g_whole++;
    }
    g_kernels++;
}

/* Every *.ttgir of dir, every step-th (sorted by name). */
static int each_kernel(const char *dir, long step, long whole_step)
{
    char cmd[1200], name[512], path[1200];
    FILE *ls;
    long i = 0;
    int n = 0;
    snprintf(cmd, sizeof cmd, "ls '%s' | sed -n 's/\\.ttgir$//p'", dir);
    ls = popen(cmd, "r");
    CHECK(ls != NULL);
    if (!ls) return 0;
    while (fgets(name, sizeof name, ls)) {
        name[strcspn(name, "\n")] = 0;
        if (i++ % step) continue;
        snprintf(path, sizeof path, "%s/%s.ttgir", dir, name);
        one_kernel(path, name, (i - 1) % whole_step == 0);
        n++;
    }
    pclose(ls);
    return n;
}

/* The lowering's one-run shortcut (ldst.c: unpadded runs of one width
 * that are XOR translates by multiples of it cost what run 0 costs),
 * against costing every instruction (layout_tk_lower_ldst_each): random
 * register, lane, warp -> offset maps on three targets.  Where the
 * LoadStoreVectorizer merged nothing, also against every access's lane
 * addresses made by the linear layer and costed by the checker here,
 * summed and compared with the report (total, extra, conflicted accesses,
 * the worst access). */
static void test_translate(void)
{
    static const char *const archs[] = {"gfx942", "gfx950", "sm_90"};
    static layout_triton_kernel k;
    static layout_triton_kernel_op r, r2;
    harness_rng rng = {0x5eed5eedull};
    long it, n = harness_scaled(3000), n_short = 0, n_merged = 0;
    for (it = 0; it < n; it++) {
        layout_linear cvt;
        layout_checker ck;
        layout_error err;
        layout_tk_pad pad;
        layout_tk_global g = {0, -1, -1, -1};
        int ai = (int)(it % 3), eb = 1 << harness_range(&rng, 0, 3), lanes, nreg = (int)harness_range(&rng, 0, 5);
        int off_bits = 14, ir, il, i, j;
        int64_t v[1];
        memset(&k, 0, sizeof k);
        if (layout_arch_preset(archs[ai], &k.arch, &err) != LAYOUT_OK) {
            CHECK_MSG(0, "%s", err.message);
            return;
        }
        k.is_nvidia = ai == 2;
        k.sm = k.is_nvidia ? 90 : 0;
        lanes = layout_log2_floor(k.arch.wave_size);
        CHECK(layout_checker_init(&ck, &k.arch, LAYOUT_IMPL_AUTO, &err) == LAYOUT_OK);
        layout_linear_init(&cvt, NULL);
        layout_linear_add_in_dim(&cvt, "register", nreg, NULL);
        layout_linear_add_in_dim(&cvt, "lane", lanes, NULL);
        layout_linear_add_in_dim(&cvt, "warp", 2, NULL);
        layout_linear_add_out_dim(&cvt, "offset", off_bits, NULL);
        for (i = 0; i < nreg + lanes + 2; i++) {
            int d = i < nreg ? 0 : i < nreg + lanes ? 1 : 2, b = i < nreg ? i : i < nreg + lanes ? i - nreg : i - nreg - lanes;
            int64_t x = harness_range(&rng, 0, 5) == 0 ? 0 : (int64_t)1 << harness_range(&rng, 0, off_bits - 1);
            if (harness_range(&rng, 0, 3) == 0) x ^= (int64_t)1 << harness_range(&rng, 0, off_bits - 1);
            if (d == 0 && b < 3 && harness_range(&rng, 0, 1)) x = (int64_t)1 << b; /* a vector now and then */
            v[0] = x;
            layout_linear_set_basis(&cvt, d, b, v, NULL);
        }
        memset(&r, 0, sizeof r);
        memset(&pad, 0, sizeof pad);
        r.kind = harness_range(&rng, 0, 1) ? LAYOUT_TTGIR_LOCAL_LOAD : LAYOUT_TTGIR_LOCAL_STORE;
        r.direction = r.kind == LAYOUT_TTGIR_LOCAL_LOAD ? LAYOUT_READ : LAYOUT_WRITE;
        r.elem_bits = eb * 8;
        r.worst_access = -1;
        r2 = r;
        CHECK(layout_tk_lower_ldst(&k, &ck, &cvt, &pad, 0, &g, &r) == LAYOUT_OK);
        CHECK(layout_tk_lower_ldst_each(&k, &ck, &cvt, &pad, 0, &g, &r2) == LAYOUT_OK);
        if (!r.modelled) continue;
        /* the shortcut against every instruction costed, merged runs included */
        CHECK_MSG(r2.modelled && r.n_accesses == r2.n_accesses && r.total_cycles == r2.total_cycles &&
                      r.extra_cycles == r2.extra_cycles && r.n_conflicted == r2.n_conflicted &&
                      r.worst_access == r2.worst_access && r.worst_extra == r2.worst_extra,
                  "case %ld: shortcut %lld / %lld, every instruction %lld / %lld", it, (long long)r.total_cycles,
                  (long long)r.extra_cycles, (long long)r2.total_cycles, (long long)r2.extra_cycles);
        ir = layout_linear_in_dim(&cvt, "register");
        il = layout_linear_in_dim(&cvt, "lane");
        {
            /* the vector registers: offsets 1, 2, .. vec / 2, first found; the others enumerate the accesses */
            int is_vec[64] = {0}, rest[64], nrest = 0, nvec = layout_log2_floor(r.vec_elems), worst = -1, confl = 0;
            int64_t total = 0, extra = 0, worst_extra = 0;
            uint64_t moved = 0, lane_or = 0;
            for (j = 0; j < nvec; j++)
                for (i = 0; i < nreg; i++)
                    if (!is_vec[i] && cvt.bases[cvt.in_shift[ir] + i] == (uint64_t)1 << j) {
                        is_vec[i] = 1;
                        break;
                    }
            for (i = 0; i < nreg; i++)
                if (!is_vec[i] && cvt.bases[cvt.in_shift[ir] + i]) rest[nrest++] = i;
            for (i = 0; i < nrest; i++) moved |= cvt.bases[cvt.in_shift[ir] + rest[i]];
            for (i = 0; i < lanes + 2; i++) lane_or |= cvt.bases[cvt.in_shift[il] + i];
            n_short += !(((moved | lane_or) * (uint64_t)eb) & (uint64_t)(r.vec_bits / 8 - 1));
            if (r.n_accesses != 1 << nrest) { /* the LoadStoreVectorizer merged some: compared with r2 above */
                n_merged++;
                continue;
            }
            for (int a = 0; a < (1 << nrest); a++) {
                int64_t ins[3] = {0, 0, 0};
                layout_linear_access acc;
                layout_instr in;
                layout_cost c;
                for (i = 0; i < nrest; i++)
                    if (a >> i & 1) ins[ir] |= (int64_t)1 << rest[i];
                if (layout_linear_lane_access(&cvt, "lane", ins, eb, r.direction, r.vec_bits / 8, &acc, &err) !=
                        LAYOUT_OK ||
                    layout_linear_access_instr(&acc, &in, &err) != LAYOUT_OK ||
                    layout_checker_cost(&ck, &in, &c, &err) != LAYOUT_OK) {
                    CHECK_MSG(0, "access %d: %s", a, err.message);
                    break;
                }
                total += c.total_cycles;
                extra += c.extra_cycles;
                confl += c.extra_cycles > 0;
                if (worst < 0 || c.extra_cycles > worst_extra) worst = a, worst_extra = c.extra_cycles;
            }
            CHECK_MSG(r.total_cycles == total && r.extra_cycles == extra && r.n_conflicted == confl &&
                          r.worst_access == worst && r.worst_extra == worst_extra,
                      "case %ld (%s, %d-byte elements, vector %d): report %lld / %lld, %d conflicted, worst %d; "
                      "every access %lld / %lld, %d, %d", it, archs[ai], eb, r.vec_elems, (long long)r.total_cycles,
                      (long long)r.extra_cycles, r.n_conflicted, r.worst_access, (long long)total, (long long)extra,
                      confl, worst);
        }
    }
    CHECK(n_short > n / 4); /* the shortcut was taken often enough to be tested */
    CHECK(n_merged >= n / 100); /* and merged runs came up */
    printf("test_suggest_fast: %ld random lowerings, %ld through the one-run shortcut, %ld with merged runs\n", n, n_short, n_merged);
}

static long g_step;
static char g_root[512];

static void test_corpus(void)
{
    char dir[700];
    snprintf(dir, sizeof dir, "%s/fixtures/triton/kernels", g_root);
    CHECK(each_kernel(dir, g_step, g_step) >= 66 / g_step);
}

static void test_gluon(void)
{
    char tmpl[] = "/tmp/test_suggest_fast_XXXXXX", cmd[1500], dir[600];
    char *tmp = mkdtemp(tmpl);
    CHECK(tmp != NULL);
    if (!tmp) return;
    snprintf(cmd, sizeof cmd, "tar -xJf '%s/fixtures/gluon/kernels.tar.xz' -C '%s'", g_root, tmp);
    if (system(cmd) != 0) {
        CHECK_MSG(0, "could not extract the Gluon kernels (%s)", cmd);
    } else {
        snprintf(dir, sizeof dir, "%s/kernels", tmp);
        CHECK(each_kernel(dir, g_step, 8 * g_step) >= 380 / g_step);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0) printf("test_suggest_fast: note: could not remove %s\n", tmp);
}

int main(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    long scaled = harness_scaled(100);
    g_step = scaled >= 100 ? 1 : 100 / scaled;
    snprintf(g_root, sizeof g_root, "%.*s", slash ? (int)(slash - f) : 1, slash ? f : ".");
    RUN(test_translate);
    RUN(test_corpus);
    RUN(test_gluon);
    printf("test_suggest_fast: %ld kernels, %ld searched allocations, %ld candidates (%ld scored) by both scorers; "
           "%ld kernels' whole suggestions both ways; %ld suggestions that keep the store order over the first of "
           "their cost\n", g_kernels, g_allocs, g_candidates, g_scored, g_whole, g_order_kept);
    return harness_finish("test_suggest_fast");
}
