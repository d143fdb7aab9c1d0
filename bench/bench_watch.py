#!/usr/bin/env python3
"""What liblayout.triton.watch() adds to a real Triton compile.

Needs Triton 3.6 (the GPU machine; the AMD targets compile there without an
AMD GPU).  For each kernel of the corpus generator
(tests/fixtures/triton/kernels/gen_kernels.py) named on the command line:
one warm-up compile each way, then ROUNDS rounds that compile it plainly and
watched, in turns (every compile a fresh one: TRITON_ALWAYS_COMPILE=1 for
both, so that the plain one does not hit Triton's cache).  Inside the
watched compiles the hook's own parts are timed: Triton's printing of the
module (`str(mod)`) and `report()` (the C library: parse, lower, cost, JSON,
and Python's json.loads).  Prints one JSON object per kernel:

    python3 bench/bench_watch.py [--rounds N] CASE...

Medians are of wall-clock seconds (time.perf_counter) in this one process;
the overhead is (watched - plain) / plain, of the medians and of the
minima.  Compiles of one kernel differ by up to 30 % from one to the next
on the GPU machine, so the figure that decides is `hook_overhead`: the time
the hook adds inside each watched compile (the ttgir stage timed with and
without it, in the same compile), over the plain compile's median.
"""
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("TRITON_ALWAYS_COMPILE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tests" / "fixtures" / "triton" / "kernels"))

import gen_kernels  # noqa: E402
import liblayout.triton as lt  # noqa: E402


def time_the_hook(parts):
    """Wrap the ttgir stage on both sides of watch()'s hook: what the hook
    adds to one compile is the watched stage's time less Triton's own
    stage's (str(mod), report(), formatting, printing), measured inside the
    compile, free of the compile-to-compile noise of the wall clock."""
    from triton import knobs
    installed = knobs.runtime.add_stages_inspection_hook

    def timing_hook(backend, stages, options, language, capability):
        inner = stages.get("ttgir")
        if inner is None:
            return installed(backend, stages, options, language, capability)
        own = []

        def timed_inner(src, md):
            t = time.perf_counter()
            mod = inner(src, md)
            own.append(time.perf_counter() - t)
            return mod

        stages["ttgir"] = timed_inner
        installed(backend, stages, options, language, capability)
        watched = stages["ttgir"]

        def outer(src, md):
            t = time.perf_counter()
            mod = watched(src, md)
            parts["hook"].append(time.perf_counter() - t - sum(own))
            return mod

        stages["ttgir"] = outer

    knobs.runtime.add_stages_inspection_hook = timing_hook


def main(argv):
    rounds = 7
    if argv[:1] == ["--rounds"]:
        rounds, argv = int(argv[1]), argv[2:]
    cases = {c[0]: c[1:] for c in gen_kernels.cases()}
    parts = {"report": [], "hook": []}
    real_report = lt.report

    def timed_report(text, *a, **k):
        t = time.perf_counter()
        out = real_report(text, *a, **k)
        parts["report"].append(time.perf_counter() - t)
        return out

    lt.report = timed_report
    for name in argv:
        fn, sig, consts, opts, target = cases[name]
        plain, watched = [], []

        def once(watch):
            sink = io.StringIO()
            w = lt.watch(file=sink) if watch else None
            if w is not None:
                time_the_hook(parts)
            t = time.perf_counter()
            try:
                k = gen_kernels.compile_case(fn, sig, consts, opts, target)
            finally:
                if w is not None:
                    from triton import knobs
                    knobs.runtime.add_stages_inspection_hook = w._hook   # under the timer: watch's own
                    w.stop()
            dt = time.perf_counter() - t
            return dt, k

        once(False)
        once(True)
        parts["report"].clear()
        parts["hook"].clear()
        for _ in range(rounds):
            plain.append(once(False)[0])
            watched.append(once(True)[0])
        _, k = once(False)
        text = k.asm["ttgir"]
        t = time.perf_counter()
        for _ in range(5):
            real_report(text)
        rep_alone = (time.perf_counter() - t) / 5
        p, w = statistics.median(plain), statistics.median(watched)
        print(json.dumps({
            "case": name, "rounds": rounds, "plain_s": p, "watched_s": w, "overhead": (w - p) / p,
            "plain_all": plain, "watched_all": watched,
            "report_in_hook_median_s": statistics.median(parts["report"]) if parts["report"] else None,
            "report_alone_s": rep_alone, "ttgir_lines": text.count("\n"),
            "plain_min_s": min(plain), "watched_min_s": max(min(watched), 0.0),
            "overhead_of_min": (min(watched) - min(plain)) / min(plain),
            "hook_added_median_s": statistics.median(parts["hook"]) if parts["hook"] else None,
            "hook_overhead": statistics.median(parts["hook"]) / p if parts["hook"] else None,
        }), flush=True)
        parts["report"].clear()
        parts["hook"].clear()


if __name__ == "__main__":
    main(sys.argv[1:])
