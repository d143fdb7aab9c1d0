"""The ctypes layer: finding liblayout.so, the C prototypes, mirrored structs.

Nothing here is public API.  Large value types of the C library
(``layout_descriptor``, ``layout_arch``, ``layout_distribution``, plans,
reports) are handled as opaque, 64-byte aligned buffers whose size is asked
from the loaded library (``layout_abi_sizeof``).  The few structs Python reads
or fills field by field are mirrored as ``ctypes.Structure`` and every field
offset is checked against ``layout_abi_offsetof`` when the library is loaded,
so a library built with other capacities is refused instead of misread.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import sysconfig
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional

from ._errors import LayoutError, LibraryNotFoundError, Status, status_name

c_int = ctypes.c_int
c_int64 = ctypes.c_int64
c_size_t = ctypes.c_size_t
c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
P = ctypes.POINTER

#: LAYOUT_TEXT_CAP of text.h: a buffer that holds any canonical text.
TEXT_CAP = 16384
#: LAYOUT_MAX_LANES of limits.h.
MAX_LANES = 64
#: LAYOUT_MAX_DIMS of limits.h.
MAX_DIMS = 8
#: LAYOUT_DS_OP_COUNT of access.h.
DS_OP_COUNT = 11
#: LAYOUT_ERROR_MESSAGE_CAP of status.h.
ERROR_MESSAGE_CAP = 256


class Error(ctypes.Structure):
    """layout_error."""

    _fields_ = [("status", c_int), ("message", ctypes.c_char * ERROR_MESSAGE_CAP)]


class Instr(ctypes.Structure):
    """layout_instr."""

    _fields_ = [
        ("n_lanes", c_int),
        ("active_mask", ctypes.c_uint64),
        ("width_bytes", c_int),
        ("direction", c_int),
        ("addr_bytes", ctypes.c_uint32 * MAX_LANES),
    ]


class Cost(ctypes.Structure):
    """layout_cost."""

    _fields_ = [
        ("extra_cycles", c_int),
        ("total_cycles", c_int),
        ("n_groups", c_int),
        ("worst_nway", c_int),
        ("worst_group", c_int),
        ("fold_xor", c_int),
    ]


class SideResult(ctypes.Structure):
    """layout_side_result."""

    _fields_ = [
        ("direction", c_int),
        ("steps_per_wave", c_int),
        ("op_count", c_int * DS_OP_COUNT),
        ("n_misaligned", c_int),
        ("n_noncontiguous", c_int),
        ("n_warps", c_int),
        ("instrs_per_tile", c_int64),
        ("extra_cycles_per_tile", c_int64),
        ("total_cycles_per_tile", c_int64),
        ("worst_warp", c_int),
        ("worst_step", c_int),
        ("worst_extra", c_int),
        ("sq_lds_bank_conflict", c_int64),
        ("sq_insts_lds", c_int64),
        ("ops", ctypes.c_char * 96),
    ]


class KernelResult(ctypes.Structure):
    """layout_kernel_result."""

    _fields_ = [
        ("write", SideResult),
        ("read", SideResult),
        ("tiles", c_int64),
        ("extra_cycles_per_tile", c_int64),
        ("instrs_per_tile", c_int64),
        ("sq_lds_bank_conflict", c_int64),
        ("sq_insts_lds", c_int64),
    ]


class AccessOptions(ctypes.Structure):
    """layout_access_options."""

    _fields_ = [
        ("policy", c_int),
        ("no_merge", c_int),
        ("vector_elems", c_int),
        ("vector_y", c_int),
        ("op", c_int),
        ("base_bytes", c_int64),
        ("desc_plan", c_void_p),
        ("arch", c_void_p),
    ]


class KernelSpec(ctypes.Structure):
    """layout_kernel_spec."""

    _fields_ = [
        ("write_desc", c_void_p),
        ("write_dist", c_void_p),
        ("write_opt", P(AccessOptions)),
        ("read_desc", c_void_p),
        ("read_dist", c_void_p),
        ("read_opt", P(AccessOptions)),
        ("elem_bytes", c_int),
        ("tiles", c_int64),
    ]


class ArchHead(ctypes.Structure):
    """The leading scalars of layout_arch (read only)."""

    _fields_ = [
        ("name", ctypes.c_char * 32),
        ("n_banks", c_int),
        ("bank_width_bytes", c_int),
        ("wave_size", c_int),
    ]


class DistHead(ctypes.Structure):
    """The leading scalars of layout_distribution (read only)."""

    _fields_ = [
        ("kind", c_int),
        ("wave_size", c_int),
        ("n_warps", c_int),
        ("n_x", c_int),
        ("x_lengths", c_int64 * MAX_DIMS),
        ("n_y", c_int),
        ("y_lengths", c_int64 * MAX_DIMS),
        ("elems_per_thread", c_int64),
        ("replication", c_int64),
    ]


class SuggestCost(ctypes.Structure):
    """layout_suggest_cost (suggest.h; present when the library has suggest)."""

    _fields_ = [
        ("extra_cycles", c_int64),
        ("instrs", c_int64),
        ("lds_bytes", c_int64),
        ("index_ops", c_int),
        ("vector_damage", c_int),
        ("n_sides", c_int),
        ("side_extra", c_int64 * 4),
        ("side_steps", c_int * 4),
        ("side_op_count", (c_int * DS_OP_COUNT) * 4),
        ("side_misaligned", c_int * 4),
        ("side_noncontiguous", c_int * 4),
        ("side_split", c_int * 4),
    ]


class FamilyStats(ctypes.Structure):
    """layout_suggest_family_stats (suggest.h)."""

    _fields_ = [
        ("searched", c_int),
        ("tried", c_int64),
        ("failed", c_int64),
        ("exhausted", c_int),
        ("best_extra", c_int64),
        ("best_damage", c_int),
    ]


#: Mirrors checked only when the library has the capability (suggest.h).
_OPTIONAL_MIRRORS = [
    (SuggestCost, "layout_suggest_cost", False),
    (FamilyStats, "layout_suggest_family_stats", False),
]

#: (ctypes mirror, C type name, fields to check: all of _fields_ unless "partial").
_MIRRORS = [
    (Error, "layout_error", False),
    (Instr, "layout_instr", False),
    (Cost, "layout_cost", False),
    (SideResult, "layout_side_result", False),
    (KernelResult, "layout_kernel_result", False),
    (AccessOptions, "layout_access_options", False),
    (KernelSpec, "layout_kernel_spec", False),
    (ArchHead, "layout_arch", True),
    (DistHead, "layout_distribution", True),
]


class Blob:
    """A zero-filled, 64-byte aligned buffer standing for one C value type.

    ``ptr`` is the ``void *`` to hand to the library.  The Python object owns
    the memory; keep the Blob alive as long as C code may use the pointer.
    """

    __slots__ = ("_raw", "ptr", "size")

    def __init__(self, size: int) -> None:
        raw = ctypes.create_string_buffer(size + 64)
        addr = ctypes.addressof(raw)
        self._raw = raw
        self.size = size
        self.ptr = c_void_p((addr + 63) & ~63)

    def copy(self) -> "Blob":
        """A new Blob holding the same bytes."""
        other = Blob(self.size)
        ctypes.memmove(other.ptr, self.ptr, self.size)
        return other


class Native:
    """The loaded library with its prototypes and the sizes of its value types."""

    def __init__(self, path: str) -> None:
        try:
            lib = ctypes.CDLL(path)
        except OSError as exc:
            raise LibraryNotFoundError(f"liblayout: cannot load {path}: {exc}") from None
        self.path = path
        self.lib = lib
        if not hasattr(lib, "layout_abi_sizeof"):
            raise LibraryNotFoundError(
                f"liblayout: {path} has no layout_abi_sizeof (a liblayout older than this Python module); "
                "rebuild it or point LIBLAYOUT_PATH at a current build"
            )
        self._prototypes()
        self.sizeof: Dict[str, int] = {}
        for name in (
            "layout_descriptor",
            "layout_arch",
            "layout_distribution",
            "layout_plan",
            "layout_kernel_plan",
            "layout_check_report",
        ):
            size = lib.layout_abi_sizeof(name.encode())
            if size == 0:
                raise LibraryNotFoundError(f"liblayout: {path} does not know the size of {name}")
            self.sizeof[name] = size
        self.has_suggest = self._optional_suggest()
        self.has_dialect = self._optional_dialect()
        self._check_mirrors()

    def _proto(self, name: str, restype: Any, *argtypes: Any) -> None:
        fn = getattr(self.lib, name)
        fn.restype = restype
        fn.argtypes = list(argtypes)

    def _prototypes(self) -> None:
        E = P(Error)
        SZ = P(c_size_t)
        I64 = P(c_int64)
        p = self._proto
        p("layout_abi_sizeof", c_size_t, c_char_p)
        p("layout_abi_offsetof", c_int64, c_char_p, c_char_p)
        p("layout_status_name", c_char_p, c_int)
        p("layout_text_caret", c_int, c_char_p, c_size_t, c_char_p, c_size_t, E)
        # descriptors
        p("layout_desc_from_text", c_int, c_char_p, c_void_p, SZ, E)
        p("layout_desc_to_text", c_int, c_void_p, c_char_p, c_size_t, E)
        p("layout_naive", c_int, c_void_p, c_int, I64, I64, E)
        p("layout_packed", c_int, c_void_p, c_int, I64, E)
        p("layout_desc_ndims", c_int, c_void_p)
        p("layout_desc_length", c_int64, c_void_p, c_int)
        p("layout_desc_size", c_int64, c_void_p)
        p("layout_desc_element_space_size", c_int64, c_void_p)
        p("layout_desc_offset", c_int, c_void_p, I64, I64, E)
        p("layout_desc_offsets", c_int, c_void_p, c_size_t, c_void_p, c_void_p, E)
        p("layout_desc_is_valid", c_int, c_void_p, I64, P(c_int), E)
        p("layout_desc_print", c_int, c_void_p, c_char_p, c_size_t)
        # compiled descriptors
        p("layout_plan_build", c_int, c_void_p, c_void_p, c_int, E)
        p("layout_plan_tile", c_int, c_void_p, c_void_p, c_void_p, c_size_t, E)
        # architectures
        p("layout_arch_from_text", c_int, c_char_p, c_void_p, SZ, E)
        p("layout_arch_to_text", c_int, c_void_p, c_char_p, c_size_t, E)
        p("layout_arch_format", c_int, c_void_p, c_char_p, c_size_t, SZ, E)
        p("layout_arch_same_model", c_int, c_void_p, c_void_p)
        p("layout_arch_preset_count", c_size_t)
        p("layout_arch_preset_name", c_char_p, c_size_t)
        # distributions
        p("layout_dist_from_text", c_int, c_char_p, c_int, c_int, c_void_p, SZ, E)
        p("layout_dist_to_text", c_int, c_void_p, c_char_p, c_size_t, E)
        p("layout_dist_coord_elem", c_int, c_void_p, c_int, c_int, c_int64, I64, E)
        # instructions and the checker
        p("layout_instr_init", c_int, P(Instr), c_int, c_int, c_int, E)
        p("layout_instr_fill_strided", c_int, P(Instr), c_int64, c_int64, E)
        p("layout_check", c_int64, c_void_p, P(Instr), c_size_t, c_void_p, E)
        p("layout_check_report_text", c_int, c_void_p, c_char_p, c_size_t, SZ, E)
        p("layout_check_report_json", c_int, c_void_p, c_char_p, c_size_t, SZ, E)
        p("layout_ds_op_name", c_char_p, c_int, c_int)
        # the triple check
        p("layout_check_triple", c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_int, P(KernelResult), E)
        p("layout_check_kernel", c_int, c_void_p, P(KernelSpec), P(KernelResult), E)
        p("layout_kernel_report", c_int, c_void_p, P(KernelSpec), P(Instr), c_size_t, SZ, c_void_p, E)
        p("layout_kernel_result_print", c_int, P(KernelResult), c_char_p, c_size_t)
        p("layout_kernel_plan_make", c_int, c_void_p, c_void_p, P(KernelSpec), c_int, E)
        p("layout_kernel_plan_check", c_int, c_void_p, P(KernelResult), E)

    def _optional_suggest(self) -> bool:
        """Prototypes of suggest.h (layout search), when this build has it."""
        lib = self.lib
        names = ("layout_suggest", "layout_suggest_spec_from_text", "layout_suggest_c_calls",
                 "layout_suggest_candidate_print", "layout_suggest_params_print", "layout_family_name")
        if not all(hasattr(lib, n) for n in names):
            return False
        types = ("layout_suggest_text_spec", "layout_suggest_result", "layout_suggest_candidate",
                 "layout_family_params")
        if any(lib.layout_abi_sizeof(t.encode()) == 0 for t in types):
            return False  # the symbols are there but this abi table predates them
        E = P(Error)
        p = self._proto
        p("layout_suggest", c_int, c_void_p, c_void_p, E)
        p("layout_suggest_spec_from_text", c_int, c_char_p, c_void_p, P(c_size_t), E)
        p("layout_suggest_c_calls", c_int, c_void_p, c_char_p, c_size_t)
        p("layout_suggest_candidate_print", c_int, c_void_p, c_int, c_char_p, c_size_t)
        p("layout_suggest_params_print", c_int, c_void_p, c_char_p, c_size_t)
        p("layout_family_name", c_char_p, c_int)
        for t in types:
            self.sizeof[t] = lib.layout_abi_sizeof(t.encode())
        return True

    def _optional_dialect(self) -> bool:
        """Prototypes of dialect.h (Triton / CuTe / IREE / linear text), when present."""
        lib = self.lib
        names = ("layout_dialect_name", "layout_dialect_from_name", "layout_dialect_detect",
                 "layout_desc_from_dialect", "layout_dist_from_dialect", "layout_desc_to_dialect")
        if not all(hasattr(lib, n) for n in names):
            return False
        E = P(Error)
        SZ = P(c_size_t)
        p = self._proto
        p("layout_dialect_name", c_char_p, c_int)
        p("layout_dialect_from_name", c_int, c_char_p, P(c_int), E)
        p("layout_dialect_detect", c_int, c_char_p)
        p("layout_desc_from_dialect", c_int, c_int, c_char_p, c_int, P(c_int64), c_void_p, SZ, E)
        p("layout_dist_from_dialect", c_int, c_int, c_char_p, c_int, P(c_int64), P(c_int64), c_size_t, c_void_p,
          SZ, E)
        p("layout_desc_to_dialect", c_int, c_int, c_void_p, c_char_p, c_size_t, E)
        return True

    def offsetof(self, type_name: str, field: str) -> int:
        """offsetof(type, field) from the library (LibraryNotFoundError when unknown)."""
        off = self.lib.layout_abi_offsetof(type_name.encode(), field.encode())
        if off < 0:
            raise LibraryNotFoundError(f"liblayout: {self.path} does not know offsetof({type_name}, {field})")
        return int(off)

    def _check_mirrors(self) -> None:
        """Refuse a library whose struct layout differs from the mirrors."""
        lib = self.lib
        mirrors = list(_MIRRORS) + (list(_OPTIONAL_MIRRORS) if self.has_suggest else [])
        for mirror, cname, partial in mirrors:
            if not partial:
                size = lib.layout_abi_sizeof(cname.encode())
                if size != ctypes.sizeof(mirror):
                    raise LibraryNotFoundError(
                        f"liblayout: {self.path}: sizeof({cname}) = {size}, this module expects "
                        f"{ctypes.sizeof(mirror)} (library and Python module versions differ)"
                    )
            for field in mirror._fields_:
                fname = field[0]
                want = getattr(mirror, fname).offset
                got = lib.layout_abi_offsetof(cname.encode(), fname.encode())
                if got != want:
                    raise LibraryNotFoundError(
                        f"liblayout: {self.path}: offsetof({cname}, {fname}) = {got}, this module expects "
                        f"{want} (library and Python module versions differ)"
                    )

    # -- helpers used by the public classes ------------------------------------------------

    def blob(self, type_name: str) -> Blob:
        """A zeroed buffer for one value of the C type ``type_name``."""
        return Blob(self.sizeof[type_name])

    def fail(self, status: int, err: Error, text: Optional[bytes] = None, where: Optional[int] = None) -> LayoutError:
        """The LayoutError for a failed call (``where``: byte offset into ``text``)."""
        message = err.message.decode("utf-8", "replace") or status_name(status)
        caret = None
        if text is not None and where is not None and 0 <= where <= len(text):
            buf = ctypes.create_string_buffer(2 * 72 + 64)
            if self.lib.layout_text_caret(text, where, buf, len(buf), None) == 0:
                caret = buf.value.decode("utf-8", "replace")
        return LayoutError(message, status=status, where=where, caret=caret)

    def text_of(self, fn_name: str, obj: c_void_p) -> str:
        """Canonical text of a descriptor / architecture / distribution."""
        buf = ctypes.create_string_buffer(TEXT_CAP)
        err = Error()
        status = getattr(self.lib, fn_name)(obj, buf, TEXT_CAP, ctypes.byref(err))
        if status != 0:
            raise self.fail(status, err)
        return buf.value.decode("utf-8")

    def snprintf_text(self, fn: Any, *args: Any) -> str:
        """Text of a layout_*_print()-style function (snprintf semantics, returns the length)."""
        need = fn(*args, None, 0)
        if need < 0:
            raise LayoutError("liblayout: print failed", status=-1)
        buf = ctypes.create_string_buffer(need + 1)
        fn(*args, buf, need + 1)
        return buf.value.decode("utf-8", "replace")

    def report_text(self, fn_name: str, report: Blob) -> str:
        """layout_check_report_text / _json of a report (size query, then the text)."""
        fn = getattr(self.lib, fn_name)
        need = c_size_t(0)
        err = Error()
        status = fn(report.ptr, None, 0, ctypes.byref(need), ctypes.byref(err))
        if status != 0:
            raise self.fail(status, err)
        buf = ctypes.create_string_buffer(need.value + 1)
        status = fn(report.ptr, buf, need.value + 1, None, ctypes.byref(err))
        if status != 0:
            raise self.fail(status, err)
        return buf.value.decode("utf-8", "replace")


def encode(text: str, what: str) -> bytes:
    """UTF-8 bytes of a str for a C text argument (TypeError for a non-str,
    ERR_PARSE for an embedded NUL, which C would silently cut at)."""
    if not isinstance(text, str):
        raise TypeError(f"{what}: expected str, got {type(text).__name__}")
    data = text.encode("utf-8")
    if b"\0" in data:
        raise LayoutError(f"{what}: the text contains a NUL byte", status=Status.ERR_PARSE, where=data.index(b"\0"))
    return data


_lock = threading.Lock()
_native: Optional[Native] = None


#: The library's SONAME (the Makefile links it with -soname liblayout.so.0 and
#: `make install` puts it beside liblayout.so.X.Y.Z): the file looked for
#: first in every directory, then the development link liblayout.so.
SONAME = "liblayout.so.0"
LINK_NAME = "liblayout.so"


def _in_dir(directory: Path) -> List[str]:
    return [str(directory / SONAME), str(directory / LINK_NAME)]


def recorded_libdir() -> Optional[str]:
    """The directory `make install PYTHON=...` (or pip's ``--config-settings
    libdir=...``) recorded in the generated ``liblayout/_prefix.py``; None
    when the package was installed without one (or runs from the tree)."""
    try:
        from ._prefix import LIBDIR  # type: ignore[import-not-found]
    except ImportError:
        return None
    return str(LIBDIR)


def installed_prefix(package_dir: Path) -> Optional[Path]:
    """The prefix P of a package that lies in P/lib*/pythonX.Y/site-packages
    (or Debian's P/lib/python3/dist-packages); None elsewhere (e.g. the tree)."""
    site_dir = package_dir.parent
    if site_dir.name in ("site-packages", "dist-packages") and site_dir.parent.parent.name in ("lib", "lib64"):
        return site_dir.parent.parent.parent
    return None


#: The C library a wheel carries beside this module (python/backend/liblayout_build.py compiles it
#: into the wheel as liblayout/_liblayout.so).
BUNDLED = "_liblayout.so"


def candidate_paths() -> List[str]:
    """Where the library is looked for, in order (see :func:`liblayout.library_path`):
    LIBLAYOUT_PATH alone when set (an explicit choice); else the library a wheel put beside
    this module (``pip install ./python``), the source tree's build/, the directory recorded
    at install time (``make install PYTHON=...``), the prefix the package is installed in,
    the interpreter's and the usual prefixes, then the dynamic loader's own search."""
    out: List[str] = []
    env = os.environ.get("LIBLAYOUT_PATH")
    if env:
        path = Path(env)
        if path.is_dir():
            # a library directory (SONAME, then the link name) or a wheel's package
            # directory (its bundled library); named in the error when none is there
            names = [n for n in (SONAME, LINK_NAME, BUNDLED) if (path / n).exists()]
            path = path / (names[0] if names else LINK_NAME)
        out.append(str(path))
        return out  # an explicit choice: no fallback that could hide a typo
    here = Path(__file__).resolve().parent
    # 1. The wheel's own library, built from the same sources as this module (its struct
    #    layouts are the mirrors'): nothing else to find or configure.
    out.append(str(here / BUNDLED))
    # 2. Run from the source tree: python/liblayout/ -> the tree's build/liblayout.so.
    tree = here.parent.parent
    if (tree / "include" / "layout.h").is_file():
        out.append(str(tree / "build" / LINK_NAME))
    # 3. The library directory recorded when the package was installed.
    libdir = recorded_libdir()
    if libdir:
        out += _in_dir(Path(libdir))
    # 4. The prefix the package itself is installed in (relocatable: a moved
    #    prefix still finds its own lib/), then the interpreter's prefixes and
    #    the usual ones; then the dynamic loader's own search (LD_LIBRARY_PATH,
    #    ld.so.cache).
    prefixes = [installed_prefix(here), Path(sys.prefix), Path(sys.base_prefix), Path("/usr/local"), Path("/usr")]
    multiarch = sysconfig.get_config_var("MULTIARCH")
    libdirs = ["lib", "lib64"] + ([f"lib/{multiarch}"] if multiarch else [])
    for prefix in prefixes:
        if prefix is None:
            continue
        for sub in libdirs:
            out += _in_dir(prefix / sub)
    found = ctypes.util.find_library("layout")
    if found:
        out.append(found)
    out += [SONAME, LINK_NAME]
    seen = set()
    unique = []
    for c in out:
        if c not in seen:
            seen.add(c)
            unique.append(c)
    return unique


def native() -> Native:
    """The loaded library (loaded on first use, then cached)."""
    global _native
    if _native is not None:
        return _native
    with _lock:
        if _native is None:
            candidates = candidate_paths()
            explicit = bool(os.environ.get("LIBLAYOUT_PATH"))
            last_error: Optional[Exception] = None
            for path in candidates:
                is_bare = os.sep not in path
                if not is_bare and not os.path.exists(path):
                    continue
                try:
                    _native = Native(path)
                    break
                except LibraryNotFoundError as exc:
                    last_error = exc
                    if explicit or not is_bare:
                        # a real file that is not a usable liblayout: say so
                        raise
            if _native is None:
                detail = f" ({last_error})" if last_error and explicit else ""
                raise LibraryNotFoundError(
                    "liblayout: liblayout.so not found" + detail + "; build it (`make` in the source tree), "
                    "install it (`make install PREFIX=...`) or set LIBLAYOUT_PATH to the file or its directory. "
                    "Looked at: " + ", ".join(candidates)
                )
    return _native
