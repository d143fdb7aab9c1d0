/* Precompiled triple checks: equal to layout_check_kernel on every seed
 * kernel, both LDS architectures, both plan implementations, with options;
 * every instruction equal to layout_access_instr; fallback path; bad input. */
#include "harness.h"
#include "layout.h"
#include "../examples/seed_kernels.h"

static seed_kernel k;
static layout_kernel_plan kp;

static int same_result(const layout_kernel_result *a, const layout_kernel_result *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* Every instruction of both sides through the plan equals the access layer's. */
static void compare_instrs(const layout_kernel_plan *p)
{
    const layout_side_plan *sides[2] = {&p->write, &p->read};
    for (int s = 0; s < 2; s++) {
        const layout_side_plan *sp = sides[s];
        for (int w = 0; w < sp->access.dist->n_warps; w++)
            for (int i = 0; i < sp->access.n_steps; i++) {
                layout_instr a, b;
                CHECK(layout_access_instr(&sp->access, w, i, &a, NULL) == LAYOUT_OK);
                CHECK(layout_side_plan_instr(sp, w, i, &b, NULL) == LAYOUT_OK);
                CHECK_MSG(memcmp(&a, &b, sizeof a) == 0, "side %d warp %d step %d", s, w, i);
            }
    }
}

static void test_seed_kernels_equal(void)
{
    const char *archs[2] = {"gfx942", "gfx950"};
    layout_plan_impl impls[2] = {LAYOUT_PLAN_SCALAR, LAYOUT_PLAN_AUTO};
    for (int a = 0; a < 2; a++) {
        layout_arch arch;
        CHECK(layout_arch_preset(archs[a], &arch, NULL) == LAYOUT_OK);
        for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
            CHECK(seed_kernel_build(&k, (seed_kernel_id)i, arch.n_banks, NULL) == LAYOUT_OK);
            layout_kernel_spec spec = seed_kernel_spec(&k);
            layout_kernel_result ref, got;
            CHECK(layout_check_kernel(&arch, &spec, &ref, NULL) == LAYOUT_OK);
            for (int m = 0; m < 2; m++) {
                layout_error e;
                CHECK_MSG(layout_kernel_plan_make(&kp, &arch, &spec, impls[m], &e) == LAYOUT_OK, "%s", e.message);
                CHECK(kp.write.composed && kp.read.composed);
                memset(&got, 0x5a, sizeof got);
                CHECK(layout_kernel_plan_check(&kp, &got, NULL) == LAYOUT_OK);
                CHECK_MSG(same_result(&ref, &got), "%s kernel %s impl %d: extra %lld vs %lld", archs[a], k.id, m,
                          (long long)ref.extra_cycles_per_tile, (long long)got.extra_cycles_per_tile);
                compare_instrs(&kp);
            }
        }
    }
    /* known answer: seed 01 on gfx942, 448 conflict cycles per tile */
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    layout_kernel_spec spec = seed_kernel_spec(&k);
    layout_kernel_result got;
    CHECK(layout_kernel_plan_make(&kp, &arch, &spec, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
    CHECK(layout_kernel_plan_check(&kp, &got, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(got.extra_cycles_per_tile, 448);
    CHECK_EQ_I64(got.sq_lds_bank_conflict, 3670016);
}

static void test_options(void)
{
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    layout_access_options wo, ro;
    memset(&wo, 0, sizeof wo);
    memset(&ro, 0, sizeof ro);
    wo.policy = LAYOUT_VECTOR_SPLIT;
    wo.base_bytes = 4;
    ro.op = LAYOUT_DS_B32;
    ro.base_bytes = 4;
    for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
        CHECK(seed_kernel_build(&k, (seed_kernel_id)i, 32, NULL) == LAYOUT_OK);
        layout_kernel_spec spec = seed_kernel_spec(&k);
        spec.write_opt = &wo;
        spec.read_opt = &ro;
        layout_kernel_result ref, got;
        layout_status s1 = layout_check_kernel(&arch, &spec, &ref, NULL);
        layout_status s2 = layout_kernel_plan_make(&kp, &arch, &spec, LAYOUT_PLAN_AUTO, NULL);
        CHECK(s1 == s2);
        if (s1) continue;
        CHECK(layout_kernel_plan_check(&kp, &got, NULL) == LAYOUT_OK);
        CHECK_MSG(same_result(&ref, &got), "kernel %s with options", k.id);
        compare_instrs(&kp);
    }
}

/* A table distribution: no adaptor form, the plan falls back and stays exact. */
static int64_t table[4][64][8][2];
static void test_fallback(void)
{
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K08, 32, NULL) == LAYOUT_OK);
    for (int w = 0; w < 4; w++)
        for (int l = 0; l < 64; l++)
            for (int e = 0; e < 8; e++) {
                int64_t x[2];
                CHECK(layout_dist_coord_elem(&k.read_dist, w, l, e, x, NULL) == LAYOUT_OK);
                table[w][l][e][0] = x[0];
                table[w][l][e][1] = x[1];
            }
    layout_distribution td;
    int64_t xl[2] = {64, 32};
    CHECK(layout_dist_from_table(&td, 2, xl, 64, 4, 8, &table[0][0][0][0], NULL) == LAYOUT_OK);
    layout_kernel_spec spec = seed_kernel_spec(&k);
    spec.read_dist = &td;
    layout_kernel_result ref, got;
    CHECK(layout_check_kernel(&arch, &spec, &ref, NULL) == LAYOUT_OK);
    CHECK(layout_kernel_plan_make(&kp, &arch, &spec, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
    CHECK(kp.write.composed && !kp.read.composed);
    CHECK(layout_kernel_plan_check(&kp, &got, NULL) == LAYOUT_OK);
    CHECK(same_result(&ref, &got));
    compare_instrs(&kp);
}

/* Wave-32 (sm_90) encodings, with two P dims (warp, lane) and with one
 * (lane only: every warp holds the same data). */
static void test_wave32(void)
{
    layout_arch arch;
    CHECK(layout_arch_preset("sm_90", &arch, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(arch.wave_size, 32);
    int64_t tile[2] = {32, 32};
    layout_dist_encoding e2, e1;
    memset(&e2, 0, sizeof e2);
    e2.n_x = 2; /* x0 = 8 warp + lane / 4, x1 = 8 (lane % 4) + y */
    e2.n_h[0] = 2; e2.h[0][0] = 4; e2.h[0][1] = 8;
    e2.n_h[1] = 2; e2.h[1][0] = 4; e2.h[1][1] = 8;
    e2.n_p = 2;
    e2.n_p_rh[0] = 1; e2.p_major[0][0] = 1; e2.p_minor[0][0] = 0;
    e2.n_p_rh[1] = 2; e2.p_major[1][0] = 1; e2.p_minor[1][0] = 1; e2.p_major[1][1] = 2; e2.p_minor[1][1] = 0;
    e2.n_y = 1; e2.y_major[0] = 2; e2.y_minor[0] = 1;
    memset(&e1, 0, sizeof e1);
    e1.n_x = 2; /* x0 = 8 y0 + lane / 4, x1 = 8 (lane % 4) + y1 */
    e1.n_h[0] = 2; e1.h[0][0] = 4; e1.h[0][1] = 8;
    e1.n_h[1] = 2; e1.h[1][0] = 4; e1.h[1][1] = 8;
    e1.n_p = 1;
    e1.n_p_rh[0] = 2; e1.p_major[0][0] = 1; e1.p_minor[0][0] = 1; e1.p_major[0][1] = 2; e1.p_minor[0][1] = 0;
    e1.n_y = 2; e1.y_major[0] = 1; e1.y_minor[0] = 0; e1.y_major[1] = 2; e1.y_minor[1] = 1;
    layout_distribution d2, d1;
    layout_error err;
    CHECK_MSG(layout_dist_make(&d2, &e2, 32, 4, 2, tile, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_MSG(layout_dist_make(&d1, &e1, 32, 2, 2, tile, &err) == LAYOUT_OK, "%s", err.message);
    layout_descriptor packed, padded;
    int64_t strides[2] = {34, 1};
    CHECK(layout_packed(&packed, 2, tile, NULL) == LAYOUT_OK);
    CHECK(layout_naive(&padded, 2, tile, strides, NULL) == LAYOUT_OK);
    const layout_descriptor *descs[2] = {&packed, &padded};
    for (int di = 0; di < 2; di++) {
        layout_kernel_spec spec;
        memset(&spec, 0, sizeof spec);
        spec.write_desc = descs[di];
        spec.write_dist = &d2;
        spec.read_dist = &d1;
        spec.elem_bytes = 2;
        spec.tiles = 3;
        layout_kernel_result ref, got;
        CHECK_MSG(layout_check_kernel(&arch, &spec, &ref, &err) == LAYOUT_OK, "%s", err.message);
        CHECK_MSG(layout_kernel_plan_make(&kp, &arch, &spec, LAYOUT_PLAN_AUTO, &err) == LAYOUT_OK, "%s", err.message);
        CHECK(kp.write.composed && kp.write.warp_var);
        CHECK(kp.read.composed && !kp.read.warp_var);
        CHECK(layout_kernel_plan_check(&kp, &got, NULL) == LAYOUT_OK);
        CHECK_MSG(same_result(&ref, &got), "wave32 desc %d: extra %lld vs %lld", di,
                  (long long)ref.extra_cycles_per_tile, (long long)got.extra_cycles_per_tile);
        compare_instrs(&kp);
    }
}

static void test_bad_input(void)
{
    layout_arch arch, a32;
    layout_error e;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    CHECK(layout_arch_preset("sm_90", &a32, NULL) == LAYOUT_OK);
    CHECK(seed_kernel_build(&k, SEED_K08, 32, NULL) == LAYOUT_OK);
    layout_kernel_spec spec = seed_kernel_spec(&k);
    CHECK(layout_kernel_plan_make(&kp, &arch, &spec, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
    layout_kernel_result before, after;
    CHECK(layout_kernel_plan_check(&kp, &before, NULL) == LAYOUT_OK);
    int64_t tiles_before = kp.tiles;
    CHECK(layout_kernel_plan_make(NULL, &arch, &spec, LAYOUT_PLAN_AUTO, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_kernel_plan_make(&kp, NULL, &spec, LAYOUT_PLAN_AUTO, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_kernel_plan_make(&kp, &arch, NULL, LAYOUT_PLAN_AUTO, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_kernel_plan_make(&kp, &arch, &spec, (layout_plan_impl)9, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "layout_kernel_plan_make: impl = 9");
    layout_kernel_spec bad = spec;
    bad.tiles = 0;
    CHECK(layout_kernel_plan_make(&kp, &arch, &bad, LAYOUT_PLAN_AUTO, &e) == LAYOUT_ERR_ARG);
    bad = spec;
    bad.read_dist = NULL;
    CHECK(layout_kernel_plan_make(&kp, &arch, &bad, LAYOUT_PLAN_AUTO, &e) == LAYOUT_ERR_NULL);
    bad = spec;
    bad.elem_bytes = 3;
    CHECK(layout_kernel_plan_make(&kp, &arch, &bad, LAYOUT_PLAN_AUTO, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "layout_kernel_plan_make: write side:");
    CHECK(layout_kernel_plan_make(&kp, &a32, &spec, LAYOUT_PLAN_AUTO, &e) == LAYOUT_ERR_MISMATCH);
    /* failed makes left the plan untouched: same tiles, same result */
    CHECK_EQ_I64(kp.tiles, tiles_before);
    CHECK(layout_kernel_plan_check(&kp, &after, NULL) == LAYOUT_OK);
    CHECK(same_result(&before, &after)); /* field-wise: memcmp would read struct padding */
    layout_kernel_result r;
    CHECK(layout_kernel_plan_check(NULL, &r, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_kernel_plan_check(&kp, NULL, &e) == LAYOUT_ERR_NULL);
    layout_instr ins;
    CHECK(layout_side_plan_instr(NULL, 0, 0, &ins, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_side_plan_instr(&kp.read, 0, 0, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_side_plan_instr(&kp.read, 4, 0, &ins, &e) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "warp = 4");
    CHECK(layout_side_plan_instr(&kp.read, 0, 99, &ins, &e) == LAYOUT_ERR_RANGE);
    /* overflow of the totals */
    bad = spec;
    bad.tiles = INT64_MAX / 2;
    layout_arch conflicted;
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    bad = seed_kernel_spec(&k);
    bad.tiles = INT64_MAX / 4;
    conflicted = arch;
    CHECK(layout_kernel_plan_make(&kp, &conflicted, &bad, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
    CHECK(layout_kernel_plan_check(&kp, &r, &e) == LAYOUT_ERR_OVERFLOW);
}

int main(void)
{
    RUN(test_seed_kernels_equal);
    RUN(test_options);
    RUN(test_fallback);
    RUN(test_wave32);
    RUN(test_bad_input);
    return harness_finish("test_kernel_plan");
}
