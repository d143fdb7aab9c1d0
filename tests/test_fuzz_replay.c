/* The fuzz_ttgir harness (fuzz/fuzz_ttgir.c) over its committed corpus
 * (tests/corpus/fuzz_ttgir: the hand-written seeds, the regressions random
 * seeds found, and 300 inputs a 120 s random-seed run grew, minimised with
 * -merge=1), built with the project's own compiler and flags, so `make test`
 * holds every input to the harness's properties without libFuzzer:
 * malformed text is an error with line and column; a parsed module's ops,
 * types, costs, suggestions and JSON are in range; --apply writes back the
 * very text when it applies nothing and a module that parses when it does.
 * A property that fails aborts (FUZZ_ASSERT), which tests/run.sh counts. */
#define _POSIX_C_SOURCE 200809L
#include "../fuzz/fuzz_ttgir.c"
#include "harness.h"

#include <dirent.h>
#include <stdlib.h>

static void test_corpus(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    char dir[512], path[1024];
    DIR *d;
    struct dirent *e;
    int n = 0;
    snprintf(dir, sizeof dir, "%.*s/corpus/fuzz_ttgir", slash ? (int)(slash - f) : 1, slash ? f : ".");
    d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open %s", dir);
    if (!d) return;
    while ((e = readdir(d)) != NULL) {
        FILE *in;
        static char buf[1 << 18];
        size_t len;
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        in = fopen(path, "rb");
        if (!in) continue;
        len = fread(buf, 1, sizeof buf, in);
        fclose(in);
        LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
        n++;
    }
    closedir(d);
    CHECK_MSG(n >= 300, "only %d inputs in %s", n, dir);
}

int main(void)
{
    RUN(test_corpus);
    return harness_finish("test_fuzz_replay");
}
