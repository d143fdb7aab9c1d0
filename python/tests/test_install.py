"""`make install PREFIX=P PYTHON=...` and `make uninstall`, run for real into
temporary prefixes, then the package imported in a clean environment (no
LIBLAYOUT_PATH, cwd outside the tree): it must find P/lib/liblayout.so.0 by
the directory recorded at install time, and, once the prefix is moved, by
its own location.  Also the shared library's file, links, mode and SONAME,
and that uninstall leaves no file or link behind.  Skipped outside a source
tree with an up-to-date build (e.g. when CI runs these tests against an
installed package)."""

from __future__ import annotations

import csv
import hashlib
import base64
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

import pytest

import liblayout as ll
from liblayout import _native

TREE = Path(__file__).resolve().parents[2]
VERSION = ll.__version__


def _build_dir() -> Optional[Path]:
    env = os.environ.get("LIBLAYOUT_PATH")
    if env:
        p = Path(env)
        p = p if p.is_dir() else p.parent
    else:
        p = TREE / "build"
    return p.resolve() if (p / "liblayout.so").is_file() and (p / "liblayout.a").is_file() else None


def _make_env() -> Dict[str, str]:
    # a make of its own: not a sub-make of the `make test` that may be running these tests
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    env.pop("PYTHON", None)
    env.pop("DESTDIR", None)
    return env


@pytest.fixture(scope="module")
def build() -> Path:
    if not (TREE / "Makefile").is_file() or not (TREE / "include" / "layout.h").is_file():
        pytest.skip("not run from a liblayout source tree")
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    b = _build_dir()
    if b is None:
        pytest.skip("no build with liblayout.so and liblayout.a (LIBLAYOUT_PATH or build/)")
    # never build from here: only install what the build already has
    proc = subprocess.run(["make", "-q", f"BUILD={b}", "lib"], cwd=TREE, env=_make_env(), capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"the build in {b} is not up to date (run make first)")
    return b


def _make(build: Path, *args: str) -> str:
    proc = subprocess.run(["make", "--no-print-directory", f"BUILD={build}", *args], cwd=TREE, env=_make_env(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"make {' '.join(args)}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout + proc.stderr


def _leftovers(root: Path) -> List[str]:
    return sorted(str(p) for p in root.rglob("*") if p.is_symlink() or not p.is_dir())


def _site(prefix: Path) -> Path:
    found = list(prefix.glob("lib/python*/*-packages/liblayout/__init__.py"))
    assert len(found) == 1, f"the package under {prefix}: {found}"
    return found[0].parent.parent


def _import(site: Path, cwd: Path, extra: Optional[Dict[str, str]] = None) -> List[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LIBLAYOUT_PATH", "PYTHONPATH", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = str(site)
    env.update(extra or {})
    code = ("import liblayout as ll; print(ll.__file__); print(ll.library_path()); "
            "print(ll.Descriptor.from_text('naive([64,32],[34,1])').offset(3, 5))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def _soname(path: Path) -> Optional[str]:
    tool = shutil.which("readelf")
    if tool is None:
        return None
    out = subprocess.run([tool, "-d", str(path)], capture_output=True, text=True).stdout
    m = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", out)
    return m.group(1) if m else ""


def test_install_import_relocate_uninstall(build: Path, tmp_path: Path) -> None:
    prefix = tmp_path / "p"
    _make(build, f"PREFIX={prefix}", f"PYTHON={sys.executable}", "install")
    lib = prefix / "lib"
    real = lib / f"liblayout.so.{VERSION}"
    # the file, mode 0755, and its two links
    assert real.is_file() and not real.is_symlink()
    assert stat.S_IMODE(real.stat().st_mode) == 0o755
    assert os.readlink(lib / _native.SONAME) == real.name
    assert os.readlink(lib / "liblayout.so") == _native.SONAME
    assert real.read_bytes() == (build / "liblayout.so").read_bytes()
    soname = _soname(real)
    if soname is not None:
        assert soname == _native.SONAME == f"liblayout.so.{VERSION.split('.')[0]}"
    # the package, with the recorded library directory and a RECORD pip can use
    site = _site(prefix)
    assert (site / "liblayout" / "_prefix.py").read_text().strip().endswith(f"LIBDIR = {str(lib)!r}")
    dist_info = site / f"liblayout-{VERSION}.dist-info"
    rows = list(csv.reader((dist_info / "RECORD").read_text().splitlines()))
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    assert sorted(r[0] for r in rows) == files
    for path, digest, size in rows:
        if digest:
            data = (site / path).read_bytes()
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")
            assert digest == "sha256=" + want and size == str(len(data)), path
    # a clean environment finds the installed library through the recorded directory
    where = _import(site, tmp_path)
    assert where == [str(site / "liblayout" / "__init__.py"), str(lib / _native.SONAME), "107"]
    # a moved prefix: the recorded directory is gone, the package's own location leads to lib/
    moved = tmp_path / "moved"
    prefix.rename(moved)
    site = _site(moved)
    where = _import(site, tmp_path)
    assert where == [str(site / "liblayout" / "__init__.py"), str(moved / "lib" / _native.SONAME), "107"]
    # uninstall removes every file and link
    _make(build, f"PREFIX={moved}", "uninstall")
    assert _leftovers(moved) == []


def test_install_without_python_and_destdir(build: Path, tmp_path: Path) -> None:
    # without PYTHON: the C library only
    prefix = tmp_path / "c"
    _make(build, f"PREFIX={prefix}", "install")
    assert not list(prefix.glob("lib/python*"))
    assert (prefix / "lib" / _native.SONAME).exists()
    _make(build, f"PREFIX={prefix}", "uninstall")
    assert _leftovers(prefix) == []
    # staged (DESTDIR): the package records the final PREFIX, not the staging directory
    stage = tmp_path / "stage"
    _make(build, "PREFIX=/opt/liblayout-test", f"DESTDIR={stage}", f"PYTHON={sys.executable}", "install")
    site = _site(stage / "opt" / "liblayout-test")
    assert "LIBDIR = '/opt/liblayout-test/lib'" in (site / "liblayout" / "_prefix.py").read_text()
    assert "prefix=/opt/liblayout-test\n" in (stage / "opt/liblayout-test/lib/pkgconfig/layout.pc").read_text()
    _make(build, "PREFIX=/opt/liblayout-test", f"DESTDIR={stage}", "uninstall")
    assert _leftovers(stage) == []


def test_libdir_prefers_soname(tmp_path: Path) -> None:
    # LIBLAYOUT_PATH naming a directory: liblayout.so.0 there before liblayout.so
    here = Path(ll.library_path()).resolve()
    libdir = tmp_path / "lib"
    libdir.mkdir()
    (libdir / _native.SONAME).symlink_to(here)
    (libdir / "liblayout.so").write_text("not a library")
    env = dict(os.environ, LIBLAYOUT_PATH=str(libdir))
    pkg_parent = str(Path(ll.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = pkg_parent
    proc = subprocess.run([sys.executable, "-c", "import liblayout as ll; print(ll.library_path())"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(libdir / _native.SONAME)


def test_installed_prefix() -> None:
    ip = _native.installed_prefix
    assert ip(Path("/opt/x/lib/python3.11/site-packages/liblayout")) == Path("/opt/x")
    assert ip(Path("/usr/lib/python3/dist-packages/liblayout")) == Path("/usr")
    assert ip(Path("/opt/x/lib64/python3.12/site-packages/liblayout")) == Path("/opt/x")
    assert ip(Path("/home/u/src/liblayout/python/liblayout")) is None
    assert ip(Path("/opt/x/share/python3.11/site-packages/liblayout")) is None
