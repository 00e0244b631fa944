/* Keystone Loan Planner — calculation engine (no DOM access).
 * All money is handled in integer cents; rounding is half-up to the cent. */
(function (global) {
  'use strict';

  var LIMITS = { amountMin: 1000, amountMax: 100000000, rateMax: 30, termMin: 1, termMax: 40 };
  var METHODS = { installment: 'equal-installment', principal: 'equal-principal' };
  var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

  /* ---------------------------------------------------------------- parsing */

  // "300,000", "$300,000.50", " 6.5 ", "6.5%" -> number; '' -> empty; anything else -> invalid
  function parseNumber(raw) {
    var s = String(raw == null ? '' : raw).trim();
    if (s === '') return { empty: true };
    s = s.replace(/^\$\s*/, '').replace(/%$/, '').replace(/,/g, '').trim();
    if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return { invalid: true };
    var v = Number(s);
    if (!isFinite(v)) return { invalid: true };
    return { value: v };
  }

  function parseMonth(raw) {
    var m = /^(\d{4})-(\d{2})$/.exec(String(raw || '').trim());
    if (!m) return null;
    var y = Number(m[1]), mo = Number(m[2]);
    if (mo < 1 || mo > 12 || y < 1900 || y > 2200) return null;
    return { year: y, month: mo };
  }

  /* ------------------------------------------------------------- validation */

  // raw: {amount, rate, term, start, extra, method} as typed. Returns {ok, errors, values}.
  function validate(raw) {
    var errors = {};
    var values = { method: raw.method === METHODS.principal ? METHODS.principal : METHODS.installment };

    var amount = parseNumber(raw.amount);
    var rate = parseNumber(raw.rate);
    var term = parseNumber(raw.term);
    var extra = parseNumber(raw.extra);
    values.amount = amount.value;
    values.rate = rate.value;
    values.term = term.value;
    values.extra = extra.empty ? 0 : extra.value;
    values.start = parseMonth(raw.start);

    /* @feature validation */
    if (amount.empty) errors.amount = 'Enter the loan amount.';
    else if (amount.invalid) errors.amount = 'Loan amount must be a number.';
    else if (amount.value <= 0) errors.amount = 'Loan amount must be greater than 0.';

    if (rate.empty) errors.rate = 'Enter the annual interest rate.';
    else if (rate.invalid) errors.rate = 'Interest rate must be a number.';
    else if (rate.value < 0) errors.rate = 'Interest rate cannot be negative.';

    if (term.empty) errors.term = 'Enter the loan term.';
    else if (term.invalid) errors.term = 'Loan term must be a number.';
    else if (term.value <= 0) errors.term = 'Loan term must be greater than 0.';

    if (extra.invalid) errors.extra = 'Extra prepayment must be a number.';
    else if (!extra.empty && extra.value < 0) errors.extra = 'Extra prepayment cannot be negative.';

    if (!values.start) errors.start = 'Choose the first payment month.';
    /* @end validation */
    /* @broken validation */
    if (amount.empty) errors.amount = 'Enter the loan amount.';
    if (rate.empty) errors.rate = 'Enter the annual interest rate.';
    if (term.empty) errors.term = 'Enter the loan term.';
    if (!values.start) errors.start = 'Choose the first payment month.';
    /* @end validation */

    /* @feature range-limits */
    if (!errors.amount && (amount.value < LIMITS.amountMin || amount.value > LIMITS.amountMax)) {
      errors.amount = 'Loan amount must be between $1,000 and $100,000,000.';
    }
    if (!errors.rate && rate.value > LIMITS.rateMax) {
      errors.rate = 'Interest rate must be 30% or less.';
    }
    if (!errors.term && Math.floor(term.value) !== term.value) {
      errors.term = 'Loan term must be a whole number of years.';
    } else if (!errors.term && (term.value < LIMITS.termMin || term.value > LIMITS.termMax)) {
      errors.term = 'Loan term must be between 1 and 40 years.';
    }
    if (!errors.extra && !errors.amount && values.extra > amount.value) {
      errors.extra = 'Extra prepayment cannot exceed the loan amount.';
    }
    /* @end range-limits */
    /* @broken range-limits */
    if (!errors.term && term.value > 400) {
      errors.term = 'Loan term must be between 1 and 400 years.';
    }
    /* @end range-limits */

    /* @broken zero-rate */
    if (!errors.rate && rate.value === 0) errors.rate = 'Interest rate must be greater than 0.';
    /* @end zero-rate */

    return { ok: Object.keys(errors).length === 0, errors: errors, values: values };
  }

  /* ------------------------------------------------------------ amortization */

  // Regular monthly payment (cents, unrounded) for the equal-installment method.
  function annuityPayment(principalCents, r, n) {
    /* @feature zero-rate */
    if (r === 0) return principalCents / n;
    /* @end zero-rate */
    return principalCents * r / (1 - Math.pow(1 + r, -n));
  }

  function addMonths(start, k) {
    var idx = start.year * 12 + (start.month - 1) + k;
    return { year: Math.floor(idx / 12), month: (idx % 12) + 1 };
  }

  // values: {amount, rate, term, start:{year,month}, extra}; method overrides values.method.
  // Returns {method, rows, totals}. Every money field is integer cents.
  function amortize(values, method, opts) {
    method = method || values.method;
    var useExtra = !(opts && opts.noExtra);
    var P = Math.round(values.amount * 100);
    var n = Math.round(values.term) * 12;
    var r = values.rate / 100 / 12;
    var extraC = 0;
    /* @feature extra-prepay */
    extraC = useExtra ? Math.round((values.extra || 0) * 100) : 0;
    /* @end extra-prepay */
    /* @broken extra-prepay */
    extraC = useExtra ? Math.round((values.extra || 0) * 100) : 0;
    /* @end extra-prepay */
    var payment = Math.round(annuityPayment(P, r, n));
    var base = Math.round(P / n);
    var rows = [];
    var bal = P;
    var totalInterest = 0, totalPayments = 0, totalExtra = 0;

    for (var k = 1; k <= n && bal > 0; k++) {
      var interest = Math.round(bal * r);
      var princ = undefined;
      if (method === METHODS.principal) {
        /* @feature equal-principal */
        princ = base;
        /* @end equal-principal */
        /* @broken equal-principal */
        princ = base;
        interest = Math.round(Math.max(bal - base, 0) * r);
        /* @end equal-principal */
      }
      if (princ === undefined) princ = payment - interest;
      if (k === n || princ >= bal) princ = bal;
      var extraPaid = 0;
      /* @feature extra-prepay */
      extraPaid = Math.min(extraC, bal - princ);
      /* @end extra-prepay */
      /* @broken extra-prepay */
      extraPaid = k > 1 ? Math.min(extraC, bal - princ) : 0;
      /* @end extra-prepay */
      bal -= princ + extraPaid;
      var d = addMonths(values.start, k - 1);
      rows.push({
        k: k, year: d.year, month: d.month,
        payment: princ + interest, principal: princ, interest: interest,
        extra: extraPaid, balance: bal
      });
      totalInterest += interest;
      totalPayments += princ + interest;
      totalExtra += extraPaid;
    }
    return {
      method: method,
      scheduledMonths: n,
      rows: rows,
      totals: {
        interest: totalInterest,
        paid: totalPayments + totalExtra,
        extra: totalExtra,
        months: rows.length,
        firstPayment: rows.length ? rows[0].payment : 0,
        lastPayment: rows.length ? rows[rows.length - 1].payment : 0,
        regularPayment: method === METHODS.principal ? base : payment
      }
    };
  }

  // Calendar-year groups of a schedule: [{year, count, payment, principal, interest, extra, endBalance}]
  function groupByYear(rows) {
    var groups = [];
    var cur = null;
    rows.forEach(function (row) {
      if (!cur || cur.year !== row.year) {
        cur = { year: row.year, count: 0, payment: 0, principal: 0, interest: 0, extra: 0, endBalance: 0, rows: [] };
        groups.push(cur);
      }
      cur.count += 1;
      cur.payment += row.payment;
      cur.principal += row.principal;
      cur.interest += row.interest;
      cur.extra += row.extra;
      cur.endBalance = row.balance;
      cur.rows.push(row);
    });
    return groups;
  }

  /* -------------------------------------------------------------- formatting */

  function money(cents) {
    if (typeof cents !== 'number' || !isFinite(cents)) return '—';
    var neg = cents < 0;
    var abs = Math.abs(Math.round(cents));
    var whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    var frac = String(abs % 100).padStart(2, '0');
    return (neg ? '-' : '') + whole + '.' + frac;
  }
  function usd(cents) {
    var m = money(cents);
    if (m === '—') return m;
    return m.charAt(0) === '-' ? '-$' + m.slice(1) : '$' + m;
  }
  function plain(cents) { // CSV: no separators
    var abs = Math.abs(Math.round(cents));
    return (cents < 0 ? '-' : '') + Math.floor(abs / 100) + '.' + String(abs % 100).padStart(2, '0');
  }
  function monthLabel(year, month) { return MONTHS[month - 1] + ' ' + year; }
  function monthIso(year, month) { return year + '-' + String(month).padStart(2, '0'); }
  function duration(months) {
    var y = Math.floor(months / 12), m = months % 12;
    var parts = [];
    if (y) parts.push(y + (y === 1 ? ' yr' : ' yrs'));
    if (m || !y) parts.push(m + (m === 1 ? ' mo' : ' mos'));
    return parts.join(' ');
  }

  global.LoanCalc = {
    LIMITS: LIMITS, METHODS: METHODS,
    parseNumber: parseNumber, parseMonth: parseMonth, validate: validate,
    annuityPayment: annuityPayment, amortize: amortize, groupByYear: groupByYear, addMonths: addMonths,
    money: money, usd: usd, plain: plain, monthLabel: monthLabel, monthIso: monthIso, duration: duration
  };
})(typeof window !== 'undefined' ? window : globalThis);
