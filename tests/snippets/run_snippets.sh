#!/bin/sh
# Every code block of README.md and docs/*.md, run as a user would run it
# (`make test` runs this as one entry of tests/run.sh; `make snippets` alone).
#
#   sh tests/snippets/run_snippets.sh PREFIX [FILE.md ...]
#
# PREFIX is an installed copy of liblayout (`make install PREFIX=...`).  Each
# fenced block is taken by the first word of its info string:
#   ```c       a complete program: compiled with `pkg-config --cflags --libs
#              layout` against PREFIX (-Wall -Wextra -Werror; the shared
#              library, as the README's comment says), run with
#              LD_LIBRARY_PATH=PREFIX/lib, exit status 0 required;
#   ```sh      run by `sh -e` in a scratch folder that mirrors the
#              repository's top level (so `tests/fixtures/...` resolves),
#              PREFIX/bin first on PATH, PKG_CONFIG_PATH at PREFIX's layout.pc
#              (as the README has the user set it); an empty `build/` takes
#              the files a block writes, and a block that writes anything else
#              into the top level fails (docs must not litter a checkout);
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
# Any other language (text, console, cmake, ...) is not run, except:
#   ```text output   the output the block just before it (c, sh or python,
#              no other block between) prints, stdout and stderr together:
#              checked line by line (trailing blanks and blank lines at
#              either end ignored).  A line `...` stands for any number of
#              lines, `...` inside a line for any characters; so a page
#              shows the tool's real output, elided but never invented.
#              After a block that is not run (fragment, gpu, needs=) it is
#              not checked either.
# Prints one line per block and "test_snippets: N passed, M failed".
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
mkdir "$scratch/build"
top=$(ls -A "$scratch")

fail() { echo "test_snippets: FAIL $1"; [ -f "$2" ] && sed -n '1,40p' "$2" | sed 's/^/    /'; failed=$((failed + 1)); }

# What a block left in the scratch's top level (the repository root, as the
# user runs it): removed, named.  Empty when it left nothing.
litter() {
    new=$(ls -A "$scratch" | grep -vxF "$top" | tr '\n' ' ')
    for f in $new; do rm -rf "${scratch:?}/$f"; done
    printf '%s' "$new"
}

# match_output EXPECTED ACTUAL: exit 0 when ACTUAL has the lines EXPECTED
# shows (see `text output` above); else prints the first shown line that
# the output does not have.
match_output() {
    awk '
    function rtrim(s) { sub(/[ \t\r]+$/, "", s); return s }
    function trim(s) { sub(/^[ \t]+/, "", s); return rtrim(s) }
    # one line against a shown line: `...` inside it matches any characters
    function lmatch(pat, s,   n, parts, i, k, pos, last) {
        if (index(pat, "...") == 0) return pat == s
        n = split(pat, parts, /\.\.\./)
        if (substr(s, 1, length(parts[1])) != parts[1]) return 0
        pos = length(parts[1]) + 1
        for (i = 2; i < n; i++) {
            k = index(substr(s, pos), parts[i])
            if (!k) return 0
            pos += k - 1 + length(parts[i])
        }
        last = length(s) - length(parts[n]) + 1
        return last >= pos && substr(s, last) == parts[n]
    }
    # segment j (shown lines sb[j] .. sb[j]+sl[j]-1) at output line at?
    function smatch(j, at,   i) {
        if (at < 1 || at + sl[j] - 1 > na) return 0
        for (i = 0; i < sl[j]; i++) if (!lmatch(ex[sb[j] + i], act[at + i])) return 0
        return 1
    }
    FILENAME == ARGV[1] { ex[++ne] = rtrim($0); next }
    { act[++na] = rtrim($0) }
    END {
        while (ne > 0 && ex[ne] == "") ne--
        b = 1; while (b <= ne && ex[b] == "") b++
        while (na > 0 && act[na] == "") na--
        ab = 1; while (ab <= na && act[ab] == "") ab++
        for (i = ab; i <= na; i++) act[i - ab + 1] = act[i]
        na = na - ab + 1; if (na < 0) na = 0
        if (b > ne) { print "the output block is empty"; exit 1 }
        # segments between `...` lines
        ns = 0; lead = 0; trail = 0; open = 0
        for (i = b; i <= ne; i++) {
            if (trim(ex[i]) == "...") { if (i == b) lead = 1; if (i == ne) trail = 1; open = 0; continue }
            if (!open) { sb[++ns] = i; sl[ns] = 0; open = 1 }
            sl[ns]++
        }
        cur = 1
        for (j = 1; j <= ns; j++) {
            if (j == ns && !trail) {          # anchored at the end
                at = na - sl[j] + 1
                if (at < cur || (j == 1 && !lead && at != 1) || !smatch(j, at)) break
                cur = na + 1
            } else if (j == 1 && !lead) {     # anchored at the start
                if (!smatch(j, 1)) break
                cur = 1 + sl[j]
            } else {                          # the first place after cur
                for (at = cur; at <= na && !smatch(j, at); at++) ;
                if (at > na) break
                cur = at + sl[j]
            }
        }
        if (j > ns) exit 0
        # name the first shown line of the failed segment that the output
        # lacks where most of the segment matches
        best = 0
        for (at = (j == 1 && !lead) ? 1 : cur; at <= na; at++) {
            for (k = 0; k < sl[j] && at + k <= na && lmatch(ex[sb[j] + k], act[at + k]); k++) ;
            if (k > best) best = k
            if (j == 1 && !lead) break
        }
        if (best >= sl[j]) best = sl[j] - 1   # the segment matched, but not at the end
        print "the docs show a line the output does not have: " ex[sb[j] + best]
        exit 1
    }' "$1" "$2"
}

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
        '"$0" -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags layout) -o "$1/snippet" "$1/snippet.c" $(pkg-config --libs layout)' \
        "$cc" "$work/c" > "$work/log" 2>&1; then fail "$2 (does not compile)" "$work/log"; return; fi
    LD_LIBRARY_PATH="$prefix/lib" "$work/c/snippet" > "$work/log" 2>&1 || { fail "$2 (exit status $?)" "$work/log"; return; }
    echo "test_snippets: ok $2 (c)"; passed=$((passed + 1)); ran=ok
}

run_sh() { # block where expected-exit
    rc=0
    (cd "$scratch" && PATH="$prefix/bin:$PATH" PKG_CONFIG_PATH="$prefix/lib/pkgconfig" sh -e "$1") > "$work/log" 2>&1 || rc=$?
    [ "$rc" -eq "$3" ] || { litter >/dev/null; fail "$2 (exit status $rc, the docs say $3)" "$work/log"; return; }
    left=$(litter)
    [ -z "$left" ] || { fail "$2 (writes ${left% } into the repository root: write under build/ or a temporary folder)" /dev/null; return; }
    echo "test_snippets: ok $2 (sh)"; passed=$((passed + 1)); ran=ok
}

run_python() {
    if ! command -v "$py" >/dev/null 2>&1; then
        echo "test_snippets: skipped $2 ($py not found)"; skipped=$((skipped + 1)); ran=skipped; return
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
        { rc=$?; litter >/dev/null; fail "$2 (exit status $rc)" "$work/log"; return; }
    left=$(litter)
    [ -z "$left" ] || { fail "$2 (writes ${left% } into the repository root: write under build/ or a temporary folder)" /dev/null; return; }
    echo "test_snippets: ok $2 (python)"; passed=$((passed + 1)); ran=ok
}

for md in "$@"; do
    rel=${md#"$root"/}
    extract "$md"
    if [ -f "$work/blocks/unterminated" ]; then fail "$rel: unterminated code block" /dev/null; fi
    ran=none   # the block before: ok (its output in $work/log), failed, skipped, none (not run)
    for w in "$work"/blocks/*.where; do
        [ -f "$w" ] || continue
        b=${w%.where}.body
        set -- $(cat "$w")
        where=${1#"$root"/}
        shift; lang=${1:-}; [ $# -gt 0 ] && shift
        words=" $* "
        before=$ran; ran=none
        case $words in *" output "*)
            case $before in
            ok) if match_output "$b" "$work/log" > "$work/why"; then
                    echo "test_snippets: ok $where (output as shown)"; passed=$((passed + 1))
                else
                    fail "$where (the output differs from the docs: $(cat "$work/why")); the block printed:" "$work/log"
                fi ;;
            skipped) skipped=$((skipped + 1)) ;;
            failed) echo "test_snippets: $where not compared (the block before failed)" ;;
            *) fail "$where: an output block must follow a c, sh or python block that is run" /dev/null ;;
            esac
            continue ;;
        esac
        case $lang in c|sh|python) ;; *) continue ;; esac
        case $words in *" fragment "*|*" gpu "*)
            skipped=$((skipped + 1)); ran=skipped; continue ;; esac
        case $words in *" setup "*)
            if [ "$(grep -v '^[[:space:]]*$' "$b" | sed 's/[[:space:]]*#.*//' | tr -s ' ' | tr '\n' ';')" = "make demo;make test;" ]
            then echo "test_snippets: ok $where (set-up commands: make demo, make test)"; passed=$((passed + 1))
            else fail "$where: a setup block holds exactly 'make demo' and 'make test'" "$b"; fi
            continue ;; esac
        need=$(printf '%s\n' $words | sed -n 's/^needs=//p' | head -n 1)
        if [ -n "$need" ] && ! command -v "$need" >/dev/null 2>&1; then
            echo "test_snippets: skipped $where (needs $need)"; skipped=$((skipped + 1)); ran=skipped; continue
        fi
        want=$(printf '%s\n' $words | sed -n 's/^exit=//p' | head -n 1)
        ran=failed
        "run_$lang" "$b" "$where" "${want:-0}"
    done
done
echo "test_snippets: $skipped blocks shown but not run (fragment, gpu, a missing needs=, or their output)"
echo "test_snippets: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
