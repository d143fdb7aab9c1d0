"""The Python examples of the README and docs/python.md run and print what they say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
PYTHON_DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_readme_offset_example() -> None:
    if not README.exists():
        pytest.skip("README.md is not beside the tests (installed elsewhere)")
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    block = next(b for b in blocks if "offset(3, 5)" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md", "exec"), {})
    assert out.getvalue().strip() == "107"  # 3 * 34 + 5: rows padded to 34 elements


def test_python_doc_kernel08_five_lines() -> None:
    if not PYTHON_DOC.exists():
        pytest.skip("docs/python.md is not beside the tests (installed elsewhere)")
    blocks = re.findall(r"```python\n(.*?)```", PYTHON_DOC.read_text(), re.S)
    block = next(b for b in blocks if "check_triple" in b)
    lines = block.strip().splitlines()
    assert len(lines) == 5
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/python.md", "exec"), {})
    assert out.getvalue().strip() == "0"
