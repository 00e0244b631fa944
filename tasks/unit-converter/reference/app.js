/* Unitwise — unit converter. Plain JS, no dependencies. */
(function () {
  'use strict';

  var DEFAULT_DIGITS = 6;
  var RATE_DIGITS = 6;
  var HISTORY_KEY = 'unitwise.history.v1';
  var PINS_KEY = 'unitwise.pins.v1';
  var HISTORY_MAX = 10;
  var NUM_RE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
  var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

  var hooks = {};
  var state = {
    cats: [],
    cat: null,
    from: null,
    to: null,
    digits: DEFAULT_DIGITS,
    skipped: [],
    rates: null,
    valid: false,
    resultNumber: '',
    resultText: '',
    history: [],
    pins: []
  };

  function $(id) { return document.getElementById(id); }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function show(el, on) { if (el) el.hidden = !on; }

  /* ------------------------------------------------------------ formatting */

  function group(intPart) { return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ','); }

  function sci(r, n) {
    var parts = r.toExponential(n - 1).split('e');
    var m = parts[0].indexOf('.') >= 0 ? parts[0].replace(/0+$/, '').replace(/\.$/, '') : parts[0];
    return m + 'e' + parts[1];
  }

  // n significant digits; trailing zeros dropped; thousands separators; scientific for tiny/huge.
  function fmt(v, n) {
    if (typeof v !== 'number' || !isFinite(v)) return '—';
    if (v === 0) return '0';
    var r = Number(v.toPrecision(n));
    if (r === 0) return '0';
    var a = Math.abs(r);
    /* @feature sci-notation */
    if (a >= 1e9 || a < 1e-4) return sci(r, n);
    /* @end sci-notation */
    /* @broken sci-notation */
    if (a >= 1e9 || a < 1e-6) return sci(r, n);
    /* @end sci-notation */
    var exp = Number(a.toExponential().split('e')[1]);
    var dec = Math.min(100, Math.max(0, n - 1 - exp));
    var s = a.toFixed(dec);
    if (s.indexOf('.') >= 0) s = s.replace(/0+$/, '').replace(/\.$/, '');
    var p = s.split('.');
    return (r < 0 ? '-' : '') + group(p[0]) + (p[1] ? '.' + p[1] : '');
  }

  function fmtMoney(v) {
    if (typeof v !== 'number' || !isFinite(v)) return '—';
    var s = Math.abs(v).toFixed(2);
    if (s === '0.00') return '0.00';
    var p = s.split('.');
    return (v < 0 ? '-' : '') + group(p[0]) + '.' + p[1];
  }

  function fmtDate(iso) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso || '');
    if (!m) return iso || '';
    return Number(m[3]) + ' ' + MONTHS[Number(m[2]) - 1] + ' ' + m[1];
  }
  function dayNumber(iso) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso || '');
    return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86400000 : NaN;
  }

  /* ------------------------------------------------------------ conversion */

  function toBase(v, u) {
    var off = 0;
    /* @feature temp-offset */
    off = u.offset || 0;
    /* @end temp-offset */
    /* @broken temp-offset */
    return v * u.factor + (u.offset || 0);
    /* @end temp-offset */
    return (v + off) * u.factor;
  }
  function fromBase(b, u) {
    var off = 0;
    /* @feature temp-offset */
    off = u.offset || 0;
    /* @end temp-offset */
    /* @broken temp-offset */
    off = u.offset || 0;
    /* @end temp-offset */
    return b / u.factor - off;
  }
  function convert(v, from, to) {
    if (typeof from.factor !== 'number' || typeof to.factor !== 'number') return NaN;
    return fromBase(toBase(v, from), to);
  }

  function unitById(cat, id) {
    for (var i = 0; i < cat.units.length; i++) if (cat.units[i].id === id) return cat.units[i];
    return null;
  }
  function selectable(cat) { return cat.units.filter(function (u) { return !u.noRate; }); }

  function formatOut(v, cat, digits) { return cat.isCurrency ? fmtMoney(v) : fmt(v, digits); }

  /* ------------------------------------------------------------ validation */

  function validate(raw, cat, from) {
    var s = String(raw).trim().replace(/,/g, '');
    var err = null;
    var v;
    /* @feature validation */
    if (s === '') err = 'Enter a value to convert.';
    else if (!NUM_RE.test(s)) err = '“' + String(raw).trim() + '” is not a valid number.';
    v = Number(s);
    /* @end validation */
    /* @broken validation */
    v = parseFloat(s);
    if (s === '') err = 'Enter a value to convert.';
    else if (isNaN(v)) err = '“' + String(raw).trim() + '” is not a valid number.';
    /* @end validation */
    if (v === undefined) v = Number(s);
    if (err === null && (s === '' || !isFinite(v))) err = '';
    /* @feature negative-guard */
    if (err === null && v < 0 && !cat.allow_negative) {
      err = (cat.isCurrency ? 'Amount' : cat.name) + ' cannot be negative.';
    }
    /* @end negative-guard */
    /* @broken negative-guard */
    if (err === null && v < 0) {
      err = (cat.isCurrency ? 'Amount' : cat.name) + ' cannot be negative.';
    }
    /* @end negative-guard */
    /* @feature absolute-zero */
    if (err === null && typeof cat.min_base === 'number' && toBase(v, from) < cat.min_base - 1e-9) {
      err = String(raw).trim() + ' ' + from.symbol + ' is below absolute zero (' +
        fmt(fromBase(cat.min_base, from), 10) + ' ' + from.symbol + ').';
    }
    /* @end absolute-zero */
    /* @broken absolute-zero */
    if (err === null && typeof cat.min_base === 'number' && v < -273.15) {
      err = String(raw).trim() + ' ' + from.symbol + ' is below absolute zero (-273.15 °C).';
    }
    /* @end absolute-zero */
    return { value: v, error: err, input: String(raw).trim() };
  }

  /* ------------------------------------------------------------ data loading */

  function validUnit(u) {
    return !!u && typeof u.id === 'string' && typeof u.name === 'string' && u.name !== '' &&
      typeof u.symbol === 'string' && typeof u.factor === 'number' && isFinite(u.factor) &&
      u.factor > 0 && (u.offset == null || (typeof u.offset === 'number' && isFinite(u.offset)));
  }

  function buildCategories(data) {
    var cats = [];
    (data && Array.isArray(data.categories) ? data.categories : []).forEach(function (raw) {
      if (!raw || typeof raw.id !== 'string' || !Array.isArray(raw.units)) return;
      var units = raw.units.slice();
      /* @feature unit-sanitize */
      units = units.filter(function (u) {
        if (validUnit(u)) return true;
        state.skipped.push(((u && u.name) || 'Unnamed unit') + ' (' + raw.name + ')');
        return false;
      });
      /* @end unit-sanitize */
      /* @broken unit-sanitize */
      units.forEach(function (u) {
        if (!validUnit(u)) state.skipped.push(((u && u.name) || 'Unnamed unit') + ' (' + raw.name + ')');
      });
      /* @end unit-sanitize */
      if (units.length < 2) return;
      cats.push({
        id: raw.id, name: raw.name, units: units, allow_negative: !!raw.allow_negative,
        min_base: typeof raw.min_base === 'number' ? raw.min_base : null,
        default_pair: Array.isArray(raw.default_pair) ? raw.default_pair : null
      });
    });
    return cats;
  }

  /* @feature currency */
  hooks.buildCurrency = function (data) {
    if (!data || !Array.isArray(data.rates)) return null;
    var units = [];
    data.rates.forEach(function (r) {
      if (!r || typeof r.code !== 'string') return;
      var rate = Number(r.rate);
      var ok = true;
      /* @feature rate-guard */
      ok = typeof r.rate === 'number' && isFinite(r.rate) && r.rate > 0 && !isNaN(dayNumber(r.date));
      /* @end rate-guard */
      /* @broken rate-guard */
      rate = parseFloat(r.rate);
      ok = isFinite(rate) && rate > 0;
      /* @end rate-guard */
      units.push({
        id: r.code, name: r.name || r.code, symbol: r.code, date: r.date,
        factor: ok ? 1 / rate : null, noRate: !ok
      });
    });
    var valid = units.filter(function (u) { return !u.noRate; });
    if (valid.length < 2) return null;
    state.rates = { as_of: data.as_of, stale_after_days: Number(data.stale_after_days) || 3, base: data.base };
    return {
      id: 'currency', name: 'Currency', isCurrency: true, units: units, allow_negative: false,
      min_base: null, default_pair: [data.base || 'USD', 'EUR']
    };
  };
  /* @end currency */
  /* @broken currency */
  hooks.buildCurrency = function (data) {
    if (!data || !Array.isArray(data.rates)) return null;
    var units = [];
    data.rates.forEach(function (r) {
      if (!r || typeof r.code !== 'string') return;
      var rate = Number(r.rate);
      var ok = typeof r.rate === 'number' && isFinite(r.rate) && r.rate > 0;
      units.push({ id: r.code, name: r.name || r.code, symbol: r.code, date: r.date,
        factor: ok ? rate : null, noRate: !ok });
    });
    state.rates = { as_of: data.as_of, stale_after_days: Number(data.stale_after_days) || 3, base: data.base };
    return { id: 'currency', name: 'Currency', isCurrency: true, units: units, allow_negative: false,
      min_base: null, default_pair: [data.base || 'USD', 'EUR'] };
  };
  /* @end currency */

  function loadJSON(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error(url + ' returned ' + r.status);
      return r.json();
    });
  }

  /* ------------------------------------------------------------ tabs & selects */

  function renderTabs() {
    var box = $('tabs');
    box.innerHTML = state.cats.map(function (c) {
      var sel = state.cat && c.id === state.cat.id;
      return '<button type="button" role="tab" id="tab-' + c.id + '" data-cat="' + c.id +
        '" aria-selected="' + (sel ? 'true' : 'false') + '" tabindex="' + (sel ? '0' : '-1') +
        '" class="tab">' + esc(c.name) + '</button>';
    }).join('');
  }

  function optionLabel(u) {
    return esc(u.name) + ' (' + esc(u.symbol) + ')' + (u.noRate ? ' — no rate' : '');
  }

  function renderSelects() {
    var cat = state.cat;
    var html = cat.units.map(function (u) {
      return '<option value="' + esc(u.id) + '">' + optionLabel(u) + '</option>';
    }).join('');
    $('from').innerHTML = html;
    $('to').innerHTML = html;
    $('from').value = state.from;
    $('to').value = state.to;
  }

  function setCategory(id) {
    var cat = state.cats.filter(function (c) { return c.id === id; })[0];
    if (!cat) return;
    state.cat = cat;
    var list = selectable(cat);
    var pair = [list[0].id, (list[1] || list[0]).id];
    /* @feature category-defaults */
    if (cat.default_pair && unitById(cat, cat.default_pair[0]) && unitById(cat, cat.default_pair[1])) {
      pair = cat.default_pair.slice(0, 2);
    }
    /* @end category-defaults */
    /* @broken category-defaults */
    if (cat.default_pair && unitById(cat, cat.default_pair[0]) && unitById(cat, cat.default_pair[1])) {
      pair = cat.default_pair.slice(0, 2);
    }
    $('value').value = '1';
    /* @end category-defaults */
    state.from = pair[0];
    state.to = pair[1];
    renderTabs();
    renderSelects();
  }

  function setPair(catId, from, to) {
    if (!state.cat || state.cat.id !== catId) setCategory(catId);
    if (!state.cat || state.cat.id !== catId) return false;
    if (unitById(state.cat, from)) state.from = from;
    if (unitById(state.cat, to)) state.to = to;
    renderSelects();
    return true;
  }

  /* ------------------------------------------------------------ main render */

  function render() {
    var cat = state.cat;
    if (!cat) return;
    var from = unitById(cat, state.from);
    var to = unitById(cat, state.to);
    var chk = validate($('value').value, cat, from);
    state.check = chk;
    var err = $('value-error');
    var input = $('value');
    if (chk.error) {
      err.textContent = chk.error;
      show(err, true);
      input.setAttribute('aria-invalid', 'true');
    } else {
      err.textContent = '';
      show(err, false);
      input.removeAttribute('aria-invalid');
    }

    var resultErr = $('result-error');
    show(resultErr, false);
    var noRate = [from, to].filter(function (u) { return u.noRate; });
    var out = NaN;
    if (chk.error === null && noRate.length) {
      resultErr.textContent = 'No valid exchange rate for ' + noRate.map(function (u) { return u.id; }).join(' and ') +
        '. Conversion is unavailable.';
      show(resultErr, true);
    } else if (chk.error === null) {
      out = convert(chk.value, from, to);
    }
    state.valid = chk.error === null && isFinite(out);
    state.out = out;
    state.resultNumber = state.valid ? formatOut(out, cat, state.digits) : '';
    state.resultText = state.valid ? state.resultNumber + ' ' + to.symbol : '';
    $('result-value').textContent = state.valid ? state.resultNumber : '—';
    $('result-unit').textContent = state.valid ? to.symbol : '';
    $('result').classList.toggle('is-empty', !state.valid);

    var formula = $('formula');
    show(formula, false);
    /* @feature formula-line */
    if (!cat.isCurrency) {
      formula.textContent = '1 ' + from.symbol + ' = ' + fmt(convert(1, from, to), state.digits) + ' ' + to.symbol;
      show(formula, !from.noRate && !to.noRate);
    }
    /* @end formula-line */
    /* @broken formula-line */
    if (!cat.isCurrency) {
      formula.textContent = '1 ' + to.symbol + ' = ' + fmt(convert(1, to, from), state.digits) + ' ' + from.symbol;
      show(formula, true);
    }
    /* @end formula-line */

    show($('rate-info'), false);
    show($('rate-warning'), false);
    if (cat.isCurrency) {
      if (hooks.rateInfo) hooks.rateInfo(from, to);
      if (hooks.staleWarning) hooks.staleWarning(from, to);
    }

    var copyBtn = $('copy');
    if (copyBtn) copyBtn.disabled = !state.valid;
    if (hooks.renderTable) hooks.renderTable();
    if (hooks.updatePinButton) hooks.updatePinButton();
  }

  /* @feature rate-info */
  hooks.rateInfo = function (from, to) {
    if (from.noRate || to.noRate) return;
    var el = $('rate-info');
    var date = from.date < to.date ? from.date : to.date;
    el.textContent = '1 ' + from.id + ' = ' + fmt(convert(1, from, to), RATE_DIGITS) + ' ' + to.id +
      ' · Rate date: ' + fmtDate(date);
    show(el, true);
  };
  /* @end rate-info */
  /* @broken rate-info */
  hooks.rateInfo = function (from, to) {
    if (from.noRate || to.noRate) return;
    var el = $('rate-info');
    el.textContent = '1 ' + from.id + ' = ' + fmt(convert(1, from, to), RATE_DIGITS) + ' ' + to.id +
      ' · Rate date: ' + fmtDate(state.rates.as_of);
    show(el, true);
  };
  /* @end rate-info */

  /* @feature stale-warning */
  hooks.staleWarning = function (from, to) {
    var box = $('rate-warning');
    var latest = dayNumber(state.rates.as_of);
    var msgs = [];
    [from, to].forEach(function (u, i) {
      if (u.noRate || (i === 1 && u.id === from.id)) return;
      var age = latest - dayNumber(u.date);
      if (age > state.rates.stale_after_days) {
        msgs.push('Stale rate: ' + u.id + ' was last updated on ' + fmtDate(u.date) + ', ' + age +
          ' days before the latest rates (' + fmtDate(state.rates.as_of) + '). The result may be out of date.');
      }
    });
    box.innerHTML = msgs.map(function (m) { return '<p>⚠ ' + esc(m) + '</p>'; }).join('');
    show(box, msgs.length > 0);
  };
  /* @end stale-warning */
  /* @broken stale-warning */
  hooks.staleWarning = function (from, to) {
    var box = $('rate-warning');
    var today = Math.floor(Date.now() / 86400000);
    var msgs = [];
    [from, to].forEach(function (u, i) {
      if (u.noRate || (i === 1 && u.id === from.id)) return;
      var age = today - dayNumber(u.date);
      if (age > state.rates.stale_after_days) {
        msgs.push('Stale rate: ' + u.id + ' was last updated on ' + fmtDate(u.date) + ', ' + age +
          ' days ago. The result may be out of date.');
      }
    });
    box.innerHTML = msgs.map(function (m) { return '<p>⚠ ' + esc(m) + '</p>'; }).join('');
    show(box, msgs.length > 0);
  };
  /* @end stale-warning */

  /* ------------------------------------------------------------ precision */

  function precisionControl() {
    var opts = '';
    for (var d = 3; d <= 10; d++) {
      opts += '<option value="' + d + '"' + (d === state.digits ? ' selected' : '') + '>' + d + '</option>';
    }
    $('precision-slot').innerHTML = '<label for="digits">Significant digits</label>' +
      '<select id="digits">' + opts + '</select>';
  }
  /* @feature precision */
  hooks.setupPrecision = function () {
    precisionControl();
    $('digits').addEventListener('change', function (e) {
      state.digits = Number(e.target.value) || DEFAULT_DIGITS;
      state.tableDigits = state.digits;
      render();
    });
  };
  /* @end precision */
  /* @broken precision */
  hooks.setupPrecision = function () {
    precisionControl();
    $('digits').addEventListener('change', function (e) {
      state.digits = Number(e.target.value) || DEFAULT_DIGITS;
      render();
    });
  };
  /* @end precision */

  /* ------------------------------------------------------------ all units table */

  /* @feature all-units */
  hooks.renderTable = function () {
    var body = $('all-body');
    if (!body) return;
    var cat = state.cat;
    var empty = $('all-empty');
    $('all-sub').textContent = state.valid ? state.check.input + ' ' + unitById(cat, state.from).symbol + ' in every ' +
      (cat.isCurrency ? 'currency' : cat.name.toLowerCase() + ' unit') : '';
    if (!state.valid) {
      body.innerHTML = '';
      show(empty, true);
      return;
    }
    show(empty, false);
    var digits = state.tableDigits || DEFAULT_DIGITS;
    var from = unitById(cat, state.from);
    body.innerHTML = cat.units.map(function (u) {
      var val = u.noRate ? 'No rate' : formatOut(convert(state.check.value, from, u), cat, digits);
      var cls = (u.id === state.from ? ' is-from' : '') + (u.id === state.to ? ' is-to' : '') + (u.noRate ? ' is-disabled' : '');
      return '<tr class="pick' + cls + '" data-unit="' + esc(u.id) + '" tabindex="0"' +
        (u.id === state.to ? ' aria-current="true"' : '') + '>' +
        '<td>' + esc(u.name) + '</td><td class="sym">' + esc(u.symbol) + '</td><td class="num">' + esc(val) + '</td></tr>';
    }).join('');
  };
  /* @end all-units */

  /* @feature table-pick */
  hooks.pickRow = function (unitId) {
    var u = unitById(state.cat, unitId);
    if (!u || u.noRate) return;
    state.to = unitId;
    $('to').value = unitId;
    render();
  };
  /* @end table-pick */
  /* @broken table-pick */
  hooks.pickRow = function (unitId) {
    var u = unitById(state.cat, unitId);
    if (!u || u.noRate) return;
    state.from = unitId;
    $('from').value = unitId;
    render();
  };
  /* @end table-pick */

  /* ------------------------------------------------------------ storage helpers */

  function readList(key) {
    var raw;
    try { raw = localStorage.getItem(key); } catch (e) { return { list: [], broken: false }; }
    if (raw == null) return { list: [], broken: false };
    try {
      var v = JSON.parse(raw);
      if (!Array.isArray(v)) throw new Error('not a list');
      return { list: v.filter(function (x) { return x && typeof x.cat === 'string' && typeof x.from === 'string' && typeof x.to === 'string'; }), broken: false };
    } catch (e) {
      return { list: [], broken: true };
    }
  }
  function writeList(key, list) {
    try { localStorage.setItem(key, JSON.stringify(list)); } catch (e) { /* storage full or blocked */ }
  }
  function catName(id) {
    var c = state.cats.filter(function (x) { return x.id === id; })[0];
    return c ? c.name : id;
  }
  function symbolOf(catId, unitId) {
    var c = state.cats.filter(function (x) { return x.id === catId; })[0];
    var u = c && unitById(c, unitId);
    return u ? u.symbol : unitId;
  }

  /* ------------------------------------------------------------ history */

  /* @feature history */
  hooks.loadHistory = function () {
    var r = readList(HISTORY_KEY);
    state.history = r.list.filter(function (h) { return typeof h.text === 'string'; });
    if (r.broken) {
      $('history-note').textContent = 'Saved history could not be read and was reset.';
      show($('history-note'), true);
      writeList(HISTORY_KEY, []);
    }
    hooks.renderHistory();
  };
  hooks.renderHistory = function () {
    var list = $('history-list');
    list.innerHTML = state.history.map(function (h, i) {
      return '<li><button type="button" class="hist-item" data-i="' + i + '"><span class="hist-text">' + esc(h.text) +
        '</span> <span class="tag">' + esc(catName(h.cat)) + '</span></button></li>';
    }).join('');
    show($('history-empty'), state.history.length === 0);
    var clear = $('clear-history');
    if (clear) clear.disabled = state.history.length === 0;
  };
  hooks.record = function () {
    if (!state.valid) return;
    var entry = {
      cat: state.cat.id, from: state.from, to: state.to, input: state.check.input,
      text: state.check.input + ' ' + unitById(state.cat, state.from).symbol + ' → ' + state.resultText
    };
    var top = state.history[0];
    if (top && top.text === entry.text && top.cat === entry.cat) return;
    state.history.unshift(entry);
    if (hooks.capHistory) state.history = hooks.capHistory(state.history);
    writeList(HISTORY_KEY, state.history);
    hooks.renderHistory();
  };
  hooks.restoreHistory = function (i) {
    var h = state.history[i];
    if (!h) return;
    if (hooks.applyHistory) hooks.applyHistory(h);
    $('value').value = h.input;
    render();
  };
  /* @end history */

  /* @feature history-restore */
  hooks.applyHistory = function (h) { setPair(h.cat, h.from, h.to); };
  /* @end history-restore */
  /* @broken history-restore */
  hooks.applyHistory = function (h) {
    if (state.cat.id === h.cat) setPair(h.cat, h.from, h.to);
    else { setCategory(h.cat); }
  };
  /* @end history-restore */

  /* @feature history-cap */
  hooks.capHistory = function (list) { return list.slice(0, HISTORY_MAX); };
  /* @end history-cap */
  /* @broken history-cap */
  hooks.capHistory = function (list) { return list.length > HISTORY_MAX + 1 ? list.slice(0, HISTORY_MAX + 1) : list; };
  /* @end history-cap */

  /* @feature history-clear */
  hooks.clearHistory = function () {
    state.history = [];
    writeList(HISTORY_KEY, []);
    show($('history-note'), false);
    if (hooks.renderHistory) hooks.renderHistory();
  };
  /* @end history-clear */

  /* ------------------------------------------------------------ pins */

  /* @feature pins */
  function pinLabel(p) { return symbolOf(p.cat, p.from) + ' → ' + symbolOf(p.cat, p.to); }
  function pinIndex() {
    for (var i = 0; i < state.pins.length; i++) {
      var p = state.pins[i];
      if (p.cat === state.cat.id && p.from === state.from && p.to === state.to) return i;
    }
    return -1;
  }
  hooks.loadPins = function () {
    var r = readList(PINS_KEY);
    state.pins = r.list.filter(function (p) {
      var c = state.cats.filter(function (x) { return x.id === p.cat; })[0];
      return c && unitById(c, p.from) && unitById(c, p.to);
    });
    if (r.broken) writeList(PINS_KEY, []);
    hooks.renderPins();
  };
  hooks.renderPins = function () {
    $('pin-list').innerHTML = state.pins.map(function (p, i) {
      var label = pinLabel(p);
      return '<li class="chip"><button type="button" class="chip-apply" data-i="' + i + '">' + esc(label) +
        ' <span class="tag">' + esc(catName(p.cat)) + '</span></button>' +
        '<button type="button" class="chip-remove" data-i="' + i + '" aria-label="Remove pin ' + esc(label) +
        '" title="Remove pin">×</button></li>';
    }).join('');
    show($('pins-empty'), state.pins.length === 0);
  };
  hooks.updatePinButton = function () {
    var b = $('pin');
    if (!b) return;
    var on = pinIndex() >= 0;
    b.setAttribute('aria-pressed', on ? 'true' : 'false');
    b.textContent = on ? '★ Pinned' : '☆ Pin pair';
    b.classList.toggle('is-on', on);
  };
  hooks.togglePin = function () {
    var i = pinIndex();
    if (i >= 0) state.pins.splice(i, 1);
    else state.pins.push({ cat: state.cat.id, from: state.from, to: state.to });
    writeList(PINS_KEY, state.pins);
    hooks.renderPins();
    hooks.updatePinButton();
  };
  hooks.removePin = function (i) {
    state.pins.splice(i, 1);
    writeList(PINS_KEY, state.pins);
    hooks.renderPins();
    hooks.updatePinButton();
  };
  /* @end pins */

  /* @feature pin-apply */
  hooks.applyPin = function (p) { if (setPair(p.cat, p.from, p.to)) render(); };
  /* @end pin-apply */
  /* @broken pin-apply */
  hooks.applyPin = function (p) {
    if (state.cat.id !== p.cat) return;
    if (setPair(p.cat, p.from, p.to)) render();
  };
  /* @end pin-apply */

  /* ------------------------------------------------------------ copy */

  function toast(msg) {
    var t = $('toast');
    t.textContent = msg;
    t.classList.add('is-on');
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { t.classList.remove('is-on'); }, 4000);
  }
  function writeClipboard(text) {
    function fallback() {
      var ta = document.createElement('textarea');
      ta.value = text;
      ta.setAttribute('readonly', '');
      ta.style.position = 'fixed';
      ta.style.opacity = '0';
      document.body.appendChild(ta);
      ta.select();
      try { document.execCommand('copy'); } catch (e) { /* ignore */ }
      document.body.removeChild(ta);
    }
    try {
      if (navigator.clipboard && navigator.clipboard.writeText) {
        return Promise.resolve(navigator.clipboard.writeText(text)).catch(fallback);
      }
    } catch (e) { /* fall through */ }
    fallback();
    return Promise.resolve();
  }
  /* @feature copy */
  hooks.copy = function () {
    if (!state.valid) return;
    var text = state.resultText;
    writeClipboard(text).then(function () { toast('Copied ' + text + ' to the clipboard'); });
    if (hooks.record) hooks.record();
  };
  /* @end copy */
  /* @broken copy */
  hooks.copy = function () {
    if (!state.valid) return;
    var text = String(state.out);
    writeClipboard(text).then(function () { toast('Copied ' + text + ' to the clipboard'); });
    if (hooks.record) hooks.record();
  };
  /* @end copy */

  /* ------------------------------------------------------------ swap */

  /* @feature swap */
  hooks.swap = function () {
    var f = state.from;
    state.from = state.to;
    state.to = f;
    $('from').value = state.from;
    $('to').value = state.to;
    render();
  };
  /* @end swap */
  /* @broken swap */
  hooks.swap = function () {
    var f = state.from;
    state.from = state.to;
    state.to = f;
    $('from').value = state.from;
    $('to').value = state.to;
    if (hooks.updatePinButton) hooks.updatePinButton();
  };
  /* @end swap */

  /* ------------------------------------------------------------ notices */

  function renderNotice() {
    var n = $('data-notice');
    if (!state.skipped.length) { show(n, false); return; }
    n.textContent = state.skipped.length + ' unit definition' + (state.skipped.length === 1 ? ' was' : 's were') +
      ' skipped because of invalid conversion data: ' + state.skipped.join(', ') + '.';
    show(n, true);
  }

  /* ------------------------------------------------------------ events */

  function wire() {
    $('tabs').addEventListener('click', function (e) {
      var b = e.target.closest('[role="tab"]');
      if (!b) return;
      setCategory(b.getAttribute('data-cat'));
      render();
    });
    $('tabs').addEventListener('keydown', function (e) {
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      var i = state.cats.indexOf(state.cat);
      var n = state.cats.length;
      var next = state.cats[(i + (e.key === 'ArrowRight' ? 1 : n - 1)) % n];
      setCategory(next.id);
      render();
      $('tab-' + next.id).focus();
    });
    $('value').addEventListener('input', render);
    $('value').addEventListener('keydown', function (e) {
      if (e.key === 'Enter') { render(); if (hooks.record) hooks.record(); }
    });
    $('from').addEventListener('change', function () { state.from = $('from').value; render(); });
    $('to').addEventListener('change', function () { state.to = $('to').value; render(); });
    var swap = $('swap');
    if (swap) swap.addEventListener('click', function () { if (hooks.swap) hooks.swap(); });
    var copy = $('copy');
    if (copy) copy.addEventListener('click', function () { if (hooks.copy) hooks.copy(); });
    var pin = $('pin');
    if (pin) pin.addEventListener('click', function () { if (hooks.togglePin) hooks.togglePin(); });
    var pins = $('pin-list');
    if (pins) pins.addEventListener('click', function (e) {
      var a = e.target.closest('.chip-apply');
      var r = e.target.closest('.chip-remove');
      if (r && hooks.removePin) hooks.removePin(Number(r.getAttribute('data-i')));
      else if (a && hooks.applyPin) hooks.applyPin(state.pins[Number(a.getAttribute('data-i'))]);
    });
    var hist = $('history-list');
    if (hist) hist.addEventListener('click', function (e) {
      var b = e.target.closest('.hist-item');
      if (b && hooks.restoreHistory) hooks.restoreHistory(Number(b.getAttribute('data-i')));
    });
    var clear = $('clear-history');
    if (clear) clear.addEventListener('click', function () { if (hooks.clearHistory) hooks.clearHistory(); });
    var body = $('all-body');
    if (body) {
      body.addEventListener('click', function (e) {
        var tr = e.target.closest('tr[data-unit]');
        if (tr && hooks.pickRow) hooks.pickRow(tr.getAttribute('data-unit'));
      });
      body.addEventListener('keydown', function (e) {
        var tr = e.target.closest('tr[data-unit]');
        if (tr && e.key === 'Enter' && hooks.pickRow) hooks.pickRow(tr.getAttribute('data-unit'));
      });
    }
  }

  /* ------------------------------------------------------------ boot */

  function boot(units, rates) {
    state.cats = buildCategories(units);
    if (rates && hooks.buildCurrency) {
      var cur = hooks.buildCurrency(rates);
      if (cur) state.cats.push(cur);
    }
    if (!state.cats.length) {
      $('load-error').textContent = 'No usable unit data was found. Check data/units.json.';
      show($('load-error'), true);
      return;
    }
    $('data-version').textContent = 'Conversion data ' + (units && units.version ? 'v' + units.version : '') +
      (rates && rates.as_of ? ' · Rates of ' + fmtDate(rates.as_of) : '');
    renderNotice();
    if (hooks.setupPrecision) hooks.setupPrecision();
    if (hooks.loadHistory) hooks.loadHistory();
    setCategory(state.cats[0].id);
    if (hooks.loadPins) hooks.loadPins();
    wire();
    render();
  }

  var unitsP = loadJSON('data/units.json');
  var ratesP = loadJSON('data/currency_rates.json').catch(function () {
    $('load-error').textContent = 'Currency rates could not be loaded; currency conversion is unavailable.';
    show($('load-error'), true);
    return null;
  });
  Promise.all([unitsP, ratesP]).then(function (res) { boot(res[0], res[1]); }, function () {
    $('load-error').textContent = 'Conversion data could not be loaded. Check that data/units.json is available.';
    show($('load-error'), true);
    $('data-version').textContent = 'No data';
  });
})();
