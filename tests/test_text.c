/* Text forms (text.h): round trips on the seed descriptors and on random
 * descriptors built through the API, malformed specs with their messages
 * and columns, the caret helper, and the printer's error paths.
 *
 * "Equal" is judged here independently of the library's printer: same
 * lengths, element space, vector hints, and the same offset and validity at
 * every coordinate (plus the canonical-text fixed point). */
#include "harness.h"
#include "layout.h"
#include "support/seed_lds.h"
#include "../examples/seed_kernels.h"

/* ---------------------------------------------------------------- helpers */

/* Same lengths, element space size, vector hints, offsets and validity everywhere. */
static int same_descriptor(const layout_descriptor *a, const layout_descriptor *b)
{
    int n = layout_desc_ndims(a), i;
    int64_t total, k, coord[LAYOUT_MAX_DIMS];
    int64_t la[LAYOUT_MAX_DIMS], sa[LAYOUT_MAX_DIMS], lb[LAYOUT_MAX_DIMS], sb[LAYOUT_MAX_DIMS];
    if (n != layout_desc_ndims(b)) return 0;
    if (layout_desc_element_space_size(a) != layout_desc_element_space_size(b)) return 0;
    for (i = 0; i < n; i++)
        if (layout_desc_length(a, i) != layout_desc_length(b, i)) return 0;
    if (layout_desc_vector_hints(a, la, sa, NULL) || layout_desc_vector_hints(b, lb, sb, NULL)) return 0;
    for (i = 0; i < n; i++)
        if (la[i] != lb[i] || sa[i] != sb[i]) return 0;
    total = layout_desc_size(a);
    for (k = 0; k < total; k++) {
        int64_t rest = k, oa, ob;
        int va, vb;
        for (i = n - 1; i >= 0; i--) {
            coord[i] = rest % layout_desc_length(a, i);
            rest /= layout_desc_length(a, i);
        }
        if (layout_desc_offset(a, coord, &oa, NULL) || layout_desc_offset(b, coord, &ob, NULL)) return 0;
        if (layout_desc_is_valid(a, coord, &va, NULL) || layout_desc_is_valid(b, coord, &vb, NULL)) return 0;
        if (oa != ob || va != vb) return 0;
    }
    return 1;
}

/* print -> parse -> same descriptor, and print again gives the same text. */
static void check_round_trip(const layout_descriptor *d, const char *label)
{
    char t1[LAYOUT_TEXT_CAP], t2[LAYOUT_TEXT_CAP];
    layout_descriptor back;
    layout_error e;
    layout_status st = layout_desc_to_text(d, t1, sizeof t1, &e);
    CHECK_MSG(st == LAYOUT_OK, "%s: print failed: %s", label, e.message);
    if (st) return;
    st = layout_desc_from_text(t1, &back, NULL, &e);
    CHECK_MSG(st == LAYOUT_OK, "%s: parse of '%s' failed: %s", label, t1, e.message);
    if (st) return;
    CHECK_MSG(same_descriptor(d, &back), "%s: '%s' parses to a different descriptor", label, t1);
    CHECK(layout_desc_to_text(&back, t2, sizeof t2, NULL) == LAYOUT_OK);
    CHECK_MSG(strcmp(t1, t2) == 0, "%s: not a fixed point:\n  %s\n  %s", label, t1, t2);
}

/* ------------------------------------------------------------ seed layouts */

static const char *const k_issue_example =
    "naive([8,32,8],[8,64,1],gvl=8,gvs=1) | T{xor([32,8]):[1,0]->[1,0] ; pass(8):[2]->[2]} | "
    "T{unmerge([2,4]):[0]->[0,2] ; pass(32):[1]->[1] ; pass(8):[2]->[3]} | "
    "T{merge([32,2]):[1,0]->[0] ; merge([4,8]):[2,3]->[1]}";

static void test_seed_round_trips(void)
{
    layout_status (*const simple[])(layout_descriptor *) = {seed_01_mk, seed_01_km, seed_02_mk,
                                                            seed_02_km, seed_03_mk, seed_03_km};
    const char *names[] = {"01 mk", "01 km", "02 mk", "02 km", "03 mk", "03 km"};
    layout_descriptor d;
    size_t i;
    int banks, pad, row_mul;
    for (i = 0; i < sizeof simple / sizeof simple[0]; i++) {
        CHECK(simple[i](&d) == LAYOUT_OK);
        check_round_trip(&d, names[i]);
    }
    for (banks = 32; banks <= 64; banks += 32)
        for (pad = 0; pad <= 1; pad++)
            for (row_mul = 1; row_mul <= 2; row_mul++) {
                CHECK(seed_xor_mk(&d, banks, row_mul, pad) == LAYOUT_OK);
                check_round_trip(&d, "xor");
            }
}

/* The issue's text of kernel 08's descriptor is the talk's descriptor. */
static void test_issue_example_is_kernel_08(void)
{
    layout_descriptor parsed, built;
    layout_error e;
    int64_t m, k, coord[2], off;
    CHECK(layout_desc_from_text(k_issue_example, &parsed, NULL, &e) == LAYOUT_OK);
    CHECK(seed_xor_mk(&built, 32, 1, 0) == LAYOUT_OK);
    CHECK(same_descriptor(&parsed, &built));
    for (m = 0; m < SEED_KM; m++)
        for (k = 0; k < SEED_KK; k++) {
            coord[0] = m;
            coord[1] = k;
            CHECK(layout_desc_offset(&parsed, coord, &off, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(off, seed_xor_closed_form(m, k, 32, 0));
        }
}

/* Known canonical texts: bases, keywords, aliases, comments, whitespace. */
static void test_canonical_texts(void)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"packed([64,32])", "packed([64,32])"},
        {"  packed( [ 64 , 32 ] )  # a comment\n", "packed([64,32])"},
        {"packed([64,32],gvl=64)", "packed([64,32],gvl=64)"},
        {"packed([64,32],gvl=8)", "packed([64,32])"}, /* packed already guarantees the whole row */
        {"aligned([4,5],align=4)", "naive([4,5],[8,1])"},
        {"aligned([3,5,5],align=8)", "naive([3,5,5],[40,8,1])"},
        {"naive([4],[3],gvs=1,gvl=2)", "naive([4],[3],gvl=2,gvs=1)"},
        {"naive_off([4,4],[4,1],off=3)", "naive_off([4,4],[4,1],off=3)"},
        {"naive([4],[1]) | T{pass_through(4):[0]->[0]}", "naive([4],[1]) | T{pass(4):[0]->[0]}"},
        {"naive([4],[1]) | T{left_pad(4,2):[0]->[0]} | T{right_pad(6,1):[0]->[0]}",
         "naive([4],[1]) | T{lpad(4,2):[0]->[0]} | T{rpad(6,1):[0]->[0]}"},
        {"packed([4,8])|T{merge_divmod([4,8]):[0,1]->[0]}", "packed([4,8]) | T{merge3([4,8]):[0,1]->[0]}"},
        {"naive([4],[1]) | T{pad(4,1,2):[0]->[0]} | T{slice(7,1,5):[0]->[0]} | T{modulo(3,4):[0]->[0]} | "
         "T{offset(4,-2):[0]->[0]}",
         "naive([4],[1]) | T{pad(4,1,2):[0]->[0]} | T{slice(7,1,5):[0]->[0]} | T{modulo(3,4):[0]->[0]} | "
         "T{offset(4,-2):[0]->[0]}"},
        {"packed([4,8]) | T{freeze(1):[0]->[] ; pass(8):[1]->[0] ; insert(3):[]->[1]}",
         "packed([4,8]) | T{freeze(1):[0]->[] ; pass(8):[1]->[0] ; insert(3):[]->[1]}"},
        {"packed([4,8]) | T{freeze(1):[0]->[] ; pass(8):[1]->[0]} | T{insert(3):[]->[1] ; pass(8):[0]->[0]}",
         "packed([4,8]) | T{freeze(1):[0]->[] ; pass(8):[1]->[0]} | T{insert(3):[]->[1] ; pass(8):[0]->[0]}"},
        {"packed([4,8]) | T{embed([2,2],[2,1]):[0]->[2,0] ; merge3([8]):[1]->[1]} | "
         "T{replicate([2]):[]->[0] ; pass(2):[0]->[1] ; pass(8):[1]->[2] ; pass(2):[2]->[3]}",
         "packed([4,8]) | T{embed([2,2],[2,1]):[0]->[0,2] ; merge3([8]):[1]->[1]} | "
         "T{replicate([2]):[]->[0] ; pass(2):[2]->[1] ; pass(8):[1]->[2] ; pass(2):[0]->[3]}"},
        /* The issue's kernel 08 text: intermediate dims keep their positions where they can. */
        {"naive([8,32,8],[8,64,1],gvl=8,gvs=1) | T{xor([32,8]):[1,0]->[1,0] ; pass(8):[2]->[2]} | "
         "T{unmerge([2,4]):[0]->[0,2] ; pass(32):[1]->[1] ; pass(8):[2]->[3]} | "
         "T{merge([32,2]):[1,0]->[0] ; merge([4,8]):[2,3]->[1]}",
         "naive([8,32,8],[8,64,1],gvl=8,gvs=1) | T{xor([32,8]):[1,0]->[1,0] ; pass(8):[2]->[2]} | "
         "T{unmerge([2,4]):[0]->[0,3] ; pass(32):[1]->[1] ; pass(8):[2]->[2]} | "
         "T{merge([32,2]):[1,0]->[0] ; merge([4,8]):[3,2]->[1]}"},
        {"packed([8,4]) | T{xor([8,4]):[0,1]->[0,1]}", "packed([8,4]) | T{xor([8,4]):[0,1]->[0,1]}"},
        {"packed([2,3,4]) | T{pass(2):[0]->[2] ; pass(3):[1]->[0] ; pass(4):[2]->[1]}",
         "packed([2,3,4]) | T{pass(2):[0]->[2] ; pass(3):[1]->[0] ; pass(4):[2]->[1]}"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        layout_descriptor d;
        layout_error e;
        char out[LAYOUT_TEXT_CAP];
        layout_status st = layout_desc_from_text(cases[i].in, &d, NULL, &e);
        CHECK_MSG(st == LAYOUT_OK, "'%s': %s", cases[i].in, e.message);
        if (st) continue;
        CHECK(layout_desc_to_text(&d, out, sizeof out, &e) == LAYOUT_OK);
        CHECK_MSG(strcmp(out, cases[i].out) == 0, "'%s' printed as '%s', expected '%s'", cases[i].in, out,
                  cases[i].out);
        check_round_trip(&d, cases[i].in);
    }
}

/* The parsed text means what the equivalent API calls mean. */
static void test_parse_matches_api(void)
{
    layout_descriptor a, b;
    int64_t lens[2] = {4, 5}, strides[2] = {7, 1};
    CHECK(layout_desc_from_text("naive_off([4,5],[7,1],off=9)", &a, NULL, NULL) == LAYOUT_OK);
    CHECK(layout_naive_offset(&b, 2, lens, strides, 9, NULL) == LAYOUT_OK);
    CHECK(same_descriptor(&a, &b));
    CHECK(layout_desc_from_text("aligned([4,5],align=4)", &a, NULL, NULL) == LAYOUT_OK);
    CHECK(layout_aligned(&b, 2, lens, 4, NULL) == LAYOUT_OK);
    CHECK(same_descriptor(&a, &b));
    CHECK(layout_desc_from_text("packed([4,5],gvl=10)", &a, NULL, NULL) == LAYOUT_OK);
    CHECK(layout_packed_vec(&b, 2, lens, 10, NULL) == LAYOUT_OK);
    CHECK(same_descriptor(&a, &b));
}

/* ----------------------------------------------------- random descriptors */

/* A random base of 1..3 dims with small lengths. */
static void random_base(harness_rng *r, layout_descriptor *d)
{
    int n = (int)harness_range(r, 1, 3), i;
    int64_t lens[3], strides[3];
    for (i = 0; i < n; i++) {
        lens[i] = harness_range(r, 1, 6);
        strides[i] = harness_range(r, 0, 9);
    }
    switch (harness_range(r, 0, 4)) {
    case 0: CHECK(layout_naive(d, n, lens, strides, NULL) == LAYOUT_OK); break;
    case 1:
        CHECK(layout_naive_vec(d, n, lens, strides, harness_range(r, 1, 4),
                               harness_range(r, 0, 1) ? -1 : harness_range(r, 0, 2), NULL) == LAYOUT_OK);
        break;
    case 2: CHECK(layout_naive_offset(d, n, lens, strides, harness_range(r, -5, 5), NULL) == LAYOUT_OK); break;
    case 3:
        CHECK(layout_packed_vec(d, n, lens, harness_range(r, 0, 1) ? -1 : harness_range(r, 1, 12), NULL) ==
              LAYOUT_OK);
        break;
    default: CHECK(layout_aligned(d, n, lens, harness_range(r, 1, 8), NULL) == LAYOUT_OK); break;
    }
}

/* One random stage over the current top dims; returns 0 when it could not be applied. */
static int random_stage(harness_rng *r, layout_descriptor *d)
{
    layout_transform ts[LAYOUT_MAX_TRANSFORMS];
    layout_seq lo[LAYOUT_MAX_TRANSFORMS], up[LAYOUT_MAX_TRANSFORMS];
    int n_old = layout_desc_ndims(d), order[LAYOUT_MAX_DIMS], i, j, n_t = 0, n_new = 0, kept = 0;
    int perm[LAYOUT_MAX_DIMS * 2];
    layout_descriptor next;
    layout_error e;
    /* Shuffle the old dims, then consume them in that order. */
    for (i = 0; i < n_old; i++) order[i] = i;
    for (i = n_old - 1; i > 0; i--) {
        j = (int)harness_range(r, 0, i);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (i = 0; i < n_old;) {
        int dim = order[i];
        int64_t len = layout_desc_length(d, dim);
        int choice = (int)harness_range(r, 0, 11);
        layout_transform *t = &ts[n_t];
        lo[n_t].n = 1;
        lo[n_t].ids[0] = dim;
        up[n_t].n = 1;
        if (choice == 0 && i + 1 < n_old && n_new < 6) { /* merge two dims */
            int64_t parts[2] = {len, layout_desc_length(d, order[i + 1])};
            if (harness_range(r, 0, 1)) CHECK(layout_make_merge(2, parts, t, NULL) == LAYOUT_OK);
            else CHECK(layout_make_merge_divmod(2, parts, t, NULL) == LAYOUT_OK);
            lo[n_t].n = 2;
            lo[n_t].ids[1] = order[i + 1];
            i += 2;
        } else if (choice == 1 && i + 1 < n_old) { /* xor two dims */
            CHECK(layout_make_xor(len, layout_desc_length(d, order[i + 1]), t, NULL) == LAYOUT_OK);
            lo[n_t].n = 2;
            lo[n_t].ids[1] = order[i + 1];
            up[n_t].n = 2;
            i += 2;
        } else if (choice == 2 && len % 2 == 0 && n_new < 6) { /* unmerge into two */
            int64_t parts[2] = {2, len / 2};
            CHECK(layout_make_unmerge(2, parts, t, NULL) == LAYOUT_OK);
            up[n_t].n = 2;
            i++;
        } else if (choice == 3) {
            CHECK(layout_make_pad(len, harness_range(r, 0, 2), harness_range(r, 0, 2), t, NULL) == LAYOUT_OK);
            i++;
        } else if (choice == 4) {
            CHECK(layout_make_left_pad(len, harness_range(r, 0, 2), t, NULL) == LAYOUT_OK);
            i++;
        } else if (choice == 5) {
            CHECK(layout_make_right_pad(len, harness_range(r, 0, 2), t, NULL) == LAYOUT_OK);
            i++;
        } else if (choice == 6 && len >= 2) {
            int64_t b = harness_range(r, 0, len - 1);
            CHECK(layout_make_slice(len, b, harness_range(r, b + 1, len), t, NULL) == LAYOUT_OK);
            i++;
        } else if (choice == 7) {
            CHECK(layout_make_modulo(harness_range(r, 1, len), len, t, NULL) == LAYOUT_OK);
            i++;
        } else if (choice == 8) {
            CHECK(layout_make_offset(len, harness_range(r, 0, 3), t, NULL) == LAYOUT_OK);
            i++;
        } else if (choice == 9 && n_old - i > 1 && kept > 0) { /* freeze, keeping at least one top dim */
            CHECK(layout_make_freeze(harness_range(r, 0, len - 1), t, NULL) == LAYOUT_OK);
            up[n_t].n = 0;
            i++;
        } else if (choice == 10 && n_new < 6) { /* embed into two dims */
            int64_t ul[2] = {harness_range(r, 1, 3), harness_range(r, 1, 3)}, co[2] = {harness_range(r, 0, 3), 1};
            CHECK(layout_make_embed(2, ul, co, t, NULL) == LAYOUT_OK);
            up[n_t].n = 2;
            i++;
        } else {
            CHECK(layout_make_pass_through(len, t, NULL) == LAYOUT_OK);
            i++;
        }
        n_new += up[n_t].n;
        kept += up[n_t].n;
        n_t++;
        if (harness_range(r, 0, 9) == 0 && n_new < 6) { /* a dim from nowhere */
            t = &ts[n_t];
            if (harness_range(r, 0, 1)) {
                CHECK(layout_make_insert(harness_range(r, 1, 3), t, NULL) == LAYOUT_OK);
                up[n_t].n = 1;
            } else {
                int64_t rl[2] = {harness_range(r, 1, 2), harness_range(r, 1, 2)};
                CHECK(layout_make_replicate(2, rl, t, NULL) == LAYOUT_OK);
                up[n_t].n = 2;
            }
            lo[n_t].n = 0;
            n_new += up[n_t].n;
            n_t++;
        }
    }
    if (n_new < 1 || n_new > LAYOUT_MAX_DIMS) return 0;
    /* A random permutation of the new top positions. */
    for (i = 0; i < n_new; i++) perm[i] = i;
    for (i = n_new - 1; i > 0; i--) {
        j = (int)harness_range(r, 0, i);
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (i = 0, j = 0; i < n_t; i++) {
        int k;
        for (k = 0; k < up[i].n; k++) up[i].ids[k] = perm[j++];
    }
    if (layout_transform_descriptor(&next, d, n_t, ts, lo, up, &e) != LAYOUT_OK) return 0;
    *d = next;
    return 1;
}

static void test_random_round_trips(void)
{
    harness_rng r = {0x7e57u};
    long iters = harness_scaled(1500), it;
    int applied = 0;
    for (it = 0; it < iters; it++) {
        layout_descriptor d;
        int stages = (int)harness_range(&r, 0, 3), s;
        char label[64];
        random_base(&r, &d);
        for (s = 0; s < stages; s++) {
            if (d.adaptor.n_transforms + 2 * LAYOUT_MAX_DIMS > LAYOUT_MAX_TRANSFORMS) break;
            if (layout_desc_size(&d) > 4096) break;
            applied += random_stage(&r, &d);
        }
        snprintf(label, sizeof label, "random #%ld", it);
        check_round_trip(&d, label);
    }
    CHECK(applied > iters / 2); /* the generator really exercises stages */
}

/* ------------------------------------------------------- malformed specs */

/* One malformed text, what the parser must say and where. */
typedef struct malformed {
    const char *text;
    layout_status status;
    size_t column;      /* 1-based */
    const char *needle; /* in the message */
} malformed;

enum text_kind { KIND_DESC, KIND_DIST, KIND_ARCH };

/* Each case fails with its status, message and column; the output is untouched. */
static void check_malformed(enum text_kind kind, const malformed *cases, size_t n)
{
    static const char *const prefix[3] = {"layout_desc_from_text: ", "layout_dist_from_text: ",
                                          "layout_arch_from_text: "};
    static union {
        layout_descriptor d;
        layout_distribution t;
        layout_arch a;
    } out, untouched;
    size_t i;
    for (i = 0; i < n; i++) {
        layout_error e;
        size_t where = 12345;
        char want[32];
        layout_status st;
        memset(&out, 0xab, sizeof out);
        untouched = out;
        st = kind == KIND_DESC   ? layout_desc_from_text(cases[i].text, &out.d, &where, &e)
             : kind == KIND_DIST ? layout_dist_from_text(cases[i].text, 0, 0, &out.t, &where, &e)
                                 : layout_arch_from_text(cases[i].text, &out.a, &where, &e);
        CHECK_MSG(st == cases[i].status, "'%s': status %s, expected %s (%s)", cases[i].text, layout_status_name(st),
                  layout_status_name(cases[i].status), e.message);
        CHECK_EQ_I64(e.status, st);
        CHECK_MSG(where + 1 == cases[i].column, "'%s': column %zu, expected %zu (%s)", cases[i].text, where + 1,
                  cases[i].column, e.message);
        CHECK_STR_CONTAINS(e.message, cases[i].needle);
        CHECK(strncmp(e.message, prefix[kind], strlen(prefix[kind])) == 0);
        if (!strchr(cases[i].text, '\n')) {
            snprintf(want, sizeof want, "column %zu:", cases[i].column);
            CHECK_STR_CONTAINS(e.message, want);
        }
        CHECK(memcmp(&out, &untouched, sizeof out) == 0);
    }
}

static void test_malformed_specs(void)
{
    static const malformed cases[] = {
        {"", LAYOUT_ERR_PARSE, 1, "expected a base: naive, naive_off, packed or aligned, found end of input"},
        {"naiv([1],[1])", LAYOUT_ERR_PARSE, 1, "unknown base 'naiv'"},
        {"naive([8,32],[32 1])", LAYOUT_ERR_PARSE, 18, "expected ',' or ']', found '1'"},
        {"naive([8,32],[32,1]", LAYOUT_ERR_PARSE, 20, "found end of input"},
        {"naive([8,32],[32])", LAYOUT_ERR_MISMATCH, 14, "naive has 2 lengths but 1 strides"}, /* at the strides */
        {"packed([64,32]) | T{pass(64):[0]->[0] ; pass(32):[1]->[1]", LAYOUT_ERR_PARSE, 58,
         "expected ';' between transforms or '}' closing the stage"},
        {"packed([64,32]) | T{foo(3):[0]->[0]}", LAYOUT_ERR_PARSE, 21, "unknown transform 'foo'"},
        {"packed([64,32]) | T{pass(64):[0]-[0] ; pass(32):[1]->[1]}", LAYOUT_ERR_PARSE, 33,
         "expected '->' between the lower and upper ids"},
        {"packed([0,32])", LAYOUT_ERR_ARG, 9, "layout_packed_vec: lengths[0] = 0 must be > 0"}, /* at the 0 */
        {"packed([99999999999999999999])", LAYOUT_ERR_PARSE, 9, "does not fit in a 64-bit signed integer"},
        {"naive([4],[1],gvl=4,gvl=4)", LAYOUT_ERR_PARSE, 21, "keyword 'gvl' given twice"},
        {"naive_off([4],[1])", LAYOUT_ERR_PARSE, 18, "', off=' (naive_off needs it)"},
        {"packed([64,32]) | T{pass(64):[0]->[0]}", LAYOUT_ERR_DIM_ID, 19, "layout_transform_descriptor"},
        {"packed([64,32]) x", LAYOUT_ERR_PARSE, 17, "expected '|' then a stage T{...}, or the end of the descriptor"},
        {"packed([8,4]) | T{xor([8]):[0,1]->[0,1]}", LAYOUT_ERR_ARG, 19, "xor takes exactly 2 lengths"},
        {"packed([1,2,3,4,5,6,7,8,9])", LAYOUT_ERR_CAPACITY, 25, "has more than 8 entries"},
        {"packed([4]) | S{pass(4):[0]->[0]}", LAYOUT_ERR_PARSE, 15, "expected 'T{' starting a stage, found 'S'"},
        {"packed([4]) | T{pass(4)[0]->[0]}", LAYOUT_ERR_PARSE, 24, "expected ':' then the [lower ids]"},
        {"packed([4]) | T{pass(4):[0]->[0]}\n | T{pass(0):[0]->[0]}", LAYOUT_ERR_ARG, 40, "line 2, column 6"},
        {"packed([4]) | T{pass(4):[-1]->[0]}", LAYOUT_ERR_DIM_ID, 26, "lower ids[0] = -1 is not a dimension id"},
        {"packed([4],gvs=1)", LAYOUT_ERR_PARSE, 12, "unknown keyword 'gvs'"},
        {"packed([4]) | T{pass(4x):[0]->[0]}", LAYOUT_ERR_PARSE, 23, "expected a digit or a separator"},
        {"packed([4]) | T{embed([2,2],[1]):[0]->[0,1]}", LAYOUT_ERR_MISMATCH, 17, "2 upper lengths but 1 coefficients"},
        {"packed([4]) | T{pad(4,1):[0]->[0]}", LAYOUT_ERR_PARSE, 24, "expected ',' (more arguments follow)"},
        {"packed([4]) \x01", LAYOUT_ERR_PARSE, 13, "found byte 0x01"},
    };
    check_malformed(KIND_DESC, cases, sizeof cases / sizeof cases[0]);
}

static void test_null_arguments(void)
{
    layout_descriptor d;
    layout_error e;
    char buf[64];
    CHECK(layout_desc_from_text(NULL, &d, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK_STR_CONTAINS(e.message, "layout_desc_from_text: text is NULL");
    CHECK(layout_desc_from_text("packed([4])", NULL, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_desc_from_text("packed([4])", &d, NULL, NULL) == LAYOUT_OK);
    CHECK(layout_desc_to_text(NULL, buf, sizeof buf, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_desc_to_text(&d, NULL, 0, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_text_caret(NULL, 0, buf, sizeof buf, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_text_caret("x", 0, NULL, 0, &e) == LAYOUT_ERR_NULL);
}

/* ---------------------------------------------------------- printer errors */

static void test_print_buffer_too_small(void)
{
    layout_descriptor d;
    layout_error e;
    char buf[16], exact[32];
    CHECK(layout_desc_from_text("packed([64,32])", &d, NULL, NULL) == LAYOUT_OK);
    memset(buf, 'z', sizeof buf);
    CHECK(layout_desc_to_text(&d, buf, 15, &e) == LAYOUT_ERR_BUFFER);
    CHECK_STR_CONTAINS(e.message, "needs 16 bytes");
    CHECK(buf[0] == 'z' && buf[14] == 'z'); /* untouched on failure */
    CHECK(layout_desc_to_text(&d, exact, 16, &e) == LAYOUT_OK);
    CHECK(strcmp(exact, "packed([64,32])") == 0);
    CHECK(e.status == LAYOUT_OK && e.message[0] == '\0');
}

/* A descriptor whose adaptor no constructor sequence produces has no text. */
static void test_print_unsupported(void)
{
    layout_descriptor d;
    layout_error e;
    char buf[LAYOUT_TEXT_CAP];
    CHECK(layout_desc_from_text("packed([4,8]) | T{pass(4):[0]->[0] ; pass(8):[1]->[1]}", &d, NULL, NULL) ==
          LAYOUT_OK);
    d.adaptor.lower_hidden[1].ids[0] = 2; /* both pass-throughs now read hidden 2 */
    CHECK(layout_desc_to_text(&d, buf, sizeof buf, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "layout_desc_to_text: d was not built as a base plus transform stages");
    CHECK(layout_desc_from_text("packed([4,8])", &d, NULL, NULL) == LAYOUT_OK);
    d.adaptor.transforms[0].kind = LAYOUT_PASS_THROUGH; /* unknown base */
    CHECK(layout_desc_to_text(&d, buf, sizeof buf, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK(layout_desc_from_text("packed([4,8])", &d, NULL, NULL) == LAYOUT_OK);
    d.element_space_size = 7; /* the text would give 32 */
    CHECK(layout_desc_to_text(&d, buf, sizeof buf, &e) == LAYOUT_ERR_UNSUPPORTED);
}

/* ------------------------------------------------------------------ caret */

static void test_caret(void)
{
    char buf[2 * LAYOUT_TEXT_CARET_WIDTH + 16], small[4];
    layout_error e;
    char long_text[400];
    size_t i;
    CHECK(layout_text_caret("naive([8,32],[32 1])", 17, buf, sizeof buf, &e) == LAYOUT_OK);
    CHECK(strcmp(buf, "naive([8,32],[32 1])\n                 ^\n") == 0);
    CHECK(layout_text_caret("ab", 2, buf, sizeof buf, &e) == LAYOUT_OK); /* end of input */
    CHECK(strcmp(buf, "ab\n  ^\n") == 0);
    CHECK(layout_text_caret("one\ntwo\tx\nthree", 8, buf, sizeof buf, &e) == LAYOUT_OK);
    CHECK(strcmp(buf, "two x\n    ^\n") == 0); /* only the line, tab shown as a space */
    CHECK(layout_text_caret("ab", 3, buf, sizeof buf, &e) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "layout_text_caret: offset = 3");
    CHECK(layout_text_caret("abcdef", 1, small, sizeof small, &e) == LAYOUT_ERR_BUFFER);
    /* A long line is cut to a window around the spot, caret still aligned. */
    for (i = 0; i < sizeof long_text - 1; i++) long_text[i] = (char)('a' + i % 26);
    long_text[sizeof long_text - 1] = '\0';
    for (i = 0; i < sizeof long_text - 1; i += 37) {
        const char *nl, *caret;
        CHECK(layout_text_caret(long_text, i, buf, sizeof buf, &e) == LAYOUT_OK);
        nl = strchr(buf, '\n');
        caret = strchr(buf, '^');
        CHECK(nl && caret);
        if (!nl || !caret) continue;
        CHECK((size_t)(nl - buf) <= LAYOUT_TEXT_CARET_WIDTH + 6);
        CHECK(buf[caret - nl - 1] == long_text[i]); /* the character above the caret */
    }
}

/* ---------------------------------------------------------- distributions */

/* Same shape and the same X for every (warp, lane, element). */
static int same_distribution(const layout_distribution *a, const layout_distribution *b)
{
    int w, l, i;
    int64_t e, xa[LAYOUT_MAX_DIMS], xb[LAYOUT_MAX_DIMS];
    if (a->wave_size != b->wave_size || a->n_warps != b->n_warps || a->n_x != b->n_x || a->n_y != b->n_y ||
        a->elems_per_thread != b->elems_per_thread)
        return 0;
    for (i = 0; i < a->n_x; i++)
        if (a->x_lengths[i] != b->x_lengths[i]) return 0;
    for (i = 0; i < a->n_y; i++)
        if (a->y_lengths[i] != b->y_lengths[i]) return 0;
    for (w = 0; w < a->n_warps; w++)
        for (l = 0; l < a->wave_size; l++)
            for (e = 0; e < a->elems_per_thread; e++) {
                if (layout_dist_coord_elem(a, w, l, e, xa, NULL) || layout_dist_coord_elem(b, w, l, e, xb, NULL))
                    return 0;
                if (memcmp(xa, xb, sizeof(int64_t) * (size_t)a->n_x) != 0) return 0;
            }
    return 1;
}

static void check_dist_round_trip(const layout_distribution *d, const char *label)
{
    char t1[LAYOUT_TEXT_CAP], t2[LAYOUT_TEXT_CAP];
    layout_distribution back;
    layout_error e;
    layout_status st = layout_dist_to_text(d, t1, sizeof t1, &e);
    CHECK_MSG(st == LAYOUT_OK, "%s: %s", label, e.message);
    if (st) return;
    st = layout_dist_from_text(t1, 0, 0, &back, NULL, &e);
    CHECK_MSG(st == LAYOUT_OK, "%s: '%s': %s", label, t1, e.message);
    if (st) return;
    CHECK_MSG(same_distribution(d, &back), "%s: '%s' parses to a different distribution", label, t1);
    CHECK(layout_dist_to_text(&back, t2, sizeof t2, NULL) == LAYOUT_OK);
    CHECK_MSG(strcmp(t1, t2) == 0, "%s: not a fixed point: %s / %s", label, t1, t2);
}

static void test_dist_seed_round_trips(void)
{
    layout_distribution d;
    layout_status (*const make[])(layout_distribution *, layout_error *) = {
        seed_write_dist, seed_read_dist_kmajor, seed_read_dist_08, seed_read_dist_10};
    size_t i;
    for (i = 0; i < sizeof make / sizeof make[0]; i++) {
        CHECK(make[i](&d, NULL) == LAYOUT_OK);
        check_dist_round_trip(&d, "seed");
    }
}

/* The issue's text is the talk's kernel 08 read distribution. */
static void test_dist_issue_example(void)
{
    layout_distribution parsed, built;
    layout_error e;
    char buf[LAYOUT_TEXT_CAP];
    const char *text = "dist(R=[1], H=([1,8,8],[4,8]), P=([(2,0)],[(1,1),(1,2)]), Y=[(1,0),(2,1)])";
    CHECK_MSG(layout_dist_from_text(text, 0, 0, &parsed, NULL, &e) == LAYOUT_OK, "%s", e.message);
    CHECK(seed_read_dist_08(&built, NULL) == LAYOUT_OK);
    CHECK(same_distribution(&parsed, &built));
    CHECK_EQ_I64(parsed.wave_size, 64);
    CHECK_EQ_I64(parsed.n_warps, 4);
    CHECK(layout_dist_to_text(&parsed, buf, sizeof buf, NULL) == LAYOUT_OK);
    CHECK(strcmp(buf, text) == 0); /* the issue's spelling is the canonical one */
    /* Explicit sizes must agree with the encoding. */
    CHECK(layout_dist_from_text(text, 64, 4, &parsed, NULL, &e) == LAYOUT_OK);
    CHECK(layout_dist_from_text(text, 32, 0, &parsed, NULL, &e) == LAYOUT_ERR_MISMATCH);
    /* One P list: every warp holds the same data; warps= keeps the count. */
    CHECK(layout_dist_from_text("dist(R=[], H=([64],[8]), P=([(1,0)]), Y=[(2,0)], warps=4)", 0, 0, &parsed, NULL,
                                &e) == LAYOUT_OK);
    CHECK_EQ_I64(parsed.n_warps, 4);
    CHECK_EQ_I64(parsed.wave_size, 64);
    check_dist_round_trip(&parsed, "one P");
}

/* Random valid encodings: every H entry goes to P0, P1 or Y; R entries to P. */
static void test_dist_random_round_trips(void)
{
    harness_rng r = {0xd157u};
    long iters = harness_scaled(300), it;
    int built = 0;
    for (it = 0; it < iters; it++) {
        layout_dist_encoding enc;
        layout_distribution d;
        int i, j, two_p = (int)harness_range(&r, 0, 1), warps = 1;
        int64_t p_len[2] = {1, 1};
        char label[48];
        memset(&enc, 0, sizeof enc);
        enc.n_p = two_p ? 2 : 1;
        enc.n_r = (int)harness_range(&r, 0, 1);
        for (i = 0; i < enc.n_r; i++) {
            int p = two_p ? (int)harness_range(&r, 0, 1) : 0;
            enc.r[i] = harness_range(&r, 1, 2);
            enc.p_major[p][enc.n_p_rh[p]] = 0;
            enc.p_minor[p][enc.n_p_rh[p]++] = i;
            p_len[p] *= enc.r[i];
        }
        enc.n_x = (int)harness_range(&r, 1, 3);
        for (i = 0; i < enc.n_x; i++) {
            enc.n_h[i] = (int)harness_range(&r, 1, 3);
            for (j = 0; j < enc.n_h[i]; j++) {
                int to = (int)harness_range(&r, 0, 2); /* 0, 1: a P list; 2: Y */
                enc.h[i][j] = (int64_t)1 << harness_range(&r, 0, 2);
                if (to == 2 || (to == 1 && !two_p) || enc.n_y == 0) {
                    if (enc.n_y < LAYOUT_MAX_DIMS && (to == 2 || enc.n_y == 0)) {
                        enc.y_major[enc.n_y] = i + 1;
                        enc.y_minor[enc.n_y++] = j;
                        continue;
                    }
                    to = 0;
                }
                enc.p_major[to][enc.n_p_rh[to]] = i + 1;
                enc.p_minor[to][enc.n_p_rh[to]++] = j;
                p_len[to] *= enc.h[i][j];
            }
        }
        if (enc.n_p_rh[0] == 0 || (two_p && enc.n_p_rh[1] == 0)) continue;
        if (!two_p) warps = (int)harness_range(&r, 1, 3);
        if (layout_dist_make(&d, &enc, (int)p_len[enc.n_p - 1], two_p ? (int)p_len[0] : warps, 0, NULL, NULL))
            continue;
        built++;
        snprintf(label, sizeof label, "random dist #%ld", it);
        check_dist_round_trip(&d, label);
    }
    CHECK(built > iters / 4);
}

static void test_dist_malformed(void)
{
    static const malformed cases[] = {
        {"dist(R=[1], H=([1,8,8],[4,8]), P=([(2,0)],[(1,1),(1,2)]), Y=[(1,0),(2,1)]", LAYOUT_ERR_PARSE, 74,
         "expected ')' closing dist(...)"},
        {"dist(H=([4]), P=([(1,0)]), Y=[])", LAYOUT_ERR_PARSE, 6, "expected 'R=' (the replication lengths)"},
        {"dist(R=[], H=([4]), P=([(1,0)] Y=[])", LAYOUT_ERR_PARSE, 32, "',' or ')' after a P list"},
        {"dist(R=[], H=([4]), P=([(1 0)]), Y=[])", LAYOUT_ERR_PARSE, 28, "',' between RH major and minor"},
        {"dist(R=[], H=([4]), P=([(9,0)]), Y=[])", LAYOUT_ERR_DIM_ID, 26, "RH major 9 is outside 0..8"},
        {"dist(R=[], H=([4],[2]), P=([(1,0)]), Y=[(1,0)])", LAYOUT_ERR_ARG, 41, "layout_dist_make"}, /* Y's (1,0): H0[0] named again */
        /* semantic errors of layout_dist_make: the caret under the entry it names */
        {"dist(R=[], H=([4],[2,3]), P=([(1,0)]), Y=[(2,0)])", LAYOUT_ERR_ARG, 22, "H1[1] (major 2, minor 1) is named 0 times"},
        {"dist(R=[2], H=([4],[2]), P=([(1,0)]), Y=[(2,0)])", LAYOUT_ERR_ARG, 9, "R[0] = 2 (major 0, minor 0) is named 0 times"},
        {"dist(R=[], H=([4],[0]), P=([(1,0)]), Y=[(2,0)])", LAYOUT_ERR_ARG, 20, "enc->h[1][0] = 0 must be > 0"},
        {"dist(R=[], H=([4],[2]), P=([(1,0)]), Y=[(0,0)])", LAYOUT_ERR_DIM_ID, 41, "Y0 entry 0 has minor 0"},
        {"dist(R=[], H=([64],[8]), P=([(1,0)]), Y=[(2,0)], warps=0)", LAYOUT_ERR_ARG, 56, "warps 0 is outside 1..1024"},
        {"dist(R=[], H=([64],[8]), P=([(1,0)]), Y=[(2,0)], wraps=2)", LAYOUT_ERR_PARSE, 50, "'warps=' or ')'"},
        {"dist(R=[], H=([4]), P=([(1,0)],[(1,0)],[(1,0)]), Y=[])", LAYOUT_ERR_CAPACITY, 40, "more than 2 P lists"},
        {"distr(R=[])", LAYOUT_ERR_PARSE, 1, "expected 'dist('"},
    };
    check_malformed(KIND_DIST, cases, sizeof cases / sizeof cases[0]);
    {
        layout_distribution d;
        char buf[8];
        CHECK(layout_dist_from_text(NULL, 0, 0, &d, NULL, NULL) == LAYOUT_ERR_NULL);
        CHECK(layout_dist_from_text("dist()", -1, 0, &d, NULL, NULL) == LAYOUT_ERR_ARG);
        CHECK(layout_dist_from_text("dist()", 0, -2, &d, NULL, NULL) == LAYOUT_ERR_ARG);
        CHECK(layout_dist_to_text(NULL, buf, sizeof buf, NULL) == LAYOUT_ERR_NULL);
        CHECK(seed_write_dist(&d, NULL) == LAYOUT_OK);
        CHECK(layout_dist_to_text(&d, buf, sizeof buf, NULL) == LAYOUT_ERR_BUFFER);
        d.kind = LAYOUT_DIST_TABLE;
        CHECK(layout_dist_to_text(&d, buf, sizeof buf, NULL) == LAYOUT_ERR_UNSUPPORTED);
    }
}

/* The LDS views of every seed kernel round-trip (both banks). */
static void test_seed_kernel_views(void)
{
    static seed_kernel k;
    int which, banks;
    for (banks = 32; banks <= 64; banks += 32)
        for (which = 0; which < SEED_KERNEL_COUNT; which++) {
            CHECK(seed_kernel_build(&k, (seed_kernel_id)which, banks, NULL) == LAYOUT_OK);
            check_round_trip(&k.write_desc, seed_kernel_id_str((seed_kernel_id)which));
            check_round_trip(&k.read_desc, seed_kernel_id_str((seed_kernel_id)which));
            check_dist_round_trip(&k.write_dist, "write");
            check_dist_round_trip(&k.read_dist, "read");
        }
}

/* ---------------------------------------------------------- architectures */

/* Every preset prints as its name and parses back to itself; with its
 * provenance changed it prints in full and comes back as the same model. */
static void test_arch_presets_round_trip(void)
{
    size_t i;
    for (i = 0; i < layout_arch_preset_count(); i++) {
        layout_arch a, b;
        layout_error e;
        char buf[LAYOUT_TEXT_CAP];
        const char *name = layout_arch_preset_name(i);
        CHECK(layout_arch_preset(name, &a, NULL) == LAYOUT_OK);
        CHECK(layout_arch_to_text(&a, buf, sizeof buf, &e) == LAYOUT_OK);
        CHECK_MSG(strcmp(buf, name) == 0, "preset %s printed as %s", name, buf);
        CHECK(layout_arch_from_text(buf, &b, NULL, &e) == LAYOUT_OK);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        a.note[0] = '!'; /* no longer exactly the preset */
        CHECK(layout_arch_to_text(&a, buf, sizeof buf, &e) == LAYOUT_OK);
        CHECK(strncmp(buf, "arch(name=", 10) == 0);
        CHECK_MSG(layout_arch_from_text(buf, &b, NULL, &e) == LAYOUT_OK, "%s: %s", buf, e.message);
        CHECK(layout_arch_same_model(&a, &b));
        CHECK(layout_arch_validate(&b, NULL) == LAYOUT_OK);
    }
}

/* Independent check of a parsed arch: groups as lane masks. */
static uint64_t lanes(int lo, int hi)
{
    uint64_t m = 0;
    for (; lo <= hi; lo++) m |= (uint64_t)1 << lo;
    return m;
}

static void test_arch_custom(void)
{
    layout_arch a, b;
    layout_error e;
    char buf[LAYOUT_TEXT_CAP];
    const layout_lane_rule *r;
    const char *text = "arch(name=rdna64, banks=64, wave=32, rw b8/b16/b32=seq(32), rw b64=seq(16), "
                       "read b128={0-3,8-11}{4-7,12-15}{16-31}, write b128=seq(8)) # WGP mode";
    CHECK_MSG(layout_arch_from_text(text, &a, NULL, &e) == LAYOUT_OK, "%s", e.message);
    CHECK(strcmp(a.name, "rdna64") == 0);
    CHECK_EQ_I64(a.n_banks, 64);
    CHECK_EQ_I64(a.bank_width_bytes, 4);
    CHECK_EQ_I64(a.wave_size, 32);
    r = layout_arch_rule(&a, LAYOUT_WRITE, 2);
    CHECK(r && r->supported && r->n_groups == 1 && r->groups[0] == lanes(0, 31));
    r = layout_arch_rule(&a, LAYOUT_READ, 8);
    CHECK(r && r->supported && r->n_groups == 2 && r->groups[1] == lanes(16, 31));
    r = layout_arch_rule(&a, LAYOUT_READ, 16);
    CHECK(r && r->n_groups == 3 && r->groups[0] == (lanes(0, 3) | lanes(8, 11)) && r->groups[2] == lanes(16, 31));
    r = layout_arch_rule(&a, LAYOUT_READ, 12);
    CHECK(r && !r->supported); /* omitted: unsupported */
    CHECK(layout_arch_to_text(&a, buf, sizeof buf, &e) == LAYOUT_OK);
    CHECK_MSG(strcmp(buf, "arch(name=rdna64, banks=64, bank_bytes=4, wave=32, rw b8/b16/b32=seq(32), rw b64=seq(16), "
                          "rw b96=none, read b128={0-3,8-11}{4-7,12-15}{16-31}, write b128=seq(8))") == 0,
              "%s", buf);
    CHECK(layout_arch_from_text(buf, &b, NULL, &e) == LAYOUT_OK);
    CHECK(layout_arch_same_model(&a, &b));
    /* base= overrides a preset; a fold survives the round trip. */
    CHECK(layout_arch_from_text("arch(base=sm_90, name=\"my h100\", rw b32=seq(16))", &a, NULL, &e) == LAYOUT_OK);
    CHECK(strcmp(a.name, "my h100") == 0);
    r = layout_arch_rule(&a, LAYOUT_READ, 16);
    CHECK(r && r->n_fold_xors == 2);
    CHECK(layout_arch_to_text(&a, buf, sizeof buf, &e) == LAYOUT_OK);
    CHECK_STR_CONTAINS(buf, "name=\"my h100\"");
    CHECK_STR_CONTAINS(buf, "read b128=seq(8) fold[1,2]=seq(16)");
    CHECK_STR_CONTAINS(buf, ", ds=none"); /* sm_90: no paired DS instruction (access.h, N2) */
    CHECK(layout_arch_from_text(buf, &b, NULL, &e) == LAYOUT_OK);
    CHECK(layout_arch_same_model(&a, &b));
    CHECK_EQ_I64(b.ds_forms, 0);
    /* ds= sets the DS forms; arch(...) without it has AMD's */
    CHECK(layout_arch_from_text("arch(base=sm_90, ds=amd)", &b, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(b.ds_forms, LAYOUT_DS_FORMS_AMD);
    CHECK(!layout_arch_same_model(&a, &b));
    CHECK(layout_arch_from_text("arch(banks=32, wave=32, ds=paired, rw b32=seq(32))", &b, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(b.ds_forms, LAYOUT_DS_FORM_PAIRED);
    CHECK(layout_arch_to_text(&b, buf, sizeof buf, &e) == LAYOUT_OK);
    CHECK_STR_CONTAINS(buf, ", ds=paired");
    CHECK(layout_arch_from_text("arch(banks=32, wave=32, rw b32=seq(32))", &b, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(b.ds_forms, LAYOUT_DS_FORMS_AMD);
    CHECK(layout_arch_from_text("arch(banks=32, wave=32, ds=maybe)", &b, NULL, &e) == LAYOUT_ERR_PARSE);
    CHECK_STR_CONTAINS(e.message, "ds=maybe: expected none, paired, unaligned or amd");
    CHECK(!layout_arch_same_model(&a, NULL));
    /* A buffer too small leaves it untouched. */
    memset(buf, 'z', 8);
    CHECK(layout_arch_to_text(&a, buf, 8, &e) == LAYOUT_ERR_BUFFER);
    CHECK(buf[0] == 'z');
}

static void test_arch_malformed(void)
{
    static const malformed cases[] = {
        {"gfx943", LAYOUT_ERR_NOT_FOUND, 1, "layout_arch_preset: name = \"gfx943\" is unknown"},
        {"arch(banks=48, wave=64)", LAYOUT_ERR_ARG, 12, "n_banks = 48 must be a power of two"},
        {"arch(banks=32, wave=48)", LAYOUT_ERR_ARG, 21, "wave_size = 48 must be 32 or 64"},
        {"arch(banks=32)", LAYOUT_ERR_ARG, 1, "needs wave="},
        {"arch(banks=32, wave=64, rw b32={0-30})", LAYOUT_ERR_ARG, 25, "groups miss lanes"},
        {"arch(banks=32, wave=64, rw b32={0-40}{30-63})", LAYOUT_ERR_ARG, 25, "overlaps"},
        {"arch(banks=32, wave=64, rw b24=seq(32))", LAYOUT_ERR_PARSE, 28, "expected a width: b8, b16"},
        {"arch(banks=32, wave=64, rx b32=seq(32))", LAYOUT_ERR_PARSE, 25, "unknown arch item 'rx'"},
        {"arch(banks=32, wave=64, rw b32=seq(24))", LAYOUT_ERR_ARG, 25, "seq(24) does not divide the wave size 64"},
        {"arch(banks=32, wave=64, rw b32={0-64})", LAYOUT_ERR_ARG, 35, "lane 64 is outside 0..63"},
        {"arch(banks=32, wave=64, rw b32=seq(32)", LAYOUT_ERR_PARSE, 39, "expected ',' or ')' in arch(...)"},
        {"arch(banks=32, wave=64, rw b32=seq(32), banks=64)", LAYOUT_ERR_PARSE, 41, "banks= given twice"},
        {"arch(name=x, base=gfx942)", LAYOUT_ERR_PARSE, 14, "base= must be the first item"},
        {"arch(banks=32, wave=64, rw b32=seq(32) fold[0]=seq(32))", LAYOUT_ERR_ARG, 45, "fold mask 0 is outside"},
        {"arch(banks=32, wave=64, rw b32={3-1})", LAYOUT_ERR_ARG, 36, "runs backwards"},
    };
    check_malformed(KIND_ARCH, cases, sizeof cases / sizeof cases[0]);
    {
        layout_arch a;
        char buf[8];
        CHECK(layout_arch_from_text(NULL, &a, NULL, NULL) == LAYOUT_ERR_NULL);
        CHECK(layout_arch_from_text("gfx942", NULL, NULL, NULL) == LAYOUT_ERR_NULL);
        CHECK(layout_arch_to_text(NULL, buf, sizeof buf, NULL) == LAYOUT_ERR_NULL);
        CHECK(layout_arch_preset("gfx942", &a, NULL) == LAYOUT_OK);
        CHECK(layout_arch_to_text(&a, NULL, 0, NULL) == LAYOUT_ERR_NULL);
        a.n_banks = 3; /* invalid arch: refused */
        CHECK(layout_arch_to_text(&a, buf, sizeof buf, NULL) == LAYOUT_ERR_ARG);
    }
}

int main(void)
{
    RUN(test_seed_round_trips);
    RUN(test_issue_example_is_kernel_08);
    RUN(test_canonical_texts);
    RUN(test_parse_matches_api);
    RUN(test_random_round_trips);
    RUN(test_malformed_specs);
    RUN(test_null_arguments);
    RUN(test_print_buffer_too_small);
    RUN(test_print_unsupported);
    RUN(test_caret);
    RUN(test_dist_seed_round_trips);
    RUN(test_dist_issue_example);
    RUN(test_dist_random_round_trips);
    RUN(test_dist_malformed);
    RUN(test_seed_kernel_views);
    RUN(test_arch_presets_round_trip);
    RUN(test_arch_custom);
    RUN(test_arch_malformed);
    return harness_finish("test_text");
}
