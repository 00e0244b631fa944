/* Lakeport Air Quality — station dashboard. Plain JS, no dependencies.
 * Data: data/network.json (stations, pollutants, AQI breakpoints, categories, rules),
 *       data/readings.json (hourly readings per station).
 */
'use strict';

const Features = {};
const App = {
  net: null, pollutants: [], polById: {}, stations: [], stById: {},
  hours: [], hourIndex: {}, days: [], data: new Map(),
  ignored: [],
  ctx: null,
  state: { station: null, pollutant: null, from: null, to: null, resolution: 'hourly', sort: { key: 'avg', dir: 'asc' } },
};

/* ------------------------------------------------------------------ helpers */

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const esc = (v) => String(v).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
const isNum = (x) => typeof x === 'number' && Number.isFinite(x);
const pad = (n) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function roundHalfUp(x) { return Math.floor(x + 0.5); }
function fmtDay(d) { // "2025-11-06" -> "Nov 6"
  return `${MONTHS[+d.slice(5, 7) - 1]} ${+d.slice(8, 10)}`;
}
function fmtHour(t) { // "2025-11-06T08:00" -> "Nov 6, 08:00"
  return `${fmtDay(t.slice(0, 10))}, ${t.slice(11, 16)}`;
}
function fmtRange(from, to) {
  const y = to.slice(0, 4);
  return from === to ? `${fmtDay(from)}, ${y}` : `${fmtDay(from)} – ${fmtDay(to)}, ${y}`;
}
function fmtConc(pol, v) {
  return `${Number(v).toFixed(pol.decimals)} ${pol.unit}`;
}
function addDays(d, n) {
  const dt = new Date(Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10) + n));
  return `${dt.getUTCFullYear()}-${pad(dt.getUTCMonth() + 1)}-${pad(dt.getUTCDate())}`;
}
function station() { return App.stById[App.state.station]; }
function polName(id) { return id === 'overall' ? 'Overall AQI' : (App.polById[id]?.name || id); }

/* ------------------------------------------------------------------ AQI engine */

// Sub-index of one concentration: linear interpolation inside the breakpoint segment, rounded
// half up; above the last breakpoint the index is capped at the top of the scale.
function subIndex(pol, c) {
  const bp = pol.breakpoints;
  const A = App.net.aqiBreakpoints;
  for (let k = 1; k < bp.length; k++) {
    if (c <= bp[k]) return roundHalfUp(A[k - 1] + ((A[k] - A[k - 1]) * (c - bp[k - 1])) / (bp[k] - bp[k - 1]));
  }
  return A[A.length - 1];
}
function category(aqi) {
  if (!isNum(aqi)) return null;
  return App.net.categories.find((c) => aqi <= c.max) || App.net.categories[App.net.categories.length - 1];
}

// One reading: ok (with its value), missing, or invalid (with the reason).
function classify(raw, pol) {
  if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return { status: 'missing' };
  const bad = Features.invalidFilter?.check(raw, pol);
  if (bad) return bad;
  const n = Number(raw);
  if (!Number.isFinite(n)) return { status: 'missing' };
  return { status: 'ok', value: n };
}
function reading(sid, t, polId) {
  const rec = App.data.get(`${sid}|${t}`);
  const pol = App.polById[polId];
  const c = classify(rec ? rec[polId] : undefined, pol);
  return { ...c, raw: rec ? rec[polId] : undefined, pol };
}
function measures(sid, polId) {
  return polId === 'overall' || (App.stById[sid]?.pollutants || []).includes(polId);
}

// Hourly point of one station for one pollutant (or the overall AQI).
function hourPoint(sid, t, polId) {
  if (polId === 'overall') {
    const p = Features.overall?.point(sid, t);
    if (p) return p;
    return { t, aqi: null, status: 'missing', pol: null, conc: null, issues: [] };
  }
  const r = reading(sid, t, polId);
  if (r.status !== 'ok') return { t, aqi: null, status: r.status, reason: r.reason, raw: r.raw, pol: r.pol, conc: null, issues: [r] };
  return { t, aqi: subIndex(r.pol, r.value), status: 'ok', pol: r.pol, conc: r.value, issues: [] };
}

function rangeHours() {
  const { from, to } = App.state;
  return App.hours.filter((t) => t.slice(0, 10) >= from && t.slice(0, 10) <= to);
}
function rangeDays() {
  const { from, to } = App.state;
  return App.days.filter((d) => d >= from && d <= to);
}
function hourlySeries(sid, polId) {
  return rangeHours().map((t) => hourPoint(sid, t, polId));
}

function dailyPoint(sid, day, polId) {
  const d = Features.dailyRules?.point(sid, day, polId);
  if (d) return d;
  // plain daily mean of the hourly AQI values of that day
  const pts = App.hours.filter((t) => t.startsWith(day)).map((t) => hourPoint(sid, t, polId)).filter((p) => isNum(p.aqi));
  if (!pts.length) return { t: day, day: true, aqi: null, status: 'insufficient', validHours: 0, pol: App.polById[polId] || null, conc: null };
  const aqi = roundHalfUp(pts.reduce((a, p) => a + p.aqi, 0) / pts.length);
  return { t: day, day: true, aqi, status: 'ok', validHours: pts.length, pol: pts[0].pol, conc: null };
}
function dailySeries(sid, polId) {
  return rangeDays().map((d) => dailyPoint(sid, d, polId));
}

// Summary statistics of an hourly series: current, average, worst hour.
function seriesStats(points) {
  const valid = points.filter((p) => isNum(p.aqi));
  if (!valid.length) return null;
  let current = points[points.length - 1];
  /* @feature latest-valid */
  current = valid[valid.length - 1];
  /* @end latest-valid */
  let worst = valid[0];
  for (const p of valid) if (p.aqi > worst.aqi) worst = p;
  const average = roundHalfUp(valid.reduce((a, p) => a + p.aqi, 0) / valid.length);
  const end = points[points.length - 1];
  return { current, worst, average, valid: valid.length, n: points.length, end };
}

function computeContext() {
  const sid = App.state.station;
  const polId = App.state.pollutant;
  const measured = measures(sid, polId);
  const hourly = measured ? hourlySeries(sid, polId) : [];
  const stats = measured ? seriesStats(hourly) : null;
  const daily = Features.resolution && App.state.resolution === 'daily' && measured ? dailySeries(sid, polId) : null;
  const points = daily || hourly;
  return { sid, st: station(), polId, measured, hourly, daily, points, stats, hasValid: !!stats };
}

/* ------------------------------------------------------------------ ranking data */

function rankingRows() {
  const polId = App.state.pollutant;
  const rows = [];
  for (const st of App.stations) {
    if (!measures(st.id, polId)) continue;
    const pts = hourlySeries(st.id, polId);
    const valid = pts.filter((p) => isNum(p.aqi));
    const avg = valid.length ? roundHalfUp(valid.reduce((a, p) => a + p.aqi, 0) / valid.length) : null;
    const max = valid.length ? Math.max(...valid.map((p) => p.aqi)) : null;
    const completeness = pts.length ? valid.length / pts.length : 0;
    const row = { st, avg, max, valid: valid.length, n: pts.length, completeness, rank: null };
    row.eligible = isNum(avg) && (Features.rankingCompleteness ? Features.rankingCompleteness.eligible(row) : true);
    rows.push(row);
  }
  const ranked = rows.filter((r) => r.eligible).sort((a, b) => a.avg - b.avg || a.st.name.localeCompare(b.st.name));
  ranked.forEach((r, i) => { r.rank = i + 1; });
  return rows;
}

/* ------------------------------------------------------------------ feature: invalid readings */

/* @feature invalid-filter */
Features.invalidFilter = {
  check(raw, pol) {
    const n = typeof raw === 'number' ? raw : (typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN);
    if (!Number.isFinite(n)) return { status: 'invalid', reason: 'non-numeric' };
    if (n < 0) return { status: 'invalid', reason: 'negative' };
    if (n > pol.validRange[1]) return { status: 'invalid', reason: 'out of range' };
    return null;
  },
};
/* @end invalid-filter */
/* @broken invalid-filter */
Features.invalidFilter = {
  check(raw) {
    const n = Number(raw);
    if (!Number.isFinite(n)) return { status: 'invalid', reason: 'non-numeric' };
    if (n < 0) return { status: 'invalid', reason: 'negative' };
    return null;
  },
};
/* @end invalid-filter */

function issueText(r) {
  if (r.status === 'missing') return 'missing';
  if (r.reason === 'out of range') return `${fmtConc(r.pol, r.raw)} out of range (valid ${r.pol.validRange[0]}–${r.pol.validRange[1]})`;
  if (r.reason === 'negative') return `negative value ${r.raw} ${r.pol.unit}`;
  if (r.reason === 'non-numeric') return `non-numeric value “${r.raw}”`;
  return 'invalid';
}

/* ------------------------------------------------------------------ feature: overall AQI */

/* @feature overall-aqi */
Features.overall = {
  point(sid, t) {
    let best = null;
    const issues = [];
    for (const polId of App.stById[sid].pollutants) {
      const r = reading(sid, t, polId);
      if (r.status !== 'ok') { issues.push(r); continue; }
      const a = subIndex(r.pol, r.value);
      if (!best || a > best.aqi) best = { aqi: a, pol: r.pol, conc: r.value };
    }
    if (!best) return { t, aqi: null, status: 'no valid reading', pol: null, conc: null, issues };
    return { t, aqi: best.aqi, status: 'ok', pol: best.pol, conc: best.conc, dominant: true, issues };
  },
};
/* @end overall-aqi */
/* @broken overall-aqi */
Features.overall = {
  point(sid, t) {
    const subs = [];
    const issues = [];
    let first = null;
    for (const polId of App.stById[sid].pollutants) {
      const r = reading(sid, t, polId);
      if (r.status !== 'ok') { issues.push(r); continue; }
      subs.push(subIndex(r.pol, r.value));
      if (!first) first = { pol: r.pol, conc: r.value };
    }
    if (!subs.length) return { t, aqi: null, status: 'no valid reading', pol: null, conc: null, issues };
    return { t, aqi: roundHalfUp(subs.reduce((a, b) => a + b, 0) / subs.length), status: 'ok', pol: first.pol, conc: first.conc, dominant: true, issues };
  },
};
/* @end overall-aqi */

/* ------------------------------------------------------------------ feature: daily aggregation rules */

/* @feature daily-rules */
Features.dailyRules = {
  point(sid, day, polId) {
    const hours = App.hours.filter((t) => t.startsWith(day));
    const pols = polId === 'overall' ? App.stById[sid].pollutants : [polId];
    const min = App.net.rules.minDailyValidHours;
    let best = null;
    let maxValid = 0;
    for (const id of pols) {
      const vals = hours.map((t) => reading(sid, t, id)).filter((r) => r.status === 'ok').map((r) => r.value);
      maxValid = Math.max(maxValid, vals.length);
      if (vals.length < min) continue;
      const mean = vals.reduce((a, b) => a + b, 0) / vals.length;
      const pol = App.polById[id];
      const aqi = subIndex(pol, mean);
      if (!best || aqi > best.aqi) best = { aqi, pol, conc: mean, validHours: vals.length };
    }
    if (!best) return { t: day, day: true, aqi: null, status: 'insufficient', validHours: maxValid, pol: polId === 'overall' ? null : App.polById[polId], conc: null };
    return { t: day, day: true, aqi: best.aqi, status: 'ok', validHours: best.validHours, pol: best.pol, conc: best.conc, dominant: polId === 'overall' };
  },
};
/* @end daily-rules */

/* ------------------------------------------------------------------ feature: header "data as of" */

/* @feature header-asof */
Features.asOf = {
  render() {
    const t = App.net.dataAsOf;
    $('#asof-slot').innerHTML = `<div class="asof"><span class="live-dot" aria-hidden="true"></span>Data as of ${esc(fmtDay(t.slice(0, 10)))}, ${esc(t.slice(0, 4))} ${esc(t.slice(11, 16))}</div>
      <div class="asof-sub">${App.stations.length} monitoring stations · hourly readings</div>`;
  },
};
/* @end header-asof */

/* ------------------------------------------------------------------ feature: station selector */

/* @feature station-select */
Features.stationSelect = {
  mount() {
    $('#station-slot').innerHTML = `<div class="field"><label for="station-select">Station</label>
      <select id="station-select">${App.stations.map((s) => `<option value="${esc(s.id)}">${esc(s.name)}</option>`).join('')}</select></div>`;
    const sel = $('#station-select');
    sel.value = App.state.station;
    sel.addEventListener('change', () => App.setStation(sel.value));
  },
  sync() {
    const sel = $('#station-select');
    if (sel) sel.value = App.state.station;
  },
};
/* @end station-select */

/* ------------------------------------------------------------------ feature: pollutant selector */

/* @feature pollutant-select */
Features.pollutantSelect = {
  mount() {
    const opts = App.pollutants.map((p) => `<option value="${esc(p.id)}">${esc(p.name)}</option>`);
    if (Features.overall) opts.push('<option value="overall">Overall AQI</option>');
    $('#pollutant-slot').innerHTML = `<div class="field"><label for="pollutant-select">Pollutant</label><select id="pollutant-select">${opts.join('')}</select></div>`;
    const sel = $('#pollutant-select');
    sel.value = App.state.pollutant;
    sel.addEventListener('change', () => {
      App.state.pollutant = sel.value;
      App.render();
    });
  },
};
/* @end pollutant-select */

/* ------------------------------------------------------------------ feature: date range */

/* @feature date-range */
Features.dateRange = {
  mount() {
    const { from, to } = App.net.coverage;
    $('#range-slot').innerHTML = `<div class="range-fields">
        <div class="field"><label for="range-from">From</label><input type="date" id="range-from" min="${from}" max="${to}" value="${App.state.from}"></div>
        <span class="range-dash" aria-hidden="true">–</span>
        <div class="field"><label for="range-to">To</label><input type="date" id="range-to" min="${from}" max="${to}" value="${App.state.to}"></div>
        <button type="button" class="btn ghost" id="range-reset">Full week</button>
      </div>
      <p class="range-error" id="range-error" role="alert" hidden></p>`;
    const apply = () => {
      const f = $('#range-from').value;
      const t = $('#range-to').value;
      const err = Features.rangeValidation ? Features.rangeValidation.check(f, t) : '';
      const box = $('#range-error');
      box.hidden = !err;
      box.textContent = err;
      $('#range-slot').classList.toggle('invalid', !!err);
      if (err || !f || !t) return;
      App.state.from = f;
      App.state.to = t;
      App.render();
    };
    $('#range-from').addEventListener('change', apply);
    $('#range-to').addEventListener('change', apply);
    $('#range-reset').addEventListener('click', () => {
      $('#range-from').value = App.net.coverage.from;
      $('#range-to').value = App.net.coverage.to;
      apply();
    });
  },
};
/* @end date-range */

/* @feature range-validation */
Features.rangeValidation = {
  check(f, t) {
    const { from, to } = App.net.coverage;
    const ok = (d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && d >= from && d <= to;
    if (!ok(f) || !ok(t)) return `Readings are available from ${fmtDay(from)} to ${fmtRange(to, to)} — pick dates in that period.`;
    if (f > t) return 'The start date must be on or before the end date.';
    return '';
  },
};
/* @end range-validation */
/* @broken range-validation */
Features.rangeValidation = {
  check(f, t) {
    if (f > t) return 'The start date must be on or before the end date.';
    return '';
  },
};
/* @end range-validation */

/* ------------------------------------------------------------------ feature: hourly / daily */

/* @feature resolution */
Features.resolution = {
  mount() {
    const slot = $('#resolution-slot');
    slot.innerHTML = `<div class="segmented" role="group" aria-label="Resolution">
      <button type="button" data-res="hourly" aria-pressed="true">Hourly</button>
      <button type="button" data-res="daily" aria-pressed="false">Daily</button></div>`;
    slot.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-res]');
      if (!b) return;
      App.state.resolution = b.dataset.res;
      $$('button[data-res]', slot).forEach((x) => x.setAttribute('aria-pressed', String(x === b)));
      App.render();
    });
  },
};
/* @end resolution */

/* ------------------------------------------------------------------ notices: data quality */

/* @feature dq-notice */
Features.dqNotice = {
  render(ctx) {
    if (!ctx.measured) return '';
    const pols = ctx.polId === 'overall' ? ctx.st.pollutants : [ctx.polId];
    const issues = [];
    for (const t of rangeHours()) {
      for (const id of pols) {
        const r = reading(ctx.sid, t, id);
        if (r.status !== 'ok') issues.push({ t, r });
      }
    }
    const scope = `${esc(ctx.st.name)} · ${esc(polName(ctx.polId))} · ${esc(fmtRange(App.state.from, App.state.to))}`;
    if (!issues.length) {
      return `<div class="notice ok" id="dq-notice"><strong>All readings valid</strong><span>${scope}: every reading in the selected range passed validation.</span></div>`;
    }
    const missing = issues.filter((x) => x.r.status === 'missing').length;
    const invalid = issues.filter((x) => x.r.status === 'invalid');
    const reasons = ['negative', 'non-numeric', 'out of range']
      .map((k) => [k, invalid.filter((x) => x.r.reason === k).length]).filter(([, n]) => n)
      .map(([k, n]) => `${n} ${k}`).join(', ');
    const parts = [];
    if (missing) parts.push(`${missing} missing`);
    if (invalid.length) parts.push(`${invalid.length} invalid (${reasons})`);
    const list = issues.slice(0, 40).map((x) => `<li><b>${esc(fmtHour(x.t))}</b> — ${esc(x.r.pol.name)}: ${esc(issueText(x.r))}</li>`).join('');
    const more = issues.length > 40 ? `<li class="muted">… and ${issues.length - 40} more</li>` : '';
    return `<div class="notice warn" id="dq-notice">
      <strong>${issues.length} reading${issues.length === 1 ? '' : 's'} excluded</strong>
      <span>${scope}: ${esc(parts.join(', '))}. Excluded readings are left out of every figure and shown as gaps in the chart.</span>
      <details><summary>Show excluded readings</summary><ul>${list}${more}</ul></details></div>`;
  },
};
/* @end dq-notice */

/* @feature record-audit */
Features.recordAudit = {
  render() {
    if (!App.ignored.length) return '';
    const kinds = { unknown: 'unknown station', duplicate: 'duplicate', timestamp: 'invalid timestamp' };
    const counts = Object.keys(kinds).map((k) => [k, App.ignored.filter((x) => x.kind === k).length]).filter(([, n]) => n);
    const items = App.ignored.map((x) => `<li>${esc(x.text)}</li>`).join('');
    return `<div class="notice info" id="audit-notice"><strong>${App.ignored.length} records ignored</strong>
      <span>in readings.json: ${esc(counts.map(([k, n]) => `${n} ${kinds[k]}`).join(', '))}.</span>
      <details><summary>Details</summary><ul>${items}</ul></details></div>`;
  },
};
/* @end record-audit */

App.renderNotices = function renderNotices(ctx) {
  const html = (Features.dqNotice?.render(ctx) || '') + (Features.recordAudit?.render() || '');
  $('#notices').innerHTML = html;
};

/* ------------------------------------------------------------------ health advice banner */

/* @feature health-banner */
Features.healthBanner = {
  render(ctx) {
    const slot = $('#advice-slot');
    const cur = ctx.stats?.current;
    const cat = category(cur?.aqi);
    if (!ctx.measured || !cat) {
      const why = !ctx.measured ? `${polName(ctx.polId)} is not measured at ${ctx.st.name}.`
        : `No valid ${polName(ctx.polId)} reading for ${ctx.st.name} between ${fmtRange(App.state.from, App.state.to)}.`;
      slot.innerHTML = `<section class="advice neutral" id="advice" aria-label="Health advice" data-category="none">
        <div class="advice-badge">—</div><div class="advice-body"><h2>Health advice unavailable</h2><p>${esc(why)}</p></div></section>`;
      return;
    }
    const stale = Features.stale?.isStale(ctx.stats);
    slot.innerHTML = `<section class="advice" id="advice" aria-label="Health advice" data-category="${esc(cat.id)}" style="--cat:${esc(cat.color)}">
      <div class="advice-badge"><span class="num">${cur.aqi}</span><small>AQI</small></div>
      <div class="advice-body">
        <h2>${esc(cat.name)}</h2>
        <p class="advice-text">${esc(cat.advice)}</p>
        <p class="advice-meta">${esc(ctx.st.name)} · ${esc(polName(ctx.polId))}${cur.dominant && cur.pol ? ` (dominant: ${esc(cur.pol.name)})` : ''} · ${stale ? 'last valid reading ' : ''}${esc(fmtHour(cur.t))}</p>
      </div></section>`;
  },
};
/* @end health-banner */

/* ------------------------------------------------------------------ summary cards */

function kpi(id, title, value, cat, sub, extra = '') {
  return `<section class="kpi" id="${id}" aria-labelledby="${id}-t" style="--cat:${cat ? esc(cat.color) : '#c3cad6'}">
    <h3 id="${id}-t">${esc(title)}</h3>
    <div class="kpi-row"><span class="kpi-value">${esc(value)}</span>${cat ? `<span class="kpi-cat">${esc(cat.name)}</span>` : ''}</div>
    <p class="kpi-sub">${sub}</p>${extra}</section>`;
}

/* @feature card-current */
Features.cardCurrent = {
  html(ctx) {
    const s = ctx.stats;
    if (!s) return kpi('kpi-current', 'Current AQI', '—', null, ctx.measured ? 'No valid reading in the selected range' : 'Not measured at this station');
    const c = s.current;
    if (!isNum(c.aqi)) return kpi('kpi-current', 'Current AQI', '—', null, `${esc(fmtHour(c.t))} · no valid reading`);
    const conc = c.pol && isNum(c.conc) ? ` · ${esc(c.pol.name)} ${esc(fmtConc(c.pol, c.conc))}` : '';
    const dom = c.dominant && c.pol ? `<span class="chip">Dominant: ${esc(c.pol.name)}</span>` : '';
    let extra = '';
    const stale = Features.stale?.isStale(s);
    if (stale) extra = Features.stale.html(ctx, s);
    else if (c.t !== s.end.t) extra = `<p class="kpi-note">Latest hour (${esc(fmtHour(s.end.t))}) has no valid reading</p>`;
    return kpi('kpi-current', 'Current AQI', String(c.aqi), category(c.aqi), `${esc(fmtHour(c.t))}${conc} ${dom}`, extra);
  },
};
/* @end card-current */

/* @feature stale-current */
Features.stale = {
  isStale(s) {
    if (!s || !s.current || !s.end) return false;
    return App.hourIndex[s.end.t] - App.hourIndex[s.current.t] > App.net.rules.staleAfterHours;
  },
  html(ctx, s) {
    return `<p class="kpi-note stale"><span class="badge warn">Stale</span> No valid reading since ${esc(fmtHour(s.current.t))}${ctx.st.note ? ` — ${esc(ctx.st.note)}` : ''}</p>`;
  },
};
/* @end stale-current */

/* @feature card-average */
Features.cardAverage = {
  html(ctx) {
    const s = ctx.stats;
    if (!s) return kpi('kpi-average', 'Average AQI', '—', null, 'No valid hourly values');
    return kpi('kpi-average', 'Average AQI', String(s.average), category(s.average), `Mean of ${s.valid} valid hour${s.valid === 1 ? '' : 's'} of ${s.n}`);
  },
};
/* @end card-average */

/* @feature card-worst */
Features.cardWorst = {
  html(ctx) {
    const s = ctx.stats;
    if (!s) return kpi('kpi-worst', 'Worst hour', '—', null, 'No valid hourly values');
    const w = s.worst;
    const conc = w.pol && isNum(w.conc) ? ` · ${esc(w.pol.name)} ${esc(fmtConc(w.pol, w.conc))}` : '';
    return kpi('kpi-worst', 'Worst hour', String(w.aqi), category(w.aqi), `${esc(fmtHour(w.t))}${conc}`);
  },
};
/* @end card-worst */

App.renderCards = function renderCards(ctx) {
  $('#kpis').innerHTML = (Features.cardCurrent?.html(ctx) || '') + (Features.cardAverage?.html(ctx) || '') + (Features.cardWorst?.html(ctx) || '');
};

/* ------------------------------------------------------------------ chart */

const CH = { w: 1000, h: 320, l: 44, r: 16, t: 14, b: 36 };
const Y_STEPS = [100, 150, 200, 300, 500];

function chartScale(points) {
  const vals = points.filter((p) => isNum(p.aqi)).map((p) => p.aqi);
  const max = vals.length ? Math.max(...vals) : 0;
  const ymax = Y_STEPS.find((s) => s >= max) || Y_STEPS[Y_STEPS.length - 1];
  const x0 = CH.l;
  const x1 = CH.w - CH.r;
  const y0 = CH.t;
  const y1 = CH.h - CH.b;
  const n = points.length;
  const step = n > 1 ? (x1 - x0) / (n - 1) : 0;
  return {
    ymax, x0, x1, y0, y1, step,
    x: (i) => (n > 1 ? x0 + i * step : (x0 + x1) / 2),
    y: (v) => y1 - (Math.max(0, Math.min(ymax, v)) / ymax) * (y1 - y0),
  };
}

/* @feature chart-bands */
Features.chartBands = {
  svg(sc) {
    const A = App.net.aqiBreakpoints;
    return `<g class="bands">${App.net.categories.map((c, i) => {
      const lo = A[i];
      const hi = Math.min(A[i + 1], sc.ymax);
      if (lo >= sc.ymax) return '';
      const yt = sc.y(hi);
      const yb = sc.y(lo);
      return `<rect class="band" data-category="${esc(c.id)}" x="${sc.x0}" y="${yt.toFixed(2)}" width="${(sc.x1 - sc.x0).toFixed(2)}" height="${(yb - yt).toFixed(2)}" fill="${esc(c.color)}" fill-opacity="0.16"><title>${esc(c.name)} (${c.min}–${c.max})</title></rect>`;
    }).join('')}</g>`;
  },
  legend() {
    return `<ul class="legend" aria-label="AQI categories">${App.net.categories.map((c) => `<li data-category="${esc(c.id)}"><i style="background:${esc(c.color)}"></i>${esc(c.name)} <span>${c.min}–${c.max}</span></li>`).join('')}</ul>`;
  },
};
/* @end chart-bands */

/* @feature chart-line */
Features.chartLine = {
  svg(points, sc, daily) {
    let d = '';
    let pen = false;
    points.forEach((p, i) => {
      if (!isNum(p.aqi)) {
        if (Features.chartGaps) pen = false;
        return;
      }
      d += `${pen ? 'L' : 'M'}${sc.x(i).toFixed(2)},${sc.y(p.aqi).toFixed(2)}`;
      pen = true;
    });
    const r = daily ? 4.5 : 2.2;
    const dots = points.map((p, i) => (isNum(p.aqi)
      ? `<circle class="pt" data-time="${esc(p.t)}" cx="${sc.x(i).toFixed(2)}" cy="${sc.y(p.aqi).toFixed(2)}" r="${r}" fill="${esc(category(p.aqi).color)}"/>` : '')).join('');
    return `<path class="aqi-line" d="${d}" fill="none" stroke="#1f2a44" stroke-width="${daily ? 2.4 : 1.6}" stroke-linejoin="round" stroke-linecap="round"/><g class="points">${dots}</g>`;
  },
};
/* @end chart-line */

/* @feature chart-gaps */
Features.chartGaps = {
  svg(points, sc) {
    const w = Math.min(Math.max(sc.step, 6), 22);
    const left = (i) => Math.min(Math.max(sc.x(i) - w / 2, sc.x0), sc.x1 - w);
    return `<g class="gaps">${points.map((p, i) => (isNum(p.aqi) ? ''
      : `<rect class="gap-mark" data-time="${esc(p.t)}" x="${left(i).toFixed(2)}" y="${sc.y1 - 6}" width="${w.toFixed(2)}" height="6" rx="1.5"><title>${esc(p.day ? fmtDay(p.t) : fmtHour(p.t))}: no valid reading</title></rect>`)).join('')}</g>`;
  },
};
/* @end chart-gaps */

/* @feature chart-tooltip */
Features.chartTooltip = {
  svg(points, sc) {
    const w = Math.max(sc.step, 8);
    return `<line class="hover-guide" x1="0" x2="0" y1="${sc.y0}" y2="${sc.y1}" visibility="hidden"/><g class="hits">${points.map((p, i) => `<rect class="hit" data-i="${i}" data-time="${esc(p.t)}" x="${(sc.x(i) - w / 2).toFixed(2)}" y="${sc.y0}" width="${w.toFixed(2)}" height="${sc.y1 - sc.y0}" fill="transparent"/>`).join('')}</g>`;
  },
  content(p, ctx) {
    const when = p.day ? `${fmtDay(p.t)} · daily` : fmtHour(p.t);
    if (!isNum(p.aqi)) {
      const lines = p.day
        ? [`Insufficient data — ${p.validHours} of 24 hours valid (minimum ${App.net.rules.minDailyValidHours})`]
        : (p.issues || []).map((r) => `${r.pol.name}: ${issueText(r)}`);
      return `<strong>${esc(when)}</strong><div class="tip-gap">No valid reading</div>${lines.map((l) => `<div class="tip-line">${esc(l)}</div>`).join('')}`;
    }
    const cat = category(p.aqi);
    const conc = p.pol && isNum(p.conc) ? `${p.dominant ? 'Dominant ' : ''}${p.pol.name}${p.day ? ' daily mean' : ''} ${fmtConc(p.pol, p.conc)}` : '';
    const hrs = p.day ? `<div class="tip-line">${p.validHours} of 24 hours valid</div>` : '';
    return `<strong>${esc(when)}</strong><div class="tip-aqi"><i style="background:${esc(cat.color)}"></i>AQI <b>${p.aqi}</b> · ${esc(cat.name)}</div>${conc ? `<div class="tip-line">${esc(conc)}</div>` : ''}${hrs}`;
  },
  bind(ctx, sc) {
    const svg = $('#aqi-chart');
    const tip = $('#chart-tip');
    const guide = svg.querySelector('.hover-guide');
    svg.querySelectorAll('rect.hit').forEach((r) => {
      r.addEventListener('mouseenter', () => {
        const i = +r.dataset.i;
        const p = ctx.points[i];
        tip.innerHTML = Features.chartTooltip.content(p, ctx);
        tip.hidden = false;
        const x = sc.x(i);
        guide.setAttribute('x1', x);
        guide.setAttribute('x2', x);
        guide.setAttribute('visibility', 'visible');
        const box = svg.getBoundingClientRect();
        const k = box.width / CH.w;
        const left = x * k;
        tip.style.left = `${Math.min(Math.max(left, 90), box.width - 90)}px`;
        tip.style.top = `${(isNum(p.aqi) ? sc.y(p.aqi) : sc.y1) * k}px`;
      });
    });
    svg.addEventListener('mouseleave', () => {
      tip.hidden = true;
      guide.setAttribute('visibility', 'hidden');
    });
  },
};
/* @end chart-tooltip */

/* @feature not-measured */
Features.notMeasured = {
  show(ctx) {
    const list = ctx.st.pollutants.map((id) => App.polById[id].name).join(', ');
    return `<h3>${esc(polName(ctx.polId))} is not measured at ${esc(ctx.st.name)}</h3>
      <p>This station measures ${esc(list)}. Pick one of these pollutants or another station.</p>`;
  },
};
/* @end not-measured */

/* @feature empty-range */
Features.emptyRange = {
  show(ctx) {
    return `<h3>No valid readings for ${esc(ctx.st.name)} · ${esc(polName(ctx.polId))} between ${esc(fmtRange(App.state.from, App.state.to))}</h3>
      <p>${ctx.st.note ? `${esc(ctx.st.note)} ` : ''}Choose another date range or station.</p>`;
  },
};
/* @end empty-range */

function xLabels(points, sc, daily) {
  let out = '';
  points.forEach((p, i) => {
    let label = null;
    if (daily) label = fmtDay(p.t);
    else if (points.length <= 48 && p.t.endsWith(':00') && +p.t.slice(11, 13) % 6 === 0) label = +p.t.slice(11, 13) === 0 ? fmtDay(p.t.slice(0, 10)) : p.t.slice(11, 16);
    else if (p.t.endsWith('T00:00')) label = fmtDay(p.t.slice(0, 10));
    if (label === null) return;
    const x = sc.x(i).toFixed(2);
    out += `<g class="x-tick"><line x1="${x}" x2="${x}" y1="${sc.y1}" y2="${sc.y1 + 5}"/><text x="${x}" y="${sc.y1 + 19}" text-anchor="middle">${esc(label)}</text></g>`;
  });
  return out;
}

App.renderChart = function renderChart(ctx) {
  const svg = $('#aqi-chart');
  const empty = $('#chart-empty');
  const tip = $('#chart-tip');
  tip.hidden = true;
  const daily = !!ctx.daily;
  const range = fmtRange(App.state.from, App.state.to);
  $('#chart-sub').textContent = `${ctx.st.name} · ${polName(ctx.polId)} · ${range} · ${daily ? 'Daily AQI' : 'Hourly AQI'}`;
  $('#legend-slot').innerHTML = Features.chartBands?.legend() || '';
  let placeholder = '';
  if (!ctx.measured) placeholder = Features.notMeasured?.show(ctx) || '';
  else if (!ctx.points.some((p) => isNum(p.aqi))) placeholder = Features.emptyRange?.show(ctx) || '';
  empty.hidden = !placeholder;
  empty.innerHTML = placeholder;
  svg.classList.toggle('dimmed', !!placeholder);

  const points = ctx.points;
  const sc = chartScale(points);
  const validCount = points.filter((p) => isNum(p.aqi)).length;
  const grid = App.net.aqiBreakpoints.filter((v) => v <= sc.ymax).map((v) => `<g class="y-tick"><line class="grid" data-v="${v}" x1="${sc.x0}" x2="${sc.x1}" y1="${sc.y(v).toFixed(2)}" y2="${sc.y(v).toFixed(2)}"/><text x="${sc.x0 - 8}" y="${(sc.y(v) + 4).toFixed(2)}" text-anchor="end">${v}</text></g>`).join('');
  let body = (Features.chartBands?.svg(sc) || '') + grid + xLabels(points, sc, daily);
  if (!placeholder && points.length) {
    body += (Features.chartGaps?.svg(points, sc) || '') + (Features.chartLine?.svg(points, sc, daily) || '') + (Features.chartTooltip?.svg(points, sc) || '');
  }
  body += `<text class="axis-title" x="12" y="${(sc.y0 + sc.y1) / 2}" transform="rotate(-90 12 ${(sc.y0 + sc.y1) / 2})" text-anchor="middle">AQI</text>`;
  svg.innerHTML = body;
  const unit = daily ? 'days' : 'hours';
  svg.setAttribute('aria-label', ctx.measured
    ? `AQI chart for ${ctx.st.name}, ${polName(ctx.polId)}, ${daily ? 'daily' : 'hourly'}, ${range}: ${validCount} of ${points.length} ${unit} with a valid value`
    : `AQI chart for ${ctx.st.name}: ${polName(ctx.polId)} not measured`);
  if (!placeholder && points.length) Features.chartTooltip?.bind(ctx, sc);
};

/* ------------------------------------------------------------------ station ranking */

/* @feature ranking-completeness */
Features.rankingCompleteness = {
  eligible(row) {
    return row.completeness >= App.net.rules.minRankingCompleteness;
  },
};
/* @end ranking-completeness */

const RANK_COLS = [
  { key: 'rank', label: 'Rank', cls: 'c-rank' },
  { key: 'name', label: 'Station', cls: 'c-station', sortable: true, first: 'asc' },
  { key: 'district', label: 'District', cls: 'c-district' },
  { key: 'avg', label: 'Average AQI', cls: 'c-avg num', sortable: true, first: 'desc' },
  { key: 'max', label: 'Max AQI', cls: 'c-max num', sortable: true, first: 'desc' },
  { key: 'cat', label: 'Category', cls: 'c-cat' },
  { key: 'valid', label: 'Valid hours', cls: 'c-valid num', sortable: true, first: 'desc' },
];

/* @feature ranking-sort */
Features.rankingSort = {
  value(row, key) {
    if (key === 'name') return row.st.name;
    if (key === 'avg') return row.avg;
    if (key === 'max') return row.max;
    if (key === 'valid') return row.completeness;
    return row.rank;
  },
  compare(a, b, key, dir) {
    const va = Features.rankingSort.value(a, key);
    const vb = Features.rankingSort.value(b, key);
    const s = dir === 'asc' ? 1 : -1;
    if (typeof va === 'string') return s * va.localeCompare(vb);
    return s * (va - vb) || a.rank - b.rank;
  },
  click(key) {
    const col = RANK_COLS.find((c) => c.key === key);
    const st = App.state.sort;
    App.state.sort = st.key === key ? { key, dir: st.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: col.first };
    App.renderRanking();
  },
};
/* @end ranking-sort */
/* @broken ranking-sort */
Features.rankingSort = {
  value(row, key) {
    if (key === 'name') return row.st.name;
    if (key === 'avg') return String(row.avg);
    if (key === 'max') return String(row.max);
    if (key === 'valid') return String(row.completeness);
    return row.rank;
  },
  compare(a, b, key, dir) {
    const va = Features.rankingSort.value(a, key);
    const vb = Features.rankingSort.value(b, key);
    const s = dir === 'asc' ? 1 : -1;
    if (typeof va === 'string') return s * va.localeCompare(vb);
    return s * (va - vb) || a.rank - b.rank;
  },
  click(key) {
    const col = RANK_COLS.find((c) => c.key === key);
    const st = App.state.sort;
    App.state.sort = st.key === key ? { key, dir: st.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: col.first };
    App.renderRanking();
  },
};
/* @end ranking-sort */

/* @feature row-select */
Features.rowSelect = {
  bind(table) {
    table.tBodies[0].addEventListener('click', (e) => {
      const tr = e.target.closest('tr[data-station]');
      if (tr) App.setStation(tr.dataset.station);
    });
    table.tBodies[0].addEventListener('keydown', (e) => {
      const tr = e.target.closest('tr[data-station]');
      if (tr && e.target === tr && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        App.setStation(tr.dataset.station);
      }
    });
  },
};
/* @end row-select */

/* @feature ranking-table */
Features.rankingTable = {
  render() {
    const slot = $('#ranking-slot');
    const polId = App.state.pollutant;
    const rows = rankingRows();
    const ranked = rows.filter((r) => r.rank);
    const rest = rows.filter((r) => !r.rank).sort((a, b) => a.st.name.localeCompare(b.st.name));
    let { key, dir } = App.state.sort;
    if (!Features.rankingSort) { key = 'avg'; dir = 'asc'; }
    if (Features.rankingSort && !(key === 'avg' && dir === 'asc')) ranked.sort((a, b) => Features.rankingSort.compare(a, b, key, dir));
    else ranked.sort((a, b) => a.rank - b.rank);
    const head = RANK_COLS.map((c) => {
      const active = c.key === key || (key === 'rank' && c.key === 'avg');
      const aria = active && c.sortable ? ` aria-sort="${dir === 'asc' ? 'ascending' : 'descending'}"` : '';
      const arrow = c.sortable ? `<span class="arrow" aria-hidden="true">${active ? (dir === 'asc' ? '▲' : '▼') : '↕'}</span>` : '';
      const inner = c.sortable && Features.rankingSort ? `<button type="button" class="sort" data-sort="${c.key}">${esc(c.label)}${arrow}</button>` : esc(c.label);
      return `<th scope="col" class="${c.cls}${active ? ' active' : ''}"${aria}>${inner}</th>`;
    }).join('');
    const rowHtml = (r) => {
      const cat = category(r.avg);
      const sel = r.st.id === App.state.station;
      const badge = r.rank ? '' : `<span class="badge warn">${isNum(r.avg) ? 'Insufficient data' : 'No data'}</span>`;
      return `<tr data-station="${esc(r.st.id)}" class="${r.rank ? '' : 'unranked'}${sel ? ' selected' : ''}" aria-selected="${sel}" tabindex="0">
        <td class="c-rank">${r.rank ? `<span class="rank-pill${r.rank <= 3 ? ' top' : ''}">${r.rank}</span>` : '<span class="rank-pill none">—</span>'}</td>
        <td class="c-station"><span class="st-name">${esc(r.st.name)}</span>${badge}<span class="st-type">${esc(r.st.type)}</span></td>
        <td class="c-district">${esc(r.st.district)}</td>
        <td class="c-avg num">${isNum(r.avg) ? r.avg : '—'}</td>
        <td class="c-max num">${isNum(r.max) ? r.max : '—'}</td>
        <td class="c-cat">${cat ? `<span class="cat-chip" style="--cat:${esc(cat.color)}">${esc(cat.name)}</span>` : '—'}</td>
        <td class="c-valid num" title="${r.valid} of ${r.n} hours">${(r.completeness * 100).toFixed(1)}%</td></tr>`;
    };
    let body = ranked.map(rowHtml).join('');
    if (rest.length) {
      body += `<tr class="group-sep"><td colspan="${RANK_COLS.length}">Not ranked — fewer than ${Math.round(App.net.rules.minRankingCompleteness * 100)}% valid hours in the selected range</td></tr>`;
      body += rest.map(rowHtml).join('');
    }
    slot.innerHTML = `<table class="rank-table" id="ranking-table" aria-label="Station ranking"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
    const table = $('#ranking-table');
    if (Features.rankingSort) {
      $$('button[data-sort]', table).forEach((b) => b.addEventListener('click', () => Features.rankingSort.click(b.dataset.sort)));
    }
    Features.rowSelect?.bind(table);
    $('#rank-sub').textContent = `${polName(polId)} · ${fmtRange(App.state.from, App.state.to)} · ranked by average AQI, cleanest first`;
    const skipped = App.stations.filter((s) => !measures(s.id, polId)).map((s) => s.name);
    $('#rank-foot').textContent = `${ranked.length} of ${rows.length} stations ranked. `
      + (skipped.length ? `${polName(polId)} is not measured at ${skipped.join(' and ')}. ` : '')
      + `Stations need at least ${Math.round(App.net.rules.minRankingCompleteness * 100)}% valid hours to be ranked.`;
  },
};
/* @end ranking-table */

App.renderRanking = function renderRanking() {
  Features.rankingTable?.render();
};

/* ------------------------------------------------------------------ CSV export */

/* @feature csv-export */
Features.csvExport = {
  url: null,
  mount() {
    $('#export-slot').innerHTML = `<a class="btn primary" id="export-csv" role="link" href="#">
      <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 4v11M7 10l5 5 5-5M5 20h14"/></svg>Export CSV</a>`;
  },
  cell(v) {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  },
  rows(ctx) {
    const out = [];
    const daily = !!ctx.daily;
    for (const p of ctx.points) {
      const ok = isNum(p.aqi);
      let status = 'ok';
      if (!ok) {
        if (daily) status = `insufficient data (${p.validHours}/24 h)`;
        else if (ctx.polId === 'overall') status = 'no valid reading';
        else status = p.status === 'invalid' ? `invalid: ${p.reason}` : 'missing';
      }
      const pol = ok ? p.pol : (ctx.polId === 'overall' ? null : App.polById[ctx.polId]);
      out.push([
        ctx.st.name, ctx.st.id, daily ? p.t : p.t.replace('T', ' '),
        ctx.polId === 'overall' ? (ok ? `Overall (${p.pol.name})` : 'Overall') : pol.name,
        ok && isNum(p.conc) ? Number(p.conc).toFixed(pol.decimals) : '',
        pol ? pol.unit : '',
        ok ? p.aqi : '', ok ? category(p.aqi).name : '', status,
      ]);
    }
    return out;
  },
  update(ctx) {
    const a = $('#export-csv');
    if (!a) return;
    if (this.url) URL.revokeObjectURL(this.url);
    const slug = ctx.st.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const name = `lakeport-aqi_${slug}_${ctx.polId}_${App.state.from}_${App.state.to}_${ctx.daily ? 'daily' : 'hourly'}.csv`;
    const header = ['Station', 'Station ID', ctx.daily ? 'Date' : 'Time', 'Pollutant', 'Concentration', 'Unit', 'AQI', 'Category', 'Status'];
    const lines = [header].concat(ctx.measured ? this.rows(ctx) : []).map((r) => r.map((c) => this.cell(c)).join(','));
    this.url = URL.createObjectURL(new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' }));
    a.href = this.url;
    a.setAttribute('download', name);
    a.title = `Download ${ctx.daily ? 'daily' : 'hourly'} values of the chart (${ctx.points.length} rows)`;
  },
};
/* @end csv-export */
/* @broken csv-export */
Features.csvExport = {
  url: null,
  mount() {
    $('#export-slot').innerHTML = `<a class="btn primary" id="export-csv" role="link" href="#">
      <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 4v11M7 10l5 5 5-5M5 20h14"/></svg>Export CSV</a>`;
  },
  update(ctx) {
    const a = $('#export-csv');
    if (!a) return;
    if (this.url) URL.revokeObjectURL(this.url);
    const slug = ctx.st.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const name = `lakeport-aqi_${slug}_${ctx.polId}_${App.state.from}_${App.state.to}_${ctx.daily ? 'daily' : 'hourly'}.csv`;
    const header = ['Station', 'Station ID', ctx.daily ? 'Date' : 'Time', 'Pollutant', 'Concentration', 'Unit', 'AQI', 'Category', 'Status'];
    const rows = ctx.hourly.filter((p) => isNum(p.aqi)).map((p) => [ctx.st.name, ctx.st.id, p.t.replace('T', ' '), p.pol.name,
      Number(p.conc).toFixed(p.pol.decimals), p.pol.unit, p.aqi, category(p.aqi).name, 'ok']);
    const lines = [header].concat(rows).map((r) => r.join(','));
    this.url = URL.createObjectURL(new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' }));
    a.href = this.url;
    a.setAttribute('download', name);
  },
};
/* @end csv-export */

/* ------------------------------------------------------------------ state changes */

App.setStation = function setStation(id) {
  if (!App.stById[id]) return;
  App.state.station = id;
  Features.stationSelect?.sync();
  App.render();
};

App.render = function render() {
  const ctx = computeContext();
  App.ctx = ctx;
  App.renderNotices(ctx);
  if (Features.healthBanner) Features.healthBanner.render(ctx);
  App.renderCards(ctx);
  App.renderChart(ctx);
  App.renderRanking();
  Features.csvExport?.update(ctx);
};

/* ------------------------------------------------------------------ boot */

async function loadJson(name) {
  const r = await fetch(`data/${name}`);
  if (!r.ok) throw new Error(`data/${name} could not be loaded (HTTP ${r.status})`);
  return r.json();
}

function indexReadings(list) {
  const stName = (id) => App.stById[id]?.name || id;
  for (const rec of list) {
    if (!rec || !App.stById[rec.station]) {
      App.ignored.push({ kind: 'unknown', text: `Unknown station “${rec?.station}” at ${rec?.time} — not part of the network` });
      continue;
    }
    if (typeof rec.time !== 'string' || !(rec.time in App.hourIndex)) {
      App.ignored.push({ kind: 'timestamp', text: `Invalid timestamp “${rec.time}” (${stName(rec.station)})` });
      continue;
    }
    const key = `${rec.station}|${rec.time}`;
    if (App.data.has(key)) {
      App.ignored.push({ kind: 'duplicate', text: `Duplicate record for ${stName(rec.station)} at ${fmtHour(rec.time)} — the first record is kept` });
      continue;
    }
    App.data.set(key, rec);
  }
}

async function init() {
  let net;
  let rd;
  try {
    [net, rd] = await Promise.all([loadJson('network.json'), loadJson('readings.json')]);
  } catch (err) {
    $('#app').hidden = true;
    $('#controls').hidden = true;
    const box = $('#load-error');
    box.hidden = false;
    box.innerHTML = `<strong>The air-quality data could not be loaded.</strong><br>${esc(err.message)}. Check that the data folder is published next to the page and reload.`;
    return;
  }
  App.net = net;
  App.pollutants = net.pollutants;
  App.polById = Object.fromEntries(net.pollutants.map((p) => [p.id, p]));
  App.stations = net.stations;
  App.stById = Object.fromEntries(net.stations.map((s) => [s.id, s]));
  for (let d = net.coverage.from; d <= net.coverage.to; d = addDays(d, 1)) {
    App.days.push(d);
    for (let h = 0; h < 24; h++) {
      const t = `${d}T${pad(h)}:00`;
      App.hourIndex[t] = App.hours.length;
      App.hours.push(t);
    }
  }
  indexReadings(rd.readings || []);
  App.state.station = net.stations[0].id;
  App.state.pollutant = net.defaultPollutant || net.pollutants[0].id;
  App.state.from = net.coverage.from;
  App.state.to = net.coverage.to;
  $('#network-name').textContent = `${net.network} · ${net.operator}`;
  Features.asOf?.render();
  Features.stationSelect?.mount();
  Features.pollutantSelect?.mount();
  Features.dateRange?.mount();
  Features.resolution?.mount();
  Features.csvExport?.mount();
  App.render();
}

init();
