'use strict';
// Grade calculator: the syllabus (data/syllabus.json) and the scores so far (data/scores.csv).
const STORE = 'grade-calculator-v1';
const state = {
  syl: { categories: [], cutoffs: [] }, base: [], notices: [],
  changes: { entries: [], excused: [] }, worst: false, target: '',
};
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const pct = (n) => `${(Math.round(n * 100 + 1e-9) / 100).toFixed(2)}%`;
const pts = (n) => String(Math.round(n * 100) / 100);
const keyOf = (it) => `${String(it.cat).trim().toLowerCase()}|${String(it.item).trim().toLowerCase()}`;
const plural = (n, word) => `${n} ${word}${n > 1 ? 's' : ''}`;

// ------------------------------------------------------------------ data
function parseCsv(text) {
  const lines = text.replace(/\r/g, '').split('\n').filter((l) => l.trim() !== '');
  const head = lines.shift().split(',').map((h) => h.trim());
  return lines.map((line) => {
    const cells = line.split(',');
    const row = {};
    head.forEach((h, i) => { row[h] = cells[i] ?? ''; });
    return row;
  });
}

function fromRows(rows) {
  const items = [];
  let unknown = 0;
  let dup = 0;
  rows.forEach((r) => {
    let cat = state.syl.categories.find((c) => c.name === r.category);
    /* @feature normalise-categories */
    cat = state.syl.categories.find((c) => c.name.toLowerCase() === String(r.category).trim().toLowerCase());
    if (!cat) unknown += 1;
    /* @end normalise-categories */
    if (!cat) return;
    const it = {
      cat: cat.name, item: String(r.item).trim(), score: String(r.score ?? '').trim(),
      out: Number(r.out_of), status: String(r.status ?? '').trim().toLowerCase(),
    };
    let placed = false;
    /* @feature dedupe */
    const at = items.findIndex((x) => keyOf(x) === keyOf(it));
    if (at >= 0) { items[at] = it; dup += 1; placed = true; }
    /* @end dedupe */
    /* @broken dedupe */
    if (items.some((x) => keyOf(x) === keyOf(it))) { dup += 1; placed = true; }
    /* @end dedupe */
    if (!placed) items.push(it);
  });
  state.notices = [];
  if (dup) state.notices.push(`${plural(dup, 'duplicate score')} ignored`);
  if (unknown) state.notices.push(`${plural(unknown, 'score')} in an unknown category ignored`);
  return items;
}

// ------------------------------------------------------------------ changes
let applyEntry = null;   // (items, entry) -> 'Added' | 'Updated'
/* @feature add-score */
applyEntry = (items, e) => {
  const at = items.findIndex((x) => keyOf(x) === keyOf(e));
  const it = { cat: e.cat, item: e.item, score: e.score, out: e.out, status: '' };
  if (at >= 0) { items[at] = { ...it, item: items[at].item }; return 'Updated'; }
  items.push(it);
  return 'Added';
};
/* @end add-score */
/* @broken add-score */
applyEntry = (items, e) => {
  const at = items.findIndex((x) => keyOf(x) === keyOf(e));
  items.push({ cat: e.cat, item: e.item, score: e.score, out: e.out, status: '' });
  return at >= 0 ? 'Updated' : 'Added';
};
/* @end add-score */

let excuse = null;       // the student's own excusals
/* @feature excuse-toggle */
excuse = { has: (it) => state.changes.excused.includes(keyOf(it)), stillDroppable: false };
/* @end excuse-toggle */
/* @broken excuse-toggle */
excuse = { has: (it) => state.changes.excused.includes(keyOf(it)), stillDroppable: true };
/* @end excuse-toggle */

function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify(state.changes));
  /* @end persist */
}
function restore() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && Array.isArray(saved.entries) && Array.isArray(saved.excused)) state.changes = saved;
  } catch (e) { /* unreadable: start from the data */ }
  /* @end persist */
}

function allItems() {
  const items = state.base.map((it) => ({ ...it }));
  state.changes.entries.forEach((e) => applyEntry?.(items, e));
  return items;
}

// ------------------------------------------------------------------ computing
function earned(it) {
  const s = it.score;
  if (s === '') return null;
  let v = Number(s);
  /* @feature percent-scores */
  if (/%$/.test(s)) v = (Number(s.slice(0, -1)) / 100) * it.out;
  /* @end percent-scores */
  /* @broken percent-scores */
  if (/%$/.test(s)) v = parseFloat(s);
  /* @end percent-scores */
  return Number.isFinite(v) ? v : null;
}

function rowOf(it, worst) {
  const r = { it, key: keyOf(it), pts: earned(it), status: '', val: 0, counts: false, user: false, droppable: false };
  let excused = false;
  let missing = false;
  /* @feature excused */
  if (it.status === 'excused') excused = true;
  /* @end excused */
  /* @feature missing */
  if (it.status === 'missing') missing = true;
  /* @end missing */
  if (!excused && excuse?.has(it)) {
    excused = true; r.user = true;
    if (excuse.stillDroppable && r.pts !== null) { r.droppable = true; r.val = r.pts; }
  }
  if (excused) r.status = 'Excused';
  else if (missing) { r.status = 'Missing'; r.counts = true; }
  else if (r.pts === null) { r.status = 'Not graded'; if (worst) r.counts = true; }
  else {
    r.status = 'Counted'; r.val = r.pts; r.counts = true;
    /* @feature extra-credit */
    if (r.pts > it.out) r.status = 'Extra credit';
    /* @end extra-credit */
    /* @broken extra-credit */
    r.val = Math.min(r.pts, it.out);
    /* @end extra-credit */
  }
  if (r.counts) r.droppable = true;
  return r;
}

function compute(worst) {
  const rows = allItems().map((it) => rowOf(it, worst));
  const cats = state.syl.categories.map((c) => {
    const mine = rows.filter((r) => r.it.cat === c.name);
    const counting = mine.filter((r) => r.counts);
    const n = Number(c.drop_lowest) || 0;
    /* @feature drop-lowest */
    if (n > 0 && counting.length > n) {
      const order = mine.filter((r) => r.droppable).sort((a, b) => a.val / a.it.out - b.val / b.it.out);
      order.slice(0, n).forEach((r) => { if (r.counts) { r.counts = false; r.status = 'Dropped'; } });
    }
    /* @end drop-lowest */
    /* @broken drop-lowest */
    if (n > 0 && counting.length > n) {
      const order = mine.filter((r) => r.droppable).sort((a, b) => a.val - b.val);
      order.slice(0, n).forEach((r) => { if (r.counts) { r.counts = false; r.status = 'Dropped'; } });
    }
    /* @end drop-lowest */
    const used = mine.filter((r) => r.counts);
    const out = used.reduce((s, r) => s + r.it.out, 0);
    const got = used.reduce((s, r) => s + r.val, 0);
    return { ...c, score: used.length && out > 0 ? (got / out) * 100 : null };
  });
  let S = 0;
  let W = 0;
  cats.forEach((c) => { if (c.score !== null) { S += c.weight * c.score; W += c.weight; } });
  let grade = S / 100;
  /* @feature weighting */
  grade = W ? S / W : 0;
  /* @end weighting */
  return { rows, cats, S, W, grade };
}

function letterOf(grade) {
  const cuts = [...state.syl.cutoffs].sort((a, b) => b.min - a.min);
  const hit = cuts.find((c) => grade >= c.min - 1e-9);
  return hit ? hit.letter : 'F';
}

// ------------------------------------------------------------------ target
let targetInfo = null;   // (result) -> {graded, need, letter}
/* @feature target */
targetInfo = (res) => {
  const fin = res.cats.find((c) => c.name === state.syl.final_category);
  const cut = state.syl.cutoffs.find((c) => c.letter === state.target);
  if (!fin || !cut) return null;
  if (fin.score !== null) return { graded: true, letter: cut.letter };
  const need = (cut.min * (res.W + fin.weight) - res.S) / fin.weight;
  return { graded: false, letter: cut.letter, need: Math.ceil(need * 100 - 1e-6) / 100 };
};
/* @end target */
/* @broken target */
targetInfo = (res) => {
  const fin = res.cats.find((c) => c.name === state.syl.final_category);
  const cut = state.syl.cutoffs.find((c) => c.letter === state.target);
  if (!fin || !cut) return null;
  if (fin.score !== null) return { graded: true, letter: cut.letter };
  const need = (cut.min * (res.W + fin.weight) - res.S) / fin.weight;
  return { graded: false, letter: cut.letter, need: Math.round(need * 100) / 100 };
};
/* @end target */

function targetMessage(t) {
  let msg = t.graded ? '' : `Needed on the Final exam: ${t.need.toFixed(2)}%`;
  /* @feature target-edges */
  if (t.graded) msg = `The ${state.syl.final_category} is already graded.`;
  else if (t.need > 100) msg = `Out of reach: it would take ${t.need.toFixed(2)}% on the Final exam.`;
  else if (t.need <= 0) msg = `Already secured: any score on the Final exam keeps ${t.letter}.`;
  /* @end target-edges */
  /* @broken target-edges */
  if (t.graded) msg = `The ${state.syl.final_category} is already graded.`;
  else if (t.need <= 0) msg = `Already secured: any score on the Final exam keeps ${t.letter}.`;
  /* @end target-edges */
  return msg;
}

// ------------------------------------------------------------------ rendering
function renderSummary(res) {
  const body = $('grade-body');
  if (!body) return;
  if (!res.W) { body.innerHTML = '<p class="big">—</p><p>No graded work yet.</p>'; return; }
  body.innerHTML = `<p class="big">${pct(res.grade)}</p>
    <p class="letter">Letter grade: <strong>${esc(letterOf(res.grade))}</strong></p>
    <p class="basis">Based on ${pts(res.W)}% of the course weight.</p>`;
}

function renderCategories(res) {
  const body = $('cat-rows');
  if (!body) return;
  body.innerHTML = res.cats.map((c) => `<tr>
    <th scope="row">${esc(c.name)}</th><td>${pts(c.weight)}%</td>
    <td>${c.score === null ? '<span class="muted">Not graded</span>' : pct(c.score)}</td>
    <td>${c.drop_lowest > 0 ? `Lowest ${c.drop_lowest} dropped` : ''}</td></tr>`).join('');
}

const STATUS_CLASS = { Counted: 'ok', 'Extra credit': 'extra', Missing: 'bad', Dropped: 'muted', Excused: 'muted', 'Not graded': 'muted' };
function renderScores(res) {
  const body = $('score-rows');
  if (!body) return;
  body.innerHTML = res.rows.map((r) => {
    const has = r.status === 'Missing' ? 0 : r.pts;
    const score = has === null ? '—' : `${pts(has)} / ${pts(r.it.out)}`;
    const per = has === null ? '—' : pct((has / r.it.out) * 100);
    let action = '';
    if (excuse) {
      if (r.user) action = `<button type="button" class="ghost small" data-count="${esc(r.key)}">Count again</button>`;
      else if (['Counted', 'Extra credit', 'Missing', 'Dropped'].includes(r.status)) action = `<button type="button" class="ghost small" data-excuse="${esc(r.key)}">Excuse</button>`;
    }
    return `<tr><th scope="row">${esc(r.it.item)}</th><td>${esc(r.it.cat)}</td><td>${score}</td><td>${per}</td>
      <td><span class="tag ${STATUS_CLASS[r.status] || ''}">${r.status}</span></td><td>${action}</td></tr>`;
  }).join('');
}

function renderTarget() {
  const line = $('target-line');
  if (!line) return;
  const t = state.target && targetInfo ? targetInfo(compute(false)) : null;
  line.textContent = t ? targetMessage(t) : '';
}

function render() {
  $('course').textContent = [state.syl.course, state.syl.term].filter(Boolean).join(' — ');
  $('notice').innerHTML = state.notices.map((n) => `<span>${esc(n)}</span>`).join('');
  $('notice').hidden = !state.notices.length;
  const res = compute(state.worst);
  renderSummary(res);
  renderCategories(res);
  renderScores(res);
  renderTarget();
}

// ------------------------------------------------------------------ actions
function validate(entry, rawOut) {
  /* @feature add-validation */
  if (!entry.item) return 'Item is required.';
  if (!/^\d+(\.\d+)?%?$/.test(entry.score)) return 'Score must be a number or a percentage.';
  if (!(rawOut !== '' && Number(rawOut) > 0)) return 'Out of must be more than 0.';
  /* @end add-validation */
  return '';
}

document.addEventListener('click', (e) => {
  const ex = e.target.closest('[data-excuse]');
  const back = e.target.closest('[data-count]');
  if (!ex && !back) return;
  const key = (ex || back).getAttribute(ex ? 'data-excuse' : 'data-count');
  const list = state.changes.excused.filter((k) => k !== key);
  if (ex) list.push(key);
  state.changes.excused = list;
  save();
  render();
});

function wire() {
  /* @feature add-score */
  $('a-cat').innerHTML = state.syl.categories.map((c) => `<option>${esc(c.name)}</option>`).join('');
  $('add-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const rawOut = $('a-out').value.trim();
    const entry = { cat: $('a-cat').value, item: $('a-item').value.trim(), score: $('a-score').value.trim().replace(/\s+%$/, '%'), out: Number(rawOut) };
    const err = validate(entry, rawOut);
    $('a-err').textContent = err;
    $('a-ok').textContent = '';
    if (err || !applyEntry) return;
    const items = allItems();
    const existing = items.find((x) => keyOf(x) === keyOf(entry));
    const how = applyEntry(items, entry);
    state.changes.entries.push(entry);
    save();
    $('a-ok').textContent = `${how} ${existing ? existing.item : entry.item}.`;
    $('a-item').value = ''; $('a-score').value = ''; $('a-out').value = '';
    render();
  });
  /* @end add-score */
  /* @broken add-score */
  $('a-cat').innerHTML = state.syl.categories.map((c) => `<option>${esc(c.name)}</option>`).join('');
  $('add-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const rawOut = $('a-out').value.trim();
    const entry = { cat: $('a-cat').value, item: $('a-item').value.trim(), score: $('a-score').value.trim().replace(/\s+%$/, '%'), out: Number(rawOut) };
    const err = validate(entry, rawOut);
    $('a-err').textContent = err;
    $('a-ok').textContent = '';
    if (err || !applyEntry) return;
    const items = allItems();
    const existing = items.find((x) => keyOf(x) === keyOf(entry));
    const how = applyEntry(items, entry);
    state.changes.entries.push(entry);
    save();
    $('a-ok').textContent = `${how} ${existing ? existing.item : entry.item}.`;
    $('a-item').value = ''; $('a-score').value = ''; $('a-out').value = '';
    render();
  });
  /* @end add-score */
  /* @feature target */
  $('target').addEventListener('change', (e) => { state.target = e.target.value; renderTarget(); });
  /* @end target */
  /* @broken target */
  $('target').addEventListener('change', (e) => { state.target = e.target.value; renderTarget(); });
  /* @end target */
  /* @feature worst-case */
  $('worst')?.addEventListener('change', (e) => { state.worst = e.target.checked; render(); });
  /* @end worst-case */
  /* @feature reset */
  $('reset')?.addEventListener('click', () => {
    state.changes = { entries: [], excused: [] };
    localStorage.removeItem(STORE);
    render();
  });
  /* @end reset */
}

async function load() {
  const [syl, csv] = await Promise.all([
    fetch('data/syllabus.json').then((r) => r.json()),
    fetch('data/scores.csv').then((r) => r.text()),
  ]);
  state.syl = syl;
  state.base = fromRows(parseCsv(csv));
  restore();
  wire();
  render();
}
load();
