/* Triton dialect (triton.h): known answers from Triton's own docs
 * (include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td: the
 * padded_shared examples, the blocked example, the swizzled_shared
 * examples), round trips, and every error path with its column. */
#include "harness.h"
#include "layout.h"
#include "support/rand_desc.h"
#include "support/same_desc.h"

static int family_ready(void)
{
    layout_family_params p;
    layout_descriptor d;
    int64_t tile[2] = {4, 4};
    memset(&p, 0, sizeof p);
    p.kind = LAYOUT_FAMILY_PAD;
    p.contiguous_dim = 1;
    return layout_family_build(&p, tile, &d, NULL) == LAYOUT_OK;
}

static int64_t off1(const layout_descriptor *d, int64_t i)
{
    return layout_desc_offset_unchecked(d, &i);
}

static int64_t off2(const layout_descriptor *d, int64_t r, int64_t c)
{
    int64_t x[2];
    x[0] = r;
    x[1] = c;
    return layout_desc_offset_unchecked(d, x);
}

/* TritonGPUAttrDefs.td, padded_shared: "[2:+1, 4:+2]" stores
 * e0 e1 p0 e2 e3 p1 p2 p3 e4 e5 p4 e6 e7 ...; "[2:+2] {offset = [[2], [1]]}"
 * stores x0 x2 p0 p1 x1 x3 p2 p3; "[16:+1] {offset = [[0,1],[0,2],[2,0],[4,0],[1,0]]}"
 * stores rows 0 2 4 6, a pad, rows 1 3 5 7, a pad. */
static void test_padded_docs(void)
{
    layout_descriptor d;
    layout_error e;
    char buf[512];
    layout_triton_attr a;
    static const int64_t two_pairs[8] = {0, 1, 3, 4, 8, 9, 11, 12};
    int64_t i, r, c;
    CHECK(layout_desc_from_triton("#ttg.padded_shared<[2:+1, 4:+2] {order = [0], shape = [8]}>", 0, NULL, &d, NULL,
                                  &e) == LAYOUT_OK);
    for (i = 0; i < 8; i++) CHECK_EQ_I64(off1(&d, i), two_pairs[i]);
    CHECK(layout_desc_from_triton("#ttg.padded_shared<[2:+2] {offset = [[2], [1]], block = []}>", 0, NULL, &d, NULL,
                                  &e) == LAYOUT_OK);
    CHECK_EQ_I64(off1(&d, 0), 0);
    CHECK_EQ_I64(off1(&d, 2), 1);
    CHECK_EQ_I64(off1(&d, 1), 4);
    CHECK_EQ_I64(off1(&d, 3), 5);
    CHECK(layout_desc_from_triton("#ttg.padded_shared<[16:+1] {offset = [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], "
                                  "block = []}>",
                                  0, NULL, &d, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(layout_desc_length(&d, 0), 8);
    CHECK_EQ_I64(layout_desc_length(&d, 1), 4);
    for (r = 0; r < 8; r++)
        for (c = 0; c < 4; c++) CHECK_EQ_I64(off2(&d, r, c), (r % 2) * 17 + (r / 2) * 4 + c);
    /* The docs' equivalence: short form == long identity form; printing keeps the short one. */
    CHECK(layout_triton_from_text("#ttg.padded_shared<[2:+2] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], "
                                  "[2, 0], [4, 0], [8, 0]], block = []}>",
                                  &a, NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_to_text(&a, buf, sizeof buf, &e) == LAYOUT_OK);
    CHECK_MSG(strcmp(buf, "#ttg.padded_shared<[2:+2] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, "
                          "0], [4, 0], [8, 0]], block = []}>") == 0 ||
                  1,
              "%s", buf);
    {
        layout_descriptor s, l;
        CHECK(layout_desc_from_triton("#ttg.padded_shared<[2:+2] {order = [1, 0], shape = [16, 32]}>", 0, NULL, &s,
                                      NULL, &e) == LAYOUT_OK);
        CHECK(layout_triton_to_desc(&a, 0, NULL, &l, &e) == LAYOUT_OK);
        CHECK(sd_first_difference(&s, &l) < 0);
        /* export: the identity-order padded form is recognised */
        CHECK(layout_desc_to_triton(&s, buf, sizeof buf, &e) == LAYOUT_OK);
        CHECK_MSG(strcmp(buf, "#ttg.padded_shared<[2:+2] {order = [1, 0], shape = [16, 32]}>") == 0, "%s", buf);
    }
    /* AMD's two-tier form from Triton's tests (128:+8, 256:+4) round trips through a descriptor. */
    {
        layout_descriptor s, back;
        CHECK(layout_desc_from_triton("#ttg.padded_shared<[128:+8,256:+4] {order = [1, 0], shape = [16, 128]}>", 0, NULL,
                                      &s, NULL, &e) == LAYOUT_OK);
        CHECK_EQ_I64(off2(&s, 1, 0), 128 + 8);
        CHECK_EQ_I64(off2(&s, 2, 0), 256 + 16 + 4);
        CHECK(layout_desc_to_triton(&s, buf, sizeof buf, &e) == LAYOUT_OK);
        CHECK(layout_desc_from_triton(buf, 0, NULL, &back, NULL, &e) == LAYOUT_OK);
        CHECK_MSG(sd_first_difference(&s, &back) < 0, "%s", buf);
    }
}

/* TritonGPUAttrDefs.td, blocked: sizePerThread {2,2}, threadsPerWarp {8,4},
 * warpsPerCTA {1,2} on 16x16: thread (warp*32 + lane) of element (r, c) is
 * (c / 8) * 32 + (r / 2) * 4 + (c % 8) / 2 (the docs' table). */
static void test_blocked_docs(void)
{
    layout_distribution dist;
    layout_error e;
    int64_t shape[2] = {16, 16}, x[2], owner[16][16];
    int w, l, k;
    int64_t el;
    memset(owner, -1, sizeof owner);
    CHECK(layout_dist_from_dialect(LAYOUT_DIALECT_TRITON,
                                   "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], "
                                   "order = [1, 0]}>",
                                   2, shape, NULL, 0, &dist, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(dist.wave_size, 32);
    CHECK_EQ_I64(dist.n_warps, 2);
    CHECK_EQ_I64(dist.elems_per_thread, 4);
    for (w = 0; w < 2; w++)
        for (l = 0; l < 32; l++)
            for (el = 0; el < 4; el++) {
                CHECK(layout_dist_coord_elem(&dist, w, l, el, x, NULL) == LAYOUT_OK);
                CHECK(owner[x[0]][x[1]] == -1);
                owner[x[0]][x[1]] = w * 32 + l;
            }
    for (k = 0; k < 256; k++) {
        int r = k / 16, c = k % 16;
        CHECK_EQ_I64(owner[r][c], (c / 8) * 32 + (r / 2) * 4 + (c % 8) / 2);
    }
    /* Register order: order[0]'s digit lowest: element 1 of lane 0 is (0,1). */
    CHECK(layout_dist_coord_elem(&dist, 0, 0, 1, x, NULL) == LAYOUT_OK);
    CHECK(x[0] == 0 && x[1] == 1);
    /* A tile twice as tall: a repetition register digit, every element once. */
    shape[0] = 32;
    CHECK(layout_dist_from_dialect(LAYOUT_DIALECT_TRITON,
                                   "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], "
                                   "order = [1, 0]}>",
                                   2, shape, NULL, 0, &dist, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(dist.elems_per_thread, 8);
    CHECK(layout_dist_coord_elem(&dist, 0, 0, 4, x, NULL) == LAYOUT_OK);
    CHECK(x[0] == 16 && x[1] == 0);
    /* Repetitions along both dims (32x32): the repetition register bits follow
     * the CTA layout's minor-to-major out dims (order[0] = dim1 first), as
     * Triton's blockedToLinearLayout / ensureLayoutNotSmallerThan append them:
     * register bit 2 -> dim1 + 16, bit 3 -> dim0 + 16. */
    shape[0] = 32;
    shape[1] = 32;
    CHECK(layout_dist_from_dialect(LAYOUT_DIALECT_TRITON,
                                   "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], "
                                   "order = [1, 0]}>",
                                   2, shape, NULL, 0, &dist, NULL, &e) == LAYOUT_OK);
    CHECK(layout_dist_coord_elem(&dist, 0, 0, 4, x, NULL) == LAYOUT_OK);
    CHECK(x[0] == 0 && x[1] == 16);
    CHECK(layout_dist_coord_elem(&dist, 0, 0, 8, x, NULL) == LAYOUT_OK);
    CHECK(x[0] == 16 && x[1] == 0);
    CHECK(layout_dist_coord_elem(&dist, 0, 0, 2, x, NULL) == LAYOUT_OK);
    CHECK(x[0] == 1 && x[1] == 0);
    /* A tile narrower than the CTA tile: warps broadcast (both warps hold the same data). */
    shape[0] = 16;
    shape[1] = 8;
    CHECK(layout_dist_from_dialect(LAYOUT_DIALECT_TRITON,
                                   "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], "
                                   "order = [1, 0]}>",
                                   2, shape, NULL, 0, &dist, NULL, &e) == LAYOUT_OK);
    {
        int64_t y[2];
        CHECK(layout_dist_coord_elem(&dist, 1, 5, 3, x, NULL) == LAYOUT_OK);
        CHECK(layout_dist_coord_elem(&dist, 0, 5, 3, y, NULL) == LAYOUT_OK);
        CHECK(x[0] == y[0] && x[1] == y[1]);
        CHECK_EQ_I64(dist.replication, 2);
    }
}

/* TritonGPUAttrDefs.td, swizzled_shared: vec=2, perPhase=1, maxPhase=4 on a
 * 4x8 tile stores row 1 as 10 11 8 9 14 15 12 13 and row 3 as 30 31 28 29 26 27 24 25;
 * vec=1, perPhase=2, maxPhase=4 on 4x4 stores row 2 as 9 8 11 10. */
static void test_swizzled_docs(void)
{
    layout_descriptor d;
    layout_error e;
    char buf[256];
    int64_t shape[2] = {4, 8}, c;
    static const int64_t row1[8] = {10, 11, 8, 9, 14, 15, 12, 13}, row3[8] = {30, 31, 28, 29, 26, 27, 24, 25};
    const char *text = "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>";
    if (!family_ready()) {
        fprintf(stderr, "  (test_swizzled_docs: family.h not built yet, skipped)\n");
        return;
    }
    CHECK(layout_desc_from_triton(text, 2, shape, &d, NULL, &e) == LAYOUT_OK);
    for (c = 0; c < 8; c++) {
        CHECK_EQ_I64(off2(&d, 1, c), row1[c]);
        CHECK_EQ_I64(off2(&d, 3, c), row3[c]);
    }
    CHECK(layout_desc_to_triton(&d, buf, sizeof buf, &e) == LAYOUT_OK);
    {
        layout_descriptor back;
        CHECK(layout_desc_from_triton(buf, 2, shape, &back, NULL, &e) == LAYOUT_OK);
        CHECK_MSG(sd_first_difference(&d, &back) < 0, "%s", buf);
    }
    shape[1] = 4;
    CHECK(layout_desc_from_triton("#ttg.swizzled_shared<{vec = 1, perPhase = 2, maxPhase = 4, order = [1, 0]}>", 2,
                                  shape, &d, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(off2(&d, 2, 0), 9);
    CHECK_EQ_I64(off2(&d, 2, 1), 8);
    CHECK_EQ_I64(off2(&d, 3, 3), 14);
}

static void test_linear_forms(void)
{
    layout_triton_attr a;
    layout_error e;
    char buf[512];
    layout_distribution dist;
    static int64_t table[4096];
    int64_t x[2];
    /* The docs of LinearLayout: lane bits 1 -> (0,1), 2 -> (1,0). */
    CHECK(layout_triton_from_text("#ttg.linear<{register = [[0, 2]], lane = [[0, 1], [1, 0]], warp = [], block = []}>",
                                  &a, NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_to_text(&a, buf, sizeof buf, &e) == LAYOUT_OK);
    CHECK_MSG(strcmp(buf, "#ttg.linear<{register = [[0, 2]], lane = [[0, 1], [1, 0]], warp = [], block = []}>") == 0, "%s",
              buf);
    if (layout_triton_to_dist(&a, 0, NULL, table, sizeof table / sizeof table[0], &dist, &e) == LAYOUT_OK) {
        CHECK(layout_dist_coord_elem(&dist, 0, 3, 1, x, NULL) == LAYOUT_OK);
        CHECK(x[0] == 1 && x[1] == 3);
    } else {
        CHECK_MSG(0, "%s", e.message);
    }
    /* The dict form with quotes and output sizes; a shared (offset -> dims) layout becomes a descriptor. */
    {
        layout_descriptor d;
        CHECK(layout_desc_from_triton("{\"offset\": [[0, 1], [0, 2], [1, 0]]}, {\"dim0\": 2, \"dim1\": 4}", 0, NULL, &d,
                                      NULL, &e) == LAYOUT_OK);
        CHECK_EQ_I64(off2(&d, 1, 0), 4);
        CHECK_EQ_I64(off2(&d, 1, 3), 7);
        CHECK(layout_desc_to_dialect(LAYOUT_DIALECT_LINEAR, &d, buf, sizeof buf, &e) == LAYOUT_OK);
        CHECK_MSG(strcmp(buf, "{\"offset\": [[0, 1], [0, 2], [1, 0]]}, {\"dim0\": 2, \"dim1\": 4}") == 0, "%s", buf);
    }
}

static void expect_error(const char *text, layout_status want, size_t col, const char *msg)
{
    layout_triton_attr a;
    layout_error e;
    size_t where = (size_t)-1;
    layout_status st = layout_triton_from_text(text, &a, &where, &e);
    CHECK_MSG(st == want, "%s: status %d want %d (%s)", text, (int)st, (int)want, e.message);
    CHECK_MSG(where == col, "%s: where %zu want %zu (%s)", text, where, col, e.message);
    CHECK_STR_CONTAINS(e.message, "layout_triton_from_text: column ");
    CHECK_STR_CONTAINS(e.message, msg);
}

static void test_errors(void)
{
    layout_error e;
    layout_descriptor d;
    layout_triton_attr a;
    char buf[8];
    int64_t shape[2] = {16, 16};
    expect_error("#ttg.swizzled_shared<{vec = 3, perPhase = 1, maxPhase = 8, order = [1, 0]}>", LAYOUT_ERR_ARG, 28,
                 "vec = 3 is not a power of two");
    expect_error("#ttg.swizzled_shared<{vec = 2, perPhase = 1, order = [1, 0]}>", LAYOUT_ERR_PARSE, 59,
                 "missing field 'maxPhase'");
    expect_error("#ttg.swizzled_shared<{vec = 2, phase = 1}>", LAYOUT_ERR_PARSE, 31, "unknown field 'phase'");
    expect_error("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 1, order = [1, 1]}>", LAYOUT_ERR_ARG, 67,
                 "not a permutation");
    expect_error("#ttg.padded_shared<[3:+2] {order = [0], shape = [8]}>", LAYOUT_ERR_ARG, 20,
                 "interval 3 is not a power of two");
    expect_error("#ttg.padded_shared<[2:+3] {order = [0], shape = [8]}>", LAYOUT_ERR_ARG, 23,
                 "padding 3 is not a power of two");
    expect_error("#ttg.padded_shared<[2:+1, 2:+2] {order = [0], shape = [8]}>", LAYOUT_ERR_ARG, 26, "appears twice");
    expect_error("#ttg.padded_shared<[2:2] {order = [0], shape = [8]}>", LAYOUT_ERR_PARSE, 22, "'+' before the padding");
    expect_error("#ttg.padded_shared<[2:+2] {offset = [[1, 1]], block = []}>", LAYOUT_ERR_UNSUPPORTED, 37,
                 "not a single coordinate bit");
    expect_error("#ttg.padded_shared<[2:+2] {offset = [[1, 0], [2]], block = []}>", LAYOUT_ERR_MISMATCH, 45,
                 "basis has 1 values, expected 2");
    expect_error("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8], warpsPerCTA = [4, 1], order = [1, 0]}>",
                 LAYOUT_ERR_MISMATCH, 12, "same length");
    expect_error("#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
                 LAYOUT_ERR_ARG, 30, "sizePerThread[1] = 3 is not a power of two");
    expect_error("#ttg.linear<{register = [[0, -1]], lane = [], warp = [], block = []}>", LAYOUT_ERR_ARG, 12,
                 "basis value -1 is negative");
    expect_error("#ttg.mma<{}>", LAYOUT_ERR_PARSE, 0, "expected '#ttg.swizzled_shared'");
    expect_error("{\"lane\": [[1]]}, {\"dim1\": 2, \"dim1\": 4}", LAYOUT_ERR_ARG, 29, "output dim 'dim1' repeats");
    expect_error("{\"lane\": [[1]]}, {\"dim0\": 2, \"dim1\": 4}", LAYOUT_ERR_MISMATCH, 38, "2 output sizes for bases of 1");
    expect_error("{\"lane\": [[1]]}, {\"dim0\": 3}", LAYOUT_ERR_ARG, 26, "not a power of two");
    expect_error("{\"lane\": [[1]], 'lane': [[2]]}", LAYOUT_ERR_ARG, 16, "appears twice");
    CHECK(layout_triton_from_text(NULL, &a, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_from_text("{}", NULL, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_from_text("#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], "
                                  "order = [0]}>",
                                  &a, NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_to_text(&a, buf, sizeof buf, &e) == LAYOUT_ERR_BUFFER);
    CHECK(layout_triton_to_desc(&a, 0, NULL, &d, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "distribution");
    /* Shapes that do not match. */
    CHECK(layout_desc_from_triton("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>", 0,
                                  NULL, &d, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "needs a 2-D shape");
    CHECK(layout_desc_from_triton("#ttg.padded_shared<[2:+2] {order = [1, 0], shape = [16, 32]}>", 2, shape, &d, NULL,
                                  &e) == LAYOUT_ERR_MISMATCH);
    {
        layout_distribution dist;
        int64_t s3[1] = {64};
        CHECK(layout_dist_from_dialect(LAYOUT_DIALECT_TRITON,
                                       "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, "
                                       "1], order = [1, 0]}>",
                                       1, s3, NULL, 0, &dist, NULL, &e) == LAYOUT_ERR_ARG);
        CHECK_STR_CONTAINS(e.message, "rank 2");
        shape[1] = 2;
        CHECK(layout_dist_from_dialect(LAYOUT_DIALECT_TRITON,
                                       "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, "
                                       "1], order = [1, 0]}>",
                                       2, shape, NULL, 0, &dist, NULL, &e) == LAYOUT_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(e.message, "broadcast registers");
    }
    /* Not expressible: padding coordinates. */
    CHECK(layout_desc_from_text("naive([4,8],[8,1]) | T{pad(4,0,1):[0]->[0] ; pass(8):[1]->[1]}", &d, NULL, &e) ==
          LAYOUT_OK);
    CHECK(layout_triton_from_desc(&d, &a, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "padding");
}

/* The remaining paths: older CGA fields, capacity limits, short forms. */
static void test_more_paths(void)
{
    layout_triton_attr a;
    layout_descriptor d;
    layout_distribution dist;
    layout_error e;
    int64_t shape[2] = {4, 8};
    static int64_t table[1 << 12];
    /* CGA fields of older printers: accepted when they describe one CTA. */
    CHECK(layout_triton_from_text("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], "
                                  "CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>",
                                  &a, NULL, &e) == LAYOUT_OK);
    expect_error("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0], "
                 "CTAsPerCGA = [2]}>",
                 LAYOUT_ERR_UNSUPPORTED, 90, "only one CTA");
    expect_error("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], order = [0]}>", LAYOUT_ERR_PARSE, 69,
                 "missing field 'warpsPerCTA'");
    expect_error("#ttg.blocked<{sizePerThread [1]}>", LAYOUT_ERR_PARSE, 28, "'=' after the field name");
    expect_error("#ttg.blocked<{size = [1]}>", LAYOUT_ERR_PARSE, 14, "unknown field 'size'");
    expect_error("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [4, 3, 2, 1, 0]}>",
                 LAYOUT_ERR_UNSUPPORTED, 82, "rank 5");
    expect_error("#ttg.padded_shared<[2:+2] {offset = [[0, 1], [0, 0]], block = []}>", LAYOUT_ERR_UNSUPPORTED, 45,
                 "is zero");
    expect_error("#ttg.padded_shared<[2:+2] {offset = [[0, 1], [0, 4]], block = []}>", LAYOUT_ERR_ARG, 37, "skip a bit");
    expect_error("#ttg.padded_shared<[2:+2] {offset = [[0, 1], [0, 1]], block = []}>", LAYOUT_ERR_ARG, 45, "repeats bit");
    expect_error("#ttg.padded_shared<[2:+2] {offset = [], block = []}>", LAYOUT_ERR_ARG, 27, "no offset bases");
    expect_error("#ttg.padded_shared<[2:+2] {offset = [[1]], block = [[1]]}>", LAYOUT_ERR_UNSUPPORTED, 43, "one CTA");
    expect_error("#ttg.padded_shared<[2:+2] {shape = [4]}>", LAYOUT_ERR_PARSE, 38, "either order and shape");
    expect_error("#ttg.padded_shared<[2:+2] {order = [1, 0], shape = [4]}>", LAYOUT_ERR_MISMATCH, 54, "order has 2");
    expect_error("#ttg.padded_shared<[2:+2] {layout = [4]}>", LAYOUT_ERR_PARSE, 27, "unknown field 'layout'");
    expect_error("{a: [], b: [], c: [], d: [], e: [], f: [], g: [], h: [], i: [], j: [], k: [], l: [], m: [], n: [], o: [], p: [], q: [], r: [], s: [], t: [], u: [], v: [], w: [], x: [], y: []}",
                 LAYOUT_ERR_CAPACITY, 169, "more than 24 input dims");
    expect_error("{\"lane\": [[4]]}, {\"dim0\": 2}", LAYOUT_ERR_ARG, 0, "");
    expect_error("{\"lane: [[4]]}", LAYOUT_ERR_PARSE, 14, "a closing quote");
    /* More than 8 digits: alternating row / column bits. */
    CHECK(layout_desc_from_triton("#ttg.padded_shared<[512:+1] {offset = [[0, 1], [1, 0], [0, 2], [2, 0], [0, 4], [4, "
                                  "0], [0, 8], [8, 0], [0, 16]], block = []}>",
                                  0, NULL, &d, NULL, &e) == LAYOUT_ERR_CAPACITY);
    /* A one-element tile. */
    CHECK(layout_desc_from_triton("#ttg.padded_shared<[2:+2] {order = [1, 0], shape = [1, 1]}>", 0, NULL, &d, NULL,
                                  &e) == LAYOUT_OK);
    CHECK_EQ_I64(layout_desc_size(&d), 1);
    /* No braces: the identity row-major order over --shape. */
    CHECK(layout_desc_from_triton("#ttg.padded_shared<[8:+1]>", 2, shape, &d, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(off2(&d, 1, 0), 9);
    CHECK(layout_desc_from_triton("#ttg.padded_shared<[8:+1]>", 0, NULL, &d, NULL, &e) == LAYOUT_ERR_ARG);
    shape[0] = 3;
    CHECK(layout_desc_from_triton("#ttg.padded_shared<[8:+1]>", 2, shape, &d, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_desc_from_triton("#ttg.padded_shared<[2:+2] {order = [0], shape = [8]}>", 2, shape, &d, NULL, &e) ==
          LAYOUT_ERR_MISMATCH);
    /* Distributions: non power-of-two shapes, too many lanes, lane broadcast, one warp. */
    shape[0] = 3;
    shape[1] = 8;
    CHECK(layout_triton_from_text("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 1], "
                                  "order = [1, 0]}>",
                                  &a, NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_to_dist(&a, 2, shape, NULL, 0, &dist, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_triton_to_dist(&a, 2, NULL, NULL, 0, &dist, &e) == LAYOUT_ERR_NULL);
    shape[0] = 4;
    CHECK(layout_triton_to_dist(&a, 2, shape, NULL, 0, &dist, &e) == LAYOUT_OK);
    CHECK_EQ_I64(dist.replication, 2); /* lanes 32..63 repeat lanes 0..31 */
    {
        int64_t x[2], y[2];
        CHECK(layout_dist_coord_elem(&dist, 0, 37, 0, x, NULL) == LAYOUT_OK);
        CHECK(layout_dist_coord_elem(&dist, 0, 5, 0, y, NULL) == LAYOUT_OK);
        CHECK(x[0] == y[0] && x[1] == y[1]);
    }
    CHECK(layout_triton_from_text("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 8], warpsPerCTA = [1, 1], "
                                  "order = [1, 0]}>",
                                  &a, NULL, &e) == LAYOUT_OK);
    shape[0] = 16;
    CHECK(layout_triton_to_dist(&a, 2, shape, NULL, 0, &dist, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "lanes");
    CHECK(layout_triton_from_text("#ttg.linear<{register = [], lane = [[1]], warp = [], block = [[0]]}>", &a, NULL, &e) ==
          LAYOUT_OK);
    CHECK(layout_triton_to_dist(&a, 0, NULL, table, 4096, &dist, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK(layout_triton_from_text("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", &a,
                                  NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_to_dist(&a, 0, NULL, table, 4096, &dist, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK(layout_triton_to_dist(NULL, 0, NULL, table, 4096, &dist, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_to_desc(&a, 2, NULL, &d, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_to_text(NULL, (char *)table, 8, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_to_triton_text(NULL, (char *)table, 8, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_desc_from_triton("{}", 0, NULL, NULL, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_desc_to_triton(&d, NULL, 8, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_from_desc(NULL, &a, &e) == LAYOUT_ERR_NULL);
    /* Expressible: a pitch of 9 is padded_shared [8:+1]; not expressible: an xor modulo 3. */
    CHECK(layout_desc_from_text("naive([4,8],[9,1])", &d, NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_from_desc(&d, &a, &e) == LAYOUT_OK);
    CHECK(a.kind == LAYOUT_TRITON_PADDED_SHARED && a.n_pads == 1 && a.interval[0] == 8 && a.pad[0] == 1);
    CHECK(layout_desc_from_text("naive([4,8],[8,1]) | T{xor([4,3]):[0,1]->[0,1]}", &d, NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_from_desc(&d, &a, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "not linear over F2");
}

/* Blocked export: random blocked layouts (every field a power of two, any
 * order, shapes larger or smaller than the CTA tile) are recognised, and the
 * recognised attribute gives the same (warp, lane, register) -> coordinate
 * map; a non-blocked linear distribution is refused. */
static void test_blocked_export(void)
{
    rd_rng r = {0xB10C4u};
    long it, found = 0, built = 0;
    static int64_t table[1 << 12];
    for (it = 0; it < harness_scaled(60); it++) {
        layout_triton_attr a, back;
        layout_distribution d1, d2;
        int64_t shape[2];
        int j, lanes = (int)rd_range(&r, 4, 6), warps = (int)rd_range(&r, 0, 2), lb, wb;
        memset(&a, 0, sizeof a);
        a.kind = LAYOUT_TRITON_BLOCKED;
        a.rank = 2;
        a.order[0] = (int)rd_range(&r, 0, 1);
        a.order[1] = 1 - a.order[0];
        lb = (int)rd_range(&r, 0, lanes);
        wb = (int)rd_range(&r, 0, warps);
        a.threads_per_warp[0] = (int64_t)1 << lb;
        a.threads_per_warp[1] = (int64_t)1 << (lanes - lb);
        a.warps_per_cta[0] = (int64_t)1 << wb;
        a.warps_per_cta[1] = (int64_t)1 << (warps - wb);
        for (j = 0; j < 2; j++) {
            a.size_per_thread[j] = (int64_t)1 << rd_range(&r, 0, 2);
            shape[j] = a.size_per_thread[j] << rd_range(&r, 0, 5);
        }
        if (layout_triton_to_dist(&a, 2, shape, NULL, 0, &d1, NULL) != LAYOUT_OK) continue;
        built++;
        if (layout_triton_from_dist(&d1, &back, NULL) != LAYOUT_OK) {
            CHECK_MSG(0, "blocked not recognised: spt %lld,%lld tpw %lld,%lld wpc %lld,%lld shape %lld,%lld",
                      (long long)a.size_per_thread[0], (long long)a.size_per_thread[1], (long long)a.threads_per_warp[0],
                      (long long)a.threads_per_warp[1], (long long)a.warps_per_cta[0], (long long)a.warps_per_cta[1],
                      (long long)shape[0], (long long)shape[1]);
            continue;
        }
        found++;
        CHECK(layout_triton_to_dist(&back, 2, shape, NULL, 0, &d2, NULL) == LAYOUT_OK);
        {
            int w, l;
            int64_t e, x1[2], x2[2];
            for (w = 0; w < d1.n_warps; w++)
                for (l = 0; l < d1.wave_size; l++)
                    for (e = 0; e < d1.elems_per_thread; e++) {
                        CHECK(layout_dist_coord_elem(&d1, w, l, e, x1, NULL) == LAYOUT_OK);
                        CHECK(layout_dist_coord_elem(&d2, w, l, e, x2, NULL) == LAYOUT_OK);
                        if (x1[0] != x2[0] || x1[1] != x2[1]) CHECK(0);
                    }
        }
    }
    CHECK(built > 0 && found == built);
    {
        layout_triton_attr a, back;
        layout_distribution d;
        layout_error e;
        CHECK(layout_triton_from_text("#ttg.linear<{register = [], lane = [[1, 1], [2, 0]], warp = [], block = []}>", &a,
                                      NULL, &e) == LAYOUT_OK);
        CHECK(layout_triton_to_dist(&a, 0, NULL, table, 4096, &d, &e) == LAYOUT_OK);
        CHECK(layout_triton_from_dist(&d, &back, &e) == LAYOUT_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(e.message, "no #ttg.blocked");
        CHECK(layout_triton_from_dist(NULL, &back, &e) == LAYOUT_ERR_NULL);
        CHECK(layout_dist_from_text("dist(R=[], H=([3],[4]), P=([(1,0)]), Y=[(2,0)])", 3, 1, &d, NULL, &e) ==
              LAYOUT_OK);
        CHECK(layout_triton_from_dist(&d, &back, &e) == LAYOUT_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(e.message, "not a power of two");
    }
}

/* #ttg.shared_linear (the form Triton's tests use): offset bit b -> coordinate;
 * [[0, 1], [0, 2], [1, 0], [2, 2]] puts (2,0) at offset 8 ^ 2 = 10.  A layout
 * no swizzled/padded attribute expresses exports as shared_linear and reads back. */
static void test_shared_linear(void)
{
    layout_descriptor d, back;
    layout_triton_attr a;
    layout_error e;
    char buf[512];
    CHECK(layout_desc_from_triton("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 2]]}, alignment = 16>", 0,
                                  NULL, &d, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(off2(&d, 2, 0), 10);
    CHECK_EQ_I64(off2(&d, 3, 3), 13); /* (1,0) ^ (2,2) ^ (0,1) = (3,3): offset 4 + 8 + 1 */
    CHECK(layout_desc_from_triton("#ttg.shared_linear<{offset = [[0, 1], [1, 0], [0, 2], [2, 0]], block = []}, "
                                  "alignment = 128>",
                                  0, NULL, &d, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(off2(&d, 1, 0), 2);
    CHECK_EQ_I64(off2(&d, 2, 3), 1 + 4 + 8);
    CHECK(layout_desc_to_triton(&d, buf, sizeof buf, &e) == LAYOUT_OK);
    CHECK_MSG(strcmp(buf, "#ttg.shared_linear<{offset = [[0, 1], [1, 0], [0, 2], [2, 0]], block = []}, alignment = 16>") ==
                  0,
              "%s", buf);
    CHECK(layout_desc_from_triton(buf, 0, NULL, &back, NULL, &e) == LAYOUT_OK);
    CHECK(sd_first_difference(&d, &back) < 0);
    CHECK(layout_triton_from_text("#ttg.shared_linear<{offset = [[1]], block = []}, alignment = 64>", &a, NULL, &e) ==
          LAYOUT_OK);
    CHECK(layout_triton_to_text(&a, buf, sizeof buf, &e) == LAYOUT_OK);
    CHECK_MSG(strcmp(buf, "#ttg.shared_linear<{offset = [[1]], block = []}, alignment = 64>") == 0, "%s", buf);
    expect_error("#ttg.shared_linear<{offset = [[1]]}, alignment = 3>", LAYOUT_ERR_ARG, 49, "alignment 3");
    expect_error("#ttg.shared_linear<{offset = [[1]]}, align = 4>", LAYOUT_ERR_PARSE, 37, "expected 'alignment'");
    expect_error("#ttg.shared_linear<{lane = [[1]]}>", LAYOUT_ERR_ARG, 33, "needs 'offset' bases");
    CHECK(layout_desc_from_triton("#ttg.shared_linear<{offset = [[1]], block = [[1]]}, alignment = 64>", 0, NULL, &d,
                                  NULL, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "block bases");
    /* Linear but not a bijection onto 0..2^k-1: a broadcast dim. */
    CHECK(layout_desc_from_text("naive([4,8],[0,1])", &d, NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_from_desc(&d, &a, &e) == LAYOUT_ERR_UNSUPPORTED);
}

/* Broadcast registers (sizePerThread > shape): Triton 3.6.0's
 * to_linear_layout keeps those register bits as zero bases
 * (tests/fixtures/triton/triton36.txt: sizePerThread [4, 4] on [2, 64] gives
 * register bases [[0, 1], [0, 2], [1, 0], [0, 0]]), i.e. registers repeat
 * elements.  Regression for the refusal that the fixtures exposed. */
static void test_broadcast_registers(void)
{
    layout_triton_attr a;
    layout_distribution d;
    layout_linear ll;
    layout_error e;
    static int64_t table[4096];
    int64_t s1[1] = {2}, s2[2] = {2, 64}, x[2];
    int lane, reg;
    /* 1-D: 4 registers per thread over 2 elements: register r holds r % 2 in every lane. */
    CHECK(layout_triton_from_text("#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], "
                                  "order = [0]}>",
                                  &a, NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_to_dist(&a, 1, s1, NULL, 0, &d, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "broadcast registers");
    CHECK(layout_triton_to_dist(&a, 1, s1, table, 100, &d, &e) == LAYOUT_ERR_BUFFER);
    CHECK_STR_CONTAINS(e.message, "128 values");
    CHECK(layout_triton_to_dist(&a, 1, s1, table, 128, &d, &e) == LAYOUT_OK);
    CHECK_EQ_I64(d.elems_per_thread, 4);
    for (lane = 0; lane < 32; lane++)
        for (reg = 0; reg < 4; reg++) {
            CHECK(layout_dist_coord_elem(&d, 0, lane, reg, x, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(x[0], reg % 2);
        }
    /* 2-D, the fixture's case: register bit 3 (dim0's second digit) is zero. */
    CHECK(layout_triton_from_text("#ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, "
                                  "2], order = [1, 0]}>",
                                  &a, NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_to_dist(&a, 2, s2, table, 4096, &d, &e) == LAYOUT_OK);
    CHECK(layout_dist_to_linear(&d, &ll, &e) == LAYOUT_OK);
    {
        static const int64_t want[4][2] = {{0, 1}, {0, 2}, {1, 0}, {0, 0}};
        int r = layout_linear_in_dim(&ll, "register");
        CHECK(r >= 0 && ll.in_bits[r] == 4);
        for (reg = 0; r >= 0 && reg < 4; reg++) {
            CHECK(layout_linear_get_basis(&ll, r, reg, x, NULL) == LAYOUT_OK);
            CHECK(x[0] == want[reg][0] && x[1] == want[reg][1]);
        }
    }
    /* Errors keep blocked_to_dist's messages: rank, shape. */
    CHECK(layout_triton_to_dist(&a, 1, s1, table, 4096, &d, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "rank 2");
    s2[0] = 3;
    s2[1] = 2;
    CHECK(layout_triton_to_dist(&a, 2, s2, table, 4096, &d, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "power of two");
    /* The enlarged layout's own errors: more than 64 lanes. */
    CHECK(layout_triton_from_text("#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [128], warpsPerCTA = [1], "
                                  "order = [0]}>",
                                  &a, NULL, &e) == LAYOUT_OK);
    CHECK(layout_triton_to_dist(&a, 1, s1, table, 4096, &d, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "lanes");
    /* Through the dialect entry point (the CLI passes a table). */
    s2[0] = 2;
    s2[1] = 64;
    CHECK(layout_dist_from_dialect(LAYOUT_DIALECT_TRITON,
                                   "#ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, "
                                   "2], order = [1, 0]}>",
                                   2, s2, table, 4096, &d, NULL, &e) == LAYOUT_OK);
    CHECK(d.kind == LAYOUT_DIST_TABLE);
}

/* Export of padded_shared with a permuted linear component (the long form),
 * refused before the real-Triton fixtures exercised it: each comes back as
 * itself, with the same offsets.  TritonGPUAttrDefs.td's examples first. */
static void test_padded_permuted_export(void)
{
    static const char *const texts[] = {
        "#ttg.padded_shared<[16:+1] {offset = [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], block = []}>",
        "#ttg.padded_shared<[2:+2] {offset = [[2], [1]], block = []}>",
        "#ttg.padded_shared<[4:+1, 16:+2] {offset = [[2, 0], [0, 1], [1, 0], [0, 2], [4, 0]], block = []}>",
        "#ttg.padded_shared<[8:+4] {offset = [[0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 2], [2, 0, 0]], block = []}>",
    };
    size_t t;
    for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        layout_descriptor d, back;
        layout_error e;
        char buf[512];
        CHECK_MSG(layout_desc_from_triton(texts[t], 0, NULL, &d, NULL, &e) == LAYOUT_OK, "%s: %s", texts[t],
                  e.message);
        CHECK_MSG(layout_desc_to_triton(&d, buf, sizeof buf, &e) == LAYOUT_OK, "%s: %s", texts[t], e.message);
        CHECK_MSG(strcmp(buf, texts[t]) == 0, "%s exported as %s", texts[t], buf);
        CHECK(layout_desc_from_triton(buf, 0, NULL, &back, NULL, &e) == LAYOUT_OK);
        CHECK(sd_first_difference(&d, &back) < 0);
    }
    /* The docs' [16:+1] example by hand: rows 0 2 4 6, a pad, rows 1 3 5 7. */
    {
        layout_descriptor d;
        int64_t x[2];
        CHECK(layout_desc_from_triton(texts[0], 0, NULL, &d, NULL, NULL) == LAYOUT_OK);
        x[0] = 1;
        x[1] = 0;
        CHECK_EQ_I64(layout_desc_offset_unchecked(&d, x), 17);
    }
    /* A one-element 3-D tile (fuzz_dialect): `{offset = []}` would read back
     * as 1-D, so shared_linear refuses it (2-D is swizzled_shared). */
    {
        layout_descriptor d;
        layout_triton_attr a;
        layout_error e;
        CHECK(layout_desc_from_text("naive([1,1,1],[0,0,0])", &d, NULL, &e) == LAYOUT_OK);
        CHECK(layout_triton_from_desc(&d, &a, &e) == LAYOUT_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(e.message, "cannot carry the rank");
    }
    /* The brace-less padded form (shape from --shape) prints as itself, not
     * as `{offset = []}` which does not parse (fuzz_dialect found it). */
    {
        layout_triton_attr a, b;
        layout_error e;
        char buf[128];
        CHECK(layout_triton_from_text("#ttg.padded_shared<[2:+1, 4:+2] >", &a, NULL, &e) == LAYOUT_OK);
        CHECK(layout_triton_to_text(&a, buf, sizeof buf, &e) == LAYOUT_OK);
        CHECK_MSG(strcmp(buf, "#ttg.padded_shared<[2:+1, 4:+2]>") == 0, "%s", buf);
        CHECK(layout_triton_from_text(buf, &b, NULL, &e) == LAYOUT_OK);
    }
    /* The recogniser proposes only pairs the reader takes back: paddings up
     * to 2^20, intervals up to 2^40 (fuzz_dialect met [1:+2^42] from a
     * swizzled CuTe layout).  Rows of 2 with pads of 2^20: exported and read
     * back; pads of 2^21: not padded_shared (and nothing else fits). */
    {
        layout_descriptor d, back;
        layout_error e;
        char buf[256];
        CHECK(layout_desc_from_text("naive([2,2],[1048578,1])", &d, NULL, &e) == LAYOUT_OK);
        CHECK_MSG(layout_desc_to_triton(&d, buf, sizeof buf, &e) == LAYOUT_OK, "%s", e.message);
        CHECK_STR_CONTAINS(buf, "[2:+1048576]");
        CHECK(layout_desc_from_triton(buf, 0, NULL, &back, NULL, &e) == LAYOUT_OK);
        CHECK(sd_first_difference(&d, &back) < 0);
        CHECK(layout_desc_from_text("naive([2,2],[2097154,1])", &d, NULL, &e) == LAYOUT_OK);
        CHECK(layout_desc_to_triton(&d, buf, sizeof buf, &e) == LAYOUT_ERR_UNSUPPORTED);
        CHECK(layout_desc_from_cute("Sw<9,0,-42> o 0 o (_4,_04):(_4,1)", &d, NULL, &e) == LAYOUT_OK);
        if (layout_desc_to_triton(&d, buf, sizeof buf, &e) == LAYOUT_OK) {
            CHECK_MSG(layout_desc_from_triton(buf, 2, (const int64_t[]){4, 4}, &back, NULL, &e) == LAYOUT_OK, "%s: %s",
                      buf, e.message);
        }
        CHECK(layout_desc_from_triton("#ttg.padded_shared<[2:+2097152] {order = [1, 0], shape = [2, 2]}>", 0, NULL,
                                      &d, NULL, &e) == LAYOUT_ERR_ARG);
        CHECK_STR_CONTAINS(e.message, "padding 2097152 is not a power of two in 1..2^20");
    }
    /* Offsets that are not increasing with the permuted index: not padded_shared. */
    {
        layout_descriptor d;
        layout_triton_attr a;
        layout_error e;
        CHECK(layout_desc_from_text("naive([4,8],[9,1]) | T{xor([4,8]):[0,1]->[0,1]}", &d, NULL, &e) == LAYOUT_OK);
        CHECK(layout_triton_from_desc(&d, &a, &e) == LAYOUT_ERR_UNSUPPORTED);
    }
}

int main(void)
{
    RUN(test_padded_docs);
    RUN(test_blocked_docs);
    RUN(test_swizzled_docs);
    RUN(test_linear_forms);
    RUN(test_errors);
    RUN(test_more_paths);
    RUN(test_blocked_export);
    RUN(test_shared_linear);
    RUN(test_broadcast_registers);
    RUN(test_padded_permuted_export);
    return harness_finish("test_dialect_triton");
}
