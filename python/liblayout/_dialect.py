"""The optional parts of a liblayout build, and the dialect readers and
writers of dialect.h (Triton, CuTe, IREE, linear bases) at the level of C
values: a descriptor or distribution comes back as the blob the public
classes wrap.  Nothing here is public API, and nothing here imports the
public classes (``_api`` builds on this module, never the other way)."""

from __future__ import annotations

import ctypes
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _native as N
from ._errors import LayoutError, Status


def capabilities() -> Dict[str, bool]:
    """Which optional parts the loaded library has: ``{"suggest": ..., "dialect": ...}``."""
    lib = N.native()
    return {"suggest": lib.has_suggest, "dialect": lib.has_dialect}


def need(what: str) -> N.Native:
    """The loaded library, or ERR_UNSUPPORTED when it lacks ``what`` ("suggest" / "dialect")."""
    lib = N.native()
    if not getattr(lib, "has_" + what):
        header = {"suggest": "suggest.h", "dialect": "dialect.h"}[what]
        raise LayoutError(f"liblayout: the loaded library ({lib.path}) was built without {header}",
                          status=Status.ERR_UNSUPPORTED)
    return lib


def dialects() -> List[str]:
    """Names of the dialects: ``['ck', 'triton', 'cute', 'iree', 'linear', 'ck-cpp']``."""
    lib = need("dialect").lib
    out = []
    for i in range(32):
        name = lib.layout_dialect_name(i).decode()
        if name == "?":
            break
        out.append(name)
    return out


def dialect_id(lib: N.Native, name: str) -> int:
    """The layout_dialect value of a dialect name (ERR_ARG-style error when unknown)."""
    out = ctypes.c_int(0)
    err = N.Error()
    status = lib.lib.layout_dialect_from_name(N.encode(name, "dialect"), ctypes.byref(out), ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err)
    return int(out.value)


def detect_dialect(text: str) -> str:
    """The dialect a text is written in (``layout_dialect_detect``), e.g. ``'cute'``."""
    lib = need("dialect")
    return lib.lib.layout_dialect_name(lib.lib.layout_dialect_detect(N.encode(text, "detect_dialect"))).decode()


def _shape_args(shape: Optional[Sequence[int]]) -> Any:
    if not shape:
        return 0, None
    vals = [int(v) for v in shape]
    return len(vals), (ctypes.c_int64 * len(vals))(*vals)


def _source(lib: N.Native, text: str, dialect: Optional[str], what: str) -> Tuple[bytes, int]:
    data = N.encode(text, what)
    did = dialect_id(lib, dialect) if dialect is not None else lib.lib.layout_dialect_detect(data)
    return data, did


def desc_blob(text: str, dialect: Optional[str], shape: Optional[Sequence[int]]) -> N.Blob:
    """``layout_desc_from_dialect``: the descriptor's blob (``dialect`` None detects it)."""
    lib = need("dialect")
    data, did = _source(lib, text, dialect, "desc_from_dialect")
    n_shape, shape_arr = _shape_args(shape)
    blob = lib.blob("layout_descriptor")
    where = ctypes.c_size_t(0)
    err = N.Error()
    status = lib.lib.layout_desc_from_dialect(did, data, n_shape, shape_arr, blob.ptr, ctypes.byref(where),
                                              ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err, data, where.value)
    return blob


def desc_text(blob: N.Blob, dialect: str) -> str:
    """``layout_desc_to_dialect``: a descriptor's blob written in ``dialect``."""
    lib = need("dialect")
    did = dialect_id(lib, dialect)
    buf = ctypes.create_string_buffer(N.TEXT_CAP)
    err = N.Error()
    status = lib.lib.layout_desc_to_dialect(did, blob.ptr, buf, N.TEXT_CAP, ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err)
    return buf.value.decode("utf-8")


def dist_blob(text: str, dialect: Optional[str], shape: Optional[Sequence[int]],
              max_table: int) -> Tuple[N.Blob, Any]:
    """``layout_dist_from_dialect``: the distribution's blob and the table it
    borrows (a table distribution's values, up to ``max_table``; keep it alive
    with the blob)."""
    lib = need("dialect")
    data, did = _source(lib, text, dialect, "dist_from_dialect")
    n_shape, shape_arr = _shape_args(shape)
    cap = 4096
    while True:
        table = (ctypes.c_int64 * cap)()
        blob = lib.blob("layout_distribution")
        where = ctypes.c_size_t(0)
        err = N.Error()
        status = lib.lib.layout_dist_from_dialect(did, data, n_shape, shape_arr, table, cap, blob.ptr,
                                                  ctypes.byref(where), ctypes.byref(err))
        if status == Status.ERR_BUFFER and cap < max_table:
            cap = min(cap * 8, max_table)
            continue
        if status != 0:
            raise lib.fail(status, err, data, where.value)
        return blob, table
