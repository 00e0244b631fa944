'use strict';
// Pixel Pad: an N x N pixel drawing on a canvas, palette from data/palette.json, the saved
// drawing from data/drawing.json on the first visit, then localStorage.
const STORE = 'pixel-pad-v1';
const CELL = 20;   // canvas pixels per cell
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

const state = {
  n: 16, title: 'Untitled', palette: [], notices: [], pixels: [],
  colour: null, tool: 'pencil', cx: 0, cy: 0, past: [], future: [],
};
const TOOLS = [];      // {id, label, apply(x, y) -> changed cells or false}
const HISTORY = [];    // html of the history buttons
const ACTIONS = {};    // history / clear actions by name
const copy = (px) => px.map((r) => r.slice());
const painted = () => state.pixels.slice(0, state.n).reduce((a, r) => a + r.slice(0, state.n).filter(Boolean).length, 0);
const blank = (n) => Array.from({ length: n }, () => Array(n).fill(null));

// ------------------------------------------------------------------ data
function normHex(h) {
  const s = String(h ?? '').trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(s)) return s;
  if (/^#[0-9a-f]{3}$/.test(s)) return '#' + [...s.slice(1)].map((c) => c + c).join('');
  return null;
}

function loadPalette(raw) {
  const out = [];
  (raw.colors || []).forEach((c) => {
    let hex = normHex(c.hex);
    /* @feature palette-invalid */
    if (!hex) { state.notices.push(`Skipped invalid colour ${c.name} (${c.hex})`); return; }
    /* @end palette-invalid */
    hex = hex || String(c.hex);
    /* @feature palette-dupes */
    if (out.some((p) => p.hex === hex)) { state.notices.push(`Skipped duplicate colour ${c.name} (${c.hex})`); return; }
    /* @end palette-dupes */
    /* @broken palette-dupes */
    if (out.some((p) => p.raw === c.hex)) { state.notices.push(`Skipped duplicate colour ${c.name} (${c.hex})`); return; }
    /* @end palette-dupes */
    out.push({ name: c.name, hex, raw: c.hex });
  });
  return out;
}

function loadDrawing(d) {
  const n = state.n;
  let px = (d.rows || []).map((row) => [...row].map((ch) => normHex(d.legend?.[ch]) || null));
  /* @feature crop */
  const w = d.width || Math.max(0, ...px.map((r) => r.length));
  const h = d.height || px.length;
  if (w > n || h > n) state.notices.push(`Drawing cropped from ${w} × ${h} to ${n} × ${n}`);
  px = Array.from({ length: n }, (_, y) => Array.from({ length: n }, (__, x) => px[y]?.[x] ?? null));
  /* @end crop */
  /* @broken crop */
  const w = d.width || Math.max(0, ...px.map((r) => r.length));
  const h = d.height || px.length;
  if (w > n || h > n) state.notices.push(`Drawing cropped from ${w} × ${h} to ${n} × ${n}`);
  px = px.map((r) => Array.from({ length: n }, (__, x) => r[x] ?? null));
  /* @end crop */
  return px;
}

// ------------------------------------------------------------------ steps and history
function step(mutate) {
  const before = copy(state.pixels);
  mutate();
  if (JSON.stringify(before) === JSON.stringify(state.pixels)) return false;
  state.past.push(before);
  state.future = [];
  return true;
}

const inGrid = (x, y) => x >= 0 && y >= 0 && x < state.n && y < state.n;

/* @feature pencil */
TOOLS.push({ id: 'pencil', label: 'Pencil', key: 'p', apply: (x, y) => { state.pixels[y][x] = state.colour?.hex ?? null; } });
/* @end pencil */
/* @broken pencil */
TOOLS.push({ id: 'pencil', label: 'Pencil', key: 'p', apply: (x, y) => { state.pixels[x][y] = state.colour?.hex ?? null; } });
/* @end pencil */
/* @feature fill */
TOOLS.push({ id: 'fill', label: 'Fill', key: 'f', apply: (x, y) => {
  const target = state.pixels[y][x];
  const colour = state.colour?.hex ?? null;
  if (target === colour) return;
  const todo = [[x, y]];
  while (todo.length) {
    const [a, b] = todo.pop();
    if (!inGrid(a, b) || state.pixels[b][a] !== target) continue;
    state.pixels[b][a] = colour;
    todo.push([a + 1, b], [a - 1, b], [a, b + 1], [a, b - 1]);
  }
} });
/* @end fill */
/* @broken fill */
TOOLS.push({ id: 'fill', label: 'Fill', key: 'f', apply: (x, y) => {
  const target = state.pixels[y][x];
  const colour = state.colour?.hex ?? null;
  state.pixels = state.pixels.map((r) => r.map((v) => (v === target ? colour : v)));
} });
/* @end fill */
/* @feature eraser */
TOOLS.push({ id: 'eraser', label: 'Eraser', key: 'e', apply: (x, y) => { state.pixels[y][x] = null; } });
/* @end eraser */
/* @broken eraser */
TOOLS.push({ id: 'eraser', label: 'Eraser', key: 'e', apply: (x, y) => { state.pixels[y][x] = '#ffffff'; } });
/* @end eraser */

const toolOf = (id) => TOOLS.find((t) => t.id === id) || null;

function applyAt(x, y) {
  const tool = toolOf(state.tool);
  if (!tool || !inGrid(x, y)) return;
  if (step(() => tool.apply(x, y))) commit();
}

/* @feature undo */
HISTORY.push('<button type="button" id="undo" data-act="undo">Undo</button>');
ACTIONS.undo = () => {
  if (!state.past.length) return;
  state.future.push(copy(state.pixels));
  state.pixels = state.past.pop();
  commit();
};
/* @end undo */
/* @broken undo */
HISTORY.push('<button type="button" id="undo" data-act="undo">Undo</button>');
ACTIONS.undo = () => {
  if (!state.past.length) return;
  state.future = [copy(state.pixels)];
  state.pixels = state.past.pop();
  state.past = [];
  commit();
};
/* @end undo */
/* @feature redo */
HISTORY.push('<button type="button" id="redo" data-act="redo">Redo</button>');
ACTIONS.redo = () => {
  if (!state.future.length) return;
  state.past.push(copy(state.pixels));
  state.pixels = state.future.pop();
  commit();
};
/* @end redo */
/* @broken redo */
HISTORY.push('<button type="button" id="redo" data-act="redo">Redo</button>');
ACTIONS.redo = () => {
  if (!state.future.length) return;
  state.past.push(copy(state.pixels));
  state.pixels = state.future.shift();
  commit();
};
/* @end redo */
/* @feature clear */
HISTORY.push('<button type="button" id="clear" data-act="clear" class="danger">Clear</button>');
ACTIONS.clear = () => { if (step(() => { state.pixels = blank(state.n); })) commit(); };
/* @end clear */
/* @broken clear */
HISTORY.push('<button type="button" id="clear" data-act="clear" class="danger">Clear</button>');
ACTIONS.clear = () => { state.pixels = blank(state.n); state.past = []; state.future = []; commit(); };
/* @end clear */

// ------------------------------------------------------------------ cursor
function moveCursor(x, y) {
  state.cx = x;
  state.cy = y;
  $('cursor-msg').textContent = '';
  render();
}

function fromFields() {
  const x = Number($('cx').value);
  const y = Number($('cy').value);
  const ok = (v) => Number.isInteger(v) && v >= 0 && v < state.n;
  /* @feature range-check */
  if ($('cx').value === '' || $('cy').value === '' || !ok(x) || !ok(y)) {
    $('cursor-msg').textContent = `X and Y must be between 0 and ${state.n - 1}.`;
    return;
  }
  /* @end range-check */
  /* @broken range-check */
  if (!ok(x) || !ok(y)) {
    const clamp = (v) => Math.min(state.n - 1, Math.max(0, Math.round(v) || 0));
    moveCursor(clamp(x), clamp(y));
    return;
  }
  /* @end range-check */
  moveCursor(x, y);
}

// ------------------------------------------------------------------ rendering
function drawCanvas() {
  const c = $('canvas');
  const n = state.n;
  if (c.width !== n * CELL) { c.width = n * CELL; c.height = n * CELL; }
  const g = c.getContext('2d');
  g.clearRect(0, 0, c.width, c.height);
  /* @feature render */
  for (let y = 0; y < n; y += 1) {
    for (let x = 0; x < n; x += 1) {
      const v = state.pixels[y]?.[x];
      if (v) { g.fillStyle = v; g.fillRect(x * CELL, y * CELL, CELL, CELL); }
    }
  }
  /* @end render */
  /* @broken render */
  for (let y = 0; y < n; y += 1) {
    for (let x = 0; x < n; x += 1) {
      const v = state.pixels[y]?.[x];
      if (v) { g.fillStyle = v; g.fillRect(y * CELL, x * CELL, CELL, CELL); }
    }
  }
  /* @end render */
  g.fillStyle = 'rgba(40, 52, 70, 0.18)';
  for (let i = 1; i < n; i += 1) {
    g.fillRect(i * CELL, 0, 1, c.height);
    g.fillRect(0, i * CELL, c.width, 1);
  }
  g.strokeStyle = '#ff6d00';
  g.lineWidth = 2;
  g.strokeRect(state.cx * CELL + 1, state.cy * CELL + 1, CELL - 2, CELL - 2);
}

function pngUrl() {
  const n = state.n;
  const off = document.createElement('canvas');
  off.width = n;
  off.height = n;
  const g = off.getContext('2d');
  state.pixels.forEach((row, y) => row.forEach((v, x) => { if (v) { g.fillStyle = v; g.fillRect(x, y, 1, 1); } }));
  return off.toDataURL('image/png');
}

function render() {
  /* @feature title */
  $('title-h').textContent = state.title;
  /* @end title */
  $('notices').innerHTML = state.notices.map((m) => `<li>${esc(m)}</li>`).join('');
  $('tools').innerHTML = TOOLS.map((t) => `<button type="button" data-tool="${t.id}" aria-pressed="${state.tool === t.id}">${t.label}</button>`).join('');
  $('palette').innerHTML = state.palette.map((p, i) => `<li><button type="button" class="swatch" data-colour="${i}"
    aria-label="${esc(p.name)}" title="${esc(p.name)} ${esc(p.hex)}" aria-pressed="${state.colour?.hex === p.hex}"
    style="--c:${esc(p.hex)}"></button></li>`).join('');
  const colourLine = $('colour');
  if (colourLine) colourLine.textContent = state.colour ? `Colour: ${state.colour.name} (${state.colour.hex})` : '';
  drawCanvas();
  const v = state.pixels[state.cy]?.[state.cx];
  $('readout').textContent = `Cell (${state.cx},${state.cy}): ${v || 'empty'}`;
  $('count').textContent = `Painted cells: ${painted()}`;
  if (document.activeElement !== $('cx')) $('cx').value = state.cx;
  if (document.activeElement !== $('cy')) $('cy').value = state.cy;
  $('cx').max = state.n - 1;
  $('cy').max = state.n - 1;
  if ($('undo')) $('undo').disabled = !state.past.length;
  if ($('redo')) $('redo').disabled = !state.future.length;
  window.renderPng?.();
  window.renderJson?.();
}

/* @feature png */
window.renderPng = () => {
  const box = $('png-box');
  if (!box.firstChild) box.innerHTML = '<a id="png" class="button primary" href="#">Download PNG</a>';
  $('png').href = pngUrl();
  $('png').download = `${state.title.toLowerCase()}.png`;
};
/* @end png */
/* @broken png */
window.renderPng = () => {
  const box = $('png-box');
  if (!box.firstChild) box.innerHTML = '<a id="png" class="button primary" href="#">Download PNG</a>';
  $('png').href = $('canvas').toDataURL('image/png');
  $('png').download = `${state.title.toLowerCase()}.png`;
};
/* @end png */

/* @feature json */
window.renderJson = () => {
  $('json').value = JSON.stringify({ title: state.title, size: state.n, pixels: state.pixels }, null, 1)
    .replace(/\[\n\s+((?:"#[0-9a-f]{6}"|null)(?:,\n\s+(?:"#[0-9a-f]{6}"|null))*)\n\s+\]/g,
      (m, body) => `[${body.replace(/\n\s+/g, ' ')}]`);
};
/* @end json */
/* @broken json */
window.renderJson = () => {
  const cols = state.pixels[0].map((_, x) => state.pixels.map((r) => r[x]));
  $('json').value = JSON.stringify({ title: state.title, size: state.n, pixels: cols });
};
/* @end json */

// ------------------------------------------------------------------ persistence
function save() {
  /* @feature persist */
  try {
    localStorage.setItem(STORE, JSON.stringify({ pixels: state.pixels, colour: state.colour?.hex ?? null, tool: state.tool }));
  } catch (e) { /* storage unavailable: keep working in memory */ }
  /* @end persist */
}

function restore() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (!saved) return;
    if (Array.isArray(saved.pixels) && saved.pixels.every((r) => Array.isArray(r))) {
      const n = state.n;
      state.pixels = Array.from({ length: n }, (_, y) => Array.from({ length: n }, (__, x) => normHex(saved.pixels[y]?.[x])));
    }
    const c = state.palette.find((p) => p.hex === saved.colour);
    if (c) state.colour = c;
    if (toolOf(saved.tool)) state.tool = saved.tool;
  } catch (e) { /* unreadable storage: keep the data drawing */ }
  /* @end persist */
}

function commit() {
  save();
  render();
}

// ------------------------------------------------------------------ wiring
function selectTool(id) {
  if (!toolOf(id)) return;
  state.tool = id;
  commit();
}

$('tools').addEventListener('click', (e) => {
  const b = e.target.closest('[data-tool]');
  if (b) selectTool(b.dataset.tool);
});
$('palette').addEventListener('click', (e) => {
  const b = e.target.closest('[data-colour]');
  if (!b) return;
  state.colour = state.palette[Number(b.dataset.colour)];
  commit();
});
$('history').addEventListener('click', (e) => {
  const b = e.target.closest('[data-act]');
  if (b && ACTIONS[b.dataset.act]) ACTIONS[b.dataset.act]();
});
['cx', 'cy'].forEach((id) => $(id).addEventListener('input', fromFields));

// mouse: a click or a drag is one step
let stroke = null;
function cellAt(e) {
  const c = $('canvas');
  const r = c.getBoundingClientRect();
  const x = Math.floor(((e.clientX - r.left) / r.width) * state.n);
  const y = Math.floor(((e.clientY - r.top) / r.height) * state.n);
  return inGrid(x, y) ? [x, y] : null;
}
$('canvas').addEventListener('pointerdown', (e) => {
  const cell = cellAt(e);
  const tool = toolOf(state.tool);
  if (!cell || !tool) return;
  e.preventDefault();
  $('canvas').focus();
  stroke = { before: copy(state.pixels) };
  state.cx = cell[0];
  state.cy = cell[1];
  tool.apply(cell[0], cell[1]);
  if (state.tool !== 'fill') $('canvas').setPointerCapture?.(e.pointerId);
  render();
});
$('canvas').addEventListener('pointermove', (e) => {
  if (!stroke || state.tool === 'fill') return;
  const cell = cellAt(e);
  const tool = toolOf(state.tool);
  if (!cell || !tool || (cell[0] === state.cx && cell[1] === state.cy)) return;
  state.cx = cell[0];
  state.cy = cell[1];
  tool.apply(cell[0], cell[1]);
  render();
});
function endStroke() {
  if (!stroke) return;
  if (JSON.stringify(stroke.before) !== JSON.stringify(state.pixels)) {
    state.past.push(stroke.before);
    state.future = [];
  }
  stroke = null;
  commit();
}
$('canvas').addEventListener('pointerup', endStroke);
$('canvas').addEventListener('pointercancel', endStroke);

$('canvas').addEventListener('keydown', (e) => {
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  /* @feature arrow-keys */
  if (moves[e.key]) {
    e.preventDefault();
    const [dx, dy] = moves[e.key];
    const x = Math.min(state.n - 1, Math.max(0, state.cx + dx));
    const y = Math.min(state.n - 1, Math.max(0, state.cy + dy));
    moveCursor(x, y);
    return;
  }
  /* @end arrow-keys */
  /* @broken arrow-keys */
  if (moves[e.key]) {
    e.preventDefault();
    const [dx, dy] = moves[e.key];
    moveCursor((state.cx + dx + state.n) % state.n, (state.cy + dy + state.n) % state.n);
    return;
  }
  /* @end arrow-keys */
  if (e.key === ' ' || e.key === 'Enter') {
    e.preventDefault();
    applyAt(state.cx, state.cy);
  }
});

const typing = (el) => el && (el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && !['button', 'checkbox', 'radio'].includes(el.type)));
document.addEventListener('keydown', (e) => {
  /* @feature tool-keys */
  if (!e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target)) {
    const t = TOOLS.find((x) => x.key === e.key.toLowerCase());
    if (t) { selectTool(t.id); return; }
  }
  /* @end tool-keys */
  /* @broken tool-keys */
  if (!e.ctrlKey && !e.metaKey && !e.altKey) {
    const t = TOOLS.find((x) => x.key === e.key.toLowerCase());
    if (t) { selectTool(t.id); return; }
  }
  /* @end tool-keys */
  /* @feature shortcuts */
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !typing(e.target)) {
    const k = e.key.toLowerCase();
    const act = k === 'z' && !e.shiftKey ? 'undo' : (k === 'y' || (k === 'z' && e.shiftKey)) ? 'redo' : null;
    if (act && ACTIONS[act]) { e.preventDefault(); ACTIONS[act](); }
  }
  /* @end shortcuts */
  /* @broken shortcuts */
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !typing(e.target)) {
    const k = e.key.toLowerCase();
    const act = k === 'z' && !e.shiftKey ? 'undo' : (k === 'z' && e.shiftKey) ? 'redo' : null;
    if (act && ACTIONS[act]) { e.preventDefault(); ACTIONS[act](); }
  }
  /* @end shortcuts */
});

$('history').innerHTML = HISTORY.join('');

Promise.all([fetch('data/palette.json').then((r) => r.json()),
             fetch('data/drawing.json').then((r) => r.json())]).then(([pal, drawing]) => {
  state.n = Math.max(1, Number(pal.gridSize) || 16);
  state.palette = loadPalette(pal);
  state.colour = state.palette[0] || null;
  state.title = drawing.title || 'Untitled';
  state.pixels = loadDrawing(drawing);
  restore();
  render();
});
