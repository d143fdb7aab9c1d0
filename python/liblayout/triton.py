"""A Triton kernel's shared-memory cost, from its TTGIR or from inside Triton.

``report(path_or_text)`` reads a kernel's TTGIR (``kernel.asm["ttgir"]`` or a
``.ttgir`` file) and returns what ``layout triton --json`` prints: per
shared-memory op, the instructions one warp issues as Triton 3.6 lowers it,
their bank conflicts as the checker counts them, and per kernel
``per_warp_total`` (mnemonic -> instructions per warp) and ``not_modelled``
(each op left out, with its location and reason).

``watch()`` installs a Triton compile hook
(``triton.knobs.runtime.add_stages_inspection_hook``) that wraps the
``ttgir`` stage without changing its result and reports every kernel Triton
compiles in this process::

    import liblayout.triton
    liblayout.triton.watch()          # one line, before the kernels compile
    matmul_kernel[grid](...)          # prints each shared-memory op's cost

Every figure is the C library's (``triton_kernel.h``); this module only calls
it and formats.  Thread safety: ``report`` may be called from any thread;
``watch`` sets a process-wide Triton knob (call it once, from one thread).
"""

from __future__ import annotations

import ctypes
import json
import sys
import warnings
from typing import Any, Callable, Dict, List, Optional, TextIO, Union

from . import _native as N
from ._errors import Status
from ._text import _text_of

__all__ = ["report", "ranked", "apply", "stream", "format_report", "watch", "Watch"]


def _lib() -> N.Native:
    lib = N.native()
    if not getattr(lib, "_triton_kernel_ready", False):
        E = ctypes.POINTER(N.Error)
        lib._proto("layout_ttgir_parse", ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, E)
        lib._proto("layout_triton_kernel_report_json", ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p,
                   ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, E)
        lib._proto("layout_triton_kernel_analyze", ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, E)
        lib._proto("layout_triton_kernel_json", ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p,
                   ctypes.c_size_t, ctypes.c_void_p, E)
        lib._proto("layout_arch_preset", ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p, E)
        lib._proto("layout_triton_kernel_ranked_json", ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                   ctypes.c_int, ctypes.c_uint, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, E)
        lib._proto("layout_triton_kernel_apply_text", ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p,
                   ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t), E)
        lib._proto("layout_triton_kernel_op_stream", ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                   ctypes.c_int, ctypes.POINTER(ctypes.c_int), E)
        lib._proto("layout_triton_pass_name", ctypes.c_char_p, ctypes.c_uint)
        lib._proto("layout_abi_offsetof", ctypes.c_int64, ctypes.c_char_p, ctypes.c_char_p)
        for t in ("layout_ttgir", "layout_triton_kernel", "layout_triton_inst"):
            lib.sizeof[t] = lib.lib.layout_abi_sizeof(t.encode())
        lib._triton_kernel_ready = True
    return lib


def _parsed(path_or_text: Union[str, bytes, "os.PathLike[str]"]) -> Any:
    """(lib, module blob, kernel blob, error, the text buffer the module points into, text):
    the TTGIR read by layout_ttgir_parse; raises LayoutError with its line and column."""
    text = _text_of(path_or_text)
    lib = _lib()
    m = lib.blob("layout_ttgir")
    k = lib.blob("layout_triton_kernel")
    err = N.Error()
    keep = ctypes.create_string_buffer(text, len(text))  # the module points into the text
    status = lib.lib.layout_ttgir_parse(keep, len(text), m.ptr, ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err)
    return lib, m, k, err, keep, text


def report(path_or_text: Union[str, bytes, "os.PathLike[str]"], arch: Optional[str] = None,
           suggest: bool = True) -> Dict[str, Any]:
    """The cost report of a kernel's TTGIR, as a dict (the JSON of ``layout triton --json``).

    ``arch`` names an architecture preset (``"gfx950"``, ``"sm_90"``) instead of
    the module's ``ttg.target``.  ``suggest=False`` leaves out the search for
    better layouts (the keys ``suggestions``, ``lds_bytes``, ``lds_bound*``):
    the report is then the C library's analysis alone, a few milliseconds
    for a 300-line attention kernel, where the search costs most of the
    time.  Raises :class:`liblayout.LayoutError` with the line and column of
    malformed text, or naming an unknown target."""
    lib, m, k, err, keep, text = _parsed(path_or_text)
    if not suggest:
        preset = None
        if arch:
            preset = lib.blob("layout_arch")
            if lib.lib.layout_arch_preset(arch.encode(), preset.ptr, ctypes.byref(err)) != 0:
                raise lib.fail(Status.ERR_ARG, err)
        status = lib.lib.layout_triton_kernel_analyze(m.ptr, preset.ptr if preset else None, k.ptr, ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err)
    cap = 1 << 16
    while True:
        buf = ctypes.create_string_buffer(cap)
        if not suggest:
            status = lib.lib.layout_triton_kernel_json(k.ptr, None, buf, cap, None, ctypes.byref(err))
        else:
            status = lib.lib.layout_triton_kernel_report_json(m.ptr, arch.encode() if arch else None, k.ptr, buf,
                                                              cap, ctypes.byref(err))
        if status != Status.ERR_BUFFER or cap >= 1 << 28:
            break
        cap *= 4
    if status != 0:
        raise lib.fail(status, err)
    return json.loads(buf.value.decode())


def stream(path_or_text: Union[str, bytes, "os.PathLike[str]"], arch: Optional[str] = None) -> List[Dict[str, Any]]:
    """Each shared-memory op's instructions one by one (``layout_triton_kernel_op_stream``,
    ``layout triton --stream``): one warp, program order, after LLVM's LoadStoreVectorizer,
    AMDGPU's SILoadStoreOptimizer (within and across ops) and ptxas's sunk load.

    A list with one dict per op of the report: ``op`` (its index), ``line``, ``name`` and either
    ``instructions`` (dicts: ``mnemonic``, ``bytes`` per lane, ``offset`` from the base
    register, ``buffer_offset`` (-1: not known), ``base_reg``, ``accesses`` merged into it,
    ``partner_op`` / ``partner`` (-1: unpaired), ``pair_form`` (0, 1, 2: st64), ``standing``
    (the half counted), ``passes`` (names), ``lanes``: the active lane count of each warp,
    ``extra`` / ``total``: warp 0's cost, ``confidence``: its op's) or ``not_listed``: why (an op not modelled, or
    lowered another way; its counts are in :func:`report`).  Raises
    :class:`liblayout.LayoutError` on malformed text or an unknown target."""
    lib, m, k, err, keep, text = _parsed(path_or_text)
    preset = None
    if arch:
        preset = lib.blob("layout_arch")
        if lib.lib.layout_arch_preset(arch.encode(), preset.ptr, ctypes.byref(err)) != 0:
            raise lib.fail(Status.ERR_ARG, err)
    status = lib.lib.layout_triton_kernel_analyze(m.ptr, preset.ptr if preset else None, k.ptr, ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err)
    rep = json.loads(_kernel_json(lib, k, err))
    size = lib.sizeof["layout_triton_inst"]
    off = {f: lib.lib.layout_abi_offsetof(b"layout_triton_inst", f.encode()) for f in (
        "mnemonic", "bytes", "offset", "buffer_offset", "base_reg", "accesses", "partner_op", "partner", "pair_form",
        "standing", "passes", "n_warps", "lanes", "extra_cycles", "total_cycles", "confidence")}
    cap = 1024
    buf = ctypes.create_string_buffer(size * cap)
    base = ctypes.addressof(buf)
    out = []
    for i, op in enumerate(rep["ops"]):
        entry: Dict[str, Any] = {"op": i, "line": op["line"], "name": op["op"]}
        n = ctypes.c_int(0)
        if lib.lib.layout_triton_kernel_op_stream(k.ptr, i, buf, cap, ctypes.byref(n), ctypes.byref(err)) != 0:
            entry["not_listed"] = err.message.decode(errors="replace")
            out.append(entry)
            continue
        insts = []
        for j in range(min(n.value, cap)):
            a = base + j * size
            i32 = lambda f: int(ctypes.c_int.from_address(a + off[f]).value)  # noqa: E731
            i64 = lambda f: int(ctypes.c_int64.from_address(a + off[f]).value)  # noqa: E731
            passes = int(ctypes.c_uint.from_address(a + off["passes"]).value)
            lanes = [bin(int(ctypes.c_uint64.from_address(a + off["lanes"] + 8 * w).value)).count("1")
                     for w in range(i32("n_warps"))]
            insts.append({"mnemonic": ctypes.string_at(a + off["mnemonic"]).decode(), "bytes": i32("bytes"),
                          "offset": i64("offset"), "buffer_offset": i64("buffer_offset"),
                          "base_reg": int(ctypes.c_uint64.from_address(a + off["base_reg"]).value),
                          "accesses": i32("accesses"), "partner_op": i32("partner_op"), "partner": i32("partner"),
                          "pair_form": i32("pair_form"), "standing": bool(i32("standing")),
                          "passes": [lib.lib.layout_triton_pass_name(1 << b).decode() for b in range(4)
                                     if passes >> b & 1],
                          "lanes": lanes, "extra": i64("extra_cycles"), "total": i64("total_cycles"),
                          "confidence": ("low", "medium", "high")[i32("confidence")]
                          if 0 <= i32("confidence") <= 2 else "?"})
        entry["instructions"] = insts
        out.append(entry)
    return out


def _kernel_json(lib: N.Native, k: Any, err: Any) -> str:
    cap = 1 << 16
    while True:
        buf = ctypes.create_string_buffer(cap)
        status = lib.lib.layout_triton_kernel_json(k.ptr, None, buf, cap, None, ctypes.byref(err))
        if status != Status.ERR_BUFFER or cap >= 1 << 28:
            break
        cap *= 4
    if status != 0:
        raise lib.fail(status, err)
    return buf.value.decode()


def ranked(path_or_text: Union[str, bytes, "os.PathLike[str]"], arch: Optional[str] = None, alloc: int = -1,
           top_k: int = 8, families: int = 0) -> Dict[str, Any]:
    """The ``top_k`` best shared layouts of one allocation, best first, each with the cost of its
    writers and of its readers (``layout_triton_kernel_ranked_json``), as a dict: ``alloc``,
    ``current`` / ``current_cost`` / ``current_bytes``, ``budget_bytes``, ``scored``, and
    ``ranked``: entries with ``attr``, ``gluon``, ``cost``, ``extra``, ``bytes``, ``write`` /
    ``read`` (``{"cost", "extra"}``) and ``ops`` (each op lowered under ``attr``, as
    :func:`report` renders ops).  ``alloc`` -1: the first allocation the search ran on;
    ``top_k`` 1..16; ``families``: the search's family bits (1 swizzled_shared, 2 padded_shared,
    4 amd_rotating_shared, 8 nvmma_shared; 0 = all the target accepts).  Raises :class:`liblayout.LayoutError` (malformed text, unknown target,
    an allocation that was not searched: the reason)."""
    lib, m, k, err, keep, text = _parsed(path_or_text)
    cap = 1 << 17
    while True:
        buf = ctypes.create_string_buffer(cap)
        status = lib.lib.layout_triton_kernel_ranked_json(m.ptr, arch.encode() if arch else None, int(alloc),
                                                          int(top_k), int(families), k.ptr, buf, cap,
                                                          ctypes.byref(err))
        if status != Status.ERR_BUFFER or cap >= 1 << 28:
            break
        cap *= 4
    if status != 0:
        raise lib.fail(status, err)
    return json.loads(buf.value.decode())


def apply(path_or_text: Union[str, bytes, "os.PathLike[str]"], arch: Optional[str] = None) -> str:
    """The TTGIR with every improving suggestion applied (``layout triton --apply``).

    Allocations a rule keeps (wgmma operands, ``ds_read_b64_tr`` reads, ops not
    modelled) are left as they are; ``arch`` as in :func:`report`.  Raises
    :class:`liblayout.LayoutError` on malformed text or an unknown target."""
    lib, m, k, err, keep, text = _parsed(path_or_text)
    need = ctypes.c_size_t(0)
    cap = len(text) + (1 << 14)
    buf = ctypes.create_string_buffer(cap)
    status = lib.lib.layout_triton_kernel_apply_text(m.ptr, arch.encode() if arch else None, k.ptr, buf, cap,
                                                     ctypes.byref(need), ctypes.byref(err))
    if status == Status.ERR_BUFFER:
        cap = need.value + 1
        buf = ctypes.create_string_buffer(cap)
        status = lib.lib.layout_triton_kernel_apply_text(m.ptr, arch.encode() if arch else None, k.ptr, buf, cap,
                                                         ctypes.byref(need), ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err)
    return buf.raw[:need.value].decode()


def _op_line(op: Dict[str, Any]) -> str:
    where = op.get("loc") or "line %s" % op.get("line")
    instrs = ", ".join("%d x %s" % (n, name) for name, n in op.get("instructions", {}).items())
    cost = op.get("cost", {})
    extra = cost.get("extra_cycles", cost.get("bank_conflicts", 0))
    flag = "CONFLICTS" if extra else "ok"
    return "  %-9s %s %s: %s per warp (%s %s)" % (flag, op.get("op", "?"), where, instrs or "-",
                                                 "extra cycles" if "extra_cycles" in cost else "bank conflicts",
                                                 extra)


def format_report(rep: Dict[str, Any], name: str = "") -> str:
    """A few lines per kernel: each shared-memory op's instructions and conflicts, the conflicted
    ones flagged, the suggested attribute where the report has one, and what was not modelled."""
    lines = ["liblayout: kernel %s (%s): %d shared-memory ops" % (name or rep.get("name", "?"), rep.get("target", "?"),
                                                                len(rep.get("ops", [])))]
    for op in rep.get("ops", []):
        if op.get("modelled", True):
            lines.append(_op_line(op))
    for s in rep.get("suggestions", []):
        lines.append("  suggest   %s for %s: %s (cost %s -> %s)" % (s.get("alloc", "?"), s.get("loc", ""),
                                                                 s.get("attr", "?"), s.get("current_cost"),
                                                                 s.get("cost")))
    for nm in rep.get("not_modelled", []):
        lines.append("  not modelled: %s %s: %s" % (nm.get("op", "?"), nm.get("loc") or "line %s" % nm.get("line"),
                                                    nm.get("reason", "")))
    total = rep.get("per_warp_total", {})
    if total:
        lines.append("  per warp: " + ", ".join("%d x %s" % (n, k) for k, n in total.items()))
    return "\n".join(lines)


class Watch:
    """The handle ``watch()`` returns: ``reports`` (one dict per kernel compiled since, with
    ``name`` added) and ``stop()``, which puts back the hook that was there before."""

    def __init__(self) -> None:
        self.reports: List[Dict[str, Any]] = []
        self._prev: Any = None
        self._knobs: Any = None
        self._hook: Any = None
        self._prev_always: Any = None

    def stop(self) -> None:
        if self._knobs is not None and self._knobs.runtime.add_stages_inspection_hook is self._hook:
            self._knobs.runtime.add_stages_inspection_hook = self._prev
            if self._prev_always is not None:
                self._knobs.compilation.always_compile = self._prev_always
        self._knobs = None


def watch(callback: Optional[Callable[[Dict[str, Any]], None]] = None, arch: Optional[str] = None,
          file: Optional[TextIO] = None, always_compile: bool = True, suggest: bool = False) -> Watch:
    """Report every kernel Triton compiles from now on in this process.

    Wraps the ``ttgir`` stage of Triton's pipeline (Triton 3.6's
    ``knobs.runtime.add_stages_inspection_hook``, chaining any hook already
    set): the stage's result is returned unchanged, and its text goes to
    :func:`report`.  Each report is appended to the returned handle's
    ``reports``, passed to ``callback`` if given, else printed with
    :func:`format_report` to ``file`` (default ``sys.stderr``); a conflicted op
    also raises a ``UserWarning``.  Triton does not key its cache on the hook,
    so ``always_compile`` (default) sets ``knobs.compilation.always_compile``
    so that cached kernels are seen too.  ``suggest`` (default off) adds the
    search for better layouts to each report (:func:`report`'s
    ``suggest``): measured on an H200 with Triton 3.6, the hook without the
    search adds 0.6 to 1.2 % to a compile, the search made a watched compile
    of a gfx950 attention kernel 36 % slower.  A failure of the report never fails
    the compile: it becomes a warning.  Raises ``ImportError`` where Triton is
    absent."""
    try:
        from triton import knobs  # type: ignore
    except ImportError as e:  # pragma: no cover - exercised where Triton is absent
        raise ImportError("liblayout.triton.watch() needs Triton (3.6 or later): %s" % e) from e
    handle = Watch()
    handle._knobs = knobs
    handle._prev = knobs.runtime.add_stages_inspection_hook
    out = file if file is not None else sys.stderr

    def deliver(rep: Dict[str, Any]) -> None:
        handle.reports.append(rep)
        if callback is not None:
            callback(rep)
        else:
            print(format_report(rep), file=out)
        bad = [op for op in rep.get("ops", []) if op.get("modelled", True)
               and (op.get("cost", {}).get("extra_cycles") or op.get("cost", {}).get("bank_conflicts"))]
        if bad:
            warnings.warn("liblayout: kernel %s has %d shared-memory op(s) with bank conflicts"
                          % (rep.get("name", "?"), len(bad)), UserWarning, stacklevel=2)

    def hook(backend: Any, stages: Dict[str, Any], options: Any, language: Any, capability: Any) -> None:
        if handle._prev is not None:
            handle._prev(backend, stages, options, language, capability)
        inner = stages.get("ttgir")
        if inner is None:
            return

        def ttgir_stage(src: Any, metadata: Dict[str, Any]) -> Any:
            mod = inner(src, metadata)
            try:
                text = str(mod)   # Triton prints the module once; report and name both read it
                rep = report(text, arch=arch, suggest=suggest)
                rep["name"] = metadata.get("name") or _kernel_name(text)
                deliver(rep)
            except Exception as e:  # the compile goes on; the report says why it failed
                warnings.warn("liblayout: no report for this kernel: %s" % e, UserWarning, stacklevel=2)
            return mod

        stages["ttgir"] = ttgir_stage

    handle._hook = hook
    knobs.runtime.add_stages_inspection_hook = hook
    if always_compile:
        handle._prev_always = knobs.compilation.always_compile
        knobs.compilation.always_compile = True
    return handle


def _kernel_name(text: str) -> str:
    """The first ``tt.func`` name of a module's text ("?" if none)."""
    at = text.find("tt.func")
    if at < 0:
        return "?"
    at = text.find("@", at)
    end = at + 1
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[at + 1:end] if at >= 0 else "?"
