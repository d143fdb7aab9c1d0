"""Input text of the TTGIR and profiler readers: a path or the text itself.  Nothing here is public API."""

import os
from typing import Tuple, Union


def _looks_like_path(s: str, suffixes: Tuple[str, ...]) -> bool:
    """One line that ends with one of ``suffixes`` or names a folder (a path separator, and none of the
    braces and quotes every TTGIR module or CSV header has)."""
    if "\n" in s or not s.strip():
        return False
    if s.rstrip().lower().endswith(suffixes):
        return True
    seps = [os.sep] + ([os.altsep] if os.altsep else [])
    return any(sep in s for sep in seps) and not any(c in s for c in "{}\",")


def _text_of(path_or_text: Union[str, bytes, "os.PathLike[str]"],
             suffixes: Tuple[str, ...] = (".ttgir", ".mlir")) -> bytes:
    """The bytes of a path (a str naming an existing file, or a PathLike) or of the text itself.

    A str that looks like a path (one line ending with one of ``suffixes``, or with a path separator
    and no TTGIR/CSV punctuation) but names no file raises FileNotFoundError: it is not read as text."""
    if isinstance(path_or_text, bytes):
        return path_or_text
    if isinstance(path_or_text, os.PathLike) or ("\n" not in path_or_text and os.path.exists(path_or_text)):
        with open(path_or_text, "rb") as f:
            return f.read()
    if _looks_like_path(path_or_text, suffixes):
        raise FileNotFoundError(2, "No such file (and this one line looks like a path, not TTGIR text)", path_or_text)
    return str(path_or_text).encode()
