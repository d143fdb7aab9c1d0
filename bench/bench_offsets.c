/* Figure 1 of issue 5: offsets of every element of the 64x32 tile, side by
 * side in one run: plan (AVX2), plan (scalar), single-coordinate calls
 * (layout_desc_offset, layout_plan_offset_unchecked) and a hand-written
 * closed-form C loop of the same layout; ns per coordinate and the ratio to
 * the closed form.  Two layouts: the seed 08 XOR descriptor (32 banks) and a
 * 3-stage composition (unmerge, xor with modulus 4, merge) on a padded base.
 * Results are verified against layout_desc_offset before timing. */
#include "bench_util.h"
#include "layout.h"
#include "seed_kernels.h"

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

static int run(const char *tag, const char *label, const layout_descriptor *d, void (*closed)(int64_t *))
{
    layout_plan pa, ps;
    layout_error err;
    int have_avx2 = layout_plan_build(&pa, d, LAYOUT_PLAN_AVX2, NULL) == LAYOUT_OK;
    if (layout_plan_build(&ps, d, LAYOUT_PLAN_SCALAR, &err)) {
        printf("%s\n", err.message);
        return 1;
    }
    double t_closed, t_avx2 = 0, t_scalar, t_desc, t_one;
    int bad = 0;
    closed(out);
    bad |= verify(d, "closed form");
    BENCH_TIME(t_closed, 0.02, { closed(out); bench_clobber(out); });
    if (have_avx2) {
        layout_plan_tile(&pa, out, NULL, N, NULL);
        bad |= verify(d, "plan avx2");
        BENCH_TIME(t_avx2, 0.02, { layout_plan_tile(&pa, out, NULL, N, NULL); bench_clobber(out); });
    }
    layout_plan_tile(&ps, out, NULL, N, NULL);
    bad |= verify(d, "plan scalar");
    BENCH_TIME(t_scalar, 0.02, { layout_plan_tile(&ps, out, NULL, N, NULL); bench_clobber(out); });
    BENCH_TIME(t_desc, 0.02, {
                   for (int i = 0; i < N; i++) layout_desc_offset(d, coords[i], &out[i], NULL);
                   bench_clobber(out);
               });
    for (int i = 0; i < N; i++) out[i] = layout_plan_offset_unchecked(&ps, coords[i]);
    bad |= verify(d, "plan single");
    BENCH_TIME(t_one, 0.02, {
                   for (int i = 0; i < N; i++) out[i] = layout_plan_offset_unchecked(&ps, coords[i]);
                   bench_clobber(out);
               });
    struct {
        const char *name;
        double s;
    } rows[5] = {{"closed_form", t_closed}, {"plan_avx2", t_avx2}, {"plan_scalar", t_scalar},
                 {"plan_single_coord", t_one}, {"desc_offset_single_coord", t_desc}};
    printf("\n%s (%d coordinates, %d ops, %s)\n", label, N, ps.n_ops, bad ? "MISMATCH" : "verified");
    printf("  %-26s %12s %10s\n", "method", "ns/coord", "x closed");
    for (int r = 0; r < 5; r++) {
        if (rows[r].s == 0) continue;
        double ns = rows[r].s * 1e9 / N;
        printf("  %-26s %12.3f %10.2f\n", rows[r].name, ns, rows[r].s / t_closed);
        char name[96];
        snprintf(name, sizeof name, "offsets_%s_%s", tag, rows[r].name);
        bench_emit(name, "ns/coord", ns);
        snprintf(name, sizeof name, "offsets_%s_%s_vs_closed", tag, rows[r].name);
        bench_emit(name, "x", rows[r].s / t_closed);
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
    if (bench_json) fclose(bench_json);
    return bad;
}
