"""The exception every failing liblayout call raises, and the status codes."""

from __future__ import annotations

import enum
from typing import Optional


class Status(enum.IntEnum):
    """``layout_status`` of status.h: 0 on success, negative on misuse."""

    OK = 0
    ERR_NULL = -1
    ERR_ARG = -2
    ERR_OVERFLOW = -3
    ERR_CAPACITY = -4
    ERR_DIM_ID = -5
    ERR_RANGE = -6
    ERR_UNSUPPORTED = -7
    ERR_MISALIGNED = -8
    ERR_NOT_FOUND = -9
    ERR_BUFFER = -10
    ERR_PARSE = -11
    ERR_MISMATCH = -12


def status_name(status: int) -> str:
    """``LAYOUT_ERR_ARG`` style name of a status (``LAYOUT_ERR_UNKNOWN`` for others)."""
    try:
        return "LAYOUT_" + Status(status).name
    except ValueError:
        return "LAYOUT_ERR_UNKNOWN"


class LayoutError(Exception):
    """A liblayout call failed: the library's status and message.

    Attributes:
        status: the ``layout_status`` (a :class:`Status` member when known).
        status_name: e.g. ``"LAYOUT_ERR_PARSE"``.
        message: the library's one-line message naming the bad argument,
            e.g. ``"layout_desc_from_text: column 17: expected ',' or ']', found '1'"``.
        where: for text input, the byte offset of the offending spot, else None.
        caret: for text input, two lines showing the spot (layout_text_caret()).

    ``str(error)`` is the message.
    """

    def __init__(self, message: str, status: int, where: Optional[int] = None, caret: Optional[str] = None) -> None:
        super().__init__(message)
        try:
            self.status: int = Status(status)
        except ValueError:
            self.status = status
        self.status_name: str = status_name(status)
        self.message: str = message
        self.where: Optional[int] = where
        self.caret: Optional[str] = caret

    def __repr__(self) -> str:
        return f"LayoutError({self.message!r}, status={self.status_name})"


class LibraryNotFoundError(OSError):
    """liblayout.so could not be found or loaded, or does not match this module."""
