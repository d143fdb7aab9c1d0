/* layout_check() and its report: totals, sides, worst-instruction detail,
 * text and JSON rendering, and every error path. */
#include "harness.h"
#include "layout.h"

static layout_arch preset(const char *name)
{
    layout_arch a;
    memset(&a, 0, sizeof a);
    CHECK(layout_arch_preset(name, &a, NULL) == LAYOUT_OK);
    return a;
}

static layout_instr strided(int lanes, int width, layout_direction d, int64_t stride)
{
    layout_instr in;
    CHECK(layout_instr_init(&in, lanes, width, d, NULL) == LAYOUT_OK);
    CHECK(layout_instr_fill_strided(&in, 0, stride, NULL) == LAYOUT_OK);
    return in;
}

static void test_conflict_free(void)
{
    layout_arch a = preset("gfx942");
    layout_instr ins[2] = {strided(64, 16, LAYOUT_WRITE, 16), strided(64, 16, LAYOUT_READ, 16)};
    layout_check_report rep;
    layout_error e;
    CHECK_EQ_I64(layout_check(&a, ins, 2, &rep, &e), 0);
    CHECK_EQ_I64(rep.n_sides, 1);
    CHECK_EQ_I64(rep.n_instrs, 2);
    CHECK_EQ_I64(rep.total_cycles, 16);
    CHECK(strcmp(rep.sides[0].label, "instrs") == 0);
    CHECK(strcmp(rep.arch_name, "gfx942") == 0);
    CHECK_EQ_I64(rep.sides[0].n_listed, 0);
    CHECK_EQ_I64(layout_check(&a, ins, 2, NULL, &e), 0);
    CHECK_EQ_I64(layout_check(&a, NULL, 0, &rep, &e), 0);
    CHECK_EQ_I64(rep.sides[0].has_worst, 0);
    char buf[512];
    CHECK(layout_check_report_text(&rep, buf, sizeof buf, NULL, &e) == LAYOUT_OK);
    CHECK_STR_CONTAINS(buf, "gfx942: 0 instructions, 0 extra cycles");
}

static void test_conflicted_text(void)
{
    layout_arch a = preset("gfx942");
    layout_instr ins[3] = {strided(64, 16, LAYOUT_READ, 16), strided(64, 16, LAYOUT_READ, 16),
                           strided(64, 16, LAYOUT_READ, 16)};
    ins[1].addr_bytes[28] = ins[1].addr_bytes[8] + 512; /* group 2: lanes 8 and 28 on banks 0-3 */
    layout_check_report rep;
    layout_error e;
    CHECK_EQ_I64(layout_check(&a, ins, 3, &rep, &e), 1);
    const layout_report_side *s = &rep.sides[0];
    CHECK_EQ_I64(s->totals.worst_index, 1);
    CHECK_EQ_I64(s->totals.n_conflicted, 1);
    CHECK_EQ_I64(s->n_listed, 1);
    CHECK_EQ_I64(s->listed_index[0], 1);
    CHECK_EQ_I64(s->worst_detail.cost.worst_group, 2);
    char buf[2048];
    size_t need = 0;
    CHECK(layout_check_report_text(&rep, buf, sizeof buf, &need, &e) == LAYOUT_OK);
    CHECK_EQ_I64(need, strlen(buf));
    CHECK_STR_CONTAINS(buf, "gfx942 read b128 instr 1 group 2 (lanes 8-11,28-31): 2-way, bank 0 <- lane 8 @0x80, lane 28 @0x280");
    CHECK_STR_CONTAINS(buf, "gfx942: 3 instructions, 1 extra cycle, 25 total cycles");
    CHECK_STR_CONTAINS(buf, "worst instr 1 (1 extra, 2-way)");
    /* snprintf semantics */
    char small[10];
    size_t need2 = 0;
    CHECK(layout_check_report_text(&rep, small, sizeof small, &need2, &e) == LAYOUT_OK);
    CHECK_EQ_I64(need2, need);
    CHECK_EQ_I64(strlen(small), 9);
    CHECK(layout_check_report_text(&rep, NULL, 0, &need2, &e) == LAYOUT_OK);
    CHECK_EQ_I64(need2, need);
    /* JSON */
    char js[8192];
    CHECK(layout_check_report_json(&rep, js, sizeof js, &need, &e) == LAYOUT_OK);
    CHECK_EQ_I64(need, strlen(js));
    CHECK_STR_CONTAINS(js, "{\"arch\":\"gfx942\",\"impl\":");
    CHECK_STR_CONTAINS(js, "\"extra_cycles\":1,\"total_cycles\":25,\"sides\":[{\"label\":\"instrs\"");
    CHECK_STR_CONTAINS(js, "\"conflicted\":[{\"index\":1,\"extra\":1}]");
    CHECK_STR_CONTAINS(js, "{\"group\":2,\"lanes\":\"8-11,28-31\",\"cycles\":2,\"nway\":2,\"bank\":0,"
                           "\"hits\":[{\"lane\":8,\"addr\":128},{\"lane\":28,\"addr\":640}]}");
    CHECK(js[strlen(js) - 1] == '}');
    /* sub-dword sharing is mentioned: kernel 01's b16 read, 8-way with pairs */
    layout_instr r01;
    CHECK(layout_instr_init(&r01, 64, 2, LAYOUT_READ, NULL) == LAYOUT_OK);
    for (int l = 0; l < 64; l++) r01.addr_bytes[l] = (uint32_t)(2 * ((8 * (l % 8)) * 32 + l / 8));
    CHECK_EQ_I64(layout_check(&a, &r01, 1, &rep, &e), 14);
    CHECK(layout_check_report_text(&rep, buf, sizeof buf, NULL, &e) == LAYOUT_OK);
    CHECK_STR_CONTAINS(buf, "group 0 (lanes 0-31): 8-way, bank 0 <- lane 0 @0x0, lane 1 @0x200");
    CHECK_STR_CONTAINS(buf, "(+8 lanes sharing those words)");
}

static void test_sides(void)
{
    layout_arch a = preset("gfx942"), b = preset("gfx950");
    layout_checker ck, ckb;
    layout_error e;
    CHECK(layout_checker_init(&ck, &a, LAYOUT_IMPL_SCALAR, &e) == LAYOUT_OK);
    CHECK(layout_checker_init(&ckb, &b, LAYOUT_IMPL_SCALAR, &e) == LAYOUT_OK);
    layout_check_report rep;
    CHECK(layout_check_report_init(&rep, &a, &e) == LAYOUT_OK);
    layout_instr w = strided(64, 4, LAYOUT_WRITE, 128), r = strided(64, 16, LAYOUT_READ, 16);
    CHECK(layout_check_report_add(&rep, &ck, "write", &w, 1, &e) == LAYOUT_OK);
    CHECK(layout_check_report_add(&rep, &ck, "read", &r, 1, &e) == LAYOUT_OK);
    CHECK_EQ_I64(rep.n_sides, 2);
    CHECK_EQ_I64(rep.extra_cycles, 62);
    CHECK_EQ_I64(rep.sides[0].totals.extra_cycles, 62);
    CHECK_EQ_I64(rep.sides[1].totals.extra_cycles, 0);
    CHECK_EQ_I64(rep.impl, LAYOUT_IMPL_SCALAR);
    char buf[4096];
    CHECK(layout_check_report_text(&rep, buf, sizeof buf, NULL, &e) == LAYOUT_OK);
    CHECK_STR_CONTAINS(buf, "  write: 1 instruction, 62 extra");
    CHECK_STR_CONTAINS(buf, "gfx942 write b32 instr 0 group 1 (lanes 32-63): 32-way, bank 0");
    CHECK_STR_CONTAINS(buf, "  read: 1 instruction, 0 extra");

    layout_check_report keep;
    memcpy(&keep, &rep, sizeof rep);
    CHECK(layout_check_report_add(&rep, &ckb, "read", &r, 1, &e) == LAYOUT_ERR_MISMATCH);
    CHECK(layout_check_report_add(&rep, &ck, "a-label-far-too-long", &r, 1, &e) == LAYOUT_ERR_ARG);
    layout_instr bad = r;
    bad.width_bytes = 7;
    layout_instr pair[2] = {r, bad};
    CHECK(layout_check_report_add(&rep, &ck, "read", pair, 2, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "layout_check_report_add: instrs[1].width_bytes = 7");
    CHECK(memcmp(&rep, &keep, sizeof rep) == 0);
    CHECK(layout_check_report_add(&rep, &ck, NULL, &r, 1, &e) == LAYOUT_OK);
    CHECK(layout_check_report_add(&rep, &ck, "x", &r, 1, &e) == LAYOUT_OK);
    CHECK(layout_check_report_add(&rep, &ck, "y", &r, 1, &e) == LAYOUT_ERR_CAPACITY);
    CHECK(layout_check_report_add(NULL, &ck, "y", &r, 1, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_check_report_add(&rep, NULL, "y", &r, 1, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_check_report_init(NULL, &a, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_check_report_init(&rep, NULL, &e) == LAYOUT_ERR_NULL);
}

static void test_listing_and_json_escape(void)
{
    layout_arch a = preset("sm_90");
    layout_checker ck;
    layout_check_report rep;
    layout_error e;
    CHECK(layout_checker_init(&ck, &a, LAYOUT_IMPL_AUTO, &e) == LAYOUT_OK);
    layout_instr ins[12];
    for (int i = 0; i < 12; i++) ins[i] = strided(32, 4, LAYOUT_READ, i % 2 ? 128 : 4);
    CHECK(layout_check_report_init(&rep, &a, &e) == LAYOUT_OK);
    CHECK(layout_check_report_add(&rep, &ck, "q\"\\\n", ins, 12, &e) == LAYOUT_OK);
    CHECK_EQ_I64(rep.sides[0].totals.n_conflicted, 6);
    CHECK_EQ_I64(rep.sides[0].n_listed, 6);
    CHECK_EQ_I64(rep.sides[0].listed_index[5], 11);
    CHECK_EQ_I64(rep.extra_cycles, 6 * 31);
    char js[4096];
    CHECK(layout_check_report_json(&rep, js, sizeof js, NULL, &e) == LAYOUT_OK);
    CHECK_STR_CONTAINS(js, "\"label\":\"q\\\"\\\\\\u000a\"");
    for (int i = 0; i < 12; i++) ins[i] = strided(32, 4, LAYOUT_READ, 128);
    CHECK_EQ_I64(layout_check_with(&ck, ins, 12, &rep, &e), 12 * 31);
    CHECK_EQ_I64(rep.sides[0].n_listed, LAYOUT_REPORT_MAX_LISTED);
    CHECK_EQ_I64(rep.sides[0].totals.n_conflicted, 12);
}

static void test_errors(void)
{
    layout_arch a = preset("gfx942"), s = preset("sm_90");
    layout_instr in = strided(64, 16, LAYOUT_READ, 16);
    layout_check_report rep, keep;
    layout_error e;
    memset(&rep, 0x4D, sizeof rep);
    memcpy(&keep, &rep, sizeof rep);
    CHECK_EQ_I64(layout_check(NULL, &in, 1, &rep, &e), LAYOUT_ERR_NULL);
    CHECK_EQ_I64(layout_check(&a, NULL, 1, &rep, &e), LAYOUT_ERR_NULL);
    CHECK_EQ_I64(layout_check(&s, &in, 1, &rep, &e), LAYOUT_ERR_MISMATCH);
    layout_instr w12 = strided(32, 12, LAYOUT_READ, 16);
    CHECK_EQ_I64(layout_check(&s, &w12, 1, &rep, &e), LAYOUT_ERR_UNSUPPORTED);
    layout_arch broken = a;
    broken.rules[0][0].groups[0] = 0;
    CHECK_EQ_I64(layout_check(&broken, &in, 1, &rep, &e), LAYOUT_ERR_ARG);
    CHECK(memcmp(&rep, &keep, sizeof rep) == 0);
    CHECK_EQ_I64(layout_check_with(NULL, &in, 1, &rep, &e), LAYOUT_ERR_NULL);
    char buf[8];
    CHECK(layout_check_report_text(NULL, buf, sizeof buf, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_check_report_json(NULL, buf, sizeof buf, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_check_report_init(&rep, &a, &e) == LAYOUT_OK);
    CHECK(layout_check_report_text(&rep, NULL, 8, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_check_report_json(&rep, NULL, 8, NULL, &e) == LAYOUT_ERR_NULL);
}

int main(void)
{
    RUN(test_conflict_free);
    RUN(test_conflicted_text);
    RUN(test_sides);
    RUN(test_listing_and_json_escape);
    RUN(test_errors);
    return harness_finish("test_report");
}
