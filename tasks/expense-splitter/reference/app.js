/* Tripsplit — UI. Depends on split.js (window.Split). */
(function () {
  'use strict';

  var STORAGE_KEY = 'tripsplit.v1';
  var S = window.Split;
  var $ = function (sel) { return document.querySelector(sel); };

  var trip = null;      // trip meta from the data file
  var members = [];
  var rates = {};
  var categories = [];
  var state = { expenses: [], settlements: [] };
  var editingId = null;
  var exportMode = null;
  var seq = 0;

  /* ------------------------------------------------------------ formatting */

  var SYMBOLS = { EUR: '€', USD: '$', GBP: '£' };
  function sym(cur) { return SYMBOLS[cur] || (cur + ' '); }
  function groups(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function plain(cents) {
    var a = Math.abs(cents);
    return groups(Math.floor(a / 100)) + '.' + String(a % 100).padStart(2, '0');
  }
  function money(cents, cur) {
    return (cents < 0 ? '−' : '') + sym(cur || trip.baseCurrency) + plain(cents);
  }
  function signed(cents) {
    if (cents === 0) return money(0);
    return (cents > 0 ? '+' : '−') + sym(trip.baseCurrency) + plain(cents);
  }
  function csvNum(cents) { return (cents < 0 ? '-' : '') + plain(cents).replace(/,/g, ''); }
  var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  function shortDate(iso) {
    var p = String(iso || '').split('-');
    if (p.length !== 3) return iso || '—';
    return parseInt(p[2], 10) + ' ' + MONTHS[parseInt(p[1], 10) - 1];
  }
  function tripDates() {
    var a = trip.startDate.split('-'), b = trip.endDate.split('-');
    return parseInt(a[2], 10) + '–' + parseInt(b[2], 10) + ' ' + MONTHS[parseInt(b[1], 10) - 1] + ' ' + b[0];
  }
  function nameOf(id) {
    var m = members.find(function (x) { return x.id === id; });
    return m ? m.name : id;
  }
  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function el(tag, cls, html) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (html != null) e.innerHTML = html;
    return e;
  }

  /* ------------------------------------------------------------ state */

  function problem(rec) { return S.problemOf(rec, members, rates); }
  function norm(rec) {
    return Object.assign({}, rec, { amountCents: S.toCents(rec.amount) });
  }
  function validExpenses() {
    return state.expenses.filter(function (r) { return !problem(r); }).map(norm);
  }
  function sharesOf(rec) { return S.computeShares(norm(rec), members, rates); }

  function save() {
    /* @feature persistence */
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({
        expenses: state.expenses, settlements: state.settlements, savedAt: new Date().toISOString()
      }));
    } catch (e) { /* storage full or disabled: keep working in memory */ }
    /* @end persistence */
    /* @broken persistence */
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({ expenses: state.expenses, settlements: [] }));
    } catch (e) { /* ignore */ }
    /* @end persistence */
  }

  function loadStored() {
    var raw = localStorage.getItem(STORAGE_KEY);
    if (raw == null) return null;
    /* @feature storage-guard */
    try {
      var parsed = JSON.parse(raw);
      if (!parsed || !Array.isArray(parsed.expenses)) throw new Error('bad shape');
      var sets = Array.isArray(parsed.settlements) ? parsed.settlements.filter(function (s) {
        return s && typeof s.cents === 'number' && s.cents > 0 && s.from && s.to;
      }) : [];
      return { expenses: parsed.expenses.filter(function (r) { return r && typeof r === 'object'; }), settlements: sets };
    } catch (e) {
      localStorage.removeItem(STORAGE_KEY);
      showNotice('Saved data could not be read, so the original trip data was loaded.');
      return null;
    }
    /* @end storage-guard */
    var p = JSON.parse(raw);
    return { expenses: p.expenses, settlements: p.settlements || [] };
  }

  function fromFile(data) {
    return {
      expenses: (data.expenses || []).map(function (r) { return JSON.parse(JSON.stringify(r)); }),
      settlements: []
    };
  }

  function showNotice(text) {
    var n = $('#notice');
    if (!n) return;
    n.textContent = text;
    n.hidden = false;
  }

  /* ------------------------------------------------------------ rendering */

  function render() {
    renderHeader();
    renderStats();
    renderExpenses();
    renderAttention();
    renderBalances();
    renderSettle();
    renderChart();
    renderRates();
    refreshExport();
  }

  function renderHeader() {
    /* @feature trip-header */
    $('#trip-name').textContent = trip.name;
    $('#trip-dates').textContent = tripDates();
    $('#trip-members').textContent = members.map(function (m) { return m.name; }).join(', ');
    $('#trip-base').textContent = 'Base currency: ' + trip.baseCurrency;
    /* @end trip-header */
    document.title = trip.name + ' — Tripsplit';
  }

  function renderStats() {
    /* @feature spend-summary */
    var valid = validExpenses();
    var total = 0;
    valid.forEach(function (e) { total += S.convert(e.amountCents, e.currency, rates); });
    var bad = state.expenses.length - valid.length;
    $('#stats').innerHTML =
      '<div class="stat"><span class="stat-label">Total spent</span><span class="stat-value">' + money(total) + '</span></div>' +
      '<div class="stat"><span class="stat-label">Expenses</span><span class="stat-value">' + valid.length + '</span></div>' +
      '<div class="stat"><span class="stat-label">Per person</span><span class="stat-value">' + money(Math.round(total / members.length)) + '</span></div>' +
      (bad ? '<div class="stat warn"><span class="stat-label">Need attention</span><span class="stat-value">' + bad + '</span></div>' : '');
    /* @end spend-summary */
  }

  function filterValues() {
    var m = $('#filter-member'), c = $('#filter-category');
    return { member: m ? m.value : '', category: c ? c.value : '' };
  }

  function sortedValid() {
    var list = state.expenses.map(function (r, i) { return { r: r, i: i }; })
      .filter(function (x) { return !problem(x.r); });
    /* @feature sort-newest */
    list.sort(function (a, b) {
      if (a.r.date !== b.r.date) return a.r.date < b.r.date ? 1 : -1;
      return b.i - a.i;
    });
    /* @end sort-newest */
    /* @broken sort-newest */
    list.sort(function (a, b) {
      if (a.r.date !== b.r.date) return a.r.date < b.r.date ? -1 : 1;
      return a.i - b.i;
    });
    /* @end sort-newest */
    return list.map(function (x) { return x.r; });
  }

  function splitLabel(rec) {
    var t = (rec.split && rec.split.type) || 'equal';
    return t === 'exact' ? 'Exact amounts' : t === 'shares' ? 'By shares' : 'Split equally';
  }

  function renderExpenses() {
    var tbody = $('#expense-rows');
    var all = sortedValid();
    var f = filterValues();
    var rows = all.filter(function (r) {
      /* @feature member-filter */
      if (f.member && r.payer !== f.member && r.participants.indexOf(f.member) < 0) return false;
      /* @end member-filter */
      /* @broken member-filter */
      if (f.member && r.payer !== f.member) return false;
      /* @end member-filter */
      if (f.category && r.category !== f.category) return false;
      return true;
    });
    tbody.innerHTML = '';
    rows.forEach(function (r) {
      var c = sharesOf(r);
      var tr = el('tr');
      tr.dataset.id = r.id;
      var parts = c.participants.map(function (id) {
        var extra = r.split && r.split.type === 'shares'
          ? ' (' + r.split.shares[id] + (Number(r.split.shares[id]) === 1 ? ' share)' : ' shares)') : '';
        return '<span class="part">' + esc(nameOf(id)) + ' ' + money(c.shares[id]) + extra + '</span>';
      }).join('');
      var amountHtml = '<span class="amt">' + money(S.toCents(r.amount), r.currency) + '</span>';
      /* @feature converted-amount */
      if (r.currency !== trip.baseCurrency) {
        amountHtml += '<span class="conv">≈ ' + money(c.total) + '</span>';
      }
      /* @end converted-amount */
      /* @broken converted-amount */
      if (r.currency !== trip.baseCurrency) {
        amountHtml += '<span class="conv">≈ ' + money(Math.round(S.toCents(r.amount) / rates[r.currency])) + '</span>';
      }
      /* @end converted-amount */
      tr.innerHTML =
        '<td class="date">' + esc(shortDate(r.date)) + '</td>' +
        '<td><div class="desc">' + esc(r.description) + '</div>' +
        '<div class="meta"><span class="tag tag-' + esc(String(r.category).toLowerCase()) + '">' + esc(r.category) + '</span>' +
        '<span class="how">' + splitLabel(r) + '</span></div>' +
        '<div class="parts">' + parts + '</div></td>' +
        '<td class="payer"><span class="avatar" aria-hidden="true">' + esc(nameOf(r.payer).charAt(0)) + '</span>' + esc(nameOf(r.payer)) + '</td>' +
        '<td class="num">' + amountHtml + '</td>' +
        '<td class="actions"></td>';
      var act = tr.querySelector('.actions');
      /* @feature edit-button */
      var eb = el('button', 'icon-btn', '<svg viewBox="0 0 20 20" aria-hidden="true"><path d="M4 14.5V16h1.5l8.6-8.6-1.5-1.5zM15.7 5.8l-1.5-1.5 1-1a1 1 0 0 1 1.5 0l0 0a1 1 0 0 1 0 1.5z" fill="currentColor"/></svg>');
      eb.type = 'button';
      eb.setAttribute('aria-label', 'Edit ' + r.description);
      eb.title = 'Edit';
      eb.addEventListener('click', function () { openForm(r.id); });
      act.appendChild(eb);
      /* @end edit-button */
      /* @feature delete-expense */
      var db = el('button', 'icon-btn danger', '<svg viewBox="0 0 20 20" aria-hidden="true"><path d="M6 6h8l-.7 10H6.7zM5 5h10M8 5V3.5h4V5" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></svg>');
      db.type = 'button';
      db.setAttribute('aria-label', 'Delete ' + r.description);
      db.title = 'Delete';
      db.addEventListener('click', function () { deleteExpense(r.id); });
      act.appendChild(db);
      /* @end delete-expense */
      tbody.appendChild(tr);
    });
    var empty = $('#expense-empty');
    var table = $('#expense-table');
    if (!rows.length) {
      table.hidden = true;
      empty.hidden = false;
      if (!all.length) {
        empty.innerHTML = '<strong>No expenses yet.</strong><span>Add the first one with “Add expense”.</span>';
      } else {
        empty.innerHTML = '<strong>No expenses match these filters.</strong>';
        /* @feature empty-filter-state */
        empty.innerHTML = '<strong>No expenses match these filters.</strong><span>Try another member or category.</span>';
        var cb = el('button', 'btn small', 'Clear filters');
        cb.type = 'button';
        cb.addEventListener('click', function () {
          if ($('#filter-member')) $('#filter-member').value = '';
          if ($('#filter-category')) $('#filter-category').value = '';
          render();
        });
        empty.appendChild(cb);
        /* @end empty-filter-state */
      }
    } else {
      table.hidden = false;
      empty.hidden = true;
    }
    var showing = $('#showing');
    if (showing) showing.textContent = 'Showing ' + rows.length + ' of ' + all.length + ' expenses';
  }

  function renderAttention() {
    /* @feature anomaly-panel */
    var bad = state.expenses.filter(function (r) { return problem(r); });
    var card = $('#attention-card');
    card.hidden = bad.length === 0;
    $('#attention-count').textContent = '(' + bad.length + ')';
    var ul = $('#attention-list');
    ul.innerHTML = '';
    bad.forEach(function (r) {
      var li = el('li');
      var amt = isFinite(Number(r.amount)) ? Number(r.amount).toFixed(2) + ' ' + esc(r.currency || '') : '—';
      li.innerHTML = '<div><div class="desc">' + esc(r.description || '(no description)') + '</div>' +
        '<div class="muted small">' + esc(shortDate(r.date)) + ' · ' + amt + ' · paid by ' + esc(r.payer ? nameOf(r.payer) : '—') + '</div></div>' +
        '<span class="reason">' + esc(problem(r)) + '</span>';
      var box = el('span', 'btn-row tight');
      var fix = el('button', 'btn small', 'Fix');
      fix.type = 'button';
      fix.setAttribute('aria-label', 'Fix ' + (r.description || 'record'));
      /* @feature fix-record */
      fix.addEventListener('click', function () { openForm(r.id); });
      /* @end fix-record */
      /* @broken fix-record */
      fix.addEventListener('click', function () { openForm(null); $('#f-desc').value = r.description || ''; });
      /* @end fix-record */
      var del = el('button', 'btn small ghost', 'Delete');
      del.type = 'button';
      del.setAttribute('aria-label', 'Delete ' + (r.description || 'record'));
      del.addEventListener('click', function () { deleteExpense(r.id); });
      box.appendChild(fix);
      box.appendChild(del);
      li.appendChild(box);
      ul.appendChild(li);
    });
    /* @end anomaly-panel */
  }

  function currentBalances() {
    var sets = state.settlements;
    /* @broken mark-paid */
    sets = [];
    /* @end mark-paid */
    return S.balances(validExpenses(), sets, members, rates);
  }

  function renderBalances() {
    /* @feature balances */
    var b = currentBalances();
    var tbody = $('#balance-rows');
    tbody.innerHTML = '';
    members.forEach(function (m) {
      var x = b[m.id];
      var paid = x.paid;
      var settled = x.sent - x.received;
      var status = x.net > 0 ? '<span class="pill pos">gets back</span>' : x.net < 0 ? '<span class="pill neg">owes</span>' : '<span class="pill">settled up</span>';
      var tr = el('tr');
      tr.innerHTML = '<th scope="row"><span class="avatar" aria-hidden="true">' + esc(m.name.charAt(0)) + '</span>' + esc(m.name) + '</th>' +
        '<td class="num">' + money(paid) + '</td>' +
        '<td class="num">' + money(x.share) + '</td>' +
        '<td class="num muted">' + (settled ? signed(settled) : '—') + '</td>' +
        '<td class="num net ' + (x.net > 0 ? 'pos' : x.net < 0 ? 'neg' : '') + '">' + signed(x.net) + ' ' + status + '</td>';
      tbody.appendChild(tr);
    });
    /* @end balances */
  }

  function renderSettle() {
    /* @feature settle-up */
    var b = currentBalances();
    var transfers = S.settle(b, members);
    var tbody = $('#transfer-rows');
    tbody.innerHTML = '';
    var sum = transfers.reduce(function (a, t) { return a + t.cents; }, 0);
    $('#settle-summary').textContent = transfers.length
      ? transfers.length + (transfers.length === 1 ? ' payment settles' : ' payments settle') + ' everything (' + money(sum) + ' in total).'
      : '';
    transfers.forEach(function (t) {
      var tr = el('tr');
      tr.innerHTML = '<td><span class="who-from">' + esc(nameOf(t.from)) + '</span> <span class="arrow">→</span> <span class="who-to">' + esc(nameOf(t.to)) + '</span></td>' +
        '<td class="num strong">' + money(t.cents) + '</td><td class="actions"></td>';
      /* @feature mark-paid */
      var btn = el('button', 'btn small', 'Mark paid');
      btn.type = 'button';
      btn.addEventListener('click', function () {
        state.settlements.push({ id: 's' + Date.now() + (seq++), from: t.from, to: t.to, cents: t.cents, date: new Date().toISOString().slice(0, 10) });
        save();
        render();
      });
      tr.querySelector('.actions').appendChild(btn);
      /* @end mark-paid */
      /* @broken mark-paid */
      var bb = el('button', 'btn small', 'Mark paid');
      bb.type = 'button';
      bb.addEventListener('click', function () {
        state.settlements.push({ id: 's' + Date.now() + (seq++), from: t.from, to: t.to, cents: t.cents });
        save();
        render();
      });
      tr.querySelector('.actions').appendChild(bb);
      /* @end mark-paid */
      tbody.appendChild(tr);
    });
    var empty = $('#settle-empty');
    empty.hidden = transfers.length > 0;
    empty.textContent = validExpenses().length ? 'Everyone is settled up. 🎉' : 'Nothing to settle yet.';
    var pay = $('#payments');
    var prow = $('#payment-rows');
    prow.innerHTML = '';
    pay.hidden = state.settlements.length === 0;
    state.settlements.forEach(function (s) {
      var tr = el('tr');
      tr.innerHTML = '<td>' + esc(nameOf(s.from)) + ' paid ' + esc(nameOf(s.to)) + '</td><td class="num">' + money(s.cents) + '</td><td class="actions"></td>';
      var u = el('button', 'link', 'Undo');
      u.type = 'button';
      u.addEventListener('click', function () {
        state.settlements = state.settlements.filter(function (x) { return x !== s; });
        save();
        render();
      });
      tr.querySelector('.actions').appendChild(u);
      prow.appendChild(tr);
    });
    /* @end settle-up */
  }

  var CAT_COLORS = { Lodging: '#0f766e', Food: '#f59e0b', Transport: '#3b82f6', Activities: '#a855f7', Groceries: '#22c55e', Other: '#94a3b8' };

  function renderChart() {
    /* @feature category-chart */
    var box = $('#cat-chart');
    var totals = S.categoryTotals(validExpenses(), members, rates);
    var cats = Object.keys(totals).filter(function (k) { return totals[k] > 0; })
      .sort(function (a, b) { return totals[b] - totals[a] || a.localeCompare(b); });
    if (!cats.length) {
      box.innerHTML = '<div class="empty small">No spending to chart yet.</div>';
      return;
    }
    var grand = cats.reduce(function (a, k) { return a + totals[k]; }, 0);
    var max = totals[cats[0]];
    var rowH = 30, w = 440, labelW = 96, valueW = 0, barMax = w - labelW - 8 - valueW;
    var h = cats.length * rowH;
    var svg = '<svg class="bars" viewBox="0 0 ' + w + ' ' + h + '" width="100%" role="img" aria-label="Bar chart of spending by category">';
    cats.forEach(function (k, i) {
      var y = i * rowH;
      var bw = Math.max(3, Math.round(barMax * totals[k] / max));
      svg += '<text x="0" y="' + (y + 20) + '" class="bar-label">' + esc(k) + '</text>' +
        '<rect x="' + labelW + '" y="' + (y + 7) + '" width="' + barMax + '" height="16" rx="5" class="bar-track"/>' +
        '<rect x="' + labelW + '" y="' + (y + 7) + '" width="' + bw + '" height="16" rx="5" class="bar" fill="' + (CAT_COLORS[k] || '#64748b') + '"><title>' + esc(k) + ': ' + money(totals[k]) + '</title></rect>';
    });
    svg += '</svg>';
    var legend = '<ul class="legend">' + cats.map(function (k) {
      var pct = '';
      /* @feature chart-percent */
      pct = (totals[k] * 100 / grand).toFixed(1) + '%';
      /* @end chart-percent */
      /* @broken chart-percent */
      pct = (totals[k] * 100 / max).toFixed(1) + '%';
      /* @end chart-percent */
      return '<li><span class="swatch" style="background:' + (CAT_COLORS[k] || '#64748b') + '"></span><span class="lg-name">' + esc(k) + '</span>' +
        '<span class="lg-val">' + money(totals[k]) + '</span><span class="lg-pct">' + pct + '</span></li>';
    }).join('') + '</ul>';
    box.innerHTML = svg + legend;
    /* @end category-chart */
  }

  function renderRates() {
    /* @feature rates-panel */
    var ul = $('#rate-list');
    ul.innerHTML = '';
    Object.keys(rates).filter(function (c) { return c !== trip.baseCurrency; }).forEach(function (c) {
      ul.appendChild(el('li', '', '<span>1 ' + esc(c) + '</span><span class="eq">=</span><strong>' + sym(trip.baseCurrency) + rates[c] + '</strong>'));
    });
    $('#rate-note').textContent = 'Fixed rates agreed for this trip. Amounts in other currencies are converted to ' + trip.baseCurrency + ' before they are split.';
    /* @end rates-panel */
  }

  /* ------------------------------------------------------------ export */

  function csvCell(v) {
    var s = String(v);
    /* @feature csv-quoting */
    if (/[",\n]/.test(s)) s = '"' + s.replace(/"/g, '""') + '"';
    /* @end csv-quoting */
    return s;
  }

  function buildText() {
    var valid = validExpenses();
    var b = currentBalances();
    var total = 0;
    valid.forEach(function (e) { total += S.convert(e.amountCents, e.currency, rates); });
    var lines = [trip.name + ' (' + tripDates() + ')', 'Base currency: ' + trip.baseCurrency,
      'Total spent: ' + money(total) + ' across ' + valid.length + ' expenses', '', 'Balances'];
    members.forEach(function (m) {
      var x = b[m.id];
      var st = x.net > 0 ? 'gets back ' + money(x.net) : x.net < 0 ? 'owes ' + money(-x.net) : 'is settled up';
      lines.push(m.name + ': paid ' + money(x.paid) + ', share ' + money(x.share) + ', ' + st);
    });
    lines.push('', 'Settle up');
    var tr = S.settle(b, members);
    if (!tr.length) lines.push('Nothing left to settle.');
    tr.forEach(function (t) { lines.push(nameOf(t.from) + ' → ' + nameOf(t.to) + ': ' + money(t.cents)); });
    if (state.settlements.length) {
      lines.push('', 'Payments made');
      state.settlements.forEach(function (s) { lines.push(nameOf(s.from) + ' paid ' + nameOf(s.to) + ' ' + money(s.cents)); });
    }
    lines.push('', 'Spending by category');
    var totals = S.categoryTotals(valid, members, rates);
    Object.keys(totals).sort(function (a, c) { return totals[c] - totals[a]; }).forEach(function (k) {
      lines.push(k + ': ' + money(totals[k]));
    });
    return lines.join('\n');
  }

  function buildCsv() {
    var head = ['Date', 'Description', 'Category', 'Paid by', 'Amount', 'Currency', 'Amount (' + trip.baseCurrency + ')']
      .concat(members.map(function (m) { return m.name; }));
    var rows = state.expenses.map(function (r, i) { return { r: r, i: i }; })
      .filter(function (x) { return !problem(x.r); })
      .sort(function (a, b) { return a.r.date < b.r.date ? -1 : a.r.date > b.r.date ? 1 : a.i - b.i; });
    var lines = [head.map(csvCell).join(',')];
    rows.forEach(function (x) {
      var r = x.r;
      var c = sharesOf(r);
      var cells = [r.date, r.description, r.category, nameOf(r.payer), csvNum(S.toCents(r.amount)), r.currency, csvNum(c.total)]
        .concat(members.map(function (m) { return csvNum(c.shares[m.id] || 0); }));
      lines.push(cells.map(csvCell).join(','));
    });
    return lines.join('\n');
  }

  function showExport(mode) {
    exportMode = mode;
    refreshExport();
  }

  function refreshExport() {
    var panel = $('#export-panel');
    if (!panel || !exportMode) return;
    panel.hidden = false;
    $('#export-label').textContent = exportMode === 'csv' ? 'Export preview (CSV)' : 'Export preview (text)';
    $('#export-out').value = exportMode === 'csv' ? buildCsv() : buildText();
    $('#export-status').textContent = '';
  }

  /* ------------------------------------------------------------ form */

  function memberOrderIds() { return members.map(function (m) { return m.id; }); }

  function splitMode() {
    var r = document.querySelector('input[name="split"]:checked');
    return r ? r.value : 'equal';
  }

  function buildWho(rec) {
    var ul = $('#who');
    ul.innerHTML = '';
    members.forEach(function (m) {
      var li = el('li');
      li.dataset.id = m.id;
      var checked = rec ? (Array.isArray(rec.participants) && rec.participants.indexOf(m.id) >= 0) : true;
      var exactVal = rec && rec.split && rec.split.type === 'exact' && rec.split.amounts && rec.split.amounts[m.id] != null
        ? Number(rec.split.amounts[m.id]).toFixed(2) : '';
      var shareVal = rec && rec.split && rec.split.type === 'shares' && rec.split.shares && rec.split.shares[m.id] != null
        ? String(rec.split.shares[m.id]) : '1';
      li.innerHTML = '<label class="check"><input type="checkbox" value="' + esc(m.id) + '"' + (checked ? ' checked' : '') + '> <span>' + esc(m.name) + '</span></label>' +
        '<input type="text" inputmode="decimal" class="exact-in" aria-label="Amount for ' + esc(m.name) + '" placeholder="0.00" value="' + esc(exactVal) + '">' +
        '<input type="text" inputmode="numeric" class="share-in" aria-label="Shares for ' + esc(m.name) + '" value="' + esc(shareVal) + '">' +
        '<span class="preview"></span>';
      ul.appendChild(li);
    });
  }

  function checkedIds() {
    return Array.prototype.slice.call(document.querySelectorAll('#who input[type=checkbox]:checked'))
      .map(function (c) { return c.value; });
  }

  function formCurrency() {
    var c = $('#f-currency');
    return c ? c.value : trip.baseCurrency;
  }

  /* Reads the split part of the form. Returns {split, error} */
  function readSplit(mode, ids, totalCents) {
    if (mode === 'exact') {
      var amounts = {}, sum = 0, bad = false;
      ids.forEach(function (id) {
        var v = document.querySelector('#who li[data-id="' + id + '"] .exact-in').value;
        var p = S.parseAmount(v);
        if (p.error === 'empty' || p.error === 'zero') p = { cents: 0 };
        if (p.error) { bad = true; return; }
        amounts[id] = p.cents / 100;
        sum += p.cents;
      });
      if (bad) return { error: 'Enter a valid amount for each participant.' };
      if (totalCents != null) {
        /* @feature split-sum-check */
        if (sum !== totalCents) {
          var cur = formCurrency();
          var diff = Math.abs(totalCents - sum);
          return { error: 'Exact amounts add up to ' + money(sum, cur) + ' — ' + money(diff, cur) +
            (sum < totalCents ? ' short of ' : ' over ') + money(totalCents, cur) + '.', sum: sum };
        }
        /* @end split-sum-check */
        /* @broken split-sum-check */
        if (sum > totalCents) {
          return { error: 'Exact amounts add up to ' + money(sum, formCurrency()) + ' — more than ' + money(totalCents, formCurrency()) + '.', sum: sum };
        }
        /* @end split-sum-check */
      }
      return { split: { type: 'exact', amounts: amounts }, sum: sum };
    }
    if (mode === 'shares') {
      var shares = {}, total = 0, badS = false;
      ids.forEach(function (id) {
        var v = document.querySelector('#who li[data-id="' + id + '"] .share-in').value.trim();
        if (!/^\d+$/.test(v)) { badS = true; return; }
        shares[id] = parseInt(v, 10);
        total += shares[id];
      });
      if (badS) return { error: 'Shares must be whole numbers (0 or more).' };
      if (total === 0) return { error: 'Shares must add up to more than 0.' };
      return { split: { type: 'shares', shares: shares } };
    }
    return { split: { type: 'equal' } };
  }

  function updateSplitUI() {
    var mode = splitMode();
    var ids = checkedIds();
    document.querySelectorAll('#who li').forEach(function (li) {
      var on = ids.indexOf(li.dataset.id) >= 0;
      li.classList.toggle('off', !on);
      li.querySelector('.exact-in').hidden = mode !== 'exact' || !on;
      li.querySelector('.share-in').hidden = mode !== 'shares' || !on;
      li.querySelector('.preview').textContent = '';
    });
    var status = $('#split-status');
    status.textContent = '';
    status.className = 'split-status';
    var p = S.parseAmount($('#f-amount').value);
    var cur = formCurrency();
    if (!ids.length) { status.textContent = 'Pick who shares this expense.'; return; }
    if (p.error) { status.textContent = 'Enter the amount to see each share.'; return; }
    var sp = readSplit(mode, ids, null);
    if (mode === 'exact' && sp.sum != null) {
      var left = p.cents - sp.sum;
      status.textContent = left === 0 ? 'All ' + money(p.cents, cur) + ' assigned.' :
        left > 0 ? money(left, cur) + ' left to assign.' : money(-left, cur) + ' over the total.';
      status.className = 'split-status ' + (left === 0 ? 'ok' : 'warn');
    }
    if (sp.error || !(cur in rates)) return;
    if (mode === 'exact' && sp.sum !== p.cents) return;
    var c = S.computeShares({ amountCents: p.cents, currency: cur, participants: ids, split: sp.split, payer: $('#f-payer').value }, members, rates);
    document.querySelectorAll('#who li').forEach(function (li) {
      var id = li.dataset.id;
      if (c.shares[id] != null) li.querySelector('.preview').textContent = money(c.shares[id]);
    });
    if (mode !== 'exact') {
      status.textContent = (cur !== trip.baseCurrency ? money(p.cents, cur) + ' ≈ ' : '') + money(c.total) + ' split between ' + ids.length + (ids.length === 1 ? ' person.' : ' people.');
    }
  }

  function setErr(id, msg, input) {
    var e = $('#err-' + id);
    if (e) e.textContent = msg || '';
    if (input) {
      if (msg) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  }

  function clearErrors() {
    ['desc', 'amount', 'date', 'payer', 'participants', 'split'].forEach(function (k) { setErr(k, ''); });
    document.querySelectorAll('#expense-form [aria-invalid]').forEach(function (x) { x.removeAttribute('aria-invalid'); });
    $('#form-error').hidden = true;
  }

  function openForm(id) {
    var rec = id ? state.expenses.find(function (r) { return r.id === id; }) : null;
    editingId = rec ? rec.id : null;
    $('#dialog-title').textContent = rec ? 'Edit expense' : 'Add expense';
    $('#f-save').textContent = rec ? 'Save changes' : 'Save expense';
    clearErrors();
    $('#f-desc').value = rec ? (rec.description || '') : '';
    $('#f-amount').value = rec && isFinite(Number(rec.amount)) && rec.amount !== null ? Number(rec.amount).toFixed(2) : '';
    var cur = $('#f-currency');
    if (cur) cur.value = rec && rec.currency in rates ? rec.currency : trip.baseCurrency;
    $('#f-date').value = rec ? (rec.date || '') : trip.startDate;
    $('#f-category').value = rec && categories.indexOf(rec.category) >= 0 ? rec.category : 'Other';
    $('#f-payer').value = rec && memberOrderIds().indexOf(rec.payer) >= 0 ? rec.payer : '';
    var type = rec && rec.split && rec.split.type ? rec.split.type : 'equal';
    var radio = document.querySelector('input[name="split"][value="' + type + '"]') || document.querySelector('input[name="split"][value="equal"]');
    radio.checked = true;
    buildWho(rec);
    updateSplitUI();
    var dlg = $('#expense-dialog');
    if (!dlg.open) dlg.showModal();
    $('#f-desc').focus();
  }

  function closeForm() {
    var dlg = $('#expense-dialog');
    if (dlg.open) dlg.close();
    editingId = null;
  }

  function submitForm(ev) {
    ev.preventDefault();
    clearErrors();
    var ok = true;
    var desc = $('#f-desc').value.trim();
    if (!desc) { setErr('desc', 'Enter a description.', $('#f-desc')); ok = false; }
    var amountIn = $('#f-amount');
    var raw = amountIn.value;
    var p = S.parseAmount(raw);
    var AMOUNT_MSG = { empty: 'Enter an amount.', nan: 'Amount must be a number.', negative: 'Amount must be greater than 0.', zero: 'Amount must be greater than 0.', decimals: 'Use at most 2 decimal places.' };
    /* @feature form-validation */
    if (p.error) {
      setErr('amount', AMOUNT_MSG[p.error], amountIn);
      ok = false;
    }
    /* @end form-validation */
    /* @broken form-validation */
    if (p.error === 'negative') p = S.parseAmount(raw.replace(/^\s*-/, ''));
    if (p.error) {
      setErr('amount', AMOUNT_MSG[p.error], amountIn);
      ok = false;
    }
    /* @end form-validation */
    if (!p.error && p.cents > 10000000) {
      setErr('amount', 'Amount must be 100,000.00 or less.', amountIn);
      ok = false;
    }
    var date = $('#f-date').value;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) { setErr('date', 'Choose a date.', $('#f-date')); ok = false; }
    var payer = $('#f-payer').value;
    if (!payer) { setErr('payer', 'Choose who paid.', $('#f-payer')); ok = false; }
    var ids = checkedIds();
    if (!ids.length) { setErr('participants', 'Select at least one participant.'); ok = false; }
    var sp = null;
    if (ids.length) {
      sp = readSplit(splitMode(), ids, p.error ? null : p.cents);
      if (sp.error) { setErr('split', sp.error); ok = false; }
    }
    if (!ok || p.error) {
      $('#form-error').hidden = false;
      return;
    }
    var rec = {
      id: editingId || ('x' + Date.now().toString(36) + (seq++)),
      description: desc,
      payer: payer,
      amount: p.cents / 100,
      currency: formCurrency(),
      date: date,
      category: $('#f-category').value,
      participants: memberOrderIds().filter(function (m) { return ids.indexOf(m) >= 0; }),
      split: sp.split
    };
    if (editingId) {
      /* @feature edit-save */
      var i = state.expenses.findIndex(function (r) { return r.id === editingId; });
      if (i >= 0) state.expenses[i] = rec;
      /* @end edit-save */
      /* @broken edit-save */
      rec.id = 'x' + Date.now().toString(36) + (seq++);
      state.expenses.push(rec);
      /* @end edit-save */
    } else {
      state.expenses.push(rec);
    }
    save();
    closeForm();
    render();
  }

  function deleteExpense(id) {
    var rec = state.expenses.find(function (r) { return r.id === id; });
    if (!rec) return;
    if (!window.confirm('Delete “' + (rec.description || 'this record') + '”? This cannot be undone.')) return;
    state.expenses = state.expenses.filter(function (r) { return r.id !== id; });
    /* @feature delete-sync */
    save();
    /* @end delete-sync */
    render();
  }

  /* ------------------------------------------------------------ wiring */

  function fillSelects() {
    var fm = $('#filter-member');
    if (fm) members.forEach(function (m) { fm.appendChild(new Option(m.name, m.id)); });
    var fc = $('#filter-category');
    if (fc) categories.forEach(function (c) { fc.appendChild(new Option(c, c)); });
    var cur = $('#f-currency');
    if (cur) Object.keys(rates).forEach(function (c) { cur.appendChild(new Option(c + ' (' + sym(c).trim() + ')', c)); });
    var cat = $('#f-category');
    categories.forEach(function (c) { cat.appendChild(new Option(c, c)); });
    var payer = $('#f-payer');
    members.forEach(function (m) { payer.appendChild(new Option(m.name, m.id)); });
  }

  function wire() {
    $('#add-btn').addEventListener('click', function () { openForm(null); });
    $('#add-btn').disabled = false;
    $('#expense-form').addEventListener('submit', submitForm);
    $('#f-cancel').addEventListener('click', closeForm);
    $('#dialog-x').addEventListener('click', closeForm);
    $('#expense-form').addEventListener('input', updateSplitUI);
    $('#expense-form').addEventListener('change', updateSplitUI);
    $('#who-all').addEventListener('click', function () {
      document.querySelectorAll('#who input[type=checkbox]').forEach(function (c) { c.checked = true; });
      updateSplitUI();
    });
    $('#who-none').addEventListener('click', function () {
      document.querySelectorAll('#who input[type=checkbox]').forEach(function (c) { c.checked = false; });
      updateSplitUI();
    });
    ['#filter-member', '#filter-category'].forEach(function (s) {
      var x = $(s);
      if (x) x.addEventListener('change', renderExpenses);
    });
    var reset = $('#reset-btn');
    if (reset) reset.disabled = false;
    if (reset) reset.addEventListener('click', function () {
      if (!window.confirm('Reset to the original trip data? Your added, edited and deleted expenses and recorded payments will be lost.')) return;
      localStorage.removeItem(STORAGE_KEY);
      state = fromFile(window.__tripData);
      $('#notice').hidden = true;
      render();
    });
    var et = $('#export-text');
    if (et) {
      et.disabled = false;
      $('#export-csv').disabled = false;
      et.addEventListener('click', function () { showExport('text'); });
      $('#export-csv').addEventListener('click', function () { showExport('csv'); });
      $('#export-copy').addEventListener('click', function () {
        var ta = $('#export-out');
        ta.select();
        var done = function () { $('#export-status').textContent = 'Copied!'; };
        if (navigator.clipboard) navigator.clipboard.writeText(ta.value).then(done, function () { document.execCommand('copy'); done(); });
        else { document.execCommand('copy'); done(); }
      });
      $('#export-download').addEventListener('click', function () {
        var csv = exportMode === 'csv';
        var blob = new Blob([$('#export-out').value], { type: csv ? 'text/csv' : 'text/plain' });
        var a = document.createElement('a');
        a.href = URL.createObjectURL(blob);
        a.download = 'trip-summary.' + (csv ? 'csv' : 'txt');
        document.body.appendChild(a);
        a.click();
        a.remove();
      });
    }
  }

  function start(data) {
    window.__tripData = data;
    trip = data.trip;
    members = data.members || [];
    rates = {};
    Object.keys(data.rates || {}).forEach(function (k) {
      if (typeof data.rates[k] === 'number' && data.rates[k] > 0) rates[k] = data.rates[k];
    });
    rates[trip.baseCurrency] = 1;
    categories = data.categories || ['Other'];
    if (categories.indexOf('Other') < 0) categories.push('Other');
    state = loadStored() || fromFile(data);
    fillSelects();
    wire();
    render();
  }

  fetch('data/trip.json')
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(start)
    .catch(function (e) {
      console.error(e);
      showNotice('The trip data could not be loaded (data/trip.json). Check the file and reload the page.');
    });
})();
