/* Front desk — Maple Street Family Clinic. Plain JS, no dependencies. */
(() => {
  'use strict';

  const STORE_KEY = 'frontdesk-state-v1';
  const state = {
    clinic: {}, doctors: [], patients: [], appts: [], waitlist: [],
    today: '', date: '', view: 'day', route: 'schedule',
    filters: { doctor: '', specialty: '', status: '' },
    patientQuery: '', notice: null, booking: null, editing: null,
  };
  const hooks = { act: {} };

  // ------------------------------------------------------------ helpers
  const $ = (sel, root = document) => root.querySelector(sel);
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const DAY_KEYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const parseISO = (s) => { const [y, m, d] = s.split('-').map(Number); return new Date(Date.UTC(y, m - 1, d)); };
  const toISO = (d) => d.toISOString().slice(0, 10);
  const addDays = (s, n) => { const d = parseISO(s); d.setUTCDate(d.getUTCDate() + n); return toISO(d); };
  const weekday = (s) => parseISO(s).getUTCDay();
  const longDate = (s) => { const d = parseISO(s); return `${DAY_NAMES[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`; };
  const shortDate = (s) => { const d = parseISO(s); return `${DAY_NAMES[d.getUTCDay()].slice(0, 3)} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()].slice(0, 3)}`; };
  const dayMonth = (s) => { const d = parseISO(s); return `${DAY_NAMES[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`; };
  const isoDate = (s) => /^\d{4}-\d{2}-\d{2}$/.test(s || '');
  const mins = (t) => { const [h, m] = t.split(':').map(Number); return h * 60 + m; };
  const hhmm = (n) => `${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
  const endOf = (a) => hhmm(mins(a.start) + Number(a.duration));
  const range = (a) => `${a.start}–${endOf(a)}`;
  const doctorById = (id) => state.doctors.find((d) => d.id === id) || null;
  const patientById = (id) => state.patients.find((p) => p.id === id) || null;
  const patientName = (a) => patientById(a.patientId)?.name || `Unknown patient (${a.patientId})`;
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const weekdayPlural = (s) => `${DAY_NAMES[weekday(s)]}s`;
  const STATUS_LABEL = { booked: 'Booked', 'checked-in': 'Checked in', completed: 'Completed', 'no-show': 'No-show', cancelled: 'Cancelled' };
  const digitsOf = (s) => String(s || '').replace(/\D/g, '');
  const formatPhone = (raw) => {
    let d = digitsOf(raw);
    if (d.length === 11 && d[0] === '1') d = d.slice(1);
    return d.length === 10 ? `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}` : String(raw).trim();
  };
  const overlaps = (a, b) => mins(a.start) < mins(b.start) + Number(b.duration) && mins(b.start) < mins(a.start) + Number(a.duration);
  const persist = () => hooks.save?.();

  let toastTimer = null;
  const toast = (msg) => {
    const el = $('#toast');
    el.textContent = msg;
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 5000);
  };

  // ------------------------------------------------------------ persistence
  /* @feature persistence */
  hooks.save = () => {
    const phones = Object.fromEntries(state.patients.map((p) => [p.id, p.phone || '']));
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify({ v: 1, appts: state.appts, waitlist: state.waitlist, phones }));
    } catch (e) { /* storage full or blocked: keep working in memory */ }
  };
  hooks.load = () => {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
      if (!saved || saved.v !== 1 || !Array.isArray(saved.appts) || !Array.isArray(saved.waitlist)) return;
      const valid = saved.appts.every((a) => a && a.id && isoDate(a.date) && /^\d{2}:\d{2}$/.test(a.start) && STATUS_LABEL[a.status]);
      if (!valid) return;
      state.appts = saved.appts;
      state.waitlist = saved.waitlist.filter((w) => w && w.id && w.patientId);
      for (const p of state.patients) {
        if (saved.phones && typeof saved.phones[p.id] === 'string') p.phone = saved.phones[p.id];
      }
    } catch (e) { /* corrupt entry: start from the data files */ }
  };
  /* @end persistence */
  /* @broken persistence */
  let savedCount = null;
  hooks.save = () => {
    if (state.appts.length === savedCount) return;
    savedCount = state.appts.length;
    const phones = Object.fromEntries(state.patients.map((p) => [p.id, p.phone || '']));
    try { localStorage.setItem(STORE_KEY, JSON.stringify({ v: 1, appts: state.appts, waitlist: state.waitlist, phones })); } catch (e) { /* ignore */ }
  };
  hooks.load = () => {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
      if (saved && Array.isArray(saved.appts)) {
        state.appts = saved.appts;
        state.waitlist = saved.waitlist || state.waitlist;
        for (const p of state.patients) if (saved.phones && typeof saved.phones[p.id] === 'string') p.phone = saved.phones[p.id];
      }
    } catch (e) { /* ignore */ }
    savedCount = state.appts.length;
  };
  /* @end persistence */

  // ------------------------------------------------------------ header
  /* @feature today-badge */
  hooks.todayBadge = () => `<span class="today-badge"><span class="dot" aria-hidden="true"></span>Today: ${esc(longDate(state.today))}</span>`;
  /* @end today-badge */
  /* @broken today-badge */
  hooks.todayBadge = () => `<span class="today-badge"><span class="dot" aria-hidden="true"></span>Today: ${esc(longDate(toISO(new Date())))}</span>`;
  /* @end today-badge */

  // ------------------------------------------------------------ date navigation
  /* @feature day-nav */
  hooks.stepDate = (dir) => {
    if (state.view === 'week') return addDays(state.date, 7 * dir);
    let d = addDays(state.date, dir);
    while (weekday(d) === 0 || weekday(d) === 6) d = addDays(d, dir);
    return d;
  };
  hooks.todayDate = () => state.today;
  /* @end day-nav */
  /* @broken day-nav */
  hooks.stepDate = (dir) => {
    if (state.view === 'week') return addDays(state.date, 7 * dir);
    let d = addDays(state.date, dir);
    while (weekday(d) === 0 || weekday(d) === 6) d = addDays(d, dir);
    return d;
  };
  hooks.todayDate = () => toISO(new Date());
  /* @end day-nav */

  // ------------------------------------------------------------ ordering
  /* @feature time-sort */
  hooks.sortDay = (list) => list.slice().sort((a, b) => mins(a.start) - mins(b.start)
    || (doctorById(a.doctorId)?.name || '~').localeCompare(doctorById(b.doctorId)?.name || '~'));
  /* @end time-sort */
  /* @broken time-sort */
  hooks.sortDay = (list) => list.slice().sort((a, b) => mins(a.start) - mins(b.start));
  /* @end time-sort */

  // ------------------------------------------------------------ filters
  /* @feature filter-doctor */
  hooks.doctorOptions = () => state.doctors.map((d) => `<option value="${d.id}">${esc(d.name)}</option>`).join('');
  hooks.filterDoctor = (list, id) => (id ? list.filter((a) => a.doctorId === id) : list);
  /* @end filter-doctor */
  /* @broken filter-doctor */
  hooks.doctorOptions = () => state.doctors.map((d) => `<option value="${d.id}">${esc(d.name)}</option>`).join('');
  hooks.filterDoctor = (list, id) => {
    if (!id) return list;
    const spec = doctorById(id)?.specialty;
    return list.filter((a) => doctorById(a.doctorId)?.specialty === spec);
  };
  /* @end filter-doctor */

  /* @feature filter-specialty */
  hooks.specialtyOptions = () => [...new Set(state.doctors.map((d) => d.specialty))].sort()
    .map((s) => `<option value="${esc(s)}">${esc(s)}</option>`).join('');
  hooks.filterSpecialty = (list, spec) => (spec ? list.filter((a) => doctorById(a.doctorId)?.specialty === spec) : list);
  /* @end filter-specialty */

  /* @feature filter-status */
  hooks.statusOptions = () => Object.entries(STATUS_LABEL).map(([k, v]) => `<option value="${k}">${v}</option>`).join('');
  hooks.filterStatus = (list, st) => (st ? list.filter((a) => a.status === st) : list);
  /* @end filter-status */
  /* @broken filter-status */
  hooks.statusOptions = () => Object.entries(STATUS_LABEL).map(([k, v]) => `<option value="${v.toLowerCase()}">${v}</option>`).join('');
  hooks.filterStatus = (list, st) => (st ? list.filter((a) => a.status === st) : list);
  /* @end filter-status */

  const applyFilters = (list) => {
    let out = list;
    if (hooks.filterDoctor) out = hooks.filterDoctor(out, state.filters.doctor);
    if (hooks.filterSpecialty) out = hooks.filterSpecialty(out, state.filters.specialty);
    if (hooks.filterStatus) out = hooks.filterStatus(out, state.filters.status);
    return out;
  };
  const apptsOn = (date) => state.appts.filter((a) => a.date === date);

  // ------------------------------------------------------------ daily summary
  /* @feature daily-summary */
  hooks.summaryCounts = (date) => {
    const list = apptsOn(date);
    const n = (st) => list.filter((a) => a.status === st).length;
    return [['Appointments', list.filter((a) => a.status !== 'cancelled').length, 'total'],
      ['Booked', n('booked'), 'booked'], ['Checked in', n('checked-in'), 'checked-in'],
      ['Completed', n('completed'), 'completed'], ['No-show', n('no-show'), 'no-show'],
      ['Cancelled', n('cancelled'), 'cancelled']];
  };
  /* @end daily-summary */
  /* @broken daily-summary */
  hooks.summaryCounts = (date) => {
    const list = apptsOn(date);
    const n = (st) => list.filter((a) => a.status === st).length;
    return [['Appointments', list.length, 'total'],
      ['Booked', n('booked'), 'booked'], ['Checked in', n('checked-in'), 'checked-in'],
      ['Completed', n('completed'), 'completed'], ['No-show', n('no-show'), 'no-show'],
      ['Cancelled', n('cancelled'), 'cancelled']];
  };
  /* @end daily-summary */

  // ------------------------------------------------------------ data problems
  /* @feature attention-panel */
  hooks.findIssues = () => {
    const issues = [];
    const live = state.appts.filter((a) => a.status !== 'cancelled');
    for (let i = 0; i < live.length; i++) {
      for (let j = i + 1; j < live.length; j++) {
        const a = live[i]; const b = live[j];
        if (a.doctorId === b.doctorId && a.date === b.date && overlaps(a, b)) {
          const [x, y] = mins(a.start) <= mins(b.start) ? [a, b] : [b, a];
          const doc = doctorById(a.doctorId)?.name || `Doctor ${a.doctorId}`;
          issues.push({ kind: 'overlap', label: 'Overlap', ids: [x.id, y.id], date: x.date,
            text: `${doc}, ${shortDate(x.date)}: ${patientName(x)} ${range(x)} overlaps ${patientName(y)} ${range(y)}` });
        }
      }
    }
    for (const a of state.appts) {
      const doc = doctorById(a.doctorId);
      if (!doc) {
        issues.push({ kind: 'unknown-doctor', label: 'Unknown doctor', ids: [a.id], date: a.date,
          text: `${patientName(a)}, ${shortDate(a.date)} ${a.start}: doctor "${a.doctorId}" is not on the staff list` });
        continue;
      }
      if (a.status === 'cancelled') continue;
      const hrs = doc.hours[DAY_KEYS[weekday(a.date)]];
      const off = (doc.daysOff || []).includes(a.date);
      if (!hrs || off || mins(a.start) < mins(hrs[0]) || mins(a.start) + Number(a.duration) > mins(hrs[1])) {
        const why = off ? 'day off' : !hrs ? `does not work on ${weekdayPlural(a.date)}` : `works ${hrs[0]}–${hrs[1]}`;
        issues.push({ kind: 'outside-hours', label: 'Outside hours', ids: [a.id], date: a.date,
          text: `${patientName(a)} with ${doc.name}, ${shortDate(a.date)} ${range(a)}: outside working hours (${why})` });
      }
    }
    const needPhone = new Set(state.appts.filter((a) => a.status === 'booked' && a.date >= state.today).map((a) => a.patientId));
    for (const p of state.patients) {
      if (needPhone.has(p.id) && !digitsOf(p.phone)) {
        issues.push({ kind: 'missing-phone', label: 'Missing phone', ids: [], date: null,
          text: `${p.name} has an upcoming appointment but no phone number on file` });
      }
    }
    return issues;
  };
  /* @end attention-panel */
  /* @broken attention-panel */
  hooks.findIssues = () => {
    const issues = [];
    const live = state.appts.filter((a) => a.status !== 'cancelled');
    for (let i = 0; i < live.length; i++) {
      for (let j = i + 1; j < live.length; j++) {
        const a = live[i]; const b = live[j];
        if (a.doctorId === b.doctorId && a.date === b.date && a.start === b.start) {
          const doc = doctorById(a.doctorId)?.name || `Doctor ${a.doctorId}`;
          issues.push({ kind: 'overlap', label: 'Overlap', ids: [a.id, b.id], date: a.date,
            text: `${doc}, ${shortDate(a.date)}: ${patientName(a)} ${range(a)} overlaps ${patientName(b)} ${range(b)}` });
        }
      }
    }
    for (const a of state.appts) {
      const doc = doctorById(a.doctorId);
      if (!doc) {
        issues.push({ kind: 'unknown-doctor', label: 'Unknown doctor', ids: [a.id], date: a.date,
          text: `${patientName(a)}, ${shortDate(a.date)} ${a.start}: doctor "${a.doctorId}" is not on the staff list` });
        continue;
      }
      if (a.status === 'cancelled') continue;
      const hrs = doc.hours[DAY_KEYS[weekday(a.date)]];
      if (!hrs || mins(a.start) < mins(hrs[0]) || mins(a.start) + Number(a.duration) > mins(hrs[1])) {
        issues.push({ kind: 'outside-hours', label: 'Outside hours', ids: [a.id], date: a.date,
          text: `${patientName(a)} with ${doc.name}, ${shortDate(a.date)} ${range(a)}: outside working hours` });
      }
    }
    for (const p of state.patients) {
      if (!digitsOf(p.phone) && state.appts.some((a) => a.patientId === p.id && a.status === 'booked')) {
        issues.push({ kind: 'missing-phone', label: 'Missing phone', ids: [], date: null,
          text: `${p.name} has an upcoming appointment but no phone number on file` });
      }
    }
    return issues;
  };
  /* @end attention-panel */

  /* @feature unknown-doctor */
  hooks.unknownDoctorCell = (a) => `<span class="doc-name unknown">Unknown doctor (${esc(a.doctorId)})</span><span class="badge badge-danger">Unknown doctor</span>`;
  /* @end unknown-doctor */

  /* @feature missing-phone */
  hooks.noPhone = (long) => `<span class="badge badge-warn">${long ? 'No phone on file' : 'No phone'}</span>`;
  /* @end missing-phone */

  // ------------------------------------------------------------ booking rules
  /* @feature field-validation */
  hooks.validateFields = (v) => {
    const e = {};
    if (!v.patientId) e.patient = 'Select a patient.';
    const compact = String(v.phone || '').replace(/[\s\-.()]/g, '');
    if (!String(v.phone || '').trim()) e.phone = 'Phone number is required.';
    else if (!/^(\+1)?\d{10}$/.test(compact)) e.phone = 'Enter a valid 10-digit phone number.';
    if (!v.doctorId) e.doctor = 'Select a doctor.';
    if (!v.date) e.date = 'Choose a date.';
    if (!v.time) e.time = 'Choose a start time.';
    else if (mins(v.time) % 15 !== 0) e.time = 'Start time must be on a 15-minute slot (:00, :15, :30 or :45).';
    if (!String(v.reason || '').trim()) e.reason = 'Enter a reason for the visit.';
    return e;
  };
  /* @end field-validation */
  /* @broken field-validation */
  hooks.validateFields = (v) => {
    const e = {};
    if (!v.patientId) e.patient = 'Select a patient.';
    if (!v.doctorId) e.doctor = 'Select a doctor.';
    if (digitsOf(v.phone).length && digitsOf(v.phone).length < 7) e.phone = 'Enter a valid 10-digit phone number.';
    if (!v.date) e.date = 'Choose a date.';
    if (!v.time) e.time = 'Choose a start time.';
    else if (mins(v.time) % 15 !== 0) e.time = 'Start time must be on a 15-minute slot (:00, :15, :30 or :45).';
    if (!String(v.reason || '').trim()) e.reason = 'Enter a reason for the visit.';
    return e;
  };
  /* @end field-validation */

  /* @feature schedule-rules */
  hooks.checkRules = (v, ignoreId) => {
    const doc = doctorById(v.doctorId);
    if (!doc || !v.date || !v.time) return null;
    if (v.date < state.today) return 'Appointments cannot be booked in the past.';
    const hrs = doc.hours[DAY_KEYS[weekday(v.date)]];
    if (!hrs) return `${doc.name} does not work on ${weekdayPlural(v.date)}.`;
    if ((doc.daysOff || []).includes(v.date)) return `${doc.name} is off on ${shortDate(v.date)}.`;
    const s = mins(v.time); const e = s + Number(v.duration);
    if (s < mins(hrs[0]) || e > mins(hrs[1])) return `${doc.name} works ${hrs[0]}–${hrs[1]} on ${weekdayPlural(v.date)}.`;
    const probe = { start: v.time, duration: Number(v.duration) };
    const hit = state.appts.find((a) => a.id !== ignoreId && a.doctorId === doc.id && a.date === v.date
      && a.status !== 'cancelled' && overlaps(a, probe));
    if (hit) return `${doc.name} is already booked ${range(hit)} (${patientName(hit)}).`;
    return null;
  };
  /* @end schedule-rules */
  /* @broken schedule-rules */
  hooks.checkRules = (v, ignoreId) => {
    const doc = doctorById(v.doctorId);
    if (!doc || !v.date || !v.time) return null;
    if (v.date < state.today) return 'Appointments cannot be booked in the past.';
    const hrs = doc.hours[DAY_KEYS[weekday(v.date)]];
    if (!hrs) return `${doc.name} does not work on ${weekdayPlural(v.date)}.`;
    const s = mins(v.time); const e = s + Number(v.duration);
    if (s < mins(hrs[0]) || e > mins(hrs[1])) return `${doc.name} works ${hrs[0]}–${hrs[1]} on ${weekdayPlural(v.date)}.`;
    const probe = { start: v.time, duration: Number(v.duration) };
    const hit = state.appts.find((a) => a.id !== ignoreId && a.doctorId === doc.id && a.date === v.date
      && a.status !== 'cancelled' && overlaps(a, probe));
    if (hit) return `${doc.name} is already booked ${range(hit)} (${patientName(hit)}).`;
    return null;
  };
  /* @end schedule-rules */

  // ------------------------------------------------------------ booking dialog
  /* @feature booking-form */
  const bk = (id) => document.getElementById(id);
  const setErr = (prefix, field, msg) => {
    const el = bk(`${prefix}-${field}-error`);
    const input = bk(`${prefix}-${field}`);
    if (el) el.textContent = msg || '';
    if (input) input.setAttribute('aria-invalid', msg ? 'true' : 'false');
  };
  const syncPhone = () => {
    const p = patientById(bk('bk-patient').value);
    bk('bk-phone').value = p?.phone || '';
    bk('bk-phone-hint').textContent = p && !digitsOf(p.phone) ? 'No phone on file — please add one.' : '';
  };
  hooks.openBooking = (prefill = {}) => {
    const patients = state.patients.slice().sort((a, b) => a.name.localeCompare(b.name));
    bk('bk-patient').innerHTML = '<option value="">Select a patient…</option>'
      + patients.map((p) => `<option value="${p.id}">${esc(p.name)}</option>`).join('');
    bk('bk-doctor').innerHTML = '<option value="">Select a doctor…</option>'
      + state.doctors.map((d) => `<option value="${d.id}">${esc(d.name)} — ${esc(d.specialty)}</option>`).join('');
    bk('bk-patient').value = prefill.patientId || '';
    bk('bk-doctor').value = prefill.doctorId || '';
    bk('bk-date').value = prefill.date || (state.route === 'schedule' && state.date >= state.today ? state.date : state.today);
    bk('bk-time').value = prefill.time || '';
    bk('bk-duration').value = '30';
    bk('bk-reason').value = '';
    syncPhone();
    for (const f of ['patient', 'phone', 'doctor', 'date', 'time', 'reason']) setErr('bk', f, '');
    bk('booking-alert').textContent = '';
    bk('booking-sub').textContent = prefill.waitlistId
      ? 'Booking from the waiting list — the entry is removed once the appointment is saved.'
      : "Book a 15- or 30-minute slot within the doctor's hours.";
    state.booking = { waitlistId: prefill.waitlistId || null };
    bk('booking-dialog').showModal();
    (prefill.patientId ? bk('bk-date') : bk('bk-patient')).focus();
  };
  const readBooking = () => ({
    patientId: bk('bk-patient').value, phone: bk('bk-phone').value, doctorId: bk('bk-doctor').value,
    date: bk('bk-date').value, time: bk('bk-time').value, duration: Number(bk('bk-duration').value),
    reason: bk('bk-reason').value.trim(),
  });
  const submitBooking = (ev) => {
    ev.preventDefault();
    const v = readBooking();
    const errors = hooks.validateFields?.(v) || {};
    for (const f of ['patient', 'phone', 'doctor', 'date', 'time', 'reason']) setErr('bk', f, errors[f]);
    bk('booking-alert').textContent = '';
    if (Object.keys(errors).length) return;
    const rule = hooks.checkRules?.(v, null);
    if (rule) { bk('booking-alert').textContent = rule; return; }
    hooks.commitBooking?.(v);
  };
  bk('booking-form').addEventListener('submit', submitBooking);
  bk('bk-patient').addEventListener('change', syncPhone);
  bk('bk-discard').addEventListener('click', () => bk('booking-dialog').close());
  /* @end booking-form */

  /* @feature booking-save */
  hooks.commitBooking = (v) => {
    const next = state.appts.reduce((m, a) => Math.max(m, Number(String(a.id).replace(/\D/g, '')) || 0), 0) + 1;
    const appt = { id: `a${String(next).padStart(2, '0')}`, patientId: v.patientId, doctorId: v.doctorId, date: v.date,
      start: v.time, duration: v.duration, reason: v.reason, status: 'booked' };
    state.appts.push(appt);
    const p = patientById(v.patientId);
    if (p) p.phone = formatPhone(v.phone);
    const ctx = state.booking || {};
    hooks.afterBooking?.(appt, ctx);
    persist();
    document.getElementById('booking-dialog').close();
    toast(`Appointment booked for ${p ? p.name : 'patient'} — ${shortDate(appt.date)} at ${appt.start}`);
    if (state.route === 'schedule' && appt.date !== state.date) { location.hash = `#/schedule/${appt.date}`; return; }
    render();
  };
  /* @end booking-save */
  /* @broken booking-save */
  hooks.commitBooking = (v) => {
    const next = state.appts.reduce((m, a) => Math.max(m, Number(String(a.id).replace(/\D/g, '')) || 0), 0) + 1;
    const appt = { id: `a${String(next).padStart(2, '0')}`, patientId: v.patientId, doctorId: v.doctorId, date: v.date,
      start: v.time, duration: v.duration, reason: v.reason, status: 'booked' };
    state.appts.push(appt);
    const p = patientById(v.patientId);
    hooks.afterBooking?.(appt, state.booking || {});
    persist();
    document.getElementById('booking-dialog').close();
    toast(`Appointment booked for ${p ? p.name : 'patient'} — ${shortDate(appt.date)} at ${appt.start}`);
    if (state.route === 'schedule' && appt.date !== state.date) { location.hash = `#/schedule/${appt.date}`; return; }
    render();
  };
  /* @end booking-save */

  // ------------------------------------------------------------ status workflow
  /* @feature status-workflow */
  hooks.statusButtons = (a) => {
    if (a.status === 'booked') {
      const known = !!doctorById(a.doctorId);
      const isToday = a.date === state.today;
      const ciTitle = !known ? 'Assign a doctor first' : !isToday ? 'Check-in is only possible on the day of the appointment' : 'Mark the patient as arrived';
      const nsOk = a.date <= state.today;
      return `<button type="button" class="btn xs primary" data-act="checkin" data-id="${a.id}" title="${ciTitle}"${known && isToday ? '' : ' disabled'}>Check in</button>`
        + `<button type="button" class="btn xs" data-act="noshow" data-id="${a.id}" title="${nsOk ? 'The patient did not come' : 'Only for appointments today or earlier'}"${nsOk ? '' : ' disabled'}>No-show</button>`;
    }
    if (a.status === 'checked-in') return `<button type="button" class="btn xs primary" data-act="complete" data-id="${a.id}">Complete</button>`;
    return '';
  };
  /* @end status-workflow */
  /* @broken status-workflow */
  hooks.statusButtons = (a) => {
    if (a.status === 'booked') {
      const known = !!doctorById(a.doctorId);
      return `<button type="button" class="btn xs primary" data-act="checkin" data-id="${a.id}"${known ? '' : ' disabled'}>Check in</button>`
        + `<button type="button" class="btn xs" data-act="noshow" data-id="${a.id}">No-show</button>`;
    }
    if (a.status === 'checked-in') return `<button type="button" class="btn xs primary" data-act="complete" data-id="${a.id}">Complete</button>`;
    return '';
  };
  /* @end status-workflow */
  /* @feature status-workflow */
  const setStatus = (id, status, msg) => {
    const a = state.appts.find((x) => x.id === id);
    if (!a) return;
    a.status = status;
    persist();
    toast(`${patientName(a)} — ${msg}`);
    render();
  };
  hooks.act.checkin = (id) => setStatus(id, 'checked-in', 'checked in');
  hooks.act.complete = (id) => setStatus(id, 'completed', 'visit completed');
  hooks.act.noshow = (id) => setStatus(id, 'no-show', 'marked as no-show');
  /* @end status-workflow */
  /* @broken status-workflow */
  const setStatus = (id, status, msg) => {
    const a = state.appts.find((x) => x.id === id);
    if (!a) return;
    a.status = status;
    persist();
    toast(`${patientName(a)} — ${msg}`);
    render();
  };
  hooks.act.checkin = (id) => setStatus(id, 'checked-in', 'checked in');
  hooks.act.complete = (id) => setStatus(id, 'completed', 'visit completed');
  hooks.act.noshow = (id) => setStatus(id, 'no-show', 'marked as no-show');
  /* @end status-workflow */

  // ------------------------------------------------------------ cancel
  /* @feature cancel-flow */
  hooks.cancelButton = (a) => (a.status === 'booked' ? `<button type="button" class="btn xs danger-ghost" data-act="cancel" data-id="${a.id}">Cancel</button>` : '');
  hooks.act.cancel = (id) => {
    const a = state.appts.find((x) => x.id === id);
    if (!a) return;
    state.editing = id;
    const doc = doctorById(a.doctorId)?.name || `doctor ${a.doctorId}`;
    $('#cancel-summary').textContent = `${patientName(a)} with ${doc} on ${shortDate(a.date)} at ${a.start}`;
    $('#cx-reason').value = '';
    $('#cx-reason-error').textContent = '';
    $('#cx-reason').setAttribute('aria-invalid', 'false');
    $('#cancel-dialog').showModal();
    $('#cx-reason').focus();
  };
  $('#cx-keep').addEventListener('click', () => $('#cancel-dialog').close());
  $('#cancel-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const a = state.appts.find((x) => x.id === state.editing);
    if (!a) { $('#cancel-dialog').close(); return; }
    const reason = $('#cx-reason').value.trim();
    /* @end cancel-flow */
    /* @feature cancel-flow */
    if (!reason) {
      $('#cx-reason-error').textContent = 'Please enter a reason for cancelling.';
      $('#cx-reason').setAttribute('aria-invalid', 'true');
      $('#cx-reason').focus();
      return;
    }
    /* @end cancel-flow */
    /* @feature cancel-flow */
    a.status = 'cancelled';
    a.cancelReason = reason;
    hooks.afterCancel?.(a);
    persist();
    $('#cancel-dialog').close();
    toast(`Appointment cancelled — ${patientName(a)}, ${shortDate(a.date)} ${a.start}`);
    render();
  });
  /* @end cancel-flow */
  /* @broken cancel-flow */
  hooks.cancelButton = (a) => (a.status === 'booked' ? `<button type="button" class="btn xs danger-ghost" data-act="cancel" data-id="${a.id}">Cancel</button>` : '');
  hooks.act.cancel = (id) => {
    const a = state.appts.find((x) => x.id === id);
    if (!a) return;
    state.editing = id;
    const doc = doctorById(a.doctorId)?.name || `doctor ${a.doctorId}`;
    $('#cancel-summary').textContent = `${patientName(a)} with ${doc} on ${shortDate(a.date)} at ${a.start}`;
    $('#cx-reason').value = '';
    $('#cancel-dialog').showModal();
  };
  $('#cx-keep').addEventListener('click', () => $('#cancel-dialog').close());
  $('#cancel-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const a = state.appts.find((x) => x.id === state.editing);
    if (!a) { $('#cancel-dialog').close(); return; }
    a.status = 'cancelled';
    a.cancelReason = $('#cx-reason').value.trim();
    hooks.afterCancel?.(a);
    persist();
    $('#cancel-dialog').close();
    toast(`Appointment cancelled — ${patientName(a)}, ${shortDate(a.date)} ${a.start}`);
    render();
  });
  /* @end cancel-flow */

  /* @feature waitlist-notify */
  hooks.afterCancel = (a) => {
    const doc = doctorById(a.doctorId);
    if (!doc) return;
    const wanting = state.waitlist.filter((w) => (w.doctorId === a.doctorId || !w.doctorId) && w.patientId !== a.patientId);
    if (!wanting.length) { state.notice = null; return; }
    state.notice = {
      text: `Slot freed with ${doc.name} on ${shortDate(a.date)} at ${a.start} — ${plural(wanting.length, 'patient', 'patients')} on the waiting list could take it`,
    };
  };
  /* @end waitlist-notify */

  // ------------------------------------------------------------ reschedule
  const installReschedule = (apply) => {
    const rs = (id) => document.getElementById(id);
    if (!rs('reschedule-dialog')) return;
    hooks.rescheduleButton = (a) => (a.status === 'booked' ? `<button type="button" class="btn xs" data-act="reschedule" data-id="${a.id}">Reschedule</button>` : '');
    const rsErr = (field, msg) => {
      rs(`rs-${field}-error`).textContent = msg || '';
      rs(`rs-${field}`).setAttribute('aria-invalid', msg ? 'true' : 'false');
    };
    hooks.act.reschedule = (id) => {
      const a = state.appts.find((x) => x.id === id);
      if (!a) return;
      state.editing = id;
      rs('rs-doctor').innerHTML = '<option value="">Select a doctor…</option>'
        + state.doctors.map((d) => `<option value="${d.id}">${esc(d.name)} — ${esc(d.specialty)}</option>`).join('');
      rs('rs-doctor').value = doctorById(a.doctorId) ? a.doctorId : '';
      rs('rs-date').value = a.date;
      rs('rs-time').value = a.start;
      rs('rs-reason').value = '';
      for (const f of ['doctor', 'date', 'time', 'reason']) rsErr(f, '');
      rs('reschedule-alert').textContent = '';
      rs('reschedule-summary').textContent = `${patientName(a)} · ${a.reason} · currently ${shortDate(a.date)} ${range(a)} (${a.duration} min)`;
      rs('reschedule-dialog').showModal();
      rs('rs-time').focus();
    };
    rs('rs-keep').addEventListener('click', () => rs('reschedule-dialog').close());
    rs('reschedule-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const a = state.appts.find((x) => x.id === state.editing);
      if (!a) { rs('reschedule-dialog').close(); return; }
      const v = { doctorId: rs('rs-doctor').value, date: rs('rs-date').value, time: rs('rs-time').value,
        duration: Number(a.duration), reason: rs('rs-reason').value.trim() };
      const e = {};
      if (!v.doctorId) e.doctor = 'Select a doctor.';
      if (!v.date) e.date = 'Choose a date.';
      if (!v.time) e.time = 'Choose a start time.';
      else if (mins(v.time) % 15 !== 0) e.time = 'Start time must be on a 15-minute slot (:00, :15, :30 or :45).';
      if (!v.reason) e.reason = 'Enter a reason for the change.';
      for (const f of ['doctor', 'date', 'time', 'reason']) rsErr(f, e[f]);
      rs('reschedule-alert').textContent = '';
      if (Object.keys(e).length) return;
      const rule = hooks.checkRules?.(v, a.id);
      if (rule) { rs('reschedule-alert').textContent = rule; return; }
      apply(a, v, `Rescheduled from ${shortDate(a.date)} ${a.start}`);
      persist();
      rs('reschedule-dialog').close();
      toast(`Appointment moved to ${shortDate(v.date)} at ${v.time}`);
      if (state.route === 'schedule' && v.date !== state.date) { location.hash = `#/schedule/${v.date}`; return; }
      render();
    });
  };
  /* @feature reschedule */
  installReschedule((a, v, note) => Object.assign(a, { doctorId: v.doctorId, date: v.date, start: v.time, note, changeReason: v.reason }));
  /* @end reschedule */
  /* @broken reschedule */
  installReschedule((a, v, note) => {
    const next = state.appts.reduce((m, x) => Math.max(m, Number(String(x.id).replace(/\D/g, '')) || 0), 0) + 1;
    state.appts.push({ ...a, id: `a${next}`, doctorId: v.doctorId, date: v.date, start: v.time, note, changeReason: v.reason });
  });
  /* @end reschedule */

  // ------------------------------------------------------------ patients
  /* @feature patient-search */
  hooks.matchPatient = (p, q) => {
    const needle = q.trim().toLowerCase();
    if (!needle) return true;
    if (p.name.toLowerCase().includes(needle)) return true;
    const d = digitsOf(needle);
    return d.length > 0 && /^[\d\s()+.\-]+$/.test(needle) && digitsOf(p.phone).includes(d);
  };
  /* @end patient-search */
  /* @broken patient-search */
  hooks.matchPatient = (p, q) => {
    const needle = q.trim().toLowerCase();
    return !needle || p.name.toLowerCase().includes(needle);
  };
  /* @end patient-search */

  const nextAppt = (p) => state.appts
    .filter((a) => a.patientId === p.id && (a.status === 'booked' || a.status === 'checked-in') && a.date >= state.today)
    .sort((a, b) => a.date.localeCompare(b.date) || mins(a.start) - mins(b.start))[0];

  const patientRows = () => {
    const q = state.patientQuery;
    const list = state.patients.slice().sort((a, b) => a.name.localeCompare(b.name))
      .filter((p) => (hooks.matchPatient ? hooks.matchPatient(p, q) : true));
    $('#patient-count').textContent = plural(list.length, 'patient', 'patients');
    const body = $('#patient-body');
    if (!list.length) {
      body.innerHTML = `<tr class="empty-row"><td colspan="4"><div class="empty">No patients match "${esc(q.trim())}".</div></td></tr>`;
      return;
    }
    body.innerHTML = list.map((p) => {
      const n = nextAppt(p);
      const phone = digitsOf(p.phone) ? esc(p.phone) : (hooks.noPhone?.(true) || '');
      const nextTxt = n ? `${shortDate(n.date)} ${n.start} · ${esc(doctorById(n.doctorId)?.name || 'Unknown doctor')}` : '—';
      const d = parseISO(p.dob);
      return `<tr><td><span class="avatar" aria-hidden="true">${esc(p.name.split(' ').map((x) => x[0]).join('').slice(0, 2))}</span><strong>${esc(p.name)}</strong></td>
        <td>${d.getUTCDate()} ${MONTHS[d.getUTCMonth()].slice(0, 3)} ${d.getUTCFullYear()}</td><td>${phone}</td><td>${nextTxt}</td></tr>`;
    }).join('');
  };

  const renderPatients = () => {
    $('#app').innerHTML = `<section class="page">
      <div class="page-head"><div><h1>Patients</h1><p class="muted" id="patient-count"></p></div></div>
      <div class="card">
        <div class="card-toolbar">
          <div class="search-box"><svg viewBox="0 0 20 20" aria-hidden="true"><circle cx="9" cy="9" r="6" fill="none" stroke="currentColor" stroke-width="2"/><path d="m14 14 4 4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
          <input type="search" id="patient-search" placeholder="Search by name or phone" aria-label="Search patients" value="${esc(state.patientQuery)}"></div>
        </div>
        <table class="data-table"><thead><tr><th>Name</th><th>Date of birth</th><th>Phone</th><th>Next appointment</th></tr></thead>
        <tbody id="patient-body"></tbody></table>
      </div></section>`;
    patientRows();
    $('#patient-search').addEventListener('input', (e) => { state.patientQuery = e.target.value; patientRows(); });
  };

  // ------------------------------------------------------------ waiting list
  /* @feature waitlist */
  hooks.waitCount = () => state.waitlist.length;
  hooks.renderWaitlist = () => {
    const rows = state.waitlist.map((w) => {
      const p = patientById(w.patientId);
      const d = w.doctorId ? doctorById(w.doctorId) : null;
      return `<tr><td><strong>${esc(p?.name || w.patientId)}</strong></td>
        <td>${w.doctorId ? esc(d?.name || `Unknown doctor (${w.doctorId})`) : '<span class="muted">Any doctor</span>'}</td>
        <td>${esc(w.note || '')}</td><td>${w.added ? shortDate(w.added) : '—'}</td>
        <td class="c-actions">${hooks.waitlistBookButton?.(w) || ''}<button type="button" class="btn xs danger-ghost" data-act="wl-remove" data-id="${w.id}">Remove</button></td></tr>`;
    }).join('');
    const patients = state.patients.slice().sort((a, b) => a.name.localeCompare(b.name));
    return `<section class="page">
      <div class="page-head"><div><h1>Waiting list</h1><p class="muted">${plural(state.waitlist.length, 'patient', 'patients')} waiting</p></div></div>
      <div class="page-grid">
        <div class="card">
          ${state.waitlist.length ? `<table class="data-table" aria-label="Waiting list entries"><thead><tr><th>Patient</th><th>Preferred doctor</th><th>Note</th><th>Added</th><th>Actions</th></tr></thead><tbody>${rows}</tbody></table>`
            : '<div class="empty">Nobody is waiting for a slot.</div>'}
        </div>
        <form class="card form-card" id="waitlist-form" aria-label="Add to waiting list" novalidate>
          <h2>Add to waiting list</h2>
          <div class="field"><label for="wl-patient">Patient</label>
            <select id="wl-patient"><option value="">Select a patient…</option>${patients.map((p) => `<option value="${p.id}">${esc(p.name)}</option>`).join('')}</select>
            <p class="field-error" id="wl-patient-error"></p></div>
          <div class="field"><label for="wl-doctor">Preferred doctor</label>
            <select id="wl-doctor"><option value="">Any doctor</option>${state.doctors.map((d) => `<option value="${d.id}">${esc(d.name)}</option>`).join('')}</select></div>
          <div class="field"><label for="wl-note">Note</label><input id="wl-note" type="text" placeholder="e.g. Mornings only"></div>
          <button type="submit" class="btn primary">Add to waiting list</button>
        </form>
      </div></section>`;
  };
  hooks.bindWaitlist = () => {
    const form = $('#waitlist-form');
    if (!form) return;
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const pid = $('#wl-patient').value;
      const err = $('#wl-patient-error');
      if (!pid) { err.textContent = 'Select a patient.'; return; }
      /* @end waitlist */
      /* @feature waitlist */
      if (state.waitlist.some((w) => w.patientId === pid)) { err.textContent = `${patientById(pid).name} is already on the waiting list.`; return; }
      /* @end waitlist */
      /* @feature waitlist */
      const next = state.waitlist.reduce((m, w) => Math.max(m, Number(String(w.id).replace(/\D/g, '')) || 0), 0) + 1;
      state.waitlist.push({ id: `w${next}`, patientId: pid, doctorId: $('#wl-doctor').value || null, note: $('#wl-note').value.trim(), added: state.today });
      persist();
      toast(`${patientById(pid).name} added to the waiting list`);
      render();
    });
  };
  hooks.act['wl-remove'] = (id) => {
    state.waitlist = state.waitlist.filter((w) => w.id !== id);
    persist();
    render();
  };
  /* @end waitlist */
  /* @broken waitlist */
  hooks.act['wl-remove'] = (id) => {
    state.waitlist = state.waitlist.filter((w) => w.id !== id);
    persist();
    render();
  };
  hooks.waitCount = () => state.waitlist.length;
  hooks.renderWaitlist = () => {
    const rows = state.waitlist.map((w) => {
      const p = patientById(w.patientId);
      const d = w.doctorId ? doctorById(w.doctorId) : null;
      return `<tr><td><strong>${esc(p?.name || w.patientId)}</strong></td>
        <td>${w.doctorId ? esc(d?.name || w.doctorId) : '<span class="muted">Any doctor</span>'}</td>
        <td>${esc(w.note || '')}</td><td>${w.added ? shortDate(w.added) : '—'}</td>
        <td class="c-actions">${hooks.waitlistBookButton?.(w) || ''}<button type="button" class="btn xs danger-ghost" data-act="wl-remove" data-id="${w.id}">Remove</button></td></tr>`;
    }).join('');
    const patients = state.patients.slice().sort((a, b) => a.name.localeCompare(b.name));
    return `<section class="page">
      <div class="page-head"><div><h1>Waiting list</h1><p class="muted">${plural(state.waitlist.length, 'patient', 'patients')} waiting</p></div></div>
      <div class="page-grid">
        <div class="card">
          ${state.waitlist.length ? `<table class="data-table" aria-label="Waiting list entries"><thead><tr><th>Patient</th><th>Preferred doctor</th><th>Note</th><th>Added</th><th>Actions</th></tr></thead><tbody>${rows}</tbody></table>`
            : '<div class="empty">Nobody is waiting for a slot.</div>'}
        </div>
        <form class="card form-card" id="waitlist-form" aria-label="Add to waiting list" novalidate>
          <h2>Add to waiting list</h2>
          <div class="field"><label for="wl-patient">Patient</label>
            <select id="wl-patient"><option value="">Select a patient…</option>${patients.map((p) => `<option value="${p.id}">${esc(p.name)}</option>`).join('')}</select>
            <p class="field-error" id="wl-patient-error"></p></div>
          <div class="field"><label for="wl-doctor">Preferred doctor</label>
            <select id="wl-doctor"><option value="">Any doctor</option>${state.doctors.map((d) => `<option value="${d.id}">${esc(d.name)}</option>`).join('')}</select></div>
          <div class="field"><label for="wl-note">Note</label><input id="wl-note" type="text" placeholder="e.g. Mornings only"></div>
          <button type="submit" class="btn primary">Add to waiting list</button>
        </form>
      </div></section>`;
  };
  hooks.bindWaitlist = () => {
    const form = $('#waitlist-form');
    if (!form) return;
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const pid = $('#wl-patient').value;
      if (!pid) { $('#wl-patient-error').textContent = 'Select a patient.'; return; }
      const next = state.waitlist.length + 1;
      state.waitlist.push({ id: `w${next}`, patientId: pid, doctorId: $('#wl-doctor').value || null, note: $('#wl-note').value.trim(), added: state.today });
      persist();
      toast(`${patientById(pid).name} added to the waiting list`);
      render();
    });
  };
  /* @end waitlist */

  /* @feature waitlist-book */
  hooks.waitlistBookButton = (w) => `<button type="button" class="btn xs primary" data-act="wl-book" data-id="${w.id}">Book</button>`;
  hooks.act['wl-book'] = (id) => {
    const w = state.waitlist.find((x) => x.id === id);
    if (!w) return;
    hooks.openBooking?.({ patientId: w.patientId, doctorId: w.doctorId || '', waitlistId: w.id });
  };
  hooks.afterBooking = (appt, ctx) => {
    if (ctx && ctx.waitlistId) state.waitlist = state.waitlist.filter((w) => w.id !== ctx.waitlistId);
  };
  /* @end waitlist-book */

  // ------------------------------------------------------------ schedule view
  const statusPill = (a) => `<span class="pill pill-${a.status}">${STATUS_LABEL[a.status] || esc(a.status)}</span>`;

  const issueMap = (issues) => {
    const m = new Map();
    for (const i of issues) for (const id of i.ids) {
      if (!m.has(id)) m.set(id, new Set());
      m.get(id).add(i.label);
    }
    return m;
  };

  const doctorCell = (a) => {
    const d = doctorById(a.doctorId);
    if (d) return `<span class="doc-name">${esc(d.name)}</span><span class="sub">${esc(d.specialty)}</span>`;
    return hooks.unknownDoctorCell ? hooks.unknownDoctorCell(a) : `<span class="doc-name muted">${esc(a.doctorId)}</span>`;
  };

  const rowHtml = (a, flags) => {
    const p = patientById(a.patientId);
    const phone = p && digitsOf(p.phone) ? `<span class="sub">${esc(p.phone)}</span>` : (hooks.noPhone?.(false) || '');
    const badges = [...(flags.get(a.id) || [])].filter((l) => l !== 'Unknown doctor')
      .map((l) => `<span class="badge ${l === 'Overlap' ? 'badge-danger' : 'badge-warn'}">${esc(l)}</span>`).join('');
    const actions = (hooks.statusButtons?.(a) || '') + (hooks.rescheduleButton?.(a) || '') + (hooks.cancelButton?.(a) || '');
    const cancelled = a.status === 'cancelled'
      ? `<span class="sub">${a.cancelReason ? `Cancelled — ${esc(a.cancelReason)}` : 'Cancelled'}</span>` : '';
    return `<tr class="row-${a.status}" data-id="${a.id}">
      <td class="c-time"><strong>${range(a)}</strong><span class="sub">${a.duration} min</span></td>
      <td class="c-patient"><span class="p-name">${esc(patientName(a))}</span>${phone}</td>
      <td class="c-doctor">${doctorCell(a)}</td>
      <td class="c-reason">${esc(a.reason)}${a.note ? `<span class="sub note">${esc(a.note)}</span>` : ''}${badges ? `<span class="badges">${badges}</span>` : ''}</td>
      <td class="c-status">${statusPill(a)}${cancelled}</td>
      <td class="c-actions">${actions || '<span class="muted">—</span>'}</td></tr>`;
  };

  const renderDay = (flags) => {
    const all = apptsOn(state.date);
    const rows = hooks.sortDay ? hooks.sortDay(applyFilters(all)) : applyFilters(all);
    let body;
    if (!all.length) body = '<div class="empty"><strong>No appointments on this day.</strong><span>Use “New appointment” to book one.</span></div>';
    else if (!rows.length) body = '<div class="empty"><strong>No appointments match the current filters.</strong><span>Change or clear the filters above.</span></div>';
    else {
      body = `<table class="appt-table" id="day-table"><caption>${plural(rows.length, 'appointment', 'appointments')}</caption>
        <thead><tr><th scope="col">Time</th><th scope="col">Patient</th><th scope="col">Doctor</th><th scope="col">Reason</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
        <tbody>${rows.map((a) => rowHtml(a, flags)).join('')}</tbody></table>`;
    }
    return `<h2 class="view-title" id="view-title">${esc(longDate(state.date))}${state.date === state.today ? ' <span class="tag">Today</span>' : ''}</h2>${body}`;
  };

  /* @feature week-view */
  hooks.renderWeek = () => {
    const wd = weekday(state.date);
    const monday = addDays(state.date, wd === 0 ? -6 : 1 - wd);
    const days = [0, 1, 2, 3, 4].map((i) => addDays(monday, i));
    return weekHtml(monday, days);
  };
  /* @end week-view */
  /* @broken week-view */
  hooks.renderWeek = () => {
    const sunday = addDays(state.date, -weekday(state.date));
    const days = [0, 1, 2, 3, 4].map((i) => addDays(sunday, i));
    return weekHtml(sunday, days);
  };
  /* @end week-view */
  /* @feature week-view */
  const weekHtml = (first, days) => {
    const doc = state.filters.doctor ? doctorById(state.filters.doctor) : null;
    const cols = days.map((d) => {
      const list = (hooks.sortDay ? hooks.sortDay(applyFilters(apptsOn(d))) : applyFilters(apptsOn(d)));
      let hours = '';
      if (doc) {
        const h = doc.hours[DAY_KEYS[weekday(d)]];
        if ((doc.daysOff || []).includes(d)) hours = '<p class="hours off">Day off</p>';
        else if (!h) hours = '<p class="hours off">Not working</p>';
        else hours = `<p class="hours">${h[0]}–${h[1]}</p>`;
      }
      const id = `wk-${d}`;
      const items = list.map((a) => `<li class="chip chip-${a.status}"><span class="chip-time">${a.start}</span> <span class="chip-name">${esc(patientName(a))}</span>${doc ? '' : `<span class="chip-doc">${esc(doctorById(a.doctorId)?.name || `Unknown doctor (${a.doctorId})`)}</span>`}</li>`).join('');
      return `<section class="week-col${d === state.today ? ' is-today' : ''}" aria-labelledby="${id}">
        <header><h3 id="${id}"><button type="button" class="link-btn" data-goto-day="${d}">${esc(dayMonth(d))}</button></h3>${hours}<p class="count">${plural(list.length, 'appointment', 'appointments')}</p></header>
        ${items ? `<ul>${items}</ul>` : '<p class="week-empty">Nothing booked</p>'}</section>`;
    }).join('');
    const d = parseISO(first);
    return `<h2 class="view-title" id="view-title">Week of ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}${doc ? ` <span class="tag">${esc(doc.name)}</span>` : ''}</h2>
      <div class="week-grid">${cols}</div>`;
  };
  /* @end week-view */
  /* @broken week-view */
  const weekHtml = (first, days) => {
    const doc = state.filters.doctor ? doctorById(state.filters.doctor) : null;
    const cols = days.map((d) => {
      const list = (hooks.sortDay ? hooks.sortDay(applyFilters(apptsOn(d))) : applyFilters(apptsOn(d)));
      let hours = '';
      if (doc) {
        const h = doc.hours[DAY_KEYS[weekday(d)]];
        if ((doc.daysOff || []).includes(d)) hours = '<p class="hours off">Day off</p>';
        else if (!h) hours = '<p class="hours off">Not working</p>';
        else hours = `<p class="hours">${h[0]}–${h[1]}</p>`;
      }
      const id = `wk-${d}`;
      const items = list.map((a) => `<li class="chip chip-${a.status}"><span class="chip-time">${a.start}</span> <span class="chip-name">${esc(patientName(a))}</span></li>`).join('');
      return `<section class="week-col" aria-labelledby="${id}">
        <header><h3 id="${id}"><button type="button" class="link-btn" data-goto-day="${d}">${esc(dayMonth(d))}</button></h3>${hours}<p class="count">${plural(list.length, 'appointment', 'appointments')}</p></header>
        ${items ? `<ul>${items}</ul>` : '<p class="week-empty">Nothing booked</p>'}</section>`;
    }).join('');
    const d = parseISO(first);
    return `<h2 class="view-title" id="view-title">Week of ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}</h2>
      <div class="week-grid">${cols}</div>`;
  };
  /* @end week-view */

  const renderSchedule = () => {
    const issues = hooks.findIssues ? hooks.findIssues() : [];
    const flags = issueMap(issues);
    const f = state.filters;
    const unit = state.view === 'week' ? 'week' : 'day';
    const summary = hooks.summaryCounts
      ? `<section class="summary" aria-label="Daily summary">${hooks.summaryCounts(state.date).map(([label, n, key]) =>
        `<div class="stat stat-${key}"><span class="stat-label">${label}</span><span class="stat-value">${n}</span></div>`).join('')}</section>`
      : '';
    const notice = state.notice
      ? `<div class="notice" role="note"><span>${esc(state.notice.text)}.</span> <a href="#/waitlist">View waiting list</a><button type="button" class="icon-btn" data-act="dismiss-notice" aria-label="Dismiss notice">×</button></div>` : '';
    const attention = `<aside class="card attention" aria-labelledby="att-title">
      <h2 id="att-title">Needs attention (${issues.length})</h2>
      ${issues.length ? `<ul class="issues">${issues.map((i) => `<li class="issue issue-${i.kind}"><span class="issue-kind">${esc(i.label)}</span><span class="issue-text">${esc(i.text)}</span>${i.date ? `<a href="#/schedule/${i.date}" class="issue-link">Open day</a>` : ''}</li>`).join('')}</ul>`
        : '<p class="all-clear">All clear — no scheduling problems found.</p>'}
    </aside>`;
    $('#app').innerHTML = `${notice}
      <div class="toolbar card">
        <div class="date-nav">
          <button type="button" class="icon-btn" data-nav-step="-1" aria-label="Previous ${unit}">‹</button>
          <button type="button" class="btn sm" data-nav-today>Today</button>
          <button type="button" class="icon-btn" data-nav-step="1" aria-label="Next ${unit}">›</button>
        </div>
        <div class="filters">
          <div class="filter"><span class="filter-label" aria-hidden="true">Doctor</span>
            <select data-filter="doctor" aria-label="Filter by doctor"><option value="">All doctors</option>${hooks.doctorOptions?.() || ''}</select></div>
          <div class="filter"><span class="filter-label" aria-hidden="true">Specialty</span>
            <select data-filter="specialty" aria-label="Filter by specialty"><option value="">All specialties</option>${hooks.specialtyOptions?.() || ''}</select></div>
          <div class="filter"><span class="filter-label" aria-hidden="true">Status</span>
            <select data-filter="status" aria-label="Filter by status"><option value="">All statuses</option>${hooks.statusOptions?.() || ''}</select></div>
        </div>
        <div class="seg" role="group" aria-label="View">
          <button type="button" data-view="day" aria-pressed="${state.view === 'day'}">Day</button>
          <button type="button" data-view="week" aria-pressed="${state.view === 'week'}">Week</button>
        </div>
        <button type="button" class="btn primary" id="new-appt"><svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d="M8 2v12M2 8h12" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg> New appointment</button>
      </div>
      <div class="schedule-grid">
        <div class="schedule-main">
          ${summary}
          <div class="card schedule-card">${state.view === 'week' && hooks.renderWeek ? hooks.renderWeek() : renderDay(flags)}</div>
        </div>
        ${attention}
      </div>`;
    for (const sel of document.querySelectorAll('[data-filter]')) {
      const key = sel.dataset.filter;
      sel.value = f[key];
      if (sel.value !== f[key]) { f[key] = ''; sel.value = ''; }
    }
  };

  // ------------------------------------------------------------ routing and events
  const render = () => {
    const h = location.hash.replace(/^#\/?/, '');
    const [page, arg] = h.split('/');
    state.route = ['patients', 'waitlist'].includes(page) ? page : 'schedule';
    if (state.route === 'schedule') state.date = isoDate(arg) ? arg : state.today;
    $('#today-slot').innerHTML = hooks.todayBadge?.() || '';
    for (const a of document.querySelectorAll('[data-nav]')) {
      const on = a.dataset.nav === state.route;
      a.classList.toggle('active', on);
      if (on) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    }
    const wc = $('#waitlist-count');
    if (wc) wc.textContent = hooks.waitCount ? String(hooks.waitCount()) : '';
    if (state.route === 'patients') renderPatients();
    else if (state.route === 'waitlist') {
      $('#app').innerHTML = hooks.renderWaitlist?.()
        || '<section class="page"><div class="page-head"><h1>Waiting list</h1></div><div class="card"><div class="empty">The waiting list is not available.</div></div></section>';
      hooks.bindWaitlist?.();
    } else renderSchedule();
  };

  const goDate = (d) => {
    const target = `#/schedule/${d}`;
    if (location.hash === target) render(); else location.hash = target;
  };

  document.addEventListener('click', (ev) => {
    const t = ev.target.closest('button, a');
    if (!t) return;
    if (t.id === 'new-appt') { hooks.openBooking?.(); return; }
    if (t.id === 'reset-data') {
      if (window.confirm('Discard all changes and reload the sample data?')) {
        try { localStorage.removeItem(STORE_KEY); } catch (e) { /* ignore */ }
        location.reload();
      }
      return;
    }
    if (t.hasAttribute('data-nav-step')) {
      const d = hooks.stepDate?.(Number(t.getAttribute('data-nav-step')));
      if (d) goDate(d);
      return;
    }
    if (t.hasAttribute('data-nav-today')) { const d = hooks.todayDate?.(); if (d) goDate(d); return; }
    if (t.dataset.view) { state.view = t.dataset.view; render(); return; }
    if (t.dataset.gotoDay) { state.view = 'day'; goDate(t.dataset.gotoDay); return; }
    const act = t.dataset.act;
    if (act === 'dismiss-notice') { state.notice = null; render(); return; }
    if (act && hooks.act[act]) hooks.act[act](t.dataset.id);
  });
  document.addEventListener('change', (ev) => {
    const key = ev.target.dataset?.filter;
    if (key) { state.filters[key] = ev.target.value; render(); }
  });
  window.addEventListener('hashchange', render);

  // ------------------------------------------------------------ boot
  const load = async (file) => {
    const res = await fetch(`data/${file}`);
    if (!res.ok) throw new Error(`${file}: HTTP ${res.status}`);
    return res.json();
  };
  Promise.all([load('doctors.json'), load('patients.json'), load('appointments.json')]).then(([docs, pats, appts]) => {
    state.clinic = docs.clinic || {};
    state.doctors = Array.isArray(docs.doctors) ? docs.doctors : [];
    state.patients = (Array.isArray(pats.patients) ? pats.patients : []).map((p) => ({ ...p, phone: p.phone || '' }));
    state.appts = (Array.isArray(appts.appointments) ? appts.appointments : [])
      .filter((a) => a && isoDate(a.date) && /^\d{2}:\d{2}$/.test(a.start || ''))
      .map((a) => ({ ...a, duration: Number(a.duration) || 15 }));
    state.waitlist = Array.isArray(appts.waitlist) ? appts.waitlist.map((w) => ({ ...w })) : [];
    state.today = isoDate(appts.today) ? appts.today : toISO(new Date());
    state.date = state.today;
    if (state.clinic.name) { $('#clinic-name').textContent = state.clinic.name; document.title = `Front Desk · ${state.clinic.name}`; }
    if (state.clinic.address) $('#clinic-address').textContent = `${state.clinic.address} · ${state.clinic.phone || ''}`;
    hooks.load?.();
    render();
  }).catch((err) => {
    $('#app').innerHTML = `<div class="card error-state" role="alert"><h2>Could not load the clinic data</h2><p>${esc(err.message)}</p></div>`;
  });
})();
