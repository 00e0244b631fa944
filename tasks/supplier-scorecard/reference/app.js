/* Supplier Scorecard — plain JS, no dependencies.
 * Data: data/config.json (scoring rules), data/suppliers.json, data/periods.json.
 */
'use strict';

const Features = {};
const App = {
  cfg: null, suppliers: [], supById: {}, periods: [], result: null,
  state: {
    periodId: null,
    selectedId: null,
    sort: { key: 'composite', dir: 'desc' },
    view: 'scores',
    filters: { q: '', category: '', region: '' },
  },
};

/* ------------------------------------------------------------------ helpers */

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const esc = (v) => String(v).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
const isFiniteNum = (x) => typeof x === 'number' && Number.isFinite(x);
const uniq = (xs) => Array.from(new Set(xs));

function isNumeric(v) {
  if (typeof v === 'number') return Number.isFinite(v);
  return typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v);
}
function isBlank(v) {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}
function median(xs) {
  if (!xs.length) return null;
  const s = xs.slice().sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
function mean(xs) {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}
function fmtScore(x) {
  return isFiniteNum(x) ? x.toFixed(App.cfg.scoreDecimals ?? 1) : '—';
}
function fmtNumber(ind, v) {
  return Number(v).toLocaleString('en-US', { minimumFractionDigits: ind.decimals, maximumFractionDigits: ind.decimals });
}
function fmtRaw(ind, v) {
  const n = fmtNumber(ind, v);
  if (ind.unit === '%') return n + '%';
  return ind.unit ? `${n} ${ind.unit}` : n;
}
function fmtPct(w) {
  const p = Math.round(w * 1000) / 10;
  return (Number.isInteger(p) ? String(p) : p.toFixed(1)) + '%';
}
function typeName(id) {
  return (App.cfg.types.find((t) => t.id === id) || { name: id }).name;
}
function currentPeriod() {
  return App.periods.find((p) => p.id === App.state.periodId);
}

const ICON = {
  warn: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M10.3 3.9L1.8 18a2 2 0 001.7 3h17a2 2 0 001.7-3L13.7 3.9a2 2 0 00-3.4 0z"/><path d="M12 9v4M12 17h.01"/></svg>',
  ok: '<svg viewBox="0 0 24 24" fill="none" stroke="#15803d" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><circle cx="12" cy="12" r="10"/><path d="M8 12l3 3 5-6"/></svg>',
  search: '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="M20 20l-3.5-3.5"/></svg>',
  clock: '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/></svg>',
  empty: '<svg viewBox="0 0 48 48" aria-hidden="true"><rect x="8" y="10" width="32" height="28" rx="4"/><path d="M8 18h32M16 26h16M16 31h10"/></svg>',
  radar: '<svg viewBox="0 0 48 48" aria-hidden="true"><path d="M24 5l18 13-7 22H13L6 18z"/><path d="M24 16v9M24 31h.01"/></svg>',
  compare: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 19V9M10 19V5M16 19v-7M22 19H2"/></svg>',
};

/* ------------------------------------------------------------------ scoring engine */

function isNotApplicable(sup, ind) {
  return (App.cfg.categoryRules || []).some((r) => r.category === sup.category && r.notApplicable.includes(ind.id));
}

function indicatorScore(ind, v) {
  let s = ((v - ind.scoring.min) / (ind.scoring.max - ind.scoring.min)) * 100;
  /* @feature negative-direction */
  if (ind.direction === 'negative') s = 100 - s;
  /* @end negative-direction */
  /* @broken negative-direction */
  if (ind.direction === 'negative' && ind.type === 'quality') s = 100 - s;
  /* @end negative-direction */
  return Math.min(100, Math.max(0, s));
}

// Weighted aggregate of the applicable indicators of one type; null when one of them has no score.
function typeScore(rows) {
  if (!rows.length || rows.some((r) => r.score === null)) return null;
  let num = 0;
  let den = 0;
  for (const r of rows) {
    let w = 1;
    /* @feature subscore-weights */
    w = r.ind.weight;
    /* @end subscore-weights */
    /* @broken subscore-weights */
    w = r.ind.type === 'resource' ? r.ind.weight : 1;
    /* @end subscore-weights */
    num += w * r.score;
    den += w;
  }
  return num / den;
}

function compositeScore(resource, quality) {
  if (resource === null || quality === null) return null;
  let wr = 0.5;
  let wq = 0.5;
  /* @feature composite-weights */
  wr = App.cfg.compositeWeights.resource;
  wq = App.cfg.compositeWeights.quality;
  /* @end composite-weights */
  /* @broken composite-weights */
  wr = App.cfg.compositeWeights.quality;
  wq = App.cfg.compositeWeights.resource;
  /* @end composite-weights */
  return wr * resource + wq * quality;
}

function statusReason(row) {
  return {
    missing: `${row.ind.name} is missing`,
    'non-numeric': `${row.ind.name} is not numeric`,
    'out-of-range': `${row.ind.name} is out of range`,
  }[row.status] || `${row.ind.name} has no valid score`;
}

// Radar dimension: weighted mean of its applicable indicators (NaN when it cannot be computed).
function dimensionScore(dim, rows, sup) {
  const app = rows.filter((r) => r.ind.dimension === dim.id && r.status !== 'na');
  const excluded = rows.filter((r) => r.ind.dimension === dim.id && r.status === 'na');
  const reasons = [];
  if (!app.length) {
    const names = excluded.map((r) => r.ind.name).join(', ');
    reasons.push(names ? `no applicable indicator — ${names} is N/A for ${sup.category}` : 'no indicator is configured for this dimension');
  }
  let num = 0;
  let den = 0;
  for (const r of app) {
    if (!isFiniteNum(r.score)) reasons.push(statusReason(r));
    num += r.ind.weight * (r.score === null ? NaN : r.score);
    den += r.ind.weight;
  }
  return { id: dim.id, name: dim.name, score: num / den, reasons, rows: app };
}

function classify(ind, sup, raw, ctx) {
  if (isNotApplicable(sup, ind)) return { status: 'na' };
  const m = Features.missingData?.classify(ind, raw, ctx);
  if (m) return m;
  const a = Features.anomaly?.classify(ind, raw);
  if (a) return a;
  return { status: 'ok', value: Number(raw) };
}

function computeSupplier(rec, ctx) {
  const sup = App.supById[rec.supplierId];
  const values = rec.values || {};
  const rows = App.cfg.indicators.map((ind) => {
    const raw = values[ind.id];
    const c = classify(ind, sup, raw, ctx);
    const row = { ind, raw, status: c.status, value: c.value ?? null, note: c.note || '', score: null, effWeight: null, contribution: null };
    if (row.value !== null && (row.status === 'ok' || row.status === 'imputed')) row.score = indicatorScore(ind, row.value);
    return row;
  });
  const sub = {};
  for (const t of App.cfg.types) {
    const app = rows.filter((r) => r.ind.type === t.id && r.status !== 'na');
    const wsum = app.reduce((a, r) => a + r.ind.weight, 0);
    for (const r of app) {
      r.effWeight = r.ind.weight / wsum;
      r.contribution = isFiniteNum(r.score) ? r.score * r.effWeight : null;
    }
    sub[t.id] = typeScore(app);
  }
  const composite = compositeScore(sub.resource, sub.quality);
  const s = {
    id: sup.id, name: sup.name, sup, rows,
    resource: sub.resource, quality: sub.quality, composite,
    dims: App.cfg.dimensions.map((d) => dimensionScore(d, rows, sup)),
    rankable: isFiniteNum(composite), rank: null,
    status: isFiniteNum(composite) ? 'ranked' : 'unscored',
  };
  Features.missingData?.annotate(s);
  Features.anomaly?.annotate(s);
  return s;
}

function computePeriod(period) {
  const pool = {};
  for (const ind of App.cfg.indicators) pool[ind.id] = [];
  const records = period.records.filter((r) => App.supById[r.supplierId]);
  // valid values per indicator (numeric, inside the valid range) — the basis for median imputation
  for (const rec of records) {
    const sup = App.supById[rec.supplierId];
    for (const ind of App.cfg.indicators) {
      const v = (rec.values || {})[ind.id];
      if (isNotApplicable(sup, ind) || isBlank(v) || !isNumeric(v)) continue;
      const n = Number(v);
      if (n >= ind.validRange[0] && n <= ind.validRange[1]) pool[ind.id].push(n);
    }
  }
  const ctx = { period, pool };
  const list = records.map((rec) => computeSupplier(rec, ctx));
  const ranked = list.filter((s) => s.rankable).sort((a, b) => b.composite - a.composite || a.name.localeCompare(b.name));
  ranked.forEach((s, i) => { s.rank = i + 1; });
  return { period, list, rankedCount: ranked.length, byId: Object.fromEntries(list.map((s) => [s.id, s])) };
}

/* ------------------------------------------------------------------ feature: period selector */

/* @feature period-select */
Features.periodSelect = {
  mount() {
    const slot = $('#period-slot');
    slot.innerHTML = `<label class="period-field"><span>Statistical period</span>
      <select id="period-select">${App.periods.map((p) => `<option value="${esc(p.id)}">${esc(p.label)}</option>`).join('')}</select></label>`;
    const sel = $('#period-select');
    sel.value = App.state.periodId;
    sel.addEventListener('change', () => App.setPeriod(sel.value));
  },
  sync() {
    const sel = $('#period-select');
    if (sel) sel.value = App.state.periodId;
  },
};
/* @end period-select */

/* @feature period-sync */
Features.periodSync = {
  after() {
    App.ensureSelection();
    App.renderDetail();
  },
};
/* @end period-sync */
/* @broken period-sync */
Features.periodSync = {
  after() {
    App.ensureSelection();
    App.renderDetail({ radar: false });
  },
};
/* @end period-sync */

/* @feature empty-period */
Features.emptyPeriod = {
  show(period) {
    const fallback = App.periods.find((p) => p.records.length);
    $('#ranking-table tbody').innerHTML = '';
    const box = $('#ranking-empty');
    box.hidden = false;
    box.innerHTML = `${ICON.empty}<h4>No scorecard data for ${esc(period.label)}</h4>
      <p>${esc(period.note || 'No supplier records have been published for this period yet.')}</p>
      ${fallback ? `<button type="button" class="btn-link" data-goto="${esc(fallback.id)}">View ${esc(fallback.label)} instead</button>` : ''}`;
    box.querySelector('[data-goto]')?.addEventListener('click', (e) => App.setPeriod(e.currentTarget.dataset.goto));
    $('#ranking-foot').innerHTML = `<span>No suppliers evaluated in ${esc(period.label)}</span>`;
    App.emptyDetail(`No data for ${period.label}`, 'Scores, radar and indicator details appear once the period has been published.');
    return true;
  },
};
/* @end empty-period */
/* @broken empty-period */
Features.emptyPeriod = {
  show(period) {
    const box = $('#ranking-empty');
    box.hidden = false;
    box.innerHTML = `${ICON.empty}<h4>No scorecard data for ${esc(period.label)}</h4>
      <p>${esc(period.note || 'No supplier records have been published for this period yet.')}</p>`;
    return true;
  },
};
/* @end empty-period */

/* ------------------------------------------------------------------ feature: header data-source bar */

/* @feature update-time */
Features.updateTime = {
  render(period) {
    const slot = $('#source-slot');
    const srcs = App.cfg.sources.map((src) => {
      const t = period.sourceUpdatedAt?.[src.id];
      return `<span class="src-chip${t ? '' : ' stale'}" title="${esc(src.description)}"><span class="dot"></span><b>${esc(src.name)}</b>${t ? esc(t.slice(5)) : 'pending'}</span>`;
    }).join('');
    const when = period.updatedAt ? `Last updated ${esc(period.updatedAt)}` : 'Last updated — collection in progress';
    slot.innerHTML = `<div class="sources" aria-label="Data sources"><span class="updated">${ICON.clock}${when}</span>${srcs}</div>`;
  },
};
/* @end update-time */

/* ------------------------------------------------------------------ feature: search & filters */

/* @feature search-filter */
Features.searchFilter = {
  mount() {
    const cats = uniq(App.suppliers.map((s) => s.category)).sort();
    const regions = uniq(App.suppliers.map((s) => s.region)).sort();
    $('#filter-slot').innerHTML = `
      <div class="search">${ICON.search}<input type="search" id="f-search" placeholder="Search supplier name…" aria-label="Search supplier name" autocomplete="off"></div>
      <select id="f-category" aria-label="Category"><option value="">All categories</option>${cats.map((c) => `<option>${esc(c)}</option>`).join('')}</select>
      <select id="f-region" aria-label="Region"><option value="">All regions</option>${regions.map((c) => `<option>${esc(c)}</option>`).join('')}</select>
      <button type="button" class="btn-link" id="f-clear" hidden>Clear filters</button>`;
    const f = App.state.filters;
    $('#f-search').addEventListener('input', (e) => { f.q = e.target.value; this.changed(); });
    $('#f-category').addEventListener('change', (e) => { f.category = e.target.value; this.changed(); });
    $('#f-region').addEventListener('change', (e) => { f.region = e.target.value; this.changed(); });
    $('#f-clear').addEventListener('click', () => this.clear());
  },
  changed() {
    const f = App.state.filters;
    $('#f-clear').hidden = !(f.q.trim() || f.category || f.region);
    App.renderTable();
  },
  clear() {
    Object.assign(App.state.filters, { q: '', category: '', region: '' });
    $('#f-search').value = '';
    $('#f-category').value = '';
    $('#f-region').value = '';
    this.changed();
  },
  match(s) {
    const f = App.state.filters;
    const q = f.q.trim().toLowerCase();
    return (!q || s.name.toLowerCase().includes(q))
      && (!f.category || s.sup.category === f.category)
      && (!f.region || s.sup.region === f.region);
  },
  active() {
    const f = App.state.filters;
    return Boolean(f.q.trim() || f.category || f.region);
  },
  renderEmpty(box) {
    const f = App.state.filters;
    const parts = [f.q.trim() && `name contains “${f.q.trim()}”`, f.category, f.region].filter(Boolean);
    box.hidden = false;
    box.innerHTML = `${ICON.search.replace('aria-hidden', 'class="big" aria-hidden')}<h4>No suppliers match the current search and filters</h4>
      <p>Nothing in ${esc(currentPeriod().label)} matches ${esc(parts.join(' · '))}.</p>
      <button type="button" class="btn-link">Clear filters</button>`;
    box.querySelector('button').addEventListener('click', () => this.clear());
  },
};
/* @end search-filter */
/* @broken search-filter */
Features.searchFilter = {
  mount() {
    const cats = uniq(App.suppliers.map((s) => s.category)).sort();
    const regions = uniq(App.suppliers.map((s) => s.region)).sort();
    $('#filter-slot').innerHTML = `
      <div class="search">${ICON.search}<input type="search" id="f-search" placeholder="Search supplier name…" aria-label="Search supplier name" autocomplete="off"></div>
      <select id="f-category" aria-label="Category"><option value="">All categories</option>${cats.map((c) => `<option>${esc(c)}</option>`).join('')}</select>
      <select id="f-region" aria-label="Region"><option value="">All regions</option>${regions.map((c) => `<option>${esc(c)}</option>`).join('')}</select>`;
    const f = App.state.filters;
    $('#f-search').addEventListener('input', (e) => { f.q = e.target.value; App.renderTable(); });
    $('#f-category').addEventListener('change', (e) => { f.category = e.target.value; App.renderTable(); });
    $('#f-region').addEventListener('change', (e) => { f.region = e.target.value; App.renderTable(); });
  },
  match(s) {
    const f = App.state.filters;
    // a dropdown filter takes over from the keyword search
    if (f.category || f.region) return (!f.category || s.sup.category === f.category) && (!f.region || s.sup.region === f.region);
    const q = f.q.trim().toLowerCase();
    return !q || s.name.toLowerCase().includes(q);
  },
  active() {
    const f = App.state.filters;
    return Boolean(f.q.trim() || f.category || f.region);
  },
  renderEmpty(box) {
    box.hidden = false;
    box.innerHTML = `${ICON.search}<h4>No suppliers match the current search and filters</h4>`;
  },
};
/* @end search-filter */

/* ------------------------------------------------------------------ feature: ranking view & sorting */

/* @feature indicator-view */
Features.indicatorView = {
  mount() {
    const slot = $('#view-slot');
    slot.innerHTML = `<div class="segmented" role="group" aria-label="Table columns">
      <button type="button" data-view="scores" aria-pressed="true">Scores</button>
      <button type="button" data-view="indicators" aria-pressed="false">Sub-indicators</button></div>`;
    slot.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-view]');
      if (!b) return;
      App.state.view = b.dataset.view;
      if (App.state.view === 'scores' && App.state.sort.key.startsWith('ind:')) App.state.sort = { key: 'composite', dir: 'desc' };
      $$('button[data-view]', slot).forEach((x) => x.setAttribute('aria-pressed', String(x === b)));
      App.renderTable();
    });
  },
};
/* @end indicator-view */

/* @feature sort */
Features.sort = {
  decorate(th, col) {
    th.classList.add('sortable');
    th.innerHTML = `<button type="button" class="sort">${th.innerHTML}</button>`;
    th.addEventListener('click', () => {
      const st = App.state.sort;
      App.state.sort = st.key === col.key ? { key: col.key, dir: st.dir === 'desc' ? 'asc' : 'desc' } : { key: col.key, dir: 'desc' };
      App.renderTable();
    });
  },
  value(s, key) {
    if (key === 'resource') return s.resource;
    if (key === 'quality') return s.quality;
    if (key.startsWith('ind:')) return s.rows.find((r) => r.ind.id === key.slice(4))?.score ?? null;
    return null;
  },
};
/* @end sort */
/* @broken sort */
Features.sort = {
  decorate(th, col) {
    th.classList.add('sortable');
    th.innerHTML = `<button type="button" class="sort">${th.innerHTML}</button>`;
    th.addEventListener('click', () => {
      const st = App.state.sort;
      App.state.sort = st.key === col.key ? { key: col.key, dir: st.dir === 'desc' ? 'asc' : 'desc' } : { key: col.key, dir: 'desc' };
      App.renderTable();
    });
  },
  value(s, key) {
    if (key === 'resource') return s.resource;
    if (key === 'quality') return s.quality;
    if (key.startsWith('ind:')) return s.rows.find((r) => r.ind.id === key.slice(4))?.value ?? null;
    return null;
  },
};
/* @end sort */

/* ------------------------------------------------------------------ feature: data quality — missing values */

/* @feature missing-data */
Features.missingData = {
  classify(ind, raw, ctx) {
    if (!isBlank(raw)) return null;
    if (ind.missing === 'median') {
      const m = median(ctx.pool[ind.id]);
      if (m !== null) return { status: 'imputed', value: m, note: `period median of ${ctx.pool[ind.id].length} valid values` };
    }
    return { status: 'missing' };
  },
  annotate(s) {
    s.missing = s.rows.filter((r) => r.status === 'missing');
    s.imputed = s.rows.filter((r) => r.status === 'imputed');
    if (s.missing.length && !s.rankable) s.status = 'non-evaluable';
  },
  badges(s) {
    let html = '';
    if (s.status === 'non-evaluable') html += '<span class="badge nonevaluable" title="Composite cannot be computed — excluded from the ranking">Non-evaluable</span>';
    for (const r of s.missing || []) html += `<span class="inline-issue warn">${esc(r.ind.name)} missing</span>`;
    if (s.imputed?.length) html += `<span class="badge imputed" title="${esc(s.imputed.map((r) => r.ind.name).join(', '))} imputed with the period median">${s.imputed.length} imputed</span>`;
    return html;
  },
  rawCell(row) {
    if (row.status === 'missing') return '<span class="dash">—</span><span class="issue missing">Missing · no value reported</span>';
    if (row.status === 'imputed') return `${esc(fmtRaw(row.ind, row.value))}<span class="issue imputed" title="${esc(row.note)}">Imputed · period median</span>`;
    return null;
  },
  note(s) {
    const out = [];
    if (s.status === 'non-evaluable') {
      const names = s.missing.map((r) => r.ind.name).join(', ');
      const types = uniq(s.missing.map((r) => typeName(r.ind.type).toLowerCase())).join(' and ');
      out.push({ kind: 'warn', html: `<p><strong>Not evaluable</strong> — ${esc(names)} ${s.missing.length > 1 ? 'are' : 'is'} missing (strategy: mark as missing). The ${esc(types)} sub-score and the composite cannot be computed, so this supplier is excluded from the ranking.</p>` });
    }
    for (const r of s.imputed || []) {
      out.push({ kind: 'warn', html: `<p><strong>Imputed value</strong> — ${esc(r.ind.name)} was not reported; the period median (${esc(fmtRaw(r.ind, r.value))}) is used instead.</p>` });
    }
    return out;
  },
  alerts(res) {
    const items = [];
    for (const s of res.list) {
      for (const r of s.missing || []) items.push({ kind: 'missing', tag: 'Missing', supplier: s.name, text: `${r.ind.name}: missing value`, detail: 'not evaluable · excluded from ranking' });
      for (const r of s.imputed || []) items.push({ kind: 'imputed', tag: 'Imputed', supplier: s.name, text: `${r.ind.name}: missing value imputed with period median ${fmtRaw(r.ind, r.value)}`, detail: '' });
    }
    return items;
  },
};
/* @end missing-data */
/* @broken missing-data */
Features.missingData = {
  classify(ind, raw, ctx) {
    if (!isBlank(raw)) return null;
    if (ind.missing === 'median') {
      const m = mean(ctx.pool[ind.id]);
      if (m !== null) return { status: 'imputed', value: m, note: `period median of ${ctx.pool[ind.id].length} valid values` };
    }
    return { status: 'missing' };
  },
  annotate(s) {
    s.missing = s.rows.filter((r) => r.status === 'missing');
    s.imputed = s.rows.filter((r) => r.status === 'imputed');
    if (s.missing.length && !s.rankable) s.status = 'non-evaluable';
  },
  badges(s) {
    let html = '';
    if (s.status === 'non-evaluable') html += '<span class="badge nonevaluable">Non-evaluable</span>';
    for (const r of s.missing || []) html += `<span class="inline-issue warn">${esc(r.ind.name)} missing</span>`;
    if (s.imputed?.length) html += `<span class="badge imputed">${s.imputed.length} imputed</span>`;
    return html;
  },
  rawCell(row) {
    if (row.status === 'missing') return '<span class="dash">—</span><span class="issue missing">Missing · no value reported</span>';
    if (row.status === 'imputed') return `${esc(fmtRaw(row.ind, row.value))}<span class="issue imputed">Imputed · period median</span>`;
    return null;
  },
  note(s) {
    if (s.status !== 'non-evaluable') return [];
    return [{ kind: 'warn', html: `<p><strong>Not evaluable</strong> — ${esc(s.missing.map((r) => r.ind.name).join(', '))} missing.</p>` }];
  },
  alerts(res) {
    const items = [];
    for (const s of res.list) {
      for (const r of s.missing || []) items.push({ kind: 'missing', tag: 'Missing', supplier: s.name, text: `${r.ind.name}: missing value`, detail: 'not evaluable · excluded from ranking' });
      for (const r of s.imputed || []) items.push({ kind: 'imputed', tag: 'Imputed', supplier: s.name, text: `${r.ind.name}: missing value imputed with period median ${fmtRaw(r.ind, r.value)}`, detail: '' });
    }
    return items;
  },
};
/* @end missing-data */

/* ------------------------------------------------------------------ feature: data quality — anomalous input */

/* @feature anomaly-check */
Features.anomaly = {
  classify(ind, raw) {
    if (isBlank(raw)) return null;
    if (!isNumeric(raw)) return { status: 'non-numeric' };
    const v = Number(raw);
    const [lo, hi] = ind.validRange;
    if (v < lo || v > hi) return { status: 'out-of-range' };
    return null;
  },
  annotate(s) {
    s.errors = s.rows.filter((r) => r.status === 'non-numeric' || r.status === 'out-of-range');
    if (s.errors.length) s.status = 'error';
  },
  describe(r) {
    const [lo, hi] = r.ind.validRange;
    return r.status === 'non-numeric'
      ? `${r.ind.name}: Non-numeric value “${r.raw}”`
      : `${r.ind.name}: Value ${fmtRaw(r.ind, r.raw)} out of range (${lo}–${hi})`;
  },
  badges(s) {
    if (!s.errors?.length) return '';
    return `<span class="badge error" title="Scoring blocked by invalid input">${ICON.warn}Data error</span>`
      + s.errors.map((r) => `<span class="inline-issue">${esc(r.status === 'non-numeric' ? `${r.ind.name}: Non-numeric value` : `${r.ind.name}: Out of range`)}</span>`).join('');
  },
  rawCell(row) {
    const [lo, hi] = row.ind.validRange;
    if (row.status === 'non-numeric') return `“${esc(row.raw)}”<span class="issue error">Non-numeric value</span>`;
    if (row.status === 'out-of-range') return `${esc(fmtRaw(row.ind, row.raw))}<span class="issue error">Out of range (${lo}–${hi})</span>`;
    return null;
  },
  note(s) {
    if (!s.errors?.length) return [];
    return [{ kind: 'error', html: `<p><strong>Scoring blocked</strong> — ${s.errors.map((r) => esc(this.describe(r))).join('; ')}.</p><p>Correct the record in ${esc(uniq(s.errors.map((r) => r.ind.source)).join(' / '))}; the supplier is excluded from the ranking until the value is valid.</p>` }];
  },
  alerts(res) {
    const items = [];
    for (const s of res.list) {
      for (const r of s.errors || []) items.push({ kind: 'error', tag: 'Data error', supplier: s.name, text: this.describe(r), detail: 'scoring blocked' });
    }
    return items;
  },
};
/* @end anomaly-check */
/* @broken anomaly-check */
Features.anomaly = {
  classify(ind, raw) {
    if (isBlank(raw)) return null;
    if (!isNumeric(raw)) return { status: 'non-numeric' };
    return null;
  },
  annotate(s) {
    s.errors = s.rows.filter((r) => r.status === 'non-numeric');
    if (s.errors.length) s.status = 'error';
  },
  describe(r) {
    return `${r.ind.name}: Non-numeric value “${r.raw}”`;
  },
  badges(s) {
    if (!s.errors?.length) return '';
    return `<span class="badge error">${ICON.warn}Data error</span>`
      + s.errors.map((r) => `<span class="inline-issue">${esc(`${r.ind.name}: Non-numeric value`)}</span>`).join('');
  },
  rawCell(row) {
    if (row.status === 'non-numeric') return `“${esc(row.raw)}”<span class="issue error">Non-numeric value</span>`;
    return null;
  },
  note(s) {
    if (!s.errors?.length) return [];
    return [{ kind: 'error', html: `<p><strong>Scoring blocked</strong> — ${s.errors.map((r) => esc(this.describe(r))).join('; ')}.</p>` }];
  },
  alerts(res) {
    const items = [];
    for (const s of res.list) {
      for (const r of s.errors || []) items.push({ kind: 'error', tag: 'Data error', supplier: s.name, text: this.describe(r), detail: 'scoring blocked' });
    }
    return items;
  },
};
/* @end anomaly-check */

/* ------------------------------------------------------------------ radar chart */

const RADAR = { cx: 220, cy: 172, R: 112 };
function radarAngle(i, n) {
  return ((-90 + (360 * i) / n) * Math.PI) / 180;
}
function radarPoint(i, n, score, radius = RADAR.R) {
  const a = radarAngle(i, n);
  const r = (Math.max(0, Math.min(100, score)) / 100) * radius;
  const round = (v) => Math.round(v * 100) / 100;
  return [round(RADAR.cx + r * Math.cos(a)), round(RADAR.cy + r * Math.sin(a))];
}
function rawText(row) {
  if (row.status === 'na') return 'n/a';
  if (row.status === 'missing') return 'missing';
  if (row.status === 'non-numeric') return `“${row.raw}”`;
  if (row.status === 'out-of-range') return fmtRaw(row.ind, row.raw);
  return fmtRaw(row.ind, row.value);
}

/* @feature radar */
Features.radar = {
  draw(series) {
    const svg = $('#radar');
    const body = $('#radar-body');
    const tip = $('#radar-tip');
    tip.hidden = true;
    const dims = App.cfg.dimensions;
    const n = dims.length;
    const compare = Boolean(Features.compare?.active());
    let plot = series;
    let skipped = [];
    if (Features.radarFallback) ({ plot, skipped } = Features.radarFallback.filter(series));
    Features.radarFallback?.clear(body);
    if (compare) Features.compare.legend(plot, skipped);
    else if ($('#legend-slot')) $('#legend-slot').innerHTML = '';
    if (!plot.length && skipped.length) {
      svg.innerHTML = '';
      svg.style.display = 'none';
      svg.setAttribute('aria-label', 'Radar chart unavailable');
      Features.radarFallback?.placeholder(body, skipped);
      return;
    }
    svg.style.display = '';
    const { cx, cy, R } = RADAR;
    const color = (s) => (compare ? Features.compare.color(s.id) : '#2563eb');
    const single = compare ? null : plot[0];
    let html = '<g class="grid">';
    for (let k = 1; k <= 5; k++) {
      const pts = dims.map((_, i) => radarPoint(i, n, k * 20).join(',')).join(' ');
      html += `<polygon class="ring${k === 5 ? ' outer' : ''}" points="${pts}"/>`;
      html += `<text class="ring-label" x="${cx + 4}" y="${cy - (R * k) / 5 + 3}">${k * 20}</text>`;
    }
    dims.forEach((d, i) => {
      const [x, y] = radarPoint(i, n, 100);
      html += `<line class="radar-axis" data-dim="${esc(d.id)}" x1="${cx}" y1="${cy}" x2="${x}" y2="${y}"/>`;
    });
    html += '</g>';
    dims.forEach((d, i) => {
      const a = radarAngle(i, n);
      const x = cx + (R + 18) * Math.cos(a);
      const y = cy + (R + 18) * Math.sin(a);
      const anchor = Math.cos(a) > 0.3 ? 'start' : Math.cos(a) < -0.3 ? 'end' : 'middle';
      const dy = Math.sin(a) < -0.5 ? -6 : Math.sin(a) > 0.5 ? 12 : 0;
      const val = single ? `<tspan class="v" x="${x.toFixed(1)}" dy="15">${esc(fmtScore(single.dims[i].score))}</tspan>` : '';
      html += `<text class="radar-label" data-dim="${esc(d.id)}" x="${x.toFixed(1)}" y="${(y + dy - (single && Math.sin(a) < -0.5 ? 12 : 0)).toFixed(1)}" text-anchor="${anchor}"><tspan class="n">${esc(d.name)}</tspan>${val}</text>`;
    });
    html += '<g class="series"></g>';
    dims.forEach((d, i) => {
      const a0 = radarAngle(i - 0.5, n);
      const a1 = radarAngle(i + 0.5, n);
      const r = R + 34;
      const p0 = [cx + r * Math.cos(a0), cy + r * Math.sin(a0)].map((v) => v.toFixed(1));
      const p1 = [cx + r * Math.cos(a1), cy + r * Math.sin(a1)].map((v) => v.toFixed(1));
      html += `<path class="axis-hit" data-dim="${esc(d.id)}" data-index="${i}" tabindex="0" role="button" aria-label="${esc(d.name)} dimension details" pointer-events="all" d="M${cx},${cy} L${p0.join(',')} A${r},${r} 0 0 1 ${p1.join(',')} Z"/>`;
    });
    svg.innerHTML = html;
    Features.radarSeries?.draw(svg.querySelector('g.series'), plot, { point: (i, score) => radarPoint(i, n, score), color, compare });
    const period = currentPeriod().label;
    const desc = (s) => s.dims.map((d) => `${d.name} ${fmtScore(d.score)}`).join(', ');
    svg.setAttribute('aria-label', !plot.length ? `Radar chart, ${period}: no supplier selected`
      : compare ? `Radar comparison, ${period}: ${plot.map((s) => `${s.name} — ${desc(s)}`).join('; ')}`
        : `Radar chart for ${single.name}, ${period}: ${desc(single)}`);
    const show = (el) => {
      const i = Number(el.dataset.index);
      const content = compare ? Features.compare.tooltip(i, plot) : plot[0] ? Features.radarTooltip?.content(i, plot[0]) : null;
      if (!content) return;
      tip.innerHTML = content;
      tip.hidden = false;
      const rect = svg.getBoundingClientRect();
      const brect = body.getBoundingClientRect();
      const k = rect.width / 440;
      const [ax, ay] = radarPoint(i, n, 100);
      const px = rect.left - brect.left + ax * k;
      const py = rect.top - brect.top + ay * k;
      let left = px + 16;
      if (left + tip.offsetWidth > body.clientWidth - 4) left = px - 16 - tip.offsetWidth;
      left = Math.max(4, Math.min(left, body.clientWidth - tip.offsetWidth - 4));
      const top = Math.max(4, Math.min(py - tip.offsetHeight / 2, body.clientHeight - tip.offsetHeight - 4));
      tip.style.left = `${left}px`;
      tip.style.top = `${top}px`;
    };
    const hide = () => { tip.hidden = true; };
    $$('.axis-hit', svg).forEach((el) => {
      el.addEventListener('mouseenter', () => show(el));
      el.addEventListener('focus', () => show(el));
      el.addEventListener('mouseleave', hide);
      el.addEventListener('blur', hide);
    });
  },
};
/* @end radar */

/* @feature radar-series */
Features.radarSeries = {
  draw(g, plot, geo) {
    g.innerHTML = plot.map((s) => {
      const c = geo.color(s);
      const pts = s.dims.map((d, i) => geo.point(i, d.score));
      return `<g class="series-group" data-supplier="${esc(s.id)}">
        <polygon class="radar-series" data-supplier="${esc(s.id)}" points="${pts.map((p) => p.join(',')).join(' ')}" fill="${c}" fill-opacity="${geo.compare ? 0.1 : 0.18}" stroke="${c}"/>
        ${pts.map((p, i) => `<circle class="radar-point" data-supplier="${esc(s.id)}" data-dim="${esc(s.dims[i].id)}" cx="${p[0]}" cy="${p[1]}" r="3.6" fill="${c}"/>`).join('')}</g>`;
    }).join('');
  },
};
/* @end radar-series */
/* @broken radar-series */
Features.radarSeries = {
  draw(g, plot, geo) {
    g.innerHTML = plot.map((s) => {
      const c = geo.color(s);
      const pts = s.dims.map((d, i) => geo.point(i + 1, d.score));
      return `<g class="series-group" data-supplier="${esc(s.id)}">
        <polygon class="radar-series" data-supplier="${esc(s.id)}" points="${pts.map((p) => p.join(',')).join(' ')}" fill="${c}" fill-opacity="${geo.compare ? 0.1 : 0.18}" stroke="${c}"/>
        ${pts.map((p, i) => `<circle class="radar-point" data-supplier="${esc(s.id)}" data-dim="${esc(s.dims[i].id)}" cx="${p[0]}" cy="${p[1]}" r="3.6" fill="${c}"/>`).join('')}</g>`;
    }).join('');
  },
};
/* @end radar-series */

/* @feature radar-tooltip */
Features.radarTooltip = {
  content(i, s) {
    const d = s.dims[i];
    const rows = d.rows.map((r) => `<div class="tt-row"><span>${esc(r.ind.name)}</span><em>${esc(rawText(r))}</em><b>${esc(fmtScore(r.score))}</b></div>`).join('');
    return `<div class="tt-head"><span>${esc(d.name)}</span><b>${esc(fmtScore(d.score))}</b></div>${rows || '<div class="tt-note">No applicable indicators</div>'}
      <div class="tt-note">${esc(s.name)} · ${esc(currentPeriod().label)} · raw value and score per indicator</div>`;
  },
};
/* @end radar-tooltip */
/* @broken radar-tooltip */
Features.radarTooltip = {
  content(i, s) {
    const d = s.dims[i];
    const next = s.dims[(i + 1) % s.dims.length];
    const rows = next.rows.map((r) => `<div class="tt-row"><span>${esc(r.ind.name)}</span><em>${esc(rawText(r))}</em><b>${esc(fmtScore(r.score))}</b></div>`).join('');
    return `<div class="tt-head"><span>${esc(d.name)}</span><b>${esc(fmtScore(d.score))}</b></div>${rows}
      <div class="tt-note">${esc(s.name)} · ${esc(currentPeriod().label)} · raw value and score per indicator</div>`;
  },
};
/* @end radar-tooltip */

/* @feature radar-fallback */
Features.radarFallback = {
  bad(s) {
    return s.dims.filter((d) => !isFiniteNum(d.score));
  },
  filter(series) {
    const plot = [];
    const skipped = [];
    for (const s of series) {
      const bad = this.bad(s);
      if (bad.length) skipped.push({ s, dims: bad });
      else plot.push(s);
    }
    return { plot, skipped };
  },
  clear(body) {
    body.querySelector('.radar-placeholder')?.remove();
  },
  placeholder(body, skipped) {
    const div = document.createElement('div');
    div.className = 'radar-placeholder';
    div.setAttribute('role', 'status');
    const many = skipped.length > 1;
    const items = skipped.flatMap(({ s, dims }) => dims.map((d) => `<li>${many ? `${esc(s.name)} — ` : ''}<strong>${esc(d.name)}</strong>: score could not be computed (${esc(d.reasons.join('; '))})</li>`)).join('');
    div.innerHTML = `${ICON.radar}<h4>Radar chart unavailable</h4>
      <p>${esc(skipped.map((x) => x.s.name).join(', '))} ${many ? 'have' : 'has'} dimension scores that are not finite numbers, so the chart cannot be drawn.</p>
      <ul>${items}</ul>
      <p>Please check the supplier data or the scoring-rule configuration.</p>`;
    body.appendChild(div);
  },
  alerts(res) {
    const items = [];
    for (const s of res.list) {
      if (!s.rankable) continue; // data errors are reported by their own alerts
      for (const d of this.bad(s)) {
        items.push({ kind: 'config', tag: 'Rule config', supplier: s.name, text: `${d.name} dimension cannot be scored — ${d.reasons.join('; ')}`, detail: 'radar unavailable · check the scoring-rule configuration' });
      }
    }
    return items;
  },
};
/* @end radar-fallback */
/* @broken radar-fallback */
Features.radarFallback = {
  filter(series) {
    const plot = series.map((s) => ({ ...s, dims: s.dims.map((d) => (isFiniteNum(d.score) ? d : { ...d, score: 0 })) }));
    return { plot, skipped: [] };
  },
  clear() {},
  placeholder() {},
  alerts() {
    return [];
  },
};
/* @end radar-fallback */

/* @feature compare */
Features.compare = {
  on: false,
  ids: [],
  msg: '',
  max: 4,
  palette: ['#2563eb', '#f59e0b', '#10b981', '#e11d48'],
  mount() {
    $('#compare-slot').innerHTML = `<button type="button" class="toggle-btn" id="compare-toggle" aria-pressed="false">${ICON.compare}Compare suppliers</button>`;
    $('#compare-toggle').addEventListener('click', () => this.toggle());
  },
  active() {
    return this.on;
  },
  toggle() {
    this.on = !this.on;
    this.msg = '';
    const sel = App.result?.byId[App.state.selectedId];
    this.ids = this.on && sel && sel.rankable ? [sel.id] : [];
    $('#compare-toggle').setAttribute('aria-pressed', String(this.on));
    App.renderTable();
    App.renderDetail();
  },
  color(id) {
    const k = this.ids.indexOf(id);
    return this.palette[(k < 0 ? 0 : k) % this.palette.length];
  },
  headCell() {
    return '<th class="c-compare" title="Select suppliers to compare"><span class="arrow" aria-hidden="true">⇄</span></th>';
  },
  cell(s) {
    const on = this.ids.includes(s.id);
    return `<td class="c-compare"><input type="checkbox" data-compare="${esc(s.id)}" aria-label="Compare ${esc(s.name)}"${on ? ' checked' : ''}${s.rankable ? '' : ' disabled title="Not evaluable — cannot be compared"'}></td>`;
  },
  onCheck(input) {
    const id = input.dataset.compare;
    if (input.checked) {
      if (this.ids.length >= this.max) {
        input.checked = false;
        this.msg = `You can compare up to ${this.max} suppliers at a time — remove one first.`;
      } else {
        this.ids.push(id);
        this.msg = '';
      }
    } else {
      this.ids = this.ids.filter((x) => x !== id);
      this.msg = '';
    }
    App.renderDetail();
  },
  series() {
    return this.ids.map((id) => App.result.byId[id]).filter(Boolean);
  },
  onPeriod() {
    if (this.on) this.ids = this.ids.filter((id) => App.result.byId[id]?.rankable);
  },
  legend(plot, skipped) {
    const slot = $('#legend-slot');
    if (!this.on) { slot.innerHTML = ''; return; }
    const items = this.ids.map((id) => {
      const s = App.result.byId[id];
      if (!s) return '';
      const skip = skipped.find((x) => x.s.id === id);
      return `<li class="${skip ? 'skipped' : ''}"><span class="sw" style="background:${this.color(id)}"></span>${esc(s.name)}
        <span class="val">${skip ? `not plotted — ${esc(skip.dims.map((d) => d.name).join(', '))} uncomputable` : esc(fmtScore(s.composite))}</span>
        <button type="button" data-remove="${esc(id)}" aria-label="Remove ${esc(s.name)} from comparison">×</button></li>`;
    }).join('');
    const hint = this.msg
      ? `<p class="compare-hint warn" role="alert">${esc(this.msg)}</p>`
      : `<p class="compare-hint">${this.ids.length < 2 ? 'Tick suppliers in the ranking to add them to the comparison (up to 4).' : 'Hover a dimension to compare the scores.'}</p>`;
    slot.innerHTML = `<ul class="legend" aria-label="Comparison legend">${items}</ul>${hint}`;
    $$('button[data-remove]', slot).forEach((b) => b.addEventListener('click', () => {
      this.ids = this.ids.filter((x) => x !== b.dataset.remove);
      this.msg = '';
      App.renderTable();
      App.renderDetail();
    }));
  },
  tooltip(i, plot) {
    const d = App.cfg.dimensions[i];
    const rows = plot.map((s) => `<div class="tt-row"><i style="background:${this.color(s.id)}"></i><span>${esc(s.name)}</span><b>${esc(fmtScore(s.dims[i].score))}</b></div>`).join('');
    return `<div class="tt-head"><span>${esc(d.name)}</span><em>${plot.length} supplier${plot.length === 1 ? '' : 's'}</em></div>${rows}`;
  },
};
/* @end compare */
/* @broken compare */
Features.compare = {
  on: false,
  ids: [],
  msg: '',
  max: 4,
  palette: ['#2563eb', '#f59e0b', '#10b981', '#e11d48'],
  mount() {
    $('#compare-slot').innerHTML = `<button type="button" class="toggle-btn" id="compare-toggle" aria-pressed="false">${ICON.compare}Compare suppliers</button>`;
    $('#compare-toggle').addEventListener('click', () => this.toggle());
  },
  active() {
    return this.on;
  },
  toggle() {
    this.on = !this.on;
    const sel = App.result?.byId[App.state.selectedId];
    this.ids = this.on && sel && sel.rankable ? [sel.id] : [];
    $('#compare-toggle').setAttribute('aria-pressed', String(this.on));
    App.renderTable();
    App.renderDetail();
  },
  color(id) {
    const k = this.ids.indexOf(id);
    return this.palette[(k < 0 ? 0 : k) % this.palette.length];
  },
  headCell() {
    return '<th class="c-compare"><span class="arrow" aria-hidden="true">⇄</span></th>';
  },
  cell(s) {
    const on = this.ids.includes(s.id);
    return `<td class="c-compare"><input type="checkbox" data-compare="${esc(s.id)}" aria-label="Compare ${esc(s.name)}"${on ? ' checked' : ''}${s.rankable ? '' : ' disabled'}></td>`;
  },
  onCheck(input) {
    const id = input.dataset.compare;
    if (input.checked) this.ids.push(id);
    else this.ids = this.ids.filter((x) => x !== id);
    App.renderDetail();
  },
  series() {
    return this.ids.map((id) => App.result.byId[id]).filter(Boolean);
  },
  onPeriod() {
    if (this.on) this.ids = this.ids.filter((id) => App.result.byId[id]?.rankable);
  },
  legend(plot) {
    const slot = $('#legend-slot');
    if (!this.on) { slot.innerHTML = ''; return; }
    slot.innerHTML = `<ul class="legend" aria-label="Comparison legend">${plot.map((s) => `<li><span class="sw" style="background:${this.color(s.id)}"></span>${esc(s.name)}<span class="val">${esc(fmtScore(s.composite))}</span></li>`).join('')}</ul>`;
  },
  tooltip(i, plot) {
    const d = App.cfg.dimensions[i];
    const s = plot[0];
    return `<div class="tt-head"><span>${esc(d.name)}</span><b>${esc(fmtScore(s.dims[i].score))}</b></div><div class="tt-row"><i style="background:${this.color(s.id)}"></i><span>${esc(s.name)}</span><b>${esc(fmtScore(s.dims[i].score))}</b></div>`;
  },
};
/* @end compare */

/* ------------------------------------------------------------------ indicator table columns */

/* @feature source-badges */
Features.sourceBadges = {
  head() {
    return '<th>Source</th>';
  },
  cell(row) {
    const id = row.ind.source;
    const src = App.cfg.sources.find((x) => x.id === id);
    const t = currentPeriod().sourceUpdatedAt?.[id];
    return `<td data-col="source"><span class="src src-${esc(id)}" title="${esc(src ? src.description : id)}${t ? ` · synced ${esc(t)}` : ''}">${esc(src ? src.name : id)}</span></td>`;
  },
};
/* @end source-badges */
/* @broken source-badges */
Features.sourceBadges = {
  head() {
    return '<th>Source</th>';
  },
  cell(row) {
    const id = row.ind.type === 'resource' ? 'ERP' : 'QMS';
    return `<td data-col="source"><span class="src src-${id}">${id}</span></td>`;
  },
};
/* @end source-badges */

/* @feature detail-columns */
Features.detailColumns = {
  span: 2,
  head() {
    return '<th class="r">Weight</th><th class="r">Contribution</th>';
  },
  cells(row) {
    return `<td class="r" data-col="weight">${row.effWeight === null ? '—' : esc(fmtPct(row.effWeight))}</td>
      <td class="r" data-col="contribution">${esc(fmtScore(row.contribution))}</td>`;
  },
};
/* @end detail-columns */
/* @broken detail-columns */
Features.detailColumns = {
  span: 2,
  head() {
    return '<th class="r">Weight</th><th class="r">Contribution</th>';
  },
  cells(row, i, group) {
    const next = group[i + 1] || row;
    const contribution = isFiniteNum(row.score) && next.effWeight !== null ? row.score * next.effWeight : null;
    return `<td class="r" data-col="weight">${row.effWeight === null ? '—' : esc(fmtPct(row.effWeight))}</td>
      <td class="r" data-col="contribution">${esc(fmtScore(contribution))}</td>`;
  },
};
/* @end detail-columns */

/* ------------------------------------------------------------------ rendering: header & alerts */

App.renderHeader = function renderHeader() {
  const period = currentPeriod();
  Features.updateTime?.render(period);
  $('#ranking-period').textContent = period.label;
};

App.renderAlerts = function renderAlerts() {
  const box = $('#alerts');
  const res = App.result;
  if (!res.period.records.length) {
    box.hidden = true;
    return;
  }
  const items = [
    ...(Features.anomaly?.alerts(res) || []),
    ...(Features.missingData?.alerts(res) || []),
    ...(Features.radarFallback?.alerts(res) || []),
  ];
  box.hidden = false;
  if (!items.length) {
    box.className = 'alerts ok';
    box.innerHTML = `<div class="alerts-head">${ICON.ok}<strong>No data-quality issues</strong><span class="muted">All indicator values for ${esc(res.period.label)} passed validation.</span></div>`;
    return;
  }
  const affected = uniq(items.map((a) => a.supplier)).length;
  const collapsed = box.dataset.collapsed === 'true';
  box.className = 'alerts';
  box.innerHTML = `<div class="alerts-head">${ICON.warn.replace('stroke="currentColor"', 'stroke="#b45309"')}<strong>Data-quality alerts</strong>
      <span class="alerts-count">${items.length}</span>
      <span class="muted">${esc(res.period.label)} · ${affected} supplier${affected === 1 ? '' : 's'} affected</span>
      <button type="button" class="alerts-toggle" aria-expanded="${!collapsed}">${collapsed ? 'Show details' : 'Hide details'}</button></div>
    <ul${collapsed ? ' hidden' : ''}>${items.map((a) => `<li class="alert-item ${a.kind}"><span class="tag">${esc(a.tag)}</span><span><b>${esc(a.supplier)}</b> — ${esc(a.text)}${a.detail ? ` <span class="detail">· ${esc(a.detail)}</span>` : ''}</span></li>`).join('')}</ul>`;
  box.querySelector('.alerts-toggle').addEventListener('click', () => {
    box.dataset.collapsed = String(!collapsed);
    App.renderAlerts();
  });
};

/* ------------------------------------------------------------------ rendering: ranking table */

App.columns = function columns() {
  const cols = [];
  if (Features.compare?.active()) cols.push({ key: 'compare' });
  cols.push({ key: 'rank', label: 'Rank', cls: 'c-rank' });
  cols.push({ key: 'name', label: 'Supplier', cls: 'c-name' });
  cols.push({ key: 'composite', label: 'Composite', cls: 'c-composite', sortable: true });
  if (App.state.view === 'indicators') {
    for (const ind of App.cfg.indicators) {
      cols.push({ key: `ind:${ind.id}`, label: ind.shortName, cls: 'c-ind num-col', ind, sortable: true });
    }
  } else {
    cols.push({ key: 'resource', label: 'Resource', cls: 'c-resource', sortable: true });
    cols.push({ key: 'quality', label: 'Quality', cls: 'c-quality', sortable: true });
  }
  return cols;
};

App.sortRows = function sortRows(rows) {
  const { key, dir } = App.state.sort;
  const val = (s) => (key === 'composite' ? s.composite : Features.sort?.value(s, key));
  const sign = dir === 'asc' ? 1 : -1;
  const ranked = rows.filter((s) => s.rankable);
  const rest = rows.filter((s) => !s.rankable);
  ranked.sort((a, b) => {
    const va = val(a);
    const vb = val(b);
    const fa = isFiniteNum(va);
    const fb = isFiniteNum(vb);
    if (fa !== fb) return fa ? -1 : 1;
    if (!fa) return a.rank - b.rank;
    return sign * (va - vb) || a.rank - b.rank;
  });
  rest.sort((a, b) => a.name.localeCompare(b.name));
  return ranked.concat(rest);
};

function scoreCell(v, cls) {
  if (!isFiniteNum(v)) return `<td class="${cls}"><div class="score-cell"><span class="dash num">—</span></div></td>`;
  return `<td class="${cls}"><div class="score-cell"><div class="bar"><i style="width:${Math.max(0, Math.min(100, v)).toFixed(1)}%"></i></div><span class="num">${fmtScore(v)}</span></div></td>`;
}

function rowHtml(s, cols) {
  const selected = s.id === App.state.selectedId;
  const cells = cols.map((col) => {
    switch (col.key) {
      case 'compare':
        return Features.compare.cell(s);
      case 'rank':
        return `<td class="c-rank">${s.rank ? `<span class="rank-badge${s.rank <= 3 ? ` top${s.rank}` : ''}">${s.rank}</span>` : '<span class="rank-badge none">—</span>'}</td>`;
      case 'name': {
        const flags = (Features.anomaly?.badges(s) || '') + (Features.missingData?.badges(s) || '');
        return `<td class="c-name"><div class="s-name">${esc(s.name)}</div><div class="s-meta">${esc(s.sup.category)} · ${esc(s.sup.region)}</div>${flags ? `<div class="s-flags">${flags}</div>` : ''}</td>`;
      }
      case 'composite':
        return scoreCell(s.composite, 'c-composite');
      case 'resource':
        return scoreCell(s.resource, 'c-resource');
      case 'quality':
        return scoreCell(s.quality, 'c-quality');
      default: {
        const row = s.rows.find((r) => r.ind.id === col.ind.id);
        const text = row.status === 'na' ? '<span class="num na">n/a</span>'
          : isFiniteNum(row.score) ? `<span class="num">${fmtScore(row.score)}</span>` : '<span class="num flag">—</span>';
        return `<td class="c-ind" data-ind="${esc(col.ind.id)}" title="${esc(col.ind.name)}: ${esc(rawText(row))}">${text}</td>`;
      }
    }
  }).join('');
  return `<tr data-supplier="${esc(s.id)}" class="${s.rankable ? '' : 'excluded'}" aria-selected="${selected}" tabindex="0">${cells}</tr>`;
}

App.renderTable = function renderTable() {
  const res = App.result;
  const period = res.period;
  const table = $('#ranking-table');
  const thead = table.tHead;
  const tbody = table.tBodies[0];
  const empty = $('#ranking-empty');
  const cols = App.columns();
  table.classList.toggle('ind-view', App.state.view === 'indicators');
  empty.hidden = true;
  empty.innerHTML = '';
  // header
  const tr = document.createElement('tr');
  for (const col of cols) {
    if (col.key === 'compare') {
      tr.insertAdjacentHTML('beforeend', Features.compare.headCell());
      continue;
    }
    const th = document.createElement('th');
    th.className = col.cls;
    th.dataset.key = col.key;
    if (col.ind) th.title = `${col.ind.name} score (${col.ind.direction === 'negative' ? 'lower raw value is better' : 'higher raw value is better'})`;
    const active = App.state.sort.key === col.key;
    th.innerHTML = `${esc(col.label)}${col.sortable ? `<span class="arrow" aria-hidden="true">${active && App.state.sort.dir === 'asc' ? '▲' : '▼'}</span>` : ''}`;
    if (active) th.setAttribute('aria-sort', App.state.sort.dir === 'asc' ? 'ascending' : 'descending');
    if (col.sortable) Features.sort?.decorate(th, col);
    tr.appendChild(th);
  }
  thead.replaceChildren(tr);

  if (!period.records.length) {
    if (Features.emptyPeriod?.show(period)) return;
    tbody.innerHTML = '';
    $('#ranking-foot').innerHTML = '<span>0 suppliers</span>';
    return;
  }
  const all = res.list;
  const visible = App.sortRows(all.filter((s) => (Features.searchFilter ? Features.searchFilter.match(s) : true)));
  let html = '';
  let sep = false;
  for (const s of visible) {
    if (!s.rankable && !sep) {
      sep = true;
      html += `<tr class="group-sep"><td colspan="${cols.length}">Not ranked — composite score cannot be computed</td></tr>`;
    }
    html += rowHtml(s, cols);
  }
  tbody.innerHTML = html;
  if (!visible.length) Features.searchFilter?.renderEmpty(empty);
  const excluded = all.length - res.rankedCount;
  const filtered = Features.searchFilter?.active() ? `<span>Showing <b>${visible.length}</b> of ${all.length}</span>` : '';
  $('#ranking-foot').innerHTML = `<span><b>${all.length}</b> suppliers</span><span><b>${res.rankedCount}</b> ranked</span>${excluded ? `<span><b>${excluded}</b> excluded from ranking</span>` : ''}${filtered}<span style="margin-left:auto">Composite = ${fmtPct(App.cfg.compositeWeights.resource)} resource + ${fmtPct(App.cfg.compositeWeights.quality)} quality</span>`;
};

/* ------------------------------------------------------------------ rendering: detail panel */

App.emptyDetail = function emptyDetail(title, text) {
  $('#detail-body').hidden = true;
  const box = $('#detail-empty');
  box.hidden = false;
  box.innerHTML = `${ICON.empty}<h3>${esc(title)}</h3><p>${esc(text)}</p>`;
};

function statTile(key, label, value, sub) {
  const w = isFiniteNum(value) ? Math.max(0, Math.min(100, value)).toFixed(1) : 0;
  return `<div class="stat" data-stat="${key}"><span class="stat-label">${esc(label)}</span><span class="stat-value">${esc(fmtScore(value))}</span><div class="mini"><i style="width:${w}%"></i></div><span class="stat-sub">${esc(sub)}</span></div>`;
}

function indicatorTable(s) {
  const table = $('#indicator-table');
  const src = Features.sourceBadges;
  const extra = Features.detailColumns;
  const ncols = 4 + (src ? 1 : 0) + (extra ? extra.span : 0);
  table.tHead.innerHTML = `<tr><th>Indicator</th><th>Type</th>${src ? src.head() : ''}<th>Raw value</th><th class="r">Score</th>${extra ? extra.head() : ''}</tr>`;
  let html = '';
  for (const t of App.cfg.types) {
    const group = s.rows.filter((r) => r.ind.type === t.id);
    const applicable = group.filter((r) => r.status !== 'na');
    html += `<tr class="group"><td colspan="${ncols}"><strong>${esc(t.name)} indicators</strong><span class="sub">${esc(t.name)} sub-score <b>${esc(fmtScore(s[t.id]))}</b></span></td></tr>`;
    group.forEach((r) => {
      const cls = r.status === 'ok' ? 'row-ok' : r.status === 'na' ? 'row-na' : r.status === 'missing' || r.status === 'imputed' ? 'row-missing' : 'row-error';
      const special = r.status === 'na' ? '<span class="badge na">N/A</span><span class="issue">Not applicable to this category</span>'
        : (Features.missingData?.rawCell(r) ?? Features.anomaly?.rawCell(r));
      const raw = special ?? esc(fmtRaw(r.ind, r.value ?? r.raw));
      html += `<tr data-ind="${esc(r.ind.id)}" class="${cls}">
        <td data-col="name"><span class="ind-name">${esc(r.ind.name)}</span><span class="ind-dir">${r.ind.direction === 'negative' ? '↓ lower is better' : '↑ higher is better'} · ${esc(App.cfg.dimensions.find((d) => d.id === r.ind.dimension)?.name || '')}</span></td>
        <td data-col="type"><span class="type-pill ${esc(r.ind.type)}">${esc(typeName(r.ind.type))}</span></td>
        ${src ? src.cell(r) : ''}
        <td data-col="raw">${raw}</td>
        <td class="r" data-col="score">${esc(fmtScore(r.score))}</td>
        ${extra ? extra.cells(r, applicable.indexOf(r), applicable) : ''}
      </tr>`;
    });
  }
  table.tBodies[0].innerHTML = html;
  const na = s.rows.filter((r) => r.status === 'na');
  $('#ind-foot').textContent = 'Raw values map linearly onto 0–100 between the configured bounds. '
    + 'Weights apply within each type and contribution = score × weight, so the contributions add up to the sub-score.'
    + (na.length ? ` ${na.map((r) => r.ind.name).join(', ')} ${na.length > 1 ? 'are' : 'is'} not applicable to ${s.sup.category}; the remaining weights are re-normalised.` : '');
}

App.renderDetail = function renderDetail(opts = {}) {
  const res = App.result;
  const s = res?.byId[App.state.selectedId];
  if (!s) {
    const period = res?.period;
    if (period && !period.records.length) App.emptyDetail(`No data for ${period.label}`, 'Scores, radar and indicator details appear once the period has been published.');
    else App.emptyDetail('No supplier selected', 'Select a supplier in the ranking to see its scores, radar chart and indicator details.');
    return;
  }
  $('#detail-empty').hidden = true;
  $('#detail-body').hidden = false;
  const period = res.period;
  const since = s.sup.onboarded ? `Supplier since ${s.sup.onboarded.slice(0, 4)}` : '';
  const statusBadges = s.rankable ? '' : (Features.anomaly?.badges(s) || '') + (Features.missingData?.badges(s) || '');
  $('#detail-head').innerHTML = `<div><h2>${esc(s.name)}</h2>
      <div class="detail-meta"><span>${esc(s.sup.category)}</span><span>${esc(s.sup.region)}</span><span>Contact ${esc(s.sup.contact)}</span><span>${esc(period.label)}</span></div></div>
    <div class="detail-rank">${s.rank ? `<span class="pill">Rank ${s.rank} of ${res.rankedCount}</span>` : '<span class="pill out">Not ranked</span>'}<span class="sub">${esc(since)}</span>${statusBadges ? `<div class="s-flags" style="justify-content:flex-end">${statusBadges}</div>` : ''}</div>`;
  const notes = [...(Features.anomaly?.note(s) || []), ...(Features.missingData?.note(s) || [])];
  const noteBox = $('#detail-note');
  noteBox.hidden = !notes.length;
  noteBox.className = `detail-note${notes.some((n) => n.kind === 'error') ? ' error' : ''}`;
  noteBox.innerHTML = notes.map((n) => n.html).join('');
  const cw = App.cfg.compositeWeights;
  $('#detail-stats').innerHTML = statTile('composite', 'Composite', s.composite, `${fmtPct(cw.resource)} resource + ${fmtPct(cw.quality)} quality`)
    + statTile('resource', 'Resource', s.resource, 'Delivery · capacity · cost')
    + statTile('quality', 'Quality', s.quality, 'Defects · yield · service');
  if (opts.radar !== false) {
    const series = Features.compare?.active() ? Features.compare.series() : [s];
    $('#radar-sub').textContent = Features.compare?.active() ? `Comparing ${series.length} supplier${series.length === 1 ? '' : 's'} · ${period.label}` : `${s.name} · ${period.label} · 0–100 scale`;
    Features.radar?.draw(series);
  }
  indicatorTable(s);
};

/* ------------------------------------------------------------------ state changes */

App.ensureSelection = function ensureSelection() {
  const res = App.result;
  if (res.byId[App.state.selectedId]) return;
  const first = res.list.find((s) => s.rank === 1) || res.list[0];
  App.state.selectedId = first ? first.id : null;
};

App.select = function select(id) {
  if (!App.result.byId[id]) return;
  App.state.selectedId = id;
  $$('#ranking-table tbody tr[data-supplier]').forEach((tr) => tr.setAttribute('aria-selected', String(tr.dataset.supplier === id)));
  App.renderDetail();
};

App.setPeriod = function setPeriod(id) {
  if (!App.periods.some((p) => p.id === id)) return;
  App.state.periodId = id;
  Features.periodSelect?.sync();
  App.result = computePeriod(currentPeriod());
  Features.compare?.onPeriod();
  App.renderHeader();
  App.renderAlerts();
  App.renderTable();
  Features.periodSync?.after();
};

/* ------------------------------------------------------------------ boot */

async function loadJson(name) {
  const r = await fetch(`data/${name}`);
  if (!r.ok) throw new Error(`data/${name} could not be loaded (HTTP ${r.status})`);
  return r.json();
}

async function init() {
  let cfg;
  let sup;
  let per;
  try {
    [cfg, sup, per] = await Promise.all([loadJson('config.json'), loadJson('suppliers.json'), loadJson('periods.json')]);
  } catch (err) {
    $('#app').hidden = true;
    const box = $('#load-error');
    box.hidden = false;
    box.innerHTML = `<strong>The scorecard data could not be loaded.</strong><br>${esc(err.message)}. Check that the data folder is published next to the page and reload.`;
    return;
  }
  App.cfg = cfg;
  App.suppliers = sup.suppliers;
  App.supById = Object.fromEntries(App.suppliers.map((s) => [s.id, s]));
  App.periods = per.periods;
  App.state.periodId = (App.periods.find((p) => p.records.length) || App.periods[0]).id;
  if (cfg.organisation) $('#org-name').textContent = cfg.organisation;
  Features.periodSelect?.mount();
  Features.searchFilter?.mount();
  Features.indicatorView?.mount();
  Features.compare?.mount();
  App.result = computePeriod(currentPeriod());
  App.ensureSelection();
  App.renderHeader();
  App.renderAlerts();
  App.renderTable();
  App.renderDetail();

  const tbody = $('#ranking-table tbody');
  tbody.addEventListener('click', (e) => {
    const box = e.target.closest('input[data-compare]');
    if (box) {
      Features.compare?.onCheck(box);
      return;
    }
    const tr = e.target.closest('tr[data-supplier]');
    if (tr) App.select(tr.dataset.supplier);
  });
  tbody.addEventListener('keydown', (e) => {
    const tr = e.target.closest('tr[data-supplier]');
    if (tr && (e.key === 'Enter' || e.key === ' ') && e.target === tr) {
      e.preventDefault();
      App.select(tr.dataset.supplier);
    }
  });
}

init();
