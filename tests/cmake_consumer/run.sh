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
echo "cmake-consumer: ok (static and shared, installed and relocated prefix)"
