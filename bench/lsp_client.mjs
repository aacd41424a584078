// The language server's latency and memory, measured through a client built
// on vscode-jsonrpc / vscode-languageserver-protocol (the Node client of
// tests/lsp/vscode, whose node_modules it uses).
//   node bench/lsp_client.mjs TENSORLINT MODE FILE [N]
// MODE edits:  open FILE, then N edits (a space added, then removed, at the
//              end of the file's longest line inside a function), each
//              timed from didChange to its publishDiagnostics
// MODE hover:  open FILE, then N hovers over its tensor variables, timed
//              request to reply (the file is analysed: a warm hover)
// MODE memory: open FILE, then N edits, the server's VmRSS sampled
// Prints one JSON object.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', 'tests', 'lsp', 'vscode', 'package.json'));
const protocol = require('vscode-languageserver-protocol/node');
const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest,
  InitializedNotification, DidOpenTextDocumentNotification, DidChangeTextDocumentNotification,
  PublishDiagnosticsNotification, HoverRequest, ShutdownRequest, ExitNotification,
} = protocol;

const [cli, mode, file, nArg] = process.argv.slice(2);
const n = Number(nArg || 20);
const path = resolve(file);
const uri = 'file://' + path;
let text = readFileSync(path, 'utf8');
const lines = text.split('\n');

const server = spawn(cli, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = createProtocolConnection(new StreamMessageReader(server.stdout),
                                      new StreamMessageWriter(server.stdin));
let wanted = null;
conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
  if (wanted && p.version === wanted.version) wanted.resolve(p);
});
conn.listen();
const published = (version) => new Promise((res) => { wanted = { version, resolve: res }; });

function rssKiB() {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, median: s[Math.floor(s.length / 2)], p90: s[Math.floor(s.length * 0.9)],
           max: s[s.length - 1] };
};

// the longest line inside a function body (an indented statement)
let editLine = 0;
lines.forEach((l, k) => {
  if (l.startsWith('    ') && l.trim().endsWith(';') && l.length > lines[editLine].length) editLine = k;
});

let version = 1;
async function edit() {
  const len = lines[editLine].length;
  const add = version % 2 === 1;
  const change = add
    ? { range: { start: { line: editLine, character: len }, end: { line: editLine, character: len } }, text: ' ' }
    : { range: { start: { line: editLine, character: len }, end: { line: editLine, character: len + 1 } }, text: '' };
  lines[editLine] = add ? lines[editLine] + ' ' : lines[editLine].slice(0, len);
  version++;
  const done = published(version);
  const t0 = performance.now();
  conn.sendNotification(DidChangeTextDocumentNotification.type,
                        { textDocument: { uri, version }, contentChanges: [change] });
  await done;
  return performance.now() - t0;
}

async function main() {
  await conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null,
    capabilities: { textDocument: { hover: { contentFormat: ['markdown'] } } } });
  conn.sendNotification(InitializedNotification.type, {});
  let done = published(1);
  const t0 = performance.now();
  conn.sendNotification(DidOpenTextDocumentNotification.type,
                        { textDocument: { uri, languageId: 'c', version: 1, text } });
  const first = await done;
  const out = { file, lines: lines.length, diagnostics: first.diagnostics.length,
                open_ms: performance.now() - t0 };
  if (mode === 'edits') {
    const ms = [];
    for (let k = 0; k < n; k++) ms.push(await edit());
    out.edit_ms = stats(ms);
  } else if (mode === 'hover') {
    const targets = [];
    lines.forEach((l, k) => {
      const m = /tl_tensor \*(\w+) = /.exec(l);
      if (m) targets.push({ line: k, character: m.index + 11 });
    });
    const ms = [];
    for (let k = 0; k < n; k++) {
      const t = performance.now();
      const h = await conn.sendRequest(HoverRequest.type,
                                       { textDocument: { uri }, position: targets[k % targets.length] });
      ms.push(performance.now() - t);
      if (!h) throw new Error('no hover at ' + JSON.stringify(targets[k % targets.length]));
    }
    out.hover_ms = stats(ms);
  } else if (mode === 'memory') {
    out.rss_kib = { after_open: rssKiB() };
    for (let k = 1; k <= n; k++) {
      await edit();
      if ([10, 100, 250, 500, 750, 1000].includes(k) || k === n) out.rss_kib['after_' + k] = rssKiB();
    }
  }
  await conn.sendRequest(ShutdownRequest.type);
  conn.sendNotification(ExitNotification.type);
  console.log(JSON.stringify(out));
  conn.dispose();
}

main().catch((e) => { console.error(e); server.kill(); process.exit(1); });
