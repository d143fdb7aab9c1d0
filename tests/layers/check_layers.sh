#!/bin/sh
# The layer check of lib/ (`make deps`): every file uses only its own layer
# and the layers below it, as lib/LAYERS orders them.
#
#   sh tests/layers/check_layers.sh [-C ROOT] [OBJDIR]
#
# ROOT (default .) is the source tree; OBJDIR, when given, the folder of its
# built objects (build/lib): then calls are checked too.  It reports, one
# line each, and exits 1 if there is any:
#   - a file directly in lib/, a lib/ folder without README.md or missing
#     from the table, a public header the table does not place;
#   - an #include "..." of a header of a higher layer (lib/<layer>/*.h by its
#     folder, include/layout/NAME.h by the table), with file and line;
#   - an #include "..." of another folder's lib/*/*_internal.h (private to
#     its folder: other layers use the layer headers beside it);
#   - with OBJDIR: a call into a higher layer (an undefined symbol of one
#     object defined by an object of a higher layer), with the symbols;
#     files of one layer that call each other round a circle (except the
#     twin pairs of the table); a global symbol without the layout_ prefix.
# Needs only sh, awk and nm (binutils, beside every C compiler).
set -u
root=.
if [ "${1:-}" = "-C" ]; then root=$2; shift 2; fi
objdir=${1:-}
table=$root/lib/LAYERS
[ -f "$table" ] || { echo "check_layers: $table not found"; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# Structure: no sources directly in lib/, every folder has a README.
for f in "$root"/lib/*.c "$root"/lib/*.h; do
    [ -e "$f" ] && echo "STRUCT ${f#"$root"/} is directly in lib/: move it into its layer's folder"
done > "$tmp/struct"
for d in "$root"/lib/*/; do
    d=${d%/}; name=${d##*/}
    [ -f "$d/README.md" ] || echo "STRUCT lib/$name has no README.md" >> "$tmp/struct"
    echo "FOLDER $name" >> "$tmp/struct"
done
for h in "$root"/include/layout/*.h "$root"/include/layout.h; do
    [ -e "$h" ] || continue
    b=${h##*/}; b=${b%.h}
    echo "PUBLIC $b" >> "$tmp/struct"
done

# Includes: "FILE LINE TARGET" for every quoted include of lib/ and include/.
( cd "$root" && grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' \
      lib/*/*.c lib/*/*.h include/layout/*.h include/layout.h 2>/dev/null ) |
    sed -E 's/^([^:]*):([0-9]+):.*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1 \2 \3/' > "$tmp/incs"
# Every header file of lib/ (to resolve relative includes).
( cd "$root" && ls lib/*/*.h 2>/dev/null ) > "$tmp/hdrs"

# Symbols: "D SYMBOL FILE" defined, "U SYMBOL FILE" used, FILE the source.
: > "$tmp/syms"
if [ -n "$objdir" ] && ls "$objdir"/*/*.o >/dev/null 2>&1; then
    # two nm calls for all objects (-A: each line names its object)
    nm -A -g --defined-only "$objdir"/*/*.o 2>/dev/null |
        awk -v d="$objdir/" '{ split($1, p, ":"); o = p[1]; sub("^" d, "", o); sub(/\.o$/, ".c", o)
                               if (NF == 3 && $2 ~ /[TDBRSVW]/) print "D", $3, "lib/" o }' >> "$tmp/syms"
    nm -A -u "$objdir"/*/*.o 2>/dev/null |
        awk -v d="$objdir/" '{ split($1, p, ":"); o = p[1]; sub("^" d, "", o); sub(/\.o$/, ".c", o)
                               print "U", $NF, "lib/" o }' >> "$tmp/syms"
fi

awk -v tmpdir="$tmp" '
function norm(p,   n, i, parts, out, k) {
    n = split(p, parts, "/"); k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "." || parts[i] == "") continue
        if (parts[i] == "..") { if (k > 0) k--; continue }
        out[++k] = parts[i]
    }
    p = ""
    for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
    return p
}
function layer_of(file,   parts) {
    if (file ~ /^lib\//) { split(file, parts, "/"); return parts[2] }
    if (file ~ /^include\/layout\//) { sub(/^include\/layout\//, "", file); sub(/\.h$/, "", file); return owner[file] }
    if (file == "include/layout.h") return owner["layout"]
    return ""
}
function rk(l) { return (l in rank) ? rank[l] : -1 }
function bad(msg) { print msg; nbad++ }
FILENAME ~ /LAYERS$/ {
    if ($0 ~ /^[[:space:]]*(#|$)/) next
    if ($1 == "twins") { twin["lib/" $3] = "lib/" $2; next }
    rank[$1] = ++nlayers; lname[nlayers] = $1
    for (i = 2; i <= NF; i++) owner[$i] = $1
    next
}
FILENAME ~ /struct$/ {
    if ($1 == "STRUCT") { $1 = ""; bad("structure:" $0) }
    else if ($1 == "FOLDER" && !($2 in rank)) bad("structure: lib/" $2 " is not in lib/LAYERS")
    else if ($1 == "PUBLIC" && !($2 in owner)) bad("structure: include/" ($2 == "layout" ? "layout.h" : "layout/" $2 ".h") " is in no layer of lib/LAYERS")
    next
}
FILENAME ~ /hdrs$/ { exists[$1] = 1; next }
FILENAME ~ /incs$/ {
    file = $1; line = $2; inc = $3; nincs++
    if (inc ~ /^layout\// || inc == "layout.h") target = "include/" inc
    else {
        dir = file; sub(/\/[^\/]*$/, "", dir)
        target = norm(dir "/" inc)
        if (!(target in exists) && file ~ /^include\//) target = "include/" inc
    }
    lf = layer_of(file); lt = layer_of(target)
    if (lt == "") next   # a header outside lib/ and include/ (none today)
    if (rk(lt) > rk(lf))
        bad(file ":" line ": includes \"" inc "\" (layer " lt ") from layer " lf ": a layer may use only itself and those below (lib/LAYERS)")
    # a *_internal.h header is private to its folder: another folder uses
    # the layer header beside it (lib/<layer>/README.md names them)
    fdir = file; sub(/\/[^\/]*$/, "", fdir)
    tdir = target; sub(/\/[^\/]*$/, "", tdir)
    if (target ~ /^lib\/[^\/]*\/[^\/]*_internal\.h$/ && tdir != fdir)
        bad(file ":" line ": includes \"" inc "\", private to " tdir "/: include a layer header of " tdir "/ instead (a *_internal.h is private to its folder)")
    next
}
FILENAME ~ /syms$/ {
    # names starting with "__" belong to the compiler (sanitizer and coverage
    # builds add __odr_asan.*, __gcov_* ...): no source of ours defines one
    if ($1 == "D") { def[$2] = $3; if ($2 !~ /^layout_/ && $2 !~ /^__/) bad($3 ": defines the global symbol " $2 " without the layout_ prefix") }
    else { nuse++; usym[nuse] = $2; ufile[nuse] = $3 }
    next
}
END {
    for (i = 1; i <= nuse; i++) {
        s = usym[i]; if (!(s in def)) continue
        a = ufile[i]; b = def[s]; if (a == b) continue
        la = layer_of(a); lb = layer_of(b)
        if (rk(lb) > rk(la)) { k = a SUBSEP b; if (!(k in up)) upn++; up[k] = up[k] " " s }
        # a twin pair is one node of the call graph: calls inside it are allowed
        ca = (a in twin) ? twin[a] : a; cb = (b in twin) ? twin[b] : b
        if (ca == cb) continue
        if (!((ca SUBSEP cb) in edge)) { edge[ca SUBSEP cb] = ""; files[ca] = 1; files[cb] = 1 }
        edge[ca SUBSEP cb] = edge[ca SUBSEP cb] " " s
    }
    for (k in up) { split(k, p, SUBSEP)
        bad(p[1] ": calls up into " p[2] " (layer " layer_of(p[2]) " above " layer_of(p[1]) "):" up[k]) }
    # Circles: files that reach each other through calls (Floyd-Warshall);
    # a twin pair counts as its first file.
    n = 0; for (f in files) node[++n] = f
    for (i = 1; i <= n; i++) for (j = 1; j <= n; j++) reach[i, j] = ((node[i] SUBSEP node[j]) in edge)
    for (k = 1; k <= n; k++) for (i = 1; i <= n; i++) if (reach[i, k]) for (j = 1; j <= n; j++) if (reach[k, j]) reach[i, j] = 1
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (reach[i, j] && reach[j, i]) {
            how = ((node[i] SUBSEP node[j]) in edge) ? edge[node[i] SUBSEP node[j]] : " (through other files)"
            back = ((node[j] SUBSEP node[i]) in edge) ? edge[node[j] SUBSEP node[i]] : " (through other files)"
            bad(node[i] " and " node[j] " call each other (" node[i] " ->" how "; " node[j] " ->" back "): break the circle, or name the pair as twins in lib/LAYERS")
        }
    if (nbad) { print "check_layers: " nbad " violation(s)"; exit 1 }
    printf "check_layers: %d layers, %d includes%s: every file uses only its layer and those below\n", nlayers, nincs, (nuse ? ", " nuse " symbol references" : "")
}
' "$table" "$tmp/struct" "$tmp/hdrs" "$tmp/incs" "$tmp/syms"
