/* The TTGIR reader's IR (ttgir.h: layout_ttgir::ir, layout_ttgir_ir_*):
 * every op with its results, operands, attributes, regions and blocks, on
 * small modules written here in MLIR's syntax (MLIR LangRef: SSA values
 * are visible in their region and the regions nested in it; `%x:2 = `
 * defines `%x#0` and `%x#1`; a generic op is `"name"(operands) <{props}>
 * ({regions}) : (types) -> types`), and the forms Triton 3.6 prints that
 * the line reader got wrong: comments holding brackets, an op
 * whose types continue on the next line, `%a: (` without a blank,
 * ttg.warp_specialize's regions on their own lines, and
 * amdg.buffer_load_to_local's `<f32>[tensor<...>]` operand types. */
#include "harness.h"
#include "layout.h"

#include <string.h>

static layout_ttgir m;
static layout_error err;

static int parse(const char *t)
{
    if (layout_ttgir_parse(t, strlen(t), &m, &err) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", err.message);
        return 0;
    }
    return 1;
}

/* The first op named name at or after op `from`; -1. */
static int find(const char *name, int from)
{
    for (int i = from; i < m.ir.n_ops; i++)
        if (layout_ttgir_ir_op_is(&m, i, name)) return i;
    return -1;
}

static int name_is(int v, const char *name)
{
    return v >= 0 && m.ir.values[v].name.len == strlen(name) &&
           memcmp(m.text + m.ir.values[v].name.at, name, strlen(name)) == 0;
}

/* Scoping: two tt.reduce regions both name their arguments %a, %b; each
 * combine op uses its own region's; a value of the function is seen from
 * inside a region; a result group `%s:2` is used as `%s#1`. */
static void test_scopes(void)
{
    static const char t[] =
        "module {\n"
        "  tt.func @f(%x: tensor<8xf32>, %y: tensor<8xi32>) {\n"
        "    %c = arith.constant 2.0 : f32\n"
        "    %r = \"tt.reduce\"(%x) <{axis = 0 : i32}> ({\n"
        "    ^bb0(%a: f32, %b: f32):\n"
        "      %m = arith.mulf %a, %c : f32\n"
        "      %s = arith.addf %m, %b : f32\n"
        "      tt.reduce.return %s : f32\n"
        "    }) : (tensor<8xf32>) -> f32\n"
        "    %s:2 = \"tt.reduce\"(%x, %y) <{axis = 0 : i32}> ({\n"
        "    ^bb0(%a: f32, %a_1: i32, %b: f32, %b_1: i32):\n"
        "      %n = arith.addf %a, %b : f32\n"
        "      tt.reduce.return %n, %b_1 : f32, i32\n"
        "    }) : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32)\n"
        "    %u = arith.addi %s#1, %s#1 : i32\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    int r1, r2, mul, add1, add2, u;
    if (!parse(t)) return;
    CHECK_EQ_I64(m.ir.n_undefined, 0);
    r1 = find("tt.reduce", 0);
    r2 = find("tt.reduce", r1 + 1);
    mul = find("arith.mulf", 0);
    add1 = find("arith.addf", 0);
    add2 = find("arith.addf", add1 + 1);
    u = find("arith.addi", 0);
    CHECK(r1 >= 0 && r2 > r1 && mul > r1 && add2 > r2 && u > r2);
    if (u < 0) return;
    /* %a of the first region is its block's argument 0; of the second, the second's */
    CHECK_EQ_I64(m.ir.values[layout_ttgir_ir_operand(&m, mul, 0)].def_block,
                 m.ir.regions[m.ir.ops[r1].first_region].first_block);
    CHECK_EQ_I64(m.ir.values[layout_ttgir_ir_operand(&m, add2, 0)].def_block,
                 m.ir.regions[m.ir.ops[r2].first_region].first_block);
    CHECK(layout_ttgir_ir_operand(&m, add2, 0) != layout_ttgir_ir_operand(&m, mul, 0));
    /* %c: the function's constant, seen from the region */
    CHECK(layout_ttgir_ir_op_is(&m, layout_ttgir_ir_def(&m, layout_ttgir_ir_operand(&m, mul, 1)), "arith.constant"));
    /* %s#1 is result 1 of the second reduce (the first region's %s is out of scope there) */
    CHECK_EQ_I64(layout_ttgir_ir_operand(&m, u, 0), layout_ttgir_ir_result(&m, r2, 1));
    CHECK_EQ_I64(m.ir.ops[r2].n_results, 2);
    CHECK_EQ_I64(layout_ttgir_ir_parent(&m, add2), r2);
    CHECK_EQ_I64(layout_ttgir_ir_parent(&m, u), find("tt.func", 0));
    {
        int64_t axis = -1;
        CHECK(layout_ttgir_ir_attr_int(&m, r2, "axis", &axis) == LAYOUT_OK && axis == 0);
        CHECK(layout_ttgir_ir_attr_int(&m, r2, "reverse", &axis) == LAYOUT_ERR_NOT_FOUND);
    }
    /* types: block arguments as printed, results of a generic op from its '->' */
    {
        layout_ttgir_type ty;
        CHECK(layout_ttgir_ir_value_type(&m, layout_ttgir_ir_result(&m, r2, 1), &ty) == LAYOUT_OK &&
              strcmp(ty.elem, "i32") == 0 && ty.rank == 0);
        CHECK(layout_ttgir_ir_value_type(&m, layout_ttgir_ir_operand(&m, r1, 0), &ty) == LAYOUT_OK && ty.rank == 1 &&
              ty.shape[0] == 8);
    }
}

/* scf.for: the induction variable and iter_args are the body's block
 * arguments, typed from `: i32` and the loop's result types; the yield
 * and the results match them; a comment with brackets and quotes changes
 * nothing. */
static void test_loop(void)
{
    static const char t[] =
        "module {\n"
        "  tt.func @f(%p: !tt.ptr<f16>) {  // a < b, \"(\n"
        "    %c0 = arith.constant 0 : i32\n"
        "    %c4 = arith.constant 4 : i32\n"
        "    %z = arith.constant dense<0.0> : tensor<4xf16>\n"
        "    %r:2 = scf.for %i = %c0 to %c4 step %c4 iter_args(%acc = %z, %q = %p) -> (tensor<4xf16>, "
        "!tt.ptr<f16>)  : i32 {\n"
        "      %lt = arith.cmpi slt, %i, %c4 : i32\n"
        "      scf.yield %acc, %q : tensor<4xf16>, !tt.ptr<f16>\n"
        "    }\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    int loop, yield, cmp;
    const layout_ttgir_block *body;
    layout_ttgir_type ty;
    int64_t v;
    if (!parse(t)) return;
    loop = find("scf.for", 0);
    yield = find("scf.yield", 0);
    cmp = find("arith.cmpi", 0);
    CHECK(loop >= 0 && yield > loop && cmp > loop);
    if (yield < 0) return;
    body = &m.ir.blocks[m.ir.regions[m.ir.ops[loop].first_region].first_block];
    CHECK_EQ_I64(body->n_args, 3);
    CHECK(name_is(body->first_arg, "%i") && name_is(body->first_arg + 1, "%acc"));
    CHECK_EQ_I64(layout_ttgir_ir_operand(&m, yield, 0), body->first_arg + 1);
    CHECK_EQ_I64(layout_ttgir_ir_operand(&m, cmp, 0), body->first_arg);
    /* operands: lb, ub, step, then the inits */
    CHECK_EQ_I64(m.ir.ops[loop].n_uses, 5);
    CHECK(layout_ttgir_ir_value_type(&m, body->first_arg, &ty) == LAYOUT_OK && strcmp(ty.elem, "i32") == 0);
    CHECK(layout_ttgir_ir_value_type(&m, body->first_arg + 1, &ty) == LAYOUT_OK && ty.rank == 1 &&
          strcmp(ty.elem, "f16") == 0);
    CHECK(layout_ttgir_ir_value_type(&m, layout_ttgir_ir_result(&m, cmp, 0), &ty) == LAYOUT_OK &&
          strcmp(ty.elem, "i1") == 0);
    CHECK(layout_ttgir_ir_const_int(&m, layout_ttgir_ir_operand(&m, loop, 1), &v) == LAYOUT_OK && v == 4);
    CHECK(layout_ttgir_ir_const_int(&m, body->first_arg, &v) == LAYOUT_ERR_NOT_FOUND);
    CHECK(layout_ttgir_ir_const_int(&m, layout_ttgir_ir_operand(&m, loop, 3), &v) == LAYOUT_ERR_NOT_FOUND);
    CHECK_EQ_I64(layout_ttgir_ir_users(&m, body->first_arg + 1, NULL), 1);
}

/* Forms Triton 3.6 prints that the line reader dropped or refused. */
static void test_printed_forms(void)
{
    static const char t[] =
        "#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n"
        "#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
        "#smem = #ttg.shared_memory\n"
        "module attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\"} {\n"
        "  tt.func @f(%a: tensor<32x32xf16, #b>, %ptr: !tt.ptr<f16>, %off: tensor<32x32xi32, #b>) {\n"
        "    // the split form: the types on the next line\n"
        "    %m = ttg.local_alloc %a :\n"
        "        (tensor<32x32xf16, #b>) -> !ttg.memdesc<32x32xf16, #s, #smem, mutable>\n"
        "    %n = ttg.local_alloc %a: (tensor<32x32xf16, #b>) -> !ttg.memdesc<32x32xf16, #s, #smem, mutable>\n"
        "    %t = amdg.buffer_load_to_local %ptr[%off] into %n : <f16>[tensor<32x32xi32, #b>] -> "
        "<32x32xf16, #s, #smem, mutable>\n"
        "    ttg.warp_specialize(%m) attributes {allocation.offset = 0 : i32}\n"
        "    default {\n"
        "      ttg.warp_yield\n"
        "    }\n"
        "    partition0(%arg0: !ttg.memdesc<32x32xf16, #s, #smem, mutable>) num_warps(4) {\n"
        "      %l = ttg.local_load %arg0 : !ttg.memdesc<32x32xf16, #s, #smem, mutable> -> tensor<32x32xf16, #b>\n"
        "      ttg.warp_return\n"
        "    } : (!ttg.memdesc<32x32xf16, #s, #smem, mutable>) -> ()\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    int kinds[LAYOUT_TTGIR_OP_KIND_COUNT] = {0}, ws, load;
    if (!parse(t)) return;
    for (int i = 0; i < m.n_ops; i++) kinds[m.ops[i].kind]++;
    CHECK_EQ_I64(kinds[LAYOUT_TTGIR_LOCAL_ALLOC], 2);
    CHECK_EQ_I64(kinds[LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL], 1);
    CHECK_EQ_I64(kinds[LAYOUT_TTGIR_WARP_SPECIALIZE], 1);
    CHECK_EQ_I64(kinds[LAYOUT_TTGIR_LOCAL_LOAD], 1);
    for (int i = 0; i < m.n_ops; i++) {
        const layout_ttgir_op *o = &m.ops[i];
        if (o->kind == LAYOUT_TTGIR_LOCAL_ALLOC) { /* both forms: the tensor and the memdesc */
            CHECK_EQ_I64(o->n_src, 1);
            CHECK_EQ_I64(o->n_dst, 1);
            CHECK(o->n_dst == 1 && o->dst[0].is_memdesc && o->dst[0].shape[1] == 32);
        }
        if (o->kind == LAYOUT_TTGIR_BUFFER_LOAD_TO_LOCAL) { /* the offsets tensor, and the LDS buffer */
            CHECK_EQ_I64(o->n_src, 1);
            CHECK(o->n_src == 1 && !o->src[0].is_memdesc && strcmp(o->src[0].elem, "i32") == 0);
            CHECK(o->n_dst == 1 && o->dst[0].is_memdesc && strcmp(o->dst[0].elem, "f16") == 0);
        }
    }
    /* the partition's argument is its region's block argument, the local_load's operand */
    ws = find("ttg.warp_specialize", 0);
    load = find("ttg.local_load", 0);
    CHECK(ws >= 0 && load > ws);
    if (load < 0) return;
    CHECK_EQ_I64(m.ir.ops[ws].n_regions, 2);
    CHECK_EQ_I64(layout_ttgir_ir_parent(&m, load), ws);
    CHECK(name_is(layout_ttgir_ir_operand(&m, load, 0), "%arg0"));
    CHECK_EQ_I64(m.ir.values[layout_ttgir_ir_operand(&m, load, 0)].def_op, -1);
    CHECK_EQ_I64(m.ir.ops[find("tt.return", 0)].parent_block, m.ir.ops[ws].parent_block);
}

/* A use before its definition in a later block (a CFG region) resolves
 * when the region closes; a fragment's undefined input is -1 and counted;
 * a cut text is refused with its position. */
static void test_blocks_and_errors(void)
{
    static const char cfg[] =
        "module {\n"
        "  tt.func @f(%c: i1) {\n"
        "    cf.cond_br %c, ^bb1, ^bb2\n"
        "  ^bb1:\n"
        "    %u = arith.addi %v, %v : i32\n"
        "    tt.return\n"
        "  ^bb2:\n"
        "    %v = arith.constant 1 : i32\n"
        "    cf.br ^bb1\n"
        "  }\n"
        "}\n";
    static const char fragment[] = "  %0 = ttg.local_load %x : !ttg.memdesc<4xf16, #s> -> tensor<4xf16, #t>\n";
    int add;
    if (parse(cfg)) {
        add = find("arith.addi", 0);
        CHECK(add >= 0 && layout_ttgir_ir_op_is(&m, layout_ttgir_ir_def(&m, layout_ttgir_ir_operand(&m, add, 0)),
                                                "arith.constant"));
        CHECK_EQ_I64(m.ir.regions[m.ir.ops[find("tt.func", 0)].first_region].n_blocks, 3);
        CHECK_EQ_I64(m.ir.n_undefined, 0);
    }
    if (parse(fragment)) {
        CHECK_EQ_I64(m.ir.n_undefined, 1);
        CHECK_EQ_I64(m.ir.undefined_line, 1);
        CHECK_EQ_I64(layout_ttgir_ir_operand(&m, 0, 0), -1);
        CHECK_EQ_I64(m.n_ops, 1);
    }
    {
        static const char cut[] = "module {\n  tt.func @f() {\n    %x = arith.constant 1 : i32\n";
        static const char twice[] = "module {\n  %x = = arith.constant 1 : i32\n}\n";
        CHECK(layout_ttgir_parse(cut, strlen(cut), &m, &err) == LAYOUT_ERR_PARSE);
        CHECK_STR_CONTAINS(err.message, "the text ends inside '{' opened at line 2");
        CHECK(layout_ttgir_parse(twice, strlen(twice), &m, &err) == LAYOUT_ERR_PARSE);
    }
    CHECK_STR_CONTAINS(err.message, "line 2, column 8: expected an op name after '='");
    /* a NUL byte in a comment is refused too: the module's writer
     * (layout_triton_kernel_apply) copies the text as a C string
     * (fuzz_ttgir, random seed: tests/corpus/fuzz_ttgir/regress-nul-in-comment) */
    {
        static const char nul[] = "module {\n  // a\0b\n}\n";
        CHECK(layout_ttgir_parse(nul, sizeof nul - 1, &m, &err) == LAYOUT_ERR_PARSE);
        CHECK_STR_CONTAINS(err.message, "line 2, column 7: a NUL byte in the text");
    }
    /* queries out of range are answers, not undefined behaviour */
    CHECK_EQ_I64(layout_ttgir_ir_operand(&m, -1, 0), -1);
    CHECK_EQ_I64(layout_ttgir_ir_result(&m, 1 << 20, 0), -1);
    CHECK_EQ_I64(layout_ttgir_ir_def(&m, -5), -1);
    CHECK_EQ_I64(layout_ttgir_ir_parent(&m, 1 << 20), -1);
    CHECK(!layout_ttgir_ir_op_is(&m, -1, "x"));
}

/* Malformed MLIR the reader refuses, each with its line, column and what
 * it expected; and the capacities, each an error, never a write past an
 * array. */
static void test_refused(void)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"module {\n  %x:0 = tt.foo : i32\n}\n", "line 2, column 6: the number of results is out of range"},
        {"module {\n  %x:y = tt.foo : i32\n}\n", "line 2, column 6: expected the number of results"},
        {"module {\n  %x %y = tt.foo : i32\n}\n", "line 2, column 6: expected '=' after the op's results"},
        {"module {\n  tt.func @f() {\n  ^bb1(%a i32):\n  }\n}\n", "line 3, column 11: expected ':' and the argument's type"},
        {"module {\n  tt.func @f() {\n  ^bb1(%a: i32) tt.return\n  }\n}\n", "line 3, column 17: expected ':' after the block label"},
        {"module {\n  tt.func @f() {\n  ^bb1(%a: i32 %b):\n  }\n}\n", "line 3, column 16: expected ')' closing the block's arguments"},
        {"#a\n", "line 1, column 1: expected '=' defining this alias"},
        {"module {\n  %x = tt.foo %y#z : i32\n}\n", "line 2, column 17: expected a result number after '#'"},
        {"module {\n  = tt.foo\n}\n", "line 2, column 3: expected an op"},
        {"module {\n  tt.foo (]\n}\n", "unexpected ']'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        layout_status st = layout_ttgir_parse(bad[i].text, strlen(bad[i].text), &m, &err);
        CHECK_MSG(st == LAYOUT_ERR_PARSE, "%s: %d", bad[i].text, (int)st);
        CHECK_MSG(strstr(err.message, bad[i].msg) != NULL, "%s: got \"%s\", want \"%s\"", bad[i].text, err.message,
                  bad[i].msg);
    }
    /* dialect resources after the module, a type alias: read, no layout alias */
    {
        static const char t[] = "!t = i32\nmodule {\n}\n{-#\n  dialect_resources: { builtin: { x: \"0x04\" } }\n#-}\n";
        if (parse(t)) {
            CHECK_EQ_I64(m.n_aliases, 0);
            CHECK_EQ_I64(m.ir.n_ops, 1);
        }
    }
    /* capacities: regions nested too deep, too many ops */
    {
        static char deep[4096], many[1 << 20];
        size_t n = 0;
        int k;
        for (k = 0; k < LAYOUT_TTGIR_MAX_NESTING + 2; k++) n += (size_t)snprintf(deep + n, sizeof deep - n, "t.r {\n");
        for (k = 0; k < LAYOUT_TTGIR_MAX_NESTING + 2; k++) n += (size_t)snprintf(deep + n, sizeof deep - n, "}\n");
        CHECK(layout_ttgir_parse(deep, n, &m, &err) == LAYOUT_ERR_CAPACITY);
        CHECK_STR_CONTAINS(err.message, "regions nested more than 64 deep");
        n = 0;
        for (k = 0; k <= LAYOUT_TTGIR_MAX_IR_OPS; k++) n += (size_t)snprintf(many + n, sizeof many - n, "t.x\n");
        CHECK(layout_ttgir_parse(many, n, &m, &err) == LAYOUT_ERR_CAPACITY);
        CHECK_STR_CONTAINS(err.message, "more than 8192 ops in the module");
    }
}

/* The queries on every kind of answer: integer and boolean attributes,
 * constants of each spelling, derived types, values with no printed type,
 * users, and the arguments they refuse. */
static void test_queries(void)
{
    static const char t[] =
        "module {\n"
        "  tt.func @f(%p: tensor<4x!tt.ptr<f16>>, %q: !tt.ptr<f32>) {\n"
        "    %a = arith.constant -7 : i32\n"
        "    %b = arith.constant true\n"
        "    %c = arith.constant false\n"
        "    %d = arith.constant 1.5 : f32\n"
        "    %e = arith.constant dense<2> : tensor<4xi32>\n"
        "    %f = arith.constant 99999999999999999999 : i64\n"
        "    %l = tt.load %p : tensor<4x!tt.ptr<f16>>\n"
        "    %s = tt.load %q : !tt.ptr<f32>\n"
        "    %x = \"t.op\"() <{n = -3 : i32, y = true, z = false, w = 1.0 : f32, big = 99999999999999999999 : i64, "
        "u, s = \"str\"}> : () -> i32\n"
        "    %k = arith.select %b, %a, %a : i1, i32\n"
        "    %m = t.two %a, %a : i32, i32\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    const char *v;
    size_t n;
    int64_t x;
    int op, a, users, first;
    layout_ttgir_type ty;
    if (!parse(t)) return;
    op = find("t.op", 0);
    CHECK(op >= 0);
    if (op < 0) return;
    CHECK(layout_ttgir_ir_attr_int(&m, op, "n", &x) == LAYOUT_OK && x == -3);
    CHECK(layout_ttgir_ir_attr_int(&m, op, "y", &x) == LAYOUT_OK && x == 1);
    CHECK(layout_ttgir_ir_attr_int(&m, op, "z", &x) == LAYOUT_OK && x == 0);
    CHECK(layout_ttgir_ir_attr_int(&m, op, "w", &x) == LAYOUT_ERR_PARSE);
    CHECK(layout_ttgir_ir_attr_int(&m, op, "big", &x) == LAYOUT_ERR_PARSE);
    CHECK(layout_ttgir_ir_attr_int(&m, op, "u", &x) == LAYOUT_ERR_PARSE); /* a unit attribute has no value */
    CHECK(layout_ttgir_ir_attr(&m, op, "u", &v, &n) == LAYOUT_OK && n == 0);
    CHECK(layout_ttgir_ir_attr(&m, op, "s", &v, &n) == LAYOUT_OK && n == 5 && memcmp(v, "\"str\"", 5) == 0);
    CHECK(layout_ttgir_ir_attr(&m, op, "none", &v, &n) == LAYOUT_ERR_NOT_FOUND);
    CHECK(layout_ttgir_ir_attr(&m, -1, "n", &v, &n) == LAYOUT_ERR_ARG);
    CHECK(layout_ttgir_ir_attr(NULL, op, "n", &v, &n) == LAYOUT_ERR_NULL);
    CHECK(layout_ttgir_ir_attr_int(&m, op, "n", NULL) == LAYOUT_ERR_NULL);
    /* constants: an integer, true / false, not a float, a dense tensor or a number too large */
    a = layout_ttgir_ir_result(&m, find("arith.constant", 0), 0);
    CHECK(layout_ttgir_ir_const_int(&m, a, &x) == LAYOUT_OK && x == -7);
    CHECK(layout_ttgir_ir_const_int(&m, a + 1, &x) == LAYOUT_OK && x == 1);
    CHECK(layout_ttgir_ir_const_int(&m, a + 2, &x) == LAYOUT_OK && x == 0);
    CHECK(layout_ttgir_ir_const_int(&m, a + 3, &x) == LAYOUT_ERR_NOT_FOUND);
    CHECK(layout_ttgir_ir_const_int(&m, a + 4, &x) == LAYOUT_ERR_NOT_FOUND);
    CHECK(layout_ttgir_ir_const_int(&m, a + 5, &x) == LAYOUT_ERR_NOT_FOUND);
    CHECK(layout_ttgir_ir_const_int(&m, -1, &x) == LAYOUT_ERR_ARG);
    CHECK(layout_ttgir_ir_const_int(&m, a, NULL) == LAYOUT_ERR_NULL);
    /* types: a tt.load's pointee, a scalar load, arith.select's last, none printed for t.two's result */
    CHECK(layout_ttgir_ir_value_type(&m, layout_ttgir_ir_result(&m, find("tt.load", 0), 0), &ty) == LAYOUT_OK &&
          strcmp(ty.elem, "f16") == 0 && ty.rank == 1 && ty.elem_bits == 16);
    CHECK(layout_ttgir_ir_value_type(&m, layout_ttgir_ir_result(&m, find("tt.load", find("tt.load", 0) + 1), 0),
                                     &ty) == LAYOUT_OK &&
          strcmp(ty.elem, "f32") == 0 && ty.rank == 0);
    CHECK(layout_ttgir_ir_value_type(&m, layout_ttgir_ir_result(&m, find("arith.select", 0), 0), &ty) == LAYOUT_OK &&
          strcmp(ty.elem, "i32") == 0);
    CHECK(layout_ttgir_ir_value_type(&m, layout_ttgir_ir_result(&m, find("t.two", 0), 0), &ty) == LAYOUT_ERR_NOT_FOUND);
    CHECK(layout_ttgir_ir_value_type(&m, 1 << 20, &ty) == LAYOUT_ERR_ARG);
    CHECK(layout_ttgir_ir_value_type(&m, a, NULL) == LAYOUT_ERR_NULL);
    /* users: %a feeds the select twice and t.two twice */
    users = layout_ttgir_ir_users(&m, a, &first);
    CHECK_EQ_I64(users, 4);
    CHECK_EQ_I64(first, find("arith.select", 0));
    CHECK_EQ_I64(layout_ttgir_ir_users(&m, -1, &first), 0);
    CHECK_EQ_I64(first, -1);
    CHECK_EQ_I64(layout_ttgir_ir_users(&m, layout_ttgir_ir_result(&m, find("t.two", 0), 0), NULL), 0);
    /* a type whose attribute holds a string with brackets and commas, an
     * escaped quote and an arrow: the shape and the encoding still read */
    {
        static const char odd[] =
            "  %0 = ttg.local_load %x : !ttg.memdesc<8x4xf16, #t.s<{n = \"a,b>\\\"c\", m = (d0) -> (d0)}>, #smem> -> "
            "tensor<8x4xf16, #t.b<{k = \"->(\"}>>\n";
        if (parse(odd)) {
            CHECK_EQ_I64(m.n_ops, 1);
            CHECK(m.ops[0].n_src == 1 && m.ops[0].src[0].rank == 2 && m.ops[0].src[0].shape[0] == 8);
            CHECK(m.ops[0].n_dst == 1 && m.ops[0].dst[0].rank == 2 && strcmp(m.ops[0].dst[0].elem, "f16") == 0);
            CHECK(m.ops[0].src[0].enc_len > 0 && m.text[m.ops[0].src[0].enc_at] == '#');
        }
    }
}

/* The shared-memory view's types: every malformed type of a
 * shared-memory op is refused with its position; strings and arrows
 * inside types are skipped; the ops kept by Triton's evidence (a GPU
 * dialect op on a memdesc, allocation.offset) and those left out (views,
 * waits, a tensor atomic whose result nobody uses). */
static void test_view_types(void)
{
    static const struct {
        const char *types, *msg;
    } bad[] = {
        {"!ttg.memdesc<4xf16123456789012345678901234567890, #s> -> tensor<4xf16, #t>", "the element type is too long"},
        {"!ttg.memdesc<4xf16 #s> -> tensor<4xf16, #t>", "expected ',' or '>' in the type"},
        {"!ttg.memdesc<4xf16, , #s> -> tensor<4xf16, #t>", "expected a type parameter"},
        {"!ttg.memdesc<4x, #s> -> tensor<4xf16, #t>", "expected an element type"},
        {"!ttg.memdesc<4xf16, #s> tensor<4xf16, #t> -> tensor<4xf16, #t>", "expected ',' between types"},
    };
    char t[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(t, sizeof t, "  %%0 = ttg.local_load %%x : %s\n", bad[i].types);
        CHECK_MSG(layout_ttgir_parse(t, strlen(t), &m, &err) == LAYOUT_ERR_PARSE, "%s", t);
        CHECK_MSG(strstr(err.message, bad[i].msg) != NULL, "%s: got \"%s\", want \"%s\"", t, err.message, bad[i].msg);
        CHECK_MSG(strstr(err.message, "line 1, column ") != NULL, "%s", err.message);
    }
    {
        static const char ok[] =
            "#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"
            "module attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = \"cuda:90\"} {\n"
            "  tt.func @f(%m: !ttg.memdesc<4xi64, #s, #ttg.shared_memory, mutable>, %t: tensor<4x!tt.ptr<i32>>, "
            "%v: tensor<4xi32>) {\n"
            "    %0 = ttg.local_load %m {note = \"a -> b > c\"} : !ttg.memdesc<4xi64, #s, #ttg.shared_memory, mutable> "
            "-> tensor<4xi64, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>\n"
            "    ttng.init_barrier %m, 1 : !ttg.memdesc<4xi64, #s, #ttg.shared_memory, mutable>\n"
            "    nvws.foo %m\n"
            "    %w = ttg.memdesc_index %m[%v] : !ttg.memdesc<4xi64, #s, #ttg.shared_memory, mutable> -> "
            "!ttg.memdesc<4xi64, #s, #ttg.shared_memory, mutable>\n"
            "    ttg.async_wait {num = 0 : i32}\n"
            "    t.scratch {allocation.offset = 0 : i32}\n"
            "    %r = tt.atomic_rmw add, relaxed, gpu, %t, %v : (tensor<4x!tt.ptr<i32>>, tensor<4xi32>) -> tensor<4xi32>\n"
            "    tt.return\n"
            "  }\n"
            "}\n";
        int kinds[LAYOUT_TTGIR_OP_KIND_COUNT] = {0}, other = 0;
        if (parse(ok)) {
            for (int i = 0; i < m.n_ops; i++) kinds[m.ops[i].kind]++;
            for (int i = 0; i < m.n_ops; i++) other += m.ops[i].kind == LAYOUT_TTGIR_OTHER_SHARED;
            CHECK_EQ_I64(kinds[LAYOUT_TTGIR_LOCAL_LOAD], 1);
            CHECK_EQ_I64(kinds[LAYOUT_TTGIR_MEMDESC_VIEW], 1);
            /* init_barrier (a memdesc in its types), nvws.foo (a memdesc operand), t.scratch (allocation.offset);
             * not async_wait, nor the tensor atomic whose result is unused */
            CHECK_EQ_I64(other, 3);
            CHECK_EQ_I64(m.n_ops, 5);
            CHECK(m.ops[0].n_dst == 1 && m.ops[0].dst[0].elem_bits == 64 && m.ops[0].src[0].mutable_);
        }
    }
}

/* The memdesc web reads the IR's values: an AMD buffer_load_to_local
 * writes the buffer named after `into` (its memdesc operand, whatever
 * comes before), through an scf.for iter_arg; the suggestion groups it with
 * the local_alloc that made the buffer and the local_load that reads it. */
static void test_web_through_loop(void)
{
    static layout_triton_kernel k;
    static layout_triton_kernel_suggestions sg;
    static const char t[] =
        "#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
        "#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n"
        "#smem = #ttg.shared_memory\n"
        "module attributes {\"ttg.num-warps\" = 4 : i32, \"ttg.threads-per-warp\" = 64 : i32, ttg.target = \"hip:gfx942\"} {\n"
        "  tt.func @f(%p: !tt.ptr<f32>, %o: tensor<32x64xi32, #b>, %n: i32) {\n"
        "    %c0 = arith.constant 0 : i32\n"
        "    %c1 = arith.constant 1 : i32\n"
        "    %a = ttg.local_alloc : () -> !ttg.memdesc<32x64xf32, #s, #smem, mutable>\n"
        "    %r = scf.for %i = %c0 to %n step %c1 iter_args(%buf = %a) -> (!ttg.memdesc<32x64xf32, #s, #smem, mutable>) "
        ": i32 {\n"
        "      %t = amdg.buffer_load_to_local %p[%o] into %buf : <f32>[tensor<32x64xi32, #b>] -> "
        "<32x64xf32, #s, #smem, mutable>\n"
        "      scf.yield %buf : !ttg.memdesc<32x64xf32, #s, #smem, mutable>\n"
        "    }\n"
        "    %v = ttg.local_load %r : !ttg.memdesc<32x64xf32, #s, #smem, mutable> -> tensor<32x64xf32, #b>\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    if (!parse(t)) return;
    if (layout_triton_kernel_analyze(&m, NULL, &k, &err) != LAYOUT_OK ||
        layout_triton_kernel_suggest(&k, NULL, &sg, &err) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", err.message);
        return;
    }
    CHECK_EQ_I64(sg.n_allocs, 1);
    if (sg.n_allocs == 1) {
        CHECK_EQ_I64(sg.allocs[0].alloc_op, 0);
        CHECK_EQ_I64(sg.allocs[0].n_ops, 2); /* the buffer load and the local_load, one allocation */
    }
}

int main(void)
{
    RUN(test_refused);
    RUN(test_web_through_loop);
    RUN(test_view_types);
    RUN(test_queries);
    RUN(test_scopes);
    RUN(test_loop);
    RUN(test_printed_forms);
    RUN(test_blocks_and_errors);
    return harness_finish("test_ttgir_ir");
}
