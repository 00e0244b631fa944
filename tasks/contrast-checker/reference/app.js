'use strict';
// Contrast checker: a brand palette from data/palette.json, WCAG 2 ratios computed live.
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const INVALID_MSG = 'Enter a colour as #RGB, #RRGGBB or rgb(r, g, b).';
const hooks = {};
const state = { palette: [], notes: [], ready: false };

// ------------------------------------------------------------------ colours
const toHex = (ch) => '#' + ch.map((v) => v.toString(16).padStart(2, '0')).join('').toUpperCase();

function parseColour(raw) {
  let s = String(raw ?? '').trim();
  /* @feature rgb-parse */
  const m = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i.exec(s);
  if (m) {
    const ch = m.slice(1, 4).map(Number);
    if (ch.some((v) => v > 255)) return null;
    return { hex: toHex(ch), rgb: ch };
  }
  /* @end rgb-parse */
  /* @broken rgb-parse */
  const m = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i.exec(s);
  if (m) {
    const ch = m.slice(1, 4).map(Number);
    if (ch.some((v) => v > 255)) return null;
    return { hex: '#' + ch.map((v) => v.toString(16)).join('').toUpperCase(), rgb: ch };
  }
  /* @end rgb-parse */
  /* @feature no-hash */
  if (/^[0-9a-f]+$/i.test(s)) s = '#' + s;
  /* @end no-hash */
  /* @feature short-hex */
  if (/^#[0-9a-f]{3}$/i.test(s)) s = '#' + [...s.slice(1)].map((c) => c + c).join('');
  /* @end short-hex */
  /* @broken short-hex */
  if (/^#[0-9a-f]{3}$/i.test(s)) s += s.slice(1);
  /* @end short-hex */
  if (!/^#[0-9a-f]{6}$/i.test(s)) return null;
  const rgb = [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));
  return { hex: s.toUpperCase(), rgb };
}

function channel(v) {
  let c = v / 255;
  /* @feature luminance */
  c = c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  /* @end luminance */
  return c;
}
const luminance = (rgb) => 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2]);
function contrast(a, b) {
  const la = luminance(a), lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}
function fmtRatio(r) {
  let v = r;
  /* @feature truncate */
  v = Math.floor(r * 100 + 1e-9) / 100;
  /* @end truncate */
  return v.toFixed(2);
}
function levelsOf(r) {
  const lv = { aaNormal: r >= 4.5, aaLarge: r >= 4.5, aaaNormal: r >= 7, aaaLarge: r >= 7 };
  /* @feature large-text */
  lv.aaLarge = r >= 3;
  lv.aaaLarge = r >= 4.5;
  /* @end large-text */
  /* @broken large-text */
  lv.aaLarge = r >= 3;
  lv.aaaLarge = r >= 3;
  /* @end large-text */
  return lv;
}
const bestLevel = (lv) => (lv.aaaNormal ? 'AAA' : lv.aaNormal ? 'AA' : lv.aaLarge ? 'AA large' : 'Fail');
const LEVEL_ROWS = [
  ['AA normal text', '4.5:1', 'aaNormal'], ['AA large text', '3:1', 'aaLarge'],
  ['AAA normal text', '7:1', 'aaaNormal'], ['AAA large text', '4.5:1', 'aaaLarge'],
];

// ------------------------------------------------------------------ palette
function loadPalette(data) {
  const seen = new Set();
  const invalid = [];
  const dups = [];
  for (const c of data.colours || []) {
    const p = parseColour(c.value);
    if (!p) { invalid.push(c); continue; }
    /* @feature dedupe */
    if (seen.has(p.hex)) { dups.push(c); continue; }
    seen.add(p.hex);
    /* @end dedupe */
    state.palette.push({ name: String(c.name ?? '').trim(), hex: p.hex, rgb: p.rgb, usage: c.usage || '' });
  }
  const plural = (n, word) => `${n} ${word}${n > 1 ? 's' : ''}`;
  /* @feature invalid-report */
  if (invalid.length) {
    state.notes.push(`${plural(invalid.length, 'invalid colour')} skipped: ${invalid.map((c) => `${c.name} (${c.value})`).join(', ')}`);
  }
  /* @end invalid-report */
  /* @feature dedupe */
  if (dups.length) state.notes.push(`${plural(dups.length, 'duplicate colour')} ignored: ${dups.map((c) => c.name).join(', ')}`);
  /* @end dedupe */
}

function renderPalette() {
  $('palette-notes').innerHTML = state.notes.map((n) => `<p>${esc(n)}</p>`).join('');
  const rows = $('palette-rows');
  if (!rows) return;
  rows.innerHTML = state.palette.map((c) => `<tr>
      <th scope="row"><span class="swatch small" style="background:${c.hex}" aria-hidden="true"></span>${esc(c.name)}
        <span class="usage">${esc(c.usage)}</span></th>
      <td class="mono">${c.hex}</td>
      <td class="use"><button type="button" class="small" data-pick="text" data-hex="${c.hex}">Use as text</button>
        <button type="button" class="small" data-pick="background" data-hex="${c.hex}">Use as background</button></td>
    </tr>`).join('');
}

function renderMatrix() {
  const table = $('matrix');
  if (!table) return;
  const pal = state.palette;
  const head = `<thead><tr><th scope="col" class="corner">Text \\ Background</th>${pal.map((c) => `<th scope="col"><span class="swatch small" style="background:${c.hex}" aria-hidden="true"></span>${esc(c.name)}</th>`).join('')}</tr></thead>`;
  const body = pal.map((t, i) => `<tr><th scope="row"><span class="swatch small" style="background:${t.hex}" aria-hidden="true"></span>${esc(t.name)}</th>${pal.map((b, j) => {
    if (i === j) return '<td class="same">—</td>';
    const r = contrast(t.rgb, b.rgb);
    const best = bestLevel(levelsOf(r));
    return `<td><button type="button" class="cell lvl-${best.replace(' ', '-').toLowerCase()}" data-cell="${i},${j}" title="${esc(t.name)} on ${esc(b.name)}"
      style="color:${t.hex};background:${b.hex}"><span class="num">${fmtRatio(r)}</span> <span class="tag">${best}</span></button></td>`;
  }).join('')}</tr>`).join('');
  table.innerHTML = head + `<tbody>${body}</tbody>`;
  hooks.summary?.(pal);
}

/* @feature matrix-summary */
hooks.summary = (pal) => {
  const el = $('matrix-summary');
  if (!el) return;
  let pass = 0;
  pal.forEach((t, i) => pal.forEach((b, j) => { if (i !== j && levelsOf(contrast(t.rgb, b.rgb)).aaNormal) pass += 1; }));
  el.textContent = `${pass} of ${pal.length * (pal.length - 1)} pairs pass AA`;
};
/* @end matrix-summary */
/* @broken matrix-summary */
hooks.summary = (pal) => {
  const el = $('matrix-summary');
  if (!el) return;
  let pass = 0;
  pal.forEach((t, i) => pal.forEach((b, j) => { if (j > i && levelsOf(contrast(t.rgb, b.rgb)).aaNormal) pass += 1; }));
  el.textContent = `${pass} of ${pal.length * (pal.length - 1) / 2} pairs pass AA`;
};
/* @end matrix-summary */

// ------------------------------------------------------------------ checker
let useButton = () => '';
/* @feature suggest-apply */
useButton = (dir, hex) => `<button type="button" class="small" data-use="${hex}">Use ${dir}</button>`;
/* @end suggest-apply */
/* @broken suggest-apply */
useButton = (dir, hex) => `<button type="button" class="small" data-use="${hex}">Use ${dir}</button>`;
/* @end suggest-apply */

/* @feature suggest */
hooks.suggest = (t, b) => {
  const box = $('suggestion');
  if (!box) return;
  if (!t || !b) { box.innerHTML = ''; return; }
  if (levelsOf(contrast(t.rgb, b.rgb)).aaNormal) { box.innerHTML = '<p class="ok">Passes AA — no change needed.</p>'; return; }
  const shade = (dir) => {
    for (let s = 1; s <= 100; s += 1) {
      const rgb = t.rgb.map((v) => (dir === 'darker' ? Math.round(v * (100 - s) / 100) : Math.round(v + (255 - v) * s / 100)));
      if (levelsOf(contrast(rgb, b.rgb)).aaNormal) return { hex: toHex(rgb), rgb };
    }
    return null;
  };
  box.innerHTML = ['darker', 'lighter'].map((dir) => {
    const found = shade(dir);
    const label = dir === 'darker' ? 'Darker' : 'Lighter';
    if (!found) return `<p class="none">No ${dir} shade passes AA.</p>`;
    return `<p class="shade"><span class="swatch small" style="background:${found.hex}" aria-hidden="true"></span>${label}: ${found.hex} (${fmtRatio(contrast(found.rgb, b.rgb))}:1) ${useButton(dir, found.hex)}</p>`;
  }).join('');
};
/* @end suggest */
/* @broken suggest */
hooks.suggest = (t, b) => {
  const box = $('suggestion');
  if (!box) return;
  if (!t || !b) { box.innerHTML = ''; return; }
  if (levelsOf(contrast(t.rgb, b.rgb)).aaNormal) { box.innerHTML = '<p class="ok">Passes AA — no change needed.</p>'; return; }
  const shade = (dir) => {
    for (let s = 10; s <= 100; s += 10) {
      const rgb = t.rgb.map((v) => (dir === 'darker' ? Math.round(v * (100 - s) / 100) : Math.round(v + (255 - v) * s / 100)));
      if (levelsOf(contrast(rgb, b.rgb)).aaNormal) return { hex: toHex(rgb), rgb };
    }
    return null;
  };
  box.innerHTML = ['darker', 'lighter'].map((dir) => {
    const found = shade(dir);
    const label = dir === 'darker' ? 'Darker' : 'Lighter';
    if (!found) return `<p class="none">No ${dir} shade passes AA.</p>`;
    return `<p class="shade"><span class="swatch small" style="background:${found.hex}" aria-hidden="true"></span>${label}: ${found.hex} (${fmtRatio(contrast(found.rgb, b.rgb))}:1) ${useButton(dir, found.hex)}</p>`;
  }).join('');
};
/* @end suggest */

/* @feature preview */
hooks.preview = (t, b) => {
  const box = $('preview-box');
  if (!box || !t || !b) return;
  box.style.color = t.hex;
  box.style.backgroundColor = b.hex;
};
/* @end preview */
/* @broken preview */
hooks.preview = (t, b) => {
  const box = $('preview-box');
  if (!box || !t || !b) return;
  box.style.color = b.hex;
  box.style.backgroundColor = t.hex;
};
/* @end preview */

/* @feature input-validation */
hooks.validate = (t, b) => { $('input-msg').textContent = !t || !b ? INVALID_MSG : ''; };
/* @end input-validation */
/* @broken input-validation */
hooks.validate = (t) => { $('input-msg').textContent = !t ? INVALID_MSG : ''; };
/* @end input-validation */

function render() {
  if (!state.ready) return;
  const t = parseColour($('text-colour').value);
  const b = parseColour($('bg-colour').value);
  $('text-swatch').style.background = t ? t.hex : 'transparent';
  $('bg-swatch').style.background = b ? b.hex : 'transparent';
  $('text-colour').setAttribute('aria-invalid', t ? 'false' : 'true');
  $('bg-colour').setAttribute('aria-invalid', b ? 'false' : 'true');
  hooks.validate?.(t, b);
  const ok = t && b;
  const r = ok ? contrast(t.rgb, b.rgb) : null;
  const lv = ok ? levelsOf(r) : null;
  $('pair').textContent = ok ? `${t.hex} on ${b.hex}` : '';
  $('ratio').textContent = ok ? `${fmtRatio(r)}:1` : '—';
  $('levels').innerHTML = LEVEL_ROWS.map(([name, min, key]) => {
    const verdict = !lv ? '—' : lv[key] ? 'Pass' : 'Fail';
    return `<tr><th scope="row">${name}</th><td>${min}</td><td class="verdict ${verdict.toLowerCase()}">${verdict}</td></tr>`;
  }).join('');
  hooks.preview?.(t, b);
  hooks.suggest?.(t, b);
}

// ------------------------------------------------------------------ wiring
$('text-colour').addEventListener('input', render);
$('bg-colour').addEventListener('input', render);

/* @feature swap */
$('swap').addEventListener('click', () => {
  const text = $('text-colour').value;
  $('text-colour').value = $('bg-colour').value;
  $('bg-colour').value = text;
  render();
});
/* @end swap */
/* @broken swap */
$('swap').addEventListener('click', () => {
  $('text-colour').value = $('bg-colour').value;
  $('bg-colour').value = $('text-colour').value;
  render();
});
/* @end swap */

/* @feature pick */
document.addEventListener('click', (e) => {
  const btn = e.target.closest('[data-pick]');
  if (!btn) return;
  $(btn.dataset.pick === 'text' ? 'text-colour' : 'bg-colour').value = btn.dataset.hex;
  render();
});
/* @end pick */
/* @broken pick */
document.addEventListener('click', (e) => {
  const btn = e.target.closest('[data-pick]');
  if (!btn) return;
  $(btn.dataset.pick === 'text' ? 'bg-colour' : 'text-colour').value = btn.dataset.hex;
  render();
});
/* @end pick */

/* @feature matrix-pick */
document.addEventListener('click', (e) => {
  const cell = e.target.closest('[data-cell]');
  if (!cell) return;
  const [i, j] = cell.dataset.cell.split(',').map(Number);
  $('text-colour').value = state.palette[i].hex;
  $('bg-colour').value = state.palette[j].hex;
  render();
  $('text-colour').scrollIntoView({ block: 'nearest' });
});
/* @end matrix-pick */
/* @broken matrix-pick */
document.addEventListener('click', (e) => {
  const cell = e.target.closest('[data-cell]');
  if (!cell) return;
  const [i, j] = cell.dataset.cell.split(',').map(Number);
  $('text-colour').value = state.palette[j].hex;
  $('bg-colour').value = state.palette[i].hex;
  render();
  $('text-colour').scrollIntoView({ block: 'nearest' });
});
/* @end matrix-pick */

/* @feature suggest-apply */
document.addEventListener('click', (e) => {
  const btn = e.target.closest('[data-use]');
  if (!btn) return;
  $('text-colour').value = btn.dataset.use;
  render();
});
/* @end suggest-apply */
/* @broken suggest-apply */
document.addEventListener('click', (e) => {
  const btn = e.target.closest('[data-use]');
  if (!btn) return;
  $('text-colour').value = btn.dataset.use;
});
/* @end suggest-apply */

fetch('data/palette.json').then((r) => r.json()).then((data) => {
  $('brand').textContent = data.brand ? `${data.brand} palette` : '';
  loadPalette(data);
  renderPalette();
  renderMatrix();
  $('text-colour').value = state.palette[0]?.hex || '#000000';
  $('bg-colour').value = state.palette[1]?.hex || '#FFFFFF';
  state.ready = true;
  render();
});
