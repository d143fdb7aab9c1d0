/* Seed 002's stride lint (lint.h) against the seed's worked numbers, an
 * independent per-group count written here, and its closed form. */
#include "harness.h"
#include "layout.h"

static layout_arch preset(const char *name)
{
    layout_arch a;
    memset(&a, 0, sizeof a);
    CHECK(layout_arch_preset(name, &a, NULL) == LAYOUT_OK);
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

/* Worst n-way of the load of arr[tid * S] (4-byte elements) over the
 * rule's groups, counted directly: distinct words per bank. */
static int ref_nway(const layout_arch *a, int64_t S)
{
    const layout_lane_rule *r = layout_arch_rule(a, LAYOUT_READ, 4);
    int worst = 0;
    for (int g = 0; g < r->n_groups; g++)
        for (int b = 0; b < a->n_banks; b++) {
            int64_t words[64];
            int n = 0;
            for (int l = 0; l < a->wave_size; l++) {
                if (!(r->groups[g] >> l & 1)) continue;
                int64_t w = l * S; /* word = byte / 4 */
                if (w % a->n_banks != b) continue;
                int dup = 0;
                for (int i = 0; i < n; i++) dup |= words[i] == w;
                if (!dup) words[n++] = w;
            }
            if (n > worst) worst = n;
        }
    return worst;
}

/* Seed 002: strides 2, 4, 8, 16, 32, 64 -> 2-, 4-, 8-, 16-, 32-, 32-way on
 * 32 banks ("stride 64 a 32-way, same as stride 32"); on the 16-bank
 * Xe-HPG SLM stride 16 is the worst case; the +1 padding or SoA removes it. */
static void test_seed002(void)
{
    static const int64_t strides[] = {2, 4, 8, 16, 32, 64};
    static const int want32[] = {2, 4, 8, 16, 32, 32};
    static const char *b32[] = {"sm_90", "sm_75", "sm_89", "sm_120", "gfx1030", "gfx1100"};
    for (size_t a = 0; a < sizeof b32 / sizeof b32[0]; a++) {
        layout_arch arch = preset(b32[a]);
        for (int i = 0; i < 6; i++) {
            layout_stride_lint_result r;
            CHECK(layout_stride_lint(&arch, 4, strides[i], &r, NULL) == LAYOUT_OK);
            CHECK_EQ_I64(r.conflict_factor, want32[i]);
            CHECK_EQ_I64(r.read.extra_cycles, want32[i] - 1);
            CHECK_EQ_I64(r.distinct_banks, 32 / gcd64(strides[i], 32)); /* the seed's 32 / gcd(S, 32) */
            CHECK(r.closed_form_applies);
            CHECK_EQ_I64(r.closed_form_nway, want32[i]);
            CHECK_EQ_I64(r.fix_stride_elems, strides[i] + 1); /* [N][33] instead of [N][32] */
            CHECK_EQ_I64(r.fix_conflict_factor, 1);
            CHECK_EQ_I64(r.fix_extra_cycles, 0);
            CHECK_EQ_I64(r.soa_conflict_factor, 1);
            CHECK_EQ_I64(r.soa_extra_cycles, 0);
        }
    }
    layout_arch x = preset("xe-hpg");
    static const int want16[] = {2, 4, 8, 16, 16, 16};
    for (int i = 0; i < 6; i++) {
        layout_stride_lint_result r;
        CHECK(layout_stride_lint(&x, 4, strides[i], &r, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(r.conflict_factor, want16[i]);
        CHECK_EQ_I64(r.distinct_banks, 16 / gcd64(strides[i], 16));
        CHECK_EQ_I64(r.closed_form_nway, want16[i]);
        CHECK_EQ_I64(r.fix_stride_elems, strides[i] + 1);
        CHECK_EQ_I64(r.fix_conflict_factor, 1);
        CHECK_EQ_I64(r.soa_conflict_factor, 1);
    }
    /* the HLSL lint's AoS example (docs/lds-model.md §4.3): gs[lane * 4] -> 8 distinct banks, 4-way */
    layout_stride_lint_result r;
    layout_arch s90 = preset("sm_90");
    CHECK(layout_stride_lint(&s90, 4, 4, &r, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(r.distinct_banks, 8);
    CHECK_EQ_I64(r.conflict_factor, 4);
}

/* Every preset, strides 0..130, 4-byte elements: checker == direct count,
 * and == the closed form wherever it claims to apply. */
static void test_closed_form(void)
{
    int applied = 0;
    for (size_t i = 0; i < layout_arch_preset_count(); i++) {
        layout_arch a = preset(layout_arch_preset_name(i));
        for (int64_t S = 0; S <= 130; S++) {
            layout_stride_lint_result r;
            CHECK(layout_stride_lint(&a, 4, S, &r, NULL) == LAYOUT_OK);
            CHECK_MSG(r.read.worst_nway == ref_nway(&a, S), "%s S=%lld: %d vs %d", a.name, (long long)S,
                      r.read.worst_nway, ref_nway(&a, S));
            if (r.closed_form_applies) {
                applied++;
                CHECK_MSG(r.closed_form_nway == r.read.worst_nway, "%s S=%lld: closed %d, checker %d", a.name,
                          (long long)S, r.closed_form_nway, r.read.worst_nway);
            }
            CHECK(r.fix_stride_elems >= S);
            CHECK(r.fix_conflict_factor <= r.conflict_factor);
        }
    }
    CHECK(applied > 1000);
    /* gfx942 b32: 32-lane groups on 32 banks; gfx950: 32 lanes on 64 banks */
    layout_arch g950 = preset("gfx950");
    layout_stride_lint_result r;
    CHECK(layout_stride_lint(&g950, 4, 2, &r, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(r.conflict_factor, 1); /* 32 lanes x stride 2 = 64 banks */
    CHECK(layout_stride_lint(&g950, 4, 64, &r, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(r.conflict_factor, 32);
    CHECK_EQ_I64(r.closed_form_nway, 32);
}

/* Other element sizes: 2-byte lanes share words; 16-byte lanes use b128 groups. */
static void test_other_sizes(void)
{
    layout_arch s90 = preset("sm_90"), g942 = preset("gfx942");
    layout_stride_lint_result r;
    CHECK(layout_stride_lint(&s90, 2, 1, &r, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(r.conflict_factor, 1);
    CHECK(!r.closed_form_applies);
    CHECK(layout_stride_lint(&s90, 2, 64, &r, NULL) == LAYOUT_OK); /* 128-byte stride: one bank */
    CHECK_EQ_I64(r.conflict_factor, 32);
    CHECK_EQ_I64(r.fix_stride_elems, 66); /* 65: lanes 0 and 1 on words 0 and 32, both bank 0; 66: 33 words apart */
    CHECK_EQ_I64(r.fix_conflict_factor, 1);
    CHECK(layout_stride_lint(&g942, 16, 8, &r, NULL) == LAYOUT_OK); /* 128-byte stride b128 */
    CHECK(r.conflict_factor > 1);
    CHECK_EQ_I64(r.fix_conflict_factor, 1);
    CHECK(layout_stride_lint(&s90, 4, 0, &r, NULL) == LAYOUT_OK); /* every lane the same word: broadcast */
    CHECK_EQ_I64(r.conflict_factor, 1);
    CHECK_EQ_I64(r.fix_stride_elems, 0);
    CHECK_EQ_I64(r.closed_form_nway, 1);
    CHECK(layout_stride_lint(&s90, 1, 4, &r, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(r.conflict_factor, 1); /* 4-byte stride of bytes: one word each */
    CHECK(layout_stride_lint(&s90, 8, 4, &r, NULL) == LAYOUT_OK);
    CHECK(r.conflict_factor > 1);
}

static void test_errors(void)
{
    layout_arch a = preset("sm_90");
    layout_stride_lint_result r;
    memset(&r, 0x5a, sizeof r);
    layout_stride_lint_result before = r;
    layout_error e;
    CHECK(layout_stride_lint(NULL, 4, 2, &r, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_stride_lint(&a, 4, 2, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_stride_lint(&a, 3, 2, &r, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "elem_bytes = 3");
    CHECK(layout_stride_lint(&a, 4, -1, &r, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "stride_elems = -1");
    CHECK(layout_stride_lint(&a, 4, (int64_t)1 << 40, &r, &e) == LAYOUT_ERR_ARG);
    layout_arch bad = a;
    bad.n_banks = 3;
    CHECK(layout_stride_lint(&bad, 4, 2, &r, &e) == LAYOUT_ERR_ARG);
    layout_arch only32;
    CHECK(layout_arch_init(&only32, "only32", 32, 4, 32, NULL) == LAYOUT_OK);
    CHECK(layout_arch_set_consecutive(&only32, LAYOUT_READ, 4, 32, LAYOUT_CONFIDENCE_LOW, NULL, NULL) == LAYOUT_OK);
    CHECK(layout_stride_lint(&only32, 16, 2, &r, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK(layout_stride_lint(&only32, 4, 2, &r, &e) == LAYOUT_ERR_UNSUPPORTED); /* no store rule */
    CHECK_STR_CONTAINS(e.message, "store");
    CHECK(memcmp(&r, &before, sizeof r) == 0);
}

int main(void)
{
    RUN(test_seed002);
    RUN(test_closed_form);
    RUN(test_other_sizes);
    RUN(test_errors);
    return harness_finish("test_lint");
}
