'use strict';
const STORE = 'fuel-log.v1';
const CARS = ['Corolla', 'Kangoo'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
let raw = [];
let state = { added: [], deleted: [] };
let filter = 'all';

function loadState() {
  /* @feature persist */
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (s && Array.isArray(s.added) && Array.isArray(s.deleted)) state = s;
  } catch (e) { /* ignore a damaged store */ }
  /* @end persist */
}
function saveState() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify(state));
  /* @end persist */
}

function parseCSV(text) {
  const lines = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const cells = []; let cur = ''; let q = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (ch === '"') q = !q;
      else if (ch === ',' && !q) { cells.push(cur); cur = ''; }
      else cur += ch;
    }
    cells.push(cur);
    lines.push(cells);
  }
  const head = lines.shift().map(h => h.trim());
  return lines.map(c => Object.fromEntries(head.map((h, i) => [h, (c[i] || '').trim()])));
}

function roundTo(x, n) { const f = Math.pow(10, n); return Math.round(+(x * f).toFixed(6)) / f; }
function money(x) { return '$' + roundTo(x, 2).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }); }
function km(x) { return Math.round(x).toLocaleString('en-US'); }
function one(x) { return roundTo(x, 1).toFixed(1); }
function num(s) { return s === '' || s == null ? null : parseFloat(s); }
function parseLitres(s) {
  s = String(s == null ? '' : s).trim();
  /* @feature decimal-comma */
  s = s.replace(',', '.');
  /* @end decimal-comma */
  return parseFloat(s);
}

function buildEntries() {
  const list = []; const seen = new Set(); let dups = 0;
  for (const r of raw.concat(state.added)) {
    if (state.deleted.includes(r.id)) continue;
    const e = { id: r.id, car: r.car, date: r.date, odo: parseFloat(r.odometer), lit: parseLitres(r.litres),
      ppl: num(r.price_per_litre), tot: num(r.total_paid), full: r.full === 'yes', flags: [], econ: null, flagged: false };
    if (r.unit === 'mi') {
      /* @feature miles */
      e.odo = Math.round(e.odo * 1.609344);
      e.flags.push('Converted from miles');
      /* @end miles */
      /* @broken miles */
      e.odo = Math.round(e.odo * 1.6);
      e.flags.push('Converted from miles');
      /* @end miles */
    }
    /* @feature dedupe */
    const key = [e.car, e.date, e.odo, e.lit].join('|');
    if (seen.has(key)) { dups++; continue; }
    seen.add(key);
    /* @end dedupe */
    /* @feature prices */
    if (e.tot == null && e.ppl != null) e.tot = roundTo(e.ppl * e.lit, 2);
    if (e.ppl == null && e.tot != null) e.ppl = e.tot / e.lit;
    /* @end prices */
    /* @broken prices */
    if (e.tot == null && e.ppl != null) e.tot = Math.floor(e.ppl * e.lit * 100) / 100;
    if (e.ppl == null && e.tot != null) e.ppl = e.tot / e.lit;
    /* @end prices */
    /* @feature no-price */
    if (e.ppl == null && e.tot == null) e.flags.push('No price');
    /* @end no-price */
    list.push(e);
  }
  list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { list, dups };
}

function computeCar(list, car) {
  const es = list.filter(e => e.car === car);
  let hi = null, lastFull = null, carry = 0, segL = 0, segD = 0, first = null, lastv = null;
  for (const e of es) {
    /* @feature odo-check */
    if (hi !== null && e.odo < hi) {
      e.flagged = true;
      e.flags.push('Odometer went backward');
      if (lastFull !== null) carry += e.lit;
      continue;
    }
    /* @end odo-check */
    hi = hi === null ? e.odo : Math.max(hi, e.odo);
    if (first === null) first = e.odo;
    lastv = e.odo;
    if (!e.full) {
      /* @feature economy */
      if (lastFull !== null) carry += e.lit;
      /* @end economy */
      /* @broken economy */
      // partial fills are not carried
      /* @end economy */
      continue;
    }
    if (lastFull !== null) {
      const d = e.odo - lastFull; const l = carry + e.lit;
      if (d > 0) {
        /* @feature economy */
        e.econ = l / d * 100; segL += l; segD += d;
        /* @end economy */
        /* @broken economy */
        e.econ = l / d * 100; segL += l; segD += d;
        /* @end economy */
      }
    }
    lastFull = e.odo; carry = 0;
  }
  let spend = 0;
  for (const e of es) if (e.tot != null && !isNaN(e.tot)) spend += e.tot;
  spend = roundTo(spend, 2);
  const dist = first === null ? 0 : lastv - first;
  return { car, count: es.length, avg: segD > 0 ? segL / segD * 100 : null, dist, spend, cpk: dist > 0 ? spend / dist : null };
}

function esc(s) { return String(s).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c])); }

function render() {
  const { list, dups } = buildEntries();
  const sums = CARS.map(c => computeCar(list, c));
  document.getElementById('notice').textContent =
    dups ? `${dups} duplicate fill-up${dups === 1 ? '' : 's'} ignored` : '';
  const rows = list.filter(e => filter === 'all' || e.car === filter).map(e => {
    let tr = `<tr class="${e.flags.length ? 'flagged' : ''}"><td>${esc(e.date)}</td><td>${esc(e.car)}</td>` +
      `<td class="num">${km(e.odo)}</td>` +
      `<td class="num">${isNaN(e.lit) ? '—' : one(e.lit)}</td>` +
      `<td class="num">${e.ppl == null ? '—' : '$' + roundTo(e.ppl, 3).toFixed(3)}</td>` +
      `<td class="num">${e.tot == null ? '—' : money(e.tot)}</td>` +
      `<td>${e.full ? 'Full' : 'Partial'}</td>` +
      `<td class="num">${e.econ == null ? '—' : one(e.econ)}</td>` +
      `<td class="flags">${esc(e.flags.join(', '))}</td><td>`;
    /* @feature delete */
    tr += `<button type="button" class="del" data-id="${esc(e.id)}">Delete</button>`;
    /* @end delete */
    return tr + '</td></tr>';
  });
  document.getElementById('rows').innerHTML = rows.join('') ||
    '<tr><td colspan="10">No fill-ups.</td></tr>';
  renderSummaries(sums);
  renderMonthly(list);
}

function renderSummaries(sums) {
  /* @feature summary */
  const box = document.getElementById('summaries');
  if (!box) return;
  box.innerHTML = sums.map(s => `<section class="card ${s.car.toLowerCase()}" aria-label="${s.car}"><h3>${s.car}</h3><dl>` +
    `<div><dt>Average economy</dt><dd>${s.avg == null ? '—' : one(s.avg) + ' L/100 km'}</dd></div>` +
    `<div><dt>Distance</dt><dd>${km(s.dist)} km</dd></div>` +
    `<div><dt>Fuel spend</dt><dd>${money(s.spend)}</dd></div>` +
    `<div><dt>Cost per km</dt><dd>${s.cpk == null ? '—' : '$' + roundTo(s.cpk, 3).toFixed(3)}</dd></div>` +
    `<div><dt>Fill-ups</dt><dd>${s.count}</dd></div></dl></section>`).join('');
  /* @end summary */
}

function renderMonthly(list) {
  /* @feature monthly */
  const body = document.getElementById('months');
  if (!body) return;
  const months = {};
  for (const e of list) {
    if (!/^\d{4}-\d{2}/.test(e.date || '')) continue;
    const m = e.date.slice(0, 7);
    months[m] = months[m] || { Corolla: 0, Kangoo: 0 };
    if (e.tot != null && !isNaN(e.tot)) months[m][e.car] += e.tot;
  }
  body.innerHTML = Object.keys(months).sort().map(m => {
    const v = months[m]; const label = MONTHS[+m.slice(5, 7) - 1] + ' ' + m.slice(0, 4);
    return `<tr><td>${label}</td><td class="num">${money(v.Corolla)}</td><td class="num">${money(v.Kangoo)}</td>` +
      `<td class="num">${money(v.Corolla + v.Kangoo)}</td></tr>`;
  }).join('');
  /* @end monthly */
}

/* @feature filter */
const showSel = document.getElementById('show');
if (showSel) showSel.addEventListener('change', () => { filter = showSel.value; render(); });
/* @end filter */

/* @feature delete */
document.getElementById('rows').addEventListener('click', ev => {
  const b = ev.target.closest('button.del');
  if (!b) return;
  const id = b.dataset.id;
  const i = state.added.findIndex(a => a.id === id);
  if (i >= 0) state.added.splice(i, 1); else state.deleted.push(id);
  saveState();
  render();
});
/* @end delete */

/* @feature add */
const form = document.getElementById('add-form');
if (form) form.addEventListener('submit', ev => {
  ev.preventDefault();
  const val = id => document.getElementById(id).value.trim();
  const msg = document.getElementById('a-msg'); const ok = document.getElementById('a-ok');
  msg.textContent = ''; ok.textContent = '';
  const entry = { id: 'N' + Date.now().toString(36), car: val('a-car'), date: val('a-date'), odometer: val('a-odo'),
    unit: 'km', litres: val('a-litres'), price_per_litre: val('a-ppl'), total_paid: val('a-total'),
    full: document.getElementById('a-full').checked ? 'yes' : 'no' };
  let err = '';
  /* @feature add-validation */
  if (!entry.date) err = 'Date is required.';
  else if (!entry.odometer || !(parseFloat(entry.odometer) > 0)) err = 'Odometer is required.';
  else if (!entry.litres || !(parseLitres(entry.litres) > 0)) err = 'Litres must be more than 0.';
  /* @end add-validation */
  /* @broken add-validation */
  if (!entry.date) err = 'Date is required.';
  else if (!entry.odometer) err = 'Odometer is required.';
  else if (!entry.litres) err = 'Litres must be more than 0.';
  /* @end add-validation */
  if (err) { msg.textContent = err; return; }
  state.added.push(entry);
  saveState();
  form.reset();
  ok.textContent = 'Fill-up added.';
  render();
});
/* @end add */

loadState();
fetch('data/fillups.csv').then(r => r.text()).then(t => { raw = parseCSV(t); render(); });
