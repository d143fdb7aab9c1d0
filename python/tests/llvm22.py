"""Debian's LLVM 22 tools (package llvm-22, which .ci/run installs), for
the tests that replay LLVM's stages on committed IR.  The evidence those
tests hold was read with release 22.1.8: scheduling and analyses move
between releases, so another release is not the same evidence and the
tests skip."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import Optional

RELEASE = "22.1.8"


def tool(name: str) -> Optional[str]:
    """The path of LLVM 22's `name` (llc, opt) when it is release RELEASE,
    else None."""
    path = shutil.which(name + "-22")
    if path is None and os.access("/usr/lib/llvm-22/bin/" + name, os.X_OK):
        path = "/usr/lib/llvm-22/bin/" + name
    if path is None:
        return None
    m = re.search(r"LLVM version (\S+)", subprocess.run([path, "--version"], capture_output=True, text=True).stdout)
    return path if m and m.group(1) == RELEASE else None
