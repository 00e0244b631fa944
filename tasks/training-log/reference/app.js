'use strict';
// Stride: a running log from data/workouts.json; additions and deletions kept in localStorage.
const STORE = 'stride-log-v1';
const MI_KM = 1.609344;
const DAY_MS = 86400000;
const state = { today: '', athlete: '', types: [], base: [], added: [], deleted: [], notice: '', seq: 1 };
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const pad = (n) => String(n).padStart(2, '0');

// ------------------------------------------------------------------ formats
function parseDuration(text) {
  const s = String(text ?? '').trim();
  let m = s.match(/^(\d+):([0-5]\d):([0-5]\d)$/);
  if (m) return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  m = s.match(/^(\d+):([0-5]\d)$/);
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  return NaN;
}
function fmtDuration(sec) {
  const t = Math.round(sec || 0);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = t % 60;
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
const round1 = (km) => Math.round((km || 0) * 10 + 1e-9) / 10;
const fmtKm = (km) => `${round1(km).toFixed(1)} km`;
function fmtPace(secPerKm) {
  const t = Math.round(secPerKm);
  return `${Math.floor(t / 60)}:${pad(t % 60)} /km`;
}

// ------------------------------------------------------------------ dates and weeks
const toDate = (iso) => new Date(`${iso}T00:00:00Z`);
const toIso = (d) => d.toISOString().slice(0, 10);
const addDays = (iso, n) => toIso(new Date(toDate(iso).getTime() + n * DAY_MS));
function weekStart(iso) {
  const d = toDate(iso);
  let back = d.getUTCDay();            // days since Sunday
  /* @feature monday-weeks */
  back = (d.getUTCDay() + 6) % 7;      // days since Monday
  /* @end monday-weeks */
  return addDays(iso, -back);
}

// ------------------------------------------------------------------ the log
function toKm(w) {
  const unit = String(w.unit || 'km').toLowerCase();
  /* @feature miles */
  if (unit === 'mi') return Number(w.distance) * MI_KM;
  /* @end miles */
  /* @broken miles */
  if (unit === 'mi') return Number(w.distance) / MI_KM;
  /* @end miles */
  return Number(w.distance);
}
const keyOf = (w) => `${w.date}|${w.type}|${Number(w.km).toFixed(3)}|${Math.round(w.sec)}`;

function normalise(raw) {
  let list = raw.map((w, i) => ({
    id: String(w.id ?? `d${i}`), date: String(w.date), type: String(w.type),
    km: toKm(w), sec: parseDuration(w.duration) || 0, order: i,
  }));
  /* @feature dedupe */
  const seen = new Set();
  let skipped = 0;
  list = list.filter((w) => {
    const k = keyOf(w);
    if (seen.has(k)) { skipped += 1; return false; }
    seen.add(k);
    return true;
  });
  if (skipped) state.notice = `${skipped} duplicate workout${skipped > 1 ? 's' : ''} skipped`;
  /* @end dedupe */
  /* @broken dedupe */
  const counts = new Map();
  list.forEach((w) => counts.set(keyOf(w), (counts.get(keyOf(w)) || 0) + 1));
  const skipped = list.length - counts.size;
  list = list.filter((w) => counts.get(keyOf(w)) === 1);
  if (skipped) state.notice = `${skipped} duplicate workout${skipped > 1 ? 's' : ''} skipped`;
  /* @end dedupe */
  return list;
}

function allWorkouts() {
  const gone = new Set(state.deleted);
  return state.base.filter((w) => !gone.has(w.id)).concat(state.added);
}

// a workout that has a pace: a distance and (unless the rule is missing) a recorded time
function timed(w) {
  /* @feature no-time */
  if (!(w.sec > 0)) return false;
  /* @end no-time */
  /* @broken no-time */
  if (!(w.sec > 0)) return false;
  /* @end no-time */
  return w.km > 0;
}

function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify({ added: state.added, deleted: state.deleted, seq: state.seq }));
  /* @end persist */
}
function loadSaved() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && Array.isArray(saved.added) && Array.isArray(saved.deleted)) {
      state.added = saved.added;
      state.deleted = saved.deleted;
      state.seq = Number(saved.seq) || saved.added.length + 1;
    }
  } catch (e) { /* unreadable storage: start from the data */ }
  /* @end persist */
}

// ------------------------------------------------------------------ filters and periods
function periodStart() {
  const current = weekStart(state.today);
  let weeks = 0;
  /* @feature period-filter */
  const p = $('period-filter')?.value;
  if (p === 'Last 8 weeks') weeks = 8;
  if (p === 'Last 4 weeks') weeks = 4;
  /* @end period-filter */
  /* @broken period-filter */
  const p = $('period-filter')?.value;
  if (p === 'Last 8 weeks') return addDays(state.today, -56);
  if (p === 'Last 4 weeks') return addDays(state.today, -28);
  /* @end period-filter */
  if (weeks) return addDays(current, -7 * (weeks - 1));
  const dates = allWorkouts().map((w) => w.date).sort();
  return dates.length ? weekStart(dates[0] < current ? dates[0] : current) : current;
}

function periodWeeks() {
  const current = weekStart(state.today);
  const out = [];
  for (let wk = weekStart(periodStart()); wk <= current; wk = addDays(wk, 7)) out.push(wk);
  return out;
}

function filtered(scope) {
  let list = allWorkouts();
  /* @feature type-filter */
  const type = $('type-filter')?.value || 'All types';
  if (type !== 'All types') list = list.filter((w) => w.type === type);
  /* @end type-filter */
  /* @broken type-filter */
  const type = $('type-filter')?.value || 'All types';
  if (scope === 'table' && type !== 'All types') list = list.filter((w) => w.type === type);
  /* @end type-filter */
  const from = periodStart();
  return list.filter((w) => w.date >= from && w.date <= state.today);
}

function weeklyTotals(list, weeks) {
  const rows = weeks.map((wk) => ({ week: wk, n: 0, km: 0, sec: 0 }));
  const byWeek = new Map(rows.map((r) => [r.week, r]));
  list.forEach((w) => {
    const r = byWeek.get(weekStart(w.date));
    if (!r) return;
    r.n += 1;
    r.km += w.km;
    r.sec += w.sec;
  });
  return rows;
}

function paceText(w) {
  let text = '';
  /* @feature pace */
  text = timed(w) ? fmtPace(w.sec / w.km) : '—';
  /* @end pace */
  /* @broken pace */
  text = timed(w) ? (() => { const t = Math.floor(w.sec / w.km); return `${Math.floor(t / 60)}:${pad(t % 60)} /km`; })() : '—';
  /* @end pace */
  return text;
}

// ------------------------------------------------------------------ rendering
function renderTable(list) {
  const rows = list.slice().sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : (b.order ?? 0) - (a.order ?? 0)));
  $('rows').innerHTML = rows.length ? rows.map((w) => `<tr>
      <td>${esc(w.date)}</td><td><span class="tag t-${esc(w.type.toLowerCase())}">${esc(w.type)}</span></td>
      <td>${fmtKm(w.km)}</td><td>${fmtDuration(w.sec)}</td><td>${paceText(w)}</td>
      <td class="act">${window.deleteButton ? window.deleteButton(w) : ''}</td></tr>`).join('')
    : '<tr><td colspan="6" class="empty">No workouts match the filters.</td></tr>';
}

/* @feature summary */
window.renderSummary = (list) => {
  const km = list.reduce((a, w) => a + w.km, 0);
  const sec = list.reduce((a, w) => a + w.sec, 0);
  const paced = list.filter(timed);
  const paceSec = paced.reduce((a, w) => a + w.sec, 0);
  let paceKm = paced.reduce((a, w) => a + w.km, 0);
  /* @broken no-time */
  paceKm = list.reduce((a, w) => a + w.km, 0);
  /* @end no-time */
  const stat = (label, value) => `<div class="stat"><span class="label">${label}</span> <strong>${value}</strong></div>`;
  $('summary').innerHTML = stat('Distance', fmtKm(km)) + stat('Workouts', String(list.length))
    + stat('Time', fmtDuration(sec)) + stat('Average pace', paceKm > 0 ? fmtPace(paceSec / paceKm) : '—');
};
/* @end summary */
/* @broken summary */
window.renderSummary = (list) => {
  const km = list.reduce((a, w) => a + w.km, 0);
  const sec = list.reduce((a, w) => a + w.sec, 0);
  const paced = list.filter(timed);
  const mean = paced.length ? paced.reduce((a, w) => a + w.sec / w.km, 0) / paced.length : 0;
  const stat = (label, value) => `<div class="stat"><span class="label">${label}</span> <strong>${value}</strong></div>`;
  $('summary').innerHTML = stat('Distance', fmtKm(km)) + stat('Workouts', String(list.length))
    + stat('Time', fmtDuration(sec)) + stat('Average pace', mean ? fmtPace(mean) : '—');
};
/* @end summary */

/* @feature weekly */
window.renderWeekly = (weeks) => {
  $('weekly-rows').innerHTML = weeks.map((r) => `<tr><td>${r.week}</td><td>${r.n}</td>
    <td>${fmtKm(r.km)}</td><td>${fmtDuration(r.sec)}</td></tr>`).join('');
};
/* @end weekly */

/* @feature chart */
window.renderChart = (weeks) => {
  const W = 660, H = 260, L = 44, R = 12, T = 22, B = 34;
  const plotW = W - L - R, plotH = H - T - B;
  const top = Math.max(10, ...weeks.map((r) => r.km));
  const step = top > 80 ? 20 : 10;
  const max = Math.ceil(top / step) * step;
  const slot = plotW / Math.max(1, weeks.length);
  const bw = Math.min(46, slot * 0.62);
  const current = weekStart(state.today);
  let grid = '';
  for (let v = 0; v <= max; v += step) {
    const y = T + plotH - (v / max) * plotH;
    grid += `<line x1="${L}" x2="${W - R}" y1="${y}" y2="${y}" class="grid"/><text x="${L - 8}" y="${y + 4}" class="axis" text-anchor="end">${v}</text>`;
  }
  let bars = '';
  let labels = '';
  weeks.forEach((r, i) => {
    const h = (r.km / max) * plotH;
    const x = L + i * slot + (slot - bw) / 2;
    const y = T + plotH - h;
    const name = `Week of ${r.week}: ${fmtKm(r.km)}`;
    bars += `<rect role="img" aria-label="${name}" x="${x.toFixed(2)}" y="${y.toFixed(2)}" width="${bw.toFixed(2)}" height="${h.toFixed(2)}" rx="3" class="bar${r.week === current ? ' current' : ''}"><title>${name}</title></rect>`;
    labels += `<text x="${(x + bw / 2).toFixed(2)}" y="${H - B + 16}" class="axis" text-anchor="middle">${r.week.slice(5)}</text>`;
    if (r.km > 0) labels += `<text x="${(x + bw / 2).toFixed(2)}" y="${(y - 5).toFixed(2)}" class="val" text-anchor="middle">${round1(r.km).toFixed(1)}</text>`;
  });
  $('chart').innerHTML = `<svg viewBox="0 0 ${W} ${H}" width="100%" role="group" aria-label="Weekly distance chart">
    <g aria-hidden="true">${grid}</g><g>${bars}</g><g aria-hidden="true">${labels}</g>
    <text x="12" y="14" class="axis" aria-hidden="true">km</text></svg>`;
};
/* @end chart */
/* @broken chart */
window.renderChart = (weeks) => {
  const W = 660, H = 260, L = 44, R = 12, T = 22, B = 34;
  const plotW = W - L - R, plotH = H - T - B;
  const used = weeks.filter((r) => r.km > 0).map((r) => r.km);
  const lo = used.length ? Math.min(...used) : 0;
  const hi = Math.max(lo + 1, ...weeks.map((r) => r.km));
  const slot = plotW / Math.max(1, weeks.length);
  const bw = Math.min(46, slot * 0.62);
  let bars = '';
  weeks.forEach((r, i) => {
    const h = Math.max(0, ((r.km - lo) / (hi - lo)) * plotH);
    const x = L + i * slot + (slot - bw) / 2;
    const name = `Week of ${r.week}: ${fmtKm(r.km)}`;
    bars += `<rect role="img" aria-label="${name}" x="${x.toFixed(2)}" y="${(T + plotH - h).toFixed(2)}" width="${bw.toFixed(2)}" height="${h.toFixed(2)}" rx="3" class="bar"><title>${name}</title></rect>`;
  });
  $('chart').innerHTML = `<svg viewBox="0 0 ${W} ${H}" width="100%" role="group" aria-label="Weekly distance chart"><g>${bars}</g></svg>`;
};
/* @end chart */

/* @feature records */
window.renderRecords = () => {
  const list = allWorkouts().slice().sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : (a.order ?? 0) - (b.order ?? 0)));
  window.recordRows(list);
};
/* @end records */
/* @broken records */
window.renderRecords = () => {
  const list = filtered('records').slice().sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  window.recordRows(list);
};
/* @end records */
window.recordRows = (list) => {
  const best = (score) => list.reduce((top, w) => (score(w) > (top ? score(top) : -Infinity) ? w : top), null);
  const far = best((w) => w.km);
  const long = best((w) => w.sec);
  const fast = best((w) => (timed(w) ? -w.sec / w.km : -Infinity));
  const firstWeek = list.length ? weekStart(list[0].date) : weekStart(state.today);
  const weeks = [];
  for (let wk = firstWeek; wk <= weekStart(state.today); wk = addDays(wk, 7)) weeks.push(wk);
  const week = weeklyTotals(list, weeks).reduce((top, r) => (r.km > (top ? top.km : 0) ? r : top), null);
  const row = (name, value, date) => `<tr><th scope="row">${name}</th><td>${value}</td><td>${date}</td></tr>`;
  const dash = '—';
  const fastOk = fast && timed(fast);
  $('record-rows').innerHTML =
    row('Longest distance', far ? fmtKm(far.km) : dash, far ? far.date : dash)
    + row('Longest time', long ? fmtDuration(long.sec) : dash, long ? long.date : dash)
    + row('Fastest pace', fastOk ? fmtPace(fast.sec / fast.km) : dash, fastOk ? fast.date : dash)
    + row('Biggest week', week ? fmtKm(week.km) : dash, week ? `Week of ${week.week}` : dash);
};

function render() {
  $('notice').textContent = state.notice;
  $('notice').hidden = !state.notice;
  const list = filtered('all');
  const weeks = weeklyTotals(list, periodWeeks());
  renderTable(filtered('table'));
  window.renderSummary?.(list);
  window.renderWeekly?.(weeks);
  window.renderChart?.(weeks);
  window.renderRecords?.();
}

// ------------------------------------------------------------------ deleting
/* @feature delete */
window.deleteButton = (w) => `<button type="button" class="del" data-del="${esc(w.id)}">Delete</button>`;
$('rows').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-del]');
  if (!btn) return;
  const id = btn.dataset.del;
  if (state.added.some((w) => w.id === id)) state.added = state.added.filter((w) => w.id !== id);
  else if (!state.deleted.includes(id)) state.deleted.push(id);
  save();
  render();
});
/* @end delete */

// ------------------------------------------------------------------ adding
/* @feature add */
function formMsg(text) {
  $('form-msg').textContent = text;
  $('form-ok').textContent = '';
}
function resetForm() {
  $('add-form').reset();
  $('f-date').value = state.today;
  $('f-type').value = state.types[0] || 'Easy';
}
$('add-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const date = $('f-date').value;
  const type = $('f-type').value;
  const rawKm = $('f-distance').value.trim();
  const km = rawKm === '' ? NaN : Number(rawKm);
  const sec = parseDuration($('f-duration').value);
  /* @feature add-validation */
  if (!date) return formMsg('Enter a date.');
  if (date > state.today) return formMsg("The date can't be after today.");
  if (!(km >= 0.1 && km <= 100)) return formMsg('Enter a distance between 0.1 and 100 km.');
  if (Number.isNaN(sec)) return formMsg('Enter the duration as h:mm:ss or mm:ss.');
  if (sec === 0) return formMsg('Duration must be more than zero.');
  if (allWorkouts().some((w) => keyOf(w) === keyOf({ date, type, km, sec }))) {
    return formMsg('This workout is already in the log.');
  }
  /* @end add-validation */
  /* @broken add-validation */
  if (!date) return formMsg('Enter a date.');
  if (!(km > 0)) return formMsg('Enter a distance between 0.1 and 100 km.');
  if (Number.isNaN(sec)) return formMsg('Enter the duration as h:mm:ss or mm:ss.');
  /* @end add-validation */
  state.added.push({ id: `u${state.seq}`, date, type, km: Number.isFinite(km) ? km : 0,
                     sec: Number.isFinite(sec) ? sec : 0, order: 100000 + state.seq });
  state.seq += 1;
  save();
  resetForm();
  formMsg('');
  $('form-ok').textContent = 'Workout saved.';
  render();
  return undefined;
});
/* @end add */

// ------------------------------------------------------------------ wiring
/* @feature type-filter */
$('type-filter').addEventListener('change', render);
/* @end type-filter */
/* @broken type-filter */
$('type-filter').addEventListener('change', render);
/* @end type-filter */
/* @feature period-filter */
$('period-filter').addEventListener('change', render);
/* @end period-filter */
/* @broken period-filter */
$('period-filter').addEventListener('change', render);
/* @end period-filter */

fetch('data/workouts.json').then((r) => r.json()).then((data) => {
  state.today = String(data.today);
  state.athlete = data.athlete || '';
  state.types = Array.isArray(data.types) && data.types.length ? data.types : ['Easy', 'Long', 'Tempo', 'Intervals', 'Race'];
  state.base = normalise(Array.isArray(data.workouts) ? data.workouts : []);
  loadSaved();
  $('athlete').textContent = state.athlete;
  $('today').textContent = `Today: ${state.today}`;
  const typeSel = $('type-filter');
  if (typeSel) typeSel.insertAdjacentHTML('beforeend', state.types.map((t) => `<option>${esc(t)}</option>`).join(''));
  const formType = $('f-type');
  if (formType) {
    formType.innerHTML = state.types.map((t) => `<option>${esc(t)}</option>`).join('');
    resetFormSafe();
  }
  render();
});

function resetFormSafe() {
  if (typeof resetForm === 'function') resetForm();
}
