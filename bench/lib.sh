# Shared by the benchmark scripts (source it from the repository root):
#   bench_build BUILD_DIR TARGET PATH   builds TARGET in a Release BUILD_DIR (configured
#                                       when new; always brought up to date, so a
#                                       benchmark never times an old binary)
#   bench_tool BUILD_DIR                the tensorlint binary (built if missing),
#                                       as an absolute path
bench_build() {
  local build=$1 target=$2 path=$3
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build "$build" --target "$target" >/dev/null
  [ -x "$build/$path" ]
}

bench_tool() {
  bench_build "$1" tensorlint_cli tools/tensorlint
  realpath "$1/tools/tensorlint"
}
