"""ptxas's `@!PT LDS RZ, [RZ]` beside cp.async (lib/triton_kernel/ptxas_dummy.c)
against the SASS ptxas made of Triton's own kernels.

The SASS records (the ptxas Triton 3.6.0 ships, on the GPU machine):

- tests/fixtures/triton/ptxas/corpus_sync.jsonl.xz: the corpus's 53 sm_90
  kernels with cp.async (their PTX from ../corpus/kernels.tar.xz), each
  shared-memory instruction and its context in SASS order;
- tests/fixtures/triton/rows/nvmix: a tuning set of 60 sm_90 matmuls and
  attentions with fresh parameters (gen_rows.py, ROWS_SET=nvmix), 42 of
  them with cp.async, their TTGIR and the same record (sync.jsonl.xz).

The model gives each op its dummy loads per execution; summed over a
kernel's ops they are the SASS's static count wherever ptxas keeps one copy
of each loop.  Where ptxas duplicated a loop's body (more `DEPBAR` waits in
the SASS than `ttg.async_wait` ops in the TTGIR: unrolled or peeled), the
static count says nothing (UNROLLED).  The held-out set's launches check the
executed counts (test_triton_heldout.py).
"""

from __future__ import annotations

import collections
import io
import json
import lzma
import tarfile
from pathlib import Path
from typing import Dict

import liblayout.triton as lt

FIX = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "triton"
DUMMY = "@!PT LDS RZ, [RZ]"


def _sync(path: Path) -> Dict[str, list]:
    with lzma.open(path, "rt") as f:
        return {json.loads(line)["probe"]: json.loads(line)["sass"] for line in f if line.strip()}


def _ttgir(tar: Path, member_prefix: str) -> Dict[str, str]:
    out = {}
    with tarfile.open(tar) as t:
        for m in t.getmembers():
            if m.name.startswith(member_prefix) and m.name.endswith("_sm90.ttgir"):
                out[m.name[len(member_prefix):-len("_sm90.ttgir")]] = t.extractfile(m).read().decode()
    return out


def _classify(sass: Dict[str, list], texts: Dict[str, str]) -> collections.Counter:
    n: collections.Counter = collections.Counter()
    for name, lines in sorted(sass.items()):
        if not any("LDGSTS" in x for x in lines):
            continue
        text = texts[name]
        rep = lt.report(text.encode(), suggest=False)
        model = sum(op.get("ptxas_dummy_loads", 0) for op in rep["ops"])
        got = sum(DUMMY in x for x in lines)
        waits = text.count("ttg.async_wait")
        if model == got:
            n["equal"] += 1
        elif sum("DEPBAR.LE SB0" in x for x in lines) > waits:
            n["UNROLLED"] += 1
        else:
            n["MISS"] += 1
            n["miss " + name] += 1
        n["kernels"] += 1
    return n


def test_corpus_dummy_loads_are_ptxas():
    n = _classify(_sync(FIX / "ptxas" / "corpus_sync.jsonl.xz"), _ttgir(FIX / "corpus" / "kernels.tar.xz", "kernels/"))
    assert n["kernels"] == 53 and n["equal"] == 53, n


def test_nvmix_dummy_loads_are_ptxas():
    """The tuning set: 39 equal, 2 loops ptxas unrolled, and one miss: the
    fp16 attention of 128 x 128 x 64 on 4 warps, where ptxas wrote one
    dummy load before its loop's K copy instead of three (other
    instructions stand between the barrier and the copy there: the count
    is ptxas's scheduling, which the model does not follow)."""
    n = _classify(_sync(FIX / "rows" / "nvmix" / "sync.jsonl.xz"), _ttgir(FIX / "rows" / "nvmix" / "kernels.tar.xz", "k/"))
    assert n["kernels"] == 42, n
    assert n["equal"] >= 39 and n["UNROLLED"] <= 2 and n["MISS"] <= 1, n
    assert set(k for k in n if k.startswith("miss ")) <= {"miss attn_full_fp16_128x128x64_w4_s2"}, n


def test_probes_show_the_rule():
    """The README's table, read off wait.jsonl: three dummies before a
    cp.async after a shared access or barrier (or at the kernel's start),
    none after a wait or a global load alone; a fence after a cp.async one,
    or four after a shared access; none without cp.async."""
    rows = {}
    for line in (FIX / "ptxas" / "wait.jsonl").read_text().splitlines():
        d = json.loads(line)
        rows[d["probe"][2:]] = [x.split(" ", 1)[1] for x in d["sass"]]

    def runs(name):  # the dummy runs' lengths, in order
        out, k = [], 0
        for x in rows[name] + ["END"]:
            if x == DUMMY:
                k += 1
            elif k:
                out.append(k)
                k = 0
        return out

    assert runs("wait0") == [3] and runs("no_cp_wait0") == []
    assert runs("two_groups_wait0") == [3] and runs("cp_wait_cp") == [3] and runs("cp_ldg_cp") == [3]
    assert runs("cp_bar_cp") == [3, 3] and runs("cp_ld_cp") == [3, 3] and runs("cp_st_cp") == [3, 3]
    assert runs("cp_fence") == [3, 1] and runs("cp_fence_cp") == [3, 1]
    assert runs("cp_st4_fence") == [3, 4] and runs("cp_wait_bar_fence") == [3, 4] and runs("cp_ld_fence") == [3, 4]
    assert runs("st4_fence") == [] and runs("fence_alone") == [] and runs("ld_fence") == []
