'use strict';
// Ember & Oak: a coffee subscription shop. Coffees, rules and subscriptions come from data/;
// the basket and the subscriptions are kept in localStorage. "Today" is shop.json's today.
const BASKET_KEY = 'emberoak-basket-v1';
const SUBS_KEY = 'emberoak-subscriptions-v1';
const state = {
  shop: null, products: [], customer: null, subs: [], dataSubs: [],
  basket: { lines: [], freq: 'fortnightly', code: null },
  codeMsg: '', codeOk: false, flash: '', subMsg: {}, subOk: {}, confirming: null,
};
const ACT = {};   // account actions: data-act name -> handler(subscription, region)
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

// ------------------------------------------------------------------ dates (whole days, UTC)
const DAY_MS = 86400000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
let TODAY = 0;
function dayOf(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(iso || ''));
  return m ? Math.round(Date.UTC(+m[1], +m[2] - 1, +m[3]) / DAY_MS) : NaN;
}
const isoOf = (n) => new Date(n * DAY_MS).toISOString().slice(0, 10);
const weekdayOf = (n) => WEEKDAYS[new Date(n * DAY_MS).getUTCDay()];
function fmtDate(n) {
  const d = new Date(n * DAY_MS);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

// ------------------------------------------------------------------ money (whole pence)
function pence(price) {
  /* @feature price-rounding */
  return Math.round(Math.round(Number(price) * 1000) / 10);
  /* @end price-rounding */
  /* @broken price-rounding */
  return Math.round(Number(Number(price).toFixed(2)) * 100);
  /* @end price-rounding */
  // eslint-disable-next-line no-unreachable
  return Math.trunc(Number(price) * 100);
}
const pounds = (p) => '£' + (p / 100).toFixed(2);
const minus = (p) => '-' + pounds(p);
const roundHalfUp = (x) => Math.floor(x + 0.5);

// ------------------------------------------------------------------ lookups
const productOf = (id) => state.products.find((p) => p.id === id) || null;
const sizeOf = (p, grams) => (p ? p.sizes.find((s) => s.grams === grams) : null) || null;
const sizeLabel = (g) => (g >= 1000 ? `${g / 1000} kg` : `${g} g`);
const freqOf = (id) => state.shop.frequencies.find((f) => f.id === id) || null;
const bagCount = () => state.basket.lines.reduce((a, l) => a + l.quantity, 0);
function codePercent() {
  const c = state.basket.code && state.shop.discountCodes.find((x) => x.code === state.basket.code);
  return c ? c.percent : 0;
}

// The price of one delivery of some items on a plan with a code percent (PRD §3.4).
function priceOf(items, freqId, codePct) {
  const subtotal = items.reduce((a, it) => {
    const size = sizeOf(productOf(it.product), it.grams);
    return a + (size ? pence(size.price) * it.quantity : 0);
  }, 0);
  const planPct = freqOf(freqId)?.discountPercent ?? 0;
  const plan = roundHalfUp(subtotal * planPct / 100);
  const after = subtotal - plan;
  const code = codePct ? roundHalfUp(after * codePct / 100) : 0;
  const goods = after - code;
  let delivery = pence(state.shop.delivery.fee);
  /* @feature delivery-fee */
  if (goods >= pence(state.shop.delivery.freeFrom)) delivery = 0;
  /* @end delivery-fee */
  /* @broken delivery-fee */
  if (subtotal >= pence(state.shop.delivery.freeFrom)) delivery = 0;
  /* @end delivery-fee */
  return { subtotal, planPct, plan, codePct, code, delivery, total: goods + delivery };
}

// ------------------------------------------------------------------ storage
function saveBasket() {
  /* @feature basket-persist */
  localStorage.setItem(BASKET_KEY, JSON.stringify(state.basket));
  /* @end basket-persist */
}
function loadBasket() {
  /* @feature basket-persist */
  try {
    const b = JSON.parse(localStorage.getItem(BASKET_KEY) || 'null');
    if (b && Array.isArray(b.lines)) return { lines: b.lines, freq: b.freq || state.basket.freq, code: b.code || null };
  } catch (e) { /* unreadable storage: start empty */ }
  /* @end basket-persist */
  return null;
}
function saveSubs() {
  /* @feature sub-persist */
  localStorage.setItem(SUBS_KEY, JSON.stringify(state.subs));
  /* @end sub-persist */
  /* @broken sub-persist */
  localStorage.setItem(SUBS_KEY, JSON.stringify(state.subs));
  /* @end sub-persist */
}
function loadSubs(fromData) {
  /* @feature sub-persist */
  try {
    const saved = JSON.parse(localStorage.getItem(SUBS_KEY) || 'null');
    if (Array.isArray(saved)) return saved;
  } catch (e) { /* unreadable storage: start from the data */ }
  /* @end sub-persist */
  /* @broken sub-persist */
  try {
    const saved = JSON.parse(localStorage.getItem(SUBS_KEY) || 'null');
    if (Array.isArray(saved)) {
      const ids = new Set(fromData.map((s) => s.id));
      return [...fromData, ...saved.filter((s) => !ids.has(s.id))];
    }
  } catch (e) { /* unreadable storage: start from the data */ }
  /* @end sub-persist */
  return fromData;
}

// ------------------------------------------------------------------ shop
function cardHtml(p) {
  let soldOut = false;
  /* @feature out-of-stock */
  soldOut = p.inStock === false;
  /* @end out-of-stock */
  /* @broken out-of-stock */
  const shownSoldOut = p.inStock === false;
  /* @end out-of-stock */
  const first = p.sizes[0];
  let h = `<article class="card coffee" aria-label="${esc(p.name)}" data-product="${esc(p.id)}">
    <div class="swatch roast-${esc(String(p.roast).toLowerCase())}" aria-hidden="true"></div>
    <h3>${esc(p.name)}</h3>`;
  /* @feature catalog-details */
  h += `<p class="meta">Roast: ${esc(p.roast)} · ${esc(p.origin)}</p>
    <p class="notes">${esc(p.notes)}</p>`;
  /* @end catalog-details */
  h += `<p class="price"><span class="amount">${pounds(pence(first.price))}</span> <span class="per">per bag</span></p>
    <div class="choices">
      <label>Size <select data-size>${p.sizes.map((s) => `<option value="${s.grams}">${sizeLabel(s.grams)}</option>`).join('')}</select></label>
      <label>Grind <select data-grind>${p.grinds.map((g) => `<option>${esc(g)}</option>`).join('')}</select></label>
    </div>`;
  /* @feature out-of-stock */
  if (soldOut) h += '<p class="badge">Out of stock</p>';
  /* @end out-of-stock */
  /* @broken out-of-stock */
  if (shownSoldOut) h += '<p class="badge">Out of stock</p>';
  /* @end out-of-stock */
  /* @feature add-basket */
  h += `<button type="button" class="primary" data-add ${soldOut ? 'disabled' : ''}>Add to basket</button>
    <p class="added" role="status"></p>`;
  /* @end add-basket */
  return h + '</article>';
}

function renderShop() {
  $('products').innerHTML = state.products.map(cardHtml).join('');
}

/* @feature size-price */
$('products').addEventListener('change', (e) => {
  if (!e.target.matches('[data-size]')) return;
  const card = e.target.closest('[data-product]');
  const p = productOf(card.dataset.product);
  const size = sizeOf(p, Number(e.target.value));
  if (size) card.querySelector('.amount').textContent = pounds(pence(size.price));
});
/* @end size-price */
/* @broken size-price */
$('products').addEventListener('change', (e) => {
  if (!e.target.matches('[data-size]')) return;
  const card = e.target.closest('[data-product]');
  const p = productOf(card.dataset.product);
  const perGram = pence(p.sizes[0].price) / p.sizes[0].grams;
  card.querySelector('.amount').textContent = pounds(Math.round(perGram * Number(e.target.value)));
});
/* @end size-price */

/* @feature add-basket */
function addToBasket(productId, grams, grind) {
  const lines = state.basket.lines;
  let line = null;
  /* @feature basket-merge */
  line = lines.find((l) => l.product === productId && l.grams === grams && l.grind === grind) || null;
  /* @end basket-merge */
  /* @broken basket-merge */
  line = lines.find((l) => l.product === productId && l.grams === grams) || null;
  /* @end basket-merge */
  if (line) line.quantity = Math.min(10, line.quantity + 1);
  else lines.push({ product: productId, grams, grind, quantity: 1 });
  saveBasket();
  updateNav();
}
$('products').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-add]');
  if (!btn || btn.disabled) return;
  const card = btn.closest('[data-product]');
  addToBasket(card.dataset.product, Number(card.querySelector('[data-size]').value),
              card.querySelector('[data-grind]').value);
  card.querySelector('.added').textContent = 'Added to your basket.';
});
/* @end add-basket */

// ------------------------------------------------------------------ basket
function lineRowHtml(l, i) {
  const p = productOf(l.product);
  const size = sizeOf(p, l.grams);
  const unit = size ? pence(size.price) : 0;
  let h = `<tr data-line="${i}"><td>${esc(p ? p.name : l.product)}</td><td>${sizeLabel(l.grams)}</td>
    <td>${esc(l.grind)}</td><td>${pounds(unit)}</td>
    <td><input type="number" min="1" max="10" step="1" aria-label="Quantity" data-qty="${i}" value="${l.quantity}"></td>
    <td class="line-total">${pounds(unit * l.quantity)}</td><td>`;
  /* @feature basket-remove */
  h += `<button type="button" class="link" data-remove="${i}">Remove</button>`;
  /* @end basket-remove */
  return h + '</td></tr>';
}

function planHtml() {
  let h = '';
  /* @feature plan-choice */
  h = `<fieldset class="plan"><legend>Delivery frequency</legend>
    ${state.shop.frequencies.map((f) => `<div class="opt"><label><input type="radio" name="freq" value="${esc(f.id)}" ${f.id === state.basket.freq ? 'checked' : ''}> ${esc(f.label)}</label>
      <span class="off">${f.discountPercent}% off</span> <span class="every">every ${f.everyDays} days</span></div>`).join('')}
  </fieldset>`;
  /* @end plan-choice */
  /* @broken plan-choice */
  const fs = state.shop.frequencies;
  h = `<fieldset class="plan"><legend>Delivery frequency</legend>
    ${fs.map((f, i) => `<div class="opt"><label><input type="radio" name="freq" value="${esc(fs[(i + 1) % fs.length].id)}" ${f.id === state.basket.freq ? 'checked' : ''}> ${esc(f.label)}</label>
      <span class="off">${f.discountPercent}% off</span> <span class="every">every ${f.everyDays} days</span></div>`).join('')}
  </fieldset>`;
  /* @end plan-choice */
  return h;
}

function breakdownHtml() {
  const b = priceOf(state.basket.lines, state.basket.freq, codePercent());
  let h = `<h3>Price breakdown</h3>
    <p class="line"><span class="k">Subtotal:</span> <span class="v">${pounds(b.subtotal)}</span></p>
    <p class="line"><span class="k">Plan discount (${b.planPct}%):</span> <span class="v">${minus(b.plan)}</span></p>`;
  if (b.codePct) h += `<p class="line"><span class="k">Code discount (${b.codePct}%):</span> <span class="v">${minus(b.code)}</span></p>`;
  h += `<p class="line"><span class="k">Delivery:</span> <span class="v">${b.delivery ? pounds(b.delivery) : 'Free'}</span></p>
    <p class="line total"><span class="k">Total per delivery:</span> <span class="v">${pounds(b.total)}</span></p>`;
  return h;
}

function renderBreakdown() {
  const el = $('breakdown');
  if (el) el.innerHTML = breakdownHtml();
}

function renderBasket() {
  const v = $('view-basket');
  const lines = state.basket.lines;
  if (!lines.length) {
    v.innerHTML = `<h2>Your basket</h2><div class="card empty"><p>Your basket is empty.</p>
      <p><a href="#/shop">Browse our coffees</a></p></div>`;
    return;
  }
  let aside = '<section aria-label="Price breakdown" id="breakdown" class="card breakdown"></section>';
  /* @feature checkout */
  aside += '<button type="button" class="primary wide" id="to-checkout">Checkout</button>';
  /* @end checkout */
  v.innerHTML = `<h2>Your basket</h2>
    <div class="basket-layout">
      <div class="basket-main">
        <table aria-label="Basket" class="card">
          <thead><tr><th>Coffee</th><th>Size</th><th>Grind</th><th>Price</th><th>Quantity</th><th>Total</th><th><span class="sr">Actions</span></th></tr></thead>
          <tbody>${lines.map(lineRowHtml).join('')}</tbody>
        </table>
        ${planHtml()}
        ${window.codeHtml ? window.codeHtml() : ''}
      </div>
      <aside>${aside}</aside>
    </div>`;
  renderBreakdown();
}

/* @feature basket-qty */
$('view-basket').addEventListener('input', (e) => {
  if (!e.target.matches('[data-qty]')) return;
  const i = Number(e.target.dataset.qty);
  const q = parseInt(e.target.value, 10);
  const line = state.basket.lines[i];
  if (!line || !(q >= 1 && q <= 10)) return;
  line.quantity = q;
  const size = sizeOf(productOf(line.product), line.grams);
  e.target.closest('tr').querySelector('.line-total').textContent = pounds((size ? pence(size.price) : 0) * q);
  saveBasket();
  updateNav();
  renderBreakdown();
});
/* @end basket-qty */
/* @broken basket-qty */
$('view-basket').addEventListener('input', (e) => {
  if (!e.target.matches('[data-qty]')) return;
  const i = Number(e.target.dataset.qty);
  const q = parseInt(e.target.value, 10);
  const line = state.basket.lines[i];
  if (!line || !(q >= 1 && q <= 10)) return;
  const size = sizeOf(productOf(line.product), line.grams);
  e.target.closest('tr').querySelector('.line-total').textContent = pounds((size ? pence(size.price) : 0) * q);
});
/* @end basket-qty */

$('view-basket').addEventListener('click', (e) => {
  /* @feature basket-remove */
  const rm = e.target.closest('[data-remove]');
  if (rm) {
    state.basket.lines.splice(Number(rm.dataset.remove), 1);
    saveBasket();
    updateNav();
    renderBasket();
    return;
  }
  /* @end basket-remove */
  if (e.target.closest('#to-checkout')) location.hash = '#/checkout';
});

/* @feature plan-choice */
$('view-basket').addEventListener('change', (e) => {
  if (e.target.name !== 'freq') return;
  state.basket.freq = e.target.value;
  saveBasket();
  renderBreakdown();
});
/* @end plan-choice */
/* @broken plan-choice */
$('view-basket').addEventListener('change', (e) => {
  if (e.target.name !== 'freq') return;
  state.basket.freq = e.target.value;
  saveBasket();
  renderBreakdown();
});
/* @end plan-choice */

// ------------------------------------------------------------------ discount code
/* @feature code */
window.codeHtml = () => `<div class="code card">
    <label for="code-input">Discount code</label>
    <div class="row"><input id="code-input" type="text" autocomplete="off" value="${esc(state.basket.code || '')}">
      <button type="button" id="code-apply">Apply</button></div>
    <p class="code-msg ${state.codeOk ? 'ok' : 'bad'}" role="status">${esc(state.codeMsg)}</p>
  </div>`;

function applyCode(raw) {
  const entered = String(raw).trim().toUpperCase();
  const found = state.shop.discountCodes.find((c) => c.code.toUpperCase() === entered);
  const refuse = (msg) => { state.basket.code = null; state.codeMsg = msg; state.codeOk = false; };
  if (!found) return refuse('Unknown discount code.');
  /* @feature code-expiry */
  if (dayOf(found.expires) < TODAY) return refuse(`This code expired on ${fmtDate(dayOf(found.expires))}.`);
  /* @end code-expiry */
  /* @broken code-expiry */
  if (dayOf(found.expires) < TODAY) return refuse('This code has expired.');
  /* @end code-expiry */
  state.basket.code = found.code;
  state.codeMsg = `Code ${found.code} applied: ${found.percent}% off.`;
  state.codeOk = true;
  return undefined;
}

$('view-basket').addEventListener('click', (e) => {
  if (!e.target.closest('#code-apply')) return;
  applyCode($('code-input').value);
  saveBasket();
  renderBasket();
});
/* @end code */
/* @broken code */
window.codeHtml = () => `<div class="code card">
    <label for="code-input">Discount code</label>
    <div class="row"><input id="code-input" type="text" autocomplete="off" value="${esc(state.basket.code || '')}">
      <button type="button" id="code-apply">Apply</button></div>
    <p class="code-msg ${state.codeOk ? 'ok' : 'bad'}" role="status">${esc(state.codeMsg)}</p>
  </div>`;

function applyCode(raw) {
  const entered = String(raw);
  const found = state.shop.discountCodes.find((c) => c.code === entered);
  const refuse = (msg) => { state.basket.code = null; state.codeMsg = msg; state.codeOk = false; };
  if (!found) return refuse('Unknown discount code.');
  if (dayOf(found.expires) < TODAY) return refuse(`This code expired on ${fmtDate(dayOf(found.expires))}.`);
  state.basket.code = found.code;
  state.codeMsg = `Code ${found.code} applied: ${found.percent}% off.`;
  state.codeOk = true;
  return undefined;
}

$('view-basket').addEventListener('click', (e) => {
  if (!e.target.closest('#code-apply')) return;
  applyCode($('code-input').value);
  saveBasket();
  renderBasket();
});
/* @end code */

// ------------------------------------------------------------------ checkout
function luhn(digits) {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}

function fieldHtml(id, label, type, hint) {
  return `<div class="field"><label for="c-${id}">${label}</label>
    <input id="c-${id}" type="${type}" autocomplete="off" aria-describedby="e-${id}">
    ${hint ? `<small>${hint}</small>` : ''}<span class="err" id="e-${id}"></span></div>`;
}

function nextSubId() {
  /* @feature sub-id */
  const top = Math.max(1000, ...state.subs.map((s) => parseInt(String(s.id).replace(/\D/g, ''), 10) || 0));
  return `SUB-${top + 1}`;
  /* @end sub-id */
  /* @broken sub-id */
  return `SUB-${1000 + state.subs.length}`;
  /* @end sub-id */
  // eslint-disable-next-line no-unreachable
  return `SUB-${state.subs.length + 1}`;
}

/* @feature checkout */
window.renderCheckout = () => {
  const v = $('view-checkout');
  const lines = state.basket.lines;
  if (!lines.length) {
    v.innerHTML = '<h2>Checkout</h2><div class="card empty"><p>Your basket is empty.</p><p><a href="#/shop">Browse our coffees</a></p></div>';
    return;
  }
  const b = priceOf(lines, state.basket.freq, codePercent());
  const fr = freqOf(state.basket.freq);
  v.innerHTML = `<h2>Checkout</h2>
    <p class="summary card">${esc(fr ? fr.label : '')} plan · ${bagCount()} bag${bagCount() > 1 ? 's' : ''} per delivery · Total per delivery: ${pounds(b.total)}</p>
    <form aria-label="Checkout" id="checkout-form" class="card" novalidate>
      <fieldset><legend>Delivery</legend>
        ${fieldHtml('name', 'Full name', 'text')}
        ${fieldHtml('address', 'Address', 'text')}
        ${fieldHtml('postcode', 'Postcode', 'text')}
        ${fieldHtml('date', 'First delivery', 'date', 'We deliver Tuesday to Friday.')}
      </fieldset>
      <fieldset><legend>Payment</legend>
        ${fieldHtml('card', 'Card number', 'text')}
        ${fieldHtml('expiry', 'Expiry (MM/YY)', 'text')}
        ${fieldHtml('cvc', 'CVC', 'text')}
      </fieldset>
      <button type="submit" class="primary">Start subscription</button>
    </form>`;
};

function submitCheckout() {
  const val = (id) => $(`c-${id}`).value;
  const errors = {};
  const d = state.shop.delivery;
  const name = val('name').trim();
  if (!name) errors.name = 'Enter your name.';
  const line = val('address').trim();
  if (!line) errors.address = 'Enter your address.';
  let postcode = val('postcode').replace(/\s+/g, '').toUpperCase();
  if (!postcode) errors.postcode = 'Enter a valid UK postcode.';
  /* @feature postcode-check */
  else if (!/^[A-Z]{1,2}[0-9][A-Z0-9]?[0-9][A-Z]{2}$/.test(postcode)) errors.postcode = 'Enter a valid UK postcode.';
  else {
    const area = postcode.match(/^[A-Z]+/)[0];
    if (d.noDeliveryAreas.includes(area)) errors.postcode = `Sorry, we don't deliver to ${area} postcodes.`;
    postcode = `${postcode.slice(0, -3)} ${postcode.slice(-3)}`;
  }
  /* @end postcode-check */
  /* @broken postcode-check */
  else {
    const typed = val('postcode').trim().toUpperCase();
    if (!/^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$/.test(typed)) errors.postcode = 'Enter a valid UK postcode.';
    else if (d.noDeliveryAreas.includes(typed.match(/^[A-Z]+/)[0])) errors.postcode = `Sorry, we don't deliver to ${typed.match(/^[A-Z]+/)[0]} postcodes.`;
    postcode = typed;
  }
  /* @end postcode-check */
  const dateIso = val('date');
  const first = dayOf(dateIso);
  if (!dateIso || Number.isNaN(first)) errors.date = 'Choose a first delivery date.';
  /* @feature date-rules */
  else if (first < TODAY + d.minDaysAhead) errors.date = `The first delivery must be at least ${d.minDaysAhead} days after today.`;
  else if (!d.days.includes(weekdayOf(first))) errors.date = 'We deliver Tuesday to Friday only.';
  else {
    const closure = d.closures.find((c) => c.date === dateIso);
    if (closure) errors.date = `No deliveries on ${fmtDate(first)} (${closure.reason}).`;
  }
  /* @end date-rules */
  /* @broken date-rules */
  else if (first < TODAY + 1) errors.date = `The first delivery must be at least ${d.minDaysAhead} days after today.`;
  else if (!d.days.includes(weekdayOf(first))) errors.date = 'We deliver Tuesday to Friday only.';
  else {
    const closure = d.closures.find((c) => c.date === dateIso);
    if (closure) errors.date = `No deliveries on ${fmtDate(first)} (${closure.reason}).`;
  }
  /* @end date-rules */
  /* @feature card-check */
  const card = val('card').replace(/\s+/g, '');
  if (!/^\d{16}$/.test(card) || !luhn(card)) errors.card = 'Enter a valid card number.';
  const exp = /^(\d{2})\/(\d{2})$/.exec(val('expiry').trim());
  const today = new Date(TODAY * DAY_MS);
  const nowMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
  if (!exp || +exp[1] < 1 || +exp[1] > 12) errors.expiry = 'Enter the expiry as MM/YY.';
  else if ((2000 + Number(exp[2])) * 12 + Number(exp[1]) - 1 < nowMonth) errors.expiry = 'This card has expired.';
  if (!/^\d{3}$/.test(val('cvc').trim())) errors.cvc = 'Enter the 3-digit security code.';
  /* @end card-check */
  /* @broken card-check */
  const card = val('card').replace(/\s+/g, '');
  if (!/^\d{16}$/.test(card) || !luhn(card)) errors.card = 'Enter a valid card number.';
  const exp = /^(\d{2})\/(\d{2})$/.exec(val('expiry').trim());
  const today = new Date(TODAY * DAY_MS);
  const nowMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
  if (!exp || +exp[1] < 1 || +exp[1] > 12) errors.expiry = 'Enter the expiry as MM/YY.';
  else if ((2000 + Number(exp[2])) * 12 + Number(exp[1]) - 1 <= nowMonth) errors.expiry = 'This card has expired.';
  if (!/^\d{3}$/.test(val('cvc').trim())) errors.cvc = 'Enter the 3-digit security code.';
  /* @end card-check */
  ['name', 'address', 'postcode', 'date', 'card', 'expiry', 'cvc'].forEach((k) => {
    $(`e-${k}`).textContent = errors[k] || '';
    $(`c-${k}`).setAttribute('aria-invalid', errors[k] ? 'true' : 'false');
  });
  if (Object.keys(errors).length) return;
  const id = nextSubId();
  state.subs.push({
    id, status: 'active', frequency: state.basket.freq, firstDelivery: dateIso,
    items: state.basket.lines.map((l) => ({ ...l })),
    address: { name, line, postcode }, discountPercent: codePercent(), skipped: [],
  });
  saveSubs();
  state.basket = { lines: [], freq: state.shop.defaultFrequency, code: null };
  state.codeMsg = '';
  saveBasket();
  updateNav();
  state.flash = `Subscription ${id} started. First delivery: ${fmtDate(first)}.`;
  location.hash = '#/account';
}

document.addEventListener('submit', (e) => {
  if (e.target.id !== 'checkout-form') return;
  e.preventDefault();
  submitCheckout();
});
/* @end checkout */

// ------------------------------------------------------------------ delivery schedule
function shiftForClosure(d) {
  let x = d;
  /* @feature closures */
  const closed = (n) => state.shop.delivery.closures.some((c) => c.date === isoOf(n));
  const open = (n) => state.shop.delivery.days.includes(weekdayOf(n)) && !closed(n);
  if (closed(x)) { x += 1; while (!open(x)) x += 1; }
  /* @end closures */
  /* @broken closures */
  const closed = (n) => state.shop.delivery.closures.some((c) => c.date === isoOf(n));
  if (closed(x)) x -= 1;
  /* @end closures */
  return x;
}
/* @feature schedule */
window.upcomingDeliveries = (s, n) => {
  if (s.status !== 'active') return [];
  const every = freqOf(s.frequency)?.everyDays || 7;
  let d = dayOf(s.firstDelivery);
  if (Number.isNaN(d)) return [];
  if (d <= TODAY) d += Math.floor((TODAY - d) / every + 1) * every;
  const out = [];
  for (let guard = 0; out.length < n && guard < 400; guard += 1, d += every) {
    if (!(s.skipped || []).includes(isoOf(d))) out.push({ regular: d, date: shiftForClosure(d) });
  }
  return out;
};
/* @end schedule */
/* @broken schedule */
window.upcomingDeliveries = (s, n) => {
  if (s.status !== 'active') return [];
  const every = freqOf(s.frequency)?.everyDays || 7;
  let d = dayOf(s.firstDelivery);
  if (Number.isNaN(d)) return [];
  if (d < TODAY) d += Math.ceil((TODAY - d) / every) * every;
  const out = [];
  for (let guard = 0; out.length < n && guard < 400; guard += 1, d += every) {
    if (!(s.skipped || []).includes(isoOf(d))) out.push({ regular: d, date: shiftForClosure(d) });
  }
  return out;
};
/* @end schedule */

// ------------------------------------------------------------------ my subscription
const STATUS = { active: 'Active', paused: 'Paused', cancelled: 'Cancelled' };

function grindOptions(p) {
  let grinds = p ? p.grinds : [];
  /* @broken grind */
  grinds = [...new Set(state.products.flatMap((x) => x.grinds))];
  /* @end grind */
  return grinds;
}

function actionsHtml(s) {
  let h = '';
  if (s.status === 'cancelled') return h;
  /* @feature grind */
  h += `<div class="grinds">${s.items.map((it, i) => {
    const p = productOf(it.product);
    return `<label>Grind <select data-item="${i}">${grindOptions(p).map((g) => `<option ${g === it.grind ? 'selected' : ''}>${esc(g)}</option>`).join('')}</select></label>`;
  }).join('')}<button type="button" data-act="grind">Save grind</button></div>`;
  /* @end grind */
  /* @broken grind */
  h += `<div class="grinds">${s.items.map((it, i) => {
    const p = productOf(it.product);
    return `<label>Grind <select data-item="${i}">${grindOptions(p).map((g) => `<option ${g === it.grind ? 'selected' : ''}>${esc(g)}</option>`).join('')}</select></label>`;
  }).join('')}<button type="button" data-act="grind">Save grind</button></div>`;
  /* @end grind */
  h += '<div class="buttons">';
  /* @feature skip */
  if (s.status === 'active') h += '<button type="button" data-act="skip">Skip next delivery</button>';
  /* @end skip */
  /* @broken skip */
  if (s.status === 'active') h += '<button type="button" data-act="skip">Skip next delivery</button>';
  /* @end skip */
  /* @feature pause */
  h += s.status === 'active' ? '<button type="button" data-act="pause">Pause</button>'
    : '<button type="button" data-act="resume">Resume</button>';
  /* @end pause */
  /* @broken pause */
  h += s.status === 'active' ? '<button type="button" data-act="pause">Pause</button>'
    : '<button type="button" data-act="resume">Resume</button>';
  /* @end pause */
  /* @feature cancel */
  if (state.confirming === s.id) {
    h += `<span class="confirm">Cancel ${esc(s.id)}?
      <button type="button" class="danger" data-act="confirm-cancel">Confirm cancellation</button>
      <button type="button" data-act="keep">Keep subscription</button></span>`;
  } else {
    h += '<button type="button" class="danger-outline" data-act="cancel">Cancel subscription</button>';
  }
  /* @end cancel */
  /* @broken cancel */
  h += '<button type="button" class="danger-outline" data-act="cancel">Cancel subscription</button>';
  /* @end cancel */
  return h + '</div>';
}

function subHtml(s) {
  const fr = freqOf(s.frequency);
  const price = priceOf(s.items, s.frequency, s.discountPercent || 0);
  const up = window.upcomingDeliveries ? window.upcomingDeliveries(s, 3) : [];
  let next = 'none';
  if (s.status === 'paused') next = 'none (paused)';
  else if (s.status === 'active' && up.length) next = fmtDate(up[0].date);
  const skippedAhead = (s.skipped || []).filter((x) => dayOf(x) > TODAY).sort();
  const items = s.items.map((it) => {
    const p = productOf(it.product);
    return `<li>${it.quantity} × ${esc(p ? p.name : it.product)}, ${sizeLabel(it.grams)}, ${esc(it.grind)}</li>`;
  }).join('');
  const a = s.address || {};
  return `<section class="card sub status-${esc(s.status)}" aria-label="Subscription ${esc(s.id)}" data-sub="${esc(s.id)}">
    <div class="sub-head"><h3>${esc(s.id)}</h3><span class="pill">${STATUS[s.status] || esc(s.status)}</span></div>
    <div class="sub-body">
      <div>
        <p>Status: ${STATUS[s.status] || esc(s.status)}</p>
        <p>Plan: ${esc(fr ? fr.label : s.frequency)}, ${fr ? fr.discountPercent : 0}% off</p>
        <ul class="items">${items}</ul>
        <p>Per delivery: ${pounds(price.total)}</p>
        <p class="muted">Deliver to: ${esc(a.name)}, ${esc(a.line)}, ${esc(a.postcode)}</p>
      </div>
      <div>
        <p class="next">Next delivery: ${next}</p>
        <ul class="dates" aria-label="Upcoming deliveries">${up.map((u) => `<li>${fmtDate(u.date)}</li>`).join('')}</ul>
        ${skippedAhead.length ? `<p class="muted">Skipped: ${skippedAhead.map((x) => fmtDate(dayOf(x))).join(', ')}</p>` : ''}
      </div>
    </div>
    <div class="actions">${actionsHtml(s)}</div>
    <p class="msg${state.subOk[s.id] ? ' ok' : ''}" role="alert">${esc(state.subMsg[s.id] || '')}</p>
  </section>`;
}

function renderAccount() {
  const subs = [...state.subs].sort((x, y) => String(x.id).localeCompare(String(y.id), 'en', { numeric: true }));
  $('view-account').innerHTML = `<div class="account-head"><h2>My subscription</h2>
      <p class="muted">Today is ${fmtDate(TODAY)}.</p></div>
    ${state.flash ? `<p class="flash" role="status">${esc(state.flash)}</p>` : ''}
    <p class="muted">Signed in as ${esc(state.customer?.name)} (${esc(state.customer?.email)})</p>
    ${subs.map(subHtml).join('') || '<p>You have no subscriptions yet.</p>'}`;
}

function subChanged(s, msg, ok) {
  state.subMsg[s.id] = msg || '';
  state.subOk[s.id] = Boolean(ok);
  if (!msg) saveSubs();
  renderAccount();
}

/* @feature grind */
ACT.grind = (s, region) => {
  region.querySelectorAll('select[data-item]').forEach((sel) => {
    const it = s.items[Number(sel.dataset.item)];
    if (it) it.grind = sel.value;
  });
  saveSubs();
  subChanged(s, 'Grind updated.', true);
};
/* @end grind */
/* @broken grind */
ACT.grind = (s, region) => {
  region.querySelectorAll('select[data-item]').forEach((sel) => {
    const it = s.items[Number(sel.dataset.item)];
    if (it) it.grind = sel.value;
  });
  saveSubs();
  subChanged(s, 'Grind updated.', true);
};
/* @end grind */
/* @feature skip */
ACT.skip = (s) => {
  const up = window.upcomingDeliveries ? window.upcomingDeliveries(s, 1) : [];
  if (!up.length) return;
  if (up[0].date <= TODAY + 2) { subChanged(s, 'Too late to skip the next delivery.'); return; }
  s.skipped = [...(s.skipped || []), isoOf(up[0].regular)];
  subChanged(s);
};
/* @end skip */
/* @broken skip */
ACT.skip = (s) => {
  const up = window.upcomingDeliveries ? window.upcomingDeliveries(s, 1) : [];
  if (!up.length) return;
  s.skipped = [...(s.skipped || []), isoOf(up[0].regular)];
  subChanged(s);
};
/* @end skip */
/* @feature pause */
ACT.pause = (s) => { s.status = 'paused'; subChanged(s); };
ACT.resume = (s) => { s.status = 'active'; subChanged(s); };
/* @end pause */
/* @broken pause */
ACT.pause = (s) => { s.status = 'paused'; subChanged(s); };
ACT.resume = (s) => { s.status = 'active'; s.firstDelivery = isoOf(TODAY); subChanged(s); };
/* @end pause */
/* @feature cancel */
ACT.cancel = (s) => { state.confirming = s.id; subChanged(s, ''); };
ACT.keep = (s) => { state.confirming = null; subChanged(s, ''); };
ACT['confirm-cancel'] = (s) => { state.confirming = null; s.status = 'cancelled'; subChanged(s); };
/* @end cancel */
/* @broken cancel */
ACT.cancel = (s) => { s.status = 'cancelled'; subChanged(s); };
/* @end cancel */

$('view-account').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-act]');
  if (!btn) return;
  const region = btn.closest('[data-sub]');
  const s = region && state.subs.find((x) => x.id === region.dataset.sub);
  if (s && ACT[btn.dataset.act]) ACT[btn.dataset.act](s, region);
});

// ------------------------------------------------------------------ routing
function updateNav() {
  const a = $('nav-basket');
  if (a) a.textContent = `Basket (${bagCount()})`;
}

const VIEWS = ['shop', 'basket', 'checkout', 'account'];
function route() {
  const name = location.hash.replace(/^#\/?/, '').split('/')[0] || 'shop';
  const view = VIEWS.includes(name) ? name : 'shop';
  VIEWS.forEach((v) => { $(`view-${v}`).hidden = v !== view; });
  document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.dataset.view === view));
  if (view !== 'account') state.flash = '';
  if (view === 'shop') renderShop();
  if (view === 'basket') renderBasket();
  if (view === 'checkout') {
    if (window.renderCheckout) window.renderCheckout();
    else $('view-checkout').innerHTML = '';
  }
  if (view === 'account') { state.subMsg = {}; state.confirming = null; renderAccount(); }
  updateNav();
}
window.addEventListener('hashchange', route);

Promise.all(['data/shop.json', 'data/products.json', 'data/account.json']
  .map((f) => fetch(f).then((r) => r.json()))).then(([shop, products, account]) => {
  state.shop = shop;
  state.products = products.products || [];
  state.customer = account.customer || null;
  TODAY = dayOf(shop.today);
  state.basket.freq = shop.defaultFrequency || 'fortnightly';
  const fromData = (account.subscriptions || []).map((s) => ({ ...s, skipped: [...(s.skipped || [])] }));
  state.subs = loadSubs(fromData);
  state.basket = loadBasket() || state.basket;
  route();
});
