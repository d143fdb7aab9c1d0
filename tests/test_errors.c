/* Error paths of the public API that the per-layer tests leave out: each
 * call gets one bad argument and must return the documented status, name
 * the function in its message and leave its output untouched. */
#include "harness.h"
#include "layout.h"
#include "../examples/seed_kernels.h"

static layout_error err;

#define CHECK_STATUS(call, want)                                                        \
    do {                                                                                \
        layout_status got_ = (call);                                                    \
        CHECK_MSG(got_ == (want), "%s: %s (%s)", #call, layout_status_name(got_), err.message); \
    } while (0)

static void test_status_names(void)
{
    static const layout_status all[] = {
        LAYOUT_OK, LAYOUT_ERR_NULL, LAYOUT_ERR_ARG, LAYOUT_ERR_OVERFLOW, LAYOUT_ERR_CAPACITY,
        LAYOUT_ERR_DIM_ID, LAYOUT_ERR_RANGE, LAYOUT_ERR_UNSUPPORTED, LAYOUT_ERR_MISALIGNED,
        LAYOUT_ERR_NOT_FOUND, LAYOUT_ERR_BUFFER, LAYOUT_ERR_PARSE, LAYOUT_ERR_MISMATCH};
    static const char *const names[] = {
        "LAYOUT_OK", "LAYOUT_ERR_NULL", "LAYOUT_ERR_ARG", "LAYOUT_ERR_OVERFLOW", "LAYOUT_ERR_CAPACITY",
        "LAYOUT_ERR_DIM_ID", "LAYOUT_ERR_RANGE", "LAYOUT_ERR_UNSUPPORTED", "LAYOUT_ERR_MISALIGNED",
        "LAYOUT_ERR_NOT_FOUND", "LAYOUT_ERR_BUFFER", "LAYOUT_ERR_PARSE", "LAYOUT_ERR_MISMATCH"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        CHECK(strcmp(layout_status_name(all[i]), names[i]) == 0);
        CHECK(layout_is_error(all[i]) == (i > 0));
    }
    CHECK(strcmp(layout_status_name((layout_status)1), "LAYOUT_ERR_UNKNOWN") == 0);
}

static void test_adaptor_errors(void)
{
    static layout_adaptor a;
    layout_transform t[9];
    layout_seq lo[9], up[9];
    /* A sequence longer than a transform can have. */
    layout_make_pass_through(4, &t[0], NULL);
    lo[0].n = 9, up[0].n = 1;
    for (int i = 0; i < 8; i++) lo[0].ids[i] = i;
    up[0].ids[0] = 0;
    CHECK_STATUS(layout_adaptor_single_stage(&a, 1, t, lo, up, &err), LAYOUT_ERR_DIM_ID);
    CHECK_STR_CONTAINS(err.message, "layout_adaptor_single_stage");
    /* Upper sequence size differs from the transform's. */
    lo[0].n = 1, lo[0].ids[0] = 0;
    up[0].n = 2, up[0].ids[1] = 1;
    CHECK_STATUS(layout_adaptor_single_stage(&a, 1, t, lo, up, &err), LAYOUT_ERR_DIM_ID);
    CHECK_STR_CONTAINS(err.message, "upper");
    /* Nine bottom dims. */
    for (int i = 0; i < 9; i++) {
        layout_make_pass_through(2, &t[i], NULL);
        lo[i].n = up[i].n = 1;
        lo[i].ids[0] = up[i].ids[0] = i;
    }
    CHECK_STATUS(layout_adaptor_single_stage(&a, 9, t, lo, up, &err), LAYOUT_ERR_CAPACITY);
    /* No top dim: a lone freeze. */
    layout_make_freeze(0, &t[0], NULL);
    up[0].n = 0;
    CHECK_STATUS(layout_adaptor_single_stage(&a, 1, t, lo, up, &err), LAYOUT_ERR_CAPACITY);
    CHECK_STR_CONTAINS(err.message, "top dims");
}

static void test_descriptor_errors(void)
{
    layout_descriptor d;
    int64_t len[3] = {2, INT64_MAX - 1, 4};
    /* aligned: the row stride (lengths rounded up to align) overflows. */
    CHECK_STATUS(layout_aligned(&d, 2, len, ((int64_t)1 << 62) + 1, &err), LAYOUT_ERR_OVERFLOW);
    CHECK_STR_CONTAINS(err.message, "layout_aligned");
    /* aligned: an outer stride overflows. */
    len[0] = 2, len[1] = (int64_t)1 << 40, len[2] = (int64_t)1 << 30;
    CHECK_STATUS(layout_aligned(&d, 3, len, (int64_t)1 << 30, &err), LAYOUT_ERR_OVERFLOW);
    /* naive_vec: bad hints. */
    int64_t l2[2] = {4, 4}, s2[2] = {4, 1};
    CHECK_STATUS(layout_naive_vec(&d, 2, l2, s2, 0, 1, &err), LAYOUT_ERR_ARG);
    CHECK_STATUS(layout_naive_vec(&d, 2, l2, s2, 4, -2, &err), LAYOUT_ERR_ARG);
    CHECK_STATUS(layout_naive_vec(&d, 2, l2, s2, 4, 1, &err), LAYOUT_OK);
    /* Queries on NULL. */
    CHECK_EQ_I64(layout_desc_ndims(NULL), 0);
    CHECK_EQ_I64(layout_desc_size(NULL), -1);
    CHECK_EQ_I64(layout_desc_element_space_size(NULL), -1);
    int64_t off;
    CHECK_STATUS(layout_desc_offset(NULL, l2, &off, &err), LAYOUT_ERR_NULL);
    CHECK_STATUS(layout_desc_offset(&d, NULL, &off, &err), LAYOUT_ERR_NULL);
    CHECK_STATUS(layout_desc_offset(&d, l2, NULL, &err), LAYOUT_ERR_NULL);
}

static void test_transform_errors(void)
{
    layout_transform t;
    char buf[64];
    layout_make_pass_through(4, &t, NULL);
    t.kind = (layout_transform_kind)99;
    CHECK(layout_transform_print(&t, buf, sizeof buf) > 0);
    CHECK_STR_CONTAINS(buf, "unknown(99)");
    CHECK_STATUS(layout_transform_check(&t, &err), LAYOUT_ERR_ARG);
    CHECK(layout_transform_print(NULL, buf, sizeof buf) < 0);
    layout_transform_kind k = LAYOUT_XOR;
    CHECK_STATUS(layout_transform_kind_from_name("swizzle", &k, &err), LAYOUT_ERR_NOT_FOUND);
    CHECK(k == LAYOUT_XOR);
    CHECK_STATUS(layout_transform_kind_from_name(NULL, &k, &err), LAYOUT_ERR_NULL);
    CHECK(strcmp(layout_transform_kind_name((layout_transform_kind)-1), "unknown") == 0);
}

static void test_arch_errors(void)
{
    layout_arch a, keep;
    CHECK(layout_arch_preset("gfx942", &a, &err) == LAYOUT_OK);
    /* A damaged wave size is caught by the setters. */
    keep = a;
    a.wave_size = 48;
    CHECK_STATUS(layout_arch_set_consecutive(&a, LAYOUT_READ, 4, 8, LAYOUT_CONFIDENCE_LOW, NULL, &err),
                 LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "wave_size = 48");
    a = keep;
    int x = 1;
    uint64_t g = ~(uint64_t)0;
    CHECK_STATUS(layout_arch_set_fold(&a, LAYOUT_READ, 4, &x, 1, &g, 1, (layout_confidence)7, &err),
                 LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "confidence = 7");
    /* Text fields that are not NUL-terminated. */
    a = keep;
    memset(a.note, 'n', sizeof a.note);
    CHECK_STATUS(layout_arch_validate(&a, &err), LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "note");
    a = keep;
    memset(a.rules[LAYOUT_READ][2].source, 's', sizeof a.rules[LAYOUT_READ][2].source);
    CHECK_STATUS(layout_arch_validate(&a, &err), LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "source");
    a = keep;
    memset(a.name, 'a', sizeof a.name);
    CHECK_STATUS(layout_arch_validate(&a, &err), LAYOUT_ERR_ARG);
    layout_checker ck;
    CHECK_STATUS(layout_checker_init(&ck, &a, LAYOUT_IMPL_SCALAR, &err), LAYOUT_ERR_ARG);
    CHECK_STATUS(layout_checker_init(&ck, &keep, (layout_check_impl)5, &err), LAYOUT_ERR_ARG);
    CHECK(strcmp(layout_check_impl_name((layout_check_impl)5), "?") == 0);
    CHECK(strcmp(layout_confidence_name((layout_confidence)5), "?") == 0);
    CHECK(strcmp(layout_direction_name((layout_direction)5), "?") == 0);
}

static int one_cell(void *user, int warp, int lane, int64_t elem, int64_t *x)
{
    (void)user, (void)warp, (void)lane, (void)elem;
    x[0] = x[1] = 0;
    return 0;
}

static void test_distribution_errors(void)
{
    static layout_distribution d;
    layout_dist_encoding e;
    /* One P whose length is not the wave size. */
    memset(&e, 0, sizeof e);
    e.n_x = 1, e.n_h[0] = 2, e.h[0][0] = 32, e.h[0][1] = 2;
    e.n_p = 1, e.n_p_rh[0] = 1, e.p_major[0][0] = 1, e.p_minor[0][0] = 0;
    e.n_y = 1, e.y_major[0] = 1, e.y_minor[0] = 1;
    CHECK_STATUS(layout_dist_make(&d, &e, 32, 1, 0, NULL, &err), LAYOUT_OK);
    CHECK_STATUS(layout_dist_make(&d, &e, 64, 1, 0, NULL, &err), LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(err.message, "P0 (lane) length 32 != wave_size 64");
    /* A P merging two huge R entries overflows. */
    e.n_r = 2, e.r[0] = e.r[1] = (int64_t)1 << 40;
    e.n_p_rh[0] = 3;
    e.p_major[0][1] = e.p_major[0][2] = 0;
    e.p_minor[0][1] = 0, e.p_minor[0][2] = 1;
    CHECK_STATUS(layout_dist_make(&d, &e, 32, 1, 0, NULL, &err), LAYOUT_ERR_OVERFLOW);
    /* Plain forms: sizes that overflow. */
    int64_t big[2] = {(int64_t)1 << 40, (int64_t)1 << 40};
    CHECK_STATUS(layout_dist_from_callback(&d, 2, big, 64, 1024, INT64_MAX / 2, one_cell, NULL, &err),
                 LAYOUT_ERR_OVERFLOW);
    CHECK_STATUS(layout_dist_from_callback(&d, 2, big, 1, 1, 1, one_cell, NULL, &err), LAYOUT_OK);
    uint32_t counts[4];
    big[0] = big[1] = (int64_t)1 << 62;
    CHECK_STATUS(layout_dist_from_callback(&d, 2, big, 1, 1, 1, one_cell, NULL, &err), LAYOUT_OK);
    CHECK_STATUS(layout_dist_coverage(&d, counts, 4, NULL, NULL, &err), LAYOUT_ERR_OVERFLOW);
    CHECK_EQ_I64(layout_dist_elem_index(NULL, big), -1);
    CHECK(layout_dist_y_index(&d, -1, big) == -1);
}

static void test_kernel_errors(void)
{
    static seed_kernel k;
    layout_arch arch;
    layout_checker ck;
    static layout_access_plan plan;
    layout_side_result r;
    layout_kernel_result kr;
    layout_arch_preset("gfx942", &arch, NULL);
    CHECK(seed_kernel_build(&k, SEED_K03, 32, &err) == LAYOUT_OK);
    CHECK(layout_access_plan_make(&plan, &k.write_desc, &k.write_dist, LAYOUT_WRITE, 2, NULL, &err) == LAYOUT_OK);
    memset(&ck, 0, sizeof ck);
    CHECK_STATUS(layout_check_side(&ck, &plan, 1, &r, &err), LAYOUT_ERR_NULL);
    layout_kernel_spec spec = seed_kernel_spec(&k);
    spec.write_desc = NULL;
    CHECK_STATUS(layout_check_kernel(&arch, &spec, &kr, &err), LAYOUT_ERR_NULL);
    CHECK_STR_CONTAINS(err.message, "write_desc");
    (void)ck;
}

static void test_flagged_steps_explained(void)
{
    /* Kernel 03's 68-byte rows with 8-element vectors forced: the b128
     * stores are misaligned; kernel 01's read view with a forced vector
     * along M is not contiguous.  Both are explained. */
    static seed_kernel k;
    static layout_access_plan plan;
    layout_access_options opt;
    char text[512];
    memset(&opt, 0, sizeof opt);
    CHECK(seed_kernel_build(&k, SEED_K03, 32, &err) == LAYOUT_OK);
    int seen_misaligned = 0, seen_noncontig = 0, n_misaligned = 0;
    for (int y = 0; y < k.write_dist.n_y; y++) {
        opt.vector_y = y;
        opt.vector_elems = (int)k.write_dist.y_lengths[y];
        if (layout_access_plan_make(&plan, &k.write_desc, &k.write_dist, LAYOUT_WRITE, 2, &opt, &err)) continue;
        n_misaligned += plan.n_misaligned;
        for (int s = 0; s < plan.n_steps; s++) {
            layout_access_step_explain(&plan, s, text, sizeof text);
            seen_misaligned |= strstr(text, "misaligned") != NULL;
        }
    }
    CHECK(n_misaligned > 0 && seen_misaligned);
    CHECK(seed_kernel_build(&k, SEED_K01, 32, &err) == LAYOUT_OK);
    for (int y = 0; y < k.read_dist.n_y && !seen_noncontig; y++) {
        opt.vector_y = y;
        opt.vector_elems = (int)k.read_dist.y_lengths[y];
        if (opt.vector_elems < 2) continue;
        if (layout_access_plan_make(&plan, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &opt, &err)) continue;
        for (int s = 0; s < plan.n_steps; s++) {
            layout_access_step_explain(&plan, s, text, sizeof text);
            seen_noncontig |= strstr(text, "non-contiguous") != NULL;
        }
    }
    CHECK(seen_noncontig);
    CHECK(layout_access_step_explain(&plan, -1, text, sizeof text) == 0 && text[0] == 0);
}

int main(void)
{
    RUN(test_status_names);
    RUN(test_adaptor_errors);
    RUN(test_descriptor_errors);
    RUN(test_transform_errors);
    RUN(test_arch_errors);
    RUN(test_distribution_errors);
    RUN(test_kernel_errors);
    RUN(test_flagged_steps_explained);
    return harness_finish("test_errors");
}
