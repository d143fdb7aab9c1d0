#!/bin/sh
# Link tests/consumer/consumer.c against an INSTALLED liblayout through
# pkg-config, each way docs/building.md shows, run each program, and check
# with readelf what it depends on (.ci/run's "install + pkg-config consumer"
# step; `make test` runs it against its snippet prefix):
#   shared        $(pkg-config --cflags --libs layout), found at run time
#                 through an rpath of `pkg-config --variable=libdir`: must
#                 need liblayout.so.0 (and run without LD_LIBRARY_PATH);
#   static        liblayout from its archive, the rest shared:
#                 -Wl,-Bstatic $(pkg-config --libs layout) -Wl,-Bdynamic and
#                 the private libraries: must not need liblayout.so;
#   fully static  cc -static ... $(pkg-config --libs --static layout): no
#                 dynamic section at all (skipped where the C library has no
#                 archive, e.g. a libc without libc.a).
# Also checks the .pc itself: --libs is -L<libdir> -llayout, --static adds
# Libs.private.
#   sh tests/consumer/run.sh PREFIX WORKDIR
# Prints "consumer: ..." lines; exit status 0 when every check holds.
set -u
prefix=$(cd "${1:?usage: run.sh PREFIX WORKDIR}" && pwd) || exit 1
work=${2:?usage: run.sh PREFIX WORKDIR}
src=$(cd "$(dirname "$0")" && pwd)/consumer.c
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || cc=cc
mkdir -p "$work" || exit 1
PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export PKG_CONFIG_PATH
unset LD_LIBRARY_PATH
bad=0
no() { echo "consumer: FAIL $*"; bad=1; }

# The .pc: the ecosystem's convention (shared by default, --static adds the
# archive's private libraries).
libs=$(pkg-config --libs layout) || { echo "consumer: FAIL pkg-config finds no layout.pc under $prefix"; exit 1; }
[ "$(echo $libs)" = "-L$prefix/lib -llayout" ] || no "pkg-config --libs layout gives '$libs', not '-L$prefix/lib -llayout'"
slibs=$(pkg-config --libs --static layout)
[ "$(echo $slibs)" = "-L$prefix/lib -llayout -lm -lpthread" ] ||
    no "pkg-config --libs --static layout gives '$slibs', not '-L$prefix/lib -llayout -lm -lpthread'"
libdir=$(pkg-config --variable=libdir layout)
cflags=$(pkg-config --cflags layout)

needs() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ' | sed 's/ $//'; }

# shared
was=$bad
if "$cc" -std=c11 -Wall -Wextra -Werror $cflags -o "$work/consumer_shared" "$src" $libs -Wl,-rpath,"$libdir" \
    > "$work/shared.log" 2>&1; then
    case " $(needs "$work/consumer_shared") " in
    *" liblayout.so.0 "*) ;;
    *) no "shared: the program needs [$(needs "$work/consumer_shared")], not liblayout.so.0" ;;
    esac
    "$work/consumer_shared" > /dev/null || no "shared: the program failed"
    [ "$bad" -eq "$was" ] && echo "consumer: shared ok (needs $(needs "$work/consumer_shared"))"
else
    cat "$work/shared.log"; no "shared: does not link"
fi

# liblayout static, the C library shared (docs/building.md)
was=$bad
if "$cc" -std=c11 -Wall -Wextra -Werror $cflags -o "$work/consumer_static" "$src" \
    -Wl,-Bstatic $libs -Wl,-Bdynamic -lm -lpthread > "$work/static.log" 2>&1; then
    case " $(needs "$work/consumer_static") " in
    *" liblayout"*) no "static: the program still needs [$(needs "$work/consumer_static")]" ;;
    esac
    "$work/consumer_static" > /dev/null || no "static: the program failed"
    [ "$bad" -eq "$was" ] && echo "consumer: static ok (needs $(needs "$work/consumer_static"))"
else
    cat "$work/static.log"; no "static: does not link"
fi

# fully static, where the C library has an archive
echo 'int main(void) { return 0; }' > "$work/empty.c"
if ! "$cc" -static -o "$work/empty" "$work/empty.c" > /dev/null 2>&1; then
    echo "consumer: fully static skipped ($cc -static cannot link here: no static C library)"
elif "$cc" -static -std=c11 -Wall -Wextra -Werror $cflags -o "$work/consumer_full" "$src" $slibs \
    > "$work/full.log" 2>&1; then
    was=$bad
    readelf -d "$work/consumer_full" 2>/dev/null | grep -q NEEDED && no "fully static: the program has dynamic dependencies"
    "$work/consumer_full" > /dev/null || no "fully static: the program failed"
    [ "$bad" -eq "$was" ] && echo "consumer: fully static ok"
else
    cat "$work/full.log"; no "fully static: does not link"
fi
[ "$bad" -eq 0 ] && echo "consumer: ok (shared, static, fully static)"
exit "$bad"
