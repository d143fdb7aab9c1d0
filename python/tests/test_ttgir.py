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
