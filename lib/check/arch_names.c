/* Names users type for an architecture: product names and Triton target
 * strings as aliases of the presets, case-insensitive lookup, and the
 * closest known name for a typo.  The preset table itself lives in
 * arch_presets.c, which calls in here with its names (one way only). */
#include "check_internal.h"
#include "layout/arch.h"

#include <string.h>

/* Alias -> preset.  Product names (the GPU's compute capability or gfx
 * target as its vendor documents it) and the target strings Triton prints
 * (`ttg.target`: "cuda:<cc>", "hip:<gfx>"; NVIDIA's "sm_90a" feature
 * targets).  Order: the first of equally close names wins a suggestion. */
static const struct {
    const char *alias;
    const char *preset;
} k_aliases[] = {
    /* NVIDIA: compute capability 9.0 (Hopper) */
    {"H100", "sm_90"}, {"H200", "sm_90"}, {"H800", "sm_90"}, {"GH200", "sm_90"},
    /* 10.0 (Blackwell data centre), 8.0 (A100), 8.6, 8.9, 7.5, 7.0 (V100), 12.0 */
    {"B200", "sm_100"}, {"B100", "sm_100"}, {"GB200", "sm_100"},
    {"A100", "sm_80"}, {"A10", "sm_86"}, {"A40", "sm_86"},
    {"L4", "sm_89"}, {"L40S", "sm_89"}, {"T4", "sm_75"}, {"V100", "sm_70"}, {"RTX5090", "sm_120"},
    /* AMD: gfx942 (CDNA3), gfx950 (CDNA4), gfx90a (CDNA2) */
    {"MI300X", "gfx942"}, {"MI300A", "gfx942"}, {"MI325X", "gfx942"},
    {"MI350X", "gfx950"}, {"MI355X", "gfx950"},
    {"MI250X", "gfx90a"}, {"MI250", "gfx90a"}, {"MI210", "gfx90a"},
    /* Triton targets */
    {"cuda:90", "sm_90"}, {"cuda:80", "sm_80"}, {"cuda:100", "sm_100"}, {"cuda:75", "sm_75"}, {"cuda:70", "sm_70"},
    {"cuda:86", "sm_86"}, {"cuda:89", "sm_89"}, {"cuda:120", "sm_120"},
    {"sm_90a", "sm_90"}, {"sm_100a", "sm_100"},
    {"hip:gfx942", "gfx942"}, {"hip:gfx950", "gfx950"}, {"hip:gfx90a", "gfx90a"}, {"hip:gfx940", "gfx940"},
    {"hip:gfx1030", "gfx1030"}, {"hip:gfx1100", "gfx1100"},
    /* RDNA4 (gfx1200, gfx1201) and gfx1250: the gfx12 preset (its note says what is assumed) */
    {"gfx1200", "gfx12"}, {"gfx1201", "gfx12"}, {"gfx1250", "gfx12"},
    {"hip:gfx1200", "gfx12"}, {"hip:gfx1201", "gfx12"}, {"hip:gfx1250", "gfx12"},
};
enum { N_ALIASES = sizeof k_aliases / sizeof k_aliases[0] };

size_t layout_arch_alias_count(void) { return N_ALIASES; }

const char *layout_arch_alias_name(size_t index) { return index < N_ALIASES ? k_aliases[index].alias : NULL; }

const char *layout_arch_alias_preset(size_t index) { return index < N_ALIASES ? k_aliases[index].preset : NULL; }

static char lower(char ch) { return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch; }

static int same_ci(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (lower(*a) != lower(*b)) return 0;
    return *a == *b;
}

/* Compare a name without its ROCm target features ("gfx90a:sramecc+:xnack-"
 * -> "gfx90a") when it names a gfx target; the whole name otherwise. */
static int same_target_ci(const char *typed, const char *known)
{
    size_t n = strlen(known);
    const char *t = typed;
    if (same_ci(typed, known)) return 1;
    if (lower(t[0]) != 'g' || lower(t[1]) != 'f' || lower(t[2]) != 'x') return 0;
    if (strncmp(known, "gfx", 3) != 0 || strlen(t) <= n || t[n] != ':') return 0;
    for (size_t i = 0; i < n; i++)
        if (lower(t[i]) != known[i]) return 0;
    return 1;
}

const char *layout_arch_names_resolve(const char *name, const char *const *presets, size_t n_presets)
{
    const char *t = name;
    if (!name) return NULL;
    for (size_t i = 0; i < n_presets; i++)
        if (same_ci(name, presets[i])) return presets[i];
    for (size_t i = 0; i < N_ALIASES; i++)
        if (same_ci(name, k_aliases[i].alias)) return k_aliases[i].preset;
    /* "hip:gfx942:sramecc+:xnack-" and "gfx942:sramecc+" */
    if (lower(t[0]) == 'h' && lower(t[1]) == 'i' && lower(t[2]) == 'p' && t[3] == ':') t += 4;
    for (size_t i = 0; i < n_presets; i++)
        if (same_target_ci(t, presets[i])) return presets[i];
    return NULL;
}

/* Lower case without the separators people drop or add: '_', '-', ':', '.',
 * ' '.  "SM_90" -> "sm90", "cuda:90" -> "cuda90".  Truncated at cap-1. */
static size_t normalise(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        if (*s != '_' && *s != '-' && *s != ':' && *s != '.' && *s != ' ') out[n++] = lower(*s);
    out[n] = '\0';
    return n;
}

/* Optimal-string-alignment distance (insert, delete, substitute, swap of
 * two neighbours), both strings at most 31 characters. */
static int distance(const char *a, size_t na, const char *b, size_t nb)
{
    int d[32][32];
    for (size_t i = 0; i <= na; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= nb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= na; i++)
        for (size_t j = 1; j <= nb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[na][nb];
}

const char *layout_arch_names_closest(const char *name, const char *const *presets, size_t n_presets,
                                      const char **alias)
{
    char typed[32], cand[32];
    size_t nt;
    int best = -1, limit;
    const char *best_preset = NULL, *best_alias = NULL;
    if (alias) *alias = NULL;
    if (!name) return NULL;
    nt = normalise(name, typed, sizeof typed);
    if (nt == 0) return NULL;
    /* One edit for names of up to 6 characters ("h10", "gfx94"; "gfx999" is
     * no gfx90a), two for longer ones ("gfx110-w64"). */
    limit = nt <= 6 ? 1 : 2;
    for (size_t i = 0; i < n_presets + N_ALIASES; i++) {
        const char *known = i < n_presets ? presets[i] : k_aliases[i - n_presets].alias;
        size_t nc = normalise(known, cand, sizeof cand);
        int dist = distance(typed, nt, cand, nc);
        if (dist <= limit && (best < 0 || dist < best)) {
            best = dist;
            best_preset = i < n_presets ? presets[i] : k_aliases[i - n_presets].preset;
            best_alias = i < n_presets ? NULL : known;
        }
    }
    if (alias) *alias = best_alias;
    return best_preset;
}
