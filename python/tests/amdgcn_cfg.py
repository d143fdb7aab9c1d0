"""The control flow of one AMDGCN kernel (Triton's `.amdgcn`) and its DS
instructions per execution path: the record behind the corpus test's
"equal per path" class (python/tests/test_triton_corpus.py).

LLVM peels the first iteration of some innermost loops of Triton's AMD
kernels (tests/fixtures/triton/corpus/llir_amd/README.md): the ISA then
holds the loop body twice, once before the loop and once in it, and counted
by its text the code around the loop looks doubled.  Per execution path it
is not: a path runs the peeled copy only when it enters the loop, so each
path through the loop's region runs the body T times for some T >= 0, as
the TTGIR's `scf.for` with T trips does.

    python3 python/tests/amdgcn_cfg.py KERNEL.amdgcn

prints the blocks (their DS counts and successors), the innermost loop, its
region and the DS counts of each path through the region."""

from __future__ import annotations

import collections
import re
import sys
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

LANE_SHUFFLES = {"ds_bpermute_b32", "ds_permute_b32", "ds_swizzle_b32"}
_LABEL = re.compile(r"^(\.LBB\d+_\d+):")
_BB = re.compile(r"^; (%bb\.\d+):")
_BRANCH = re.compile(r"^(s_branch|s_cbranch_\w+)\s+(\.LBB\d+_\d+)")
_DS = re.compile(r"^(ds_[a-z0-9_]+)\b")


class Block:
    def __init__(self, name: str):
        self.names = [name]
        self.ds: collections.Counter = collections.Counter()
        self.targets: List[str] = []
        self.falls = True   # runs on into the next block
        self.n = 0          # instructions
        self.succ: List[int] = []

    def __repr__(self) -> str:
        return "%s %s -> %s" % ("/".join(self.names), dict(self.ds), self.succ)


def parse(text: str) -> List[Block]:
    """The kernel's basic blocks in layout order.  A block begins at the
    kernel's label, a `.LBBf_n:` label, LLVM's `; %bb.n:` comment, or after
    a conditional branch; `s_branch` and `s_endpgm` end it without
    fall-through.  A label on an empty block names the same node."""
    out: List[Block] = []
    cur: Optional[Block] = None
    after_branch = False
    for line in text.splitlines():
        if cur is None:
            m = re.match(r"^([A-Za-z_]\w*):", line)
            if m:
                cur = Block(m.group(1))
                out.append(cur)
            continue
        if line.startswith(".Lfunc_end"):
            break
        m = _LABEL.match(line) or _BB.match(line)
        if m:
            if cur.n == 0 and cur.falls:
                cur.names.append(m.group(1))
            else:
                cur = Block(m.group(1))
                out.append(cur)
            after_branch = False
            continue
        s = line.split(";", 1)[0].strip()
        if not s or s.startswith("."):
            continue
        if after_branch and not _BRANCH.match(s):
            cur = Block("after " + cur.names[-1])
            out.append(cur)
        after_branch = False
        cur.n += 1
        m = _DS.match(s)
        if m and m.group(1) not in LANE_SHUFFLES:
            cur.ds[m.group(1)] += 1
        m = _BRANCH.match(s)
        if m:
            cur.targets.append(m.group(2))
            if m.group(1) == "s_branch":
                cur.falls = False
            else:
                after_branch = True
        elif s.startswith(("s_endpgm", "s_setpc_b64")):
            cur.falls = False
    index = {name: i for i, b in enumerate(out) for name in b.names}
    for i, b in enumerate(out):
        succ = [index[t] for t in b.targets]
        if b.falls and i + 1 < len(out):
            succ.append(i + 1)
        b.succ = list(dict.fromkeys(succ))
    return out


def back_edges(blocks: List[Block]) -> Set[Tuple[int, int]]:
    """The edges to a block on the depth-first stack, from the entry."""
    back: Set[Tuple[int, int]] = set()
    state = {0: 1}
    stack = [(0, iter(blocks[0].succ))]
    while stack:
        u, it = stack[-1]
        for v in it:
            if state.get(v) == 1:
                back.add((u, v))
            elif v not in state:
                state[v] = 1
                stack.append((v, iter(blocks[v].succ)))
                break
        else:
            state[u] = 2
            stack.pop()
    return back


def loops(blocks: List[Block]) -> Dict[int, Set[int]]:
    """Loop header -> the blocks of its natural loop."""
    preds: Dict[int, Set[int]] = collections.defaultdict(set)
    for i, b in enumerate(blocks):
        for s in b.succ:
            preds[s].add(i)
    out: Dict[int, Set[int]] = {}
    for u, h in back_edges(blocks):
        body = out.setdefault(h, {h})
        work = [u]
        while work:
            x = work.pop()
            if x not in body:
                body.add(x)
                work.extend(preds[x])
    return out


def _idoms(n: int, succ: List[List[int]], root: int) -> List[int]:
    """Immediate dominators of an acyclic graph (-1: the root, unreachable)."""
    order: List[int] = []
    seen = {root}
    stack = [(root, iter(succ[root]))]
    while stack:
        u, it = stack[-1]
        for v in it:
            if v not in seen:
                seen.add(v)
                stack.append((v, iter(succ[v])))
                break
        else:
            order.append(u)
            stack.pop()
    rpo = order[::-1]
    pos = {u: i for i, u in enumerate(rpo)}
    preds: Dict[int, List[int]] = collections.defaultdict(list)
    for u in rpo:
        for v in succ[u]:
            preds[v].append(u)
    idom = {root: root}
    for u in rpo[1:]:  # acyclic: one pass in reverse post-order is exact
        new = None
        for p in preds[u]:
            if p not in idom:
                continue
            if new is None:
                new = p
                continue
            a, b = new, p
            while a != b:
                while pos[a] > pos[b]:
                    a = idom[a]
                while pos[b] > pos[a]:
                    b = idom[b]
            new = a
        idom[u] = new
    return [idom[u] if u in idom and u != root else -1 for u in range(n)]


Vec = FrozenSet[Tuple[str, int]]


def _vec(c: collections.Counter) -> Vec:
    return frozenset((k, v) for k, v in c.items() if v)


def region_paths(blocks: List[Block], first: int, stop: int, back: Set[Tuple[int, int]]) -> Set[Vec]:
    """The DS counts of each path from `first` to `stop` (excluded), back
    edges removed (a loop on the path runs once)."""
    memo: Dict[int, Set[Vec]] = {}
    order: List[int] = []
    seen = {first}
    stack = [(first, iter(blocks[first].succ))]
    while stack:  # post-order, so successors are done first
        u, it = stack[-1]
        for v in it:
            if (u, v) not in back and v != stop and v not in seen:
                seen.add(v)
                stack.append((v, iter(blocks[v].succ)))
                break
        else:
            order.append(u)
            stack.pop()
    for u in order:
        here = blocks[u].ds
        res: Set[Vec] = set()
        succ = [v for v in blocks[u].succ if (u, v) not in back]
        for v in succ:
            for rest in ({frozenset()} if v == stop else memo[v]):
                res.add(_vec(here + collections.Counter(dict(rest))))
        memo[u] = res if succ else set()  # a path that never reaches `stop` is not one through the region
    return memo[first]


def loop_regions(text: str) -> List[dict]:
    """The kernel's one innermost loop that holds DS instructions, and the
    single-entry single-exit regions around it, smallest first: each J on
    the post-dominator chain of the loop's header (the block every path
    from the header to the end reaches next), with S, J's immediate
    dominator (the block every path from the start to J passes last), and
    the blocks between (dominated by S, post-dominated by J).  For each:
    the loop's DS counts per iteration (`iteration`), the DS counts of each
    path from S to J, the loop run once where a path enters it (`paths`),
    and the DS counts of every block outside the region (`rest`).  [] if
    the kernel has no such single loop."""
    blocks = parse(text)
    lp = loops(blocks)
    inner = [h for h, body in lp.items() if not any(h2 != h and h2 in body for h2 in lp)]
    with_ds = [h for h in inner if any(blocks[u].ds for u in lp[h])]
    if len(with_ds) != 1:
        return []
    h = with_ds[0]
    back = back_edges(blocks)
    n = len(blocks)
    succ = [[s for s in b.succ if (i, s) not in back] for i, b in enumerate(blocks)]
    rsucc: List[List[int]] = [[] for _ in range(n + 1)]
    for u in range(n):
        for v in (succ[u] or [n]):   # n: one end after every block without successors
            rsucc[v].append(u)
    ipdom = _idoms(n + 1, rsucc, n)
    idom = _idoms(n, succ, 0)
    iteration = sum((blocks[u].ds for u in lp[h]), collections.Counter())

    def under(u: int, d: List[int], top: int) -> bool:
        while u not in (-1, top):
            u = d[u]
        return u == top
    out = []
    j = ipdom[h]
    while 0 <= j < n:
        s = idom[j]
        if s < 0:
            break
        region = {u for u in range(n) if u not in (s, j) and under(u, idom, s) and under(u, ipdom, j)}
        paths: Set[Vec] = set()
        for v in blocks[s].succ:
            if v == j:
                paths.add(frozenset())
            elif v in region:
                paths |= region_paths(blocks, v, j, back)
        out.append({
            "iteration": iteration,
            "paths": sorted((collections.Counter(dict(p)) for p in paths), key=lambda c: sum(c.values())),
            "rest": sum((b.ds for u, b in enumerate(blocks) if u not in region), collections.Counter()),
            "region": (blocks[s].names[-1], blocks[j].names[-1], sorted(blocks[u].names[-1] for u in region)),
        })
        j = ipdom[j]
    return out


def equal_per_path(text: str, inside: collections.Counter, outside: collections.Counter) -> bool:
    """The ISA runs, on every path, the model's count for that path's trip
    count: the loop's iteration is the model's loop body `inside`, and one
    region around the loop (loop_regions) has exactly three paths, running
    it 0, 1 and 2 times (the bypass; the peeled copy alone; the peeled copy
    and the loop, whose every further iteration adds one body), with the
    model's `outside` everywhere else."""
    inside = inside + collections.Counter()
    if not inside:
        return False
    want = [collections.Counter(), inside, inside + inside]
    return any(r["iteration"] + collections.Counter() == inside and r["paths"] == want
               and r["rest"] + collections.Counter() == outside + collections.Counter()
               for r in loop_regions(text))


def main(argv: List[str]) -> int:
    for path in argv:
        text = open(path).read()
        blocks = parse(text)
        print(path)
        for i, b in enumerate(blocks):
            print("  %2d %s" % (i, b))
        regions = loop_regions(text)
        if not regions:
            print("  no single innermost loop with DS instructions")
            continue
        print("  loop iteration:", dict(regions[0]["iteration"]))
        for r in regions:
            print("  region from %s to %s through %s" % r["region"])
            for p in r["paths"]:
                print("    path:", dict(p))
            print("    outside it:", dict(r["rest"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
