#!/bin/sh
# tests/run.sh entry: `make test`'s closing line counts what was not run.
# (1) python/count_tests.py on a planted test directory whose tests are
# known (10: 3 plain, a literal parametrize of 4, a computed one counted
# once, a Test class of 2); (2) run.sh over two planted suites and
# python/run_tests.sh with PYTHON an interpreter that cannot import pytest
# (python3 -I -S): the closing line is "5 passed, 0 failed, 1+K skipped"
# with K the count of python/tests (at least its `def test_` lines), the
# Python suite is named as skipped, and exit status 0; (3) the same with
# LAYOUT_TEST_NO_SKIP=1 (what .ci/run sets) exits 1; a suite's own partial
# skips do not.  Prints "test_run_summary: N passed, M failed".
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layout-run-summary.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "test_run_summary: FAIL: $*"; failed=$((failed + 1)); }

real=$(command -v python3 || echo /usr/bin/python3)
if ! [ -x "$real" ] && ! command -v "$real" >/dev/null 2>&1; then
    echo "test_run_summary: SKIPPED: no python3 to plant an interpreter without pytest"
    echo "test_run_summary: 0 passed, 0 failed, 3 skipped"
    exit 0
fi
# an interpreter that cannot import pytest: isolated (-I) and without site-packages (-S)
printf '#!/bin/sh\nexec "%s" -I -S "$@"\n' "$real" > "$tmp/nopytest"
chmod +x "$tmp/nopytest"
if "$tmp/nopytest" -c 'import pytest' 2>/dev/null; then
    bad "python3 -I -S still imports pytest: the planted interpreter is not one without pytest"
fi

# (1) the counter on planted tests: 3 + 4 + 1 + 2 = 10
mkdir -p "$tmp/ptests/sub"
cat > "$tmp/ptests/test_planted.py" <<'EOF'
import pytest

def helper():
    pass

def test_one():
    pass

async def test_two():
    pass

@pytest.mark.parametrize("x", [1, 2, 3, 4])
def test_literal(x):
    pass

@pytest.mark.parametrize("x", range(7))
def test_computed(x):
    pass

class TestPair:
    def test_a(self):
        pass

    def test_b(self):
        pass

    def not_a_test(self):
        pass
EOF
printf 'def test_three():\n    pass\n' > "$tmp/ptests/sub/test_more.py"
printf 'def test_ignored():\n    pass\n' > "$tmp/ptests/helper_not_collected.py"
n=$("$tmp/nopytest" "$root/python/count_tests.py" "$tmp/ptests")
if [ "$n" = 10 ]; then ok; else bad "count_tests.py on the planted tests: $n, want 10"; fi

# (2) run.sh's closing line with the Python suite skipped for want of pytest
printf '#!/bin/sh\necho "suite_ok: 2 passed, 0 failed"\n' > "$tmp/suite_ok.sh"
printf '#!/bin/sh\necho "suite_partial: 3 passed, 0 failed, 1 skipped"\n' > "$tmp/suite_partial.sh"
chmod +x "$tmp/suite_ok.sh" "$tmp/suite_partial.sh"
k=$("$tmp/nopytest" "$root/python/count_tests.py" "$root/python/tests")
lines=$(cat "$root"/python/tests/test_*.py | grep -cE '^[[:space:]]*(async[[:space:]]+)?def test')
if [ "$k" -ge "$lines" ] 2>/dev/null && [ "$lines" -gt 0 ]; then ok; else bad "python/tests counted $k, has $lines def test_ lines"; fi
# LAYOUT_TEST_NO_SKIP is cleared: CI exports it, and each case below sets it itself
run() { env -u LAYOUT_TEST_WRAPPER -u LAYOUT_TEST_NO_SKIP LAYOUT_TEST_JOBS=1 PYTHON="$tmp/nopytest" "$@" > "$tmp/out" 2>&1; echo $?; }
rc=$(run sh "$root/tests/run.sh" "$tmp/suite_ok.sh" "$tmp/suite_partial.sh" "$root/python/run_tests.sh")
last=$(tail -n 1 "$tmp/out")
want="5 passed, 0 failed, $((k + 1)) skipped"
if [ "$rc" = 0 ] && [ "$last" = "$want" ] && grep -q '^test_python: SKIPPED: pytest is not installed' "$tmp/out" \
    && grep -q '^skipped suites .*: test_python$' "$tmp/out"; then ok
else bad "run.sh without pytest: exit $rc, closing line '$last', want '$want' and test_python named as skipped"
    sed 's/^/    /' "$tmp/out"; fi

# (3) LAYOUT_TEST_NO_SKIP=1: a skipped suite fails the run; a suite's own skipped tests do not
rc=$(run env LAYOUT_TEST_NO_SKIP=1 sh "$root/tests/run.sh" "$tmp/suite_ok.sh" "$root/python/run_tests.sh")
last=$(tail -n 1 "$tmp/out")
if [ "$rc" = 1 ] && [ "$last" = "2 passed, 0 failed, $k skipped" ] && grep -q 'LAYOUT_TEST_NO_SKIP=1' "$tmp/out"; then ok
else bad "LAYOUT_TEST_NO_SKIP=1 with a skipped suite: exit $rc, closing line '$last'"; sed 's/^/    /' "$tmp/out"; fi
rc=$(run env LAYOUT_TEST_NO_SKIP=1 sh "$root/tests/run.sh" "$tmp/suite_ok.sh" "$tmp/suite_partial.sh")
last=$(tail -n 1 "$tmp/out")
if [ "$rc" = 0 ] && [ "$last" = "5 passed, 0 failed, 1 skipped" ]; then ok
else bad "LAYOUT_TEST_NO_SKIP=1 with partial skips only: exit $rc, closing line '$last'"; sed 's/^/    /' "$tmp/out"; fi

echo "test_run_summary: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
