'use strict';
// Coupon desk: campaigns and codes from data/coupons.json, dated by its fixed "today".
const STORE = 'coupon-desk-v1';
const state = { today: '', campaigns: [], notice: '', open: null, panelMsg: '', lastApplied: null };
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const money = (n) => '$' + (Math.round(n * 100) / 100).toFixed(2);
const norm = (code) => String(code).trim().toUpperCase();

function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify(state.campaigns));
  /* @end persist */
}
function loadSaved() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (Array.isArray(saved)) return saved;
  } catch (e) { /* unreadable: start from the data */ }
  /* @end persist */
  return null;
}

function fromData(raw) {
  const list = raw.map((c) => ({ ...c, paused: false, codes: [...(c.codes || [])] }));
  /* @feature normalise-codes */
  list.forEach((c) => { c.codes = c.codes.map(norm); });
  /* @end normalise-codes */
  /* @feature dedupe-codes */
  const seen = new Set();
  let ignored = 0;
  list.forEach((c) => {
    c.codes = c.codes.filter((code) => {
      if (seen.has(norm(code))) { ignored += 1; return false; }
      seen.add(norm(code));
      return true;
    });
  });
  if (ignored) state.notice = `${ignored} duplicate code${ignored > 1 ? 's' : ''} ignored`;
  /* @end dedupe-codes */
  /* @broken dedupe-codes */
  const all = list.flatMap((c) => c.codes.map(norm));
  const ignored = all.length - new Set(all).size;
  if (ignored) state.notice = `${ignored} duplicate code${ignored > 1 ? 's' : ''} ignored`;
  /* @end dedupe-codes */
  return list;
}

// ------------------------------------------------------------------ status
function statusOf(c) {
  /* @feature validity */
  const badValue = c.type === 'percent' ? !(c.value >= 1 && c.value <= 100) : !(c.value > 0);
  if (c.ends < c.starts || badValue) return 'Invalid';
  /* @end validity */
  /* @broken validity */
  if (c.ends < c.starts) return 'Invalid';
  /* @end validity */
  /* @feature pause */
  if (c.paused) return 'Paused';
  /* @end pause */
  /* @feature schedule */
  if (state.today < c.starts) return 'Scheduled';
  if (state.today > c.ends) return 'Expired';
  /* @end schedule */
  /* @broken schedule */
  if (state.today < c.starts) return 'Scheduled';
  /* @end schedule */
  /* @feature exhausted */
  if (c.redeemed >= c.budget) return 'Exhausted';
  /* @end exhausted */
  /* @broken exhausted */
  if (c.redeemed > c.budget) return 'Exhausted';
  /* @end exhausted */
  return 'Active';
}

function discountLabel(c) {
  let label = String(c.value);
  /* @feature discount-label */
  label = c.type === 'percent' ? `${c.value}%` : money(c.value);
  /* @end discount-label */
  /* @broken discount-label */
  label = `${c.value}%`;
  /* @end discount-label */
  return label;
}
const findCode = (code) => state.campaigns.find((c) => c.codes.some((x) => norm(x) === norm(code)));

// ------------------------------------------------------------------ table and panel
function renderTable() {
  $('notice').textContent = state.notice;
  $('rows').innerHTML = state.campaigns.map((c, i) => `<tr>
    <td><button type="button" class="link" data-open="${i}">${esc(c.name)}</button></td>
    <td>${esc(discountLabel(c))}</td><td>${esc(c.starts)} – ${esc(c.ends)}</td>
    <td>${statusOf(c)}</td><td>${c.redeemed} / ${c.budget}</td></tr>`).join('');
}

function renderPanel() {
  const panel = $('panel');
  const c = state.campaigns[state.open];
  if (!c) { panel.hidden = true; panel.innerHTML = ''; return; }
  panel.hidden = false;
  panel.setAttribute('aria-label', `Campaign ${c.name}`);
  let tools = '';
  /* @feature add-code */
  tools += `<label>Code <input id="p-code" type="text" autocomplete="off"></label>
    <button type="button" data-act="add">Add code</button>`;
  /* @end add-code */
  /* @broken add-code */
  tools += `<label>Code <input id="p-code" type="text" autocomplete="off"></label>
    <button type="button" data-act="add">Add code</button>`;
  /* @end add-code */
  /* @feature pause */
  tools += `<button type="button" data-act="pause">${c.paused ? 'Resume campaign' : 'Pause campaign'}</button>`;
  /* @end pause */
  panel.innerHTML = `<h2>${esc(c.name)}</h2><p>Status: ${statusOf(c)}</p>
    <p>Discount ${esc(discountLabel(c))}, minimum order ${money(c.min_order)}</p>
    <ul aria-label="Codes">${c.codes.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>
    <div class="tools">${tools}</div><p class="msg" role="alert">${esc(state.panelMsg)}</p>`;
}

function render() { renderTable(); renderPanel(); }

const PANEL_ACTIONS = {};
/* @feature add-code */
PANEL_ACTIONS.add = (c) => {
  const code = norm($('p-code').value);
  /* @feature code-validation */
  if (!/^[A-Z0-9]{4,12}$/.test(code)) { state.panelMsg = 'Code must be 4 to 12 letters or digits.'; return; }
  if (findCode(code)) { state.panelMsg = 'Code already exists.'; return; }
  /* @end code-validation */
  /* @broken code-validation */
  if (state.campaigns.some((x) => x.codes.includes($('p-code').value))) { state.panelMsg = 'Code already exists.'; return; }
  /* @end code-validation */
  c.codes.push(code);
  state.panelMsg = '';
  save();
};
/* @end add-code */
/* @broken add-code */
PANEL_ACTIONS.add = (c) => {
  const code = $('p-code').value;
  if (!/^[A-Za-z0-9]{4,12}$/.test(code)) { state.panelMsg = 'Code must be 4 to 12 letters or digits.'; return; }
  if (findCode(code)) { state.panelMsg = 'Code already exists.'; return; }
  c.codes.push(code + ' ');
  state.panelMsg = '';
};
/* @end add-code */
/* @feature pause */
PANEL_ACTIONS.pause = (c) => { c.paused = !c.paused; state.panelMsg = ''; save(); };
/* @end pause */

// ------------------------------------------------------------------ try a code
/* @feature apply */
function discountFor(c, total) {
  /* @feature discount-math */
  return c.type === 'percent' ? Math.round(total * c.value) / 100 : Math.min(c.value, total);
  /* @end discount-math */
  /* @broken discount-math */
  return c.type === 'percent' ? Math.floor(total * c.value / 100) : c.value;
  /* @end discount-math */
  // eslint-disable-next-line no-unreachable
  return 0;
}

const REFUSALS = { Invalid: 'Code not valid.', Paused: 'Campaign paused.', Scheduled: 'Code not active yet.',
                   Expired: 'Code expired.', Exhausted: 'Budget used up.' };

function applyCode() {
  const total = Number($('t-total').value) || 0;
  let typed = $('t-code').value;
  /* @feature code-case */
  typed = norm(typed);
  /* @end code-case */
  const c = state.campaigns.find((x) => x.codes.includes(typed));
  $('t-result').textContent = '';
  $('t-msg').textContent = '';
  $('t-redeem').innerHTML = '';
  state.lastApplied = null;
  if (!c) { $('t-msg').textContent = 'Unknown code.'; return; }
  const status = statusOf(c);
  if (REFUSALS[status]) { $('t-msg').textContent = REFUSALS[status]; return; }
  /* @feature min-order */
  if (total < c.min_order) { $('t-msg').textContent = `Minimum order is ${money(c.min_order)}.`; return; }
  /* @end min-order */
  /* @broken min-order */
  if (total <= c.min_order) { $('t-msg').textContent = `Minimum order is ${money(c.min_order)}.`; return; }
  /* @end min-order */
  const d = discountFor(c, total);
  $('t-result').textContent = `Discount: ${money(d)} · New total: ${money(total - d)}`;
  state.lastApplied = { campaign: c, code: typed };
  /* @feature redeem */
  $('t-redeem').innerHTML = '<button type="button" id="t-redeem-btn">Redeem</button>';
  /* @end redeem */
  /* @broken redeem */
  $('t-redeem').innerHTML = '<button type="button" id="t-redeem-btn">Redeem</button>';
  /* @end redeem */
}

$('t-apply').addEventListener('click', applyCode);
$('t-redeem').addEventListener('click', (e) => {
  if (!e.target.closest('#t-redeem-btn') || !state.lastApplied) return;
  const { campaign, code } = state.lastApplied;
  /* @feature redeem */
  campaign.redeemed += 1;
  /* @end redeem */
  /* @broken redeem */
  campaign.redeemed += 2;
  /* @end redeem */
  state.lastApplied = null;
  $('t-redeem').innerHTML = '';
  $('t-result').textContent = `Redeemed ${code}.`;
  save();
  render();
});
/* @end apply */

// ------------------------------------------------------------------ new campaign
/* @feature create */
$('new-campaign').addEventListener('click', () => {
  $('create-form').hidden = false;
  $('form-msg').textContent = '';
});
$('create-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const c = { id: `n${Date.now()}`, name: $('f-name').value.trim(), type: $('f-type').value,
              value: Number($('f-value').value), min_order: Number($('f-min').value) || 0,
              starts: $('f-starts').value, ends: $('f-ends').value,
              budget: parseInt($('f-budget').value, 10) || 0, redeemed: 0, codes: [], paused: false };
  const say = (m) => { $('form-msg').textContent = m; };
  /* @feature create-validation */
  if (!c.name) return say('Name is required.');
  if (c.ends < c.starts) return say('Ends must be on or after Starts.');
  if (c.type === 'percent' && !(c.value >= 1 && c.value <= 100)) return say('Percent must be between 1 and 100.');
  /* @end create-validation */
  /* @broken create-validation */
  if (!c.name) return say('Name is required.');
  /* @end create-validation */
  state.campaigns.push(c);
  $('create-form').reset();
  $('create-form').hidden = true;
  save();
  render();
  return undefined;
});
/* @end create */

// ------------------------------------------------------------------ wiring
$('rows').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-open]');
  if (!btn) return;
  state.open = Number(btn.dataset.open);
  state.panelMsg = '';
  renderPanel();
});
$('panel').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-act]');
  const c = state.campaigns[state.open];
  if (!btn || !c || !PANEL_ACTIONS[btn.dataset.act]) return;
  PANEL_ACTIONS[btn.dataset.act](c);
  render();
});

fetch('data/coupons.json').then((r) => r.json()).then((data) => {
  state.today = data.today;
  $('today').textContent = `Today: ${data.today}`;
  const list = fromData(data.campaigns || []);
  state.campaigns = loadSaved() || list;
  render();
});
