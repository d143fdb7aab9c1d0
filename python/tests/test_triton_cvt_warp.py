"""``ttg.convert_layout`` within a warp, held to the generated corpus.

tests/fixtures/triton/corpus/kernels.tar.xz holds 676 Triton 3.6
compilations (7 targets) with their AMDGCN / PTX.  A convert whose data
moves only between the lanes of a warp is lowered, as Triton 3.6 decides
(cvtNeedsWarpShuffle, lib/Analysis/Utility.cpp: fewer than 2 mixed
register-lane transpositions in getWarpLayoutConvertDecomposition), with
shuffles -- no shared-memory instruction; the ISA shows shfl.sync.idx.b32
on NVIDIA, ds_bpermute_b32 (no LDS access) on gfx942, v_permlane32_swap /
v_permlane16_swap or ds_bpermute_b32 on gfx950, v_permlanex16_b32 on
gfx1100 -- or else through the swizzled scratch like a convert across
warps.  Per source location whose ops are all ``ttg.convert_layout`` (the
ISA's `.loc`, as tests/test_triton_lower.c reads it: the outermost caller of
an inlined line), this test asserts:

* every convert of the corpus is modelled (none is left "within a warp, not
  modelled");
* where the model predicts no instruction (registers renamed, or
  shuffles), the ISA has no ds_read / ds_write (RDNA: ds_load / ds_store),
  ld / st.shared, ldmatrix or stmatrix there;
* where it predicts the scratch, the ISA has shared-memory instructions
  there (the model never puts a scratch where Triton shuffled);
* floors on the locations that equal the ISA mnemonic by mnemonic (RDNA's
  names mapped to gfx9's, `_d16_hi` as the plain store) and on the
  shuffle locations (no instruction predicted, cross-lane instructions in
  the ISA) per target.
"""

from __future__ import annotations

import collections
import re
import tarfile
from pathlib import Path
from typing import Dict, Tuple

import liblayout.triton as lt

TAR = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "triton" / "corpus" / "kernels.tar.xz"
SHARED = ("ds_read", "ds_write", "ds_load", "ds_store", "st.shared", "ld.shared", "ldmatrix", "stmatrix")
XLANE = ("ds_bpermute", "v_permlane", "shfl.sync")
Loc = Tuple[int, int]


def _mnemonic(mn: str) -> str:
    """RDNA's LDS names as gfx9's, a d16_hi store as the plain one (both sides)."""
    mn = re.sub(r"^ds_load", "ds_read", re.sub(r"^ds_store", "ds_write", mn))
    return mn.replace("_2addr_stride64_", "2st64_").replace("_2addr_", "2_").replace("_d16_hi", "")


def isa_by_loc(text: str) -> Tuple[Dict[Loc, collections.Counter], Dict[Loc, int]]:
    """Shared-memory instructions and cross-lane ones under each `.loc` line:column."""
    loc: Loc = (0, 0)
    shared: Dict[Loc, collections.Counter] = collections.defaultdict(collections.Counter)
    xlane: Dict[Loc, int] = collections.Counter()
    for raw in text.splitlines():
        s = raw.strip()
        m = re.match(r"\.loc\s+\d+\s+(\d+)\s+(\d+)", s)
        if m:
            loc = (int(m.group(1)), int(m.group(2)))
            if "@[ " in s:  # an inlined line: its outermost caller
                mm = re.search(r":(\d+):(\d+)", s.rsplit("@[ ", 1)[1])
                if mm:
                    loc = (int(mm.group(1)), int(mm.group(2)))
            continue
        if s.startswith("@"):  # a guarded PTX instruction
            s = s.split(None, 1)[1] if " " in s else ""
        mn = s.split()[0] if s else ""
        if mn.startswith(SHARED):
            shared[loc][_mnemonic(mn)] += 1
        elif mn.startswith(XLANE):
            xlane[loc] += 1
    return shared, xlane


def _loc(s: str) -> Loc:
    m = re.search(r":(\d+):(\d+)$", s)
    assert m, s
    return int(m.group(1)), int(m.group(2))


def test_converts_within_a_warp() -> None:
    with tarfile.open(TAR) as t:
        files = {Path(m.name).name: t.extractfile(m).read().decode() for m in t.getmembers() if m.isfile()}
    n_converts = n_empty = n_scratch = n_equal = 0
    shuffles: Dict[str, int] = collections.Counter()
    for name in sorted(files):
        if not name.endswith(".ttgir") or "ttg.convert_layout" not in files[name]:
            continue
        stem = name[: -len(".ttgir")]
        target = stem.rsplit("_", 1)[1]
        isa = files[stem + (".ptx" if target.startswith("sm") else ".amdgcn")]
        rep = lt.report(files[name])
        by_loc = collections.defaultdict(list)
        for op in rep["ops"]:
            if op["op"] == "ttg.convert_layout":
                n_converts += 1
                assert op["modelled"], (stem, op["line"], op.get("reason"))
            if op.get("loc"):
                by_loc[_loc(op["loc"])].append(op)
        shared, xlane = isa_by_loc(isa)
        for loc, ops in by_loc.items():
            if any(op["op"] != "ttg.convert_layout" for op in ops):
                continue
            pred: collections.Counter = collections.Counter()
            for op in ops:
                for mn, c in op["instructions"].items():
                    pred[_mnemonic(mn)] += c
            got = shared.get(loc, collections.Counter())
            if not pred:
                n_empty += 1
                assert not got, (stem, loc, dict(got))
                if xlane.get(loc):
                    shuffles[target] += 1
                continue
            n_scratch += 1
            assert got, (stem, loc, "the model predicts a scratch, the ISA has no shared-memory instruction")
            n_equal += dict(pred) == dict(got)
    # 646 converts; 540 locations hold converts only: 121 with no instruction
    # predicted (50 registers renamed, 71 shuffles), 419 through the scratch
    assert n_converts == 646, n_converts
    assert (n_empty, n_scratch) == (121, 419), (n_empty, n_scratch)
    # the other 20 are converts across warps: PTX spellings of the same
    # bytes (.b64, .v2.b64, .v4.b16 where the model names .v2.b32 /
    # .v4.b32), reads LLVM added, split or paired at that location
    # (layer norm backward, reduce3d on RDNA and gfx9), and 64-bit
    # transposes larger than the LDS (moved in rounds)
    assert n_equal >= 399, n_equal
    # the shuffles Triton chose where the ISA shows them (the sm_90 gather's
    # converts share their location with the tt.gather, not counted here)
    assert dict(shuffles) == {"gfx950": 60, "gfx942": 5, "gfx1100": 4, "sm90": 2}, dict(shuffles)
