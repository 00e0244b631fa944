'use strict';
// Hiring pipeline: roles and candidates from data/pipeline.json, dated by its fixed "today".
const STORE = 'hiring-pipeline-v1';
const STAGES = ['Applied', 'Screen', 'Interview', 'Offer', 'Hired', 'Rejected'];
const FORWARD = ['Applied', 'Screen', 'Interview', 'Offer', 'Hired'];
const REASONS = ['Skills gap', 'Salary expectations', 'Not a culture fit', 'Withdrew', 'Position filled'];
const state = { today: '', company: '', roles: [], cands: [], notices: [], role: null, open: null,
  query: '', hideRejected: false, panelMsg: '' };
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const dayNo = (iso) => Math.round(Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / 86400000);
const scoresOf = (i) => [i.skills, i.communication, i.culture];
const validScore = (s) => Number.isInteger(s) && s >= 1 && s <= 5;

function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify(state.cands));
  /* @end persist */
}
function loadSaved() {
  /* @feature persist */
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (Array.isArray(saved)) return saved;
  } catch (e) { /* unreadable: start from the data */ }
  /* @end persist */
  return null;
}

// ------------------------------------------------------------------ data and its anomalies
function fromData(data) {
  let list = (data.candidates || []).map((c) => ({ ...c, interviews: [...(c.interviews || [])], ignored: 0 }));
  let openRoles = data.roles || [];
  const notices = [];
  /* @feature dedupe */
  const seen = new Set();
  let dupes = 0;
  list = list.filter((c) => {
    const key = String(c.email || '').trim().toLowerCase();
    if (seen.has(key)) { dupes += 1; return false; }
    seen.add(key);
    return true;
  });
  if (dupes) notices.push(`${plural(dupes, 'duplicate candidate')} ignored`);
  /* @end dedupe */
  /* @feature closed-roles */
  openRoles = openRoles.filter((r) => r.status !== 'closed');
  const open = new Set(openRoles.map((r) => r.id));
  const closedCount = list.filter((c) => !open.has(c.role)).length;
  list = list.filter((c) => open.has(c.role));
  if (closedCount) notices.push(`${plural(closedCount, 'candidate')} for a closed role not shown`);
  /* @end closed-roles */
  /* @feature score-range */
  let bad = 0;
  list.forEach((c) => {
    const valid = c.interviews.filter((i) => scoresOf(i).every(validScore));
    c.ignored = c.interviews.length - valid.length;
    bad += c.ignored;
    c.interviews = valid;
  });
  if (bad) notices.push(`${plural(bad, 'interview')} with an out-of-range score ignored`);
  /* @end score-range */
  list.forEach((c) => { if (!c.stage_since) c.stage_since = c.applied || null; });
  return { list, openRoles, notices };
}

// ------------------------------------------------------------------ derived values
function averageOf(c) {
  const all = c.interviews.flatMap(scoresOf);
  if (!all.length) return null;
  const mean = all.reduce((a, b) => a + b, 0) / all.length;
  let shown = null;
  /* @feature average */
  shown = (Math.round(mean * 10 + 1e-9) / 10).toFixed(1);
  /* @end average */
  /* @broken average */
  shown = (Math.floor(mean * 10) / 10).toFixed(1);
  /* @end average */
  return shown;
}

function daysLine(c) {
  let line = '';
  /* @feature time-in-stage */
  if (c.stage_since) line = `${plural(dayNo(state.today) - dayNo(c.stage_since), 'day')} in stage`;
  /* @end time-in-stage */
  /* @broken time-in-stage */
  if (c.stage_since) line = `${plural(dayNo(state.today) - dayNo(c.stage_since) + 1, 'day')} in stage`;
  /* @end time-in-stage */
  return line;
}

function nextStage(c) {
  const i = FORWARD.indexOf(c.stage);
  return i >= 0 && i < FORWARD.length - 1 ? FORWARD[i + 1] : null;
}

function moveRefusal(c, next) {
  /* @feature offer-rule */
  if (next === 'Offer' && c.interviews.length < 2) return 'An offer needs two interview scores.';
  /* @end offer-rule */
  /* @broken offer-rule */
  if (next === 'Offer' && c.interviews.length + (c.ignored || 0) < 2) return 'An offer needs two interview scores.';
  /* @end offer-rule */
  return '';
}

function matches(c) {
  const q = state.query.trim().toLowerCase();
  if (!q) return true;
  return c.name.toLowerCase().includes(q) || String(c.email || '').toLowerCase().includes(q);
}

// ------------------------------------------------------------------ board
function cardHtml(c) {
  const lines = [`<p>${esc(c.email)}</p>`];
  lines.push(`<p>${c.applied ? `Applied ${esc(c.applied)}` : 'Applied date missing'}</p>`);
  const days = daysLine(c);
  if (days) lines.push(`<p class="days">${days}</p>`);
  const avg = averageOf(c);
  if (avg !== null) lines.push(`<p class="score">Score ${avg} (${plural(c.interviews.length, 'interview')})</p>`);
  if (c.stage === 'Rejected' && c.reason) lines.push(`<p class="reason">Reason: ${esc(c.reason)}</p>`);
  return `<article class="card" aria-labelledby="n-${esc(c.id)}">
    <h3 id="n-${esc(c.id)}"><button type="button" class="link" data-open="${esc(c.id)}">${esc(c.name)}</button></h3>
    ${lines.join('')}</article>`;
}

function renderBoard() {
  $('notice').textContent = state.notices.join(' · ');
  const role = state.roles.find((r) => r.id === state.role);
  $('role-title').textContent = role ? role.title : '';
  const mine = state.cands.filter((c) => c.role === state.role);
  $('board').innerHTML = STAGES.map((stage) => {
    const inStage = mine.filter((c) => c.stage === stage);
    let count = '';
    /* @feature stage-counts */
    count = ` <span class="count">(${inStage.length})</span>`;
    /* @end stage-counts */
    const shown = inStage.filter(matches).filter(() => !(stage === 'Rejected' && state.hideRejected));
    return `<section class="col" aria-label="${stage}"><h2>${stage}${count}</h2>
      ${shown.map(cardHtml).join('')}</section>`;
  }).join('');
}

// ------------------------------------------------------------------ candidate panel
function renderPanel() {
  const panel = $('panel');
  const c = state.cands.find((x) => x.id === state.open);
  if (!c) { panel.hidden = true; panel.innerHTML = ''; return; }
  panel.hidden = false;
  panel.setAttribute('aria-label', `Candidate ${c.name}`);
  const role = state.roles.find((r) => r.id === c.role);
  let html = `<h2>${esc(c.name)}</h2><p>Stage: ${esc(c.stage)}</p><p>${esc(c.email)}</p>
    <p>Role: ${esc(role ? role.title : c.role)}</p>`;
  /* @feature average */
  const avg = averageOf(c);
  html += `<p>Average score: ${avg === null ? 'none' : avg}</p>`;
  /* @end average */
  /* @broken average */
  const avgB = averageOf(c);
  html += `<p>Average score: ${avgB === null ? 'none' : avgB}</p>`;
  /* @end average */
  html += `<h3>Interviews</h3><ul aria-label="Interviews">${c.interviews.map((i) =>
    `<li>${esc(i.by || 'Interviewer')}: ${scoresOf(i).join(', ')}</li>`).join('')}</ul>`;
  const next = nextStage(c);
  /* @feature move */
  if (next && c.stage !== 'Rejected') html += `<div class="group"><button type="button" class="act" data-act="move">Move to ${next}</button></div>`;
  /* @end move */
  /* @feature add-scores */
  if (c.stage === 'Interview') {
    html += `<div class="group">
      <label>Interviewer <input id="p-by" type="text" autocomplete="off"></label>
      <label>Skills <input id="p-skills" class="num" type="number" step="any"></label>
      <label>Communication <input id="p-comm" class="num" type="number" step="any"></label>
      <label>Culture fit <input id="p-culture" class="num" type="number" step="any"></label>
      <button type="button" class="act" data-act="score">Add scores</button></div>`;
  }
  /* @end add-scores */
  /* @feature reject */
  if (c.stage !== 'Hired' && c.stage !== 'Rejected') {
    html += `<div class="group"><label>Reason <select id="p-reason"><option value="">Choose…</option>${REASONS.map((r) =>
      `<option>${esc(r)}</option>`).join('')}</select></label>
      <button type="button" class="act ghost" data-act="reject">Reject candidate</button></div>`;
  }
  /* @end reject */
  html += `<p class="msg" role="alert">${esc(state.panelMsg)}</p>`;
  panel.innerHTML = html;
}

function render() { renderBoard(); renderPanel(); }

// ------------------------------------------------------------------ actions
const ACTIONS = {};
/* @feature move */
ACTIONS.move = (c) => {
  const next = nextStage(c);
  if (!next) return;
  const refusal = moveRefusal(c, next);
  if (refusal) { state.panelMsg = refusal; return; }
  c.stage = next;
  c.stage_since = state.today;
  state.panelMsg = '';
  save();
};
/* @end move */
/* @feature add-scores */
ACTIONS.score = (c) => {
  const scores = [$('p-skills').value, $('p-comm').value, $('p-culture').value].map((v) => (v.trim() === '' ? NaN : Number(v)));
  /* @feature score-validation */
  if (!scores.every(validScore)) { state.panelMsg = 'Scores must be whole numbers from 1 to 5.'; return; }
  /* @end score-validation */
  const by = $('p-by').value.trim() || 'Interviewer';
  c.interviews.push({ by, skills: scores[0], communication: scores[1], culture: scores[2] });
  state.panelMsg = '';
  save();
};
/* @end add-scores */
/* @feature reject */
ACTIONS.reject = (c) => {
  const reason = $('p-reason').value;
  if (!reason) { state.panelMsg = 'Choose a reason.'; return; }
  c.stage = 'Rejected';
  c.reason = reason;
  c.stage_since = state.today;
  state.panelMsg = '';
  save();
};
/* @end reject */

document.addEventListener('click', (e) => {
  const opener = e.target.closest('[data-open]');
  if (opener) {
    state.open = opener.dataset.open;
    state.panelMsg = '';
    render();
    return;
  }
  const act = e.target.closest('[data-act]');
  if (act && ACTIONS[act.dataset.act]) {
    const c = state.cands.find((x) => x.id === state.open);
    if (!c) return;
    ACTIONS[act.dataset.act](c);
    render();
  }
});

function wireToolbar() {
  /* @feature role-select */
  const sel = $('role');
  sel.innerHTML = state.roles.map((r) => `<option value="${esc(r.id)}">${esc(r.title)}</option>`).join('');
  sel.value = state.role;
  sel.addEventListener('change', () => { state.role = sel.value; state.open = null; render(); });
  /* @end role-select */
  /* @feature search */
  $('search').addEventListener('input', (e) => { state.query = e.target.value; renderBoard(); });
  $('hide-rejected').addEventListener('change', (e) => { state.hideRejected = e.target.checked; renderBoard(); });
  /* @end search */
}

async function init() {
  const data = await (await fetch('data/pipeline.json')).json();
  state.today = data.today;
  state.company = data.company || '';
  const { list, openRoles, notices } = fromData(data);
  state.roles = openRoles;
  state.notices = notices;
  state.cands = loadSaved() || list;
  state.role = openRoles.length ? openRoles[0].id : null;
  $('today').textContent = `Today: ${state.today}`;
  $('company').textContent = state.company;
  wireToolbar();
  render();
}
init();
