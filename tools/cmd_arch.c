/* layout arch [NAME | arch(...)]: the presets, or one architecture's rules. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_arch = {
    "arch", "list the architecture presets, or show one architecture's rules",
    "usage: layout arch              list the presets and their aliases\n"
    "       layout arch NAME         one preset's rules, sources and confidence\n"
    "       layout arch 'arch(...)'  a custom architecture (see below), checked\n"
    "\n"
    "NAME is a preset (gfx942, sm_90, ...) or an alias, in any case: a product\n"
    "name (H100, H200 = sm_90, B200 = sm_100, A100 = sm_80, MI300X, MI300A,\n"
    "MI325X = gfx942, MI350X, MI355X = gfx950) or a Triton target (cuda:90,\n"
    "hip:gfx942).  An unknown name gets the closest known one suggested.\n"
    "Every --arch option of the other commands takes a NAME or a custom\n"
    "architecture in text form, e.g.\n"
    "  arch(name=rdna64, banks=64, bank_bytes=4, wave=32,\n"
    "       rw b8/b16/b32=seq(32), rw b64=seq(16), rw b96/b128=seq(8))\n"
    "  arch(base=gfx942, name=gfx942-64, banks=64)\n"
    "Lane groups: seq(N) = consecutive groups of N lanes, {0-3,20-23}{4-7,16-19}...\n"
    "explicit groups, none = no such instruction; 'read b64=seq(16) fold[1,2]=seq(32)'\n"
    "adds NVIDIA's load fold.  The canonical text is printed last.\n",
    run};

static int show(const layout_arch *a)
{
    size_t needed = 0;
    char *buf;
    char text[LAYOUT_TEXT_CAP];
    layout_error e;
    if (layout_arch_format(a, NULL, 0, &needed, &e)) return tool_error("arch", "%s", e.message);
    buf = malloc(needed + 1);
    if (!buf) return tool_error("arch", "out of memory");
    layout_arch_format(a, buf, needed + 1, NULL, NULL);
    fputs(buf, stdout);
    if (needed == 0 || buf[needed - 1] != '\n') fputc('\n', stdout);
    free(buf);
    if (layout_arch_to_text(a, text, sizeof text, &e)) return tool_error("arch", "%s", e.message);
    printf("text: %s\n", text);
    return TOOL_OK;
}

/* The order of the list: by vendor (AMD, NVIDIA, others), then by
 * generation - gfx9 (gfx90a < gfx942 < gfx950) before gfx10, gfx11, gfx12
 * (a gfx name's generation is its first digit, or its first two when they
 * start with 1), sm_75 < sm_80 < ... < sm_120 by number - then by name. */
static int preset_rank(const char *name, long *generation, const char **rest)
{
    if (strncmp(name, "gfx", 3) == 0) {
        const char *d = name + 3;
        int two = d[0] == '1' && d[1] >= '0' && d[1] <= '9';
        *generation = two ? (d[0] - '0') * 10 + (d[1] - '0') : d[0] - '0';
        *rest = d + (two ? 2 : 1);
        return 0;
    }
    if (strncmp(name, "sm_", 3) == 0) {
        char *end;
        *generation = strtol(name + 3, &end, 10);
        *rest = end;
        return 1;
    }
    *generation = 0;
    *rest = name;
    return 2;
}

static int preset_order(const void *pa, const void *pb)
{
    const char *a = *(const char *const *)pa, *b = *(const char *const *)pb, *ra, *rb;
    long ga, gb;
    int va = preset_rank(a, &ga, &ra), vb = preset_rank(b, &gb, &rb);
    if (va != vb) return va - vb;
    if (ga != gb) return ga < gb ? -1 : 1;
    return strcmp(ra, rb);
}

static int run(int argc, char **argv)
{
    size_t i, n_presets = layout_arch_preset_count();
    const char *order[64];
    layout_arch a;
    if (argc > 2) return tool_error("arch", "expected at most one NAME (see layout arch --help)");
    if (argc == 2) {
        if (tool_parse_arch_as("arch", "the architecture", argv[1], &a)) return TOOL_BAD_INPUT;
        return show(&a);
    }
    if (n_presets > sizeof order / sizeof order[0]) n_presets = sizeof order / sizeof order[0];
    for (i = 0; i < n_presets; i++) order[i] = layout_arch_preset_name(i);
    qsort(order, n_presets, sizeof order[0], preset_order);
    printf("%-16s %5s %5s %4s  %s\n", "preset", "banks", "bytes", "lanes", "b128 read groups");
    for (i = 0; i < n_presets; i++) {
        const layout_lane_rule *r;
        char groups[64];
        if (layout_arch_preset(order[i], &a, NULL)) continue;
        r = layout_arch_rule(&a, LAYOUT_READ, 16);
        if (r && r->supported)
            snprintf(groups, sizeof groups, "%d groups of %d lanes (%s confidence)", r->n_groups,
                     a.wave_size / (r->n_groups ? r->n_groups : 1), layout_confidence_name(r->confidence));
        else
            snprintf(groups, sizeof groups, "unsupported");
        printf("%-16s %5d %5d %5d  %s\n", a.name, a.n_banks, a.bank_width_bytes, a.wave_size, groups);
    }
    printf("\naliases (any case; every --arch takes them):\n");
    for (i = 0; i < n_presets; i++) {
        const char *preset = order[i];
        size_t k, n = 0;
        for (k = 0; k < layout_arch_alias_count(); k++) {
            if (strcmp(layout_arch_alias_preset(k), preset) != 0) continue;
            printf("%s%s", n ? ", " : "  ", layout_arch_alias_name(k));
            n++;
        }
        if (n) printf(" -> %s\n", preset);
    }
    printf("\n`layout arch NAME` shows every rule with its source and confidence.\n");
    return TOOL_OK;
}
