'use strict';
// Tidy CSV: import a CSV, clean it step by step (every step undoable), export it. The file name,
// notices and the whole step history are kept in localStorage.
const STORE = 'tidy-csv-v1';
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const cell = (v) => (v == null ? '' : String(v));
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const isEmpty = (v) => cell(v).trim() === '';

// history[0] is the imported table; history[1..pos] are the applied steps, the rest undone ones
const state = { file: '', notices: [], history: [], pos: 0, msg: '' };
const current = () => state.history[state.pos]?.table || null;
const STEPS = {};   // name -> (table) => {table, label} | {error}
const TOOLS = [];   // {group, html}: the controls each cleaning feature contributes
const HISTORY = []; // html of the undo / redo buttons

// ------------------------------------------------------------------ reading files
function decode(buf) {
  let text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(buf);
  const notices = [];
  /* @feature bom */
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
    notices.push('Byte-order mark removed');
  }
  /* @end bom */
  /* @broken bom */
  if (text.charCodeAt(0) === 0xfeff) notices.push('Byte-order mark removed');
  /* @end bom */
  return { text, notices };
}

let parseCsv = (text) => text.split(/\r?\n/).filter((l) => l !== '').map((l) => l.split(','));
/* @feature quotes */
parseCsv = (text) => {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') { field += '"'; i += 1; }
      else quoted = false;
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
};
/* @end quotes */
/* @broken quotes */
parseCsv = (text) => {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else quoted = false;
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
};
/* @end quotes */

function shape(parsed, notices) {
  const cols = (parsed[0] || []).map(cell);
  let rows = parsed.slice(1).map((r) => r.map((v) => cell(v).replace(/\r/g, '')));
  /* @feature ragged */
  let ragged = 0;
  rows = rows.map((r) => {
    if (r.length === cols.length) return r;
    ragged += 1;
    return r.length < cols.length ? r.concat(Array(cols.length - r.length).fill('')) : r.slice(0, cols.length);
  });
  if (ragged) notices.push(`${plural(ragged, 'ragged row')} fixed`);
  /* @end ragged */
  /* @broken ragged */
  let ragged = 0;
  rows = rows.map((r) => {
    if (r.length >= cols.length) { if (r.length > cols.length) ragged += 1; return r; }
    ragged += 1;
    return r.concat(Array(cols.length - r.length).fill(''));
  });
  if (ragged) notices.push(`${plural(ragged, 'ragged row')} fixed`);
  /* @end ragged */
  return { cols, rows };
}

function importBuffer(name, buf) {
  const { text, notices } = decode(buf);
  const table = shape(parseCsv(text), notices);
  state.file = name;
  state.notices = notices;
  state.history = [{ label: null, table }];
  state.pos = 0;
  state.msg = '';
  commit();
}

// ------------------------------------------------------------------ cleaning steps
const changed = (a, b) => JSON.stringify(a) !== JSON.stringify(b);

function runStep(name) {
  const fn = STEPS[name];
  const before = current();
  if (!fn || !before) return;
  const out = fn(before);
  if (out.error) { state.msg = out.error; render(); return; }
  /* @feature noop */
  if (!changed(out.table, before)) { state.msg = 'Nothing to change.'; render(); return; }
  /* @end noop */
  state.history = state.history.slice(0, state.pos + 1);
  state.history.push({ label: out.label, table: out.table });
  state.pos += 1;
  state.msg = '';
  commit();
}

/* @feature trim */
TOOLS.push({ group: 'quick', html: '<button type="button" data-step="trim">Trim whitespace</button>' });
STEPS.trim = (t) => {
  let n = 0;
  const rows = t.rows.map((r) => r.map((v) => {
    const s = cell(v).trim();
    if (s !== cell(v)) n += 1;
    return s;
  }));
  return { table: { cols: t.cols.map((c) => c.trim()), rows }, label: `Trim whitespace: ${plural(n, 'cell')}` };
};
/* @end trim */
/* @broken trim */
TOOLS.push({ group: 'quick', html: '<button type="button" data-step="trim">Trim whitespace</button>' });
STEPS.trim = (t) => {
  let n = 0;
  const rows = t.rows.map((r) => r.map((v) => {
    const s = cell(v).replace(/^\s+/, '');
    if (s !== cell(v)) n += 1;
    return s;
  }));
  return { table: { cols: t.cols.map((c) => c.replace(/^\s+/, '')), rows }, label: `Trim whitespace: ${plural(n, 'cell')}` };
};
/* @end trim */

/* @feature header-case */
TOOLS.push({ group: 'quick', html: '<button type="button" data-step="header">Fix header case</button>' });
STEPS.header = (t) => {
  const fix = (name) => name.trim().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').split(' ')
    .map((w) => (w ? w[0].toUpperCase() + w.slice(1).toLowerCase() : w)).join(' ');
  const cols = t.cols.map(fix);
  const n = cols.filter((c, i) => c !== t.cols[i]).length;
  return { table: { cols, rows: t.rows }, label: `Fix header case: ${plural(n, 'header')}` };
};
/* @end header-case */
/* @broken header-case */
TOOLS.push({ group: 'quick', html: '<button type="button" data-step="header">Fix header case</button>' });
STEPS.header = (t) => {
  const fix = (name) => name.trim().replace(/_/g, ' ').split(' ')
    .map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w)).join(' ');
  const cols = t.cols.map(fix);
  const n = cols.filter((c, i) => c !== t.cols[i]).length;
  return { table: { cols, rows: t.rows }, label: `Fix header case: ${plural(n, 'header')}` };
};
/* @end header-case */

/* @feature dedupe */
TOOLS.push({ group: 'quick', html: '<button type="button" data-step="dedupe">Remove duplicates</button>' });
STEPS.dedupe = (t) => {
  const key = (r) => JSON.stringify(r.map((v) => cell(v).trim().replace(/\s+/g, ' ').toLowerCase()));
  const seen = new Set();
  const rows = t.rows.filter((r) => {
    const k = key(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { table: { cols: t.cols, rows }, label: `Remove duplicates: ${plural(t.rows.length - rows.length, 'row')}` };
};
/* @end dedupe */
/* @broken dedupe */
TOOLS.push({ group: 'quick', html: '<button type="button" data-step="dedupe">Remove duplicates</button>' });
STEPS.dedupe = (t) => {
  const key = (r) => JSON.stringify(r.map((v) => cell(v).trim().replace(/\s+/g, ' ')));
  const seen = new Set();
  const rows = t.rows.filter((r) => {
    const k = key(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { table: { cols: t.cols, rows }, label: `Remove duplicates: ${plural(t.rows.length - rows.length, 'row')}` };
};
/* @end dedupe */

// the Column selector of the empty-cell tools: 'all' or a column index
function chosenColumns(t) {
  const v = $('empty-col')?.value ?? 'all';
  return v === 'all' ? t.cols.map((_, i) => i) : [Number(v)];
}

/* @feature fill */
TOOLS.push({ group: 'empty', html: `<div class="field"><label for="fill-value">Fill value</label>
  <input id="fill-value" type="text" autocomplete="off"></div>
  <button type="button" data-step="fill">Fill empty cells</button>` });
STEPS.fill = (t) => {
  const value = $('fill-value').value;
  /* @feature validation */
  if (!value.trim()) return { error: 'Enter a fill value.' };
  /* @end validation */
  /* @broken validation */
  if (!value) return { error: 'Enter a fill value.' };
  /* @end validation */
  const idx = chosenColumns(t);
  let n = 0;
  const rows = t.rows.map((r) => {
    const out = r.slice();
    idx.forEach((i) => { if (isEmpty(out[i])) { out[i] = value; n += 1; } });
    return out;
  });
  return { table: { cols: t.cols, rows }, label: `Fill empty cells: ${plural(n, 'cell')}` };
};
/* @end fill */
/* @broken fill */
TOOLS.push({ group: 'empty', html: `<div class="field"><label for="fill-value">Fill value</label>
  <input id="fill-value" type="text" autocomplete="off"></div>
  <button type="button" data-step="fill">Fill empty cells</button>` });
STEPS.fill = (t) => {
  const value = $('fill-value').value;
  if (!value.trim()) return { error: 'Enter a fill value.' };
  const idx = chosenColumns(t);
  let n = 0;
  const rows = t.rows.map((r) => {
    const out = r.slice();
    idx.forEach((i) => { if (cell(out[i]) === '') { out[i] = value; n += 1; } });
    return out;
  });
  return { table: { cols: t.cols, rows }, label: `Fill empty cells: ${plural(n, 'cell')}` };
};
/* @end fill */

/* @feature drop */
TOOLS.push({ group: 'empty', html: '<button type="button" data-step="drop">Drop rows with empty cells</button>' });
STEPS.drop = (t) => {
  const idx = chosenColumns(t);
  const rows = t.rows.filter((r) => !idx.some((i) => isEmpty(r[i])));
  return { table: { cols: t.cols, rows }, label: `Drop rows with empty cells: ${plural(t.rows.length - rows.length, 'row')}` };
};
/* @end drop */
/* @broken drop */
TOOLS.push({ group: 'empty', html: '<button type="button" data-step="drop">Drop rows with empty cells</button>' });
STEPS.drop = (t) => {
  const idx = chosenColumns(t);
  const rows = t.rows.filter((r) => !idx.some((i) => cell(r[i]) === ''));
  return { table: { cols: t.cols, rows }, label: `Drop rows with empty cells: ${plural(t.rows.length - rows.length, 'row')}` };
};
/* @end drop */

/* @feature split */
TOOLS.push({ group: 'split', html: `<div class="field"><label for="split-col">Column to split</label>
  <select id="split-col"></select></div>
  <div class="field narrow"><label for="separator">Separator</label>
  <input id="separator" type="text" value=" " autocomplete="off"></div>
  <button type="button" data-step="split">Split column</button>` });
STEPS.split = (t) => {
  const sep = $('separator').value;
  /* @feature validation */
  if (sep === '') return { error: 'Enter a separator.' };
  /* @end validation */
  /* @broken validation */
  if (sep === '') return { error: 'Enter a separator.' };
  /* @end validation */
  const i = Number($('split-col').value) || 0;
  const name = t.cols[i];
  const cols = [...t.cols.slice(0, i), `${name} 1`, `${name} 2`, ...t.cols.slice(i + 1)];
  const rows = t.rows.map((r) => {
    const v = cell(r[i]).trim();
    const k = v.indexOf(sep);
    const parts = k < 0 ? [v, ''] : [v.slice(0, k).trim(), v.slice(k + sep.length).trim()];
    return [...r.slice(0, i), ...parts, ...r.slice(i + 1)];
  });
  return { table: { cols, rows }, label: `Split column: ${name}` };
};
/* @end split */
/* @broken split */
TOOLS.push({ group: 'split', html: `<div class="field"><label for="split-col">Column to split</label>
  <select id="split-col"></select></div>
  <div class="field narrow"><label for="separator">Separator</label>
  <input id="separator" type="text" value=" " autocomplete="off"></div>
  <button type="button" data-step="split">Split column</button>` });
STEPS.split = (t) => {
  const sep = $('separator').value;
  if (sep === '') return { error: 'Enter a separator.' };
  const i = Number($('split-col').value) || 0;
  const name = t.cols[i];
  const cols = [...t.cols.slice(0, i), `${name} 1`, `${name} 2`, ...t.cols.slice(i + 1)];
  const rows = t.rows.map((r) => {
    const v = cell(r[i]);
    const k = v.indexOf(sep);
    const parts = k < 0 ? [v, ''] : [v.slice(0, k), v.slice(k + sep.length)];
    return [...r.slice(0, i), ...parts, ...r.slice(i + 1)];
  });
  return { table: { cols, rows }, label: `Split column: ${name}` };
};
/* @end split */

// ------------------------------------------------------------------ undo / redo
const ACTIONS = {};
/* @feature undo */
HISTORY.push('<button type="button" id="undo" data-act="undo">Undo</button>');
ACTIONS.undo = () => {
  if (state.pos === 0) return;
  state.pos -= 1;
  state.msg = '';
  commit();
};
/* @end undo */
/* @broken undo */
HISTORY.push('<button type="button" id="undo" data-act="undo">Undo</button>');
ACTIONS.undo = () => {
  if (state.pos === 0) return;
  state.pos = 0;
  state.msg = '';
  commit();
};
/* @end undo */
/* @feature redo */
HISTORY.push('<button type="button" id="redo" data-act="redo">Redo</button>');
ACTIONS.redo = () => {
  if (state.pos >= state.history.length - 1) return;
  state.pos += 1;
  state.msg = '';
  commit();
};
/* @end redo */
/* @broken redo */
HISTORY.push('<button type="button" id="redo" data-act="redo">Redo</button>');
ACTIONS.redo = () => {
  if (state.pos >= state.history.length - 1) return;
  state.pos = state.history.length - 1;
  state.msg = '';
  commit();
};
/* @end redo */

/* @feature shortcuts */
document.addEventListener('keydown', (e) => {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
  const el = e.target;
  if (el && (el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && el.type !== 'file' && el.type !== 'button'))) return;
  const key = e.key.toLowerCase();
  const act = key === 'z' && !e.shiftKey ? 'undo' : (key === 'y' || (key === 'z' && e.shiftKey)) ? 'redo' : null;
  if (!act || !ACTIONS[act]) return;
  e.preventDefault();
  ACTIONS[act]();
});
/* @end shortcuts */

// ------------------------------------------------------------------ export
let quoteField = (v) => v;
/* @feature export-quotes */
quoteField = (v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
/* @end export-quotes */
/* @broken export-quotes */
quoteField = (v) => (/[,\r\n]/.test(v) ? `"${v}"` : v);
/* @end export-quotes */

const toCsv = (t) => [t.cols, ...t.rows].map((r) => r.map((v) => quoteField(cell(v))).join(',')).join('\n');
const exportName = (file) => (/\.csv$/i.test(file) ? file.replace(/\.csv$/i, '-clean.csv') : `${file}-clean.csv`);

/* @feature download */
window.renderDownload = (text) => {
  const box = $('export-actions');
  if (!box.firstChild) box.innerHTML = '<a id="download" class="button primary" href="#">Download CSV</a>';
  const a = $('download');
  a.href = `data:text/csv;charset=utf-8,${encodeURIComponent(text)}`;
  a.download = exportName(state.file);
};
/* @end download */
/* @broken download */
window.renderDownload = (text) => {
  const box = $('export-actions');
  if (!box.firstChild) box.innerHTML = '<a id="download" class="button primary" href="#">Download CSV</a>';
  const a = $('download');
  a.href = `data:text/csv;charset=utf-8,${encodeURIComponent(text)}`;
  a.download = state.file;
};
/* @end download */

// ------------------------------------------------------------------ persistence
function save() {
  /* @feature persist */
  try {
    localStorage.setItem(STORE, JSON.stringify({ file: state.file, notices: state.notices,
      history: state.history, pos: state.pos }));
  } catch (e) { /* storage full or unavailable: keep working in memory */ }
  /* @end persist */
}

function restore() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && Array.isArray(saved.history) && saved.history.length) {
      state.file = saved.file || '';
      state.notices = saved.notices || [];
      state.history = saved.history;
      state.pos = Math.min(Math.max(0, saved.pos | 0), saved.history.length - 1);
    }
  } catch (e) { /* unreadable storage: start empty */ }
  /* @end persist */
}

// ------------------------------------------------------------------ rendering
function fillSelect(sel, t, withAll) {
  if (!sel) return;
  const prev = sel.selectedOptions[0]?.textContent;
  const opts = (withAll ? ['<option value="all">All columns</option>'] : [])
    .concat(t.cols.map((c, i) => `<option value="${i}">${esc(c)}</option>`));
  sel.innerHTML = opts.join('');
  const again = [...sel.options].find((o) => o.textContent === prev);
  if (again) sel.value = again.value;
}

function buildTools() {
  const group = (g) => TOOLS.filter((x) => x.group === g).map((x) => x.html).join('');
  let h = '';
  if (group('quick')) h += `<div class="tool-row">${group('quick')}</div>`;
  if (group('empty')) {
    h += `<fieldset class="tool-group"><legend>Empty cells</legend>
      <div class="field"><label for="empty-col">Column</label><select id="empty-col"></select></div>
      ${group('empty')}</fieldset>`;
  }
  if (group('split')) h += `<fieldset class="tool-group"><legend>Split a column</legend>${group('split')}</fieldset>`;
  $('tools').innerHTML = h;
  $('history-row').innerHTML = HISTORY.join('');
}

function render() {
  const t = current();
  const emptyState = $('empty');
  if (emptyState) emptyState.hidden = !!t;
  $('workspace').hidden = !t;
  $('notices').innerHTML = state.notices.map((n) => `<li>${esc(n)}</li>`).join('');
  if (!t) { $('summary').textContent = ''; return; }
  /* @feature summary */
  $('summary').textContent = `${state.file}: ${plural(t.rows.length, 'row')}, ${plural(t.cols.length, 'column')}`;
  /* @end summary */
  /* @broken summary */
  $('summary').textContent = `${state.file}: ${plural(t.rows.length + 1, 'row')}, ${plural(t.cols.length, 'column')}`;
  /* @end summary */
  $('thead').innerHTML = `<tr>${t.cols.map((c) => `<th scope="col">${esc(c)}</th>`).join('')}</tr>`;
  $('tbody').innerHTML = t.rows.map((r) => `<tr>${r.map((v) => `<td${isEmpty(v) ? ' class="blank"' : ''}>${esc(cell(v))}</td>`).join('')}</tr>`).join('');
  const steps = state.history.slice(1, state.pos + 1);
  $('steps').innerHTML = steps.map((s) => `<li>${esc(s.label)}</li>`).join('');
  $('no-steps').hidden = steps.length > 0;
  fillSelect($('empty-col'), t, true);
  fillSelect($('split-col'), t, false);
  if ($('undo')) $('undo').disabled = state.pos === 0;
  if ($('redo')) $('redo').disabled = state.pos >= state.history.length - 1;
  const text = toCsv(t);
  $('export-text').value = text;
  window.renderDownload?.(text);
  $('msg').textContent = state.msg;
}

function commit() {
  save();
  render();
}

// ------------------------------------------------------------------ wiring
$('file').addEventListener('change', (e) => {
  const f = e.target.files && e.target.files[0];
  if (!f) return;
  f.arrayBuffer().then((buf) => {
    importBuffer(f.name, buf);
    e.target.value = '';
  });
});
/* @feature sample */
$('load-sample').addEventListener('click', () => {
  fetch('data/sample.csv').then((r) => r.arrayBuffer()).then((buf) => importBuffer('sample.csv', buf));
});
/* @end sample */
$('tools').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-step]');
  if (btn) runStep(btn.dataset.step);
});
$('history-row').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-act]');
  if (btn && ACTIONS[btn.dataset.act]) ACTIONS[btn.dataset.act]();
});

buildTools();
restore();
render();
