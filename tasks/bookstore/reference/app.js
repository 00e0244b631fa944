/* Paper Lantern Books — a small single-page bookshop.
   Routes: #/  #/book/<id>  #/cart  #/checkout  #/order/<number> */
(() => {
  'use strict';

  const CART_KEY = 'plb.cart.v1';
  const ORDER_KEY = 'plb.lastOrder.v1';
  const FORMAT_LABEL = { hardcover: 'Hardcover', paperback: 'Paperback', ebook: 'Ebook' };

  // Optional behaviours register themselves here; the core calls them with ?.()
  const hooks = {};

  const state = {
    store: null,
    books: [],
    codes: [],
    cart: { lines: [], code: null },
    filters: { q: '', category: '', sort: 'featured' },
    detail: { id: null, format: null, message: null, feedback: null },
    cartMessages: {},       // line key -> error text
    codeMessage: null,      // {kind: 'error'|'ok', text}
    lastOrder: null,
  };

  const app = document.getElementById('app');

  // ------------------------------------------------------------ helpers
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => (
    { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const cents = (x) => Math.round(Number(x) * 100);
  const money = (c) => '$' + (c / 100).toFixed(2);
  const fmtLabel = (f) => FORMAT_LABEL[f] || f;
  const isDigital = (sku) => sku.format === 'ebook' || sku.stock == null;
  const bookById = (id) => state.books.find((b) => b.id === id);
  const skuOf = (book, fmt) => book && book.formats.find((f) => f.format === fmt);
  const fromPrice = (book) => Math.min(...book.formats.map((f) => cents(f.price)));
  const lineKey = (id, fmt) => `${id}|${fmt}`;
  const cartCount = () => state.cart.lines.reduce((n, l) => n + l.qty, 0);
  const inCart = (id, fmt) => {
    const l = state.cart.lines.find((x) => x.id === id && x.format === fmt);
    return l ? l.qty : 0;
  };
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const isUnavailable = (book) => Boolean(hooks.unavailable?.(book));
  const coverHTML = (book, size) => hooks.cover?.(book, size)
    ?? `<div class="cover-fallback cover-${size}" style="background:${esc(book.cover?.bg || '#ccc')}"></div>`;

  function defaultFormat(book) {
    const s = book.formats.find((f) => isDigital(f) || f.stock > 0) || book.formats[0];
    return s.format;
  }

  function stockText(sku) {
    const out = hooks.stockState?.(sku);
    if (out) return out.label;
    if (isDigital(sku)) return 'Instant download';
    return `${sku.stock} in stock`;
  }

  function persist() { hooks.saveCart?.(); hooks.updateBadge?.(); }

  // ------------------------------------------------------------ totals
  function cartLines() {
    return state.cart.lines
      .map((l) => {
        const book = bookById(l.id);
        const sku = skuOf(book, l.format);
        return book && sku ? { ...l, book, sku, unit: cents(sku.price), total: cents(sku.price) * l.qty } : null;
      })
      .filter(Boolean);
  }

  function totals() {
    const lines = cartLines();
    const subtotal = lines.reduce((s, l) => s + l.total, 0);
    let discount = { amount: 0 };
    if (lines.length && hooks.discount) discount = hooks.discount(subtotal) || { amount: 0 };
    const afterDiscount = subtotal - discount.amount;
    let shipping = { amount: 0, label: '—' };
    if (lines.length) {
      shipping = { amount: cents(state.store.shipping.standard), label: money(cents(state.store.shipping.standard)) };
      const rule = hooks.shipping?.(lines, afterDiscount);
      if (rule) shipping = rule;
    }
    return { lines, subtotal, discount, afterDiscount, shipping, total: afterDiscount + shipping.amount };
  }

  function summaryLines(t) {
    const rows = [`<div class="sl"><dt>Subtotal</dt> <dd>${money(t.subtotal)}</dd></div>`];
    if (t.discount.amount > 0) {
      rows.push(`<div class="sl sl-discount"><dt>Discount (${esc(t.discount.code)})</dt> <dd>−${money(t.discount.amount)}</dd></div>`);
    }
    rows.push(`<div class="sl"><dt>Shipping</dt> <dd>${esc(t.shipping.label)}</dd></div>`);
    rows.push(`<div class="sl sl-total"><dt>Total</dt> <dd>${money(t.total)}</dd></div>`);
    return `<dl class="summary-lines">\n${rows.join('\n')}\n</dl>`;
  }

  // ------------------------------------------------------------ cover art
  /* @feature cover-art */
  const MOTIFS = {
    waves: (fg) => [0, 1, 2, 3].map((i) => `<path d="M0 ${150 + i * 14} q 25 -10 50 0 t 50 0 t 50 0 t 50 0" fill="none" stroke="${fg}" stroke-opacity="${0.5 - i * 0.1}" stroke-width="2"/>`).join(''),
    branches: (fg) => `<path d="M100 210 V120 M100 170 l-30 -25 M100 150 l28 -22 M100 132 l-18 -18" stroke="${fg}" stroke-opacity=".5" stroke-width="3" fill="none" stroke-linecap="round"/>` + [[70, 145], [128, 128], [82, 114]].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="5" fill="${fg}" fill-opacity=".55"/>`).join(''),
    arches: (fg) => [0, 1, 2].map((i) => `<path d="M${40 + i * 44} 215 v-40 a20 20 0 0 1 40 0 v40" fill="none" stroke="${fg}" stroke-opacity=".45" stroke-width="2.5"/>`).join(''),
    beam: (fg) => `<path d="M100 130 L20 95 L20 125 Z M100 130 L180 95 L180 125 Z" fill="${fg}" fill-opacity=".18"/><rect x="92" y="130" width="16" height="80" fill="${fg}" fill-opacity=".5"/><rect x="88" y="120" width="24" height="12" fill="${fg}" fill-opacity=".8"/>`,
    shards: (fg) => `<path d="M40 200 L80 140 L95 205 Z M100 205 L130 130 L160 200 Z M70 150 L100 120 L110 160 Z" fill="${fg}" fill-opacity=".3"/>`,
    reeds: (fg) => Array.from({ length: 9 }, (_, i) => `<path d="M${30 + i * 18} 215 q ${i % 2 ? 6 : -6} -40 ${i % 3 - 1} -${60 + (i % 4) * 12}" stroke="${fg}" stroke-opacity=".45" stroke-width="2" fill="none"/>`).join(''),
    rings: (fg) => [18, 32, 46].map((r) => `<circle cx="100" cy="160" r="${r}" fill="none" stroke="${fg}" stroke-opacity=".4" stroke-width="2"/>`).join(''),
    gears: (fg) => `<circle cx="80" cy="165" r="30" fill="none" stroke="${fg}" stroke-width="6" stroke-dasharray="8 6" stroke-opacity=".6"/><circle cx="128" cy="140" r="20" fill="none" stroke="${fg}" stroke-width="5" stroke-dasharray="6 5" stroke-opacity=".5"/><circle cx="80" cy="165" r="8" fill="${fg}" fill-opacity=".6"/>`,
    birds: (fg) => [[50, 150], [75, 135], [105, 160], [130, 128], [150, 150], [90, 118]].map(([x, y]) => `<path d="M${x} ${y} q6 -6 12 0 q6 -6 12 0" fill="none" stroke="${fg}" stroke-opacity=".6" stroke-width="2"/>`).join(''),
    orbits: (fg) => `<ellipse cx="100" cy="160" rx="70" ry="18" fill="none" stroke="${fg}" stroke-opacity=".45"/><ellipse cx="100" cy="160" rx="45" ry="11" fill="none" stroke="${fg}" stroke-opacity=".35"/><circle cx="100" cy="160" r="14" fill="${fg}" fill-opacity=".7"/><circle cx="166" cy="154" r="4" fill="${fg}"/>`,
    scales: (fg) => Array.from({ length: 12 }, (_, i) => `<path d="M${35 + (i % 4) * 36 + (Math.floor(i / 4) % 2) * 18} ${140 + Math.floor(i / 4) * 22} a18 18 0 0 0 36 0" fill="none" stroke="${fg}" stroke-opacity=".4" stroke-width="2"/>`).join(''),
    columns: (fg) => [0, 1, 2, 3].map((i) => `<rect x="${38 + i * 36}" y="135" width="14" height="70" fill="${fg}" fill-opacity=".35"/>`).join('') + `<path d="M28 135 h144 l-72 -22 z" fill="${fg}" fill-opacity=".45"/>`,
    snow: (fg) => Array.from({ length: 22 }, (_, i) => `<circle cx="${(i * 37) % 190 + 5}" cy="${110 + (i * 53) % 100}" r="${1.5 + (i % 3)}" fill="${fg}" fill-opacity=".6"/>`).join(''),
    roots: (fg) => `<path d="M100 120 v30 M100 150 q-20 20 -45 55 M100 150 q18 25 40 55 M100 165 q-5 25 -10 45 M78 180 q-20 5 -30 20 M122 182 q15 6 28 18" stroke="${fg}" stroke-opacity=".5" stroke-width="2.5" fill="none" stroke-linecap="round"/>`,
    stars: (fg) => Array.from({ length: 18 }, (_, i) => `<circle cx="${(i * 47) % 180 + 10}" cy="${105 + (i * 31) % 105}" r="${i % 5 === 0 ? 2.6 : 1.3}" fill="${fg}" fill-opacity=".8"/>`).join(''),
    leaves: (fg) => [[60, 160, -30], [100, 140, 10], [140, 170, 40], [95, 190, -10]].map(([x, y, a]) => `<path transform="rotate(${a} ${x} ${y})" d="M${x} ${y - 22} q16 22 0 44 q-16 -22 0 -44z" fill="${fg}" fill-opacity=".4"/>`).join(''),
    wheat: (fg) => [70, 100, 130].map((x) => `<path d="M${x} 215 V135" stroke="${fg}" stroke-opacity=".6" stroke-width="2"/>` + [0, 1, 2, 3].map((k) => `<ellipse cx="${x - 6}" cy="${140 + k * 12}" rx="4" ry="8" transform="rotate(-25 ${x - 6} ${140 + k * 12})" fill="${fg}" fill-opacity=".55"/><ellipse cx="${x + 6}" cy="${140 + k * 12}" rx="4" ry="8" transform="rotate(25 ${x + 6} ${140 + k * 12})" fill="${fg}" fill-opacity=".55"/>`).join('')).join(''),
    steam: (fg) => `<path d="M50 200 h100 a10 10 0 0 1 -10 14 h-80 a10 10 0 0 1 -10 -14z" fill="${fg}" fill-opacity=".55"/>` + [80, 100, 120].map((x) => `<path d="M${x} 190 q-8 -15 0 -30 t0 -30" fill="none" stroke="${fg}" stroke-opacity=".45" stroke-width="2.5" stroke-linecap="round"/>`).join(''),
  };

  function wrapTitle(title, max) {
    const words = title.split(/\s+/);
    const lines = [];
    let cur = '';
    for (const w of words) {
      if ((cur + ' ' + w).trim().length > max && cur) { lines.push(cur); cur = w; } else cur = (cur + ' ' + w).trim();
    }
    if (cur) lines.push(cur);
    return lines.slice(0, 4);
  }

  hooks.cover = (book, size) => {
    const c = book.cover || { bg: '#444', fg: '#eee', motif: 'rings' };
    const title = book.title.split(':')[0];
    const lines = wrapTitle(title, 13);
    const fs = lines.length > 2 ? 17 : 20;
    const motif = (MOTIFS[c.motif] || MOTIFS.rings)(c.fg);
    const gid = `g-${book.id}-${size}`;
    const text = lines.map((ln, i) => `<text x="100" y="${38 + i * (fs + 5)}" text-anchor="middle" font-size="${fs}" font-family="Iowan Old Style, Palatino Linotype, Palatino, Georgia, serif" font-weight="700" fill="${c.fg}">${esc(ln)}</text>`).join('');
    return `<svg class="cover cover-${size}" viewBox="0 0 200 300" role="img" aria-label="Cover of ${esc(book.title)}" preserveAspectRatio="xMidYMid slice">
      <defs><linearGradient id="${gid}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c.bg}"/><stop offset="1" stop-color="${c.bg}" stop-opacity=".78"/></linearGradient></defs>
      <rect width="200" height="300" fill="${c.bg}"/><rect width="200" height="300" fill="url(#${gid})"/>
      <rect x="0" y="0" width="7" height="300" fill="#000" fill-opacity=".18"/>
      ${text}${motif}
      <line x1="60" x2="140" y1="250" y2="250" stroke="${c.fg}" stroke-opacity=".5"/>
      <text x="100" y="272" text-anchor="middle" font-size="11" letter-spacing="2" font-family="system-ui, sans-serif" fill="${c.fg}" fill-opacity=".9">${esc(book.author.toUpperCase())}</text>
    </svg>`;
  };
  /* @end cover-art */

  // ------------------------------------------------------------ persistence
  /* @feature cart-persist */
  hooks.saveCart = () => {
    try { localStorage.setItem(CART_KEY, JSON.stringify(state.cart)); } catch (e) { /* storage full or blocked */ }
  };
  hooks.loadCart = () => {
    try {
      const saved = JSON.parse(localStorage.getItem(CART_KEY) || 'null');
      if (!saved || !Array.isArray(saved.lines)) return;
      state.cart.lines = saved.lines
        .filter((l) => skuOf(bookById(l.id), l.format) && Number.isInteger(l.qty) && l.qty > 0)
        .map((l) => ({ id: l.id, format: l.format, qty: l.qty }));
      state.cart.code = typeof saved.code === 'string' ? saved.code : null;
    } catch (e) { /* corrupt entry: start with an empty cart */ }
  };
  /* @end cart-persist */
  /* @broken cart-persist */
  hooks.saveCart = () => {
    try { localStorage.setItem(CART_KEY, JSON.stringify(state.cart)); } catch (e) { /* ignore */ }
  };
  hooks.loadCart = () => {
    try {
      const saved = JSON.parse(localStorage.getItem(CART_KEY) || 'null');
      if (!saved || !Array.isArray(saved.lines)) return;
      state.cart.lines = saved.lines
        .filter((l) => skuOf(bookById(l.id), l.format))
        .map((l) => ({ id: l.id, format: l.format, qty: 1 }));
      state.cart.code = saved.code || null;
    } catch (e) { /* ignore */ }
  };
  /* @end cart-persist */

  // ------------------------------------------------------------ header badge
  /* @feature cart-badge */
  hooks.updateBadge = () => {
    const label = document.querySelector('#cart-link .cart-label');
    if (label) label.textContent = `Cart (${cartCount()})`;
  };
  /* @end cart-badge */
  /* @broken cart-badge */
  hooks.updateBadge = () => {
    const label = document.querySelector('#cart-link .cart-label');
    if (label) label.textContent = `Cart (${state.cart.lines.length})`;
  };
  /* @end cart-badge */

  // ------------------------------------------------------------ catalog: filtering, search, sort
  /* @feature category-filter */
  hooks.categories = () => [...new Set(state.books.map((b) => b.category))].sort((a, b) => a.localeCompare(b));
  hooks.filterCategory = (list, cat) => (cat ? list.filter((b) => b.category === cat) : list);
  /* @end category-filter */
  /* @broken category-filter */
  hooks.categories = () => [...new Set(state.books.map((b) => b.category))].sort((a, b) => a.localeCompare(b));
  hooks.filterCategory = (list, cat) => (cat ? list.filter((b) => b.category.startsWith(cat.split(' ')[0])) : list);
  /* @end category-filter */

  /* @feature search */
  hooks.search = (list, q) => {
    const needle = q.trim().toLowerCase();
    if (!needle) return list;
    return list.filter((b) => b.title.toLowerCase().includes(needle) || b.author.toLowerCase().includes(needle));
  };
  /* @end search */
  /* @broken search */
  hooks.search = (list, q) => {
    const needle = q.trim().toLowerCase();
    if (!needle) return list;
    return list.filter((b) => b.title.toLowerCase().includes(needle));
  };
  /* @end search */

  /* @feature price-sort */
  hooks.sort = (list, key) => {
    const byTitle = (a, b) => a.title.localeCompare(b.title);
    const out = list.slice();
    if (key === 'price-asc') out.sort((a, b) => fromPrice(a) - fromPrice(b) || byTitle(a, b));
    else if (key === 'price-desc') out.sort((a, b) => fromPrice(b) - fromPrice(a) || byTitle(a, b));
    else if (key === 'title') out.sort(byTitle);
    else if (key === 'newest') out.sort((a, b) => b.published - a.published || byTitle(a, b));
    return out;
  };
  /* @end price-sort */
  /* @broken price-sort */
  hooks.sort = (list, key) => {
    const byTitle = (a, b) => a.title.localeCompare(b.title);
    const firstPrice = (b) => cents(b.formats[0].price);
    const out = list.slice();
    if (key === 'price-asc') out.sort((a, b) => firstPrice(a) - firstPrice(b) || byTitle(a, b));
    else if (key === 'price-desc') out.sort((a, b) => firstPrice(b) - firstPrice(a) || byTitle(a, b));
    else if (key === 'title') out.sort(byTitle);
    else if (key === 'newest') out.sort((a, b) => b.published - a.published || byTitle(a, b));
    return out;
  };
  /* @end price-sort */

  // ------------------------------------------------------------ availability rules
  /* @feature discontinued */
  hooks.unavailable = (book) => book.status === 'discontinued';
  hooks.unavailableBadge = (book) => (book.status === 'discontinued' ? '<span class="badge badge-muted">Unavailable</span>' : '');
  hooks.unavailableNotice = () => `<div class="notice notice-muted" role="note">
      <strong>This title is no longer available.</strong>
      It has been discontinued by the publisher, so it can't be ordered. Browse the
      <a href="#/">catalog</a> for something similar.</div>`;
  /* @end discontinued */
  /* @broken discontinued */
  hooks.unavailableBadge = (book) => (book.status === 'discontinued' ? '<span class="badge badge-muted">Unavailable</span>' : '');
  /* @end discontinued */

  /* @feature stock-guard */
  hooks.stockState = (sku) => (!isDigital(sku) && sku.stock <= 0
    ? { label: 'Out of stock', message: `The ${fmtLabel(sku.format).toLowerCase()} is out of stock. Choose another format or check back soon.` }
    : null);
  /* @end stock-guard */
  /* @broken stock-guard */
  hooks.stockState = (sku) => (!isDigital(sku) && sku.stock <= 0
    ? { label: 'Out of stock', message: `The ${fmtLabel(sku.format).toLowerCase()} is out of stock. Choose another format or check back soon.`, allowAdd: true }
    : null);
  /* @end stock-guard */

  /* @feature qty-limit */
  hooks.checkQty = (sku, qty, already) => {
    if (!Number.isInteger(qty) || qty < 1) return 'Enter a quantity of at least 1.';
    if (isDigital(sku)) return null;
    if (qty + already > sku.stock) {
      return already > 0
        ? `Sorry, only ${sku.stock} in stock and ${plural(already, 'copy is', 'copies are')} already in your cart.`
        : `Sorry, only ${sku.stock} in stock.`;
    }
    return null;
  };
  /* @end qty-limit */
  /* @broken qty-limit */
  hooks.checkQty = (sku, qty) => {
    if (!Number.isInteger(qty) || qty < 1) return 'Enter a quantity of at least 1.';
    if (isDigital(sku)) return null;
    if (qty > sku.stock) return `Sorry, only ${sku.stock} in stock.`;
    return null;
  };
  /* @end qty-limit */

  // ------------------------------------------------------------ discounts & shipping
  function codeExpired(entry, now = new Date()) {
    const [y, m, d] = String(entry.expires || '').split('-').map(Number);
    if (!y) return false;
    return new Date(y, m - 1, d, 23, 59, 59, 999) < now;
  }
  function niceDate(iso) {
    const [y, m, d] = iso.split('-').map(Number);
    return new Date(y, m - 1, d).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
  }
  const findCode = (code) => state.codes.find((c) => c.code.toUpperCase() === String(code || '').trim().toUpperCase());

  /* @feature discount-codes */
  hooks.applyCode = (raw, subtotal) => {
    const input = String(raw || '').trim();
    if (!input) return { kind: 'error', text: 'Enter a discount code.' };
    const entry = findCode(input);
    if (!entry) return { kind: 'error', text: `“${input.toUpperCase()}” is not a valid discount code.` };
    if (codeExpired(entry)) return { kind: 'error', text: `The code ${entry.code} expired on ${niceDate(entry.expires)}.` };
    if (entry.min_subtotal && subtotal < cents(entry.min_subtotal)) {
      return { kind: 'error', text: `${entry.code} needs a subtotal of ${money(cents(entry.min_subtotal))} or more.` };
    }
    state.cart.code = entry.code;
    return { kind: 'ok', text: `${entry.code} applied: ${entry.description}.` };
  };
  hooks.discount = (subtotal) => {
    const entry = findCode(state.cart.code);
    if (!entry || codeExpired(entry)) return { amount: 0 };
    if (entry.min_subtotal && subtotal < cents(entry.min_subtotal)) {
      return { amount: 0, note: `${entry.code} needs a subtotal of ${money(cents(entry.min_subtotal))} or more.` };
    }
    const amount = entry.type === 'percent' ? Math.round(subtotal * entry.value / 100) : Math.min(cents(entry.value), subtotal);
    return { amount, code: entry.code };
  };
  /* @end discount-codes */
  /* @broken discount-codes */
  hooks.applyCode = (raw) => {
    const input = String(raw || '').trim();
    if (!input) return { kind: 'error', text: 'Enter a discount code.' };
    const entry = findCode(input);
    if (!entry) return { kind: 'error', text: `“${input.toUpperCase()}” is not a valid discount code.` };
    state.cart.code = entry.code;
    return { kind: 'ok', text: `${entry.code} applied: ${entry.description}.` };
  };
  hooks.discount = (subtotal) => {
    const entry = findCode(state.cart.code);
    if (!entry) return { amount: 0 };
    const amount = entry.type === 'percent' ? Math.round(subtotal * entry.value / 100) : Math.min(cents(entry.value), subtotal);
    return { amount, code: entry.code };
  };
  /* @end discount-codes */

  /* @feature shipping-rule */
  hooks.shipping = (lines, afterDiscount) => {
    if (lines.every((l) => isDigital(l.sku))) return { amount: 0, label: 'Free (digital delivery)' };
    const threshold = cents(state.store.shipping.freeThreshold);
    if (afterDiscount >= threshold) return { amount: 0, label: 'Free' };
    return { amount: cents(state.store.shipping.standard), label: money(cents(state.store.shipping.standard)), hint: `Add ${money(threshold - afterDiscount)} more for free shipping.` };
  };
  /* @end shipping-rule */
  /* @broken shipping-rule */
  hooks.shipping = (lines, afterDiscount) => {
    const threshold = cents(state.store.shipping.freeThreshold);
    if (afterDiscount >= threshold) return { amount: 0, label: 'Free' };
    return { amount: cents(state.store.shipping.standard), label: money(cents(state.store.shipping.standard)), hint: `Add ${money(threshold - afterDiscount)} more for free shipping.` };
  };
  /* @end shipping-rule */

  // ------------------------------------------------------------ cart operations
  /* @feature add-to-cart */
  hooks.addToCart = (book, sku, qty) => {
    const line = state.cart.lines.find((l) => l.id === book.id && l.format === sku.format);
    if (line) line.qty += qty;
    else state.cart.lines.push({ id: book.id, format: sku.format, qty });
    persist();
  };
  /* @end add-to-cart */
  /* @broken add-to-cart */
  hooks.addToCart = (book, sku, qty) => {
    state.cart.lines.push({ id: book.id, format: sku.format, qty });
    persist();
  };
  /* @end add-to-cart */

  /* @feature cart-qty-edit */
  hooks.setQty = (key, raw) => {
    const line = state.cart.lines.find((l) => lineKey(l.id, l.format) === key);
    if (!line) return;
    const sku = skuOf(bookById(line.id), line.format);
    const qty = raw.trim() === '' ? NaN : Number(raw);
    const problem = hooks.checkQty?.(sku, qty, 0);
    if (problem) state.cartMessages[key] = problem;
    else {
      delete state.cartMessages[key];
      if (Number.isInteger(qty) && qty >= 1) line.qty = qty;
    }
    persist();
    renderCart();
  };
  /* @end cart-qty-edit */
  /* @broken cart-qty-edit */
  hooks.setQty = (key, raw, input) => {
    const line = state.cart.lines.find((l) => lineKey(l.id, l.format) === key);
    if (!line) return;
    const sku = skuOf(bookById(line.id), line.format);
    const qty = raw.trim() === '' ? NaN : Number(raw);
    const problem = hooks.checkQty?.(sku, qty, 0);
    if (problem) { state.cartMessages[key] = problem; renderCart(); return; }
    delete state.cartMessages[key];
    if (Number.isInteger(qty) && qty >= 1) line.qty = qty;
    persist();
    // update the row in place (the order summary is left as it was)
    const row = input && input.closest('tr');
    const cell = row && row.querySelector('.line-total');
    if (cell) cell.textContent = money(cents(sku.price) * line.qty);
  };
  /* @end cart-qty-edit */

  /* @feature cart-remove */
  hooks.removeLine = (key) => {
    const idx = state.cart.lines.findIndex((l) => lineKey(l.id, l.format) === key);
    if (idx >= 0) state.cart.lines.splice(idx, 1);
    delete state.cartMessages[key];
    persist();
    renderCart();
  };
  /* @end cart-remove */
  /* @broken cart-remove */
  hooks.removeLine = (key) => {
    const idx = state.cart.lines.findIndex((l) => lineKey(l.id, l.format) === key);
    if (idx >= 0) state.cart.lines.splice(idx + 1, 1);
    persist();
    renderCart();
  };
  /* @end cart-remove */

  // ------------------------------------------------------------ views: catalog
  function renderCatalog() {
    const f = state.filters;
    const cats = hooks.categories?.() || [];
    app.innerHTML = `
      <section class="hero">
        <div>
          <h1>Find your next favourite book</h1>
          <p>Hand-picked fiction, history, science and cookbooks — in hardcover, paperback and ebook.</p>
        </div>
      </section>
      <div class="toolbar" role="search">
        <div class="field field-search">
          <svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" stroke-width="2"/><path d="M16 16l4.5 4.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
          <input type="search" id="q" aria-label="Search books" placeholder="Search by title or author" value="${esc(f.q)}" autocomplete="off">
        </div>
        <label class="field field-select"><span>Category</span>
          <select id="category">
            <option value="">All categories</option>
            ${cats.map((c) => `<option value="${esc(c)}"${c === f.category ? ' selected' : ''}>${esc(c)}</option>`).join('')}
          </select>
        </label>
        <label class="field field-select"><span>Sort by</span>
          <select id="sort">
            ${[['featured', 'Featured'], ['price-asc', 'Price: low to high'], ['price-desc', 'Price: high to low'], ['title', 'Title A–Z'], ['newest', 'Newest']]
              .map(([v, l]) => `<option value="${v}"${v === f.sort ? ' selected' : ''}>${l}</option>`).join('')}
          </select>
        </label>
      </div>
      <p class="result-count" id="result-count" aria-live="polite"></p>
      <div id="grid-host"></div>`;
    app.querySelector('#q').addEventListener('input', (e) => { f.q = e.target.value; renderGrid(); });
    app.querySelector('#category').addEventListener('change', (e) => { f.category = e.target.value; renderGrid(); });
    app.querySelector('#sort').addEventListener('change', (e) => { f.sort = e.target.value; renderGrid(); });
    renderGrid();
  }

  function renderGrid() {
    const f = state.filters;
    let list = state.books.slice();
    if (hooks.filterCategory) list = hooks.filterCategory(list, f.category);
    if (hooks.search) list = hooks.search(list, f.q);
    if (hooks.sort) list = hooks.sort(list, f.sort);
    const host = document.getElementById('grid-host');
    const count = document.getElementById('result-count');
    if (!host) return;
    count.textContent = plural(list.length, 'book', 'books');
    if (!list.length) {
      host.innerHTML = `<div class="empty-state">
        <svg viewBox="0 0 64 64" aria-hidden="true"><rect x="12" y="10" width="30" height="42" rx="3" fill="#efe6d6"/><rect x="20" y="14" width="30" height="42" rx="3" fill="#fff" stroke="#d8ccb6"/><circle cx="44" cy="44" r="9" fill="none" stroke="#b4532a" stroke-width="3"/><path d="M50 50l6 6" stroke="#b4532a" stroke-width="3" stroke-linecap="round"/></svg>
        <h2>No books match your search</h2>
        <p>Try a different title or author, or clear the filters.</p>
        <button type="button" class="btn btn-secondary" id="clear-filters">Clear filters</button></div>`;
      host.querySelector('#clear-filters').addEventListener('click', () => {
        state.filters.q = ''; state.filters.category = '';
        renderCatalog();
      });
      return;
    }
    host.innerHTML = `<ul class="grid" aria-label="Books">${list.map(cardHTML).join('')}</ul>`;
  }

  function cardHTML(book) {
    const unavailable = isUnavailable(book);
    let meta = '';
    /* @feature card-meta */
    meta = `<p class="card-cat">${esc(book.category)}</p>`;
    /* @end card-meta */
    let details = '';
    /* @feature card-meta */
    details = `<p class="card-author">${esc(book.author)}</p>
        <p class="card-price">From <strong>${money(fromPrice(book))}</strong></p>`;
    /* @end card-meta */
    const badge = hooks.unavailableBadge?.(book) || '';
    return `<li><article class="card${unavailable ? ' is-unavailable' : ''}" aria-labelledby="ttl-${book.id}">
      <a class="card-cover" href="#/book/${book.id}" tabindex="-1">${coverHTML(book, 'sm')}</a>
      <div class="card-body">
        ${meta}
        <h3 class="card-title" id="ttl-${book.id}"><a href="#/book/${book.id}">${esc(book.title)}</a></h3>
        ${details}
        ${badge || ''}
      </div>
    </article></li>`;
  }

  // ------------------------------------------------------------ views: detail
  function renderDetail(id) {
    const book = bookById(id);
    if (!book) {
      if (hooks.notFound) app.innerHTML = hooks.notFound(id);
      else app.innerHTML = '';
      return;
    }
    state.detail = { id, format: defaultFormat(book), message: null, feedback: null };
    const unavailable = isUnavailable(book);
    let specs = '';
    /* @feature book-specs */
    specs = `<section class="about" aria-labelledby="about-h">
        <h2 id="about-h">About this book</h2>
        <p class="description">${esc(book.description)}</p>
        <dl class="specs">
          <div><dt>Pages</dt> <dd>${book.pages ? `${book.pages} pages` : '—'}</dd></div>
          <div><dt>Published</dt> <dd>${esc(book.published)}</dd></div>
          <div><dt>Publisher</dt> <dd>${esc(book.publisher || '—')}</dd></div>
          <div><dt>ISBN</dt> <dd>${esc(book.isbn)}</dd></div>
        </dl>
      </section>`;
    /* @end book-specs */
    app.innerHTML = `
      <nav class="crumbs" aria-label="Breadcrumb"><a href="#/">← Back to catalog</a><span aria-hidden="true">/</span><span>${esc(book.category)}</span></nav>
      <article class="detail">
        <div class="detail-cover">${coverHTML(book, 'lg')}</div>
        <div class="detail-info">
          <p class="eyebrow">${esc(book.category)}</p>
          <h1>${esc(book.title)}</h1>
          <p class="byline">by <span class="author">${esc(book.author)}</span></p>
          ${unavailable ? (hooks.unavailableNotice?.() || '') : ''}
          <div class="purchase" id="purchase"></div>
          ${specs}
        </div>
      </article>`;
    renderPurchase(book);
  }

  function renderPurchase(book) {
    const host = document.getElementById('purchase');
    if (!host) return;
    const d = state.detail;
    const sku = skuOf(book, d.format);
    const unavailable = isUnavailable(book);
    const stock = hooks.stockState?.(sku);
    const blocked = unavailable || (stock && !stock.allowAdd);
    const stockClass = stock ? 'out' : (isDigital(sku) ? 'digital' : (sku.stock <= 3 ? 'low' : 'in'));
    host.innerHTML = `
      <fieldset class="formats"${unavailable ? ' disabled' : ''}>
        <legend>Format</legend>
        <div class="format-options">
        ${book.formats.map((f) => {
          const out = hooks.stockState?.(f);
          return `<label class="format-option${f.format === d.format ? ' is-selected' : ''}${out ? ' is-out' : ''}">
            <input type="radio" name="format" value="${f.format}"${f.format === d.format ? ' checked' : ''}>
            <span class="format-name">${fmtLabel(f.format)}</span>${out ? ' <span class="format-note">Out of stock</span>' : ''}
          </label>`;
        }).join('')}
        </div>
      </fieldset>
      <div class="price-row">
        <p class="price">${money(cents(sku.price))}</p>
        <p class="stock stock-${unavailable ? 'out' : stockClass}">${unavailable ? 'Not available' : esc(stockText(sku))}</p>
      </div>
      ${stock && !unavailable ? `<p class="inline-msg inline-warn" role="alert">${esc(stock.message)}</p>` : ''}
      <div class="buy-row">
        <label class="qty-field"><span>Quantity</span>
          <input type="number" id="qty" min="1" step="1" inputmode="numeric" value="1"${blocked ? ' disabled' : ''}>
        </label>
        <button type="button" class="btn btn-primary" id="add-btn"${blocked ? ' disabled' : ''}>Add to cart</button>
      </div>
      ${d.message ? `<p class="inline-msg inline-error" role="alert">${esc(d.message)}</p>` : ''}
      ${d.feedback ? `<p class="inline-msg inline-ok" role="status">✓ ${esc(d.feedback)} <a href="#/cart">View cart</a></p>` : ''}`;

    /* @feature sku-select */
    host.querySelectorAll('input[name="format"]').forEach((r) => r.addEventListener('change', () => {
      state.detail.format = r.value;
      state.detail.message = null;
      state.detail.feedback = null;
      renderPurchase(book);
    }));
    /* @end sku-select */
    /* @broken sku-select */
    host.querySelectorAll('input[name="format"]').forEach((r) => r.addEventListener('change', () => {
      state.detail.format = r.value;
      const price = host.querySelector('.price');
      if (price) price.textContent = money(cents(skuOf(book, r.value).price));
    }));
    /* @end sku-select */

    host.querySelector('#add-btn').addEventListener('click', () => {
      if (!hooks.addToCart) return;
      const current = skuOf(book, state.detail.format);
      const raw = host.querySelector('#qty').value;
      let qty = raw.trim() === '' ? NaN : Number(raw);
      const problem = hooks.checkQty?.(current, qty, inCart(book.id, current.format));
      state.detail.feedback = null;
      if (problem) {
        state.detail.message = problem;
        renderPurchase(book);
        return;
      }
      if (!Number.isInteger(qty) || qty < 1) qty = 1;
      state.detail.message = null;
      hooks.addToCart(book, current, qty);
      state.detail.feedback = `Added ${qty} × ${book.title} (${fmtLabel(current.format)}) to your cart.`;
      renderPurchase(book);
    });
  }

  /* @feature not-found */
  hooks.notFound = (id) => `<div class="empty-state page-state">
      <svg viewBox="0 0 64 64" aria-hidden="true"><rect x="14" y="8" width="36" height="48" rx="3" fill="#fff" stroke="#d8ccb6"/><path d="M24 26c0-5 16-5 16 1 0 4-8 4-8 9" fill="none" stroke="#b4532a" stroke-width="3" stroke-linecap="round"/><circle cx="32" cy="44" r="2" fill="#b4532a"/></svg>
      <h1>Book not found</h1>
      <p>We couldn't find a book with the reference “${esc(id)}”. It may have been removed from the catalog.</p>
      <a class="btn btn-secondary" href="#/">Back to catalog</a></div>`;
  /* @end not-found */

  // The discount-code form of the order summary (shown when discount codes are supported).
  function discountFormHTML(t) {
    const msg = state.codeMessage;
    return `<form class="code-form" id="code-form" novalidate>
        <label for="code-input">Discount code</label>
        <div class="code-row">
          <input id="code-input" name="code" autocomplete="off" placeholder="e.g. READMORE10" value="">
          <button type="submit" class="btn btn-secondary">Apply</button>
        </div>
        ${msg ? `<p class="inline-msg ${msg.kind === 'ok' ? 'inline-ok' : 'inline-error'}" role="${msg.kind === 'ok' ? 'status' : 'alert'}">${esc(msg.text)}</p>` : ''}
        ${state.cart.code && t.discount.note ? `<p class="inline-msg inline-warn">${esc(t.discount.note)}</p>` : ''}
        ${state.cart.code ? `<p class="applied-code">Applied: <strong>${esc(state.cart.code)}</strong> <button type="button" class="link-btn" id="remove-code">Remove code</button></p>` : ''}
      </form>`;
  }

  // ------------------------------------------------------------ views: cart
  function renderCart() {
    const t = totals();
    const empty = t.lines.length === 0;
    const guard = hooks.emptyCartGuard?.(empty);
    const discountForm = hooks.applyCode ? discountFormHTML(t) : '';
    app.innerHTML = `
      <h1 class="page-title">Your cart</h1>
      <div class="cart-layout">
        <div class="cart-main">
          ${empty ? `<div class="empty-state">
              <svg viewBox="0 0 64 64" aria-hidden="true"><path d="M10 14h6l5 26h26l5-18H19" fill="none" stroke="#b9ab92" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><circle cx="25" cy="49" r="3.5" fill="#b9ab92"/><circle cx="44" cy="49" r="3.5" fill="#b9ab92"/></svg>
              <h2>Your cart is empty</h2>
              <p>Find something good to read and it will show up here.</p>
              <a class="btn btn-primary" href="#/">Browse books</a></div>`
            : `<table class="cart-table">
              <thead><tr><th scope="col">Book</th><th scope="col">Format</th><th scope="col" class="num">Price</th><th scope="col">Quantity</th><th scope="col" class="num">Total</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>
                ${t.lines.map((l) => {
                  const key = lineKey(l.id, l.format);
                  const label = `${l.book.title}, ${fmtLabel(l.format)}`;
                  const err = state.cartMessages[key];
                  return `<tr data-key="${esc(key)}">
                    <td class="cell-book"><a href="#/book/${l.id}" class="thumb" tabindex="-1">${coverHTML(l.book, 'xs')}</a>
                      <div><a href="#/book/${l.id}" class="line-title">${esc(l.book.title)}</a><span class="line-author">${esc(l.book.author)}</span>
                      ${err ? `<p class="inline-msg inline-error" role="alert">${esc(err)}</p>` : ''}</div></td>
                    <td>${fmtLabel(l.format)}</td>
                    <td class="num">${money(l.unit)}</td>
                    <td><input type="number" class="line-qty" min="1" step="1" inputmode="numeric" value="${l.qty}" aria-label="Quantity for ${esc(label)}"></td>
                    <td class="num line-total">${money(l.total)}</td>
                    <td><button type="button" class="link-btn remove-btn" aria-label="Remove ${esc(label)}">Remove</button></td>
                  </tr>`;
                }).join('')}
              </tbody>
            </table>
            <a class="continue-link" href="#/">← Continue shopping</a>`}
        </div>
        <section class="summary-card" aria-labelledby="summary-h">
          <h2 id="summary-h">Order summary</h2>
          ${summaryLines(t)}
          ${t.shipping.hint ? `<p class="ship-hint">${esc(t.shipping.hint)}</p>` : ''}
          ${discountForm}
          <button type="button" class="btn btn-primary btn-block" id="checkout-btn"${guard ? ' disabled' : ''}>Proceed to checkout</button>
          ${guard ? `<p class="muted small">${esc(guard)}</p>` : ''}
        </section>
      </div>`;

    app.querySelectorAll('tr[data-key]').forEach((row) => {
      const key = row.dataset.key;
      const input = row.querySelector('.line-qty');
      input.addEventListener('change', () => hooks.setQty?.(key, input.value, input));
      row.querySelector('.remove-btn').addEventListener('click', () => hooks.removeLine?.(key));
    });
    const form = app.querySelector('#code-form');
    if (form) {
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        state.codeMessage = hooks.applyCode?.(form.querySelector('#code-input').value, t.subtotal) || null;
        persist();
        renderCart();
      });
      form.querySelector('#remove-code')?.addEventListener('click', () => {
        state.cart.code = null;
        state.codeMessage = null;
        persist();
        renderCart();
      });
    }
    app.querySelector('#checkout-btn').addEventListener('click', () => { location.hash = '#/checkout'; });
  }

  /* @feature empty-cart-guard */
  hooks.emptyCartGuard = (empty) => (empty ? 'Your cart is empty — add a book before checking out.' : null);
  hooks.checkoutBlocked = () => `<h1 class="page-title">Checkout</h1>
      <div class="empty-state page-state">
        <svg viewBox="0 0 64 64" aria-hidden="true"><path d="M10 14h6l5 26h26l5-18H19" fill="none" stroke="#b9ab92" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><circle cx="25" cy="49" r="3.5" fill="#b9ab92"/><circle cx="44" cy="49" r="3.5" fill="#b9ab92"/></svg>
        <h2>Your cart is empty</h2>
        <p>There's nothing to check out yet. Add a book to your cart first.</p>
        <a class="btn btn-primary" href="#/">Browse books</a></div>`;
  /* @end empty-cart-guard */
  /* @broken empty-cart-guard */
  hooks.emptyCartGuard = (empty) => (empty ? 'Your cart is empty — add a book before checking out.' : null);
  /* @end empty-cart-guard */

  // ------------------------------------------------------------ views: checkout
  const FIELDS = [
    { name: 'name', label: 'Full name', type: 'text', autocomplete: 'name', group: 'contact' },
    { name: 'email', label: 'Email', type: 'email', autocomplete: 'email', group: 'contact' },
    { name: 'address', label: 'Street address', type: 'text', autocomplete: 'street-address', group: 'address' },
    { name: 'city', label: 'City', type: 'text', autocomplete: 'address-level2', group: 'address', half: true },
    { name: 'zip', label: 'ZIP code', type: 'text', autocomplete: 'postal-code', group: 'address', half: true, hint: '5 digits, e.g. 94110' },
  ];

  /* @feature checkout-validation */
  hooks.validate = (v) => {
    const errors = {};
    if (v.name.trim().length < 2) errors.name = 'Enter your full name';
    if (!v.email.trim()) errors.email = 'Enter your email address';
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(v.email.trim())) errors.email = 'Enter a valid email address, like name@example.com';
    if (!v.address.trim()) errors.address = 'Enter your street address';
    if (!v.city.trim()) errors.city = 'Enter your city';
    if (!v.zip.trim()) errors.zip = 'Enter your ZIP code';
    else if (!/^\d{5}(-\d{4})?$/.test(v.zip.trim())) errors.zip = 'Enter a valid 5-digit ZIP code';
    return errors;
  };
  /* @end checkout-validation */
  /* @broken checkout-validation */
  hooks.validate = (v) => {
    const errors = {};
    if (v.name.trim().length < 2) errors.name = 'Enter your full name';
    if (!v.email.trim()) errors.email = 'Enter your email address';
    else if (!/^\S+@\S+$/.test(v.email.trim())) errors.email = 'Enter a valid email address, like name@example.com';
    if (!v.address.trim()) errors.address = 'Enter your street address';
    if (!v.city.trim()) errors.city = 'Enter your city';
    if (!v.zip.trim()) errors.zip = 'Enter your ZIP code';
    else if (!/^\d{5}(-\d{4})?$/.test(v.zip.trim())) errors.zip = 'Enter a valid 5-digit ZIP code';
    return errors;
  };
  /* @end checkout-validation */

  function renderCheckout() {
    const t = totals();
    if (!t.lines.length && hooks.checkoutBlocked) { app.innerHTML = hooks.checkoutBlocked(); return; }
    const digitalOnly = t.lines.length > 0 && t.lines.every((l) => isDigital(l.sku));
    const field = (fd) => `<div class="form-field${fd.half ? ' half' : ''}" data-field="${fd.name}">
        <label for="f-${fd.name}">${fd.label}</label>
        <input id="f-${fd.name}" name="${fd.name}" type="${fd.type === 'email' ? 'text' : fd.type}" autocomplete="${fd.autocomplete}" aria-required="true"${fd.hint ? ` aria-describedby="h-${fd.name}"` : ''}${fd.type === 'email' ? ' inputmode="email"' : ''}>
        ${fd.hint ? `<p class="field-hint" id="h-${fd.name}">${fd.hint}</p>` : ''}
        <p class="field-error" id="e-${fd.name}" hidden></p>
      </div>`;
    app.innerHTML = `
      <nav class="crumbs" aria-label="Breadcrumb"><a href="#/cart">← Back to cart</a></nav>
      <h1 class="page-title">Checkout</h1>
      <div class="checkout-layout">
        <form id="checkout-form" class="checkout-form" novalidate>
          <p class="form-alert" id="form-alert" role="alert" hidden></p>
          <fieldset><legend>Contact</legend>${FIELDS.filter((x) => x.group === 'contact').map(field).join('')}</fieldset>
          <fieldset><legend>${digitalOnly ? 'Billing address' : 'Delivery address'}</legend>
            ${digitalOnly ? '<p class="muted small">Your ebooks are delivered by email; we only need a billing address.</p>' : ''}
            <div class="field-grid">${FIELDS.filter((x) => x.group === 'address').map(field).join('')}</div></fieldset>
          <button type="submit" class="btn btn-primary btn-lg">Place order · ${money(t.total)}</button>
          <p class="muted small">This is a demo shop: no payment is taken.</p>
        </form>
        <section class="summary-card" aria-labelledby="summary-h">
          <h2 id="summary-h">Order summary</h2>
          <ul class="mini-lines">
            ${t.lines.map((l) => `<li><span>${esc(l.book.title)} <span class="muted">· ${fmtLabel(l.format)} × ${l.qty}</span></span><span>${money(l.total)}</span></li>`).join('')}
          </ul>
          ${summaryLines(t)}
          <a href="#/cart" class="small">Edit cart</a>
        </section>
      </div>`;

    const form = app.querySelector('#checkout-form');
    let attempted = false;
    const values = () => Object.fromEntries(FIELDS.map((fd) => [fd.name, form.elements[fd.name].value]));
    const show = (errors) => {
      FIELDS.forEach((fd) => {
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
      alert.textContent = n ? `Please correct ${plural(n, 'field', 'fields')} below.` : '';
    };
    form.addEventListener('input', () => { if (attempted && hooks.validate) show(hooks.validate(values())); });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      attempted = true;
      const v = values();
      const errors = hooks.validate?.(v) || {};
      show(errors);
      const first = FIELDS.find((fd) => errors[fd.name]);
      if (first) { form.elements[first.name].focus(); return; }
      hooks.placeOrder?.(v);
    });
  }

  /* @feature place-order */
  hooks.placeOrder = (v) => {
    const t = totals();
    if (!t.lines.length) return;
    const number = 'BK-' + String(100000 + Math.floor(Math.random() * 900000));
    const order = {
      number,
      placedAt: new Date().toISOString(),
      customer: { name: v.name.trim(), email: v.email.trim(), address: v.address.trim(), city: v.city.trim(), zip: v.zip.trim() },
      lines: t.lines.map((l) => ({ title: l.book.title, author: l.book.author, format: l.format, qty: l.qty, unit: l.unit, total: l.total })),
      subtotal: t.subtotal, discount: t.discount.amount, code: t.discount.code || null,
      shipping: t.shipping.amount, shippingLabel: t.shipping.label, total: t.total,
    };
    state.lastOrder = order;
    try { localStorage.setItem(ORDER_KEY, JSON.stringify(order)); } catch (e) { /* ignore */ }
    state.cart = { lines: [], code: null };
    state.codeMessage = null;
    persist();
    location.hash = `#/order/${number}`;
  };
  /* @end place-order */
  /* @broken place-order */
  hooks.placeOrder = (v) => {
    const t = totals();
    if (!t.lines.length) return;
    const number = 'BK-' + String(100000 + Math.floor(Math.random() * 900000));
    const order = {
      number,
      placedAt: new Date().toISOString(),
      customer: { name: v.name.trim(), email: v.email.trim(), address: v.address.trim(), city: v.city.trim(), zip: v.zip.trim() },
      lines: t.lines.map((l) => ({ title: l.book.title, author: l.book.author, format: l.format, qty: l.qty, unit: l.unit, total: l.total })),
      subtotal: t.subtotal, discount: t.discount.amount, code: t.discount.code || null,
      shipping: t.shipping.amount, shippingLabel: t.shipping.label, total: t.total,
    };
    state.lastOrder = order;
    try { localStorage.setItem(ORDER_KEY, JSON.stringify(order)); } catch (e) { /* ignore */ }
    location.hash = `#/order/${number}`;
  };
  /* @end place-order */

  // ------------------------------------------------------------ views: confirmation
  function renderOrder(number) {
    let order = state.lastOrder;
    if (!order) {
      try { order = JSON.parse(localStorage.getItem(ORDER_KEY) || 'null'); } catch (e) { order = null; }
    }
    if (!order || order.number !== number) {
      app.innerHTML = `<div class="empty-state page-state"><h1>Order not found</h1>
        <p>We couldn't find order ${esc(number)} in this browser.</p><a class="btn btn-secondary" href="#/">Back to catalog</a></div>`;
      return;
    }
    const c = order.customer;
    const firstName = c.name.split(/\s+/)[0];
    app.innerHTML = `
      <section class="confirm">
        <div class="confirm-head">
          <svg viewBox="0 0 48 48" aria-hidden="true" class="confirm-icon"><circle cx="24" cy="24" r="22" fill="#2f6f4e"/><path d="M14 24.5l6.5 6.5L34 17.5" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>
          <div>
            <h1>Thank you for your order!</h1>
            <p class="order-number">Order number <strong>${esc(order.number)}</strong></p>
          </div>
        </div>
        <p>Thanks, ${esc(firstName)}. A confirmation has been sent to <strong>${esc(c.email)}</strong>.</p>
        <div class="confirm-grid">
          <section class="summary-card" aria-labelledby="summary-h">
            <h2 id="summary-h">Order summary</h2>
            <table class="confirm-table">
              <thead><tr><th scope="col">Item</th><th scope="col">Format</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Total</th></tr></thead>
              <tbody>${order.lines.map((l) => `<tr><td>${esc(l.title)}</td><td>${fmtLabel(l.format)}</td><td class="num">${l.qty}</td><td class="num">${money(l.total)}</td></tr>`).join('')}</tbody>
            </table>
            ${summaryLines({ subtotal: order.subtotal, discount: { amount: order.discount, code: order.code }, shipping: { label: order.shippingLabel }, total: order.total })}
          </section>
          <section class="ship-card" aria-labelledby="ship-h">
            <h2 id="ship-h">Shipping to</h2>
            <address>${esc(c.name)}<br>${esc(c.address)}<br>${esc(c.city)} ${esc(c.zip)}</address>
            <a class="btn btn-primary" href="#/">Continue shopping</a>
          </section>
        </div>
      </section>`;
  }

  // ------------------------------------------------------------ router
  function route() {
    const hash = location.hash.replace(/^#/, '') || '/';
    const parts = hash.split('/').filter(Boolean);
    document.querySelectorAll('[data-nav]').forEach((a) => a.classList.remove('is-active'));
    let title = state.store?.name || 'Bookshop';
    if (parts[0] === 'book' && parts[1]) {
      const b = bookById(decodeURIComponent(parts[1]));
      if (b) title = `${b.title} · ${title}`;
      renderDetail(decodeURIComponent(parts[1]));
    } else if (parts[0] === 'cart') {
      document.querySelector('[data-nav="cart"]')?.classList.add('is-active');
      title = `Cart · ${title}`;
      renderCart();
    } else if (parts[0] === 'checkout') {
      title = `Checkout · ${title}`;
      renderCheckout();
    } else if (parts[0] === 'order' && parts[1]) {
      title = `Order confirmed · ${title}`;
      renderOrder(decodeURIComponent(parts[1]));
    } else {
      document.querySelector('[data-nav="catalog"]')?.classList.add('is-active');
      renderCatalog();
    }
    if (parts[0] !== 'cart') state.codeMessage = null;
    document.title = title;
    window.scrollTo(0, 0);
  }

  async function boot() {
    try {
      const [books, codes, store] = await Promise.all(
        ['data/books.json', 'data/discount-codes.json', 'data/store.json'].map((u) => fetch(u).then((r) => {
          if (!r.ok) throw new Error(`${u}: HTTP ${r.status}`);
          return r.json();
        })));
      state.books = books.books || books;
      state.codes = codes;
      state.store = store;
    } catch (err) {
      app.innerHTML = `<div class="empty-state page-state"><h1>We couldn't load the catalog</h1><p>${esc(err.message)}</p>
        <button class="btn btn-secondary" type="button" onclick="location.reload()">Try again</button></div>`;
      return;
    }
    hooks.loadCart?.();
    hooks.updateBadge?.();
    window.addEventListener('hashchange', route);
    route();
  }

  boot();
})();
