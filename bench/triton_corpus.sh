#!/bin/sh
# `layout triton` over every .ttgir file under DIR (the report, or with
# --suggest the suggestion too), output discarded: one whole-corpus figure
# for `farm-bench --vs`, so that two builds of the tool (the TTGIR IR
# against the line reader, say) are timed in one run, A and B in turn.
#
#   sh bench/triton_corpus.sh TOOL [--suggest] DIR
tool=${1:?usage: triton_corpus.sh TOOL [--suggest] DIR}; shift
mode=--json
if [ "${1:-}" = --suggest ]; then mode="--suggest --json"; shift; fi
dir=${1:?usage: triton_corpus.sh TOOL [--suggest] DIR}
find "$dir" -name '*.ttgir' | sort | while read -r f; do
    "$tool" triton $mode "$f" >/dev/null 2>&1
    rc=$?
    [ $rc -le 1 ] || { echo "triton_corpus.sh: $tool exit $rc on $f" >&2; exit 1; }
done
