/* Triton's #ttg.amd_rotating_shared and #ttg.nvmma_shared (triton.h):
 * read, printed back, and built into Triton's linear layout
 * (layout_triton_shared_linear) and into descriptors (layout_triton_to_desc:
 * amd_rotating_shared as ck_tile transforms, nvmma_shared from the linear
 * layout; both with liblayout's text form).
 *
 * Where the expected values come from:
 *
 * - "ut:<TestName>": Triton's unit test of these conversions,
 *   unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp (the 3.5 / 3.6
 *   line, with CTALayoutAttr; read through the public source index), which
 *   asserts toLinearLayout(shape, attr) equals the listed offset bases for
 *   AMDRotatingShared2D_8x16_ord10, AMDRotatingShared2D_8x16_ord01,
 *   AMDRotatingShared2D_64x64 (sharedToLinearLayoutAMDRotating),
 *   LeadingOffset_8x16_4_2, LeadingOffset_128x16_4_2, LeadingOffset_8x32_2_4,
 *   LeadingOffset_8x64_1_8, LeadingOffset_8x64_1_8_32b,
 *   LeadingOffset_128x128_1_8_128b_transposed (nvmmaSharedToLinearLayout:
 *   the nvmmaShared(swizzle, transposed, elementBitWidth) helper) and
 *   SharedSwizzled2D_* (swizzledSharedToLinearLayout).  Transcribed as data:
 *   the attribute in Triton's printed syntax, the shape, the bases.  The 3-D
 *   cases of that file (AMDRotatingShared3D_4x64x64,
 *   LeadingOffset_32x4x64_1_8_32b, ...) are refused here: 2-D only.
 * - the brute-force reference tests/support/triton_shared_ref.h: Triton's
 *   formulas as closed forms per element (phase ^ blockNo; the nvmma core
 *   tile, TMA box and growth order), written without the library's bit
 *   assembly, checked on every element of every parameter set below.
 * - the real spellings: every amd_rotating_shared / nvmma_shared text real
 *   Triton 3.6.0 printed in the .ttgir files of tests/fixtures/triton/kernels reads and
 *   prints back identically (test_triton_kernels.c also builds each on the
 *   shapes its kernel uses).
 *
 * GPU measurements of nvmma_shared (as tests/fixtures/triton/ has for
 * swizzled_shared) do not exist yet: gen_fixtures.py RUN_SCRIPT5 makes them
 * on an H100 and test_triton_fixtures.c checks them once formatted in;
 * amd_rotating_shared cannot run on NVIDIA, so its answers stay Triton's
 * formula and unit test. */
#include "harness.h"
#include "support/triton_shared_ref.h"
#include "support/xorshift.h"

#include <layout.h>

static layout_error err;

typedef struct known {
    const char *source; /* "ut:<TestName>" */
    const char *attr;
    int64_t shape[2];
    int n;
    int64_t bases[16][2];
} known;

#define ROT(v, p, m, o) "#ttg.amd_rotating_shared<{vec = " v ", perPhase = " p ", maxPhase = " m ", order = [" o "]}>"
#define SWZ(v, p, m, o) "#ttg.swizzled_shared<{vec = " v ", perPhase = " p ", maxPhase = " m ", order = [" o "]}>"
#define BLK_FOR_TEST "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
#define NVMMA(s, t, e) "#ttg.nvmma_shared<{swizzlingByteWidth = " s ", transposed = " t ", elementBitWidth = " e "}>"

static const known knowns[] = {
    {"ut:AMDRotatingShared2D_8x16_ord10", ROT("2", "2", "2", "1, 0"), {8, 16}, 7,
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 2}, {4, 2}}},
    {"ut:AMDRotatingShared2D_8x16_ord01", ROT("2", "2", "2", "0, 1"), {8, 16}, 7,
     {{1, 0}, {2, 0}, {4, 0}, {0, 1}, {2, 2}, {2, 4}, {0, 8}}},
    {"ut:AMDRotatingShared2D_64x64", ROT("4", "2", "4", "1, 0"), {64, 64}, 12,
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 0}, {2, 4}, {4, 8}, {8, 4}, {16, 8}, {32, 0}}},
    {"ut:LeadingOffset_8x16_4_2", NVMMA("32", "false", "16"), {8, 16}, 7,
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 8}}},
    {"ut:LeadingOffset_128x16_4_2", NVMMA("32", "false", "16"), {128, 16}, 11,
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 8}, {8, 0}, {16, 0}, {32, 0}, {64, 0}}},
    {"ut:LeadingOffset_8x32_2_4", NVMMA("64", "false", "16"), {8, 32}, 8,
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 8}, {4, 16}}},
    {"ut:LeadingOffset_8x64_1_8", NVMMA("128", "false", "16"), {8, 64}, 9,
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32}}},
    {"ut:LeadingOffset_8x64_1_8_32b", NVMMA("128", "false", "32"), {8, 64}, 9,
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 4}, {2, 8}, {4, 16}, {0, 32}}},
    {"ut:LeadingOffset_128x128_1_8_128b_transposed", NVMMA("128", "true", "32"), {128, 128}, 14,
     {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {4, 1}, {8, 2}, {16, 4}, {0, 8}, {0, 16}, {0, 32}, {0, 64}, {32, 0},
      {64, 0}}},
    {"ut:SharedSwizzled2D_MaxPhaseOnly", SWZ("1", "1", "4", "1, 0"), {32, 32}, 10,
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 1}, {2, 2}, {4, 0}, {8, 0}, {16, 0}}},
    {"ut:SharedSwizzled2D_PerPhaseMaxPhase", SWZ("1", "2", "4", "1, 0"), {32, 32}, 10,
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 1}, {4, 2}, {8, 0}, {16, 0}}},
    {"ut:SharedSwizzled2D_Vec", SWZ("2", "1", "4", "1, 0"), {4, 8}, 5, {{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}}},
    {"ut:SharedSwizzled2D_PerPhaseMaxPhaseVec", SWZ("2", "2", "4", "1, 0"), {32, 32}, 10,
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 2}, {4, 4}, {8, 0}, {16, 0}}},
    {"ut:SharedSwizzled2D_Order01", SWZ("1", "1", "4", "0, 1"), {4, 8}, 5, {{1, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 4}}},
};

/* Every offset p: the coordinate Triton's bases give (XOR of the bases of
 * p's bits) is where the descriptor puts p.  Returns the mismatches. */
static int64_t desc_vs_bases(const layout_descriptor *d, const int64_t (*bases)[2], int n, char *why, size_t cap)
{
    int64_t p, bad = 0;
    for (p = 0; p < ((int64_t)1 << n); p++) {
        int64_t c[2] = {0, 0}, off = -1;
        int b;
        for (b = 0; b < n; b++)
            if (p >> b & 1) {
                c[0] ^= bases[b][0];
                c[1] ^= bases[b][1];
            }
        if (layout_desc_offset(d, c, &off, NULL) != LAYOUT_OK || off != p) {
            if (!bad)
                snprintf(why, cap, "offset %lld: Triton (%lld, %lld), ours %lld", (long long)p, (long long)c[0],
                         (long long)c[1], (long long)off);
            bad++;
        }
    }
    return bad;
}

static void test_known_answers(void)
{
    size_t i;
    for (i = 0; i < sizeof knowns / sizeof knowns[0]; i++) {
        const known *k = &knowns[i];
        layout_triton_attr a;
        layout_linear ll, inv, from_desc;
        layout_descriptor d;
        int b, j, in;
        char why[160];
        CHECK_MSG(layout_triton_from_text(k->attr, &a, NULL, &err) == LAYOUT_OK, "%s: %s", k->source, err.message);
        CHECK_MSG(layout_triton_shared_linear(&a, 2, k->shape, &ll, &err) == LAYOUT_OK, "%s: %s", k->source,
                  err.message);
        in = layout_linear_in_dim(&ll, "offset");
        CHECK_MSG(in == 0 && ll.n_in == 1 && ll.in_bits[0] == k->n, "%s: %d offset bits, Triton %d", k->source,
                  in < 0 ? -1 : ll.in_bits[in], k->n);
        CHECK(ll.n_out == 2 && strcmp(ll.out_names[0], "dim0") == 0 && strcmp(ll.out_names[1], "dim1") == 0);
        for (b = 0; in == 0 && b < k->n && b < ll.in_bits[0]; b++) {
            int64_t v[LAYOUT_LINEAR_MAX_DIMS];
            CHECK(layout_linear_get_basis(&ll, 0, b, v, NULL) == LAYOUT_OK);
            CHECK_MSG(v[0] == k->bases[b][0] && v[1] == k->bases[b][1], "%s: basis %d is (%lld, %lld), Triton (%lld, %lld)",
                      k->source, b, (long long)v[0], (long long)v[1], (long long)k->bases[b][0],
                      (long long)k->bases[b][1]);
        }
        /* the descriptor puts every offset where Triton's bases say */
        CHECK_MSG(layout_triton_to_desc(&a, 2, k->shape, &d, &err) == LAYOUT_OK, "%s: %s", k->source, err.message);
        CHECK_MSG(desc_vs_bases(&d, k->bases, k->n, why, sizeof why) == 0, "%s: %s", k->source, why);
        CHECK_EQ_I64(layout_desc_element_space_size(&d), k->shape[0] * k->shape[1]);
        /* and layout_desc_to_linear() of it is the inverse of Triton's layout */
        CHECK_MSG(layout_desc_to_linear(&d, &from_desc, &err) == LAYOUT_OK, "%s: %s", k->source, err.message);
        CHECK(layout_linear_invert(&inv, &ll, &err) == LAYOUT_OK);
        for (j = 0; j < 2; j++)
            for (b = 0; b < inv.in_bits[j] && j < from_desc.n_in; b++) {
                int64_t v1[LAYOUT_LINEAR_MAX_DIMS], v2[LAYOUT_LINEAR_MAX_DIMS];
                CHECK(layout_linear_get_basis(&inv, j, b, v1, NULL) == LAYOUT_OK);
                CHECK(layout_linear_get_basis(&from_desc, j, b, v2, NULL) == LAYOUT_OK);
                CHECK_MSG(v1[0] == v2[0], "%s: dim%d bit %d: desc_to_linear %lld, Triton's inverse %lld", k->source, j,
                          b, (long long)v2[0], (long long)v1[0]);
            }
    }
}

/* liblayout's own text form (`layout convert --to ck`): every
 * amd_rotating_shared (a naive base, two xor stages, merges) and every
 * nvmma_shared descriptor prints, reads back and has the same offsets. */
static void test_text_form(void)
{
    static const int64_t shapes[][2] = {{8, 16}, {64, 64}, {128, 32}, {32, 256}, {512, 64}};
    static const char *const attrs[] = {
        ROT("4", "2", "4", "1, 0"),   ROT("2", "1", "16", "0, 1"), ROT("8", "4", "4", "0, 1"),
        ROT("1", "1", "2", "1, 0"),   ROT("16", "8", "8", "1, 0"), NVMMA("128", "false", "16"),
        NVMMA("64", "true", "16"),    NVMMA("32", "false", "8"),   NVMMA("0", "true", "32"),
    };
    size_t i, s;
    int n = 0;
    for (i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            static char text[8192];
            layout_descriptor d, back;
            int64_t d0, d1, bad = 0;
            if (layout_desc_from_triton(attrs[i], 2, shapes[s], &d, NULL, &err) != LAYOUT_OK) {
                CHECK_MSG(strstr(attrs[i], "nvmma") != NULL, "%s: %s", attrs[i], err.message);
                continue;
            }
            CHECK_MSG(layout_desc_to_text(&d, text, sizeof text, &err) == LAYOUT_OK, "%s on [%lld, %lld]: %s", attrs[i],
                      (long long)shapes[s][0], (long long)shapes[s][1], err.message);
            CHECK_MSG(layout_desc_from_text(text, &back, NULL, &err) == LAYOUT_OK, "%s: %s", text, err.message);
            for (d0 = 0; d0 < shapes[s][0]; d0++)
                for (d1 = 0; d1 < shapes[s][1]; d1++) {
                    int64_t c[2] = {d0, d1}, o1 = -1, o2 = -2;
                    layout_desc_offset(&d, c, &o1, NULL);
                    layout_desc_offset(&back, c, &o2, NULL);
                    bad += o1 != o2;
                }
            CHECK_MSG(bad == 0, "%s: %lld elements moved", text, (long long)bad);
            n++;
        }
    CHECK(n >= 35);
}

/* Every element of every parameter set against the closed forms. */
static void test_rotating_reference(void)
{
    static const int64_t shapes[][2] = {{8, 16}, {16, 64}, {64, 32}, {128, 64}, {32, 128}, {4, 4}, {256, 8}, {1, 32}, {32, 1}};
    int64_t vec, pp, mp, cases = 0, elems = 0;
    int o, s;
    for (vec = 1; vec <= 16; vec *= 2)
        for (pp = 1; pp <= 8; pp *= 2)
            for (mp = 1; mp <= 16; mp *= 2)
                for (o = 0; o < 2; o++)
                    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
                        char text[160];
                        layout_descriptor d;
                        int64_t d0, d1, bad = 0;
                        snprintf(text, sizeof text,
                                 "#ttg.amd_rotating_shared<{vec = %lld, perPhase = %lld, maxPhase = %lld, order = [%d, %d]}>",
                                 (long long)vec, (long long)pp, (long long)mp, o ? 0 : 1, o ? 1 : 0);
                        if (layout_desc_from_triton(text, 2, shapes[s], &d, NULL, &err) != LAYOUT_OK) {
                            CHECK_MSG(0, "%s on [%lld, %lld]: %s", text, (long long)shapes[s][0],
                                      (long long)shapes[s][1], err.message);
                            continue;
                        }
                        for (d0 = 0; d0 < shapes[s][0]; d0++)
                            for (d1 = 0; d1 < shapes[s][1]; d1++) {
                                int64_t c[2] = {d0, d1}, off = -1,
                                        ref = ref_rotating_offset(vec, pp, mp, o ? 0 : 1, shapes[s], d0, d1);
                                layout_desc_offset(&d, c, &off, NULL);
                                if (off != ref && !bad++)
                                    CHECK_MSG(0, "%s on [%lld, %lld]: (%lld, %lld) at %lld, Triton's formula %lld", text,
                                              (long long)shapes[s][0], (long long)shapes[s][1], (long long)d0,
                                              (long long)d1, (long long)off, (long long)ref);
                                elems++;
                            }
                        cases++;
                    }
    printf("test_triton_shared: amd_rotating_shared: %lld cases, %lld elements compared with Triton's formula\n",
           (long long)cases, (long long)elems);
    CHECK_EQ_I64(cases, 5 * 4 * 5 * 2 * 9);
}

static int nvmma_valid(int sw, int transposed, int ebw, const int64_t *shape)
{
    int contig = transposed ? 0 : 1;
    int64_t box_c = shape[contig] < 256 ? shape[contig] : 256, box_r = shape[1 - contig] < 256 ? shape[1 - contig] : 256;
    if (sw == 0) return 1;
    return box_c >= 8 * sw / ebw && box_r >= 8;
}

static void test_nvmma_reference(void)
{
    static const int64_t shapes[][2] = {{8, 16},  {8, 64},   {16, 32},  {64, 64}, {128, 32}, {32, 128},
                                        {512, 64}, {64, 512}, {256, 256}, {8, 8},   {4, 128},  {1024, 16}};
    static const int sws[4] = {0, 32, 64, 128};
    int si, t, e, s, cases = 0, refused = 0;
    int64_t elems = 0;
    for (si = 0; si < 4; si++)
        for (t = 0; t < 2; t++)
            for (e = 8; e <= 64; e *= 2)
                for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
                    char text[160];
                    layout_descriptor d;
                    layout_status st;
                    int64_t d0, d1, bad = 0;
                    snprintf(text, sizeof text,
                             "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, elementBitWidth = %d}>", sws[si],
                             t ? "true" : "false", e);
                    st = layout_desc_from_triton(text, 2, shapes[s], &d, NULL, &err);
                    if (!nvmma_valid(sws[si], t, e, shapes[s])) {
                        CHECK_MSG(st == LAYOUT_ERR_ARG, "%s on [%lld, %lld]: accepted; Triton refuses it", text,
                                  (long long)shapes[s][0], (long long)shapes[s][1]);
                        CHECK_STR_CONTAINS(err.message, "Triton");
                        refused++;
                        continue;
                    }
                    if (st != LAYOUT_OK) {
                        CHECK_MSG(0, "%s on [%lld, %lld]: %s", text, (long long)shapes[s][0], (long long)shapes[s][1],
                                  err.message);
                        continue;
                    }
                    for (d0 = 0; d0 < shapes[s][0]; d0++)
                        for (d1 = 0; d1 < shapes[s][1]; d1++) {
                            int64_t c[2] = {d0, d1}, off = -1, ref = ref_nvmma_offset(sws[si], t, e, shapes[s], d0, d1);
                            layout_desc_offset(&d, c, &off, NULL);
                            if (off != ref && !bad++)
                                CHECK_MSG(0, "%s on [%lld, %lld]: (%lld, %lld) at %lld, Triton's formula %lld", text,
                                          (long long)shapes[s][0], (long long)shapes[s][1], (long long)d0, (long long)d1,
                                          (long long)off, (long long)ref);
                            elems++;
                        }
                    cases++;
                }
    printf("test_triton_shared: nvmma_shared: %d cases, %lld elements compared with Triton's formula, %d shapes refused as "
           "Triton refuses them\n",
           cases, (long long)elems, refused);
    CHECK_EQ_I64(cases + refused, 4 * 2 * 4 * 12);
    CHECK(refused > 20 && cases > 100);
}

/* The swizzled_shared bases agree with the family construction of
 * layout_triton_to_desc (GPU-checked in test_triton_fixtures.c): a
 * differential test of the bases builder shared with amd_rotating_shared. */
static void test_swizzled_bases_vs_family(void)
{
    static const int64_t shapes[][2] = {{16, 64}, {64, 32}, {8, 128}, {4, 4}};
    int64_t vec, pp, mp;
    int o, s, n = 0;
    for (vec = 1; vec <= 16; vec *= 2)
        for (pp = 1; pp <= 8; pp *= 2)
            for (mp = 1; mp <= 16; mp *= 2)
                for (o = 0; o < 2; o++)
                    for (s = 0; s < 4; s++) {
                        char text[160], why[160];
                        layout_triton_attr a;
                        layout_linear ll;
                        layout_descriptor d;
                        int64_t bases[64][2];
                        int b;
                        snprintf(text, sizeof text, SWZ("%lld", "%lld", "%lld", "%d, %d"), (long long)vec, (long long)pp,
                                 (long long)mp, o ? 0 : 1, o ? 1 : 0);
                        CHECK(layout_triton_from_text(text, &a, NULL, &err) == LAYOUT_OK);
                        CHECK_MSG(layout_triton_shared_linear(&a, 2, shapes[s], &ll, &err) == LAYOUT_OK, "%s", err.message);
                        CHECK_MSG(layout_triton_to_desc(&a, 2, shapes[s], &d, &err) == LAYOUT_OK, "%s", err.message);
                        for (b = 0; b < ll.in_bits[0]; b++) layout_linear_get_basis(&ll, 0, b, bases[b], NULL);
                        CHECK_MSG(desc_vs_bases(&d, (const int64_t(*)[2])bases, ll.in_bits[0], why, sizeof why) == 0,
                                  "%s on [%lld, %lld]: %s", text, (long long)shapes[s][0], (long long)shapes[s][1], why);
                        n++;
                    }
    CHECK_EQ_I64(n, 5 * 4 * 5 * 2 * 4);
}

/* The two ways to a shared attribute's dims -> offset linear map agree:
 * Triton's offset -> dims map inverted (layout_triton_shared_linear +
 * layout_linear_invert: what the kernel report reads a rank-2 swizzled,
 * rotating or nvmma allocation with, lib/triton_kernel/op.c) and the
 * descriptor's map (layout_triton_to_desc + layout_desc_to_linear: its
 * fallback, and what it read them with before).  Random attributes of the
 * three kinds on random power-of-two shapes; wherever Triton's map exists
 * the descriptor exists and every basis is equal. */
static void test_shared_linear_paths(void)
{
    uint64_t rng = 0x5eed5eedULL;
    int i, both = 0, only_desc = 0;
    for (i = 0; i < 3000; i++) {
        char text[200];
        int kind = (int)xorshift64s_range(&rng, 0, 2), o = (int)xorshift64s_range(&rng, 0, 1);
        int64_t shape[2] = {(int64_t)1 << xorshift64s_range(&rng, 0, 8), (int64_t)1 << xorshift64s_range(&rng, 0, 8)};
        layout_triton_attr a;
        layout_linear fwd, inv, viad;
        layout_descriptor d;
        int st_lin;
        if (kind < 2)
            snprintf(text, sizeof text, "#ttg.%s<{vec = %lld, perPhase = %lld, maxPhase = %lld, order = [%s]}>",
                     kind ? "amd_rotating_shared" : "swizzled_shared", 1LL << xorshift64s_range(&rng, 0, 4),
                     1LL << xorshift64s_range(&rng, 0, 3), 1LL << xorshift64s_range(&rng, 0, 4), o ? "0, 1" : "1, 0");
        else
            snprintf(text, sizeof text,
                     "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, elementBitWidth = %d}>",
                     (int)(xorshift64s_range(&rng, 0, 3) ? 16 << xorshift64s_range(&rng, 1, 3) : 0),
                     o ? "true" : "false", 8 << (int)xorshift64s_range(&rng, 0, 2));
        CHECK_MSG(layout_triton_from_text(text, &a, NULL, &err) == LAYOUT_OK, "%s: %s", text, err.message);
        st_lin = layout_triton_shared_linear(&a, 2, shape, &fwd, &err) == LAYOUT_OK &&
                 layout_linear_invert(&inv, &fwd, &err) == LAYOUT_OK;
        if (layout_triton_to_desc(&a, 2, shape, &d, &err) != LAYOUT_OK) {
            CHECK_MSG(!st_lin, "%s on [%lld, %lld]: Triton's map exists, the descriptor not: %s", text,
                      (long long)shape[0], (long long)shape[1], err.message);
            continue;
        }
        CHECK_MSG(layout_desc_to_linear(&d, &viad, &err) == LAYOUT_OK, "%s: %s", text, err.message);
        if (!st_lin) {
            only_desc++;
            continue;
        }
        both++;
        CHECK_EQ_I64(inv.n_in, viad.n_in);
        CHECK_EQ_I64(inv.n_out, viad.n_out);
        CHECK_EQ_I64(inv.total_in_bits, viad.total_in_bits);
        CHECK_MSG(strcmp(inv.out_names[0], viad.out_names[0]) == 0, "%s", text);
        for (int k = 0; k < inv.n_in && k < viad.n_in; k++) {
            CHECK_MSG(strcmp(inv.in_names[k], viad.in_names[k]) == 0 && inv.in_bits[k] == viad.in_bits[k], "%s dim %d",
                      text, k);
            for (int b = 0; b < inv.in_bits[k] && b < viad.in_bits[k]; b++) {
                int64_t x[1] = {0}, y[1] = {0};
                layout_linear_get_basis(&inv, k, b, x, NULL);
                layout_linear_get_basis(&viad, k, b, y, NULL);
                CHECK_MSG(x[0] == y[0], "%s on [%lld, %lld]: dim %d bit %d: %lld vs %lld", text, (long long)shape[0],
                          (long long)shape[1], k, b, (long long)x[0], (long long)y[0]);
            }
        }
    }
    printf("test_triton_shared: %d random attributes: %d with both maps equal, %d with the descriptor's only\n", i, both,
           only_desc);
    CHECK(both > 2000);
}

/* Every spelling real Triton 3.6.0 printed (tests/fixtures/triton/kernels/,
 * grep amd_rotating_shared / nvmma_shared) reads and prints back
 * identically; the optional fields print as Triton's printer does. */
static void test_text(void)
{
    static const char *const same[] = {
        "#ttg.amd_rotating_shared<{vec = 2, perPhase = 1, maxPhase = 16, order = [0, 1]}>",
        "#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>",
        "#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>",
        "#ttg.amd_rotating_shared<{vec = 8, perPhase = 4, maxPhase = 4, order = [0, 1]}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>",
        /* printed only when set (NVMMASharedEncodingAttr::print) */
        "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, fp4Padded = true}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, rank = 3}>",
    };
    static const struct {
        const char *in, *out;
    } canon[] = {
        {"#ttg.nvmma_shared<{elementBitWidth = 16, transposed = true, swizzlingByteWidth = 64, fp4Padded = false, rank = 2}>",
         "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>"},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CTAsPerCGA = [1, 1], "
         "CTASplitNum = [1, 1], CTAOrder = [1, 0]}>",
         "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"},
        {"#ttg.amd_rotating_shared<{order = [1, 0], maxPhase = 8, perPhase = 1, vec = 4, CTAsPerCGA = [1, 1]}>",
         "#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>"},
    };
    char buf[256];
    size_t i;
    for (i = 0; i < sizeof same / sizeof same[0]; i++) {
        layout_triton_attr a;
        CHECK_MSG(layout_triton_from_text(same[i], &a, NULL, &err) == LAYOUT_OK, "%s: %s", same[i], err.message);
        CHECK_MSG(layout_triton_to_text(&a, buf, sizeof buf, &err) == LAYOUT_OK, "%s: %s", same[i], err.message);
        CHECK_MSG(strcmp(buf, same[i]) == 0, "'%s' printed as '%s'", same[i], buf);
    }
    for (i = 0; i < sizeof canon / sizeof canon[0]; i++) {
        layout_triton_attr a;
        CHECK_MSG(layout_triton_from_text(canon[i].in, &a, NULL, &err) == LAYOUT_OK, "%s: %s", canon[i].in, err.message);
        CHECK(layout_triton_to_text(&a, buf, sizeof buf, &err) == LAYOUT_OK);
        CHECK_MSG(strcmp(buf, canon[i].out) == 0, "'%s' printed as '%s'", canon[i].in, buf);
    }
    {
        layout_triton_attr a;
        CHECK(layout_triton_from_text(same[6], &a, NULL, &err) == LAYOUT_OK);
        CHECK(a.kind == LAYOUT_TRITON_NVMMA_SHARED && a.swizzling_byte_width == 128 && a.transposed == 1 &&
              a.element_bit_width == 16 && a.fp4_padded == 0 && a.rank == 2);
        CHECK(layout_triton_from_text(same[2], &a, NULL, &err) == LAYOUT_OK);
        CHECK(a.kind == LAYOUT_TRITON_AMD_ROTATING_SHARED && a.vec == 4 && a.per_phase == 2 && a.max_phase == 8 &&
              a.order[0] == 0 && a.order[1] == 1 && a.rank == 2);
    }
}

/* Invalid fields: a clear status, a message naming the field, the column. */
static void test_rejections(void)
{
    static const struct {
        const char *text;
        layout_status st;
        const char *msg;
        const char *at; /* the text the error points at (NULL: not checked) */
    } bad[] = {
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 48, transposed = false, elementBitWidth = 16}>", LAYOUT_ERR_ARG,
         "0, 32, 64 or 128", "48"},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 0}>", LAYOUT_ERR_ARG,
         "elementBitWidth = 0", "0}"},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 12}>", LAYOUT_ERR_ARG,
         "power of two", "12}"},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = maybe, elementBitWidth = 16}>", LAYOUT_ERR_PARSE,
         "true or false", "maybe"},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16}>", LAYOUT_ERR_PARSE,
         "missing field 'transposed'", NULL},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, vec = 8}>",
         LAYOUT_ERR_PARSE, "unknown field 'vec'", "vec"},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CTAsPerCGA = [2, 1]}>",
         LAYOUT_ERR_UNSUPPORTED, "one CTA", "CTAsPerCGA"},
        {"#ttg.amd_rotating_shared<{vec = 3, perPhase = 1, maxPhase = 4, order = [1, 0]}>", LAYOUT_ERR_ARG,
         "vec = 3", "3,"},
        {"#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, order = [1, 0]}>", LAYOUT_ERR_PARSE,
         "missing field 'maxPhase'", NULL},
        {"#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [4, 3, 2, 1, 0]}>",
         LAYOUT_ERR_UNSUPPORTED, "amd_rotating_shared of rank 5", NULL},
        {"#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0], shape = [4]}>",
         LAYOUT_ERR_PARSE, "unknown field 'shape' (amd_rotating_shared has", "shape"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        layout_triton_attr a;
        size_t where = 0;
        layout_status st = layout_triton_from_text(bad[i].text, &a, &where, &err);
        CHECK_MSG(st == bad[i].st, "%s: status %d, expected %d (%s)", bad[i].text, (int)st, (int)bad[i].st, err.message);
        CHECK_STR_CONTAINS(err.message, bad[i].msg);
        if (bad[i].at)
            CHECK_MSG(where == (size_t)(strstr(bad[i].text, bad[i].at) - bad[i].text), "%s: column %zu, expected %zu (%s)",
                      bad[i].text, where, (size_t)(strstr(bad[i].text, bad[i].at) - bad[i].text), err.message);
    }
    /* building: shapes Triton refuses, fields not modelled */
    {
        static const struct {
            const char *text;
            int n;
            int64_t shape[3];
            layout_status st;
            const char *msg;
        } b2[] = {
            {NVMMA("128", "false", "16"), 2, {64, 32}, LAYOUT_ERR_ARG, "needs 64 elements along dim1"},
            {NVMMA("128", "true", "16"), 2, {32, 64}, LAYOUT_ERR_ARG, "needs 64 elements along dim0"},
            {NVMMA("64", "false", "16"), 2, {4, 64}, LAYOUT_ERR_ARG, "collapsed TMA box of at least [8, 32]; the shape gives [4, 32]"},
            {NVMMA("64", "false", "16"), 2, {48, 64}, LAYOUT_ERR_ARG, "not a power of two"},
            /* a leading buffer dim (a multi-buffered memdesc) is read; 3 buffers are not linear */
            {NVMMA("64", "false", "16"), 3, {3, 64, 64}, LAYOUT_ERR_UNSUPPORTED, "shape[0] = 3 buffers is not a power of two"},
            {NVMMA("64", "false", "16"), 1, {64}, LAYOUT_ERR_ARG, "of rank 2 needs 2 shape values"},
            {"#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 3}>", 2,
             {64, 64}, LAYOUT_ERR_ARG, "of rank 3 needs 3 shape values"},
            {ROT("4", "1", "4", "1, 0"), 2, {64, 24}, LAYOUT_ERR_ARG, "shape[1] = 24 is not a power of two"},
            {ROT("4", "1", "4", "1, 0"), 0, {0}, LAYOUT_ERR_ARG, "needs a 2-D shape"},
            {ROT("4", "1", "4", "1, 0"), 2, {(int64_t)1 << 21, (int64_t)1 << 20}, LAYOUT_ERR_ARG, "more than 2^40"},
        };
        for (i = 0; i < sizeof b2 / sizeof b2[0]; i++) {
            layout_descriptor d;
            layout_linear ll;
            layout_triton_attr a;
            layout_status st = layout_desc_from_triton(b2[i].text, b2[i].n, b2[i].shape, &d, NULL, &err);
            CHECK_MSG(st == b2[i].st, "%s: status %d, expected %d (%s)", b2[i].text, (int)st, (int)b2[i].st, err.message);
            CHECK_STR_CONTAINS(err.message, b2[i].msg);
            CHECK(layout_triton_from_text(b2[i].text, &a, NULL, &err) == LAYOUT_OK);
            CHECK(layout_triton_shared_linear(&a, b2[i].n, b2[i].shape, &ll, &err) == b2[i].st);
        }
    }
    /* fp4Padded: two offsets per byte pair hold one coordinate (Triton's
     * MMAv5Fp4Padded, test_triton_peer): a linear layout, not a descriptor */
    {
        layout_descriptor d;
        layout_linear ll;
        layout_triton_attr a;
        static const int64_t shape[2] = {32, 64};
        const char *fp4 = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, "
                          "fp4Padded = true}>";
        CHECK(layout_triton_from_text(fp4, &a, NULL, &err) == LAYOUT_OK);
        CHECK(layout_triton_shared_linear(&a, 2, shape, &ll, &err) == LAYOUT_OK);
        CHECK(ll.total_in_bits == 12);
        CHECK(layout_desc_from_triton(fp4, 2, shape, &d, NULL, &err) != LAYOUT_OK);
        CHECK_STR_CONTAINS(err.message, "not injective");
        /* ranks 1 to 4 have linear layouts; descriptors stay 2-D */
        CHECK(layout_desc_from_triton(SWZ("2", "2", "4", "2, 1, 0"), 2, shape, &d, NULL, &err) == LAYOUT_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(err.message, "swizzled_shared of rank 3: descriptors are 2-D");
        /* a rank-1 attribute over two shape values: the first a buffer dim
         * (32 buffers of 64 elements, one after another) */
        CHECK(layout_desc_from_triton(ROT("2", "2", "4", "0"), 2, shape, &d, NULL, &err) == LAYOUT_OK);
    }
    /* they are shared layouts: no distribution, no register layout */
    {
        layout_triton_attr a;
        layout_distribution dist;
        layout_linear ll;
        static const int64_t shape[2] = {64, 64};
        CHECK(layout_triton_from_text(NVMMA("128", "false", "16"), &a, NULL, &err) == LAYOUT_OK);
        CHECK(layout_triton_to_dist(&a, 2, shape, NULL, 0, &dist, &err) == LAYOUT_ERR_UNSUPPORTED);
        CHECK(layout_triton_to_linear(&a, 2, shape, &ll, &err) == LAYOUT_ERR_UNSUPPORTED);
        CHECK(layout_triton_shared_linear(NULL, 2, shape, &ll, &err) == LAYOUT_ERR_NULL);
        CHECK(layout_triton_from_text(BLK_FOR_TEST, &a, NULL, &err) == LAYOUT_OK);
        CHECK(layout_triton_shared_linear(&a, 2, shape, &ll, &err) == LAYOUT_ERR_UNSUPPORTED);
    }
}

int main(void)
{
    RUN(test_known_answers);
    RUN(test_text);
    RUN(test_rejections);
    RUN(test_text_form);
    RUN(test_rotating_reference);
    RUN(test_nvmma_reference);
    RUN(test_swizzled_bases_vs_family);
    RUN(test_shared_linear_paths);
    return harness_finish("test_triton_shared");
}
