'use strict';
// Weekly timesheet: one shift per day of this week, hours rounded to the quarter hour,
// overtime over 37.5 h at 1.5x, public holidays at 2x. Data: data/timesheet.json.
const STORE = 'timesheet-v1';
const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const state = { data: null, days: [], shifts: {}, lastWeek: [], notice: '' };
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const pad = (n) => String(n).padStart(2, '0');
const money = (n) => '£' + (Math.round(n * 100) / 100).toFixed(2);
const hrs = (n) => (Math.round(n * 100) / 100).toFixed(2);
const hhmm = (min) => `${pad(Math.floor(min / 60))}:${pad(min % 60)}`;

// ------------------------------------------------------------------ dates
function addDays(iso, n) {
  const d = new Date(iso + 'T12:00:00Z');
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
function dayLabel(iso) {
  const d = new Date(iso + 'T12:00:00Z');
  return `${DAY_NAMES[(d.getUTCDay() + 6) % 7]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}
const weekdayIndex = (iso) => (new Date(iso + 'T12:00:00Z').getUTCDay() + 6) % 7;

// ------------------------------------------------------------------ times (§1.1)
function parseTime(raw) {
  const s = String(raw ?? '').trim().toLowerCase();
  let m = /^(\d{1,2}):(\d{2})$/.exec(s);
  let h; let min; let ampm = '';
  if (m) { h = +m[1]; min = +m[2]; }
  /* @feature time-formats */
  if (!m) {
    m = /^(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?$/.exec(s);
    if (m && (m[2] !== undefined || m[3])) { h = +m[1]; min = m[2] !== undefined ? +m[2] : 0; ampm = m[3] || ''; } else m = null;
  }
  if (m && ampm) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (ampm === 'pm' ? 12 : 0);
  }
  /* @end time-formats */
  /* @broken time-formats */
  if (!m) {
    m = /^(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?$/.exec(s);
    if (m && (m[2] !== undefined || m[3])) { h = +m[1]; min = m[2] !== undefined ? +m[2] : 0; } else m = null;
  }
  /* @end time-formats */
  if (!m || h > 23 || min > 59) return null;
  return h * 60 + min;
}

// ------------------------------------------------------------------ hours (§2)
function spanOf(start, end) {
  let span = end - start;
  /* @feature night-shift */
  if (end < start) span += 24 * 60;
  /* @end night-shift */
  return span;
}
function roundQuarter(minutes) {
  let out = minutes;
  /* @feature rounding */
  const base = Math.floor(minutes / 15) * 15;
  out = minutes - base >= 8 ? base + 15 : base;
  /* @end rounding */
  /* @broken rounding */
  out = Math.floor(minutes / 15) * 15;
  /* @end rounding */
  return out;
}
// an entry {start, end, break} (minutes) -> null when fine, else the refusal
function refusalOf(start, end, brk) {
  if (start === null || end === null) return 'Enter times like 09:00.';
  /* @feature break-check */
  if (brk >= spanOf(start, end)) return 'Break is longer than the shift.';
  /* @end break-check */
  return null;
}
const hoursOf = (s) => roundQuarter(spanOf(s.start, s.end) - s.brk) / 60;

// ------------------------------------------------------------------ holidays and pay (§3)
function holidayOf(iso, s) {
  let name = null;
  /* @feature holiday */
  const h = state.data.public_holidays.find((x) => x.date === iso);
  name = h ? h.name : null;
  /* @end holiday */
  /* @broken holiday */
  const endDay = s && s.end < s.start ? addDays(iso, 1) : iso;
  const h = state.data.public_holidays.find((x) => x.date === endDay);
  name = h ? h.name : null;
  /* @end holiday */
  return name;
}
function weekFigures() {
  const rate = state.data.rate_card.hourly_rate;
  let total = 0; let holiday = 0; let normal = 0;
  state.days.forEach((iso) => {
    const s = state.shifts[iso];
    if (!s) return;
    const h = hoursOf(s);
    total += h;
    if (holidayOf(iso, s)) holiday += h; else normal += h;
  });
  let regular = normal; let overtime = 0;
  let pay = regular * rate;
  /* @feature overtime */
  const limit = state.data.rate_card.overtime_after_hours;
  overtime = Math.max(0, normal - limit);
  regular = normal - overtime;
  pay = regular * rate + overtime * rate * state.data.rate_card.overtime_multiplier;
  /* @end overtime */
  /* @broken overtime */
  const limit = state.data.rate_card.overtime_after_hours;
  overtime = Math.max(0, normal - limit);
  regular = normal - overtime;
  pay = normal * rate + overtime * rate * state.data.rate_card.overtime_multiplier;
  /* @end overtime */
  pay += holiday * rate * state.data.rate_card.holiday_multiplier;
  return { total, regular, overtime, holiday, pay };
}
function summaryLines() {
  const f = weekFigures();
  const lines = [['Total hours', hrs(f.total)], ['Regular hours', hrs(f.regular)]];
  /* @feature overtime */
  lines.push(['Overtime hours', hrs(f.overtime)]);
  /* @end overtime */
  /* @broken overtime */
  lines.push(['Overtime hours', hrs(f.overtime)]);
  /* @end overtime */
  /* @feature holiday */
  lines.push(['Holiday hours', hrs(f.holiday)]);
  /* @end holiday */
  /* @broken holiday */
  lines.push(['Holiday hours', hrs(f.holiday)]);
  /* @end holiday */
  /* @feature summary-pay */
  lines.push(['Pay before tax', money(f.pay)]);
  /* @end summary-pay */
  return lines;
}

// ------------------------------------------------------------------ storage
function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify({ week: state.data.this_week, shifts: state.shifts }));
  /* @end persist */
}
function loadSaved() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && saved.week === state.data.this_week && saved.shifts) return saved.shifts;
  } catch (e) { /* unreadable: start empty */ }
  /* @end persist */
  return null;
}

// ------------------------------------------------------------------ last week (§1.2, §9)
function readLastWeek() {
  const start = addDays(state.data.this_week, -7);
  const week = (state.data.previous_weeks || []).find((w) => w.week_start === start);
  const kept = [];
  let dupes = 0; let refused = 0;
  (week ? week.entries : []).forEach((e) => {
    const s = { start: parseTime(e.start), end: parseTime(e.end), brk: Number(e.break_minutes) || 0 };
    if (refusalOf(s.start, s.end, s.brk)) { refused += 1; return; }
    /* @feature dedupe-days */
    if (kept.some((k) => k.date === e.date)) { dupes += 1; return; }
    /* @end dedupe-days */
    /* @broken dedupe-days */
    const i = kept.findIndex((k) => k.date === e.date);
    if (i >= 0) { dupes += 1; kept.splice(i, 1); }
    /* @end dedupe-days */
    kept.push({ date: e.date, ...s });
  });
  const parts = [];
  if (dupes) parts.push(`${dupes} duplicate day${dupes > 1 ? 's' : ''} ignored`);
  if (refused) parts.push(`${refused} ${refused > 1 ? 'entries' : 'entry'} refused (break longer than the shift)`);
  state.notice = parts.join(' · ');
  state.lastWeek = kept.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

// ------------------------------------------------------------------ rendering
function renderWeek() {
  $('week-rows').innerHTML = state.days.map((iso) => {
    const s = state.shifts[iso];
    const hol = holidayOf(iso, s);
    const tag = hol ? `<span class="tag" title="${esc(hol)}">Public holiday</span>` : '';
    if (!s) return `<tr><td>${dayLabel(iso)}${tag}</td><td class="muted" colspan="4">No shift</td><td></td></tr>`;
    let actions = '';
    /* @feature remove-shift */
    actions = `<button type="button" class="small" data-remove="${iso}">Remove</button>`;
    /* @end remove-shift */
    return `<tr><td>${dayLabel(iso)}${tag}</td><td>${hhmm(s.start)}</td><td>${hhmm(s.end)}</td>
      <td class="num">${s.brk} min</td><td class="num">${hrs(hoursOf(s))}</td><td>${actions}</td></tr>`;
  }).join('');
  $('summary-lines').innerHTML = summaryLines()
    .map(([k, v]) => `<p class="line">${k}: <b>${v}</b></p>`).join('');
}
function renderLastWeek() {
  if (!$('last-rows')) return;
  $('last-week-of').textContent = `(week of ${dayLabel(addDays(state.data.this_week, -7))} ${addDays(state.data.this_week, -7).slice(0, 4)})`;
  $('last-rows').innerHTML = state.lastWeek.map((s) => `<tr><td>${dayLabel(s.date)}</td><td>${hhmm(s.start)}</td>
    <td>${hhmm(s.end)}</td><td class="num">${s.brk} min</td><td class="num">${hrs(hoursOf(s))}</td></tr>`).join('');
  const total = state.lastWeek.reduce((a, s) => a + hoursOf(s), 0);
  $('last-total').textContent = `Last week total: ${hrs(total)} hours`;
}
function render() {
  $('notice').textContent = state.notice;
  renderWeek();
  renderLastWeek();
  window.renderPrint?.();
}

// ------------------------------------------------------------------ add shift (§4)
/* @feature shift-form */
$('shift-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const iso = $('f-day').value;
  const s = { start: parseTime($('f-start').value), end: parseTime($('f-end').value),
              brk: Math.max(0, parseInt($('f-break').value, 10) || 0) };
  const refusal = refusalOf(s.start, s.end, s.brk);
  $('form-msg').textContent = refusal || '';
  if (refusal) return;
  state.shifts[iso] = s;
  save();
  render();
});
/* @end shift-form */

/* @feature remove-shift */
$('week-rows').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-remove]');
  if (!btn) return;
  delete state.shifts[btn.dataset.remove];
  save();
  render();
});
/* @end remove-shift */

// ------------------------------------------------------------------ copy last week (§7)
/* @feature copy-week */
$('copy-week').addEventListener('click', () => {
  state.shifts = {};
  state.lastWeek.forEach((s) => {
    state.shifts[state.days[weekdayIndex(s.date)]] = { start: s.start, end: s.end, brk: s.brk };
  });
  const n = state.lastWeek.length;
  save();
  render();
  $('notice').textContent = `Copied ${n} shift${n === 1 ? '' : 's'} from last week.`;
});
/* @end copy-week */

// ------------------------------------------------------------------ printable summary (§8)
/* @feature print-summary */
window.renderPrint = () => {
  const box = $('print-view');
  if (box.hidden) return;
  const items = state.days.filter((iso) => state.shifts[iso]).map((iso) => {
    const s = state.shifts[iso];
    const hol = holidayOf(iso, s) ? ' (public holiday)' : '';
    return `<li>${dayLabel(iso)} ${hhmm(s.start)}–${hhmm(s.end)} ${hrs(hoursOf(s))} h${hol}</li>`;
  }).join('');
  $('print-body').innerHTML = `<p><strong>${esc(state.data.worker)}</strong> · ${esc(state.data.employer)}</p>
    <p>Week of ${dayLabel(state.data.this_week)} ${state.data.this_week.slice(0, 4)}</p>
    <ul aria-label="Shifts">${items}</ul>
    ${summaryLines().map(([k, v]) => `<p class="line">${k}: <b>${v}</b></p>`).join('')}`;
};
$('open-print').addEventListener('click', () => {
  $('print-view').hidden = false;
  window.renderPrint();
  $('print-view').scrollIntoView({ block: 'start' });
});
$('close-print').addEventListener('click', () => { $('print-view').hidden = true; });
$('do-print').addEventListener('click', () => window.print());
/* @end print-summary */

// ------------------------------------------------------------------ start
fetch('data/timesheet.json').then((r) => r.json()).then((data) => {
  state.data = data;
  state.days = [0, 1, 2, 3, 4, 5, 6].map((i) => addDays(data.this_week, i));
  $('who').textContent = `${data.worker} · ${money(data.rate_card.hourly_rate)} per hour`;
  if ($('f-day')) $('f-day').innerHTML = state.days.map((iso) => `<option value="${iso}">${dayLabel(iso)}</option>`).join('');
  readLastWeek();
  state.shifts = loadSaved() || {};
  render();
});
