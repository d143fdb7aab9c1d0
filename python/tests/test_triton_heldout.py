"""The model against a HELD-OUT set of 203 Triton 3.6 compilations.

tests/fixtures/triton/heldout (its README.md; gen_heldout.py and
device_run.sh made it on an H200) holds the corpus's families with
parameters the corpus never used, drawn by a fixed seed, plus `tl.sort` and
`tl.histogram` kernels and several-rows-per-program softmax and row
statistics, for gfx942, gfx950 and sm_90; the 68 sm_90 kernels were
launched once with their grid and once with one program under Nsight
Compute.  The set was frozen and scored before any change to the model, and
the model is never to be changed because of a named held-out kernel: this
test only keeps the score from falling.

The score is measured with the machinery of test_triton_corpus.py, loaded
a second time with its fixture folder pointed here (`_corpus_on`), so the
two scores are the same measurement:

- modules read: the TTGIR goes through liblayout.triton.report; one refused
  is a miss, and its shared-memory ops count as not modelled;
- ops modelled: of the ops whose lowering can touch shared memory
  (test_triton_corpus.SHARED_OPS), those the report models;
- ISA mix per fully modelled kernel, per vendor: exact ("equal", "equal per
  execution", and "equal per path" for a kernel whose loop LLVM's O3
  peels by the held-out set's own LLVM IR record, heldout/llir_amd);
  every other class is a miss (the corpus's named misses, each with a
  ceiling);
- Nsight Compute per sm_90 launch, all 68 (a module not read or not fully
  modelled is a miss): shared load and store instructions, wavefronts, bank
  conflicts, raw (ptxas's dummy `@!PT LDS RZ, [RZ]` beside cp.async are
  the model's own loads, lib/triton_kernel/ptxas_dummy.c); and ONE_CTA as its
  own column: the one-program launch against the model for one program
  (program 0's trip counts) -- both sides one CTA, never mixed;
- the same per SASS instruction (probe.jsonl, probe.sh: SourceCounters of
  the launch with its grid), with the corpus's probe-backed corrections,
  as a separate column.

The goals (tests test_goal_*): modules read 100 %; ops modelled 100 %;
per vendor, the ISA mix equal on >= 97 % of the fully modelled kernels and
exact on >= 95 %; ncu instructions, wavefronts and conflicts each equal on
>= 97 % of the 68 launches (per SASS instruction, the probe's recorded
corrections); Gluon conflicts equal on >= 98 % of the launched sides, raw.
A goal not met is an xfail(strict=True) whose reason gives today's figure:
meeting it fails the run until the marker goes.  The floors
(test_heldout_score_does_not_fall) stay hard assertions.

LAYOUT_HELDOUT_REPORT=file writes a line per kernel.
"""

from __future__ import annotations

import collections
import functools
import importlib.util
import json
import os
from pathlib import Path
from typing import Dict, List

import pytest

import liblayout.triton as lt

TESTS = Path(__file__).resolve().parent
HELD = TESTS.parents[1] / "tests" / "fixtures" / "triton" / "heldout"
CORPUS = TESTS.parents[1] / "tests" / "fixtures" / "triton" / "corpus"
TARGETS = ("gfx942", "gfx950", "sm90")
# "equal per path": a kernel whose loop LLVM peeled, by the record of
# heldout/llir_amd (its README.md): every path's count is the model's
EXACT = ("equal", "equal per execution", "equal per path")


def _corpus_on(folder: Path, tag: str):
    """test_triton_corpus.py as a fresh module whose fixture folder is
    `folder` (its functions read HERE when called; their caches are the
    copy's own).  Its test functions are not collected from here."""
    spec = importlib.util.spec_from_file_location("_triton_corpus_" + tag, TESTS / "test_triton_corpus.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.HERE = folder
    return mod


H = _corpus_on(HELD, "heldout")
H.PEELED = HELD / "llir_amd"  # the held-out set's own record of LLVM's peeled loops


@functools.lru_cache(maxsize=None)
def read() -> Dict[str, object]:
    """case -> its report, or the error text of a module the model refuses."""
    out: Dict[str, object] = {}
    for n in H.cases():
        try:
            out[n] = lt.report(H.files()[n + ".ttgir"], suggest=False)
        except Exception as e:  # noqa: BLE001 -- any refusal is a module not read
            out[n] = str(e)
    return out


@functools.lru_cache(maxsize=None)
def _reports() -> Dict[str, dict]:
    return {n: r for n, r in read().items() if isinstance(r, dict)}


H.reports = _reports  # the copy's classify / predicted_launch read the modules that were read


def _one_program(meta: dict) -> dict:
    """The case as launched with one program (gen_corpus.py run, CORPUS_GRID=1):
    grid 1 and program 0's trip counts."""
    m = dict(meta)
    m["grid"] = [1] * len(meta["grid"])
    m["trips"] = {k: v[:1] for k, v in meta["trips"].items()}
    return m


H1 = _corpus_on(HELD, "heldout_one_cta")
H1.files, H1.reports = H.files, _reports
H1.cases = functools.lru_cache(maxsize=None)(lambda: {n: _one_program(m) for n, m in H.cases().items()})


class _Renamed:
    """The held-out folder with the one-program Nsight Compute page under
    the name the corpus's reader opens (ncu-0.csv)."""

    def __truediv__(self, name: str) -> Path:
        return HELD / {"ncu-0.csv": "ncu-one-cta.csv"}.get(name, name)


H1.HERE = _Renamed()


def _launches(run_file: str, mod) -> List[dict]:
    runs = [json.loads(line) for line in (HELD / run_file).read_text().splitlines() if line.strip()]
    rows = mod.ncu_rows()
    assert len(rows) == len(runs) and all(r["launched"] for r in runs), (run_file, len(rows), len(runs))
    return [{"name": r["name"], "measured": mod.measured_launch(rows[r["launch_index"]])} for r in runs]


def _programs(name: str) -> int:
    progs = 1
    for g in H.cases()[name]["grid"]:
        progs *= g
    return progs


def vendor(name: str) -> str:
    return "nv" if H.target(name).startswith("sm") else "amd"


@functools.lru_cache(maxsize=None)
def score() -> dict:
    s: dict = {"read": collections.Counter(), "modules": collections.Counter(), "ops": collections.Counter(),
               "ops_modelled": collections.Counter(), "unreported": 0, "classes": {}, "ncu": collections.Counter(),
               "ncu_miss": collections.defaultdict(list), "refused": {}, "probe_rules": collections.Counter()}
    for n, r in sorted(read().items()):
        t = H.target(n)
        s["modules"][t] += 1
        text = H.files()[n + ".ttgir"]
        shared_lines = [i for i, line in enumerate(text.splitlines(), 1) if H.SHARED_OPS.search(line)]
        if not isinstance(r, dict):
            s["refused"][n] = r
            s["ops"][t] += len(shared_lines)  # none modelled
            continue
        s["read"][t] += 1
        reported = {op["line"] for op in r["ops"]}
        missing = [i for i in shared_lines if i not in reported]
        s["unreported"] += len(missing)
        s["ops"][t] += len(r["ops"]) + len(missing)
        s["ops_modelled"][t] += sum(1 for op in r["ops"] if op.get("modelled"))
        if H.fully_modelled(n):
            s["classes"][n] = H.classify(n)
    for col, run_file, mod in (("grid", "run.jsonl", H), ("one_cta", "run-one-cta.jsonl", H1)):
        for launch in _launches(run_file, mod):
            n, m = launch["name"], launch["measured"]
            s["ncu"][(col, "launches")] += 1
            rep = _reports().get(n)
            if rep is None or not all(op.get("modelled") or op["op"] == "ttng.warp_group_dot" for op in rep["ops"]):
                s["ncu_miss"][(col, "not modelled")].append(n)
                continue
            s["ncu"][(col, "compared")] += 1
            p = mod.predicted_launch(n)
            for k in ("ld", "st", "wavefronts", "conflicts"):
                if p[k] == m[k]:
                    s["ncu"][(col, k)] += 1
                else:
                    s["ncu_miss"][(col, k)].append(n)
            s["ncu"][(col, "instructions")] += p["ld"] == m["ld"] and p["st"] == m["st"]
            if col == "grid":
                # the probe (probe.jsonl): the launch's SourceCounters summed per
                # SASS instruction, with the corpus's probe-backed corrections
                # (SASS_SKIPPED counted on every warp; the raw totals' excess is
                # in no instruction; ptxas's dummy loads are the model's own)
                got, used = H.per_instruction(n)
                plain, _ = H.per_instruction(n, sink=False)
                same = {k: got[k] == p[k] or plain[k] == p[k] for k in ("ld", "st", "wavefronts", "conflicts")}
                for rule, k in (("SASS_SKIPPED", "ld"),):
                    # a correction counted where it made a figure equal
                    if used[rule] and same[k] and p[k] != m[k]:
                        s["probe_rules"][rule] += 1
                for k, ok in same.items():
                    s["ncu"][("probe", k)] += ok
                    if not ok:
                        s["ncu_miss"][("probe", k)].append(n)
                s["ncu"][("probe", "instructions")] += same["ld"] and same["st"]
                s["ncu"][("probe", "compared")] += 1
    return s


def table() -> str:
    s = score()
    per = collections.Counter((vendor(n), c) for n, c in s["classes"].items())
    lines = ["| figure | held-out | ", "|---|---|"]
    lines.append("| modules read | %d of %d (%s) |" % (sum(s["read"].values()), sum(s["modules"].values()),
                 ", ".join("%s %d/%d" % (t, s["read"][t], s["modules"][t]) for t in TARGETS)))
    lines.append("| shared-memory ops modelled | %d of %d |" % (sum(s["ops_modelled"].values()), sum(s["ops"].values())))
    for v, label in (("amd", "AMD DS mix"), ("nv", "sm_90 PTX shared mix")):
        full = sum(c for (ven, _), c in per.items() if ven == v)
        exact = sum(per[(v, c)] for c in EXACT)
        misses = ", ".join("%d %s" % (c, k) for (ven, k), c in sorted(per.items()) if ven == v and k not in EXACT)
        lines.append("| %s = model (fully modelled kernels) | exact %d of %d; misses: %s |"
                     % (label, exact, full, misses or "none"))
    for col, label in (("grid", "ncu, launch with its grid"), ("one_cta", "ncu, ONE_CTA (one program, model and ncu)")):
        n = s["ncu"]
        lines.append("| %s: instructions / wavefronts / conflicts equal, of %d launches (%d compared) | %d / %d / %d "
                     "(loads %d, stores %d) |"
                     % (label, n[(col, "launches")], n[(col, "compared")], n[(col, "instructions")],
                        n[(col, "wavefronts")], n[(col, "conflicts")], n[(col, "ld")], n[(col, "st")]))
    n = s["ncu"]
    lines.append("| ncu per instruction (probe.jsonl, the launch with its grid; the corpus's "
                 "SASS_SKIPPED; raw excess left out), of 68 launches (%d compared) | %d / %d / %d (loads %d, stores %d) |"
                 % (n[("probe", "compared")], n[("probe", "instructions")], n[("probe", "wavefronts")],
                    n[("probe", "conflicts")], n[("probe", "ld")], n[("probe", "st")]))
    return "\n".join(lines)


# ---- floors, never to fall: the score of the model after the TTGIR reader
# became an MLIR parser (merge f9938e6) and Triton attributes of rank up to
# 20 are read (tl.sort: from Triton's source, no rule added), tt.histogram,
# broadcast tensor atomics and AMD's direct-to-LDS copies are lowered as
# Triton's source does, with the corpus test's loops read from LLVM's Loop
# Header markers and no exemption class (docs/triton.md, "Held-out set").  The first score (model of
# e934dc6) is in the docs. ----
FLOOR_READ = {"gfx942": 67, "gfx950": 68, "sm90": 68}   # of 67 / 68 / 68
FLOOR_OPS_MODELLED = 1437  # of 1437
FLOOR_ISA = {"amd": 131, "nv": 66}  # exact, of 135 / 68 fully modelled kernels
# each named miss covers at most (the corpus's classes; today's counts).  With
# the LLVM IR record (heldout/llir_amd) the 6 MISS_DUP are equal per path:
# AMD exact 115 -> 121; then the model's `_d16_hi` rule (from AMDGPU's
# instruction selection, found on the corpus): the 3 MISS_D16_HI equal, 124.
# Then the base-register rules (tidbits.c, found on the corpus and LLVM's
# source; scored once after): 125, MISS_PAIRING 10 -> 8 (3 kernels equal,
# one equal kernel now MISS_PAIRING), and one kernel equal per path before
# is now `other` -- both falls measured, not tuned away.  Then a scan's
# warp totals stored under a branch on registers LLVM keeps apart
# (tidbits.c's `elsewhere`, found on the corpus and the rows tuning set,
# Triton's LLVM on llc/pairing_branch.ll; scored once after): 126,
# MISS_PAIRING 8 -> 7.  Then reduce.c's constant-address loads and
# one-block stores (found on the rows2 tuning set and Triton's machine IR;
# scored once after): 128, MISS_PAIRING 5.  Then that rule read per dim
# (a register constant stays only in a dim that also holds lanes or warps;
# found on the mix tuning set's sorts): 129, MISS_PAIRING 4.  Then
# pairing across a loop's stores whose views index with one value into
# equal slots (the mix set's multi-stage matmuls): 130, MISS_PAIRING 3.
# Then no GVN phi after a loop LLVM peels (a one-deep buffer's memdesc
# iter_arg; the mix set's peeled matmuls): 131, `other` 2 -> 1.
CEILING_ISA_MISSES = {"MISS_PAIRING": 3, "MISS_PTX_SPELLING": 1, "MISS_SPLIT_LOADS": 1, "other": 1}
# ptxas's joins (ptxas_join.c, from ptxas's own output on probes and the
# corpus's cumsums; scored once after): instructions and loads 51 -> 52 with
# the grid, 51 -> 52 with one program, 67 -> 68 per SASS instruction (the i32
# 1-D cumsum, the corpus's PTXAS_MERGED class).  Then ptxas's dummy loads
# beside cp.async (ptxas_dummy.c, from ptxas probes, the corpus's SASS and the
# nvmix tuning set's; scored once after): raw loads 52 -> 66 with the grid and
# with one program; per SASS instruction 68 -> 66, because the column no
# longer drops every `@!PT LDS RZ, [RZ]` (the correction PTXAS_DUMMY_LDS
# excused any count of them, on 16 launches): the model now predicts them, and
# on two bf16 attention launches its count differs from ptxas's (misses).
FLOOR_NCU = {"grid": {"compared": 68, "instructions": 66, "ld": 66, "st": 68, "wavefronts": 63, "conflicts": 64},
             "one_cta": {"compared": 68, "instructions": 66, "ld": 66, "st": 68, "wavefronts": 67, "conflicts": 67},
             "probe": {"compared": 68, "instructions": 66, "ld": 66, "st": 68, "wavefronts": 68, "conflicts": 68}}
# the per-instruction corrections, read on each launch's probe record: launches each made equal, at most
CEILING_PROBE_RULES = {"SASS_SKIPPED": 0}
LAUNCHES = 68


def test_the_heldout_set_is_what_its_readme_says():
    cs = H.cases()
    assert len(cs) == 203
    per = collections.Counter(H.target(n) for n in cs)
    assert per == {"sm90": 68, "gfx942": 67, "gfx950": 68}, per
    assert {c["family"] for c in cs.values()} >= {"matmul", "attn", "softmax", "softmaxrows", "rowstats", "reduce2d",
                                                   "cumsum1d", "scan2d", "transpose", "gather", "sort1d", "sort2d",
                                                   "histogram"}
    assert sum(c["how"] == "launched" for c in cs.values()) == per["sm90"]
    assert all(c["triton"] == "3.6.0" for c in cs.values())
    # held out: no name of the tuning corpus, nor its kernel with the same constexprs, options and signature
    corpus = _corpus_on(CORPUS, "corpus_names").cases()
    key = lambda c: (H.target(c["case"]), json.dumps(c["constexprs"], sort_keys=True),  # noqa: E731
                     json.dumps(c["options"], sort_keys=True), json.dumps(c["signature"], sort_keys=True))
    assert not set(cs) & set(corpus)
    assert not {key(c) for c in cs.values()} & {key(c) for c in corpus.values()}


def _per_vendor() -> collections.Counter:
    return collections.Counter((vendor(n), c) for n, c in score()["classes"].items())


def test_heldout_score_does_not_fall():
    s = score()
    print("\n" + table())
    if os.environ.get("LAYOUT_HELDOUT_REPORT"):
        Path(os.environ["LAYOUT_HELDOUT_REPORT"]).write_text(
            "".join("%s %s\n" % (n, s["classes"].get(n, "not fully modelled" if isinstance(r, dict) else "not read"))
                    for n, r in sorted(read().items())))
    for t in TARGETS:
        assert s["read"][t] >= FLOOR_READ[t], (t, s["read"], s["refused"])
    assert sum(s["ops_modelled"].values()) >= FLOOR_OPS_MODELLED, s["ops_modelled"]
    per = _per_vendor()
    for v, exact in FLOOR_ISA.items():
        assert sum(per[(v, c)] for c in EXACT) >= exact, (v, per)
    misses = collections.Counter()
    for (_, c), k in per.items():
        if c not in EXACT:
            misses[c] += k
    assert set(misses) <= set(CEILING_ISA_MISSES), misses
    for c, ceiling in CEILING_ISA_MISSES.items():
        assert misses[c] <= ceiling, (c, misses[c], ceiling)
    for col, floors in FLOOR_NCU.items():
        for k, floor in floors.items():
            assert s["ncu"][(col, k)] >= floor, (col, k, s["ncu"])
    assert set(s["probe_rules"]) <= set(CEILING_PROBE_RULES), s["probe_rules"]
    for rule, ceiling in CEILING_PROBE_RULES.items():
        assert s["probe_rules"][rule] <= ceiling, (rule, s["probe_rules"])


# ---- the goals: each a check that reports its gap.  A goal not met is an
# xfail(strict=True) with today's figure in its reason; when a change meets
# it the test passes, strict makes that a failure, and the marker goes. ----

def _share(got: int, of: int) -> str:
    return "%d of %d (%.1f %%)" % (got, of, 100.0 * got / of if of else 0.0)


def test_goal_modules_read_all():
    s = score()
    assert sum(s["read"].values()) == sum(s["modules"].values()) == 203, (s["read"], s["refused"])


def test_goal_ops_modelled_all():  # met: 1437 of 1437
    s = score()
    got, of = sum(s["ops_modelled"].values()), sum(s["ops"].values())
    assert got == of, "ops modelled " + _share(got, of)


def _isa_goal(v: str) -> None:
    per = _per_vendor()
    full = sum(c for (ven, _), c in per.items() if ven == v)
    exact = sum(per[(v, c)] for c in EXACT)
    equal = exact  # no exemption class: equal is exact
    assert equal * 100 >= 97 * full and exact * 100 >= 95 * full, \
        "%s ISA mix equal %s, exact %s" % (v, _share(equal, full), _share(exact, full))


def test_goal_isa_mix_amd():  # met: exact (= equal) 131 of 135 (97.0 %)
    _isa_goal("amd")


def test_goal_isa_mix_nvidia():  # met: exact (= equal) 66 of 68 (97.1 %)
    _isa_goal("nv")


def test_goal_ncu():  # met per SASS instruction: 66 / 68 / 68 of 68 (raw with the grid 66 / 63 / 64)
    n = score()["ncu"]
    gaps = {k: n[("probe", k)] for k in ("instructions", "wavefronts", "conflicts")}
    assert all(v * 100 >= 97 * LAUNCHES for v in gaps.values()), \
        "; ".join("%s %s" % (k, _share(v, LAUNCHES)) for k, v in gaps.items())


def test_goal_gluon_conflicts_raw():
    """Gluon bank conflicts equal on >= 98 % of the launched sides, raw: no
    rule makes a side equal.  Measured with one CTA per launch, the only
    one on its SM, every one of the 183 launched kernels twice
    (tests/fixtures/gluon/one_cta_all.tar.xz): loads and stores 180 of 183.
    The launches of 264 CTAs measure 170 and 172: 18 of their misses carry
    a fractional excess per warp that a second launch does not repeat
    (test_one_cta_excess_is_not_repeatable), and those 18 sides equal the
    model in the one-CTA column."""
    import test_gluon_fixtures as gf  # python/tests: the Gluon fixtures' comparison
    n = gf.compute_results()["one_cta_all"]
    assert all(n[side + " conflicts equal"] * 100 >= 98 * n[side] for side in ("ld", "st")), \
        "loads %s, stores %s" % (_share(n["ld conflicts equal"], n["ld"]), _share(n["st conflicts equal"], n["st"]))


def test_one_cta_excess_is_not_repeatable():
    """The Gluon sides the raw goal misses as ONE_CTA: with 264 CTAs their
    conflicts per warp exceed the model's by a fraction that changes
    between two launches of the same kernel (probe.jsonl's `repeat`), and
    one CTA alone measures the model's figure per SASS instruction.  Not a
    property of the addresses: the goal's raw figure cannot be met there by
    any model of them."""
    import test_gluon_fixtures as gf
    r = gf.compute_results()
    probes = {}
    for line in (gf.FIX / "probe.jsonl").read_text().splitlines():
        p = json.loads(line)
        probes[p["name"]] = p
    sides = [(n, side) for n, row in r["rows"].items() for side in ("ld", "st") if row.get("ncu_%s_rule" % side) == "ONE_CTA"]
    assert len(sides) == 18, len(sides)
    for n, side in sides:
        first, again = r["rows"][n]["ncu"][side + "_bc"], probes[n]["repeat"][side + "_bc"]
        assert first != again and first != int(first), (n, side, first, again)
    # alone on its SM, launched twice: the model's figure both times, but for
    # g047's loads, whose two one-CTA launches differ again (16.625 of the
    # model's 16 wavefronts per warp, then 16.5)
    rules = collections.Counter(r["rows"][n].get("one_cta_all_%s_rule" % side, "EQUAL") for n, side in sides)
    assert rules == {"EQUAL": 17, "NOT_REPEATED": 1}, rules


def test_the_one_program_page_is_one_program():
    # the ONE_CTA column reads what it says: on every loop-free launch each
    # program runs the same shared instructions, so the launch with its grid
    # measures exactly the programs times the one-program launch
    grid = {x["name"]: x["measured"] for x in _launches("run.jsonl", H)}
    one = {x["name"]: x["measured"] for x in _launches("run-one-cta.jsonl", H1)}
    assert set(grid) == set(one) and len(grid) == 68
    n = 0
    for name, m in grid.items():
        meta = H.cases()[name]
        if "scf.for" in H.files()[name + ".ttgir"]:
            continue
        progs = 1
        for g in meta["grid"]:
            progs *= g
        assert progs > 1 and (m["ld"], m["st"]) == (one[name]["ld"] * progs, one[name]["st"] * progs), (name, m, one[name])
        if name in _reports():  # the model's side scales the same way
            p1, p = H1.predicted_launch(name), H.predicted_launch(name)
            assert all(p1[k] * progs == p[k] for k in p), (name, p1, p)
        n += 1
    assert n >= 40, n


def test_the_probe_is_the_same_kernels():
    # probe.sh ran every launch again with SourceCounters: the shared load and
    # store instructions it counts are the first run's, launch by launch, and
    # the per-instruction sums hold every executed shared instruction
    grid = {x["name"]: x["measured"] for x in _launches("run.jsonl", H)}
    assert set(H.probes()) == set(grid)
    for name, m in grid.items():
        pr = H.probes()[name]
        assert (pr["full"]["ld_inst"], pr["full"]["st_inst"]) == (m["ld"], m["st"]), (name, pr["full"], m)
        runs = collections.Counter()
        for i in pr["sass"]:
            words = i["sass"].split()
            runs[(words[1] if words[0].startswith("@") else words[0]).split(".")[0]] += i["executed"]
        assert (runs["LDS"], runs["STS"]) == (m["ld"], m["st"]), (name, runs, m)


def test_heldout_peeled_loops_are_llvms(tmp_path: Path):
    """The record (heldout/llir_amd): Triton's own IR of each kernel of
    peeled.txt, before LLVM's O3, through Debian's LLVM 22.1.8 `opt -O3` for
    its target peels the loop ("peeled loop by 1 iterations"), and of the
    record's other kernels none; and each peeled kernel's committed AMDGCN is
    read per path (the corpus's amdgcn_cfg)."""
    import subprocess
    import tarfile
    import llvm22
    names = (HELD / "llir_amd" / "names.txt").read_text().split()
    peeled = set((HELD / "llir_amd" / "peeled.txt").read_text().split())
    assert len(names) == 20 and len(peeled) == 7 and peeled <= set(names)
    per = {n: H.classify(n) for n in sorted(peeled)}
    # all seven since the loop LLVM peels has no GVN phi after it (tidbits.c, found on the mix tuning set)
    assert sorted(per.values()) == ["equal per path"] * 7, per
    with tarfile.open(HELD / "llir_amd" / "llir_amd.tar.xz") as t:
        ir = {m.name: t.extractfile(m).read() for m in t.getmembers() if m.name.endswith(".pre.ll")}
    assert set(ir) == {n + ".pre.ll" for n in names}
    opt = llvm22.tool("opt")
    if not opt:
        pytest.skip("needs LLVM %s's opt (opt-22)" % llvm22.RELEASE)
    for n in names:
        pre = tmp_path / (n + ".pre.ll")
        pre.write_bytes(ir[n + ".pre.ll"])
        r = subprocess.run([opt, "-O3", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + H.target(n),
                            "-pass-remarks=loop-unroll", str(pre), "-o", str(tmp_path / "o.bc")],
                           capture_output=True, text=True, check=True)
        assert ("peeled loop by 1 iterations" in r.stderr) == (n in peeled), n
