"""The model against the probes' recorded compiler output.

tests/fixtures/triton/probes/compa.tar.xz holds what probe_compa.py
compiled once on the GPU machine with Triton 3.6.0 (README.md beside it):
tt.histogram on sm_90 and gfx942 (32, 128 and 512 bins on 8, 4 and 1
warps), a tensor tt.atomic_rmw whose layout broadcasts (16 f32 on 4 warps),
and two-stage matmuls whose B operand Triton copies with
ttg.async_copy_global_to_local (gfx942, gfx950).  The ISA's shared-memory
instructions are the known answer: PTX `ld/st/atom.shared*` and AMDGCN
`ds_*` (lane shuffles left out), and AMDGCN's direct-to-LDS loads
(`global_load_lds_*`).  Every kernel here has its shared ops outside loops
or the loop once in the ISA, so the whole kernel's counts compare.
"""
from __future__ import annotations

import collections
import json
import re
import tarfile
from pathlib import Path

import pytest

import liblayout.triton as lt

ARCHIVE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "triton" / "probes" / "compa.tar.xz"
PTX = re.compile(r"\b((?:ld|st|atom)\.shared[.a-z0-9]*)\b")
AMD = re.compile(r"^\s+(ds_[a-z0-9_]+|global_load_lds_[a-z0-9]+|buffer_load_[a-z0-9]+(?= .*\blds$))", re.M)
SHUFFLES = {"ds_bpermute_b32", "ds_permute_b32", "ds_swizzle_b32"}


def probes():
    with tarfile.open(ARCHIVE, "r:xz") as t:
        files = {Path(m.name).name: t.extractfile(m).read().decode() for m in t.getmembers() if m.isfile()}
    return {n[:-6]: files for n in files if n.endswith(".ttgir")}


CASES = sorted(probes())


def isa_counts(name, files):
    if name + ".ptx" in files:
        return collections.Counter(PTX.findall(files[name + ".ptx"]))
    found = AMD.findall(files[name + ".amdgcn"])
    return collections.Counter(m if not m.startswith("buffer_") else m + " lds" for m in found if m not in SHUFFLES)


def model_counts(text):
    rep = lt.report(text, suggest=False)
    assert all(op.get("modelled") for op in rep["ops"]), [op.get("reason") for op in rep["ops"]]
    out = collections.Counter()
    for op in rep["ops"]:
        out.update({k: v for k, v in op.get("instructions", {}).items() if v})
    return out


def test_the_archive_holds_the_probes():
    assert len(CASES) == 12
    assert {c.split("_")[0] for c in CASES} == {"hist", "atomic", "mm"}


@pytest.mark.parametrize("name", CASES)
def test_the_model_is_the_recorded_isa(name):
    files = probes()[name]
    meta = json.loads(files[name + ".json"])
    assert meta["target"][0] in ("cuda", "hip")
    assert model_counts(files[name + ".ttgir"]) == isa_counts(name, files)


def test_direct_to_lds_loads_are_what_triton_emits():
    # 64x64 f16 per copy on 256 threads: 16 elements a thread, as 2-element
    # dwords on gfx942 (contiguity 2), 8-element dwordx4 on gfx950; two copies
    files = probes()
    for name, mn, n in (("mm_f16_64x64x64_bufops0_gfx942", "global_load_lds_dword", 16),
                        ("mm_f16_64x64x64_bufops0_gfx950", "global_load_lds_dwordx4", 4)):
        got = model_counts(files[name][name + ".ttgir"])
        assert got[mn] == n and not any(k.startswith("ds_write2st64") for k in got), (name, got)
