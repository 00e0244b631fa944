'use strict';
// Fixdesk: work orders from data/orders.json through their lifecycle, kept in localStorage.
const STORE = 'fixdesk-orders-v1';
const PRIORITIES = ['Low', 'Normal', 'High', 'Urgent'];
const state = { orders: [], techs: [], units: [], notice: '', selected: null, msg: '' };
const ACTIONS = {};   // data-act name -> handler(order, panel); each feature registers its own
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const money = (n) => '$' + (Math.round(n * 100) / 100).toFixed(2);
const hoursOf = (o) => o.hours.reduce((a, h) => a + h, 0);
const fmtHours = (n) => String(Math.round(n * 100) / 100);
const partsOf = (o) => o.parts.reduce((a, p) => a + p.cost, 0);
const techOf = (o) => state.techs.find((t) => t.id === o.technician) || null;
const techName = (o) => techOf(o)?.name ?? o.technician ?? 'Unassigned';
const totalOf = (o) => (window.orderTotal ? window.orderTotal(o) : 0);

function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify(state.orders));
  /* @end persist */
}

function loadSaved() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (Array.isArray(saved)) return saved;
  } catch (e) { /* unreadable storage: start from the data */ }
  /* @end persist */
  return null;
}

function normalise(raw) {
  let orders = raw.map((o) => ({
    id: o.id, title: o.title, unit: o.unit, priority: o.priority, status: o.status,
    technician: o.technician || null, hold: o.hold || '',
    hours: (o.hours || []).filter((h) => typeof h === 'number' && h > 0),
    parts: (o.parts || []).map((p) => ({ name: p.name, cost: Math.max(0, Number(p.cost) || 0) })),
  }));
  /* @feature dedupe */
  const seen = new Set();
  let skipped = 0;
  orders = orders.filter((o) => {
    if (seen.has(o.id)) { skipped += 1; return false; }
    seen.add(o.id);
    return true;
  });
  if (skipped) state.notice = `${skipped} duplicate work order${skipped > 1 ? 's' : ''} skipped`;
  /* @end dedupe */
  /* @broken dedupe */
  const dupes = orders.length - new Set(orders.map((o) => o.id)).size;
  if (dupes) state.notice = `${dupes} duplicate work order${dupes > 1 ? 's' : ''} skipped`;
  /* @end dedupe */
  /* @feature defaults */
  orders.forEach((o) => {
    if (!PRIORITIES.includes(o.priority)) o.priority = 'Normal';
    if (o.technician && !state.techs.some((t) => t.id === o.technician)) o.technician = null;
  });
  /* @end defaults */
  /* @broken defaults */
  orders.forEach((o) => { if (!o.priority) o.priority = 'Low'; });
  /* @end defaults */
  return orders;
}

// ------------------------------------------------------------------ the table
function visibleOrders() {
  let list = state.orders;
  /* @feature filter */
  const wanted = $('status-filter').value;
  if (wanted !== 'All') list = list.filter((o) => o.status === wanted);
  /* @end filter */
  /* @broken filter */
  const wanted = $('status-filter').value;
  if (wanted !== 'All') list = list.filter((o) => o.status !== 'Closed');
  /* @end filter */
  /* @feature search */
  const q = $('search').value.trim().toLowerCase();
  if (q) list = list.filter((o) => o.id.toLowerCase().includes(q) || o.title.toLowerCase().includes(q));
  /* @end search */
  /* @broken search */
  const q = $('search').value.trim();
  if (q) list = list.filter((o) => o.title.includes(q) && o.title.startsWith(q));
  /* @end search */
  return list;
}

function renderTable() {
  $('notice').textContent = state.notice;
  $('rows').innerHTML = visibleOrders().map((o) => `<tr>
    <td><button type="button" class="link" data-open="${esc(o.id)}">${esc(o.id)}</button></td>
    <td>${esc(o.title)}</td><td>${esc(o.unit)}</td><td>${esc(o.priority ?? '')}</td>
    <td>${esc(o.status)}</td><td>${esc(techName(o))}</td></tr>`).join('');
}

// ------------------------------------------------------------------ the detail panel
function actionsHtml(o) {
  let h = '';
  /* @feature assign */
  if (o.status === 'New' || o.status === 'Assigned') {
    const offered = state.techs.filter((t) => t.active);
    h += `<div class="group"><label>Technician <select id="d-tech"><option value="">Choose…</option>
      ${offered.map((t) => `<option value="${esc(t.id)}">${esc(t.name)}</option>`).join('')}</select></label>
      <button type="button" data-act="assign">Assign</button></div>`;
  }
  /* @end assign */
  /* @broken assign */
  if (o.status === 'New' || o.status === 'Assigned') {
    h += `<div class="group"><label>Technician <select id="d-tech"><option value="">Choose…</option>
      ${state.techs.map((t) => `<option value="${esc(t.id)}">${esc(t.name)}</option>`).join('')}</select></label>
      <button type="button" data-act="assign">Assign</button></div>`;
  }
  /* @end assign */
  /* @feature start */
  if (o.status === 'Assigned') h += '<div class="group"><button type="button" data-act="start">Start work</button></div>';
  /* @end start */
  /* @broken start */
  if (o.status === 'Assigned') h += '<div class="group"><button type="button" data-act="start">Start work</button></div>';
  /* @end start */
  if (o.status === 'In progress') {
    /* @feature hours */
    h += `<div class="group"><label>Hours <input id="d-hours" type="number" step="0.25"></label>
      <button type="button" data-act="hours">Log hours</button></div>`;
    /* @end hours */
    /* @broken hours */
    h += `<div class="group"><label>Hours <input id="d-hours" type="number" step="0.25"></label>
      <button type="button" data-act="hours">Log hours</button></div>`;
    /* @end hours */
    /* @feature parts */
    h += `<div class="group"><label>Part <input id="d-part" type="text"></label>
      <label>Cost <input id="d-cost" type="number" step="0.01"></label>
      <button type="button" data-act="part">Add part</button></div>`;
    /* @end parts */
    /* @broken parts */
    h += `<div class="group"><label>Part <input id="d-part" type="text"></label>
      <label>Cost <input id="d-cost" type="number" step="0.01"></label>
      <button type="button" data-act="part">Add part</button></div>`;
    /* @end parts */
    /* @feature hold */
    h += `<div class="group"><label>Hold reason <input id="d-reason" type="text"></label>
      <button type="button" data-act="hold">Put on hold</button></div>`;
    /* @end hold */
    /* @broken hold */
    h += `<div class="group"><label>Hold reason <input id="d-reason" type="text"></label>
      <button type="button" data-act="hold">Put on hold</button></div>`;
    /* @end hold */
    /* @feature done */
    h += '<div class="group"><button type="button" data-act="done">Mark done</button></div>';
    /* @end done */
    /* @broken done */
    h += '<div class="group"><button type="button" data-act="done">Mark done</button></div>';
    /* @end done */
  }
  /* @feature hold */
  if (o.status === 'On hold') h += '<div class="group"><button type="button" data-act="resume">Resume</button></div>';
  /* @end hold */
  /* @broken hold */
  if (o.status === 'On hold') h += '<div class="group"><button type="button" data-act="resume">Resume</button></div>';
  /* @end hold */
  /* @feature close */
  if (o.status === 'Done') {
    h += `<div class="group"><label class="check"><span><input id="d-verified" type="checkbox">
      Verified with tenant</span></label><button type="button" data-act="close">Close</button></div>`;
  }
  /* @end close */
  /* @broken close */
  if (o.status === 'Done') {
    h += `<div class="group"><label class="check"><span><input id="d-verified" type="checkbox">
      Verified with tenant</span></label><button type="button" data-act="close">Close</button></div>`;
  }
  /* @end close */
  return h;
}

function renderDetail() {
  const panel = $('detail');
  const o = state.orders.find((x) => x.id === state.selected);
  if (!o) { panel.hidden = true; panel.innerHTML = ''; return; }
  panel.hidden = false;
  panel.setAttribute('aria-label', `Work order ${o.id}`);
  const parts = o.parts.map((p) => `<li>${esc(p.name)} — ${money(p.cost)}</li>`).join('');
  panel.innerHTML = `<h2>${esc(o.id)}: ${esc(o.title)}</h2>
    <p>Status: ${esc(o.status)}</p>
    ${o.status === 'On hold' ? `<p>On hold: ${esc(o.hold)}</p>` : ''}
    <p>Technician: ${esc(techName(o))}</p>
    <p>Hours logged: ${fmtHours(hoursOf(o))}</p>
    <p>Parts cost: ${money(partsOf(o))}</p>
    ${o.status === 'Closed' ? `<p>Total cost: ${money(totalOf(o))}</p>` : ''}
    <ul aria-label="Parts">${parts}</ul>
    <div class="actions">${actionsHtml(o)}</div>
    <p class="msg" role="alert">${esc(state.msg)}</p>`;
}

function render() {
  renderTable();
  renderDetail();
  window.renderReport?.();
}

function change(o, msg) {
  state.msg = msg || '';
  if (!msg) save();
  render();
}

/* @feature assign */
ACTIONS.assign = (o) => {
  const id = $('d-tech').value;
  if (!id) return change(o, 'Choose a technician.');
  o.technician = id;
  o.status = 'Assigned';
  return change(o);
};
/* @end assign */
/* @broken assign */
ACTIONS.assign = (o) => {
  const id = $('d-tech').value;
  if (!id) return change(o, 'Choose a technician.');
  o.technician = id;
  o.status = 'Assigned';
  return change(o);
};
/* @end assign */
/* @feature start */
ACTIONS.start = (o) => { o.status = 'In progress'; change(o); };
/* @end start */
/* @broken start */
ACTIONS.start = (o) => { o.status = 'Done'; change(o); };
/* @end start */
/* @feature hours */
ACTIONS.hours = (o) => {
  const v = parseFloat($('d-hours').value);
  /* @feature hours-validation */
  if (!(v >= 0.25 && v <= 12)) return change(o, 'Enter between 0.25 and 12 hours.');
  /* @end hours-validation */
  /* @broken hours-validation */
  if (!(v > 0)) return change(o, 'Enter between 0.25 and 12 hours.');
  /* @end hours-validation */
  o.hours.push(v);
  return change(o);
};
/* @end hours */
/* @broken hours */
ACTIONS.hours = (o) => {
  const v = parseFloat($('d-hours').value);
  if (!(v >= 0.25 && v <= 12)) return change(o, 'Enter between 0.25 and 12 hours.');
  o.hours = [v];
  return change(o);
};
/* @end hours */
/* @feature parts */
ACTIONS.part = (o) => {
  const name = $('d-part').value.trim();
  const raw = $('d-cost').value;
  const cost = raw === '' ? NaN : Number(raw);
  if (!name) return change(o, 'Part name is required.');
  if (!(cost >= 0)) return change(o, 'Cost must be 0 or more.');
  o.parts.push({ name, cost });
  return change(o);
};
/* @end parts */
/* @broken parts */
ACTIONS.part = (o) => {
  const name = $('d-part').value.trim();
  const cost = Number($('d-cost').value) || 0;
  if (!name) return change(o, 'Part name is required.');
  o.parts.push({ name, cost });
  return change(o);
};
/* @end parts */
/* @feature hold */
ACTIONS.hold = (o) => {
  const reason = $('d-reason').value.trim();
  if (!reason) return change(o, 'Reason is required.');
  o.status = 'On hold';
  o.hold = reason;
  return change(o);
};
ACTIONS.resume = (o) => { o.status = 'In progress'; o.hold = ''; change(o); };
/* @end hold */
/* @broken hold */
ACTIONS.hold = (o) => {
  const reason = $('d-reason').value.trim();
  if (!reason) return change(o, 'Reason is required.');
  o.status = 'On hold';
  o.hold = reason;
  return change(o);
};
ACTIONS.resume = (o) => { o.status = 'Assigned'; o.hold = ''; change(o); };
/* @end hold */
/* @feature done */
ACTIONS.done = (o) => {
  if (hoursOf(o) === 0) return change(o, 'Log time before marking done.');
  o.status = 'Done';
  return change(o);
};
/* @end done */
/* @broken done */
ACTIONS.done = (o) => { o.status = 'Done'; change(o); };
/* @end done */
/* @feature close */
ACTIONS.close = (o) => {
  if (!$('d-verified').checked) return change(o, 'Check Verified with tenant first.');
  o.status = 'Closed';
  return change(o);
};
/* @end close */
/* @broken close */
ACTIONS.close = (o) => { o.status = 'Closed'; change(o); };
/* @end close */

/* @feature cost */
window.orderTotal = (o) => hoursOf(o) * (techOf(o)?.rate ?? 0) + partsOf(o);
/* @end cost */
/* @broken cost */
window.orderTotal = (o) => hoursOf(o) * (techOf(o)?.rate ?? 0);
/* @end cost */

// ------------------------------------------------------------------ creating
/* @feature create */
function nextId() {
  /* @feature order-id */
  const top = Math.max(0, ...state.orders.map((o) => parseInt(String(o.id).replace(/\D/g, ''), 10) || 0));
  return `WO-${top + 1}`;
  /* @end order-id */
  /* @broken order-id */
  return `WO-${1000 + state.orders.length}`;
  /* @end order-id */
  // eslint-disable-next-line no-unreachable
  return `WO-${Date.now()}`;
}

function formMessage(text) { $('form-msg').textContent = text; }

$('new-order').addEventListener('click', () => {
  $('create-form').hidden = false;
  formMessage('');
  $('f-title').focus();
});
$('f-cancel').addEventListener('click', () => { $('create-form').hidden = true; });
$('create-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const title = $('f-title').value;
  const unit = $('f-unit').value.trim();
  /* @feature create-validation */
  if (!title.trim()) return formMessage('Title is required.');
  if (!state.units.includes(unit)) return formMessage('Unknown unit.');
  /* @end create-validation */
  /* @broken create-validation */
  if (title === '') return formMessage('Title is required.');
  /* @end create-validation */
  state.orders.push({ id: nextId(), title: title.trim(), unit, priority: $('f-priority').value,
                      status: 'New', technician: null, hold: '', hours: [], parts: [] });
  $('create-form').reset();
  $('create-form').hidden = true;
  save();
  render();
  return undefined;
});
/* @end create */

// ------------------------------------------------------------------ report
/* @feature report */
window.renderReport = () => {
  const closed = state.orders.filter((o) => o.status === 'Closed');
  const open = state.orders.length - closed.length;
  const byUnit = new Map();
  closed.forEach((o) => {
    const row = byUnit.get(o.unit) || { n: 0, total: 0 };
    row.n += 1;
    row.total += totalOf(o);
    byUnit.set(o.unit, row);
  });
  const rows = [...byUnit.entries()].sort((a, b) => a[0].localeCompare(b[0]))
    .map(([unit, r]) => `<tr><td>${esc(unit)}</td><td>${r.n}</td><td>${money(r.total)}</td></tr>`).join('');
  $('report-view').innerHTML = `<h2>Report</h2><p>Open orders: ${open}</p>
    <p>Closed orders: ${closed.length}</p>
    <table aria-label="Cost by unit"><thead><tr><th>Unit</th><th>Closed orders</th><th>Total cost</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
};
/* @end report */
/* @broken report */
window.renderReport = () => {
  const closed = state.orders.filter((o) => o.status === 'Closed');
  const rows = closed.map((o) => `<tr><td>${esc(o.unit)}</td><td>1</td><td>${money(totalOf(o))}</td></tr>`).join('');
  $('report-view').innerHTML = `<h2>Report</h2><p>Open orders: ${state.orders.length}</p>
    <p>Closed orders: ${closed.length}</p>
    <table aria-label="Cost by unit"><thead><tr><th>Unit</th><th>Closed orders</th><th>Total cost</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
};
/* @end report */

// ------------------------------------------------------------------ wiring
function route() {
  const report = location.hash.startsWith('#/report');
  $('orders-view').hidden = report;
  $('report-view').hidden = !report;
  document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.getAttribute('href') === (report ? '#/report' : '#/orders')));
}

$('rows').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-open]');
  if (!btn) return;
  state.selected = btn.dataset.open;
  state.msg = '';
  renderDetail();
});
$('detail').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-act]');
  const o = state.orders.find((x) => x.id === state.selected);
  if (btn && o && ACTIONS[btn.dataset.act]) ACTIONS[btn.dataset.act](o);
});
$('status-filter').addEventListener('change', renderTable);
$('search').addEventListener('input', renderTable);
window.addEventListener('hashchange', route);

Promise.all([fetch('data/orders.json').then((r) => r.json()),
             fetch('data/technicians.json').then((r) => r.json())]).then(([data, techs]) => {
  state.techs = techs.technicians || [];
  state.units = data.units || [];
  const fromData = normalise(data.orders || []);
  state.orders = loadSaved() || fromData;
  route();
  render();
});
