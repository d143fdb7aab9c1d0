#!/bin/sh
# The Python module's pytest suite as one entry of tests/run.sh (`make test`):
# runs python/tests with $PYTHON against $LIBLAYOUT_PATH (the build's
# liblayout.so) and $LAYOUT_TOOL (its `layout` tool), echoes pytest's output
# and ends with "test_python: N passed, M failed" (errors count as failed).
# Without python3 or pytest it says so and reports 0 passed, 0 failed, so the
# C suite's total stays meaningful on a machine without Python.
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-}
if [ -z "$py" ]; then
    # the first interpreter with pytest (a pyenv / venv python3 may lack it)
    for cand in python3 /usr/bin/python3; do
        if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import pytest' >/dev/null 2>&1; then py=$cand; break; fi
    done
    py=${py:-python3}
fi
if ! command -v "$py" >/dev/null 2>&1; then
    echo "test_python: SKIPPED: $py not found (install python3 and python3-pytest, or set PYTHON=...)"
    echo "test_python: 0 passed, 0 failed"
    exit 0
fi
if ! "$py" -c 'import pytest' >/dev/null 2>&1; then
    echo "test_python: SKIPPED: pytest is not installed for $py (Debian: apt-get install python3-pytest)"
    echo "test_python: 0 passed, 0 failed"
    exit 0
fi
out=$(cd "$here" && PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" "$py" -m pytest -q -p no:cacheprovider tests 2>&1)
rc=$?
printf '%s\n' "$out"
summary=$(printf '%s\n' "$out" | grep -E '^=*[ ]*[0-9]+ (passed|failed|error)' | tail -n 1)
count() { printf '%s\n' "$summary" | grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' || echo 0; }
passed=$(count passed)
failed=$(( $(count failed) + $(count 'errors?') ))
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "test_python: pytest exited with status $rc and no failed test: counted as 1 failed"
    failed=1
fi
echo "test_python: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
