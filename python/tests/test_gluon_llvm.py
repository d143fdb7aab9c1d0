"""The padded-layout Gluon fixtures against LLVM's own stages, run here.

Triton 3.6 hands its AMDGPU kernels to LLVM as LLVM IR; the fixture
tests/fixtures/gluon/llir/llir.tar.xz holds that IR (`k.asm["llir"]`) of
the 57 compiled gfx942 / gfx950 Gluon fixtures with a PaddedSharedLayout,
made on the GPU machine by llir.py.  Debian's llc-22 (package llvm-22) is
the AMDGPU backend Triton runs on it:

- test_llc_reproduces_the_amdgcn: llc-22 turns each IR into the same
  shared-memory instruction mix as the AMDGCN Triton wrote (the committed
  .amdgcn of kernels.tar.xz), so what llc-22 shows between the stages is
  what happened inside Triton's compile.
- test_model_is_the_vectorizer: the accesses of the IR right after LLVM's
  LoadStoreVectorizer (-print-after=load-store-vectorizer), their widths
  per side, against the model's (lib/triton_kernel/lsv.c models that pass):
  equal on 56 of 57.  A read2 / write2 of the model may be one access of
  the vectorizer or two that SILoadStoreOptimizer paired later: either
  counts.
- test_every_difference_has_its_stage: each kernel whose AMDGCN mix differs
  from the model is placed at the LLVM stage that makes the difference,
  checked on that stage's output:
  - SI_PAIRING: the vectorizer's accesses are the model's; only the pairs
    SILoadStoreOptimizer forms differ (the AMDGCN and the model agree with
    every read2 / write2 split in two).  g410: the stores whose padding
    Triton recomputes from `base | C` carry an `and` mask that BasicAA
    cannot bound, so LLVM may not move a store past them; the model's
    alias analysis bounds them.
  - IR_ALIGN: the vectorizer's accesses are the model's, and the AMDGCN is
    those same accesses; LLVM's IR gives one of them less alignment than
    the model (an access of 8 or more bytes below 4-byte alignment: the
    unaligned DS form, ds_write_b64 for write2_b32).  g422: the run at +32
    is one GEP deeper, and computeKnownBits stops at its depth limit (6)
    before the lane offset's `lshr exact (and tid, 48), 1`.
  - ISEL_MERGE: the vectorizer's accesses are the model's; instruction
    selection merged further (the AMDGCN moves the same bytes in fewer,
    wider accesses).  g438: the SelectionDAG merges i8 loads that feed
    consecutive global stores (the fixture's epilogue) into ds_read_b32 /
    ds_read_u16.
  - LSV_ALIGN: the vectorizer merged less than the model, the AMDGCN is
    what it left, and every IR access on the side that differs has an
    alignment below two elements: LLVM could not prove what the model's
    known bits give.  g310: its lane offset's or-tree is deeper than
    computeKnownBits' limit.

Skipped where llc-22 is missing or another release than 22.1.8, the one
these stages were read with (.ci/run installs llvm-22).
"""

from __future__ import annotations

import collections
import itertools
import re
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

import liblayout.triton as lt

FIX = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "gluon"
sys.path.insert(0, str(FIX))
import compare as gluon_compare  # noqa: E402  (the fixtures' own reader, tests/fixtures/gluon/compare.py)
import llvm22  # noqa: E402  (python/tests/llvm22.py)
LLC = llvm22.tool("llc")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc %s (Debian llvm-22)" % llvm22.RELEASE)

ELEM = {"i8": 1, "i16": 2, "half": 2, "bfloat": 2, "i32": 4, "float": 4, "i64": 8, "double": 8}
# side, bytes, align of each LDS access in the IR after the vectorizer
Access = Tuple[str, int, int]


def _llc(path: Path, cpu: str, *extra: str) -> subprocess.CompletedProcess:
    assert LLC is not None
    return subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + cpu, "-O3", str(path), *extra],
                          capture_output=True, text=True, check=True)


def vectorized_accesses(ir: str) -> List[Access]:
    """The LDS loads and stores of IR text (one function): side, bytes per
    lane (a vector past 16 bytes counts as 16-byte pieces, as type
    legalisation splits it) and alignment; ds_read_tr intrinsics are 8-byte
    loads."""
    out: List[Access] = []
    for line in ir.splitlines():
        if "addrspace(3)" in line:
            m = (re.search(r"= load (?:<(\d+) x (\w+)>|(\w+)), ptr addrspace\(3\) [^,]*, align (\d+)", line) or
                 re.search(r"\bstore (?:<(\d+) x (\w+)>|(\w+)) [^,]*, ptr addrspace\(3\) [^,]*, align (\d+)", line))
            if m:
                w = int(m.group(1) or 1) * ELEM[m.group(2) or m.group(3)]
                side = "ld" if "= load " in line else "st"
                out += [(side, min(w, 16), int(m.group(4)))] * max(1, w // 16)
        if re.search(r"call .*@llvm\.amdgcn\.ds\.read\.tr", line):
            out.append(("ld", 8, 8))
    return out


def widths(acc: List[Access]) -> Dict[Tuple[str, int], int]:
    return dict(collections.Counter((s, w) for s, w, _ in acc))


def mix_widths(mix: Dict[str, int]) -> List[Dict[Tuple[str, int], int]]:
    """Every reading of an AMDGCN mix as accesses (side, bytes): a read2 /
    write2 of n bits is one access of 2n or two of n."""
    fixed: Dict[Tuple[str, int], int] = collections.Counter()
    pairs = []
    for mn, n in mix.items():
        side = "st" if mn.startswith("ds_write") else "ld"
        if mn.startswith("ds_read_b64_tr_b"):
            fixed[(side, 8)] += n
            continue
        m = re.match(r"ds_(?:read|write)(2(?:st64)?)?_[bui](\d+)", mn)
        assert m, mn
        b = int(m.group(2)) // 8
        if m.group(1):
            pairs.append((side, b, n))
        else:
            fixed[(side, b)] += n
    out = []
    for ks in itertools.product(*[range(n + 1) for _, _, n in pairs]):
        c = collections.Counter(fixed)
        for (side, b, n), k in zip(pairs, ks):
            c[(side, 2 * b)] += k
            c[(side, b)] += 2 * (n - k)
        out.append(dict(+c))
    return out


def stage_rule(isa: Dict[str, int], model: Dict[str, int], acc: List[Access], elem: int) -> Optional[str]:
    """The LLVM stage that makes the AMDGCN differ from the model (module
    docstring), checked on that stage's output; None: no stage explains it."""
    ir = widths(acc)
    isa_w, mod_w = mix_widths(isa), mix_widths(model)
    if ir in mod_w:
        if gluon_compare.unpaired(isa) == gluon_compare.unpaired(model):
            return "SI_PAIRING"
        if ir in isa_w and any(w >= 8 and a < 4 for _, w, a in acc):
            return "IR_ALIGN"
        bytes_ = lambda d, s: sum(w * v for (side, w), v in d.items() if side == s)  # noqa: E731
        count = lambda d, s: sum(v for (side, _), v in d.items() if side == s)  # noqa: E731
        if all(bytes_(r, s) == bytes_(ir, s) for r in isa_w for s in ("ld", "st")) and any(
                all(count(r, s) <= count(ir, s) for s in ("ld", "st")) and
                any(count(r, s) < count(ir, s) for s in ("ld", "st")) for r in isa_w):
            return "ISEL_MERGE"
        return None
    if ir in isa_w:
        sides = {s for s in ("ld", "st") if {k: v for k, v in ir.items() if k[0] == s} not in
                 [{k: v for k, v in r.items() if k[0] == s} for r in mod_w]}
        if sides and all(a < 2 * elem for s, _, a in acc if s in sides):
            return "LSV_ALIGN"
    return None


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Any]:
    d = tmp_path_factory.mktemp("llir")
    with tarfile.open(FIX / "llir" / "llir.tar.xz") as t:
        t.extractall(d)
    with tarfile.open(FIX / "kernels.tar.xz") as t:
        t.extractall(d)
    cmp = gluon_compare
    out = {}
    for p in sorted(d.glob("*.llir")):
        name = p.name[:-5]
        cpu = re.search(r"_(gfx9\d+)_", name).group(1)
        amdgcn = (d / "kernels" / (name + ".amdgcn")).read_text()
        rep = lt.report((d / "kernels" / (name + ".ttgir")).read_bytes())
        dtype = name.split("_")[2]
        out[name] = {"llir": p, "cpu": cpu, "isa": dict(cmp.isa_mix(amdgcn, "amdgcn")),
                     "model": {k: v for k, v in rep["per_warp_total"].items() if v},
                     "elem": {"i8": 1, "fp8e4nv": 1, "fp16": 2, "bf16": 2, "fp32": 4}[dtype],
                     "cmp": cmp}
    assert len(out) == 57, len(out)
    return out


@needs_llc
def _run(k: Dict[str, Any]) -> None:
    """One llc run: the AMDGCN (stdout) and the IR after the vectorizer (stderr)."""
    if "acc" not in k:
        p = _llc(k["llir"], k["cpu"], "-o", "-", "-print-after=load-store-vectorizer")
        k["asm"], k["acc"] = p.stdout, vectorized_accesses(p.stderr)


@needs_llc
def test_llc_reproduces_the_amdgcn(kernels: Dict[str, Any]) -> None:
    for name, k in kernels.items():
        _run(k)
        assert dict(k["cmp"].isa_mix(k["asm"], "amdgcn")) == k["isa"], name


def _vectorized(k: Dict[str, Any]) -> List[Access]:
    _run(k)
    return k["acc"]


@needs_llc
def test_model_is_the_vectorizer(kernels: Dict[str, Any]) -> None:
    differ = [name for name, k in kernels.items() if widths(_vectorized(k)) not in mix_widths(k["model"])]
    print("\nmodel = LLVM's LoadStoreVectorizer on %d of %d; differ: %s" % (len(kernels) - len(differ), len(kernels), differ))
    assert len(kernels) - len(differ) >= 56, differ


@needs_llc
def test_every_difference_has_its_stage(kernels: Dict[str, Any]) -> None:
    rules = {}
    for name, k in kernels.items():
        if k["isa"] != k["model"]:
            rules[name] = stage_rule(k["isa"], k["model"], _vectorized(k), k["elem"])
    print("\nstages:", rules)
    assert None not in rules.values(), rules
    # the stages named in the module docstring, each seen on its kernel
    assert {n.split("_")[0]: r for n, r in rules.items()} == {
        "g310": "LSV_ALIGN", "g410": "SI_PAIRING", "g422": "IR_ALIGN", "g438": "ISEL_MERGE"}


def test_stage_rules_tell_stages_apart() -> None:
    """Known answers: each rule on a hand-made case, and none on a mix no
    stage explains (more bytes in the ISA than the vectorizer moved)."""
    model = {"ds_write2_b32": 1}
    assert stage_rule({"ds_write_b32": 2}, model, [("st", 4, 4), ("st", 4, 4)], 4) == "SI_PAIRING"
    assert stage_rule({"ds_write_b64": 1}, model, [("st", 8, 2)], 2) == "IR_ALIGN"
    assert stage_rule({"ds_read_b32": 1}, {"ds_read_u8": 4}, [("ld", 1, 4), ("ld", 1, 1), ("ld", 1, 2), ("ld", 1, 1)],
                      1) == "ISEL_MERGE"
    pair = {"ds_write_b32": 1}  # the model merges two bf16
    assert stage_rule({"ds_write_b16": 2}, pair, [("st", 2, 2), ("st", 2, 2)], 2) == "LSV_ALIGN"
    assert stage_rule({"ds_write_b16": 2}, pair, [("st", 2, 4), ("st", 2, 2)], 2) is None
    assert stage_rule({"ds_write_b64": 2}, model, [("st", 8, 4)], 4) is None
