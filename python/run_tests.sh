#!/bin/sh
# The Python module's pytest suite as one entry of tests/run.sh (`make test`):
# runs python/tests with $PYTHON against $LIBLAYOUT_PATH (the build's
# liblayout.so) and $LAYOUT_TOOL (its `layout` tool), echoes pytest's output
# and ends with "test_python: N passed, M failed, K skipped" (errors count as
# failed; K: the tests pytest skipped).  Without python3 or pytest it says so
# ("test_python: SKIPPED: ...") and reports "0 passed, 0 failed, K skipped"
# with K the tests it would have run (python/count_tests.py reads them from
# the source; a grep of `def test_` without any python3), so run.sh's total
# counts them as skipped instead of dropping them.
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-}
if [ -z "$py" ]; then
    # the first interpreter with pytest (a pyenv / venv python3 may lack it)
    for cand in python3 /usr/bin/python3; do
        if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import pytest' >/dev/null 2>&1; then py=$cand; break; fi
    done
    py=${py:-python3}
fi
not_run() { # the tests of python/tests, counted without pytest (without python3: their def test_ lines)
    n=$("$py" "$here/count_tests.py" "$here/tests" 2>/dev/null) || n=
    case $n in ''|*[!0-9]*) n=$(cat "$here"/tests/test_*.py | grep -cE '^[[:space:]]*(async[[:space:]]+)?def test')
    esac
    echo "$n"
}
if ! command -v "$py" >/dev/null 2>&1; then
    n=$(not_run)
    echo "test_python: SKIPPED: $py not found: $n tests not run (install python3 and python3-pytest, or set PYTHON=...)"
    echo "test_python: 0 passed, 0 failed, $n skipped"
    exit 0
fi
if ! "$py" -c 'import pytest' >/dev/null 2>&1; then
    n=$(not_run)
    echo "test_python: SKIPPED: pytest is not installed for $py: $n tests not run (Debian: apt-get install python3-pytest)"
    echo "test_python: 0 passed, 0 failed, $n skipped"
    exit 0
fi
out=$(cd "$here" && PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" "$py" -m pytest -q -p no:cacheprovider tests 2>&1)
rc=$?
printf '%s\n' "$out"
summary=$(printf '%s\n' "$out" | grep -E '^=*[ ]*[0-9]+ (passed|failed|errors?|skipped)' | tail -n 1)
count() { printf '%s\n' "$summary" | grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' || echo 0; }
passed=$(count passed)
failed=$(( $(count failed) + $(count 'errors?') ))
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "test_python: pytest exited with status $rc and no failed test: counted as 1 failed"
    failed=1
fi
echo "test_python: $passed passed, $failed failed, $(count skipped) skipped"
[ "$failed" -eq 0 ]
