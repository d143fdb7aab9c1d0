"""offsets(): returned arrays, caller buffers written in place (zero copy),
coordinates as tuples or as a flat int64 buffer."""

from __future__ import annotations

from array import array

import pytest

import liblayout as ll
from conftest import LDS_08


def test_returns_array_q() -> None:
    d = ll.Descriptor.from_text("naive([4,8],[9,1])")
    out = d.offsets()
    assert isinstance(out, array) and out.typecode == "q"
    assert out.tolist() == [r * 9 + c for r in range(4) for c in range(8)]


def test_out_array_written_in_place() -> None:
    d = ll.Descriptor.from_text(LDS_08)
    buf = array("q", [-1]) * 2048
    addr = buf.buffer_info()[0]
    got = d.offsets(out=buf)
    assert got is buf
    assert buf.buffer_info()[0] == addr  # same memory: nothing reallocated
    assert sorted(buf) == list(range(2048))
    assert buf.tolist() == d.offsets().tolist()


def test_out_bytearray_and_memoryview() -> None:
    d = ll.Descriptor.from_text("naive([4,8],[9,1])")
    raw = bytearray(8 * 40)  # larger than needed: the rest stays untouched
    raw[-8:] = b"\x11" * 8
    d.offsets(out=raw)
    vals = memoryview(raw).cast("q")
    assert vals[:32].tolist() == [r * 9 + c for r in range(4) for c in range(8)]
    assert bytes(raw[-8:]) == b"\x11" * 8
    view = memoryview(bytearray(8 * 32)).cast("q")
    d.offsets(out=view)
    assert view.tolist() == d.offsets().tolist()


def test_out_too_small_or_wrong_type() -> None:
    d = ll.Descriptor.from_text("naive([4,8],[9,1])")
    with pytest.raises(ll.LayoutError) as ei:
        d.offsets(out=array("q", [0] * 31))
    assert ei.value.status == ll.Status.ERR_BUFFER
    assert "32 are needed" in ei.value.message
    with pytest.raises(TypeError):
        d.offsets(out=array("i", [0] * 64))  # int32 items
    with pytest.raises(TypeError):
        d.offsets(out=b"\0" * 256)  # read-only
    with pytest.raises(TypeError):
        d.offsets(out=[0] * 32)  # no buffer protocol
    with pytest.raises(TypeError):
        d.offsets(out=memoryview(bytearray(8 * 64)).cast("q")[::2])  # not contiguous


def test_coords_flat_buffer_and_tuples() -> None:
    d = ll.Descriptor.from_text("naive([4,8],[9,1])")
    flat = array("q", [3, 5, 0, 0, 1, 7])
    assert d.offsets(flat).tolist() == [32, 0, 16]
    assert d.offsets([(3, 5), (0, 0), (1, 7)]).tolist() == [32, 0, 16]
    assert d.offsets(memoryview(flat)).tolist() == [32, 0, 16]
    out = array("q", [0, 0, 0])
    assert d.offsets(flat, out=out) is out and out.tolist() == [32, 0, 16]
    assert d.offsets([]).tolist() == []
    with pytest.raises(ll.LayoutError) as ei:
        d.offsets(array("q", [1, 2, 3]))  # not a multiple of ndims
    assert ei.value.status == ll.Status.ERR_MISMATCH
    with pytest.raises(ll.LayoutError):
        d.offsets([(1, 2, 3)])
    with pytest.raises(TypeError):
        d.offsets(array("i", [1, 2]))


def test_out_of_range_coordinate_writes_nothing() -> None:
    d = ll.Descriptor.from_text("naive([4,8],[9,1])")
    out = array("q", [-7, -7, -7])
    with pytest.raises(ll.LayoutError) as ei:
        d.offsets([(0, 0), (1, 1), (4, 0)], out=out)
    assert ei.value.status == ll.Status.ERR_RANGE
    assert "coords[2][0]" in ei.value.message
    assert out.tolist() == [-7, -7, -7]
