// A language client built on vscode-jsonrpc and vscode-languageserver-protocol
// (the libraries VS Code's own client is built on) driving `tensorlint lsp`:
// initialize with work-done progress, open, diagnostics, hover, inlay hints,
// a quick fix applied (its warning goes), undo (it comes back), a burst of
// typing, NOLINT, save, close, shutdown and exit.
//   node client.mjs TENSORLINT SAMPLE.c          exit 0 when every step passed
//   node client.mjs TENSORLINT SAMPLE.c --bench  print timings as JSON (bench/lsp.sh)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import protocol from 'vscode-languageserver-protocol/node.js';

const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter,
  InitializeRequest, InitializedNotification, DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification, DidSaveTextDocumentNotification,
  DidCloseTextDocumentNotification, PublishDiagnosticsNotification, HoverRequest,
  InlayHintRequest, CodeActionRequest, ShutdownRequest, ExitNotification,
  WorkDoneProgressCreateRequest, WorkDoneProgress, MarkupKind,
} = protocol;

const [cli, sample, mode] = process.argv.slice(2);
const bench = mode === '--bench';
const log = (s) => { if (!bench) console.log(s); };

// ---- the document, as an editor keeps it (JS strings index UTF-16 units) ----
let text = readFileSync(sample, 'utf8');
let version = 1;
function offsetAt(pos) {
  let off = 0;
  for (let l = 0; l < pos.line; l++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return text.length;
    off = nl + 1;
  }
  return off + pos.character;
}
function applyEdits(edits) {
  const sorted = [...edits].sort((a, b) => offsetAt(b.range.start) - offsetAt(a.range.start));
  const changes = [];
  for (const e of sorted) {
    text = text.slice(0, offsetAt(e.range.start)) + e.newText + text.slice(offsetAt(e.range.end));
    changes.push({ range: e.range, text: e.newText });
  }
  return changes;
}

// ---- the server ----
const dir = mkdtempSync(join(tmpdir(), 'tl-lsp-vscode-'));
const path = join(dir, 'prog.c');
const uri = 'file://' + path;
writeFileSync(path, text);
const server = spawn(cli, ['lsp', '--log=info'], { stdio: ['pipe', 'pipe', 'pipe'] });
let stderr = '';
server.stderr.on('data', (d) => { stderr += d; });
const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
const conn = createProtocolConnection(new StreamMessageReader(server.stdout),
                                      new StreamMessageWriter(server.stdin));

let published = null;
let nPublished = 0;
const waiters = [];
conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
  published = p;
  nPublished++;
  for (const w of [...waiters]) w();
});
const progress = [];
let tokenCreated;
const tokenReady = new Promise((resolve) => { tokenCreated = resolve; });
conn.onRequest(WorkDoneProgressCreateRequest.type, (p) => {
  conn.onProgress(WorkDoneProgress.type, p.token, (v) => progress.push(v.kind));
  tokenCreated();
  return null;
});
conn.listen();

const codes = () => Object.fromEntries((published?.diagnostics ?? []).map((d) => [d.code, d]));
function waitPublish(after, pred, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no diagnostics ' + what)), 20000);
    const check = () => {
      if (nPublished > after && pred(codes())) {
        clearTimeout(timer);
        waiters.splice(waiters.indexOf(check), 1);
        resolve();
      }
    };
    waiters.push(check);
    check();
  });
}
function change(changes) {
  version++;
  conn.sendNotification(DidChangeTextDocumentNotification.type,
                        { textDocument: { uri, version }, contentChanges: changes });
}
const td = { uri };
const whole = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };
const actionsAt = (line) => conn.sendRequest(CodeActionRequest.type, {
  textDocument: td, range: { start: { line, character: 0 }, end: { line, character: 0 } },
  context: { diagnostics: [] } });

async function main() {
  const init = await conn.sendRequest(InitializeRequest.type, {
    processId: process.pid, rootUri: 'file://' + dir, workspaceFolders: null,
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      window: { workDoneProgress: true },
      textDocument: { hover: { contentFormat: [MarkupKind.Markdown, MarkupKind.PlainText] },
                      publishDiagnostics: { relatedInformation: true } },
    },
  });
  assert.equal(init.capabilities.textDocumentSync.change, 2);
  assert.equal(init.capabilities.positionEncoding, 'utf-16');
  assert.ok(init.capabilities.hoverProvider && init.capabilities.inlayHintProvider);
  conn.sendNotification(InitializedNotification.type, {});
  await tokenReady;
  await new Promise((r) => setImmediate(r)); // the create request's reply is on its way

  // 1. open
  let t0 = performance.now();
  conn.sendNotification(DidOpenTextDocumentNotification.type,
                        { textDocument: { uri, languageId: 'c', version, text } });
  await waitPublish(0, (c) => c['hidden-copy'] && c['double-copy'], 'on open');
  const openMs = performance.now() - t0;
  const hc = codes()['hidden-copy'];
  assert.deepEqual(hc.range.start, { line: 11, character: 27 });
  assert.equal(hc.relatedInformation[0].location.range.start.line, 10);
  assert.match(hc.codeDescription.href, /hidden-copy\.md$/);
  assert.equal(hc.severity, 2);
  assert.equal(hc.source, 'tensorlint');
  assert.deepEqual(progress.slice(0, 2), ['begin', 'end'], 'work-done progress on the first analysis');
  log(`open: ${published.diagnostics.length} diagnostics in ${openMs.toFixed(0)} ms; progress ${progress.join(',')}`);

  // 2. hover
  t0 = performance.now();
  const hover = await conn.sendRequest(HoverRequest.type,
                                       { textDocument: td, position: { line: 11, character: 23 } });
  const hoverMs = performance.now() - t0;
  assert.equal(hover.contents.kind, 'markdown');
  assert.ok(hover.contents.value.includes('(4, 8192)'), hover.contents.value);
  assert.ok(hover.contents.value.includes('reshape copied'));
  log(`hover (${hoverMs.toFixed(1)} ms): ${hover.contents.value.split('\n')[0]}`);

  // 3. inlay hints
  const hints = await conn.sendRequest(InlayHintRequest.type, { textDocument: td, range: whole });
  assert.deepEqual(hints.map((h) => h.label), ['(2, 4, 4096) f32, new 128 KiB',
    '(4, 2, 4096) f32, view', '(4, 8192) f32, new 128 KiB', '(4, 8192) f32, new 128 KiB']);
  assert.match(hints[2].tooltip, /^reshape copied: dims 1 and 2 do not merge/);
  log('inlay hints: ' + hints.map((h) => h.label).join(' | '));

  // 4. the quick fix removes the double copy
  const original = text;
  let actions = await actionsAt(12);
  const fix = actions.find((a) => a.kind === 'quickfix' && a.title.startsWith('Fix'));
  assert.ok(fix, JSON.stringify(actions));
  let before = nPublished;
  t0 = performance.now();
  change(applyEdits(fix.edit.changes[uri]));
  await waitPublish(before, (c) => !c['double-copy'] && c['hidden-copy'], 'after the fix');
  const editMs = performance.now() - t0;
  assert.equal(published.version, version);
  log(`fix applied: double-copy gone (${editMs.toFixed(0)} ms to diagnostics)`);

  // 5. undo (a full-text change, as some editors send it)
  before = nPublished;
  text = original;
  change([{ text }]);
  await waitPublish(before, (c) => c['double-copy'], 'after undo');
  log('undo: double-copy back');

  // 6. a burst of typing: one character per change, no wait in between
  before = nPublished;
  for (const ch of ' // typing') {
    const line = text.split('\n')[13];
    change(applyEdits([{ range: { start: { line: 13, character: line.length },
                                  end: { line: 13, character: line.length } }, newText: ch }]));
  }
  await waitPublish(before, () => published.version === version, 'after the burst');
  assert.ok(nPublished - before <= 2, `the burst was analysed ${nPublished - before} times`);
  log(`burst: 10 changes, ${nPublished - before} publish(es), version ${version}`);

  // 7. NOLINT
  actions = await actionsAt(11);
  const nolint = actions.find((a) => a.title.startsWith('Suppress [hidden-copy]'));
  assert.ok(nolint);
  before = nPublished;
  change(applyEdits(nolint.edit.changes[uri]));
  await waitPublish(before, (c) => !c['hidden-copy'], 'after NOLINT');
  log('NOLINT: hidden-copy suppressed');

  // 8. save, close, shutdown, exit
  writeFileSync(path, text);
  before = nPublished;
  conn.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: td });
  await waitPublish(before, () => true, 'after save');
  before = nPublished;
  conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: td });
  await waitPublish(before, () => published.diagnostics.length === 0, 'after close');
  log('save and close: ok');
  await conn.sendRequest(ShutdownRequest.type);
  conn.sendNotification(ExitNotification.type);
  const code = await exited;
  assert.equal(code, 0, 'exit status');
  log('shutdown: exit status 0');
  if (bench)
    console.log(JSON.stringify({ open_ms: openMs, hover_ms: hoverMs, edit_ms: editMs }));
}

main().then(() => {
  conn.dispose();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}, (e) => {
  console.error('FAIL: ' + (e.stack || e));
  console.error('server log:\n' + stderr);
  server.kill();
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
});
