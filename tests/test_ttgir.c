/* The TTGIR reader (ttgir.h) on the corpus of real Triton 3.6 compilations
 * (tests/fixtures/triton/kernels/) and on malformed text.
 *
 * - every file parses; its target, warps and warp size are the ones its
 *   file name and metadata give;
 * - the ops found per kind equal an independent count of the op names in
 *   the text (a line holding "= ttg.local_alloc " or starting with
 *   "ttg.local_store ", ...);
 * - their types agree with what the op means (an alloc's memdesc has its
 *   source's shape and element; a load's tensor its memdesc's; a
 *   memdesc_index drops the leading buffer dim; an async copy moves
 *   pointers to that element), every encoding resolves, shared layouts on
 *   memdescs and distributed ones on tensors;
 * - every op's location resolves to a line of the kernels' own code in
 *   gen_kernels.py (callsites resolved to the caller);
 * - malformed text is refused with its line and column;
 * - the lookup of an alias by name (lib/ttgir/alias.h): defined, undefined,
 *   nested, defined twice. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"
#include "support/tool_run.h"
#include "ttgir/alias.h"

#include <dirent.h>

#define FILE_CAP (1 << 20)

static char corpus_dir[512];
static char text[FILE_CAP];
static char source[1 << 16];
static layout_ttgir m;
static layout_error err;

/* Lines of the text that hold op `name` as an op: "= name " or at the start. */
static int count_op_lines(const char *t, const char *name)
{
    char with_eq[96], generic[96];
    int n = 0;
    const char *line = t;
    snprintf(with_eq, sizeof with_eq, "= %s ", name);
    snprintf(generic, sizeof generic, "= \"%s\"(", name);
    while (*line) {
        const char *end = strchr(line, '\n'), *p = line;
        size_t len = end ? (size_t)(end - line) : strlen(line), k = strlen(name);
        char buf[4096];
        if (len >= sizeof buf) len = sizeof buf - 1;
        memcpy(buf, line, len);
        buf[len] = '\0';
        while (*p == ' ') p++;
        if (strstr(buf, with_eq) || strstr(buf, generic) || (strncmp(p, name, k) == 0 && p[k] == ' ')) n++;
        if (!end) break;
        line = end + 1;
    }
    return n;
}

static int same_shape(const layout_ttgir_type *a, int a_from, const layout_ttgir_type *b)
{
    int d;
    if (a->rank - a_from != b->rank) return 0;
    for (d = 0; d < b->rank; d++)
        if (a->shape[a_from + d] != b->shape[d]) return 0;
    return 1;
}

static int enc_has(const layout_ttgir_type *t, const char *what)
{
    const char *attr;
    size_t len;
    char buf[1024];
    if (layout_ttgir_encoding(&m, t, &attr, &len) != LAYOUT_OK) return 0;
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, attr, len);
    buf[len] = '\0';
    return strstr(buf, what) != NULL;
}

/* Whether line `l` (1-based) of gen_kernels.py is kernel code: an indented
 * line after the first @triton.jit and before the case table. */
static int source_line_in_kernel(int l)
{
    const char *p = source;
    int k, jit = 0, table = 0, indented = 0;
    for (k = 1; p && *p; k++) {
        if (!jit && strncmp(p, "@triton.jit", 11) == 0) jit = k;
        if (!table && strncmp(p, "TARGETS = ", 10) == 0) table = k;
        if (k == l) indented = strncmp(p, "    ", 4) == 0;
        p = strchr(p, '\n');
        if (p) p++;
    }
    return jit > 0 && table > jit && l > jit && l < table && indented;
}

static void check_file(const char *name)
{
    static const char *const op_names[] = {"ttg.local_alloc", "ttg.local_store", "ttg.local_load", "ttg.local_dealloc",
                                           "ttg.async_copy_global_to_local", "ttg.memdesc_index",
                                           "ttg.convert_layout", "ttng.warp_group_dot", "tt.reduce"};
    static const layout_ttgir_op_kind kinds[] = {LAYOUT_TTGIR_LOCAL_ALLOC, LAYOUT_TTGIR_LOCAL_STORE,
                                                 LAYOUT_TTGIR_LOCAL_LOAD, LAYOUT_TTGIR_LOCAL_DEALLOC,
                                                 LAYOUT_TTGIR_ASYNC_COPY, LAYOUT_TTGIR_MEMDESC_VIEW,
                                                 LAYOUT_TTGIR_CONVERT_LAYOUT, LAYOUT_TTGIR_WARP_GROUP_DOT,
                                                 LAYOUT_TTGIR_REDUCE};
    char path[768], meta[4096], want[64];
    long n;
    size_t k;
    int i, amd = strstr(name, "_gfx9") != NULL;
    snprintf(path, sizeof path, "%s/%s", corpus_dir, name);
    if ((n = (long)tool_slurp(path, text, FILE_CAP)) <= 0) {
        CHECK_MSG(0, "cannot read %s", path);
        return;
    }
    CHECK_MSG(layout_ttgir_parse(text, (size_t)n, &m, &err) == LAYOUT_OK, "%s: %s", name, err.message);
    /* the module header */
    snprintf(want, sizeof want, "%s", strstr(name, "_gfx942") ? "hip:gfx942" : strstr(name, "_gfx950") ? "hip:gfx950" : "cuda:90");
    CHECK_MSG(strcmp(m.target, want) == 0, "%s: target '%s'", name, m.target);
    CHECK_EQ_I64(m.threads_per_warp, amd ? 64 : 32);
    CHECK_EQ_I64(m.num_ctas, 1);
    snprintf(path + strlen(path) - 6, 8, ".json");
    if (tool_slurp(path, meta, sizeof meta) > 0) {
        snprintf(want, sizeof want, "\"num_warps\": %d", m.num_warps);
        CHECK_MSG(strstr(meta, want) != NULL, "%s: %d warps, metadata: %s", name, m.num_warps, meta);
    }
    /* ops per kind == the independent count */
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int got = 0;
        for (i = 0; i < m.n_ops; i++) got += m.ops[i].kind == kinds[k];
        CHECK_MSG(got == count_op_lines(text, op_names[k]), "%s: %s: %d ops, the text has %d", name, op_names[k], got,
                  count_op_lines(text, op_names[k]));
    }
    for (i = 0; i < m.n_ops; i++) {
        const layout_ttgir_op *o = &m.ops[i];
        char loc[256];
        int j, line = 0;
        const char *c;
        CHECK(o->line >= 1 && o->line <= m.n_lines && o->column >= 1);
        for (j = 0; j < o->n_src; j++) CHECK_MSG(enc_has(&o->src[j], o->src[j].is_memdesc ? "_shared<" : "#ttg."), "%s:%d", name, o->line);
        for (j = 0; j < o->n_dst; j++) CHECK_MSG(enc_has(&o->dst[j], o->dst[j].is_memdesc ? "_shared<" : "#ttg."), "%s:%d", name, o->line);
        switch (o->kind) {
        case LAYOUT_TTGIR_LOCAL_ALLOC:
            CHECK(o->n_dst == 1 && o->dst[0].is_memdesc);
            if (o->n_src == 1) { /* with a source: a store into the new buffer */
                CHECK_MSG(!o->src[0].is_memdesc && same_shape(&o->dst[0], 0, &o->src[0]), "%s:%d", name, o->line);
                CHECK(strcmp(o->src[0].elem, o->dst[0].elem) == 0);
            }
            break;
        case LAYOUT_TTGIR_LOCAL_LOAD:
            CHECK_MSG(o->n_src == 1 && o->n_dst == 1 && o->src[0].is_memdesc && !o->dst[0].is_memdesc &&
                          same_shape(&o->src[0], 0, &o->dst[0]) && o->dst[0].elem_bits == o->src[0].elem_bits,
                      "%s:%d", name, o->line);
            break;
        case LAYOUT_TTGIR_LOCAL_STORE:
            CHECK_MSG(o->n_src == 1 && o->n_dst == 1 && !o->src[0].is_memdesc && o->dst[0].is_memdesc &&
                          same_shape(&o->dst[0], 0, &o->src[0]) && o->dst[0].mutable_,
                      "%s:%d", name, o->line);
            break;
        case LAYOUT_TTGIR_MEMDESC_VIEW:
            CHECK_MSG(o->n_src == 1 && o->n_dst == 1 && same_shape(&o->src[0], 1, &o->dst[0]), "%s:%d", name, o->line);
            break;
        case LAYOUT_TTGIR_ASYNC_COPY:
            CHECK_MSG(o->n_src == 1 && o->n_dst == 1 && !o->src[0].is_memdesc && o->dst[0].is_memdesc &&
                          same_shape(&o->dst[0], 0, &o->src[0]) && strncmp(o->src[0].elem, "!tt.ptr<", 8) == 0 &&
                          strncmp(o->src[0].elem + 8, o->dst[0].elem, strlen(o->dst[0].elem)) == 0 &&
                          o->src[0].elem_bits == 64,
                      "%s:%d", name, o->line);
            break;
        case LAYOUT_TTGIR_CONVERT_LAYOUT:
            CHECK(o->n_src == 1 && o->n_dst == 1 && same_shape(&o->src[0], 0, &o->dst[0]));
            break;
        case LAYOUT_TTGIR_WARP_GROUP_DOT:
            CHECK(o->n_src >= 2 && o->src[1].is_memdesc && o->n_dst == 1);
            break;
        case LAYOUT_TTGIR_REDUCE:
            CHECK(o->n_src >= 1 && o->n_dst >= 1 && o->dst[0].rank == o->src[0].rank - 1);
            break;
        default: break;
        }
        /* the location: a line of the kernel source that calls Triton */
        CHECK(layout_ttgir_op_loc(&m, i, loc, sizeof loc) == LAYOUT_OK);
        c = strstr(loc, "gen_kernels.py\":");
        CHECK_MSG(c != NULL, "%s:%d: loc '%s'", name, o->line, loc);
        if (c) line = atoi(c + 16);
        CHECK_MSG(line > 0 && source_line_in_kernel(line), "%s:%d: loc '%s'", name, o->line, loc);
    }
}

static void test_corpus(void)
{
    DIR *d = opendir(corpus_dir);
    struct dirent *e;
    int files = 0;
    char path[768];
    snprintf(path, sizeof path, "%s/gen_kernels.py", corpus_dir);
    CHECK(tool_slurp(path, source, sizeof source) > 0);
    if (!d) {
        CHECK_MSG(0, "no %s", corpus_dir);
        return;
    }
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 6 && strcmp(e->d_name + n - 6, ".ttgir") == 0) {
            char name[256];
            snprintf(name, sizeof name, "%s", e->d_name);
            check_file(name);
            files++;
        }
    }
    closedir(d);
    CHECK_EQ_I64(files, 66);
}

static void expect_error(const char *t, layout_status want, const char *msg)
{
    layout_status st = layout_ttgir_parse(t, strlen(t), &m, &err);
    CHECK_MSG(st == want, "'%s': got %s (%s)", t, layout_status_name(st), err.message);
    CHECK_STR_CONTAINS(err.message, msg);
}

static void test_errors(void)
{
    static char big[64 * 80];
    const char *attr;
    size_t len, p = 0;
    char loc[8];
    int i;
    CHECK(layout_ttgir_parse(NULL, 0, &m, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_ttgir_parse("", 0, NULL, &err) == LAYOUT_ERR_NULL);
    /* empty: an error, not a module with no ops (a file that failed to be written, a cut pipe) */
    expect_error("", LAYOUT_ERR_PARSE, "line 1, column 1: the text is empty: no TTGIR module");
    expect_error(" \n\t\n", LAYOUT_ERR_PARSE, "line 1, column 1: the text is empty");
    expect_error("#a = #ttg.blocked<{}>\n\n  %0 = ttg.local_alloc %x : (tensor<64x32xf16, #a) -> !ttg.memdesc<64x32xf16, #s, #smem>\n",
                 LAYOUT_ERR_PARSE, "line 3, column ");
    expect_error("  %0 = ttg.local_load %x : !ttg.memdesc<64x32xf16, #s, #smem -> tensor<64x32xf16, #a>\n",
                 LAYOUT_ERR_PARSE, "the text ends inside '<' opened at line 1, column 40 (is the text cut short?)");
    expect_error("#a = #ttg.blocked<{}>\n#a = #ttg.blocked<{}>\n", LAYOUT_ERR_PARSE,
                 "line 2, column 1: this alias is defined twice");
    expect_error("#a =\n", LAYOUT_ERR_PARSE, "line 1, column 5: expected the alias's attribute");
    /* 20 dims read (tt.sort's lowering reshapes 2^20 elements to 20 dims of 2), 21 refused */
    expect_error("  %0 = ttg.local_load %x : !ttg.memdesc<1x2x3x4x5x6x7x1x2x3x4x5x6x7x1x2x3x4x5x6x7xf16, #s, #smem> -> "
                 "tensor<1xf16, #a>\n",
                 LAYOUT_ERR_CAPACITY, "more than 20 dims");
    expect_error("  %0 = ttg.local_load %x : !ttg.memdesc<99999999999999999999x2xf16, #s> -> tensor<1xf16, #a>\n",
                 LAYOUT_ERR_PARSE, "too large");
    expect_error("  %0 = ttg.local_load %x : !ttg.memdesc<64x, #s> -> tensor<1xf16, #a>\n", LAYOUT_ERR_PARSE,
                 "expected an element type");
    expect_error("  %0 = \"tt.reduce\"(%x) ({\n  ^bb0:\n", LAYOUT_ERR_PARSE,
                 "line 3, column 1: the text ends inside '{' opened at line 1, column 25 (is the text cut short?)");
    {
        static const char with_nul[] = "#a = #ttg.blocked<{}>\n#b\0 = x\n";
        CHECK(layout_ttgir_parse(with_nul, sizeof with_nul - 1, &m, &err) == LAYOUT_ERR_PARSE);
        CHECK_STR_CONTAINS(err.message, "line 2, column 3: a NUL byte");
    }
    /* fuzz_ttgir (random seed): a NUL inside a tt.scan region, a line the op's
     * parse reads past; the module parsed and --apply wrote it back cut at the
     * NUL (tests/corpus/fuzz_ttgir/regress-nul-in-region) */
    {
        static const char in_region[] = "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
                                        "  %0 = \"tt.scan\"(%x) <{axis = 1 : i32, reverse = false}> ({\n"
                                        "  ^bb0(%a: f32 loc(unk\0own), %b: f32):\n"
                                        "  }) : (tensor<64xf32, #b>) -> tensor<64xf32, #b>\n}\n";
        CHECK(layout_ttgir_parse(in_region, sizeof in_region - 1, &m, &err) == LAYOUT_ERR_PARSE);
        CHECK_STR_CONTAINS(err.message, "line 3, column 23: a NUL byte");
    }
    /* fuzz_ttgir (random seed): a module header cut after '=' at the very end of
     * the text was read one byte past it (tests/corpus/fuzz_ttgir/regress-module-header-at-end) */
    {
        static const char cut[] = "module attributes {\"ttg.num-warps\" =";
        CHECK(layout_ttgir_parse(cut, sizeof cut - 1, &m, &err) == LAYOUT_ERR_PARSE);
        CHECK_STR_CONTAINS(err.message, "line 1, column 37: the text ends inside '{' opened at line 1, column 19");
    }
    /* fuzz_ttgir (random seed): locations that are callsites of callsites
     * were resolved by trying both branches at every level, exponential in
     * the chain (a 12 KB input took minutes); now a fixed budget of steps
     * (tests/corpus/fuzz_ttgir/regress-loc-callsite-chain) */
    {
        static char chain[8192];
        size_t n = (size_t)snprintf(chain, sizeof chain,
                                    "  %%0 = ttg.local_load %%x : !ttg.memdesc<4xf16, #s> -> tensor<4xf16, #t> loc(#l0)\n");
        int k;
        for (k = 0; k < 60; k++)
            n += (size_t)snprintf(chain + n, sizeof chain - n, "#l%d = loc(callsite(#l%d at #l%d))\n", k, k + 1, k + 1);
        n += (size_t)snprintf(chain + n, sizeof chain - n, "#l60 = loc(unknown)\n");
        CHECK(layout_ttgir_parse(chain, n, &m, &err) == LAYOUT_OK && m.n_ops == 1 && m.n_locs == 61);
        CHECK(layout_ttgir_op_loc(&m, 0, loc, sizeof loc) == LAYOUT_OK && loc[0] == '\0');
    }
    for (i = 0; i <= LAYOUT_TTGIR_MAX_ALIASES; i++) p += (size_t)snprintf(big + p, sizeof big - p, "#a%d = #ttg.blocked<{}>\n", i);
    expect_error(big, LAYOUT_ERR_CAPACITY, "line 65, column 1: more than 64 layout aliases");
    /* queries */
    {
        static const char t[] = "#s = #t\n#t = #ttg.swizzled_shared<{vec = 1}>\n"
                                "  %0 = ttg.local_load %x : !ttg.memdesc<4xf16, #s, #smem> -> tensor<4xf16, #nope> loc(#l)\n"
                                "#l = loc(\"k.py\":12:3)\n";
        CHECK(layout_ttgir_parse(t, sizeof t - 1, &m, &err) == LAYOUT_OK);
        CHECK_EQ_I64(m.n_ops, 1);
        CHECK(layout_ttgir_encoding(&m, &m.ops[0].src[0], &attr, &len) == LAYOUT_OK);
        CHECK(len == strlen("#ttg.swizzled_shared<{vec = 1}>") && strncmp(attr, "#ttg.swizzled_shared", 20) == 0);
        CHECK(layout_ttgir_encoding(&m, &m.ops[0].dst[0], &attr, &len) == LAYOUT_ERR_NOT_FOUND);
        CHECK(layout_ttgir_op_loc(&m, 0, loc, sizeof loc) == LAYOUT_ERR_BUFFER);
        CHECK(strcmp(loc, "\"k.py\":") == 0);
        CHECK(layout_ttgir_op_loc(&m, 1, loc, sizeof loc) == LAYOUT_ERR_ARG);
        CHECK(strcmp(layout_ttgir_op_name(LAYOUT_TTGIR_LOCAL_LOAD), "ttg.local_load") == 0);
        CHECK(strcmp(layout_ttgir_op_name(LAYOUT_TTGIR_OP_KIND_COUNT), "?") == 0);
    }
}

/* The text of alias i, NUL-terminated (for comparing). */
static const char *alias_text(int i)
{
    static char buf[256];
    size_t n = m.aliases[i].text_len < sizeof buf - 1 ? m.aliases[i].text_len : sizeof buf - 1;
    memcpy(buf, m.text + m.aliases[i].text_at, n);
    buf[n] = '\0';
    return buf;
}


/* MLIR's printed forms the corpus seldom shows: a fused location (the
 * first resolvable member names the line; MLIR prints
 * `loc(fused[...])`, with an optional `<metadata>`), strings with escaped
 * quotes around the tokens the reader looks for, and a region whose body
 * holds a string with a brace. */
static void test_printed_forms(void)
{
    char loc[64];
    static const char fused[] =
        "  %0 = ttg.local_load %x : !ttg.memdesc<4xf16, #s> -> tensor<4xf16, #t> loc(#f)\n"
        "  %1 = ttg.local_load %x : !ttg.memdesc<4xf16, #s> -> tensor<4xf16, #t> loc(#g)\n"
        "  %2 = ttg.local_load %x : !ttg.memdesc<4xf16, #s> -> tensor<4xf16, #t> loc(#h)\n"
        "#a = loc(\"k.py\":7:1)\n"
        "#f = loc(fused[#a, \"k.py\":9:2])\n"
        "#g = loc(fused<\"meta\">[#a])\n"
        "#h = loc(fusedonly)\n";
    CHECK(layout_ttgir_parse(fused, sizeof fused - 1, &m, &err) == LAYOUT_OK);
    CHECK_EQ_I64(m.n_ops, 3);
    CHECK(layout_ttgir_op_loc(&m, 0, loc, sizeof loc) == LAYOUT_OK && strcmp(loc, "\"k.py\":7:1") == 0);
    CHECK(layout_ttgir_op_loc(&m, 1, loc, sizeof loc) == LAYOUT_OK && strcmp(loc, "\"k.py\":7:1") == 0);
    CHECK(layout_ttgir_op_loc(&m, 2, loc, sizeof loc) == LAYOUT_OK && loc[0] == '\0');
    /* an attribute string holding an escaped quote, " : " and "->" */
    static const char strings[] =
        "  %0 = ttg.local_load %x {note = \"a\\\" : b -> c\"} : !ttg.memdesc<4x8xf16, #s> -> tensor<4x8xf16, #t>\n";
    CHECK(layout_ttgir_parse(strings, sizeof strings - 1, &m, &err) == LAYOUT_OK);
    CHECK_EQ_I64(m.n_ops, 1);
    if (m.n_ops == 1) {
        CHECK_EQ_I64(m.ops[0].src[0].rank, 2);
        CHECK_EQ_I64(m.ops[0].dst[0].rank, 2);
        CHECK(m.ops[0].src[0].is_memdesc && !m.ops[0].dst[0].is_memdesc);
    }
}

/* layout_ttgir_alias_find (lib/ttgir/alias.h), the one lookup of an alias
 * by name: known answers on hand-written modules, the names spelt out in
 * the test (no pointer into the module's text). */
static void test_alias_find(void)
{
    static const char t[] = "#blocked = #ttg.blocked<{sizePerThread = [1, 8]}>\n"
                            "#blocked1 = #ttg.blocked<{sizePerThread = [8, 1]}>\n"
                            "#mma = #ttg.amd_mfma<{version = 3}>\n"
                            "#dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>\n"
                            "#a = #b\n"
                            "#b = #ttg.swizzled_shared<{vec = 1}>\n"
                            "  %0 = ttg.local_load %x : !ttg.memdesc<4xf16, #a, #smem> -> tensor<4xf16, #dot>\n";
    static char dup[] = "#s = #ttg.blocked<{}>\n#t = #ttg.blocked<{}>\n";
    const char *attr;
    size_t len;
    CHECK(layout_ttgir_parse(t, sizeof t - 1, &m, &err) == LAYOUT_OK);
    CHECK_EQ_I64(m.n_aliases, 6);
    /* defined: the index in text order and its attribute */
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#blocked", 8), 0);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#blocked1", 9), 1);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#mma", 4), 2);
    CHECK(strcmp(alias_text(2), "#ttg.amd_mfma<{version = 3}>") == 0);
    /* the name is len bytes, not a C string: "#mma" out of "#mmaX" */
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#mmaX", 4), 2);
    /* undefined: a prefix, an extension, another spelling, no '#', empty */
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#block", 6), -1);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#blocked2", 9), -1);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#Blocked", 8), -1);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "blocked", 7), -1);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "", 0), -1);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#ttg.blocked", 12), -1);
    CHECK_EQ_I64(layout_ttgir_alias_find(NULL, "#mma", 4), -1);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, NULL, 4), -1);
    /* nested: one level per lookup (#a's text is "#b"); the type's encoding
     * follows the chain to #b's attribute; an alias named inside another's
     * attribute (#dot's parent = #mma) is found by its own name */
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#a", 2), 4);
    CHECK(strcmp(alias_text(4), "#b") == 0);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#b", 2), 5);
    CHECK(layout_ttgir_encoding(&m, &m.ops[0].src[0], &attr, &len) == LAYOUT_OK);
    CHECK(len == strlen("#ttg.swizzled_shared<{vec = 1}>") && memcmp(attr, "#ttg.swizzled_shared<{vec = 1}>", len) == 0);
    CHECK(layout_ttgir_encoding(&m, &m.ops[0].dst[0], &attr, &len) == LAYOUT_OK);
    CHECK(len == strlen("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>"));
    /* defined twice: the reader refuses the text at the second definition
     * (test_errors); a module filled by hand with a duplicate gives the first */
    CHECK(layout_ttgir_parse(dup, sizeof dup - 1, &m, &err) == LAYOUT_OK && m.n_aliases == 2);
    m.aliases[1].name_at = m.aliases[0].name_at; /* both named "#s" now */
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#s", 2), 0);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#t", 2), -1);
    /* no aliases at all */
    CHECK(layout_ttgir_parse("module {\n}\n", 10, &m, &err) == LAYOUT_OK);
    CHECK_EQ_I64(layout_ttgir_alias_find(&m, "#s", 2), -1);
}

int main(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(corpus_dir, sizeof corpus_dir, "%.*s/fixtures/triton/kernels", slash ? (int)(slash - f) : 1,
             slash ? f : ".");
    RUN(test_corpus);
    RUN(test_errors);
    RUN(test_alias_find);
    RUN(test_printed_forms);
    return harness_finish("test_ttgir");
}
