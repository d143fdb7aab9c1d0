#!/bin/sh
# tests/run.sh entry (it runs entries without arguments): first the runner's
# own test - tests/snippets/planted/broken.md holds one block of each defect
# it must catch, and five blocks it must pass - the README's length (at most
# 170 lines), the pkg-config consumer (tests/consumer/run.sh: shared, static,
# fully static), then the snippets of README.md and docs/*.md against the
# copy `make test` installed in $LAYOUT_SNIPPET_PREFIX.
here=$(cd "$(dirname "$0")" && pwd)
prefix=${LAYOUT_SNIPPET_PREFIX:?set by make test}
out=$(sh "$here/run_snippets.sh" "$prefix" "$here/planted/broken.md" 2>&1)
rc=$?
bad=0
expect() { # PATTERN: a line of the runner's output must match
    printf '%s\n' "$out" | grep -q -- "$1" || { echo "test_snippets: the runner missed: $1"; bad=1; }
}
expect 'FAIL tests/snippets/planted/broken.md:5 (does not compile)'
expect 'FAIL tests/snippets/planted/broken.md:11 (exit status 3)'
expect 'FAIL tests/snippets/planted/broken.md:17 (exit status 2, the docs say 0)'
expect 'FAIL tests/snippets/planted/broken.md:23 (exit status 0, the docs say 1)'
expect 'FAIL tests/snippets/planted/broken.md:29 (exit status 1)'
expect "the docs say 3, got 2"
expect 'FAIL tests/snippets/planted/broken.md:[0-9]* (the output differs from the docs: .*: four)'
expect 'FAIL tests/snippets/planted/broken.md:[0-9]*: an output block must follow'
expect 'FAIL tests/snippets/planted/broken.md:[0-9]* (writes litter.txt into the repository root'
expect 'FAIL tests/snippets/planted/broken.md:[0-9]*: a setup block holds exactly'
expect 'ok tests/snippets/planted/broken.md:.* (output as shown)'
expect 'skipped tests/snippets/planted/broken.md:.* (needs no-such-tool-here)'
expect 'ok tests/snippets/planted/broken.md:.* (c)'
expect 'ok tests/snippets/planted/broken.md:.* (sh)'
expect 'test_snippets: 6 passed, 9 failed'
[ "$rc" -ne 0 ] || { echo "test_snippets: the runner exited 0 on planted defects"; bad=1; }
if [ "$bad" -ne 0 ]; then printf '%s\n' "$out" | sed 's/^/    /'; fi

# The README is a front page: at most 170 lines (detail goes to docs/).
lines=$(wc -l < "$here/../../README.md")
[ "$lines" -le 170 ] ||
    { echo "test_snippets: README.md has $lines lines; a front page keeps to 170 (move detail into docs/)"; bad=1; }

# Linking as docs/building.md says, against the same installed copy:
# shared, static and fully static through pkg-config (tests/consumer/run.sh).
work=$(mktemp -d) || exit 1
sh "$here/../consumer/run.sh" "$prefix" "$work" || bad=1
rm -rf "$work"
sh "$here/run_snippets.sh" "$prefix"
rc=$?
if [ "$bad" -ne 0 ]; then echo "test_snippets: 0 passed, 1 failed"; exit 1; fi
exit $rc
