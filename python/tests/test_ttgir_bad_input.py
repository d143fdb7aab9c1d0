"""Bad TTGIR through the Python module: a missing file is FileNotFoundError, never text;
cut, empty, pre-3.2 and header-less modules raise LayoutError (LAYOUT_ERR_PARSE) with the
line and column; tt.scan is reported, never silently dropped."""

import re
from pathlib import Path

import pytest

import liblayout as ll

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "tests" / "fixtures" / "triton" / "kernels" / "matmul_fp16_64x64x32_w4_s2_gfx942.ttgir"
WHERE = re.compile(r"line (\d+), column (\d+)")

MOD = ("module attributes {%s} {\n  tt.func public @k() {\n    tt.return\n  }\n}\n")


@pytest.mark.parametrize("path", ["/no/such/dir/kernel.ttgir", "missing_kernel.ttgir", "missing.mlir",
                                  "some/dir/kernel_without_suffix"])
def test_missing_file_is_file_not_found(path: str) -> None:
    with pytest.raises(FileNotFoundError):
        ll.triton.report(path)
    with pytest.raises(FileNotFoundError):
        ll.triton_kernel(path)


def test_missing_profile_is_file_not_found() -> None:
    with pytest.raises(FileNotFoundError):
        ll.read_profile("no_such_profile.csv")


def _parse_error(text: str, **kw: str) -> ll.LayoutError:
    with pytest.raises(ll.LayoutError) as e:
        ll.triton.report(text, **kw)
    assert e.value.status_name == "LAYOUT_ERR_PARSE", e.value.message
    assert WHERE.search(e.value.message), e.value.message
    return e.value


def test_exact_messages() -> None:
    assert "line 1, column 1: the text is empty: no TTGIR module" in _parse_error("").message
    assert ("this TTGIR is from Triton < 3.2 (triton_gpu dialect); liblayout reads Triton 3.2+ (ttg dialect)"
            in _parse_error(MOD % '"triton_gpu.num-warps" = 4 : i32').message)
    e = _parse_error(MOD % 'ttg.target = "hip:gfx942"', arch="gfx942")
    assert "line 1, column 1: the module has no ttg.num-warps attribute (hint:" in e.message
    e = _parse_error(MOD % '"ttg.num-warps" = 4 : i32', arch="gfx942")
    assert "line 1, column 1: the module has no ttg.target attribute (hint:" in e.message
    with pytest.raises(ll.LayoutError) as k:
        ll.triton_kernel("")
    assert "the text is empty" in k.value.message


def test_cut_kernel_raises_with_line() -> None:
    if not KERNEL.exists():
        pytest.skip("the Triton corpus is not beside the tests")
    text = KERNEL.read_text()
    lines = text.count("\n") + 1
    cuts = list(range(1, len(text), 397)) + [i for i, c in enumerate(text) if c == "}"][::7]
    for cut in cuts:
        if not text[cut:].strip():
            continue
        e = _parse_error(text[:cut])
        line = int(WHERE.search(e.message).group(1))
        assert 1 <= line <= lines, (cut, e.message)


SCAN = """#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @k(%x: tensor<64x64xf32, #blocked>) {
    %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.scan.return %s : f32
    }) : (tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    tt.return
  }
}
"""


def test_scan_across_warps_is_reported() -> None:
    # the scan across the 4 warps goes through shared scratch: modelled as
    # tests/test_triton_coverage.c derives it by hand for the same layout
    # (8 ds_write2st64_b32 of the warps' partials, 30 ds_read2_b32)
    rep = ll.triton.report(SCAN)
    assert rep["not_modelled"] == [] and [op["op"] for op in rep["ops"]] == ["tt.scan"]
    assert rep["ops"][0]["instructions"] == {"ds_write2st64_b32": 8, "ds_read2_b32": 30}
    rep = ll.triton.report(SCAN.replace("axis = 0", "axis = 1"))
    assert rep["not_modelled"] == [] and [op["op"] for op in rep["ops"]] == ["tt.scan"]
    assert rep["ops"][0]["modelled"] == 1
    assert ll.triton_kernel(SCAN).ops[0].kind == "tt.scan"
