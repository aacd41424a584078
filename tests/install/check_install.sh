#!/usr/bin/env bash
# `cmake --install` into a fresh prefix, then build a user program the way the
# README says (cc prog.c $(pkg-config --cflags --libs tensorlint)), run it,
# and analyse it with the installed tensorlint, which must find the header
# without flags.  usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
flags=$(pkg-config --cflags --libs tensorlint)
cc -std=c11 ${CFLAGS:-} "$src/samples/labs/lab2.c" $flags -o "$prefix/lab2"
"$prefix/lab2" | diff -u "$src/tests/samples/lab2.expected" -
(cd "$src" && "$prefix/bin/tensorlint" report samples/labs/lab2.c) | grep -q "peak: 4000 B at line 19"
echo "install: pkg-config build, run and installed analysis all pass"
