'use strict';
// Brightdesk pricing page: plans, tiers, features and FAQ from data/pricing.json.
const state = { data: null, plans: [], features: [], faq: [], billing: 'monthly', currency: 'USD', openFaq: -1 };
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const r2 = (x) => Math.round((x + Number.EPSILON) * 100) / 100;
const PERSONAL = ['gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com'];

// ------------------------------------------------------------------ prices
function currency() {
  const list = state.data.currencies || [];
  return list.find((c) => c.code === state.currency) || list[0] || { code: 'USD', symbol: '$', rate: 1 };
}
function fmt(n) {
  return currency().symbol + n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
function priceOf(p) {
  let v = p.monthly_price;
  /* @feature parse-prices */
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) v = Number(v);
  /* @end parse-prices */
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
function toCurrency(usd) {
  let v = r2(usd);
  /* @feature currency */
  v = r2(usd * currency().rate);
  /* @end currency */
  /* @broken currency */
  v = Math.floor(usd * currency().rate * 100) / 100;
  /* @end currency */
  return v;
}
const annualCards = () => (typeof isAnnual === 'function' ? isAnnual() : false);
const annualCalc = () => (typeof calcAnnual === 'function' ? calcAnnual() : false);
/* @feature billing */
function isAnnual() { return state.billing === 'annual'; }
function calcAnnual() { return state.billing === 'annual'; }
/* @end billing */
/* @broken billing */
function isAnnual() { return state.billing === 'annual'; }
function calcAnnual() { return false; }
/* @end billing */
function perSeat(p, annual) {
  const base = priceOf(p);
  if (base === null) return null;
  const factor = annual ? 1 - (Number(state.data.annual_discount_percent) || 0) / 100 : 1;
  return toCurrency(base * factor);
}

// ------------------------------------------------------------------ seats
function tierDiscount(seats) {
  let pct = 0;
  /* @feature volume-tiers */
  const tier = (state.data.seat_tiers || []).find((t) => seats >= t.from && (t.to == null || seats <= t.to));
  pct = tier ? Number(tier.discount_percent) || 0 : 0;
  /* @end volume-tiers */
  /* @broken volume-tiers */
  const sorted = [...(state.data.seat_tiers || [])].sort((a, b) => a.from - b.from);
  sorted.forEach((t) => { if (seats > t.from) pct = Number(t.discount_percent) || 0; });
  /* @end volume-tiers */
  return pct;
}
function overCap(p, seats) {
  /* @feature seat-cap */
  if (p.max_seats != null && seats > p.max_seats) return true;
  /* @end seat-cap */
  /* @broken seat-cap */
  if (p.max_seats != null && seats >= p.max_seats) return true;
  /* @end seat-cap */
  return false;
}
function readSeats() {
  const raw = String($('seats')?.value ?? '10').trim();
  const n = Number(raw);
  let ok = raw !== '' && Number.isFinite(n);
  /* @feature seat-validation */
  ok = raw !== '' && Number.isInteger(n) && n >= 1 && n <= 1000;
  /* @end seat-validation */
  return { n, ok };
}

// ------------------------------------------------------------------ render
function renderCards() {
  const annual = annualCards();
  $('plans').innerHTML = state.plans.map((p) => {
    const price = perSeat(p, annual);
    let badge = '';
    /* @feature most-popular */
    if (p.highlight) badge = '<span class="badge">Most popular</span>';
    /* @end most-popular */
    let action = '';
    /* @feature contact-form */
    if (p.contact_sales) action = '<button type="button" class="primary" data-contact>Contact sales</button>';
    /* @end contact-form */
    const priceHtml = p.contact_sales || price === null
      ? '<p class="price"><span class="amount custom">Custom pricing</span></p>'
      : `<p class="price"><span class="amount">${fmt(price)}</span> <span class="unit">per seat / month${annual ? ', billed annually' : ''}</span></p>`;
    return `<article class="plan${p.highlight ? ' hl' : ''}" aria-labelledby="plan-${esc(p.id)}">
      ${badge}<h3 id="plan-${esc(p.id)}">${esc(p.name)}</h3>
      <p class="tagline">${esc(p.tagline)}</p>${priceHtml}${action}</article>`;
  }).join('');
}

function renderTotals() {
  const body = $('totals');
  if (!body) return;
  const annual = annualCalc();
  const { n, ok } = readSeats();
  $('seats-msg').textContent = ok ? '' : 'Enter a whole number of seats from 1 to 1000.';
  body.innerHTML = state.plans.map((p) => {
    if (p.contact_sales) return `<tr><th scope="row">${esc(p.name)}</th><td>Custom</td><td>—</td><td>Contact sales</td></tr>`;
    const price = perSeat(p, annual);
    if (price === null) return `<tr><th scope="row">${esc(p.name)}</th><td>Custom</td><td>—</td><td>Contact sales</td></tr>`;
    if (!ok) return `<tr><th scope="row">${esc(p.name)}</th><td>${fmt(price)}</td><td>—</td><td>—</td></tr>`;
    if (overCap(p, n)) return `<tr><th scope="row">${esc(p.name)}</th><td>${fmt(price)}</td><td>—</td><td>Up to ${p.max_seats} seats</td></tr>`;
    const pct = tierDiscount(n);
    const total = r2(n * price * (1 - pct / 100) * (annual ? 12 : 1));
    return `<tr><th scope="row">${esc(p.name)}</th><td>${fmt(price)}</td><td>${pct ? pct + '%' : 'None'}</td>
      <td><strong>${fmt(total)}</strong> / ${annual ? 'year' : 'month'}</td></tr>`;
  }).join('');
}

function cell(v) {
  if (v === true) return 'Yes';
  if (v === false || v == null) return 'No';
  return String(v);
}
function renderCompare() {
  const head = $('compare-head');
  if (!head) return;
  head.innerHTML = `<tr><th scope="col">Feature</th>${state.plans.map((p) => `<th scope="col">${esc(p.name)}</th>`).join('')}</tr>`;
  $('compare-body').innerHTML = state.features.map((f) => `<tr><th scope="row">${esc(String(f.name).trim())}</th>${
    state.plans.map((p) => { const v = cell(f.values?.[p.id]); return `<td class="${v === 'Yes' ? 'yes' : v === 'No' ? 'no' : ''}">${esc(v)}</td>`; }).join('')}</tr>`).join('');
}

function renderFaq() {
  const list = $('faq-list');
  if (!list) return;
  list.innerHTML = state.faq.map((q, i) => `<div class="qa">
    <h3><button type="button" aria-expanded="${state.openFaq === i}" aria-controls="faq-a-${i}" data-faq="${i}">${esc(q.question)}<span aria-hidden="true" class="chev">${state.openFaq === i ? '−' : '+'}</span></button></h3>
    <div id="faq-a-${i}" class="answer"${state.openFaq === i ? '' : ' hidden'}><p>${esc(q.answer)}</p></div></div>`).join('');
}

function renderSave() {
  const badge = $('save-badge');
  if (!badge) return;
  /* @feature save-badge */
  badge.textContent = `Save ${state.data.annual_discount_percent}%`;
  /* @end save-badge */
}

function render() { renderCards(); renderTotals(); renderCompare(); renderFaq(); renderSave(); }

// ------------------------------------------------------------------ contact sales
function enterprise() { return state.plans.find((p) => p.contact_sales) || {}; }
function openContact() {
  const dlg = $('contact');
  if (!dlg) return;
  $('contact-form').reset();
  $('c-msg').textContent = '';
  const min = Number(enterprise().min_seats) || 50;
  /* @feature seat-prefill */
  const seats = readSeats();
  $('c-seats').value = String(seats.ok ? Math.max(seats.n, min) : min);
  /* @end seat-prefill */
  /* @broken seat-prefill */
  const seats = readSeats();
  $('c-seats').value = String(seats.ok ? seats.n : min);
  /* @end seat-prefill */
  dlg.showModal();
  $('c-name').focus();
}
function contactProblem(v) {
  const min = Number(enterprise().min_seats) || 50;
  /* @feature contact-validation */
  if (!v.name) return 'Enter your name.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email)) return 'Enter a valid work email.';
  /* @end contact-validation */
  /* @broken contact-validation */
  if (!v.name) return 'Enter your name.';
  if (!v.email.includes('@')) return 'Enter a valid work email.';
  /* @end contact-validation */
  /* @feature personal-email */
  if (PERSONAL.includes(v.email.split('@').pop().toLowerCase())) return 'Use your work email, not a personal one.';
  /* @end personal-email */
  /* @feature contact-validation */
  if (!v.company) return 'Enter your company.';
  if (!/^\d+$/.test(v.seats) || Number(v.seats) < min) return `Enterprise plans start at ${min} seats.`;
  /* @end contact-validation */
  /* @broken contact-validation */
  if (!v.company) return 'Enter your company.';
  if (!/^\d+$/.test(v.seats) || Number(v.seats) < min) return `Enterprise plans start at ${min} seats.`;
  /* @end contact-validation */
  return '';
}
function sendContact(ev) {
  ev.preventDefault();
  const v = {
    name: $('c-name').value.trim(), email: $('c-email').value.trim(),
    company: $('c-company').value.trim(), seats: $('c-seats').value.trim(),
  };
  const problem = contactProblem(v);
  if (problem) { $('c-msg').textContent = problem; return; }
  $('contact').close();
  $('thanks').textContent = `Thanks, ${v.name}! Our sales team will contact you at ${v.email} about ${Number(v.seats)} seats.`;
}

// ------------------------------------------------------------------ wiring
function wire() {
  document.querySelectorAll('input[name="billing"]').forEach((r) => r.addEventListener('change', () => {
    state.billing = r.value; renderCards(); renderTotals();
  }));
  const sel = $('currency');
  if (sel) {
    sel.innerHTML = (state.data.currencies || []).map((c) => `<option value="${esc(c.code)}">${esc(c.code)}</option>`).join('');
    sel.value = state.currency;
    sel.addEventListener('change', () => { state.currency = sel.value; renderCards(); renderTotals(); });
  }
  $('seats')?.addEventListener('input', renderTotals);
  $('plans').addEventListener('click', (ev) => { if (ev.target.closest('[data-contact]')) openContact(); });
  $('faq-list')?.addEventListener('click', (ev) => {
    const btn = ev.target.closest('[data-faq]');
    if (!btn) return;
    const i = Number(btn.dataset.faq);
    /* @feature faq */
    state.openFaq = state.openFaq === i ? -1 : i;
    /* @end faq */
    /* @broken faq */
    state.openFaq = i;
    /* @end faq */
    renderFaq();
    document.querySelector(`[data-faq="${i}"]`)?.focus();
  });
  $('contact-form')?.addEventListener('submit', sendContact);
  $('c-cancel')?.addEventListener('click', () => $('contact').close());
}

function fromData(data) {
  state.data = data;
  let plans = data.plans || [];
  /* @feature hide-hidden */
  plans = plans.filter((p) => !p.hidden);
  /* @end hide-hidden */
  state.plans = plans;
  let features = data.features || [];
  /* @feature dedupe-features */
  const seen = new Set();
  features = features.filter((f) => {
    const key = String(f.name).trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  /* @end dedupe-features */
  /* @broken dedupe-features */
  const byName = new Map();
  features.forEach((f) => byName.set(String(f.name).trim().toLowerCase(), f));
  features = [...byName.values()];
  /* @end dedupe-features */
  state.features = features;
  let faq = data.faq || [];
  /* @feature faq-drafts */
  faq = faq.filter((q) => String(q.answer ?? '').trim() !== '');
  /* @end faq-drafts */
  state.faq = faq;
}

fetch('data/pricing.json')
  .then((r) => r.json())
  .then((data) => { fromData(data); wire(); render(); })
  .catch(() => { $('plans').innerHTML = '<p class="msg">Prices could not be loaded.</p>'; });
