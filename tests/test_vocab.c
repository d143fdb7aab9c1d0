/* Vendor vocabulary: on NVIDIA targets the library and the `layout` tool
 * speak PTX (st.shared.v4.b32, ld.shared.b16), warps and Nsight Compute's
 * metric names; on AMD the DS mnemonics, waves and the SQ_ counters.
 *
 * Known answers: the PTX ISA's ld / st instructions take a vector suffix
 * .v2 / .v4 of .b32 (so an 8- / 16-byte lane access is .v2.b32 / .v4.b32);
 * AMD's CDNA3 ISA names ds_read_u16, ds_write_b128, ds_read2_b32.  The
 * Nsight Compute metric names are those of its shared-memory table
 * (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum, ...).  The
 * counts of the sm_90 kernel are worked out by hand below. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"
#include "support/tool_run.h"

#include <sys/stat.h>
#include <unistd.h>

#ifndef LAYOUT_TOOL_PATH
#define LAYOUT_TOOL_PATH ""
#endif

static const char *g_tool = LAYOUT_TOOL_PATH;
static char g_dir[64];
static char g_out[1 << 20], g_err[1 << 16], g_out_path[128], g_err_path[128];
/* `layout ARGS` in the scratch directory, stdin empty */
static tool_runner g_run = {NULL, NULL, "</dev/null", g_out_path, g_err_path, 0, g_out, sizeof g_out, g_err, sizeof g_err};
#define run_tool(...) tool_run(&g_run, __VA_ARGS__)

static layout_arch preset(const char *name)
{
    layout_arch a;
    layout_error e;
    if (layout_arch_preset(name, &a, &e) != LAYOUT_OK) {
        fprintf(stderr, "preset %s: %s\n", name, e.message);
        exit(1);
    }
    return a;
}

static void test_vendor(void)
{
    static const struct {
        const char *name;
        layout_vendor vendor;
    } known[] = {
        {"sm_75", LAYOUT_VENDOR_NVIDIA}, {"sm_80", LAYOUT_VENDOR_NVIDIA}, {"sm_90", LAYOUT_VENDOR_NVIDIA},
        {"sm_100", LAYOUT_VENDOR_NVIDIA}, {"H100", LAYOUT_VENDOR_NVIDIA}, {"B200", LAYOUT_VENDOR_NVIDIA},
        {"gfx90a", LAYOUT_VENDOR_AMD}, {"gfx942", LAYOUT_VENDOR_AMD}, {"gfx950", LAYOUT_VENDOR_AMD},
        {"gfx11", LAYOUT_VENDOR_AMD}, {"gfx1100-w64", LAYOUT_VENDOR_AMD}, {"MI355X", LAYOUT_VENDOR_AMD},
        {"xe-hpg", LAYOUT_VENDOR_INTEL},
    };
    layout_arch a;
    layout_error e;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        a = preset(known[i].name);
        CHECK_MSG(layout_arch_vendor(&a) == known[i].vendor, "%s: %s", known[i].name,
                  layout_vendor_name(layout_arch_vendor(&a)));
    }
    /* Custom architectures: the name when it means a target, else the shape. */
    CHECK(layout_arch_from_text("arch(base=sm_90, name=h100-probe)", &a, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(layout_arch_vendor(&a), LAYOUT_VENDOR_NVIDIA); /* ds=none, wave 32 */
    CHECK(layout_arch_from_text("arch(base=gfx942, name=mi300-64, banks=64)", &a, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(layout_arch_vendor(&a), LAYOUT_VENDOR_AMD);
    CHECK(layout_arch_from_text("arch(base=sm_90, name=H200)", &a, NULL, &e) == LAYOUT_OK);
    CHECK_EQ_I64(layout_arch_vendor(&a), LAYOUT_VENDOR_NVIDIA);
    CHECK(layout_arch_init(&a, "toy", 16, 4, 64, NULL) == LAYOUT_OK);
    a.ds_forms = 0;
    CHECK_EQ_I64(layout_arch_vendor(&a), LAYOUT_VENDOR_UNKNOWN);
    CHECK_EQ_I64(layout_arch_vendor(NULL), LAYOUT_VENDOR_UNKNOWN);
    CHECK(strcmp(layout_vendor_name(LAYOUT_VENDOR_NVIDIA), "NVIDIA") == 0);
    CHECK(strcmp(layout_vendor_name((layout_vendor)99), "unknown") == 0);
    CHECK(strcmp(layout_vendor_wave_word(LAYOUT_VENDOR_NVIDIA), "warp") == 0);
    CHECK(strcmp(layout_vendor_wave_word(LAYOUT_VENDOR_AMD), "wave") == 0);
}

static void test_op_names(void)
{
    static const struct {
        layout_ds_op op;
        layout_direction dir;
        const char *amd, *ptx;
    } known[] = {
        {LAYOUT_DS_B8, LAYOUT_READ, "ds_read_u8", "ld.shared.b8"},
        {LAYOUT_DS_B16, LAYOUT_READ, "ds_read_u16", "ld.shared.b16"},
        {LAYOUT_DS_B16, LAYOUT_WRITE, "ds_write_b16", "st.shared.b16"},
        {LAYOUT_DS_B32, LAYOUT_WRITE, "ds_write_b32", "st.shared.b32"},
        {LAYOUT_DS_B64, LAYOUT_READ, "ds_read_b64", "ld.shared.v2.b32"},
        {LAYOUT_DS_B128, LAYOUT_WRITE, "ds_write_b128", "st.shared.v4.b32"},
        {LAYOUT_DS_B128, LAYOUT_READ, "ds_read_b128", "ld.shared.v4.b32"},
        /* no PTX form: the AMD name stays */
        {LAYOUT_DS_B96, LAYOUT_READ, "ds_read_b96", "ds_read_b96"},
        {LAYOUT_DS_PAIR_B32, LAYOUT_READ, "ds_read2_b32", "ds_read2_b32"},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        const char *amd = layout_ds_op_vendor_name(known[i].op, known[i].dir, LAYOUT_VENDOR_AMD);
        const char *ptx = layout_ds_op_vendor_name(known[i].op, known[i].dir, LAYOUT_VENDOR_NVIDIA);
        CHECK_MSG(strcmp(amd, known[i].amd) == 0, "%s != %s", amd, known[i].amd);
        CHECK_MSG(strcmp(ptx, known[i].ptx) == 0, "%s != %s", ptx, known[i].ptx);
        CHECK(strcmp(amd, layout_ds_op_name(known[i].op, known[i].dir)) == 0);
        CHECK(strcmp(layout_ds_op_vendor_name(known[i].op, known[i].dir, LAYOUT_VENDOR_UNKNOWN), amd) == 0);
    }
    CHECK(strcmp(layout_ds_op_vendor_name((layout_ds_op)99, LAYOUT_READ, LAYOUT_VENDOR_NVIDIA), "?") == 0);
}

/* The kernel of the tool test below, on sm_90 (32 lanes, 4 warps): a
 * 64 x 32 fp16 tile written row-major (packed([64,32])), read through the
 * transposed view naive([32,64],[1,32]).
 *   write: lane l of warp w stores row 16w + 2(l/4) + y0, columns
 *   8(l%4)..+7, i.e. 16 bytes at row*64 + 16(l%4): 2 x st.shared.v4.b32 per
 *   warp.  NVIDIA serves 16-byte stores in 4 phases of 8 lanes; lanes 0-3
 *   and 4-7 of a phase are two rows apart = 128 bytes = the same banks, so
 *   each phase is 2-way: 1 conflict, 4 per instruction, 2 x 4 x 4 warps = 32
 *   conflicts; 4 phases x 2 wavefronts x 8 instructions = 64 wavefronts.
 *   read: lane (a, b) = (l/4, l%4) loads element (8w + a, 16b + 8y0 + y1) at
 *   byte 2(i + 32j): word a/2 + 256b + const, so 4 words (b = 0..3) share
 *   each bank, 2 lanes per word: 4-way, 3 conflicts per ld.shared.b16,
 *   16 per warp x 4 warps = 64 instructions, 192 conflicts, 256 wavefronts. */
#define SM90_ARGS                                                                                        \
    "--elem 2 --lds 'packed([64,32])' --read-lds 'naive([32,64],[1,32])' "                           \
    "--write 'dist(R=[], H=([4,8,2],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(1,2),(2,1)])' "           \
    "--read 'dist(R=[], H=([4,8],[4,2,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1),(2,2)])'"

/* Seed kernel 01 on gfx942 (1 ds_write_b128 and 8 ds_read_u16 per wave,
 * 448 extra cycles per tile: the seed talk's table). */
#define GFX942_ARGS                                                                                      \
    "--elem 2 --lds 'packed([64,32])' --read-lds 'naive([32,64],[1,32])' "                           \
    "--write 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])' "                  \
    "--read 'dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])'"

static void test_tool_nvidia(void)
{
    static const char *const archs[] = {"sm_90", "H100", "cuda:90"};
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++) {
        CHECK_EQ_I64(run_tool("check --arch %s " SM90_ARGS, archs[i]), 1);
        CHECK_STR_CONTAINS(g_out, "# check on sm_90 (32 banks x 4 B, warp32)");
        CHECK_STR_CONTAINS(g_out, "write: 2 x st.shared.v4.b32 per warp, 4 warps");
        CHECK_STR_CONTAINS(g_out, "read: 16 x ld.shared.b16 per warp, 4 warps");
        CHECK_STR_CONTAINS(g_out, "bank conflicts per warp: 4 4 4 4");
        CHECK_STR_CONTAINS(g_out, "bank conflicts per warp: 3 3 3 3");
        CHECK_STR_CONTAINS(g_out, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum   32\n");
        CHECK_STR_CONTAINS(g_out, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum   192\n");
        CHECK_STR_CONTAINS(g_out, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum       64\n");
        CHECK_STR_CONTAINS(g_out, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum       256\n");
        CHECK_STR_CONTAINS(g_out, "sm_90: 72 instructions, 224 bank conflicts, 320 wavefronts");
        CHECK_STR_CONTAINS(g_out, "verdict: CONFLICTS - 224 bank conflicts per tile (write 32, read 192)");
        /* none of AMD's words */
        CHECK_MSG(strstr(g_out, "ds_read") == NULL && strstr(g_out, "ds_write") == NULL && strstr(g_out, "SQ_") == NULL && strstr(g_out, "wave,") == NULL &&
                      strstr(g_out, "per wave") == NULL && strstr(g_out, "wave32") == NULL,
                  "AMD vocabulary on sm_90:\n%s", g_out);
    }
    CHECK_EQ_I64(run_tool("check --arch H100 --json " SM90_ARGS), 1);
    CHECK_STR_CONTAINS(g_out, "\"ops\":\"2 x st.shared.v4.b32\"");
    CHECK_STR_CONTAINS(g_out, "\"op\":\"ld.shared.b16\"");
    CHECK_STR_CONTAINS(g_out, "\"vendor\":\"NVIDIA\",\"counters\":{"
                              "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\":32,"
                              "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\":192,"
                              "\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum\":64,"
                              "\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\":256,"
                              "\"smsp__inst_executed_op_shared_st.sum\":8,"
                              "\"smsp__inst_executed_op_shared_ld.sum\":64}");
    /* (the JSON keeps its historical key names, e.g. "sq_lds_bank_conflict") */
    CHECK(strstr(g_out, "ds_read") == NULL && strstr(g_out, "ds_write") == NULL);
    /* The page carries the same words. */
    char path[128];
    snprintf(path, sizeof path, "%s/nv.html", g_dir);
    CHECK_EQ_I64(run_tool("check --arch H100 " SM90_ARGS " --html '%s'", path), 1);
    tool_slurp(path, g_out, sizeof g_out);
    CHECK_STR_CONTAINS(g_out, "\"vendor\":\"NVIDIA\",\"unit\":\"warp\",\"extra_word\":\"bank conflicts\"");
    CHECK_STR_CONTAINS(g_out, "\"ops\":\"2 x st.shared.v4.b32\"");
    CHECK_STR_CONTAINS(g_out, "{\"name\":\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\",\"value\":192}");
    CHECK(strstr(g_out, "\"op\":\"ds_") == NULL);
}

/* `layout arch` lists the aliases under their presets (the product names
 * of NVIDIA's compute-capability and AMD's ROCm tables, cited in
 * tests/test_arch.c), and every --arch takes them. */
static void test_tool_arch_list(void)
{
    CHECK_EQ_I64(run_tool("arch"), 0);
    CHECK_STR_CONTAINS(g_out, "aliases (any case; every --arch takes them):\n");
    CHECK_STR_CONTAINS(g_out, "  H100, H200, H800, GH200, cuda:90, sm_90a -> sm_90\n");
    CHECK_STR_CONTAINS(g_out, "  MI300X, MI300A, MI325X, hip:gfx942 -> gfx942\n");
    CHECK_STR_CONTAINS(g_out, "  MI350X, MI355X, hip:gfx950 -> gfx950\n");
    CHECK_STR_CONTAINS(g_out, "  B200, B100, GB200, cuda:100, sm_100a -> sm_100\n");
    CHECK_STR_CONTAINS(g_out, "  A100, cuda:80 -> sm_80\n");
    CHECK_EQ_I64(run_tool("arch B200"), 0);
    CHECK_STR_CONTAINS(g_out, "sm_100: 32 banks x 4 B (high), warp32\n");
    CHECK_EQ_I64(run_tool("banks 'packed([4,32])' --arch MI355X --elem 4"), 0);
    /* TTGIR --arch: an AMD kernel (64 threads per warp) on the H200 alias is refused, naming sm_90 */
    const char *f = __FILE__, *slash = strrchr(f, '/');
    CHECK_EQ_I64(run_tool("triton --arch h200 '%.*s/fixtures/triton/kernels/matmul_fp16_64x64x32_w4_s2_gfx942.ttgir'",
                          slash ? (int)(slash - f) : 1, slash ? f : "."),
                 2);
    CHECK_STR_CONTAINS(g_err, "the module has 64 threads per warp, arch sm_90 32");
}

static void test_tool_amd(void)
{
    CHECK_EQ_I64(run_tool("check --arch MI300X " GFX942_ARGS), 1);
    CHECK_STR_CONTAINS(g_out, "# check on gfx942 (32 banks x 4 B, wave64)");
    CHECK_STR_CONTAINS(g_out, "write: 1 x ds_write_b128 per wave, 4 waves");
    CHECK_STR_CONTAINS(g_out, "read: 8 x ds_read_u16 per wave, 4 waves");
    CHECK_STR_CONTAINS(g_out, "extra cycles per wave: 14 14 14 14");
    CHECK_STR_CONTAINS(g_out, "kernel (1 tile): SQ_LDS_BANK_CONFLICT 448, SQ_INSTS_LDS 36\n");
    CHECK_STR_CONTAINS(g_out, "gfx942: 36 instructions, 448 extra cycles, 544 total cycles");
    CHECK(strstr(g_out, "shared.") == NULL && strstr(g_out, "l1tex") == NULL && strstr(g_out, "warp32") == NULL);
    CHECK_EQ_I64(run_tool("check --arch gfx942 --json --tiles 8192 " GFX942_ARGS), 1);
    CHECK_STR_CONTAINS(g_out, "\"vendor\":\"AMD\",\"counters\":{\"SQ_LDS_BANK_CONFLICT\":3670016,\"SQ_INSTS_LDS\":294912}");
}

int main(int argc, char **argv)
{
    struct stat sb;
    if (argc > 1) g_tool = argv[1];
    RUN(test_vendor);
    RUN(test_op_names);
    if (!g_tool[0] || stat(g_tool, &sb) != 0) {
        printf("test_vocab: note: the layout tool was not built; its vocabulary is not tested\n");
        return harness_finish("test_vocab");
    }
    snprintf(g_dir, sizeof g_dir, "/tmp/layout-vocab-XXXXXX");
    if (!mkdtemp(g_dir)) {
        printf("test_vocab: cannot create a scratch directory\n");
        return 1;
    }
    g_run.tool = g_tool;
    snprintf(g_out_path, sizeof g_out_path, "%s/stdout", g_dir);
    snprintf(g_err_path, sizeof g_err_path, "%s/stderr", g_dir);
    RUN(test_tool_nvidia);
    RUN(test_tool_arch_list);
    RUN(test_tool_amd);
    {
        char cmd[160];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
        if (system(cmd) != 0) printf("test_vocab: note: could not remove %s\n", g_dir);
    }
    return harness_finish("test_vocab");
}
