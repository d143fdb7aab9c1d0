/* libFuzzer target for the TTGIR reader (ttgir.h).
 *
 * The input is TTGIR text, not NUL-terminated (the reader takes a length).
 * It must parse or fail cleanly with a line and column in the message;
 * whatever parses must describe itself consistently: every span lies in
 * the text, every op's line and column are in range, every type's rank in
 * 0..LAYOUT_TTGIR_MAX_RANK, and the queries (encoding, location) answer
 * within the text without crashing.  A module that parses is then lowered
 * and costed (triton_kernel.h) on its target's arch and on gfx942: the
 * analysis succeeds or fails with a message, every report is modelled or
 * says why, and op_cost of each report reproduces it (its lowering with
 * the LoadStoreVectorizer model, ldmatrix / stmatrix, each warp of a
 * padded layout: the CTA's sums hold warp 0's and add up to the
 * kernel's), and its instruction stream, where listed, counts what the
 * report counts (one entry per instruction, pairs mutual); the per-allocation
 * suggestion never costs more than the current layout and the JSON renders
 * (or says the buffer is short); a report comes only from a whole module
 * (its header, ttg.num-warps and ttg.target).  The seed corpus holds real
 * Triton 3.6 TTGIR and the bad inputs the reader refuses: a cut kernel, an
 * empty file, the triton_gpu dialect, a header without target or warps
 * (tests/corpus/fuzz_ttgir/). */
#include "layout.h"
#include "fuzz_input.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static layout_ttgir m;
static layout_triton_kernel k;
static layout_triton_kernel_op rep;
static layout_triton_kernel_suggestions sugg;
static char json[1 << 16];

/* Report i's instruction stream (triton_stream.h): listed, or refused with
 * a reason; a listed one has one entry per instruction after the
 * LoadStoreVectorizer, its standing entries' count per mnemonic is the
 * report's, and every pair is mutual. */
static void check_stream(int op)
{
    static layout_triton_inst in[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    const layout_triton_kernel_op *r = &k.ops[op];
    layout_error e;
    int n = -1;
    layout_status st = layout_triton_kernel_op_stream(&k, op, in, LAYOUT_TRITON_KERNEL_MAX_ACCESSES, &n, &e);
    if (st != LAYOUT_OK) {
        FUZZ_ASSERT(st == LAYOUT_ERR_UNSUPPORTED && e.message[0] != '\0');
        return;
    }
    FUZZ_ASSERT(r->modelled && n == r->n_accesses && n <= LAYOUT_TRITON_KERNEL_MAX_ACCESSES);
    for (int i = 0; i < n; i++) {
        int64_t same = 0, want = 0;
        FUZZ_ASSERT(in[i].op == op && in[i].seq == i && in[i].accesses >= 1 && in[i].bytes > 0);
        if (in[i].partner_op == op) FUZZ_ASSERT(in[i].partner >= 0 && in[i].partner < n && in[in[i].partner].partner == i);
        if (!in[i].standing) continue;
        for (int j = 0; j < n; j++) same += in[j].standing && strcmp(in[j].mnemonic, in[i].mnemonic) == 0;
        for (int c = 0; c < r->n_counts; c++)
            if (strcmp(r->counts[c].mnemonic, in[i].mnemonic) == 0) want = r->counts[c].count;
        FUZZ_ASSERT(same == want);
    }
}

/* Whether every instruction of op pairs with one of another op of its
 * block and is counted there (a pair counts at its earlier instruction):
 * such an op issues nothing of its own (the A and B tiles' stores of one
 * ds_write2st64_b64). */
static int joined_elsewhere(int op)
{
    static layout_triton_inst in[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
    int n = -1;
    if (layout_triton_kernel_op_stream(&k, op, in, LAYOUT_TRITON_KERNEL_MAX_ACCESSES, &n, NULL) != LAYOUT_OK || n <= 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (in[i].standing || in[i].partner_op == op || in[i].partner_op < 0) return 0;
    return 1;
}

static void check_kernel(const layout_arch *arch)
{
    layout_error e;
    int i;
    int64_t cta_t = 0, cta_x = 0;
    if (layout_triton_kernel_analyze(&m, arch, &k, &e) != LAYOUT_OK) {
        FUZZ_ASSERT(e.message[0] != '\0');
        return;
    }
    /* a report needs a whole module: its header with warps and target */
    FUZZ_ASSERT(m.module_line >= 1 && m.num_warps > 0 && m.target[0] != '\0');
    FUZZ_ASSERT(k.n_ops >= 0 && k.n_ops <= m.n_ops && k.n_modelled <= k.n_ops);
    for (i = 0; i < k.n_ops; i++) {
        const layout_triton_kernel_op *r = &k.ops[i];
        /* a modelled op issues instructions, except a convert_layout that only
         * renames registers or a tt.reduce / tt.scan / tt.gather within a
         * warp (shuffles) -- modelled, none issued, nothing to cost -- and a
         * warp_group_dot, whose tensor-core reads issue no LSU instruction
         * and are conflict-free (measured), costing wavefronts only -- and, on
         * AMD, an op all of whose instructions pair into another op's */
        FUZZ_ASSERT(r->modelled ? r->reason[0] == '\0' &&
                                      ((r->n_counts > 0 && r->vec_elems >= 1) ||
                                       ((r->kind == LAYOUT_TTGIR_CONVERT_LAYOUT || r->kind == LAYOUT_TTGIR_REDUCE ||
                                         r->kind == LAYOUT_TTGIR_SCAN || r->kind == LAYOUT_TTGIR_GATHER) &&
                                        r->n_counts == 0 &&
                                        r->n_accesses == 0 && r->extra_cycles == 0) ||
                                       (r->kind == LAYOUT_TTGIR_WARP_GROUP_DOT && r->n_counts == 0 &&
                                        r->n_accesses == 0 && r->extra_cycles == 0 && r->cta_extra_cycles == 0 &&
                                        r->cta_total_cycles > 0 && r->total_cycles >= 0) ||
                                       (!k.is_nvidia && r->n_counts == 0 && joined_elsewhere(i)))
                                : r->reason[0] != '\0');
        FUZZ_ASSERT(layout_triton_kernel_op_cost(&k, i, NULL, 0, &rep, &e) == LAYOUT_OK);
        FUZZ_ASSERT(memcmp(&rep, r, sizeof rep) == 0);
        /* the CTA's sums (every warp of a padded layout costed, else
         * num_warps x warp 0's) hold warp 0's and never less */
        if (r->modelled) {
            FUZZ_ASSERT(r->extra_cycles >= 0 && r->extra_cycles <= r->total_cycles);
            FUZZ_ASSERT(r->cta_extra_cycles >= r->extra_cycles && r->cta_total_cycles >= r->total_cycles);
            FUZZ_ASSERT(r->cta_extra_cycles <= r->cta_total_cycles);
            cta_t += r->cta_total_cycles;
            cta_x += r->cta_extra_cycles;
        }
        check_stream(i);
    }
    FUZZ_ASSERT(k.cta_total_cycles == cta_t && k.cta_extra_cycles == cta_x);
    /* The per-allocation suggestion (SSA names read from the text; a small
     * search: swizzled_shared within the allocation's bytes) and the JSON. */
    {
        layout_triton_kernel_suggest_options o;
        layout_status st;
        memset(&o, 0, sizeof o);
        o.same_bytes = 1;
        o.families = LAYOUT_TRITON_SEARCH_SWIZZLED;
        st = layout_triton_kernel_suggest(&k, &o, &sugg, &e);
        FUZZ_ASSERT(st == LAYOUT_OK);
        {
            for (i = 0; i < sugg.n_allocs; i++) {
                const layout_triton_kernel_alloc *a = &sugg.allocs[i];
                int j;
                FUZZ_ASSERT(a->cost <= a->current_cost && a->n_ops <= LAYOUT_TRITON_KERNEL_ALLOC_MAX_OPS);
                FUZZ_ASSERT(memchr(a->attr, '\0', sizeof a->attr) && memchr(a->note, '\0', sizeof a->note));
                for (j = 0; j < a->n_ops; j++) FUZZ_ASSERT(a->ops[j] >= 0 && a->ops[j] < k.n_ops);
            }
            st = layout_triton_kernel_json(&k, &sugg, json, sizeof json, NULL, &e);
            FUZZ_ASSERT(st == LAYOUT_OK || st == LAYOUT_ERR_BUFFER);
            FUZZ_ASSERT(memchr(json, '\0', sizeof json) != NULL && json[0] == '{');
        }
        /* --apply: the suggestions written in; what a parsed module gives
         * must parse again */
        {
            static layout_triton_kernel_apply_result res;
            static layout_ttgir m2;
            static char out[1 << 17];
            size_t need = 0;
            st = layout_triton_kernel_apply(&k, &sugg, out, sizeof out, &need, &res, &e);
            FUZZ_ASSERT(st == LAYOUT_OK || st == LAYOUT_ERR_BUFFER);
            FUZZ_ASSERT(res.n_applied + res.n_skipped <= sugg.n_allocs);
            if (st == LAYOUT_OK) {
                FUZZ_ASSERT(need < sizeof out && out[need] == '\0');
                if (res.n_applied == 0) FUZZ_ASSERT(need == m.len && memcmp(out, m.text, need) == 0);
                else FUZZ_ASSERT(layout_ttgir_parse(out, need, &m2, &e) == LAYOUT_OK);
            }
        }
    }
}

static void check_type(const layout_ttgir_type *t, size_t size)
{
    const char *attr = NULL;
    size_t len = 0;
    FUZZ_ASSERT(t->rank >= 0 && t->rank <= LAYOUT_TTGIR_MAX_RANK);
    FUZZ_ASSERT(memchr(t->elem, '\0', sizeof t->elem) != NULL);
    FUZZ_ASSERT(t->enc_at + t->enc_len <= size);
    if (layout_ttgir_encoding(&m, t, &attr, &len) == LAYOUT_OK)
        FUZZ_ASSERT(attr >= m.text && attr + len <= m.text + size && len > 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    layout_error e;
    const char *text = (const char *)data;
    int i, j;
    if (size > (1 << 18)) return 0;
    if (layout_ttgir_parse(text, size, &m, &e) != LAYOUT_OK) {
        FUZZ_ASSERT(strncmp(e.message, "layout_ttgir_parse: ", 20) == 0);
        FUZZ_ASSERT((strstr(e.message, "line ") != NULL && strstr(e.message, ", column ") != NULL) ||
                    strstr(e.message, "4 GiB") != NULL);
        return 0;
    }
    FUZZ_ASSERT(m.n_ops >= 0 && m.n_ops <= LAYOUT_TTGIR_MAX_OPS);
    FUZZ_ASSERT(m.n_aliases >= 0 && m.n_aliases <= LAYOUT_TTGIR_MAX_ALIASES);
    FUZZ_ASSERT(memchr(m.target, '\0', sizeof m.target) != NULL);
    for (i = 0; i < m.n_aliases; i++) {
        FUZZ_ASSERT(m.aliases[i].name_at + m.aliases[i].name_len <= size);
        FUZZ_ASSERT(m.aliases[i].text_at + m.aliases[i].text_len <= size && m.aliases[i].text_len > 0);
    }
    for (i = 0; i < m.n_ops; i++) {
        const layout_ttgir_op *o = &m.ops[i];
        char loc[64];
        layout_status st;
        FUZZ_ASSERT((int)o->kind >= 0 && o->kind < LAYOUT_TTGIR_OP_KIND_COUNT);
        FUZZ_ASSERT(o->line >= 1 && o->line <= m.n_lines && o->column >= 1);
        FUZZ_ASSERT(o->result_at + o->result_len <= size && o->operand_at + o->operand_len <= size);
        FUZZ_ASSERT(o->loc_at + o->loc_len <= size && o->name_at + o->name_len <= size && o->name_len > 0);
        FUZZ_ASSERT(o->n_src >= 0 && o->n_src <= LAYOUT_TTGIR_MAX_TYPES);
        FUZZ_ASSERT(o->n_dst >= 0 && o->n_dst <= LAYOUT_TTGIR_MAX_TYPES);
        for (j = 0; j < o->n_src; j++) check_type(&o->src[j], size);
        for (j = 0; j < o->n_dst; j++) check_type(&o->dst[j], size);
        st = layout_ttgir_op_loc(&m, i, loc, sizeof loc);
        FUZZ_ASSERT(st == LAYOUT_OK || st == LAYOUT_ERR_BUFFER);
        FUZZ_ASSERT(strlen(loc) < sizeof loc);
    }
    {
        layout_arch gfx942;
        check_kernel(NULL);
        if (layout_arch_preset("gfx942", &gfx942, NULL) == LAYOUT_OK) check_kernel(&gfx942);
    }
    return 0;
}
