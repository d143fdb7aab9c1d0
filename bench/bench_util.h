/* Shared helpers of the perf benchmarks: machine name, JSON lines, a timer
 * on thread CPU time, peak RSS and a compiler barrier.  Header-only. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static char bench_machine[160] = "unknown";
static FILE *bench_json;

/* "AMD EPYC, gcc 12.2.0 -O2" from /proc/cpuinfo and the compiler. */
static inline void bench_init(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256], model[128] = "unknown";
    if (f) {
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0) {
                char *p = strchr(line, ':');
                if (p) {
                    p += 2;
                    p[strcspn(p, "\n")] = '\0';
                    snprintf(model, sizeof model, "%s", p);
                }
                break;
            }
        fclose(f);
    }
#if defined(__clang__)
    snprintf(bench_machine, sizeof bench_machine, "%s, clang %d.%d", model, __clang_major__, __clang_minor__);
#elif defined(__GNUC__)
    snprintf(bench_machine, sizeof bench_machine, "%s, gcc %d.%d", model, __GNUC__, __GNUC_MINOR__);
#else
    snprintf(bench_machine, sizeof bench_machine, "%s", model);
#endif
    const char *jp = getenv("LAYOUT_BENCH_JSON_PART");
    bench_json = jp ? fopen(jp, "w") : NULL;
}

static inline void bench_emit(const char *name, const char *unit, double value)
{
    if (bench_json)
        fprintf(bench_json, "{\"name\": \"%s\", \"unit\": \"%s\", \"value\": %.3f, \"machine\": \"%s\"}\n", name, unit,
                value, bench_machine);
}

/* Thread CPU time (the machine is shared: wall time would count others). */
static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline long bench_peak_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Tell the compiler that memory at p is read and written: results must be
 * produced, loops cannot be hoisted or removed. */
static inline void bench_clobber(const void *p)
{
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* Best (minimum) seconds per call of body over 5 trials of >= min_s each. */
#define BENCH_TIME(result, min_s, body)                                   \
    do {                                                                  \
        double best_ = 1e30;                                              \
        for (int trial_ = 0; trial_ < 5; trial_++) {                      \
            long reps_ = 0;                                               \
            double t0_ = bench_now(), t1_;                                \
            do {                                                          \
                body;                                                     \
                reps_++;                                                  \
                t1_ = bench_now();                                        \
            } while (t1_ - t0_ < (min_s));                                \
            double per_ = (t1_ - t0_) / (double)reps_;                    \
            if (per_ < best_) best_ = per_;                               \
        }                                                                 \
        (result) = best_;                                                 \
    } while (0)

/* Interleaved timing of several methods: trials rounds, in each round every
 * method runs for >= slice_s; best[m] = the minimum seconds per call over the
 * rounds.  Interleaving keeps ratios honest on a shared, frequency-scaling
 * machine (a slow phase hits every method alike). */
typedef void (*bench_fn)(void *ctx);
static inline void bench_interleaved(int n, bench_fn const *fns, void *const *ctx, int trials, double slice_s,
                                     double *best)
{
    for (int m = 0; m < n; m++) best[m] = 1e30;
    for (int t = 0; t < trials; t++)
        for (int m = 0; m < n; m++) {
            long reps = 0;
            double t0 = bench_now(), t1;
            do {
                fns[m](ctx[m]);
                reps++;
                t1 = bench_now();
            } while (t1 - t0 < slice_s);
            double per = (t1 - t0) / (double)reps;
            if (per < best[m]) best[m] = per;
        }
}

#endif /* BENCH_UTIL_H */
