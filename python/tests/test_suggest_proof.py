"""Suggestions held to the real Triton 3.6 and to an H200 (tests/fixtures/triton/suggest_proof/).

`make_list.sh` ran `layout triton --apply` on every corpus kernel
(tests/fixtures/triton/kernels) and on every fourth Gluon fixture kernel
(tests/fixtures/gluon) with an improving suggestion: 84 kernels (sm_90 38,
gfx942 22, gfx950 24), the original and the patched TTGIR of each.
`device_run.sh` compiled both with `triton.compile(path, target=...)`,
launched the sm_90 pairs on the same inputs under Nsight Compute and timed
them (triton.testing.do_bench medians, alternating, 3 rounds).
`sass_schedule.py` assembled the sm_90 PTX with ptxas here (sass.jsonl).
This test asserts what docs/triton.md states about them.
"""

from __future__ import annotations

import collections
import csv
import functools
import json
import os
import subprocess
from pathlib import Path

import pytest


HERE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "triton" / "suggest_proof"


# The kernels whose suggestion moved since the proof (test_apply_all's
# RERANKED_SINCE_PROOF, each with its reason): their patch is the older one.
# RESUGGESTED ("below", "tie") were proven again in reproof/, REORDERED
# (the store-order tie-break, "order") in reproof2/.
RESUGGESTED = {"g117_sm90_fp16_16x128_w8_blocked_sharedlinear", "g137_sm90_fp32_128x16_w4_blocked_nvmma",
               "g191_sm90_fp32_16x32_w8_blocked_sharedlinear", "g256_gfx942_bf16_32x16_w2_blocked_padded",
               "g328_gfx942_bf16_64x64_w1_blocked_swizzled", "g410_gfx950_fp32_64x16_w4_blocked_padded"}
REORDERED = {"g005_sm90_fp16_16x128_w4_blocked_padded", "g015_sm90_fp32_256x64_w4_blocked_sharedlinear",
             "g043_sm90_fp16_128x32_w1_blocked_swizzled", "g054_sm90_i8_32x256_w4_blocked_sharedlinear",
             "g064_sm90_fp16_64x128_w16_blocked_nvmma", "g079_sm90_bf16_128x32_w4_blocked_nvmma",
             "g084_sm90_fp32_128x128_w4_nvmmadistributed_swizzled", "g124_sm90_fp8e4nv_32x128_w4_blocked_padded",
             "g201_sm90_fp32_64x64_w8_blocked_swizzled"}


def entries():
    out = []
    for line in (HERE / "list.txt").read_text().splitlines():
        name, target, orig, patched = line.split()
        out.append((name, target, HERE / orig, HERE / patched))
    return out


def jsonl(name):
    return [json.loads(line) for line in (HERE / name).read_text().splitlines() if line.strip()]


def test_every_suggestion_compiles():
    es = entries()
    assert len(es) == 84
    assert sorted({t for _, t, _, _ in es}) == ["gfx942", "gfx950", "sm90"]
    recs = {(r["name"], r["which"]): r for r in jsonl("compile.jsonl") if "which" in r}
    for name, _, _, _ in es:
        for which in ("orig", "patched"):
            assert recs[(name, which)]["compiled"], (name, which, recs[(name, which)].get("error"))
        # padding may grow the allocation; Triton's total stays within the target's shared memory
        limit = {"sm90": 232448, "gfx942": 65536, "gfx950": 163840}[_target(name)]
        assert recs[(name, "patched")]["shared"] <= limit, name


def _target(name):
    return next(t for n, t, _, _ in entries() if n == name)


def _orig_reads_tr(name):
    import tarfile
    with tarfile.open(HERE / "isa.tar.xz") as t:
        for m in t.getmembers():
            if m.name.endswith(name + ".orig.amdgcn"):
                return b"ds_read_b64_tr_b" in t.extractfile(m).read()
    return False


def _suggest(path):
    tool = os.environ.get("LAYOUT_TOOL", "layout")
    p = subprocess.run([tool, "triton", "--json", "--suggest", str(path)], capture_output=True, text=True)
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)["suggestions"]


def test_patched_costs_what_the_suggestion_said():
    # read back, each patched allocation's current cost is what the original's suggestion said,
    # and the search finds nothing better to apply to the patched kernel
    for name, _, orig, patched in entries():
        before, after = _suggest(orig), _suggest(patched)
        assert len(before) == len(after), name
        if _orig_reads_tr(name) and not any(b["improved"] for b in before):
            # suggested before the model knew this gfx950 reader lowers to
            # ds_read_b64_tr (its original AMDGCN shows it): now kept by the
            # ds-read-tr-reader rule, the patched text is no suggestion's
            assert all(not b["improved"] and b.get("rule") == "ds-read-tr-reader" for b in before), (name, before)
            continue
        if name in RESUGGESTED:
            # its patch is an older suggestion: priced at least what is suggested now, and nothing beats it
            for b, a in zip(before, after):
                assert not a["improved"] and (not b["improved"] or a["current_cost"] >= b["cost"]), (name, b, a)
            continue
        for b, a in zip(before, after):
            if b["improved"]:
                assert a["current"] != b["current"] and a["current_cost"] == b["cost"], (name, b, a)
                assert a["current_bytes"] == b["bytes"], name
            else:
                assert a["current"] == b["current"] and a["current_cost"] == b["current_cost"], name
            assert not a["improved"] or a["cost"] < a["current_cost"], name


def ncu_rows():
    rows = list(csv.reader(line for line in (HERE / "ncu-0.csv").read_text().splitlines() if not line.startswith("==")))
    head = rows[0]
    return [{m: float(r[head.index(m)].replace(",", "")) for m in head if m.endswith(".sum")} for r in rows[2:]]


def test_measured_conflicts_never_exceed_the_original():
    rows = ncu_rows()
    once = jsonl("once.jsonl")
    sm90 = [e for e in entries() if e[1] == "sm90"]
    assert len(once) == len(sm90) == 38 and len(rows) == 2 * len(once)
    fewer = 0
    for r in once:
        assert r["outputs_equal"], r["name"]
        o, p = rows[2 * r["launch_index"]], rows[2 * r["launch_index"] + 1]
        for side in ("ld", "st"):
            bc = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum" % side
            wf = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % side
            assert p[bc] <= o[bc], (r["name"], side, o[bc], p[bc])
            assert p[wf] <= o[wf], (r["name"], side, o[wf], p[wf])
        fewer += (p["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] +
                  p["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] <
                  o["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] +
                  o["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"])
    assert fewer == 38
    # conflicts 0 after the suggestion on 33 of the 38 (docs/triton.md)
    assert sum(rows[2 * r["launch_index"] + 1]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] +
               rows[2 * r["launch_index"] + 1]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] == 0
               for r in once) == 33


def test_times_as_docs_state_them():
    bench = jsonl("bench.jsonl")
    assert len(bench) == 38 and all(b["outputs_equal"] for b in bench)
    ratios = sorted(b["ratio"] for b in bench)
    slower = [b["name"] for b in bench if b["ratio"] > 1.02]
    faster = [b["name"] for b in bench if b["ratio"] < 0.98]
    # docs/triton.md, "Proof on the GPU": 18 faster by more than 2 %, 7 within 2 %, 13 slower by more than 2 %
    assert (len(faster), len(bench) - len(faster) - len(slower), len(slower)) == (18, 7, 13)
    assert ratios[0] < 0.65 and ratios[-1] > 1.3


# Why 13 suggestions ran more than 2 % slower (docs/triton.md, "Proof on the GPU").  Everything below
# is derived from the committed measurements, the PTX Triton wrote (isa.tar.xz) and what ptxas 13.0
# makes of it (sass.jsonl, from sass_schedule.py: the same register count as Nsight Compute measured
# on every kernel, checked here).

@functools.lru_cache(maxsize=None)
def _isa():
    import tarfile
    with tarfile.open(HERE / "isa.tar.xz") as t:
        return {Path(m.name).name: t.extractfile(m).read().decode() for m in t.getmembers() if m.isfile()}


def _ptx_lines(text, *prefixes):
    import re
    out = []
    for line in text.splitlines():
        s = re.sub(r"^@!?%p\w+\s+", "", line.strip())
        if s.startswith(prefixes):
            out.append(s)
    return out


def _sass():
    return {(r["name"], r["which"]): r for r in jsonl("sass.jsonl")}


def _warps(name):
    import re
    return int(re.search(r'"ttg.num-warps" = (\d+)', (HERE / "orig" / (name + ".ttgir")).read_text()).group(1))


def _time_class(b):
    """Round by round (each side's three medians are sorted): slower / faster only when all three agree."""
    rs = [p / o for o, p in zip(b["orig_ms"], b["patched_ms"])]
    return "slower" if min(rs) > 1.02 else "faster" if max(rs) < 0.98 else "undecided"


def test_the_benchs_noise_is_absolute():
    # the three medians of one kernel spread by up to 0.75 us whatever its length (5 to 76 us):
    # more than 2 % of every kernel under 37 us, more than 10 % of the 5-7 us ones
    spreads = [(b[k][2] - b[k][0], b[k][1]) for b in jsonl("bench.jsonl") for k in ("orig_ms", "patched_ms")]
    assert max(s for s, _ in spreads) < 0.00076
    assert max(s for s, t in spreads if t > 0.040) > 0.0006   # as wide on the longest kernels
    assert min(t for _, t in spreads) < 0.0051 and max(t for _, t in spreads) > 0.075


def test_times_round_by_round():
    bench = jsonl("bench.jsonl")
    cls = {b["name"]: _time_class(b) for b in bench}
    counts = [sum(1 for c in cls.values() if c == k) for k in ("faster", "undecided", "slower")]
    assert counts == [16, 11, 11]
    median_slower = [b["name"] for b in bench if b["ratio"] > 1.02]
    assert len(median_slower) == 13
    # 11 of the 13 are slower in every round; the other 2 overlap the original's rounds
    assert sum(cls[n] == "slower" for n in median_slower) == 11
    assert all(cls[n] in ("slower", "undecided") for n in median_slower)


def test_sass_is_what_the_gpu_ran():
    # ptxas 13.0 here picks the register count Nsight Compute measured on the H200 (at least 16 there)
    # for all 76 kernels, and the global loads and stores the PTX has
    sass, isa = _sass(), _isa()
    ncu_regs = [float(x.replace(",", "")) for x in _ncu_column("launch__registers_per_thread")]
    assert len(sass) == 76
    for r in jsonl("once.jsonl"):
        for k, which in ((0, "orig"), (1, "patched")):
            assert max(16, sass[(r["name"], which)]["registers"]) == ncu_regs[2 * r["launch_index"] + k], r["name"]
            ptx = isa["%s.%s.ptx" % (r["name"], which)]
            c = sass[(r["name"], which)]["classes"]
            assert c.get("LDG", 0) == len(_ptx_lines(ptx, "ld.global")) > 0
            assert c.get("STG", 0) == len(_ptx_lines(ptx, "st.global")) > 0


def _ncu_column(metric):
    rows = list(csv.reader(line for line in (HERE / "ncu-0.csv").read_text().splitlines() if not line.startswith("==")))
    i = rows[0].index(metric)
    return [r[i] for r in rows[2:]]


def test_global_memory_code_is_unchanged():
    # the layout changes only shared-memory code: every pair's global loads and stores are the same PTX text
    isa = _isa()
    for name, target, _, _ in entries():
        if target == "sm90":
            o, p = (_ptx_lines(isa["%s.%s.ptx" % (name, w)], "ld.global", "st.global") for w in ("orig", "patched"))
            assert o == p and o, name


def test_causes_of_the_slower_suggestions():
    bench = {b["name"]: b for b in jsonl("bench.jsonl")}
    sass, isa, rows = _sass(), _isa(), ncu_rows()
    once = {r["name"]: r["launch_index"] for r in jsonl("once.jsonl")}

    def shared_instrs(name, which):
        return len(_ptx_lines(isa["%s.%s.ptx" % (name, which)], "ld.shared", "st.shared", "ldmatrix", "stmatrix"))

    def wavefronts(name, k):
        r = rows[2 * once[name] + k]
        return (r["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] +
                r["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"])

    slower = sorted(n for n, b in bench.items() if _time_class(b) == "slower")
    faster = sorted(n for n, b in bench.items() if _time_class(b) == "faster")
    o = {n: sass[(n, "orig")] for n in bench}
    p = {n: sass[(n, "patched")] for n in bench}

    # 1. ptxas serialised the global loads: the patched warp waits for 8 or 9 more round trips to memory
    rounds_up = [n for n in slower if p[n]["ldg_rounds"] > o[n]["ldg_rounds"]]
    assert len(rounds_up) == 2
    for n in rounds_up:
        assert p[n]["ldg_rounds"] >= o[n]["ldg_rounds"] + 8
        # either ptxas chose far fewer registers (fewer loads in flight), or the order in which Triton
        # wrote the new layout's shared stores is what did it: in register order ptxas keeps the rounds
        assert p[n]["registers"] * 2 < o[n]["registers"] or p[n]["ldg_rounds_regorder"] <= o[n]["ldg_rounds"] + 1

    # 2. narrower shared accesses, more shared instructions, one warp per CTA: a longer issue chain
    more_instrs = [n for n in slower if shared_instrs(n, "patched") > shared_instrs(n, "orig")]
    assert len(more_instrs) == 2 and not set(more_instrs) & set(rounds_up)
    for n in more_instrs:
        assert _warps(n) == 1 and p[n]["static_cycles"] > o[n]["static_cycles"] + 100

    # 3. the rest: nothing in the kernel's code is worse: same global code, same load rounds, no more
    #    shared instructions, no longer static schedule, fewer measured wavefronts
    rest = [n for n in slower if n not in rounds_up and n not in more_instrs]
    assert len(rest) == 7
    for n in rest:
        assert p[n]["ldg_rounds"] == o[n]["ldg_rounds"]
        assert p[n]["static_cycles"] <= o[n]["static_cycles"]
        assert shared_instrs(n, "patched") <= shared_instrs(n, "orig")
        assert wavefronts(n, 1) < wavefronts(n, 0)

    # neither model-visible cause separates slower from faster: the faster ones include as many
    # suggestions with more shared instructions (4: 22 to 36 % faster among them) and with more
    # load rounds (2) as the slower ones
    assert sum(shared_instrs(n, "patched") > shared_instrs(n, "orig") for n in faster) == 4
    assert sum(p[n]["ldg_rounds"] > o[n]["ldg_rounds"] for n in faster) == 2
    assert min(bench[n]["ratio"] for n in faster if shared_instrs(n, "patched") > shared_instrs(n, "orig")) < 0.65


def test_no_weighting_of_the_model_quantities_predicts_the_time():
    # sign of (wavefronts + a * shared instructions + b * address ops), patched minus original, a and b
    # from 0 to 64 in steps of 1/2, against the sign of the time on the 27 pairs decided round by round
    bench = {b["name"]: b for b in jsonl("bench.jsonl")}
    isa, rows = _isa(), ncu_rows()
    once = {r["name"]: r["launch_index"] for r in jsonl("once.jsonl")}
    mem = ("ld.", "st.", "ldmatrix", "stmatrix", "bar.", "ret", "mov.u32", "cvta")
    pairs = []
    for n, b in bench.items():
        c = _time_class(b)
        if c == "undecided":
            continue
        w = _warps(n)
        d = []
        for which in ("orig", "patched"):
            text = isa["%s.%s.ptx" % (n, which)]
            ops = [s for s in _ptx_lines(text, "") if s and s[0].isalpha() and not s.endswith(":")
                   and not s.startswith((".", "//"))]
            d.append((w * sum(s.startswith(("ld.shared", "st.shared", "ldmatrix", "stmatrix")) for s in ops),
                      w * sum(not s.startswith(mem) for s in ops)))
        o, p = rows[2 * once[n]], rows[2 * once[n] + 1]
        dwf = sum(p["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % s] -
                  o["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % s] for s in ("ld", "st")) / 264
        pairs.append((dwf, d[1][0] - d[0][0], d[1][1] - d[0][1], 1 if c == "slower" else -1))
    assert len(pairs) == 27
    right = lambda a, b: sum((dwf + a * ds + b * da) * sign > 0 for dwf, ds, da, sign in pairs)  # noqa: E731
    assert right(0, 0) == 16
    assert max(right(i / 2, j / 2) for i in range(129) for j in range(129)) == 17


def test_the_gpus_own_sass_agrees_on_the_originals():
    # tests/fixtures/gluon/probe/sass.tar.xz: cuobjdump of what the ptxas Triton 3.6 ships made on the GPU
    # machine of every launched Gluon kernel, the originals here among them.  Decoded as sass_schedule.py
    # decodes ptxas 13.0's cubins: the same instruction classes and the same global-load rounds on all 38
    import re
    import sys
    import tarfile
    sys.path.insert(0, str(HERE))
    from sass_schedule import decode, schedule
    gpu = {}
    with tarfile.open(HERE.parents[1] / "gluon" / "probe" / "sass.tar.xz") as t:
        for m in t.getmembers():
            if m.name.endswith(".sass"):
                gpu[Path(m.name).name[:-5]] = t.extractfile(m).read().decode()
    sass = _sass()
    names = [n for n, t, _, _ in entries() if t == "sm90"]
    assert len(names) == 38
    for n in names:
        lines = gpu[n].splitlines()
        words = []
        for i, line in enumerate(lines):
            m = re.search(r"/\*[0-9a-f]{4,}\*/.*?/\* (0x[0-9a-f]{16}) \*/", line)
            if m:
                hi = re.search(r"/\* (0x[0-9a-f]{16}) \*/", lines[i + 1]).group(1)
                words.append(decode(int(m.group(1), 16), int(hi, 16)))
        classes = {}
        for w in words:
            classes[w["cls"]] = classes.get(w["cls"], 0) + 1
        cycles, rounds = schedule(words)
        local = sass[(n, "orig")]
        assert rounds == local["ldg_rounds"], n
        assert {k: v for k, v in classes.items() if k != "ALU"} == \
            {k: v for k, v in local["classes"].items() if k != "ALU"}, n
        assert abs(cycles - local["static_cycles"]) <= 0.03 * local["static_cycles"], (n, cycles, local)


# ---- the suggestions that moved since the proof, proven again -----------
# reproof/ (device_run.sh with LIST=reproof/list.txt PROOF=reproof, on an
# H200): the six that moved first (RESUGGESTED).  reproof2/ (the same with
# LIST=reproof2/list.txt PROOF=reproof2, on an H200, 2026-12-02): the nine
# the store-order tie-break moved (REORDERED).  Each original beside today's
# `layout triton --apply` of it, compiled by Triton 3.6.0, the sm_90 pairs
# launched once under Nsight Compute and timed like the others (bench.jsonl:
# three rounds).

REPROOF = HERE / "reproof"
REPROOF2 = HERE / "reproof2"
PROOFS_AGAIN = pytest.mark.parametrize("proof, names", [(REPROOF, RESUGGESTED), (REPROOF2, REORDERED)],
                                       ids=["reproof", "reproof2"])


def _reproof_entries(proof=REPROOF):
    return [line.split() for line in (proof / "list.txt").read_text().splitlines() if line.strip()]


@PROOFS_AGAIN
def test_the_moved_suggestions_are_todays(proof, names):
    es = _reproof_entries(proof)
    assert {n for n, _, _, _ in es} == names
    tool = os.environ.get("LAYOUT_TOOL", "layout")
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        for name, _, orig, patched in es:
            out = Path(d) / (name + ".ttgir")
            p = subprocess.run([tool, "triton", "--apply", str(out), str(proof / orig)], capture_output=True, text=True)
            assert p.returncode in (0, 1) and " 1 suggestion applied" in p.stdout + p.stderr, (name, p.stdout, p.stderr)
            assert out.read_text() == (proof / patched).read_text(), name


@PROOFS_AGAIN
def test_the_moved_suggestions_compile_and_equal_the_model(proof, names):
    import tarfile
    import liblayout.triton as lt
    from test_triton_corpus import isa_counts
    recs = {(r["name"], r["which"]): r for r in
            (json.loads(x) for x in (proof / "compile.jsonl").read_text().splitlines() if x.strip())}
    with tarfile.open(proof / "isa.tar.xz") as t:
        isa = {m.name: t.extractfile(m).read().decode() for m in t.getmembers() if m.isfile()}
    assert len(recs) == 2 * len(names)
    for name, tgt, _, patched in _reproof_entries(proof):
        assert recs[(name, "orig")]["compiled"] and recs[(name, "patched")]["compiled"], name
        limit = {"sm90": 232448, "gfx942": 65536, "gfx950": 163840}[tgt]
        assert recs[(name, "patched")]["shared"] <= limit
        # the patched kernel's ISA is what the model reports for it
        kind = "ptx" if tgt == "sm90" else "amdgcn"
        rep = lt.report((proof / patched).read_text(), suggest=False)
        assert isa_counts(isa["%s.patched.%s" % (name, kind)], kind) == \
            collections.Counter({k: v for k, v in rep["per_warp_total"].items() if v}), name
    assert (proof / "gpu.txt").read_text().startswith("NVIDIA H200")


def _ncu_sums(proof):
    rows = list(csv.reader(x for x in (proof / "ncu-0.csv").read_text().splitlines() if not x.startswith("==")))
    head = rows[0]
    return [{m: float(r[head.index(m)].replace(",", "")) for m in head if m.endswith(".sum")} for r in rows[2:]]


def _jsonl(path):
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def test_the_moved_suggestions_measured():
    once = _jsonl(REPROOF / "once.jsonl")
    bench = _jsonl(REPROOF / "bench.jsonl")
    rows = _ncu_sums(REPROOF)
    sm90 = [n for n, t, _, _ in _reproof_entries() if t == "sm90"]
    assert sorted(r["name"] for r in once) == sorted(sm90) and len(rows) == 2 * len(once) == 6
    for r in once:
        assert r["outputs_equal"], r["name"]
        o, p = rows[2 * r["launch_index"]], rows[2 * r["launch_index"] + 1]
        for side in ("ld", "st"):
            bc = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum" % side
            wf = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % side
            assert p[bc] == 0 and p[wf] <= o[wf], (r["name"], side)
        assert o["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] > 0   # each original conflicted
    # no pair is slower in every round; g191 (the "below" one) is faster in every round
    cls = {b["name"]: _time_class(b) for b in bench}
    assert len(bench) == 3 and all(b["outputs_equal"] for b in bench)
    assert "slower" not in cls.values(), cls
    assert cls["g191_sm90_fp32_16x32_w8_blocked_sharedlinear"] == "faster"


BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum"
WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum"


def test_the_reordered_suggestions_measured():
    # reproof2/: the nine store-order suggestions, each original beside today's suggestion
    import liblayout.triton as lt
    once = _jsonl(REPROOF2 / "once.jsonl")
    rows = _ncu_sums(REPROOF2)
    assert sorted(r["name"] for r in once) == sorted(REORDERED) and len(rows) == 2 * len(once) == 18
    conflicted = {}
    for r in once:
        name = r["name"]
        assert r["outputs_equal"], name
        o, p = rows[2 * r["launch_index"]], rows[2 * r["launch_index"] + 1]
        rep = lt.report((REPROOF2 / "patched" / (name + ".ttgir")).read_text(), suggest=False)
        for side in ("ld", "st"):
            assert o[BC % side] > 0, (name, side)           # each original conflicted, loads and stores
            assert p[WF % side] < o[WF % side], (name, side)
            # what the patched side moved without its conflicts is what the model prices: 264 CTAs x the
            # op's CTA wavefronts (the model says 0 conflicts for every one)
            ops = [op for op in rep["ops"] if op.get("modelled") and op["direction"] == ("read" if side == "ld" else
                                                                                            "write")]
            assert len(ops) == 1 and ops[0]["cost"]["cta_bank_conflicts"] == 0, name
            assert p[WF % side] - p[BC % side] == 264 * ops[0]["cost"]["cta_wavefronts"], (name, side)
        if p[BC % "ld"] or p[BC % "st"]:
            conflicted[name[:4]] = (int(p[BC % "ld"]), int(p[BC % "st"]))
    # 0 conflicts after on 7 of the 9.  g015 and g084 (fp32, 64 KiB of shared memory, 128 elements a
    # thread) count a few hundred over 264 CTAs, under 0.75 % of their wavefronts (the originals: 75 % and
    # more).  Not from the layout's addresses, which are the same in every CTA and every launch: on these
    # two kernels the counters do not repeat (their originals' counts moved between the first proof and
    # this run, where the other seven originals repeat to the unit), and the proven layouts they replace
    # counted as many there (g015 1,124 / 778, g084 1,241 / 198).  The cause is not established.
    assert conflicted == {"g015": (661, 656), "g084": (985, 375)}, conflicted
    first = {r["name"]: (ncu_rows()[2 * r["launch_index"]], ncu_rows()[2 * r["launch_index"] + 1])
             for r in jsonl("once.jsonl")}
    for r in once:
        o, p = rows[2 * r["launch_index"]], rows[2 * r["launch_index"] + 1]
        then = [first[r["name"]][0][BC % s] for s in ("ld", "st")]
        now = [o[BC % s] for s in ("ld", "st")]
        assert (then != now) == (r["name"][:4] in conflicted), (r["name"], then, now)
        if r["name"][:4] in conflicted:
            assert sum(p[BC % s] for s in ("ld", "st")) < 0.0075 * sum(p[WF % s] for s in ("ld", "st"))
            assert all(first[r["name"]][1][BC % s] > 0 for s in ("ld", "st"))


def test_the_reordered_suggestions_timed():
    # bench.jsonl, round by round as test_times_round_by_round: 5 faster, 1 undecided, 3 slower.  The
    # bench runs orig and patched on different buffers with all 264 CTAs on one tile, which the first
    # proof's controls (settle/, own_tiles/) showed moves these kernels by more than 2 % on its own;
    # test_the_reordered_suggestions_settled has the controls
    bench = _jsonl(REPROOF2 / "bench.jsonl")
    assert len(bench) == 9 and all(b["outputs_equal"] for b in bench)
    cls = {b["name"][:4]: _time_class(b) for b in bench}
    assert cls == {"g005": "undecided", "g015": "slower", "g043": "faster", "g054": "slower", "g064": "faster",
                   "g079": "slower", "g084": "faster", "g124": "faster", "g201": "faster"}, cls


def _reproof2_settle(sub):
    runs = {r["name"][:4]: r for r in _jsonl(REPROOF2 / sub / "settle.jsonl")}
    assert len(runs) == 9
    for r in runs.values():
        assert r["outputs_equal"] and "error" not in r and r["rounds"] == 7 and r["grid_ctas"] == 0, r["name"]
        assert r["own_tiles"] == sub.startswith("own") and all(len(v) == 7 for v in r["ms"].values())
    return runs


def test_the_reordered_suggestions_settled():
    # reproof2/settle_run.sh, in the same call as the bench: the controls of settle/ and own_tiles/
    # (_settle_class: beyond orig against itself in every round and by more than 2 % of the median)
    import statistics
    own, one, vs_old = (_reproof2_settle(d) for d in ("own", "one", "own_vs_old"))
    assert {r["name"] for r in vs_old.values()} == REORDERED
    moved = lambda runs: {k: _settle_class(r) for k, r in runs.items() if _settle_class(r) != "noise"}  # noqa: E731
    ratio = lambda r: statistics.median(r["ms"]["patched"]) / statistics.median(r["ms"]["orig"])  # noqa: E731
    # each CTA on its own tile (a real kernel's pattern): none slower, g054 and g064 faster
    assert moved(own) == {"g054": "faster", "g064": "faster"}
    # all CTAs on one tile, orig and patched on the same buffers: g054 (+8 %) and g079 (+6 %) slower
    assert moved(one) == {"g043": "faster", "g054": "slower", "g064": "faster", "g079": "slower",
                          "g084": "faster", "g124": "faster"}
    assert 1.07 < ratio(one["g054"]) < 1.09 and 1.05 < ratio(one["g079"]) < 1.07
    # today's suggestion against the proven layout it replaced (its "orig" is ../patched/), a tile per CTA:
    # never slower; g084 16 % and g079 12 % faster
    assert moved(vs_old) == {"g079": "faster", "g084": "faster"}
    assert ratio(vs_old["g084"]) < 0.85 and ratio(vs_old["g079"]) < 0.89

    # Why the bench's three slower pairs are slower, from the GPU's SASS (gpu-sass.jsonl, one/'s cubins)
    gpu = {(r["name"][:4], r["which"]): r for r in _jsonl(REPROOF2 / "gpu-sass.jsonl")}
    first = {(r["name"][:4], r["which"]): r for r in _jsonl(SETTLE / "gpu-sass.jsonl")}
    rounds = lambda k: (gpu[(k, "orig")]["ldg_rounds"], gpu[(k, "patched")]["ldg_rounds"])  # noqa: E731
    shared = lambda k, w: sum(v for c, v in gpu[(k, w)]["classes"].items()  # noqa: E731
                              if c in ("LDS", "STS", "LDSM", "STSM"))
    # g015: ptxas still serialises the global loads, 3 to 8 rounds with 40 registers instead of 128 (the
    # proven layout: 11 rounds with 54).  Slower in every round of one/ and own/ (+5 and +7 % by median),
    # but inside the noise of orig against itself in some round of each; against the proven layout
    # inside the noise
    assert rounds("g015") == (3, 8) and first[("g015", "patched")]["ldg_rounds"] == 11
    assert one["g015"]["registers"] == [128, 40]
    assert min(s / o for s, o in zip(one["g015"]["ms"]["patched"], one["g015"]["ms"]["orig"])) > 1.0
    assert min(s / o for s, o in zip(own["g015"]["ms"]["patched"], own["g015"]["ms"]["orig"])) > 1.0
    assert _settle_class(one["g015"]) == _settle_class(own["g015"]) == _settle_class(vs_old["g015"]) == "noise"
    # g054, g079: nothing in the code worse (the same load rounds, no more shared instructions); slower
    # only with every CTA on one tile, as the first proof's g029, g054 and g201 (the global-store queue)
    for k in ("g054", "g079"):
        assert rounds(k)[0] == rounds(k)[1] and shared(k, "patched") <= shared(k, "orig")
        assert _settle_class(own[k]) != "slower"
    # g084, the one slowdown own_tiles/ left: its stores now in register order, ptxas keeps the original's
    # 8 load rounds (the proven swizzle: 17) and the pair is no longer slower anywhere
    assert rounds("g084") == (8, 8) and first[("g084", "patched")]["ldg_rounds"] == 17
    assert (_settle_class(own["g084"]), _settle_class(one["g084"])) == ("noise", "faster")
    # g043 (one warp, 8 us a launch with a tile per CTA): 11 % slower by median there, but 4 % faster in
    # one round, so inside the noise; faster in the bench and on one tile (26 %).  The GPU's ptxas waits
    # for 4 load rounds instead of 3, as it did for the proven layout; not a slowdown this record can tell
    # from the noise
    assert rounds("g043") == (3, 4) and first[("g043", "patched")]["ldg_rounds"] == 4
    assert _settle_class(own["g043"]) == "noise" and ratio(own["g043"]) > 1.1
    assert min(s / o for s, o in zip(own["g043"]["ms"]["patched"], own["g043"]["ms"]["orig"])) < 0.97
    assert ratio(one["g043"]) < 0.75


# ---- settle_run.sh: the controls the bench lacked ------------------------
# settle/ (settle_run.sh, once, on an H200): the 13 pairs bench.jsonl timed more
# than 2 % slower, the 6 it timed fastest and every one-warp pair (21 kernels).
# settle.jsonl: orig, patched on orig's buffers, orig on other buffers and orig
# again on its own, 7 rounds of do_bench medians, the order alternating, 264
# CTAs; grid1.jsonl: the same with one CTA, 5 rounds; ncu.csv: one launch of
# each side (rows in once.jsonl's order) with Nsight Compute's stall reasons;
# gpu-sass.jsonl: sass_schedule.py --cubins of the cubins the GPU ran.

SETTLE = HERE / "settle"


def _settle(name):
    return {r["name"]: r for r in (json.loads(x) for x in (SETTLE / name).read_text().splitlines() if x.strip())}


def _settle_class(r, side="patched"):
    """side against orig on orig's buffers, round by round, beside the noise of orig against orig_again:
    slower (faster) only when every round's ratio is above (below) every round's orig_again / orig and the
    medians differ by more than 2 %."""
    import statistics
    ms = r["ms"]
    rs = [s / o for s, o in zip(ms[side], ms["orig"])]
    noise = [a / o for a, o in zip(ms["orig_again"], ms["orig"])]
    m = statistics.median(ms[side]) / statistics.median(ms["orig"])
    if min(rs) > max(noise) and m > 1.02:
        return "slower"
    if max(rs) < min(noise) and m < 0.98:
        return "faster"
    return "noise"


def _settle_stalls():
    rows = list(csv.reader(x for x in (SETTLE / "ncu.csv").read_text().splitlines() if not x.startswith("==")))
    head, rows = rows[0], rows[2:]
    once = [json.loads(x) for x in (SETTLE / "once.jsonl").read_text().splitlines() if x.strip()]
    assert len(rows) == 2 * len(once)
    pre, post = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"
    out = {}
    for r in once:
        sides = []
        for row in rows[2 * r["launch_index"]:2 * r["launch_index"] + 2]:
            v = {m: float(row[i].replace(",", "")) for i, m in enumerate(head) if m.startswith(pre) or
                 m in ("smsp__inst_executed.sum", "gpu__time_duration.sum")}
            inst = v["smsp__inst_executed.sum"]
            # warp-cycles stalled for each reason: stalled warps per issue times the instructions issued
            sides.append({m[len(pre):-len(post)]: v[m] * inst for m in v if m.startswith(pre)})
        out[r["name"]] = sides
    return out


def test_settle_runs_are_complete():
    full, one = _settle("settle.jsonl"), _settle("grid1.jsonl")
    bench = {b["name"]: b for b in jsonl("bench.jsonl")}
    slower = {n for n, b in bench.items() if b["ratio"] > 1.02}
    one_warp = {n for n in bench if _warps(n) == 1}
    fastest = set(sorted(bench, key=lambda n: bench[n]["ratio"])[:6])
    assert set(full) == set(one) == slower | fastest | one_warp and len(full) == 21
    for runs, rounds, ctas in ((full, 7, 0), (one, 5, 1)):
        for r in runs.values():
            assert r["outputs_equal"] and "error" not in r and r["rounds"] == rounds and r["grid_ctas"] == ctas
            assert all(len(v) == rounds for v in r["ms"].values())
    assert (SETTLE / "gpu.txt").read_text().startswith("NVIDIA H200")


def test_settle_buffer_placement_moves_the_original():
    # the same original kernel on other buffers (the same values elsewhere in memory) is slower or
    # faster than on its own beyond the noise on 5 of the 21, by -19 to +6 %: every CTA of these kernels
    # reads and writes one tile, so where that tile lies matters more than 2 %.  bench.jsonl ran the
    # patched kernel on buffers of its own: placement was in every one of its ratios
    import statistics
    full = _settle("settle.jsonl")
    moved = {n: statistics.median(r["ms"]["orig_other_buffers"]) / statistics.median(r["ms"]["orig"])
             for n, r in full.items() if _settle_class(r, "orig_other_buffers") != "noise"}
    assert sorted(k[:4] for k in moved) == ["g079", "g084", "g150", "g195", "g201"]
    assert 0.80 < min(moved.values()) < 0.82 and 1.05 < max(moved.values()) < 1.07


def test_settle_which_slower_suggestions_are_slower():
    # on the same buffers, 4 of bench's 13 slower pairs are slower than orig against itself in every
    # round (g015 +18 %, g029 +9 %, g054 +4 %, g084 +7 %), 1 is faster (g079) and 8 are inside the noise;
    # among the 6 controls bench timed fastest, g201 (15 % faster there) is slower on the same buffers
    # (+10 %), its original 19 % faster on the other buffers
    import statistics
    full = _settle("settle.jsonl")
    bench = {b["name"]: b for b in jsonl("bench.jsonl")}
    cls = {n: _settle_class(r) for n, r in full.items()}
    ratio = {n: statistics.median(r["ms"]["patched"]) / statistics.median(r["ms"]["orig"]) for n, r in full.items()}
    was_slower = [n for n in full if bench[n]["ratio"] > 1.02]
    assert len(was_slower) == 13
    slower = sorted(n[:4] for n in was_slower if cls[n] == "slower")
    assert slower == ["g015", "g029", "g054", "g084"]
    assert sorted(n[:4] for n in was_slower if cls[n] == "faster") == ["g079"]
    assert sum(cls[n] == "noise" for n in was_slower) == 8
    assert sorted(n[:4] for n in full if cls[n] == "slower" and n not in was_slower) == ["g201"]
    got = {n[:4]: round(ratio[n], 2) for n in full if cls[n] == "slower"}
    assert got == {"g015": 1.18, "g029": 1.09, "g054": 1.04, "g084": 1.07, "g201": 1.1}


def test_settle_causes_of_the_five_slower():
    # The GPU's own SASS (gpu-sass.jsonl) is what ptxas 13.0 made here (sass.jsonl): the same instruction
    # classes on all 42, the same global-load rounds on 41.  Two causes, neither a model quantity:
    full, one = _settle("settle.jsonl"), _settle("grid1.jsonl")
    gpu = {(r["name"], r["which"]): r for r in (json.loads(x) for x in (SETTLE / "gpu-sass.jsonl").read_text()
                                                .splitlines() if x.strip())}
    here = _sass()
    assert len(gpu) == 42 and all(gpu[k]["classes"] == here[k]["classes"] for k in gpu)
    assert sum(gpu[k]["ldg_rounds"] == here[k]["ldg_rounds"] for k in gpu) == 41
    stalls = _settle_stalls()
    by = {n[:4]: n for n in full}
    def shared(n, w):
        return sum(v for k, v in gpu[(n, w)]["classes"].items() if k in ("LDS", "STS", "LDSM", "STSM"))
    rounds = lambda n, w: gpu[(n, w)]["ldg_rounds"]  # noqa: E731

    # 1. ptxas serialised the global loads (g015: 3 to 11 rounds, 128 to 54 registers; g084: 8 to 17).
    #    g084 is slower with one CTA too (+22 %); g015 only when the SMs are full, where its warps stall
    #    3 times as long on the short scoreboard (a shared store not yet done with the registers the next
    #    batch of loads needs), with 30 % fewer instructions
    for k in ("g015", "g084"):
        assert rounds(by[k], "patched") >= rounds(by[k], "orig") + 8
    assert _settle_class(one[by["g084"]]) == "slower" and _settle_class(one[by["g015"]]) == "noise"
    o, p = stalls[by["g015"]]
    assert p["short_scoreboard"] > 2.9 * o["short_scoreboard"]

    # 2. the memory system, with nothing in the code worse: the same load rounds, no more shared
    #    instructions; alone on the GPU (one CTA) not slower, g029 and g201 faster by 32 and 19 %.
    #    With 264 CTAs writing one tile, their warps wait longer on the global-store queue (lg_throttle)
    for k in ("g029", "g054", "g201"):
        n = by[k]
        assert rounds(n, "patched") == rounds(n, "orig") and shared(n, "patched") <= shared(n, "orig")
        assert _settle_class(one[n]) != "slower"
        o, p = stalls[n]
        assert p["lg_throttle"] > 1.1 * o["lg_throttle"]
    assert _settle_class(one[by["g029"]]) == _settle_class(one[by["g201"]]) == "faster"


def test_settle_one_warp_pairs_are_not_slower():
    # the second row of test_causes_of_the_slower_suggestions (narrower shared accesses cost one warp
    # more than the wavefronts save: g094, g195) does not hold up: no one-warp pair is slower than the
    # noise on the same buffers, with 264 CTAs or one; g094 and g195 (4 and 2 times the shared
    # instructions) are 12 and 14 % faster by median.  Nothing for the model to weigh by warps
    import statistics
    full, one = _settle("settle.jsonl"), _settle("grid1.jsonl")
    one_warp = [n for n in full if _warps(n) == 1]
    assert sorted(n[:4] for n in one_warp) == ["g043", "g094", "g106", "g181", "g195"]
    for n in one_warp:
        assert _settle_class(full[n]) != "slower" and _settle_class(one[n]) != "slower", n
    for n in one_warp:
        if n[:4] in ("g094", "g195"):
            r = full[n]["ms"]
            assert statistics.median(r["patched"]) < 0.89 * statistics.median(r["orig"])


# ---- own_tiles_run.sh: each CTA on its own tile ----------------------------
# own_tiles/ (own_tiles_run.sh, once, on an H200): the 38 sm_90 pairs timed as
# settle.jsonl times them (7 rounds, the order alternating, orig against itself
# for the noise), each kernel first changed by prove.py's own_tiles() so that
# CTA i reads and writes tile i (pointers moved by program_id * M * N), a real
# kernel's pattern; the fixture kernels have all 264 CTAs on one tile.

OWN = HERE / "own_tiles"


def test_own_tiles_runs_are_complete():
    runs = [json.loads(x) for x in (OWN / "settle.jsonl").read_text().splitlines() if x.strip()]
    assert sorted(r["name"] for r in runs) == sorted(n for n, t, _, _ in entries() if t == "sm90")
    for r in runs:
        assert r["own_tiles"] and r["outputs_equal"] and "error" not in r and r["rounds"] == 7, r["name"]
        assert all(len(v) == 7 for v in r["ms"].values())
    assert (OWN / "gpu.txt").read_text().startswith("NVIDIA H200")


def test_own_tiles_leave_the_shared_memory_code_alone(tmp_path):
    # own_tiles() adds the program id to the two pointers and touches nothing else: read by the model,
    # every original and patched kernel reports the same shared-memory ops, instructions and costs
    import sys
    import liblayout.triton as lt
    sys.path.insert(0, str(HERE))
    from prove import own_tiles
    strip = lambda rep: [{k: v for k, v in op.items() if k not in ("line", "loc")} for op in rep["ops"]]  # noqa: E731
    n = 0
    for name, t, orig, patched in entries():
        if t != "sm90":
            continue
        for which, path in (("orig", orig), ("patched", patched)):
            moved = own_tiles(str(HERE / path), str(tmp_path / (name + "." + which + ".ttgir")))
            text = Path(moved).read_text()
            assert text.count("tt.get_program_id x") == 1 and "tt.splat %x_ptr_cta" in text and "tt.splat %y_ptr_cta" in text
            a, b = lt.report((HERE / path).read_text(), suggest=False), lt.report(text, suggest=False)
            assert strip(a) == strip(b) and a["per_warp_total"] == b["per_warp_total"], (name, which)
            n += 1
    assert n == 76


def test_own_tiles_only_g084_is_slower():
    # With each CTA on its own tile, 1 of the 38 suggestions is slower than the original beyond the
    # noise (g084, +17 %), 7 are faster (g029 35 %, g034 27 %, g075 19 % ...) and 30 inside the noise;
    # buffer placement no longer moves any original (38 of 38 inside the noise, 5 of 21 on one tile).
    # Of the four settle.jsonl found slower on one tile, g029 is now 35 % faster and g015 and g054 are
    # inside the noise (as is the control g201, 8 % faster by median): the global-store queue of 264
    # CTAs on one tile's lines was the cause.  g084 stays: ptxas's global-load rounds (8 -> 17,
    # test_settle_causes_of_the_five_slower), which the shared-memory model does not weigh
    import statistics
    runs = {r["name"][:4]: r for r in (json.loads(x) for x in (OWN / "settle.jsonl").read_text().splitlines()
                                       if x.strip())}
    cls = {k: _settle_class(r) for k, r in runs.items()}
    ratio = {k: statistics.median(r["ms"]["patched"]) / statistics.median(r["ms"]["orig"]) for k, r in runs.items()}
    assert sorted(k for k, c in cls.items() if c == "slower") == ["g084"]
    assert sorted(k for k, c in cls.items() if c == "faster") == ["g029", "g034", "g038", "g075", "g150", "g175",
                                                                   "g214"]
    assert sum(c == "noise" for c in cls.values()) == 30
    assert 1.15 < ratio["g084"] < 1.2 and ratio["g029"] < 0.66
    assert all(_settle_class(r, "orig_other_buffers") == "noise" for r in runs.values())
    one_tile = {r["name"][:4]: _settle_class(r) for r in _settle("settle.jsonl").values()}
    assert sorted(k for k, c in one_tile.items() if c == "slower") == ["g015", "g029", "g054", "g084", "g201"]
    assert [k for k in ("g015", "g029", "g054", "g201") if cls[k] == "slower"] == []


def test_g084_is_slower_by_its_store_order():
    # alt/ (alt/run.sh, once, on an H200): g084's original against the proven suggestion (swizzled,
    # vec 8, maxPhase 4) and against a layout of the same model cost whose stores Triton emits in
    # register order (padded_shared [128:+8], 4 KiB more): 9 rounds, orig against itself as the noise,
    # with a tile per CTA and with every CTA on one tile; the cubins read by sass_schedule.py --cubins.
    # The swizzle is slower both ways (+21 %, +5 %) and ptxas waits for 18 global-load rounds instead
    # of 8; the padded layout is not slower (inside the noise; 6.5 % faster on one tile) at 9 rounds.
    # What costs g084 its time is the order Triton emits the swizzled stores in (grouped by XOR phase),
    # through ptxas's batching of the loads, not the shared-memory traffic the model weighs: both
    # layouts are conflict-free at the same wavefronts
    import statistics
    import liblayout.triton as lt
    alt = HERE / "alt"
    swz, pad = "g084_sm90_fp32_128x128_w4_nvmmadistributed_swizzled", "g084_sm90_fp32_128x128_w4_padded_alt"
    for d in ("own", "one"):
        runs = {r["name"]: r for r in (json.loads(x) for x in (alt / d / "settle.jsonl").read_text().splitlines()
                                       if x.strip())}
        assert set(runs) == {swz, pad}
        assert all(r["outputs_equal"] and r["rounds"] == 9 and r["own_tiles"] == (d == "own") for r in runs.values())
        ratio = {n: statistics.median(r["ms"]["patched"]) / statistics.median(r["ms"]["orig"]) for n, r in runs.items()}
        assert _settle_class(runs[swz]) == "slower" and ratio[swz] > 1.04, (d, ratio)
        assert _settle_class(runs[pad]) != "slower" and ratio[pad] < 1.0, (d, ratio)
    sass = {(r["name"], r["which"]): r for r in (json.loads(x) for x in (alt / "gpu-sass.jsonl").read_text()
                                                 .splitlines() if x.strip())}
    assert [sass[(n, w)]["ldg_rounds"] for n in (swz, pad) for w in ("orig", "patched")] == [8, 18, 8, 9]
    assert sass[(swz, "patched")]["classes"] == sass[(pad, "patched")]["classes"]
    cost = {}
    for name, path in ((swz, HERE / "patched" / (swz + ".ttgir")), (pad, alt / "g084_padded.ttgir")):
        rep = lt.report(path.read_text(), suggest=False)
        cost[name] = [(op["cost"]["wavefronts"], op["cost"]["bank_conflicts"], op["instructions"]) for op in rep["ops"]]
    assert cost[swz] == cost[pad] and all(c[1] == 0 for c in cost[swz])
    assert (alt / "gpu.txt").read_text().startswith("NVIDIA H200")


def test_store_order_is_reported_and_kept_among_equal_costs(tool):
    # alt/ (the record above): Triton emits the swizzled (vec 8, maxPhase 4) layout's stores of g084 grouped
    # by XOR phase, the padded [128:+8] one's in register order (gpu-sass.jsonl: 18 against 9 global-load
    # rounds, the original 8).  The report says which order each writer's stores take, per op, and the
    # search, among candidates of the best cost, prefers one that keeps the current order.
    import liblayout.triton as lt
    name = "g084_sm90_fp32_128x128_w4_nvmmadistributed_swizzled"

    def order(path):
        s = lt.report(path.read_text())["suggestions"]
        assert len(s) == 1
        return s[0]

    swz, pad = order(HERE / "patched" / (name + ".ttgir")), order(HERE / "alt" / "g084_padded.ttgir")
    assert [(o["current_in_register_order"]) for o in swz["store_order"]] == [False]
    assert [(o["current_in_register_order"]) for o in pad["store_order"]] == [True]
    orig = order(HERE / "orig" / (name + ".ttgir"))
    # the first candidate of the best cost is the swizzled layout the proof applied (out of register order);
    # an nvmma_shared layout of the same cost and bytes keeps the stores in register order and is suggested
    assert orig["store_order"] == [{"op": 0, "line": 21, "current_in_register_order": True,
                                    "suggested_in_register_order": True, "changes_store_order": False}]
    assert orig["order_kept"] == 1 and orig["store_order_changed"] == 0 and orig["improved"] == 1
    assert orig["cost"] == swz["current_cost"] and orig["bytes"] == swz["current_bytes"], (orig, swz)
    assert orig["attr"] != swz["current"]
    out = subprocess.run([tool, "triton", "--suggest", str(HERE / "orig" / (name + ".ttgir"))],
                         capture_output=True, text=True).stdout
    assert "  stores:    line 21: register order, kept\n" in out, out
    assert "the one that keeps the store order is suggested" in out
    out = subprocess.run([tool, "triton", "--suggest", str(HERE / "patched" / (name + ".ttgir"))],
                         capture_output=True, text=True).stdout
    assert "  stores:    line 21: out of register order, kept\n" in out, out
