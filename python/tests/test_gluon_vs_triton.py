"""liblayout.gluon against the TTGIR Triton 3.6 itself printed for the same Gluon kernels.

tests/fixtures/gluon/ (its README.md) holds 440 random Gluon kernels, each a
register tile written to shared memory in a shared layout and read back,
as drawn (layouts as JSON in cases.jsonl) and as Triton 3.6 compiled them
(kernels.tar.xz: the TTGIR of each of the 380 that compiled, for sm_90,
gfx942 and gfx950).  Differential: ``liblayout.gluon.check`` builds its own
module from the layout objects (stand-ins with Gluon's class names, built
from the JSON); its store and load sides must cost exactly what
``liblayout.triton.report`` gives the real TTGIR's ops, instruction by
instruction, per warp.  A difference means the module gluon.py writes is
not the one Triton writes.
"""

from __future__ import annotations

import collections
import json
import re
import tarfile
from pathlib import Path
from typing import Any, Dict

import pytest

import liblayout.gluon as lg
import liblayout.triton as lt
from liblayout.gluon import layouts as gl

FIX = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "gluon"
TARGETS = {"sm90": "cuda:90", "gfx942": "hip:gfx942", "gfx950": "hip:gfx950"}


def build(d: Dict[str, Any]) -> Any:
    """A stand-in Gluon layout from the generator's JSON (gen_gluon.py's build_layout, without Triton)."""
    args = dict(d)
    cls = args.pop("class")
    if cls == "DotOperandLayout":
        args["parent"] = build(args["parent"])
    if cls == "PaddedSharedLayout":
        return gl.PaddedSharedLayout.with_identity_for(args["interval_padding_pairs"], args["shape"], args["order"])
    return getattr(gl.amd if cls.startswith("AMD") else gl, cls)(**args)  # Triton 3.6: gl.amd.AMDMFMALayout


@pytest.fixture(scope="module")
def compiled():
    cases = [json.loads(line) for line in (FIX / "cases.jsonl").read_text().splitlines()]
    texts = {}
    with tarfile.open(FIX / "kernels.tar.xz") as t:
        for m in t.getmembers():
            if m.name.endswith(".ttgir"):
                texts[Path(m.name).stem] = t.extractfile(m).read().decode()
    return [(c, texts[c["name"]]) for c in cases if c["compiled"]]


def sides_of_report(rep: Dict[str, Any]):
    out = {"write": collections.Counter(), "read": collections.Counter()}
    cost = {"write": collections.Counter(), "read": collections.Counter()}
    for op in rep["ops"]:
        assert op["modelled"], op
        out[op["direction"]].update(op["instructions"])
        cost[op["direction"]].update({k: v for k, v in op["cost"].items() if isinstance(v, int)})
    return out, cost


def test_fixture_size(compiled):
    # the README's counts: 380 of 440 compiled, on all three targets
    assert len(compiled) == 380
    assert {c["target"] for c, _ in compiled} == {"sm90", "gfx942", "gfx950"}
    classes = {c["reg"]["class"] for c, _ in compiled} | {c["shared"]["class"] for c, _ in compiled}
    assert classes >= {"BlockedLayout", "DistributedLinearLayout", "NVMMADistributedLayout", "DotOperandLayout",
                       "AMDMFMALayout", "SwizzledSharedLayout", "PaddedSharedLayout", "NVMMASharedLayout",
                       "SharedLinearLayout"}


def _context_free(mix):
    """An instruction mix without the names that depend on the global access
    beside the op, which a kernel has and lg.check's module does not: sm_90
    vectors of sub-32-bit elements named as the tt.load / tt.store packed
    them (st.shared.b32 or st.shared.v2.b16: 4 bytes per lane either way),
    AMD's _d16_hi stores (the same access from the high half of a VGPR)."""
    out = collections.Counter()
    for mn, n in mix.items():
        m = re.match(r"((?:ld|st)\.shared)(?:\.v(\d))?\.b(\d+)$", mn)
        if m:
            mn = "%s %d bytes" % (m.group(1), int(m.group(2) or 1) * int(m.group(3)) // 8)
        out[re.sub(r"_d16_hi$", "", mn)] += n
    return +out


def test_check_equals_the_real_ttgir(compiled):
    differ = []
    n_sunk = 0
    for case, ttgir in compiled:
        rep = lt.report(ttgir)
        instr, cost = sides_of_report(rep)
        # the fixtures store the loaded tile to global memory (stored=True): ptxas's last load too
        got = lg.check(build(case["reg"]), build(case["shared"]), case["shape"], case["dtype"],
                       TARGETS[case["target"]], num_warps=case["num_warps"], stored=True)
        mine = {"write": collections.Counter(got.store.instructions), "read": collections.Counter(got.load.instructions)}
        for side, res in (("write", got.store), ("read", got.load)):
            if _context_free(mine[side]) != _context_free(instr[side]):
                differ.append((case["name"], side, dict(mine[side]), dict(instr[side])))
            mine_cost = collections.Counter()
            for op in res.ops:
                mine_cost.update({k: v for k, v in op["cost"].items() if isinstance(v, int)})
            if +mine_cost != +cost[side]:
                differ.append((case["name"], side, dict(mine_cost), dict(cost[side])))
            if case["target"] == "sm90":
                # per warp: the CTA's sums over the warps divided by them (warp 0's where every warp costs the same)
                nw = rep["num_warps"]
                cta = collections.Counter()
                for op in rep["ops"]:
                    if op.get("direction") == side and op.get("modelled"):
                        cta.update({k: op["cost"][k] for k in ("cta_wavefronts", "cta_bank_conflicts")})
                        n_sunk += bool(op.get("sunk_last_load_warps"))
                assert (res.cta_wavefronts, res.cta_bank_conflicts) == (cta["cta_wavefronts"], cta["cta_bank_conflicts"])
                assert (res.wavefronts * nw, res.bank_conflicts * nw) == (res.cta_wavefronts, res.cta_bank_conflicts)
                if res.cta_wavefronts == nw * cost[side]["wavefronts"]:
                    assert (res.wavefronts, res.bank_conflicts) == (cost[side]["wavefronts"],
                                                                    cost[side]["bank_conflicts"])
            else:
                assert res.extra_cycles is not None and res.wavefronts is None
    assert not differ, differ[:10]
    assert n_sunk >= 24, n_sunk  # the fixtures whose last load ptxas runs on fewer warps (3 on fewer lanes too)


def test_bank_conflicts_against_tritons_own(compiled):
    """gl.bank_conflicts as Triton 3.6 computed it for each sm_90 case (recorded in cases.jsonl by
    gen_gluon.py; "crashed" where the call aborted Triton's process) against ours."""
    counts = collections.Counter()
    differ = []
    for case, _ in compiled:
        theirs = case.get("gl_bank_conflicts")
        if case["target"] != "sm90":
            continue
        if not isinstance(theirs, int):
            counts["triton aborted"] += theirs == "crashed"
            continue
        ours = lg.bank_conflicts(build(case["reg"]), build(case["shared"]), shape=case["shape"], dtype=case["dtype"],
                                 arch="sm_90")
        counts["compared"] += 1
        if ours != theirs:
            differ.append((case["name"], theirs, ours))
    # 142 sm_90 cases got a number from Triton (44 aborted); we agree on all but five (docs/gluon.md)
    assert counts["compared"] == 142 and counts["triton aborted"] == 44
    assert len(differ) <= 5, differ
    # where the two differ, Nsight Compute decides: conflicts per instruction measured on the H200,
    # on both sides, equal ours (the five are unvectorised 8- and 16-bit accesses)
    import sys
    sys.path.insert(0, str(FIX))
    from compare import load, measured  # noqa: E402  (the fixture's own reader of its ncu files)
    cases, runs, ncu = load(str(FIX))
    by_name = {c["name"]: c for c in cases}
    for name, theirs, ours in differ:
        run = next(r for r in runs if r["name"] == name and r.get("correct"))
        m = measured(run, ncu, by_name[name]["num_warps"])
        for side in ("ld", "st"):
            # per warp over 264 CTAs; a stray event or two over the launch leaves a fraction far below 0.5
            assert round(m[side + "_bc"]) == ours * m[side + "_inst"] != theirs * m[side + "_inst"], (name, side, m)
