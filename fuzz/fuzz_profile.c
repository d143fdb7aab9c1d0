/* libFuzzer target for the profiler CSV reader (profile.h).
 *
 * Any bytes must read or fail cleanly with a line and column; what reads
 * must be consistent: at most LAYOUT_PROFILE_MAX_DISPATCHES dispatches,
 * every kernel name NUL-terminated, only known counters present, every
 * present value >= 0.  Seeds: Nsight Compute's raw page and details page,
 * rocprofv3 and rocprof v1 CSV (tests/corpus/fuzz_profile/). */
#include "layout.h"
#include "fuzz_input.h"

#include <stdint.h>
#include <string.h>

static layout_profile p;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    layout_error e;
    int i, k;
    if (size > (1 << 16)) return 0;
    if (layout_profile_from_csv((const char *)data, size, &p, &e) != LAYOUT_OK) {
        FUZZ_ASSERT(strncmp(e.message, "layout_profile_from_csv: ", 25) == 0);
        return 0;
    }
    FUZZ_ASSERT(p.n_dispatches >= 0 && p.n_dispatches <= LAYOUT_PROFILE_MAX_DISPATCHES);
    for (i = 0; i < p.n_dispatches; i++) {
        const layout_profile_dispatch *d = &p.dispatches[i];
        FUZZ_ASSERT(memchr(d->kernel, '\0', sizeof d->kernel) != NULL);
        FUZZ_ASSERT((d->present >> LAYOUT_CTR_COUNT) == 0);
        FUZZ_ASSERT(d->id >= -1);
        for (k = 0; k < LAYOUT_CTR_COUNT; k++)
            if (d->present >> k & 1) FUZZ_ASSERT(d->value[k] >= 0);
    }
    return 0;
}
