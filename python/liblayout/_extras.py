"""Capabilities that a liblayout build may or may not have: the layout search
(suggest.h) and the dialects (dialect.h: Triton, CuTe, IREE, linear bases).

Each function raises :class:`LayoutError` with status ``ERR_UNSUPPORTED``
when the loaded library lacks the capability (:func:`capabilities` says
which are there)."""

from __future__ import annotations

import ctypes
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _native as N
from ._api import Arch, Descriptor, Distribution, SideResult
from ._dialect import need
from ._errors import LayoutError, Status
from ._native import encode as _encode


def desc_from_dialect(text: str, dialect: Optional[str] = None,
                      shape: Optional[Sequence[int]] = None) -> Descriptor:
    """A descriptor written in any dialect (``layout_desc_from_dialect``).

    ``dialect`` None detects it from the text; ``shape`` ``(rows, cols)`` is
    what Triton's swizzled_shared and IREE's xor_shuffle need.  Example:
    ``desc_from_dialect("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")``.
    """
    return Descriptor.from_dialect(text, dialect, shape)


def desc_to_dialect(desc: Union[Descriptor, str], dialect: str) -> str:
    """The descriptor written in ``dialect`` (``layout_desc_to_dialect``); raises
    ``ERR_UNSUPPORTED`` saying why when the dialect cannot express it."""
    d = desc if isinstance(desc, Descriptor) else Descriptor.from_text(desc)
    return d.to_dialect(dialect)


def dist_from_dialect(text: str, dialect: Optional[str] = None, shape: Optional[Sequence[int]] = None,
                      max_table: int = 1 << 20) -> Distribution:
    """A distribution in any dialect that has them (ck ``dist(...)``, Triton
    ``#ttg.blocked`` with ``shape``, linear bases over register/lane/warp);
    a table distribution keeps its table (up to ``max_table`` values) with it."""
    return Distribution.from_dialect(text, dialect, shape, max_table)


def convert(text: str, to: str, *, source: Optional[str] = None, shape: Optional[Sequence[int]] = None) -> str:
    """Rewrite a layout from one dialect into another, like ``layout convert``.

    Args:
        text: the layout (a descriptor in any dialect, or a distribution).
        to: target dialect (:func:`dialects`).
        source: the input dialect; None detects it.
        shape: ``(rows, cols)`` for inputs that carry none.

    A descriptor converts to every dialect that expresses it exactly; a
    distribution converts to ``ck`` (its encoding text).  Example:
    ``convert("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "ck")``.
    """
    try:
        return desc_to_dialect(desc_from_dialect(text, source, shape), to)
    except LayoutError as exc:
        if exc.status != Status.ERR_UNSUPPORTED or to != "ck":
            raise
        # a distribution attribute (#ttg.blocked, dist(...)): its ck text
        try:
            dist = dist_from_dialect(text, source, shape)
        except LayoutError:
            raise exc from None
        return dist.text


# --------------------------------------------------------------------------------------------
# The layout search


class Suggestion:
    """One candidate layout of :func:`suggest` (``layout_suggest_candidate``).

    Attributes:
        family: the family's name (``"ck_xor"``, ``"pad"``, ...).
        params: its native parameters, e.g. ``"KPack=8 MLdsLayer=2"``.
        descriptor: the layout over the tile (a :class:`Descriptor`).
        extra_cycles: conflict cycles per tile, all sides and warps.
        instrs: DS instructions per tile.
        lds_bytes: LDS bytes the layout spans.
        index_ops: div / xor ops of its compiled plan.
        vector_damage: flagged or split vector steps (0 = ck_tile's vectors kept).
        sides: per-side results (:class:`SideResult`, one tile).
    """

    __slots__ = ("_blob", "family", "params", "descriptor", "extra_cycles", "instrs", "lds_bytes", "index_ops",
                 "vector_damage", "sides", "index")

    def __init__(self, blob: N.Blob) -> None:
        lib = N.native()
        self._blob = blob
        base = blob.ptr.value
        params_ptr = base + lib.offsetof("layout_suggest_candidate", "params")
        kind = ctypes.c_int.from_address(params_ptr + lib.offsetof("layout_family_params", "kind")).value
        self.family: str = lib.lib.layout_family_name(kind).decode()
        self.params: str = lib.snprintf_text(lib.lib.layout_suggest_params_print, ctypes.c_void_p(params_ptr))
        cost = N.SuggestCost.from_address(base + lib.offsetof("layout_suggest_candidate", "cost"))
        self.extra_cycles: int = int(cost.extra_cycles)
        self.instrs: int = int(cost.instrs)
        self.lds_bytes: int = int(cost.lds_bytes)
        self.index_ops: int = int(cost.index_ops)
        self.vector_damage: int = int(cost.vector_damage)
        self.index: int = int(ctypes.c_int64.from_address(base + lib.offsetof("layout_suggest_candidate",
                                                                               "index")).value)
        sides_at = base + lib.offsetof("layout_suggest_candidate", "sides")
        self.sides: List[SideResult] = [
            SideResult(N.SideResult.from_buffer_copy(
                (ctypes.c_char * ctypes.sizeof(N.SideResult)).from_address(sides_at + i * ctypes.sizeof(N.SideResult))))
            for i in range(int(cost.n_sides))
        ]
        desc = lib.blob("layout_descriptor")
        ctypes.memmove(desc.ptr, base + lib.offsetof("layout_suggest_candidate", "desc"), desc.size)
        self.descriptor: Descriptor = Descriptor._wrap(desc)

    @property
    def c_calls(self) -> str:
        """C source that builds this layout (``layout_suggest_c_calls``)."""
        lib = N.native()
        return lib.snprintf_text(lib.lib.layout_suggest_c_calls, self._blob.ptr)

    @property
    def text(self) -> str:
        """One line: family, parameters, each side's ops, extra cycles, LDS bytes."""
        lib = N.native()
        return lib.snprintf_text(lib.lib.layout_suggest_candidate_print, self._blob.ptr, len(self.sides))

    def __repr__(self) -> str:
        return f"Suggestion({self.family} {self.params}: {self.extra_cycles} extra cycles, {self.lds_bytes} bytes)"


class SuggestResult:
    """Result of :func:`suggest` (``layout_suggest_result``).

    Attributes:
        top: the best candidates, best first (:class:`Suggestion`).
        pareto: the Pareto front of (vector damage, extra cycles, LDS bytes).
        pareto_total: points of the whole front (more than ``len(pareto)`` when cut).
        families: per family name: searched, tried, failed, exhausted, best_extra, best_damage.
        tried / scored: parameter sets enumerated / scored.
        all_exhausted: every searched family was searched completely.
    """

    __slots__ = ("top", "pareto", "pareto_total", "families", "tried", "scored", "all_exhausted")

    def __init__(self, result: N.Blob) -> None:
        lib = N.native()
        base = result.ptr.value
        off = lambda f: base + lib.offsetof("layout_suggest_result", f)  # noqa: E731
        cand_size = lib.sizeof["layout_suggest_candidate"]

        def candidates(field: str, count: int) -> List[Suggestion]:
            out = []
            for i in range(count):
                blob = N.Blob(cand_size)
                ctypes.memmove(blob.ptr, off(field) + i * cand_size, cand_size)
                out.append(Suggestion(blob))
            return out

        self.top: List[Suggestion] = candidates("top", ctypes.c_int.from_address(off("n_top")).value)
        self.pareto: List[Suggestion] = candidates("pareto", ctypes.c_int.from_address(off("n_pareto")).value)
        self.pareto_total: int = int(ctypes.c_int64.from_address(off("pareto_total")).value)
        self.tried: int = int(ctypes.c_int64.from_address(off("tried")).value)
        self.scored: int = int(ctypes.c_int64.from_address(off("scored")).value)
        self.all_exhausted: bool = bool(ctypes.c_int.from_address(off("all_exhausted")).value)
        self.families: Dict[str, Dict[str, int]] = {}
        stats_size = ctypes.sizeof(N.FamilyStats)
        for kind in range(64):
            name = lib.lib.layout_family_name(kind).decode()
            if name == "?":
                break
            st = N.FamilyStats.from_address(off("families") + kind * stats_size)
            self.families[name] = {"searched": int(st.searched), "tried": int(st.tried), "failed": int(st.failed),
                                   "exhausted": int(st.exhausted), "best_extra": int(st.best_extra),
                                   "best_damage": int(st.best_damage)}

    @property
    def best(self) -> Suggestion:
        """The best candidate (``top[0]``)."""
        if not self.top:  # pragma: no cover - layout_suggest fails instead
            raise LayoutError("suggest: no candidate", status=Status.ERR_NOT_FOUND)
        return self.top[0]

    def __repr__(self) -> str:
        return f"SuggestResult({len(self.top)} top, best {self.top[0]!r})" if self.top else "SuggestResult(empty)"


def _spec_text(shape: Optional[Sequence[int]], write: Any, read: Any, read_view: Optional[Sequence[int]],
               arch: Any, elem: Optional[int], budget: Optional[int], families: Any, top: Optional[int],
               threads: Optional[int], max_candidates: Optional[int], policy: Optional[str]) -> str:
    def text_of(x: Any) -> str:
        return x.text if isinstance(x, (Arch, Distribution)) else str(x)

    items = []
    if arch is not None:
        items.append("arch=" + text_of(arch))
    if elem is not None:
        items.append(f"elem={int(elem)}")
    if shape is None:
        raise LayoutError("suggest: shape is required (the tile lengths, e.g. (64, 32))", status=Status.ERR_ARG)
    items.append("shape=" + ",".join(str(int(v)) for v in shape))
    if budget is not None:
        items.append(f"budget={int(budget)}")
    if top is not None:
        items.append(f"top={int(top)}")
    if threads is not None:
        items.append(f"threads={int(threads)}")
    if max_candidates is not None:
        items.append(f"max={int(max_candidates)}")
    if families is not None:
        items.append("families=" + (families if isinstance(families, str) else ",".join(families)))
    for key, dist in (("write", write), ("read", read)):
        if dist is None:
            continue
        items.append(f"{key}={text_of(dist)}")
        if key == "read" and read_view is not None:
            items.append("view=" + ",".join(str(int(v)) for v in read_view))
        if policy is not None:
            items.append(f"policy={policy}")
    return "; ".join(items)


def suggest(spec: Optional[str] = None, *, shape: Optional[Sequence[int]] = None,
            write: Union[None, Distribution, str] = None, read: Union[None, Distribution, str] = None,
            read_view: Optional[Sequence[int]] = None, arch: Union[None, Arch, str] = None,
            elem: Optional[int] = None, budget: Optional[int] = None,
            families: Union[None, str, Sequence[str]] = None, top: Optional[int] = None,
            threads: Optional[int] = None, max_candidates: Optional[int] = None,
            policy: Optional[str] = None) -> SuggestResult:
    """Search the layout families for the LDS layouts that cost least
    (``layout_suggest``): every candidate is scored by the exact checker over
    every instruction of both sides, like ``layout suggest``.

    Either a whole text spec (suggest.h: ``"arch=gfx942; elem=2;
    shape=64,32; write=dist(...); read=dist(...)"``) or keywords: ``shape``
    (required), ``write`` / ``read`` distributions (objects or text),
    ``read_view`` (e.g. ``(1, 0)``; default: transposed when the read
    distribution's tile is the transposed shape), ``arch`` (default gfx942),
    ``elem`` (2), ``budget`` (extra LDS bytes, 0), ``families`` (names or
    ``"all"``), ``top`` (8), ``threads`` (1), ``max_candidates``, ``policy``
    (``"trust"`` / ``"split"``).  Example, seed kernel 01's accesses::

        r = suggest(shape=(64, 32), write=W, read=R)
        r.best.extra_cycles      # 0
        r.best.descriptor.text   # the winning layout
    """
    lib = need("suggest")
    if spec is None:
        spec = _spec_text(shape, write, read, read_view, arch, elem, budget, families, top, threads,
                          max_candidates, policy)
    elif any(v is not None for v in (shape, write, read, read_view, arch, elem, budget, families, top, threads,
                                     max_candidates, policy)):
        raise TypeError("suggest: give either a text spec or keywords, not both")
    data = _encode(spec, "suggest")
    tspec = lib.blob("layout_suggest_text_spec")  # the spec points into itself: keep it in place
    where = ctypes.c_size_t(0)
    err = N.Error()
    status = lib.lib.layout_suggest_spec_from_text(data, tspec.ptr, ctypes.byref(where), ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err, data, where.value)
    result = lib.blob("layout_suggest_result")
    spec_ptr = ctypes.c_void_p(tspec.ptr.value + lib.offsetof("layout_suggest_text_spec", "spec"))
    status = lib.lib.layout_suggest(spec_ptr, result.ptr, ctypes.byref(err))
    if status != 0:
        raise lib.fail(status, err)
    return SuggestResult(result)
