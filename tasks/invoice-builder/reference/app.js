/* Ledgerleaf — invoice builder for freelancers. Plain JS, no dependencies. */
(function () {
  'use strict';

  var DRAFTS_KEY = 'ledgerleaf.drafts';
  var SEQ_KEY = 'ledgerleaf.nextNumber';
  var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  var FALLBACK_CURRENCY = { code: 'USD', name: 'US dollar', symbol: '$', decimals: 2 };

  var S = {
    business: {},
    settings: {},
    currencies: {},      // code -> currency
    terms: [],           // valid payment terms
    taxes: [],           // valid tax rates
    clients: [],         // [{client, issue, termsNote}]
    currencyCode: 'USD',
    lines: [],           // [{id, desc, qty, price, tax}]
    lineSeq: 0,
    draftId: null,
    drafts: [],
    nextNumber: 1,
    attempted: false
  };

  function $(id) { return document.getElementById(id); }
  function on(id, ev, fn) { var el = $(id); if (el) el.addEventListener(ev, fn); }
  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  /* ------------------------------------------------------------ numbers & money */

  // '' -> {empty}; '1,250.50' / '$80.40' -> {ok, value}; 'abc' -> {bad}
  function parseNum(raw) {
    var s = String(raw == null ? '' : raw).trim();
    if (!s) return { empty: true };
    s = s.replace(/^[$€£¥]\s*/, '').replace(/,/g, '').replace(/\s*%$/, '');
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return { bad: true };
    return { ok: true, value: parseFloat(s) };
  }

  function roundHalfUp(x) {
    return x < 0 ? -Math.floor(-x + 0.5 + 1e-9) : Math.floor(x + 0.5 + 1e-9);
  }

  function currency(code) {
    return S.currencies[code || S.currencyCode] || FALLBACK_CURRENCY;
  }
  function decimalsOf(cur) {
    var d = 2;
    /* @feature minor-units */
    d = cur.decimals;
    /* @end minor-units */
    return d;
  }
  function symbolOf(cur) {
    var sym = '$';
    /* @feature currency-format */
    sym = cur.symbol;
    /* @end currency-format */
    return sym;
  }
  function toMinor(value, cur) { return roundHalfUp(value * Math.pow(10, decimalsOf(cur))); }
  function fmt(minor, cur) {
    cur = cur || currency();
    var d = decimalsOf(cur), p = Math.pow(10, d);
    var neg = minor < 0, a = Math.abs(minor);
    var ip = Math.floor(a / p), fp = a - ip * p;
    var s = String(ip).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    if (d > 0) s += '.' + String(fp).padStart(d, '0');
    return (neg ? '−' : '') + symbolOf(cur) + s;
  }
  function plainNum(v) {
    var parts = String(v).split('.');
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return parts.join('.');
  }

  /* ------------------------------------------------------------------- dates */

  function parseDate(s) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s || '');
    if (!m) return null;
    var d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
    return d.getUTCMonth() === +m[2] - 1 ? d : null;
  }
  function fmtDate(d) { return d ? MONTHS[d.getUTCMonth()] + ' ' + d.getUTCDate() + ', ' + d.getUTCFullYear() : ''; }
  function termById(id) {
    for (var i = 0; i < S.terms.length; i++) if (S.terms[i].id === id) return S.terms[i];
    return null;
  }
  function computeDue(issue, term) {
    if (!issue || !term) return null;
    /* @feature eom-terms */
    if (term.endOfMonth) return new Date(Date.UTC(issue.getUTCFullYear(), issue.getUTCMonth() + 1, 0));
    /* @end eom-terms */
    var days = typeof term.days === 'number' ? term.days : 30;
    return new Date(issue.getTime() + days * 86400000);
  }
  function dueHint(term) {
    if (!term) return '';
    if (term.endOfMonth) return 'Last day of the issue month';
    if (!term.days) return 'Same day as the issue date';
    return term.days + ' days after the issue date';
  }

  /* ------------------------------------------------------------ invoice number */

  function fmtNumber(n) {
    var pad = Number(S.settings.numberPadding) || 0;
    return (S.settings.invoicePrefix || '') + String(n).padStart(pad, '0');
  }
  function numericPart(number) {
    var m = /(\d+)\s*$/.exec(String(number || ''));
    return m ? parseInt(m[1], 10) : null;
  }
  function bumpSequence(number) {
    var n = numericPart(number);
    if (n !== null && n + 1 > S.nextNumber) S.nextNumber = n + 1;
    /* @feature sequence-persist */
    try { localStorage.setItem(SEQ_KEY, String(S.nextNumber)); } catch (e) { /* storage unavailable */ }
    /* @end sequence-persist */
  }
  function initSequence() {
    var n = parseInt(S.settings.nextInvoiceNumber, 10);
    S.nextNumber = isFinite(n) && n > 0 ? n : 1;
    S.drafts.forEach(function (d) {
      var k = numericPart(d.number);
      if (k !== null && k + 1 > S.nextNumber) S.nextNumber = k + 1;
    });
    /* @feature sequence-persist */
    var stored = parseInt(localStorage.getItem(SEQ_KEY), 10);
    if (isFinite(stored) && stored > S.nextNumber) S.nextNumber = stored;
    /* @end sequence-persist */
  }

  /* ------------------------------------------------------------------ setup */

  function indexSetup(setup) {
    S.business = setup.business || {};
    S.settings = setup.settings || {};
    S.currencies = {};
    (setup.currencies || []).forEach(function (c) {
      if (c && typeof c.code === 'string' && c.symbol && c.decimals >= 0 && c.decimals <= 3) S.currencies[c.code] = c;
    });
    if (!S.currencies.USD) S.currencies.USD = FALLBACK_CURRENCY;
    S.terms = (setup.paymentTerms || []).filter(function (t) {
      return t && t.id && t.label && (t.endOfMonth === true || (typeof t.days === 'number' && t.days >= 0 && Math.floor(t.days) === t.days));
    });
    S.taxes = (setup.taxRates || []).filter(function (t) {
      if (!t || !t.id || !t.label) return false;
      var ok = true;
      /* @feature tax-guard */
      ok = typeof t.rate === 'number' && isFinite(t.rate) && t.rate >= 0 && t.rate <= 100;
      /* @end tax-guard */
      return ok;
    });
    if (!S.taxes.length) S.taxes = [{ id: 'none', label: 'No tax', rate: 0 }];
  }

  function defaultCurrency() { return S.currencies[S.settings.defaultCurrency] ? S.settings.defaultCurrency : 'USD'; }
  function defaultTerms() { return termById(S.settings.defaultTerms) ? S.settings.defaultTerms : (S.terms[0] ? S.terms[0].id : ''); }
  function defaultTax() {
    var id = S.settings.defaultTaxRate;
    for (var i = 0; i < S.taxes.length; i++) if (S.taxes[i].id === id) return id;
    return S.taxes[0].id;
  }
  function taxById(id) {
    for (var i = 0; i < S.taxes.length; i++) if (S.taxes[i].id === id) return S.taxes[i];
    return null;
  }
  function taxLabel(t) { return t.label + ' ' + t.rate + '%'; }

  /* ---------------------------------------------------------------- clients */

  function clientIssue(c) {
    if (!c || typeof c !== 'object') return 'skip';
    var issue = null;
    /* @feature client-guard */
    if (typeof c.name !== 'string' || !c.name.trim()) return 'skip';
    var cur = c.currency == null || c.currency === '' ? defaultCurrency() : c.currency;
    if (!S.currencies[cur]) issue = 'unsupported currency ' + cur;
    /* @end client-guard */
    return issue;
  }

  function populateClients(list) {
    S.clients = [];
    list.forEach(function (c) {
      var issue = clientIssue(c);
      if (issue === 'skip') return;
      var entry = { client: c, issue: issue, termsNote: '' };
      /* @feature client-guard */
      if (c.terms != null && !termById(c.terms)) {
        var fallback = termById(defaultTerms());
        entry.termsNote = 'Payment terms “' + c.terms + '” are not recognised — ' + (fallback ? fallback.label : 'the default') + ' is used.';
      }
      /* @end client-guard */
      S.clients.push(entry);
    });
    S.clients.sort(function (a, b) { return String(a.client.name).localeCompare(String(b.client.name)); });
    var sel = $('client');
    if (!sel) return;
    sel.innerHTML = '<option value="">Choose a client…</option>' + S.clients.map(function (e, i) {
      return '<option value="' + i + '"' + (e.issue ? ' disabled' : '') + '>' + esc(e.client.name) +
        (e.issue ? ' — unavailable' : '') + '</option>';
    }).join('');
    var bad = S.clients.filter(function (e) { return e.issue; }).length;
    var note = $('client-note');
    if (note) {
      note.textContent = bad ? bad + (bad === 1 ? ' client is' : ' clients are') + ' unavailable because of an unsupported currency.' : '';
      note.hidden = !bad;
    }
  }

  function selectedClient() {
    var sel = $('client');
    if (!sel || sel.value === '') return null;
    var e = S.clients[Number(sel.value)];
    return e && !e.issue ? e : null;
  }
  function clientIndexById(id) {
    for (var i = 0; i < S.clients.length; i++) if (S.clients[i].client.id === id) return i;
    return -1;
  }

  function renderClientCard() {
    var box = $('client-card');
    if (!box) return;
    var e = selectedClient();
    if (!e) {
      box.innerHTML = '<p class="muted">Pick one of your saved clients to fill in the billing details.</p>';
      return;
    }
    var html = '';
    /* @feature client-card */
    var c = e.client, term = termById($('terms') ? $('terms').value : '');
    html = '<div class="cc-name">' + esc(c.name) + '</div>' +
      (c.contact ? '<div class="cc-line">Attn: ' + esc(c.contact) + '</div>' : '') +
      (Array.isArray(c.address) && c.address.length ? c.address.map(function (l) { return '<div class="cc-line">' + esc(l) + '</div>'; }).join('') : '<div class="cc-line muted">No address on file</div>') +
      (c.email ? '<div class="cc-line cc-mail">' + esc(c.email) + '</div>' : '') +
      '<div class="cc-tags"><span class="tag">Currency: ' + esc(S.currencyCode) + '</span>' +
      (term ? '<span class="tag">Terms: ' + esc(term.label) + '</span>' : '') + '</div>';
    /* @end client-card */
    box.innerHTML = (html || '<div class="cc-name">' + esc(e.client.name) + '</div>') +
      (e.termsNote ? '<p class="note-warn">' + esc(e.termsNote) + '</p>' : '');
  }

  function onClientChange() {
    var e = selectedClient();
    if (e) {
      /* @feature client-defaults */
      var c = e.client;
      S.currencyCode = c.currency && S.currencies[c.currency] ? c.currency : defaultCurrency();
      var t = $('terms');
      if (t) t.value = termById(c.terms) ? c.terms : defaultTerms();
      /* @end client-defaults */
    }
    renderCurrency();
    renderDue();
    renderClientCard();
    recalc();
  }

  /* ------------------------------------------------------------- currency UI */

  function renderCurrency() {
    var cur = currency();
    var chip = $('currency-chip');
    if (chip) chip.textContent = cur.code + ' · ' + cur.name;
    var head = $('price-head');
    if (head) head.textContent = 'Unit price (' + cur.code + ')';
    var unit = $('discount-unit');
    var fixed = discountType() === 'fixed';
    if (unit) unit.textContent = fixed ? cur.code : '%';
  }

  /* ----------------------------------------------------------------- due date */

  function renderDue() {
    var el = $('due-date'), hint = $('due-hint');
    var value = '', hintText = '';
    /* @feature due-date */
    var issue = parseDate($('issue-date') ? $('issue-date').value : '');
    var term = termById($('terms') ? $('terms').value : '');
    var due = computeDue(issue, term);
    value = fmtDate(due);
    hintText = due ? dueHint(term) : '';
    /* @end due-date */
    if (el) el.value = value;
    if (hint) hint.textContent = hintText;
  }

  /* -------------------------------------------------------------- line items */

  function newLine(data) {
    S.lineSeq += 1;
    data = data || {};
    return {
      id: S.lineSeq,
      desc: data.desc || '',
      qty: data.qty == null ? '' : String(data.qty),
      price: data.price == null ? '' : String(data.price),
      tax: data.tax && taxById(data.tax) ? data.tax : defaultTax()
    };
  }

  function evalLine(l, cur) {
    var blank = !l.desc.trim() && !l.qty.trim() && !l.price.trim();
    var out = { blank: blank, errors: {}, amount: null, rate: 0, tax: l.tax };
    if (blank) return out;
    var q = parseNum(l.qty), p = parseNum(l.price);
    if (q.ok && p.ok) out.amount = roundHalfUp(q.value * p.value * Math.pow(10, decimalsOf(cur)));
    /* @feature line-validation */
    if (!l.desc.trim()) out.errors.desc = 'Enter a description.';
    if (q.empty) out.errors.qty = 'Enter a quantity.';
    else if (q.bad) out.errors.qty = 'Quantity must be a number.';
    else if (q.value <= 0) out.errors.qty = 'Quantity must be greater than 0.';
    if (p.empty) out.errors.price = 'Enter a unit price.';
    else if (p.bad) out.errors.price = 'Unit price must be a number.';
    else if (p.value < 0) out.errors.price = 'Unit price cannot be negative.';
    if (out.errors.qty || out.errors.price) out.amount = null;
    /* @end line-validation */
    var t = null;
    /* @feature line-tax */
    t = taxById(l.tax);
    /* @end line-tax */
    out.rate = t ? t.rate : 0;
    out.taxLabel = t ? taxLabel(t) : '';
    out.taxName = t ? t.label : '';
    return out;
  }

  function lineRowHtml(l, i) {
    var n = i + 1;
    var taxCell = '';
    /* @feature line-tax */
    taxCell = '<td class="c-tax"><select data-f="tax" aria-label="Tax rate, line ' + n + '">' +
      S.taxes.map(function (t) {
        return '<option value="' + esc(t.id) + '"' + (t.id === l.tax ? ' selected' : '') + '>' + esc(taxLabel(t)) + '</option>';
      }).join('') + '</select></td>';
    /* @end line-tax */
    var removeBtn = '';
    /* @feature remove-line */
    removeBtn = '<button type="button" class="icon-btn" data-remove="' + l.id + '" aria-label="Remove line ' + n + '" title="Remove line ' + n + '">' +
      '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/></svg></button>';
    /* @end remove-line */
    return '<tr data-line="' + l.id + '">' +
      '<td class="c-desc"><input data-f="desc" type="text" aria-label="Description, line ' + n + '" placeholder="What did you do?" value="' + esc(l.desc) + '">' +
      '<p class="error" data-err="desc" hidden></p></td>' +
      '<td class="c-qty"><input data-f="qty" type="text" inputmode="decimal" aria-label="Quantity, line ' + n + '" placeholder="1" value="' + esc(l.qty) + '">' +
      '<p class="error" data-err="qty" hidden></p></td>' +
      '<td class="c-price"><input data-f="price" type="text" inputmode="decimal" aria-label="Unit price, line ' + n + '" placeholder="0.00" value="' + esc(l.price) + '">' +
      '<p class="error" data-err="price" hidden></p></td>' +
      taxCell +
      '<td class="c-amt" data-amt>—</td>' +
      '<td class="c-act">' + removeBtn + '</td></tr>';
  }

  function renderLines() {
    var body = $('lines-body');
    if (!body) return;
    body.innerHTML = S.lines.map(lineRowHtml).join('');
    recalc();
  }

  function lineById(id) {
    for (var i = 0; i < S.lines.length; i++) if (S.lines[i].id === id) return S.lines[i];
    return null;
  }

  function addLine() {
    S.lines.push(newLine());
    renderLines();
    var body = $('lines-body');
    var last = body && body.lastElementChild;
    var inp = last && last.querySelector('input[data-f="desc"]');
    if (inp) inp.focus();
  }

  function removeLine(id) {
    S.lines = S.lines.filter(function (l) { return l.id !== id; });
    if (!S.lines.length) S.lines.push(newLine());
    renderLines();
  }

  function bindLines() {
    var body = $('lines-body');
    if (!body) return;
    function update(e) {
      var row = e.target.closest('tr[data-line]');
      var f = e.target.getAttribute('data-f');
      if (!row || !f) return;
      var l = lineById(Number(row.getAttribute('data-line')));
      if (!l) return;
      l[f] = e.target.value;
      recalc();
    }
    body.addEventListener('input', update);
    body.addEventListener('change', update);
    body.addEventListener('click', function (e) {
      var btn = e.target.closest('[data-remove]');
      if (btn) removeLine(Number(btn.getAttribute('data-remove')));
    });
  }

  /* ------------------------------------------------------------------ discount */

  function discountType() {
    var r = document.querySelector('input[name="disc-type"]:checked');
    return r ? r.value : 'percent';
  }

  /* -------------------------------------------------------------------- totals */

  function computeTotals() {
    var cur = currency();
    var lines = S.lines.map(function (l) { return { line: l, ev: evalLine(l, cur) }; });
    var subtotal = 0;
    lines.forEach(function (x) { if (x.ev.amount !== null && !x.ev.blank) subtotal += x.ev.amount; });
    var discount = 0, discountError = '', discountLabel = 'Discount';
    /* @feature discount */
    var type = discountType();
    var raw = $('discount') ? $('discount').value : '';
    var d = parseNum(raw);
    if (d.ok) {
      var amount = type === 'fixed' ? toMinor(d.value, cur) : roundHalfUp(subtotal * d.value / 100);
      /* @feature discount-validation */
      if (d.value < 0) discountError = 'Discount cannot be negative.';
      else if (type === 'percent' && d.value > 100) discountError = 'Discount cannot exceed 100%.';
      else if (type === 'fixed' && amount > subtotal) discountError = 'Discount cannot exceed the subtotal.';
      /* @end discount-validation */
      if (!discountError) {
        discount = amount;
        if (type === 'percent' && d.value > 0) discountLabel = 'Discount (' + d.value + '%)';
      }
    } else if (d.bad) {
      /* @feature discount-validation */
      discountError = 'Discount must be a number.';
      /* @end discount-validation */
    }
    /* @end discount */
    var net = subtotal - discount;
    var groups = {}, order = [];
    lines.forEach(function (x) {
      if (x.ev.blank || x.ev.amount === null || !(x.ev.rate > 0)) return;
      var k = x.ev.taxLabel;
      if (!groups[k]) { groups[k] = { label: k, rate: x.ev.rate, sum: 0 }; order.push(k); }
      groups[k].sum += x.ev.amount;
    });
    var taxRows = order.map(function (k) { return groups[k]; }).sort(function (a, b) { return b.rate - a.rate; });
    var taxTotal = 0;
    taxRows.forEach(function (g) {
      var base = g.sum;
      /* @feature discount-before-tax */
      base = subtotal > 0 ? roundHalfUp(g.sum * net / subtotal) : 0;
      /* @end discount-before-tax */
      g.base = base;
      g.tax = roundHalfUp(base * g.rate / 100);
      taxTotal += g.tax;
    });
    return {
      cur: cur, lines: lines, subtotal: subtotal, discount: discount, discountLabel: discountLabel,
      discountError: discountError, taxRows: taxRows, taxTotal: taxTotal, total: net + taxTotal
    };
  }

  function totalsHtml(t, cls) {
    var rows = [];
    function row(label, value, extra) {
      rows.push('<div class="tot-row' + (extra ? ' ' + extra : '') + '"><dt>' + esc(label) + '</dt><dd>' + esc(value) + '</dd></div>');
    }
    row('Subtotal', fmt(t.subtotal, t.cur));
    row(t.discountLabel, t.discount ? fmt(-t.discount, t.cur) : fmt(0, t.cur), 'tot-discount');
    var breakdown = false;
    /* @feature tax-breakdown */
    breakdown = true;
    if (t.taxRows.length) {
      t.taxRows.forEach(function (g) { row(g.label + ' on ' + fmt(g.base, t.cur), fmt(g.tax, t.cur), 'tot-tax'); });
    } else {
      row('Tax', fmt(0, t.cur), 'tot-tax');
    }
    /* @end tax-breakdown */
    if (!breakdown) row('Tax', fmt(t.taxTotal, t.cur), 'tot-tax');
    row('Total due', fmt(t.total, t.cur), 'tot-total');
    return '<dl class="' + (cls || 'tot') + '">' + rows.join('') + '</dl>';
  }

  function recalc() {
    var t = computeTotals();
    var body = $('lines-body');
    t.lines.forEach(function (x) {
      var row = body && body.querySelector('tr[data-line="' + x.line.id + '"]');
      if (!row) return;
      var cell = row.querySelector('[data-amt]');
      if (cell) cell.textContent = x.ev.blank || x.ev.amount === null ? '—' : fmt(x.ev.amount, t.cur);
    });
    var box = $('totals');
    if (box) box.innerHTML = totalsHtml(t);
    if (S.attempted) showErrors(validate(t));
    return t;
  }

  /* ---------------------------------------------------------------- validation */

  function validate(t) {
    t = t || computeTotals();
    var v = { fields: {}, lines: {}, general: '', ok: true };
    var number = $('inv-number') ? $('inv-number').value.trim() : '';
    if (!number) v.fields['inv-number'] = 'Enter an invoice number.';
    /* @feature duplicate-number */
    else {
      var dup = S.drafts.some(function (d) { return d.id !== S.draftId && String(d.number).trim().toLowerCase() === number.toLowerCase(); });
      if (dup) v.fields['inv-number'] = number + ' is already used by another draft.';
    }
    /* @end duplicate-number */
    if (!parseDate($('issue-date') ? $('issue-date').value : '')) v.fields['issue-date'] = 'Choose an issue date.';
    var used = 0;
    t.lines.forEach(function (x) {
      if (x.ev.blank) return;
      used += 1;
      if (Object.keys(x.ev.errors).length) v.lines[x.line.id] = x.ev.errors;
    });
    /* @feature invoice-validation */
    if (!selectedClient()) v.fields.client = 'Choose a client.';
    if (!used) v.general = 'Add at least one line item.';
    /* @end invoice-validation */
    if (t.discountError) v.fields.discount = t.discountError;
    v.ok = !Object.keys(v.fields).length && !Object.keys(v.lines).length && !v.general;
    return v;
  }

  function setFieldError(id, msg) {
    var input = $(id), box = $(id + '-error');
    if (input) {
      input.setAttribute('aria-invalid', msg ? 'true' : 'false');
      var f = input.closest('.field');
      if (f) f.classList.toggle('has-error', !!msg);
    }
    if (box) { box.textContent = msg || ''; box.hidden = !msg; }
  }

  function showErrors(v) {
    ['inv-number', 'issue-date', 'client', 'discount'].forEach(function (id) { setFieldError(id, v.fields[id]); });
    var le = $('lines-error');
    if (le) { le.textContent = v.general; le.hidden = !v.general; }
    var body = $('lines-body');
    if (body) {
      S.lines.forEach(function (l) {
        var row = body.querySelector('tr[data-line="' + l.id + '"]');
        if (!row) return;
        var errs = v.lines[l.id] || {};
        ['desc', 'qty', 'price'].forEach(function (f) {
          var p = row.querySelector('[data-err="' + f + '"]');
          var inp = row.querySelector('[data-f="' + f + '"]');
          if (p) { p.textContent = errs[f] || ''; p.hidden = !errs[f]; }
          if (inp) inp.setAttribute('aria-invalid', errs[f] ? 'true' : 'false');
        });
      });
    }
    var banner = $('form-banner');
    if (banner) banner.hidden = v.ok;
  }

  function attempt() {
    S.attempted = true;
    var t = computeTotals();
    var v = validate(t);
    showErrors(v);
    return v.ok ? t : null;
  }

  function message(text, tone) {
    var el = $('action-msg');
    if (!el) return;
    el.textContent = text || '';
    el.className = 'form-msg' + (tone ? ' form-msg-' + tone : '');
  }

  /* -------------------------------------------------------------------- drafts */

  function readDrafts() {
    var raw = localStorage.getItem(DRAFTS_KEY);
    if (raw === null) return [];
    var list;
    /* @feature storage-guard */
    try {
      list = JSON.parse(raw);
      if (!Array.isArray(list)) throw new Error('not a list');
      list = list.filter(function (d) {
        return d && typeof d.id === 'string' && typeof d.number === 'string' && d.number.trim() && Array.isArray(d.lines);
      });
    } catch (e) {
      try { localStorage.removeItem(DRAFTS_KEY); } catch (e2) { /* ignore */ }
      draftsMsg('Saved drafts could not be read and were reset.', 'warn');
      return [];
    }
    return list;
    /* @end storage-guard */
    list = JSON.parse(raw);
    return list.map(function (d) { d.number = d.number.trim(); return d; });
  }

  function writeDrafts() {
    try {
      localStorage.setItem(DRAFTS_KEY, JSON.stringify(S.drafts));
    } catch (e) {
      draftsMsg('Could not save to this browser (storage is full or disabled).', 'warn');
    }
  }

  function draftsMsg(text, tone) {
    var el = $('drafts-msg');
    if (!el) return;
    el.textContent = text || '';
    el.className = 'form-msg' + (tone ? ' form-msg-' + tone : '');
  }

  function snapshot(t) {
    var e = selectedClient();
    return {
      number: $('inv-number').value.trim(),
      clientId: e ? e.client.id : null,
      clientName: e ? e.client.name : '',
      currency: S.currencyCode,
      issueDate: $('issue-date').value,
      terms: $('terms') ? $('terms').value : '',
      lines: S.lines.filter(function (l) { return l.desc.trim() || l.qty.trim() || l.price.trim(); })
        .map(function (l) { return { desc: l.desc, qty: l.qty, price: l.price, tax: l.tax }; }),
      discountType: discountType(),
      discount: $('discount') ? $('discount').value : '',
      notes: $('notes') ? $('notes').value : '',
      total: t.total
    };
  }

  function saveDraft() {
    var t = attempt();
    if (!t) { message('The draft was not saved.', 'error'); return; }
    var snap = snapshot(t);
    var idx = -1;
    S.drafts.forEach(function (d, i) { if (d.id === S.draftId) idx = i; });
    var updated = idx >= 0;
    if (updated) {
      snap.id = S.draftId;
      S.drafts[idx] = snap;
    } else {
      snap.id = 'd' + Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
      S.drafts.push(snap);
      S.draftId = snap.id;
    }
    /* @feature invoice-sequence */
    bumpSequence(snap.number);
    /* @end invoice-sequence */
    /* @feature save-draft */
    writeDrafts();
    /* @end save-draft */
    /* @broken save-draft */
    if (!updated) writeDrafts();
    /* @end save-draft */
    renderDrafts();
    setDraftState();
    message('Draft ' + snap.number + (updated ? ' updated.' : ' saved.'), 'ok');
  }

  function draftSummary(d) {
    var cur = currency(d.currency);
    var issue = parseDate(d.issueDate);
    return { total: typeof d.total === 'number' ? fmt(d.total, cur) : '', issue: issue ? fmtDate(issue) : '' };
  }

  function renderDrafts() {
    var list = $('drafts-list'), empty = $('drafts-empty');
    if (!list) return;
    if (empty) empty.hidden = S.drafts.length > 0;
    var sorted = S.drafts.slice().sort(function (a, b) {
      return (numericPart(b.number) || 0) - (numericPart(a.number) || 0);
    });
    list.innerHTML = sorted.map(function (d) {
      var s = draftSummary(d);
      var current = d.id === S.draftId;
      var actions = '';
      /* @feature open-draft */
      actions += '<button type="button" class="btn btn-small" data-open="' + esc(d.id) + '" aria-label="Open draft ' + esc(d.number) + '">Open</button>';
      /* @end open-draft */
      /* @broken open-draft */
      actions += '<button type="button" class="btn btn-small" data-open="' + esc(d.id) + '" aria-label="Open draft ' + esc(d.number) + '">Open</button>';
      /* @end open-draft */
      /* @feature delete-draft */
      actions += '<button type="button" class="btn btn-small btn-danger-ghost" data-delete="' + esc(d.id) + '" aria-label="Delete draft ' + esc(d.number) + '">Delete</button>';
      /* @end delete-draft */
      return '<li class="draft' + (current ? ' is-current' : '') + '" aria-label="Draft ' + esc(d.number) + '">' +
        '<div class="draft-main"><div class="draft-top"><span class="draft-no">' + esc(d.number) + '</span>' +
        (current ? '<span class="pill pill-small">Editing</span>' : '') + '</div>' +
        '<div class="draft-client">' + esc(d.clientName || 'No client') + '</div>' +
        '<div class="draft-sub">' + esc(s.issue) + (s.total ? ' · ' + esc(s.total) : '') + '</div></div>' +
        '<div class="draft-actions">' + actions + '</div></li>';
    }).join('');
  }

  function draftById(id) {
    for (var i = 0; i < S.drafts.length; i++) if (S.drafts[i].id === id) return S.drafts[i];
    return null;
  }

  function loadIntoForm(d, partial) {
    $('inv-number').value = d.number || '';
    $('issue-date').value = d.issueDate || '';
    var sel = $('client');
    var ci = clientIndexById(d.clientId);
    if (sel) sel.value = ci >= 0 ? String(ci) : '';
    S.currencyCode = d.currency && S.currencies[d.currency] ? d.currency : defaultCurrency();
    if ($('terms')) $('terms').value = termById(d.terms) ? d.terms : defaultTerms();
    S.lines = (d.lines || []).map(function (l) {
      return newLine({ desc: l.desc, qty: l.qty, price: l.price, tax: partial ? null : l.tax });
    });
    if (!S.lines.length) S.lines.push(newLine());
    var radio = document.querySelector('input[name="disc-type"][value="' + (partial ? 'percent' : d.discountType) + '"]');
    if (radio) radio.checked = true;
    if ($('discount')) $('discount').value = partial ? '' : (d.discount || '');
    if ($('notes')) $('notes').value = d.notes || '';
  }

  function openDraft(id, partial) {
    var d = draftById(id);
    if (!d) return;
    loadIntoForm(d, partial);
    S.draftId = d.id;
    S.attempted = false;
    showErrors({ fields: {}, lines: {}, general: '', ok: true });
    renderCurrency();
    renderDue();
    renderClientCard();
    renderLines();
    renderDrafts();
    setDraftState();
    showEditor();
    message('Opened draft ' + d.number + '.', 'ok');
  }

  function deleteDraft(id) {
    var d = draftById(id);
    if (!d) return;
    if (!window.confirm('Delete draft ' + d.number + '? This cannot be undone.')) return;
    S.drafts = S.drafts.filter(function (x) { return x.id !== id; });
    if (S.draftId === id) S.draftId = null;
    writeDrafts();
    renderDrafts();
    setDraftState();
    draftsMsg('Deleted draft ' + d.number + '.', '');
  }

  function bindDrafts(partialOpen) {
    on('drafts-list', 'click', function (e) {
      var o = e.target.closest('[data-open]'), del = e.target.closest('[data-delete]');
      if (o) openDraft(o.getAttribute('data-open'), partialOpen);
      if (del) deleteDraft(del.getAttribute('data-delete'));
    });
  }

  function setDraftState() {
    var el = $('draft-state');
    if (!el) return;
    var d = S.draftId ? draftById(S.draftId) : null;
    el.textContent = d ? 'Draft' : 'New invoice';
    el.className = 'pill ' + (d ? 'pill-draft' : 'pill-new');
  }

  /* ------------------------------------------------------------------ new form */

  function newInvoice() {
    S.draftId = null;
    S.attempted = false;
    $('inv-number').value = fmtNumber(S.nextNumber);
    $('issue-date').value = S.settings.today || '';
    var sel = $('client');
    if (sel) sel.value = '';
    S.currencyCode = defaultCurrency();
    if ($('terms')) $('terms').value = defaultTerms();
    S.lines = [newLine()];
    var radio = document.querySelector('input[name="disc-type"][value="percent"]');
    if (radio) radio.checked = true;
    if ($('discount')) $('discount').value = '';
    if ($('notes')) $('notes').value = S.settings.defaultNotes || '';
    showErrors({ fields: {}, lines: {}, general: '', ok: true });
    renderCurrency();
    renderDue();
    renderClientCard();
    renderLines();
    renderDrafts();
    setDraftState();
  }

  /* ------------------------------------------------------------------- preview */

  function docHtml(t) {
    var b = S.business, e = selectedClient(), c = e ? e.client : {};
    var issue = parseDate($('issue-date').value);
    var term = termById($('terms') ? $('terms').value : '');
    var due = $('due-date') ? $('due-date').value : '';
    var rows = t.lines.filter(function (x) { return !x.ev.blank; }).map(function (x) {
      var p = parseNum(x.line.price);
      return '<tr><td>' + esc(x.line.desc) + '</td><td class="num">' + esc(plainNum(parseNum(x.line.qty).value)) + '</td>' +
        '<td class="num">' + esc(fmt(toMinor(p.value, t.cur), t.cur)) + '</td>' +
        '<td class="num">' + esc(x.ev.rate + '%') + '</td>' +
        '<td class="num">' + esc(fmt(x.ev.amount, t.cur)) + '</td></tr>';
    }).join('');
    var footer = '';
    /* @feature preview-notes */
    var notes = $('notes') ? $('notes').value.trim() : '';
    footer = '<section class="doc-foot">' +
      (term ? '<p class="doc-terms"><strong>Payment terms:</strong> ' + esc(term.label) + (due ? ' — please pay by ' + esc(due) + '.' : '') + '</p>' : '') +
      (notes ? '<div class="doc-notes"><h3>Notes</h3><p>' + esc(notes).replace(/\n/g, '<br>') + '</p></div>' : '') +
      (b.bank ? '<div class="doc-bank"><h3>Payment details</h3><p>' + esc(b.bank) + '</p></div>' : '') +
      '</section>';
    /* @end preview-notes */
    return '<header class="doc-head"><div class="doc-from">' +
      '<div class="doc-biz">' + esc(b.name) + '</div>' +
      (b.tagline ? '<div class="doc-tag">' + esc(b.tagline) + '</div>' : '') +
      (Array.isArray(b.address) ? b.address.map(function (l) { return '<div>' + esc(l) + '</div>'; }).join('') : '') +
      '<div>' + esc([b.email, b.phone].filter(Boolean).join(' · ')) + '</div>' +
      (b.taxId ? '<div>' + esc(b.taxId) + '</div>' : '') + '</div>' +
      '<div class="doc-id"><h1>Invoice</h1><dl class="doc-meta">' +
      '<div><dt>Invoice number</dt><dd>' + esc($('inv-number').value.trim()) + '</dd></div>' +
      '<div><dt>Issue date</dt><dd>' + esc(fmtDate(issue)) + '</dd></div>' +
      '<div><dt>Due date</dt><dd>' + esc(due || '—') + '</dd></div>' +
      '<div><dt>Currency</dt><dd>' + esc(t.cur.code) + '</dd></div></dl></div></header>' +
      '<section class="doc-billto"><h2>Bill to</h2>' +
      '<div class="doc-client">' + esc(c.name || '') + '</div>' +
      (c.contact ? '<div>Attn: ' + esc(c.contact) + '</div>' : '') +
      (Array.isArray(c.address) ? c.address.map(function (l) { return '<div>' + esc(l) + '</div>'; }).join('') : '') +
      (c.email ? '<div>' + esc(c.email) + '</div>' : '') + '</section>' +
      '<table class="doc-lines"><thead><tr><th scope="col">Description</th><th scope="col" class="num">Qty</th>' +
      '<th scope="col" class="num">Unit price</th><th scope="col" class="num">Tax</th><th scope="col" class="num">Amount</th></tr></thead>' +
      '<tbody>' + rows + '</tbody></table>' +
      '<div class="doc-sum">' + totalsHtml(t, 'tot doc-totals') + '</div>' + footer;
  }

  function showPreview() {
    var t = attempt();
    if (!t) { message('The preview needs a complete invoice.', 'error'); return; }
    var doc = $('invoice-doc'), view = $('preview-view');
    if (!doc || !view) return;
    doc.innerHTML = docHtml(t);
    $('editor-view').hidden = true;
    view.hidden = false;
    document.body.classList.add('previewing');
    window.scrollTo(0, 0);
  }

  function showEditor() {
    var view = $('preview-view');
    if (view) view.hidden = true;
    $('editor-view').hidden = false;
    document.body.classList.remove('previewing');
  }

  /* ---------------------------------------------------------------------- init */

  function loadJson(path) {
    return fetch(path, { cache: 'no-store' }).then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.json();
    });
  }

  function start(setup, clients) {
    indexSetup(setup || {});
    var chip = $('biz-chip');
    if (chip) chip.textContent = (S.business.name || 'Your business') + (S.business.email ? ' · ' + S.business.email : '');
    var terms = $('terms');
    if (terms) {
      terms.innerHTML = S.terms.map(function (t) { return '<option value="' + esc(t.id) + '">' + esc(t.label) + '</option>'; }).join('');
    }
    populateClients(clients);
    S.drafts = readDrafts();
    initSequence();

    on('client', 'change', onClientChange);
    on('terms', 'change', function () { renderDue(); renderClientCard(); });
    on('issue-date', 'input', function () { renderDue(); if (S.attempted) recalc(); });
    on('issue-date', 'change', function () { renderDue(); if (S.attempted) recalc(); });
    on('inv-number', 'input', function () { if (S.attempted) recalc(); });
    on('discount', 'input', recalc);
    document.querySelectorAll('input[name="disc-type"]').forEach(function (r) {
      r.addEventListener('change', function () { renderCurrency(); recalc(); });
    });
    bindLines();
    /* @feature add-line */
    on('add-line', 'click', addLine);
    /* @end add-line */
    on('save-btn', 'click', saveDraft);
    on('new-btn', 'click', function () { newInvoice(); message('Started a new invoice.', ''); });
    /* @feature preview */
    on('preview-btn', 'click', showPreview);
    on('back-btn', 'click', showEditor);
    /* @end preview */
    /* @feature print */
    on('print-btn', 'click', function () { window.print(); });
    /* @end print */
    var partialOpen = false;
    /* @broken open-draft */
    partialOpen = true;
    /* @end open-draft */
    bindDrafts(partialOpen);
    newInvoice();
  }

  function init() {
    Promise.all([
      loadJson('data/business.json').catch(function () { return null; }),
      loadJson('data/clients.json').catch(function () { return null; })
    ]).then(function (res) {
      var setup = res[0] || { settings: { today: new Date().toISOString().slice(0, 10), invoicePrefix: 'INV-', nextInvoiceNumber: 1, numberPadding: 5 } };
      var clients = res[1] && Array.isArray(res[1].clients) ? res[1].clients : [];
      start(setup, clients);
      if (!res[1]) {
        var note = $('client-note');
        if (note) { note.textContent = 'Saved clients could not be loaded.'; note.hidden = false; }
      }
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
