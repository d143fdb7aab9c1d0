"""The examples in the module's docstrings run and print what they show."""

from __future__ import annotations

import doctest

import liblayout
from liblayout import _api


def test_docstring_examples() -> None:
    result = doctest.testmod(_api, extraglobs=vars(liblayout), optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted >= 6
    assert result.failed == 0
