/* Keystone Loan Planner — UI. Depends on calc.js (window.LoanCalc). */
(function () {
  'use strict';

  var L = window.LoanCalc;
  var INST = L.METHODS.installment;
  var PRIN = L.METHODS.principal;
  var STORAGE_KEY = 'keystone-loan-planner.scenarios';
  var FIELDS = ['amount', 'rate', 'term', 'start', 'extra'];
  var METHOD_NAMES = {};
  METHOD_NAMES[INST] = 'Equal installment';
  METHOD_NAMES[PRIN] = 'Equal principal';

  var state = {
    products: [],        // [{product, issue}]
    values: null,        // validated inputs of the current result
    result: null,        // amortize() of the selected method
    baseline: null,      // same loan without prepayment (for "interest saved")
    expanded: {},        // year -> true when that year group is open
    exportOpen: false,
    scenarios: []
  };

  function $(id) { return document.getElementById(id); }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function usdWhole(cents) { // $300,000 for whole dollars, $300,000.50 otherwise
    var s = L.usd(cents);
    return cents % 100 === 0 ? s.replace(/\.00$/, '') : s;
  }
  function on(id, ev, fn) { var el = $(id); if (el) el.addEventListener(ev, fn); }

  /* ------------------------------------------------------------------ form */

  function getMethod() {
    var el = document.querySelector('input[name="method"]:checked');
    return el ? el.value : INST;
  }
  function setMethod(m) {
    var el = document.querySelector('input[name="method"][value="' + m + '"]');
    if (el) el.checked = true;
  }
  function setVal(id, v) { var el = $(id); if (el) el.value = v == null ? '' : String(v); }

  function readForm() {
    return {
      amount: $('amount').value,
      rate: $('rate').value,
      term: $('term').value,
      start: $('start').value,
      extra: $('extra') ? $('extra').value : '',
      method: getMethod()
    };
  }

  function showErrors(errors) {
    FIELDS.forEach(function (f) {
      var input = $(f), box = $(f + '-error');
      if (!input) return;
      var msg = errors[f] || '';
      input.setAttribute('aria-invalid', msg ? 'true' : 'false');
      var field = input.closest('.field');
      if (field) field.classList.toggle('has-error', !!msg);
      if (box) { box.textContent = msg; box.hidden = !msg; }
    });
  }

  function clearFieldError(f) {
    var input = $(f), box = $(f + '-error');
    if (!input || input.getAttribute('aria-invalid') !== 'true') return;
    var v = L.validate(readForm());
    if (!v.errors[f]) {
      input.setAttribute('aria-invalid', 'false');
      var field = input.closest('.field');
      if (field) field.classList.remove('has-error');
      if (box) { box.textContent = ''; box.hidden = true; }
    }
  }

  function defaultStart() {
    var d = new Date();
    var next = L.addMonths({ year: d.getFullYear(), month: d.getMonth() + 1 }, 1);
    return L.monthIso(next.year, next.month);
  }

  function resetForm() {
    setVal('product', '');
    setVal('amount', '300,000');
    setVal('rate', '6.5');
    setVal('term', '30');
    setVal('start', defaultStart());
    setVal('extra', '');
    setMethod(INST);
    productHint(null);
    showErrors({});
    state.result = null;
    state.values = null;
    state.baseline = null;
    setBanner(false);
    renderAll();
  }

  function setBanner(show) {
    var b = $('results-banner');
    if (b) b.hidden = !show;
  }

  /* ----------------------------------------------------------- calculation */

  function calculate() {
    var v = L.validate(readForm());
    showErrors(v.errors);
    if (!v.ok) {
      state.result = null;
      state.values = null;
      state.baseline = null;
      setBanner(true);
      renderAll();
      return false;
    }
    setBanner(false);
    state.values = v.values;
    state.result = L.amortize(v.values, v.values.method);
    state.baseline = state.result.totals.extra > 0
      ? L.amortize(v.values, v.values.method, { noExtra: true }) : null;
    state.expanded = {};
    if (state.result.rows.length) state.expanded[state.result.rows[0].year] = true;
    renderAll();
    return true;
  }

  function renderAll() {
    renderSummary();
    renderComparison();
    renderChartArea();
    renderScheduleArea();
    /* @feature csv-export */
    refreshExport();
    /* @end csv-export */
    var has = !!state.result;
    ['expand-all', 'collapse-all', 'export-btn'].forEach(function (id) {
      var b = $(id);
      if (b) b.disabled = !has;
    });
  }

  function placeholder(icon, title, text) {
    var html = '';
    /* @feature empty-state */
    html = '<div class="empty">' + icon +
      '<div class="empty-title">' + esc(title) + '</div>' +
      '<div class="empty-text">' + esc(text) + '</div></div>';
    /* @end empty-state */
    return html;
  }
  var ICON_CALC = '<svg class="empty-icon" viewBox="0 0 48 48" aria-hidden="true"><rect x="10" y="5" width="28" height="38" rx="5" fill="#e6f4f1"/><rect x="15" y="10" width="18" height="8" rx="2" fill="#0f766e"/><g fill="#5eaaa0"><circle cx="17" cy="25" r="2.2"/><circle cx="24" cy="25" r="2.2"/><circle cx="31" cy="25" r="2.2"/><circle cx="17" cy="32" r="2.2"/><circle cx="24" cy="32" r="2.2"/><circle cx="31" cy="32" r="2.2"/><circle cx="17" cy="38" r="2.2"/><circle cx="24" cy="38" r="2.2"/><circle cx="31" cy="38" r="2.2"/></g></svg>';
  var ICON_CHART = '<svg class="empty-icon" viewBox="0 0 48 48" aria-hidden="true"><rect x="6" y="6" width="36" height="36" rx="6" fill="#eef2ff"/><rect x="12" y="26" width="5" height="10" rx="1" fill="#93c5fd"/><rect x="20" y="20" width="5" height="16" rx="1" fill="#93c5fd"/><rect x="28" y="15" width="5" height="21" rx="1" fill="#93c5fd"/><path d="M11 14 L22 19 L36 30" stroke="#1e3a8a" stroke-width="2.2" fill="none" stroke-linecap="round"/></svg>';
  var ICON_TABLE = '<svg class="empty-icon" viewBox="0 0 48 48" aria-hidden="true"><rect x="6" y="8" width="36" height="32" rx="5" fill="#f1f5f9"/><rect x="6" y="8" width="36" height="8" rx="4" fill="#cbd5e1"/><g stroke="#cbd5e1" stroke-width="2"><line x1="10" y1="23" x2="38" y2="23"/><line x1="10" y1="29" x2="38" y2="29"/><line x1="10" y1="35" x2="38" y2="35"/></g></svg>';

  /* --------------------------------------------------------------- summary */

  function stat(label, value, sub, tone) {
    return '<div class="stat' + (tone ? ' stat-' + tone : '') + '" role="group" aria-label="' + esc(label) + '">' +
      '<div class="stat-label">' + esc(label) + '</div>' +
      '<div class="stat-value">' + esc(value) + '</div>' +
      (sub ? '<div class="stat-sub">' + esc(sub) + '</div>' : '') + '</div>';
  }

  function renderSummary() {
    var el = $('summary'), meta = $('summary-meta');
    if (!el) return;
    var res = state.result, v = state.values;
    if (!res) {
      if (meta) meta.textContent = '';
      el.innerHTML = placeholder(ICON_CALC, 'Your payment plan will appear here',
        'Enter the loan details and press Calculate.');
      return;
    }
    var t = res.totals, rows = res.rows, last = rows[rows.length - 1];
    var r = v.rate / 100 / 12;
    if (meta) {
      meta.textContent = usdWhole(Math.round(v.amount * 100)) + ' at ' + v.rate + '% for ' + v.term +
        (v.term === 1 ? ' year' : ' years') + ' · ' + METHOD_NAMES[res.method] +
        ' · from ' + L.monthLabel(v.start.year, v.start.month);
    }
    var cards = [];
    if (res.method === PRIN) {
      var dec = Math.round(t.regularPayment * r);
      cards.push(stat('First payment', L.usd(t.firstPayment),
        dec > 0 ? 'then decreasing by ' + L.usd(dec) + ' each month' : 'no interest, so payments stay level', 'accent'));
      cards.push(stat('Last payment', L.usd(t.lastPayment), 'final instalment'));
    } else {
      cards.push(stat('Monthly payment', L.usd(t.regularPayment),
        'final payment ' + L.usd(t.lastPayment), 'accent'));
    }
    cards.push(stat('Total interest', L.usd(t.interest),
      'on a ' + usdWhole(Math.round(v.amount * 100)) + ' loan'));
    cards.push(stat('Total paid', L.usd(t.paid), 'principal + interest'));
    /* @feature payoff-date */
    cards.push(stat('Payoff date', L.monthLabel(last.year, last.month), t.months + ' payments'));
    /* @end payoff-date */
    /* @broken payoff-date */
    var payoff = L.addMonths(v.start, t.months);
    cards.push(stat('Payoff date', L.monthLabel(payoff.year, payoff.month), t.months + ' payments'));
    /* @end payoff-date */
    if (state.baseline) {
      var saved = state.baseline.totals.interest - t.interest;
      var sooner = state.baseline.totals.months - t.months;
      cards.push(stat('Interest saved', L.usd(saved),
        sooner > 0 ? 'paid off ' + L.duration(sooner) + ' sooner' : 'same payoff date', 'good'));
    }
    el.innerHTML = '<div class="stats">' + cards.join('') + '</div>';
  }

  /* ------------------------------------------------------------ comparison */

  function renderComparison() {
    var el = $('comparison');
    if (!el) return;
    if (!state.result) {
      el.innerHTML = placeholder(ICON_TABLE, 'Compare repayment methods',
        'See equal installment and equal principal side by side once you calculate.');
      return;
    }
    var cmp = null;
    /* @feature comparison */
    cmp = { i: L.amortize(state.values, INST), p: L.amortize(state.values, PRIN) };
    /* @end comparison */
    /* @broken comparison */
    cmp = { i: L.amortize(state.values, INST, { noExtra: true }), p: L.amortize(state.values, PRIN, { noExtra: true }) };
    /* @end comparison */
    if (!cmp) { el.innerHTML = ''; return; }
    var a = cmp.i.totals, b = cmp.p.totals;
    var lastA = cmp.i.rows[cmp.i.rows.length - 1], lastB = cmp.p.rows[cmp.p.rows.length - 1];
    var sel = state.result.method;
    function diff(x, y) {
      var d = y - x;
      if (d === 0) return '<span class="diff diff-zero">—</span>';
      return '<span class="diff ' + (d < 0 ? 'diff-good' : 'diff-bad') + '">' +
        (d > 0 ? '+' : '−') + L.usd(Math.abs(d)) + '</span>';
    }
    function row(label, x, y, d) {
      return '<tr><th scope="row">' + label + '</th><td>' + x + '</td><td>' + y + '</td><td>' + d + '</td></tr>';
    }
    function head(m, name) {
      return '<th scope="col" class="' + (sel === m ? 'is-selected' : '') + '">' + name +
        (sel === m ? ' <span class="badge">Selected</span>' : '') + '</th>';
    }
    var html = '<div class="table-wrap"><table class="cmp"><thead><tr><th scope="col"><span class="sr-only">Measure</span></th>' +
      head(INST, 'Equal installment') + head(PRIN, 'Equal principal') +
      '<th scope="col">Difference</th></tr></thead><tbody>' +
      row('First payment', L.usd(a.firstPayment), L.usd(b.firstPayment), diff(a.firstPayment, b.firstPayment)) +
      row('Last payment', L.usd(a.lastPayment), L.usd(b.lastPayment), diff(a.lastPayment, b.lastPayment)) +
      row('Total interest', L.usd(a.interest), L.usd(b.interest), diff(a.interest, b.interest)) +
      row('Total paid', L.usd(a.paid), L.usd(b.paid), diff(a.paid, b.paid)) +
      row('Payoff date', L.monthLabel(lastA.year, lastA.month), L.monthLabel(lastB.year, lastB.month),
        a.months === b.months ? '<span class="diff diff-zero">—</span>' :
          '<span class="diff">' + (b.months < a.months ? L.duration(a.months - b.months) + ' sooner' : L.duration(b.months - a.months) + ' later') + '</span>') +
      '</tbody></table></div>';
    var saving = a.interest - b.interest;
    var verdict;
    if (saving > 0) {
      verdict = 'Equal principal saves <strong>' + L.usd(saving) + '</strong> in interest, but its first payment is <strong>' +
        L.usd(b.firstPayment - a.firstPayment) + '</strong> higher.';
    } else if (saving < 0) {
      verdict = 'Equal installment costs <strong>' + L.usd(-saving) + '</strong> less interest with these inputs.';
    } else {
      verdict = 'Both methods cost the same interest with these inputs.';
    }
    el.innerHTML = html + '<p class="verdict">' + verdict + '</p>';
  }

  /* ----------------------------------------------------------------- chart */

  function niceMax(v) {
    if (!(v > 0)) return 1;
    var p = Math.pow(10, Math.floor(Math.log10(v)));
    var steps = [1, 1.2, 1.6, 2, 2.4, 3.2, 4, 6, 8, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * p >= v) return steps[i] * p;
    return 10 * p;
  }
  function shortMoney(cents) {
    var d = cents / 100;
    if (d >= 1e6) return '$' + (d / 1e6).toFixed(d % 1e6 === 0 ? 0 : 1) + 'M';
    if (d >= 1e3) return '$' + Math.round(d / 1e3) + 'k';
    return '$' + Math.round(d);
  }

  function renderChartArea() {
    var el = $('chart');
    if (!el) return;
    if (!state.result) {
      el.innerHTML = placeholder(ICON_CHART, 'No chart yet',
        'The balance and yearly principal / interest split are drawn after you calculate.');
      return;
    }
    var groups = L.groupByYear(state.result.rows);
    el.innerHTML = '';
    /* @feature chart */
    drawChart(el, groups);
    /* @end chart */
    /* @broken chart */
    drawChart(el, groups.slice(0, groups.length - 1));
    /* @end chart */
  }

  function drawChart(el, groups) {
    var NS = 'http://www.w3.org/2000/svg';
    var W = 760, H = 300, ml = 62, mr = 62, mt = 18, mb = 34;
    var pw = W - ml - mr, ph = H - mt - mb;
    var n = groups.length;
    if (!n) { el.innerHTML = ''; return; }
    var startBal = Math.round(state.values.amount * 100);
    var maxBal = niceMax(startBal);
    var maxYear = niceMax(Math.max.apply(null, groups.map(function (g) { return g.principal + g.extra + g.interest; })));
    var band = pw / n, bw = Math.max(2, Math.min(28, band * 0.64));
    function yb(v) { return mt + ph - (v / maxBal) * ph; }
    function yy(v) { return mt + ph - (v / maxYear) * ph; }
    function cx(i) { return ml + band * i + band / 2; }

    var parts = [];
    // grid + axes
    for (var t = 0; t <= 4; t++) {
      var gy = mt + ph - ph * t / 4;
      parts.push('<line class="grid" x1="' + ml + '" x2="' + (W - mr) + '" y1="' + gy + '" y2="' + gy + '"/>');
      parts.push('<text class="axis axis-left" x="' + (ml - 8) + '" y="' + (gy + 4) + '" text-anchor="end">' + shortMoney(maxBal * t / 4) + '</text>');
      parts.push('<text class="axis axis-right" x="' + (W - mr + 8) + '" y="' + (gy + 4) + '">' + shortMoney(maxYear * t / 4) + '</text>');
    }
    parts.push('<text class="axis-title" transform="translate(14 ' + (mt + ph / 2) + ') rotate(-90)" text-anchor="middle">Balance</text>');
    parts.push('<text class="axis-title" transform="translate(' + (W - 12) + ' ' + (mt + ph / 2) + ') rotate(90)" text-anchor="middle">Paid per year</text>');
    // stacked bars
    groups.forEach(function (g, i) {
      var x = cx(i) - bw / 2, base = mt + ph;
      var hp = (g.principal / maxYear) * ph, he = (g.extra / maxYear) * ph, hi = (g.interest / maxYear) * ph;
      parts.push('<g class="col" data-col="' + g.year + '">' +
        '<rect class="bar-principal" x="' + x + '" width="' + bw + '" y="' + (base - hp) + '" height="' + hp + '"/>' +
        (g.extra ? '<rect class="bar-extra" x="' + x + '" width="' + bw + '" y="' + (base - hp - he) + '" height="' + he + '"/>' : '') +
        '<rect class="bar-interest" x="' + x + '" width="' + bw + '" y="' + (base - hp - he - hi) + '" height="' + hi + '"/></g>');
    });
    // balance line: from the loan amount at the start to each year-end balance
    var pts = [[ml, yb(startBal)]].concat(groups.map(function (g, i) { return [ml + band * (i + 1), yb(g.endBalance)]; }));
    var line = pts.map(function (p, i) { return (i ? 'L' : 'M') + p[0].toFixed(1) + ' ' + p[1].toFixed(1); }).join(' ');
    parts.push('<path class="balance-area" d="' + line + ' L' + pts[pts.length - 1][0].toFixed(1) + ' ' + (mt + ph) + ' L' + ml + ' ' + (mt + ph) + ' Z"/>');
    parts.push('<path class="balance-line" d="' + line + '"/>');
    pts.slice(1).forEach(function (p) {
      parts.push('<circle class="balance-dot" cx="' + p[0].toFixed(1) + '" cy="' + p[1].toFixed(1) + '" r="' + (n > 20 ? 2 : 3) + '"/>');
    });
    // x labels
    var step = Math.max(1, Math.ceil(n / 10));
    groups.forEach(function (g, i) {
      // every step-th year, plus the last one unless it would crowd the previous label
      if (i % step === 0 || (i === n - 1 && (i % step) * 2 >= step)) {
        parts.push('<text class="axis axis-x" x="' + cx(i) + '" y="' + (H - 12) + '" text-anchor="middle">' + g.year + '</text>');
      }
    });
    parts.push('<line class="baseline" x1="' + ml + '" x2="' + (W - mr) + '" y1="' + (mt + ph) + '" y2="' + (mt + ph) + '"/>');
    // hover targets (one per calendar year)
    groups.forEach(function (g, i) {
      parts.push('<rect class="hit" data-year="' + g.year + '" data-index="' + i + '" x="' + (ml + band * i) + '" y="' + mt +
        '" width="' + band + '" height="' + ph + '" tabindex="0" aria-label="' + g.year + '"/>');
    });

    var first = groups[0].year, lastY = groups[n - 1].year;
    el.innerHTML = '<svg class="chart-svg" viewBox="0 0 ' + W + ' ' + H + '" role="img" aria-label="Balance and yearly principal and interest, ' +
      first + (lastY !== first ? '–' + lastY : '') + '" xmlns="' + NS + '">' + parts.join('') + '</svg>' +
      '<div class="tip" role="tooltip" hidden></div>';
    var svg = el.querySelector('svg');
    /* @feature chart-tooltip */
    bindTooltip(el, svg, groups, false);
    /* @end chart-tooltip */
    /* @broken chart-tooltip */
    bindTooltip(el, svg, groups, true);
    /* @end chart-tooltip */
  }

  function bindTooltip(el, svg, groups, runningTotals) {
    var tip = el.querySelector('.tip');
    function show(target) {
      var i = Number(target.getAttribute('data-index'));
      var g = groups[i];
      if (!g) return;
      var interest = g.interest;
      if (runningTotals) {
        interest = groups.slice(0, i + 1).reduce(function (s, x) { return s + x.interest; }, 0);
      }
      tip.innerHTML = '<div class="tip-title">' + g.year + '<span>' + g.count + (g.count === 1 ? ' payment' : ' payments') + '</span></div>' +
        '<div class="tip-row"><i class="sw sw-principal"></i>Principal<b>' + L.usd(g.principal) + '</b></div>' +
        (g.extra ? '<div class="tip-row"><i class="sw sw-extra"></i>Extra<b>' + L.usd(g.extra) + '</b></div>' : '') +
        '<div class="tip-row"><i class="sw sw-interest"></i>Interest<b>' + L.usd(interest) + '</b></div>' +
        '<div class="tip-row"><i class="sw sw-balance"></i>Balance at year end<b>' + L.usd(g.endBalance) + '</b></div>';
      tip.hidden = false;
      svg.querySelectorAll('.col').forEach(function (c) { c.classList.toggle('is-hot', c.getAttribute('data-col') === String(g.year)); });
      var box = svg.getBoundingClientRect(), host = el.getBoundingClientRect(), tb = target.getBoundingClientRect();
      var x = tb.left - host.left + tb.width / 2;
      var tw = tip.offsetWidth || 200;
      var left = x + 14;
      if (left + tw > host.width) left = x - tw - 14;
      tip.style.left = Math.max(4, left) + 'px';
      tip.style.top = Math.max(4, (box.top - host.top) + 10) + 'px';
    }
    function hide() {
      tip.hidden = true;
      svg.querySelectorAll('.col.is-hot').forEach(function (c) { c.classList.remove('is-hot'); });
    }
    svg.querySelectorAll('.hit').forEach(function (h) {
      h.addEventListener('mouseenter', function () { show(h); });
      h.addEventListener('focus', function () { show(h); });
      h.addEventListener('blur', hide);
    });
    svg.addEventListener('mouseleave', hide);
  }

  /* -------------------------------------------------------------- schedule */

  var SCHED_HEAD = '<thead><tr><th scope="col">#</th><th scope="col">Month</th><th scope="col">Payment</th>' +
    '<th scope="col">Principal</th><th scope="col">Interest</th><th scope="col">Extra</th><th scope="col">Balance</th></tr></thead>';

  function rowHtml(row) {
    return '<tr class="month-row"><td class="num-k">' + row.k + '</td><td>' + L.monthLabel(row.year, row.month) + '</td>' +
      '<td>' + L.money(row.payment) + '</td><td>' + L.money(row.principal) + '</td>' +
      '<td>' + L.money(row.interest) + '</td><td' + (row.extra ? ' class="has-extra"' : '') + '>' + L.money(row.extra) + '</td>' +
      '<td>' + L.money(row.balance) + '</td></tr>';
  }

  function renderScheduleArea() {
    var el = $('schedule');
    if (!el) return;
    if (!state.result) {
      el.innerHTML = placeholder(ICON_TABLE, 'No schedule yet',
        'Every monthly payment, grouped by calendar year, will be listed here.');
      return;
    }
    el.innerHTML = '';
    /* @feature schedule-table */
    renderSchedule(el);
    /* @end schedule-table */
  }

  function renderSchedule(el) {
    var res = state.result;
    var body;
    /* @feature year-groups */
    body = groupedBody(res);
    /* @end year-groups */
    /* @broken year-groups */
    body = groupedBody(res);
    /* @end year-groups */
    if (body === undefined) body = '<tbody>' + res.rows.map(rowHtml).join('') + '</tbody>';
    el.innerHTML = '<div class="table-wrap sched-wrap"><table class="sched">' + SCHED_HEAD + body + '</table></div>' +
      '<p class="sched-foot">' + res.rows.length + ' payments · ' + METHOD_NAMES[res.method] +
      (res.totals.extra ? ' · includes ' + L.usd(res.totals.extra) + ' of extra prepayments' : '') + '</p>';
  }

  function groupedBody(res) {
    var groups = L.groupByYear(res.rows);
    return groups.map(function (g) {
      var open = !!state.expanded[g.year];
      var sub = null;
      /* @feature year-subtotals */
      sub = g;
      /* @end year-subtotals */
      /* @broken year-subtotals */
      var upto = g.rows.slice(0, g.rows.length - 1);
      sub = upto.reduce(function (s, r) {
        s.payment += r.payment; s.principal += r.principal; s.interest += r.interest; s.extra += r.extra; s.endBalance = r.balance;
        return s;
      }, { payment: 0, principal: 0, interest: 0, extra: 0, endBalance: g.endBalance });
      /* @end year-subtotals */
      var head = '<tr class="year-row' + (open ? ' is-open' : '') + '">' +
        '<th scope="rowgroup" colspan="2"><button type="button" class="year-toggle" data-year="' + g.year + '" aria-expanded="' + open + '">' +
        '<svg viewBox="0 0 12 12" aria-hidden="true"><path d="M4 2.5 L8 6 L4 9.5" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/></svg>' +
        g.year + '</button><span class="year-count">' + g.count + (g.count === 1 ? ' payment' : ' payments') + '</span></th>' +
        (sub ? '<td>' + L.money(sub.payment) + '</td><td>' + L.money(sub.principal) + '</td><td>' + L.money(sub.interest) +
          '</td><td>' + L.money(sub.extra) + '</td><td>' + L.money(sub.endBalance) + '</td>'
          : '<td colspan="5"></td>') + '</tr>';
      return '<tbody class="year-group">' + head + (open ? g.rows.map(rowHtml).join('') : '') + '</tbody>';
    }).join('');
  }

  function toggleYear(year, open) {
    state.expanded[year] = open;
    renderScheduleArea();
    var btn = document.querySelector('.year-toggle[data-year="' + year + '"]');
    if (btn) btn.focus();
  }

  function bindScheduleControls() {
    var el = $('schedule');
    if (!el) return;
    el.addEventListener('click', function (e) {
      var btn = e.target.closest('.year-toggle');
      if (!btn) return;
      var year = Number(btn.getAttribute('data-year'));
      /* @broken year-groups */
      year = btn.closest('tbody').nextElementSibling ? year + 1 : year;
      /* @end year-groups */
      toggleYear(year, !state.expanded[year]);
    });
    on('expand-all', 'click', function () {
      if (!state.result) return;
      L.groupByYear(state.result.rows).forEach(function (g) { state.expanded[g.year] = true; });
      renderScheduleArea();
    });
    on('collapse-all', 'click', function () {
      state.expanded = {};
      renderScheduleArea();
    });
  }

  /* ---------------------------------------------------------------- export */

  function buildCsv(res) {
    var lines = ['Month,Date,Payment,Principal,Interest,Extra,Balance'];
    res.rows.forEach(function (r) {
      lines.push([r.k, L.monthIso(r.year, r.month), L.plain(r.payment), L.plain(r.principal),
        L.plain(r.interest), L.plain(r.extra), L.plain(r.balance)].join(','));
    });
    return lines.join('\n');
  }

  function refreshExport() {
    var panel = $('export-panel'), ta = $('csv-text'), meta = $('csv-meta'), btn = $('export-btn');
    if (!panel || !ta) return;
    if (!state.result || !state.exportOpen) {
      panel.hidden = true;
      if (!state.result) { ta.value = ''; state.exportOpen = false; }
      if (btn) btn.setAttribute('aria-expanded', 'false');
      return;
    }
    ta.value = buildCsv(state.result);
    if (meta) meta.textContent = (state.result.rows.length + 1) + ' lines · ' + state.result.rows.length + ' payments · ' + METHOD_NAMES[state.result.method];
    panel.hidden = false;
    if (btn) btn.setAttribute('aria-expanded', 'true');
  }

  function bindExport() {
    on('export-btn', 'click', function () {
      if (!state.result) return;
      state.exportOpen = !state.exportOpen;
      refreshExport();
      var ta = $('csv-text');
      if (state.exportOpen && ta) { ta.focus(); ta.select(); ta.scrollTop = 0; }
    });
    on('copy-btn', 'click', function () {
      var ta = $('csv-text'), btn = $('copy-btn');
      if (!ta) return;
      function done(ok) {
        btn.textContent = ok ? 'Copied!' : 'Press Ctrl+C to copy';
        setTimeout(function () { btn.textContent = 'Copy to clipboard'; }, 1800);
      }
      ta.focus();
      ta.select();
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(ta.value).then(function () { done(true); }, function () {
          var ok = false;
          try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
          done(ok);
        });
      } else {
        var ok = false;
        try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
        done(ok);
      }
    });
  }

  /* -------------------------------------------------------------- products */

  // Why a product record cannot be used, or null when it is fine. 'skip' = not listed at all.
  function productIssue(p) {
    if (!p || typeof p !== 'object' || typeof p.name !== 'string' || !p.name.trim()) return 'skip';
    if (p.rate === null || p.rate === undefined || p.rate === '') return 'rate not published';
    if (typeof p.rate !== 'number' || !isFinite(p.rate) || p.rate < 0 || p.rate > L.LIMITS.rateMax) return 'invalid rate';
    if (typeof p.amount !== 'number' || !isFinite(p.amount) || p.amount < L.LIMITS.amountMin || p.amount > L.LIMITS.amountMax) return 'invalid amount';
    if (typeof p.termYears !== 'number' || Math.floor(p.termYears) !== p.termYears ||
        p.termYears < L.LIMITS.termMin || p.termYears > L.LIMITS.termMax) return 'term outside 1–40 years';
    if (p.method !== INST && p.method !== PRIN) return 'unsupported repayment method';
    return null;
  }

  function loadProducts() {
    return fetch('data/loan_products.json', { cache: 'no-store' })
      .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
      .then(function (data) { return Array.isArray(data && data.products) ? data.products : []; });
  }

  function populateProducts(list, checkAll) {
    var sel = $('product');
    if (!sel) return;
    state.products = [];
    list.forEach(function (p) {
      var issue = null;
      /* @feature preset-guard */
      issue = productIssue(p);
      /* @end preset-guard */
      /* @broken preset-guard */
      issue = p && (p.rate === null || p.rate === undefined) ? 'rate not published' : null;
      /* @end preset-guard */
      if (issue === 'skip') return;
      state.products.push({ product: p, issue: issue });
    });
    var groups = {};
    var order = [];
    state.products.forEach(function (entry, i) {
      var cat = entry.product.category || 'Other';
      if (!groups[cat]) { groups[cat] = []; order.push(cat); }
      groups[cat].push('<option value="' + i + '"' + (entry.issue ? ' disabled' : '') + '>' + esc(entry.product.name) +
        (entry.issue ? ' — unavailable' : '') + '</option>');
    });
    sel.innerHTML = '<option value="">Custom</option>' + order.map(function (c) {
      return '<optgroup label="' + esc(c === 'Mortgage' ? 'Mortgages' : c === 'Auto' ? 'Auto loans' : c === 'Personal' ? 'Personal & other' : c) + '">' +
        groups[c].join('') + '</optgroup>';
    }).join('');
    var bad = state.products.filter(function (e) { return e.issue; }).length;
    var note = $('product-note');
    if (note) {
      note.textContent = bad ? bad + (bad === 1 ? ' product is' : ' products are') + ' unavailable because of incomplete or invalid data.' : '';
      note.hidden = !bad;
    }
  }

  function productHint(entry, edited) {
    var hint = $('product-hint');
    if (!hint) return;
    if (!entry) {
      hint.textContent = edited ? 'Edited — this is now a custom loan.' : 'Pick a product to prefill the form, or enter your own numbers.';
      return;
    }
    var p = entry.product;
    hint.textContent = p.lender + ' · ' + p.rate + '% · ' + p.termYears + ' yrs — ' + (p.description || '');
  }

  function applyProduct(idx, keepMethod) {
    var entry = state.products[idx];
    if (!entry || entry.issue) { productHint(null); return; }
    var p = entry.product;
    setVal('amount', p.amount);
    setVal('rate', p.rate);
    setVal('term', p.termYears);
    if (!keepMethod) setMethod(p.method);
    showErrors({});
    productHint(entry);
  }

  function onProductChange(keepMethod) {
    var sel = $('product');
    if (!sel) return;
    if (sel.value === '') { productHint(null); return; }
    applyProduct(Number(sel.value), keepMethod);
  }

  function markCustom() {
    var sel = $('product');
    if (sel && sel.value !== '') { sel.value = ''; productHint(null, true); }
  }

  /* ------------------------------------------------------------- scenarios */

  function readStoredScenarios() {
    var raw = localStorage.getItem(STORAGE_KEY);
    if (raw === null) return [];
    var list;
    /* @feature storage-guard */
    try {
      list = JSON.parse(raw);
      if (!Array.isArray(list)) throw new Error('not a list');
      list = list.filter(function (s) {
        return s && typeof s.name === 'string' && s.name.trim() && s.inputs && typeof s.inputs === 'object';
      });
    } catch (e) {
      localStorage.removeItem(STORAGE_KEY);
      scenarioMsg('Saved scenarios could not be read and were reset.', 'warn');
      return [];
    }
    return list;
    /* @end storage-guard */
    list = JSON.parse(raw);
    return list.map(function (s) { s.name = s.name.trim(); return s; });
  }

  function writeStoredScenarios() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(state.scenarios));
    } catch (e) {
      scenarioMsg('Could not save to this browser (storage is full or disabled).', 'warn');
    }
  }

  function scenarioMsg(text, tone) {
    var el = $('scenario-msg');
    if (!el) return;
    el.textContent = text || '';
    el.className = 'form-msg' + (tone ? ' form-msg-' + tone : '');
  }

  function describeInputs(inp) {
    var s = usdWhole(Math.round(inp.amount * 100)) + ' · ' + inp.rate + '% · ' + inp.term + (inp.term === 1 ? ' yr' : ' yrs') +
      ' · ' + METHOD_NAMES[inp.method];
    if (inp.extra) s += ' · +' + usdWhole(Math.round(inp.extra * 100)) + '/mo';
    return s;
  }

  function renderScenarios() {
    var list = $('scenario-list'), empty = $('scenario-empty');
    if (!list) return;
    if (empty) empty.hidden = state.scenarios.length > 0;
    list.innerHTML = state.scenarios.map(function (s, i) {
      var v = s.inputs;
      var vals = { amount: v.amount, rate: v.rate, term: v.term, extra: v.extra || 0, method: v.method,
        start: L.parseMonth(v.start) || { year: 2025, month: 1 } };
      var first = '';
      try {
        var res = L.amortize(vals, vals.method);
        first = (vals.method === PRIN ? 'First payment ' : 'Monthly ') + L.usd(res.totals.firstPayment);
      } catch (e) { first = ''; }
      return '<li class="scenario"><div class="scenario-main"><div class="scenario-name">' + esc(s.name) + '</div>' +
        '<div class="scenario-sub">' + esc(describeInputs(vals)) + '</div>' +
        (first ? '<div class="scenario-sub2">' + esc(first) + ' · from ' + esc(L.monthLabel(vals.start.year, vals.start.month)) + '</div>' : '') + '</div>' +
        '<div class="scenario-actions"><button type="button" class="btn btn-small" data-load="' + i + '">Load</button>' +
        '<button type="button" class="btn btn-small btn-danger-ghost" data-delete="' + i + '">Delete</button></div></li>';
    }).join('');
  }

  function saveScenario(e) {
    e.preventDefault();
    var nameEl = $('scenario-name');
    var name = nameEl ? nameEl.value.trim() : '';
    if (!name) {
      scenarioMsg('Enter a scenario name.', 'error');
      if (nameEl) nameEl.focus();
      return;
    }
    var v = L.validate(readForm());
    if (!v.ok) {
      showErrors(v.errors);
      scenarioMsg('Fix the highlighted fields before saving.', 'error');
      return;
    }
    var sel = $('product');
    var entry = sel && sel.value !== '' ? state.products[Number(sel.value)] : null;
    var item = {
      name: name,
      savedAt: new Date().toISOString(),
      productId: entry ? entry.product.id : null,
      inputs: {
        amount: v.values.amount, rate: v.values.rate, term: v.values.term, method: v.values.method,
        start: L.monthIso(v.values.start.year, v.values.start.month), extra: v.values.extra
      }
    };
    var existing = -1;
    state.scenarios.forEach(function (s, i) { if (s.name.toLowerCase() === name.toLowerCase()) existing = i; });
    if (existing >= 0) state.scenarios[existing] = item; else state.scenarios.push(item);
    /* @feature scenario-storage */
    writeStoredScenarios();
    /* @end scenario-storage */
    /* @broken scenario-storage */
    writeStoredScenarios();
    /* @end scenario-storage */
    renderScenarios();
    scenarioMsg((existing >= 0 ? 'Updated “' : 'Saved “') + name + '”.', 'ok');
    if (nameEl) nameEl.value = '';
  }

  function loadScenario(i, partial) {
    var s = state.scenarios[i];
    if (!s) return;
    var v = s.inputs;
    var sel = $('product');
    if (sel) sel.value = '';
    productHint(null);
    setVal('amount', v.amount);
    setVal('rate', v.rate);
    setVal('term', v.term);
    setVal('start', v.start);
    if (!partial) {
      setVal('extra', v.extra ? v.extra : '');
      setMethod(v.method);
    }
    calculate();
    scenarioMsg('Loaded “' + s.name + '”.', 'ok');
  }

  function deleteScenario(i) {
    var s = state.scenarios[i];
    if (!s) return;
    state.scenarios.splice(i, 1);
    /* @feature scenario-storage */
    writeStoredScenarios();
    /* @end scenario-storage */
    renderScenarios();
    scenarioMsg('Deleted “' + s.name + '”.', '');
  }

  function bindScenarios(partialLoad) {
    on('scenario-form', 'submit', saveScenario);
    on('scenario-list', 'click', function (e) {
      var load = e.target.closest('[data-load]'), del = e.target.closest('[data-delete]');
      if (load) loadScenario(Number(load.getAttribute('data-load')), partialLoad);
      if (del) deleteScenario(Number(del.getAttribute('data-delete')));
    });
    renderScenarios();
  }

  /* ------------------------------------------------------------------ init */

  function init() {
    resetForm();
    on('loan-form', 'submit', function (e) { e.preventDefault(); calculate(); });
    on('reset', 'click', resetForm);
    ['amount', 'rate', 'term', 'start', 'extra'].forEach(function (f) {
      on(f, 'input', function () { clearFieldError(f); if (f !== 'start' && f !== 'extra') markCustom(); });
    });
    document.querySelectorAll('input[name="method"]').forEach(function (r) {
      r.addEventListener('change', markCustom);
    });
    bindScheduleControls();
    /* @feature csv-export */
    bindExport();
    /* @end csv-export */
    /* @broken csv-export */
    bindExport();
    /* @end csv-export */

    /* @feature scenarios */
    /* @feature scenario-storage */
    state.scenarios = readStoredScenarios();
    /* @end scenario-storage */
    /* @broken scenario-storage */
    state.scenarios = readStoredScenarios();
    /* @end scenario-storage */
    bindScenarios(false);
    /* @end scenarios */
    /* @broken scenarios */
    /* @feature scenario-storage */
    state.scenarios = readStoredScenarios();
    /* @end scenario-storage */
    /* @broken scenario-storage */
    state.scenarios = readStoredScenarios();
    /* @end scenario-storage */
    bindScenarios(true);
    /* @end scenarios */

    /* @feature product-presets */
    on('product', 'change', function () { onProductChange(false); });
    loadProducts().then(populateProducts, function () {
      var hint = $('product-hint');
      if (hint) hint.textContent = 'Loan products could not be loaded — enter your loan details manually.';
    });
    /* @end product-presets */
    /* @broken product-presets */
    on('product', 'change', function () { onProductChange(true); });
    loadProducts().then(populateProducts, function () {});
    /* @end product-presets */
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
