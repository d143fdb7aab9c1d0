"""The optional capabilities: the layout search (suggest.h) and the dialects
(dialect.h).  Skipped when the loaded library was built without them;
otherwise compared with the `layout` tool (`layout suggest --json`,
`layout convert`), with CuTe's own definition of its swizzle, and re-checked
by the triple check."""

from __future__ import annotations

import json

import pytest

import liblayout as ll
from conftest import R_KMAJOR, W_ALL, run_tool

CAPS = ll.capabilities()
needs_suggest = pytest.mark.skipif(not CAPS["suggest"], reason="this liblayout has no suggest.h (layout search)")
needs_dialect = pytest.mark.skipif(not CAPS["dialect"], reason="this liblayout has no dialect.h (dialects)")


def test_missing_capability_is_an_error() -> None:
    if CAPS["suggest"] and CAPS["dialect"]:
        pytest.skip("this library has every capability")
    with pytest.raises(ll.LayoutError) as ei:
        if not CAPS["suggest"]:
            ll.suggest(shape=(64, 32), write=W_ALL, read=R_KMAJOR)
        else:
            ll.convert("packed([4,4])", "cute")
    assert ei.value.status == ll.Status.ERR_UNSUPPORTED and "built without" in ei.value.message


# -- the layout search ------------------------------------------------------------------------

SPEC01 = f"arch=gfx942; elem=2; shape=64,32; top=4; write={W_ALL}; read={R_KMAJOR}"


@needs_suggest
def test_suggest_kernel01_accesses_vs_tool(tool: str) -> None:
    r = ll.suggest(SPEC01)
    proc = run_tool(tool, "suggest", "--json", "--spec", SPEC01)
    assert proc.returncode in (0, 1), proc.stderr
    c = json.loads(proc.stdout)
    assert (r.tried, r.scored, r.all_exhausted, r.pareto_total) == (
        c["tried"], c["scored"], c["all_exhausted"], c["pareto_total"])
    assert len(r.top) == len(c["top"])
    for mine, theirs in zip(r.top, c["top"]):
        assert mine.family == theirs["family"] and mine.params == theirs["params"]
        assert mine.extra_cycles == theirs["extra_cycles_per_tile"]
        assert mine.instrs == theirs["instrs_per_tile"]
        assert mine.lds_bytes == theirs["lds_bytes"]
        assert mine.index_ops == theirs["index_ops"] and mine.vector_damage == theirs["vector_damage"]
        assert mine.descriptor.text == theirs["lds"]
        assert mine.c_calls == theirs["c_calls"]
        assert [s.ops for s in mine.sides] == [s["ops"] for s in theirs["sides"]]
    assert [p.params for p in r.pareto] == [p["params"] for p in c["pareto"]]


@needs_suggest
def test_suggest_keywords_and_recheck() -> None:
    # seed kernel 01's accesses: the talk's fix (an XOR layout, kernel 08)
    # removes every conflict without padding, so the best costs 0 and uses
    # exactly the 4096 bytes of the packed fp16 tile
    r = ll.suggest(shape=(64, 32), write=ll.Distribution.from_text(W_ALL), read=R_KMAJOR, arch=ll.Arch("gfx942"),
                   elem=2, budget=0, top=3, families=["ck_xor", "pad"])
    assert r.best.extra_cycles == 0 and r.best.lds_bytes == 64 * 32 * 2
    assert r.best.family == "ck_xor"
    assert set(r.families) >= {"pad", "ck_xor"} and r.families["pad"]["searched"] == 1
    assert r.families["cute_swizzle"]["searched"] == 0
    assert "extra 0" in r.best.text and "SuggestResult" in repr(r) and "ck_xor" in repr(r.best)
    # every candidate re-checked by the triple check: the store through the
    # layout over [M, K], the load through its transposed view [K, M]
    for s in r.top:
        lds = s.descriptor
        assert lds.shape == (64, 32)
        km = ll.Descriptor.from_text(lds.text + " | T{pass(64):[0]->[1] ; pass(32):[1]->[0]}")
        assert km.shape == (32, 64)
        k = ll.check_kernel("gfx942", lds, W_ALL, R_KMAJOR, read_lds=km)
        assert k.extra_cycles_per_tile == s.extra_cycles
        assert (k.write.ops, k.read.ops) == (s.sides[0].ops, s.sides[1].ops)
        assert k.instrs_per_tile == s.instrs


@needs_suggest
def test_suggest_errors() -> None:
    with pytest.raises(ll.LayoutError) as ei:
        ll.suggest("arch=gfx942; shape=64,32; colour=blue; write=" + W_ALL)
    assert ei.value.status == ll.Status.ERR_PARSE and ei.value.caret and ei.value.where is not None
    with pytest.raises(ll.LayoutError):
        ll.suggest(write=W_ALL, read=R_KMAJOR)  # no shape
    with pytest.raises(TypeError):
        ll.suggest(SPEC01, top=3)


# -- dialects ---------------------------------------------------------------------------------


def cute_swizzle_343(o: int) -> int:
    # CuTe's Swizzle<B=3, M=4, S=3>: o ^ ((o & yyy) >> S), yyy = ((1 << B) - 1) << (M + S)
    yyy = ((1 << 3) - 1) << (4 + 3)
    return o ^ ((o & yyy) >> 3)


@needs_dialect
def test_cute_swizzle_known_answer() -> None:
    text = "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"
    assert ll.detect_dialect(text) == "cute"
    d = ll.Descriptor.from_dialect(text)
    assert d.shape == (8, 64)
    assert list(d.offsets()) == [cute_swizzle_343(64 * r + c) for r in range(8) for c in range(64)]
    assert ll.desc_from_dialect(text, "cute") == d
    # and back: the cute text of the same layout reads as the same offsets
    back = ll.Descriptor.from_dialect(d.to_dialect("cute"), "cute")
    assert list(back.offsets()) == list(d.offsets())


@needs_dialect
@pytest.mark.parametrize("text, to, shape", [
    ("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "ck", None),
    ("#iree_codegen.xor_shuffle<128, 4, 128, 1>", "cute", (16, 128)),
    ("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", "cute", (16, 64)),
    ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
     "ck", (32, 32)),
])
def test_convert_vs_tool(tool: str, text: str, to: str, shape) -> None:
    args = ["convert", "--to", to] + (["--shape", f"{shape[0]},{shape[1]}"] if shape else []) + [text]
    proc = run_tool(tool, *args)
    assert proc.returncode == 0, proc.stderr
    assert ll.convert(text, to, shape=shape) == proc.stdout.strip()


@needs_dialect
def test_dialect_names_and_errors() -> None:
    assert ll.dialects()[:5] == ["ck", "triton", "cute", "iree", "linear"]
    with pytest.raises(ll.LayoutError) as ei:
        ll.convert("packed([4,4])", "klingon")
    assert ei.value.status == ll.Status.ERR_NOT_FOUND
    with pytest.raises(ll.LayoutError) as ei:
        # a padded coordinate has no CuTe form: the library says why
        ll.Descriptor.from_text("naive([4,8],[9,1]) | T{pad(4,1,0):[0]->[0] ; pass(8):[1]->[1]}").to_dialect("cute")
    assert ei.value.status == ll.Status.ERR_UNSUPPORTED and "padding" in ei.value.message
    with pytest.raises(ll.LayoutError) as ei:
        ll.convert("naive([4,8],[9,1])", "linear")  # stride 9 is not linear over F2
    assert ei.value.status == ll.Status.ERR_UNSUPPORTED and "F2" in ei.value.message
    with pytest.raises(ll.LayoutError) as ei:
        ll.Descriptor.from_dialect("Sw<3,4,3> o _0 o (_8,_64):(_64 _1)")
    assert ei.value.where is not None and ei.value.caret
    dist = ll.Distribution.from_dialect(
        "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
        shape=(32, 32))
    assert dist.shape == (32, 32) and dist.wave_size == 64 and dist.n_warps == 4
    # lane l of warp w holds row 8w + l/8, columns 4(l%8) .. +3 (Triton's blocked layout)
    assert dist.coord(1, 10, 2) == (8 + 1, 4 * 2 + 2)


def test_triton_mma_distributions():
    # An MMA operand layout (Triton's linear layout of #ttg.dot_op on the shape,
    # a table distribution): warp 1, lane 33, register 3 of the A operand of a
    # transposed 32x32 amd_mfma holds row 1, column 7 (tests/test_triton_mma.c).
    dist = ll.Distribution.from_dialect(
        "#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], "
        "instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>", shape=(64, 32))
    assert dist.wave_size == 64 and dist.n_warps == 4 and dist.elems_per_thread == 16
    assert dist.coord(1, 33, 3) == (1, 7)
    with pytest.raises(ll.LayoutError) as ei:
        ll.Distribution.from_dialect("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>", shape=(64, 32))
    assert ei.value.status == ll.Status.ERR_UNSUPPORTED and "alias" in ei.value.message
