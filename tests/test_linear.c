/* Linear layouts over F2 (linear.h): known answers from Triton's own tests,
 * algebra postconditions enumerated on small domains, descriptors and
 * distributions against their interpreters on every coordinate, the
 * closed-form conflict count against the exact checker on >= 10^5 random
 * linear accesses, the tile walk, and bad input. */
#include "harness.h"
#include "layout.h"
#include "../examples/seed_kernels.h"
#include "support/rand_desc.h"
#include "support/seed_lds.h"

static layout_linear mk(int n_in, const char *const *ins, const int *in_bits, const int64_t *bases, int n_out,
                        const char *const *outs, const int *out_bits)
{
    layout_linear l;
    layout_error e;
    layout_status st = layout_linear_from_bases(&l, n_in, ins, in_bits, bases, n_out, outs, out_bits, &e);
    CHECK_MSG(st == LAYOUT_OK, "from_bases: %s", e.message);
    return l;
}

/* Independent reference: apply by the definition (per dim values, XOR of the
 * listed bases), reading bases back through layout_linear_get_basis. */
static void ref_apply(const layout_linear *l, const int64_t *in, int64_t *out)
{
    for (int j = 0; j < l->n_out; j++) out[j] = 0;
    for (int i = 0; i < l->n_in; i++)
        for (int b = 0; b < l->in_bits[i]; b++)
            if ((in[i] >> b) & 1) {
                int64_t v[LAYOUT_LINEAR_MAX_DIMS];
                layout_linear_get_basis(l, i, b, v, NULL);
                for (int j = 0; j < l->n_out; j++) out[j] ^= v[j];
            }
}

/* ------------------------------------------------------------ known answers */

/* Triton unittest/Tools/LinearLayoutTest.cpp, TEST_F(LinearLayoutTest, Apply) */
static void test_triton_apply(void)
{
    const char *ins[2] = {"in1", "in2"}, *outs[2] = {"out1", "out2"};
    int ib[2] = {3, 2}, ob[2] = {3, 2};
    int64_t b[] = {4, 2, 2, 1, 1, 0, /* in2 */ 1, 2, 2, 1};
    layout_linear l = mk(2, ins, ib, b, 2, outs, ob);
    int64_t x[2], y[2];
    x[0] = 0, x[1] = 0;
    CHECK(layout_linear_apply(&l, x, y, NULL) == LAYOUT_OK && y[0] == 0 && y[1] == 0);
    x[0] = 1, x[1] = 0;
    layout_linear_apply(&l, x, y, NULL);
    CHECK(y[0] == 4 && y[1] == 2);
    x[0] = 0, x[1] = 1;
    layout_linear_apply(&l, x, y, NULL);
    CHECK(y[0] == 1 && y[1] == 2);
}

/* Triton LinearLayoutTest Compose: l1.compose(l2) and its non-surjectivity. */
static void test_triton_compose(void)
{
    const char *i1[2] = {"in1", "in2"}, *o1[2] = {"out1", "out2"};
    int b1[2] = {2, 2};
    int64_t v1[] = {1, 1, 0, 1, 1, 0, 1, 2};
    layout_linear l1 = mk(2, i1, b1, v1, 2, o1, NULL);
    CHECK(l1.out_bits[0] == 1 && l1.out_bits[1] == 2); /* Triton infers sizes 2 and 4 */
    const char *i2[2] = {"out1", "out2"}, *o2[2] = {"out3", "out4"};
    int b2[2] = {2, 2};
    int64_t v2[] = {2, 2, 1, 0, 1, 1, 2, 1};
    layout_linear l2 = mk(2, i2, b2, v2, 2, o2, NULL);
    layout_linear c;
    CHECK(layout_linear_compose(&c, &l1, &l2, NULL) == LAYOUT_OK);
    int ob[2] = {2, 2};
    int64_t vc[] = {3, 3, 1, 1, 2, 2, 0, 3};
    layout_linear want = mk(2, i1, b1, vc, 2, o2, ob);
    CHECK(layout_linear_equal(&c, &want));
    CHECK(!layout_linear_is_surjective(&c));
}

/* Triton LinearLayoutTest MultiplyIdentity / MultiplyDisjoint / MultiplyByZeros
 * / MultiplyOverlapping / TransposeOuts / TransposeIns / GetOutDimSizeLog2. */
static void test_triton_product_transpose(void)
{
    layout_linear a, b, p, want;
    layout_linear_identity(&a, "in", "out", 4, NULL);
    layout_linear_identity(&b, "in", "out", 5, NULL);
    CHECK(layout_linear_product(&p, &a, &b, NULL) == LAYOUT_OK);
    layout_linear_identity(&want, "in", "out", 9, NULL);
    CHECK(layout_linear_equal(&p, &want));

    layout_linear_identity(&a, "in1", "out1", 5, NULL);
    layout_linear_identity(&b, "in2", "out2", 4, NULL);
    layout_linear_product(&p, &a, &b, NULL);
    {
        const char *ins[2] = {"in1", "in2"}, *outs[2] = {"out1", "out2"};
        int ib[2] = {5, 4};
        int64_t v[] = {1, 0, 2, 0, 4, 0, 8, 0, 16, 0, 0, 1, 0, 2, 0, 4, 0, 8};
        want = mk(2, ins, ib, v, 2, outs, NULL);
        CHECK(layout_linear_equal(&p, &want));
        /* TransposeOuts: the same bases with the columns swapped */
        const char *swap[2] = {"out2", "out1"};
        layout_linear t;
        CHECK(layout_linear_transpose_outs(&t, &p, 2, swap, NULL) == LAYOUT_OK);
        int64_t vt[] = {0, 1, 0, 2, 0, 4, 0, 8, 0, 16, 1, 0, 2, 0, 4, 0, 8, 0};
        layout_linear wt = mk(2, ins, ib, vt, 2, swap, NULL);
        CHECK(layout_linear_equal(&t, &wt));
        /* TransposeIns */
        const char *iswap[2] = {"in2", "in1"};
        int ibs[2] = {4, 5};
        int64_t vi[] = {0, 1, 0, 2, 0, 4, 0, 8, 1, 0, 2, 0, 4, 0, 8, 0, 16, 0};
        CHECK(layout_linear_transpose_ins(&t, &p, 2, iswap, NULL) == LAYOUT_OK);
        layout_linear wi = mk(2, iswap, ibs, vi, 2, outs, NULL);
        CHECK(layout_linear_equal(&t, &wi));
    }
    /* MultiplyByZeros: identity1D(8) * zeros1D(16) on the same dims */
    {
        const char *ins[1] = {"in"}, *outs[1] = {"out"};
        int zb[1] = {4}, zo[1] = {0};
        int64_t z[4] = {0, 0, 0, 0};
        layout_linear zeros = mk(1, ins, zb, z, 1, outs, zo);
        layout_linear_identity(&a, "in", "out", 3, NULL);
        layout_linear_product(&p, &a, &zeros, NULL);
        int ib[1] = {7};
        int64_t v[7] = {1, 2, 4, 0, 0, 0, 0};
        want = mk(1, ins, ib, v, 1, outs, NULL);
        CHECK(layout_linear_equal(&p, &want));
    }
    /* MultiplyOverlapping: identity1D(4, in, out1) * identity1D(8, in, out2) */
    {
        layout_linear_identity(&a, "in", "out1", 2, NULL);
        layout_linear_identity(&b, "in", "out2", 3, NULL);
        layout_linear_product(&p, &a, &b, NULL);
        const char *ins[1] = {"in"}, *outs[2] = {"out1", "out2"};
        int ib[1] = {5};
        int64_t v[] = {1, 0, 2, 0, 0, 1, 0, 2, 0, 4};
        want = mk(1, ins, ib, v, 2, outs, NULL);
        CHECK(layout_linear_equal(&p, &want));
    }
    /* GetOutDimSizeLog2: in0 {0,0,0}, in1 {1,2} -> dim0 of size 4 */
    {
        const char *ins[2] = {"in0", "in1"}, *outs[1] = {"dim0"};
        int ib[2] = {3, 2};
        int64_t v[] = {0, 0, 0, 1, 2};
        layout_linear l = mk(2, ins, ib, v, 1, outs, NULL);
        CHECK(l.out_bits[0] == 2);
    }
}

/* Triton LinearLayoutTest InvertAndCompose_Simple / _NonInjective: the
 * inverse of in2 {4, 1, 2} maps out 1, 2, 4 to in2 2, 4, 1; the
 * pseudo-inverse of in2 {0, 2, 1, 4} maps out 1, 2, 4 to in2 4, 2, 8. */
static void test_triton_invert(void)
{
    const char *ins[1] = {"in2"}, *outs[1] = {"out"};
    int ib[1] = {3};
    int64_t v[3] = {4, 1, 2};
    layout_linear l = mk(1, ins, ib, v, 1, outs, NULL), inv, want;
    CHECK(layout_linear_invert(&inv, &l, NULL) == LAYOUT_OK);
    int64_t w[3] = {2, 4, 1};
    want = mk(1, outs, ib, w, 1, ins, NULL);
    CHECK(layout_linear_equal(&inv, &want));
    int ib4[1] = {4};
    int64_t v4[4] = {0, 2, 1, 4};
    l = mk(1, ins, ib4, v4, 1, outs, NULL);
    layout_error e;
    CHECK(layout_linear_invert(&inv, &l, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "not injective");
    CHECK(layout_linear_pseudo_invert(&inv, &l, NULL) == LAYOUT_OK);
    int64_t w4[3] = {4, 2, 8};
    int ob4[1] = {4};
    want = mk(1, outs, ib, w4, 1, ins, ob4);
    CHECK(layout_linear_equal(&inv, &want));
}

/* The printer follows Triton's LinearLayout::toString (lib/Tools/LinearLayout.cpp):
 * " - dim=1 -> (..)" then "   dim=2 -> (..)", size-1 dims, the out-dim list. */
static void test_print(void)
{
    const char *ins[3] = {"register", "lane", "warp"}, *outs[2] = {"dim0", "dim1"};
    int ib[3] = {2, 1, 0}, ob[2] = {1, 2};
    int64_t v[] = {0, 1, 0, 2, 1, 0};
    layout_linear l = mk(3, ins, ib, v, 2, outs, ob);
    char buf[512];
    int n = layout_linear_print(&l, buf, sizeof buf);
    const char *want = " - register=1 -> (0, 1)\n"
                       "   register=2 -> (0, 2)\n"
                       " - lane=1 -> (1, 0)\n"
                       " - warp is a size 1 dimension\n"
                       "where out dims are: [dim0 (size 2), dim1 (size 4)]";
    CHECK_MSG(strcmp(buf, want) == 0, "got:\n%s", buf);
    CHECK(n == (int)strlen(want));
    CHECK(layout_linear_print(&l, buf, 4) == n && strlen(buf) == 3);
    layout_linear e;
    layout_linear_init(&e, NULL);
    layout_linear_print(&e, buf, sizeof buf);
    CHECK(strcmp(buf, "(empty layout)") == 0); /* Triton's EmptyToString, without its leading newline */
    layout_linear_add_out_dim(&e, "offset", 3, NULL);
    layout_linear_print(&e, buf, sizeof buf);
    CHECK(strcmp(buf, "(empty layout with out-dims [offset (size 8)])") == 0);
    CHECK(layout_linear_print(NULL, buf, sizeof buf) == -1);
}

/* ------------------------------------------------------------ algebra on small domains */

static layout_linear random_layout(harness_rng *r, int max_in_dims, int max_bits)
{
    static const char *names[4] = {"a", "b", "c", "d"};
    static const char *onames[3] = {"x", "y", "z"};
    layout_linear l;
    layout_linear_init(&l, NULL);
    int n_in = (int)harness_range(r, 1, max_in_dims), n_out = (int)harness_range(r, 1, 3);
    for (int i = 0; i < n_in; i++) layout_linear_add_in_dim(&l, names[i], (int)harness_range(r, 0, max_bits), NULL);
    for (int j = 0; j < n_out; j++) layout_linear_add_out_dim(&l, onames[j], (int)harness_range(r, 0, max_bits), NULL);
    for (int i = 0; i < n_in; i++)
        for (int b = 0; b < l.in_bits[i]; b++) {
            int64_t v[3];
            for (int j = 0; j < n_out; j++) {
                int64_t lim = ((int64_t)1 << l.out_bits[j]) - 1;
                int kind = (int)harness_range(r, 0, 3);
                v[j] = kind == 0 ? 0 : kind == 1 ? (l.out_bits[j] ? (int64_t)1 << harness_range(r, 0, l.out_bits[j] - 1) : 0)
                                              : harness_range(r, 0, lim);
            }
            layout_linear_set_basis(&l, i, b, v, NULL);
        }
    return l;
}

/* a random bijective layout: unit bases mixed by random column operations,
 * input and output bits split into up to 3 dims each */
static layout_linear random_bijective(harness_rng *r)
{
    static const char *names[3] = {"a", "b", "c"}, *onames[3] = {"x", "y", "z"};
    layout_linear l;
    layout_linear_init(&l, NULL);
    int B = (int)harness_range(r, 1, 10), left = B;
    for (int i = 0; i < 3 && left >= 0; i++) {
        int k = i == 2 ? left : (int)harness_range(r, 0, left);
        layout_linear_add_in_dim(&l, names[i], k, NULL);
        left -= k;
    }
    left = B;
    for (int j = 0; j < 3; j++) {
        int k = j == 2 ? left : (int)harness_range(r, 0, left);
        layout_linear_add_out_dim(&l, onames[j], k, NULL);
        left -= k;
    }
    for (int b = 0; b < B; b++) l.bases[b] = (uint64_t)1 << b;
    for (int k = 0; k < 3 * B; k++) {
        int a = (int)harness_range(r, 0, B - 1), c = (int)harness_range(r, 0, B - 1);
        if (a != c) l.bases[a] ^= l.bases[c];
    }
    return l;
}

/* enumerate every input of l: count distinct images (outputs packed by the test) */
static void brute_props(const layout_linear *l, int *inj, int *surj)
{
    static uint8_t seen[1 << 16];
    int tin = l->total_in_bits, tout = l->total_out_bits;
    memset(seen, 0, (size_t)1 << tout);
    int64_t distinct = 0;
    for (int64_t p = 0; p < ((int64_t)1 << tin); p++) {
        int64_t in[LAYOUT_LINEAR_MAX_DIMS], out[LAYOUT_LINEAR_MAX_DIMS];
        int64_t rest = p;
        for (int i = 0; i < l->n_in; i++) in[i] = rest & ((1 << l->in_bits[i]) - 1), rest >>= l->in_bits[i];
        ref_apply(l, in, out);
        int64_t key = 0;
        for (int j = l->n_out - 1; j >= 0; j--) key = (key << l->out_bits[j]) | out[j];
        if (!seen[key]) seen[key] = 1, distinct++;
    }
    *inj = distinct == ((int64_t)1 << tin);
    *surj = distinct == ((int64_t)1 << tout);
}

static void unpack_in(const layout_linear *l, int64_t p, int64_t *in)
{
    for (int i = 0; i < l->n_in; i++) in[i] = p & ((1 << l->in_bits[i]) - 1), p >>= l->in_bits[i];
}
static void unpack_out_as_in(const layout_linear *l, int64_t p, int64_t *v)
{
    for (int j = 0; j < l->n_out; j++) v[j] = p & ((1 << l->out_bits[j]) - 1), p >>= l->out_bits[j];
}

static void test_algebra_random(void)
{
    harness_rng r = {0x51ed};
    int n_inj = 0, n_surj = 0, n_inv = 0, n_comp = 0;
    for (long it = 0; it < harness_scaled(3000); it++) {
        layout_linear l = it % 4 == 3 ? random_bijective(&r) : random_layout(&r, 3, 4);
        if (l.total_in_bits > 12 || l.total_out_bits > 12) continue;
        int inj, surj;
        brute_props(&l, &inj, &surj);
        CHECK(layout_linear_is_injective(&l) == inj);
        CHECK(layout_linear_is_surjective(&l) == surj);
        CHECK(layout_linear_is_bijective(&l) == (inj && surj));
        n_inj += inj, n_surj += surj;
        /* apply = reference on every input */
        for (int64_t p = 0; p < ((int64_t)1 << l.total_in_bits); p++) {
            int64_t in[8], a[8], b[8];
            unpack_in(&l, p, in);
            CHECK(layout_linear_apply(&l, in, a, NULL) == LAYOUT_OK);
            ref_apply(&l, in, b);
            for (int j = 0; j < l.n_out; j++) CHECK(a[j] == b[j]);
        }
        if (surj) {
            layout_linear pi, back;
            CHECK(layout_linear_pseudo_invert(&pi, &l, NULL) == LAYOUT_OK);
            /* l(pi(y)) = y for every y (enumerated) */
            for (int64_t y = 0; y < ((int64_t)1 << l.total_out_bits); y++) {
                int64_t yv[8], x[8], yy[8];
                unpack_out_as_in(&l, y, yv);
                layout_linear_apply(&pi, yv, x, NULL);
                ref_apply(&l, x, yy);
                for (int j = 0; j < l.n_out; j++) CHECK(yy[j] == yv[j]);
            }
            if (inj) {
                CHECK(layout_linear_invert(&back, &l, NULL) == LAYOUT_OK);
                CHECK(layout_linear_equal(&back, &pi));
                /* inverse of the inverse is the layout; x -> l -> inv is the identity */
                layout_linear twice, id;
                CHECK(layout_linear_invert(&twice, &back, NULL) == LAYOUT_OK && layout_linear_equal(&twice, &l));
                CHECK(layout_linear_compose(&id, &l, &back, NULL) == LAYOUT_OK);
                for (int64_t p = 0; p < ((int64_t)1 << l.total_in_bits); p++) {
                    int64_t in[8], o[8];
                    unpack_in(&l, p, in);
                    layout_linear_apply(&id, in, o, NULL);
                    for (int i = 0; i < l.n_in; i++) CHECK(o[i] == in[i]);
                }
                n_inv++;
            }
        } else {
            layout_linear pi;
            layout_error e;
            CHECK(layout_linear_pseudo_invert(&pi, &l, &e) == LAYOUT_ERR_ARG);
            CHECK_STR_CONTAINS(e.message, "not surjective");
        }
        /* compose with a random second layout whose input dims are l's output dims */
        layout_linear s;
        layout_linear_init(&s, NULL);
        for (int j = 0; j < l.n_out; j++)
            layout_linear_add_in_dim(&s, l.out_names[j], l.out_bits[j] + (int)harness_range(&r, 0, 1), NULL);
        int n_out2 = (int)harness_range(&r, 1, 2);
        layout_linear_add_out_dim(&s, "p", (int)harness_range(&r, 0, 4), NULL);
        if (n_out2 == 2) layout_linear_add_out_dim(&s, "q", (int)harness_range(&r, 0, 4), NULL);
        for (int i = 0; i < s.n_in; i++)
            for (int b = 0; b < s.in_bits[i]; b++) {
                int64_t v[2];
                for (int j = 0; j < s.n_out; j++) v[j] = harness_range(&r, 0, ((int64_t)1 << s.out_bits[j]) - 1);
                layout_linear_set_basis(&s, i, b, v, NULL);
            }
        layout_linear c;
        CHECK(layout_linear_compose(&c, &l, &s, NULL) == LAYOUT_OK);
        for (int64_t p = 0; p < ((int64_t)1 << l.total_in_bits); p++) {
            int64_t in[8], mid[8], want[8], got[8];
            unpack_in(&l, p, in);
            ref_apply(&l, in, mid);
            ref_apply(&s, mid, want);
            layout_linear_apply(&c, in, got, NULL);
            for (int j = 0; j < s.n_out; j++) CHECK(got[j] == want[j]);
        }
        n_comp++;
    }
    /* the generator must reach every branch (rates at full scale: see LAYOUT_TEST_VERBOSE) */
    long runs = harness_scaled(3000);
    CHECK_MSG(n_inj > runs / 60 && n_surj > runs / 60 && n_inv > runs / 8 && n_comp > runs / 6,
              "%d injective, %d surjective, %d inverted, %d composed of %ld", n_inj, n_surj, n_inv, n_comp, runs);
    if (getenv("LAYOUT_TEST_VERBOSE"))
        fprintf(stderr, "  algebra: %d injective, %d surjective, %d inverted, %d composed of %ld\n", n_inj, n_surj,
                n_inv, n_comp, runs);
}

/* ------------------------------------------------------------ descriptors */

/* Independent reference: is d F2-linear? (power-of-two lengths, all valid,
 * offset(x) = XOR of the unit offsets for every coordinate x) */
static int ref_desc_linear(const layout_descriptor *d)
{
    int n = layout_desc_ndims(d);
    int64_t len[LAYOUT_MAX_DIMS], unit[LAYOUT_MAX_DIMS][64];
    for (int i = 0; i < n; i++) {
        len[i] = layout_desc_length(d, i);
        if (len[i] & (len[i] - 1)) return 0;
    }
    for (int i = 0; i < n; i++)
        for (int b = 0; (int64_t)1 << b < len[i]; b++) {
            int64_t c[LAYOUT_MAX_DIMS] = {0};
            c[i] = (int64_t)1 << b;
            layout_desc_offset(d, c, &unit[i][b], NULL);
            if (unit[i][b] < 0) return 0;
        }
    int64_t size = layout_desc_size(d), c[LAYOUT_MAX_DIMS] = {0};
    for (int64_t k = 0; k < size; k++) {
        int64_t want = 0, got;
        int valid;
        for (int i = 0; i < n; i++)
            for (int b = 0; (int64_t)1 << b < len[i]; b++)
                if ((c[i] >> b) & 1) want ^= unit[i][b];
        layout_desc_offset(d, c, &got, NULL);
        layout_desc_is_valid(d, c, &valid, NULL);
        if (!valid || got != want) return 0;
        for (int i = n - 1; i >= 0 && ++c[i] == len[i]; i--) c[i] = 0;
    }
    return 1;
}

/* linear form == descriptor on every coordinate (apply and the tile walk) */
static int same_as_desc(const layout_linear *l, const layout_descriptor *d)
{
    static int64_t tile[1 << 16];
    int n = layout_desc_ndims(d), bad = 0;
    int64_t size = layout_desc_size(d), c[LAYOUT_MAX_DIMS] = {0};
    if (l->n_in != n || l->n_out != 1 || size > (1 << 16)) return 0;
    if (layout_linear_tile_offsets(l, tile, (size_t)size, NULL) != LAYOUT_OK) return 0;
    for (int64_t k = 0; k < size; k++) {
        int64_t want, got;
        layout_desc_offset(d, c, &want, NULL);
        layout_linear_apply(l, c, &got, NULL);
        bad += got != want || tile[k] != want;
        for (int i = n - 1; i >= 0 && ++c[i] == layout_desc_length(d, i); i--) c[i] = 0;
    }
    return bad == 0;
}

/* the descriptor's text form parses back to the same offsets (stage-form descriptors only) */
static int text_round_trip(const layout_linear *l, const layout_descriptor *d)
{
    static char buf[8192];
    layout_descriptor again;
    size_t where;
    if (layout_desc_to_text(d, buf, sizeof buf, NULL) != LAYOUT_OK) return 0;
    if (layout_desc_from_text(buf, &again, &where, NULL) != LAYOUT_OK) return 0;
    return same_as_desc(l, &again);
}

static void test_desc_seed(void)
{
    layout_descriptor d, back;
    layout_linear l;
    layout_error e;
    char buf[4096];
    /* kernel 08 (32 and 64 banks): linear, equal to the closed form of docs/lds-model.md §4.2 */
    for (int nb = 32; nb <= 64; nb += 32) {
        CHECK(seed_xor_mk(&d, nb, 1, 0) == LAYOUT_OK);
        CHECK_MSG(layout_desc_to_linear(&d, &l, &e) == LAYOUT_OK, "%s", e.message);
        CHECK(l.n_in == 2 && l.in_bits[0] == 6 && l.in_bits[1] == 5 && strcmp(l.out_names[0], "offset") == 0);
        CHECK(l.out_bits[0] == 11 && layout_linear_is_bijective(&l));
        for (int64_t m = 0; m < 64; m++)
            for (int64_t k = 0; k < 32; k++) {
                int64_t c[2] = {m, k}, o;
                layout_linear_apply(&l, c, &o, NULL);
                CHECK(o == seed_xor_closed_form(m, k, nb, 0));
            }
        CHECK(same_as_desc(&l, &d));
        /* round trip through layout_linear_to_desc, then a plan */
        CHECK_MSG(layout_linear_to_desc(&l, &back, &e) == LAYOUT_OK, "%s", e.message);
        CHECK(same_as_desc(&l, &back));
        CHECK(text_round_trip(&l, &back)); /* kernel 08 has the stage form: naive, xor, merge */
        layout_plan p;
        CHECK(layout_plan_build(&p, &back, LAYOUT_PLAN_AUTO, NULL) == LAYOUT_OK);
        int64_t c[2] = {2, 0}, o = -1;
        CHECK(layout_plan_offset(&p, c, &o, NULL) == LAYOUT_OK && o == seed_xor_closed_form(2, 0, nb, 0));
        CHECK(layout_desc_print(&back, buf, sizeof buf) > 0);
        layout_linear again;
        CHECK(layout_desc_to_linear(&back, &again, NULL) == LAYOUT_OK && layout_linear_equal(&again, &l));
    }
    /* Triton's view of a shared layout: (offset, block) -> (dim0, dim1, block), the inverse of
     * ours; inverting it back gives (dim0, dim1, block) -> (offset, block of size 1), which
     * layout_linear_to_desc and the tile walk accept (the size-1 dims are ignored) */
    {
        layout_linear ours, shared, blk, shared_b, back2;
        seed_xor_mk(&d, 32, 1, 0);
        layout_desc_to_linear(&d, &ours, NULL);
        CHECK(layout_linear_invert(&shared, &ours, NULL) == LAYOUT_OK);
        CHECK(strcmp(shared.in_names[0], "offset") == 0 && strcmp(shared.out_names[1], "dim1") == 0);
        layout_linear_identity(&blk, "block", "block", 0, NULL);
        CHECK(layout_linear_product(&shared_b, &shared, &blk, NULL) == LAYOUT_OK);
        CHECK(layout_linear_invert(&back2, &shared_b, NULL) == LAYOUT_OK);
        CHECK(back2.n_in == 3 && back2.n_out == 2 && back2.out_bits[1] == 0);
        CHECK_MSG(layout_linear_to_desc(&back2, &back, &e) == LAYOUT_OK, "%s", e.message);
        CHECK(layout_desc_ndims(&back) == 3 && layout_desc_length(&back, 2) == 1);
        for (int64_t m = 0; m < 64; m++)
            for (int64_t k = 0; k < 32; k++) {
                int64_t c[3] = {m, k, 0}, o;
                layout_desc_offset(&back, c, &o, NULL);
                CHECK(o == seed_xor_closed_form(m, k, 32, 0));
            }
        static int64_t tile[2048];
        CHECK(layout_linear_tile_offsets(&back2, tile, 2048, NULL) == LAYOUT_OK && tile[2 * 32] == 72);
    }
    /* 01 and 02 (plain strides 1, 32, 64) are linear; 03 (row stride 34) and 05 (33) are not */
    CHECK(seed_01_mk(&d) == LAYOUT_OK && layout_desc_to_linear(&d, &l, NULL) == LAYOUT_OK && same_as_desc(&l, &d));
    CHECK(seed_02_km(&d) == LAYOUT_OK && layout_desc_to_linear(&d, &l, NULL) == LAYOUT_OK && same_as_desc(&l, &d));
    CHECK(seed_03_mk(&d) == LAYOUT_OK);
    CHECK(layout_desc_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "not linear over F2");
    CHECK_STR_CONTAINS(e.message, "stride 34 of dim 0 is not a power of two");
    CHECK(seed_xor_mk(&d, 32, 1, 1) == LAYOUT_OK);
    CHECK(layout_desc_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "stride 66 of dim 1"); /* (kK + 1) * L with L = 2 */
    /* a pad stage: named, and the reason given */
    int64_t len4[1] = {30};
    layout_transform t;
    layout_packed(&d, 1, len4, NULL);
    layout_make_pad(30, 2, 0, &t, NULL);
    layout_seq lo[1] = {LAYOUT_SEQ(0)}, up[1] = {LAYOUT_SEQ(0)};
    CHECK(layout_transform_descriptor(&d, &d, 1, &t, lo, up, NULL) == LAYOUT_OK);
    CHECK(layout_desc_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "pad(30, 2, 0)");
    CHECK_STR_CONTAINS(e.message, "padding is not linear");
    /* right_pad(7, 0) pads nothing, yet rejects the values 8 and 12 an embed above it feeds it
     * (found by fuzz_linear): refused, as the reference says */
    {
        int64_t l7[1] = {7}, s2[1] = {2}, l41[2] = {4, 1}, c41[2] = {4, 1}, m14[2] = {1, 4};
        layout_naive(&d, 1, l7, s2, NULL);
        layout_make_right_pad(7, 0, &t, NULL);
        layout_seq a0[1] = {LAYOUT_SEQ(0)};
        CHECK(layout_transform_descriptor(&d, &d, 1, &t, a0, a0, NULL) == LAYOUT_OK);
        layout_make_embed(2, l41, c41, &t, NULL);
        layout_seq e_up[1] = {LAYOUT_SEQ(0, 1)};
        CHECK(layout_transform_descriptor(&d, &d, 1, &t, a0, e_up, NULL) == LAYOUT_OK);
        layout_make_merge(2, m14, &t, NULL);
        layout_seq m_lo[1] = {LAYOUT_SEQ(1, 0)};
        CHECK(layout_transform_descriptor(&d, &d, 1, &t, m_lo, a0, NULL) == LAYOUT_OK);
        CHECK(layout_desc_length(&d, 0) == 4 && !ref_desc_linear(&d));
        CHECK(layout_desc_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    }
    /* a top length that is not a power of two */
    int64_t len3[2] = {4, 3};
    layout_packed(&d, 2, len3, NULL);
    CHECK(layout_desc_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "top length 3 of dim 1 is not a power of two");
    /* an affine base offset */
    int64_t l8[1] = {8}, s1[1] = {1};
    layout_naive_offset(&d, 1, l8, s1, 16, NULL);
    CHECK(layout_desc_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "affine");
    /* the exhaustive fallback: stride 3 on a 1-bit dim is linear (image 3) though the proof refuses it */
    int64_t l2[2] = {2, 4}, s3[2] = {3 * 4, 1};
    layout_naive(&d, 2, l2, s3, NULL);
    CHECK_MSG(layout_desc_to_linear(&d, &l, &e) == LAYOUT_OK, "%s", e.message);
    CHECK(l.bases[0] == 12 && l.bases[1] == 1 && l.bases[2] == 2 && same_as_desc(&l, &d));
    /* beyond 2^16 coordinates only the proof decides: a 512 x 512 packed tile is proved, ... */
    int64_t big[2] = {512, 512};
    layout_packed(&d, 2, big, NULL);
    CHECK(layout_desc_to_linear(&d, &l, NULL) == LAYOUT_OK && l.out_bits[0] == 18 && layout_linear_is_bijective(&l));
    for (int k = 0; k < 1000; k++) {
        int64_t c[2] = {(k * 37) % 512, (k * 101) % 512}, want, got;
        layout_desc_offset(&d, c, &want, NULL);
        layout_linear_apply(&l, c, &got, NULL);
        CHECK(got == want);
    }
    /* ... rows of 513 are refused by the proof, and so is the linear-but-unproved stride 3 * 2^16 */
    int64_t s513[2] = {513, 1};
    layout_naive(&d, 2, big, s513, NULL);
    CHECK(layout_desc_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "stride 513 of dim 0");
    int64_t lw[2] = {2, 65536}, sw[2] = {3 * 65536, 1};
    layout_naive(&d, 2, lw, sw, NULL);
    CHECK(layout_desc_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "stride 196608 of dim 0 is not a power of two");
    /* offsets beyond 62 bits */
    int64_t l1[1] = {2}, shuge[1] = {(int64_t)1 << 62};
    CHECK(layout_naive(&d, 1, l1, shuge, NULL) == LAYOUT_OK);
    CHECK(layout_desc_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "offsets reach 2^62");
    CHECK(layout_desc_to_linear(NULL, &l, NULL) == LAYOUT_ERR_NULL);
    CHECK(layout_desc_to_linear(&d, NULL, NULL) == LAYOUT_ERR_NULL);
}

static void test_desc_random(void)
{
    rd_rng r = {0x11ea};
    long want = harness_scaled(3000), done = 0, n_lin = 0, n_round = 0, n_nonlin = 0, n_text = 0;
    for (long tries = 0; done < want && tries < want * 20; tries++) {
        layout_descriptor d;
        if (!rd_random_desc(&r, 3, 1 << 12, &d)) continue;
        done++;
        layout_linear l;
        layout_error e;
        layout_status st = layout_desc_to_linear(&d, &l, &e);
        int ref = ref_desc_linear(&d);
        CHECK_MSG((st == LAYOUT_OK) == ref, "desc_to_linear %d, reference %d: %s", st, ref, e.message);
        if (st == LAYOUT_OK) {
            n_lin++;
            CHECK(same_as_desc(&l, &d));
            layout_descriptor back;
            if (layout_linear_to_desc(&l, &back, &e) == LAYOUT_OK) {
                n_round++;
                CHECK(same_as_desc(&l, &back));
                n_text += text_round_trip(&l, &back);
            } else {
                CHECK_MSG(e.status == LAYOUT_ERR_UNSUPPORTED || e.status == LAYOUT_ERR_CAPACITY, "%s", e.message);
            }
        } else {
            n_nonlin++;
            CHECK(st == LAYOUT_ERR_UNSUPPORTED);
            CHECK_STR_CONTAINS(e.message, "not linear over F2");
        }
    }
    CHECK_MSG(n_lin > want / 20 && n_nonlin > want / 20 && n_round > n_lin / 4, "%ld linear, %ld not, %ld round trips",
              n_lin, n_nonlin, n_round);
    if (getenv("LAYOUT_TEST_VERBOSE"))
        fprintf(stderr, "  random descriptors: %ld linear (%ld round trips, %ld with a text form), %ld not\n", n_lin,
                n_round, n_text, n_nonlin);
}

/* A random bijective layout made of xor swizzles on a row-major base: every
 * one must survive layout_linear_to_desc. */
static void test_to_desc_random(void)
{
    harness_rng r = {0x70de5c};
    int ok = 0;
    for (long it = 0; it < harness_scaled(400); it++) {
        int rb = (int)harness_range(&r, 1, 6), cb = (int)harness_range(&r, 1, 6);
        layout_linear l;
        layout_linear_init(&l, NULL);
        layout_linear_add_in_dim(&l, "dim0", rb, NULL);
        layout_linear_add_in_dim(&l, "dim1", cb, NULL);
        layout_linear_add_out_dim(&l, "offset", rb + cb, NULL);
        int vec = (int)harness_range(&r, 0, cb - 1), phase_lo = (int)harness_range(&r, 0, rb - 1);
        for (int b = 0; b < cb; b++) l.bases[b + rb * 0 + 0] = 0;
        /* column bits: identity at bits 0..cb-1; row bits at cb.. plus a swizzle of bits above vec */
        for (int b = 0; b < rb; b++) {
            uint64_t v = (uint64_t)1 << (cb + b);
            int tgt = vec + (b - phase_lo);
            if (b >= phase_lo && tgt < cb) v |= (uint64_t)1 << tgt;
            l.bases[b] = v;
        }
        for (int b = 0; b < cb; b++) l.bases[rb + b] = (uint64_t)1 << b;
        layout_descriptor d;
        layout_error e;
        CHECK_MSG(layout_linear_to_desc(&l, &d, &e) == LAYOUT_OK, "%s", e.message);
        if (e.status) continue;
        CHECK(same_as_desc(&l, &d));
        CHECK(text_round_trip(&l, &d)); /* swizzles take the stage form */
        ok++;
    }
    CHECK(ok == harness_scaled(400));
    /* limits: two output dims, dependent bases, overlapping reduced bases */
    layout_linear l;
    layout_descriptor d;
    layout_error e;
    const char *ins[1] = {"dim0"}, *two[2] = {"a", "b"}, *one[1] = {"offset"};
    int ib[1] = {2};
    int64_t v2[4] = {1, 0, 0, 1};
    l = mk(1, ins, ib, v2, 2, two, NULL);
    CHECK(layout_linear_to_desc(&l, &d, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "2 output dims");
    int64_t dep[2] = {3, 3};
    l = mk(1, ins, ib, dep, 1, one, NULL);
    CHECK(layout_linear_to_desc(&l, &d, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "dependent");
    int ib3[1] = {2};
    int64_t ov[2] = {3, 5}; /* reduced: 5 and 6 share bit 2 after elimination? both keep bit 0 or 1 */
    l = mk(1, ins, ib3, ov, 1, one, NULL);
    layout_status st = layout_linear_to_desc(&l, &d, &e);
    if (st == LAYOUT_OK) CHECK(same_as_desc(&l, &d));
    else CHECK_STR_CONTAINS(e.message, "shares output bits");
    /* broadcast: a zero basis and a size-1 dim */
    const char *ins3[3] = {"dim0", "dim1", "dim2"};
    int ib0[3] = {2, 0, 1};
    int64_t bz[3] = {1, 0, 2};
    l = mk(3, ins3, ib0, bz, 1, one, NULL);
    CHECK_MSG(layout_linear_to_desc(&l, &d, &e) == LAYOUT_OK, "%s", e.message);
    CHECK(same_as_desc(&l, &d));
    /* a wide dim (12 bits, nested merges) and more than 8 leaves */
    layout_linear_identity(&l, "dim0", "offset", 12, NULL);
    CHECK_MSG(layout_linear_to_desc(&l, &d, &e) == LAYOUT_OK, "%s", e.message);
    CHECK(same_as_desc(&l, &d));
    /* capacity: a dense 12-bit map needs more xor steps than transforms */
    {
        harness_rng r = {99};
        layout_linear dense;
        layout_linear_identity(&dense, "dim0", "offset", 12, NULL);
        for (int k = 0; k < 200; k++) { /* random column operations keep it bijective */
            int a = (int)harness_range(&r, 0, 11), b = (int)harness_range(&r, 0, 11);
            if (a != b) dense.bases[a] ^= dense.bases[b];
        }
        CHECK(layout_linear_is_bijective(&dense));
        CHECK(layout_linear_to_desc(&dense, &d, &e) == LAYOUT_ERR_CAPACITY);
        CHECK_STR_CONTAINS(e.message, "xor steps");
        /* 5 dims of 8 bits: 40 leaves + 5 merges + embeds exceed 48 hidden dims */
        const char *n5[5] = {"d0", "d1", "d2", "d3", "d4"};
        int b5[5] = {8, 8, 8, 8, 8};
        static int64_t v5[40];
        for (int k = 0; k < 40; k++) v5[k] = (int64_t)1 << k;
        l = mk(5, n5, b5, v5, 1, one, NULL); /* the stage form takes it: 5 fields */
        CHECK_MSG(layout_linear_to_desc(&l, &d, &e) == LAYOUT_OK, "%s", e.message);
        for (int k = 0; k < 40; k++) v5[k] = (int64_t)1 << ((k & ~7) + 7 - (k & 7)); /* bits reversed per dim */
        l = mk(5, n5, b5, v5, 1, one, NULL); /* 40 fields: the network, which exceeds 48 hidden dims */
        CHECK(layout_linear_to_desc(&l, &d, &e) == LAYOUT_ERR_CAPACITY);
        CHECK_STR_CONTAINS(e.message, "hidden dims");
        /* 65 leaves: more than 8 embeds of 8 */
        const char *n3[3] = {"a", "b", "c"};
        int b3[3] = {62, 2, 0};
        static int64_t v3[64];
        memset(v3, 0, sizeof v3);
        v3[62] = 1, v3[63] = 2;
        l = mk(3, n3, b3, v3, 1, one, NULL);
        CHECK(layout_linear_to_desc(&l, &d, &e) == LAYOUT_ERR_CAPACITY);
        CHECK_STR_CONTAINS(e.message, "embeds");
    }
    /* a 12-bit dim outside the stage form (bit 11 also flips bits 0 and 1): the network, nested merges */
    layout_linear_identity(&l, "dim0", "offset", 12, NULL);
    l.bases[11] |= 3;
    CHECK_MSG(layout_linear_to_desc(&l, &d, &e) == LAYOUT_OK, "%s", e.message);
    CHECK(same_as_desc(&l, &d));
    CHECK(layout_desc_to_text(&d, (char[64]){0}, 64, NULL) == LAYOUT_ERR_UNSUPPORTED); /* no text form */
    CHECK(layout_linear_to_desc(NULL, &d, NULL) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_to_desc(&l, NULL, NULL) == LAYOUT_ERR_NULL);
    layout_linear empty;
    layout_linear_init(&empty, NULL);
    layout_linear_add_out_dim(&empty, "offset", 1, NULL);
    CHECK(layout_linear_to_desc(&empty, &d, &e) == LAYOUT_ERR_UNSUPPORTED);
}

/* ------------------------------------------------------------ distributions */

static int same_as_dist(const layout_linear *l, const layout_distribution *d)
{
    int bad = 0;
    for (int w = 0; w < d->n_warps; w++)
        for (int ln = 0; ln < d->wave_size; ln++)
            for (int64_t e = 0; e < d->elems_per_thread; e++) {
                int64_t x[LAYOUT_MAX_DIMS], y[LAYOUT_MAX_DIMS], in[3] = {e, ln, w};
                layout_dist_coord_elem(d, w, ln, e, x, NULL);
                layout_linear_apply(l, in, y, NULL);
                for (int i = 0; i < d->n_x; i++) bad += x[i] != y[i];
            }
    return bad == 0;
}

/* lane -> X = lane; fails once *calls passes 1000 */
static int flaky_coord(void *user, int warp, int lane, int64_t elem, int64_t *coord)
{
    int *calls = (int *)user;
    (void)warp, (void)elem;
    coord[0] = lane;
    return ++*calls > 1000;
}

static void test_dist_seed(void)
{
    layout_distribution d, back;
    layout_linear l, l2;
    layout_error e;
    static int64_t table[4 * 64 * 8 * 2];
    layout_status (*makers[4])(layout_distribution *, layout_error *) = {seed_write_dist, seed_read_dist_kmajor,
                                                                          seed_read_dist_08, seed_read_dist_10};
    for (int k = 0; k < 4; k++) {
        CHECK(makers[k](&d, NULL) == LAYOUT_OK);
        CHECK_MSG(layout_dist_to_linear(&d, &l, &e) == LAYOUT_OK, "%s", e.message);
        CHECK(strcmp(l.in_names[0], "register") == 0 && strcmp(l.in_names[1], "lane") == 0 &&
              strcmp(l.in_names[2], "warp") == 0 && l.in_bits[1] == 6 && l.in_bits[2] == 2);
        CHECK(same_as_dist(&l, &d));
        CHECK(layout_linear_is_bijective(&l)); /* every element held once */
        CHECK_MSG(layout_linear_to_dist(&l, table, sizeof table / sizeof table[0], &back, &e) == LAYOUT_OK, "%s",
                  e.message);
        CHECK(same_as_dist(&l, &back));
        /* the table form goes through the exhaustive path and gives the same bases */
        CHECK(layout_dist_to_linear(&back, &l2, NULL) == LAYOUT_OK && layout_linear_equal(&l, &l2));
    }
    /* kernel 08's read: m = lane, k = 8*warp + y1 (docs/lds-model.md §4.2) */
    seed_read_dist_08(&d, NULL);
    layout_dist_to_linear(&d, &l, NULL);
    int64_t in[3] = {5, 9, 2}, x[2];
    layout_linear_apply(&l, in, x, NULL);
    CHECK(x[0] == 9 && x[1] == 16 + 5);
    /* a table that is not linear: lane 3 holds (3, 1) instead of (3, 0) */
    static int64_t t2[64 * 2];
    for (int ln = 0; ln < 64; ln++) t2[2 * ln] = ln, t2[2 * ln + 1] = ln == 3;
    int64_t xl[2] = {64, 2};
    CHECK(layout_dist_from_table(&d, 2, xl, 64, 1, 1, t2, NULL) == LAYOUT_OK);
    CHECK(layout_dist_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "lane 3");
    /* X length not a power of two */
    int64_t xl3[2] = {64, 3};
    CHECK(layout_dist_from_table(&d, 2, xl3, 64, 1, 1, t2, NULL) == LAYOUT_OK);
    CHECK(layout_dist_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "X length 3 of dim 1");
    /* elems / warps not powers of two */
    static int64_t t3[3 * 64 * 1];
    for (int i = 0; i < 3 * 64; i++) t3[i] = i % 64;
    int64_t xl1[1] = {64};
    CHECK(layout_dist_from_table(&d, 1, xl1, 64, 1, 3, t3, NULL) == LAYOUT_OK);
    CHECK(layout_dist_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "elems_per_thread 3");
    CHECK(layout_dist_from_table(&d, 1, xl1, 64, 3, 1, t3, NULL) == LAYOUT_OK);
    CHECK(layout_dist_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "n_warps 3");
    static int64_t t48[48];
    for (int i = 0; i < 48; i++) t48[i] = i;
    int64_t xl48[1] = {64};
    CHECK(layout_dist_from_table(&d, 1, xl48, 48, 1, 1, t48, NULL) == LAYOUT_OK);
    CHECK(layout_dist_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "wave_size 48");
    /* more than 2^16 triples in table form: not decided */
    static int64_t tbig[8 * 64 * 256];
    for (int i = 0; i < 8 * 64 * 256; i++) tbig[i] = i;
    int64_t xlb[1] = {8 * 64 * 256};
    CHECK(layout_dist_from_table(&d, 1, xlb, 64, 8, 256, tbig, NULL) == LAYOUT_OK);
    CHECK(layout_dist_to_linear(&d, &l, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "cannot decide");
    /* a callback that starts failing after construction: its error is passed on */
    int calls = 0;
    CHECK(layout_dist_from_callback(&d, 1, xl1, 32, 1, 1, flaky_coord, &calls, NULL) == LAYOUT_OK);
    calls = 1000;
    CHECK(layout_dist_to_linear(&d, &l, &e) == LAYOUT_ERR_ARG);
    calls = 1000 - 33;
    CHECK(layout_dist_to_linear(&d, &l, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_dist_to_linear(NULL, &l, NULL) == LAYOUT_ERR_NULL);
    CHECK(layout_dist_to_linear(&d, NULL, NULL) == LAYOUT_ERR_NULL);
    /* linear_to_dist errors */
    layout_linear_identity(&l, "lane", "dim0", 5, NULL);
    CHECK(layout_linear_to_dist(&l, table, 10, &back, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "register");
    const char *ins[2] = {"register", "lane"}, *bad[2] = {"register", "block"}, *outs[1] = {"dim0"};
    int ib[2] = {1, 5};
    int64_t v[6] = {1, 2, 4, 8, 16, 32};
    l = mk(2, ins, ib, v, 1, outs, NULL);
    CHECK(layout_linear_to_dist(&l, table, 10, &back, &e) == LAYOUT_ERR_BUFFER);
    CHECK(layout_linear_to_dist(&l, NULL, 10, &back, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_to_dist(&l, table, 64, &back, &e) == LAYOUT_OK); /* no warp dim: one warp */
    CHECK(back.n_warps == 1 && back.wave_size == 32 && back.elems_per_thread == 2);
    l = mk(2, bad, ib, v, 1, outs, NULL);
    CHECK(layout_linear_to_dist(&l, table, 64, &back, &e) == LAYOUT_ERR_ARG);
    const char *ins3[3] = {"register", "lane", "block"};
    int ib3[3] = {1, 5, 1};
    int64_t v3[7] = {1, 2, 4, 8, 16, 32, 64};
    l = mk(3, ins3, ib3, v3, 1, outs, NULL);
    CHECK(layout_linear_to_dist(&l, table, 256, &back, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "'block' is not one of");
    int ib7[2] = {1, 7};
    int64_t v7[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    l = mk(2, ins, ib7, v7, 1, outs, NULL);
    CHECK(layout_linear_to_dist(&l, table, 256, &back, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "wave size 128");
    int ib31[2] = {31, 5};
    static int64_t v31[36];
    l = mk(2, ins, ib31, v31, 1, outs, NULL);
    CHECK(layout_linear_to_dist(&l, table, 256, &back, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "too many");
    layout_linear_init(&l, NULL);
    layout_linear_add_in_dim(&l, "register", 0, NULL);
    layout_linear_add_in_dim(&l, "lane", 5, NULL);
    CHECK(layout_linear_to_dist(&l, table, 256, &back, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "n_out = 0");
    CHECK(layout_linear_to_dist(NULL, table, 64, &back, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_to_dist(&l, table, 64, NULL, &e) == LAYOUT_ERR_NULL);
}

/* random encodings with power-of-two R and H: the placement proof must agree with the
 * interpreter on every (warp, lane, register) */
static void test_dist_random(void)
{
    harness_rng r = {0xd157};
    int made = 0;
    for (long it = 0; it < harness_scaled(1500); it++) {
        layout_dist_encoding e;
        memset(&e, 0, sizeof e);
        e.n_p = 2;
        e.n_r = (int)harness_range(&r, 0, 1);
        if (e.n_r) e.r[0] = (int64_t)1 << harness_range(&r, 0, 1);
        e.n_x = (int)harness_range(&r, 1, 2);
        int64_t plen[2] = {1, 1};
        if (e.n_r) { /* R goes to a P */
            int p = (int)harness_range(&r, 0, 1);
            e.p_major[p][e.n_p_rh[p]] = 0, e.p_minor[p][e.n_p_rh[p]++] = 0, plen[p] *= e.r[0];
        }
        for (int x = 0; x < e.n_x; x++) {
            e.n_h[x] = (int)harness_range(&r, 1, 3);
            for (int k = 0; k < e.n_h[x]; k++) {
                e.h[x][k] = (int64_t)1 << harness_range(&r, 0, 3);
                int owner = (int)harness_range(&r, 0, 2);
                if (owner < 2 && e.n_p_rh[owner] < LAYOUT_MAX_DIST_RH) {
                    e.p_major[owner][e.n_p_rh[owner]] = x + 1, e.p_minor[owner][e.n_p_rh[owner]++] = k;
                    plen[owner] *= e.h[x][k];
                } else {
                    e.y_major[e.n_y] = x + 1, e.y_minor[e.n_y++] = k;
                }
            }
        }
        if (e.n_y == 0 || e.n_p_rh[0] == 0 || e.n_p_rh[1] == 0 || plen[1] > 64 || plen[0] > 16) continue;
        layout_distribution d;
        if (layout_dist_make(&d, &e, (int)plen[1], (int)plen[0], 0, NULL, NULL) != LAYOUT_OK) continue;
        layout_linear l;
        layout_error err;
        CHECK_MSG(layout_dist_to_linear(&d, &l, &err) == LAYOUT_OK, "%s", err.message);
        CHECK(same_as_dist(&l, &d));
        made++;
    }
    CHECK_MSG(made > harness_scaled(1500) / 10, "%d encodings", made);
}

/* ------------------------------------------------------------ tile walk */

static void test_tile(void)
{
    layout_linear l;
    int64_t out[256];
    layout_error e;
    layout_linear_identity(&l, "dim0", "offset", 3, NULL);
    CHECK(layout_linear_tile_offsets(&l, out, 8, NULL) == LAYOUT_OK);
    for (int i = 0; i < 8; i++) CHECK(out[i] == i);
    CHECK(layout_linear_tile_offsets(&l, out, 7, &e) == LAYOUT_ERR_BUFFER);
    CHECK_STR_CONTAINS(e.message, "8");
    CHECK(layout_linear_tile_offsets(&l, NULL, 8, NULL) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_tile_offsets(NULL, out, 8, NULL) == LAYOUT_ERR_NULL);
    /* row-major over two dims, last fastest: offset = 16*r + c transposed storage c*4 + r */
    const char *ins[2] = {"r", "c"}, *outs[1] = {"o"};
    int ib[2] = {2, 4};
    int64_t v[6] = {1, 2, 4, 8, 16, 32};
    l = mk(2, ins, ib, v, 1, outs, NULL);
    CHECK(layout_linear_tile_offsets(&l, out, 64, NULL) == LAYOUT_OK);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 16; c++) CHECK(out[r * 16 + c] == c * 4 + r);
    const char *two[2] = {"a", "b"};
    int one[1] = {1};
    int64_t v2[2] = {1, 1};
    l = mk(1, ins, one, v2, 2, two, NULL); /* two output dims of size 2 */
    CHECK(layout_linear_tile_offsets(&l, out, 64, NULL) == LAYOUT_ERR_UNSUPPORTED);
    layout_linear_init(&l, NULL);
    layout_linear_add_out_dim(&l, "o", 0, NULL);
    CHECK(layout_linear_tile_offsets(&l, out, 1, NULL) == LAYOUT_OK && out[0] == 0);
    layout_linear_init(&l, NULL);
    layout_linear_add_in_dim(&l, "a", 62, NULL);
    layout_linear_add_in_dim(&l, "b", 2, NULL);
    layout_linear_add_out_dim(&l, "o", 1, NULL);
    CHECK(layout_linear_tile_offsets(&l, out, 256, &e) == LAYOUT_ERR_UNSUPPORTED);

}

/* ------------------------------------------------------------ bank conflicts */

/* the small known answers of docs/lds-model.md §4.3, as linear accesses */
static void test_conflict_known(void)
{
    layout_arch a;
    layout_linear_access acc;
    layout_cost c;
    memset(&acc, 0, sizeof acc);
    acc.n_lane_bits = 6;
    acc.direction = LAYOUT_READ;
    /* gfx942 b32, lane i at byte 128*i, all 64 lanes: extra 62 */
    layout_arch_preset("gfx942", &a, NULL);
    acc.width_bytes = 4;
    for (int b = 0; b < 6; b++) acc.lane_images[b] = 128u << b;
    CHECK(layout_linear_access_cost(&a, &acc, &c, NULL) == LAYOUT_OK && c.extra_cycles == 62 && c.total_cycles == 64);
    /* gfx950 b64 write, lane i at byte 256*i: extra 60 */
    layout_arch_preset("gfx950", &a, NULL);
    acc.width_bytes = 8;
    acc.direction = LAYOUT_WRITE;
    for (int b = 0; b < 6; b++) acc.lane_images[b] = 256u << b;
    CHECK(layout_linear_access_cost(&a, &acc, &c, NULL) == LAYOUT_OK && c.extra_cycles == 60);
    /* lane i at byte 16*i, b128, read and write, gfx942 and gfx950: 0 */
    for (int k = 0; k < 4; k++) {
        layout_arch_preset(k < 2 ? "gfx942" : "gfx950", &a, NULL);
        acc.width_bytes = 16;
        acc.direction = k % 2 ? LAYOUT_WRITE : LAYOUT_READ;
        for (int b = 0; b < 6; b++) acc.lane_images[b] = 16u << b;
        CHECK(layout_linear_access_cost(&a, &acc, &c, NULL) == LAYOUT_OK && c.extra_cycles == 0);
    }
    /* kernel 08's b128 write and read on gfx942 are conflict free (the talk's table, docs/lds-model.md §4.1) */
    layout_descriptor d;
    layout_distribution wd, rd;
    layout_linear ld, lw, lr, cw, cr;
    seed_xor_mk(&d, 32, 1, 0);
    layout_desc_to_linear(&d, &ld, NULL);
    seed_write_dist(&wd, NULL);
    seed_read_dist_08(&rd, NULL);
    layout_dist_to_linear(&wd, &lw, NULL);
    layout_dist_to_linear(&rd, &lr, NULL);
    const char *mk_names[2] = {"dim0", "dim1"};
    layout_linear ldr;
    /* distribution outputs are dim0 (M), dim1 (K): the descriptor's inputs have the same names */
    CHECK(layout_linear_compose(&cw, &lw, &ld, NULL) == LAYOUT_OK);
    CHECK(layout_linear_compose(&cr, &lr, &ld, NULL) == LAYOUT_OK);
    (void)mk_names, (void)ldr;
    layout_arch_preset("gfx942", &a, NULL);
    for (int w = 0; w < 4; w++) {
        int64_t in[3] = {0, 0, w};
        layout_linear_access wa, ra;
        CHECK(layout_linear_lane_access(&cw, "lane", in, 2, LAYOUT_WRITE, 16, &wa, NULL) == LAYOUT_OK);
        CHECK(layout_linear_lane_access(&cr, "lane", in, 2, LAYOUT_READ, 16, &ra, NULL) == LAYOUT_OK);
        CHECK(layout_linear_access_cost(&a, &wa, &c, NULL) == LAYOUT_OK && c.extra_cycles == 0);
        CHECK(layout_linear_access_cost(&a, &ra, &c, NULL) == LAYOUT_OK && c.extra_cycles == 0);
    }
}

static uint32_t rand_image(harness_rng *r, int W)
{
    switch (harness_range(r, 0, 4)) {
    case 0: return 0;
    case 1: return (uint32_t)W << harness_range(r, 0, 12);
    case 2: return ((uint32_t)harness_range(r, 0, 1 << 14) * (uint32_t)W) & 0xffffu;
    case 3: return (uint32_t)W << harness_range(r, 0, 4);
    default: return ((uint32_t)W << harness_range(r, 0, 6)) ^ ((uint32_t)W << harness_range(r, 0, 9));
    }
}

static void test_conflict_random(void)
{
    static const char *const archs[] = {"gfx90a", "gfx942", "gfx950", "gfx950-b32x64", "gfx11", "gfx12", "sm_80", "sm_90"};
    static const int widths[] = {1, 2, 4, 8, 16};
    harness_rng r = {0xc0f1c7};
    long want = harness_scaled(100000), compared = 0, rounds = want + want / 16, unsupported = 0, folded = 0, conflicted = 0;
    for (size_t ai = 0; ai < sizeof archs / sizeof archs[0]; ai++) {
        layout_arch a;
        layout_checker chk;
        CHECK(layout_arch_preset(archs[ai], &a, NULL) == LAYOUT_OK);
        CHECK(layout_checker_init(&chk, &a, LAYOUT_IMPL_SCALAR, NULL) == LAYOUT_OK);
        long per_arch = rounds / (long)(sizeof archs / sizeof archs[0]) + 1;
        for (long it = 0; it < per_arch; it++) {
            layout_linear_access acc;
            memset(&acc, 0, sizeof acc);
            acc.width_bytes = widths[harness_range(&r, 0, 4)];
            acc.direction = harness_range(&r, 0, 1) ? LAYOUT_WRITE : LAYOUT_READ;
            acc.n_lane_bits = a.wave_size == 64 ? 6 : 5;
            for (int b = 0; b < acc.n_lane_bits; b++) acc.lane_images[b] = rand_image(&r, acc.width_bytes);
            acc.base_bytes = ((uint32_t)harness_range(&r, 0, 1 << 16) * (uint32_t)acc.width_bytes) & 0x3ffffu;
            int unaligned = harness_range(&r, 0, 49) == 0 && acc.width_bytes > 1;
            if (unaligned) acc.lane_images[harness_range(&r, 0, acc.n_lane_bits - 1)] |= 1;
            layout_cost lc, cc;
            layout_instr in;
            layout_error e;
            CHECK(layout_linear_access_instr(&acc, &in, NULL) == LAYOUT_OK);
            layout_status s1 = layout_linear_access_cost(&a, &acc, &lc, &e);
            layout_status s2 = layout_checker_cost(&chk, &in, &cc, NULL);
            if (s2 == LAYOUT_ERR_UNSUPPORTED) {
                CHECK(s1 == LAYOUT_ERR_UNSUPPORTED);
                continue;
            }
            CHECK(s2 == LAYOUT_OK);
            if (s1 != LAYOUT_OK) {
                CHECK_MSG(s1 == LAYOUT_ERR_UNSUPPORTED && unaligned, "%s", e.message);
                unsupported++;
                continue;
            }
            compared++;
            folded += cc.fold_xor != 0;
            conflicted += cc.extra_cycles > 0;
            CHECK_MSG(memcmp(&lc, &cc, sizeof lc) == 0,
                      "%s %s b%d: closed extra %d total %d nway %d grp %d fold %d; checker %d %d %d %d %d", archs[ai],
                      layout_direction_name(acc.direction), acc.width_bytes * 8, lc.extra_cycles, lc.total_cycles,
                      lc.worst_nway, lc.worst_group, lc.fold_xor, cc.extra_cycles, cc.total_cycles, cc.worst_nway,
                      cc.worst_group, cc.fold_xor);
        }
    }
    CHECK_MSG(compared >= want, "%ld compared, %ld wanted", compared, want);
    CHECK(folded > 0 && conflicted > compared / 4 && conflicted < compared);
    if (getenv("LAYOUT_TEST_VERBOSE"))
        fprintf(stderr, "  conflicts: %ld compared, %ld unaligned skipped, %ld folded, %ld conflicted\n", compared,
                unsupported, folded, conflicted);
}

static void test_access_errors(void)
{
    layout_arch a, odd;
    layout_linear_access acc;
    layout_cost c;
    layout_instr in;
    layout_error e;
    layout_arch_preset("gfx942", &a, NULL);
    memset(&acc, 0, sizeof acc);
    acc.n_lane_bits = 6;
    acc.width_bytes = 12;
    CHECK(layout_linear_access_cost(&a, &acc, &c, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "not a power of two");
    acc.width_bytes = 4;
    acc.n_lane_bits = 5;
    CHECK(layout_linear_access_cost(&a, &acc, &c, &e) == LAYOUT_ERR_MISMATCH);
    acc.n_lane_bits = 7;
    CHECK(layout_linear_access_cost(&a, &acc, &c, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_access_instr(&acc, &in, &e) == LAYOUT_ERR_ARG);
    acc.n_lane_bits = 6;
    acc.width_bytes = 3;
    CHECK(layout_linear_access_cost(&a, &acc, &c, &e) == LAYOUT_ERR_ARG);
    acc.width_bytes = 4;
    acc.direction = (layout_direction)7;
    CHECK(layout_linear_access_cost(&a, &acc, &c, &e) == LAYOUT_ERR_ARG);
    acc.direction = LAYOUT_READ;
    acc.lane_images[2] = 6;
    CHECK(layout_linear_access_cost(&a, &acc, &c, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "multiple of the width 4");
    CHECK(layout_linear_access_cost(NULL, &acc, &c, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_access_cost(&a, NULL, &c, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_access_cost(&a, &acc, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_access_instr(NULL, &in, &e) == LAYOUT_ERR_NULL);
    /* groups that are not affine subspaces: {0,1,2} + the rest */
    layout_arch_init(&odd, "odd", 32, 4, 64, NULL);
    uint64_t g[2] = {0x7, ~(uint64_t)0x7};
    CHECK(layout_arch_set_groups(&odd, LAYOUT_READ, 4, g, 2, LAYOUT_CONFIDENCE_LOW, NULL, NULL) == LAYOUT_OK);
    acc.lane_images[2] = 0;
    CHECK(layout_linear_access_cost(&odd, &acc, &c, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "affine");
    layout_arch broken = a; /* an unvalidated arch with a corrupt group count is refused, not indexed */
    broken.rules[LAYOUT_READ][layout_width_index(4)].n_groups = 99;
    acc.lane_images[2] = 0;
    CHECK(layout_linear_access_cost(&broken, &acc, &c, &e) == LAYOUT_ERR_ARG);
    acc.width_bytes = 8; /* odd has no b64 rule */
    CHECK(layout_linear_access_cost(&odd, &acc, &c, &e) == LAYOUT_ERR_UNSUPPORTED);
    /* lane_access errors */
    layout_linear l;
    layout_linear_access out;
    int64_t vals[2] = {0, 0};
    layout_linear_identity(&l, "lane", "offset", 6, NULL);
    CHECK(layout_linear_lane_access(&l, "lane", vals, 2, LAYOUT_READ, 4, &out, NULL) == LAYOUT_OK);
    CHECK(out.lane_images[3] == 16 && out.base_bytes == 0);
    CHECK(layout_linear_lane_access(&l, "warp", vals, 2, LAYOUT_READ, 4, &out, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_lane_access(&l, "lane", vals, 3, LAYOUT_READ, 4, &out, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_lane_access(&l, "lane", vals, 2, LAYOUT_READ, 5, &out, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_lane_access(NULL, "lane", vals, 2, LAYOUT_READ, 4, &out, &e) == LAYOUT_ERR_NULL);
    layout_linear_identity(&l, "lane", "offset", 4, NULL);
    CHECK(layout_linear_lane_access(&l, "lane", vals, 2, LAYOUT_READ, 4, &out, &e) == LAYOUT_ERR_ARG);
    const char *ins[2] = {"w", "lane"}, *outs[1] = {"o"}, *two[2] = {"o", "p"};
    int ib[2] = {1, 5};
    int64_t big[6] = {(int64_t)1 << 40, 1, 2, 4, 8, 16};
    l = mk(2, ins, ib, big, 1, outs, NULL);
    vals[0] = 1;
    CHECK(layout_linear_lane_access(&l, "lane", vals, 2, LAYOUT_READ, 4, &out, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "over 32 bits");
    vals[0] = 2;
    CHECK(layout_linear_lane_access(&l, "lane", vals, 2, LAYOUT_READ, 4, &out, &e) == LAYOUT_ERR_RANGE);
    int64_t big2[6] = {0, (int64_t)1 << 40, 2, 4, 8, 16};
    l = mk(2, ins, ib, big2, 1, outs, NULL);
    vals[0] = 0;
    CHECK(layout_linear_lane_access(&l, "lane", vals, 2, LAYOUT_READ, 4, &out, &e) == LAYOUT_ERR_ARG);
    int64_t v2[12] = {0};
    int ob2[2] = {1, 1};
    l = mk(2, ins, ib, v2, 2, two, ob2);
    CHECK(layout_linear_lane_access(&l, "lane", vals, 2, LAYOUT_READ, 4, &out, &e) == LAYOUT_ERR_ARG);
}

/* ------------------------------------------------------------ bad input */

static void test_build_errors(void)
{
    layout_linear l;
    layout_error e;
    CHECK(layout_linear_init(NULL, &e) == LAYOUT_ERR_NULL);
    layout_linear_init(&l, NULL);
    CHECK(layout_linear_add_in_dim(NULL, "a", 1, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_add_in_dim(&l, NULL, 1, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_add_in_dim(&l, "", 1, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_add_in_dim(&l, "a_very_long_dimension_name", 1, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "at most 15");
    CHECK(layout_linear_add_in_dim(&l, "a", -1, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_add_in_dim(&l, "a", 63, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_add_in_dim(&l, "a", 40, &e) == LAYOUT_OK);
    CHECK(layout_linear_add_in_dim(&l, "a", 1, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "already used");
    CHECK(layout_linear_add_in_dim(&l, "b", 30, &e) == LAYOUT_ERR_CAPACITY);
    CHECK_STR_CONTAINS(e.message, "70 input bits");
    for (int i = 0; i < LAYOUT_LINEAR_MAX_DIMS - 1; i++) {
        char n[4] = {'x', (char)('A' + i), 0, 0};
        CHECK(layout_linear_add_in_dim(&l, n, 0, NULL) == LAYOUT_OK);
    }
    CHECK(layout_linear_add_in_dim(&l, "y", 0, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(layout_linear_add_out_dim(NULL, "o", 1, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_add_out_dim(&l, "o", 2, &e) == LAYOUT_OK);
    int64_t v[1] = {4};
    CHECK(layout_linear_set_basis(&l, 0, 0, v, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "out_values[0] = 4 is outside 0..3");
    v[0] = 3;
    CHECK(layout_linear_set_basis(&l, 0, 40, v, &e) == LAYOUT_ERR_RANGE);
    CHECK(layout_linear_set_basis(&l, 9, 0, v, &e) == LAYOUT_ERR_RANGE);
    CHECK(layout_linear_set_basis(NULL, 0, 0, v, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_set_basis(&l, 0, 0, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_set_basis(&l, 0, 39, v, &e) == LAYOUT_OK);
    int64_t got[1];
    CHECK(layout_linear_get_basis(&l, 0, 39, got, &e) == LAYOUT_OK && got[0] == 3);
    CHECK(layout_linear_get_basis(&l, 0, 40, got, &e) == LAYOUT_ERR_RANGE);
    CHECK(layout_linear_get_basis(NULL, 0, 0, got, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_get_basis(&l, 0, 0, NULL, &e) == LAYOUT_ERR_NULL);
    /* apply */
    int64_t in[8] = {0}, out[1];
    in[0] = (int64_t)1 << 40;
    CHECK(layout_linear_apply(&l, in, out, &e) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "in[0]");
    in[0] = -1;
    CHECK(layout_linear_apply(&l, in, out, &e) == LAYOUT_ERR_RANGE);
    CHECK(layout_linear_apply(NULL, in, out, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_apply(&l, NULL, out, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_apply(&l, in, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_in_dim(&l, "zz") == -1 && layout_linear_in_dim(NULL, "a") == -1 &&
          layout_linear_out_dim(&l, NULL) == -1 && layout_linear_out_dim(&l, "o") == 0);
    CHECK(layout_linear_rank(NULL) == -1 && !layout_linear_is_injective(NULL) && !layout_linear_is_surjective(NULL));
    CHECK(!layout_linear_equal(NULL, &l) && layout_linear_equal(&l, &l));
    /* from_bases */
    const char *ins[2] = {"a", "b"}, *outs[2] = {"o", "p"};
    int ib[2] = {1, 1}, ob[2] = {1, 1};
    int64_t b[4] = {1, 0, 0, 1};
    CHECK(layout_linear_from_bases(NULL, 2, ins, ib, b, 2, outs, ob, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_from_bases(&l, LAYOUT_LINEAR_MAX_DIMS + 1, ins, ib, b, 2, outs, ob, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(layout_linear_from_bases(&l, 2, ins, ib, b, -1, outs, ob, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(layout_linear_from_bases(&l, 2, NULL, ib, b, 2, outs, ob, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_from_bases(&l, 2, ins, NULL, b, 2, outs, ob, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_from_bases(&l, 2, ins, ib, NULL, 2, outs, ob, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_from_bases(&l, 2, ins, ib, b, 2, NULL, ob, &e) == LAYOUT_ERR_NULL);
    int bad_ib[2] = {1, 70};
    CHECK(layout_linear_from_bases(&l, 2, ins, bad_ib, b, 2, outs, ob, &e) == LAYOUT_ERR_ARG);
    int64_t neg[4] = {1, -1, 0, 1};
    CHECK(layout_linear_from_bases(&l, 2, ins, ib, neg, 2, outs, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "negative");
    int64_t wide[4] = {1, 2, 0, 1};
    CHECK(layout_linear_from_bases(&l, 2, ins, ib, wide, 2, outs, ob, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "does not fit output dim 'p'");
    const char *dup[2] = {"a", "a"};
    CHECK(layout_linear_from_bases(&l, 2, dup, ib, b, 2, outs, ob, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "in_names[1]");
    CHECK(layout_linear_from_bases(&l, 2, ins, ib, b, 2, dup, ob, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "out_names[1]");
    CHECK(layout_linear_identity(NULL, "a", "b", 1, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_identity(&l, "a", "b", 99, &e) == LAYOUT_ERR_ARG);
    /* compose / invert / product / transpose mismatches */
    layout_linear x, y, z;
    layout_linear_identity(&x, "a", "offset", 3, NULL);
    layout_linear_identity(&y, "dim0", "o", 3, NULL);
    CHECK(layout_linear_compose(&z, &x, &y, &e) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(e.message, "'offset' is not an input dim of second");
    layout_linear_identity(&y, "offset", "o", 2, NULL);
    CHECK(layout_linear_compose(&z, &x, &y, &e) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(e.message, "has 3 bits");
    CHECK(layout_linear_compose(NULL, &x, &y, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_invert(NULL, &x, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_pseudo_invert(&z, NULL, &e) == LAYOUT_ERR_NULL);
    layout_linear_identity(&y, "b", "offset", 62, NULL);
    CHECK(layout_linear_product(&z, &x, &y, &e) == LAYOUT_ERR_CAPACITY || e.status == LAYOUT_ERR_ARG);
    layout_linear_identity(&y, "a", "offset", 60, NULL);
    CHECK(layout_linear_product(&z, &x, &y, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_product(NULL, &x, &y, &e) == LAYOUT_ERR_NULL);
    layout_linear_init(&x, NULL);
    layout_linear_add_in_dim(&x, "a", 2, NULL);
    layout_linear_add_out_dim(&x, "o1", 40, NULL);
    layout_linear_init(&y, NULL);
    layout_linear_add_in_dim(&y, "b", 2, NULL);
    layout_linear_add_out_dim(&y, "o2", 30, NULL);
    CHECK(layout_linear_product(&z, &x, &y, &e) == LAYOUT_ERR_CAPACITY);
    CHECK_STR_CONTAINS(e.message, "output bits");

    const char *names1[1] = {"nope"}, *names2[2] = {"a", "a"};
    CHECK(layout_linear_transpose_outs(&z, &x, 1, names1, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_transpose_outs(&z, &x, 2, names2, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_transpose_outs(&z, &x, 1, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_transpose_outs(NULL, &x, 1, names1, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_linear_transpose_ins(&z, &x, 1, names1, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_linear_transpose_ins(NULL, &x, 1, names1, &e) == LAYOUT_ERR_NULL);
    const char *two[2] = {"a", "b"};
    layout_linear_product(&z, &x, &y, NULL);
    layout_linear_identity(&y, "b", "q", 1, NULL);
    layout_linear_product(&z, &x, &y, NULL);
    CHECK(layout_linear_transpose_ins(&z, &z, 2, (const char *const[]){"b", "b"}, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "repeated");
    (void)two;
}

int main(void)
{
    RUN(test_triton_apply);
    RUN(test_triton_compose);
    RUN(test_triton_product_transpose);
    RUN(test_triton_invert);
    RUN(test_print);
    RUN(test_algebra_random);
    RUN(test_desc_seed);
    RUN(test_desc_random);
    RUN(test_to_desc_random);
    RUN(test_dist_seed);
    RUN(test_dist_random);
    RUN(test_tile);
    RUN(test_conflict_known);
    RUN(test_conflict_random);
    RUN(test_access_errors);
    RUN(test_build_errors);
    return harness_finish("test_linear");
}
