"""The build backend of the liblayout Python package: standard library only.

pyproject.toml names this module (``build-backend = "liblayout_build"``,
``backend-path = ["backend"]``) and requires nothing, so pip builds and
installs the package without a network and without setuptools or wheel, with
or without build isolation.  A wheel is a zip of the package's files, the C
library compiled into ``liblayout/_liblayout.so`` (so the installed package
works on its own, with no LIBLAYOUT_PATH and no `make install`), and a
``.dist-info`` directory (the binary distribution format: METADATA, WHEEL,
RECORD); it is tagged for this platform (``py3-none-linux_x86_64``: ctypes,
no CPython ABI).

The C library is built as the Makefile builds it: every ``lib/*/*.c`` with
``$CC`` (default ``cc``) and the Makefile's flags (``-std=c11 -Wall -Wextra
-Wpedantic -O2 -g -fPIC``, ``-mavx2 ...`` for ``*_avx2.c`` on x86), in
parallel, linked with ``-shared -Wl,-soname,liblayout.so.0 -lm``; only a C
compiler is needed, offline.  The sources are the ``csrc/`` of an sdist or,
from the repository, ``../lib`` and ``../include`` beside ``python/``.
Paths are mapped (``-ffile-prefix-map``) so that two builds of the same
sources give the same bytes.  ``LIBLAYOUT_WHEEL_LIB=/path/liblayout.so``
ships that file instead of compiling (packagers; the tests, to stay fast).
Editable installs (PEP 660) ship no library: the source tree's build or
LIBLAYOUT_PATH serves them.

The PEP 517 hooks: ``build_wheel``, ``build_sdist``,
``prepare_metadata_for_build_wheel`` and the ``get_requires_for_build_*``
hooks (nothing to install); the PEP 660 hooks ``build_editable`` (a wheel
holding one ``.pth`` file naming the source directory) and
``prepare_metadata_for_build_editable``.  Metadata comes from the
``[project]`` table of pyproject.toml (the fields listed in ``_metadata``;
``dynamic`` fields are refused) and the packages to ship from
``[tool.liblayout_build] packages``.

One config setting: ``libdir`` (``pip install ./python --config-settings
libdir=/opt/layout/lib``) adds ``liblayout/_prefix.py`` recording the
directory of the installed C library, which the package searches before the
usual places.

Run as a script it installs the package for ``make install``:
``python3 backend/liblayout_build.py install --prefix P [--root DESTDIR]
[--libdir P/lib]`` writes the same files a wheel would hold, plus the
dist-info (with INSTALLER and RECORD, so pip can uninstall or replace it),
into the interpreter's site directory under P (``P/lib/pythonX.Y/site-packages``
unless the interpreter's own site directory lies under P/lib).
Archives are reproducible: every timestamp is ``SOURCE_DATE_EPOCH`` when set,
else 1980-01-01.
"""

from __future__ import annotations

import base64
import csv
import gzip
import hashlib
import io
import os
import re
import shlex
import shutil
import site
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

#: The project directory (the one holding pyproject.toml).
ROOT = Path(__file__).resolve().parent.parent
#: This backend's directory relative to ROOT (shipped in the sdist).
BACKEND_DIR = Path(__file__).resolve().parent.name
#: The module a ``libdir`` setting writes into the first package.
PREFIX_MODULE = "_prefix.py"
GENERATOR = "liblayout_build"
#: The C library inside the wheel's first package (liblayout/_native.py loads it first after LIBLAYOUT_PATH).
BUNDLED_LIB = "_liblayout.so"
#: The C library's SONAME, as the Makefile links it.
SONAME = "liblayout.so.0"
#: The Makefile's CFLAGS for the library's objects (WARN, OPT, -fPIC; without -Werror) and AVX2FLAGS.
C_FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-O2", "-g", "-fPIC"]
AVX2_FLAGS = ["-mavx2", "-mbmi", "-mbmi2", "-mpopcnt", "-mlzcnt"]
#: Where an sdist carries the C sources (lib/, include/).
CSRC_DIR = "csrc"

Files = List[Tuple[str, bytes]]  # (path inside the archive, content)


# ---------------------------------------------------------------------------------------------
# pyproject.toml

def _read_toml(path: Path) -> Dict[str, Any]:
    data = path.read_bytes()
    try:
        import tomllib  # Python >= 3.11
    except ImportError:  # pragma: no cover - exercised through _parse_toml_subset on any version
        return _parse_toml_subset(data.decode("utf-8"))
    return tomllib.loads(data.decode("utf-8"))


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class TomlError(ValueError):
    """pyproject.toml uses TOML this backend's reader (for Pythons without tomllib) lacks."""


def _parse_toml_subset(text: str) -> Dict[str, Any]:
    """A reader for the TOML pyproject.toml needs, for Pythons before 3.11 (no tomllib):
    comments, ``[table]`` and ``[dotted.table]`` headers, ``key = value`` with
    bare, quoted or dotted keys, and values that are basic or literal strings
    (one line), integers, booleans, arrays (over several lines, trailing comma
    allowed) and inline tables.  Anything else raises TomlError."""
    root: Dict[str, Any] = {}
    pos = 0
    n = len(text)

    def error(msg: str) -> TomlError:
        line = text.count("\n", 0, pos) + 1
        return TomlError(f"pyproject.toml line {line}: {msg}")

    def skip_ws(newlines: bool) -> None:
        nonlocal pos
        while pos < n:
            c = text[pos]
            if c in " \t" or (newlines and c in "\r\n"):
                pos += 1
            elif c == "#" and newlines:
                while pos < n and text[pos] != "\n":
                    pos += 1
            else:
                return

    def end_of_line() -> None:
        nonlocal pos
        skip_ws(False)
        if pos < n and text[pos] == "#":
            while pos < n and text[pos] != "\n":
                pos += 1
        if pos < n and text[pos] == "\r":
            pos += 1
        if pos < n and text[pos] != "\n":
            raise error(f"unexpected {text[pos]!r}")
        pos += 1

    def string() -> str:
        nonlocal pos
        quote = text[pos]
        if text.startswith(quote * 3, pos):
            raise error("multi-line strings are not supported")
        pos += 1
        out = []
        while True:
            if pos >= n or text[pos] == "\n":
                raise error("unterminated string")
            c = text[pos]
            pos += 1
            if c == quote:
                return "".join(out)
            if c == "\\" and quote == '"':
                e = text[pos] if pos < n else ""
                pos += 1
                if e in _ESCAPES:
                    out.append(_ESCAPES[e])
                elif e in "uU":
                    width = 4 if e == "u" else 8
                    digits = text[pos:pos + width]
                    if len(digits) != width or not all(d in "0123456789abcdefABCDEF" for d in digits):
                        raise error("bad \\u escape")
                    out.append(chr(int(digits, 16)))
                    pos += width
                else:
                    raise error(f"bad escape \\{e}")
            else:
                out.append(c)

    def key() -> List[str]:
        nonlocal pos
        parts = []
        while True:
            skip_ws(False)
            if pos < n and text[pos] in "\"'":
                parts.append(string())
            else:
                m = _BARE_KEY.match(text, pos)
                if not m:
                    raise error("expected a key")
                parts.append(m.group(0))
                pos = m.end()
            skip_ws(False)
            if pos < n and text[pos] == ".":
                pos += 1
                continue
            return parts

    def value() -> Any:
        nonlocal pos
        skip_ws(False)
        if pos >= n:
            raise error("expected a value")
        c = text[pos]
        if c in "\"'":
            return string()
        if c == "[":
            pos += 1
            items = []
            while True:
                skip_ws(True)
                if pos < n and text[pos] == "]":
                    pos += 1
                    return items
                items.append(value())
                skip_ws(True)
                if pos < n and text[pos] == ",":
                    pos += 1
                elif pos < n and text[pos] == "]":
                    pos += 1
                    return items
                else:
                    raise error("expected ',' or ']' in an array")
        if c == "{":
            pos += 1
            table: Dict[str, Any] = {}
            skip_ws(False)
            if pos < n and text[pos] == "}":
                pos += 1
                return table
            while True:
                k = key()
                if pos >= n or text[pos] != "=":
                    raise error("expected '='")
                pos += 1
                _assign(table, k, value(), error)
                skip_ws(False)
                if pos < n and text[pos] == ",":
                    pos += 1
                elif pos < n and text[pos] == "}":
                    pos += 1
                    return table
                else:
                    raise error("expected ',' or '}' in an inline table")
        m = re.compile(r"true|false|[+-]?[0-9][0-9_]*").match(text, pos)
        if m:
            end = m.end()
            if end < n and text[end] not in " \t\r\n,]}#":
                raise error("only strings, integers, booleans, arrays and inline tables are supported")
            pos = end
            word = m.group(0)
            if word in ("true", "false"):
                return word == "true"
            return int(word.replace("_", ""))
        raise error("only strings, integers, booleans, arrays and inline tables are supported")

    current = root
    while True:
        skip_ws(True)
        if pos >= n:
            return root
        if text[pos] == "[":
            if text.startswith("[[", pos):
                raise error("arrays of tables are not supported")
            pos += 1
            path = key()
            if pos >= n or text[pos] != "]":
                raise error("expected ']'")
            pos += 1
            end_of_line()
            current = root
            for part in path:
                current = current.setdefault(part, {})
                if not isinstance(current, dict):
                    raise error(f"{'.'.join(path)} is not a table")
            continue
        k = key()
        if pos >= n or text[pos] != "=":
            raise error("expected '='")
        pos += 1
        _assign(current, k, value(), error)
        end_of_line()


def _assign(table: Dict[str, Any], path: Sequence[str], val: Any, error: Any) -> None:
    for part in path[:-1]:
        table = table.setdefault(part, {})
        if not isinstance(table, dict):
            raise error(f"{part} is not a table")
    if path[-1] in table:
        raise error(f"{'.'.join(path)} is defined twice")
    table[path[-1]] = val


# ---------------------------------------------------------------------------------------------
# The project's metadata

class Project:
    """What pyproject.toml says about the distribution."""

    def __init__(self, root: Path = ROOT) -> None:
        self.root = root
        data = _read_toml(root / "pyproject.toml")
        proj = data.get("project")
        if not isinstance(proj, dict):
            raise ValueError("pyproject.toml has no [project] table")
        if proj.get("dynamic"):
            raise ValueError(f"liblayout_build: dynamic metadata is not supported: {proj['dynamic']}")
        self.project = proj
        self.name = str(proj["name"])
        if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?", self.name):
            raise ValueError(f"invalid project name {self.name!r}")
        self.version = str(proj["version"])
        if not re.fullmatch(r"[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?", self.version):
            raise ValueError(f"version {self.version!r} is not a normalized version (N.N[.N][{{a|b|rc}}N]...)")
        tool = data.get("tool", {}).get("liblayout_build", {})
        self.packages: List[str] = list(tool.get("packages", []))
        if not self.packages:
            raise ValueError("pyproject.toml: [tool.liblayout_build] packages is empty")
        for pkg in self.packages:
            if not (root / pkg / "__init__.py").is_file():
                raise ValueError(f"package {pkg!r} has no {pkg}/__init__.py under {root}")

    @property
    def dist_name(self) -> str:
        """The name as it appears in file names (normalized, '-' -> '_')."""
        return re.sub(r"[-_.]+", "_", self.name).lower()

    @property
    def dist_info(self) -> str:
        return f"{self.dist_name}-{self.version}.dist-info"

    def wheel_name(self, tag: str = "py3-none-any") -> str:
        return f"{self.dist_name}-{self.version}-{tag}.whl"

    @property
    def sdist_base(self) -> str:
        return f"{self.dist_name}-{self.version}"

    def _readme(self) -> Tuple[Optional[str], Optional[str]]:
        readme = self.project.get("readme")
        if readme is None:
            return None, None
        if isinstance(readme, str):
            readme = {"file": readme}
        if "file" in readme:
            text = (self.root / readme["file"]).read_text(encoding="utf-8")
            kind = readme.get("content-type")
            if kind is None:
                suffix = Path(readme["file"]).suffix.lower()
                kind = {".md": "text/markdown", ".rst": "text/x-rst"}.get(suffix, "text/plain")
        else:
            text, kind = readme["text"], readme["content-type"]
        return text, kind

    def metadata(self) -> str:
        """The core metadata (METADATA / PKG-INFO), version 2.1."""
        p = self.project
        lines = ["Metadata-Version: 2.1", f"Name: {self.name}", f"Version: {self.version}"]

        def add(field: str, val: str) -> None:
            lines.append(f"{field}: " + "\n        ".join(str(val).splitlines()))

        if "description" in p:
            add("Summary", p["description"])
        if p.get("keywords"):
            add("Keywords", ",".join(p["keywords"]))
        for field, key in (("Author", "authors"), ("Maintainer", "maintainers")):
            people = p.get(key, [])
            names = [x["name"] for x in people if "name" in x and "email" not in x]
            mails = [(f"{x['name']} <{x['email']}>" if "name" in x else x["email"]) for x in people if "email" in x]
            if names:
                add(field, ", ".join(names))
            if mails:
                add(field + "-email", ", ".join(mails))
        lic = p.get("license")
        if isinstance(lic, dict):
            add("License", lic["text"] if "text" in lic else (self.root / lic["file"]).read_text(encoding="utf-8"))
        elif isinstance(lic, str):
            add("License", lic)
        for c in p.get("classifiers", []):
            add("Classifier", c)
        for label, url in p.get("urls", {}).items():
            add("Project-URL", f"{label}, {url}")
        if "requires-python" in p:
            add("Requires-Python", p["requires-python"])
        for req in p.get("dependencies", []):
            add("Requires-Dist", req)
        for extra, reqs in p.get("optional-dependencies", {}).items():
            norm = re.sub(r"[-_.]+", "-", extra).lower()
            add("Provides-Extra", norm)
            for req in reqs:
                req, _, marker = req.partition(";")
                cond = f'({marker.strip()}) and extra == "{norm}"' if marker.strip() else f'extra == "{norm}"'
                add("Requires-Dist", f"{req.strip()}; {cond}")
        text, kind = self._readme()
        if kind:
            add("Description-Content-Type", kind)
        out = "\n".join(lines) + "\n"
        if text:
            out += "\n" + text
        return out

    def package_files(self) -> Files:
        """The packages' files (no caches, no generated _prefix.py), sorted."""
        out: Files = []
        for pkg in self.packages:
            base = self.root / pkg
            for dirpath, dirnames, filenames in os.walk(base):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
                for fn in sorted(filenames):
                    if fn.endswith((".pyc", ".pyo")) or fn.startswith("."):
                        continue
                    rel = Path(dirpath, fn).relative_to(self.root).as_posix()
                    if rel in (f"{self.packages[0]}/{PREFIX_MODULE}", f"{self.packages[0]}/{BUNDLED_LIB}"):
                        continue  # generated: written by the build, never taken from the tree
                    out.append((rel, Path(dirpath, fn).read_bytes()))
        return out


# ---------------------------------------------------------------------------------------------
# Wheels

def _record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def _record(files: Files, record_path: str, extra_rows: Sequence[Sequence[str]] = ()) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for path, data in files:
        writer.writerow([path, _record_hash(data), str(len(data))])
    for row in extra_rows:
        writer.writerow(list(row))
    writer.writerow([record_path, "", ""])
    return buf.getvalue().encode("utf-8")


def _libdir_setting(config_settings: Optional[Dict[str, Any]]) -> Optional[str]:
    if not config_settings:
        return None
    libdir = config_settings.get("libdir")
    if isinstance(libdir, list):  # a setting given twice
        libdir = libdir[-1]
    if libdir is None:
        return None
    if not os.path.isabs(str(libdir)):
        raise ValueError(f"liblayout_build: libdir must be an absolute path, not {libdir!r}")
    return str(libdir)


def _prefix_module(libdir: str) -> bytes:
    return ('"""Where `make install` (or pip\'s --config-settings libdir=...) put liblayout.so; '
            'generated at install time."""\n\nLIBDIR = ' + repr(libdir) + "\n").encode("utf-8")


def platform_tag() -> str:
    """The wheel tag of a wheel holding the C library: any Python 3 (ctypes, no CPython ABI), this platform."""
    return "py3-none-" + re.sub(r"[^A-Za-z0-9_]", "_", sysconfig.get_platform())


def _dist_info_files(project: Project, tag: str = "py3-none-any") -> Files:
    purelib = "true" if tag.endswith("-any") else "false"
    wheel = (f"Wheel-Version: 1.0\nGenerator: {GENERATOR}\nRoot-Is-Purelib: {purelib}\nTag: {tag}\n").encode()
    di = project.dist_info
    return [(f"{di}/METADATA", project.metadata().encode("utf-8")), (f"{di}/WHEEL", wheel)]


# ---------------------------------------------------------------------------------------------
# The C library

def c_source_dir(root: Path) -> Optional[Path]:
    """The directory holding the C library's lib/ and include/: an sdist's csrc/, else the source
    tree python/ lies in; None when neither has them."""
    for cand in (root / CSRC_DIR, root.parent):
        if (cand / "include" / "layout.h").is_file() and (cand / "lib").is_dir():
            return cand
    return None


def _compiler() -> List[str]:
    argv = shlex.split(os.environ.get("CC") or "cc")
    if not argv or shutil.which(argv[0]) is None:
        raise RuntimeError(
            f"liblayout_build: no C compiler: {argv[0] if argv else 'CC'!r} was not found. The wheel holds the C "
            "library, compiled from lib/*.c at install time: install a C11 compiler (Debian: apt-get install gcc) "
            "or name one with CC=..., or give a built liblayout.so with LIBLAYOUT_WHEEL_LIB=/path/liblayout.so")
    return argv


def build_library(src: Path, out: Path) -> None:
    """Compile and link the C library of ``src`` (lib/*/*.c, include/) into ``out``, as the Makefile does."""
    cc = _compiler()
    machine = subprocess.run(cc + ["-dumpmachine"], capture_output=True, text=True).stdout.strip()
    x86 = re.match(r"(x86_64|amd64|i[3-6]86)", machine) is not None
    sources = sorted(p.relative_to(src).as_posix() for p in (src / "lib").glob("*/*.c"))
    if not sources:
        raise RuntimeError(f"liblayout_build: no C sources under {src / 'lib'}")
    with tempfile.TemporaryDirectory(prefix="liblayout-build-") as tmp:
        def compile_one(item: Tuple[int, str]) -> str:
            i, rel = item
            obj = os.path.join(tmp, f"{i:03d}.o")
            flags = C_FLAGS + (AVX2_FLAGS if x86 and rel.endswith("_avx2.c") else [])
            cmd = cc + ["-Iinclude"] + flags + [f"-ffile-prefix-map={src}=.", "-c", rel, "-o", obj]
            proc = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError(f"liblayout_build: compiling {rel} failed:\n{' '.join(cmd)}\n{proc.stderr[-3000:]}")
            return obj
        with ThreadPoolExecutor(max_workers=max(os.cpu_count() or 1, 1)) as pool:
            objects = list(pool.map(compile_one, enumerate(sources)))
        cmd = cc + ["-shared"] + C_FLAGS + [f"-Wl,-soname,{SONAME}", "-o", str(out)] + objects + ["-lm"]
        proc = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"liblayout_build: linking {out.name} failed:\n{proc.stderr[-3000:]}")


def library_bytes(project: Project) -> bytes:
    """The C library the wheel ships: LIBLAYOUT_WHEEL_LIB's file, else compiled from the sources."""
    given = os.environ.get("LIBLAYOUT_WHEEL_LIB")
    if given:
        if not os.path.isfile(given):
            raise RuntimeError(f"liblayout_build: LIBLAYOUT_WHEEL_LIB={given!r} is not a file")
        return Path(given).read_bytes()
    src = c_source_dir(project.root)
    if src is None:
        raise RuntimeError(
            f"liblayout_build: the C sources were not found ({project.root / CSRC_DIR} or "
            f"{project.root.parent}/lib and include/): build from the liblayout repository (pip install ./python) "
            "or its sdist, or give a built library with LIBLAYOUT_WHEEL_LIB=/path/liblayout.so")
    with tempfile.TemporaryDirectory(prefix="liblayout-lib-") as tmp:
        out = Path(tmp) / BUNDLED_LIB
        build_library(src, out)
        return out.read_bytes()


def wheel_files(project: Project, config_settings: Optional[Dict[str, Any]] = None, editable: bool = False,
                bundle: bool = True) -> Files:
    """Every file of the wheel but RECORD, in archive order (``bundle``: with the C library; not for
    editable wheels nor for `make install`, which installs the library into PREFIX/lib)."""
    tag = "py3-none-any"
    if editable:
        pth = (str(project.root) + "\n").encode("utf-8")
        files: Files = [(f"__editable__.{project.dist_name}-{project.version}.pth", pth)]
    else:
        files = project.package_files()
        if bundle:
            files.append((f"{project.packages[0]}/{BUNDLED_LIB}", library_bytes(project)))
            tag = platform_tag()
        libdir = _libdir_setting(config_settings)
        if libdir is not None:
            files.append((f"{project.packages[0]}/{PREFIX_MODULE}", _prefix_module(libdir)))
    return files + _dist_info_files(project, tag)


def _wheel_tag(files: Files) -> str:
    for path, data in files:
        if path.endswith(".dist-info/WHEEL"):
            return re.search(r"^Tag: (\S+)$", data.decode(), re.M).group(1)  # type: ignore[union-attr]
    return "py3-none-any"


def _epoch() -> int:
    """SOURCE_DATE_EPOCH when set, else 1980-01-01 (the earliest time a zip can hold)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return max(int(epoch), 315532800) if epoch and epoch.isdigit() else 315532800


def _zip_time() -> Tuple[int, int, int, int, int, int]:
    t = time.gmtime(_epoch())
    return (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)


def _write_wheel(project: Project, wheel_directory: str, files: Files) -> str:
    record_path = f"{project.dist_info}/RECORD"
    files = files + [(record_path, _record(files, record_path))]
    out = Path(wheel_directory) / project.wheel_name(_wheel_tag(files))
    out.parent.mkdir(parents=True, exist_ok=True)
    stamp = _zip_time()
    tmp = out.with_name(out.name + ".part")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path, data in files:
            info = zipfile.ZipInfo(path, date_time=stamp)
            info.external_attr = ((0o100755 if path.endswith(".so") else 0o100644) << 16)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    os.replace(tmp, out)
    return out.name


def _write_metadata_dir(project: Project, metadata_directory: str, tag: str = "py3-none-any") -> str:
    for path, data in _dist_info_files(project, tag):
        target = Path(metadata_directory) / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return project.dist_info


# ---------------------------------------------------------------------------------------------
# The PEP 517 / PEP 660 hooks

def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str,
                                     config_settings: Optional[Dict[str, Any]] = None) -> str:
    return _write_metadata_dir(Project(), metadata_directory, platform_tag())


def prepare_metadata_for_build_editable(metadata_directory: str,
                                        config_settings: Optional[Dict[str, Any]] = None) -> str:
    return _write_metadata_dir(Project(), metadata_directory)


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None,
                metadata_directory: Optional[str] = None) -> str:
    project = Project()
    return _write_wheel(project, wheel_directory, wheel_files(project, config_settings))


def build_editable(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None,
                   metadata_directory: Optional[str] = None) -> str:
    project = Project()
    return _write_wheel(project, wheel_directory, wheel_files(project, config_settings, editable=True))


def sdist_files(project: Project) -> Files:
    """The sdist's files (under its top directory): what rebuilds the same wheel."""
    files: Files = [("PKG-INFO", project.metadata().encode("utf-8"))]
    for name in ("pyproject.toml", "README.md"):
        if (project.root / name).is_file():
            files.append((name, (project.root / name).read_bytes()))
    backend = project.root / BACKEND_DIR
    for fn in sorted(os.listdir(backend)):
        if fn.endswith(".py"):
            files.append((f"{BACKEND_DIR}/{fn}", (backend / fn).read_bytes()))
    # the C library's sources, so that the sdist builds the wheel on its own
    src = c_source_dir(project.root)
    if src is not None:
        for sub in ("include", "lib"):
            for path in sorted((src / sub).rglob("*")):
                if path.is_file() and path.suffix in (".c", ".h"):
                    files.append((f"{CSRC_DIR}/{path.relative_to(src).as_posix()}", path.read_bytes()))
    return files + project.package_files()


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    project = Project()
    base = project.sdist_base
    out = Path(sdist_directory) / f"{base}.tar.gz"
    out.parent.mkdir(parents=True, exist_ok=True)
    mtime = _epoch()
    tmp = out.with_name(out.name + ".part")
    with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=mtime) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
        dirs = set()
        for path, data in sdist_files(project):
            parts = path.split("/")[:-1]
            for i in range(len(parts) + 1):
                d = "/".join([base] + parts[:i])
                if d not in dirs:
                    dirs.add(d)
                    info = tarfile.TarInfo(d)
                    info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, mtime
                    tar.addfile(info)
            info = tarfile.TarInfo(f"{base}/{path}")
            info.size, info.mode, info.mtime = len(data), 0o644, mtime
            tar.addfile(info, io.BytesIO(data))
    os.replace(tmp, out)
    return out.name


# ---------------------------------------------------------------------------------------------
# `make install`: install the wheel's files into a prefix without pip

def site_dir(prefix: str) -> str:
    """The directory under ``prefix`` this interpreter imports packages from:
    its default site directory or one of site.getsitepackages() when that lies
    in prefix/lib* (a venv, Debian's /usr/local/lib/python3.X/dist-packages),
    else prefix/lib/pythonX.Y/site-packages."""
    prefix = os.path.abspath(prefix)
    candidates = [sysconfig.get_paths()["purelib"]]
    try:
        candidates += site.getsitepackages()
    except AttributeError:  # pragma: no cover - old virtualenv's site.py
        pass
    for cand in candidates:
        rel = os.path.relpath(os.path.abspath(cand), prefix)
        first = rel.split(os.sep, 1)[0]
        if not rel.startswith("..") and first in ("lib", "lib64"):
            return os.path.join(prefix, rel)
    scheme = "posix_prefix" if "posix_prefix" in sysconfig.get_scheme_names() else None
    vars_ = {"base": prefix, "platbase": prefix, "installed_base": prefix, "installed_platbase": prefix}
    if scheme:
        return sysconfig.get_paths(scheme, vars=vars_)["purelib"]
    return os.path.join(prefix, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages")


def install(prefix: str, root: str = "", libdir: Optional[str] = None, target: Optional[str] = None) -> str:
    """Install the package into ``root`` + the site directory for ``prefix``
    (or ``target``); returns that directory (without ``root``)."""
    project = Project()
    dest = target or site_dir(prefix)
    full = Path(root + dest) if root else Path(dest)
    settings = {"libdir": libdir} if libdir else None
    files = wheel_files(project, settings, bundle=False)  # the library goes to PREFIX/lib (the Makefile)
    installer = (f"{GENERATOR}\n").encode()
    files.append((f"{project.dist_info}/INSTALLER", installer))
    record_path = f"{project.dist_info}/RECORD"
    files.append((record_path, _record(files, record_path)))
    # replace a previous installation (any version), as pip does
    for old in list(full.glob(f"{project.dist_name}-*.dist-info")) + [full / p for p in project.packages]:
        if old.is_dir():
            shutil.rmtree(old)
    for path, data in files:
        target_path = full / path
        target_path.parent.mkdir(parents=True, exist_ok=True)
        target_path.write_bytes(data)
        target_path.chmod(0o644)
    return dest


def main(argv: Sequence[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="liblayout_build.py",
                                 description="Build or install the liblayout Python package (standard library only).")
    sub = ap.add_subparsers(dest="cmd", required=True)
    ins = sub.add_parser("install", help="install into a prefix, as `make install PYTHON=...` does")
    ins.add_argument("--prefix", required=True)
    ins.add_argument("--root", default="", help="staging directory prepended to every path (DESTDIR)")
    ins.add_argument("--libdir", help="record this directory as where liblayout.so is (default PREFIX/lib)")
    ins.add_argument("--target", help="install into this directory instead of the prefix's site directory")
    sub.add_parser("site-dir", help="print the site directory install uses for --prefix").add_argument(
        "--prefix", required=True)
    for name in ("wheel", "sdist"):
        p = sub.add_parser(name, help=f"build the {name} into a directory")
        p.add_argument("outdir")
    args = ap.parse_args(argv)
    if args.cmd == "install":
        libdir = os.path.abspath(args.libdir or os.path.join(args.prefix, "lib"))
        dest = install(args.prefix, args.root, libdir, args.target)
        print(f"liblayout: Python package installed into {args.root}{dest}")
        on_path = {os.path.abspath(p) for p in sys.path if p}
        if args.target is None and os.path.abspath(dest) not in on_path:
            print(f"liblayout: note: {dest} is not on {sys.executable}'s sys.path; add it to PYTHONPATH",
                  file=sys.stderr)
    elif args.cmd == "site-dir":
        print(site_dir(args.prefix))
    elif args.cmd == "wheel":
        print(build_wheel(args.outdir))
    else:
        print(build_sdist(args.outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
