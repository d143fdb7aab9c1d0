"""Stand-ins for Triton Gluon's layout classes, for users without Triton.

Each class has the name and the attributes (field names, order, defaults) of
the layout class of ``triton.experimental.gluon.language`` (and its ``amd``
submodule) that Triton 3.6 ships; :mod:`liblayout.gluon` reads either kind
by class name and attributes, so these and Triton's own objects are
interchangeable there.  They only hold values: no checking, no IR.
Multi-CTA fields (``cga_layout`` of Triton 3.6, after the fields above in
the same position; ``ctas_per_cga`` .. ``cta_order`` of earlier Gluon, by
keyword) are accepted and must describe one CTA.

    from liblayout.gluon import layouts as gl
    reg = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    smem = gl.SwizzledSharedLayout(8, 2, 4, [1, 0])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional

__all__ = [
    "BlockedLayout",
    "SliceLayout",
    "DotOperandLayout",
    "DistributedLinearLayout",
    "NVMMADistributedLayout",
    "AMDMFMALayout",
    "AMDWMMALayout",
    "SwizzledSharedLayout",
    "PaddedSharedLayout",
    "NVMMASharedLayout",
    "SharedLinearLayout",
]


@dataclass(frozen=True)
class BlockedLayout:
    """``#ttg.blocked``: sizePerThread, threadsPerWarp, warpsPerCTA, order."""

    size_per_thread: List[int]
    threads_per_warp: List[int]
    warps_per_cta: List[int]
    order: List[int]
    cga_layout: List[List[int]] = field(default_factory=list)
    ctas_per_cga: Optional[List[int]] = None
    cta_split_num: Optional[List[int]] = None
    cta_order: Optional[List[int]] = None


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
    ctas_per_cga: Optional[List[int]] = None
    cta_split_num: Optional[List[int]] = None
    cta_order: Optional[List[int]] = None


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
    ctas_per_cga: Optional[List[int]] = None
    cta_split_num: Optional[List[int]] = None
    cta_order: Optional[List[int]] = None


@dataclass(frozen=True)
class PaddedSharedLayout:
    """``#ttg.padded_shared``: [interval, padding] pairs and the linear component's offset bases."""

    interval_padding_pairs: List[List[int]]
    offset_bases: List[List[int]]
    block_bases: List[List[int]] = field(default_factory=list)
    shape: Optional[List[int]] = None

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
    ctas_per_cga: Optional[List[int]] = None
    cta_split_num: Optional[List[int]] = None
    cta_order: Optional[List[int]] = None


@dataclass(frozen=True)
class SharedLinearLayout:
    """``#ttg.shared_linear``: explicit offset bases (and block bases), alignment in bytes."""

    offset_bases: List[List[int]]
    block_bases: List[List[int]] = field(default_factory=list)
    alignment: int = 16
