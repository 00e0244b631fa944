/* Tripsplit — pure money logic (no DOM). All amounts are integer cents. */
(function (root) {
  'use strict';

  var AMOUNT_RE = /^\d+(?:[.,]\d+)?$/;

  /* Parse a user-typed amount. Returns {cents} or {error}. */
  function parseAmount(text) {
    var s = String(text == null ? '' : text).trim().replace(/\s+/g, '');
    if (!s) return { error: 'empty' };
    if (s.charAt(0) === '-') {
      var rest = s.slice(1);
      if (AMOUNT_RE.test(rest)) return { error: 'negative' };
      return { error: 'nan' };
    }
    if (!AMOUNT_RE.test(s)) return { error: 'nan' };
    var norm = s.replace(',', '.');
    var dec = norm.split('.')[1] || '';
    if (dec.length > 2) return { error: 'decimals' };
    var whole = norm.split('.')[0];
    var cents = parseInt(whole, 10) * 100 + parseInt((dec + '00').slice(0, 2), 10);
    if (cents === 0) return { error: 'zero' };
    return { cents: cents };
  }

  function toCents(n) {
    return Math.round(Number(n) * 100);
  }

  /* Convert cents of `currency` into base-currency cents, rounding half-up to the cent. */
  function convert(cents, currency, rates) {
    var r = rates[currency];
    var x = cents * r;
    return Math.floor(Math.round(x * 1e6) / 1e6 + 0.5);
  }

  function floorSafe(x) {
    return Math.floor(Math.round(x * 1e6) / 1e6);
  }

  /* Split `totalBase` cents between participants (already in member order).
     ideal: {id: fractional cents}. Each participant gets floor(ideal); the cents left over
     go one each to the first participants in member order. */
  function distribute(totalBase, participants, ideal, payer) {
    var out = {};
    var used = 0;
    participants.forEach(function (id) {
      out[id] = floorSafe(ideal[id] || 0);
      used += out[id];
    });
    var left = totalBase - used;
    /* @feature cent-rounding */
    var i = 0;
    while (left > 0 && participants.length) {
      out[participants[i % participants.length]] += 1;
      left -= 1;
      i += 1;
    }
    /* @end cent-rounding */
    /* @broken cent-rounding */
    var order = participants.indexOf(payer) >= 0
      ? [payer].concat(participants.filter(function (p) { return p !== payer; }))
      : participants;
    var j = 0;
    while (left > 0 && order.length) {
      out[order[j % order.length]] += 1;
      left -= 1;
      j += 1;
    }
    /* @end cent-rounding */
    return out;
  }

  /* Shares of one expense in base cents: {id: cents}. `e` is a normalised expense:
     {amountCents, currency, participants[], split:{type, amounts?, shares?}, payer}. */
  function computeShares(e, members, rates) {
    var order = members.map(function (m) { return m.id; });
    var parts = order.filter(function (id) { return e.participants.indexOf(id) >= 0; });
    var total = convert(e.amountCents, e.currency, rates);
    var ideal = {};
    var type = (e.split && e.split.type) || 'equal';
    if (type === 'exact') {
      parts.forEach(function (id) {
        ideal[id] = toCents(e.split.amounts[id] || 0) * rates[e.currency];
      });
    } else if (type === 'shares') {
      var sum = 0;
      parts.forEach(function (id) { sum += Number(e.split.shares[id] || 0); });
      parts.forEach(function (id) {
        ideal[id] = sum > 0 ? total * Number(e.split.shares[id] || 0) / sum : 0;
      });
    } else {
      parts.forEach(function (id) { ideal[id] = total / parts.length; });
    }
    return { total: total, shares: distribute(total, parts, ideal, e.payer), participants: parts };
  }

  /* Why a stored record cannot be counted, or null when it is fine. */
  function problemOf(rec, members, rates) {
    var ids = members.map(function (m) { return m.id; });
    var amount = Number(rec.amount);
    if (!ids.includes(rec.payer)) {
      return rec.payer ? 'Unknown payer “' + rec.payer + '”' : 'No payer';
    }
    if (rec.amount === null || rec.amount === undefined || rec.amount === '' || !isFinite(amount)) {
      return 'Amount is missing';
    }
    if (amount < 0) return 'Negative amount (' + amount.toFixed(2) + ' ' + (rec.currency || '') + ')';
    if (amount === 0) return 'Amount is zero';
    if (!Array.isArray(rec.participants) || rec.participants.length === 0) return 'No participants';
    var unknown = rec.participants.filter(function (p) { return !ids.includes(p); });
    if (unknown.length) return 'Unknown participant “' + unknown[0] + '”';
    if (!(rec.currency in rates) || typeof rates[rec.currency] !== 'number') {
      return 'Unsupported currency ' + (rec.currency || '(none)');
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(rec.date || '')) return 'Missing date';
    var split = rec.split || { type: 'equal' };
    if (split.type === 'exact') {
      var sum = 0;
      rec.participants.forEach(function (p) { sum += toCents((split.amounts || {})[p] || 0); });
      if (sum !== toCents(amount)) return 'Exact amounts do not add up to the total';
    }
    if (split.type === 'shares') {
      var s = 0;
      rec.participants.forEach(function (p) { s += Number((split.shares || {})[p] || 0); });
      if (!(s > 0)) return 'Shares add up to 0';
    }
    return null;
  }

  /* Per-member totals. expenses: valid normalised expenses; settlements: [{from,to,cents}]. */
  function balances(expenses, settlements, members, rates) {
    var b = {};
    members.forEach(function (m) { b[m.id] = { paid: 0, share: 0, sent: 0, received: 0, net: 0 }; });
    expenses.forEach(function (e) {
      var c = computeShares(e, members, rates);
      b[e.payer].paid += c.total;
      Object.keys(c.shares).forEach(function (id) { b[id].share += c.shares[id]; });
    });
    (settlements || []).forEach(function (s) {
      if (b[s.from] && b[s.to]) {
        b[s.from].sent += s.cents;
        b[s.to].received += s.cents;
      }
    });
    members.forEach(function (m) {
      var x = b[m.id];
      x.net = x.paid - x.share + x.sent - x.received;
    });
    return b;
  }

  /* Greedy settle-up: the largest debtor pays the largest creditor, repeatedly.
     Ties go to the member listed first. Returns [{from, to, cents}]. */
  function settle(bal, members) {
    var order = members.map(function (m) { return m.id; });
    var net = {};
    order.forEach(function (id) { net[id] = bal[id].net; });
    var out = [];
    var guard = 0;
    while (guard++ < 100) {
      var debtor = null, creditor = null;
      order.forEach(function (id) {
        if (net[id] < 0 && (debtor === null || net[id] < net[debtor])) debtor = id;
      });
      /* @feature greedy-settle */
      order.forEach(function (id) {
        if (net[id] > 0 && (creditor === null || net[id] > net[creditor])) creditor = id;
      });
      /* @end greedy-settle */
      /* @broken greedy-settle */
      order.forEach(function (id) {
        if (net[id] > 0 && (creditor === null || net[id] < net[creditor])) creditor = id;
      });
      /* @end greedy-settle */
      if (debtor === null || creditor === null) break;
      var amt = Math.min(-net[debtor], net[creditor]);
      out.push({ from: debtor, to: creditor, cents: amt });
      net[debtor] += amt;
      net[creditor] -= amt;
    }
    return out;
  }

  function categoryTotals(expenses, members, rates) {
    var t = {};
    expenses.forEach(function (e) {
      var c = computeShares(e, members, rates);
      t[e.category] = (t[e.category] || 0) + c.total;
    });
    return t;
  }

  var api = {
    parseAmount: parseAmount, toCents: toCents, convert: convert, distribute: distribute,
    computeShares: computeShares, problemOf: problemOf, balances: balances, settle: settle,
    categoryTotals: categoryTotals
  };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.Split = api;
})(this);
