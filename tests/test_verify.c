/* Verification: injectivity / bijectivity / contiguity against brute force
 * on the reference evaluator, known answers on the seed descriptors, the
 * static diagnostics, and bad input. */
#include "harness.h"
#include "layout.h"
#include "support/ref_eval.h"
#include "support/seed_lds.h"

static unsigned char workspace[1 << 16];

static layout_offset_report verify(const layout_descriptor *d)
{
    layout_offset_report r;
    layout_error e;
    memset(&r, 0xEE, sizeof r);
    layout_status st = layout_desc_verify_offsets(d, workspace, sizeof workspace, &r, &e);
    CHECK_MSG(st == LAYOUT_OK, "%s", e.message);
    return r;
}

static void test_seed_xor_layouts_are_bijections(void)
{
    static const int banks[2] = { 32, 64 };
    for (int b = 0; b < 2; b++)
        for (int row_mul = 1; row_mul <= 2; row_mul++) {
            layout_descriptor d;
            CHECK(seed_xor_mk(&d, banks[b], row_mul, 0) == LAYOUT_OK);
            size_t need = 0;
            CHECK(layout_desc_verify_workspace_size(&d, &need, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(need, 256);
            layout_offset_report r = verify(&d);
            CHECK_EQ_I64(r.n_coords, 2048);
            CHECK_EQ_I64(r.n_valid, 2048);
            CHECK_EQ_I64(r.min_offset, 0);
            CHECK_EQ_I64(r.max_offset, 2047);
            CHECK(r.injective && r.in_space && r.bijective);
            CHECK_EQ_I64(r.missing_offset, -1);
            int yes = -1;
            CHECK(layout_desc_is_bijective(&d, workspace, 256, &yes, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(yes, 1);
            CHECK(layout_desc_is_injective(&d, workspace, 256, &yes, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(yes, 1);
        }
}

static void test_seed_padded_layouts(void)
{
    layout_descriptor d;
    /* 05: XOR + pad, B stride 66: injective, in space, holes from offset 64 */
    CHECK(seed_xor_mk(&d, 32, 1, 1) == LAYOUT_OK);
    layout_offset_report r = verify(&d);
    CHECK(r.injective && r.in_space && !r.bijective);
    CHECK_EQ_I64(r.missing_offset, 64);
    /* 03: row stride 34 */
    CHECK(seed_03_mk(&d) == LAYOUT_OK);
    r = verify(&d);
    CHECK(r.injective && r.in_space && !r.bijective);
    CHECK_EQ_I64(r.missing_offset, 32);
    /* 01 and 02 read views are permutations */
    CHECK(seed_01_km(&d) == LAYOUT_OK);
    r = verify(&d);
    CHECK(r.bijective);
    CHECK(seed_02_mk(&d) == LAYOUT_OK);
    r = verify(&d);
    CHECK(r.bijective);
}

static void test_collisions_and_space(void)
{
    layout_descriptor d;
    int64_t lens[2] = { 2, 2 }, strides[2] = { 1, 1 };
    CHECK(layout_naive(&d, 2, lens, strides, NULL) == LAYOUT_OK);
    layout_offset_report r = verify(&d);
    CHECK(!r.injective && !r.bijective && r.in_space);
    CHECK_EQ_I64(r.collision_offset, 1);
    CHECK(r.collision_a[0] == 0 && r.collision_a[1] == 1);
    CHECK(r.collision_b[0] == 1 && r.collision_b[1] == 0);
    int yes = -1;
    CHECK(layout_desc_is_injective(&d, workspace, sizeof workspace, &yes, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(yes, 0);
    /* a base offset moves everything out of the element space */
    int64_t one = 2, unit = 1;
    CHECK(layout_naive_offset(&d, 1, &one, &unit, 10, NULL) == LAYOUT_OK);
    r = verify(&d);
    CHECK(r.injective && !r.in_space && !r.bijective);
    CHECK_EQ_I64(r.outside_coord[0], 0);
    CHECK_EQ_I64(r.min_offset, 10);
    size_t need = 0;
    CHECK(layout_desc_verify_workspace_size(&d, &need, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(need, 2); /* span 0..11 = 12 bits */
    /* padding: only valid coordinates count */
    int64_t three = 3;
    CHECK(layout_naive(&d, 1, &three, &unit, NULL) == LAYOUT_OK);
    layout_transform pad;
    layout_make_pad(3, 1, 1, &pad, NULL);
    layout_seq s0 = LAYOUT_SEQ(0);
    CHECK(layout_transform_descriptor(&d, &d, 1, &pad, &s0, &s0, NULL) == LAYOUT_OK);
    r = verify(&d);
    CHECK_EQ_I64(r.n_coords, 5);
    CHECK_EQ_I64(r.n_valid, 3);
    CHECK(r.bijective);
}

/* xor with a power-of-two modulus is a bijection; otherwise usually not */
static void test_xor_bijection_property(void)
{
    harness_rng rng = { 99 };
    for (long it = 0; it < harness_scaled(200); it++) {
        int64_t l0 = harness_range(&rng, 1, 24), l1 = (int64_t)1 << harness_range(&rng, 0, 5);
        int64_t lens[2] = { l0, l1 };
        layout_descriptor d;
        layout_transform x;
        CHECK(layout_packed(&d, 2, lens, NULL) == LAYOUT_OK);
        CHECK(layout_make_xor(l0, l1, &x, NULL) == LAYOUT_OK);
        layout_seq s = LAYOUT_SEQ(0, 1);
        CHECK(layout_transform_descriptor(&d, &d, 1, &x, &s, &s, NULL) == LAYOUT_OK);
        layout_offset_report r = verify(&d);
        CHECK_MSG(r.bijective, "xor(%" PRId64 ", %" PRId64 ")", l0, l1);
    }
    int64_t lens[2] = { 6, 6 };
    layout_descriptor d;
    layout_transform x;
    CHECK(layout_packed(&d, 2, lens, NULL) == LAYOUT_OK);
    CHECK(layout_make_xor(6, 6, &x, NULL) == LAYOUT_OK);
    layout_seq s = LAYOUT_SEQ(0, 1);
    CHECK(layout_transform_descriptor(&d, &d, 1, &x, &s, &s, NULL) == LAYOUT_OK);
    layout_offset_report r = verify(&d);
    CHECK(!r.bijective && !r.in_space); /* 5 ^ 2 = 7 leaves the row */
    int n = 0;
    layout_diagnostic dg;
    CHECK(layout_adaptor_diagnose(&d.adaptor, &dg, 1, &n, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(n, 1);
    CHECK(dg.kind == LAYOUT_DIAG_XOR_NOT_POW2 && dg.transform == 1 && dg.declared == 6);
    char buf[256];
    layout_diagnostic_print(&dg, &d.adaptor, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "t1 xor(6, 6): modulus 6 is not a power of two");
}

static layout_contiguity contiguity(const layout_descriptor *d, int dim)
{
    layout_contiguity c;
    memset(&c, 0xCD, sizeof c);
    CHECK(layout_desc_contiguity(d, dim, &c, NULL) == LAYOUT_OK);
    return c;
}

static void test_contiguity_known_answers(void)
{
    layout_descriptor d;
    int64_t lens[2] = { 4, 8 };
    CHECK(layout_packed(&d, 2, lens, NULL) == LAYOUT_OK);
    layout_contiguity c = contiguity(&d, 1);
    CHECK(c.vector_length == 8 && c.longest_run == 8 && !c.has_break);
    c = contiguity(&d, 0);
    CHECK(c.vector_length == 1 && c.longest_run == 1 && c.has_break);
    CHECK_EQ_I64(c.break_delta, 8);
    /* kernel 08: K really is vectorisable by 8 (ck_tile's hint agrees), M is not */
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    c = contiguity(&d, 1);
    CHECK_EQ_I64(c.vector_length, 8);
    CHECK_EQ_I64(c.longest_run, 32); /* rows whose xor key is 0 are contiguous end to end */
    c = contiguity(&d, 0);
    CHECK_EQ_I64(c.vector_length, 1);
    /* an XOR on the vector dim: ck_tile copies the hint (8, 1), the truth is 1 */
    int64_t sq[2] = { 8, 8 }, hl[2], hs[2];
    layout_transform x;
    CHECK(layout_packed(&d, 2, sq, NULL) == LAYOUT_OK);
    CHECK(layout_make_xor(8, 8, &x, NULL) == LAYOUT_OK);
    layout_seq s = LAYOUT_SEQ(0, 1);
    CHECK(layout_transform_descriptor(&d, &d, 1, &x, &s, &s, NULL) == LAYOUT_OK);
    CHECK(layout_desc_vector_hints(&d, hl, hs, NULL) == LAYOUT_OK);
    CHECK(hl[1] == 8 && hs[1] == 1);
    c = contiguity(&d, 1);
    CHECK_EQ_I64(c.vector_length, 1);
    CHECK_EQ_I64(c.break_coord[0], 1); /* row 1 is the first swizzled row */
    CHECK_EQ_I64(c.break_delta, -1);
    /* padding breaks runs: pad(3, 1, 1) -> valid 0 1 1 1 0 */
    int64_t three = 3, unit = 1;
    layout_transform pad;
    CHECK(layout_naive(&d, 1, &three, &unit, NULL) == LAYOUT_OK);
    layout_make_pad(3, 1, 1, &pad, NULL);
    layout_seq s0 = LAYOUT_SEQ(0);
    CHECK(layout_transform_descriptor(&d, &d, 1, &pad, &s0, &s0, NULL) == LAYOUT_OK);
    c = contiguity(&d, 0);
    CHECK(c.vector_length == 1 && c.longest_run == 3 && c.has_break && c.break_delta == 0);
}

/* ------------------------------------------- brute force on random layouts */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int64_t ref_space(const ref_desc *r)
{
    int64_t s = 1;
    for (int i = 0; i < r->n_base; i++) s = r->packed ? s * r->base_len[i] : s + (r->base_len[i] - 1) * r->base_stride[i];
    return s;
}

/* coordinate of linear index k (row-major) */
static void unravel(int nd, const int64_t *lengths, int64_t k, int64_t *c)
{
    for (int i = nd - 1; i >= 0; i--) {
        c[i] = k % lengths[i];
        k /= lengths[i];
    }
}

static void test_random_against_brute_force(void)
{
    uint64_t rng = 0xC0FFEEULL;
    long kinds[REF_KIND_COUNT] = { 0 }, checked = 0;
    static int64_t offs[2048], all_off[2048];
    static int valid[2048];
    for (long it = 0; it < harness_scaled(1500); it++) {
        ref_desc r;
        layout_descriptor d;
        ref_random(&rng, &r, kinds);
        if (ref_build(&r, &d, NULL) != LAYOUT_OK) {
            CHECK(0);
            continue;
        }
        int64_t lengths[REF_MAX], total = 1;
        int nd = ref_top_lengths(&r, lengths);
        for (int i = 0; i < nd; i++) total *= lengths[i];
        if (total > 2048) continue;
        int64_t n_valid = 0, c[REF_MAX], space = ref_space(&r);
        int in_space = 1;
        for (int64_t k = 0; k < total; k++) {
            unravel(nd, lengths, k, c);
            all_off[k] = ref_offset(&r, c, &valid[k]);
            if (!valid[k]) continue;
            offs[n_valid++] = all_off[k];
            if (all_off[k] < 0 || all_off[k] >= space) in_space = 0;
        }
        qsort(offs, (size_t)n_valid, sizeof offs[0], cmp_i64);
        int injective = 1;
        for (int64_t k = 1; k < n_valid; k++)
            if (offs[k] == offs[k - 1]) injective = 0;
        size_t need = 0;
        CHECK(layout_desc_verify_workspace_size(&d, &need, NULL) == LAYOUT_OK);
        if (need > sizeof workspace) continue;
        layout_offset_report rep = verify(&d);
        CHECK_EQ_I64(rep.n_valid, n_valid);
        CHECK_EQ_I64(rep.injective, injective);
        CHECK_EQ_I64(rep.in_space, in_space);
        CHECK_EQ_I64(rep.bijective, injective && in_space && n_valid == space);
        if (n_valid) {
            CHECK_EQ_I64(rep.min_offset, offs[0]);
            CHECK_EQ_I64(rep.max_offset, offs[n_valid - 1]);
        }
        if (!rep.injective) {
            int va, vb;
            CHECK_EQ_I64(ref_offset(&r, rep.collision_a, &va), rep.collision_offset);
            CHECK_EQ_I64(ref_offset(&r, rep.collision_b, &vb), rep.collision_offset);
            CHECK(va && vb && memcmp(rep.collision_a, rep.collision_b, sizeof(int64_t) * (size_t)nd) != 0);
        }
        /* contiguity by definition, every dim */
        for (int dim = 0; dim < nd; dim++) {
            int64_t len = lengths[dim], best_v = 1, longest = 0;
            for (int64_t v = len; v >= 1; v--) {
                if (len % v) continue;
                int ok = 1;
                for (int64_t k = 0; k < total && ok; k++) {
                    unravel(nd, lengths, k, c);
                    if (c[dim] % v) continue;
                    for (int64_t i = 0; i < v && ok; i++) {
                        int64_t kk = k, stride = 1;
                        for (int j = nd - 1; j > dim; j--) stride *= lengths[j];
                        kk = k + i * stride;
                        if (!valid[kk] || all_off[kk] != all_off[k] + i) ok = 0;
                    }
                }
                if (ok) {
                    best_v = v;
                    break;
                }
            }
            int64_t stride = 1;
            for (int j = nd - 1; j > dim; j--) stride *= lengths[j];
            for (int64_t k = 0; k < total; k++) {
                unravel(nd, lengths, k, c);
                if (c[dim] != 0) continue;
                int64_t run = 0;
                for (int64_t p = 0; p < len; p++) {
                    int64_t kk = k + p * stride;
                    if (!valid[kk]) run = 0;
                    else if (p > 0 && valid[kk - stride] && all_off[kk] == all_off[kk - stride] + 1) run++;
                    else run = 1;
                    if (run > longest) longest = run;
                }
            }
            layout_contiguity got = contiguity(&d, dim);
            CHECK_MSG(got.vector_length == best_v, "it %ld dim %d: %" PRId64 " != %" PRId64, it, dim,
                      got.vector_length, best_v);
            CHECK_EQ_I64(got.longest_run, longest);
        }
        checked++;
    }
    CHECK(checked > harness_scaled(1500) / 4);
}

static void test_diagnose_seed_08(void)
{
    layout_descriptor d;
    layout_diagnostic dg[4];
    int n = -1;
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    CHECK(layout_adaptor_diagnose(&d.adaptor, dg, 4, &n, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(n, 0);
    CHECK(seed_xor_mk(&d, 64, 1, 0) == LAYOUT_OK);
    CHECK(layout_adaptor_diagnose(&d.adaptor, dg, 4, &n, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(n, 0);
    /* RowMul 2 on 64 banks: the xor declares B = 32 over a dim of 16 */
    CHECK(seed_xor_mk(&d, 64, 2, 0) == LAYOUT_OK);
    CHECK(layout_adaptor_diagnose(&d.adaptor, dg, 4, &n, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(n, 2);
    CHECK(dg[0].kind == LAYOUT_DIAG_LENGTH_MISMATCH && dg[0].transform == 1 && dg[0].position == 0);
    CHECK(dg[0].hidden_id == 2 && dg[0].declared == 32 && dg[0].actual == 16);
    CHECK(dg[1].kind == LAYOUT_DIAG_LENGTH_MISMATCH && dg[1].transform == 4);
    CHECK(dg[1].hidden_id == 4 && dg[1].declared == 16 && dg[1].actual == 32);
    char buf[256];
    int len = layout_diagnostic_print(&dg[1], &d.adaptor, buf, sizeof buf);
    CHECK(len > 0 && (size_t)len == strlen(buf));
    CHECK_STR_CONTAINS(buf, "t4 pass_through(16): lower dim 0 (h4) declared length 16 but its producer declares 32");
    /* cap smaller than the count: count is the total, only cap written */
    layout_diagnostic one[1];
    memset(one, 0, sizeof one);
    CHECK(layout_adaptor_diagnose(&d.adaptor, one, 1, &n, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(n, 2);
    CHECK_EQ_I64(one[0].transform, 1);
    CHECK(layout_adaptor_diagnose(&d.adaptor, NULL, 0, &n, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(n, 2);
}

static void test_diagnose_freeze(void)
{
    layout_descriptor d;
    int64_t lens[2] = { 4, 8 };
    layout_transform t[2];
    CHECK(layout_packed(&d, 2, lens, NULL) == LAYOUT_OK);
    layout_make_freeze(5, &t[0], NULL);
    layout_make_pass_through(8, &t[1], NULL);
    layout_seq low[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1) }, up[2] = { LAYOUT_SEQ_EMPTY, LAYOUT_SEQ(0) };
    CHECK(layout_transform_descriptor(&d, &d, 2, t, low, up, NULL) == LAYOUT_OK);
    layout_diagnostic dg;
    int n = 0;
    CHECK(layout_adaptor_diagnose(&d.adaptor, &dg, 1, &n, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(n, 1);
    CHECK(dg.kind == LAYOUT_DIAG_FREEZE_RANGE && dg.declared == 5 && dg.actual == 4);
    char buf[128];
    layout_diagnostic_print(&dg, &d.adaptor, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "t1 freeze(5): value 5 is outside 0..3 of h1");
}

static void test_bad_input(void)
{
    layout_descriptor d;
    layout_error e;
    CHECK(seed_xor_mk(&d, 32, 1, 0) == LAYOUT_OK);
    layout_offset_report r, ref;
    memset(&r, 0x5A, sizeof r);
    ref = r;
    size_t need = 99;
    CHECK(layout_desc_verify_offsets(&d, workspace, 255, &r, &e) == LAYOUT_ERR_BUFFER);
    CHECK_STR_CONTAINS(e.message, "layout_desc_verify_offsets: workspace_bytes = 255 is less than the 256 bytes needed");
    CHECK(layout_desc_verify_offsets(&d, NULL, 256, &r, &e) == LAYOUT_ERR_NULL);
    CHECK_STR_CONTAINS(e.message, "workspace is NULL");
    CHECK(layout_desc_verify_offsets(NULL, workspace, 256, &r, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_desc_verify_offsets(&d, workspace, 256, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(memcmp(&r, &ref, sizeof r) == 0);
    int yes = 7;
    CHECK(layout_desc_is_injective(&d, workspace, 10, &yes, &e) == LAYOUT_ERR_BUFFER);
    CHECK_STR_CONTAINS(e.message, "layout_desc_is_injective");
    CHECK(layout_desc_is_bijective(&d, workspace, 10, &yes, &e) == LAYOUT_ERR_BUFFER);
    CHECK(layout_desc_is_bijective(&d, workspace, 256, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK_EQ_I64(yes, 7);
    CHECK(layout_desc_verify_workspace_size(NULL, &need, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_desc_verify_workspace_size(&d, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK_EQ_I64(need, 99);
    layout_contiguity c, cref;
    memset(&c, 0x21, sizeof c);
    cref = c;
    CHECK(layout_desc_contiguity(&d, 2, &c, &e) == LAYOUT_ERR_DIM_ID);
    CHECK_STR_CONTAINS(e.message, "layout_desc_contiguity: dim = 2 is not a top dim (0..1)");
    CHECK(layout_desc_contiguity(&d, -1, &c, &e) == LAYOUT_ERR_DIM_ID);
    CHECK(layout_desc_contiguity(NULL, 0, &c, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_desc_contiguity(&d, 0, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(memcmp(&c, &cref, sizeof c) == 0);
    int n = 42;
    layout_diagnostic dg;
    CHECK(layout_adaptor_diagnose(NULL, &dg, 1, &n, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_adaptor_diagnose(&d.adaptor, &dg, 1, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_adaptor_diagnose(&d.adaptor, &dg, -1, &n, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "cap = -1");
    CHECK(layout_adaptor_diagnose(&d.adaptor, NULL, 3, &n, &e) == LAYOUT_ERR_NULL);
    CHECK_EQ_I64(n, 42);
    char buf[16];
    CHECK(layout_diagnostic_print(NULL, &d.adaptor, buf, sizeof buf) < 0);
    CHECK(layout_diagnostic_print(&dg, NULL, buf, sizeof buf) < 0);
}

int main(void)
{
    RUN(test_seed_xor_layouts_are_bijections);
    RUN(test_seed_padded_layouts);
    RUN(test_collisions_and_space);
    RUN(test_xor_bijection_property);
    RUN(test_contiguity_known_answers);
    RUN(test_random_against_brute_force);
    RUN(test_diagnose_seed_08);
    RUN(test_diagnose_freeze);
    RUN(test_bad_input);
    return harness_finish("test_verify");
}
