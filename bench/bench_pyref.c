/* The C side of the Python overhead figures (python/bench_python.py runs this
 * binary interleaved with its own timings and subtracts): the exact calls the
 * Python module makes, timed from C on the same objects built from the same
 * text forms (seed kernel 08, gfx942, fp16):
 *   offsets_tile   layout_plan_tile() of the 64x32 tile into a caller buffer
 *                  (Python: Descriptor.offsets(out=buf); the plan is compiled once)
 *   check_triple   layout_check_triple() (Python: liblayout.check_triple())
 *   plan_check     layout_kernel_plan_check() (Python: KernelPlan.check())
 * Every result is verified before timing (2048 distinct offsets, 0 conflicts).
 * Also a regular `make bench` member: its figures go to build/bench.json. */
#include "bench_util.h"
#include "layout.h"

#define W_ALL "dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])"
#define R_08 "dist(R=[1], H=([1,8,8],[4,8]), P=([(2,0)],[(1,1),(1,2)]), Y=[(1,0),(2,1)])"
#define LDS_08                                                                                                   \
    "naive([8,32,8],[8,64,1],gvl=8,gvs=1) | T{xor([32,8]):[1,0]->[1,0] ; pass(8):[2]->[2]}"                    \
    " | T{unmerge([2,4]):[0]->[0,2] ; pass(32):[1]->[1] ; pass(8):[2]->[3]}"                                 \
    " | T{merge([32,2]):[1,0]->[0] ; merge([4,8]):[2,3]->[1]}"

static layout_arch arch;
static layout_descriptor lds;
static layout_distribution wdist, rdist;
static layout_plan plan;
static layout_kernel_plan kplan;
static int64_t offsets[2048];
static layout_kernel_result res;

static void m_offsets_tile(void *c)
{
    (void)c;
    layout_plan_tile(&plan, offsets, NULL, 2048, NULL);
    bench_clobber(offsets);
}
static void m_check_triple(void *c)
{
    (void)c;
    layout_check_triple(&arch, &wdist, &lds, &rdist, 2, &res, NULL);
    bench_clobber(&res);
}
static void m_plan_check(void *c)
{
    (void)c;
    layout_kernel_plan_check(&kplan, &res, NULL);
    bench_clobber(&res);
}

int main(void)
{
    layout_error err;
    layout_kernel_spec spec;
    static const char *const names[3] = {"offsets_tile", "check_triple", "plan_check"};
    static const char *const what[3] = {"offsets of a 64x32 tile (plan_tile)", "triple check (check_triple)",
                                        "triple check (kernel_plan_check)"};
    bench_fn fns[3] = {m_offsets_tile, m_check_triple, m_plan_check};
    void *ctx[3] = {NULL, NULL, NULL};
    double best[3];
    char name[96];
    bench_init();
    if (layout_arch_preset("gfx942", &arch, &err) || layout_desc_from_text(LDS_08, &lds, NULL, &err) ||
        layout_dist_from_text(W_ALL, 0, 0, &wdist, NULL, &err) ||
        layout_dist_from_text(R_08, 0, 0, &rdist, NULL, &err) ||
        layout_plan_build(&plan, &lds, LAYOUT_PLAN_AUTO, &err)) {
        printf("bench_pyref: %s\n", err.message);
        return 1;
    }
    memset(&spec, 0, sizeof spec);
    spec.write_desc = &lds;
    spec.write_dist = &wdist;
    spec.read_dist = &rdist;
    spec.elem_bytes = 2;
    spec.tiles = 1;
    if (layout_kernel_plan_make(&kplan, &arch, &spec, LAYOUT_PLAN_AUTO, &err)) {
        printf("bench_pyref: %s\n", err.message);
        return 1;
    }
    /* verify what is timed */
    {
        static unsigned char seen[2048];
        m_offsets_tile(NULL);
        for (int i = 0; i < 2048; i++) {
            if (offsets[i] < 0 || offsets[i] >= 2048 || seen[offsets[i]]) {
                printf("bench_pyref: kernel 08 offsets are not a permutation of 0..2047\n");
                return 1;
            }
            seen[offsets[i]] = 1;
        }
        if (layout_check_triple(&arch, &wdist, &lds, &rdist, 2, &res, &err) || res.extra_cycles_per_tile != 0) {
            printf("bench_pyref: kernel 08 triple check: %s\n", err.message);
            return 1;
        }
        m_plan_check(NULL);
        if (res.extra_cycles_per_tile != 0) return 1;
    }
    bench_interleaved(3, fns, ctx, 7, 0.02, best);
    printf("C twins of the Python module's calls (seed kernel 08, gfx942, %s):\n", bench_machine);
    for (int m = 0; m < 3; m++) {
        printf("  %-40s %10.0f ns/call\n", what[m], best[m] * 1e9);
        snprintf(name, sizeof name, "pyref.%s.c", names[m]);
        bench_emit(name, "ns/call", best[m] * 1e9);
    }
    if (bench_json) fclose(bench_json);
    return 0;
}
