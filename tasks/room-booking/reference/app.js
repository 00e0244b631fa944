'use strict';
// Room booking: rooms from data/rooms.json, bookings and "today" from data/bookings.json.
const STORE = 'room-booking-v1';
const state = {
  today: '', day: '', rooms: [], bookings: [], orphans: [],
  form: null,          // {mode: 'new'|'edit', id}
  flash: '', formMsg: '',
};
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const toMin = (t) => { const [h, m] = String(t || '').trim().split(':').map(Number); return (h || 0) * 60 + (m || 0); };
const pad = (n) => String(n).padStart(2, '0');
const normTime = (t) => { const [h, m] = String(t || '').trim().split(':').map(Number); return `${pad(h || 0)}:${pad(m || 0)}`; };
const addDays = (iso, n) => { const d = new Date(`${iso}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + n); return d.toISOString().slice(0, 10); };
const daysBetween = (a, b) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86400000);
const roomByName = (name) => state.rooms.find((r) => r.name === name);
const span = (b) => `${b.start}–${b.end}`;
let seq = 1;

// ------------------------------------------------------------------ storage
function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify({ bookings: state.bookings, seq }));
  /* @end persist */
}
function loadSaved() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && Array.isArray(saved.bookings)) { seq = saved.seq || seq; return saved.bookings; }
  } catch (e) { /* unreadable: start from the data */ }
  /* @end persist */
  return null;
}

// ------------------------------------------------------------------ rooms
const inMaintenance = (room) => Number(room.capacity) === 0;
function maintenanceRefusal(room) {
  if (Number(room.capacity) === 0) return `${room.name} is under maintenance.`;
  return '';
}

function renderRooms() {
  let html = '';
  /* @feature rooms-table */
  html = state.rooms.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(r.floor)}</td><td>${esc(r.capacity)}</td>
    <td>${esc((r.equipment || []).join(', '))}</td>
    <td><span class="pill ${inMaintenance(r) ? 'off' : 'ok'}">${inMaintenance(r) ? 'Under maintenance' : 'Available'}</span></td></tr>`).join('');
  /* @end rooms-table */
  $('room-rows').innerHTML = html;
  const sel = $('f-room');
  const keep = sel.value;
  sel.innerHTML = state.rooms.map((r) => `<option>${esc(r.name)}</option>`).join('');
  if (keep) sel.value = keep;
}

// ------------------------------------------------------------------ occurrences
function datesOf(b) {
  let dates = [b.date];
  /* @feature series */
  dates = [];
  for (let i = 0; i < (b.weeks || 1); i += 1) dates.push(addDays(b.date, 7 * i));
  /* @end series */
  /* @feature skip */
  dates = dates.filter((d) => !(b.skip || []).includes(d));
  /* @end skip */
  /* @broken skip */
  dates = dates.filter((d) => !(b.skip || []).includes(d));
  /* @end skip */
  return dates;
}
const overlaps = (a, b) => toMin(a.start) < toMin(b.end) && toMin(b.start) < toMin(a.end);

function itemsOn(day) {
  const items = state.bookings.filter((b) => datesOf(b).includes(day));
  return items.sort((a, b) => a.start.localeCompare(b.start) || a.room.localeCompare(b.room));
}

function conflictFlags(items) {
  const flagged = new Set();
  /* @feature conflict-flags */
  items.forEach((a) => items.forEach((b) => { if (a !== b && a.room === b.room && overlaps(a, b)) flagged.add(a.id); }));
  /* @end conflict-flags */
  return flagged;
}

function doubleBookingCount() {
  let pairs = 0;
  /* @feature conflict-flags */
  const days = new Set(state.bookings.flatMap(datesOf));
  days.forEach((day) => {
    const items = state.bookings.filter((b) => datesOf(b).includes(day));
    items.forEach((a, i) => items.slice(i + 1).forEach((b) => { if (a.room === b.room && overlaps(a, b)) pairs += 1; }));
  });
  /* @end conflict-flags */
  return pairs;
}

function overCapacity(b) {
  const room = roomByName(b.room);
  if (!room) return false;
  let over = false;
  /* @feature capacity */
  over = Number(b.attendees) > Number(room.capacity) && Number(room.capacity) > 0;
  /* @end capacity */
  /* @broken capacity */
  over = Number(b.attendees) >= Number(room.capacity) && Number(room.capacity) > 0;
  /* @end capacity */
  return over;
}

// ------------------------------------------------------------------ day view
function renderDay() {
  $('day').value = state.day;
  const d = new Date(`${state.day}T00:00:00Z`);
  $('day-label').textContent = Number.isNaN(d.getTime()) ? ''
    : d.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const items = itemsOn(state.day);
  const flagged = conflictFlags(items);
  $('day-rows').innerHTML = items.map((b) => {
    const notes = [];
    if (flagged.has(b.id)) notes.push('<span class="pill bad">Conflict</span>');
    if (overCapacity(b)) notes.push('<span class="pill warn">Over capacity</span>');
    if ((b.weeks || 1) > 1) notes.push('<span class="pill info">Weekly</span>');
    let buttons = '';
    /* @feature edit */
    buttons += `<button type="button" data-act="edit" data-id="${esc(b.id)}">Edit</button>`;
    /* @end edit */
    /* @feature cancel */
    buttons += `<button type="button" data-act="cancel" data-id="${esc(b.id)}">Cancel booking</button>`;
    /* @end cancel */
    /* @broken cancel */
    buttons += `<button type="button" data-act="cancel" data-id="${esc(b.id)}" data-row="${items.indexOf(b)}">Cancel booking</button>`;
    /* @end cancel */
    /* @feature skip */
    if ((b.weeks || 1) > 1) buttons += `<button type="button" data-act="skip" data-id="${esc(b.id)}">Skip this date</button>`;
    /* @end skip */
    /* @broken skip */
    if ((b.weeks || 1) > 1) buttons += `<button type="button" data-act="skip" data-id="${esc(b.id)}">Skip this date</button>`;
    /* @end skip */
    return `<tr><td class="time">${esc(span(b))}</td><td>${esc(b.room)}</td><td><strong>${esc(b.title)}</strong></td>
      <td>${esc(b.organiser)}</td><td>${esc(b.attendees)}</td><td>${notes.join(' · ')}</td>
      <td class="row-actions">${buttons}</td></tr>`;
  }).join('');
  $('day-empty').hidden = items.length > 0;
}

function renderNotice() {
  const n = doubleBookingCount();
  $('notice').textContent = n ? `${n} double booking${n > 1 ? 's' : ''}` : '';
  $('notice').hidden = !n;
}

function renderOrphans() {
  $('orphans').innerHTML = state.orphans.map((b) => `<li>${esc(b.title)} · ${esc(b.date)} ${esc(span(b))} · room ${esc(b.room)} no longer exists</li>`).join('')
    || '<li class="muted">None</li>';
}

function render() {
  renderRooms();
  renderDay();
  renderNotice();
  renderOrphans();
  $('flash').textContent = state.flash;
}

// ------------------------------------------------------------------ the booking form
function openForm(mode, b) {
  state.form = { mode, id: b && mode === 'edit' ? b.id : null };
  $('form-wrap').hidden = false;
  const title = mode === 'edit' ? 'Edit booking' : 'New booking';
  $('form-title').textContent = title;
  $('bform').setAttribute('aria-label', title);
  $('form-msg').textContent = '';
  $('f-title').value = b?.title || '';
  $('f-room').value = b?.room || state.rooms[0]?.name || '';
  $('f-date').value = b?.date || state.day;
  $('f-start').value = b?.start || '';
  $('f-end').value = b?.end || '';
  $('f-organiser').value = b?.organiser || '';
  $('f-attendees').value = b?.attendees ?? '';
  if ($('f-weekly')) {
    $('f-weekly').checked = (b?.weeks || 1) > 1;
    $('f-occurrences').value = (b?.weeks || 1) > 1 ? b.weeks : 4;
  }
  $('f-title').focus();
}
function closeForm() { state.form = null; $('form-wrap').hidden = true; }
$('f-close').addEventListener('click', closeForm);

function readForm() {
  const b = {
    title: $('f-title').value.trim(), room: $('f-room').value, date: $('f-date').value,
    start: $('f-start').value, end: $('f-end').value, organiser: $('f-organiser').value.trim(),
    attendees: parseInt($('f-attendees').value, 10) || 0, weeks: 1, skip: [],
  };
  let occurrences = 0;
  /* @feature weekly */
  if ($('f-weekly').checked) { occurrences = parseInt($('f-occurrences').value, 10) || 0; b.weeks = occurrences; }
  /* @end weekly */
  /* @broken weekly */
  if ($('f-weekly').checked) { occurrences = parseInt($('f-occurrences').value, 10) || 0; b.weeks = occurrences + 1; }
  /* @end weekly */
  return { b, occurrences, weekly: Boolean($('f-weekly')?.checked) };
}

function firstConflict(b, selfId) {
  let found = null;
  /* @feature conflict-check */
  const mine = datesOf(b);
  state.bookings.forEach((o) => {
    if (o.id === selfId || o.room !== b.room) return;
    datesOf(o).forEach((d) => {
      if (!mine.includes(d) || !overlaps(b, o)) return;
      if (!found || d < found.date || (d === found.date && toMin(o.start) < toMin(found.o.start))) found = { o, date: d };
    });
  });
  /* @end conflict-check */
  /* @broken conflict-check */
  const mine = datesOf(b);
  state.bookings.forEach((o) => {
    if (o.id === selfId || o.room !== b.room) return;
    datesOf(o).forEach((d) => {
      if (!mine.includes(d) || !(toMin(b.start) <= toMin(o.end) && toMin(o.start) <= toMin(b.end))) return;
      if (!found || d < found.date || (d === found.date && toMin(o.start) < toMin(found.o.start))) found = { o, date: d };
    });
  });
  /* @end conflict-check */
  return found ? `Conflict with ${found.o.title} on ${found.date}, ${span(found.o)}.` : '';
}

function validate(b, occurrences, weekly, selfId) {
  if (!b.title) return 'Title is required.';
  if (!b.organiser) return 'Organiser is required.';
  if (!b.date) return 'Date is required.';
  if (!b.start || !b.end || toMin(b.end) <= toMin(b.start)) return 'End must be after Start.';
  if (b.attendees < 1) return 'Attendees must be at least 1.';
  /* @feature weekly */
  if (weekly && !(occurrences >= 2 && occurrences <= 12)) return 'Occurrences must be between 2 and 12.';
  /* @end weekly */
  /* @broken weekly */
  if (weekly && !(occurrences >= 2 && occurrences <= 12)) return 'Occurrences must be between 2 and 12.';
  /* @end weekly */
  const room = roomByName(b.room);
  if (!room) return 'Choose a room.';
  const refusal = maintenanceRefusal(room);
  if (refusal) return refusal;
  return firstConflict(b, selfId);
}

$('bform').addEventListener('submit', (e) => {
  e.preventDefault();
  if (!state.form) return;
  const { b, occurrences, weekly } = readForm();
  const selfId = state.form.mode === 'edit' ? state.form.id : null;
  const msg = validate(b, occurrences, weekly, selfId);
  if (msg) { $('form-msg').textContent = msg; return; }
  let saved = b;
  if (selfId) {
    /* @feature edit */
    const old = state.bookings.find((x) => x.id === selfId);
    Object.assign(old, b, { id: old.id, skip: b.weeks > 1 ? (old.skip || []) : [] });
    saved = old;
    /* @end edit */
  } else {
    saved = { ...b, id: `N-${seq}` };
    seq += 1;
    state.bookings.push(saved);
  }
  state.day = saved.date;
  state.flash = 'Booking saved.';
  if (overCapacity(saved)) {
    const room = roomByName(saved.room);
    state.flash += ` Over capacity: ${room.name} seats ${room.capacity}.`;
  }
  closeForm();
  save();
  render();
});

/* @feature create */
$('new-booking').addEventListener('click', () => openForm('new', null));
/* @end create */

// ------------------------------------------------------------------ row actions
const ROW_ACTIONS = {};
/* @feature edit */
ROW_ACTIONS.edit = (b) => openForm('edit', b);
/* @end edit */
/* @feature cancel */
ROW_ACTIONS.cancel = (b) => {
  state.bookings = state.bookings.filter((x) => x.id !== b.id);
  state.flash = 'Booking cancelled.';
};
/* @end cancel */
/* @broken cancel */
ROW_ACTIONS.cancel = (b, btn) => {
  state.bookings.splice(Number(btn.dataset.row), 1);
  state.flash = 'Booking cancelled.';
};
/* @end cancel */
/* @feature skip */
ROW_ACTIONS.skip = (b) => {
  b.skip = [...(b.skip || []), state.day];
  state.flash = `Skipped ${state.day}.`;
};
/* @end skip */
/* @broken skip */
ROW_ACTIONS.skip = (b) => {
  b.weeks = Math.max(1, Math.floor(daysBetween(b.date, state.day) / 7));
  state.flash = `Skipped ${state.day}.`;
};
/* @end skip */

$('day-rows').addEventListener('click', (e) => {
  const btn = e.target.closest('button[data-act]');
  if (!btn) return;
  const b = state.bookings.find((x) => x.id === btn.dataset.id);
  const act = ROW_ACTIONS[btn.dataset.act];
  if (!b || !act) return;
  act(b, btn);
  if (btn.dataset.act !== 'edit') { save(); render(); }
});

// ------------------------------------------------------------------ day navigation
$('day').addEventListener('change', () => { if ($('day').value) { state.day = $('day').value; state.flash = ''; render(); } });
$('day').addEventListener('input', () => { if ($('day').value) { state.day = $('day').value; renderDay(); } });
/* @feature day-nav */
$('prev-day').addEventListener('click', () => { state.day = addDays(state.day, -1); state.flash = ''; render(); });
$('next-day').addEventListener('click', () => { state.day = addDays(state.day, 1); state.flash = ''; render(); });
/* @end day-nav */

// ------------------------------------------------------------------ find a free room
/* @feature finder */
function freeRooms(date, from, to, people) {
  const probe = { start: from, end: to };
  const busy = new Set(state.bookings.filter((b) => datesOf(b).includes(date) && overlaps(b, probe)).map((b) => b.room));
  return state.rooms
    .filter((r) => !inMaintenance(r))
    .filter((r) => Number(r.capacity) >= people && Number(r.capacity) > 0 && !busy.has(r.name))
    .sort((a, b) => a.capacity - b.capacity || a.name.localeCompare(b.name));
}
/* @end finder */
function runSearch() {
  if (!$('s-search')) return;
  const date = $('s-date').value;
  const from = $('s-from').value;
  const to = $('s-to').value;
  const people = parseInt($('s-people').value, 10) || 1;
  $('s-msg').textContent = '';
  $('s-results').innerHTML = '';
  if (!date || !from || !to || toMin(to) <= toMin(from)) { $('s-msg').textContent = 'To must be after From.'; return; }
  const rooms = freeRooms(date, from, to, people);
  if (!rooms.length) { $('s-results').innerHTML = '<p class="muted">No room is free.</p>'; return; }
  let book = () => '';
  book = (r) => `<button type="button" data-book="${esc(r.name)}">Book</button>`;
  $('s-results').innerHTML = `<table aria-label="Free rooms" class="grid compact">
    <thead><tr><th>Room</th><th>Capacity</th><th>Equipment</th><th><span class="sr">Book</span></th></tr></thead>
    <tbody>${rooms.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(r.capacity)} seats</td>
      <td>${esc((r.equipment || []).join(', '))}</td><td>${book(r)}</td></tr>`).join('')}</tbody></table>`;
  $('s-results').dataset.query = JSON.stringify({ date, from, to, people });
}
if ($('s-search')) {
  $('s-search').addEventListener('click', runSearch);
  $('s-results').addEventListener('click', (e) => {
    const btn = e.target.closest('button[data-book]');
    if (!btn) return;
    const q = JSON.parse($('s-results').dataset.query || '{}');
    openForm('new', { room: btn.dataset.book, date: q.date, start: q.from, end: q.to, attendees: q.people });
  });
}

// ------------------------------------------------------------------ start
function fromData(rawBookings) {
  const known = new Set(state.rooms.map((r) => r.name));
  const list = rawBookings.map((b) => ({
    id: b.id, room: String(b.room || '').trim(), title: b.title, date: b.date,
    start: String(b.start || '').trim(), end: String(b.end || '').trim(), organiser: b.organiser,
    attendees: Number(b.attendees) || 0, weeks: Number(b.repeat_weeks) || 1, skip: [...(b.skip || [])],
  }));
  list.forEach((b) => { b.start = normTime(b.start); b.end = normTime(b.end); });
  state.orphans = list.filter((b) => !known.has(b.room));
  return list.filter((b) => known.has(b.room));
}

Promise.all([
  fetch('data/rooms.json').then((r) => r.json()),
  fetch('data/bookings.json').then((r) => r.json()),
]).then(([rooms, data]) => {
  state.rooms = rooms;
  state.today = data.today;
  state.day = data.today;
  $('today').textContent = `Today: ${data.today}`;
  const list = fromData(data.bookings || []);
  state.bookings = loadSaved() || list;
  if ($('s-date')) $('s-date').value = data.today;
  render();
});
