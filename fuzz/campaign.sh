#!/bin/sh
# A fuzzing campaign: every target at once, JOBS processes each, random
# seeds, SECONDS of wall clock; then per target the executions, the CPU
# seconds and the crashes.  `make fuzz-campaign FUZZ_SECONDS=N JOBS=M` runs
# it on the build's targets; the targets and this script alone (with
# tests/corpus/) also run it on any other Linux machine:
#
#   sh fuzz/campaign.sh FUZZ_DIR SECONDS JOBS [CORPUS_DIR] [OUT_DIR]
#
# FUZZ_DIR holds the target binaries (fuzz_*); CORPUS_DIR (tests/corpus)
# their seed corpora, copied afresh for every process; OUT_DIR (FUZZ_DIR/
# campaign) gets each process's log, grown corpus and crash reproducers
# (<target>.<job>-crash-*).  Exit status 1 if any target crashed.
set -u
dir=$1; secs=$2; jobs=$3
corpus=${4:-tests/corpus}
out=${5:-$dir/campaign}
rm -rf "$out"; mkdir -p "$out"
targets=$(cd "$dir" && ls fuzz_* 2>/dev/null | grep -v '\.' || true)
[ -n "$targets" ] || { echo "fuzz-campaign: no fuzz_* binaries in $dir"; exit 2; }
echo "fuzz-campaign: $(echo $targets | wc -w) targets x $jobs jobs, $secs s each, random seeds"
for t in $targets; do
    j=1
    while [ "$j" -le "$jobs" ]; do
        c=$out/$t.$j.corpus; mkdir -p "$c"
        [ -d "$corpus/$t" ] && cp -r "$corpus/$t/." "$c/"
        # each process in its own shell, so that `times` gives its CPU time
        ( "$dir/$t" -max_total_time="$secs" -seed=0 -timeout=30 -rss_limit_mb=3072 -print_final_stats=1 \
              -artifact_prefix="$out/$t.$j-" "$c" > "$out/$t.$j.log" 2>&1
          echo "rc $?" >> "$out/$t.$j.log"
          times > "$out/$t.$j.times"; tail -n 1 "$out/$t.$j.times" >> "$out/$t.$j.log" ) &
        j=$((j + 1))
    done
done
wait
bad=0
printf '%-18s %12s %10s %8s %s\n' target executions cpu_s crashes seeds
for t in $targets; do
    execs=0; cpu=0; crashes=0; seeds=
    for log in "$out/$t".*.log; do
        e=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
        execs=$((execs + ${e:-0}))
        c=$(tail -n 1 "$log" | awk '{split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2]}')
        cpu=$((cpu + ${c:-0}))
        rc=$(grep -E '^rc ' "$log" | awk '{print $2}')
        [ "${rc:-1}" -eq 0 ] || crashes=$((crashes + 1))
        s=$(grep -oE 'Seed: [0-9]+' "$log" | head -n 1 | awk '{print $2}')
        seeds="$seeds${seeds:+,}$s"
    done
    [ "$crashes" -eq 0 ] || bad=1
    printf '%-18s %12d %10d %8d %s\n' "$t" "$execs" "$cpu" "$crashes" "$seeds"
done
ls "$out" | grep -E -- '-(crash|leak|timeout|oom)-' | sed 's/^/fuzz-campaign: reproducer /' || true
exit $bad
