#!/usr/bin/env bash
# The language server (tensorlint lsp), measured through the clients of its
# tests: one on VS Code's client libraries (bench/lsp_client.mjs, with
# tests/lsp/vscode's node_modules) and Neovim's own (bench/lsp_neovim.lua):
#  1. diagnostics after an edit: the worksheet files and a generated file of
#     about 2,000 lines, each edit timed from didChange to its
#     publishDiagnostics (the 50 ms debounce included);
#  2. hover on an analysed file, request to reply;
#  3. the server's resident memory over 1,000 edits of a worksheet file.
# Prints markdown tables (docs/performance.md takes them).
# usage: bench/lsp.sh [BUILD_DIR]   (default build-release, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
# shellcheck source=lib.sh
source bench/lib.sh
tool=$(bench_tool "$build")
if [ ! -d tests/lsp/vscode/node_modules/vscode-languageserver-protocol ]; then
  npm ci --prefix tests/lsp/vscode --no-audit --no-fund --loglevel=error
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_program.py 4 330 >"$work/gen_2k.c"
results="$work/results.jsonl"
for f in samples/worksheet/*.c "$work/gen_2k.c"; do
  node bench/lsp_client.mjs "$tool" edits "$f" 40 >>"$results"
  node bench/lsp_client.mjs "$tool" hover "$f" 200 >>"$results"
  if command -v nvim >/dev/null; then
    for d in 150 0; do
      TL_CLI="$tool" TL_BENCH_FILE="$f" TL_BENCH_N=40 TL_BENCH_CLIENT_DEBOUNCE=$d \
        XDG_CACHE_HOME="$work" XDG_STATE_HOME="$work" \
        nvim --headless -u NONE -i NONE -n -c "luafile bench/lsp_neovim.lua" |
        python3 -c "import json,sys; r=json.loads(sys.stdin.read()); r['client_debounce']=$d; print(json.dumps(r))" >>"$results"
    done
  fi
done
node bench/lsp_client.mjs "$tool" memory samples/worksheet/block2.c 1000 >>"$results"
python3 - "$results" <<'PY'
import json, os, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
name = lambda r: "generated, %d lines" % r["lines"] if "gen_2k" in r["file"] else os.path.basename(r["file"])
print("| file | lines | open to diagnostics | edit to diagnostics: median | p90 | max | hover: median | p90 | max |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
edits = {r["file"]: r for r in rows if "edit_ms" in r and "client" not in r}
for r in rows:
    if "hover_ms" not in r or "client" in r:
        continue
    e, h = edits[r["file"]], r["hover_ms"]
    print("| %s | %d | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.2f ms | %.2f ms | %.2f ms |" % (
        name(r), r["lines"], e["open_ms"], e["edit_ms"]["median"], e["edit_ms"]["p90"],
        e["edit_ms"]["max"], h["median"], h["p90"], h["max"]))
nv = [r for r in rows if r.get("client") == "neovim"]
if nv:
    print()
    print("Neovim 0.7 (its client holds each change back for `debounce_text_changes`, 150 ms by default):")
    print()
    print("| file | edit to diagnostics, client debounce 150 ms: median | p90 | max | client debounce 0: median | p90 | max | hover: median | max |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for f in dict.fromkeys(r["file"] for r in nv):
        a = [r for r in nv if r["file"] == f and r["client_debounce"] == 150][0]
        b = [r for r in nv if r["file"] == f and r["client_debounce"] == 0][0]
        print("| %s | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.2f ms | %.2f ms |" % (
            name(a), a["edit_ms"]["median"], a["edit_ms"]["p90"], a["edit_ms"]["max"],
            b["edit_ms"]["median"], b["edit_ms"]["p90"], b["edit_ms"]["max"],
            b["hover_ms"]["median"], b["hover_ms"]["max"]))
m = [r for r in rows if "rss_kib" in r][0]["rss_kib"]
print()
print("| resident memory (%s) | %s |" % (name([r for r in rows if "rss_kib" in r][0]),
      " | ".join(k.replace("_", " ") for k in m)))
print("|---|" + "---:|" * len(m))
print("| VmRSS | %s |" % " | ".join("%.1f MiB" % (v / 1024) for v in m.values()))
PY
