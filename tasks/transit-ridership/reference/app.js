/* Ridership explorer — Harbourton Transit. Static, no build step. */
(function () {
  'use strict';

  const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const $ = (id) => document.getElementById(id);
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const pct = (x) => x.toFixed(1) + '%';

  const state = { year: 2025, district: 'All districts', route: '1' };
  let routes = [];        // [{code, name, district, raw}]
  const series = {};      // series[code][year][m] = {wd, we} | {nodata: true} | undefined
  const notes = [];

  function titleCase(s) {
    return s.trim().toLowerCase().replace(/(^|\s)\S/g, (c) => c.toUpperCase());
  }

  function slot(code, year, m) {
    series[code] = series[code] || {};
    series[code][year] = series[code][year] || new Array(12).fill(undefined);
    return series[code][year];
  }

  function prepare(raw) {
    let renamed = {};
    let list = raw.routes.slice();
    /* @feature rename-merge */
    list.forEach((r) => { if (r.renamed_to) renamed[r.code] = r.renamed_to; });
    list = list.filter((r) => !r.renamed_to);
    Object.keys(renamed).forEach((old) => {
      const to = list.find((r) => r.code === renamed[old]);
      notes.push(`${old} is now ${renamed[old]} (${to ? to.name : ''}): its rows are counted under ${renamed[old]}.`);
    });
    /* @end rename-merge */
    /* @broken rename-merge */
    // the old code is hidden from the lists, but its rows are dropped instead of moved
    list.forEach((r) => { if (r.renamed_to) renamed[r.code] = r.renamed_to; });
    list = list.filter((r) => !r.renamed_to);
    Object.keys(renamed).forEach((old) => {
      const to = list.find((r) => r.code === renamed[old]);
      notes.push(`${old} is now ${renamed[old]} (${to ? to.name : ''}): its rows are counted under ${renamed[old]}.`);
    });
    const dropped = new Set(Object.keys(renamed));
    raw = Object.assign({}, raw, { monthly: raw.monthly.filter((r) => !dropped.has(r.route)) });
    renamed = {};
    /* @end rename-merge */

    routes = list.map((r) => {
      let district = r.district ? titleCase(r.district) : '';
      let label = district;
      /* @feature unassigned */
      if (!district) {
        district = label = 'Unassigned';
        notes.push(`${r.code} has no district: shown as Unassigned.`);
      }
      /* @end unassigned */
      /* @broken unassigned */
      // shown as Unassigned, but the route keeps an empty district (the filter never finds it)
      if (!district) {
        label = 'Unassigned';
        notes.push(`${r.code} has no district: shown as Unassigned.`);
      }
      /* @end unassigned */
      return { code: r.code, name: r.name, district, label, raw: r.district };
    });

    let rows = raw.monthly;
    let dups = 0;
    /* @feature dedupe */
    const seen = new Set();
    rows = rows.filter((r) => {
      const k = r.route + '|' + r.month;
      if (seen.has(k)) { dups += 1; return false; }
      seen.add(k);
      return true;
    });
    /* @end dedupe */
    /* @broken dedupe */
    // every copy of a repeated route+month is thrown away, the first one too
    const counts = {};
    rows.forEach((r) => { const k = r.route + '|' + r.month; counts[k] = (counts[k] || 0) + 1; });
    rows = rows.filter((r) => {
      const k = r.route + '|' + r.month;
      if (counts[k] > 1) { dups += 1; return false; }
      return true;
    });
    dups = Math.max(0, dups - 1);
    /* @end dedupe */
    if (dups) notes.push(`${dups} duplicate row${dups === 1 ? '' : 's'} ignored.`);

    rows.forEach((r) => {
      const code = renamed[r.route] || r.route;
      const [y, mm] = r.month.split('-').map(Number);
      const m = mm - 1;
      const arr = slot(code, y, m);
      if (r.weekday == null || r.weekend == null) {
        /* @feature outage-gap */
        arr[m] = { nodata: true };
        notes.push(`No data for route ${code} in ${MON[m]} ${y} (sensor outage).`);
        /* @end outage-gap */
        /* @broken outage-gap */
        arr[m] = { wd: 0, we: 0 };
        /* @end outage-gap */
        return;
      }
      const cur = arr[m] && !arr[m].nodata ? arr[m] : { wd: 0, we: 0 };
      arr[m] = { wd: cur.wd + Number(r.weekday), we: cur.we + Number(r.weekend) };
    });
  }

  function month(code, year, m) {
    const arr = series[code] && series[code][year];
    return arr ? arr[m] : undefined;
  }
  const hasData = (code, year, m) => { const s = month(code, year, m); return !!s && !s.nodata; };

  function totals(code, year, months) {
    let wd = 0, we = 0;
    (months || MON.map((_, i) => i)).forEach((m) => {
      const s = month(code, year, m);
      if (s && !s.nodata) { wd += s.wd; we += s.we; }
    });
    return { wd, we, all: wd + we };
  }

  function yoyText(code, year) {
    let text = '';
    /* @feature yoy */
    if (!series[code] || !series[code][year - 1]) return 'n/a';
    let months = MON.map((_, i) => i);
    /* @feature yoy-same-months */
    months = months.filter((m) => hasData(code, year, m) && hasData(code, year - 1, m));
    /* @end yoy-same-months */
    const a = totals(code, year, months).all, b = totals(code, year - 1, months).all;
    if (!b) return 'n/a';
    const ch = (a - b) / b * 100;
    text = (ch >= 0 ? '+' : '-') + Math.abs(ch).toFixed(1) + '%';
    /* @end yoy */
    /* @broken yoy */
    // the change is taken against this year's total instead of last year's
    if (!series[code] || !series[code][year - 1]) return 'n/a';
    let months = MON.map((_, i) => i);
    /* @feature yoy-same-months */
    months = months.filter((m) => hasData(code, year, m) && hasData(code, year - 1, m));
    /* @end yoy-same-months */
    const a = totals(code, year, months).all, b = totals(code, year - 1, months).all;
    if (!a) return 'n/a';
    const ch = (a - b) / a * 100;
    text = (ch >= 0 ? '+' : '-') + Math.abs(ch).toFixed(1) + '%';
    /* @end yoy */
    return text;
  }

  function inDistrict(r) {
    if (state.district === 'All districts') return true;
    let ok = true;
    /* @feature district-filter */
    ok = r.district === state.district;
    /* @end district-filter */
    /* @broken district-filter */
    // compares the district as the export spells it ("eastgate " never matches Eastgate)
    ok = (r.raw || r.district) === state.district;
    /* @end district-filter */
    return ok;
  }

  function ranked() {
    const list = routes.filter(inDistrict).map((r) => ({
      r, total: totals(r.code, state.year).all, yoy: yoyText(r.code, state.year),
    }));
    /* @feature ranking-sort */
    list.sort((a, b) => b.total - a.total);
    /* @end ranking-sort */
    /* @broken ranking-sort */
    // sorts the formatted numbers as text
    list.sort((a, b) => fmt(b.total).localeCompare(fmt(a.total)));
    /* @end ranking-sort */
    return list.map((x, i) => Object.assign(x, { rank: i + 1 }));
  }

  function renderNotes() {
    const ul = $('notes');
    ul.innerHTML = '';
    notes.forEach((n) => {
      const li = document.createElement('li');
      li.textContent = n;
      ul.appendChild(li);
    });
    if (!notes.length) ul.innerHTML = '<li>No problems found in the data.</li>';
  }

  function renderRanking() {
    const body = $('rank-body');
    body.innerHTML = '';
    const list = ranked();
    $('rank-hint').textContent = `${state.year} · ${state.district} · ${list.length} route${list.length === 1 ? '' : 's'}`;
    /* @feature ranking */
    list.forEach((x) => {
      const tr = document.createElement('tr');
      const cells = [String(x.rank), x.r.code, null, x.r.label, fmt(x.total), x.yoy];
      cells.forEach((c, i) => {
        const td = document.createElement('td');
        if (i >= 4) td.className = 'num';
        if (i === 5) td.classList.add(x.yoy.startsWith('-') ? 'down' : x.yoy === 'n/a' ? 'na' : 'up');
        if (i === 2) {
          let named = false;
          /* @feature row-to-chart */
          const b = document.createElement('button');
          b.type = 'button';
          b.className = 'linkish';
          b.textContent = x.r.name;
          b.addEventListener('click', () => {
            state.route = x.r.code;
            if ($('route')) $('route').value = x.r.code;
            renderChart();
            renderSplit();
            $('chart-h').scrollIntoView({ block: 'nearest' });
          });
          td.appendChild(b);
          named = true;
          /* @end row-to-chart */
          if (!named) td.textContent = x.r.name;
        } else {
          td.textContent = c;
        }
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    /* @end ranking */
    renderExport(list);
  }

  function renderExport(list) {
    /* @feature csv-export */
    const a = $('export');
    if (!a) return;
    const lines = ['Rank,Route,Name,District,Boardings,YoY change'];
    list.forEach((x) => lines.push([x.rank, x.r.code, x.r.name, x.r.label, Math.round(x.total), x.yoy].join(',')));
    a.href = 'data:text/csv;charset=utf-8,' + encodeURIComponent(lines.join('\n') + '\n');
    a.download = `ridership-${state.year}-${state.district.toLowerCase().replace(/\s+/g, '-')}.csv`;
    /* @end csv-export */
    /* @broken csv-export */
    // the export always holds every route, whatever the District filter says
    const a = $('export');
    if (!a) return;
    const saved = state.district;
    state.district = 'All districts';
    const all = ranked();
    state.district = saved;
    const lines = ['Rank,Route,Name,District,Boardings,YoY change'];
    all.forEach((x) => lines.push([x.rank, x.r.code, x.r.name, x.r.label, Math.round(x.total), x.yoy].join(',')));
    a.href = 'data:text/csv;charset=utf-8,' + encodeURIComponent(lines.join('\n') + '\n');
    a.download = `ridership-${state.year}-${state.district.toLowerCase().replace(/\s+/g, '-')}.csv`;
    /* @end csv-export */
  }

  function routeName(code) {
    const r = routes.find((x) => x.code === code);
    return r ? `${r.code} · ${r.name}` : code;
  }

  function renderChart() {
    const svg = $('chart');
    $('chart-hint').textContent = `${routeName(state.route)} · boardings per month, ${state.year}`;
    if (!svg) return;
    const NS = 'http://www.w3.org/2000/svg';
    const W = 720, H = 300, L = 64, R = 16, T = 16, B = 34;
    const pw = W - L - R, ph = H - T - B;
    const vals = MON.map((_, m) => {
      const s = month(state.route, state.year, m);
      if (s && s.nodata) return null;
      return s ? s.wd + s.we : 0;
    });
    const max = Math.max(1, ...vals.filter((v) => v != null));
    const stepRaw = max / 4;
    const mag = Math.pow(10, Math.floor(Math.log10(stepRaw)));
    const step = [1, 2, 2.5, 5, 10].map((k) => k * mag).find((s) => s >= stepRaw);
    const top = step * Math.ceil(max / step);
    const x = (m) => L + pw * (m + 0.5) / 12;
    const y = (v) => T + ph - ph * v / top;
    const el = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
      if (text != null) e.textContent = text;
      return e;
    };
    svg.innerHTML = '';
    for (let v = 0; v <= top + 1e-9; v += step) {
      svg.appendChild(el('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid-line' }));
      svg.appendChild(el('text', { x: L - 8, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, v >= 1000 ? (v / 1000) + 'k' : String(v)));
    }
    MON.forEach((name, m) => svg.appendChild(el('text', { x: x(m), y: H - 12, 'text-anchor': 'middle', class: 'axis' }, name)));
    // the line, broken where a month has no data
    let d = '', pen = false;
    vals.forEach((v, m) => {
      if (v == null) { pen = false; return; }
      d += (pen ? 'L' : 'M') + x(m).toFixed(1) + ' ' + y(v).toFixed(1) + ' ';
      pen = true;
    });
    svg.appendChild(el('path', { d, class: 'line' }));
    vals.forEach((v, m) => {
      if (v == null) {
        svg.appendChild(el('rect', { x: x(m) - 14, y: T, width: 28, height: ph, class: 'gap' }));
        return;
      }
      svg.appendChild(el('circle', { cx: x(m), cy: y(v), r: 4, class: 'dot' }));
    });
    /* @feature chart-tooltip */
    const tip = $('tip');
    vals.forEach((v, m) => {
      const label = `${MON[m]} ${state.year}`;
      const hit = el('rect', { x: L + pw * m / 12, y: T, width: pw / 12, height: ph, class: 'hit', 'aria-label': label });
      hit.addEventListener('mouseenter', () => {
        const s = month(state.route, state.year, m);
        let html = `<div class="tip-h">${label}</div>`;
        if (v == null) html += '<div>No data (sensor outage)</div>';
        else html += `<div>Boardings: ${fmt(v)}</div><div>Weekday: ${fmt(s ? s.wd : 0)} · Weekend: ${fmt(s ? s.we : 0)}</div>`;
        tip.innerHTML = html;
        tip.hidden = false;
        const box = svg.getBoundingClientRect();
        const px = box.width * x(m) / W;
        tip.style.left = Math.min(Math.max(px - 80, 0), box.width - 170) + 'px';
        tip.style.top = '4px';
        svg.querySelectorAll('.hit.on').forEach((h) => h.classList.remove('on'));
        hit.classList.add('on');
      });
      svg.appendChild(hit);
    });
    svg.addEventListener('mouseleave', () => { tip.hidden = true; });
    /* @end chart-tooltip */
  }

  function renderSplit() {
    $('split-hint').textContent = `${routeName(state.route)} · ${state.year}, months with data`;
    /* @feature weekday-split */
    const t = totals(state.route, state.year);
    const wdShare = t.all ? t.wd / t.all * 100 : 0, weShare = t.all ? t.we / t.all * 100 : 0;
    $('split-wd').textContent = `Weekday: ${fmt(t.wd)} (${pct(wdShare)})`;
    $('split-we').textContent = `Weekend: ${fmt(t.we)} (${pct(weShare)})`;
    $('bar-wd').style.width = wdShare + '%';
    $('bar-we').style.width = weShare + '%';
    /* @end weekday-split */
    /* @broken weekday-split */
    // the weekend share is taken against weekday boardings instead of all boardings
    const t = totals(state.route, state.year);
    const weShare = t.wd ? t.we / t.wd * 100 : 0, wdShare = 100 - weShare;
    $('split-wd').textContent = `Weekday: ${fmt(t.wd)} (${pct(wdShare)})`;
    $('split-we').textContent = `Weekend: ${fmt(t.we)} (${pct(weShare)})`;
    $('bar-wd').style.width = wdShare + '%';
    $('bar-we').style.width = weShare + '%';
    /* @end weekday-split */
  }

  function fillControls() {
    const route = $('route');
    if (route) {
      route.innerHTML = '';
      routes.forEach((r) => route.appendChild(new Option(`${r.code} · ${r.name}`, r.code)));
      route.value = state.route;
      route.addEventListener('change', () => { state.route = route.value; renderChart(); renderSplit(); });
    }
    const district = $('district');
    if (district) {
      const names = [...new Set(routes.map((r) => r.district).filter((d) => d && d !== 'Unassigned'))].sort();
      /* @feature unassigned */
      names.push('Unassigned');
      /* @end unassigned */
      /* @broken unassigned */
      names.push('Unassigned');
      /* @end unassigned */
      names.forEach((n) => district.appendChild(new Option(n, n)));
      district.addEventListener('change', () => { state.district = district.value; renderRanking(); });
    }
    const year = $('year');
    if (year) {
      year.value = String(state.year);
      year.addEventListener('change', () => { state.year = Number(year.value); renderAll(); });
    }
  }

  function renderAll() {
    renderRanking();
    renderChart();
    renderSplit();
  }

  fetch('data/ridership.json')
    .then((r) => r.json())
    .then((raw) => {
      prepare(raw);
      renderNotes();
      fillControls();
      renderAll();
    })
    .catch((e) => {
      $('notes').innerHTML = '';
      const li = document.createElement('li');
      li.textContent = 'Could not load data/ridership.json: ' + e.message;
      $('notes').appendChild(li);
    });
})();
