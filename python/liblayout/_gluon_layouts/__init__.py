"""Stand-ins for Triton Gluon's namespace (``triton.experimental.gluon.language``), for users without Triton.

``from liblayout.gluon import layouts as gl`` gives the names of Triton 3.6's
``gl`` that describe a layout or a type -- the layout classes, ``gl.amd``'s
``AMDMFMALayout`` and ``AMDWMMALayout``, the dtypes, ``distributed_type`` and
``shared_memory_descriptor_type`` -- spelled, placed and with the fields of
Triton 3.6, and nothing else: a line written against them runs unchanged
against ``from triton.experimental.gluon import language as gl``.  Triton's
names not stood in for (kernel-only builtins such as ``gl.load``, other
submodules) are listed with the reason in python/tests/test_gluon_names.py,
which checks these names against the ones recorded from Triton 3.6
(tests/fixtures/gluon/gl_names.json).  They only hold values: no checking,
no IR; :mod:`liblayout.gluon` reads them and Triton's objects alike.

    from liblayout.gluon import layouts as gl
    reg = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    smem = gl.SwizzledSharedLayout(8, 2, 4, [1, 0])
    mfma = gl.amd.AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=True, warps_per_cta=[2, 2])
"""

from .._gluon_standins import (  # noqa: F401 - the namespace's names
    BlockedLayout,
    DistributedLinearLayout,
    DotOperandLayout,
    NVMMADistributedLayout,
    NVMMASharedLayout,
    PaddedSharedLayout,
    SharedLinearLayout,
    SliceLayout,
    SwizzledSharedLayout,
    distributed_type,
    dtype,
    shared_memory_descriptor_type,
)
from .._gluon_standins import DTYPES as _DTYPES
from . import amd  # noqa: F401

int1 = _DTYPES["int1"]
int8 = _DTYPES["int8"]
int16 = _DTYPES["int16"]
int32 = _DTYPES["int32"]
int64 = _DTYPES["int64"]
uint8 = _DTYPES["uint8"]
uint16 = _DTYPES["uint16"]
uint32 = _DTYPES["uint32"]
uint64 = _DTYPES["uint64"]
float8e5 = _DTYPES["float8e5"]
float8e5b16 = _DTYPES["float8e5b16"]
float8e4nv = _DTYPES["float8e4nv"]
float8e4b8 = _DTYPES["float8e4b8"]
float8e4b15 = _DTYPES["float8e4b15"]
float16 = _DTYPES["float16"]
bfloat16 = _DTYPES["bfloat16"]
float32 = _DTYPES["float32"]
float64 = _DTYPES["float64"]
del _DTYPES
