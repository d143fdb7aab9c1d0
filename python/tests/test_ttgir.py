"""Triton kernels (TTGIR) and profiler CSV through the Python module: the same
figures as the C tests on the committed corpus of real Triton 3.6 output
(tests/fixtures/triton/kernels/, tests/fixtures/ncu/)."""

from pathlib import Path

import pytest

import liblayout as ll

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "fixtures" / "triton" / "kernels"


def _need_corpus() -> None:
    if not KERNELS.exists():
        pytest.skip("the Triton corpus is not beside the tests (installed elsewhere)")


def test_matmul_gfx942() -> None:
    _need_corpus()
    k = ll.triton_kernel(str(KERNELS / "matmul_fp16_64x64x32_w4_s2_gfx942.ttgir"))
    assert (k.target, k.num_warps, k.threads_per_warp, k.num_ctas) == ("hip:gfx942", 4, 64, 1)
    assert [op.kind for op in k.ops] == ["ttg.local_alloc", "ttg.local_load", "ttg.local_alloc", "ttg.local_load"]
    a_store = k.ops[0]
    assert a_store.line == 66 and a_store.loc.endswith('gen_kernels.py":49:30')
    assert a_store.src[0].shape == [64, 32] and a_store.src[0].elem == "f16" and a_store.src[0].elem_bits == 16
    assert a_store.src[0].layout.startswith("#ttg.blocked<") and not a_store.src[0].is_memdesc
    assert a_store.dst[0].is_memdesc and a_store.dst[0].layout.startswith("#ttg.swizzled_shared<{vec = 4")
    assert k.ops[1].dst[0].layout.startswith("#ttg.dot_op<{opIdx = 0")
    assert k.layouts["#shared1"].startswith("#ttg.amd_rotating_shared<")


def test_text_and_errors() -> None:
    text = ("#s = #ttg.swizzled_shared<{vec = 1}>\n"
            "  %0 = ttg.local_load %x : !ttg.memdesc<4xf16, #s, #smem> -> tensor<4xf16, #t> loc(#l)\n"
            "#l = loc(\"k.py\":12:3)\n")
    k = ll.triton_kernel(text)
    assert len(k.ops) == 1 and k.ops[0].loc == '"k.py":12:3' and k.ops[0].dst[0].layout is None
    with pytest.raises(ll.LayoutError) as e:
        ll.triton_kernel("  %0 = ttg.local_load %x : !ttg.memdesc<4xf16, #s -> tensor<4xf16, #t>\n")
    assert "line 1, column 40" in str(e.value) and e.value.status_name == "LAYOUT_ERR_PARSE"


def test_profile_ncu() -> None:
    _need_corpus()
    raw = ll.read_profile(str(ROOT / "tests" / "fixtures" / "ncu" / "triton_kernels_raw.csv"))
    named = ll.read_profile(str(KERNELS / "ncu_sm90.csv"))
    assert len(raw) == len(named) == 22
    assert raw[0].kernel == "matmul_kernel" and raw[0].counters["shared_ld_insts"] == 2240
    assert [d.counters for d in raw] == [d.counters for d in named]
    v3 = ('"Dispatch_Id","Kernel_Name","Counter_Name","Counter_Value"\n'
          '1,"layout_probe","SQ_LDS_BANK_CONFLICT",3670016.000000\n1,"layout_probe","SQ_INSTS_LDS",294912\n')
    assert ll.read_profile(v3)[0].counters == {"SQ_LDS_BANK_CONFLICT": 3670016, "SQ_INSTS_LDS": 294912}


@pytest.mark.parametrize("case", ["matmul_fp16_64x64x32_w4_s2_gfx942", "matmul_bf16_128x64x64_w4_s3_gfx950",
                                  "matmul_fp8_64x64x32_w4_s2_sm90", "transpose_fp32_64x32_w2_s1_sm90",
                                  "attn_fp16_64x64x64_w4_s2_gfx950"])
def test_report_equals_the_tool(case, tool) -> None:
    """liblayout.triton.report() and TritonKernel.report() give the object `layout triton --json` prints."""
    _need_corpus()
    import json

    from conftest import run_tool

    path = str(KERNELS / (case + ".ttgir"))
    r = run_tool(tool, "triton", "--json", path)
    assert r.returncode in (0, 1), r.stderr
    want = json.loads(r.stdout)
    assert ll.triton.report(path) == want
    assert ll.triton_kernel(path).report() == want
    assert want["ops"] and "per_warp_total" in want and "not_modelled" in want and "suggestions" in want
    other = "sm_80" if case.endswith("sm90") else "gfx950" if case.endswith("gfx942") else "gfx942"
    r = run_tool(tool, "triton", "--json", "--arch", other, path)
    assert r.returncode in (0, 1), r.stderr
    assert ll.triton.report(path, arch=other) == json.loads(r.stdout)
    assert ll.triton.report(path, arch=other)["arch"] == other
    # without the search: the same object less the search's keys (what watch() reports by default)
    search_keys = {"suggestions", "suggestions_dropped", "lds_bytes", "lds_bound", "lds_bound_after"}
    for a in (None, other):
        full = ll.triton.report(path, arch=a)
        bare = ll.triton.report(path, arch=a, suggest=False)
        assert set(full) - set(bare) == search_keys
        assert bare == {k: v for k, v in full.items() if k not in search_keys}


def test_report_matmul_gfx942_figures() -> None:
    """The gfx942 fp16 matmul: the per-warp totals equal the DS instructions of Triton's own
    AMDGCN for this kernel (tests/fixtures/triton/kernels/matmul_fp16_64x64x32_w4_s2_gfx942.amdgcn:
    8 ds_write_b16, 2 ds_write_b64, 8 ds_read_b64)."""
    _need_corpus()
    import re

    rep = ll.triton.report(KERNELS / "matmul_fp16_64x64x32_w4_s2_gfx942.ttgir")
    isa = (KERNELS / "matmul_fp16_64x64x32_w4_s2_gfx942.amdgcn").read_text()
    counts = {}
    for m in re.finditer(r"^\s+(ds_[a-z0-9_]+)", isa, re.M):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    assert counts == {"ds_write_b16": 8, "ds_write_b64": 2, "ds_read_b64": 8}
    assert rep["per_warp_total"] == counts
    text = ll.triton.format_report(rep, "matmul_kernel")
    assert text.startswith("liblayout: kernel matmul_kernel (hip:gfx942): 4 shared-memory ops")


def test_report_errors() -> None:
    with pytest.raises(ll.LayoutError) as e:
        ll.triton.report("module attributes {\"ttg.target\" = \"hip:gfx942\"} {\n"
                         "  %0 = ttg.local_load %x : !ttg.memdesc<4xf16, #s, #smem -> tensor<4xf16, #t>\n")
    assert "line 2" in str(e.value)
    with pytest.raises(ll.LayoutError):
        ll.triton.report("module attributes {\"ttg.target\" = \"hip:gfx942\"} {\n}\n", arch="no_such_arch")
    with pytest.raises(ll.LayoutError) as e:
        ll.triton.report("module attributes {\"ttg.target\" = \"hip:gfx942\"} {\n}\n", arch="no_such_arch",
                         suggest=False)
    assert "no_such_arch" in str(e.value)


def test_triton_apply() -> None:
    """liblayout.triton.apply: the gfx950 fp32 matmul's A tile gets the
    suggested swizzle in its alias line; the B tile's alias is untouched; the
    rest of the text is as it was."""
    _need_corpus()
    from liblayout import triton as lt
    path = KERNELS / "matmul_fp32_64x64x32_w4_s2_gfx950.ttgir"
    before = path.read_text()
    after = lt.apply(str(path))
    old = "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 2, maxPhase = 8, order = [1, 0]}>"
    new = "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 32, order = [1, 0]}>"
    assert old in before and new in after
    assert after == before.replace(old, new)
    rep = lt.report(after)
    assert not any(s["improved"] for s in rep["suggestions"])
