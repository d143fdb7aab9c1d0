"""Triton kernels as Triton prints them (TTGIR) and profiler CSV: ttgir.h and
profile.h through ctypes.  Every figure is the C library's."""

import ctypes
import os
from typing import List, Optional, Union

from . import _native as N
from ._text import _text_of

__all__ = ["TritonType", "TritonOp", "TritonKernel", "triton_kernel", "IrOp", "IrValue", "ProfileDispatch",
           "read_profile"]

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


class IrValue:
    """An SSA value of the module's IR (``layout_ttgir::ir``): ``name`` (``%acc_40``; a result group's
    name without ``#k``), ``def_op`` (the index in :attr:`TritonKernel.ir` of the op whose result it is,
    None for a block argument), ``index`` (result or argument number) and ``type`` (the printed type it
    is read from, None when the text does not print it)."""

    __slots__ = ("name", "def_op", "index", "type")

    def __repr__(self) -> str:
        return f"IrValue({self.name}, def_op={self.def_op}, type={self.type!r})"


class IrOp:
    """Any op of the module, in text order: ``name`` (``tt.load``), ``line``, ``column``, ``results`` and
    ``operands`` (indices into :attr:`TritonKernel.values`; -1 for a value a fragment never defines),
    ``attrs`` (name -> value text: ``{"axis": "1 : i32"}``), ``parent`` (the index of the op holding it
    in a region, None at the top level), ``regions`` (per region, per block, the indices of its ops) and
    ``loc`` (its ``loc(...)`` contents)."""

    __slots__ = ("name", "line", "column", "results", "operands", "attrs", "parent", "regions", "loc")

    def __repr__(self) -> str:
        return f"IrOp({self.name}, line {self.line}, {len(self.operands)} operands, {len(self.results)} results)"


class TritonKernel:
    """A TTGIR module: ``target`` (``hip:gfx942``, ``cuda:90``), ``num_warps``, ``threads_per_warp``,
    ``num_ctas``, ``layouts`` (alias name -> attribute text), ``ops`` (:class:`TritonOp`, the ops that
    touch shared memory), and the whole module as an IR: ``ir`` (every op, :class:`IrOp`) and ``values``
    (:class:`IrValue`)."""

    __slots__ = ("target", "num_warps", "threads_per_warp", "num_ctas", "layouts", "ops", "ir", "values", "_text")

    def users(self, value: int) -> List[int]:
        """The indices of the ops (in :attr:`ir`) that take value ``value`` as an operand."""
        return [i for i, op in enumerate(self.ir) if value in op.operands]

    def find(self, name: str) -> List[int]:
        """The indices of the ops named ``name`` (``"tt.reduce"``), in text order."""
        return [i for i, op in enumerate(self.ir) if op.name == name]

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
    _read_ir(lib, base, text, k)
    return k


def _span(text: bytes, addr: int) -> Optional[str]:
    at = int(ctypes.c_uint32.from_address(addr).value)
    n = int(ctypes.c_uint32.from_address(addr + 4).value)
    return text[at:at + n].decode("utf-8", "replace") if n else None


def _read_ir(lib: N.Native, base: int, text: bytes, k: TritonKernel) -> None:
    """The module's IR (layout_ttgir::ir) into k.ir and k.values, through the ABI's offsets."""
    off = lib.offsetof
    size = lib.lib.layout_abi_sizeof
    ir = base + off("layout_ttgir", "ir")
    op_size, val_size, attr_size = size(b"layout_ttgir_ir_op"), size(b"layout_ttgir_value"), size(b"layout_ttgir_attr")
    reg_size, blk_size = size(b"layout_ttgir_region"), size(b"layout_ttgir_block")
    ops_at, vals_at = ir + off("layout_ttgir_ir", "ops"), ir + off("layout_ttgir_ir", "values")
    uses_at, attrs_at = ir + off("layout_ttgir_ir", "uses"), ir + off("layout_ttgir_ir", "attrs")
    regs_at, blks_at = ir + off("layout_ttgir_ir", "regions"), ir + off("layout_ttgir_ir", "blocks")
    k.values = []
    for v in range(_i32(ir + off("layout_ttgir_ir", "n_values"))):
        a = vals_at + v * val_size
        iv = IrValue()
        iv.name = _span(text, a + off("layout_ttgir_value", "name"))
        d = _i32(a + off("layout_ttgir_value", "def_op"))
        iv.def_op = d if d >= 0 else None
        iv.index = _i32(a + off("layout_ttgir_value", "index"))
        iv.type = (_span(text, a + off("layout_ttgir_value", "type"))
                   if _i32(a + off("layout_ttgir_value", "rule")) == 0 else None)
        k.values.append(iv)

    def field(a: int, f: str) -> int:
        return _i32(a + off("layout_ttgir_ir_op", f))

    k.ir = []
    blocks_of = {}
    for i in range(_i32(ir + off("layout_ttgir_ir", "n_ops"))):
        a = ops_at + i * op_size
        op = IrOp()
        op.name = _span(text, a + off("layout_ttgir_ir_op", "name")) or ""
        op.line, op.column = field(a, "line"), field(a, "column")
        op.results = list(range(field(a, "first_result"), field(a, "first_result") + field(a, "n_results")))
        op.operands = [_i32(uses_at + 4 * (field(a, "first_use") + q)) for q in range(field(a, "n_uses"))]
        op.attrs = {}
        for q in range(field(a, "n_attrs")):
            at = attrs_at + (field(a, "first_attr") + q) * attr_size
            op.attrs[_span(text, at + off("layout_ttgir_attr", "name")) or ""] = \
                _span(text, at + off("layout_ttgir_attr", "value")) or ""
        op.loc = _span(text, a + off("layout_ttgir_ir_op", "loc"))
        blk = field(a, "parent_block")
        op.parent = None
        if blk >= 0:
            region = _i32(blks_at + blk * blk_size + off("layout_ttgir_block", "parent_region"))
            op.parent = _i32(regs_at + region * reg_size + off("layout_ttgir_region", "parent_op"))
            blocks_of.setdefault(blk, []).append(i)
        op.regions = []
        r = field(a, "first_region") if field(a, "n_regions") > 0 else -1
        while r >= 0:
            blocks = []
            b = _i32(regs_at + r * reg_size + off("layout_ttgir_region", "first_block"))
            while b >= 0:
                blocks.append(b)
                b = _i32(blks_at + b * blk_size + off("layout_ttgir_block", "next"))
            op.regions.append(blocks)
            r = _i32(regs_at + r * reg_size + off("layout_ttgir_region", "next"))
        k.ir.append(op)
    for op in k.ir:  # block indices -> the ops of each block, in order
        op.regions = [[blocks_of.get(b, []) for b in blocks] for blocks in op.regions]


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

