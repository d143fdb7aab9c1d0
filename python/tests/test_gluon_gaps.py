"""liblayout.gluon: slices of every rank, AMDWMMALayout versions 2 and 3, and suggest()'s ranked list.

Known answers:
* Slices: the layout of ``SliceLayout(dim, parent)`` is Triton's ``SliceEncodingAttr::toLinearLayout``
  (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp): the parent's linear layout on the shape
  with a size-1 dim inserted at ``dim`` (``BlockedEncodingAttr::toLinearLayout``:
  identityStandardND of sizePerThread / threadsPerWarp / warpsPerCTA in ``order``, then
  combineCtaCgaWithShape: registers appended where the shape is larger, bases zeroed where it is
  smaller), that dim dropped, all-zero register bases removed.  The expected layouts below were
  derived by hand from that definition (each derivation in its comment) and written as
  ``DistributedLinearLayout`` objects, which the C library reads as given; the slice and its
  hand-written linear twin must cost the same on both sides.
* AMDWMMALayout: Triton's ``AMDWmmaEncodingAttr::toLinearLayout`` and
  ``wmmaDotOperandToLinearLayout`` (same file) for versions 2 and 3, derived by hand the same way
  for an accumulator with instr_shape [16, 16, 128] and an A operand with [16, 16, 32].
* suggest(): each ranked entry's store and load are what :func:`liblayout.gluon.check` gives the
  writer and the reader under that entry's layout (another module, built and lowered separately);
  the list is sorted; no swizzled layout of order [1, 0] written out here and costed with check() is
  cheaper than the head (tests/test_triton_ranked.c checks the ranking against a full brute force in C).
"""

from __future__ import annotations

import pytest

import liblayout
import liblayout.gluon as lg
import liblayout.triton as lt
from liblayout.gluon import layouts as gl

B2 = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
FLAT1 = gl.SwizzledSharedLayout(1, 1, 1, [0])
FLAT2 = gl.SwizzledSharedLayout(1, 1, 1, [1, 0])


def same_cost(a, b):
    for s in ("store", "load"):
        x, y = getattr(a, s), getattr(b, s)
        assert (x.instructions, x.bank_conflicts, x.wavefronts, x.extra_cycles, x.total_cycles) == \
            (y.instructions, y.bank_conflicts, y.wavefronts, y.extra_cycles, y.total_cycles), s


# ---- slices ----------------------------------------------------------------------------------------

# SliceLayout(0, B2) on [64]: parent shape [1, 64].  Registers: 8 along dim1 -> [0,1] [0,2] [0,4];
# lanes (order [1, 0]): 8 along dim1 -> [0,8] [0,16] [0,32], 4 along dim0 -> [1,0] [2,0], zeroed
# (dim0 has size 1); warps 4 along dim0 -> zeroed.  dim1 covered (8 x 8 = 64).  Drop dim0.
SLICE0_B2 = gl.DistributedLinearLayout([[1], [2], [4]], [[8], [16], [32], [0], [0]], [[0], [0]], [], [64])
# SliceLayout(1, B2) on [64]: parent shape [64, 1].  Registers along dim1 zeroed; lanes: 8 along
# dim1 zeroed, 4 along dim0 -> [1,0] [2,0]; warps 4 along dim0 -> [4,0] [8,0]; dim0 covered 16 of 64:
# registers [16,0] [32,0] appended.  Drop dim1, drop the zero registers: 4 registers per thread.
SLICE1_B2 = gl.DistributedLinearLayout([[16], [32]], [[0], [0], [0], [1], [2]], [[4], [8]], [], [64])
# SliceLayout(0, B3) on [64, 64], B3 = BlockedLayout([1,1,8], [1,4,8], [2,2,1], [2,1,0]): parent
# shape [1, 64, 64].  Registers 8 along dim2 -> [0,0,1] [0,0,2] [0,0,4]; lanes (order [2,1,0]) 8
# along dim2 -> [0,0,8] [0,0,16] [0,0,32], 4 along dim1 -> [0,1,0] [0,2,0]; warps 2 along dim1 ->
# [0,4,0], 2 along dim0 -> zeroed.  dim1 covered 8 of 64: registers [0,8,0] [0,16,0] [0,32,0].
B3 = gl.BlockedLayout([1, 1, 8], [1, 4, 8], [2, 2, 1], [2, 1, 0])
SLICE0_B3 = gl.DistributedLinearLayout([[0, 1], [0, 2], [0, 4], [8, 0], [16, 0], [32, 0]],
                                       [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], [[4, 0], [0, 0]], [], [64, 64])
# SliceLayout(2, B3) on [64, 64]: parent shape [64, 64, 1].  Registers along dim2 zeroed; lanes 8
# along dim2 zeroed, 4 along dim1 -> [0,1,0] [0,2,0]; warps [0,4,0] and 2 along dim0 -> [1,0,0].
# dim1 covered 8 of 64: registers [0,8,0] [0,16,0] [0,32,0]; dim0 covered 2 of 64: registers
# [2,0,0] .. [32,0,0] (appended dim by dim, dim0 first).
SLICE2_B3 = gl.DistributedLinearLayout([[2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [0, 8], [0, 16], [0, 32]],
                                       [[0, 0], [0, 0], [0, 0], [0, 1], [0, 2]], [[0, 4], [1, 0]], [], [64, 64])


@pytest.mark.parametrize("arch", ["sm_90", "gfx1100"])  # 32-lane warps, as B2 and B3 have
def test_rank1_slices_equal_their_linear_layouts(arch):
    same_cost(lg.check(gl.SliceLayout(0, B2), FLAT1, [64], "fp16", arch), lg.check(SLICE0_B2, FLAT1, [64], "fp16",
                                                                                  arch, num_warps=4))
    same_cost(lg.check(gl.SliceLayout(1, B2), FLAT1, [64], "fp32", arch), lg.check(SLICE1_B2, FLAT1, [64], "fp32",
                                                                                  arch, num_warps=4))


@pytest.mark.parametrize("arch", ["sm_90", "gfx1100"])  # 32-lane warps, as B2 and B3 have
def test_rank3_parent_slices_equal_their_linear_layouts(arch):
    for shared in (FLAT2, gl.SwizzledSharedLayout(4, 2, 4, [1, 0]), gl.SwizzledSharedLayout(1, 1, 1, [0, 1])):
        same_cost(lg.check(gl.SliceLayout(0, B3), shared, [64, 64], "fp16", arch),
                  lg.check(SLICE0_B3, shared, [64, 64], "fp16", arch, num_warps=4))
        same_cost(lg.check(gl.SliceLayout(2, B3), shared, [64, 64], "fp16", arch),
                  lg.check(SLICE2_B3, shared, [64, 64], "fp16", arch, num_warps=4))


def test_rank1_slices_of_mma_parents_are_read():
    # the parent's batch-dim form (warps 1 on the leading dim) holds the rank-1 slice as 1 x N
    mma = gl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8])
    mfma = gl.amd.AMDMFMALayout(3, [32, 32, 8], True, [2, 2])
    for reg, arch in ((gl.SliceLayout(0, mma), "sm_80"), (gl.SliceLayout(1, mfma), "gfx942"),
                      (gl.SliceLayout(0, gl.DotOperandLayout(0, mma, 2)), "sm_80")):
        r = lg.check(reg, FLAT1, [64], "fp16", arch)
        assert r.store.accesses > 0 and r.load.accesses > 0
    with pytest.raises(ValueError, match="version 2"):
        lg.check(gl.SliceLayout(0, gl.NVMMADistributedLayout([3, 0], [4, 1], [16, 32, 16])), FLAT1, [64], "fp16",
                 "sm_90")


# ---- suggest(): the ranked list --------------------------------------------------------------------

MMA_A = gl.DotOperandLayout(0, gl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), 2)


def test_suggest_ranked_sides_equal_check():
    ss = lg.suggest([B2], [MMA_A], [64, 64], "fp16", "sm_90")
    search = [s for s in ss if s.origin == "search"]
    assert len(search) == 8
    assert [s.cost for s in ss] == sorted(s.cost for s in ss)
    for s in search:
        assert s.cost == s.store.total_cycles + s.load.total_cycles
        w = lg.check(B2, s.layout, [64, 64], "fp16", "sm_90")
        r = lg.check(MMA_A, s.layout, [64, 64], "fp16", "sm_90")
        assert (s.store.instructions, s.store.wavefronts, s.store.bank_conflicts) == \
            (w.store.instructions, w.store.wavefronts, w.store.bank_conflicts), s.attr
        assert (s.load.instructions, s.load.wavefronts, s.load.bank_conflicts) == \
            (r.load.instructions, r.load.wavefronts, r.load.bank_conflicts), s.attr
        if not s.attr.startswith("#ttg.padded_shared"):  # the object prints its long form
            assert lg.attr_text(s.layout, [64, 64]) == s.attr
    # on NVIDIA every family the C search has is one Gluon has: its own best heads the list
    rep = lt.report(lg.module_text([B2], [MMA_A], FLAT2, [64, 64], "fp16", "sm_90"))
    assert rep["suggestions"][0]["improved"] and rep["suggestions"][0]["attr"] == ss[0].attr
    assert [s.origin for s in lg.suggest([B2], [MMA_A], [64, 64], "fp16", "sm_90", k=3)].count("search") == 3


def test_suggest_head_beats_every_swizzled_layout():
    shape = [16, 16]
    best = lg.suggest([B2], [MMA_A], shape, "fp16", "sm_80")[0]
    costs = {}
    for order in ([1, 0],):
        vec = 1
        while vec <= 16:
            pp = 1
            while pp <= 16:
                mp = 1
                while mp <= 16 // vec:
                    lay = gl.SwizzledSharedLayout(vec, pp, mp, order)
                    c = (lg.check(B2, lay, shape, "fp16", "sm_80").store.total_cycles +
                         lg.check(MMA_A, lay, shape, "fp16", "sm_80").load.total_cycles)
                    costs[(vec, pp, mp, tuple(order))] = c
                    mp *= 2
                pp *= 2
            vec *= 2
    assert best.cost <= min(costs.values())
    assert best.cost == min(costs.values()) or best.layout.__class__.__name__ != "SwizzledSharedLayout"


def test_suggest_amd_leaves_out_layouts_gluon_lacks():
    dot = gl.DotOperandLayout(0, gl.amd.AMDMFMALayout(3, [32, 32, 8], True, [2, 2]), 4)
    writer = gl.BlockedLayout([1, 8], [16, 4], [4, 1], [1, 0])
    ss = lg.suggest([writer], [dot], [128, 32], "fp16", "gfx942", k=16)
    assert len([s for s in ss if s.origin == "search"]) == 16
    assert all("amd_rotating_shared" not in s.attr and s.layout is not None for s in ss)
    with pytest.raises(ValueError, match="k = 17"):
        lg.suggest([writer], [dot], [128, 32], "fp16", "gfx942", k=17)


def test_wmma_tiles_per_warp_is_refused_with_the_reason():
    wmma = gl.amd.AMDWMMALayout(1, True, [2, 2], tiles_per_warp=[2, 1])
    assert "tilesPerWarp = [2, 1]" in lg.attr_text(wmma)
    with pytest.raises(liblayout.LayoutError, match="tilesPerWarp"):
        lg.check(wmma, FLAT2, [64, 64], "fp16", "gfx1100")


# ---- AMDWMMALayout: the versions and instruction shapes of RDNA4 and gfx1250 ----------------------------

# AMDWMMALayout(3, transposed=False, [2, 2], instr_shape=[16, 16, 128]) on [64, 64] (Triton's
# AMDWmmaEncodingAttr::toLinearLayout, versions 2 and 3): the 16 x 16 tile in (dim1, dim0) =
# getMatrixOrder(2, rowMajor = not transposed): registers (0,1) (0,2) (0,4) -> rows [1,0] [2,0]
# [4,0]; lanes (1,0) .. (8,0) -> columns [0,1] .. [0,8], the gap (0,8) -> row [8,0]; warps
# identityStandardND([2, 2], order [1, 0]) -> [0,16] [16,0]; dims covered 32 of 64: registers
# [0,32] [32,0].  The accumulator does not depend on the instruction's K.
WMMA_V3_ACC = gl.DistributedLinearLayout([[1, 0], [2, 0], [4, 0], [0, 32], [32, 0]],
                                         [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], [[0, 16], [16, 0]], [], [64, 64])
# DotOperandLayout(0, AMDWMMALayout(2, True, [2, 2], [16, 16, 32]), k_width=8) on [64, 64]
# (wmmaDotOperandToLinearLayout): kWidth 8 registers along K (dim1) [0,1] [0,2] [0,4]; 16 lanes
# along M [1,0] .. [8,0]; 32 / 16 = 2 lanes along K, version 2 the next K elements [0,8]; K = 32:
# 32 / (2 x 8) = 2 registers [0,16]; warps broadcast along K (order [1, 0]): [0,0] [16,0]; dims
# covered (32, 32) of 64: registers [0,32] [32,0].
WMMA_V2_A = gl.DistributedLinearLayout([[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [32, 0]],
                                       [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], [[0, 0], [16, 0]], [], [64, 64])


def test_wmma_instruction_shapes_equal_their_linear_layouts():
    # column-major and swizzled shared layouts tell the register and lane bases apart (a row-major
    # flat one does not: version 1's every-other-row registers cost the same there)
    for shared in (FLAT2, gl.SwizzledSharedLayout(8, 1, 8, [1, 0]), gl.SwizzledSharedLayout(1, 1, 1, [0, 1]),
                   gl.SwizzledSharedLayout(2, 2, 8, [1, 0])):
        same_cost(lg.check(gl.amd.AMDWMMALayout(3, False, [2, 2], [16, 16, 128]), shared, [64, 64], "fp16", "gfx1250"),
                  lg.check(WMMA_V3_ACC, shared, [64, 64], "fp16", "gfx1250", num_warps=4))
        same_cost(lg.check(gl.amd.AMDWMMALayout(2, False, [2, 2], [16, 16, 32]), shared, [64, 64], "fp16", "gfx1201"),
                  lg.check(WMMA_V3_ACC, shared, [64, 64], "fp16", "gfx1201", num_warps=4))
        a = gl.DotOperandLayout(0, gl.amd.AMDWMMALayout(2, True, [2, 2], [16, 16, 32]), 8)
        same_cost(lg.check(a, shared, [64, 64], "fp16", "gfx1201"),
                  lg.check(WMMA_V2_A, shared, [64, 64], "fp16", "gfx1201", num_warps=4))
    # the target Triton prints for the GPU named; costed on the gfx12 preset
    r = lg.check(a, FLAT2, [64, 64], "fp16", "hip:gfx1201")
    assert r.target == "hip:gfx1201" and r.arch == "gfx12"
    # shapes Triton's verifier refuses for the version are refused with the reason
    with pytest.raises(liblayout.LayoutError, match="instrShape"):
        lg.check(gl.amd.AMDWMMALayout(1, False, [2, 2], [16, 16, 32]), FLAT2, [64, 64], "fp16", "gfx1100")


# ---- the stand-ins have Triton 3.6's fields ----------------------------------------------------------


def test_stand_ins_have_triton_36_fields():
    """tests/fixtures/gluon/probe.txt: inspect.signature of each Gluon class as Triton 3.6.0 installed
    it; every stand-in has the same fields in the same order (the AMD ones under gl.amd, as in Triton 3.6;
    python/tests/test_gluon_names.py checks the whole namespace against tests/fixtures/gluon/gl_names.json)."""
    import dataclasses
    import re
    from pathlib import Path
    probe = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "gluon" / "probe.txt"
    seen = 0
    for line in probe.read_text().splitlines():
        m = re.match(r"^(\w+Layout) \((.*)\) -> None$", line)
        if not m:
            continue
        names = [p.split(":")[0].strip() for p in re.split(r",\s*(?=\w+:)", m.group(2))]
        ours = [f.name for f in dataclasses.fields(getattr(gl.amd if m.group(1).startswith("AMD") else gl, m.group(1)))]
        assert ours == names, (m.group(1), ours, names)
        seen += 1
    assert seen == 11


# ---- tiles of 3 and 4 dims, and of 1 (layout triton reads them without lifting) ----------------
#
# Known answer, from Triton's definitions: a blocked layout of order [2, 1, 0] with nothing along
# dim0 but repetitions (sizePerThread, threadsPerWarp and warpsPerCTA 1 there) holds element
# (d, r, c) of a [D, R, C] tensor where the [D * R, C] layout of order [1, 0] holds (d * R + r, c)
# (BlockedEncodingAttr::toLinearLayout: the repetition register bits of dim1 below those of dim0,
# as the row repetitions' low and high bits); swizzled_shared of order [2, 1, 0] swizzles the two
# fastest dims and stacks dim0 (swizzledSharedToLinearLayout), which is the 2-D swizzle of the
# [D * R, C] rows when R is a multiple of perPhase * maxPhase (the phase of row d * R + r is r's).
# So both tensors cost the same, instruction by instruction.

def _rank3_cases(n):
    import random
    rng = random.Random(20261128)
    for _ in range(n):
        arch = rng.choice(["sm_90", "gfx942", "gfx950"])
        lanes = 32 if arch == "sm_90" else 64
        dtype, bits = rng.choice([("fp16", 16), ("fp32", 32), ("i8", 8), ("bf16", 16)])
        t0 = 2 ** rng.randint(0, 5 if lanes == 32 else 6)
        t1 = lanes // t0
        nw = rng.choice([1, 2, 4])
        w0 = 2 ** rng.randint(0, nw.bit_length() - 1)
        w1 = nw // w0
        s0, s1 = rng.choice([1, 2]), rng.choice([1, 2, 4, 8])
        vec, per, mx = rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4]), rng.choice([1, 2, 4, 8])
        R = max(per * mx, s0 * t0 * w0, rng.choice([8, 16, 32]))
        C = max(s1 * t1 * w1, rng.choice([16, 32, 64]), vec)
        D = rng.choice([2, 4])
        yield arch, dtype, nw, (s0, s1, t0, t1, w0, w1), (vec, per, mx), (D, R, C)


def test_rank3_tiles_cost_what_their_2d_rows_cost():
    n = 0
    for arch, dtype, nw, (s0, s1, t0, t1, w0, w1), (vec, per, mx), (D, R, C) in _rank3_cases(40):
        b3 = gl.BlockedLayout([1, s0, s1], [1, t0, t1], [1, w0, w1], [2, 1, 0])
        b2 = gl.BlockedLayout([s0, s1], [t0, t1], [w0, w1], [1, 0])
        sh3 = gl.SwizzledSharedLayout(vec, per, mx, [2, 1, 0])
        sh2 = gl.SwizzledSharedLayout(vec, per, mx, [1, 0])
        three = lg.check(b3, sh3, [D, R, C], dtype, arch, num_warps=nw)
        two = lg.check(b2, sh2, [D * R, C], dtype, arch, num_warps=nw)
        same_cost(three, two)
        n += 1
    assert n == 40


def test_rank4_and_rank1_tiles():
    # a [1, D, R, C] tile is the [D, R, C] one (a size-1 dim adds no bit anywhere)
    b4 = gl.BlockedLayout([1, 1, 2, 4], [1, 1, 4, 8], [1, 1, 2, 2], [3, 2, 1, 0])
    b3 = gl.BlockedLayout([1, 2, 4], [1, 4, 8], [1, 2, 2], [2, 1, 0])
    four = lg.check(b4, gl.SwizzledSharedLayout(4, 2, 4, [3, 2, 1, 0]), [1, 2, 16, 64], "fp16", "sm_90")
    three = lg.check(b3, gl.SwizzledSharedLayout(4, 2, 4, [2, 1, 0]), [2, 16, 64], "fp16", "sm_90")
    same_cost(four, three)
    assert four.store.instructions and four.load.instructions
    # rank 1 read by the C library directly (no 1 x N lift): the same as the lifted module
    text1 = _module_1d("#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
                       "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>", "512")
    text2 = _module_1d("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], "
                       "order = [1, 0]}>",
                       "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", "1x512")
    r1, r2 = lt.report(text1), lt.report(text2)
    assert [op["instructions"] for op in r1["ops"]] == [op["instructions"] for op in r2["ops"]]
    assert [op["cost"] for op in r1["ops"]] == [op["cost"] for op in r2["ops"]]
    assert r1["ops"][0]["instructions"] == {"st.shared.v4.b32": 1}


def test_rank3_tiles_are_not_searched():
    b3 = gl.BlockedLayout([1, 1, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0])
    with pytest.raises(liblayout.LayoutError, match="3-D tile"):
        lg.suggest([b3], [b3], [2, 32, 32], "fp16", "sm_90")


def _module_1d(reg, shared, shape):
    return ('#r = %s\n#s = %s\n#smem = #ttg.shared_memory\n'
            'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", '
            '"ttg.threads-per-warp" = 32 : i32} {\n'
            '  tt.func public @k(%%x: tensor<%sxf32, #r>) {\n'
            '    %%s = ttg.local_alloc %%x : (tensor<%sxf32, #r>) -> !ttg.memdesc<%sxf32, #s, #smem>\n'
            '    %%y = ttg.local_load %%s : !ttg.memdesc<%sxf32, #s, #smem> -> tensor<%sxf32, #r>\n'
            '    tt.return\n  }\n}\n') % (reg, shared, shape, shape, shape, shape, shape)


def test_slice_of_a_slice():
    # SliceEncodingAttr::toLinearLayout applied twice (a slice's parent may be a slice).  The parent
    # (sizePerThread [1, 2, 4], threadsPerWarp [2, 4, 4], warpsPerCTA [2, 2, 1], order [2, 1, 0]) puts
    # lanes 1, 2 along dim2, lanes 4, 8 along dim1, lane 16 along dim0; warp 1 along dim1, warp 2 along
    # dim0.  Derived by hand: keeping dim2 of 64 (a CTA tile of 16) gives registers 1, 2 and the
    # repetitions 16, 32, lanes 4, 8, no warp; keeping dim1 of 32 (a tile of 16) gives register 1, the
    # repetition 16, lanes 2, 4 (lane bits 2, 3) and warp 8 (warp bit 0), whichever order drops dims 0, 2.
    b3 = gl.BlockedLayout([1, 2, 4], [2, 4, 4], [2, 2, 1], [2, 1, 0])
    keep2 = gl.DistributedLinearLayout([[1], [2], [16], [32]], [[4], [8], [0], [0], [0]], [[0], [0]], [], [64])
    keep1 = gl.DistributedLinearLayout([[1], [16]], [[0], [0], [2], [4], [0]], [[8], [0]], [], [32])
    for arch in ("sm_90", "gfx942"):
        if arch == "gfx942":  # 64 lanes: one more lane bit along dim0
            b3 = gl.BlockedLayout([1, 2, 4], [4, 4, 4], [2, 2, 1], [2, 1, 0])
            keep2 = gl.DistributedLinearLayout([[1], [2], [16], [32]], [[4], [8], [0], [0], [0], [0]], [[0], [0]],
                                               [], [64])
            keep1 = gl.DistributedLinearLayout([[1], [16]], [[0], [0], [2], [4], [0], [0]], [[8], [0]], [], [32])
        same_cost(lg.check(gl.SliceLayout(0, gl.SliceLayout(0, b3)), FLAT1, [64], "fp16", arch, num_warps=4),
                  lg.check(keep2, FLAT1, [64], "fp16", arch, num_warps=4))
        for nested in (gl.SliceLayout(1, gl.SliceLayout(0, b3)), gl.SliceLayout(0, gl.SliceLayout(2, b3))):
            same_cost(lg.check(nested, FLAT1, [32], "fp32", arch, num_warps=4),
                      lg.check(keep1, FLAT1, [32], "fp32", arch, num_warps=4))
