/* Access plans: the seed kernels' per-wave instructions, every lane's
 * address against closed forms, the merging rule on synthetic layouts,
 * flags for what ck_tile silently allows, explicit choices, bad inputs. */
#include "harness.h"
#include "layout.h"
#include "../examples/seed_kernels.h"
#include "support/seed_maps.h"

static const int kernel_no[SEED_KERNEL_COUNT] = {1, 2, 3, 4, 5, 8, 10};

static void plans_of(seed_kernel *k, seed_kernel_id id, int banks, layout_access_plan *w, layout_access_plan *r)
{
    layout_error err;
    CHECK(seed_kernel_build(k, id, banks, &err) == LAYOUT_OK);
    CHECK_MSG(layout_access_plan_make(w, &k->write_desc, &k->write_dist, LAYOUT_WRITE, 2, NULL, &err) == LAYOUT_OK,
              "%s", err.message);
    CHECK_MSG(layout_access_plan_make(r, &k->read_desc, &k->read_dist, LAYOUT_READ, 2, NULL, &err) == LAYOUT_OK,
              "%s", err.message);
}

/* docs/lds-model.md §4.1: 01 1 b128 + 8 b16; 02 8 b16 + 1 b128; 03 2 x 8-byte + 8 b16; 04, 05, 10 1 + 8; 08 1 + 1. */
static void test_seed_instruction_counts(void)
{
    static const struct { layout_ds_op wop; int wn; layout_ds_op rop; int rn; } want[SEED_KERNEL_COUNT] = {
        {LAYOUT_DS_B128, 1, LAYOUT_DS_B16, 8},     {LAYOUT_DS_B16, 8, LAYOUT_DS_B128, 1},
        {LAYOUT_DS_PAIR_B32, 2, LAYOUT_DS_B16, 8}, {LAYOUT_DS_B128, 1, LAYOUT_DS_B16, 8},
        {LAYOUT_DS_B128, 1, LAYOUT_DS_B16, 8},     {LAYOUT_DS_B128, 1, LAYOUT_DS_B128, 1},
        {LAYOUT_DS_B128, 1, LAYOUT_DS_B16, 8},
    };
    static const int per_wave[SEED_KERNEL_COUNT] = {9, 9, 10, 9, 9, 2, 9};
    static seed_kernel k;
    static layout_access_plan w, r;
    for (int banks = 32; banks <= 64; banks += 32)
        for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
            plans_of(&k, (seed_kernel_id)i, banks, &w, &r);
            CHECK_MSG(w.n_steps + r.n_steps == per_wave[i], "kernel %s: %d + %d", k.id, w.n_steps, r.n_steps);
            CHECK_EQ_I64(w.op_count[want[i].wop], want[i].wn);
            CHECK_EQ_I64(r.op_count[want[i].rop], want[i].rn);
            CHECK_EQ_I64(w.n_steps, want[i].wn);
            CHECK_EQ_I64(r.n_steps, want[i].rn);
            /* Only 05's b128 store on 132-byte row blocks is misaligned; nothing is non-contiguous. */
            CHECK_EQ_I64(w.n_misaligned, i == SEED_K05 ? 1 : 0);
            CHECK_EQ_I64(r.n_misaligned + w.n_noncontiguous + r.n_noncontiguous, 0);
        }
    char buf[128];
    plans_of(&k, SEED_K03, 32, &w, &r);
    layout_access_plan_print(&w, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "2 x ds_write2_b32");
    CHECK_EQ_I64(w.steps[0].align_bytes, 4);
    CHECK_EQ_I64(w.steps[1].byte_offset, 8);
    layout_access_plan_print(&r, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "8 x ds_read_u16");
    plans_of(&k, SEED_K08, 64, &w, &r);
    layout_access_plan_print(&r, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "1 x ds_read_b128");
    CHECK_EQ_I64(r.vector_elems, 8);
    CHECK_EQ_I64(r.vector_y, 1);
    plans_of(&k, SEED_K02, 32, &w, &r);
    CHECK_EQ_I64(r.vector_elems, 1); /* no hint: 8 scalar accesses, merged by the compiler */
    CHECK_EQ_I64(r.n_accesses, 8);
}

/* Every lane's address of every instruction against the closed forms; and
 * the steps of a thread move exactly the bytes of its elements. */
static void test_seed_addresses(void)
{
    static seed_kernel k;
    static layout_access_plan plans[2];
    for (int banks = 32; banks <= 64; banks += 32)
        for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
            plans_of(&k, (seed_kernel_id)i, banks, &plans[0], &plans[1]);
            for (int side = 0; side < 2; side++) {
                const layout_access_plan *p = &plans[side];
                for (int w = 0; w < 4; w++) {
                    uint8_t moved[64][128];
                    memset(moved, 0, sizeof moved);
                    for (int s = 0; s < p->n_steps; s++) {
                        layout_instr ins;
                        CHECK(layout_access_instr(p, w, s, &ins, NULL) == LAYOUT_OK);
                        CHECK_EQ_I64(ins.n_lanes, 64);
                        CHECK(ins.active_mask == ~(uint64_t)0);
                        CHECK_EQ_I64(ins.width_bytes, p->steps[s].width_bytes);
                        CHECK(ins.direction == (side ? LAYOUT_READ : LAYOUT_WRITE));
                        for (int l = 0; l < 64; l++) {
                            int64_t x[2];
                            seed_map_coord(kernel_no[i], side, w, l, p->order[p->steps[s].seq_first], x);
                            int64_t want = 2 * seed_map_offset(kernel_no[i], side, banks, x) + p->steps[s].byte_offset;
                            CHECK_MSG(ins.addr_bytes[l] == (uint32_t)want, "kernel %s side %d w%d step %d lane %d: %u != %lld",
                                      k.id, side, w, s, l, ins.addr_bytes[l], (long long)want);
                        }
                    }
                    /* byte coverage of one thread (lane 5) for unflagged plans */
                    if (p->n_misaligned || p->n_noncontiguous) continue;
                    int l = 5;
                    int64_t lo = INT64_MAX;
                    int64_t elem_addr[LAYOUT_MAX_THREAD_ELEMS];
                    for (int e = 0; e < p->n_elems; e++) {
                        int64_t x[2];
                        seed_map_coord(kernel_no[i], side, w, l, e, x);
                        elem_addr[e] = 2 * seed_map_offset(kernel_no[i], side, banks, x);
                        if (elem_addr[e] < lo) lo = elem_addr[e];
                    }
                    uint8_t want_bytes[4096], got_bytes[4096];
                    memset(want_bytes, 0, sizeof want_bytes);
                    memset(got_bytes, 0, sizeof got_bytes);
                    for (int e = 0; e < p->n_elems; e++)
                        for (int b = 0; b < 2; b++) want_bytes[(elem_addr[e] - lo + b) & 4095]++;
                    for (int s = 0; s < p->n_steps; s++) {
                        layout_instr ins;
                        layout_access_instr(p, w, s, &ins, NULL);
                        for (int b = 0; b < ins.width_bytes; b++) got_bytes[(ins.addr_bytes[l] - lo + b) & 4095]++;
                    }
                    CHECK_MSG(memcmp(want_bytes, got_bytes, sizeof want_bytes) == 0, "kernel %s side %d warp %d", k.id,
                              side, w);
                }
            }
        }
}

/* ---- synthetic layouts: a 1-D LDS and a plain table distribution ---------- */

typedef struct synth {
    layout_descriptor desc;
    layout_distribution dist;
    int64_t table[64 * 32];
} synth;

/* One warp of 64 lanes; lane l's element e sits at element offset first(l) + e * step. */
static void make_synth(synth *s, int elem_bytes, int n_elems, int64_t lane_pitch_bytes, int64_t start_bytes,
                       int64_t step_elems)
{
    int64_t len = 1 << 16;
    layout_error err;
    CHECK(layout_packed(&s->desc, 1, &len, &err) == LAYOUT_OK);
    for (int l = 0; l < 64; l++)
        for (int e = 0; e < n_elems; e++)
            s->table[l * n_elems + e] = (start_bytes + l * lane_pitch_bytes) / elem_bytes + e * step_elems;
    CHECK_MSG(layout_dist_from_table(&s->dist, 1, &len, 64, 1, n_elems, s->table, &err) == LAYOUT_OK, "%s",
              err.message);
}

static void expect_plan(synth *s, int elem_bytes, const layout_access_options *opt, const char *want)
{
    static layout_access_plan p;
    layout_error err;
    CHECK_MSG(layout_access_plan_make(&p, &s->desc, &s->dist, LAYOUT_READ, elem_bytes, opt, &err) == LAYOUT_OK, "%s",
              err.message);
    char buf[160];
    layout_access_plan_print(&p, buf, sizeof buf);
    CHECK_MSG(strcmp(buf, want) == 0, "got \"%s\" want \"%s\"", buf, want);
}

static void test_merging_rule(void)
{
    static synth s;
    /* elem bytes, elems per lane, lane pitch (bytes), start (bytes), element step, expected plan on AMD
     * (clang-22's AMDGPU backend, docs/emit.md rules R1-R4), expected plan on NVIDIA (sm_90: no paired
     * instruction, no widening of sub-dword runs) */
    static const struct { int eb, n; int64_t pitch, start, step; const char *want, *want_nv; } cases[] = {
        {2, 8, 16, 0, 1, "1 x ds_read_b128", "1 x ds_read_b128"},    /* 8 fp16 contiguous at 16 */
        /* ... at 8: two b64 (R3: no re-alignment), paired as adjacent b64 (R1) */
        {2, 8, 32, 8, 1, "1 x ds_read2_b64", "2 x ds_read_b64"},
        {2, 8, 68, 0, 1, "2 x ds_read2_b32", "4 x ds_read_b32"},     /* the 68-byte pitch of kernel 03 (N2) */
        /* odd dword: only 2-byte alignment; AMD widens (R4: the 16 bytes in one misaligned b128) */
        {2, 8, 34, 0, 1, "1 x ds_read_b128", "8 x ds_read_u16"},
        {2, 6, 16, 0, 1, "1 x ds_read_b96", "1 x ds_read_b96"},       /* 12 bytes at 16 */
        {2, 3, 8, 4, 1, "1 x ds_read_b32 + 1 x ds_read_u16", "1 x ds_read_b32 + 1 x ds_read_u16"},
        /* 2-byte-aligned start: R4 on AMD; R3 on NVIDIA (b16 all the way, no re-alignment) */
        {2, 8, 32, 6, 1, "1 x ds_read_b128", "8 x ds_read_u16"},
        {1, 16, 16, 0, 1, "1 x ds_read_b128", "1 x ds_read_b128"},  /* int8 */
        /* int8 at a 64-byte stride: no run; u8 is not paired */
        {1, 16, 16, 0, 64, "16 x ds_read_u8", "16 x ds_read_u8"},
        {4, 4, 16, 0, 1, "1 x ds_read_b128", "1 x ds_read_b128"},   /* fp32 */
        {4, 8, 40, 8, 1, "2 x ds_read2_b64", "4 x ds_read_b64"},    /* 32 bytes at 8: b64 pieces, paired */
        /* descending (a row walked backwards): from its lowest address */
        {2, 8, 16, 14, -1, "1 x ds_read_b128", "1 x ds_read_b128"},
        {2, 8, 32, 18, -1, "2 x ds_read2_b32", "4 x ds_read_b32"},  /* ... which is only 4-byte aligned here */
        {2, 8, 32, 30, -2, "8 x ds_read_u16", "8 x ds_read_u16"},    /* every other element: no run */
        /* fp32 every 8th dword: R1 pairs b32 at a constant distance (8 dwords) */
        {4, 4, 16, 0, 8, "2 x ds_read2_b32", "4 x ds_read_b32"},
        /* fp32 every 64th dword: the st64 form (offset1:1); every 256th: 4 x 64 dwords, st64 again */
        {4, 2, 4, 0, 64, "1 x ds_read2st64_b32", "2 x ds_read_b32"},
        {4, 2, 4, 0, 256, "1 x ds_read2st64_b32", "2 x ds_read_b32"},
        /* 300 dwords apart: beyond the 8-bit offsets and not a multiple of 64: no pair */
        {4, 2, 4, 0, 300, "2 x ds_read_b32", "2 x ds_read_b32"},
        /* fp64 every 16th qword: b64 pairs */
        {8, 4, 8, 0, 16, "2 x ds_read2_b64", "4 x ds_read_b64"},
    };
    layout_arch nv;
    CHECK(layout_arch_preset("sm_90", &nv, NULL) == LAYOUT_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        layout_access_options onv;
        memset(&onv, 0, sizeof onv);
        onv.arch = &nv;
        make_synth(&s, cases[i].eb, cases[i].n, cases[i].pitch, cases[i].start, cases[i].step);
        expect_plan(&s, cases[i].eb, NULL, cases[i].want);
        expect_plan(&s, cases[i].eb, &onv, cases[i].want_nv);
    }
    /* a read2 of two separate addresses: two 4-byte steps that point at each
     * other, one instruction (fp32 every 8th dword, the R1 case above) */
    {
        static layout_access_plan pp;
        char ex[256];
        make_synth(&s, 4, 4, 16, 0, 8);
        CHECK(layout_access_plan_make(&pp, &s.desc, &s.dist, LAYOUT_READ, 4, NULL, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(pp.n_steps, 4);
        CHECK_EQ_I64(pp.n_instrs, 2);
        CHECK_EQ_I64(pp.op_count[LAYOUT_DS_PAIR_B32], 2);
        for (int i = 0; i < 4; i++) {
            CHECK_EQ_I64(pp.steps[i].width_bytes, 4);
            CHECK(pp.steps[i].pair_step >= 0 && pp.steps[pp.steps[i].pair_step].pair_step == i);
        }
        /* neighbours in address order pair: elements 0 and 1 (32 bytes apart), 2 and 3 */
        CHECK_EQ_I64(pp.steps[0].pair_step, 1);
        CHECK_EQ_I64(pp.steps[2].pair_step, 3);
        layout_access_step_explain(&pp, 0, ex, sizeof ex);
        CHECK_STR_CONTAINS(ex, "ds_read2_b32");
        CHECK_STR_CONTAINS(ex, "paired with step 1");
        /* the pair ops are the model's own: not an explicit choice */
        layout_access_options ox;
        memset(&ox, 0, sizeof ox);
        ox.op = LAYOUT_DS_PAIR_B64;
        CHECK(layout_access_plan_make(&pp, &s.desc, &s.dist, LAYOUT_READ, 4, &ox, NULL) == LAYOUT_ERR_ARG);
        CHECK(strcmp(layout_ds_op_name(LAYOUT_DS_PAIR_ST64_B64, LAYOUT_WRITE), "ds_write2st64_b64") == 0);
        CHECK(strcmp(layout_ds_op_name(LAYOUT_DS_PAIR_B64, LAYOUT_READ), "ds_read2_b64") == 0);
        CHECK_EQ_I64(layout_ds_op_width(LAYOUT_DS_PAIR_ST64_B32), 8);
        CHECK_EQ_I64(layout_ds_op_align(LAYOUT_DS_PAIR_B64), 8);
    }
    /* the presets' DS forms: AMD pairs and widens, NVIDIA and Intel do neither */
    {
        static const struct { const char *name; unsigned forms; } f[] = {
            {"gfx90a", LAYOUT_DS_FORMS_AMD}, {"gfx942", LAYOUT_DS_FORMS_AMD}, {"gfx950", LAYOUT_DS_FORMS_AMD},
            {"gfx1100", LAYOUT_DS_FORMS_AMD}, {"gfx12", LAYOUT_DS_FORMS_AMD}, {"sm_80", 0}, {"sm_90", 0},
            {"sm_120", 0}, {"xe-hpg", 0},
        };
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
            layout_arch a;
            CHECK(layout_arch_preset(f[i].name, &a, NULL) == LAYOUT_OK);
            CHECK_MSG(a.ds_forms == f[i].forms, "%s: ds_forms %u", f[i].name, a.ds_forms);
        }
    }
    /* the descending run's instruction starts at the lowest address (element 7) */
    {
        static layout_access_plan dp;
        make_synth(&s, 2, 8, 16, 14, -1);
        CHECK(layout_access_plan_make(&dp, &s.desc, &s.dist, LAYOUT_READ, 2, NULL, NULL) == LAYOUT_OK);
        CHECK_EQ_I64(dp.n_steps, 1);
        CHECK_EQ_I64(dp.steps[0].elem_dir, -1);
        CHECK_EQ_I64(dp.steps[0].seq_first, 7);
        CHECK_EQ_I64(dp.steps[0].n_elems, 8);
        layout_instr ins;
        CHECK(layout_access_instr(&dp, 0, 0, &ins, NULL) == LAYOUT_OK);
        for (int l = 0; l < 64; l++) CHECK_EQ_I64(ins.addr_bytes[l], 16 * l);
    }
    /* no_merge: every scalar access alone */
    layout_access_options o;
    memset(&o, 0, sizeof o);
    o.no_merge = 1;
    make_synth(&s, 2, 8, 16, 0, 1);
    expect_plan(&s, 2, &o, "8 x ds_read_u16");
    /* a trusted vector wider than 16 bytes is issued as several pieces from its first
     * element's address: when its elements are not adjacent, every piece is flagged */
    memset(&o, 0, sizeof o);
    o.vector_elems = 3;
    o.vector_y = 0;
    make_synth(&s, 16, 3, 64, 32, -1); /* 16-byte elements at descending addresses */
    expect_plan(&s, 16, &o, "3 x ds_read_b128 [3 non-contiguous]");
    /* base address shifts the alignment */
    make_synth(&s, 2, 8, 16, 0, 1);
    memset(&o, 0, sizeof o);
    o.base_bytes = 4;
    expect_plan(&s, 2, &o, "2 x ds_read2_b32");
}

static void test_flags(void)
{
    static seed_kernel k;
    static layout_access_plan p;
    layout_error err;
    char buf[512];
    /* 05: ck_tile's b128 store on 132-byte row blocks; the split is two write2_b32 */
    CHECK(seed_kernel_build(&k, SEED_K05, 32, &err) == LAYOUT_OK);
    CHECK(layout_access_plan_make(&p, &k.write_desc, &k.write_dist, LAYOUT_WRITE, 2, NULL, &err) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_steps, 1);
    CHECK(p.steps[0].flags == LAYOUT_ACCESS_MISALIGNED);
    CHECK_EQ_I64(p.steps[0].align_bytes, 4);
    CHECK_EQ_I64(p.steps[0].n_split, 2);
    CHECK_EQ_I64(p.steps[0].split_count[LAYOUT_DS_PAIR_B32], 2);
    layout_access_step_explain(&p, 0, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "misaligned: needs 16-byte alignment");
    CHECK_STR_CONTAINS(buf, "needs 2 x ds_write2_b32");
    layout_access_plan_print(&p, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "1 x ds_write_b128 [1 misaligned]");
    /* ... and with the split policy the legal instructions are emitted */
    layout_access_options o;
    memset(&o, 0, sizeof o);
    o.policy = LAYOUT_VECTOR_SPLIT;
    CHECK(layout_access_plan_make(&p, &k.write_desc, &k.write_dist, LAYOUT_WRITE, 2, &o, &err) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_steps, 2);
    CHECK_EQ_I64(p.op_count[LAYOUT_DS_PAIR_B32], 2);
    CHECK_EQ_I64(p.n_misaligned, 0);
    CHECK_EQ_I64(p.n_vectors_split, 1);

    /* 03 with a user-guaranteed vector of 8 on the 68-byte pitch: misaligned b128 */
    CHECK(seed_kernel_build(&k, SEED_K03, 32, &err) == LAYOUT_OK);
    memset(&o, 0, sizeof o);
    o.vector_elems = 8;
    o.vector_y = 0;
    CHECK(layout_access_plan_make(&p, &k.write_desc, &k.write_dist, LAYOUT_WRITE, 2, &o, &err) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_steps, 1);
    CHECK(p.steps[0].op == LAYOUT_DS_B128);
    CHECK(p.steps[0].flags == LAYOUT_ACCESS_MISALIGNED);
    CHECK_EQ_I64(p.steps[0].split_count[LAYOUT_DS_PAIR_B32], 2);
    CHECK(p.steps[0].bad_warp >= 0 && p.steps[0].bad_lane >= 0);
    layout_access_step_explain(&p, 0, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "at byte 68"); /* lane 4 of warp 0: row 1 */

    /* 01's read forced to a vector of 8 along M (64-byte stride): non-contiguous, 8 b16 needed */
    CHECK(seed_kernel_build(&k, SEED_K01, 32, &err) == LAYOUT_OK);
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_steps, 1);
    CHECK(p.steps[0].flags & LAYOUT_ACCESS_NONCONTIGUOUS);
    CHECK_EQ_I64(p.steps[0].split_count[LAYOUT_DS_B16], 8);
    layout_access_step_explain(&p, 0, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "non-contiguous");
    CHECK_STR_CONTAINS(buf, "needs 8 x ds_read_u16");
    o.policy = LAYOUT_VECTOR_SPLIT;
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_steps, 8);
    CHECK_EQ_I64(p.n_noncontiguous, 0);
    CHECK_EQ_I64(layout_access_step_explain(&p, 99, buf, sizeof buf), 0);
    CHECK_EQ_I64(layout_access_step_explain(NULL, 0, buf, sizeof buf), 0);
}

static void test_explicit_op(void)
{
    static seed_kernel k;
    static layout_access_plan p;
    layout_error err;
    layout_access_options o;
    memset(&o, 0, sizeof o);
    CHECK(seed_kernel_build(&k, SEED_K02, 32, &err) == LAYOUT_OK);
    o.op = LAYOUT_DS_B16;
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_steps, 8);
    CHECK_EQ_I64(p.n_misaligned + p.n_noncontiguous, 0);
    o.op = LAYOUT_DS_B64;
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_steps, 2);
    CHECK_EQ_I64(p.op_count[LAYOUT_DS_B64], 2);
    CHECK_EQ_I64(p.n_misaligned + p.n_noncontiguous, 0);
    /* b128 on the 02 write side (K strided by 128 bytes): non-contiguous */
    o.op = LAYOUT_DS_B128;
    CHECK(layout_access_plan_make(&p, &k.write_desc, &k.write_dist, LAYOUT_WRITE, 2, &o, &err) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_steps, 1);
    CHECK(p.steps[0].flags & LAYOUT_ACCESS_NONCONTIGUOUS);
    /* explicit b128 on 03's rows: misaligned, split in two pairs */
    CHECK(seed_kernel_build(&k, SEED_K03, 32, &err) == LAYOUT_OK);
    CHECK(layout_access_plan_make(&p, &k.write_desc, &k.write_dist, LAYOUT_WRITE, 2, &o, &err) == LAYOUT_OK);
    CHECK(p.steps[0].flags == LAYOUT_ACCESS_MISALIGNED);
    CHECK_EQ_I64(p.steps[0].split_count[LAYOUT_DS_PAIR_B32], 2);
    /* an op that is not a whole number of elements */
    o.op = LAYOUT_DS_B8;
    CHECK(layout_access_plan_make(&p, &k.write_desc, &k.write_dist, LAYOUT_WRITE, 2, &o, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "ds_write_b8 moves 1 bytes, not a multiple of elem_bytes 2");
    o.op = LAYOUT_DS_B96; /* 6 elements do not divide 8 */
    CHECK(layout_access_plan_make(&p, &k.write_desc, &k.write_dist, LAYOUT_WRITE, 2, &o, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "takes 6 elements");
}

static void test_stream(void)
{
    static seed_kernel k;
    static layout_access_plan p;
    static layout_instr buf[64];
    layout_error err;
    CHECK(seed_kernel_build(&k, SEED_K01, 32, &err) == LAYOUT_OK);
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, NULL, &err) == LAYOUT_OK);
    size_t n = 0;
    CHECK(layout_access_stream(&p, NULL, 0, &n, &err) == LAYOUT_OK);
    CHECK_EQ_I64(n, 32);
    n = 0;
    CHECK(layout_access_stream(&p, buf, 31, &n, &err) == LAYOUT_ERR_BUFFER);
    CHECK_EQ_I64(n, 32);
    CHECK_STR_CONTAINS(err.message, "cap = 31");
    CHECK(layout_access_stream(&p, NULL, 5, &n, &err) == LAYOUT_ERR_BUFFER);
    CHECK(layout_access_stream(&p, buf, 64, &n, &err) == LAYOUT_OK);
    for (int w = 0; w < 4; w++)
        for (int s = 0; s < 8; s++) {
            layout_instr one;
            CHECK(layout_access_instr(&p, w, s, &one, NULL) == LAYOUT_OK);
            CHECK(memcmp(&one, &buf[w * 8 + s], sizeof one) == 0);
        }
    /* The talk's 01 read: the 8 reads of lane 0 step by 64 bytes */
    CHECK_EQ_I64(buf[1].addr_bytes[0] - buf[0].addr_bytes[0], 64);
    CHECK_EQ_I64(buf[7].addr_bytes[0], 448);
    CHECK(layout_access_stream(NULL, buf, 64, &n, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_access_stream(&p, buf, 64, NULL, &err) == LAYOUT_ERR_NULL);
    layout_instr one;
    CHECK(layout_access_instr(&p, 4, 0, &one, &err) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(err.message, "warp = 4");
    CHECK(layout_access_instr(&p, 0, 8, &one, &err) == LAYOUT_ERR_RANGE);
    CHECK(layout_access_instr(&p, 0, -1, &one, &err) == LAYOUT_ERR_RANGE);
    CHECK(layout_access_instr(NULL, 0, 0, &one, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_access_instr(&p, 0, 0, NULL, &err) == LAYOUT_ERR_NULL);
}

/* The snake order of the tile window: Y = (2, 4) with the vector on Y1 (length 2):
 * accesses run (0,0-1) (0,2-3) then backwards (1,2-3) (1,0-1). */
static void test_snake_order(void)
{
    layout_dist_encoding e;
    memset(&e, 0, sizeof e);
    e.n_x = 2;
    e.n_h[0] = 2; e.h[0][0] = 64; e.h[0][1] = 2;
    e.n_h[1] = 1; e.h[1][0] = 4;
    e.n_p = 1; e.n_p_rh[0] = 1; e.p_major[0][0] = 1; e.p_minor[0][0] = 0;
    e.n_y = 2; e.y_major[0] = 1; e.y_minor[0] = 1; e.y_major[1] = 2; e.y_minor[1] = 0;
    layout_distribution d;
    layout_error err;
    CHECK_MSG(layout_dist_make(&d, &e, 64, 1, 0, NULL, &err) == LAYOUT_OK, "%s", err.message);
    int64_t lens[2] = {128, 4};
    layout_descriptor desc;
    CHECK(layout_packed_vec(&desc, 2, lens, 2, &err) == LAYOUT_OK);
    static layout_access_plan p;
    layout_access_options o;
    memset(&o, 0, sizeof o);
    o.vector_elems = 2;
    o.vector_y = 1;
    CHECK(layout_access_plan_make(&p, &desc, &d, LAYOUT_READ, 2, &o, &err) == LAYOUT_OK);
    static const int want[8] = {0, 1, 2, 3, 6, 7, 4, 5};
    for (int i = 0; i < 8; i++) CHECK_EQ_I64(p.order[i], want[i]);
    CHECK_EQ_I64(p.n_accesses, 4);
    /* Hint-chosen vector: packed [128, 4] gives X1 length 4 stride 1 -> gcd(4, 4) = 4 on Y1 */
    CHECK(layout_access_plan_make(&p, &desc, &d, LAYOUT_READ, 2, NULL, &err) == LAYOUT_OK);
    CHECK_EQ_I64(p.vector_y, 1);
    CHECK_EQ_I64(p.vector_elems, 4);
    CHECK_EQ_I64(p.n_accesses, 2);
}

static void test_bad_inputs(void)
{
    static seed_kernel k;
    static layout_access_plan p, before;
    layout_error err;
    CHECK(seed_kernel_build(&k, SEED_K01, 32, &err) == LAYOUT_OK);
    memset(&p, 0x33, sizeof p);
    before = p;
    layout_access_options o;
    memset(&o, 0, sizeof o);
    CHECK(layout_access_plan_make(NULL, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_access_plan_make(&p, NULL, &k.read_dist, LAYOUT_READ, 2, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_access_plan_make(&p, &k.read_desc, NULL, LAYOUT_READ, 2, NULL, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 3, NULL, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "layout_access_plan_make: elem_bytes = 3");
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, (layout_direction)7, 2, NULL, &err) ==
          LAYOUT_ERR_ARG);
    /* the write view is [M, K] = [64, 32]; the read distribution's tile is [K, M] = [32, 64] */
    CHECK(layout_access_plan_make(&p, &k.write_desc, &k.read_dist, LAYOUT_READ, 2, NULL, &err) ==
          LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(err.message, "desc length[1] = 32 < tile length 64");
    int64_t three[3] = {32, 64, 2};
    layout_descriptor d3;
    CHECK(layout_packed(&d3, 3, three, &err) == LAYOUT_OK);
    CHECK(layout_access_plan_make(&p, &d3, &k.read_dist, LAYOUT_READ, 2, NULL, &err) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(err.message, "desc has 3 dims");
    o.vector_elems = 3;
    o.vector_y = 0;
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "opt->vector_elems = 3 does not divide Y0 length 8");
    o.vector_elems = 2;
    o.vector_y = 1;
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(err.message, "opt->vector_y = 1");
    o.vector_elems = -1;
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_ERR_ARG);
    memset(&o, 0, sizeof o);
    o.policy = (layout_vector_policy)5;
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_ERR_ARG);
    memset(&o, 0, sizeof o);
    o.op = LAYOUT_DS_OP_COUNT;
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_ERR_ARG);
    memset(&o, 0, sizeof o);
    o.base_bytes = -4;
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_ERR_ARG);
    o.base_bytes = (int64_t)UINT32_MAX - 100; /* the tile's addresses leave the 32-bit LDS space */
    CHECK(layout_access_plan_make(&p, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_ERR_RANGE);
    CHECK_STR_CONTAINS(err.message, "byte address outside");
    CHECK(memcmp(&p, &before, sizeof p) == 0);

    /* more elements per thread than LAYOUT_MAX_THREAD_ELEMS */
    layout_dist_encoding e;
    memset(&e, 0, sizeof e);
    e.n_x = 1; e.n_h[0] = 2; e.h[0][0] = 64; e.h[0][1] = 512;
    e.n_p = 1; e.n_p_rh[0] = 1; e.p_major[0][0] = 1; e.p_minor[0][0] = 0;
    e.n_y = 1; e.y_major[0] = 1; e.y_minor[0] = 1;
    layout_distribution big;
    CHECK(layout_dist_make(&big, &e, 64, 1, 0, NULL, &err) == LAYOUT_OK);
    int64_t len = 64 * 512;
    layout_descriptor flat;
    CHECK(layout_packed(&flat, 1, &len, &err) == LAYOUT_OK);
    CHECK(layout_access_plan_make(&p, &flat, &big, LAYOUT_READ, 2, NULL, &err) == LAYOUT_ERR_CAPACITY);
    CHECK_STR_CONTAINS(err.message, "512 elements per thread");

    /* names and widths */
    CHECK(strcmp(layout_ds_op_name(LAYOUT_DS_PAIR_B32, LAYOUT_WRITE), "ds_write2_b32") == 0);
    CHECK(strcmp(layout_ds_op_name(LAYOUT_DS_B16, LAYOUT_READ), "ds_read_u16") == 0);
    CHECK(strcmp(layout_ds_op_name((layout_ds_op)99, LAYOUT_READ), "?") == 0);
    CHECK_EQ_I64(layout_ds_op_width(LAYOUT_DS_B96), 12);
    CHECK_EQ_I64(layout_ds_op_width(LAYOUT_DS_AUTO), 0);
    CHECK_EQ_I64(layout_ds_op_align(LAYOUT_DS_B96), 16);
    CHECK_EQ_I64(layout_ds_op_align(LAYOUT_DS_PAIR_B32), 4);
    CHECK_EQ_I64(layout_ds_op_align((layout_ds_op)-3), 0);
    char buf[32];
    layout_access_plan_print(NULL, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "null");
}

/* Every descriptor of the examples is injective over its tile (brute force). */
static void test_descriptors_injective(void)
{
    static seed_kernel k;
    static uint8_t seen[8192];
    for (int banks = 32; banks <= 64; banks += 32)
        for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
            CHECK(seed_kernel_build(&k, (seed_kernel_id)i, banks, NULL) == LAYOUT_OK);
            const layout_descriptor *views[2] = {&k.write_desc, &k.read_desc};
            for (int v = 0; v < 2; v++) {
                memset(seen, 0, sizeof seen);
                int64_t n0 = layout_desc_length(views[v], 0), n1 = layout_desc_length(views[v], 1);
                CHECK_EQ_I64(n0 * n1, 2048);
                for (int64_t a = 0; a < n0; a++)
                    for (int64_t b = 0; b < n1; b++) {
                        int64_t c[2] = {a, b}, off = -1;
                        CHECK(layout_desc_offset(views[v], c, &off, NULL) == LAYOUT_OK);
                        CHECK(off >= 0 && off < 8192);
                        if (off >= 0 && off < 8192) {
                            CHECK_MSG(!seen[off], "kernel %s view %d: offset %lld twice", k.id, v, (long long)off);
                            seen[off] = 1;
                        }
                        /* the view agrees with the closed form of docs/lds-model.md §4.2 */
                        int side = v;
                        CHECK_EQ_I64(off, seed_map_offset(kernel_no[i], side, banks, c));
                    }
                /* and core's verifier agrees: injective; bijective unless padded (03, 05) */
                static unsigned char ws[4096];
                size_t need = 0;
                int inj = 0, bij = 0;
                CHECK(layout_desc_verify_workspace_size(views[v], &need, NULL) == LAYOUT_OK);
                CHECK(need <= sizeof ws);
                CHECK(layout_desc_is_injective(views[v], ws, sizeof ws, &inj, NULL) == LAYOUT_OK);
                CHECK(layout_desc_is_bijective(views[v], ws, sizeof ws, &bij, NULL) == LAYOUT_OK);
                CHECK_MSG(inj == 1, "kernel %s view %d not injective", k.id, v);
                CHECK_EQ_I64(bij, (i == SEED_K03 || i == SEED_K05) ? 0 : 1);
            }
        }
}


/* ck_tile copies the vector hint through xor unchecked: an XOR on the contiguous
 * dim permutes the elements inside each 16-byte vector, so the b128 it emits
 * reads the right bytes in the wrong order.  The plan flags it. */
static void test_xor_on_vector_dim_flagged(void)
{
    int64_t lens[2] = {64, 32}, strides[2] = {32, 1};
    layout_descriptor d0, dx;
    layout_error err;
    CHECK(layout_naive_vec(&d0, 2, lens, strides, 8, 1, &err) == LAYOUT_OK);
    layout_transform x;
    CHECK(layout_make_xor(64, 32, &x, &err) == LAYOUT_OK);
    layout_seq lo[1] = {LAYOUT_SEQ(0, 1)}, up[1] = {LAYOUT_SEQ(0, 1)};
    CHECK_MSG(layout_transform_descriptor(&dx, &d0, 1, &x, lo, up, &err) == LAYOUT_OK, "%s", err.message);
    layout_distribution w;
    CHECK(seed_write_dist(&w, &err) == LAYOUT_OK);
    static layout_access_plan p;
    CHECK_MSG(layout_access_plan_make(&p, &dx, &w, LAYOUT_WRITE, 2, NULL, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_EQ_I64(p.vector_elems, 8);
    CHECK_EQ_I64(p.n_steps, 1);
    CHECK(p.steps[0].flags & LAYOUT_ACCESS_NONCONTIGUOUS);
    CHECK_EQ_I64(p.steps[0].bad_warp, 0);
    CHECK_EQ_I64(p.steps[0].bad_lane, 4); /* row 1: k ^ 1 swaps neighbours */
    /* the split: element k^1 pairs are adjacent only backwards -> 8 b16 */
    CHECK_EQ_I64(p.steps[0].split_count[LAYOUT_DS_B16], 8);
}

/* A wave32 kernel on an RDNA preset: 1 warp of 32 lanes, 32 x 8 fp16 rows, one b128 per lane. */
static void test_wave32(void)
{
    layout_dist_encoding e;
    memset(&e, 0, sizeof e);
    e.n_x = 2;
    e.n_h[0] = 1; e.h[0][0] = 32;
    e.n_h[1] = 1; e.h[1][0] = 8;
    e.n_p = 1; e.n_p_rh[0] = 1; e.p_major[0][0] = 1; e.p_minor[0][0] = 0;
    e.n_y = 1; e.y_major[0] = 2; e.y_minor[0] = 0;
    layout_distribution d;
    layout_error err;
    CHECK_MSG(layout_dist_make(&d, &e, 32, 1, 0, NULL, &err) == LAYOUT_OK, "%s", err.message);
    int64_t lens[2] = {32, 8};
    layout_descriptor desc;
    CHECK(layout_packed(&desc, 2, lens, &err) == LAYOUT_OK);
    static layout_access_plan p;
    CHECK(layout_access_plan_make(&p, &desc, &d, LAYOUT_READ, 2, NULL, &err) == LAYOUT_OK);
    CHECK_EQ_I64(p.n_steps, 1);
    layout_instr ins;
    CHECK(layout_access_instr(&p, 0, 0, &ins, &err) == LAYOUT_OK);
    CHECK_EQ_I64(ins.n_lanes, 32);
    CHECK(ins.active_mask == 0xffffffffu);
    CHECK_EQ_I64(ins.width_bytes, 16);
    for (int l = 0; l < 32; l++) CHECK_EQ_I64(ins.addr_bytes[l], 16 * l);
    layout_arch a;
    CHECK(layout_arch_preset("gfx11", &a, &err) == LAYOUT_OK);
    layout_kernel_result r;
    CHECK_MSG(layout_check_triple(&a, &d, &desc, &d, 2, &r, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_EQ_I64(r.extra_cycles_per_tile, 0);
    CHECK_EQ_I64(r.instrs_per_tile, 2);
}

/* A compiled descriptor (plan.h) in the options gives the same instructions. */
static void test_desc_plan_option(void)
{
    static seed_kernel k;
    static layout_access_plan a, b;
    static layout_plan cp;
    layout_error err;
    for (int banks = 32; banks <= 64; banks += 32)
        for (int i = 0; i < SEED_KERNEL_COUNT; i++) {
            CHECK(seed_kernel_build(&k, (seed_kernel_id)i, banks, NULL) == LAYOUT_OK);
            for (int side = 0; side < 2; side++) {
                const layout_descriptor *d = side ? &k.read_desc : &k.write_desc;
                const layout_distribution *t = side ? &k.read_dist : &k.write_dist;
                layout_direction dir = side ? LAYOUT_READ : LAYOUT_WRITE;
                CHECK(layout_plan_build(&cp, d, LAYOUT_PLAN_AUTO, &err) == LAYOUT_OK);
                layout_access_options o;
                memset(&o, 0, sizeof o);
                o.desc_plan = &cp;
                CHECK(layout_access_plan_make(&a, d, t, dir, 2, NULL, &err) == LAYOUT_OK);
                CHECK_MSG(layout_access_plan_make(&b, d, t, dir, 2, &o, &err) == LAYOUT_OK, "%s", err.message);
                CHECK(b.desc_plan == &cp);
                CHECK_EQ_I64(a.n_steps, b.n_steps);
                CHECK(memcmp(a.steps, b.steps, sizeof a.steps) == 0);
                for (int w = 0; w < 4; w++)
                    for (int s = 0; s < a.n_steps; s++) {
                        layout_instr ia, ib;
                        CHECK(layout_access_instr(&a, w, s, &ia, NULL) == LAYOUT_OK);
                        CHECK(layout_access_instr(&b, w, s, &ib, NULL) == LAYOUT_OK);
                        CHECK(memcmp(&ia, &ib, sizeof ia) == 0);
                    }
            }
        }
    /* a plan of another shape is refused */
    CHECK(seed_kernel_build(&k, SEED_K01, 32, NULL) == LAYOUT_OK);
    CHECK(layout_plan_build(&cp, &k.write_desc, LAYOUT_PLAN_AUTO, &err) == LAYOUT_OK); /* [64, 32] */
    layout_access_options o;
    memset(&o, 0, sizeof o);
    o.desc_plan = &cp;
    CHECK(layout_access_plan_make(&a, &k.read_desc, &k.read_dist, LAYOUT_READ, 2, &o, &err) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(err.message, "opt->desc_plan top length[0] = 64, desc has 32");
}

int main(void)
{
    RUN(test_seed_instruction_counts);
    RUN(test_seed_addresses);
    RUN(test_merging_rule);
    RUN(test_flags);
    RUN(test_explicit_op);
    RUN(test_stream);
    RUN(test_snake_order);
    RUN(test_bad_inputs);
    RUN(test_descriptors_injective);
    RUN(test_xor_on_vector_dim_flagged);
    RUN(test_wave32);
    RUN(test_desc_plan_option);
    return harness_finish("test_access");
}
