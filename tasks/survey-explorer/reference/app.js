'use strict';
// Survey explorer: results bars, a crosstab and comments from data/survey.json and
// data/responses.json. Only the view settings are kept (localStorage).
const STORE = 'survey-explorer-settings-v1';
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

const state = {
  survey: null, respondents: [], notes: [],
  settings: { age: '', area: '', complete: false, order: 'survey', xq: '', xby: 'age' },
};

// ------------------------------------------------------------------ answers and counting
function answerOf(q, r) {
  const a = r.answers ? r.answers[q.id] : undefined;
  if (a === undefined || a === null || a === '') return null;
  if (q.type === 'multiple') {
    let picked = null;
    /* @feature multi */
    if (Array.isArray(a)) {
      const v = a.filter((x) => q.choices.includes(x));
      picked = v.length ? v : null;
    }
    /* @end multi */
    /* @broken multi */
    if (Array.isArray(a)) {
      const v = a.filter((x) => q.choices.includes(x));
      picked = v.length ? v : null;
    }
    /* @end multi */
    return picked;
  }
  /* @feature unknown-choice */
  if (!q.choices.includes(a)) return null;
  /* @end unknown-choice */
  /* @broken unknown-choice */
  if (!q.choices.includes(a) && q.type !== 'single') return null;
  /* @end unknown-choice */
  return a;
}

function isComplete(r) {
  return state.survey.questions.filter((q) => q.type !== 'text').every((q) => {
    const a = r.answers ? r.answers[q.id] : undefined;
    return !(a === undefined || a === null || a === '' || (Array.isArray(a) && a.length === 0));
  });
}

function tally(q, list) {
  const answers = list.map((r) => answerOf(q, r)).filter((a) => a !== null);
  const counts = q.choices.map((c) => answers.filter((a) => (Array.isArray(a) ? a.includes(c) : a === c)).length);
  let base = answers.length;
  /* @broken multi */
  if (q.type === 'multiple') base = counts.reduce((s, n) => s + n, 0);
  /* @end multi */
  return { base, counts };
}

function pct(c, b) {
  /* @feature percent-rule */
  return Math.floor((200 * c + b) / (2 * b));
  /* @end percent-rule */
  /* @broken percent-rule */
  return Math.floor((100 * c) / b);
  /* @end percent-rule */
  // eslint-disable-next-line no-unreachable
  return Math.round((c / b) * 1000) / 10;
}

function filtered() {
  const s = state.settings;
  let list = state.respondents;
  /* @feature filters */
  if (s.age) list = list.filter((r) => r.age === s.age);
  if (s.area) list = list.filter((r) => r.area === s.area);
  /* @end filters */
  /* @broken filters */
  if (s.age) list = list.filter((r) => r.age === s.age);
  if (s.area && !s.age) list = list.filter((r) => r.area === s.area);
  /* @end filters */
  /* @feature complete-only */
  if (s.complete) list = list.filter(isComplete);
  /* @end complete-only */
  /* @broken complete-only */
  if (s.complete) list = list.filter((r) => isComplete(r) && String(r.answers.q5 || '').trim());
  /* @end complete-only */
  return list;
}

// ------------------------------------------------------------------ loading
function prepare(survey, raw) {
  state.survey = survey;
  let list = (raw || []).map((r) => ({ id: r.id, age: r.age, area: r.area, answers: r.answers || {} }));
  const notes = [];
  /* @feature dedupe */
  const seen = new Set();
  let dupes = 0;
  list = list.filter((r) => {
    if (seen.has(r.id)) { dupes += 1; return false; }
    seen.add(r.id);
    return true;
  });
  if (dupes) notes.push(plural(dupes, 'duplicate respondent skipped', 'duplicate respondents skipped'));
  /* @end dedupe */
  /* @broken dedupe */
  const last = new Map();
  list.forEach((r) => last.set(r.id, r));
  const dupes = list.length - last.size;
  list = [...last.values()];
  if (dupes) notes.push(plural(dupes, 'duplicate respondent skipped', 'duplicate respondents skipped'));
  /* @end dedupe */
  /* @feature unknown-choice */
  let unknown = 0;
  list.forEach((r) => survey.questions.forEach((q) => {
    const a = r.answers[q.id];
    if (q.type === 'text' || a === undefined || a === null || a === '') return;
    const labels = Array.isArray(a) ? a : [a];
    unknown += labels.filter((x) => !q.choices.includes(x)).length;
  }));
  if (unknown) notes.push(plural(unknown, 'answer with an unknown choice ignored', 'answers with an unknown choice ignored'));
  /* @end unknown-choice */
  /* @broken unknown-choice */
  let unknown = 0;
  list.forEach((r) => survey.questions.forEach((q) => {
    const a = r.answers[q.id];
    if (q.type === 'text' || a === undefined || a === null || a === '') return;
    const labels = Array.isArray(a) ? a : [a];
    unknown += labels.filter((x) => !q.choices.includes(x)).length;
  }));
  if (unknown) notes.push(plural(unknown, 'answer with an unknown choice ignored', 'answers with an unknown choice ignored'));
  /* @end unknown-choice */
  state.respondents = list;
  /* @feature complete-only */
  const incomplete = list.filter((r) => !isComplete(r)).length;
  if (incomplete) notes.push(plural(incomplete, 'incomplete response', 'incomplete responses'));
  /* @end complete-only */
  /* @broken complete-only */
  const incomplete = list.filter((r) => !isComplete(r)).length;
  if (incomplete) notes.push(plural(incomplete, 'incomplete response', 'incomplete responses'));
  /* @end complete-only */
  state.notes = notes;
}

function loadSettings() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && typeof saved === 'object') Object.assign(state.settings, saved);
  } catch (e) { /* unreadable settings: keep the defaults */ }
  /* @end persist */
}

function saveSettings() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify(state.settings));
  /* @end persist */
}

// ------------------------------------------------------------------ shared parts
const choiceQuestions = () => state.survey.questions.filter((q) => q.type !== 'text');
const numbered = (q) => `Q${state.survey.questions.indexOf(q) + 1}. ${q.text}`;

function renderFilters() {
  const s = state.settings;
  const list = filtered();
  const active = Boolean(s.age || s.area || s.complete);
  $('respondents').textContent = active
    ? `Respondents: ${list.length} of ${state.respondents.length}`
    : `Respondents: ${state.respondents.length}`;
  const notes = $('notes');
  notes.innerHTML = state.notes.map((n) => `<li>${esc(n)}</li>`).join('');
  notes.hidden = state.notes.length === 0;
}

// ------------------------------------------------------------------ results view
function averageLine(q, list) {
  let line = '';
  /* @feature scale-average */
  if (q.type === 'scale') {
    const scores = list.map((r) => answerOf(q, r)).filter((a) => a !== null).map((a) => q.choices.indexOf(a) + 1);
    if (scores.length) {
      const sum = scores.reduce((s, n) => s + n, 0);
      const tenths = Math.floor((20 * sum + scores.length) / (2 * scores.length));
      line = `<p class="meta">Average score: ${(tenths / 10).toFixed(1)}</p>`;
    }
  }
  /* @end scale-average */
  /* @broken scale-average */
  if (q.type === 'scale') {
    const scores = list.map((r) => answerOf(q, r)).filter((a) => a !== null).map((a) => q.choices.indexOf(a) + 1);
    if (scores.length) line = `<p class="meta">Average score: ${(scores.reduce((s, n) => s + n, 0) / scores.length).toFixed(2)}</p>`;
  }
  /* @end scale-average */
  return line;
}

function barHtml(label, p) {
  let bar = '';
  /* @feature bars */
  bar = `<div class="bar" role="img" aria-label="${esc(label)}: ${p}%" style="width:${Math.max(0, Math.min(100, Number(p) || 0))}%"></div>`;
  /* @end bars */
  /* @broken bars */
  bar = `<div class="bar" role="img" aria-label="${esc(label)}: ${p}%" style="width:100%"></div>`;
  /* @end bars */
  return bar;
}

function orderChoices(q, counts) {
  let idx = q.choices.map((c, i) => i);
  /* @feature sort */
  if (state.settings.order === 'count') idx = idx.sort((a, b) => counts[b] - counts[a] || a - b);
  /* @end sort */
  /* @broken sort */
  if (state.settings.order === 'count') idx = idx.sort((a, b) => counts[a] - counts[b] || a - b);
  /* @end sort */
  return idx;
}

function renderResults() {
  const list = filtered();
  $('questions').innerHTML = choiceQuestions().map((q) => {
    const { base, counts } = tally(q, list);
    const hid = `q-${esc(q.id)}-h`;
    let body;
    if (base === 0 && window.emptyResults) {
      body = window.emptyResults();
    } else {
      body = orderChoices(q, counts).map((i) => {
        const p = pct(counts[i], base);
        return `<div class="choice"><span class="label">${esc(q.choices[i])}</span>
          <div class="track">${barHtml(q.choices[i], p)}</div>
          <span class="value">${p}% (${counts[i]})</span></div>`;
      }).join('');
    }
    return `<section class="card question" aria-labelledby="${hid}">
      <h3 id="${hid}">${esc(numbered(q))}</h3>
      <p class="meta">${base} answered</p>
      ${q.type === 'multiple' ? '<p class="meta">Multiple answers allowed</p>' : ''}
      ${averageLine(q, list)}
      <div class="bars">${body}</div>
    </section>`;
  }).join('');
}

/* @feature empty-state */
window.emptyResults = () => '<p class="empty">No answers for this selection.</p>';
/* @end empty-state */

// ------------------------------------------------------------------ crosstab view
function crosstabQuestions() {
  return state.survey.questions.filter((q) => q.type === 'single' || q.type === 'scale');
}

function cell(c, b) {
  /* @feature crosstab-empty */
  if (b === 0) return '–';
  /* @end crosstab-empty */
  return `${pct(c, b)}%`;
}

/* @feature crosstab */
window.renderCrosstab = () => {
  const qs = crosstabQuestions();
  const q = qs.find((x) => x.id === state.settings.xq) || qs[0];
  const dem = state.survey.demographics.find((d) => d.key === state.settings.xby) || state.survey.demographics[0];
  const list = filtered();
  const cols = dem.values.map((v) => ({ name: v, rows: list.filter((r) => r[dem.key] === v) }));
  cols.push({ name: 'All', rows: list });
  const tallies = cols.map((c) => tally(q, c.rows));
  const body = q.choices.map((choice, i) => `<tr><th scope="row">${esc(choice)}</th>${
    tallies.map((t) => `<td>${cell(t.counts[i], t.base)}</td>`).join('')}</tr>`).join('');
  $('crosstab-wrap').innerHTML = `<p class="question-text">${esc(numbered(q))} — by ${esc(dem.label)}</p>
    <table aria-label="Crosstab" class="xtab">
      <thead><tr><th scope="col">Choice</th>${cols.map((c) => `<th scope="col">${esc(c.name)}</th>`).join('')}</tr></thead>
      <tbody>${body}</tbody>
      <tfoot><tr><th scope="row">Answered</th>${tallies.map((t) => `<td>${t.base}</td>`).join('')}</tr></tfoot>
    </table>`;
};
/* @end crosstab */
/* @broken crosstab */
window.renderCrosstab = () => {
  const qs = crosstabQuestions();
  const q = qs.find((x) => x.id === state.settings.xq) || qs[0];
  const dem = state.survey.demographics.find((d) => d.key === state.settings.xby) || state.survey.demographics[0];
  const list = filtered();
  const cols = dem.values.map((v) => ({ name: v, rows: list.filter((r) => r[dem.key] === v) }));
  cols.push({ name: 'All', rows: list });
  const tallies = cols.map((c) => tally(q, c.rows));
  const total = tallies[tallies.length - 1].base;
  const body = q.choices.map((choice, i) => `<tr><th scope="row">${esc(choice)}</th>${
    tallies.map((t) => `<td>${cell(t.counts[i], total)}</td>`).join('')}</tr>`).join('');
  $('crosstab-wrap').innerHTML = `<p class="question-text">${esc(numbered(q))} — by ${esc(dem.label)}</p>
    <table aria-label="Crosstab" class="xtab">
      <thead><tr><th scope="col">Choice</th>${cols.map((c) => `<th scope="col">${esc(c.name)}</th>`).join('')}</tr></thead>
      <tbody>${body}</tbody>
      <tfoot><tr><th scope="row">Answered</th>${tallies.map((t) => `<td>${t.base}</td>`).join('')}</tr></tfoot>
    </table>`;
};
/* @end crosstab */

// ------------------------------------------------------------------ comments view
/* @feature comments */
window.renderComments = () => {
  const tq = state.survey.questions.find((q) => q.type === 'text');
  if (!tq) return;
  $('c-question').textContent = numbered(tq);
  let items = filtered().map((r) => ({ r, text: String(r.answers[tq.id] ?? '').trim() })).filter((x) => x.text);
  /* @feature comment-search */
  const term = ($('c-search')?.value || '').trim().toLowerCase();
  if (term) items = items.filter((x) => x.text.toLowerCase().includes(term));
  /* @end comment-search */
  /* @broken comment-search */
  const term = ($('c-search')?.value || '').trim();
  if (term) items = items.filter((x) => x.text.startsWith(term));
  /* @end comment-search */
  $('c-count').textContent = plural(items.length, 'comment', 'comments');
  $('c-list').innerHTML = items.map((x) => `<li><span class="text">${esc(x.text)}</span>
    <span class="who">${esc(x.r.age)} · ${esc(x.r.area)}</span></li>`).join('');
  $('c-empty').hidden = items.length > 0;
};
/* @end comments */

// ------------------------------------------------------------------ wiring
function fillSelect(sel, options, value) {
  if (!sel) return;
  sel.innerHTML = options.map(([v, label]) => `<option value="${esc(v)}">${esc(label)}</option>`).join('');
  sel.value = value;
  if (sel.selectedIndex < 0) sel.selectedIndex = 0;
}

function syncControls() {
  const s = state.settings;
  const [age, area] = state.survey.demographics;
  fillSelect($('f-age'), [['', 'All'], ...age.values.map((v) => [v, v])], s.age);
  fillSelect($('f-area'), [['', 'All'], ...area.values.map((v) => [v, v])], s.area);
  if ($('f-complete')) $('f-complete').checked = Boolean(s.complete);
  if ($('order')) $('order').value = s.order === 'count' ? 'count' : 'survey';
  fillSelect($('x-question'), crosstabQuestions().map((q) => [q.id, numbered(q)]), s.xq);
  fillSelect($('x-by'), state.survey.demographics.map((d) => [d.key, d.label]), s.xby);
}

function render() {
  renderFilters();
  renderResults();
  window.renderCrosstab?.();
  window.renderComments?.();
}

function route() {
  const h = location.hash;
  const view = h.startsWith('#/crosstab') ? 'crosstab' : h.startsWith('#/comments') ? 'comments' : 'results';
  ['results', 'crosstab', 'comments'].forEach((v) => { $(`view-${v}`).hidden = v !== view; });
  document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.getAttribute('href') === `#/${view}`));
}

function setting(key, value) {
  state.settings[key] = value;
  saveSettings();
  render();
}

function wire() {
  $('f-age')?.addEventListener('change', (e) => setting('age', e.target.value));
  $('f-area')?.addEventListener('change', (e) => setting('area', e.target.value));
  $('f-complete')?.addEventListener('change', (e) => setting('complete', e.target.checked));
  /* @feature filters */
  $('f-clear')?.addEventListener('click', () => {
    Object.assign(state.settings, { age: '', area: '', complete: false });
    saveSettings();
    syncControls();
    render();
  });
  /* @end filters */
  /* @broken filters */
  $('f-clear')?.addEventListener('click', () => {
    Object.assign(state.settings, { age: '', area: '', complete: false });
    saveSettings();
    syncControls();
    render();
  });
  /* @end filters */
  $('order')?.addEventListener('change', (e) => setting('order', e.target.value));
  $('x-question')?.addEventListener('change', (e) => setting('xq', e.target.value));
  $('x-by')?.addEventListener('change', (e) => setting('xby', e.target.value));
  $('c-search')?.addEventListener('input', () => window.renderComments?.());
  window.addEventListener('hashchange', route);
}

Promise.all([fetch('data/survey.json').then((r) => r.json()),
             fetch('data/responses.json').then((r) => r.json())]).then(([survey, data]) => {
  prepare(survey, data.responses);
  $('survey-title').textContent = [survey.title, survey.fieldwork].filter(Boolean).join(' · ');
  loadSettings();
  syncControls();
  wire();
  route();
  render();
});
