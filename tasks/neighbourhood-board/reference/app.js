'use strict';
// Elm Park Neighbours: a notice board. Posts and replies come from data/posts.json, the board,
// its members and the fixed "today" from data/board.json; changes are kept in localStorage.
const STORE = 'elmpark-board-v1';
const KINDS = { offer: 'Offer', request: 'Request', event: 'Event', 'lost-found': 'Lost & found' };
const state = {
  board: null, me: null, posts: [], replies: [], orphans: 0,
  hiddenNotice: '', msgs: {}, msgOk: {},
};
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

// ------------------------------------------------------------------ dates (whole days, UTC)
const DAY_MS = 86400000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
let TODAY = 0;
function dayOf(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(iso || ''));
  return m ? Math.round(Date.UTC(+m[1], +m[2] - 1, +m[3]) / DAY_MS) : NaN;
}
const isoOf = (n) => new Date(n * DAY_MS).toISOString().slice(0, 10);
function fmtDate(iso) {
  const n = typeof iso === 'number' ? iso : dayOf(iso);
  if (Number.isNaN(n)) return 'no date';
  const d = new Date(n * DAY_MS);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/* @feature relative-dates */
window.relDate = (iso) => {
  const days = TODAY - dayOf(iso);
  if (days === 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days >= 2 && days <= 6) return `${days} days ago`;
  if (days >= 7 && days <= 27) return plural(Math.floor(days / 7), 'week ago', 'weeks ago');
  return fmtDate(iso);
};
/* @end relative-dates */
/* @broken relative-dates */
window.relDate = (iso) => {
  const days = TODAY - dayOf(iso);
  if (days === 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days >= 2 && days <= 6) return `${days} days ago`;
  return plural(Math.floor(days / 7), 'week ago', 'weeks ago');
};
/* @end relative-dates */
const when = (iso) => (window.relDate ? window.relDate(iso) : fmtDate(iso));

// ------------------------------------------------------------------ lookups and rules
function memberName(id) {
  const m = state.board.members.find((x) => x.id === id);
  if (m) return m.name;
  /* @feature unknown-author */
  return 'Unknown neighbour';
  /* @end unknown-author */
  // eslint-disable-next-line no-unreachable
  return id;
}
const limit = () => state.board.reportLimit || 3;
function isHidden(p) {
  /* @feature report-hide */
  return (p.reportedBy || []).length >= limit();
  /* @end report-hide */
  /* @broken report-hide */
  return (p.reportedBy || []).length > limit();
  /* @end report-hide */
  // eslint-disable-next-line no-unreachable
  return false;
}
function isUpcoming(p) {
  /* @feature past-events */
  return dayOf(p.eventDate) >= TODAY;
  /* @end past-events */
  /* @broken past-events */
  return dayOf(p.eventDate) >= TODAY;
  /* @end past-events */
  // eslint-disable-next-line no-unreachable
  return p.status === 'upcoming';
}
function eventLine(p) {
  /* @broken past-events */
  if (p.status === 'upcoming') return `Event date: ${fmtDate(p.eventDate)}`;
  /* @end past-events */
  return isUpcoming(p) ? `Event date: ${fmtDate(p.eventDate)}` : `Past event: ${fmtDate(p.eventDate)}`;
}
const repliesOf = (p) => state.replies.filter((r) => r.post === p.id);
const byNewest = (a, b) => {
  /* @feature sort */
  return (dayOf(b.created) - dayOf(a.created)) || (num(b.id) - num(a.id));
  /* @end sort */
  /* @broken sort */
  return (dayOf(b.created) - dayOf(a.created)) || (num(a.id) - num(b.id));
  /* @end sort */
  // eslint-disable-next-line no-unreachable
  return 0;
};
const num = (id) => parseInt(String(id).replace(/\D/g, ''), 10) || 0;

// ------------------------------------------------------------------ storage
function save() {
  /* @feature persist */
  localStorage.setItem(STORE, JSON.stringify({ posts: state.posts, replies: state.replies }));
  /* @end persist */
  /* @broken persist */
  localStorage.setItem(STORE, JSON.stringify({ posts: state.posts }));
  /* @end persist */
}
function loadSaved() {
  /* @feature persist */
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (s && Array.isArray(s.posts) && Array.isArray(s.replies)) return s;
  } catch (e) { /* unreadable storage: start from the data */ }
  /* @end persist */
  /* @broken persist */
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (s && Array.isArray(s.posts)) return { posts: s.posts, replies: null };
  } catch (e) { /* unreadable storage: start from the data */ }
  /* @end persist */
  return null;
}

// ------------------------------------------------------------------ feed
function visiblePosts() {
  let list = state.posts.filter((p) => !isHidden(p));
  /* @feature kind-filter */
  const kind = $('kind-filter').value;
  if (kind !== 'all') list = list.filter((p) => p.kind === kind);
  /* @end kind-filter */
  /* @broken kind-filter */
  const sel = $('kind-filter');
  const label = sel.options[sel.selectedIndex].text.toLowerCase().replace(/s$/, '');
  if (sel.value !== 'all') list = list.filter((p) => p.kind === label);
  /* @end kind-filter */
  /* @feature street-filter */
  const street = $('street-filter').value;
  if (street !== 'all') list = list.filter((p) => p.street === street);
  /* @end street-filter */
  /* @broken street-filter */
  const street = $('street-filter').value;
  if (street !== 'all') list = state.posts.filter((p) => !isHidden(p) && p.street === street);
  /* @end street-filter */
  return [...list].sort(byNewest);
}

function buttonsHtml(p) {
  const mine = p.author === state.me.id;
  let h = '';
  /* @feature likes */
  const liked = (p.likedBy || []).includes(state.me.id);
  h += `<button type="button" class="like" data-act="like" aria-pressed="${liked}">Like (${(p.likedBy || []).length})</button>`;
  /* @end likes */
  /* @broken likes */
  const liked = (p.likedBy || []).includes(state.me.id);
  h += `<button type="button" class="like" data-act="like" aria-pressed="${liked}">Like (${(p.likedBy || []).length})</button>`;
  /* @end likes */
  /* @feature report */
  if (!mine) {
    h += (p.reportedBy || []).includes(state.me.id)
      ? '<button type="button" class="quiet" disabled>Reported</button>'
      : '<button type="button" class="quiet" data-act="report">Report</button>';
  }
  /* @end report */
  /* @broken report */
  if (!mine) h += '<button type="button" class="quiet" data-act="report">Report</button>';
  /* @end report */
  /* @feature resolve */
  if (mine && p.kind === 'request' && !p.resolved) h += '<button type="button" data-act="resolve">Mark resolved</button>';
  /* @end resolve */
  /* @broken resolve */
  if (p.kind === 'request' && !p.resolved) h += '<button type="button" data-act="resolve">Mark resolved</button>';
  /* @end resolve */
  return h;
}

function replyFormHtml(p) {
  if (p.kind === 'request' && p.resolved) return '<p class="closed">Replies are closed: this request is resolved.</p>';
  let h = '';
  /* @feature replies */
  h = `<div class="reply-form"><label>Reply <input type="text" data-reply autocomplete="off"></label>
    <button type="button" data-act="reply">Send reply</button></div>`;
  /* @end replies */
  return h;
}

function postHtml(p) {
  const reps = repliesOf(p);
  const kindLabel = KINDS[p.kind] || p.kind;
  return `<article class="post card kind-${esc(p.kind)}" aria-label="${esc(p.title)}" data-post="${esc(p.id)}">
    <div class="tags"><span class="kind">${esc(kindLabel)}</span>${p.kind === 'request' && p.resolved ? '<span class="resolved">Resolved</span>' : ''}</div>
    <h3>${esc(p.title)}</h3>
    <p class="meta">by ${esc(memberName(p.author))} · ${esc(p.street)} · ${esc(when(p.created))}</p>
    <p class="body">${esc(p.body)}</p>
    ${p.kind === 'event' ? `<p class="event ${isUpcoming(p) ? '' : 'past'}">${esc(eventLine(p))}</p>` : ''}
    <div class="actions">${buttonsHtml(p)}</div>
    <p class="reply-count">${plural(reps.length, 'reply', 'replies')}</p>
    <ul class="replies" aria-label="Replies">${reps.map((r) => `<li><span class="who">${esc(memberName(r.author))}</span> <span class="muted">· ${esc(when(r.created))}</span><br>${esc(r.text)}</li>`).join('')}</ul>
    ${replyFormHtml(p)}
    <p class="msg${state.msgOk[p.id] ? ' ok' : ''}" role="alert">${esc(state.msgs[p.id] || '')}</p>
  </article>`;
}

function renderNotices() {
  const parts = [];
  /* @feature orphan-replies */
  if (state.orphans) parts.push(`${state.orphans} ${state.orphans === 1 ? 'reply' : 'replies'} to a missing post ${state.orphans === 1 ? 'was' : 'were'} ignored.`);
  /* @end orphan-replies */
  if (state.hiddenNotice) parts.push(state.hiddenNotice);
  $('notices').innerHTML = parts.map((t) => `<span>${esc(t)}</span>`).join('');
  $('notices').hidden = !parts.length;
}

function renderFeed() {
  const list = visiblePosts();
  const count = $('count');
  /* @feature feed-count */
  if (count) count.textContent = `Showing ${plural(list.length, 'post', 'posts')}`;
  /* @end feed-count */
  /* @broken feed-count */
  if (count) count.textContent = `Showing ${plural(state.posts.length, 'post', 'posts')}`;
  /* @end feed-count */
  $('posts').innerHTML = list.length ? list.map(postHtml).join('')
    : '<p class="empty card">No posts match these filters.</p>';
  renderNotices();
}

/* @feature upcoming-events */
window.renderUpcoming = () => {
  const events = state.posts.filter((p) => p.kind === 'event' && !isHidden(p) && isUpcoming(p))
    .sort((a, b) => dayOf(a.eventDate) - dayOf(b.eventDate));
  $('upcoming').innerHTML = events.length
    ? events.map((p) => `<li><span class="date">${fmtDate(p.eventDate)}</span> · ${esc(p.title)}</li>`).join('')
    : '<li class="muted">No upcoming events.</li>';
};
/* @end upcoming-events */

function render() {
  renderFeed();
  if (window.renderUpcoming) window.renderUpcoming();
}

// ------------------------------------------------------------------ post actions
const ACT = {};
function said(p, msg, ok) {
  state.msgs[p.id] = msg || '';
  state.msgOk[p.id] = Boolean(ok);
}

/* @feature likes */
ACT.like = (p) => {
  const me = state.me.id;
  p.likedBy = (p.likedBy || []).includes(me) ? p.likedBy.filter((x) => x !== me) : [...(p.likedBy || []), me];
  save();
  render();
};
/* @end likes */
/* @broken likes */
ACT.like = (p) => {
  p.likedBy = [...(p.likedBy || []), state.me.id];
  save();
  render();
};
/* @end likes */
/* @feature report */
ACT.report = (p) => {
  if ((p.reportedBy || []).includes(state.me.id)) return;
  p.reportedBy = [...(p.reportedBy || []), state.me.id];
  state.hiddenNotice = isHidden(p) ? `A post was hidden after ${limit()} reports.` : '';
  said(p, 'Thanks, the moderators will take a look.', true);
  save();
  render();
};
/* @end report */
/* @broken report */
ACT.report = (p) => {
  p.reportedBy = [...(p.reportedBy || []), `${state.me.id}-${(p.reportedBy || []).length}`];
  state.hiddenNotice = isHidden(p) ? `A post was hidden after ${limit()} reports.` : '';
  said(p, 'Thanks, the moderators will take a look.', true);
  save();
  render();
};
/* @end report */
/* @feature resolve */
ACT.resolve = (p) => {
  if (p.author !== state.me.id || p.kind !== 'request') return;
  p.resolved = true;
  said(p, '');
  save();
  render();
};
/* @end resolve */
/* @broken resolve */
ACT.resolve = (p) => {
  p.resolved = true;
  said(p, '');
  save();
  render();
};
/* @end resolve */
/* @feature replies */
ACT.reply = (p, card) => {
  const raw = card.querySelector('[data-reply]').value;
  let text = raw.trim();
  /* @feature reply-validation */
  if (!text) { said(p, 'Write a reply first.'); render(); return; }
  /* @end reply-validation */
  /* @broken reply-validation */
  text = raw;
  if (!text) { said(p, 'Write a reply first.'); render(); return; }
  /* @end reply-validation */
  const top = Math.max(0, ...state.replies.map((r) => num(r.id)));
  state.replies.push({ id: `R${top + 1}`, post: p.id, author: state.me.id, created: isoOf(TODAY), text });
  said(p, '');
  save();
  render();
};
/* @end replies */

$('posts').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-act]');
  if (!btn || btn.disabled) return;
  const card = btn.closest('[data-post]');
  const p = card && state.posts.find((x) => x.id === card.dataset.post);
  if (p && ACT[btn.dataset.act]) ACT[btn.dataset.act](p, card);
});
$('posts').addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || !e.target.matches('[data-reply]')) return;
  const card = e.target.closest('[data-post]');
  const p = state.posts.find((x) => x.id === card.dataset.post);
  if (p && ACT.reply) ACT.reply(p, card);
});

// ------------------------------------------------------------------ filters
/* @feature kind-filter */
$('kind-filter').addEventListener('change', () => { state.hiddenNotice = ''; renderFeed(); });
/* @end kind-filter */
/* @broken kind-filter */
$('kind-filter').addEventListener('change', () => { state.hiddenNotice = ''; renderFeed(); });
/* @end kind-filter */
/* @feature street-filter */
$('street-filter').addEventListener('change', () => { state.hiddenNotice = ''; renderFeed(); });
/* @end street-filter */
/* @broken street-filter */
$('street-filter').addEventListener('change', () => { state.hiddenNotice = ''; renderFeed(); });
/* @end street-filter */

// ------------------------------------------------------------------ posting
/* @feature create */
function formErrors() {
  const errors = {};
  const kind = $('f-kind').value;
  const title = $('f-title').value;
  const details = $('f-details').value;
  if (!kind) errors.kind = 'Choose a kind.';
  /* @feature create-validation */
  const t = title.trim();
  if (t.length < 5 || t.length > 80) errors.title = 'The title needs 5 to 80 characters.';
  if (!details.trim()) errors.details = 'Write a few words of details.';
  /* @end create-validation */
  /* @broken create-validation */
  if (title.length < 5) errors.title = 'The title needs 5 to 80 characters.';
  if (!details.trim()) errors.details = 'Write a few words of details.';
  /* @end create-validation */
  if (kind === 'event') {
    const date = $('f-date').value;
    /* @feature event-date */
    if (!date) errors.date = 'Choose the event date.';
    else if (dayOf(date) < TODAY) errors.date = "The event date can't be in the past.";
    /* @end event-date */
    /* @broken event-date */
    if (!date) errors.date = 'Choose the event date.';
    /* @end event-date */
  }
  return errors;
}

function openForm() {
  const f = $('post-form');
  f.reset();
  $('f-street').innerHTML = state.board.streets.map((s) => `<option ${s === state.me.street ? 'selected' : ''}>${esc(s)}</option>`).join('');
  ['kind', 'title', 'details', 'date'].forEach((k) => { $(`e-${k}`).textContent = ''; });
  f.hidden = false;
  $('f-kind').focus();
}

function toggleEventField() { $('event-field').hidden = $('f-kind').value !== 'event'; }
$('f-kind').addEventListener('change', toggleEventField);
$('new-post').addEventListener('click', () => { openForm(); toggleEventField(); });
$('f-cancel').addEventListener('click', () => { $('post-form').hidden = true; });
$('post-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const errors = formErrors();
  ['kind', 'title', 'details', 'date'].forEach((k) => { $(`e-${k}`).textContent = errors[k] || ''; });
  if (Object.keys(errors).length) return;
  const kind = $('f-kind').value;
  const top = Math.max(0, ...state.posts.map((p) => num(p.id)));
  const post = {
    id: `P${top + 1}`, kind, title: $('f-title').value.trim(), body: $('f-details').value.trim(),
    author: state.me.id, street: $('f-street').value, created: isoOf(TODAY), likedBy: [], reportedBy: [],
  };
  if (kind === 'request') post.resolved = false;
  if (kind === 'event') { post.eventDate = $('f-date').value || null; post.status = 'upcoming'; }
  state.posts.push(post);
  state.hiddenNotice = '';
  $('post-form').hidden = true;
  save();
  render();
});
/* @end create */

// ------------------------------------------------------------------ start
Promise.all([fetch('data/board.json').then((r) => r.json()), fetch('data/posts.json').then((r) => r.json())])
  .then(([board, data]) => {
    state.board = board;
    state.me = board.members.find((m) => m.id === board.me) || { id: board.me, name: board.me, street: board.streets[0] };
    TODAY = dayOf(board.today);
    const posts = (data.posts || []).map((p) => ({ ...p, likedBy: [...(p.likedBy || [])], reportedBy: [...(p.reportedBy || [])] }));
    let replies = [...(data.replies || [])];
    /* @feature orphan-replies */
    const ids = new Set(posts.map((p) => p.id));
    state.orphans = replies.filter((r) => !ids.has(r.post)).length;
    replies = replies.filter((r) => ids.has(r.post));
    /* @end orphan-replies */
    const saved = loadSaved();
    state.posts = saved ? saved.posts : posts;
    state.replies = saved && saved.replies ? saved.replies : replies;
    const signed = $('signed-in');
    if (signed) signed.textContent = `Signed in as ${state.me.name}`;
    const today = $('today-line');
    if (today) today.textContent = `Today: ${fmtDate(TODAY)}`;
    const streets = $('street-filter');
    if (streets) streets.innerHTML = `<option value="all">All streets</option>${board.streets.map((s) => `<option>${esc(s)}</option>`).join('')}`;
    render();
  });
