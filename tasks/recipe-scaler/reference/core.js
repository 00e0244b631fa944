/* Pantry & Pan — quantity engine: parsing, scaling, unit conversion, formatting, merging.
   Pure functions; used by app.js (window.PantryCore) and usable from node for checks. */
(function (root) {
  'use strict';

  var EPS = 1e-9;

  /* ------------------------------------------------------------ parsing */

  // -> {kind: 'amount', value} | {kind: 'taste'} | {kind: 'text', text}
  function parseQuantity(q) {
    /* @feature to-taste */
    if (q === null || q === undefined || (typeof q === 'string' && q.trim() === '')) {
      return { kind: 'taste' };
    }
    /* @end to-taste */
    /* @broken to-taste */
    if (q === null || q === undefined || (typeof q === 'string' && q.trim() === '')) {
      return { kind: 'taste' };
    }
    /* @end to-taste */
    if (q === null || q === undefined) return { kind: 'amount', value: Number(q) || 0 };
    if (typeof q === 'number') {
      return isFinite(q) && q >= 0 ? { kind: 'amount', value: q } : { kind: 'text', text: String(q) };
    }
    var s = String(q).trim(), m;
    if (/^\d+(\.\d+)?$/.test(s)) return { kind: 'amount', value: Number(s) };
    if ((m = /^(\d+)\s+(\d+)\/(\d+)$/.exec(s)) && Number(m[3]) > 0) {
      return { kind: 'amount', value: Number(m[1]) + Number(m[2]) / Number(m[3]) };
    }
    if ((m = /^(\d+)\/(\d+)$/.exec(s)) && Number(m[2]) > 0) {
      return { kind: 'amount', value: Number(m[1]) / Number(m[2]) };
    }
    return { kind: 'text', text: s };
  }

  function unitInfo(units, unit) {
    if (unit === null || unit === undefined || unit === '' || unit === 'piece') {
      return { dimension: 'count', name: 'piece' };
    }
    var u = units[unit];
    if (u) return Object.assign({ name: unit }, u);
    return { dimension: 'unknown', name: unit };
  }

  /* ------------------------------------------------------------ number formatting */

  function trim2(v) {
    var r = Math.round(v * 100) / 100;
    return String(r);
  }

  // US units: whole number plus the nearest nice fraction (1/4 1/3 1/2 2/3 3/4; 1/8 below 1).
  function formatUS(v) {
    if (!(v > 0)) return '0';
    var whole = Math.floor(v + EPS);
    var frac = v - whole;
    var cands = [[0, ''], [1 / 4, '1/4'], [1 / 3, '1/3'], [1 / 2, '1/2'], [2 / 3, '2/3'], [3 / 4, '3/4'], [1, '']];
    if (whole === 0) cands.splice(1, 0, [1 / 8, '1/8']);
    var best = cands[0], bestD = Infinity;
    cands.forEach(function (c) {
      var d = Math.abs(frac - c[0]);
      if (d <= bestD + EPS) { best = c; bestD = d; } // ties go to the larger value
    });
    if (best[0] === 1) { whole += 1; best = [0, '']; }
    if (whole === 0 && best[0] === 0) return '1/8';
    if (whole === 0) return best[1];
    return best[1] ? whole + ' ' + best[1] : String(whole);
  }

  // value as the nice fraction would print it (for plural decisions)
  function usValue(v) {
    var s = formatUS(v), parts = s.split(' '), t = 0;
    parts.forEach(function (p) {
      var m = /^(\d+)\/(\d+)$/.exec(p);
      t += m ? Number(m[1]) / Number(m[2]) : Number(p);
    });
    return t;
  }

  // metric: below 10 one decimal, below 100 whole, from 100 the nearest 5; kg / l two decimals
  function formatMetric(v, unit) {
    /* @feature metric-rounding */
    if (unit === 'kg' || unit === 'l') return trim2(v);
    if (v < 10) return String(Math.round(v * 10) / 10);
    if (v < 100) return String(Math.round(v));
    return String(Math.round(v / 5) * 5);
    /* @end metric-rounding */
    /* @broken metric-rounding */
    return String(Math.round(v));
    /* @end metric-rounding */
    return trim2(v); // eslint-disable-line no-unreachable
  }

  /* ------------------------------------------------------------ conversion */

  // the most readable unit of `system` for an amount in base units (g or ml)
  function readableIn(base, dimension, system, units, readable) {
    var ladder = (readable[system] || {})[dimension];
    if (!ladder || !ladder.length) return null;
    var step = ladder[ladder.length - 1];
    for (var i = 0; i < ladder.length; i++) {
      if (ladder[i].below_base === undefined || base < ladder[i].below_base - EPS) { step = ladder[i]; break; }
    }
    return { value: base / units[step.unit].factor, unit: step.unit };
  }

  // amount (value in unit `unit`) shown in `system` -> {value, unit}
  function toSystem(value, unit, system, units, readable) {
    var u = units[unit];
    if (!u || u.dimension === 'count') return { value: value, unit: unit };
    if (u.system === system) return { value: value, unit: unit };
    /* @feature conversion */
    return readableIn(value * u.factor, u.dimension, system, units, readable) || { value: value, unit: unit };
    /* @end conversion */
    /* @broken conversion */
    var b = value * u.factor;
    var one = u.dimension === 'mass' ? (system === 'us' ? 'oz' : 'g') : (system === 'us' ? 'cup' : 'ml');
    return { value: b / units[one].factor, unit: one };
    /* @end conversion */
    return { value: value, unit: unit }; // eslint-disable-line no-unreachable
  }

  function unitLabel(units, unit, shown) {
    var u = units[unit];
    if (u && u.plural && shown > 1 + EPS) return u.plural;
    return unit;
  }

  function formatAmount(value, unit, units) {
    var u = units[unit];
    if (u && u.system === 'us') {
      return { qty: formatUS(value), label: unitLabel(units, unit, usValue(value)) };
    }
    var q = formatMetric(value, unit);
    return { qty: q, label: unitLabel(units, unit, Number(q)) };
  }

  /* ------------------------------------------------------------ one ingredient line */

  // -> {qty, unit, name, note, badges: [], kind, key}
  function describe(ing, factor, system, db) {
    var units = db.units, readable = db.readable;
    var p = parseQuantity(ing.quantity);
    var name = ing.name || 'unnamed ingredient';
    var out = { qty: '', unit: '', name: name, prep: ing.note || '', badges: [], kind: p.kind };
    if (p.kind === 'taste') {
      out.prep = '';
      out.taste = true;
      return out;
    }
    /* @feature non-numeric */
    if (p.kind === 'text') {
      out.qty = p.text;
      out.badges.push('not scaled');
      return out;
    }
    /* @end non-numeric */
    /* @broken non-numeric */
    if (p.kind === 'text') {
      out.qty = p.text;
      out.badges.push('not scaled');
      return out;
    }
    /* @end non-numeric */
    var info = unitInfo(units, ing.unit);
    var v = p.value * factor;
    if (info.dimension === 'count') {
      var shown = v;
      /* @feature piece-rounding */
      shown = Math.ceil(v - EPS);
      if (Math.abs(shown - v) > 1e-6) out.badges.push('rounded up from ' + trim2(v));
      /* @end piece-rounding */
      /* @broken piece-rounding */
      shown = Math.max(1, Math.round(v));
      /* @end piece-rounding */
      out.count = shown;
      out.qty = trim2(shown);
      if (info.name === 'piece') {
        out.name = shown > 1 + EPS && ing.plural ? ing.plural : name;
      } else {
        out.unit = unitLabel(units, info.name, shown);
      }
      return out;
    }
    if (info.dimension === 'unknown') {
      /* @feature unknown-unit */
      out.kind = 'unknown';
      out.qty = trim2(v);
      out.unit = info.name;
      out.badges.push('unknown unit');
      return out;
      /* @end unknown-unit */
      /* @broken unknown-unit */
      out.qty = trim2(v);
      return out;
      /* @end unknown-unit */
      out.kind = 'text'; // eslint-disable-line no-unreachable
      out.qty = String(ing.quantity) + ' ' + info.name;
      return out;
    }
    var c = toSystem(v, info.name, system, units, readable);
    var f = formatAmount(c.value, c.unit, units);
    out.qty = f.qty;
    out.unit = f.label;
    return out;
  }

  function lineText(d) {
    if (d.taste) return d.name + ' (to taste)';
    return [d.qty, d.unit, d.name].filter(Boolean).join(' ');
  }

  /* ------------------------------------------------------------ shopping list */

  function normName(n) { return String(n || '').trim().toLowerCase().replace(/\s+/g, ' '); }

  // An entry is what one recipe contributed for one ingredient, already scaled.
  function makeEntry(ing, factor, recipe, db) {
    var p = parseQuantity(ing.quantity);
    var name = ing.name || 'unnamed ingredient';
    var aisle = ing.aisle && db.aisles.indexOf(ing.aisle) >= 0 ? ing.aisle : undefined;
    /* @feature aisles */
    aisle = aisle || 'Other';
    /* @end aisles */
    var e = { name: name, plural: ing.plural || null, aisle: aisle, recipe: recipe.title };
    if (p.kind === 'taste') { e.kind = 'taste'; return e; }
    /* @feature non-numeric */
    if (p.kind === 'text') { e.kind = 'text'; e.text = p.text; return e; }
    /* @end non-numeric */
    var info = unitInfo(db.units, ing.unit);
    var v = p.value * factor;
    if (info.dimension === 'unknown') {
      /* @feature unknown-unit */
      e.kind = 'unknown'; e.unit = info.name; e.value = v; return e;
      /* @end unknown-unit */
      /* @broken unknown-unit */
      e.kind = 'amount'; e.unit = 'piece'; e.value = v; e.dim = 'count'; return e;
      /* @end unknown-unit */
      e.kind = 'text'; e.text = String(ing.quantity) + ' ' + info.name; return e; // eslint-disable-line no-unreachable
    }
    if (info.dimension === 'count') {
      var shown = v;
      /* @feature piece-rounding */
      shown = Math.ceil(v - EPS);
      /* @end piece-rounding */
      /* @broken piece-rounding */
      shown = Math.max(1, Math.round(v));
      /* @end piece-rounding */
      e.kind = 'amount'; e.dim = 'count'; e.unit = info.name; e.value = shown; return e;
    }
    e.kind = 'amount'; e.dim = info.dimension; e.unit = info.name; e.value = v;
    return e;
  }

  function entryKey(e) {
    var n = normName(e.name);
    /* @broken merge */
    return n;
    /* @end merge */
    if (e.kind === 'taste') {
      /* @broken to-taste */
      return n + '|taste|' + e.recipe;
      /* @end to-taste */
      return n + '|taste';
    }
    if (e.kind === 'text') return n + '|text';
    if (e.kind === 'unknown') return n + '|unit:' + e.unit;
    if (e.dim === 'count') return n + '|count:' + e.unit;
    return n + '|' + e.dim;
  }

  // entries -> [{key, aisle, text, recipes: [...]}] (one line per key)
  function mergeEntries(entries, system, db) {
    var groups = {}, order = [];
    entries.forEach(function (e, i) {
      var k = entryKey(e), unique = i;
      /* @feature merge */
      unique = null;
      /* @end merge */
      /* @broken merge */
      unique = null;
      /* @end merge */
      if (unique !== null) k += '#' + unique;
      if (!groups[k]) { groups[k] = []; order.push(k); }
      groups[k].push(e);
    });
    return order.map(function (k) {
      var list = groups[k], first = list[0];
      var recipes = [];
      list.forEach(function (e) { if (recipes.indexOf(e.recipe) < 0) recipes.push(e.recipe); });
      var line = { key: k, aisle: first.aisle, name: first.name, recipes: recipes, sortName: normName(first.name) };
      line.text = lineFor(list, system, db);
      return line;
    });
  }

  function lineFor(list, system, db) {
    var units = db.units, first = list[0], name = first.name;
    if (first.kind === 'taste') return name + ' (to taste)';
    if (first.kind === 'text') {
      return list.map(function (e) { return e.kind === 'text' ? e.text : trim2(e.value || 0); }).join(' + ') + ' ' + name;
    }
    var sum = 0;
    if (first.kind === 'unknown') {
      list.forEach(function (e) { sum += e.value || 0; });
      return trim2(sum) + ' ' + first.unit + ' ' + name;
    }
    if (first.dim === 'count') {
      list.forEach(function (e) { sum += e.value || 0; });
      var nm = first.unit === 'piece' ? (sum > 1 + EPS && first.plural ? first.plural : name) : name;
      var ul = first.unit === 'piece' ? '' : unitLabel(units, first.unit, sum);
      return [trim2(sum), ul, nm].filter(Boolean).join(' ');
    }
    var same = list.every(function (e) { return e.unit === first.unit; });
    /* @broken merge */
    same = true;
    /* @end merge */
    var c;
    if (same) {
      list.forEach(function (e) { sum += e.value || 0; });
      c = toSystem(sum, first.unit, system, units, db.readable);
    } else {
      var base = 0;
      list.forEach(function (e) {
        var u = units[e.unit];
        base += (e.value || 0) * (u && u.factor ? u.factor : 0);
      });
      c = readableIn(base, first.dim, system, units, db.readable) || { value: base, unit: first.dim === 'mass' ? 'g' : 'ml' };
    }
    var f = formatAmount(c.value, c.unit, units);
    return f.qty + ' ' + f.label + ' ' + name;
  }

  var api = {
    parseQuantity: parseQuantity, formatUS: formatUS, formatMetric: formatMetric,
    toSystem: toSystem, describe: describe, lineText: lineText, makeEntry: makeEntry,
    entryKey: entryKey, mergeEntries: mergeEntries, normName: normName, trim2: trim2
  };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.PantryCore = api;
})(this);
