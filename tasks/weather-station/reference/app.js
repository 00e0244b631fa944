(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const MONTH = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
    'September', 'October', 'November', 'December'];
  const YEAR = 2025;
  const state = { units: 'metric', days: [], months: [], notes: {} };
  const opts = { meanOverMonth: false, annualOfMonths: false, recordsAsText: false,
    diffSwap: false, diffPlus32: false, lookupShift: 0, notesRows: false };

  // ---------- formatting ----------
  const fix = (v, k) => {
    const f = Math.pow(10, k);
    const r = Math.round(Math.abs(v) * f + 1e-9) / f;
    const s = r.toFixed(k);
    return (v < 0 && r !== 0 ? '-' : '') + s;
  };
  const toF = (c) => c * 9 / 5 + 32;
  const fmtT = (c) => state.units === 'imperial' ? fix(toF(c), 1) + ' °F' : fix(c, 1) + ' °C';
  const fmtR = (mm) => state.units === 'imperial' ? fix(mm / 25.4, 2) + ' in' : fix(mm, 1) + ' mm';
  const signed = (v, k) => {
    const s = fix(Math.abs(v), k);
    if (Number(s) === 0) return s;
    return (v > 0 ? '+' : '-') + s;
  };
  const fmtDT = (dc) => {
    if (state.units !== 'imperial') return signed(dc, 1) + ' °C';
    return signed(opts.diffPlus32 ? dc * 9 / 5 + 32 : dc * 9 / 5, 1) + ' °F';
  };
  const fmtDR = (dmm) => state.units === 'imperial' ? signed(dmm / 25.4, 2) + ' in' : signed(dmm, 1) + ' mm';
  const fmtDate = (iso) => {
    const [y, m, d] = iso.split('-').map(Number);
    return `${d} ${MON[m - 1]} ${y}`;
  };

  // ---------- parsing ----------
  let isError = () => false;
  /* @feature sensor-errors */
  isError = (s) => s.trim() !== '' && Number(s) === -999;
  /* @end sensor-errors */
  /* @broken sensor-errors */
  isError = (s) => s.trim() === '-999';
  /* @end sensor-errors */

  let parseRain = (s) => ({ mm: parseFloat(s) || 0, trace: false });
  /* @feature trace */
  parseRain = (s) => s.trim().toUpperCase() === 'T' ? { mm: 0, trace: true } : { mm: parseFloat(s) || 0, trace: false };
  /* @end trace */

  let dedupe = (rows) => ({ rows, dupes: [] });
  /* @feature dedupe */
  dedupe = (rows) => {
    const seen = new Set(), out = [], dupes = [];
    rows.forEach((r) => { if (seen.has(r.date)) dupes.push(r.date); else { seen.add(r.date); out.push(r); } });
    return { rows: out, dupes };
  };
  /* @end dedupe */
  /* @broken dedupe */
  dedupe = (rows) => {
    const count = {};
    rows.forEach((r) => { count[r.date] = (count[r.date] || 0) + 1; });
    const dupes = Object.keys(count).filter((d) => count[d] > 1);
    return { rows: rows.filter((r) => count[r.date] === 1), dupes };
  };
  /* @end dedupe */

  // a date of the year with no row
  let fillMissing = (date) => ({ date, temp: 0, rain: 0, tempErr: false, rainErr: false, trace: false, tempRaw: '0', rainRaw: '0', missing: false });
  /* @feature missing-week */
  fillMissing = (date) => ({ date, temp: null, rain: null, tempErr: false, rainErr: false, trace: false, missing: true });
  /* @end missing-week */
  /* @broken missing-week */
  fillMissing = (date) => ({ date, temp: null, rain: null, tempErr: false, rainErr: false, trace: false, missing: true });
  opts.meanOverMonth = true;
  /* @end missing-week */

  function parse(text) {
    const lines = text.trim().split(/\r?\n/);
    const head = lines.shift().split(',').map((h) => h.trim());
    const iD = head.indexOf('date'), iT = head.indexOf('mean_temp_c'), iR = head.indexOf('rain_mm');
    const rows = lines.filter((l) => l.trim()).map((l) => {
      const c = l.split(',');
      const tRaw = (c[iT] || '').trim(), rRaw = (c[iR] || '').trim();
      const tempErr = isError(tRaw), rainErr = isError(rRaw);
      const rain = parseRain(rRaw);
      return { date: c[iD].trim(), tempRaw: tRaw, rainRaw: rRaw, tempErr, rainErr,
        temp: tempErr || tRaw === '' ? null : parseFloat(tRaw),
        rain: rainErr ? null : rain.mm, trace: !rainErr && rain.trace, missing: false };
    });
    const errValues = rows.reduce((n, r) => n + (r.tempErr ? 1 : 0) + (r.rainErr ? 1 : 0), 0);
    const errRows = rows.filter((r) => r.tempErr || r.rainErr).length;
    const dd = dedupe(rows);
    const byDate = new Map();
    dd.rows.forEach((r) => { if (!byDate.has(r.date)) byDate.set(r.date, []); byDate.get(r.date).push(r); });
    const days = [];
    const missing = [];
    for (let t = Date.UTC(YEAR, 0, 1); t < Date.UTC(YEAR + 1, 0, 1); t += 864e5) {
      const iso = new Date(t).toISOString().slice(0, 10);
      if (byDate.has(iso)) days.push(...byDate.get(iso));
      else { const f = fillMissing(iso); days.push(f); if (f.missing) missing.push(iso); }
    }
    state.days = days;
    state.notes = { errValues, errRows, dupes: dd.dupes, missing,
      traces: days.filter((d) => d.trace).length };
  }

  // ---------- aggregates ----------
  const validT = (d) => !d.missing && d.temp != null && !d.tempErr;
  const validR = (d) => !d.missing && d.rain != null && !d.rainErr;
  function aggregate() {
    state.months = MON.map((_, m) => {
      const ds = state.days.filter((d) => Number(d.date.slice(5, 7)) === m + 1);
      const ts = ds.filter(validT).map((d) => d.temp);
      const rs = ds.filter(validR);
      const sumT = ts.reduce((a, b) => a + b, 0);
      const divisor = opts.meanOverMonth ? ds.length : ts.length;
      return {
        m, mean: ts.length ? sumT / divisor : null,
        rain: rs.reduce((a, d) => a + d.rain, 0),
        rainDays: rs.filter((d) => d.rain > 0).length,
        withReadings: ds.filter((d) => !d.missing).length,
      };
    });
  }

  // ---------- summary ----------
  function renderSummary() {
    if (!$('kpi-temp')) return;
    const ts = state.days.filter(validT).map((d) => d.temp);
    let mean = ts.reduce((a, b) => a + b, 0) / ts.length;
    if (opts.annualOfMonths) {
      const ms = state.months.filter((x) => x.mean != null);
      mean = ms.reduce((a, x) => a + x.mean, 0) / ms.length;
    }
    $('kpi-temp').textContent = fmtT(mean);
    $('kpi-rain').textContent = fmtR(state.days.filter(validR).reduce((a, d) => a + d.rain, 0));
    $('kpi-days').textContent = String(state.days.filter((d) => !d.missing).length);
  }
  /* @broken summary */
  opts.annualOfMonths = true;
  /* @end summary */

  // ---------- charts ----------
  const NS = 'http://www.w3.org/2000/svg';
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
    if (text != null) e.textContent = text;
    return e;
  };
  const W = 560, H = 260, L = 58, R = 12, T = 14, B = 30;
  const PW = W - L - R, PH = H - T - B;
  const cx = (m) => L + PW * (m + 0.5) / 12;

  function niceScale(lo, hi, n) {
    const raw = (hi - lo) / n || 1;
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 2.5, 5, 10].map((k) => k * mag).find((s) => s >= raw);
    return { lo: Math.floor(lo / step) * step, hi: Math.ceil(hi / step) * step, step };
  }

  function axes(svg, sc, fmt) {
    const y = (v) => T + PH - PH * (v - sc.lo) / (sc.hi - sc.lo);
    for (let v = sc.lo; v <= sc.hi + 1e-9; v += sc.step) {
      svg.appendChild(el('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid-line' }));
      svg.appendChild(el('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, fmt(v)));
    }
    MON.forEach((n, m) => svg.appendChild(el('text', { x: cx(m), y: H - 10, 'text-anchor': 'middle', class: 'axis' }, n)));
    return y;
  }

  function hits(svg, tip, lines) {
    MON.forEach((n, m) => {
      const label = `${n} ${YEAR}`;
      const hit = el('rect', { x: L + PW * m / 12, y: T, width: PW / 12, height: PH, class: 'hit', 'aria-label': label });
      hit.addEventListener('mouseenter', () => {
        tip.innerHTML = '';
        const h = document.createElement('div');
        h.className = 'tip-h';
        h.textContent = label;
        tip.appendChild(h);
        lines(m).forEach((t) => { const d = document.createElement('div'); d.textContent = t; tip.appendChild(d); });
        tip.hidden = false;
        const box = svg.getBoundingClientRect();
        const px = box.width * cx(m) / W;
        tip.style.left = Math.min(Math.max(px - 80, 0), Math.max(box.width - 170, 0)) + 'px';
        svg.querySelectorAll('.hit.on').forEach((x) => x.classList.remove('on'));
        hit.classList.add('on');
      });
      svg.appendChild(hit);
    });
    svg.addEventListener('mouseleave', () => { tip.hidden = true; svg.querySelectorAll('.hit.on').forEach((x) => x.classList.remove('on')); });
  }

  /* @feature temp-chart */
  function renderTempChart() {
    const svg = $('temp-chart'), tip = $('temp-tip');
    if (!svg) return;
    svg.innerHTML = '';
    const conv = (c) => state.units === 'imperial' ? toF(c) : c;
    const vals = state.months.map((x) => x.mean == null ? null : conv(x.mean));
    const present = vals.filter((v) => v != null);
    const sc = niceScale(Math.min(0, ...present), Math.max(...present), 5);
    const unit = state.units === 'imperial' ? '°F' : '°C';
    const y = axes(svg, sc, (v) => `${Math.round(v)}${unit}`);
    let d = '', pen = false;
    vals.forEach((v, m) => {
      if (v == null) { pen = false; return; }
      d += (pen ? 'L' : 'M') + cx(m).toFixed(1) + ' ' + y(v).toFixed(1) + ' ';
      pen = true;
    });
    svg.appendChild(el('path', { d, class: 'line' }));
    vals.forEach((v, m) => { if (v != null) svg.appendChild(el('circle', { cx: cx(m), cy: y(v), r: 4, class: 'dot' })); });
    hits(svg, tip, (m) => {
      const x = state.months[m];
      return [x.mean == null ? 'No valid readings' : `Mean: ${fmtT(x.mean)}`, `Days with readings: ${x.withReadings}`];
    });
  }
  /* @end temp-chart */

  /* @feature rain-chart */
  function renderRainChart() {
    const svg = $('rain-chart'), tip = $('rain-tip');
    if (!svg) return;
    svg.innerHTML = '';
    const conv = (mm) => state.units === 'imperial' ? mm / 25.4 : mm;
    const vals = state.months.map((x) => conv(x.rain));
    const sc = niceScale(0, Math.max(...vals), 5);
    const unit = state.units === 'imperial' ? ' in' : ' mm';
    const y = axes(svg, sc, (v) => `${Math.round(v * 10) / 10}${unit}`);
    const bw = PW / 12 * 0.62;
    vals.forEach((v, m) => svg.appendChild(el('rect', { x: cx(m) - bw / 2, y: y(v), width: bw, height: T + PH - y(v), class: 'bar' })));
    hits(svg, tip, (m) => [`Rainfall: ${fmtR(state.months[m].rain)}`, `Rain days: ${state.months[m].rainDays}`]);
  }
  /* @end rain-chart */

  // ---------- records ----------
  function renderRecords() {
    const box = $('records');
    if (!box) return;
    const pick = (list, key, better) => list.reduce((best, d) => (best == null || better(d, best, key) ? d : best), null);
    const num = (d, b, k) => d[k] > b[k];
    const numLow = (d, b, k) => d[k] < b[k];
    let gt = num, lt = numLow;
    if (opts.recordsAsText) {
      gt = (d, b, k) => String(d[k + 'Raw']) > String(b[k + 'Raw']);
      lt = (d, b, k) => String(d[k + 'Raw']) < String(b[k + 'Raw']);
    }
    const ts = state.days.filter(validT), rs = state.days.filter(validR);
    const cards = [
      ['Hottest day', pick(ts, 'temp', gt), (d) => fmtT(d.temp)],
      ['Coldest day', pick(ts, 'temp', lt), (d) => fmtT(d.temp)],
      ['Wettest day', pick(rs, 'rain', gt), (d) => fmtR(d.rain)],
    ];
    box.innerHTML = '';
    cards.forEach(([title, d, val], i) => {
      const a = document.createElement('article');
      a.className = 'record';
      a.setAttribute('aria-labelledby', 'rec-' + i);
      a.innerHTML = `<h3 id="rec-${i}"></h3><p class="big"></p><p class="when"></p>`;
      a.querySelector('h3').textContent = title;
      a.querySelector('.big').textContent = d ? val(d) : '–';
      a.querySelector('.when').textContent = d ? fmtDate(d.date) : '';
      box.appendChild(a);
    });
  }
  /* @broken records */
  opts.recordsAsText = true;
  /* @end records */

  // ---------- compare ----------
  function initCompare() {
    const a = $('cmp-a'), b = $('cmp-b');
    if (!a || !b) return;
    [a, b].forEach((s, k) => {
      MONTH.forEach((n, m) => { const o = document.createElement('option'); o.value = String(m); o.textContent = `${n} ${YEAR}`; s.appendChild(o); });
      s.value = k === 0 ? '0' : '6';
      s.addEventListener('change', renderCompare);
    });
  }
  function renderCompare() {
    const a = $('cmp-a'), b = $('cmp-b');
    if (!a || !b) return;
    const A = state.months[Number(a.value)], Bm = state.months[Number(b.value)];
    let first = A, second = Bm;
    const diff = (f) => opts.diffSwap ? f(first) - f(second) : f(second) - f(first);
    $('cmp-head').innerHTML = '';
    const hr = document.createElement('tr');
    ['Measure', `${MONTH[A.m]} ${YEAR}`, `${MONTH[Bm.m]} ${YEAR}`, 'Difference'].forEach((t) => {
      const th = document.createElement('th'); th.scope = 'col'; th.textContent = t; hr.appendChild(th);
    });
    $('cmp-head').appendChild(hr);
    const rows = [
      ['Mean temperature', (x) => x.mean == null ? '–' : fmtT(x.mean),
        (A.mean == null || Bm.mean == null) ? '–' : fmtDT(diff((x) => x.mean))],
      ['Total rainfall', (x) => fmtR(x.rain), fmtDR(diff((x) => x.rain))],
      ['Rain days', (x) => String(x.rainDays), signed(diff((x) => x.rainDays), 0)],
    ];
    const body = $('cmp-body');
    body.innerHTML = '';
    rows.forEach(([name, f, d]) => {
      const tr = document.createElement('tr');
      const th = document.createElement('th'); th.scope = 'row'; th.textContent = name; tr.appendChild(th);
      [f(A), f(Bm), d].forEach((t) => { const td = document.createElement('td'); td.textContent = t; tr.appendChild(td); });
      body.appendChild(tr);
    });
  }
  /* @broken compare */
  opts.diffSwap = true;
  /* @end compare */

  // ---------- day lookup ----------
  let lastLookup = null;
  function lookup() {
    const out = $('lookup-result'), inp = $('lookup-date');
    if (!out || !inp) return;
    const iso = inp.value;
    lastLookup = iso;
    out.innerHTML = '';
    const line = (t, cls) => { const p = document.createElement('p'); if (cls) p.className = cls; p.textContent = t; out.appendChild(p); };
    const idx = state.days.findIndex((d) => d.date === iso);
    if (!iso || idx < 0) { line('Choose a date in 2025', 'warn'); return; }
    const d = state.days[Math.max(0, idx + opts.lookupShift)];
    line(fmtDate(iso), 'when');
    if (d.missing) { line('No reading for this day', 'warn'); return; }
    line('Mean temperature: ' + (d.tempErr ? 'Sensor error' : fmtT(d.temp)));
    line('Rainfall: ' + (d.rainErr ? 'Sensor error' : d.trace ? 'Trace' : fmtR(d.rain)));
  }
  /* @broken day-lookup */
  opts.lookupShift = -1;
  /* @end day-lookup */

  // ---------- data notes ----------
  function renderNotes() {
    const ul = $('notes');
    if (!ul) return;
    const n = state.notes;
    const items = [];
    const errs = opts.notesRows ? n.errRows : n.errValues;
    items.push(`Sensor errors: ${errs} readings left out`);
    items.push(`Missing days: ${n.missing.length}` + (n.missing.length ? ` (${fmtDate(n.missing[0])} – ${fmtDate(n.missing[n.missing.length - 1])})` : ''));
    items.push(`Duplicate rows: ${n.dupes.length}` + (n.dupes.length ? ` (${n.dupes.map(fmtDate).join(', ')}, counted once)` : ''));
    items.push(`Trace rainfall: ${n.traces} days`);
    ul.innerHTML = '';
    items.forEach((t) => { const li = document.createElement('li'); li.textContent = t; ul.appendChild(li); });
  }
  /* @broken data-notes */
  opts.notesRows = true;
  /* @end data-notes */

  // ---------- wiring ----------
  function renderAll() {
    renderSummary();
    window.renderTempChart?.();
    window.renderRainChart?.();
    renderRecords();
    renderCompare();
    renderNotes();
    if (lastLookup !== null) lookup();
  }
  /* @feature temp-chart */
  window.renderTempChart = renderTempChart;
  /* @end temp-chart */
  /* @feature rain-chart */
  window.renderRainChart = renderRainChart;
  /* @end rain-chart */

  /* @feature units */
  document.querySelectorAll('input[name=units]').forEach((r) => r.addEventListener('change', () => {
    if (r.checked) { state.units = r.value; renderAll(); }
  }));
  /* @end units */
  /* @broken units */
  document.querySelectorAll('input[name=units]').forEach((r) => r.addEventListener('change', () => {
    if (r.checked) { state.units = r.value; renderAll(); }
  }));
  opts.diffPlus32 = true;
  /* @end units */

  const form = $('lookup-form');
  if (form) form.addEventListener('submit', (e) => { e.preventDefault(); lookup(); });

  fetch('data/readings.csv').then((r) => r.text()).then((text) => {
    parse(text);
    aggregate();
    initCompare();
    renderAll();
  });
})();
