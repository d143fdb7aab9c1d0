/* libFuzzer target for the dialect parsers (cute.h, triton.h, iree.h,
 * dialect.h): every input is tried as each dialect.
 *
 * Properties: a failure is clean (status, an error offset inside the text, a
 * message naming the parser, a caret drawn at it); whatever parses prints,
 * the printed text parses back and prints identically; a CuTe layout's
 * descriptor agrees with CuTe's definition (layout_cute_offset) on the
 * coordinates of a small tile; a descriptor a dialect writes reads back with
 * the same offsets.
 *
 * Cost: the whole-tile comparisons took most of the time (up to
 * 4096 elements, eight read-backs per input).  Tiles of up to 256 elements
 * are compared whole on every input, larger ones (up to 4096) whole on the
 * sampled inputs (fuzz_sample_level() > 0, one in 16) and otherwise on 256
 * elements spread evenly over the tile from an offset that depends on the
 * input, so that over many inputs every element is reached. */
#include "layout.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"

static void check_failure(const char *text, size_t where, const layout_error *e, const char *fn)
{
    char caret[2 * LAYOUT_TEXT_CARET_WIDTH + 16];
    FUZZ_ASSERT(where <= strlen(text));
    FUZZ_ASSERT(strncmp(e->message, fn, strlen(fn)) == 0);
    FUZZ_ASSERT(layout_text_caret(text, where, caret, sizeof caret, NULL) == LAYOUT_OK);
}

/* The elements compared: which ones of a tile of n, see above. */
typedef struct tile_points {
    int64_t n, count, step, shift;
} tile_points;

FUZZ_REFERENCE static tile_points points_of(int64_t n, int level, uint32_t hash)
{
    tile_points p = {n, n, 1, 0};
    if (n > 256 && !level) {
        p.count = 256;
        p.step = n / 256;
        p.shift = (int64_t)(hash % (uint32_t)p.step);
    }
    return p;
}

FUZZ_REFERENCE static int64_t point_at(const tile_points *p, int64_t i)
{
    return i == p->count - 1 ? p->n - 1 : i * p->step + p->shift;
}

FUZZ_REFERENCE static uint32_t text_hash(const char *text)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *text; text++) h = (h ^ (uint8_t)*text) * 16777619u;
    return h;
}

FUZZ_REFERENCE static int64_t tile_size(const layout_descriptor *d)
{
    int64_t n = 1;
    int j;
    for (j = 0; j < layout_desc_ndims(d); j++) {
        if (layout_desc_length(d, j) > 4096) return -1;
        n *= layout_desc_length(d, j);
        if (n > 4096) return -1;
    }
    return n;
}

FUZZ_REFERENCE static void same_offsets(const layout_descriptor *a, const layout_descriptor *b, int level, uint32_t hash)
{
    int64_t n = tile_size(a), i, c[LAYOUT_MAX_DIMS];
    int j, nd = layout_desc_ndims(a);
    tile_points pts;
    if (n < 0) return;
    FUZZ_ASSERT(nd == layout_desc_ndims(b));
    for (j = 0; j < nd; j++) FUZZ_ASSERT(layout_desc_length(a, j) == layout_desc_length(b, j));
    pts = points_of(n, level, hash);
    for (i = 0; i < pts.count; i++) {
        int64_t r = point_at(&pts, i);
        int va = 0, vb = 0;
        for (j = nd - 1; j >= 0; j--) {
            c[j] = r % layout_desc_length(a, j);
            r /= layout_desc_length(a, j);
        }
        FUZZ_ASSERT(layout_desc_offset_unchecked(a, c) == layout_desc_offset_unchecked(b, c));
        layout_desc_is_valid(a, c, &va, NULL);
        layout_desc_is_valid(b, c, &vb, NULL);
        FUZZ_ASSERT(va == vb);
    }
}

/* The descriptor of a CuTe layout against CuTe's definition. */
FUZZ_REFERENCE static void cute_agrees(const layout_cute_layout *l, const layout_descriptor *d, int level, uint32_t hash)
{
    int64_t n = tile_size(d), i, c[LAYOUT_MAX_DIMS], ref;
    int j, nd = layout_desc_ndims(d);
    tile_points pts = points_of(n, level, hash);
    for (i = 0; i < (n < 0 ? 0 : pts.count); i++) {
        int64_t r = point_at(&pts, i);
        for (j = nd - 1; j >= 0; j--) {
            c[j] = r % layout_desc_length(d, j);
            r /= layout_desc_length(d, j);
        }
        FUZZ_ASSERT(layout_cute_offset(l, c, &ref, NULL) == LAYOUT_OK);
        FUZZ_ASSERT(ref == layout_desc_offset_unchecked(d, c));
    }
}

static void check_cute(const char *text, int level, uint32_t hash)
{
    layout_cute_layout l, back;
    layout_descriptor d;
    layout_error e;
    size_t where = (size_t)-1;
    static char t1[LAYOUT_TEXT_CAP], t2[LAYOUT_TEXT_CAP];
    if (layout_cute_from_text(text, &l, &where, &e) != LAYOUT_OK) {
        check_failure(text, where, &e, "layout_cute_from_text: ");
        return;
    }
    FUZZ_ASSERT(layout_cute_to_text(&l, t1, sizeof t1, &e) == LAYOUT_OK);
    FUZZ_ASSERT(layout_cute_from_text(t1, &back, NULL, &e) == LAYOUT_OK);
    FUZZ_ASSERT(layout_cute_to_text(&back, t2, sizeof t2, &e) == LAYOUT_OK);
    FUZZ_ASSERT(strcmp(t1, t2) == 0);
    FUZZ_ASSERT(layout_cute_to_cpp(&l, t2, sizeof t2, &e) == LAYOUT_OK);
    if (layout_cute_to_desc(&l, &d, &e) == LAYOUT_OK) {
        FUZZ_ASSERT(layout_desc_ndims(&d) == l.n_modes);
        cute_agrees(&l, &d, level, hash);
    }
}

static void check_triton(const char *text)
{
    layout_triton_attr a, back;
    layout_error e;
    size_t where = (size_t)-1;
    static char t1[LAYOUT_TEXT_CAP], t2[LAYOUT_TEXT_CAP];
    if (layout_triton_from_text(text, &a, &where, &e) != LAYOUT_OK) {
        check_failure(text, where, &e, "layout_triton_from_text: ");
        return;
    }
    FUZZ_ASSERT(layout_triton_to_text(&a, t1, sizeof t1, &e) == LAYOUT_OK);
    FUZZ_ASSERT(layout_triton_from_text(t1, &back, NULL, &e) == LAYOUT_OK);
    FUZZ_ASSERT(layout_triton_to_text(&back, t2, sizeof t2, &e) == LAYOUT_OK);
    FUZZ_ASSERT(strcmp(t1, t2) == 0);
    if (a.kind == LAYOUT_TRITON_AMD_ROTATING_SHARED || a.kind == LAYOUT_TRITON_NVMMA_SHARED) {
        /* Triton's shared linear layout on two shapes: a bijection onto the
         * shape whose descriptor puts offset 2^b at basis b, or an error that
         * says why. */
        static const int64_t shapes[2][2] = {{8, 16}, {32, 64}};
        int s, b;
        for (s = 0; s < 2; s++) {
            layout_linear ll;
            layout_descriptor d;
            if (layout_triton_shared_linear(&a, 2, shapes[s], &ll, &e) != LAYOUT_OK) {
                FUZZ_ASSERT(e.message[0] != '\0');
                FUZZ_ASSERT(layout_triton_to_desc(&a, 2, shapes[s], &d, &e) != LAYOUT_OK);
                continue;
            }
            FUZZ_ASSERT(layout_linear_is_bijective(&ll));
            FUZZ_ASSERT(((int64_t)1 << ll.out_bits[0]) == shapes[s][0] && ((int64_t)1 << ll.out_bits[1]) == shapes[s][1]);
            FUZZ_ASSERT(layout_triton_to_desc(&a, 2, shapes[s], &d, &e) == LAYOUT_OK);
            for (b = 0; b < ll.in_bits[0]; b++) {
                int64_t c[LAYOUT_LINEAR_MAX_DIMS], off = -1;
                FUZZ_ASSERT(layout_linear_get_basis(&ll, 0, b, c, NULL) == LAYOUT_OK);
                FUZZ_ASSERT(layout_desc_offset(&d, c, &off, NULL) == LAYOUT_OK && off == ((int64_t)1 << b));
            }
        }
    }
    if (a.kind >= LAYOUT_TRITON_AMD_MFMA && a.kind <= LAYOUT_TRITON_SLICE && a.rank >= 1 && a.rank <= 3) {
        /* The MMA, dot_op and slice layouts on a small shape: Triton's linear
         * layout of exactly that shape, or an error that says why. */
        static const int64_t s3[3] = {2, 16, 32}, s2[2] = {16, 32}, s1[1] = {64};
        const int64_t *shape = a.rank == 1 ? s1 : a.rank == 2 ? s2 : s3;
        layout_linear ll;
        int k;
        if (layout_triton_to_linear(&a, a.rank, shape, &ll, &e) == LAYOUT_OK) {
            FUZZ_ASSERT(ll.n_out == a.rank);
            for (k = 0; k < a.rank; k++) FUZZ_ASSERT(((int64_t)1 << ll.out_bits[k]) == shape[k]);
        } else {
            FUZZ_ASSERT(e.message[0] != '\0');
        }
    }
}

static void check_iree(const char *text)
{
    layout_iree_xor_shuffle x, back;
    layout_error e;
    size_t where = (size_t)-1;
    char t1[128], t2[128];
    if (layout_iree_from_text(text, &x, &where, &e) != LAYOUT_OK) {
        check_failure(text, where, &e, "layout_iree_from_text: ");
        return;
    }
    FUZZ_ASSERT(layout_iree_to_text(&x, t1, sizeof t1, &e) == LAYOUT_OK);
    FUZZ_ASSERT(layout_iree_from_text(t1, &back, NULL, &e) == LAYOUT_OK);
    FUZZ_ASSERT(layout_iree_to_text(&back, t2, sizeof t2, &e) == LAYOUT_OK);
    FUZZ_ASSERT(strcmp(t1, t2) == 0);
}

/* Through dialect.h with a small shape: read, write back in the same
 * dialect and in the others, read again: the same offsets. */
static void check_dispatch(const char *text, int level, uint32_t hash)
{
    static const int64_t shape[2] = {8, 16};
    layout_dialect dl = layout_dialect_detect(text), k;
    layout_descriptor d, back;
    layout_error e;
    size_t where = (size_t)-1;
    static char out[LAYOUT_TEXT_CAP];
    int64_t own[LAYOUT_MAX_DIMS];
    int j;
    if (layout_desc_from_dialect(dl, text, 2, shape, &d, &where, &e) != LAYOUT_OK) {
        FUZZ_ASSERT(where <= strlen(text));
        return;
    }
    if (tile_size(&d) < 0) return;
    for (j = 0; j < layout_desc_ndims(&d); j++) own[j] = layout_desc_length(&d, j);
    for (k = LAYOUT_DIALECT_CK; k <= LAYOUT_DIALECT_LINEAR; k = (layout_dialect)(k + 1)) {
        if (layout_desc_to_dialect(k, &d, out, sizeof out, &e) != LAYOUT_OK) continue;
        /* read back with the descriptor's own shape, as `layout convert` would be given;
         * linear.h rebuilds descriptors only from bases its xor network can spell
         * (layout_linear_to_desc's documented limits), so linear and shared_linear
         * may refuse here */
        if (layout_desc_from_dialect(k, out, layout_desc_ndims(&d), own, &back, NULL, &e) != LAYOUT_OK) {
            FUZZ_ASSERT((k == LAYOUT_DIALECT_LINEAR || k == LAYOUT_DIALECT_TRITON) &&
                        strncmp(e.message, "layout_linear_to_desc: ", 23) == 0);
            continue;
        }
        same_offsets(&d, &back, level, hash);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text;
    int level = fuzz_sample_level(data, size);
    uint32_t hash;
    if (size > 2048) return 0;
    text = (char *)malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    hash = text_hash(text);
    check_cute(text, level, hash);
    check_triton(text);
    check_iree(text);
    check_dispatch(text, level, hash);
    free(text);
    return 0;
}
