/* How fast is a whole Triton kernel read?  A 5,000-line TTGIR module made
 * from the real attention kernel of the corpus (tests/fixtures/triton/
 * kernels/attn_fp16_64x64x64_w4_s2_gfx950.ttgir: its aliases and module
 * header once, its function body repeated until the module has at least
 * 5,000 lines, its location table once), then: layout_ttgir_parse() alone,
 * and parse + "report" (every op's layouts resolved and its source
 * location followed), against a pass that only finds the line ends of the
 * same text (memchr: the least any reader must do).  Interleaved, best of
 * 5 rounds, thread CPU time.  Target (Triton issue): reading and reporting
 * a 5,000-line TTGIR under 50 ms on one core.
 *
 * Then `layout triton --suggest`'s library work on the attention kernel of
 * each target (gfx950, gfx942, sm_90: parse + analyze + suggest every
 * allocation), the default scorer against the exhaustive one
 * (layout_triton_kernel_suggest_options.exhaustive: every op lowered again
 * from the text for every candidate), interleaved in the same run.  Target:
 * at most 30 ms on one core. */
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

/* The attention kernel of each target, the --suggest benchmark's input. */
#define N_ATTN 3
static const char *const attn_target[N_ATTN] = {"gfx950", "gfx942", "sm90"};
typedef struct attn_case {
    char text[1 << 18];
    size_t len;
    int exhaustive;
    layout_ttgir m;
    layout_triton_kernel k;
    layout_triton_kernel_suggestions s;
} attn_case;
static attn_case attn[N_ATTN][2];
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

/* one target's attention kernel: parse + analyze + suggest, one scorer */
static void run_attn(void *ctx)
{
    attn_case *c = (attn_case *)ctx;
    layout_triton_kernel_suggest_options o;
    memset(&o, 0, sizeof o);
    o.exhaustive = c->exhaustive;
    if (layout_ttgir_parse(c->text, c->len, &c->m, &err) != LAYOUT_OK ||
        layout_triton_kernel_analyze(&c->m, NULL, &c->k, &err) != LAYOUT_OK ||
        layout_triton_kernel_suggest(&c->k, &o, &c->s, &err) != LAYOUT_OK) {
        fprintf(stderr, "bench_ttgir: %s\n", err.message);
        abort();
    }
    bench_clobber(&c->s);
}

/* Read the attention kernel of each target next to path (its
 * "_gfx950.ttgir" replaced); 0 when one is missing. */
static int load_attn(const char *path)
{
    const char *tail = strstr(path, "_gfx950.ttgir");
    int t, e;
    if (!tail) return 0;
    for (t = 0; t < N_ATTN; t++) {
        char p[1024];
        FILE *f;
        snprintf(p, sizeof p, "%.*s_%s.ttgir", (int)(tail - path), path, attn_target[t]);
        if (!(f = fopen(p, "rb"))) return 0;
        attn[t][0].len = fread(attn[t][0].text, 1, sizeof attn[t][0].text - 1, f);
        fclose(f);
        attn[t][0].text[attn[t][0].len] = '\0';
        for (e = 0; e < 2; e++) {
            if (e) {
                memcpy(attn[t][1].text, attn[t][0].text, attn[t][0].len + 1);
                attn[t][1].len = attn[t][0].len;
            }
            attn[t][e].exhaustive = e;
            run_attn(&attn[t][e]);
        }
        if (memcmp(&attn[t][0].s, &attn[t][1].s, sizeof attn[t][0].s) != 0) {
            fprintf(stderr, "bench_ttgir: %s: the two scorers' suggestions differ\n", p);
            abort();
        }
    }
    return 1;
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
    /* header: up to the line after "module attributes"; body: to the
     * module's closing "}" line (the last line starting with "}" before the
     * "#loc" definitions that follow the module); then that line and the
     * definitions once */
    p = strstr(src, "module attributes");
    if (!p || !(p = strchr(p, '\n'))) return 1;
    body_start = (size_t)(p + 1 - src);
    p = strstr(src + body_start, "\n#loc");
    if (!p) return 1;
    locs = (size_t)(p + 1 - src);
    for (body_end = locs - 1; body_end > body_start && !(src[body_end - 1] == '\n' && src[body_end] == '}'); body_end--) {}
    if (body_end <= body_start) return 1;
    memcpy(text, src, body_start);
    text_len = body_start;
    while (lines < 5000 && text_len + (body_end - body_start) + (n - body_end) < CAP) {
        memcpy(text + text_len, src + body_start, body_end - body_start);
        text_len += body_end - body_start;
        copies++;
        lines = 0;
        for (size_t k = 0; k < text_len; k++) lines += text[k] == '\n';
    }
    memcpy(text + text_len, src + body_end, n - body_end);
    text_len += n - body_end;
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
    if (load_attn(path)) {
        bench_fn afns[2 * N_ATTN];
        void *actx[2 * N_ATTN];
        double abest[2 * N_ATTN];
        int t;
        for (t = 0; t < 2 * N_ATTN; t++) {
            afns[t] = run_attn;
            actx[t] = &attn[t / 2][t % 2];
        }
        bench_interleaved(2 * N_ATTN, afns, actx, 5, 0.2, abest);
        printf("  --suggest on the attention kernel (parse + analyze + suggest), default vs exhaustive scorer:\n");
        for (t = 0; t < N_ATTN; t++) {
            char name[96];
            int j, scored = 0;
            for (j = 0; j < attn[t][0].s.n_allocs; j++) scored += (int)attn[t][0].s.allocs[j].scored;
            printf("    %-7s %8.3f ms  exhaustive %8.3f ms  (%.1fx; %d allocations, %d candidates scored; target "
                   "<= 30 ms: %s)\n", attn_target[t], abest[2 * t] * 1e3, abest[2 * t + 1] * 1e3,
                   abest[2 * t + 1] / abest[2 * t], attn[t][0].s.n_allocs, scored,
                   abest[2 * t] <= 0.03 ? "met" : "NOT met");
            snprintf(name, sizeof name, "ttgir_suggest_attn_kernel_%s", attn_target[t]);
            bench_emit(name, "ms", abest[2 * t] * 1e3);
            snprintf(name, sizeof name, "ttgir_suggest_attn_kernel_%s_exhaustive", attn_target[t]);
            bench_emit(name, "ms", abest[2 * t + 1] * 1e3);
        }
    }
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
