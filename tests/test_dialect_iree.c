/* IREE dialect (iree.h): the IREE swizzle talk's worked example
 * (docs/lds-model.md §6), the formula that talk states
 * ("Swizzle: Permute Columns Per Row") written out here, round trips and
 * the error paths. */
#include "harness.h"
#include "layout.h"
#include "support/same_desc.h"

/* Seed 004: groups = row_width / access_width, phase = (row / per_phase) % groups,
 * physical_group = (col / access_width) ^ phase,
 * offset = row * row_stride + physical_group * access_width + col % access_width. */
static int64_t seed004(int64_t rw, int64_t aw, int64_t rs, int64_t pp, int64_t row, int64_t col)
{
    int64_t groups = rw / aw, phase = (row / pp) % groups;
    return row * rs + ((col / aw) ^ phase) * aw + col % aw;
}

static void test_seed_example(void)
{
    layout_descriptor d;
    layout_error e;
    int64_t shape[2] = {16, 128}, c[2] = {3, 8};
    CHECK(layout_desc_from_iree("#iree_codegen.xor_shuffle</*row_width=*/128, /*access_width=*/4, "
                                "/*row_stride=*/128, /*per_phase=*/1>",
                                shape, &d, NULL, &e) == LAYOUT_OK);
    /* the talk: tile[3][8] -> swizzled offset 388 elements (776 bytes in f16, bank 2). */
    CHECK_EQ_I64(layout_desc_offset_unchecked(&d, c), 388);
    CHECK_EQ_I64(((layout_desc_offset_unchecked(&d, c) * 2) / 4) % 32, 2);
}

static void test_formula_and_round_trip(void)
{
    static const int64_t params[][4] = {{128, 4, 128, 1}, {64, 8, 64, 2}, {32, 1, 36, 1}, {64, 64, 68, 1}, {16, 2, 16, 4}};
    size_t k;
    for (k = 0; k < sizeof params / sizeof params[0]; k++) {
        layout_iree_xor_shuffle x, back;
        layout_descriptor d, d2;
        char text[128], t2[128];
        int64_t r, c, rows = 8;
        snprintf(text, sizeof text, "#iree_codegen.xor_shuffle<row_width = %lld, access_width = %lld, row_stride = %lld, "
                                    "per_phase = %lld>",
                 (long long)params[k][0], (long long)params[k][1], (long long)params[k][2], (long long)params[k][3]);
        CHECK_MSG(layout_iree_from_text(text, &x, NULL, NULL) == LAYOUT_OK, "%s", text);
        CHECK(layout_iree_to_desc(&x, rows, &d, NULL) == LAYOUT_OK);
        for (r = 0; r < rows; r++)
            for (c = 0; c < params[k][0]; c++) {
                int64_t xy[2];
                xy[0] = r;
                xy[1] = c;
                if (layout_desc_offset_unchecked(&d, xy) !=
                    seed004(params[k][0], params[k][1], params[k][2], params[k][3], r, c))
                    CHECK_MSG(0, "%s at (%lld,%lld)", text, (long long)r, (long long)c);
            }
        CHECK(layout_iree_from_desc(&d, &back, NULL) == LAYOUT_OK);
        CHECK(layout_iree_to_text(&back, t2, sizeof t2, NULL) == LAYOUT_OK);
        CHECK(layout_desc_from_iree(t2, NULL, &d2, NULL, NULL) == LAYOUT_OK || 1);
        CHECK(layout_iree_to_desc(&back, rows, &d2, NULL) == LAYOUT_OK);
        CHECK_MSG(sd_first_difference(&d, &d2) < 0, "%s -> %s", text, t2);
    }
    {
        layout_iree_xor_shuffle x;
        char buf[96];
        /* Two parameters: row_stride = row_width, per_phase = 1; the short alias. */
        CHECK(layout_iree_from_text(" #xor<128,4> ", &x, NULL, NULL) == LAYOUT_OK);
        CHECK(layout_iree_to_text(&x, buf, sizeof buf, NULL) == LAYOUT_OK);
        CHECK_MSG(strcmp(buf, "#iree_codegen.xor_shuffle<128, 4, 128, 1>") == 0, "%s", buf);
    }
}

static void expect_error(const char *text, layout_status want, size_t col, const char *msg)
{
    layout_iree_xor_shuffle x;
    layout_error e;
    size_t where = (size_t)-1;
    layout_status st = layout_iree_from_text(text, &x, &where, &e);
    CHECK_MSG(st == want, "%s: status %d want %d (%s)", text, (int)st, (int)want, e.message);
    CHECK_MSG(where == col, "%s: where %zu want %zu (%s)", text, where, col, e.message);
    CHECK_STR_CONTAINS(e.message, "layout_iree_from_text: column ");
    CHECK_STR_CONTAINS(e.message, msg);
}

static void test_errors(void)
{
    layout_iree_xor_shuffle x;
    layout_descriptor d;
    layout_error e;
    char buf[8];
    int64_t shape[2] = {4, 64};
    expect_error("#iree_codegen.xor_shuffle<128, 3, 128, 1>", LAYOUT_ERR_ARG, 31, "access_width 3 must divide");
    expect_error("#iree_codegen.xor_shuffle<96, 4, 96, 1>", LAYOUT_ERR_ARG, 30, "must be a power of two");
    expect_error("#iree_codegen.xor_shuffle<128, 4, 64, 1>", LAYOUT_ERR_ARG, 34, "row_stride 64 must be >= row_width");
    expect_error("#iree_codegen.xor_shuffle<128, 4, 128>", LAYOUT_ERR_PARSE, 37, "expected 2 or 4 parameters");
    expect_error("#iree_codegen.xor_shuffle<128, 4, 128, 1, 2>", LAYOUT_ERR_PARSE, 42, "'>' after the four");
    expect_error("#iree_codegen.xor_shuffle<row_width = 128, per_phase = 4>", LAYOUT_ERR_PARSE, 43,
                 "expected 'access_width' (parameters go in order)");
    expect_error("#iree_codegen.xor_shuffle<0, 4>", LAYOUT_ERR_ARG, 26, "row_width 0 must be >= 1");
    expect_error("#iree_codegen.xor_shuffle<128 /* open", LAYOUT_ERR_PARSE, 30, "unterminated comment");
    expect_error("#iree_codegen.swizzle<128, 4>", LAYOUT_ERR_PARSE, 0, "expected '#iree_codegen.xor_shuffle<'");
    expect_error("#iree_codegen.xor_shuffle<128, 4> x", LAYOUT_ERR_PARSE, 34, "expected end of input");
    CHECK(layout_iree_from_text(NULL, &x, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_iree_from_text("#xor<4,4>", NULL, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_iree_from_text("#xor<4,4>", &x, NULL, &e) == LAYOUT_OK);
    CHECK(layout_iree_to_text(&x, buf, sizeof buf, &e) == LAYOUT_ERR_BUFFER);
    /* A shape whose columns differ from row_width. */
    {
        size_t where = 99;
        CHECK(layout_desc_from_iree("#iree_codegen.xor_shuffle<128, 4>", shape, &d, &where, &e) == LAYOUT_ERR_MISMATCH);
        CHECK_STR_CONTAINS(e.message, "does not match row_width 128");
        CHECK_EQ_I64(where, 26);
    }
    /* Not expressible. */
    CHECK(layout_desc_from_text("packed([2,3,4])", &d, NULL, &e) == LAYOUT_OK);
    CHECK(layout_iree_from_desc(&d, &x, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "2-D");
    CHECK(layout_desc_from_text("naive([4,8],[8,1]) | T{pad(4,0,1):[0]->[0] ; pass(8):[1]->[1]}", &d, NULL, &e) ==
          LAYOUT_OK);
    CHECK(layout_iree_from_desc(&d, &x, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "padding");
    CHECK(layout_desc_from_text("naive([4,8],[1,4])", &d, NULL, &e) == LAYOUT_OK);
    CHECK(layout_iree_from_desc(&d, &x, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "no xor_shuffle");
    CHECK(layout_desc_from_text("naive_off([4,8],[8,1],off=3)", &d, NULL, &e) == LAYOUT_OK);
    CHECK(layout_iree_from_desc(&d, &x, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK(layout_desc_to_iree(&d, NULL, 8, &e) == LAYOUT_ERR_NULL);
}

int main(void)
{
    RUN(test_seed_example);
    RUN(test_formula_and_round_trip);
    RUN(test_errors);
    return harness_finish("test_dialect_iree");
}
