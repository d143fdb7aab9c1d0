/**
 * @file arch.h
 * @brief GPU architectures as data: banks, wave size, lane groups, fold rules.
 *
 * The checker (check.h) knows nothing about any GPU: everything it needs is in
 * a ::layout_arch value.  `bank(addr) = (addr / bank_width_bytes) % n_banks`;
 * the active lanes of one instruction are split into fixed **lane groups**
 * (hardware phases) chosen by (direction, width); groups never conflict with
 * each other.  Example, gfx942 `ds_read_b128` (8 groups of 8 lanes,
 * `phase = t5 | (t2^t4)<<1 | t3<<2` over lane bits t):
 *
 *     group 0: lanes  0- 3, 20-23     group 4: lanes 32-35, 52-55
 *     group 1: lanes  4- 7, 16-19     group 5: lanes 36-39, 48-51
 *     group 2: lanes  8-11, 28-31     group 6: lanes 40-43, 60-63
 *     group 3: lanes 12-15, 24-27     group 7: lanes 44-47, 56-59
 *
 * (groups are numbered in order of their lowest lane).  A rule may carry a
 * **fold**: NVIDIA 8/16-byte loads use groups twice as large when every
 * active lane l whose partner `l ^ m` is active has that lane's address, for
 * one of the rule's xor masks m (docs/lds-model.md §2.5); the rule then lists
 * the merged groups.  A group without an active lane costs
 * ::layout_arch::idle_group_cycles: 1 on AMD, 0 on NVIDIA (§3.2).
 *
 * Presets (layout_arch_preset()): "gfx90a", "gfx942", "gfx950",
 * "gfx950-b32x64", "gfx11", "gfx12", "sm_80", "sm_90", and more GPUs
 * (docs/lds-model.md §2.4, §2.6, §2.7): "sm_75", "sm_86", "sm_89", "sm_100",
 * "sm_120" (32 banks x
 * 4 B; phases assumed from sm_90, the load fold measured on sm_90 only),
 * "gfx1030", "gfx1100" (RDNA 2 / 3 wave32, 32 banks), "gfx1030-w64",
 * "gfx1100-w64" (their wave64 modes: two wave32 halves assumed), "xe-hpg"
 * (Intel Xe-HPG style SLM, 16 banks x 4 B, 16-lane groups assumed).  Product
 * names and Triton targets name presets too (layout_arch_alias_name():
 * "H100", "H200" -> sm_90, "B200" -> sm_100, "A100" -> sm_80, "MI300X",
 * "MI325X" -> gfx942, "MI355X" -> gfx950, "cuda:90", "hip:gfx942"; any
 * case).  Every rule records its
 * source and a ::layout_confidence; layout_arch_format() prints them.  Users
 * build their own with layout_arch_init() + layout_arch_set_groups() /
 * layout_arch_set_consecutive() / layout_arch_set_fold(), then
 * layout_arch_validate().
 *
 * Ownership: ::layout_arch is a plain caller-owned value (about 6 KiB, no
 * pointers); copy it freely.  Thread safety: every function is reentrant;
 * presets are built from constant tables.  Errors: every fallible function
 * returns a ::layout_status and leaves its out-parameters untouched on error.
 */
#ifndef LAYOUT_ARCH_H
#define LAYOUT_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include "layout/instr.h"
#include "layout/limits.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum lane groups of one rule (16 = phases of 4 lanes on a wave64). */
#define LAYOUT_MAX_LANE_GROUPS 16
/** Maximum fold xor masks of one rule. */
#define LAYOUT_MAX_FOLDS 4
/** Maximum bank count of an architecture (gfx950 has 64). */
#define LAYOUT_MAX_BANKS 64
/** Capacity of ::layout_arch::name, including the NUL. */
#define LAYOUT_ARCH_NAME_CAP 32
/** Capacity of ::layout_lane_rule::source, including the NUL. */
#define LAYOUT_ARCH_SOURCE_CAP 160
/** Capacity of ::layout_arch::note, including the NUL. */
#define LAYOUT_ARCH_NOTE_CAP 400

/** How well a rule is established (docs/lds-model.md §2.8). */
typedef enum layout_confidence {
    LAYOUT_CONFIDENCE_LOW = 0,    /**< assumed or extrapolated; treat results as a hint */
    LAYOUT_CONFIDENCE_MEDIUM = 1, /**< documented or partly measured */
    LAYOUT_CONFIDENCE_HIGH = 2    /**< measured with hardware counters / several sources agree */
} layout_confidence;

/** "low", "medium" or "high"; "?" for other values.  Never NULL. */
const char *layout_confidence_name(layout_confidence confidence);

/**
 * Lane groups of one (direction, width) of an architecture.
 *
 * `groups[i]` is a 64-bit lane mask; the groups of a supported rule are
 * disjoint, non-empty and together cover lanes 0..wave_size-1.  Optional fold
 * (loads on NVIDIA): when, for some m in `fold_xor[0..n_fold_xors-1]`, every
 * active lane l has the address of lane `l ^ m` or that lane is inactive, the
 * checker uses `fold_groups` instead of `groups`.
 */
typedef struct layout_lane_rule {
    int supported;                                /**< 0: the arch has no instruction of this width/direction */
    int n_groups;                                 /**< number of lane groups, 1..::LAYOUT_MAX_LANE_GROUPS */
    uint64_t groups[LAYOUT_MAX_LANE_GROUPS];      /**< lane mask of each group, sorted by lowest lane */
    int n_fold_xors;                              /**< 0 = no fold rule; else 1..::LAYOUT_MAX_FOLDS */
    int fold_xor[LAYOUT_MAX_FOLDS];               /**< lane-xor masks, each 1..wave_size-1 */
    int n_fold_groups;                            /**< number of groups used when the fold applies */
    uint64_t fold_groups[LAYOUT_MAX_LANE_GROUPS]; /**< lane masks of the folded (merged) groups */
    layout_confidence confidence;                 /**< confidence of `groups` */
    layout_confidence fold_confidence;            /**< confidence of the fold rule (meaningful if n_fold_xors > 0) */
    char source[LAYOUT_ARCH_SOURCE_CAP];          /**< where the rule comes from (NUL-terminated) */
} layout_lane_rule;

/**
 * Instruction forms of an architecture's LDS accesses, for the compiler
 * model of access.h (docs/emit.md rules R1, R4; docs/calibrate.md N2).
 */
typedef enum layout_ds_form {
    LAYOUT_DS_FORM_PAIRED = 1,    /**< read2 / write2 (b32, b64, st64): AMD's DS ISA; NVIDIA has none */
    LAYOUT_DS_FORM_UNALIGNED = 2  /**< sub-dword-aligned runs go in wide accesses (LLVM's unaligned DS access mode: on for HSA on gfx90a and later and on RDNA) */
} layout_ds_form;

/** AMD's forms (paired and unaligned), the default of layout_arch_init() and of an access plan without an arch. */
#define LAYOUT_DS_FORMS_AMD (LAYOUT_DS_FORM_PAIRED | LAYOUT_DS_FORM_UNALIGNED)

/**
 * ISA features the Triton kernel model (triton_kernel.h) follows, one bit
 * each in ::layout_arch::isa_features; each preset sets those of its ISA
 * (tests/test_arch.c cites the sources), so that a new architecture is
 * one table entry, not a name the lowering recognises.
 */
typedef enum layout_isa_feature {
    LAYOUT_ISA_DS_LOAD_STORE_NAMES = 1, /**< the DS mnemonics are ds_load_* / ds_store_* (ds_load_2addr_*, ...), not ds_read_* / ds_write_*: GFX11 and GFX12 */
    LAYOUT_ISA_DS_READ_TR = 2,          /**< ds_read_b64_tr_b8 / _b16, the transposing LDS reads: gfx950 */
    LAYOUT_ISA_LDS_DMA_B32 = 4,         /**< 32-bit direct-to-LDS loads as Triton lowers them (global_load_lds_dword, buffer_load_dword ... lds): CDNA3, CDNA4 */
    LAYOUT_ISA_LDS_DMA_B128 = 8,        /**< 128-bit direct-to-LDS loads (global_load_lds_dwordx4): CDNA4 */
    LAYOUT_ISA_CVT_PK_F16_F32 = 16      /**< v_cvt_pk_f16_f32 / v_cvt_pk_bf16_f32: two f32 converted into one 32-bit
                                             register, the second in its high half: CDNA4 */
} layout_isa_feature;

/** Every ::layout_isa_feature bit. */
#define LAYOUT_ISA_FEATURES_ALL \
    (LAYOUT_ISA_DS_LOAD_STORE_NAMES | LAYOUT_ISA_DS_READ_TR | LAYOUT_ISA_LDS_DMA_B32 | LAYOUT_ISA_LDS_DMA_B128 | \
     LAYOUT_ISA_CVT_PK_F16_F32)

/**
 * An architecture's LDS / shared-memory model.
 *
 * `bank(addr) = (addr / bank_width_bytes) % n_banks`; the word ("dword" for
 * 4-byte banks) of a byte is `addr / bank_width_bytes`.  `rules[d][w]` holds
 * the lane groups for direction d (::layout_direction) and width index w
 * (layout_width_index(): 1, 2, 4, 8, 12, 16 bytes).
 */
typedef struct layout_arch {
    char name[LAYOUT_ARCH_NAME_CAP];                  /**< e.g. "gfx942" (NUL-terminated, non-empty) */
    int n_banks;                                      /**< bank count: a power of two in 1..::LAYOUT_MAX_BANKS */
    int bank_width_bytes;                             /**< bytes per bank word: 4 or 8 */
    int wave_size;                                    /**< lanes per wave / warp: 32 or 64 */
    layout_confidence bank_confidence;                /**< confidence of n_banks / bank_width_bytes */
    layout_lane_rule rules[2][LAYOUT_N_WIDTHS];       /**< [direction][width index] */
    char note[LAYOUT_ARCH_NOTE_CAP];                  /**< free text: provenance, caveats (NUL-terminated) */
    unsigned ds_forms;                                /**< ::layout_ds_form bits: the DS instruction forms the compiler may use (access.h step 2) */
    /** Cycles a lane group without an active lane costs, 0 or 1: 1 on AMD
     * (rocprofiler-compute's one-lane b32 example: 2 cycles over two groups),
     * 0 on NVIDIA (measured: tests/fixtures/h100/partial, a phase with no
     * active lane adds no wavefront).  layout_arch_init() sets 1. */
    int idle_group_cycles;
    /** ::layout_isa_feature bits: what the ISA has that the Triton kernel
     * model follows (the DS mnemonics' names, transposing reads,
     * direct-to-LDS load widths).  layout_arch_init() sets none; the
     * text form (text.h) does not carry them (`arch(base=P, ...)` keeps
     * preset P's). */
    unsigned isa_features;
} layout_arch;

/**
 * Start a user-defined architecture with no supported width.
 *
 * Example: `layout_arch_init(&a, "toy16", 16, 4, 64, &err)` then
 * `layout_arch_set_consecutive(&a, LAYOUT_READ, 4, 16, ...)`.
 * Errors: ::LAYOUT_ERR_NULL (out, name); ::LAYOUT_ERR_ARG for an empty name or
 * one of ::LAYOUT_ARCH_NAME_CAP bytes or more, n_banks not a power of two in
 * 1..64, bank_width_bytes not 4/8, wave_size not 32/64.
 */
layout_status layout_arch_init(layout_arch *out, const char *name, int n_banks, int bank_width_bytes,
                               int wave_size, layout_error *err);

/**
 * Set the lane groups of (direction, width) from @p n_groups lane masks
 * (sorted by lowest lane by this call), with a confidence and a source text
 * (may be NULL; truncated to ::LAYOUT_ARCH_SOURCE_CAP - 1 bytes).  Removes
 * any fold rule of that entry.
 *
 * Errors: ::LAYOUT_ERR_NULL (arch, groups); ::LAYOUT_ERR_ARG for a bad
 * direction, width or confidence, an empty group, overlapping groups, lanes
 * at or above wave_size, or lanes missing from every group;
 * ::LAYOUT_ERR_CAPACITY for n_groups outside 1..::LAYOUT_MAX_LANE_GROUPS.
 */
layout_status layout_arch_set_groups(layout_arch *arch, layout_direction direction, int width_bytes,
                                     const uint64_t *groups, int n_groups, layout_confidence confidence,
                                     const char *source, layout_error *err);

/**
 * Set (direction, width) to groups of @p lanes_per_group consecutive lanes
 * (0..n-1, n..2n-1, ...).  Example: 8 on a wave64 -> 8 groups.
 * Errors as layout_arch_set_groups(), plus ::LAYOUT_ERR_ARG when
 * lanes_per_group does not divide wave_size.
 */
layout_status layout_arch_set_consecutive(layout_arch *arch, layout_direction direction, int width_bytes,
                                          int lanes_per_group, layout_confidence confidence,
                                          const char *source, layout_error *err);

/**
 * Add a fold rule to a supported (direction, width): lane-xor masks
 * @p xors[0..n_xors-1] and the merged groups used when one of them applies.
 *
 * Errors: ::LAYOUT_ERR_NULL (arch, xors, fold_groups); ::LAYOUT_ERR_UNSUPPORTED
 * when the entry has no groups yet; ::LAYOUT_ERR_ARG for a mask outside
 * 1..wave_size-1, fold groups that do not partition the lanes or are not a
 * union of the entry's groups; ::LAYOUT_ERR_CAPACITY for counts out of range.
 */
layout_status layout_arch_set_fold(layout_arch *arch, layout_direction direction, int width_bytes,
                                   const int *xors, int n_xors, const uint64_t *fold_groups,
                                   int n_fold_groups, layout_confidence confidence, layout_error *err);

/**
 * Check every field (name, banks, wave size, each supported rule's groups and
 * fold).  The checker calls this before using an arch.
 * Errors: ::LAYOUT_ERR_NULL, ::LAYOUT_ERR_ARG, ::LAYOUT_ERR_CAPACITY, with a
 * message such as "layout_arch_validate: rules[read][b32].groups[1] = 0x... overlaps groups[0]".
 */
layout_status layout_arch_validate(const layout_arch *arch, layout_error *err);

/**
 * The rule for (direction, width), or NULL when arch is NULL, the direction
 * is bad or the width is not one of 1, 2, 4, 8, 12, 16.  The returned rule
 * may be unsupported (`supported == 0`).  Borrowed pointer into *arch.
 */
const layout_lane_rule *layout_arch_rule(const layout_arch *arch, layout_direction direction,
                                         int width_bytes);

/** Number of preset architectures (18). */
size_t layout_arch_preset_count(void);

/**
 * Name of preset @p index (0 ..layout_arch_preset_count()-1), e.g. "gfx942";
 * NULL when out of range.  Static storage.
 */
const char *layout_arch_preset_name(size_t index);

/**
 * Fill @p out with the preset @p name means: a preset name or an alias
 * (layout_arch_canonical_name(): case-insensitive; "H100", "cuda:90" ->
 * sm_90, "MI300X", "hip:gfx942" -> gfx942).  The result carries the
 * preset's own name ("sm_90"), whatever was typed.
 *
 * Example: `layout_arch_preset("h200", &a, &err)` gives a.name "sm_90".
 * Errors: ::LAYOUT_ERR_NULL (name, out); ::LAYOUT_ERR_NOT_FOUND for an unknown
 * name.  The message suggests the closest known name when one is close
 * (layout_arch_closest_name()): "name = \"sm90\" is unknown; did you mean
 * sm_90?", "name = \"h10\" is unknown; did you mean H100 (sm_90)?"; else it
 * names a few known ones.  Thread-safe (constant tables only).
 */
layout_status layout_arch_preset(const char *name, layout_arch *out, layout_error *err);

/** Who makes an architecture's GPU: decides the vocabulary reports use. */
typedef enum layout_vendor {
    LAYOUT_VENDOR_UNKNOWN = 0, /**< a custom architecture that names no known target */
    LAYOUT_VENDOR_AMD = 1,     /**< gfx targets: DS instructions, waves, SQ_ counters (rocprofv3) */
    LAYOUT_VENDOR_NVIDIA = 2,  /**< sm_ targets: PTX ld/st.shared, warps, Nsight Compute metrics */
    LAYOUT_VENDOR_INTEL = 3    /**< Xe: shared local memory, sub-groups */
} layout_vendor;

/**
 * The vendor of @p arch, read from its name, else from its shape.
 *
 * `vendor = by prefix of canonical(name) (layout_arch_canonical_name(), or
 * the name itself when it is no known name): "sm_" -> NVIDIA, "gfx" -> AMD,
 * "xe" -> Intel; otherwise NVIDIA for a 32-lane architecture without AMD's
 * paired / unaligned DS forms (ds_forms == 0, as `arch(..., ds=none)` and
 * every sm_ preset have), AMD when ds_forms has AMD's forms, else unknown`.
 * Examples: sm_90, "H100" -> NVIDIA; gfx942, `arch(base=gfx942,
 * name=mi300-64, banks=64)` -> AMD; `arch(base=sm_90, name=h100-x)` ->
 * NVIDIA (ds=none, wave 32).  NULL -> unknown.  Pure, thread-safe.
 */
layout_vendor layout_arch_vendor(const layout_arch *arch);

/** "AMD", "NVIDIA", "Intel" or "unknown" (also for values outside the enum).  Never NULL. */
const char *layout_vendor_name(layout_vendor vendor);

/**
 * What the vendor calls the lanes that issue one instruction together:
 * "warp" (NVIDIA), "sub-group" (Intel), "wave" (AMD and unknown).  Never NULL.
 */
const char *layout_vendor_wave_word(layout_vendor vendor);

/**
 * Number of aliases: names users type for a preset besides its own name,
 * i.e. product names ("H100", "B200", "MI300X", "MI355X") and Triton target
 * strings ("cuda:90", "hip:gfx942", "sm_90a").  Constant.
 */
size_t layout_arch_alias_count(void);

/**
 * Alias @p index (0 .. layout_arch_alias_count()-1) as it is listed, e.g.
 * "H100"; NULL when out of range.  Static storage, thread-safe.
 */
const char *layout_arch_alias_name(size_t index);

/**
 * The preset alias @p index stands for, e.g. "sm_90" for "H100"; NULL when
 * out of range.  Static storage, thread-safe.
 */
const char *layout_arch_alias_preset(size_t index);

/**
 * The preset name @p name means, or NULL when it means none.
 *
 * `canonical(name) = the preset p with lower(name) == lower(p), else the
 * preset of the alias a with lower(name) == lower(a), else, for a gfx
 * target with ROCm features ("gfx90a:sramecc+:xnack-", "hip:gfx942:xnack-"),
 * the preset of the plain target`.  Examples: "SM_90" -> "sm_90",
 * "h100" -> "sm_90", "CUDA:80" -> "sm_80", "MI325X" -> "gfx942",
 * "mi355x" -> "gfx950", "sm90" -> NULL (a typo: see
 * layout_arch_closest_name()).  Returns the static string of
 * layout_arch_preset_name(); thread-safe; NULL for NULL.
 */
const char *layout_arch_canonical_name(const char *name);

/**
 * The preset a mistyped @p name most likely means, for "did you mean"
 * messages; NULL when no known name is close.
 *
 * Both names are compared lower-case without '_', '-', ':', '.' and ' ';
 * the distance is the optimal-string-alignment edit distance (insert,
 * delete, substitute, swap two neighbours); the closest preset name or
 * alias wins (the first listed on a tie) when it is within 1 edit for a
 * name of at most 6 such characters, within 2 otherwise.  Examples:
 * "sm90" -> "sm_90" (distance 0), "gfx94" -> "gfx942", "h10" -> "sm_90"
 * with *alias = "H100", "gfx0" -> NULL.  @p alias (may be NULL) receives
 * the alias spelled when the closest name is an alias, else NULL.
 * Static strings; thread-safe.
 */
const char *layout_arch_closest_name(const char *name, const char **alias);

/**
 * RDNA3 (gfx11, wave32) with an explicit bank count.
 *
 * docs/lds-model.md §2.4: ck_tile and Triton model RDNA LDS with 32 banks;
 * IREE uses
 * 64 (a WGP-mode view of the two CUs' LDS halves).  The preset "gfx11" uses
 * 32 because the per-CU-mode LDS a single wave sees is 32 banks wide and two
 * of three independent sources agree; call this with 64 to model WGP mode.
 * Groups: <= 4 B: 32 lanes; 8 B: 16 consecutive lanes; 12/16 B: 8.
 * Errors: ::LAYOUT_ERR_NULL (out); ::LAYOUT_ERR_ARG for n_banks not a power of
 * two in 1..64.
 */
layout_status layout_arch_gfx11(int n_banks, layout_arch *out, layout_error *err);

/**
 * Human-readable description of @p arch (banks, wave size - "wave64", or
 * "warp32" on NVIDIA (layout_arch_vendor()) -, every rule with its
 * groups, fold, confidence and source, then the note) into @p buf with
 * snprintf semantics: at most cap-1 characters plus a NUL are written (buf
 * may be NULL when cap is 0) and *needed (if non-NULL) receives the full
 * length.  Truncation is not an error.
 * Errors: ::LAYOUT_ERR_NULL for arch == NULL or buf == NULL with cap > 0.
 */
layout_status layout_arch_format(const layout_arch *arch, char *buf, size_t cap, size_t *needed,
                                 layout_error *err);

/**
 * Render a lane mask as ranges: 0x00F0000F -> "0-3,20-23"; 0 -> "none".
 * snprintf semantics; returns the full length.  Never fails (buf may be
 * NULL when cap is 0).
 */
size_t layout_lane_mask_format(uint64_t mask, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_ARCH_H */
