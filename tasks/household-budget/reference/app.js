'use strict';
// Hearth: a monthly household budget from data/budget.json and data/transactions.json;
// added and edited transactions kept in localStorage.
const STORE = 'hearth-budget-v1';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
  'September', 'October', 'November', 'December'];
const UNCAT = 'Uncategorized';
const state = {
  today: '', household: '', months: [], categories: [], tx: [], notice: '', month: '',
  seq: 1, editing: null,
};
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const cents = (n) => Math.round((Number(n) || 0) * 100) / 100;
function money(n) {
  const v = cents(n);
  const abs = Math.abs(v).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${v < 0 ? '-' : ''}$${abs}`;
}
const monthName = (ym) => `${MONTHS[Number(ym.slice(5, 7)) - 1]} ${ym.slice(0, 4)}`;
const monthOf = (date) => String(date).slice(0, 7);

// ------------------------------------------------------------------ categories and amounts
const category = (t) => state.categories.find((c) => c.id === t.category) || null;
function catName(t) {
  const c = category(t);
  if (c) return c.name;
  let name = String(t.category ?? '');
  /* @feature uncategorized */
  name = UNCAT;
  /* @end uncategorized */
  return name;
}
const signed = (t) => cents(t.amount);   // what a row shows
function value(t) {                       // what a transaction adds to the sums
  let v = Math.abs(cents(t.amount));
  /* @feature refund */
  v = cents(t.amount);
  /* @end refund */
  /* @broken refund */
  v = t.amount < 0 ? 0 : cents(t.amount);
  /* @end refund */
  return v;
}

// ------------------------------------------------------------------ loading and saving
function normalise(raw) {
  let list = raw.map((t, i) => ({
    id: String(t.id ?? `d${i}`), date: String(t.date ?? ''), description: String(t.description ?? ''),
    category: String(t.category ?? ''), amount: cents(t.amount),
  }));
  /* @feature skip-outside */
  const outside = list.filter((t) => !state.months.includes(monthOf(t.date)));
  list = list.filter((t) => state.months.includes(monthOf(t.date)));
  if (outside.length) {
    state.notice = `${outside.length} transaction${outside.length > 1 ? 's' : ''} outside the budget months skipped`;
  }
  /* @end skip-outside */
  /* @broken skip-outside */
  const outside = list.filter((t) => !state.months.includes(monthOf(t.date)));
  if (outside.length) {
    state.notice = `${outside.length} transaction${outside.length > 1 ? 's' : ''} outside the budget months skipped`;
  }
  outside.forEach((t) => { t.date = `${state.months[0]}-01`; });
  /* @end skip-outside */
  return list;
}

function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify({ tx: state.tx, seq: state.seq }));
  /* @end persist */
}
function loadSaved() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && Array.isArray(saved.tx)) {
      state.tx = saved.tx;
      state.seq = Number(saved.seq) || saved.tx.length + 1;
    }
  } catch (e) { /* unreadable storage: start from the data */ }
  /* @end persist */
}

// ------------------------------------------------------------------ the month's figures
function monthTx() {
  let list = state.tx.filter((t) => monthOf(t.date) === state.month);
  /* @feature sort */
  list = list.map((t, i) => ({ t, i, seq: t.seq ?? -1 }))
    .sort((a, b) => (a.t.date < b.t.date ? -1 : a.t.date > b.t.date ? 1 : (a.seq - b.seq) || (b.i - a.i)))
    .map((x) => x.t);
  /* @end sort */
  return list;
}

function categorySums(list) {
  const rows = state.categories.map((c) => ({ name: c.name, budget: c.budget, spent: 0, known: true }));
  let uncat = null;
  list.forEach((t) => {
    const c = category(t);
    const row = c ? rows.find((r) => r.name === c.name) : (uncat = uncat || { name: catName(t), budget: null, spent: 0, known: false });
    row.spent = cents(row.spent + value(t));
  });
  return { rows, uncat };
}

const budgetTotal = () => state.categories.reduce((a, c) => a + Number(c.budget || 0), 0);

// ------------------------------------------------------------------ rendering
function renderSwitcher() {
  $('month-title').textContent = monthName(state.month);
  const i = state.months.indexOf(state.month);
  if ($('prev-month')) $('prev-month').disabled = i <= 0;
  if ($('next-month')) $('next-month').disabled = i >= state.months.length - 1;
}

/* @feature overview */
window.renderOverview = (list) => {
  const spent = cents(list.reduce((a, t) => a + value(t), 0));
  const budget = budgetTotal();
  const stat = (label, v, cls) => `<div class="stat ${cls}"><span class="label">${label}</span> <strong>${money(v)}</strong></div>`;
  $('overview').innerHTML = stat('Budget', budget, '') + stat('Spent', spent, '')
    + stat('Left', budget - spent, budget - spent < 0 ? 'neg' : 'pos');
};
/* @end overview */

/* @feature category-table */
window.renderCategories = (sums) => {
  const rows = sums.rows.map((r) => {
    const over = r.spent > r.budget;
    const used = r.budget ? Math.min(100, (r.spent / r.budget) * 100) : 0;
    return `<tr class="${over ? 'over' : ''}"><th scope="row">${esc(r.name)}</th><td>${money(r.budget)}</td>
      <td>${money(r.spent)}<span class="meter" aria-hidden="true"><span style="width:${Math.max(0, used).toFixed(1)}%"></span></span></td>
      <td>${money(r.budget - r.spent)}</td><td><span class="badge ${over ? 'bad' : 'good'}">${over ? 'Over budget' : 'On track'}</span></td></tr>`;
  });
  /* @feature uncategorized */
  if (sums.uncat) {
    rows.push(`<tr class="uncat"><th scope="row">${UNCAT}</th><td>—</td><td>${money(sums.uncat.spent)}</td><td>—</td>
      <td><span class="badge muted">No budget</span></td></tr>`);
  }
  /* @end uncategorized */
  $('category-rows').innerHTML = rows.join('');
};
/* @end category-table */

/* @feature warnings */
window.renderWarnings = (sums) => {
  const over = sums.rows.filter((r) => r.spent > r.budget);
  $('warnings').innerHTML = over.length
    ? over.map((r) => `<li>${esc(r.name)} is over budget by ${money(r.spent - r.budget)}</li>`).join('')
    : '<li class="none">No category is over budget.</li>';
};
/* @end warnings */
/* @broken warnings */
window.renderWarnings = (sums) => {
  const over = sums.rows.filter((r) => r.spent >= r.budget);
  $('warnings').innerHTML = over.length
    ? over.map((r) => `<li>${esc(r.name)} is over budget by ${money(r.spent - r.budget)}</li>`).join('')
    : '<li class="none">No category is over budget.</li>';
};
/* @end warnings */

const COLORS = ['#3c6fd1', '#e3873b', '#3aa57a', '#c04a6b', '#8a63c9', '#d4b23a', '#4aa9c4', '#8c8c8c', '#6b8e23', '#b5651d'];
function shareRows(sums) {
  const all = sums.rows.concat(sums.uncat ? [sums.uncat] : []).filter((r) => r.spent > 0);
  const total = all.reduce((a, r) => a + r.spent, 0);
  let pct = (r) => 0;
  /* @feature shares */
  pct = (r) => Math.round((r.spent / total) * 1000 + 1e-9) / 10;
  /* @end shares */
  /* @broken shares */
  pct = (r) => Math.floor((r.spent / total) * 1000) / 10;
  /* @end shares */
  return all.map((r) => ({ ...r, frac: r.spent / total, pct: pct(r) }))
    .sort((a, b) => b.spent - a.spent);
}
function arc(cx, cy, r0, r1, a0, a1) {
  const p = (r, a) => `${(cx + r * Math.sin(a)).toFixed(2)} ${(cy - r * Math.cos(a)).toFixed(2)}`;
  const large = a1 - a0 > Math.PI ? 1 : 0;
  return `M ${p(r1, a0)} A ${r1} ${r1} 0 ${large} 1 ${p(r1, a1)} L ${p(r0, a1)} A ${r0} ${r0} 0 ${large} 0 ${p(r0, a0)} Z`;
}
/* @feature shares */
window.renderShares = (sums, spentTotal) => {
  const rows = shareRows(sums);
  let a = 0;
  const segs = rows.map((r, i) => {
    const span = Math.min(r.frac * 2 * Math.PI, 2 * Math.PI - 1e-4);
    const d = arc(110, 110, 58, 96, a, a + span);
    a += r.frac * 2 * Math.PI;
    return `<path role="img" aria-label="${esc(r.name)}: ${r.pct.toFixed(1)}%" d="${d}" fill="${COLORS[i % COLORS.length]}"><title>${esc(r.name)}: ${r.pct.toFixed(1)}%</title></path>`;
  }).join('');
  $('donut').innerHTML = rows.length
    ? `<svg viewBox="0 0 220 220" width="220" height="220" role="group" aria-label="Spending shares chart">${segs}
        <g aria-hidden="true"><text x="110" y="106" text-anchor="middle" class="d-label">Spent</text>
        <text x="110" y="128" text-anchor="middle" class="d-total">${money(spentTotal)}</text></g></svg>`
    : '<p class="empty">No spending this month.</p>';
  $('share-rows').innerHTML = rows.map((r, i) => `<tr><th scope="row"><span class="swatch" style="background:${COLORS[i % COLORS.length]}" aria-hidden="true"></span>${esc(r.name)}</th>
    <td>${money(r.spent)}</td><td>${r.pct.toFixed(1)}%</td></tr>`).join('');
};
/* @end shares */
/* @broken shares */
window.renderShares = (sums) => {
  const rows = shareRows(sums);
  let a = 0;
  const segs = rows.map((r, i) => {
    const span = Math.min(r.frac * 2 * Math.PI, 2 * Math.PI - 1e-4);
    const d = arc(110, 110, 58, 96, a, a + span);
    a += r.frac * 2 * Math.PI;
    return `<path role="img" aria-label="${esc(r.name)}: ${r.pct.toFixed(1)}%" d="${d}" fill="${COLORS[i % COLORS.length]}"></path>`;
  }).join('');
  $('donut').innerHTML = `<svg viewBox="0 0 220 220" width="220" height="220" role="group" aria-label="Spending shares chart">${segs}</svg>`;
  $('share-rows').innerHTML = rows.map((r) => `<tr><th scope="row">${esc(r.name)}</th>
    <td>${money(r.spent)}</td><td>${r.pct.toFixed(1)}%</td></tr>`).join('');
};
/* @end shares */

function renderTransactions(list) {
  let shown = list;
  /* @feature category-filter */
  const want = $('show-category')?.value || 'All categories';
  if (want !== 'All categories') shown = list.filter((t) => catName(t) === want);
  /* @end category-filter */
  /* @broken category-filter */
  const want = $('show-category')?.value || 'All categories';
  if (want !== 'All categories') shown = list.filter((t) => category(t)?.name === want);
  /* @end category-filter */
  $('tx-rows').innerHTML = shown.length ? shown.map((t) => `<tr class="${state.editing === t.id ? 'editing' : ''}">
      <td>${esc(t.date)}</td><td>${esc(t.description)}</td><td>${esc(catName(t))}</td>
      <td class="r ${signed(t) < 0 ? 'refund' : ''}">${money(signed(t))}</td>
      <td class="act">${window.editButton ? window.editButton(t) : ''}</td></tr>`).join('')
    : '<tr><td colspan="5" class="empty">No transactions to show.</td></tr>';
}

// ------------------------------------------------------------------ CSV export
const csvField = (v) => {
  let s = String(v);
  /* @feature csv */
  if (/[",\n]/.test(s)) s = `"${s.replace(/"/g, '""')}"`;
  /* @end csv */
  return s;
};
/* @feature csv */
window.csvText = (list) => ['date,description,category,amount'].concat(list.map((t) =>
  [t.date, t.description, catName(t), cents(t.amount).toFixed(2)].map(csvField).join(','))).join('\n');
/* @end csv */
/* @broken csv */
window.csvText = (list) => ['date,description,category,amount'].concat(list.map((t) =>
  [t.date, t.description, catName(t), cents(t.amount).toFixed(2)].join(','))).join('\n');
/* @end csv */
function renderCsv(list) {
  const box = $('csv-box');
  if (!box || box.hidden || !window.csvText) return;
  $('csv-text').value = window.csvText(list);
}

function render() {
  $('notice').textContent = state.notice;
  $('notice').hidden = !state.notice;
  renderSwitcher();
  const list = monthTx();
  const sums = categorySums(list);
  window.renderOverview?.(list);
  window.renderCategories?.(sums);
  window.renderWarnings?.(sums);
  window.renderShares?.(sums, cents(list.reduce((a, t) => a + value(t), 0)));
  renderTransactions(list);
  renderCsv(list);
}

function showMonth(ym) {
  if (!state.months.includes(ym)) return;
  state.month = ym;
  render();
}

// ------------------------------------------------------------------ month switcher
/* @feature month-switch */
$('prev-month').addEventListener('click', () => showMonth(state.months[state.months.indexOf(state.month) - 1]));
$('next-month').addEventListener('click', () => showMonth(state.months[state.months.indexOf(state.month) + 1]));
/* @end month-switch */

/* @feature category-filter */
$('show-category').addEventListener('change', render);
/* @end category-filter */
/* @broken category-filter */
$('show-category').addEventListener('change', render);
/* @end category-filter */

/* @feature csv */
$('export').addEventListener('click', () => { $('csv-box').hidden = false; render(); });
/* @end csv */
/* @broken csv */
$('export').addEventListener('click', () => { $('csv-box').hidden = false; render(); });
/* @end csv */

// ------------------------------------------------------------------ the form
/* @feature add */
const FORM_TITLE = { add: 'Add transaction', edit: 'Edit transaction' };
function formMode(mode) {
  $('h-form').textContent = FORM_TITLE[mode];
  $('f-submit').textContent = mode === 'edit' ? 'Save changes' : 'Add transaction';
  $('f-cancel').hidden = mode !== 'edit';
}
function resetForm() {
  state.editing = null;
  $('tx-form').reset();
  $('f-date').value = state.today;
  $('f-cat').value = state.categories[0]?.id || '';
  formMode('add');
}
function formMsg(text) {
  $('form-msg').textContent = text;
  $('form-ok').textContent = '';
}
$('tx-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const date = $('f-date').value;
  const description = $('f-desc').value.trim();
  const cat = $('f-cat').value;
  const raw = $('f-amount').value.trim();
  const amount = raw === '' ? NaN : Number(raw);
  /* @feature add-validation */
  if (!date || !state.months.includes(monthOf(date))) return formMsg('Choose a date in a budget month.');
  if (!description) return formMsg('Enter a description.');
  if (!Number.isFinite(amount) || cents(amount) === 0) return formMsg('Enter a non-zero amount.');
  /* @end add-validation */
  /* @broken add-validation */
  if (!date) return formMsg('Choose a date in a budget month.');
  if (!description) return formMsg('Enter a description.');
  if (!Number.isFinite(amount)) return formMsg('Enter a non-zero amount.');
  /* @end add-validation */
  const record = { date, description, category: cat, amount: cents(amount) };
  if (state.editing && window.applyEdit) window.applyEdit(record);
  else {
    state.tx.push({ id: `u${state.seq}`, seq: state.seq, ...record });
    state.seq += 1;
  }
  save();
  resetForm();
  formMsg('');
  $('form-ok').textContent = 'Transaction saved.';
  /* @feature month-follow */
  if (state.months.includes(monthOf(date))) state.month = monthOf(date);
  /* @end month-follow */
  render();
  return undefined;
});
$('f-cancel').addEventListener('click', () => { resetForm(); formMsg(''); render(); });
/* @end add */

// ------------------------------------------------------------------ editing
/* @feature edit */
window.editButton = (t) => `<button type="button" class="edit" data-edit="${esc(t.id)}">Edit</button>`;
window.applyEdit = (record) => {
  const t = state.tx.find((x) => x.id === state.editing);
  if (t) Object.assign(t, record);
};
$('tx-rows').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-edit]');
  const t = btn && state.tx.find((x) => x.id === btn.dataset.edit);
  if (!t || !$('tx-form')) return;
  state.editing = t.id;
  formMode('edit');
  $('f-date').value = t.date;
  $('f-desc').value = t.description;
  $('f-cat').value = category(t) ? t.category : '';
  $('f-amount').value = cents(t.amount).toFixed(2);
  formMsg('');
  render();
  $('f-desc').focus();
});
/* @end edit */
/* @broken edit */
window.editButton = (t) => `<button type="button" class="edit" data-edit="${esc(t.id)}">Edit</button>`;
window.applyEdit = (record) => {
  state.tx.push({ id: `u${state.seq}`, ...record });
  state.seq += 1;
};
$('tx-rows').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-edit]');
  const t = btn && state.tx.find((x) => x.id === btn.dataset.edit);
  if (!t || !$('tx-form')) return;
  state.editing = t.id;
  formMode('edit');
  $('f-date').value = t.date;
  $('f-desc').value = t.description;
  $('f-cat').value = category(t) ? t.category : '';
  $('f-amount').value = cents(t.amount).toFixed(2);
  formMsg('');
  render();
});
/* @end edit */

// ------------------------------------------------------------------ start
Promise.all([fetch('data/budget.json').then((r) => r.json()),
             fetch('data/transactions.json').then((r) => r.json())]).then(([budget, data]) => {
  state.today = String(budget.today);
  state.household = budget.household || '';
  state.months = Array.isArray(budget.months) ? budget.months.slice().sort() : [];
  state.categories = (budget.categories || []).map((c) => ({ id: String(c.id), name: String(c.name), budget: Number(c.budget) || 0 }));
  state.tx = normalise(Array.isArray(data.transactions) ? data.transactions : []);
  loadSaved();
  state.month = state.months.includes(monthOf(state.today)) ? monthOf(state.today) : state.months[state.months.length - 1];
  $('household').textContent = state.household;
  $('today').textContent = `Today: ${state.today}`;
  const names = state.categories.map((c) => c.name).concat([UNCAT]);
  $('show-category')?.insertAdjacentHTML('beforeend', names.map((n) => `<option>${esc(n)}</option>`).join(''));
  if ($('f-cat')) {
    $('f-cat').innerHTML = state.categories.map((c) => `<option value="${esc(c.id)}">${esc(c.name)}</option>`).join('')
      + `<option value="">${UNCAT}</option>`;
    if (typeof resetForm === 'function') resetForm();
  }
  render();
});
