/* Rural-stay Revenue Strategy Tool — plain JS, no dependencies.
 * Data: data/property.json, data/plans.json, data/cost_categories.json, data/seasonality.json.
 */
'use strict';

const Features = {};
const App = {
  property: null,
  plans: [],          // valid plans only
  dataIssues: [],     // problems found in the data files (see normalize)
  defaults: null,
  state: null,
  last: null,         // last projection of the active plan
};

/* ------------------------------------------------------------------ helpers */

const $ = (sel, root = document) => root.querySelector(sel);
const esc = (v) => String(v).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
const isNum = (v) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v));
const SVGNS = 'http://www.w3.org/2000/svg';

function money0(x) {
  const r = Math.round(x);
  return (r < 0 ? '-' : '') + '$' + Math.abs(r).toLocaleString('en-US');
}
function money2(x) {
  return (x < 0 ? '-' : '') + '$' + Math.abs(x).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
function pct1(x) {
  return x.toFixed(1) + '%';
}
/* Ratios that are undefined (nothing sold, nothing available) are shown as a dash. */
function pctOrDash(x) {
  return Number.isFinite(x) ? pct1(x) : '—';
}
function money2OrDash(x) {
  return Number.isFinite(x) ? money2(x) : '—';
}
function plainNum(x) {
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
}
function shortMoney(v) {
  const a = Math.abs(v);
  const s = a >= 1000 ? (a / 1000).toFixed(a % 1000 === 0 ? 0 : 1).replace(/\.0$/, '') + 'k' : String(Math.round(a));
  return (v < 0 ? '-$' : '$') + s;
}
function svgEl(tag, attrs = {}, text) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}
function cls(x) {
  return x < 0 ? 'neg' : '';
}

const ICON = {
  warn: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M10.3 3.9L1.8 18a2 2 0 001.7 3h17a2 2 0 001.7-3L13.7 3.9a2 2 0 00-3.4 0z"/><path d="M12 9v4M12 17h.01"/></svg>',
  house: '<svg viewBox="0 0 48 48" aria-hidden="true"><path d="M8 40V21L24 9l16 12v19z"/><path d="M19 40V29h10v11"/><path d="M4 24L24 8l20 16"/></svg>',
  flag: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 21V4M5 4h11l-2 4 2 4H5"/></svg>',
  alert: '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9"/><path d="M12 7v6M12 16.5h.01"/></svg>',
};

/* ------------------------------------------------------------------ data loading */

async function loadJson(file) {
  let res;
  try {
    res = await fetch(`data/${file}`);
  } catch (e) {
    throw new Error(`Could not load data/${file} (${e.message}).`);
  }
  if (!res.ok) throw new Error(`Could not load data/${file} (HTTP ${res.status}).`);
  try {
    return await res.json();
  } catch (e) {
    throw new Error(`data/${file} is not valid JSON.`);
  }
}

/* Keeps only usable records; every record left out is described in App.dataIssues. */
function normalize(property, plansFile, costs, seasonality) {
  const issues = [];
  const plans = [];
  for (const p of plansFile.plans || []) {
    const name = typeof p.name === 'string' && p.name.trim() ? p.name.trim() : null;
    if (!name) {
      issues.push({ kind: 'plan', file: 'plans.json', text: `A plan without a name (id "${p.id}") was skipped.` });
      continue;
    }
    if (!isNum(p.priceFactor) || Number(p.priceFactor) <= 0) {
      issues.push({ kind: 'plan', file: 'plans.json', text: `Plan "${name}" has no valid price factor — not offered.` });
      continue;
    }
    const extra = (p.extraVariableCosts || []).filter((x) => isNum(x.perNight) && Number(x.perNight) >= 0)
      .map((x) => ({ id: x.id, name: x.name, perNight: Number(x.perNight) }));
    const factors = {};
    for (const [k, v] of Object.entries(p.variableCostFactors || {})) if (isNum(v) && Number(v) >= 0) factors[k] = Number(v);
    plans.push({
      id: p.id, name, description: p.description || '',
      priceFactor: Number(p.priceFactor),
      occupancyShift: isNum(p.occupancyShift) ? Number(p.occupancyShift) : 0,
      variableCostFactors: factors, extraVariableCosts: extra,
    });
  }
  const fixed = [];
  for (const c of costs.fixed || []) {
    if (!isNum(c.monthly) || Number(c.monthly) < 0) {
      issues.push({ kind: 'cost', file: 'cost_categories.json', text: `Fixed cost "${c.name}" has an invalid amount (${JSON.stringify(c.monthly)}) — ignored.` });
      continue;
    }
    fixed.push({ id: c.id, name: c.name, note: c.note || '', monthly: Number(c.monthly) });
  }
  const variable = [];
  for (const c of costs.variable || []) {
    if (!isNum(c.perNight) || Number(c.perNight) < 0) {
      issues.push({ kind: 'cost', file: 'cost_categories.json', text: `Variable cost "${c.name}" has an invalid amount (${JSON.stringify(c.perNight)}) — ignored.` });
      continue;
    }
    variable.push({ id: c.id, name: c.name, perNight: Number(c.perNight) });
  }
  const season = [];
  const seasonNotes = [];
  const defaulted = [];
  Model.MONTHS.forEach((mon, i) => {
    const rec = (seasonality.months || []).find((r) => r && r.month === mon);
    const ok = rec && isNum(rec.multiplier) && Number(rec.multiplier) >= 0 && Number(rec.multiplier) <= 3;
    season.push(ok ? Number(rec.multiplier) : 1);
    seasonNotes.push(rec?.note || '');
    if (!ok) {
      defaulted.push(i);
      issues.push({ kind: 'season', file: 'seasonality.json', text: `No valid multiplier for ${Model.MONTH_NAMES[i]} (${mon}) — using 1.00.` });
    }
  });
  return { plans, fixed, variable, season, seasonNotes, defaulted, issues };
}

/* ------------------------------------------------------------------ state */

function initialState() {
  const d = App.defaults;
  return {
    rooms: d.rooms, price: d.price, occupancy: d.occupancy,
    planId: d.planId,
    fixed: d.fixed.map((c) => ({ ...c })),
    variable: d.variable.map((c) => ({ ...c })),
    season: d.season.slice(),
  };
}

App.inputs = function inputs() {
  const s = App.state;
  return { rooms: s.rooms, price: s.price, occupancy: s.occupancy, year: App.property.year, season: s.season, fixed: s.fixed, variable: s.variable };
};
App.planById = (id) => App.plans.find((p) => p.id === id) || App.plans[0];
App.activePlan = function activePlan() {
  const plan = App.planById(App.state.planId);
  return Features.planSelect ? Features.planSelect.effective(plan) : plan;
};

/* ------------------------------------------------------------------ input parsing */

function basicParse(raw) {
  const v = parseFloat(String(raw).replace(/,/g, ''));
  return Number.isFinite(v) ? { ok: true, value: v } : { ok: false };
}

function showFieldError(field, msg) {
  const input = $(`#${field}-input`);
  const box = $(`#${field}-error`);
  if (input) input.setAttribute('aria-invalid', msg ? 'true' : 'false');
  if (input) input.closest('.field')?.classList.toggle('invalid', !!msg);
  if (box) {
    box.textContent = msg || '';
    box.hidden = !msg;
  }
}

App.onField = function onField(field, raw) {
  const res = Features.validation ? Features.validation.check(field, raw) : basicParse(raw);
  if (!res.ok) {
    showFieldError(field, res.error || '');
    return;                       // keep the last valid value: nothing is re-rendered
  }
  showFieldError(field, '');
  if (field === 'price') App.setPrice(res.value, 'input');
  else {
    App.state[field] = res.value;
    App.update();
  }
};

App.setPrice = function setPrice(v, source) {
  App.state.price = v;
  if (source !== 'input') {
    const inp = $('#price-input');
    inp.value = plainNum(v);
    showFieldError('price', '');
  }
  if (source !== 'dial') Features.priceDial?.sync(v);
  App.update();
};

function mountInputs() {
  const s = App.state;
  $('#rooms-input').value = plainNum(s.rooms);
  $('#price-input').value = plainNum(s.price);
  $('#occupancy-input').value = plainNum(s.occupancy);
  for (const f of ['rooms', 'price', 'occupancy']) {
    const inp = $(`#${f}-input`);
    inp.oninput = () => App.onField(f, inp.value);
  }
}

function refreshInputs() {
  const s = App.state;
  $('#rooms-input').value = plainNum(s.rooms);
  $('#price-input').value = plainNum(s.price);
  $('#occupancy-input').value = plainNum(s.occupancy);
  for (const f of ['rooms', 'price', 'occupancy']) showFieldError(f, '');
  Features.priceDial?.sync(s.price);
  Features.planSelect?.sync();
  Features.fixedEditor?.mount();
  Features.variableEditor?.mount();
  Features.seasonEditor?.mount();
}

/* ------------------------------------------------------------------ price dial (widget) */

function createDial({ min, max, step, onChange }) {
  const R = 46;
  const C = 60;
  const A0 = -135;
  const SPAN = 270;
  const pt = (deg, r = R) => {
    const a = deg * Math.PI / 180;
    return [C + r * Math.sin(a), C - r * Math.cos(a)];
  };
  const arc = (from, to) => {
    const [x1, y1] = pt(from);
    const [x2, y2] = pt(to);
    const large = to - from > 180 ? 1 : 0;
    return `M${x1.toFixed(2)} ${y1.toFixed(2)} A${R} ${R} 0 ${large} 1 ${x2.toFixed(2)} ${y2.toFixed(2)}`;
  };
  const el = document.createElement('div');
  el.className = 'dial';
  el.tabIndex = 0;
  el.setAttribute('role', 'slider');
  el.setAttribute('aria-label', 'Price dial');
  el.setAttribute('aria-valuemin', String(min));
  el.setAttribute('aria-valuemax', String(max));
  el.setAttribute('aria-orientation', 'horizontal');
  let ticks = '';
  for (let i = 0; i <= 12; i++) {
    const d = A0 + SPAN * i / 12;
    const [x1, y1] = pt(d, 55);
    const [x2, y2] = pt(d, i % 3 === 0 ? 50 : 52);
    ticks += `<line x1="${x1.toFixed(2)}" y1="${y1.toFixed(2)}" x2="${x2.toFixed(2)}" y2="${y2.toFixed(2)}"/>`;
  }
  el.innerHTML = `<svg viewBox="0 0 120 120" aria-hidden="true">
      <g class="dial-ticks">${ticks}</g>
      <path class="dial-track" d="${arc(A0, A0 + SPAN)}"/>
      <path class="dial-fill" d=""/>
      <circle class="dial-face" cx="${C}" cy="${C}" r="36"/>
      <circle class="dial-thumb" r="6.5" cx="${C}" cy="${C - R}"/>
    </svg>
    <div class="dial-readout"><span class="dial-value"></span><span class="dial-unit">per night</span></div>
    <span class="dial-min">$${min}</span><span class="dial-max">$${max}</span>`;
  const fill = el.querySelector('.dial-fill');
  const thumb = el.querySelector('.dial-thumb');
  const readout = el.querySelector('.dial-value');
  let value = min;

  function draw(v) {
    value = v;
    const cv = Math.min(max, Math.max(min, v));
    const deg = A0 + SPAN * (cv - min) / (max - min);
    fill.setAttribute('d', deg > A0 + 0.5 ? arc(A0, deg) : '');
    const [x, y] = pt(deg);
    thumb.setAttribute('cx', x.toFixed(2));
    thumb.setAttribute('cy', y.toFixed(2));
    readout.textContent = '$' + plainNum(v);
    el.setAttribute('aria-valuenow', plainNum(v));
    el.setAttribute('aria-valuetext', `$${plainNum(v)} per night`);
  }
  function set(v) {
    const nv = Math.round(Math.min(max, Math.max(min, v)) * 100) / 100;
    if (nv === value) return;
    draw(nv);
    onChange(nv);
  }
  el.addEventListener('keydown', (e) => {
    const k = e.key;
    let nv = null;
    if (k === 'ArrowRight' || k === 'ArrowUp') nv = value + step;
    else if (k === 'ArrowLeft' || k === 'ArrowDown') nv = value - step;
    else if (k === 'PageUp') nv = value + step * 5;
    else if (k === 'PageDown') nv = value - step * 5;
    else if (k === 'Home') nv = min;
    else if (k === 'End') nv = max;
    if (nv === null) return;
    e.preventDefault();
    set(nv);
  });
  function fromPointer(e) {
    const r = el.querySelector('svg').getBoundingClientRect();
    const dx = e.clientX - (r.left + r.width / 2);
    const dy = e.clientY - (r.top + r.height / 2);
    if (Math.hypot(dx, dy) < 6) return;
    let deg = Math.atan2(dx, -dy) * 180 / Math.PI;
    if (deg > 135) deg = deg > 157.5 ? A0 : 135;      // bottom gap: snap to the nearer end
    if (deg < -135) deg = deg < -157.5 ? A0 + SPAN : A0;
    const raw = min + (deg - A0) / SPAN * (max - min);
    set(Math.round(raw / step) * step);
  }
  el.addEventListener('pointerdown', (e) => {
    el.focus();
    el.setPointerCapture?.(e.pointerId);
    el.classList.add('dragging');
    fromPointer(e);
  });
  el.addEventListener('pointermove', (e) => {
    if (el.classList.contains('dragging')) fromPointer(e);
  });
  const stop = () => el.classList.remove('dragging');
  el.addEventListener('pointerup', stop);
  el.addEventListener('pointercancel', stop);
  return { el, sync: draw };
}

/* @feature price-dial */
Features.priceDial = (() => {
  const lim = () => App.property.limits.nightlyPrice;
  let dial = null;
  return {
    mount() {
      dial = createDial({ min: lim().min, max: lim().max, step: lim().dialStep, onChange: (v) => App.setPrice(v, 'dial') });
      $('#dial-slot').appendChild(dial.el);
      dial.sync(App.state.price);
    },
    sync(v) { dial?.sync(v); },
  };
})();
/* @end price-dial */
/* @broken price-dial */
Features.priceDial = (() => {
  const lim = () => App.property.limits.nightlyPrice;
  let dial = null;
  return {
    mount() {
      dial = createDial({ min: lim().min, max: lim().max, step: lim().dialStep, onChange: (v) => App.setPrice(v, 'input') });
      $('#dial-slot').appendChild(dial.el);
      dial.sync(App.state.price);
    },
    sync(v) { dial?.sync(v); },
  };
})();
/* @end price-dial */

/* ------------------------------------------------------------------ input validation */

/* @feature input-validation */
Features.validation = {
  check(field, raw) {
    const t = String(raw).trim().replace(/,/g, '');
    const lim = App.property.limits;
    const numeric = /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(t);
    const v = Number(t);
    if (field === 'rooms') {
      if (!t) return { ok: false, error: 'Enter the number of rooms.' };
      if (!numeric || !Number.isInteger(v)) return { ok: false, error: 'Rooms must be a whole number.' };
      if (v < 0) return { ok: false, error: 'Rooms cannot be negative.' };
      if (v > lim.rooms.max) return { ok: false, error: `Rooms must be between ${lim.rooms.min} and ${lim.rooms.max}.` };
      return { ok: true, value: v };
    }
    if (field === 'price') {
      if (!t) return { ok: false, error: 'Enter a nightly price.' };
      if (!numeric) return { ok: false, error: 'Nightly price must be a number.' };
      if (v < 0) return { ok: false, error: 'Nightly price cannot be negative.' };
      if (v < lim.nightlyPrice.min || v > lim.nightlyPrice.max) return { ok: false, error: `Nightly price must be between $${lim.nightlyPrice.min} and $${lim.nightlyPrice.max}.` };
      return { ok: true, value: Math.round(v * 100) / 100 };
    }
    if (field === 'occupancy') {
      if (!t) return { ok: false, error: 'Enter an occupancy rate.' };
      if (!numeric) return { ok: false, error: 'Occupancy must be a number.' };
      if (v < lim.occupancyRate.min || v > lim.occupancyRate.max) return { ok: false, error: 'Occupancy must be between 0% and 100%.' };
      return { ok: true, value: v };
    }
    return basicParse(raw);
  },
};
/* @end input-validation */
/* @broken input-validation */
Features.validation = {
  check(field, raw) {
    const t = String(raw).trim().replace(/,/g, '');
    const lim = App.property.limits;
    const numeric = /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(t);
    const v = Number(t);
    if (!t) return { ok: false, error: 'This field is required.' };
    if (!numeric) return { ok: false, error: 'Please enter a number.' };
    if (v < 0) return { ok: false, error: 'Value cannot be negative.' };
    if (field === 'rooms' && v > lim.rooms.max) return { ok: false, error: `Rooms must be between ${lim.rooms.min} and ${lim.rooms.max}.` };
    return { ok: true, value: v };
  },
};
/* @end input-validation */

/* ------------------------------------------------------------------ pricing plan selector */

function mountPlanSelect() {
  const slot = $('#plan-slot');
  slot.innerHTML = `<label for="plan-select">Pricing plan</label>
    <select id="plan-select">${App.plans.map((p) => `<option value="${esc(p.id)}">${esc(p.name)}</option>`).join('')}</select>
    <div class="plan-card" id="plan-card"></div>`;
  const sel = $('#plan-select');
  sel.value = App.state.planId;
  sel.addEventListener('change', () => App.setPlan(sel.value));
}
function renderPlanCard(proj) {
  const card = $('#plan-card');
  if (!card) return;
  const p = App.planById(App.state.planId);
  const pf = p.priceFactor === 1 ? 'list price' : `list price × ${plainNum(p.priceFactor)}`;
  const shift = p.occupancyShift ? `${p.occupancyShift > 0 ? '+' : '−'}${Math.abs(p.occupancyShift)} pts occupancy` : 'no occupancy change';
  const chips = [pf, shift];
  for (const [k, f] of Object.entries(p.variableCostFactors)) {
    const base = App.state.variable.find((c) => c.id === k);
    if (base) chips.push(`${base.name} × ${plainNum(f)}`);
  }
  for (const x of p.extraVariableCosts) chips.push(`+ ${x.name} ${money2(x.perNight)}/night`);
  card.innerHTML = `<p class="plan-desc">${esc(p.description)}</p>
    <p class="plan-rate">Effective rate <strong>${money2(proj.rate)}</strong> / night · base occupancy <strong>${plainNum(Math.round(proj.effOcc * 1000) / 10)}%</strong></p>
    <ul class="chips">${chips.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>`;
}

/* @feature plan-select */
Features.planSelect = {
  mount: mountPlanSelect,
  sync() { const sel = $('#plan-select'); if (sel) sel.value = App.state.planId; },
  render: renderPlanCard,
  effective(plan) { return plan; },
};
/* @end plan-select */
/* @broken plan-select */
Features.planSelect = {
  mount: mountPlanSelect,
  sync() { const sel = $('#plan-select'); if (sel) sel.value = App.state.planId; },
  render: renderPlanCard,
  effective(plan) { return { ...plan, occupancyShift: 0 }; },
};
/* @end plan-select */

App.setPlan = function setPlan(id) {
  App.state.planId = id;
  Features.planSelect?.sync();
  App.update();
};

/* ------------------------------------------------------------------ KPI cards */

function renderKpis(p) {
  $('#kpi-revenue').textContent = money0(p.revenue);
  $('#kpi-revenue-sub').textContent = `${pct1(p.occupancy * 100)} occupancy · ${Math.round(p.nights).toLocaleString('en-US')} room-nights sold`;
  const prof = $('#kpi-profit');
  prof.textContent = money0(p.profit);
  prof.className = 'kpi-value ' + cls(p.profit);
  $('#kpi-profit-sub').textContent = `Costs ${money0(p.cost)}`;
  Features.kpiMargin?.render(p);
  Features.kpiRevparAdr?.render(p);
}

/* @feature kpi-margin */
Features.kpiMargin = {
  render(p) {
    const el = $('#kpi-margin');
    if (!el) return;
    const m = p.profit / p.revenue * 100;
    el.textContent = pctOrDash(m);
    el.className = 'kpi-value ' + cls(m);
  },
};
/* @end kpi-margin */
/* @broken kpi-margin */
Features.kpiMargin = {
  render(p) {
    const el = $('#kpi-margin');
    if (!el) return;
    const m = p.profit / p.cost * 100;
    el.textContent = pctOrDash(m);
    el.className = 'kpi-value ' + cls(m);
  },
};
/* @end kpi-margin */

/* @feature kpi-revpar-adr */
Features.kpiRevparAdr = {
  render(p) {
    const a = $('#kpi-revpar');
    const b = $('#kpi-adr');
    if (a) a.textContent = money2OrDash(p.revenue / p.available);
    if (b) b.textContent = money2OrDash(p.revenue / p.nights);
  },
};
/* @end kpi-revpar-adr */
/* @broken kpi-revpar-adr */
Features.kpiRevparAdr = {
  render(p) {
    const a = $('#kpi-revpar');
    const b = $('#kpi-adr');
    if (a) a.textContent = money2OrDash(p.revenue / p.nights);
    if (b) b.textContent = money2OrDash(p.revenue / p.nights);
  },
};
/* @end kpi-revpar-adr */

/* ------------------------------------------------------------------ revenue chart */

const CHART = { W: 840, H: 330, L: 62, R: 18, T: 22, B: 34 };

function niceTicks(lo, hi, count = 5) {
  if (lo === hi) hi = lo + 1;
  const raw = (hi - lo) / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw);
  const start = Math.floor(lo / step) * step;
  const end = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let v = start; v <= end + step / 2; v += step) ticks.push(Math.round(v));
  return ticks;
}

function chartScales(p) {
  const vals = p.rows.flatMap((r) => [r.revenue, r.cost, r.profit, r.ytd]).concat([0]);
  const ticks = niceTicks(Math.min(...vals), Math.max(...vals));
  const lo = ticks[0];
  const hi = ticks[ticks.length - 1];
  const pw = CHART.W - CHART.L - CHART.R;
  const ph = CHART.H - CHART.T - CHART.B;
  const x = (i) => CHART.L + (i + 0.5) * pw / 12;
  const y = (v) => CHART.T + (hi - v) / (hi - lo) * ph;
  return { x, y, ticks, pw, ph, band: pw / 12 };
}

function drawChart(p, costOf) {
  const body = $('#chart-body');
  body.innerHTML = '';
  const sc = chartScales(p);
  const svg = svgEl('svg', { viewBox: `0 0 ${CHART.W} ${CHART.H}`, class: 'chart', role: 'group', 'aria-label': `Revenue chart: monthly revenue, cost and profit, ${App.property.year}` });
  const grid = svgEl('g', { class: 'grid', 'aria-hidden': 'true' });
  for (const t of sc.ticks) {
    grid.appendChild(svgEl('line', { x1: CHART.L, x2: CHART.W - CHART.R, y1: sc.y(t), y2: sc.y(t), class: t === 0 ? 'zero' : '' }));
    grid.appendChild(svgEl('text', { x: CHART.L - 8, y: sc.y(t) + 4, 'text-anchor': 'end', class: 'ylab' }, shortMoney(t)));
  }
  svg.appendChild(grid);
  const xaxis = svgEl('g', { class: 'xaxis' });
  p.rows.forEach((r, i) => xaxis.appendChild(svgEl('text', { x: sc.x(i), y: CHART.H - 10, 'text-anchor': 'middle' }, r.label)));
  svg.appendChild(xaxis);

  const bars = svgEl('g', { class: 'bars' });
  const bw = Math.min(26, sc.band * 0.42);
  p.rows.forEach((r, i) => {
    const y0 = sc.y(0);
    const y1 = sc.y(r.profit);
    bars.appendChild(svgEl('rect', {
      x: sc.x(i) - bw / 2, y: Math.min(y0, y1), width: bw, height: Math.max(1, Math.abs(y1 - y0)),
      rx: 3, class: r.profit < 0 ? 'bar neg' : 'bar', role: 'img', 'aria-label': `Monthly profit · ${r.label} · ${money0(r.profit)}`,
    }));
  });
  svg.appendChild(bars);

  const series = [
    { key: 'revenue', name: 'Revenue', cls: 's-rev', val: (r) => r.revenue },
    { key: 'cost', name: 'Total cost', cls: 's-cost', val: costOf },
    { key: 'ytd', name: 'Cumulative profit', cls: 's-ytd', val: (r) => r.ytd },
  ];
  for (const s of series) {
    const g = svgEl('g', { class: `series ${s.cls}` });
    const d = p.rows.map((r, i) => `${i ? 'L' : 'M'}${sc.x(i).toFixed(1)} ${sc.y(s.val(r)).toFixed(1)}`).join(' ');
    g.appendChild(svgEl('path', { d, class: 'line', 'aria-hidden': 'true' }));
    p.rows.forEach((r, i) => g.appendChild(svgEl('circle', {
      cx: sc.x(i).toFixed(1), cy: sc.y(s.val(r)).toFixed(1), r: 3.6, class: 'pt',
      role: 'img', 'aria-label': `${s.name} · ${r.label} · ${money0(s.val(r))}`,
    })));
    svg.appendChild(g);
  }
  const markLayer = svgEl('g', { class: 'marks' });
  svg.appendChild(markLayer);
  Features.breakEven?.mark(p, sc, markLayer);

  // hover columns + tooltip
  const tip = document.createElement('div');
  tip.className = 'chart-tip';
  tip.hidden = true;
  const hits = svgEl('g', { class: 'hits', 'aria-hidden': 'true' });
  p.rows.forEach((r, i) => {
    const rect = svgEl('rect', { x: sc.x(i) - sc.band / 2, y: CHART.T, width: sc.band, height: CHART.H - CHART.T - CHART.B, 'data-month': r.label });
    rect.addEventListener('mouseenter', () => {
      tip.innerHTML = `<strong>${Model.MONTH_NAMES[i]}</strong>
        <span><i class="sw s-rev"></i>Revenue <b>${money0(r.revenue)}</b></span>
        <span><i class="sw s-cost"></i>Total cost <b>${money0(costOf(r))}</b></span>
        <span><i class="sw s-bar"></i>Profit <b class="${cls(r.profit)}">${money0(r.profit)}</b></span>
        <span><i class="sw s-ytd"></i>Cumulative <b class="${cls(r.ytd)}">${money0(r.ytd)}</b></span>`;
      tip.hidden = false;
      const left = (sc.x(i) / CHART.W) * 100;
      tip.style.left = `${left}%`;
      tip.classList.toggle('flip', left > 70);
    });
    rect.addEventListener('mouseleave', () => { tip.hidden = true; });
    hits.appendChild(rect);
  });
  svg.appendChild(hits);

  const wrap = document.createElement('div');
  wrap.className = 'chart-wrap';
  wrap.appendChild(svg);
  wrap.appendChild(tip);
  body.appendChild(wrap);
  const legend = document.createElement('ul');
  legend.className = 'legend';
  legend.innerHTML = `<li><i class="sw s-rev"></i>Revenue</li><li><i class="sw s-cost"></i>Total cost</li>
    <li><i class="sw s-bar"></i>Monthly profit</li><li><i class="sw s-ytd"></i>Cumulative profit</li>`;
  body.appendChild(legend);
}

/* @feature revenue-chart */
Features.revenueChart = {
  render(p) { drawChart(p, (r) => r.cost); },
};
/* @end revenue-chart */
/* @broken revenue-chart */
Features.revenueChart = {
  render(p) { drawChart(p, (r) => r.variable); },
};
/* @end revenue-chart */

/* ------------------------------------------------------------------ break-even */

function breakEvenMarker(p, sc, layer, be) {
  const x = be.m === 0 ? sc.x(0) : sc.x(be.from) + (sc.x(be.m) - sc.x(be.from)) * be.t;
  const y = sc.y(0);
  const label = `Break-even · ${Model.MONTHS[be.m]}`;
  const g = svgEl('g', { class: 'be-mark', role: 'img', 'aria-label': label });
  g.appendChild(svgEl('line', { x1: x, x2: x, y1: CHART.T, y2: CHART.H - CHART.B, class: 'be-line' }));
  g.appendChild(svgEl('circle', { cx: x, cy: y, r: 7, class: 'be-dot' }));
  const w = 122;
  const bx = Math.min(Math.max(x - w / 2, CHART.L), CHART.W - CHART.R - w);
  g.appendChild(svgEl('rect', { x: bx, y: CHART.T - 16, width: w, height: 22, rx: 11, class: 'be-pill' }));
  g.appendChild(svgEl('text', { x: bx + w / 2, y: CHART.T - 1, 'text-anchor': 'middle', class: 'be-text' }, label));
  layer.appendChild(g);
}

function bePriceText(p, lead) {
  if (!(p.nights > 0)) return 'With no occupied room-nights, no list price can cover the costs.';
  return `${lead}: <b>${money2(p.breakEvenPrice)}</b>/night.`;
}

function breakEvenCallout(html, kind) {
  const box = $('#be-callout');
  box.className = `be-callout ${kind}`;
  box.innerHTML = html;
}

/* @feature break-even */
Features.breakEven = {
  point(p) {
    const be = Model.breakEven(p);
    let shown = be;
    /* @feature no-break-even */
    if (!be) return { none: true };
    /* @end no-break-even */
    /* @broken no-break-even */
    if (!be) return { none: true, stale: this.lastShown };
    /* @end no-break-even */
    if (!shown) {   // naive fallback: the month whose year-to-date profit is closest to zero
      const ytd = p.rows.map((r) => Math.abs(r.ytd));
      const m = ytd.indexOf(Math.min(...ytd));
      shown = { m, t: 1, from: Math.max(0, m - 1) };
    }
    this.lastShown = shown;
    return shown;
  },
  render(p) {
    const be = this.point(p);
    if (be.none) {
      breakEvenCallout(`${ICON.alert}<div><strong>No break-even within the year</strong>
        <span>Year-to-date profit stays below zero through December. ${bePriceText(p, 'List price needed to break even')}</span></div>`, 'none');
      return;
    }
    breakEvenCallout(`${ICON.flag}<div><strong>Break-even in ${Model.MONTH_NAMES[be.m]}</strong>
      <span>Year-to-date profit stays positive from ${Model.MONTHS[be.m]}. ${bePriceText(p, 'Break-even list price')}</span></div>`, 'ok');
  },
  mark(p, sc, layer) {
    const be = this.point(p);
    if (be.none) {
      if (be.stale) breakEvenMarker(p, sc, layer, be.stale);
      return;
    }
    breakEvenMarker(p, sc, layer, be);
  },
};
/* @end break-even */
/* @broken break-even */
Features.breakEven = {
  point(p) {
    // first month whose own profit turns non-negative after a loss-making month
    for (let m = 1; m < 12; m++) {
      if (p.rows[m - 1].profit < 0 && p.rows[m].profit >= 0) {
        const a = p.rows[m - 1].profit;
        const b = p.rows[m].profit;
        return { m, t: -a / (b - a), from: m - 1 };
      }
    }
    return { none: true };
  },
  render(p) {
    const be = this.point(p);
    if (be.none) {
      breakEvenCallout(`${ICON.alert}<div><strong>No break-even within the year</strong>
        <span>Profit stays below zero. ${bePriceText(p, 'List price needed to break even')}</span></div>`, 'none');
      return;
    }
    breakEvenCallout(`${ICON.flag}<div><strong>Break-even in ${Model.MONTH_NAMES[be.m]}</strong>
      <span>Profit turns positive in ${Model.MONTHS[be.m]}. ${bePriceText(p, 'Break-even list price')}</span></div>`, 'ok');
  },
  mark(p, sc, layer) {
    const be = this.point(p);
    if (!be.none) breakEvenMarker(p, sc, layer, be);
  },
};
/* @end break-even */

/* ------------------------------------------------------------------ variable-cost pie */

const PIE_COLORS = ['#2f6b4f', '#d9a441', '#c8643b', '#6f8fb3', '#8a6bb0', '#4aa39a', '#b5577a', '#7d8a3c'];

function drawPie(p, plan) {
  const body = $('#pie-body');
  if (!body) return;
  $('#pie-sub').textContent = `${plan.name} plan · per occupied room-night`;
  const items = p.items.filter((c) => c.perNight > 0);
  const total = items.reduce((s, c) => s + c.perNight, 0);
  if (!items.length || !(total > 0)) {
    body.innerHTML = '<div class="empty small">This plan has no variable costs.</div>';
    return;
  }
  const cx = 100;
  const cy = 100;
  const r = 92;
  const ri = 56;
  const svg = svgEl('svg', { viewBox: '0 0 200 200', class: 'pie', role: 'group', 'aria-label': `Variable cost breakdown, ${plan.name}` });
  let a = 0;
  const pt = (ang, rad) => [cx + rad * Math.sin(ang), cy - rad * Math.cos(ang)];
  items.forEach((c, i) => {
    const share = c.perNight / total;
    const a2 = a + share * Math.PI * 2;
    const label = `${c.name}: ${money2(c.perNight)} (${pct1(share * 100)})`;
    let d;
    if (share >= 0.9999) {
      d = `M${cx} ${cy - r} A${r} ${r} 0 1 1 ${cx - 0.01} ${cy - r} L${cx - 0.01} ${cy - ri} A${ri} ${ri} 0 1 0 ${cx} ${cy - ri} Z`;
    } else {
      const [x1, y1] = pt(a, r);
      const [x2, y2] = pt(a2, r);
      const [x3, y3] = pt(a2, ri);
      const [x4, y4] = pt(a, ri);
      const large = a2 - a > Math.PI ? 1 : 0;
      d = `M${x1.toFixed(2)} ${y1.toFixed(2)} A${r} ${r} 0 ${large} 1 ${x2.toFixed(2)} ${y2.toFixed(2)} L${x3.toFixed(2)} ${y3.toFixed(2)} A${ri} ${ri} 0 ${large} 0 ${x4.toFixed(2)} ${y4.toFixed(2)} Z`;
    }
    const path = svgEl('path', { d, fill: PIE_COLORS[i % PIE_COLORS.length], class: 'slice', role: 'img', 'aria-label': label });
    path.appendChild(svgEl('title', {}, label));
    svg.appendChild(path);
    a = a2;
  });
  svg.appendChild(svgEl('text', { x: cx, y: cy - 2, 'text-anchor': 'middle', class: 'pie-total' }, money2(total)));
  svg.appendChild(svgEl('text', { x: cx, y: cy + 16, 'text-anchor': 'middle', class: 'pie-unit' }, 'per night'));
  body.innerHTML = '';
  const wrap = document.createElement('div');
  wrap.className = 'pie-wrap';
  wrap.appendChild(svg);
  const legend = document.createElement('ul');
  legend.className = 'pie-legend';
  legend.setAttribute('aria-label', 'Cost categories');
  legend.innerHTML = items.map((c, i) => `<li><i class="sw" style="background:${PIE_COLORS[i % PIE_COLORS.length]}"></i>
      <span class="nm"${c.extra ? ' title="Added by the plan"' : ''}>${esc(c.name)}${c.extra ? ' <em>plan</em>' : ''}${c.factor !== 1 ? ` <em>×${plainNum(c.factor)}</em>` : ''}</span>
      <span class="amt">${money2(c.perNight)}</span><span class="pc">${pct1(c.perNight / total * 100)}</span></li>`).join('');
  wrap.appendChild(legend);
  body.appendChild(wrap);
  const foot = document.createElement('p');
  foot.className = 'pie-foot';
  foot.innerHTML = `Total <strong>${money2(total)}</strong> per occupied room-night · <strong>${money0(p.variable)}</strong> a year over ${Math.round(p.nights).toLocaleString('en-US')} room-nights`;
  body.appendChild(foot);
}

/* @feature cost-pie */
Features.costPie = {
  render(p) { drawPie(p, p.plan); },
};
/* @end cost-pie */
/* @broken cost-pie */
Features.costPie = {
  render(p) {
    const first = App.plans[0];
    drawPie(Model.project(App.inputs(), first), first);
  },
};
/* @end cost-pie */

/* ------------------------------------------------------------------ monthly figures table */

function drawMonthly(p, ytdOf) {
  const body = $('#monthly-body');
  if (!body) return;
  const rows = p.rows.map((r) => `<tr>
      <th scope="row">${r.label}</th>
      <td>${pct1(r.occ * 100)}</td>
      <td>${Math.round(r.nights).toLocaleString('en-US')}</td>
      <td>${money0(r.revenue)}</td>
      <td>${money0(r.cost)}</td>
      <td class="${cls(r.profit)}">${money0(r.profit)}</td>
      <td class="${cls(ytdOf(r))}">${money0(ytdOf(r))}</td>
    </tr>`).join('');
  body.innerHTML = `<table class="data" aria-label="Monthly figures">
    <thead><tr><th scope="col">Month</th><th scope="col">Occupancy</th><th scope="col">Room-nights</th><th scope="col">Revenue</th><th scope="col">Cost</th><th scope="col">Profit</th><th scope="col">YTD profit</th></tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th scope="row">Year</th><td>${pct1(p.occupancy * 100)}</td><td>${Math.round(p.nights).toLocaleString('en-US')}</td><td>${money0(p.revenue)}</td><td>${money0(p.cost)}</td><td class="${cls(p.profit)}">${money0(p.profit)}</td><td></td></tr></tfoot>
  </table>`;
}

/* @feature monthly-table */
Features.monthlyTable = {
  render(p) { drawMonthly(p, (r) => r.ytd); },
};
/* @end monthly-table */
/* @broken monthly-table */
Features.monthlyTable = {
  render(p) { drawMonthly(p, (r) => r.profit); },
};
/* @end monthly-table */

/* ------------------------------------------------------------------ plan comparison */

function drawCompare(bestKey) {
  const body = $('#compare-body');
  if (!body) return;
  const inp = App.inputs();
  const rows = App.plans.map((plan) => {
    const p = Model.project(inp, plan);
    return { plan, p, be: Model.breakEven(p) };
  });
  const best = rows.reduce((b, r) => (bestKey(r.p) > bestKey(b.p) ? r : b), rows[0]);
  body.innerHTML = `<table class="data compare" aria-label="Plan comparison">
    <thead><tr><th scope="col">Plan</th><th scope="col">Nightly rate</th><th scope="col">Avg. occupancy</th><th scope="col">Revenue</th><th scope="col">Profit</th><th scope="col">Margin</th><th scope="col">Break-even</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
    <tbody>${rows.map((r) => {
      const active = r.plan.id === App.state.planId;
      return `<tr class="${active ? 'active' : ''}">
        <th scope="row"><span class="plan-nm">${esc(r.plan.name)}</span>${active ? '<span class="tag tag-active">Active</span>' : ''}${r === best ? '<span class="tag tag-best">Best profit</span>' : ''}</th>
        <td>${money2(r.p.rate)}</td>
        <td>${pct1(r.p.occupancy * 100)}</td>
        <td>${money0(r.p.revenue)}</td>
        <td class="${cls(r.p.profit)}">${money0(r.p.profit)}</td>
        <td class="${cls(r.p.margin)}">${pctOrDash(r.p.margin)}</td>
        <td>${r.be ? Model.MONTHS[r.be.m] : '<span class="muted">None in year</span>'}</td>
        <td>${active ? '' : `<button type="button" class="btn-mini" data-plan="${esc(r.plan.id)}" aria-label="Use ${esc(r.plan.name)}">Use</button>`}</td>
      </tr>`;
    }).join('')}</tbody>
  </table>`;
  body.querySelectorAll('[data-plan]').forEach((b) => b.addEventListener('click', () => App.setPlan(b.dataset.plan)));
}

/* @feature plan-compare */
Features.planCompare = {
  render() { drawCompare((p) => p.profit); },
};
/* @end plan-compare */
/* @broken plan-compare */
Features.planCompare = {
  render() { drawCompare((p) => p.revenue); },
};
/* @end plan-compare */

/* ------------------------------------------------------------------ cost editors */

function costAmountError(raw) {
  const t = String(raw).trim().replace(/,/g, '');
  if (!t) return 'Enter an amount (0 if none).';
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(t)) return /^-/.test(t) && isNum(t) ? 'Amount cannot be negative.' : 'Amount must be a number.';
  return '';
}

function mountCostList(kind, listSel, key, unit, onValid) {
  const list = $(listSel);
  if (!list) return;
  const items = App.state[kind];
  list.innerHTML = items.map((c) => `<div class="cost-row">
      <label for="${kind}-${esc(c.id)}"><span>${esc(c.name)}</span>${c.note ? `<small>${esc(c.note)}</small>` : ''}</label>
      <div class="input-affix sm"><span class="affix pre">$</span><input id="${kind}-${esc(c.id)}" type="text" inputmode="decimal" data-id="${esc(c.id)}" value="${esc(key === 'perNight' ? c[key].toFixed(2) : plainNum(c[key]))}" aria-describedby="${kind}-${esc(c.id)}-err"><span class="affix">${unit}</span></div>
      <p class="field-error" id="${kind}-${esc(c.id)}-err" hidden></p>
    </div>`).join('');
  list.querySelectorAll('input').forEach((inp) => {
    inp.addEventListener('input', () => {
      const err = costAmountError(inp.value);
      const box = $(`#${kind}-${inp.dataset.id}-err`);
      inp.setAttribute('aria-invalid', err ? 'true' : 'false');
      inp.closest('.cost-row').classList.toggle('invalid', !!err);
      box.textContent = err;
      box.hidden = !err;
      if (err) return;
      const item = App.state[kind].find((c) => c.id === inp.dataset.id);
      item[key] = Number(inp.value.replace(/,/g, ''));
      onValid();
    });
  });
}

/* @feature fixed-cost-editor */
Features.fixedEditor = {
  mount() { mountCostList('fixed', '#fixed-list', 'monthly', '/ mo', () => App.update()); },
  sync() {
    const total = App.state.fixed.reduce((s, c) => s + c.monthly, 0);
    const el = $('#fixed-total');
    if (el) el.innerHTML = `Total fixed <strong>${money0(total)}</strong> / month · ${money0(total * 12)} a year`;
  },
};
/* @end fixed-cost-editor */
/* @broken fixed-cost-editor */
Features.fixedEditor = {
  mount() { mountCostList('fixed', '#fixed-list', 'monthly', '/ mo', () => Features.fixedEditor.sync()); },
  sync() {
    const total = App.state.fixed.reduce((s, c) => s + c.monthly, 0);
    const el = $('#fixed-total');
    if (el) el.innerHTML = `Total fixed <strong>${money0(total)}</strong> / month · ${money0(total * 12)} a year`;
  },
};
/* @end fixed-cost-editor */

/* @feature variable-cost-editor */
Features.variableEditor = {
  mount() { mountCostList('variable', '#variable-list', 'perNight', '/ night', () => App.update()); },
  sync() {
    const total = App.state.variable.reduce((s, c) => s + c.perNight, 0);
    const el = $('#variable-total');
    if (el) el.innerHTML = `Total variable <strong>${money2(total)}</strong> per occupied room-night (before plan adjustments)`;
  },
};
/* @end variable-cost-editor */

function mountSeasonGrid(indexOf) {
  const grid = $('#season-grid');
  if (!grid) return;
  const max = Math.max(...App.state.season, 1.5);
  grid.innerHTML = Model.MONTHS.map((mon, i) => {
    const v = App.state.season[i];
    const dflt = App.defaults.defaulted.includes(i);
    return `<div class="season-cell${dflt ? ' defaulted' : ''}" title="${esc(App.defaults.seasonNotes[i] || (dflt ? 'No data — default 1.00' : ''))}">
      <label for="season-${i}">${mon}${dflt ? '<span class="badge">default</span>' : ''}</label>
      <input id="season-${i}" type="text" inputmode="decimal" aria-label="${mon} multiplier" value="${v.toFixed(2)}" data-i="${i}">
      <span class="season-bar"><i style="width:${Math.min(100, v / max * 100).toFixed(1)}%"></i></span>
    </div>`;
  }).join('');
  grid.querySelectorAll('input').forEach((inp) => {
    inp.addEventListener('input', () => {
      const t = inp.value.trim();
      const ok = /^(\d+(\.\d*)?|\.\d+)$/.test(t) && Number(t) <= App.property.limits.seasonalMultiplier.max;
      inp.setAttribute('aria-invalid', ok ? 'false' : 'true');
      inp.closest('.season-cell').classList.toggle('invalid', !ok);
      const bad = grid.querySelectorAll('[aria-invalid="true"]');
      const box = $('#season-error');
      box.hidden = bad.length === 0;
      box.textContent = bad.length ? `Multipliers must be numbers between 0 and ${App.property.limits.seasonalMultiplier.max} (${[...bad].map((b) => Model.MONTHS[b.dataset.i]).join(', ')}).` : '';
      if (!ok) return;
      App.state.season[indexOf(Number(inp.dataset.i))] = Number(t);
      const bar = inp.closest('.season-cell').querySelector('.season-bar i');
      bar.style.width = `${Math.min(100, Number(t) / Math.max(...App.state.season, 1.5) * 100).toFixed(1)}%`;
      App.update();
    });
  });
}

/* @feature season-editor */
Features.seasonEditor = {
  mount() { mountSeasonGrid((i) => i); },
};
/* @end season-editor */
/* @broken season-editor */
Features.seasonEditor = {
  mount() { mountSeasonGrid((i) => Math.min(11, i + 1)); },
};
/* @end season-editor */

/* ------------------------------------------------------------------ empty state: no rooms */

/* @feature zero-rooms */
Features.zeroRooms = {
  active() {
    if (App.state.rooms > 0) return false;
    for (const id of ['kpi-revenue', 'kpi-profit', 'kpi-margin', 'kpi-revpar', 'kpi-adr']) {
      const el = $(`#${id}`);
      if (el) { el.textContent = '—'; el.className = 'kpi-value'; }
    }
    $('#kpi-revenue-sub').textContent = 'No rooms';
    $('#kpi-profit-sub').innerHTML = '&nbsp;';
    const banner = $('#empty-banner');
    banner.textContent = 'Add at least one room to see projections.';
    banner.hidden = false;
    $('#chart-body').innerHTML = `<div class="empty">${ICON.house}<h3>No rooms to project</h3><p>Set Rooms to 1 or more to see monthly revenue, cost and profit.</p></div>`;
    $('#be-callout').innerHTML = '';
    $('#be-callout').className = 'be-callout';
    const pie = $('#pie-body');
    if (pie) pie.innerHTML = '<div class="empty small">No occupied room-nights, so there are no variable costs to break down.</div>';
    const mon = $('#monthly-body');
    if (mon) mon.innerHTML = '<div class="empty small">Monthly figures appear once the guesthouse has at least one room.</div>';
    const cmp = $('#compare-body');
    if (cmp) cmp.innerHTML = '<div class="empty small">Plans are compared once the guesthouse has at least one room.</div>';
    return true;
  },
};
/* @end zero-rooms */
/* @broken zero-rooms */
Features.zeroRooms = {
  active() {
    if (App.state.rooms > 0) return false;
    const banner = $('#empty-banner');
    banner.textContent = 'Add at least one room to see projections.';
    banner.hidden = false;
    return false;
  },
};
/* @end zero-rooms */

/* ------------------------------------------------------------------ data issues strip */

function drawIssues(issues) {
  const box = $('#data-issues');
  if (!issues.length) { box.hidden = true; return; }
  box.hidden = false;
  box.innerHTML = `${ICON.warn}<div><strong>${issues.length} issue${issues.length > 1 ? 's' : ''} found in the data files</strong>
    <span class="muted"> — the affected records were left out of the projection.</span>
    <ul>${issues.map((i) => `<li><code>${esc(i.file)}</code> ${esc(i.text)}</li>`).join('')}</ul></div>`;
}

/* @feature data-notices */
Features.dataNotices = {
  render() { drawIssues(App.dataIssues); },
};
/* @end data-notices */
/* @broken data-notices */
Features.dataNotices = {
  render() { drawIssues(App.dataIssues.filter((i) => i.kind !== 'plan')); },
};
/* @end data-notices */

/* ------------------------------------------------------------------ render */

App.update = function update() {
  const plan = App.activePlan();
  const p = Model.project(App.inputs(), plan);
  App.last = p;
  Features.planSelect?.render(p);
  Features.fixedEditor?.sync();
  Features.variableEditor?.sync();
  $('#empty-banner').hidden = true;
  if (Features.zeroRooms?.active(p)) return;
  renderKpis(p);
  if (Features.revenueChart) Features.revenueChart.render(p);
  else $('#chart-body').innerHTML = '';
  Features.breakEven?.render(p);
  Features.costPie?.render(p);
  Features.monthlyTable?.render(p);
  Features.planCompare?.render();
};

async function boot() {
  let files;
  try {
    files = await Promise.all(['property.json', 'plans.json', 'cost_categories.json', 'seasonality.json'].map(loadJson));
  } catch (e) {
    const box = $('#load-error');
    box.hidden = false;
    box.innerHTML = `${ICON.warn}<div><strong>The projection could not be loaded.</strong> ${esc(e.message)}</div>`;
    $('#app').classList.add('failed');
    return;
  }
  const [property, plansFile, costs, seasonality] = files;
  const norm = normalize(property, plansFile, costs, seasonality);
  App.property = property;
  App.plans = norm.plans;
  App.dataIssues = norm.issues;
  const d = property.defaults;
  App.defaults = {
    rooms: d.rooms, price: d.nightlyPrice, occupancy: d.occupancyRate,
    planId: App.plans.some((p) => p.id === d.planId) ? d.planId : App.plans[0]?.id,
    fixed: norm.fixed, variable: norm.variable, season: norm.season,
    seasonNotes: norm.seasonNotes, defaulted: norm.defaulted,
  };
  App.state = initialState();

  $('#property-name').textContent = property.name;
  $('#property-meta').textContent = `${property.tagline} · ${property.location}`;
  $('#year-chip').textContent = `${property.year} projection`;
  document.title = `Revenue Strategy · ${property.name}`;
  $('#chart-sub').textContent = `Monthly revenue, cost and profit, ${property.year}`;

  if (!App.plans.length) {
    const box = $('#load-error');
    box.hidden = false;
    box.innerHTML = `${ICON.warn}<div><strong>No usable pricing plan in data/plans.json.</strong> Add a plan with a price factor to start.</div>`;
    return;
  }
  mountInputs();
  Features.priceDial?.mount();
  Features.planSelect?.mount();
  Features.fixedEditor?.mount();
  Features.variableEditor?.mount();
  Features.seasonEditor?.mount();
  Features.dataNotices?.render();
  $('#reset-btn').addEventListener('click', () => {
    App.state = initialState();
    refreshInputs();
    App.update();
  });
  App.update();
}

boot();
