#!/bin/sh
# Run every test binary given on the command line, echo their output and end
# with the grand total "N passed, M failed".  Exit status 1 on any failure
# (a crash or a missing summary line counts as one failed test).
# $LAYOUT_TEST_WRAPPER (e.g. "valgrind -q --error-exitcode=99") prefixes each run.
passed=0
failed=0
for t in "$@"; do
    out=$($LAYOUT_TEST_WRAPPER "$t" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    line=$(printf '%s\n' "$out" | grep -E '^[A-Za-z0-9_]+: [0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    if [ -z "$line" ]; then
        echo "$(basename "$t"): no summary line (exit status $rc): counted as 1 failed"
        failed=$((failed + 1))
        continue
    fi
    p=$(printf '%s' "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1/')
    f=$(printf '%s' "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\2/')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$(basename "$t"): exit status $rc with no failed test: counted as 1 failed"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
