/* The CTA's sums of a padded local_load / local_store (lib/triton_kernel/
 * ldst.c: each warp of a padded layout is costed, the padding of warp w's
 * offsets not being warp 0's moved by a constant), against brute force:
 * random register, lane, warp -> offset maps with one or two padding
 * terms on three targets; for every warp and every access, the lane
 * addresses made by the linear layer, padded here
 * (offset + sum (offset >> interval) << pad, Triton's PaddedSharedLayout)
 * and costed by the checker, summed.  Compared where the
 * LoadStoreVectorizer merged nothing (one instruction per access); warp
 * 0's sum must be the per-warp figures.  Unpadded, the sums are left to
 * layout_triton_kernel_analyze (num_warps x warp 0's, checked on a kernel).
 *
 * Known answer: g132 of the Gluon fixtures (fp8, [32:+2], 32 x 16 under a
 * blocked layout with threadsPerWarp [32, 1], warpsPerCTA [1, 8]): Nsight
 * Compute on an H200 measured 20 wavefronts per instruction over the 8
 * warps (tests/fixtures/gluon/probe.jsonl: 5 wavefronts and 3 conflicts
 * per warp over 2 instructions). */
#include "harness.h"
#include "layout.h"
#include "triton_kernel/tk_internal.h"

#include <stdio.h>
#include <string.h>

static uint64_t pad_offset(const layout_tk_pad *p, uint64_t off)
{
    uint64_t out = off;
    for (int q = 0; q < p->n; q++) out += (off >> p->ishift[q]) << p->pshift[q];
    return out;
}

static void test_random(void)
{
    static const char *const archs[] = {"gfx942", "gfx950", "sm_90"};
    static layout_triton_kernel k;
    static layout_triton_kernel_op r;
    harness_rng rng = {0x3a7f5eedull};
    long it, n = harness_scaled(1500), compared = 0, differ = 0;
    for (it = 0; it < n; it++) {
        layout_linear cvt;
        layout_checker ck;
        layout_error err;
        layout_tk_pad pad;
        layout_tk_global g = {0, -1, -1, -1};
        int ai = (int)(it % 3), eb = 1 << harness_range(&rng, 0, 2), nreg = (int)harness_range(&rng, 0, 3);
        int nwb = (int)harness_range(&rng, 1, 3), off_bits = 12, lanes, ir, il, iw, i, j;
        int64_t v[1];
        memset(&k, 0, sizeof k);
        if (layout_arch_preset(archs[ai], &k.arch, &err) != LAYOUT_OK) {
            CHECK_MSG(0, "%s", err.message);
            return;
        }
        k.is_nvidia = ai == 2;
        k.sm = k.is_nvidia ? 90 : 0;
        lanes = layout_log2_floor(k.arch.wave_size);
        CHECK(layout_checker_init(&ck, &k.arch, LAYOUT_IMPL_AUTO, &err) == LAYOUT_OK);
        layout_linear_init(&cvt, NULL);
        layout_linear_add_in_dim(&cvt, "register", nreg, NULL);
        layout_linear_add_in_dim(&cvt, "lane", lanes, NULL);
        layout_linear_add_in_dim(&cvt, "warp", nwb, NULL);
        layout_linear_add_out_dim(&cvt, "offset", off_bits, NULL);
        for (i = 0; i < nreg + lanes + nwb; i++) {
            int d = i < nreg ? 0 : i < nreg + lanes ? 1 : 2, b = i < nreg ? i : i < nreg + lanes ? i - nreg : i - nreg - lanes;
            v[0] = harness_range(&rng, 0, 7) == 0 ? 0 : (int64_t)1 << harness_range(&rng, 0, off_bits - 1);
            layout_linear_set_basis(&cvt, d, b, v, NULL);
        }
        memset(&pad, 0, sizeof pad);
        pad.n = (int)harness_range(&rng, 1, 2);
        for (i = 0; i < pad.n; i++) {
            /* interval 2^(2..8) elements, padding 2^(0..2) elements, in bytes */
            pad.ishift[i] = (int)harness_range(&rng, 2, 8) + layout_log2_floor(eb);
            pad.pshift[i] = (int)harness_range(&rng, 0, 2) + layout_log2_floor(eb);
        }
        pad.min_interval = (int64_t)1 << (pad.ishift[0] - layout_log2_floor(eb));
        for (i = 1; i < pad.n; i++)
            if (((int64_t)1 << (pad.ishift[i] - layout_log2_floor(eb))) < pad.min_interval)
                pad.min_interval = (int64_t)1 << (pad.ishift[i] - layout_log2_floor(eb));
        memset(&r, 0, sizeof r);
        r.kind = harness_range(&rng, 0, 1) ? LAYOUT_TTGIR_LOCAL_LOAD : LAYOUT_TTGIR_LOCAL_STORE;
        r.direction = r.kind == LAYOUT_TTGIR_LOCAL_LOAD ? LAYOUT_READ : LAYOUT_WRITE;
        r.elem_bits = eb * 8;
        r.worst_access = -1;
        r.cta_total_cycles = r.cta_extra_cycles = -1;
        CHECK(layout_tk_lower_ldst(&k, &ck, &cvt, &pad, 0, &g, &r) == LAYOUT_OK);
        if (!r.modelled) continue;
        CHECK_MSG(r.cta_total_cycles >= 0 && r.cta_extra_cycles >= 0, "case %ld: no CTA sums", it);
        ir = layout_linear_in_dim(&cvt, "register");
        il = layout_linear_in_dim(&cvt, "lane");
        iw = layout_linear_in_dim(&cvt, "warp");
        (void)il;
        {
            /* the accesses: registers other than the vector's (offsets 1, 2, .. vec / 2 in order: padded, no permutation) */
            int rest[16], nrest = 0, nvec = layout_log2_floor(r.vec_elems);
            int64_t total = 0, extra = 0, w0_total = 0, w0_extra = 0, per_warp[8] = {0};
            for (i = nvec; i < nreg; i++)
                if (cvt.bases[cvt.in_shift[ir] + i]) rest[nrest++] = i;
            if (r.n_accesses != 1 << nrest) continue; /* merged runs: ldst.c's own per-warp loop, not compared here */
            for (int w = 0; w < 1 << nwb; w++)
                for (int a = 0; a < (1 << nrest); a++) {
                    int64_t ins[3] = {0, 0, 0};
                    layout_linear_access acc;
                    layout_instr in;
                    layout_cost c;
                    for (j = 0; j < nrest; j++)
                        if (a >> j & 1) ins[ir] |= (int64_t)1 << rest[j];
                    ins[iw] = w;
                    if (layout_linear_lane_access(&cvt, "lane", ins, eb, r.direction, r.vec_bits / 8, &acc, &err) !=
                            LAYOUT_OK ||
                        layout_linear_access_instr(&acc, &in, &err) != LAYOUT_OK) {
                        CHECK_MSG(0, "case %ld warp %d access %d: %s", it, w, a, err.message);
                        return;
                    }
                    for (int l = 0; l < in.n_lanes; l++) in.addr_bytes[l] = (uint32_t)pad_offset(&pad, in.addr_bytes[l]);
                    if (layout_checker_cost(&ck, &in, &c, &err) != LAYOUT_OK) {
                        CHECK_MSG(0, "case %ld: %s", it, err.message);
                        return;
                    }
                    total += c.total_cycles;
                    extra += c.extra_cycles;
                    per_warp[w] += c.total_cycles;
                    if (w == 0) w0_total += c.total_cycles, w0_extra += c.extra_cycles;
                }
            compared++;
            for (int w = 1; w < 1 << nwb; w++)
                if (per_warp[w] != per_warp[0]) {
                    differ++;
                    break;
                }
            CHECK_MSG(r.total_cycles == w0_total && r.extra_cycles == w0_extra && r.cta_total_cycles == total &&
                          r.cta_extra_cycles == extra,
                      "case %ld (%s, %d-byte elements, %d warps): warp 0 %lld / %lld, CTA %lld / %lld; brute force "
                      "warp 0 %lld / %lld, CTA %lld / %lld", it, archs[ai], eb, 1 << nwb, (long long)r.total_cycles,
                      (long long)r.extra_cycles, (long long)r.cta_total_cycles, (long long)r.cta_extra_cycles,
                      (long long)w0_total, (long long)w0_extra, (long long)total, (long long)extra);
        }
    }
    printf("test_tk_warps: %ld random padded lowerings compared, %ld with warps of other costs\n", compared, differ);
    CHECK(compared >= n / 4);
    CHECK(differ >= compared / 200); /* the case this test is for came up */
}

/* g132 through the whole reader: the JSON's CTA sums are what ncu measured. */
static void test_g132(void)
{
    static const char text[] =
        "#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 8], order = [1, 0]}>\n"
        "#shared = #ttg.padded_shared<[32:+2] {order = [1, 0], shape = [32, 16]}>\n"
        "#smem = #ttg.shared_memory\n"
        "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 8 : i32, ttg.target = \"cuda:90\", "
        "\"ttg.threads-per-warp\" = 32 : i32} {\n"
        "  tt.func public @k(%x: tensor<32x16xf8E4M3FN, #blocked>) {\n"
        "    %s = ttg.local_alloc %x : (tensor<32x16xf8E4M3FN, #blocked>) -> !ttg.memdesc<32x16xf8E4M3FN, #shared, #smem>\n"
        "    %y = ttg.local_load %s : !ttg.memdesc<32x16xf8E4M3FN, #shared, #smem> -> tensor<32x16xf8E4M3FN, #blocked>\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    static layout_ttgir m;
    static layout_triton_kernel k;
    layout_error err;
    CHECK(layout_ttgir_parse(text, strlen(text), &m, &err) == LAYOUT_OK);
    if (layout_triton_kernel_analyze(&m, NULL, &k, &err) != LAYOUT_OK) {
        CHECK_MSG(0, "%s", err.message);
        return;
    }
    CHECK_EQ_I64(k.n_ops, 2);
    for (int i = 0; i < k.n_ops; i++) {
        CHECK(k.ops[i].modelled);
        CHECK_EQ_I64(k.ops[i].total_cycles, 4);       /* warp 0: 2 instructions of 2 wavefronts */
        CHECK_EQ_I64(k.ops[i].cta_total_cycles, 40);  /* ncu: 20 per instruction over 8 warps */
        CHECK_EQ_I64(k.ops[i].cta_extra_cycles, 24);  /* ncu: 3 conflicts per warp */
    }
    CHECK_EQ_I64(k.cta_total_cycles, 80);
}

int main(void)
{
    RUN(test_random);
    RUN(test_g132);
    return harness_finish("test_tk_warps");
}
