/* Home energy dashboard — plain JS, no dependencies. Charts are inline SVG drawn below. */
(function () {
  'use strict';

  // ------------------------------------------------------------------ constants & helpers
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const MONTHS_LONG = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
    'September', 'October', 'November', 'December'];
  const WD = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const BAND_LABEL = { peak: 'Peak', offpeak: 'Off-peak', weekend: 'Weekend' };
  const PLAIN_COLOR = '#5c7cfa';
  let BAND_COLOR = { peak: PLAIN_COLOR, offpeak: PLAIN_COLOR, weekend: PLAIN_COLOR };
  /* @feature band-colours */
  BAND_COLOR = { peak: '#e8590c', offpeak: '#1c7ed6', weekend: '#2f9e44' };
  /* @end band-colours */
  const DONUT_COLORS = ['#f76707', '#1c7ed6', '#e64980', '#7048e8', '#0ca678', '#fab005', '#15aabf', '#868e96'];
  const SVGNS = 'http://www.w3.org/2000/svg';
  const $ = (sel) => document.querySelector(sel);

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

  // Days are integers (days since 1970-01-01, UTC); hours are day * 24 + hour. Nothing depends on
  // the computer's clock or time zone.
  function parseDay(s) {
    if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return null;
    const [y, m, d] = s.split('-').map(Number);
    const dt = new Date(Date.UTC(y, m - 1, d));
    if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
    return Math.round(dt.getTime() / 864e5);
  }
  function parseHour(s) {
    const m = typeof s === 'string' && /^(\d{4}-\d{2}-\d{2})T(\d{2}):00$/.exec(s);
    if (!m) return null;
    const day = parseDay(m[1]);
    const h = Number(m[2]);
    if (day === null || h > 23) return null;
    return day * 24 + h;
  }
  const toDate = (n) => new Date(n * 864e5);
  const iso = (n) => toDate(n).toISOString().slice(0, 10);
  const weekday = (day) => (day + 4) % 7; // 0 = Sunday
  const pad = (n) => String(n).padStart(2, '0');
  const ymd = (day) => { const d = toDate(day); return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()]; };
  const dayOf = (y, m, d) => Math.round(Date.UTC(y, m, d) / 864e5);
  function fmtDay(day, opts = {}) {
    const [y, m, d] = ymd(day);
    return (opts.wd ? WD[weekday(day)] + ' ' : '') + `${d} ${MONTHS[m]}` + (opts.year === false ? '' : ` ${y}`);
  }
  function fmtRange(a, b) {
    if (a === b) return fmtDay(a);
    const [ya, ma, da] = ymd(a); const [yb, mb] = ymd(b);
    if (ya === yb && ma === mb) return `${da} – ${fmtDay(b)}`;
    if (ya === yb) return `${fmtDay(a, { year: false })} – ${fmtDay(b)}`;
    return `${fmtDay(a)} – ${fmtDay(b)}`;
  }
  const monthKey = (day) => { const [y, m] = ymd(day); return `${y}-${pad(m + 1)}`; };
  const monthName = (key) => { const [y, m] = key.split('-').map(Number); return `${MONTHS_LONG[m - 1]} ${y}`; };
  function thousands(s) { return s.replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function kwhText(wh, dp = 2) {
    const v = (wh / 1000).toFixed(dp);
    const [i, f] = v.replace('-', '').split('.');
    return (wh < 0 ? '−' : '') + thousands(i) + (f ? '.' + f : '');
  }
  function money(pence) {
    const neg = pence < 0; const p = Math.abs(Math.round(pence));
    return (neg ? '−' : '') + '£' + thousands(String(Math.floor(p / 100))) + '.' + pad(p % 100);
  }
  function pct(x, dp = 1) {
    const v = Math.abs(x).toFixed(dp);
    if (Number(v) === 0) return (0).toFixed(dp) + '%';
    return (x > 0 ? '+' : '−') + v + '%';
  }

  // ------------------------------------------------------------------ state
  let DATA = null;
  const state = { period: 'week', anchor: 0, budgetPence: 0, cmpA: '', cmpB: '' };
  let T = {};           // tariff, in tenths of a penny per kWh
  let hours = new Map(); // hour index -> Wh
  let issues = [];       // data-quality lines
  let firstDay = 0, today = 0;
  let exportUrl = null;

  // ------------------------------------------------------------------ data preparation
  function prepare(raw) {
    const tf = raw.tariff || {};
    T = {
      peak: Math.round((tf.peak?.rate_p ?? 0) * 10),
      offpeak: Math.round((tf.off_peak?.rate_p ?? 0) * 10),
      weekend: Math.round((tf.weekend?.rate_p ?? tf.off_peak?.rate_p ?? 0) * 10),
      standing: Math.round((tf.standing_charge_p_per_day ?? 0) * 10),
      peakFrom: Number(String(tf.peak?.from || '16:00').slice(0, 2)),
      peakTo: Number(String(tf.peak?.to || '20:00').slice(0, 2)),
      name: tf.name || 'Tariff',
    };
    today = parseDay(raw.today);
    hours = new Map();
    issues = [];
    const seen = new Map();
    let minH = Infinity;
    for (const r of raw.readings || []) {
      const h = parseHour(r.t);
      if (h === null) { issues.push({ t: String(r.t), kind: 'bad-time', text: 'Unparseable timestamp — reading ignored' }); continue; }
      if (typeof r.kwh !== 'number' || !Number.isFinite(r.kwh)) {
        issues.push({ t: r.t, kind: 'missing', text: 'Missing value — hour treated as a gap' });
        continue;
      }
      const wh = Math.round(r.kwh * 1000);
      /* @feature dq-negative */
      if (wh < 0) {
        issues.push({ t: r.t, kind: 'negative', text: `Negative reading (${kwhText(wh, 3)} kWh) — hour treated as a gap` });
        continue;
      }
      /* @end dq-negative */
      /* @feature dq-dedupe */
      if (seen.has(h)) {
        issues.push({ t: r.t, kind: 'duplicate', text: `Duplicate reading — second value ${kwhText(wh, 3)} kWh ignored, first (${kwhText(seen.get(h), 3)} kWh) kept` });
        continue;
      }
      /* @end dq-dedupe */
      /* @broken dq-dedupe */
      if (seen.has(h)) {
        issues.push({ t: r.t, kind: 'duplicate', text: `Duplicate reading — first value ${kwhText(seen.get(h), 3)} kWh replaced by ${kwhText(wh, 3)} kWh` });
        hours.set(h, wh); seen.set(h, wh);
        continue;
      }
      /* @end dq-dedupe */
      seen.set(h, wh);
      hours.set(h, (hours.get(h) || 0) + wh);
      if (h < minH) minH = h;
    }
    firstDay = Number.isFinite(minH) ? Math.floor(minH / 24) : today;
    // appliance estimates: negative / non-numeric values are ignored
    DATA.appliances = {};
    for (const [key, list] of Object.entries(raw.appliances || {})) {
      DATA.appliances[key] = [];
      for (const a of list || []) {
        if (typeof a.kwh !== 'number' || !Number.isFinite(a.kwh) || a.kwh < 0) {
          issues.push({ t: monthName(key), kind: 'appliance', text: `Appliance estimate "${a.name}" ignored (invalid value ${a.kwh})` });
          continue;
        }
        DATA.appliances[key].push({ name: String(a.name), wh: Math.round(a.kwh * 1000) });
      }
    }
    const b = Number(raw.monthly_budget_gbp);
    state.budgetPence = Number.isFinite(b) && b > 0 ? Math.round(b * 100) : 10000;
  }

  // ------------------------------------------------------------------ tariff
  function bandOf(day, h) {
    let band = 'offpeak';
    /* @feature tariff-bands */
    const wd = weekday(day);
    if (wd === 0 || wd === 6) band = 'weekend';
    else if (h >= T.peakFrom && h < T.peakTo) band = 'peak';
    /* @end tariff-bands */
    /* @broken tariff-bands */
    if (h >= T.peakFrom && h < T.peakTo) band = 'peak';
    /* @end tariff-bands */
    return band;
  }
  const rateOf = (band) => T[band];

  // Sum a day range [a, b] (inclusive, clipped to the data). Energy cost is kept in 1e-4 p.
  function summarize(a, b) {
    const s = { a, b, wh: 0, band: { peak: 0, offpeak: 0, weekend: 0 }, energy: 0, days: 0, gaps: 0, readings: 0 };
    const lo = Math.max(a, firstDay), hi = Math.min(b, today);
    for (let d = lo; d <= hi; d++) {
      s.days++;
      for (let h = 0; h < 24; h++) {
        const v = hours.get(d * 24 + h);
        if (v === undefined) { s.gaps++; continue; }
        const band = bandOf(d, h);
        s.readings++;
        s.wh += v;
        s.band[band] += v;
        s.energy += v * rateOf(band);
      }
    }
    s.energyPence = Math.round(s.energy / 1e4);
    s.standingPence = 0;
    /* @feature standing-charge */
    s.standingPence = Math.round(s.days * T.standing / 10);
    /* @end standing-charge */
    /* @broken standing-charge */
    s.standingPence = Math.round((b - a + 1) * T.standing / 10);
    /* @end standing-charge */
    s.costPence = s.energyPence + s.standingPence;
    return s;
  }

  // ------------------------------------------------------------------ periods
  function bounds(period, anchor) {
    if (period === 'day') return [anchor, anchor];
    if (period === 'week') { const s = anchor - ((weekday(anchor) + 6) % 7); return [s, s + 6]; }
    const [y, m] = ymd(anchor);
    return [dayOf(y, m, 1), dayOf(y, m + 1, 0)];
  }
  function shift(period, anchor, dir) {
    const [s] = bounds(period, anchor);
    if (period === 'day') return anchor + dir;
    if (period === 'week') return s + 7 * dir;
    const [y, m] = ymd(s);
    return dayOf(y, m + dir, 1);
  }
  function periodTitle(period, a, b) {
    if (period === 'day') return fmtDay(a, { wd: true });
    if (period === 'week') return `Week of ${fmtRange(a, b)}`;
    return monthName(monthKey(a));
  }

  // ------------------------------------------------------------------ rendering
  function render() {
    const [a, b] = bounds(state.period, state.anchor);
    const cur = summarize(a, b);
    renderPeriodBar(a, b);
    renderCards(a, b, cur);
    renderChart(a, b);
    renderExport(a, b);
    renderDonut(a);
    renderBudget();
    renderCompare();
  }

  function renderPeriodBar(a, b) {
    const label = $('#period-label');
    if (label) label.textContent = periodTitle(state.period, a, b);
    const sub = $('#period-sub');
    if (sub) {
      const hi = Math.min(b, today), lo = Math.max(a, firstDay);
      sub.textContent = (b > today || a < firstDay) && hi >= lo ? `Meter data for ${fmtRange(lo, hi)}` : '';
    }
    for (const btn of document.querySelectorAll('#period-buttons button')) {
      btn.setAttribute('aria-pressed', String(btn.dataset.period === state.period));
    }
    const prev = $('#prev-btn'), next = $('#next-btn');
    if (prev) prev.disabled = a <= firstDay;
    if (next) next.disabled = b >= today;
  }

  function comparison(a, b) {
    // like-for-like: the elapsed part of the period vs the same stretch of the previous period
    const lo = Math.max(a, firstDay), hi = Math.min(b, today);
    const [pa, pb] = bounds(state.period, shift(state.period, a, -1));
    let ca = pa + (lo - a), cb = Math.min(pa + (hi - a), pb);
    /* @broken vs-prev */
    ca = pa; cb = pb;
    /* @end vs-prev */
    return { ca, cb, prev: summarize(ca, cb) };
  }

  function renderCards(a, b, cur) {
    const u = $('#kpi-usage');
    if (!u) return;
    u.textContent = `${kwhText(cur.wh)} kWh`;
    const us = $('#kpi-usage-sub');
    us.textContent = '';
    /* @feature peak-split */
    us.textContent = `Peak ${kwhText(cur.band.peak, 1)} · Off-peak ${kwhText(cur.band.offpeak, 1)} · Weekend ${kwhText(cur.band.weekend, 1)} kWh`;
    /* @end peak-split */
    const gapsEl = $('#kpi-gaps');
    gapsEl.hidden = true;
    /* @feature gap-marks */
    if (cur.gaps > 0) {
      gapsEl.hidden = false;
      gapsEl.textContent = `${cur.gaps} ${cur.gaps === 1 ? 'hour' : 'hours'} without a reading — totals may be understated`;
    }
    /* @end gap-marks */
    $('#kpi-cost').textContent = money(cur.costPence);
    let costSub = `Energy ${money(cur.energyPence)}`;
    /* @feature standing-charge */
    costSub += ` + standing charge ${money(cur.standingPence)} (${cur.days} ${cur.days === 1 ? 'day' : 'days'})`;
    /* @end standing-charge */
    /* @broken standing-charge */
    costSub += ` + standing charge ${money(cur.standingPence)} (${cur.days} ${cur.days === 1 ? 'day' : 'days'})`;
    /* @end standing-charge */
    $('#kpi-cost-sub').textContent = costSub;

    const pv = $('#kpi-prev'), ps = $('#kpi-prev-sub');
    pv.textContent = '—'; ps.textContent = 'Comparison not available';
    pv.className = 'kpi-value';
    /* @feature vs-prev */
    const c = comparison(a, b);
    let na = false;
    /* @feature prev-na */
    na = c.ca < firstDay || c.prev.readings === 0;
    if (na) {
      pv.textContent = 'n/a';
      ps.textContent = 'No meter data for the previous period';
    }
    /* @end prev-na */
    if (!na) {
      const change = (cur.wh - c.prev.wh) / c.prev.wh * 100;
      pv.textContent = pct(change);
      pv.className = 'kpi-value ' + (change > 0 ? 'up' : 'down');
      ps.textContent = `vs ${fmtRange(c.ca, c.cb)} (${kwhText(c.prev.wh)} kWh)`;
    }
    /* @end vs-prev */
    /* @broken vs-prev */
    const c = comparison(a, b);
    let na = false;
    /* @feature prev-na */
    na = c.ca < firstDay || c.prev.readings === 0;
    if (na) {
      pv.textContent = 'n/a';
      ps.textContent = 'No meter data for the previous period';
    }
    /* @end prev-na */
    if (!na) {
      const change = (cur.wh - c.prev.wh) / c.prev.wh * 100;
      pv.textContent = pct(change);
      pv.className = 'kpi-value ' + (change > 0 ? 'up' : 'down');
      ps.textContent = `vs ${fmtRange(c.ca, c.cb)} (${kwhText(c.prev.wh)} kWh)`;
    }
    /* @end vs-prev */
  }

  // ---------------------------------------------------------------- usage chart (inline SVG)
  function hourLabel(h) { return `${pad(h)}:00–${pad((h + 1) % 24)}:00`; }

  function buildBars(a, b) {
    const bars = [];
    if (state.period === 'day') {
      for (let h = 0; h < 24; h++) {
        const v = hours.get(a * 24 + h);
        const band = bandOf(a, h);
        const inData = a >= firstDay && a <= today;
        if (v === undefined) {
          bars.push({ key: `${iso(a)} ${pad(h)}:00`, label: pad(h), gap: inData, segs: [], title: `${fmtDay(a, { wd: true })}, ${hourLabel(h)}` });
          continue;
        }
        bars.push({ key: `${iso(a)} ${pad(h)}:00`, label: pad(h), segs: [{ band, wh: v }], total: v,
          cost: v * rateOf(band), title: `${fmtDay(a, { wd: true })}, ${hourLabel(h)}`, band });
      }
    } else {
      for (let d = a; d <= b; d++) {
        const s = summarize(d, d);
        const segs = ['offpeak', 'peak', 'weekend'].map((k) => ({ band: k, wh: s.band[k] })).filter((x) => x.wh > 0);
        bars.push({ key: iso(d), label: state.period === 'week' ? WD[weekday(d)] : String(ymd(d)[2]), segs, total: s.wh,
          cost: s.energy, title: fmtDay(d, { wd: true }), daySum: s, gap: d >= firstDay && d <= today && s.gaps > 0 && s.readings > 0, partialGaps: s.gaps });
      }
    }
    return bars;
  }

  function niceMax(v) {
    if (v <= 0) return 1000;
    const k = v / 1000;
    const steps = [0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100];
    for (const s of steps) if (k <= s * 4) return s * 4 * 1000;
    return Math.ceil(k) * 1000;
  }

  function renderChart(a, b) {
    const box = $('#usage-chart');
    if (!box) return;
    box.innerHTML = '';
    const hint = $('#usage-hint');
    if (hint) hint.textContent = state.period === 'day' ? 'kWh per hour' : 'kWh per day';
    const bars = buildBars(a, b);
    const W = 760, H = 280, L = 44, R = 10, TOP = 12, B = 28;
    const max = niceMax(Math.max(0, ...bars.map((x) => x.total || 0)));
    const pw = (W - L - R) / bars.length;
    const bw = Math.max(3, pw * 0.68);
    const y = (wh) => TOP + (H - TOP - B) * (1 - wh / max);
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': 'Energy usage bar chart' });
    for (let i = 0; i <= 4; i++) {
      const v = max / 4 * i;
      root.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
      root.append(svg('text', { x: L - 8, y: y(v) + 4, class: 'axis', 'text-anchor': 'end' }, kwhText(v, v % 1000 ? 1 : 0)));
    }
    const every = bars.length > 24 ? 2 : (bars.length === 24 ? 3 : 1);
    bars.forEach((bar, i) => {
      const x = L + pw * i + (pw - bw) / 2;
      const g = svg('g', { class: 'bar', 'data-key': bar.key });
      let acc = 0;
      for (const s of bar.segs) {
        const y1 = y(acc + s.wh), y0 = y(acc);
        g.append(svg('rect', { x: x.toFixed(1), y: y1.toFixed(1), width: bw.toFixed(1), height: Math.max(0.5, y0 - y1).toFixed(1),
          fill: BAND_COLOR[s.band], 'data-band': s.band, class: 'seg' }));
        acc += s.wh;
      }
      /* @feature gap-marks */
      if (bar.gap && !bar.segs.length) {
        g.classList.add('is-gap');
        g.append(svg('rect', { x: x.toFixed(1), y: (y(0) - 18).toFixed(1), width: bw.toFixed(1), height: 18, class: 'gap-mark', 'data-gap': 'true' }));
        g.append(svg('text', { x: (x + bw / 2).toFixed(1), y: (y(0) - 22).toFixed(1), class: 'gap-x', 'text-anchor': 'middle' }, '!'));
      } else if (bar.gap) {
        g.classList.add('has-gap');
        g.append(svg('text', { x: (x + bw / 2).toFixed(1), y: (y(acc) - 5).toFixed(1), class: 'gap-x', 'text-anchor': 'middle' }, '!'));
      }
      /* @end gap-marks */
      g.append(svg('rect', { x: (L + pw * i).toFixed(1), y: TOP, width: pw.toFixed(1), height: H - TOP - B, class: 'hit', fill: 'transparent' }));
      /* @feature tooltip */
      g.addEventListener('mouseenter', (ev) => showTip(bar, g));
      g.addEventListener('mouseleave', hideTip);
      /* @end tooltip */
      root.append(g);
      if (i % every === 0) {
        root.append(svg('text', { x: (L + pw * i + pw / 2).toFixed(1), y: H - 9, class: 'axis', 'text-anchor': 'middle' }, bar.label));
      }
    });
    box.append(root);
    if (!bars.some((x) => x.segs.length)) {
      box.append(el('p', { class: 'chart-empty', text: 'No meter readings for this period.' }));
    }
  }

  /* @feature tooltip */
  function showTip(bar, g) {
    const tip = $('#tooltip');
    if (!tip) return;
    tip.innerHTML = '';
    tip.append(el('strong', { text: bar.title }));
    if (!bar.segs.length) {
      tip.append(el('div', { text: bar.gap ? 'No reading for this hour' : 'No data' }));
    } else if (state.period === 'day') {
      tip.append(el('div', { text: `${kwhText(bar.total, 3)} kWh · ${BAND_LABEL[bar.band]} · ${(rateOf(bar.band) / 10).toFixed(1)}p/kWh` }));
      tip.append(el('div', { text: `Cost ${money(bar.cost / 1e4)}` }));
    } else {
      const s = bar.daySum;
      tip.append(el('div', { text: `${kwhText(bar.total)} kWh · Energy ${money(s.energyPence)}` }));
      tip.append(el('div', { text: `Peak ${kwhText(s.band.peak, 1)} · Off-peak ${kwhText(s.band.offpeak, 1)} · Weekend ${kwhText(s.band.weekend, 1)} kWh` }));
      if (s.gaps) tip.append(el('div', { class: 'tip-warn', text: `${s.gaps} ${s.gaps === 1 ? 'hour' : 'hours'} without a reading` }));
    }
    tip.hidden = false;
    const card = $('#usage-card').getBoundingClientRect();
    const r = g.getBoundingClientRect();
    const left = Math.min(Math.max(8, r.left - card.left + r.width / 2 - 110), card.width - 230);
    tip.style.left = left + 'px';
    tip.style.top = Math.max(8, r.top - card.top + 20) + 'px';
  }
  function hideTip() { const tip = $('#tooltip'); if (tip) tip.hidden = true; }
  /* @end tooltip */

  // ---------------------------------------------------------------- CSV export
  function renderExport(a, b) {
    const link = $('#export-link');
    if (!link) return;
    if (exportUrl) { URL.revokeObjectURL(exportUrl); exportUrl = null; }
    link.setAttribute('download', `energy_${iso(a)}_${iso(b)}.csv`);
    const lines = ['Timestamp,kWh,Band,Rate (p/kWh),Cost (GBP)'];
    for (let d = Math.max(a, firstDay); d <= Math.min(b, today); d++) {
      for (let h = 0; h < 24; h++) {
        const v = hours.get(d * 24 + h);
        if (v === undefined) continue;
        const band = bandOf(d, h);
        lines.push([`${iso(d)} ${pad(h)}:00`, kwhText(v, 3), BAND_LABEL[band], (rateOf(band) / 10).toFixed(1),
          (Math.round(v * rateOf(band) / 100) / 1e4).toFixed(4)].join(','));
      }
    }
    exportUrl = URL.createObjectURL(new Blob([lines.join('\r\n') + '\r\n'], { type: 'text/csv;charset=utf-8' }));
    link.href = exportUrl;
  }

  // ---------------------------------------------------------------- appliance donut
  function arcPath(cx, cy, r0, r1, a0, a1) {
    const large = a1 - a0 > Math.PI ? 1 : 0;
    const p = (r, a) => `${(cx + r * Math.sin(a)).toFixed(2)} ${(cy - r * Math.cos(a)).toFixed(2)}`;
    return `M${p(r1, a0)} A${r1} ${r1} 0 ${large} 1 ${p(r1, a1)} L${p(r0, a1)} A${r0} ${r0} 0 ${large} 0 ${p(r0, a0)}Z`;
  }

  function renderDonut(a) {
    const box = $('#donut'), legend = $('#donut-legend');
    if (!box || !legend) return;
    const key = monthKey(Math.max(a, firstDay));
    $('#donut-title').textContent = `Appliance breakdown · ${monthName(key)}`;
    box.innerHTML = ''; legend.innerHTML = '';
    const [y, m] = key.split('-').map(Number);
    const ms = summarize(dayOf(y, m - 1, 1), dayOf(y, m, 0));
    const items = (DATA.appliances[key] || []).slice();
    const known = items.reduce((s, x) => s + x.wh, 0);
    /* @feature donut-other */
    if (ms.wh - known > 0) items.push({ name: 'Other / unattributed', wh: ms.wh - known, other: true });
    /* @end donut-other */
    const note = $('#donut-note');
    if (!items.length || ms.wh <= 0) {
      box.append(el('p', { class: 'chart-empty', text: 'No appliance estimates for this month.' }));
      if (note) note.textContent = '';
      return;
    }
    items.sort((p, q) => (p.other ? 1 : 0) - (q.other ? 1 : 0) || q.wh - p.wh);
    const totalShown = items.reduce((s, x) => s + x.wh, 0);
    const root = svg('svg', { viewBox: '0 0 200 200', class: 'donut', role: 'img', 'aria-label': `Appliance breakdown for ${monthName(key)}` });
    let ang = 0;
    items.forEach((it, i) => {
      const frac = it.wh / Math.max(totalShown, ms.wh);
      const a1 = ang + frac * Math.PI * 2;
      const color = it.other ? '#adb5bd' : DONUT_COLORS[i % DONUT_COLORS.length];
      root.append(svg('path', { d: arcPath(100, 100, 58, 92, ang, Math.min(a1, ang + Math.PI * 2 - 1e-4)), fill: color, 'data-appliance': it.name },
        svg('title', {}, `${it.name}: ${kwhText(it.wh, 1)} kWh`)));
      ang = a1;
      const share = (it.wh / ms.wh * 100).toFixed(1);
      legend.append(el('li', { 'data-appliance': it.name },
        el('span', { class: 'swatch', style: `background:${color}` }),
        el('span', { class: 'lname', text: it.name }),
        el('span', { class: 'lval', text: `${kwhText(it.wh, 1)} kWh · ${share}%` })));
    });
    root.append(svg('text', { x: 100, y: 98, 'text-anchor': 'middle', class: 'donut-total' }, kwhText(ms.wh, 0)));
    root.append(svg('text', { x: 100, y: 116, 'text-anchor': 'middle', class: 'donut-unit' }, 'kWh metered'));
    box.append(root);
    if (note) note.textContent = `Shares of the ${kwhText(ms.wh, 1)} kWh metered in ${monthName(key)}${ms.b > today ? ' so far' : ''}. Appliance figures are estimates.`;
  }

  // ---------------------------------------------------------------- budget
  function projection() {
    const [ms, me] = bounds('month', today);
    const s = summarize(ms, today);
    const daysInMonth = me - ms + 1;
    let projected = s.costPence;
    /* @feature budget-projection */
    projected = Math.round(s.energyPence / s.days * daysInMonth + (s.standingPence / s.days) * daysInMonth);
    /* @end budget-projection */
    return { s, daysInMonth, projected, key: monthKey(today) };
  }

  function renderBudget() {
    const status = $('#budget-status');
    const alertBox = $('#budget-alert');
    if (!status) return;
    const p = projection();
    const input = $('#budget-input');
    if (input && document.activeElement !== input && !input.dataset.dirty) input.value = (state.budgetPence / 100).toFixed(2);
    const over = p.projected - state.budgetPence;
    const mname = MONTHS_LONG[Number(p.key.slice(5)) - 1];
    status.innerHTML = '';
    status.append(
      el('p', {}, el('span', { class: 'muted', text: `${mname} so far (${p.s.days} of ${p.daysInMonth} days): ` }), el('strong', { text: money(p.s.costPence) })),
      el('p', {}, el('span', { class: 'muted', text: 'Projected for the month: ' }), el('strong', { id: 'budget-projected', text: money(p.projected) })),
      el('div', { class: 'meter', 'aria-hidden': 'true' }, el('span', { style: `width:${Math.min(100, p.projected / state.budgetPence * 100).toFixed(1)}%`, class: over > 0 ? 'over' : '' })),
      el('p', { class: over > 0 ? 'over-text' : 'ok-text', id: 'budget-state', text: over > 0 ? `Over budget by ${money(over)}` : `On track — ${money(-over)} under budget` }));
    if (alertBox) {
      alertBox.hidden = !(over > 0);
      alertBox.textContent = over > 0
        ? `Projected ${mname} cost ${money(p.projected)} is over your ${money(state.budgetPence)} budget by ${money(over)}.`
        : '';
    }
  }

  function setBudget(ev) {
    ev.preventDefault();
    const input = $('#budget-input');
    const raw = input.value.trim().replace(/^£/, '').replace(/,/g, '');
    let val = Number(raw);
    /* @feature budget-validate */
    const err = $('#budget-error');
    if (!/^\d+(\.\d{1,2})?$/.test(raw) || !(val > 0)) {
      err.textContent = 'Enter a budget greater than £0, e.g. 120 or 95.50.';
      err.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    err.hidden = true; err.textContent = '';
    input.removeAttribute('aria-invalid');
    /* @end budget-validate */
    state.budgetPence = Math.round(val * 100);
    delete input.dataset.dirty;
    input.value = (state.budgetPence / 100).toFixed(2);
    renderBudget();
  }

  // ---------------------------------------------------------------- month comparison
  function monthStats(key) {
    const [y, m] = key.split('-').map(Number);
    const a = dayOf(y, m - 1, 1), b = dayOf(y, m, 0);
    const s = summarize(a, b);
    s.full = b - a + 1;
    return s;
  }

  function renderCompare() {
    const selA = $('#cmp-a'), selB = $('#cmp-b'), body = $('#cmp-body'), msg = $('#cmp-msg');
    if (!selA || !selB || !body) return;
    const keys = [];
    for (let d = firstDay; d <= today; d++) { const k = monthKey(d); if (!keys.includes(k)) keys.push(k); }
    if (!selA.options.length) {
      for (const sel of [selA, selB]) for (const k of keys) sel.append(el('option', { value: k, text: monthName(k) }));
      state.cmpB = keys[keys.length - 1];
      state.cmpA = keys[Math.max(0, keys.length - 2)];
    }
    selA.value = state.cmpA; selB.value = state.cmpB;
    body.innerHTML = '';
    msg.textContent = '';
    if (state.cmpA === state.cmpB) {
      msg.textContent = 'Pick two different months to compare.';
      return;
    }
    const A = monthStats(state.cmpA), B = monthStats(state.cmpB);
    const partial = (s) => s.days < s.full;
    const head = (k, s) => monthName(k) + (partial(s) ? ` (${s.days} of ${s.full} days)` : '');
    const share = (s) => (s.wh ? s.band.peak / s.wh * 100 : 0);
    const change = (x, y2) => (x > 0 ? pct((y2 - x) / x * 100) : 'n/a');
    const rows = [
      ['Total usage', `${kwhText(A.wh, 1)} kWh`, `${kwhText(B.wh, 1)} kWh`, '—'],
      ['Total cost', money(A.costPence), money(B.costPence), '—'],
      ['Average per day', `${kwhText(A.wh / A.days)} kWh`, `${kwhText(B.wh / B.days)} kWh`, change(A.wh / A.days, B.wh / B.days)],
      ['Average cost per day', money(A.costPence / A.days), money(B.costPence / B.days), change(A.costPence / A.days, B.costPence / B.days)],
      ['Peak share', `${share(A).toFixed(1)}%`, `${share(B).toFixed(1)}%`, `${share(B) - share(A) >= 0 ? '+' : '−'}${Math.abs(share(B) - share(A)).toFixed(1)} pts`],
    ];
    const table = el('table', { class: 'cmp', 'aria-label': 'Month comparison' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Metric' }), el('th', { scope: 'col', class: 'num', text: head(state.cmpA, A) }),
        el('th', { scope: 'col', class: 'num', text: head(state.cmpB, B) }), el('th', { scope: 'col', class: 'num', text: 'Change' }))),
      el('tbody', {}, rows.map((r) => el('tr', {}, el('th', { scope: 'row', text: r[0] }), ...r.slice(1).map((c) => el('td', { class: 'num', text: c }))))));
    body.append(table);
    if (partial(A) || partial(B)) {
      body.append(el('p', { class: 'hint', text: 'Months of different length: totals are not compared — compare the daily averages.' }));
    }
  }

  // ---------------------------------------------------------------- data-quality notice
  function renderIssues() {
    const box = $('#dq');
    if (!box) return;
    const sum = $('#dq-summary'), list = $('#dq-list');
    const excluded = issues.filter((x) => x.kind !== 'appliance').length;
    let gaps = 0;
    for (let d = firstDay; d <= today; d++) for (let h = 0; h < 24; h++) if (!hours.has(d * 24 + h)) gaps++;
    if (!issues.length && !gaps) { box.hidden = true; return; }
    box.hidden = false;
    sum.textContent = `${excluded} ${excluded === 1 ? 'reading' : 'readings'} excluded · ${gaps} ${gaps === 1 ? 'hour' : 'hours'} without a valid reading`;
    list.innerHTML = '';
    for (const it of issues) list.append(el('li', {}, el('span', { class: 'mono', text: it.t.replace('T', ' ') }), ` — ${it.text}`));
    // gap runs
    const runs = [];
    for (let d = firstDay; d <= today; d++) for (let h = 0; h < 24; h++) {
      if (hours.has(d * 24 + h)) continue;
      const last = runs[runs.length - 1];
      if (last && last.end === d * 24 + h - 1) last.end++; else runs.push({ start: d * 24 + h, end: d * 24 + h });
    }
    const fh = (x) => `${iso(Math.floor(x / 24))} ${pad(x % 24)}:00`;
    for (const r of runs) {
      const n = r.end - r.start + 1;
      list.append(el('li', {}, el('span', { class: 'mono', text: fh(r.start) }), ` — Gap: ${n} ${n === 1 ? 'hour' : 'hours'} without a valid reading (not estimated)`));
    }
    box.querySelector('details').open = true;
  }

  function renderTariff() {
    const body = $('#tariff-body');
    if (!body) return;
    $('#tariff-name').textContent = T.name;
    const p = (v) => `${(v / 10).toFixed(1)}p/kWh`;
    body.innerHTML = '';
    body.append(
      el('tr', {}, el('th', { scope: 'row' }, el('span', { class: 'swatch', style: 'background:#e8590c' }), 'Peak'), el('td', { text: `Weekdays ${pad(T.peakFrom)}:00–${pad(T.peakTo)}:00` }), el('td', { class: 'num', text: p(T.peak) })),
      el('tr', {}, el('th', { scope: 'row' }, el('span', { class: 'swatch', style: 'background:#1c7ed6' }), 'Off-peak'), el('td', { text: 'All other weekday hours' }), el('td', { class: 'num', text: p(T.offpeak) })),
      el('tr', {}, el('th', { scope: 'row' }, el('span', { class: 'swatch', style: 'background:#2f9e44' }), 'Weekend'), el('td', { text: 'Saturday and Sunday, all day' }), el('td', { class: 'num', text: p(T.weekend) })),
      el('tr', {}, el('th', { scope: 'row', text: 'Standing charge' }), el('td', { text: 'Every day' }), el('td', { class: 'num', text: `${(T.standing / 10).toFixed(1)}p/day` })));
  }

  // ---------------------------------------------------------------- wiring
  function wire() {
    for (const btn of document.querySelectorAll('#period-buttons button')) {
      btn.addEventListener('click', () => { state.period = btn.dataset.period; render(); });
    }
    $('#prev-btn')?.addEventListener('click', () => { state.anchor = Math.max(firstDay, shift(state.period, state.anchor, -1)); render(); });
    $('#next-btn')?.addEventListener('click', () => { state.anchor = Math.min(today, shift(state.period, state.anchor, 1)); render(); });
    $('#budget-form')?.addEventListener('submit', setBudget);
    $('#budget-input')?.addEventListener('input', (e) => { e.target.dataset.dirty = '1'; });
    $('#cmp-a')?.addEventListener('change', (e) => { state.cmpA = e.target.value; renderCompare(); });
    $('#cmp-b')?.addEventListener('change', (e) => { state.cmpB = e.target.value; renderCompare(); });
  }

  async function init() {
    try {
      const res = await fetch('data/meter.json');
      if (!res.ok) throw new Error(res.status);
      const raw = await res.json();
      DATA = { raw };
      prepare(raw);
    } catch (e) {
      const box = $('#load-error');
      box.textContent = 'Could not load data/meter.json — the dashboard cannot be shown.';
      box.hidden = false;
      return;
    }
    $('#household').textContent = DATA.raw.household || 'My home';
    const asof = $('#asof-text');
    if (asof) asof.textContent = `Data as of ${fmtDay(today)}`;
    $('#meter-name').textContent = `${DATA.raw.meter || 'Smart meter'} · hourly readings ${fmtDay(firstDay)} – ${fmtDay(today)}`;
    state.anchor = today;
    wire();
    renderIssues();
    renderTariff();
    render();
  }

  init();
})();
