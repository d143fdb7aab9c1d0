#!/bin/sh
# Every code block of README.md and docs/*.md, run as a user would run it
# (`make test` runs this as one entry of tests/run.sh; `make snippets` alone).
#
#   sh tests/snippets/run_snippets.sh PREFIX [FILE.md ...]
#
# PREFIX is an installed copy of liblayout (`make install PREFIX=...`).  Each
# fenced block is taken by the first word of its info string:
#   ```c       a complete program: compiled with `pkg-config --cflags --libs
#              --static layout` against PREFIX (-Wall -Wextra -Werror), run,
#              exit status 0 required;
#   ```sh      run by `sh -e` in a scratch folder that mirrors the
#              repository's top level (so `tests/fixtures/...` resolves and
#              files the block writes land in the scratch), PREFIX/bin first
#              on PATH;
#   ```python  run by $PYTHON (default python3) with the repository's
#              python/ on PYTHONPATH and LIBLAYOUT_PATH at PREFIX's library;
#              a line `print(EXPR)  # VALUE` also asserts str(EXPR) == VALUE.
# Further words of the info string:
#   fragment        part of a program, shown and not run;
#   gpu             needs a GPU and its vendor tools (nvcc, ncu, hipcc,
#                   rocprofv3): shown, not run here;
#   needs=CMD       run only where CMD is on PATH (else counted as skipped);
#   exit=N          the block's last command exits with N (e.g. `layout
#                   check` exits 1 when it finds conflicts), not 0;
#   setup           the README's set-up commands, which CI runs itself: the
#                   block must be exactly `make demo` and `make test` lines.
# Any other language (text, console, cmake, ...) is not run.  Prints one
# line per block and "test_snippets: N passed, M failed".
set -u
prefix=${1:?usage: run_snippets.sh PREFIX [FILE.md ...]}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
prefix=$(cd "$prefix" && pwd) || exit 2
[ $# -gt 0 ] || set -- "$root/README.md" "$root"/docs/*.md
py=${PYTHON:-python3}
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || cc=cc
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
passed=0 failed=0 skipped=0

# The scratch folder sh blocks run in: the repository's top-level entries
# as links, so relative paths resolve and outputs stay out of the tree.
scratch=$work/scratch
mkdir -p "$scratch"
for e in docs examples include python tests; do ln -s "$root/$e" "$scratch/$e"; done

fail() { echo "test_snippets: FAIL $1"; [ -f "$2" ] && sed -n '1,40p' "$2" | sed 's/^/    /'; failed=$((failed + 1)); }

# Split FILE into $work/blocks/NNN.{c,sh,python,skip} with a header line
# "FILE:LINE INFO" in $work/blocks/NNN.where.
extract() {
    rm -rf "$work/blocks"; mkdir -p "$work/blocks"
    awk -v out="$work/blocks" -v file="$1" '
        /^[ \t]*```/ {
            if (!inb) {
                inb = 1; info = $0; sub(/^[ \t]*```/, "", info); n++
                lang = info; sub(/[ \t].*/, "", lang)
                name = sprintf("%s/%03d", out, n)
                print file ":" NR " " info > (name ".where"); close(name ".where")
                body = name ".body"; printf "" > body
            } else { inb = 0; close(body) }
            next
        }
        inb { print >> body }
        END { if (inb) print file ": unterminated code block" > (out "/unterminated") }' "$1"
}

run_c() { # block where
    mkdir -p "$work/c"; cp "$1" "$work/c/snippet.c"
    if ! PKG_CONFIG_PATH="$prefix/lib/pkgconfig" sh -c \
        '"$0" -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags layout) -o "$1/snippet" "$1/snippet.c" $(pkg-config --libs --static layout)' \
        "$cc" "$work/c" > "$work/log" 2>&1; then fail "$2 (does not compile)" "$work/log"; return; fi
    "$work/c/snippet" > "$work/log" 2>&1 || { fail "$2 (exit status $?)" "$work/log"; return; }
    echo "test_snippets: ok $2 (c)"; passed=$((passed + 1))
}

run_sh() { # block where expected-exit
    rc=0
    (cd "$scratch" && PATH="$prefix/bin:$PATH" sh -e "$1") > "$work/log" 2>&1 || rc=$?
    [ "$rc" -eq "$3" ] || { fail "$2 (exit status $rc, the docs say $3)" "$work/log"; return; }
    echo "test_snippets: ok $2 (sh)"; passed=$((passed + 1))
}

run_python() {
    if ! command -v "$py" >/dev/null 2>&1; then
        echo "test_snippets: skipped $2 ($py not found)"; skipped=$((skipped + 1)); return
    fi
    # print(EXPR)  # VALUE  ->  print and assert (the value the docs promise)
    "$py" - "$1" > "$work/snippet.py" <<'EOF'
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r'^(\s*)print\((.*)\)\s+#\s*(\S.*?)\s*$', line.rstrip('\n'))
    if m and not m.group(3).startswith(('stderr', 'e.g.')):
        ind, expr, want = m.groups()
        sys.stdout.write(f"{ind}__v = ({expr}); print(__v)\n"
                         f"{ind}assert str(__v) == {want!r}, 'the docs say ' + {want!r} + ', got ' + str(__v)\n")
    else:
        sys.stdout.write(line)
EOF
    (cd "$scratch" && PYTHONPATH="$root/python" LIBLAYOUT_PATH="$prefix/lib/liblayout.so" \
        PATH="$prefix/bin:$PATH" "$py" "$work/snippet.py") > "$work/log" 2>&1 ||
        { fail "$2 (exit status $?)" "$work/log"; return; }
    echo "test_snippets: ok $2 (python)"; passed=$((passed + 1))
}

for md in "$@"; do
    rel=${md#"$root"/}
    extract "$md"
    if [ -f "$work/blocks/unterminated" ]; then fail "$rel: unterminated code block" /dev/null; fi
    for w in "$work"/blocks/*.where; do
        [ -f "$w" ] || continue
        b=${w%.where}.body
        set -- $(cat "$w")
        where=${1#"$root"/}
        shift; lang=${1:-}; [ $# -gt 0 ] && shift
        words=" $* "
        case $lang in c|sh|python) ;; *) continue ;; esac
        case $words in *" fragment "*|*" gpu "*)
            skipped=$((skipped + 1)); continue ;; esac
        case $words in *" setup "*)
            if [ "$(grep -v '^[[:space:]]*$' "$b" | sed 's/[[:space:]]*#.*//' | tr -s ' ' | tr '\n' ';')" = "make demo;make test;" ]
            then echo "test_snippets: ok $where (set-up commands: make demo, make test)"; passed=$((passed + 1))
            else fail "$where: a setup block holds exactly 'make demo' and 'make test'" "$b"; fi
            continue ;; esac
        need=$(printf '%s\n' $words | sed -n 's/^needs=//p' | head -n 1)
        if [ -n "$need" ] && ! command -v "$need" >/dev/null 2>&1; then
            echo "test_snippets: skipped $where (needs $need)"; skipped=$((skipped + 1)); continue
        fi
        want=$(printf '%s\n' $words | sed -n 's/^exit=//p' | head -n 1)
        "run_$lang" "$b" "$where" "${want:-0}"
    done
done
echo "test_snippets: $skipped blocks shown but not run (fragment, gpu, or a missing needs=)"
echo "test_snippets: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
