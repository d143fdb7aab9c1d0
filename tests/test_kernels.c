/* The triple check end to end: the talk's table (docs/lds-model.md §4.1) from the
 * kernels' descriptors and distributions, per-wave instruction counts,
 * kernel 04's 192 cycles per tile, an independent phase-model reference for
 * every instruction, and bad inputs. */
#include "harness.h"
#include "layout.h"
#include "../examples/seed_kernels.h"

static layout_arch arch_of(const char *name)
{
    layout_arch a;
    memset(&a, 0, sizeof a);
    CHECK(layout_arch_preset(name, &a, NULL) == LAYOUT_OK);
    return a;
}

static layout_kernel_result run(const layout_arch *a, seed_kernel_id id)
{
    static seed_kernel k;
    layout_kernel_result r;
    layout_error err;
    memset(&r, 0, sizeof r);
    CHECK(seed_kernel_build(&k, id, a->n_banks, &err) == LAYOUT_OK);
    layout_kernel_spec s = seed_kernel_spec(&k);
    CHECK_MSG(layout_check_kernel(a, &s, &r, &err) == LAYOUT_OK, "%s", err.message);
    return r;
}

/* docs/lds-model.md §4.1 on gfx942 (kernel 10: the model's 524,288; published 0 came from MI355). */
static void test_seed_table_gfx942(void)
{
    layout_arch a = arch_of("gfx942");
    static const int64_t conflicts[SEED_KERNEL_COUNT] = {3670016, 1572864, 786432, 192 * 8192, 0, 0, 524288};
    static const int64_t insts[SEED_KERNEL_COUNT] = {294912, 294912, 327680, 294912, 294912, 65536, 294912};
    static const int per_wave[SEED_KERNEL_COUNT] = {9, 9, 10, 9, 9, 2, 9};
    for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
        layout_kernel_result r = run(&a, (seed_kernel_id)i);
        CHECK_MSG(r.sq_lds_bank_conflict == conflicts[i], "kernel %d: %lld", i, (long long)r.sq_lds_bank_conflict);
        CHECK_EQ_I64(r.sq_insts_lds, insts[i]);
        CHECK_EQ_I64(r.write.steps_per_wave + r.read.steps_per_wave, per_wave[i]);
        CHECK_EQ_I64(r.tiles, 8192);
        CHECK_EQ_I64(r.sq_lds_bank_conflict, r.write.sq_lds_bank_conflict + r.read.sq_lds_bank_conflict);
        CHECK_EQ_I64(r.instrs_per_tile, 4 * per_wave[i]);
    }
    /* per-side details the talk states */
    layout_kernel_result r = run(&a, SEED_K01);
    CHECK_EQ_I64(r.write.extra_cycles_per_tile, 0);
    CHECK_EQ_I64(r.read.worst_extra, 14); /* 14 extra each read */
    CHECK_EQ_I64(r.read.extra_cycles_per_tile, 14 * 8 * 4);
    r = run(&a, SEED_K02);
    CHECK_EQ_I64(r.write.worst_extra, 6); /* 6 extra each b16 store */
    CHECK_EQ_I64(r.read.extra_cycles_per_tile, 0);
    r = run(&a, SEED_K03);
    CHECK_EQ_I64(r.read.worst_extra, 2); /* 2 extra each read */
    CHECK_EQ_I64(r.write.op_count[LAYOUT_DS_PAIR_B32], 2);
    r = run(&a, SEED_K04);
    CHECK_EQ_I64(r.extra_cycles_per_tile, 192);
    CHECK_EQ_I64(r.write.extra_cycles_per_tile, 0);
    r = run(&a, SEED_K05);
    CHECK_EQ_I64(r.write.n_misaligned, 1);
}

static void test_seed_table_gfx950(void)
{
    layout_arch a = arch_of("gfx950");
    CHECK_EQ_I64(a.n_banks, 64);
    CHECK_EQ_I64(run(&a, SEED_K10).sq_lds_bank_conflict, 0);
    CHECK_EQ_I64(run(&a, SEED_K03).sq_lds_bank_conflict, 262144);
    CHECK_EQ_I64(run(&a, SEED_K08).sq_lds_bank_conflict, 0);
    CHECK_EQ_I64(run(&a, SEED_K08).sq_insts_lds, 65536);
    CHECK_EQ_I64(run(&a, SEED_K05).sq_lds_bank_conflict, 0);
}

/* Independent reference of docs/lds-model.md §2.2 and §3 for gfx942 (lane groups written out here). */
static int ref_group_942(int lane, int width, int is_write)
{
    int t = lane;
    if (width <= 4) return t >> 5;
    if (width == 8) return t >> 4;
    if (is_write) return t >> 3;
    return (t >> 5 & 1) | (((t >> 2 & 1) ^ (t >> 4 & 1)) << 1) | ((t >> 3 & 1) << 2);
}

static int ref_extra_942(const layout_instr *ins)
{
    int extra = 0;
    for (int g = 0; g < 8; g++) {
        /* distinct dwords per bank in group g */
        uint32_t words[64 * 5];
        int nw = 0;
        for (int l = 0; l < ins->n_lanes; l++) {
            if (ref_group_942(l, ins->width_bytes, ins->direction == LAYOUT_WRITE) != g) continue;
            uint32_t a = ins->addr_bytes[l];
            for (uint32_t w = a / 4; w <= (a + (uint32_t)ins->width_bytes - 1) / 4; w++) {
                int dup = 0;
                for (int i = 0; i < nw; i++) dup |= words[i] == w;
                if (!dup) words[nw++] = w;
            }
        }
        int worst = 0;
        for (int b = 0; b < 32; b++) {
            int n = 0;
            for (int i = 0; i < nw; i++) n += (int)(words[i] % 32) == b;
            if (n > worst) worst = n;
        }
        if (worst > 1) extra += worst - 1;
    }
    return extra;
}

static void test_reference_every_instruction(void)
{
    layout_arch a = arch_of("gfx942");
    static seed_kernel k;
    static layout_access_plan p;
    layout_checker ch;
    CHECK(layout_checker_init(&ch, &a, LAYOUT_IMPL_SCALAR, NULL) == LAYOUT_OK);
    for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
        CHECK(seed_kernel_build(&k, (seed_kernel_id)i, 32, NULL) == LAYOUT_OK);
        for (int side = 0; side < 2; side++) {
            CHECK(layout_access_plan_make(&p, side ? &k.read_desc : &k.write_desc, side ? &k.read_dist : &k.write_dist,
                                          side ? LAYOUT_READ : LAYOUT_WRITE, 2, NULL, NULL) == LAYOUT_OK);
            int64_t sum = 0;
            for (int w = 0; w < 4; w++)
                for (int s = 0; s < p.n_steps; s++) {
                    layout_instr ins;
                    CHECK(layout_access_instr(&p, w, s, &ins, NULL) == LAYOUT_OK);
                    sum += ref_extra_942(&ins);
                }
            layout_side_result r;
            CHECK(layout_check_side(&ch, &p, 3, &r, NULL) == LAYOUT_OK);
            CHECK_MSG(r.extra_cycles_per_tile == sum, "kernel %s side %d: %lld vs reference %lld", k.id, side,
                      (long long)r.extra_cycles_per_tile, (long long)sum);
            CHECK_EQ_I64(r.sq_lds_bank_conflict, 3 * sum);
            CHECK_EQ_I64(r.sq_insts_lds, 3 * 4 * p.n_steps);
        }
    }
}

/* layout_check_triple: one LDS view for both sides (kernel 08). */
static void test_triple(void)
{
    layout_arch a = arch_of("gfx942");
    static seed_kernel k;
    CHECK(seed_kernel_build(&k, SEED_K08, 32, NULL) == LAYOUT_OK);
    layout_kernel_result r;
    layout_error err;
    CHECK_MSG(layout_check_triple(&a, &k.write_dist, &k.write_desc, &k.read_dist, 2, &r, &err) == LAYOUT_OK, "%s",
              err.message);
    CHECK_EQ_I64(r.tiles, 1);
    CHECK_EQ_I64(r.extra_cycles_per_tile, 0);
    CHECK_EQ_I64(r.instrs_per_tile, 8);
    CHECK_EQ_I64(r.write.op_count[LAYOUT_DS_B128], 1);
    CHECK_EQ_I64(r.read.op_count[LAYOUT_DS_B128], 1);
    char buf[512];
    int n = layout_kernel_result_print(&r, buf, sizeof buf);
    CHECK_EQ_I64(n, (int64_t)strlen(buf));
    CHECK_STR_CONTAINS(buf, "SQ_LDS_BANK_CONFLICT 0");
    CHECK_STR_CONTAINS(buf, "1 x ds_read_b128");
    CHECK_EQ_I64(layout_kernel_result_print(&r, NULL, 0), n);
    layout_kernel_result_print(NULL, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "null");
    /* kernel 01 through the triple form: the [M, K] view read with a distribution over (K, M) is a mismatch */
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    CHECK(layout_check_triple(&a, &k.write_dist, &k.write_desc, &k.read_dist, 2, &r, &err) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(err.message, "layout_check_kernel: read side: layout_access_plan_make");
}

static void test_bad_inputs(void)
{
    layout_arch a = arch_of("gfx942");
    static seed_kernel k;
    CHECK(seed_kernel_build(&k, SEED_K08, 32, NULL) == LAYOUT_OK);
    layout_kernel_result r, before;
    memset(&r, 0x11, sizeof r);
    before = r;
    layout_error err;
    layout_kernel_spec s;
    memset(&s, 0, sizeof s);
    s.write_desc = &k.write_desc;
    s.write_dist = &k.write_dist;
    s.read_dist = &k.read_dist;
    s.elem_bytes = 2;
    s.tiles = 0;
    CHECK(layout_check_kernel(&a, &s, &r, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "spec->tiles = 0");
    s.tiles = 1;
    CHECK(layout_check_kernel(NULL, &s, &r, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_check_kernel(&a, NULL, &r, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_check_kernel(&a, &s, NULL, &err) == LAYOUT_ERR_NULL);
    s.read_dist = NULL;
    CHECK(layout_check_kernel(&a, &s, &r, &err) == LAYOUT_ERR_NULL);
    CHECK_STR_CONTAINS(err.message, "spec->read_dist is NULL");
    s.read_dist = &k.read_dist;
    s.elem_bytes = 5;
    CHECK(layout_check_kernel(&a, &s, &r, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "write side");
    s.elem_bytes = 2;
    s.tiles = INT64_MAX / 2;
    CHECK(layout_check_kernel(&a, &s, &r, &err) == LAYOUT_ERR_OVERFLOW);
    CHECK(memcmp(&r, &before, sizeof r) == 0);
    CHECK(layout_check_triple(&a, NULL, &k.write_desc, &k.read_dist, 2, &r, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_check_triple(&a, &k.write_dist, NULL, &k.read_dist, 2, &r, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_check_triple(&a, &k.write_dist, &k.write_desc, NULL, 2, &r, &err) == LAYOUT_ERR_NULL);

    /* a wave32 architecture against 64-lane distributions */
    layout_arch w32;
    CHECK(layout_arch_init(&w32, "toy32", 32, 4, 32, NULL) == LAYOUT_OK);
    s.tiles = 1;
    CHECK(layout_check_kernel(&w32, &s, &r, &err) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(err.message, "wave_size 64 != arch toy32 wave_size 32");

    layout_checker ch;
    CHECK(layout_checker_init(&ch, &a, LAYOUT_IMPL_AUTO, NULL) == LAYOUT_OK);
    static layout_access_plan p;
    CHECK(layout_access_plan_make(&p, &k.write_desc, &k.write_dist, LAYOUT_WRITE, 2, NULL, NULL) == LAYOUT_OK);
    layout_side_result sr;
    CHECK(layout_check_side(NULL, &p, 1, &sr, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_check_side(&ch, NULL, 1, &sr, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_check_side(&ch, &p, 1, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_check_side(&ch, &p, 0, &sr, &err) == LAYOUT_ERR_ARG);
}

/* The checker's report of one tile: sides "write" and "read", kernel 01's 448 read cycles. */
static void test_kernel_report(void)
{
    layout_arch a = arch_of("gfx942");
    static seed_kernel k;
    static layout_instr scratch[64];
    static layout_check_report rep, before;
    static char text[8192];
    layout_error err;
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    layout_kernel_spec s = seed_kernel_spec(&k);
    size_t need = 0;
    CHECK(layout_kernel_report(&a, &s, NULL, 0, &need, NULL, &err) == LAYOUT_OK);
    CHECK_EQ_I64(need, 32); /* 8 reads x 4 warps */
    memset(&rep, 0x7f, sizeof rep);
    before = rep;
    CHECK(layout_kernel_report(&a, &s, scratch, 31, &need, &rep, &err) == LAYOUT_ERR_BUFFER);
    CHECK_STR_CONTAINS(err.message, "layout_kernel_report: scratch_cap = 31, a side has 32 instructions");
    CHECK(memcmp(&rep, &before, sizeof rep) == 0);
    CHECK(layout_kernel_report(&a, &s, scratch, 64, NULL, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK_MSG(layout_kernel_report(&a, &s, scratch, 64, NULL, &rep, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_EQ_I64(rep.n_sides, 2);
    CHECK(strcmp(rep.sides[0].label, "write") == 0);
    CHECK(strcmp(rep.sides[1].label, "read") == 0);
    CHECK_EQ_I64(rep.sides[0].totals.n_instrs, 4);
    CHECK_EQ_I64(rep.sides[0].totals.extra_cycles, 0);
    CHECK_EQ_I64(rep.sides[1].totals.n_instrs, 32);
    CHECK_EQ_I64(rep.sides[1].totals.extra_cycles, 448);
    CHECK_EQ_I64(rep.extra_cycles, 448);
    CHECK_EQ_I64(rep.sides[1].worst_detail.cost.worst_nway, 8);
    CHECK(layout_check_report_text(&rep, text, sizeof text, NULL, &err) == LAYOUT_OK);
    CHECK_STR_CONTAINS(text, "8-way");
    /* errors */
    CHECK(layout_kernel_report(NULL, &s, scratch, 64, NULL, &rep, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_kernel_report(&a, NULL, scratch, 64, NULL, &rep, &err) == LAYOUT_ERR_NULL);
    s.elem_bytes = 3;
    CHECK(layout_kernel_report(&a, &s, scratch, 64, NULL, &rep, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "layout_kernel_report: write side: layout_access_plan_make: elem_bytes = 3");
}

int main(void)
{
    RUN(test_seed_table_gfx942);
    RUN(test_seed_table_gfx950);
    RUN(test_reference_every_instruction);
    RUN(test_triple);
    RUN(test_bad_inputs);
    RUN(test_kernel_report);
    return harness_finish("test_kernels");
}
