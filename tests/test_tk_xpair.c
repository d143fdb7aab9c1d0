/* SILoadStoreOptimizer across ops (lib/triton_kernel/xpair.c) and Triton's
 * shared-memory offsets (lib/triton_kernel/alloc.c), on cases derived by
 * hand from the sources they follow:
 *
 *  - Triton 3.6 lib/Analysis/Allocation.cpp (v3.6.1): buffers sorted by
 *    size, largest first (stable), calculateStarts from the triple
 *    (0, [0, inf)), the interference graph coloured until no two buffers
 *    live at once share bytes;
 *  - llvm/lib/Target/AMDGPU/SILoadStoreOptimizer.cpp (27e2f647a5f7): one
 *    list per base register, sorted by offset, neighbours merged when
 *    offsetsCanBeCombined; a store sinks to the later one only past
 *    accesses it cannot alias; s_barrier / sched_barrier end the search.
 *
 * The kernel: two 64 x 32 i8 tiles, each stored by 4 warps of 64 lanes in
 * #blocked1 (8 contiguous bytes a lane along dim 1) into
 * swizzled_shared<vec 8, perPhase 4, maxPhase 4, order [1, 0]>: 64 x 4 x 8
 * = 2048 bytes, one 8-byte vector a lane, so each local_store alone is one
 * ds_write_b64 (Triton's largestVectorisation: 8 elements; lane l of warp
 * w at row 16 w + l / 4, bytes 8 (l % 4) of the row, swizzled -- the same
 * lane / warp images for both stores).  Allocation: both buffers 2048
 * bytes, live from their local_alloc to their store, so they overlap in
 * time; sorted (equal sizes, text order) A then B; calculateStarts places
 * A at 0 on (0, [0, inf)), leaves the triples (2048, A's range),
 * (0, [0, end A)), (0, [start A, inf)); B meets (2048, A's range) so it
 * is refused on both offset-0 triples and placed at 2048.  The two stores
 * then address one base register (regBase: the same lane / warp images)
 * at immediates 0 and 2048: b64 elements 0 and 256, not both under 256,
 * both multiples of 64 (/64: 0 and 4 < 256): one ds_write2st64_b64
 * offset1:4 -- the corpus's matmul_i8_nt_64x64x32_w4_s2_gfx942 AMDGCN
 * shows exactly this for its A and B tiles.  It counts at the first store
 * (mergeWrite2Pair keeps CI's debug location).  A buffer's alignment is its
 * encoding's getAlignment() (a shared_linear's printed `alignment`, else
 * SharedEncodingTrait's 16), read from the attribute as the dialect layer
 * parses it. */
#include "harness.h"
#include "layout.h"
#include "triton_kernel/tk_internal.h"
#include "triton_kernel/web_internal.h"

static layout_ttgir mod;
static layout_triton_kernel kern;
static layout_error terr;
static char text[4096];

#define HEAD                                                                                                           \
    "#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, "   \
    "0]}>\n"                                                                                                           \
    "#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [0, "   \
    "1]}>\n"                                                                                                           \
    "#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 4, maxPhase = 4, order = [1, 0]}>\n"                         \
    "#smem = #ttg.shared_memory\n"                                                                                     \
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\", "        \
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"                                                                         \
    "  tt.func public @k(%x: tensor<64x32xi8, #blocked1>, %y: tensor<64x32xi8, #BY>) {\n"                              \
    "    %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xi8, #shared, #smem, mutable>\n"                               \
    "    %b = ttg.local_alloc : () -> !ttg.memdesc<64x32xi8, #shared, #smem, mutable>\n"                               \
    "    ttg.local_store %x, %a : tensor<64x32xi8, #blocked1> -> !ttg.memdesc<64x32xi8, #shared, #smem, mutable>\n"

#define STORE_B                                                                                                        \
    "    ttg.local_store %y, %b : tensor<64x32xi8, #BY> -> !ttg.memdesc<64x32xi8, #shared, #smem, mutable>\n"          \
    "    tt.return\n"                                                                                                  \
    "  }\n"                                                                                                            \
    "}\n"

/* HEAD + between + STORE_B with #BY replaced by by. */
static int analyze(const char *between, const char *by)
{
    char raw[4096];
    const char *p;
    size_t n = 0;
    snprintf(raw, sizeof raw, "%s%s%s", HEAD, between, STORE_B);
    for (p = raw; *p && n + 16 < sizeof text; p++) {
        if (strncmp(p, "#BY", 3) == 0) {
            n += (size_t)snprintf(text + n, sizeof text - n, "%s", by);
            p += 2;
        } else {
            text[n++] = *p;
        }
    }
    text[n] = 0;
    if (layout_ttgir_parse(text, n, &mod, &terr) != LAYOUT_OK) return 0;
    return layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK;
}

static int64_t count_of(const layout_triton_kernel_op *r, const char *mn)
{
    for (int i = 0; i < r->n_counts; i++)
        if (strcmp(r->counts[i].mnemonic, mn) == 0) return r->counts[i].count;
    return 0;
}

static void test_alloc_offsets(void)
{
    layout_tk_web web;
    int64_t off[LAYOUT_TTGIR_MAX_OPS];
    CHECK_MSG(analyze("", "#blocked1"), "%s", terr.message);
    layout_tk_web_build(&web, &mod);
    CHECK(layout_tk_alloc_offsets(&kern, &web, off) == 1);
    CHECK_EQ_I64(mod.ops[0].kind, LAYOUT_TTGIR_LOCAL_ALLOC);
    CHECK_EQ_I64(off[0], 0);    /* A */
    CHECK_EQ_I64(off[1], 2048); /* B, past A: both live at B's store */
    CHECK_EQ_I64(off[2], -1);   /* a store, no buffer */
}

/* A's module with B another buffer: `#BENC` and B's 16 x 4 i8 memdesc
 * (64 bytes) only allocated, live at its local_alloc (inside A's range:
 * placed past A).  The offsets, or the call's 0 (not known). */
static int alloc_with_b(const char *benc, int64_t *off)
{
    static layout_tk_web web;
    char raw[4096];
    snprintf(raw, sizeof raw,
             "#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], "
             "order = [1, 0]}>\n"
             "#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 4, maxPhase = 4, order = [1, 0]}>\n"
             "#benc = %s\n"
             "#smem = #ttg.shared_memory\n"
             "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = "
             "\"hip:gfx942\", \"ttg.threads-per-warp\" = 64 : i32} {\n"
             "  tt.func public @k(%%x: tensor<64x32xi8, #blocked1>) {\n"
             "    %%a = ttg.local_alloc : () -> !ttg.memdesc<64x32xi8, #shared, #smem, mutable>\n"
             "    %%b = ttg.local_alloc : () -> !ttg.memdesc<16x4xi8, #benc, #smem, mutable>\n"
             "    ttg.local_store %%x, %%a : tensor<64x32xi8, #blocked1> -> !ttg.memdesc<64x32xi8, #shared, #smem, "
             "mutable>\n"
             "    tt.return\n"
             "  }\n"
             "}\n",
             benc);
    snprintf(text, sizeof text, "%s", raw);
    if (layout_ttgir_parse(text, strlen(text), &mod, &terr) != LAYOUT_OK) return -1;
    if (layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK) return -1;
    layout_tk_web_build(&web, &mod);
    return layout_tk_alloc_offsets(&kern, &web, off);
}

/* A buffer's alignment comes from its parsed encoding: a shared_linear's
 * own `alignment` (getAlignment: the attribute's; Allocation.cpp aligns
 * the buffer's offset to it), 16 otherwise; padded_shared and
 * nvmma_shared sizes are not rebuilt, nor is an encoding the dialect layer
 * does not read: no offsets (0). */
static void test_alloc_alignment_from_the_attribute(void)
{
    static const char lin[] = "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0], [8, 0]], "
                              "block = []}, alignment = %d>";
    char benc[256];
    int64_t off[LAYOUT_TTGIR_MAX_OPS];
    snprintf(benc, sizeof benc, lin, 4096);
    CHECK_MSG(alloc_with_b(benc, off) == 1, "%s", terr.message);
    CHECK_EQ_I64(off[0], 0);    /* A, the larger */
    CHECK_EQ_I64(off[1], 4096); /* B past A's 2048 bytes, aligned to its 4096 */
    snprintf(benc, sizeof benc, lin, 16);
    CHECK_MSG(alloc_with_b(benc, off) == 1, "%s", terr.message);
    CHECK_EQ_I64(off[1], 2048);
    CHECK_MSG(alloc_with_b("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", off) == 1,
              "%s", terr.message);
    CHECK_EQ_I64(off[1], 2048); /* the default, 16 */
    CHECK_EQ_I64(alloc_with_b("#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>",
                              off),
                 0);
    CHECK_EQ_I64(alloc_with_b("#ttg.padded_shared<[4:+4] {order = [1, 0], shape = [16, 4]}>", off), 0);
    CHECK_EQ_I64(alloc_with_b("#ttg.some_future_shared<{vec = 1}>", off), 0);
}

static void test_two_stores_pair(void)
{
    CHECK_MSG(analyze("", "#blocked1"), "%s", terr.message);
    CHECK_EQ_I64(kern.n_ops, 2); /* the stores (a local_alloc without a source only reserves) */
    CHECK_EQ_I64(kern.ops[0].n_accesses, 1); /* one access a lane, each store */
    CHECK_EQ_I64(count_of(&kern.ops[0], "ds_write2st64_b64"), 1);
    CHECK_EQ_I64(kern.ops[0].n_counts, 1);
    CHECK_EQ_I64(kern.ops[1].n_counts, 0); /* merged into the first store's */
    CHECK_EQ_I64(kern.n_per_warp, 1);
    CHECK_EQ_I64(kern.per_warp_total[0].count, 1);
    /* costs are the accesses', whatever the pairing */
    CHECK(kern.ops[1].total_cycles > 0);
}

static void test_what_keeps_them_apart(void)
{
    /* s_barrier / sched_barrier: unmodeled side effects end the search */
    CHECK_MSG(analyze("    gpu.barrier\n", "#blocked1"), "%s", terr.message);
    CHECK_EQ_I64(count_of(&kern.ops[0], "ds_write_b64"), 1);
    CHECK_EQ_I64(count_of(&kern.ops[1], "ds_write_b64"), 1);
    CHECK_MSG(analyze("    rocdl.sched.barrier 0\n", "#blocked1"), "%s", terr.message);
    CHECK_EQ_I64(count_of(&kern.ops[1], "ds_write_b64"), 1);
    /* arithmetic between does not */
    CHECK_MSG(analyze("    %c = arith.constant 1 : i32\n", "#blocked1"), "%s", terr.message);
    CHECK_EQ_I64(count_of(&kern.ops[0], "ds_write2st64_b64"), 1);
    /* other lane images (lanes along dim 0 first): regBase is another
     * value, another register; still one access a lane */
    CHECK_MSG(analyze("", "#blocked2"), "%s", terr.message);
    CHECK_EQ_I64(kern.ops[1].n_accesses, 1);
    CHECK_EQ_I64(count_of(&kern.ops[0], "ds_write_b64"), 1);
    CHECK_EQ_I64(count_of(&kern.ops[1], "ds_write_b64"), 1);
}

/* The bf16 pattern (the corpus's matmul_bf16_nt_64x64x32_w4_s2_gfx942):
 * A's stores on bases r0, r1 at 0, B's on r0, r1 at 4096 (A's buffer is
 * 4096 bytes), program order A0 A1 B0 B1, each address's variable part in
 * [0, 4088] (span).  List r0 = [A0, B0]: b64 elements 0 and 512, st64
 * 0 and 8, but A0 sinks past A1, whose range [0, 4096) meets A0's: no.
 * List r1 = [A1, B1]: A1 sinks past B0, range [4096, 8192) against A1's
 * [0, 4096): apart, merged.  The AMDGCN: ds_write_b64 v18; ds_write_b64
 * v18 offset:4096; ds_write2st64_b64 v19 ... offset1:8. */
static void test_sink_past_a_store_alias_analysis_tells_apart(void)
{
    layout_tk_dsi ins[4];
    short partner[4];
    unsigned char kind[4];
    static const int key[4] = {0, 1, 0, 1};
    memset(ins, 0, sizeof ins);
    for (int i = 0; i < 4; i++) {
        ins[i].off = i < 2 ? 0 : 4096;
        ins[i].key = ins[i].var = (uint64_t)key[i];
        ins[i].grp = 0;
        ins[i].span = 4088;
        ins[i].size = 8;
        ins[i].w = 8;
        ins[i].store = 1;
    }
    layout_tk_pair_ds(ins, 4, NULL, 0, partner, kind, NULL);
    CHECK_EQ_I64(partner[0], -1);
    CHECK_EQ_I64(partner[2], -1);
    CHECK_EQ_I64(partner[1], 3);
    CHECK_EQ_I64(kind[1], 2); /* st64 */
    /* unknown ranges (span -1): may alias, nothing merges */
    for (int i = 0; i < 4; i++) ins[i].span = -1;
    layout_tk_pair_ds(ins, 4, NULL, 0, partner, kind, NULL);
    CHECK_EQ_I64(partner[1], -1);
    /* loads hoist over loads freely: both lists merge */
    for (int i = 0; i < 4; i++) ins[i].store = 0;
    layout_tk_pair_ds(ins, 4, NULL, 0, partner, kind, NULL);
    CHECK_EQ_I64(partner[0], 2);
    CHECK_EQ_I64(partner[1], 3);
}

int main(void)
{
    RUN(test_alloc_offsets);
    RUN(test_alloc_alignment_from_the_attribute);
    RUN(test_two_stores_pair);
    RUN(test_what_keeps_them_apart);
    RUN(test_sink_past_a_store_alias_analysis_tells_apart);
    return harness_finish("test_tk_xpair");
}
