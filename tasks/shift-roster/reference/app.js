'use strict';
// Shift roster for a cafe: week grid, staffing rules, hours, copy last week and publish.
// Data from data/cafe.json, data/staff.json, data/roster.json; changes kept in localStorage.
const STORE = 'shift-roster-weeks-v1';
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const mins = (t) => { const [h, m] = String(t).split(':').map(Number); return h * 60 + m; };
const hhmm = (n) => `${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
const fmtHours = (h) => String(Math.round(h * 10) / 10);

const state = {
  cafe: null, staff: [], shifts: [], notes: [], openDays: [],
  weeks: {}, week: '', cell: null, panelMsg: '', weekMsg: '',
};

// ------------------------------------------------------------------ dates (UTC, from the data)
const parseDate = (s) => { const [y, m, d] = s.split('-').map(Number); return new Date(Date.UTC(y, m - 1, d)); };
const isoDate = (d) => d.toISOString().slice(0, 10);
const addDays = (s, n) => { const d = parseDate(s); d.setUTCDate(d.getUTCDate() + n); return isoDate(d); };
const mondayOf = (s) => addDays(s, -((parseDate(s).getUTCDay() + 6) % 7));
const longDate = (s) => { const d = parseDate(s); return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`; };
const dayDate = (week, day) => { const d = parseDate(addDays(week, DAYS.indexOf(day))); return `${day} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`; };

// ------------------------------------------------------------------ loading
function prepare(cafe, staffData, rosterData) {
  state.cafe = cafe;
  const notes = [];
  let shifts = (cafe.shifts || []).map((s) => ({ ...s, from: mins(s.start), to: mins(s.end) }));
  /* @feature zero-shift */
  const empty = shifts.filter((s) => !(s.to > s.from)).length;
  shifts = shifts.filter((s) => s.to > s.from);
  /* @end zero-shift */
  state.shifts = shifts;
  state.openDays = DAYS.filter((d) => cafe.openingHours && cafe.openingHours[d]);

  let staff = (staffData.staff || []).map((p) => ({ ...p, windows: {}, clipped: false }));
  /* @feature dedupe */
  const seen = new Set();
  let dupes = 0;
  staff = staff.filter((p) => {
    if (seen.has(p.id)) { dupes += 1; return false; }
    seen.add(p.id);
    return true;
  });
  if (dupes) notes.push(`${dupes} duplicate staff record${dupes === 1 ? '' : 's'} skipped`);
  /* @end dedupe */
  /* @broken dedupe */
  const last = new Map();
  staff.forEach((p) => last.set(p.id, p));
  const dupes = staff.length - last.size;
  staff = staff.filter((p) => last.get(p.id) === p);
  if (dupes) notes.push(`${dupes} duplicate staff record${dupes === 1 ? '' : 's'} skipped`);
  /* @end dedupe */
  /* @feature zero-shift */
  if (empty) notes.push(`${empty} shift${empty === 1 ? '' : 's'} with no length ignored`);
  /* @end zero-shift */
  staff.forEach((p) => {
    Object.entries(p.availability || {}).forEach(([day, w]) => {
      if (!Array.isArray(w)) return;
      let from = mins(w[0]);
      let to = mins(w[1]);
      /* @feature avail-clip */
      const open = cafe.openingHours ? cafe.openingHours[day] : null;
      if (!open) { p.clipped = true; return; }
      if (from < mins(open[0])) { from = mins(open[0]); p.clipped = true; }
      if (to > mins(open[1])) { to = mins(open[1]); p.clipped = true; }
      if (!(to > from)) return;
      /* @end avail-clip */
      /* @broken avail-clip */
      const open = cafe.openingHours ? cafe.openingHours[day] : null;
      if (open && from < mins(open[0])) { from = mins(open[0]); p.clipped = true; }
      if (open && to > mins(open[1])) { to = mins(open[1]); p.clipped = true; }
      if (!(to > from)) return;
      /* @end avail-clip */
      p.windows[day] = [from, to];
    });
    /* @feature avail-clip */
    if (p.clipped) notes.push(`${p.name}: availability outside opening hours ignored`);
    /* @end avail-clip */
    /* @broken avail-clip */
    if (p.clipped) notes.push(`${p.name}: availability outside opening hours ignored`);
    /* @end avail-clip */
  });
  state.staff = staff;
  state.notes = notes;

  (rosterData.weeks || []).forEach((w) => {
    state.weeks[w.week] = { published: Boolean(w.published), assignments: (w.assignments || []).map((a) => ({ day: a.day, shift: a.shift, staff: a.staff })) };
  });
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && typeof saved === 'object') Object.assign(state.weeks, saved);
  } catch (e) { /* unreadable storage: keep the data */ }
  /* @end persist */
  state.week = addDays(mondayOf(cafe.today), 7);
}

function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify(state.weeks));
  /* @end persist */
}

// ------------------------------------------------------------------ model
function weekOf(key) {
  if (!state.weeks[key]) state.weeks[key] = { published: false, assignments: [] };
  return state.weeks[key];
}
const person = (id) => state.staff.find((p) => p.id === id) || null;
const shiftOf = (id) => state.shifts.find((s) => s.id === id) || null;
const len = (s) => (s.to - s.from) / 60;
// assignments that name a known person and a real shift
const valid = (list) => list.filter((a) => person(a.staff) && shiftOf(a.shift) && state.openDays.includes(a.day));
const inCell = (list, day, shift) => valid(list).filter((a) => a.day === day && a.shift === shift);
const hoursOf = (list, id) => valid(list).filter((a) => a.staff === id).reduce((s, a) => s + len(shiftOf(a.shift)), 0);

function hasBarista(list, day, shift) {
  let ok = true;
  /* @feature barista-warning */
  ok = inCell(list, day, shift).some((a) => person(a.staff).role === 'Barista');
  /* @end barista-warning */
  /* @broken barista-warning */
  ok = inCell(list, day, shift).length > 0;
  /* @end barista-warning */
  return ok;
}

function needingBarista(list) {
  let n = 0;
  state.openDays.forEach((d) => state.shifts.forEach((s) => { if (!hasBarista(list, d, s.id)) n += 1; }));
  return n;
}

// the first rule of PRD §2 that assigning `id` to (day, shift) would break, or null
function ruleError(list, day, shiftId, id) {
  const p = person(id);
  const s = shiftOf(shiftId);
  if (!p || !s) return 'Choose a staff member.';
  /* @feature rule-overlap */
  if (inCell(list, day, shiftId).some((a) => a.staff === id)) return `${p.name} is already on this shift.`;
  /* @end rule-overlap */
  /* @broken rule-overlap */
  if (inCell(list, day, shiftId).some((a) => a.staff === id)) return `${p.name} is already on this shift.`;
  /* @end rule-overlap */
  /* @feature rule-available */
  const w = p.windows[day];
  if (!w || w[0] > s.from || w[1] < s.to) return `${p.name} is not available for this shift.`;
  /* @end rule-available */
  /* @broken rule-available */
  const w = p.windows[day];
  if (!w || w[0] > s.from) return `${p.name} is not available for this shift.`;
  /* @end rule-available */
  /* @feature rule-overlap */
  const clash = valid(list).find((a) => a.day === day && a.staff === id && a.shift !== shiftId
    && shiftOf(a.shift).from < s.to && s.from < shiftOf(a.shift).to);
  if (clash) return `${p.name} is already working ${shiftOf(clash.shift).name} on ${day}.`;
  /* @end rule-overlap */
  /* @broken rule-overlap */
  const clash = valid(list).find((a) => a.day === day && a.staff === id && a.shift !== shiftId
    && shiftOf(a.shift).from <= s.to && s.from <= shiftOf(a.shift).to);
  if (clash) return `${p.name} is already working ${shiftOf(clash.shift).name} on ${day}.`;
  /* @end rule-overlap */
  /* @feature rule-max */
  if (hoursOf(list, id) + len(s) > p.maxHours) return `${p.name} would go over ${fmtHours(p.maxHours)} max hours.`;
  /* @end rule-max */
  /* @broken rule-max */
  if (hoursOf(list, id) + len(s) >= p.maxHours) return `${p.name} would go over ${fmtHours(p.maxHours)} max hours.`;
  /* @end rule-max */
  return null;
}

// ------------------------------------------------------------------ roster view
function renderWeekBar() {
  const wk = weekOf(state.week);
  $('week-label').textContent = `Week of ${longDate(state.week)}`;
  $('hours-week').textContent = `Week of ${longDate(state.week)}`;
  $('week-status').textContent = wk.published ? 'Status: Published' : 'Status: Draft';
  $('week-status').classList.toggle('published', wk.published);
  let draftTools = true;
  /* @feature lock */
  draftTools = !wk.published;
  /* @end lock */
  /* @broken lock */
  draftTools = !wk.published;
  /* @end lock */
  ['copy-week', 'publish-week'].forEach((id) => { if ($(id)) $(id).hidden = !draftTools; });
  $('week-msg').textContent = state.weekMsg;
}

function renderGrid() {
  const wk = weekOf(state.week);
  const head = `<thead><tr><th scope="col">Shift</th>${state.openDays.map((d) => `<th scope="col">${esc(dayDate(state.week, d))}</th>`).join('')}</tr></thead>`;
  const rows = state.shifts.map((s) => `<tr><th scope="row">${esc(s.name)} <span class="times">${hhmm(s.from)}–${hhmm(s.to)}</span></th>${
    state.openDays.map((d) => {
      const names = inCell(wk.assignments, d, s.id).map((a) => `<span class="who ${person(a.staff).role === 'Barista' ? 'barista' : ''}">${esc(person(a.staff).name)}</span>`).join('');
      const warn = hasBarista(wk.assignments, d, s.id) ? '' : '<span class="warn">Needs a barista</span>';
      const sel = state.cell && state.cell.day === d && state.cell.shift === s.id ? ' selected' : '';
      return `<td><button type="button" class="cell${sel}" data-day="${d}" data-shift="${esc(s.id)}" aria-label="${d} ${esc(s.name)}">${names}${warn}</button></td>`;
    }).join('')}</tr>`).join('');
  $('grid').innerHTML = `${head}<tbody>${rows}</tbody>`;
}

function availableNames(list, day, shiftId) {
  let names = '';
  /* @feature available-list */
  names = state.staff.filter((p) => !ruleError(list, day, shiftId, p.id)).map((p) => p.name).join(', ');
  /* @end available-list */
  /* @broken available-list */
  names = state.staff.filter((p) => {
    const e = ruleError(list, day, shiftId, p.id);
    return !e || e.endsWith('already on this shift.');
  }).map((p) => p.name).join(', ');
  /* @end available-list */
  return window.showAvailable ? `<p class="available">Available: ${esc(names || 'none')}</p>` : '';
}
/* @feature available-list */
window.showAvailable = true;
/* @end available-list */
/* @broken available-list */
window.showAvailable = true;
/* @end available-list */

function renderPanel() {
  const panel = $('panel');
  const c = state.cell;
  const s = c && shiftOf(c.shift);
  if (!c || !s) { panel.hidden = true; panel.innerHTML = ''; return; }
  const wk = weekOf(state.week);
  let editable = true;
  /* @feature lock */
  editable = !wk.published;
  /* @end lock */
  /* @broken lock */
  editable = true;
  /* @end lock */
  panel.hidden = false;
  panel.setAttribute('aria-label', `${c.day} ${s.name}`);
  const assigned = inCell(wk.assignments, c.day, c.shift).map((a) => {
    const p = person(a.staff);
    return `<li><span>${esc(p.name)} <span class="role">(${esc(p.role)})</span></span>${
      editable && window.canRemove ? `<button type="button" class="small" data-remove="${esc(p.id)}" aria-label="Remove ${esc(p.name)}">Remove</button>` : ''}</li>`;
  }).join('');
  let tools = '';
  if (wk.published && !editable) {
    tools = '<p class="locked">This week is published.</p>';
  } else if (!wk.published || editable) {
    tools = `<div class="assign"><label for="p-staff">Staff</label>
      <select id="p-staff"><option value="">Choose…</option>${state.staff.map((p) => `<option value="${esc(p.id)}">${esc(p.name)}</option>`).join('')}</select>
      ${window.canAssign ? '<button type="button" id="p-assign" class="primary">Assign</button>' : ''}</div>`;
  }
  panel.innerHTML = `<h3>${esc(dayDate(state.week, c.day))} · ${esc(s.name)} ${hhmm(s.from)}–${hhmm(s.to)}</h3>
    <ul class="assigned" aria-label="Assigned">${assigned}</ul>
    ${availableNames(wk.assignments, c.day, c.shift)}
    ${tools}
    <p class="msg" role="alert">${esc(state.panelMsg)}</p>`;
}

/* @feature assign */
window.canAssign = true;
window.assignStaff = (id) => {
  const wk = weekOf(state.week);
  const c = state.cell;
  const err = ruleError(wk.assignments, c.day, c.shift, id);
  if (err) { state.panelMsg = err; return; }
  wk.assignments.push({ day: c.day, shift: c.shift, staff: id });
  state.panelMsg = '';
  save();
};
/* @end assign */
/* @broken assign */
window.canAssign = true;
window.assignStaff = (id) => {
  const wk = weekOf(state.week);
  const c = state.cell;
  const err = ruleError(wk.assignments, c.day, c.shift, id);
  if (err) { state.panelMsg = err; return; }
  wk.assignments = wk.assignments.filter((a) => !(a.day === c.day && a.shift === c.shift));
  wk.assignments.push({ day: c.day, shift: c.shift, staff: id });
  state.panelMsg = '';
  save();
};
/* @end assign */

/* @feature remove */
window.canRemove = true;
window.removeStaff = (id) => {
  const wk = weekOf(state.week);
  const c = state.cell;
  wk.assignments = wk.assignments.filter((a) => !(a.day === c.day && a.shift === c.shift && a.staff === id));
  state.panelMsg = '';
  save();
};
/* @end remove */
/* @broken remove */
window.canRemove = true;
window.removeStaff = () => {
  const wk = weekOf(state.week);
  const c = state.cell;
  wk.assignments = wk.assignments.filter((a) => !(a.day === c.day && a.shift === c.shift));
  state.panelMsg = '';
  save();
};
/* @end remove */

/* @feature copy */
window.copyLastWeek = () => {
  const src = weekOf(addDays(state.week, -7)).assignments;
  const out = [];
  let skipped = 0;
  src.forEach((a) => {
    if (!person(a.staff) || !shiftOf(a.shift) || !state.openDays.includes(a.day) || ruleError(out, a.day, a.shift, a.staff)) {
      skipped += 1;
      return;
    }
    out.push({ day: a.day, shift: a.shift, staff: a.staff });
  });
  weekOf(state.week).assignments = out;
  state.weekMsg = `Copied ${out.length} assignments, skipped ${skipped}.`;
  save();
};
/* @end copy */
/* @broken copy */
window.copyLastWeek = () => {
  const src = weekOf(addDays(state.week, -7)).assignments;
  const out = src.map((a) => ({ day: a.day, shift: a.shift, staff: a.staff }));
  weekOf(state.week).assignments = out;
  state.weekMsg = `Copied ${out.length} assignments, skipped 0.`;
  save();
};
/* @end copy */

/* @feature publish */
window.publishWeek = () => {
  const wk = weekOf(state.week);
  const n = needingBarista(wk.assignments);
  if (n) { state.weekMsg = `Can't publish: ${n} shift${n === 1 ? ' needs' : 's need'} a barista.`; return; }
  wk.published = true;
  state.weekMsg = 'Week published.';
  save();
};
/* @end publish */
/* @broken publish */
window.publishWeek = () => {
  const wk = weekOf(state.week);
  wk.published = true;
  state.weekMsg = 'Week published.';
  save();
};
/* @end publish */

// ------------------------------------------------------------------ hours view
/* @feature hours */
window.renderHours = () => {
  const list = weekOf(state.week).assignments;
  const rows = state.staff.map((p) => {
    const n = valid(list).filter((a) => a.staff === p.id).length;
    const h = hoursOf(list, p.id);
    const status = h > p.maxHours ? '<span class="over">Over max</span>' : 'OK';
    return `<tr><th scope="row">${esc(p.name)}</th><td>${esc(p.role)}</td><td>${n}</td><td>${fmtHours(h)}</td><td>${fmtHours(p.maxHours)}</td><td>${status}</td></tr>`;
  }).join('');
  const total = valid(list);
  $('hours-wrap').innerHTML = `<table aria-label="Hours" class="data">
    <thead><tr><th scope="col">Staff</th><th scope="col">Role</th><th scope="col">Shifts</th><th scope="col">Hours</th><th scope="col">Max hours</th><th scope="col">Status</th></tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th scope="row">Total</th><td></td><td>${total.length}</td><td>${fmtHours(total.reduce((s, a) => s + len(shiftOf(a.shift)), 0))}</td><td></td><td></td></tr></tfoot></table>`;
};
/* @end hours */
/* @broken hours */
window.renderHours = () => {
  const list = weekOf(state.week).assignments;
  const rows = state.staff.map((p) => {
    const n = valid(list).filter((a) => a.staff === p.id).length;
    const h = n * 5;
    const status = h > p.maxHours ? '<span class="over">Over max</span>' : 'OK';
    return `<tr><th scope="row">${esc(p.name)}</th><td>${esc(p.role)}</td><td>${n}</td><td>${fmtHours(h)}</td><td>${fmtHours(p.maxHours)}</td><td>${status}</td></tr>`;
  }).join('');
  const total = valid(list);
  $('hours-wrap').innerHTML = `<table aria-label="Hours" class="data">
    <thead><tr><th scope="col">Staff</th><th scope="col">Role</th><th scope="col">Shifts</th><th scope="col">Hours</th><th scope="col">Max hours</th><th scope="col">Status</th></tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th scope="row">Total</th><td></td><td>${total.length}</td><td>${fmtHours(total.length * 5)}</td><td></td><td></td></tr></tfoot></table>`;
};
/* @end hours */

// ------------------------------------------------------------------ staff view
/* @feature staff-page */
window.renderStaff = () => {
  const rows = state.staff.map((p) => {
    const av = DAYS.filter((d) => p.windows[d]).map((d) => `${d} ${hhmm(p.windows[d][0])}–${hhmm(p.windows[d][1])}`).join(', ');
    const note = p.clipped ? ' <span class="note">Outside opening hours ignored</span>' : '';
    return `<tr><th scope="row">${esc(p.name)}</th><td>${esc(p.role)}</td><td>${fmtHours(p.maxHours)}</td><td>${esc(av || '—')}${note}</td></tr>`;
  }).join('');
  $('staff-wrap').innerHTML = `<table aria-label="Staff" class="data">
    <thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Max hours</th><th scope="col">Availability</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
};
/* @end staff-page */

// ------------------------------------------------------------------ wiring
function renderNotes() {
  const ul = $('notes');
  ul.innerHTML = state.notes.map((n) => `<li>${esc(n)}</li>`).join('');
  ul.hidden = state.notes.length === 0;
}

function render() {
  renderWeekBar();
  renderGrid();
  renderPanel();
  window.renderHours?.();
  window.renderStaff?.();
}

function route() {
  const h = location.hash;
  const view = h.startsWith('#/staff') ? 'staff' : h.startsWith('#/hours') ? 'hours' : 'roster';
  ['roster', 'staff', 'hours'].forEach((v) => { $(`view-${v}`).hidden = v !== view; });
  document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.getAttribute('href') === `#/${view}`));
}

function goWeek(delta) {
  state.week = addDays(state.week, delta);
  state.cell = null;
  state.panelMsg = '';
  state.weekMsg = '';
  render();
}

function wire() {
  $('grid').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-day]');
    if (!b) return;
    state.cell = { day: b.dataset.day, shift: b.dataset.shift };
    state.panelMsg = '';
    render();
  });
  $('panel').addEventListener('click', (e) => {
    const rm = e.target.closest('button[data-remove]');
    if (rm && window.removeStaff) { window.removeStaff(rm.dataset.remove); render(); return; }
    if (e.target.closest('#p-assign') && window.assignStaff) {
      window.assignStaff($('p-staff').value);
      render();
    }
  });
  /* @feature week-nav */
  $('prev-week').addEventListener('click', () => goWeek(-7));
  $('next-week').addEventListener('click', () => goWeek(7));
  /* @end week-nav */
  /* @broken week-nav */
  $('prev-week').addEventListener('click', () => goWeek(-7));
  $('next-week').addEventListener('click', () => goWeek(6));
  /* @end week-nav */
  $('copy-week')?.addEventListener('click', () => { window.copyLastWeek?.(); render(); });
  $('publish-week')?.addEventListener('click', () => { window.publishWeek?.(); render(); });
  window.addEventListener('hashchange', route);
}

Promise.all(['cafe', 'staff', 'roster'].map((f) => fetch(`data/${f}.json`).then((r) => r.json())))
  .then(([cafe, staff, roster]) => {
    prepare(cafe, staff, roster);
    $('cafe-name').textContent = cafe.name || '';
    renderNotes();
    wire();
    route();
    render();
  });
