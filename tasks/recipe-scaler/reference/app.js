/* Pantry & Pan — UI: recipe browser, recipe page with scaling, shopping list, print view. */
(function () {
  'use strict';

  var C = window.PantryCore;
  var STORE = 'pantry-pan.shopping-list';
  var MIN_SERVINGS = 1, MAX_SERVINGS = 100;
  var SERVINGS_ERROR = 'Enter a whole number of servings from 1 to 100.';

  var state = {
    recipes: [],
    db: null,
    system: 'us',
    q: '',
    tag: '',
    servings: {},   // recipe id -> last valid servings
    raw: {},        // recipe id -> invalid text still in the servings field
    ticks: {},      // recipe id -> {index: true}
    added: {},      // recipe id -> confirmation text
    list: { entries: [], checked: {} },
    notice: ''
  };

  function $(id) { return document.getElementById(id); }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

  /* ------------------------------------------------------------------ data */

  function validBase(r) {
    var ok = true;
    /* @feature zero-servings */
    ok = typeof r.servings === 'number' && r.servings >= 1 && Math.floor(r.servings) === r.servings;
    /* @end zero-servings */
    /* @broken zero-servings */
    ok = typeof r.servings === 'number' && r.servings >= 1;
    /* @end zero-servings */
    return ok;
  }

  function currentServings(r) {
    if (state.servings[r.id] === undefined) state.servings[r.id] = r.servings;
    return state.servings[r.id];
  }

  function factorFor(r, servings) {
    /* @feature zero-servings */
    if (!validBase(r)) return 1;
    /* @end zero-servings */
    return servings / r.servings;
  }

  function findRecipe(id) {
    for (var i = 0; i < state.recipes.length; i++) if (state.recipes[i].id === id) return state.recipes[i];
    return null;
  }

  /* ------------------------------------------------------------------ storage */

  function safeGet(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }

  var KINDS = { amount: 1, taste: 1, text: 1, unknown: 1 };

  function parseStored(raw) {
    /* @feature storage-guard */
    var data;
    try { data = JSON.parse(raw); } catch (e) { return null; }
    if (!data || typeof data !== 'object' || !Array.isArray(data.entries)) return null;
    var entries = data.entries.filter(function (e) {
      if (!e || typeof e !== 'object' || typeof e.name !== 'string' || !KINDS[e.kind]) return false;
      if ((e.kind === 'amount' || e.kind === 'unknown') && !(typeof e.value === 'number' && isFinite(e.value))) return false;
      return true;
    });
    var checked = data.checked && typeof data.checked === 'object' && !Array.isArray(data.checked) ? data.checked : {};
    return { entries: entries, checked: checked };
    /* @end storage-guard */
    var d = JSON.parse(raw); // eslint-disable-line no-unreachable
    return { entries: d.entries, checked: d.checked || {} };
  }

  function loadList() {
    var raw = null;
    /* @feature persistence */
    raw = safeGet(STORE);
    /* @end persistence */
    /* @broken persistence */
    raw = safeGet(STORE);
    /* @end persistence */
    if (raw === null || raw === undefined) return;
    var data = parseStored(raw);
    if (!data) {
      state.notice = "Your saved shopping list couldn't be read, so it was reset.";
      try { window.localStorage.removeItem(STORE); } catch (e) { /* ignore */ }
      return;
    }
    state.list = data;
  }

  function saveList() {
    /* @feature persistence */
    try {
      window.localStorage.setItem(STORE, JSON.stringify({ version: 1, entries: state.list.entries, checked: state.list.checked }));
    } catch (e) { /* storage full or blocked: the list still works for this visit */ }
    /* @end persistence */
    /* @broken persistence */
    try {
      window.localStorage.setItem(STORE, JSON.stringify({ version: 1, entries: state.list.entries, checked: {} }));
    } catch (e) { /* ignore */ }
    /* @end persistence */
  }

  function listLines() {
    return C.mergeEntries(state.list.entries, state.system, state.db);
  }

  function updateCount() {
    var el = $('list-count');
    if (el) el.textContent = String(listLines().length);
  }

  function showNotice() {
    var box = $('notice');
    if (!box) return;
    if (!state.notice) { box.hidden = true; box.innerHTML = ''; return; }
    box.hidden = false;
    box.innerHTML = '<span>' + esc(state.notice) + '</span>' +
      '<button type="button" class="link-btn" id="notice-close">Dismiss</button>';
    $('notice-close').addEventListener('click', function () { state.notice = ''; showNotice(); });
  }

  /* ------------------------------------------------------------------ recipe list */

  function allTags() {
    var seen = {};
    state.recipes.forEach(function (r) { (r.tags || []).forEach(function (t) { seen[t] = true; }); });
    return Object.keys(seen).sort();
  }

  function matches(r) {
    var ok = true;
    var tags = r.tags || [];
    /* @feature tag-filter */
    if (state.tag && tags.indexOf(state.tag) < 0) ok = false;
    /* @end tag-filter */
    /* @broken tag-filter */
    if (state.tag) return tags.indexOf(state.tag) >= 0;
    /* @end tag-filter */
    var q = state.q.trim();
    /* @feature search */
    if (q) {
      var needle = q.toLowerCase();
      var hay = [r.title].concat((r.ingredients || []).map(function (i) { return i.name || ''; }));
      if (!hay.some(function (h) { return String(h).toLowerCase().indexOf(needle) >= 0; })) ok = false;
    }
    /* @end search */
    /* @broken search */
    if (q) {
      var hay2 = [r.title].concat((r.ingredients || []).map(function (i) { return i.name || ''; }));
      if (!hay2.some(function (h) { return String(h).indexOf(q) >= 0; })) ok = false;
    }
    /* @end search */
    return ok;
  }

  function renderRecipes() {
    var view = $('view');
    var html = '<section class="page-head"><div><p class="eyebrow">Your recipe box</p>' +
      '<h1>Recipes</h1><p class="lede">Pick a recipe, set how many people you are feeding and send the ' +
      'ingredients to your shopping list.</p></div></section>';
    html += '<div class="filters">';
    /* @feature search */
    html += '<div class="search"><svg viewBox="0 0 20 20" aria-hidden="true"><circle cx="9" cy="9" r="6"></circle><path d="M14 14l4 4"></path></svg>' +
      '<input type="search" id="search" aria-label="Search recipes" placeholder="Search recipes or ingredients" value="' + esc(state.q) + '"></div>';
    /* @end search */
    /* @broken search */
    html += '<div class="search"><svg viewBox="0 0 20 20" aria-hidden="true"><circle cx="9" cy="9" r="6"></circle><path d="M14 14l4 4"></path></svg>' +
      '<input type="search" id="search" aria-label="Search recipes" placeholder="Search recipes or ingredients" value="' + esc(state.q) + '"></div>';
    /* @end search */
    /* @feature tag-filter */
    html += tagChips();
    /* @end tag-filter */
    /* @broken tag-filter */
    html += tagChips();
    /* @end tag-filter */
    html += '</div><p class="result-count" id="result-count"></p><div id="grid" class="grid"></div>';
    view.innerHTML = html;
    var input = $('search');
    if (input) input.addEventListener('input', function () { state.q = input.value; renderGrid(); });
    Array.prototype.forEach.call(view.querySelectorAll('[data-tag]'), function (b) {
      b.addEventListener('click', function () {
        var t = b.getAttribute('data-tag');
        state.tag = (t === state.tag) ? '' : t;
        Array.prototype.forEach.call(view.querySelectorAll('[data-tag]'), function (o) {
          o.setAttribute('aria-pressed', String(o.getAttribute('data-tag') === state.tag));
        });
        renderGrid();
      });
    });
    renderGrid();
  }

  function tagChips() {
    var html = '<div class="chips" role="group" aria-label="Filter by tag">';
    html += '<button type="button" class="chip" data-tag="" aria-pressed="' + (state.tag === '') + '">All</button>';
    allTags().forEach(function (t) {
      html += '<button type="button" class="chip" data-tag="' + esc(t) + '" aria-pressed="' + (state.tag === t) + '">' + esc(t) + '</button>';
    });
    return html + '</div>';
  }

  function servingsLabel(r) {
    var label = 'Serves ' + r.servings;
    /* @feature zero-servings */
    if (!validBase(r)) label = 'Servings not set';
    /* @end zero-servings */
    /* @broken zero-servings */
    if (!validBase(r)) label = 'Servings not set';
    /* @end zero-servings */
    return label;
  }

  function renderGrid() {
    var grid = $('grid'), count = $('result-count');
    if (!grid) return;
    var shown = state.recipes.filter(matches);
    count.textContent = 'Showing ' + shown.length + ' of ' + plural(state.recipes.length, 'recipe', 'recipes');
    if (!shown.length) {
      var what = state.q.trim() ? '“' + esc(state.q.trim()) + '”' : 'these filters';
      grid.innerHTML = '<div class="empty"><svg viewBox="0 0 48 48" aria-hidden="true"><circle cx="21" cy="21" r="12"></circle><path d="M30 30l10 10"></path></svg>' +
        '<h2>No recipes match ' + what + (state.tag ? ' in “' + esc(state.tag) + '”' : '') + '</h2>' +
        '<p>Try another word, or clear the search and tag filter.</p>' +
        '<button type="button" class="btn" id="clear-filters">Clear filters</button></div>';
      $('clear-filters').addEventListener('click', function () { state.q = ''; state.tag = ''; renderRecipes(); });
      return;
    }
    grid.innerHTML = shown.map(function (r) {
      var n = (r.ingredients || []).length;
      return '<article class="card" aria-labelledby="card-' + esc(r.id) + '">' +
        '<div class="card-art art-' + (hash(r.id) % 5) + '" aria-hidden="true"><span>' + esc(initials(r.title)) + '</span></div>' +
        '<div class="card-body"><h2 id="card-' + esc(r.id) + '"><a href="#/recipe/' + esc(r.id) + '">' + esc(r.title) + '</a></h2>' +
        '<p class="card-sum">' + esc(r.summary || '') + '</p>' +
        '<p class="card-meta"><span>' + esc(r.minutes ? r.minutes + ' min' : '') + '</span><span>' + esc(servingsLabel(r)) + '</span><span>' + plural(n, 'ingredient', 'ingredients') + '</span></p>' +
        '<p class="card-tags">' + (r.tags || []).map(function (t) { return '<span class="tag">' + esc(t) + '</span>'; }).join('') + '</p>' +
        '</div></article>';
    }).join('');
  }

  function hash(s) { var h = 0; for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0; return h; }
  function initials(t) { return t.split(/\s+/).filter(Boolean).slice(0, 2).map(function (w) { return w[0]; }).join('').toUpperCase(); }

  /* ------------------------------------------------------------------ recipe page */

  function parseServings(raw) {
    /* @feature servings-validation */
    var s = String(raw).trim();
    if (!/^\d+$/.test(s)) return null;
    var n = Number(s);
    if (n < MIN_SERVINGS || n > MAX_SERVINGS) return null;
    return n;
    /* @end servings-validation */
    /* @broken servings-validation */
    var b = parseFloat(raw);
    if (isNaN(b) || b < MIN_SERVINGS) return null;
    return b;
    /* @end servings-validation */
    return Number(raw); // eslint-disable-line no-unreachable
  }

  function renderRecipe(r) {
    var view = $('view');
    var base = validBase(r);
    var serv = currentServings(r);
    var html = '<a class="back" href="#/">← All recipes</a>';
    html += '<header class="recipe-head"><div class="recipe-title"><p class="card-tags">' +
      (r.tags || []).map(function (t) { return '<span class="tag">' + esc(t) + '</span>'; }).join('') + '</p>' +
      '<h1>' + esc(r.title) + '</h1><p class="lede">' + esc(r.summary || '') + '</p>' +
      '<p class="recipe-meta"><span>' + esc(r.minutes ? r.minutes + ' min' : '') + '</span><span>' +
      esc(base ? 'Original recipe serves ' + r.servings : servingsLabel(r)) + '</span></p></div></header>';
    html += '<div class="recipe-grid"><section class="panel" aria-labelledby="ing-title">';
    html += '<div class="panel-head"><h2 id="ing-title">Ingredients</h2><div class="tick-tools" id="tick-tools"></div></div>';
    /* @feature zero-servings */
    if (!base) {
      html += '<div class="warn" role="note"><strong>This recipe can’t be scaled.</strong> It doesn’t say how many servings it makes, so quantities are shown as written.</div>';
    }
    /* @end zero-servings */
    /* @broken zero-servings */
    if (!base) {
      html += '<div class="warn" role="note"><strong>This recipe can’t be scaled.</strong> It doesn’t say how many servings it makes, so quantities are shown as written.</div>';
    }
    /* @end zero-servings */
    var rawText = state.raw[r.id] !== undefined ? state.raw[r.id] : String(base ? serv : '');
    var locked = false;
    /* @feature zero-servings */
    locked = !base;
    /* @end zero-servings */
    html += '<div class="servings"><label for="servings">Servings</label><div class="stepper">';
    /* @feature stepper */
    html += '<button type="button" class="step" id="dec" aria-label="Decrease servings"' + (locked ? ' disabled' : '') + '>−</button>';
    /* @end stepper */
    /* @broken stepper */
    html += '<button type="button" class="step" id="dec" aria-label="Decrease servings"' + (locked ? ' disabled' : '') + '>−</button>';
    /* @end stepper */
    html += '<input id="servings" type="text" inputmode="numeric" autocomplete="off" aria-describedby="servings-error servings-hint" value="' + esc(rawText) + '"' + (locked ? ' disabled' : '') + '>';
    /* @feature stepper */
    html += '<button type="button" class="step" id="inc" aria-label="Increase servings"' + (locked ? ' disabled' : '') + '>+</button>';
    /* @end stepper */
    /* @broken stepper */
    html += '<button type="button" class="step" id="inc" aria-label="Increase servings"' + (locked ? ' disabled' : '') + '>+</button>';
    /* @end stepper */
    html += '</div><span class="hint" id="servings-hint"></span></div>';
    html += '<p class="field-error" id="servings-error" hidden></p>';
    html += '<ul class="ingredients" id="ingredients"></ul>';
    html += '<div class="actions">';
    /* @feature add-to-list */
    html += '<button type="button" class="btn primary" id="add-to-list">Add to shopping list</button>';
    /* @end add-to-list */
    /* @broken add-to-list */
    html += '<button type="button" class="btn primary" id="add-to-list">Add to shopping list</button>';
    /* @end add-to-list */
    /* @feature print-view */
    html += '<a class="btn" id="print-link" href="#/recipe/' + esc(r.id) + '/print">Print view</a>';
    /* @end print-view */
    /* @broken print-view */
    html += '<a class="btn" id="print-link" href="#/recipe/' + esc(r.id) + '/print">Print view</a>';
    /* @end print-view */
    html += '</div><p class="added" id="added" role="status"></p></section>';
    html += '<section class="panel method" aria-labelledby="method-title"><h2 id="method-title">Method</h2><ol class="steps">' +
      (r.steps || []).map(function (s) { return '<li>' + esc(s) + '</li>'; }).join('') + '</ol></section></div>';
    view.innerHTML = html;

    var input = $('servings');
    input.addEventListener('input', function () {
      var n = parseServings(input.value);
      if (n === null) {
        state.raw[r.id] = input.value;
      } else {
        delete state.raw[r.id];
        state.servings[r.id] = n;
      }
      refreshRecipe(r);
    });
    /* @feature stepper */
    $('dec').addEventListener('click', function () { step(r, -1); });
    $('inc').addEventListener('click', function () { step(r, 1); });
    /* @end stepper */
    /* @broken stepper */
    $('dec').addEventListener('click', function () { brokenStep(r, -1); });
    $('inc').addEventListener('click', function () { brokenStep(r, 1); });
    /* @end stepper */
    /* @feature add-to-list */
    $('add-to-list').addEventListener('click', function () { addToList(r, currentServings(r)); });
    /* @end add-to-list */
    /* @broken add-to-list */
    $('add-to-list').addEventListener('click', function () { addToList(r, r.servings); });
    /* @end add-to-list */
    if (state.added[r.id]) showAdded(r);
    refreshRecipe(r);
  }

  /* @feature stepper */
  function step(r, delta) {
    var n = currentServings(r) + delta;
    if (n < MIN_SERVINGS || n > MAX_SERVINGS) return;
    state.servings[r.id] = n;
    delete state.raw[r.id];
    var input = $('servings');
    if (input) input.value = String(n);
    refreshRecipe(r);
  }
  /* @end stepper */
  /* @broken stepper */
  function brokenStep(r, delta) {
    var n = currentServings(r) + delta;
    if (n < 0) return;
    state.servings[r.id] = n;
    delete state.raw[r.id];
    var input = $('servings');
    if (input) input.value = String(n);
    refreshRecipe(r);
  }
  /* @end stepper */

  // re-render everything that depends on the servings, without touching the input
  function refreshRecipe(r) {
    var base = validBase(r);
    var serv = currentServings(r);
    var invalid = state.raw[r.id] !== undefined;
    var input = $('servings'), err = $('servings-error'), hint = $('servings-hint');
    if (input) input.setAttribute('aria-invalid', invalid ? 'true' : 'false');
    if (err) { err.hidden = !invalid; err.textContent = invalid ? SERVINGS_ERROR : ''; }
    var locked = !base;
    var dec = $('dec'), inc = $('inc');
    /* @feature stepper */
    if (dec) dec.disabled = locked || serv <= MIN_SERVINGS;
    if (inc) inc.disabled = locked || serv >= MAX_SERVINGS;
    /* @end stepper */
    var factor = factorFor(r, serv);
    if (hint) {
      hint.textContent = !base ? 'Quantities as written' :
        (serv === r.servings ? 'Original amounts' : 'Scaled ×' + C.trim2(factor) + ' from ' + r.servings);
    }
    var ticks = state.ticks[r.id] || (state.ticks[r.id] = {});
    var list = $('ingredients');
    list.innerHTML = (r.ingredients || []).map(function (ing, i) {
      var d = C.describe(ing, factor, state.system, state.db);
      var inner = '<span class="qty">' + esc([d.qty, d.unit].filter(Boolean).join(' ')) + '</span> ' +
        '<span class="name">' + esc(d.name) + '</span>' +
        (d.prep ? '<span class="prep">, ' + esc(d.prep) + '</span>' : '') +
        (d.taste ? ' <span class="badge taste">to taste</span>' : '') +
        d.badges.map(function (b) { return ' <span class="badge' + (/unknown|not scaled/.test(b) ? ' warn-badge' : '') + '">' + esc(b) + '</span>'; }).join('');
      var row = '<li class="ing"><span class="ing-line">' + inner + '</span></li>';
      /* @feature ticks */
      row = '<li class="ing' + (ticks[i] ? ' ticked' : '') + '"><label class="tick"><input type="checkbox" data-idx="' + i + '"' + (ticks[i] ? ' checked' : '') + '><span class="ing-line">' + inner + '</span></label></li>';
      /* @end ticks */
      /* @broken ticks */
      row = '<li class="ing"><label class="tick"><input type="checkbox" data-idx="' + i + '"><span class="ing-line">' + inner + '</span></label></li>';
      /* @end ticks */
      return row;
    }).join('');
    /* @feature ticks */
    wireTicks(r, function (i, on) { if (on) ticks[i] = true; else delete ticks[i]; });
    /* @end ticks */
    /* @broken ticks */
    wireTicks(r, function () {});
    /* @end ticks */
  }

  /* @feature ticks */
  function wireTicks(r, store) {
    var list = $('ingredients'), tools = $('tick-tools');
    var total = (r.ingredients || []).length;
    function sync() {
      var n = list.querySelectorAll('input[type=checkbox]:checked').length;
      tools.innerHTML = '<span class="tick-count">' + n + ' of ' + total + ' ticked</span>' +
        '<button type="button" class="link-btn" id="clear-ticks"' + (n ? '' : ' disabled') + '>Clear ticks</button>';
      $('clear-ticks').addEventListener('click', function () {
        Array.prototype.forEach.call(list.querySelectorAll('input[type=checkbox]'), function (c) {
          c.checked = false; store(Number(c.getAttribute('data-idx')), false);
          c.closest('li').classList.remove('ticked');
        });
        sync();
      });
    }
    Array.prototype.forEach.call(list.querySelectorAll('input[type=checkbox]'), function (c) {
      c.addEventListener('change', function () {
        store(Number(c.getAttribute('data-idx')), c.checked);
        c.closest('li').classList.toggle('ticked', c.checked);
        sync();
      });
    });
    sync();
  }
  /* @end ticks */
  /* @broken ticks */
  function wireTicks(r, store) {
    var list = $('ingredients'), tools = $('tick-tools');
    var total = (r.ingredients || []).length;
    function sync() {
      var n = list.querySelectorAll('input[type=checkbox]:checked').length;
      tools.innerHTML = '<span class="tick-count">' + n + ' of ' + total + ' ticked</span>' +
        '<button type="button" class="link-btn" id="clear-ticks"' + (n ? '' : ' disabled') + '>Clear ticks</button>';
      $('clear-ticks').addEventListener('click', function () {
        Array.prototype.forEach.call(list.querySelectorAll('input[type=checkbox]'), function (c) {
          c.checked = false; c.closest('li').classList.remove('ticked');
        });
        sync();
      });
    }
    Array.prototype.forEach.call(list.querySelectorAll('input[type=checkbox]'), function (c) {
      c.addEventListener('change', function () { store(); c.closest('li').classList.toggle('ticked', c.checked); sync(); });
    });
    sync();
  }
  /* @end ticks */

  function addToList(r, servings) {
    var factor = factorFor(r, servings);
    var n = 0;
    (r.ingredients || []).forEach(function (ing) {
      var e = C.makeEntry(ing, factor, r, state.db);
      state.list.entries.push(e);
      n += 1;
    });
    saveList();
    updateCount();
    state.added[r.id] = 'Added ' + plural(n, 'ingredient', 'ingredients') + ' from ' + r.title +
      (validBase(r) ? ' (' + plural(servings, 'serving', 'servings') + ')' : ' (as written)') + ' to your shopping list.';
    showAdded(r);
  }

  function showAdded(r) {
    var box = $('added');
    if (!box) return;
    box.innerHTML = '<svg viewBox="0 0 20 20" aria-hidden="true"><path d="M4 10l4 4 8-8"></path></svg><span>' +
      esc(state.added[r.id]) + '</span> <a href="#/list">View shopping list</a>';
  }

  /* ------------------------------------------------------------------ print view */

  function renderPrint(r, servings) {
    document.body.classList.add('print-mode');
    var factor = factorFor(r, servings);
    var view = $('view');
    var html = '<article class="print-sheet">';
    html += '<div class="print-tools"><button type="button" class="btn primary" id="do-print">Print</button>' +
      '<a class="btn" href="#/recipe/' + esc(r.id) + '">Back to recipe</a></div>';
    html += '<h1>' + esc(r.title) + '</h1>';
    html += '<p class="print-meta">' + (validBase(r) ? 'Serves ' + esc(servings) : 'Quantities as written') +
      ' · ' + (state.system === 'us' ? 'US units' : 'Metric units') + (r.minutes ? ' · ' + r.minutes + ' min' : '') + '</p>';
    html += '<h2>Ingredients</h2><ul class="print-ings">' + (r.ingredients || []).map(function (ing) {
      var d = C.describe(ing, factor, state.system, state.db);
      return '<li>' + esc(C.lineText(d)) + (d.prep ? '<span class="prep">, ' + esc(d.prep) + '</span>' : '') + '</li>';
    }).join('') + '</ul>';
    html += '<h2>Method</h2><ol class="print-steps">' + (r.steps || []).map(function (s) { return '<li>' + esc(s) + '</li>'; }).join('') + '</ol>';
    html += '<p class="print-foot">Printed from Pantry &amp; Pan</p></article>';
    view.innerHTML = html;
    $('do-print').addEventListener('click', function () { window.print(); });
  }

  /* ------------------------------------------------------------------ shopping list */

  function renderList() {
    var view = $('view');
    var lines = listLines();
    var checked = state.list.checked;
    var nChecked = lines.filter(function (l) { return checked[l.key]; }).length;
    var html = '<section class="page-head"><div><p class="eyebrow">Ready for the shop</p><h1>Shopping list</h1>' +
      '<p class="lede" id="list-summary">' + plural(lines.length, 'item', 'items') + ' · ' + nChecked + ' checked</p></div>';
    html += '<div class="list-tools">';
    /* @feature check-off */
    html += '<button type="button" class="btn" id="clear-checked"' + (nChecked ? '' : ' disabled') + '>Clear checked</button>';
    /* @end check-off */
    /* @broken check-off */
    html += '<button type="button" class="btn" id="clear-checked"' + (nChecked ? '' : ' disabled') + '>Clear checked</button>';
    /* @end check-off */
    /* @feature clear-list */
    html += '<button type="button" class="btn danger" id="clear-list"' + (lines.length ? '' : ' disabled') + '>Clear list</button>';
    /* @end clear-list */
    html += '</div></section>';
    if (!lines.length) {
      /* @feature list-empty-state */
      html += '<div class="empty list-empty"><svg viewBox="0 0 48 48" aria-hidden="true"><path d="M8 10h5l5 22h20l4-15H16"></path><circle cx="20" cy="39" r="3"></circle><circle cx="35" cy="39" r="3"></circle></svg>' +
        '<h2>Your shopping list is empty</h2><p>Open a recipe, choose the servings you need and press “Add to shopping list”.</p>' +
        '<a class="btn primary" href="#/">Browse recipes</a></div>';
      /* @end list-empty-state */
      view.innerHTML = html;
      wireListTools(lines);
      return;
    }
    var groups = groupLines(lines);
    html += '<div class="aisles">' + groups.map(function (g, gi) {
      var body = '<ul class="lines">' + g.lines.map(function (l) {
        var on = !!checked[l.key];
        var from = '<span class="from">' + esc(l.recipes.join(', ')) + '</span>';
        return '<li class="line' + (on ? ' done' : '') + '"><label><input type="checkbox" data-key="' + esc(l.key) + '"' + (on ? ' checked' : '') + '>' +
          '<span class="line-text">' + esc(l.text) + '</span></label>' + from + '</li>';
      }).join('') + '</ul>';
      if (!g.title) return '<section class="aisle">' + body + '</section>';
      return '<section class="aisle" aria-labelledby="aisle-' + gi + '"><h2 id="aisle-' + gi + '">' + esc(g.title) +
        ' <span class="aisle-n">' + g.lines.length + '</span></h2>' + body + '</section>';
    }).join('') + '</div>';
    view.innerHTML = html;
    /* @feature check-off */
    Array.prototype.forEach.call(view.querySelectorAll('input[data-key]'), function (c) {
      c.addEventListener('change', function () {
        var k = c.getAttribute('data-key');
        if (c.checked) checked[k] = true; else delete checked[k];
        saveList();
        renderList();
      });
    });
    /* @end check-off */
    /* @broken check-off */
    Array.prototype.forEach.call(view.querySelectorAll('input[data-key]'), function (c) {
      c.addEventListener('change', function () {
        var k = c.getAttribute('data-key');
        if (c.checked) checked[k] = true; else delete checked[k];
        saveList();
        renderList();
      });
    });
    /* @end check-off */
    wireListTools(lines);
  }

  function byName(a, b) { return a.sortName < b.sortName ? -1 : a.sortName > b.sortName ? 1 : 0; }

  function groupLines(lines) {
    var sorted = lines.slice().sort(byName);
    var groups = [{ title: '', lines: sorted }];
    /* @feature aisles */
    groups = state.db.aisles.map(function (a) {
      return { title: a, lines: sorted.filter(function (l) { return l.aisle === a; }) };
    }).filter(function (g) { return g.lines.length; });
    /* @end aisles */
    /* @broken aisles */
    var names = state.db.aisles.slice();
    sorted.forEach(function (l) { if (names.indexOf(String(l.aisle)) < 0) names.push(String(l.aisle)); });
    groups = names.map(function (a) {
      return { title: a, lines: sorted.filter(function (l) { return String(l.aisle) === a; }) };
    }).filter(function (g) { return g.lines.length; });
    /* @end aisles */
    return groups;
  }

  function wireListTools(lines) {
    var checked = state.list.checked;
    var cc = $('clear-checked');
    /* @feature check-off */
    if (cc) cc.addEventListener('click', function () {
      var gone = {};
      lines.forEach(function (l) { if (checked[l.key]) gone[l.key] = true; });
      state.list.entries = state.list.entries.filter(function (e) { return !gone[lineKeyOf(e)]; });
      state.list.checked = {};
      saveList();
      updateCount();
      renderList();
    });
    /* @end check-off */
    /* @broken check-off */
    if (cc) cc.addEventListener('click', function () {
      state.list.checked = {};
      saveList();
      renderList();
    });
    /* @end check-off */
    var cl = $('clear-list');
    /* @feature clear-list */
    if (cl) cl.addEventListener('click', function () {
      if (!window.confirm('Remove every item from your shopping list?')) return;
      state.list = { entries: [], checked: {} };
      saveList();
      updateCount();
      renderList();
    });
    /* @end clear-list */
  }

  // the line key an entry belongs to (same rule as mergeEntries)
  function lineKeyOf(e) {
    var lines = C.mergeEntries([e], state.system, state.db);
    var k = lines.length ? lines[0].key : '';
    var idx = state.list.entries.indexOf(e);
    return k.replace(/#\d+$/, '#' + idx);
  }

  /* ------------------------------------------------------------------ routing */

  function setActiveNav(which) {
    var a = $('nav-recipes'), b = $('nav-list');
    if (a) a.classList.toggle('active', which === 'recipes');
    if (b) b.classList.toggle('active', which === 'list');
    if (a) { if (which === 'recipes') a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current'); }
    if (b) { if (which === 'list') b.setAttribute('aria-current', 'page'); else b.removeAttribute('aria-current'); }
  }

  function route() {
    var h = decodeURIComponent(location.hash.replace(/^#/, '')) || '/';
    document.body.classList.remove('print-mode');
    var m;
    if (h === '/' || h === '') { setActiveNav('recipes'); renderRecipes(); return; }
    if (h === '/list') { setActiveNav('list'); renderList(); return; }
    if ((m = /^\/recipe\/([^/]+)(\/print)?$/.exec(h))) {
      var r = findRecipe(m[1]);
      setActiveNav('recipes');
      if (!r) { renderMissing(); return; }
      if (m[2]) {
        /* @feature print-view */
        renderPrint(r, currentServings(r));
        return;
        /* @end print-view */
        /* @broken print-view */
        renderPrint(r, r.servings);
        return;
        /* @end print-view */
      }
      renderRecipe(r);
      return;
    }
    renderMissing();
  }

  function renderMissing() {
    $('view').innerHTML = '<div class="empty"><h1>Recipe not found</h1><p>That page doesn’t exist in your recipe box.</p>' +
      '<a class="btn primary" href="#/">Back to recipes</a></div>';
  }

  function initUnits() {
    Array.prototype.forEach.call(document.querySelectorAll('.unit-btn'), function (b) {
      b.addEventListener('click', function () {
        state.system = b.getAttribute('data-system');
        Array.prototype.forEach.call(document.querySelectorAll('.unit-btn'), function (o) {
          o.setAttribute('aria-pressed', String(o === b));
        });
        /* @feature unit-toggle */
        route();
        /* @end unit-toggle */
      });
    });
  }

  function fail(msg) {
    $('view').innerHTML = '<div class="empty"><h1>Recipes unavailable</h1><p>' + esc(msg) + '</p></div>';
  }

  function boot() {
    Promise.all([
      fetch('data/recipes.json').then(function (r) { if (!r.ok) throw new Error('recipes.json ' + r.status); return r.json(); }),
      fetch('data/units.json').then(function (r) { if (!r.ok) throw new Error('units.json ' + r.status); return r.json(); })
    ]).then(function (res) {
      var rec = res[0] || {}, un = res[1] || {};
      state.recipes = (rec.recipes || []).filter(function (r) { return r && r.id && r.title; });
      state.db = { units: un.units || {}, readable: un.readable || {}, aisles: rec.aisles || ['Other'] };
      if (state.db.aisles.indexOf('Other') < 0) state.db.aisles.push('Other');
      initUnits();
      loadList();
      showNotice();
      updateCount();
      window.addEventListener('hashchange', route);
      route();
    }).catch(function (e) { fail('The recipe data could not be loaded (' + e.message + ').'); });
  }

  boot();
})();
