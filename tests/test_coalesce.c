/* Coalescing model: the talk's known answers (docs/lds-model.md §5), NVIDIA sectors, a brute-force
 * byte-level reference and bad inputs. */
#include "harness.h"
#include "layout.h"

static layout_instr strided(int lanes, int width, uint32_t base, int64_t stride)
{
    layout_instr in;
    CHECK(layout_instr_init(&in, lanes, width, LAYOUT_READ, NULL) == LAYOUT_OK);
    CHECK(layout_instr_fill_strided(&in, base, stride, NULL) == LAYOUT_OK);
    return in;
}

static layout_coalesce_result run(const layout_instr *in, layout_coalesce_params p)
{
    layout_coalesce_result r;
    layout_error e;
    memset(&r, 0, sizeof r);
    CHECK_MSG(layout_coalesce(in, &p, &r, &e) == LAYOUT_OK, "%s", e.message);
    return r;
}

static void test_seed_known_answers(void)
{
    layout_instr in = strided(64, 16, 0, 16);
    layout_coalesce_result r = run(&in, layout_coalesce_cdna());
    CHECK_EQ_I64(r.n_transactions, 16);
    CHECK_EQ_I64(r.n_lines, 16);
    CHECK_EQ_I64(r.fetched_bytes, 1024);
    CHECK_EQ_I64(r.useful_bytes, 1024);
    CHECK(r.efficiency == 1.0);
    in = strided(64, 4, 0, 256);
    r = run(&in, layout_coalesce_cdna());
    CHECK_EQ_I64(r.n_transactions, 64);
    CHECK_EQ_I64(r.fetched_bytes, 4096);
    CHECK_EQ_I64(r.useful_bytes, 256);
    CHECK(r.efficiency == 0.0625);
}

static void test_nvidia_and_edges(void)
{
    layout_instr in = strided(32, 4, 0, 4);
    layout_coalesce_result r = run(&in, layout_coalesce_nvidia());
    CHECK_EQ_I64(r.n_lines, 1);
    CHECK_EQ_I64(r.n_sectors, 4);
    CHECK_EQ_I64(r.n_transactions, 4);
    CHECK(r.efficiency == 1.0);
    in = strided(32, 4, 0, 128);
    r = run(&in, layout_coalesce_nvidia());
    CHECK_EQ_I64(r.n_transactions, 32);
    CHECK(r.efficiency == 0.125);
    /* broadcast: one line, useful 4 bytes, requested 256 */
    in = strided(64, 4, 100, 0);
    r = run(&in, layout_coalesce_cdna());
    CHECK_EQ_I64(r.n_transactions, 1);
    CHECK_EQ_I64(r.useful_bytes, 4);
    CHECK_EQ_I64(r.requested_bytes, 256);
    /* one unaligned b128 lane across a line boundary: 2 lines */
    in = strided(64, 16, 56, 0);
    in.active_mask = 1;
    r = run(&in, layout_coalesce_cdna());
    CHECK_EQ_I64(r.n_transactions, 2);
    CHECK(r.efficiency == 16.0 / 128.0);
    /* nothing active */
    in.active_mask = 0;
    r = run(&in, layout_coalesce_cdna());
    CHECK_EQ_I64(r.n_transactions, 0);
    CHECK(r.efficiency == 0.0);
    /* top of the address range does not wrap */
    in = strided(64, 16, 0, 0);
    in.addr_bytes[0] = UINT32_MAX - 3;
    in.active_mask = 1;
    r = run(&in, layout_coalesce_cdna());
    CHECK_EQ_I64(r.n_lines, 2);
}

/* Brute force: mark every requested byte in a bitmap over a small window. */
static void test_brute_force(void)
{
    static const int lines[] = {16, 32, 64, 128, 256};
    harness_rng rng = {77};
    long n = harness_scaled(20000), bad = 0;
    static unsigned char byte_used[8192];
    for (long it = 0; it < n; it++) {
        int lanes = harness_range(&rng, 0, 1) ? 64 : 32;
        int width = layout_width_from_index((int)harness_range(&rng, 0, 5));
        layout_instr in = strided(lanes, width, 0, 0);
        int stride = (int)harness_range(&rng, 0, 64);
        for (int l = 0; l < lanes; l++)
            in.addr_bytes[l] = harness_range(&rng, 0, 2) ? (uint32_t)(stride * l + (int)harness_range(&rng, 0, 3))
                                                          : (uint32_t)harness_range(&rng, 0, 4000);
        in.active_mask = harness_next(&rng) & layout_lane_mask_all(lanes);
        layout_coalesce_params p;
        p.line_bytes = lines[harness_range(&rng, 0, 4)];
        p.sector_bytes = harness_range(&rng, 0, 1) ? 0 : p.line_bytes >> harness_range(&rng, 0, 2);
        if (p.sector_bytes && p.sector_bytes < 4) p.sector_bytes = 0;
        memset(byte_used, 0, sizeof byte_used);
        for (int l = 0; l < lanes; l++)
            if ((in.active_mask >> l) & 1)
                for (int b = 0; b < width; b++) byte_used[in.addr_bytes[l] + (uint32_t)b] = 1;
        int64_t useful = 0, lines_n = 0, sectors_n = 0;
        for (int a = 0; a < 8192; a++) useful += byte_used[a];
        for (int a = 0; a < 8192; a += p.line_bytes) {
            int any = 0;
            for (int b = 0; b < p.line_bytes; b++) any |= byte_used[a + b];
            lines_n += any;
        }
        int unit = p.sector_bytes ? p.sector_bytes : p.line_bytes;
        for (int a = 0; a < 8192; a += unit) {
            int any = 0;
            for (int b = 0; b < unit; b++) any |= byte_used[a + b];
            sectors_n += any;
        }
        layout_coalesce_result r = run(&in, p);
        if (r.useful_bytes != useful || r.n_lines != lines_n || r.n_transactions != sectors_n ||
            r.fetched_bytes != sectors_n * unit)
            bad++;
    }
    CHECK_EQ_I64(bad, 0);
}

static void test_bad_inputs(void)
{
    layout_instr in = strided(64, 4, 0, 4);
    layout_coalesce_params p = layout_coalesce_cdna();
    layout_coalesce_result r, keep;
    layout_error e;
    memset(&r, 0x3C, sizeof r);
    memcpy(&keep, &r, sizeof r);
    CHECK(layout_coalesce(NULL, &p, &r, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_coalesce(&in, NULL, &r, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_coalesce(&in, &p, NULL, &e) == LAYOUT_ERR_NULL);
    static const int bad_lines[] = {0, 8, 48, 512, -64};
    for (int i = 0; i < 5; i++) {
        p.line_bytes = bad_lines[i];
        CHECK(layout_coalesce(&in, &p, &r, &e) == LAYOUT_ERR_ARG);
    }
    CHECK_STR_CONTAINS(e.message, "layout_coalesce: params->line_bytes = -64");
    p = layout_coalesce_nvidia();
    static const int bad_sectors[] = {2, 3, 256, -32};
    for (int i = 0; i < 4; i++) {
        p.sector_bytes = bad_sectors[i];
        CHECK(layout_coalesce(&in, &p, &r, &e) == LAYOUT_ERR_ARG);
    }
    p = layout_coalesce_nvidia();
    in.width_bytes = 5;
    CHECK(layout_coalesce(&in, &p, &r, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "layout_coalesce: layout_instr_validate: width_bytes = 5");
    in.width_bytes = 4;
    in.n_lanes = 32;
    in.active_mask = ~0ull;
    CHECK(layout_coalesce(&in, &p, &r, &e) == LAYOUT_ERR_ARG);
    CHECK(memcmp(&r, &keep, sizeof r) == 0);
}

int main(void)
{
    RUN(test_seed_known_answers);
    RUN(test_nvidia_and_edges);
    RUN(test_brute_force);
    RUN(test_bad_inputs);
    return harness_finish("test_coalesce");
}
