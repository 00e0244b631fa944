'use strict';
// Lyric Picturehouse ticket shop: films, showings and taken seats from data/cinema.json, dated by
// its fixed "now"; bookings kept in localStorage.
const STORE = 'lyric-picturehouse-bookings-v1';
const WD = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TYPES = [['adult', 'Adult'], ['child', 'Child'], ['concession', 'Concession']];
const MAX_SEATS = 8;

const state = { data: null, films: [], showings: [], bookings: [], current: null, selected: [],
                promo: null, lastBooking: null, seatMsg: '' };
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const money = (n) => '$' + (Math.round(n * 100) / 100).toFixed(2);
const normCode = (c) => String(c ?? '').trim().toUpperCase();

// ------------------------------------------------------------------ dates
function parts(iso) {
  const [d, t = '00:00'] = String(iso).split('T');
  const [y, m, day] = d.split('-').map(Number);
  return { y, m, day, time: t.slice(0, 5), date: new Date(Date.UTC(y, m - 1, day)) };
}
function whenLabel(iso) {
  const p = parts(iso);
  return `${WD[p.date.getUTCDay()]} ${p.day} ${MON[p.m - 1]} ${p.time}`;
}
const isMatinee = (sh) => parts(sh.starts).time < '17:00';

// ------------------------------------------------------------------ persistence
function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify(state.bookings));
  /* @end persist */
}
function loadSaved() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (Array.isArray(saved)) return saved;
  } catch (e) { /* unreadable: no bookings */ }
  /* @end persist */
  return [];
}

// ------------------------------------------------------------------ data
function seatsOf(screen) {
  const out = [];
  screen.rows.forEach((r) => { for (let n = 1; n <= screen.seats_per_row; n += 1) out.push(`${r}${n}`); });
  return out;
}
const seatOrder = (a, b) => (a[0] === b[0] ? Number(a.slice(1)) - Number(b.slice(1)) : a[0] < b[0] ? -1 : 1);

function prepare(data) {
  const screens = Object.fromEntries(data.screens.map((s) => [s.id, s]));
  let shows = data.showings.map((sh) => {
    const screen = screens[sh.screen];
    let taken = (sh.taken || []).map(String);
    /* @feature seat-data */
    const valid = new Set(seatsOf(screen));
    taken = [...new Set(taken.map((s) => s.trim().toUpperCase()))].filter((s) => valid.has(s));
    /* @end seat-data */
    /* @broken seat-data */
    taken = [...new Set(taken.map((s) => s.trim().toUpperCase()))];
    /* @end seat-data */
    return { ...sh, screen, taken };
  });
  /* @feature hide-past */
  shows = shows.filter((sh) => sh.starts >= data.now);
  /* @end hide-past */
  /* @broken hide-past */
  shows = shows.filter((sh) => sh.starts.slice(0, 10) >= data.now.slice(0, 10));
  /* @end hide-past */
  /* @feature dedupe-showings */
  const seen = new Set();
  shows = shows.filter((sh) => {
    const key = `${sh.film}|${sh.screen.id}|${sh.starts}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  /* @end dedupe-showings */
  /* @feature showtime-order */
  shows.sort((a, b) => (a.starts < b.starts ? -1 : a.starts > b.starts ? 1 : 0));
  /* @end showtime-order */
  state.showings = shows;
  state.films = data.films.filter((f) => shows.some((sh) => sh.film === f.id));
  state.codes = (data.promo_codes || []).map((p) => {
    let code = String(p.code);
    /* @feature promo-case */
    code = normCode(code);
    /* @end promo-case */
    return { ...p, code };
  });
}

// seats taken in a showing: the data's, plus the ones booked here
function takenSeats(sh) {
  const taken = [...sh.taken];
  /* @feature taken-after-booking */
  state.bookings.filter((b) => b.showing === sh.id).forEach((b) => taken.push(...b.seats));
  /* @end taken-after-booking */
  /* @broken taken-after-booking */
  state.bookings.filter((b) => b.film === sh.film).forEach((b) => taken.push(...b.seats));
  /* @end taken-after-booking */
  return taken;
}
const seatsFree = (sh) => seatsOf(sh.screen).length - takenSeats(sh).length;

// ------------------------------------------------------------------ what's on
function ratingLabel(f) {
  let label = '';
  /* @feature rating */
  label = f.rating ? `Rated ${f.rating}` : 'Not yet rated';
  /* @end rating */
  /* @broken rating */
  label = `Rated ${f.rating}`;
  /* @end rating */
  return label;
}
function runtimeLabel(f) {
  let label = `${f.runtime_min} min`;
  /* @feature runtime */
  label = `${Math.floor(f.runtime_min / 60)} h ${f.runtime_min % 60} min`;
  /* @end runtime */
  /* @broken runtime */
  label = `${Math.round(f.runtime_min / 60)} h ${f.runtime_min % 60} min`;
  /* @end runtime */
  return label;
}
function renderList() {
  $('now-line').textContent = `Showing from ${whenLabel(state.data.now)}`;
  $('films').innerHTML = state.films.map((f) => {
    const times = state.showings.filter((sh) => sh.film === f.id).map((sh) => {
      let soldOut = false;
      /* @feature sold-out */
      soldOut = seatsFree(sh) <= 0;
      /* @end sold-out */
      return soldOut
        ? `<button type="button" disabled>${whenLabel(sh.starts)} <span class="so">Sold out</span></button>`
        : `<button type="button" data-show="${esc(sh.id)}">${whenLabel(sh.starts)}</button>`;
    }).join('');
    const meta = [ratingLabel(f), runtimeLabel(f), f.genre].filter(Boolean).map(esc).join(' · ');
    return `<article class="film" aria-labelledby="film-${esc(f.id)}">
      <h3 id="film-${esc(f.id)}">${esc(f.title)}</h3>
      <p class="meta">${meta}</p>
      <div class="times">${times}</div></article>`;
  }).join('');
}

// ------------------------------------------------------------------ booking page
function openShowing(id) {
  const sh = state.showings.find((x) => x.id === id);
  if (!sh) { location.hash = '#/'; return; }
  state.current = sh;
  state.selected = [];
  state.promo = null;
  state.seatMsg = '';
  const film = state.data.films.find((f) => f.id === sh.film);
  $('sh-title').textContent = film.title;
  let info = `${whenLabel(sh.starts)} · ${sh.screen.name}`;
  /* @feature matinee */
  if (isMatinee(sh)) info += ' · Matinée';
  /* @end matinee */
  /* @broken matinee */
  if (isMatinee(sh)) info += ' · Matinée';
  /* @end matinee */
  $('sh-info').textContent = info;
  TYPES.forEach(([k]) => {
    if ($(`t-${k}`)) $(`t-${k}`).value = '0';
    if ($(`p-${k}`)) $(`p-${k}`).textContent = money(unitPrice(k));
  });
  if ($('promo-code')) $('promo-code').value = '';
  if ($('promo-ok')) $('promo-ok').textContent = '';
  if ($('promo-err')) $('promo-err').textContent = '';
  $('checkout').reset();
  $('checkout-msg').textContent = '';
  renderSeats();
  renderOrder();
}

function seatName(id, taken, wheelchair) {
  let name = id;
  /* @feature wheelchair */
  if (wheelchair) name += ', wheelchair space';
  /* @end wheelchair */
  if (taken) name += ', taken';
  return name;
}

function renderSeats() {
  const sh = state.current;
  const taken = new Set(takenSeats(sh));
  const wc = new Set(sh.screen.wheelchair || []);
  $('seatmap').innerHTML = sh.screen.rows.map((r) => {
    let cells = '';
    for (let n = 1; n <= sh.screen.seats_per_row; n += 1) {
      const id = `${r}${n}`;
      const isTaken = taken.has(id);
      const sel = state.selected.includes(id);
      cells += `<button type="button" class="seat${wc.has(id) ? ' wc' : ''}" data-seat="${id}"
        aria-label="${seatName(id, isTaken, wc.has(id))}" aria-pressed="${sel}"${isTaken ? ' disabled' : ''}>${wc.has(id) ? '♿' : n}</button>`;
      if (n === sh.screen.aisle_after) cells += '<span class="aisle" aria-hidden="true"></span>';
    }
    return `<div class="srow"><span class="rl" aria-hidden="true">${r}</span>${cells}<span class="rl" aria-hidden="true">${r}</span></div>`;
  }).join('');
  const total = seatsOf(sh.screen).length;
  $('seats-free').textContent = `${seatsFree(sh)} of ${total} seats free`;
  const sel = [...state.selected].sort(seatOrder);
  $('seats-selected').textContent = sel.length === 0 ? 'No seats selected.'
    : `${sel.length} seat${sel.length > 1 ? 's' : ''} selected: ${sel.join(', ')}`;
  let note = '';
  /* @feature wheelchair */
  const w = sel.filter((s) => wc.has(s)).length;
  if (w) note = `Includes ${w} wheelchair space${w > 1 ? 's' : ''}.`;
  /* @end wheelchair */
  $('seats-note').textContent = note;
  $('seats-msg').textContent = state.seatMsg;
}

function toggleSeat(id) {
  state.seatMsg = '';
  if (state.selected.includes(id)) {
    state.selected = state.selected.filter((s) => s !== id);
  } else {
    /* @feature seat-limit */
    if (state.selected.length >= MAX_SEATS) { state.seatMsg = `You can choose up to ${MAX_SEATS} seats.`; renderSeats(); return; }
    /* @end seat-limit */
    /* @broken seat-limit */
    if (state.selected.length > MAX_SEATS) { state.seatMsg = `You can choose up to ${MAX_SEATS} seats.`; renderSeats(); return; }
    /* @end seat-limit */
    state.selected = [...state.selected, id];
  }
  renderSeats();
  renderOrder();
}

// ------------------------------------------------------------------ prices
function unitPrice(type) {
  const p = state.data.prices;
  let price = p[type];
  /* @feature matinee */
  if (state.current && isMatinee(state.current)) price -= p.matinee_discount;
  /* @end matinee */
  /* @broken matinee */
  if (state.current && isMatinee(state.current) && type === 'adult') price -= p.matinee_discount;
  /* @end matinee */
  return price;
}
const ticketCounts = () => Object.fromEntries(TYPES.map(([k]) => [k, Math.max(0, parseInt($(`t-${k}`)?.value, 10) || 0)]));

function promoCheck(code) {
  const def = state.codes.find((p) => p.code === code);
  if (!def) return { error: 'Unknown promo code.' };
  /* @feature promo-rules */
  if (state.data.now.slice(0, 10) > def.expires) return { error: 'This code has expired.' };
  if (def.weekday) {
    const day = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][parts(state.current.starts).date.getUTCDay()];
    if (day !== def.weekday) return { error: `This code is only valid for ${def.weekday} showings.` };
  }
  /* @end promo-rules */
  /* @broken promo-rules */
  if (state.data.now.slice(0, 10) > def.expires) return { error: 'This code has expired.' };
  if (def.weekday) {
    const day = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'][parts(state.current.starts).date.getUTCDay()];
    if (day !== def.weekday) return { error: `This code is only valid for ${def.weekday} showings.` };
  }
  /* @end promo-rules */
  return { def };
}

function order() {
  const counts = ticketCounts();
  const n = counts.adult + counts.child + counts.concession;
  const lines = TYPES.filter(([k]) => counts[k] > 0).map(([k, label]) => ({ label: `${label} × ${counts[k]}`, amount: counts[k] * unitPrice(k) }));
  const tickets = lines.reduce((s, l) => s + l.amount, 0);
  let fee = 0;
  /* @feature fee */
  fee = n * state.data.prices.booking_fee;
  /* @end fee */
  /* @broken fee */
  fee = n > 0 ? state.data.prices.booking_fee : 0;
  /* @end fee */
  let discount = 0;
  /* @feature promo */
  if (state.promo) {
    const p = state.promo;
    discount = p.kind === 'percent' ? Math.round(tickets * p.value) / 100 : Math.min(p.value * n, tickets);
  }
  /* @end promo */
  /* @broken promo */
  if (state.promo) {
    const p = state.promo;
    discount = p.kind === 'percent' ? Math.round((tickets + fee) * p.value) / 100 : Math.min(p.value * n, tickets);
  }
  /* @end promo */
  return { counts, n, lines, tickets, fee, discount, total: tickets + fee - discount };
}

function ticketMismatch(o) {
  const seats = state.selected.length;
  let bad = false;
  /* @feature ticket-match */
  bad = seats > 0 && o.n !== seats;
  /* @end ticket-match */
  return bad ? `Ticket types must add up to ${seats} seat${seats > 1 ? 's' : ''}.` : '';
}

function renderOrder() {
  if (!state.current) return;
  const o = order();
  const row = (label, amount, cls = '') => `<div class="${cls}"><dt>${esc(label)}</dt> <dd>${amount}</dd></div>`;
  let html = o.lines.map((l) => row(l.label, money(l.amount))).join('');
  html += row('Tickets', money(o.tickets), 'sum');
  html += row('Booking fee', money(o.fee));
  if (state.promo && o.discount > 0) html += row(`Promo ${state.promo.code}`, `−${money(o.discount)}`, 'disc');
  html += row('Total', money(o.total), 'sum total');
  $('summary').innerHTML = html;
  if ($('tickets-msg')) $('tickets-msg').textContent = ticketMismatch(o);
}

/* @feature promo */
function applyPromo() {
  let typed = $('promo-code').value;
  /* @feature promo-case */
  typed = normCode(typed);
  /* @end promo-case */
  $('promo-ok').textContent = '';
  $('promo-err').textContent = '';
  state.promo = null;
  if (typed.trim()) {
    const r = promoCheck(typed);
    if (r.error) $('promo-err').textContent = r.error;
    else { state.promo = r.def; $('promo-ok').textContent = `${r.def.code} applied.`; }
  }
  renderOrder();
}
/* @end promo */
/* @broken promo */
function applyPromo() {
  let typed = $('promo-code').value;
  /* @feature promo-case */
  typed = normCode(typed);
  /* @end promo-case */
  $('promo-ok').textContent = '';
  $('promo-err').textContent = '';
  state.promo = null;
  if (typed.trim()) {
    const r = promoCheck(typed);
    if (r.error) $('promo-err').textContent = r.error;
    else { state.promo = r.def; $('promo-ok').textContent = `${r.def.code} applied.`; }
  }
  renderOrder();
}
/* @end promo */

// ------------------------------------------------------------------ checkout
function checkoutError(o) {
  if (state.selected.length === 0) return 'Choose at least one seat.';
  const mismatch = ticketMismatch(o);
  if (mismatch) return mismatch;
  if (o.n === 0) return `Ticket types must add up to ${state.selected.length} seats.`;
  /* @feature checkout-validation */
  if (!$('c-name').value.trim()) return 'Enter your full name.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test($('c-email').value.trim())) return 'Enter a valid email address.';
  if (!/^\d{16}$/.test($('c-card').value.replace(/\s+/g, ''))) return 'Card number must be 16 digits.';
  const exp = $('c-exp').value.trim().match(/^(\d{2})\s*\/\s*(\d{2})$/);
  if (!exp || Number(exp[1]) < 1 || Number(exp[1]) > 12) return 'Enter the expiry as MM/YY.';
  const now = parts(state.data.now);
  const cardMonth = (2000 + Number(exp[2])) * 12 + Number(exp[1]);
  if (cardMonth < now.y * 12 + now.m) return 'This card has expired.';
  /* @end checkout-validation */
  /* @broken checkout-validation */
  if (!$('c-name').value.trim()) return 'Enter your full name.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test($('c-email').value.trim())) return 'Enter a valid email address.';
  if (!/^\d{16}$/.test($('c-card').value.replace(/\s+/g, ''))) return 'Card number must be 16 digits.';
  const exp = $('c-exp').value.trim().match(/^(\d{2})\s*\/\s*(\d{2})$/);
  if (!exp || Number(exp[1]) < 1 || Number(exp[1]) > 12) return 'Enter the expiry as MM/YY.';
  if (2000 + Number(exp[2]) < parts(state.data.now).y) return 'This card has expired.';
  /* @end checkout-validation */
  return '';
}

function checkout(e) {
  e.preventDefault();
  const o = order();
  const err = checkoutError(o);
  $('checkout-msg').textContent = err;
  if (err) return;
  const sh = state.current;
  const film = state.data.films.find((f) => f.id === sh.film);
  let ref = '';
  /* @feature booking-ref */
  ref = `CT-${1001 + state.bookings.length}`;
  /* @end booking-ref */
  /* @broken booking-ref */
  ref = 'CT-1001';
  /* @end booking-ref */
  const booking = {
    ref, showing: sh.id, film: sh.film, title: film.title,
    when: `${whenLabel(sh.starts)} · ${sh.screen.name}`,
    seats: [...state.selected].sort(seatOrder),
    lines: o.lines.map((l) => `${l.label} ${money(l.amount)}`),
    fee: o.fee, discount: o.discount, promo: state.promo ? state.promo.code : '', total: o.total,
    email: $('c-email').value.trim(), name: $('c-name').value.trim(),
  };
  state.bookings.push(booking);
  state.lastBooking = booking;
  save();
  location.hash = '#/confirmation';
}

function renderConfirm() {
  const b = state.lastBooking || state.bookings[state.bookings.length - 1];
  if (!b) { $('confirm-body').innerHTML = '<p>No booking yet.</p>'; return; }
  $('confirm-body').innerHTML = `<p class="ref">Booking reference ${esc(b.ref)}</p>
    <p><strong>${esc(b.title)}</strong></p><p>${esc(b.when)}</p>
    <p>Seats ${esc(b.seats.join(', '))}</p>
    <ul>${b.lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>
    <p>Booking fee ${money(b.fee)}</p>
    ${b.discount ? `<p>Promo ${esc(b.promo)} −${money(b.discount)}</p>` : ''}
    <p class="strong">Total ${money(b.total)}</p>
    <p class="sub">A confirmation has been sent to ${esc(b.email)}.</p>`;
}

/* @feature my-bookings */
function renderBookings() {
  const list = [...state.bookings].reverse();
  $('bookings-empty').hidden = list.length > 0;
  $('bookings').innerHTML = list.map((b) => `<li>
    <h3>${esc(b.ref)}</h3><p><strong>${esc(b.title)}</strong></p><p>${esc(b.when)}</p>
    <p>Seats ${esc(b.seats.join(', '))}</p><p>Total ${money(b.total)}</p></li>`).join('');
}
/* @end my-bookings */

// ------------------------------------------------------------------ routing and wiring
function route() {
  const h = location.hash || '#/';
  const show = (id) => document.querySelectorAll('.view').forEach((v) => { v.hidden = v.id !== id; });
  let m;
  if ((m = h.match(/^#\/showing\/(\w+)/))) { show('view-showing'); openShowing(m[1]); }
  else if (h === '#/confirmation') { show('view-confirm'); renderConfirm(); }
  else if (h === '#/bookings' && $('view-bookings')) { show('view-bookings'); window.renderBookings?.(); }
  else { show('view-list'); state.current = null; renderList(); }
  window.scrollTo(0, 0);
}

$('films').addEventListener('click', (e) => {
  const b = e.target.closest('[data-show]');
  if (b) location.hash = `#/showing/${b.dataset.show}`;
});
$('seatmap').addEventListener('click', (e) => {
  const b = e.target.closest('[data-seat]');
  if (b && !b.disabled) toggleSeat(b.dataset.seat);
});
TYPES.forEach(([k]) => $(`t-${k}`)?.addEventListener('input', renderOrder));
$('promo-apply')?.addEventListener('click', () => window.applyPromo?.());
$('promo-code')?.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); window.applyPromo?.(); } });
$('checkout').addEventListener('submit', checkout);
window.addEventListener('hashchange', route);

fetch('data/cinema.json').then((r) => r.json()).then((data) => {
  state.data = data;
  state.bookings = loadSaved();
  prepare(data);
  route();
});
