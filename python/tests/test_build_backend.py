"""The package's own build backend (python/backend/liblayout_build.py).

The wheel is checked against the binary distribution format, computed here
independently of the backend: its name, its files (exactly the package's
files, byte for byte, plus METADATA, WHEEL and RECORD), RECORD's sha256
hashes and sizes, the metadata against pyproject.toml (read with tomllib);
the sdist rebuilds the same wheel; two builds give the same bytes.  Then pip
installs the project into fresh virtual environments with no index (nothing
can be downloaded): with build isolation (the default), without it after
removing setuptools, and editable."""

from __future__ import annotations

import base64
import csv
import email.parser
import hashlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List

import pytest

import liblayout as ll

PROJECT = Path(__file__).resolve().parents[1]  # python/
BACKEND = PROJECT / "backend" / "liblayout_build.py"

pytestmark = pytest.mark.skipif(not BACKEND.is_file(), reason="python/backend is not beside these tests")


@pytest.fixture(autouse=True)
def _prebuilt_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wheels here ship the library under test instead of compiling one each (20 s a build):
    LIBLAYOUT_WHEEL_LIB.  The compile itself is .ci/run's fresh-venv step."""
    monkeypatch.setenv("LIBLAYOUT_WHEEL_LIB", ll.library_path())


def _backend() -> Any:
    spec = importlib.util.spec_from_file_location("liblayout_build_under_test", BACKEND)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def _pyproject() -> Dict[str, Any]:
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))


def _hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")


def _source_files() -> Dict[str, bytes]:
    out = {}
    for path in (PROJECT / "liblayout").rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc" and path.name != "_prefix.py":
            out[path.relative_to(PROJECT).as_posix()] = path.read_bytes()
    return out


def _check_record(zf: zipfile.ZipFile, dist_info: str) -> None:
    rows = list(csv.reader(io.StringIO(zf.read(f"{dist_info}/RECORD").decode("utf-8"))))
    listed = [r[0] for r in rows]
    assert sorted(listed) == sorted(zf.namelist()), "RECORD must list every file exactly once"
    for path, digest, size in rows:
        if path == f"{dist_info}/RECORD":
            assert (digest, size) == ("", "")
            continue
        data = zf.read(path)
        assert digest == _hash(data), path
        assert size == str(len(data)), path


def test_wheel(tmp_path: Path) -> None:
    be = _backend()
    proj = _pyproject()["project"]
    name = be.build_wheel(str(tmp_path))
    tag = "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert name == f"{proj['name']}-{proj['version']}-{tag}.whl"
    assert proj["version"] == ll.__version__
    dist_info = f"{proj['name']}-{proj['version']}.dist-info"
    with zipfile.ZipFile(tmp_path / name) as zf:
        assert zf.testzip() is None
        names = zf.namelist()
        src = _source_files()
        assert "liblayout/__init__.py" in src and "liblayout/py.typed" in src
        src["liblayout/_liblayout.so"] = Path(ll.library_path()).read_bytes()  # the C library, beside the package
        assert sorted(names) == sorted(list(src) + [f"{dist_info}/{f}" for f in ("METADATA", "WHEEL", "RECORD")])
        assert zf.getinfo("liblayout/_liblayout.so").external_attr >> 16 == 0o100755
        assert names[-1] == f"{dist_info}/RECORD"  # RECORD last, the dist-info after the package
        for path, data in src.items():
            assert zf.read(path) == data, path
        _check_record(zf, dist_info)
        wheel = email.parser.Parser().parsestr(zf.read(f"{dist_info}/WHEEL").decode())
        assert wheel["Wheel-Version"] == "1.0"
        assert wheel["Root-Is-Purelib"] == "false"  # it holds a platform's library
        assert wheel.get_all("Tag") == [tag]
        meta = email.parser.Parser().parsestr(zf.read(f"{dist_info}/METADATA").decode("utf-8"))
    assert meta["Metadata-Version"] == "2.1"
    assert meta["Name"] == proj["name"] and meta["Version"] == proj["version"]
    assert meta["Summary"] == proj["description"]
    assert meta["Requires-Python"] == proj["requires-python"]
    assert meta["License"] == proj["license"]["text"]
    assert meta.get_all("Classifier") == proj["classifiers"]
    assert meta.get_all("Provides-Extra") == ["test"]
    assert meta.get_all("Requires-Dist") == ['pytest; extra == "test"']
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload() == (PROJECT / "README.md").read_text(encoding="utf-8")
    # reproducible: a second build is the same file
    again = tmp_path / "again"
    assert be.build_wheel(str(again)) == name
    assert (again / name).read_bytes() == (tmp_path / name).read_bytes()


def test_prepare_metadata(tmp_path: Path) -> None:
    be = _backend()
    assert be.get_requires_for_build_wheel() == [] and be.get_requires_for_build_sdist() == []
    assert be.get_requires_for_build_editable() == []
    dist_info = be.prepare_metadata_for_build_wheel(str(tmp_path / "m"))
    wheel = be.build_wheel(str(tmp_path / "w"))
    with zipfile.ZipFile(tmp_path / "w" / wheel) as zf:
        assert (tmp_path / "m" / dist_info / "METADATA").read_bytes() == zf.read(f"{dist_info}/METADATA")
        assert (tmp_path / "m" / dist_info / "WHEEL").read_bytes() == zf.read(f"{dist_info}/WHEEL")


def test_libdir_setting(tmp_path: Path) -> None:
    be = _backend()
    name = be.build_wheel(str(tmp_path), {"libdir": "/opt/layout/lib"})
    with zipfile.ZipFile(tmp_path / name) as zf:
        text = zf.read("liblayout/_prefix.py").decode()
        _check_record(zf, name.split("-py3")[0] + ".dist-info")
        assert "liblayout/_liblayout.so" in zf.namelist()
    scope: Dict[str, Any] = {}
    exec(text, scope)
    assert scope["LIBDIR"] == "/opt/layout/lib"
    with pytest.raises(ValueError, match="absolute"):
        be.build_wheel(str(tmp_path / "rel"), {"libdir": "lib"})


def test_sdist_rebuilds_the_wheel(tmp_path: Path) -> None:
    be = _backend()
    proj = _pyproject()["project"]
    base = f"{proj['name']}-{proj['version']}"
    name = be.build_sdist(str(tmp_path))
    assert name == f"{base}.tar.gz"
    with tarfile.open(tmp_path / name) as tar:
        members = {m.name: m for m in tar.getmembers()}
        assert all(n == base or n.startswith(base + "/") for n in members)
        for need in ("PKG-INFO", "pyproject.toml", "README.md", "backend/liblayout_build.py", "liblayout/__init__.py"):
            assert f"{base}/{need}" in members, need
        # the C sources, so that the sdist builds its wheel away from the repository
        tree = PROJECT.parent
        for c in sorted((tree / "lib").glob("*/*.[ch]")) + sorted((tree / "include").rglob("*.h")):
            f = tar.extractfile(members[f"{base}/csrc/{c.relative_to(tree).as_posix()}"])
            assert f is not None and f.read() == c.read_bytes(), c
        be_src = be.c_source_dir(PROJECT)
        assert be_src is not None and be_src.resolve() == tree.resolve()
        for path, data in _source_files().items():
            f = tar.extractfile(members[f"{base}/{path}"])
            assert f is not None and f.read() == data, path
        tar.extractall(tmp_path / "x")
    wheel = be.build_wheel(str(tmp_path / "tree"))
    # build from the unpacked sdist, in another interpreter, as a frontend would
    src = tmp_path / "x" / base
    code = ("import sys; sys.path.insert(0, 'backend'); import liblayout_build as b; "
            "print(b.build_wheel(sys.argv[1]))")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "fromsdist")], cwd=src,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == wheel
    assert (tmp_path / "fromsdist" / wheel).read_bytes() == (tmp_path / "tree" / wheel).read_bytes()
    assert be.c_source_dir(src) == src / "csrc"


def test_no_compiler_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    be = _backend()
    monkeypatch.delenv("LIBLAYOUT_WHEEL_LIB")
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    with pytest.raises(RuntimeError, match="no C compiler: .*no-such-cc.*install a C11 compiler"):
        be.build_wheel(str(tmp_path / "w"))
    assert not (tmp_path / "w").exists() or not list((tmp_path / "w").iterdir())
    monkeypatch.setenv("LIBLAYOUT_WHEEL_LIB", str(tmp_path / "missing.so"))
    with pytest.raises(RuntimeError, match="LIBLAYOUT_WHEEL_LIB=.*missing.so.* is not a file"):
        be.build_wheel(str(tmp_path / "w"))


def test_editable_wheel(tmp_path: Path) -> None:
    be = _backend()
    name = be.build_editable(str(tmp_path))
    with zipfile.ZipFile(tmp_path / name) as zf:
        pth = [n for n in zf.namelist() if n.endswith(".pth")]
        assert len(pth) == 1 and "/" not in pth[0]
        assert zf.read(pth[0]).decode().strip() == str(PROJECT)
        assert not any(n.startswith("liblayout/") for n in zf.namelist())
        _check_record(zf, name.split("-py3")[0] + ".dist-info")


def test_toml_reader_matches_tomllib() -> None:
    # the reader used where tomllib is missing (Python < 3.11) against tomllib
    tomllib = pytest.importorskip("tomllib")
    be = _backend()
    text = (PROJECT / "pyproject.toml").read_text(encoding="utf-8")
    assert be._parse_toml_subset(text) == tomllib.loads(text)
    sample = ('# c\na = "x\\ty\\u00e9"  # c\nb.c = \'lit\\\'\n[t."q k"]\nd = [1, -2,\n  3_000, ]\n'
              'e = { f = true, g = ["h"] }\n[t.u]\nv = false\n')
    assert be._parse_toml_subset(sample) == tomllib.loads(sample)
    for bad in ('a = """x"""\n', "[[a]]\n", "a = 1.5\n", "a = 1\na = 2\n", 'a = "x\n', "a = [1 2]\n"):
        with pytest.raises(be.TomlError):
            be._parse_toml_subset(bad)


def test_site_dir() -> None:
    be = _backend()
    plain = be.site_dir("/nonexistent/prefix")
    assert plain == f"/nonexistent/prefix/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"
    import sysconfig

    if sys.prefix != sys.base_prefix:  # a venv: its own site-packages
        assert be.site_dir(sys.prefix) == sysconfig.get_paths()["purelib"]


# ---------------------------------------------------------------------------------------------
# pip, offline, in fresh virtual environments

def _venv_python(where: Path) -> Path:
    try:
        import ensurepip  # noqa: F401
        import venv  # noqa: F401
    except ImportError:
        pytest.skip("venv / ensurepip are not available (Debian: apt-get install python3-venv)")
    proc = subprocess.run([sys.executable, "-m", "venv", str(where)], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        pytest.skip(f"python -m venv failed here: {proc.stderr.strip()[-300:]}")
    return where / "bin" / "python"


def _offline_env() -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k != "PYTHONPATH"}
    # no index, and a proxy that refuses: any download attempt fails at once
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1",
               http_proxy="http://127.0.0.1:9", https_proxy="http://127.0.0.1:9",
               HTTP_PROXY="http://127.0.0.1:9", HTTPS_PROXY="http://127.0.0.1:9")
    env.pop("LIBLAYOUT_PATH", None)  # the wheel's own library must serve
    env["LIBLAYOUT_WHEEL_LIB"] = ll.library_path()
    return env


def _pip(py: Path, args: List[str], env: Dict[str, str], cwd: Path) -> None:
    proc = subprocess.run([str(py), "-m", "pip", *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=600)
    assert proc.returncode == 0, f"pip {' '.join(args)}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"


def _where(py: Path, env: Dict[str, str], cwd: Path) -> List[str]:
    code = "import liblayout as ll; print(ll.__file__); print(ll.Descriptor.packed([4, 2]).offset(1, 1))"
    proc = subprocess.run([str(py), "-c", code], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_pip_install_offline(tmp_path: Path) -> None:
    py = _venv_python(tmp_path / "venv")
    env = _offline_env()
    # a copy of the project, so nothing is written into the tree
    src = tmp_path / "src"
    shutil.copytree(PROJECT, src, ignore=shutil.ignore_patterns("__pycache__", "tests", "*.pyc", "_prefix.py"))
    venv = (tmp_path / "venv").resolve()
    # 1. default build isolation: pip builds in an empty environment with what [build-system] requires
    _pip(py, ["install", str(src)], env, tmp_path)
    where = _where(py, env, tmp_path)
    assert where[0].startswith(str(venv)) and where[1] == "3"  # packed([4,2]): (1,1) -> 1*2 + 1
    # 2. no build isolation, and neither setuptools nor wheel in the environment
    _pip(py, ["uninstall", "-y", "liblayout", "setuptools", "wheel"], env, tmp_path)
    assert not list((venv / "lib").glob("python*/site-packages/liblayout*"))
    _pip(py, ["install", "--no-build-isolation", str(src)], env, tmp_path)
    where = _where(py, env, tmp_path)
    assert where[0].startswith(str(venv)) and where[1] == "3"
    # 3. editable (PEP 660), replacing it: the package is imported from the source directory, which
    #    carries no library (a copy of python/ alone: LIBLAYOUT_PATH names one)
    _pip(py, ["install", "-e", str(src)], env, tmp_path)
    where = _where(py, dict(env, LIBLAYOUT_PATH=ll.library_path()), tmp_path)
    assert where[0] == str(src.resolve() / "liblayout" / "__init__.py") and where[1] == "3"


def _readme_python_block() -> str:
    readme = PROJECT.parent / "README.md"
    if not readme.is_file():
        pytest.skip("README.md of the source tree is not beside python/")
    blocks = re.findall(r"^```python\n(.*?)^```", readme.read_text(encoding="utf-8"), re.S | re.M)
    assert len(blocks) == 1, "README.md has one Python block (the Python step of the tour)"
    return blocks[0]


def test_fresh_venv_runs_the_readme(tmp_path: Path) -> None:
    """pip install ./python into a fresh venv, then the README's Python block from a directory outside the
    repository, with no LIBLAYOUT_PATH: the wheel's own library serves.  Here the wheel
    ships the library under test (LIBLAYOUT_WHEEL_LIB); .ci/run runs the same with the backend compiling it."""
    block = _readme_python_block()
    # the block's known answer: naive([64,32],[34,1]) puts (3, 5) at 3*34 + 5 (docs/lds-model.md §4.1, kernel 03)
    m = re.search(r"print\(lds\.offset\(3, 5\)\)\s+# (\d+)", block)
    assert m and int(m.group(1)) == 3 * 34 + 5
    py = _venv_python(tmp_path / "venv")
    env = _offline_env()
    src = tmp_path / "src"
    shutil.copytree(PROJECT, src, ignore=shutil.ignore_patterns("__pycache__", "tests", "*.pyc", "_prefix.py"))
    _pip(py, ["install", str(src)], env, tmp_path)
    away = tmp_path / "away"
    away.mkdir()
    run_env = {k: v for k, v in env.items() if k not in ("LIBLAYOUT_PATH", "LIBLAYOUT_WHEEL_LIB", "LD_LIBRARY_PATH")}
    proc = subprocess.run([str(py), "-c", block + "\nprint(ll.library_path())\n"], capture_output=True, text=True,
                          env=run_env, cwd=away, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.split()
    venv = (tmp_path / "venv").resolve()
    assert out[0] == "107"
    assert out[1].startswith(str(venv)) and out[1].endswith("/liblayout/_liblayout.so"), out[1]
