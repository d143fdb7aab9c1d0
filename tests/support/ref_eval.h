/* An independent reference for descriptor offsets: straight per-transform
 * math on explicit index vectors, stage by stage, written without the
 * library's transform table, adaptor or hidden ids.  Also a generator of
 * random valid compositions and a builder of the same composition through
 * the library's public constructors, for differential tests. */
#ifndef LAYOUT_TEST_REF_EVAL_H
#define LAYOUT_TEST_REF_EVAL_H

#include <stdint.h>

#include "layout.h"

enum ref_kind {
    REF_PASS, REF_PAD, REF_LPAD, REF_RPAD, REF_EMBED, REF_MERGE, REF_MERGE_DIVMOD, REF_UNMERGE,
    REF_FREEZE, REF_INSERT, REF_REPLICATE, REF_SLICE, REF_MODULO, REF_XOR, REF_OFFSET, REF_KIND_COUNT
};

enum { REF_MAX = 8, REF_MAX_STAGES = 3 };

/* One transform of a stage.  low_ids: old top positions it consumes;
 * up_ids: new top positions it produces. */
typedef struct ref_xf {
    int kind;
    int n_low, low_ids[REF_MAX];
    int n_up, up_ids[REF_MAX];
    int64_t len;          /* pass, pads, insert, slice (lower), modulo (upper), offset */
    int64_t x, y;         /* pad left/right, slice begin/end, modulo m, freeze v, offset o */
    int64_t a[REF_MAX];   /* embed/unmerge/replicate upper lengths, merge lower lengths, xor lengths */
    int64_t b[REF_MAX];   /* embed coefficients */
} ref_xf;

typedef struct ref_stage {
    int n_xf;
    ref_xf xf[REF_MAX];
    int n_top; /* new top dims after the stage */
} ref_stage;

typedef struct ref_desc {
    int packed;  /* 1: packed base, else naive */
    int n_base;
    int64_t base_len[REF_MAX], base_stride[REF_MAX];
    int n_stages;
    ref_stage stages[REF_MAX_STAGES];
} ref_desc;

/* Top lengths after the last stage; returns their count. */
int ref_top_lengths(const ref_desc *d, int64_t *lengths);
/* Offset of a top coordinate; *valid = 0 if some pad rejects it. */
int64_t ref_offset(const ref_desc *d, const int64_t *top, int *valid);
/* One transform through its library constructor (fuzz/fuzz_descriptor.c). */
layout_status ref_build_xf(const ref_xf *x, layout_transform *t, layout_error *err);
/* The same composition through the library's constructors. */
layout_status ref_build(const ref_desc *d, layout_descriptor *out, layout_error *err);
/* A random valid composition: 2..4 base dims, 1..3 stages; kinds_used[k]
 * is incremented for each transform of kind k (REF_KIND_COUNT entries). */
void ref_random(uint64_t *rng_state, ref_desc *d, long *kinds_used);

#endif
