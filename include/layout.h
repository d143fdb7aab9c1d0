/**
 * @file layout.h
 * @brief liblayout umbrella header: include this one.
 *
 * # A tour: the talk's kernel 08 XOR layout (docs/lds-model.md §4.2)
 *
 * A 64x32 fp16 tile (M = 64 rows, K = 32 columns) is staged in LDS.  Stored
 * row-major, a wave that reads a column keeps hitting the same two banks
 * (kernel 01 of the talk).  Kernel 08 instead XOR-swizzles 8-element packs
 * so that both its 16-byte writes and its 16-byte reads are conflict free.
 * ck_tile builds that descriptor in four steps; liblayout ports them call
 * for call.  For 32 banks, MLdsLayer L = 32*4/32/2 = 2 and RowMul = 1:
 *
 * @code
 * #include <layout.h>
 *
 * layout_descriptor d;
 * layout_transform t[3];
 * layout_error err;   // each call returns a layout_status; check it in real code
 *
 * // 1. reshape to [A = K/8*L = 8, B = M/L = 32, KPack = 8], last dim a vector of 8
 * int64_t len[3] = {8, 32, 8}, stride[3] = {8, 64, 1};
 * layout_naive_vec(&d, 3, len, stride, 8, 1, &err);
 *
 * // 2. xor(B * RowMul, A) on (B, A): A' = A ^ (B % 8); KPack passes through
 * layout_make_xor(32 * 1, 8, &t[0], &err);
 * layout_make_pass_through(8, &t[1], &err);
 * layout_seq lo2[2] = {LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2)};
 * layout_seq up2[2] = {LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2)};
 * layout_transform_descriptor(&d, &d, 2, t, lo2, up2, &err);
 *
 * // 3. unmerge A -> (L = 2, K0 = 4); B and KPack pass through
 * int64_t l_k0[2] = {2, 4};
 * layout_make_unmerge(2, l_k0, &t[0], &err);
 * layout_make_pass_through(32, &t[1], &err);
 * layout_make_pass_through(8, &t[2], &err);
 * layout_seq lo3[3] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1), LAYOUT_SEQ(2)};
 * layout_seq up3[3] = {LAYOUT_SEQ(0, 2), LAYOUT_SEQ(1), LAYOUT_SEQ(3)};
 * layout_transform_descriptor(&d, &d, 3, t, lo3, up3, &err);
 *
 * // 4. merge (B, L) -> M and (K0, KPack) -> K: the user sees [M = 64, K = 32]
 * int64_t b_l[2] = {32, 2}, k0_kp[2] = {4, 8};
 * layout_make_merge(2, b_l, &t[0], &err);
 * layout_make_merge(2, k0_kp, &t[1], &err);
 * layout_seq lo4[2] = {LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2, 3)};
 * layout_seq up4[2] = {LAYOUT_SEQ(0), LAYOUT_SEQ(1)};
 * layout_transform_descriptor(&d, &d, 2, t, lo4, up4, &err);
 *
 * int64_t mk[2] = {2, 0}, offset;
 * layout_desc_offset(&d, mk, &offset, &err);   // offset == 72 (elements)
 * @endcode
 *
 * The lower ids of a stage name the *old* top dims a transform consumes, the
 * upper ids the *new* top positions it produces — exactly the two
 * `sequence<>` tuples of ck_tile's `transform_tensor_descriptor`.
 *
 * The offsets (elements) at the start of each 8-element pack, rows 0..9:
 * @code
 *   m\k    0    8   16   24
 *    0     0    8   16   24
 *    1    32   40   48   56
 *    2    72   64   88   80     B = 1: packs swap pairwise   (A' = A ^ 1)
 *    3   104   96  120  112
 *    4   144  152  128  136     B = 2: pairs of packs swap   (A' = A ^ 2)
 *    5   176  184  160  168
 *    6   216  208  200  192
 *    7   248  240  232  224
 *    8   288  296  304  312     B = 4: rows 8 and 9 trade places
 *    9   256  264  272  280
 * @endcode
 * which is the closed form of docs/lds-model.md §4.2:
 * `offset = B*kK*L + A'*8 + C` with `B = m/L`, `A = (m%L)*(kK/8) + k/8`,
 * `C = k%8`, `A' = A ^ (B % (kK/8*L))`.  On 64 banks use L = 4, RowMul = 2
 * (xor(32, 16), unmerge(4, 4), merge(16, 4)).
 *
 * # What ck_tile does not tell you
 *
 * verify.h checks what ck_tile takes on trust:
 * layout_desc_verify_offsets() proves the layout is a bijection onto
 * [0, 2048); layout_desc_contiguity() measures that K really is contiguous in
 * groups of 8 (ck_tile's hint, layout_desc_vector_hints(), says 8 too; an XOR
 * on the vector dim would silently break it); layout_adaptor_diagnose()
 * reports that on 64 banks the xor declares B = 32 over a dim of 16 (RowMul
 * changes no offset, but the stages disagree).  layout_desc_print() shows the
 * transform chain with its hidden dims.
 *
 * # The whole kernel: distributions and the triple check
 *
 * Which lane holds which element is a ck_tile tile_distribution_encoding
 * (distribution.h).  Kernel 08 reads with m = lane, k = 8*warp + y1:
 *
 * @code
 * layout_dist_encoding e = {0};            // R<1>, H<<1,8,8>,<4,8>>
 * e.n_r = 1; e.r[0] = 1;
 * e.n_x = 2; e.n_h[0] = 3; e.h[0][0] = 1; e.h[0][1] = 8; e.h[0][2] = 8;
 *            e.n_h[1] = 2; e.h[1][0] = 4; e.h[1][1] = 8;
 * e.n_p = 2;                               // P0 (warp) -> (2,0); P1 (lane) -> (1,1),(1,2)
 * e.n_p_rh[0] = 1; e.p_major[0][0] = 2; e.p_minor[0][0] = 0;
 * e.n_p_rh[1] = 2; e.p_major[1][0] = 1; e.p_minor[1][0] = 1; e.p_major[1][1] = 1; e.p_minor[1][1] = 2;
 * e.n_y = 2; e.y_major[0] = 1; e.y_minor[0] = 0; e.y_major[1] = 2; e.y_minor[1] = 1;
 * layout_distribution rd, wd;              // wd: the store side, built the same way
 * layout_dist_make(&rd, &e, 64, 4, 0, NULL, &err);
 *
 * layout_arch arch;
 * layout_arch_preset("gfx942", &arch, &err);
 * layout_kernel_result r;
 * layout_check_triple(&arch, &wd, &d, &rd, 2, &r, &err);
 * // r.read.ops == "1 x ds_read_b128", r.extra_cycles_per_tile == 0
 * @endcode
 *
 * access.h derives the DS instructions each wave issues the way ck_tile's
 * tile window and the compiler would (vector width from the descriptor's
 * hints, snake order, merging of adjacent elements by proven alignment) and
 * flags misaligned or non-contiguous vectors; check.h costs one instruction
 * on an arch (arch.h); kernel.h sums both sides over all waves and tiles into
 * SQ_LDS_BANK_CONFLICT / SQ_INSTS_LDS style totals.  `make demo` reproduces
 * the talk's whole table this way (examples/seed_kernels.h builds every
 * kernel).  text.h reads and writes descriptors and distributions as text.
 *
 * One instruction with some lanes off costs as the hardware counts it, per
 * vendor: on NVIDIA a phase without an active lane adds no wavefront (the
 * arch's idle_group_cycles, 0 on every sm_ preset; measured on an H200,
 * docs/lds-model.md §2.5), on AMD it still takes its cycle:
 * @code
 * layout_arch nv;
 * layout_instr ld;
 * layout_cost c;
 * layout_arch_preset("sm_90", &nv, &err);
 * layout_instr_init(&ld, 32, 16, LAYOUT_READ, &err);      // an LDS.128
 * for (int l = 0; l < 32; l++) ld.addr_bytes[l] = 16u * (unsigned)l;
 * ld.active_mask = 0xFFFF;                                 // lanes 0-15: phases 0 and 1
 * layout_instr_cost(&nv, &ld, LAYOUT_IMPL_AUTO, &c, &err); // c.total_cycles == 2 wavefronts, not 4
 * @endcode
 *
 * A Triton kernel's tensor-core reads are costed too (triton_kernel.h): a
 * `ttng.warp_group_dot` on sm_90 reads each wgmma's A and B tiles in
 * bytes / 128 wavefronts without a bank conflict (measured on an H200 with
 * Nsight Compute's op_gmma counters, 49 of 49 kernels equal):
 * @code
 * // k analysed from a 64x64x32 fp16 matmul's TTGIR (one warpgroup, wgmma m64n64k16)
 * // k.ops[i].kind == LAYOUT_TTGIR_WARP_GROUP_DOT, k.ops[i].n_counts == 0 (no LSU instruction)
 * // k.ops[i].cta_total_cycles == 64: 2 wgmma x (2048 + 2048 bytes) / 128
 * @endcode
 *
 * # Limits (honest)
 *
 * - Offsets are in elements; multiply by the element size for bytes.
 * - Fixed capacities (limits.h): 8 top dims, 8 dims per transform, 24
 *   transforms, 48 hidden dims.  Beyond them: ::LAYOUT_ERR_CAPACITY.
 * - layout_desc_offset() interprets the chain once per coordinate (exact,
 *   ~30 ns); for tiles and search loops compile the descriptor once with
 *   plan.h (affine stages folded, AVX2 row walks, ~1.2 ns per coordinate on
 *   kernel 08) and whole kernels with kernel_plan.h.  There is no per-element
 *   incremental stepping like ck_tile's move_tensor_coordinate.
 * - Verification enumerates every coordinate: O(size x transforms).
 * - ck_tile's semantics are kept where they surprise: xor's modulus is its
 *   second length and is never range-checked, merge's first digit is not
 *   reduced, padded coordinates still get an offset (ask
 *   layout_desc_is_valid()), a naive descriptor's base offset is not part of
 *   its element space size, vector hints are what ck_tile *believes*.
 *   ck_tile's unusable left_pad and broken modulo update are not copied.
 *
 * Thread safety: no global mutable state, no allocation in the library
 * core; every object is a caller-owned value.
 *
 * # Linear layouts over F2 (linear.h)
 *
 * Kernel 08's descriptor is linear over F2: every offset is the XOR of the
 * offsets of the coordinate's set bits (Triton's `LinearLayout`).
 * layout_desc_to_linear() proves it and returns the bases:
 *
 * @code
 * layout_linear l;
 * layout_desc_to_linear(&d, &l, &err);        // d: the kernel 08 descriptor above
 * char text[1024];
 * layout_linear_print(&l, text, sizeof text);
 * //  - dim0=1 -> (32)       m bit 0: the L half of a 64-element row block
 * //    dim0=2 -> (72)       m bit 1: next B (64) and A' ^= 1 (8)
 * //    dim0=4 -> (144)      ...
 * //  - dim1=1 -> (1)        k: contiguous
 * // where out dims are: [offset (size 2048)]
 * int64_t mk[2] = {3, 9}, off;
 * layout_linear_apply(&l, mk, &off, &err);    // 32 ^ 72 ^ 9 = 97 = layout_desc_offset()
 * @endcode
 *
 * layout_linear_invert() gives Triton's view of a shared layout (offset ->
 * (dim0, dim1)); layout_linear_compose() chains a distribution's linear form
 * (layout_dist_to_linear()) with it, layout_linear_lane_access() +
 * layout_linear_access_cost() count bank conflicts from the bases alone, and
 * layout_linear_tile_offsets() writes a whole tile at one XOR per offset.
 * Kernel 03 (rows of 34) is refused with "not linear over F2: ... stride 34
 * of dim 0 is not a power of two".  See docs/linear.md.
 *
 * # Other dialects: Triton, CuTe, IREE (dialect.h, cute.h, triton.h, iree.h)
 *
 * A layout written for another stack reads straight into a descriptor and
 * back, exactly (docs/dialects.md):
 *
 * @code
 * layout_descriptor d;
 * char text[LAYOUT_TEXT_CAP];
 * // a swizzled CuTe layout as print() shows it (the swizzle acts on element offsets)
 * layout_desc_from_cute("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", &d, NULL, &err);
 * // ... check it like any descriptor, then hand it to a Triton user:
 * if (layout_desc_to_triton(&d, text, sizeof text, &err) == LAYOUT_OK)
 *     puts(text);   // #ttg.swizzled_shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0]}>
 * else
 *     puts(err.message);   // why Triton cannot express it
 * @endcode
 *
 * layout_dialect_detect() tells the dialects apart; `layout convert` and
 * every command's `--dialect` / `--shape` expose the same on the command line.
 *
 * # A whole Triton kernel (ttgir.h)
 *
 * A Triton user has a kernel, not one attribute: layout_ttgir_parse() reads
 * the TTGIR Triton prints (`kernel.asm["ttgir"]`) once, without a heap, and
 * lists each op that touches shared memory with its types, its layouts and
 * the line of the user's source it came from (docs/ttgir.md):
 *
 * @code
 * static layout_ttgir m;                      // fixed capacity, ~780 KiB
 * layout_ttgir_parse(text, strlen(text), &m, &err);   // m.target "hip:gfx942"
 * for (int i = 0; i < m.n_ops; i++) {
 *     const char *attr; size_t n; char loc[128];
 *     layout_ttgir_op_loc(&m, i, loc, sizeof loc);    // "kernel.py":45:20
 *     if (m.ops[i].kind == LAYOUT_TTGIR_LOCAL_ALLOC && m.ops[i].n_dst == 1 &&
 *         layout_ttgir_encoding(&m, &m.ops[i].dst[0], &attr, &n) == LAYOUT_OK)
 *         printf("%s %s: %.*s\n", layout_ttgir_op_name(m.ops[i].kind), loc, (int)n, attr);
 * }   // ttg.local_alloc "kernel.py":45:20: #ttg.swizzled_shared<{vec = 4, perPhase = 2, ...}>
 * @endcode
 *
 * Then each op lowered as Triton 3.6 lowers it and costed (triton_kernel.h),
 * and, instruction by instruction, what the compilers' passes made of it
 * (triton_stream.h: LLVM's LoadStoreVectorizer, AMDGPU's
 * SILoadStoreOptimizer within and across ops, ptxas's sunk load and its
 * joins of loads and stores into wider LDS / STS):
 *
 * @code
 * static layout_triton_kernel k;              // ~1.3 MiB: static or heap
 * static layout_triton_inst in[1024];
 * int n;
 * layout_triton_kernel_analyze(&m, NULL, &k, &err);   // arch from ttg.target
 * layout_triton_kernel_op_stream(&k, 0, in, 1024, &n, &err);
 * // transpose_fp32_32x128_w4_s1_gfx942's convert: 16 x ds_write_b32, then
 * // ds_read2_b32 pairs: in[16].partner == 17, in[17].offset - in[16].offset
 * // == 128 bytes (the AMDGCN's `offset1:32`), in[16].passes ==
 * // LAYOUT_TRITON_PASS_SILSOPT, in[16].lanes[w] == all 64 lanes of each warp
 * @endcode
 *
 * On NVIDIA the report's counts are the PTX's and its CTA costs what the
 * SASS runs: ptxas joins some accesses of one base register further
 * (lib/triton_kernel/ptxas_join.c, read off ptxas's own output):
 *
 * @code
 * // tests/fixtures/triton/ptxas/cumsum1d_fp32_1024_w4_s1_sm90.ttgir, a 1-D
 * // cumsum: its warp totals are read with ld.shared.v4.b32, .v2.b32, .b32
 * k.ops[0].ptxas_joined_loads;                // 1: the SASS has 2 LDS.128
 * layout_triton_kernel_op_stream(&k, 0, in, 1024, &n, &err);
 * // in[3] (the v2 at +16): passes & LAYOUT_TRITON_PASS_PTXAS_JOIN,
 * // ptxas_lead 3, ptxas_bytes 16; in[4] (the b32 at +24): ptxas_lead 3
 * @endcode
 *
 * # Which layout should I use? (suggest.h)
 *
 * layout_suggest() answers it: give the accesses, get the layouts that cost
 * least, every candidate scored exactly as layout_check_kernel() scores it.
 * Kernel 01's accesses (b128 writes along K, 2-byte reads along M through
 * the [K, M] view), no padding allowed:
 *
 * @code
 * layout_suggest_spec s = {0};
 * s.arch = &arch; s.elem_bytes = 2;
 * s.n_dims = 2; s.tile[0] = 64; s.tile[1] = 32;             // [M, K]
 * s.n_sides = 2;
 * s.sides[0].dist = &wd; s.sides[0].direction = LAYOUT_WRITE;
 * s.sides[1].dist = &rd01; s.sides[1].direction = LAYOUT_READ;
 * s.sides[1].has_view = 1; s.sides[1].view[0] = 1; s.sides[1].view[1] = 0;  // reads [K, M]
 * s.budget_bytes = 0;                                        // no padding
 * s.families = (1u << LAYOUT_FAMILY_COUNT) - 1;             // every family
 * static layout_suggest_result res;                          // ~430 KiB: not on the stack
 * layout_suggest(&s, &res, &err);
 * // res.top[0]: ck_xor "KPack=8 MLdsLayer=8", 0 extra cycles per tile (the
 * // packed layout costs 448), write 1 x ds_write_b128, read 8 x ds_read_u16,
 * // 4096 LDS bytes; res.all_exhausted == 1: 35,037 parameter sets tried.
 * @endcode
 *
 * Why it is conflict-free: the packed layout puts the 8 rows one
 * ds_read_u16 reads (m = 8*(lane%8) + j, 512 bytes apart) on one bank: 8-way.
 * KPack=8 / MLdsLayer=8 stores 8 rows per 256-element storage row and moves
 * pack A = 4*(m%8) + k/8 to A ^ (m/8); the 8 rows differ in m/8, so their
 * packs, and banks, differ — while each row's 8-element packs stay
 * contiguous and 16-byte aligned for the b128 writes.  Each result carries
 * its descriptor (layout_desc_to_text()), the C calls that build it
 * (layout_suggest_c_calls()), per-side costs and the Pareto front of (extra
 * cycles, LDS bytes); the CLI is `layout suggest`.  See docs/suggest.md.
 */
#ifndef LAYOUT_H
#define LAYOUT_H

#include "layout/status.h"
#include "layout/limits.h"
#include "layout/transform.h"
#include "layout/adaptor.h"
#include "layout/descriptor.h"
#include "layout/verify.h"
#include "layout/plan.h"
#include "layout/instr.h"
#include "layout/arch.h"
#include "layout/check.h"
#include "layout/report.h"
#include "layout/coalesce.h"
#include "layout/distribution.h"
#include "layout/access.h"
#include "layout/kernel.h"
#include "layout/kernel_plan.h"
#include "layout/text.h"
#include "layout/abi.h"

#include "layout/family.h"
#include "layout/ck_cpp.h"
#include "layout/linear.h"
/* Dialects: CuTe, Triton, IREE text forms. */
#include "layout/cute.h"
#include "layout/iree.h"
#include "layout/triton.h"
#include "layout/dialect.h"
#include "layout/triton_search.h"

#include "layout/lint.h"
#include "layout/emit.h"
#include "layout/suggest.h"
#include "layout/ttgir.h"
#include "layout/triton_kernel.h"
#include "layout/triton_stream.h"
#include "layout/profile.h"
#include "layout/calibrate.h"

#endif /* LAYOUT_H */
