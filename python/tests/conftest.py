"""Shared fixtures of the liblayout Python tests: the seed kernels of the talk
"LDS Bank Conflicts on CDNA" (docs/lds-model.md §4.1) in liblayout's text form, the `layout`
command-line tool (the C results to compare with) and a random descriptor
generator."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import List, Optional

import pytest

# Seed 000's kernels as text (include/layout/text.h; examples/seed_kernels.h
# builds the same objects through the C API).
#   write side of every kernel, over (M, K): m = 16*warp + lane/4, k = 8*(lane%4) + y
W_ALL = "dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])"
#   read side of 01..05, over (K, M): k = 8*warp + lane/8, m = 8*(lane%8) + y
R_KMAJOR = "dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])"
#   read side of 08 over (M, K), exactly the talk's encoding: m = lane, k = 8*warp + y1
R_08 = "dist(R=[1], H=([1,8,8],[4,8]), P=([(2,0)],[(1,1),(1,2)]), Y=[(1,0),(2,1)])"
#   kernel 08's LDS descriptor for 32 banks (text.h's worked example)
LDS_08 = (
    "naive([8,32,8],[8,64,1],gvl=8,gvs=1)"
    " | T{xor([32,8]):[1,0]->[1,0] ; pass(8):[2]->[2]}"
    " | T{unmerge([2,4]):[0]->[0,2] ; pass(32):[1]->[1] ; pass(8):[2]->[3]}"
    " | T{merge([32,2]):[1,0]->[0] ; merge([4,8]):[2,3]->[1]}"
)

# (write view, read view, read distribution) of kernels 01, 02, 03.
SEED = {
    "01": ("packed([64,32])", "naive([32,64],[1,32])", R_KMAJOR),
    "02": ("naive([64,32],[1,64])", "naive([32,64],[64,1])", R_KMAJOR),
    "03": ("naive([64,32],[34,1])", "naive([32,64],[1,34])", R_KMAJOR),
    "08": (LDS_08, LDS_08, R_08),
}

# Problem of the talk: M = 65536, K = 256 -> 8192 tiles of 64 x 32.
SEED_TILES = 8192


def layout_tool() -> Optional[str]:
    """The `layout` tool of the same build: $LAYOUT_TOOL, the tree's build, or PATH."""
    env = os.environ.get("LAYOUT_TOOL")
    if env:
        return env if os.path.exists(env) else None
    tree = Path(__file__).resolve().parents[2] / "build" / "bin" / "layout"
    if tree.exists():
        return str(tree)
    return shutil.which("layout")


@pytest.fixture(scope="session")
def tool() -> str:
    path = layout_tool()
    if not path:
        pytest.skip("the `layout` tool was not found (set LAYOUT_TOOL): C comparison skipped")
    return path


def run_tool(tool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([tool, *args], capture_output=True, text=True, timeout=60)


def random_desc_text(rng: random.Random) -> str:
    """A random descriptor text: a base and, often, one stage of pad / xor /
    merge / unmerge / embed.  Some are refused by the library (the caller
    catches LayoutError); most are accepted."""
    nd = rng.randint(1, 3)
    lens = [rng.randint(1, 9) for _ in range(nd)]
    if rng.random() < 0.3:
        base = f"packed([{','.join(map(str, lens))}])"
    else:
        strides = [rng.randint(0, 40) for _ in range(nd)]
        base = f"naive([{','.join(map(str, lens))}],[{','.join(map(str, strides))}])"
    kind = rng.choice(["none", "pad", "xor", "merge", "unmerge", "embed"])
    rest = " ; ".join(f"pass({lens[i]}):[{i}]->[{i}]" for i in range(1, nd))
    rest = (" ; " + rest) if rest else ""
    if kind == "pad":
        return f"{base} | T{{pad({lens[0]},{rng.randint(0, 3)},{rng.randint(0, 3)}):[0]->[0]{rest}}}"
    if kind == "xor" and nd >= 2:
        tail = " ; ".join(f"pass({lens[i]}):[{i}]->[{i}]" for i in range(2, nd))
        tail = (" ; " + tail) if tail else ""
        return f"{base} | T{{xor([{lens[0]},{lens[1]}]):[0,1]->[0,1]{tail}}}"
    if kind == "merge" and nd >= 2:
        tail = " ; ".join(f"pass({lens[i]}):[{i}]->[{i - 1}]" for i in range(2, nd))
        tail = (" ; " + tail) if tail else ""
        return f"{base} | T{{merge([{lens[0]},{lens[1]}]):[0,1]->[0]{tail}}}"
    if kind == "unmerge":
        a = rng.choice([d for d in range(1, lens[0] + 1) if lens[0] % d == 0])
        tail = " ; ".join(f"pass({lens[i]}):[{i}]->[{i + 1}]" for i in range(1, nd))
        tail = (" ; " + tail) if tail else ""
        return f"{base} | T{{unmerge([{a},{lens[0] // a}]):[0]->[0,1]{tail}}}"
    if kind == "embed":
        up = [rng.randint(1, 4), rng.randint(1, 4)]
        coef = [rng.randint(0, 6), rng.randint(0, 6)]
        # the embed's reach must stay inside dim 0: 0 .. lens[0]-1
        if (up[0] - 1) * coef[0] + (up[1] - 1) * coef[1] >= lens[0]:
            coef = [0, 0]
        tail = " ; ".join(f"pass({lens[i]}):[{i}]->[{i + 1}]" for i in range(1, nd))
        tail = (" ; " + tail) if tail else ""
        return f"{base} | T{{embed([{up[0]},{up[1]}],[{coef[0]},{coef[1]}]):[0]->[0,1]{tail}}}"
    return base


def parse_offsets_output(out: str) -> List[int]:
    """Offsets printed by `layout offsets` (grid or list), row-major; '*' marks dropped."""
    lines = [l for l in out.splitlines() if l and not l.startswith("#")]
    values: List[int] = []
    if lines and lines[0].startswith("("):
        for l in lines:
            values.append(int(l.split(")")[1].strip().rstrip("*")))
        return values
    for l in lines[1:]:  # first line: column numbers
        _, row = l.split(":", 1)
        values.extend(int(v.rstrip("*")) for v in row.split())
    return values


def parse_banks_output(out: str) -> List[int]:
    """Banks printed by `layout banks`, row-major, '.' (padding) as -1."""
    lines = [l for l in out.splitlines() if l and not l.startswith("#") and not l.startswith("elements per bank")]
    values: List[int] = []
    for l in lines[1:]:
        _, row = l.split(":", 1)
        values.extend(-1 if v == "." else int(v) for v in row.split())
    return values
