#!/usr/bin/env bash
# run_client.sh neovim|vscode TENSORLINT SAMPLE: one real client's session with
# `tensorlint lsp` (tests/lsp/neovim.lua, tests/lsp/vscode/client.mjs).
# Exit 77 (ctest: skipped) when the client is not installed: scripts/deps.sh
# installs Neovim and scripts/test.sh runs `npm ci` for the Node client.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
client="$1" cli="$2" sample="$3"
case "$client" in
neovim)
  if ! command -v nvim >/dev/null; then
    echo "SKIP: nvim is not installed (scripts/deps.sh installs neovim)"
    exit 77
  fi
  cache="$(mktemp -d)"
  trap 'rm -rf "$cache"' EXIT
  # the server's stderr goes to Neovim's lsp.log under the cache directory
  if ! XDG_CACHE_HOME="$cache" XDG_STATE_HOME="$cache" TL_CLI="$cli" TL_LSP_SAMPLE="$sample" \
      timeout 120 nvim --headless -u NONE -i NONE -n -c "luafile $here/neovim.lua"; then
    echo; echo "Neovim's LSP log:"; cat "$cache"/nvim/lsp.log 2>/dev/null || true
    exit 1
  fi
  echo
  ;;
vscode)
  if ! command -v node >/dev/null || [ ! -d "$here/vscode/node_modules/vscode-languageserver-protocol" ]; then
    echo "SKIP: node or tests/lsp/vscode/node_modules is missing (npm ci --prefix tests/lsp/vscode)"
    exit 77
  fi
  timeout 120 node "$here/vscode/client.mjs" "$cli" "$sample"
  ;;
*)
  echo "usage: run_client.sh neovim|vscode TENSORLINT SAMPLE" >&2
  exit 2
  ;;
esac
