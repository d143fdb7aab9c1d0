/* Triton's MMA-family distributed layouts (#ttg.amd_mfma, #ttg.amd_wmma,
 * #ttg.nvidia_mma, #ttg.dot_op of each, #ttg.slice) against the linear
 * layouts the REAL Triton 3.6.0 built for them.
 *
 * Source: tests/fixtures/triton/gen_mma_fixtures.py `device`, run with
 * Triton 3.6.0 on an NVIDIA H100 machine on 2026-11-25 (its raw output is
 * tests/fixtures/triton/mma.jsonl; the script's docstring has the command).
 * For each case Triton's C++ built the attribute (through gluon's layout
 * classes) and returned `to_linear_layout(attr, shape)`: the register, lane,
 * warp and block bases.  Triton's Python binding does not print the
 * attribute, so `format` spells the attribute from the case's parameters in
 * Triton 3.6's printed syntax (tests/fixtures/triton/triton36_mma.txt,
 * embedded as tests/support/triton_mma_fixtures.h).
 *
 * Every case: our reader parses the attribute and prints it back
 * identically, layout_triton_to_linear() builds the layout on the case's
 * shape, and every basis of `register`, `lane` and `warp` must equal
 * Triton's, in order (zero bases included: broadcast registers, lanes and
 * warps), the output sizes must be the shape and `block` must be empty (one
 * CTA).  The number of cases compared is asserted per kind, so a case the
 * reader or the fixture drops fails the test.  The 20 cases Triton refused
 * (`refused` records: gluon's verifier rejected an mfma 4x4 instrShape; a
 * C++ check aborted on amd_wmma version 3 with instrShape [16, 16, 16] and
 * on a 64x4 amd_mfma that is not transposed) must be refused here too, when
 * reading or when building the layout. */
#include "harness.h"
#include "layout.h"
#include "support/triton_bases.h"
#include "support/triton_mma_fixtures.h"

#define MX_MAX_BASES 24
#define MX_MAX_RANK 3

/* Kinds in the fixture and the number of cases of each that the run gave
 * (tests/fixtures/triton/triton36_mma.txt, third line). */
static const char *const k_kinds[] = {"mfma", "wmma", "nvmma", "dot_mfma", "dot_wmma", "dot_nvmma", "slice"};
static const int k_expected[] = {152, 24, 38, 186, 24, 38, 36};
#define N_KINDS 7
#define N_EXPECTED 498
#define N_REFUSED 20 /* 8 ERR (mfma 4x4), 12 ABORT (8 wmma v3 [16, 16, 16], 4 mfma 64x4 not transposed) */

enum { B_REG, B_LANE, B_WARP, B_BLOCK, B_COUNT };
static const char *const k_in_dims[B_COUNT] = {"register", "lane", "warp", "block"};

typedef struct mx_case {
    int kind;
    int rank;
    int64_t shape[MX_MAX_RANK];
    const char *attr;
    size_t line; /* 1-based line of `case` in triton36_mma.txt */
    int refused; /* a `refused` record: Triton rejected the case (why) */
    const char *why;
    int have[B_COUNT];
    int count[B_COUNT];
    int64_t v[B_COUNT][MX_MAX_BASES * MX_MAX_RANK];
} mx_case;

/* Lines to read and the next one. */
typedef struct mx_src {
    const char *const *lines;
    size_t n, next;
} mx_src;

/* The next case into *c: 1; 0 at the end; -1 (and the line in *bad) on a
 * malformed fixture. */
static int mx_read(mx_src *src, mx_case *c, size_t *bad)
{
    int in_case = 0, k;
    while (src->next < src->n) {
        const char *l = src->lines[src->next++];
        *bad = src->next;
        if (l[0] == '#' || l[0] == 0) continue;
        if (strncmp(l, "case ", 5) == 0 || strncmp(l, "refused ", 8) == 0) {
            int refused = l[0] == 'r';
            const char *p = l + (refused ? 8 : 5);
            size_t n = strcspn(p, " ");
            int64_t v[MX_MAX_RANK + 1];
            int r;
            if (in_case) return -1;
            memset(c, 0, sizeof *c);
            c->kind = -1;
            c->refused = refused;
            for (k = 0; k < N_KINDS; k++)
                if (strlen(k_kinds[k]) == n && strncmp(p, k_kinds[k], n) == 0) c->kind = k;
            r = triton_bases_ints(p + n, v, MX_MAX_RANK + 1);
            if (c->kind < 0 || r < 1 || r > MX_MAX_RANK) return -1;
            c->rank = r;
            for (k = 0; k < r; k++) c->shape[k] = v[k];
            c->line = src->next;
            in_case = 1;
            continue;
        }
        if (!in_case) return -1;
        if (strcmp(l, "end") == 0) {
            for (k = 0; k < B_COUNT; k++)
                if (c->have[k] == c->refused) return -1; /* bases in a case, none in a refused one */
            return c->attr && (c->why != NULL) == c->refused ? 1 : -1;
        }
        if (strncmp(l, "why ", 4) == 0 && c->refused) {
            c->why = l + 4;
            continue;
        }
        if (strncmp(l, "attr ", 5) == 0) {
            c->attr = l + 5;
            continue;
        }
        if (strncmp(l, "bases ", 6) == 0) {
            if (c->refused || !triton_bases_line(l + 6, k_in_dims, B_COUNT, c->rank, MX_MAX_BASES, c->have, c->count,
                                                 (int64_t *)c->v, MX_MAX_BASES * MX_MAX_RANK))
                return -1;
            continue;
        }
        return -1;
    }
    return in_case ? -1 : 0;
}

/* "[a, b] [c, d] ..." of Triton's bases of dim d, for messages. */
static void mx_fmt_want(const mx_case *c, int d, char *buf, size_t cap)
{
    triton_bases_fmt(c->v[d], c->count[d], c->rank, buf, cap);
}

/* The same of input dim d of ll. */
static void mx_fmt_got(const layout_linear *ll, int d, int rank, char *buf, size_t cap)
{
    int64_t v[LAYOUT_LINEAR_MAX_BITS * MX_MAX_RANK];
    int n = triton_bases_of(ll, k_in_dims[d], rank, v, LAYOUT_LINEAR_MAX_BITS);
    triton_bases_fmt(v, n < LAYOUT_LINEAR_MAX_BITS ? n : LAYOUT_LINEAR_MAX_BITS, rank, buf, cap);
}

/* 1 when input dim d of ll equals Triton's bases; else 0 and the first
 * difference in why. */
static int mx_same(const mx_case *c, const layout_linear *ll, int d, char *why, size_t cap)
{
    int dim = layout_linear_in_dim(ll, k_in_dims[d]), n = dim < 0 ? 0 : ll->in_bits[dim], b, k;
    int64_t got[LAYOUT_LINEAR_MAX_DIMS];
    char want_s[1024], got_s[1024];
    if (n != c->count[d]) {
        mx_fmt_want(c, d, want_s, sizeof want_s);
        mx_fmt_got(ll, d, c->rank, got_s, sizeof got_s);
        snprintf(why, cap, "%s: %d bases, Triton %d\n      ours:   %s\n      Triton: %s", k_in_dims[d], n, c->count[d],
                 got_s, want_s);
        return 0;
    }
    for (b = 0; b < n; b++) {
        layout_linear_get_basis(ll, dim, b, got, NULL);
        for (k = 0; k < c->rank; k++)
            if (got[k] != c->v[d][b * c->rank + k]) {
                mx_fmt_want(c, d, want_s, sizeof want_s);
                mx_fmt_got(ll, d, c->rank, got_s, sizeof got_s);
                snprintf(why, cap, "%s basis %d (%s=%d): dim%d is %lld, Triton %lld\n      ours:   %s\n      Triton: %s",
                         k_in_dims[d], b, k_in_dims[d], 1 << b, k, (long long)got[k],
                         (long long)c->v[d][b * c->rank + k], got_s, want_s);
                return 0;
            }
    }
    return 1;
}

static int n_compared[N_KINDS], n_equal[N_KINDS];

static void test_fixtures(void)
{
    static mx_case c; /* static: about 10 KB */
    mx_src src = {triton_mma_fixture_lines, TRITON_MMA_FIXTURE_LINES, 0};
    size_t bad = 0;
    int r, total = 0, equal = 0, n_refused = 0, n_refused_too = 0, k;
    while ((r = mx_read(&src, &c, &bad)) == 1) {
        layout_triton_attr a;
        layout_linear ll;
        layout_error e;
        char text[2048], why[3072], shape_s[64];
        size_t where = 0;
        layout_status st;
        int ok = 1, d;
        snprintf(shape_s, sizeof shape_s, c.rank == 1 ? "[%lld]" : c.rank == 2 ? "[%lld, %lld]" : "[%lld, %lld, %lld]",
                 (long long)c.shape[0], (long long)c.shape[1], (long long)c.shape[2]);
        if (c.refused) {
            /* Triton refused it (gluon's verifier, or a C++ check that
             * aborted): so must we, when reading or building. */
            st = layout_triton_from_text(c.attr, &a, &where, &e);
            if (st == LAYOUT_OK) st = layout_triton_to_linear(&a, c.rank, c.shape, &ll, &e);
            CHECK_MSG(st != LAYOUT_OK, "line %zu: %s on %s: Triton refused it (%s), we accept it", c.line, c.attr,
                      shape_s, c.why);
            n_refused++;
            if (st != LAYOUT_OK) n_refused_too++;
            CHECK_MSG(st == LAYOUT_OK || e.message[0], "line %zu: refused without a message", c.line);
            continue;
        }
        n_compared[c.kind]++;
        total++;
        st = layout_triton_from_text(c.attr, &a, &where, &e);
        CHECK_MSG(st == LAYOUT_OK, "line %zu: %s: column %zu: %s", c.line, c.attr, where + 1, e.message);
        if (st != LAYOUT_OK) continue;
        CHECK_MSG(layout_triton_to_text(&a, text, sizeof text, &e) == LAYOUT_OK && strcmp(text, c.attr) == 0,
                  "line %zu: %s printed back as %s", c.line, c.attr, text);
        st = layout_triton_to_linear(&a, c.rank, c.shape, &ll, &e);
        CHECK_MSG(st == LAYOUT_OK, "line %zu: %s on %s: %s", c.line, c.attr, shape_s, e.message);
        if (st != LAYOUT_OK) continue;
        CHECK_MSG(ll.n_out == c.rank, "line %zu: %s on %s: %d output dims", c.line, c.attr, shape_s, ll.n_out);
        if (ll.n_out != c.rank) continue;
        for (k = 0; k < c.rank; k++)
            if ((int64_t)1 << ll.out_bits[k] != c.shape[k]) {
                int64_t size = (int64_t)1 << ll.out_bits[k];
                CHECK_MSG(size == c.shape[k], "line %zu: %s on %s: dim%d has size %lld", c.line, c.attr, shape_s, k,
                          (long long)size);
                ok = 0;
            }
        CHECK_MSG(c.count[B_BLOCK] == 0, "line %zu: Triton gave %d block bases (one CTA expected)", c.line,
                  c.count[B_BLOCK]);
        CHECK_MSG(layout_linear_in_dim(&ll, "block") < 0, "line %zu: ours has a block dim", c.line);
        for (d = B_REG; d <= B_WARP; d++) {
            int same_bases = mx_same(&c, &ll, d, why, sizeof why);
            CHECK_MSG(same_bases, "line %zu: %s %s on %s:\n      %s", c.line, k_kinds[c.kind], c.attr, shape_s, why);
            if (!same_bases) ok = 0;
        }
        if (ok) {
            n_equal[c.kind]++;
            equal++;
        }
    }
    CHECK_MSG(r == 0, "malformed fixture at line %zu of triton36_mma.txt", bad);
    for (k = 0; k < N_KINDS; k++) {
        CHECK_MSG(n_compared[k] == k_expected[k], "%s: %d cases compared, the fixture has %d", k_kinds[k], n_compared[k],
                  k_expected[k]);
        CHECK_MSG(n_equal[k] == n_compared[k], "%s: %d of %d equal Triton's bases", k_kinds[k], n_equal[k],
                  n_compared[k]);
    }
    CHECK_EQ_I64(total, N_EXPECTED);
    CHECK_EQ_I64(equal, N_EXPECTED);
    CHECK_EQ_I64(n_refused, N_REFUSED);
    CHECK_EQ_I64(n_refused_too, N_REFUSED);
    printf("triton mma fixtures: %d of %d cases equal Triton 3.6.0's to_linear_layout (", equal, total);
    for (k = 0; k < N_KINDS; k++) printf("%s%s %d/%d", k ? ", " : "", k_kinds[k], n_equal[k], n_compared[k]);
    printf("); %d of %d cases Triton refused are refused\n", n_refused_too, n_refused);
}

/* The reader itself: a malformed fixture is reported, not misread. */
static void test_reader(void)
{
    static mx_case c;
    static const char *const good[] = {"# x", "case mfma 4 8", "attr #a", "bases register 1 0 1", "bases lane 0",
                                       "bases warp 2 1 0 2 0", "bases block 0", "end",
                                       "refused slice 16", "attr #b", "why ABORT", "end"};
    static const char *const bad_lines[][4] = {
        {"case mfma 4 8", "attr #a", "bases register 1 0 1", "end"},        /* lane, warp, block missing */
        {"case mfma 4 8", "attr #a", "bases register 2 0 1 1", "end"},      /* 3 values for 2 bases of rank 2 */
        {"case tmma 4 8", "attr #a", "end", ""},                            /* unknown kind */
        {"refused mfma 4", "attr #a", "bases lane 0", "end"},               /* bases in a refused record */
        {"refused mfma 4", "attr #a", "end", ""},                           /* no why */
        {"case mfma 4", "attr #a", "bases lane 0", ""},                     /* no end */
        {"bases lane 0", "", "", ""},                                       /* outside a case */
    };
    mx_src src = {triton_mma_fixture_lines, TRITON_MMA_FIXTURE_LINES, 0};
    size_t bad = 0;
    int n = 0, i;
    while (mx_read(&src, &c, &bad) == 1) n++;
    CHECK_EQ_I64(n, N_EXPECTED + N_REFUSED);
    src.lines = good;
    src.n = sizeof good / sizeof good[0];
    src.next = 0;
    CHECK(mx_read(&src, &c, &bad) == 1 && c.kind == 0 && c.rank == 2 && c.shape[1] == 8 && c.count[B_REG] == 1 &&
          c.v[B_REG][1] == 1 && c.count[B_LANE] == 0 && c.count[B_WARP] == 2 && c.v[B_WARP][2] == 2);
    CHECK(mx_read(&src, &c, &bad) == 1 && c.refused && c.kind == 6 && strcmp(c.why, "ABORT") == 0);
    CHECK(mx_read(&src, &c, &bad) == 0);
    for (i = 0; i < (int)(sizeof bad_lines / sizeof bad_lines[0]); i++) {
        size_t k = 0;
        while (k < 4 && bad_lines[i][k][0]) k++;
        src.lines = bad_lines[i];
        src.n = k;
        src.next = 0;
        CHECK_MSG(mx_read(&src, &c, &bad) == -1, "malformed fixture %d read", i);
    }
    CHECK(triton_bases_ints("1 2 x", c.v[0], 4) == -1);
    CHECK(triton_bases_ints("1 2 3", c.v[0], 2) == -1);
    CHECK(triton_bases_ints(" 4 -1 ", c.v[0], 4) == 2 && c.v[0][1] == -1);
}

int main(void)
{
    RUN(test_fixtures);
    RUN(test_reader);
    return harness_finish("test_triton_mma_fixtures");
}
