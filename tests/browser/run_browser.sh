#!/usr/bin/env bash
# run_browser.sh TENSORLINT SOURCE_DIR: the memory page in a real browser
# (page_test.mjs drives Debian's chromium headless through puppeteer-core,
# pinned by package-lock.json).  Exit 77 (ctest: skipped) when chromium or
# the Node client is not installed: scripts/deps.sh installs chromium and
# scripts/test.sh runs `npm ci --prefix tests/browser`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli="$1" src="$2"
chromium="${TL_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$chromium" ]; then
  echo "SKIP: chromium is not installed (scripts/deps.sh installs it; TL_CHROMIUM names another)"
  exit 77
fi
if ! command -v node >/dev/null || [ ! -d "$here/node_modules/puppeteer-core" ]; then
  echo "SKIP: node or tests/browser/node_modules is missing (npm ci --prefix tests/browser)"
  exit 77
fi
# a crash dump or a profile must not land in the user's home
export HOME="$(mktemp -d)"
trap 'rm -rf "$HOME"' EXIT
timeout 600 node "$here/page_test.mjs" "$cli" "$src" "$chromium"
