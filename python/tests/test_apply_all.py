"""``liblayout.triton.apply`` over every kernel the project holds from Triton 3.6.

The compiled Gluon fixture kernels (tests/fixtures/gluon/kernels.tar.xz: the
84 of suggest_proof) and the 66 corpus kernels (tests/fixtures/triton/kernels), each on its own
target and on the neighbouring one.  Properties, per kernel:
* the applied text parses again, with the same ops;
* applying again changes nothing (every written allocation is now the
  search's best, and a suggestion must be strictly better);
* for the 84 kernels of tests/fixtures/triton/suggest_proof, the applied
  text is byte for byte the patched TTGIR that Triton 3.6 compiled there.
"""

from __future__ import annotations

import tarfile
from pathlib import Path

import liblayout.triton as lt

ROOT = Path(__file__).resolve().parents[2]
NEIGHBOUR = {"gfx942": "gfx950", "gfx950": "gfx942", "sm_90": "sm_90"}


def kernels(keep):
    """The corpus, and of the Gluon kernels those in `keep` (the suite's time: CI runs it three times)."""
    out = []
    with tarfile.open(ROOT / "tests" / "fixtures" / "gluon" / "kernels.tar.xz") as t:
        ttgir = [m for m in t.getmembers() if m.name.endswith(".ttgir")]
        for i, m in enumerate(ttgir):
            if Path(m.name).stem in keep:
                out.append((Path(m.name).stem, t.extractfile(m).read().decode()))
    for p in sorted((ROOT / "tests" / "fixtures" / "triton" / "kernels").glob("*.ttgir")):
        out.append((p.stem, p.read_text()))
    return out


# Kernels whose suggestion moved when the model took in LLVM's
# LoadStoreVectorizer (lib/triton_kernel/lsv.c: merged accesses change the
# op costs the search compares): their patched TTGIR in suggest_proof is the
# older suggestion, compiled then; they need compiling again
# (suggest_proof/device_run.sh).  Each must differ from its old patch.
RESUGGESTED = {"g117_sm90_fp16_16x128_w8_blocked_sharedlinear", "g137_sm90_fp32_128x16_w4_blocked_nvmma",
               "g191_sm90_fp32_16x32_w8_blocked_sharedlinear", "g256_gfx942_bf16_32x16_w2_blocked_padded",
               "g328_gfx942_bf16_64x64_w1_blocked_swizzled", "g410_gfx950_fp32_64x16_w4_blocked_padded"}


def test_apply_everywhere():
    proof = ROOT / "tests" / "fixtures" / "triton" / "suggest_proof"
    patched = {p.stem: p.read_text() for p in (proof / "patched").glob("*.ttgir")}
    changed = matched = 0
    for name, text in kernels(patched):
        rep = lt.report(text)
        for arch in (None, NEIGHBOUR.get(rep["arch"], rep["arch"])):
            out = lt.apply(text, arch)
            if out == text:
                continue
            changed += 1
            again = lt.report(out, arch)
            assert [op["op"] for op in again["ops"]] == [op["op"] for op in lt.report(text, arch)["ops"]], name
            assert lt.apply(out, arch) == out, (name, arch)
            if arch is None and name in patched:
                if name in RESUGGESTED:
                    assert out != patched[name], name
                    continue
                assert out == patched[name], name
                matched += 1
    assert matched + len(RESUGGESTED) == len(patched) == 84
    assert changed >= 84
