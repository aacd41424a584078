/*
 * page.js: the memory page of `tensorlint report --format=html` (dg_page.c
 * embeds it).  It reads the data from the JSON element #tl-data and draws:
 *   - the symbols' inputs and the assumptions, satisfied or violated;
 *   - per root function, the live bytes after each call as stacked bars (one
 *     colour per storage), the peak marked, a tooltip per bar;
 *   - the source with each tensor line annotated and the diagnostics at
 *     their lines;
 *   - the dataflow graph (Graphviz SVG).
 * Selecting a storage (its legend entry, a bar's segment, a source
 * annotation or a graph node) highlights it in all of them.
 *
 * Every text from the report goes in with textContent or setAttribute:
 * nothing read from the source is ever parsed as HTML.  The graph's SVG is
 * parsed as XML and stripped of scripts, event handlers and links first.
 *
 * Sizes known only at run time are formulas (docs/formats.md): integers,
 * names with '.', '->' and '[i]', + - * / (floor division) %, unary minus,
 * max(a, b), min(a, b), parentheses.  They are evaluated with BigInt.
 */
'use strict';
(function () {
  const DATA = JSON.parse(document.getElementById('tl-data').textContent);
  const REPORT = DATA.report || {functions: [], diagnostics: [], symbols: [], assumptions: []};
  const SVGNS = 'http://www.w3.org/2000/svg';
  const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#76b7b2', '#edc948',
                   '#ff9da7', '#9c755f', '#e15759', '#86bcb6', '#8cd17d', '#d4a6c8'];

  /* ---- formulas ---- */

  function tokenize(s) {
    const re = /\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*(?:(?:\.|->)[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)|(<=|>=|==|!=|[-+*\/%(),<>]))/y;
    const out = [];
    let m;
    re.lastIndex = 0;
    while (re.lastIndex < s.length) {
      const at = re.lastIndex;
      if (/^\s*$/.test(s.slice(at))) break;
      m = re.exec(s);
      if (!m) throw new Error('cannot read "' + s.slice(at) + '"');
      if (m[1] !== undefined) out.push({t: 'n', v: BigInt(m[1])});
      else if (m[2] !== undefined) out.push({t: 'id', v: m[2]});
      else out.push({t: 'op', v: m[3]});
    }
    return out;
  }

  function floorDiv(a, b) {
    if (b === 0n) throw new Error('division by zero');
    const q = a / b;
    return (a % b !== 0n && ((a < 0n) !== (b < 0n))) ? q - 1n : q;
  }

  /* Parses a formula (or a condition: expr REL expr) into a tree. */
  function parse(s) {
    const toks = tokenize(s);
    let i = 0;
    const peek = () => toks[i];
    const isOp = (v) => toks[i] && toks[i].t === 'op' && toks[i].v === v;
    const expect = (v) => { if (!isOp(v)) throw new Error('expected ' + v); i++; };
    function primary() {
      const t = toks[i++];
      if (!t) throw new Error('unexpected end');
      if (t.t === 'n') return {k: 'n', v: t.v};
      if (t.t === 'op' && t.v === '(') { const e = expr(); expect(')'); return e; }
      if (t.t === 'op' && t.v === '-') return {k: 'neg', a: primary()};
      if (t.t === 'id') {
        if ((t.v === 'max' || t.v === 'min') && isOp('(')) {
          i++;
          const args = [expr()];
          while (isOp(',')) { i++; args.push(expr()); }
          expect(')');
          return {k: t.v, args: args};
        }
        return {k: 'id', v: t.v};
      }
      throw new Error('unexpected ' + t.v);
    }
    function term() {
      let a = primary();
      while (isOp('*') || isOp('/') || isOp('%')) { const op = toks[i++].v; a = {k: op, a: a, b: primary()}; }
      return a;
    }
    function expr() {
      let a = term();
      while (isOp('+') || isOp('-')) { const op = toks[i++].v; a = {k: op, a: a, b: term()}; }
      return a;
    }
    const e = expr();
    const rels = ['<=', '>=', '==', '!=', '<', '>'];
    if (peek() && peek().t === 'op' && rels.indexOf(peek().v) >= 0) {
      const rel = toks[i++].v;
      const b = expr();
      if (i !== toks.length) throw new Error('extra text');
      return {k: 'rel', rel: rel, a: e, b: b};
    }
    if (i !== toks.length) throw new Error('extra text');
    return e;
  }

  /* The value of tree e with env (name -> BigInt); null when a name has none. */
  function evalTree(e, env) {
    switch (e.k) {
    case 'n': return e.v;
    case 'id': return Object.prototype.hasOwnProperty.call(env, e.v) ? env[e.v] : null;
    case 'neg': { const a = evalTree(e.a, env); return a === null ? null : -a; }
    case 'max': case 'min': {
      let best = null;
      for (const x of e.args) {
        const v = evalTree(x, env);
        if (v === null) return null;
        if (best === null || (e.k === 'max' ? v > best : v < best)) best = v;
      }
      return best;
    }
    case 'rel': {
      const a = evalTree(e.a, env), b = evalTree(e.b, env);
      if (a === null || b === null) return null;
      switch (e.rel) {
      case '<=': return a <= b; case '>=': return a >= b; case '<': return a < b;
      case '>': return a > b; case '==': return a === b; default: return a !== b;
      }
    }
    default: {
      const a = evalTree(e.a, env), b = evalTree(e.b, env);
      if (a === null || b === null) return null;
      switch (e.k) {
      case '+': return a + b; case '-': return a - b; case '*': return a * b;
      case '/': return floorDiv(a, b);
      default: { const r = a % b; return r !== 0n && ((r < 0n) !== (b < 0n)) ? r + b : r; }
      }
    }
    }
  }

  /* A condition of the report: comparisons joined by "and"; true, false, or
   * null when some name has no value or the text is not one. */
  function holds(text, env) {
    let all = true;
    for (const part of String(text).split(/\s+and\s+/)) {
      let t = null;
      try { t = parse(part); } catch (err) { return null; }
      if (!t || t.k !== 'rel') return null;
      let v = null;
      try { v = evalTree(t, env); } catch (err) { v = null; }
      if (v === null) all = null;
      else if (v === false) return false;
    }
    return all;
  }

  const parsed = new Map();
  /* A report number: a JSON integer, a formula string, or null (unknown).
   * Returns {v: BigInt|null, text} where v is null when not computable. */
  function num(x, env) {
    if (x === null || x === undefined) return {v: null, text: '?'};
    if (typeof x === 'number') return {v: BigInt(x), text: String(x)};
    let t = parsed.get(x);
    if (t === undefined) {
      try { t = parse(String(x)); } catch (err) { t = null; }
      parsed.set(x, t);
    }
    let v = null;
    if (t) { try { v = evalTree(t, env); } catch (err) { v = null; } }
    return {v: typeof v === 'bigint' ? v : null, text: String(x)};
  }

  /* ---- small helpers ---- */

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === 'class') e.className = attrs[k];
      else if (k === 'text') e.textContent = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (const c of kids) if (c !== null && c !== undefined) e.append(c);
    return e;
  }
  function sv(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  function fmtBytes(b) {
    if (b === null) return '?';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
    const neg = b < 0n;
    let a = neg ? -b : b, u = 0, scale = 1n;
    while (u < units.length - 1 && a >= scale * 1024n) { scale *= 1024n; u++; }
    let s;
    if (u === 0) s = a.toString() + ' B';
    else {
      const hundredths = (a * 100n + scale / 2n) / scale;
      s = (hundredths / 100n).toString() +
          (hundredths % 100n === 0n ? '' : '.' + String(hundredths % 100n).padStart(2, '0').replace(/0$/, '')) +
          ' ' + units[u];
    }
    return (neg ? '-' : '') + s;
  }
  function showNum(n, bytes) {
    if (n.v !== null) return bytes ? fmtBytes(n.v) : n.v.toString();
    return n.text + (bytes && n.text !== '?' ? ' B' : '');
  }
  const DTYPE_SIZE = {bool: 1n, u8: 1n, i8: 1n, i16: 2n, i32: 4n, i64: 8n, f16: 2n, bf16: 2n, f32: 4n, f64: 8n};

  /* ---- the model: values and storages by id ---- */

  const values = new Map(), storages = new Map();
  for (const f of REPORT.functions || []) {
    for (const v of f.values || []) if (v.id !== undefined && !values.has(v.id)) values.set(v.id, Object.assign({func: f.name}, v));
    for (const s of f.storages || []) if (!storages.has(s.id)) storages.set(s.id, s);
  }
  const valueBytes = (v) => {
    if (v.kind === 'new' && storages.has(v.storage)) return storages.get(v.storage).nbytes;
    return null;
  };

  /* ---- state ---- */

  const env = {};
  let selected = null;          /* a Set of storage ids, or null */
  const redraws = [];           /* what to redo when a symbol changes */
  const highlighters = [];      /* what to redo when the selection changes */

  function select(ids, origin) {
    const same = selected && ids && ids.length === selected.size && ids.every((x) => selected.has(x));
    selected = (!ids || ids.length === 0 || same) ? null : new Set(ids);
    for (const h of highlighters) h(selected);
    const st = document.getElementById('selection');
    st.textContent = selected ? 'Selected storage ' + [...selected].map((x) => 'S' + x).join(', ') +
      ' (' + origin + '). Press Escape or select it again to clear.' : '';
  }
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') select(null); });

  /* ---- header, symbols and assumptions ---- */

  const main = el('main', {id: 'page'});
  document.body.append(main);
  main.append(el('h1', {text: 'Memory of ' + DATA.file}));
  main.append(el('p', {class: 'lead', text: 'What tensorlint computed without running the program: the bytes live after each tensor call, the peak and what is live there. Select a storage (legend, bar, source or graph) to follow it; Escape clears.'}));
  main.append(el('p', {id: 'selection', class: 'selection', role: 'status', 'aria-live': 'polite'}));

  const symbols = REPORT.symbols || [];
  if (symbols.length > 0) {
    const sec = el('section', {id: 'symbols', 'aria-labelledby': 'symbols-h'});
    sec.append(el('h2', {id: 'symbols-h', text: 'Sizes known at run time'}));
    sec.append(el('p', {text: 'The sizes below are read when the program runs. Give each a value: every formula on this page (bars, peak, bytes per line) is evaluated at those values. An empty input leaves the numbers that use it as formulas.'}));
    const form = el('form', {class: 'symbols'});
    form.addEventListener('submit', (e) => e.preventDefault());
    symbols.forEach((s, k) => {
      const id = 'sym-' + k;
      const input = el('input', {id: id, type: 'text', inputmode: 'numeric', pattern: '-?[0-9]+', 'data-symbol': s.name, autocomplete: 'off', size: '8'});
      const bound = DATA.binds && Object.prototype.hasOwnProperty.call(DATA.binds, s.name);
      if (bound) input.value = String(DATA.binds[s.name]);
      const read = () => {
        const t = input.value.trim();
        if (/^-?[0-9]+$/.test(t)) { env[s.name] = BigInt(t); input.removeAttribute('aria-invalid'); }
        else { delete env[s.name]; if (t !== '') input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid'); }
      };
      read();
      input.addEventListener('input', () => { read(); redraw(); });
      form.append(el('div', {class: 'sym'},
        el('label', {for: id}, el('code', {text: s.name})),
        input,
        el('span', {class: 'origin', text: s.origin + (s.line ? ', line ' + s.line : '')})));
    });
    sec.append(form);
    const asm = REPORT.assumptions || [];
    if (asm.length > 0) {
      const det = el('details', {class: 'asm-box'});
      const sum = el('summary', {});
      det.append(sum);
      const ul = el('ul', {class: 'assumptions', id: 'assumptions'});
      det.append(ul);
      const items = asm.map((a) => {
        const li = el('li', {'data-condition': a.condition});
        const mark = el('span', {class: 'mark'});
        li.append(mark, el('code', {text: a.condition}), el('span', {class: 'where', text: ' line ' + a.line + (a.kind === 'path' ? ': the run does not ' + (a.leave || 'leave') + ' at line ' + a.leave_line : '')}));
        ul.append(li);
        return {a: a, li: li, mark: mark};
      });
      redraws.push(() => {
        for (const it of items) {
          let state = 'unknown', word = 'not evaluated';
          if (it.a.kind === 'path') { state = 'path'; word = 'on the run\'s path'; }
          else {
            const v = holds(it.a.condition, env);
            if (v === true) { state = 'ok'; word = 'holds'; }
            else if (v === false) { state = 'bad'; word = 'violated'; }
            else word = 'needs every symbol it names';
          }
          it.li.className = 'asm-' + state;
          it.li.setAttribute('data-state', state);
          it.mark.textContent = (state === 'ok' ? '\u2713 ' : state === 'bad' ? '\u2717 ' : '\u2022 ') + word + ': ';
        }
        const bad = items.filter((it) => it.li.getAttribute('data-state') === 'bad').length;
        const ok = items.filter((it) => it.li.getAttribute('data-state') === 'ok').length;
        sum.textContent = 'What the answer assumes: ' + items.length + ' conditions, ' + ok + ' hold' +
          (bad ? ', ' + bad + ' VIOLATED at these values: the numbers below do not describe such a run' : '') +
          (items.length - ok - bad ? ', ' + (items.length - ok - bad) + ' not evaluated' : '');
        sum.className = bad ? 'asm-violated' : '';
        if (bad) det.open = true;
      });
      sec.append(det);
    }
    main.append(sec);
  }

  const unknownBinds = Object.keys(DATA.binds || {}).filter((n) => !symbols.some((s) => s.name === n));
  if (unknownBinds.length > 0) {
    main.append(el('p', {class: 'bound', id: 'unknown-binds', text: '--bind ' + unknownBinds.join(', ') +
      ': no symbol of the report has ' + (unknownBinds.length === 1 ? 'this name' : 'these names') + '; ' +
      (symbols.length ? 'its symbols are ' + symbols.map((s) => s.name).join(', ') + '.' : 'it has none.')}));
  }

  /* ---- per root: the timeline ---- */

  const tip = el('div', {id: 'tip', role: 'tooltip', class: 'tip', hidden: ''});
  document.body.append(tip);
  function showTip(lines, x, y) {
    tip.replaceChildren(...lines.map((l, k) => el('div', {class: k === 0 ? 'tip-head' : '', text: l})));
    tip.hidden = false;
    const w = tip.offsetWidth, h = tip.offsetHeight;
    const px = Math.min(window.scrollX + document.documentElement.clientWidth - w - 8, x + 12);
    tip.style.left = Math.max(window.scrollX + 4, px) + 'px';
    tip.style.top = (y - h - 12 < window.scrollY ? y + 16 : y - h - 12) + 'px';
  }
  function hideTip() { tip.hidden = true; }

  function funcReport(name) {
    return (REPORT.functions || []).find((f) => f.name === name && f.root) ||
           (REPORT.functions || []).find((f) => f.name === name);
  }

  function describeColumn(root, c, liveN) {
    const col = root.columns[c];
    const v = col.value !== null ? values.get(col.value) : null;
    const lines = [];
    const name = v && v.name ? v.name : (v ? '(temporary)' : '');
    lines.push('line ' + col.line + ' \u00b7 ' + (col.event === 'call' ? 'tl_' + col.op : col.event === 'release' ? 'tl_release' : 'handle lost') + (name ? ' \u00b7 ' + name : ''));
    if (v) {
      const shape = v.shape ? '(' + v.shape.map((d) => showNum(num(d, env), false)).join(', ') + (v.shape.length === 1 ? ',' : '') + ')' : '?';
      lines.push('shape ' + shape + ' ' + (v.dtype || '?') + (v.device ? ' on ' + v.device : ''));
      const b = valueBytes(v);
      if (v.kind === 'view') {
        const of = v.view_of !== null && v.view_of !== undefined ? values.get(v.view_of) : null;
        lines.push('view of ' + (of ? (of.name || 'tl_' + of.op) + ' (line ' + of.line + ')' : 'S' + v.storage) + ': no new bytes');
      } else if (v.kind === 'new') {
        lines.push('new storage S' + v.storage + ': ' + showNum(num(b, env), true));
      } else if (v.kind) lines.push(v.kind);
      if (v.reason) lines.push('why: ' + v.reason);
    } else if (col.event !== 'call') {
      lines.push((col.event === 'release' ? 'released' : 'lost (' + (col.lost || 'unreachable') + ')') + (col.storage !== null ? ': S' + col.storage : ''));
    }
    if (col.calls > 1) lines.push('stands for ' + col.calls + ' calls (a repeated run, drawn once)');
    if (col.merged > 1) lines.push(col.merged + ' calls merged into this bar (the heaviest shown)');
    lines.push('live after it: ' + showNum(liveN, true) + (col.peak ? '  \u2190 peak' : ''));
    return lines;
  }

  function drawRoot(root, sec) {
    const fr = funcReport(root.name) || {};
    const head = el('div', {class: 'peakline'});
    const peakB = el('strong', {class: 'peak', id: 'peak-' + root.name, 'data-function': root.name});
    const peakWhere = el('span', {class: 'peak-where'});
    head.append('Peak ', peakB, peakWhere);
    sec.append(head);
    const exactNote = el('p', {class: 'bound'});
    sec.append(exactNote);
    const wrap = el('div', {class: 'timeline-wrap'});
    const svg = sv('svg', {class: 'timeline', role: 'img', tabindex: '0', 'aria-label': 'Live bytes after each call of ' + root.name + '(): use the arrow keys to move between calls, Enter to select the storage a call made'});
    wrap.append(svg);
    sec.append(wrap);
    const legend = el('div', {class: 'legend', role: 'group', 'aria-label': 'Storages of ' + root.name + '()'});
    sec.append(legend);
    /* the chart's notes, less the options of `tensorlint lifetimes` that the page does not take */
    if (root.notes) sec.append(el('p', {class: 'notes', text: root.notes.replace(/;? *--(expand|max-rows|max-columns)[^.\n]*/g, '')}));

    const rowColor = (k) => root.rows[k].label === 'others' ? '#c9ccd1' : PALETTE[k % PALETTE.length];
    const legendButtons = root.rows.map((r, k) => {
      const b = el('button', {type: 'button', class: 'swatch', 'data-row': String(k), 'data-storages': r.storages.join(' '), 'aria-pressed': 'false'},
        el('span', {class: 'chip', style: 'background:' + rowColor(k)}),
        el('span', {text: r.label + (r.names ? ' ' + r.names : '')}),
        el('span', {class: 'row-bytes'}));
      b.addEventListener('click', () => select(r.storages, r.label));
      legend.append(b);
      return b;
    });

    let current = -1, bars = [];
    function draw() {
      const ncols = root.columns.length;
      const lives = root.columns.map((c) => num(c.live, env));
      const cells = root.cells.map((row) => row.map((x) => num(x, env)));
      const peakN = num(fr.peak_live_bytes !== undefined ? fr.peak_live_bytes : null, env);
      const allKnown = lives.every((n) => n.v !== null);
      /* the peak bars: the columns whose live total is the peak's value */
      let peakCols = [];
      if (peakN.v !== null) lives.forEach((n, c) => { if (n.v !== null && n.v === peakN.v) peakCols.push(c); });
      if (peakCols.length === 0 && !root.symbolic) root.columns.forEach((c, k) => { if (c.peak) peakCols.push(k); });
      peakB.textContent = showNum(peakN, true);
      peakB.setAttribute('data-bytes', peakN.v !== null ? peakN.v.toString() : '');
      /* the peak's line in this function: one, or the candidate whose condition holds */
      const pl = fr.peak_line;
      let peakLine = Array.isArray(pl) ? null : pl;
      if (Array.isArray(pl)) {
        for (const cand of pl) if (holds(cand.when, env) === true && (peakLine === null || cand.line < peakLine)) peakLine = cand.line;
      }
      peakB.setAttribute('data-line', peakLine === null || peakLine === undefined ? '' : String(peakLine));
      const bar = peakCols.length ? root.columns[peakCols[0]] : null;
      const barText = bar && bar.line !== peakLine ? ' (its call: line ' + bar.line + ', ' + (bar.event === 'call' ? 'tl_' + bar.op : bar.event) + ')' : '';
      peakWhere.textContent = peakLine ? ' at line ' + peakLine + barText
        : Array.isArray(pl) ? ' at one of lines ' + pl.map((p) => p.line).join(', ') + ', depending on the sizes' : '';
      const ne = fr.not_exact || [];
      const bounds = fr.bounds || {};
      exactNote.textContent = ne.indexOf('peak_live_bytes') >= 0
        ? 'Not exact: ' + (bounds.peak_live_bytes === 'upper' ? 'the run peaks at most this.' : bounds.peak_live_bytes === 'lower' ? 'the run peaks at least this.' : 'a bound (see the warnings below for what could not be followed).')
        : '';
      root.rows.forEach((r, k) => {
        const n = num(r.bytes !== undefined ? r.bytes : null, env);
        legendButtons[k].lastChild.textContent = r.label === 'others' ? ' (' + r.rows + ' smaller storages)'
          : n.text === '?' && root.symbolic ? ' size varies' : ' ' + showNum(n, true);
      });
      /* geometry */
      while (svg.firstChild) svg.firstChild.remove();
      const H = 240, top = 28, left = 64, bottom = 30;
      const barW = Math.max(4, Math.min(28, Math.floor(1100 / Math.max(1, ncols))));
      const W = Math.max(left + ncols * barW + 20, left + ncols * barW / 2 + 160);
      svg.setAttribute('viewBox', '0 0 ' + W + ' ' + (H + top + bottom));
      svg.setAttribute('width', String(W));
      svg.setAttribute('height', String(H + top + bottom));
      let maxv = 0n;
      lives.forEach((n) => { if (n.v !== null && n.v > maxv) maxv = n.v; });
      if (peakN.v !== null && peakN.v > maxv) maxv = peakN.v;
      const scale = (b) => maxv > 0n ? Number((b * 100000n) / maxv) / 100000 * H : 0;
      svg.append(sv('line', {x1: left, y1: top + H, x2: W - 10, y2: top + H, class: 'axis'}));
      const ylab = sv('text', {x: left - 6, y: top + 4, class: 'ylab', 'text-anchor': 'end'});
      ylab.textContent = maxv > 0n ? fmtBytes(maxv) : '';
      svg.append(ylab);
      const y0 = sv('text', {x: left - 6, y: top + H, class: 'ylab', 'text-anchor': 'end'});
      y0.textContent = '0';
      svg.append(y0);
      for (const s of root.spans || []) {
        const x = left + s.first * barW, w = (s.last - s.first + 1) * barW;
        const r = sv('rect', {x: x, y: top - 22 + 6 * s.depth, width: w, height: 4, class: 'span'});
        const t = sv('title', {});
        t.textContent = s.label + ' (' + s.drawn + ' drawn)';
        r.append(t);
        svg.append(r);
      }
      bars = [];
      for (let c = 0; c < ncols; c++) {
        const g = sv('g', {class: 'bar', 'data-col': String(c), 'data-line': String(root.columns[c].line),
                             'data-live': lives[c].v !== null ? lives[c].v.toString() : ''});
        if (peakCols.indexOf(c) >= 0) g.classList.add('peak');
        const x = left + c * barW;
        g.append(sv('rect', {x: x, y: top, width: barW, height: H, class: 'hit'}));
        let y = top + H;
        for (let k = 0; k < root.rows.length; k++) {
          const n = cells[k][c];
          if (n.v === null || n.v <= 0n) {
            if (n.v === null && root.cells[k][c] !== null && root.cells[k][c] !== 0) g.setAttribute('data-incomplete', '1');
            continue;
          }
          const h = scale(n.v);
          y -= h;
          g.append(sv('rect', {x: x + 1, y: y, width: Math.max(1, barW - 2), height: Math.max(0.5, h), fill: rowColor(k),
                               class: 'seg', 'data-row': String(k), 'data-bytes': n.v.toString(),
                               'data-storages': root.rows[k].storages.join(' ')}));
        }
        if (peakCols.indexOf(c) >= 0) {
          const ty = top + H - scale(lives[c].v || 0n) - 4;
          g.append(sv('path', {d: 'M' + (x + barW / 2 - 5) + ' ' + (ty - 8) + ' l10 0 l-5 7 z', class: 'peak-mark'}));
        }
        const on = (ev) => {
          const rect = g.getBoundingClientRect();
          current = c;
          showTip(describeColumn(root, c, lives[c]), ev && ev.pageX !== undefined ? ev.pageX : rect.left + window.scrollX,
                  ev && ev.pageY !== undefined ? ev.pageY : rect.top + window.scrollY);
        };
        g.addEventListener('mousemove', on);
        g.addEventListener('mouseleave', hideTip);
        g.addEventListener('click', (ev) => {
          const seg = ev.target.closest('.seg');
          const k = seg ? Number(seg.getAttribute('data-row')) : -1;
          if (k >= 0) select(root.rows[k].storages, root.rows[k].label);
          else madeHere(c);
        });
        svg.append(g);
        bars.push(g);
      }
      if (peakCols.length > 0) {
        const c = peakCols[0];
        const cx = left + c * barW + barW / 2;
        const anchor = cx + 70 > W ? 'end' : cx - 70 < 0 ? 'start' : 'middle';
        const t = sv('text', {x: cx, y: Math.max(12, top + H - scale(lives[c].v || 0n) - 16), class: 'peak-label', 'text-anchor': anchor});
        t.textContent = 'peak ' + showNum(lives[c], true);
        svg.append(t);
      }
      if (!allKnown) {
        const t = sv('text', {x: left + 8, y: top + 16, class: 'missing'});
        t.textContent = symbols.length ? 'Some bars need a value for every symbol they use (above).' : 'Some bytes are not known statically (see the warnings).';
        svg.append(t);
      }
      highlight(selected);
    }
    function madeHere(c) {
      const col = root.columns[c];
      if (col.storage !== null) {
        const k = root.rows.findIndex((r) => r.storages.indexOf(col.storage) >= 0);
        select(k >= 0 ? root.rows[k].storages : [col.storage], k >= 0 ? root.rows[k].label : 'S' + col.storage);
      }
    }
    function highlight(sel) {
      legendButtons.forEach((b, k) => {
        const on = !!sel && root.rows[k].storages.some((x) => sel.has(x));
        b.setAttribute('aria-pressed', on ? 'true' : 'false');
      });
      svg.classList.toggle('has-sel', !!sel);
      for (const seg of svg.querySelectorAll('.seg')) {
        const ids = seg.getAttribute('data-storages').split(' ').filter((x) => x !== '').map(Number);
        seg.classList.toggle('sel', !!sel && ids.some((x) => sel.has(x)));
      }
      bars.forEach((g, c) => {
        const col = root.columns[c];
        g.classList.toggle('event-sel', !!sel && col.storage !== null && sel.has(col.storage));
      });
    }
    svg.addEventListener('keydown', (e) => {
      const n = root.columns.length;
      if (n === 0) return;
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft' || e.key === 'Home' || e.key === 'End') {
        e.preventDefault();
        current = e.key === 'Home' ? 0 : e.key === 'End' ? n - 1
          : Math.max(0, Math.min(n - 1, current + (e.key === 'ArrowRight' ? 1 : -1)));
        bars.forEach((g, c) => g.classList.toggle('current', c === current));
        const r = bars[current].getBoundingClientRect();
        showTip(describeColumn(root, current, num(root.columns[current].live, env)), r.left + window.scrollX, r.top + window.scrollY);
      } else if (e.key === 'Enter' && current >= 0) {
        madeHere(current);
      }
    });
    svg.addEventListener('blur', hideTip);
    redraws.push(draw);
    highlighters.push(highlight);
  }

  const roots = DATA.roots || [];
  if (roots.length === 0) main.append(el('p', {class: 'empty', text: 'No root function with tensor code was executed: nothing to draw.'}));
  for (const root of roots) {
    const sec = el('section', {class: 'root', id: 'root-' + root.name, 'aria-labelledby': 'root-h-' + root.name});
    sec.append(el('h2', {id: 'root-h-' + root.name, text: root.name + '()'}));
    if (root.symbolic) {
      const d = el('details', {class: 'summary'}, el('summary', {text: 'The totals as formulas'}));
      d.append(el('p', {class: 'formula', text: root.summary}));
      sec.append(d);
    } else sec.append(el('p', {class: 'summary', text: root.summary}));
    drawRoot(root, sec);
    main.append(sec);
  }

  /* ---- the source, annotated ---- */

  const diags = REPORT.diagnostics || [];
  const fixits = DATA.fixits || [];
  const byLine = new Map();
  const addAt = (line, what) => { if (!byLine.has(line)) byLine.set(line, {values: [], diags: []}); byLine.get(line)[what.kind].push(what.item); };
  for (const v of values.values()) addAt(v.line, {kind: 'values', item: v});
  diags.forEach((d, k) => addAt(d.line, {kind: 'diags', item: {d: d, fix: fixits[k] || []}}));

  const srcSec = el('section', {id: 'source', 'aria-labelledby': 'source-h'});
  srcSec.append(el('h2', {id: 'source-h', text: 'Source'}));
  const nerr = diags.filter((d) => d.severity === 'error').length, nwarn = diags.filter((d) => d.severity === 'warning').length;
  srcSec.append(el('p', {text: nerr + ' error' + (nerr === 1 ? '' : 's') + ', ' + nwarn + ' warning' + (nwarn === 1 ? '' : 's') + ' at their lines. Each tensor line says its shape, its bytes and whether it viewed or copied.'}));
  const lineEls = new Map();
  const annots = [];
  if (DATA.source === null || DATA.source === undefined) {
    srcSec.append(el('p', {class: 'empty', text: 'The source could not be read when the page was written.'}));
  } else {
    const ol = el('ol', {class: 'code'});
    DATA.source.replace(/\r\n/g, '\n').split('\n').forEach((text, k) => {
      const line = k + 1;
      const li = el('li', {id: 'L' + line, 'data-line': String(line)});
      li.append(el('span', {class: 'ln', 'aria-hidden': 'true', text: String(line)}), el('code', {class: 'src', text: text}));
      const at = byLine.get(line);
      if (at) {
        for (const v of at.values) {
          const b = el('button', {type: 'button', class: 'annot annot-' + (v.kind || 'unknown'), 'data-value': String(v.id), 'data-storage': v.storage === null ? '' : String(v.storage)});
          b.addEventListener('click', () => { if (v.storage !== null && v.storage !== undefined) select([v.storage], 'line ' + v.line); });
          annots.push({b: b, v: v});
          li.append(b);
        }
        for (const x of at.diags) {
          const d = x.d;
          const box = el('div', {class: 'diag diag-' + d.severity, role: 'note'});
          box.append(el('span', {class: 'sev', text: d.severity}), ' ', el('span', {text: d.message}), ' ', el('span', {class: 'check', text: '[' + d.check + ']'}));
          for (const n of d.notes || []) box.append(el('div', {class: 'note', text: 'note: line ' + n.line + ': ' + n.message}));
          for (const f of x.fix) box.append(el('div', {class: 'fixit'}, 'fix-it: line ' + f.line + ':' + f.column + '\u2013' + f.end_line + ':' + f.end_column + ' \u2192 ', el('code', {text: f.text})));
          li.append(box);
        }
      }
      ol.append(li);
      lineEls.set(line, li);
    });
    srcSec.append(ol);
  }
  main.append(srcSec);
  redraws.push(() => {
    for (const a of annots) {
      const v = a.v;
      const shape = v.shape ? '(' + v.shape.map((d) => showNum(num(d, env), false)).join(', ') + (v.shape.length === 1 ? ',' : '') + ')' : '?';
      let what;
      if (v.kind === 'view') what = 'view of S' + v.storage;
      else if (v.kind === 'new') {
        const b = num(valueBytes(v), env);
        a.b.setAttribute('data-bytes', b.v !== null ? b.v.toString() : '');
        what = showNum(b, true) + ' new (S' + v.storage + ')';
      } else what = v.kind || 'unknown';
      a.b.textContent = (v.name || 'tl_' + v.op) + ': ' + shape + ' ' + (v.dtype || '') + ' \u00b7 ' + what +
        (v.reason && v.kind === 'new' && /copy|copied/.test(v.reason) ? ' (' + v.reason + ')' : '');
      a.b.title = v.reason || '';
    }
  });
  highlighters.push((sel) => {
    for (const li of lineEls.values()) li.classList.remove('hl-alloc', 'hl-view', 'hl-free');
    for (const a of annots) a.b.classList.toggle('sel', !!sel && sel.has(a.v.storage));
    if (!sel) return;
    for (const id of sel) {
      const s = storages.get(id);
      if (!s) continue;
      if (lineEls.has(s.alloc_line)) lineEls.get(s.alloc_line).classList.add('hl-alloc');
      if (s.free_line && lineEls.has(s.free_line)) lineEls.get(s.free_line).classList.add('hl-free');
    }
    for (const a of annots) if (sel.has(a.v.storage) && a.v.kind === 'view' && lineEls.has(a.v.line)) lineEls.get(a.v.line).classList.add('hl-view');
  });

  /* ---- the dataflow graphs ---- */

  /* The SVG as an element with nothing active in it: no script, no
   * foreignObject, no event handler, no link. */
  function safeSvg(text) {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const svg = doc.documentElement;
    if (!svg || svg.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length) return null;
    for (const bad of [...svg.querySelectorAll('script, foreignObject, iframe, a, use, animate, set')]) {
      if (bad.nodeName === 'a') bad.replaceWith(...bad.childNodes); else bad.remove();
    }
    for (const n of [svg, ...svg.querySelectorAll('*')]) {
      for (const at of [...n.attributes]) {
        const nm = at.name.toLowerCase();
        if (nm.startsWith('on') || nm === 'href' || nm.endsWith(':href') || nm === 'style') n.removeAttribute(at.name);
      }
    }
    return document.importNode(svg, true);
  }
  const gSec = el('section', {id: 'graphs', 'aria-labelledby': 'graphs-h'});
  gSec.append(el('h2', {id: 'graphs-h', text: 'Dataflow'}));
  for (const root of roots) {
    const det = el('details', {open: ''});
    det.append(el('summary', {text: root.name + '(): one box per storage, one node per call; click a box or a node to select its storage'}));
    const holder = el('div', {class: 'graph'});
    const svg = root.svg ? safeSvg(root.svg) : null;
    if (svg) {
      holder.append(svg);
      const nodeStorage = (g) => {
        const t = g.querySelector('title');
        const name = t ? t.textContent : '';
        let m = /^cluster_s(\d+)$/.exec(name);
        if (m) return Number(m[1]);
        m = /^v(\d+)$/.exec(name);
        if (m && values.has(Number(m[1]))) return values.get(Number(m[1])).storage;
        return null;
      };
      const items = [...svg.querySelectorAll('g.node, g.cluster')].map((g) => ({g: g, s: nodeStorage(g)})).filter((x) => x.s !== null && x.s !== undefined);
      for (const it of items) {
        it.g.setAttribute('tabindex', '0');
        it.g.setAttribute('role', 'button');
        it.g.setAttribute('data-storage', String(it.s));
        const act = (e) => { e.stopPropagation(); select([it.s], 'graph'); };
        it.g.addEventListener('click', act);
        it.g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); act(e); } });
      }
      highlighters.push((sel) => {
        svg.classList.toggle('has-sel', !!sel);
        for (const it of items) it.g.classList.toggle('sel', !!sel && sel.has(it.s));
      });
    } else {
      holder.append(el('p', {class: 'empty', text: 'The graph could not be drawn' + (root.graph_error ? ': ' + root.graph_error : '.')}));
    }
    det.append(holder);
    gSec.append(det);
  }
  main.append(gSec);
  main.append(el('footer', {text: 'Written by tensorlint report --format=html. Sizes are computed from the program, not measured: ' +
    'a bar or number marked as a bound is one; the warnings say what could not be followed.'}));

  function redraw() { for (const f of redraws) f(); }
  redraw();
  document.documentElement.setAttribute('data-ready', '1');
})();
