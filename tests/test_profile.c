/* Profiler CSV (profile.h).
 *
 * - Nsight Compute's raw page as ncu wrote it on an H100
 *   (tests/fixtures/ncu/triton_kernels_raw.csv, 286 columns, ==PROF== lines,
 *   a units row, "2,048"-style numbers) and its reduction to the named cases
 *   made by Python's csv module (tests/fixtures/triton/kernels/ncu_sm90.csv)
 *   give the same 22 dispatches and counters; known values checked;
 * - the same values rewritten as ncu's details page (one row per metric:
 *   "ID", ..., "Metric Name", "Metric Unit", "Metric Value") read the same;
 * - rocprofv3's counter_collection.csv (the columns rocprofiler-sdk's
 *   "Using rocprofv3" shows: one row per dispatch and counter, values like
 *   16384.000000) and rocprof v1's results.csv (a column per counter);
 * - malformed CSV with its line and column, capacities, NULL. */
#include "harness.h"
#include "layout.h"

#define FILE_CAP (1 << 20)

static char text[FILE_CAP], text2[FILE_CAP];
static layout_profile p, q;
static layout_error err;

static long read_fixture(const char *rel, char *buf)
{
    char path[512];
    const char *f = __FILE__, *slash = strrchr(f, '/');
    FILE *fp;
    long n;
    snprintf(path, sizeof path, "%.*s/%s", slash ? (int)(slash - f) : 1, slash ? f : ".", rel);
    if (!(fp = fopen(path, "rb"))) return -1;
    n = (long)fread(buf, 1, FILE_CAP - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return n;
}

static const unsigned nv_all = (1u << LAYOUT_CTR_SHARED_ST_CONFLICTS) | (1u << LAYOUT_CTR_SHARED_LD_CONFLICTS) |
                               (1u << LAYOUT_CTR_SHARED_ST_WAVEFRONTS) | (1u << LAYOUT_CTR_SHARED_LD_WAVEFRONTS) |
                               (1u << LAYOUT_CTR_SHARED_ST_INSTS) | (1u << LAYOUT_CTR_SHARED_LD_INSTS);

static void test_ncu_raw(void)
{
    long n = read_fixture("fixtures/ncu/triton_kernels_raw.csv", text);
    long m = read_fixture("fixtures/triton/kernels/ncu_sm90.csv", text2);
    int i, k;
    CHECK(n > 0 && m > 0);
    CHECK_MSG(layout_profile_from_csv(text, (size_t)n, &p, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_MSG(layout_profile_from_csv(text2, (size_t)m, &q, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_EQ_I64(p.n_dispatches, 22);
    CHECK_EQ_I64(q.n_dispatches, 22);
    for (i = 0; i < p.n_dispatches && i < q.n_dispatches; i++) {
        CHECK_EQ_I64(p.dispatches[i].id, i);
        CHECK(p.dispatches[i].present == nv_all && q.dispatches[i].present == nv_all);
        for (k = 0; k < LAYOUT_CTR_COUNT; k++) CHECK_EQ_I64(p.dispatches[i].value[k], q.dispatches[i].value[k]);
        CHECK(strstr(q.dispatches[i].kernel, "_sm90") != NULL);
        CHECK_MSG(strncmp(q.dispatches[i].kernel, p.dispatches[i].kernel, 4) == 0, "%s / %s", q.dispatches[i].kernel,
                  p.dispatches[i].kernel);
    }
    /* known values (ncu's own figures, read with Python's csv module) */
    CHECK(strcmp(p.dispatches[0].kernel, "matmul_kernel") == 0);
    CHECK_EQ_I64(p.dispatches[0].value[LAYOUT_CTR_SHARED_LD_INSTS], 2240);
    CHECK_EQ_I64(p.dispatches[0].value[LAYOUT_CTR_SHARED_ST_INSTS], 512);
    CHECK_EQ_I64(p.dispatches[3].value[LAYOUT_CTR_SHARED_LD_WAVEFRONTS], 34816);
    CHECK_EQ_I64(p.dispatches[10].value[LAYOUT_CTR_SHARED_ST_CONFLICTS], 24576); /* fp8 64x64x32 */
    CHECK_EQ_I64(p.dispatches[21].value[LAYOUT_CTR_SHARED_ST_WAVEFRONTS], 512);  /* attention */
    CHECK(strcmp(p.dispatches[21].kernel, "attn_fwd_kernel") == 0);
}

/* The reduction rewritten in ncu's details-page form, one row per metric. */
static void test_ncu_long(void)
{
    static const char *const metric[6] = {
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "smsp__inst_executed_op_shared_st.sum", "smsp__inst_executed_op_shared_ld.sum"};
    size_t n = 0;
    int i, k;
    n += (size_t)snprintf(text + n, FILE_CAP - n,
                          "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
                          "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\","
                          "\"Metric Value\"\r\n");
    for (i = 0; i < q.n_dispatches; i++) {
        n += (size_t)snprintf(text + n, FILE_CAP - n,
                              "\"%d\",\"7\",\"python3\",\"host\",\"%s\",\"1\",\"7\",\"(128, 1, 1)\",\"(4, 4, 1)\",\"0\",\"9.0\","
                              "\"Memory\",\"gpu__time_duration.sum\",\"ns\",\"4,512\"\r\n", i, q.dispatches[i].kernel);
        for (k = 0; k < 6; k++)
            n += (size_t)snprintf(text + n, FILE_CAP - n,
                                  "\"%d\",\"7\",\"python3\",\"host\",\"%s\",\"1\",\"7\",\"(128, 1, 1)\",\"(4, 4, 1)\",\"0\","
                                  "\"9.0\",\"Command line profiler metrics\",\"%s\",\"\",\"%lld\"\r\n",
                                  i, q.dispatches[i].kernel, metric[k], (long long)q.dispatches[i].value[k]);
    }
    CHECK_MSG(layout_profile_from_csv(text, n, &p, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_EQ_I64(p.n_dispatches, q.n_dispatches);
    for (i = 0; i < p.n_dispatches && i < q.n_dispatches; i++) {
        CHECK(strcmp(p.dispatches[i].kernel, q.dispatches[i].kernel) == 0 && p.dispatches[i].present == nv_all);
        for (k = 0; k < LAYOUT_CTR_COUNT; k++) CHECK_EQ_I64(p.dispatches[i].value[k], q.dispatches[i].value[k]);
    }
}

static void test_rocprof(void)
{
    static const char v3[] =
        "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\",\"Thread_Id\",\"Grid_Size\","
        "\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\",\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\","
        "\"Accum_VGPR_Count\",\"SGPR_Count\",\"Counter_Name\",\"Counter_Value\",\"Start_Timestamp\",\"End_Timestamp\"\n"
        "1,1,\"Agent 4\",1,225049,225049,2097152,10,\"layout_probe(lp_s const*, lp_s*)\",256,8192,0,16,0,24,"
        "\"SQ_LDS_BANK_CONFLICT\",3670016.000000,317095766765717,317095766775957\n"
        "1,1,\"Agent 4\",1,225049,225049,2097152,10,\"layout_probe(lp_s const*, lp_s*)\",256,8192,0,16,0,24,"
        "\"SQ_INSTS_LDS\",294912.000000,317095766765717,317095766775957\n"
        "2,2,\"Agent 4\",1,225049,225049,2097152,11,\"other_kernel\",256,0,0,16,0,24,\"SQ_WAVES\",32768.000000,1,2\n"
        "3,3,\"Agent 4\",1,225049,225049,2097152,10,\"layout_probe(lp_s const*, lp_s*)\",256,8192,0,16,0,24,"
        "\"SQ_INSTS_LDS\",294912.000000,317095767013157,317095767022957\n"
        "3,3,\"Agent 4\",1,225049,225049,2097152,10,\"layout_probe(lp_s const*, lp_s*)\",256,8192,0,16,0,24,"
        "\"SQ_LDS_BANK_CONFLICT\",0.000000,317095767013157,317095767022957\n";
    static const char v1[] = "\"Index\",\"KernelName\",\"gpu-id\",\"SQ_LDS_BANK_CONFLICT\",\"SQ_INSTS_LDS\"\n"
                             "0,\"layout_probe\",0,3670016,294912\n"
                             "1,\"layout_probe\",0,0,294912\n";
    const unsigned amd = (1u << LAYOUT_CTR_SQ_LDS_BANK_CONFLICT) | (1u << LAYOUT_CTR_SQ_INSTS_LDS);
    CHECK_MSG(layout_profile_from_csv(v3, sizeof v3 - 1, &p, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_EQ_I64(p.n_dispatches, 3);
    CHECK(strcmp(p.dispatches[0].kernel, "layout_probe(lp_s const*, lp_s*)") == 0 && p.dispatches[0].id == 1);
    CHECK(p.dispatches[0].present == amd);
    CHECK_EQ_I64(p.dispatches[0].value[LAYOUT_CTR_SQ_LDS_BANK_CONFLICT], 3670016);
    CHECK_EQ_I64(p.dispatches[0].value[LAYOUT_CTR_SQ_INSTS_LDS], 294912);
    CHECK(strcmp(p.dispatches[1].kernel, "other_kernel") == 0 && p.dispatches[1].present == 0);
    CHECK(p.dispatches[2].id == 3 && p.dispatches[2].present == amd && p.dispatches[2].value[LAYOUT_CTR_SQ_LDS_BANK_CONFLICT] == 0);
    CHECK_MSG(layout_profile_from_csv(v1, sizeof v1 - 1, &p, &err) == LAYOUT_OK, "%s", err.message);
    CHECK_EQ_I64(p.n_dispatches, 2);
    CHECK(p.dispatches[0].present == amd && p.dispatches[0].value[LAYOUT_CTR_SQ_LDS_BANK_CONFLICT] == 3670016);
    CHECK(p.dispatches[1].id == 1 && p.dispatches[1].value[LAYOUT_CTR_SQ_INSTS_LDS] == 294912);
    CHECK(strcmp(layout_counter_name(LAYOUT_CTR_SQ_INSTS_LDS), "SQ_INSTS_LDS") == 0);
    CHECK(strcmp(layout_counter_name(LAYOUT_CTR_COUNT), "?") == 0);
}

static void expect_error(const char *csv, layout_status want, const char *msg)
{
    layout_status st = layout_profile_from_csv(csv, strlen(csv), &p, &err);
    CHECK_MSG(st == want, "'%s': got %s (%s)", csv, layout_status_name(st), err.message);
    CHECK_STR_CONTAINS(err.message, msg);
}

static void test_errors(void)
{
    static char big[64 * 1024];
    size_t n = 0;
    int i;
    CHECK(layout_profile_from_csv(NULL, 0, &p, &err) == LAYOUT_ERR_NULL);
    CHECK(layout_profile_from_csv("", 0, NULL, &err) == LAYOUT_ERR_NULL);
    expect_error("", LAYOUT_ERR_PARSE, "no header row");
    expect_error("==PROF== Connected\n", LAYOUT_ERR_PARSE, "no header row");
    expect_error("\"a\",\"b\"\n1,2\n", LAYOUT_ERR_PARSE, "line 1, column 1: the header has no kernel-name column");
    expect_error("\"Kernel_Name\",\"Counter_Name\"\n\"k\",\"SQ_INSTS_LDS\"\n", LAYOUT_ERR_PARSE, "without a value column");
    expect_error("\"Kernel Name\",\"smsp__inst_executed_op_shared_ld.sum\"\n\"k\",\"12.5\"\n", LAYOUT_ERR_PARSE,
                 "line 2, column 6: a counter value is not a whole number >= 0");
    expect_error("\"Kernel Name\",\"smsp__inst_executed_op_shared_ld.sum\"\n\"k\",-3\n", LAYOUT_ERR_PARSE,
                 "line 2, column 5: a counter value");
    expect_error("\"Kernel Name\",\"smsp__inst_executed_op_shared_ld.sum\"\n\"k\",99999999999999999999\n", LAYOUT_ERR_PARSE,
                 "a counter value");
    expect_error("\"Kernel Name\",\"x\"\n\"k,1\n", LAYOUT_ERR_PARSE, "line 2, column 1: a quoted field is not closed");
    expect_error("\"Kernel Name\",\"x\"\n\"k\"z,1\n", LAYOUT_ERR_PARSE, "line 2, column 4: expected ','");
    /* "n/a" and empty cells are not measured, not errors */
    {
        static const char na[] = "\"Kernel Name\",\"SQ_INSTS_LDS\"\n\"k\",\"n/a\"\n\"k2\",\n";
        CHECK(layout_profile_from_csv(na, sizeof na - 1, &p, &err) == LAYOUT_OK);
    }
    CHECK(p.n_dispatches == 2 && p.dispatches[0].present == 0 && p.dispatches[1].present == 0);
    /* "" inside a quoted name */
    {
        static const char quoted[] = "\"Kernel Name\"\n\"say \"\"hi\"\"\"\n";
        CHECK(layout_profile_from_csv(quoted, sizeof quoted - 1, &p, &err) == LAYOUT_OK);
    }
    CHECK_MSG(strcmp(p.dispatches[0].kernel, "say \"hi\"") == 0, "%s", p.dispatches[0].kernel);
    /* capacities */
    n += (size_t)snprintf(big + n, sizeof big - n, "\"Kernel Name\"\n");
    for (i = 0; i <= LAYOUT_PROFILE_MAX_DISPATCHES; i++) n += (size_t)snprintf(big + n, sizeof big - n, "k%d\n", i);
    expect_error(big, LAYOUT_ERR_CAPACITY, "line 258, column 1: more than 256 dispatches");
    n = 0;
    for (i = 0; i <= LAYOUT_PROFILE_MAX_COLUMNS; i++) n += (size_t)snprintf(big + n, sizeof big - n, "c%d,", i);
    expect_error(big, LAYOUT_ERR_CAPACITY, "more than 1024 columns");
}

int main(void)
{
    RUN(test_ncu_raw);
    RUN(test_ncu_long);
    RUN(test_rocprof);
    RUN(test_errors);
    return harness_finish("test_profile");
}
