/* The bank-conflict checker: the known answers of docs/lds-model.md §4.3,
 * the talk's kernels' per-instruction costs and whole-kernel counters
 * rebuilt from their address formulas (docs/lds-model.md §4.2), the NVIDIA
 * known answers of docs/lds-model.md §2.5, an independent brute-force
 * reference, the AVX2-vs-scalar differential and every bad
 * input. */
#include "harness.h"
#include "layout.h"

static layout_arch preset(const char *name)
{
    layout_arch a;
    memset(&a, 0, sizeof a);
    CHECK(layout_arch_preset(name, &a, NULL) == LAYOUT_OK);
    return a;
}

static layout_instr instr(int n_lanes, int width, layout_direction dir)
{
    layout_instr in;
    CHECK(layout_instr_init(&in, n_lanes, width, dir, NULL) == LAYOUT_OK);
    return in;
}

static layout_instr strided(int n_lanes, int width, layout_direction dir, uint32_t stride, uint64_t active)
{
    layout_instr in = instr(n_lanes, width, dir);
    CHECK(layout_instr_fill_strided(&in, 0, stride, NULL) == LAYOUT_OK);
    in.active_mask = active;
    return in;
}

/* ---- independent brute force ---------------------------------------- */
/* Enumerates every byte of every lane, collects words, sorts them, counts
 * per bank.  Shares nothing with lib/check/check.c but the arch data. */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static layout_cost brute(const layout_arch *a, const layout_instr *in)
{
    const layout_lane_rule *r = &a->rules[in->direction][layout_width_index(in->width_bytes)];
    const uint64_t *groups = r->groups;
    int n = r->n_groups;
    layout_cost c;
    memset(&c, 0, sizeof c);
    for (int f = 0; f < r->n_fold_xors; f++) {
        int ok = 1;
        for (int l = 0; l < in->n_lanes && ok; l++) {
            if (!((in->active_mask >> l) & 1)) continue;
            int p = l ^ r->fold_xor[f]; /* an inactive partner does not stop the fold */
            ok = !((in->active_mask >> p) & 1) || in->addr_bytes[p] == in->addr_bytes[l];
        }
        if (ok) {
            groups = r->fold_groups;
            n = r->n_fold_groups;
            c.fold_xor = r->fold_xor[f];
            break;
        }
    }
    c.n_groups = n;
    c.worst_group = -1;
    for (int g = 0; g < n; g++) {
        uint64_t words[64 * 16];
        int nw = 0;
        for (int l = 0; l < in->n_lanes; l++) {
            if (!((groups[g] & in->active_mask) >> l & 1)) continue;
            for (int byte = 0; byte < in->width_bytes; byte++)
                words[nw++] = ((uint64_t)in->addr_bytes[l] + (uint64_t)byte) / (uint64_t)a->bank_width_bytes;
        }
        qsort(words, (size_t)nw, sizeof words[0], cmp_u64);
        int per_bank[64] = {0}, nway = 0;
        for (int i = 0; i < nw; i++) {
            if (i > 0 && words[i] == words[i - 1]) continue;
            int b = (int)(words[i] % (uint64_t)a->n_banks);
            if (++per_bank[b] > nway) nway = per_bank[b];
        }
        int cycles = !(groups[g] & in->active_mask) ? a->idle_group_cycles : nway > 1 ? nway : 1;
        c.extra_cycles += cycles > 1 ? cycles - 1 : 0;
        c.total_cycles += cycles;
        if (nway > c.worst_nway) c.worst_nway = nway, c.worst_group = g;
    }
    return c;
}

static int same_cost(layout_cost x, layout_cost y)
{
    return x.extra_cycles == y.extra_cycles && x.total_cycles == y.total_cycles && x.n_groups == y.n_groups &&
           x.worst_nway == y.worst_nway && x.worst_group == y.worst_group && x.fold_xor == y.fold_xor;
}

/* Cost with every implementation available, checked against the brute
 * force; returns the scalar answer. */
static layout_cost cost_all(const layout_arch *a, const layout_instr *in)
{
    layout_cost s, v, b = brute(a, in);
    layout_error e;
    memset(&s, 0, sizeof s);
    CHECK_MSG(layout_instr_cost(a, in, LAYOUT_IMPL_SCALAR, &s, &e) == LAYOUT_OK, "%s", e.message);
    CHECK_MSG(same_cost(s, b), "scalar extra %d total %d vs brute %d %d", s.extra_cycles, s.total_cycles,
              b.extra_cycles, b.total_cycles);
    if (layout_check_impl_available(LAYOUT_IMPL_AVX2)) {
        memset(&v, 0, sizeof v);
        CHECK(layout_instr_cost(a, in, LAYOUT_IMPL_AVX2, &v, &e) == LAYOUT_OK);
        CHECK_MSG(same_cost(s, v), "avx2 extra %d total %d vs scalar %d %d", v.extra_cycles, v.total_cycles,
                  s.extra_cycles, s.total_cycles);
    }
    return s;
}

#define LANES(a, b) (((uint64_t)1 << (a)) | ((uint64_t)1 << (b)))

/* ---- small known answers (docs/lds-model.md §4.3) ---------------------- */

static void test_published_small(void)
{
    layout_arch g942 = preset("gfx942"), g950 = preset("gfx950");
    layout_instr in;
    layout_cost c;

    /* gfx942 b32, lane i at byte 128 i */
    in = strided(64, 4, LAYOUT_READ, 128, 1);
    c = cost_all(&g942, &in);
    CHECK_EQ_I64(c.total_cycles, 2);
    CHECK_EQ_I64(c.extra_cycles, 0);
    in.active_mask = LANES(0, 1);
    c = cost_all(&g942, &in);
    CHECK_EQ_I64(c.total_cycles, 3);
    CHECK_EQ_I64(c.extra_cycles, 1);
    in.active_mask = ~0ull;
    c = cost_all(&g942, &in);
    CHECK_EQ_I64(c.extra_cycles, 62);
    CHECK_EQ_I64(c.worst_nway, 32);
    /* 96.875 % = 62 / 64: the maximum "bank conflict rate" */
    CHECK_EQ_I64(c.total_cycles, 64);

    /* gfx950 b128 read, lane i at byte 256 i: {0,1} -> 1, {0,4} -> 0 */
    in = strided(64, 16, LAYOUT_READ, 256, LANES(0, 1));
    CHECK_EQ_I64(cost_all(&g950, &in).extra_cycles, 1);
    in.active_mask = LANES(0, 4);
    CHECK_EQ_I64(cost_all(&g950, &in).extra_cycles, 0);

    /* gfx950 b64 write, lane i at byte 256 i, all lanes -> 60 */
    in = strided(64, 8, LAYOUT_WRITE, 256, ~0ull);
    CHECK_EQ_I64(cost_all(&g950, &in).extra_cycles, 60);

    /* gfx942 b64 read, lane i at byte 128 i: {0,15} -> 1, {0,16} -> 0 */
    in = strided(64, 8, LAYOUT_READ, 128, LANES(0, 15));
    CHECK_EQ_I64(cost_all(&g942, &in).extra_cycles, 1);
    in.active_mask = LANES(0, 16);
    CHECK_EQ_I64(cost_all(&g942, &in).extra_cycles, 0);

    /* gfx942 b128 read, same addresses: {0,20} -> 1, {0,4} -> 0 */
    in = strided(64, 16, LAYOUT_READ, 128, LANES(0, 20));
    CHECK_EQ_I64(cost_all(&g942, &in).extra_cycles, 1);
    in.active_mask = LANES(0, 4);
    CHECK_EQ_I64(cost_all(&g942, &in).extra_cycles, 0);

    /* lane i at byte 16 i, b128, read or write, gfx942 and gfx950 -> 0 */
    for (int d = 0; d < 2; d++) {
        in = strided(64, 16, (layout_direction)d, 16, ~0ull);
        CHECK_EQ_I64(cost_all(&g942, &in).extra_cycles, 0);
        CHECK_EQ_I64(cost_all(&g950, &in).extra_cycles, 0);
    }

    /* gfx942 b16 read, two lanes on the two halves of one dword -> 0 */
    in = instr(64, 2, LAYOUT_READ);
    in.active_mask = LANES(3, 9);
    in.addr_bytes[3] = 0x40;
    in.addr_bytes[9] = 0x42;
    c = cost_all(&g942, &in);
    CHECK_EQ_I64(c.extra_cycles, 0);
    CHECK_EQ_I64(c.worst_nway, 1);
}

/* ---- the talk's kernels, address formulas (docs/lds-model.md §4.2) ---- */

enum { KM = 64, KK = 32, FP16 = 2, TILES = 8192 };

/* XOR layout element offset: B*(kK+pad)*L + A'*8 + C. */
static uint32_t xor_offset(int m, int k, int L, int pad)
{
    int B = m / L, A = (m % L) * (KK / 8) + k / 8, C = k % 8;
    int Ax = A ^ (B % (KK / 8 * L));
    return (uint32_t)(B * (KK + pad) * L + Ax * 8 + C);
}

typedef enum { ROW, COL, PAD34, XOR } lds_kind;

static uint32_t elem_offset(lds_kind kind, int m, int k, int L, int pad)
{
    switch (kind) {
    case ROW: return (uint32_t)(m * KK + k);
    case COL: return (uint32_t)(m + k * KM);
    case PAD34: return (uint32_t)(m * 34 + k);
    case XOR: return xor_offset(m, k, L, pad);
    }
    return 0;
}

/* Write side of wave w: row m = 16w + l/4, k = 8(l%4)..+7; emitted as one
 * b128, two b64 (padded rows) or eight b16 stores (M contiguous). */
static int build_write(lds_kind kind, int L, int pad, int w, layout_instr *out)
{
    int n = 0;
    if (kind == COL) {
        for (int j = 0; j < 8; j++, n++) {
            out[n] = instr(64, 2, LAYOUT_WRITE);
            for (int l = 0; l < 64; l++)
                out[n].addr_bytes[l] = FP16 * elem_offset(kind, 16 * w + l / 4, 8 * (l % 4) + j, L, pad);
        }
    } else if (kind == PAD34) {
        for (int s = 0; s < 2; s++, n++) {
            out[n] = instr(64, 8, LAYOUT_WRITE);
            for (int l = 0; l < 64; l++)
                out[n].addr_bytes[l] = FP16 * elem_offset(kind, 16 * w + l / 4, 8 * (l % 4) + 4 * s, L, pad);
        }
    } else {
        out[n] = instr(64, 16, LAYOUT_WRITE);
        for (int l = 0; l < 64; l++)
            out[n].addr_bytes[l] = FP16 * elem_offset(kind, 16 * w + l / 4, 8 * (l % 4), L, pad);
        n++;
    }
    return n;
}

typedef enum { READ_01, READ_08, READ_10 } read_kind;

/* Read side of wave w (docs/lds-model.md §4.2). */
static int build_read(lds_kind kind, read_kind rk, int L, int pad, int w, layout_instr *out)
{
    int n = 0;
    if (rk == READ_08) {
        out[n] = instr(64, 16, LAYOUT_READ);
        for (int l = 0; l < 64; l++) out[n].addr_bytes[l] = FP16 * elem_offset(kind, l, 8 * w, L, pad);
        return 1;
    }
    if (rk == READ_01 && kind == COL) { /* M contiguous: one b128 */
        out[n] = instr(64, 16, LAYOUT_READ);
        for (int l = 0; l < 64; l++) out[n].addr_bytes[l] = FP16 * elem_offset(kind, 8 * (l % 8), 8 * w + l / 8, L, pad);
        return 1;
    }
    for (int j = 0; j < 8; j++, n++) {
        out[n] = instr(64, 2, LAYOUT_READ);
        for (int l = 0; l < 64; l++) {
            int m = rk == READ_01 ? 8 * (l % 8) + j : 8 * (l / 8) + j;
            int k = rk == READ_01 ? 8 * w + l / 8 : 8 * w + l % 8;
            out[n].addr_bytes[l] = FP16 * elem_offset(kind, m, k, L, pad);
        }
    }
    return n;
}

/* Conflict cycles of one tile (4 waves, write + read); per-instruction
 * extras of wave w's reads and writes go to the arrays. */
static int64_t tile_conflicts(const layout_arch *a, lds_kind kind, read_kind rk, int L, int pad,
                              int *write_extra, int *read_extra, int64_t *n_instrs)
{
    int64_t sum = 0;
    *n_instrs = 0;
    for (int w = 0; w < 4; w++) {
        layout_instr ins[8];
        int n = build_write(kind, L, pad, w, ins);
        *n_instrs += n;
        for (int i = 0; i < n; i++) {
            int x = cost_all(a, &ins[i]).extra_cycles;
            sum += x;
            if (w == 0 && write_extra) write_extra[i] = x;
        }
        n = build_read(kind, rk, L, pad, w, ins);
        *n_instrs += n;
        for (int i = 0; i < n; i++) {
            int x = cost_all(a, &ins[i]).extra_cycles;
            sum += x;
            if (w == 0 && read_extra) read_extra[i] = x;
        }
    }
    return sum;
}

static void test_seed_kernels(void)
{
    layout_arch g942 = preset("gfx942"), g950 = preset("gfx950");
    int wx[8], rx[8];
    int64_t ni;

    /* 01 row-major: b128 write + 8 b16 reads of 14 extra each */
    int64_t t01 = tile_conflicts(&g942, ROW, READ_01, 2, 0, wx, rx, &ni);
    CHECK_EQ_I64(wx[0], 0);
    for (int j = 0; j < 8; j++) CHECK_EQ_I64(rx[j], 14);
    CHECK_EQ_I64(t01 * TILES, 3670016);
    CHECK_EQ_I64(ni * TILES, 294912);

    /* 02 col-major: 8 b16 writes of 6 extra each + 1 b128 read */
    int64_t t02 = tile_conflicts(&g942, COL, READ_01, 2, 0, wx, rx, &ni);
    for (int j = 0; j < 8; j++) CHECK_EQ_I64(wx[j], 6);
    CHECK_EQ_I64(rx[0], 0);
    CHECK_EQ_I64(t02 * TILES, 1572864);
    CHECK_EQ_I64(ni * TILES, 294912);

    /* 03 padded rows of 34 fp16: 2 b64 stores + 8 b16 reads of 2 extra */
    int64_t t03 = tile_conflicts(&g942, PAD34, READ_01, 2, 0, wx, rx, &ni);
    for (int j = 0; j < 8; j++) CHECK_EQ_I64(rx[j], 2);
    CHECK_EQ_I64(t03 * TILES, 786432);
    CHECK_EQ_I64(ni * TILES, 327680);

    /* 04 XOR (32 banks hard-coded) with the 01 read distribution: 192 per tile */
    CHECK_EQ_I64(tile_conflicts(&g942, XOR, READ_01, 2, 0, NULL, NULL, &ni), 192);
    /* 05 XOR + pad: 0 */
    CHECK_EQ_I64(tile_conflicts(&g942, XOR, READ_01, 2, 1, NULL, NULL, &ni), 0);
    CHECK_EQ_I64(ni * TILES, 294912);
    /* 08 XOR, b128 read: 0 on both (L = 2 on gfx942, 4 on gfx950) */
    CHECK_EQ_I64(tile_conflicts(&g942, XOR, READ_08, 2, 0, NULL, NULL, &ni), 0);
    CHECK_EQ_I64(ni * TILES, 65536);
    CHECK_EQ_I64(tile_conflicts(&g950, XOR, READ_08, 4, 0, NULL, NULL, &ni), 0);
    /* 10 M-vector: 524,288 on gfx942, 0 on gfx950 */
    CHECK_EQ_I64(tile_conflicts(&g942, XOR, READ_10, 2, 0, NULL, NULL, &ni) * TILES, 524288);
    CHECK_EQ_I64(tile_conflicts(&g950, XOR, READ_10, 4, 0, NULL, NULL, &ni), 0);
}

/* ---- NVIDIA known answers (docs/lds-model.md §2.5) --------------------- */

static void test_nvidia(void)
{
    layout_arch s90 = preset("sm_90");
    layout_instr in;
    layout_cost c;

    in = strided(32, 8, LAYOUT_READ, 0, 0xFFFFFFFF); /* broadcast LDS.64 */
    c = cost_all(&s90, &in);
    CHECK_EQ_I64(c.total_cycles, 1);
    CHECK_EQ_I64(c.extra_cycles, 0);
    CHECK_EQ_I64(c.fold_xor, 1);

    in = strided(32, 16, LAYOUT_READ, 0, 0xFFFFFFFF); /* broadcast LDS.128 */
    c = cost_all(&s90, &in);
    CHECK_EQ_I64(c.total_cycles, 2);
    CHECK_EQ_I64(c.extra_cycles, 0);

    in = strided(32, 16, LAYOUT_READ, 16, 0xFFFFFFFF); /* conflict-free LDS.128 */
    c = cost_all(&s90, &in);
    CHECK_EQ_I64(c.total_cycles, 4);
    CHECK_EQ_I64(c.extra_cycles, 0);
    CHECK_EQ_I64(c.fold_xor, 0);

    /* l and l^1 share addresses, 16-byte loads fold; the same as a store does not */
    in = instr(32, 16, LAYOUT_READ);
    for (int l = 0; l < 32; l++) in.addr_bytes[l] = 16u * (uint32_t)(l / 2);
    c = cost_all(&s90, &in);
    CHECK_EQ_I64(c.fold_xor, 1);
    CHECK_EQ_I64(c.n_groups, 2);
    CHECK_EQ_I64(c.total_cycles, 2);
    in.direction = LAYOUT_WRITE;
    c = cost_all(&s90, &in);
    CHECK_EQ_I64(c.fold_xor, 0);
    CHECK_EQ_I64(c.total_cycles, 4);
    /* l^2 pairs fold too; one dissenting lane stops the fold */
    in.direction = LAYOUT_READ;
    for (int l = 0; l < 32; l++) in.addr_bytes[l] = 16u * (uint32_t)((l & ~2) + 100);
    CHECK_EQ_I64(cost_all(&s90, &in).fold_xor, 2);
    in.addr_bytes[7] += 16;
    CHECK_EQ_I64(cost_all(&s90, &in).fold_xor, 0);

    /* 4-byte k-way conflict inside one half-warp costs k (no half-warp split) */
    for (int k = 1; k <= 16; k++) {
        in = strided(32, 4, LAYOUT_READ, 4, 0xFFFFFFFF);
        for (int l = 0; l < k; l++) in.addr_bytes[l] = 128u * (uint32_t)l; /* bank 0, distinct words */
        for (int l = k; l < 32; l++) in.addr_bytes[l] = 4u * (uint32_t)l;
        c = cost_all(&s90, &in);
        CHECK_EQ_I64(c.total_cycles, k);
        CHECK_EQ_I64(c.extra_cycles, k - 1);
    }
    /* lanes 0 and 16 on one bank conflict: one phase of 32, not two half-warps */
    in = strided(32, 4, LAYOUT_READ, 4, 0xFFFFFFFF);
    in.addr_bytes[16] = 128;
    CHECK_EQ_I64(cost_all(&s90, &in).extra_cycles, 1);
}

/* ---- model details: sub-dword, unaligned, inactive, detail ------------ */

static void test_model_details(void)
{
    layout_arch g942 = preset("gfx942");
    layout_instr in;
    layout_cost c;
    layout_cost_detail d;
    layout_error e;

    /* b8: four lanes on the four bytes of one word share it */
    in = strided(64, 1, LAYOUT_WRITE, 1, ~0ull);
    CHECK_EQ_I64(cost_all(&g942, &in).extra_cycles, 0);
    /* b8 at stride 128: lanes on bank 0 with distinct words */
    in = strided(64, 1, LAYOUT_READ, 128, 0xFull);
    CHECK_EQ_I64(cost_all(&g942, &in).extra_cycles, 3);
    /* unaligned b32 touches the next word: lane 0 at 2 (words 0,1), lane 1 at 130 (words 32,33) */
    in = instr(64, 4, LAYOUT_READ);
    in.active_mask = LANES(0, 1);
    in.addr_bytes[0] = 2;
    in.addr_bytes[1] = 126; /* words 31, 32: bank 31 and bank 0 */
    c = cost_all(&g942, &in);
    CHECK_EQ_I64(c.extra_cycles, 1); /* bank 0 holds words 0 and 32 */
    CHECK(layout_instr_explain(&g942, &in, &d, &e) == LAYOUT_OK);
    CHECK_EQ_I64(d.groups[0].worst_bank, 0);
    CHECK_EQ_I64(d.groups[0].bank_lanes, LANES(0, 1));
    CHECK_EQ_I64(d.groups[0].way_lanes, LANES(0, 1));
    /* b16 at byte 3 crosses into the next word */
    in = instr(64, 2, LAYOUT_READ);
    in.active_mask = LANES(0, 1);
    in.addr_bytes[0] = 3;   /* words 0 and 1 */
    in.addr_bytes[1] = 132; /* word 33: bank 1, conflicts with word 1 */
    CHECK_EQ_I64(cost_all(&g942, &in).extra_cycles, 1);
    /* inactive lanes are free; no active lane at all: total = groups */
    in = strided(64, 16, LAYOUT_READ, 128, 0);
    c = cost_all(&g942, &in);
    CHECK_EQ_I64(c.total_cycles, 8);
    CHECK_EQ_I64(c.worst_nway, 0);
    CHECK_EQ_I64(c.worst_group, -1);
    /* detail of gfx942 b128 read: group 2 = lanes 8-11,28-31 */
    in = strided(64, 16, LAYOUT_READ, 16, ~0ull);
    in.addr_bytes[28] = in.addr_bytes[8] + 512; /* same banks as lane 8, other words */
    CHECK(layout_instr_explain(&g942, &in, &d, &e) == LAYOUT_OK);
    CHECK_EQ_I64(d.cost.extra_cycles, 1);
    CHECK_EQ_I64(d.cost.worst_group, 2);
    CHECK_EQ_I64(d.groups[2].lanes, 0xF0000F00ull);
    CHECK_EQ_I64(d.groups[2].nway, 2);
    CHECK_EQ_I64(d.groups[2].cycles, 2);
    CHECK_EQ_I64(d.groups[2].worst_bank, 0); /* lane 8 at 128: words 32..35 = banks 0..3 */
    CHECK_EQ_I64(d.groups[2].way_lanes, LANES(8, 28));
    CHECK_EQ_I64(d.groups[1].cycles, 1);
    /* bank width 8: b32 lanes at stride 4 pair up inside one 8-byte word */
    layout_arch w8;
    CHECK(layout_arch_init(&w8, "w8", 32, 8, 64, NULL) == LAYOUT_OK);
    CHECK(layout_arch_set_consecutive(&w8, LAYOUT_READ, 4, 64, LAYOUT_CONFIDENCE_LOW, NULL, NULL) == LAYOUT_OK);
    in = strided(64, 4, LAYOUT_READ, 4, ~0ull);
    CHECK_EQ_I64(cost_all(&w8, &in).extra_cycles, 0);
    in = strided(64, 4, LAYOUT_READ, 8, ~0ull); /* 64 words on 32 banks */
    CHECK_EQ_I64(cost_all(&w8, &in).extra_cycles, 1);
    /* a 16-bank custom arch */
    layout_arch t16;
    CHECK(layout_arch_init(&t16, "toy16", 16, 4, 64, NULL) == LAYOUT_OK);
    CHECK(layout_arch_set_consecutive(&t16, LAYOUT_READ, 4, 16, LAYOUT_CONFIDENCE_LOW, NULL, NULL) == LAYOUT_OK);
    in = strided(64, 4, LAYOUT_READ, 4, ~0ull);
    CHECK_EQ_I64(cost_all(&t16, &in).extra_cycles, 0);
    in = strided(64, 4, LAYOUT_READ, 8, ~0ull); /* 16 lanes on 8 banks, 2 words each */
    CHECK_EQ_I64(cost_all(&t16, &in).extra_cycles, 4);
}

/* ---- randomized: brute force and AVX2 vs scalar ------------------------ */

typedef struct arch_set {
    layout_arch archs[32]; /* 20 presets + 6 custom */
    int n;
} arch_set;

/* Every preset plus custom descriptions: 16 banks, 8-byte banks on wave32
 * with an irregular partition and a fold, one bank, a 64-bank wave32. */
static void make_archs(arch_set *s)
{
    s->n = 0;
    for (size_t i = 0; i < layout_arch_preset_count(); i++)
        CHECK(layout_arch_preset(layout_arch_preset_name(i), &s->archs[s->n++], NULL) == LAYOUT_OK);
    layout_arch *a = &s->archs[s->n++];
    CHECK(layout_arch_gfx11(64, a, NULL) == LAYOUT_OK);
    a = &s->archs[s->n++];
    layout_arch_init(a, "toy16", 16, 4, 64, NULL);
    for (int d = 0; d < 2; d++)
        for (int w = 0; w < LAYOUT_N_WIDTHS; w++)
            CHECK(layout_arch_set_consecutive(a, (layout_direction)d, layout_width_from_index(w), 4 << (w % 3),
                                              LAYOUT_CONFIDENCE_LOW, NULL, NULL) == LAYOUT_OK);
    a = &s->archs[s->n++];
    layout_arch_init(a, "odd8", 8, 8, 32, NULL);
    uint64_t g[3] = {0x0F0F0F0Full, 0x30303030ull, 0xC0C0C0C0ull};
    uint64_t fg[2] = {0x0F0F0F0Full, 0xF0F0F0F0ull};
    int xors[3] = {4, 1, 16};
    for (int d = 0; d < 2; d++)
        for (int w = 0; w < LAYOUT_N_WIDTHS; w++) {
            CHECK(layout_arch_set_groups(a, (layout_direction)d, layout_width_from_index(w), g, 3,
                                         LAYOUT_CONFIDENCE_LOW, NULL, NULL) == LAYOUT_OK);
            CHECK(layout_arch_set_fold(a, (layout_direction)d, layout_width_from_index(w), xors, 3, fg, 2,
                                       LAYOUT_CONFIDENCE_LOW, NULL) == LAYOUT_OK);
        }
    a = &s->archs[s->n++];
    layout_arch_init(a, "onebank", 1, 4, 64, NULL);
    for (int d = 0; d < 2; d++)
        for (int w = 0; w < LAYOUT_N_WIDTHS; w++)
            CHECK(layout_arch_set_consecutive(a, (layout_direction)d, layout_width_from_index(w), 16,
                                              LAYOUT_CONFIDENCE_LOW, NULL, NULL) == LAYOUT_OK);
    a = &s->archs[s->n++];
    layout_arch_init(a, "w32b64", 64, 4, 32, NULL);
    for (int d = 0; d < 2; d++)
        for (int w = 0; w < LAYOUT_N_WIDTHS; w++)
            CHECK(layout_arch_set_consecutive(a, (layout_direction)d, layout_width_from_index(w), 32 >> (w % 4),
                                              LAYOUT_CONFIDENCE_LOW, NULL, NULL) == LAYOUT_OK);
    a = &s->archs[s->n++];
    layout_arch_init(a, "g16x4", 64, 4, 64, NULL);
    for (int d = 0; d < 2; d++)
        for (int w = 0; w < LAYOUT_N_WIDTHS; w++)
            CHECK(layout_arch_set_consecutive(a, (layout_direction)d, layout_width_from_index(w), 4,
                                              LAYOUT_CONFIDENCE_LOW, NULL, NULL) == LAYOUT_OK);
}

/* A random supported instruction for arch a, drawn from adversarial
 * families: uniform, strided, one bank, broadcast / fold pairs, sub-dword,
 * unaligned, wide spans, sparse masks, addresses near 2^32. */
static layout_instr random_instr(harness_rng *r, const layout_arch *a)
{
    layout_instr in;
    int d, w;
    do {
        d = (int)harness_range(r, 0, 1);
        w = (int)harness_range(r, 0, LAYOUT_N_WIDTHS - 1);
    } while (!a->rules[d][w].supported);
    layout_instr_init(&in, a->wave_size, layout_width_from_index(w), (layout_direction)d, NULL);
    int n = a->wave_size, W = in.width_bytes;
    uint32_t row = (uint32_t)(a->n_banks * a->bank_width_bytes);
    uint32_t base = (uint32_t)harness_range(r, 0, 1 << 16);
    int family = (int)harness_range(r, 0, 11);
    static const int strides[] = {0, 1, 2, 4, 8, 12, 16, 32, 64, 68, 128, 132, 256, 272, 512, 1024};
    for (int l = 0; l < n; l++) {
        uint32_t v;
        switch (family) {
        case 0: v = (uint32_t)harness_range(r, 0, 1 << 16); break;                         /* uniform */
        case 1: v = base + (uint32_t)harness_range(r, 0, 2048); break;                      /* local */
        case 2: v = (uint32_t)harness_range(r, 0, 7) * 4 + row * (uint32_t)harness_range(r, 0, 63); break; /* few banks */
        case 3: v = base + row * (uint32_t)harness_range(r, 0, 3); break;                    /* one bank */
        case 4: v = base; break;                                                             /* broadcast */
        case 5: v = base + (uint32_t)(harness_range(r, 0, 1) * W) + (uint32_t)harness_range(r, 0, 3); break;
        case 6: v = base + (uint32_t)harness_range(r, 0, 15); break;                        /* sub-dword */
        case 7: v = UINT32_MAX - (uint32_t)harness_range(r, 0, 4096); break;                 /* top of range */
        default: v = 0; break;
        }
        in.addr_bytes[l] = v;
    }
    if (family >= 8) { /* strided, optionally unaligned, optionally paired for folds */
        int s = strides[harness_range(r, 0, 15)];
        int off = family == 9 ? (int)harness_range(r, 0, 3) : 0;
        for (int l = 0; l < n; l++) in.addr_bytes[l] = base + (uint32_t)(s * l + off);
        if (family >= 10) {
            int m = family == 10 ? 1 : 2;
            for (int l = 0; l < n; l++) in.addr_bytes[l] = in.addr_bytes[l & ~m];
            if (harness_range(r, 0, 3) == 0) in.addr_bytes[harness_range(r, 0, n - 1)] += 4;
        }
    }
    switch (harness_range(r, 0, 5)) {
    case 0: in.active_mask = harness_next(r); break;
    case 1: in.active_mask = (uint64_t)1 << harness_range(r, 0, n - 1); break;
    case 2: in.active_mask = harness_next(r) & harness_next(r) & harness_next(r); break;
    case 3: in.active_mask = 0; break;
    default: break; /* all active */
    }
    in.active_mask &= layout_lane_mask_all(n);
    return in;
}

static void test_brute_force_random(void)
{
    arch_set s;
    make_archs(&s);
    harness_rng r = {0x9E3779B97F4A7C15ull};
    long n = harness_scaled(100000), mism = 0;
    for (long i = 0; i < n; i++) {
        const layout_arch *a = &s.archs[i % s.n];
        layout_instr in = random_instr(&r, a);
        layout_cost c, b = brute(a, &in);
        CHECK(layout_instr_cost(a, &in, LAYOUT_IMPL_SCALAR, &c, NULL) == LAYOUT_OK);
        if (!same_cost(c, b)) {
            if (mism++ < 5)
                fprintf(stderr, "  %s %s b%d: scalar %d/%d/%d/%d vs brute %d/%d/%d/%d\n", a->name,
                        layout_direction_name(in.direction), in.width_bytes * 8, c.extra_cycles, c.total_cycles,
                        c.worst_nway, c.worst_group, b.extra_cycles, b.total_cycles, b.worst_nway, b.worst_group);
        }
    }
    CHECK_EQ_I64(mism, 0);
}

static void test_avx2_vs_scalar(void)
{
    if (!layout_check_impl_available(LAYOUT_IMPL_AVX2)) {
        printf("test_check: AVX2 unavailable here; differential skipped (scalar only)\n");
        return;
    }
    arch_set s;
    make_archs(&s);
    layout_checker cs[32], cv[32];
    for (int i = 0; i < s.n; i++) {
        CHECK(layout_checker_init(&cs[i], &s.archs[i], LAYOUT_IMPL_SCALAR, NULL) == LAYOUT_OK);
        CHECK(layout_checker_init(&cv[i], &s.archs[i], LAYOUT_IMPL_AVX2, NULL) == LAYOUT_OK);
    }
    harness_rng r = {0x1234567887654321ull};
    long n = harness_scaled(1000000), mism = 0, conflicted = 0, folded = 0;
    enum { BATCH = 64 };
    layout_instr ins[BATCH];
    layout_cost c1[BATCH], c2[BATCH];
    for (long i = 0; i < n; i += BATCH) {
        int ai = (int)((i / BATCH) % s.n);
        int m = (int)(n - i < BATCH ? n - i : BATCH);
        for (int k = 0; k < m; k++) ins[k] = random_instr(&r, &s.archs[ai]);
        layout_cost_totals t1, t2;
        CHECK(layout_checker_cost_batch(&cs[ai], ins, (size_t)m, c1, &t1, NULL) == LAYOUT_OK);
        CHECK(layout_checker_cost_batch(&cv[ai], ins, (size_t)m, c2, &t2, NULL) == LAYOUT_OK);
        for (int k = 0; k < m; k++) {
            conflicted += c1[k].extra_cycles > 0;
            folded += c1[k].fold_xor != 0;
            if (same_cost(c1[k], c2[k])) continue;
            if (mism++ < 5)
                fprintf(stderr, "  %s %s b%d mask %llx: scalar %d/%d/%d/%d/%d vs avx2 %d/%d/%d/%d/%d\n",
                        s.archs[ai].name, layout_direction_name(ins[k].direction), ins[k].width_bytes * 8,
                        (unsigned long long)ins[k].active_mask, c1[k].extra_cycles, c1[k].total_cycles,
                        c1[k].worst_nway, c1[k].worst_group, c1[k].fold_xor, c2[k].extra_cycles,
                        c2[k].total_cycles, c2[k].worst_nway, c2[k].worst_group, c2[k].fold_xor);
        }
        CHECK_EQ_I64(t1.extra_cycles, t2.extra_cycles);
    }
    printf("test_check: differential avx2 vs scalar: %ld instructions (%ld conflicted, %ld folded), %ld mismatches\n",
           n, conflicted, folded, mism);
    CHECK_EQ_I64(mism, 0);
    CHECK(conflicted > n / 4);
    CHECK(folded > 0);
}

/* ---- batch and bad inputs --------------------------------------------- */

static void test_batch(void)
{
    layout_arch g942 = preset("gfx942");
    layout_checker ck;
    layout_error e;
    CHECK(layout_checker_init(&ck, &g942, LAYOUT_IMPL_AUTO, &e) == LAYOUT_OK);
    CHECK(ck.impl == layout_check_impl_best());
    layout_instr ins[3];
    ins[0] = strided(64, 16, LAYOUT_READ, 16, ~0ull);
    ins[1] = strided(64, 4, LAYOUT_READ, 128, ~0ull);
    ins[2] = strided(64, 4, LAYOUT_READ, 128, LANES(0, 1));
    layout_cost c[3];
    layout_cost_totals t;
    CHECK(layout_checker_cost_batch(&ck, ins, 3, c, &t, &e) == LAYOUT_OK);
    CHECK_EQ_I64(t.n_instrs, 3);
    CHECK_EQ_I64(t.extra_cycles, 63);
    CHECK_EQ_I64(t.total_cycles, 8 + 64 + 3);
    CHECK_EQ_I64(t.n_conflicted, 2);
    CHECK_EQ_I64(t.worst_index, 1);
    CHECK_EQ_I64(t.worst_extra, 62);
    CHECK_EQ_I64(t.worst_nway, 32);
    CHECK_EQ_I64(c[2].extra_cycles, 1);
    CHECK(layout_checker_cost_batch(&ck, NULL, 0, NULL, &t, &e) == LAYOUT_OK);
    CHECK_EQ_I64(t.n_instrs, 0);
    CHECK_EQ_I64(t.extra_cycles, 0);
    layout_cost one;
    CHECK(layout_checker_cost(&ck, &ins[1], &one, &e) == LAYOUT_OK);
    CHECK_EQ_I64(one.extra_cycles, 62);
    /* a bad instruction in the middle: nothing written, index named */
    ins[2].width_bytes = 3;
    memset(c, 0x77, sizeof c);
    layout_cost keep;
    memcpy(&keep, &c[0], sizeof keep);
    CHECK(layout_checker_cost_batch(&ck, ins, 3, c, &t, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "layout_checker_cost_batch: instrs[2].width_bytes = 3");
    CHECK(memcmp(&c[0], &keep, sizeof keep) == 0);
    CHECK(layout_checker_cost_batch(&ck, NULL, 2, c, &t, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_checker_cost_batch(NULL, ins, 2, c, &t, &e) == LAYOUT_ERR_NULL);
}

static void test_bad_inputs(void)
{
    layout_arch g942 = preset("gfx942"), s90 = preset("sm_90");
    layout_instr in = strided(64, 16, LAYOUT_READ, 16, ~0ull);
    layout_cost c, keep;
    layout_cost_detail d;
    layout_checker ck;
    layout_error e;
    memset(&c, 0x11, sizeof c);
    memcpy(&keep, &c, sizeof c);

    CHECK(layout_instr_cost(NULL, &in, LAYOUT_IMPL_AUTO, &c, &e) == LAYOUT_ERR_NULL);
    CHECK_STR_CONTAINS(e.message, "layout_instr_cost: arch is NULL");
    CHECK(layout_instr_cost(&g942, NULL, LAYOUT_IMPL_AUTO, &c, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_instr_cost(&g942, &in, LAYOUT_IMPL_AUTO, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_instr_cost(&g942, &in, (layout_check_impl)7, &c, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "impl = 7");
    /* width unsupported by the arch: sm_90 has no 12-byte access */
    layout_instr w12 = strided(32, 12, LAYOUT_READ, 16, 0xFFFFFFFF);
    CHECK(layout_instr_cost(&s90, &w12, LAYOUT_IMPL_AUTO, &c, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "instr.width_bytes = 12: sm_90 has no read b96 instruction");
    /* lane count != wave size */
    CHECK(layout_instr_cost(&s90, &in, LAYOUT_IMPL_AUTO, &c, &e) == LAYOUT_ERR_MISMATCH);
    CHECK_STR_CONTAINS(e.message, "instr.n_lanes = 64 differs from sm_90's wave size 32");
    layout_instr bad = in;
    bad.n_lanes = 48;
    CHECK(layout_instr_cost(&g942, &bad, LAYOUT_IMPL_AUTO, &c, &e) == LAYOUT_ERR_ARG);
    bad = in;
    bad.width_bytes = 32;
    CHECK(layout_instr_cost(&g942, &bad, LAYOUT_IMPL_SCALAR, &c, &e) == LAYOUT_ERR_ARG);
    bad = in;
    bad.direction = (layout_direction)2;
    CHECK(layout_instr_cost(&g942, &bad, LAYOUT_IMPL_SCALAR, &c, &e) == LAYOUT_ERR_ARG);
    bad = w12;
    bad.active_mask = 1ull << 40;
    CHECK(layout_instr_cost(&s90, &bad, LAYOUT_IMPL_SCALAR, &c, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "active_mask = 0x10000000000");
    /* a corrupted arch: overlapping and missing groups */
    layout_arch broken = g942;
    broken.rules[LAYOUT_READ][5].groups[3] |= 1;
    CHECK(layout_instr_cost(&broken, &in, LAYOUT_IMPL_SCALAR, &c, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "overlaps");
    CHECK(layout_checker_init(&ck, &broken, LAYOUT_IMPL_SCALAR, &e) == LAYOUT_ERR_ARG);
    broken = g942;
    broken.rules[LAYOUT_READ][5].groups[3] = 0x0F000000ull;
    CHECK(layout_instr_explain(&broken, &in, &d, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "miss lanes");
    broken = g942;
    broken.n_banks = 0;
    CHECK(layout_instr_cost(&broken, &in, LAYOUT_IMPL_SCALAR, &c, &e) == LAYOUT_ERR_ARG);
    CHECK(memcmp(&c, &keep, sizeof c) == 0);
    /* explain / checker NULLs */
    CHECK(layout_instr_explain(&g942, &in, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_instr_explain(NULL, &in, &d, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_checker_init(NULL, &g942, LAYOUT_IMPL_AUTO, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_checker_init(&ck, NULL, LAYOUT_IMPL_AUTO, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_checker_init(&ck, &g942, (layout_check_impl)-1, &e) == LAYOUT_ERR_ARG);
    if (!layout_check_impl_available(LAYOUT_IMPL_AVX2))
        CHECK(layout_checker_init(&ck, &g942, LAYOUT_IMPL_AVX2, &e) == LAYOUT_ERR_UNSUPPORTED);
    CHECK(layout_checker_init(&ck, &g942, LAYOUT_IMPL_SCALAR, &e) == LAYOUT_OK);
    CHECK(layout_checker_cost(&ck, NULL, &c, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_checker_cost(&ck, &in, NULL, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_checker_cost(NULL, &in, &c, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_checker_cost(&ck, &w12, &c, &e) == LAYOUT_ERR_MISMATCH);
    /* names */
    CHECK(strcmp(layout_check_impl_name(LAYOUT_IMPL_AVX2), "avx2") == 0);
    CHECK(strcmp(layout_check_impl_name((layout_check_impl)9), "?") == 0);
    CHECK(layout_check_impl_available(LAYOUT_IMPL_SCALAR));
    CHECK(!layout_check_impl_available((layout_check_impl)9));
}

static void test_instr_helpers(void)
{
    layout_instr in, keep;
    layout_error e;
    memset(&in, 0x22, sizeof in);
    memcpy(&keep, &in, sizeof in);
    CHECK(layout_instr_init(&in, 48, 4, LAYOUT_READ, &e) == LAYOUT_ERR_ARG);
    CHECK_STR_CONTAINS(e.message, "layout_instr_init: n_lanes = 48");
    CHECK(layout_instr_init(&in, 64, 5, LAYOUT_READ, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_instr_init(&in, 64, 4, (layout_direction)9, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_instr_init(NULL, 64, 4, LAYOUT_READ, &e) == LAYOUT_ERR_NULL);
    CHECK(memcmp(&in, &keep, sizeof in) == 0);
    CHECK(layout_instr_init(&in, 32, 16, LAYOUT_WRITE, &e) == LAYOUT_OK);
    CHECK_EQ_I64(in.active_mask, 0xFFFFFFFF);
    CHECK(layout_instr_fill_strided(&in, 100, 16, &e) == LAYOUT_OK);
    CHECK_EQ_I64(in.addr_bytes[31], 100 + 16 * 31);
    memcpy(&keep, &in, sizeof in);
    CHECK(layout_instr_fill_strided(&in, 0, -4, &e) == LAYOUT_ERR_OVERFLOW);
    CHECK(layout_instr_fill_strided(&in, 4294967000LL, 16, &e) == LAYOUT_ERR_OVERFLOW);
    CHECK(layout_instr_fill_strided(&in, 0, INT64_MAX, &e) == LAYOUT_ERR_OVERFLOW);
    CHECK(memcmp(&in, &keep, sizeof in) == 0);
    CHECK(layout_instr_fill_strided(NULL, 0, 4, &e) == LAYOUT_ERR_NULL);
    CHECK(layout_instr_validate(&in, &e) == LAYOUT_OK);
    in.active_mask = 1ull << 33;
    CHECK(layout_instr_validate(&in, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_instr_validate(NULL, &e) == LAYOUT_ERR_NULL);
    in.n_lanes = 31;
    CHECK(layout_instr_validate(&in, &e) == LAYOUT_ERR_ARG);
    CHECK(layout_instr_fill_strided(&in, 0, 4, &e) == LAYOUT_ERR_ARG);
    CHECK_EQ_I64(layout_lane_mask_all(64), -1);
    CHECK_EQ_I64(layout_lane_mask_all(0), 0);
    CHECK_EQ_I64(layout_lane_mask_all(65), 0);
}

int main(void)
{
    RUN(test_published_small);
    RUN(test_seed_kernels);
    RUN(test_nvidia);
    RUN(test_model_details);
    RUN(test_brute_force_random);
    RUN(test_avx2_vs_scalar);
    RUN(test_batch);
    RUN(test_bad_inputs);
    RUN(test_instr_helpers);
    return harness_finish("test_check");
}
