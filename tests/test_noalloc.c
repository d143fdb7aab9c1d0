/* Zero heap allocations on the hot paths: malloc / calloc /
 * realloc are interposed by counting wrappers defined in this binary (glibc
 * lets a program replace them; the real ones are __libc_*), and every plan,
 * box walk, kernel plan and checker call must leave the count unchanged.
 * Under AddressSanitizer or ThreadSanitizer (which own malloc) or without glibc the
 * interposition is skipped with a printed note; the tests then only run the
 * paths.  A first test proves the counter sees a deliberate malloc. */
#include <stdlib.h>

#include "harness.h"
#include "layout.h"
#include "../examples/seed_kernels.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) /* TSan owns malloc too (make tsan) */
#define NOALLOC_SKIP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define NOALLOC_SKIP 1
#endif
#endif
#if !defined(__GLIBC__)
#define NOALLOC_SKIP 1
#endif

static volatile long n_allocs;

#ifndef NOALLOC_SKIP
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

void *malloc(size_t n)
{
    n_allocs++;
    return __libc_malloc(n);
}
void *calloc(size_t n, size_t size)
{
    n_allocs++;
    return __libc_calloc(n, size);
}
void *realloc(void *p, size_t n)
{
    n_allocs++;
    return __libc_realloc(p, n);
}
void free(void *p)
{
    __libc_free(p);
}
#endif

static int counting(void)
{
#ifdef NOALLOC_SKIP
    return 0;
#else
    return 1;
#endif
}

static void test_counter_works(void)
{
    long before = n_allocs;
    void *volatile p = malloc(24);
    CHECK(p != NULL);
    free(p);
    const char *wrapper = getenv("LAYOUT_TEST_WRAPPER");
    if (counting() && n_allocs == before && wrapper && strstr(wrapper, "valgrind"))
        printf("test_noalloc: valgrind replaces malloc itself; paths run uncounted here (counted in `make test`)\n");
    else if (counting())
        CHECK(n_allocs == before + 1);
    else
        printf("test_noalloc: allocator interposition skipped (sanitizer or non-glibc build); paths run uncounted\n");
}

static layout_descriptor d08;
static layout_plan plan;
static int64_t offs[2048];
static uint8_t valid[2048];
static seed_kernel k;
static layout_kernel_plan kp;

static void test_plan_paths(void)
{
    CHECK(seed_xor_desc(&d08, sk_mlds_layer(32), 0, 1, NULL) == LAYOUT_OK);
    layout_plan_impl impls[2] = {LAYOUT_PLAN_SCALAR, LAYOUT_PLAN_AUTO};
    for (int m = 0; m < 2; m++) {
        layout_error err;
        long before = n_allocs;
        CHECK(layout_plan_build(&plan, &d08, impls[m], &err) == LAYOUT_OK);
        CHECK(layout_plan_tile(&plan, offs, valid, 2048, &err) == LAYOUT_OK);
        int64_t org[2] = {3, 5}, ext[2] = {7, 9}, c[2] = {9, 9}, o = 0;
        CHECK(layout_plan_box(&plan, org, ext, offs, NULL, 2048, &err) == LAYOUT_OK);
        CHECK(layout_plan_offset(&plan, c, &o, &err) == LAYOUT_OK);
        CHECK(layout_plan_offsets(&plan, 1, c, offs, valid, &err) == LAYOUT_OK);
        (void)layout_plan_offset_unchecked(&plan, c);
        (void)layout_plan_valid_unchecked(&plan, c);
        CHECK(layout_plan_box(&plan, org, ext, offs, NULL, 2, &err) == LAYOUT_ERR_BUFFER); /* error path too */
        CHECK_EQ_I64(n_allocs - before, 0);
    }
}

static void test_kernel_paths(void)
{
    layout_arch arch;
    layout_error err;
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
        CHECK(seed_kernel_build(&k, (seed_kernel_id)i, 32, NULL) == LAYOUT_OK);
        layout_kernel_spec spec = seed_kernel_spec(&k);
        layout_kernel_result r;
        long before = n_allocs;
        CHECK(layout_kernel_plan_make(&kp, &arch, &spec, LAYOUT_PLAN_AUTO, &err) == LAYOUT_OK);
        CHECK(layout_kernel_plan_check(&kp, &r, &err) == LAYOUT_OK);
        CHECK_EQ_I64(n_allocs - before, 0);
        before = n_allocs;
        CHECK(layout_check_kernel(&arch, &spec, &r, &err) == LAYOUT_OK); /* the interpreting path */
        CHECK_EQ_I64(n_allocs - before, 0);
    }
}

static void test_checker_paths(void)
{
    layout_arch arch;
    layout_checker ck;
    static layout_instr ins[64];
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    long before = n_allocs;
    CHECK(layout_checker_init(&ck, &arch, LAYOUT_IMPL_AUTO, NULL) == LAYOUT_OK);
    for (int i = 0; i < 64; i++) {
        CHECK(layout_instr_init(&ins[i], 64, 16, LAYOUT_READ, NULL) == LAYOUT_OK);
        CHECK(layout_instr_fill_strided(&ins[i], (uint32_t)i * 4, 16u * (uint32_t)(1 + i % 9), NULL) == LAYOUT_OK);
    }
    layout_cost_totals t;
    CHECK(layout_checker_cost_batch(&ck, ins, 64, NULL, &t, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(n_allocs - before, 0);
}

/* linear.h: conversions, algebra, tile walk and closed-form cost */
static void test_linear_paths(void)
{
    static layout_descriptor d, back;
    static layout_distribution rd, td;
    static layout_linear l, lr, inv, c;
    static int64_t tile[2048], table[4 * 64 * 8 * 2];
    layout_arch arch;
    layout_linear_access acc;
    layout_cost cost;
    char buf[2048];
    CHECK(seed_xor_desc(&d, sk_mlds_layer(32), 0, 1, NULL) == LAYOUT_OK);
    CHECK(seed_read_dist_08(&rd, NULL) == LAYOUT_OK);
    CHECK(layout_arch_preset("gfx942", &arch, NULL) == LAYOUT_OK);
    long before = n_allocs;
    CHECK(layout_desc_to_linear(&d, &l, NULL) == LAYOUT_OK);
    CHECK(layout_dist_to_linear(&rd, &lr, NULL) == LAYOUT_OK);
    CHECK(layout_linear_invert(&inv, &l, NULL) == LAYOUT_OK);
    CHECK(layout_linear_compose(&c, &lr, &l, NULL) == LAYOUT_OK);
    CHECK(layout_linear_to_desc(&l, &back, NULL) == LAYOUT_OK);
    CHECK(layout_linear_to_dist(&lr, table, sizeof table / sizeof table[0], &td, NULL) == LAYOUT_OK);
    CHECK(layout_linear_tile_offsets(&l, tile, 2048, NULL) == LAYOUT_OK);
    CHECK(layout_linear_print(&l, buf, sizeof buf) > 0);
    int64_t in[3] = {0, 0, 1};
    CHECK(layout_linear_lane_access(&c, "lane", in, 2, LAYOUT_READ, 16, &acc, NULL) == LAYOUT_OK);
    CHECK(layout_linear_access_cost(&arch, &acc, &cost, NULL) == LAYOUT_OK && cost.extra_cycles == 0);
    CHECK_EQ_I64(n_allocs - before, 0);
}

/* triton.h's amd_rotating_shared / nvmma_shared and triton_search.h */
static int noalloc_score(void *ctx, const char *attr, size_t len, double *cost)
{
    (void)ctx;
    *cost = (double)(len % 7) + (attr[5] == 's' ? 0.5 : 0.0);
    return 0;
}

static void test_triton_shared_paths(void)
{
    static const char *const texts[2] = {
        "#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>"};
    static const int64_t shape[2] = {64, 64};
    static layout_triton_attr a;
    static layout_linear ll;
    static layout_descriptor d;
    static layout_triton_search_result r;
    layout_triton_search_spec sp;
    char buf[256];
    int i;
    long before = n_allocs;
    for (i = 0; i < 2; i++) {
        CHECK(layout_triton_from_text(texts[i], &a, NULL, NULL) == LAYOUT_OK);
        CHECK(layout_triton_to_text(&a, buf, sizeof buf, NULL) == LAYOUT_OK);
        CHECK(layout_triton_shared_linear(&a, 2, shape, &ll, NULL) == LAYOUT_OK);
        CHECK(layout_triton_to_desc(&a, 2, shape, &d, NULL) == LAYOUT_OK);
    }
    memset(&sp, 0, sizeof sp);
    sp.rank = 2;
    sp.shape[0] = 64;
    sp.shape[1] = 32;
    sp.elem_bits = 16;
    sp.vendor = LAYOUT_TRITON_VENDOR_NVIDIA;
    sp.lds_budget_bytes = 4096 + 256;
    CHECK(layout_triton_shared_search(&sp, noalloc_score, NULL, &r, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(n_allocs - before, 0);
}

int main(void)
{
    RUN(test_counter_works);
    RUN(test_plan_paths);
    RUN(test_kernel_paths);
    RUN(test_checker_paths);
    RUN(test_linear_paths);
    RUN(test_triton_shared_paths);
    return harness_finish("test_noalloc");
}
