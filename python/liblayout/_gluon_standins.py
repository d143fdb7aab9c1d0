"""The classes behind liblayout's stand-ins for Triton Gluon's namespace (private).

:mod:`liblayout._gluon_layouts` (``liblayout.gluon.layouts``, the ``gl`` of
users without Triton) binds these under Triton 3.6's names and submodules
only -- ``gl.BlockedLayout``, ``gl.amd.AMDMFMALayout``, ``gl.float16``,
``gl.distributed_type`` ... -- so that nothing else (``dataclass``, ``List``)
shows in ``dir(gl)``.  Each layout class has the name and the fields (names,
order, defaults) of Triton 3.6's class, recorded on a machine with Triton in
tests/fixtures/gluon/gl_names.json and checked against it by
python/tests/test_gluon_names.py; :mod:`liblayout.gluon` reads either kind
by class name and attributes, so these and Triton's own objects are
interchangeable there.  They only hold values: no checking, no IR.
``cga_layout`` (multi-CTA) is accepted and must describe one CTA.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence

@dataclass(frozen=True)
class BlockedLayout:
    """``#ttg.blocked``: sizePerThread, threadsPerWarp, warpsPerCTA, order."""

    size_per_thread: List[int]
    threads_per_warp: List[int]
    warps_per_cta: List[int]
    order: List[int]
    cga_layout: List[List[int]] = field(default_factory=list)


@dataclass(frozen=True)
class SliceLayout:
    """``#ttg.slice``: the parent layout with dimension ``dim`` removed."""

    dim: int
    parent: Any


@dataclass(frozen=True)
class DotOperandLayout:
    """``#ttg.dot_op``: operand ``operand_index`` (0 = A, 1 = B) of the MMA ``parent``."""

    operand_index: int
    parent: Any
    k_width: int


@dataclass(frozen=True)
class DistributedLinearLayout:
    """``#ttg.linear``: explicit register / lane / warp / block bases."""

    reg_bases: List[List[int]]
    lane_bases: List[List[int]]
    warp_bases: List[List[int]]
    block_bases: List[List[int]]
    shape: List[int]


@dataclass(frozen=True)
class NVMMADistributedLayout:
    """``#ttg.nvidia_mma``: version [major, minor], warps_per_cta, instr_shape."""

    version: List[int]
    warps_per_cta: List[int]
    instr_shape: List[int]
    cga_layout: List[List[int]] = field(default_factory=list)


@dataclass(frozen=True)
class AMDMFMALayout:
    """``#ttg.amd_mfma``: version (3 = gfx942, 4 = gfx950), instr_shape [M, N, K], transposed."""

    version: int
    instr_shape: List[int]
    transposed: bool
    warps_per_cta: List[int]
    element_bitwidth: Optional[int] = None
    tiles_per_warp: Optional[List[int]] = None
    cga_layout: List[List[int]] = field(default_factory=list)


@dataclass(frozen=True)
class AMDWMMALayout:
    """``#ttg.amd_wmma``: version (1 = RDNA3, 2 = RDNA4, 3 = gfx1250), transposed, warps_per_cta."""

    version: int
    transposed: bool
    warps_per_cta: List[int]
    instr_shape: Optional[List[int]] = None
    tiles_per_warp: Optional[List[int]] = None
    cga_layout: List[List[int]] = field(default_factory=list)


@dataclass(frozen=True)
class SwizzledSharedLayout:
    """``#ttg.swizzled_shared``: vec, per_phase, max_phase, order."""

    vec: int
    per_phase: int
    max_phase: int
    order: List[int]
    cga_layout: List[List[int]] = field(default_factory=list)


@dataclass(frozen=True)
class PaddedSharedLayout:
    """``#ttg.padded_shared``: [interval, padding] pairs and the linear component's offset bases."""

    interval_padding_pairs: List[List[int]]
    offset_bases: List[List[int]]
    block_bases: List[List[int]]
    shape: List[int]

    @staticmethod
    def with_identity_for(interval_padding_pairs: List[List[int]], shape: List[int],
                          order: List[int]) -> "PaddedSharedLayout":
        """The padded layout whose linear component is the identity along ``order`` (fastest first)."""
        bases = []
        for dim in order:
            n = 1
            while n < shape[dim]:
                bases.append([n if i == dim else 0 for i in range(len(shape))])
                n *= 2
        return PaddedSharedLayout([list(p) for p in interval_padding_pairs], bases, [], list(shape))


@dataclass(frozen=True)
class NVMMASharedLayout:
    """``#ttg.nvmma_shared``: swizzle_byte_width (0, 32, 64, 128), element_bitwidth, rank, transposed."""

    swizzle_byte_width: int
    element_bitwidth: int
    rank: int = 2
    transposed: bool = False
    fp4_padded: bool = False
    cga_layout: List[List[int]] = field(default_factory=list)


@dataclass(frozen=True)
class SharedLinearLayout:
    """``#ttg.shared_linear``: explicit offset bases (and block bases), alignment in bytes."""

    offset_bases: List[List[int]]
    block_bases: List[List[int]] = field(default_factory=list)
    alignment: int = 16


class dtype:
    """A Triton element type by its name (``gl.float16.name == "fp16"``), as
    ``triton.language.dtype``; :mod:`liblayout.gluon` reads any dtype by ``name``."""

    def __init__(self, name: str) -> None:
        if name not in _DTYPE_BITS:
            raise ValueError("dtype %r: unknown; known: %s" % (name, ", ".join(sorted(_DTYPE_BITS))))
        self.name = name
        self.primitive_bitwidth = _DTYPE_BITS[name]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return "gl.%s" % _DTYPE_ATTR[self.name]


#: Triton's dtype names and widths, and the attribute of ``gl`` each is bound to.
_DTYPE_BITS = {"int1": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16,
               "uint32": 32, "uint64": 64, "fp8e5": 8, "fp8e5b16": 8, "fp8e4nv": 8, "fp8e4b8": 8,
               "fp8e4b15": 8, "fp16": 16, "bf16": 16, "fp32": 32, "fp64": 64}
_DTYPE_ATTR = {"int1": "int1", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
               "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
               "fp8e5": "float8e5", "fp8e5b16": "float8e5b16", "fp8e4nv": "float8e4nv", "fp8e4b8": "float8e4b8",
               "fp8e4b15": "float8e4b15", "fp16": "float16", "bf16": "bfloat16", "fp32": "float32",
               "fp64": "float64"}
DTYPES = {attr: dtype(name) for name, attr in _DTYPE_ATTR.items()}


class distributed_type:
    """The type of a register tensor: element type, shape and distributed layout (Gluon's
    ``distributed_type(element_ty, shape, layout)``), what ``gl.bank_conflicts`` and
    :func:`liblayout.gluon.bank_conflicts` take."""

    def __init__(self, element_ty: Any, shape: Sequence[int], layout: Any) -> None:
        self.element_ty = element_ty
        self.scalar = element_ty
        self.shape = list(shape)
        self.layout = layout

    def __repr__(self) -> str:
        return "distributed_type(%r, %r, %r)" % (self.element_ty, self.shape, self.layout)


class shared_memory_descriptor_type:
    """The type of a shared-memory buffer: element type, shape, shared layout and the
    allocation's shape (Gluon's ``shared_memory_descriptor_type(element_ty, shape, layout,
    alloc_shape)``)."""

    def __init__(self, element_ty: Any, shape: Sequence[int], layout: Any, alloc_shape: Sequence[int]) -> None:
        self.element_ty = element_ty
        self.shape = list(shape)
        self.layout = layout
        self.alloc_shape = list(alloc_shape)

    def __repr__(self) -> str:
        return "shared_memory_descriptor_type(%r, %r, %r, %r)" % (self.element_ty, self.shape, self.layout,
                                                                 self.alloc_shape)
