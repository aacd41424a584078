#!/usr/bin/env bash
# Install the Debian 12 packages tensorlint builds and tests with.
# Runs as root (CI) or through sudo; does nothing when all are present.
set -euo pipefail
packages=(
  cmake ninja-build gcc g++ make pkg-config
  libclang-14-dev clang-14 libclang-rt-14-dev
  libjansson-dev libcmocka-dev libopenblas-dev
  libgraphviz-dev graphviz
  python3 python3-jsonschema python3-yaml python3-cram
  neovim
  pre-commit git
  chromium
)
# python3-cram: the documentation's examples (tests/docs) run as cram tests
# chromium: the memory page's browser test (tests/browser) drives it headless
# the language server's Node client test (tests/lsp/vscode) needs node and npm
if ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
echo "installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
