"""The instruction stream (``liblayout.triton.stream``, ``layout triton --stream``)
against the ISA Triton 3.6 and LLVM made, on the tuning corpus and on the
frozen held-out set (tests/fixtures/triton/heldout: scored here, never used
to change the model).

The counts of the stream's instructions are the report's (tests/test_triton_stream.c
holds every op to that); what the stream adds is which instructions LLVM's
SILoadStoreOptimizer pairs and how far apart.  The AMDGCN prints each pair
with its two offsets: ``ds_read2st64_b64 v[84:87], v85 offset1:8`` (offsets
in units of the width, times 64 for st64; a missing field is 0).  For every
AMD kernel whose DS mix equals the model (test_triton_corpus.classify) and
whose paired ops the stream lists, the set of (mnemonic, offset1 - offset0)
of the ISA must be the stream's: a pair's two halves ``buffer_offset +
offset`` apart, in those units.  A kernel whose pairs come from an op the
stream does not list one by one (a convert's or a reduction's scratch) is
left out and counted (since the stream lists every modelled op, none is).
"""

from __future__ import annotations

import collections
import functools
import re
from typing import Dict, List, Tuple

import liblayout.triton as lt
import test_triton_corpus as C
import test_triton_heldout as TH

PAIR = re.compile(r"^\s+(ds_(?:read|write)2(?:st64)?_b(?:32|64)|ds_(?:load|store)_2addr(?:_stride64)?_b(?:32|64))\s"
                  r"[^\n]*?(?:offset0:(\d+))?(?:\s+offset1:(\d+))?\s*$", re.M)


def isa_pairs(amdgcn: str) -> collections.Counter:
    """(mnemonic, offset1 - offset0) of every two-address DS instruction."""
    return collections.Counter((m.group(1), int(m.group(3) or 0) - int(m.group(2) or 0))
                               for m in PAIR.finditer(amdgcn))


def _paired(mnemonic: str) -> bool:
    return bool(re.match(r"ds_(read|write)2|ds_(load|store)_2addr", mnemonic))


def stream_pairs(ttgir: str) -> Tuple[collections.Counter, int]:
    """(mnemonic, distance in offset units) of every counted pair of the stream,
    and how many ops with pairs in their counts the stream does not list."""
    st = lt.stream(ttgir)
    rep = lt.report(ttgir, suggest=False)
    out: collections.Counter = collections.Counter()
    unlisted = 0
    for op in st:
        if "not_listed" in op:
            unlisted += any(_paired(k) for k in (rep["ops"][op["op"]].get("instructions") or {}))
            continue
        for e in op["instructions"]:
            if not (e["pair_form"] and e["standing"] and e["partner"] >= 0):
                continue
            p = st[e["partner_op"]]["instructions"][e["partner"]]
            d = abs(p["buffer_offset"] + p["offset"] - e["buffer_offset"] - e["offset"])
            unit = e["bytes"] * (64 if e["pair_form"] == 2 else 1)
            assert d % unit == 0, (e, p)
            out[(e["mnemonic"], d // unit)] += 1
    return out, unlisted


def _score(M, names) -> Tuple[int, int, int, List[tuple]]:
    """(equal, compared, left out: pairs of unlisted ops, the differing kernels)."""
    equal = compared = left = 0
    differ = []
    for n in names:
        if C.target(n).startswith("sm") or M.classify(n) not in TH.EXACT:
            continue
        _, text = M.isa_of(n)
        ip = isa_pairs(text)
        mp, unlisted = stream_pairs(M.files()[n + ".ttgir"])
        if unlisted:
            left += 1
            continue
        if not ip and not mp:
            continue
        compared += 1
        if set(ip) == set(mp):
            equal += 1
        else:
            differ.append((n, sorted(ip), sorted(mp)))
    return equal, compared, left, differ


@functools.lru_cache(maxsize=None)
def corpus_score():
    return _score(C, sorted(C.cases()))


@functools.lru_cache(maxsize=None)
def heldout_score():
    return _score(TH.H, sorted(TH._reports()))


def test_isa_pairs_are_the_streams_on_the_corpus():
    # measured 2026-12-02: 141 of 141 (every kernel with pairs: the stream lists every op that pairs)
    equal, compared, left, differ = corpus_score()
    assert compared >= 141 and equal == compared and left == 0, differ[:5]


def test_isa_pairs_are_the_streams_on_the_heldout_set():
    # measured 2026-12-02, the model unchanged by it: 35 of 35 (none left out)
    equal, compared, left, differ = heldout_score()
    assert compared >= 35 and equal == compared and left == 0, differ[:5]


def test_a_known_pair_across_ops():
    # the corpus's matmul_i8_nt_64x64x32_w4_s2_gfx942 writes its A and B tiles, two local_stores 2048 bytes
    # apart, with `ds_write2st64_b64 v17, v[10:11], v[8:9] offset1:4` (4 x 64 x 8 bytes; the AMDGCN has
    # three: the pipeline's copies of that store pair), and pairs nothing else
    name = "matmul_i8_nt_64x64x32_w4_s2_gfx942"
    assert isa_pairs(C.files()[name + ".amdgcn"]) == collections.Counter({("ds_write2st64_b64", 4): 3})
    st = lt.stream(C.files()[name + ".ttgir"])
    a, b = st[0]["instructions"][0], st[1]["instructions"][0]
    assert (a["mnemonic"], b["mnemonic"]) == ("ds_write2st64_b64", "ds_write2st64_b64")
    assert (a["partner_op"], a["partner"], b["partner_op"], b["partner"]) == (1, 0, 0, 0)
    assert a["standing"] and not b["standing"] and a["passes"] == b["passes"] == ["si-load-store-opt across ops"]
    assert b["buffer_offset"] + b["offset"] - a["buffer_offset"] - a["offset"] == 4 * 64 * 8
    assert a["lanes"] == [64] * 4


def test_the_tool_prints_the_stream(tool):
    import subprocess
    p = subprocess.run([tool, "triton", "--stream", str(C.HERE.parents[0] / "kernels" /
                                                          "matmul_bf16_128x128x32_w8_s2_gfx942.ttgir")],
                       capture_output=True, text=True)
    assert p.returncode in (0, 1), p.stderr
    lines = p.stdout.split("instruction streams")[1].splitlines()
    st64 = [x for x in lines if "ds_read2st64_b64" in x]
    assert len(st64) == 8 and sum("with #" in x for x in st64) == 4 and sum("into #" in x for x in st64) == 4
    assert all(x.split()[4] in ("0", "4096") for x in st64)  # offset column: the pair 8 x 64 x 8 bytes apart


def _sums(M, names) -> Tuple[int, int, int, int, List[str]]:
    """Over every op of every kernel: (ops listed, ops with instructions, pairs across ops, sunk loads,
    the ops whose standing instructions are not the report's counts)."""
    listed = with_counts = xop = sunk = 0
    bad = []
    for n in names:
        text = M.files()[n + ".ttgir"]
        rep = lt.report(text, suggest=False)
        for op in lt.stream(text):
            counts = rep["ops"][op["op"]].get("instructions") or {}
            with_counts += bool(counts)
            if "not_listed" in op:
                if rep["ops"][op["op"]].get("modelled"):  # every modelled op has its stream
                    bad.append("%s op %d: %s" % (n, op["op"], op["not_listed"]))
                continue
            listed += 1
            got = collections.Counter(e["mnemonic"] for e in op["instructions"] if e["standing"])
            if got != collections.Counter({k: v for k, v in counts.items() if v}):
                bad.append("%s op %d" % (n, op["op"]))
            xop += sum(e["standing"] and "si-load-store-opt across ops" in e["passes"] for e in op["instructions"])
            sunk += sum("ptxas sink" in e["passes"] for e in op["instructions"])
    return listed, with_counts, xop, sunk, bad


def test_every_listed_stream_is_its_report():
    # the corpus and the held-out set: every op the stream lists counts what the report counts, across ops
    # (AMD) and with ptxas's sunk load (NVIDIA) too
    names = sorted(n for n in C.cases() if n in C.reports())
    listed, with_counts, xop, sunk, bad = _sums(C, names)
    h_listed, h_with, h_xop, h_sunk, h_bad = _sums(TH.H, sorted(TH._reports()))
    assert not bad and not h_bad, (bad[:5], h_bad[:5])
    assert xop > 0 and sunk > 0, (xop, sunk)
    assert listed >= with_counts and h_listed >= h_with, (listed, with_counts, h_listed, h_with)
