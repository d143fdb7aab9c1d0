/* Fuzz target: layout families (family.h), the ck_tile C++ printer
 * (ck_cpp.h) and the stride lint (lint.h) from arbitrary bytes.
 *
 * Parameters are mostly small powers of two and divisors (so many sets are
 * legal), sometimes hostile (INT64 limits, negatives).  Every call must
 * either fail with a status or succeed, and:
 * - a legal set builds; its descriptor's offsets equal the closed form on
 *   every coordinate, are injective, and its element space size times the
 *   element size is layout_family_lds_bytes();
 * - the descriptor has a ck_tile C++ spelling;
 * - every set the iterator produces is legal and fits the budget;
 * - nothing reads or writes out of bounds (ASan) or overflows (UBSan). */
#include "layout.h"
#include "fuzz_input.h"
#include "../lib/suggest/suggest_internal.h"

static int64_t small_or_hostile(fuzz_in *in)
{
    uint8_t sel = fuzz_u8(in);
    if (sel < 96) return (int64_t)1 << (sel % 8);          /* powers of two */
    if (sel < 160) return (int64_t)(sel % 40);             /* small values */
    if (sel < 192) return -(int64_t)(sel % 4);             /* zero / negatives */
    return fuzz_i64(in);                                   /* hostile */
}

static unsigned char g_ws[1 << 20];

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    /* The iterator walk is the expensive part (it skips illegal sets);
     * every input walks 4 sets, one in 16 inputs (fuzz_sample_level) the
     * full 200. */
    const int level = fuzz_sample_level(data, size), walk = level ? 200 : 4;
    layout_family_params p;
    memset(&p, 0, sizeof p);
    p.kind = (layout_family_kind)fuzz_range(&in, -1, LAYOUT_FAMILY_COUNT);
    p.contiguous_dim = (int)fuzz_range(&in, -1, 2);
    for (int i = 0; i < 6; i++) p.p[i] = small_or_hostile(&in);
    p.pad = small_or_hostile(&in);
    p.pad_rows = small_or_hostile(&in);
    p.xor_kind = (layout_family_kind)fuzz_range(&in, 0, LAYOUT_FAMILY_COUNT - 1);
    int64_t tile[2];
    tile[0] = fuzz_u8(&in) % 8 ? (int64_t)fuzz_range(&in, 1, 64) : fuzz_i64(&in);
    tile[1] = fuzz_u8(&in) % 8 ? (int64_t)fuzz_range(&in, 1, 64) : fuzz_i64(&in);
    if (p.kind == LAYOUT_FAMILY_IREE_XOR_SHUFFLE || p.xor_kind == LAYOUT_FAMILY_IREE_XOR_SHUFFLE)
        if (fuzz_u8(&in) % 2 && p.contiguous_dim >= 0 && p.contiguous_dim <= 1) {
            int64_t C = tile[p.contiguous_dim];
            p.p[0] = C;
            p.p[2] = C > 0 && C < 4096 ? C + fuzz_range(&in, -1, 8) : C;
        }
    int elem = (int)fuzz_range(&in, 0, 17);

    layout_error err;
    char buf[512];
    layout_family_params_print(&p, buf, sizeof buf);
    layout_family_params_print(&p, buf, (size_t)fuzz_range(&in, 0, 8));
    layout_descriptor d;
    int64_t bytes = 0;
    layout_status sc = layout_family_check(&p, tile, &err);
    layout_status sb = layout_family_build(&p, tile, &d, &err);
    layout_status sl = layout_family_lds_bytes(&p, tile, elem, &bytes, &err);
    FUZZ_ASSERT(sc == LAYOUT_OK ? sb == LAYOUT_OK : sb == sc);
    FUZZ_ASSERT(sc != LAYOUT_OK ? sl == sc : (elem >= 1 && elem <= 16) == (sl == LAYOUT_OK));
    if (sb == LAYOUT_OK) {
        if (sl == LAYOUT_OK) FUZZ_ASSERT(bytes == layout_desc_element_space_size(&d) * elem);
        /* every coordinate vs the closed form: tiles up to 256 elements on
         * every input, up to 4096 on the sampled ones (with the library's
         * verifier too) */
        if (tile[0] * tile[1] <= (level ? 4096 : 256)) {
            static int64_t offs[4096];
            int64_t n = 0;
            for (int64_t i = 0; i < tile[0]; i++)
                for (int64_t j = 0; j < tile[1]; j++) {
                    int64_t c[2] = {i, j}, o = -1;
                    FUZZ_ASSERT(layout_desc_offset(&d, c, &o, NULL) == LAYOUT_OK);
                    FUZZ_ASSERT(o == layout_family_offset_unchecked(&p, tile, i, j));
                    offs[n++] = o;
                }
            /* the whole-tile form gives the same offsets, row-major; where
             * the set is linear over F2 its bases do too */
            static int64_t whole[4096];
            FUZZ_ASSERT(layout_family_tile_offsets(&p, tile, whole, (size_t)n, NULL) == LAYOUT_OK);
            FUZZ_ASSERT(memcmp(whole, offs, (size_t)n * sizeof offs[0]) == 0);
            if (n > 1) FUZZ_ASSERT(layout_family_tile_offsets(&p, tile, whole, (size_t)n - 1, NULL) == LAYOUT_ERR_BUFFER);
            uint64_t bases[64];
            int in_bits[2], out_bits;
            if (layout_family_linear_bases(&p, tile, bases, in_bits, &out_bits)) {
                FUZZ_ASSERT(((int64_t)1 << out_bits) == layout_desc_element_space_size(&d));
                for (int64_t k = 0; k < n; k++) {
                    uint64_t x = (uint64_t)(k / tile[1]) | ((uint64_t)(k % tile[1]) << in_bits[0]), v = 0;
                    for (int j = 0; x; j++, x >>= 1)
                        if (x & 1u) v ^= bases[j];
                    FUZZ_ASSERT((int64_t)v == offs[k]);
                }
            }
            /* the pad form: the unpadded set plus (row >> shift) * pad */
            layout_family_params un;
            int64_t pad;
            int shift;
            if (layout_family_pad_form(&p, tile, &un, &pad, &shift)) {
                FUZZ_ASSERT(layout_family_check(&un, tile, NULL) == LAYOUT_OK);
                for (int64_t k = 0; k < n; k++) {
                    int64_t i = k / tile[1], j = k % tile[1], row = p.contiguous_dim ? i : j;
                    FUZZ_ASSERT(layout_family_offset_unchecked(&un, tile, i, j) + (row >> shift) * pad == offs[k]);
                }
            }
            /* injective: from the offsets themselves (any element space) */
            qsort(offs, (size_t)n, sizeof offs[0], cmp_i64);
            for (int64_t k = 1; k < n; k++) FUZZ_ASSERT(offs[k] != offs[k - 1]);
            /* and the library's verifier agrees where its workspace covers
             * the element space (a large pad, e.g. 2^24 - 1 every 6 rows,
             * needs more: found by a 240 s run with a random seed) */
            if (level) {
                layout_offset_report rep;
                layout_status sv = layout_desc_verify_offsets(&d, g_ws, sizeof g_ws, &rep, NULL);
                FUZZ_ASSERT(sv == LAYOUT_OK || sv == LAYOUT_ERR_BUFFER);
                if (sv == LAYOUT_OK) FUZZ_ASSERT(rep.injective);
            }
        }
        /* closed-form vector hints, where given, are the descriptor's */
        int64_t hl[LAYOUT_MAX_DIMS], hs[LAYOUT_MAX_DIMS], cl[2], cs[2];
        FUZZ_ASSERT(layout_desc_vector_hints(&d, hl, hs, NULL) == LAYOUT_OK);
        if (layout_family_vector_hints(&p, tile, cl, cs))
            FUZZ_ASSERT(hl[0] == cl[0] && hl[1] == cl[1] && hs[0] == cs[0] && hs[1] == cs[1]);
        size_t need = 0;
        FUZZ_ASSERT(layout_desc_to_ck_cpp(&d, NULL, 0, &need, NULL) == LAYOUT_OK && need > 0);
    }

    /* the iterator on a small tile */
    layout_family_iter it;
    int64_t t2[2] = {fuzz_range(&in, 1, 24), fuzz_range(&in, 1, 24)};
    int64_t budget = fuzz_range(&in, -1, 64);
    if (layout_family_iter_init(&it, (layout_family_kind)fuzz_range(&in, 0, LAYOUT_FAMILY_COUNT - 1), t2,
                                (int)fuzz_range(&in, 0, 1), (int)fuzz_range(&in, 1, 4), budget, NULL) == LAYOUT_OK) {
        layout_family_params q;
        int64_t base = t2[0] * t2[1] * it.elem_bytes;
        for (int k = 0; k < walk && layout_family_iter_next(&it, &q); k++) {
            FUZZ_ASSERT(layout_family_check(&q, t2, NULL) == LAYOUT_OK);
            FUZZ_ASSERT(layout_family_lds_bytes(&q, t2, it.elem_bytes, &bytes, NULL) == LAYOUT_OK);
            FUZZ_ASSERT(bytes <= base + budget);
        }
    }

    /* the stride lint on a preset */
    layout_arch a;
    size_t np = layout_arch_preset_count();
    if (layout_arch_preset(layout_arch_preset_name((size_t)fuzz_range(&in, 0, (int64_t)np - 1)), &a, NULL) ==
        LAYOUT_OK) {
        layout_stride_lint_result r;
        int64_t S = fuzz_u8(&in) % 4 ? fuzz_range(&in, 0, 300) : fuzz_i64(&in);
        if (layout_stride_lint(&a, (int)fuzz_range(&in, 0, 17), S, &r, NULL) == LAYOUT_OK) {
            FUZZ_ASSERT(r.fix_stride_elems >= S && r.fix_conflict_factor <= r.conflict_factor);
            FUZZ_ASSERT(r.read.worst_nway >= 1 && r.conflict_factor >= r.read.worst_nway);
            if (r.closed_form_applies) FUZZ_ASSERT(r.closed_form_nway == r.read.worst_nway);
        }
    }
    return 0;
}
