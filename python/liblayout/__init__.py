"""liblayout for Python: GPU shared-memory (LDS) layouts and an exact bank-conflict checker.

A thin, standard-library-only binding (ctypes) over the C library
liblayout.so; every result is the C library's.  The library is found through
``LIBLAYOUT_PATH`` (the file or its directory), the one a wheel carries
beside the package (``pip install ./python`` compiles it in), the source
tree's ``build/liblayout.so``, or an installed prefix (the order is in
:func:`library_path`).

Seed kernel 08 of the talk "LDS Bank Conflicts on CDNA" is conflict-free on gfx942::

    import liblayout as ll
    lds = ll.Descriptor.from_text("naive([8,32,8],[8,64,1],gvl=8,gvs=1) | ...")
    r = ll.check_triple("gfx942", write_dist_text, lds, read_dist_text, elem=2)
    assert r.extra_cycles_per_tile == 0

Errors raise :class:`LayoutError` (the library's status and message).
:func:`suggest` (the layout search) and :func:`convert` / the dialect
readers need a library built with suggest.h / dialect.h
(:func:`capabilities`); without them they raise ``ERR_UNSUPPORTED``.
"""

from ._api import (
    AccessOptions,
    Arch,
    CheckResult,
    Descriptor,
    Distribution,
    Instr,
    KernelPlan,
    KernelResult,
    SideResult,
    check,
    check_kernel,
    check_triple,
    library_path,
)
from ._dialect import capabilities, detect_dialect, dialects
from ._errors import LayoutError, LibraryNotFoundError, Status
from ._extras import (
    SuggestResult,
    Suggestion,
    convert,
    desc_from_dialect,
    desc_to_dialect,
    dist_from_dialect,
    suggest,
)
from ._ttgir import IrOp, IrValue, ProfileDispatch, TritonKernel, TritonOp, TritonType, read_profile, triton_kernel
from . import triton  # liblayout.triton.report() / watch(); imports Triton only when watch() is called
from . import gluon  # liblayout.gluon.check() / bank_conflicts() / suggest() for Gluon layouts; Triton optional

__version__ = "0.1.0"

__all__ = [
    "AccessOptions",
    "Arch",
    "CheckResult",
    "Descriptor",
    "Distribution",
    "Instr",
    "KernelPlan",
    "KernelResult",
    "LayoutError",
    "LibraryNotFoundError",
    "SideResult",
    "Status",
    "SuggestResult",
    "Suggestion",
    "capabilities",
    "check",
    "check_kernel",
    "check_triple",
    "convert",
    "desc_from_dialect",
    "desc_to_dialect",
    "detect_dialect",
    "dialects",
    "dist_from_dialect",
    "library_path",
    "suggest",
    "ProfileDispatch",
    "TritonKernel",
    "TritonOp",
    "IrOp",
    "IrValue",
    "TritonType",
    "read_profile",
    "gluon",
    "triton",
    "triton_kernel",
]
