#!/usr/bin/env python3
"""Python overhead per batch call of the liblayout module (`make bench`).

Times the module's batch calls on seed kernel 08 (gfx942, fp16, a 64x32 tile)
and the same calls made from C by bench/bench_pyref (run by this script,
interleaved with the Python rounds: C, Python, C, Python, ...; best round of
each), then prints per-call times, the overhead (Python - C) and the ratio,
and appends the figures to BUILD/bench.json.  Timer: thread CPU time on both
sides (time.thread_time / CLOCK_THREAD_CPUTIME_ID), since the machine is shared.

    python3 python/bench_python.py --build build [--rounds 9]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path
from typing import Callable, Dict, List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import liblayout as ll  # noqa: E402

W_ALL = "dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])"
R_08 = "dist(R=[1], H=([1,8,8],[4,8]), P=([(2,0)],[(1,1),(1,2)]), Y=[(1,0),(2,1)])"
LDS_08 = (
    "naive([8,32,8],[8,64,1],gvl=8,gvs=1) | T{xor([32,8]):[1,0]->[1,0] ; pass(8):[2]->[2]}"
    " | T{unmerge([2,4]):[0]->[0,2] ; pass(32):[1]->[1] ; pass(8):[2]->[3]}"
    " | T{merge([32,2]):[1,0]->[0] ; merge([4,8]):[2,3]->[1]}"
)


def best_per_call(fn: Callable[[], object], slice_s: float) -> float:
    """Seconds per call of fn over one slice of >= slice_s thread CPU time."""
    reps = 0
    t0 = time.thread_time()
    while True:
        for _ in range(10):
            fn()
        reps += 10
        t1 = time.thread_time()
        if t1 - t0 >= slice_s:
            return (t1 - t0) / reps


def run_c(binary: str) -> Dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        part = os.path.join(tmp, "c.json")
        env = dict(os.environ, LAYOUT_BENCH_JSON_PART=part)
        subprocess.run([binary], check=True, env=env, stdout=subprocess.DEVNULL)
        out = {}
        with open(part) as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    out[rec["name"].split(".")[1]] = rec["value"]
        return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="build directory (bench/bench_pyref and bench.json)")
    ap.add_argument("--rounds", type=int, default=9, help="interleaved rounds (best round is kept)")
    ap.add_argument("--slice", type=float, default=0.1, help="seconds of each Python method per round")
    args = ap.parse_args()
    build = Path(args.build)
    c_bin = build / "bench" / "bench_pyref"
    if not c_bin.exists():
        print(f"bench_python: {c_bin} not found (make bench builds it)")
        return 1

    arch = ll.Arch("gfx942")
    lds = ll.Descriptor.from_text(LDS_08)
    w = ll.Distribution.from_text(W_ALL)
    r = ll.Distribution.from_text(R_08)
    plan = ll.KernelPlan(arch, lds, w, r)
    buf = array("q", bytes(8 * 2048))
    # verify what is timed (the same checks as bench_pyref.c)
    lds.offsets(out=buf)
    assert sorted(buf) == list(range(2048)), "kernel 08 offsets are not a permutation"
    assert ll.check_triple(arch, w, lds, r).extra_cycles_per_tile == 0
    assert plan.check().extra_cycles_per_tile == 0

    # the same C functions called through ctypes with prepared arguments: the
    # cost of calling into liblayout.so from Python at all, without the module
    import ctypes
    from liblayout import _native as N
    raw = N.native().lib
    kres = N.KernelResult()
    plan_blob = lds._compiled()
    buf_addr = buf.buffer_info()[0]
    a_ptr, w_ptr, d_ptr, r_ptr, kp_ptr = arch._blob.ptr, w._blob.ptr, lds._blob.ptr, r._blob.ptr, plan._blob.ptr
    kres_ref = ctypes.byref(kres)
    raw_calls = {
        "offsets_tile": lambda: raw.layout_plan_tile(plan_blob.ptr, buf_addr, None, 2048, None),
        "check_triple": lambda: raw.layout_check_triple(a_ptr, w_ptr, d_ptr, r_ptr, 2, kres_ref, None),
        "plan_check": lambda: raw.layout_kernel_plan_check(kp_ptr, kres_ref, None),
    }

    methods = {
        "offsets_tile": ("offsets of a 64x32 tile, out=buf (zero copy)", lambda: lds.offsets(out=buf)),
        "offsets_tile_new": ("offsets of a 64x32 tile, new array('q')", lambda: lds.offsets()),
        "check_triple": ("triple check, check_triple()", lambda: ll.check_triple(arch, w, lds, r)),
        "plan_check": ("triple check, KernelPlan.check()", lambda: plan.check()),
    }
    c_of = {"offsets_tile": "offsets_tile", "offsets_tile_new": "offsets_tile", "check_triple": "check_triple",
            "plan_check": "plan_check"}
    py_best = {k: 1e30 for k in methods}
    raw_best = {k: 1e30 for k in raw_calls}
    c_best: Dict[str, float] = {}
    for _ in range(args.rounds):
        for k, v in run_c(str(c_bin)).items():
            c_best[k] = min(c_best.get(k, 1e30), v)
        for k, fn in raw_calls.items():
            raw_best[k] = min(raw_best[k], best_per_call(fn, args.slice) * 1e9)
        for k, (_, fn) in methods.items():
            py_best[k] = min(py_best[k], best_per_call(fn, args.slice) * 1e9)

    machine = f"{platform.processor() or platform.machine()}, Python {platform.python_version()}"
    print(f"Python overhead per batch call (seed kernel 08, gfx942; {machine}; library {ll.library_path()}):")
    print("  C: the call from C (bench_pyref, static library); ctypes: the same C function called from")
    print("  Python through ctypes with prepared arguments; Python: the module's call; overhead = Python - C")
    print(f"  {'call':46} {'C ns':>9} {'ctypes ns':>10} {'Python ns':>10} {'overhead ns':>12} {'ratio':>7}")
    figures: List[dict] = []
    for k, (what, _) in methods.items():
        py, c = py_best[k], c_best[c_of[k]]
        rc = raw_best[c_of[k]]
        print(f"  {what:46} {c:9.0f} {rc:10.0f} {py:10.0f} {py - c:12.0f} {py / c:6.2f}x")
        figures.append({"name": f"python.{k}", "unit": "ns/call", "value": round(py, 3), "machine": machine})
        figures.append({"name": f"python.{k}.overhead", "unit": "ns/call", "value": round(py - c, 3),
                        "machine": machine})
        figures.append({"name": f"python.{k}.ratio", "unit": "x", "value": round(py / c, 3), "machine": machine})
    for k, v in raw_best.items():
        figures.append({"name": f"python.{k}.ctypes_raw", "unit": "ns/call", "value": round(v, 3),
                        "machine": machine})
    json_path = build / "bench.json"
    try:
        data = json.loads(json_path.read_text()) if json_path.exists() else []
    except ValueError:
        data = []
    data = [d for d in data if not str(d.get("name", "")).startswith("python.")] + figures
    json_path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"appended {len(figures)} figures to {json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
