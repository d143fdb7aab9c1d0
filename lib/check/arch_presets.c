/* Preset architectures, transcribed from docs/lds-model.md §2 (the sources
 * and confidences given there travel with each rule). */
#include "check_internal.h"
#include "../core/internal.h"
#include "layout/arch.h"

#include <string.h>

enum { R = LAYOUT_READ, W = LAYOUT_WRITE };
#define LOW LAYOUT_CONFIDENCE_LOW
#define MED LAYOUT_CONFIDENCE_MEDIUM
#define HIGH LAYOUT_CONFIDENCE_HIGH

/* Lane l's group is phase(l); masks come out indexed by phase, then get
 * sorted by lowest lane in layout_arch_set_groups. */
typedef int (*phase_fn)(int lane);

static int bit(int l, int b) { return (l >> b) & 1; }
/* gfx942 ds_read_b128: phase = t5 | (t2^t4)<<1 | t3<<2 */
static int phase_gfx942_b128_read(int l) { return bit(l, 5) | (bit(l, 2) ^ bit(l, 4)) << 1 | bit(l, 3) << 2; }
/* gfx950 ds_read_b128: phase = t5 | (t2^t3^t4)<<1 */
static int phase_gfx950_b128_read(int l) { return bit(l, 5) | (bit(l, 2) ^ bit(l, 3) ^ bit(l, 4)) << 1; }

static void set_phases(layout_arch *a, int dir, int width, phase_fn f, int n_groups, layout_confidence c,
                       const char *src)
{
    uint64_t g[LAYOUT_MAX_LANE_GROUPS] = {0};
    for (int l = 0; l < a->wave_size; l++) g[f(l)] |= (uint64_t)1 << l;
    layout_arch_set_groups(a, (layout_direction)dir, width, g, n_groups, c, src, NULL);
}

static void set_run(layout_arch *a, int dir, int width, int lanes, layout_confidence c, const char *src)
{
    layout_arch_set_consecutive(a, (layout_direction)dir, width, lanes, c, src, NULL);
}

static void set_note(layout_arch *a, const char *note)
{
    size_t n = strlen(note);
    if (n >= sizeof a->note) n = sizeof a->note - 1;
    memcpy(a->note, note, n);
    a->note[n] = '\0';
}

static const char src_942_b128r[] =
    "docs/lds-model.md §2.2: ck_tile LDS docs, ROCm blog on CK-Tile bank conflicts, MI300 timing, Triton tests";

static void build_gfx942(layout_arch *a, const char *name)
{
    layout_arch_init(a, name, 32, 4, 64, NULL);
    a->bank_confidence = HIGH;
    for (int w = 1; w <= 4; w *= 2) {
        set_run(a, R, w, 32, HIGH, "docs/lds-model.md §2.2: AMD OpenCL guide, MI300 stride sweep, the talk's MI300 table (kernel 01)");
        set_run(a, W, w, 32, MED, "docs/lds-model.md §2.2 (medium-high): the talk's MI300 table, kernel 02 b16 writes");
    }
    set_run(a, R, 8, 16, HIGH, "docs/lds-model.md §2.2: MI300 timing (tingqli/pyhip)");
    set_run(a, W, 8, 16, LOW, "docs/lds-model.md §2.2: assumed equal to ds_read_b64");
    set_phases(a, R, 12, phase_gfx942_b128_read, 8, LOW, "docs/lds-model.md §2.2: b96 assumed as b128 read");
    set_phases(a, W, 12, phase_gfx942_b128_read, 8, LOW, "docs/lds-model.md §2.2: b96 assumed as b128 read");
    set_phases(a, R, 16, phase_gfx942_b128_read, 8, HIGH, src_942_b128r);
    set_run(a, W, 16, 8, MED, "docs/lds-model.md §2.2 (medium-high): ck_tile LDS docs, ROCm blog on CK-Tile bank conflicts");
    a->isa_features = LAYOUT_ISA_LDS_DMA_B32; /* CDNA3: Triton lowers 32-bit direct-to-LDS loads only (test_arch.c) */
    set_note(a, "CDNA3 (MI300): 32 banks x 4 B, wave64. SQ_LDS_BANK_CONFLICT = sum of extra cycles.");
}

static const char src_90a[] =
    "assumed = gfx942 (docs/lds-model.md §2.2: no gfx90a table published; same 32-bank LDS design)";

static void build_gfx90a(layout_arch *a, const char *name)
{
    /* No published lane-group table for CDNA2 (docs/lds-model.md §2.2): it
     * shares CDNA3's 32-bank LDS design, so the gfx942 groups are the best
     * guess; every rule is marked low. */
    build_gfx942(a, name);
    a->bank_confidence = MED;
    a->isa_features = 0; /* CDNA2: no direct-to-LDS load in Triton's lowering, none of the later DS forms */
    for (int d = 0; d < 2; d++)
        for (int w = 0; w < LAYOUT_N_WIDTHS; w++) {
            layout_lane_rule *r = &a->rules[d][w];
            r->confidence = r->fold_confidence = LOW;
            memcpy(r->source, src_90a, sizeof src_90a);
        }
    set_note(a, "CDNA2 (MI200): no published lane-group table; rules copied from gfx942 (same 32-bank x 4 B "
                "LDS design), every rule low confidence.");
}

/* gfx940: the first CDNA3 (MI300) target.  LLVM's processor table
 * (llvm/lib/Target/AMDGPU/GCNProcessors.td at llvm-project 01589cc1babc:
 * `gfx940`, FeatureISAVersion9_4_0; llvm/docs/AMDGPUUsage.rst, "AMDGPU
 * Processors", GCN GFX9 (CDNA 3): gfx940, gfx941 and gfx942 in one group,
 * the generic target gfx9-4-generic covering them) gives it the ISA 9.4 of
 * gfx942, whose LDS (64 KiB, 32 banks x 4 B, the DS instruction set) it
 * shares: gfx942's rules, the bank model marked medium (nobody measured a
 * gfx940). */
static void build_gfx940(layout_arch *a, const char *name)
{
    build_gfx942(a, name);
    a->bank_confidence = MED;
    set_note(a, "CDNA3 (MI300, ISA 9.4 like gfx942: LLVM's AMDGPU processor table): gfx942's 32 banks x 4 B and "
                "lane groups, wave64; not measured on a gfx940 (bank model medium).");
}

static void build_gfx950_common(layout_arch *a, const char *name, int small_lanes)
{
    layout_arch_init(a, name, 64, 4, 64, NULL);
    a->bank_confidence = HIGH;
    const char *small_src = small_lanes == 32 ? "docs/lds-model.md §2.3: assumed half-waves (0-31, 32-63)"
                                              : "docs/lds-model.md §2.3: variant serving 64 lanes at once (assumed)";
    for (int w = 1; w <= 4; w *= 2) {
        set_run(a, R, w, small_lanes, LOW, small_src);
        set_run(a, W, w, small_lanes, LOW, small_src);
    }
    set_run(a, R, 8, 32, HIGH, "docs/lds-model.md §2.3: HipKittens rocprofv3 measurements");
    set_run(a, W, 8, 16, HIGH, "docs/lds-model.md §2.3: HipKittens rocprofv3 measurements");
    set_phases(a, R, 12, phase_gfx942_b128_read, 8, HIGH,
               "docs/lds-model.md §2.3: HipKittens (b96 read = gfx942 b128-read groups)");
    set_phases(a, W, 12, phase_gfx942_b128_read, 8, LOW, "docs/lds-model.md §2.3: assumed = b96 read");
    set_phases(a, R, 16, phase_gfx950_b128_read, 4, HIGH,
               "docs/lds-model.md §2.3: HipKittens rocprofv3; Triton tests; IREE table");
    set_run(a, W, 16, 8, LOW, "docs/lds-model.md §2.3: assumed 8-lane groups");
    /* CDNA4: the transposing reads, direct-to-LDS loads of 32 and 128 bits,
     * f32 pairs converted to 16 bits in one register (test_arch.c) */
    a->isa_features =
        LAYOUT_ISA_DS_READ_TR | LAYOUT_ISA_LDS_DMA_B32 | LAYOUT_ISA_LDS_DMA_B128 | LAYOUT_ISA_CVT_PK_F16_F32;
}

static void build_gfx950(layout_arch *a, const char *name)
{
    build_gfx950_common(a, name, 32);
    set_note(a, "CDNA4 (MI355): 64 banks x 4 B, wave64. b8-b32 groups assumed half-waves; "
                "\"gfx950-b32x64\" serves them 64 lanes at once.");
}

static void build_gfx950_b32x64(layout_arch *a, const char *name)
{
    build_gfx950_common(a, name, 64);
    /* the Triton model has lowered local_loads through ds_read_b64_tr on
     * the "gfx950" preset alone: this variant of its bank model keeps the
     * plain reads */
    a->isa_features &= ~(unsigned)LAYOUT_ISA_DS_READ_TR;
    set_note(a, "CDNA4 (MI355) variant: b8/b16/b32 accesses served 64 lanes at once (one group); "
                "otherwise identical to gfx950.");
}

static void build_rdna(layout_arch *a, const char *name, int n_banks, layout_confidence wide_conf,
                       const char *wide_src)
{
    layout_arch_init(a, name, n_banks, 4, 32, NULL);
    a->bank_confidence = LOW;
    for (int d = 0; d < 2; d++) {
        for (int w = 1; w <= 4; w *= 2) set_run(a, d, w, 32, MED, "docs/lds-model.md §2.4: RDNA <= 4 B: 32 lanes");
        set_run(a, d, 8, 16, LOW, "docs/lds-model.md §2.4: RDNA 8 B: 16 consecutive lanes");
        set_run(a, d, 12, 8, LOW, "docs/lds-model.md §2.4: b96 assumed as b128");
        set_run(a, d, 16, 8, wide_conf, wide_src);
    }
}

static void build_gfx11_banks(layout_arch *a, const char *name, int n_banks)
{
    build_rdna(a, name, n_banks, LOW, "docs/lds-model.md §2.4: RDNA 16 B: 8 consecutive lanes");
    a->isa_features = LAYOUT_ISA_DS_LOAD_STORE_NAMES; /* GFX11: ds_load_* / ds_store_* (test_arch.c) */
    set_note(a, "RDNA3 wave32. Bank count is a parameter (layout_arch_gfx11): 32 as in ck_tile and Triton "
                "(per-CU LDS), 64 as in IREE (WGP mode); the preset uses 32.");
}

static void build_gfx11(layout_arch *a, const char *name) { build_gfx11_banks(a, name, 32); }

static void build_gfx12(layout_arch *a, const char *name)
{
    build_rdna(a, name, 32, MED, "docs/lds-model.md §2.4: gfx12/gfx1250 b128 sequential 8-lane groups (Triton PR, ISA docs)");
    a->isa_features = LAYOUT_ISA_DS_LOAD_STORE_NAMES; /* GFX12: ds_load_* / ds_store_* (test_arch.c) */
    set_note(a, "RDNA4 / gfx1250 wave32, 32 banks assumed (low). Only the b128 groups are documented.");
}

static void build_nvidia(layout_arch *a, const char *name, layout_confidence c, layout_confidence fold_c,
                         const char *src)
{
    static const int xors[2] = {1, 2};
    uint64_t one[1] = {0xFFFFFFFFull};
    uint64_t halves[2] = {0xFFFFull, 0xFFFF0000ull};
    layout_arch_init(a, name, 32, 4, 32, NULL);
    a->bank_confidence = HIGH;
    a->ds_forms = 0; /* no paired shared-memory instruction (docs/calibrate.md rule N2, tests/fixtures/h100 k03); misaligned vectors fault */
    a->idle_group_cycles = 0; /* a phase without an active lane adds no wavefront (tests/fixtures/h100/partial) */
    for (int d = 0; d < 2; d++) {
        for (int w = 1; w <= 4; w *= 2) set_run(a, d, w, 32, c, src);
        set_run(a, d, 8, 16, c, src);
        set_run(a, d, 16, 8, c, src);
    }
    /* Loads only: pairs sharing an address (l^1 or l^2) merge phases. */
    layout_arch_set_fold(a, LAYOUT_READ, 8, xors, 2, one, 1, fold_c, NULL);
    layout_arch_set_fold(a, LAYOUT_READ, 16, xors, 2, halves, 2, fold_c, NULL);
}

static void build_sm90(layout_arch *a, const char *name)
{
    build_nvidia(a, name, HIGH, HIGH, "docs/lds-model.md §2.5: measured on H100 with Nsight Compute wavefront counters");
    set_note(a, "NVIDIA H100 (warp 32, 32 banks x 4 B). extra = bank conflicts; total = wavefronts. "
                "No 12-byte accesses.");
}

static void build_sm80(layout_arch *a, const char *name)
{
    build_nvidia(a, name, MED, LOW,
                 "docs/lds-model.md §2.6: assumed = sm_90 (measured on H100); same 32 x 4 B shared-memory banks");
    set_note(a, "NVIDIA A100 (warp 32, 32 banks x 4 B): phases assumed as measured on sm_90; the load fold "
                "rule is extrapolated (low).");
}

/* ---- more GPUs as data: NVIDIA sm_75 .. sm_120, RDNA 2 / 3, Intel Xe-HPG ---- */

static const char src_nv_assumed[] =
    "docs/lds-model.md §2.6: assumed = sm_90 phases (measured on H100 only); 32 banks x 4 B per CUDA guide";

static void build_nvidia_assumed(layout_arch *a, const char *name, const char *note)
{
    build_nvidia(a, name, MED, LOW, src_nv_assumed);
    set_note(a, note);
}

static void build_sm75(layout_arch *a, const char *name)
{
    build_nvidia_assumed(a, name,
                         "NVIDIA Turing (sm_75; warp 32, 32 banks x 4 B, docs/lds-model.md §2.6). Phases assumed as measured on "
                         "sm_90 (8 B: 16 lanes, 16 B: 8 lanes); the load fold rule was measured on sm_90 only (low).");
}

static void build_sm86(layout_arch *a, const char *name)
{
    build_nvidia_assumed(a, name,
                         "NVIDIA Ampere GA10x (sm_86; warp 32, 32 banks x 4 B). Phases assumed as measured on sm_90; "
                         "the load fold rule was measured on sm_90 only (low).");
}

static void build_sm89(layout_arch *a, const char *name)
{
    build_nvidia_assumed(a, name,
                         "NVIDIA Ada (sm_89; warp 32, 32 banks x 4 B, docs/lds-model.md §2.6). Phases assumed as measured on "
                         "sm_90; the load fold rule was measured on sm_90 only (low).");
}

static void build_sm100(layout_arch *a, const char *name)
{
    build_nvidia_assumed(a, name,
                         "NVIDIA Blackwell B200 (sm_100; warp 32, 32 banks x 4 B, docs/lds-model.md §2.6). Phases assumed as "
                         "measured on sm_90; the load fold rule was measured on sm_90 only (low).");
}

static void build_sm120(layout_arch *a, const char *name)
{
    build_nvidia_assumed(a, name,
                         "NVIDIA Blackwell RTX 50 (sm_120; warp 32, 32 banks x 4 B, docs/lds-model.md §2.6). Phases assumed as "
                         "measured on sm_90; the load fold rule was measured on sm_90 only (low).");
}

/* Volta: the CUDA C++ Programming Guide, "Compute Capability 7.x",
 * Shared Memory: 32 banks, successive 32-bit words in successive banks,
 * 32 bits per bank per clock -- the model of sm_80 for 32-bit accesses;
 * the wider phases are assumed as measured on sm_90. */
static void build_sm70(layout_arch *a, const char *name)
{
    build_nvidia_assumed(a, name,
                         "NVIDIA Volta (sm_70; warp 32, 32 banks x 4 B per the CUDA Programming Guide, compute "
                         "capability 7.x). Phases assumed as measured on sm_90; the load fold rule was measured on "
                         "sm_90 only (low).");
}

/* RDNA wave64: one wave64 LDS instruction is assumed to be served as two
 * wave32 halves (lanes 0-31, then 32-63), each with the wave32 groups. */
static void build_rdna_w64(layout_arch *a, const char *name)
{
    static const char src[] =
        "docs/lds-model.md §2.4: assumed wave64 served as two wave32 halves, each with the RDNA wave32 groups";
    layout_arch_init(a, name, 32, 4, 64, NULL);
    a->bank_confidence = LOW;
    for (int d = 0; d < 2; d++) {
        for (int w = 1; w <= 4; w *= 2) set_run(a, d, w, 32, LOW, src);
        set_run(a, d, 8, 16, LOW, src);
        set_run(a, d, 12, 8, LOW, src);
        set_run(a, d, 16, 8, LOW, src);
    }
}

static void build_gfx1030(layout_arch *a, const char *name)
{
    build_rdna(a, name, 32, LOW, "docs/lds-model.md §2.4: RDNA 16 B: 8 consecutive lanes");
    set_note(a, "RDNA2 (gfx1030) wave32, CU mode: 32 banks x 4 B as ck_tile and Triton model RDNA (low). Lane "
                "groups of docs/lds-model.md §2.4 (32/16/8 lanes for <=4/8/16 B); wave64: gfx1030-w64.");
}

static void build_gfx1030_w64(layout_arch *a, const char *name)
{
    build_rdna_w64(a, name);
    set_note(a, "RDNA2 (gfx1030) wave64 mode: lane grouping not published. Assumed: the two wave32 halves are "
                "served one after the other, each like gfx1030 (32 banks, 32/16/8-lane groups); every rule low.");
}

static void build_gfx1100(layout_arch *a, const char *name)
{
    build_gfx11_banks(a, name, 32);
    set_note(a, "RDNA3 (gfx1100) wave32, CU mode: 32 banks x 4 B (ck_tile, Triton; IREE's 64 is WGP mode: "
                "layout_arch_gfx11(64)). Same model as gfx11; wave64: gfx1100-w64.");
}

static void build_gfx1100_w64(layout_arch *a, const char *name)
{
    build_rdna_w64(a, name);
    a->isa_features = LAYOUT_ISA_DS_LOAD_STORE_NAMES; /* GFX11, as gfx1100 */
    set_note(a, "RDNA3 (gfx1100) wave64 mode: lane grouping not published. Assumed: the two wave32 halves are "
                "served one after the other, each like gfx1100 (32 banks, 32/16/8-lane groups); every rule low.");
}

/* Intel Xe-HPG SLM (docs/lds-model.md §2.7): 16 banks x 4 B.  The model needs a 32- or
 * 64-lane wave: SIMD32, served as two SIMD16 halves (16 lanes x 4 B = one
 * 64-byte SLM access per clock). */
static void build_xe_hpg(layout_arch *a, const char *name)
{
    static const char src[] =
        "docs/lds-model.md §2.7: assumed 16 banks x 4 B serve 64 B per clock; SIMD32 split into 16-lane halves";
    layout_arch_init(a, name, 16, 4, 32, NULL);
    a->bank_confidence = MED;
    a->ds_forms = 0; /* Intel's compiler and ISA: no read2 / write2; unaligned SLM access not assumed */
    for (int d = 0; d < 2; d++) {
        for (int w = 1; w <= 4; w *= 2) set_run(a, d, w, 16, LOW, src);
        set_run(a, d, 8, 8, LOW, src);
        set_run(a, d, 12, 4, LOW, src);
        set_run(a, d, 16, 4, LOW, src);
    }
    set_note(a, "Intel Xe-HPG style SLM: 16 banks x 4 B (docs/lds-model.md §2.7, bank count medium). Lane grouping not "
                "published. Assumed: SIMD32 waves served 64 bytes per clock, i.e. 16 lanes x 4 B, 8 x 8 B, "
                "4 x 16 B consecutive lanes; every rule low.");
}

typedef void (*preset_builder)(layout_arch *a, const char *name);

static const struct {
    const char *name;
    preset_builder build;
} presets[] = {
    {"gfx90a", build_gfx90a}, {"gfx942", build_gfx942}, {"gfx950", build_gfx950},
    {"gfx950-b32x64", build_gfx950_b32x64}, {"gfx11", build_gfx11}, {"gfx12", build_gfx12},
    {"sm_80", build_sm80}, {"sm_90", build_sm90},
    /* more GPUs (assumed from the measured ones, docs/lds-model.md §2.6, §2.4, §2.7) */
    {"gfx940", build_gfx940}, {"sm_70", build_sm70}, {"sm_75", build_sm75}, {"sm_86", build_sm86}, {"sm_89", build_sm89}, {"sm_100", build_sm100},
    {"sm_120", build_sm120}, {"gfx1030", build_gfx1030}, {"gfx1030-w64", build_gfx1030_w64},
    {"gfx1100", build_gfx1100}, {"gfx1100-w64", build_gfx1100_w64}, {"xe-hpg", build_xe_hpg},
};
enum { N_PRESETS = sizeof presets / sizeof presets[0] };

size_t layout_arch_preset_count(void) { return N_PRESETS; }

const char *layout_arch_preset_name(size_t index) { return index < N_PRESETS ? presets[index].name : NULL; }

/* The preset names, in table order, for the name functions of arch_names.c. */
static void preset_names(const char *names[N_PRESETS])
{
    for (size_t i = 0; i < N_PRESETS; i++) names[i] = presets[i].name;
}

const char *layout_arch_canonical_name(const char *name)
{
    const char *names[N_PRESETS];
    preset_names(names);
    return layout_arch_names_resolve(name, names, N_PRESETS);
}

const char *layout_arch_closest_name(const char *name, const char **alias)
{
    const char *names[N_PRESETS];
    preset_names(names);
    return layout_arch_names_closest(name, names, N_PRESETS, alias);
}

layout_vendor layout_arch_vendor(const layout_arch *arch)
{
    if (!arch) return LAYOUT_VENDOR_UNKNOWN;
    char name[LAYOUT_ARCH_NAME_CAP];
    const char *end = memchr(arch->name, '\0', sizeof name - 1);
    size_t n = end ? (size_t)(end - arch->name) : sizeof name - 1;
    memcpy(name, arch->name, n);
    name[n] = '\0';
    const char *canonical = layout_arch_canonical_name(name);
    const char *p = canonical ? canonical : name;
    if (strncmp(p, "sm_", 3) == 0) return LAYOUT_VENDOR_NVIDIA;
    if (strncmp(p, "gfx", 3) == 0) return LAYOUT_VENDOR_AMD;
    if (strncmp(p, "xe", 2) == 0) return LAYOUT_VENDOR_INTEL;
    if (arch->ds_forms == 0 && arch->wave_size == 32) return LAYOUT_VENDOR_NVIDIA;
    if (arch->ds_forms & LAYOUT_DS_FORMS_AMD) return LAYOUT_VENDOR_AMD;
    return LAYOUT_VENDOR_UNKNOWN;
}

const char *layout_vendor_name(layout_vendor vendor)
{
    switch (vendor) {
    case LAYOUT_VENDOR_AMD: return "AMD";
    case LAYOUT_VENDOR_NVIDIA: return "NVIDIA";
    case LAYOUT_VENDOR_INTEL: return "Intel";
    case LAYOUT_VENDOR_UNKNOWN: break;
    }
    return "unknown";
}

const char *layout_vendor_wave_word(layout_vendor vendor)
{
    return vendor == LAYOUT_VENDOR_NVIDIA ? "warp" : vendor == LAYOUT_VENDOR_INTEL ? "sub-group" : "wave";
}

layout_status layout_arch_preset(const char *name, layout_arch *out, layout_error *err)
{
    if (!name) return layout_fail(err, LAYOUT_ERR_NULL, "layout_arch_preset: name is NULL");
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_arch_preset: out is NULL");
    const char *canonical = layout_arch_canonical_name(name);
    for (size_t i = 0; canonical && i < N_PRESETS; i++)
        if (strcmp(presets[i].name, canonical) == 0) { /* by content: the alias table's literals need not be merged with ours */
            layout_arch tmp;
            presets[i].build(&tmp, presets[i].name);
            *out = tmp;
            return layout_ok(err);
        }
    const char *alias = NULL, *close = layout_arch_closest_name(name, &alias);
    if (close && alias)
        return layout_fail(err, LAYOUT_ERR_NOT_FOUND,
                           "layout_arch_preset: name = \"%.40s\" is unknown; did you mean %s (%s)?", name, alias,
                           close);
    if (close)
        return layout_fail(err, LAYOUT_ERR_NOT_FOUND, "layout_arch_preset: name = \"%.40s\" is unknown; did you mean %s?",
                           name, close);
    return layout_fail(err, LAYOUT_ERR_NOT_FOUND,
                       "layout_arch_preset: name = \"%.40s\" is unknown (known e.g. gfx942, gfx950, sm_90, sm_80, "
                       "H100, MI300X, cuda:90, hip:gfx942; layout_arch_preset_name() and layout_arch_alias_name() "
                       "list all)",
                       name);
}

layout_status layout_arch_gfx11(int n_banks, layout_arch *out, layout_error *err)
{
    if (!out) return layout_fail(err, LAYOUT_ERR_NULL, "layout_arch_gfx11: out is NULL");
    if (n_banks < 1 || n_banks > LAYOUT_MAX_BANKS || (n_banks & (n_banks - 1)))
        return layout_fail(err, LAYOUT_ERR_ARG, "layout_arch_gfx11: n_banks = %d must be a power of two in 1..%d",
                           n_banks, LAYOUT_MAX_BANKS);
    layout_arch tmp;
    build_gfx11_banks(&tmp, "gfx11", n_banks);
    *out = tmp;
    return layout_ok(err);
}
