/* Linear layouts (linear.h), in one run:
 * 1. the seed 08 tile (64x32, 32 banks): layout_linear_tile_offsets (the
 *    Gray-code walk over the layout's bases) vs the hand-written closed form
 *    of bench_offsets.c and the compiled plan; ns per coordinate and the ratio
 *    to the closed form (target: <= 0.7x);
 * 2. the closed-form bank-conflict count (layout_linear_access_cost) vs the
 *    exact checker (layout_checker_cost, AUTO and scalar) on the same random
 *    linear accesses; ns per instruction.
 * Every output is verified before timing. */
#include "bench_util.h"
#include "layout.h"
#include "../tests/support/xorshift.h"

#include <inttypes.h>
#include <stdint.h>

enum { M = 64, K = 32, N = M * K };

static int64_t out[N], ref[N];
static volatile int vm = M, vk = K;

/* seed 08 (32 banks), the same closed form as bench_offsets.c:
 * B = m/2, L = m%2, A' = (4L + k/8) ^ (B%8), offset = 64B + 8A' + k%8 */
static void closed_08(int64_t *o)
{
    int mm = vm, kk = vk;
    for (int m = 0; m < mm; m++)
        for (int k = 0; k < kk; k++)
            *o++ = (int64_t)(m >> 1) * 64 + (int64_t)((((m & 1) << 2) + (k >> 3)) ^ ((m >> 1) & 7)) * 8 + (k & 7);
}

/* kernel 08's descriptor (examples/seed_kernels.h builds the same with its helpers) */
static layout_status build_08(layout_descriptor *d, layout_error *err)
{
    layout_transform t[3];
    layout_status s;
    int64_t len[3] = {8, 32, 8}, stride[3] = {8, 64, 1};
    if ((s = layout_naive_vec(d, 3, len, stride, 8, 1, err))) return s;
    layout_make_xor(32, 8, &t[0], NULL);
    layout_make_pass_through(8, &t[1], NULL);
    layout_seq lo2[2] = {LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2)}, up2[2] = {LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2)};
    if ((s = layout_transform_descriptor(d, d, 2, t, lo2, up2, err))) return s;
    int64_t l_k0[2] = {2, 4};
    layout_make_unmerge(2, l_k0, &t[0], NULL);
    layout_make_pass_through(32, &t[1], NULL);
    layout_make_pass_through(8, &t[2], NULL);
    layout_seq lo3[3] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1), LAYOUT_SEQ(2)};
    layout_seq up3[3] = {LAYOUT_SEQ(0, 2), LAYOUT_SEQ(1), LAYOUT_SEQ(3)};
    if ((s = layout_transform_descriptor(d, d, 3, t, lo3, up3, err))) return s;
    int64_t b_l[2] = {32, 2}, k0_kp[2] = {4, 8};
    layout_make_merge(2, b_l, &t[0], NULL);
    layout_make_merge(2, k0_kp, &t[1], NULL);
    layout_seq lo4[2] = {LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2, 3)}, up4[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)};
    return layout_transform_descriptor(d, d, 2, t, lo4, up4, err);
}

static layout_linear lin08;
static layout_plan plan08;

static void m_closed(void *c)
{
    (void)c;
    closed_08(out);
    bench_clobber(out);
}
static void m_linear(void *c)
{
    (void)c;
    layout_linear_tile_offsets(&lin08, out, N, NULL);
    bench_clobber(out);
}
static void m_plan(void *c)
{
    (void)c;
    layout_plan_tile(&plan08, out, NULL, N, NULL);
    bench_clobber(out);
}

static int run_tile(void)
{
    layout_descriptor d;
    layout_error err;
    if (build_08(&d, &err) || layout_desc_to_linear(&d, &lin08, &err) ||
        layout_plan_build(&plan08, &d, LAYOUT_PLAN_AUTO, &err)) {
        printf("setup: %s\n", err.message);
        return 1;
    }
    static const char *const names[3] = {"closed_form", "linear_tile", "plan_tile"};
    bench_fn fns[3] = {m_closed, m_linear, m_plan};
    void *ctxs[3] = {NULL, NULL, NULL};
    int bad = 0;
    closed_08(ref);
    for (int m = 0; m < 3; m++) {
        memset(out, 0xff, sizeof out);
        fns[m](NULL);
        for (int i = 0; i < N; i++)
            if (out[i] != ref[i]) {
                printf("MISMATCH %s at %d: %" PRId64 " != %" PRId64 "\n", names[m], i, out[i], ref[i]);
                bad = 1;
                break;
            }
    }
    double best[3];
    bench_interleaved(3, fns, ctxs, 15, 0.004, best);
    printf("seed 08 tile, %d coordinates (%s); plan = %s\n", N, bad ? "MISMATCH" : "verified",
           layout_plan_impl_name(plan08.impl));
    printf("  %-16s %12s %10s\n", "method", "ns/coord", "x closed");
    for (int m = 0; m < 3; m++) {
        double ns = best[m] * 1e9 / N;
        printf("  %-16s %12.3f %10.2f\n", names[m], ns, best[m] / best[0]);
        char name[96];
        snprintf(name, sizeof name, "linear_tile08_%s", names[m]);
        bench_emit(name, "ns/coord", ns);
        snprintf(name, sizeof name, "linear_tile08_%s_vs_closed", names[m]);
        bench_emit(name, "x", best[m] / best[0]);
    }
    return bad;
}

/* ---- conflicts ---- */

enum { N_ACC = 2048 };
static layout_linear_access accs[N_ACC];
static layout_instr instrs[N_ACC];
static layout_cost costs[N_ACC];
static layout_arch arch;
static layout_checker chk_auto, chk_scalar;

static void c_closed(void *c)
{
    (void)c;
    for (int i = 0; i < N_ACC; i++) layout_linear_access_cost(&arch, &accs[i], &costs[i], NULL);
    bench_clobber(costs);
}
static void c_auto(void *c)
{
    (void)c;
    for (int i = 0; i < N_ACC; i++) layout_checker_cost(&chk_auto, &instrs[i], &costs[i], NULL);
    bench_clobber(costs);
}
static void c_scalar(void *c)
{
    (void)c;
    for (int i = 0; i < N_ACC; i++) layout_checker_cost(&chk_scalar, &instrs[i], &costs[i], NULL);
    bench_clobber(costs);
}

static int run_conflicts(const char *arch_name, int width)
{
    layout_error err;
    if (layout_arch_preset(arch_name, &arch, &err) || layout_checker_init(&chk_auto, &arch, LAYOUT_IMPL_AUTO, &err) ||
        layout_checker_init(&chk_scalar, &arch, LAYOUT_IMPL_SCALAR, &err)) {
        printf("setup: %s\n", err.message);
        return 1;
    }
    uint64_t s = 0x5eed0000u + (uint64_t)width;
    int bad = 0, conflicted = 0;
    for (int i = 0; i < N_ACC; i++) {
        layout_linear_access *a = &accs[i];
        memset(a, 0, sizeof *a);
        a->direction = i % 2 ? LAYOUT_WRITE : LAYOUT_READ;
        a->width_bytes = width;
        a->n_lane_bits = arch.wave_size == 64 ? 6 : 5;
        for (int b = 0; b < a->n_lane_bits; b++)
            a->lane_images[b] = (uint32_t)width << xorshift64s_range(&s, 0, 9);
        a->base_bytes = (uint32_t)width * (uint32_t)xorshift64s_range(&s, 0, 255);
        layout_linear_access_instr(a, &instrs[i], NULL);
        layout_cost x, y;
        if (layout_linear_access_cost(&arch, a, &x, &err) || layout_checker_cost(&chk_scalar, &instrs[i], &y, NULL) ||
            memcmp(&x, &y, sizeof x)) {
            printf("MISMATCH access %d: %s\n", i, err.message);
            bad = 1;
        }
        conflicted += y.extra_cycles > 0;
    }
    static const char *const names[3] = {"closed_form", "checker_auto", "checker_scalar"};
    bench_fn fns[3] = {c_closed, c_auto, c_scalar};
    void *ctxs[3] = {NULL, NULL, NULL};
    double best[3];
    bench_interleaved(3, fns, ctxs, 9, 0.004, best);
    printf("\n%s b%d, %d random linear accesses (%d conflicted, %s); checker auto = %s\n", arch_name, width * 8, N_ACC,
           conflicted, bad ? "MISMATCH" : "verified", layout_check_impl_name(chk_auto.impl));
    printf("  %-16s %12s %10s\n", "method", "ns/instr", "x checker");
    for (int m = 0; m < 3; m++) {
        double ns = best[m] * 1e9 / N_ACC;
        printf("  %-16s %12.1f %10.2f\n", names[m], ns, best[m] / best[1]);
        char name[96];
        snprintf(name, sizeof name, "linear_conflict_%s_b%d_%s", arch_name, width * 8, names[m]);
        bench_emit(name, "ns/instr", ns);
    }
    return bad;
}

int main(void)
{
    bench_init();
    int bad = run_tile();
    bad |= run_conflicts("gfx942", 16);
    bad |= run_conflicts("gfx942", 4);
    bad |= run_conflicts("sm_90", 16);
    return bad;
}
