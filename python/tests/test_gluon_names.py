"""The Gluon stand-ins are Triton 3.6's ``gl`` namespace, and docs/gluon.md's examples give what Triton's give.

tests/fixtures/gluon/gl_names.json was recorded on a machine with Triton 3.6
(tests/fixtures/gluon/record_gl.sh, the GPU machine): every public name of
``triton.experimental.gluon.language`` and its submodules with its kind and,
for classes, ``inspect.signature``; every ```python block of docs/gluon.md
run with ``from triton.experimental.gluon import language as gl`` in place
of the stand-ins' import; and Triton's own ``gl.bank_conflicts`` of the
docs' ``distributed_type`` pair.  Here:

* the stand-ins' public names, in ``gl`` and ``gl.amd``, are exactly
  Triton's less the ones listed below as not stood in, each with its reason;
  nothing else (no ``dataclass``, ``List``) shows in ``dir(gl)``;
* each stand-in class takes Triton's parameters (names, order, kinds,
  defaults), each stand-in dtype has Triton's ``name``;
* every docs/gluon.md example, run here with the stand-ins, prints what it
  printed with Triton's classes (and the docs' block is the one recorded:
  a changed example must be recorded again on the GPU machine).
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import types
from pathlib import Path
from typing import Any, Dict

import pytest

import liblayout.gluon as lg
from liblayout.gluon import layouts as gl

TREE = Path(__file__).resolve().parents[2]
FIX = TREE / "tests" / "fixtures" / "gluon"
DOC = TREE / "docs" / "gluon.md"

pytestmark = pytest.mark.skipif(not (FIX / "gl_names.json").is_file() or not DOC.is_file(),
                                reason="not run from a liblayout source tree (tests/fixtures/gluon, docs/gluon.md)")


def _recorder() -> Any:
    spec = importlib.util.spec_from_file_location("record_gl_under_test", FIX / "record_gl.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def rec() -> Dict[str, Any]:
    return json.loads((FIX / "gl_names.json").read_text(encoding="utf-8"))


# Triton 3.6's names the stand-ins leave out, by module, each with the reason.  Every recorded name
# must be stood in for or listed here (functions by the rule in _not_stood_in), so a new Triton
# name, once recorded, has to be decided on.
NOT_STOOD_IN = {
    "": {
        "AutoLayout": "a layout the compiler picks later: no lane mapping to cost yet",
        "CoalescedLayout": "a layout the compiler picks later: no lane mapping to cost yet",
        "base_type": "kernel-language type machinery (IR types), not a value a layout check takes",
        "base_value": "kernel-language value machinery (IR values)",
        "block_type": "kernel-language type machinery; distributed_type stands in for the register tensor's type",
        "constexpr": "kernel-language wrapper; liblayout.gluon unwraps Triton's constexpr values",
        "pointer_type": "kernel-language type of global pointers; the model is shared memory",
        "shared_memory_descriptor": "a kernel value (an allocation); shared_memory_descriptor_type stands in",
        "static_range": "a kernel loop construct",
        "tensor": "a kernel value; distributed_type stands in for its type",
        "tuple": "a kernel value",
        "tuple_type": "kernel-language type machinery",
        "void": "no element type: nothing of it is stored",
        "nvidia": "no layout class the checker reads lives there (tensor-memory layouts are not shared memory; "
                  "nvidia.ampere's NVMMADistributedLayout and DotOperandLayout are gl's)",
        "extra": "libdevice math: kernel-only",
    },
    "amd": {
        "cdna3": "kernel-only ops (buffer_load, mfma)",
        "cdna4": "kernel-only ops; its AMDMFMALayout and DotOperandLayout are gl.amd's and gl's",
        "gfx1250": "kernel-only ops; its AMDWMMALayout is gl.amd's",
        "rdna3": "kernel-only ops (wmma)",
        "rdna4": "kernel-only ops (wmma)",
    },
}
KERNEL_ONLY = "a function of the kernel language: it emits IR inside @gluon.jit and has nothing to stand in for " \
              "(gl.bank_conflicts' figure is lg.bank_conflicts)"


def _not_stood_in(path: str, name: str, what: Dict[str, Any]) -> str:
    """The reason a recorded name is not stood in for ('' when it should be)."""
    if name in NOT_STOOD_IN.get(path, {}):
        return NOT_STOOD_IN[path][name]
    if what["kind"] == "function" or what["kind"] in ("instance:GluonJITFunction", "instance:ConstexprFunction"):
        return KERNEL_ONLY
    return ""


def _public(mod: types.ModuleType) -> set:
    return {n for n in dir(mod) if not n.startswith("_")}


def test_recorded_from_triton_36(rec: Dict[str, Any]) -> None:
    assert rec["triton"] == "3.6.0"
    assert rec["modules"][""]["module"] == "triton.experimental.gluon.language"
    assert rec["modules"]["amd"]["module"] == "triton.experimental.gluon.language.amd"
    # the three names, as Triton has them
    assert rec["modules"][""]["names"]["distributed_type"]["kind"] == "class"
    assert rec["modules"][""]["names"]["shared_memory_descriptor_type"]["kind"] == "class"
    assert rec["modules"]["amd"]["names"]["AMDMFMALayout"]["kind"] == "class"
    assert "AMDMFMALayout" not in rec["modules"][""]["names"]  # gl.amd.AMDMFMALayout, not gl.AMDMFMALayout


@pytest.mark.parametrize("path", ["", "amd"])
def test_names_are_tritons(rec: Dict[str, Any], path: str) -> None:
    ours = gl if not path else getattr(gl, path)
    theirs = rec["modules"][path]["names"]
    stood_in = {n for n, what in theirs.items() if not _not_stood_in(path, n, what)}
    assert _public(ours) == stood_in, ("extra: %s; missing: %s" % (sorted(_public(ours) - set(theirs)),
                                                                   sorted(stood_in - _public(ours))))
    # every name listed as left out is a Triton name (no stale entry)
    assert set(NOT_STOOD_IN.get(path, {})) <= set(theirs)
    # nothing of the implementation leaks, also under underscores other than the module dunders
    assert {n for n in dir(ours) if n.startswith("_") and not (n.startswith("__") and n.endswith("__"))} == set()


def test_no_helpers_leak() -> None:
    for leaked in ("Any", "List", "Optional", "dataclass", "field", "annotations", "Sequence"):
        assert not hasattr(gl, leaked), leaked
        assert not hasattr(gl.amd, leaked), leaked


def test_signatures_are_tritons(rec: Dict[str, Any]) -> None:
    describe = _recorder().describe
    checked = 0
    for path in ("", "amd"):
        ours_mod = gl if not path else getattr(gl, path)
        for name in sorted(_public(ours_mod)):
            theirs = rec["modules"][path]["names"][name]
            ours = describe(getattr(ours_mod, name))
            if theirs["kind"] == "class":
                assert ours["kind"] == "class", name
                assert ours["params"] == theirs["params"], name
                assert set(ours["methods"]) <= set(theirs["methods"]), (name, ours["methods"])
                checked += 1
            elif theirs["kind"] == "instance:dtype":
                assert ours["kind"] == "instance:dtype" and ours["name"] == theirs["name"], name
                checked += 1
            else:
                assert ours["kind"] == theirs["kind"], name
    assert checked == 9 + 2 + 3 + 18  # 9 layout classes + gl.amd's 2, 3 type classes, 18 dtypes


def test_bank_conflicts_of_tritons_types(rec: Dict[str, Any]) -> None:
    # Triton's own gl.bank_conflicts of the docs' pair, compiled for sm_90 on the GPU machine
    mma = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])
    a_dot = gl.DotOperandLayout(operand_index=0, parent=mma, k_width=2)
    reg_ty = gl.distributed_type(gl.float16, [64, 32], a_dot)
    smem_ty = gl.shared_memory_descriptor_type(gl.float16, [64, 32], gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), [64, 32])
    assert rec["bank_conflicts"]["value"] == 3
    assert lg.bank_conflicts(reg_ty, smem_ty) == rec["bank_conflicts"]["value"]


def test_docs_examples_give_tritons_results(rec: Dict[str, Any]) -> None:
    r = _recorder()
    blocks = r.python_blocks(DOC.read_text(encoding="utf-8"))
    recorded = {e["sha256"]: e for e in rec["examples"]}
    assert len(blocks) == len(rec["examples"]) == 8
    for i, block in enumerate(blocks):
        e = recorded.get(r.block_hash(block))
        assert e is not None, ("docs/gluon.md example %d is not the one run against Triton: record it again on "
                               "the GPU machine (sh tests/fixtures/gluon/record_gl.sh)" % i)
        assert e["uses_standins"] and e["error"] is None, (i, e["error"])
        here = r.run_block(block, replace_import=False)
        assert here["error"] is None, (i, here["error"])
        assert here["stdout"] == e["stdout"], (i, here["stdout"], e["stdout"])
