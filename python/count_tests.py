"""How many tests a pytest directory holds, read without pytest (standard library only).

python/run_tests.sh uses it when pytest is missing, so that `make test`'s
closing line counts the suite it could not run ("N passed, M failed, K
skipped") instead of dropping it.  Read from the source with ``ast``,
nothing is imported or run: every ``def test_*`` at module level and every
``test_*`` method of a ``Test*`` class of each ``test_*.py`` is one test,
times the cases of each ``@pytest.mark.parametrize(names, values)`` whose
``values`` is a literal list or tuple (a computed one, ``range(...)`` or
``sorted(...)``, counts as one case: the figure is then a lower bound of
what pytest would collect).

    python3 python/count_tests.py python/tests      # prints one number
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def _cases(decorator: ast.expr) -> int:
    """The cases a decorator multiplies by: a parametrize's literal list's length, else 1."""
    if not isinstance(decorator, ast.Call):
        return 1
    fn = decorator.func
    if not (isinstance(fn, ast.Attribute) and fn.attr == "parametrize"):
        return 1
    values = decorator.args[1] if len(decorator.args) > 1 else None
    for kw in decorator.keywords:
        if kw.arg == "argvalues":
            values = kw.value
    if isinstance(values, (ast.List, ast.Tuple)):
        return max(len(values.elts), 1)
    return 1


def _count_function(fn: ast.AST) -> int:
    n = 1
    for dec in getattr(fn, "decorator_list", []):
        n *= _cases(dec)
    return n


def count_file(path: Path) -> int:
    """Tests of one test module (a file that does not parse counts as one test: it would fail)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    except (SyntaxError, UnicodeDecodeError):
        return 1
    total = 0
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            total += _count_function(node)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            per_class = 1
            for dec in node.decorator_list:
                per_class *= _cases(dec)
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test"):
                    total += per_class * _count_function(item)
    return total


def count_dir(directory: Path) -> int:
    """Tests of every test_*.py under ``directory`` (recursively), as pytest's default discovery finds them."""
    return sum(count_file(p) for p in sorted(directory.rglob("test_*.py")))


def main(argv: list) -> int:
    if len(argv) != 1:
        print("usage: count_tests.py DIRECTORY", file=sys.stderr)
        return 2
    directory = Path(argv[0])
    if not directory.is_dir():
        print(f"count_tests.py: {directory} is not a directory", file=sys.stderr)
        return 2
    print(count_dir(directory))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
