/* Site traffic dashboard: loads data/traffic.csv, cleans it and renders totals, charts and pages. */
(function () {
  'use strict';

  var SVGNS = 'http://www.w3.org/2000/svg';
  var QUARTER = ['2026-07-01', '2026-09-30'];
  // range: [first, last, previous first, previous last]
  var RANGES = {
    'Whole quarter': ['2026-07-01', '2026-09-30', '2026-04-01', '2026-06-30'],
    'July': ['2026-07-01', '2026-07-31', '2026-06-01', '2026-06-30'],
    'August': ['2026-08-01', '2026-08-31', '2026-07-01', '2026-07-31'],
    'September': ['2026-09-01', '2026-09-30', '2026-08-01', '2026-08-31'],
    'Last 7 days': ['2026-09-24', '2026-09-30', '2026-09-17', '2026-09-23']
  };
  var state = {
    rows: [], notes: { dup: 0, neg: 0, missing: [] },
    range: 'Whole quarter', excludeBots: true, sortKey: 'v', sortDir: -1,
    daily: [], sources: []
  };
  var renderers = [];

  function $(id) { return document.getElementById(id); }
  function setText(id, text) { var el = $(id); if (el) el.textContent = text; }
  function fmtInt(n) { return Math.round(n).toLocaleString('en-US'); }
  function r1(x) { return Math.round(x * 10) / 10; }
  function fmt1(x) { return r1(x).toFixed(1); }
  function signed(x, unit) { var r = r1(x); return (r >= 0 ? '+' : '-') + Math.abs(r).toFixed(1) + unit; }
  function addDays(iso, n) {
    var d = new Date(iso + 'T00:00:00Z');
    d.setUTCDate(d.getUTCDate() + n);
    return d.toISOString().slice(0, 10);
  }
  function daysFrom(a, b) { var out = []; for (var d = a; d <= b; d = addDays(d, 1)) out.push(d); return out; }
  var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  function shortDate(iso) { return (+iso.slice(8, 10)) + ' ' + MONTHS[+iso.slice(5, 7) - 1]; }
  function el(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }

  var bounceRate = function () { return null; };
  /* @feature bounce-rate */
  bounceRate = function (b, v) { return v ? b / v * 100 : 0; };
  /* @end bounce-rate */
  /* @broken bounce-rate */
  bounceRate = function (b, v, u) { return u ? b / u * 100 : 0; };
  /* @end bounce-rate */
  function fmtRate(x) { return x == null ? '–' : fmt1(x) + '%'; }

  // ---------- data ----------
  function normaliseSource(s) {
    var out = s;
    /* @feature source-normalise */
    out = s.trim();
    out = out.charAt(0).toUpperCase() + out.slice(1).toLowerCase();
    /* @end source-normalise */
    /* @broken source-normalise */
    out = s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
    /* @end source-normalise */
    return out;
  }

  function parseCsv(text) {
    var lines = text.split(/\r?\n/).filter(function (l) { return l.trim() !== ''; });
    var head = lines[0].split(',').map(function (h) { return h.trim(); });
    return lines.slice(1).map(function (line) {
      var cells = line.split(','), rec = {};
      head.forEach(function (h, i) { rec[h] = cells[i] == null ? '' : cells[i]; });
      return rec;
    });
  }

  function clean(records) {
    var seen = new Set(), rows = [], notes = { dup: 0, neg: 0, missing: [] };
    records.forEach(function (rec) {
      var date = rec.date.trim(), page = rec.page.trim(), source = normaliseSource(rec.source);
      var v = parseInt(rec.visits, 10), u = parseInt(rec.visitors, 10), b = parseInt(rec.bounces, 10);
      var bot = rec.bot.trim().toLowerCase() === 'yes';
      if (!/^\d{4}-\d\d-\d\d$/.test(date) || isNaN(v) || isNaN(u) || isNaN(b)) return;
      /* @feature drop-negative */
      if (v < 0 || u < 0 || b < 0) { notes.neg += 1; return; }
      /* @end drop-negative */
      /* @broken drop-negative */
      v = Math.abs(v); u = Math.abs(u); b = Math.abs(b);
      /* @end drop-negative */
      /* @feature dedupe */
      var key = [date, page, source, bot].join('|');
      if (seen.has(key)) { notes.dup += 1; return; }
      seen.add(key);
      /* @end dedupe */
      rows.push({ date: date, page: page, source: source, v: v, u: u, b: b, bot: bot });
    });
    var have = new Set(rows.map(function (r) { return r.date; }));
    notes.missing = daysFrom(QUARTER[0], QUARTER[1]).filter(function (d) { return !have.has(d); });
    state.rows = rows;
    state.notes = notes;
  }

  function selected(a, b) {
    return state.rows.filter(function (r) {
      return r.date >= a && r.date <= b && !(state.excludeBots && r.bot);
    });
  }
  function sums(rows) {
    var s = { v: 0, u: 0, b: 0 };
    rows.forEach(function (r) { s.v += r.v; s.u += r.u; s.b += r.b; });
    return s;
  }
  function render() { renderers.forEach(function (f) { f(); }); }

  /* @feature data-notice */
  renderers.push(function renderNotes() {
    var n = state.notes, parts = [];
    if (n.dup) parts.push(n.dup + ' duplicate ' + (n.dup === 1 ? 'row' : 'rows') + ' ignored');
    if (n.neg) parts.push(n.neg + ' ' + (n.neg === 1 ? 'row' : 'rows') + ' with a negative count dropped');
    if (n.missing.length) parts.push('No data for ' + n.missing.join(', '));
    var p = $('notes');
    if (!p) return;
    p.hidden = parts.length === 0;
    p.textContent = 'Data notes: ' + parts.join(' · ');
  });
  /* @end data-notice */

  /* @feature totals */
  renderers.push(function renderTotals() {
    var r = RANGES[state.range], cur = sums(selected(r[0], r[1]));
    setText('v-visits', fmtInt(cur.v));
    setText('v-unique', fmtInt(cur.u));
    setText('v-bounce', fmtRate(bounceRate(cur.b, cur.v, cur.u)));
  });
  /* @end totals */

  /* @feature compare */
  renderers.push(function renderCompare() {
    var r = RANGES[state.range], cur = sums(selected(r[0], r[1])), prev = sums(selected(r[2], r[3]));
    function pct(c, p) { return p ? signed((c - p) / p * 100, '%') + ' vs previous period' : '–'; }
    setText('d-visits', pct(cur.v, prev.v));
    setText('d-unique', pct(cur.u, prev.u));
    var bc = bounceRate(cur.b, cur.v, cur.u), bp = bounceRate(prev.b, prev.v, prev.u);
    setText('d-bounce', bc == null || bp == null ? '' : signed(bc - bp, ' pts') + ' vs previous period');
    setText('prev-period', 'Previous period: ' + r[2] + ' – ' + r[3]);
    ['d-visits', 'd-unique', 'd-bounce'].forEach(function (id) {
      var e = $(id); if (e) e.className = 'delta ' + (/^\+/.test(e.textContent) ? 'up' : 'down');
    });
  });
  /* @end compare */
  /* @broken compare */
  renderers.push(function renderCompare() {
    var r = RANGES[state.range], cur = sums(selected(r[0], r[1])), prev = sums(selected(r[2], r[3]));
    function pct(c, p) { return c ? signed((p - c) / c * 100, '%') + ' vs previous period' : '–'; }
    setText('d-visits', pct(cur.v, prev.v));
    setText('d-unique', pct(cur.u, prev.u));
    var bc = bounceRate(cur.b, cur.v, cur.u), bp = bounceRate(prev.b, prev.v, prev.u);
    setText('d-bounce', bc == null || bp == null ? '' : signed(bp - bc, ' pts') + ' vs previous period');
    setText('prev-period', 'Previous period: ' + r[2] + ' – ' + r[3]);
  });
  /* @end compare */

  // ---------- daily chart ----------
  var DAILY = { w: 900, h: 260, l: 52, r: 16, t: 16, b: 34 };
  function dailySeries() {
    var r = RANGES[state.range], byDay = new Map();
    selected(r[0], r[1]).forEach(function (row) {
      var d = byDay.get(row.date) || { v: 0, u: 0 };
      d.v += row.v; d.u += row.u;
      byDay.set(row.date, d);
    });
    var series = [];
    daysFrom(r[0], r[1]).forEach(function (day) {
      var d = byDay.get(day);
      if (d) series.push({ date: day, v: d.v, u: d.u, none: false });
      /* @feature missing-day */
      else series.push({ date: day, v: 0, u: 0, none: true });
      /* @end missing-day */
    });
    return series;
  }
  function dailyX(i, n) {
    var pw = DAILY.w - DAILY.l - DAILY.r;
    return n <= 1 ? DAILY.l + pw / 2 : DAILY.l + pw * i / (n - 1);
  }

  /* @feature daily-chart */
  renderers.push(function renderDaily() {
    var svg = $('daily-chart');
    if (!svg) return;
    var s = dailySeries(), n = s.length;
    state.daily = s;
    setText('daily-range', s.length ? shortDate(s[0].date) + ' – ' + shortDate(s[n - 1].date) + ' · ' + n + ' days' : '');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var max = Math.max.apply(null, s.map(function (p) { return p.v; }).concat([10]));
    var step = Math.pow(10, Math.floor(Math.log10(max)));
    var top = Math.ceil(max / step) * step; if (top / step < 3) { step /= 2; top = Math.ceil(max / step) * step; }
    var ph = DAILY.h - DAILY.t - DAILY.b;
    function y(v) { return DAILY.t + ph - ph * v / top; }
    for (var g = 0; g <= top; g += step) {
      el('line', { x1: DAILY.l, x2: DAILY.w - DAILY.r, y1: y(g), y2: y(g), class: 'grid' }, svg);
      el('text', { x: DAILY.l - 8, y: y(g) + 4, class: 'axis', 'text-anchor': 'end' }, svg).textContent = fmtInt(g);
    }
    var every = n > 40 ? 14 : n > 10 ? 7 : 1;
    s.forEach(function (p, i) {
      if (i % every === 0) {
        el('text', { x: dailyX(i, n), y: DAILY.h - 12, class: 'axis', 'text-anchor': 'middle' }, svg).textContent = shortDate(p.date);
      }
    });
    var d = '', pen = false;
    s.forEach(function (p, i) {
      if (p.none) { pen = false; return; }
      d += (pen ? 'L' : 'M') + dailyX(i, n).toFixed(1) + ' ' + y(p.v).toFixed(1);
      pen = true;
    });
    el('path', { d: d, class: 'line' }, svg);
    s.forEach(function (p, i) {
      el('circle', { cx: dailyX(i, n), cy: y(p.v), r: n > 40 ? 2.2 : 4, class: p.none ? 'dot gap' : 'dot', 'aria-label': p.date }, svg);
    });
    el('line', { x1: 0, x2: 0, y1: DAILY.t, y2: DAILY.t + ph, class: 'cursor', id: 'daily-cursor', visibility: 'hidden' }, svg);
  });
  /* @end daily-chart */

  function dailyLabel(p) {
    return p.none ? p.date + ' · No data'
      : p.date + ' · ' + fmtInt(p.v) + ' visits · ' + fmtInt(p.u) + ' unique visitors';
  }
  /* @feature daily-tooltip */
  function initDailyTip() {
    var svg = $('daily-chart'), tip = $('daily-tip'), wrap = $('daily-wrap');
    if (!svg || !tip) return;
    svg.addEventListener('mousemove', function (ev) {
      var s = state.daily, n = s.length;
      if (!n) return;
      var rect = svg.getBoundingClientRect();
      var x = (ev.clientX - rect.left) / rect.width * DAILY.w;
      var i = n <= 1 ? 0 : Math.round((x - DAILY.l) / (DAILY.w - DAILY.l - DAILY.r) * (n - 1));
      i = Math.max(0, Math.min(n - 1, i));
      var label = dailyLabel(s[i]);
      if (!tip.hidden && tip.textContent === label) return;
      tip.textContent = label;
      tip.hidden = false;
      var cur = $('daily-cursor');
      if (cur) { cur.setAttribute('x1', dailyX(i, n)); cur.setAttribute('x2', dailyX(i, n)); cur.setAttribute('visibility', 'visible'); }
      var wr = wrap.getBoundingClientRect(), px = rect.left - wr.left + dailyX(i, n) / DAILY.w * rect.width;
      tip.style.left = Math.min(Math.max(px, 90), wr.width - 90) + 'px';
      tip.style.top = '4px';
    });
    svg.addEventListener('mouseleave', function () {
      tip.hidden = true;
      var cur = $('daily-cursor'); if (cur) cur.setAttribute('visibility', 'hidden');
    });
  }
  /* @end daily-tooltip */
  /* @broken daily-tooltip */
  function initDailyTip() {
    var svg = $('daily-chart'), tip = $('daily-tip'), wrap = $('daily-wrap');
    if (!svg || !tip) return;
    svg.addEventListener('mousemove', function (ev) {
      var s = state.daily, n = s.length;
      if (!n) return;
      var rect = svg.getBoundingClientRect();
      var x = (ev.clientX - rect.left) / rect.width * DAILY.w;
      var i = n <= 1 ? 0 : Math.round((x - DAILY.l) / (DAILY.w - DAILY.l - DAILY.r) * (n - 1));
      i = Math.max(0, Math.min(n - 1, i));
      // the date is read back through the local clock: one day early west of UTC
      var p = s[i], shown = { date: addDays(p.date, -1), v: p.v, u: p.u, none: p.none };
      var label = dailyLabel(shown);
      if (!tip.hidden && tip.textContent === label) return;
      tip.textContent = label;
      tip.hidden = false;
      var wr = wrap.getBoundingClientRect(), px = rect.left - wr.left + dailyX(i, n) / DAILY.w * rect.width;
      tip.style.left = Math.min(Math.max(px, 90), wr.width - 90) + 'px';
      tip.style.top = '4px';
    });
    svg.addEventListener('mouseleave', function () { tip.hidden = true; });
  }
  /* @end daily-tooltip */

  // ---------- sources ----------
  var SRC = { w: 420, h: 260, l: 16, r: 16, t: 24, b: 36 };
  function sourceTotals() {
    var r = RANGES[state.range], m = new Map(), all = 0;
    selected(r[0], r[1]).forEach(function (row) { m.set(row.source, (m.get(row.source) || 0) + row.v); all += row.v; });
    return Array.from(m, function (e) { return { name: e[0], v: e[1], share: all ? e[1] / all * 100 : 0 }; })
      .sort(function (a, b) { return b.v - a.v; });
  }
  /* @feature source-chart */
  renderers.push(function renderSources() {
    var svg = $('source-chart');
    if (!svg) return;
    var s = sourceTotals(), n = s.length;
    state.sources = s;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var max = Math.max.apply(null, s.map(function (x) { return x.v; }).concat([1]));
    var pw = SRC.w - SRC.l - SRC.r, ph = SRC.h - SRC.t - SRC.b, band = pw / Math.max(n, 1);
    el('line', { x1: SRC.l, x2: SRC.w - SRC.r, y1: SRC.t + ph, y2: SRC.t + ph, class: 'base' }, svg);
    s.forEach(function (x, i) {
      var g = el('g', { class: 'bar', 'aria-label': x.name }, svg);
      var bh = ph * x.v / max, bx = SRC.l + band * i + band * 0.18;
      el('rect', { x: SRC.l + band * i, y: SRC.t, width: band, height: ph, class: 'hit' }, g);
      el('rect', { x: bx, y: SRC.t + ph - bh, width: band * 0.64, height: bh, rx: 3, class: 'fill c' + (i % 6) }, g);
      el('text', { x: SRC.l + band * (i + 0.5), y: SRC.h - 14, class: 'axis', 'text-anchor': 'middle' }, svg).textContent = x.name;
      el('text', { x: SRC.l + band * (i + 0.5), y: SRC.t + ph - bh - 6, class: 'barval', 'text-anchor': 'middle' }, svg).textContent = fmtInt(x.v);
    });
  });
  /* @end source-chart */

  /* @feature source-tooltip */
  function initSourceTip() {
    var svg = $('source-chart'), tip = $('source-tip'), wrap = $('source-wrap');
    if (!svg || !tip) return;
    svg.addEventListener('mousemove', function (ev) {
      var s = state.sources, n = s.length;
      if (!n) return;
      var rect = svg.getBoundingClientRect();
      var x = (ev.clientX - rect.left) / rect.width * SRC.w;
      var band = (SRC.w - SRC.l - SRC.r) / n;
      var i = Math.floor((x - SRC.l) / band);
      if (i < 0 || i >= n) { if (!tip.hidden) tip.hidden = true; return; }
      var label = s[i].name + ' · ' + fmtInt(s[i].v) + ' visits · ' + fmt1(s[i].share) + '%';
      if (!tip.hidden && tip.textContent === label) return;
      tip.textContent = label;
      tip.hidden = false;
      var wr = wrap.getBoundingClientRect(), px = rect.left - wr.left + (SRC.l + band * (i + 0.5)) / SRC.w * rect.width;
      tip.style.left = Math.min(Math.max(px, 90), wr.width - 90) + 'px';
      tip.style.top = '4px';
    });
    svg.addEventListener('mouseleave', function () { tip.hidden = true; });
  }
  /* @end source-tooltip */

  // ---------- top pages ----------
  var sortPages = function (list) { return list.sort(function (a, b) { return b.v - a.v; }); };
  /* @feature sort */
  sortPages = function (list) {
    var k = state.sortKey, dir = state.sortDir;
    return list.sort(function (a, b) {
      var x = a[k], y = b[k];
      if (x == null || y == null) return 0;
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
  };
  /* @end sort */
  /* @broken sort */
  sortPages = function (list) {
    var k = state.sortKey, dir = state.sortDir;
    function shown(p) { return k === 'page' ? p.page : k === 'br' ? fmtRate(p.br) : fmtInt(p[k]); }
    return list.sort(function (a, b) { return shown(a).localeCompare(shown(b)) * dir; });
  };
  /* @end sort */

  var pagesRenderer = function renderPages() {
    var body = $('pages-body');
    if (!body) return;
    var r = RANGES[state.range], m = new Map();
    selected(r[0], r[1]).forEach(function (row) {
      var p = m.get(row.page) || { page: row.page, v: 0, u: 0, b: 0 };
      p.v += row.v; p.u += row.u; p.b += row.b;
      m.set(row.page, p);
    });
    var list = Array.from(m.values());
    list.forEach(function (p) { p.br = bounceRate(p.b, p.v, p.u); });
    sortPages(list);
    body.innerHTML = '';
    list.forEach(function (p) {
      var tr = document.createElement('tr');
      [[p.page, 'path'], [fmtInt(p.v), 'num'], [fmtInt(p.u), 'num'], [fmtRate(p.br), 'num']].forEach(function (c) {
        var td = document.createElement('td');
        td.textContent = c[0]; td.className = c[1];
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    document.querySelectorAll('#pages th[data-key]').forEach(function (th) {
      if (th.querySelector('button')) {
        th.setAttribute('aria-sort', th.dataset.key === state.sortKey ? (state.sortDir > 0 ? 'ascending' : 'descending') : 'none');
      }
    });
  };
  /* @feature top-pages */
  renderers.push(pagesRenderer);
  /* @end top-pages */

  /* @feature sort */
  function initSort() {
    document.querySelectorAll('#pages th[data-key]').forEach(function (th) {
      var btn = document.createElement('button');
      btn.type = 'button';
      btn.className = 'sort';
      btn.textContent = th.textContent;
      var arrow = document.createElement('span');
      arrow.className = 'arrow'; arrow.setAttribute('aria-hidden', 'true');
      btn.appendChild(arrow);
      th.textContent = '';
      th.appendChild(btn);
      btn.addEventListener('click', function () {
        var k = th.dataset.key;
        if (state.sortKey === k) state.sortDir = -state.sortDir;
        else { state.sortKey = k; state.sortDir = k === 'page' ? 1 : -1; }
        pagesRenderer();
      });
    });
  }
  /* @end sort */
  /* @broken sort */
  function initSort() {
    document.querySelectorAll('#pages th[data-key]').forEach(function (th) {
      var btn = document.createElement('button');
      btn.type = 'button';
      btn.className = 'sort';
      btn.textContent = th.textContent;
      var arrow = document.createElement('span');
      arrow.className = 'arrow'; arrow.setAttribute('aria-hidden', 'true');
      btn.appendChild(arrow);
      th.textContent = '';
      th.appendChild(btn);
      btn.addEventListener('click', function () {
        var k = th.dataset.key;
        if (state.sortKey === k) state.sortDir = -state.sortDir;
        else { state.sortKey = k; state.sortDir = k === 'page' ? 1 : -1; }
        pagesRenderer();
      });
    });
  }
  /* @end sort */

  // ---------- controls ----------
  function initControls() {
    /* @feature range-select */
    var sel = $('range');
    if (sel) sel.addEventListener('change', function () { state.range = sel.value; render(); });
    /* @end range-select */
    /* @broken range-select */
    RANGES['Last 7 days'] = ['2026-09-23', '2026-09-30', '2026-09-15', '2026-09-22'];
    var sel = $('range');
    if (sel) sel.addEventListener('change', function () { state.range = sel.value; render(); });
    /* @end range-select */
    /* @feature bot-filter */
    var bots = $('bots');
    if (bots) bots.addEventListener('change', function () { state.excludeBots = bots.checked; render(); });
    /* @end bot-filter */
    /* @broken bot-filter */
    var bots = $('bots');
    if (bots) bots.addEventListener('change', function () {
      state.excludeBots = bots.checked;
      renderers.forEach(function (f) { if (f !== pagesRenderer) f(); });
    });
    /* @end bot-filter */
  }

  function init() {
    if (typeof initSort === 'function') initSort();
    if (typeof initDailyTip === 'function') initDailyTip();
    if (typeof initSourceTip === 'function') initSourceTip();
    initControls();
    fetch('data/traffic.csv')
      .then(function (res) { if (!res.ok) throw new Error('HTTP ' + res.status); return res.text(); })
      .then(function (text) { clean(parseCsv(text)); render(); })
      .catch(function (err) {
        var p = $('notes');
        if (p) { p.hidden = false; p.textContent = 'Could not load data/traffic.csv (' + err.message + ').'; }
      });
  }
  init();
})();
