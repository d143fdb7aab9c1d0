/* Triton's MMA-family distributed layouts as text: #ttg.amd_mfma,
 * #ttg.amd_wmma, #ttg.nvidia_mma, #ttg.dot_op and #ttg.slice, read and
 * printed in the syntax of Triton 3.6's printers
 * (lib/Dialect/TritonGPU/IR/Dialect.cpp: AMDMfmaEncodingAttr::print / parse,
 * AMDWmmaEncodingAttr::print / parse, NvidiaMmaEncodingAttr::print / parse,
 * SliceEncodingAttr::print / parse; the dot_op's from its assembly format):
 *
 *   #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true
 *                  [, tilesPerWarp = [2, 2]] [, elementBitWidth = 64]}>
 *   #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2] [, tilesPerWarp = [..]]
 *                  [, instrShape = [16, 16, 32]]}>
 *   #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
 *   #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{...}>, kWidth = 8}>
 *   #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{...}>}>       (an FMA operand: no kWidth)
 *   #ttg.slice<{dim = 1, parent = #ttg.blocked<{...}>}>
 *
 * Fields are a dictionary (any order; '=' or ':'); CTAsPerCGA, CTASplitNum
 * and CTAOrder are accepted when they describe one CTA.  A parent must be
 * written inline (a TTGIR alias such as `#mma` is refused, naming it). */
#include "triton_internal.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- reading */

static layout_status read_bool(text_cursor *c, int *out, const char *name)
{
    char w[8];
    size_t at;
    if (layout_tx_ident(c, w, sizeof w, &at, name)) return c->status;
    if (strcmp(w, "true") == 0)
        *out = 1;
    else if (strcmp(w, "false") == 0)
        *out = 0;
    else
        return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "%s must be true or false", name);
    return LAYOUT_OK;
}

static layout_status read_int(text_cursor *c, int64_t lo, int64_t hi, const char *name, int *out)
{
    int64_t v;
    if (layout_tx_int_in(c, lo, hi, LAYOUT_ERR_ARG, name, &v)) return c->status;
    *out = (int)v;
    return LAYOUT_OK;
}

/* A list of positive ints (instrShape). */
static layout_status read_pos_list(text_cursor *c, int64_t *out, int max, int *n, const char *name)
{
    size_t at;
    int k;
    layout_tx_skip(c);
    at = c->pos;
    if (layout_tx_int_list(c, out, max, n, name)) return c->status;
    for (k = 0; k < *n; k++)
        if (out[k] < 1 || out[k] > 4096)
            return layout_tx_fail_at(c, at, LAYOUT_ERR_ARG, "%s[%d] = %lld is outside 1..4096", name, k,
                                     (long long)out[k]);
    return LAYOUT_OK;
}

/* Field bits of an MMA body. */
enum { F_VERSION = 1, F_MINOR = 2, F_WARPS = 4, F_INSTR = 8, F_TRANS = 16, F_TILES = 32, F_EBW = 64 };

static const char *field_list(layout_triton_kind kind)
{
    if (kind == LAYOUT_TRITON_AMD_MFMA)
        return "version, warpsPerCTA, instrShape, isTransposed, tilesPerWarp, elementBitWidth";
    if (kind == LAYOUT_TRITON_AMD_WMMA) return "version, isTranspose, warpsPerCTA, instrShape, tilesPerWarp";
    return "versionMajor, versionMinor, warpsPerCTA, instrShape";
}

/* The body '<' '{' fields '}' '>' of an MMA attribute. */
static layout_status read_mma_body(text_cursor *c, layout_triton_kind kind, layout_triton_mma *m)
{
    int have = 0, n_tiles = 0, k;
    size_t warps_at = c->pos, tiles_at = c->pos;
    memset(m, 0, sizeof *m);
    m->element_bit_width = 32;
    if (layout_tx_expect(c, '<', "'<'") || layout_tx_expect(c, '{', "'{'")) return c->status;
    for (;;) {
        char key[32];
        size_t at;
        int bit = 0;
        if (layout_triton_read_key(c, key, sizeof key, &at, "a field name") || layout_triton_read_sep(c))
            return c->status;
        if ((kind == LAYOUT_TRITON_NVIDIA_MMA ? strcmp(key, "versionMajor") : strcmp(key, "version")) == 0) {
            bit = F_VERSION;
            if (read_int(c, 0, 64, key, &m->version)) return c->status;
        } else if (kind == LAYOUT_TRITON_NVIDIA_MMA && strcmp(key, "versionMinor") == 0) {
            bit = F_MINOR;
            if (read_int(c, 0, 64, key, &m->version_minor)) return c->status;
        } else if (strcmp(key, "warpsPerCTA") == 0) {
            bit = F_WARPS;
            layout_tx_skip(c);
            warps_at = c->pos;
            if (layout_triton_read_pow2_list(c, m->warps_per_cta, LAYOUT_MAX_DIMS, &m->rank, key)) return c->status;
        } else if (strcmp(key, "instrShape") == 0) {
            bit = F_INSTR;
            if (read_pos_list(c, m->instr_shape, 4, &m->n_instr, key)) return c->status;
        } else if ((kind == LAYOUT_TRITON_AMD_MFMA && strcmp(key, "isTransposed") == 0) ||
                   (kind == LAYOUT_TRITON_AMD_WMMA && (strcmp(key, "isTranspose") == 0 || strcmp(key, "isTransposed") == 0))) {
            bit = F_TRANS;
            if (read_bool(c, &m->is_transposed, key)) return c->status;
        } else if (kind != LAYOUT_TRITON_NVIDIA_MMA && strcmp(key, "tilesPerWarp") == 0) {
            bit = F_TILES;
            layout_tx_skip(c);
            tiles_at = c->pos;
            if (layout_triton_read_pow2_list(c, m->tiles_per_warp, LAYOUT_MAX_DIMS, &n_tiles, key)) return c->status;
            m->has_tiles_per_warp = 1;
        } else if (kind == LAYOUT_TRITON_AMD_MFMA && strcmp(key, "elementBitWidth") == 0) {
            bit = F_EBW;
            if (read_int(c, 1, 1024, key, &m->element_bit_width)) return c->status;
        } else if (strcmp(key, "CTAsPerCGA") == 0 || strcmp(key, "CTASplitNum") == 0 || strcmp(key, "CTAOrder") == 0 ||
                   strcmp(key, "CGALayout") == 0) {
            if (layout_triton_read_cga(c, key, at)) return c->status;
        } else {
            return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "unknown field '%s' (%s)", key, field_list(kind));
        }
        if (bit & have) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "field '%s' appears twice", key);
        have |= bit;
        if (layout_tx_accept(c, '}')) break;
        if (layout_tx_expect(c, ',', "',' or '}'")) return c->status;
    }
    {
        int need = kind == LAYOUT_TRITON_AMD_MFMA   ? F_VERSION | F_WARPS | F_INSTR | F_TRANS
                   : kind == LAYOUT_TRITON_AMD_WMMA ? F_VERSION | F_WARPS
                                                    : F_VERSION | F_WARPS | F_INSTR;
        static const char *const names[7] = {"version", "versionMinor", "warpsPerCTA", "instrShape", "isTransposed",
                                             "tilesPerWarp", "elementBitWidth"};
        for (k = 0; k < 7; k++)
            if ((need >> k) & 1 && !((have >> k) & 1))
                return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "missing field '%s'",
                                         k == 0 && kind == LAYOUT_TRITON_NVIDIA_MMA ? "versionMajor" : names[k]);
    }
    if (m->rank < 1) return layout_tx_fail_at(c, warps_at, LAYOUT_ERR_ARG, "warpsPerCTA is empty");
    if (m->has_tiles_per_warp && n_tiles != m->rank)
        return layout_tx_fail_at(c, tiles_at, LAYOUT_ERR_MISMATCH, "tilesPerWarp has %d entries, warpsPerCTA %d",
                                 n_tiles, m->rank);
    if (!m->has_tiles_per_warp)
        for (k = 0; k < m->rank; k++) m->tiles_per_warp[k] = 1;
    return layout_tx_expect(c, '>', "'>'");
}

/* An MMA attribute at the cursor (a dot_op's parent): its kind, or 0 when
 * none is there. */
static layout_triton_kind mma_prefix(text_cursor *c)
{
    if (layout_dx_accept_raw(c, "#ttg.amd_mfma")) return LAYOUT_TRITON_AMD_MFMA;
    if (layout_dx_accept_raw(c, "#ttg.amd_wmma")) return LAYOUT_TRITON_AMD_WMMA;
    if (layout_dx_accept_raw(c, "#ttg.nvidia_mma")) return LAYOUT_TRITON_NVIDIA_MMA;
    return LAYOUT_TRITON_SWIZZLED_SHARED; /* 0: none */
}

/* A parent that is neither readable nor an MMA attribute: name what it is. */
static layout_status bad_parent(text_cursor *c, size_t at, const char *what)
{
    char name[32];
    size_t n = 0;
    if (c->text[at] != '#') return layout_tx_expected(c, at, what);
    while (n + 1 < sizeof name && c->text[at + n] && c->text[at + n] != '<' && c->text[at + n] != ',' &&
           c->text[at + n] != '}' && c->text[at + n] != ' ' && c->text[at + n] != '\n')
        name[n] = c->text[at + n], n++;
    name[n] = '\0';
    if (strncmp(name, "#ttg.", 5) != 0)
        return layout_tx_fail_at(c, at, LAYOUT_ERR_UNSUPPORTED,
                                 "parent '%s' is an alias: write the attribute inline (%s)", name, what);
    return layout_tx_fail_at(c, at, LAYOUT_ERR_UNSUPPORTED, "parent '%s' is not supported here (%s)", name, what);
}

/* '<' '{' opIdx, parent (an MMA attribute), kWidth '}' '>' into a; the
 * parent's kind into *parent. */
static layout_status read_dot_body(text_cursor *c, layout_triton_attr *a, layout_triton_kind *parent)
{
    int have = 0;
    size_t kat = c->pos;
    if (layout_tx_expect(c, '<', "'<'") || layout_tx_expect(c, '{', "'{'")) return c->status;
    for (;;) {
        char key[32];
        size_t at;
        int bit;
        if (layout_triton_read_key(c, key, sizeof key, &at, "a field (opIdx, parent, kWidth)") ||
            layout_triton_read_sep(c))
            return c->status;
        if (strcmp(key, "opIdx") == 0) {
            bit = 1;
            if (read_int(c, 0, 1, key, &a->op_idx)) return c->status;
        } else if (strcmp(key, "parent") == 0) {
            size_t pat;
            bit = 2;
            layout_dx_skip_blank(c);
            pat = c->pos;
            if ((*parent = mma_prefix(c))) {
                if (read_mma_body(c, *parent, &a->mma)) return c->status;
            } else if (layout_dx_accept_raw(c, "#ttg.blocked")) {
                /* an FMA operand: the blocked fields; mma.rank carries the parent's rank */
                *parent = LAYOUT_TRITON_BLOCKED;
                if (layout_triton_read_blocked(c, a)) return c->status;
                a->mma.rank = a->rank;
            } else {
                return bad_parent(c, pat,
                                  "a dot_op parent is '#ttg.blocked', '#ttg.amd_mfma', '#ttg.amd_wmma' or "
                                  "'#ttg.nvidia_mma'");
            }
        } else if (strcmp(key, "kWidth") == 0) {
            bit = 4;
            layout_tx_skip(c);
            kat = c->pos;
            if (read_int(c, 0, 1 << 20, key, &a->k_width)) return c->status;
            if ((!layout_is_pow2(a->k_width) && a->k_width != 0) || a->k_width > 64)
                return layout_tx_fail_at(c, kat, LAYOUT_ERR_ARG, "kWidth = %d is not 0 or a power of two in 1..64",
                                         a->k_width);
        } else {
            return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "unknown field '%s' (dot_op has opIdx, parent, kWidth)",
                                     key);
        }
        if (bit & have) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "field '%s' appears twice", key);
        have |= bit;
        if (layout_tx_accept(c, '}')) break;
        if (layout_tx_expect(c, ',', "',' or '}'")) return c->status;
    }
    if (!(have & 1)) return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "missing field 'opIdx'");
    if (!(have & 2)) return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "missing field 'parent'");
    if (*parent != LAYOUT_TRITON_BLOCKED && a->k_width == 0)
        return layout_tx_fail_at(c, have & 4 ? kat : c->pos - 1, LAYOUT_ERR_UNSUPPORTED,
                                 "%s (an MMA operand needs kWidth)", have & 4 ? "kWidth = 0" : "missing field 'kWidth'");
    return layout_tx_expect(c, '>', "'>'");
}

/* '<' '{' dim, parent '}' '>' of a slice; a parent that is a slice itself
 * (Triton's verifier takes any distributed parent of rank >= 2) makes a
 * chain: its dims in outer_slice_dims, innermost first. */
static layout_status read_slice_body(text_cursor *c, layout_triton_attr *a, int depth)
{
    int have = 0, dim = 0, nested = 0;
    size_t dim_at = c->pos;
    if (layout_tx_expect(c, '<', "'<'") || layout_tx_expect(c, '{', "'{'")) return c->status;
    for (;;) {
        char key[32];
        size_t at;
        int bit;
        if (layout_triton_read_key(c, key, sizeof key, &at, "a field (dim, parent)") || layout_triton_read_sep(c))
            return c->status;
        if (strcmp(key, "dim") == 0) {
            bit = 1;
            layout_tx_skip(c);
            dim_at = c->pos;
            if (read_int(c, 0, LAYOUT_TRITON_MAX_RANK - 1, key, &dim)) return c->status;
        } else if (strcmp(key, "parent") == 0) {
            size_t pat;
            layout_triton_kind k;
            bit = 2;
            layout_dx_skip_blank(c);
            pat = c->pos;
            if ((k = mma_prefix(c))) {
                a->parent = k;
                if (read_mma_body(c, k, &a->mma)) return c->status;
                a->parent_rank = a->mma.rank;
            } else if (layout_dx_accept_raw(c, "#ttg.dot_op")) {
                a->parent = LAYOUT_TRITON_DOT_OPERAND;
                if (read_dot_body(c, a, &a->dot_parent)) return c->status;
                a->parent_rank = a->mma.rank;
            } else if (layout_dx_accept_raw(c, "#ttg.blocked")) {
                a->parent = LAYOUT_TRITON_BLOCKED;
                if (layout_triton_read_blocked(c, a)) return c->status;
                a->parent_rank = a->rank;
            } else if (layout_dx_accept_raw(c, "#ttg.linear")) {
                /* SliceEncodingAttr takes any distributed parent (Triton 3.6) */
                a->parent = LAYOUT_TRITON_LINEAR;
                if (layout_tx_expect(c, '<', "'<'") || layout_triton_read_linear(c, a, 1) ||
                    layout_tx_expect(c, '>', "'>'"))
                    return c->status;
                if (layout_linear_in_dim(&a->linear, "lane") < 0)
                    return bad_parent(c, pat, "a slice's '#ttg.linear' parent has register, lane and warp bases");
                a->parent_rank = a->rank > 0 ? a->rank : 0;
            } else if (depth < LAYOUT_TRITON_MAX_RANK - 1 && layout_dx_accept_raw(c, "#ttg.slice")) {
                if (read_slice_body(c, a, depth + 1)) return c->status;
                nested = 1;
            } else {
                return bad_parent(c, pat,
                                  "a slice parent is '#ttg.blocked', '#ttg.linear', '#ttg.amd_mfma', "
                                  "'#ttg.amd_wmma', '#ttg.nvidia_mma', '#ttg.dot_op' or a '#ttg.slice' of them");
            }
        } else {
            return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "unknown field '%s' (slice has dim, parent)", key);
        }
        if (bit & have) return layout_tx_fail_at(c, at, LAYOUT_ERR_PARSE, "field '%s' appears twice", key);
        have |= bit;
        if (layout_tx_accept(c, '}')) break;
        if (layout_tx_expect(c, ',', "',' or '}'")) return c->status;
    }
    if (!(have & 1)) return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "missing field 'dim'");
    if (!(have & 2)) return layout_tx_fail_at(c, c->pos - 1, LAYOUT_ERR_PARSE, "missing field 'parent'");
    {
        int prank = nested ? a->rank : a->parent_rank;
        if (prank < 2 || dim >= prank)
            return layout_tx_fail_at(c, dim_at, LAYOUT_ERR_ARG, "slice dim %d of a rank-%d parent (Triton's verifier: "
                                                                "the parent has rank >= 2 and dim < its rank)",
                                     dim, prank);
        if (nested) a->outer_slice_dims[a->n_outer_slices++] = dim;
        else a->slice_dim = dim, a->n_outer_slices = 0;
        a->rank = prank - 1;
    }
    return layout_tx_expect(c, '>', "'>'");
}

int layout_triton_read_mma(text_cursor *c, layout_triton_attr *a)
{
    layout_triton_kind k = mma_prefix(c);
    if (k) {
        a->kind = k;
        if (read_mma_body(c, k, &a->mma)) return c->status;
        a->rank = a->mma.rank;
        return LAYOUT_OK;
    }
    if (layout_dx_accept_raw(c, "#ttg.dot_op")) {
        a->kind = LAYOUT_TRITON_DOT_OPERAND;
        if (read_dot_body(c, a, &a->parent)) return c->status;
        a->rank = a->mma.rank;
        return LAYOUT_OK;
    }
    if (layout_dx_accept_raw(c, "#ttg.slice")) {
        a->kind = LAYOUT_TRITON_SLICE;
        return read_slice_body(c, a, 0);
    }
    return LAYOUT_TRITON_NO_MMA;
}

/* ---------------------------------------------------------------- printing */

static void put_list(text_out *o, const int64_t *v, int n)
{
    int k;
    layout_to_str(o, "[");
    for (k = 0; k < n; k++) layout_to_printf(o, k ? ", %lld" : "%lld", (long long)v[k]);
    layout_to_str(o, "]");
}

void layout_triton_print_blocked(text_out *o, const layout_triton_attr *a)
{
    int k, n = a->kind == LAYOUT_TRITON_SLICE ? a->parent_rank : a->rank;
    layout_to_str(o, "#ttg.blocked<{sizePerThread = ");
    put_list(o, a->size_per_thread, n);
    layout_to_str(o, ", threadsPerWarp = ");
    put_list(o, a->threads_per_warp, n);
    layout_to_str(o, ", warpsPerCTA = ");
    put_list(o, a->warps_per_cta, n);
    layout_to_str(o, ", order = [");
    for (k = 0; k < n; k++) layout_to_printf(o, k ? ", %d" : "%d", a->order[k]);
    layout_to_str(o, "]}>");
}

static void put_mma(text_out *o, layout_triton_kind kind, const layout_triton_mma *m)
{
    int k, unit = 1;
    for (k = 0; k < m->rank; k++)
        if (m->tiles_per_warp[k] != 1) unit = 0;
    if (kind == LAYOUT_TRITON_AMD_MFMA) {
        layout_to_printf(o, "#ttg.amd_mfma<{version = %d, warpsPerCTA = ", m->version);
        put_list(o, m->warps_per_cta, m->rank);
        layout_to_str(o, ", instrShape = ");
        put_list(o, m->instr_shape, m->n_instr);
        layout_to_printf(o, ", isTransposed = %s", m->is_transposed ? "true" : "false");
        if (!unit) {
            layout_to_str(o, ", tilesPerWarp = ");
            put_list(o, m->tiles_per_warp, m->rank);
        }
        if (m->element_bit_width != 32) layout_to_printf(o, ", elementBitWidth = %d", m->element_bit_width);
    } else if (kind == LAYOUT_TRITON_AMD_WMMA) {
        layout_to_printf(o, "#ttg.amd_wmma<{version = %d, isTranspose = %s, warpsPerCTA = ", m->version,
                         m->is_transposed ? "true" : "false");
        put_list(o, m->warps_per_cta, m->rank);
        if (!unit) {
            layout_to_str(o, ", tilesPerWarp = ");
            put_list(o, m->tiles_per_warp, m->rank);
        }
        if (m->n_instr && !(m->n_instr == 3 && m->instr_shape[0] == 16 && m->instr_shape[1] == 16 &&
                            m->instr_shape[2] == 16)) {
            layout_to_str(o, ", instrShape = ");
            put_list(o, m->instr_shape, m->n_instr);
        }
    } else {
        layout_to_printf(o, "#ttg.nvidia_mma<{versionMajor = %d, versionMinor = %d, warpsPerCTA = ", m->version,
                         m->version_minor);
        put_list(o, m->warps_per_cta, m->rank);
        layout_to_str(o, ", instrShape = ");
        put_list(o, m->instr_shape, m->n_instr);
    }
    layout_to_str(o, "}>");
}

static void put_dot(text_out *o, layout_triton_kind parent, const layout_triton_attr *a)
{
    layout_to_printf(o, "#ttg.dot_op<{opIdx = %d, parent = ", a->op_idx);
    if (parent == LAYOUT_TRITON_BLOCKED)
        layout_triton_print_blocked(o, a);
    else
        put_mma(o, parent, &a->mma);
    if (a->k_width) layout_to_printf(o, ", kWidth = %d", a->k_width);
    layout_to_str(o, "}>");
}

/* A slice's #ttg.linear parent, as Triton prints a LinearEncodingAttr. */
static void put_linear(text_out *o, const layout_linear *ll)
{
    static const char *const dims[4] = {"register", "lane", "warp", "block"};
    int k, b, j;
    layout_to_str(o, "#ttg.linear<{");
    for (k = 0; k < 4; k++) {
        int in = layout_linear_in_dim(ll, dims[k]);
        layout_to_printf(o, "%s%s = [", k ? ", " : "", dims[k]);
        for (b = 0; in >= 0 && b < ll->in_bits[in]; b++) {
            int64_t v[LAYOUT_LINEAR_MAX_DIMS];
            layout_linear_get_basis(ll, in, b, v, NULL);
            layout_to_str(o, b ? ", [" : "[");
            for (j = 0; j < ll->n_out; j++) layout_to_printf(o, j ? ", %lld" : "%lld", (long long)v[j]);
            layout_to_str(o, "]");
        }
        layout_to_str(o, "]");
    }
    layout_to_str(o, "}>");
}

void layout_triton_print_mma(text_out *o, const layout_triton_attr *a)
{
    if (a->kind == LAYOUT_TRITON_DOT_OPERAND) {
        put_dot(o, a->parent, a);
    } else if (a->kind == LAYOUT_TRITON_SLICE) {
        int i;
        for (i = a->n_outer_slices - 1; i >= 0; i--) /* the outermost slice first */
            layout_to_printf(o, "#ttg.slice<{dim = %d, parent = ", a->outer_slice_dims[i]);
        layout_to_printf(o, "#ttg.slice<{dim = %d, parent = ", a->slice_dim);
        if (a->parent == LAYOUT_TRITON_BLOCKED)
            layout_triton_print_blocked(o, a);
        else if (a->parent == LAYOUT_TRITON_DOT_OPERAND)
            put_dot(o, a->dot_parent, a);
        else if (a->parent == LAYOUT_TRITON_LINEAR)
            put_linear(o, &a->linear);
        else
            put_mma(o, a->parent, &a->mma);
        for (i = 0; i <= a->n_outer_slices; i++) layout_to_str(o, "}>");
    } else {
        put_mma(o, a->kind, &a->mma);
    }
}
