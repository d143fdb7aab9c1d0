/* NVIDIA: the `@!PT LDS RZ, [RZ]` ptxas writes beside cp.async (the op
 * reports' ptxas_dummy_loads).  Under a never-true predicate they touch no
 * bank and take no wavefront, but every warp issues them and Nsight
 * Compute counts each as an executed shared load.
 *
 * ptxas's source is not public; the rule is what ptxas itself wrote for
 * the 48 probes of tests/fixtures/triton/ptxas/gen_wait_probes.py (the
 * ptxas of Triton 3.6.0, CUDA 12.8.93; wait.jsonl, its README's table),
 * and it accounts for the dummy loads of the corpus's cp.async kernels
 * (corpus_sync.jsonl, the same ptxas on the corpus's own PTX):
 *
 *  - three before a cp.async (LDGSTS) when, since the previous one or the
 *    kernel's start, a shared load, a shared store or a barrier ran; none
 *    when only commits, waits (DEPBAR), global accesses or a fence did;
 *    A barrier Triton's Membar puts between two cp.async counts too:
 *    before a cp.async into a buffer an earlier cp.async of the same
 *    stretch wrote (Membar takes a multi-buffered allocation as one buffer:
 *    the corpus's 3- and 4-stage prologues, a `bar.sync` and three dummy
 *    loads before each stage after the first);
 *  - at a `fence.proxy.async.shared::cta` (TTGIR `ttng.fence_async_shared`)
 *    of a kernel whose cp.async came before it: four when such an access
 *    ran since the last cp.async, else one; none in a kernel without
 *    cp.async.
 *
 * Read on the IR: a shared load, store or barrier is a modelled op with
 * LSU shared instructions, a `ttng.warp_group_dot` (its operands' reads,
 * beside Membar's barriers) or a `gpu.barrier`.  Paths join as ptxas must
 * place its static code: a loop body starts in the state before the loop or
 * at the body's end (the back edge), an `scf.if` leaves the union of its
 * branches.  A fence's loads go to the nearest op of the report in its
 * block (same executions); a fence with none there is not counted. */
#include "tk_internal.h"
#include "web_internal.h"

#include <string.h>

enum { DUMMY_CP = 3, DUMMY_FENCE_AFTER = 4, DUMMY_FENCE_CLEAN = 1 };

/* The report of IR op j (-1: none). */
static int report_of(const layout_triton_kernel *k, int j)
{
    int sh = k->module->ir.ops[j].shared;
    for (int i = 0; sh >= 0 && i < k->n_ops; i++)
        if (k->ops[i].op == sh) return i;
    return -1;
}

static int is_cp_async(const layout_triton_kernel *k, int j)
{
    int r = report_of(k, j);
    return r >= 0 && k->ops[r].kind == LAYOUT_TTGIR_ASYNC_COPY;
}

/* Whether IR op j loads, stores or waits at a barrier in shared memory
 * (not a cp.async) on its own, regions aside. */
static int touches_shared(const layout_triton_kernel *k, int j)
{
    const layout_ttgir *m = k->module;
    if (layout_ttgir_ir_op_is(m, j, "gpu.barrier")) return 1;
    int r = report_of(k, j);
    if (r < 0 || k->ops[r].kind == LAYOUT_TTGIR_ASYNC_COPY) return 0;
    const layout_triton_kernel_op *o = &k->ops[r];
    if (o->kind == LAYOUT_TTGIR_WARP_GROUP_DOT) return 1;
    for (int c = 0; c < o->n_counts; c++) {
        const char *mn = o->counts[c].mnemonic;
        if (o->counts[c].count > 0 && (!strncmp(mn, "ld.shared", 9) || !strncmp(mn, "st.shared", 9) ||
                                       !strncmp(mn, "ldmatrix", 8) || !strncmp(mn, "stmatrix", 8) ||
                                       !strncmp(mn, "atom.shared", 11)))
            return 1;
    }
    return 0;
}

/* A stretch of code as a map of the state (1: a shared access or barrier
 * ran since the last cp.async): s -> (s & keep) | set.  Sequence and join
 * compose these exactly; a loop's body entry is the state before the loop
 * or at the body's end: s | set(body), its least fixed point. */
typedef struct {
    unsigned char keep, set;
} flow;

static const flow IDENTITY = {1, 0};

static flow then(flow f, flow g) { return (flow){(unsigned char)(f.keep & g.keep), (unsigned char)((f.set & g.keep) | g.set)}; }

static flow block_flow(const layout_triton_kernel *k, int blk, int stop, int depth);

/* Op j, its regions included. */
static flow op_flow(const layout_triton_kernel *k, int j, int depth)
{
    const layout_ttgir_ir *ir = &k->module->ir;
    const layout_ttgir_ir_op *o = &ir->ops[j];
    if (is_cp_async(k, j)) return (flow){0, 0};
    if (touches_shared(k, j)) return (flow){0, 1};
    if (o->n_regions < 1) return IDENTITY;
    if (depth > LAYOUT_TTGIR_MAX_NESTING) return (flow){1, 1};
    int loop = layout_ttgir_ir_op_is(k->module, j, "scf.for") || layout_ttgir_ir_op_is(k->module, j, "scf.while");
    /* the paths past the op joined: each region's blocks, and the op
     * skipped where it may be (a loop run zero times, an scf.if without
     * else).  A loop's body entered from its end as well leaves what it
     * leaves from before it: (s | set) & keep | set = s & keep | set. */
    flow out = loop || o->n_regions < 2 ? IDENTITY : (flow){0, 0};
    for (int rg = o->first_region; rg >= 0; rg = ir->regions[rg].next)
        for (int b = ir->regions[rg].first_block; b >= 0; b = ir->blocks[b].next) {
            flow f = block_flow(k, b, -1, depth + 1);
            out.keep |= f.keep, out.set |= f.set;
        }
    return out;
}

/* Block blk's ops in order, up to op `stop` (-1: all). */
static flow block_flow(const layout_triton_kernel *k, int blk, int stop, int depth)
{
    const layout_ttgir_ir *ir = &k->module->ir;
    flow f = IDENTITY;
    for (int j = ir->blocks[blk].first_op; j >= 0 && j != stop; j = ir->ops[j].next) f = then(f, op_flow(k, j, depth));
    return f;
}

/* The state just before IR op j: 1 at the kernel's start, through the
 * blocks around j, a loop body entered from before the loop or its end. */
static int state_before(const layout_triton_kernel *k, int j, int depth)
{
    const layout_ttgir_ir *ir = &k->module->ir;
    int blk = ir->ops[j].parent_block;
    if (blk < 0 || depth > LAYOUT_TTGIR_MAX_NESTING) return 1;
    int owner = ir->regions[ir->blocks[blk].parent_region].parent_op;
    int s = 1;
    if (owner >= 0 && !layout_ttgir_ir_op_is(k->module, owner, "tt.func")) {
        s = state_before(k, owner, depth + 1);
        if (layout_ttgir_ir_op_is(k->module, owner, "scf.for") || layout_ttgir_ir_op_is(k->module, owner, "scf.while"))
            s |= block_flow(k, blk, -1, depth + 1).set;
    }
    flow f = block_flow(k, blk, j, depth + 1);
    return (s & f.keep) | f.set;
}

/* The report that carries fence f's loads: the nearest op of the report
 * before it in its block, else after it; -1: none. */
static int fence_owner(const layout_triton_kernel *k, int f)
{
    const layout_ttgir_ir *ir = &k->module->ir;
    int blk = ir->ops[f].parent_block, before = -1;
    if (blk < 0) return -1;
    for (int j = ir->blocks[blk].first_op; j >= 0; j = ir->ops[j].next) {
        int r = report_of(k, j);
        if (j == f) {
            if (before >= 0) return before;
            continue;
        }
        if (r >= 0 && k->ops[r].modelled) {
            if (j > f) return r;
            before = r;
        }
    }
    return before;
}

/* The buffers module op o reads (*nr into rd) and writes (*nw into wr),
 * as web roots; 0 when they are not known (an op through a scratch, a
 * view whose root the web lost). */
static int accesses(const layout_triton_kernel *k, layout_tk_web *web, int j, int *rd, int *nr, int *wr, int *nw)
{
    const layout_ttgir *m = k->module;
    int r = report_of(k, j), root;
    layout_tk_name nm;
    *nr = *nw = 0;
    if (r < 0) return 1; /* no shared-memory op */
    const layout_ttgir_op *o = &m->ops[k->ops[r].op];
    /* a wgmma reads its operands through the async proxy, fenced by its
     * own waits: no barrier of Membar's (the corpus's and the nvmix
     * set's wgmma attention: none before the V copy after the P x V dot) */
    if (o->kind == LAYOUT_TTGIR_WARP_GROUP_DOT) return 1;
    if (o->kind == LAYOUT_TTGIR_LOCAL_DEALLOC || o->kind == LAYOUT_TTGIR_MEMDESC_VIEW) return 1;
    if (o->kind == LAYOUT_TTGIR_LOCAL_ALLOC && !(o->n_src > 0 && !o->src[0].is_memdesc)) return 1; /* no value */
    if (!layout_tk_access_memdesc(m, o, &nm) || (root = layout_tk_web_root(web, &nm)) < 0) return 0;
    if (o->kind == LAYOUT_TTGIR_LOCAL_LOAD) rd[(*nr)++] = root;
    else if (o->kind == LAYOUT_TTGIR_LOCAL_ALLOC || o->kind == LAYOUT_TTGIR_LOCAL_STORE ||
             o->kind == LAYOUT_TTGIR_ASYNC_COPY)
        wr[(*nw)++] = root;
    else
        return 0;
    return 1;
}

static int in_set(const int *set, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (set[i] == x) return 1;
    return 0;
}

/* Whether Triton's Membar (lib/Analysis/Membar.cpp: a barrier before an
 * op whose buffer an earlier op read or wrote since the last barrier, a
 * write against either, a read against a write) puts a barrier right
 * before cp.async j.  Its block is walked from its start with nothing
 * pending (a region op, or an op whose buffers are not known, starts
 * afresh: the state is set there anyway), buffers told apart by their
 * allocation (a multi-buffered one is one buffer to Membar too: the
 * corpus's 3- and 4-stage prologues hold a barrier between stages). */
static int membar_before(const layout_triton_kernel *k, layout_tk_web *web, int j)
{
    enum { MAXP = 32 };
    const layout_ttgir_ir *ir = &k->module->ir;
    int blk = ir->ops[j].parent_block, rd[MAXP], wr[MAXP], nr = 0, nw = 0;
    if (blk < 0) return 0;
    for (int i = ir->blocks[blk].first_op; i >= 0; i = ir->ops[i].next) {
        int ord[2] = {0, 0}, owr[2] = {0, 0}, onr, onw, bar = 0;
        if (ir->ops[i].n_regions > 0 || !accesses(k, web, i, ord, &onr, owr, &onw)) {
            nr = nw = 0;
            if (i == j) return 0;
            continue;
        }
        for (int q = 0; q < onw; q++) bar |= in_set(rd, nr, owr[q]) || in_set(wr, nw, owr[q]);
        for (int q = 0; q < onr; q++) bar |= in_set(wr, nw, ord[q]);
        if (i == j) return bar;
        if (bar) nr = nw = 0;
        for (int q = 0; q < onr && nr < MAXP; q++) rd[nr++] = ord[q];
        for (int q = 0; q < onw && nw < MAXP; q++) wr[nw++] = owr[q];
    }
    return 0;
}

void layout_tk_ptxas_dummies(layout_triton_kernel *k)
{
    layout_tk_web web;
    const layout_ttgir *m = k->module;
    int first_cp = -1, any = 0;
    for (int i = 0; i < k->n_ops; i++) {
        k->ops[i].ptxas_dummy_loads = 0;
        any |= k->ops[i].kind == LAYOUT_TTGIR_ASYNC_COPY;
    }
    if (!k->is_nvidia || !any) return;
    layout_tk_web_build(&web, m);
    for (int j = 0; j < m->ir.n_ops; j++) {
        if (is_cp_async(k, j)) {
            int r = report_of(k, j);
            if (first_cp < 0) first_cp = j;
            if (k->ops[r].modelled && (state_before(k, j, 0) || membar_before(k, &web, j)))
                k->ops[r].ptxas_dummy_loads += DUMMY_CP;
        } else if (first_cp >= 0 && layout_ttgir_ir_op_is(m, j, "ttng.fence_async_shared")) {
            int r = fence_owner(k, j);
            if (r >= 0) k->ops[r].ptxas_dummy_loads += state_before(k, j, 0) ? DUMMY_FENCE_AFTER : DUMMY_FENCE_CLEAN;
        }
    }
}
