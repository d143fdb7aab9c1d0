/* NVIDIA instructions with some lanes off, held to the hardware.
 *
 * tests/fixtures/h100/partial: 306 single-warp shared-memory instructions
 * (LDS / STS of 4, 8 and 16 bytes, each predicated per lane; halves, even or
 * odd lanes, quarters, one lane, none, broadcasts, pairs, and 48 random
 * masks and addresses) measured one launch each on an H200 with Nsight
 * Compute (run.sh, extract.py).  Two facts of the model come from them
 * (docs/lds-model.md §2.5, §3.2): a phase without an active lane adds no
 * wavefront (ld_8_lo16_seq: 1 wavefront, where a cycle per phase would say
 * 2), and a load folds when every active lane whose partner l^m is active
 * shares its address, an inactive partner not stopping it (ld_8_even_seq:
 * 2 wavefronts and 1 conflict, one phase of 32 lanes).  Every pattern's
 * wavefronts and conflicts must equal the sm_90 preset's total and extra,
 * with every implementation. */
#include "harness.h"
#include "layout.h"

static void fixture_path(char *buf, size_t cap, const char *name)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(buf, cap, "%.*s/fixtures/h100/partial/%s", slash ? (int)(slash - f) : 1, slash ? f : ".", name);
}

static void test_measured_patterns(void)
{
    char path[512], name[64], mname[64], dir[8], line[512];
    FILE *pf, *mf;
    layout_arch a;
    layout_error e;
    int n = 0, equal = 0, folded_partial = 0, idle_phase = 0;
    CHECK(layout_arch_preset("sm_90", &a, &e) == LAYOUT_OK);
    CHECK(a.idle_group_cycles == 0);
    fixture_path(path, sizeof path, "patterns.txt");
    pf = fopen(path, "r");
    fixture_path(path, sizeof path, "measured.txt");
    mf = fopen(path, "r");
    CHECK(pf != NULL && mf != NULL);
    if (!pf || !mf) {
        if (pf) fclose(pf);
        if (mf) fclose(mf);
        return;
    }
    CHECK(fgets(line, sizeof line, mf) != NULL && line[0] == '#');
    for (;;) {
        unsigned mask;
        int w, inst, wf, bc, l;
        layout_instr in;
        if (fscanf(pf, "%63s %d %7s %x", name, &w, dir, &mask) != 4) break;
        CHECK(layout_instr_init(&in, 32, w, strcmp(dir, "ld") == 0 ? LAYOUT_READ : LAYOUT_WRITE, &e) == LAYOUT_OK);
        in.active_mask = mask;
        for (l = 0; l < 32; l++) CHECK(fscanf(pf, "%u", &in.addr_bytes[l]) == 1);
        CHECK(fscanf(mf, "%63s %d %d %d", mname, &inst, &wf, &bc) == 4);
        CHECK_MSG(strcmp(name, mname) == 0 && inst == 1, "%s vs %s", name, mname);
        for (int impl = 0; impl < 2; impl++) {
            layout_check_impl im = impl ? LAYOUT_IMPL_AVX2 : LAYOUT_IMPL_SCALAR;
            layout_cost c;
            if (!layout_check_impl_available(im)) continue;
            CHECK(layout_instr_cost(&a, &in, im, &c, &e) == LAYOUT_OK);
            CHECK_MSG(c.total_cycles == wf && c.extra_cycles == bc, "%s (%s): model %d wavefronts %d conflicts, ncu %d %d",
                      name, layout_check_impl_name(im), c.total_cycles, c.extra_cycles, wf, bc);
            if (impl == 0) {
                equal += c.total_cycles == wf && c.extra_cycles == bc;
                folded_partial += c.fold_xor != 0 && mask != 0xFFFFFFFFu && mask != 0;
                idle_phase += wf < c.n_groups;
            }
        }
        n++;
    }
    fclose(pf);
    fclose(mf);
    printf("test_nvidia_partial: %d of %d measured patterns equal (%d folded with lanes off, %d with idle phases)\n",
           equal, n, folded_partial, idle_phase);
    CHECK(n == 306 && equal == n);
    CHECK(folded_partial >= 20 && idle_phase >= 40); /* the two facts are exercised, not just full warps */
}

/* Hand-derived, sm_90 LDS.128 of 16 lanes at 16-byte steps (four phases of
 * 8 lanes): lanes 0-15 fill phases 0 and 1, 1 wavefront each, and leave 2
 * and 3 idle: 2 wavefronts, 0 conflicts.  Even lanes: lane l and l^1 never
 * both active, so the fold's two phases of 16 apply; phase 0 holds lanes
 * 0, 2, .., 14 at bytes 0, 32, .., 224: words 0-3, 8-11, .., 56-59, two on
 * each of banks 0-3, 8-11, 16-19, 24-27: 2 wavefronts per phase, 4 in
 * all, 2 conflicts.  AMD keeps a cycle per idle group (gfx942 b32, lane 0
 * alone: 2 cycles over the two groups of 32 lanes, rocprofiler-compute). */
static void test_hand_derived(void)
{
    layout_arch nv, amd;
    layout_instr in;
    layout_cost c;
    layout_error e;
    CHECK(layout_arch_preset("sm_90", &nv, &e) == LAYOUT_OK && layout_arch_preset("gfx942", &amd, &e) == LAYOUT_OK);
    CHECK(layout_instr_init(&in, 32, 16, LAYOUT_READ, &e) == LAYOUT_OK);
    for (int l = 0; l < 32; l++) in.addr_bytes[l] = 16u * (unsigned)l;
    in.active_mask = 0xFFFF;
    CHECK(layout_instr_cost(&nv, &in, LAYOUT_IMPL_AUTO, &c, &e) == LAYOUT_OK);
    CHECK(c.total_cycles == 2 && c.extra_cycles == 0 && c.fold_xor == 0);
    in.active_mask = 0x55555555;
    CHECK(layout_instr_cost(&nv, &in, LAYOUT_IMPL_AUTO, &c, &e) == LAYOUT_OK);
    CHECK(c.total_cycles == 4 && c.extra_cycles == 2 && c.fold_xor == 1 && c.n_groups == 2);
    in.direction = LAYOUT_WRITE; /* stores never fold: four phases of 4 lanes, 1 wavefront each */
    CHECK(layout_instr_cost(&nv, &in, LAYOUT_IMPL_AUTO, &c, &e) == LAYOUT_OK);
    CHECK(c.total_cycles == 4 && c.extra_cycles == 0 && c.fold_xor == 0);
    in.active_mask = 0;
    CHECK(layout_instr_cost(&nv, &in, LAYOUT_IMPL_AUTO, &c, &e) == LAYOUT_OK);
    CHECK(c.total_cycles == 0 && c.extra_cycles == 0);
    CHECK(layout_instr_init(&in, 64, 4, LAYOUT_READ, &e) == LAYOUT_OK);
    for (int l = 0; l < 64; l++) in.addr_bytes[l] = 128u * (unsigned)l;
    in.active_mask = 1;
    CHECK(layout_instr_cost(&amd, &in, LAYOUT_IMPL_AUTO, &c, &e) == LAYOUT_OK);
    CHECK(c.total_cycles == 2 && c.extra_cycles == 0);
}

/* The text form carries idle=: a custom arch with NVIDIA's phases prints and
 * reads back with it, and a bad value is an error at its column. */
static void test_text_idle(void)
{
    layout_arch a, b;
    layout_error e;
    char buf[LAYOUT_TEXT_CAP];
    CHECK(layout_arch_from_text("arch(base=sm_90, name=nv0)", &a, NULL, &e) == LAYOUT_OK);
    CHECK(a.idle_group_cycles == 0);
    CHECK(layout_arch_to_text(&a, buf, sizeof buf, &e) == LAYOUT_OK);
    CHECK_MSG(strstr(buf, "idle=0") != NULL, "%s", buf);
    CHECK(layout_arch_from_text(buf, &b, NULL, &e) == LAYOUT_OK && b.idle_group_cycles == 0);
    CHECK(layout_arch_from_text("arch(base=sm_90, idle=1)", &a, NULL, &e) == LAYOUT_OK && a.idle_group_cycles == 1);
    size_t at = 0;
    CHECK(layout_arch_from_text("arch(base=sm_90, idle=2)", &a, &at, &e) != LAYOUT_OK && at == 22);
    CHECK_MSG(strstr(e.message, "idle") != NULL, "%s", e.message);
    CHECK(layout_arch_from_text("arch(base=sm_90, idle=0, idle=0)", &a, NULL, &e) != LAYOUT_OK);
    a.idle_group_cycles = 3;
    CHECK(layout_arch_validate(&a, &e) == LAYOUT_ERR_ARG);
}

int main(void)
{
    RUN(test_measured_patterns);
    RUN(test_hand_derived);
    RUN(test_text_idle);
    return harness_finish("test_nvidia_partial");
}
