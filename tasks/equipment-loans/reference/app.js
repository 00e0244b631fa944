'use strict';
// Media office loans: items, borrowers and loans from data/, dated by the data's fixed "today".
const STORE = 'media-office-loans-v1';
const STUDENT_MAX = 2;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const state = { today: '', loanDays: 7, items: [], borrowers: [], loans: [], notice: '',
                open: null, ok: '', err: '', filters: { search: '', type: '', avail: false } };
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const pad = (n) => String(n).padStart(2, '0');
const iso = (y, m, d) => `${y}-${pad(m)}-${pad(d)}`;
const utc = (s) => { const [y, m, d] = s.split('-').map(Number); return Date.UTC(y, m - 1, d); };
const daysBetween = (from, to) => Math.round((utc(to) - utc(from)) / 86400000);
const addDays = (s, n) => { const t = new Date(utc(s) + n * 86400000); return iso(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()); };
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

// ------------------------------------------------------------------ reading the data
function parseDue(raw) {
  if (!raw) return '';
  const s = String(raw).trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  /* @feature date-formats */
  let m = s.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
  if (m) return iso(+m[3], +m[2], +m[1]);
  m = s.match(/^([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})$/);
  if (m && MONTHS.includes(m[1].toLowerCase())) return iso(+m[3], MONTHS.indexOf(m[1].toLowerCase()) + 1, +m[2]);
  /* @end date-formats */
  /* @broken date-formats */
  let m = s.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
  if (m) return iso(+m[3], +m[1], +m[2]);
  m = s.match(/^([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})$/);
  if (m && MONTHS.includes(m[1].toLowerCase())) return iso(+m[3], MONTHS.indexOf(m[1].toLowerCase()) + 1, +m[2]);
  /* @end date-formats */
  return s;
}

function typeOf(raw) {
  let t = String(raw ?? '');
  /* @feature type-normalize */
  t = t.trim();
  t = t.charAt(0).toUpperCase() + t.slice(1).toLowerCase();
  /* @end type-normalize */
  return t;
}

function fromData(rawLoans) {
  let loans = rawLoans.map((l) => {
    let due = parseDue(l.due);
    /* @feature default-due */
    if (!due && l.out) due = addDays(l.out, state.loanDays);
    /* @end default-due */
    /* @broken default-due */
    if (!due && l.out) due = addDays(state.today, state.loanDays);
    /* @end default-due */
    return { id: l.id, item: l.item, borrower: l.borrower, out: l.out, due,
             returned: l.returned || null, condition: l.condition || '' };
  });
  /* @feature dedupe-loans */
  const taken = new Set();
  let ignored = 0;
  loans = loans.filter((l) => {
    if (l.returned) return true;
    if (taken.has(l.item)) { ignored += 1; return false; }
    taken.add(l.item);
    return true;
  });
  if (ignored) state.notice = `${ignored} conflicting loan${ignored > 1 ? 's' : ''} ignored`;
  /* @end dedupe-loans */
  /* @broken dedupe-loans */
  const latest = new Map();
  loans.forEach((l) => { if (!l.returned) latest.set(l.item, l); });
  const before = loans.length;
  loans = loans.filter((l) => l.returned || latest.get(l.item) === l);
  const ignored = before - loans.length;
  if (ignored) state.notice = `${ignored} conflicting loan${ignored > 1 ? 's' : ''} ignored`;
  /* @end dedupe-loans */
  return loans;
}

// ------------------------------------------------------------------ persistence
function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify({ loans: state.loans, notice: state.notice }));
  /* @end persist */
}
function loadSaved() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && Array.isArray(saved.loans)) return saved;
  } catch (e) { /* unreadable: start from the data */ }
  /* @end persist */
  return null;
}

// ------------------------------------------------------------------ rules
const openLoans = () => state.loans.filter((l) => !l.returned);
const openLoan = (tag) => state.loans.find((l) => !l.returned && l.item === tag);
const isOverdue = (loan) => Boolean(loan.due) && state.today > loan.due;
const daysOverdue = (loan) => daysBetween(loan.due, state.today);
const borrowerOf = (id) => state.borrowers.find((b) => b.id === id);

function borrowerName(id) {
  const b = borrowerOf(id);
  if (b) return b.name;
  let label = '';
  /* @feature unknown-borrower */
  label = `Unknown borrower (${id})`;
  /* @end unknown-borrower */
  return label;
}

function statusOf(item) {
  const loan = openLoan(item.tag);
  if (!loan) return 'Available';
  /* @feature overdue-status */
  if (isOverdue(loan)) return 'Overdue';
  /* @end overdue-status */
  /* @broken overdue-status */
  if (loan.due && state.today >= loan.due) return 'Overdue';
  /* @end overdue-status */
  return 'On loan';
}

function lateText(due, returned) {
  let text = '';
  /* @feature late-return */
  if (due && returned) {
    const late = daysBetween(due, returned);
    text = late > 0 ? `${plural(late, 'day')} late` : 'on time';
  }
  /* @end late-return */
  /* @broken late-return */
  if (due && returned) {
    const late = daysBetween(due, returned) + 1;
    text = late > 0 ? `${plural(late, 'day')} late` : 'on time';
  }
  /* @end late-return */
  return text;
}

// ------------------------------------------------------------------ catalogue
function matches(item) {
  const f = state.filters;
  let ok = true;
  /* @feature search */
  const q = f.search.trim().toLowerCase();
  if (q && !(`${item.tag} ${item.name}`.toLowerCase().includes(q))) ok = false;
  /* @end search */
  /* @broken search */
  const q = f.search.trim();
  if (q && !(`${item.tag} ${item.name}`.includes(q))) ok = false;
  /* @end search */
  /* @feature type-filter */
  if (f.type && item.type !== f.type) ok = false;
  /* @end type-filter */
  /* @feature available-filter */
  if (f.avail && statusOf(item) !== 'Available') ok = false;
  /* @end available-filter */
  /* @broken available-filter */
  if (f.avail && statusOf(item) === 'On loan') ok = false;
  /* @end available-filter */
  return ok;
}

const BADGE = { Available: 'available', 'On loan': 'onloan', Overdue: 'overdue' };
function renderCatalogue() {
  const shown = state.items.filter(matches);
  $('showing').textContent = `Showing ${shown.length} of ${state.items.length} items`;
  $('catalogue').hidden = shown.length === 0;
  $('empty').hidden = shown.length !== 0;
  $('rows').innerHTML = shown.map((item) => {
    const loan = openLoan(item.tag);
    const status = statusOf(item);
    let typeCell = '';
    /* @feature type-column */
    typeCell = `<td>${esc(item.type)}</td>`;
    /* @end type-column */
    return `<tr><td><button type="button" class="link" data-tag="${esc(item.tag)}">${esc(item.tag)}</button></td>
      <td>${esc(item.name)}</td>${typeCell}
      <td><span class="badge ${BADGE[status]}">${status}</span></td>
      <td>${loan ? esc(borrowerName(loan.borrower)) : ''}</td><td>${loan ? esc(loan.due) : ''}</td></tr>`;
  }).join('');
}

// ------------------------------------------------------------------ overdue and borrowers
function renderOverdue() {
  const list = $('overdue-list');
  if (!list) return;
  let late = [];
  /* @feature overdue-list */
  late = openLoans().filter(isOverdue);
  /* @end overdue-list */
  /* @broken overdue-list */
  late = openLoans().filter((l) => l.due && state.today >= l.due);
  /* @end overdue-list */
  late.sort((a, b) => daysOverdue(b) - daysOverdue(a) || a.item.localeCompare(b.item));
  $('overdue-title').textContent = `Overdue (${late.length})`;
  $('overdue-none').hidden = late.length > 0;
  list.innerHTML = late.map((l) => {
    const item = state.items.find((i) => i.tag === l.item) || { name: '' };
    return `<li>${esc(l.item)} ${esc(item.name)} — ${esc(borrowerName(l.borrower))} — due ${esc(l.due)} — <span class="days">${plural(daysOverdue(l), 'day')} overdue</span></li>`;
  }).join('');
}

function renderBorrowers() {
  const body = $('borrower-rows');
  if (!body) return;
  body.innerHTML = state.borrowers.map((b) => {
    const n = openLoans().filter((l) => l.borrower === b.id).length;
    return `<tr><td>${esc(b.name)}</td><td>${b.role === 'staff' ? 'Staff' : 'Student'}</td><td>${plural(n, 'item')}</td></tr>`;
  }).join('');
}

// ------------------------------------------------------------------ item panel
function renderPanel() {
  const panel = $('panel');
  const item = state.items.find((i) => i.tag === state.open);
  if (!item) { panel.hidden = true; panel.innerHTML = ''; return; }
  panel.hidden = false;
  panel.setAttribute('aria-label', `Item ${item.tag}`);
  const loan = openLoan(item.tag);
  let body = `<h2>${esc(item.tag)} ${esc(item.name)}</h2><p class="meta">Status: ${statusOf(item)}</p>`;
  if (loan) {
    body += `<p class="meta">Borrowed by ${esc(borrowerName(loan.borrower))}, due ${esc(loan.due)}</p>`;
    /* @feature checkin */
    body += `<div class="tools"><label class="field">Condition note <input id="p-note" type="text" autocomplete="off"></label>
      <button type="button" class="primary" data-act="checkin">Check in</button></div>`;
    /* @end checkin */
  } else {
    /* @feature checkout */
    const options = state.borrowers.map((b) => `<option value="${esc(b.id)}">${esc(b.name)}</option>`).join('');
    body += `<div class="tools"><label class="field">Borrower <select id="p-borrower"><option value="">—</option>${options}</select></label>
      <label class="field">Due date <input id="p-due" type="date"></label>
      <button type="button" class="primary" data-act="checkout">Check out</button></div>`;
    /* @end checkout */
  }
  body += `<p class="ok" role="status">${esc(state.ok)}</p><p class="err" role="alert">${esc(state.err)}</p>`;
  /* @feature history */
  const past = state.loans.filter((l) => l.item === item.tag && l.returned)
    .sort((a, b) => b.returned.localeCompare(a.returned));
  body += '<h3>History</h3>';
  body += past.length
    ? `<ul aria-label="History">${past.map((l) => `<li>${[borrowerName(l.borrower), `${l.out} to ${l.returned}`,
      lateText(l.due, l.returned), l.condition || 'No notes'].filter(Boolean).map(esc).join(' · ')}</li>`).join('')}</ul>`
    : '<p class="muted">No loans yet.</p>';
  /* @end history */
  panel.innerHTML = body;
}

function render() {
  renderCatalogue();
  renderOverdue();
  renderBorrowers();
  renderPanel();
  $('notice').textContent = state.notice;
}

const ACTIONS = {};
/* @feature checkout */
ACTIONS.checkout = (item) => {
  const id = $('p-borrower').value;
  const due = $('p-due').value;
  const fail = (m) => { state.err = m; state.ok = ''; };
  /* @feature checkout-validation */
  if (!id) return fail('Choose a borrower.');
  if (!due || due < state.today) return fail('Due date must be today or later.');
  /* @end checkout-validation */
  /* @broken checkout-validation */
  if (!id) return fail('Choose a borrower.');
  if (!due || due <= state.today) return fail('Due date must be today or later.');
  /* @end checkout-validation */
  const b = borrowerOf(id) || { id, name: borrowerName(id), role: '' };
  const mine = openLoans().filter((l) => l.borrower === id);
  /* @feature overdue-block */
  if (mine.some(isOverdue)) return fail(`${b.name} has an overdue item.`);
  /* @end overdue-block */
  /* @broken overdue-block */
  if (mine.some((l) => l.due && l.due <= state.today)) return fail(`${b.name} has an overdue item.`);
  /* @end overdue-block */
  /* @feature student-limit */
  if (b.role === 'student' && mine.length >= STUDENT_MAX) return fail('Students can borrow at most 2 items at once.');
  /* @end student-limit */
  /* @broken student-limit */
  if (b.role === 'student' && mine.length > STUDENT_MAX) return fail('Students can borrow at most 2 items at once.');
  /* @end student-limit */
  state.loans.push({ id: `L-${Date.now()}`, item: item.tag, borrower: id, out: state.today, due,
                     returned: null, condition: '' });
  state.err = '';
  state.ok = `Checked out to ${b.name}, due ${due}.`;
  save();
  return undefined;
};
/* @end checkout */
/* @feature checkin */
ACTIONS.checkin = (item) => {
  const loan = openLoan(item.tag);
  if (!loan) return;
  loan.returned = state.today;
  loan.condition = $('p-note').value.trim();
  const late = lateText(loan.due, loan.returned);
  state.err = '';
  state.ok = late ? `Checked in ${late}.` : 'Checked in.';
  save();
};
/* @end checkin */

// ------------------------------------------------------------------ wiring
$('rows').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-tag]');
  if (!btn) return;
  state.open = btn.dataset.tag;
  state.ok = '';
  state.err = '';
  renderPanel();
});
$('panel').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-act]');
  const item = state.items.find((i) => i.tag === state.open);
  if (!btn || !item || !ACTIONS[btn.dataset.act]) return;
  ACTIONS[btn.dataset.act](item);
  render();
});
const onFilter = () => {
  state.filters.search = $('f-search')?.value ?? '';
  state.filters.type = $('f-type')?.value ?? '';
  state.filters.avail = Boolean($('f-avail')?.checked);
  renderCatalogue();
};
['f-search', 'f-type', 'f-avail'].forEach((id) => {
  $(id)?.addEventListener('input', onFilter);
  $(id)?.addEventListener('change', onFilter);
});

Promise.all([fetch('data/equipment.json').then((r) => r.json()), fetch('data/loans.json').then((r) => r.json())])
  .then(([equipment, loans]) => {
    state.today = equipment.today;
    state.loanDays = equipment.loan_days || 7;
    if ($('today')) $('today').textContent = `Today: ${state.today}`;
    state.items = (equipment.items || []).map((i) => ({ tag: i.tag, name: i.name, type: typeOf(i.type) }));
    state.borrowers = equipment.borrowers || [];
    const fresh = fromData(loans.loans || []);
    const saved = loadSaved();
    if (saved) { state.loans = saved.loans; state.notice = saved.notice || ''; } else { state.loans = fresh; }
    render();
  });
