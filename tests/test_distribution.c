/* Tile distributions: the seed kernels' lane maps against closed formulas,
 * coverage, random encodings against an independent mixed-radix reference,
 * plain forms, and every bad-input path. */
#include "harness.h"
#include "layout.h"
#include "../examples/seed_kernels.h"

typedef void (*closed_form)(int w, int l, int64_t elem, int64_t *x);

/* docs/lds-model.md §4.2: write row m = 16w + l/4, k = 8(l%4) + y. */
static void write_ref(int w, int l, int64_t e, int64_t *x) { x[0] = 16 * w + l / 4; x[1] = 8 * (l % 4) + e; }
/* 01..05 read over (K, M): k = 8w + l/8, m = 8(l%8) + j. */
static void kmajor_ref(int w, int l, int64_t e, int64_t *x) { x[0] = 8 * w + l / 8; x[1] = 8 * (l % 8) + e; }
/* 08 read over (M, K): m = l, k = 8w + y1 (y0 has length 1, so elem = y1). */
static void read08_ref(int w, int l, int64_t e, int64_t *x) { x[0] = l; x[1] = 8 * w + e; }
/* 10 read over (M, K): m = 8(l/8) + j, k = 8w + l%8. */
static void read10_ref(int w, int l, int64_t e, int64_t *x) { x[0] = 8 * (l / 8) + e; x[1] = 8 * w + l % 8; }

static void check_against(const layout_distribution *d, closed_form ref)
{
    CHECK_EQ_I64(d->elems_per_thread, 8);
    for (int w = 0; w < d->n_warps; w++)
        for (int l = 0; l < d->wave_size; l++)
            for (int64_t e = 0; e < d->elems_per_thread; e++) {
                int64_t x[LAYOUT_MAX_DIMS], y[LAYOUT_MAX_DIMS], x2[LAYOUT_MAX_DIMS], want[2];
                ref(w, l, e, want);
                CHECK(layout_dist_coord_elem(d, w, l, e, x, NULL) == LAYOUT_OK);
                CHECK_MSG(x[0] == want[0] && x[1] == want[1], "w%d l%d e%lld: (%lld,%lld) want (%lld,%lld)", w, l,
                          (long long)e, (long long)x[0], (long long)x[1], (long long)want[0], (long long)want[1]);
                CHECK(layout_dist_y_index(d, e, y) == 0);
                CHECK_EQ_I64(layout_dist_elem_index(d, y), e);
                CHECK(layout_dist_coord(d, w, l, y, x2, NULL) == LAYOUT_OK);
                CHECK(x2[0] == x[0] && x2[1] == x[1]);
            }
}

/* Every tile element held exactly `times` times (brute force, independent of layout_dist_coverage). */
static void check_coverage(const layout_distribution *d, int times)
{
    static uint32_t counts[1 << 16], lib_counts[1 << 16];
    int64_t size = 1;
    for (int i = 0; i < d->n_x; i++) size *= d->x_lengths[i];
    CHECK(size <= (1 << 16));
    memset(counts, 0, sizeof counts);
    for (int w = 0; w < d->n_warps; w++)
        for (int l = 0; l < d->wave_size; l++)
            for (int64_t e = 0; e < d->elems_per_thread; e++) {
                int64_t x[LAYOUT_MAX_DIMS], lin = 0;
                CHECK(layout_dist_coord_elem(d, w, l, e, x, NULL) == LAYOUT_OK);
                for (int i = 0; i < d->n_x; i++) {
                    CHECK(x[i] >= 0 && x[i] < d->x_lengths[i]);
                    lin = lin * d->x_lengths[i] + x[i];
                }
                if (lin >= 0 && lin < size) counts[lin]++;
            }
    for (int64_t i = 0; i < size; i++) CHECK_MSG(counts[i] == (uint32_t)times, "element %lld held %u times", (long long)i, counts[i]);
    int64_t lo = -1, hi = -1;
    CHECK(layout_dist_coverage(d, lib_counts, sizeof lib_counts / sizeof lib_counts[0], &lo, &hi, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(lo, times);
    CHECK_EQ_I64(hi, times);
}

static void test_seed_maps(void)
{
    layout_distribution d;
    layout_error err;
    CHECK(seed_write_dist(&d, &err) == LAYOUT_OK);
    check_against(&d, write_ref);
    check_coverage(&d, 1);
    CHECK_EQ_I64(d.replication, 1);
    CHECK(seed_read_dist_kmajor(&d, &err) == LAYOUT_OK);
    check_against(&d, kmajor_ref);
    check_coverage(&d, 1);
    CHECK(seed_read_dist_08(&d, &err) == LAYOUT_OK);
    CHECK_EQ_I64(d.n_y, 2);
    CHECK_EQ_I64(d.y_lengths[0], 1);
    CHECK_EQ_I64(d.y_lengths[1], 8);
    check_against(&d, read08_ref);
    check_coverage(&d, 1);
    CHECK(seed_read_dist_10(&d, &err) == LAYOUT_OK);
    check_against(&d, read10_ref);
    check_coverage(&d, 1);
}

/* R = <2>: lanes l and l + 32 hold the same data; each element twice. */
static void test_replication(void)
{
    layout_dist_encoding e;
    memset(&e, 0, sizeof e);
    e.n_r = 1; e.r[0] = 2;
    e.n_x = 1; e.n_h[0] = 2; e.h[0][0] = 32; e.h[0][1] = 2;
    e.n_p = 1; e.n_p_rh[0] = 2; e.p_major[0][0] = 0; e.p_minor[0][0] = 0; e.p_major[0][1] = 1; e.p_minor[0][1] = 0;
    e.n_y = 1; e.y_major[0] = 1; e.y_minor[0] = 1;
    layout_distribution d;
    CHECK(layout_dist_make(&d, &e, 64, 1, 0, NULL, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(d.replication, 2);
    CHECK_EQ_I64(d.x_lengths[0], 64);
    for (int l = 0; l < 64; l++)
        for (int y = 0; y < 2; y++) {
            int64_t x[1];
            CHECK(layout_dist_coord_elem(&d, 0, l, y, x, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(x[0], (l % 32) * 2 + y);
        }
    check_coverage(&d, 2);
    /* One P with 4 warps: every warp holds the same data (ck_tile's lane-only partition). */
    CHECK(layout_dist_make(&d, &e, 64, 4, 0, NULL, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(d.replication, 8);
    check_coverage(&d, 8);
}

/* Independent reference: decode P lengths into RH digits, then X_i = row-major of H_i digits. */
static void ref_eval(const layout_dist_encoding *e, int w, int l, const int64_t *y, int64_t *x)
{
    int64_t digit[LAYOUT_MAX_DIMS + 1][LAYOUT_MAX_DIST_RH];
    memset(digit, 0, sizeof digit);
    int64_t pidx[2];
    if (e->n_p == 2) { pidx[0] = w; pidx[1] = l; } else { pidx[0] = l; }
    for (int p = 0; p < e->n_p; p++) {
        int64_t v = pidx[p];
        for (int k = e->n_p_rh[p] - 1; k >= 0; k--) {
            int ma = e->p_major[p][k], mi = e->p_minor[p][k];
            int64_t len = ma == 0 ? e->r[mi] : e->h[ma - 1][mi];
            digit[ma][mi] = v % len;
            v /= len;
        }
    }
    for (int j = 0; j < e->n_y; j++) digit[e->y_major[j]][e->y_minor[j]] = y[j];
    for (int i = 0; i < e->n_x; i++) {
        x[i] = 0;
        for (int k = 0; k < e->n_h[i]; k++) x[i] = x[i] * e->h[i][k] + digit[i + 1][k];
    }
}

/* Random encodings: split warps and lanes into factors, spread them and Y factors over random H lists. */
static void test_random_encodings(void)
{
    harness_rng rng = {0x5eed1234u};
    long iters = harness_scaled(300);
    for (long it = 0; it < iters; it++) {
        layout_dist_encoding e;
        memset(&e, 0, sizeof e);
        int wave = harness_range(&rng, 0, 1) ? 64 : 32;
        int warps = 1 << harness_range(&rng, 0, 2);
        e.n_x = (int)harness_range(&rng, 1, 3);
        e.n_p = 2;
        /* factor lists: warp bits, lane bits, Y factors (each a power of two or 3) */
        int64_t fac[16];
        int owner[16], nf = 0;
        for (int v = warps; v > 1;) { int64_t f = v >= 4 && harness_range(&rng, 0, 1) ? 4 : 2; fac[nf] = f; owner[nf++] = 0; v /= (int)f; }
        for (int v = wave; v > 1;) { int64_t f = v >= 4 && harness_range(&rng, 0, 1) ? 4 : 2; fac[nf] = f; owner[nf++] = 1; v /= (int)f; }
        int ny = (int)harness_range(&rng, 1, 3);
        for (int j = 0; j < ny; j++) { fac[nf] = harness_range(&rng, 1, 3); owner[nf++] = 2; }
        /* shuffle, then deal into H lists */
        for (int i = nf - 1; i > 0; i--) {
            int k = (int)harness_range(&rng, 0, i);
            int64_t tf = fac[i]; fac[i] = fac[k]; fac[k] = tf;
            int to = owner[i]; owner[i] = owner[k]; owner[k] = to;
        }
        int ok = 1;
        for (int i = 0; i < nf; i++) {
            int xi = (int)harness_range(&rng, 0, e.n_x - 1);
            if (e.n_h[xi] >= LAYOUT_MAX_DIST_RH) { ok = 0; break; }
            int mi = e.n_h[xi]++;
            e.h[xi][mi] = fac[i];
            if (owner[i] < 2) {
                int p = owner[i];
                e.p_major[p][e.n_p_rh[p]] = xi + 1;
                e.p_minor[p][e.n_p_rh[p]++] = mi;
            } else {
                e.y_major[e.n_y] = xi + 1;
                e.y_minor[e.n_y++] = mi;
            }
        }
        /* an X without entries gets a Y of length 1; a P without entries a length-1 R */
        for (int i = 0; i < e.n_x && ok; i++)
            if (e.n_h[i] == 0) {
                if (e.n_y >= LAYOUT_MAX_DIMS - 2) { ok = 0; break; }
                e.n_h[i] = 1; e.h[i][0] = 1;
                e.y_major[e.n_y] = i + 1; e.y_minor[e.n_y++] = 0;
            }
        for (int p = 0; p < 2 && ok; p++)
            if (e.n_p_rh[p] == 0) {
                e.r[e.n_r] = 1;
                e.p_major[p][0] = 0; e.p_minor[p][0] = e.n_r++;
                e.n_p_rh[p] = 1;
            }
        if (!ok || e.n_y + 2 > LAYOUT_MAX_DIMS) continue;
        layout_distribution d;
        layout_error err;
        layout_status s = layout_dist_make(&d, &e, wave, warps, 0, NULL, &err);
        CHECK_MSG(s == LAYOUT_OK, "iteration %ld: %s", it, err.message);
        if (s) continue;
        for (int w = 0; w < warps; w++)
            for (int l = 0; l < wave; l++)
                for (int64_t el = 0; el < d.elems_per_thread; el++) {
                    int64_t y[LAYOUT_MAX_DIMS], x[LAYOUT_MAX_DIMS], want[LAYOUT_MAX_DIMS];
                    CHECK(layout_dist_y_index(&d, el, y) == 0);
                    CHECK(layout_dist_coord(&d, w, l, y, x, NULL) == LAYOUT_OK);
                    ref_eval(&e, w, l, y, want);
                    for (int i = 0; i < e.n_x; i++) CHECK(x[i] == want[i]);
                    /* the adaptor (replicate, unmerge per X, merge per P) gives the same X */
                    int64_t top[LAYOUT_MAX_DIMS], bottom[LAYOUT_MAX_DIMS];
                    top[0] = w;
                    top[1] = l;
                    for (int j = 0; j < d.n_y; j++) top[2 + j] = y[j];
                    CHECK(layout_adaptor_calculate_bottom(&d.adaptor, top, bottom, NULL) == LAYOUT_OK);
                    for (int i = 0; i < e.n_x; i++) CHECK(bottom[i] == want[i]);
                }
        check_coverage(&d, 1);
    }
}

/* The kernel-08 read side as a plain callback and as a table. */
static int cb08(void *user, int w, int l, int64_t e, int64_t *x)
{
    (void)user;
    read08_ref(w, l, e, x);
    return 0;
}
static int cb_fail(void *user, int w, int l, int64_t e, int64_t *x)
{
    (void)user; (void)w; (void)e;
    x[0] = x[1] = 0;
    return l == 7 ? 42 : 0;
}
static int cb_out(void *user, int w, int l, int64_t e, int64_t *x)
{
    (void)user; (void)e;
    x[0] = l; x[1] = 8 * w + 40; /* k beyond 31 */
    return 0;
}

static void test_plain_forms(void)
{
    int64_t tile[2] = {64, 32};
    layout_distribution d;
    layout_error err;
    CHECK(layout_dist_from_callback(&d, 2, tile, 64, 4, 8, cb08, NULL, &err) == LAYOUT_OK);
    CHECK(d.kind == LAYOUT_DIST_CALLBACK);
    check_against(&d, read08_ref);
    check_coverage(&d, 1);
    static int64_t table[4 * 64 * 8 * 2];
    for (int w = 0; w < 4; w++)
        for (int l = 0; l < 64; l++)
            for (int e = 0; e < 8; e++) read08_ref(w, l, e, &table[((w * 64 + l) * 8 + e) * 2]);
    CHECK(layout_dist_from_table(&d, 2, tile, 64, 4, 8, table, &err) == LAYOUT_OK);
    check_against(&d, read08_ref);
    char buf[128];
    layout_dist_print(&d, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "plain table");

    layout_distribution keep = d;
    CHECK(layout_dist_from_callback(&d, 2, tile, 64, 4, 8, cb_fail, NULL, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "layout_dist_from_callback: callback returned 42");
    CHECK(layout_dist_from_callback(&d, 2, tile, 64, 4, 8, cb_out, NULL, &err) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(err.message, "x[1] = 40");
    CHECK(memcmp(&keep, &d, sizeof d) == 0);
    table[5] = 64;
    CHECK(layout_dist_from_table(&d, 2, tile, 64, 4, 8, table, &err) == LAYOUT_ERR_RANGE);
    CHECK(layout_dist_from_table(&d, 2, tile, 64, 4, 8, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_from_callback(&d, 2, tile, 64, 4, 8, NULL, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_from_callback(NULL, 2, tile, 64, 4, 8, cb08, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_from_callback(&d, 2, NULL, 64, 4, 8, cb08, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_from_callback(&d, 0, tile, 64, 4, 8, cb08, NULL, &err) == LAYOUT_ERR_CAPACITY);
    CHECK(layout_dist_from_callback(&d, 2, tile, 65, 4, 8, cb08, NULL, &err) == LAYOUT_ERR_ARG);
    CHECK(layout_dist_from_callback(&d, 2, tile, 64, 0, 8, cb08, NULL, &err) == LAYOUT_ERR_ARG);
    CHECK(layout_dist_from_callback(&d, 2, tile, 64, 4, 0, cb08, NULL, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "elems_per_thread = 0");
    int64_t bad_tile[2] = {64, 0};
    CHECK(layout_dist_from_callback(&d, 2, bad_tile, 64, 4, 8, cb08, NULL, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "x_lengths[1] = 0");
    CHECK(memcmp(&keep, &d, sizeof d) == 0);
}

static layout_dist_encoding enc08(void)
{
    layout_distribution d;
    seed_read_dist_08(&d, NULL);
    return d.encoding;
}

static void expect_bad(const layout_dist_encoding *e, int wave, int warps, layout_status want, const char *needle)
{
    layout_distribution d, before;
    memset(&d, 0x5a, sizeof d);
    before = d;
    layout_error err;
    int64_t tile[2] = {64, 32};
    layout_status s = layout_dist_make(&d, e, wave, warps, 2, tile, &err);
    CHECK_MSG(s == want, "got %s want %s (%s)", layout_status_name(s), layout_status_name(want), err.message);
    CHECK_STR_CONTAINS(err.message, "layout_dist_make: ");
    CHECK_STR_CONTAINS(err.message, needle);
    CHECK(memcmp(&d, &before, sizeof d) == 0);
}

static void test_bad_encodings(void)
{
    layout_dist_encoding e = enc08();
    layout_distribution d;
    layout_error err;
    CHECK(layout_dist_make(&d, &e, 64, 4, 2, NULL, &err) == LAYOUT_OK); /* tile lengths optional */

    expect_bad(&e, 32, 4, LAYOUT_ERR_MISMATCH, "P1 (lane) length 64 != wave_size 32");
    expect_bad(&e, 64, 2, LAYOUT_ERR_MISMATCH, "P0 (warp) length 4 != n_warps 2");
    expect_bad(&e, 0, 4, LAYOUT_ERR_ARG, "wave_size = 0");
    expect_bad(&e, 64, 0, LAYOUT_ERR_ARG, "n_warps = 0");

    layout_dist_encoding b = e;
    b.h[0][1] = 0;
    expect_bad(&b, 64, 4, LAYOUT_ERR_ARG, "enc->h[0][1] = 0 must be > 0");
    b = e; b.r[0] = -1;
    expect_bad(&b, 64, 4, LAYOUT_ERR_ARG, "enc->r[0] = -1");
    b = e; b.r[0] = 2; /* unnamed R of length 2 */
    expect_bad(&b, 64, 4, LAYOUT_ERR_ARG, "R[0] = 2");
    b = e; b.y_minor[1] = 0; /* Y1 names H1[0], already the warp: H1[0] twice, H1[1] never */
    expect_bad(&b, 64, 4, LAYOUT_ERR_ARG, "is named 2 times");
    b = e; b.n_y = 1; /* H1[1] never named */
    expect_bad(&b, 64, 4, LAYOUT_ERR_ARG, "H1[1] (major 2, minor 1) is named 0 times");
    b = e; b.y_major[0] = 0; b.y_minor[0] = 0;
    expect_bad(&b, 64, 4, LAYOUT_ERR_ARG, "Y0 names R[0]");
    b = e; b.y_major[1] = 3;
    expect_bad(&b, 64, 4, LAYOUT_ERR_DIM_ID, "Y1 entry 0 has major 3");
    b = e; b.p_minor[1][1] = 3;
    expect_bad(&b, 64, 4, LAYOUT_ERR_DIM_ID, "P1 entry 1 has minor 3");
    b = e; b.n_x = 0;
    expect_bad(&b, 64, 4, LAYOUT_ERR_CAPACITY, "enc->n_x = 0");
    b = e; b.n_x = 9;
    expect_bad(&b, 64, 4, LAYOUT_ERR_CAPACITY, "enc->n_x = 9");
    b = e; b.n_h[1] = 9;
    expect_bad(&b, 64, 4, LAYOUT_ERR_CAPACITY, "enc->n_h[1] = 9");
    b = e; b.n_p = 3;
    expect_bad(&b, 64, 4, LAYOUT_ERR_ARG, "enc->n_p = 3");
    b = e; b.n_p_rh[0] = 0;
    expect_bad(&b, 64, 4, LAYOUT_ERR_ARG, "enc->n_p_rh[0] = 0");
    b = e; b.n_y = 0;
    expect_bad(&b, 64, 4, LAYOUT_ERR_CAPACITY, "enc->n_y = 0");
    b = e; b.n_y = 7;
    expect_bad(&b, 64, 4, LAYOUT_ERR_CAPACITY, "enc->n_y = 7");
    b = e; b.n_r = 9;
    expect_bad(&b, 64, 4, LAYOUT_ERR_CAPACITY, "enc->n_r = 9");
    b = e; b.h[0][0] = INT64_MAX / 2; /* tile length overflows, caught before the P check by its product */
    {
        layout_status s = layout_dist_make(&d, &b, 64, 4, 0, NULL, &err);
        CHECK(s == LAYOUT_ERR_OVERFLOW);
    }

    /* every X fits int64 but warps x lanes x elements per thread does not */
    b = e;
    b.h[0][0] = 1; b.h[0][1] = 64; b.h[0][2] = (int64_t)1 << 56; /* Y0 -> (1,0): length 1; (1,2) is a lane digit */
    b.y_major[0] = 1; b.y_minor[0] = 2;                           /* Y0 now names the 2^56 entry */
    b.p_minor[1][1] = 0;                                          /* lane = (1,1) x (1,0): 64 x 1 */
    {
        layout_status s = layout_dist_make(&d, &b, 64, 4, 0, NULL, &err);
        CHECK_MSG(s == LAYOUT_ERR_OVERFLOW, "%s: %s", layout_status_name(s), err.message);
        CHECK_STR_CONTAINS(err.message, "layout_dist_make: warps x lanes x elements per thread");
    }

    /* mismatched tile shapes */
    int64_t wrong[2] = {64, 16};
    CHECK(layout_dist_make(&d, &e, 64, 4, 2, wrong, &err) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(err.message, "tile_lengths[1] = 16 != product of H1 = 32");
    int64_t three[3] = {64, 32, 1};
    CHECK(layout_dist_make(&d, &e, 64, 4, 3, three, &err) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(err.message, "n_tile = 3 != enc->n_x = 2");
    CHECK(layout_dist_make(NULL, &e, 64, 4, 0, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_make(&d, NULL, 64, 4, 0, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK_STR_CONTAINS(err.message, "enc is NULL");
}

static void test_eval_errors(void)
{
    layout_distribution d;
    CHECK(seed_read_dist_08(&d, NULL) == LAYOUT_OK);
    int64_t x[2] = {-7, -7}, y[2] = {0, 8};
    layout_error err;
    CHECK(layout_dist_coord(&d, 0, 0, y, x, &err) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(err.message, "layout_dist_coord: y[1] = 8 must be in 0..7");
    CHECK(x[0] == -7 && x[1] == -7);
    y[1] = 0;
    CHECK(layout_dist_coord(&d, 4, 0, y, x, &err) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(err.message, "warp = 4");
    CHECK(layout_dist_coord(&d, 0, 64, y, x, &err) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(err.message, "lane = 64");
    CHECK(layout_dist_coord(&d, 0, -1, y, x, &err) == LAYOUT_ERR_RANGE);
    CHECK(layout_dist_coord(NULL, 0, 0, y, x, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_coord(&d, 0, 0, NULL, x, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_coord(&d, 0, 0, y, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_coord_elem(&d, 0, 0, 8, x, &err) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(err.message, "elem = 8");
    CHECK(layout_dist_coord_elem(&d, 0, 0, -1, x, &err) == LAYOUT_ERR_RANGE);
    CHECK(layout_dist_coord_elem(NULL, 0, 0, 0, x, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_coord_elem(&d, 0, 0, 0, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_coord_elem(&d, 9, 0, 0, x, &err) == LAYOUT_ERR_RANGE);
    CHECK_EQ_I64(layout_dist_elem_index(NULL, y), -1);
    CHECK_EQ_I64(layout_dist_elem_index(&d, NULL), -1);
    y[1] = 8;
    CHECK_EQ_I64(layout_dist_elem_index(&d, y), -1);
    CHECK(layout_dist_y_index(&d, 8, y) == -1);
    CHECK(layout_dist_y_index(&d, -1, y) == -1);
    CHECK(layout_dist_y_index(NULL, 0, y) == -1);
    uint32_t small[10];
    CHECK(layout_dist_coverage(&d, small, 10, NULL, NULL, &err) == LAYOUT_ERR_BUFFER);
    CHECK_STR_CONTAINS(err.message, "n_counts = 10, the tile needs 2048");
    CHECK(layout_dist_coverage(&d, NULL, 10, NULL, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_coverage(NULL, small, 10, NULL, NULL, &err) == LAYOUT_ERR_NULL);
}

static void test_print(void)
{
    layout_distribution d;
    CHECK(seed_read_dist_08(&d, NULL) == LAYOUT_OK);
    char buf[256];
    int n = layout_dist_print(&d, buf, sizeof buf);
    CHECK_EQ_I64(n, (int64_t)strlen(buf));
    CHECK_STR_CONTAINS(buf, "R<1> H<<1,8,8>,<4,8>> P<<2>,<1,1>>/<<0>,<1,2>> Y<1,2>/<0,1> (4 warps x 64 lanes)");
    char tiny[8];
    int n2 = layout_dist_print(&d, tiny, sizeof tiny);
    CHECK_EQ_I64(n2, n);
    CHECK_EQ_I64((int64_t)strlen(tiny), 7);
    CHECK_EQ_I64(layout_dist_print(&d, NULL, 0), n);
    layout_dist_print(NULL, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "null");
}

int main(void)
{
    RUN(test_seed_maps);
    RUN(test_replication);
    RUN(test_random_encodings);
    RUN(test_plain_forms);
    RUN(test_bad_encodings);
    RUN(test_eval_errors);
    RUN(test_print);
    return harness_finish("test_distribution");
}
