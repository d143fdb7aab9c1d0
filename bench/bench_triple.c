/* The triple check and its scaling.
 * 1. The full triple check (write, LDS, read) of seed kernels 08 and 01 per
 *    64x32 tile on gfx942, side by side: the precompiled kernel plan
 *    (kernel_plan.h: plans built once, offsets by AVX2 / scalar plans) and
 *    layout_check_kernel (everything rebuilt and re-interpreted per call).
 * 2. Scaling of the precompiled check: 10^3 .. 10^6 instructions (tiles of
 *    kernel 01, 36 instructions each), time, ns per instruction (must be
 *    flat: linear time) and peak RSS before / after (must not grow).
 * Every result is verified equal to layout_check_kernel before timing. */
#include "bench_util.h"
#include "layout.h"
#include "seed_kernels.h"

static seed_kernel k;
static layout_kernel_plan kp_avx2, kp_scalar;

static layout_kernel_plan kp_tmp;
struct tctx {
    const layout_arch *arch;
    const layout_kernel_spec *spec;
};
static layout_kernel_result res;
static void m_fast_avx2(void *c)
{
    (void)c;
    layout_kernel_plan_check(&kp_avx2, &res, NULL);
    bench_clobber(&res);
}
static void m_fast_scalar(void *c)
{
    (void)c;
    layout_kernel_plan_check(&kp_scalar, &res, NULL);
    bench_clobber(&res);
}
static void m_make(void *c)
{
    struct tctx *t = c;
    layout_kernel_plan_make(&kp_tmp, t->arch, t->spec, LAYOUT_PLAN_AUTO, NULL);
    bench_clobber(&kp_tmp);
}
static void m_full(void *c)
{
    struct tctx *t = c;
    layout_check_kernel(t->arch, t->spec, &res, NULL);
    bench_clobber(&res);
}

static int run_kernel(const layout_arch *arch, seed_kernel_id id, const char *tag)
{
    layout_error err;
    if (seed_kernel_build(&k, id, arch->n_banks, &err)) {
        printf("%s\n", err.message);
        return 1;
    }
    layout_kernel_spec spec = seed_kernel_spec(&k);
    layout_kernel_result ref, r;
    if (layout_check_kernel(arch, &spec, &ref, &err) ||
        layout_kernel_plan_make(&kp_scalar, arch, &spec, LAYOUT_PLAN_SCALAR, &err) ||
        layout_kernel_plan_make(&kp_avx2, arch, &spec, LAYOUT_PLAN_AUTO, &err)) {
        printf("%s\n", err.message);
        return 1;
    }
    int bad = 0;
    layout_kernel_plan_check(&kp_avx2, &r, NULL);
    bad |= memcmp(&r, &ref, sizeof r) != 0;
    layout_kernel_plan_check(&kp_scalar, &r, NULL);
    bad |= memcmp(&r, &ref, sizeof r) != 0;
    struct tctx tc = {arch, &spec};
    bench_fn fns[4] = {m_fast_avx2, m_fast_scalar, m_make, m_full};
    void *ctxs[4] = {&tc, &tc, &tc, &tc};
    double best[4];
    bench_interleaved(4, fns, ctxs, 15, 0.01, best);
    double t_fast = best[0], t_fast_s = best[1], t_make = best[2], t_full = best[3];
    int64_t instrs = ref.instrs_per_tile;
    printf("\nkernel %s %s on %s: %lld instructions per tile (%s / %s), %lld conflict cycles per tile%s\n", k.id,
           k.name, arch->name, (long long)instrs, ref.write.ops, ref.read.ops, (long long)ref.extra_cycles_per_tile,
           bad ? "  MISMATCH" : "");
    printf("  %-40s %12s %12s\n", "method", "us/tile", "ns/instr");
    struct {
        const char *name;
        double s;
    } rows[4] = {{"kernel_plan_check_avx2", t_fast}, {"kernel_plan_check_scalar", t_fast_s},
                 {"kernel_plan_make", t_make}, {"check_kernel_from_scratch", t_full}};
    for (int i = 0; i < 4; i++) {
        printf("  %-40s %12.3f %12.1f\n", rows[i].name, rows[i].s * 1e6, rows[i].s * 1e9 / (double)instrs);
        char name[96];
        snprintf(name, sizeof name, "triple_%s_%s", tag, rows[i].name);
        bench_emit(name, "us/tile", rows[i].s * 1e6);
    }
    return bad;
}

int main(void)
{
    bench_init();
    layout_arch arch;
    layout_error err;
    if (layout_arch_preset("gfx942", &arch, &err)) {
        printf("%s\n", err.message);
        return 1;
    }
    printf("bench_triple on %s (plan AVX2 %s, checker %s)\n", bench_machine,
           layout_plan_impl_available(LAYOUT_PLAN_AVX2) ? "available" : "unavailable",
           layout_check_impl_name(layout_check_impl_best()));
    int bad = run_kernel(&arch, SEED_K08, "k08");
    bad |= run_kernel(&arch, SEED_K01, "k01");

    /* scaling: kernel 01 tiles through the precompiled check */
    if (seed_kernel_build(&k, SEED_K01, arch.n_banks, &err)) return 1;
    layout_kernel_spec spec = seed_kernel_spec(&k);
    layout_kernel_plan_make(&kp_avx2, &arch, &spec, LAYOUT_PLAN_AUTO, NULL);
    layout_kernel_result r;
    layout_kernel_plan_check(&kp_avx2, &r, NULL);
    int64_t per_tile = r.instrs_per_tile;
    printf("\nscaling: kernel 01 tiles (%lld instructions each) through layout_kernel_plan_check\n",
           (long long)per_tile);
    printf("  %10s %8s %12s %10s %14s %14s\n", "instrs", "tiles", "time ms", "ns/instr", "peak KiB before",
           "peak KiB after");
    for (long n = 1000; n <= 1000000; n *= 10) {
        long tiles = (long)((n + per_tile - 1) / per_tile);
        long before = bench_peak_kib();
        int64_t extra = 0;
        double t0 = bench_now();
        for (long t = 0; t < tiles; t++) {
            layout_kernel_plan_check(&kp_avx2, &r, NULL);
            bench_clobber(&r);
            extra += r.extra_cycles_per_tile;
        }
        double dt = bench_now() - t0;
        long after = bench_peak_kib();
        double ns = dt * 1e9 / ((double)tiles * (double)per_tile);
        printf("  %10ld %8ld %12.3f %10.1f %14ld %14ld%s\n", n, tiles, dt * 1e3, ns, before, after,
               extra != (int64_t)tiles * r.extra_cycles_per_tile ? "  MISMATCH" : "");
        char name[96];
        snprintf(name, sizeof name, "triple_scaling_%ld_ms", n);
        bench_emit(name, "ms", dt * 1e3);
        snprintf(name, sizeof name, "triple_scaling_%ld_ns_per_instr", n);
        bench_emit(name, "ns/instr", ns);
        snprintf(name, sizeof name, "triple_scaling_%ld_peak_kib_growth", n);
        bench_emit(name, "KiB", (double)(after - before));
    }
    if (bench_json) fclose(bench_json);
    return bad;
}
