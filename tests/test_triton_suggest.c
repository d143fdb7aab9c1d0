#define _POSIX_C_SOURCE 200809L
/* layout_triton_kernel_suggest on real Triton 3.6 kernels
 * (tests/fixtures/triton/kernels/): the allocations found from the TTGIR's
 * SSA values (counted by hand from the text), the suggestion never worse
 * than the current layout, the suggested attribute pasted back into the
 * TTGIR scoring exactly what was reported, and the search's best equal to
 * an exhaustive scoring of every swizzled / rotating candidate written out
 * by this test. */
#include "harness.h"
#include "layout.h"
#include "support/triton_corpus.h"

#include <stdio.h>
#include <string.h>

static char g_text[1 << 20], g_text2[1 << 20];
static layout_ttgir g_m, g_m2;
static layout_triton_kernel g_k, g_k2;
static layout_triton_kernel_suggestions g_s, g_s2;
static char g_dir[512];

static size_t load(const char *name)
{
    size_t n = triton_corpus_load(g_dir, name, g_text, sizeof g_text);
    CHECK_MSG(n > 0, "%s/%s.ttgir", g_dir, name);
    return n;
}

static int analyze(const char *name)
{
    size_t n = load(name);
    layout_error err;
    if (layout_ttgir_parse(g_text, n, &g_m, &err) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", err.message);
        return 0;
    }
    if (layout_triton_kernel_analyze(&g_m, NULL, &g_k, &err) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", err.message);
        return 0;
    }
    if (layout_triton_kernel_suggest(&g_k, NULL, &g_s, &err) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", err.message);
        return 0;
    }
    return 1;
}

/* Is the alias `name` named by exactly one allocation's type? */
static int alias_exclusive(const layout_triton_kernel_suggestions *s, int a)
{
    const layout_triton_kernel_alloc *x = &s->allocs[a];
    int j;
    for (j = 0; j < s->n_allocs; j++)
        if (j != a && s->allocs[j].enc_len == x->enc_len &&
            memcmp(g_text + s->allocs[j].enc_at, g_text + x->enc_at, x->enc_len) == 0)
            return 0;
    return g_text[x->enc_at] == '#' && memcmp(g_text + x->enc_at, "#ttg.", 5) != 0;
}

/* Replace the definition text of allocation a's alias by its suggested
 * attribute; parse, analyze, suggest again; the current cost read back must
 * be the reported cost. */
static void check_pasted_back(int a)
{
    const layout_triton_kernel_alloc *x = &g_s.allocs[a];
    layout_error err;
    int al, found = -1, j;
    size_t n;
    for (al = 0; al < g_m.n_aliases; al++)
        if (g_m.aliases[al].name_len == x->enc_len &&
            memcmp(g_text + g_m.aliases[al].name_at, g_text + x->enc_at, x->enc_len) == 0)
            found = al;
    CHECK(found >= 0);
    if (found < 0) return;
    n = (size_t)snprintf(g_text2, sizeof g_text2, "%.*s%s%s", (int)g_m.aliases[found].text_at, g_text, x->attr,
                         g_text + g_m.aliases[found].text_at + g_m.aliases[found].text_len);
    CHECK(layout_ttgir_parse(g_text2, n, &g_m2, &err) == LAYOUT_OK);
    CHECK(layout_triton_kernel_analyze(&g_m2, NULL, &g_k2, &err) == LAYOUT_OK);
    CHECK(layout_triton_kernel_suggest(&g_k2, NULL, &g_s2, &err) == LAYOUT_OK);
    CHECK_EQ_I64(g_s2.n_allocs, g_s.n_allocs);
    CHECK_STR_CONTAINS(g_s2.allocs[a].current, x->attr);
    CHECK_EQ_I64(g_s2.allocs[a].current_cost, x->cost);
    CHECK_EQ_I64(g_s2.allocs[a].current_extra, x->extra);
    CHECK_EQ_I64(g_s2.allocs[a].current_bytes, x->bytes);
    /* and every op of it modelled, as reported */
    CHECK_EQ_I64(g_s2.allocs[a].n_scored, x->n_scored);
    for (j = 0; j < g_s2.allocs[a].n_ops; j++) CHECK(g_k2.ops[g_s2.allocs[a].ops[j]].modelled);
}

static void check_all(const char *name)
{
    int a;
    for (a = 0; a < g_s.n_allocs; a++) {
        const layout_triton_kernel_alloc *x = &g_s.allocs[a];
        CHECK_MSG(x->cost <= x->current_cost, "%s", name);
        CHECK(x->bytes <= x->budget_bytes || !x->searched);
        CHECK(x->attr[0] != 0);
        if (x->improved) CHECK(x->cost < x->current_cost);
        if (x->searched && alias_exclusive(&g_s, a)) check_pasted_back(a);
    }
}

/* gfx942 64x64x32 matmul: A (64x32 f16, #shared, line 66) and B (32x64,
 * #shared1, line 69), each a local_alloc with a source and one local_load
 * of it (lines 67, 70 of the TTGIR). */
static void test_gfx942_matmul(void)
{
    if (!analyze("matmul_fp16_64x64x32_w4_s2_gfx942")) return;
    CHECK_EQ_I64(g_s.n_allocs, 2);
    CHECK_EQ_I64(g_s.lds_bytes, 65536);
    CHECK_EQ_I64(g_s.allocs[0].line, 66);
    CHECK_EQ_I64(g_s.allocs[1].line, 69);
    CHECK_EQ_I64(g_s.allocs[0].n_ops, 2);
    CHECK_EQ_I64(g_s.allocs[1].n_ops, 2);
    CHECK_EQ_I64(g_k.ops[g_s.allocs[0].ops[1]].line, 67);
    CHECK_EQ_I64(g_k.ops[g_s.allocs[1].ops[1]].line, 70);
    CHECK_EQ_I64(g_s.allocs[0].current_bytes, 64 * 32 * 2);
    /* the LDS rule: every buffer live at once with 1023 bytes of alignment
     * slack each (no scratch here); the budget is the room left plus the
     * allocation's own bytes */
    CHECK_EQ_I64(g_s.lds_bound, 2 * (64 * 32 * 2 + 1023));
    CHECK_EQ_I64(g_s.allocs[0].budget_bytes, 65536 - 2 * (64 * 32 * 2 + 1023) + 64 * 32 * 2);
    CHECK_STR_CONTAINS(g_s.allocs[0].current, "#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8");
    CHECK(g_s.allocs[0].searched && g_s.allocs[1].searched);
    check_all("gfx942 64x64x32");
    /* same_bytes: no padding may be suggested */
    {
        layout_triton_kernel_suggest_options o;
        memset(&o, 0, sizeof o);
        o.same_bytes = 1;
        CHECK(layout_triton_kernel_suggest(&g_k, &o, &g_s2, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(g_s2.allocs[0].budget_bytes, 4096);
        CHECK(g_s2.allocs[0].bytes <= 4096);
        CHECK(g_s2.allocs[0].cost >= g_s.allocs[0].cost); /* a smaller budget cannot do better */
    }
}

/* gfx950 128x64x64, 3 stages: two 2-buffer allocations (lines 67, 68), each
 * written by 3 local_store through ttg.memdesc_index (lines 70/81/97 and
 * 72/83/99) and read by 3 local_load of scf.for block arguments and the
 * loop's results (89/106/115 and 91/107/116). */
static void test_gfx950_pipelined(void)
{
    static const int a_lines[6] = {70, 81, 89, 97, 106, 115}, b_lines[6] = {72, 83, 91, 99, 107, 116};
    int j;
    if (!analyze("matmul_fp16_128x64x64_w4_s3_gfx950")) return;
    CHECK_EQ_I64(g_s.n_allocs, 2);
    CHECK_EQ_I64(g_s.lds_bytes, 160 * 1024);
    CHECK_EQ_I64(g_s.allocs[0].rank, 3);
    CHECK_EQ_I64(g_s.allocs[0].shape[0], 2);
    CHECK_EQ_I64(g_s.allocs[0].current_bytes, 2 * 128 * 64 * 2);
    CHECK_EQ_I64(g_s.allocs[0].n_ops, 6);
    CHECK_EQ_I64(g_s.allocs[1].n_ops, 6);
    for (j = 0; j < 6 && j < g_s.allocs[0].n_ops && j < g_s.allocs[1].n_ops; j++) {
        CHECK_EQ_I64(g_k.ops[g_s.allocs[0].ops[j]].line, a_lines[j]);
        CHECK_EQ_I64(g_k.ops[g_s.allocs[1].ops[j]].line, b_lines[j]);
    }
    check_all("gfx950 128x64x64 s3");
}

/* sm_90: the tiles are read by ttng.warp_group_dot, so only nvmma_shared of
 * the current transposition may be suggested. */
static void test_sm90(void)
{
    int a;
    if (!analyze("matmul_fp16_64x64x32_w4_s2_sm90")) return;
    CHECK_EQ_I64(g_s.n_allocs, 2);
    CHECK_EQ_I64(g_s.lds_bytes, 232448);
    for (a = 0; a < g_s.n_allocs; a++) {
        CHECK(g_s.allocs[a].wgmma_operand);
        CHECK_STR_CONTAINS(g_s.allocs[a].attr, "#ttg.nvmma_shared<{");
        CHECK_STR_CONTAINS(g_s.allocs[a].attr, "transposed = false");
    }
    check_all("sm90 64x64x32");
    if (!analyze("matmul_fp32_64x64x32_w4_s2_sm90")) return;
    CHECK_EQ_I64(g_s.n_allocs, 2);
    CHECK_EQ_I64(g_s.allocs[0].n_ops, 2); /* two cp.async (lines 66, 90) */
    CHECK_STR_CONTAINS(g_s.allocs[1].attr, "transposed = true");
    check_all("sm90 fp32");
}

/* A transpose has no allocation: its convert_layout's scratch is Triton's. */
static void test_transpose(void)
{
    if (!analyze("transpose_fp16_64x64_w4_s1_gfx942")) return;
    CHECK_EQ_I64(g_s.n_allocs, 0);
    CHECK(g_k.n_ops >= 1);
}

/* Exhaustive: every swizzled_shared and amd_rotating_shared attribute with
 * vec, perPhase, maxPhase powers of two up to the tile, both orders, scored
 * here by summing op_cost over the allocation's ops; the minimum must equal
 * the search's best (families SWIZZLED | ROTATING, same bytes). */
static void exhaustive(const char *kernel, int alloc, int want_ops, int want_improved)
{
    layout_triton_kernel_suggest_options o;
    const layout_triton_kernel_alloc *x;
    int64_t best = -1, rows, cols;
    int64_t vec, pp, mp;
    int fam, ord, j, n_scored = 0;
    if (!analyze(kernel)) return;
    memset(&o, 0, sizeof o);
    o.same_bytes = 1;
    o.families = LAYOUT_TRITON_SEARCH_SWIZZLED | LAYOUT_TRITON_SEARCH_ROTATING;
    CHECK(layout_triton_kernel_suggest(&g_k, &o, &g_s2, NULL) == LAYOUT_OK);
    x = &g_s2.allocs[alloc];
    rows = x->shape[x->rank - 2];
    cols = x->shape[x->rank - 1];
    for (fam = 0; fam < 2; fam++)
        for (ord = 0; ord < 2; ord++)
            for (vec = 1; vec <= (ord ? rows : cols); vec *= 2)
                for (pp = 1; pp <= (ord ? cols : rows); pp *= 2)
                    for (mp = 1; mp <= (ord ? rows : cols); mp *= 2) {
                        char attr[200];
                        int64_t sum = 0;
                        int ok = 1;
                        snprintf(attr, sizeof attr,
                                 "#ttg.%s<{vec = %lld, perPhase = %lld, maxPhase = %lld, order = [%d, %d]}>",
                                 fam ? "amd_rotating_shared" : "swizzled_shared", (long long)vec, (long long)pp,
                                 (long long)mp, ord ? 0 : 1, ord ? 1 : 0);
                        for (j = 0; j < x->n_ops; j++) {
                            static layout_triton_kernel_op r;
                            if (layout_triton_kernel_op_cost(&g_k, x->ops[j], attr, strlen(attr), &r, NULL) !=
                                    LAYOUT_OK ||
                                !r.modelled) {
                                ok = 0;
                                break;
                            }
                            sum += r.total_cycles;
                        }
                        if (!ok) continue;
                        n_scored++;
                        if (best < 0 || sum < best) best = sum;
                    }
    CHECK(n_scored > 100);
    CHECK(best >= 0);
    CHECK_EQ_I64(best < x->current_cost ? best : x->current_cost, x->cost);
    CHECK_EQ_I64(x->n_ops, want_ops);
    CHECK_EQ_I64(x->improved, want_improved);
}

static void test_exhaustive(void)
{
    /* B: 32x64, a local_alloc and a local_load, already conflict-free */
    exhaustive("matmul_fp16_64x64x32_w4_s2_gfx942", 1, 2, 0);
    /* A on gfx942 attention: the one improved there */
    exhaustive("attn_fp16_64x64x64_w4_s2_gfx942", 2, 2, 1);
}

/* The rules that keep an allocation (rules_internal.h): B on gfx950 is read
 * by ds_read_b64_tr_b16 (lines 82, 97), whose bank rule nobody published:
 * kept, not searched, though the model (costing it as an ordinary read)
 * finds a cheaper layout; every sm_90 operand of warp_group_dot is kept --
 * among them the user-reported fp8 B (transposed, 32-byte swizzle) that the
 * unrestricted search moved to swizzlingByteWidth = 0, which Triton 3.6
 * fails to lower. */
static void test_keep_rules(void)
{
    int a;
    if (analyze("matmul_fp16_64x64x32_w4_s2_gfx950")) {
        const layout_triton_kernel_alloc *x = &g_s.allocs[1];
        CHECK(strcmp(x->rule, "ds-read-tr-reader") == 0);
        CHECK(!x->improved && !x->searched);
        CHECK_STR_CONTAINS(x->note, "kept (rule ds-read-tr-reader), local_load line 82");
        CHECK(strcmp(x->attr, x->current) == 0);
        CHECK(g_s.allocs[0].rule[0] == 0); /* A: read along K, no tr */
        CHECK(g_s.allocs[0].searched);
    }
    if (analyze("matmul_fp8_64x64x32_w4_s2_sm90")) {
        CHECK_EQ_I64(g_s.n_allocs, 2);
        for (a = 0; a < 2; a++) {
            CHECK(strcmp(g_s.allocs[a].rule, "wgmma-reader") == 0);
            CHECK(g_s.allocs[a].wgmma_operand && !g_s.allocs[a].improved && !g_s.allocs[a].searched);
            CHECK_STR_CONTAINS(g_s.allocs[a].note, "ttng.warp_group_dot line 64");
        }
        CHECK_STR_CONTAINS(g_s.allocs[1].current, "swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8");
        CHECK(strcmp(g_s.allocs[1].attr, g_s.allocs[1].current) == 0);
    }
}

/* The LDS rule: with a limit below the bound nothing may grow, and the
 * bound after the suggestions never exceeds max(limit, bound). */
static void test_lds_rule(void)
{
    layout_triton_kernel_suggest_options o;
    int a;
    if (!analyze("attn_fp16_64x64x64_w4_s2_gfx942")) return;
    CHECK(g_s.lds_bound > g_s.total_bytes); /* slack and the converts' scratch */
    CHECK(g_s.lds_bound_after <= (g_s.lds_bound > g_s.lds_bytes ? g_s.lds_bound : g_s.lds_bytes));
    memset(&o, 0, sizeof o);
    o.lds_bytes = g_s.lds_bound - 1;
    CHECK(layout_triton_kernel_suggest(&g_k, &o, &g_s2, NULL) == LAYOUT_OK);
    for (a = 0; a < g_s2.n_allocs; a++) {
        CHECK(g_s2.allocs[a].bytes <= g_s2.allocs[a].current_bytes);
        if (g_s2.allocs[a].searched) CHECK_EQ_I64(g_s2.allocs[a].budget_bytes, g_s2.allocs[a].current_bytes);
    }
    CHECK(g_s2.lds_bound_after <= g_s2.lds_bound);
}

/* The library's JSON: keys, the suggestion as reported, a short buffer. */
static void test_json(void)
{
    static char buf[1 << 20];
    static layout_triton_kernel work;
    char want[400];
    layout_error err;
    size_t need = 0;
    if (!analyze("matmul_fp16_64x64x32_w4_s2_gfx950")) return;
    CHECK(layout_triton_kernel_report_json(&g_m, NULL, &work, buf, sizeof buf, &err) == LAYOUT_OK);
    CHECK_STR_CONTAINS(buf, "{\"target\":\"hip:gfx950\",\"arch\":\"gfx950\"");
    CHECK_STR_CONTAINS(buf, "\"register_layout\":\"#ttg.blocked<{");
    CHECK_STR_CONTAINS(buf, "\"shared_layout\":\"#ttg.swizzled_shared<{");
    CHECK_STR_CONTAINS(buf, "\"vector\":{\"elements\":");
    CHECK_STR_CONTAINS(buf, "\"cost\":{\"extra_cycles\":");
    CHECK_STR_CONTAINS(buf, "\"per_warp_total\":{");
    CHECK_STR_CONTAINS(buf, "\"not_modelled\":[");
    CHECK_STR_CONTAINS(buf, "\"totals\":{");
    CHECK_STR_CONTAINS(buf, "\"suggestions\":[{\"alloc\":0,");
    snprintf(want, sizeof want, "\"attr\":\"%s\",\"cost\":%lld,", g_s.allocs[1].attr, (long long)g_s.allocs[1].cost);
    CHECK_STR_CONTAINS(buf, want);
    snprintf(want, sizeof want, "\"current_cost\":%lld,", (long long)g_s.allocs[1].current_cost);
    CHECK_STR_CONTAINS(buf, want);
    CHECK_EQ_I64(buf[strlen(buf) - 1], '}');
    /* the arch by name (sm_90 on a 64-lane module: the analysis's error) */
    CHECK(layout_triton_kernel_report_json(&g_m, "gfx942", &work, buf, sizeof buf, &err) == LAYOUT_OK);
    CHECK_STR_CONTAINS(buf, "\"arch\":\"gfx942\"");
    CHECK_EQ_I64(layout_triton_kernel_report_json(&g_m, "sm_90", &work, buf, sizeof buf, &err), LAYOUT_ERR_MISMATCH);
    CHECK_EQ_I64(layout_triton_kernel_report_json(&g_m, "nope", &work, buf, sizeof buf, &err), LAYOUT_ERR_ARG);
    CHECK_EQ_I64(layout_triton_kernel_report_json(&g_m, NULL, &work, buf, 100, &err), LAYOUT_ERR_BUFFER);
    CHECK_EQ_I64(strlen(buf), 99);
    CHECK_EQ_I64(layout_triton_kernel_json(&g_k, &g_s, buf, 10, &need, &err), LAYOUT_ERR_BUFFER);
    CHECK(need > 1000);
    CHECK_EQ_I64(layout_triton_kernel_json(&g_k, &g_s, buf, need + 1, NULL, &err), LAYOUT_OK);
    CHECK_EQ_I64(strlen(buf), need);
    CHECK_EQ_I64(layout_triton_kernel_report_json(NULL, NULL, &work, buf, sizeof buf, &err), LAYOUT_ERR_NULL);
}

/* More allocations than LAYOUT_TRITON_KERNEL_MAX_ALLOCS: the gfx942
 * matmul's function body 10 times (20 local_alloc): 16 listed, 4 counted
 * as dropped, in the struct and the JSON; no error. */
static void test_capacity(void)
{
    static char big[1 << 21], js[1 << 20];
    const char *body, *locs;
    size_t n = load("matmul_fp16_64x64x32_w4_s2_gfx942"), len = 0;
    int c, a, listed = 0;
    (void)n;
    body = strstr(g_text, "module attributes");
    body = body ? strchr(body, '\n') : NULL;
    locs = body ? strstr(body, "\n#loc") : NULL;
    CHECK(body && locs);
    if (!body || !locs) return;
    body++;
    locs++;
    /* the module's closing "}" line (the last line before the locations) stays single:
     * the reader refuses a '}' that closes nothing */
    {
        const char *end = locs - 1;
        while (end > body && end[-1] != '\n') end--;
        memcpy(big, g_text, (size_t)(body - g_text));
        len = (size_t)(body - g_text);
        for (c = 0; c < 10; c++) {
            memcpy(big + len, body, (size_t)(end - body));
            len += (size_t)(end - body);
        }
        memcpy(big + len, end, strlen(end));
        len += strlen(end);
    }
    CHECK(layout_ttgir_parse(big, len, &g_m2, NULL) == LAYOUT_OK);
    CHECK(layout_triton_kernel_analyze(&g_m2, NULL, &g_k2, NULL) == LAYOUT_OK);
    CHECK(layout_triton_kernel_suggest(&g_k2, NULL, &g_s2, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(g_s2.n_allocs, LAYOUT_TRITON_KERNEL_MAX_ALLOCS);
    CHECK_EQ_I64(g_s2.n_dropped, 20 - LAYOUT_TRITON_KERNEL_MAX_ALLOCS);
    for (a = 0; a < g_s2.n_allocs; a++) listed += g_s2.allocs[a].n_ops + g_s2.allocs[a].n_ops_dropped;
    CHECK(listed <= g_k2.n_ops);
    CHECK(layout_triton_kernel_json(&g_k2, &g_s2, js, sizeof js, NULL, NULL) == LAYOUT_OK);
    CHECK_STR_CONTAINS(js, "\"suggestions_dropped\":4,");
}

static void test_errors(void)
{
    CHECK_EQ_I64(layout_triton_kernel_suggest(NULL, NULL, &g_s, NULL), LAYOUT_ERR_NULL);
    CHECK_EQ_I64(layout_triton_kernel_suggest(&g_k, NULL, NULL, NULL), LAYOUT_ERR_NULL);
}

/* Every kernel of the corpus, on its own target and on a neighbour (gfx942
 * <-> gfx950, sm_90 -> sm_80), with the default search and with
 * same_bytes and one family at a time: the invariants of a suggestion hold
 * (never dearer; within budget; improved means cheaper; the suggestion,
 * pasted back where its alias is the allocation's own, scores what was
 * reported), the op reports are reproduced by op_cost, and the JSON renders. */
static void test_whole_corpus(void)
{
    static const unsigned families[] = {LAYOUT_TRITON_SEARCH_SWIZZLED, LAYOUT_TRITON_SEARCH_PADDED,
                                        LAYOUT_TRITON_SEARCH_ROTATING, LAYOUT_TRITON_SEARCH_NVMMA};
    static char json[1 << 20];
    static layout_triton_kernel_op rep;
    char name[256];
    FILE *ls;
    int n_kernels = 0, n_allocs = 0, n_improved = 0, n_other = 0;
    const long want = harness_scaled(66); /* all 66 at full scale (valgrind runs a few) */
    ls = triton_corpus_open(g_dir);
    CHECK(ls != NULL);
    if (!ls) return;
    while (n_kernels < want && triton_corpus_next(ls, name, sizeof name)) {
        layout_error err;
        layout_arch arch;
        const char *alt;
        int i, f;
        if (!analyze(name)) continue;
        n_kernels++;
        check_all(name);
        n_allocs += g_s.n_allocs;
        for (i = 0; i < g_s.n_allocs; i++) n_improved += g_s.allocs[i].improved;
        for (i = 0; i < g_k.n_ops; i++) {
            CHECK(layout_triton_kernel_op_cost(&g_k, i, NULL, 0, &rep, &err) == LAYOUT_OK);
            CHECK_MSG(rep.extra_cycles == g_k.ops[i].extra_cycles && rep.n_counts == g_k.ops[i].n_counts &&
                          rep.modelled == g_k.ops[i].modelled,
                      "%s op %d", name, i);
        }
        CHECK(layout_triton_kernel_json(&g_k, &g_s, json, sizeof json, NULL, &err) == LAYOUT_OK);
        for (f = 0; f < (int)(sizeof families / sizeof families[0]); f++) {
            layout_triton_kernel_suggest_options o;
            memset(&o, 0, sizeof o);
            o.same_bytes = 1;
            o.families = families[f];
            CHECK(layout_triton_kernel_suggest(&g_k, &o, &g_s2, &err) == LAYOUT_OK);
            for (i = 0; i < g_s2.n_allocs; i++) {
                CHECK(g_s2.allocs[i].cost <= g_s2.allocs[i].current_cost);
                CHECK(g_s2.allocs[i].bytes <= g_s2.allocs[i].current_bytes || !g_s2.allocs[i].searched);
            }
        }
        alt = triton_corpus_neighbour(g_m.target);
        CHECK_MSG(alt != NULL, "%s: target %s", name, g_m.target);
        if (!alt || layout_arch_preset(alt, &arch, &err) != LAYOUT_OK) continue;
        CHECK(layout_triton_kernel_analyze(&g_m, &arch, &g_k2, &err) == LAYOUT_OK);
        CHECK_EQ_I64(g_k2.n_ops, g_k.n_ops);
        CHECK(layout_triton_kernel_suggest(&g_k2, NULL, &g_s2, &err) == LAYOUT_OK);
        for (i = 0; i < g_s2.n_allocs; i++) CHECK(g_s2.allocs[i].cost <= g_s2.allocs[i].current_cost);
        CHECK(layout_triton_kernel_json(&g_k2, &g_s2, json, sizeof json, NULL, &err) == LAYOUT_OK);
        n_other++;
    }
    pclose(ls);
    CHECK_EQ_I64(n_kernels, want);
    CHECK_EQ_I64(n_other, want);
    CHECK(n_improved <= n_allocs);
    if (want == 66) CHECK(n_improved > 0);
    printf("test_triton_suggest: %d corpus kernels on their target and a neighbour: %d allocations, %d improved\n",
           n_kernels, n_allocs, n_improved);
}

int main(void)
{
    triton_corpus_dir(__FILE__, g_dir, sizeof g_dir);
    RUN(test_gfx942_matmul);
    RUN(test_gfx950_pipelined);
    RUN(test_sm90);
    RUN(test_transpose);
    RUN(test_exhaustive);
    RUN(test_keep_rules);
    RUN(test_lds_rule);
    RUN(test_json);
    RUN(test_capacity);
    RUN(test_whole_corpus);
    RUN(test_errors);
    return harness_finish("test_triton_suggest");
}
