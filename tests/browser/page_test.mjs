// page_test.mjs TENSORLINT SOURCE_DIR CHROMIUM: the memory page
// (`report --format=html`) opened in a real browser, headless, and checked
// against the JSON report of the same file:
//   - every executed root's peak (bytes and line) as the JSON says it, the
//     tallest bar equal to it, the peak bar holding the storages live there;
//   - hovering the peak bar shows its line and its live bytes; the arrow
//     keys move through the bars; a legend button selects its storage in the
//     timeline and in the source;
//   - a page whose sizes are formulas (the decoder of samples/checkpoint):
//     its inputs prefilled from --bind, and the peak after typing another
//     `steps` (and other sizes) equal to `report --bind` at those values; an
//     assumption violated at values that break it;
//   - a hostile file (tests/browser/hostile.c): its markup shows as text,
//     runs nothing and adds no element;
//   - no console error, no page error, no request leaving the file.
import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import puppeteer from 'puppeteer-core';

const [cli, src, chromium] = process.argv.slice(2);
const tmp = mkdtempSync(join(tmpdir(), 'tl-browser-'));
let failures = 0;
const fail = (what) => { failures++; console.log('FAIL: ' + what); };
const check = (ok, what) => { if (!ok) fail(what); return ok; };

function tensorlint(args) {
  try {
    return execFileSync(cli, args, {cwd: src, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28});
  } catch (e) {
    if (e.status === 1 && e.stdout !== undefined) return e.stdout; /* the program has errors */
    throw e;
  }
}
const bindArgs = (binds) => Object.entries(binds).flatMap(([k, v]) => ['--bind', k + '=' + v]);
function jsonReport(file, binds = {}) {
  return JSON.parse(tensorlint(['report', '--format=json', ...bindArgs(binds), file]));
}
function htmlPage(file, binds = {}) {
  const out = join(tmp, file.replace(/[^A-Za-z0-9]+/g, '_') + '.html');
  tensorlint(['report', '--format=html', '-o', out, ...bindArgs(binds), file]);
  return out;
}

const browser = await puppeteer.launch({
  executablePath: chromium, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});

/* A page open on path, with its console errors, page errors and requests watched. */
async function open(path) {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warn') problems.push('console ' + m.type() + ': ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    if (r.url() === 'file://' + path) r.continue();
    else { problems.push('request: ' + r.url()); r.abort(); }
  });
  page.on('dialog', async (d) => { problems.push('dialog: ' + d.message()); await d.dismiss(); });
  await page.setViewport({width: 1280, height: 1000});
  await page.goto('file://' + path, {waitUntil: 'load'});
  await page.waitForSelector('html[data-ready]', {timeout: 20000});
  return {page, problems};
}

async function closeChecked(name, {page, problems}) {
  for (const p of problems) fail(name + ': ' + p);
  await page.close();
}

/* The page's peak and bars of root fn against the JSON function f. */
async function checkRoot(name, page, f, expectPeak, expectLine) {
  const got = await page.evaluate((fn) => {
    const peak = document.getElementById('peak-' + fn);
    const sec = document.getElementById('root-' + fn);
    const bars = [...sec.querySelectorAll('.bar')].map((g) => ({
      live: g.getAttribute('data-live'), peak: g.classList.contains('peak'), line: g.getAttribute('data-line'),
      segs: [...g.querySelectorAll('.seg')].map((s) => ({bytes: s.getAttribute('data-bytes'), storages: s.getAttribute('data-storages')})),
    }));
    return {bytes: peak.getAttribute('data-bytes'), line: peak.getAttribute('data-line'), bars};
  }, f.name);
  check(got.bytes === String(expectPeak), `${name} ${f.name}: peak ${got.bytes}, the JSON report says ${expectPeak}`);
  check(got.line === String(expectLine), `${name} ${f.name}: peak line ${got.line}, the JSON report says ${expectLine}`);
  check(got.bars.length > 0, `${name} ${f.name}: no bar drawn`);
  const known = got.bars.filter((b) => b.live !== '').map((b) => BigInt(b.live));
  const tallest = known.reduce((a, b) => (b > a ? b : a), 0n);
  check(known.length === got.bars.length, `${name} ${f.name}: ${got.bars.length - known.length} bars with unknown bytes`);
  check(tallest === BigInt(expectPeak), `${name} ${f.name}: tallest bar ${tallest}, peak ${expectPeak}`);
  const peakBars = got.bars.filter((b) => b.peak);
  if (check(peakBars.length >= 1, `${name} ${f.name}: no bar marked as the peak`)) {
    const bar = peakBars[0];
    check(bar.live === String(expectPeak), `${name} ${f.name}: the peak bar holds ${bar.live}`);
    const segSum = bar.segs.reduce((a, s) => a + BigInt(s.bytes), 0n);
    check(segSum === BigInt(expectPeak), `${name} ${f.name}: the peak bar's storages add up to ${segSum}, not ${expectPeak}`);
    return bar;
  }
  return null;
}

/* ---- concrete samples ---- */

const concrete = ['samples/labs/lab2.c', 'samples/labs/lab3.c', 'samples/worksheet/block2.c', 'samples/models/attention.c'];
for (const file of concrete) {
  const json = jsonReport(file);
  const pg = await open(htmlPage(file));
  const roots = json.functions.filter((f) => f.root && f.executed);
  check(roots.length > 0, `${file}: the JSON report has no executed root`);
  for (const f of roots) {
    if ((f.not_exact || []).includes('peak_live_bytes')) continue; /* a bound: the bars may not reach it */
    const bar = await checkRoot(file, pg.page, f, f.peak_live_bytes, f.peak_line);
    if (bar) {
      const live = new Set(bar.segs.flatMap((s) => s.storages.split(' ')).filter((x) => x !== '').map(Number));
      const sized = f.peak_storages.filter((id) => {
        const s = f.storages.find((x) => x.id === id);
        return !s || s.nbytes !== 0;
      });
      for (const id of sized) check(live.has(id), `${file} ${f.name}: storage S${id}, live at the peak, is not in the peak bar`);
    }
    /* hover the peak bar: its tooltip names its line and the live bytes */
    const hit = await pg.page.$(`#root-${f.name} .bar.peak .hit`);
    if (check(hit !== null, `${file} ${f.name}: no peak bar to hover`)) {
      await hit.hover();
      const tip = await pg.page.$eval('#tip', (t) => (t.hidden ? '' : t.textContent));
      const line = await pg.page.$eval(`#root-${f.name} .bar.peak`, (g) => g.getAttribute('data-line'));
      check(tip.includes('line ' + line), `${file} ${f.name}: the tooltip '${tip}' does not name line ${line}`);
      check(tip.includes('live after it:') && tip.includes('peak'), `${file} ${f.name}: the tooltip '${tip}' does not give the live bytes at the peak`);
    }
  }
  await closeChecked(file, pg);
}

/* keyboard and selection, on lab2: tab to the timeline, arrows, a legend button */
{
  const file = 'samples/labs/lab2.c';
  const json = jsonReport(file);
  const pg = await open(htmlPage(file));
  const {page} = pg;
  await page.$eval('#root-main svg.timeline', (s) => s.focus());
  check(await page.evaluate(() => document.activeElement.matches('#root-main svg.timeline')), 'keyboard: the timeline takes no focus');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  const tip = await page.$eval('#tip', (t) => (t.hidden ? '' : t.textContent));
  const second = json.functions.find((f) => f.name === 'main').values[1];
  check(tip.includes('line ' + second.line), `keyboard: the second bar's tooltip '${tip}' does not name line ${second.line}`);
  await page.click('#root-main .legend button');
  const sel = await page.evaluate(() => ({
    pressed: document.querySelector('#root-main .legend button').getAttribute('aria-pressed'),
    alloc: [...document.querySelectorAll('#source li.hl-alloc')].map((li) => li.getAttribute('data-line')),
    free: [...document.querySelectorAll('#source li.hl-free')].map((li) => li.getAttribute('data-line')),
    segs: document.querySelectorAll('#root-main .seg.sel').length,
    graph: document.querySelectorAll('#graphs g.sel').length,
  }));
  const s0 = json.functions.find((f) => f.name === 'main').storages[0];
  check(sel.pressed === 'true', 'selection: the legend button is not pressed');
  check(sel.alloc.includes(String(s0.alloc_line)), `selection: line ${s0.alloc_line} (allocation) not highlighted: ${sel.alloc}`);
  check(s0.free_line === null || sel.free.includes(String(s0.free_line)), `selection: line ${s0.free_line} (release) not highlighted: ${sel.free}`);
  check(sel.segs > 0, 'selection: no bar segment highlighted');
  check(sel.graph > 0, 'selection: nothing highlighted in the dataflow graph');
  await page.keyboard.press('Escape');
  const cleared = await page.$eval('#root-main .legend button', (b) => b.getAttribute('aria-pressed'));
  check(cleared === 'false', 'selection: Escape does not clear it');
  await closeChecked('keyboard', pg);
}

/* ---- sizes that are formulas: the decoder ---- */
{
  const file = 'samples/checkpoint/decoder_ckpt.c';
  const base = {'config.dim': 64, 'config.hidden_dim': 176, 'config.n_layers': 2, 'config.n_heads': 4,
                'config.vocab_size': 128, 'config.seq_len': 32, steps: 12};
  const pg = await open(htmlPage(file, base));
  const {page} = pg;
  const rootOf = (json) => json.functions.find((f) => f.name === 'main');
  const prefilled = await page.$$eval('#symbols input', (xs) => Object.fromEntries(xs.map((x) => [x.getAttribute('data-symbol'), x.value])));
  for (const [k, v] of Object.entries(base)) check(prefilled[k] === String(v), `decoder: input ${k} is '${prefilled[k]}', --bind gave ${v}`);
  const setInput = async (name, value) => {
    const sel = `#symbols input[data-symbol="${name}"]`;
    await page.click(sel, {clickCount: 3});
    await page.keyboard.press('Backspace');
    await page.type(sel, String(value));
  };
  const tries = [{}, {steps: 5}, {steps: 40, 'config.n_layers': 3}, {'config.hidden_dim': 900, steps: 30}];
  let values = Object.assign({}, base);
  for (const t of tries) {
    for (const [k, v] of Object.entries(t)) await setInput(k, v);
    values = Object.assign(values, t);
    const f = rootOf(jsonReport(file, values));
    const label = 'decoder at ' + JSON.stringify(values);
    await checkRoot(label, page, f, f.peak_live_bytes, f.peak_line);
    const ok = await page.$$eval('#assumptions li[data-state="bad"]', (xs) => xs.length);
    check(ok === 0, `${label}: ${ok} assumptions shown violated`);
    const lines = await page.$$eval('#source .annot[data-bytes]', (xs) => xs.map((x) => [x.getAttribute('data-value'), x.getAttribute('data-bytes')]));
    const bound = jsonReport(file, values);
    const byId = new Map();
    for (const fn of bound.functions) for (const v of fn.values) if (v.kind === 'new') {
      const s = fn.storages.find((x) => x.id === v.storage);
      if (s) byId.set(String(v.id), String(s.nbytes));
    }
    let compared = 0;
    for (const [id, bytes] of lines) if (byId.has(id) && bytes !== '') {
      compared++;
      check(byId.get(id) === bytes, `${label}: line bytes of value ${id} ${bytes}, report --bind says ${byId.get(id)}`);
    }
    check(compared > 5, `${label}: only ${compared} per-line byte counts compared`);
  }
  /* sizes that break an assumption: n_heads does not divide dim */
  await setInput('config.n_heads', 3);
  const bad = await page.$$eval('#assumptions li[data-state="bad"]', (xs) => xs.map((x) => x.getAttribute('data-condition')));
  check(bad.length > 0, 'decoder: config.n_heads = 3 (dim 64) violates no assumption shown');
  await closeChecked('decoder', pg);
}

/* ---- a hostile file ---- */
{
  const file = 'tests/browser/hostile.c';
  const pg = await open(htmlPage(file, {nosuch: 3})); /* a --bind that names no symbol: said so */
  const {page} = pg;
  const got = await page.evaluate(() => ({
    pwned: window.__pwned,
    scripts: document.scripts.length,
    imgs: document.querySelectorAll('img').length,
    svgOnload: document.querySelectorAll('[onload], [onerror]').length,
    comment: document.getElementById('L4') ? document.getElementById('L4').textContent : '',
    string: document.getElementById('L11') ? document.getElementById('L11').textContent : '',
    title: document.title,
    unknownBind: document.getElementById('unknown-binds') ? document.getElementById('unknown-binds').textContent : '',
  }));
  check(got.unknownBind.includes('nosuch'), `hostile: --bind nosuch=3 is not reported: '${got.unknownBind}'`);
  check(got.pwned === undefined, `hostile: a script ran (window.__pwned = ${got.pwned})`);
  check(got.scripts === 2, `hostile: ${got.scripts} script elements (the data and the page's)`);
  check(got.imgs === 0 && got.svgOnload === 0, 'hostile: an element from the source was created');
  check(got.comment.includes("</script><script>window.__pwned = 'comment';</script>"), `hostile: line 4 is not shown as text: '${got.comment}'`);
  check(got.string.includes('"</script><script>window.__pwned = \'string\'</script>"'), `hostile: line 11 is not shown as text: '${got.string}'`);
  check(got.title.includes('hostile.c'), `hostile: title '${got.title}'`);
  await closeChecked('hostile', pg);
}

await browser.close();
rmSync(tmp, {recursive: true, force: true});
if (failures > 0) {
  console.log(`${failures} failure(s)`);
  process.exit(1);
}
console.log('browser: the memory page of ' + (concrete.length + 2) + ' files checked against the JSON report');
