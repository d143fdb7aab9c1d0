/* More GPUs as presets (docs/lds-model.md §2.4, §2.6, §2.7): NVIDIA sm_75 ..
 * sm_120, RDNA 2 / 3 in wave32 and wave64 mode, Intel Xe-HPG style SLM.
 * Known answers from the HLSL stride lint (docs/lds-model.md §4.3) through
 * the checker,
 * plus the provenance every assumed rule must carry. */
#include "harness.h"
#include "layout.h"

static layout_arch preset(const char *name)
{
    layout_arch a;
    memset(&a, 0, sizeof a);
    layout_error e;
    CHECK_MSG(layout_arch_preset(name, &a, &e) == LAYOUT_OK, "%s: %s", name, e.message);
    return a;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* One wave reads arr[tid * S] (4-byte elements): lane l at byte 4*S*l. */
static layout_cost stride_cost(const layout_arch *a, int64_t S, layout_direction dir)
{
    layout_checker c;
    layout_instr in;
    layout_cost cost;
    memset(&cost, 0, sizeof cost);
    CHECK(layout_checker_init(&c, a, LAYOUT_IMPL_SCALAR, NULL) == LAYOUT_OK);
    CHECK(layout_instr_init(&in, a->wave_size, 4, dir, NULL) == LAYOUT_OK);
    CHECK(layout_instr_fill_strided(&in, 0, 4 * S, NULL) == LAYOUT_OK);
    CHECK(layout_checker_cost(&c, &in, &cost, NULL) == LAYOUT_OK);
    return cost;
}

/* Seed 002: "The conflict factor for a constant stride S is 32 / gcd(S, 32) —
 * so stride 2 yields a 2-way conflict ..., stride 16 a 16-way, and stride 64
 * a 32-way"; "lane i reads address (i * 4) — banks 0, 4, ..., 28 (8 distinct
 * banks across 32 lanes), 4-way conflict"; 16 banks on Xe-HPG with "the same
 * modular arithmetic".  The worked examples are gcd(S, banks)-way conflicts
 * over banks / gcd(S, banks) distinct banks (the seed's formula as printed,
 * 32 / gcd, is the count of distinct banks: 32/gcd(4,32) = 8 above).  The
 * checker must give a worst n-way of gcd(S, banks) in every lane group and
 * (n-way - 1) extra cycles per group. */
static void test_seed002_strides(void)
{
    static const char *b32[] = {"sm_70", "sm_75", "sm_86", "sm_89", "sm_100", "sm_120",
                                "gfx1030", "gfx1100", "gfx1030-w64", "gfx1100-w64"};
    static const int64_t strides[] = {1, 2, 3, 4, 8, 16, 32, 33, 64, 128};
    for (size_t i = 0; i < sizeof b32 / sizeof b32[0]; i++) {
        layout_arch a = preset(b32[i]);
        CHECK_EQ_I64(a.n_banks, 32);
        CHECK_EQ_I64(a.bank_width_bytes, 4);
        int groups = a.wave_size / 32; /* b32: one group of 32 lanes per 32 lanes */
        for (size_t k = 0; k < sizeof strides / sizeof strides[0]; k++)
            for (int d = 0; d < 2; d++) {
                layout_cost c = stride_cost(&a, strides[k], (layout_direction)d);
                int64_t way = gcd64(strides[k], 32);
                CHECK_MSG(c.worst_nway == way, "%s stride %lld: %d-way, the HLSL lint says %lld", b32[i],
                          (long long)strides[k], c.worst_nway, (long long)way);
                CHECK_EQ_I64(c.n_groups, groups);
                CHECK_EQ_I64(c.extra_cycles, groups * (way - 1));
            }
    }
    /* the seed's example: stride 4 touches 8 distinct banks (32 / gcd(4, 32)) */
    int seen[32] = {0}, distinct = 0;
    for (int l = 0; l < 32; l++) distinct += !seen[(l * 4) % 32]++;
    CHECK_EQ_I64(distinct, 32 / gcd64(4, 32));
    /* Xe-HPG: 16 banks; stride 16 is the worst case (16-way), 2/4/8 partial */
    layout_arch x = preset("xe-hpg");
    CHECK_EQ_I64(x.n_banks, 16);
    CHECK_EQ_I64(x.bank_width_bytes, 4);
    for (size_t k = 0; k < sizeof strides / sizeof strides[0]; k++) {
        layout_cost c = stride_cost(&x, strides[k], LAYOUT_READ);
        int64_t way = gcd64(strides[k], 16);
        CHECK_MSG(c.worst_nway == way, "xe-hpg stride %lld: %d-way, want %lld", (long long)strides[k], c.worst_nway,
                  (long long)way);
        CHECK_EQ_I64(c.extra_cycles, 2 * (way - 1)); /* two 16-lane groups per 32-lane wave */
    }
    CHECK_EQ_I64(stride_cost(&x, 16, LAYOUT_WRITE).worst_nway, 16);
    CHECK_EQ_I64(stride_cost(&x, 1, LAYOUT_WRITE).extra_cycles, 0);
}

/* The wave64 RDNA modes are two wave32 halves of the wave32 preset. */
static void test_rdna_modes(void)
{
    static const char *pairs[2][2] = {{"gfx1030", "gfx1030-w64"}, {"gfx1100", "gfx1100-w64"}};
    for (int p = 0; p < 2; p++) {
        layout_arch w32 = preset(pairs[p][0]), w64 = preset(pairs[p][1]);
        CHECK_EQ_I64(w32.wave_size, 32);
        CHECK_EQ_I64(w64.wave_size, 64);
        for (int d = 0; d < 2; d++)
            for (int w = 0; w < LAYOUT_N_WIDTHS; w++) {
                const layout_lane_rule *a = &w32.rules[d][w], *b = &w64.rules[d][w];
                CHECK(a->supported && b->supported);
                CHECK_EQ_I64(b->n_groups, 2 * a->n_groups);
                for (int g = 0; g < a->n_groups; g++) {
                    CHECK(b->groups[g] == a->groups[g]);
                    CHECK(b->groups[a->n_groups + g] == a->groups[g] << 32);
                }
                CHECK(b->confidence == LAYOUT_CONFIDENCE_LOW);
            }
    }
    /* gfx1100 is the gfx11 model under its own name */
    layout_arch g11 = preset("gfx11"), g1100 = preset("gfx1100");
    strcpy(g1100.name, "gfx11");
    CHECK(layout_arch_same_model(&g11, &g1100));
}

/* Provenance: what was assumed is said, with the right confidence. */
static void test_provenance(void)
{
    static const char *nv[] = {"sm_70", "sm_75", "sm_86", "sm_89", "sm_100", "sm_120"};
    char buf[8192];
    for (size_t i = 0; i < sizeof nv / sizeof nv[0]; i++) {
        layout_arch a = preset(nv[i]), s90 = preset("sm_90");
        strcpy(s90.name, a.name);
        CHECK(layout_arch_same_model(&a, &s90)); /* phases and fold as measured on sm_90 */
        const layout_lane_rule *r16 = layout_arch_rule(&a, LAYOUT_READ, 16);
        CHECK(r16->n_fold_xors == 2 && r16->fold_confidence == LAYOUT_CONFIDENCE_LOW);
        CHECK(r16->confidence == LAYOUT_CONFIDENCE_MEDIUM);
        CHECK(a.bank_confidence == LAYOUT_CONFIDENCE_HIGH);
        CHECK(layout_arch_format(&a, buf, sizeof buf, NULL, NULL) == LAYOUT_OK);
        CHECK_STR_CONTAINS(buf, "measured on sm_90 only");
        CHECK_STR_CONTAINS(buf, nv[i]);
    }
    static const char *low[] = {"gfx1030-w64", "gfx1100-w64", "xe-hpg"};
    for (size_t i = 0; i < sizeof low / sizeof low[0]; i++) {
        layout_arch a = preset(low[i]);
        for (int d = 0; d < 2; d++)
            for (int w = 0; w < LAYOUT_N_WIDTHS; w++) CHECK(a.rules[d][w].confidence == LAYOUT_CONFIDENCE_LOW);
        CHECK(layout_arch_format(&a, buf, sizeof buf, NULL, NULL) == LAYOUT_OK);
        CHECK_STR_CONTAINS(buf, "assumed");
        CHECK_STR_CONTAINS(buf, "not published");
    }
    /* text form round trip of every new preset */
    static const char *all[] = {"gfx940", "sm_70", "sm_75", "sm_86", "sm_89", "sm_100", "sm_120",
                                "gfx1030", "gfx1030-w64", "gfx1100", "gfx1100-w64", "xe-hpg"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        layout_arch a = preset(all[i]), back;
        CHECK(layout_arch_to_text(&a, buf, sizeof buf, NULL) == LAYOUT_OK);
        CHECK(layout_arch_from_text(buf, &back, NULL, NULL) == LAYOUT_OK);
        CHECK(layout_arch_same_model(&a, &back));
    }
    layout_arch a;
    layout_error e;
    CHECK(layout_arch_preset("sm_60", &a, &e) == LAYOUT_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(e.message, "did you mean sm_"); /* no Pascal preset: the closest one is named */
    CHECK(layout_arch_preset("volta", &a, &e) == LAYOUT_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(e.message, "is unknown (known e.g.");
}

/* Triton's targets hip:gfx940 and cuda:70 name presets: gfx940 is ISA 9.4
 * (CDNA 3) in LLVM's AMDGPU processor table, gfx942's LDS, so gfx942's
 * lane groups under its own name with the bank model medium; Volta
 * (compute capability 7.x in the CUDA Programming Guide: 32 banks of 32
 * bits) is the assumed NVIDIA model, stride 2 a 2-way conflict. */
static void test_triton_targets_gfx940_sm70(void)
{
    layout_arch a, g942 = preset("gfx942");
    layout_error e;
    CHECK_MSG(layout_triton_kernel_target_arch("hip:gfx940", &a, &e) == LAYOUT_OK, "%s", e.message);
    CHECK(strcmp(a.name, "gfx940") == 0);
    CHECK_EQ_I64(a.wave_size, 64);
    CHECK(a.bank_confidence == LAYOUT_CONFIDENCE_MEDIUM);
    strcpy(g942.name, "gfx940");
    g942.bank_confidence = a.bank_confidence;
    CHECK(layout_arch_same_model(&a, &g942));
    CHECK_MSG(layout_triton_kernel_target_arch("cuda:70", &a, &e) == LAYOUT_OK, "%s", e.message);
    CHECK(strcmp(a.name, "sm_70") == 0);
    CHECK_EQ_I64(a.n_banks, 32);
    CHECK_EQ_I64(stride_cost(&a, 2, LAYOUT_READ).worst_nway, 2);
    CHECK_EQ_I64(stride_cost(&a, 1, LAYOUT_WRITE).extra_cycles, 0);
    layout_arch v = preset("V100");
    CHECK(strcmp(v.name, "sm_70") == 0);
}

int main(void)
{
    RUN(test_triton_targets_gfx940_sm70);
    RUN(test_seed002_strides);
    RUN(test_rdna_modes);
    RUN(test_provenance);
    return harness_finish("test_gpus");
}
