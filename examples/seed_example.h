/* Shared body of the per-kernel examples (examples/NN_*.c): build one seed
 * kernel for gfx942 and gfx950, show its LDS view and distributions, the
 * instructions each wave issues, and the predicted counters. */
#ifndef SEED_EXAMPLE_H
#define SEED_EXAMPLE_H

#include "seed_kernels.h"

#include <stdio.h>

static inline int seed_example_run(seed_kernel_id which, const char *story)
{
    static const char *const arches[2] = {"gfx942", "gfx950"};
    static seed_kernel k;
    static layout_access_plan plan;
    static char buf[8192];
    layout_error err;
    printf("Seed 000 kernel %s (%s): %s\n", seed_kernel_id_str(which), seed_kernel_name(which), story);
    for (int a = 0; a < 2; a++) {
        layout_arch arch;
        if (layout_arch_preset(arches[a], &arch, &err) || seed_kernel_build(&k, which, arch.n_banks, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        printf("\n=== %s (%d banks, MLdsLayer %d)\n", arch.name, arch.n_banks, sk_mlds_layer(arch.n_banks));
        layout_desc_print(&k.write_desc, buf, sizeof buf);
        printf("LDS write view: %s\n", buf);
        layout_desc_print(&k.read_desc, buf, sizeof buf);
        printf("LDS read view:  %s\n", buf);
        /* ck_tile never cross-checks stages; liblayout's verifier does (e.g. 08's RowMul on 64 banks) */
        layout_diagnostic diag[8];
        int n_diag = 0;
        if (layout_adaptor_diagnose(&k.write_desc.adaptor, diag, 8, &n_diag, &err) == LAYOUT_OK)
            for (int i = 0; i < n_diag && i < 8; i++) {
                layout_diagnostic_print(&diag[i], &k.write_desc.adaptor, buf, sizeof buf);
                printf("  diagnostic: %s\n", buf);
            }
        layout_dist_print(&k.write_dist, buf, sizeof buf);
        printf("write distribution: %s\n", buf);
        layout_dist_print(&k.read_dist, buf, sizeof buf);
        printf("read distribution:  %s\n", buf);
        for (int side = 0; side < 2; side++) {
            const layout_descriptor *d = side ? &k.read_desc : &k.write_desc;
            const layout_distribution *t = side ? &k.read_dist : &k.write_dist;
            if (layout_access_plan_make(&plan, d, t, side ? LAYOUT_READ : LAYOUT_WRITE, SK_ELEM_BYTES, NULL, &err)) {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
            for (int s = 0; s < plan.n_steps; s++)
                if (plan.steps[s].flags) {
                    layout_access_step_explain(&plan, s, buf, sizeof buf);
                    printf("  flagged: %s\n", buf);
                }
        }
        layout_kernel_spec spec = seed_kernel_spec(&k);
        layout_kernel_result r;
        if (layout_check_kernel(&arch, &spec, &r, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        layout_kernel_result_print(&r, buf, sizeof buf);
        printf("%s", buf);
    }
    return 0;
}

#endif /* SEED_EXAMPLE_H */
