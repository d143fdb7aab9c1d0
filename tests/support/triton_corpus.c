/* The Triton kernel corpus of the tests (triton_corpus.h). */
#define _POSIX_C_SOURCE 200809L
#include "triton_corpus.h"

#include <string.h>

void triton_corpus_dir(const char *file, char *dir, size_t cap)
{
    const char *slash = strrchr(file, '/');
    snprintf(dir, cap, "%.*s/fixtures/triton/kernels", slash ? (int)(slash - file) : 1, slash ? file : ".");
}

size_t triton_corpus_load(const char *dir, const char *name, char *buf, size_t cap)
{
    char path[700];
    FILE *f;
    size_t n = 0;
    snprintf(path, sizeof path, "%s/%s.ttgir", dir, name);
    f = fopen(path, "rb");
    if (f) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = 0;
    return n;
}

FILE *triton_corpus_open(const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls '%s' | sed -n 's/\\.ttgir$//p'", dir);
    return popen(cmd, "r");
}

int triton_corpus_next(FILE *ls, char *name, size_t cap)
{
    if (!fgets(name, (int)cap, ls)) return 0;
    name[strcspn(name, "\n")] = 0;
    return 1;
}

const char *triton_corpus_neighbour(const char *target)
{
    static const char *const other[][2] = {{"hip:gfx942", "gfx950"}, {"hip:gfx950", "gfx942"}, {"cuda:90", "sm_80"}};
    const char *alt = NULL;
    int t;
    for (t = 0; t < 3; t++)
        if (strcmp(target, other[t][0]) == 0) alt = other[t][1];
    return alt;
}
