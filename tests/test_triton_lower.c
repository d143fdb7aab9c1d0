/* Triton 3.6's lowering of shared-memory ops (triton_kernel.h) against the
 * real compilations of tests/fixtures/triton/kernels/: for each source
 * location (`loc`) whose TTGIR ops are all modelled, the predicted
 * instructions per warp are compared, mnemonic by mnemonic, with the DS /
 * shared instructions that the real AMDGCN / PTX attributes to that
 * location (`.loc FILE LINE COL` directives; static counts).
 * ISA `ds_write_b16_d16_hi` is its own mnemonic: the model names the store
 * of a register's upper half so (ldst.c, layout_tk_packed_words).  A
 * guarded PTX instruction
 * (`@%p1 st.shared.b32`) counts as its mnemonic; a `.loc` of inlined code
 * (`standard.py:293:36 @[ gen_kernels.py:68:32 ]`, tl.sum) counts at its
 * outermost caller, as layout_ttgir_op_loc resolves a callsite.
 *
 * A location equals when every count equals.  A location that differs
 * must satisfy one of these rules, each checked against the ISA text
 * itself (docs/triton.md, "Rules"); no case is named anywhere:
 *   dup        LLVM duplicated the loop body.  The ISA's loop is the block
 *              range from LLVM's `Loop Header` block to the last branch
 *              back to it; its static copies are the ISA blocks outside it
 *              that hold the same multiset of (location, mnemonic); the
 *              TTGIR's copies are the windows of ops outside its scf.for
 *              whose instructions are the loop ops' multiset.  Each ISA
 *              copy beyond the TTGIR's adds the scf.for ops' counts once:
 *              expected = predicted + extra copies x predicted in the loop,
 *              required exactly (the model stays per execution);
 *   loc-split  an instruction without a source location of its own takes
 *              the previous `.loc` of its block, or line 0 at a block's top
 *              (LLVM's DwarfDebug); LLVM's merged location of one line has
 *              column 0.  Every deficit of a mnemonic at a location must be
 *              covered exactly by surpluses of that mnemonic at other
 *              locations of the kernel: a modelled location whose ops
 *              predict none of it, a line-0 location whose every `.loc`
 *              opens its block and repeats the previous column (DwarfDebug's
 *              mark), or column 0 of the same line; each surplus has one owner (the only location
 *              short of that mnemonic, on the same line for column 0, or
 *              the only one short by exactly that many), and in every ISA
 *              block holding moved instructions, the owner's and the moved
 *              ones together make whole copies of the owner's op;
 *   unpaired   (a known difference of the model, kept with its evidence)
 *              LLVM left b32 / b64 pairs of one op unpaired: the ISA's
 *              `ds_write2*` / `ds_read2*` count twice, the singles once, the
 *              sum equals the prediction's, the ISA has more singles, and in
 *              each block every single uses an address register that no
 *              other DS instruction of that location uses there (a pair
 *              needs one base register; LLVM's pairing needs a shared base);
 *   other      anything else: a failure.
 * The test asserts floors on the numbers that must not get worse (equal
 * locations, fully modelled kernels equal to their ISA), a ceiling on the
 * known differences, and no `other`; every moved instruction must find its
 * owner.  Also: known answers from hand-written TTGIR, op_cost equal to
 * analyze, a candidate layout scored, the arch of each target. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "layout.h"

#include <dirent.h>

#define FILE_CAP (1 << 20)
#define MAX_LOCS 64
#define MAX_MN 16
#define MAX_INS 4096
#define MAX_BLOCKS 2048
#define MAX_TTGIR_LINES 8192
#define MAX_KEYS 64

static char corpus_dir[512];
static char ttgir_buf[FILE_CAP], isa_buf[FILE_CAP];
static layout_ttgir mod;
static layout_triton_kernel kern;
static layout_triton_kernel_op rep;
static layout_error terr;

static void find_corpus(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    int n = slash ? (int)(slash - f) : 1;
    snprintf(corpus_dir, sizeof corpus_dir, "%.*s/fixtures/triton/kernels", n, slash ? f : ".");
}

static long read_file(const char *name, const char *ext, char *buf, long cap)
{
    char path[768];
    FILE *fp;
    long n;
    snprintf(path, sizeof path, "%s/%s%s", corpus_dir, name, ext);
    if (!(fp = fopen(path, "rb"))) return -1;
    n = (long)fread(buf, 1, (size_t)cap - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return n;
}

/* Rules of a differing mnemonic / location, worst last. */
enum { R_EQUAL, R_DUP, R_SPLIT, R_UNPAIRED, R_OTHER, R_N };
static const char *const rule_name[R_N] = {"equal", "dup", "loc-split", "unpaired", "other"};

/* Mnemonic counts at one source location. */
typedef struct loc_counts {
    int line, col, all_modelled, n, has_op, tensor_core; /* tensor_core: a warp_group_dot is here */
    char mn[MAX_MN][64];
    long pred[MAX_MN], isa[MAX_MN];
    long loop[MAX_MN]; /* predicted by the ops inside the TTGIR's scf.for */
    long exp[MAX_MN];  /* pred + extra ISA copies x loop */
    long per_op[MAX_MN]; /* gcd of the per-op counts (one copy of an op) */
    int rule[MAX_MN];
    int owner[MAX_MN]; /* loc-split: the location a surplus belongs to, or -1 */
} loc_counts;

static loc_counts locs[MAX_LOCS];

static int n_locs, locs_full; /* locs_full: a location or mnemonic found no room */

static loc_counts *loc_of(int line, int col)
{
    int i;
    for (i = 0; i < n_locs; i++)
        if (locs[i].line == line && locs[i].col == col) return &locs[i];
    if (n_locs == MAX_LOCS) {
        locs_full = 1;
        return NULL;
    }
    memset(&locs[n_locs], 0, sizeof locs[0]);
    locs[n_locs].line = line;
    locs[n_locs].col = col;
    locs[n_locs].all_modelled = 1;
    return &locs[n_locs++];
}

static long gcd_l(long a, long b) { while (b) { long t = a % b; a = b; b = t; } return a; }

/* The index of mnemonic mn at l, added when absent (-1 when full). */
static int mn_index(loc_counts *l, const char *mn)
{
    int i;
    for (i = 0; i < l->n && strcmp(l->mn[i], mn) != 0; i++) {}
    if (i == l->n) {
        if (l->n == MAX_MN) {
            locs_full = 1;
            return -1;
        }
        snprintf(l->mn[l->n++], sizeof l->mn[0], "%s", mn);
        l->owner[i] = -1;
    }
    return i;
}

/* One shared-memory instruction of the ISA: its block, `.loc`, mnemonic and
 * address register (AMD ds_*: the first operand of a write, the second of
 * a read; "" otherwise). */
typedef struct isa_ins {
    int block, line, col;
    int unknown; /* line 0 as DwarfDebug writes an instruction without a
                  * location at a block's top: the `.loc` opens its block and
                  * repeats the previous column */
    char mn[48], addr[16];
} isa_ins;

static isa_ins ins[MAX_INS];
static int n_ins, n_blocks, n_isa_loops, loop_lo, loop_hi, trunc_isa;
static char block_label[MAX_BLOCKS][48];
static char block_header[MAX_BLOCKS];
static struct { int block; char target[48]; } brs[MAX_BLOCKS];
static int n_brs;
static char in_loop[MAX_TTGIR_LINES];

/* The shared-memory instruction on an ISA line, or NULL. */
static int isa_mnemonic(const char *line, char *out, size_t cap, const char **rest)
{
    static const char *const pre[] = {"ds_", "st.shared", "ld.shared", "ldmatrix", "stmatrix", "cp.async.ca", "cp.async.cg"};
    size_t i, n = 0;
    while (*line == ' ' || *line == '\t') line++;
    /* A guarded instruction (Triton's predicated inline asm, `@%p1 st.shared.b32`) */
    if (*line == '@') {
        while (*line && *line != ' ' && *line != '\t') line++;
        while (*line == ' ' || *line == '\t') line++;
    }
    for (i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (strncmp(line, pre[i], strlen(pre[i])) == 0) break;
    if (i == sizeof pre / sizeof pre[0] || strncmp(line, "ds_bpermute", 11) == 0) return 0; /* bpermute: no LDS memory */
    while (line[n] && line[n] != ' ' && line[n] != '\t' && line[n] != '\n' && n + 1 < cap) {
        out[n] = line[n];
        n++;
    }
    out[n] = 0;
    *rest = line + n;
    return 1;
}

/* A branch on an ISA line (s_branch, s_cbranch_*, PTX bra): its target. */
static int isa_branch(const char *line, char *target, size_t cap)
{
    size_t n = 0;
    while (*line == ' ' || *line == '\t') line++;
    if (*line == '@') {
        while (*line && *line != ' ' && *line != '\t') line++;
        while (*line == ' ' || *line == '\t') line++;
    }
    if (strncmp(line, "s_branch", 8) == 0 || strncmp(line, "s_cbranch_", 10) == 0 ||
        (strncmp(line, "bra", 3) == 0 && (line[3] == ' ' || line[3] == '\t' || line[3] == '.'))) {
        while (*line && *line != ' ' && *line != '\t') line++;
        while (*line == ' ' || *line == '\t') line++;
        while (line[n] && line[n] != ';' && line[n] != ' ' && line[n] != '\t' && n + 1 < cap) {
            target[n] = line[n];
            n++;
        }
        target[n] = 0;
        return n > 0;
    }
    return 0;
}

static int insts_in_block;

static void new_block(const char *label, size_t len)
{
    insts_in_block = 0;
    if (n_blocks == MAX_BLOCKS) { trunc_isa = 1; return; }
    snprintf(block_label[n_blocks], sizeof block_label[0], "%.*s", (int)(len < 47 ? len : 47), label);
    block_header[n_blocks] = 0;
    n_blocks++;
}

/* Read the ISA: its shared instructions with their `.loc` and block, the
 * blocks (a label, LLVM's `%bb.N` comment of an unlabelled block, or the
 * instruction after a branch starts one), the branches, LLVM's loop
 * headers (`=>This Inner Loop Header`). */
static void parse_isa(const char *isa)
{
    int line = 0, col = 0, unknown = 0;
    const char *p = isa;
    n_ins = n_blocks = n_brs = trunc_isa = 0;
    new_block("", 0);
    while (*p) {
        const char *e = strchr(p, '\n'), *rest, *s;
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char mn[64], buf[256], target[48];
        int f, l, c;
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 255 ? len : 255), p);
        for (s = buf; *s == ' ' || *s == '\t'; s++) {}
        if ((strncmp(s, ".LBB", 4) == 0 || strncmp(s, "$L__BB", 6) == 0) && strchr(s, ':')) {
            new_block(s, (size_t)(strchr(s, ':') - s));
            if (strstr(s, "Loop Header")) block_header[n_blocks - 1] = 1;
        } else if ((s[0] == ';' || (s[0] == '/' && s[1] == '/')) && strstr(s, "Loop Header")) {
            block_header[n_blocks - 1] = 1; /* the comment on the line after the label */
        } else if ((s[0] == ';' || (s[0] == '/' && s[1] == '/')) && strstr(s, "%bb.")) {
            new_block("", 0);
        } else if (sscanf(buf, " .loc %d %d %d", &f, &l, &c) == 3) {
            /* An inlined call (tl.sum -> standard.py) prints its caller
             * chain as a comment, `standard.py:293:36 @[ gen_kernels.py:68:32 ]`;
             * layout_ttgir_op_loc resolves a callsite to the kernel's own
             * line, so the ISA side takes the outermost caller too. */
            const char *at = strstr(buf, "@[ "), *next;
            int il, ic;
            while (at && (next = strstr(at + 3, "@[ ")) != NULL) at = next;
            if (at && sscanf(strchr(at + 3, ':') ? strchr(at + 3, ':') + 1 : "", "%d:%d", &il, &ic) == 2) {
                l = il;
                c = ic;
            }
            unknown = l == 0 && c == col && !insts_in_block;
            line = l;
            col = c;
        } else if (isa_mnemonic(buf, mn, sizeof mn, &rest)) {
            isa_ins *in;
            int k;
            if (n_ins == MAX_INS) { trunc_isa = 1; p += len + (e ? 1 : 0); continue; }
            in = &ins[n_ins++];
            memset(in, 0, sizeof *in);
            in->block = n_blocks - 1;
            in->line = line;
            in->col = col;
            in->unknown = unknown;
            snprintf(in->mn, sizeof in->mn, "%.47s", mn);
            if (strncmp(mn, "ds_", 3) == 0) {
                /* operands: "v[12:15], v69 offset:..." -> the address register */
                int skip = strncmp(mn, "ds_read", 7) == 0 ? 1 : 0;
                const char *q = rest;
                for (k = 0; k < skip && q; k++) q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL;
                if (q) {
                    size_t n = 0;
                    while (*q == ' ' || *q == '\t') q++;
                    while (q[n] && q[n] != ',' && q[n] != ' ' && q[n] != '\t' && n + 1 < sizeof in->addr) {
                        in->addr[n] = q[n];
                        n++;
                    }
                    in->addr[n] = 0;
                }
            }
        } else if (isa_branch(buf, target, sizeof target)) {
            if (n_brs < MAX_BLOCKS) {
                brs[n_brs].block = n_blocks - 1;
                snprintf(brs[n_brs].target, sizeof brs[0].target, "%s", target);
                n_brs++;
            }
            new_block("", 0);
            p += len + (e ? 1 : 0);
            continue;
        }
        if ((*s == '@' || (*s >= 'a' && *s <= 'z')) && s[strlen(s) - 1] != ':') insts_in_block = 1;
        p += len + (e ? 1 : 0);
    }
}

/* Which TTGIR lines lie inside an scf.for region (braces counted per line;
 * attribute dictionaries close on their own line). */
static void ttgir_loop_lines(const char *text)
{
    int line = 1, depth = 0, stack[64], top = 0;
    const char *p = text;
    memset(in_loop, 0, sizeof in_loop);
    while (*p) {
        const char *e = strchr(p, '\n'), *q;
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int open = 0, is_for = 0;
        if (line < MAX_TTGIR_LINES) in_loop[line] = top > 0;
        for (q = p; q < p + len; q++) open += *q == '{' ? 1 : *q == '}' ? -1 : 0;
        for (q = p; q + 7 <= p + len; q++)
            if (strncmp(q, "scf.for", 7) == 0) is_for = 1;
        {
            const char *t = p + len;
            while (t > p && (t[-1] == ' ' || t[-1] == '\r')) t--;
            if (is_for && t > p && t[-1] == '{' && top < 64) stack[top++] = depth;
        }
        depth += open;
        while (top > 0 && depth <= stack[top - 1]) top--;
        line++;
        p += len + (e ? 1 : 0);
    }
}

/* A multiset of (line, col, mnemonic) -> count. */
typedef struct keyset {
    int n, line[MAX_KEYS], col[MAX_KEYS];
    const char *mn[MAX_KEYS];
    long cnt[MAX_KEYS];
    int full;
} keyset;

static void key_add(keyset *k, int line, int col, const char *mn, long n)
{
    int i;
    for (i = 0; i < k->n; i++)
        if (k->line[i] == line && k->col[i] == col && strcmp(k->mn[i], mn) == 0) break;
    if (i == k->n) {
        if (k->n == MAX_KEYS) { k->full = 1; return; }
        k->line[i] = line;
        k->col[i] = col;
        k->mn[i] = mn;
        k->cnt[i] = 0;
        k->n++;
    }
    k->cnt[i] += n;
}

static int key_equal(const keyset *a, const keyset *b)
{
    int i, j;
    if (a->full || b->full || a->n != b->n || a->n == 0) return 0;
    for (i = 0; i < a->n; i++) {
        for (j = 0; j < b->n; j++)
            if (a->line[i] == b->line[j] && a->col[i] == b->col[j] && strcmp(a->mn[i], b->mn[j]) == 0) break;
        if (j == b->n || a->cnt[i] != b->cnt[j]) return 0;
    }
    return 1;
}

static void block_keys(keyset *k, int lo, int hi)
{
    int i;
    memset(k, 0, sizeof *k);
    for (i = 0; i < n_ins; i++)
        if (ins[i].block >= lo && ins[i].block <= hi) key_add(k, ins[i].line, ins[i].col, ins[i].mn, 1);
}

static int loc_line_col(const char *loc, int *line, int *col)
{
    const char *c2 = strrchr(loc, ':'), *c1;
    if (!c2 || c2 == loc) return 0;
    for (c1 = c2 - 1; c1 > loc && *c1 != ':'; c1--) {}
    if (*c1 != ':') return 0;
    *line = atoi(c1 + 1);
    *col = atoi(c2 + 1);
    return 1;
}

/* Static copies of the loop body beyond the TTGIR's: the ISA's copies (its
 * loop, LLVM's `Loop Header` block to the last branch back to it, and every
 * block elsewhere with the same (loc, mnemonic) multiset) less the TTGIR's
 * (its scf.for ops and each run of as many consecutive ops outside it, all
 * before or all after the loop's ops, with the same instruction multiset).  0 unless the ISA has exactly one loop holding
 * shared instructions and the TTGIR has modelled ops inside scf.for.
 * *isa_copies / *ttgir_copies: the two counts, for the report. */
static int extra_copies(int *isa_copies, int *ttgir_copies)
{
    keyset lk, bk, tk, wk;
    int h, b, i, j, k, p = 0, q = 0, n_loop_ops = 0, outside[256], segment[256], n_out = 0, seg = 0;
    n_isa_loops = 0;
    loop_lo = loop_hi = -1;
    for (h = 0; h < n_blocks; h++) {
        int hi = -1;
        if (!block_header[h] || !block_label[h][0]) continue;
        for (i = 0; i < n_brs; i++)
            if (brs[i].block >= h && strcmp(brs[i].target, block_label[h]) == 0 && brs[i].block > hi) hi = brs[i].block;
        if (hi < 0) continue;
        block_keys(&lk, h, hi);
        if (lk.n == 0) continue;
        n_isa_loops++;
        loop_lo = h;
        loop_hi = hi;
    }
    *isa_copies = *ttgir_copies = 0;
    if (n_isa_loops != 1) return 0;
    block_keys(&lk, loop_lo, loop_hi);
    for (b = 0; b < n_blocks; b++) {
        if (b >= loop_lo && b <= loop_hi) continue;
        block_keys(&bk, b, b);
        p += key_equal(&bk, &lk);
    }
    memset(&tk, 0, sizeof tk);
    for (i = 0; i < kern.n_ops; i++) {
        const layout_triton_kernel_op *r = &kern.ops[i];
        int line, col;
        if (!r->modelled || r->n_counts == 0 || !loc_line_col(r->loc, &line, &col)) continue;
        if (r->line > 0 && r->line < MAX_TTGIR_LINES && in_loop[r->line]) {
            n_loop_ops++;
            seg++;
            for (j = 0; j < r->n_counts; j++) key_add(&tk, line, col, r->counts[j].mnemonic, r->counts[j].count);
        } else if (n_out < 256) {
            segment[n_out] = seg;
            outside[n_out++] = i;
        }
    }
    if (n_loop_ops == 0) return 0;
    for (i = 0; i + n_loop_ops <= n_out;) {
        if (segment[i + n_loop_ops - 1] != segment[i]) { /* a window may not span the loop */
            i++;
            continue;
        }
        memset(&wk, 0, sizeof wk);
        for (k = i; k < i + n_loop_ops; k++) {
            const layout_triton_kernel_op *r = &kern.ops[outside[k]];
            int line, col;
            loc_line_col(r->loc, &line, &col);
            for (j = 0; j < r->n_counts; j++) key_add(&wk, line, col, r->counts[j].mnemonic, r->counts[j].count);
        }
        if (key_equal(&wk, &tk)) {
            q++;
            i += n_loop_ops;
        } else {
            i++;
        }
    }
    *isa_copies = p + 1;
    *ttgir_copies = q + 1;
    return p > q ? p - q : 0;
}

/* Instructions of mnemonic mn at location l in ISA block b. */
static long block_count(int b, const loc_counts *l, const char *mn)
{
    long n = 0;
    int i;
    for (i = 0; i < n_ins; i++)
        if (ins[i].block == b && ins[i].line == l->line && ins[i].col == l->col && strcmp(ins[i].mn, mn) == 0) n++;
    return n;
}

/* A location without a source position of its own, its ISA instructions
 * belonging to some op elsewhere: line 0 where every instruction there has
 * DwarfDebug's mark of an instruction without location (isa_ins.unknown),
 * or column 0 of a line (LLVM's merged location of two columns). */
static int positionless(const loc_counts *l)
{
    int i;
    if (l->has_op || (l->line != 0 && l->col != 0)) return 0;
    if (l->line == 0)
        for (i = 0; i < n_ins; i++)
            if (ins[i].line == 0 && ins[i].col == l->col && !ins[i].unknown) return 0;
    return 1;
}

/* loc-split for mnemonic mn: assign every surplus to its owner, check the
 * owners' deficits are covered exactly and the block copies; mark the
 * mnemonic R_SPLIT at every location concerned.  Returns the instructions
 * at positionless locations left without owner. */
static long split_mnemonic(const char *mn)
{
    int defs[MAX_LOCS], sur[MAX_LOCS], nd = 0, ns = 0, i, j, k, b;
    long covered[MAX_LOCS], left = 0;
    for (i = 0; i < n_locs; i++) {
        loc_counts *l = &locs[i];
        int m;
        for (m = 0; m < l->n && strcmp(l->mn[m], mn) != 0; m++) {}
        if (m == l->n) continue;
        if (l->has_op && l->all_modelled) {
            if (l->rule[m] != R_OTHER) continue; /* equal, or dup explained it */
            if (l->isa[m] < l->exp[m]) defs[nd++] = i;
            else if (l->isa[m] > l->exp[m] && l->exp[m] == 0) sur[ns++] = i;
        } else if (positionless(l) && l->isa[m] > 0) {
            sur[ns++] = i;
        }
    }
    for (i = 0; i < nd; i++) covered[i] = 0;
    for (j = 0; j < ns; j++) {
        loc_counts *s = &locs[sur[j]];
        int m = mn_index(s, mn), cand = -1, n_cand = 0, n_exact = 0, exact = -1;
        long extra = s->isa[m] - s->exp[m];
        for (i = 0; i < nd; i++) {
            loc_counts *d = &locs[defs[i]];
            int dm = mn_index(d, mn);
            if (!s->has_op && s->col == 0 && s->line != 0 && d->line != s->line) continue;
            n_cand++;
            cand = i;
            if (d->exp[dm] - d->isa[dm] == extra) { n_exact++; exact = i; }
        }
        s->owner[m] = n_cand == 1 ? cand : n_exact == 1 ? exact : -1;
        if (s->owner[m] >= 0) covered[s->owner[m]] += extra;
    }
    for (i = 0; i < nd; i++) {
        loc_counts *d = &locs[defs[i]];
        int dm = mn_index(d, mn), ok = covered[i] == d->exp[dm] - d->isa[dm];
        /* block evidence: where moved instructions sit, the owner's own and
         * the moved ones together make whole copies of the owner's op */
        for (b = 0; ok && b < n_blocks; b++) {
            long moved = 0, own = block_count(b, d, mn);
            for (j = 0; j < ns; j++) {
                loc_counts *s = &locs[sur[j]];
                if (s->owner[mn_index(s, mn)] == i) moved += block_count(b, s, mn);
            }
            if (moved > 0 && (d->per_op[dm] <= 0 || (own + moved) % d->per_op[dm] != 0)) ok = 0;
        }
        if (!ok) continue;
        d->rule[dm] = R_SPLIT;
        for (j = 0; j < ns; j++) {
            loc_counts *s = &locs[sur[j]];
            k = mn_index(s, mn);
            if (s->owner[k] == i) s->rule[k] = R_SPLIT;
        }
    }
    for (j = 0; j < ns; j++) {
        loc_counts *s = &locs[sur[j]];
        k = mn_index(s, mn);
        if (s->rule[k] != R_SPLIT && positionless(s)) left += s->isa[k];
    }
    return left;
}

/* `ds_{read,write}{,2,2st64}_bN`: direction (1 write, 0 read), bits, paired; 0 if not. */
static int ds_family(const char *mn, int *write, int *bits, int *paired)
{
    const char *p;
    if (strncmp(mn, "ds_write", 8) == 0) { *write = 1; p = mn + 8; }
    else if (strncmp(mn, "ds_read", 7) == 0) { *write = 0; p = mn + 7; }
    else return 0;
    *paired = 0;
    if (strncmp(p, "2st64", 5) == 0) { *paired = 1; p += 5; }
    else if (*p == '2') { *paired = 1; p++; }
    if (strncmp(p, "_b", 2) != 0 || (strcmp(p + 2, "32") != 0 && strcmp(p + 2, "64") != 0)) return 0;
    *bits = atoi(p + 2);
    return 1;
}

/* unpaired at location l for the family of mnemonic index m (see the file
 * comment); marks the family's mnemonics R_UNPAIRED when it holds. */
static void unpaired_family(loc_counts *l, int m)
{
    int w, bits, pr, w2, bits2, pr2, i, j;
    long isa_units = 0, exp_units = 0, isa_single = 0, exp_single = 0;
    if (!ds_family(l->mn[m], &w, &bits, &pr)) return;
    for (i = 0; i < l->n; i++) {
        if (!ds_family(l->mn[i], &w2, &bits2, &pr2) || w2 != w || bits2 != bits) continue;
        isa_units += (pr2 ? 2 : 1) * l->isa[i];
        exp_units += (pr2 ? 2 : 1) * l->exp[i];
        if (!pr2) { isa_single += l->isa[i]; exp_single += l->exp[i]; }
    }
    if (isa_units != exp_units || isa_single <= exp_single) return;
    /* evidence: in each block, every single of the family at l has an
     * address register no other DS instruction at l uses there */
    for (i = 0; i < n_ins; i++) {
        const isa_ins *a = &ins[i];
        if (a->line != l->line || a->col != l->col || !ds_family(a->mn, &w2, &bits2, &pr2) || w2 != w ||
            bits2 != bits || pr2)
            continue;
        if (!a->addr[0]) return;
        for (j = 0; j < n_ins; j++) {
            const isa_ins *o = &ins[j];
            if (j == i || o->block != a->block || o->line != l->line || o->col != l->col) continue;
            if (strncmp(o->mn, "ds_", 3) == 0 && strcmp(o->addr, a->addr) == 0) return;
        }
    }
    for (i = 0; i < l->n; i++)
        if (ds_family(l->mn[i], &w2, &bits2, &pr2) && w2 == w && bits2 == bits && l->isa[i] != l->exp[i] &&
            l->rule[i] == R_OTHER)
            l->rule[i] = R_UNPAIRED;
}

static void test_corpus_per_loc(void)
{
    DIR *d = opendir(corpus_dir);
    struct dirent *e;
    int verbose = getenv("TRITON_LOWER_VERBOSE") != NULL;
    int n_kernels = 0, n_cmp = 0, n_equal = 0, n_differ = 0, i, j;
    int rules[R_N] = {0}, n_scratch_checked = 0, n_zero_locs = 0, n_wgmma_locs = 0, n_full = 0, full_equal = 0, full_per_exec = 0;
    int n_dup_kernels = 0, n_split_moved = 0;
    CHECK_MSG(d != NULL, "no corpus at %s", corpus_dir);
    if (!d) return;
    while ((e = readdir(d)) != NULL) {
        char name[128];
        size_t n = strlen(e->d_name);
        int amd, extra, isa_copies, ttgir_copies, kernel_equal, kernel_per_exec;
        long left = 0;
        if (n < 7 || n > 120 || strcmp(e->d_name + n - 6, ".ttgir") != 0) continue;
        snprintf(name, sizeof name, "%.*s", (int)(n - 6), e->d_name);
        amd = strstr(name, "_gfx9") != NULL;
        if (read_file(name, ".ttgir", ttgir_buf, FILE_CAP) <= 0 ||
            read_file(name, amd ? ".amdgcn" : ".ptx", isa_buf, FILE_CAP) <= 0) {
            CHECK_MSG(0, "%s: unreadable", name);
            continue;
        }
        n_kernels++;
        CHECK_MSG(layout_ttgir_parse(ttgir_buf, strlen(ttgir_buf), &mod, &terr) == LAYOUT_OK, "%s: %s", name,
                  terr.message);
        if (layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) != LAYOUT_OK) {
            CHECK_MSG(0, "%s: %s", name, terr.message);
            continue;
        }
        CHECK_MSG(strcmp(kern.arch.name, amd ? (strstr(name, "gfx942") ? "gfx942" : "gfx950") : "sm_90") == 0,
                  "%s: arch %s", name, kern.arch.name);
        ttgir_loop_lines(ttgir_buf);
        parse_isa(isa_buf);
        CHECK_MSG(!trunc_isa, "%s: the ISA exceeds the test's tables", name);
        n_locs = locs_full = 0;
        for (i = 0; i < kern.n_ops; i++) {
            const layout_triton_kernel_op *r = &kern.ops[i];
            int line, col, m;
            loc_counts *lc;
            if (!loc_line_col(r->loc, &line, &col)) {
                CHECK_MSG(0, "%s: op at line %d has no loc '%s'", name, r->line, r->loc);
                continue;
            }
            if (!(lc = loc_of(line, col))) continue;
            lc->has_op = 1;
            if (r->kind == LAYOUT_TTGIR_WARP_GROUP_DOT) lc->tensor_core = 1;
            if (!r->modelled) {
                lc->all_modelled = 0;
                CHECK_MSG(r->reason[0] != '\0', "%s line %d: not modelled without a reason", name, r->line);
                continue;
            }
            for (j = 0; j < r->n_counts; j++) {
                if ((m = mn_index(lc, r->counts[j].mnemonic)) < 0) continue;
                lc->pred[m] += r->counts[j].count;
                lc->per_op[m] = gcd_l(lc->per_op[m], r->counts[j].count);
                if (r->line > 0 && r->line < MAX_TTGIR_LINES && in_loop[r->line]) lc->loop[m] += r->counts[j].count;
            }
        }
        for (i = 0; i < n_ins; i++) {
            loc_counts *lc = loc_of(ins[i].line, ins[i].col);
            int m = lc ? mn_index(lc, ins[i].mn) : -1;
            if (m >= 0) lc->isa[m]++;
        }
        CHECK_MSG(!locs_full, "%s: more locations or mnemonics than the test's tables", name);
        extra = extra_copies(&isa_copies, &ttgir_copies);
        n_dup_kernels += extra > 0;
        if (verbose && n_isa_loops)
            printf("    %s: ISA loop blocks %d-%d, %d static copies of its body; TTGIR %d: %d extra\n", name, loop_lo,
                   loop_hi, isa_copies, ttgir_copies, extra);
        for (i = 0; i < n_locs; i++)
            for (j = 0; j < locs[i].n; j++) {
                locs[i].exp[j] = locs[i].pred[j] + extra * locs[i].loop[j];
                /* with extra copies the expectation is exp, even where the
                 * ISA happens to hold pred */
                locs[i].rule[j] = locs[i].isa[j] != locs[i].exp[j] ? R_OTHER
                                  : locs[i].exp[j] == locs[i].pred[j] ? R_EQUAL : R_DUP;
                locs[i].owner[j] = -1;
            }
        /* loc-split, once per mnemonic of the kernel, on what dup left */
        for (i = 0; i < n_locs; i++)
            for (j = 0; j < locs[i].n; j++) {
                int seen = 0, k, m;
                for (k = 0; k <= i && !seen; k++)
                    for (m = 0; m < (k == i ? j : locs[k].n); m++)
                        if (strcmp(locs[k].mn[m], locs[i].mn[j]) == 0) seen = 1;
                if (!seen) left += split_mnemonic(locs[i].mn[j]);
            }
        for (i = 0; i < n_locs; i++)
            for (j = 0; j < locs[i].n; j++)
                if (!locs[i].has_op && locs[i].rule[j] == R_SPLIT) n_split_moved += (int)locs[i].isa[j];
        for (i = 0; i < n_locs; i++)
            for (j = 0; j < locs[i].n; j++)
                if (locs[i].has_op && locs[i].all_modelled && locs[i].rule[j] == R_OTHER) unpaired_family(&locs[i], j);
        /* ISA instructions at a location with no op at all (neither line 0
         * nor column 0) belong to nothing the model knows */
        for (i = 0; i < n_locs; i++)
            if (!locs[i].has_op && !positionless(&locs[i]))
                for (j = 0; j < locs[i].n; j++) left += locs[i].isa[j];
        kernel_equal = kernel_per_exec = 1;
        for (i = 0; i < n_locs; i++) {
            const loc_counts *l = &locs[i];
            long npred = 0, nisa = 0;
            int worst = R_EQUAL;
            for (j = 0; j < l->n; j++) {
                npred += l->pred[j];
                nisa += l->isa[j];
                if (l->rule[j] > worst) worst = l->rule[j];
            }
            if (!l->has_op || !l->all_modelled) continue;
            if (worst != R_EQUAL) kernel_equal = 0;
            if (worst > R_DUP) kernel_per_exec = 0;
            if (npred == 0) {
                /* every op here modelled with no instruction (a reduce within
                 * a warp, a register-renaming convert): the ISA has none */
                if (l->tensor_core) n_wgmma_locs++;
                else n_zero_locs++;
                CHECK_MSG(nisa == 0, "%s %d:%d: modelled with no instruction, the ISA has %ld", name, l->line,
                          l->col, nisa);
                continue;
            }
            n_cmp++;
            if (worst == R_EQUAL) {
                n_equal++;
                continue;
            }
            n_differ++;
            rules[worst]++;
            if (verbose || worst == R_OTHER) {
                printf("    %s %s %d:%d: pred/expected/isa", rule_name[worst], name, l->line, l->col);
                for (j = 0; j < l->n; j++)
                    printf(" %s %ld/%ld/%ld (%s)", l->mn[j], l->pred[j], l->exp[j], l->isa[j], rule_name[l->rule[j]]);
                printf("\n");
            }
            CHECK_MSG(worst != R_OTHER, "%s %d:%d differs by no rule the ISA shows", name, l->line, l->col);
        }
        if (verbose)
            for (i = 0; i < n_locs; i++)
                if (!locs[i].has_op)
                    for (j = 0; j < locs[i].n; j++)
                        printf("    moved %s %d:%d: %ld %s (%s)\n", name, locs[i].line, locs[i].col, locs[i].isa[j],
                               locs[i].mn[j], locs[i].rule[j] == R_SPLIT ? "owner found" : "no owner");
        if (kern.n_modelled == kern.n_ops) {
            n_full++;
            full_equal += kernel_equal;
            full_per_exec += kernel_per_exec;
            /* every instruction of a fully modelled kernel has its op */
            CHECK_MSG(left == 0, "%s: %ld ISA instructions without an op (positionless, no owner)", name, left);
        }
        if (strncmp(name, "transpose_", 10) == 0 && amd) {
            static char json[1 << 14];
            const char *p;
            int64_t scratch = 0;
            for (i = 0; i < kern.n_ops; i++)
                if (kern.ops[i].modelled && kern.ops[i].cvt_scratch_bytes > scratch) scratch = kern.ops[i].cvt_scratch_bytes;
            if (read_file(name, ".json", json, sizeof json) > 0 && (p = strstr(json, "\"shared\": ")) != NULL) {
                CHECK_MSG(scratch == atol(p + 10), "%s: scratch %lld, Triton's shared %ld", name, (long long)scratch,
                          atol(p + 10));
                n_scratch_checked++;
            }
        }
    }
    closedir(d);
    printf("test_triton_lower: %d kernels, %d locations fully modelled: %d equal the ISA, %d differ (dup %d, "
           "loc-split %d, unpaired %d, other %d); %d kernels with extra loop copies, %d instructions at positionless "
           "locations given to their op; %d kernels fully modelled: %d equal, %d equal per execution\n",
           n_kernels, n_cmp, n_equal, n_differ, rules[R_DUP], rules[R_SPLIT], rules[R_UNPAIRED], rules[R_OTHER],
           n_dup_kernels, n_split_moved, n_full, full_equal, full_per_exec);
    CHECK_EQ_I64(n_kernels, 66);
    /* Floors: what must not get worse. */
    CHECK_MSG(n_equal >= 104, "%d locations equal the ISA, fewer than 104", n_equal);
    CHECK_MSG(n_full >= 55, "%d kernels fully modelled, fewer than 55", n_full);
    CHECK_MSG(full_equal >= 40, "%d fully modelled kernels equal their ISA at every location, fewer than 40",
              full_equal);
    CHECK_MSG(full_per_exec >= 44, "%d fully modelled kernels equal per execution (equal or dup), fewer than 44",
              full_per_exec);
    /* Known difference (docs/triton.md, "Rules", unpaired): a ceiling.  The
     * fp32 gfx950 matmuls' two are modelled since the base registers follow
     * LLVM's (tidbits.c): none left. */
    CHECK_MSG(rules[R_UNPAIRED] <= 0, "%d locations unpaired, more than 0", rules[R_UNPAIRED]);
    CHECK_EQ_I64(rules[R_OTHER], 0);
    CHECK_EQ_I64(n_equal + rules[R_DUP] + rules[R_SPLIT] + rules[R_UNPAIRED], n_cmp);
    /* Locations whose ops are all modelled with no instruction (attention's
     * tl.max / tl.sum within a warp on 3 targets, one register-only
     * convert, attention's gfx950 convert within a warp: shuffles, 4
     * v_permlane32_swap_b32 at 93:70): the ISA has no shared instruction
     * there either. */
    CHECK_EQ_I64(n_zero_locs, 8);
    /* A warp_group_dot's location: its reads are the tensor core's (wgmma
     * descriptors), no LSU instruction in the op's counts nor in the ISA's
     * shared instructions there: the 12 sm_90 wgmma locations. */
    CHECK_EQ_I64(n_wgmma_locs, 12);
    /* Scratch size: a transpose's only shared memory is its convert's
     * scratch, so the largest cvt_scratch_bytes must equal the "shared"
     * bytes Triton reported for the kernel (the .json beside it). */
    CHECK_EQ_I64(n_scratch_checked, 16);
}

static const char *const hand =
    "#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
    "#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>\n"
    "#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "    %1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable> loc(#loc1)\n"
    "    %2 = ttg.local_load %1 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #col> loc(#loc2)\n"
    "    %3 = ttg.convert_layout %2 : tensor<64x64xf16, #col> -> tensor<64x64xf16, #blocked> loc(#loc2)\n"
    "}\n"
    "#loc1 = loc(\"k.py\":10:5)\n"
    "#loc2 = loc(\"k.py\":11:7)\n";

static void test_hand_written(void)
{
    char buf[4096];
    const char *unswz = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>";
    CHECK_MSG(layout_ttgir_parse(hand, strlen(hand), &mod, &terr) == LAYOUT_OK, "%s", terr.message);
    CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK, "%s", terr.message);
    if (kern.n_ops != 3) {
        CHECK_EQ_I64(kern.n_ops, 3);
        return;
    }
    CHECK_STR_CONTAINS(kern.arch.name, "gfx942");
    /* Store: 8 contiguous f16 per thread (sizePerThread [1, 8]) and vec = 8
     * in the swizzle keep them contiguous in shared memory: 128 bits, one
     * ds_write_b128 per thread; 64x64 / 256 threads = 16 elements = 2 accesses. */
    CHECK_EQ_I64(kern.ops[0].modelled, 1);
    CHECK_EQ_I64(kern.ops[0].vec_bits, 128);
    CHECK_EQ_I64(kern.ops[0].n_accesses, 2);
    CHECK_STR_CONTAINS(kern.ops[0].counts[0].mnemonic, "ds_write_b128");
    CHECK_EQ_I64(kern.ops[0].counts[0].count, 2);
    CHECK_STR_CONTAINS(kern.ops[0].loc, "k.py\":10:5");
    /* Load down a column (lanes along dim 0): one element per access, ds_read_u16. */
    CHECK_EQ_I64(kern.ops[1].vec_elems, 1);
    CHECK_STR_CONTAINS(kern.ops[1].counts[0].mnemonic, "ds_read_u16");
    CHECK_EQ_I64(kern.ops[1].counts[0].count, 16);
    /* The convert #col -> #blocked crosses warps: through shared memory.
     * By Triton's optimalSwizzlingLdSt (GenericSwizzling.cpp): the only
     * register basis common to both layouts is column 4 (#col's first
     * register, #blocked's third), so vbasis = [column 4]: 2 x 16 = 32
     * bits, no bank fill; the store puts #col's registers 0 and 1 (columns
     * 4 apart) in one 32-bit word: vector 2.  No segment basis is a
     * register of both sides: one round, the whole 64 x 64 f16 tile, 8 KiB. */
    CHECK_MSG(kern.ops[2].modelled, "%s", kern.ops[2].reason);
    CHECK_EQ_I64(kern.ops[2].vec_elems, 2);
    CHECK_EQ_I64(kern.ops[2].cvt_reps, 1);
    CHECK_EQ_I64(kern.ops[2].cvt_scratch_bytes, 8192);
    /* Brute force, access 0 of the store (no access conflicts, so it is the
     * one kept as the worst): lane l of warp 0 holds, by the blocked
     * formula, row l / 8 and columns 8 (l % 8) .. +7 of register 0..7; the
     * swizzled_shared formula (Triton's TritonGPUAttrDefs.td: phase = (row
     * / perPhase) % maxPhase, column vector index XOR phase) puts it at
     * row * 64 + ((col / 8) ^ (row % 8)) * 8 + col % 8, times 2 bytes. */
    CHECK_EQ_I64(kern.ops[0].worst_access, 0);
    {
        int l, bad = 0;
        for (l = 0; l < 64; l++) {
            int row = l / 8, col = 8 * (l % 8);
            uint32_t want = (uint32_t)(row * 64 + (((col / 8) ^ (row % 8)) * 8) + col % 8) * 2;
            if (kern.ops[0].worst.addr_bytes[l] != want) bad++;
        }
        CHECK_EQ_I64(bad, 0);
        CHECK_EQ_I64(kern.ops[0].worst.width_bytes, 16);
    }
    /* The same column read without the swizzle: 64 lanes on 64 rows of 128
     * bytes, all in bank 0's column: gfx942's 2-byte reads conflict. */
    CHECK(layout_triton_kernel_op_cost(&kern, 1, unswz, strlen(unswz), &rep, &terr) == LAYOUT_OK);
    CHECK_EQ_I64(rep.modelled, 1);
    CHECK_MSG(rep.extra_cycles > kern.ops[1].extra_cycles, "unswizzled %lld <= swizzled %lld",
              (long long)rep.extra_cycles, (long long)kern.ops[1].extra_cycles);
    /* Every access alike, so access 0 is the worst: lane l reads row l,
     * column 0 of the unswizzled 64 x 64 tile, byte l * 128. */
    {
        int l, bad = 0;
        for (l = 0; l < 64; l++)
            if (rep.worst.addr_bytes[l] != (uint32_t)l * 128) bad++;
        CHECK_EQ_I64(bad, 0);
        CHECK_EQ_I64(rep.worst_access, 0);
    }
    CHECK(layout_triton_kernel_op_explain(&kern, &rep, buf, sizeof buf, &terr) == LAYOUT_OK);
    CHECK_STR_CONTAINS(buf, "gfx942");
    CHECK_STR_CONTAINS(buf, "-way");
    /* The same column read from a padded_shared tile (2 elements of padding
     * every 64, Triton's applyPadding: byte b -> b + (b >> 7) << 2): lane l
     * reads row l at byte 128 l + 4 l = 132 l, bank (33 l) mod 32 = l mod
     * 32, so every half-wave hits 32 distinct banks: conflict-free.  Padded
     * layouts cap the vector at the smallest interval (here 64, no cap). */
    {
        const char *padded = "#ttg.padded_shared<[64:+2] {order = [1, 0], shape = [64, 64]}>";
        int l, bad = 0;
        CHECK(layout_triton_kernel_op_cost(&kern, 1, padded, strlen(padded), &rep, &terr) == LAYOUT_OK);
        CHECK_MSG(rep.modelled, "%s", rep.reason);
        CHECK_EQ_I64(rep.extra_cycles, 0);
        for (l = 0; l < 64; l++)
            if (rep.worst.addr_bytes[l] != (uint32_t)l * 132) bad++;
        CHECK_EQ_I64(bad, 0);
        /* The store through it: 8 contiguous f16 (16 bytes), padding every
         * 4 elements caps the vector at 4: 4 b64 accesses per thread, at
         * padded byte offsets 0, 16 (column + 4) and 8192, 8208 (row + 32),
         * all clear of the lane and warp bits; but each constant has its own
         * padding term (0, 8, 4096, 4104 bytes), and Triton 3.6's AMDGCN
         * pairs no two accesses whose padding terms differ (the Gluon
         * fixtures g230, g241, g284, g286, g309: ds_write_b32 at offset:64
         * on another base register than offset 0), so 4 ds_write_b64. */
        padded = "#ttg.padded_shared<[4:+4] {order = [1, 0], shape = [64, 64]}>";
        CHECK(layout_triton_kernel_op_cost(&kern, 0, padded, strlen(padded), &rep, &terr) == LAYOUT_OK);
        CHECK_MSG(rep.modelled, "%s", rep.reason);
        CHECK_EQ_I64(rep.vec_elems, 4);
        CHECK_EQ_I64(rep.n_accesses, 4);
        CHECK_EQ_I64(rep.n_counts, 1);
        CHECK_STR_CONTAINS(rep.counts[0].mnemonic, "ds_write_b64");
        CHECK_EQ_I64(rep.counts[0].count, 4);
    }
    /* op_cost with NULL = as written, field for field. */
    CHECK(layout_triton_kernel_op_cost(&kern, 1, NULL, 0, &rep, &terr) == LAYOUT_OK);
    CHECK(memcmp(&rep, &kern.ops[1], sizeof rep) == 0);
    /* A candidate that is not a layout: a report saying why, no error. */
    CHECK(layout_triton_kernel_op_cost(&kern, 1, "#ttg.nonsense<{}>", 17, &rep, &terr) == LAYOUT_OK);
    CHECK_EQ_I64(rep.modelled, 0);
    CHECK_STR_CONTAINS(rep.reason, "shared layout not read");
    CHECK(layout_triton_kernel_op_cost(&kern, 3, NULL, 0, &rep, &terr) == LAYOUT_ERR_ARG);
    CHECK(layout_triton_kernel_op_cost(NULL, 0, NULL, 0, &rep, &terr) == LAYOUT_ERR_NULL);
}

/* divideLeft: two registers hold adjacent columns (offset 1), but the
 * swizzle (vec 1, maxPhase 8) XORs the row into column bit 0, so the lane
 * bases (rows) touch offset bit 0 and Triton's largestVectorisation cannot
 * split off a 2-element tile: vector 1, two ds_write_b16 per thread (a
 * 64 x 2 tile, one row per lane, one warp). */
static const char *const divide =
    "#b = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [64, 1], warpsPerCTA = [1, 1], order = [1, 0]}>\n"
    "#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n"
    "module attributes {\"ttg.num-warps\" = 1 : i32, ttg.target = \"hip:gfx942\", \"ttg.threads-per-warp\" = 64 : i32} {\n"
    "    %1 = ttg.local_alloc %0 : (tensor<64x2xf16, #b>) -> !ttg.memdesc<64x2xf16, #s, #smem, mutable>\n"
    "}\n";

static void test_divide_left(void)
{
    const char *plain = "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 1, order = [1, 0]}>";
    CHECK_MSG(layout_ttgir_parse(divide, strlen(divide), &mod, &terr) == LAYOUT_OK, "%s", terr.message);
    CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK, "%s", terr.message);
    if (kern.n_ops != 1 || !kern.ops[0].modelled) {
        CHECK_MSG(0, "%d ops, %s", kern.n_ops, kern.n_ops ? kern.ops[0].reason : "");
        return;
    }
    CHECK_EQ_I64(kern.ops[0].vec_elems, 1);
    CHECK_STR_CONTAINS(kern.ops[0].counts[0].mnemonic, "ds_write_b16");
    CHECK_EQ_I64(kern.ops[0].counts[0].count, 2);
    /* Without the swizzle the two columns stay adjacent: one ds_write_b32. */
    CHECK(layout_triton_kernel_op_cost(&kern, 0, plain, strlen(plain), &rep, &terr) == LAYOUT_OK);
    CHECK_EQ_I64(rep.vec_elems, 2);
    CHECK_STR_CONTAINS(rep.counts[0].mnemonic, "ds_write_b32");
    CHECK_EQ_I64(rep.counts[0].count, 1);
}

/* Split one CSV line into fields (quotes may hold commas: "2,048"); the
 * number of fields. */
static int csv_fields(const char *line, char fields[][64], int max)
{
    int n = 0, q = 0;
    size_t k = 0;
    for (; *line && *line != '\n' && n < max; line++) {
        if (*line == '"') { q = !q; continue; }
        if (*line == ',' && !q) {
            fields[n][k] = '\0';
            n++;
            k = 0;
            continue;
        }
        if (*line != ',' && k + 1 < sizeof fields[0]) fields[n][k++] = *line;
    }
    if (n < max) fields[n++][k] = '\0';
    return n;
}

/* ncu on an H100 (tests/fixtures/triton/kernels/ncu_sm90.csv): what can be
 * compared without modelling every op.  ncu sums each counter over the whole
 * kernel (every CTA, every loop trip, every shared instruction, modelled or
 * not), so the only sound comparison today is one-sided: a kernel measured
 * with 0 bank conflicts on loads and on stores must have 0 predicted for
 * every modelled op (each runs at least once: K = 256 gives 4 loop trips).
 * Kernels with measured conflicts are only reported. */
static void test_ncu_zero_conflicts(void)
{
    static char csv[1 << 16];
    char fields[16][64], *line, *save = NULL;
    int n_kernels = 0, n_ops = 0, n_async = 0, n_wgmma = 0, n_conflicted_kernels = 0, n_full_cmp = 0;
    if (read_file("ncu_sm90", ".csv", csv, sizeof csv) <= 0) {
        CHECK_MSG(0, "no ncu_sm90.csv in %s", corpus_dir);
        return;
    }
    for (line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int nf = csv_fields(line, fields, 16), i;
        long ld_conf, st_conf;
        if (nf < 12 || strstr(fields[0], "_sm90") == NULL) continue;
        ld_conf = strtol(fields[6], NULL, 10);
        st_conf = strtol(fields[7], NULL, 10);
        if (read_file(fields[0], ".ttgir", ttgir_buf, FILE_CAP) <= 0) {
            CHECK_MSG(0, "%s: no TTGIR", fields[0]);
            continue;
        }
        CHECK(layout_ttgir_parse(ttgir_buf, strlen(ttgir_buf), &mod, &terr) == LAYOUT_OK);
        CHECK(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK);
        n_kernels++;
        /* Fully modelled kernels without a loop (the fp32 transposes on
         * sm_90): every counter is compared, times the warps of the grid
         * (block threads / 32 x grid CTAs); the convert's report holds its
         * stores and loads, so wavefronts and conflicts are compared as
         * loads + stores. */
        if (kern.n_modelled == kern.n_ops && strncmp(fields[0], "transpose_", 10) == 0) {
            int bx = 0, gx = 0, gy = 0;
            int64_t w, st_i = 0, ld_i = 0, wf = 0, conf = 0;
            sscanf(fields[3], "(%d", &bx);
            if (sscanf(fields[4], "(%d %d", &gx, &gy) != 2) gx = gy = 0;
            w = (int64_t)(bx / 32) * gx * gy;
            for (i = 0; i < kern.n_ops; i++) {
                int c;
                for (c = 0; c < kern.ops[i].n_counts; c++) {
                    /* smsp__inst_executed_op_shared_{st,ld} leave out stmatrix /
                     * ldmatrix (the fp16 transposes: 256 = 4 st.shared.v4 x 64
                     * warps stores, 0 loads, their ldmatrix.x4.trans uncounted);
                     * the l1tex wavefront and conflict counters include them */
                    if (strncmp(kern.ops[i].counts[c].mnemonic, "st.shared", 9) == 0) st_i += kern.ops[i].counts[c].count;
                    if (strncmp(kern.ops[i].counts[c].mnemonic, "ld.shared", 9) == 0) ld_i += kern.ops[i].counts[c].count;
                }
                wf += kern.ops[i].total_cycles;
                conf += kern.ops[i].extra_cycles;
            }
            CHECK_MSG(st_i * w == strtol(fields[11], NULL, 10) && ld_i * w == strtol(fields[10], NULL, 10),
                      "%s: %lld / %lld st / ld instructions x %lld warps, ncu %s / %s", fields[0], (long long)st_i,
                      (long long)ld_i, (long long)w, fields[11], fields[10]);
            CHECK_MSG(wf * w == strtol(fields[8], NULL, 10) + strtol(fields[9], NULL, 10),
                      "%s: %lld wavefronts x %lld warps, ncu %s + %s", fields[0], (long long)wf, (long long)w, fields[8],
                      fields[9]);
            CHECK_MSG(conf * w == ld_conf + st_conf, "%s: %lld conflicts x %lld, ncu %ld", fields[0], (long long)conf,
                      (long long)w, ld_conf + st_conf);
            n_full_cmp++;
        }
        if (ld_conf != 0 || st_conf != 0) {
            /* Known answer: each op of these kernels (not pipelined: the
             * local_allocs are inside the loop) runs once per warp per trip,
             * warps = block threads / 32 x grid, trips = K / BLOCK_K with
             * K = 256 (gen_kernels.py cmd_run).  Their modelled stores'
             * conflicts times that must not exceed the measured total (the
             * epilogue convert_layout adds its own). */
            int bx = 0, gx = 0, gy = 0, bk = 0, bm = 0, bn = 0;
            int64_t pred_st = 0, mult;
            sscanf(fields[3], "(%d", &bx);
            if (sscanf(fields[4], "(%d %d", &gx, &gy) != 2) gx = gy = 0; /* csv_fields drops quoted commas */
            sscanf(fields[0], "matmul_fp8_%dx%dx%d", &bm, &bn, &bk);
            for (i = 0; i < kern.n_ops; i++)
                if (kern.ops[i].modelled && kern.ops[i].direction == LAYOUT_WRITE &&
                    kern.ops[i].kind != LAYOUT_TTGIR_ASYNC_COPY)
                    pred_st += kern.ops[i].extra_cycles;
            mult = (int64_t)(bx / 32) * gx * gy * (bk ? 256 / bk : 0);
            CHECK_MSG(mult > 0 && pred_st * mult <= st_conf, "%s: %lld x %lld predicted store conflicts > %ld measured",
                      fields[0], (long long)pred_st, (long long)mult, st_conf);
            /* matmul_fp8_64x64x32: 48 per warp x 512 = 24,576, the measured
             * total exactly (the epilogue's stores measured conflict-free). */
            if (strcmp(fields[0], "matmul_fp8_64x64x32_w4_s2_sm90") == 0) {
                CHECK_EQ_I64(pred_st, 48);
                CHECK_EQ_I64(pred_st * mult, st_conf);
            }
            n_conflicted_kernels++;
            printf("test_triton_lower: ncu %s: %ld load / %ld store bank conflicts measured; %d of %d ops modelled "
                   "(%lld conflicts predicted per warp)\n",
                   fields[0], ld_conf, st_conf, kern.n_modelled, kern.n_ops, (long long)kern.extra_cycles);
            continue;
        }
        for (i = 0; i < kern.n_ops; i++) {
            if (!kern.ops[i].modelled) continue;
            /* cp.async (LDGSTS) is not in ncu's shared op_st counters: the
             * fp16 and fp32 64x64x32 matmuls both measure 512 shared-store
             * instructions although the fp32 one issues 8x the cp.async per
             * warp per trip (16-bit x 8 vs 32-bit x 1 per copy); the 4-way
             * conflicts predicted for the fp32 B tile's 4-byte copies
             * (transposed nvmma_shared, lanes 8 rows apart) are not seen by
             * these counters. */
            if (kern.ops[i].kind == LAYOUT_TTGIR_ASYNC_COPY) { n_async++; continue; }
            /* the tensor core's reads: ncu counts them apart (op_gmma), the
             * model none (tests/fixtures/triton/corpus/gmma) */
            if (kern.ops[i].kind == LAYOUT_TTGIR_WARP_GROUP_DOT) {
                n_wgmma++;
                CHECK_EQ_I64(kern.ops[i].extra_cycles, 0);
                continue;
            }
            n_ops++;
            CHECK_MSG(kern.ops[i].extra_cycles == 0, "%s line %d: ncu measured no bank conflict, %lld predicted",
                      fields[0], kern.ops[i].line, (long long)kern.ops[i].extra_cycles);
        }
    }
    printf("test_triton_lower: ncu: %d sm_90 kernels, %d measured conflict-free, their %d modelled ops predict 0 "
           "conflicts; %d kernels with measured conflicts (reported only)\n",
           n_kernels, n_kernels - n_conflicted_kernels, n_ops, n_conflicted_kernels);
    CHECK_EQ_I64(n_kernels, 22);
    CHECK_EQ_I64(n_ops, 47); /* the tt.reduce of rowsum (scratch) and attention's two (within a warp, no instruction); with the 12 matmul epilogues and 6 transposes (convert_layout), one register-only convert, rowsum's result convert (within a warp; cvtNeedsWarpShuffle declines: its scratch); the A, B stores (st.shared.b16) of the fp16 / bf16 matmuls and attention, and the
                              * ldmatrix reads of the 32x32x64 ones; cp.async left out (n_async) */
    CHECK_EQ_I64(n_async, 8);
    CHECK_EQ_I64(n_wgmma, 10); /* the warp_group_dots of the conflict-free kernels, 0 conflicts each */
    CHECK_EQ_I64(n_full_cmp, 8); /* the 8 sm_90 transposes */ /* the fp32 matmuls' A and B copies, 2 static copies each */
}

/* ttg.convert_layout's three paths (convert.c), each with a known answer:
 * identical layouts only rename registers (Triton's transferWithinThread:
 * no instruction); on sm_90 a fp16 transpose finds a tile pair in
 * Triton's tile search (its PTX, `grep -c`: 4 st.shared.v4.b32 and 4
 * ldmatrix.x4.trans per warp); a fp32 one finds none and goes through the
 * ld/st scratch (its PTX: 32 st.shared.b32 and 32 ld.shared.b32). */
static const char *const same =
    "#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
    "#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [0, 1]}>\n"
    "module attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\", \"ttg.threads-per-warp\" = 64 : i32} {\n"
    "    %1 = ttg.convert_layout %0 : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>\n"
    "}\n";

static void test_convert_paths(void)
{
    int i;
    CHECK_MSG(layout_ttgir_parse(same, strlen(same), &mod, &terr) == LAYOUT_OK, "%s", terr.message);
    CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK, "%s", terr.message);
    if (kern.n_ops == 1) {
        CHECK_MSG(kern.ops[0].modelled, "%s", kern.ops[0].reason);
        CHECK_EQ_I64(kern.ops[0].n_counts, 0);
        CHECK_EQ_I64(kern.ops[0].n_accesses, 0);
    } else {
        CHECK_EQ_I64(kern.n_ops, 1);
    }
    CHECK(read_file("transpose_fp16_64x64_w4_s1_sm90", ".ttgir", ttgir_buf, FILE_CAP) > 0);
    CHECK(layout_ttgir_parse(ttgir_buf, strlen(ttgir_buf), &mod, &terr) == LAYOUT_OK);
    CHECK(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK);
    CHECK_EQ_I64(kern.n_ops, 1);
    CHECK_MSG(kern.ops[0].modelled, "%s", kern.ops[0].reason);
    for (i = 0; i < kern.ops[0].n_counts; i++) {
        CHECK_EQ_I64(kern.ops[0].counts[i].count, 4);
        CHECK(strcmp(kern.ops[0].counts[i].mnemonic, "st.shared.v4.b32") == 0 ||
              strcmp(kern.ops[0].counts[i].mnemonic, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16") == 0);
    }
    CHECK_EQ_I64(kern.ops[0].n_counts, 2);
    CHECK(read_file("transpose_fp32_64x64_w4_s1_sm90", ".ttgir", ttgir_buf, FILE_CAP) > 0);
    CHECK(layout_ttgir_parse(ttgir_buf, strlen(ttgir_buf), &mod, &terr) == LAYOUT_OK);
    CHECK(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK);
    CHECK_EQ_I64(kern.n_ops, 1);
    CHECK_MSG(kern.ops[0].modelled, "%s", kern.ops[0].reason);
    for (i = 0; i < kern.ops[0].n_counts; i++) {
        CHECK_EQ_I64(kern.ops[0].counts[i].count, 32);
        CHECK(strcmp(kern.ops[0].counts[i].mnemonic, "st.shared.b32") == 0 ||
              strcmp(kern.ops[0].counts[i].mnemonic, "ld.shared.b32") == 0);
    }
    CHECK_EQ_I64(kern.ops[0].n_counts, 2);
    CHECK_EQ_I64(kern.ops[0].cvt_scratch_bytes, 16384); /* the .json's "shared": 16384 */
}

static void test_targets(void)
{
    layout_arch a;
    CHECK(layout_triton_kernel_target_arch("hip:gfx950", &a, &terr) == LAYOUT_OK);
    CHECK_STR_CONTAINS(a.name, "gfx950");
    CHECK(layout_triton_kernel_target_arch("cuda:90", &a, &terr) == LAYOUT_OK);
    CHECK_STR_CONTAINS(a.name, "sm_90");
    CHECK(layout_triton_kernel_target_arch("cuda:7", &a, &terr) == LAYOUT_ERR_ARG);
    CHECK(layout_triton_kernel_target_arch("tpu", &a, &terr) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(terr.message, "tpu");
}

/* The confidence of each op's cost rule: a transposing read is low (no bank
 * rule is published or measured for ds_read_b64_tr_b16); any other op takes
 * the least of the arch's bank confidence and the lane rule of its direction
 * and width, read here independently from the preset (arch.h). */
static void test_confidence(void)
{
    const char *note;
    int n_tr = 0, n_other = 0;
    CHECK(read_file("matmul_fp16_64x64x32_w4_s2_gfx950", ".ttgir", ttgir_buf, FILE_CAP) > 0);
    CHECK(layout_ttgir_parse(ttgir_buf, strlen(ttgir_buf), &mod, &terr) == LAYOUT_OK);
    CHECK(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK);
    for (int i = 0; i < kern.n_ops; i++) {
        const layout_triton_kernel_op *r = &kern.ops[i];
        layout_confidence c = layout_triton_kernel_op_confidence(&kern, r, &note);
        if (!r->modelled) continue;
        if (strstr(r->counts[0].mnemonic, "_tr_")) {
            n_tr++;
            CHECK(c == LAYOUT_CONFIDENCE_LOW);
            CHECK_STR_CONTAINS(note, "transposing read");
        } else {
            const layout_lane_rule *rule = layout_arch_rule(&kern.arch, r->direction, r->vec_bits / 8);
            layout_confidence want = kern.arch.bank_confidence;
            CHECK(rule != NULL && rule->supported);
            if (rule && rule->confidence < want) want = rule->confidence;
            n_other++;
            CHECK(c == want);
            CHECK(note[0] == '\0');
        }
    }
    CHECK_EQ_I64(n_tr, 2);     /* B's two local_loads (the loop body and the prologue's) */
    CHECK_EQ_I64(n_other, 6);
    /* gfx950's 2-byte writes are its low-confidence narrow widths; b128 reads are high */
    CHECK(layout_triton_kernel_op_confidence(&kern, &kern.ops[0], NULL) == LAYOUT_CONFIDENCE_LOW);
    CHECK(layout_triton_kernel_op_confidence(&kern, &kern.ops[2], NULL) == LAYOUT_CONFIDENCE_HIGH);
    CHECK(layout_triton_kernel_op_confidence(NULL, NULL, &note) == LAYOUT_CONFIDENCE_LOW);
    CHECK_STR_CONTAINS(note, "not modelled");
}

/* tt.reduce across warps, by hand from ReduceOpToLLVM.cpp (triton-lang/triton
 * 9c3434b3): 4 warps along dim 0 of a 4 x 32 f32 tensor, lanes along dim 1,
 * reduced over dim 0.  Scratch shape [4 warps, 32] linearised axis first:
 * element (w, c) at w + 4 c, 512 bytes.  storeWarpReduceToSharedMemory:
 * lane l of warp 0 writes element 4 l, byte 16 l: 32 lanes over 512 bytes,
 * 4 lanes per bank -> 4 wavefronts, 3 conflicts.  accumulatePartialReductions:
 * 128 elements / 128 threads = 1 round; lane l reads byte 4 l (1 wavefront),
 * lanes l % 4 == 0 write it back (8 lanes, 1 wavefront).
 * loadReductionAndPackResult: lane l reads (0, l) = byte 16 l: 4 wavefronts,
 * 3 conflicts.  Total 2 st.shared.b32, 2 ld.shared.b32, 10 wavefronts, 6
 * conflicts.  Along dim 1 instead (lanes only) the reduce stays in a warp:
 * shuffles, no instruction.  The 1-D operand (128 f32, 4 warps of 32):
 * scratch [4], 16 bytes; lane 0 of each warp stores its total at element
 * warpIdAxis (warp 0: byte 0); 4 elements < 128 threads: one round, lanes
 * 0 .. 3 load bytes 0 .. 12, lane 0 stores; the 0-d result: every lane
 * loads byte 0.  2 st.shared.b32, 2 ld.shared.b32, one wavefront each;
 * over the CTA the step-1 store and the result load of 4 warps, the
 * round's load and store of warp 0 alone (warps 1 .. 3 have no thread
 * below 4): 10 wavefronts. */
static const char *const reduce_hand =
    "#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
    "#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"cuda:90\", "
    "\"ttg.threads-per-warp\" = 32 : i32} {\n"
    "    %1 = \"tt.reduce\"(%0) <{axis = 0 : i32}> ({\n"
    "    ^bb0(%a: f32, %b: f32):\n"
    "      %s = arith.addf %a, %b : f32\n"
    "      tt.reduce.return %s : f32\n"
    "    }) : (tensor<4x32xf32, #b>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #b}>> loc(#loc1)\n"
    "    %2 = \"tt.reduce\"(%0) <{axis = 1 : i32}> ({\n"
    "    ^bb0(%a: f32, %b: f32):\n"
    "      %s = arith.addf %a, %b : f32\n"
    "      tt.reduce.return %s : f32\n"
    "    }) : (tensor<4x32xf32, #b>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #b}>> loc(#loc1)\n"
    "    %3 = \"tt.reduce\"(%9) <{axis = 0 : i32}> ({\n"
    "    ^bb0(%a: f32, %b: f32):\n"
    "      %s = arith.addf %a, %b : f32\n"
    "      tt.reduce.return %s : f32\n"
    "    }) : (tensor<128xf32, #b1>) -> f32 loc(#loc1)\n"
    "}\n"
    "#loc1 = loc(\"k.py\":3:9)\n";

static int64_t count_of(const layout_triton_kernel_op *r, const char *mn)
{
    for (int j = 0; j < r->n_counts; j++)
        if (strcmp(r->counts[j].mnemonic, mn) == 0) return r->counts[j].count;
    return 0;
}

static void test_reduce(void)
{
    static const char *const arch[3] = {"sm90", "gfx942", "gfx950"};
    CHECK_MSG(layout_ttgir_parse(reduce_hand, strlen(reduce_hand), &mod, &terr) == LAYOUT_OK, "%s", terr.message);
    CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK, "%s", terr.message);
    if (kern.n_ops != 3) {
        CHECK_EQ_I64(kern.n_ops, 3);
        return;
    }
    CHECK_MSG(kern.ops[0].modelled, "%s", kern.ops[0].reason);
    CHECK_EQ_I64(count_of(&kern.ops[0], "st.shared.b32"), 2);
    CHECK_EQ_I64(count_of(&kern.ops[0], "ld.shared.b32"), 2);
    CHECK_EQ_I64(kern.ops[0].n_accesses, 4);
    CHECK_EQ_I64(kern.ops[0].total_cycles, 10);
    CHECK_EQ_I64(kern.ops[0].extra_cycles, 6);
    CHECK_EQ_I64(kern.ops[0].n_conflicted, 2);
    CHECK_EQ_I64(kern.ops[0].worst_nway, 4);
    CHECK_EQ_I64(kern.ops[0].cvt_scratch_bytes, 512);
    CHECK_EQ_I64(kern.ops[1].modelled, 1);
    CHECK_EQ_I64(kern.ops[1].n_counts, 0);
    CHECK_EQ_I64(kern.ops[1].n_accesses, 0);
    CHECK_EQ_I64(kern.ops[0].cta_total_cycles, 40);
    CHECK_EQ_I64(kern.ops[0].cta_extra_cycles, 24);
    CHECK_MSG(kern.ops[2].modelled, "%s", kern.ops[2].reason);
    CHECK_EQ_I64(count_of(&kern.ops[2], "st.shared.b32"), 2);
    CHECK_EQ_I64(count_of(&kern.ops[2], "ld.shared.b32"), 2);
    CHECK_EQ_I64(kern.ops[2].n_accesses, 4);
    CHECK_EQ_I64(kern.ops[2].total_cycles, 4);
    CHECK_EQ_I64(kern.ops[2].extra_cycles, 0);
    CHECK_EQ_I64(kern.ops[2].cvt_scratch_bytes, 16);
    CHECK_EQ_I64(kern.ops[2].cta_total_cycles, 10);

    /* The corpus rowsum (16 x 256 f32, 8 warps): on sm_90 the warps are all
     * along the row ([1, 8]): 16 accumulators -> 16 st.shared.b32 (lane 0
     * of each warp, PTX `@%p1 st.shared.b32`), one accumulation round
     * (16 x 8 = 128 elements < 256 threads: 1 ld + 1 st), 16 result loads
     * (`ld.shared.b32 [global_smem+32 k]`): 17 + 17, scratch 8 x 16 x 4 =
     * 512 bytes = the .json's "shared".  On gfx942 / gfx950 ([2, 4] warps)
     * 8 accumulators + 1 each: 9 ds_write_b32, 9 ds_read_b32, scratch
     * 4 x 16 x 4 = 256 = "shared".  ncu measured rowsum conflict-free; the
     * model finds none (the lone-lane stores, the consecutive accumulation,
     * the broadcast result loads). */
    for (int a = 0; a < 3; a++) {
        char name[96];
        int amd = a > 0, i, found = 0;
        snprintf(name, sizeof name, "rowsum_fp16_16x256_w8_s1_%s", arch[a]);
        if (read_file(name, ".ttgir", ttgir_buf, FILE_CAP) <= 0) {
            CHECK_MSG(0, "%s: unreadable", name);
            continue;
        }
        CHECK_MSG(layout_ttgir_parse(ttgir_buf, strlen(ttgir_buf), &mod, &terr) == LAYOUT_OK, "%s", terr.message);
        CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK, "%s", terr.message);
        for (i = 0; i < kern.n_ops; i++) {
            const layout_triton_kernel_op *r = &kern.ops[i];
            if (r->kind != LAYOUT_TTGIR_REDUCE) continue;
            found++;
            CHECK_MSG(r->modelled, "%s: %s", name, r->reason);
            CHECK_EQ_I64(count_of(r, amd ? "ds_write_b32" : "st.shared.b32"), amd ? 9 : 17);
            CHECK_EQ_I64(count_of(r, amd ? "ds_read_b32" : "ld.shared.b32"), amd ? 9 : 17);
            CHECK_EQ_I64(r->cvt_scratch_bytes, amd ? 256 : 512);
            CHECK_EQ_I64(r->extra_cycles, 0);
            if (!amd) CHECK_EQ_I64(r->total_cycles, 34); /* one wavefront per access */
        }
        CHECK_EQ_I64(found, 1);
    }
}

/* tt.reduce of any rank and of several operands, by hand from
 * ReduceOpToLLVM.cpp, ReduceScanCommon.h (getSmemBases) and ReduceOpHelper
 * (triton-lang/triton 9c3434b3).
 *
 * 3-D: tensor<2x4x32xf32>, blocked [1, 1, 1] / [1, 1, 32] / [2, 2, 1],
 * order [2, 1, 0], 4 warps, reduced over dim 1.  Lanes along dim 2, warp
 * bit 0 along dim 1 (S = 2), warp bit 1 along dim 0, one register basis
 * (0, 2, 0) along the axis: one accumulator.  getOrder: the register's dim
 * 1, then 2, 0: [1, 2, 0], the axis first already; scratch [2, 2, 32]
 * with strides dim1 1, dim2 2, dim0 64: 128 elements, 512 bytes.
 *   1. lane l of warp w (no lane along the axis: all store) at element
 *      (w & 1) + 2 l + 64 (w >> 1): warp 0 at bytes 8 l, lanes l and
 *      l + 16 on one bank: 2 wavefronts, 1 conflict;
 *   2. 128 elements = 128 threads: one round; thread t loads byte 4 t
 *      (1 wavefront), the even lanes store it back (1 wavefront);
 *   3. the result (2 x 32) at element 2 l + 64 (w >> 1): 2 wavefronts, 1
 *      conflict.
 * Per warp 2 st.shared.b32, 2 ld.shared.b32, 6 wavefronts, 2 conflicts;
 * every warp alike: 24 and 8 over the CTA.
 *
 * Two operands (tl.argmax's value and index): f16 and i32 of 8 x 32,
 * blocked [1, 1] / [1, 32] / [4, 1], 4 warps, over dim 0; S = 4, scratch
 * [4, 32] (order [0, 1]: element w + 4 c), 128 elements per operand, the
 * i32 first (widest) at byte 0, the f16 at byte 512: 768 bytes.  Only
 * the index result (#1) is used: LLVM drops the value's result loads.
 *   1. f16 at 512 + 2 (w + 4 l): warp 0 bytes 512 + 8 l, 2-way: 2
 *      wavefronts; i32 at 4 (w + 4 l) = 16 l: 4-way, 4 wavefronts;
 *   2. one round: each operand's load at t (1 wavefront each), the stores
 *      of lanes l % 4 = 0 (1 each);
 *   3. the i32 result at element 4 l: 4 wavefronts, 3 conflicts.
 * 2 st.shared.b16, 2 st.shared.b32, 1 ld.shared.b16, 2 ld.shared.b32; 14
 * wavefronts, 7 conflicts; every warp alike (a warp's offset moves all
 * lanes by the same word or half word): 56 and 28.
 *
 * On gfx942 with both operands 32-bit (i32 value and index, 8 x 64, 64
 * lanes): bases 0 and 256 elements, which SILoadStoreOptimizer's st64
 * form joins (both offsets multiples of 64 elements): step 1's two stores
 * (no lane along the axis: one block) -> ds_write2st64_b32; the round's
 * two loads (256 elements = 256 threads: no predicate, one block) ->
 * ds_read2st64_b32 and its two stores -> ds_write2st64_b32; the used
 * index result: one ds_read_b32. */
static const char *const reduce_nd_hand =
    "#b3 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>\n"
    "#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"cuda:90\", "
    "\"ttg.threads-per-warp\" = 32 : i32} {\n"
    "    %1 = \"tt.reduce\"(%0) <{axis = 1 : i32}> ({\n"
    "    ^bb0(%a: f32, %b: f32):\n"
    "      %s = arith.addf %a, %b : f32\n"
    "      tt.reduce.return %s : f32\n"
    "    }) : (tensor<2x4x32xf32, #b3>) -> tensor<2x32xf32, #ttg.slice<{dim = 1, parent = #b3}>> loc(#loc1)\n"
    "    %4:2 = \"tt.reduce\"(%2, %3) <{axis = 0 : i32}> ({\n"
    "    ^bb0(%a: f16, %i: i32, %b: f16, %j: i32):\n"
    "      tt.reduce.return %a, %i : f16, i32\n"
    "    }) : (tensor<8x32xf16, #b>, tensor<8x32xi32, #b>) -> (tensor<32xf16, #ttg.slice<{dim = 0, parent = #b}>>, "
    "tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>>) loc(#loc1)\n"
    "    %5 = arith.addi %4#1, %4#1 : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>> loc(#loc1)\n"
    "}\n"
    "#loc1 = loc(\"k.py\":3:9)\n";

static const char *const reduce_pair_hand =
    "#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "    %4:2 = \"tt.reduce\"(%2, %3) <{axis = 0 : i32}> ({\n"
    "    ^bb0(%a: i32, %i: i32, %b: i32, %j: i32):\n"
    "      tt.reduce.return %a, %i : i32, i32\n"
    "    }) : (tensor<8x64xi32, #b>, tensor<8x64xi32, #b>) -> (tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>, "
    "tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>) loc(#loc1)\n"
    "    %5 = arith.addi %4#1, %4#1 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> loc(#loc1)\n"
    "}\n"
    "#loc1 = loc(\"k.py\":3:9)\n";

static void test_reduce_nd(void)
{
    const layout_triton_kernel_op *r;
    CHECK_MSG(layout_ttgir_parse(reduce_nd_hand, strlen(reduce_nd_hand), &mod, &terr) == LAYOUT_OK, "%s", terr.message);
    CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK, "%s", terr.message);
    if (kern.n_ops != 2) {
        CHECK_EQ_I64(kern.n_ops, 2);
        return;
    }
    r = &kern.ops[0];
    CHECK_MSG(r->modelled, "%s", r->reason);
    CHECK_EQ_I64(count_of(r, "st.shared.b32"), 2);
    CHECK_EQ_I64(count_of(r, "ld.shared.b32"), 2);
    CHECK_EQ_I64(r->n_accesses, 4);
    CHECK_EQ_I64(r->total_cycles, 6);
    CHECK_EQ_I64(r->extra_cycles, 2);
    CHECK_EQ_I64(r->cvt_scratch_bytes, 512);
    CHECK_EQ_I64(r->cta_total_cycles, 24);
    CHECK_EQ_I64(r->cta_extra_cycles, 8);
    r = &kern.ops[1];
    CHECK_MSG(r->modelled, "%s", r->reason);
    CHECK_EQ_I64(count_of(r, "st.shared.b16"), 2);
    CHECK_EQ_I64(count_of(r, "st.shared.b32"), 2);
    CHECK_EQ_I64(count_of(r, "ld.shared.b16"), 1);
    CHECK_EQ_I64(count_of(r, "ld.shared.b32"), 2);
    CHECK_EQ_I64(r->n_accesses, 7);
    CHECK_EQ_I64(r->total_cycles, 14);
    CHECK_EQ_I64(r->extra_cycles, 7);
    CHECK_EQ_I64(r->cvt_scratch_bytes, 768);
    CHECK_EQ_I64(r->cta_total_cycles, 56);
    CHECK_EQ_I64(r->cta_extra_cycles, 28);

    CHECK_MSG(layout_ttgir_parse(reduce_pair_hand, strlen(reduce_pair_hand), &mod, &terr) == LAYOUT_OK, "%s", terr.message);
    CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK, "%s", terr.message);
    if (kern.n_ops != 1) {
        CHECK_EQ_I64(kern.n_ops, 1);
        return;
    }
    r = &kern.ops[0];
    CHECK_MSG(r->modelled, "%s", r->reason);
    CHECK_EQ_I64(count_of(r, "ds_write2st64_b32"), 2);
    CHECK_EQ_I64(count_of(r, "ds_read2st64_b32"), 1);
    CHECK_EQ_I64(count_of(r, "ds_read_b32"), 1);
    CHECK_EQ_I64(r->n_counts, 3);
    CHECK_EQ_I64(r->n_accesses, 7);
    CHECK_EQ_I64(r->cvt_scratch_bytes, 2048);
}

/* ttg.convert_layout within a warp (convert.c): minimalCvtLayout leaves
 * {register, lane}, and Triton 3.6 shuffles when cvtNeedsWarpShuffle
 * (lib/Analysis/Utility.cpp) finds `factors.mixedTranspositions.size() < 2`
 * in getWarpLayoutConvertDecomposition, else ConvertLayoutOpToLLVM.cpp's
 * matchAndRewrite ("Case 3") calls transferWithinBlockSwizzling.  P maps
 * each source hardware bit to the result's (broadcast registers dropped,
 * the smaller side padded with zero bases, a position zero only in the
 * source paired in order with one zero only in the result); its cycle
 * walk factors out one (r_i l_j) per register that P sends to a lane.
 *
 * Shuffles (layernormbwd_fp16_1x512, 1 warp): #v = [4] x 32 lanes over
 * 512: registers 1, 2, 128, 256, lanes 4 .. 64; the slice of [1, 8] x 32
 * lanes: registers 1, 2, 4, 256, lanes 8 .. 128.  P: r0, r1, r3 fixed,
 * r2 (128) -> l4, l0 (4) -> r2, l1..l4 -> l0..l3: one cycle
 * (r2 l4 l3 l2 l1 l0), one register to a lane: 1 < 2, shuffles, both
 * ways (its PTX: 16 shfl.sync.idx.b32 at each convert, no shared
 * instruction; ncu: no shared access).  On gfx942 (64 lanes) the same
 * kernel's layouts ([4] x 64: registers 1, 2, 256, lanes 4 .. 128; the
 * slice: 1, 2, 4 and 8 .. 256): r2 -> l5 only, shuffles (8
 * ds_bpermute_b32, no LDS access, at each convert of its AMDGCN).
 *
 * Shared memory (reduce2d_i32_max_ax0_128x32, the result convert): the
 * slice (dim 0) of [1, 4] x [4, 8] lanes over 32: registers 1, 2, lanes
 * 4, 8, 16, 0, 0; [1] x 32 lanes: registers none, lanes 1 .. 16.  Padded
 * to 2 registers (both zero in the result); P: r0 (1) -> l0, r1 (2) -> l1,
 * l0..l2 -> l2..l4, and the source's zero lanes l3, l4 take the result's
 * zero registers r0, r1: two registers go to lanes, cvtNeedsWarpShuffle
 * declines and the swizzled scratch gives what the PTX of sm_80, sm_90 and
 * sm_120 holds there, 1 st.shared.v4.b32 + 1 ldmatrix.x1 (ncu on sm_90
 * counts 8 shared stores and 40 wavefronts more than the kernel's
 * tt.reduce: 1 store of 4 wavefronts + 1 ldmatrix of 1 per warp, x 4 warps
 * x 2 CTAs); on gfx942 ([8, 8] lanes: lanes 4, 8, 16 and three zeros; [1] x
 * 64 lanes: 1 .. 16 and a zero, a fixed point) also two: 1 ds_write_b128 +
 * 1 ds_read_b32, as the gfx942 and gfx950 AMDGCN hold.
 *
 * A source basis that is no single basis of the result (a linear layout
 * with register 3 = 1 ^ 2): Triton's walk assumes a permutation; not
 * modelled. */
static const char *const warp_sm90 =
    "#v = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>\n"
    "#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>\n"
    "#l0 = #ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], warp = [], block = []}>\n"
    "#l1 = #ttg.linear<{register = [[3]], lane = [[2], [4], [8], [16], [32]], warp = [], block = []}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 1 : i32, ttg.target = \"cuda:90\", "
    "\"ttg.threads-per-warp\" = 32 : i32} {\n"
    "    %1 = ttg.convert_layout %0 : tensor<512xf32, #v> -> tensor<512xf32, #ttg.slice<{dim = 0, parent = #b}>>\n"
    "    %2 = ttg.convert_layout %1 : tensor<512xf32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<512xf32, #v>\n"
    "    %4 = ttg.convert_layout %3 : tensor<64xf32, #l0> -> tensor<64xf32, #l1>\n"
    "}\n";
static const char *const warp_gfx942 =
    "#v = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>\n"
    "#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 64], warpsPerCTA = [1, 1], order = [1, 0]}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 1 : i32, ttg.target = \"hip:gfx942\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "    %1 = ttg.convert_layout %0 : tensor<512xf32, #v> -> tensor<512xf32, #ttg.slice<{dim = 0, parent = #b}>>\n"
    "    %2 = ttg.convert_layout %1 : tensor<512xf32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<512xf32, #v>\n"
    "}\n";
static const char *const warp_shared[2] = {
    "#p = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
    "#q = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"cuda:90\", "
    "\"ttg.threads-per-warp\" = 32 : i32} {\n"
    "    %1 = ttg.convert_layout %0 : tensor<32xi32, #ttg.slice<{dim = 0, parent = #p}>> -> tensor<32xi32, #q>\n"
    "}\n",
    "#p = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
    "#q = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = \"hip:gfx942\", "
    "\"ttg.threads-per-warp\" = 64 : i32} {\n"
    "    %1 = ttg.convert_layout %0 : tensor<32xi32, #ttg.slice<{dim = 0, parent = #p}>> -> tensor<32xi32, #q>\n"
    "}\n"};

static void test_convert_within_warp(void)
{
    static const char *const st[2] = {"st.shared.v4.b32", "ds_write_b128"};
    static const char *const ld[2] = {"ldmatrix.sync.aligned.m8n8.x1.shared.b16", "ds_read_b32"};
    int i, a;
    for (a = 0; a < 2; a++) {
        const char *text = a ? warp_gfx942 : warp_sm90;
        CHECK_MSG(layout_ttgir_parse(text, strlen(text), &mod, &terr) == LAYOUT_OK, "%s", terr.message);
        CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK, "%s", terr.message);
        if (kern.n_ops != (a ? 2 : 3)) {
            CHECK_EQ_I64(kern.n_ops, a ? 2 : 3);
            continue;
        }
        for (i = 0; i < 2; i++) { /* shuffles: no shared-memory instruction, no scratch */
            CHECK_MSG(kern.ops[i].modelled, "%s", kern.ops[i].reason);
            CHECK_EQ_I64(kern.ops[i].n_counts, 0);
            CHECK_EQ_I64(kern.ops[i].n_accesses, 0);
            CHECK_EQ_I64(kern.ops[i].cvt_scratch_bytes, 0);
        }
        if (!a) {
            CHECK_EQ_I64(kern.ops[2].modelled, 0);
            CHECK_STR_CONTAINS(kern.ops[2].reason, "permutation");
        }
    }
    for (a = 0; a < 2; a++) { /* cvtNeedsWarpShuffle declines: the swizzled scratch */
        CHECK_MSG(layout_ttgir_parse(warp_shared[a], strlen(warp_shared[a]), &mod, &terr) == LAYOUT_OK, "%s",
                  terr.message);
        CHECK_MSG(layout_triton_kernel_analyze(&mod, NULL, &kern, &terr) == LAYOUT_OK, "%s", terr.message);
        if (kern.n_ops != 1) {
            CHECK_EQ_I64(kern.n_ops, 1);
            continue;
        }
        CHECK_MSG(kern.ops[0].modelled, "%s", kern.ops[0].reason);
        CHECK_EQ_I64(kern.ops[0].n_counts, 2);
        CHECK_EQ_I64(count_of(&kern.ops[0], st[a]), 1);
        CHECK_EQ_I64(count_of(&kern.ops[0], ld[a]), 1);
        CHECK(kern.ops[0].cvt_scratch_bytes > 0);
    }
}

int main(void)
{
    find_corpus();
    RUN(test_hand_written);
    RUN(test_targets);
    RUN(test_confidence);
    RUN(test_divide_left);
    RUN(test_convert_paths);
    RUN(test_reduce);
    RUN(test_reduce_nd);
    RUN(test_convert_within_warp);
    RUN(test_ncu_zero_conflicts);
    RUN(test_corpus_per_loc);
    return harness_finish("test_triton_lower");
}
