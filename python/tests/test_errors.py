"""Bad input raises LayoutError carrying the library's status and message
(and, for text, the byte offset and the caret drawing); nothing crashes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import liblayout as ll
from conftest import W_ALL


def test_parse_error_column_and_caret() -> None:
    with pytest.raises(ll.LayoutError) as ei:
        ll.Descriptor.from_text("naive([8,32],[32 1])")
    e = ei.value
    assert e.status == ll.Status.ERR_PARSE and e.status_name == "LAYOUT_ERR_PARSE"
    # text.h's own example: the spot is the '1' after "32 "
    assert e.message == "layout_desc_from_text: column 18: expected ',' or ']', found '1'"
    assert str(e) == e.message
    assert e.where == 17
    assert e.caret == "naive([8,32],[32 1])\n                 ^\n"
    assert "LAYOUT_ERR_PARSE" in repr(e)
    assert isinstance(e, Exception)


def test_constructor_statuses() -> None:
    with pytest.raises(ll.LayoutError) as ei:
        ll.Descriptor.from_text("packed([0,4])")
    assert ei.value.status == ll.Status.ERR_ARG
    with pytest.raises(ll.LayoutError) as ei:
        ll.Descriptor.naive([2, 3], [1])
    assert ei.value.status == ll.Status.ERR_MISMATCH
    with pytest.raises(ll.LayoutError) as ei:
        ll.Descriptor.naive([2, -3], [1, 1])
    assert ei.value.status == ll.Status.ERR_ARG and "-3" in ei.value.message
    with pytest.raises(ll.LayoutError) as ei:
        ll.Descriptor.packed([1] * 9)
    assert ei.value.status == ll.Status.ERR_CAPACITY
    with pytest.raises(ll.LayoutError) as ei:
        ll.Descriptor.naive([2], [1 << 64])
    assert ei.value.status == ll.Status.ERR_OVERFLOW
    with pytest.raises(TypeError):
        ll.Descriptor()
    with pytest.raises(TypeError):
        ll.Distribution()
    with pytest.raises(TypeError):
        ll.Descriptor.from_text(b"packed([4])")  # type: ignore[arg-type]
    with pytest.raises(ll.LayoutError) as ei:
        ll.Descriptor.from_text("packed([4])\0junk")
    assert ei.value.status == ll.Status.ERR_PARSE and ei.value.where == 11


def test_range_errors() -> None:
    d = ll.Descriptor.from_text("naive([4,8],[9,1])")
    with pytest.raises(ll.LayoutError) as ei:
        d.offset(4, 0)
    assert ei.value.status == ll.Status.ERR_RANGE
    assert "coord[0] = 4" in ei.value.message
    with pytest.raises(ll.LayoutError) as ei:
        d.offset(1)
    assert ei.value.status == ll.Status.ERR_MISMATCH
    with pytest.raises(ll.LayoutError):
        d.is_valid(0, 9)
    with pytest.raises(ll.LayoutError):
        d.is_valid(0)


def test_arch_errors() -> None:
    with pytest.raises(ll.LayoutError) as ei:
        ll.Arch("gfx9999")
    assert ei.value.status == ll.Status.ERR_NOT_FOUND
    assert "gfx942" in ei.value.message  # the message lists the known presets
    with pytest.raises(ll.LayoutError) as ei:
        ll.Arch("arch(base=gfx942, banks=48)")
    assert ei.value.status == ll.Status.ERR_ARG and "48" in ei.value.message
    assert ei.value.caret is not None


def test_distribution_errors() -> None:
    with pytest.raises(ll.LayoutError) as ei:
        ll.Distribution.from_text("dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]) Y=[(2,1)])")
    assert ei.value.status == ll.Status.ERR_PARSE and ei.value.where is not None
    with pytest.raises(ll.LayoutError) as ei:
        ll.Distribution.from_text(W_ALL, wave_size=-1)
    assert ei.value.status == ll.Status.ERR_ARG
    w = ll.Distribution.from_text(W_ALL)
    with pytest.raises(ll.LayoutError) as ei:
        w.coord(4, 0, 0)
    assert ei.value.status == ll.Status.ERR_RANGE


def test_check_errors() -> None:
    with pytest.raises(ll.LayoutError) as ei:
        ll.Instr([0] * 48, 4)  # 48 lanes: not a wave size
    assert ei.value.status == ll.Status.ERR_ARG
    with pytest.raises(ll.LayoutError):
        ll.Instr([0] * 64, 3)  # no 3-byte access
    with pytest.raises(ll.LayoutError):
        ll.Instr([0] * 64, 4, direction="sideways")
    with pytest.raises(ll.LayoutError) as ei:
        ll.Instr([-4] + [0] * 63, 4)
    assert ei.value.status == ll.Status.ERR_RANGE and "addresses[0]" in ei.value.message
    with pytest.raises(ll.LayoutError):
        ll.Instr([0] * 64, 4, active=[True] * 63)
    with pytest.raises(ll.LayoutError):
        ll.Instr([0] * 32, 4, active=1 << 40)
    with pytest.raises(ll.LayoutError) as ei:
        ll.Instr.strided(64, 4, base=0, stride=-4)  # lane 1 below 0
    assert ei.value.status == ll.Status.ERR_OVERFLOW
    # a wave32 instruction on a wave64 architecture: the checker refuses it
    with pytest.raises(ll.LayoutError) as ei:
        ll.check("gfx942", [ll.Instr.strided(32, 4, stride=4)])
    assert ei.value.status < 0 and ei.value.message
    with pytest.raises(TypeError):
        ll.check("gfx942", ["not an instruction"])  # type: ignore[list-item]


def test_kernel_errors() -> None:
    with pytest.raises(ll.LayoutError) as ei:
        # elem 3 bytes: the library refuses it, naming the argument
        ll.check_triple("gfx942", W_ALL, "packed([64,32])", W_ALL, elem=3)
    assert ei.value.status == ll.Status.ERR_ARG
    with pytest.raises(ll.LayoutError) as ei:
        # the write distribution covers a 64x32 tile, the view is 32x64
        ll.check_kernel("gfx942", "packed([32,64])", W_ALL, W_ALL)
    assert ei.value.status < 0 and "write" in ei.value.message
    with pytest.raises(ll.LayoutError):
        ll.check_kernel("gfx942", "packed([64,32])", W_ALL, W_ALL, tiles=0)
    with pytest.raises(ll.LayoutError):
        ll.check_kernel("gfx942", "packed([64,32])", W_ALL, W_ALL, write_options=ll.AccessOptions(op="b256"))
    with pytest.raises(ll.LayoutError):
        ll.check_kernel("gfx942", "packed([64,32])", W_ALL, W_ALL, read_options=ll.AccessOptions(policy="maybe"))
    with pytest.raises(ll.LayoutError):
        ll.KernelPlan("gfx942", "packed([64,32])", W_ALL, W_ALL, tiles=-1)
    d = ll.Descriptor.from_text("packed([64,32])")
    with pytest.raises(ll.LayoutError) as ei:
        d.banks("gfx942", elem=3)
    assert ei.value.status == ll.Status.ERR_ARG and "elem = 3" in ei.value.message
    with pytest.raises(ll.LayoutError):
        d.banks("gfx942", base=-1)


def test_access_options_change_results() -> None:
    # forcing the store to ds_write_b16 (8 per wave instead of 1 b128)
    r = ll.check_kernel("gfx942", "packed([64,32])", W_ALL, W_ALL, write_options=ll.AccessOptions(op="b16"))
    assert r.write.op_count == {"ds_write_b16": 8}
    assert r.read.op_count == {"ds_read_b128": 1}


def _run_isolated(code: str, env_extra: dict) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.update(env_extra)
    pkg_parent = str(Path(ll.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = pkg_parent + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)


def test_library_path_env(tmp_path: Path) -> None:
    here = ll.library_path()
    # LIBLAYOUT_PATH naming the directory works ...
    proc = _run_isolated("import liblayout as ll; print(ll.library_path()); print(ll.Descriptor.packed([2]).text)",
                         {"LIBLAYOUT_PATH": str(Path(here).parent)})
    assert proc.returncode == 0, proc.stderr
    # (there: liblayout.so.0, the SONAME, before liblayout.so; in a wheel's package
    # directory, the bundled _liblayout.so)
    libdir = Path(here).parent
    names = [n for n in ("liblayout.so.0", "liblayout.so", "_liblayout.so") if (libdir / n).exists()]
    want = libdir / names[0]
    assert proc.stdout.split() == [str(want), "packed([2])"]
    # ... and a wrong one is an error naming it, not a silent fallback
    missing = tmp_path / "nope.so"
    proc = _run_isolated("import liblayout as ll; ll.Arch('gfx942')", {"LIBLAYOUT_PATH": str(missing)})
    assert proc.returncode != 0
    assert "LibraryNotFoundError" in proc.stderr and "nope.so" in proc.stderr
    # a file that is not a shared library
    bogus = tmp_path / "liblayout.so"
    bogus.write_text("not a library")
    proc = _run_isolated("import liblayout as ll; ll.Arch('gfx942')", {"LIBLAYOUT_PATH": str(bogus)})
    assert proc.returncode != 0 and "cannot load" in proc.stderr
