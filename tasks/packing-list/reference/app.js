'use strict';
// Packing lists: trips from data/packing.json, their items by category, packed state,
// quantities, reordering and weight against the bag limit; kept in localStorage.
const STORE = 'packing-lists-v1';
const OTHER = { id: 'other', name: 'Other' };
const state = { categories: [], templates: [], trips: [], openId: null, rowMsg: {}, seq: 0 };
const ACTIONS = {};   // data-act name -> handler(item, trip, element)
const HOOKS = {};     // optional parts registered by the features below
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const kg = (g) => (Math.round(g / 10) / 100).toFixed(2) + ' kg';
const limitText = (l) => `${Math.round(l * 100) / 100} kg`;
const nextId = () => { state.seq += 1; return `i${state.seq}`; };
const openTrip = () => state.trips.find((t) => t.id === state.openId) || null;
const weightOf = (t) => t.items.reduce((a, i) => a + i.qty * i.weight, 0);
const packedOf = (t) => t.items.filter((i) => i.packed).length;
const catName = (id) => (state.categories.find((c) => c.id === id) || (id === OTHER.id ? OTHER : { name: id })).name;
const isWhole = (s, lo, hi) => /^\d+$/.test(String(s).trim()) && Number(s) >= lo && Number(s) <= hi;

// ------------------------------------------------------------------ data rules
function normItems(raw) {
  const known = new Set(state.categories.map((c) => c.id));
  let items = raw.map((r) => {
    const w = Number(r.weightG);
    let weight = Number.isFinite(w) ? w : 0;
    /* @feature negative-weight */
    if (!(weight >= 0)) weight = 0;
    /* @end negative-weight */
    /* @broken negative-weight */
    weight = Math.abs(weight);
    /* @end negative-weight */
    let category = String(r.category || '');
    /* @feature unknown-category */
    if (!known.has(category)) category = OTHER.id;
    /* @end unknown-category */
    /* @broken unknown-category */
    if (!known.has(category)) category = state.categories[0].id;
    /* @end unknown-category */
    return { id: nextId(), category, name: String(r.name || '').trim(), qty: Math.max(1, Math.round(Number(r.qty) || 1)), weight, packed: r.packed === true };
  }).filter((i) => i.name && (known.has(i.category) || i.category === OTHER.id));
  let merged = 0;
  /* @feature dedupe-items */
  const firsts = new Map();
  items = items.filter((i) => {
    const key = `${i.category}|${i.name.toLowerCase()}`;
    const first = firsts.get(key);
    if (!first) { firsts.set(key, i); return true; }
    first.qty += i.qty;
    merged += 1;
    return false;
  });
  /* @end dedupe-items */
  /* @broken dedupe-items */
  const firsts = new Map();
  items = items.filter((i) => {
    const key = `${i.category}|${i.name.toLowerCase()}`;
    if (!firsts.has(key)) { firsts.set(key, i); return true; }
    merged += 1;
    return false;
  });
  /* @end dedupe-items */
  return { items, merged };
}

function makeTrip(id, name, limit, rawItems) {
  const { items, merged } = normItems(rawItems);
  return { id, name, limit, items, merged };
}

// ------------------------------------------------------------------ storage
function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify({ trips: state.trips, openId: state.openId, seq: state.seq }));
  /* @end persist */
  /* @broken persist */
  const bySeq = (a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1));
  const trips = state.trips.map((t) => ({ ...t, items: [...t.items].sort(bySeq) }));
  localStorage.setItem(STORE, JSON.stringify({ trips, openId: state.openId, seq: state.seq }));
  /* @end persist */
}
function load() {
  /* @feature persist */
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (s && Array.isArray(s.trips)) { state.trips = s.trips; state.openId = s.openId; state.seq = s.seq || 0; return true; }
  } catch (e) { /* unreadable storage: start from the data */ }
  /* @end persist */
  /* @broken persist */
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (s && Array.isArray(s.trips)) { state.trips = s.trips; state.openId = s.openId; state.seq = s.seq || 0; return true; }
  } catch (e) { /* unreadable storage: start from the data */ }
  /* @end persist */
  return false;
}

// ------------------------------------------------------------------ rendering
function renderTrips() {
  $('trips').innerHTML = state.trips.map((t) => `<li class="${t.id === state.openId ? 'open' : ''}">
    <button type="button" data-trip="${esc(t.id)}"${t.id === state.openId ? ' aria-current="true"' : ''}>${esc(t.name)}</button>
    ${HOOKS.badge?.(t) ?? ''}</li>`).join('');
}

function tripCategories(t) {
  const cats = [...state.categories];
  if (t.items.some((i) => i.category === OTHER.id)) cats.push(OTHER);
  return cats;
}

function itemRow(item, idx, count) {
  const n = esc(item.name);
  let moves = '';
  moves = HOOKS.moveButtons?.(item, idx, count) ?? '';
  return `<li class="item${item.packed ? ' packed' : ''}" data-row="${item.id}">
    <label class="name"><input type="checkbox" data-item="${item.id}" data-ctl="packed"${item.packed ? ' checked' : ''}> <span>${n}</span></label>
    <input class="qty" type="number" min="1" max="99" value="${item.qty}" aria-label="Quantity of ${n}" data-item="${item.id}" data-ctl="qty">
    ${HOOKS.each?.(item) ?? ''}
    <span class="tools">${moves}${HOOKS.removeButton?.(item) ?? ''}</span>
    ${state.rowMsg[item.id] ? `<p class="row-msg" role="alert">${esc(state.rowMsg[item.id])}</p>` : ''}</li>`;
}

function renderTrip() {
  const t = openTrip();
  const view = $('trip-view');
  if (!t) { view.innerHTML = '<p class="empty">No trip yet. Create one with the form.</p>'; return; }
  const total = weightOf(t);
  const sections = tripCategories(t).map((c) => {
    const items = t.items.filter((i) => i.category === c.id);
    return `<section class="cat" aria-labelledby="cat-${c.id}">
      <div class="cat-head"><h3 id="cat-${c.id}">${esc(c.name)}</h3>${HOOKS.catProgress?.(items) ?? ''}</div>
      <ul aria-label="${esc(c.name)}">${items.map((it, k) => itemRow(it, k, items.length)).join('')}</ul></section>`;
  }).join('');
  view.innerHTML = `<div class="trip-head"><h2>${esc(t.name)}</h2>
      ${t.merged ? `<p class="notice">${t.merged} duplicate item${t.merged > 1 ? 's' : ''} merged</p>` : ''}</div>
    <div class="summary">
      <p class="count">Packed ${packedOf(t)} of ${t.items.length} items</p>
      <p class="weight">Total weight: ${kg(total)} of ${limitText(t.limit)}</p>
      ${HOOKS.limitLine?.(t, total) ?? ''}
      <div class="bar" aria-hidden="true"><span style="width:${Math.min(100, t.limit ? (total / (t.limit * 1000)) * 100 : 0)}%" class="${total > t.limit * 1000 ? 'over' : ''}"></span></div>
    </div>${sections}`;
}

function renderAddCategories() {
  const sel = $('a-cat');
  const t = openTrip();
  if (!sel) return;
  const keep = sel.value;
  const cats = t ? tripCategories(t) : state.categories;
  sel.innerHTML = cats.map((c) => `<option value="${esc(c.id)}">${esc(c.name)}</option>`).join('');
  if (cats.some((c) => c.id === keep)) sel.value = keep;
}

function render() {
  renderTrips();
  renderTrip();
  renderAddCategories();
}

function commit() { save(); render(); }

/* @feature item-weight */
HOOKS.each = (item) => `<span class="each">${Math.round(item.weight * 100) / 100} g each</span>`;
/* @end item-weight */
/* @broken item-weight */
HOOKS.each = (item) => `<span class="each">${Math.round(item.weight) / 1000} kg each</span>`;
/* @end item-weight */
/* @feature trip-badges */
HOOKS.badge = (t) => `<span class="badge">${packedOf(t)}/${t.items.length} packed</span>`;
/* @end trip-badges */

/* @feature category-progress */
HOOKS.catProgress = (items) => {
  const done = items.filter((i) => i.packed).length;
  let text = items.length ? `${done} of ${items.length} packed` : 'No items yet';
  /* @feature all-packed */
  if (items.length && done === items.length) text = 'All packed';
  /* @end all-packed */
  /* @broken all-packed */
  if (items.length && done >= items.length - 1) text = 'All packed';
  /* @end all-packed */
  return `<p class="progress${text === 'All packed' ? ' complete' : ''}">${text}</p>`;
};
/* @end category-progress */
/* @broken category-progress */
HOOKS.catProgress = (items) => {
  const units = items.reduce((a, i) => a + i.qty, 0);
  const done = items.filter((i) => i.packed).reduce((a, i) => a + i.qty, 0);
  const text = items.length ? (done === units ? 'All packed' : `${done} of ${units} packed`) : 'No items yet';
  return `<p class="progress">${text}</p>`;
};
/* @end category-progress */

/* @feature limit-warning */
HOOKS.limitLine = (t, total) => {
  const left = t.limit * 1000 - total;
  return left < 0 ? `<p class="over" role="alert">Over the limit by ${kg(-left)}</p>` : `<p class="left">${kg(left)} left</p>`;
};
/* @end limit-warning */
/* @broken limit-warning */
HOOKS.limitLine = (t) => {
  const packedWeight = t.items.filter((i) => i.packed).reduce((a, i) => a + i.qty * i.weight, 0);
  const left = t.limit * 1000 - packedWeight;
  return left < 0 ? `<p class="over" role="alert">Over the limit by ${kg(-left)}</p>` : `<p class="left">${kg(left)} left</p>`;
};
/* @end limit-warning */

// ------------------------------------------------------------------ item actions
function moveItem(t, item, dir) {
  const same = t.items.filter((i) => i.category === item.category);
  const k = same.indexOf(item);
  const other = same[k + dir];
  if (!other) return false;
  const a = t.items.indexOf(item); const b = t.items.indexOf(other);
  t.items[a] = other; t.items[b] = item;
  return true;
}

/* @feature move-buttons */
HOOKS.moveButtons = (item, idx, count) => `<button type="button" class="icon" data-act="up" data-item="${item.id}" data-ctl="up" aria-label="Move ${esc(item.name)} up"${idx === 0 ? ' disabled' : ''}>↑</button><button type="button" class="icon" data-act="down" data-item="${item.id}" data-ctl="down" aria-label="Move ${esc(item.name)} down"${idx === count - 1 ? ' disabled' : ''}>↓</button>`;
/* @end move-buttons */
/* @broken move-buttons */
HOOKS.moveButtons = (item) => `<button type="button" class="icon" data-act="up" data-item="${item.id}" data-ctl="up" aria-label="Move ${esc(item.name)} up">↑</button><button type="button" class="icon" data-act="down" data-item="${item.id}" data-ctl="down" aria-label="Move ${esc(item.name)} down">↓</button>`;
/* @end move-buttons */
ACTIONS.up = (item, t) => { if (moveItem(t, item, -1)) commit(); };
ACTIONS.down = (item, t) => { if (moveItem(t, item, 1)) commit(); };

/* @feature remove */
HOOKS.removeButton = (item) => `<button type="button" class="icon remove" data-act="remove" data-item="${item.id}" data-ctl="remove" aria-label="Remove ${esc(item.name)}">✕</button>`;
ACTIONS.remove = (item, t) => { t.items = t.items.filter((i) => i !== item); delete state.rowMsg[item.id]; commit(); };
/* @end remove */
/* @broken remove */
HOOKS.removeButton = (item) => `<button type="button" class="icon remove" data-act="remove" data-item="${item.id}" data-ctl="remove" aria-label="Remove ${esc(item.name)}">✕</button>`;
ACTIONS.remove = (item, t) => {
  const first = t.items.find((i) => i.category === item.category);
  t.items = t.items.filter((i) => i !== first);
  commit();
};
/* @end remove */

ACTIONS.packed = (item, t, el) => { item.packed = el.checked; commit(); };

/* @feature quantity */
ACTIONS.qty = (item, t, el) => {
  const raw = el.value;
  /* @feature qty-validation */
  if (!isWhole(raw, 1, 99)) {
    state.rowMsg[item.id] = 'Quantity must be a whole number from 1 to 99.';
    render();
    return;
  }
  /* @end qty-validation */
  /* @broken qty-validation */
  if (!isWhole(raw, 0, 99)) {
    state.rowMsg[item.id] = 'Quantity must be a whole number from 1 to 99.';
    render();
    return;
  }
  /* @end qty-validation */
  item.qty = Number(raw);
  delete state.rowMsg[item.id];
  commit();
};
/* @end quantity */
/* @broken quantity */
ACTIONS.qty = (item, t, el) => {
  if (!isWhole(el.value, 1, 99)) {
    state.rowMsg[item.id] = 'Quantity must be a whole number from 1 to 99.';
    render();
    return;
  }
  item.qty = Number(el.value);
  save();   // the summary is only redrawn on the next change
};
/* @end quantity */

function itemFrom(el) {
  const t = openTrip();
  const item = t?.items.find((i) => i.id === el.dataset.item);
  return item ? { t, item } : null;
}
function focusControl(id, ctl) {
  const el = document.querySelector(`[data-item="${id}"][data-ctl="${ctl}"]`);
  if (el && !el.disabled) el.focus();
  else document.querySelector(`[data-item="${id}"][data-ctl="packed"]`)?.focus();
}

$('trip-view').addEventListener('click', (e) => {
  const btn = e.target.closest('button[data-act]');
  if (!btn) return;
  const found = itemFrom(btn);
  if (!found || !ACTIONS[btn.dataset.act]) return;
  const { id } = found.item;
  const ctl = btn.dataset.ctl;
  ACTIONS[btn.dataset.act](found.item, found.t, btn);
  if (ctl === 'up' || ctl === 'down') focusControl(id, ctl);
});
$('trip-view').addEventListener('change', (e) => {
  const el = e.target;
  const found = el.dataset?.item ? itemFrom(el) : null;
  const act = ACTIONS[el.dataset?.ctl];
  if (found && act && (el.dataset.ctl === 'packed' || el.dataset.ctl === 'qty')) {
    const { id } = found.item;
    act(found.item, found.t, el);
    if (el.dataset.ctl === 'packed') focusControl(id, 'packed');
  }
});

/* @feature keyboard-move */
$('trip-view').addEventListener('keydown', (e) => {
  if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
  const el = e.target.closest?.('[data-item]');
  const found = el ? itemFrom(el) : null;
  if (!found) return;
  e.preventDefault();
  const ctl = el.dataset.ctl;
  if (moveItem(found.t, found.item, e.key === 'ArrowUp' ? -1 : 1)) {
    commit();
    focusControl(found.item.id, ctl);
  }
});
/* @end keyboard-move */
/* @broken keyboard-move */
$('trip-view').addEventListener('keydown', (e) => {
  if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
  const el = e.target.closest?.('[data-item]');
  const found = el ? itemFrom(el) : null;
  if (!found) return;
  e.preventDefault();
  if (moveItem(found.t, found.item, e.key === 'ArrowUp' ? -1 : 1)) commit();
});
/* @end keyboard-move */

// ------------------------------------------------------------------ adding items
/* @feature add-item */
function addMessage(text) { $('add-msg').textContent = text; }
$('add-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const t = openTrip();
  if (!t) return undefined;
  const category = $('a-cat').value;
  const name = $('a-name').value.trim();
  const qtyRaw = $('a-qty').value;
  const wRaw = $('a-weight').value.trim();
  const weight = wRaw === '' ? 0 : Number(wRaw);
  /* @feature add-validation */
  if (!name) return addMessage('Item name is required.');
  if (!isWhole(qtyRaw, 1, 99)) return addMessage('Quantity must be a whole number from 1 to 99.');
  if (!(weight >= 0)) return addMessage('Weight must be 0 g or more.');
  const clash = t.items.find((i) => i.category === category && i.name.toLowerCase() === name.toLowerCase());
  if (clash) return addMessage(`${clash.name} is already in ${catName(category)}.`);
  /* @end add-validation */
  /* @broken add-validation */
  if (!name) return addMessage('Item name is required.');
  if (!isWhole(qtyRaw, 1, 99)) return addMessage('Quantity must be a whole number from 1 to 99.');
  if (!(weight >= 0)) return addMessage('Weight must be 0 g or more.');
  const clash = t.items.find((i) => i.category === category && i.name === name);
  if (clash) return addMessage(`${clash.name} is already in ${catName(category)}.`);
  /* @end add-validation */
  const item = { id: nextId(), category, name, qty: Number(qtyRaw) || 1, weight: Number.isFinite(weight) ? weight : 0, packed: false };
  let at = -1;
  t.items.forEach((i, k) => { if (i.category === category) at = k; });
  t.items.splice(at < 0 ? t.items.length : at + 1, 0, item);
  addMessage('');
  $('a-name').value = ''; $('a-qty').value = '1'; $('a-weight').value = '';
  commit();
  return undefined;
});
/* @end add-item */
/* @broken add-item */
function addMessage(text) { $('add-msg').textContent = text; }
$('add-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const t = openTrip();
  if (!t) return undefined;
  const category = $('a-cat').value;
  const name = $('a-name').value.trim();
  const qtyRaw = $('a-qty').value;
  const wRaw = $('a-weight').value.trim();
  const weight = wRaw === '' ? 0 : Number(wRaw);
  /* @feature add-validation */
  if (!name) return addMessage('Item name is required.');
  if (!isWhole(qtyRaw, 1, 99)) return addMessage('Quantity must be a whole number from 1 to 99.');
  if (!(weight >= 0)) return addMessage('Weight must be 0 g or more.');
  const clash = t.items.find((i) => i.category === category && i.name.toLowerCase() === name.toLowerCase());
  if (clash) return addMessage(`${clash.name} is already in ${catName(category)}.`);
  /* @end add-validation */
  const item = { id: nextId(), category, name, qty: Number(qtyRaw) || 1, weight: Number.isFinite(weight) ? weight : 0, packed: false };
  const at = t.items.findIndex((i) => i.category === category);
  t.items.splice(at < 0 ? t.items.length : at, 0, item);   // at the top of its category
  addMessage('');
  $('a-name').value = ''; $('a-qty').value = '1'; $('a-weight').value = '';
  commit();
  return undefined;
});
/* @end add-item */

// ------------------------------------------------------------------ trips
function tripMessage(text) { $('trip-msg').textContent = text; }
$('trip-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const name = $('t-name').value.trim();
  const limitRaw = $('t-limit').value.trim();
  const limit = Number(limitRaw);
  /* @feature trip-validation */
  if (!name) return tripMessage('Trip name is required.');
  const same = state.trips.find((t) => t.name.toLowerCase() === name.toLowerCase());
  if (same) return tripMessage(`A trip named ${same.name} already exists.`);
  if (limitRaw === '' || !(limit >= 1 && limit <= 50)) return tripMessage('Bag limit must be between 1 and 50 kg.');
  /* @end trip-validation */
  /* @broken trip-validation */
  if (!name) return tripMessage('Trip name is required.');
  const same = state.trips.find((t) => t.name === name);
  if (same) return tripMessage(`A trip named ${same.name} already exists.`);
  if (limitRaw === '' || !(limit >= 1 && limit <= 50)) return tripMessage('Bag limit must be between 1 and 50 kg.');
  /* @end trip-validation */
  const tpl = state.templates.find((x) => x.id === $('t-template').value);
  let raw = [];
  /* @feature templates */
  if (tpl) raw = tpl.items.map((i) => ({ ...i, packed: false }));
  /* @end templates */
  /* @broken templates */
  if (tpl) raw = tpl.items.map((i) => ({ ...i, qty: 1, packed: false }));
  /* @end templates */
  const trip = makeTrip(`trip-${nextId()}`, name, Number.isFinite(limit) && limit > 0 ? limit : 10, raw);
  state.trips.push(trip);
  state.openId = trip.id;
  state.rowMsg = {};
  tripMessage('');
  $('trip-form').reset();
  commit();
  return undefined;
});

$('trips').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-trip]');
  if (!btn) return;
  state.openId = btn.dataset.trip;
  state.rowMsg = {};
  commit();
});

fetch('data/packing.json').then((r) => r.json()).then((data) => {
  state.categories = (data.categories || []).map((c) => ({ id: String(c.id), name: String(c.name) }));
  state.templates = (data.templates || []).map((t) => ({ id: String(t.id), name: String(t.name), items: t.items || [] }));
  $('t-template').innerHTML = '<option value="">No template</option>'
    + state.templates.map((t) => `<option value="${esc(t.id)}">${esc(t.name)}</option>`).join('');
  if (!load()) {
    state.trips = (data.trips || []).map((t) => makeTrip(String(t.id), String(t.name), Number(t.bagLimitKg) || 10, t.items || []));
    state.openId = state.trips[0]?.id ?? null;
  }
  if (!openTrip()) state.openId = state.trips[0]?.id ?? null;
  render();
});
