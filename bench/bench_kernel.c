/* How fast is the triple check?  For each seed kernel: building both access
 * plans, and the full layout_check_kernel (plans + every instruction of every
 * wave costed), on gfx942.  Prints a table; writes one JSON object per figure
 * to $LAYOUT_BENCH_JSON_PART when set. */
#include "seed_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* What one timed call does: build both access plans, or run the whole check. */
typedef struct job {
    const layout_arch *arch;
    const seed_kernel *k;
    const layout_kernel_spec *spec;
    int plans_only;
} job;

static void run_job(const job *j)
{
    static layout_access_plan wp, rp;
    layout_kernel_result r;
    if (j->plans_only) {
        layout_access_plan_make(&wp, &j->k->write_desc, &j->k->write_dist, LAYOUT_WRITE, 2, NULL, NULL);
        layout_access_plan_make(&rp, &j->k->read_desc, &j->k->read_dist, LAYOUT_READ, 2, NULL, NULL);
    } else {
        layout_check_kernel(j->arch, j->spec, &r, NULL);
    }
}

/* Mean microseconds per run_job over at least 0.1 s. */
static double time_us(const job *j)
{
    int reps = 0;
    double t0 = now_s(), t1;
    do {
        run_job(j);
        reps++;
        t1 = now_s();
    } while (t1 - t0 < 0.1);
    return (t1 - t0) / reps * 1e6;
}

static const char *machine(void)
{
    const char *m = getenv("LAYOUT_BENCH_MACHINE");
    return m && *m ? m : "unknown";
}

static void emit(FILE *json, const char *name, const char *unit, double value)
{
    if (json)
        fprintf(json, "{\"name\": \"%s\", \"unit\": \"%s\", \"value\": %.3f, \"machine\": \"%s\"}\n", name, unit, value,
                machine());
}

int main(void)
{
    const char *path = getenv("LAYOUT_BENCH_JSON_PART");
    FILE *json = path ? fopen(path, "w") : NULL;
    layout_arch arch;
    layout_error err;
    if (layout_arch_preset("gfx942", &arch, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    static seed_kernel k;
    printf("%-22s %12s %18s %14s %22s\n", "kernel (gfx942)", "plans (us)", "kernel check (us)", "checks / s",
           "compiled views (us)");
    for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
        if (seed_kernel_build(&k, (seed_kernel_id)i, arch.n_banks, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        layout_kernel_spec spec = seed_kernel_spec(&k);
        job j = {&arch, &k, &spec, 1};
        double plan_us = time_us(&j);
        j.plans_only = 0;
        double check_us = time_us(&j);
        /* the same with both views compiled once (plan.h), as a search loop would */
        static layout_plan wplan, rplan;
        layout_plan_build(&wplan, &k.write_desc, LAYOUT_PLAN_AUTO, NULL);
        layout_plan_build(&rplan, &k.read_desc, LAYOUT_PLAN_AUTO, NULL);
        layout_access_options wo, ro;
        memset(&wo, 0, sizeof wo);
        memset(&ro, 0, sizeof ro);
        wo.desc_plan = &wplan;
        ro.desc_plan = &rplan;
        spec.write_opt = &wo;
        spec.read_opt = &ro;
        double compiled_us = time_us(&j);
        char label[64], name[96];
        snprintf(label, sizeof label, "%s %s", k.id, k.name);
        printf("%-22s %12.1f %18.1f %14.0f %22.1f\n", label, plan_us, check_us, 1e6 / check_us, compiled_us);
        snprintf(name, sizeof name, "kernel_check_%s_plans", k.id);
        emit(json, name, "us", plan_us);
        snprintf(name, sizeof name, "kernel_check_%s", k.id);
        emit(json, name, "us", check_us);
        snprintf(name, sizeof name, "kernel_check_%s_compiled", k.id);
        emit(json, name, "us", compiled_us);
    }
    if (json) fclose(json);
    return 0;
}
