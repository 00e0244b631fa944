/* Fernleaf sales dashboard — plain JS, no dependencies. Charts are inline SVG drawn below. */
(function () {
  'use strict';

  // ------------------------------------------------------------------ constants & helpers
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const MONTHS_LONG = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
    'September', 'October', 'November', 'December'];
  const REGIONS = ['North', 'South', 'East', 'West'];
  const CHANNELS = { web: 'Web', marketplace: 'Marketplace', retail: 'Retail' };
  const CHANNEL_COLORS = { web: '#2563eb', marketplace: '#f59e0b', retail: '#10b981' };
  const CATEGORIES = ['Home', 'Kitchen', 'Outdoor', 'Stationery'];
  const STATUSES = { paid: 'Paid', refunded: 'Refunded', cancelled: 'Cancelled' };
  const PRESETS = ['last7', 'last30', 'last90', 'month'];
  const GRANS = ['day', 'week', 'month'];
  const PAGE_SIZE = 10;
  const EMPTY_MSG = 'No orders match these filters.';
  const SVGNS = 'http://www.w3.org/2000/svg';

  const $ = (sel) => document.querySelector(sel);
  const $$ = (sel) => [...document.querySelectorAll(sel)];

  function el(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') n.className = v;
      else if (k === 'text') n.textContent = v;
      else if (k.startsWith('on')) n.addEventListener(k.slice(2), v);
      else n.setAttribute(k, v === true ? '' : v);
    }
    for (const c of kids.flat()) if (c !== null && c !== undefined) n.append(c);
    return n;
  }
  function svg(tag, attrs, ...kids) {
    const n = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) n.setAttribute(k, v);
    for (const c of kids.flat()) if (c !== null && c !== undefined) n.append(c);
    return n;
  }

  // Days are integers (days since 1970-01-01, UTC) so that ranges never depend on time zones.
  function parseDay(s) {
    if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return null;
    const [y, m, d] = s.split('-').map(Number);
    const dt = new Date(Date.UTC(y, m - 1, d));
    if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
    return Math.round(dt.getTime() / 864e5);
  }
  const toDate = (n) => new Date(n * 864e5);
  const iso = (n) => toDate(n).toISOString().slice(0, 10);
  function fmtDay(n, year = true) {
    const d = toDate(n);
    return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}` + (year ? `, ${d.getUTCFullYear()}` : '');
  }
  function fmtRange(a, b) {
    const sameYear = toDate(a).getUTCFullYear() === toDate(b).getUTCFullYear();
    return `${fmtDay(a, !sameYear)} – ${fmtDay(b)}`;
  }
  function money(cents) {
    const neg = cents < 0;
    const c = Math.abs(Math.round(cents));
    const whole = Math.floor(c / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return (neg ? '−' : '') + '$' + whole + '.' + String(c % 100).padStart(2, '0');
  }
  function moneyShort(cents) {
    const v = cents / 100;
    if (v >= 1000) return '$' + (v / 1000).toFixed(v >= 10000 ? 0 : 1).replace(/\.0$/, '') + 'k';
    return '$' + Math.round(v);
  }
  const plain2 = (cents) => (cents / 100).toFixed(2);

  // ------------------------------------------------------------------ state
  const DEFAULTS = { range: 'last30', from: null, to: null, region: '', channel: '', category: '', gran: 'day' };
  const state = Object.assign({}, DEFAULTS, { page: 1, repSort: { key: 'revenue', dir: 'desc' } });
  let DATA = null; // { store, today, orders: [...valid], excluded: [...] }
  let exportUrl = null;

  function presetRange(key, today) {
    if (key === 'last7') return [today - 6, today];
    if (key === 'last90') return [today - 89, today];
    if (key === 'month') { const d = toDate(today); return [today - (d.getUTCDate() - 1), today]; }
    return [today - 29, today];
  }
  function currentRange() {
    if (state.range === 'custom' && state.from !== null && state.to !== null) return [state.from, state.to];
    return presetRange(state.range, DATA.today);
  }
  function previousRange(a, b) {
    const len = b - a + 1;
    let prev = [a - len - 1, a - 2];
    /* @feature period-change */
    prev = [a - len, a - 1];
    /* @end period-change */
    return prev;
  }

  // ------------------------------------------------------------------ data preparation
  function netCents(o) {
    const pc = Math.round(Number(o.unit_price) * 100);
    const dp = Math.round(Number(o.discount || 0) * 100);
    const num = Number(o.quantity) * pc * (100 - dp);      // exact integer: cents x 100
    const sign = num < 0 ? -1 : 1;
    return sign * Math.floor((Math.abs(num) + 50) / 100);   // half-up to the cent
  }

  function checkRecord(o, seen) {
    if (!o || typeof o !== 'object') return 'Invalid record';
    if (!o.id) return 'Missing order ID';
    if (seen) {
      const first = seen.get(o.id);
      if (first) return `Duplicate order ID: the first ${o.id} (${first.date}) was kept`;
    }
    if (parseDay(o.date) === null) return `Unparseable date “${o.date}”`;
    if (o.region === null || o.region === undefined || o.region === '') return 'Missing region';
    if (!REGIONS.includes(o.region)) return `Unknown region “${o.region}”`;
    if (!(o.channel in CHANNELS)) return `Unknown channel “${o.channel}”`;
    if (!CATEGORIES.includes(o.category)) return `Unknown category “${o.category}”`;
    if (!(o.status in STATUSES)) return `Unknown status “${o.status}”`;
    if (!Number.isFinite(Number(o.quantity)) || !Number.isFinite(Number(o.unit_price)) || o.quantity === null || o.unit_price === null)
      return 'Invalid amount';
    if (netCents(o) < 0) return `Negative amount (quantity ${String(o.quantity).replace('-', '−')})`;
    return null;
  }

  function prepare(raw) {
    const today = parseDay(raw.today);
    if (today === null) throw new Error('the export has no valid "today" date');
    const orders = [];
    const excluded = [];
    const seen = new Map();
    for (const o of Array.isArray(raw.orders) ? raw.orders : []) {
      let reason = null;
      /* @feature dq-exclude */
      reason = checkRecord(o, seen);
      /* @end dq-exclude */
      /* @broken dq-exclude */
      reason = checkRecord(o, null);
      /* @end dq-exclude */
      if (reason) { excluded.push({ id: o && o.id, date: o && o.date, reason }); continue; }
      const day = parseDay(o.date);
      if (day === null) continue; // cannot be placed on the calendar at all
      if (!seen.has(o.id)) seen.set(o.id, o);
      orders.push({
        id: String(o.id), day, date: o.date, region: o.region, channel: o.channel, category: o.category,
        rep: o.rep || 'Unassigned', quantity: Number(o.quantity), unitCents: Math.round(Number(o.unit_price) * 100),
        discountPct: Math.round(Number(o.discount || 0) * 100), cents: netCents(o), status: o.status,
      });
    }
    return { store: raw.store || 'Store', today, orders, excluded };
  }

  // ------------------------------------------------------------------ filtering
  function matches(o, skipRegion) {
    return (skipRegion || !state.region || o.region === state.region)
      && (!state.channel || o.channel === state.channel)
      && (!state.category || o.category === state.category);
  }
  const inRange = (o, a, b) => o.day >= a && o.day <= b;

  function summarize(rows) {
    let counted = rows;
    let aovBase = rows.length;
    /* @feature paid-only */
    counted = rows.filter((o) => o.status === 'paid');
    aovBase = counted.length;
    /* @end paid-only */
    /* @broken paid-only */
    counted = rows.filter((o) => o.status === 'paid');
    aovBase = rows.length;
    /* @end paid-only */
    const revenue = counted.reduce((s, o) => s + o.cents, 0);
    return {
      rows, counted, revenue, orders: counted.length, aov: aovBase ? revenue / aovBase : null,
      refunded: rows.filter((o) => o.status === 'refunded').length,
      cancelled: rows.filter((o) => o.status === 'cancelled').length,
    };
  }

  // ------------------------------------------------------------------ URL hash
  function isValidParam(key, value) {
    if (key === 'range') return PRESETS.includes(value) || value === 'custom';
    if (key === 'region') return REGIONS.includes(value);
    if (key === 'channel') return value in CHANNELS;
    if (key === 'category') return CATEGORIES.includes(value);
    if (key === 'gran') return GRANS.includes(value);
    return false;
  }
  function validCustom(from, to) {
    let ok = from !== null && to !== null;
    /* @feature hash-guard */
    ok = ok && from <= to && to <= DATA.today;
    /* @end hash-guard */
    /* @broken hash-guard */
    ok = ok && to <= DATA.today;
    /* @end hash-guard */
    return ok;
  }

  function readHash() {
    const p = new URLSearchParams(location.hash.replace(/^#/, ''));
    const next = Object.assign({}, DEFAULTS);
    for (const key of ['range', 'region', 'channel', 'category', 'gran']) {
      const v = p.get(key);
      if (v === null || v === '') continue;
      let ok = true;
      /* @feature hash-guard */
      ok = isValidParam(key, v);
      /* @end hash-guard */
      /* @broken hash-guard */
      ok = isValidParam(key, v);
      /* @end hash-guard */
      if (ok) next[key] = v;
    }
    if (next.range === 'custom') {
      const from = parseDay(p.get('from'));
      const to = parseDay(p.get('to'));
      if (validCustom(from, to)) { next.from = from; next.to = to; } else next.range = DEFAULTS.range;
    }
    Object.assign(state, next, { page: 1 });
  }

  function writeHash() {
    const p = new URLSearchParams();
    p.set('range', state.range);
    if (state.range === 'custom') { p.set('from', iso(state.from)); p.set('to', iso(state.to)); }
    /* @feature hash-state */
    if (state.region) p.set('region', state.region);
    if (state.channel) p.set('channel', state.channel);
    if (state.category) p.set('category', state.category);
    if (state.gran !== 'day') p.set('gran', state.gran);
    /* @end hash-state */
    const h = '#' + p.toString();
    if (location.hash !== h) history.replaceState(null, '', h);
  }

  // ------------------------------------------------------------------ rendering
  function render() {
    if (!DATA) return;
    const [a, b] = currentRange();
    const [pa, pb] = previousRange(a, b);
    const rangeRows = DATA.orders.filter((o) => inRange(o, a, b));
    const rows = rangeRows.filter((o) => matches(o));
    const prevRows = DATA.orders.filter((o) => inRange(o, pa, pb) && matches(o));
    let sideRows = rangeRows;
    /* @feature filter-sync */
    sideRows = rows;
    /* @end filter-sync */
    /* @broken filter-sync */
    sideRows = rangeRows.filter((o) => !state.region || o.region === state.region);
    /* @end filter-sync */
    const cur = summarize(rows);
    const prev = summarize(prevRows);
    const empty = rows.length === 0;

    syncControls(a, b, pa, pb);
    renderKpis(cur, prev);
    renderTrend(cur.counted, a, b, empty);
    renderRegions(summarize(rangeRows.filter((o) => matches(o, true))).counted, empty);
    renderChannels(summarize(sideRows).counted, empty);
    renderReps(summarize(sideRows).counted, empty);
    renderOrders(rows, a, b);
    writeHash();
  }

  function syncControls(a, b, pa, pb) {
    $$('#presets [data-preset]').forEach((btn) => btn.setAttribute('aria-pressed', String(btn.dataset.preset === state.range)));
    $$('#gran [data-gran]').forEach((btn) => btn.setAttribute('aria-pressed', String(btn.dataset.gran === state.gran)));
    const setVal = (id, v) => { const n = document.getElementById(id); if (n) n.value = v; };
    setVal('f-region', state.region);
    setVal('f-channel', state.channel);
    setVal('f-category', state.category);
    const clear = $('#clear-filters');
    if (clear) clear.disabled = !(state.region || state.channel || state.category);
    const len = b - a + 1;
    $('#range-summary').innerHTML = '';
    $('#range-summary').append(
      el('strong', { text: fmtRange(a, b) }), ` · ${len} day${len === 1 ? '' : 's'} · compared with ${fmtRange(pa, pb)}`);
  }

  function setInputs(a, b) {
    const f = $('#from'), t = $('#to');
    if (f) { f.value = iso(a); f.removeAttribute('aria-invalid'); }
    if (t) { t.value = iso(b); t.removeAttribute('aria-invalid'); }
  }

  // ---------------------------------------------------------------- KPIs
  function changeText(cur, prev) {
    /* @feature prev-na */
    if (!prev) return { text: 'n/a', cls: 'flat', note: 'no data in the previous period' };
    /* @end prev-na */
    const v = (cur - prev) / prev * 100;
    const r = Math.round(Math.abs(v) * 10) / 10;
    const sign = v > 0 || (v === 0) ? '+' : '−';
    return { text: `${sign}${r.toFixed(1)}%`, cls: r === 0 ? 'flat' : (v > 0 ? 'up' : 'down'), note: 'vs previous period' };
  }

  function renderKpis(cur, prev) {
    const cards = { revenue: $('[data-kpi=revenue]'), orders: $('[data-kpi=orders]'), aov: $('[data-kpi=aov]') };
    if (!cards.revenue) return;
    const set = (card, value, ch) => {
      card.querySelector('.kpi-value').textContent = value;
      const c = card.querySelector('.kpi-change');
      c.className = 'kpi-change';
      c.textContent = '';
      /* @feature period-change */
      c.className = 'kpi-change ' + ch.cls;
      c.append(el('span', { class: 'badge' }, ch.cls === 'up' ? '▲ ' : ch.cls === 'down' ? '▼ ' : '', ch.text), ' ' + ch.note);
      /* @end period-change */
      /* @broken period-change */
      c.className = 'kpi-change ' + ch.cls;
      c.append(el('span', { class: 'badge' }, ch.cls === 'up' ? '▲ ' : ch.cls === 'down' ? '▼ ' : '', ch.text), ' ' + ch.note);
      /* @end period-change */
    };
    set(cards.revenue, money(cur.revenue), changeText(cur.revenue, prev.revenue));
    set(cards.orders, String(cur.orders), changeText(cur.orders, prev.orders));
    set(cards.aov, cur.aov === null ? '—' : money(Math.round(cur.aov)),
      cur.aov === null || prev.aov === null ? { text: 'n/a', cls: 'flat', note: 'no orders to compare' } : changeText(cur.aov, prev.aov));
    const sub = $('#k-ord-sub');
    sub.textContent = 'Paid orders';
    /* @feature kpi-sub */
    sub.textContent = `${cur.refunded} refunded · ${cur.cancelled} cancelled (not counted)`;
    /* @end kpi-sub */
  }

  // ---------------------------------------------------------------- trend chart
  function buckets(counted, a, b) {
    const out = [];
    let gran = 'day';
    /* @feature granularity */
    gran = state.gran;
    /* @end granularity */
    /* @broken granularity */
    gran = state.gran;
    /* @end granularity */
    const keyOf = (day) => {
      if (gran === 'week') {
        let weekStart = day - ((toDate(day).getUTCDay() + 6) % 7); // Monday
        /* @broken granularity */
        weekStart = day - toDate(day).getUTCDay(); // Sunday
        /* @end granularity */
        return weekStart;
      }
      if (gran === 'month') { const d = toDate(day); return Math.round(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 864e5); }
      return day;
    };
    const map = new Map();
    for (let d = a; d <= b; d++) {
      const k = keyOf(d);
      if (!map.has(k)) { const bk = { key: k, cents: 0 }; map.set(k, bk); out.push(bk); }
    }
    for (const o of counted) { const bk = map.get(keyOf(o.day)); if (bk) bk.cents += o.cents; }
    const label = (k) => {
      if (gran === 'week') return `Week of ${fmtDay(k)}`;
      if (gran === 'month') { const d = toDate(k); return `${MONTHS_LONG[d.getUTCMonth()]} ${d.getUTCFullYear()}`; }
      return fmtDay(k);
    };
    const short = (k) => {
      if (gran === 'month') return MONTHS[toDate(k).getUTCMonth()];
      return fmtDay(k, false);
    };
    out.forEach((bk) => { bk.label = label(bk.key); bk.short = short(bk.key); });
    return { gran, points: out };
  }

  function niceMax(v) {
    if (v <= 0) return 10000;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= v) return m * p;
    return 10 * p;
  }

  function emptyBox(target) {
    target.append(el('div', { class: 'empty' },
      el('span', { class: 'empty-icon', 'aria-hidden': 'true' }, '∅'),
      el('p', { text: EMPTY_MSG })));
  }

  function renderTrend(counted, a, b, empty) {
    const box = $('#trend');
    if (!box) return;
    box.innerHTML = '';
    /* @feature empty-state */
    if (empty) { emptyBox(box); return; }
    /* @end empty-state */
    /* @broken empty-state */
    if (empty) { emptyBox(box); return; }
    /* @end empty-state */
    const { gran, points } = buckets(counted, a, b);
    const W = 1100, H = 270, L = 56, R = 14, T = 14, B = 32;
    const max = niceMax(Math.max(...points.map((p) => p.cents)));
    const x = (i) => points.length === 1 ? L + (W - L - R) / 2 : L + i * (W - L - R) / (points.length - 1);
    const y = (c) => T + (H - T - B) * (1 - c / max);
    const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'trend-svg', role: 'img',
      'aria-label': `Net revenue over time, by ${gran}, ${fmtRange(a, b)}` });
    const defs = svg('defs', {}, svg('linearGradient', { id: 'area-grad', x1: 0, y1: 0, x2: 0, y2: 1 },
      svg('stop', { offset: '0%', 'stop-color': '#16a34a', 'stop-opacity': '0.22' }),
      svg('stop', { offset: '100%', 'stop-color': '#16a34a', 'stop-opacity': '0' })));
    chart.append(defs);
    for (let i = 0; i <= 4; i++) {
      const v = max * i / 4;
      chart.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid-line' }),
        svg('text', { x: L - 8, y: y(v) + 4, class: 'axis-label', 'text-anchor': 'end' }, moneyShort(v)));
    }
    const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.cents).toFixed(1)}`).join(' ');
    if (points.length > 1) {
      chart.append(svg('path', { d: `${path} L${x(points.length - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z`, fill: 'url(#area-grad)' }));
    }
    chart.append(svg('path', { d: path, class: 'trend-line' }));
    const every = Math.max(1, Math.ceil(points.length / 8));
    points.forEach((p, i) => {
      if (i % every === 0 || i === points.length - 1) {
        if (i === points.length - 1 && i % every !== 0 && i - Math.floor(i / every) * every < every / 2) return;
        chart.append(svg('text', { x: x(i), y: H - 10, class: 'axis-label', 'text-anchor': 'middle' }, p.short));
      }
    });
    points.forEach((p, i) => {
      const name = `${p.label}: ${money(p.cents)}`;
      chart.append(svg('circle', { cx: x(i).toFixed(1), cy: y(p.cents).toFixed(1), r: points.length > 40 ? 2.5 : 4,
        class: 'pt', role: 'img', 'aria-label': name, 'data-cents': p.cents, tabindex: 0 }, svg('title', {}, name)));
    });
    box.append(chart);
    const tip = el('div', { class: 'tip', hidden: true });
    box.append(tip);
    chart.addEventListener('mouseover', (e) => {
      const t = e.target.closest && e.target.closest('.pt');
      if (!t) return;
      tip.textContent = t.getAttribute('aria-label');
      const r = box.getBoundingClientRect(), pr = t.getBoundingClientRect();
      tip.style.left = (pr.left - r.left + pr.width / 2) + 'px';
      tip.style.top = (pr.top - r.top - 8) + 'px';
      tip.hidden = false;
    });
    chart.addEventListener('mouseleave', () => { tip.hidden = true; });
  }

  // ---------------------------------------------------------------- region bars
  function renderRegions(counted, empty) {
    const box = $('#regions');
    if (!box) return;
    box.innerHTML = '';
    /* @feature empty-state */
    if (empty && !counted.length) { emptyBox(box); return; }
    /* @end empty-state */
    /* @broken empty-state */
    if (empty && !counted.length) { emptyBox(box); return; }
    /* @end empty-state */
    const totals = REGIONS.map((r) => ({ region: r, cents: counted.filter((o) => o.region === r).reduce((s, o) => s + o.cents, 0) }))
      .sort((p, q) => q.cents - p.cents || p.region.localeCompare(q.region));
    const max = Math.max(1, ...totals.map((t) => t.cents));
    const W = 330, rowH = 50, L = 56, R = 78;
    const chart = svg('svg', { viewBox: `0 0 ${W} ${totals.length * rowH + 8}`, class: 'bars-svg', 'aria-label': 'Net revenue by region' });
    totals.forEach((t, i) => {
      const y0 = 6 + i * rowH;
      const w = Math.max(2, (W - L - R) * t.cents / max);
      const selected = state.region === t.region;
      const g = svg('g', { class: 'bar' + (selected ? ' selected' : '') + (state.region && !selected ? ' dim' : ''),
        role: 'button', tabindex: 0, 'aria-label': `${t.region}: ${money(t.cents)}`, 'aria-pressed': String(selected), 'data-region': t.region },
      svg('rect', { x: 0, y: y0, width: W, height: rowH - 6, class: 'bar-hit', rx: 8 }),
      svg('text', { x: L - 10, y: y0 + rowH / 2, class: 'bar-label', 'text-anchor': 'end' }, t.region),
      svg('rect', { x: L, y: y0 + 8, width: w.toFixed(1), height: rowH - 22, rx: 6, class: 'bar-fill' }),
      svg('text', { x: L + w + 8, y: y0 + rowH / 2, class: 'bar-value' }, money(t.cents)));
      chart.append(g);
    });
    box.append(chart);
  }

  // ---------------------------------------------------------------- channel donut
  function shares(values) {
    const total = values.reduce((s, v) => s + v, 0);
    if (!total) return values.map(() => 0);
    let tenths = values.map((v) => Math.round(v / total * 1000));
    /* @feature channel-pct */
    const exact = values.map((v) => v / total * 1000);
    tenths = exact.map(Math.floor);
    let left = 1000 - tenths.reduce((s, v) => s + v, 0);
    exact.map((v, i) => [v - Math.floor(v), i]).sort((p, q) => q[0] - p[0]).forEach(([, i]) => { if (left > 0) { tenths[i] += 1; left -= 1; } });
    /* @end channel-pct */
    return tenths.map((t) => t / 10);
  }

  function renderChannels(counted, empty) {
    const box = $('#channels');
    if (!box) return;
    box.innerHTML = '';
    /* @feature empty-state */
    if (empty) { emptyBox(box); return; }
    /* @end empty-state */
    /* @broken empty-state */
    if (empty) { emptyBox(box); return; }
    /* @end empty-state */
    const keys = Object.keys(CHANNELS);
    const amounts = keys.map((k) => counted.filter((o) => o.channel === k).reduce((s, o) => s + o.cents, 0));
    let basis = amounts;
    /* @broken channel-pct */
    basis = keys.map((k) => counted.filter((o) => o.channel === k).length);
    /* @end channel-pct */
    const pct = shares(basis);
    const total = amounts.reduce((s, v) => s + v, 0);
    const C = 2 * Math.PI * 52;
    const chart = svg('svg', { viewBox: '0 0 160 160', class: 'donut', 'aria-hidden': 'true' });
    chart.append(svg('circle', { cx: 80, cy: 80, r: 52, class: 'donut-bg' }));
    let offset = 0;
    keys.forEach((k, i) => {
      const frac = total ? amounts[i] / total : 0;
      if (frac > 0) {
        chart.append(svg('circle', { cx: 80, cy: 80, r: 52, fill: 'none', stroke: CHANNEL_COLORS[k], 'stroke-width': 22,
          'stroke-dasharray': `${(frac * C).toFixed(2)} ${C.toFixed(2)}`, 'stroke-dashoffset': (-offset * C).toFixed(2),
          transform: 'rotate(-90 80 80)' }));
      }
      offset += frac;
    });
    chart.append(svg('text', { x: 80, y: 76, class: 'donut-total', 'text-anchor': 'middle' }, moneyShort(total)),
      svg('text', { x: 80, y: 96, class: 'donut-sub', 'text-anchor': 'middle' }, 'net revenue'));
    const legend = el('ul', { class: 'legend', 'aria-label': 'Channel share' },
      keys.map((k, i) => el('li', { 'data-channel': k },
        el('span', { class: 'swatch', style: `background:${CHANNEL_COLORS[k]}`, 'aria-hidden': 'true' }),
        el('span', { class: 'lg-name', text: CHANNELS[k] }),
        el('span', { class: 'lg-amt', text: money(amounts[i]) }),
        el('span', { class: 'lg-pct', text: pct[i].toFixed(1) + '%' }))));
    box.append(chart, legend);
  }

  // ---------------------------------------------------------------- reps table
  function sortReps(list) {
    const { key, dir } = state.repSort;
    const m = dir === 'asc' ? 1 : -1;
    return list.sort((p, q) => (key === 'orders' ? m * (p.orders - q.orders) : 0)
      || m * (p.cents - q.cents) || p.rep.localeCompare(q.rep));
  }

  function sortHeader(label, key) {
    const active = state.repSort.key === key;
    const th = el('th', { scope: 'col', class: 'num', 'aria-sort': active ? (state.repSort.dir === 'asc' ? 'ascending' : 'descending') : 'none' });
    th.textContent = label;
    /* @feature reps-sort */
    th.textContent = '';
    th.append(el('button', { type: 'button', class: 'sort' + (active ? ' active' : ''), onclick: () => {
      state.repSort = active ? { key, dir: state.repSort.dir === 'desc' ? 'asc' : 'desc' } : { key, dir: 'desc' };
      render();
    } }, label, el('span', { class: 'arrow', 'aria-hidden': 'true' }, active ? (state.repSort.dir === 'asc' ? '▲' : '▼') : '↕')));
    /* @end reps-sort */
    /* @broken reps-sort */
    th.textContent = '';
    th.append(el('button', { type: 'button', class: 'sort' + (active ? ' active' : ''), onclick: () => {
      state.repSort = { key, dir: 'desc' };
      render();
    } }, label, el('span', { class: 'arrow', 'aria-hidden': 'true' }, active ? '▼' : '↕')));
    /* @end reps-sort */
    return th;
  }

  function renderReps(counted, empty) {
    const box = $('#reps');
    if (!box) return;
    box.innerHTML = '';
    /* @feature empty-state */
    if (empty) { emptyBox(box); return; }
    /* @end empty-state */
    /* @broken empty-state */
    if (empty) { emptyBox(box); return; }
    /* @end empty-state */
    const by = new Map();
    for (const o of counted) {
      const r = by.get(o.rep) || { rep: o.rep, orders: 0, cents: 0 };
      r.orders += 1; r.cents += o.cents; by.set(o.rep, r);
    }
    const list = sortReps([...by.values()]);
    const maxC = Math.max(1, ...list.map((r) => r.cents));
    const table = el('table', { class: 'data reps', 'aria-label': 'Top sales reps' },
      el('thead', {}, el('tr', {},
        el('th', { scope: 'col', class: 'rank', text: '#' }),
        el('th', { scope: 'col', text: 'Sales rep' }),
        sortHeader('Orders', 'orders'),
        sortHeader('Net revenue', 'revenue'),
        el('th', { scope: 'col', class: 'num', text: 'Avg order' }))),
      el('tbody', {}, list.map((r, i) => el('tr', {},
        el('td', { class: 'rank', text: String(i + 1) }),
        el('td', {}, el('span', { class: 'avatar', 'aria-hidden': 'true' }, r.rep.split(' ').map((w) => w[0]).join('').slice(0, 2)), r.rep),
        el('td', { class: 'num', text: String(r.orders) }),
        el('td', { class: 'num' }, el('span', { class: 'minibar', style: `--w:${(r.cents / maxC * 100).toFixed(1)}%`, 'aria-hidden': 'true' }), money(r.cents)),
        el('td', { class: 'num', text: money(Math.round(r.cents / r.orders)) })))));
    if (!list.length) table.querySelector('tbody').append(el('tr', {}, el('td', { colspan: 5, class: 'muted', text: 'No paid orders in this range.' })));
    box.append(table);
  }

  // ---------------------------------------------------------------- orders table, pagination, export
  function csvCell(v) {
    const s = String(v);
    return /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }
  function csvLine(o) {
    return [o.id, o.date, o.region, CHANNELS[o.channel] || o.channel, o.category, o.rep, o.quantity,
      plain2(o.unitCents), o.discountPct + '%', plain2(o.cents), STATUSES[o.status] || o.status].map(csvCell).join(',');
  }

  function renderExport(sorted, pageRows, a, b) {
    const link = $('#export-link');
    if (!link) return;
    if (exportUrl) { URL.revokeObjectURL(exportUrl); exportUrl = null; }
    link.setAttribute('download', `orders_${iso(a)}_${iso(b)}.csv`);
    if (!sorted.length) {
      link.removeAttribute('href');
      link.setAttribute('aria-disabled', 'true');
      link.classList.add('disabled');
      return;
    }
    let out = sorted;
    /* @broken csv-export */
    out = pageRows;
    /* @end csv-export */
    const text = ['Order ID,Date,Region,Channel,Category,Sales rep,Quantity,Unit price,Discount,Net amount,Status']
      .concat(out.map(csvLine)).join('\r\n') + '\r\n';
    exportUrl = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    link.href = exportUrl;
    link.removeAttribute('aria-disabled');
    link.classList.remove('disabled');
  }

  function renderOrders(rows, a, b) {
    const box = $('#orders');
    if (!box) return;
    box.innerHTML = '';
    const pager = $('#pager');
    pager.innerHTML = '';
    const sorted = rows.slice().sort((p, q) => q.day - p.day || q.id.localeCompare(p.id, 'en', { numeric: true }));
    let pageRows = sorted;
    let first = 1, last = sorted.length;
    /* @feature pagination */
    const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
    /* @end pagination */
    /* @broken pagination */
    const pages = Math.max(1, Math.floor(sorted.length / PAGE_SIZE));
    /* @end pagination */
    /* @feature pagination */
    state.page = Math.min(Math.max(1, state.page), pages);
    pageRows = sorted.slice((state.page - 1) * PAGE_SIZE, state.page * PAGE_SIZE);
    first = sorted.length ? (state.page - 1) * PAGE_SIZE + 1 : 0;
    last = (state.page - 1) * PAGE_SIZE + pageRows.length;
    /* @end pagination */
    /* @broken pagination */
    state.page = Math.min(Math.max(1, state.page), pages);
    pageRows = sorted.slice((state.page - 1) * PAGE_SIZE, state.page * PAGE_SIZE);
    first = sorted.length ? (state.page - 1) * PAGE_SIZE + 1 : 0;
    last = (state.page - 1) * PAGE_SIZE + pageRows.length;
    /* @end pagination */
    const table = el('table', { class: 'data orders', 'aria-label': 'Order list' },
      el('thead', {}, el('tr', {}, ['Order', 'Date', 'Region', 'Channel', 'Category', 'Sales rep', 'Qty', 'Net amount', 'Status']
        .map((h, i) => el('th', { scope: 'col', class: i >= 6 && i <= 7 ? 'num' : null, text: h })))),
      el('tbody', {}, pageRows.map((o) => el('tr', { class: o.status !== 'paid' ? 'not-counted' : null },
        el('td', { class: 'mono', text: o.id }),
        el('td', { class: 'mono', text: o.date }),
        el('td', { text: o.region }),
        el('td', {}, el('span', { class: 'chan-dot', style: `background:${CHANNEL_COLORS[o.channel]}`, 'aria-hidden': 'true' }), CHANNELS[o.channel]),
        el('td', { text: o.category }),
        el('td', { text: o.rep }),
        el('td', { class: 'num', text: String(o.quantity) }),
        el('td', { class: 'num', text: money(o.cents) }),
        el('td', {}, el('span', { class: 'status ' + o.status, text: STATUSES[o.status] }))))));
    box.append(table);
    if (!sorted.length) {
      let emptyRow = el('td', { colspan: 9, class: 'muted', text: '' });
      /* @feature empty-state */
      emptyRow = el('td', { colspan: 9 }, el('div', { class: 'empty' },
        el('span', { class: 'empty-icon', 'aria-hidden': 'true' }, '∅'),
        el('p', { text: EMPTY_MSG }),
        el('button', { type: 'button', class: 'btn', onclick: clearFilters }, 'Clear filters')));
      /* @end empty-state */
      /* @broken empty-state */
      emptyRow = el('td', { colspan: 9 }, el('div', { class: 'empty' },
        el('span', { class: 'empty-icon', 'aria-hidden': 'true' }, '∅'),
        el('p', { text: EMPTY_MSG }),
        el('button', { type: 'button', class: 'btn', onclick: () => { state.region = ''; state.page = 1; render(); } }, 'Clear filters')));
      /* @end empty-state */
      table.querySelector('tbody').append(el('tr', { class: 'empty-row' }, emptyRow));
    }
    pager.append(el('p', { class: 'showing', text: sorted.length ? `Showing ${first}–${last} of ${sorted.length} orders` : 'Showing 0 of 0 orders' }));
    /* @feature pagination */
    const go = (p) => { state.page = p; render(); };
    pager.append(el('div', { class: 'pager-ctl' },
      el('button', { type: 'button', class: 'btn', 'aria-label': 'Previous page', disabled: state.page <= 1, onclick: () => go(state.page - 1) }, '‹ Prev'),
      el('span', { class: 'page-info', text: `Page ${state.page} of ${pages}` }),
      el('button', { type: 'button', class: 'btn', 'aria-label': 'Next page', disabled: state.page >= pages, onclick: () => go(state.page + 1) }, 'Next ›')));
    /* @end pagination */
    /* @broken pagination */
    const go = (p) => { state.page = p; render(); };
    pager.append(el('div', { class: 'pager-ctl' },
      el('button', { type: 'button', class: 'btn', 'aria-label': 'Previous page', disabled: state.page <= 1, onclick: () => go(state.page - 1) }, '‹ Prev'),
      el('span', { class: 'page-info', text: `Page ${state.page} of ${pages}` }),
      el('button', { type: 'button', class: 'btn', 'aria-label': 'Next page', disabled: state.page >= pages, onclick: () => go(state.page + 1) }, 'Next ›')));
    /* @end pagination */
    renderExport(sorted, pageRows, a, b);
  }

  // ---------------------------------------------------------------- data-quality notice
  function renderQuality() {
    const box = $('#dq');
    if (!box) return;
    const n = DATA.excluded.length;
    box.hidden = n === 0;
    $('#dq-title').textContent = `${n} record${n === 1 ? '' : 's'} excluded`;
    const list = $('#dq-list');
    list.innerHTML = '';
    DATA.excluded.forEach((x) => list.append(el('li', {},
      el('span', { class: 'mono', text: x.id || '(no ID)' }), ` · ${x.date || 'no date'} — ${x.reason}`)));
    $('#dq-toggle').onclick = () => {
      const open = list.hidden;
      list.hidden = !open;
      $('#dq-toggle').setAttribute('aria-expanded', String(open));
      $('#dq-toggle').textContent = open ? 'Hide details' : 'Show details';
    };
  }

  // ---------------------------------------------------------------- actions
  function clearFilters() {
    state.region = ''; state.channel = ''; state.category = ''; state.page = 1;
    render();
  }
  function showRangeError(msg, bad) {
    const p = $('#range-error');
    p.textContent = msg || '';
    p.hidden = !msg;
    for (const id of ['from', 'to']) {
      const n = document.getElementById(id);
      if (!n) continue;
      if (msg && bad.includes(id)) n.setAttribute('aria-invalid', 'true'); else n.removeAttribute('aria-invalid');
    }
  }

  function applyCustom() {
    const from = parseDay($('#from').value);
    const to = parseDay($('#to').value);
    /* @feature range-validation */
    if (from === null || to === null) {
      return showRangeError('Choose both a start and an end date.', [from === null ? 'from' : null, to === null ? 'to' : null]);
    }
    if (from > to) return showRangeError('Start date must be on or before the end date.', ['from', 'to']);
    if (to > DATA.today) return showRangeError(`The end date cannot be after ${fmtDay(DATA.today)}.`, ['to']);
    /* @end range-validation */
    /* @broken range-validation */
    if (from === null || to === null) {
      return showRangeError('Choose both a start and an end date.', [from === null ? 'from' : null, to === null ? 'to' : null]);
    }
    if (from > to) return showRangeError('Start date must be on or before the end date.', ['from', 'to']);
    /* @end range-validation */
    if (from === null || to === null) return;
    showRangeError('', []);
    Object.assign(state, { range: 'custom', from, to, page: 1 });
    render();
  }

  function bind() {
    /* @feature presets */
    $$('#presets [data-preset]').forEach((btn) => btn.addEventListener('click', () => {
      Object.assign(state, { range: btn.dataset.preset, from: null, to: null, page: 1 });
      showRangeError('', []);
      render();
      setInputs(...currentRange());
    }));
    /* @end presets */
    /* @broken presets */
    $$('#presets [data-preset]').forEach((btn) => btn.addEventListener('click', () => {
      Object.assign(state, { range: btn.dataset.preset, from: null, to: null, page: 1 });
      showRangeError('', []);
      render();
    }));
    /* @end presets */
    /* @feature custom-range */
    $('#custom-form').addEventListener('submit', (e) => { e.preventDefault(); applyCustom(); });
    /* @end custom-range */
    /* @feature filters */
    for (const key of ['region', 'channel', 'category']) {
      $('#f-' + key).addEventListener('change', (e) => { state[key] = e.target.value; state.page = 1; render(); });
    }
    $('#clear-filters').addEventListener('click', clearFilters);
    /* @end filters */
    /* @feature granularity */
    $$('#gran [data-gran]').forEach((btn) => btn.addEventListener('click', () => { state.gran = btn.dataset.gran; render(); }));
    /* @end granularity */
    /* @broken granularity */
    $$('#gran [data-gran]').forEach((btn) => btn.addEventListener('click', () => { state.gran = btn.dataset.gran; render(); }));
    /* @end granularity */
    /* @feature drilldown */
    const regions = $('#regions');
    const pick = (g) => {
      const r = g.getAttribute('data-region');
      state.region = state.region === r ? '' : r;
      state.page = 1;
      render();
    };
    if (regions) {
      regions.addEventListener('click', (e) => { const g = e.target.closest('.bar'); if (g) pick(g); });
      regions.addEventListener('keydown', (e) => {
        const g = e.target.closest && e.target.closest('.bar');
        if (g && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); pick(g); }
      });
    }
    /* @end drilldown */
    /* @broken drilldown */
    const regions = $('#regions');
    if (regions) {
      regions.addEventListener('click', (e) => {
        const g = e.target.closest('.bar');
        if (!g) return;
        state.region = g.getAttribute('data-region');
        state.page = 1;
        render();
        const sel = $('#f-region');
        if (sel) sel.value = '';
      });
    }
    /* @end drilldown */
    const link = $('#export-link');
    if (link) link.addEventListener('click', (e) => { if (link.getAttribute('aria-disabled') === 'true' || !exportUrl) e.preventDefault(); });
    /* @feature hash-state */
    window.addEventListener('hashchange', () => {
      readHash();
      showRangeError('', []);
      render();
      setInputs(...currentRange());
    });
    /* @end hash-state */
    /* @broken hash-state */
    window.addEventListener('hashchange', () => {
      readHash();
      showRangeError('', []);
      render();
      setInputs(...currentRange());
    });
    /* @end hash-state */
  }

  // ---------------------------------------------------------------- boot
  async function boot() {
    let raw;
    try {
      const res = await fetch('data/orders.json', { cache: 'no-store' });
      if (!res.ok) throw new Error('HTTP ' + res.status);
      raw = await res.json();
      DATA = prepare(raw);
    } catch (err) {
      const box = $('#load-error');
      box.textContent = `Could not load data/orders.json (${err.message}). Check that the file exists and is valid JSON.`;
      box.hidden = false;
      document.body.classList.remove('is-loading');
      $('#loading-note').hidden = true;
      return;
    }
    $('#store-name').textContent = DATA.store;
    const asof = $('#asof-text');
    if (asof) asof.textContent = `Data as of ${fmtDay(DATA.today)}`;
    const to = $('#to');
    if (to) to.max = iso(DATA.today);
    /* @feature hash-state */
    readHash();
    /* @end hash-state */
    /* @broken hash-state */
    readHash();
    /* @end hash-state */
    bind();
    renderQuality();
    render();
    setInputs(...currentRange());
    document.body.classList.remove('is-loading');
    $('#app').removeAttribute('aria-busy');
  }

  boot();
})();
