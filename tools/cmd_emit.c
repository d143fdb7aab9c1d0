/* layout emit: a HIP or CUDA probe kernel of a kernel spec (the options of
 * `layout check`), for the real compiler and a real GPU. */
#include "tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_emit = {
    "emit", "a HIP / CUDA probe kernel of a spec: the compiler picks the shared-memory instructions",
    "usage: layout emit --hip|--cuda --arch A --elem BYTES --lds SPEC --write DIST --read DIST\n"
    "                   [--read-lds SPEC] [--tiles N] [--base BYTES] [-o FILE]\n"
    "\n"
    "Write one self-contained source file whose kernel moves tiles through\n"
    "shared memory (LDS) exactly as the spec says: each thread stores its part of\n"
    "--write and loads its part of --read, one typed access per instruction the\n"
    "model predicts (its width and proven alignment), the offsets computed through\n"
    "the descriptor's own index arithmetic.  Nothing in it picks an instruction:\n"
    "compile it and compare the instructions with what `layout check` predicts\n"
    "(the file's first comment states the spec and the prediction: DS\n"
    "instructions per wave for HIP; ld.shared / st.shared per warp, and the ncu\n"
    "metrics that count them, for CUDA).  The host part launches one block per\n"
    "tile (--tiles), checks every element and prints the time.\n"
    "\n"
    "  --hip | --cuda   the language (HIP: hipcc, or clang -x hip --cuda-device-only\n"
    "                   -nogpuinc -nogpulib --offload-arch=gfx942 -O3 -S for the\n"
    "                   device assembly; CUDA: nvcc)\n"
    "  -o FILE          write the source to FILE (default: standard output)\n"
    "  other options    as `layout check` (--arch default gfx942, --elem default 2,\n"
    "                   --tiles default 1)\n"
    "\n"
    "Exit status: 0 written, 2 bad input (the same errors as `layout check`).\n"
    "\n"
    "example (seed kernel 01 on gfx942):\n"
    "  layout emit --hip -o k01.hip --arch gfx942 --elem 2 --lds 'packed([64,32])' \\\n"
    "    --read-lds 'naive([32,64],[1,32])' \\\n"
    "    --write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' \\\n"
    "    --read 'dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' --tiles 8192\n",
    run};

/* Append `s` to buf as a shell word: as is when plain, else in single quotes. */
static void append_quoted(char *buf, size_t cap, size_t *n, const char *s)
{
    const char *p;
    int plain = *s != '\0';
    for (p = s; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,:+-/@", *p)) plain = 0;
    if (plain) {
        for (p = s; *p; p++)
            if (*n + 1 < cap) buf[(*n)++] = *p;
        buf[*n < cap ? *n : cap - 1] = '\0';
        return;
    }
    if (*n + 1 < cap) buf[(*n)++] = '\'';
    for (p = s; *p; p++) {
        const char *piece = *p == '\'' ? "'\\''" : NULL;
        if (piece) {
            for (; *piece; piece++)
                if (*n + 1 < cap) buf[(*n)++] = *piece;
        } else if (*n + 1 < cap) {
            buf[(*n)++] = *p;
        }
    }
    if (*n + 1 < cap) buf[(*n)++] = '\'';
    buf[*n < cap ? *n : cap - 1] = '\0';
}

static void append_text(char *buf, size_t cap, size_t *n, const char *s)
{
    for (; *s; s++)
        if (*n + 1 < cap) buf[(*n)++] = *s;
    buf[*n < cap ? *n : cap - 1] = '\0';
}

/* The spec as the options it was given with: every option but --hip, --cuda
 * and -o, values quoted; --arch first (its default when not given). */
static char *spec_options(int argc, char **argv, const char *arch_text)
{
    size_t cap = 64, n = 0;
    int i;
    char *buf;
    for (i = 1; i < argc; i++) cap += strlen(argv[i]) * 4 + 4;
    cap += strlen(arch_text) * 4 + 16;
    if (!(buf = malloc(cap))) return NULL;
    buf[0] = '\0';
    append_text(buf, cap, &n, "--arch ");
    append_quoted(buf, cap, &n, arch_text);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *eq;
        size_t name_len;
        if (strcmp(a, "--hip") == 0 || strcmp(a, "--cuda") == 0) continue;
        eq = strchr(a, '=');
        name_len = eq ? (size_t)(eq - a) : strlen(a);
        if (strncmp(a, "--output", name_len) == 0 && name_len == 8) {
            if (!eq) i++;
            continue;
        }
        if (strncmp(a, "--arch", name_len) == 0 && name_len == 6) {
            if (!eq) i++;
            continue;
        }
        append_text(buf, cap, &n, " ");
        if (eq) {
            char name[64];
            snprintf(name, sizeof name, "%.*s ", (int)(name_len < 60 ? name_len : 60), a);
            append_text(buf, cap, &n, name);
            append_quoted(buf, cap, &n, eq + 1);
        } else {
            append_text(buf, cap, &n, a);
            if (i + 1 < argc) {
                append_text(buf, cap, &n, " ");
                append_quoted(buf, cap, &n, argv[++i]);
            }
        }
    }
    return buf;
}

static int run(int argc, char **argv)
{
    const char *arch_text = "gfx942", *lds = NULL, *read_lds = NULL, *wr = NULL, *rd = NULL, *out_path = NULL;
    const char *elem_text = NULL, *tiles_text = NULL, *base_text = NULL;
    int elem = 2, hip = 0, cuda = 0, n_pos = 0, i, kept = 0, ok;
    int64_t tiles = 1, base = 0;
    static layout_arch arch;
    static layout_descriptor lds_desc, read_desc;
    static layout_distribution wdist, rdist;
    layout_access_options opt;
    layout_kernel_spec kspec;
    layout_kernel_result res;
    layout_emit_spec es;
    layout_error e;
    size_t len = 0;
    char *src = NULL, *spec_text = NULL;
    char **args = malloc(sizeof *args * (size_t)(argc + 1));
    FILE *f;
    if (!args) return tool_error("emit", "out of memory");
    /* -o FILE is the one short option; take it out before the common parser. */
    for (i = 0; i < argc; i++) {
        if (i > 0 && strcmp(argv[i], "-o") == 0) {
            if (i + 1 >= argc) {
                free(args);
                return tool_error("emit", "option -o needs a value");
            }
            out_path = argv[++i];
            continue;
        }
        args[kept++] = argv[i];
    }
    args[kept] = NULL;
    {
        const tool_option opts[] = {{"--arch", &arch_text, NULL},    {"--elem", &elem_text, NULL},
                                    {"--lds", &lds, NULL},           {"--read-lds", &read_lds, NULL},
                                    {"--write", &wr, NULL},          {"--read", &rd, NULL},
                                    {"--tiles", &tiles_text, NULL},  {"--base", &base_text, NULL},
                                    {"--output", &out_path, NULL},   {"--hip", NULL, &hip},
                                    {"--cuda", NULL, &cuda},         {NULL, NULL, NULL}};
        if (tool_parse_args("emit", kept, args, opts, NULL, 0, &n_pos) ||
            (elem_text && tool_elem_bytes("emit", elem_text, &elem)) ||
            (tiles_text && tool_int("emit", "--tiles", tiles_text, 1, INT32_MAX, &tiles)) ||
            (base_text && tool_int("emit", "--base", base_text, 0, UINT32_MAX, &base))) {
            free(args);
            return TOOL_BAD_INPUT;
        }
    }
    if (hip + cuda != 1) {
        free(args);
        return tool_error("emit", "give exactly one of --hip and --cuda");
    }
    {
        const char *const names[] = {"--lds", "--write", "--read"}, *const values[] = {lds, wr, rd};
        if (tool_require("emit", names, values, 3, "the same --lds, --write and --read as `layout check`")) {
            free(args);
            return TOOL_BAD_INPUT;
        }
    }
    if (tool_parse_arch("emit", arch_text, &arch) || tool_parse_desc("emit", lds, &lds_desc) ||
        (read_lds && tool_parse_desc("emit", read_lds, &read_desc)) ||
        tool_parse_dist("emit", "--write", wr, arch.wave_size, &wdist) ||
        tool_parse_dist("emit", "--read", rd, arch.wave_size, &rdist)) {
        free(args);
        return TOOL_BAD_INPUT;
    }
    /* The spec must pass `layout check`'s own check first: the same errors. */
    memset(&opt, 0, sizeof opt);
    opt.base_bytes = base;
    memset(&kspec, 0, sizeof kspec);
    kspec.write_desc = &lds_desc;
    kspec.write_dist = &wdist;
    kspec.write_opt = &opt;
    kspec.read_desc = read_lds ? &read_desc : NULL;
    kspec.read_dist = &rdist;
    kspec.read_opt = &opt;
    kspec.elem_bytes = elem;
    kspec.tiles = tiles;
    if (layout_check_kernel(&arch, &kspec, &res, &e)) {
        free(args);
        if (tool_explain_tile_mismatch("emit", &lds_desc, read_lds ? &read_desc : NULL, &wdist, &rdist))
            return TOOL_BAD_INPUT;
        return tool_error("emit", "%s", e.message);
    }
    spec_text = spec_options(kept, args, arch_text);
    free(args);
    if (!spec_text) return tool_error("emit", "out of memory");
    memset(&es, 0, sizeof es);
    es.lang = hip ? LAYOUT_EMIT_HIP : LAYOUT_EMIT_CUDA;
    es.arch = &arch;
    es.write_desc = &lds_desc;
    es.write_dist = &wdist;
    es.read_desc = read_lds ? &read_desc : NULL;
    es.read_dist = &rdist;
    es.elem_bytes = elem;
    es.tiles = tiles;
    es.base_bytes = base;
    es.spec_text = spec_text;
    ok = layout_emit_probe(&es, NULL, 0, &len, &e) == LAYOUT_OK;
    if (ok && !(src = malloc(len + 1))) snprintf(e.message, sizeof e.message, "out of memory");
    ok = ok && src && layout_emit_probe(&es, src, len + 1, NULL, &e) == LAYOUT_OK;
    free(spec_text);
    if (!ok) {
        free(src);
        return tool_error("emit", "%s", e.message);
    }
    if (!out_path) {
        ok = fwrite(src, 1, len, stdout) == len;
        free(src);
        return ok ? TOOL_OK : tool_error("emit", "error writing the standard output");
    }
    f = fopen(out_path, "w");
    if (!f) {
        int why = errno;
        free(src);
        return tool_error("emit", "cannot write '%s': %s", out_path, strerror(why));
    }
    errno = 0;
    ok = fwrite(src, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    free(src);
    return ok ? TOOL_OK : tool_error("emit", "error writing '%s'", out_path);
}
