/* Probe kernels: a HIP / CUDA source file that moves tiles through LDS as a
 * kernel spec says (include/layout/emit.h). */
#include "layout/emit.h"
#include "layout/access.h"
#include "layout/plan.h"
#include "layout/text.h"
#include "../core/internal.h"
#include "../core/strbuf.h"
#include "emit_internal.h"

#include <inttypes.h>
#include <string.h>

static const char fn_name[] = "layout_emit_probe";

const char *layout_emit_lang_name(layout_emit_lang lang)
{
    return lang == LAYOUT_EMIT_HIP ? "hip" : lang == LAYOUT_EMIT_CUDA ? "cuda" : "?";
}

typedef layout_emit_side emit_side;

/* The comment text: "*" "/" would end it, so it is broken up; lines are continued. */
static void put_comment_text(layout_strbuf *sb, const char *s)
{
    for (; *s; s++) {
        if (s[0] == '*' && s[1] == '/') layout_sb_printf(sb, "* ");
        else if (*s == '\n') layout_sb_printf(sb, "\n *   ");
        else if (*s != '\r') layout_sb_printf(sb, "%c", *s);
    }
}

/* The spec from the objects' text forms, as `layout check` options. */
static layout_status put_spec_from_objects(layout_strbuf *sb, const layout_emit_spec *sp, layout_error *err)
{
    char text[LAYOUT_TEXT_CAP];
    layout_status s;
    if (sp->arch) {
        layout_sb_printf(sb, "--arch ");
        put_comment_text(sb, sp->arch->name);
        layout_sb_printf(sb, " ");
    }
    layout_sb_printf(sb, "--elem %d --lds '", sp->elem_bytes);
    if ((s = layout_desc_to_text(sp->write_desc, text, sizeof text, err))) return s;
    put_comment_text(sb, text);
    if (sp->read_desc && sp->read_desc != sp->write_desc) {
        layout_sb_printf(sb, "' --read-lds '");
        if ((s = layout_desc_to_text(sp->read_desc, text, sizeof text, err))) return s;
        put_comment_text(sb, text);
    }
    layout_sb_printf(sb, "' --write '");
    if ((s = layout_dist_to_text(sp->write_dist, text, sizeof text, err))) return s;
    put_comment_text(sb, text);
    layout_sb_printf(sb, "' --read '");
    if ((s = layout_dist_to_text(sp->read_dist, text, sizeof text, err))) return s;
    put_comment_text(sb, text);
    layout_sb_printf(sb, "' --tiles %" PRId64, sp->tiles);
    if (sp->base_bytes) layout_sb_printf(sb, " --base %" PRId64, sp->base_bytes);
    return LAYOUT_OK;
}

static void put_var(layout_strbuf *sb, int var)
{
    if (var < LAYOUT_MAX_DIMS) layout_sb_printf(sb, "x%d", var);
    else layout_sb_printf(sb, "t%d", var - LAYOUT_MAX_DIMS);
}

/* Affine expression e of plan p: (c + k v + ...), coefficients written out. */
static void put_expr(layout_strbuf *sb, const layout_plan *p, int e)
{
    const layout_plan_expr *x = &p->exprs[e];
    int any = 0;
    layout_sb_printf(sb, "(");
    for (int i = x->first_term; i < x->first_term + x->n_terms; i++) {
        int64_t k = p->term_coef[i];
        if (k == 0) continue;
        uint64_t mag = k < 0 ? (uint64_t)0 - (uint64_t)k : (uint64_t)k;
        if (any) layout_sb_printf(sb, k < 0 ? " - " : " + ");
        else if (k < 0) layout_sb_printf(sb, "-");
        if (mag != 1) layout_sb_printf(sb, "%" PRIu64 "%s * ", mag, mag > INT32_MAX ? "LL" : "");
        put_var(sb, p->term_var[i]);
        any = 1;
    }
    if (!any) layout_emit_put_lit(sb, x->constant);
    else if (x->constant > 0) layout_sb_printf(sb, " + "), layout_emit_put_lit(sb, x->constant);
    else if (x->constant < 0) layout_sb_printf(sb, " - "), layout_emit_put_lit(sb, -x->constant);
    layout_sb_printf(sb, ")");
}

/* lp_<tag>_off(x...): the descriptor's offset, its plan written out as C. */
static void put_offset_fn(layout_strbuf *sb, const emit_side *s)
{
    const layout_plan *p = &s->plan;
    layout_sb_printf(sb, "/* LDS element offset of a %s-side coordinate: the descriptor's index arithmetic\n"
                         " * (affine parts folded; each DIV is a merge / modulo, each XOR a swizzle). */\n",
                     s->tag[0] == 'w' ? "write" : "read");
    layout_sb_printf(sb, "static LP_HD inline lp_idx lp_%s_off(", s->tag);
    for (int d = 0; d < p->n_top; d++) layout_sb_printf(sb, "%slp_idx x%d", d ? ", " : "", d);
    layout_sb_printf(sb, ")\n{\n");
    for (int d = 0; d < p->n_top; d++) layout_sb_printf(sb, "    (void)x%d;\n", d);
    for (int o = 0; o < p->n_ops; o++) {
        const layout_plan_op *op = &p->ops[o];
        layout_sb_printf(sb, "    const lp_idx t%d = ", o);
        put_expr(sb, p, op->in0);
        if (op->kind == LAYOUT_PLAN_OP_DIV) {
            layout_sb_printf(sb, " / ");
            layout_emit_put_lit(sb, op->divisor);
        } else {
            layout_sb_printf(sb, " ^ ");
            put_expr(sb, p, op->in1);
        }
        layout_sb_printf(sb, ";\n");
    }
    layout_sb_printf(sb, "    return ");
    put_expr(sb, p, p->offset_expr);
    layout_sb_printf(sb, ";\n}\n\n");
}

/* Length of the RH entry (major, minor) of an encoding. */
static int64_t rh_length(const layout_dist_encoding *e, int major, int minor)
{
    return major == 0 ? e->r[minor] : e->h[major - 1][minor];
}

/* lp_<tag>_lane(warp, lane, x): the lane part of a thread's X coordinate
 * (P digits times their weights); lp_<tag>_lin(x...): row-major index in the
 * tile (the global buffers). */
static void put_dist_fns(layout_strbuf *sb, const emit_side *s)
{
    const layout_distribution *d = s->dist;
    const layout_dist_encoding *e = &d->encoding;
    layout_sb_printf(sb, "/* %s side: the X coordinate of (warp, lane) at Y = 0 (the P digits times their weights). */\n",
                     s->tag[0] == 'w' ? "write" : "read");
    layout_sb_printf(sb, "static LP_HD inline void lp_%s_lane(int warp, int lane, lp_idx *x)\n{\n", s->tag);
    layout_sb_printf(sb, "    (void)warp;\n    (void)lane;\n");
    for (int xd = 0; xd < d->n_x; xd++) {
        int any = 0;
        layout_sb_printf(sb, "    x[%d] = ", xd);
        for (int p = 0; p < e->n_p; p++) {
            const char *pv = (e->n_p == 2 && p == 0) ? "warp" : "lane";
            for (int k = 0; k < e->n_p_rh[p]; k++) {
                if (d->p_x[p][k] != xd) continue;
                int64_t len = rh_length(e, e->p_major[p][k], e->p_minor[p][k]), stride = 1;
                if (len == 1 || d->p_weight[p][k] == 0) continue;
                for (int q = k + 1; q < e->n_p_rh[p]; q++) stride *= rh_length(e, e->p_major[p][q], e->p_minor[p][q]);
                layout_sb_printf(sb, "%s(lp_idx)(", any ? " + " : "");
                if (stride == 1) layout_sb_printf(sb, "%s", pv);
                else layout_sb_printf(sb, "%s / %" PRId64, pv, stride);
                if (k > 0) layout_sb_printf(sb, " %% %" PRId64, len);
                layout_sb_printf(sb, ")");
                if (d->p_weight[p][k] != 1) layout_sb_printf(sb, " * "), layout_emit_put_lit(sb, d->p_weight[p][k]);
                any = 1;
            }
        }
        if (!any) layout_sb_printf(sb, "0");
        layout_sb_printf(sb, ";\n");
    }
    layout_sb_printf(sb, "}\n\n");
    layout_sb_printf(sb, "static LP_HD inline lp_idx lp_%s_lin(", s->tag);
    for (int xd = 0; xd < d->n_x; xd++) layout_sb_printf(sb, "%slp_idx x%d", xd ? ", " : "", xd);
    layout_sb_printf(sb, ")\n{\n    return ");
    for (int xd = 0; xd < d->n_x; xd++) {
        int64_t stride = 1;
        for (int q = xd + 1; q < d->n_x; q++) stride *= d->x_lengths[q];
        layout_sb_printf(sb, "%s", xd ? " + " : "");
        if (stride == 1) layout_sb_printf(sb, "x%d", xd);
        else layout_sb_printf(sb, "x%d * ", xd), layout_emit_put_lit(sb, stride);
    }
    layout_sb_printf(sb, ";\n}\n\n");
}

/* Host side: lp_<tag>_coord(warp, lane, elem, x), Y decomposed from the register index. */
static void put_host_coord_fn(layout_strbuf *sb, const emit_side *s)
{
    const layout_distribution *d = s->dist;
    layout_sb_printf(sb, "static void lp_%s_coord(int warp, int lane, int elem, lp_idx *x)\n{\n", s->tag);
    layout_sb_printf(sb, "    lp_%s_lane(warp, lane, x);\n", s->tag);
    for (int j = d->n_y - 1; j >= 0; j--) {
        layout_sb_printf(sb, "    x[%d] += (lp_idx)(elem %% %" PRId64 ") * ", d->encoding.y_major[j] - 1, d->y_lengths[j]);
        layout_emit_put_lit(sb, d->y_weight[j]);
        layout_sb_printf(sb, ";\n    elem /= %" PRId64 ";\n", d->y_lengths[j]);
    }
    layout_sb_printf(sb, "}\n\n");
}

/* The global side of one side: every register from / to the tile's global buffer. */
static void put_global_side(layout_strbuf *sb, const emit_side *s, int words, int load)
{
    const layout_distribution *d = s->dist;
    for (int e = 0; e < (int)d->elems_per_thread; e++) {
        int64_t c[LAYOUT_MAX_DIMS];
        layout_emit_y_const(d, e, c);
        for (int k = 0; k < words; k++) {
            if (load) layout_sb_printf(sb, "    rw[%d] = tin[", e * words + k);
            else layout_sb_printf(sb, "    tout[");
            if (words > 1) layout_sb_printf(sb, "LP_WORDS * ");
            layout_sb_printf(sb, "lp_%s_lin(", s->tag);
            layout_emit_put_coord_args(sb, load ? "wx" : "rx", d->n_x, c);
            layout_sb_printf(sb, ")");
            if (k) layout_sb_printf(sb, " + %d", k);
            if (load) layout_sb_printf(sb, "];\n");
            else layout_sb_printf(sb, "] = rr[%d];\n", e * words + k);
        }
    }
}

/* A macro calling lp_<tag>_<what>(x[0], x[1], ...) from an array. */
static void put_of_macro(layout_strbuf *sb, const char *tag, const char *what, const char *upper, int n_x)
{
    layout_sb_printf(sb, "#define LP_%s_%s_OF(x) lp_%s_%s(", tag[0] == 'w' ? "W" : "R", upper, tag, what);
    for (int d = 0; d < n_x; d++) layout_sb_printf(sb, "%s(x)[%d]", d ? ", " : "", d);
    layout_sb_printf(sb, ")\n");
}

static layout_status check_side(const emit_side *s, const char *side, layout_error *err)
{
    if (s->dist->kind != LAYOUT_DIST_ENCODING)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %s side: a plain-form distribution has no index "
                                                        "arithmetic to emit (use an encoding)", fn_name, side);
    if (s->plan.n_checks > 0)
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: %s side: the descriptor has validity checks (pads); "
                                                        "probes of padded views are not emitted", fn_name, side);
    return LAYOUT_OK;
}

/* The spec's own checks, before anything is built from it. */
static layout_status check_spec(const layout_emit_spec *spec, const char *buf, size_t cap, layout_error *err)
{
    if (!spec) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec is NULL", fn_name);
    if (!spec->write_desc) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->write_desc is NULL", fn_name);
    if (!spec->write_dist) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->write_dist is NULL", fn_name);
    if (!spec->read_dist) return layout_fail(err, LAYOUT_ERR_NULL, "%s: spec->read_dist is NULL", fn_name);
    if (!buf && cap > 0) return layout_fail(err, LAYOUT_ERR_NULL, "%s: buf is NULL with cap %zu", fn_name, cap);
    if (spec->lang != LAYOUT_EMIT_HIP && spec->lang != LAYOUT_EMIT_CUDA)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->lang = %d must be LAYOUT_EMIT_HIP or LAYOUT_EMIT_CUDA",
                           fn_name, (int)spec->lang);
    if (spec->elem_bytes != 1 && spec->elem_bytes != 2 && spec->elem_bytes != 4 && spec->elem_bytes != 8 &&
        spec->elem_bytes != 16)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->elem_bytes = %d must be 1, 2, 4, 8 or 16", fn_name,
                           spec->elem_bytes);
    if (spec->tiles < 1 || spec->tiles > INT32_MAX)
        return layout_fail(err, LAYOUT_ERR_ARG, "%s: spec->tiles = %" PRId64 " must be in 1..2147483647", fn_name,
                           spec->tiles);
    const int word_bytes = spec->elem_bytes > 8 ? 8 : spec->elem_bytes;
    if (spec->base_bytes < 0 || spec->base_bytes > (1 << 20) || spec->base_bytes % word_bytes)
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "%s: spec->base_bytes = %" PRId64 " must be in 0..1048576 and a multiple of %d", fn_name,
                           spec->base_bytes, word_bytes);
    if (spec->write_dist->wave_size != spec->read_dist->wave_size ||
        spec->write_dist->n_warps != spec->read_dist->n_warps)
        return layout_fail(err, LAYOUT_ERR_ARG,
                           "%s: the write side has %d warps of %d lanes, the read side %d of %d: one block runs both",
                           fn_name, spec->write_dist->n_warps, spec->write_dist->wave_size, spec->read_dist->n_warps,
                           spec->read_dist->wave_size);
    if (spec->arch && spec->arch->wave_size != spec->write_dist->wave_size)
        return layout_fail(err, LAYOUT_ERR_MISMATCH, "%s: the distributions have %d lanes per wave, %s has %d",
                           fn_name, spec->write_dist->wave_size, spec->arch->name, spec->arch->wave_size);
    return LAYOUT_OK;
}

/* Both sides compiled (the descriptor's plan, the model's access plan)
 * and *space, the LDS element space both views need. */
static layout_status build_sides(const layout_emit_spec *spec, emit_side *side, int64_t *space, layout_error *err)
{
    layout_access_options opt;
    layout_status s;
    memset(&opt, 0, sizeof opt);
    opt.base_bytes = spec->base_bytes;
    opt.arch = spec->arch; /* NULL: AMD's DS forms, as the default --arch gfx942 */
    side[0].tag = "w";
    side[0].desc = spec->write_desc;
    side[0].dist = spec->write_dist;
    side[1].tag = "r";
    side[1].desc = spec->read_desc ? spec->read_desc : spec->write_desc;
    side[1].dist = spec->read_dist;
    for (int i = 0; i < 2; i++) {
        const char *name = i ? "read" : "write";
        layout_error e2;
        if ((s = layout_plan_build(&side[i].plan, side[i].desc, LAYOUT_PLAN_SCALAR, &e2)) ||
            (s = layout_access_plan_make(&side[i].access, side[i].desc, side[i].dist, i ? LAYOUT_READ : LAYOUT_WRITE,
                                         spec->elem_bytes, &opt, &e2)))
            return layout_fail(err, s, "%s: %s side: %s", fn_name, name, e2.message);
        if ((s = check_side(&side[i], name, err))) return s;
    }
    *space = 0;
    for (int i = 0; i < 2; i++) {
        int64_t sp = layout_desc_element_space_size(side[i].desc);
        if (sp > *space) *space = sp;
    }
    if (*space <= 0 || *space > ((int64_t)1 << 24))
        return layout_fail(err, LAYOUT_ERR_UNSUPPORTED, "%s: an LDS element space of %" PRId64 " is not emitted",
                           fn_name, *space);
    return LAYOUT_OK;
}

/* The header comment: what the file is, the spec, the model's prediction,
 * how to build and run it. */
static layout_status put_header(layout_strbuf *sb, const layout_emit_spec *spec, const emit_side *side,
                                layout_error *err)
{
    const int hip = spec->lang == LAYOUT_EMIT_HIP;
    const layout_distribution *wd = spec->write_dist;
    char text[160];
    layout_status s;
    layout_sb_printf(sb, "/* liblayout probe kernel (%s), made by `layout emit --%s` from the spec\n *\n *   ",
                     hip ? "HIP" : "CUDA", hip ? "hip" : "cuda");
    if (spec->spec_text) put_comment_text(sb, spec->spec_text);
    else if ((s = put_spec_from_objects(sb, spec, err))) return s;
    layout_sb_printf(sb, "\n *\n * The compiler model's prediction, %s per %s and tile:\n *   write: ",
                     hip ? "DS instructions" : "shared-memory instructions (PTX)", hip ? "wave" : "warp");
    layout_emit_plan_print(&side[0].access, !hip, text, sizeof text);
    put_comment_text(sb, text);
    layout_sb_printf(sb, "\n *   read:  ");
    layout_emit_plan_print(&side[1].access, !hip, text, sizeof text);
    put_comment_text(sb, text);
    layout_sb_printf(sb, "\n *\n * One block of %d %s x %d %s per tile, %" PRId64 " tile%s.  Each thread loads its write-side\n"
                         " * elements from `in`, stores them to %s, waits at __syncthreads(), loads its\n"
                         " * read-side elements and stores them to `out`.  Each %s access is one instruction\n"
                         " * of the model: a type of exactly its width that claims exactly its proven\n"
                         " * alignment, at the offset the descriptor's own index arithmetic gives%s.\n"
                         " * Each instruction's address also adds its own multiple of lp_zero, a kernel\n"
                         " * argument that is 0 at run time, so the compiler cannot join two instructions\n"
                         " * the model keeps apart.\n"
                         " * The compiler is told what the model proves and picks the instructions; where\n"
                         " * they differ from the prediction, the model is wrong.  The host part checks\n"
                         " * every element read against where the spec puts it and prints the time.\n *\n",
                     wd->n_warps, hip ? "waves" : "warps", wd->wave_size, hip ? "lanes" : "threads", spec->tiles,
                     spec->tiles == 1 ? "" : "s", hip ? "LDS" : "shared memory", hip ? "LDS" : "shared-memory",
                     hip ? " (the\n * two halves of a read2 / write2 from one base)" : "");
    if (hip)
        layout_sb_printf(sb, " * Build and run:    hipcc -O3 probe.hip -o probe && ./probe\n"
                             " * Device assembly:  clang -x hip --cuda-device-only -nogpuinc -nogpulib --offload-arch=%s -O3 -S probe.hip\n",
                         spec->arch ? spec->arch->name : "gfx942");
    else
        layout_sb_printf(sb, " * Build and run:    nvcc -O3 -arch=%s probe.cu -o probe && ./probe\n"
                             " * Device assembly:  nvcc -O3 -arch=%s -ptx probe.cu\n"
                             " * Counters:         ncu --metrics smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_shared_ld.sum,\n"
                             " *                   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum ./probe\n"
                             " *                   (instructions = the prediction per warp x warps x tiles, the kernel runs twice)\n",
                         spec->arch && strncmp(spec->arch->name, "sm_", 3) == 0 ? spec->arch->name : "sm_90",
                         spec->arch && strncmp(spec->arch->name, "sm_", 3) == 0 ? spec->arch->name : "sm_90");
    layout_sb_printf(sb, " * On the CPU:       clang++ -x c++ -std=c++11 -DLP_EMULATE -O1 probe.%s -o probe -pthread && ./probe\n",
                     hip ? "hip" : "cu");
    layout_sb_printf(sb, " */\n\n");
    return LAYOUT_OK;
}

/* The LP_* sizes, the runtime's preamble, the types, then both sides'
 * index arithmetic. */
static void put_definitions(layout_strbuf *sb, const layout_emit_spec *spec, const emit_side *side, int64_t space)
{
    const int hip = spec->lang == LAYOUT_EMIT_HIP;
    const int word_bytes = spec->elem_bytes > 8 ? 8 : spec->elem_bytes, words = spec->elem_bytes / word_bytes;
    const int fits32 = side[0].plan.fits_int32 && side[1].plan.fits_int32;
    const layout_distribution *wd = spec->write_dist;
    int64_t tile_elems[2] = {1, 1};
    for (int i = 0; i < 2; i++)
        for (int d = 0; d < side[i].dist->n_x; d++) tile_elems[i] *= side[i].dist->x_lengths[d];
    layout_sb_printf(sb, "#define LP_WAVE %d\n#define LP_WARPS %d\n#define LP_THREADS %d\n#define LP_TILES %" PRId64 "\n",
                     wd->wave_size, wd->n_warps, wd->wave_size * wd->n_warps, spec->tiles);
    layout_sb_printf(sb, "#define LP_ELEM_BYTES %d\n#define LP_WORDS %d /* words of type lp_s per element */\n",
                     spec->elem_bytes, words);
    layout_sb_printf(sb, "#define LP_W_TILE %" PRId64 " /* elements of the write tile, row-major in `in` */\n",
                     tile_elems[0]);
    layout_sb_printf(sb, "#define LP_R_TILE %" PRId64 " /* elements of the read tile, row-major in `out` */\n",
                     tile_elems[1]);
    layout_sb_printf(sb, "#define LP_W_ELEMS %d\n#define LP_R_ELEMS %d\n#define LP_W_NX %d\n#define LP_R_NX %d\n",
                     side[0].access.n_elems, side[1].access.n_elems, side[0].dist->n_x, side[1].dist->n_x);
    layout_sb_printf(sb, "#define LP_LDS_ELEMS %" PRId64 " /* LDS element space of the views */\n", space);
    layout_sb_printf(sb, "#define LP_BASE_WORDS %" PRId64 " /* LDS offset 0 at byte %" PRId64 " */\n\n",
                     spec->base_bytes / word_bytes, spec->base_bytes);
    layout_sb_printf(sb, "#if defined(LP_EMULATE)\n%s#else\n%s#endif\n", layout_emit_tpl_emulate,
                     hip ? layout_emit_tpl_hip : layout_emit_tpl_cuda);
    layout_sb_printf(sb, "typedef %s lp_s; /* one word of an element */\n",
                     word_bytes == 1 ? "unsigned char" : word_bytes == 2 ? "unsigned short"
                     : word_bytes == 4 ? "unsigned int" : "unsigned long long");
    layout_sb_printf(sb, "typedef %s lp_idx; /* index type of the descriptors' arithmetic */\n",
                     fits32 ? "int" : "long long");
    layout_sb_printf(sb, "#define LP_HD __host__ __device__\n");
    layout_sb_printf(sb, "\n");
    layout_emit_put_step_types(sb, side, 2, hip, word_bytes);
    for (int i = 0; i < 2; i++) {
        put_offset_fn(sb, &side[i]);
        put_dist_fns(sb, &side[i]);
        put_of_macro(sb, side[i].tag, "off", "OFF", side[i].dist->n_x);
        put_of_macro(sb, side[i].tag, "lin", "LIN", side[i].dist->n_x);
        layout_sb_printf(sb, "\n");
    }
}

/* The model's instructions of one side, under a comment that counts them. */
static layout_status put_lds_side(layout_strbuf *sb, const emit_side *s, int hip, int word_bytes, int store,
                                  layout_error *err)
{
    const layout_access_plan *a = &s->access;
    const char *mem = hip ? "LDS" : "shared memory";
    layout_error e3;
    layout_status st;
    layout_sb_printf(sb, store ? "\n    /* registers -> %s: " : "    /* %s -> registers: ", mem);
    layout_sb_printf(sb, "the model's %d instruction%s (%d tile-window access%s of %d element%s) */\n", a->n_instrs,
                     a->n_instrs == 1 ? "" : "s", a->n_accesses, a->n_accesses == 1 ? "" : "es", a->vector_elems,
                     a->vector_elems == 1 ? "" : "s");
    if ((st = layout_emit_put_lds_steps(sb, s, hip, word_bytes, store, &e3)))
        return layout_fail(err, st, "%s: %s side: the model's instructions cannot be written: %s", fn_name,
                           store ? "write" : "read", e3.message);
    return LAYOUT_OK;
}

/* The kernel: one tile per block, straight-line code. */
static layout_status put_kernel(layout_strbuf *sb, const layout_emit_spec *spec, const emit_side *side,
                                layout_error *err)
{
    const int hip = spec->lang == LAYOUT_EMIT_HIP;
    const int word_bytes = spec->elem_bytes > 8 ? 8 : spec->elem_bytes, words = spec->elem_bytes / word_bytes;
    layout_status s;
    layout_sb_printf(sb, "extern \"C\" __global__ void LP_BOUNDS layout_probe(const lp_s *__restrict__ in, lp_s *__restrict__ out,\n"
                         "                                                     int lp_zero /* 0: see the header */)\n{\n");
    layout_sb_printf(sb, "    __shared__ __attribute__((aligned(16))) lp_s lp_lds[LP_BASE_WORDS + LP_LDS_ELEMS * LP_WORDS];\n");
    layout_sb_printf(sb, "    lp_s *const lds = lp_lds + LP_BASE_WORDS;\n");
    layout_sb_printf(sb, "    unsigned char *const lds_b = (unsigned char *)lds;\n");
    layout_sb_printf(sb, "    const int tid = LP_TID(), warp = tid / LP_WAVE, lane = tid %% LP_WAVE;\n");
    layout_sb_printf(sb, "    const lp_s *const tin = in + (unsigned long long)LP_BID() * (LP_W_TILE * LP_WORDS);\n");
    layout_sb_printf(sb, "    lp_s *const tout = out + (unsigned long long)LP_BID() * (LP_R_TILE * LP_WORDS);\n");
    layout_sb_printf(sb, "    lp_s rw[LP_W_ELEMS * LP_WORDS], rr[LP_R_ELEMS * LP_WORDS];\n");
    layout_sb_printf(sb, "    lp_idx wx[LP_W_NX], rx[LP_R_NX];\n");
    layout_sb_printf(sb, "    lp_w_lane(warp, lane, wx);\n    lp_r_lane(warp, lane, rx);\n\n");
    layout_sb_printf(sb, "    /* global -> registers: the write side's elements */\n");
    put_global_side(sb, &side[0], words, 1);
    if ((s = put_lds_side(sb, &side[0], hip, word_bytes, 1, err))) return s;
    layout_sb_printf(sb, "\n    __syncthreads();\n\n");
    if ((s = put_lds_side(sb, &side[1], hip, word_bytes, 0, err))) return s;
    layout_sb_printf(sb, "\n    /* registers -> global: the read side's elements */\n");
    put_global_side(sb, &side[1], words, 0);
    layout_sb_printf(sb, "}\n\n");
    return LAYOUT_OK;
}

layout_status layout_emit_probe(const layout_emit_spec *spec, char *buf, size_t cap, size_t *len, layout_error *err)
{
    emit_side side[2];
    layout_strbuf sb;
    layout_status s;
    int64_t space = 0; /* build_sides sets it on success (gcc's maybe-uninitialized cannot tell) */
    if ((s = check_spec(spec, buf, cap, err)) || (s = build_sides(spec, side, &space, err))) return s;
    layout_sb_init(&sb, buf, cap);
    if ((s = put_header(&sb, spec, side, err))) return s;
    put_definitions(&sb, spec, side, space);
    if ((s = put_kernel(&sb, spec, side, err))) return s;
    /* Host part. */
    layout_sb_printf(&sb, "#ifdef LP_HOST\n");
    put_host_coord_fn(&sb, &side[0]);
    put_host_coord_fn(&sb, &side[1]);
    layout_sb_printf(&sb, "#endif\n\n%s%s%s", layout_emit_tpl_emulate_launch, layout_emit_tpl_host, layout_emit_tpl_host_check);

    if (len) *len = sb.len;
    if (sb.len >= cap) {
        if (!buf && cap == 0) return layout_ok(err);
        return layout_fail(err, LAYOUT_ERR_BUFFER, "%s: the probe needs %zu bytes (with the NUL), buf has %zu",
                           fn_name, sb.len + 1, cap);
    }
    return layout_ok(err);
}
