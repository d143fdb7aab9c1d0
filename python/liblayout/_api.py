"""The public classes and functions (re-exported by ``liblayout``)."""

from __future__ import annotations

import ctypes
import json
from array import array
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _dialect as D
from . import _native as N
from ._errors import LayoutError, Status
from ._native import encode as _encode

Buffer = Any  # any object with the writable buffer protocol (array, bytearray, memoryview, numpy)

_ELEM_SIZES = (1, 2, 4, 8, 16)
_DIRECTIONS = {"read": 0, "write": 1}
_OPS = {"auto": 0, "b8": 1, "b16": 2, "b32": 3, "b64": 4, "b96": 5, "b128": 6, "pair_b32": 7}
_POLICIES = {"trust": 0, "split": 1}


def _lib() -> N.Native:
    return N.native()


def _arg_error(message: str) -> LayoutError:
    return LayoutError(message, status=Status.ERR_ARG)


def _int64_array(values: Iterable[int], what: str) -> "ctypes.Array[ctypes.c_int64]":
    vals = [int(v) for v in values]
    for v in vals:
        if not -(1 << 63) <= v < (1 << 63):
            raise LayoutError(f"{what}: {v} does not fit int64", status=Status.ERR_OVERFLOW)
    return (ctypes.c_int64 * max(len(vals), 1))(*vals)


def _writable_int64(buf: Buffer, n: int, what: str) -> "ctypes.Array[ctypes.c_int64]":
    """A ctypes int64 array over the caller's buffer (zero-copy), checked."""
    try:
        view = memoryview(buf)
    except TypeError:
        raise TypeError(f"{what}: out must support the buffer protocol (array('q'), bytearray, ...)") from None
    if view.readonly:
        raise TypeError(f"{what}: out is read-only")
    if not view.c_contiguous:
        raise TypeError(f"{what}: out must be C-contiguous")
    if view.itemsize != 1 and not (view.itemsize == 8 and view.format in ("q", "l", "<q", "<l", "=q", "=l", "@q", "@l")):
        raise TypeError(f"{what}: out must hold int64 items (format 'q'), not {view.format!r}")
    if n == 0:
        return (ctypes.c_int64 * 1)()  # nothing is written
    if view.nbytes < 8 * n:
        raise LayoutError(
            f"{what}: out holds {view.nbytes // 8} int64 values, {n} are needed", status=Status.ERR_BUFFER
        )
    flat = view.cast("B") if view.ndim != 1 or view.format != "B" else view
    return (ctypes.c_int64 * max(n, 1)).from_buffer(flat)


# --------------------------------------------------------------------------------------------
# Architectures


class Arch:
    """A GPU architecture's LDS / shared-memory model (``layout_arch``).

    ``Arch("gfx942")`` takes a preset name; ``Arch("arch(base=gfx942, banks=64)")``
    any text of text.h.  Properties: :attr:`name`, :attr:`n_banks`,
    :attr:`bank_bytes`, :attr:`wave_size`, :attr:`text` (canonical text).

    >>> Arch("gfx942").n_banks
    32
    """

    __slots__ = ("_blob",)

    def __init__(self, text: str) -> None:
        lib = _lib()
        data = _encode(text, "Arch")
        blob = lib.blob("layout_arch")
        where = ctypes.c_size_t(0)
        err = N.Error()
        status = lib.lib.layout_arch_from_text(data, blob.ptr, ctypes.byref(where), ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err, data, where.value)
        self._blob = blob

    @staticmethod
    def presets() -> List[str]:
        """Names of the preset architectures, e.g. ``['gfx90a', 'gfx942', ...]``."""
        lib = _lib().lib
        return [lib.layout_arch_preset_name(i).decode() for i in range(lib.layout_arch_preset_count())]

    def _head(self) -> N.ArchHead:
        return N.ArchHead.from_address(self._blob.ptr.value)

    @property
    def name(self) -> str:
        """The architecture's name, e.g. ``"gfx942"``."""
        return self._head().name.decode("utf-8", "replace")

    @property
    def n_banks(self) -> int:
        """Number of LDS banks (32 on gfx942, 64 on gfx950)."""
        return int(self._head().n_banks)

    @property
    def bank_bytes(self) -> int:
        """Bytes per bank word (4 or 8)."""
        return int(self._head().bank_width_bytes)

    @property
    def wave_size(self) -> int:
        """Lanes per wave / warp (32 or 64)."""
        return int(self._head().wave_size)

    @property
    def text(self) -> str:
        """Canonical text: the preset name, or the full ``arch(...)`` form."""
        return _lib().text_of("layout_arch_to_text", self._blob.ptr)

    def describe(self) -> str:
        """Human description: banks, wave, every rule's lane groups, sources, confidence."""
        lib = _lib()
        need = ctypes.c_size_t(0)
        err = N.Error()
        status = lib.lib.layout_arch_format(self._blob.ptr, None, 0, ctypes.byref(need), ctypes.byref(err))
        if status != 0:  # pragma: no cover - a constructed Arch is always valid
            raise lib.fail(status, err)
        buf = ctypes.create_string_buffer(need.value + 1)
        lib.lib.layout_arch_format(self._blob.ptr, buf, need.value + 1, None, None)
        return buf.value.decode("utf-8", "replace")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Arch):
            return NotImplemented
        return bool(_lib().lib.layout_arch_same_model(self._blob.ptr, other._blob.ptr))

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Arch({self.text!r})"


def _as_arch(arch: Union[Arch, str]) -> Arch:
    return arch if isinstance(arch, Arch) else Arch(arch)


# --------------------------------------------------------------------------------------------
# Descriptors


class Descriptor:
    """An LDS tensor descriptor (``layout_descriptor``): coordinates -> element offsets.

    Build one from liblayout's text form (include/layout/text.h) or with the
    base constructors; it is immutable.  Offsets are in elements.

    >>> d = Descriptor.from_text("naive([64,32],[34,1])")   # seed kernel 03
    >>> d.offset(3, 5)
    107
    """

    __slots__ = ("_blob", "_plan", "_size", "_ndims", "__weakref__")

    def __init__(self) -> None:
        raise TypeError("use Descriptor.from_text(), Descriptor.naive() or Descriptor.packed()")

    @classmethod
    def _wrap(cls, blob: N.Blob) -> "Descriptor":
        self = object.__new__(cls)
        self._blob = blob
        self._plan = None
        lib = _lib().lib
        self._size = int(lib.layout_desc_size(blob.ptr))  # immutable: asked once
        self._ndims = int(lib.layout_desc_ndims(blob.ptr))
        return self

    @classmethod
    def from_text(cls, text: str) -> "Descriptor":
        """Parse the text form, e.g. ``"packed([64,32])"`` or
        ``"naive([8,32,8],[8,64,1]) | T{...}"``.  A syntax error raises
        :class:`LayoutError` with status ``ERR_PARSE``, the column in the
        message, and :attr:`LayoutError.where` / :attr:`LayoutError.caret`."""
        lib = _lib()
        data = _encode(text, "Descriptor.from_text")
        blob = lib.blob("layout_descriptor")
        where = ctypes.c_size_t(0)
        err = N.Error()
        status = lib.lib.layout_desc_from_text(data, blob.ptr, ctypes.byref(where), ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err, data, where.value)
        return cls._wrap(blob)

    @classmethod
    def naive(cls, lengths: Sequence[int], strides: Sequence[int]) -> "Descriptor":
        """ck_tile's make_naive_tensor_descriptor: offset = sum coord[i] * strides[i]."""
        lib = _lib()
        if len(lengths) != len(strides):
            raise LayoutError(
                f"Descriptor.naive: {len(lengths)} lengths but {len(strides)} strides", status=Status.ERR_MISMATCH
            )
        blob = lib.blob("layout_descriptor")
        err = N.Error()
        status = lib.lib.layout_naive(
            blob.ptr, len(lengths), _int64_array(lengths, "lengths"), _int64_array(strides, "strides"),
            ctypes.byref(err),
        )
        if status != 0:
            raise lib.fail(status, err)
        return cls._wrap(blob)

    @classmethod
    def packed(cls, lengths: Sequence[int]) -> "Descriptor":
        """ck_tile's make_naive_tensor_descriptor_packed: row-major, contiguous."""
        lib = _lib()
        blob = lib.blob("layout_descriptor")
        err = N.Error()
        status = lib.lib.layout_packed(blob.ptr, len(lengths), _int64_array(lengths, "lengths"), ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err)
        return cls._wrap(blob)

    @classmethod
    def from_dialect(cls, text: str, dialect: Optional[str] = None,
                     shape: Optional[Sequence[int]] = None) -> "Descriptor":
        """A descriptor written in another dialect: CuTe ``Sw<3,4,3> o _0 o
        (_8,_64):(_64,_1)``, Triton ``#ttg.swizzled_shared<...>`` (needs
        ``shape``), IREE ``#iree_codegen.xor_shuffle<...>``, linear bases, or
        ck text; ``dialect`` None detects it.  Needs a library with dialect.h."""
        return cls._wrap(D.desc_blob(text, dialect, shape))

    def to_dialect(self, dialect: str) -> str:
        """This descriptor written in ``dialect`` (``"cute"``, ``"triton"``, ...);
        ``ERR_UNSUPPORTED`` says why a dialect cannot express it."""
        return D.desc_text(self._blob, dialect)

    # -- properties ---------------------------------------------------------------------

    @property
    def ndims(self) -> int:
        """Number of top (visible) dimensions."""
        return self._ndims

    @property
    def shape(self) -> Tuple[int, ...]:
        """Top lengths, e.g. ``(64, 32)``."""
        lib = _lib().lib
        return tuple(int(lib.layout_desc_length(self._blob.ptr, i)) for i in range(self.ndims))

    @property
    def size(self) -> int:
        """Number of top coordinates (product of the lengths)."""
        return self._size

    @property
    def element_space_size(self) -> int:
        """Elements the tensor spans (ck_tile's element space size)."""
        return int(_lib().lib.layout_desc_element_space_size(self._blob.ptr))

    @property
    def text(self) -> str:
        """Canonical text form; ``Descriptor.from_text(d.text)`` is the same descriptor."""
        return _lib().text_of("layout_desc_to_text", self._blob.ptr)

    def describe(self) -> str:
        """Readable print: lengths, element space size, the transform chain."""
        lib = _lib()
        return lib.snprintf_text(lib.lib.layout_desc_print, self._blob.ptr)

    # -- offsets -----------------------------------------------------------------------

    def offset(self, *coord: int) -> int:
        """Element offset of one coordinate: ``d.offset(3, 5)``; raises
        :class:`LayoutError` (``ERR_RANGE``) outside the lengths."""
        lib = _lib()
        if len(coord) == 1 and hasattr(coord[0], "__iter__"):
            coord = tuple(coord[0])  # d.offset((3, 5)) works too
        if len(coord) != self.ndims:
            raise LayoutError(
                f"Descriptor.offset: {len(coord)} coordinates given, the descriptor has {self.ndims} dims",
                status=Status.ERR_MISMATCH,
            )
        out = ctypes.c_int64(0)
        err = N.Error()
        status = lib.lib.layout_desc_offset(self._blob.ptr, _int64_array(coord, "coord"), ctypes.byref(out),
                                            ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err)
        return int(out.value)

    def is_valid(self, *coord: int) -> bool:
        """False when the coordinate lies in padding (a pad transform rejects it)."""
        lib = _lib()
        if len(coord) == 1 and hasattr(coord[0], "__iter__"):
            coord = tuple(coord[0])
        if len(coord) != self.ndims:
            raise LayoutError(
                f"Descriptor.is_valid: {len(coord)} coordinates given, the descriptor has {self.ndims} dims",
                status=Status.ERR_MISMATCH,
            )
        out = ctypes.c_int(0)
        err = N.Error()
        status = lib.lib.layout_desc_is_valid(self._blob.ptr, _int64_array(coord, "coord"), ctypes.byref(out),
                                              ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err)
        return bool(out.value)

    def _compiled(self) -> Optional[N.Blob]:
        """The compiled plan (layout_plan_build), built once; None when the
        descriptor exceeds a plan capacity (offsets then use the interpreter)."""
        if self._plan is None:
            lib = _lib()
            plan = lib.blob("layout_plan")
            err = N.Error()
            status = lib.lib.layout_plan_build(plan.ptr, self._blob.ptr, 0, ctypes.byref(err))
            self._plan = plan if status == 0 else False
        return self._plan or None

    def _tile(self, out_ptr: Any, valid_ptr: Any, n: int) -> None:
        lib = _lib()
        plan = self._plan if self._plan is not None else self._compiled()
        if plan:
            # the buffers hold n values (checked by the callers): this cannot fail,
            # so the hot path skips the error record
            status = lib.lib.layout_plan_tile(plan.ptr, out_ptr, valid_ptr, n, None)
            if status != 0:  # pragma: no cover
                err = N.Error()
                status = lib.lib.layout_plan_tile(plan.ptr, out_ptr, valid_ptr, n, ctypes.byref(err))
                raise lib.fail(status, err)
            return
        err = N.Error()
        coords = self._all_coords()
        status = lib.lib.layout_desc_offsets(self._blob.ptr, n, coords.buffer_info()[0] if n else None, out_ptr,
                                             ctypes.byref(err))
        if status != 0:  # pragma: no cover
            raise lib.fail(status, err)
        if valid_ptr is not None:
            valid = (ctypes.c_uint8 * max(n, 1)).from_address(valid_ptr)
            nd = self.ndims
            for k in range(n):
                valid[k] = 1 if self.is_valid(*coords[k * nd:(k + 1) * nd]) else 0

    def _all_coords(self) -> "array[int]":
        shape = self.shape
        coords = array("q")
        n = self.size
        nd = len(shape)
        for k in range(n):
            rest = k
            c = [0] * nd
            for j in range(nd - 1, -1, -1):
                c[j] = rest % shape[j]
                rest //= shape[j]
            coords.extend(c)
        return coords

    def offsets(self, coords: Optional[Union[Sequence[Sequence[int]], Buffer]] = None, *,
                out: Optional[Buffer] = None) -> Any:
        """Element offsets of many coordinates in one call.

        Args:
            coords: None (default) for every coordinate of the descriptor in
                row-major order (last dim fastest; through the compiled plan,
                AVX2 when available); or a sequence of coordinate tuples; or a
                flat int64 buffer (``array('q')``, format ``'q'``) of
                ``n * ndims`` values, read without copying.
            out: optional writable buffer of at least n int64 values
                (``array('q')``, ``bytearray(8 * n)``, a numpy int64 array...):
                the offsets are written into it without a copy and it is
                returned.

        Returns:
            ``out`` when given, else a new ``array('q')`` (``.tolist()`` gives a list).

        Raises:
            LayoutError: ``ERR_RANGE`` naming ``coords[k][d]`` for a
                coordinate outside the lengths (nothing is written);
                ``ERR_BUFFER`` when ``out`` is too small.
        """
        lib = _lib()
        nd = self._ndims
        if coords is None:
            n = self._size
            if out is not None:
                if type(out) is array and out.typecode == "q" and len(out) >= n > 0:
                    self._tile(out.buffer_info()[0], None, n)  # the common zero-copy case
                    return out
                target = _writable_int64(out, n, "Descriptor.offsets")
                if n:
                    self._tile(ctypes.addressof(target), None, n)
                return out
            result = array("q", bytes(8 * n))
            self._tile(result.buffer_info()[0] if n else None, None, n)
            return result
        flat = _coords_buffer(coords, nd)
        n = len(flat) // nd if nd else 0
        if out is not None:
            target = _writable_int64(out, n, "Descriptor.offsets")
            out_ptr = ctypes.addressof(target)
            result = out
        else:
            result = array("q", bytes(8 * n))
            out_ptr = result.buffer_info()[0] if n else None
        err = N.Error()
        coords_ptr = ctypes.addressof(flat) if isinstance(flat, ctypes.Array) else flat.buffer_info()[0]
        status = lib.lib.layout_desc_offsets(self._blob.ptr, n, coords_ptr if n else None, out_ptr,
                                             ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err)
        return result

    def valid(self) -> "array[int]":
        """``array('B')`` of 1 / 0 per coordinate (row-major): 0 where a pad rejects it."""
        n = self.size
        offs = array("q", bytes(8 * n))
        valid = array("B", bytes(n))
        if n:
            self._tile(offs.buffer_info()[0], valid.buffer_info()[0], n)
        return valid

    def banks(self, arch: Union[Arch, str], elem: int = 2, base: int = 0) -> "array[int]":
        """LDS bank of every coordinate, row-major (``array('i')``; -1 in padding).

        ``bank = ((base + offset * elem) // bank_bytes) % n_banks`` for the
        element's first byte, exactly ``layout banks``.  ``elem`` is the
        element size in bytes (1, 2, 4, 8, 16), ``base`` the byte address of
        offset 0.  Reshape with ``d.shape``:
        ``rows = [b[r * cols:(r + 1) * cols] for r in range(d.shape[0])]``.
        """
        a = _as_arch(arch)
        if elem not in _ELEM_SIZES:
            raise _arg_error(f"Descriptor.banks: elem = {elem!r} must be 1, 2, 4, 8 or 16")
        if not isinstance(base, int) or base < 0:
            raise _arg_error(f"Descriptor.banks: base = {base!r} must be an int >= 0")
        n = self.size
        offs = array("q", bytes(8 * n))
        valid = array("B", bytes(n))
        if n:
            self._tile(offs.buffer_info()[0], valid.buffer_info()[0], n)
        bw, nb = a.bank_bytes, a.n_banks
        out = array("i", bytes(4 * n))
        for k in range(n):
            addr = base + offs[k] * elem
            out[k] = (addr // bw) % nb if valid[k] and addr >= 0 else -1
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Descriptor):
            return NotImplemented
        return self.text == other.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Descriptor.from_text({self.text!r})"


def _coords_buffer(coords: Any, nd: int) -> Any:
    """Flat int64 coordinates: zero-copy for an int64 buffer, else converted."""
    if isinstance(coords, (array, memoryview, bytearray, bytes)) or hasattr(coords, "__array_interface__"):
        view = memoryview(coords)
        if view.itemsize == 8 and view.format in ("q", "l", "<q", "<l", "=q", "=l", "@q", "@l"):
            if not view.c_contiguous:
                raise TypeError("Descriptor.offsets: coords buffer must be C-contiguous")
            count = view.nbytes // 8
            if nd == 0 or count % nd:
                raise LayoutError(
                    f"Descriptor.offsets: {count} coordinate values is not a multiple of ndims = {nd}",
                    status=Status.ERR_MISMATCH,
                )
            if view.readonly:
                return (ctypes.c_int64 * max(count, 1))(*view.cast("B").cast("q"))
            return (ctypes.c_int64 * max(count, 1)).from_buffer(view.cast("B"))
        if isinstance(coords, array):
            raise TypeError(f"Descriptor.offsets: coords array must have typecode 'q', not {coords.typecode!r}")
    flat = array("q")
    for k, c in enumerate(coords):
        c = tuple(c)
        if len(c) != nd:
            raise LayoutError(
                f"Descriptor.offsets: coords[{k}] has {len(c)} values, the descriptor has {nd} dims",
                status=Status.ERR_MISMATCH,
            )
        flat.extend(c)
    return flat


def _as_desc(d: Union[Descriptor, str]) -> Descriptor:
    return d if isinstance(d, Descriptor) else Descriptor.from_text(d)


# --------------------------------------------------------------------------------------------
# Distributions


class Distribution:
    """A ck_tile tile distribution (``layout_distribution``): which lane of which
    warp holds which tile element.

    >>> w = Distribution.from_text(
    ...     "dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])")
    >>> (w.n_warps, w.wave_size, w.shape, w.coord(1, 5, 3))
    (4, 64, (64, 32), (17, 11))
    """

    __slots__ = ("_blob", "_table")

    def __init__(self) -> None:
        raise TypeError("use Distribution.from_text() or Distribution.from_dialect()")

    @classmethod
    def _wrap(cls, blob: N.Blob, table: Any = None) -> "Distribution":
        self = object.__new__(cls)
        self._blob = blob
        self._table = table  # a table distribution borrows its table: kept alive here
        return self

    @classmethod
    def from_dialect(cls, text: str, dialect: Optional[str] = None,
                     shape: Optional[Sequence[int]] = None, max_table: int = 1 << 20) -> "Distribution":
        """A distribution in another dialect: Triton ``#ttg.blocked``,
        ``#ttg.amd_mfma``, ``#ttg.amd_wmma``, ``#ttg.nvidia_mma``,
        ``#ttg.dot_op``, ``#ttg.slice`` (each needs ``shape``), linear bases,
        or ck ``dist(...)``; ``dialect`` None detects it.  Needs a library
        with dialect.h.  A table distribution keeps its table (up to
        ``max_table`` values) with it."""
        blob, table = D.dist_blob(text, dialect, shape, max_table)
        return cls._wrap(blob, table)

    @classmethod
    def from_text(cls, text: str, wave_size: int = 0, n_warps: int = 0) -> "Distribution":
        """Parse ``dist(R=[...], H=(...), P=(...), Y=[...])``; ``wave_size`` /
        ``n_warps`` 0 take them from the encoding (see text.h)."""
        lib = _lib()
        data = _encode(text, "Distribution.from_text")
        blob = lib.blob("layout_distribution")
        where = ctypes.c_size_t(0)
        err = N.Error()
        status = lib.lib.layout_dist_from_text(data, int(wave_size), int(n_warps), blob.ptr, ctypes.byref(where),
                                               ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err, data, where.value)
        return cls._wrap(blob)

    def _head(self) -> N.DistHead:
        return N.DistHead.from_address(self._blob.ptr.value)

    @property
    def wave_size(self) -> int:
        """Lanes per warp / wave."""
        return int(self._head().wave_size)

    @property
    def n_warps(self) -> int:
        """Warps (waves) of the block."""
        return int(self._head().n_warps)

    @property
    def shape(self) -> Tuple[int, ...]:
        """The tile lengths X, e.g. ``(64, 32)``."""
        h = self._head()
        return tuple(int(h.x_lengths[i]) for i in range(h.n_x))

    @property
    def y_lengths(self) -> Tuple[int, ...]:
        """Per-thread register dims Y."""
        h = self._head()
        return tuple(int(h.y_lengths[i]) for i in range(h.n_y))

    @property
    def elems_per_thread(self) -> int:
        """Elements each thread holds (product of the Y lengths)."""
        return int(self._head().elems_per_thread)

    @property
    def text(self) -> str:
        """Canonical text of the encoding."""
        return _lib().text_of("layout_dist_to_text", self._blob.ptr)

    def coord(self, warp: int, lane: int, elem: int) -> Tuple[int, ...]:
        """Tile coordinate held by ``lane`` of ``warp`` at register index ``elem``."""
        lib = _lib()
        x = (ctypes.c_int64 * N.MAX_DIMS)()
        err = N.Error()
        status = lib.lib.layout_dist_coord_elem(self._blob.ptr, int(warp), int(lane), int(elem), x,
                                                ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err)
        return tuple(int(x[i]) for i in range(self._head().n_x))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self.text == other.text and self.n_warps == other.n_warps and self.wave_size == other.wave_size

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Distribution.from_text({self.text!r})"


def _as_dist(d: Union[Distribution, str], wave_size: int = 0) -> Distribution:
    return d if isinstance(d, Distribution) else Distribution.from_text(d, wave_size)


# --------------------------------------------------------------------------------------------
# Instructions and the checker


class Instr:
    """One wave-level LDS instruction (``layout_instr``): every lane's byte address.

    Args:
        addresses: byte address of each lane (32 or 64 of them, the wave size).
        width: bytes per lane: 1, 2, 4, 8, 12 or 16.
        direction: ``"read"`` or ``"write"``.
        active: None (every lane), an int lane mask, or one bool per lane.

    >>> Instr.strided(64, 4, base=0, stride=128)   # every lane on bank 0
    Instr(n_lanes=64, width=4, direction='read')
    """

    __slots__ = ("_c",)

    def __init__(self, addresses: Sequence[int], width: int, direction: str = "read",
                 active: Union[None, int, Sequence[bool]] = None) -> None:
        lib = _lib()
        if direction not in _DIRECTIONS:
            raise _arg_error(f"Instr: direction = {direction!r} must be 'read' or 'write'")
        c = N.Instr()
        err = N.Error()
        status = lib.lib.layout_instr_init(ctypes.byref(c), len(addresses), int(width), _DIRECTIONS[direction],
                                           ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err)
        for i, a in enumerate(addresses):
            a = int(a)
            if not 0 <= a <= 0xFFFFFFFF:
                raise LayoutError(f"Instr: addresses[{i}] = {a} is outside 0..4294967295", status=Status.ERR_RANGE)
            c.addr_bytes[i] = a
        if active is not None:
            if isinstance(active, int):
                mask = active
            else:
                flags = list(active)
                if len(flags) != len(addresses):
                    raise LayoutError(f"Instr: {len(flags)} active flags for {len(addresses)} lanes",
                                      status=Status.ERR_MISMATCH)
                mask = sum(1 << i for i, f in enumerate(flags) if f)
            if not 0 <= mask < (1 << len(addresses)):
                raise _arg_error(f"Instr: active mask {mask:#x} has bits beyond lane {len(addresses) - 1}")
            c.active_mask = mask
        self._c = c

    @classmethod
    def strided(cls, n_lanes: int, width: int, base: int = 0, stride: int = 0,
                direction: str = "read") -> "Instr":
        """Lane ``l`` at byte ``base + l * stride`` (layout_instr_fill_strided)."""
        self = cls([0] * max(int(n_lanes), 0), width, direction)
        lib = _lib()
        err = N.Error()
        status = lib.lib.layout_instr_fill_strided(ctypes.byref(self._c), int(base), int(stride), ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err)
        return self

    @property
    def addresses(self) -> List[int]:
        """Byte address of every lane."""
        return list(self._c.addr_bytes[: self._c.n_lanes])

    @property
    def active_mask(self) -> int:
        """Bit l set = lane l active."""
        return int(self._c.active_mask)

    @property
    def width(self) -> int:
        """Bytes per lane."""
        return int(self._c.width_bytes)

    @property
    def direction(self) -> str:
        """``"read"`` or ``"write"``."""
        return "write" if self._c.direction == 1 else "read"

    def __repr__(self) -> str:
        return f"Instr(n_lanes={self._c.n_lanes}, width={self.width}, direction={self.direction!r})"


class CheckResult:
    """The checker's report (report.h): totals and the worst instruction explained.

    Attributes:
        extra_cycles: conflict cycles over every instruction (0 = conflict-free).
        total_cycles: cycles including one per lane group.
        n_instrs: instructions checked.
        text: the report as text (``layout_check_report_text``).
        json: the report as a JSON string (``layout_check_report_json``).
    """

    __slots__ = ("extra_cycles", "total_cycles", "n_instrs", "text", "json")

    def __init__(self, report: N.Blob) -> None:
        lib = _lib()
        self.text: str = lib.report_text("layout_check_report_text", report)
        self.json: str = lib.report_text("layout_check_report_json", report)
        data = json.loads(self.json)
        self.extra_cycles: int = int(data["extra_cycles"])
        self.total_cycles: int = int(data["total_cycles"])
        self.n_instrs: int = int(data["n_instrs"])

    @property
    def data(self) -> Dict[str, Any]:
        """The JSON report parsed (``json.loads(result.json)``)."""
        return json.loads(self.json)

    @property
    def conflict_free(self) -> bool:
        """True when no instruction has an extra cycle."""
        return self.extra_cycles == 0

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"CheckResult(extra_cycles={self.extra_cycles}, total_cycles={self.total_cycles}, " \
               f"n_instrs={self.n_instrs})"


def check(arch: Union[Arch, str], instrs: Iterable[Instr]) -> CheckResult:
    """Bank-conflict check of a set of instructions (``layout_check``).

    >>> check("gfx942", [Instr.strided(64, 4, stride=128)]).extra_cycles
    62
    """
    lib = _lib()
    a = _as_arch(arch)
    items = list(instrs)
    for i, it in enumerate(items):
        if not isinstance(it, Instr):
            raise TypeError(f"check: instrs[{i}] is a {type(it).__name__}, not an Instr")
    arr = (N.Instr * max(len(items), 1))(*[it._c for it in items])
    report = lib.blob("layout_check_report")
    err = N.Error()
    got = lib.lib.layout_check(a._blob.ptr, arr, len(items), report.ptr, ctypes.byref(err))
    if got < 0:
        raise lib.fail(int(got), err)
    return CheckResult(report)


# --------------------------------------------------------------------------------------------
# The triple check


@dataclass(frozen=True)
class AccessOptions:
    """Per-side options of the triple check (``layout_access_options``).

    Attributes:
        op: ``"auto"`` (the model chooses, default) or the DS op of every
            instruction: ``"b8" "b16" "b32" "b64" "b96" "b128" "pair_b32"``.
        policy: ``"trust"`` (one instruction per vector, as ck_tile and the
            compiler do; flagged when misaligned) or ``"split"`` (the legal split).
        vector_elems: 0 = ScalarPerVector from the descriptor's hints, > 0 forces it.
        vector_y: with ``vector_elems``: the Y dim to vectorise.
        no_merge: do not merge across tile-window accesses.
        base: byte address of element offset 0 in LDS (affects alignment).
    """

    op: str = "auto"
    policy: str = "trust"
    vector_elems: int = 0
    vector_y: int = 0
    no_merge: bool = False
    base: int = 0

    def _to_c(self) -> N.AccessOptions:
        if self.op not in _OPS:
            raise _arg_error(f"AccessOptions: op = {self.op!r} must be one of {', '.join(_OPS)}")
        if self.policy not in _POLICIES:
            raise _arg_error(f"AccessOptions: policy = {self.policy!r} must be 'trust' or 'split'")
        c = N.AccessOptions()
        c.op = _OPS[self.op]
        c.policy = _POLICIES[self.policy]
        c.vector_elems = int(self.vector_elems)
        c.vector_y = int(self.vector_y)
        c.no_merge = 1 if self.no_merge else 0
        c.base_bytes = int(self.base)
        return c


class SideResult:
    """One side (write or read) of a triple check, per tile (``layout_side_result``)."""

    __slots__ = ("_c",)

    def __init__(self, c: N.SideResult) -> None:
        self._c = c

    direction = property(lambda self: "write" if self._c.direction == 1 else "read",
                         doc="``'write'`` or ``'read'``")
    steps_per_wave = property(lambda self: int(self._c.steps_per_wave),
                              doc="DS instructions each wave issues per tile")
    n_warps = property(lambda self: int(self._c.n_warps), doc="warps of the distribution")
    n_misaligned = property(lambda self: int(self._c.n_misaligned), doc="flagged misaligned steps per wave")
    n_noncontiguous = property(lambda self: int(self._c.n_noncontiguous),
                               doc="flagged non-contiguous steps per wave")
    instrs_per_tile = property(lambda self: int(self._c.instrs_per_tile), doc="steps_per_wave * n_warps")
    extra_cycles_per_tile = property(lambda self: int(self._c.extra_cycles_per_tile),
                                     doc="conflict cycles of all warps' instructions")
    total_cycles_per_tile = property(lambda self: int(self._c.total_cycles_per_tile),
                                     doc="total cycles (groups + extra)")
    worst_warp = property(lambda self: int(self._c.worst_warp), doc="warp of the worst instruction (-1: none)")
    worst_step = property(lambda self: int(self._c.worst_step), doc="its step (-1: none)")
    worst_extra = property(lambda self: int(self._c.worst_extra), doc="its extra cycles")
    sq_lds_bank_conflict = property(lambda self: int(self._c.sq_lds_bank_conflict),
                                    doc="extra_cycles_per_tile * tiles")
    sq_insts_lds = property(lambda self: int(self._c.sq_insts_lds), doc="instrs_per_tile * tiles")
    ops = property(lambda self: self._c.ops.decode("utf-8", "replace"),
                   doc="plan summary, e.g. ``'8 x ds_read_u16'``")

    @property
    def op_count(self) -> Dict[str, int]:
        """Instructions per wave by op name, e.g. ``{'ds_read_u16': 8}``."""
        lib = _lib().lib
        out = {}
        for op in range(N.DS_OP_COUNT):
            n = int(self._c.op_count[op])
            if n:
                out[lib.layout_ds_op_name(op, self._c.direction).decode()] = n
        return out

    def __repr__(self) -> str:
        return f"SideResult({self.direction}: {self.ops!r}, {self.extra_cycles_per_tile} extra cycles per tile)"


class KernelResult:
    """Result of :func:`check_kernel` / :func:`check_triple` (``layout_kernel_result``).

    Attributes ``write`` / ``read`` are the per-side views (:class:`SideResult`).
    """

    __slots__ = ("_c", "_spec_of")

    def __init__(self, c: N.KernelResult, spec_of: Any = None) -> None:
        self._c = c
        # a callable giving (spec, objects it points to) for report(): built
        # only when a report is asked for
        self._spec_of = spec_of

    @property
    def write(self) -> SideResult:
        """The store side."""
        return SideResult(self._c.write)

    @property
    def read(self) -> SideResult:
        """The load side."""
        return SideResult(self._c.read)

    tiles = property(lambda self: int(self._c.tiles), doc="tiles the kernel moves")
    extra_cycles_per_tile = property(lambda self: int(self._c.extra_cycles_per_tile), doc="write + read")
    instrs_per_tile = property(lambda self: int(self._c.instrs_per_tile), doc="write + read, all warps")
    sq_lds_bank_conflict = property(lambda self: int(self._c.sq_lds_bank_conflict),
                                    doc="predicted SQ_LDS_BANK_CONFLICT over the kernel")
    sq_insts_lds = property(lambda self: int(self._c.sq_insts_lds), doc="predicted SQ_INSTS_LDS over the kernel")

    @property
    def conflict_free(self) -> bool:
        """True when neither side has an extra cycle."""
        return self.extra_cycles_per_tile == 0

    @property
    def summary(self) -> str:
        """The library's several-line summary (``layout_kernel_result_print``)."""
        lib = _lib()
        return lib.snprintf_text(lib.lib.layout_kernel_result_print, ctypes.byref(self._c))

    def report(self) -> CheckResult:
        """The checker's report of one tile (``layout_kernel_report``): sides
        "write" and "read", the worst instruction of each explained group by
        group, as text and JSON."""
        if self._spec_of is None:  # pragma: no cover - every constructor sets it
            raise LayoutError("KernelResult.report: no spec kept", status=Status.ERR_NULL)
        lib = _lib()
        spec, refs = self._spec_of()
        arch = refs[0]
        need = ctypes.c_size_t(0)
        err = N.Error()
        status = lib.lib.layout_kernel_report(arch._blob.ptr, ctypes.byref(spec), None, 0, ctypes.byref(need), None,
                                              ctypes.byref(err))
        if status != 0:  # pragma: no cover - the same spec was just checked
            raise lib.fail(status, err)
        scratch = (N.Instr * max(need.value, 1))()
        report = lib.blob("layout_check_report")
        status = lib.lib.layout_kernel_report(arch._blob.ptr, ctypes.byref(spec), scratch, need.value, None,
                                              report.ptr, ctypes.byref(err))
        if status != 0:  # pragma: no cover
            raise lib.fail(status, err)
        return CheckResult(report)

    def __str__(self) -> str:
        return self.summary

    def __repr__(self) -> str:
        return f"KernelResult(extra_cycles_per_tile={self.extra_cycles_per_tile}, tiles={self.tiles}, " \
               f"sq_lds_bank_conflict={self.sq_lds_bank_conflict})"


def _spec(arch: Arch, lds: Descriptor, write: Distribution, read: Distribution, elem: int,
          read_lds: Optional[Descriptor], tiles: int, write_options: Optional[AccessOptions],
          read_options: Optional[AccessOptions]) -> Tuple[N.KernelSpec, Tuple[Any, ...]]:
    wopt = (write_options or AccessOptions())._to_c()
    ropt = (read_options or AccessOptions())._to_c()
    spec = N.KernelSpec()
    spec.write_desc = lds._blob.ptr
    spec.write_dist = write._blob.ptr
    spec.write_opt = ctypes.pointer(wopt)
    spec.read_desc = read_lds._blob.ptr if read_lds is not None else None
    spec.read_dist = read._blob.ptr
    spec.read_opt = ctypes.pointer(ropt)
    spec.elem_bytes = int(elem)
    spec.tiles = int(tiles)
    # everything the spec points to, kept alive with it
    return spec, (arch, spec, lds, write, read, read_lds, wopt, ropt)


def check_kernel(arch: Union[Arch, str], lds: Union[Descriptor, str], write: Union[Distribution, str],
                 read: Union[Distribution, str], *, elem: int = 2, read_lds: Union[None, Descriptor, str] = None,
                 tiles: int = 1, write_options: Optional[AccessOptions] = None,
                 read_options: Optional[AccessOptions] = None) -> KernelResult:
    """The triple check (``layout_check_kernel``): every instruction of every wave
    of the store through ``lds`` and the load through ``read_lds`` (default
    ``lds``), costed on ``arch``, per tile and over ``tiles`` tiles.

    Strings are accepted for every argument (parsed as text forms).  Example,
    seed kernel 01 on gfx942::

        r = check_kernel("gfx942", "packed([64,32])", W01, R01,
                         read_lds="naive([32,64],[1,32])", tiles=8192)
        r.sq_lds_bank_conflict        # 3670016
        r.read.ops                    # '8 x ds_read_u16'
    """
    lib = _lib()
    a = _as_arch(arch)
    spec, refs = _spec(a, _as_desc(lds), _as_dist(write, a.wave_size), _as_dist(read, a.wave_size), elem,
                       None if read_lds is None else _as_desc(read_lds), tiles, write_options, read_options)
    out = N.KernelResult()
    err = N.Error()
    status = lib.lib.layout_check_kernel(a._blob.ptr, ctypes.byref(spec), ctypes.byref(out), ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err)
    return KernelResult(out, lambda: (spec, refs))


def check_triple(arch: Union[Arch, str], write: Union[Distribution, str], lds: Union[Descriptor, str],
                 read: Union[Distribution, str], elem: int = 2) -> KernelResult:
    """The triple check of one tile (``layout_check_triple``): both sides through
    the same ``lds`` view with default options.

    Example (seed kernel 08; ``W08``, ``LDS08``, ``R08`` its text forms)::

        r = check_triple("gfx942", W08, LDS08, R08)
        r.extra_cycles_per_tile       # 0
    """
    lib = _lib()
    a = _as_arch(arch)
    w, d, rd = _as_dist(write, a.wave_size), _as_desc(lds), _as_dist(read, a.wave_size)
    out = N.KernelResult()
    err = N.Error()
    status = lib.lib.layout_check_triple(a._blob.ptr, w._blob.ptr, d._blob.ptr, rd._blob.ptr, int(elem),
                                         ctypes.byref(out), ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err)
    return KernelResult(out, lambda: _spec(a, d, w, rd, elem, None, 1, None, None))


class KernelPlan:
    """A triple check compiled once (``layout_kernel_plan``) and run many times:
    what an autotuner scoring one candidate repeatedly wants.  Same arguments
    and results as :func:`check_kernel`.

    Example::

        plan = KernelPlan("gfx942", LDS08, W08, R08)
        plan.check().extra_cycles_per_tile    # 0
    """

    __slots__ = ("_blob", "_refs")

    def __init__(self, arch: Union[Arch, str], lds: Union[Descriptor, str], write: Union[Distribution, str],
                 read: Union[Distribution, str], *, elem: int = 2, read_lds: Union[None, Descriptor, str] = None,
                 tiles: int = 1, write_options: Optional[AccessOptions] = None,
                 read_options: Optional[AccessOptions] = None) -> None:
        lib = _lib()
        a = _as_arch(arch)
        spec, refs = _spec(a, _as_desc(lds), _as_dist(write, a.wave_size), _as_dist(read, a.wave_size), elem,
                           None if read_lds is None else _as_desc(read_lds), tiles, write_options, read_options)
        blob = lib.blob("layout_kernel_plan")
        err = N.Error()
        status = lib.lib.layout_kernel_plan_make(blob.ptr, a._blob.ptr, ctypes.byref(spec), 0, ctypes.byref(err))
        if status != 0:
            raise lib.fail(status, err)
        self._blob = blob
        self._refs = (spec, refs)  # the plan borrows the arch, descriptors and distributions

    def check(self) -> KernelResult:
        """Check every instruction (``layout_kernel_plan_check``)."""
        lib = _lib()
        out = N.KernelResult()
        # a made plan only fails on an int64 overflow of the totals: the hot
        # path skips the error record and asks again for the message
        status = lib.lib.layout_kernel_plan_check(self._blob.ptr, ctypes.byref(out), None)
        if status != 0:  # pragma: no cover
            err = N.Error()
            status = lib.lib.layout_kernel_plan_check(self._blob.ptr, ctypes.byref(out), ctypes.byref(err))
            raise lib.fail(status, err)
        refs = self._refs
        return KernelResult(out, lambda: refs)


def library_path() -> str:
    """Path of the loaded liblayout.so.  Looked for in this order: the
    ``LIBLAYOUT_PATH`` environment variable (the file, or a directory holding
    liblayout.so.0 or liblayout.so; then nothing else), the library a wheel
    carries beside the package (``liblayout/_liblayout.so``: ``pip install
    ./python`` compiles it in), the source tree's
    ``build/liblayout.so`` when the package runs from the tree, the directory
    recorded at install time (``make install PYTHON=...``: PREFIX/lib), the
    prefix the package is installed in (P/lib for P/lib/pythonX.Y/site-packages),
    the interpreter's prefixes, /usr/local, /usr (each lib, lib64,
    lib/<multiarch>), then the dynamic loader's search.  In each directory
    liblayout.so.0 (the SONAME) comes before liblayout.so."""
    return _lib().path
