/* The instruction stream (include/layout/triton_stream.h) against the
 * report it refines, on the 66 real Triton 3.6 compilations of
 * tests/fixtures/triton/kernels/, and against their ISA:
 *
 *  - for every op it lists: one entry per instruction after the
 *    LoadStoreVectorizer (r->n_accesses), the standing entries' mnemonics
 *    are the op's counts, the entries' costs sum to the op's (a sunk load's
 *    entry costed as run), every pair is mutual, every warp's lanes are
 *    the wave (lowerLdStShared predicates none) but a sunk load's;
 *  - an op it does not list says why (not modelled, or lowered another
 *    way), never an empty list for an op with instructions;
 *  - known answers from the AMDGCN: matmul_bf16_128x128x32_w8_s2_gfx942's
 *    `ds_read2st64_b64 v[84:87], v85 offset1:8` (and three more on v76,
 *    v77, v78): four pairs 8 x 64 x 8 = 4096 bytes apart on four base
 *    registers; transpose_fp32_32x128_w4_s1_gfx942's convert scratch:
 *    16 ds_write_b32, then 8 ds_read2_b32 of two dwords 32 apart (the
 *    AMDGCN's `offset1:32`, `offset0:128 offset1:160`);
 *    rowsum_fp16_16x256_w8_s1_gfx942's reduction: its partial stores by
 *    lane 0 of every warp, its accumulating load by threads 0..63 (the
 *    AMDGCN's exec masks); the sm_90 matmul's ldmatrix.x4 operand loads;
 *  - the error contract (NULL, op out of range, a short buffer). */
#include "harness.h"
#include "layout.h"

#include <dirent.h>
#include <string.h>

static layout_ttgir mod;
static layout_triton_kernel kern;
static layout_triton_inst ins[LAYOUT_TRITON_KERNEL_MAX_ACCESSES];
static char text[1 << 21];
static char dir[512];
static layout_error terr;

static int load(const char *name)
{
    char path[768];
    FILE *fp;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(fp = fopen(path, "rb"))) return 0;
    size_t n = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[n] = 0;
    return layout_ttgir_parse(text, n, &mod, &terr) == LAYOUT_OK &&
           layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK;
}

/* The report's count of mnemonic mn. */
static int64_t count_of(const layout_triton_kernel_op *r, const char *mn)
{
    for (int i = 0; i < r->n_counts; i++)
        if (strcmp(r->counts[i].mnemonic, mn) == 0) return r->counts[i].count;
    return 0;
}

/* One op's stream against its report; returns 1 when listed. */
static int check_op(const char *name, int op)
{
    const layout_triton_kernel_op *r = &kern.ops[op];
    int n = -1;
    layout_status st = layout_triton_kernel_op_stream(&kern, op, ins, LAYOUT_TRITON_KERNEL_MAX_ACCESSES, &n, &terr);
    if (st != LAYOUT_OK) {
        CHECK_MSG(st == LAYOUT_ERR_UNSUPPORTED, "%s op %d: status %d", name, op, (int)st);
        CHECK_MSG(strstr(terr.message, r->modelled ? "not listed" : "not modelled") != NULL, "%s op %d: %s", name, op,
                  terr.message);
        return 0;
    }
    CHECK_MSG(n == r->n_accesses, "%s op %d: %d entries, %d accesses", name, op, n, r->n_accesses);
    if (r->kind == LAYOUT_TTGIR_WARP_GROUP_DOT) { /* the tensor core reads its operands: no LSU instruction */
        CHECK(n == 0 && r->n_counts == 0);
        return 1;
    }
    int64_t extra = 0, total = 0, nw = mod.num_warps < LAYOUT_TRITON_STREAM_MAX_WARPS ? mod.num_warps
                                                                                     : LAYOUT_TRITON_STREAM_MAX_WARPS;
    uint64_t wave = kern.arch.wave_size >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << kern.arch.wave_size) - 1;
    for (int i = 0; i < n; i++) {
        const layout_triton_inst *e = &ins[i];
        int64_t same = 0;
        for (int j = 0; j < n; j++) same += ins[j].standing && strcmp(ins[j].mnemonic, e->mnemonic) == 0;
        if (e->standing)
            CHECK_MSG(same == count_of(r, e->mnemonic), "%s op %d: %" PRId64 " standing %s, report %" PRId64, name, op,
                      same, e->mnemonic, count_of(r, e->mnemonic));
        /* a convert: its scratch's stores (r's direction and vector), then its loads (cvt_load_vec_elems) */
        int cvt_load = r->kind == LAYOUT_TTGIR_CONVERT_LAYOUT && e->direction == LAYOUT_READ;
        int scratch = r->kind == LAYOUT_TTGIR_REDUCE || r->kind == LAYOUT_TTGIR_SCAN || r->kind == LAYOUT_TTGIR_HISTOGRAM;
        int vec_bytes = cvt_load ? r->cvt_load_vec_elems * r->elem_bits / 8 : r->vec_bits / 8;
        CHECK(e->op == op && e->seq == i && e->accesses >= 1);
        CHECK(e->confidence == layout_triton_kernel_op_confidence(&kern, r, NULL));
        CHECK(e->direction == r->direction || cvt_load || scratch);
        if (i > 0 && r->kind == LAYOUT_TTGIR_CONVERT_LAYOUT && r->cvt_reps == 1)
            CHECK(e->direction == LAYOUT_READ || ins[i - 1].direction == LAYOUT_WRITE); /* stores first */
        /* ldmatrix / stmatrix: 4 bytes a lane of each of its 1, 2 or 4 matrices (vec_bits is a matrix row) */
        int matrix = strstr(e->mnemonic, "matrix.sync.aligned.m8n8.x") != NULL;
        if (matrix) CHECK(e->bytes == 4 * (strstr(e->mnemonic, "m8n8.x")[6] - '0'));
        CHECK_MSG(scratch || matrix || e->bytes == e->accesses * vec_bytes, "%s op %d #%d: %d bytes of %d accesses",
                  name, op, i, e->bytes, e->accesses);
        if (e->partner >= 0 && e->partner_op == op)
            CHECK_MSG(e->partner < n && ins[e->partner].partner == i && ins[e->partner].standing != e->standing,
                      "%s op %d #%d: pair not mutual", name, op, i);
        CHECK(e->n_warps == nw);
        if (e->passes & LAYOUT_TRITON_PASS_PTXAS_SINK) {
            int warps = 0;
            for (int w = 0; w < e->n_warps; w++) warps += e->lanes[w] != 0;
            CHECK_MSG(warps == r->sunk_warps, "%s op %d: %d warps run the sunk load, report %d", name, op, warps,
                      r->sunk_warps);
            extra += r->last_extra_cycles, total += r->last_total_cycles; /* the report keeps Triton's per warp */
            continue;
        }
        /* lowerLdStShared predicates no lane; a scratch's accesses keep the lanes their predicates leave on,
         * an ldmatrix / stmatrix lists the lanes that give a row address */
        for (int w = 0; w < e->n_warps; w++)
            CHECK(scratch || matrix ? (e->lanes[w] & ~wave) == 0 : e->lanes[w] == wave);
        extra += e->extra_cycles, total += e->total_cycles;
    }
    CHECK_MSG(extra == r->extra_cycles && total == r->total_cycles, "%s op %d: costs %" PRId64 "/%" PRId64
              " against %" PRId64 "/%" PRId64, name, op, extra, total, r->extra_cycles, r->total_cycles);
    return 1;
}

static void test_stream_refines_the_report(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int kernels = 0, ops = 0, listed = 0, with_counts = 0, pairs_xop = 0, sunk = 0;
    CHECK_MSG(d != NULL, "%s", dir);
    if (!d) return;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 6, ".ttgir") != 0) continue;
        CHECK_MSG(load(e->d_name), "%s: %s", e->d_name, terr.message);
        kernels++;
        for (int op = 0; op < kern.n_ops; op++) {
            ops++;
            with_counts += kern.ops[op].modelled && kern.ops[op].n_counts > 0;
            if (!check_op(e->d_name, op)) continue;
            listed += kern.ops[op].n_counts > 0;
            int n = 0;
            layout_triton_kernel_op_stream(&kern, op, ins, LAYOUT_TRITON_KERNEL_MAX_ACCESSES, &n, &terr);
            for (int i = 0; i < n; i++) {
                pairs_xop += (ins[i].passes & LAYOUT_TRITON_PASS_SILSOPT_XOP) && ins[i].standing;
                sunk += (ins[i].passes & LAYOUT_TRITON_PASS_PTXAS_SINK) != 0;
            }
        }
    }
    closedir(d);
    CHECK_EQ_I64(kernels, 66);
    printf("test_triton_stream: %d kernels, %d ops (%d with instructions), %d listed one by one; %d pairs across "
           "ops, %d sunk loads\n", kernels, ops, with_counts, listed, pairs_xop, sunk);
    CHECK(listed > 0 && listed <= with_counts);
}

static void test_stream_known_answers_from_the_isa(void)
{
    int n = 0, op = -1;
    /* matmul_bf16_128x128x32_w8_s2_gfx942.amdgcn: four `ds_read2st64_b64 .. offset1:8` on four base registers */
    CHECK(load("matmul_bf16_128x128x32_w8_s2_gfx942.ttgir"));
    for (int i = 0; i < kern.n_ops && op < 0; i++)
        if (count_of(&kern.ops[i], "ds_read2st64_b64") == 4) op = i;
    CHECK(op >= 0);
    if (op < 0) return;
    CHECK(layout_triton_kernel_op_stream(&kern, op, ins, LAYOUT_TRITON_KERNEL_MAX_ACCESSES, &n, &terr) == LAYOUT_OK);
    CHECK_EQ_I64(n, 8);
    uint64_t bases[4];
    int nb = 0;
    for (int i = 0; i < n; i++) {
        const layout_triton_inst *e = &ins[i];
        CHECK(strcmp(e->mnemonic, "ds_read2st64_b64") == 0 && e->pair_form == 2 && e->partner_op == op);
        CHECK(e->passes == LAYOUT_TRITON_PASS_SILSOPT && e->buffer >= 0 && e->buffer_offset >= 0);
        if (!e->standing || e->partner < 0) continue;
        CHECK_EQ_I64(ins[e->partner].offset - e->offset, 8 * 64 * 8); /* offset1:8 in units of 64 x 8 bytes */
        CHECK(ins[e->partner].base_reg == e->base_reg);
        int seen = 0;
        for (int b = 0; b < nb; b++) seen |= bases[b] == e->base_reg;
        if (!seen && nb < 4) bases[nb++] = e->base_reg;
    }
    CHECK_EQ_I64(nb, 4); /* v85, v76, v77, v78 */
    /* transpose_fp32_32x128_w4_s1_gfx942.amdgcn: the convert's scratch, 16 ds_write_b32 then 8 ds_read2_b32,
     * each `offset1:32` or `offset0:128 offset1:160`: two dwords 32 apart */
    CHECK(load("transpose_fp32_32x128_w4_s1_gfx942.ttgir"));
    CHECK(layout_triton_kernel_op_stream(&kern, 0, ins, LAYOUT_TRITON_KERNEL_MAX_ACCESSES, &n, &terr) == LAYOUT_OK);
    CHECK_EQ_I64(n, 32);
    for (int i = 0; i < n && n == 32; i++) {
        CHECK(strcmp(ins[i].mnemonic, i < 16 ? "ds_write_b32" : "ds_read2_b32") == 0 && ins[i].buffer == -1);
        if (i >= 16 && ins[i].standing) CHECK_EQ_I64(ins[ins[i].partner].offset - ins[i].offset, 32 * 4);
    }
    /* rowsum_fp16_16x256_w8_s1_gfx942.amdgcn: the reduction's 8 partial stores, each under its own
     * s_and_saveexec (lane 0 of each of the 8 warps: ReduceOpToLLVM's laneId == 0), then the accumulating
     * load under `v_cmp_gt_u32_e32 vcc, 64, v0` (threads 0..63: warp 0's 64 lanes, no other warp) */
    CHECK(load("rowsum_fp16_16x256_w8_s1_gfx942.ttgir"));
    CHECK(layout_triton_kernel_op_stream(&kern, 0, ins, LAYOUT_TRITON_KERNEL_MAX_ACCESSES, &n, &terr) == LAYOUT_OK);
    CHECK(n >= 9);
    for (int i = 0; i < 8 && n >= 9; i++) {
        CHECK(ins[i].direction == LAYOUT_WRITE && strcmp(ins[i].mnemonic, "ds_write_b32") == 0 && ins[i].n_warps == 8);
        for (int w = 0; w < 8; w++) CHECK(ins[i].lanes[w] == 1);
    }
    if (n >= 9) {
        CHECK(ins[8].direction == LAYOUT_READ && ins[8].lanes[0] == ~(uint64_t)0);
        for (int w = 1; w < 8; w++) CHECK(ins[8].lanes[w] == 0);
    }
    /* matmul_fp16_32x32x64_w4_s2_sm90.ptx: its operand loads are `ldmatrix.sync.aligned.m8n8.x4.shared.b16`
     * (x4: 16 bytes a lane, every lane giving a row address) */
    CHECK(load("matmul_fp16_32x32x64_w4_s2_sm90.ttgir"));
    CHECK(layout_triton_kernel_op_stream(&kern, 2, ins, LAYOUT_TRITON_KERNEL_MAX_ACCESSES, &n, &terr) == LAYOUT_OK);
    CHECK(n > 0);
    for (int i = 0; i < n; i++)
        CHECK(strncmp(ins[i].mnemonic, "ldmatrix.sync.aligned.m8n8.x4", 29) == 0 && ins[i].bytes == 16 &&
              ins[i].lanes[0] == 0xffffffffu);
}

static void test_stream_errors(void)
{
    int n = 7;
    CHECK(load("matmul_bf16_128x128x32_w8_s2_gfx942.ttgir"));
    CHECK(layout_triton_kernel_op_stream(NULL, 0, ins, 1, &n, &terr) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_kernel_op_stream(&kern, 0, ins, 1, NULL, &terr) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_kernel_op_stream(&kern, 0, NULL, 1, &n, &terr) == LAYOUT_ERR_NULL);
    CHECK(layout_triton_kernel_op_stream(&kern, kern.n_ops, ins, 1, &n, &terr) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(terr.message, "outside 0..");
    CHECK(layout_triton_kernel_op_stream(&kern, -1, ins, 1, &n, &terr) == LAYOUT_ERR_ARG);
    /* a short buffer: the count of all, the first cap written, nothing past them */
    int op = -1, full = 0;
    for (int i = 0; i < kern.n_ops && op < 0; i++)
        if (layout_triton_kernel_op_stream(&kern, i, ins, LAYOUT_TRITON_KERNEL_MAX_ACCESSES, &full, &terr) == LAYOUT_OK &&
            full > 2)
            op = i;
    CHECK(op >= 0);
    if (op < 0) return;
    layout_triton_inst first = ins[0];
    memset(ins, 0xab, 3 * sizeof ins[0]);
    CHECK(layout_triton_kernel_op_stream(&kern, op, ins, 2, &n, &terr) == LAYOUT_OK);
    CHECK_EQ_I64(n, full);
    CHECK(strcmp(ins[0].mnemonic, first.mnemonic) == 0 && ins[0].offset == first.offset);
    unsigned char *past = (unsigned char *)&ins[2];
    CHECK(past[0] == 0xab && past[sizeof ins[0] - 1] == 0xab);
    CHECK(layout_triton_kernel_op_stream(&kern, op, NULL, 0, &n, &terr) == LAYOUT_OK && n == full); /* count only */
    CHECK(strcmp(layout_triton_pass_name(LAYOUT_TRITON_PASS_LSV), "lsv") == 0);
    CHECK(strcmp(layout_triton_pass_name(3), "") == 0);
}

int main(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(dir, sizeof dir, "%.*s/fixtures/triton/kernels", slash ? (int)(slash - f) : 1, slash ? f : ".");
    RUN(test_stream_refines_the_report);
    RUN(test_stream_known_answers_from_the_isa);
    RUN(test_stream_errors);
    return harness_finish("test_triton_stream");
}
