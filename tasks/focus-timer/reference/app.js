'use strict';
// Focus timer: Pomodoro phases on a clock taken from data/settings.json, a task list, a session
// log and a daily summary, all kept in localStorage.
const STORE = 'focus-timer-state-v1';
const DEFAULTS = { focus: 25, short: 5, long: 15, after: 4, goal: 8 };
const LIMITS = { focus: [1, 90], short: [1, 30], long: [1, 60], after: [2, 8], goal: [1, 20] };
const PHASE_NAMES = { focus: 'Focus', short: 'Short break', long: 'Long break' };
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
  'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const pad = (n) => String(n).padStart(2, '0');
const hhmm = (min) => `${pad(Math.floor(min / 60) % 24)}:${pad(min % 60)}`;
const toMin = (s) => { const m = /^(\d{1,2}):(\d{2})$/.exec(String(s || '')); return m ? (+m[1]) * 60 + (+m[2]) : null; };
const mmss = (sec) => `${pad(Math.floor(sec / 60))}:${pad(sec % 60)}`;
const isWhole = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

const state = {
  settings: { ...DEFAULTS },
  tasks: [],
  log: [],
  active: null,
  clock: { date: '2026-01-01', min: 0 },
  timer: { phase: 'focus', session: 1, left: 25 * 60, started: false },
};
let notice = '';
let running = false;
let endAt = 0;
let ticker = null;
let loaded = false;   // the controls and shortcuts act only once the data is in
const A = {};      // optional actions registered by features: skip, reset, next, ...

// ------------------------------------------------------------------ dates
function nextDate(date) {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + 1));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}
function longDate(date) {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return `${DAYS[t.getUTCDay()]}, ${d} ${MONTHS[m - 1]} ${y}`;
}
function advanceClock(minutes) {
  /* @feature clock-advance */
  state.clock.min += minutes;
  while (state.clock.min >= 1440) { state.clock.min -= 1440; state.clock.date = nextDate(state.clock.date); }
  /* @end clock-advance */
  /* @broken clock-advance */
  if (state.timer.phase === 'focus') state.clock.min += minutes;
  /* @end clock-advance */
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
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && Array.isArray(saved.tasks) && Array.isArray(saved.log)) return saved;
  } catch (e) { /* unreadable: start from the data */ }
  /* @end persist */
  return null;
}

// ------------------------------------------------------------------ data rules
function cleanSettings(raw) {
  const s = raw || {};
  const pick = (v, key) => (isWhole(v, ...LIMITS[key]) ? v : DEFAULTS[key]);
  return {
    focus: pick(s.focusMinutes, 'focus'), short: pick(s.shortBreakMinutes, 'short'),
    long: pick(s.longBreakMinutes, 'long'), after: pick(s.longBreakAfter, 'after'),
    goal: pick(s.dailyGoal, 'goal'),
  };
}

function cleanTasks(raw) {
  let tasks = (raw || []).map((t) => ({ id: String(t.id), title: String(t.title || '').trim(), estimate: t.estimate, done: !!t.done }));
  /* @feature dedupe */
  const seen = new Set();
  let skipped = 0;
  tasks = tasks.filter((t) => {
    if (seen.has(t.id)) { skipped += 1; return false; }
    seen.add(t.id);
    return true;
  });
  if (skipped) notice = `${skipped} duplicate task${skipped > 1 ? 's' : ''} skipped`;
  /* @end dedupe */
  /* @broken dedupe */
  const byId = new Map();
  tasks.forEach((t) => byId.set(t.id, t));
  const skipped = tasks.length - byId.size;
  tasks = [...byId.values()];
  if (skipped) notice = `${skipped} duplicate task${skipped > 1 ? 's' : ''} skipped`;
  /* @end dedupe */
  tasks.forEach((t) => {
    /* @feature estimate-default */
    if (!isWhole(t.estimate, 1, 10)) t.estimate = 1;
    /* @end estimate-default */
    /* @broken estimate-default */
    t.estimate = Math.abs(Number(t.estimate)) || 1;
    /* @end estimate-default */
  });
  return tasks;
}

function cleanLog(raw) {
  let log = (raw || []).map((e) => ({ date: String(e.date), start: toMin(e.start), minutes: Number(e.minutes), task: e.task ?? null }))
    .filter((e) => e.start !== null && /^\d{4}-\d{2}-\d{2}$/.test(e.date));
  /* @feature log-clean */
  log = log.filter((e) => Number.isFinite(e.minutes) && e.minutes > 0);
  /* @end log-clean */
  return log;
}

// ------------------------------------------------------------------ lookups
const taskById = (id) => state.tasks.find((t) => t.id === id) || null;
const openTasks = () => state.tasks.filter((t) => !t.done);
const doneCount = (id) => state.log.filter((e) => e.task === id).length;
function taskName(id) {
  const t = taskById(id);
  if (t) return t.title;
  if (!id) return 'No task';
  /* @feature unknown-task */
  return 'Unknown task';
  /* @end unknown-task */
  // eslint-disable-next-line no-unreachable
  return String(id);
}
const phaseLength = (phase) => state.settings[phase] * 60;

// the open task after the active one (wrapping); the first open task when none is active
function followingOpen(fromId) {
  const list = state.tasks;
  const i = list.findIndex((t) => t.id === fromId);
  for (let k = 1; k <= list.length; k += 1) {
    const t = list[(Math.max(i, -1) + k + list.length) % list.length];
    if (t && !t.done && t.id !== fromId) return t.id;
  }
  return null;
}

// ------------------------------------------------------------------ the timer
function remaining() {
  return Math.max(0, Math.ceil((endAt - performance.now()) / 1000));
}
function stopTicker() {
  if (ticker) { clearInterval(ticker); ticker = null; }
}
function tick() {
  if (!running) return;
  /* @feature countdown */
  const left = remaining();
  if (endAt - performance.now() <= 0) { endPhase(true); return; }
  $('time').textContent = mmss(left);
  /* @end countdown */
  /* @broken countdown */
  if (endAt - performance.now() <= 0) { endPhase(true); return; }
  $('time').textContent = mmss(phaseLength(state.timer.phase) - remaining());
  /* @end countdown */
}
function start() {
  if (running) return;
  running = true;
  state.timer.started = true;
  endAt = performance.now() + state.timer.left * 1000;
  ticker = setInterval(tick, 200);
  save();
  renderTimer();
}
function pause() {
  if (!running) return;
  /* @feature pause */
  state.timer.left = remaining();
  running = false;
  stopTicker();
  save();
  renderTimer();
  /* @end pause */
}
function toggle() {
  if (running) { pause(); return; }
  start();
}

// a phase ends: by running out or by Skip. record=false: a focus session is not logged
function endPhase(record) {
  const t = state.timer;
  running = false;
  stopTicker();
  const len = state.settings[t.phase];
  if (t.phase === 'focus') {
    if (record) {
      state.log.push({ date: state.clock.date, start: state.clock.min, minutes: len, task: state.active });
    }
    advanceClock(len);
    let next = 'short';
    /* @feature long-break */
    if (t.session >= state.settings.after) next = 'long';
    /* @end long-break */
    /* @broken long-break */
    if (t.session >= state.settings.after - 1) next = 'long';
    /* @end long-break */
    t.phase = next;
  } else {
    advanceClock(len);
    t.session = t.phase === 'long' ? 1 : t.session + 1;
    t.phase = 'focus';
  }
  t.left = phaseLength(t.phase);
  t.started = false;
  save();
  render();
}

/* @feature skip */
A.skip = () => {
  if (state.timer.phase === 'focus' && !state.timer.started) return;
  endPhase(true);
};
/* @end skip */
/* @broken skip */
A.skip = () => {
  if (state.timer.phase === 'focus' && !state.timer.started) return;
  endPhase(false);
};
/* @end skip */

/* @feature reset */
A.reset = () => {
  running = false;
  stopTicker();
  state.timer.left = phaseLength(state.timer.phase);
  state.timer.started = false;
  save();
  renderTimer();
};
/* @end reset */
/* @broken reset */
A.reset = () => {
  state.timer.left = phaseLength(state.timer.phase);
  endAt = performance.now() + state.timer.left * 1000;
  save();
  renderTimer();
};
/* @end reset */

// ------------------------------------------------------------------ tasks
function setActive(id) {
  state.active = id;
  save();
  render();
}
/* @feature next-task */
A.next = () => {
  const id = followingOpen(state.active);
  if (id) setActive(id);
};
/* @end next-task */
/* @broken next-task */
A.next = () => {
  const i = state.tasks.findIndex((t) => t.id === state.active);
  const t = state.tasks[(i + 1) % state.tasks.length];
  if (t) setActive(t.id);
};
/* @end next-task */

/* @feature task-actions */
A.workOn = (id) => setActive(id);
A.complete = (id) => {
  const t = taskById(id);
  if (!t) return;
  t.done = true;
  if (state.active === id) state.active = followingOpen(id);
  save();
  render();
};
/* @end task-actions */
/* @broken task-actions */
A.workOn = (id) => setActive(id);
A.complete = (id) => {
  const t = taskById(id);
  if (!t) return;
  t.done = true;
  save();
  render();
};
/* @end task-actions */

function rowActions(t) {
  let h = '';
  /* @feature task-actions */
  if (!t.done) {
    if (t.id !== state.active) h += `<button type="button" class="small" data-work="${esc(t.id)}">Work on</button>`;
    h += `<button type="button" class="small" data-complete="${esc(t.id)}">Complete</button>`;
  }
  /* @end task-actions */
  /* @broken task-actions */
  if (!t.done) {
    if (t.id !== state.active) h += `<button type="button" class="small" data-work="${esc(t.id)}">Work on</button>`;
    h += `<button type="button" class="small" data-complete="${esc(t.id)}">Complete</button>`;
  }
  /* @end task-actions */
  return h;
}

function renderTasks() {
  $('notice').textContent = notice;
  $('notice').hidden = !notice;
  $('task-rows').innerHTML = state.tasks.map((t) => {
    const status = t.done ? 'Done' : (t.id === state.active ? 'Active' : 'Open');
    return `<tr class="${status.toLowerCase()}"><td>${esc(t.title)}</td>
      <td>${doneCount(t.id)} / ${t.estimate}</td>
      <td><span class="pill pill-${status.toLowerCase()}">${status}</span></td>
      <td class="acts">${rowActions(t)}</td></tr>`;
  }).join('');
}

/* @feature add-task */
function addMessage(text) { $('add-msg').textContent = text; }
$('add-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const title = $('f-title').value.trim();
  const raw = $('f-estimate').value.trim();
  const estimate = raw === '' ? 1 : Number(raw);
  /* @feature add-validation */
  if (!title) return addMessage('Enter a task name.');
  if (!isWhole(estimate, 1, 10)) return addMessage('Estimate must be a whole number from 1 to 10.');
  if (state.tasks.some((t) => !t.done && t.title.toLowerCase() === title.toLowerCase())) {
    return addMessage('That task is already on the list.');
  }
  /* @end add-validation */
  /* @broken add-validation */
  if (!title) return addMessage('Enter a task name.');
  if (!isWhole(estimate, 1, 10)) return addMessage('Estimate must be a whole number from 1 to 10.');
  if (state.tasks.some((t) => !t.done && t.title === title)) return addMessage('That task is already on the list.');
  /* @end add-validation */
  if (!title) return undefined;
  const top = Math.max(0, ...state.tasks.map((t) => parseInt(String(t.id).replace(/\D/g, ''), 10) || 0));
  const id = `t${top + 1}`;
  state.tasks.push({ id, title, estimate: Number.isFinite(estimate) ? estimate : 1, done: false });
  if (!state.active) state.active = id;
  addMessage('');
  $('f-title').value = '';
  $('f-estimate').value = '1';
  save();
  render();
  return undefined;
});
/* @end add-task */

// ------------------------------------------------------------------ timer panel
function renderTimer() {
  const t = state.timer;
  const card = $('timer-card');
  card.className = `card timer-card phase-${t.phase}`;
  $('phase').textContent = PHASE_NAMES[t.phase];
  $('time').textContent = mmss(running ? remaining() : t.left);
  $('status').textContent = running ? 'Running' : (t.started ? 'Paused' : 'Ready');
  $('session').textContent = `Session ${t.session} of ${state.settings.after}`;
  $('working').textContent = `Working on: ${state.active ? taskName(state.active) : 'No task'}`;
  $('btn-start').textContent = running ? 'Pause' : 'Start';
  const skip = $('btn-skip');
  if (skip) skip.disabled = t.phase === 'focus' && !t.started;
  $('today').textContent = longDate(state.clock.date);
}

// ------------------------------------------------------------------ session log
/* @feature log-view */
window.renderLog = () => {
  const rows = [...state.log].sort((a, b) => (b.date.localeCompare(a.date)) || (b.start - a.start));
  $('log-body').innerHTML = rows.length ? `<table aria-label="Session log">
    <thead><tr><th>Date</th><th>Start</th><th>End</th><th>Task</th><th>Minutes</th></tr></thead>
    <tbody>${rows.map((e) => `<tr><td>${esc(e.date)}</td><td>${hhmm(e.start)}</td>
      <td>${hhmm(e.start + e.minutes)}</td><td>${esc(taskName(e.task))}</td><td>${e.minutes}</td></tr>`).join('')}</tbody>
    </table>` : '<p class="empty">No sessions yet.</p>';
};
/* @end log-view */

// ------------------------------------------------------------------ daily summary
function fmtDuration(min) {
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  const m = min % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}
let summaryDay = null;
/* @feature summary */
window.renderSummary = () => {
  const today = state.clock.date;
  const days = [...new Set([today, ...state.log.map((e) => e.date)])].sort().reverse();
  let day = today;
  /* @feature summary-day */
  if (summaryDay && days.includes(summaryDay)) day = summaryDay;
  /* @end summary-day */
  const entries = state.log.filter((e) => e.date === day);
  const minutes = entries.reduce((a, e) => a + e.minutes, 0);
  const groups = new Map();
  entries.forEach((e) => {
    const name = taskName(e.task);
    const g = groups.get(name) || { sessions: 0, minutes: 0 };
    g.sessions += 1;
    g.minutes += e.minutes;
    groups.set(name, g);
  });
  const rows = [...groups.entries()].sort((a, b) => (b[1].minutes - a[1].minutes) || a[0].localeCompare(b[0]));
  let html = '';
  /* @feature summary-day */
  html += `<div class="field"><label for="day">Day</label><select id="day">
    ${days.map((d) => `<option${d === day ? ' selected' : ''}>${d}</option>`).join('')}</select></div>`;
  /* @end summary-day */
  html += `<div class="stats"><p class="stat">Sessions: ${entries.length}</p>
    <p class="stat">Focus time: ${fmtDuration(minutes)}</p>`;
  /* @feature goal */
  const goal = state.settings.goal;
  html += `<p class="stat">${entries.length >= goal ? 'Goal reached' : 'Goal'}: ${entries.length} of ${goal} sessions</p>`;
  /* @end goal */
  html += '</div>';
  html += rows.length ? `<table aria-label="By task"><thead><tr><th>Task</th><th>Sessions</th><th>Minutes</th></tr></thead>
    <tbody>${rows.map(([name, g]) => `<tr><td>${esc(name)}</td><td>${g.sessions}</td><td>${g.minutes}</td></tr>`).join('')}</tbody></table>`
    : '<p class="empty">No sessions on this day.</p>';
  $('summary-body').innerHTML = html;
  const sel = $('day');
  if (sel) sel.addEventListener('change', () => { summaryDay = sel.value; window.renderSummary(); });
};
/* @end summary */

// ------------------------------------------------------------------ settings
/* @feature settings */
const FIELDS = [
  ['focus', 's-focus', 'Focus must be between 1 and 90 minutes.'],
  ['short', 's-short', 'Short break must be between 1 and 30 minutes.'],
  ['long', 's-long', 'Long break must be between 1 and 60 minutes.'],
  ['after', 's-after', 'Long break after must be between 2 and 8 sessions.'],
  ['goal', 's-goal', 'Daily goal must be between 1 and 20 sessions.'],
];
window.fillSettings = () => {
  FIELDS.forEach(([key, id]) => { $(id).value = String(state.settings[key]); });
};
$('settings-form').addEventListener('submit', (e) => {
  e.preventDefault();
  $('settings-ok').textContent = '';
  $('settings-msg').textContent = '';
  const next = {};
  for (const [key, id, message] of FIELDS) {
    const raw = $(id).value.trim();
    const v = raw === '' ? NaN : Number(raw);
    /* @feature settings-validation */
    if (!isWhole(v, ...LIMITS[key])) { $('settings-msg').textContent = message; return; }
    /* @end settings-validation */
    /* @broken settings-validation */
    if (!(v >= LIMITS[key][0])) { $('settings-msg').textContent = message; return; }
    /* @end settings-validation */
    next[key] = Number.isFinite(v) ? v : state.settings[key];
  }
  state.settings = next;
  if (!state.timer.started) state.timer.left = phaseLength(state.timer.phase);
  save();
  render();
  $('settings-ok').textContent = 'Settings saved.';
});
/* @end settings */

// ------------------------------------------------------------------ keyboard
function typing(e) {
  /* @feature typing-guard */
  const el = e.target;
  if (el && el.closest && el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return true;
  /* @end typing-guard */
  return false;
}
/* @feature keyboard */
document.addEventListener('keydown', (e) => {
  if (!loaded || e.ctrlKey || e.altKey || e.metaKey || e.repeat) return;
  if (typing(e)) return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (key === ' ' || e.code === 'Space') { e.preventDefault(); toggle(); return; }
  if (key === 's') { e.preventDefault(); A.skip?.(); return; }
  if (key === 'r') { e.preventDefault(); A.reset?.(); return; }
  if (key === 'n') { e.preventDefault(); A.next?.(); }
});
// Space on a focused button: the shortcut acted on keydown; keep the button's own click away
document.addEventListener('keyup', (e) => {
  if ((e.key === ' ' || e.code === 'Space') && !typing(e) && e.target.closest?.('button')) e.preventDefault();
});
/* @end keyboard */

// ------------------------------------------------------------------ wiring
function render() {
  renderTimer();
  renderTasks();
  window.renderLog?.();
  window.renderSummary?.();
}

const VIEWS = ['timer', 'log', 'summary', 'settings'];
function route() {
  const name = (location.hash.match(/^#\/(\w+)/) || [])[1];
  const view = VIEWS.includes(name) ? name : 'timer';
  VIEWS.forEach((v) => { $(`view-${v}`).hidden = v !== view; });
  document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.getAttribute('href') === `#/${view}`));
  if (view === 'settings') window.fillSettings?.();
  if (view === 'summary') window.renderSummary?.();
}

$('btn-start').addEventListener('click', toggle);
$('btn-skip')?.addEventListener('click', () => A.skip?.());
$('btn-reset')?.addEventListener('click', () => A.reset?.());
$('btn-next')?.addEventListener('click', () => A.next?.());
$('task-rows').addEventListener('click', (e) => {
  const work = e.target.closest('[data-work]');
  const done = e.target.closest('[data-complete]');
  if (work) A.workOn?.(work.dataset.work);
  if (done) A.complete?.(done.dataset.complete);
});
window.addEventListener('hashchange', route);

Promise.all([fetch('data/settings.json').then((r) => r.json()),
             fetch('data/tasks.json').then((r) => r.json())]).then(([conf, data]) => {
  const tasks = cleanTasks(data.tasks);
  const saved = loadSaved();
  if (saved) {
    Object.assign(state, saved);
  } else {
    state.settings = cleanSettings(conf.settings);
    state.tasks = tasks;
    state.log = cleanLog(data.log);
    const first = state.tasks.find((t) => !t.done);
    state.active = state.tasks.some((t) => t.id === data.active && !t.done) ? data.active : (first ? first.id : null);
    state.clock = { date: String(conf.today), min: toMin(conf.now) ?? 9 * 60 };
    state.timer = { phase: 'focus', session: 1, left: phaseLength('focus'), started: false };
  }
  loaded = true;
  ['controls', 'add-form', 'settings-form'].forEach((id) => { if ($(id)) $(id).hidden = false; });
  render();
  route();
});
