/* Reading a libFuzzer input as a stream of small decisions.  Past the end
 * every read returns 0, so any input length decodes to something.  Integers
 * are biased towards the values that break arithmetic (0, 1, -1, powers of
 * two and their neighbours, INT64 limits) because uniform 64-bit values
 * almost never land on a boundary. */
#ifndef LAYOUT_FUZZ_INPUT_H
#define LAYOUT_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A property that must hold: print where and abort, so libFuzzer keeps the
 * input as a crash reproducer. */
#define FUZZ_ASSERT(c)                                                                  \
    do {                                                                                \
        if (!(c)) {                                                                     \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #c);   \
            abort();                                                                    \
        }                                                                               \
    } while (0)

typedef struct fuzz_in {
    const uint8_t *p;
    size_t n;
} fuzz_in;

static inline uint8_t fuzz_u8(fuzz_in *in)
{
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

static inline uint64_t fuzz_bytes_le(fuzz_in *in, int k)
{
    uint64_t v = 0;
    for (int i = 0; i < k; i++) v |= (uint64_t)fuzz_u8(in) << (8 * i);
    return v;
}

static inline uint32_t fuzz_u32(fuzz_in *in) { return (uint32_t)fuzz_bytes_le(in, 4); }
static inline uint64_t fuzz_u64(fuzz_in *in) { return fuzz_bytes_le(in, 8); }

/* Integer in [lo, hi] (hi - lo < 2^32). */
static inline int64_t fuzz_range(fuzz_in *in, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    uint64_t v = span <= 256 ? fuzz_u8(in) : span <= 65536 ? fuzz_bytes_le(in, 2) : fuzz_u32(in);
    return lo + (int64_t)(v % span);
}

/* A length-like value: mostly small and positive, sometimes hostile. */
static inline int64_t fuzz_i64(fuzz_in *in)
{
    uint8_t sel = fuzz_u8(in);
    switch (sel >> 4) {
    case 0: return 0;
    case 1: return -(int64_t)fuzz_range(in, 1, 4);
    case 2: return INT64_MAX - (int64_t)fuzz_range(in, 0, 3);
    case 3: return INT64_MIN + (int64_t)fuzz_range(in, 0, 3);
    case 4: { int s = (int)fuzz_range(in, 0, 62); return ((int64_t)1 << s) + fuzz_range(in, -1, 1); }
    case 5: return (int64_t)fuzz_u64(in);
    case 6: return (int64_t)1 << 31 | fuzz_range(in, 0, 3);
    default: return (int64_t)(sel & 15) + 1 + (int64_t)fuzz_range(in, 0, 15) * ((sel >> 4) - 6);
    }
}

/* On a fuzzer's own reference model (the code it checks the library
 * against): no coverage instrumentation there.  Its edges and compares are
 * not what the fuzzer should steer by, and their callbacks took ~40 % of
 * fuzz_check's time (perf).  Not inlined: the attribute would be
 * lost in an instrumented caller.  The library keeps its edges. */
#if defined(__clang__)
#define FUZZ_REFERENCE __attribute__((no_sanitize("coverage"), noinline))
#else
#define FUZZ_REFERENCE
#endif

/* How much of the expensive whole-tile references (every lane of every
 * warp, the full instruction stream, coverage of a large tile) this input
 * runs: 0 for most inputs (small structures checked in full, large ones
 * by a sample of lanes / steps), 1 for one input in 16 (medium sizes in
 * full), 2 for one in 256 (the largest sizes the target checks).  A larger
 * check costs up to 100x a small one, so each tier is rare enough that it
 * takes a minority of the run's time.  The level is a hash (FNV-1a) of the
 * whole input: a reproducer replays exactly the checks that failed.  It
 * was the last byte, until the 240 s runs showed that the fuzzer makes
 * trailing zeros common (18-25 % of the grown corpora ended in 0, against
 * the 0.4 % intended), so the costliest tier ran fifty times too often;
 * any mutation redraws a hash. */
static inline int fuzz_sample_level(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 16777619u;
    h ^= h >> 16; /* FNV's low bits mix poorly: fold the high half in */
    return (h & 255) == 0 ? 2 : (h & 15) == 0 ? 1 : 0;
}

#endif /* LAYOUT_FUZZ_INPUT_H */
