/* Recall — study flashcards with a Leitner box schedule. Plain JS, no dependencies. */
(function () {
  'use strict';

  const STORE_KEY = 'recall.flashcards.v1';
  const MAX_LEN = 200;
  const DEFAULT_INTERVALS = { 1: 1, 2: 2, 3: 4, 4: 7, 5: 14 };
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

  let TODAY = '2026-03-02';   // replaced by data/decks.json "today": no real clock
  let INTERVALS = Object.assign({}, DEFAULT_INTERVALS);

  const state = {
    decks: [],          // [{id, name, description, color, cards: [{id, front, back, box, due}]}]
    notices: [],        // [{id, text}]
    q: '',              // header search text
    session: null,      // {deckId, queue: [cardId], index, flipped, got, again, missed: [cardId], done}
    form: null,         // {deckId, cardId|null, front, back, errors: {}}
    flash: '',          // one-shot status message on the deck page
    nextId: 1,
  };

  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);

  // ------------------------------------------------------------------ dates (UTC, fixed "today")
  const toDate = (s) => { const [y, m, d] = s.split('-').map(Number); return new Date(Date.UTC(y, m - 1, d)); };
  const iso = (dt) => dt.toISOString().slice(0, 10);
  const addDays = (s, n) => { const d = toDate(s); d.setUTCDate(d.getUTCDate() + n); return iso(d); };
  const isIsoDate = (s) => typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && !isNaN(toDate(s)) && iso(toDate(s)) === s;
  const niceDate = (s) => { const d = toDate(s); return DAYS[d.getUTCDay()] + ', ' + MONTHS[d.getUTCMonth()] + ' ' + d.getUTCDate(); };

  // ------------------------------------------------------------------ card rules
  function isDue(c) {
    return String(c.due) <= TODAY;
  }

  function dueCards(deck) {
    let cards = deck.cards.slice();
    /* @feature due-only */
    cards = cards.filter(isDue);
    /* @end due-only */
    return cards;
  }

  function dueCount(deck) { return deck.cards.filter(isDue).length; }

  function nextReview(deck) {
    const later = deck.cards.filter((c) => !isDue(c)).map((c) => String(c.due)).sort();
    return later.length ? later[0] : null;
  }

  function sessionQueue(deck) {
    const cards = dueCards(deck);
    const pos = new Map(deck.cards.map((c, i) => [c.id, i]));
    /* @feature session-order */
    cards.sort((a, b) => (a.box - b.box) || (a.due < b.due ? -1 : a.due > b.due ? 1 : 0) || (pos.get(a.id) - pos.get(b.id)));
    /* @end session-order */
    /* @broken session-order */
    cards.sort((a, b) => (a.box - b.box) || (pos.get(a.id) - pos.get(b.id)));
    /* @end session-order */
    return cards.map((c) => c.id);
  }

  function grade(card, gotIt) {
    /* @feature leitner */
    if (gotIt) {
      card.box = Math.min(5, card.box + 1);
      card.due = addDays(TODAY, INTERVALS[card.box] || DEFAULT_INTERVALS[card.box]);
    } else {
      card.box = 1;
      card.due = TODAY;
    }
    /* @end leitner */
    /* @broken leitner */
    if (gotIt) {
      card.box = Math.min(5, card.box + 1);
      card.due = addDays(TODAY, INTERVALS[card.box] || DEFAULT_INTERVALS[card.box]);
    } else {
      card.box = Math.max(1, card.box - 1);
      card.due = addDays(TODAY, INTERVALS[card.box] || DEFAULT_INTERVALS[card.box]);
    }
    /* @end leitner */
  }

  // ------------------------------------------------------------------ data loading
  function cleanCards(raw, deckId, skipped) {
    const list = Array.isArray(raw) ? raw : [];
    const seen = new Set();
    const out = [];
    list.forEach((c, i) => {
      if (!c || typeof c !== 'object') { skipped.n += 1; return; }
      const front = typeof c.front === 'string' ? c.front.trim() : '';
      const back = typeof c.back === 'string' ? c.back.trim() : '';
      let id = c.id != null && String(c.id).trim() ? String(c.id) : deckId + '-card-' + (i + 1);
      /* @feature skip-invalid */
      if (!front || !back || seen.has(id)) { skipped.n += 1; return; }
      /* @end skip-invalid */
      if (seen.has(id)) id = id + '-' + (i + 1);
      seen.add(id);
      let box = c.box;
      /* @feature box-guard */
      if (!(Number.isInteger(box) && box >= 1 && box <= 5)) box = 1;
      /* @end box-guard */
      let due = c.due;
      /* @feature due-guard */
      if (!isIsoDate(due)) due = TODAY;
      /* @end due-guard */
      out.push({ id, front: front || String(c.front), back: back || String(c.back), box, due });
    });
    return out;
  }

  function loadData(json) {
    if (isIsoDate(json.today)) TODAY = json.today;
    if (json.intervals && typeof json.intervals === 'object') {
      [1, 2, 3, 4, 5].forEach((b) => {
        const v = Number(json.intervals[b]);
        if (Number.isInteger(v) && v > 0) INTERVALS[b] = v;
      });
    }
    const skipped = { n: 0 };
    state.decks = (Array.isArray(json.decks) ? json.decks : [])
      .filter((d) => d && typeof d === 'object' && d.id != null)
      .map((d) => ({
        id: String(d.id),
        name: typeof d.name === 'string' && d.name.trim() ? d.name.trim() : 'Untitled deck',
        description: typeof d.description === 'string' ? d.description : '',
        color: typeof d.color === 'string' && /^#[0-9a-f]{3,8}$/i.test(d.color) ? d.color : '#5b6ee1',
        cards: cleanCards(d.cards, String(d.id), skipped),
      }));
    if (skipped.n) {
      addNotice('data', plural(skipped.n, 'card', 'cards') + ' in the data file ' + (skipped.n === 1 ? 'was' : 'were') +
        ' skipped because ' + (skipped.n === 1 ? 'it was' : 'they were') + ' missing a front or back, or repeated another card\u2019s id.');
    }
  }

  // ------------------------------------------------------------------ storage
  function safeGet(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }

  function parseSaved(raw) {
    /* @feature storage-guard */
    let data;
    try { data = JSON.parse(raw); } catch (e) { return null; }
    if (!data || typeof data !== 'object' || Array.isArray(data) || !data.decks || typeof data.decks !== 'object' || Array.isArray(data.decks)) return null;
    const decks = {};
    let ok = true;
    Object.keys(data.decks).forEach((k) => {
      const list = data.decks[k];
      if (!Array.isArray(list)) { ok = false; return; }
      decks[k] = list.filter((c) => c && typeof c === 'object' && typeof c.id === 'string' &&
        typeof c.front === 'string' && c.front.trim() && typeof c.back === 'string' && c.back.trim() &&
        Number.isInteger(c.box) && c.box >= 1 && c.box <= 5 && isIsoDate(c.due));
    });
    if (!ok) return null;
    return { decks, nextId: Number.isInteger(data.nextId) && data.nextId > 0 ? data.nextId : 1 };
    /* @end storage-guard */
    const d = JSON.parse(raw); // eslint-disable-line no-unreachable
    return { decks: d.decks, nextId: d.nextId || 1 };
  }

  function loadSaved() {
    let raw = null;
    /* @feature persistence */
    raw = safeGet(STORE_KEY);
    /* @end persistence */
    /* @broken persistence */
    raw = safeGet(STORE_KEY);
    /* @end persistence */
    if (raw === null || raw === undefined) return;
    const saved = parseSaved(raw);
    if (!saved) {
      addNotice('storage', 'Your saved study progress couldn\u2019t be read, so it was reset to the original decks.');
      try { window.localStorage.removeItem(STORE_KEY); } catch (e) { /* ignore */ }
      return;
    }
    state.decks.forEach((d) => {
      if (Array.isArray(saved.decks[d.id])) d.cards = saved.decks[d.id].map((c) => ({ id: c.id, front: c.front, back: c.back, box: c.box, due: c.due }));
    });
    state.nextId = saved.nextId;
  }

  function save(reason) {
    const decks = {};
    state.decks.forEach((d) => { decks[d.id] = d.cards; });
    /* @feature persistence */
    try { window.localStorage.setItem(STORE_KEY, JSON.stringify({ version: 1, nextId: state.nextId, decks })); } catch (e) { /* full or blocked */ }
    /* @end persistence */
    /* @broken persistence */
    if (reason === 'grade') return;
    try { window.localStorage.setItem(STORE_KEY, JSON.stringify({ version: 1, nextId: state.nextId, decks })); } catch (e) { /* ignore */ }
    /* @end persistence */
  }

  // ------------------------------------------------------------------ notices
  function addNotice(id, text) {
    state.notices = state.notices.filter((n) => n.id !== id).concat([{ id, text }]);
    renderNotices();
  }

  function renderNotices() {
    const box = $('notices');
    if (!box) return;
    box.innerHTML = state.notices.map((n) => '<div class="notice" role="status"><svg viewBox="0 0 20 20" aria-hidden="true"><path d="M10 3l8 14H2z"></path><path d="M10 8v4M10 14.5v.5"></path></svg>' +
      '<span>' + esc(n.text) + '</span><button type="button" class="link-btn" data-dismiss="' + esc(n.id) + '">Dismiss</button></div>').join('');
    box.querySelectorAll('[data-dismiss]').forEach((b) => b.addEventListener('click', () => {
      state.notices = state.notices.filter((n) => n.id !== b.getAttribute('data-dismiss'));
      renderNotices();
    }));
  }

  // ------------------------------------------------------------------ helpers
  const findDeck = (id) => state.decks.find((d) => d.id === id) || null;
  const findCard = (deck, id) => deck.cards.find((c) => c.id === id) || null;
  function initials(name) { return name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]).join('').toUpperCase(); }
  function dueLabel(c) { return isDue(c) ? 'Due today' : (isIsoDate(c.due) ? niceDate(c.due) : String(c.due)); }

  function setNav(which) {
    const a = $('nav-decks');
    if (!a) return;
    a.classList.toggle('active', which === 'decks');
    if (which === 'decks') a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }

  // ------------------------------------------------------------------ deck list
  function renderDecks() {
    setNav('decks');
    const total = state.decks.reduce((n, d) => n + dueCount(d), 0);
    let html = '<section class="page-head"><div><p class="eyebrow">Library</p><h1>Your decks</h1>';
    /* @feature due-counts */
    html += '<p class="lede" id="due-summary">' + (total ? plural(total, 'card', 'cards') + ' due today across ' + plural(state.decks.length, 'deck', 'decks') : 'Nothing due today \u2014 nice work.') + '</p>';
    /* @end due-counts */
    html += '</div></section>';
    html += '<div class="deck-grid">' + state.decks.map((d) => {
      const n = d.cards.length;
      const due = dueCount(d);
      let badge = '';
      /* @feature due-counts */
      badge = due ? '<span class="badge due">' + due + ' due</span>' : '';
      /* @end due-counts */
      /* @feature caught-up */
      if (!due && n) badge = '<span class="badge ok">All caught up</span>';
      /* @end caught-up */
      let count = '<span>' + plural(n, 'card', 'cards') + '</span>';
      /* @feature empty-deck */
      if (!n) { count = '<span>No cards yet</span>'; }
      /* @end empty-deck */
      const disabled = !due && !!n;
      return '<article class="deck-card" style="--deck:' + esc(d.color) + '" aria-labelledby="deck-' + esc(d.id) + '">' +
        '<div class="deck-art" aria-hidden="true"><span>' + esc(initials(d.name)) + '</span></div>' +
        '<div class="deck-body"><h2 id="deck-' + esc(d.id) + '"><a href="#/deck/' + esc(d.id) + '">' + esc(d.name) + '</a></h2>' +
        '<p class="deck-desc">' + esc(d.description) + '</p>' +
        '<p class="deck-meta">' + count + badge + '</p></div>' +
        '<div class="deck-actions">' + (n ? '<a class="btn primary' + (disabled ? ' is-muted' : '') + '" href="#/study/' + esc(d.id) + '">Study<span class="sr-only"> ' + esc(d.name) + '</span></a>' : '') + '</div>' +
        '</article>';
    }).join('') + '</div>';
    $('view').innerHTML = html;
  }

  // ------------------------------------------------------------------ deck page
  function renderDeck(deck) {
    setNav('decks');
    const n = deck.cards.length;
    const due = dueCount(deck);
    let html = '<a class="back" href="#/">\u2190 All decks</a>';
    html += '<section class="deck-head" style="--deck:' + esc(deck.color) + '"><div class="deck-art big" aria-hidden="true"><span>' + esc(initials(deck.name)) + '</span></div>' +
      '<div class="deck-title"><h1>' + esc(deck.name) + '</h1><p class="lede">' + esc(deck.description) + '</p>' +
      '<p class="deck-stats"><span>' + plural(n, 'card', 'cards') + '</span>';
    /* @feature due-counts */
    html += '<span>' + due + ' due today</span>';
    /* @end due-counts */
    html += '</p></div><div class="deck-cta">';
    let studyDisabled = n === 0;
    /* @feature caught-up */
    if (n && !due) studyDisabled = true;
    /* @end caught-up */
    html += '<button type="button" class="btn primary big-btn" id="study-now"' + (studyDisabled ? ' disabled' : '') + '>Study now</button>';
    /* @feature add-card */
    html += '<button type="button" class="btn" id="add-card">Add card</button>';
    /* @end add-card */
    html += '</div></section>';
    /* @feature caught-up */
    if (n && !due) {
      const next = nextReview(deck);
      html += '<div class="caught-up" role="note"><strong>All caught up!</strong> ' + (next ? 'Next review ' + esc(niceDate(next)) + '.' : '') + '</div>';
    }
    /* @end caught-up */
    if (state.flash) html += '<p class="flash" role="status">' + esc(state.flash) + '</p>';
    state.flash = '';
    html += '<div id="card-form-slot"></div>';
    /* @feature box-summary */
    html += '<section class="boxes" aria-label="Leitner boxes">' + [1, 2, 3, 4, 5].map((b) => {
      const k = deck.cards.filter((c) => c.box === b).length;
      const every = INTERVALS[b] === 1 ? 'every day' : 'every ' + INTERVALS[b] + ' days';
      return '<div class="box-cell b' + b + '"><span class="box-name">Box ' + b + '</span><strong>' + plural(k, 'card', 'cards') + '</strong><span class="box-every">' + every + '</span></div>';
    }).join('') + '</section>';
    /* @end box-summary */
    if (!n) {
      /* @feature empty-deck */
      html += '<div class="empty"><svg viewBox="0 0 48 48" aria-hidden="true"><rect x="9" y="12" width="26" height="18" rx="3"></rect><rect x="14" y="18" width="26" height="18" rx="3"></rect></svg>' +
        '<h2>No cards yet</h2><p>Add the first card to start studying this deck.</p>' +
        '<button type="button" class="btn primary" id="add-first">Add your first card</button></div>';
      /* @end empty-deck */
    } else {
      html += '<table class="cards"><caption class="sr-only">Cards in ' + esc(deck.name) + '</caption><thead><tr><th scope="col">Front</th><th scope="col">Back</th><th scope="col">Box</th><th scope="col">Next review</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead><tbody>' +
        deck.cards.map((c) => '<tr data-card="' + esc(c.id) + '"><td class="front">' + esc(c.front) + '</td><td class="card-back">' + esc(c.back) + '</td>' +
          '<td><span class="box-pill b' + esc(c.box) + '">Box ' + esc(c.box) + '</span></td><td class="' + (isDue(c) ? 'due-now' : '') + '">' + esc(dueLabel(c)) + '</td><td class="row-actions">' +
          rowActions(c) + '</td></tr>').join('') + '</tbody></table>';
    }
    $('view').innerHTML = html;
    const sb = $('study-now');
    if (sb) sb.addEventListener('click', () => { location.hash = '#/study/' + deck.id; });
    const ab = $('add-card');
    /* @feature add-card */
    if (ab) ab.addEventListener('click', () => openForm(deck, null));
    const af = $('add-first');
    if (af) af.addEventListener('click', () => openForm(deck, null));
    /* @end add-card */
    wireRowActions(deck);
    if (state.form && state.form.deckId === deck.id) renderForm(deck);
  }

  function rowActions(c) {
    let html = '';
    /* @feature edit-card */
    html += '<button type="button" class="icon-btn" data-edit="' + esc(c.id) + '" aria-label="Edit ' + esc(c.front) + '">Edit</button>';
    /* @end edit-card */
    /* @feature delete-card */
    html += '<button type="button" class="icon-btn danger" data-delete="' + esc(c.id) + '" aria-label="Delete ' + esc(c.front) + '">Delete</button>';
    /* @end delete-card */
    return html;
  }

  function wireRowActions(deck) {
    const view = $('view');
    /* @feature edit-card */
    view.querySelectorAll('[data-edit]').forEach((b) => b.addEventListener('click', () => openForm(deck, b.getAttribute('data-edit'))));
    /* @end edit-card */
    /* @feature delete-card */
    view.querySelectorAll('[data-delete]').forEach((b) => b.addEventListener('click', () => {
      const c = findCard(deck, b.getAttribute('data-delete'));
      if (!c) return;
      if (!window.confirm('Delete the card \u201c' + c.front + '\u201d? This cannot be undone.')) return;
      deck.cards = deck.cards.filter((x) => x !== c);
      if (state.form && state.form.cardId === c.id) state.form = null;
      state.flash = 'Card deleted.';
      save('delete');
      renderDeck(deck);
    }));
    /* @end delete-card */
  }

  // ------------------------------------------------------------------ add / edit form
  function openForm(deck, cardId) {
    const c = cardId ? findCard(deck, cardId) : null;
    state.form = { deckId: deck.id, cardId: c ? c.id : null, front: c ? c.front : '', back: c ? c.back : '', errors: {} };
    renderForm(deck);
    const f = $('card-front');
    if (f) f.focus();
  }

  function validate(deck, form) {
    const errors = {};
    let front = form.front, back = form.back;
    /* @feature required-fields */
    front = front.trim(); back = back.trim();
    if (!front) errors.front = 'Enter the front of the card.';
    if (!back) errors.back = 'Enter the back of the card.';
    /* @end required-fields */
    /* @broken required-fields */
    if (!front) errors.front = 'Enter the front of the card.';
    if (!back) errors.back = 'Enter the back of the card.';
    /* @end required-fields */
    /* @feature length-limit */
    if (!errors.front && front.length > MAX_LEN) errors.front = 'Keep each side to ' + MAX_LEN + ' characters or fewer.';
    if (!errors.back && back.length > MAX_LEN) errors.back = 'Keep each side to ' + MAX_LEN + ' characters or fewer.';
    /* @end length-limit */
    /* @feature duplicate-front */
    const key = front.trim().toLowerCase();
    if (!errors.front && deck.cards.some((c) => c.id !== form.cardId && c.front.trim().toLowerCase() === key)) {
      errors.front = 'This deck already has a card with this front.';
    }
    /* @end duplicate-front */
    return { errors, front: front.trim() ? front.trim() : front, back: back.trim() ? back.trim() : back };
  }

  function renderForm(deck) {
    const slot = $('card-form-slot');
    const form = state.form;
    if (!slot || !form) return;
    const editing = !!form.cardId;
    const e = form.errors;
    const counter = (s) => '<span class="counter' + (s.length > MAX_LEN ? ' over' : '') + '">' + s.length + '/' + MAX_LEN + '</span>';
    slot.innerHTML = '<form class="card-form" id="card-form" novalidate aria-labelledby="form-title">' +
      '<h2 id="form-title">' + (editing ? 'Edit card' : 'New card') + '</h2>' +
      '<div class="form-grid"><div class="field"><label for="card-front">Front</label>' +
      '<textarea id="card-front" rows="3" placeholder="Question, word or prompt"' + (e.front ? ' aria-invalid="true" aria-describedby="front-error"' : '') + '>' + esc(form.front) + '</textarea>' +
      '<div class="field-foot"><p class="field-error" id="front-error">' + esc(e.front || '') + '</p>' + counter(form.front) + '</div></div>' +
      '<div class="field"><label for="card-back">Back</label>' +
      '<textarea id="card-back" rows="3" placeholder="Answer"' + (e.back ? ' aria-invalid="true" aria-describedby="back-error"' : '') + '>' + esc(form.back) + '</textarea>' +
      '<div class="field-foot"><p class="field-error" id="back-error">' + esc(e.back || '') + '</p>' + counter(form.back) + '</div></div></div>' +
      '<div class="form-actions"><button type="submit" class="btn primary">' + (editing ? 'Save changes' : 'Save card') + '</button>' +
      '<button type="button" class="btn" id="form-cancel">Cancel</button></div></form>';
    const fr = $('card-front'), bk = $('card-back');
    fr.addEventListener('input', () => { form.front = fr.value; updateCounter(fr, form.front); });
    bk.addEventListener('input', () => { form.back = bk.value; updateCounter(bk, form.back); });
    $('form-cancel').addEventListener('click', () => { state.form = null; slot.innerHTML = ''; });
    $('card-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      form.front = fr.value; form.back = bk.value;
      const res = validate(deck, form);
      form.errors = res.errors;
      if (Object.keys(res.errors).length) { renderForm(deck); const bad = res.errors.front ? $('card-front') : $('card-back'); if (bad) bad.focus(); return; }
      if (editing) {
        const c = findCard(deck, form.cardId);
        if (c) { c.front = res.front; c.back = res.back; }
        state.flash = 'Card updated.';
        save('edit');
      } else {
        deck.cards.push({ id: 'new-' + state.nextId, front: res.front, back: res.back, box: 1, due: TODAY });
        state.nextId += 1;
        state.flash = 'Card added to ' + deck.name + '.';
        save('add');
      }
      state.form = null;
      renderDeck(deck);
    });
  }

  function updateCounter(el, s) {
    const c = el.parentElement.querySelector('.counter');
    if (!c) return;
    c.textContent = s.length + '/' + MAX_LEN;
    c.classList.toggle('over', s.length > MAX_LEN);
  }

  // ------------------------------------------------------------------ study
  function startSession(deck, queue) {
    state.session = { deckId: deck.id, queue, index: 0, flipped: false, got: 0, again: 0, missed: [], done: false };
  }

  function flip() {
    const s = state.session;
    if (!s || s.done || s.flipped) return;
    /* @feature flip */
    s.flipped = true;
    renderStudy();
    /* @end flip */
  }

  function answer(gotIt) {
    const s = state.session;
    if (!s || s.done || !s.flipped) return;
    const deck = findDeck(s.deckId);
    const card = deck && findCard(deck, s.queue[s.index]);
    if (card) grade(card, gotIt);
    if (gotIt) s.got += 1; else { s.again += 1; s.missed.push(s.queue[s.index]); }
    save('grade');
    s.index += 1;
    s.flipped = false;
    if (s.index >= s.queue.length) s.done = true;
    renderStudy();
  }

  function renderStudy() {
    const s = state.session;
    const deck = s && findDeck(s.deckId);
    if (!deck) { renderMissing(); return; }
    const view = $('view');
    if (s.done) {
      let done = false;
      /* @feature results */
      renderResults(deck, s);
      done = true;
      /* @end results */
      if (!done) location.hash = '#/deck/' + deck.id;
      return;
    }
    if (!s.queue.length) { renderNothingDue(deck); return; }
    const card = findCard(deck, s.queue[s.index]);
    if (!card) { s.index += 1; if (s.index >= s.queue.length) s.done = true; renderStudy(); return; }
    let html = '<div class="study" style="--deck:' + esc(deck.color) + '"><div class="study-top">' +
      '<a class="back" href="#/deck/' + esc(deck.id) + '">\u2190 End session</a>' +
      '<p class="study-deck">Studying <strong>' + esc(deck.name) + '</strong></p>';
    /* @feature tallies */
    html += '<p class="tallies" id="tallies"><span class="t-got">Got it ' + s.got + '</span><span class="t-again">Again ' + s.again + '</span></p>';
    /* @end tallies */
    html += '</div>';
    /* @feature study-progress */
    const pct = Math.round((s.index / s.queue.length) * 100);
    html += '<div class="progress-row"><p class="progress-label" id="progress-label">Card ' + (s.index + 1) + ' of ' + s.queue.length + '</p>' +
      '<div class="progress" role="progressbar" aria-label="Session progress" aria-valuemin="0" aria-valuemax="' + s.queue.length + '" aria-valuenow="' + s.index + '"><span style="width:' + pct + '%"></span></div></div>';
    /* @end study-progress */
    html += '<div class="flashcard' + (s.flipped ? ' flipped' : '') + '" id="flashcard" tabindex="0">' +
      '<div class="face front-face"><span class="face-label">Question</span><p class="face-text" id="front-text">' + esc(card.front) + '</p>' +
      '<span class="box-pill b' + esc(card.box) + '">Box ' + esc(card.box) + '</span></div>';
    if (s.flipped) {
      html += '<div class="face back-face"><span class="face-label">Answer</span><p class="face-text" id="back-text">' + esc(card.back) + '</p></div>';
    }
    html += '</div><div class="study-actions">';
    if (!s.flipped) {
      /* @feature flip */
      html += '<button type="button" class="btn primary wide" id="show-answer">Show answer</button>';
      /* @end flip */
    } else {
      html += '<button type="button" class="btn again wide" id="grade-again">Again</button>' +
        '<button type="button" class="btn got wide" id="grade-got">Got it</button>';
    }
    html += '</div>';
    /* @feature keyboard */
    html += '<p class="kbd-hint"><kbd>Space</kbd> show answer \u00b7 <kbd>1</kbd> Again \u00b7 <kbd>2</kbd> Got it</p>';
    /* @end keyboard */
    html += '</div>';
    view.innerHTML = html;
    const sa = $('show-answer');
    if (sa) sa.addEventListener('click', flip);
    const ga = $('grade-again'), gg = $('grade-got');
    if (ga) ga.addEventListener('click', () => answer(false));
    if (gg) gg.addEventListener('click', () => answer(true));
    /* @feature card-click */
    const fc = $('flashcard');
    if (fc && !s.flipped) fc.addEventListener('click', flip);
    /* @end card-click */
  }

  function renderNothingDue(deck) {
    let html = '<a class="back" href="#/deck/' + esc(deck.id) + '">\u2190 Back to ' + esc(deck.name) + '</a><div class="empty">';
    if (!deck.cards.length) {
      html += '<h1>This deck has no cards yet</h1><p>Add a few cards, then come back to study.</p>';
    } else {
      let text = '<h1>No cards to study</h1>';
      /* @feature caught-up */
      const next = nextReview(deck);
      text = '<h1>Nothing to study right now</h1><p>You\u2019re all caught up on ' + esc(deck.name) + '.' + (next ? ' Next review ' + esc(niceDate(next)) + '.' : '') + '</p>';
      /* @end caught-up */
      html += text;
    }
    html += '<a class="btn primary" href="#/">Back to decks</a></div>';
    $('view').innerHTML = html;
  }

  /* @feature results */
  function renderResults(deck, s) {
    const total = s.got + s.again;
    const pct = total ? Math.round((s.got / total) * 100) : 0;
    let html = '<div class="results" style="--deck:' + esc(deck.color) + '"><p class="eyebrow">' + esc(deck.name) + '</p><h1>Session complete</h1>' +
      '<div class="score"><div class="ring" style="--pct:' + pct + '"><span>' + pct + '%</span></div>' +
      '<div><p class="score-line">You got <strong>' + s.got + ' of ' + total + '</strong> right.</p>' +
      '<p class="score-split"><span class="t-got">Got it ' + s.got + '</span><span class="t-again">Again ' + s.again + '</span></p></div></div>';
    if (s.missed.length) {
      html += '<section class="missed" aria-labelledby="missed-title"><h2 id="missed-title">Cards to review again</h2><ul>' + s.missed.map((id) => {
        const c = findCard(deck, id);
        return c ? '<li><span class="m-front">' + esc(c.front) + '</span><span class="m-back">' + esc(c.back) + '</span></li>' : '';
      }).join('') + '</ul></section>';
    } else {
      html += '<p class="perfect">Perfect round \u2014 every card moved up a box.</p>';
    }
    html += '<div class="results-actions">';
    /* @feature review-missed */
    if (s.missed.length) html += '<button type="button" class="btn primary" id="review-missed">Review missed cards (' + s.missed.length + ')</button>';
    /* @end review-missed */
    html += '<a class="btn" href="#/deck/' + esc(deck.id) + '">Back to deck</a><a class="btn ghost" href="#/">All decks</a></div></div>';
    $('view').innerHTML = html;
    /* @feature review-missed */
    const rm = $('review-missed');
    if (rm) rm.addEventListener('click', () => { startSession(deck, s.missed.slice()); renderStudy(); });
    /* @end review-missed */
  }
  /* @end results */

  function onKey(ev) {
    /* @feature keyboard */
    const s = state.session;
    if (!s || s.done || !/^#\/study\//.test(location.hash)) return;
    const t = ev.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === ' ' || ev.code === 'Space') {
      if (t && t.tagName === 'BUTTON' && s.flipped) return;
      ev.preventDefault();
      flip();
    } else if (ev.key === '1') {
      answer(false);
    } else if (ev.key === '2') {
      answer(true);
    }
    /* @end keyboard */
  }

  // ------------------------------------------------------------------ search
  function fold(s) {
    let out = String(s).toLowerCase();
    /* @feature accent-fold */
    out = out.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    /* @end accent-fold */
    return out;
  }

  function highlight(text, q) {
    const f = fold(text);
    const i = f.indexOf(q);
    if (i < 0 || f.length !== text.length) return esc(text);
    return esc(text.slice(0, i)) + '<mark>' + esc(text.slice(i, i + q.length)) + '</mark>' + esc(text.slice(i + q.length));
  }

  /* @feature header-search */
  function renderSearch() {
    setNav('search');
    const raw = state.q;
    const q = fold(raw.trim());
    let html = '<section class="page-head"><div><p class="eyebrow">Search</p><h1>Search results</h1></div></section>';
    if (!q) {
      html += '<div class="empty"><h2>Search across all your decks</h2><p>Type a word from the front or the back of a card.</p></div>';
      $('view').innerHTML = html;
      return;
    }
    const hits = [];
    state.decks.forEach((d) => d.cards.forEach((c) => {
      if (fold(c.front).indexOf(q) >= 0 || fold(c.back).indexOf(q) >= 0) hits.push({ d, c });
    }));
    html += '<p class="result-count" id="result-count">' + (hits.length === 1 ? '1 card matches' : hits.length + ' cards match') + ' \u201c' + esc(raw.trim()) + '\u201d</p>';
    if (!hits.length) {
      html += '<div class="empty"><h2>No cards match \u201c' + esc(raw.trim()) + '\u201d</h2><p>Check the spelling, or search for a word from the answer instead.</p>' +
        '<button type="button" class="btn" id="clear-search">Clear search</button></div>';
    } else {
      html += '<ul class="hits">' + hits.map((h) => '<li class="hit" style="--deck:' + esc(h.d.color) + '">' +
        '<div class="hit-text"><p class="hit-front">' + highlight(h.c.front, q) + '</p><p class="hit-back">' + highlight(h.c.back, q) + '</p></div>' +
        '<a class="hit-deck" href="#/deck/' + esc(h.d.id) + '">' + esc(h.d.name) + '</a></li>').join('') + '</ul>';
    }
    $('view').innerHTML = html;
    const cs = $('clear-search');
    if (cs) cs.addEventListener('click', () => { state.q = ''; const i = $('search'); if (i) { i.value = ''; i.focus(); } renderSearch(); });
  }
  /* @end header-search */

  function initSearch() {
    const input = $('search');
    if (!input) return;
    input.addEventListener('input', () => {
      state.q = input.value;
      if (location.hash !== '#/search') location.hash = '#/search';
      else route();
    });
  }

  // ------------------------------------------------------------------ routing
  function renderMissing() {
    $('view').innerHTML = '<div class="empty"><h1>Deck not found</h1><p>That deck isn\u2019t in your library.</p><a class="btn primary" href="#/">Back to decks</a></div>';
  }

  function route() {
    const h = decodeURIComponent(location.hash.replace(/^#/, '')) || '/';
    let m;
    if (h === '/' || h === '') { renderDecks(); return; }
    if (h === '/search') {
      if (typeof renderSearch === 'function') { renderSearch(); return; }
      renderDecks();
      return;
    }
    if ((m = /^\/deck\/([^/]+)$/.exec(h))) {
      const d = findDeck(m[1]);
      if (!d) { renderMissing(); return; }
      if (state.form && state.form.deckId !== d.id) state.form = null;
      renderDeck(d);
      return;
    }
    if ((m = /^\/study\/([^/]+)$/.exec(h))) {
      const d = findDeck(m[1]);
      if (!d) { renderMissing(); return; }
      setNav('study');
      startSession(d, sessionQueue(d));
      renderStudy();
      return;
    }
    renderMissing();
  }

  function fail(msg) {
    $('view').innerHTML = '<div class="empty"><h1>Decks unavailable</h1><p>' + esc(msg) + '</p></div>';
  }

  function boot() {
    fetch('data/decks.json')
      .then((r) => { if (!r.ok) throw new Error('decks.json ' + r.status); return r.json(); })
      .then((json) => {
        loadData(json || {});
        loadSaved();
        const tl = $('today-label');
        if (tl) tl.textContent = 'Today \u00b7 ' + niceDate(TODAY);
        renderNotices();
        initSearch();
        document.addEventListener('keydown', onKey);
        window.addEventListener('hashchange', route);
        route();
      })
      .catch((e) => fail('The decks could not be loaded (' + e.message + ').'));
  }

  boot();
})();
