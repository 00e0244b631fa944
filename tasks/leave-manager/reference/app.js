/* Brightwater Studio — leave planner (single page, hash routes).
   Routes: #/ (requests)  #/new  #/calendar  #/balances */
(() => {
  'use strict';

  const STORE_KEY = 'brightwater.leave.v1';
  const TYPES = {
    annual: { label: 'Annual leave', short: 'Annual' },
    sick: { label: 'Sick leave', short: 'Sick' },
    unpaid: { label: 'Unpaid leave', short: 'Unpaid' },
  };
  const STATUS = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected', cancelled: 'Cancelled' };
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const MONTHS_LONG = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
    'September', 'October', 'November', 'December'];
  const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

  // Optional behaviours register themselves here; the core calls them with ?.()
  const hooks = {};

  const state = {
    company: 'Brightwater Studio',
    today: null,
    year: 2026,
    carryCap: 5,
    teams: [],
    employees: [],
    holidays: [],     // valid {date, name}
    requests: [],     // valid requests only
    issues: [],       // data issue lines
    list: { q: '', status: '', team: '' },
    rejecting: null,  // request id whose reject panel is open
    rejectError: '',
    calMonth: null,   // 'YYYY-MM'
    flash: null,      // {view, kind, text}
    form: null,       // current new-request form values
  };

  const view = document.getElementById('view');

  // ------------------------------------------------------------ helpers
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => (
    { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const validIso = (iso) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(iso ?? ''));
    if (!m) return false;
    const dt = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
    return dt.getUTCFullYear() === +m[1] && dt.getUTCMonth() === +m[2] - 1 && dt.getUTCDate() === +m[3];
  };
  const dayNum = (iso) => {
    const [y, m, d] = String(iso).split('-').map(Number);
    return Math.round(Date.UTC(y, m - 1, d) / 86400000);
  };
  const isoOf = (n) => new Date(n * 86400000).toISOString().slice(0, 10);
  const addDays = (iso, n) => isoOf(dayNum(iso) + n);
  const weekday = (iso) => new Date(dayNum(iso) * 86400000).getUTCDay();
  const fmtDate = (iso) => {
    const dt = new Date(dayNum(iso) * 86400000);
    return `${MONTHS[dt.getUTCMonth()]} ${dt.getUTCDate()}, ${dt.getUTCFullYear()}`;
  };
  const fmtShort = (iso) => {
    const dt = new Date(dayNum(iso) * 86400000);
    return `${MONTHS[dt.getUTCMonth()]} ${dt.getUTCDate()}`;
  };
  const fmtLong = (iso) => `${WEEKDAYS[weekday(iso)]}, ${fmtDate(iso)}`;
  const fmtDays = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
  const daysWord = (n) => `${fmtDays(n)} ${n === 1 ? 'day' : 'days'}`;
  const fmtRange = (r) => {
    if (r.start === r.end) {
      const part = r.halfDay === 'am' ? ' (morning)' : r.halfDay === 'pm' ? ' (afternoon)' : '';
      return fmtDate(r.start) + part;
    }
    return `${fmtShort(r.start)} – ${fmtDate(r.end)}`;
  };

  const empOf = (id) => state.employees.find((e) => e.id === id);
  const teamOf = (id) => state.teams.find((t) => t.id === id);
  const holidayName = (iso) => hooks.holidayName?.(iso) ?? null;
  const isWorkingDay = (iso) => weekday(iso) !== 0 && weekday(iso) !== 6 && !holidayName(iso);

  function workingDaysIn(start, end) {
    const out = [];
    for (let n = dayNum(start); n <= dayNum(end); n += 1) {
      const iso = isoOf(n);
      if (isWorkingDay(iso)) out.push(iso);
    }
    return out;
  }
  function requestDays(r) {
    const days = workingDaysIn(r.start, r.end).length;
    if (r.halfDay && r.start === r.end) return days ? 0.5 : 0;
    return days;
  }
  const isActive = (r) => r.status === 'pending' || r.status === 'approved';
  const covers = (r, iso) => dayNum(r.start) <= dayNum(iso) && dayNum(iso) <= dayNum(r.end);

  function carryOf(e) {
    const raw = Math.max(0, Number(e.carryOver) || 0);
    return hooks.capCarry ? hooks.capCarry(raw) : raw;
  }
  function balanceOf(e) {
    const entitlement = (Number(e.allowance) || 0) + carryOf(e);
    let approved = 0;
    let pending = 0;
    let sick = 0;
    for (const r of state.requests) {
      if (r.employeeId !== e.id) continue;
      const d = requestDays(r);
      if (r.type === 'annual' && r.status === 'approved') approved += d;
      if (r.type === 'annual' && r.status === 'pending') pending += d;
      if (r.type === 'sick' && r.status === 'approved') sick += d;
    }
    return { entitlement, approved, pending, available: entitlement - approved - pending, sick };
  }

  // people of a team away on a day (approved leave only, plus optional extra request)
  function awayOn(teamId, iso, extra) {
    const ids = new Set();
    for (const r of state.requests) {
      if (r.status !== 'approved' || !covers(r, iso)) continue;
      const e = empOf(r.employeeId);
      if (e && e.team === teamId) ids.add(e.id);
    }
    if (extra && covers(extra, iso)) ids.add(extra.employeeId);
    return ids.size;
  }
  function teamSize(teamId) {
    return state.employees.filter((e) => e.team === teamId).length;
  }

  // ------------------------------------------------------------ persistence
  function save() {
    hooks.save?.();
  }

  // ------------------------------------------------------------ data loading
  async function loadJson(path) {
    const res = await fetch(path);
    if (!res.ok) throw new Error(`Could not load ${path}`);
    return res.json();
  }

  function normaliseData(company, hol, req) {
    state.company = company.company || state.company;
    state.today = company.today;
    state.year = Number(company.leaveYear) || Number(String(company.today).slice(0, 4));
    state.carryCap = Number(company.policy?.carryOverCap ?? 5);
    state.teams = company.teams || [];
    state.employees = company.employees || [];
    state.calMonth = state.today.slice(0, 7);
    state.issues = [];
    state.holidays = [];
    for (const h of hol.holidays || []) {
      if (validIso(h.date)) state.holidays.push(h);
      else state.issues.push(`Holiday "${h.name}" has an invalid date (${h.date}); it is ignored.`);
    }
    state.holidays.sort((a, b) => dayNum(a.date) - dayNum(b.date));
    for (const e of state.employees) {
      const raw = Number(e.carryOver) || 0;
      if (raw > state.carryCap) {
        state.issues.push(`${e.name} (${e.id}) has ${raw} carry-over days; the cap is ${state.carryCap}, so ${state.carryCap} are applied.`);
      }
    }
    state.requests = [];
    for (const r of req.requests || []) {
      if (!empOf(r.employeeId)) {
        state.issues.push(`Request ${r.id} refers to unknown employee ${r.employeeId}; it is ignored.`);
        continue;
      }
      if (!validIso(r.start) || !validIso(r.end) || dayNum(r.end) < dayNum(r.start)) {
        state.issues.push(`Request ${r.id} ends before it starts (${r.start} to ${r.end}); it is ignored.`);
        continue;
      }
      state.requests.push({ ...r });
    }
  }

  // ------------------------------------------------------------ shell
  function setActiveNav(route) {
    document.querySelectorAll('.mainnav a').forEach((a) => {
      const on = a.dataset.route === route;
      a.classList.toggle('active', on);
      if (on) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
  }

  function flashHtml(name) {
    if (!state.flash || state.flash.view !== name) return '';
    const f = state.flash;
    state.flash = null;
    return `<div class="flash flash-${f.kind}" role="${f.kind === 'error' ? 'alert' : 'status'}">${esc(f.text)}</div>`;
  }

  function route() {
    const hash = location.hash.replace(/^#\/?/, '');
    const name = hash.split('/')[0] || 'requests';
    if (name === 'new') renderNew();
    else if (name === 'calendar') renderCalendar();
    else if (name === 'balances') renderBalances();
    else renderRequests();
  }

  // ------------------------------------------------------------ requests view
  function listMatches(r) {
    const e = empOf(r.employeeId);
    if (hooks.filterStatus && !hooks.filterStatus(r)) return false;
    if (hooks.filterTeam && !hooks.filterTeam(r, e)) return false;
    if (hooks.search && !hooks.search(r, e)) return false;
    return true;
  }

  function staffingNote(r) {
    return hooks.approvalWarning?.(r) ?? '';
  }

  function actionsFor(r) {
    const b = [];
    if (r.status === 'pending') {
      if (hooks.approve) b.push(`<button type="button" class="btn btn-sm btn-ok" data-act="approve" data-id="${r.id}">Approve</button>`);
      if (hooks.reject) b.push(`<button type="button" class="btn btn-sm btn-danger-ghost" data-act="reject" data-id="${r.id}">Reject</button>`);
    }
    if (r.status === 'approved' && dayNum(r.start) > dayNum(state.today) && hooks.cancel) {
      b.push(`<button type="button" class="btn btn-sm btn-ghost" data-act="cancel" data-id="${r.id}">Cancel</button>`);
    }
    if (r.status === 'approved' && dayNum(r.start) <= dayNum(state.today)) {
      b.push(`<span class="muted small">${dayNum(r.end) < dayNum(state.today) ? 'Taken' : 'In progress'}</span>`);
    }
    return b.join(' ');
  }

  function requestRow(r) {
    const e = empOf(r.employeeId);
    const t = teamOf(e.team);
    const d = requestDays(r);
    const reason = r.status === 'rejected' && r.rejectReason
      ? `<div class="reason">Reason: ${esc(r.rejectReason)}</div>` : '';
    const warn = r.status === 'pending' ? staffingNote(r) : '';
    const rejectPanel = state.rejecting === r.id ? (hooks.rejectPanel?.(r) ?? '') : '';
    return `<tr data-id="${r.id}">
      <td class="mono">${r.id}</td>
      <td><div class="emp">${esc(e.name)}</div><div class="muted small">${esc(t?.name ?? '')}</div></td>
      <td><span class="type type-${r.type}">${esc(TYPES[r.type]?.label ?? r.type)}</span>${r.note ? `<div class="muted small note">${esc(r.note)}</div>` : ''}</td>
      <td>${fmtRange(r)}</td>
      <td class="num">${fmtDays(d)}</td>
      <td><span class="pill pill-${r.status}">${STATUS[r.status] ?? r.status}</span>${reason}${warn}</td>
      <td class="actions">${actionsFor(r)}${rejectPanel}</td>
    </tr>`;
  }

  function sortRequests(list) {
    return list.slice().sort((a, b) => {
      const pa = a.status === 'pending' ? 0 : 1;
      const pb = b.status === 'pending' ? 0 : 1;
      if (pa !== pb) return pa - pb;
      if (pa === 0) return dayNum(a.start) - dayNum(b.start);
      return dayNum(b.start) - dayNum(a.start) || a.id.localeCompare(b.id);
    });
  }

  function renderRequests() {
    setActiveNav('requests');
    const rows = sortRequests(state.requests.filter(listMatches));
    const pendingCount = state.requests.filter((r) => r.status === 'pending').length;
    let body;
    if (rows.length) {
      body = `<div class="table-wrap"><table class="table" aria-label="Leave requests">
        <thead><tr><th>Request</th><th>Employee</th><th>Type</th><th>Dates</th><th class="num">Days</th><th>Status</th><th>Actions</th></tr></thead>
        <tbody>${rows.map(requestRow).join('')}</tbody></table></div>`;
    } else {
      body = hooks.emptyState?.() ?? '<div class="table-wrap"><table class="table" aria-label="Leave requests"><tbody></tbody></table></div>';
    }
    view.innerHTML = `
      <section class="page">
        <div class="page-head">
          <div>
            <h1>Leave requests</h1>
            <p class="muted">Approve, reject or cancel your team's leave. Weekends and public holidays are never counted.</p>
          </div>
          <div class="stat-chip" aria-label="Awaiting approval"><strong>${pendingCount}</strong> awaiting approval</div>
        </div>
        ${flashHtml('requests')}
        <div class="toolbar">
          ${hooks.searchBox?.() ?? ''}
          ${hooks.statusSelect?.() ?? ''}
          ${hooks.teamSelect?.() ?? ''}
          ${hooks.countLine?.(rows.length) ?? ''}
        </div>
        ${body}
      </section>`;
    hooks.bindList?.();
    view.querySelectorAll('[data-act]').forEach((btn) => {
      btn.addEventListener('click', () => {
        const r = state.requests.find((x) => x.id === btn.dataset.id);
        if (!r) return;
        hooks[btn.dataset.act]?.(r);
      });
    });
    hooks.bindReject?.();
  }

  hooks.countLine = (n) => `<span class="count" id="request-count">${n === 1 ? '1 request' : `${n} requests`}</span>`;

  /* @feature search */
  hooks.searchBox = () => `<label class="search"><span class="sr-only">Search requests</span>
      <input type="search" id="req-search" aria-label="Search requests" placeholder="Search by employee or note" value="${esc(state.list.q)}"></label>`;
  hooks.search = (r, e) => {
    const q = state.list.q.trim().toLowerCase();
    if (!q) return true;
    return e.name.toLowerCase().includes(q) || String(r.note || '').toLowerCase().includes(q)
      || r.id.toLowerCase() === q;
  };
  /* @end search */

  /* @feature status-filter */
  hooks.statusSelect = () => `<label class="field-inline">Status
      <select id="req-status">
        <option value="">All statuses</option>
        ${Object.entries(STATUS).map(([k, v]) => `<option value="${k}"${state.list.status === k ? ' selected' : ''}>${v}</option>`).join('')}
      </select></label>`;
  hooks.filterStatus = (r) => !state.list.status || r.status === state.list.status;
  /* @end status-filter */

  /* @feature team-filter */
  hooks.teamSelect = () => `<label class="field-inline">Team
      <select id="req-team">
        <option value="">All teams</option>
        ${state.teams.map((t) => `<option value="${t.id}"${state.list.team === t.id ? ' selected' : ''}>${esc(t.name)}</option>`).join('')}
      </select></label>`;
  hooks.filterTeam = (r, e) => !state.list.team || e.team === state.list.team;
  /* @end team-filter */

  /* @feature empty-state */
  hooks.emptyState = () => `<div class="empty">
      <p><strong>No requests match your filters.</strong></p>
      <button type="button" class="btn btn-ghost" id="clear-filters">Clear filters</button></div>`;
  /* @end empty-state */

  hooks.bindList = () => {
    const s = document.getElementById('req-search');
    if (s) {
      s.addEventListener('input', () => {
        state.list.q = s.value;
        const pos = s.selectionStart;
        renderRequests();
        const again = document.getElementById('req-search');
        again.focus();
        again.setSelectionRange(pos, pos);
      });
    }
    const st = document.getElementById('req-status');
    if (st) st.addEventListener('change', () => { state.list.status = st.value; renderRequests(); });
    const tm = document.getElementById('req-team');
    if (tm) tm.addEventListener('change', () => { state.list.team = tm.value; renderRequests(); });
    const clr = document.getElementById('clear-filters');
    if (clr) clr.addEventListener('click', () => { state.list = { q: '', status: '', team: '' }; renderRequests(); });
  };

  /* @feature approve */
  hooks.approve = (r) => {
    const warn = hooks.approvalShortfall?.(r) ?? [];
    r.status = 'approved';
    r.decided = state.today;
    save();
    const e = empOf(r.employeeId);
    let text = `Approved ${r.id} for ${e.name}: ${daysWord(requestDays(r))} of ${TYPES[r.type].label.toLowerCase()}.`;
    if (warn.length) text += ` Heads-up: ${teamOf(e.team).name} is now below minimum staffing on ${warn.map((w) => fmtShort(w.date)).join(', ')}.`;
    state.flash = { view: 'requests', kind: warn.length ? 'warn' : 'ok', text };
    renderRequests();
  };
  /* @end approve */

  /* @feature reject */
  hooks.reject = (r) => {
    state.rejecting = r.id;
    state.rejectError = '';
    renderRequests();
    document.getElementById('reject-reason')?.focus();
  };
  hooks.rejectPanel = (r) => `<div class="reject-panel">
      <label for="reject-reason">Rejection reason</label>
      <textarea id="reject-reason" rows="2" placeholder="Tell ${esc(empOf(r.employeeId).name.split(' ')[0])} why"></textarea>
      ${state.rejectError ? `<p class="field-error" role="alert">${esc(state.rejectError)}</p>` : ''}
      <div class="row-btns">
        <button type="button" class="btn btn-sm btn-danger" id="confirm-reject">Confirm rejection</button>
        <button type="button" class="btn btn-sm btn-ghost" id="cancel-reject">Back</button>
      </div></div>`;
  hooks.bindReject = () => {
    const ok = document.getElementById('confirm-reject');
    if (!ok) return;
    ok.addEventListener('click', () => {
      const r = state.requests.find((x) => x.id === state.rejecting);
      const reason = document.getElementById('reject-reason').value.trim();
      if (!reason) {
        state.rejectError = 'Please give a reason for the rejection.';
        renderRequests();
        return;
      }
      r.status = 'rejected';
      r.rejectReason = reason;
      r.decided = state.today;
      state.rejecting = null;
      state.rejectError = '';
      save();
      state.flash = { view: 'requests', kind: 'ok', text: `Rejected ${r.id} (${empOf(r.employeeId).name}): ${reason}` };
      renderRequests();
    });
    document.getElementById('cancel-reject').addEventListener('click', () => {
      state.rejecting = null;
      state.rejectError = '';
      renderRequests();
    });
  };
  /* @end reject */

  /* @feature cancel */
  hooks.cancel = (r) => {
    if (dayNum(r.start) <= dayNum(state.today)) return;
    r.status = 'cancelled';
    save();
    const d = requestDays(r);
    const back = r.type === 'annual' ? ` ${daysWord(d)} returned to the balance.` : '';
    state.flash = { view: 'requests', kind: 'ok', text: `Cancelled ${r.id} (${empOf(r.employeeId).name}).${back}` };
    renderRequests();
  };
  /* @end cancel */

  /* @feature staffing-approval */
  hooks.approvalShortfall = (r) => {
    const e = empOf(r.employeeId);
    const team = teamOf(e?.team);
    if (!team) return [];
    const size = teamSize(team.id);
    const out = [];
    for (const iso of workingDaysIn(r.start, r.end)) {
      const inOffice = size - awayOn(team.id, iso, r);
      if (inOffice < team.minStaff) out.push({ date: iso, inOffice });
    }
    return out;
  };
  hooks.approvalWarning = (r) => {
    const short = hooks.approvalShortfall(r);
    if (!short.length) return '';
    const team = teamOf(empOf(r.employeeId).team);
    return `<div class="staff-warn" role="note">⚠ If approved, ${esc(team.name)} drops below minimum staffing (${team.minStaff}): ${short.map((s) => `${fmtShort(s.date)} (${s.inOffice} in)`).join(', ')}</div>`;
  };
  /* @end staffing-approval */

  // ------------------------------------------------------------ new request
  function blankForm() {
    return { employeeId: '', type: 'annual', start: '', end: '', halfDay: '', note: '' };
  }

  function validate(f) {
    const errors = {};
    const formErrors = [];
    if (!f.employeeId) errors.employee = 'Choose an employee.';
    if (!f.start) errors.start = 'Enter a start date.';
    else if (!validIso(f.start)) errors.start = 'Enter a valid start date.';
    if (!f.end) errors.end = 'Enter an end date.';
    else if (!validIso(f.end)) errors.end = 'Enter a valid end date.';
    if (errors.start || errors.end) return { errors, formErrors };
    hooks.checkDates?.(f, errors);
    if (!errors.end) hooks.checkPast?.(f, errors);
    if (!errors.end) hooks.checkHalfDay?.(f, errors);
    if (Object.keys(errors).length) return { errors, formErrors };
    const req = { ...f, halfDay: f.halfDay || null };
    const days = requestDays(req);
    if (days === 0) {
      formErrors.push('The selected dates contain no working days (weekends and public holidays are not counted).');
      return { errors, formErrors };
    }
    if (errors.employee) return { errors, formErrors };
    const overlap = hooks.findOverlap?.(req);
    if (overlap) {
      formErrors.push(`Overlaps ${empOf(overlap.employeeId).name}'s ${STATUS[overlap.status].toLowerCase()} ${TYPES[overlap.type].label.toLowerCase()} ${overlap.id} (${fmtRange(overlap)}).`);
      return { errors, formErrors };
    }
    const bal = hooks.checkBalance?.(req, days);
    if (bal) formErrors.push(bal);
    return { errors, formErrors };
  }

  /* @feature form-validation */
  hooks.checkDates = (f, errors) => {
    if (dayNum(f.end) < dayNum(f.start)) errors.end = "End date can't be before the start date.";
    else if (f.start.slice(0, 4) !== String(state.year) || f.end.slice(0, 4) !== String(state.year)) {
      errors.end = `Requests must fall within the ${state.year} leave year.`;
    }
  };
  hooks.checkPast = (f, errors) => {
    if (dayNum(f.start) < dayNum(state.today)) errors.start = `Start date can't be in the past (today is ${fmtDate(state.today)}).`;
  };
  /* @end form-validation */

  /* @feature overlap-check */
  hooks.findOverlap = (req) => state.requests.find((r) => r.employeeId === req.employeeId && isActive(r)
    && dayNum(r.start) <= dayNum(req.end) && dayNum(req.start) <= dayNum(r.end)) || null;
  /* @end overlap-check */
  /* @broken overlap-check */
  hooks.findOverlap = (req) => state.requests.find((r) => r.employeeId === req.employeeId && r.status === 'pending'
    && dayNum(r.start) <= dayNum(req.end) && dayNum(req.start) <= dayNum(r.end)) || null;
  /* @end overlap-check */

  /* @feature balance-check */
  hooks.checkBalance = (req, days) => {
    if (req.type !== 'annual') return '';
    const e = empOf(req.employeeId);
    const bal = balanceOf(e);
    if (days > bal.available) {
      return `Not enough annual leave: ${daysWord(days)} requested, ${fmtDays(bal.available)} available.`;
    }
    return '';
  };
  /* @end balance-check */

  function summaryHtml(f) {
    return hooks.daySummary?.(f) ?? '';
  }

  /* @feature day-summary */
  hooks.daySummary = (f) => {
    if (!validIso(f.start) || !validIso(f.end) || dayNum(f.end) < dayNum(f.start)) {
      return '<p class="muted">Pick the dates to see how many working days this request uses.</p>';
    }
    const req = { ...f, halfDay: f.halfDay || null };
    const days = requestDays(req);
    const hols = [];
    for (let n = dayNum(f.start); n <= dayNum(f.end); n += 1) {
      const iso = isoOf(n);
      const name = holidayName(iso);
      if (name && weekday(iso) !== 0 && weekday(iso) !== 6) hols.push(`${name} (${WEEKDAYS[weekday(iso)]}, ${fmtShort(iso)})`);
    }
    const parts = [`<p class="big" id="working-days">${days === 1 ? '1 working day' : `${fmtDays(days)} working days`}</p>`];
    if (hols.length) parts.push(`<p class="small">Excludes ${hols.length === 1 ? '1 public holiday' : `${hols.length} public holidays`}: ${esc(hols.join(', '))}</p>`);
    parts.push('<p class="small muted">Weekends are not counted.</p>');
    const e = empOf(f.employeeId);
    if (e && f.type === 'annual') {
      const bal = balanceOf(e);
      parts.push(`<p class="small">Balance: ${fmtDays(bal.available)} days available → ${fmtDays(bal.available - days)} after this request</p>`);
    }
    return parts.join('');
  };
  /* @end day-summary */

  function renderNew() {
    setActiveNav('new');
    if (!state.form) state.form = blankForm();
    const f = state.form;
    const v = f.validation || { errors: {}, formErrors: [] };
    const err = (k) => (v.errors[k] ? `<p class="field-error" id="err-${k}">${esc(v.errors[k])}</p>` : '');
    const byTeam = state.teams.map((t) => `<optgroup label="${esc(t.name)}">${state.employees.filter((e) => e.team === t.id)
      .map((e) => `<option value="${e.id}"${f.employeeId === e.id ? ' selected' : ''}>${esc(e.name)}</option>`).join('')}</optgroup>`).join('');
    view.innerHTML = `
      <section class="page">
        <div class="page-head"><div><h1>New leave request</h1>
          <p class="muted">Requests start as pending until a manager approves them.</p></div></div>
        ${flashHtml('new')}
        <div class="form-grid">
          <form class="card form" id="req-form" aria-label="New leave request" novalidate>
            <div class="field"><label for="f-emp">Employee</label>
              <select id="f-emp"><option value="">Choose an employee…</option>${byTeam}</select>${err('employee')}</div>
            <div class="field"><label for="f-type">Leave type</label>
              <select id="f-type">${Object.entries(TYPES).map(([k, t]) => `<option value="${k}"${f.type === k ? ' selected' : ''}>${t.label}</option>`).join('')}</select></div>
            <div class="field-row">
              <div class="field"><label for="f-start">Start date</label>
                <input type="date" id="f-start" value="${esc(f.start)}">${err('start')}</div>
              <div class="field"><label for="f-end">End date</label>
                <input type="date" id="f-end" value="${esc(f.end)}">${err('end')}</div>
            </div>
            ${hooks.halfDayField?.(f, err) ?? ''}
            <div class="field"><label for="f-note">Note (optional)</label>
              <textarea id="f-note" rows="2">${esc(f.note)}</textarea></div>
            ${v.formErrors.length ? `<div class="form-alert" role="alert">${v.formErrors.map(esc).join('<br>')}</div>` : ''}
            <div class="form-actions"><button type="submit" class="btn btn-primary">Submit request</button></div>
          </form>
          <aside class="card summary" aria-label="Request summary">
            <h2>Summary</h2>
            <div id="summary-body">${summaryHtml(f)}</div>
          </aside>
        </div>
      </section>`;
    const form = document.getElementById('req-form');
    const sync = () => {
      f.employeeId = document.getElementById('f-emp').value;
      f.type = document.getElementById('f-type').value;
      f.start = document.getElementById('f-start').value;
      f.end = document.getElementById('f-end').value;
      f.halfDay = document.getElementById('f-half')?.value || '';
      f.note = document.getElementById('f-note').value;
      const sb = document.getElementById('summary-body');
      if (sb) sb.innerHTML = summaryHtml(f);
    };
    form.addEventListener('input', sync);
    form.addEventListener('change', sync);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      sync();
      const res = validate(f);
      if (Object.keys(res.errors).length || res.formErrors.length) {
        f.validation = res;
        renderNew();
        return;
      }
      hooks.submit?.(f);
    });
  }

  function nextId() {
    const max = state.requests.reduce((m, r) => Math.max(m, Number(String(r.id).replace(/\D/g, '')) || 0), 24);
    return `LR-${String(max + 1).padStart(3, '0')}`;
  }

  /* @feature submit-request */
  hooks.submit = (f) => submitRequest(f);
  /* @end submit-request */

  function submitRequest(f) {
    const r = {
      id: nextId(), employeeId: f.employeeId, type: f.type, start: f.start, end: f.end,
      halfDay: f.start === f.end && f.halfDay ? f.halfDay : null, status: 'pending',
      note: f.note.trim(), created: state.today,
    };
    state.requests.push(r);
    save();
    state.form = blankForm();
    state.flash = {
      view: 'new', kind: 'ok',
      text: `Request ${r.id} submitted for ${empOf(r.employeeId).name}: ${daysWord(requestDays(r))} of ${TYPES[r.type].label.toLowerCase()}, awaiting approval.`,
    };
    renderNew();
  }

  /* @feature half-day */
  hooks.halfDayField = (f, err) => `<div class="field"><label for="f-half">Day part</label>
      <select id="f-half">
        <option value=""${!f.halfDay ? ' selected' : ''}>Full day(s)</option>
        <option value="am"${f.halfDay === 'am' ? ' selected' : ''}>Morning only (half day)</option>
        <option value="pm"${f.halfDay === 'pm' ? ' selected' : ''}>Afternoon only (half day)</option>
      </select>${err('half')}</div>`;
  hooks.checkHalfDay = (f, errors) => {
    if (f.halfDay && f.start !== f.end) errors.half = 'Half days are only possible for single-day requests.';
  };
  /* @end half-day */

  // ------------------------------------------------------------ calendar
  function monthLabel(ym) {
    const [y, m] = ym.split('-').map(Number);
    return `${MONTHS_LONG[m - 1]} ${y}`;
  }
  function shiftMonth(ym, delta) {
    let [y, m] = ym.split('-').map(Number);
    m += delta;
    while (m < 1) { m += 12; y -= 1; }
    while (m > 12) { m -= 12; y += 1; }
    return `${y}-${String(m).padStart(2, '0')}`;
  }

  function renderCalendar() {
    setActiveNav('calendar');
    const ym = state.calMonth;
    const first = `${ym}-01`;
    const lastN = dayNum(`${shiftMonth(ym, 1)}-01`) - 1;
    const lead = (weekday(first) + 6) % 7; // Monday first
    const cells = [];
    for (let i = 0; i < lead; i += 1) cells.push('<td class="pad" aria-hidden="true"></td>');
    const warnings = [];
    for (let n = dayNum(first); n <= lastN; n += 1) {
      const iso = isoOf(n);
      const wd = weekday(iso);
      const hol = holidayName(iso);
      const away = state.requests.filter((r) => isActive(r) && covers(r, iso) && (wd !== 0 && wd !== 6) && !hol)
        .sort((a, b) => empOf(a.employeeId).name.localeCompare(empOf(b.employeeId).name));
      const chips = away.map((r) => {
        const e = empOf(r.employeeId);
        const half = r.halfDay ? (r.halfDay === 'am' ? ' · AM' : ' · PM') : '';
        return `<li class="chip chip-${r.type}${r.status === 'pending' ? ' chip-pending' : ''}" title="${esc(TYPES[r.type].label)} · ${STATUS[r.status]}">${esc(e.name)}${half}${r.status === 'pending' ? ' (pending)' : ''}</li>`;
      }).join('');
      const dayWarn = hooks.dayWarnings?.(iso) ?? [];
      dayWarn.forEach((w) => warnings.push(w));
      const cls = ['day'];
      if (wd === 0 || wd === 6) cls.push('weekend');
      if (hol) cls.push('holiday');
      if (iso === state.today) cls.push('today');
      if (dayWarn.length) cls.push('understaffed');
      cells.push(`<td class="${cls.join(' ')}" aria-label="${fmtLong(iso)}">
        <div class="day-head"><span class="day-num">${n - dayNum(first) + 1}</span>${iso === state.today ? '<span class="today-tag">Today</span>' : ''}</div>
        ${hol ? `<div class="hol-name">${esc(hol)}</div>` : ''}
        ${dayWarn.map((w) => `<div class="cell-warn">⚠ ${esc(w.team)} ${w.inOffice}/${w.size}</div>`).join('')}
        ${chips ? `<ul class="chips">${chips}</ul>` : ''}
      </td>`);
    }
    while (cells.length % 7) cells.push('<td class="pad" aria-hidden="true"></td>');
    const weeks = [];
    for (let i = 0; i < cells.length; i += 7) weeks.push(`<tr>${cells.slice(i, i + 7).join('')}</tr>`);
    view.innerHTML = `
      <section class="page">
        <div class="page-head">
          <div><h1>Team calendar</h1><p class="muted">Who is away each working day. Striped entries are still pending.</p></div>
        </div>
        <div class="cal-bar">
          ${hooks.calNav?.('prev') ?? ''}
          <h2 class="cal-title" id="cal-title">${monthLabel(ym)}</h2>
          ${hooks.calNav?.('next') ?? ''}
          <div class="legend"><span class="chip chip-annual">Annual</span><span class="chip chip-sick">Sick</span><span class="chip chip-unpaid">Unpaid</span><span class="chip chip-annual chip-pending">Pending</span></div>
        </div>
        <div class="table-wrap"><table class="calendar" aria-label="Team calendar">
          <thead><tr>${['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => `<th scope="col">${d}</th>`).join('')}</tr></thead>
          <tbody>${weeks.join('')}</tbody></table></div>
        ${hooks.warningsPanel?.(warnings) ?? ''}
      </section>`;
    view.querySelectorAll('[data-cal]').forEach((b) => b.addEventListener('click', () => {
      state.calMonth = b.dataset.cal === 'today' ? state.today.slice(0, 7) : shiftMonth(state.calMonth, b.dataset.cal === 'prev' ? -1 : 1);
      renderCalendar();
    }));
  }

  /* @feature calendar-nav */
  hooks.calNav = (dir) => (dir === 'prev'
    ? '<button type="button" class="btn btn-icon" data-cal="prev" aria-label="Previous month">‹</button>'
    : '<button type="button" class="btn btn-icon" data-cal="next" aria-label="Next month">›</button><button type="button" class="btn btn-ghost btn-sm" data-cal="today">This month</button>');
  /* @end calendar-nav */

  /* @feature staffing-calendar */
  hooks.dayWarnings = (iso) => {
    if (!isWorkingDay(iso)) return [];
    const out = [];
    for (const t of state.teams) {
      const size = teamSize(t.id);
      const inOffice = size - awayOn(t.id, iso);
      if (inOffice < t.minStaff) out.push({ date: iso, team: t.name, inOffice, size, min: t.minStaff });
    }
    return out;
  };
  hooks.warningsPanel = (warnings) => `<section class="card warn-panel" aria-label="Staffing warnings">
      <h2>Staffing warnings</h2>
      ${warnings.length ? `<ul>${warnings.map((w) => `<li>${fmtLong(w.date)}: ${esc(w.team)} has ${w.inOffice} of ${w.size} in (minimum ${w.min})</li>`).join('')}</ul>`
    : '<p class="muted">Every team meets its minimum staffing this month.</p>'}
    </section>`;
  /* @end staffing-calendar */
  /* @broken staffing-calendar */
  hooks.dayWarnings = (iso) => {
    if (!isWorkingDay(iso)) return [];
    const out = [];
    for (const t of state.teams) {
      const size = teamSize(t.id);
      const inOffice = size - awayOn(t.id, iso);
      if (inOffice < t.minStaff - 1) out.push({ date: iso, team: t.name, inOffice, size, min: t.minStaff });
    }
    return out;
  };
  hooks.warningsPanel = (warnings) => `<section class="card warn-panel" aria-label="Staffing warnings">
      <h2>Staffing warnings</h2>
      ${warnings.length ? `<ul>${warnings.map((w) => `<li>${fmtLong(w.date)}: ${esc(w.team)} has ${w.inOffice} of ${w.size} in (minimum ${w.min})</li>`).join('')}</ul>`
    : '<p class="muted">Every team meets its minimum staffing this month.</p>'}
    </section>`;
  /* @end staffing-calendar */

  // ------------------------------------------------------------ balances
  function renderBalances() {
    setActiveNav('balances');
    const rows = state.employees.map((e) => {
      const b = balanceOf(e);
      const raw = Number(e.carryOver) || 0;
      const carry = carryOf(e);
      const capped = raw > carry ? ` <span class="muted small">(${raw} in records, capped)</span>` : '';
      return `<tr>
        <td><div class="emp">${esc(e.name)}</div><div class="muted small">${esc(e.role || '')}</div></td>
        <td>${esc(teamOf(e.team)?.name ?? '')}</td>
        <td class="num">${fmtDays(Number(e.allowance) || 0)}</td>
        <td class="num">${fmtDays(carry)}${capped}</td>
        <td class="num">${fmtDays(b.entitlement)}</td>
        <td class="num">${fmtDays(b.approved)}</td>
        <td class="num">${fmtDays(b.pending)}</td>
        <td class="num"><strong class="${b.available <= 2 ? 'low' : ''}">${fmtDays(b.available)}</strong></td>
        ${hooks.sickCell?.(b) ?? ''}
      </tr>`;
    }).join('');
    view.innerHTML = `
      <section class="page">
        <div class="page-head"><div><h1>Leave balances ${state.year}</h1>
          <p class="muted">Entitlement = annual allowance + carry-over (at most ${state.carryCap} days). Available = entitlement − approved − pending annual leave.</p></div></div>
        <div class="table-wrap"><table class="table" aria-label="Leave balances">
          <thead><tr><th>Employee</th><th>Team</th><th class="num">Allowance</th><th class="num">Carry-over</th><th class="num">Entitlement</th><th class="num">Approved</th><th class="num">Pending</th><th class="num">Available</th>${hooks.sickHead?.() ?? ''}</tr></thead>
          <tbody>${rows}</tbody></table></div>
        <div class="two-col">
          <section class="card" aria-label="Public holidays">
            <h2>Public holidays ${state.year}</h2>
            <ul class="hol-list">${state.holidays.map((h) => `<li><span>${fmtLong(h.date)}</span><span>${esc(h.name)}</span></li>`).join('')}</ul>
          </section>
          ${hooks.issuesPanel?.() ?? ''}
        </div>
      </section>`;
  }

  /* @feature sick-days */
  hooks.sickHead = () => '<th class="num">Sick days</th>';
  hooks.sickCell = (b) => `<td class="num">${fmtDays(b.sick)}</td>`;
  /* @end sick-days */

  /* @feature carry-cap */
  hooks.capCarry = (raw) => Math.min(raw, state.carryCap);
  /* @end carry-cap */

  /* @feature data-issues */
  hooks.issuesPanel = () => `<section class="card issues" aria-label="Data issues">
      <h2>Data issues</h2>
      ${state.issues.length ? `<ul>${state.issues.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>` : '<p class="muted">No data issues found.</p>'}
    </section>`;
  /* @end data-issues */

  /* @feature holidays */
  hooks.holidayName = (iso) => state.holidays.find((h) => h.date === iso)?.name ?? null;
  /* @end holidays */
  /* @broken holidays */
  hooks.holidayName = (iso) => state.holidays.find((h) => h.date === addDays(iso, -1))?.name ?? null;
  /* @end holidays */

  /* @feature persistence */
  hooks.save = () => {
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify({ requests: state.requests }));
    } catch (err) { /* storage full or blocked: keep working in memory */ }
  };
  hooks.restore = () => {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
      if (saved && Array.isArray(saved.requests)) {
        state.requests = saved.requests.filter((r) => empOf(r.employeeId) && validIso(r.start) && validIso(r.end));
      }
    } catch (err) { /* corrupt storage: fall back to the data files */ }
  };
  /* @end persistence */
  /* @broken persistence */
  hooks.save = () => {
    try {
      const added = state.requests.filter((r) => Number(String(r.id).replace(/\D/g, '')) > 24);
      localStorage.setItem(STORE_KEY, JSON.stringify({ added }));
    } catch (err) { /* ignore */ }
  };
  hooks.restore = () => {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
      if (saved && Array.isArray(saved.added)) {
        saved.added.filter((r) => empOf(r.employeeId)).forEach((r) => state.requests.push(r));
      }
    } catch (err) { /* ignore */ }
  };
  /* @end persistence */

  // ------------------------------------------------------------ boot
  async function boot() {
    try {
      const [company, hol, req] = await Promise.all([
        loadJson('data/company.json'), loadJson('data/holidays.json'), loadJson('data/requests.json')]);
      normaliseData(company, hol, req);
    } catch (err) {
      view.innerHTML = `<div class="flash flash-error" role="alert">Could not load the leave records: ${esc(err.message)}</div>`;
      return;
    }
    hooks.restore?.();
    const chip = document.getElementById('today-chip');
    if (chip) chip.textContent = `Today: ${fmtLong(state.today)}`;
    const brand = document.getElementById('brand-name');
    if (brand) brand.textContent = state.company;
    window.addEventListener('hashchange', route);
    route();
  }

  boot();
})();
