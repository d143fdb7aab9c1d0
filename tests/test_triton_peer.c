/* Triton's own unit test of its linear-layout conversions as a peer suite:
 * every expectation of unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp
 * (triton-lang/triton commit d0e56966dfe609e590e68c72902f6ac47bec4e3e,
 * 2025-11-07) that converts one layout attribute on one CTA, run through
 * layout_triton_from_text and then layout_triton_to_linear (distributed
 * attributes) or layout_triton_shared_linear (shared attributes), the bases
 * compared with Triton's in order.
 *
 * The facts (attribute text, shape, bases) are in
 * tests/fixtures/triton/linear_layout_conversions.txt, written from the C++
 * test by tests/fixtures/triton/gen_peer_fixtures.py and embedded as
 * tests/support/triton_peer_fixtures.h.  Kinds of case:
 *   dist   register / lane / warp bases (block: none, one CTA)
 *   shared offset bases
 *   same   two attributes the test asserts give one layout (a dot operand
 *          of a transposed mfma and of the plain one): both convert and agree
 *   skip   an expectation not translatable, with its reason (several CTAs;
 *          a helper that is not the conversion of one attribute)
 * Every case must convert and agree; the numbers of each kind are asserted,
 * so a case dropped by the generator or a new refusal fails the test. */
#include "harness.h"
#include "support/triton_bases.h"
#include "support/triton_peer_fixtures.h"

#include <layout.h>

#define PX_MAX_RANK 4
#define PX_MAX_BASES 32

enum { K_DIST, K_SHARED, K_SAME, N_KINDS };
static const char *const k_kinds[N_KINDS] = {"dist", "shared", "same"};
static const char *const k_dims[5] = {"register", "lane", "warp", "block", "offset"};

typedef struct px_case {
    char name[96];
    int kind, rank;
    int64_t shape[PX_MAX_RANK];
    const char *attr, *attr2;
    int have[5], count[5];
    int64_t v[5][PX_MAX_BASES * PX_MAX_RANK];
    size_t line;
} px_case;

static size_t px_next;
static int n_skipped;

/* The next case: 1; 0 at the end; -1 on a malformed fixture line (*bad). */
static int px_read(px_case *c, size_t *bad)
{
    int in_case = 0, k;
    while (px_next < TRITON_PEER_FIXTURE_LINES) {
        const char *l = triton_peer_fixture_lines[px_next++];
        *bad = px_next;
        if (l[0] == '#' || l[0] == 0) continue;
        if (strncmp(l, "skip ", 5) == 0) {
            if (in_case || !strchr(l + 5, ' ')) return -1;
            n_skipped++;
            continue;
        }
        if (strncmp(l, "case ", 5) == 0) {
            const char *p = l + 5;
            size_t n = strcspn(p, " ");
            int64_t v[PX_MAX_RANK];
            int r;
            if (in_case || n >= sizeof c->name) return -1;
            memset(c, 0, sizeof *c);
            memcpy(c->name, p, n);
            p += n + (p[n] == ' ');
            n = strcspn(p, " ");
            c->kind = -1;
            for (k = 0; k < N_KINDS; k++)
                if (strlen(k_kinds[k]) == n && strncmp(p, k_kinds[k], n) == 0) c->kind = k;
            r = triton_bases_ints(p + n, v, PX_MAX_RANK);
            if (c->kind < 0 || r < 1) return -1;
            c->rank = r;
            for (k = 0; k < r; k++) c->shape[k] = v[k];
            c->line = px_next;
            in_case = 1;
            continue;
        }
        if (!in_case) return -1;
        if (strcmp(l, "end") == 0) {
            if (!c->attr || (c->kind == K_SAME) != (c->attr2 != NULL)) return -1;
            if (c->kind == K_DIST && !(c->have[0] && c->have[1] && c->have[2] && c->have[3])) return -1;
            if (c->kind == K_SHARED && !(c->have[4] && c->have[3])) return -1;
            return 1;
        }
        if (strncmp(l, "attr ", 5) == 0) {
            c->attr = l + 5;
            continue;
        }
        if (strncmp(l, "attr2 ", 6) == 0) {
            c->attr2 = l + 6;
            continue;
        }
        if (strncmp(l, "bases ", 6) == 0) {
            if (!triton_bases_line(l + 6, k_dims, 5, c->rank, PX_MAX_BASES, c->have, c->count, (int64_t *)c->v,
                                   PX_MAX_BASES * PX_MAX_RANK))
                return -1;
            continue;
        }
        return -1;
    }
    return in_case ? -1 : 0;
}

/* The bases of input dim `name` of ll (none when absent) into v: the count. */
static int px_bases(const layout_linear *ll, const char *name, int rank, int64_t *v)
{
    return triton_bases_of(ll, name, rank, v, PX_MAX_BASES);
}

/* 1 when ll's bases of dim d are the case's; else 0 with the difference. */
static int px_same(const px_case *c, const layout_linear *ll, int d, char *why, size_t cap)
{
    int64_t got[PX_MAX_BASES * PX_MAX_RANK];
    int n = px_bases(ll, k_dims[d], c->rank, got);
    char want_s[1024], got_s[1024];
    if (n == c->count[d] && memcmp(got, c->v[d], sizeof got[0] * (size_t)n * (size_t)c->rank) == 0) return 1;
    triton_bases_fmt(c->v[d], c->count[d], c->rank, want_s, sizeof want_s);
    triton_bases_fmt(got, n > PX_MAX_BASES ? PX_MAX_BASES : n, c->rank, got_s, sizeof got_s);
    snprintf(why, cap, "%s\n      ours:   %s\n      Triton: %s", k_dims[d], got_s, want_s);
    return 0;
}

static layout_status px_convert(const char *text, const px_case *c, int shared, layout_linear *ll, layout_error *e)
{
    layout_triton_attr a;
    size_t where = 0;
    layout_status st = layout_triton_from_text(text, &a, &where, e);
    if (st) return st;
    return shared ? layout_triton_shared_linear(&a, c->rank, c->shape, ll, e)
                  : layout_triton_to_linear(&a, c->rank, c->shape, ll, e);
}

static int n_kind[N_KINDS], n_equal, n_differ, n_refused;

static void test_peer_suite(void)
{
    static px_case c;
    size_t bad = 0;
    int r;
    while ((r = px_read(&c, &bad)) == 1) {
        layout_linear ll, ll2;
        layout_error e, e2;
        layout_status st;
        char why[3072];
        int ok = 1, d;
        n_kind[c.kind]++;
        st = px_convert(c.attr, &c, c.kind == K_SHARED, &ll, &e);
        if (st) {
            n_refused++;
            printf("  refused %s: %s\n", c.name, e.message);
            CHECK_MSG(0, "%s (line %zu): %s refused: %s", c.name, c.line, c.attr, e.message);
            continue;
        }
        if (c.kind == K_SAME) {
            st = px_convert(c.attr2, &c, 0, &ll2, &e2);
            if (st) {
                n_refused++;
                CHECK_MSG(0, "%s (line %zu): %s refused: %s", c.name, c.line, c.attr2, e2.message);
                continue;
            }
            for (d = 0; d < 3 && ok; d++) {
                c.count[d] = px_bases(&ll2, k_dims[d], c.rank, c.v[d]);
                ok = px_same(&c, &ll, d, why, sizeof why);
            }
        } else if (c.kind == K_DIST) {
            for (d = 0; d < 4 && ok; d++) ok = px_same(&c, &ll, d, why, sizeof why);
        } else {
            ok = px_same(&c, &ll, 4, why, sizeof why) && px_same(&c, &ll, 3, why, sizeof why);
        }
        if (ok)
            n_equal++;
        else
            n_differ++;
        CHECK_MSG(ok, "%s (line %zu): %s on the case's shape differs in %s", c.name, c.line, c.attr, why);
    }
    CHECK_MSG(r == 0, "malformed fixture line %zu", bad);
    printf("  Triton's LinearLayoutConversionsTest: %d dist, %d shared, %d same: %d equal, %d differ, %d refused; "
           "%d skipped\n",
           n_kind[K_DIST], n_kind[K_SHARED], n_kind[K_SAME], n_equal, n_differ, n_refused, n_skipped);
    /* The generator's own count (the fixture's header): 287 expectations. */
    CHECK(n_kind[K_DIST] == 198 && n_kind[K_SHARED] == 23 && n_kind[K_SAME] == 24);
    CHECK(n_skipped == 42);
    CHECK(n_equal == 245 && n_differ == 0 && n_refused == 0);
}

/* The reader and the comparison can fail: a changed basis is reported. */
static void test_can_fail(void)
{
    static px_case c;
    layout_linear ll;
    layout_error e;
    char why[3072];
    size_t bad = 0;
    px_next = 0;
    n_skipped = 0;
    CHECK(px_read(&c, &bad) == 1);
    CHECK(px_convert(c.attr, &c, c.kind == K_SHARED, &ll, &e) == LAYOUT_OK);
    c.v[1][0] ^= 1;
    CHECK(!px_same(&c, &ll, 1, why, sizeof why));
    CHECK(strstr(why, "lane") != NULL);
}

/* A shared attribute over a shape with leading buffer dims (a multi-buffered
 * memdesc<2x4x..., #shared>): Triton applies the attribute to the trailing
 * dims (toLinearLayout(MemDescType): allocShape.take_back(rank) after
 * memdesc_index, LinearLayoutConversions.cpp) and the buffers follow one
 * another, row-major.  So every shared expectation of the suite, with two
 * leading dims of 2 and 4, must give Triton's own offset bases with two
 * zeros in front, then (0, 1, 0..), (0, 2, 0..) and (1, 0, 0..). */
static void test_leading_buffer_dims(void)
{
    static px_case c;
    size_t bad = 0;
    int r, n_cases = 0;
    px_next = 0;
    n_skipped = 0;
    while ((r = px_read(&c, &bad)) == 1) {
        layout_triton_attr a;
        layout_linear ll;
        layout_error e;
        size_t where = 0;
        int64_t shape[PX_MAX_RANK + 2], got[(PX_MAX_BASES + 3) * (PX_MAX_RANK + 2)];
        int k, d, n, rank = c.rank + 2, ok;
        if (c.kind != K_SHARED) continue;
        shape[0] = 2;
        shape[1] = 4;
        for (d = 0; d < c.rank; d++) shape[d + 2] = c.shape[d];
        CHECK(layout_triton_from_text(c.attr, &a, &where, &e) == LAYOUT_OK);
        if (layout_triton_shared_linear(&a, rank, shape, &ll, &e) != LAYOUT_OK) {
            CHECK_MSG(0, "%s: %s", c.name, e.message);
            continue;
        }
        n = triton_bases_of(&ll, "offset", rank, got, PX_MAX_BASES + 3);
        ok = n == c.count[4] + 3;
        for (k = 0; ok && k < c.count[4]; k++)
            for (d = 0; d < rank; d++) ok &= got[k * rank + d] == (d < 2 ? 0 : c.v[4][k * c.rank + d - 2]);
        for (k = 0; ok && k < 3; k++)
            for (d = 0; d < rank; d++)
                ok &= got[(c.count[4] + k) * rank + d] == (k < 2 ? (d == 1 ? (int64_t)1 << k : 0) : d == 0);
        CHECK_MSG(ok, "%s: %s with leading dims 2, 4: not Triton's bases behind the buffer bits", c.name, c.attr);
        n_cases++;
    }
    CHECK(r == 0);
    CHECK(n_cases == 23);
}

int main(void)
{
    RUN(test_peer_suite);
    RUN(test_can_fail);
    RUN(test_leading_buffer_dims);
    return harness_finish("test_triton_peer");
}
