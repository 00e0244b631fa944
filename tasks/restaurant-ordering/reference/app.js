/* Basil & Ember — online ordering for a single restaurant.
   Routes: #/ (menu + order panel)  #/checkout  #/order/<number>
   "Now" is never read from the real clock: ?now=YYYY-MM-DDTHH:MM, else restaurant.json "now". */
(() => {
  'use strict';

  const CART_KEY = 'be.cart.v1';
  const ORDER_KEY = 'be.lastOrder.v1';
  const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
  const DAY_LABEL = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0];
  const DIETS = [['vegetarian', 'Vegetarian'], ['vegan', 'Vegan'], ['gluten-free', 'Gluten-free']];
  const MAX_QTY = 20;

  // Optional behaviours register themselves here; the core calls them with ?.()
  const hooks = {};

  const state = {
    R: null,                 // restaurant.json
    categories: [],          // [{id, name}]
    tagNames: {},
    groups: {},              // option groups by id
    items: [],
    codes: [],
    now: null,               // {date: 'YYYY-MM-DD', min: minutes after midnight}
    filters: { cat: 'all', diet: [] },
    cart: { lines: [], fulfilment: 'delivery', code: null },
    nextUid: 1,
    dialog: null,            // {itemId, sel: {gid: [cid]}, qty, error}
    flash: null,
    codeMessage: null,
    lastOrder: null,
  };

  const app = document.getElementById('app');

  // ------------------------------------------------------------ helpers
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => (
    { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const cents = (x) => Math.round(Number(x) * 100);
  const money = (c) => '$' + (c / 100).toFixed(2);
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const itemById = (id) => state.items.find((i) => i.id === id);
  const pad = (n) => String(n).padStart(2, '0');

  function fmtTime(min) {
    const h = Math.floor(min / 60) % 24;
    const m = min % 60;
    return `${((h + 11) % 12) + 1}:${pad(m)} ${h < 12 ? 'AM' : 'PM'}`;
  }
  function parseHM(s) {
    const m = /^(\d{1,2}):(\d{2})$/.exec(String(s || '').trim());
    if (!m) return null;
    const h = Number(m[1]); const mm = Number(m[2]);
    if (h > 24 || mm > 59 || (h === 24 && mm > 0)) return null;
    return h * 60 + mm;
  }
  function parseStamp(s) {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(String(s || '').trim());
    if (!m) return null;
    const [y, mo, d, h, mi] = m.slice(1).map(Number);
    const dt = new Date(Date.UTC(y, mo - 1, d));
    if (dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d || h > 23 || mi > 59) return null;
    return { date: `${m[1]}-${m[2]}-${m[3]}`, min: h * 60 + mi };
  }
  const dateObj = (iso) => { const [y, m, d] = iso.split('-').map(Number); return new Date(Date.UTC(y, m - 1, d)); };
  const isoOf = (dt) => dt.toISOString().slice(0, 10);
  const addDays = (iso, k) => { const dt = dateObj(iso); dt.setUTCDate(dt.getUTCDate() + k); return isoOf(dt); };
  const dowOf = (iso) => dateObj(iso).getUTCDay();
  const validISODate = (s) => /^\d{4}-\d{2}-\d{2}$/.test(String(s || '')) && isoOf(dateObj(s)) === s;
  function niceDate(iso) {
    const dt = dateObj(iso);
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
    return `${months[dt.getUTCMonth()]} ${dt.getUTCDate()}, ${dt.getUTCFullYear()}`;
  }

  // ------------------------------------------------------------ opening hours (core)
  function intervalsFor(dow) {
    const raw = (state.R.hours || {})[DAYS[dow]];
    if (!Array.isArray(raw)) return [];
    return raw.map((s) => {
      const [a, b] = String(s).split('-');
      const open = parseHM(a); const close = parseHM(b);
      return open != null && close != null && close > open ? { open, close } : null;
    }).filter(Boolean).sort((x, y) => x.open - y.open);
  }
  function dayInfo(iso) {
    const closure = hooks.closureFor?.(iso) || null;
    if (closure) return { intervals: [], closure };
    return { intervals: intervalsFor(dowOf(iso)), closure: null };
  }
  function nextOpening() {
    const { date, min } = state.now;
    for (let k = 0; k < 14; k++) {
      const iso = addDays(date, k);
      const iv = dayInfo(iso).intervals.find((x) => k > 0 || x.open > min);
      if (iv) {
        const day = k === 0 ? 'today' : k === 1 ? 'tomorrow' : DAY_LABEL[dowOf(iso)];
        return { day, time: fmtTime(iv.open) };
      }
    }
    return null;
  }
  function orderingState() {
    const { date, min } = state.now;
    const today = dayInfo(date);
    const cur = today.intervals.find((x) => x.open <= min && min < x.close);
    const cutoff = Number(hooks.lastOrderMinutes?.() || 0);
    if (cur && min < cur.close - cutoff) {
      return { phase: 'open', accepting: true, closesAt: cur.close, lastOrder: cur.close - cutoff };
    }
    if (cur) return { phase: 'last-orders', accepting: false, closesAt: cur.close, lastOrder: cur.close - cutoff, next: nextOpening() };
    return { phase: 'closed', accepting: false, closure: today.closure, closedAllDay: !today.intervals.length, next: nextOpening() };
  }
  const canOrder = () => (hooks.canOrder ? hooks.canOrder() : true);

  hooks.closureFor = (iso) => {
    const list = Array.isArray(state.R.closures) ? state.R.closures : [];
    const hit = list.find((c) => c && validISODate(c.date) && c.date === iso);
    return hit ? (hit.reason || 'Closed') : null;
  };

  /* @feature last-orders */
  hooks.lastOrderMinutes = () => {
    const n = Number(state.R.lastOrderMinutes);
    return Number.isFinite(n) && n >= 0 ? n : 15;
  };
  /* @end last-orders */

  /* @feature open-status */
  hooks.statusPill = () => {
    const s = orderingState();
    const nextText = s.next ? `Opens ${s.next.day} at ${s.next.time}` : 'Opening hours to be announced';
    if (s.phase === 'open') {
      const last = hooks.lastOrderMinutes ? ` · last orders ${fmtTime(s.lastOrder)}` : '';
      return `<div class="status-pill is-open" id="open-status"><span class="pulse" aria-hidden="true"></span><strong>Open now</strong> <span>· until ${fmtTime(s.closesAt)}${last}</span></div>`;
    }
    if (s.phase === 'last-orders') {
      return `<div class="status-pill is-closing" id="open-status"><span class="pulse" aria-hidden="true"></span><strong>No longer taking orders</strong> <span>· closes ${fmtTime(s.closesAt)} · ${nextText}</span></div>`;
    }
    const head = s.closure ? `Closed today (${esc(s.closure)})` : s.closedAllDay ? 'Closed today' : 'Closed now';
    return `<div class="status-pill is-closed" id="open-status"><span class="pulse" aria-hidden="true"></span><strong>${head}</strong> <span>· ${nextText}</span></div>`;
  };
  /* @end open-status */

  /* @feature closed-guard */
  hooks.canOrder = () => orderingState().accepting;
  hooks.closedBanner = () => (orderingState().accepting ? '' : `<div class="closed-banner" role="alert">
      <svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 7v5l3 2" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/></svg>
      <div><strong>We're not taking orders right now.</strong> You can still browse the menu — ordering opens again with the kitchen.</div></div>`);
  hooks.checkoutClosed = () => `<div class="empty-state page-state">
      <h1>We're not taking orders right now</h1>
      <p>The kitchen is closed at the moment. Have a look at our opening hours and come back then.</p>
      <a class="btn btn-primary" href="#/">Back to menu</a></div>`;
  /* @end closed-guard */

  // ------------------------------------------------------------ menu data (core + fault tolerance)
  function normalizeMenu(raw) {
    state.categories = (Array.isArray(raw.categories) ? raw.categories : []).filter((c) => c && c.id && c.name);
    state.tagNames = raw.tags || {};
    const groups = {};
    Object.entries(raw.optionGroups || {}).forEach(([id, g]) => {
      if (!g || !Array.isArray(g.choices)) return;
      groups[id] = { id, name: String(g.name || 'Options'), type: g.type === 'multiple' ? 'multiple' : 'single',
        required: Boolean(g.required), max: Number(g.max) || null,
        choices: g.choices.map((c) => ({ id: String(c.id), name: String(c.name), price: Number(c.price) })) };
    });
    let items = (Array.isArray(raw.items) ? raw.items : []).filter((x) => x && x.id && x.name).map((x) => ({
      id: String(x.id), name: String(x.name), category: String(x.category || ''),
      description: String(x.description || ''), price: x.price == null ? NaN : Number(x.price),
      tags: Array.isArray(x.tags) ? x.tags.map(String) : [],
      options: Array.isArray(x.options) ? x.options.map(String) : [], soldOut: x.soldOut === true,
    }));
    if (hooks.sanitizeMenu) ({ items } = hooks.sanitizeMenu(items, groups));
    state.groups = groups;
    state.items = items;
  }

  /* @feature menu-faults */
  hooks.sanitizeMenu = (items, groups) => {
    Object.values(groups).forEach((g) => {
      g.choices = g.choices.filter((c) => c.id && c.name && Number.isFinite(c.price) && c.price >= 0);
    });
    const seen = new Set();
    const out = [];
    items.forEach((it) => {
      if (!Number.isFinite(it.price) || it.price <= 0) { console.warn(`Menu: "${it.name}" has no valid price and is hidden.`); return; }
      if (seen.has(it.id)) { console.warn(`Menu: duplicate id ${it.id} ("${it.name}") ignored.`); return; }
      seen.add(it.id);
      out.push({ ...it, tags: it.tags.filter((t) => Object.prototype.hasOwnProperty.call(state.tagNames, t)) });
    });
    return { items: out };
  };
  /* @end menu-faults */

  const itemGroups = (item) => item.options.map((gid) => state.groups[gid]).filter((g) => g && g.choices.length);
  const knownCategory = (id) => state.categories.some((c) => c.id === id);

  hooks.otherCategory = () => (state.items.some((i) => !knownCategory(i.category)) ? { id: '__other', name: 'Other' } : null);

  function sections() {
    const out = state.categories.map((c) => ({ ...c, items: state.items.filter((i) => i.category === c.id) }));
    const other = hooks.otherCategory?.();
    if (other) out.push({ ...other, items: state.items.filter((i) => !knownCategory(i.category)) });
    return out.filter((s) => s.items.length);
  }

  // ------------------------------------------------------------ pricing (core)
  function choiceList(item, sel) {
    const out = [];
    itemGroups(item).forEach((g) => {
      const ids = sel?.[g.id] || [];
      g.choices.forEach((c) => { if (ids.includes(c.id)) out.push({ group: g, choice: c }); });
    });
    return out;
  }
  function unitPrice(item, sel) {
    return cents(item.price) + choiceList(item, sel).reduce((s, x) => s + cents(x.choice.price), 0);
  }
  function optionText(item, sel) {
    return itemGroups(item).map((g) => {
      const ids = sel?.[g.id] || [];
      return g.choices.filter((c) => ids.includes(c.id)).map((c) => c.name).join(', ');
    }).filter(Boolean).join(' · ');
  }
  function signature(itemId, sel) {
    const item = itemById(itemId);
    const parts = item ? itemGroups(item).map((g) => `${g.id}=${(sel?.[g.id] || []).slice().sort().join('+')}`) : [];
    return `${itemId}|${parts.join(';')}`;
  }
  function fromPrice(item) {
    const extra = itemGroups(item).filter((g) => g.required && g.type === 'single')
      .reduce((s, g) => s + Math.min(...g.choices.map((c) => cents(c.price))), 0);
    const varies = itemGroups(item).some((g) => g.required && g.type === 'single' && new Set(g.choices.map((c) => c.price)).size > 1);
    return { amount: cents(item.price) + extra, from: varies };
  }

  function cartLines() {
    return state.cart.lines.map((l) => {
      const item = itemById(l.itemId);
      if (!item) return null;
      const unit = unitPrice(item, l.sel);
      return { ...l, item, unit, total: unit * l.qty, text: optionText(item, l.sel) };
    }).filter(Boolean);
  }

  function totals() {
    const lines = cartLines();
    const count = lines.reduce((n, l) => n + l.qty, 0);
    const subtotal = lines.reduce((s, l) => s + l.total, 0);
    let discount = { amount: 0 };
    if (lines.length && hooks.discount) discount = hooks.discount(subtotal) || { amount: 0 };
    const after = subtotal - discount.amount;
    const delivery = state.cart.fulfilment === 'delivery';
    let fee = null;
    if (delivery && lines.length) fee = hooks.deliveryFee?.(after) || { amount: 0, label: 'Free' };
    const minimum = delivery && lines.length ? (hooks.deliveryMinimum?.(after) || null) : null;
    return { lines, count, subtotal, discount, after, fee, minimum, total: after + (fee ? fee.amount : 0) };
  }

  function totalsHTML(t) {
    const rows = [`<div class="tl"><dt>Subtotal</dt> <dd>${money(t.subtotal)}</dd></div>`];
    if (t.discount.amount > 0) rows.push(`<div class="tl tl-discount"><dt>Discount (${esc(t.discount.code)})</dt> <dd>−${money(t.discount.amount)}</dd></div>`);
    if (t.fee) rows.push(`<div class="tl"><dt>Delivery fee</dt> <dd>${esc(t.fee.label)}</dd></div>`);
    rows.push(`<div class="tl tl-total"><dt>Total</dt> <dd>${money(t.total)}</dd></div>`);
    return `<dl class="totals">${rows.join('\n')}</dl>`;
  }

  function checkoutBlock(t) {
    if (!t.lines.length) return 'Add a dish to start your order.';
    if (!canOrder()) return 'Ordering is closed right now.';
    if (t.minimum) return t.minimum.text;
    return null;
  }

  // ------------------------------------------------------------ delivery rules
  /* @feature delivery-fee */
  hooks.deliveryFee = (after) => {
    const d = state.R.delivery || {};
    const threshold = cents(d.freeOver || 0);
    if (threshold && after >= threshold) return { amount: 0, label: 'Free' };
    return { amount: cents(d.fee || 0), label: money(cents(d.fee || 0)), hint: threshold ? `Add ${money(threshold - after)} more for free delivery.` : '' };
  };
  /* @end delivery-fee */
  /* @broken delivery-fee */
  hooks.deliveryFee = (after) => {
    const d = state.R.delivery || {};
    const threshold = cents(d.freeOver || 0);
    const before = cartLines().reduce((s, l) => s + l.total, 0);
    if (threshold && before >= threshold) return { amount: 0, label: 'Free' };
    return { amount: cents(d.fee || 0), label: money(cents(d.fee || 0)), hint: threshold ? `Add ${money(threshold - after)} more for free delivery.` : '' };
  };
  /* @end delivery-fee */

  /* @feature delivery-minimum */
  hooks.deliveryMinimum = (after) => {
    const min = cents(state.R.delivery?.minimumOrder || 0);
    if (!min || after >= min) return null;
    return { short: min - after, text: `Add ${money(min - after)} more to reach the ${money(min)} delivery minimum.` };
  };
  /* @end delivery-minimum */

  // ------------------------------------------------------------ promo codes
  const validCode = (c) => c && typeof c.code === 'string' && ['percent', 'fixed'].includes(c.type)
    && Number.isFinite(Number(c.value)) && typeof c.value === 'number' && c.value > 0;
  const findCode = (raw) => state.codes.filter(validCode)
    .find((c) => c.code.toUpperCase() === String(raw || '').trim().toUpperCase());
  const codeExpired = (c) => validISODate(c.validUntil) && c.validUntil < state.now.date;

  /* @feature promo-codes */
  hooks.applyCode = (raw, subtotal) => {
    const input = String(raw || '').trim();
    if (!input) return { kind: 'error', text: 'Enter a promo code.' };
    const entry = findCode(input);
    if (!entry) return { kind: 'error', text: `“${input.toUpperCase()}” isn't a valid promo code.` };
    if (codeExpired(entry)) return { kind: 'error', text: `${entry.code} expired on ${niceDate(entry.validUntil)}.` };
    const rule = hooks.promoRule?.(entry, 'apply');
    if (rule) return { kind: 'error', text: rule };
    if (entry.minSubtotal && subtotal < cents(entry.minSubtotal)) {
      return { kind: 'error', text: `${entry.code} needs an order of ${money(cents(entry.minSubtotal))} or more.` };
    }
    state.cart.code = entry.code;
    return { kind: 'ok', text: `${entry.code} applied: ${entry.description}.` };
  };
  hooks.discount = (subtotal) => {
    const entry = findCode(state.cart.code);
    if (!entry || codeExpired(entry)) return { amount: 0 };
    const rule = hooks.promoRule?.(entry, 'live');
    if (rule) return { amount: 0, note: `${rule} It isn't applied to this order.` };
    if (entry.minSubtotal && subtotal < cents(entry.minSubtotal)) {
      return { amount: 0, note: `${entry.code} needs an order of ${money(cents(entry.minSubtotal))} or more. It isn't applied to this order.` };
    }
    const amount = entry.type === 'percent' ? Math.round(subtotal * entry.value / 100) : Math.min(cents(entry.value), subtotal);
    return { amount, code: entry.code };
  };
  /* @end promo-codes */

  /* @feature promo-rules */
  hooks.promoRule = (entry) => {
    if (entry.fulfilment && entry.fulfilment !== state.cart.fulfilment) {
      return `${entry.code} is only valid for ${entry.fulfilment} orders.`;
    }
    if (Array.isArray(entry.timeWindow)) {
      const a = parseHM(entry.timeWindow[0]); const b = parseHM(entry.timeWindow[1]);
      if (a != null && b != null && !(state.now.min >= a && state.now.min < b)) {
        return `${entry.code} is only valid between ${fmtTime(a)} and ${fmtTime(b)}.`;
      }
    }
    return null;
  };
  /* @end promo-rules */
  /* @broken promo-rules */
  hooks.promoRule = (entry, when) => {
    if (when === 'live') return null;
    if (entry.fulfilment && entry.fulfilment !== state.cart.fulfilment) {
      return `${entry.code} is only valid for ${entry.fulfilment} orders.`;
    }
    if (Array.isArray(entry.timeWindow)) {
      const a = parseHM(entry.timeWindow[0]); const b = parseHM(entry.timeWindow[1]);
      if (a != null && b != null && !(state.now.min >= a && state.now.min < b)) {
        return `${entry.code} is only valid between ${fmtTime(a)} and ${fmtTime(b)}.`;
      }
    }
    return null;
  };
  /* @end promo-rules */

  // ------------------------------------------------------------ cart operations
  function persist() { hooks.saveCart?.(); }

  /* @feature cart-persist */
  hooks.saveCart = () => {
    try {
      localStorage.setItem(CART_KEY, JSON.stringify({
        lines: state.cart.lines.map((l) => ({ itemId: l.itemId, sel: l.sel, qty: l.qty })),
        fulfilment: state.cart.fulfilment, code: state.cart.code,
      }));
    } catch (e) { /* storage blocked */ }
  };
  hooks.loadCart = () => {
    try {
      const saved = JSON.parse(localStorage.getItem(CART_KEY) || 'null');
      if (!saved || typeof saved !== 'object') return;
      if (Array.isArray(saved.lines)) {
        state.cart.lines = saved.lines.filter((l) => {
          const item = l && itemById(l.itemId);
          return item && !item.soldOut && Number.isInteger(l.qty) && l.qty >= 1 && l.qty <= MAX_QTY;
        }).map((l) => ({ uid: state.nextUid++, itemId: l.itemId, sel: l.sel && typeof l.sel === 'object' ? l.sel : {}, qty: l.qty, sig: signature(l.itemId, l.sel) }));
      }
      if (saved.fulfilment === 'pickup' || saved.fulfilment === 'delivery') state.cart.fulfilment = saved.fulfilment;
      state.cart.code = typeof saved.code === 'string' ? saved.code : null;
    } catch (e) { /* corrupt entry: start empty */ }
  };
  /* @end cart-persist */

  function addLine(itemId, sel, qty) {
    const sig = signature(itemId, sel);
    const same = hooks.findMergeLine?.(sig, itemId);
    if (same) same.qty = Math.min(MAX_QTY, same.qty + qty);
    else state.cart.lines.push({ uid: state.nextUid++, itemId, sel, qty: Math.min(MAX_QTY, qty), sig });
    const item = itemById(itemId);
    state.flash = `Added ${qty > 1 ? `${qty} × ` : ''}${item.name} to your order.`;
    state.codeMessage = null;
    persist();
  }

  /* @feature line-merge */
  hooks.findMergeLine = (sig) => state.cart.lines.find((l) => l.sig === sig);
  /* @end line-merge */
  /* @broken line-merge */
  hooks.findMergeLine = (sig, itemId) => state.cart.lines.find((l) => l.itemId === itemId);
  /* @end line-merge */

  /* @feature cart-qty */
  hooks.changeQty = (uid, delta) => {
    const idx = state.cart.lines.findIndex((l) => l.uid === uid);
    if (idx < 0) return;
    const line = state.cart.lines[idx];
    const next = line.qty + delta;
    if (next < 1) state.cart.lines.splice(idx, 1);
    else line.qty = Math.min(MAX_QTY, next);
    state.flash = null;
    persist();
  };
  /* @end cart-qty */

  hooks.removeLine = (uid) => {
    state.cart.lines = state.cart.lines.filter((l) => l.uid !== uid);
    state.flash = null;
    persist();
  };

  function setFulfilment(mode) {
    if (mode !== 'delivery' && mode !== 'pickup') return;
    state.cart.fulfilment = mode;
    persist();
  }

  // ------------------------------------------------------------ header
  function renderHeader() {
    const slot = document.getElementById('status-slot');
    if (slot) slot.innerHTML = hooks.statusPill?.() || '';
    const addr = document.getElementById('hdr-address');
    if (addr) addr.textContent = state.R.address || '';
    const phone = document.getElementById('hdr-phone');
    if (phone) {
      phone.textContent = state.R.phone || '';
      phone.setAttribute('href', 'tel:' + String(state.R.phone || '').replace(/[^\d+]/g, ''));
    }
  }

  // ------------------------------------------------------------ menu view
  function dietMatches(item) {
    if (!state.filters.diet.length) return true;
    return hooks.dietMatch ? hooks.dietMatch(item, state.filters.diet) : true;
  }

  /* @feature diet-filter */
  hooks.dietMatch = (item, diets) => diets.every((d) => (d === 'vegetarian'
    ? item.tags.includes('vegetarian') || item.tags.includes('vegan')
    : item.tags.includes(d)));
  hooks.dietBar = () => `<div class="diet-bar" role="group" aria-label="Dietary filters">
      <span class="bar-label">Dietary</span>
      ${DIETS.map(([id, label]) => `<button type="button" class="chip chip-diet" data-diet="${id}" aria-pressed="${state.filters.diet.includes(id)}">${label}</button>`).join('')}
    </div>`;
  /* @end diet-filter */
  /* @broken diet-filter */
  hooks.dietMatch = (item, diets) => diets.every((d) => item.tags.includes(d));
  hooks.dietBar = () => `<div class="diet-bar" role="group" aria-label="Dietary filters">
      <span class="bar-label">Dietary</span>
      ${DIETS.map(([id, label]) => `<button type="button" class="chip chip-diet" data-diet="${id}" aria-pressed="${state.filters.diet.includes(id)}">${label}</button>`).join('')}
    </div>`;
  /* @end diet-filter */

  /* @feature category-nav */
  hooks.categoryNav = (all) => `<nav class="cat-nav" aria-label="Menu categories">
      ${[{ id: 'all', name: 'All' }, ...all].map((c) => `<button type="button" class="chip chip-cat" data-cat="${esc(c.id)}" aria-pressed="${state.filters.cat === c.id}">${esc(c.name)}</button>`).join('')}
    </nav>`;
  /* @end category-nav */

  function tagBadges(item) {
    let out = '';
    /* @feature diet-badges */
    out = item.tags.map((t) => `<span class="tag tag-${esc(t)}">${esc(state.tagNames[t] || t)}</span>`).join('');
    /* @end diet-badges */
    return out;
  }

  function cardHTML(item) {
    const soldOut = Boolean(hooks.isSoldOut?.(item));
    const p = fromPrice(item);
    const closed = !canOrder();
    const btn = soldOut
      ? '<button type="button" class="btn btn-add" disabled aria-label="Add ' + esc(item.name) + '">Sold out</button>'
      : `<button type="button" class="btn btn-add" data-add="${esc(item.id)}" aria-label="Add ${esc(item.name)}"${closed ? ' disabled' : ''}>
           <svg viewBox="0 0 20 20" aria-hidden="true"><path d="M10 4v12M4 10h12" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg>Add</button>`;
    return `<li><article class="dish${soldOut ? ' is-soldout' : ''}" aria-labelledby="dn-${esc(item.id)}">
      <div class="dish-body">
        <h3 class="dish-name" id="dn-${esc(item.id)}">${esc(item.name)}</h3>
        <p class="dish-desc">${esc(item.description)}</p>
        <div class="dish-tags">${tagBadges(item)}${soldOut ? '<span class="tag tag-soldout">Sold out</span>' : ''}</div>
      </div>
      <div class="dish-foot">
        <span class="dish-price">${p.from ? '<span class="from">From</span> ' : ''}${money(p.amount)}</span>
        ${btn}
      </div>
    </article></li>`;
  }

  /* @feature sold-out */
  hooks.isSoldOut = (item) => item.soldOut === true;
  /* @end sold-out */

  function renderMenuView() {
    const all = sections();
    app.innerHTML = `
      ${hooks.closedBanner?.() || ''}
      <div class="layout">
        <div class="menu-col">
          <section class="hero">
            <h1>Order for delivery or pickup</h1>
            <p>Sourdough pizzas from our wood oven, pasta rolled every morning, and seasonal plates from Bay Area farms.</p>
            ${hooks.infoStrip?.() || ''}
          </section>
          <div class="menu-toolbar">
            ${hooks.categoryNav?.(all.map(({ id, name }) => ({ id, name }))) || ''}
            ${hooks.dietBar?.() || ''}
          </div>
          <p class="result-count" id="result-count" aria-live="polite"></p>
          <div id="menu-host"></div>
        </div>
        <div class="side-col">
          <section class="cart-panel" id="cart-panel" aria-labelledby="cart-h"></section>
          ${hooks.hoursCard?.() || ''}
        </div>
      </div>
      <div id="dialog-host"></div>`;
    app.querySelectorAll('[data-cat]').forEach((b) => b.addEventListener('click', () => {
      state.filters.cat = b.dataset.cat;
      app.querySelectorAll('[data-cat]').forEach((x) => x.setAttribute('aria-pressed', String(x === b)));
      renderMenuList();
    }));
    app.querySelectorAll('[data-diet]').forEach((b) => b.addEventListener('click', () => {
      const d = b.dataset.diet;
      const on = state.filters.diet.includes(d);
      state.filters.diet = on ? state.filters.diet.filter((x) => x !== d) : [...state.filters.diet, d];
      b.setAttribute('aria-pressed', String(!on));
      renderMenuList();
    }));
    renderMenuList();
    renderCartPanel();
    renderDialog();
  }

  function renderMenuList() {
    const host = document.getElementById('menu-host');
    if (!host) return;
    const visible = sections()
      .filter((s) => state.filters.cat === 'all' || s.id === state.filters.cat || !hooks.categoryNav)
      .map((s) => ({ ...s, items: s.items.filter(dietMatches) }))
      .filter((s) => s.items.length);
    const n = visible.reduce((k, s) => k + s.items.length, 0);
    document.getElementById('result-count').textContent = plural(n, 'dish', 'dishes');
    if (!n) {
      host.innerHTML = `<div class="empty-state">
        <svg viewBox="0 0 64 64" aria-hidden="true"><circle cx="32" cy="34" r="20" fill="#f4e7d3"/><path d="M20 34h24" stroke="#c9a77c" stroke-width="3" stroke-linecap="round"/><path d="M44 14l-6 12M20 14l6 12" stroke="#c9a77c" stroke-width="3" stroke-linecap="round"/></svg>
        <h2>No dishes match these filters</h2>
        <p>Try another category or fewer dietary filters.</p>
        <button type="button" class="btn btn-secondary" id="clear-filters">Clear filters</button></div>`;
      host.querySelector('#clear-filters').addEventListener('click', () => {
        state.filters = { cat: 'all', diet: [] };
        renderMenuView();
      });
      return;
    }
    host.innerHTML = visible.map((s) => `<section class="menu-section" aria-labelledby="sec-${esc(s.id)}">
        <h2 id="sec-${esc(s.id)}">${esc(s.name)}</h2>
        <ul class="dish-grid">${s.items.map(cardHTML).join('')}</ul>
      </section>`).join('');
    host.querySelectorAll('[data-add]').forEach((b) => b.addEventListener('click', () => openItem(b.dataset.add)));
  }

  hooks.infoStrip = () => {
    const d = state.R.delivery || {};
    const eta = Array.isArray(d.etaMinutes) ? `${d.etaMinutes[0]}–${d.etaMinutes[1]} min` : '';
    return `<div class="info-strip">
      <div class="info-card"><svg class="info-ico" viewBox="0 0 24 24" aria-hidden="true"><circle cx="6" cy="17" r="2.5" fill="none" stroke="currentColor" stroke-width="1.8"/><circle cx="18" cy="17" r="2.5" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8.5 17h7M14 7h3l3 7M4 12h7l2 5" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/></svg><div><strong>Delivery</strong>
        <span>${money(cents(d.fee))} fee · free over ${money(cents(d.freeOver))} · ${money(cents(d.minimumOrder))} minimum · ${eta}</span></div></div>
      <div class="info-card"><svg class="info-ico" viewBox="0 0 24 24" aria-hidden="true"><path d="M5 8h14l-1 12H6z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/><path d="M9 8V6a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" stroke-width="1.8"/></svg><div><strong>Pickup</strong>
        <span>Ready in about ${Number(state.R.pickup?.readyInMinutes) || 20} min at ${esc(String(state.R.address || '').split(',')[0])}</span></div></div>
    </div>`;
  };

  /* @feature hours-table */
  hooks.hoursCard = () => {
    const todayDow = dowOf(state.now.date);
    const todayClosure = hooks.closureFor?.(state.now.date);
    const rows = WEEK_ORDER.map((dow) => {
      const iv = intervalsFor(dow);
      const isToday = dow === todayDow;
      let text = iv.length ? iv.map((x) => `${fmtTime(x.open)} – ${fmtTime(x.close)}`).join(', ') : 'Closed';
      if (isToday && todayClosure) text = `Closed today (${esc(todayClosure)})`;
      return `<tr class="${isToday ? 'is-today' : ''}"><th scope="row">${DAY_LABEL[dow]}${isToday ? ' <span class="today-tag">Today</span>' : ''}</th><td>${text}</td></tr>`;
    }).join('');
    return `<section class="hours-card" aria-labelledby="hours-h">
      <h2 id="hours-h">Opening hours</h2>
      <table class="hours" aria-label="Opening hours"><tbody>${rows}</tbody></table>
      <p class="muted small">Orders close ${Number(state.R.lastOrderMinutes) || 15} minutes before closing time.</p>
    </section>`;
  };
  /* @end hours-table */

  // ------------------------------------------------------------ order panel (cart)
  function fulfilmentHTML(name) {
    const f = state.cart.fulfilment;
    return `<fieldset class="fulfil" aria-label="Delivery or pickup">
      <legend class="sr-only">Delivery or pickup</legend>
      <label class="seg${f === 'delivery' ? ' is-on' : ''}"><input type="radio" name="${name}" value="delivery"${f === 'delivery' ? ' checked' : ''}> <span>Delivery</span></label>
      <label class="seg${f === 'pickup' ? ' is-on' : ''}"><input type="radio" name="${name}" value="pickup"${f === 'pickup' ? ' checked' : ''}> <span>Pickup</span></label>
    </fieldset>`;
  }

  function renderCartPanel() {
    const panel = document.getElementById('cart-panel');
    if (!panel) return;
    const t = totals();
    const block = checkoutBlock(t);
    const pickupNote = state.cart.fulfilment === 'pickup'
      ? `<p class="fulfil-note">Pickup at ${esc(String(state.R.address || '').split(',')[0])} · ready in about ${Number(state.R.pickup?.readyInMinutes) || 20} min</p>`
      : `<p class="fulfil-note">Delivered in ${(state.R.delivery?.etaMinutes || [35, 50]).join('–')} min</p>`;
    const promo = hooks.applyCode ? promoHTML(t) : '';
    panel.innerHTML = `
      <div class="cart-head"><h2 id="cart-h">Your order</h2><span class="cart-count">${plural(t.count, 'item', 'items')}</span></div>
      ${fulfilmentHTML('fulfilment')}
      ${pickupNote}
      ${state.flash ? `<p class="flash" role="status">✓ ${esc(state.flash)}</p>` : ''}
      ${t.lines.length ? `<ul class="lines">${t.lines.map(lineHTML).join('')}</ul>` : `<div class="cart-empty">
          <svg viewBox="0 0 48 48" aria-hidden="true"><path d="M9 18h30l-3 20H12z" fill="#f4e7d3"/><path d="M17 18c0-6 3-9 7-9s7 3 7 9" fill="none" stroke="#c9a77c" stroke-width="2.5"/></svg>
          <p><strong>Your order is empty</strong></p><p class="muted small">Add dishes from the menu to get started.</p></div>`}
      ${t.lines.length ? promo : ''}
      ${t.lines.length ? totalsHTML(t) : ''}
      ${t.fee?.hint ? `<p class="hint">${esc(t.fee.hint)}</p>` : ''}
      <button type="button" class="btn btn-primary btn-block" id="checkout-btn"${block ? ' disabled' : ''}>Checkout${t.lines.length ? ` · ${money(t.total)}` : ''}</button>
      ${block ? `<p class="block-note">${esc(block)}</p>` : ''}`;
    panel.querySelectorAll('input[name="fulfilment"]').forEach((r) => r.addEventListener('change', () => {
      setFulfilment(r.value);
      state.codeMessage = null;
      renderCartPanel();
    }));
    panel.querySelectorAll('[data-inc]').forEach((b) => b.addEventListener('click', () => { hooks.changeQty?.(Number(b.dataset.inc), 1); renderCartPanel(); }));
    panel.querySelectorAll('[data-dec]').forEach((b) => b.addEventListener('click', () => { hooks.changeQty?.(Number(b.dataset.dec), -1); renderCartPanel(); }));
    panel.querySelectorAll('[data-remove]').forEach((b) => b.addEventListener('click', () => { hooks.removeLine?.(Number(b.dataset.remove)); renderCartPanel(); }));
    const form = panel.querySelector('#promo-form');
    if (form) {
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        state.codeMessage = hooks.applyCode?.(form.querySelector('#promo-input').value, t.subtotal) || null;
        persist();
        renderCartPanel();
      });
      panel.querySelector('#remove-code')?.addEventListener('click', () => {
        state.cart.code = null; state.codeMessage = null; persist(); renderCartPanel();
      });
    }
    panel.querySelector('#checkout-btn').addEventListener('click', () => { location.hash = '#/checkout'; });
  }

  function lineHTML(l) {
    const label = [l.item.name, l.text].filter(Boolean).join(', ');
    return `<li class="line" aria-label="${esc(label)}">
      <div class="line-main">
        <span class="line-name">${esc(l.item.name)}</span>
        ${l.text ? `<span class="line-opts">${esc(l.text)}</span>` : ''}
        <span class="line-unit">${money(l.unit)} each</span>
      </div>
      <div class="line-side">
        <div class="stepper">
          <button type="button" class="step" data-dec="${l.uid}" aria-label="Decrease quantity of ${esc(l.item.name)}">−</button>
          <span class="qty" aria-label="Quantity">${l.qty}</span>
          <button type="button" class="step" data-inc="${l.uid}" aria-label="Increase quantity of ${esc(l.item.name)}"${l.qty >= MAX_QTY ? ' disabled' : ''}>+</button>
        </div>
        <span class="line-total">${money(l.total)}</span>
        <button type="button" class="link-btn" data-remove="${l.uid}" aria-label="Remove ${esc(l.item.name)}">Remove</button>
      </div>
    </li>`;
  }

  function promoHTML(t) {
    const msg = state.codeMessage;
    const note = t.discount.note;
    const applied = state.cart.code;
    return `<form id="promo-form" class="promo" novalidate>
        <label for="promo-input">Promo code</label>
        <div class="promo-row"><input id="promo-input" type="text" autocomplete="off" spellcheck="false" placeholder="e.g. WELCOME10">
        <button type="submit" class="btn btn-secondary">Apply</button></div>
        ${applied && t.discount.amount > 0 ? `<p class="code-chip">${esc(applied)} <button type="button" class="link-btn" id="remove-code">Remove code</button></p>` : ''}
        ${msg ? `<p class="promo-msg ${msg.kind === 'ok' ? 'is-ok' : 'is-error'}" role="${msg.kind === 'ok' ? 'status' : 'alert'}">${esc(msg.text)}</p>` : ''}
        ${!msg && note ? `<p class="promo-msg is-warn">${esc(note)}</p>` : ''}
        ${msg && msg.kind === 'ok' && note ? `<p class="promo-msg is-warn">${esc(note)}</p>` : ''}
      </form>`;
  }

  // ------------------------------------------------------------ item dialog
  function openItem(itemId) {
    const item = itemById(itemId);
    if (!item || !canOrder() || hooks.isSoldOut?.(item)) return;
    if (!itemGroups(item).length && hooks.quickAdd) { hooks.quickAdd(item); return; }
    const fresh = () => {
      const sel = {};
      itemGroups(item).forEach((g) => { sel[g.id] = []; });
      return { itemId, sel, qty: 1, error: null };
    };
    state.dialog = fresh();
    renderDialog();
    document.querySelector('.dialog [data-autofocus]')?.focus();
  }

  /* @feature quick-add */
  hooks.quickAdd = (item) => {
    addLine(item.id, {}, 1);
    renderCartPanel();
  };
  /* @end quick-add */

  // Updates the open dialog in place (price, quantity, limits, errors) so focus stays put.
  function refreshDialog() {
    const d = state.dialog;
    const item = d && itemById(d.itemId);
    const host = document.getElementById('dialog-host');
    if (!item || !host || !host.querySelector('.dialog')) return;
    host.querySelector('#dlg-add').textContent = hooks.addLabel ? hooks.addLabel(d, item) : 'Add to order';
    host.querySelector('#dlg-qty').textContent = String(d.qty);
    host.querySelector('#dlg-dec').disabled = d.qty <= 1;
    host.querySelector('#dlg-inc').disabled = d.qty >= MAX_QTY;
    itemGroups(item).forEach((g) => {
      const fs = host.querySelector(`fieldset[data-gid="${g.id}"]`);
      if (!fs) return;
      const sel = d.sel[g.id] || [];
      if (g.type === 'multiple') {
        const limit = hooks.extrasLimit?.(g) || null;
        fs.querySelectorAll('input[type="checkbox"]').forEach((inp) => {
          inp.disabled = limit != null && sel.length >= limit && !sel.includes(inp.value);
        });
      }
      const errEl = fs.querySelector('.group-error');
      const text = d.error && d.error.gid === g.id ? d.error.text : '';
      errEl.textContent = text;
      errEl.hidden = !text;
      fs.classList.toggle('has-error', Boolean(text));
    });
  }

  function closeDialog() {
    state.dialog = null;
    renderDialog();
  }

  function dialogPrice(d, item) {
    return unitPrice(item, d.sel) * d.qty;
  }

  /* @feature option-pricing */
  hooks.addLabel = (d, item) => `Add to order · ${money(dialogPrice(d, item))}`;
  /* @end option-pricing */

  /* @feature extras-limit */
  hooks.extrasLimit = (g) => (g.type === 'multiple' && g.max ? g.max : null);
  /* @end extras-limit */

  /* @feature size-required */
  hooks.missingRequired = (d, item) => itemGroups(item).find((g) => g.required && !(d.sel[g.id] || []).length) || null;
  /* @end size-required */

  function groupHTML(g, d) {
    const sel = d.sel[g.id] || [];
    const limit = hooks.extrasLimit?.(g) || null;
    const full = limit != null && sel.length >= limit;
    const errText = d.error && d.error.gid === g.id ? d.error.text : '';
    const err = `<p class="group-error" role="alert"${errText ? '' : ' hidden'}>${esc(errText)}</p>`;
    const badge = g.required ? '<span class="req">Required</span>'
      : (g.type === 'multiple' ? `<span class="opt">${limit ? `Choose up to ${limit}` : 'Optional'}</span>` : '<span class="opt">Optional</span>');
    const choices = g.choices.map((c) => {
      const on = sel.includes(c.id);
      const delta = cents(c.price) ? `+${money(cents(c.price))}` : '';
      if (g.type === 'multiple') {
        return `<label class="choice"><input type="checkbox" data-g="${esc(g.id)}" value="${esc(c.id)}"${on ? ' checked' : ''}${full && !on ? ' disabled' : ''}> <span class="c-name">${esc(c.name)}</span> <span class="c-delta">${delta}</span></label>`;
      }
      return `<label class="choice"><input type="radio" name="g-${esc(g.id)}" data-g="${esc(g.id)}" value="${esc(c.id)}"${on ? ' checked' : ''}> <span class="c-name">${esc(c.name)}</span> <span class="c-delta">${delta}</span></label>`;
    });
    if (g.type === 'single' && !g.required) {
      choices.unshift(`<label class="choice"><input type="radio" name="g-${esc(g.id)}" data-g="${esc(g.id)}" value=""${sel.length ? '' : ' checked'}> <span class="c-name">No thanks</span> <span class="c-delta"></span></label>`);
    }
    return `<fieldset class="opt-group${errText ? ' has-error' : ''}" data-gid="${esc(g.id)}">
        <legend><span class="g-name">${esc(g.name)}</span> ${badge}</legend>
        ${err}
        <div class="choices">${choices.join('')}</div>
      </fieldset>`;
  }

  function renderDialog() {
    const host = document.getElementById('dialog-host');
    if (!host) return;
    const d = state.dialog;
    const item = d && itemById(d.itemId);
    if (!d || !item) { host.innerHTML = ''; document.body.classList.remove('has-dialog'); return; }
    document.body.classList.add('has-dialog');
    const label = hooks.addLabel ? hooks.addLabel(d, item) : 'Add to order';
    host.innerHTML = `<div class="backdrop" data-close="1">
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="dlg-title">
        <div class="dialog-head">
          <div><h2 id="dlg-title">${esc(item.name)}</h2><p class="muted">${esc(item.description)}</p>
            <div class="dish-tags">${tagBadges(item)}</div></div>
          <button type="button" class="icon-btn" id="dlg-close" aria-label="Close">×</button>
        </div>
        <div class="dialog-body">
          <p class="base-price">Base price ${money(cents(item.price))}</p>
          ${itemGroups(item).map((g) => groupHTML(g, d)).join('')}
        </div>
        <div class="dialog-foot">
          <div class="stepper stepper-lg">
            <button type="button" class="step" id="dlg-dec" aria-label="Decrease quantity"${d.qty <= 1 ? ' disabled' : ''}>−</button>
            <span class="qty" id="dlg-qty" aria-label="Quantity">${d.qty}</span>
            <button type="button" class="step" id="dlg-inc" aria-label="Increase quantity"${d.qty >= MAX_QTY ? ' disabled' : ''}>+</button>
          </div>
          <button type="button" class="btn btn-primary" id="dlg-add" data-autofocus${canOrder() ? '' : ' disabled'}>${esc(label)}</button>
        </div>
      </div></div>`;
    host.querySelector('#dlg-close').addEventListener('click', closeDialog);
    host.querySelector('.backdrop').addEventListener('click', (e) => { if (e.target.dataset.close) closeDialog(); });
    host.querySelectorAll('input[data-g]').forEach((inp) => inp.addEventListener('change', () => {
      const g = state.groups[inp.dataset.g];
      if (g.type === 'multiple') {
        const cur = d.sel[g.id] || [];
        d.sel[g.id] = inp.checked ? [...cur.filter((x) => x !== inp.value), inp.value] : cur.filter((x) => x !== inp.value);
      } else {
        d.sel[g.id] = inp.value ? [inp.value] : [];
      }
      if (d.error && d.error.gid === g.id) d.error = null;
      refreshDialog();
    }));
    host.querySelector('#dlg-dec').addEventListener('click', () => { d.qty = Math.max(1, d.qty - 1); refreshDialog(); });
    host.querySelector('#dlg-inc').addEventListener('click', () => { d.qty = Math.min(MAX_QTY, d.qty + 1); refreshDialog(); });
    host.querySelector('#dlg-add').addEventListener('click', () => {
      if (!canOrder()) return;
      const missing = hooks.missingRequired?.(d, item);
      if (missing) {
        d.error = { gid: missing.id, text: `Please choose a ${missing.name.toLowerCase()}.` };
        refreshDialog();
        host.querySelector(`fieldset[data-gid="${missing.id}"] input`)?.focus();
        return;
      }
      const sel = {};
      Object.entries(d.sel).forEach(([k, v]) => { if (v.length) sel[k] = v.slice(); });
      addLine(item.id, sel, d.qty);
      state.dialog = null;
      renderDialog();
      renderCartPanel();
    });
  }

  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && state.dialog) closeDialog();
  });

  // ------------------------------------------------------------ checkout
  const FIELDS = [
    { name: 'name', label: 'Full name', type: 'text', autocomplete: 'name', group: 'contact' },
    { name: 'phone', label: 'Phone', type: 'tel', autocomplete: 'tel', group: 'contact', hint: 'We text you when your order is ready.' },
    { name: 'email', label: 'Email (optional)', type: 'text', autocomplete: 'email', group: 'contact', optional: true },
    { name: 'street', label: 'Street address', type: 'text', autocomplete: 'street-address', group: 'address' },
    { name: 'zip', label: 'ZIP code', type: 'text', autocomplete: 'postal-code', group: 'address', hint: 'We deliver to 94103, 94107, 94110 and 94114.' },
  ];

  /* @feature checkout-validation */
  hooks.validate = (v, mode) => {
    const errors = {};
    if (v.name.trim().length < 2) errors.name = 'Enter your name';
    const digits = v.phone.replace(/[\s().+-]/g, '');
    if (!v.phone.trim()) errors.phone = 'Enter your phone number';
    else if (!/^\d+$/.test(digits) || !(digits.length === 10 || (digits.length === 11 && digits[0] === '1'))) errors.phone = 'Enter a valid 10-digit phone number';
    if (v.email.trim() && !/^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/.test(v.email.trim())) errors.email = 'Enter a valid email address';
    if (mode === 'delivery') {
      if (!v.street.trim()) errors.street = 'Enter your street address';
      if (!v.zip.trim()) errors.zip = 'Enter your ZIP code';
      else if (!/^\d{5}$/.test(v.zip.trim())) errors.zip = 'Enter a valid 5-digit ZIP code';
    }
    return errors;
  };
  /* @end checkout-validation */

  hooks.zoneError = (zip) => {
    const zips = (state.R.delivery?.zips || []).map(String);
    if (/^\d{5}$/.test(zip) && zips.length && !zips.includes(zip)) {
      return `Sorry, we don't deliver to ${zip}. Choose pickup or use another address.`;
    }
    return null;
  };

  function renderCheckout() {
    if (!canOrder() && hooks.checkoutClosed) { app.innerHTML = hooks.checkoutClosed(); return; }
    const t = totals();
    if (!t.lines.length) {
      app.innerHTML = `<div class="empty-state page-state"><h1>Your order is empty</h1>
        <p>There's nothing to check out yet — add a few dishes first.</p><a class="btn btn-primary" href="#/">Back to menu</a></div>`;
      return;
    }
    const mode = state.cart.fulfilment;
    const keep = state.formValues || {};
    const field = (fd) => `<div class="form-field" data-field="${fd.name}">
        <label for="f-${fd.name}">${fd.label}</label>
        <input id="f-${fd.name}" name="${fd.name}" type="${fd.type}" autocomplete="${fd.autocomplete}" value="${esc(keep[fd.name] || '')}"${fd.optional ? '' : ' aria-required="true"'}${fd.hint ? ` aria-describedby="h-${fd.name}"` : ''}>
        ${fd.hint ? `<p class="field-hint" id="h-${fd.name}">${fd.hint}</p>` : ''}
        <p class="field-error" id="e-${fd.name}" hidden></p>
      </div>`;
    const block = checkoutBlock(t);
    app.innerHTML = `
      <nav class="crumbs" aria-label="Breadcrumb"><a href="#/">← Back to menu</a></nav>
      <h1 class="page-title">Checkout</h1>
      <div class="checkout-layout">
        <form id="checkout-form" class="checkout-form" novalidate>
          <p class="form-alert" id="form-alert" role="alert" hidden></p>
          <fieldset class="card-fs"><legend>How would you like your order?</legend>
            ${fulfilmentHTML('co-fulfilment')}
            <p class="muted small">${mode === 'pickup' ? `Pickup from ${esc(state.R.address)}.` : 'We deliver within the Mission, SoMa and Castro.'}</p>
          </fieldset>
          <fieldset class="card-fs"><legend>Contact</legend>${FIELDS.filter((x) => x.group === 'contact').map(field).join('')}</fieldset>
          ${mode === 'delivery' ? `<fieldset class="card-fs"><legend>Delivery address</legend>${FIELDS.filter((x) => x.group === 'address').map(field).join('')}</fieldset>` : ''}
          <fieldset class="card-fs"><legend>Notes for the kitchen</legend>
            <label for="f-notes" class="sr-only">Notes for the kitchen</label>
            <textarea id="f-notes" name="notes" rows="2" maxlength="200" placeholder="Allergies, buzzer code, no basil…">${esc(keep.notes || '')}</textarea></fieldset>
          ${block ? `<p class="block-note">${esc(block)}</p>` : ''}
          <button type="submit" class="btn btn-primary btn-lg"${block ? ' disabled' : ''}>Place order · ${money(t.total)}</button>
          <p class="muted small">Pay by card or cash on ${mode === 'pickup' ? 'pickup' : 'delivery'}.</p>
        </form>
        <section class="summary-card" aria-labelledby="sum-h">
          <h2 id="sum-h">Order summary</h2>
          <ul class="mini-lines">${t.lines.map((l) => `<li><span><strong>${l.qty} × ${esc(l.item.name)}</strong>${l.text ? `<span class="muted small"> ${esc(l.text)}</span>` : ''}</span><span>${money(l.total)}</span></li>`).join('')}</ul>
          ${totalsHTML(t)}
          <a href="#/" class="small">Edit order</a>
        </section>
      </div>`;

    const form = app.querySelector('#checkout-form');
    let attempted = Boolean(state.formAttempted);
    const present = FIELDS.filter((fd) => form.elements[fd.name]);
    const values = () => {
      const v = Object.fromEntries(FIELDS.map((fd) => [fd.name, form.elements[fd.name]?.value || '']));
      v.notes = form.elements.notes.value;
      return v;
    };
    const collect = () => {
      const v = values();
      const errors = hooks.validate?.(v, state.cart.fulfilment) || {};
      if (state.cart.fulfilment === 'delivery' && !errors.zip) {
        const z = hooks.zoneError?.(v.zip.trim());
        if (z) errors.zip = z;
      }
      return errors;
    };
    const show = (errors) => {
      present.forEach((fd) => {
        const input = form.elements[fd.name];
        const el = form.querySelector(`#e-${fd.name}`);
        const msg = errors[fd.name];
        el.hidden = !msg;
        el.textContent = msg || '';
        input.setAttribute('aria-invalid', msg ? 'true' : 'false');
        const described = [fd.hint ? `h-${fd.name}` : '', msg ? `e-${fd.name}` : ''].filter(Boolean).join(' ');
        if (described) input.setAttribute('aria-describedby', described); else input.removeAttribute('aria-describedby');
      });
      const n = Object.keys(errors).length;
      const alert = form.querySelector('#form-alert');
      alert.hidden = n === 0;
      alert.textContent = n ? `Please fix ${plural(n, 'field', 'fields')} below.` : '';
    };
    form.querySelectorAll('input[name="co-fulfilment"]').forEach((r) => r.addEventListener('change', () => {
      state.formValues = values();
      setFulfilment(r.value);
      renderCheckout();
    }));
    form.addEventListener('input', (e) => {
      if (e.target.name === 'co-fulfilment') return;
      state.formValues = values();
      if (attempted) show(collect());
    });
    if (attempted) show(collect());
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      attempted = true;
      state.formAttempted = true;
      const errors = collect();
      show(errors);
      const first = present.find((fd) => errors[fd.name]);
      if (first) { form.elements[first.name].focus(); return; }
      if (checkoutBlock(totals())) return;
      hooks.placeOrder?.(values());
    });
  }

  /* @feature place-order */
  hooks.placeOrder = (v) => {
    const t = totals();
    if (!t.lines.length) return;
    const number = 'BE-' + String(10000 + Math.floor(Math.random() * 90000));
    state.lastOrder = makeOrder(number, v, t);
    try { localStorage.setItem(ORDER_KEY, JSON.stringify(state.lastOrder)); } catch (e) { /* ignore */ }
    state.cart = { lines: [], fulfilment: state.cart.fulfilment, code: null };
    state.codeMessage = null; state.flash = null; state.formValues = null; state.formAttempted = false;
    persist();
    location.hash = `#/order/${number}`;
  };
  /* @end place-order */
  /* @broken place-order */
  hooks.placeOrder = (v) => {
    const t = totals();
    if (!t.lines.length) return;
    const number = 'BE-' + String(10000 + Math.floor(Math.random() * 90000));
    state.lastOrder = makeOrder(number, v, t);
    try { localStorage.setItem(ORDER_KEY, JSON.stringify(state.lastOrder)); } catch (e) { /* ignore */ }
    state.formValues = null; state.formAttempted = false;
    location.hash = `#/order/${number}`;
  };
  /* @end place-order */

  function makeOrder(number, v, t) {
    return {
      number, placedAt: `${state.now.date}T${pad(Math.floor(state.now.min / 60))}:${pad(state.now.min % 60)}`,
      nowMin: state.now.min, mode: state.cart.fulfilment,
      customer: { name: v.name.trim(), phone: v.phone.trim(), email: v.email.trim(), street: v.street.trim(), zip: v.zip.trim(), notes: v.notes.trim() },
      lines: t.lines.map((l) => ({ name: l.item.name, text: l.text, qty: l.qty, total: l.total })),
      subtotal: t.subtotal, discount: t.discount.amount, code: t.discount.code || null,
      fee: t.fee ? { amount: t.fee.amount, label: t.fee.label } : null, total: t.total,
    };
  }

  hooks.eta = (order) => {
    if (order.mode === 'pickup') {
      return `Ready for pickup at about ${fmtTime(order.nowMin + (Number(state.R.pickup?.readyInMinutes) || 20))}`;
    }
    const [a, b] = state.R.delivery?.etaMinutes || [35, 50];
    return `Estimated delivery ${fmtTime(order.nowMin + a)} – ${fmtTime(order.nowMin + b)}`;
  };

  function renderOrder(number) {
    let order = state.lastOrder;
    if (!order) { try { order = JSON.parse(localStorage.getItem(ORDER_KEY) || 'null'); } catch (e) { order = null; } }
    if (!order || order.number !== number) {
      app.innerHTML = `<div class="empty-state page-state"><h1>Order not found</h1>
        <p>We couldn't find order ${esc(number)} in this browser.</p><a class="btn btn-secondary" href="#/">Back to menu</a></div>`;
      return;
    }
    const c = order.customer;
    const first = c.name.split(/\s+/)[0];
    const eta = hooks.eta?.(order) || (order.mode === 'pickup' ? "We'll text you when it's ready." : "We'll text you when it's on its way.");
    app.innerHTML = `
      <section class="confirm">
        <div class="confirm-head">
          <svg viewBox="0 0 48 48" aria-hidden="true" class="confirm-icon"><circle cx="24" cy="24" r="22" fill="#2f6f4e"/><path d="M14 24.5l6.5 6.5L34 17.5" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>
          <div><h1>Order confirmed</h1>
            <p class="order-number">Order number <strong>${esc(order.number)}</strong></p></div>
        </div>
        <p class="eta">${esc(eta)}</p>
        <p>Thanks, ${esc(first)}! Your order is with the kitchen. We'll text updates to ${esc(c.phone)}${c.email ? ` and email a receipt to ${esc(c.email)}` : ''}.</p>
        <div class="confirm-grid">
          <section class="summary-card" aria-labelledby="sum-h">
            <h2 id="sum-h">Order summary</h2>
            <ul class="mini-lines">${order.lines.map((l) => `<li><span><strong>${l.qty} × ${esc(l.name)}</strong>${l.text ? `<span class="muted small"> ${esc(l.text)}</span>` : ''}</span><span>${money(l.total)}</span></li>`).join('')}</ul>
            ${totalsHTML({ subtotal: order.subtotal, discount: { amount: order.discount, code: order.code }, fee: order.fee, total: order.total })}
          </section>
          <section class="ship-card" aria-labelledby="ship-h">
            <h2 id="ship-h">${order.mode === 'pickup' ? 'Pickup' : 'Delivery'}</h2>
            ${order.mode === 'pickup'
              ? `<p>Pick up at <strong>${esc(state.R.address)}</strong></p>`
              : `<address>${esc(c.name)}<br>${esc(c.street)}<br>San Francisco, CA ${esc(c.zip)}</address>`}
            ${c.notes ? `<p class="muted small">Note: ${esc(c.notes)}</p>` : ''}
            <p class="muted small">Payment by card or cash on ${order.mode === 'pickup' ? 'pickup' : 'delivery'}.</p>
            <a class="btn btn-primary" href="#/">Back to menu</a>
          </section>
        </div>
      </section>`;
  }

  // ------------------------------------------------------------ router
  function route() {
    const hash = location.hash.replace(/^#/, '') || '/';
    const parts = hash.split('/').filter(Boolean);
    let title = state.R?.name || 'Order online';
    renderHeader();
    if (parts[0] === 'checkout') {
      title = `Checkout · ${title}`;
      renderCheckout();
    } else if (parts[0] === 'order' && parts[1]) {
      title = `Order confirmed · ${title}`;
      renderOrder(decodeURIComponent(parts[1]));
    } else {
      state.dialog = null;
      state.formAttempted = false;
      renderMenuView();
    }
    document.title = title;
    window.scrollTo(0, 0);
  }

  async function boot() {
    try {
      const [restaurant, menu, promos] = await Promise.all(
        ['data/restaurant.json', 'data/menu.json', 'data/promo-codes.json'].map((u) => fetch(u).then((r) => {
          if (!r.ok) throw new Error(`${u}: HTTP ${r.status}`);
          return r.json();
        })));
      state.R = restaurant || {};
      normalizeMenu(menu || {});
      state.codes = Array.isArray(promos?.codes) ? promos.codes : [];
    } catch (err) {
      app.innerHTML = `<div class="empty-state page-state"><h1>We couldn't load the menu</h1><p>${esc(err.message)}</p>
        <button class="btn btn-secondary" type="button" onclick="location.reload()">Try again</button></div>`;
      return;
    }
    const param = new URLSearchParams(location.search).get('now');
    state.now = (param && parseStamp(param)) || parseStamp(state.R.now) || { date: '2025-06-13', min: 19 * 60 + 10 };
    hooks.loadCart?.();
    window.addEventListener('hashchange', route);
    route();
  }

  boot();
})();
