/* Plans: equal to layout_desc_offset / layout_desc_is_valid on every
 * coordinate of thousands of random compositions (every transform kind),
 * AVX2 vs scalar, box / tile / list edge shapes, the seed 08 listing, bad input. */
#include "harness.h"
#include "layout.h"
#include "support/rand_desc.h"
#include "support/seed_lds.h"

#define MAXC 4096

static int avx2_here(void) { return layout_plan_impl_available(LAYOUT_PLAN_AVX2); }

/* A random sub-box of d through both implementations vs the descriptor. */
static int compare_sub_box(const layout_descriptor *d, rd_rng *r)
{
    static int64_t out[MAXC];
    static uint8_t val[MAXC];
    int n = layout_desc_ndims(d), fails = 0;
    int64_t org[LAYOUT_MAX_DIMS], ext[LAYOUT_MAX_DIMS], count = 1;
    for (int k = 0; k < n; k++) {
        int64_t len = layout_desc_length(d, k);
        org[k] = rd_range(r, 0, len - 1);
        ext[k] = rd_range(r, 1, len - org[k]);
        count *= ext[k];
    }
    for (int m = 0; m < 2; m++) {
        layout_plan p;
        if (layout_plan_build(&p, d, m ? LAYOUT_PLAN_AVX2 : LAYOUT_PLAN_SCALAR, NULL)) continue;
        CHECK(layout_plan_box(&p, org, ext, out, val, MAXC, NULL) == LAYOUT_OK);
        int64_t idx[LAYOUT_MAX_DIMS] = {0};
        for (int64_t i = 0; i < count; i++) {
            int64_t c[LAYOUT_MAX_DIMS], ref = -1;
            int valid = -1;
            for (int k = 0; k < n; k++) c[k] = org[k] + idx[k];
            layout_desc_offset(d, c, &ref, NULL);
            layout_desc_is_valid(d, c, &valid, NULL);
            if ((out[i] != ref || val[i] != valid) && fails++ < 3)
                CHECK_MSG(0, "sub-box impl %d #%" PRId64 ": %" PRId64 "/%d vs %" PRId64 "/%d", m, i, out[i], val[i], ref,
                          valid);
            for (int k = n - 1; k >= 0 && ++idx[k] == ext[k]; k--) idx[k] = 0;
        }
    }
    return fails;
}

/* Every coordinate of d through every plan path; returns failures. */
static int compare_all(const layout_descriptor *d, const char *what)
{
    static int64_t ref_off[MAXC], box_off[MAXC], coords[MAXC * LAYOUT_MAX_DIMS], list_off[MAXC];
    static uint8_t ref_valid[MAXC], box_valid[MAXC], list_valid[MAXC];
    int fails = 0, n = layout_desc_ndims(d);
    int64_t size = layout_desc_size(d), c[LAYOUT_MAX_DIMS] = {0};
    if (size > MAXC) return 0;
    for (int64_t i = 0; i < size; i++) {
        int valid = -1;
        CHECK(layout_desc_offset(d, c, &ref_off[i], NULL) == LAYOUT_OK);
        CHECK(layout_desc_is_valid(d, c, &valid, NULL) == LAYOUT_OK);
        ref_valid[i] = (uint8_t)valid;
        memcpy(&coords[i * n], c, (size_t)n * sizeof *c);
        for (int k = n - 1; k >= 0 && ++c[k] == layout_desc_length(d, k); k--) c[k] = 0;
    }
    layout_plan_impl impls[3] = {LAYOUT_PLAN_SCALAR, LAYOUT_PLAN_AVX2, LAYOUT_PLAN_AUTO};
    for (int m = 0; m < 3; m++) {
        layout_plan p;
        layout_error e;
        layout_status st = layout_plan_build(&p, d, impls[m], &e);
        if (impls[m] == LAYOUT_PLAN_AVX2 && st == LAYOUT_ERR_UNSUPPORTED) continue; /* not here / not int32 */
        CHECK_MSG(st == LAYOUT_OK, "%s: %s", what, e.message);
        if (st) return 1;
        CHECK(layout_plan_tile(&p, box_off, box_valid, MAXC, NULL) == LAYOUT_OK);
        CHECK(layout_plan_offsets(&p, (size_t)size, coords, list_off, list_valid, NULL) == LAYOUT_OK);
        for (int64_t i = 0; i < size; i++) {
            int64_t one = layout_plan_offset_unchecked(&p, &coords[i * n]);
            int ok = one == ref_off[i] && box_off[i] == ref_off[i] && list_off[i] == ref_off[i] &&
                     box_valid[i] == ref_valid[i] && list_valid[i] == ref_valid[i] &&
                     layout_plan_valid_unchecked(&p, &coords[i * n]) == ref_valid[i];
            if (!ok && fails++ < 3) {
                char buf[4096];
                layout_plan_print(&p, buf, sizeof buf);
                CHECK_MSG(ok, "%s impl %s coord #%" PRId64 ": ref %" PRId64 "/%d one %" PRId64 " box %" PRId64
                              "/%d list %" PRId64 "\n%s",
                          what, layout_plan_impl_name(p.impl), i, ref_off[i], ref_valid[i], one, box_off[i],
                          box_valid[i], list_off[i], buf);
            }
        }
    }
    return fails;
}

static void test_random_compositions(void)
{
    rd_rng r = {0x9e3779b97f4a7c15ull};
    long want = harness_scaled(4000), done = 0, attempts = 0, with_checks = 0, with_ops = 0, int32 = 0;
    int kinds_seen[LAYOUT_TRANSFORM_KIND_COUNT] = {0};
    long modes[3] = {0, 0, 0}, negative_ops = 0, xors = 0;
    while (done < want && attempts < want * 50) {
        attempts++;
        layout_descriptor d;
        if (!rd_random_desc(&r, 3, MAXC, &d)) continue;
        for (int i = 0; i < d.adaptor.n_transforms; i++) kinds_seen[d.adaptor.transforms[i].kind] = 1;
        layout_plan p;
        if (layout_plan_build(&p, &d, LAYOUT_PLAN_SCALAR, NULL) == LAYOUT_OK) {
            with_checks += p.n_checks > 0;
            for (int o = 0; o < p.n_ops; o++) {
                if (p.ops[o].kind == LAYOUT_PLAN_OP_DIV) modes[p.ops[o].mode]++;
                else xors++;
                negative_ops += p.ops[o].lo < 0;
            }
            with_ops += p.n_ops > 0;
            int32 += p.fits_int32;
        }
        char what[32];
        snprintf(what, sizeof what, "random #%ld", done);
        if (compare_all(&d, what) || compare_sub_box(&d, &r)) {
            fprintf(stderr, "compare_all failed on %s\n", what);
            break;
        }
        done++;
    }
    CHECK(done == want);
    if (getenv("LAYOUT_TEST_VERBOSE"))
        fprintf(stderr, "  %ld compositions (%ld attempts): %ld with checks, %ld with ops, %ld int32\n", done, attempts,
                with_checks, with_ops, int32);
    for (int k = 0; k < LAYOUT_TRANSFORM_KIND_COUNT; k++)
        CHECK_MSG(kinds_seen[k], "kind %s never generated", layout_transform_kind_name((layout_transform_kind)k));
    /* the generator must exercise pads, ops and both lane widths */
    CHECK(with_checks > done / 20);
    CHECK(with_ops > done / 4);
    CHECK(int32 > done / 2 && (done < 1000 || int32 < done));
    /* every division strategy, xor ops and negative values are exercised
     * (at full scale; LAYOUT_TEST_SCALE=0.02 runs too few to insist) */
    if (done >= 1000) {
        CHECK(modes[LAYOUT_PLAN_DIV_SHIFT] > 0 && modes[LAYOUT_PLAN_DIV_MAGIC] > 0 && modes[LAYOUT_PLAN_DIV_PLAIN] > 0);
        CHECK(xors > 0);
        CHECK(negative_ops > 0);
    }
    if (getenv("LAYOUT_TEST_VERBOSE"))
        fprintf(stderr, "  ops: %ld shift, %ld magic, %ld plain, %ld xor, %ld with negative values\n", modes[0],
                modes[1], modes[2], xors, negative_ops);
}

static void test_seed_descriptors(void)
{
    layout_descriptor d;
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    CHECK(compare_all(&d, "seed 08 / 32 banks") == 0);
    CHECK(seed_xor_mk(&d, 64, 2, 0) == LAYOUT_OK);
    CHECK(compare_all(&d, "seed 08 / 64 banks") == 0);
    CHECK(seed_xor_mk(&d, 32, 1, 1) == LAYOUT_OK);
    CHECK(compare_all(&d, "seed 05") == 0);
    CHECK(seed_01_km(&d) == LAYOUT_OK);
    CHECK(compare_all(&d, "seed 01 km") == 0);
    CHECK(seed_03_mk(&d) == LAYOUT_OK);
    CHECK(compare_all(&d, "seed 03") == 0);

    /* the listing of the file comment: 4 ops, offset formula */
    layout_plan p;
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    CHECK(layout_plan_build(&p, &d, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_ops, 4);
    CHECK_EQ_I64(p.n_checks, 0);
    CHECK(p.fits_int32);
    char buf[2048];
    int len = layout_plan_print(&p, buf, sizeof buf);
    CHECK(len > 0 && (size_t)len < sizeof buf);
    CHECK_STR_CONTAINS(buf, "= DIV(x0, 2) [shift] per row");
    CHECK_STR_CONTAINS(buf, "XOR(");
    int64_t mk[2] = {3, 9}, off = -1;
    CHECK(layout_plan_offset(&p, mk, &off, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(off, 97);
    CHECK_EQ_I64(off, seed_xor_closed_form(3, 9, 32, 0));
    int64_t org[2] = {2, 8}, ext[2] = {1, 4}, four[4];
    CHECK(layout_plan_box(&p, org, ext, four, NULL, 4, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(four[0], 64);
    CHECK_EQ_I64(four[3], 67);
    /* the whole tile is a permutation of 0..2047 */
    static int64_t all[2048];
    static uint8_t seen[2048];
    memset(seen, 0, sizeof seen);
    CHECK(layout_plan_tile(&p, all, NULL, 2048, NULL) == LAYOUT_OK);
    int perm = 1;
    for (int i = 0; i < 2048; i++) {
        if (all[i] < 0 || all[i] >= 2048 || seen[all[i]]) perm = 0;
        else seen[all[i]] = 1;
    }
    CHECK(perm);
}

/* Helper: a descriptor from a base and one stage. */
static layout_status one_stage(layout_descriptor *out, const layout_descriptor *base, int nt, const layout_transform *t,
                               const layout_seq *lo, const layout_seq *up)
{
    return layout_transform_descriptor(out, base, nt, t, lo, up, NULL);
}

static void test_edge_shapes(void)
{
    layout_descriptor base, d;
    layout_transform t[3];
    /* length-1 dims everywhere */
    int64_t l1[3] = {1, 5, 1}, s1[3] = {7, 3, 11};
    CHECK(layout_naive(&base, 3, l1, s1, NULL) == LAYOUT_OK);
    CHECK(compare_all(&base, "length-1 dims") == 0);
    /* a single coordinate */
    int64_t one = 1, st = 1;
    CHECK(layout_naive(&d, 1, &one, &st, NULL) == LAYOUT_OK);
    CHECK(compare_all(&d, "1 coordinate") == 0);
    /* pads on both dims: invalid coordinates flagged, offsets as ck_tile */
    int64_t l2[2] = {3, 5}, s2[2] = {5, 1};
    CHECK(layout_naive(&base, 2, l2, s2, NULL) == LAYOUT_OK);
    CHECK(layout_make_pad(3, 1, 2, &t[0], NULL) == LAYOUT_OK);
    CHECK(layout_make_right_pad(5, 3, &t[1], NULL) == LAYOUT_OK);
    {
        layout_seq lo[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)}, up[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)};
        CHECK(one_stage(&d, &base, 2, t, lo, up) == LAYOUT_OK);
    }
    CHECK(compare_all(&d, "pads") == 0);
    layout_plan p;
    CHECK(layout_plan_build(&p, &d, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_checks, 2);
    int64_t c[2] = {0, 0}, off = 0;
    CHECK_EQ_I64(layout_plan_valid_unchecked(&p, c), 0);
    CHECK(layout_plan_offset(&p, c, &off, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(off, -5); /* row -1: what ck_tile computes for the padding */
    /* long padded rows: the AVX2 row walk with row-only and per-element checks */
    {
        int64_t l4[2] = {20, 40}, s4[2] = {41, 1};
        CHECK(layout_naive(&base, 2, l4, s4, NULL) == LAYOUT_OK);
        CHECK(layout_make_pad(20, 2, 3, &t[0], NULL) == LAYOUT_OK);
        CHECK(layout_make_pad(40, 5, 7, &t[1], NULL) == LAYOUT_OK);
        layout_seq lo[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)}, up[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)};
        CHECK(one_stage(&d, &base, 2, t, lo, up) == LAYOUT_OK);
        CHECK(compare_all(&d, "long padded rows") == 0);
        rd_rng rr = {777};
        for (int it = 0; it < harness_scaled(200); it++) CHECK(compare_sub_box(&d, &rr) == 0);
    }
    /* non-power-of-two xor lengths (not a bijection) */
    for (int64_t len1 = 1; len1 <= 12; len1++) {
        int64_t l3[2] = {9, 7}, s3[2] = {7, 1};
        CHECK(layout_naive(&base, 2, l3, s3, NULL) == LAYOUT_OK);
        CHECK(layout_make_xor(9, len1, &t[0], NULL) == LAYOUT_OK);
        layout_seq lo[1] = {LAYOUT_SEQ(0, 1)}, up[1] = {LAYOUT_SEQ(0, 1)};
        CHECK(one_stage(&d, &base, 1, t, lo, up) == LAYOUT_OK);
        CHECK(compare_all(&d, "xor non-pow2") == 0);
    }
    /* sub-boxes of odd shapes vs single offsets, both impls */
    layout_descriptor x;
    CHECK(seed_xor_mk(&x, 64, 2, 0) == LAYOUT_OK);
    rd_rng r = {12345};
    for (int it = 0; it < harness_scaled(300); it++) {
        int64_t org[2], ext[2], out[2048];
        uint8_t val[2048];
        org[0] = rd_range(&r, 0, 63);
        org[1] = rd_range(&r, 0, 31);
        ext[0] = rd_range(&r, 0, 64 - org[0]);
        ext[1] = rd_range(&r, 0, 32 - org[1]);
        for (int m = 0; m < 2; m++) {
            if (layout_plan_build(&p, &x, m ? LAYOUT_PLAN_AVX2 : LAYOUT_PLAN_SCALAR, NULL)) continue;
            CHECK(layout_plan_box(&p, org, ext, out, val, 2048, NULL) == LAYOUT_OK);
            for (int64_t i = 0; i < ext[0] * ext[1]; i++) {
                int64_t cc[2] = {org[0] + i / ext[1], org[1] + i % ext[1]}, ref = -1;
                layout_desc_offset(&x, cc, &ref, NULL);
                CHECK_EQ_I64(out[i], ref);
                CHECK(val[i] == 1);
            }
        }
    }
}

static void test_impl_choice(void)
{
    layout_descriptor d;
    layout_plan p;
    layout_error e;
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    CHECK(layout_plan_impl_available(LAYOUT_PLAN_SCALAR));
    CHECK(layout_plan_impl_available(LAYOUT_PLAN_AUTO));
    CHECK(!layout_plan_impl_available((layout_plan_impl)7));
    CHECK(strcmp(layout_plan_impl_name(LAYOUT_PLAN_AVX2), "avx2") == 0);
    CHECK(strcmp(layout_plan_impl_name((layout_plan_impl)9), "?") == 0);
    CHECK(layout_plan_build(&p, &d, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
    CHECK(p.impl == (avx2_here() ? LAYOUT_PLAN_AVX2 : LAYOUT_PLAN_SCALAR));
    CHECK(layout_plan_set_impl(&p, LAYOUT_PLAN_SCALAR, NULL) == LAYOUT_OK);
    CHECK(p.impl == LAYOUT_PLAN_SCALAR);
    layout_status st = layout_plan_set_impl(&p, LAYOUT_PLAN_AVX2, &e);
    CHECK(st == (avx2_here() ? LAYOUT_OK : LAYOUT_ERR_UNSUPPORTED));
    CHECK(layout_plan_set_impl(&p, (layout_plan_impl)5, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "layout_plan_set_impl: impl = 5");
    CHECK(layout_plan_build(&p, &d, (layout_plan_impl)-1, &e) == LAYOUT_ERR_ARG);
    /* values beyond int32: AVX2 refused, AUTO falls back to scalar, results exact */
    int64_t lens[2] = {3, 4}, strides[2] = {(int64_t)1 << 40, 3};
    CHECK(layout_naive(&d, 2, lens, strides, NULL) == LAYOUT_OK);
    CHECK(layout_plan_build(&p, &d, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
    CHECK(!p.fits_int32);
    CHECK(p.impl == LAYOUT_PLAN_SCALAR);
    if (avx2_here()) {
        CHECK(layout_plan_build(&p, &d, LAYOUT_PLAN_AVX2, &e) == LAYOUT_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(e.message, "int32");
        CHECK(layout_plan_build(&p, &d, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
        CHECK(layout_plan_set_impl(&p, LAYOUT_PLAN_AVX2, NULL) == LAYOUT_ERR_UNSUPPORTED);
        CHECK(p.impl == LAYOUT_PLAN_SCALAR);
    }
    CHECK(compare_all(&d, "int64 strides") == 0);
}

static void test_bad_input(void)
{
    layout_descriptor d;
    layout_plan p, before;
    layout_error e;
    int64_t out[8], c[2] = {0, 0}, off = 42;
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    CHECK(layout_plan_build(NULL, &d, LAYOUT_PLAN_AUTO, &e) == LAYOUT_ERR_NULL);
    CHECK_STR_CONTAINS(e.message, "layout_plan_build: out is NULL");
    CHECK(layout_plan_build(&p, NULL, LAYOUT_PLAN_AUTO, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_build(&p, &d, LAYOUT_PLAN_AUTO, &e) == LAYOUT_OK);
    CHECK(e.status == LAYOUT_OK && e.message[0] == 0);
    before = p;
    CHECK(layout_plan_set_impl(NULL, LAYOUT_PLAN_AUTO, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_offset(NULL, c, &off, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_offset(&p, NULL, &off, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_offset(&p, c, NULL, &e) == LAYOUT_ERR_NULL);
    c[1] = 32;
    CHECK(layout_plan_offset(&p, c, &off, &e) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "layout_plan_offset: coord[1] = 32 is outside 0..31");
    CHECK_EQ_I64(off, 42);
    c[1] = -1;
    CHECK(layout_plan_offset(&p, c, &off, &e) == LAYOUT_ERR_RANGE);
    int64_t org[2] = {0, 0}, ext[2] = {2, 4};
    CHECK(layout_plan_box(NULL, org, ext, out, NULL, 8, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_box(&p, NULL, ext, out, NULL, 8, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_box(&p, org, NULL, out, NULL, 8, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_box(&p, org, ext, NULL, NULL, 8, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_box(&p, org, ext, out, NULL, 7, &e) == LAYOUT_ERR_BUFFER);
    CHECK_STR_CONTAINS(e.message, "cap = 7");
    org[0] = 64;
    CHECK(layout_plan_box(&p, org, ext, out, NULL, 8, &e) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "origin[0] = 64");
    org[0] = 62;
    ext[0] = 3;
    CHECK(layout_plan_box(&p, org, ext, out, NULL, 8, &e) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "extent[0] = 3");
    ext[0] = -1;
    CHECK(layout_plan_box(&p, org, ext, out, NULL, 8, &e) == LAYOUT_ERR_RANGE);
    ext[0] = 0; /* empty box: fine, nothing written, NULL output allowed */
    CHECK(layout_plan_box(&p, org, ext, NULL, NULL, 0, &e) == LAYOUT_OK);
    CHECK(layout_plan_tile(NULL, out, NULL, 8, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_tile(&p, out, NULL, 8, &e) == LAYOUT_ERR_BUFFER);
    CHECK_STR_CONTAINS(e.message, "layout_plan_tile:");
    int64_t coords[4] = {1, 2, 70, 0};
    CHECK(layout_plan_offsets(NULL, 2, coords, out, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_offsets(&p, 2, NULL, out, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_plan_offsets(&p, 2, coords, NULL, NULL, &e) == LAYOUT_ERR_NULL);
    out[0] = -7;
    CHECK(layout_plan_offsets(&p, 2, coords, out, NULL, &e) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "coords[1][0] = 70");
    CHECK_EQ_I64(out[0], -7); /* nothing written */
    CHECK(layout_plan_offsets(&p, 0, NULL, NULL, NULL, &e) == LAYOUT_OK);
    CHECK(layout_plan_print(NULL, NULL, 0) == -1);
    CHECK(layout_plan_print(&p, NULL, 0) > 0);
    CHECK(memcmp(&p, &before, sizeof p) == 0);
}

/* Capacity: a chain of merges that needs more ops than a plan holds. */
static void test_capacity(void)
{
    layout_descriptor d, next;
    layout_transform t[1];
    int64_t lens[1] = {3}, strides[1] = {1};
    CHECK(layout_naive(&d, 1, lens, strides, NULL) == LAYOUT_OK);
    /* each stage: unmerge(3 -> 3 digits of 1.. ) then a modulo makes ops; alternate
     * xor keeps ops growing; stop when the descriptor itself is full */
    int stages = 0;
    for (; stages < 23; stages++) {
        CHECK(layout_make_modulo(2, 3, &t[0], NULL) == LAYOUT_OK);
        layout_seq lo[1] = {LAYOUT_SEQ(0)}, up[1] = {LAYOUT_SEQ(0)};
        if (layout_transform_descriptor(&next, &d, 1, t, lo, up, NULL)) break;
        d = next;
    }
    layout_plan p;
    CHECK(layout_plan_build(&p, &d, LAYOUT_PLAN_SCALAR, NULL) == LAYOUT_OK);
    CHECK(compare_all(&d, "modulo chain") == 0);
}

int main(void)
{
    RUN(test_seed_descriptors);
    RUN(test_edge_shapes);
    RUN(test_impl_choice);
    RUN(test_bad_input);
    RUN(test_capacity);
    RUN(test_random_compositions);
    return harness_finish("test_plan");
}
