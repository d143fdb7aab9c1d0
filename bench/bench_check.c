/* Checker throughput: ns per instruction, scalar reference vs AVX2 side by
 * side in one run, for the patterns of bench/RESULTS.md ("Checker"), plus
 * scaling over 1e3..1e6 instructions with peak memory.
 *
 * Human table on stdout; one JSON object per figure to the file named by
 * $LAYOUT_BENCH_JSON_PART (see bench/run.sh). */
#include "bench_util.h"
#include "layout.h"

enum { N_BUF = 1024 };
static layout_instr buf[N_BUF];
static volatile int64_t sink;

/* The talk's XOR layout (docs/lds-model.md §4.2), element offset. */
static uint32_t xor_off(int m, int k, int L, int pad)
{
    int B = m / L, A = (m % L) * 4 + k / 8, C = k % 8;
    return (uint32_t)(B * (32 + pad) * L + (A ^ (B % (4 * L))) * 8 + C);
}

typedef enum { P_STRIDE, P_K08, P_K05_B16, P_K01_B16, P_RANDOM } pattern;

/* Fill buf with one pattern; each copy shifted by a whole multiple of 8 KiB
 * so the cost is the same but the data differs. */
static void fill(int lanes, int width, pattern p, uint32_t stride, int L)
{
    for (int i = 0; i < N_BUF; i++) {
        layout_instr *in = &buf[i];
        layout_instr_init(in, lanes, width, LAYOUT_READ, NULL);
        uint32_t base = 8192u * (uint32_t)(i % 4);
        int w = i % 4, j = (i / 4) % 8;
        for (int l = 0; l < lanes; l++) {
            uint32_t a = 0;
            switch (p) {
            case P_STRIDE: a = stride * (uint32_t)l; break;
            case P_K08: a = 2 * xor_off(l, 8 * w, L, 0); break;
            case P_K05_B16: a = 2 * xor_off(8 * (l % 8) + j, 8 * w + l / 8, 2, 1); break;
            case P_K01_B16: a = 2u * (uint32_t)((8 * (l % 8) + j) * 32 + 8 * w + l / 8); break;
            /* width-aligned pseudo-random addresses in 8 KiB: mild conflicts
             * with many occupied (group, bank) slots */
            case P_RANDOM: a = (uint32_t)width * ((((uint32_t)l * 2654435761u + (uint32_t)i * 40503u) >> 13) % (8192u / (uint32_t)width)); break;
            }
            in->addr_bytes[l] = base + a;
        }
    }
}

/* One batch call over buf, for bench_interleaved(). */
typedef struct batch_ctx {
    const layout_checker *ck;
    layout_cost_totals t;
} batch_ctx;

static void run_batch(void *p)
{
    batch_ctx *c = p;
    layout_checker_cost_batch(c->ck, buf, N_BUF, NULL, &c->t, NULL);
    sink += c->t.extra_cycles;
}

/* ns per instruction of n checkers over buf, measured interleaved: 15
 * rounds, each checker runs about 10 ms per round, best round wins (a slow
 * phase of the shared machine then hits scalar and AVX2 alike, keeping the
 * ratio honest).  LAYOUT_BENCH_CALLS=k instead makes exactly k batch calls
 * per checker with no timing loop, so that callgrind instruction counts per
 * check are deterministic. */
static void time_batches(int n, const layout_checker *const *cks, double *ns, int64_t *extra_per_instr)
{
    batch_ctx ctx[2];
    bench_fn fns[2];
    void *ctxp[2];
    for (int m = 0; m < n; m++) {
        memset(&ctx[m], 0, sizeof ctx[m]);
        ctx[m].ck = cks[m];
        fns[m] = run_batch;
        ctxp[m] = &ctx[m];
    }
    const char *calls = getenv("LAYOUT_BENCH_CALLS");
    if (calls) {
        long k = atol(calls);
        for (int m = 0; m < n; m++) {
            double t0 = bench_now();
            for (long i = 0; i < k; i++) run_batch(&ctx[m]);
            ns[m] = (bench_now() - t0) * 1e9 / ((double)(k > 0 ? k : 1) * N_BUF);
        }
    } else {
        double best[2];
        bench_interleaved(n, fns, ctxp, 15, 0.01, best);
        for (int m = 0; m < n; m++) ns[m] = best[m] * 1e9 / N_BUF;
    }
    for (int m = 0; m < n; m++) extra_per_instr[m] = ctx[m].t.extra_cycles / N_BUF;
}

typedef struct figure {
    const char *name;
    const char *arch;
    int width;
    pattern p;
    uint32_t stride;
    int L;
} figure;

int main(void)
{
    bench_init();
    int have_avx2 = layout_check_impl_available(LAYOUT_IMPL_AVX2);
    printf("bench_check on %s (AVX2 %s)\n", bench_machine, have_avx2 ? "available" : "unavailable");
    printf("%-34s %9s %10s %10s %8s\n", "figure (wave, read)", "extra/ins", "scalar ns", "avx2 ns", "ratio");

    static const figure figs[] = {
        {"gfx942_b128_conflict_free", "gfx942", 16, P_K08, 0, 2},
        {"gfx942_b128_conflicted", "gfx942", 16, P_STRIDE, 128, 2},
        {"gfx942_b16_conflict_free", "gfx942", 2, P_K05_B16, 0, 2},
        {"gfx942_b16_conflicted", "gfx942", 2, P_K01_B16, 0, 2},
        {"gfx950_b128_conflict_free", "gfx950", 16, P_K08, 0, 4},
        {"gfx950_b128_conflicted", "gfx950", 16, P_STRIDE, 256, 4},
        {"sm_90_b128_conflict_free", "sm_90", 16, P_STRIDE, 16, 0},
        {"sm_90_b128_conflicted", "sm_90", 16, P_STRIDE, 128, 0},
        {"gfx942_b128_random", "gfx942", 16, P_RANDOM, 0, 0},
        {"gfx942_b16_random", "gfx942", 2, P_RANDOM, 0, 0},
    };
    const char *only = getenv("LAYOUT_BENCH_ONLY"); /* substring filter, for profiling */
    for (size_t f = 0; f < sizeof figs / sizeof figs[0]; f++) {
        if (only && !strstr(figs[f].name, only)) continue;
        layout_arch a;
        layout_checker cs, cv;
        layout_arch_preset(figs[f].arch, &a, NULL);
        layout_checker_init(&cs, &a, LAYOUT_IMPL_SCALAR, NULL);
        fill(a.wave_size, figs[f].width, figs[f].p, figs[f].stride, figs[f].L);
        if (have_avx2) layout_checker_init(&cv, &a, LAYOUT_IMPL_AVX2, NULL);
        const layout_checker *cks[2] = {&cs, &cv};
        double ns[2] = {0, 0};
        int64_t ex[2] = {0, 0};
        time_batches(have_avx2 ? 2 : 1, cks, ns, ex);
        int64_t xs = ex[0], xv = ex[1];
        double ns_s = ns[0], ns_v = ns[1];
        if (have_avx2 && xv != xs) printf("  MISMATCH scalar %lld avx2 %lld\n", (long long)xs, (long long)xv);
        printf("%-34s %9lld %10.1f %10.1f %7.1fx\n", figs[f].name, (long long)xs, ns_s, ns_v,
               ns_v > 0 ? ns_s / ns_v : 0.0);
        char name[96];
        snprintf(name, sizeof name, "check_%s_scalar", figs[f].name);
        bench_emit(name, "ns/instr", ns_s);
        if (have_avx2) {
            snprintf(name, sizeof name, "check_%s_avx2", figs[f].name);
            bench_emit(name, "ns/instr", ns_v);
            snprintf(name, sizeof name, "check_%s_speedup", figs[f].name);
            bench_emit(name, "x", ns_s / ns_v);
        }
    }

    if (only) return 0;
    /* scaling: the same gfx942 b128 mix (half conflict-free, half 8-way)
     * streamed through a fixed 1024-instruction buffer */
    layout_arch a;
    layout_checker ck;
    layout_arch_preset("gfx942", &a, NULL);
    layout_checker_init(&ck, &a, LAYOUT_IMPL_AUTO, NULL);
    fill(64, 16, P_K08, 0, 2);
    for (int i = 0; i < N_BUF; i += 2) layout_instr_fill_strided(&buf[i], 0, 128, NULL);
    printf("\nscaling (%s, gfx942 b128 mix of conflict-free and 8-way):\n", layout_check_impl_name(ck.impl));
    printf("%10s %12s %10s %12s\n", "instrs", "time ms", "ns/instr", "peak KiB");
    for (long n = 1000; n <= 1000000; n *= 10) {
        double t0 = bench_now();
        int64_t extra = 0;
        for (long done = 0; done < n;) {
            long m = n - done < N_BUF ? n - done : N_BUF;
            layout_cost_totals t;
            layout_checker_cost_batch(&ck, buf, (size_t)m, NULL, &t, NULL);
            extra += t.extra_cycles;
            done += m;
        }
        double dt = bench_now() - t0;
        sink += extra;
        printf("%10ld %12.3f %10.1f %12ld\n", n, dt * 1e3, dt * 1e9 / (double)n, bench_peak_kib());
        char name[64];
        snprintf(name, sizeof name, "check_scaling_%ld_ms", n);
        bench_emit(name, "ms", dt * 1e3);
        snprintf(name, sizeof name, "check_scaling_%ld_peak_kib", n);
        bench_emit(name, "KiB", (double)bench_peak_kib());
    }
    if (bench_json) fclose(bench_json);
    return 0;
}
