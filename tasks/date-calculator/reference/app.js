'use strict';
// Date calculator: calendar and working days on the office's holidays (data/holidays.json),
// dated by the data's fixed "today". Days are whole UTC day numbers, so no clock or time zone
// ever shifts a date.
const STORE = 'date-calculator-saved-v1';
const DAY = 86400000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const state = { office: '', today: null, holidays: [], offDays: new Map(), saved: [] };
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

// ------------------------------------------------------------------ dates
function dayOf(y, m, d) {
  const t = Date.UTC(y, m - 1, d);
  const dt = new Date(t);
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return t / DAY;
}
function parseIso(s) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(s ?? '').trim());
  return m ? dayOf(+m[1], +m[2], +m[3]) : null;
}
function parseDataDate(s) {
  const text = String(s ?? '').trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return parseIso(text);
  let m = null;
  /* @feature day-first */
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (m) return dayOf(+m[3], +m[2], +m[1]);
  /* @end day-first */
  /* @broken day-first */
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (m) return dayOf(+m[3], +m[1], +m[2]);
  /* @end day-first */
  return m;
}
const weekday = (day) => (((day + 4) % 7) + 7) % 7; // day 0 (1970-01-01) was a Thursday
const iso = (day) => new Date(day * DAY).toISOString().slice(0, 10);
function fmt(day) {
  const d = new Date(day * DAY);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

// ------------------------------------------------------------------ holidays
function observedOn(day) {
  const w = weekday(day);
  /* @feature observed */
  if (w === 6) return day + 2;
  if (w === 0) return day + 1;
  /* @end observed */
  /* @broken observed */
  if (w === 6) return day + 1;
  /* @end observed */
  return null;
}

function fromData(raw) {
  const notices = [];
  let list = [];
  (raw.holidays || []).forEach((h) => {
    const day = parseDataDate(h.date);
    if (day == null) {
      /* @feature invalid-dates */
      notices.push(`Skipped ${String(h.name).trim()}: ${h.date} is not a date.`);
      /* @end invalid-dates */
      return;
    }
    list.push({ day, name: String(h.name).trim(), rawName: String(h.name) });
  });
  /* @feature dedupe */
  const seen = new Set();
  let dup = 0;
  list = list.filter((h) => {
    const key = `${h.day}|${h.name}`;
    if (seen.has(key)) { dup += 1; return false; }
    seen.add(key);
    return true;
  });
  if (dup) notices.unshift(`${dup} duplicate holiday${dup > 1 ? 's' : ''} ignored.`);
  /* @end dedupe */
  /* @broken dedupe */
  const seen = new Set();
  let dup = 0;
  list = list.filter((h) => {
    const key = `${h.day}|${h.rawName}`;
    if (seen.has(key)) { dup += 1; return false; }
    seen.add(key);
    return true;
  });
  if (dup) notices.unshift(`${dup} duplicate holiday${dup > 1 ? 's' : ''} ignored.`);
  /* @end dedupe */
  list.sort((a, b) => a.day - b.day);
  list.forEach((h) => {
    h.observed = observedOn(h.day);
    const off = h.observed ?? h.day;
    if (!state.offDays.has(off)) state.offDays.set(off, h.name);
  });
  state.holidays = list;
  $('notice').textContent = notices.join(' ');
}

function isWeekend(day) {
  const w = weekday(day);
  /* @feature weekends */
  return w === 0 || w === 6;
  /* @end weekends */
  /* @broken weekends */
  return w === 0;
  /* @end weekends */
  return false;
}
function isWorking(day) {
  if (isWeekend(day)) return false;
  /* @feature holiday-exclusion */
  if (state.offDays.has(day)) return false;
  /* @end holiday-exclusion */
  /* @broken holiday-exclusion */
  if (state.offDays.has(day) && weekday(day) !== 1) return false;
  /* @end holiday-exclusion */
  return true;
}
// the holiday a working weekday was taken out for (null when it is a working day or a weekend)
function holidayOn(day) {
  if (isWeekend(day) || isWorking(day)) return null;
  return state.offDays.get(day) ?? null;
}

function renderHolidays() {
  $('h-count').textContent = `${plural(state.holidays.length, 'holiday')} for ${state.office}`;
  /* @feature holidays-table */
  $('h-rows').innerHTML = state.holidays.map((h) => `<tr><td>${fmt(h.day)}</td><td>${esc(h.name)}</td>`
    + `<td>${h.observed != null ? fmt(h.observed) : ''}</td></tr>`).join('');
  /* @end holidays-table */
}

// ------------------------------------------------------------------ results and saving
function showResult(prefix, html, savedText) {
  $(`${prefix}-msg`).textContent = '';
  $(`${prefix}-result`).innerHTML = html;
  $(`${prefix}-save`).innerHTML = '';
  /* @feature save */
  const btn = document.createElement('button');
  btn.type = 'button';
  btn.textContent = 'Save';
  btn.addEventListener('click', () => {
    state.saved.unshift(savedText);
    persist();
    renderSaved();
    btn.disabled = true;
    btn.textContent = 'Saved';
  });
  $(`${prefix}-save`).appendChild(btn);
  /* @end save */
}
function showError(prefix, text) {
  $(`${prefix}-result`).innerHTML = '';
  $(`${prefix}-save`).innerHTML = '';
  $(`${prefix}-msg`).textContent = text;
}

function persist() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify(state.saved));
  /* @end persist */
}
function restore() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || '[]');
    if (Array.isArray(saved)) state.saved = saved.filter((s) => typeof s === 'string');
  } catch (e) { /* unreadable: start empty */ }
  /* @end persist */
}
function renderSaved() {
  $('s-empty').hidden = state.saved.length > 0;
  $('s-list').innerHTML = state.saved.map((text, i) => `<li><span>${esc(text)}</span>`
    /* @feature remove */
    + `<button type="button" data-i="${i}">Remove</button>`
    /* @end remove */
    + '</li>').join('');
}
/* @feature remove */
$('s-list').addEventListener('click', (e) => {
  const btn = e.target.closest('button[data-i]');
  if (!btn) return;
  state.saved.splice(+btn.dataset.i, 1);
  persist();
  renderSaved();
});
/* @end remove */
/* @broken remove */
$('s-list').addEventListener('click', (e) => {
  const btn = e.target.closest('button[data-i]');
  if (!btn) return;
  state.saved.pop();
  persist();
  renderSaved();
});
/* @end remove */

// ------------------------------------------------------------------ days between
function calculate() {
  const a = parseIso($('b-start').value);
  const b = parseIso($('b-end').value);
  /* @feature between-validation */
  if (a == null || b == null) return showError('b', 'Enter both dates.');
  if (b < a) return showError('b', 'The end date is before the start date.');
  /* @end between-validation */
  /* @broken between-validation */
  if (a == null || b == null) return showError('b', 'Enter both dates.');
  /* @end between-validation */
  const inc = $('b-inc').checked;
  let incWork = false;
  /* @feature include-end */
  incWork = inc;
  /* @end include-end */
  /* @broken include-end */
  incWork = false;
  /* @end include-end */
  let calendar = (b - a) + (inc ? 1 : 0);
  /* @broken calendar-count */
  calendar = (b - a) + 1;
  /* @end calendar-count */
  let working = 0;
  const named = [];
  for (let d = a; d < b + (incWork ? 1 : 0); d += 1) {
    if (isWorking(d)) working += 1;
    const h = holidayOn(d);
    if (h) named.push(h);
  }
  let html = '';
  /* @feature calendar-count */
  html += `<p class="big">${plural(calendar, 'calendar day')}</p>`;
  /* @end calendar-count */
  /* @broken calendar-count */
  html += `<p class="big">${plural(calendar, 'calendar day')}</p>`;
  /* @end calendar-count */
  html += `<p class="big">${plural(working, 'working day')}</p>`;
  /* @feature holidays-named */
  html += `<p>${named.length ? `Holidays in this period: ${esc(named.join(', '))}` : 'No holidays in this period.'}</p>`;
  /* @end holidays-named */
  const saved = `${fmt(a)} to ${fmt(b)}${inc ? ' (end date included)' : ''}: `
    + `${plural(calendar, 'calendar day')}, ${plural(working, 'working day')}`;
  showResult('b', html, saved);
}
/* @feature between */
$('b-calc').addEventListener('click', calculate);
/* @end between */

// ------------------------------------------------------------------ add working days
function addDays() {
  const a = parseIso($('a-start').value);
  const raw = $('a-days').value.trim();
  /* @feature add-validation */
  if (!/^\d+$/.test(raw) || +raw < 1 || +raw > 365) {
    return showError('a', 'Enter a whole number of working days from 1 to 365.');
  }
  /* @end add-validation */
  /* @broken add-validation */
  if (!/^\d+(\.\d+)?$/.test(raw) || +raw < 1 || +raw > 365) {
    return showError('a', 'Enter a whole number of working days from 1 to 365.');
  }
  /* @end add-validation */
  if (a == null) return showError('a', 'Enter a start date.');
  const n = Number(raw) || 0;
  const back = document.querySelector('input[name="a-dir"]:checked')?.value === 'backward';
  let step = 1;
  let day = a;
  /* @feature backward */
  if (back) step = -1;
  /* @end backward */
  /* @broken backward */
  if (back) { step = -1; day = a + 1; }
  /* @end backward */
  const skipped = [];
  let counted = 0;
  while (counted < n) {
    day += step;
    if (isWorking(day)) counted += 1;
    else {
      const h = holidayOn(day);
      if (h) skipped.push(h);
    }
  }
  let html = `<p class="big">Result: ${fmt(day)}</p>`;
  if (skipped.length) html += `<p>Skipped: ${esc(skipped.join(', '))}</p>`;
  const sign = step < 0 ? '−' : '+';
  showResult('a', html, `${fmt(a)} ${sign} ${plural(n, 'working day')} = ${fmt(day)}`);
}
/* @feature add */
$('a-add').addEventListener('click', addDays);
/* @end add */

// ------------------------------------------------------------------ start
async function start() {
  const raw = await (await fetch('data/holidays.json')).json();
  state.office = String(raw.office || 'the office');
  state.today = parseIso(raw.today);
  $('office').textContent = state.office;
  fromData(raw);
  renderHolidays();
  ['b-start', 'b-end', 'a-start'].forEach((id) => { $(id).value = iso(state.today); });
  restore();
  renderSaved();
}
start();
