/* How fast is a whole Triton kernel read?  A 5,000-line TTGIR module made
 * from the real attention kernel of the corpus (tests/fixtures/triton/
 * kernels/attn_fp16_64x64x64_w4_s2_gfx950.ttgir: its aliases and module
 * header once, its function body repeated until the module has at least
 * 5,000 lines, its location table once), then: layout_ttgir_parse() alone,
 * and parse + "report" (every op's layouts resolved and its source
 * location followed), against a pass that only finds the line ends of the
 * same text (memchr: the least any reader must do).  Interleaved, best of
 * 5 rounds, thread CPU time.  Target (Triton issue): reading and reporting
 * a 5,000-line TTGIR under 50 ms on one core. */
#include "bench_util.h"
#include "layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP (4 << 20)

static char src[1 << 20], text[CAP], json[1 << 24];
static size_t text_len, src_len;
static layout_ttgir m, m1;
static layout_triton_kernel k, k1;
static layout_triton_kernel_suggestions sugg;
static layout_error err;

static void run_lines(void *ctx)
{
    const char *p = text, *end = text + text_len;
    long n = 0;
    (void)ctx;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) p++, n++;
    bench_clobber(&n);
}

static void run_parse(void *ctx)
{
    (void)ctx;
    if (layout_ttgir_parse(text, text_len, &m, NULL) != LAYOUT_OK) abort();
    bench_clobber(&m);
}

static void run_report(void *ctx)
{
    long sum = 0;
    int i, j;
    (void)ctx;
    if (layout_ttgir_parse(text, text_len, &m, &err) != LAYOUT_OK) {
        fprintf(stderr, "bench_ttgir: %s\n", err.message);
        abort();
    }
    for (i = 0; i < m.n_ops; i++) {
        char loc[256];
        const char *attr;
        size_t len;
        layout_ttgir_op_loc(&m, i, loc, sizeof loc);
        sum += (long)strlen(loc);
        for (j = 0; j < m.ops[i].n_src; j++)
            if (layout_ttgir_encoding(&m, &m.ops[i].src[j], &attr, &len) == LAYOUT_OK) sum += (long)len;
        for (j = 0; j < m.ops[i].n_dst; j++)
            if (layout_ttgir_encoding(&m, &m.ops[i].dst[j], &attr, &len) == LAYOUT_OK) sum += (long)len;
    }
    bench_clobber(&sum);
}

/* parse + analyze: every op lowered and costed on its target (gfx950) */
static void run_analyze(void *ctx)
{
    (void)ctx;
    if (layout_ttgir_parse(text, text_len, &m, &err) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&m, NULL, &k, &err) != LAYOUT_OK) {
        fprintf(stderr, "bench_ttgir: %s\n", err.message);
        abort();
    }
    bench_clobber(&k);
}

/* parse + analyze + the JSON report (no suggestions: the repeated body
 * repeats its SSA names, so its allocations are not distinct) */
static void run_json(void *ctx)
{
    run_analyze(ctx);
    if (layout_triton_kernel_json(&k, NULL, json, sizeof json, NULL, &err) != LAYOUT_OK) {
        fprintf(stderr, "bench_ttgir: %s\n", err.message);
        abort();
    }
    bench_clobber(json);
}

/* the original kernel (one body): parse + analyze + suggest every allocation */
static void run_suggest(void *ctx)
{
    (void)ctx;
    if (layout_ttgir_parse(src, src_len, &m1, &err) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&m1, NULL, &k1, &err) != LAYOUT_OK ||
        layout_triton_kernel_suggest(&k1, NULL, &sugg, &err) != LAYOUT_OK) {
        fprintf(stderr, "bench_ttgir: %s\n", err.message);
        abort();
    }
    bench_clobber(&sugg);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "tests/fixtures/triton/kernels/attn_fp16_64x64x64_w4_s2_gfx950.ttgir";
    FILE *f = fopen(path, "rb");
    size_t n, body_start, body_end, locs;
    char *p;
    int lines = 0, copies = 0;
    double best[6];
    bench_fn fns[6] = {run_lines, run_parse, run_report, run_analyze, run_json, run_suggest};
    void *ctx[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    bench_init();
    if (!f) {
        printf("bench_ttgir: %s not found (run from the source tree)\n", path);
        return 0;
    }
    n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[n] = '\0';
    src_len = n;
    /* header: up to the line after "module attributes"; body: to the first "#loc" definition */
    p = strstr(src, "module attributes");
    if (!p || !(p = strchr(p, '\n'))) return 1;
    body_start = (size_t)(p + 1 - src);
    p = strstr(src + body_start, "\n#loc");
    if (!p) return 1;
    body_end = (size_t)(p + 1 - src);
    locs = body_end;
    memcpy(text, src, body_start);
    text_len = body_start;
    while (lines < 5000 && text_len + (body_end - body_start) + (n - locs) < CAP) {
        memcpy(text + text_len, src + body_start, body_end - body_start);
        text_len += body_end - body_start;
        copies++;
        lines = 0;
        for (size_t k = 0; k < text_len; k++) lines += text[k] == '\n';
    }
    memcpy(text + text_len, src + locs, n - locs);
    text_len += n - locs;
    lines = 0;
    for (size_t k = 0; k < text_len; k++) lines += text[k] == '\n';
    run_report(NULL);
    printf("bench_ttgir: %s\n", bench_machine);
    printf("  module: %d lines, %zu bytes (%d copies of the attention kernel's body), %d shared-memory ops, %d aliases, %d locations\n",
           lines, text_len, copies, m.n_ops, m.n_aliases, m.n_locs);
    run_json(NULL);
    run_suggest(NULL);
    printf("  analyzed: %d op reports, %d modelled, JSON %zu bytes; the single kernel: %d allocations\n", k.n_ops,
           k.n_modelled, strlen(json), sugg.n_allocs);
    bench_interleaved(6, fns, ctx, 5, 0.2, best);
    printf("  line ends only (memchr)   %8.3f ms\n", best[0] * 1e3);
    printf("  layout_ttgir_parse        %8.3f ms  (%.1fx the line scan)\n", best[1] * 1e3, best[1] / best[0]);
    printf("  parse + report every op   %8.3f ms  (target < 50 ms: %s)\n", best[2] * 1e3, best[2] < 0.05 ? "met" : "NOT met");
    printf("  parse + analyze (lower, cost every op) %8.3f ms  (target < 50 ms: %s)\n", best[3] * 1e3,
           best[3] < 0.05 ? "met" : "NOT met");
    printf("  parse + analyze + JSON report          %8.3f ms  (target < 50 ms: %s; %.0fx the line scan)\n",
           best[4] * 1e3, best[4] < 0.05 ? "met" : "NOT met", best[4] / best[0]);
    printf("  one kernel: parse + analyze + suggest  %8.3f ms  (%d lines)\n", best[5] * 1e3, m1.n_lines);
    bench_emit("ttgir_lines", "lines", lines);
    bench_emit("ttgir_parse_analyze_5000_lines", "ms", best[3] * 1e3);
    bench_emit("ttgir_parse_analyze_json_5000_lines", "ms", best[4] * 1e3);
    bench_emit("ttgir_analyze_json_over_line_scan", "ratio", best[4] / best[0]);
    bench_emit("ttgir_suggest_attn_kernel", "ms", best[5] * 1e3);
    bench_emit("ttgir_parse_5000_lines", "ms", best[1] * 1e3);
    bench_emit("ttgir_parse_report_5000_lines", "ms", best[2] * 1e3);
    bench_emit("ttgir_parse_over_line_scan", "ratio", best[1] / best[0]);
    return 0;
}
