# Shared by the benchmark scripts (source it from the repository root):
#   bench_build BUILD_DIR TARGET PATH   builds TARGET in a Release BUILD_DIR
#                                       unless BUILD_DIR/PATH already exists
#   bench_tool BUILD_DIR                the tensorlint binary (built if missing),
#                                       as an absolute path
bench_build() {
  local build=$1 target=$2 path=$3
  if [ ! -x "$build/$path" ]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" --target "$target" >/dev/null
  fi
}

bench_tool() {
  bench_build "$1" tensorlint_cli tools/tensorlint
  realpath "$1/tools/tensorlint"
}
