#!/bin/sh
# Run every test program given on the command line, echo their output and end
# with the grand total "N passed, M failed, K skipped".  Exit status 1 on any
# failure (a crash or a missing summary line counts as one failed test).
# Each program's last line of the form "NAME: N passed, M failed" or
# "NAME: N passed, M failed, K skipped" is its summary; K counts the tests it
# did not run, and a program that ran none ("0 passed, 0 failed, K skipped",
# e.g. python/run_tests.sh without pytest) is a suite skipped for a missing
# tool: listed before the total, and with LAYOUT_TEST_NO_SKIP=1 (CI) it makes
# the run fail.
# $LAYOUT_TEST_WRAPPER (e.g. "valgrind -q --error-exitcode=99") prefixes each run.
#
# $LAYOUT_TEST_JOBS programs run at once (default: the online CPUs,
# getconf _NPROCESSORS_ONLN; 1 runs them one after the other).  Each one's
# output goes to its own file and is printed whole, in command-line order,
# as soon as it and every program before it have finished.  The programs
# known to run longest start first (SLOW below), so the last to finish is
# not a long one started late.
# Tests run side by side: scratch files go to mkdtemp/mktemp folders or
# names with the process id, never a fixed path.

# Longest first (`make test` on two cores: test_emit ~150 s of clang-22
# compilations, the Python suite (its Gluon fixtures), test_suggest_fast ~30 s
# (both suggest scorers on every corpus and Gluon kernel), the searches ~10 s
# each, test_doc_refs); the rest in command-line order.
SLOW="test_emit run_tests.sh test_suggest_fast test_triton_suggest test_suggest test_doc_refs.sh test_snippets.sh test_tool
test_triton_coverage test_family"

jobs=${LAYOUT_TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*|0) echo "run.sh: LAYOUT_TEST_JOBS=$jobs is not a positive number: using 1"; jobs=1;; esac

dir=$(mktemp -d "${TMPDIR:-/tmp}/layout-run.XXXXXX") || { echo "run.sh: cannot create a scratch folder"; exit 1; }
pids=
trap 'rm -rf "$dir"' EXIT
trap 'kill $pids 2>/dev/null; exit 130' HUP INT PIPE TERM

# A token per free slot in a FIFO: a program starts after taking one and
# gives it back when it ends (POSIX sh has no `wait -n`).
mkfifo "$dir/slots" || { echo "run.sh: cannot create a FIFO in $dir"; exit 1; }
exec 3<>"$dir/slots"
i=0
while [ "$i" -lt "$jobs" ]; do echo >&3; i=$((i + 1)); done

# t_1 .. t_N: the programs in command-line order.  The launch order: the
# indices of the SLOW programs first, then the others.
n=$#
i=0
for t in "$@"; do i=$((i + 1)); eval "t_$i=\$t"; done
order=
for s in $SLOW; do
    i=0
    for t in "$@"; do
        i=$((i + 1))
        [ "${t##*/}" = "$s" ] && order="$order $i"
    done
done
i=0
for t in "$@"; do
    i=$((i + 1))
    case " $order " in *" $i "*) ;; *) order="$order $i";; esac
done

passed=0
failed=0
skipped=0
skipped_suites=
next=1   # the next program whose output is printed
report() { # INDEX PROGRAM: print its output, add its summary to the totals
    cat "$dir/$1.out"
    rc=$(cat "$dir/$1.rc")
    line=$(grep -E '^[A-Za-z0-9_]+: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$dir/$1.out" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$(basename "$2"): no summary line (exit status $rc): counted as 1 failed"
        failed=$((failed + 1))
        return
    fi
    p=$(printf '%s' "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/')
    f=$(printf '%s' "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/')
    s=0
    case $line in *skipped) s=$(printf '%s' "$line" | sed -E 's/.*, ([0-9]+) skipped$/\1/');; esac
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -gt 0 ]; then
        skipped_suites="$skipped_suites ${line%%:*}"
    fi
    skipped=$((skipped + s))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$(basename "$2"): exit status $rc with no failed test: counted as 1 failed"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
}
flush() { # print every finished program whose predecessors are printed
    while [ "$next" -le "$n" ] && [ -f "$dir/$next.rc" ]; do
        eval "report $next \"\$t_$next\""
        next=$((next + 1))
    done
}

for i in $order; do
    read -r _ <&3   # wait for a free slot
    flush
    eval "t=\$t_$i"
    (
        rc=0
        $LAYOUT_TEST_WRAPPER "$t" > "$dir/$i.out" 2>&1 3>&- || rc=$?
        echo "$rc" > "$dir/$i.rc.tmp" && mv "$dir/$i.rc.tmp" "$dir/$i.rc"
        echo >&3
    ) &
    pids="$pids $!"
done
wait
exec 3>&-
# A runner shell that died before writing the status (killed from outside):
# its program counts as crashed.
i=$next
while [ "$i" -le "$n" ]; do
    [ -f "$dir/$i.rc" ] || { echo 255 > "$dir/$i.rc"; [ -f "$dir/$i.out" ] || : > "$dir/$i.out"; }
    i=$((i + 1))
done
flush
refuse_skip=0
if [ -n "$skipped_suites" ]; then
    echo "skipped suites (a tool they need is missing; their SKIPPED line says which):$skipped_suites"
    if [ "${LAYOUT_TEST_NO_SKIP:-0}" = 1 ]; then
        echo "LAYOUT_TEST_NO_SKIP=1: a skipped suite fails the run (exit status 1)"
        refuse_skip=1
    fi
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$refuse_skip" -eq 0 ]
