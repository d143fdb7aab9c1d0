/* Architecture descriptions: presets against docs/lds-model.md §2, user-built
 * descriptions, validation and printing. */
#include "harness.h"
#include "layout.h"

static layout_arch preset(const char *name)
{
    layout_arch a;
    layout_error e;
    memset(&a, 0, sizeof a);
    CHECK_MSG(layout_arch_preset(name, &a, &e) == LAYOUT_OK, "%s: %s", name, e.message);
    return a;
}

/* Group of lane l under a rule, found by scanning the masks. */
static int group_of(const layout_lane_rule *r, int l)
{
    for (int g = 0; g < r->n_groups; g++)
        if ((r->groups[g] >> l) & 1) return g;
    return -1;
}

/* Same partition as phase(l), whatever the numbering. */
static int same_partition(const layout_lane_rule *r, int wave, int (*phase)(int))
{
    for (int a = 0; a < wave; a++)
        for (int b = 0; b < wave; b++)
            if ((group_of(r, a) == group_of(r, b)) != (phase(a) == phase(b))) return 0;
    return 1;
}

static int t(int l, int b) { return (l >> b) & 1; }
static int ph942(int l) { return t(l, 5) | (t(l, 2) ^ t(l, 4)) << 1 | t(l, 3) << 2; }
static int ph950(int l) { return t(l, 5) | (t(l, 2) ^ t(l, 3) ^ t(l, 4)) << 1; }
static int ph_half(int l) { return l / 32; }
static int ph_quarter(int l) { return l / 16; }
static int ph_eighth(int l) { return l / 8; }
static int ph_all(int l) { (void)l; return 0; }

static void test_preset_list(void)
{
    static const char *want[] = {"gfx90a", "gfx942", "gfx950", "gfx950-b32x64", "gfx11", "gfx12", "sm_80", "sm_90",
                                 /* more GPUs (tests/test_gpus.c) */
                                 "gfx940", "sm_70", "sm_75", "sm_86", "sm_89", "sm_100", "sm_120", "gfx1030",
                                 "gfx1030-w64", "gfx1100", "gfx1100-w64", "xe-hpg"};
    CHECK_EQ_I64(layout_arch_preset_count(), 20);
    for (size_t i = 0; i < 20; i++) {
        CHECK(strcmp(layout_arch_preset_name(i), want[i]) == 0);
        layout_arch a = preset(want[i]);
        layout_error e;
        CHECK_MSG(layout_arch_validate(&a, &e) == LAYOUT_OK, "%s: %s", want[i], e.message);
        CHECK(strcmp(a.name, want[i]) == 0);
        CHECK(a.note[0] != '\0');
        for (int d = 0; d < 2; d++)
            for (int w = 0; w < LAYOUT_N_WIDTHS; w++)
                if (a.rules[d][w].supported) CHECK(a.rules[d][w].source[0] != '\0');
    }
    CHECK(layout_arch_preset_name(20) == NULL);
}

static void test_gfx942_groups(void)
{
    layout_arch a = preset("gfx942");
    CHECK_EQ_I64(a.n_banks, 32);
    CHECK_EQ_I64(a.bank_width_bytes, 4);
    CHECK_EQ_I64(a.wave_size, 64);
    for (int w = 1; w <= 4; w *= 2) {
        CHECK(same_partition(layout_arch_rule(&a, LAYOUT_READ, w), 64, ph_half));
        CHECK(same_partition(layout_arch_rule(&a, LAYOUT_WRITE, w), 64, ph_half));
    }
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_READ, 8), 64, ph_quarter));
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_WRITE, 8), 64, ph_quarter));
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_READ, 16), 64, ph942));
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_READ, 12), 64, ph942));
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_WRITE, 16), 64, ph_eighth));
    const layout_lane_rule *r = layout_arch_rule(&a, LAYOUT_READ, 16);
    char buf[64];
    static const char *want[8] = {"0-3,20-23", "4-7,16-19", "8-11,28-31", "12-15,24-27",
                                  "32-35,52-55", "36-39,48-51", "40-43,60-63", "44-47,56-59"};
    CHECK_EQ_I64(r->n_groups, 8);
    for (int g = 0; g < 8; g++) {
        layout_lane_mask_format(r->groups[g], buf, sizeof buf);
        CHECK_MSG(strcmp(buf, want[g]) == 0, "group %d = %s", g, buf);
    }
    CHECK_EQ_I64(r->confidence, LAYOUT_CONFIDENCE_HIGH);
    CHECK_EQ_I64(layout_arch_rule(&a, LAYOUT_READ, 12)->confidence, LAYOUT_CONFIDENCE_LOW);
    CHECK_EQ_I64(r->n_fold_xors, 0);
}

static void test_gfx950_groups(void)
{
    layout_arch a = preset("gfx950");
    CHECK_EQ_I64(a.n_banks, 64);
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_READ, 16), 64, ph950));
    CHECK_EQ_I64(layout_arch_rule(&a, LAYOUT_READ, 16)->n_groups, 4);
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_READ, 12), 64, ph942));
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_READ, 8), 64, ph_half));
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_WRITE, 8), 64, ph_quarter));
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_WRITE, 16), 64, ph_eighth));
    CHECK(same_partition(layout_arch_rule(&a, LAYOUT_READ, 4), 64, ph_half));
    CHECK_EQ_I64(layout_arch_rule(&a, LAYOUT_READ, 4)->confidence, LAYOUT_CONFIDENCE_LOW);
    layout_arch v = preset("gfx950-b32x64");
    for (int w = 1; w <= 4; w *= 2) {
        CHECK(same_partition(layout_arch_rule(&v, LAYOUT_READ, w), 64, ph_all));
        CHECK(same_partition(layout_arch_rule(&v, LAYOUT_WRITE, w), 64, ph_all));
    }
    CHECK(same_partition(layout_arch_rule(&v, LAYOUT_READ, 16), 64, ph950));
}

static void test_gfx90a_is_gfx942_low(void)
{
    layout_arch a = preset("gfx90a"), b = preset("gfx942");
    for (int d = 0; d < 2; d++)
        for (int w = 0; w < LAYOUT_N_WIDTHS; w++) {
            CHECK_EQ_I64(a.rules[d][w].n_groups, b.rules[d][w].n_groups);
            CHECK(memcmp(a.rules[d][w].groups, b.rules[d][w].groups, sizeof a.rules[d][w].groups) == 0);
            CHECK_EQ_I64(a.rules[d][w].confidence, LAYOUT_CONFIDENCE_LOW);
        }
    CHECK_STR_CONTAINS(a.note, "low");
}

static void test_rdna_and_nvidia(void)
{
    layout_arch g11 = preset("gfx11"), g12 = preset("gfx12"), s90 = preset("sm_90"), s80 = preset("sm_80");
    layout_error e;
    CHECK_EQ_I64(g11.n_banks, 32);
    CHECK_EQ_I64(g11.wave_size, 32);
    CHECK_EQ_I64(g12.wave_size, 32);
    CHECK_EQ_I64(layout_arch_rule(&g11, LAYOUT_READ, 4)->n_groups, 1);
    CHECK_EQ_I64(layout_arch_rule(&g11, LAYOUT_READ, 8)->n_groups, 2);
    CHECK_EQ_I64(layout_arch_rule(&g11, LAYOUT_READ, 16)->n_groups, 4);
    CHECK_EQ_I64(layout_arch_rule(&g12, LAYOUT_WRITE, 16)->groups[1], 0xFF00);
    CHECK_EQ_I64(layout_arch_rule(&g12, LAYOUT_READ, 16)->confidence, LAYOUT_CONFIDENCE_MEDIUM);
    layout_arch g64;
    CHECK(layout_arch_gfx11(64, &g64, &e) == LAYOUT_OK);
    CHECK_EQ_I64(g64.n_banks, 64);
    CHECK(layout_arch_gfx11(48, &g64, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "layout_arch_gfx11: n_banks = 48");
    CHECK(layout_arch_gfx11(0, &g64, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_gfx11(128, &g64, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_gfx11(32, NULL, &e) == LAYOUT_ERR_NULL);

    for (int i = 0; i < 2; i++) {
        layout_arch *a = i ? &s80 : &s90;
        CHECK_EQ_I64(a->wave_size, 32);
        CHECK_EQ_I64(layout_arch_rule(a, LAYOUT_READ, 4)->n_groups, 1);
        CHECK_EQ_I64(layout_arch_rule(a, LAYOUT_READ, 8)->n_groups, 2);
        CHECK_EQ_I64(layout_arch_rule(a, LAYOUT_READ, 16)->n_groups, 4);
        CHECK(!layout_arch_rule(a, LAYOUT_READ, 12)->supported);
        const layout_lane_rule *r16 = layout_arch_rule(a, LAYOUT_READ, 16);
        CHECK_EQ_I64(r16->n_fold_xors, 2);
        CHECK_EQ_I64(r16->fold_xor[0], 1);
        CHECK_EQ_I64(r16->fold_xor[1], 2);
        CHECK_EQ_I64(r16->n_fold_groups, 2);
        CHECK_EQ_I64(r16->fold_groups[0], 0xFFFF);
        CHECK_EQ_I64(layout_arch_rule(a, LAYOUT_READ, 8)->n_fold_groups, 1);
        CHECK_EQ_I64(layout_arch_rule(a, LAYOUT_WRITE, 16)->n_fold_xors, 0);
        CHECK_EQ_I64(layout_arch_rule(a, LAYOUT_WRITE, 8)->n_fold_xors, 0);
        CHECK_EQ_I64(layout_arch_rule(a, LAYOUT_READ, 4)->n_fold_xors, 0);
    }
    CHECK_EQ_I64(layout_arch_rule(&s90, LAYOUT_READ, 16)->fold_confidence, LAYOUT_CONFIDENCE_HIGH);
    CHECK_EQ_I64(layout_arch_rule(&s80, LAYOUT_READ, 16)->fold_confidence, LAYOUT_CONFIDENCE_LOW);
}

static void test_preset_errors(void)
{
    layout_arch a;
    layout_error e;
    memset(&a, 0x5A, sizeof a);
    layout_arch before;
    memcpy(&before, &a, sizeof a);
    CHECK(layout_arch_preset("gfx999", &a, &e) == LAYOUT_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(e.message, "layout_arch_preset: name = \"gfx999\" is unknown");
    CHECK_STR_CONTAINS(e.message, "gfx942");
    CHECK(memcmp(&a, &before, sizeof a) == 0);
    CHECK(layout_arch_preset(NULL, &a, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_arch_preset("gfx942", NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_arch_preset("gfx94", &a, &e) == LAYOUT_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(e.message, "layout_arch_preset: name = \"gfx94\" is unknown; did you mean gfx942?");
    CHECK(layout_arch_preset("h10", &a, &e) == LAYOUT_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(e.message, "did you mean H100 (sm_90)?");
    CHECK(memcmp(&a, &before, sizeof a) == 0);
}

/* Product names and Triton targets, each with the preset its vendor's
 * documentation gives: NVIDIA's compute-capability table (H100, H200, H800,
 * GH200: 9.0; B200, B100, GB200: 10.0; A100: 8.0; A10, A40: 8.6; L4, L40S:
 * 8.9; T4: 7.5; RTX 5090: 12.0) and AMD's ROCm GPU table (MI300X, MI300A,
 * MI325X: gfx942; MI350X, MI355X: gfx950; MI250X, MI250, MI210: gfx90a).
 * Triton's ttg.target spells targets "cuda:<cc without the dot>" and
 * "hip:<gfx>"; "sm_90a" is NVIDIA's arch-specific feature target of 9.0. */
#define CHECK_STR_EQ(a, b)                                                           \
    do {                                                                             \
        const char *sa_ = (a), *sb_ = (b);                                           \
        CHECK_MSG(sa_ && sb_ && strcmp(sa_, sb_) == 0, "\"%s\" != \"%s\"", sa_ ? sa_ : "NULL", sb_); \
    } while (0)

static void test_aliases(void)
{
    static const struct {
        const char *typed, *preset;
    } known[] = {
        {"H100", "sm_90"}, {"H200", "sm_90"}, {"H800", "sm_90"}, {"GH200", "sm_90"}, {"B200", "sm_100"},
        {"B100", "sm_100"}, {"GB200", "sm_100"}, {"A100", "sm_80"}, {"A10", "sm_86"}, {"A40", "sm_86"},
        {"L4", "sm_89"}, {"L40S", "sm_89"}, {"T4", "sm_75"}, {"RTX5090", "sm_120"}, {"V100", "sm_70"}, {"cuda:70", "sm_70"},
        {"hip:gfx940", "gfx940"}, {"MI300X", "gfx942"}, {"MI300A", "gfx942"}, {"MI325X", "gfx942"}, {"MI350X", "gfx950"},
        {"MI355X", "gfx950"}, {"MI250X", "gfx90a"}, {"MI250", "gfx90a"}, {"MI210", "gfx90a"},
        {"cuda:90", "sm_90"}, {"cuda:80", "sm_80"}, {"cuda:100", "sm_100"}, {"cuda:75", "sm_75"},
        {"cuda:86", "sm_86"}, {"cuda:89", "sm_89"}, {"cuda:120", "sm_120"}, {"sm_90a", "sm_90"},
        {"sm_100a", "sm_100"}, {"hip:gfx942", "gfx942"}, {"hip:gfx950", "gfx950"}, {"hip:gfx90a", "gfx90a"},
        {"hip:gfx1030", "gfx1030"}, {"hip:gfx1100", "gfx1100"},
        /* RDNA4 and gfx1250 targets (LLVM's AMDGPU processor names; Triton prints hip:<gfx>) */
        {"gfx1200", "gfx12"}, {"gfx1201", "gfx12"}, {"gfx1250", "gfx12"},
        {"hip:gfx1200", "gfx12"}, {"hip:gfx1201", "gfx12"}, {"hip:gfx1250", "gfx12"},
        /* any case */
        {"h100", "sm_90"}, {"mi355x", "gfx950"}, {"Mi300A", "gfx942"}, {"CUDA:80", "sm_80"},
        {"HIP:GFX942", "gfx942"}, {"SM_90", "sm_90"}, {"GFX942", "gfx942"}, {"Gfx950-B32X64", "gfx950-b32x64"},
        /* ROCm target ids with features */
        {"gfx90a:sramecc+:xnack-", "gfx90a"}, {"hip:gfx942:sramecc+:xnack-", "gfx942"},
    };
    layout_arch a, p;
    layout_error e;
    /* Every listed alias is in the table above, and only once. */
    CHECK_EQ_I64(layout_arch_alias_count(), 45);
    for (size_t i = 0; i < layout_arch_alias_count(); i++) {
        int found = 0;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            if (strcmp(known[k].typed, layout_arch_alias_name(i)) == 0) {
                found++;
                CHECK_STR_EQ(layout_arch_alias_preset(i), known[k].preset);
            }
        CHECK_MSG(found == 1, "alias %s has no known answer", layout_arch_alias_name(i));
    }
    CHECK(layout_arch_alias_name(layout_arch_alias_count()) == NULL);
    CHECK(layout_arch_alias_preset(layout_arch_alias_count()) == NULL);
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        const char *c = layout_arch_canonical_name(known[k].typed);
        CHECK_MSG(c && strcmp(c, known[k].preset) == 0, "%s -> %s, want %s", known[k].typed, c ? c : "NULL",
                  known[k].preset);
        CHECK_MSG(layout_arch_preset(known[k].typed, &a, &e) == LAYOUT_OK, "%s: %s", known[k].typed, e.message);
        CHECK(layout_arch_preset(known[k].preset, &p, NULL) == LAYOUT_OK);
        CHECK(memcmp(&a, &p, sizeof a) == 0); /* the preset itself, named as the preset */
        CHECK_STR_EQ(a.name, known[k].preset);
    }
    /* The text form and base= take them too. */
    CHECK(layout_arch_from_text("  H200 ", &a, NULL, &e) == LAYOUT_OK);
    CHECK_STR_EQ(a.name, "sm_90");
    CHECK(layout_arch_from_text("arch(base=hip:gfx950, name=mi355-64, banks=64)", &a, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(a.wave_size, 64);
    CHECK(layout_arch_canonical_name(NULL) == NULL);
    CHECK(layout_arch_canonical_name("") == NULL);
    CHECK(layout_arch_canonical_name("sm90") == NULL);
    CHECK(layout_arch_canonical_name("hip:") == NULL);
    CHECK(layout_arch_canonical_name("gfx94:xnack-") == NULL);
    CHECK(layout_arch_canonical_name("cuda:91") == NULL);
}

/* Typos: the suggestion each should get, worked out by hand from the rule
 * (lower case, no '_' '-' ':' '.' ' ', optimal-string-alignment distance,
 * 1 edit up to 6 characters, 2 beyond). */
static void test_closest_name(void)
{
    static const struct {
        const char *typed, *preset, *alias;
    } typos[] = {
        {"sm90", "sm_90", NULL},        /* separators dropped: distance 0 */
        {"SM90", "sm_90", NULL},
        {"sm-90", "sm_90", NULL},
        {"gfx94", "gfx942", NULL},      /* one deletion */
        {"gfx924", "gfx942", NULL},     /* two neighbours swapped */
        {"h10", "sm_90", "H100"},       /* one deletion */
        {"h1000", "sm_90", "H100"},     /* one insertion */
        {"mi300", "gfx942", "MI300X"},  /* MI300X and MI300A tie: the first listed */
        {"mi355", "gfx950", "MI355X"},
        {"cuda90", "sm_90", "cuda:90"},
        {"hipgfx950", "gfx950", "hip:gfx950"},
        {"gfx1100w64", "gfx1100-w64", NULL},
        {"gfx110-w64", "gfx1100-w64", NULL}, /* 9 characters: one of two edits */
        {"b20", "sm_100", "B200"},
    };
    static const char *const far[] = {"gfx0", "gfx999", "zzz", "nvidia", "", "sm_9999"};
    for (size_t k = 0; k < sizeof typos / sizeof typos[0]; k++) {
        const char *alias = "unset", *p = layout_arch_closest_name(typos[k].typed, &alias);
        CHECK_MSG(p && strcmp(p, typos[k].preset) == 0, "%s -> %s, want %s", typos[k].typed, p ? p : "NULL",
                  typos[k].preset);
        if (typos[k].alias)
            CHECK_MSG(alias && strcmp(alias, typos[k].alias) == 0, "%s: alias %s, want %s", typos[k].typed,
                      alias ? alias : "NULL", typos[k].alias);
        else
            CHECK_MSG(alias == NULL, "%s: alias %s, want none", typos[k].typed, alias);
        CHECK(layout_arch_canonical_name(typos[k].typed) == NULL); /* a typo is not accepted */
    }
    for (size_t k = 0; k < sizeof far / sizeof far[0]; k++) {
        const char *alias = "unset";
        CHECK_MSG(layout_arch_closest_name(far[k], &alias) == NULL, "%s has a suggestion", far[k]);
        CHECK(alias == NULL);
    }
    CHECK(layout_arch_closest_name(NULL, NULL) == NULL);
    CHECK_STR_EQ(layout_arch_closest_name("gfx94", NULL), "gfx942");
}

static void test_custom_arch(void)
{
    layout_arch a;
    layout_error e;
    CHECK(layout_arch_init(&a, "toy16", 16, 4, 64, &e) == LAYOUT_OK);
    CHECK(layout_arch_validate(&a, &e) == LAYOUT_OK); /* no widths yet is valid */
    CHECK(layout_arch_set_consecutive(&a, LAYOUT_READ, 4, 16, LAYOUT_CONFIDENCE_LOW, "made up", &e) == LAYOUT_OK);
    CHECK_EQ_I64(layout_arch_rule(&a, LAYOUT_READ, 4)->n_groups, 4);
    uint64_t odd_even[2] = {0xAAAAAAAAAAAAAAAAull, 0x5555555555555555ull};
    CHECK(layout_arch_set_groups(&a, LAYOUT_WRITE, 4, odd_even, 2, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_OK);
    /* sorted by lowest lane */
    CHECK_EQ_I64(layout_arch_rule(&a, LAYOUT_WRITE, 4)->groups[0], 0x5555555555555555ull);
    int xors[1] = {1};
    uint64_t all[1] = {~0ull};
    CHECK(layout_arch_set_fold(&a, LAYOUT_READ, 4, xors, 1, all, 1, LAYOUT_CONFIDENCE_LOW, &e) == LAYOUT_OK);
    CHECK(layout_arch_validate(&a, &e) == LAYOUT_OK);
    char buf[4096];
    size_t need = 0;
    CHECK(layout_arch_format(&a, buf, sizeof buf, &need, &e) == LAYOUT_OK);
    CHECK_STR_CONTAINS(buf, "toy16: 16 banks x 4 B");
    CHECK_STR_CONTAINS(buf, "{0-15} {16-31} {32-47} {48-63}");
    CHECK_STR_CONTAINS(buf, "made up");
    CHECK_STR_CONTAINS(buf, "fold");
    CHECK_EQ_I64(need, strlen(buf));
}

static void test_custom_arch_errors(void)
{
    layout_arch a, keep;
    layout_error e;
    memset(&a, 0x33, sizeof a);
    memcpy(&keep, &a, sizeof a);
    CHECK(layout_arch_init(NULL, "x", 32, 4, 64, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_arch_init(&a, NULL, 32, 4, 64, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_arch_init(&a, "", 32, 4, 64, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_init(&a, "a-name-that-is-far-too-long-for-the-cap", 32, 4, 64, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_init(&a, "x", 48, 4, 64, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "layout_arch_init: n_banks = 48");
    CHECK(layout_arch_init(&a, "x", 0, 4, 64, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_init(&a, "x", 128, 4, 64, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_init(&a, "x", -32, 4, 64, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_init(&a, "x", 32, 2, 64, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "bank_width_bytes = 2");
    CHECK(layout_arch_init(&a, "x", 32, 4, 16, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "wave_size = 16");
    CHECK(memcmp(&a, &keep, sizeof a) == 0);

    CHECK(layout_arch_init(&a, "x", 32, 4, 32, &e) == LAYOUT_OK);
    uint64_t overlap[2] = {0xFFFF, 0x1FFFF0000ull >> 1};
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 4, overlap, 2, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "overlaps");
    uint64_t missing[2] = {0xFFFF, 0x7FFF0000};
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 4, missing, 2, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "miss lanes 0x80000000");
    uint64_t beyond[2] = {0xFFFF, 0x1FFFF0000ull};
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 4, beyond, 2, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "at or above wave_size = 32");
    uint64_t empty[2] = {0xFFFFFFFF, 0};
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 4, empty, 2, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 4, empty, 0, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 4, empty, 17, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 4, NULL, 1, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_arch_set_groups(NULL, LAYOUT_READ, 4, empty, 1, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 3, empty, 1, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "width_bytes = 3");
    CHECK(layout_arch_set_groups(&a, (layout_direction)5, 4, empty, 1, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_set_groups(&a, LAYOUT_READ, 4, empty, 1, (layout_confidence)9, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_set_consecutive(&a, LAYOUT_READ, 4, 7, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_arch_set_consecutive(&a, LAYOUT_READ, 4, 1, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(!layout_arch_rule(&a, LAYOUT_READ, 4)->supported); /* nothing was stored */

    int xors[1] = {1};
    uint64_t all[1] = {0xFFFFFFFF};
    CHECK(layout_arch_set_fold(&a, LAYOUT_READ, 16, xors, 1, all, 1, LAYOUT_CONFIDENCE_LOW, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK(layout_arch_set_consecutive(&a, LAYOUT_READ, 16, 8, LAYOUT_CONFIDENCE_LOW, NULL, &e) == LAYOUT_OK);
    int bad_xor[1] = {32};
    CHECK(layout_arch_set_fold(&a, LAYOUT_READ, 16, bad_xor, 1, all, 1, LAYOUT_CONFIDENCE_LOW, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "fold_xor[0] = 32");
    int zero_xor[1] = {0};
    CHECK(layout_arch_set_fold(&a, LAYOUT_READ, 16, zero_xor, 1, all, 1, LAYOUT_CONFIDENCE_LOW, &e) == LAYOUT_ERR_ARG);
    uint64_t split[2] = {0xFFF, 0xFFFFF000};
    CHECK(layout_arch_set_fold(&a, LAYOUT_READ, 16, xors, 1, split, 2, LAYOUT_CONFIDENCE_LOW, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "splits");
    CHECK(layout_arch_set_fold(&a, LAYOUT_READ, 16, xors, 0, all, 1, LAYOUT_CONFIDENCE_LOW, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(layout_arch_set_fold(&a, LAYOUT_READ, 16, NULL, 1, all, 1, LAYOUT_CONFIDENCE_LOW, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_arch_set_fold(&a, LAYOUT_READ, 16, xors, 1, NULL, 1, LAYOUT_CONFIDENCE_LOW, &e) == LAYOUT_ERR_NULL);

    /* validate catches a description corrupted after construction */
    layout_arch c = preset("gfx942");
    c.rules[LAYOUT_READ][5].groups[1] |= 1; /* lane 0 now in two groups */
    CHECK(layout_arch_validate(&c, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "layout_arch_validate: rules[read][b128].groups[1]");
    c = preset("gfx942");
    c.rules[LAYOUT_WRITE][2].groups[1] &= ~(1ull << 40);
    CHECK(layout_arch_validate(&c, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "miss lanes 0x10000000000");
    c = preset("gfx942");
    c.n_banks = 33;
    CHECK(layout_arch_validate(&c, &e) == LAYOUT_ERR_ARG);
    c = preset("gfx942");
    c.wave_size = 48;
    CHECK(layout_arch_validate(&c, &e) == LAYOUT_ERR_ARG);
    c = preset("gfx942");
    memset(c.name, 'x', sizeof c.name);
    CHECK(layout_arch_validate(&c, &e) == LAYOUT_ERR_ARG);
    c = preset("sm_90");
    c.rules[LAYOUT_READ][5].fold_xor[0] = 40;
    CHECK(layout_arch_validate(&c, &e) == LAYOUT_ERR_ARG);
    c = preset("gfx942");
    c.rules[LAYOUT_READ][5].n_groups = 99;
    CHECK(layout_arch_validate(&c, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(layout_arch_validate(NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_arch_rule(NULL, LAYOUT_READ, 4) == NULL);
    CHECK(layout_arch_rule(&c, LAYOUT_READ, 5) == NULL);
}

static void test_format(void)
{
    layout_arch a = preset("sm_90");
    layout_error e;
    size_t need = 0, need2 = 0;
    CHECK(layout_arch_format(&a, NULL, 0, &need, &e) == LAYOUT_OK);
    CHECK(need > 100);
    char small[16];
    CHECK(layout_arch_format(&a, small, sizeof small, &need2, &e) == LAYOUT_OK);
    CHECK_EQ_I64(need2, need);
    CHECK_EQ_I64(strlen(small), 15);
    char buf[8192];
    CHECK(layout_arch_format(&a, buf, sizeof buf, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(strlen(buf), need);
    CHECK_STR_CONTAINS(buf, "sm_90: 32 banks x 4 B (high), warp32"); /* NVIDIA says warp */
    CHECK_STR_CONTAINS(buf, "read  b96  unsupported");
    CHECK_STR_CONTAINS(buf, "m in {1,2}: {0-15} {16-31}  [high]");
    CHECK_STR_CONTAINS(buf, "Nsight");
    CHECK(layout_arch_format(NULL, buf, sizeof buf, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_arch_format(&a, NULL, 10, NULL, &e) == LAYOUT_ERR_NULL);
    char m[32];
    CHECK_EQ_I64(layout_lane_mask_format(0, m, sizeof m), 4);
    CHECK(strcmp(m, "none") == 0);
    layout_lane_mask_format(0x8000000000000001ull | (1ull << 5) | (1ull << 6), m, sizeof m);
    CHECK(strcmp(m, "0,5-6,63") == 0);
}

/* Each preset's isa_features, against the sources (a new preset needs a
 * row here: the loop fails on a preset the table does not list).
 *
 *  DS_LOAD_STORE_NAMES: LLVM llvm/lib/Target/AMDGPU/DSInstructions.td
 *    (llvm-project 03669ce5b155): `defm DS_LOAD_B32 :
 *    DS_Real_Renamed_gfx11_gfx12<0x036, DS_READ_B32, "ds_load_b32">`, and
 *    likewise every ds_read* / ds_write* (ds_load_2addr_*, ds_store_*),
 *    for GFX11 and GFX12 only; GFX10 (gfx1030) keeps ds_read_b32
 *    (DS_Real_gfx6_gfx7_gfx10).  The AMD RDNA3 / RDNA4 ISA guides name
 *    them DS_LOAD_B32, DS_STORE_B32.
 *  DS_READ_TR: AMD's CDNA4 ISA guide, section 11.4 "MFMA Transpose Load
 *    from LDS" (DS_READ_B64_TR_B4 / _B8 / _B16, DS_READ_B96_TR_B6);
 *    LLVM llvm/test/MC/AMDGPU/gfx950_asm_read_tr.s: llvm-mc -mcpu=gfx950
 *    assembles ds_read_b64_tr_b16, -mcpu=gfx940 rejects it ("instruction
 *    not supported on this GPU").  Triton's queryLDSTransLoadParams
 *    (third_party/amd TargetInfo.cpp) lowers to them on CDNA4.
 *  LDS_DMA_B32 / _B128: Triton third_party/amd/lib/TritonAMDGPUToLLVM/
 *    TargetInfo.cpp, supportsDirectToLdsLoadBitWidth: CDNA3 {32}, CDNA4
 *    {128, 32}, any other family none; TargetUtils.cpp deduceISAFamily:
 *    gfx942 (earlier revisions also gfx940, gfx941) CDNA3, gfx950 CDNA4,
 *    gfx90a CDNA2.  The 128-bit form is global_load_lds_dwordx4, new in
 *    gfx950 (LLVM llvm/test/MC/AMDGPU/gfx950_asm_features.s: llvm-mc
 *    -mcpu=gfx950 assembles it; its NOT-GFX950 lines expect gfx940 and
 *    gfx90a to refuse it).
 *  CVT_PK_F16_F32: AMD's CDNA4 ISA guide (V_CVT_PK_F16_F32,
 *    V_CVT_PK_BF16_F32: two f32 into one register, the second in bits
 *    [31:16]); Debian's llvm-mc 22.1.8 assembles `v_cvt_pk_f16_f32 v0, v1,
 *    v2` and `v_cvt_pk_bf16_f32` for -mcpu=gfx950 and refuses both for
 *    gfx942, gfx90a, gfx1100 and gfx1200 ("instruction not supported on
 *    this GPU"); the corpus's attn_full_64x64x32_w4_s2_gfx950 AMDGCN
 *    converts its P with 40 v_cvt_pk_f16_f32, the gfx942 one with 80
 *    v_cvt_f16_f32 (docs/notes/amd-misses.md).
 * The one row that is not what the ISA says: gfx950-b32x64 (a variant of
 * gfx950's bank model, the same ISA) lacks DS_READ_TR, as the Triton
 * model has always lowered it (the ds_read_tr test named "gfx950"). */
static void test_isa_features(void)
{
    enum { NAMES = LAYOUT_ISA_DS_LOAD_STORE_NAMES, TR = LAYOUT_ISA_DS_READ_TR, D32 = LAYOUT_ISA_LDS_DMA_B32,
           D128 = LAYOUT_ISA_LDS_DMA_B128, PK = LAYOUT_ISA_CVT_PK_F16_F32 };
    static const struct {
        const char *name;
        unsigned features;
    } want[] = {
        {"gfx90a", 0},            /* CDNA2 */
        {"gfx940", D32},          /* CDNA3 */
        {"gfx942", D32},          /* CDNA3 */
        {"gfx950", TR | D32 | D128 | PK},  /* CDNA4 */
        {"gfx950-b32x64", D32 | D128 | PK}, /* CDNA4 (see above) */
        {"gfx1030", 0},           /* RDNA2, GFX10 */
        {"gfx1030-w64", 0},
        {"gfx11", NAMES},         /* RDNA3, GFX11 */
        {"gfx1100", NAMES},
        {"gfx1100-w64", NAMES},
        {"gfx12", NAMES},         /* RDNA4 / gfx1250, GFX12 */
        {"sm_70", 0}, {"sm_75", 0}, {"sm_80", 0}, {"sm_86", 0}, {"sm_89", 0}, {"sm_90", 0}, {"sm_100", 0},
        {"sm_120", 0},            /* no AMD ISA */
        {"xe-hpg", 0},
    };
    for (size_t i = 0; i < layout_arch_preset_count(); i++) {
        const char *name = layout_arch_preset_name(i);
        size_t j = 0;
        while (j < sizeof want / sizeof want[0] && strcmp(want[j].name, name) != 0) j++;
        CHECK_MSG(j < sizeof want / sizeof want[0], "preset %s: no row in test_isa_features", name);
        if (j == sizeof want / sizeof want[0]) continue;
        layout_arch a = preset(name);
        CHECK_MSG(a.isa_features == want[j].features, "%s: isa_features 0x%x, want 0x%x", name, a.isa_features,
                  want[j].features);
    }
    /* layout_arch_gfx11(64): the same ISA as the gfx11 preset */
    layout_arch g;
    CHECK(layout_arch_gfx11(64, &g, NULL) == LAYOUT_OK);
    CHECK_EQ_I64(g.isa_features, NAMES);
    /* a user's arch starts with none; a preset's copy keeps them; bits outside the enum are refused */
    layout_error e;
    CHECK(layout_arch_init(&g, "toy", 32, 4, 64, &e) == LAYOUT_OK);
    CHECK_EQ_I64(g.isa_features, 0);
    CHECK(layout_arch_from_text("arch(base=gfx950, name=mi355-lab)", &g, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(g.isa_features, TR | D32 | D128 | PK);
    g.isa_features = 32;
    CHECK(layout_arch_validate(&g, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "isa_features");
}

static void test_names_and_widths(void)
{
    CHECK(strcmp(layout_confidence_name(LAYOUT_CONFIDENCE_HIGH), "high") == 0);
    CHECK(strcmp(layout_confidence_name((layout_confidence)7), "?") == 0);
    CHECK_EQ_I64(layout_width_index(16), 5);
    CHECK_EQ_I64(layout_width_index(12), 4);
    CHECK_EQ_I64(layout_width_index(3), -1);
    CHECK_EQ_I64(layout_width_from_index(4), 12);
    CHECK_EQ_I64(layout_width_from_index(6), 0);
    CHECK(strcmp(layout_direction_name(LAYOUT_WRITE), "write") == 0);
    CHECK(strcmp(layout_direction_name((layout_direction)3), "?") == 0);
}

int main(void)
{
    RUN(test_preset_list);
    RUN(test_gfx942_groups);
    RUN(test_gfx950_groups);
    RUN(test_gfx90a_is_gfx942_low);
    RUN(test_rdna_and_nvidia);
    RUN(test_preset_errors);
    RUN(test_aliases);
    RUN(test_closest_name);
    RUN(test_custom_arch);
    RUN(test_custom_arch_errors);
    RUN(test_format);
    RUN(test_names_and_widths);
    RUN(test_isa_features);
    return harness_finish("test_arch");
}
