'use strict';
// Meeting planner: a team's time zones from data/team.json, a grid of hours, a picked slot shown
// in every zone, suggestions and a summary text. Offsets come from Intl for the actual date.
const STORE = 'meeting-planner-v1';
const DEFAULT_HOURS = ['09:00', '17:00'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
  'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MIN = 60000;

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const pad = (n) => String(n).padStart(2, '0');
const hhmm = (min) => `${pad(Math.floor(min / 60) % 24)}:${pad(min % 60)}`;
const toMin = (s) => { const m = /^(\d{2}):(\d{2})$/.exec(String(s || '')); return m && +m[1] < 24 && +m[2] < 60 ? (+m[1]) * 60 + (+m[2]) : null; };

const state = {
  people: [], title: 'Team sync', date: '2026-01-01', host: 'UTC', duration: 60,
  slot: null,          // the picked slot's start, UTC epoch milliseconds
};
let reference = { ms: 0, zone: 'UTC' };
let issues = [];

// ------------------------------------------------------------------ time zones
const fmtCache = new Map();
function formatter(zone) {
  if (!fmtCache.has(zone)) {
    fmtCache.set(zone, new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', weekday: 'short',
    }));
  }
  return fmtCache.get(zone);
}
function validZone(zone) {
  try { formatter(String(zone)); return true; } catch (e) { return false; }
}
// the wall-clock parts of instant ms in zone
function parts(ms, zone) {
  let p;
  try { p = formatter(zone).formatToParts(new Date(ms)); } catch (e) { return null; }
  const get = (t) => p.find((x) => x.type === t)?.value;
  const y = +get('year'); const mo = +get('month'); const d = +get('day');
  const h = +get('hour') % 24; const mi = +get('minute');
  const wd = new Date(Date.UTC(y, mo - 1, d)).getUTCDay();
  return { y, mo, d, h, mi, wd, date: `${y}-${pad(mo)}-${pad(d)}`, min: h * 60 + mi };
}
function offsetMin(ms, zone) {
  const p = parts(ms, zone);
  if (!p) return null;
  return Math.round((Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi) - Math.floor(ms / MIN) * MIN) / MIN);
}
// the instant of wall-clock date + minutes in zone
function zonedToUtc(date, minutes, zone) {
  const [y, m, d] = date.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d, 0, minutes);
  const o1 = offsetMin(guess, zone) ?? 0;
  let t = guess - o1 * MIN;
  const o2 = offsetMin(t, zone) ?? 0;
  if (o2 !== o1) t = guess - o2 * MIN;
  return t;
}
function fmtOffset(off) {
  if (off === null) return '—';
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  return `UTC${sign}${Math.floor(a / 60)}${a % 60 ? `:${pad(a % 60)}` : ''}`;
}
function longDate(p) { return `${DAYS[p.wd]}, ${p.d} ${MONTHS[p.mo - 1]} ${p.y}`; }
function shortDay(p) { return `${DAYS[p.wd].slice(0, 3)} ${p.d} ${MONTHS[p.mo - 1].slice(0, 3)}`; }

// the slot [ms, ms + duration) in zone, as "HH:MM–HH:MM Ddd D Mon"
function localSlot(ms, zone) {
  const a = parts(ms, zone);
  const b = parts(ms + state.duration * MIN, zone);
  if (!a || !b) return '—';
  let day = '';
  /* @feature local-day */
  day = ` ${shortDay(a)}`;
  /* @end local-day */
  /* @broken local-day */
  day = ` ${shortDay(parts(ms, state.host))}`;
  /* @end local-day */
  return `${hhmm(a.min)}–${hhmm(b.min)}${day}`;
}
// the whole slot inside the person's working hours on the local day it starts
function inHours(person, ms) {
  const a = parts(ms, person.zone);
  if (!a) return false;
  const end = a.min + state.duration;
  return a.min >= person.start && end <= person.end;
}

// ------------------------------------------------------------------ storage
function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify(state));
  /* @end persist */
}
function loadSaved() {
  /* @feature persist */
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (s && Array.isArray(s.people)) return s;
  } catch (e) { /* unreadable: start from the data */ }
  /* @end persist */
  return null;
}

// ------------------------------------------------------------------ data rules
function cleanPeople(raw) {
  let list = (raw || []).map((p) => ({ id: String(p.id), name: String(p.name || '').trim(), zone: String(p.zone || ''),
    rawStart: p.workStart, rawEnd: p.workEnd }));
  /* @feature dedupe */
  const seen = new Set();
  list = list.filter((p) => {
    if (seen.has(p.id)) { issues.push(`${p.name} is listed twice; the second entry was skipped.`); return false; }
    seen.add(p.id);
    return true;
  });
  /* @end dedupe */
  /* @broken dedupe */
  const last = new Map();
  list.forEach((p) => last.set(p.id, p));
  list = list.filter((p) => last.get(p.id) === p);
  /* @end dedupe */
  /* @feature zone-check */
  list = list.filter((p) => {
    if (validZone(p.zone)) return true;
    issues.push(`${p.name} has an unknown time zone (${p.zone}) and was left out.`);
    return false;
  });
  /* @end zone-check */
  return list.map((p) => {
    let start = toMin(p.rawStart);
    let end = toMin(p.rawEnd);
    /* @feature hours-fix */
    if (start === null || end === null || end <= start) {
      if (start !== null && end !== null) {
        issues.push(`${p.name}'s working hours end before they start (${p.rawStart}–${p.rawEnd}); ${DEFAULT_HOURS[0]}–${DEFAULT_HOURS[1]} is used.`);
      }
      start = toMin(DEFAULT_HOURS[0]);
      end = toMin(DEFAULT_HOURS[1]);
    }
    /* @end hours-fix */
    /* @broken hours-fix */
    if (start !== null && end !== null && end <= start) [start, end] = [end, start];
    /* @end hours-fix */
    return { id: p.id, name: p.name, zone: p.zone, start: start ?? 540, end: end ?? 1020 };
  });
}

// ------------------------------------------------------------------ derived
function zones() {
  return [...new Set([state.host, ...state.people.map((p) => p.zone)])].filter(validZone);
}
function hourStarts() {
  return Array.from({ length: 24 }, (_, h) => zonedToUtc(state.date, h * 60, state.host));
}
function countIn(ms) { return state.people.filter((p) => inHours(p, ms)).length; }
function headline(ms) {
  const a = parts(ms, state.host);
  const b = parts(ms + state.duration * MIN, state.host);
  return `${longDate(a)}, ${hhmm(a.min)}–${hhmm(b.min)} (${state.host})`;
}

// ------------------------------------------------------------------ rendering
function renderTeam() {
  const noon = (() => { const [y, m, d] = state.date.split('-').map(Number); return Date.UTC(y, m - 1, d, 12); })();
  $('team-rows').innerHTML = state.people.map((p) => {
    let offset = '';
    /* @feature offsets */
    offset = fmtOffset(offsetMin(noon, p.zone));
    /* @end offsets */
    /* @broken offsets */
    offset = fmtOffset(offsetMin(reference.ms, p.zone));
    /* @end offsets */
    let now = '';
    /* @feature local-now */
    const n = parts(reference.ms, p.zone);
    now = n ? hhmm(n.min) : '—';
    /* @end local-now */
    let remove = '';
    /* @feature remove-person */
    remove = `<button type="button" class="small" data-remove="${esc(p.id)}">Remove</button>`;
    /* @end remove-person */
    return `<tr><td>${esc(p.name)}</td><td>${esc(p.zone)}</td><td>${offset}</td><td>${now}</td>
      <td>${hhmm(p.start)}–${hhmm(p.end)}</td><td>${remove}</td></tr>`;
  }).join('');
}

function renderGrid() {
  const starts = hourStarts();
  const head = starts.map((ms, h) => `<th scope="col"><button type="button" class="hour" data-slot="${ms}"
    aria-pressed="${state.slot === ms ? 'true' : 'false'}">${pad(h)}:00</button></th>`).join('');
  const rows = state.people.map((p) => {
    const cells = starts.map((ms) => {
      let label = '';
      let cls = '';
      /* @feature grid-cells */
      const a = parts(ms, p.zone);
      label = a ? hhmm(a.min) : '—';
      const span = a ? a.min : -1;
      cls = span >= p.start && span + 60 <= p.end ? 'work' : (a && (a.h < 7 || a.h >= 22) ? 'night' : '');
      /* @end grid-cells */
      return `<td class="${cls}${state.slot === ms ? ' picked' : ''}">${label}</td>`;
    }).join('');
    return `<tr><th scope="row">${esc(p.name)}</th>${cells}</tr>`;
  }).join('');
  $('hours').innerHTML = `<thead><tr><th scope="col">Team member</th>${head}</tr></thead><tbody>${rows}</tbody>`;
}

function renderSlot() {
  const body = $('slot-body');
  if (state.slot === null) { body.innerHTML = '<p class="empty">No time picked yet.</p>'; return; }
  const ms = state.slot;
  const rows = state.people.map((p) => {
    let status = '';
    /* @feature working-status */
    status = inHours(p, ms) ? '<span class="pill in">In working hours</span>' : '<span class="pill out">Outside working hours</span>';
    /* @end working-status */
    return `<tr><td>${esc(p.name)}</td><td>${localSlot(ms, p.zone)}</td><td>${esc(p.zone)}</td><td>${status}</td></tr>`;
  }).join('');
  let count = '';
  /* @feature working-status */
  count = `<p class="count">${countIn(ms)} of ${state.people.length} in working hours</p>`;
  /* @end working-status */
  body.innerHTML = `<p class="headline">${esc(headline(ms))}</p>
    <table aria-label="Local times"><thead><tr><th>Name</th><th>Local time</th><th>Time zone</th><th>Status</th></tr></thead>
    <tbody>${rows}</tbody></table>${count}`;
}

/* @feature best-times */
window.renderBest = () => {
  const ranked = hourStarts().map((ms) => ({ ms, n: countIn(ms) })).filter((x) => x.n > 0)
    .sort((a, b) => (b.n - a.n) || (a.ms - b.ms)).slice(0, 3);
  $('best').innerHTML = ranked.map(({ ms, n }) => {
    const a = parts(ms, state.host);
    const b = parts(ms + state.duration * MIN, state.host);
    return `<li><button type="button" class="suggest" data-slot="${ms}">${hhmm(a.min)}–${hhmm(b.min)}: ${n} of ${state.people.length}</button></li>`;
  }).join('') || '<li class="empty">No time suits anyone.</li>';
};
/* @end best-times */

/* @feature summary-text */
window.renderSummary = () => {
  if (state.slot === null) { $('summary').value = 'Pick a time in the grid.'; return; }
  const ms = state.slot;
  const lines = [`${state.title.trim() || 'Meeting'} — ${headline(ms)}`];
  state.people.forEach((p) => {
    lines.push(`${p.name}: ${localSlot(ms, p.zone)} (${p.zone})${inHours(p, ms) ? '' : ' — outside working hours'}`);
  });
  lines.push(`${countIn(ms)} of ${state.people.length} in working hours`);
  $('summary').value = lines.join('\n');
};
/* @end summary-text */

function renderControls() {
  if ($('title') && document.activeElement !== $('title')) $('title').value = state.title;
  if ($('date')) $('date').value = state.date;
  const host = $('host');
  if (host) {
    host.innerHTML = zones().map((z) => `<option value="${esc(z)}">${esc(z)}</option>`).join('');
    host.value = state.host;
  }
  if ($('duration')) $('duration').value = String(state.duration);
}

function render() {
  renderControls();
  renderTeam();
  renderGrid();
  renderSlot();
  window.renderBest?.();
  window.renderSummary?.();
  const list = $('issues');
  if (list) list.innerHTML = issues.map((t) => `<li>${esc(t)}</li>`).join('') || '<li>No problems found in the data.</li>';
}
function change() { save(); render(); }

// ------------------------------------------------------------------ actions
function pick(ms) { state.slot = ms; change(); }
$('hours').addEventListener('click', (e) => {
  const b = e.target.closest('[data-slot]');
  if (b) pick(Number(b.dataset.slot));
});
$('best')?.addEventListener('click', (e) => {
  const b = e.target.closest('[data-slot]');
  if (b) pick(Number(b.dataset.slot));
});
$('team-rows').addEventListener('click', (e) => {
  const b = e.target.closest('[data-remove]');
  if (!b) return;
  /* @feature remove-person */
  state.people = state.people.filter((p) => p.id !== b.dataset.remove);
  change();
  /* @end remove-person */
});

/* @feature title */
$('title').addEventListener('input', () => { state.title = $('title').value; save(); window.renderSummary?.(); });
/* @end title */

/* @feature date */
$('date').addEventListener('change', () => {
  const v = $('date').value;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return;
  if (state.slot !== null) {
    const p = parts(state.slot, state.host);
    state.slot = zonedToUtc(v, p.min, state.host);
  }
  state.date = v;
  change();
});
/* @end date */

/* @feature host-zone */
$('host').addEventListener('change', () => {
  state.host = $('host').value;
  if (state.slot !== null) state.date = parts(state.slot, state.host).date;
  change();
});
/* @end host-zone */

/* @feature duration */
$('duration').addEventListener('change', () => { state.duration = Number($('duration').value) || 60; change(); });
/* @end duration */

/* @feature copy */
$('copy')?.addEventListener('click', () => {
  const text = $('summary').value;
  const done = () => { $('copy-msg').textContent = 'Summary copied.'; };
  const fallback = () => {
    $('summary').select();
    try { document.execCommand('copy'); } catch (e) { /* nothing more to try */ }
    done();
  };
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).then(done, fallback);
  else fallback();
});
/* @end copy */

/* @feature add-person */
$('add-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const msg = (t) => { $('add-msg').textContent = t; };
  const name = $('f-name').value.trim();
  const zone = $('f-zone').value.trim();
  const start = toMin($('f-start').value);
  const end = toMin($('f-end').value);
  /* @feature add-validation */
  if (!name) return msg('Enter a name.');
  if (!zone || !validZone(zone)) return msg('Unknown time zone.');
  if (start === null || end === null || end <= start) return msg('Working hours must end after they start.');
  if (state.people.some((p) => p.name.toLowerCase() === name.toLowerCase())) return msg('That person is already on the team.');
  /* @end add-validation */
  /* @broken add-validation */
  if (!name) return msg('Enter a name.');
  if (!zone || !validZone(zone)) return msg('Unknown time zone.');
  if (start === null || end === null) return msg('Working hours must end after they start.');
  if (state.people.some((p) => p.name === name)) return msg('That person is already on the team.');
  /* @end add-validation */
  if (!name || !validZone(zone)) return undefined;
  const top = Math.max(0, ...state.people.map((p) => parseInt(p.id.replace(/\D/g, ''), 10) || 0));
  state.people.push({ id: `p${top + 1}`, name, zone, start: start ?? 540, end: end ?? 1020 });
  msg('');
  $('f-name').value = '';
  $('f-zone').value = '';
  $('f-start').value = '09:00';
  $('f-end').value = '17:00';
  change();
  return undefined;
});
/* @end add-person */

// ------------------------------------------------------------------ start
fetch('data/team.json').then((r) => r.json()).then((data) => {
  const ref = data.reference || {};
  const refZone = validZone(ref.zone) ? ref.zone : 'UTC';
  reference = { ms: zonedToUtc(ref.date, toMin(ref.time) ?? 0, refZone), zone: refZone };
  const people = cleanPeople(data.people);
  const saved = loadSaved();
  if (saved) {
    Object.assign(state, saved);
  } else {
    const m = data.meeting || {};
    state.people = people;
    state.title = String(m.title ?? 'Meeting');
    state.date = ref.date;
    state.host = validZone(m.zone) ? m.zone : refZone;
    state.duration = [30, 60, 90, 120].includes(m.duration) ? m.duration : 60;
    state.slot = null;
  }
  const nowEl = $('now');
  if (nowEl) {
    const p = parts(reference.ms, reference.zone);
    nowEl.textContent = `Now: ${longDate(p)}, ${hhmm(p.min)} (${reference.zone})`;
  }
  render();
  $('app').hidden = false;
});
