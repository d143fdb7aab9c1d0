"""Exact shared-memory costs for Triton Gluon authors (``triton.experimental.gluon``, Triton 3.6).

A Gluon kernel names its layouts in Python; this module turns them into the
TTGIR attribute text Triton prints (``#ttg.blocked<...>``,
``#ttg.swizzled_shared<...>``), builds the smallest TTGIR module Triton 3.6
would emit for the access -- a register tensor in the distributed layout,
``ttg.local_alloc`` of it (the store), ``ttg.local_load`` back into the
register layout (the load) -- and asks the C library for the cost
(:func:`liblayout.triton.report`, ``layout_triton_kernel_report_json``): the
instructions one warp issues as Triton lowers each op, their bank conflicts
and wavefronts (NVIDIA) or extra LDS cycles (AMD).  No figure here is
Python's own.

    from liblayout.gluon import layouts as gl          # or Triton's own classes
    import liblayout.gluon as lg
    reg = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    r = lg.check(reg, gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), [64, 64], "fp16", "sm_90")
    r.store.bank_conflicts, r.load.instructions, print(r.load.explain())

* :func:`check` -- both sides of one (register layout, shared layout) pair.
* :func:`bank_conflicts` -- the number Triton's ``gl.bank_conflicts(reg_ty,
  shared_ty)`` defines, computed by the checker.
* :func:`suggest` -- shared layouts for an allocation written from some
  register layouts and read into others: the C search's top k, ranked,
  each with its writers' and readers' costs.

Layouts are Triton's Gluon objects or any object with the same class name
and attributes (:mod:`liblayout.gluon.layouts` has stand-ins).  Errors:
``TypeError`` (a layout of no known class, a dtype of no known name),
``ValueError`` (bad shapes or values, multi-CTA layouts),
:class:`liblayout.LayoutError` (what the C reader or the arch lookup
refuses, with its message).  Thread safety: every call only reads its
arguments.
"""

from __future__ import annotations

import math
import re
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _gluon_layouts as layouts
from . import _gluon_standins as _standins
from . import triton as _triton
from ._api import Arch
from ._errors import LayoutError

__all__ = ["check", "bank_conflicts", "suggest", "attr_text", "source_text", "module_text", "layouts",
           "Check", "Side", "Suggestion"]

# ---- values ---------------------------------------------------------------------------------------


def _unwrap(v: Any) -> Any:
    """A Gluon ``constexpr`` holds its value in ``.value``."""
    while type(v).__name__ == "constexpr" and hasattr(v, "value"):
        v = v.value
    return v


def _int(v: Any, what: str) -> int:
    v = _unwrap(v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("%s: expected an int, got %r" % (what, v))
    return v


def _ints(v: Any, what: str) -> List[int]:
    v = _unwrap(v)
    if isinstance(v, (str, bytes)) or not isinstance(v, Iterable):
        raise TypeError("%s: expected a list of ints, got %r" % (what, v))
    return [_int(x, what) for x in v]


def _bases(v: Any, what: str) -> List[List[int]]:
    v = _unwrap(v)
    if v is None:
        return []
    if isinstance(v, (str, bytes)) or not isinstance(v, Iterable):
        raise TypeError("%s: expected a list of bases (lists of ints), got %r" % (what, v))
    return [_ints(b, what) for b in v]


def _list(v: Sequence[int]) -> str:
    return "[" + ", ".join(str(x) for x in v) + "]"


def _nested(v: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join(_list(b) for b in v) + "]"


def _bool(v: Any, what: str) -> str:
    v = _unwrap(v)
    if not isinstance(v, bool):
        raise TypeError("%s: expected a bool, got %r" % (what, v))
    return "true" if v else "false"


def _one_cta(layout: Any, name: str) -> None:
    """Refuse multi-CTA layouts: the model is one CTA's shared memory."""
    for f in ("ctas_per_cga", "cta_split_num"):
        v = _unwrap(getattr(layout, f, None))
        if v is not None and math.prod(_ints(v, "%s.%s" % (name, f))) != 1:
            raise ValueError("%s.%s = %r: layouts spread over several CTAs are not modelled (one CTA's shared "
                             "memory only)" % (name, f, v))
    cga = _bases(getattr(layout, "cga_layout", None), name + ".cga_layout")
    if any(any(b) for b in cga):
        raise ValueError("%s.cga_layout = %r: layouts spread over several CTAs are not modelled" % (name, cga))


# ---- layouts -> #ttg attribute text ----------------------------------------------------------------

_DISTRIBUTED = ("BlockedLayout", "SliceLayout", "DotOperandLayout", "DistributedLinearLayout",
                "NVMMADistributedLayout", "AMDMFMALayout", "AMDWMMALayout")
_SHARED = ("SwizzledSharedLayout", "PaddedSharedLayout", "NVMMASharedLayout", "SharedLinearLayout")


def _elem_bits_of(v: Any) -> int:
    """AMDMFMALayout's ``element_bitwidth`` (later Gluon) or ``elem_type`` (earlier: a dtype)."""
    v = _unwrap(v)
    if v is None:
        return 32
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    return _dtype(v)[1]


def attr_text(layout: Any, shape: Optional[Sequence[int]] = None) -> str:
    """The TTGIR attribute Triton 3.6 prints for a Gluon layout, e.g.
    ``BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])`` ->
    ``#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>``.
    ``shape`` is needed only by an order-form ``PaddedSharedLayout`` (earlier Gluon).
    A ``str`` starting with ``#ttg.`` is returned as is."""
    layout = _unwrap(layout)
    if isinstance(layout, str):
        if not layout.lstrip().startswith("#ttg."):
            raise ValueError("attr_text: a text layout must be TTGIR attribute text ('#ttg....'), got %r" % layout)
        return layout.strip()
    name = type(layout).__name__
    g = lambda f: _unwrap(getattr(layout, f))  # noqa: E731
    try:
        if name == "BlockedLayout":
            _one_cta(layout, name)
            return ("#ttg.blocked<{sizePerThread = %s, threadsPerWarp = %s, warpsPerCTA = %s, order = %s}>"
                    % (_list(_ints(g("size_per_thread"), name + ".size_per_thread")),
                       _list(_ints(g("threads_per_warp"), name + ".threads_per_warp")),
                       _list(_ints(g("warps_per_cta"), name + ".warps_per_cta")),
                       _list(_ints(g("order"), name + ".order"))))
        if name == "SliceLayout":
            return "#ttg.slice<{dim = %d, parent = %s}>" % (_int(g("dim"), name + ".dim"), attr_text(g("parent")))
        if name == "DotOperandLayout":
            return "#ttg.dot_op<{opIdx = %d, parent = %s, kWidth = %d}>" % (
                _int(g("operand_index"), name + ".operand_index"), attr_text(g("parent")),
                _int(g("k_width"), name + ".k_width"))
        if name == "DistributedLinearLayout":
            block = _bases(g("block_bases"), name + ".block_bases")
            if any(any(b) for b in block):
                raise ValueError("%s.block_bases = %r: layouts spread over several CTAs are not modelled"
                                 % (name, block))
            return "#ttg.linear<{register = %s, lane = %s, warp = %s, block = %s}>" % (
                _nested(_bases(g("reg_bases"), name + ".reg_bases")),
                _nested(_bases(g("lane_bases"), name + ".lane_bases")),
                _nested(_bases(g("warp_bases"), name + ".warp_bases")), _nested(block))
        if name == "NVMMADistributedLayout":
            _one_cta(layout, name)
            version = _ints(g("version"), name + ".version")
            if len(version) != 2:
                raise ValueError("%s.version = %r: expected [major, minor]" % (name, version))
            return "#ttg.nvidia_mma<{versionMajor = %d, versionMinor = %d, warpsPerCTA = %s, instrShape = %s}>" % (
                version[0], version[1], _list(_ints(g("warps_per_cta"), name + ".warps_per_cta")),
                _list(_ints(g("instr_shape"), name + ".instr_shape")))
        if name == "AMDMFMALayout":
            _one_cta(layout, name)
            warps = _ints(g("warps_per_cta"), name + ".warps_per_cta")
            text = "#ttg.amd_mfma<{version = %d, warpsPerCTA = %s, instrShape = %s, isTransposed = %s" % (
                _int(g("version"), name + ".version"), _list(warps),
                _list(_ints(g("instr_shape"), name + ".instr_shape")), _bool(g("transposed"), name + ".transposed"))
            tiles = _unwrap(getattr(layout, "tiles_per_warp", None))
            if tiles is not None and any(t != 1 for t in _ints(tiles, name + ".tiles_per_warp")):
                text += ", tilesPerWarp = %s" % _list(_ints(tiles, name + ".tiles_per_warp"))
            bits = _elem_bits_of(getattr(layout, "element_bitwidth", getattr(layout, "elem_type", None)))
            if bits != 32:
                text += ", elementBitWidth = %d" % bits
            return text + "}>"
        if name == "AMDWMMALayout":
            _one_cta(layout, name)
            if getattr(layout, "warps_per_cta", None) is None:
                raise ValueError("%s without warps_per_cta (the warp_bases form) is not read yet" % name)
            text = "#ttg.amd_wmma<{version = %d, isTranspose = %s, warpsPerCTA = %s" % (
                _int(g("version"), name + ".version"), _bool(g("transposed"), name + ".transposed"),
                _list(_ints(g("warps_per_cta"), name + ".warps_per_cta")))
            instr = _unwrap(getattr(layout, "instr_shape", None))
            if instr is not None and _ints(instr, name + ".instr_shape") != [16, 16, 16]:
                text += ", instrShape = %s" % _list(_ints(instr, name + ".instr_shape"))
            tiles = _unwrap(getattr(layout, "tiles_per_warp", None))
            if tiles is not None and any(t != 1 for t in _ints(tiles, name + ".tiles_per_warp")):
                text += ", tilesPerWarp = %s" % _list(_ints(tiles, name + ".tiles_per_warp"))
            return text + "}>"
        if name == "SwizzledSharedLayout":
            _one_cta(layout, name)
            return "#ttg.swizzled_shared<{vec = %d, perPhase = %d, maxPhase = %d, order = %s}>" % (
                _int(g("vec"), name + ".vec"), _int(g("per_phase"), name + ".per_phase"),
                _int(g("max_phase"), name + ".max_phase"), _list(_ints(g("order"), name + ".order")))
        if name == "NVMMASharedLayout":
            _one_cta(layout, name)
            text = "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, elementBitWidth = %d" % (
                _int(g("swizzle_byte_width"), name + ".swizzle_byte_width"),
                _bool(g("transposed"), name + ".transposed"), _int(g("element_bitwidth"), name + ".element_bitwidth"))
            if _unwrap(getattr(layout, "fp4_padded", False)):
                text += ", fp4Padded = true"
            return text + "}>"
        if name == "PaddedSharedLayout":
            _one_cta(layout, name)
            pairs = _bases(g("interval_padding_pairs"), name + ".interval_padding_pairs")
            if not pairs or any(len(p) != 2 for p in pairs):
                raise ValueError("%s.interval_padding_pairs = %r: expected [[interval, padding], ...]" % (name, pairs))
            head = "#ttg.padded_shared<[%s] " % ", ".join("%d:+%d" % (i, p) for i, p in pairs)
            if getattr(layout, "offset_bases", None) is not None:
                block = _bases(getattr(layout, "block_bases", None), name + ".block_bases")
                return head + "{offset = %s, block = %s}>" % (
                    _nested(_bases(g("offset_bases"), name + ".offset_bases")), _nested(block))
            if shape is None:
                raise ValueError("%s in the order form needs the tensor shape" % name)
            return head + "{order = %s, shape = %s}>" % (_list(_ints(g("order"), name + ".order")),
                                                        _list(_ints(shape, "shape")))
        if name == "SharedLinearLayout":
            return "#ttg.shared_linear<{offset = %s, block = %s}, alignment = %d>" % (
                _nested(_bases(g("offset_bases"), name + ".offset_bases")),
                _nested(_bases(getattr(layout, "block_bases", None), name + ".block_bases")),
                _int(getattr(layout, "alignment", 16), name + ".alignment"))
    except AttributeError as e:
        raise TypeError("%s: missing attribute (%s); expected Gluon's %s fields" % (name, e, name)) from None
    raise TypeError("attr_text: %r is no Gluon layout this module reads (class %s; known: %s)"
                    % (layout, name, ", ".join(_DISTRIBUTED + _SHARED)))


def _num_warps(layout: Any) -> int:
    """Warps of a distributed layout: the product of warps_per_cta (nested: the parent's)."""
    layout = _unwrap(layout)
    if isinstance(layout, str):
        m = re.search(r"warpsPerCTA\s*=\s*\[([0-9,\s]*)\]", layout)
        if m:
            return math.prod(int(x) for x in m.group(1).split(",") if x.strip())
        m = re.search(r"warp\s*=\s*(\[\s*(\[[^\]]*\]\s*,?\s*)*\])", layout)
        if m:
            return 1 << m.group(1).count("[") - 1
        raise ValueError("num_warps: give it explicitly for %r" % layout)
    name = type(layout).__name__
    if name in ("SliceLayout", "DotOperandLayout"):
        return _num_warps(getattr(layout, "parent"))
    if name == "DistributedLinearLayout":
        return 1 << len(_bases(getattr(layout, "warp_bases"), name + ".warp_bases"))
    if name in _DISTRIBUTED:
        return math.prod(_ints(getattr(layout, "warps_per_cta"), name + ".warps_per_cta"))
    raise TypeError("%r is no distributed (register) layout: expected one of %s" % (layout, ", ".join(_DISTRIBUTED)))


# ---- dtypes and arches ---------------------------------------------------------------------------

#: Gluon / Triton dtype names (and common short forms) -> (MLIR element type, bits).
_DTYPES: Dict[str, Tuple[str, int]] = {
    "fp16": ("f16", 16), "float16": ("f16", 16), "f16": ("f16", 16), "half": ("f16", 16),
    "bf16": ("bf16", 16), "bfloat16": ("bf16", 16),
    "fp32": ("f32", 32), "float32": ("f32", 32), "f32": ("f32", 32), "float": ("f32", 32),
    "tf32": ("tf32", 32),
    "fp64": ("f64", 64), "float64": ("f64", 64), "f64": ("f64", 64),
    "i1": ("i1", 1), "int1": ("i1", 1),
    "i8": ("i8", 8), "int8": ("i8", 8), "u8": ("i8", 8), "uint8": ("i8", 8),
    "i16": ("i16", 16), "int16": ("i16", 16), "u16": ("i16", 16), "uint16": ("i16", 16),
    "i32": ("i32", 32), "int32": ("i32", 32), "u32": ("i32", 32), "uint32": ("i32", 32),
    "i64": ("i64", 64), "int64": ("i64", 64), "u64": ("i64", 64), "uint64": ("i64", 64),
    "fp8e4nv": ("f8E4M3FN", 8), "float8e4nv": ("f8E4M3FN", 8), "f8E4M3FN": ("f8E4M3FN", 8),
    "fp8e5": ("f8E5M2", 8), "float8e5": ("f8E5M2", 8), "f8E5M2": ("f8E5M2", 8),
    "fp8e4b8": ("f8E4M3FNUZ", 8), "float8e4b8": ("f8E4M3FNUZ", 8), "f8E4M3FNUZ": ("f8E4M3FNUZ", 8),
    "fp8e5b16": ("f8E5M2FNUZ", 8), "float8e5b16": ("f8E5M2FNUZ", 8), "f8E5M2FNUZ": ("f8E5M2FNUZ", 8),
    "fp8e4b15": ("f8E4M3B11FNUZ", 8), "float8e4b15": ("f8E4M3B11FNUZ", 8),
}


def _dtype(dtype: Any) -> Tuple[str, int]:
    """(MLIR element type, bits) of a dtype name or a Triton dtype object (its ``name``)."""
    dtype = _unwrap(dtype)
    key = dtype if isinstance(dtype, str) else getattr(dtype, "name", None)
    if not isinstance(key, str):
        raise TypeError("dtype: expected a name such as 'fp16' or a Triton dtype, got %r" % (dtype,))
    if key not in _DTYPES:
        raise TypeError("dtype %r: unknown; known: %s" % (key, ", ".join(sorted(_DTYPES))))
    return _DTYPES[key]


def _arch(arch: Any) -> Tuple[str, str, int]:
    """(preset name, ttg.target, threads per warp) of an arch name, alias or Triton target."""
    if not isinstance(arch, str):
        backend, version = getattr(arch, "backend", None), getattr(arch, "arch", None)
        if backend is None or version is None:
            raise TypeError("arch: expected a name ('sm_90', 'H100', 'gfx942', 'cuda:90') or a Triton GPUTarget, "
                            "got %r" % (arch,))
        arch = "%s:%s" % (backend, version)
    a = Arch(arch)
    name = a.name
    if name.startswith("sm_"):
        target = "cuda:" + re.sub(r"[^0-9]", "", name)
    elif name.startswith("gfx"):
        typed = re.match(r"^(?:hip:)?(gfx[0-9a-f]+)", arch.strip().lower())
        # the target Triton prints for the GPU named (gfx1201 -> hip:gfx1201, costed on preset gfx12)
        target = "hip:" + (typed.group(1) if typed else name.split("-")[0])
    else:
        raise ValueError("arch %r (%s): Triton targets NVIDIA (sm_NN) and AMD (gfxNNN) only" % (arch, name))
    return name, target, a.wave_size


def _shape(shape: Any) -> List[int]:
    dims = _ints(shape, "shape")
    if not dims or any(d < 1 for d in dims):
        raise ValueError("shape %r: expected positive dimensions" % (dims,))
    return dims


# ---- the synthetic TTGIR module ------------------------------------------------------------------


def _lift(layout: Any) -> Any:
    """A rank-1 layout as the rank-2 layout of the same tensor seen as 1 x N (the C search takes
    2-D tiles; the model reads 1-D ones too, at the same cost); other ranks unchanged.  Only the
    representation changes: element n of the 1-D
    tensor is element (0, n) of the 2-D one, held by the same register, lane and warp."""
    layout = _unwrap(layout)
    if isinstance(layout, str):
        return layout
    name = type(layout).__name__
    g = lambda f: _unwrap(getattr(layout, f))  # noqa: E731
    if name == "BlockedLayout" and len(_ints(g("order"), name + ".order")) == 1:
        return _standins.BlockedLayout([1] + _ints(g("size_per_thread"), name), [1] + _ints(g("threads_per_warp"), name),
                                       [1] + _ints(g("warps_per_cta"), name), [1, 0])
    if name == "SliceLayout" and _rank(layout) == 1:
        return _standins.SliceLayout(_int(g("dim"), name + ".dim") + 1, _batch(g("parent")))
    if name == "SwizzledSharedLayout" and len(_ints(g("order"), name + ".order")) == 1:
        _one_cta(layout, name)
        return _standins.SwizzledSharedLayout(_int(g("vec"), name), _int(g("per_phase"), name),
                                              _int(g("max_phase"), name), [1, 0])
    if name == "DistributedLinearLayout" and len(_ints(g("shape"), name + ".shape")) == 1:
        up = lambda bs: [[0] + b for b in _bases(bs, name)]  # noqa: E731
        return _standins.DistributedLinearLayout(up(g("reg_bases")), up(g("lane_bases")), up(g("warp_bases")),
                                                 up(g("block_bases")), [1] + _ints(g("shape"), name))
    if name == "SharedLinearLayout":
        offs = _bases(g("offset_bases"), name)
        if offs and len(offs[0]) == 1:
            return _standins.SharedLinearLayout([[0] + b for b in offs],
                                                [[0] + b for b in _bases(getattr(layout, "block_bases", None), name)],
                                                _int(getattr(layout, "alignment", 16), name))
    if name == "PaddedSharedLayout" and getattr(layout, "offset_bases", None) is not None:
        offs = _bases(g("offset_bases"), name)
        if offs and len(offs[0]) == 1:
            shp = _unwrap(getattr(layout, "shape", None))
            return _standins.PaddedSharedLayout(_bases(g("interval_padding_pairs"), name), [[0] + b for b in offs],
                                                [], None if shp is None else [1] + _ints(shp, name))
    return layout


def _rank(layout: Any) -> int:
    """Rank of the tensor a distributed layout describes (a slice: its parent's less one)."""
    layout = _unwrap(layout)
    name = type(layout).__name__
    if name == "SliceLayout":
        return _rank(getattr(layout, "parent")) - 1
    if name == "DotOperandLayout":
        return _rank(getattr(layout, "parent"))
    if name == "DistributedLinearLayout":
        return len(_ints(getattr(layout, "shape"), name + ".shape"))
    if name == "BlockedLayout":
        return len(_ints(getattr(layout, "order"), name + ".order"))
    if name in _DISTRIBUTED:
        return len(_ints(getattr(layout, "warps_per_cta"), name + ".warps_per_cta"))
    raise ValueError("%r: the rank of a text layout is not read here" % (layout,))


def _batch(layout: Any) -> Any:
    """The parent of a rank-1 slice given a leading dim of size 1 (Triton's batch dim): the
    layout of the rank-1 slice's tensor seen as 1 x N is the slice one dim further in.  Only
    the representation changes: Triton's layouts hold a size-1 leading dim in one register,
    one lane and one warp (blocked: sizes 1, slowest in the order; MMA kinds: warpsPerCTA 1,
    the batch dim of their rank-3 form)."""
    layout = _unwrap(layout)
    name = type(layout).__name__
    g = lambda f: _unwrap(getattr(layout, f))  # noqa: E731
    if name == "BlockedLayout":
        _one_cta(layout, name)
        return _standins.BlockedLayout([1] + _ints(g("size_per_thread"), name), [1] + _ints(g("threads_per_warp"), name),
                                       [1] + _ints(g("warps_per_cta"), name),
                                       [o + 1 for o in _ints(g("order"), name)] + [0])
    if name == "SliceLayout":
        return _standins.SliceLayout(_int(g("dim"), name + ".dim") + 1, _batch(g("parent")))
    if name == "DotOperandLayout":
        return _standins.DotOperandLayout(_int(g("operand_index"), name), _batch(g("parent")), _int(g("k_width"), name))
    if name == "NVMMADistributedLayout":
        _one_cta(layout, name)
        if _ints(g("version"), name)[0] != 2:
            raise ValueError("%s version %r: only version 2 has a batch dim (a rank-1 slice of it is not "
                             "modelled)" % (name, g("version")))
        return _standins.NVMMADistributedLayout(_ints(g("version"), name), [1] + _ints(g("warps_per_cta"), name),
                                                [1] + _ints(g("instr_shape"), name))
    if name == "AMDMFMALayout":
        _one_cta(layout, name)
        tiles = _unwrap(getattr(layout, "tiles_per_warp", None))
        return _standins.AMDMFMALayout(_int(g("version"), name), _ints(g("instr_shape"), name), g("transposed"),
                                       [1] + _ints(g("warps_per_cta"), name),
                                       _elem_bits_of(getattr(layout, "element_bitwidth",
                                                             getattr(layout, "elem_type", None))),
                                       None if tiles is None else [1] + _ints(tiles, name))
    if name == "AMDWMMALayout":
        _one_cta(layout, name)
        tiles = _unwrap(getattr(layout, "tiles_per_warp", None))
        return _standins.AMDWMMALayout(_int(g("version"), name), g("transposed"), [1] + _ints(g("warps_per_cta"), name),
                                       _unwrap(getattr(layout, "instr_shape", None)),
                                       None if tiles is None else [1] + _ints(tiles, name))
    raise ValueError("a rank-1 slice of %s is not modelled (it is costed as 1 x N, and this parent has no "
                     "leading-dim form here)" % name)


def module_text(writers: Sequence[Any], readers: Sequence[Any], shared_layout: Any, shape: Sequence[int],
                dtype: Any, arch: Any, num_warps: Optional[int] = None, reserve_bytes: int = 0,
                store_result: bool = False) -> str:
    """The TTGIR module Triton 3.6 would emit for a Gluon kernel that writes a ``shape`` tensor of ``dtype``
    from each register layout of ``writers`` into one shared allocation and reads it into each of
    ``readers``.  One writer: ``ttg.local_alloc %value`` (``gl.allocate_shared_memory(dtype, shape, layout,
    value)``); several: ``ttg.local_alloc`` without a value, then one ``ttg.local_store`` each
    (``smem.store(value)``).  Each reader is a ``ttg.local_load`` (``smem.load(layout)``).
    ``reserve_bytes`` > 0 adds one more, unused allocation of that many bytes (it shrinks the
    suggestion's budget).  ``store_result``: the last reader's tensor is then stored to global memory
    (``gl.store(ptr, value)``: ``tt.store``), which is what lets ptxas run the last load on fewer warps
    (docs/triton.md, "ptxas's last load").  ``num_warps`` defaults to that of the first register layout."""
    dims = _shape(shape)
    elem, _bits = _dtype(dtype)
    _name, target, tpw = _arch(arch)
    if len(dims) == 1:  # 1 x N, which suggest() can search
        writers, readers, shared_layout, dims = ([_lift(w) for w in writers], [_lift(r) for r in readers],
                                                 _lift(shared_layout), [1] + dims)
    regs = list(writers) + list(readers)
    if not regs:
        raise ValueError("module_text: no register layout (writers and readers are both empty)")
    if num_warps is None:
        num_warps = _num_warps(regs[0])
    num_warps = _int(num_warps, "num_warps")
    if num_warps < 1 or num_warps & (num_warps - 1):
        raise ValueError("num_warps %d: expected a power of two" % num_warps)
    aliases: Dict[str, str] = {}
    lines: List[str] = []

    def alias(text: str, stem: str) -> str:
        if text not in aliases:
            aliases[text] = "#%s%d" % (stem, len(aliases))
            lines.append("%s = %s" % (aliases[text], text))
        return aliases[text]

    shared = alias(attr_text(shared_layout, dims), "shared")
    ws = [alias(attr_text(w), "reg") for w in writers]
    rs = [alias(attr_text(r), "reg") for r in readers]
    tshape = "x".join(str(d) for d in dims) + "x" + elem
    lines.append("#smem = #ttg.shared_memory")
    lines.append('module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = %d : i32, ttg.target = "%s", '
                 '"ttg.threads-per-warp" = %d : i32} {' % (num_warps, target, tpw))
    lines.append("  tt.func public @gluon_kernel(%s) attributes {noinline = false} {"
                 % ("%%out: !tt.ptr<%s> {tt.divisibility = 16 : i32}" % elem if store_result and rs else ""))
    n = [0]

    def v() -> str:
        n[0] += 1
        return "%%%d" % (n[0] - 1)

    if reserve_bytes > 0:
        lines.append("    %s = ttg.local_alloc : () -> !ttg.memdesc<%dxi8, #ttg.swizzled_shared<{vec = 1, perPhase = 1, "
                     "maxPhase = 1, order = [0]}>, #smem, mutable>" % (v(), reserve_bytes))
    mem = "!ttg.memdesc<%s, %s, #smem%s>" % (tshape, shared, ", mutable" if len(ws) != 1 else "")
    if len(ws) == 1:
        src = v()
        lines.append("    %s = arith.constant dense<0.000000e+00> : tensor<%s, %s>" % (src, tshape, ws[0]))
        buf = v()
        lines.append("    %s = ttg.local_alloc %s : (tensor<%s, %s>) -> %s" % (buf, src, tshape, ws[0], mem))
    else:
        buf = v()
        lines.append("    %s = ttg.local_alloc : () -> %s" % (buf, mem))
        for w in ws:
            src = v()
            lines.append("    %s = arith.constant dense<0.000000e+00> : tensor<%s, %s>" % (src, tshape, w))
            lines.append("    ttg.local_store %s, %s : tensor<%s, %s> -> %s" % (src, buf, tshape, w, mem))
    last = None
    for r in rs:
        last = v()
        lines.append("    %s = ttg.local_load %s : %s -> tensor<%s, %s>" % (last, buf, mem, tshape, r))
    if store_result and rs:
        ptrs, pshape = v(), "x".join(str(d) for d in dims) + "x!tt.ptr<%s>" % elem
        lines.append("    %s = tt.splat %%out : !tt.ptr<%s> -> tensor<%s, %s>" % (ptrs, elem, pshape, rs[-1]))
        lines.append("    tt.store %s, %s : tensor<%s, %s>" % (ptrs, last, pshape, rs[-1]))
    lines.append("    tt.return")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---- results ---------------------------------------------------------------------------------------


def _num(x: Any) -> str:
    return "%g" % x if isinstance(x, float) else "%d" % x


def _per_warp(total: int, num_warps: int) -> Union[int, float]:
    # an int where every warp costs the same, else the exact mean (Nsight Compute's sum / warps)
    return total // num_warps if total % num_warps == 0 else total / num_warps


class Side:
    """One shared-memory op (or several of one side, summed) as Triton lowers it, per warp.

    ``instructions``: mnemonic -> instructions one warp issues ("st.shared.v4.b32": 2);
    ``bank_conflicts`` and ``wavefronts`` (NVIDIA; None on AMD);
    ``extra_cycles`` (AMD; None on NVIDIA), ``total_cycles`` (AMD; NVIDIA: wavefronts);
    the costs are the CTA's sums over its ``num_warps`` warps divided by them: an int when
    every warp costs the same, else a float (a padded layout can give warps other bank
    patterns); ``cta_bank_conflicts`` / ``cta_wavefronts`` / ``cta_extra_cycles`` /
    ``cta_total_cycles`` are the sums (what Nsight Compute and the LDS counters add up);
    ``accesses``; ``vector_bits``; ``confidence``; ``ops`` (the report's op dicts);
    ``explain()``: the worst instruction lane by lane (warp 0)."""

    def __init__(self, ops: List[Dict[str, Any]], nvidia: bool, num_warps: int = 1) -> None:
        self.ops = ops
        self.nvidia = nvidia
        bad = [op for op in ops if not op.get("modelled", 1)]
        if bad:
            raise LayoutError("not modelled: %s" % "; ".join("%s: %s" % (op.get("op"), op.get("reason", ""))
                                                                for op in bad), status=-7)
        self.instructions: Dict[str, int] = {}
        for op in ops:
            for k, c in op.get("instructions", {}).items():
                self.instructions[k] = self.instructions.get(k, 0) + int(c)
        cost = [op.get("cost", {}) for op in ops]
        self.accesses = sum(int(op.get("accesses", 0)) for op in ops)
        self.vector_bits = max((int(op.get("vector", {}).get("bits", 0)) for op in ops), default=0)
        levels = ["low", "medium", "high"]
        conf = [op.get("confidence", "high") for op in ops]
        self.confidence = min(conf, key=lambda c: levels.index(c) if c in levels else 0) if conf else "high"
        nw = max(int(num_warps), 1)
        self.num_warps = nw

        def cta(key: str) -> int:  # the CTA's sum (reports without it: every warp as warp 0)
            return sum(int(c.get("cta_" + key, int(c.get(key, 0)) * nw)) for c in cost)

        self.cta_bank_conflicts: Optional[int] = None
        self.cta_wavefronts: Optional[int] = None
        self.cta_extra_cycles: Optional[int] = None
        self.cta_total_cycles: int
        if nvidia:
            self.cta_bank_conflicts, self.cta_wavefronts = cta("bank_conflicts"), cta("wavefronts")
            self.cta_total_cycles = self.cta_wavefronts
            self.bank_conflicts: Optional[Union[int, float]] = _per_warp(self.cta_bank_conflicts, nw)
            self.wavefronts: Optional[Union[int, float]] = _per_warp(self.cta_wavefronts, nw)
            self.extra_cycles: Optional[Union[int, float]] = None
            self.total_cycles = self.wavefronts
        else:
            self.cta_extra_cycles, self.cta_total_cycles = cta("extra_cycles"), cta("total_cycles")
            self.bank_conflicts = None
            self.wavefronts = None
            self.extra_cycles = _per_warp(self.cta_extra_cycles, nw)
            self.total_cycles = _per_warp(self.cta_total_cycles, nw)

    @property
    def conflicted(self) -> bool:
        """True when the side has any bank conflict / extra cycle."""
        return bool(self.bank_conflicts if self.nvidia else self.extra_cycles)

    def explain(self) -> str:
        """The worst instruction of each op explained as ``layout check`` does: a summary, then one line
        per conflicted lane group (the C library's layout_triton_kernel_op_explain)."""
        out = []
        for op in self.ops:
            w = op.get("worst", {})
            head = "%s (%s): %s" % (op.get("op", "?"), op.get("direction", "?"),
                                    ", ".join("%d x %s" % (c, k) for k, c in op.get("instructions", {}).items()))
            out.append(head + "\n" + w.get("explain", "").rstrip("\n"))
        return "\n".join(out)

    def cost_text(self) -> str:
        instrs = ", ".join("%d x %s" % (c, k) for k, c in self.instructions.items()) or "-"
        if self.nvidia:
            return "%s per warp, %s bank conflicts, %s wavefronts" % (instrs, _num(self.bank_conflicts),
                                                                      _num(self.wavefronts))
        return "%s per warp, %s extra cycles (%s total)" % (instrs, _num(self.extra_cycles), _num(self.total_cycles))

    def __repr__(self) -> str:
        return "Side(%s)" % self.cost_text()


class Check:
    """What :func:`check` returns: ``store`` and ``load`` (:class:`Side`), ``arch`` (the preset),
    ``target``, ``ttgir`` (the module that was costed), ``register`` / ``shared`` (attribute texts),
    ``report`` (the whole JSON dict of :func:`liblayout.triton.report`)."""

    def __init__(self, rep: Dict[str, Any], ttgir: str, register: str, shared: str) -> None:
        self.report = rep
        self.ttgir = ttgir
        self.arch = rep.get("arch", "")
        self.target = rep.get("target", "")
        self.register = register
        self.shared = shared
        nvidia = self.arch.startswith("sm_")
        ops = rep.get("ops", [])
        for nm in rep.get("not_modelled", []):
            raise LayoutError("not modelled: %s: %s" % (nm.get("op", "?"), nm.get("reason", "")), status=-7)
        nw = int(rep.get("num_warps", 1))
        self.store = Side([op for op in ops if op.get("direction") == "write"], nvidia, nw)
        self.load = Side([op for op in ops if op.get("direction") == "read"], nvidia, nw)

    def __repr__(self) -> str:
        return "Check(%s: store %s; load %s)" % (self.arch, self.store.cost_text(), self.load.cost_text())


def _report(ttgir: str, arch_name: str, suggest: bool = True) -> Dict[str, Any]:
    return _triton.report(ttgir, arch=arch_name, suggest=suggest)


def check(reg_layout: Any, shared_layout: Any, shape: Sequence[int], dtype: Any, arch: Any,
          num_warps: Optional[int] = None, stored: bool = False) -> Check:
    """Both sides of a Gluon tensor of ``shape`` and ``dtype`` in ``reg_layout`` stored into shared memory of
    ``shared_layout`` (``gl.allocate_shared_memory(dtype, shape, shared_layout, value)``: ``ttg.local_alloc``)
    and loaded back into ``reg_layout`` (``smem.load(reg_layout)``: ``ttg.local_load``), lowered as Triton 3.6
    lowers them on ``arch`` and costed by the checker.  ``arch``: a ``layout arch`` name or alias
    (``"sm_90"``, ``"H100"``, ``"gfx942"``, ``"MI300X"``), a Triton target text (``"cuda:90"``,
    ``"hip:gfx942"``) or a Triton ``GPUTarget``.  ``num_warps`` defaults to the register layout's.
    ``stored=True``: the loaded tile then goes to global memory (``gl.store``), as in a kernel whose
    last shared op this is; on NVIDIA ptxas may then run the last load on the warps that store only
    (the load side's ``cta_*`` figures; docs/triton.md, "ptxas's last load").
    Raises :class:`liblayout.LayoutError` when the C library cannot read or lower the pair (its message)."""
    arch_name = _arch(arch)[0]
    ttgir = module_text([reg_layout], [reg_layout], shared_layout, shape, dtype, arch, num_warps,
                        store_result=stored)
    rep = _report(ttgir, arch_name, suggest=False)  # the costs only: no search
    return Check(rep, ttgir, attr_text(reg_layout), attr_text(shared_layout, _shape(shape)))


def bank_conflicts(reg_ty_or_layout: Any, shared_layout: Any = None, shape: Optional[Sequence[int]] = None,
                   dtype: Any = None, arch: Any = "sm_90", num_warps: Optional[int] = None) -> int:
    """The number Triton's ``gl.bank_conflicts(reg_ty, shared_ty)`` defines, from the checker.

    Triton 3.6 (``bankConflictsMemDesc``, lib/Tools/GenericSwizzling.cpp, and its brute-force
    reference in unittest/Dialect/TritonGPU/SwizzleTest.cpp) counts, for the tensor written to /
    read from shared memory with vectorised ``st.shared`` / ``ld.shared`` of the widest vector
    the pair allows (at most 128 bits), the bank conflicts per wavefront: the wavefronts every
    instruction of every warp needs over the fewest it could need, minus one.  The figure is
    the same for the load and the store (one layout pair) and ignores ``ldmatrix`` /
    ``stmatrix``.  Here it is the store side of :func:`check` lowered with ``st.shared``
    (on sm_80, whose banks and phases are sm_90's; Triton's count assumes 32 banks of
    4 bytes and 32-lane wavefronts whatever the target): ``wavefronts / (accesses x
    vector words) - 1`` with vector words = max(vector bits / 32, 1).

    ``reg_ty_or_layout``: a register layout, or a Gluon ``distributed_type`` (then ``shape`` and
    ``dtype`` come from it) with ``shared_layout`` a shared layout or a
    ``shared_memory_descriptor_type``.  ``arch`` must be an NVIDIA one (the definition is NVIDIA's)."""
    reg = _unwrap(reg_ty_or_layout)
    if hasattr(reg, "layout") and hasattr(reg, "shape") and type(reg).__name__ not in _DISTRIBUTED:
        shape = shape if shape is not None else list(_unwrap(reg.shape))
        dtype = dtype if dtype is not None else getattr(reg, "element_ty", getattr(reg, "scalar", None))
        reg = reg.layout
    sh = _unwrap(shared_layout)
    if sh is not None and hasattr(sh, "layout") and type(sh).__name__ not in _SHARED:
        if shape is None:
            shape = list(_unwrap(sh.shape))
        if dtype is None:
            dtype = getattr(sh, "element_ty", None)
        sh = sh.layout
    if sh is None or shape is None or dtype is None:
        raise ValueError("bank_conflicts: give the shared layout, the shape and the dtype (or Gluon types)")
    name = _arch(arch)[0]
    if not name.startswith("sm_"):
        raise ValueError("bank_conflicts: arch %r: Triton's definition is NVIDIA's (32 banks x 4 B, 32 lanes); "
                         "use check() for %s" % (arch, name))
    r = check(reg, sh, shape, dtype, "sm_80", num_warps)
    st = r.store
    bits = st.vector_bits
    words = max(bits // 32, 1)
    ideal = st.accesses * words
    if ideal == 0 or st.wavefronts is None:
        return 0
    # one warp's instructions (warp 0's, as the report's per-warp fields): Triton's count is of one warp
    wf = sum(int(op.get("cost", {}).get("wavefronts", 0)) for op in st.ops)
    if wf % ideal:
        # Triton asserts the pattern is homogeneous; report the ceiling of the mean when it is not.
        return -(-wf // ideal) - 1
    return wf // ideal - 1


# ---- suggestions ------------------------------------------------------------------------------------


def _kv(body: str) -> Dict[str, str]:
    """key = value pairs of an attribute body (values: ints, bools, nested lists)."""
    out: Dict[str, str] = {}
    depth, start, key = 0, 0, None
    for i, ch in enumerate(body + ","):
        if ch in "[{<":
            depth += 1
        elif ch in "]}>":
            depth -= 1
        elif ch == "=" and depth == 0 and key is None:
            key = body[start:i].strip()
            start = i + 1
        elif ch == "," and depth == 0:
            if key is not None:
                out[key] = body[start:i].strip()
            key, start = None, i + 1
    return out


def source_text(attr: str) -> Optional[str]:
    """The Gluon source line that builds a shared layout from its TTGIR attribute text, e.g.
    ``#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>`` ->
    ``gl.SwizzledSharedLayout(vec=8, per_phase=2, max_phase=4, order=[1, 0])`` (``gl`` being
    ``triton.experimental.gluon.language``); None for an attribute Gluon has no class for
    (``#ttg.amd_rotating_shared``)."""
    a = attr.strip()
    m = re.match(r"#ttg\.(\w+)<(.*)>$", a, re.S)
    if not m:
        return None
    kind, body = m.group(1), m.group(2).strip()
    if kind == "swizzled_shared":
        kv = _kv(body.strip("{}"))
        return "gl.SwizzledSharedLayout(vec=%s, per_phase=%s, max_phase=%s, order=%s)" % (
            kv["vec"], kv["perPhase"], kv["maxPhase"], kv["order"])
    if kind == "nvmma_shared":
        kv = _kv(body.strip("{}"))
        return "gl.NVMMASharedLayout(swizzle_byte_width=%s, element_bitwidth=%s, rank=%s, transposed=%s)" % (
            kv["swizzlingByteWidth"], kv["elementBitWidth"], kv.get("rank", "2"),
            "True" if kv.get("transposed") == "true" else "False")
    if kind == "shared_linear":
        inner = re.match(r"\{(.*)\}\s*(?:,\s*alignment\s*=\s*(\d+))?$", body, re.S)
        if not inner:
            return None
        kv = _kv(inner.group(1))
        return "gl.SharedLinearLayout(offset_bases=%s, block_bases=%s, alignment=%s)" % (
            kv.get("offset", "[]"), kv.get("block", "[]"), inner.group(2) or "16")
    if kind == "padded_shared":
        pm = re.match(r"\[([^\]]*)\]\s*\{(.*)\}$", body, re.S)
        if not pm:
            return None
        pairs = [[int(x) for x in p.split(":+")] for p in pm.group(1).split(",") if p.strip()]
        kv = _kv(pm.group(2))
        if "offset" in kv:
            return "gl.PaddedSharedLayout(interval_padding_pairs=%s, offset_bases=%s, block_bases=%s, shape=%s)" % (
                _nested(pairs), kv["offset"], kv.get("block", "[]"), kv.get("shape", "None"))
        return "gl.PaddedSharedLayout.with_identity_for(%s, %s, %s)" % (_nested(pairs), kv.get("shape"),
                                                                        kv.get("order"))
    return None


def _to_layout(source: Optional[str]) -> Any:
    """The Gluon object of a source line: Triton's classes when importable, else the stand-ins."""
    if source is None:
        return None
    try:
        from triton.experimental.gluon import language as gl_mod  # type: ignore
    except Exception:  # Triton absent (or broken): the stand-ins
        gl_mod = layouts
    expr = re.sub(r"^\s*(?:\w+\s*:\s*\w+(?:\.\w+)*\s*=\s*)?(?:ttgl|gl)\.", "gl.", source)  # "a: gl.constexpr = ttgl.X(..)"
    for mod in (gl_mod, layouts):  # a Gluon version without this class or field: the stand-in
        try:
            return eval(expr, {"__builtins__": {}}, {"gl": mod, "True": True, "False": False, "None": None})
        except Exception:
            continue
    return None


class Suggestion:
    """One shared layout for the allocation: ``layout`` (a Gluon object: Triton's when importable,
    else a stand-in of :mod:`liblayout.gluon.layouts`; None when Gluon has no class for it),
    ``source`` (the Gluon line to paste), ``attr`` (TTGIR text), ``bytes`` (one buffer, padding
    included), ``store`` / ``load`` (:class:`Side`: every writer's / reader's ops summed),
    ``cost`` (the search's unit: NVIDIA wavefronts, AMD LDS cycles, both sides),
    ``origin`` ("search" or "given")."""

    def __init__(self, attr: str, source: Optional[str], nbytes: int, store: Side, load: Side, origin: str) -> None:
        self.attr = attr
        self.source = source
        self.layout = _to_layout(source)
        self.bytes = nbytes
        self.store = store
        self.load = load
        self.cost = int(store.total_cycles or 0) + int(load.total_cycles or 0)
        self.origin = origin

    def __repr__(self) -> str:
        return "Suggestion(%s, cost %d: store %s; load %s)" % (self.source or self.attr, self.cost,
                                                             self.store.cost_text(), self.load.cost_text())


def _as_list(v: Any, what: str) -> List[Any]:
    v = _unwrap(v)
    if isinstance(v, (list, tuple)):
        if not v:
            raise ValueError("%s: empty list" % what)
        return list(v)
    return [v]


def _default_shared(rank: int) -> Any:
    return _standins.SwizzledSharedLayout(1, 1, 1, list(reversed(range(rank))))


#: Family bits of the C search (triton_search.h) Gluon has a class for: swizzled_shared (1),
#: padded_shared (2), nvmma_shared (8); amd_rotating_shared (4) has none in Gluon 3.6.
_GLUON_FAMILIES = 1 | 2 | 8


def suggest(writers: Any, readers: Any, shape: Sequence[int], dtype: Any, arch: Any,
            budget_bytes: Optional[int] = None, num_warps: Optional[int] = None,
            candidates: Sequence[Any] = (), k: int = 8) -> List[Suggestion]:
    """Shared layouts for one allocation of ``shape`` x ``dtype`` written from each register layout of
    ``writers`` and read into each of ``readers``, ranked cheapest first (cost: both sides, the search's
    unit), each with the cost of its writers (``store``) and of its readers (``load``).

    The C search (``layout_triton_kernel_suggest_ranked`` through ``layout_triton_kernel_ranked_json``)
    runs on a synthetic module with that one allocation (one ``ttg.local_store`` per writer, or
    ``ttg.local_alloc`` of the value for a single writer, one ``ttg.local_load`` per reader), scores
    every candidate Triton 3.6 lowers for those ops on the target (the rules of the TTGIR
    suggestion) that Gluon has a class for (``SwizzledSharedLayout``, ``PaddedSharedLayout``,
    ``NVMMASharedLayout``) and keeps the best ``k`` (1..16), ranked by (cost, bytes, family,
    simplicity).  The list holds those, then, for comparison, the unswizzled layout and each of
    ``candidates`` (layouts you are considering) where not already in it, each costed the same way
    (``origin`` "search" or "given"), all sorted by (cost, bytes), the search's order kept among
    equals.  ``budget_bytes`` caps the allocation's bytes (default: the target's shared memory per
    block); the cap is passed to the search as a reserved, unused allocation of the remaining bytes."""
    ws = _as_list(writers, "writers")
    rs = _as_list(readers, "readers")
    dims = _shape(shape)
    arch_name = _arch(arch)[0]
    top_k = _int(k, "k")
    if not 1 <= top_k <= 16:
        raise ValueError("k = %d: expected 1..16 (the search keeps at most 16)" % top_k)
    base = _default_shared(len(dims))
    ttgir = module_text(ws, rs, base, dims, dtype, arch, num_warps)
    rep = _report(ttgir, arch_name)
    for nm in rep.get("not_modelled", []):
        raise LayoutError("suggest: not modelled: %s: %s" % (nm.get("op", "?"), nm.get("reason", "")), status=-7)
    if budget_bytes is not None:
        budget = _int(budget_bytes, "budget_bytes")
        if budget < 1:
            raise ValueError("budget_bytes %d: expected a positive number of bytes" % budget)
        lds = int(rep.get("lds_bytes", 0))
        if budget < lds:
            ttgir = module_text(ws, rs, base, dims, dtype, arch, num_warps, reserve_bytes=lds - budget)
    sugg = [x for x in rep.get("suggestions", []) if x.get("ops")]
    if sugg and not sugg[0].get("searched", 1):
        raise LayoutError("suggest: the search did not run: %s" % sugg[0].get("note", ""), status=-7)
    ranked = _triton.ranked(ttgir, arch=arch_name, alloc=-1, top_k=top_k, families=_GLUON_FAMILIES)
    nvidia = ranked.get("arch", "").startswith("sm_")
    out: List[Suggestion] = []
    seen = set()
    for e in ranked.get("ranked", []):
        ops = e.get("ops", [])
        nw = int(rep.get("num_warps", 1))
        store = Side([op for op in ops if op.get("direction") == "write"], nvidia, nw)
        load = Side([op for op in ops if op.get("direction") == "read"], nvidia, nw)
        out.append(Suggestion(e["attr"], e.get("gluon") or source_text(e["attr"]), int(e.get("bytes", 0)), store,
                              load, "search"))
        seen.add(e["attr"])
    if not out:
        raise LayoutError("suggest: the search found no layout within the budget", status=-9)
    given = [(attr_text(base, dims), source_text(attr_text(base, dims)))]
    for c in candidates:
        t = attr_text(c, dims)
        given.append((t, source_text(t)))
    for attr, src in given:
        if attr in seen:
            continue
        seen.add(attr)
        out.append(_costed(ws, rs, attr, src, dims, dtype, arch, arch_name, num_warps, "given"))
    out.sort(key=lambda x: (x.cost, x.bytes))  # stable: the search's order among equals
    return out


def _costed(ws: List[Any], rs: List[Any], attr: str, src: Optional[str], dims: List[int], dtype: Any, arch: Any,
            arch_name: str, num_warps: Optional[int], origin: str) -> Suggestion:
    ttgir = module_text(ws, rs, attr, dims, dtype, arch, num_warps)
    rep = _report(ttgir, arch_name)
    nvidia = rep.get("arch", "").startswith("sm_")
    for nm in rep.get("not_modelled", []):
        raise LayoutError("not modelled: %s: %s" % (nm.get("op", "?"), nm.get("reason", "")), status=-7)
    ops = rep.get("ops", [])
    nw = int(rep.get("num_warps", 1))
    store = Side([op for op in ops if op.get("direction") == "write"], nvidia, nw)
    load = Side([op for op in ops if op.get("direction") == "read"], nvidia, nw)
    sug = [s for s in rep.get("suggestions", []) if s.get("ops")]
    nbytes = int(sug[0].get("current_bytes", 0)) if sug else 0
    return Suggestion(attr, src, nbytes, store, load, origin)
