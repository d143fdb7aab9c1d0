/* layout calibrate: what a profiler measured for probe kernels (layout emit)
 * against what the checker predicts for their specs. */
#include "tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_calibrate = {
    "calibrate", "a profiler's counters for probe kernels against the prediction",
    "usage: layout calibrate PROBE PROFILE.csv [PROBE PROFILE.csv ...] [--kernel NAME]\n"
    "\n"
    "PROBE is a file `layout emit` wrote (its first comment states the spec);\n"
    "PROFILE.csv what a profiler measured when that probe ran:\n"
    "  Nsight Compute: ncu --csv --page raw --metrics \\\n"
    "    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\\\n"
    "    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\\\n"
    "    l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\\\n"
    "    l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\\\n"
    "    smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum ./probe\n"
    "  rocprofv3:      rocprofv3 --pmc SQ_LDS_BANK_CONFLICT SQ_INSTS_LDS --output-format csv -- ./probe\n"
    "                  (the counter_collection.csv it writes)\n"
    "Every dispatch of the kernel NAME (default layout_probe) in the profile is\n"
    "held against the spec's prediction on its --arch, counter by counter.\n"
    "\n"
    "Exit status: 0 every counter equal, 1 a difference, 2 bad input.\n",
    run};

#define PROBE_CAP (1 << 21)
#define ARGS_CAP 64

/* The spec line of a probe: the options after "made by `layout emit". */
static int spec_line(const char *src, char *line, size_t cap)
{
    const char *p = strstr(src, "made by `layout emit");
    if (!p) return 0;
    while ((p = strchr(p, '\n')) != NULL) {
        const char *q = ++p, *e;
        while (*q == ' ' || *q == '*') q++;
        if (strncmp(q, "--", 2) != 0) continue;
        e = strchr(q, '\n');
        if (!e) e = q + strlen(q);
        if ((size_t)(e - q) >= cap) return 0;
        memcpy(line, q, (size_t)(e - q));
        line[e - q] = '\0';
        return 1;
    }
    return 0;
}

/* Split a shell-quoted option line in place ('...' groups, no escapes). */
static int split_args(char *s, char **argv, int cap)
{
    int n = 0;
    while (*s) {
        char *out;
        while (*s == ' ') s++;
        if (!*s) break;
        if (n >= cap) return -1;
        argv[n++] = out = s;
        while (*s && *s != ' ') {
            if (*s == '\'') {
                s++;
                while (*s && *s != '\'') *out++ = *s++;
                if (*s != '\'') return -1;
                s++;
            } else {
                *out++ = *s++;
            }
        }
        if (*s) s++;
        *out = '\0';
    }
    return n;
}

static char *read_file(const char *cmd, const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    if (!f) {
        tool_error(cmd, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    buf = malloc(PROBE_CAP);
    if (!buf) {
        fclose(f);
        tool_error(cmd, "out of memory");
        return NULL;
    }
    *len = fread(buf, 1, PROBE_CAP - 1, f);
    if (!feof(f)) {
        fclose(f);
        free(buf);
        tool_error(cmd, "'%s' is larger than %d bytes", path, PROBE_CAP - 1);
        return NULL;
    }
    fclose(f);
    buf[*len] = '\0';
    return buf;
}

/* The prediction of the probe's spec: 0, or TOOL_BAD_INPUT after an error. */
static int predict(const char *probe_path, layout_arch *arch, layout_kernel_result *res, char *spec, size_t cap)
{
    static layout_descriptor lds_desc, read_desc;
    static layout_distribution wdist, rdist;
    const char *arch_text = "gfx942", *lds = NULL, *read_lds = NULL, *wr = NULL, *rd = NULL;
    const char *elem_text = NULL, *tiles_text = NULL, *base_text = NULL;
    char *args[ARGS_CAP + 1], line[16384];
    int elem = 2, n, n_pos = 0, hip = 0, cuda = 0;
    int64_t tiles = 1, base = 0;
    size_t len;
    layout_access_options opt;
    layout_kernel_spec k;
    layout_error e;
    char *src = read_file("calibrate", probe_path, &len);
    if (!src) return TOOL_BAD_INPUT;
    n = spec_line(src, line, sizeof line);
    free(src);
    if (!n) return tool_error("calibrate", "'%s' has no spec comment (a file `layout emit` wrote)", probe_path);
    snprintf(spec, cap, "%s", line);
    args[0] = (char *)"calibrate";
    n = split_args(line, args + 1, ARGS_CAP - 1);
    if (n < 0) return tool_error("calibrate", "'%s': its spec line does not split into options", probe_path);
    args[n + 1] = NULL;
    {
        const tool_option opts[] = {{"--arch", &arch_text, NULL},   {"--elem", &elem_text, NULL},
                                    {"--lds", &lds, NULL},          {"--read-lds", &read_lds, NULL},
                                    {"--write", &wr, NULL},         {"--read", &rd, NULL},
                                    {"--tiles", &tiles_text, NULL}, {"--base", &base_text, NULL},
                                    {"--hip", NULL, &hip},          {"--cuda", NULL, &cuda},
                                    {NULL, NULL, NULL}};
        if (tool_parse_args("calibrate", n + 1, args, opts, NULL, 0, &n_pos) ||
            (elem_text && tool_elem_bytes("calibrate", elem_text, &elem)) ||
            (tiles_text && tool_int("calibrate", "--tiles", tiles_text, 1, INT32_MAX, &tiles)) ||
            (base_text && tool_int("calibrate", "--base", base_text, 0, UINT32_MAX, &base)))
            return TOOL_BAD_INPUT;
    }
    if (!lds || !wr || !rd) return tool_error("calibrate", "'%s': its spec lacks --lds, --write or --read", probe_path);
    if (tool_parse_arch("calibrate", arch_text, arch) || tool_parse_desc("calibrate", lds, &lds_desc) ||
        (read_lds && tool_parse_desc("calibrate", read_lds, &read_desc)) ||
        tool_parse_dist("calibrate", "--write", wr, arch->wave_size, &wdist) ||
        tool_parse_dist("calibrate", "--read", rd, arch->wave_size, &rdist))
        return TOOL_BAD_INPUT;
    memset(&opt, 0, sizeof opt);
    opt.base_bytes = base;
    memset(&k, 0, sizeof k);
    k.write_desc = &lds_desc;
    k.write_dist = &wdist;
    k.write_opt = &opt;
    k.read_desc = read_lds ? &read_desc : NULL;
    k.read_dist = &rdist;
    k.read_opt = &opt;
    k.elem_bytes = elem;
    k.tiles = tiles;
    if (layout_check_kernel(arch, &k, res, &e)) return tool_error("calibrate", "'%s': %s", probe_path, e.message);
    return 0;
}

static int run(int argc, char **argv)
{
    const char *pos[64], *kernel = "layout_probe";
    int n_pos = 0, i, differ = 0, compared = 0;
    static layout_profile prof;
    const tool_option opts[] = {{"--kernel", &kernel, NULL}, {NULL, NULL, NULL}};
    if (tool_parse_args("calibrate", argc, argv, opts, pos, 64, &n_pos)) return TOOL_BAD_INPUT;
    if (n_pos == 0 || n_pos % 2)
        return tool_error("calibrate", "give PROBE PROFILE.csv pairs (%d file%s given)", n_pos, n_pos == 1 ? "" : "s");
    for (i = 0; i < n_pos; i += 2) {
        layout_arch arch;
        layout_kernel_result res;
        layout_error e;
        char spec[16384];
        size_t len;
        char *csv;
        int d, rc, matched = 0;
        if ((rc = predict(pos[i], &arch, &res, spec, sizeof spec))) return rc;
        if (!(csv = read_file("calibrate", pos[i + 1], &len))) return TOOL_BAD_INPUT;
        rc = layout_profile_from_csv(csv, len, &prof, &e);
        free(csv);
        if (rc) return tool_error("calibrate", "'%s': %s", pos[i + 1], e.message);
        printf("%s (%s)\n  spec: %s\n", pos[i], arch.name, spec);
        for (d = 0; d < prof.n_dispatches; d++) {
            layout_calibration c;
            int r;
            if (!strstr(prof.dispatches[d].kernel, kernel)) continue;
            matched++;
            if (layout_calibrate(&arch, &res, &prof.dispatches[d], &c, &e))
                return tool_error("calibrate", "'%s', dispatch %lld: %s", pos[i + 1], (long long)prof.dispatches[d].id,
                                  e.message);
            printf("  dispatch %lld of %s:\n", (long long)prof.dispatches[d].id, prof.dispatches[d].kernel);
            for (r = 0; r < c.n_rows; r++)
                printf("    %-58s predicted %12lld  measured %12lld  %s\n", layout_counter_name(c.rows[r].counter),
                       (long long)c.rows[r].predicted, (long long)c.rows[r].measured, c.rows[r].equal ? "ok" : "DIFF");
            differ += !c.all_equal;
            compared++;
        }
        if (!matched) return tool_error("calibrate", "'%s' has no dispatch of kernel '%s'", pos[i + 1], kernel);
    }
    printf("%d dispatch%s compared, %d differ%s\n", compared, compared == 1 ? "" : "es", differ, differ == 1 ? "s" : "");
    return differ ? TOOL_FINDING : TOOL_OK;
}
