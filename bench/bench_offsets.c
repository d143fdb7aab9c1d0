/* Offsets of every element of the 64x32 tile, side by
 * side in one run: plan (AVX2), plan (scalar), single-coordinate calls
 * (layout_desc_offset, layout_plan_offset_unchecked) and a hand-written
 * closed-form C loop of the same layout; ns per coordinate and the ratio to
 * the closed form.  Two layouts: the seed 08 XOR descriptor (32 banks) and a
 * 3-stage composition (unmerge, xor with modulus 4, merge) on a padded base.
 * Results are verified against layout_desc_offset before timing. */
#include "bench_util.h"
#include "layout.h"
#include "seed_kernels.h"
#include "../tests/support/rand_desc.h"

#include <inttypes.h>
#include <stdint.h>

enum { M = 64, K = 32, N = M * K };

static int64_t out[N];
static int64_t coords[N][2];
/* volatile: the compiler cannot specialise the closed-form loops on the shape */
static volatile int vm = M, vk = K;

/* seed 08 (32 banks): B = m/2, L = m%2, A' = (4L + k/8) ^ (B%8), offset = 64B + 8A' + k%8 */
static void closed_08(int64_t *o)
{
    int mm = vm, kk = vk;
    for (int m = 0; m < mm; m++)
        for (int k = 0; k < kk; k++)
            *o++ = (int64_t)(m >> 1) * 64 + (int64_t)((((m & 1) << 2) + (k >> 3)) ^ ((m >> 1) & 7)) * 8 + (k & 7);
}

/* the composition: naive [64, 32] strides [40, 1]; unmerge K -> (4, 8);
 * xor(64, 4) on (M, K0); merge (K0, K1) -> K:  offset = 40m + 8((k/8) ^ (m%4)) + k%8 */
static void closed_comp(int64_t *o)
{
    int mm = vm, kk = vk;
    for (int m = 0; m < mm; m++)
        for (int k = 0; k < kk; k++) *o++ = (int64_t)m * 40 + (int64_t)((k >> 3) ^ (m & 3)) * 8 + (k & 7);
}

static layout_status build_comp(layout_descriptor *out, layout_error *err)
{
    layout_descriptor d0, d1, d2;
    layout_transform t[2];
    int64_t lens[2] = {M, K}, strides[2] = {40, 1}, k01[2] = {4, 8};
    layout_status s;
    if ((s = layout_naive(&d0, 2, lens, strides, err))) return s;
    if ((s = layout_make_pass_through(M, &t[0], err)) || (s = layout_make_unmerge(2, k01, &t[1], err))) return s;
    layout_seq lo1[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)}, up1[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1, 2)};
    if ((s = layout_transform_descriptor(&d1, &d0, 2, t, lo1, up1, err))) return s;
    if ((s = layout_make_xor(M, 4, &t[0], err)) || (s = layout_make_pass_through(8, &t[1], err))) return s;
    layout_seq lo2[2] = {LAYOUT_SEQ(0, 1), LAYOUT_SEQ(2)}, up2[2] = {LAYOUT_SEQ(0, 1), LAYOUT_SEQ(2)};
    if ((s = layout_transform_descriptor(&d2, &d1, 2, t, lo2, up2, err))) return s;
    if ((s = layout_make_pass_through(M, &t[0], err)) || (s = layout_make_merge(2, k01, &t[1], err))) return s;
    layout_seq lo3[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1, 2)}, up3[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)};
    return layout_transform_descriptor(out, &d2, 2, t, lo3, up3, err);
}

static int verify(const layout_descriptor *d, const char *what)
{
    for (int i = 0; i < N; i++) {
        int64_t ref = -1;
        layout_desc_offset(d, coords[i], &ref, NULL);
        if (out[i] != ref) {
            printf("MISMATCH %s at (%d, %d): %" PRId64 " != %" PRId64 "\n", what, i / K, i % K, out[i], ref);
            return 1;
        }
    }
    return 0;
}

typedef struct ctx {
    const layout_descriptor *d;
    const layout_plan *plan;
    void (*closed)(int64_t *);
} ctx;

static void m_closed(void *c)
{
    ((ctx *)c)->closed(out);
    bench_clobber(out);
}
static void m_tile(void *c)
{
    layout_plan_tile(((ctx *)c)->plan, out, NULL, N, NULL);
    bench_clobber(out);
}
static void m_single(void *c)
{
    const layout_plan *p = ((ctx *)c)->plan;
    for (int i = 0; i < N; i++) out[i] = layout_plan_offset_unchecked(p, coords[i]);
    bench_clobber(out);
}
static void m_desc(void *c)
{
    const layout_descriptor *d = ((ctx *)c)->d;
    for (int i = 0; i < N; i++) layout_desc_offset(d, coords[i], &out[i], NULL);
    bench_clobber(out);
}

static int run(const char *tag, const char *label, const layout_descriptor *d, void (*closed)(int64_t *))
{
    static layout_plan pa, ps;
    layout_error err;
    int have_avx2 = layout_plan_build(&pa, d, LAYOUT_PLAN_AVX2, NULL) == LAYOUT_OK;
    if (layout_plan_build(&ps, d, LAYOUT_PLAN_SCALAR, &err)) {
        printf("%s\n", err.message);
        return 1;
    }
    ctx ca = {d, &pa, closed}, cs = {d, &ps, closed};
    static const char *const names[5] = {"closed_form", "plan_avx2", "plan_scalar", "plan_single_coord",
                                         "desc_offset_single_coord"};
    bench_fn fns[5] = {m_closed, m_tile, m_tile, m_single, m_desc};
    void *ctxs[5] = {&cs, &ca, &cs, &cs, &cs};
    int bad = 0;
    /* verify every method's output first */
    for (int m = 0; m < 5; m++) {
        if (m == 1 && !have_avx2) continue;
        memset(out, 0xff, sizeof out);
        fns[m](ctxs[m]);
        bad |= verify(d, names[m]);
    }
    double best[5];
    if (!have_avx2) { /* time the scalar plan twice instead */
        ctxs[1] = &cs;
    }
    bench_interleaved(5, fns, ctxs, 15, 0.004, best);
    printf("\n%s (%d coordinates, %d ops, %s)\n", label, N, ps.n_ops, bad ? "MISMATCH" : "verified");
    printf("  %-26s %12s %10s\n", "method", "ns/coord", "x closed");
    for (int r = 0; r < 5; r++) {
        if (r == 1 && !have_avx2) continue;
        double ns = best[r] * 1e9 / N;
        printf("  %-26s %12.3f %10.2f\n", names[r], ns, best[r] / best[0]);
        char name[96];
        snprintf(name, sizeof name, "offsets_%s_%s", tag, names[r]);
        bench_emit(name, "ns/coord", ns);
        snprintf(name, sizeof name, "offsets_%s_%s_vs_closed", tag, names[r]);
        bench_emit(name, "x", best[r] / best[0]);
    }
    return bad;
}

/* Random 3-stage compositions from the test generator (every transform
 * kind): no closed form exists, so the plan is compared with the
 * interpreter; ns per coordinate over the whole set. */
enum { N_RAND = 200 };
static layout_descriptor rand_desc[N_RAND];
static layout_plan rand_avx2[N_RAND], rand_scalar[N_RAND];
static int rand_has_avx2[N_RAND];
static int64_t rand_coords[4096 * LAYOUT_MAX_DIMS], rand_out[4096];
static int64_t rand_total;

static void r_avx2(void *c)
{
    (void)c;
    for (int i = 0; i < N_RAND; i++)
        layout_plan_tile(rand_has_avx2[i] ? &rand_avx2[i] : &rand_scalar[i], rand_out, NULL, 4096, NULL);
    bench_clobber(rand_out);
}
static void r_scalar(void *c)
{
    (void)c;
    for (int i = 0; i < N_RAND; i++) layout_plan_tile(&rand_scalar[i], rand_out, NULL, 4096, NULL);
    bench_clobber(rand_out);
}
static void r_desc(void *c)
{
    (void)c;
    for (int i = 0; i < N_RAND; i++) {
        const layout_descriptor *d = &rand_desc[i];
        int n = layout_desc_ndims(d);
        int64_t size = layout_desc_size(d), x[LAYOUT_MAX_DIMS] = {0};
        for (int64_t k = 0; k < size; k++) {
            layout_desc_offset(d, x, &rand_out[k], NULL);
            for (int j = n - 1; j >= 0 && ++x[j] == layout_desc_length(d, j); j--) x[j] = 0;
        }
    }
    bench_clobber(rand_out);
}

static int run_random(void)
{
    rd_rng r = {20261121};
    int n_avx2 = 0, n_ops = 0, bad = 0;
    rand_total = 0;
    for (int i = 0; i < N_RAND;) {
        layout_descriptor d;
        if (!rd_random_desc_stages(&r, 3, 4096, &d) || layout_desc_size(&d) < 256) continue;
        rand_desc[i] = d;
        if (layout_plan_build(&rand_scalar[i], &d, LAYOUT_PLAN_SCALAR, NULL)) continue;
        rand_has_avx2[i] = layout_plan_build(&rand_avx2[i], &d, LAYOUT_PLAN_AVX2, NULL) == LAYOUT_OK;
        n_avx2 += rand_has_avx2[i];
        n_ops += rand_scalar[i].n_ops;
        /* verify both plans against the interpreter */
        int nd = layout_desc_ndims(&d);
        int64_t size = layout_desc_size(&d), x[LAYOUT_MAX_DIMS] = {0};
        for (int64_t k = 0; k < size; k++) {
            memcpy(&rand_coords[k * nd], x, (size_t)nd * sizeof *x);
            for (int j = nd - 1; j >= 0 && ++x[j] == layout_desc_length(&d, j); j--) x[j] = 0;
        }
        for (int m = 0; m < 2; m++) {
            if (m == 1 && !rand_has_avx2[i]) continue;
            layout_plan_tile(m ? &rand_avx2[i] : &rand_scalar[i], rand_out, NULL, 4096, NULL);
            for (int64_t k = 0; k < size; k++) {
                int64_t ref = -1;
                layout_desc_offset(&d, &rand_coords[k * nd], &ref, NULL);
                bad |= ref != rand_out[k];
            }
        }
        rand_total += size;
        i++;
    }
    bench_fn fns[3] = {r_avx2, r_scalar, r_desc};
    void *ctxs[3] = {NULL, NULL, NULL};
    double best[3];
    bench_interleaved(3, fns, ctxs, 10, 0.01, best);
    static const char *const names[3] = {"plan_auto", "plan_scalar", "desc_offset_single_coord"};
    printf("\n%d random 3-stage compositions (test generator, every transform kind; %lld coordinates, %.1f ops "
           "per plan, %d of %d on AVX2, %s)\n",
           N_RAND, (long long)rand_total, (double)n_ops / N_RAND, n_avx2, N_RAND, bad ? "MISMATCH" : "verified");
    printf("  %-26s %12s %14s\n", "method", "ns/coord", "x interpreter");
    for (int m = 0; m < 3; m++) {
        double ns = best[m] * 1e9 / (double)rand_total;
        printf("  %-26s %12.3f %14.3f\n", names[m], ns, best[m] / best[2]);
        char name[96];
        snprintf(name, sizeof name, "offsets_random3_%s", names[m]);
        bench_emit(name, "ns/coord", ns);
    }
    return bad;
}

int main(void)
{
    bench_init();
    for (int i = 0; i < N; i++) {
        coords[i][0] = i / K;
        coords[i][1] = i % K;
    }
    printf("bench_offsets on %s (plan AVX2 %s)\n", bench_machine,
           layout_plan_impl_available(LAYOUT_PLAN_AVX2) ? "available" : "unavailable");
    layout_descriptor d08, comp;
    layout_error err;
    if (seed_xor_desc(&d08, sk_mlds_layer(32), 0, 1, &err) || build_comp(&comp, &err)) {
        printf("%s\n", err.message);
        return 1;
    }
    int bad = run("k08", "seed 08 XOR descriptor, 64x32 tile", &d08, closed_08);
    bad |= run("comp3", "3-stage composition (unmerge, xor %4, merge) on pitch-40 rows", &comp, closed_comp);
    bad |= run_random();
    if (bench_json) fclose(bench_json);
    return bad;
}
