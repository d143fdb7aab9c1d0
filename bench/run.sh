#!/bin/sh
# Run every benchmark binary; each prints a human table on stdout and its JSON
# objects (one per figure) to the file named by $LAYOUT_BENCH_JSON_PART.
# The parts are joined into $BUILD/bench.json as one JSON array.
build=$1; shift
json="$build/bench.json"
tmpdir=$(mktemp -d)
i=0
for b in "$@"; do
    i=$((i + 1))
    LAYOUT_BENCH_JSON_PART="$tmpdir/$i.json" "$b" || { echo "benchmark $b failed"; rm -rf "$tmpdir"; exit 1; }
done
{
    echo "["
    first=1
    for f in "$tmpdir"/*.json; do
        [ -f "$f" ] || continue
        while IFS= read -r line; do
            [ -n "$line" ] || continue
            if [ $first -eq 1 ]; then first=0; else echo ","; fi
            printf '  %s' "$line"
        done < "$f"
    done
    echo ""
    echo "]"
} > "$json"
rm -rf "$tmpdir"
echo "wrote $json"
