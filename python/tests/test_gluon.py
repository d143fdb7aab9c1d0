"""liblayout.gluon: Gluon layouts -> TTGIR text, the synthetic module, and its costs.

Known answers:
* ``bank_conflicts``: Triton's own test of ``gl.bank_conflicts`` (triton-lang/triton,
  python/test/gluon/test_frontend.py, ``test_bank_conflicts``, added with the function by
  PR 8181 "[GLUON] Expose bank_conflicts and to_linear_layout" and corrected for broadcasts by
  PR 8200; both merged before the 3.6 branch cut of 2025-12-01).  Its eleven cases and their
  expected counts are copied below; the C++ twin (unittest/Dialect/TritonGPU/SwizzleTest.cpp,
  ``BankConflictTest.bankConflicts``) checks the same cases against a brute-force count.
* ``attr_text``: the attribute text Triton prints for the same Gluon objects, from Triton's
  test_frontend.py (stored revision 1cf0503f3ef423ddeeb294a3a5b5a77ce66479c1: test_linear_layout,
  test_tensor_permute, test_async_copy's expected IR) and from TTGIR Triton 3.6.0 printed for the
  corpus (tests/fixtures/triton/kernels/*.ttgir).
Differential: every local_alloc / local_store / local_load of the Triton 3.6 corpus, rebuilt as
a one-op Gluon module by :func:`liblayout.gluon.check`, costs what ``layout triton`` gives the
op in its real kernel.
"""

from __future__ import annotations

import collections
import re
from pathlib import Path

import pytest

import liblayout
import liblayout.gluon as lg
import liblayout.triton as lt
from liblayout.gluon import layouts as gl

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "fixtures" / "triton" / "kernels"

V2 = lambda w: gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=w, instr_shape=[16, 8])  # noqa: E731
V3 = lambda w: gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=w, instr_shape=[16, 32, 16])  # noqa: E731
NVS = gl.NVMMASharedLayout

# test_frontend.py test_bank_conflicts: (reg_layout, shared_layout, shape, bitwidth, ref_conflicts)
TRITON_BANK_CONFLICTS = [
    (gl.BlockedLayout([1], [32], [4], [0]), gl.SwizzledSharedLayout(1, 1, 1, order=[0]), [32], 32, 0),
    (gl.BlockedLayout([1], [32], [4], [0]), gl.SwizzledSharedLayout(1, 1, 1, order=[0]), [32], 16, 0),
    (V3([4, 1]), NVS(swizzle_byte_width=128, element_bitwidth=16, rank=2), [128, 128], 16, 0),
    (gl.DotOperandLayout(operand_index=1, parent=V2([1, 4]), k_width=2),
     NVS(swizzle_byte_width=64, element_bitwidth=16, rank=2), [64, 32], 16, 0),
    (gl.DotOperandLayout(operand_index=0, parent=V2([1, 4]), k_width=2),
     NVS(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True), [32, 64], 16, 0),
    (gl.DotOperandLayout(operand_index=1, parent=V2([1, 4]), k_width=1),
     NVS(swizzle_byte_width=32, element_bitwidth=8, rank=2), [8, 32], 8, 0),
    (V2([4, 1]), NVS(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True), [64, 64], 16, 0),
    (V3([2, 2]), NVS(swizzle_byte_width=64, element_bitwidth=16, rank=2), [64, 32], 16, 0),
    (V2([4, 1]), NVS(swizzle_byte_width=32, element_bitwidth=8, rank=2), [32, 32], 8, 0),
    (V2([2, 4]), NVS(swizzle_byte_width=0, element_bitwidth=16, rank=2), [4, 64], 16, 3),
    (V3([4, 1]), NVS(swizzle_byte_width=128, element_bitwidth=32, rank=2), [128, 64], 32, 1),
]
DTYPE_OF_BITS = {8: "int8", 16: "float16", 32: "float32"}  # the test's {8: int8, 16: float16, 32: float32}


@pytest.mark.parametrize("case", range(len(TRITON_BANK_CONFLICTS)))
def test_bank_conflicts_triton_known_answers(case):
    reg, shared, shape, bits, want = TRITON_BANK_CONFLICTS[case]
    assert lg.bank_conflicts(reg, shared, shape=shape, dtype=DTYPE_OF_BITS[bits], arch="sm_90") == want


class _Dtype:  # a Triton dtype stand-in: Triton's dtype objects carry their name
    def __init__(self, name):
        self.name = name


class distributed_type:  # noqa: N801 - Gluon's class name
    def __init__(self, element_ty, shape, layout):
        self.element_ty, self.shape, self.layout = element_ty, shape, layout


class shared_memory_descriptor_type:  # noqa: N801 - Gluon's class name
    def __init__(self, element_ty, shape, layout, alloc_shape):
        self.element_ty, self.shape, self.layout, self.alloc_shape = element_ty, shape, layout, alloc_shape


def test_bank_conflicts_takes_gluon_types():
    # the call as test_frontend.py writes it: bank_conflicts(distributed_type, shared_memory_descriptor_type)
    reg, shared, shape, bits, want = TRITON_BANK_CONFLICTS[9]
    dt = _Dtype("fp16")
    assert lg.bank_conflicts(distributed_type(dt, shape, reg), shared_memory_descriptor_type(dt, shape, shared, shape)) \
        == want == 3


def test_bank_conflicts_is_the_store_wavefront_excess():
    # the definition on one case by hand: V2 [2, 4] over 4x64 fp16 with no swizzle stores
    # 2 x st.shared.b32 per warp (the widest vector: 2 halves) in 8 wavefronts: 8 / 2 - 1 = 3
    reg, shared, shape, _bits, _ = TRITON_BANK_CONFLICTS[9]
    r = lg.check(reg, shared, shape, "fp16", "sm_80")
    assert r.store.instructions == {"st.shared.b32": 2}
    assert r.store.wavefronts == 8 and r.store.bank_conflicts == 6


# ---- attribute text ---------------------------------------------------------------------------

def _earlier_blocked(size_per_thread, threads_per_warp, warps_per_cta, order, ctas_per_cga=None, cta_split_num=None,
                     cta_order=None):
    """A BlockedLayout as Gluon before Triton 3.6 had it (multi-CTA fields ctas_per_cga .. cta_order)."""
    cls = type("BlockedLayout", (), {})
    obj = cls()
    obj.__dict__.update(size_per_thread=size_per_thread, threads_per_warp=threads_per_warp,
                        warps_per_cta=warps_per_cta, order=order, ctas_per_cga=ctas_per_cga,
                        cta_split_num=cta_split_num, cta_order=cta_order)
    return obj


def test_attr_text_known_answers_triton_frontend():
    # test_linear_layout's expected IR
    ll = gl.DistributedLinearLayout(reg_bases=[[1]], lane_bases=[[2], [4], [8], [16], [32]],
                                    warp_bases=[[64], [128]], block_bases=[], shape=[256])
    assert lg.attr_text(ll) == ("#ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], "
                                "warp = [[64], [128]], block = []}>")
    # test_tensor_permute's CHECK lines
    assert lg.attr_text(gl.BlockedLayout([1, 2], [4, 8], [4, 1], [1, 0])) == (
        "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>")
    # (that Gluon's positional ctas_per_cga, cta_split_num, cta_order; Triton 3.6 has cga_layout there, and its
    # stand-in has no such fields: an object of earlier Gluon's shape is read by its class name and attributes)
    assert lg.attr_text(_earlier_blocked([2, 1], [8, 4], [1, 4], [0, 1], ctas_per_cga=[1, 1], cta_split_num=[1, 1],
                                         cta_order=[1, 0])) == (
        "#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>")
    # test_async_copy's expected IR
    assert lg.attr_text(gl.SwizzledSharedLayout(1, 1, 1, order=[0])) == (
        "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>")


def _aliases(path):
    return dict(re.match(r"(#\w+) = (#ttg\..*)$", line).groups()
                for line in path.read_text().split("\n") if re.match(r"#\w+ = #ttg\.", line))


def test_attr_text_known_answers_triton_36_corpus():
    a = _aliases(KERNELS / "matmul_fp16_64x64x32_w4_s2_gfx942.ttgir")
    mfma = gl.amd.AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=True, warps_per_cta=[2, 2])
    assert lg.attr_text(mfma) == a["#mma"]
    assert lg.attr_text(gl.SwizzledSharedLayout(4, 2, 8, [1, 0])) == a["#shared"]
    assert lg.attr_text(gl.BlockedLayout([4, 1], [1, 64], [4, 1], [1, 0])) == a["#blocked1"]
    assert lg.attr_text(gl.DotOperandLayout(0, mfma, 4)) == "#ttg.dot_op<{opIdx = 0, parent = %s, kWidth = 4}>" % a["#mma"]
    h = _aliases(KERNELS / "matmul_fp16_64x64x32_w4_s2_sm90.ttgir")
    assert lg.attr_text(gl.NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16])) == h["#mma"]
    assert lg.attr_text(gl.NVMMASharedLayout(64, 16, 2)) == h["#shared"]
    assert lg.attr_text(gl.NVMMASharedLayout(128, 16, 2, transposed=False)) == h["#shared1"]
    assert lg.attr_text(gl.SliceLayout(1, gl.BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0]))) == (
        "#ttg.slice<{dim = 1, parent = %s}>" % h["#blocked"])


def test_attr_text_padded_and_shared_linear_read_by_c():
    # both print forms the C reader takes (tests/test_dialect_triton.c has the same shapes)
    p = gl.PaddedSharedLayout.with_identity_for([[32, 4]], [64, 32], [1, 0])
    text = lg.attr_text(p)
    assert text.startswith("#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0],")
    r = lg.check(gl.BlockedLayout([1, 8], [8, 8], [4, 1], [1, 0]), p, [64, 32], "fp16", "gfx950")
    assert r.store.extra_cycles is not None and r.store.bank_conflicts is None
    sl = gl.SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 0], [8, 0]])
    assert lg.attr_text(sl) == ("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], "
                                "[4, 0], [8, 0]], block = []}, alignment = 16>")
    lg.check(gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0]), sl, [16, 16], "fp32", "sm_90")


def test_duck_typing_by_class_name():
    # an object of another module with Gluon's class name and fields is read the same way
    class BlockedLayout:  # noqa: N801
        size_per_thread, threads_per_warp, warps_per_cta, order = [1, 8], [4, 8], [4, 1], [1, 0]

    class constexpr:  # noqa: N801 - Gluon wraps constants in constexpr(.value)
        def __init__(self, value):
            self.value = value

    assert lg.attr_text(BlockedLayout()) == lg.attr_text(gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0]))
    assert lg.attr_text(constexpr(gl.SwizzledSharedLayout(constexpr(8), 1, 8, [1, 0]))) == (
        "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>")


def test_source_text_round_trip():
    for layout in (gl.SwizzledSharedLayout(8, 2, 4, [1, 0]), gl.NVMMASharedLayout(128, 16, 2, transposed=True),
                   gl.SharedLinearLayout([[0, 1], [1, 0]], [], 16),
                   gl.PaddedSharedLayout.with_identity_for([[32, 4]], [64, 32], [1, 0])):
        src = lg.source_text(lg.attr_text(layout))
        assert src.startswith("gl.")
        rebuilt = eval(src, {"gl": gl})
        assert lg.attr_text(rebuilt) == lg.attr_text(layout)
    assert lg.source_text("#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>") is None
    # a suggestion's Gluon line may spell the module ttgl (Triton's tests do) or come as an assignment
    assert lg._to_layout("ttgl.SwizzledSharedLayout(vec=2, per_phase=1, max_phase=8, order=[1, 0])") == \
        gl.SwizzledSharedLayout(2, 1, 8, [1, 0])
    assert lg._to_layout("s: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2)") \
        == gl.NVMMASharedLayout(64, 16, 2)
    assert lg._to_layout("gl.NoSuchLayout(1)") is None


# ---- the module and check() --------------------------------------------------------------------

def test_module_text_is_what_gluon_emits():
    reg = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    text = lg.module_text([reg], [reg], gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), [64, 64], "fp16", "H100")
    assert '"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32' in text
    assert "ttg.local_alloc %0 : (tensor<64x64xf16, #reg1>) -> !ttg.memdesc<64x64xf16, #shared0, #smem>" in text
    assert "ttg.local_load %1 : !ttg.memdesc<64x64xf16, #shared0, #smem> -> tensor<64x64xf16, #reg1>" in text
    amd = lg.module_text([reg, reg], [reg], gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), [64, 64], "bf16", "hip:gfx942")
    assert 'ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64' in amd
    assert amd.count("ttg.local_store") == 2 and "mutable" in amd


def test_check_sides_and_explain():
    reg = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    r = lg.check(reg, gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), [64, 64], "fp16", "sm_90")
    assert r.arch == "sm_90" and r.target == "cuda:90"
    assert set(r.store.instructions) == {"st.shared.v4.b32"} and set(r.load.instructions) == {"ld.shared.v4.b32"}
    assert r.store.extra_cycles is None and r.store.wavefronts >= r.store.bank_conflicts >= 0
    assert "sm_90" in r.load.explain()
    # the same pair on AMD: extra cycles, no NVIDIA figures
    a = lg.check(gl.BlockedLayout([1, 8], [8, 8], [4, 1], [1, 0]), gl.SwizzledSharedLayout(1, 1, 1, [1, 0]),
                 [64, 64], "fp16", "MI300X")
    assert a.arch == "gfx942" and a.store.bank_conflicts is None and a.store.extra_cycles is not None
    # num_warps defaults to the parent's warps for nested layouts
    dot = gl.DotOperandLayout(0, gl.amd.AMDMFMALayout(3, [32, 32, 8], True, [2, 2]), 4)
    t = lg.module_text([dot], [dot], gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), [64, 32], "fp16", "gfx942")
    assert '"ttg.num-warps" = 4 : i32' in t


def test_check_conflicted_dot_operand_explain_names_lanes():
    # a K-contiguous MFMA A operand read from an unswizzled tile: 8-way conflicts on gfx942
    dot = gl.DotOperandLayout(0, gl.amd.AMDMFMALayout(3, [32, 32, 8], True, [2, 2]), 4)
    r = lg.check(dot, gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), [128, 32], "fp16", "gfx942")
    assert r.load.extra_cycles > 0 and r.load.conflicted
    assert "8-way" in r.load.explain() and "lane 0" in r.load.explain()


def _res(text, aliases):
    for _ in range(4):
        text = re.sub(r"#\w+(?![.\w])", lambda m: aliases.get(m.group(0), m.group(0)), text)
    return text


def _alone(instructions):
    """The instructions counted one per address and width: a `read2` / `write2` (st64 too) as two
    single accesses, `X_d16_hi` as `X`.  What the kernel around an op decides: whether a 16-bit
    value came packed (`_d16_hi`, ldst.c) and which accesses LLVM gives one base register
    (tidbits.c: a loop shares an `or` of the thread id across blocks, which instruction selection
    then cannot fold); alone in a module the op has neither its producer nor its loop."""
    out = collections.Counter()
    for k, v in instructions.items():
        k = re.sub(r"_d16_hi$", "", k)
        p = re.match(r"(ds_\w+?)(2st64|2|_2addr_stride64|_2addr)_(b\d+)$", k)
        if p:
            out[p.group(1) + "_" + p.group(3)] += 2 * v
        else:
            out[k] += v
    return out


def test_differential_corpus_ops():
    # every modelled local_alloc / local_store / local_load of the Triton 3.6 corpus, alone in a
    # Gluon-style module, lowers and costs as it does inside its kernel (its instructions counted
    # one per access: _alone)
    n = 0
    for path in sorted(KERNELS.glob("*.ttgir")):
        rep = lt.report(str(path))
        lines = path.read_text().split("\n")
        aliases = _aliases(path)
        for op in rep["ops"]:
            if op["op"] not in ("ttg.local_alloc", "ttg.local_store", "ttg.local_load") or not op.get("modelled"):
                continue
            m = re.search(r"tensor<((?:\d+x)+)(\w+),", lines[op["line"] - 1])
            shape = [int(x) for x in m.group(1).rstrip("x").split("x")]
            r = lg.check(_res(op["register_layout"], aliases), _res(op["shared_layout"], aliases), shape, m.group(2),
                         rep["arch"], num_warps=rep["num_warps"])
            got = (r.store if op["direction"] == "write" else r.load).ops[0]
            assert (_alone(got["instructions"]), got["cost"]) == (_alone(op["instructions"]), op["cost"]), \
                (path.name, op["line"])
            n += 1
    assert n >= 150  # 209 when written


# ---- suggest() ---------------------------------------------------------------------------------

def test_suggest_gemm_operand_gfx942():
    dot = gl.DotOperandLayout(0, gl.amd.AMDMFMALayout(3, [32, 32, 8], True, [2, 2]), 4)
    writer = gl.BlockedLayout([1, 8], [16, 4], [4, 1], [1, 0])
    ss = lg.suggest([writer], [dot], [128, 32], "fp16", "gfx942")
    best = ss[0]
    assert best.origin == "search" and best.cost == min(s.cost for s in ss)
    assert best.load.extra_cycles == 0 and best.store.extra_cycles == 0
    given = [s for s in ss if s.origin == "given"][0]
    assert given.load.extra_cycles > 0 and given.cost > best.cost
    # the layout to paste: a stand-in (Triton absent) that prints back to the same attribute
    assert best.source.startswith("gl.") and lg.attr_text(best.layout) == best.attr
    # the C search's own best, as layout triton --json suggests it for the same module
    rep = lt.report(lg.module_text([writer], [dot], gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), [128, 32], "fp16",
                                   "gfx942"))
    assert rep["suggestions"][0]["attr"] == best.attr


def test_suggest_budget_and_several_writers():
    w1 = gl.BlockedLayout([1, 8], [8, 4], [4, 1], [1, 0])
    w2 = gl.BlockedLayout([8, 1], [4, 8], [1, 4], [0, 1])
    rd = gl.DotOperandLayout(0, gl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), 2)
    ss = lg.suggest([w1, w2], [rd], [64, 32], "fp16", "sm_80", budget_bytes=4096)
    assert all(s.bytes <= 4096 for s in ss if s.origin == "search")
    assert sum(ss[0].store.instructions.values()) > 0 and len(ss[0].store.ops) == 2


# ---- bad input -----------------------------------------------------------------------------------

def test_bad_input():
    reg = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    sh = gl.SwizzledSharedLayout(1, 1, 1, [1, 0])
    with pytest.raises(TypeError, match="no Gluon layout"):
        lg.attr_text(object())
    with pytest.raises(TypeError, match="dtype 'fp12'"):
        lg.check(reg, sh, [64, 64], "fp12", "sm_90")
    with pytest.raises(ValueError, match="positive"):
        lg.check(reg, sh, [0, 64], "fp16", "sm_90")
    with pytest.raises(liblayout.LayoutError):
        lg.check(reg, sh, [64, 64], "fp16", "sm_999")
    with pytest.raises(ValueError, match="several CTAs"):
        lg.attr_text(_earlier_blocked([1, 8], [4, 8], [4, 1], [1, 0], ctas_per_cga=[2, 1]))
    with pytest.raises(TypeError, match="expected a list of ints"):
        lg.attr_text(gl.BlockedLayout(8, [4, 8], [4, 1], [1, 0]))
    with pytest.raises(TypeError, match="no distributed"):
        lg.check(sh, sh, [64, 64], "fp16", "sm_90")
    with pytest.raises(ValueError, match="NVIDIA"):
        lg.bank_conflicts(reg, sh, shape=[64, 64], dtype="fp16", arch="gfx942")
    with pytest.raises(ValueError, match="empty"):
        lg.suggest([], [reg], [64, 64], "fp16", "sm_90")
    with pytest.raises(ValueError, match="budget_bytes"):
        lg.suggest([reg], [reg], [64, 64], "fp16", "sm_90", budget_bytes=0)
    # the C reader's refusal comes back with its message (a 3-lane warp is no layout)
    with pytest.raises(liblayout.LayoutError):
        lg.check(gl.BlockedLayout([1, 8], [3, 8], [4, 1], [1, 0]), sh, [64, 64], "fp16", "sm_90")
