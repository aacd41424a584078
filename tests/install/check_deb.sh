#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` of the build, unpacked into a scratch
# root with `dpkg -x` (no installation on the machine), then
#  - its files: the tool, the runtime library, the header, the pkg-config
#    file, the man page (every command's --help in it) and the checks' pages;
#  - the installed tool analyses a sample, finding the installed header;
#  - SARIF's helpUri and the language server's codeDescription point at the
#    installed pages, which exist;
#  - a program built against the installed runtime with pkg-config runs.
# usage: check_deb.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
if ! command -v dpkg-deb >/dev/null || ! command -v cpack >/dev/null; then
  echo "SKIP: dpkg-deb or cpack is missing"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; exit 1; }
deb=$(ls "$tmp"/pkg/tensorlint_*.deb)
dpkg -x "$deb" "$tmp/root"
usr=$tmp/root/usr
fail=0
no() { echo "FAIL: $*"; fail=1; }

for f in bin/tensorlint include/tensorlint/tensor.h share/man/man1/tensorlint.1; do
  [ -f "$usr/$f" ] || no "the package has no $f"
done
pc=$(find "$usr" -name tensorlint.pc | head -1)
lib=$(find "$usr" -name 'libtensorlint.so.0' | head -1)
[ -n "$pc" ] || no "the package has no tensorlint.pc"
[ -n "$lib" ] || no "the package has no libtensorlint.so.0"
want=$(ls "$src"/docs/checks/*.md | wc -l)
got=$(ls "$usr"/share/doc/tensorlint/checks/*.md 2>/dev/null | wc -l)
[ "$want" -eq "$got" ] || no "$got check pages installed, docs/checks has $want"
# the man page is --help: the top usage line and each command's section
for cmd in report check verify graph lifetimes lsp dump-ir; do
  grep -q "^\.SS \"tensorlint $cmd\"" "$usr/share/man/man1/tensorlint.1" || no "the man page has no section for $cmd"
done
line=$("$usr/bin/tensorlint" report --help | head -1 | sed 's/-/\\-/g')
grep -qF "$line" "$usr/share/man/man1/tensorlint.1" || no "the man page lacks report's usage line"

# the installed tool, from the source tree, with the installed header
(cd "$src" && "$usr/bin/tensorlint" report samples/labs/lab2.c) >"$tmp/report.txt" ||
  no "the installed tool failed on samples/labs/lab2.c"
grep -q "peak: 4000 B at line 19" "$tmp/report.txt" || no "the installed tool's report: $(tail -3 "$tmp/report.txt")"
# SARIF links to the installed pages
(cd "$src" && "$usr/bin/tensorlint" check --format=sarif samples/worksheet/block1.c) >"$tmp/sarif.json" || true
uri=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]["rules"]; print(next(x["helpUri"] for x in r if x["id"]=="late-release"))' "$tmp/sarif.json")
case "$uri" in
  file://*/usr/share/doc/tensorlint/checks/late-release.md) [ -f "${uri#file://}" ] || no "helpUri $uri: no such file";;
  *) no "helpUri $uri is not the installed page";;
esac

# the language server's diagnostics link to them too
href=$(cd "$src" && ASAN_OPTIONS="${ASAN_OPTIONS:-}:use_sigaltstack=0" \
       python3 "$src/tests/install/lsp_link.py" "$usr/bin/tensorlint" samples/worksheet/block1.c)
case "$href" in
  file://*/usr/share/doc/tensorlint/checks/*.md) [ -f "${href#file://}" ] || no "codeDescription $href: no such file";;
  *) no "codeDescription '$href' is not an installed page";;
esac

# a program against the installed runtime, the way the README says
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --cflags --libs tensorlint)
cc -std=c11 ${CFLAGS:-} "$src/samples/labs/lab2.c" $flags -o "$tmp/lab2"
"$tmp/lab2" | diff -u "$src/tests/samples/lab2.expected" - || no "lab2 built with pkg-config printed something else"
[ $fail -eq 0 ] || exit 1
echo "deb: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB): files, installed tool, helpUri and pkg-config build all pass"
