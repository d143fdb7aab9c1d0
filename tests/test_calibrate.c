/* Prediction against measurement (calibrate.h).
 *
 * - The seed talk's rocprofv3 figures on MI300 (shared/seeds/000, kernel
 *   table: "Numbers are rocprofv3 --pmc SQ_LDS_BANK_CONFLICT SQ_INSTS_LDS
 *   ... on MI300, FP16, M=65536, K=256"): kernel 01 3,670,016 / 294,912,
 *   02 1,572,864 / 294,912, 03 786,432 / 327,680, 05 0 / 294,912, 08 0 /
 *   65,536, written as rocprofv3's counter_collection.csv, read by
 *   layout_profile_from_csv() and held against layout_check_kernel() on
 *   gfx942 over the seed's 8192 tiles: every counter equal; one figure
 *   changed by one: that row unequal.
 * - NVIDIA counters map to the write / read side of the prediction;
 *   counters of the other vendor, or none in common, are refused. */
#include "harness.h"
#include "layout.h"
#include "../examples/seed_kernels.h"

static layout_error err;
static layout_profile prof;

static void test_seed_mi300(void)
{
    static const struct {
        seed_kernel_id id;
        long long conflicts, insts;
    } published[] = {{SEED_K01, 3670016, 294912}, {SEED_K02, 1572864, 294912}, {SEED_K03, 786432, 327680},
                     {SEED_K05, 0, 294912},       {SEED_K08, 0, 65536}};
    static char csv[8192];
    size_t n = 0, i;
    layout_arch arch;
    CHECK(layout_arch_preset("gfx942", &arch, &err) == LAYOUT_OK);
    n += (size_t)snprintf(csv + n, sizeof csv - n,
                          "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\",\"Thread_Id\","
                          "\"Grid_Size\",\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\",\"LDS_Block_Size\","
                          "\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\",\"Counter_Name\","
                          "\"Counter_Value\",\"Start_Timestamp\",\"End_Timestamp\"\n");
    for (i = 0; i < sizeof published / sizeof published[0]; i++) {
        n += (size_t)snprintf(csv + n, sizeof csv - n,
                              "%zu,%zu,\"Agent 2\",1,7,7,2097152,%zu,\"kernel_%s\",256,4096,0,32,0,24,"
                              "\"SQ_LDS_BANK_CONFLICT\",%lld.000000,1,2\n",
                              i + 1, i + 1, i, seed_kernel_id_str(published[i].id), published[i].conflicts);
        n += (size_t)snprintf(csv + n, sizeof csv - n,
                              "%zu,%zu,\"Agent 2\",1,7,7,2097152,%zu,\"kernel_%s\",256,4096,0,32,0,24,"
                              "\"SQ_INSTS_LDS\",%lld.000000,1,2\n",
                              i + 1, i + 1, i, seed_kernel_id_str(published[i].id), published[i].insts);
    }
    CHECK_MSG(layout_profile_from_csv(csv, n, &prof, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_EQ_I64(prof.n_dispatches, 5);
    for (i = 0; i < sizeof published / sizeof published[0] && (int)i < prof.n_dispatches; i++) {
        seed_kernel k;
        layout_kernel_spec spec;
        layout_kernel_result r;
        layout_calibration c;
        layout_profile_dispatch off;
        CHECK(seed_kernel_build(&k, published[i].id, arch.n_banks, &err) == LAYOUT_OK);
        spec = seed_kernel_spec(&k);
        CHECK_EQ_I64(spec.tiles, 8192);
        CHECK(layout_check_kernel(&arch, &spec, &r, &err) == LAYOUT_OK);
        CHECK_MSG(layout_calibrate(&arch, &r, &prof.dispatches[i], &c, &err) == LAYOUT_OK, "%s", err.message);
        CHECK_EQ_I64(c.n_rows, 2);
        CHECK_MSG(c.all_equal, "kernel %s: predicted %lld / %lld, measured %lld / %lld", seed_kernel_id_str(published[i].id),
                  (long long)c.rows[0].predicted, (long long)c.rows[1].predicted, (long long)c.rows[0].measured,
                  (long long)c.rows[1].measured);
        CHECK(c.rows[0].counter == LAYOUT_CTR_SQ_LDS_BANK_CONFLICT && c.rows[0].measured == published[i].conflicts);
        CHECK(c.rows[1].counter == LAYOUT_CTR_SQ_INSTS_LDS && c.rows[1].measured == published[i].insts);
        /* one figure off by one: that row, and only that one, is unequal */
        off = prof.dispatches[i];
        off.value[LAYOUT_CTR_SQ_INSTS_LDS]++;
        CHECK(layout_calibrate(&arch, &r, &off, &c, &err) == LAYOUT_OK);
        CHECK(!c.all_equal && c.rows[0].equal && !c.rows[1].equal);
    }
}

static void test_vendors(void)
{
    layout_arch sm90, gfx, xe;
    layout_kernel_result r;
    layout_profile_dispatch d;
    layout_calibration c;
    int64_t v = -1;
    memset(&r, 0, sizeof r);
    r.tiles = 3;
    r.write.sq_lds_bank_conflict = 10;
    r.read.sq_lds_bank_conflict = 20;
    r.write.total_cycles_per_tile = 7;
    r.read.total_cycles_per_tile = 9;
    r.write.sq_insts_lds = 30;
    r.read.sq_insts_lds = 40;
    r.sq_lds_bank_conflict = 30;
    r.sq_insts_lds = 70;
    CHECK(layout_arch_preset("sm_90", &sm90, &err) == LAYOUT_OK);
    CHECK(layout_arch_preset("gfx950", &gfx, &err) == LAYOUT_OK);
    CHECK(layout_arch_preset("xe-hpg", &xe, &err) == LAYOUT_OK);
    /* NVIDIA: the write side is the store, the read side the load; wavefronts are total cycles x tiles */
    CHECK(layout_calibrate_predict(&sm90, &r, LAYOUT_CTR_SHARED_ST_CONFLICTS, &v) && v == 10);
    CHECK(layout_calibrate_predict(&sm90, &r, LAYOUT_CTR_SHARED_LD_CONFLICTS, &v) && v == 20);
    CHECK(layout_calibrate_predict(&sm90, &r, LAYOUT_CTR_SHARED_ST_WAVEFRONTS, &v) && v == 21);
    CHECK(layout_calibrate_predict(&sm90, &r, LAYOUT_CTR_SHARED_LD_WAVEFRONTS, &v) && v == 27);
    CHECK(layout_calibrate_predict(&sm90, &r, LAYOUT_CTR_SHARED_ST_INSTS, &v) && v == 30);
    CHECK(layout_calibrate_predict(&sm90, &r, LAYOUT_CTR_SHARED_LD_INSTS, &v) && v == 40);
    CHECK(!layout_calibrate_predict(&sm90, &r, LAYOUT_CTR_SQ_INSTS_LDS, &v));
    CHECK(layout_calibrate_predict(&gfx, &r, LAYOUT_CTR_SQ_INSTS_LDS, &v) && v == 70);
    CHECK(!layout_calibrate_predict(&gfx, &r, LAYOUT_CTR_SHARED_LD_INSTS, &v));
    CHECK(!layout_calibrate_predict(&xe, &r, LAYOUT_CTR_SQ_INSTS_LDS, &v));
    CHECK(!layout_calibrate_predict(&gfx, &r, LAYOUT_CTR_COUNT, &v));
    /* an AMD measurement against an NVIDIA arch: nothing in common */
    memset(&d, 0, sizeof d);
    snprintf(d.kernel, sizeof d.kernel, "layout_probe");
    d.present = 1u << LAYOUT_CTR_SQ_INSTS_LDS;
    d.value[LAYOUT_CTR_SQ_INSTS_LDS] = 70;
    memset(&c, 0x5a, sizeof c);
    CHECK(layout_calibrate(&sm90, &r, &d, &c, &err) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(err.message, "measured none of the counters sm_90 predicts");
    CHECK(c.n_rows == 0x5a5a5a5a);
    CHECK(layout_calibrate(&gfx, &r, &d, &c, &err) == LAYOUT_OK && c.n_rows == 1 && c.all_equal);
    CHECK(layout_calibrate(NULL, &r, &d, &c, &err) == LAYOUT_ERR_NULL);
}

int main(void)
{
    RUN(test_seed_mi300);
    RUN(test_vendors);
    return harness_finish("test_calibrate");
}
