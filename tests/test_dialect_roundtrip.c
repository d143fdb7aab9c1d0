/* Round trips through every dialect (dialect.h): a descriptor that a
 * dialect can express comes back from its text with identical offsets and
 * validity on every coordinate.  Inputs: random descriptors
 * (support/rand_desc.h) and random members of the swizzle families, which
 * the dialects must recognise. */
#include "harness.h"
#include "layout.h"
#include "support/rand_desc.h"
#include "support/same_desc.h"

static const layout_dialect k_dialects[] = {LAYOUT_DIALECT_CK, LAYOUT_DIALECT_CUTE, LAYOUT_DIALECT_TRITON,
                                            LAYOUT_DIALECT_IREE, LAYOUT_DIALECT_LINEAR};

/* Returns a bit mask of the dialects that expressed d. */
static int round_trip(const layout_descriptor *d)
{
    int mask = 0, n = layout_desc_ndims(d), j;
    size_t k;
    int64_t shape[LAYOUT_MAX_DIMS];
    for (j = 0; j < n; j++) shape[j] = layout_desc_length(d, j);
    for (k = 0; k < sizeof k_dialects / sizeof k_dialects[0]; k++) {
        static char text[LAYOUT_TEXT_CAP];
        layout_descriptor back;
        layout_error e;
        if (layout_desc_to_dialect(k_dialects[k], d, text, sizeof text, &e) != LAYOUT_OK) {
            CHECK_MSG(e.status == LAYOUT_ERR_UNSUPPORTED || e.status == LAYOUT_ERR_CAPACITY, "%s: %s",
                      layout_dialect_name(k_dialects[k]), e.message);
            continue;
        }
        mask |= 1 << k;
        CHECK_MSG(layout_dialect_detect(text) == k_dialects[k], "%s detected as %s", text,
                  layout_dialect_name(layout_dialect_detect(text)));
        if (layout_desc_from_dialect(k_dialects[k], text, n, shape, &back, NULL, &e) != LAYOUT_OK) {
            CHECK_MSG(0, "%s: %s", text, e.message);
            continue;
        }
        CHECK_MSG(sd_first_difference(d, &back) < 0, "%s -> %s", layout_dialect_name(k_dialects[k]), text);
    }
    return mask;
}

static void test_random_descriptors(void)
{
    rd_rng r = {0xD1A1Ecu};
    long it, n = harness_scaled(200);
    int seen = 0;
    for (it = 0; it < n; it++) {
        layout_descriptor d;
        if (!rd_random_desc(&r, 2, 1024, &d)) continue;
        seen |= round_trip(&d);
    }
    CHECK(seen & 1); /* ck always */
}

static void test_random_families(void)
{
    rd_rng r = {0xFA511u};
    long it, n = harness_scaled(150);
    int seen = 0;
    for (it = 0; it < n; it++) {
        layout_family_params p;
        layout_descriptor d;
        int64_t tile[2];
        int m;
        memset(&p, 0, sizeof p);
        tile[0] = (int64_t)1 << rd_range(&r, 0, 5);
        tile[1] = (int64_t)1 << rd_range(&r, 0, 6);
        p.contiguous_dim = (int)rd_range(&r, 0, 1);
        switch (rd_range(&r, 0, 3)) {
        case 0:
            p.kind = LAYOUT_FAMILY_CUTE_SWIZZLE;
            p.p[0] = rd_range(&r, 1, 3);
            p.p[1] = rd_range(&r, 0, 3);
            p.p[2] = p.p[0] + rd_range(&r, 0, 2);
            break;
        case 1:
            p.kind = LAYOUT_FAMILY_TRITON_SWIZZLED;
            p.p[0] = (int64_t)1 << rd_range(&r, 0, 3);
            p.p[1] = (int64_t)1 << rd_range(&r, 0, 2);
            p.p[2] = (int64_t)1 << rd_range(&r, 0, 3);
            break;
        case 2:
            p.kind = LAYOUT_FAMILY_IREE_XOR_SHUFFLE;
            p.contiguous_dim = 1;
            p.p[0] = tile[1];
            p.p[1] = (int64_t)1 << rd_range(&r, 0, 3);
            p.p[2] = tile[1] + rd_range(&r, 0, 1) * 4;
            p.p[3] = (int64_t)1 << rd_range(&r, 0, 2);
            break;
        default:
            p.kind = LAYOUT_FAMILY_PAD;
            p.p[0] = rd_range(&r, 0, 4);
            break;
        }
        if (layout_family_build(&p, tile, &d, NULL) != LAYOUT_OK) continue;
        m = round_trip(&d);
        seen |= m;
        /* Each family must be recognised by its own dialect. */
        if (p.kind == LAYOUT_FAMILY_TRITON_SWIZZLED) CHECK(m & (1 << 2));
        if (p.kind == LAYOUT_FAMILY_IREE_XOR_SHUFFLE) CHECK(m & (1 << 3));
        if (p.kind == LAYOUT_FAMILY_CUTE_SWIZZLE) CHECK(m & (1 << 1));
    }
    /* every dialect expressed something (needs enough iterations: full scale only) */
    if (n >= 150) CHECK((seen & 0x1f) == 0x1f);
}

static void test_detect(void)
{
    CHECK(layout_dialect_detect("  #ttg.blocked<{}>") == LAYOUT_DIALECT_TRITON);
    CHECK(layout_dialect_detect("#ttg.linear<{}>") == LAYOUT_DIALECT_LINEAR);
    CHECK(layout_dialect_detect("{\"offset\": []}") == LAYOUT_DIALECT_LINEAR);
    CHECK(layout_dialect_detect("#iree_codegen.xor_shuffle<1,1>") == LAYOUT_DIALECT_IREE);
    CHECK(layout_dialect_detect("#xor<1,1>") == LAYOUT_DIALECT_IREE);
    CHECK(layout_dialect_detect("Sw<1,2,3> o _0 o _8:_1") == LAYOUT_DIALECT_CUTE);
    CHECK(layout_dialect_detect("(_8,_4):(_1,_8)") == LAYOUT_DIALECT_CUTE);
    CHECK(layout_dialect_detect("_8:_1") == LAYOUT_DIALECT_CUTE);
    CHECK(layout_dialect_detect("8:1") == LAYOUT_DIALECT_CUTE);
    CHECK(layout_dialect_detect("packed([4,8])") == LAYOUT_DIALECT_CK);
    CHECK(layout_dialect_detect("8") == LAYOUT_DIALECT_CK);
    CHECK(layout_dialect_detect(NULL) == LAYOUT_DIALECT_CK);
    {
        layout_dialect d;
        layout_error e;
        CHECK(layout_dialect_from_name("ck-cpp", &d, &e) == LAYOUT_OK && d == LAYOUT_DIALECT_CK_CPP);
        CHECK(layout_dialect_from_name("mlir", &d, &e) == LAYOUT_ERR_NOT_FOUND);
        CHECK_STR_CONTAINS(e.message, "unknown dialect 'mlir'");
        CHECK(layout_dialect_from_name(NULL, &d, &e) == LAYOUT_ERR_NULL);
        CHECK(strcmp(layout_dialect_name(LAYOUT_DIALECT_IREE), "iree") == 0);
        CHECK(strcmp(layout_dialect_name((layout_dialect)42), "?") == 0);
    }
    {
        layout_descriptor d;
        layout_distribution dist;
        layout_error e;
        char buf[64];
        CHECK(layout_desc_from_dialect(LAYOUT_DIALECT_CK_CPP, "x", 0, NULL, &d, NULL, &e) == LAYOUT_ERR_UNSUPPORTED);
        CHECK(layout_desc_from_dialect(LAYOUT_DIALECT_IREE, "#xor<4,4>", 1, (const int64_t[]){4}, &d, NULL, &e) ==
              LAYOUT_ERR_ARG);
        CHECK(layout_dist_from_dialect(LAYOUT_DIALECT_CUTE, "_8:_1", 0, NULL, NULL, 0, &dist, NULL, &e) ==
              LAYOUT_ERR_UNSUPPORTED);
        CHECK(layout_desc_from_text("packed([4,8])", &d, NULL, &e) == LAYOUT_OK);
        CHECK(layout_desc_to_dialect(LAYOUT_DIALECT_CK_CPP, &d, buf, sizeof buf, &e) == LAYOUT_ERR_BUFFER);
        {
            static char big[LAYOUT_TEXT_CAP];
            CHECK(layout_desc_to_dialect(LAYOUT_DIALECT_CK_CPP, &d, big, sizeof big, &e) == LAYOUT_OK);
            CHECK_STR_CONTAINS(big, "make_naive_tensor_descriptor_packed(");
        }
        CHECK(layout_desc_to_dialect(LAYOUT_DIALECT_CK, NULL, buf, sizeof buf, &e) == LAYOUT_ERR_NULL);
        /* Not linear over F2: a padded row pitch. */
        CHECK(layout_desc_from_text("naive([4,8],[9,1])", &d, NULL, &e) == LAYOUT_OK);
        CHECK(layout_desc_to_dialect(LAYOUT_DIALECT_LINEAR, &d, buf, sizeof buf, &e) == LAYOUT_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(e.message, "not linear over F2");
    }
}

int main(void)
{
    RUN(test_detect);
    RUN(test_random_descriptors);
    RUN(test_random_families);
    return harness_finish("test_dialect_roundtrip");
}
