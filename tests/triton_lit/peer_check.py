#!/usr/bin/env python3
"""Triton's own lit-test inputs through `layout triton` as a peer check.

Not run by CI: the lit files are Triton's, read from its repository and not
committed here (README.md beside this script says how to get them).

For every *.mlir file of DIR (argument or LAYOUT_TRITON_LIT_DIR):

- split it at `// -----` lines into modules, as lit's -split-input-file
  does (and at split-file's `//--- name` lines), each module padded with
  blank lines so that its line numbers are the file's;
- give a module without `ttg.target` one: the vendor from its own content
  (`#ttg.amd_mfma`, `amdg.` ops, 64 threads per warp -> AMD;
  `#ttg.nvidia_mma`, `#ttg.nvmma_shared`, `ttng.` ops -> NVIDIA), the
  generation from the file's RUN lines (`arch=gfx950`,
  `compute-capability=100`, `target=cuda:100`) when they name one of that
  vendor, else hip:gfx942 / cuda:90; a module with no vendor content at
  all takes the RUN line's target, else cuda:90.  The record says which
  (`target_from`);
- run `layout triton MODULE --json` and `layout triton MODULE` (the plain
  text report) and classify the module:
    read         exit 0 or 1, JSON parsed; its ops modelled or listed in
                 not_modelled with a reason;
    refused      exit 2, with the message; `documented` when the docs name
                 the reason (no module header, no ttg.num-warps, Triton < 3.2)
                 or Triton itself rejects the module (`expected-error`);
    crash        any other exit status, a signal, a timeout, a sanitizer
                 report on stderr, or JSON that does not parse;
    dropped      (within read) an op that touches shared memory in the
                 module text (ttg.local_alloc with a source, ttg.local_load,
                 ttg.local_store, ttg.async_copy_global_to_local,
                 amdg.buffer_load_to_local, ttg.convert_layout,
                 ttng.warp_group_dot, ttng.tc_gen5_mma*, tt.reduce, tt.scan,
                 tt.histogram, tt.gather, ttg.warp_specialize, a scalar
                 tt.atomic_rmw / tt.atomic_cas) that is neither in the JSON's
                 ops nor in its not_modelled at its line;
    wrong kind   (within read) a JSON op whose name is not the op named at
                 its line in the text, or a not_modelled reason that names
                 another op's evidence (an op other than tt.atomic_* called
                 a scalar atomic; an op on tensor memory, named directly or
                 through an alias, called an op on a shared-memory
                 descriptor).
A module whose own ttg.target names no arch preset (cuda:0, gfx940), or
whose warp size is not its target's, is read again with --arch: gfx942
(64 lanes), gfx1100 (AMD, 32 lanes) or sm_90 (NVIDIA, 32 lanes);
`target_note` says so.

Output: one JSON record per module (--records FILE, JSON lines), and a
per-file markdown table on standard output (with the last commit that
changed each file when DIR/MANIFEST.txt lists it, one line per file:
`name | path | commit of the tree | last change | chars`).

Usage:
  python3 tests/triton_lit/peer_check.py [DIR] [--layout build/bin/layout]
      [--records out.jsonl] [--timeout 60] [--only NAME_SUBSTRING]
Exit status: 0 when no module is refused for an undocumented reason,
crashes, drops an op or names a wrong kind; 1 otherwise; 2 bad usage.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, OrderedDict

SPLIT_RE = re.compile(r"^\s*//\s*-----\s*$")
# lit's split-file: `//--- name.mlir` starts a file of its own
SPLIT_FILE_RE = re.compile(r"^//--- \S")

# Ops whose lowering may touch shared memory, as the module text names them.
WATCHED = [
    "ttg.local_alloc", "ttg.local_load", "ttg.local_store",
    "ttg.async_copy_global_to_local", "amdg.buffer_load_to_local",
    "ttg.convert_layout", "ttng.warp_group_dot", "ttng.tc_gen5_mma",
    "ttng.tc_gen5_mma_scaled", "tt.reduce", "tt.scan", "tt.histogram",
    "tt.gather", "ttg.warp_specialize", "tt.atomic_rmw", "tt.atomic_cas",
]

SANITIZER_RE = re.compile(r"ERROR: (Address|Leak|Memory|Thread|UndefinedBehavior)Sanitizer|runtime error:|"
                          r"SUMMARY: \w+Sanitizer")

AMD_RE = re.compile(r"#ttg\.amd_|amdg\.|\brocdl\.|\"ttg\.threads-per-warp\"\s*=\s*64\b|hip:gfx")
NV_RE = re.compile(r"#ttg\.nvidia_mma|#ttg\.nvmma_shared|\bttng\.|\bnvws\.|\bnvg\.|cuda:\d+")


def strip_comment(line):
    """The line without its `//` comment (a `//` inside a string is kept)."""
    in_str = False
    i = 0
    while i < len(line):
        c = line[i]
        if c == '"' and (i == 0 or line[i - 1] != "\\"):
            in_str = not in_str
        elif not in_str and line.startswith("//", i):
            return line[:i]
        i += 1
    return line


def split_modules(text):
    """[(first_line, padded_text)]: lit's split-input-file, line numbers kept."""
    lines = text.split("\n")
    chunks, start = [], 0
    for i, l in enumerate(lines):
        if SPLIT_RE.match(l) or SPLIT_FILE_RE.match(l):
            chunks.append((start, i))
            start = i + 1
    chunks.append((start, len(lines)))
    out = []
    for a, b in chunks:
        body = lines[a:b]
        if not any(strip_comment(l).strip() for l in body):
            continue
        out.append((a + 1, "\n" * a + "\n".join(body) + "\n"))
    return out


def run_targets(text):
    """Targets the RUN lines name, in order: ['hip:gfx950', 'cuda:90', ...]."""
    found = []
    for l in text.split("\n"):
        m = re.match(r"\s*//\s*RUN:(.*)", l)
        if not m:
            continue
        run = m.group(1)
        for t in re.findall(r"target=((?:hip:gfx\w+)|(?:cuda:\d+))", run):
            found.append(t)
        for g in re.findall(r"(?:arch|arch-generation-name|gfx-arch)=\"?(gfx\w+)", run):
            found.append("hip:" + g)
        for cc in re.findall(r"compute-capability=(\d+)", run):
            found.append("cuda:" + cc)
    return found


def choose_target(module_text, runs):
    code = "\n".join(strip_comment(l) for l in module_text.split("\n"))
    amd, nv = bool(AMD_RE.search(code)), bool(NV_RE.search(code))
    if amd and not nv:
        for t in runs:
            if t.startswith("hip:"):
                return t, "content:amd + RUN"
        return "hip:gfx942", "content:amd (default gfx942)"
    if nv and not amd:
        for t in runs:
            if t.startswith("cuda:"):
                return t, "content:nvidia + RUN"
        return "cuda:90", "content:nvidia (default cuda:90)"
    if runs:
        return runs[0], "RUN"
    return "cuda:90", "default cuda:90"


MODULE_ATTR_RE = re.compile(r"^(\s*module\b(?:\s*@[\w.$-]+)?\s*attributes\s*\{)", re.M)
MODULE_BARE_RE = re.compile(r"^(\s*module\b(?:\s*@[\w.$-]+)?)(\s*\{)", re.M)


def give_target(module_text, target):
    """(text, how): the text with `ttg.target` added on the line of every
    module header that lacks one (a split may hold several top-level
    modules); how is None (added), "own" (every header has one) or
    "no module header"."""
    lines = module_text.split("\n")
    headers = added = 0
    for i, raw in enumerate(lines):
        code = strip_comment(raw)
        m = MODULE_ATTR_RE.match(code) or MODULE_BARE_RE.match(code)
        if not m:
            continue
        headers += 1
        if re.search(r"\"?ttg\.target\"?\s*=", code):
            continue
        m = MODULE_ATTR_RE.match(code)
        if m:
            lines[i] = raw[:m.end()] + '"ttg.target" = "%s", ' % target + raw[m.end():]
        else:
            m = MODULE_BARE_RE.match(code)
            lines[i] = raw[:m.end(1)] + ' attributes {"ttg.target" = "%s"}' % target + raw[m.end(1):]
        added += 1
    if not headers:
        return module_text, "no module header"
    return "\n".join(lines), (None if added else "own")


def watched_ops(module_text):
    """[(line, name)] of the shared-memory ops the text names as ops: the
    name (quoted in the generic form) starts its statement or follows the
    results' '='."""
    out = []
    names = "|".join(re.escape(n) for n in sorted(WATCHED, key=len, reverse=True))
    op_re = re.compile(r"\"?\b(" + names + r")\"?(?=[\s(<{:]|$)")
    for i, raw in enumerate(module_text.split("\n"), 1):
        line = strip_comment(raw)
        for m in op_re.finditer(line):
            before = line[:m.start()].rstrip()
            if before and not before.endswith("="):
                continue
            name, rest = m.group(1), line[m.end():]
            if name == "ttg.local_alloc" and not re.match(r"\s*\(?\s*%", rest):
                continue  # no source: no store (docs/triton.md)
            if name in ("tt.atomic_rmw", "tt.atomic_cas") and ("tensor<" in rest or ":" not in rest):
                continue  # a tensor atomic issues no shared access (or its types are on later lines)
            out.append((i, name))
    return out


def op_at_line(module_text, line):
    """The op names spelled at a 1-based line (comment stripped)."""
    lines = module_text.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    return strip_comment(lines[line - 1])


def tensor_memory_names(text):
    """`#ttng.tensor_memory` and the aliases that name it."""
    names = ["#ttng.tensor_memory"]
    for l in text.split("\n"):
        m = re.match(r"\s*(#[\w.$-]+)\s*=\s*#ttng\.tensor_memory\s*$", strip_comment(l))
        if m:
            names.append(m.group(1))
    return [re.compile(re.escape(n) + r"(?![\w.$-])") for n in names]


def statement_at(text, line):
    """The op at a 1-based line with the lines that continue it (types,
    attributes or operands on lines of their own), as a string on which
    `pattern in statement` searches a compiled pattern."""
    lines = text.split("\n")
    out = [strip_comment(lines[line - 1])] if 1 <= line <= len(lines) else []
    k = line
    while k < len(lines):
        nxt = strip_comment(lines[k]).strip()
        prev = out[-1].rstrip() if out else ""
        if nxt[:1] in ("!", ":", "*", "{", "(", "<") or nxt.startswith("->") or prev.endswith((":", ",", "->", "*")):
            out.append(nxt)
            k += 1
        else:
            break
    return _Stmt(" ".join(out))


class _Stmt(str):
    def __contains__(self, pat):
        return bool(pat.search(self)) if hasattr(pat, "search") else str.__contains__(self, pat)


def reason_class(op, reason):
    """A short class of a not-modelled reason, for the table."""
    r = reason.lower()
    short = op.split(".", 1)[-1]
    if "unknown field" in r:
        m = re.search(r"unknown field '([^']+)'", reason)
        return "layout field %s not read" % (m.group(1) if m else "?")
    if "not supported here" in r or "register layout not read" in r or "encoding is not defined" in r:
        return "layout not read (%s)" % short
    if op.startswith("ttng.warp_group_dot"):
        return "wgmma"
    if op == "amdg.buffer_load_to_local":
        return "buffer_load_to_local"
    if op in ("tt.scan", "tt.histogram", "ttg.warp_specialize"):
        return short
    if "allocation.offset" in r:
        return "allocation.offset (%s)" % short
    if "tensor memory" in r:
        return "tensor memory (%s)" % short
    if "shared-memory descriptor" in r:
        return "memdesc op (%s)" % short
    if "scalar atomic" in r:
        return "scalar atomic" if op.startswith("tt.atomic_") else "'scalar atomic' (%s)" % short
    if "accesses per warp" in r:
        return "%s: too many accesses" % short
    if "threads-per-warp" in r or "wave size" in r:
        return "%s: warp size" % short
    return "%s: %s" % (short, re.sub(r"^[\w.]+: ", "", reason)[:48])


def refusal_class(msg, module_text):
    m = msg.lower()
    if "expected-error" in module_text:
        return "Triton rejects it too (expected-error)"
    if "no `module attributes" in m or "not a whole ttgir module" in m:
        return "no module header (documented)"
    if "ttg.num-warps" in m:
        return "no ttg.num-warps (documented)"
    if "ttg.target" in m:
        return "no ttg.target (documented)"
    if "triton < 3.2" in m:
        return "Triton < 3.2 (documented)"
    if "threads per warp, arch" in m:
        return "no arch with its warp size (target)"
    tail = re.sub(r"^.*?column \d+: ", "", msg.strip().split("\n")[0])
    return "UNDOCUMENTED: " + tail[:48]


def run_tool(tool, path, args, timeout):
    try:
        p = subprocess.run([tool, "triton", path] + args, capture_output=True, text=True, timeout=timeout,
                           errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", "timeout after %ss" % timeout


def check_module(tool, fname, first_line, mtext, runs, timeout, tmpdir):
    rec = OrderedDict(file=fname, line=first_line)
    target, target_from = choose_target(mtext, runs)
    text, how = give_target(mtext, target)
    rec["target"] = target if how is None else ("(own)" if how == "own" else "-")
    rec["target_from"] = target_from if how is None else how
    if how == "own":
        m = re.search(r"\"?ttg\.target\"?\s*=\s*\"([^\"]*)\"", "\n".join(strip_comment(l) for l in mtext.split("\n")))
        rec["target"] = m.group(1) if m else "?"
    path = os.path.join(tmpdir, "module.mlir")
    with open(path, "w") as f:
        f.write(text)
    arch = []
    rc, out, err = run_tool(tool, path, ["--json"], timeout)
    retry = None
    tpw = re.search(r"\"?ttg\.threads-per-warp\"?\s*=\s*(\d+)", "\n".join(strip_comment(l) for l in text.split("\n")))
    tpw = tpw.group(1) if tpw else "32"
    amd = "gfx" in rec["target"] or "hip" in rec["target"]
    if rc == 2 and ("no arch preset" in err or "is neither hip:" in err):
        # the module's own ttg.target names no preset (cuda:0, gfx950 without
        # hip:, gfx940): cost it on a preset of its vendor and warp size
        retry = {("64", True): "gfx942", ("32", True): "gfx1100", ("32", False): "sm_90", ("64", False): "gfx942"}.get((tpw, amd))
    m = re.search(r"the module has (\d+) threads per warp, arch (\S+) (\d+)", err)
    if rc == 2 and m:
        retry = {("64", True): "gfx942", ("32", True): "gfx1100", ("32", False): "sm_90", ("64", False): "gfx942"}.get((m.group(1), amd))
        if retry is None:
            rec["target_note"] = "%s threads per warp: no arch preset has that warp size" % m.group(1)
    if retry:
        rec["target_note"] = "refused on its target (%s); read again with --arch %s" % (err.strip().split(": ")[-1][:120],
                                                                                       retry)
        arch = ["--arch", retry]
        rc, out, err = run_tool(tool, path, ["--json"] + arch, timeout)
    rc_plain, _out_plain, err_plain = run_tool(tool, path, arch, timeout)
    rec["rc"], rec["rc_plain"] = rc, rc_plain
    sanitizer = SANITIZER_RE.search(err) or SANITIZER_RE.search(err_plain)
    if sanitizer or rc not in (0, 1, 2) or rc_plain not in (0, 1, 2):
        rec["outcome"] = "crash"
        rec["message"] = (err or err_plain).strip()[-2000:]
        return rec
    if rc == 2:
        rec["outcome"] = "refused"
        rec["message"] = err.strip().split("\n")[0][:400]
        rec["refusal"] = refusal_class(err, mtext)
        if rc_plain != 2:
            rec["plain_differs"] = True
        return rec
    try:
        j = json.loads(out)
    except ValueError as e:
        rec["outcome"] = "crash"
        rec["message"] = "JSON does not parse: %s" % e
        return rec
    rec["outcome"] = "read"
    if rc_plain != rc:
        rec["plain_differs"] = True
    listed = {}
    for o in j.get("ops", []):
        listed.setdefault(o["line"], []).append(o["op"])
    nm = Counter()
    for o in j.get("not_modelled", []):
        listed.setdefault(o["line"], []).append(o["op"])
        nm[reason_class(o["op"], o.get("reason", ""))] += 1
    rec["ops"] = len(j.get("ops", []))
    rec["modelled"] = sum(1 for o in j.get("ops", []) if o.get("modelled"))
    rec["not_modelled"] = dict(nm)
    dropped = []
    for line, name in watched_ops(text):
        names = listed.get(line, [])
        if not any(n == name or n.startswith(name) for n in names):
            dropped.append("%s@%d" % (name, line))
    rec["dropped"] = dropped
    wrong = []
    for line, names in listed.items():
        src = op_at_line(text, line)
        for n in names:
            if not re.search(r"(^|[\s=\"])" + re.escape(n) + r"(?=[\s(<{:\"]|$)", src):
                wrong.append("%s@%d" % (n, line))
    rec["wrong_kind"] = wrong
    # a reason that names another op's evidence: a tc_gen5_mma called a
    # scalar atomic, an op on tensor memory (#ttng.tensor_memory, directly
    # or through an alias) called an op on a shared-memory descriptor
    tmem = tensor_memory_names(text)
    wrong_reason = []
    for o in j.get("not_modelled", []):
        reason = o.get("reason", "")
        if "scalar atomic" in reason and not o["op"].startswith("tt.atomic_"):
            wrong_reason.append("%s@%d (called a scalar atomic)" % (o["op"], o["line"]))
        elif "shared-memory descriptor" in reason and any(t in statement_at(text, o["line"]) for t in tmem):
            wrong_reason.append("%s@%d (tensor memory called shared)" % (o["op"], o["line"]))
    rec["wrong_reason"] = wrong_reason
    return rec


def summarize(items):
    """'op@line (why)' items as 'why (op): n', for the table."""
    c = Counter()
    for it in items:
        m = re.match(r"([\w.]+)@\d+(?: \((.*)\))?", it)
        c["%s (%s)" % (m.group(2) or "wrong op", m.group(1).split(".", 1)[-1]) if m else it] += 1
    return ", ".join("%s: %d" % kv for kv in sorted(c.items()))


def read_manifest(d):
    commits = {}
    p = os.path.join(d, "MANIFEST.txt")
    if os.path.exists(p):
        for l in open(p):
            if l.startswith("#") or "|" not in l:
                continue
            parts = [x.strip() for x in l.split("|")]
            if len(parts) >= 4:
                commits[parts[0]] = (parts[1], parts[2], parts[3])
    return commits


def find_tool(arg):
    if arg:
        return arg
    if os.environ.get("LAYOUT_BIN"):
        return os.environ["LAYOUT_BIN"]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for b in ("build", "build-lit"):
        p = os.path.join(root, b, "bin", "layout")
        if os.path.exists(p):
            return p
    return "layout"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?", default=os.environ.get("LAYOUT_TRITON_LIT_DIR"))
    ap.add_argument("--layout", help="the layout tool (default: $LAYOUT_BIN, build/bin/layout)")
    ap.add_argument("--records", help="write one JSON record per module to this file")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--only", help="only files whose name contains this")
    a = ap.parse_args()
    if not a.dir or not os.path.isdir(a.dir):
        sys.stderr.write("peer_check.py: give the directory of Triton lit files (argument or LAYOUT_TRITON_LIT_DIR)\n")
        return 2
    tool = find_tool(a.layout)
    commits = read_manifest(a.dir)
    files = sorted(f for f in os.listdir(a.dir) if f.endswith(".mlir") and (not a.only or a.only in f))
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        for fname in files:
            text = open(os.path.join(a.dir, fname), errors="replace").read()
            runs = run_targets(text)
            for first, mtext in split_modules(text):
                records.append(check_module(tool, fname, first, mtext, runs, a.timeout, tmp))
    if a.records:
        with open(a.records, "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
    bad = 0
    print("| file | commit | modules | read | refused (reason: n) | not modelled (reason: n) | dropped | wrong kind / reason | crashes |")
    print("|---|---|---|---|---|---|---|---|---|")
    tot = Counter()
    for fname in files:
        rs = [r for r in records if r["file"] == fname]
        read = [r for r in rs if r["outcome"] == "read"]
        ref = Counter(r["refusal"] for r in rs if r["outcome"] == "refused")
        crashes = [r for r in rs if r["outcome"] == "crash"]
        nm = Counter()
        for r in read:
            nm.update(r["not_modelled"])
        dropped = [d for r in read for d in r["dropped"]]
        wrong = [w for r in read for w in r["wrong_kind"] + r["wrong_reason"]]
        undoc = sum(n for k, n in ref.items() if k.startswith("UNDOCUMENTED"))
        bad += len(crashes) + len(dropped) + len(wrong) + undoc
        tot.update(modules=len(rs), read=len(read), refused=sum(ref.values()), crashes=len(crashes),
                   dropped=len(dropped), wrong=len(wrong), undocumented=undoc)
        c = commits.get(fname)
        path = c[0] if c else fname
        commit = c[2][:10] if c else "?"
        print("| %s | %s | %d | %d | %s | %s | %s | %s | %s |" % (
            path, commit, len(rs), len(read),
            ", ".join("%s: %d" % kv for kv in sorted(ref.items())) or "0",
            ", ".join("%s: %d" % kv for kv in sorted(nm.items())) or "-",
            ", ".join(dropped) or "0", summarize(wrong) or "0",
            ", ".join("line %d" % r["line"] for r in crashes) or "0"))
    print()
    print("files %d, modules %d: read %d, refused %d (undocumented %d), crashes %d, dropped ops %d, wrong kinds or reasons %d"
          % (len(files), tot["modules"], tot["read"], tot["refused"], tot["undocumented"], tot["crashes"],
             tot["dropped"], tot["wrong"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
