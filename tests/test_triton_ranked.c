#define _POSIX_C_SOURCE 200809L
/* layout_triton_kernel_suggest_ranked: the top-k list of one allocation of
 * a real Triton 3.6 kernel (tests/fixtures/triton/kernels/) equals scoring
 * every candidate by brute force -- the swizzled_shared and
 * amd_rotating_shared candidates written out here from the enumeration
 * triton_search.h documents, each costed op by op with
 * layout_triton_kernel_op_cost and split by direction -- then sorting by
 * cost; and layout_triton_kernel_ranked_json renders that list. */
#include "harness.h"
#include "layout.h"

#include <stdio.h>
#include <string.h>

static char g_text[1 << 20];
static char g_json[1 << 20];
static layout_ttgir g_m;
static layout_triton_kernel g_k;
static layout_triton_kernel_suggestions g_s;
static layout_triton_kernel_ranked g_r;
static char g_dir[512];

#define MAX_CAND 4096
static struct cand {
    char attr[200];
    int64_t cost, write, read;
} g_c[MAX_CAND];
static int g_n;

static int analyze(const char *name, const layout_triton_kernel_suggest_options *o)
{
    char path[700];
    FILE *f;
    size_t n = 0;
    layout_error err;
    snprintf(path, sizeof path, "%s/%s.ttgir", g_dir, name);
    f = fopen(path, "rb");
    if (f) {
        n = fread(g_text, 1, sizeof g_text - 1, f);
        fclose(f);
    }
    g_text[n] = 0;
    CHECK_MSG(n > 0, "%s", path);
    if (n == 0) return 0;
    if (layout_ttgir_parse(g_text, n, &g_m, &err) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&g_m, NULL, &g_k, &err) != LAYOUT_OK ||
        layout_triton_kernel_suggest(&g_k, o, &g_s, &err) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", err.message);
        return 0;
    }
    return 1;
}

/* Cost candidate attr over allocation x's ops: 0 when an op cannot be lowered. */
static int score(const layout_triton_kernel_alloc *x, const char *attr, struct cand *c)
{
    static layout_triton_kernel_op r;
    int j;
    snprintf(c->attr, sizeof c->attr, "%s", attr);
    c->cost = c->write = c->read = 0;
    for (j = 0; j < x->n_ops; j++) {
        if (layout_triton_kernel_op_cost(&g_k, x->ops[j], attr, strlen(attr), &r, NULL) != LAYOUT_OK || !r.modelled)
            return 0;
        if (r.direction == LAYOUT_WRITE) c->write += r.total_cycles;
        else c->read += r.total_cycles;
    }
    c->cost = c->write + c->read;
    return 1;
}

/* Every candidate of the documented enumeration (triton_search.h's table):
 * swizzled_shared vec 1..C, perPhase 1..R, maxPhase 1..C/vec, the identity
 * once per order; amd_rotating_shared where maxPhase > 1 and perPhase * maxPhase < R;
 * both orders, R and C the strided and the contiguous dim. */
static void brute_force(const layout_triton_kernel_alloc *x)
{
    int64_t rows0 = x->shape[x->rank - 2], cols0 = x->shape[x->rank - 1], vec, pp, mp, R, C;
    int fam, ord, identity;
    g_n = 0;
    for (fam = 0; fam < 2; fam++)
        for (ord = 0; ord < 2; ord++) {
            identity = 0; /* once per order: [1, 0] and [0, 1] are different layouts */
            R = ord ? cols0 : rows0;
            C = ord ? rows0 : cols0;
            for (vec = 1; vec <= C; vec *= 2)
                for (pp = 1; pp <= R; pp *= 2)
                    for (mp = 1; mp <= C / vec; mp *= 2) {
                        char attr[200];
                        int unswizzled = mp == 1 || pp >= R;
                        if (fam == 0 && unswizzled) {
                            if (vec != 1 || pp != 1 || mp != 1 || identity) continue;
                            identity = 1;
                        }
                        if (fam == 1 && (mp == 1 || pp * mp >= R)) continue;
                        snprintf(attr, sizeof attr,
                                 "#ttg.%s<{vec = %lld, perPhase = %lld, maxPhase = %lld, order = [%d, %d]}>",
                                 fam ? "amd_rotating_shared" : "swizzled_shared", (long long)vec, (long long)pp,
                                 (long long)mp, ord ? 0 : 1, ord ? 1 : 0);
                        if (g_n < MAX_CAND && score(x, attr, &g_c[g_n])) g_n++;
                    }
        }
}

static int by_cost(const void *a, const void *b)
{
    int64_t x = ((const struct cand *)a)->cost, y = ((const struct cand *)b)->cost;
    return x < y ? -1 : x > y;
}

static const struct cand *find(const char *attr)
{
    int i;
    for (i = 0; i < g_n; i++)
        if (strcmp(g_c[i].attr, attr) == 0) return &g_c[i];
    return NULL;
}

static void ranked_equals_brute_force(const char *kernel, int alloc, int top_k)
{
    layout_triton_kernel_suggest_options o;
    const layout_triton_kernel_alloc *x;
    layout_error err;
    int i, j, want = top_k ? top_k : LAYOUT_TRITON_KERNEL_RANKED_DEFAULT;
    memset(&o, 0, sizeof o);
    o.same_bytes = 1;
    o.families = LAYOUT_TRITON_SEARCH_SWIZZLED | LAYOUT_TRITON_SEARCH_ROTATING;
    if (!analyze(kernel, &o)) return;
    x = &g_s.allocs[alloc];
    CHECK(x->searched);
    CHECK_MSG(layout_triton_kernel_suggest_ranked(&g_k, &o, &g_s, alloc, top_k, &g_r, &err) == LAYOUT_OK, "%s",
              err.message);
    brute_force(x);
    qsort(g_c, (size_t)g_n, sizeof g_c[0], by_cost);
    CHECK(g_n > 100);
    CHECK_EQ_I64(g_r.n, want);
    CHECK_EQ_I64(g_r.scored, g_n); /* the search scored exactly the documented candidates */
    CHECK_EQ_I64(g_r.alloc, alloc);
    for (i = 0; i < g_r.n; i++) {
        const layout_triton_kernel_ranked_entry *e = &g_r.top[i];
        const struct cand *c = find(e->attr);
        CHECK_MSG(c != NULL, "%s not among the brute-force candidates", e->attr);
        CHECK_EQ_I64(e->cost, g_c[i].cost); /* the i-th cost of the sorted brute force */
        if (c) {
            CHECK_EQ_I64(e->cost, c->cost);
            CHECK_EQ_I64(e->write_cost, c->write);
            CHECK_EQ_I64(e->read_cost, c->read);
        }
        CHECK_EQ_I64(e->cost, e->write_cost + e->read_cost);
        CHECK_EQ_I64(e->extra, e->write_extra + e->read_extra);
        CHECK_EQ_I64(e->bytes, x->current_bytes);
        if (i) CHECK(e->cost >= g_r.top[i - 1].cost);
    }
    /* nothing cheaper than the last entry is left out */
    for (j = 0; j < g_n && g_r.n > 0; j++) {
        int in = 0;
        if (g_c[j].cost >= g_r.top[g_r.n - 1].cost) break;
        for (i = 0; i < g_r.n; i++) in |= strcmp(g_r.top[i].attr, g_c[j].attr) == 0;
        CHECK_MSG(in, "%s (cost %lld) missing", g_c[j].attr, (long long)g_c[j].cost);
    }
    /* the suggestion is the list's head when it improved */
    if (x->improved) CHECK(strcmp(x->attr, g_r.top[0].attr) == 0);
    CHECK(g_r.top[0].cost <= x->current_cost || !x->improved);
}

static void test_ranked_brute_force(void)
{
    /* B: 32x64, a local_alloc and a local_load, already conflict-free */
    ranked_equals_brute_force("matmul_fp16_64x64x32_w4_s2_gfx942", 1, 0);
    /* A of the gfx942 attention: improved by the suggestion */
    ranked_equals_brute_force("attn_fp16_64x64x64_w4_s2_gfx942", 2, 16);
    ranked_equals_brute_force("attn_fp16_64x64x64_w4_s2_gfx942", 2, 3);
}

static void test_ranked_json(void)
{
    layout_error err;
    size_t n;
    const char *p;
    int entries = 0;
    if (!analyze("attn_fp16_64x64x64_w4_s2_gfx942", NULL)) return;
    CHECK(layout_triton_kernel_suggest_ranked(&g_k, NULL, &g_s, 2, 0, &g_r, NULL) == LAYOUT_OK);
    n = strlen(g_text);
    CHECK(layout_ttgir_parse(g_text, n, &g_m, NULL) == LAYOUT_OK);
    CHECK_MSG(layout_triton_kernel_ranked_json(&g_m, NULL, 2, 0, 0, &g_k, g_json, sizeof g_json, &err) == LAYOUT_OK,
              "%s", err.message);
    CHECK_STR_CONTAINS(g_json, "\"alloc\":2,");
    CHECK_STR_CONTAINS(g_json, g_r.top[0].attr);
    for (p = g_json; (p = strstr(p, "{\"attr\":")) != NULL; p++) entries++;
    CHECK_EQ_I64(entries, LAYOUT_TRITON_KERNEL_RANKED_DEFAULT);
    /* -1: the first allocation searched */
    CHECK(layout_triton_kernel_ranked_json(&g_m, "gfx950", -1, 2, 0, &g_k, g_json, sizeof g_json, NULL) == LAYOUT_OK);
    CHECK_STR_CONTAINS(g_json, "\"arch\":\"gfx950\"");
    /* families: no amd_rotating_shared among 16 when it is left out */
    CHECK(layout_triton_kernel_ranked_json(&g_m, NULL, 2, 16, LAYOUT_TRITON_SEARCH_SWIZZLED | LAYOUT_TRITON_SEARCH_PADDED,
                                           &g_k, g_json, sizeof g_json, NULL) == LAYOUT_OK);
    CHECK(strstr(g_json, "amd_rotating_shared") == NULL);
    CHECK(layout_triton_kernel_ranked_json(&g_m, NULL, 2, 16, 0, &g_k, g_json, sizeof g_json, NULL) == LAYOUT_OK);
    CHECK(strstr(g_json, "\"attr\":\"#ttg.amd_rotating_shared") != NULL);
    CHECK(layout_triton_kernel_ranked_json(&g_m, NULL, 2, 0, 0, &g_k, g_json, 64, NULL) == LAYOUT_ERR_BUFFER);
    CHECK(g_json[63] == 0);
}

static void test_errors(void)
{
    layout_error err;
    if (!analyze("attn_fp16_64x64x64_w4_s2_gfx942", NULL)) return;
    CHECK(layout_triton_kernel_suggest_ranked(NULL, NULL, &g_s, 0, 0, &g_r, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_kernel_suggest_ranked(&g_k, NULL, NULL, 0, 0, &g_r, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_kernel_suggest_ranked(&g_k, NULL, &g_s, g_s.n_allocs, 0, &g_r, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "outside 0..");
    CHECK(layout_triton_kernel_suggest_ranked(&g_k, NULL, &g_s, 0, 17, &g_r, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "top_k 17 outside 1..16");
    CHECK(layout_triton_kernel_suggest_ranked(&g_k, NULL, &g_s, 0, -1, &g_r, &err) == LAYOUT_ERR_ARG);
    CHECK(layout_triton_kernel_ranked_json(NULL, NULL, 0, 0, 0, &g_k, g_json, sizeof g_json, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_kernel_ranked_json(&g_m, "nosuch", 0, 0, 0, &g_k, g_json, sizeof g_json, &err) == LAYOUT_ERR_ARG);
}

int main(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(g_dir, sizeof g_dir, "%.*s/fixtures/triton/kernels", slash ? (int)(slash - f) : 1, slash ? f : ".");
    RUN(test_ranked_brute_force);
    RUN(test_ranked_json);
    RUN(test_errors);
    return harness_finish("test_triton_ranked");
}
