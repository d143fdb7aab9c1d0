#define _POSIX_C_SOURCE 200809L
/* layout_triton_kernel_apply (layout triton --apply) on the real Triton 3.6
 * corpus (tests/fixtures/triton/kernels/): every suggestion, on each
 * kernel's own target and on its neighbour (gfx942 <-> gfx950, sm_90 ->
 * sm_80: more suggestions), applied, the text read back by the ttgir
 * parser and analysed again: each written allocation's attribute is the
 * suggested one and costs exactly what the suggestion said, every other
 * allocation is as it was.  Also: a fresh alias when two allocations share
 * one; the rules of rules_internal.h on attributes built by hand; the
 * Gluon forms against the constructors of Triton 3.6's gluon _layouts.py. */
#include "harness.h"
#include "layout.h"
#include "support/triton_corpus.h"
#include "../lib/triton_kernel/rules_internal.h"

#include <stdio.h>
#include <string.h>

static char g_text[1 << 20], g_out[1 << 21];
static layout_ttgir g_m, g_m2;
static layout_triton_kernel g_k, g_k2;
static layout_triton_kernel_suggestions g_s, g_s2;
static layout_triton_kernel_apply_result g_r;
static char g_dir[512];

static size_t load(const char *name)
{
    size_t n = triton_corpus_load(g_dir, name, g_text, sizeof g_text);
    CHECK_MSG(n > 0, "%s/%s.ttgir", g_dir, name);
    return n;
}

/* Apply the suggestions of (g_k, g_s), read back, compare; the applied
 * count is returned. */
static int apply_and_reread(const char *name, const layout_arch *arch)
{
    layout_error err;
    size_t n = 0;
    int a, applied = 0;
    CHECK_MSG(layout_triton_kernel_apply(&g_k, &g_s, g_out, sizeof g_out, &n, &g_r, &err) == LAYOUT_OK, "%s: %s", name,
              err.message);
    if (layout_ttgir_parse(g_out, n, &g_m2, &err) != LAYOUT_OK) {
        CHECK_MSG(0, "%s: applied text does not parse: %s", name, err.message);
        return 0;
    }
    CHECK(layout_triton_kernel_analyze(&g_m2, arch, &g_k2, &err) == LAYOUT_OK);
    CHECK(layout_triton_kernel_suggest(&g_k2, NULL, &g_s2, &err) == LAYOUT_OK);
    CHECK_EQ_I64(g_s2.n_allocs, g_s.n_allocs);
    CHECK_EQ_I64(g_k2.n_ops, g_k.n_ops);
    for (a = 0; a < g_s.n_allocs && a < g_s2.n_allocs; a++) {
        const layout_triton_kernel_alloc *x = &g_s.allocs[a], *y = &g_s2.allocs[a];
        if (g_r.how[a] > 0) {
            applied++;
            CHECK_MSG(x->improved, "%s alloc %d", name, a);
            CHECK_MSG(strcmp(y->current, x->attr) == 0, "%s alloc %d: %s != %s", name, a, y->current, x->attr);
            CHECK_MSG(y->current_cost == x->cost, "%s alloc %d: cost %lld read back, %lld suggested", name, a,
                      (long long)y->current_cost, (long long)x->cost);
            CHECK_EQ_I64(y->current_extra, x->extra);
            CHECK_EQ_I64(y->current_bytes, x->bytes);
        } else {
            CHECK_MSG(strcmp(y->current, x->current) == 0, "%s alloc %d changed", name, a);
            CHECK_EQ_I64(y->current_cost, x->current_cost);
        }
        if (x->improved) CHECK_MSG(g_r.how[a] != 0, "%s alloc %d", name, a);
    }
    return applied;
}

static void test_corpus(void)
{
    char name[256];
    FILE *ls;
    int n_kernels = 0, n_applied = 0, n_skipped = 0, n_fresh = 0;
    const long want = harness_scaled(66);
    ls = triton_corpus_open(g_dir);
    CHECK(ls != NULL);
    if (!ls) return;
    while (n_kernels < want && triton_corpus_next(ls, name, sizeof name)) {
        layout_error err;
        layout_arch arch;
        size_t n;
        int i, a;
        n = load(name);
        if (layout_ttgir_parse(g_text, n, &g_m, &err) != LAYOUT_OK) {
            CHECK_MSG(0, "%s: %s", name, err.message);
            continue;
        }
        n_kernels++;
        for (i = 0; i < 2; i++) {
            const layout_arch *ap = NULL;
            if (i == 1) {
                const char *alt = triton_corpus_neighbour(g_m.target);
                if (!alt || layout_arch_preset(alt, &arch, &err) != LAYOUT_OK) continue;
                ap = &arch;
            }
            CHECK(layout_triton_kernel_analyze(&g_m, ap, &g_k, &err) == LAYOUT_OK);
            CHECK(layout_triton_kernel_suggest(&g_k, NULL, &g_s, &err) == LAYOUT_OK);
            n_applied += apply_and_reread(name, ap);
            n_skipped += g_r.n_skipped;
            for (a = 0; a < g_s.n_allocs; a++) n_fresh += g_r.how[a] == 2;
        }
    }
    pclose(ls);
    CHECK_EQ_I64(n_kernels, want);
    if (want == 66) CHECK(n_applied > 0);
    printf("test_triton_apply: %d kernels x 2 targets: %d suggestions applied and read back (%d with a fresh alias), "
           "%d skipped\n",
           n_kernels, n_applied, n_fresh, n_skipped);
}

/* Two allocations on one alias with different fates: the gfx950 fp32
 * matmul with B's alias (#shared1) renamed #shared in the body, so A and B
 * share #shared; A is improved, B is not: A gets #shared_ll0 in its types
 * only, the #shared line stays, B reads back as it was. */
static void test_fresh_alias(void)
{
    layout_error err;
    size_t n = load("matmul_fp32_64x64x32_w4_s2_gfx950"), i, o = 0;
    const char *body = strstr(g_text, "module attributes");
    static char edited[1 << 20];
    CHECK(body != NULL);
    if (!body) return;
    for (i = 0; i < n; i++) { /* "#shared1" -> "#shared" after the header */
        if (g_text + i > body && memcmp(g_text + i, "#shared1", 8) == 0) {
            memcpy(edited + o, "#shared", 7);
            o += 7;
            i += 7;
            continue;
        }
        edited[o++] = g_text[i];
    }
    edited[o] = 0;
    memcpy(g_text, edited, o + 1);
    CHECK(layout_ttgir_parse(g_text, o, &g_m, &err) == LAYOUT_OK);
    CHECK(layout_triton_kernel_analyze(&g_m, NULL, &g_k, &err) == LAYOUT_OK);
    CHECK(layout_triton_kernel_suggest(&g_k, NULL, &g_s, &err) == LAYOUT_OK);
    CHECK_EQ_I64(g_s.n_allocs, 2);
    CHECK(g_s.allocs[0].improved && !g_s.allocs[1].improved);
    CHECK_EQ_I64(apply_and_reread("fresh alias", NULL), 1);
    CHECK_EQ_I64(g_r.how[0], 2);
    CHECK(strcmp(g_r.alias[0], "#shared_ll0") == 0);
    CHECK_STR_CONTAINS(g_out, "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 2, maxPhase = 8, order = [1, 0]}>");
    CHECK_STR_CONTAINS(g_out, "#shared_ll0 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 32");
    CHECK_STR_CONTAINS(g_out, "!ttg.memdesc<1x64x32xf32, #shared_ll0, #smem, mutable>");
    CHECK_STR_CONTAINS(g_out, "!ttg.memdesc<1x32x64xf32, #shared, #smem, mutable>");
}

/* The attribute rows of the rules table, on attributes built by hand (the
 * parser refuses some of these itself: the rules must too). */
static void test_rules(void)
{
    static layout_triton_attr a;
    const int64_t tile_b[2] = {32, 64}; /* fp8 B: K = 32 rows, N = 64 */
    layout_tk_wgmma_use b = {1, 8}, acc = {0, 8};
    size_t where;
    char why[128];
    int i;
    CHECK(layout_triton_from_text("#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>",
                                  &a, &where, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(layout_tk_rule_check(&a, 8, tile_b, &b, why, sizeof why), LAYOUT_TK_RULE_NONE);
    /* the user-reported suggestion: fp8 B moved to swizzle 0, which Triton
     * 3.6.0 fails to lower (PassManager::run failed, measured) */
    a.swizzling_byte_width = 0;
    CHECK_EQ_I64(layout_tk_rule_check(&a, 8, tile_b, &b, why, sizeof why), LAYOUT_TK_RULE_NVMMA_UNSWIZZLED);
    CHECK_EQ_I64(layout_tk_rule_check(&a, 8, tile_b, NULL, why, sizeof why), LAYOUT_TK_RULE_NONE);
    a.swizzling_byte_width = 64; /* K = 32 bytes contiguous: a 64-byte swizzle is wider (3.6.0 fails it too) */
    CHECK_EQ_I64(layout_tk_rule_check(&a, 8, tile_b, &b, why, sizeof why), LAYOUT_TK_RULE_NVMMA_ROW);
    CHECK_EQ_I64(layout_tk_rule_check(&a, 8, tile_b, NULL, why, sizeof why), LAYOUT_TK_RULE_NONE);
    a.swizzling_byte_width = 16;
    CHECK_EQ_I64(layout_tk_rule_check(&a, 8, tile_b, NULL, why, sizeof why), LAYOUT_TK_RULE_NVMMA_SWIZZLE);
    CHECK_STR_CONTAINS(why, "swizzlingByteWidth = 16");
    a.swizzling_byte_width = 32;
    CHECK_EQ_I64(layout_tk_rule_check(&a, 16, tile_b, NULL, why, sizeof why), LAYOUT_TK_RULE_NVMMA_ELEMENT);
    CHECK_EQ_I64(layout_tk_rule_check(&a, 8, tile_b, &acc, why, sizeof why), LAYOUT_TK_RULE_NVMMA_KMAJOR);
    a.element_bit_width = 16; /* 16-bit operands may be either */
    CHECK_EQ_I64(layout_tk_rule_check(&a, 16, tile_b, &acc, why, sizeof why), LAYOUT_TK_RULE_NONE);
    CHECK(layout_triton_from_text("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", &a,
                                  &where, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(layout_tk_rule_check(&a, 16, tile_b, NULL, why, sizeof why), LAYOUT_TK_RULE_NONE);
    CHECK_EQ_I64(layout_tk_rule_check(&a, 16, tile_b, &b, why, sizeof why), LAYOUT_TK_RULE_WGMMA_ENCODING);
    a.order[1] = 1;
    CHECK_EQ_I64(layout_tk_rule_check(&a, 16, tile_b, NULL, why, sizeof why), LAYOUT_TK_RULE_SWIZZLED);
    CHECK(layout_triton_from_text("#ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [32, 64]}>", &a, &where,
                                  NULL) == LAYOUT_OK);
    CHECK_EQ_I64(layout_tk_rule_check(&a, 16, tile_b, NULL, why, sizeof why), LAYOUT_TK_RULE_NONE);
    a.interval[1] = 32;
    CHECK_EQ_I64(layout_tk_rule_check(&a, 16, tile_b, NULL, why, sizeof why), LAYOUT_TK_RULE_PADDED);
    a.interval[1] = 48;
    CHECK_EQ_I64(layout_tk_rule_check(&a, 16, tile_b, NULL, why, sizeof why), LAYOUT_TK_RULE_PADDED);
    for (i = 1; i < LAYOUT_TK_RULE_COUNT; i++) { /* every row cites a source and a commit */
        const layout_tk_rule *r = layout_tk_rule_get((layout_tk_rule_id)i);
        CHECK(r && (int)r->id == i && r->source[0] && r->commit[0] && r->rule[0]);
    }
    CHECK(layout_tk_rule_get(LAYOUT_TK_RULE_NONE) == NULL);
}

/* Gluon forms: the keyword names of Triton 3.6's constructors
 * (SwizzledSharedLayout(vec, per_phase, max_phase, order),
 * NVMMASharedLayout(swizzle_byte_width, element_bitwidth, rank, transposed,
 * fp4_padded), PaddedSharedLayout.with_identity_for(interval_padding_pairs,
 * shape, order), SharedLinearLayout(offset_bases, block_bases, alignment)). */
static void test_gluon(void)
{
    static const char *const cases[][2] = {
        {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
         "gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])"},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>",
         "gl.NVMMASharedLayout(swizzle_byte_width=32, element_bitwidth=8, rank=2, transposed=True, fp4_padded=False)"},
        {"#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [32, 64]}>",
         "gl.PaddedSharedLayout.with_identity_for([[32, 4]], [32, 64], [1, 0])"},
        {"#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]], block = []}, alignment = 16>",
         "gl.SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [1, 0]], block_bases=[], alignment=16)"},
    };
    const int64_t shape[2] = {32, 64};
    char buf[512];
    layout_error err;
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        layout_status st = layout_triton_kernel_attr_form(cases[i][0], 2, shape, LAYOUT_TRITON_FORM_GLUON, buf,
                                                          sizeof buf, &err);
        CHECK_MSG(st == LAYOUT_OK, "%s: %s", cases[i][0], err.message);
        if (st == LAYOUT_OK) CHECK_MSG(strcmp(buf, cases[i][1]) == 0, "%s", buf);
    }
    /* [32:+4] on 32 x 64: element (r, c0 + 32 c1) sits at 64 r + c + 4 (64 r + c) / 32 = 72 r + c0 + 36 c1 */
    CHECK(layout_triton_kernel_attr_form(cases[2][0], 2, shape, LAYOUT_TRITON_FORM_CUTE, buf, sizeof buf, NULL) ==
          LAYOUT_OK);
    CHECK(strcmp(buf, "(_32,(_32,_2)):(_72,(_1,_36))") == 0);
    CHECK(layout_triton_kernel_attr_form(cases[0][0], 2, shape, LAYOUT_TRITON_FORM_CUTE, buf, sizeof buf, NULL) ==
          LAYOUT_OK);
    CHECK_STR_CONTAINS(buf, "(_32,_64):(_64,_1)");
    CHECK(layout_triton_kernel_attr_form(cases[0][0], 2, shape, LAYOUT_TRITON_FORM_GLUON, buf, 10, NULL) ==
          LAYOUT_ERR_BUFFER);
    /* Gluon 3.6 has no rotating layout: no form rather than a guess */
    CHECK(layout_triton_kernel_attr_form("#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>",
                                         2, shape, LAYOUT_TRITON_FORM_GLUON, buf, sizeof buf, NULL) ==
          LAYOUT_ERR_UNSUPPORTED);
}

int main(void)
{
    triton_corpus_dir(__FILE__, g_dir, sizeof g_dir);
    RUN(test_rules);
    RUN(test_gluon);
    RUN(test_corpus);
    RUN(test_fresh_alias);
    return harness_finish("test_triton_apply");
}
