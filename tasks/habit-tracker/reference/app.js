/* Habitual — a personal habit tracker. Plain JS, no dependencies. */
(function () {
  'use strict';

  const STORE_KEY = 'habitual.state.v1';
  const WD = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const WD_LABEL = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
    'September', 'October', 'November', 'December'];
  const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const COLOURS = {
    blue: '#3b82f6', orange: '#f97316', green: '#10b981', purple: '#8b5cf6',
    pink: '#ec4899', teal: '#14b8a6', yellow: '#eab308', red: '#ef4444',
  };

  let TODAY = null;          // 'YYYY-MM-DD', from data/habits.json
  let sample = null;         // {habits, checkins(raw list)} as loaded from the data files
  const state = { habits: [], log: {} };   // log[habitId][date] = count
  const ui = {
    filter: 'due', sort: 'my', selected: null, month: null,
    issues: [], issuesDismissed: false, exportOpen: false, editing: null,
  };

  const $ = (s) => document.querySelector(s);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

  // ------------------------------------------------------------------ dates (UTC, no clock)
  const toDate = (s) => { const [y, m, d] = s.split('-').map(Number); return new Date(Date.UTC(y, m - 1, d)); };
  const iso = (dt) => dt.toISOString().slice(0, 10);
  const addDays = (s, n) => { const d = toDate(s); d.setUTCDate(d.getUTCDate() + n); return iso(d); };
  const weekdayIdx = (s) => (toDate(s).getUTCDay() + 6) % 7;   // Mon = 0
  const monday = (s) => addDays(s, -weekdayIdx(s));
  const isIsoDate = (s) => typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && !isNaN(toDate(s)) && iso(toDate(s)) === s;
  const shortDate = (s) => `${MONTHS[toDate(s).getUTCMonth()].slice(0, 3)} ${toDate(s).getUTCDate()}`;
  const longDate = (s) => { const d = toDate(s); return `${DAY_NAMES[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`; };

  // ------------------------------------------------------------------ habit rules
  function count(h, d) {
    const c = (state.log[h.id] || {})[d] || 0;
    return Math.min(c, h.target);
  }
  const isDone = (h, d) => count(h, d) >= h.target;
  const isWeekly = (h) => h.schedule.type === 'weekly';

  function scheduled(h, d) {
    if (d < h.created) return false;
    if (h.schedule.type === 'weekdays') return h.schedule.days.includes(WD[weekdayIdx(d)]);
    return true;
  }

  function doneInWeek(h, mon) {
    let n = 0;
    for (let i = 0; i < 7; i++) {
      const d = addDays(mon, i);
      if (d > TODAY || d < h.created) continue;
      if (isDone(h, d)) n++;
    }
    return n;
  }
  const weekMet = (h, mon) => doneInWeek(h, mon) >= h.schedule.times;

  function isDue(h) {
    if (h.archived) return false;
    if (isWeekly(h)) return isDone(h, TODAY) || !weekMet(h, monday(TODAY));
    return scheduled(h, TODAY);
  }

  function dayStreaks(h) {
    // current: consecutive done scheduled days counted back from today
    let cur = 0;
    let d = TODAY;
    /* @feature today-grace */
    if (scheduled(h, d) && !isDone(h, d)) d = addDays(d, -1);
    /* @end today-grace */
    while (d >= h.created) {
      /* @feature skip-unscheduled */
      if (!scheduled(h, d)) { d = addDays(d, -1); continue; }
      /* @end skip-unscheduled */
      /* @broken skip-unscheduled */
      if (!scheduled(h, d) && !isDone(h, d)) { d = addDays(d, -1); continue; }
      /* @end skip-unscheduled */
      if (isDone(h, d)) cur++; else break;
      d = addDays(d, -1);
    }
    let best = 0;
    /* @feature best-streak */
    let run = 0;
    for (let x = h.created; x <= TODAY; x = addDays(x, 1)) {
      /* @feature skip-unscheduled */
      if (!scheduled(h, x)) continue;
      /* @end skip-unscheduled */
      /* @broken skip-unscheduled */
      if (!scheduled(h, x) && !isDone(h, x)) continue;
      /* @end skip-unscheduled */
      if (isDone(h, x)) { run++; best = Math.max(best, run); } else if (x !== TODAY) run = 0;
    }
    /* @end best-streak */
    return { cur, best: Math.max(best, cur), unit: 'day' };
  }

  function weekStreaks(h) {
    const first = monday(h.created);
    const thisMon = monday(TODAY);
    let cur = 0;
    let m = thisMon;
    if (!weekMet(h, m)) m = addDays(m, -7);
    while (m >= first && weekMet(h, m)) { cur++; m = addDays(m, -7); }
    let best = 0;
    /* @feature best-streak */
    let run = 0;
    for (let x = first; x <= thisMon; x = addDays(x, 7)) {
      if (weekMet(h, x)) { run++; best = Math.max(best, run); } else if (x !== thisMon) run = 0;
    }
    /* @end best-streak */
    return { cur, best: Math.max(best, cur), unit: 'week' };
  }

  function streaks(h) {
    /* @feature weekly-streak */
    if (isWeekly(h)) return weekStreaks(h);
    /* @end weekly-streak */
    /* @broken weekly-streak */
    if (isWeekly(h)) { const ws = weekStreaks(h); return weekMet(h, monday(TODAY)) ? ws : { ...ws, cur: 0 }; }
    /* @end weekly-streak */
    return dayStreaks(h);
  }
  const plural = (n, unit) => `${n} ${unit}${n === 1 ? '' : 's'}`;

  function weekly(h) {
    let done = 0, slots = 0;
    /* @feature weekly-completion */
    const win = [];
    for (let i = 6; i >= 0; i--) win.push(addDays(TODAY, -i));
    if (isWeekly(h)) {
      slots = h.schedule.times;
      done = Math.min(slots, win.filter((d) => d >= h.created && isDone(h, d)).length);
    } else {
      const sl = win.filter((d) => scheduled(h, d));
      slots = sl.length;
      done = sl.filter((d) => isDone(h, d)).length;
    }
    /* @end weekly-completion */
    /* @broken weekly-completion */
    const win = [];
    for (let i = 6; i >= 0; i--) win.push(addDays(TODAY, -i));
    if (isWeekly(h)) {
      slots = h.schedule.times;
      done = Math.min(slots, win.filter((d) => d >= h.created && isDone(h, d)).length);
    } else {
      const sl = win.filter((d) => scheduled(h, d));
      slots = sl.length;
      done = sl.filter((d) => isDone(h, d) || count(h, d) > 0).length;
    }
    /* @end weekly-completion */
    return { done, slots };
  }
  function pct(done, slots) {
    if (!slots) return null;
    return Math.round((100 * done) / slots);
  }

  function scheduleText(h) {
    let s;
    if (h.schedule.type === 'daily') s = 'Every day';
    else if (h.schedule.type === 'weekdays') s = WD.filter((w) => h.schedule.days.includes(w)).map((w) => WD_LABEL[WD.indexOf(w)]).join(', ');
    else s = `${h.schedule.times} time${h.schedule.times === 1 ? '' : 's'} a week`;
    if (h.target > 1) s += ` · ${h.target} per day`;
    return s;
  }

  // ------------------------------------------------------------------ loading & cleaning
  function cleanCheckins(list, habits) {
    const byId = Object.fromEntries(habits.map((h) => [h.id, h]));
    const log = {};
    const issues = [];
    for (const c of Array.isArray(list) ? list : []) {
      if (!c || typeof c !== 'object' || !isIsoDate(c.date)) { issues.push('Unreadable check-in record skipped'); continue; }
      const cnt = Math.max(0, Math.floor(Number(c.count) || 0));
      const h = byId[c.habitId];
      /* @feature checkin-cleaning */
      if (!h) { issues.push(`Unknown habit “${c.habitId}” on ${c.date}`); continue; }
      if (c.date > TODAY) { issues.push(`Future date ${c.date} for ${h.name}`); continue; }
      if (log[c.habitId] && log[c.habitId][c.date] !== undefined) {
        issues.push(`Duplicate entry for ${h.name} on ${c.date} (kept the first)`);
        continue;
      }
      /* @end checkin-cleaning */
      /* @broken checkin-cleaning */
      if (!h) { issues.push(`Unknown habit “${c.habitId}” on ${c.date}`); continue; }
      if (c.date > TODAY) { issues.push(`Future date ${c.date} for ${h.name}`); continue; }
      if (log[c.habitId] && log[c.habitId][c.date] !== undefined) {
        issues.push(`Duplicate entry for ${h.name} on ${c.date} (kept the first)`);
      }
      /* @end checkin-cleaning */
      if (cnt > 0) (log[c.habitId] = log[c.habitId] || {})[c.date] = cnt;
      else (log[c.habitId] = log[c.habitId] || {})[c.date] = 0;
    }
    for (const id of Object.keys(log)) for (const d of Object.keys(log[id])) if (!log[id][d]) delete log[id][d];
    return { log, issues };
  }

  function normaliseHabit(h) {
    const s = h.schedule || {};
    const schedule = s.type === 'weekdays' ? { type: 'weekdays', days: WD.filter((w) => (s.days || []).includes(w)) }
      : s.type === 'weekly' ? { type: 'weekly', times: Number(s.times) } : { type: 'daily' };
    const out = { id: String(h.id), name: String(h.name).trim(), colour: COLOURS[h.colour] ? h.colour : 'blue', schedule, target: Number(h.target), created: h.created, archived: !!h.archived };
    if (h.unit) out.unit = h.unit;
    return out;
  }

  function save() {
    /* @feature persistence */
    const checkins = exportCheckins();
    localStorage.setItem(STORE_KEY, JSON.stringify({ habits: state.habits, checkins }));
    /* @end persistence */
    /* @broken persistence */
    localStorage.setItem(STORE_KEY, JSON.stringify({ habits: state.habits, checkins: sample.checkins }));
    /* @end persistence */
  }

  function exportCheckins() {
    const out = [];
    for (const h of state.habits) {
      const days = state.log[h.id] || {};
      for (const d of Object.keys(days).sort()) out.push({ habitId: h.id, date: d, count: days[d] });
    }
    for (const id of Object.keys(state.log)) {
      if (state.habits.some((h) => h.id === id)) continue;
      for (const d of Object.keys(state.log[id]).sort()) out.push({ habitId: id, date: d, count: state.log[id][d] });
    }
    return out;
  }

  function loadSample() {
    state.habits = sample.habits.map(normaliseHabit);
    const r = cleanCheckins(sample.checkins, state.habits);
    state.log = r.log;
    ui.issues = r.issues;
  }

  function restore() {
    let raw = null;
    /* @feature persistence */
    raw = localStorage.getItem(STORE_KEY);
    /* @end persistence */
    /* @broken persistence */
    raw = localStorage.getItem(STORE_KEY);
    /* @end persistence */
    if (!raw) { loadSample(); return; }
    /* @feature storage-guard */
    try {
      const saved = JSON.parse(raw);
      if (!saved || !Array.isArray(saved.habits)) throw new Error('no habits');
      state.habits = saved.habits.map(normaliseHabit);
      state.log = cleanCheckins(saved.checkins, state.habits).log;
      ui.issues = [];
    } catch (e) {
      loadSample();
      showStorageNotice('Your saved data could not be read, so the sample data was loaded.');
    }
    return;
    /* @end storage-guard */
    const saved = JSON.parse(raw);
    state.habits = saved.habits.map(normaliseHabit);
    state.log = cleanCheckins(saved.checkins, state.habits).log;
    ui.issues = [];
  }

  function showStorageNotice(msg) {
    const n = $('#storage-notice');
    n.textContent = msg;
    n.hidden = false;
  }

  // ------------------------------------------------------------------ check-ins
  function setCount(h, n) {
    n = Math.max(0, Math.min(h.target, n));
    const days = (state.log[h.id] = state.log[h.id] || {});
    if (n > 0) days[TODAY] = n; else delete days[TODAY];
    save();
    render();
  }

  // ------------------------------------------------------------------ rendering
  function visibleHabits() {
    let list = state.habits.filter((h) => !h.archived);
    if (ui.filter === 'archived') list = state.habits.filter((h) => h.archived);
    /* @feature due-filter */
    else if (ui.filter === 'due') list = list.filter(isDue);
    /* @end due-filter */
    /* @broken due-filter */
    else if (ui.filter === 'due') list = list.filter((h) => (h.schedule.type === 'weekdays' ? h.schedule.days.includes(WD[toDate(TODAY).getUTCDay()]) : isDue(h)));
    /* @end due-filter */
    return sortHabits(list);
  }

  function sortHabits(list) {
    const byName = (a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });
    /* @feature sort */
    if (ui.sort === 'name') return list.slice().sort(byName);
    if (ui.sort === 'streak') return list.slice().sort((a, b) => streaks(b).cur - streaks(a).cur || byName(a, b));
    if (ui.sort === 'week') {
      const p = (h) => { const w = weekly(h); return w.slots ? w.done / w.slots : -1; };
      return list.slice().sort((a, b) => p(b) - p(a) || byName(a, b));
    }
    /* @end sort */
    /* @broken sort */
    if (ui.sort === 'name') return list.slice().sort(byName);
    if (ui.sort === 'streak') return list.slice().sort((a, b) => streaks(b).best - streaks(a).best || byName(a, b));
    if (ui.sort === 'week') {
      const p = (h) => { const w = weekly(h); return w.slots ? w.done / w.slots : -1; };
      return list.slice().sort((a, b) => p(b) - p(a) || byName(a, b));
    }
    /* @end sort */
    return list;
  }

  function renderHeader() {
    const el = $('#today-label');
    if (el) el.textContent = longDate(TODAY);
    const active = state.habits.filter((h) => !h.archived);
    const due = active.filter(isDue);
    $('#today-sub').textContent = `${due.filter((h) => isDone(h, TODAY)).length} of ${due.length} due habits done`;
  }

  function renderTabs() {
    const tabs = $('#tabs');
    if (!tabs) return;
    const active = state.habits.filter((h) => !h.archived);
    const defs = [
      ['all', 'All', active.length],
      ['due', 'Due today', active.filter(isDue).length],
      ['archived', 'Archived', state.habits.filter((h) => h.archived).length],
    ];
    tabs.innerHTML = defs.map(([k, label, n]) =>
      `<button type="button" role="tab" class="tab" data-filter="${k}" aria-selected="${ui.filter === k}">${label} <span class="tab-count">${n}</span></button>`).join('');
  }

  function control(h) {
    if (h.archived) {
      let btn = '';
      /* @feature archive */
      btn = `<button type="button" class="btn small" data-restore="${esc(h.id)}" aria-label="Restore ${esc(h.name)}">Restore</button>`;
      /* @end archive */
      return btn;
    }
    const c = count(h, TODAY);
    if (h.target === 1) {
      let box = '';
      /* @feature checkbox-toggle */
      box = `<label class="tick"><input type="checkbox" data-toggle="${esc(h.id)}" aria-label="Mark ${esc(h.name)} done" ${c >= 1 ? 'checked' : ''}><span class="tick-box" aria-hidden="true"></span></label>`;
      /* @end checkbox-toggle */
      return box;
    }
    let ctr = '';
    /* @feature counter */
    ctr = `<div class="counter">
        <button type="button" class="round" data-dec="${esc(h.id)}" aria-label="Remove one ${esc(h.name)}" ${c <= 0 ? 'disabled' : ''}>−</button>
        <span class="count"><b>${c}</b> / ${h.target}</span>
        <button type="button" class="round" data-inc="${esc(h.id)}" aria-label="Add one ${esc(h.name)}" ${c >= h.target ? 'disabled' : ''}>+</button>
      </div>`;
    /* @end counter */
    /* @broken counter */
    ctr = `<div class="counter">
        <button type="button" class="round" data-dec="${esc(h.id)}" aria-label="Remove one ${esc(h.name)}">−</button>
        <span class="count"><b>${c}</b> / ${h.target}</span>
        <button type="button" class="round" data-inc="${esc(h.id)}" aria-label="Add one ${esc(h.name)}">+</button>
      </div>`;
    /* @end counter */
    return ctr;
  }

  function renderList() {
    const ul = $('#habit-list');
    const list = visibleHabits();
    if (!list.length) {
      const msg = ui.filter === 'archived' ? 'No archived habits.' : ui.filter === 'due' && state.habits.some((h) => !h.archived)
        ? 'Nothing due today — enjoy your day.' : 'No habits yet — create your first one.';
      ul.innerHTML = `<li class="empty">${msg}</li>`;
      return;
    }
    ul.innerHTML = list.map((h) => {
      const s = streaks(h);
      const w = weekly(h);
      const p = pct(w.done, w.slots);
      const done = !h.archived && isDone(h, TODAY);
      const due = isDue(h);
      let sched = '';
      /* @feature schedule-text */
      sched = `<span class="sched">${esc(scheduleText(h))}</span>`;
      /* @end schedule-text */
      let week = '';
      /* @feature week-badge */
      week = `<span class="week" title="${w.done} of ${w.slots} this week">This week ${p === null ? '—' : p + '%'}
          <span class="bar" aria-hidden="true"><span style="width:${p || 0}%;background:${COLOURS[h.colour]}"></span></span></span>`;
      /* @end week-badge */
      return `<li class="habit${done ? ' is-done' : ''}${ui.selected === h.id ? ' is-selected' : ''}" aria-label="${esc(h.name)}" style="--c:${COLOURS[h.colour]}">
        <span class="dot" aria-hidden="true"></span>
        <div class="habit-main">
          <div class="habit-title">
            <button type="button" class="name" data-select="${esc(h.id)}">${esc(h.name)}</button>
            ${!h.archived && !due ? '<span class="tag">Not due today</span>' : ''}
            ${h.archived ? '<span class="tag">Archived</span>' : ''}
            ${done ? '<span class="tag ok">Done</span>' : ''}
          </div>
          <div class="habit-meta">
            ${sched}
            <span class="streak" title="Current streak"><svg class="flame" viewBox="0 0 16 16" aria-hidden="true"><path d="M8 1c.6 2.4 3.8 4 3.8 8A3.8 3.8 0 0 1 4.2 9c0-1.6.8-2.7 1.7-3.4.1 1.3.7 2 1.4 2.2C7 5.6 7.2 3.2 8 1z"/></svg>${plural(s.cur, s.unit)}</span>
            <span class="best">best ${plural(s.best, s.unit)}</span>
            ${week}
          </div>
        </div>
        <div class="habit-ctl">${control(h)}</div>
      </li>`;
    }).join('');
  }

  function renderStats() {
    const box = $('#stats');
    if (!box) return;
    const active = state.habits.filter((h) => !h.archived);
    const due = active.filter(isDue);
    const doneToday = due.filter((h) => isDone(h, TODAY)).length;
    let wd = 0, ws = 0;
    for (const h of active) { const w = weekly(h); wd += w.done; ws += w.slots; }
    const dayHabits = active.filter((h) => !isWeekly(h)).map((h) => ({ h, s: streaks(h) }));
    const longest = dayHabits.slice().sort((a, b) => b.s.cur - a.s.cur || a.h.name.localeCompare(b.h.name))[0];
    const best = dayHabits.slice().sort((a, b) => b.s.best - a.s.best || a.h.name.localeCompare(b.h.name))[0];
    let dueText = '—';
    /* @feature stats-due */
    dueText = `${doneToday} / ${due.length}`;
    /* @end stats-due */
    /* @broken stats-due */
    dueText = `${doneToday} / ${active.length}`;
    /* @end stats-due */
    const tiles = [
      ['Active habits', String(active.length), ''],
      ['Done today', dueText, 'due habits done'],
      ['This week', ws ? `${pct(wd, ws)}%` : '—', `${wd} of ${ws} check-ins, last 7 days`],
      ['Longest current streak', longest ? plural(longest.s.cur, 'day') : '—', longest ? longest.h.name : ''],
      ['Best streak', best ? plural(best.s.best, 'day') : '—', best ? best.h.name : ''],
    ];
    box.innerHTML = tiles.map(([k, v, sub]) =>
      `<div class="tile"><dt>${k}</dt><dd><span class="big">${esc(v)}</span>${sub ? `<span class="sub">${sub === tiles[3][2] || sub === tiles[4][2] ? '· ' : ''}${esc(sub)}</span>` : ''}</dd></div>`).join('');
    renderChart(active);
  }

  function renderChart(active) {
    const el = $('#chart');
    if (!el) return;
    const days = [];
    for (let i = 13; i >= 0; i--) days.push(addDays(TODAY, -i));
    const vals = days.map((d) => active.filter((h) => isDone(h, d)).length);
    const max = Math.max(active.length, 1);
    const W = 320, H = 120, pad = 18, bw = (W - 8) / days.length;
    const bars = days.map((d, i) => {
      const v = vals[i];
      const h = Math.round(((H - pad - 6) * v) / max);
      const x = 4 + i * bw + 3;
      return `<g><title>${shortDate(d)}: ${v} habit${v === 1 ? '' : 's'} done</title>
        <rect x="${x.toFixed(1)}" y="${H - pad - h}" width="${(bw - 6).toFixed(1)}" height="${Math.max(h, 1)}" rx="3" class="${d === TODAY ? 'cbar-today' : 'cbar'}"/>
        ${i % 2 === 1 || d === TODAY ? `<text x="${(x + (bw - 6) / 2).toFixed(1)}" y="${H - 4}" text-anchor="middle">${toDate(d).getUTCDate()}</text>` : ''}</g>`;
    }).join('');
    el.innerHTML = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Habits done per day, last 14 days" class="chart">
      <line x1="0" x2="${W}" y1="${H - pad}" y2="${H - pad}" class="axis"/>${bars}</svg>`;
  }

  function renderDetails() {
    const box = $('#details');
    const h = state.habits.find((x) => x.id === ui.selected);
    if (!h) {
      let empty = '';
      /* @feature detail-empty */
      empty = `<div class="empty-state"><svg viewBox="0 0 48 48" aria-hidden="true"><rect x="6" y="10" width="36" height="32" rx="6" fill="none" stroke="currentColor" stroke-width="2.5"/><path d="M6 19h36M16 6v8M32 6v8" stroke="currentColor" stroke-width="2.5" stroke-linecap="round"/></svg>
        <p>Select a habit to see its calendar.</p></div>`;
      /* @end detail-empty */
      box.innerHTML = empty;
      return;
    }
    const s = streaks(h);
    let actions = '';
    /* @feature edit-habit */
    actions += `<button type="button" class="btn small" id="edit-btn">Edit habit</button>`;
    /* @end edit-habit */
    /* @feature archive */
    actions += h.archived ? `<button type="button" class="btn small" id="restore-btn">Restore habit</button>`
      : `<button type="button" class="btn small ghost" id="archive-btn">Archive habit</button>`;
    /* @end archive */
    box.innerHTML = `<div class="detail-head" style="--c:${COLOURS[h.colour]}">
        <span class="dot big" aria-hidden="true"></span>
        <div><h3 class="detail-name">${esc(h.name)}</h3><p class="muted small">${esc(scheduleText(h))}${h.archived ? ' · archived' : ''} · since ${shortDate(h.created)} ${toDate(h.created).getUTCFullYear()}</p></div>
      </div>
      <div class="streak-pair">
        <div><span class="k">Current streak</span><span class="v">${plural(s.cur, s.unit)}</span></div>
        <div><span class="k">Best streak</span><span class="v">${plural(s.best, s.unit)}</span></div>
      </div>
      <div id="heatmap"></div>
      <div class="btn-row">${actions}</div>`;
    renderHeatmap(h);
  }

  function renderHeatmap(h) {
    const el = $('#heatmap');
    let html = '';
    /* @feature heatmap */
    const month = ui.month || TODAY.slice(0, 7);
    const [y, m] = month.split('-').map(Number);
    const first = `${month}-01`;
    const daysIn = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const lead = weekdayIdx(first);
    const cells = [];
    for (let i = 0; i < lead; i++) cells.push('<div class="cell blank" aria-hidden="true"></div>');
    let done = 0, sched = 0, checks = 0, partials = 0;
    for (let day = 1; day <= daysIn; day++) {
      const d = `${month}-${String(day).padStart(2, '0')}`;
      const c = count(h, d);
      let st, label;
      if (d > TODAY) { st = 'future'; label = 'future'; }
      else if (d < h.created) { st = 'before'; label = 'before start'; }
      else if (!isWeekly(h) && !scheduled(h, d)) {
        st = isDone(h, d) ? 'extra' : 'off'; label = isDone(h, d) ? 'extra (not scheduled)' : 'not scheduled';
      } else if (isDone(h, d)) { st = 'done'; label = `done (${c}/${h.target})`; }
      else if (c > 0) { st = 'partial'; label = `partial (${c}/${h.target})`; }
      else { st = 'missed'; label = d === TODAY ? 'not done yet' : 'missed'; }
      if (d <= TODAY && d >= h.created) {
        if (isWeekly(h)) { if (isDone(h, d)) checks++; }
        else if (scheduled(h, d)) {
          sched++;
          if (isDone(h, d)) done++;
          else if (c > 0) partials++;
        }
      }
      const t = `${shortDate(d)}: ${label}`;
      cells.push(`<div class="cell ${st}${d === TODAY ? ' today' : ''}" data-state="${st}" title="${t}" aria-label="${t}">${day}</div>`);
    }
    let summary = '';
    /* @feature heat-summary */
    summary = isWeekly(h) ? `${checks} check-in${checks === 1 ? '' : 's'} this month`
      : `${done} of ${sched} scheduled days completed`;
    /* @end heat-summary */
    /* @broken heat-summary */
    summary = isWeekly(h) ? `${checks} check-in${checks === 1 ? '' : 's'} this month`
      : `${done + partials} of ${sched} scheduled days completed`;
    /* @end heat-summary */
    let nav = '';
    /* @feature month-nav */
    nav = `<button type="button" class="icon-btn" id="prev-month" aria-label="Previous month" ${month <= h.created.slice(0, 7) ? 'disabled' : ''}>‹</button>`;
    /* @end month-nav */
    let navNext = '';
    /* @feature month-nav */
    navNext = `<button type="button" class="icon-btn" id="next-month" aria-label="Next month" ${month >= TODAY.slice(0, 7) ? 'disabled' : ''}>›</button>`;
    /* @end month-nav */
    html = `<div class="heat" style="--c:${COLOURS[h.colour]}">
        <div class="heat-head">${nav}<h4 id="heat-title">${MONTHS[m - 1]} ${y}</h4>${navNext}</div>
        <div class="heat-grid" role="group" aria-labelledby="heat-title">
          ${WD_LABEL.map((w) => `<div class="wd" aria-hidden="true">${w[0]}${w[1]}</div>`).join('')}
          ${cells.join('')}
        </div>
        <p class="heat-summary">${summary}</p>
        <div class="legend" aria-hidden="true"><span><i class="cell done"></i>done</span><span><i class="cell partial"></i>partial</span><span><i class="cell missed"></i>missed</span><span><i class="cell off"></i>not scheduled</span></div>
      </div>`;
    /* @end heatmap */
    el.innerHTML = html;
  }

  function renderIssues() {
    const box = $('#issues');
    if (!box) return;
    if (!ui.issues.length || ui.issuesDismissed) { box.hidden = true; return; }
    box.hidden = false;
    $('#issues-summary').textContent = `${ui.issues.length} check-in record${ui.issues.length === 1 ? ' was' : 's were'} ignored:`;
    $('#issues-list').innerHTML = ui.issues.map((i) => `<li>${esc(i)}</li>`).join('');
  }

  function render() {
    renderHeader();
    renderTabs();
    renderList();
    renderStats();
    renderDetails();
    renderIssues();
    const sel = $('#sort-select');
    if (sel) sel.value = ui.sort;
    if (ui.exportOpen) fillExport();
  }

  // ------------------------------------------------------------------ export / import
  function exportObject() {
    return { app: 'habitual', version: 1, exportedOn: TODAY, habits: state.habits, checkins: exportCheckins() };
  }
  function fillExport() {
    const ta = $('#export-text');
    if (!ta) return;
    const obj = exportObject();
    let habits = [];
    /* @feature export-scope */
    habits = state.habits;
    /* @end export-scope */
    /* @broken export-scope */
    habits = state.habits.filter((h) => !h.archived);
    /* @end export-scope */
    obj.habits = habits;
    const text = JSON.stringify(obj, null, 2);
    ta.value = text;
    $('#download-link').href = 'data:application/json;charset=utf-8,' + encodeURIComponent(text);
  }

  function validateImport(text) {
    let obj;
    try { obj = JSON.parse(text); } catch (e) { return { error: 'Import failed: the text is not valid JSON.' }; }
    if (!obj || !Array.isArray(obj.habits)) return { error: 'Import failed: no "habits" list found.' };
    const seen = new Set();
    const habits = [];
    for (let i = 0; i < obj.habits.length; i++) {
      const h = obj.habits[i] || {};
      const n = i + 1;
      const name = typeof h.name === 'string' ? h.name.trim() : '';
      /* @feature import-validation */
      if (!name) return { error: `Import failed: habit ${n} has no name.` };
      const t = Number(h.target);
      if (!Number.isInteger(t) || t < 1 || t > 50) return { error: `Import failed: habit ${n} (${name}) has an invalid daily target.` };
      const s = h.schedule || {};
      const okSched = s.type === 'daily' || (s.type === 'weekdays' && Array.isArray(s.days) && s.days.length > 0 && s.days.every((d) => WD.includes(d)))
        || (s.type === 'weekly' && Number.isInteger(s.times) && s.times >= 1 && s.times <= 6);
      if (!okSched) return { error: `Import failed: habit ${n} (${name}) has an invalid schedule.` };
      if (seen.has(name.toLowerCase())) return { error: `Import failed: the name "${name}" is used twice.` };
      /* @end import-validation */
      /* @broken import-validation */
      if (!name) return { error: `Import failed: habit ${n} has no name.` };
      const s = h.schedule || {};
      const okSched = s.type === 'daily' || (s.type === 'weekdays' && Array.isArray(s.days) && s.days.length > 0 && s.days.every((d) => WD.includes(d)))
        || (s.type === 'weekly' && Number.isInteger(s.times) && s.times >= 1 && s.times <= 6);
      if (!okSched) return { error: `Import failed: habit ${n} (${name}) has an invalid schedule.` };
      if (seen.has(name.toLowerCase())) return { error: `Import failed: the name "${name}" is used twice.` };
      /* @end import-validation */
      seen.add(name.toLowerCase());
      habits.push(normaliseHabit({ ...h, id: h.id || `h-${Date.now().toString(36)}-${i}`, name, created: isIsoDate(h.created) ? h.created : TODAY }));
    }
    return { habits, checkins: Array.isArray(obj.checkins) ? obj.checkins : [] };
  }

  function doImport(text) {
    const msg = $('#import-msg');
    const r = validateImport(text);
    if (r.error) { msg.textContent = r.error; msg.className = 'import-msg error'; return; }
    state.habits = r.habits;
    const c = cleanCheckins(r.checkins, state.habits);
    state.log = c.log;
    ui.issues = c.issues; ui.issuesDismissed = false;
    ui.selected = null; ui.month = null;
    const n = exportCheckins().length;
    msg.textContent = `Imported ${r.habits.length} habit${r.habits.length === 1 ? '' : 's'} and ${n} check-in${n === 1 ? '' : 's'}.`;
    msg.className = 'import-msg ok';
    save();
    render();
  }

  // ------------------------------------------------------------------ habit dialog
  function openDialog(h) {
    ui.editing = h ? h.id : null;
    $('#dlg-title').textContent = h ? 'Edit habit' : 'New habit';
    $('#f-name').value = h ? h.name : '';
    $('#f-colour').value = h ? h.colour : 'blue';
    const type = h ? h.schedule.type : 'daily';
    document.querySelectorAll('input[name="f-sched"]').forEach((r) => { r.checked = r.value === type; });
    document.querySelectorAll('#f-days input').forEach((c) => { c.checked = !!(h && type === 'weekdays' && h.schedule.days.includes(c.value)); });
    $('#f-times').value = h && type === 'weekly' ? h.schedule.times : 3;
    $('#f-target').value = h ? h.target : 1;
    clearErrors();
    syncSchedFields();
    $('#backdrop').hidden = false;
    $('#f-name').focus();
  }
  function closeDialog() { $('#backdrop').hidden = true; ui.editing = null; }
  function clearErrors() {
    ['name', 'days', 'times', 'target'].forEach((k) => { $('#e-' + k).textContent = ''; });
    document.querySelectorAll('.invalid').forEach((e) => e.classList.remove('invalid'));
    $('#form-summary').hidden = true;
  }
  function syncSchedFields() {
    const type = document.querySelector('input[name="f-sched"]:checked').value;
    document.querySelectorAll('#f-days input').forEach((c) => { c.disabled = type !== 'weekdays'; });
    $('#f-days').classList.toggle('off', type !== 'weekdays');
    $('#f-times').disabled = type !== 'weekly';
    $('#times-field').classList.toggle('off', type !== 'weekly');
  }

  function submitForm() {
    clearErrors();
    const errs = {};
    const name = $('#f-name').value.trim();
    const type = document.querySelector('input[name="f-sched"]:checked').value;
    const days = [...document.querySelectorAll('#f-days input:checked')].map((c) => c.value);
    const tRaw = $('#f-target').value.trim();
    const target = Number(tRaw);
    const timesRaw = $('#f-times').value.trim();
    const times = Number(timesRaw);
    /* @feature form-validation */
    if (!name) errs.name = 'Name is required.';
    if (!/^\d+$/.test(tRaw) || target < 1 || target > 50) errs.target = 'Daily target must be a whole number from 1 to 50.';
    if (type === 'weekdays' && !days.length) errs.days = 'Pick at least one weekday.';
    if (type === 'weekly' && (!/^\d+$/.test(timesRaw) || times < 1 || times > 6)) errs.times = 'Times per week must be between 1 and 6.';
    /* @end form-validation */
    /* @broken form-validation */
    if (!name) errs.name = 'Name is required.';
    if (!/^\d+$/.test(tRaw) || target < 1) errs.target = 'Daily target must be a whole number from 1 to 50.';
    if (type === 'weekdays' && !days.length) errs.days = 'Pick at least one weekday.';
    if (type === 'weekly' && (!/^\d+$/.test(timesRaw) || times < 1 || times > 6)) errs.times = 'Times per week must be between 1 and 6.';
    /* @end form-validation */
    /* @feature unique-name */
    if (name && state.habits.some((h) => h.id !== ui.editing && h.name.trim().toLowerCase() === name.toLowerCase())) errs.name = 'A habit with this name already exists.';
    /* @end unique-name */
    /* @broken unique-name */
    if (name && state.habits.some((h) => h.id !== ui.editing && !h.archived && h.name.trim() === name)) errs.name = 'A habit with this name already exists.';
    /* @end unique-name */
    if (Object.keys(errs).length) {
      for (const [k, v] of Object.entries(errs)) {
        $('#e-' + k).textContent = v;
        const f = { name: '#f-name', target: '#f-target', times: '#f-times', days: '#f-days' }[k];
        $(f).classList.add('invalid');
      }
      $('#form-summary').hidden = false;
      return;
    }
    const schedule = type === 'weekdays' ? { type, days: WD.filter((w) => days.includes(w)) } : type === 'weekly' ? { type, times } : { type: 'daily' };
    const colour = $('#f-colour').value;
    if (ui.editing) {
      const h = state.habits.find((x) => x.id === ui.editing);
      /* @feature edit-save */
      Object.assign(h, { name, colour, schedule, target });
      /* @end edit-save */
      /* @broken edit-save */
      state.habits.push({ ...h, id: 'h-' + Date.now().toString(36), name, colour, schedule, target });
      /* @end edit-save */
    } else {
      const id = 'h-' + name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') + '-' + (state.habits.length + 1);
      state.habits.push({ id, name, colour, schedule, target, created: TODAY, archived: false });
      ui.selected = id;
      ui.month = null;
    }
    closeDialog();
    save();
    render();
  }

  function setArchived(id, archived) {
    const h = state.habits.find((x) => x.id === id);
    if (!h) return;
    h.archived = archived;
    /* @feature archive-save */
    save();
    /* @end archive-save */
    render();
  }

  // ------------------------------------------------------------------ events
  function bind() {
    document.addEventListener('click', (e) => {
      const t = e.target.closest('button, a');
      if (!t) return;
      if (t.dataset.filter) { ui.filter = t.dataset.filter; render(); return; }
      if (t.dataset.select) { ui.selected = t.dataset.select; ui.month = null; render(); return; }
      if (t.dataset.inc || t.dataset.dec) {
        const h = state.habits.find((x) => x.id === (t.dataset.inc || t.dataset.dec));
        /* @feature counter */
        setCount(h, count(h, TODAY) + (t.dataset.inc ? 1 : -1));
        /* @end counter */
        /* @broken counter */
        const raw = (state.log[h.id] || {})[TODAY] || 0;
        const n = raw + (t.dataset.inc ? 1 : -1);
        (state.log[h.id] = state.log[h.id] || {})[TODAY] = Math.max(0, n);
        save(); render();
        /* @end counter */
        return;
      }
      if (t.dataset.restore) { setArchived(t.dataset.restore, false); return; }
      switch (t.id) {
        case 'new-habit-btn': openDialog(null); break;
        case 'cancel-btn': closeDialog(); break;
        case 'edit-btn': openDialog(state.habits.find((x) => x.id === ui.selected)); break;
        case 'archive-btn': setArchived(ui.selected, true); break;
        case 'restore-btn': setArchived(ui.selected, false); break;
        case 'prev-month': case 'next-month': {
          const cur = toDate((ui.month || TODAY.slice(0, 7)) + '-01');
          cur.setUTCMonth(cur.getUTCMonth() + (t.id === 'prev-month' ? -1 : 1));
          ui.month = iso(cur).slice(0, 7);
          renderDetails();
          break;
        }
        case 'dismiss-issues': ui.issuesDismissed = true; renderIssues(); break;
        case 'export-btn': ui.exportOpen = true; $('#export-box').hidden = false; fillExport(); break;
        case 'import-btn': doImport($('#import-text').value); break;
        case 'reset-btn':
          if (!confirm('Discard your changes and reload the sample data?')) return;
          localStorage.removeItem(STORE_KEY);
          loadSample(); ui.issuesDismissed = false; ui.selected = null; ui.month = null;
          $('#storage-notice').hidden = true;
          render();
          break;
        default: break;
      }
    });
    document.addEventListener('change', (e) => {
      const t = e.target;
      if (t.dataset && t.dataset.toggle) {
        const h = state.habits.find((x) => x.id === t.dataset.toggle);
        setCount(h, t.checked ? 1 : 0);
      } else if (t.id === 'sort-select') { ui.sort = t.value; render(); }
      else if (t.name === 'f-sched') syncSchedFields();
      else if (t.id === 'import-file' && t.files && t.files[0]) {
        const reader = new FileReader();
        reader.onload = () => { $('#import-text').value = reader.result; doImport(String(reader.result)); };
        reader.readAsText(t.files[0]);
      }
    });
    $('#habit-form').addEventListener('submit', (e) => { e.preventDefault(); submitForm(); });
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && !$('#backdrop').hidden) closeDialog(); });
    $('#backdrop').addEventListener('mousedown', (e) => { if (e.target.id === 'backdrop') closeDialog(); });
  }

  function buildForm() {
    $('#f-colour').innerHTML = Object.keys(COLOURS).map((c) => `<option value="${c}">${c[0].toUpperCase() + c.slice(1)}</option>`).join('');
    $('#f-days').innerHTML = WD.map((w, i) => `<label class="day"><input type="checkbox" value="${w}"><span>${WD_LABEL[i]}</span></label>`).join('');
  }

  // ------------------------------------------------------------------ start
  async function start() {
    buildForm();
    bind();
    try {
      const [hr, cr] = await Promise.all([fetch('data/habits.json'), fetch('data/checkins.json')]);
      const hj = await hr.json();
      const cj = await cr.json();
      TODAY = hj.today;
      sample = { habits: hj.habits || [], checkins: cj.checkins || [] };
    } catch (e) {
      showStorageNotice('The habit data could not be loaded.');
      return;
    }
    restore();
    render();
  }
  start();
})();
