#!/bin/sh
# Citations of in-repo docs hold, and no reference to documents outside the
# repository creeps back in.
#
# 1. Every "PATH.md §N" (and "§N" lists after it: "§2.2, §2.3", "§2 and §3")
#    in the tree names a file that exists (relative to the repository root
#    or to the citing file's folder) with a heading numbered N:
#    "## N. Title" or "### N Title" (N like 2 or 2.5).  A bare "§N" inside
#    docs/*.md refers to that file itself.
# 2. None of the forbidden references (the project's private notes, the
#    working documents it was built from, tracker item numbers) appears.
# Prints "test_doc_refs: N passed, M failed" for tests/run.sh.
# Usage: sh tests/test_doc_refs.sh [ROOT]   (default: this script's parent folder)

root=${1:-$(dirname "$0")/..}
cd "$root" || { echo "test_doc_refs: cannot cd to $root"; echo "test_doc_refs: 0 passed, 1 failed"; exit 1; }

passed=0
failed=0
tmp=${TMPDIR:-/tmp}/test_doc_refs.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

dirs="lib include tools docs python examples tests fuzz bench cmake pkgconfig"
files() {
    # text files of the tree (no build output, no binary fixtures); grep -I
    # over many files per process (one per file took most of this test's time)
    for d in $dirs; do [ -d "$d" ] && find "$d" -type f -exec grep -Il . {} + 2>/dev/null; done |
        grep -v -e '/__pycache__/' -e '\.pyc$' -e '^build'
    for f in README.md Makefile; do [ -f "$f" ] && printf '%s\n' "$f"; done
}
files > "$tmp.files"
# grep ARGS... over every listed file (many per process), each line prefixed
# "FILE:" (-H, also when a batch holds one file)
grep_files() { tr '\n' '\0' < "$tmp.files" | xargs -0 grep -H "$@" 2>/dev/null; }

# A heading numbered $2 in file $1?
has_section() {
    n=$(printf '%s' "$2" | sed 's/\./\\./g')
    grep -Eq "^#{1,6} $n\.? " "$1"
}

# ---- 1. citations -----------------------------------------------------------
# file:line:citation, one per match; grep -o takes the leftmost match, so a
# "PATH.md §N" comes whole and a bare "§N" alone (kept in docs/*.md only).
sec='§[0-9]+(\.[0-9]+)*'
grep_files -noE "([A-Za-z0-9_./-]+\.md )?$sec((, | and | or |-|–)$sec)*" |
    while IFS= read -r fm; do
        f=${fm%%:*} m=${fm#*:}
        case ${m#*:} in
        §*) case $f in docs/*.md) printf '%s:%s:%s %s\n' "$f" "${m%%:*}" "$f" "${m#*:}" ;; esac ;;
        *) printf '%s:%s\n' "$f" "$m" ;;
        esac
    done > "$tmp.cites"

while IFS= read -r c; do
    where=${c%%:*}
    rest=${c#*:}
    line=${rest%%:*}
    cite=${rest#*:}
    target=${cite%% *}
    sections=$(printf '%s\n' "$cite" | grep -oE "$sec" | sed 's/^§//; s/\.$//')
    path=""
    if [ -f "$target" ]; then path=$target
    elif [ -f "$(dirname "$where")/$target" ]; then path=$(dirname "$where")/$target
    elif [ -f "docs/$target" ]; then path=docs/$target
    fi
    if [ -z "$path" ]; then
        echo "FAIL $where:$line: \"$cite\": $target does not exist"
        failed=$((failed + 1))
        continue
    fi
    for s in $sections; do
        if has_section "$path" "$s"; then
            passed=$((passed + 1))
        else
            echo "FAIL $where:$line: \"$cite\": $path has no section $s"
            failed=$((failed + 1))
        fi
    done
done < "$tmp.cites"

# The model's own doc must be cited somewhere in lib/ (the presets' sources).
if grep -rq "docs/lds-model.md §2" lib/check 2>/dev/null; then passed=$((passed + 1)); else
    echo "FAIL lib/check cites no section of docs/lds-model.md"
    failed=$((failed + 1))
fi

# ---- 2. forbidden references ------------------------------------------------
# The patterns are split so that this file does not match itself.
l='LDS'; m='_MODEL'; s1='shared/'; s2='seed 00'; i1='issue'; c1='CK'; c2='_TILE\.md'
forbidden="$l$m|$s1(spec|seeds)|/work/$s1|$s2[0-9]|$i1 [0-9]+|$c1$c2"
grep_files -nE "$forbidden" | grep -v '^tests/test_doc_refs\.sh:' > "$tmp.bad"
if [ -s "$tmp.bad" ]; then
    while IFS= read -r b; do echo "FAIL forbidden reference: $b"; done < "$tmp.bad"
    failed=$((failed + $(wc -l < "$tmp.bad")))
else
    passed=$((passed + 1))
fi

# ---- self-test: the checks can fail -----------------------------------------
printf '## 1. A\n### 1.2 B\n' > "$tmp.md"
if has_section "$tmp.md" 1 && has_section "$tmp.md" 1.2 && ! has_section "$tmp.md" 1.3 && ! has_section "$tmp.md" 2; then
    passed=$((passed + 1))
else
    echo "FAIL self-test: has_section"
    failed=$((failed + 1))
fi
if printf 'see %s.md\n' "$l$m" | grep -qE "$forbidden" && printf 'an %s 12 item\n' "$i1" | grep -qE "$forbidden" &&
    ! printf 'docs/lds-model.md §2\n' | grep -qE "$forbidden"; then
    passed=$((passed + 1))
else
    echo "FAIL self-test: forbidden pattern"
    failed=$((failed + 1))
fi

echo "test_doc_refs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
