/* The helpers the files of lib/triton_kernel share (tk_internal.h), called
 * directly:
 *
 * - layout_tk_not_modelled records an op as not modelled: modelled = 0,
 *   the reason printf'd into the report and cut to its capacity
 *   (LAYOUT_TRITON_KERNEL_REASON_CAP - 1 bytes and a NUL, the C standard's
 *   snprintf contract: the expected text is built here with memcpy), the
 *   other fields untouched, LAYOUT_OK returned;
 * - layout_tk_inline_aliases replaces every alias named inside an
 *   attribute by its text through the ttgir layer's lookup
 *   (layout_ttgir_alias_find): nested aliases expanded, undefined names
 *   kept, too deep or cyclic chains and small buffers refused;
 * - through layout_triton_kernel_analyze, ops the model does not rebuild
 *   are reported with the reason each lowering records. */
#include "harness.h"
#include "layout.h"
#include "triton_kernel/tk_internal.h"

#define CAP LAYOUT_TRITON_KERNEL_REASON_CAP

static layout_triton_kernel_op rep;
static layout_ttgir mod;
static layout_triton_kernel kern;
static layout_error err;

/* A report some lowering had started to fill before it gave up. */
static void fill_started(layout_triton_kernel_op *r)
{
    memset(r, 0, sizeof *r);
    r->op = 7;
    r->kind = LAYOUT_TTGIR_LOCAL_LOAD;
    r->line = 42;
    snprintf(r->loc, sizeof r->loc, "\"k.py\":1:2");
    r->modelled = 1;
    snprintf(r->reason, sizeof r->reason, "an older reason");
    r->direction = LAYOUT_READ;
    r->reg_enc_at = 1234;
    r->elem_bits = 16;
    r->vec_elems = 4;
    r->vec_bits = 64;
    r->n_accesses = 8;
    r->worst_access = 3;
}

/* Every field but modelled and reason is as fill_started left it. */
static int rest_untouched(const layout_triton_kernel_op *r)
{
    layout_triton_kernel_op want;
    fill_started(&want);
    return r->op == want.op && r->kind == want.kind && r->line == want.line && strcmp(r->loc, want.loc) == 0 &&
           r->direction == want.direction && r->reg_enc_at == want.reg_enc_at && r->elem_bits == want.elem_bits &&
           r->vec_elems == want.vec_elems && r->vec_bits == want.vec_bits && r->n_accesses == want.n_accesses &&
           r->worst_access == want.worst_access;
}

static void test_not_modelled_fields(void)
{
    CHECK_EQ_I64(sizeof rep.reason, CAP);
    /* a plain reason */
    fill_started(&rep);
    CHECK(layout_tk_not_modelled(&rep, "tt.reduce: its axis attribute was not read") == LAYOUT_OK);
    CHECK_EQ_I64(rep.modelled, 0);
    CHECK(strcmp(rep.reason, "tt.reduce: its axis attribute was not read") == 0);
    CHECK(rest_untouched(&rep));
    /* printf arguments; the older reason is replaced, not appended to */
    fill_started(&rep);
    CHECK(layout_tk_not_modelled(&rep, "element type %s: not %d, %d, %d or %d bits", "f4E2M1FN", 8, 16, 32, 64) ==
          LAYOUT_OK);
    CHECK_EQ_I64(rep.modelled, 0);
    CHECK(strcmp(rep.reason, "element type f4E2M1FN: not 8, 16, 32 or 64 bits") == 0);
    CHECK(rest_untouched(&rep));
    /* a reason passed through "%s" is copied as it is, '%' included */
    fill_started(&rep);
    CHECK(layout_tk_not_modelled(&rep, "ttg.convert_layout: %s", "100% of %d") == LAYOUT_OK);
    CHECK(strcmp(rep.reason, "ttg.convert_layout: 100% of %d") == 0);
    /* an empty reason is still a record: modelled 0, reason "" */
    fill_started(&rep);
    CHECK(layout_tk_not_modelled(&rep, "%s", "") == LAYOUT_OK);
    CHECK_EQ_I64(rep.modelled, 0);
    CHECK_EQ_I64(rep.reason[0], '\0');
    CHECK(rest_untouched(&rep));
}

/* The reason of a message of n bytes after the prefix "tt.reduce: ". */
static void check_cut(size_t n)
{
    static char msg[3 * CAP], want[3 * CAP];
    static const char prefix[] = "tt.reduce: ";
    size_t p = sizeof prefix - 1, full = p + n, kept = full < CAP - 1 ? full : CAP - 1, i;
    for (i = 0; i < n; i++) msg[i] = (char)('a' + i % 26);
    msg[n] = '\0';
    memcpy(want, prefix, p);
    memcpy(want + p, msg, n);
    want[kept] = '\0'; /* snprintf keeps the first cap - 1 bytes */
    fill_started(&rep);
    CHECK(layout_tk_not_modelled(&rep, "tt.reduce: %s", msg) == LAYOUT_OK);
    CHECK_EQ_I64(rep.modelled, 0);
    CHECK_MSG(strlen(rep.reason) == kept, "n = %zu: length %zu, want %zu", n, strlen(rep.reason), kept);
    CHECK_MSG(strcmp(rep.reason, want) == 0, "n = %zu: \"%s\"", n, rep.reason);
    CHECK_MSG(rest_untouched(&rep), "n = %zu: a field after the reason changed", n);
}

static void test_not_modelled_overflow(void)
{
    size_t p = strlen("tt.reduce: ");
    check_cut(0);
    check_cut(CAP - 2 - p); /* one byte short of full */
    check_cut(CAP - 1 - p); /* exactly full: CAP - 1 bytes and the NUL */
    check_cut(CAP - p);     /* one byte over: the last is cut */
    check_cut(2 * CAP);     /* far over */
    /* the cut text fills the whole field and ends in its NUL */
    CHECK_EQ_I64(rep.reason[CAP - 1], '\0');
    CHECK_EQ_I64(strlen(rep.reason), CAP - 1);
}

/* Inline the aliases of attr in mod; -1 as the helper. */
static long inline_of(const char *attr, char *buf, size_t cap)
{
    return layout_tk_inline_aliases(&mod, attr, strlen(attr), buf, cap, 0);
}

static void test_inline_aliases(void)
{
    static const char t[] = "#mma = #ttg.amd_mfma<{version = 3}>\n"
                            "#dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>\n"
                            "#c0 = #c1\n#c1 = #c2\n#c2 = #c3\n#c3 = #c4\n#c4 = #c5\n"
                            "#c5 = #c6\n#c6 = #c7\n#c7 = #c8\n#c8 = #ttg.blocked<{}>\n#c9 = #c0\n"
                            "#loop = #loop\n";
    char buf[256];
    CHECK_MSG(layout_ttgir_parse(t, sizeof t - 1, &mod, &err) == LAYOUT_OK, "%s", err.message);
    /* defined: replaced by its text */
    CHECK_EQ_I64(inline_of("#mma", buf, sizeof buf), (long)strlen("#ttg.amd_mfma<{version = 3}>"));
    CHECK(strcmp(buf, "#ttg.amd_mfma<{version = 3}>") == 0);
    /* nested: #dot's text names #mma, expanded in turn */
    CHECK(inline_of("#dot", buf, sizeof buf) > 0);
    CHECK(strcmp(buf, "#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3}>, kWidth = 4}>") == 0);
    CHECK(inline_of("#ttg.slice<{dim = 1, parent = #dot}>", buf, sizeof buf) > 0);
    CHECK(strcmp(buf, "#ttg.slice<{dim = 1, parent = #ttg.dot_op<{opIdx = 0, parent = "
                      "#ttg.amd_mfma<{version = 3}>, kWidth = 4}>}>") == 0);
    /* undefined: kept as written; "#ttg." is never looked up */
    CHECK(inline_of("#ttg.dot_op<{opIdx = 1, parent = #nope}>", buf, sizeof buf) > 0);
    CHECK(strcmp(buf, "#ttg.dot_op<{opIdx = 1, parent = #nope}>") == 0);
    CHECK(inline_of("#mm", buf, sizeof buf) == 3 && strcmp(buf, "#mm") == 0);
    /* aliases nest at most 8 deep: #c1 expands 8 aliases (#c1 .. #c8), #c0
     * 9 and #c9 10 are refused, and so is a cycle */
    CHECK(inline_of("#c1", buf, sizeof buf) > 0 && strcmp(buf, "#ttg.blocked<{}>") == 0);
    CHECK(inline_of("#c8", buf, sizeof buf) > 0 && strcmp(buf, "#ttg.blocked<{}>") == 0);
    CHECK_EQ_I64(inline_of("#c0", buf, sizeof buf), -1);
    CHECK_EQ_I64(inline_of("#c9", buf, sizeof buf), -1);
    CHECK_EQ_I64(inline_of("#loop", buf, sizeof buf), -1);
    /* the buffer: the text and its NUL must fit */
    CHECK_EQ_I64(inline_of("#mma", buf, strlen("#ttg.amd_mfma<{version = 3}>") + 1),
                 (long)strlen("#ttg.amd_mfma<{version = 3}>"));
    CHECK_EQ_I64(inline_of("#mma", buf, strlen("#ttg.amd_mfma<{version = 3}>")), -1);
}

/* End to end: ops the model does not rebuild, each with the reason its
 * lowering records (triton_kernel.c, convert.c, reduce.c), as reports and
 * in the JSON's "not_modelled" list. */
static void test_not_modelled_reports(void)
{
    static const char t[] =
        "#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
        "#s = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n"
        "module attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\", \"ttg.threads-per-warp\" = 64 "
        ": i32} {\n"
        "    %1 = ttg.local_alloc %0 : (tensor<64x64xf16, #b>) -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>\n"
        "    %2 = ttg.local_load %1 : !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf16, #nope>\n"
        "    %3 = ttg.local_load %1 : !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<4x64x64xf16, #b>\n"
        "    %4 = ttg.convert_layout %2 : tensor<64x64xf16, #b> -> tensor<64xf16, #b>\n"
        "}\n";
    static char json[1 << 16];
    CHECK_MSG(layout_ttgir_parse(t, sizeof t - 1, &mod, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &err) == LAYOUT_OK, "%s", err.message);
    if (kern.n_ops != 4) {
        CHECK_EQ_I64(kern.n_ops, 4);
        return;
    }
    CHECK_MSG(kern.ops[0].modelled && kern.ops[0].reason[0] == '\0', "%s", kern.ops[0].reason);
    CHECK_EQ_I64(kern.ops[1].modelled, 0);
    CHECK(strcmp(kern.ops[1].reason, "the tensor's encoding is not defined") == 0);
    CHECK_EQ_I64(kern.ops[2].modelled, 0);
    CHECK_STR_CONTAINS(kern.ops[2].reason, "the tensor has more dims (3) than its memdesc (2)");
    CHECK_EQ_I64(kern.ops[3].modelled, 0);
    CHECK(strcmp(kern.ops[3].reason, "ttg.convert_layout: the two tensors differ in rank") == 0);
    CHECK_EQ_I64(kern.n_modelled, 1);
    CHECK(layout_triton_kernel_json(&kern, NULL, json, sizeof json, NULL, &err) == LAYOUT_OK);
    CHECK_STR_CONTAINS(json, "\"line\":5,\"op\":\"ttg.local_load\",\"reason\":\"the tensor's encoding is not defined\"}");
    CHECK_STR_CONTAINS(json, "\"reason\":\"ttg.convert_layout: the two tensors differ in rank\"}]");
}

/* Tiles of other ranks than 2: what reads and what is refused, and why. */
static void test_tile_ranks(void)
{
    static const char t[] =
        "#b3 = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 8, 8], warpsPerCTA = [4, 1, 1], order = "
        "[2, 1, 0]}>\n"
        "#b2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
        "#p3 = #ttg.padded_shared<[32:+2] {order = [2, 1, 0], shape = [4, 64, 64]}>\n"
        "#s3 = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>\n"
        "#l3 = #ttg.shared_linear<{offset = [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 0, 32], "
        "[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0], [0, 32, 0], [1, 0, 0], [2, 0, 0]]}, alignment = 16>\n"
        "module attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\", \"ttg.threads-per-warp\" = 64 "
        ": i32} {\n"
        "    %1 = ttg.local_alloc %0 : (tensor<4x64x64xf16, #b3>) -> !ttg.memdesc<4x64x64xf16, #p3, #smem, mutable>\n"
        "    %2 = ttg.local_alloc %0 : (tensor<64x64xf16, #b2>) -> !ttg.memdesc<64x64xf16, #s3, #smem, mutable>\n"
        "    %3 = ttg.local_alloc %0 : (tensor<4x64x64xf16, #b3>) -> !ttg.memdesc<4x64x64xf16, #l3, #smem, mutable>\n"
        "    %4 = ttg.local_alloc %0 : (tensor<4x64x64xf16, #b3>) -> !ttg.memdesc<4x64x64xf16, #s3, #smem, mutable>\n"
        "    %5 = ttg.local_alloc %0 : (tensor<1x1x1x4x64xf16, #b3>) -> !ttg.memdesc<1x1x1x4x64xf16, #s3, #smem>\n"
        "}\n";
    CHECK_MSG(layout_ttgir_parse(t, sizeof t - 1, &mod, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &err) == LAYOUT_OK, "%s", err.message);
    if (kern.n_ops != 5) {
        CHECK_EQ_I64(kern.n_ops, 5);
        return;
    }
    CHECK_EQ_I64(kern.ops[0].modelled, 0);
    CHECK_STR_CONTAINS(kern.ops[0].reason, "padded_shared of a rank other than 2");
    CHECK_EQ_I64(kern.ops[1].modelled, 0);
    CHECK_STR_CONTAINS(kern.ops[1].reason, "the attribute has more dims than the memdesc");
    /* the shared_linear is the identity in order [2, 1, 0]: offset = ((d0 * 64) + d1) * 64 + d2, and
     * swizzled_shared with maxPhase 8 permutes inside each row: both are written with 4-element vectors
     * (ds_write_b64), 4096 elements / 4 warps / 64 lanes / 4 = 4 per wave each */
    CHECK_MSG(kern.ops[2].modelled, "%s", kern.ops[2].reason);
    CHECK_MSG(kern.ops[3].modelled, "%s", kern.ops[3].reason);
    CHECK_EQ_I64(kern.ops[2].n_counts, 1);
    CHECK_EQ_I64(kern.ops[2].vec_elems, 4);
    CHECK_EQ_I64(kern.ops[3].vec_elems, 4);
    CHECK_EQ_I64(kern.ops[5 - 1].modelled, 0);
    CHECK_STR_CONTAINS(kern.ops[4].reason, "a 5-D tile: tiles of 1 to 4 dims are modelled");
}

int main(void)
{
    RUN(test_not_modelled_fields);
    RUN(test_not_modelled_overflow);
    RUN(test_inline_aliases);
    RUN(test_not_modelled_reports);
    RUN(test_tile_ranks);
    return harness_finish("test_tk_internal");
}
