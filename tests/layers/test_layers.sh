#!/bin/sh
# The layer check's own test: on a copy of lib/, include/ and lib/LAYERS
# (and of the built objects OBJDIR, default build/lib), the clean copy must
# pass and each planted defect must fail with a line naming it.
#
#   sh tests/layers/test_layers.sh [OBJDIR]
#
# Ends with "test_layers: N passed, M failed" (tests/run.sh's summary form).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
objdir=${1:-build/lib}
case $objdir in /*) ;; *) objdir=$src/$objdir ;; esac
CC=${CC:-cc}
passed=0; failed=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

fresh() { # a clean copy of the tree and its objects in $tmp/t, $tmp/o
    rm -rf "$tmp/t" "$tmp/o"
    mkdir -p "$tmp/t" "$tmp/o"
    cp -r "$src/lib" "$src/include" "$tmp/t/"
    (cd "$objdir" && for d in */; do mkdir -p "$tmp/o/$d" && cp "$d"*.o "$tmp/o/$d" 2>/dev/null; done; true)
}
# expect WHAT PATTERN: the check must fail and print a line matching PATTERN
expect() {
    out=$(sh "$here/check_layers.sh" -C "$tmp/t" "$tmp/o" 2>&1); rc=$?
    if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q -- "$2"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "test_layers: FAIL: $1: exit $rc, no line matching '$2' in:"
        printf '%s\n' "$out" | sed 's/^/    /'
    fi
}
plant() { # plant FILE CODE: compile CODE as lib/FILE.c into the objects
    mkdir -p "$(dirname "$tmp/t/lib/$1.c")" "$(dirname "$tmp/o/$1.o")"
    printf '%s\n' "$2" > "$tmp/t/lib/$1.c"
    $CC -c "$tmp/t/lib/$1.c" -o "$tmp/o/$1.o" || { echo "test_layers: cannot compile the planted $1.c"; exit 2; }
}

fresh
if out=$(sh "$here/check_layers.sh" -C "$tmp/t" "$tmp/o" 2>&1); then passed=$((passed + 1))
else failed=$((failed + 1)); echo "test_layers: FAIL: the clean copy does not pass:"; printf '%s\n' "$out"; fi

# An internal header of a higher layer, included from the bottom layer.
fresh
printf '#include "../suggest/suggest_internal.h"\n' >> "$tmp/t/lib/core/status.c"
expect "upward internal include" 'lib/core/status.c:[0-9]*: includes "../suggest/suggest_internal.h" (layer suggest) from layer core'

# Another folder's private header, from a layer above it (allowed by rank,
# refused because *_internal.h is private to its folder).
fresh
printf '#include "../plan/plan_internal.h"\n' >> "$tmp/t/lib/tile/kernel.c"
expect "another folder's internal header" 'lib/tile/kernel.c:[0-9]*: includes "../plan/plan_internal.h", private to lib/plan/'

# A public header of a higher layer, included from a lower one.
fresh
printf '#include "layout/suggest.h"\n' >> "$tmp/t/lib/check/instr.c"
expect "upward public include" 'lib/check/instr.c:[0-9]*: includes "layout/suggest.h" (layer suggest) from layer check'

# A public header that includes a higher layer's public header.
fresh
printf '#include "layout/triton.h"\n' >> "$tmp/t/include/layout/descriptor.h"
expect "upward include between public headers" 'include/layout/descriptor.h:[0-9]*: includes "layout/triton.h" (layer dialect) from layer core'

# A call from the bottom layer into the search.
fresh
sym=$(nm -g --defined-only "$tmp/o/suggest/search.o" | awk 'NF == 3 && $2 == "T" {print $3; exit}')
plant core/planted "extern int $sym(void); int layout_planted(void) { return $sym(); }"
expect "upward call" "lib/core/planted.c: calls up into lib/suggest/search.c (layer suggest above core): $sym"

# Two files of one layer that call each other.
fresh
plant text/plant_a "extern int layout_plant_b(int); int layout_plant_a(int x) { return x ? layout_plant_b(x - 1) : 0; }"
plant text/plant_b "extern int layout_plant_a(int); int layout_plant_b(int x) { return x ? layout_plant_a(x - 1) : 1; }"
expect "circle of calls" 'lib/text/plant_[ab].c and lib/text/plant_[ab].c call each other'

# A global symbol without the prefix.
fresh
plant core/plant_c "int plant_unprefixed(void) { return 1; }"
expect "unprefixed symbol" 'lib/core/plant_c.c: defines the global symbol plant_unprefixed without the layout_ prefix'

# A source file directly in lib/, a folder without README, a folder or a
# public header missing from the table.
fresh
printf 'int layout_stray;\n' > "$tmp/t/lib/stray.c"
expect "file directly in lib/" 'lib/stray.c is directly in lib/'
fresh
rm "$tmp/t/lib/lint/README.md"
expect "folder without README" 'lib/lint has no README.md'
fresh
mkdir "$tmp/t/lib/extra" && printf '# extra\n' > "$tmp/t/lib/extra/README.md"
expect "folder not in the table" 'lib/extra is not in lib/LAYERS'
fresh
printf '#pragma once\n' > "$tmp/t/include/layout/unplaced.h"
expect "public header not in the table" 'include/layout/unplaced.h is in no layer'

echo "test_layers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
