/* layout_abi_*: the sizes and offsets a run-time binding (python/liblayout)
 * reads must be the compiler's own sizeof / offsetof. */
#include "harness.h"
#include "layout.h"

#include <stddef.h>

static void test_abi_sizeof(void)
{
    /* each answer against the compiler's sizeof, written here independently */
    CHECK(layout_abi_sizeof("layout_descriptor") == sizeof(layout_descriptor));
    CHECK(layout_abi_sizeof("layout_arch") == sizeof(layout_arch));
    CHECK(layout_abi_sizeof("layout_triton_kernel") == sizeof(layout_triton_kernel));
    CHECK(layout_abi_sizeof("layout_triton_kernel_suggestions") == sizeof(layout_triton_kernel_suggestions));
    CHECK(layout_abi_sizeof("layout_triton_kernel_ranked") == sizeof(layout_triton_kernel_ranked));
    CHECK(layout_abi_sizeof("layout_distribution") == sizeof(layout_distribution));
    CHECK(layout_abi_sizeof("layout_error") == sizeof(layout_error));
    CHECK(layout_abi_sizeof("layout_instr") == sizeof(layout_instr));
    CHECK(layout_abi_sizeof("layout_cost") == sizeof(layout_cost));
    CHECK(layout_abi_sizeof("layout_side_result") == sizeof(layout_side_result));
    CHECK(layout_abi_sizeof("layout_kernel_result") == sizeof(layout_kernel_result));
    CHECK(layout_abi_sizeof("layout_kernel_spec") == sizeof(layout_kernel_spec));
    CHECK(layout_abi_sizeof("layout_access_options") == sizeof(layout_access_options));
    CHECK(layout_abi_sizeof("layout_check_report") == sizeof(layout_check_report));
    CHECK(layout_abi_sizeof("layout_plan") == sizeof(layout_plan));
    CHECK(layout_abi_sizeof("layout_kernel_plan") == sizeof(layout_kernel_plan));
    CHECK(layout_abi_sizeof("layout_seq") == sizeof(layout_seq));
    CHECK(layout_abi_sizeof("layout_diagnostic") == sizeof(layout_diagnostic));
    /* unknown names and NULL */
    CHECK(layout_abi_sizeof(NULL) == 0);
    CHECK(layout_abi_sizeof("") == 0);
    CHECK(layout_abi_sizeof("layout_descriptor ") == 0);
    CHECK(layout_abi_sizeof("int") == 0);
}

static void test_abi_offsetof(void)
{
    CHECK(layout_abi_offsetof("layout_error", "status") == (int64_t)offsetof(layout_error, status));
    CHECK(layout_abi_offsetof("layout_error", "message") == (int64_t)offsetof(layout_error, message));
    CHECK(layout_abi_offsetof("layout_instr", "addr_bytes") == (int64_t)offsetof(layout_instr, addr_bytes));
    CHECK(layout_abi_offsetof("layout_instr", "active_mask") == (int64_t)offsetof(layout_instr, active_mask));
    CHECK(layout_abi_offsetof("layout_side_result", "ops") == (int64_t)offsetof(layout_side_result, ops));
    CHECK(layout_abi_offsetof("layout_side_result", "sq_insts_lds") ==
          (int64_t)offsetof(layout_side_result, sq_insts_lds));
    CHECK(layout_abi_offsetof("layout_kernel_result", "read") == (int64_t)offsetof(layout_kernel_result, read));
    CHECK(layout_abi_offsetof("layout_kernel_result", "sq_insts_lds") ==
          (int64_t)offsetof(layout_kernel_result, sq_insts_lds));
    CHECK(layout_abi_offsetof("layout_kernel_spec", "tiles") == (int64_t)offsetof(layout_kernel_spec, tiles));
    CHECK(layout_abi_offsetof("layout_access_options", "desc_plan") ==
          (int64_t)offsetof(layout_access_options, desc_plan));
    CHECK(layout_abi_offsetof("layout_arch", "wave_size") == (int64_t)offsetof(layout_arch, wave_size));
    CHECK(layout_abi_offsetof("layout_distribution", "replication") ==
          (int64_t)offsetof(layout_distribution, replication));
    CHECK(layout_abi_offsetof("layout_cost", "fold_xor") == (int64_t)offsetof(layout_cost, fold_xor));
    /* a known type with an unknown field, an unknown type, NULLs */
    CHECK(layout_abi_offsetof("layout_error", "nope") == -1);
    CHECK(layout_abi_offsetof("layout_nope", "status") == -1);
    CHECK(layout_abi_offsetof(NULL, "status") == -1);
    CHECK(layout_abi_offsetof("layout_error", NULL) == -1);
    /* a field of another type is not found under the wrong type */
    CHECK(layout_abi_offsetof("layout_error", "n_lanes") == -1);
}

static void test_abi_type_list(void)
{
    size_t i, n = layout_abi_type_count();
    int has_desc = 0, has_report = 0;
    CHECK(n >= 30);
    for (i = 0; i < n; i++) {
        const char *name = layout_abi_type_name(i);
        CHECK(name != NULL);
        if (!name) continue;
        CHECK(strncmp(name, "layout_", 7) == 0);
        CHECK_MSG(layout_abi_sizeof(name) > 0, "type %s", name);
        has_desc |= strcmp(name, "layout_descriptor") == 0;
        has_report |= strcmp(name, "layout_check_report") == 0;
    }
    CHECK(has_desc && has_report);
    CHECK(layout_abi_type_name(n) == NULL);
    CHECK(layout_abi_type_name((size_t)-1) == NULL);
}

int main(void)
{
    RUN(test_abi_sizeof);
    RUN(test_abi_offsetof);
    RUN(test_abi_type_list);
    return harness_finish("test_abi");
}
