"""liblayout.triton.watch() inside the real Triton (3.6): the hook sees every
kernel Triton compiles, leaves the compiled result unchanged, and reports what
``layout triton`` reports for the same TTGIR.

Triton compiles the AMD targets without an AMD GPU, so this runs wherever
Triton 3.6 is installed; where it is not (CI), the tests are skipped, saying
so.  It was run on a machine with Triton 3.6.0 and an NVIDIA H100
(tests/fixtures/triton/kernels/README.md)."""

import sys
from pathlib import Path

import pytest

import liblayout.triton as lt

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "fixtures" / "triton" / "kernels"

triton = pytest.importorskip("triton", reason="Triton is not installed here: watch() is tested where it is")


def _gen():
    sys.path.insert(0, str(KERNELS))
    import gen_kernels  # the corpus' own kernels and compile call

    return gen_kernels


def _case(gen, name):
    for c in gen.cases():
        if c[0] == name:
            return c[1:]
    raise AssertionError("no case " + name)


@pytest.mark.parametrize("case", ["matmul_fp16_64x64x32_w4_s2_gfx942", "matmul_fp16_64x64x32_w4_s2_sm90",
                                  "transpose_fp16_64x64_w4_s1_gfx950"])
def test_watch_reports_each_compile(case):
    gen = _gen()
    fn, sig, consts, opts, target = _case(gen, case)
    plain = gen.compile_case(fn, sig, consts, opts, target)
    got = []
    w = lt.watch(callback=got.append)
    try:
        watched = gen.compile_case(fn, sig, consts, opts, target)
    finally:
        w.stop()
    # the hook leaves Triton's result as it was
    assert watched.asm["ttgir"] == plain.asm["ttgir"]
    # one report, for this kernel, and it is the report of the TTGIR Triton produced
    assert len(got) == 1 and w.reports == got
    rep = dict(got[0])
    assert rep.pop("name") == fn.__name__
    # by default without the search for better layouts (report(..., suggest=False))
    assert rep == lt.report(watched.asm["ttgir"], suggest=False) and "suggestions" not in rep
    assert rep["ops"] and "per_warp_total" in rep and "not_modelled" in rep
    # after stop() the hook is gone: a further compile reports nothing
    gen.compile_case(fn, sig, consts, opts, target)
    assert len(got) == 1


def test_watch_prints_and_warns(capsys):
    gen = _gen()
    fn, sig, consts, opts, target = _case(gen, "transpose_fp16_64x64_w4_s1_gfx942")
    w = lt.watch()
    try:
        with pytest.warns(UserWarning, match="bank conflicts") if _conflicted(gen, fn, sig, consts, opts, target) \
                else _nothing():
            gen.compile_case(fn, sig, consts, opts, target)
    finally:
        w.stop()
    err = capsys.readouterr().err
    assert "liblayout: kernel transpose_kernel (hip:gfx942)" in err


def _conflicted(gen, fn, sig, consts, opts, target):
    rep = lt.report(gen.compile_case(fn, sig, consts, opts, target).asm["ttgir"])
    return any(op.get("modelled", True) and (op.get("cost", {}).get("extra_cycles") or
                                              op.get("cost", {}).get("bank_conflicts")) for op in rep["ops"])


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False
