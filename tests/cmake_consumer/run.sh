#!/bin/sh
# Configure, build and run tests/cmake_consumer against an installed liblayout.
#   sh tests/cmake_consumer/run.sh PREFIX WORKDIR
# Also proves the package is relocatable: the install tree is copied to a
# second place and the consumer configured against the copy, with the
# original moved out of the way.
set -eu
prefix=$1
work=$2
src=$(cd "$(dirname "$0")" && pwd)
command -v cmake >/dev/null || { echo "cmake-consumer: cmake not found"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
build_and_run() {
    cmake -S "$src" -B "$1" -DCMAKE_PREFIX_PATH="$2" -DCMAKE_BUILD_TYPE=Release >"$1.log" 2>&1 \
        || { cat "$1.log"; echo "cmake-consumer: configure against $2 FAILED"; exit 1; }
    cmake --build "$1" >>"$1.log" 2>&1 || { cat "$1.log"; echo "cmake-consumer: build FAILED"; exit 1; }
    "$1/consumer_static"
    "$1/consumer_shared"
    # what each one loads: the static target's program must not need
    # liblayout.so, the shared one must (by its SONAME)
    if readelf -d "$1/consumer_static" | grep -q 'NEEDED.*liblayout'; then
        echo "cmake-consumer: layout::layout (static) linked liblayout.so"; exit 1
    fi
    readelf -d "$1/consumer_shared" | grep -q 'NEEDED.*\[liblayout\.so\.0\]' ||
        { echo "cmake-consumer: layout::layout_shared does not need liblayout.so.0"; exit 1; }
}
build_and_run "$work/build" "$prefix"
# Relocated copy: the config must find everything next to itself.
cp -R "$prefix" "$work/moved-prefix"
mv "$prefix" "$prefix.away"
rc=0
( build_and_run "$work/build-moved" "$work/moved-prefix" ) || rc=$?
mv "$prefix.away" "$prefix"
[ "$rc" -eq 0 ] || exit "$rc"
grep -q "moved-prefix/lib/cmake/layout" "$work/build-moved/CMakeCache.txt" \
    || { echo "cmake-consumer: the relocated build did not use the moved prefix"; exit 1; }
echo "cmake-consumer: ok (static without liblayout.so, shared needing liblayout.so.0; installed and relocated prefix)"
