"""Triton kernels as Triton prints them (TTGIR) and profiler CSV: ttgir.h and
profile.h through ctypes.  Every figure is the C library's."""

import ctypes
import os
from typing import List, Optional, Union

from . import _native as N
from ._text import _text_of

__all__ = ["TritonType", "TritonOp", "TritonKernel", "triton_kernel", "ProfileDispatch", "read_profile"]

_KIND_NAMES = ["ttg.local_alloc", "ttg.local_store", "ttg.local_load", "ttg.local_dealloc",
               "ttg.async_copy_global_to_local", "amdg.buffer_load_to_local", "ttg.memdesc_index",
               "ttg.convert_layout", "ttng.warp_group_dot", "tt.reduce", "tt.scan", "tt.histogram", "tt.gather",
               "ttg.warp_specialize"]  # then LAYOUT_TTGIR_OTHER_SHARED: the name as the text spells it

_COUNTERS = ["shared_st_conflicts", "shared_ld_conflicts", "shared_st_wavefronts", "shared_ld_wavefronts",
             "shared_st_insts", "shared_ld_insts", "SQ_LDS_BANK_CONFLICT", "SQ_INSTS_LDS"]


def _lib() -> N.Native:
    lib = N.native()
    if not getattr(lib, "_ttgir_ready", False):
        E = ctypes.POINTER(N.Error)
        lib._proto("layout_ttgir_parse", ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, E)
        lib._proto("layout_ttgir_encoding", ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                   ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t))
        lib._proto("layout_ttgir_op_loc", ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p,
                   ctypes.c_size_t)
        lib._proto("layout_profile_from_csv", ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, E)
        for t in ("layout_ttgir", "layout_ttgir_op", "layout_ttgir_type", "layout_profile",
                  "layout_profile_dispatch"):
            lib.sizeof[t] = lib.lib.layout_abi_sizeof(t.encode())
        lib._ttgir_ready = True
    return lib


def _i32(addr: int) -> int:
    return int(ctypes.c_int.from_address(addr).value)


def _i64(addr: int) -> int:
    return int(ctypes.c_int64.from_address(addr).value)


def _size(addr: int) -> int:
    return int(ctypes.c_size_t.from_address(addr).value)


class TritonType:
    """A tensor or shared-memory descriptor type of an op.

    Attributes:
        is_memdesc: True for ``!ttg.memdesc<...>`` (shared memory), False for a register tensor.
        shape: the shape, outermost first (a memdesc's leading buffer dim included).
        elem: the element type as printed (``f16``, ``bf16``, ``f8E4M3FN``, ``!tt.ptr<f16>`` ...).
        elem_bits: its bits (pointers 64; 0 when unknown).
        layout: the layout attribute text, aliases resolved (``#ttg.swizzled_shared<{...}>``), or None.
        mutable: a memdesc printed ``mutable``.
    """

    __slots__ = ("is_memdesc", "shape", "elem", "elem_bits", "layout", "mutable")

    def __repr__(self) -> str:
        kind = "memdesc" if self.is_memdesc else "tensor"
        return f"{kind}<{'x'.join(map(str, self.shape))}x{self.elem}, {self.layout}>"


class TritonOp:
    """One op of the kernel that touches shared memory.

    Attributes:
        kind: its TTGIR name (``ttg.local_alloc``, ``ttg.local_load``, ...).
        line, column: its position in the TTGIR text (1-based).
        loc: its source location, ``"file.py":line:col`` (callsites resolved to the kernel's own line), or "".
        result, operand: its first result and operand (``%acc_40``), or "".
        src, dst: its operand and result types (:class:`TritonType`).
    """

    __slots__ = ("kind", "line", "column", "loc", "result", "operand", "src", "dst")

    def __repr__(self) -> str:
        return f"{self.kind} at line {self.line} ({self.loc}): {self.src} -> {self.dst}"


class TritonKernel:
    """A TTGIR module: ``target`` (``hip:gfx942``, ``cuda:90``), ``num_warps``, ``threads_per_warp``,
    ``num_ctas``, ``layouts`` (alias name -> attribute text) and ``ops`` (:class:`TritonOp`)."""

    __slots__ = ("target", "num_warps", "threads_per_warp", "num_ctas", "layouts", "ops", "_text")

    def __repr__(self) -> str:
        return (f"TritonKernel({self.target}, {self.num_warps} warps x {self.threads_per_warp}, "
                f"{len(self.ops)} shared-memory ops)")

    def report(self, arch: Optional[str] = None) -> dict:
        """The kernel's shared-memory cost report (liblayout.triton.report(): per op the
        instructions one warp issues as Triton 3.6 lowers it and their bank conflicts,
        ``per_warp_total``, ``not_modelled``, ``suggestions``), on its target or on ``arch``."""
        from .triton import report

        return report(self._text, arch=arch)


def triton_kernel(path_or_text: Union[str, bytes, os.PathLike]) -> TritonKernel:
    """Read a Triton kernel's TTGIR (``kernel.asm["ttgir"]``, or the path of a ``.ttgir`` file)
    with ``layout_ttgir_parse``; raises :class:`LayoutError` (line and column) on malformed text."""
    text = _text_of(path_or_text)
    lib = _lib()
    m = lib.blob("layout_ttgir")
    err = N.Error()
    keep = ctypes.create_string_buffer(text, len(text))  # the module points into the text
    status = lib.lib.layout_ttgir_parse(keep, len(text), m.ptr, ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err)
    base = m.ptr.value
    off = lib.offsetof
    k = TritonKernel()
    k._text = text
    k.target = ctypes.string_at(base + off("layout_ttgir", "target")).decode()
    k.num_warps = _i32(base + off("layout_ttgir", "num_warps"))
    k.threads_per_warp = _i32(base + off("layout_ttgir", "threads_per_warp"))
    k.num_ctas = _i32(base + off("layout_ttgir", "num_ctas"))
    text_addr = ctypes.addressof(keep)
    k.layouts = {}
    alias_size = lib.lib.layout_abi_sizeof(b"layout_ttgir_alias")
    for i in range(_i32(base + off("layout_ttgir", "n_aliases"))):
        a = base + off("layout_ttgir", "aliases") + i * alias_size
        name = text[_size(a + off("layout_ttgir_alias", "name_at")):][:_size(a + off("layout_ttgir_alias", "name_len"))]
        body = text[_size(a + off("layout_ttgir_alias", "text_at")):][:_size(a + off("layout_ttgir_alias", "text_len"))]
        k.layouts[name.decode()] = body.decode()
    op_size = lib.sizeof["layout_ttgir_op"]
    type_size = lib.sizeof["layout_ttgir_type"]
    k.ops = []
    for i in range(_i32(base + off("layout_ttgir", "n_ops"))):
        o = base + off("layout_ttgir", "ops") + i * op_size
        op = TritonOp()
        kind = _i32(o + off("layout_ttgir_op", "kind"))
        name_at = _size(o + off("layout_ttgir_op", "name_at"))
        op.kind = (_KIND_NAMES[kind] if 0 <= kind < len(_KIND_NAMES)
                   else text[name_at:name_at + _size(o + off("layout_ttgir_op", "name_len"))].decode("utf-8", "replace")
                   or "?")
        op.line = _i32(o + off("layout_ttgir_op", "line"))
        op.column = _i32(o + off("layout_ttgir_op", "column"))
        op.result = text[_size(o + off("layout_ttgir_op", "result_at")):][
            :_size(o + off("layout_ttgir_op", "result_len"))].decode()
        op.operand = text[_size(o + off("layout_ttgir_op", "operand_at")):][
            :_size(o + off("layout_ttgir_op", "operand_len"))].decode()
        buf = ctypes.create_string_buffer(1024)
        lib.lib.layout_ttgir_op_loc(m.ptr, i, buf, len(buf))
        op.loc = buf.value.decode("utf-8", "replace")

        def types(field: str, count_field: str) -> List[TritonType]:
            out = []
            for j in range(_i32(o + off("layout_ttgir_op", count_field))):
                t = o + off("layout_ttgir_op", field) + j * type_size
                tt = TritonType()
                tt.is_memdesc = bool(_i32(t + off("layout_ttgir_type", "is_memdesc")))
                rank = _i32(t + off("layout_ttgir_type", "rank"))
                tt.shape = [_i64(t + off("layout_ttgir_type", "shape") + 8 * d) for d in range(rank)]
                tt.elem = ctypes.string_at(t + off("layout_ttgir_type", "elem")).decode()
                tt.elem_bits = _i32(t + off("layout_ttgir_type", "elem_bits"))
                tt.mutable = bool(_i32(t + off("layout_ttgir_type", "mutable_")))
                at = ctypes.c_void_p()
                n = ctypes.c_size_t()
                if lib.lib.layout_ttgir_encoding(m.ptr, ctypes.c_void_p(t), ctypes.byref(at), ctypes.byref(n)) == 0:
                    start = at.value - text_addr
                    tt.layout = text[start:start + n.value].decode()
                else:
                    tt.layout = None
                out.append(tt)
            return out

        op.src = types("src", "n_src")
        op.dst = types("dst", "n_dst")
        k.ops.append(op)
    return k


class ProfileDispatch:
    """One profiled kernel dispatch: ``kernel`` (name), ``id`` and ``counters`` (name -> value, only the
    measured ones: ``shared_ld_conflicts`` ... for Nsight Compute, ``SQ_LDS_BANK_CONFLICT`` and
    ``SQ_INSTS_LDS`` for rocprofv3)."""

    __slots__ = ("kernel", "id", "counters")

    def __repr__(self) -> str:
        return f"ProfileDispatch({self.kernel!r}, {self.counters})"


def read_profile(path_or_text: Union[str, bytes, os.PathLike]) -> List[ProfileDispatch]:
    """Read Nsight Compute or rocprofv3 CSV (a path or the text) with ``layout_profile_from_csv``."""
    text = _text_of(path_or_text, suffixes=(".csv",))
    lib = _lib()
    p = lib.blob("layout_profile")
    err = N.Error()
    status = lib.lib.layout_profile_from_csv(text, len(text), p.ptr, ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err)
    base = p.ptr.value
    off = lib.offsetof
    size = lib.sizeof["layout_profile_dispatch"]
    out: List[ProfileDispatch] = []
    for i in range(_i32(base + off("layout_profile", "n_dispatches"))):
        d = base + off("layout_profile", "dispatches") + i * size
        pd = ProfileDispatch()
        pd.kernel = ctypes.string_at(d + off("layout_profile_dispatch", "kernel")).decode("utf-8", "replace")
        pd.id = _i64(d + off("layout_profile_dispatch", "id"))
        present = int(ctypes.c_uint.from_address(d + off("layout_profile_dispatch", "present")).value)
        pd.counters = {name: _i64(d + off("layout_profile_dispatch", "value") + 8 * c)
                       for c, name in enumerate(_COUNTERS) if present >> c & 1}
        out.append(pd)
    return out

