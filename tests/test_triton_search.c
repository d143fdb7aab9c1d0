/* The per-allocation search over Triton's shared encodings
 * (triton_search.h), with scorers written here:
 *
 * - the checker's scorer: kernel 01 (the talk's table, docs/lds-model.md §4.1: a 64 x 32 fp16 tile on
 *   gfx942 written along K with b128 and read transposed, 2-byte columns
 *   along M), each candidate attribute built with layout_desc_from_triton()
 *   and scored by layout_suggest_score() (equal to layout_check_kernel(),
 *   test_suggest.c).  Known answer: the packed layout costs 448 extra cycles
 *   per tile (the published number); swizzling removes them all;
 * - the search's best cost equals the minimum over an exhaustive
 *   enumeration written here (a superset of the search's candidates: every
 *   power-of-two vec / perPhase / maxPhase up to the tile, every padded
 *   interval from 1 to half the tile, paddings to 64 elements, one or two
 *   levels, both orders, every nvmma_shared that builds), with its bytes
 *   from the descriptor's element space; within budgets of 0, 256 and 1024
 *   extra bytes, and with a scorer that accepts only padded_shared;
 * - every returned attribute parses back, builds, rescored gives the cost
 *   reported and has the bytes reported; the ranking is sorted;
 * - the candidate counts equal the documented rules, counted here in loops
 *   of their own; the families follow the target (nvmma_shared on NVIDIA
 *   sm_90+, amd_rotating_shared on AMD); ties go to fewer bytes and the
 *   simpler attribute; a leading buffer dim multiplies the bytes; bad specs
 *   are refused with a message. */
#include "harness.h"
#include "layout.h"
#include "../examples/seed_kernels.h"

static seed_kernel k01;
static layout_suggest_scorer sc;
static layout_error err;
static layout_triton_search_result res, res2;

typedef struct checker_ctx {
    const layout_suggest_scorer *sc;
    int64_t shape[2];
    int only_padded; /* reject every other family */
    int64_t calls;
} checker_ctx;

/* cost = 1000 * extra conflict cycles per tile + DS instructions per tile */
static int score_checker(void *ctx, const char *attr, size_t len, double *cost)
{
    checker_ctx *c = (checker_ctx *)ctx;
    layout_descriptor d;
    layout_suggest_cost sc_cost;
    c->calls++;
    if (len != strlen(attr)) return -2;
    if (c->only_padded && !strstr(attr, "padded_shared")) return 1;
    if (layout_desc_from_triton(attr, 2, c->shape, &d, NULL, NULL) != LAYOUT_OK) return -1;
    if (layout_suggest_score(c->sc, &d, &sc_cost, NULL) != LAYOUT_OK) return -1;
    *cost = 1000.0 * (double)sc_cost.extra_cycles + (double)sc_cost.instrs;
    return 0;
}

static double rescore(checker_ctx *c, const char *attr)
{
    double cost = -1;
    int only = c->only_padded;
    c->only_padded = 0;
    if (score_checker(c, attr, strlen(attr), &cost) != 0) cost = -1;
    c->only_padded = only;
    return cost;
}

static int setup_k01(void)
{
    static layout_arch arch;
    layout_suggest_spec s;
    if (layout_arch_preset("gfx942", &arch, NULL) != LAYOUT_OK) return -1;
    if (seed_kernel_build(&k01, SEED_K01, arch.n_banks, NULL) != LAYOUT_OK) return -1;
    memset(&s, 0, sizeof s);
    s.arch = &arch;
    s.elem_bytes = 2;
    s.n_dims = 2;
    s.tile[0] = SK_KM;
    s.tile[1] = SK_KK;
    s.n_sides = 2;
    s.sides[0].dist = &k01.write_dist;
    s.sides[0].direction = LAYOUT_WRITE;
    s.sides[1].dist = &k01.read_dist;
    s.sides[1].direction = LAYOUT_READ;
    s.sides[1].has_view = 1; /* the read distribution is over [K, M] */
    s.sides[1].view[0] = 1;
    s.sides[1].view[1] = 0;
    s.families = 1u;
    return layout_suggest_prepare(&sc, &s, NULL) == LAYOUT_OK ? 0 : -1;
}

static layout_triton_search_spec k01_spec(int64_t extra_budget)
{
    layout_triton_search_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.rank = 2;
    sp.shape[0] = SK_KM;
    sp.shape[1] = SK_KK;
    sp.elem_bits = 16;
    sp.vendor = LAYOUT_TRITON_VENDOR_AMD;
    sp.arch = "gfx942";
    sp.lds_budget_bytes = extra_budget ? SK_KM * SK_KK * 2 + extra_budget : 0;
    sp.top_k = 16;
    return sp;
}

/* ---------------------------------------------------------------- exhaustive */

typedef struct best_seen {
    double cost;
    int64_t bytes;
    char attr[LAYOUT_TRITON_ATTR_TEXT_CAP];
    int64_t n;
} best_seen;

/* Score one text of the exhaustive enumeration if it builds and fits. */
static void exhaustive_try(checker_ctx *c, int64_t budget, int elem_bytes, const char *attr, best_seen *b)
{
    layout_descriptor d;
    double cost;
    int64_t bytes;
    if (layout_desc_from_triton(attr, 2, c->shape, &d, NULL, NULL) != LAYOUT_OK) return;
    bytes = layout_desc_element_space_size(&d) * elem_bytes;
    if (bytes > budget) return;
    if (score_checker(c, attr, strlen(attr), &cost) != 0) return;
    b->n++;
    if (cost < b->cost || (cost == b->cost && bytes < b->bytes)) {
        b->cost = cost;
        b->bytes = bytes;
        snprintf(b->attr, sizeof b->attr, "%s", attr);
    }
}

static void exhaustive(checker_ctx *c, int64_t budget, int amd, best_seen *b)
{
    int64_t rows = c->shape[0], cols = c->shape[1], n = rows * cols, v, p, m, i1, i2, p1, p2;
    int o, kind;
    char t[LAYOUT_TRITON_ATTR_TEXT_CAP];
    b->cost = 1e300;
    b->bytes = 0;
    b->n = 0;
    b->attr[0] = 0;
    for (o = 0; o < 2; o++) {
        int64_t contig = o ? rows : cols, strided = o ? cols : rows;
        for (kind = 0; kind < 2; kind++) {
            if (kind == 1 && !amd) continue;
            for (v = 1; v <= contig; v *= 2)
                for (p = 1; p <= strided; p *= 2)
                    for (m = 1; m <= contig; m *= 2) {
                        snprintf(t, sizeof t, "#ttg.%s<{vec = %lld, perPhase = %lld, maxPhase = %lld, order = [%d, %d]}>",
                                 kind ? "amd_rotating_shared" : "swizzled_shared", (long long)v, (long long)p,
                                 (long long)m, o ? 0 : 1, o ? 1 : 0);
                        exhaustive_try(c, budget, 2, t, b);
                    }
        }
        if (!amd) {
            static const int widths[4] = {0, 32, 64, 128};
            int w;
            for (w = 0; w < 4; w++) {
                snprintf(t, sizeof t, "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, elementBitWidth = 16}>",
                         widths[w], o ? "true" : "false");
                exhaustive_try(c, budget, 2, t, b);
            }
        }
        for (i1 = 1; i1 < n; i1 *= 2) /* an interval of the whole tile pads nothing: the unpadded layout */
            for (p1 = 1; p1 <= 64; p1 *= 2) {
                snprintf(t, sizeof t, "#ttg.padded_shared<[%lld:+%lld] {order = [%d, %d], shape = [%lld, %lld]}>",
                         (long long)i1, (long long)p1, o ? 0 : 1, o ? 1 : 0, (long long)rows, (long long)cols);
                exhaustive_try(c, budget, 2, t, b);
                for (i2 = i1 * 2; i2 < n; i2 *= 2)
                    for (p2 = 1; p2 <= 64; p2 *= 2) {
                        snprintf(t, sizeof t,
                                 "#ttg.padded_shared<[%lld:+%lld, %lld:+%lld] {order = [%d, %d], shape = [%lld, %lld]}>",
                                 (long long)i1, (long long)p1, (long long)i2, (long long)p2, o ? 0 : 1, o ? 1 : 0,
                                 (long long)rows, (long long)cols);
                        exhaustive_try(c, budget, 2, t, b);
                    }
            }
    }
}

/* Bytes of a padded_shared allocation of `total` elements, as Triton's
 * PaddedSharedEncodingAttr::getPaddedSize (Dialect.cpp) computes them:
 * total + sum (total >> log2 I) << log2 P, less P when I divides total. */
static int64_t triton_padded_size(const layout_triton_attr *a, int64_t total)
{
    int64_t pad = 0;
    int k;
    for (k = 0; k < a->n_pads; k++) {
        pad += (total / a->interval[k]) * a->pad[k];
        if (total % a->interval[k] == 0) pad -= a->pad[k];
    }
    return total + pad;
}

/* Every entry: parses, builds, rescored = reported, bytes = Triton's; sorted. */
static void check_entries(checker_ctx *c, const layout_triton_search_result *r, int64_t budget, int64_t n_buf)
{
    int i;
    for (i = 0; i < r->n_top; i++) {
        const layout_triton_search_entry *e = &r->top[i];
        layout_triton_attr a;
        layout_descriptor d;
        CHECK_MSG(layout_triton_from_text(e->attr, &a, NULL, &err) == LAYOUT_OK, "%s: %s", e->attr, err.message);
        CHECK_MSG(layout_triton_to_desc(&a, 2, c->shape, &d, &err) == LAYOUT_OK, "%s: %s", e->attr, err.message);
        if (a.kind == LAYOUT_TRITON_PADDED_SHARED) {
            CHECK_EQ_I64(e->bytes, triton_padded_size(&a, c->shape[0] * c->shape[1] * n_buf) * 2);
            if (n_buf == 1) CHECK_EQ_I64(e->bytes, layout_desc_element_space_size(&d) * 2);
        } else {
            CHECK_EQ_I64(e->bytes, layout_desc_element_space_size(&d) * 2 * n_buf);
        }
        CHECK_MSG(e->bytes <= budget, "%s: %lld bytes over the budget %lld", e->attr, (long long)e->bytes,
                  (long long)budget);
        if (!c->only_padded) CHECK_MSG(rescore(c, e->attr) == e->cost, "%s: cost %g, rescored %g", e->attr, e->cost, rescore(c, e->attr));
        if (i > 0) {
            const layout_triton_search_entry *p = &r->top[i - 1];
            CHECK_MSG(p->cost < e->cost || (p->cost == e->cost && p->bytes <= e->bytes), "top[%d] %s ranks before %s", i,
                      e->attr, p->attr);
        }
    }
}

static void test_k01_known_answer(void)
{
    checker_ctx c = {&sc, {SK_KM, SK_KK}, 0, 0};
    layout_triton_search_spec sp = k01_spec(0);
    const char *packed = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>";
    double cost_packed = rescore(&c, packed);
    /* the talk's kernel 01: the packed layout, 448 extra cycles per tile, 4 + 32 DS instructions */
    CHECK_MSG(cost_packed == 448.0 * 1000 + 36, "packed: %g", cost_packed);
    c.calls = 0;
    CHECK(layout_triton_shared_search(&sp, score_checker, &c, &res, &err) == LAYOUT_OK);
    CHECK(res.n_top == 16);
    CHECK_MSG(res.top[0].cost < 1000, "best %s costs %g (extra cycles left)", res.top[0].attr, res.top[0].cost);
    CHECK_EQ_I64(res.top[0].bytes, 4096);
    CHECK_EQ_I64(res.packed_bytes, 4096);
    CHECK(res.enumerated == res.over_budget + res.rejected + res.scored);
    CHECK_EQ_I64(c.calls, res.scored + res.rejected);
    printf("test_triton_search: seed kernel 01 on gfx942: packed %g, best %s = %g (%lld scored, %lld over budget)\n",
           cost_packed, res.top[0].attr, res.top[0].cost, (long long)res.scored, (long long)res.over_budget);
    check_entries(&c, &res, 4096, 1);
}

static void test_exhaustive_optimum(void)
{
    static const int64_t extras[3] = {0, 256, 1024};
    int i, only;
    for (only = 0; only < 2; only++)
        for (i = 0; i < 3; i++) {
            checker_ctx c = {&sc, {SK_KM, SK_KK}, only, 0};
            layout_triton_search_spec sp = k01_spec(extras[i]);
            int64_t budget = 4096 + extras[i];
            best_seen b;
            layout_status st;
            sp.top_k = 4;
            st = layout_triton_shared_search(&sp, score_checker, &c, &res, &err);
            exhaustive(&c, budget, 1, &b);
            if (only && extras[i] == 0) { /* no padded layout fits the packed size */
                CHECK(st == LAYOUT_ERR_NOT_FOUND);
                CHECK_STR_CONTAINS(err.message, "rejected");
                CHECK_EQ_I64(b.n, 0);
                continue;
            }
            CHECK_MSG(st == LAYOUT_OK, "%s", err.message);
            CHECK_MSG(res.top[0].cost == b.cost, "budget +%lld%s: search %s = %g, exhaustive %s = %g",
                      (long long)extras[i], only ? " (padded only)" : "", res.top[0].attr, res.top[0].cost, b.attr,
                      b.cost);
            CHECK_MSG(res.top[0].bytes <= b.bytes, "budget +%lld: search %lld bytes, exhaustive best %lld",
                      (long long)extras[i], (long long)res.top[0].bytes, (long long)b.bytes);
            check_entries(&c, &res, budget, 1);
            if (only) CHECK(strstr(res.top[0].attr, "padded_shared") != NULL);
            printf("test_triton_search: budget +%lld%s: best %s = %g (%lld scored; exhaustive %lld)\n",
                   (long long)extras[i], only ? ", padded only" : "", res.top[0].attr, res.top[0].cost,
                   (long long)res.scored, (long long)b.n);
        }
}

/* NVIDIA: a 64 x 64 fp16 tile on sm_90 written by rows (8 fp16 = 16 bytes
 * per thread, #ttg.blocked [1, 8] / [8, 4] / [4, 1] / order [1, 0]) and read
 * by columns (8 consecutive rows per thread, [8, 1] / [4, 8] / [1, 4] /
 * order [0, 1]): the row-major layout puts the rows a warp reads 128
 * bytes apart, on the same banks (448 extra cycles per tile); nvmma_shared
 * does not help (its swizzle repeats every 8 rows, the lanes' rows are 8
 * apart); the search over swizzled, padded and nvmma_shared candidates
 * finds the exhaustive optimum, a swizzled_shared with 64. */
static layout_suggest_scorer sc_nv;

static void test_nvidia_transposed(void)
{
    static layout_arch arch;
    static layout_distribution wd, rd;
    static const int64_t shape[2] = {64, 64};
    layout_triton_attr a;
    layout_suggest_spec s;
    layout_triton_search_spec sp;
    checker_ctx c = {&sc_nv, {64, 64}, 0, 0};
    best_seen b;
    double packed;
    CHECK(layout_arch_preset("sm_90", &arch, &err) == LAYOUT_OK);
    CHECK(layout_triton_from_text("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
                                  "order = [1, 0]}>", &a, NULL, &err) == LAYOUT_OK);
    CHECK(layout_triton_to_dist(&a, 2, shape, NULL, 0, &wd, &err) == LAYOUT_OK);
    CHECK(layout_triton_from_text("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], "
                                  "order = [0, 1]}>", &a, NULL, &err) == LAYOUT_OK);
    CHECK(layout_triton_to_dist(&a, 2, shape, NULL, 0, &rd, &err) == LAYOUT_OK);
    memset(&s, 0, sizeof s);
    s.arch = &arch;
    s.elem_bytes = 2;
    s.n_dims = 2;
    s.tile[0] = 64;
    s.tile[1] = 64;
    s.n_sides = 2;
    s.sides[0].dist = &wd;
    s.sides[0].direction = LAYOUT_WRITE;
    s.sides[1].dist = &rd;
    s.sides[1].direction = LAYOUT_READ;
    s.families = 1u;
    if (layout_suggest_prepare(&sc_nv, &s, &err) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", err.message);
        return;
    }
    packed = rescore(&c, "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>");
    CHECK_MSG(packed >= 1000, "the row-major layout has no conflict: %g", packed);
    memset(&sp, 0, sizeof sp);
    sp.rank = 2;
    sp.shape[0] = 64;
    sp.shape[1] = 64;
    sp.elem_bits = 16;
    sp.vendor = LAYOUT_TRITON_VENDOR_NVIDIA;
    sp.arch = "sm_90";
    sp.lds_budget_bytes = 8192 + 512;
    sp.top_k = 16;
    CHECK(layout_triton_shared_search(&sp, score_checker, &c, &res, &err) == LAYOUT_OK);
    exhaustive(&c, sp.lds_budget_bytes, 0, &b);
    CHECK_MSG(res.top[0].cost == b.cost, "search %s = %g, exhaustive %s = %g", res.top[0].attr, res.top[0].cost, b.attr,
              b.cost);
    CHECK_MSG(res.top[0].cost < packed / 4, "best %s = %g: not a quarter of the packed layout's %g", res.top[0].attr,
              res.top[0].cost, packed);
    CHECK(res.top[0].bytes <= b.bytes);
    check_entries(&c, &res, sp.lds_budget_bytes, 1);
    {
        double nv = rescore(&c, "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>");
        printf("test_triton_search: sm_90 64 x 64 fp16, rows written, columns read: packed %g, nvmma_shared 128B %g, "
               "best %s = %g (%lld scored; exhaustive %lld)\n",
               packed, nv, res.top[0].attr, res.top[0].cost, (long long)res.scored, (long long)b.n);
    }
}

/* The documented candidate rules, counted in loops of their own. */
static void test_counts(void)
{
    int64_t rows = SK_KM, cols = SK_KK, n = rows * cols, swz = 0, rot = 0, pad1 = 0, pad2 = 0, v, p, m, i1, i2;
    int o;
    checker_ctx c = {&sc, {SK_KM, SK_KK}, 0, 0};
    layout_triton_search_spec sp = k01_spec(1 << 20);
    for (o = 0; o < 2; o++) {
        int64_t contig = o ? rows : cols, strided = o ? cols : rows;
        for (v = 1; v <= contig; v *= 2)
            for (p = 1; p <= strided; p *= 2)
                for (m = 1; m * v <= contig; m *= 2) {
                    int identity = m == 1 || p >= strided;
                    if (!identity || (v == 1 && p == 1 && m == 1)) swz++;
                    if (!identity && p * m < strided) rot++;
                }
    }
    for (i1 = 2; i1 < n; i1 *= 2) {
        pad1 += 7; /* paddings 1..64 elements of 2 bytes: 128 bytes at most */
        for (i2 = i1 * 2; i2 < n; i2 *= 2) pad2 += 7 * 7;
    }
    sp.families = LAYOUT_TRITON_SEARCH_SWIZZLED;
    CHECK(layout_triton_shared_search(&sp, score_checker, &c, &res, &err) == LAYOUT_OK);
    CHECK_EQ_I64(res.enumerated, swz);
    sp.families = LAYOUT_TRITON_SEARCH_ROTATING;
    CHECK(layout_triton_shared_search(&sp, score_checker, &c, &res, &err) == LAYOUT_OK);
    CHECK_EQ_I64(res.enumerated, rot);
    sp.families = LAYOUT_TRITON_SEARCH_PADDED;
    sp.max_pad_levels = 1;
    CHECK(layout_triton_shared_search(&sp, score_checker, &c, &res, &err) == LAYOUT_OK);
    CHECK_EQ_I64(res.enumerated, 2 * pad1);
    sp.max_pad_levels = 0;
    CHECK(layout_triton_shared_search(&sp, score_checker, &c, &res, &err) == LAYOUT_OK);
    CHECK_EQ_I64(res.enumerated, 2 * (pad1 + pad2));
    CHECK_EQ_I64(res.over_budget, 0);
    sp.orders = LAYOUT_TRITON_SEARCH_ORDER_01;
    CHECK(layout_triton_shared_search(&sp, score_checker, &c, &res, &err) == LAYOUT_OK);
    CHECK_EQ_I64(res.enumerated, pad1 + pad2);
    printf("test_triton_search: 64 x 32 fp16: %lld swizzled_shared, %lld amd_rotating_shared, %lld + %lld padded_shared "
           "candidates\n",
           (long long)swz, (long long)rot, (long long)(2 * pad1), (long long)(2 * pad2));
}

/* A scorer that prefers one family (cost 0) over the rest (cost 1). */
static int score_prefer(void *ctx, const char *attr, size_t len, double *cost)
{
    (void)len;
    *cost = strstr(attr, (const char *)ctx) ? 0.0 : 1.0;
    return 0;
}

static int score_const(void *ctx, const char *attr, size_t len, double *cost)
{
    (void)ctx;
    (void)attr;
    (void)len;
    *cost = 5.0;
    return 0;
}

static int score_reject(void *ctx, const char *attr, size_t len, double *cost)
{
    (void)ctx;
    (void)attr;
    (void)len;
    (void)cost;
    return 1;
}

static void test_targets(void)
{
    layout_triton_search_spec sp = k01_spec(0);
    int i;
    /* AMD: no nvmma_shared; rotating present */
    CHECK(layout_triton_shared_search(&sp, score_prefer, (void *)"nvmma", &res, &err) == LAYOUT_OK);
    CHECK_EQ_I64(res.families, LAYOUT_TRITON_SEARCH_SWIZZLED | LAYOUT_TRITON_SEARCH_PADDED | LAYOUT_TRITON_SEARCH_ROTATING);
    for (i = 0; i < res.n_top; i++) CHECK(strstr(res.top[i].attr, "nvmma") == NULL);
    CHECK(layout_triton_shared_search(&sp, score_prefer, (void *)"amd_rotating", &res, &err) == LAYOUT_OK);
    CHECK(strstr(res.top[0].attr, "#ttg.amd_rotating_shared<{") == res.top[0].attr);
    /* NVIDIA sm_90: nvmma_shared, no rotating */
    sp.vendor = LAYOUT_TRITON_VENDOR_NVIDIA;
    sp.arch = "sm_90";
    CHECK(layout_triton_shared_search(&sp, score_prefer, (void *)"nvmma", &res, &err) == LAYOUT_OK);
    CHECK_EQ_I64(res.families, LAYOUT_TRITON_SEARCH_SWIZZLED | LAYOUT_TRITON_SEARCH_PADDED | LAYOUT_TRITON_SEARCH_NVMMA);
    CHECK(strstr(res.top[0].attr, "#ttg.nvmma_shared<{") == res.top[0].attr);
    /* 64 x 32 fp16: widths 0, 32, 64 not transposed; 0, 32, 64, 128 transposed (dim0 = 64 elements = 128 bytes) */
    {
        int n_nv = 0;
        for (i = 0; i < res.n_top; i++) n_nv += strstr(res.top[i].attr, "nvmma") != NULL;
        CHECK_EQ_I64(n_nv, 7);
        for (i = 0; i < res.n_top; i++) {
            layout_descriptor d;
            CHECK_MSG(layout_desc_from_triton(res.top[i].attr, 2, sp.shape, &d, NULL, &err) == LAYOUT_OK, "%s: %s",
                      res.top[i].attr, err.message);
        }
    }
    for (i = 0; i < res.n_top; i++) CHECK(strstr(res.top[i].attr, "rotating") == NULL);
    sp.arch = "cuda:90";
    CHECK(layout_triton_shared_search(&sp, score_prefer, (void *)"nvmma", &res, &err) == LAYOUT_OK);
    CHECK(res.families & LAYOUT_TRITON_SEARCH_NVMMA);
    sp.arch = "sm_80"; /* Ampere: no TMA / wgmma operand layout */
    CHECK(layout_triton_shared_search(&sp, score_prefer, (void *)"nvmma", &res, &err) == LAYOUT_OK);
    CHECK_EQ_I64(res.families, LAYOUT_TRITON_SEARCH_SWIZZLED | LAYOUT_TRITON_SEARCH_PADDED);
    sp.families = LAYOUT_TRITON_SEARCH_NVMMA;
    CHECK(layout_triton_shared_search(&sp, score_prefer, (void *)"nvmma", &res, &err) == LAYOUT_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(err.message, "families 0x0");
}

static void test_ties_and_buffers(void)
{
    layout_triton_search_spec sp = k01_spec(512);
    int i;
    CHECK(layout_triton_shared_search(&sp, score_const, NULL, &res, &err) == LAYOUT_OK);
    /* all equal: the fewest bytes, then the simplest: the identity swizzled_shared, order [1, 0] */
    CHECK_MSG(strcmp(res.top[0].attr, "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>") == 0,
              "%s", res.top[0].attr);
    /* then the identity of the other order (column-major: another layout) */
    CHECK_MSG(strcmp(res.top[1].attr, "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>") == 0,
              "%s", res.top[1].attr);
    CHECK_EQ_I64(res.top[2].complexity, 1);
    for (i = 0; i < res.n_top; i++) CHECK_EQ_I64(res.top[i].bytes, 4096);
    /* the same search twice: the same result */
    CHECK(layout_triton_shared_search(&sp, score_const, NULL, &res2, &err) == LAYOUT_OK);
    CHECK(memcmp(&res, &res2, sizeof res) == 0);
    /* a leading buffer dim of 2: twice the bytes, the budget for both */
    sp = k01_spec(0);
    sp.rank = 3;
    sp.shape[0] = 2;
    sp.shape[1] = SK_KM;
    sp.shape[2] = SK_KK;
    CHECK(layout_triton_shared_search(&sp, score_const, NULL, &res, &err) == LAYOUT_OK);
    CHECK_EQ_I64(res.packed_bytes, 8192);
    CHECK_EQ_I64(res.top[0].bytes, 8192);
    {
        checker_ctx c = {&sc, {SK_KM, SK_KK}, 0, 0};
        sp.lds_budget_bytes = 8192 + 512;
        CHECK(layout_triton_shared_search(&sp, score_checker, &c, &res, &err) == LAYOUT_OK);
        check_entries(&c, &res, 8192 + 512, 2);
        c.only_padded = 1; /* the padded bytes of two buffers: one padded sequence */
        CHECK(layout_triton_shared_search(&sp, score_checker, &c, &res, &err) == LAYOUT_OK);
        CHECK(res.n_top == 16 && strstr(res.top[15].attr, "padded_shared") != NULL);
        check_entries(&c, &res, 8192 + 512, 2);
    }
}

static void test_errors(void)
{
    layout_triton_search_spec sp = k01_spec(0), bad;
    static const struct {
        int field;
        int64_t value;
        const char *msg;
    } cases[] = {
        {0, 1, "rank = 1"},          {1, 48, "shape[1] = 48 is not a power of two"},
        {2, 12, "elem_bits = 12"},   {3, 0, "vendor = 0"},
        {4, 17, "top_k = 17"},       {5, 1000, "lds_budget_bytes = 1000 is below the packed allocation, 4096 bytes"},
        {6, 16, "families = 0x10"},  {7, 4, "orders = 0x4"},
        {8, 3, "max_pad_levels = 3"}, {1, (int64_t)1 << 21, "shape[1] = 2097152"},
    };
    size_t i;
    CHECK(layout_triton_shared_search(NULL, score_const, NULL, &res, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_shared_search(&sp, NULL, NULL, &res, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_shared_search(&sp, score_const, NULL, NULL, &err) == LAYOUT_ERR_NULL);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bad = sp;
        switch (cases[i].field) {
        case 0: bad.rank = (int)cases[i].value; break;
        case 1: bad.shape[1] = cases[i].value; break;
        case 2: bad.elem_bits = (int)cases[i].value; break;
        case 3: bad.vendor = (layout_triton_vendor)cases[i].value; break;
        case 4: bad.top_k = (int)cases[i].value; break;
        case 5: bad.lds_budget_bytes = cases[i].value; break;
        case 6: bad.families = (unsigned)cases[i].value; break;
        case 7: bad.orders = (unsigned)cases[i].value; break;
        default: bad.max_pad_levels = (int)cases[i].value; break;
        }
        memset(&res2, 0x5a, sizeof res2);
        CHECK_MSG(layout_triton_shared_search(&bad, score_const, NULL, &res2, &err) == LAYOUT_ERR_ARG, "case %zu", i);
        CHECK_STR_CONTAINS(err.message, cases[i].msg);
        CHECK(((unsigned char *)&res2)[0] == 0x5a); /* untouched */
    }
    CHECK(layout_triton_shared_search(&sp, score_reject, NULL, &res, &err) == LAYOUT_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(err.message, "rejected by the scorer");
}

int main(void)
{
    if (setup_k01() != 0) {
        printf("test_triton_search: seed kernel 01 setup failed\n");
        return 1;
    }
    RUN(test_k01_known_answer);
    RUN(test_exhaustive_optimum);
    RUN(test_counts);
    RUN(test_nvidia_transposed);
    RUN(test_targets);
    RUN(test_ties_and_buffers);
    RUN(test_errors);
    return harness_finish("test_triton_search");
}
