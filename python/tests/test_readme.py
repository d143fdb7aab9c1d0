"""The README's five-line Python example runs and prints what it says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_kernel08_five_lines() -> None:
    if not README.exists():
        pytest.skip("README.md is not beside the tests (installed elsewhere)")
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    block = next(b for b in blocks if "check_triple" in b)
    lines = block.strip().splitlines()
    assert len(lines) == 5
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md", "exec"), {})
    assert out.getvalue().strip() == "0"
