/* ptxas's passes the model runs: its joins of shared accesses
 * (lib/triton_kernel/ptxas_join.c) and its dummy loads beside cp.async
 * (ptxas_dummy.c).  The joins
 * against what ptxas did: every probe of tests/fixtures/triton/ptxas
 * (gen_probes.py wrote the PTX, Triton 3.6.0's ptxas assembled it on the
 * GPU machine, sass.jsonl holds each kernel's LDS / STS in order).  The
 * probes are restated below in gen_probes.py's notation; the expected
 * answer is read from sass.jsonl itself: per probe, the number of LDS and
 * of STS and the bytes per lane of each (LDS 4, .64 8, .128 16, .U16 2,
 * .U8 1), compared with the model's leads and widths as multisets.  Then
 * two of Triton's kernels end to end against Nsight Compute's figures. */
#include "harness.h"
#include "layout.h"
#include "support/tool_run.h"
#include "triton_kernel/tk_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char what; /* 'l' load, 's' store, 'b' bar.sync */
    const char *base;
    int off;
    const char *type;
} probe_acc;

typedef struct {
    const char *name;
    int join16; /* the values' use keeps 16-bit loads joinable (gen_probes.py's USES) */
    probe_acc acc[12];
} probe;

#define L(b, o, t) {'l', b, o, t}
#define S(b, o, t) {'s', b, o, t}
#define BAR {'b', "", 0, ""}
#define L4(b, t, o0, o1, o2, o3) L(b, o0, t), L(b, o1, t), L(b, o2, t), L(b, o3, t)
#define S4(b, t, o0, o1, o2, o3) S(b, o0, t), S(b, o1, t), S(b, o2, t), S(b, o3, t)

/* gen_probes.py's PROBES: the plain ones zero-extend their values (join16
 * 0), the _use_st / _use_f16 / _use_f32 / _use_sext ones keep them joinable
 * (1), _use_bf16f32 widens from bf16 (0). */
static const probe PROBES[] = {
    {"b16x4_align8", 0, {L4("a3", "b16", 0, 2, 4, 6)}},
    {"b16x4_align4", 0, {L4("a2", "b16", 0, 2, 4, 6)}},
    {"b16x4_align2", 0, {L4("a1", "b16", 0, 2, 4, 6)}},
    {"b32x4_align16", 0, {L4("a4", "b32", 0, 4, 8, 12)}},
    {"b32x4_align8", 0, {L4("a3", "b32", 0, 4, 8, 12)}},
    {"b32x8_align32", 0, {L4("a5", "b32", 0, 4, 8, 12), L4("a5", "b32", 16, 20, 24, 28)}},
    {"b32x2_mul12", 0, {L("m12", 0, "b32"), L("m12", 4, "b32")}},
    {"b32x2_mul24", 0, {L("m24", 0, "b32"), L("m24", 4, "b32")}},
    {"b32x4_xor16", 0, {L4("x4", "b32", 0, 4, 8, 12)}},
    {"b32x3_align16", 0, {L("a4", 0, "b32"), L("a4", 4, "b32"), L("a4", 8, "b32")}},
    {"b32x3_align16_at4", 0, {L("a4", 4, "b32"), L("a4", 8, "b32"), L("a4", 12, "b32")}},
    {"b32_gap_align16", 0, {L("a4", 0, "b32"), L("a4", 8, "b32")}},
    {"b32_gap_align8", 0, {L("a3", 0, "b32"), L("a3", 8, "b32")}},
    {"b32x2_align16_at8", 0, {L("a4", 8, "b32"), L("a4", 12, "b32")}},
    {"b32x4_two_bases", 0, {L("a4", 0, "b32"), L("a4+4096", 0, "b32"), L("a4", 4, "b32"), L("a4+4096", 4, "b32"),
                            L("a4", 8, "b32"), L("a4+4096", 8, "b32"), L("a4", 12, "b32"), L("a4+4096", 12, "b32")}},
    {"b32x4_two_bases_xor", 0, {L("a4", 0, "b32"), L("x4", 0, "b32"), L("a4", 4, "b32"), L("x4", 4, "b32"),
                                L("a4", 8, "b32"), L("x4", 8, "b32"), L("a4", 12, "b32"), L("x4", 12, "b32")}},
    {"b32x2_store_between", 0, {L("a3", 0, "b32"), S("a3+8192", 0, "b32"), L("a3", 4, "b32")}},
    {"b32x2_store_between_xor", 0, {L("a3", 0, "b32"), S("x3", 0, "b32"), L("a3", 4, "b32")}},
    {"b32x2_bar_between", 0, {L("a3", 0, "b32"), BAR, L("a3", 4, "b32")}},
    {"b16x4_reversed", 0, {L4("a3", "b16", 6, 4, 2, 0)}},
    {"c_v4_v2_b32", 0, {L("c", 0, "v4.b32"), L("c", 16, "v2.b32"), L("c", 24, "b32")}},
    {"c_b32x2", 0, {L("c", 0, "b32"), L("c", 4, "b32")}},
    {"c_b32_gap", 0, {L("c", 0, "b32"), L("c", 8, "b32")}},
    {"c_b32x3", 0, {L("c", 0, "b32"), L("c", 4, "b32"), L("c", 8, "b32")}},
    {"c_b32x5", 0, {L4("c", "b32", 0, 4, 8, 12), L("c", 16, "b32")}},
    {"c_v2_b32_at16", 0, {L("c", 16, "v2.b32"), L("c", 24, "b32")}},
    {"st_b16x2_align4", 0, {S("a2", 0, "b16"), S("a2", 2, "b16")}},
    {"st_b16x4_align8", 0, {S4("a3", "b16", 0, 2, 4, 6)}},
    {"st_b16x4_align4", 0, {S4("a2", "b16", 0, 2, 4, 6)}},
    {"st_b32x3_align16", 0, {S("a4", 0, "b32"), S("a4", 4, "b32"), S("a4", 8, "b32")}},
    {"st_b32x4_align16", 0, {S4("a4", "b32", 0, 4, 8, 12)}},
    {"st_b32x2_two_bases", 0, {S("a3", 0, "b32"), S("a3+4096", 0, "b32"), S("a3", 4, "b32"), S("a3+4096", 4, "b32")}},
    {"st_b32x2_two_bases_xor", 0, {S("a3", 0, "b32"), S("x3", 0, "b32"), S("a3", 4, "b32"), S("x3", 4, "b32")}},
    {"st_b32x2_load_between_xor", 0, {S("a3", 0, "b32"), L("x3", 0, "b32"), S("a3", 4, "b32")}},
    {"st_b32x2_load_between", 0, {S("a3", 0, "b32"), L("a3+4096", 0, "b32"), S("a3", 4, "b32")}},
    {"st_b32x2_reversed", 0, {S("a3", 4, "b32"), S("a3", 0, "b32")}},
    {"st_b16_v4_between", 0, {S("a3", 256, "b16"), S("a3", 258, "b16"), S("a3", 260, "b16"),
                              S("a3+8192", 0, "v4.b16"), S("a3", 262, "b16")}},
    {"st_b16_v4_between_xor", 0, {S("a3", 256, "b16"), S("a3", 258, "b16"), S("a3", 260, "b16"),
                                  S("x3", 0, "v4.b16"), S("a3", 262, "b16")}},
    {"b16x2_align4", 0, {L("a2", 0, "b16"), L("a2", 2, "b16")}},
    {"b16x8_align16", 0, {L4("a4", "b16", 0, 2, 4, 6), L4("a4", "b16", 8, 10, 12, 14)}},
    {"b8x4_align4", 0, {L4("a2", "b8", 0, 1, 2, 3)}},
    {"b8x2_align2", 0, {L("a1", 0, "b8"), L("a1", 1, "b8")}},
    {"b16x4_align8_use_st", 1, {L4("a3", "b16", 0, 2, 4, 6)}},
    {"b16x4_align4_use_st", 1, {L4("a2", "b16", 0, 2, 4, 6)}},
    {"b16x4_align2_use_st", 1, {L4("a1", "b16", 0, 2, 4, 6)}},
    {"b32x4_align16_use_st", 1, {L4("a4", "b32", 0, 4, 8, 12)}},
    {"b32x3_align16_use_st", 1, {L("a4", 0, "b32"), L("a4", 4, "b32"), L("a4", 8, "b32")}},
    {"b32x4_align8_use_st", 1, {L4("a3", "b32", 0, 4, 8, 12)}},
    {"b32_gap_align16_use_st", 1, {L("a4", 0, "b32"), L("a4", 8, "b32")}},
    {"c_b32x3_use_st", 1, {L("c", 0, "b32"), L("c", 4, "b32"), L("c", 8, "b32")}},
    {"b16x2_align4_use_st", 1, {L("a2", 0, "b16"), L("a2", 2, "b16")}},
    {"b16x8_align16_use_st", 1, {L4("a4", "b16", 0, 2, 4, 6), L4("a4", "b16", 8, 10, 12, 14)}},
    {"b8x4_align4_use_st", 1, {L4("a2", "b8", 0, 1, 2, 3)}},
    {"b8x2_align2_use_st", 1, {L("a1", 0, "b8"), L("a1", 1, "b8")}},
    {"b16x4_reversed_use_st", 1, {L4("a3", "b16", 6, 4, 2, 0)}},
    {"b32x2_store_between_use_st", 1, {L("a3", 0, "b32"), S("a3+8192", 0, "b32"), L("a3", 4, "b32")}},
    {"b16x4_align8_use_f16", 1, {L4("a3", "b16", 0, 2, 4, 6)}},
    {"b16x2_align4_use_f16", 1, {L("a2", 0, "b16"), L("a2", 2, "b16")}},
    {"b16x8_align16_use_f16", 1, {L4("a4", "b16", 0, 2, 4, 6), L4("a4", "b16", 8, 10, 12, 14)}},
    {"b16x4_align8_use_f32", 1, {L4("a3", "b16", 0, 2, 4, 6)}},
    {"b16x4_align8_use_bf16f32", 0, {L4("a3", "b16", 0, 2, 4, 6)}},
    {"b16x4_align8_use_sext", 1, {L4("a3", "b16", 0, 2, 4, 6)}},
    {"b16x8_align16_use_f32", 1, {L4("a4", "b16", 0, 2, 4, 6), L4("a4", "b16", 8, 10, 12, 14)}},
    {"b16x2_align4_use_f32", 1, {L("a2", 0, "b16"), L("a2", 2, "b16")}},
    {"st_b8x4_align4", 0, {S4("a2", "b8", 0, 1, 2, 3)}},
    {"st_b8x2_align2", 0, {S("a1", 0, "b8"), S("a1", 1, "b8")}},
    {"st_b16x8_align16", 0, {S4("a4", "b16", 0, 2, 4, 6), S4("a4", "b16", 8, 10, 12, 14)}},
};

/* A probe base's register and known alignment: "aN" tid << N (N bits), "mK"
 * tid * K (K's trailing zeros), "xN" an XOR of two N-shifted terms (N),
 * "c" global_smem itself (.align 16); "+B" a constant B further. */
static void base_of(const char *b, uint64_t *key, int *align_log2)
{
    int n = atoi(b + 1);
    const char *plus = strchr(b, '+');
    *key = 0;
    for (const char *p = b; *p; p++) *key = *key * 131 + (unsigned char)*p;
    if (b[0] == 'c') *align_log2 = 4;
    else if (b[0] == 'm') *align_log2 = __builtin_ctz((unsigned)n);
    else *align_log2 = n;
    if (plus && __builtin_ctz((unsigned)atoi(plus + 1)) < *align_log2) *align_log2 = __builtin_ctz((unsigned)atoi(plus + 1));
}

static void type_of(const char *t, int *bytes, int *elem_bits)
{
    int vec = 1, bits;
    if (t[0] == 'v') vec = t[1] - '0', t += 3;
    bits = atoi(t + 1);
    *bytes = vec * bits / 8;
    *elem_bits = bits;
}

/* The recorded SASS of probe name: bytes per lane of each LDS (ld) and STS
 * (st), counts in *n_ld, *n_st.  Returns 0 when the probe is not there. */
static int recorded(const char *jsonl, const char *name, int *ld, int *n_ld, int *st, int *n_st)
{
    char key[128];
    snprintf(key, sizeof key, "\"probe\": \"%s\"", name);
    const char *line = strstr(jsonl, key);
    if (!line) return 0;
    const char *end = strchr(line, '\n');
    *n_ld = *n_st = 0;
    const char *from = line;
    while (from > jsonl && from[-1] != '\n') from--;
    for (const char *p = from; p && (!end || p < end); p++) {
        if (p[0] != '"' || !(strncmp(p + 1, "LDS", 3) == 0 || strncmp(p + 1, "STS", 3) == 0)) continue;
        int bytes = 4;
        const char *q = p + 4;
        if (strncmp(q, ".128", 4) == 0) bytes = 16;
        else if (strncmp(q, ".64", 3) == 0) bytes = 8;
        else if (strncmp(q, ".U16", 4) == 0 || strncmp(q, ".S16", 4) == 0) bytes = 2;
        else if (strncmp(q, ".U8", 3) == 0 || strncmp(q, ".S8", 3) == 0) bytes = 1;
        if (p[1] == 'L') ld[(*n_ld)++] = bytes;
        else st[(*n_st)++] = bytes;
    }
    return 1;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* The model's SASS of one probe: per side, the bytes per lane of each
 * instruction (a lead's width, a lone access's bytes). */
static void modelled(const probe *p, int *ld, int *n_ld, int *st, int *n_st)
{
    layout_tk_pj_acc a[16];
    short lead[16];
    int width[16];
    int64_t start[16];
    int n = 0;
    *n_ld = *n_st = 0;
    for (int i = 0;; i++) {
        const probe_acc *x = &p->acc[i];
        int seg_end = !x->what || x->what == 'b';
        if (seg_end) { /* a barrier (or the end) ends what ptxas may join across */
            layout_tk_ptxas_join(a, n, p->join16, lead, width, start);
            for (int j = 0; j < n; j++) {
                if (lead[j] >= 0 && lead[j] != j) continue;
                if (a[j].write) st[(*n_st)++] = width[j];
                else ld[(*n_ld)++] = width[j];
            }
            n = 0;
            if (!x->what) break;
            continue;
        }
        memset(&a[n], 0, sizeof a[n]);
        a[n].write = x->what == 's';
        a[n].off = x->off;
        base_of(x->base, &a[n].base, &a[n].base_align_log2);
        type_of(x->type, &a[n].bytes, &a[n].elem_bits);
        n++;
    }
}

static void test_every_probe_is_what_ptxas_did(void)
{
    static char jsonl[1 << 16];
    char path[512];
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(path, sizeof path, "%.*s/fixtures/triton/ptxas/sass.jsonl", slash ? (int)(slash - f) : 1, slash ? f : ".");
    CHECK(tool_slurp(path, jsonl, sizeof jsonl) > 0);
    int lines = 0;
    for (const char *c = jsonl; *c; c++) lines += *c == '\n';
    CHECK_EQ_I64(lines, (int64_t)(sizeof PROBES / sizeof PROBES[0])); /* every recorded probe is restated here */
    for (size_t i = 0; i < sizeof PROBES / sizeof PROBES[0]; i++) {
        int rl[32], rs[32], ml[32], ms[32], nrl = 0, nrs = 0, nml = 0, nms = 0;
        CHECK_MSG(recorded(jsonl, PROBES[i].name, rl, &nrl, rs, &nrs), "%s not recorded", PROBES[i].name);
        modelled(&PROBES[i], ml, &nml, ms, &nms);
        qsort(rl, (size_t)nrl, sizeof rl[0], cmp_int);
        qsort(ml, (size_t)nml, sizeof ml[0], cmp_int);
        qsort(rs, (size_t)nrs, sizeof rs[0], cmp_int);
        qsort(ms, (size_t)nms, sizeof ms[0], cmp_int);
        int same = nrl == nml && nrs == nms && memcmp(rl, ml, (size_t)nrl * sizeof rl[0]) == 0 &&
                   memcmp(rs, ms, (size_t)nrs * sizeof rs[0]) == 0;
        CHECK_MSG(same, "%s: ptxas %d loads, %d stores; model %d, %d", PROBES[i].name, nrl, nrs, nml, nms);
    }
}

/* Known answers of the rule itself (the README's table): a lead holds the
 * joined accesses, its width the aligned power of two over them. */
static void test_lead_width_start(void)
{
    layout_tk_pj_acc a[3] = {{0, 16, 32, 1, 0, 4}, {0, 8, 32, 1, 16, 4}, {0, 4, 32, 1, 24, 4}};
    short lead[3];
    int width[3];
    int64_t start[3];
    /* the cumsum's warp totals: v4 alone, v2 + b32 one LDS.128 at 16 */
    CHECK_EQ_I64(layout_tk_ptxas_join(a, 3, 0, lead, width, start), 1);
    CHECK(lead[0] == -1 && lead[1] == 1 && lead[2] == 1);
    CHECK(width[1] == 16 && start[1] == 16);
    /* stores: the last in program order leads; 8-bit never joins */
    layout_tk_pj_acc s[2] = {{1, 4, 32, 7, 4, 3}, {1, 4, 32, 7, 0, 3}};
    CHECK_EQ_I64(layout_tk_ptxas_join(s, 2, 0, lead, width, start), 1);
    CHECK(lead[0] == 1 && lead[1] == 1 && width[1] == 8 && start[1] == 0);
    layout_tk_pj_acc b[2] = {{1, 1, 8, 7, 0, 4}, {1, 1, 8, 7, 1, 4}};
    CHECK_EQ_I64(layout_tk_ptxas_join(b, 2, 1, lead, width, start), 0);
    CHECK(lead[0] == -1 && lead[1] == -1);
}

static layout_ttgir g_mod;
static layout_triton_kernel g_kern;
static layout_triton_inst g_ins[256];
static char g_text[1 << 18];

static int load_kernel(const char *name)
{
    char path[512];
    layout_error err;
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(path, sizeof path, "%.*s/fixtures/triton/ptxas/%s", slash ? (int)(slash - f) : 1, slash ? f : ".", name);
    size_t n = tool_slurp(path, g_text, sizeof g_text);
    return n > 0 && layout_ttgir_parse(g_text, n, &g_mod, &err) == LAYOUT_OK &&
           layout_triton_kernel_analyze(&g_mod, NULL, &g_kern, &err) == LAYOUT_OK;
}

/* The op's stream agrees with its report: the joined entries name a lead
 * of their own direction and base, the leads' bytes hold them, and the
 * entries joined away are the report's count. */
static void check_stream(int op)
{
    const layout_triton_kernel_op *r = &g_kern.ops[op];
    layout_error err;
    int n = 0, away[2] = {0, 0};
    CHECK(layout_triton_kernel_op_stream(&g_kern, op, g_ins, 256, &n, &err) == LAYOUT_OK && n <= 256);
    for (int i = 0; i < n; i++) {
        const layout_triton_inst *e = &g_ins[i];
        if (!(e->passes & LAYOUT_TRITON_PASS_PTXAS_JOIN)) {
            CHECK(e->ptxas_lead == -1 && e->ptxas_bytes == 0);
            continue;
        }
        CHECK(e->ptxas_lead >= 0 && e->ptxas_lead < n);
        if (e->ptxas_lead < 0 || e->ptxas_lead >= n) continue;
        const layout_triton_inst *l = &g_ins[e->ptxas_lead];
        CHECK(l->direction == e->direction && l->base_reg == e->base_reg && l->ptxas_lead == e->ptxas_lead);
        CHECK(l->ptxas_bytes >= e->bytes && l->ptxas_bytes <= 16);
        if (e->ptxas_lead != i) away[e->direction == LAYOUT_WRITE]++;
    }
    CHECK_EQ_I64(away[0], r->ptxas_joined_loads);
    CHECK_EQ_I64(away[1], r->ptxas_joined_stores);
}

/* Known answers on Triton's own kernels, from Nsight Compute on an H200
 * with one CTA: the Gluon fixture g005 (padded [32:+4] fp16, 4 warps;
 * tests/fixtures/gluon/one_cta_all.tar.xz, per warp: loads 4 instructions,
 * 16 wavefronts, 8 conflicts; stores 12, 26, 13) and the corpus's fp32 1-D
 * cumsum of 1024 on 4 warps (tests/fixtures/triton/corpus/probe.jsonl, one
 * CTA: 8 LDS.128 executions, 16 load wavefronts; the stores 8 and 8). */
static void test_kernels_as_measured(void)
{
    CHECK(load_kernel("g005_sm90_fp16_16x128_w4_blocked_padded.ttgir"));
    CHECK(g_kern.n_ops == 2);
    if (g_kern.n_ops == 2) {
        const layout_triton_kernel_op *st = &g_kern.ops[0], *ld = &g_kern.ops[1];
        CHECK(st->ptxas_joined_stores == 1 && st->ptxas_joined_loads == 0);
        CHECK(ld->ptxas_joined_loads == 9 && ld->ptxas_joined_stores == 0);
        CHECK_EQ_I64(13 - st->ptxas_joined_stores, 12);
        CHECK_EQ_I64(st->cta_total_cycles, 26 * 4);
        CHECK_EQ_I64(st->cta_extra_cycles, 13 * 4);
        CHECK_EQ_I64(13 - ld->ptxas_joined_loads, 4);
        CHECK_EQ_I64(ld->cta_total_cycles, 16 * 4);
        CHECK_EQ_I64(ld->cta_extra_cycles, 8 * 4);
        check_stream(0);
        check_stream(1);
    }
    CHECK(load_kernel("cumsum1d_fp32_1024_w4_s1_sm90.ttgir"));
    CHECK(g_kern.n_ops == 1);
    if (g_kern.n_ops == 1) {
        const layout_triton_kernel_op *r = &g_kern.ops[0];
        CHECK(r->ptxas_joined_loads == 1 && r->ptxas_joined_stores == 0);
        CHECK_EQ_I64(r->cta_total_cycles, 16 + 8); /* loads 16, stores 8 wavefronts over the CTA */
        CHECK_EQ_I64(r->cta_extra_cycles, 0);
        check_stream(0);
    }
}

/* The 16-bit loads join by how the IR uses their values (ptxas_join.c's
 * join16, from the probes _use_f32, _use_bf16f32 and the plain,
 * zero-extending ones): g005's padded local_load with its result widened
 * to 32 bits by arith.extf from f16 (joins: 9 loads away), from bf16 (no),
 * or zero-extended from i16 by arith.extui (no). */
static void test_16bit_joins_follow_the_use(void)
{
    static const char *tmpl =
        "#blocked = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>\n"
        "#shared = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [16, 128]}>\n"
        "#smem = #ttg.shared_memory\n"
        "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"cuda:90\", "
        "\"ttg.threads-per-warp\" = 32 : i32} {\n"
        "  tt.func public @k(%%p: !tt.ptr<%s>) {\n"
        "    %%a = ttg.local_alloc : () -> !ttg.memdesc<16x128x%s, #shared, #smem, mutable>\n"
        "    %%y = ttg.local_load %%a : !ttg.memdesc<16x128x%s, #shared, #smem, mutable> -> tensor<16x128x%s, #blocked>\n"
        "    %%z = %s %%y : tensor<16x128x%s, #blocked> to tensor<16x128x%s, #blocked>\n"
        "    %%0 = tt.splat %%p : !tt.ptr<%s> -> tensor<16x128x!tt.ptr<%s>, #blocked>\n"
        "    tt.store %%0, %%z : tensor<16x128x!tt.ptr<%s>, #blocked>\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    static const struct { const char *elem, *op, *wide; int joined; } cases[] = {
        {"f16", "arith.extf", "f32", 9}, {"bf16", "arith.extf", "f32", 0}, {"i16", "arith.extui", "i32", 0},
        {"i16", "arith.extsi", "i32", 9}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        layout_error err;
        const char *e = cases[i].elem, *w = cases[i].wide;
        int n = snprintf(g_text, sizeof g_text, tmpl, w, e, e, e, cases[i].op, e, w, w, w, w);
        CHECK(layout_ttgir_parse(g_text, (size_t)n, &g_mod, &err) == LAYOUT_OK);
        CHECK(layout_triton_kernel_analyze(&g_mod, NULL, &g_kern, &err) == LAYOUT_OK);
        int found = 0;
        for (int op = 0; op < g_kern.n_ops; op++)
            if (g_kern.ops[op].kind == LAYOUT_TTGIR_LOCAL_LOAD) {
                found = 1;
                CHECK_MSG(g_kern.ops[op].modelled && g_kern.ops[op].ptxas_joined_loads == cases[i].joined,
                          "%s %s: %d joined", e, cases[i].op, g_kern.ops[op].ptxas_joined_loads);
            }
        CHECK(found);
    }
}

/* ptxas's dummy loads beside cp.async (ptxas_dummy.c), per op, against the
 * SASS of three corpus kernels (tests/fixtures/triton/ptxas/
 * corpus_sync.jsonl.xz: the `@!PT LDS RZ, [RZ]` runs in SASS order): a
 * 2-stage fp16 attention, 3 before the prologue's K copy, 1 at the fence
 * after its V copy, 3 before the loop's K copy (SASS: 3, 1, 3); a 2-stage fp8
 * matmul, 3, then 4 at the fence after the loop's converted-operand store,
 * then 3 (SASS: 3, 4, 3); a 3-stage fp16 matmul, 3 before each prologue
 * stage (Membar's barrier between them: one buffer of 3 slots) and 3 in the
 * loop (SASS: 3, 3, 3). */
static void test_dummy_loads_where_ptxas_writes_them(void)
{
    static const struct { const char *file; int n; int op[4], dummies[4]; } cases[] = {
        {"attn_causal_64x64x32_w4_s2_sm90.ttgir", 3, {1, 2, 9}, {3, 1, 3}},
        {"matmul_fp8_nn_64x64x32_w4_s2_sm90.ttgir", 3, {0, 1, 3}, {3, 4, 3}},
        {"matmul_fp16_tn_128x64x64_w4_s3_sm90.ttgir", 3, {0, 2, 5}, {3, 3, 3}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        CHECK(load_kernel(cases[c].file));
        int total = 0, want = 0;
        for (int i = 0; i < g_kern.n_ops; i++) total += g_kern.ops[i].ptxas_dummy_loads;
        for (int i = 0; i < cases[c].n; i++) {
            want += cases[c].dummies[i];
            CHECK_MSG(cases[c].op[i] < g_kern.n_ops && g_kern.ops[cases[c].op[i]].ptxas_dummy_loads == cases[c].dummies[i],
                      "%s op %d", cases[c].file, cases[c].op[i]);
        }
        CHECK_EQ_I64(total, want);
        /* what the op costs alone says the same (layout_triton_kernel_op_cost) */
        layout_triton_kernel_op one;
        layout_error err;
        CHECK(layout_triton_kernel_op_cost(&g_kern, cases[c].op[0], NULL, 0, &one, &err) == LAYOUT_OK &&
              one.ptxas_dummy_loads == cases[c].dummies[0]);
    }
    /* a kernel without cp.async has none */
    CHECK(load_kernel("g005_sm90_fp16_16x128_w4_blocked_padded.ttgir"));
    for (int i = 0; i < g_kern.n_ops; i++) CHECK(g_kern.ops[i].ptxas_dummy_loads == 0);
}

int main(void)
{
    RUN(test_dummy_loads_where_ptxas_writes_them);
    RUN(test_16bit_joins_follow_the_use);
    RUN(test_every_probe_is_what_ptxas_did);
    RUN(test_lead_width_start);
    RUN(test_kernels_as_measured);
    return harness_finish("test_ptxas_passes");
}
