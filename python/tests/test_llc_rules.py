"""The AMD misses' LLVM rules, each pinned by a minimal reproducer
(tests/fixtures/triton/llc, docs/notes/amd-misses.md): what Debian's LLVM
22.1.8 makes of it, against the counts its expected.json gives.

- The recorded output (llc/recorded/*.s, made by the commands of
  llc/README.md) is read on every run: each function's DS instructions are
  the expected mix.  This needs no LLVM.
- Where LLVM 22.1.8's llc-22 / opt-22 are installed (python/tests/llvm22.py),
  each reproducer is compiled again: the same mix, and the same DS lines as
  the recording, in order.  Skipped without them.

The expected mixes state the rules: MISS_D16_HI, a 16- / 8-bit element in
bits [31:16] of its VGPR is stored with `_d16_hi`; MISS_PAIRING,
SILoadStoreOptimizer pairs only accesses of one base register, and O3's
InstCombine gives an access its own base when its constant covers the bits
of the lane offset that a mask clears (unless instruction selection, which
knows the thread count, folds it back within one block), or when Triton's
XOR swizzle constant overlaps the lane offset's bits (LLVM 22.1.8 splits
none; Triton's LLVM splits them but behind GVN's phi)."""

from __future__ import annotations

import collections
import json
import re
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest

import llvm22  # python/tests/llvm22.py

LLC_DIR = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "triton" / "llc"
LANE_SHUFFLES = {"ds_bpermute_b32", "ds_permute_b32", "ds_swizzle_b32"}
CASES: List[dict] = json.loads((LLC_DIR / "expected.json").read_text())["cases"]


def recorded_name(case: dict) -> str:
    return "%s.%s.%s.s" % (case["ll"][:-3], case["cpu"], "llc" if case["pipeline"] == "llc" else "O3")


def functions(asm: str) -> Dict[str, List[str]]:
    """function -> its DS instructions (mnemonic and operands), in order."""
    out: Dict[str, List[str]] = {}
    cur = None
    for line in asm.splitlines():
        m = re.match(r"^([A-Za-z_]\w*):", line)
        if m:
            cur = m.group(1)
            out[cur] = []
            continue
        if line.startswith(".Lfunc_end"):
            cur = None
            continue
        m = re.match(r"^\s+(ds_[a-z0-9_]+)\b(.*)$", line)
        if cur is not None and m and m.group(1) not in LANE_SHUFFLES:
            out[cur].append((m.group(1) + m.group(2).split(";")[0]).strip())
    return out


def mix(lines: List[str]) -> Dict[str, int]:
    return dict(collections.Counter(line.split()[0] for line in lines))


def compile_case(case: dict, opt: str, llc: str) -> str:
    flags = ["-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + case["cpu"]]
    src = str(LLC_DIR / case["ll"])
    if case["pipeline"] == "llc":
        return subprocess.run([llc] + flags + ["-O3", src, "-o", "-"], capture_output=True, text=True,
                              check=True).stdout
    assert case["pipeline"] == "opt-O3,llc", case
    bc = subprocess.run([opt, "-O3"] + flags + [src], capture_output=True, check=True).stdout
    return subprocess.run([llc] + flags + ["-O3", "-", "-o", "-"], input=bc, capture_output=True,
                          check=True).stdout.decode()


def test_the_recorded_llc_output_has_the_expected_mix():
    assert len(CASES) == 15
    for case in CASES:
        fns = functions((LLC_DIR / "recorded" / recorded_name(case)).read_text())
        assert mix(fns[case["function"]]) == case["mix"], (case, fns[case["function"]])


def test_each_rule_differs_from_the_model_where_the_corpus_does():
    """The reproducers are not vacuous: where LLVM's mix is not the model's
    (d16_hi's packed halves; pairing_xor, which LLVM 22.1.8 splits not at
    all), counted one access per address and half it is (the same accesses,
    spelled or paired otherwise); the mask rule's cases the model follows."""
    def alike(m: Dict[str, int]) -> collections.Counter:
        out = collections.Counter()
        for k, v in m.items():
            k = re.sub(r"_d16_hi$", "", k)
            p = re.match(r"(ds_\w+?)(2st64|2|_2addr_stride64|_2addr)_(b\d+)$", k)
            if p:
                out[p.group(1).replace("_load", "_read").replace("_store", "_write") + "_" + p.group(3)] += 2 * v
            else:
                out[k.replace("ds_load_", "ds_read_").replace("ds_store_", "ds_write_")] += v
        return out
    differ = [c for c in CASES if c["mix"] != c["model"]]
    assert len(differ) == 9
    for c in CASES:
        assert alike(c["mix"]) == alike(c["model"]), c


def test_llc_22_makes_the_recorded_output():
    opt, llc = llvm22.tool("opt"), llvm22.tool("llc")
    if not (opt and llc):
        pytest.skip("needs LLVM %s's opt and llc (opt-22, llc-22)" % llvm22.RELEASE)
    for case in CASES:
        fresh = functions(compile_case(case, opt, llc))[case["function"]]
        recorded = functions((LLC_DIR / "recorded" / recorded_name(case)).read_text())[case["function"]]
        assert mix(fresh) == case["mix"], (case, fresh)
        assert fresh == recorded, (case, fresh, recorded)


def test_triton_llvm_keeps_a_branchs_scan_totals_apart():
    """pairing_branch.ll: a scan's two warp totals stored under a branch
    (storeWarpAccumulator), warpIdAxis made in the entry block.  Triton's
    own LLVM (recorded/pairing_branch.gfx950.triton.s, made by
    llc/triton_asm.py on the GPU machine from opt-22 -O3's output): with 8
    warps chunk 1's `or (lshr tid, 6), 8` is folded into the offset on
    another register than the entry's `and`, two ds_write_b32 (the
    corpus's cumsum1d_fp32_4096_w8_s1_gfx950); with 4 warps one base,
    ds_write2_b32 (the rows tuning set's cumsum1d_bf16_4096_w4_s1_gfx950).
    Debian's LLVM 22.1.8 pairs both (recorded/pairing_branch.gfx950.O3.s):
    the model follows Triton's LLVM, whose AMDGCN it is scored on."""
    triton = functions((LLC_DIR / "recorded" / "pairing_branch.gfx950.triton.s").read_text())
    assert triton["warps8"] == ["ds_write_b32 v1, v2", "ds_write_b32 v1, v2 offset:32", "ds_read_b32 v1, v1"]
    assert mix(triton["warps4"]) == {"ds_write2_b32": 1, "ds_read_b32": 1}
    debian = functions((LLC_DIR / "recorded" / "pairing_branch.gfx950.O3.s").read_text())
    assert mix(debian["warps8"]) == mix(debian["warps4"]) == {"ds_write2_b32": 1, "ds_read_b32": 1}
    opt, llc = llvm22.tool("opt"), llvm22.tool("llc")
    if opt and llc:
        case = {"ll": "pairing_branch.ll", "cpu": "gfx950", "pipeline": "opt-O3,llc"}
        assert functions(compile_case(case, opt, llc)) == debian
