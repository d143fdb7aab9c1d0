"""Input text of the TTGIR and profiler readers: a path or the text itself.  Nothing here is public API."""

import os
from typing import Union


def _text_of(path_or_text: Union[str, bytes, "os.PathLike[str]"]) -> bytes:
    """The bytes of a path (a str naming an existing file, or a PathLike) or of the text itself."""
    if isinstance(path_or_text, bytes):
        return path_or_text
    if isinstance(path_or_text, os.PathLike) or ("\n" not in path_or_text and os.path.exists(path_or_text)):
        with open(path_or_text, "rb") as f:
            return f.read()
    return str(path_or_text).encode()
