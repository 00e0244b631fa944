/* Fernhill Bakery website — team kanban board (Brightside Studio).
   Routes: #/ (board)  #/card/<ID> (board + card detail panel) */
(() => {
  'use strict';

  const KEY = 'fernhill.kanban.v1';
  const PRIORITIES = {
    high: { label: 'High', rank: 0 },
    medium: { label: 'Medium', rank: 1 },
    low: { label: 'Low', rank: 2 },
  };
  const TITLE_MAX = 80;
  const COMMENT_MAX = 500;

  // Optional behaviours register themselves here; the core calls them with ?.()
  const hooks = {};
  const filters = [];          // predicates registered by the search / filter features

  const state = {
    meta: {}, columns: [], members: [], cards: [], comments: [], issues: [], seq: 0, cseq: 0,
  };
  const ui = { q: '', who: '', pri: '', modal: null, focusId: null };

  const $ = (sel, root = document) => root.querySelector(sel);
  const boardEl = $('#board');

  // ------------------------------------------------------------ helpers
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => (
    { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const parts = (iso) => String(iso).split('-').map((x) => parseInt(x, 10));
  function isValidDate(iso) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(iso))) return false;
    const [y, m, d] = parts(iso);
    const dt = new Date(Date.UTC(y, m - 1, d));
    return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
  }
  const fmtShort = (iso) => { const [, m, d] = parts(iso); return `${d} ${MONTHS[m - 1] || '?'}`; };
  const fmtLong = (iso) => { const [y, m, d] = parts(iso); return `${d} ${MONTHS[m - 1] || '?'} ${y}`; };
  function fmtDay(iso) {
    const [y, m, d] = parts(iso);
    const dt = new Date(Date.UTC(y, m - 1, d));
    return `${DAYS[dt.getUTCDay()]} ${d} ${MONTHS[m - 1]} ${y}`;
  }
  function daysBetween(a, b) {
    const [y1, m1, d1] = parts(a); const [y2, m2, d2] = parts(b);
    return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86400000);
  }
  const today = () => state.meta.today;
  const cardById = (id) => state.cards.find((c) => c.id === id);
  const colById = (id) => state.columns.find((c) => c.id === id);
  const colIndex = (id) => state.columns.findIndex((c) => c.id === id);
  const memberById = (id) => state.members.find((m) => m.id === id);
  const cardsIn = (colId) => state.cards.filter((c) => c.column === colId);
  const priorityLabel = (p) => PRIORITIES[p]?.label ?? String(p || '');
  function assigneeName(c) {
    if (!c.assignee) return 'Unassigned';
    return memberById(c.assignee)?.name ?? String(c.assignee);
  }
  const initials = (name) => name.split(/\s+/).map((w) => w[0] || '').join('').slice(0, 2).toUpperCase();
  const commentsOf = (id) => state.comments.filter((m) => m.card === id);
  const isOverdue = (c) => !!hooks.overdue?.(c);
  const isDueToday = (c) => !!hooks.dueToday?.(c);

  function save() { hooks.save?.(); }

  function say(msg) {
    const live = $('#live'); const alertEl = $('#alert');
    if (alertEl) alertEl.textContent = '';
    if (live) live.textContent = msg;
  }
  function warn(msg) {
    const live = $('#live'); const alertEl = $('#alert');
    if (live) live.textContent = '';
    if (alertEl) alertEl.textContent = msg;
  }

  // ------------------------------------------------------------ data loading
  async function readFiles() {
    const [b, cm] = await Promise.all([
      fetch('data/board.json').then((r) => r.json()),
      fetch('data/comments.json').then((r) => r.json()),
    ]);
    const fresh = {
      meta: {
        team: b.team, project: b.project, sprint: b.sprint, today: b.today,
        current_user: b.current_user,
      },
      columns: (b.columns || []).map((c) => ({
        id: c.id, name: c.name, wip_limit: Number.isInteger(c.wip_limit) && c.wip_limit > 0 ? c.wip_limit : null,
      })),
      members: (b.members || []).map((m) => ({ id: m.id, name: m.name, role: m.role, color: m.color })),
      cards: [], comments: [], issues: [], seq: 0, cseq: 0,
    };
    const colIds = new Set(fresh.columns.map((c) => c.id));
    const memberIds = new Set(fresh.members.map((m) => m.id));
    const seen = new Set();
    for (const raw of b.cards || []) {
      const id = String(raw.id || '').trim().toUpperCase();
      fresh.seq = Math.max(fresh.seq, parseInt(id.replace(/\D/g, ''), 10) || 0);
      if (seen.has(id) && hooks.dedupe?.(raw, id, fresh)) continue;
      const c = {
        id,
        title: String(raw.title || '').trim(),
        description: String(raw.description || '').trim(),
        column: raw.column,
        assignee: raw.assignee || null,
        priority: raw.priority || 'medium',
        due: raw.due || null,
        created: raw.created || null,
      };
      if (!colIds.has(c.column) && !hooks.fixColumn?.(c, raw, fresh)) continue;
      if (c.assignee && !memberIds.has(c.assignee)) hooks.fixAssignee?.(c, raw, fresh);
      if (!PRIORITIES[c.priority]) hooks.fixPriority?.(c, raw, fresh);
      if (c.due && !isValidDate(c.due)) hooks.fixDate?.(c, raw, fresh);
      seen.add(id);
      fresh.cards.push(c);
    }
    for (const m of cm.comments || []) {
      fresh.cseq = Math.max(fresh.cseq, parseInt(String(m.id).replace(/\D/g, ''), 10) || 0);
      if (!seen.has(m.card)) {
        fresh.issues.push(`Comment ${m.id} refers to unknown card ${m.card} and was ignored.`);
        continue;
      }
      fresh.comments.push({ id: m.id, card: m.card, author: m.author, date: m.date, text: String(m.text || '') });
    }
    return fresh;
  }

  async function load() {
    const fresh = await readFiles();
    const saved = hooks.loadSaved?.();
    Object.assign(state, fresh, saved || {});
    if (!state.meta || !state.meta.today) state.meta = fresh.meta;
    const team = $('#brand-team'); if (team) team.textContent = state.meta.team;
    const proj = $('#brand-project'); if (proj) proj.textContent = state.meta.project;
    const badge = $('#today-badge'); if (badge) badge.textContent = `Today: ${fmtDay(today())}`;
    document.title = `${state.meta.project} — Team board`;
    hooks.initFilters?.();
    render();
  }

  async function resetBoard() {
    localStorage.removeItem(KEY);
    const fresh = await readFiles();
    Object.assign(state, fresh);
    Object.assign(ui, { q: '', who: '', pri: '', modal: null });
    hooks.initFilters?.();
    say('Board reset to the sample data.');
    if (location.hash && location.hash !== '#/') location.hash = '#/';
    else render();
  }

  // ------------------------------------------------------------ board
  const filtering = () => !!(ui.q.trim() || ui.who || ui.pri);
  const visible = (c) => filters.every((f) => f(c));

  function renderSummary() {
    const lede = $('#board-lede');
    if (lede) lede.textContent = `${state.meta.sprint} · ${plural(state.cards.length, 'card', 'cards')} · ${state.members.length} people`;
    const sum = $('#board-summary');
    if (sum) sum.innerHTML = hooks.summary?.() ?? '';
  }

  function cardHTML(c) {
    const i = colIndex(c.column);
    const prev = state.columns[i - 1];
    const next = state.columns[i + 1];
    const who = assigneeName(c);
    const m = memberById(c.assignee);
    const nComments = commentsOf(c.id).length;
    const overdue = isOverdue(c);
    const dueToday = isDueToday(c);
    const flags = [
      overdue ? '<span class="flag flag-overdue">Overdue</span>' : '',
      dueToday ? '<span class="flag flag-today">Due today</span>' : '',
    ].join('');
    return `
      <article class="kcard kp-${esc(c.priority)}${overdue ? ' is-overdue' : ''}${c.column === 'done' ? ' is-done' : ''}"
        tabindex="0" data-id="${esc(c.id)}" aria-label="${esc(c.id)} ${esc(c.title)}" draggable="true">
        <div class="kcard-top">
          <span class="kid">${esc(c.id)}</span>
          <span class="prio prio-${esc(c.priority)}">${esc(priorityLabel(c.priority))}</span>
          ${flags}
        </div>
        <a class="ktitle" href="#/card/${esc(c.id)}">${esc(c.title)}</a>
        <div class="kcard-meta">
          <span class="who${c.assignee && m ? '' : ' muted'}">
            <span class="avatar" style="background:${esc(m?.color || '#94a3b8')}" aria-hidden="true">${c.assignee && m ? esc(initials(who)) : '?'}</span>${esc(who)}
          </span>
          ${c.due ? `<span class="due${overdue ? ' due-late' : ''}">Due ${esc(fmtShort(c.due))}</span>` : ''}
          ${hooks.commentCount?.(nComments) ?? ''}
        </div>
        ${hooks.moveButtons?.(c, prev, next) ?? ''}
      </article>`;
  }

  function renderBoard() {
    renderSummary();
    const total = state.cards.length;
    const shown = state.cards.filter(visible);
    const rc = $('#result-count');
    if (rc) rc.textContent = filtering() ? `Showing ${shown.length} of ${plural(total, 'card', 'cards')}` : '';
    const empty = $('#empty-slot');
    if (empty) empty.innerHTML = filtering() && !shown.length ? (hooks.emptyState?.() ?? '') : '';
    const issues = $('#issues-slot');
    if (issues) issues.innerHTML = hooks.issuesPanel?.() ?? '';
    boardEl.innerHTML = state.columns.map((col) => {
      const all = cardsIn(col.id);
      const list = all.filter(visible);
      const wip = hooks.wipBadge?.(col, all.length)
        ?? `<span class="count">${all.length}</span>`;
      const body = list.length ? list.map(cardHTML).join('')
        : `<p class="col-empty">${filtering() ? 'No matching cards' : 'No cards yet'}</p>`;
      const limitState = col.wip_limit && all.length >= col.wip_limit ? (all.length > col.wip_limit ? ' over-limit' : ' at-limit') : '';
      return `
        <section class="column col-${esc(col.id)}${hooks.wipBadge ? limitState : ''}" aria-labelledby="col-h-${esc(col.id)}" data-col="${esc(col.id)}">
          <header class="col-head">
            <h2 id="col-h-${esc(col.id)}">${esc(col.name)}</h2>
            ${wip}
          </header>
          <div class="col-body" data-col="${esc(col.id)}">${body}</div>
        </section>`;
    }).join('');
    hooks.bindEmpty?.();
    if (ui.focusId) {
      const id = ui.focusId; ui.focusId = null;
      focusCard(id);
    }
  }

  // ------------------------------------------------------------ moving cards
  function focusCard(id) {
    boardEl.querySelector(`article[data-id="${CSS.escape(id)}"]`)?.focus();
  }

  function moveCard(id, dir) {
    const c = cardById(id);
    if (!c) return false;
    const target = state.columns[colIndex(c.column) + dir];
    if (!target) return false;
    const block = hooks.wipBlock?.(target);
    if (block) { warn(block); return false; }
    // the card goes to the bottom of the target column
    state.cards.splice(state.cards.indexOf(c), 1);
    c.column = target.id;
    c.completed = target.id === 'done' ? today() : null;
    state.cards.push(c);
    save();
    say(`${c.id} moved to ${target.name}`);
    render();
    return true;
  }

  function reorderCard(id, dir) {
    const c = cardById(id);
    if (!c) return false;
    const same = cardsIn(c.column);
    const k = same.indexOf(c);
    const other = same[k + dir];
    if (!other) return false;
    const a = state.cards.indexOf(c); const b = state.cards.indexOf(other);
    state.cards[a] = other; state.cards[b] = c;
    save();
    say(`${c.id} moved ${dir < 0 ? 'up' : 'down'} in ${colById(c.column).name}`);
    render();
    return true;
  }

  /* @feature move-buttons */
  hooks.moveButtons = (c, prev, next) => `
    <div class="kcard-actions">
      ${prev ? `<button type="button" class="mv mv-left" data-move="-1" aria-label="Move ${esc(c.id)} to ${esc(prev.name)}" title="Move to ${esc(prev.name)}">
        <svg viewBox="0 0 16 16" aria-hidden="true"><path d="M10 3L5 8l5 5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg><span>${esc(prev.name)}</span></button>` : ''}
      ${next ? `<button type="button" class="mv mv-right" data-move="1" aria-label="Move ${esc(c.id)} to ${esc(next.name)}" title="Move to ${esc(next.name)}">
        <span>${esc(next.name)}</span><svg viewBox="0 0 16 16" aria-hidden="true"><path d="M6 3l5 5-5 5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg></button>` : ''}
    </div>`;
  boardEl.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-move]');
    if (!b) return;
    const art = b.closest('article[data-id]');
    moveCard(art.dataset.id, Number(b.dataset.move));
  });
  /* @end move-buttons */

  /* @feature keyboard-move */
  boardEl.addEventListener('keydown', (e) => {
    const art = e.target.closest?.('article[data-id]');
    if (!art || e.target !== art) return;
    const id = art.dataset.id;
    if (e.shiftKey && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
      e.preventDefault();
      ui.focusId = id;
      if (!moveCard(id, e.key === 'ArrowRight' ? 1 : -1)) ui.focusId = null;
    } else if (e.key === 'Enter') {
      e.preventDefault();
      location.hash = `#/card/${id}`;
    }
  });
  /* @end keyboard-move */
  /* @broken keyboard-move */
  boardEl.addEventListener('keydown', (e) => {
    const art = e.target.closest?.('article[data-id]');
    if (!art || e.target !== art) return;
    const id = art.dataset.id;
    if (e.shiftKey && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
      e.preventDefault();
      moveCard(id, e.key === 'ArrowRight' ? 1 : -1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      location.hash = `#/card/${id}`;
    }
  });
  /* @end keyboard-move */

  /* @feature keyboard-reorder */
  boardEl.addEventListener('keydown', (e) => {
    const art = e.target.closest?.('article[data-id]');
    if (!art || e.target !== art) return;
    if (e.shiftKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault();
      const id = art.dataset.id;
      ui.focusId = id;
      if (!reorderCard(id, e.key === 'ArrowUp' ? -1 : 1)) ui.focusId = null;
    }
  });
  /* @end keyboard-reorder */

  // drag and drop for mouse users (checks drive the buttons and keys)
  let dragId = null;
  boardEl.addEventListener('dragstart', (e) => {
    const art = e.target.closest?.('article[data-id]');
    if (!art) return;
    dragId = art.dataset.id;
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', dragId);
    art.classList.add('dragging');
  });
  boardEl.addEventListener('dragend', () => {
    dragId = null;
    boardEl.querySelectorAll('.drop-target').forEach((el) => el.classList.remove('drop-target'));
  });
  boardEl.addEventListener('dragover', (e) => {
    const col = e.target.closest?.('section[data-col]');
    if (!col || !dragId) return;
    e.preventDefault();
    boardEl.querySelectorAll('.drop-target').forEach((el) => el !== col && el.classList.remove('drop-target'));
    col.classList.add('drop-target');
  });
  boardEl.addEventListener('drop', (e) => {
    const col = e.target.closest?.('section[data-col]');
    if (!col || !dragId) return;
    e.preventDefault();
    const c = cardById(dragId);
    const from = colIndex(c.column); const to = colIndex(col.dataset.col);
    const step = to > from ? 1 : -1;
    for (let i = from; i !== to; i += step) if (!moveCard(c.id, step)) break;
    dragId = null;
  });

  // ------------------------------------------------------------ WIP limits
  /* @feature wip-display */
  hooks.wipBadge = (col, n) => {
    if (!col.wip_limit) return `<span class="count" title="No WIP limit">${n}</span>`;
    const flag = n > col.wip_limit ? '<span class="wip-flag over">Over limit</span>'
      : n === col.wip_limit ? '<span class="wip-flag at">At limit</span>' : '';
    return `<span class="count wip" title="Work-in-progress limit ${col.wip_limit}">${n} / ${col.wip_limit}</span>${flag}`;
  };
  /* @end wip-display */

  /* @feature wip-enforce */
  hooks.wipBlock = (col, except) => {
    if (!col.wip_limit) return null;
    const n = cardsIn(col.id).filter((c) => c.id !== except).length;
    return n >= col.wip_limit
      ? `${col.name} is at its WIP limit (${col.wip_limit}). Move a card out before adding another.` : null;
  };
  /* @end wip-enforce */
  /* @broken wip-enforce */
  hooks.wipBlock = (col) => {
    if (!col.wip_limit) return null;
    const n = cardsIn(col.id).filter(visible).length;
    return n >= col.wip_limit
      ? `${col.name} is at its WIP limit (${col.wip_limit}). Move a card out before adding another.` : null;
  };
  /* @end wip-enforce */

  // ------------------------------------------------------------ due dates
  /* @feature overdue */
  hooks.overdue = (c) => !!c.due && c.column !== 'done' && c.due < today();
  hooks.dueToday = (c) => !!c.due && c.column !== 'done' && c.due === today();
  hooks.dueNote = (c) => {
    if (hooks.overdue(c)) {
      const n = daysBetween(c.due, today());
      return `<span class="flag flag-overdue">Overdue by ${plural(n, 'day', 'days')}</span>`;
    }
    if (hooks.dueToday(c)) return '<span class="flag flag-today">Due today</span>';
    return '';
  };
  /* @end overdue */
  /* @broken overdue */
  hooks.overdue = (c) => !!c.due && c.due < today();
  hooks.dueToday = (c) => !!c.due && c.due === today();
  /* @end overdue */

  /* @feature board-summary */
  hooks.summary = () => {
    const overdue = state.cards.filter(isOverdue).length;
    const dueToday = state.cards.filter(isDueToday).length;
    return `
      <span class="chip chip-late"><strong>${overdue}</strong> overdue</span>
      <span class="chip chip-today"><strong>${dueToday}</strong> due today</span>`;
  };
  /* @end board-summary */

  // ------------------------------------------------------------ search and filters
  /* @feature search */
  filters.push((c) => {
    const q = ui.q.trim().toLowerCase();
    return !q || c.title.toLowerCase().includes(q) || c.id.toLowerCase().includes(q);
  });
  $('#q')?.addEventListener('input', (e) => { ui.q = e.target.value; renderBoard(); });
  /* @end search */
  /* @broken search */
  filters.push((c) => {
    const q = ui.q.trim();
    return !q || c.title.includes(q) || c.id.includes(q);
  });
  $('#q')?.addEventListener('input', (e) => { ui.q = e.target.value; renderBoard(); });
  /* @end search */

  /* @feature assignee-filter */
  filters.push((c) => !ui.who || (ui.who === '__none__' ? !c.assignee || !memberById(c.assignee) : c.assignee === ui.who));
  $('#f-who')?.addEventListener('change', (e) => { ui.who = e.target.value; renderBoard(); });
  /* @end assignee-filter */

  /* @feature priority-filter */
  filters.push((c) => !ui.pri || c.priority === ui.pri);
  $('#f-pri')?.addEventListener('change', (e) => { ui.pri = e.target.value; renderBoard(); });
  /* @end priority-filter */

  hooks.initFilters = () => {
    const who = $('#f-who');
    if (who) {
      who.innerHTML = `<option value="">All assignees</option>${state.members.map((m) => `<option value="${esc(m.id)}">${esc(m.name)}</option>`).join('')}<option value="__none__">Unassigned</option>`;
      who.value = ui.who;
    }
    const pri = $('#f-pri'); if (pri) pri.value = ui.pri;
    const q = $('#q'); if (q) q.value = ui.q;
  };

  /* @feature filter-empty */
  hooks.emptyState = () => `
    <div class="empty">
      <svg viewBox="0 0 48 48" aria-hidden="true"><circle cx="21" cy="21" r="12" fill="none" stroke="currentColor" stroke-width="3"/><path d="M30 30l9 9" stroke="currentColor" stroke-width="3" stroke-linecap="round"/></svg>
      <div><p class="empty-title">No cards match your filters</p>
      <p class="muted">Try another word, assignee or priority.</p></div>
      <button type="button" class="btn btn-secondary" id="clear-filters">Clear filters</button>
    </div>`;
  hooks.bindEmpty = () => {
    $('#clear-filters')?.addEventListener('click', () => {
      ui.q = ''; ui.who = ''; ui.pri = '';
      hooks.initFilters();
      renderBoard();
    });
  };
  /* @end filter-empty */

  // ------------------------------------------------------------ comments on cards
  /* @feature comment-count */
  hooks.commentCount = (n) => (n ? `<span class="ccount" title="${plural(n, 'comment', 'comments')}">
    <svg viewBox="0 0 16 16" aria-hidden="true"><path d="M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"/></svg>${n}</span>` : '');
  /* @end comment-count */

  // ------------------------------------------------------------ card detail panel
  function renderPanel() {
    const slot = $('#panel-slot');
    const m = /^#\/card\/([^/]+)$/.exec(location.hash);
    if (!m) { slot.innerHTML = ''; document.body.classList.remove('panel-open'); return; }
    const id = decodeURIComponent(m[1]).toUpperCase();
    const c = cardById(id);
    const html = c ? hooks.panel?.(c) : hooks.notFound?.(id);
    slot.innerHTML = html || '';
    document.body.classList.toggle('panel-open', !!html);
    hooks.bindPanel?.(c);
  }

  function closePanel() {
    const m = /^#\/card\/([^/]+)$/.exec(location.hash);
    if (m) ui.focusId = decodeURIComponent(m[1]);
    location.hash = '#/';
  }

  /* @feature detail-panel */
  hooks.panel = (c) => {
    const col = colById(c.column);
    const m = memberById(c.assignee);
    return `
      <aside class="panel" role="dialog" aria-labelledby="panel-title">
        <div class="panel-head">
          <span class="kid">${esc(c.id)}</span>
          <span class="prio prio-${esc(c.priority)}">${esc(priorityLabel(c.priority))}</span>
          <button type="button" class="icon-btn" id="panel-close" aria-label="Close">
            <svg viewBox="0 0 20 20" aria-hidden="true"><path d="M5 5l10 10M15 5L5 15" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
          </button>
        </div>
        <h2 id="panel-title">${esc(c.title)}</h2>
        <dl class="facts">
          <div><dt>Column</dt><dd>${esc(col?.name || c.column)}</dd></div>
          <div><dt>Assignee</dt><dd>${m ? `<span class="avatar" style="background:${esc(m.color)}" aria-hidden="true">${esc(initials(m.name))}</span>` : ''}${esc(assigneeName(c))}</dd></div>
          <div><dt>Priority</dt><dd>${esc(priorityLabel(c.priority))}</dd></div>
          <div><dt>Due date</dt><dd>${c.due ? esc(fmtLong(c.due)) : '<span class="muted">No due date</span>'} ${c.due ? (hooks.dueNote?.(c) ?? '') : ''}</dd></div>
          <div><dt>Created</dt><dd>${c.created ? esc(fmtLong(c.created)) : '—'}</dd></div>
          ${c.column === 'done' && c.completed ? `<div><dt>Completed</dt><dd>${esc(fmtLong(c.completed))}</dd></div>` : ''}
        </dl>
        <div class="desc">
          <h3>Description</h3>
          ${c.description ? `<p>${esc(c.description)}</p>` : '<p class="muted">No description.</p>'}
        </div>
        <div class="panel-actions">
          ${hooks.editButton?.(c) ?? ''}
          ${hooks.deleteButton?.(c) ?? ''}
        </div>
        ${hooks.commentsSection?.(c) ?? ''}
      </aside>`;
  };
  hooks.bindPanel = (c) => {
    $('#panel-close')?.addEventListener('click', closePanel);
    if (!c) return;
    $('#edit-card')?.addEventListener('click', () => hooks.openForm?.('edit', c));
    $('#delete-card')?.addEventListener('click', () => hooks.deleteCard?.(c));
    hooks.bindComments?.(c);
  };
  /* @end detail-panel */

  /* @feature escape-close */
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || ui.modal) return;
    if (/^#\/card\//.test(location.hash)) { e.preventDefault(); closePanel(); }
  });
  /* @end escape-close */

  /* @feature not-found */
  hooks.notFound = (id) => `
    <aside class="panel" role="dialog" aria-labelledby="panel-title">
      <div class="panel-head"><span class="kid">${esc(id)}</span>
        <button type="button" class="icon-btn" id="panel-close" aria-label="Close">
          <svg viewBox="0 0 20 20" aria-hidden="true"><path d="M5 5l10 10M15 5L5 15" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
        </button></div>
      <h2 id="panel-title">Card not found</h2>
      <p class="muted">There is no card ${esc(id)} on this board. It may have been deleted.</p>
      <p><a class="btn btn-secondary" href="#/">Back to board</a></p>
    </aside>`;
  /* @end not-found */

  const commentNo = (m) => parseInt(String(m.id).replace(/\D/g, ''), 10) || 0;

  function commentsSectionHTML(c, list) {
    const items = list.map((m) => {
      const who = memberById(m.author);
      const name = who?.name || 'Former member';
      return `<li class="comment">
        <span class="avatar" style="background:${esc(who?.color || '#94a3b8')}" aria-hidden="true">${esc(initials(name))}</span>
        <div><p class="comment-head"><strong>${esc(name)}</strong> <time datetime="${esc(m.date)}">${esc(fmtLong(m.date))}</time></p>
        <p class="comment-text">${esc(m.text)}</p></div></li>`;
    }).join('');
    const me = memberById(state.meta.current_user);
    return `
      <section class="comments" aria-labelledby="comments-h">
        <h3 id="comments-h">Comments (${list.length})</h3>
        ${list.length ? `<ol class="comment-list">${items}</ol>` : '<p class="muted">No comments yet.</p>'}
        <form class="comment-form" id="comment-form" novalidate>
          <label for="comment-text">Add a comment</label>
          <textarea id="comment-text" rows="3" placeholder="Write as ${esc(me?.name || 'you')}…"></textarea>
          <p class="error" id="comment-error"></p>
          <div class="form-foot"><button type="submit" class="btn btn-primary btn-sm">Post comment</button></div>
        </form>
      </section>`;
  }

  function bindCommentForm(c) {
    $('#comment-form')?.addEventListener('submit', (e) => {
      e.preventDefault();
      const box = $('#comment-text');
      const text = box.value.trim();
      const err = hooks.commentError?.(text);
      if (err) { $('#comment-error').textContent = err; box.focus(); return; }
      state.cseq += 1;
      state.comments.push({
        id: `C-${String(state.cseq).padStart(3, '0')}`, card: c.id, author: state.meta.current_user,
        date: today(), text,
      });
      save();
      say(`Comment added to ${c.id}`);
      render();
      $('#comment-text')?.focus();
    });
  }

  /* @feature comments */
  hooks.commentsSection = (c) => commentsSectionHTML(c, commentsOf(c.id).sort(
    (a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : commentNo(a) - commentNo(b))));
  hooks.bindComments = bindCommentForm;
  /* @end comments */
  /* @broken comments */
  hooks.commentsSection = (c) => commentsSectionHTML(c, commentsOf(c.id).sort(
    (a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : commentNo(b) - commentNo(a))));
  hooks.bindComments = bindCommentForm;
  /* @end comments */

  /* @feature comment-validation */
  hooks.commentError = (text) => {
    if (!text) return 'Write a comment before posting.';
    if (text.length > COMMENT_MAX) return `Comments are limited to ${COMMENT_MAX} characters.`;
    return null;
  };
  /* @end comment-validation */

  // ------------------------------------------------------------ create / edit form
  function formHTML(mode, c) {
    const v = c || { title: '', description: '', column: 'backlog', assignee: null, priority: 'medium', due: '' };
    const title = mode === 'new' ? 'New card' : `Edit ${c.id}`;
    const opt = (val, label, cur) => `<option value="${esc(val)}"${val === cur ? ' selected' : ''}>${esc(label)}</option>`;
    return `
      <div class="backdrop">
        <div class="modal" role="dialog" aria-modal="true" aria-labelledby="modal-title">
          <form id="card-form" novalidate>
            <div class="modal-head">
              <h2 id="modal-title">${esc(title)}</h2>
              <button type="button" class="icon-btn" data-cancel aria-label="Close form">
                <svg viewBox="0 0 20 20" aria-hidden="true"><path d="M5 5l10 10M15 5L5 15" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
              </button>
            </div>
            <div class="form-grid">
              <div class="fld span2">
                <label for="f-title">Title</label>
                <input id="f-title" name="title" autocomplete="off" value="${esc(v.title)}">
                <p class="error" id="err-title"></p>
              </div>
              <div class="fld span2">
                <label for="f-desc">Description</label>
                <textarea id="f-desc" name="description" rows="3">${esc(v.description)}</textarea>
              </div>
              ${mode === 'new' ? `<div class="fld">
                <label for="f-column">Column</label>
                <select id="f-column" name="column">${state.columns.map((col) => opt(col.id, col.name, v.column)).join('')}</select>
                <p class="error" id="err-column"></p>
              </div>` : ''}
              <div class="fld">
                <label for="f-assignee">Assignee</label>
                <select id="f-assignee" name="assignee">${opt('', 'Unassigned', v.assignee && memberById(v.assignee) ? v.assignee : '')}${state.members.map((m) => opt(m.id, m.name, v.assignee)).join('')}</select>
              </div>
              <div class="fld">
                <label for="f-priority">Priority</label>
                <select id="f-priority" name="priority">${Object.entries(PRIORITIES).map(([k, p]) => opt(k, p.label, v.priority)).join('')}</select>
              </div>
              <div class="fld">
                <label for="f-due">Due date</label>
                <input id="f-due" name="due" type="date" value="${esc(v.due || '')}">
                <p class="error" id="err-due"></p>
              </div>
            </div>
            <div class="modal-foot">
              <button type="button" class="btn btn-ghost" data-cancel>Cancel</button>
              <button type="submit" class="btn btn-primary">${mode === 'new' ? 'Create card' : 'Save changes'}</button>
            </div>
          </form>
        </div>
      </div>`;
  }

  function closeForm() {
    ui.modal = null;
    $('#modal-slot').innerHTML = '';
  }

  hooks.openForm = (mode, c) => {
    ui.modal = { mode, id: c?.id || null };
    const slot = $('#modal-slot');
    slot.innerHTML = formHTML(mode, c);
    const form = $('#card-form');
    slot.querySelectorAll('[data-cancel]').forEach((b) => b.addEventListener('click', closeForm));
    form.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); closeForm(); }
    });
    form.addEventListener('submit', (e) => { e.preventDefault(); submitForm(form); });
    $('#f-title').focus();
  };

  function submitForm(form) {
    const mode = ui.modal?.mode;
    const card = mode === 'edit' ? cardById(ui.modal.id) : null;
    const v = {
      title: form.elements.title.value.trim().replace(/\s+/g, ' '),
      description: form.elements.description.value.trim(),
      column: form.elements.column ? form.elements.column.value : card?.column,
      assignee: form.elements.assignee.value || null,
      priority: form.elements.priority.value,
      due: form.elements.due.value || null,
    };
    const errs = {};
    hooks.validateTitle?.(v, errs, card);
    hooks.validateDue?.(v, errs, card);
    if (mode === 'new') {
      const block = hooks.wipBlock?.(colById(v.column));
      if (block) errs.column = block;
    }
    ['title', 'column', 'due'].forEach((k) => {
      const el = $(`#err-${k}`);
      if (el) el.textContent = errs[k] || '';
    });
    if (Object.keys(errs).length) return;
    if (mode === 'new') hooks.createCard?.(v);
    else if (card) hooks.saveEdit?.(card, v);
  }

  /* @feature new-card */
  $('#new-card')?.addEventListener('click', () => hooks.openForm('new', null));
  hooks.createCard = (v) => {
    state.seq += 1;
    const c = {
      id: `KB-${state.seq}`, title: v.title, description: v.description, column: v.column,
      assignee: v.assignee, priority: v.priority, due: v.due, created: today(),
      completed: v.column === 'done' ? today() : null,
    };
    state.cards.push(c);
    save();
    closeForm();
    say(`${c.id} created in ${colById(c.column).name}`);
    render();
  };
  /* @end new-card */
  /* @broken new-card */
  $('#new-card')?.addEventListener('click', () => hooks.openForm('new', null));
  hooks.createCard = (v) => {
    state.seq += 1;
    const c = {
      id: `KB-${state.seq}`, title: v.title, description: v.description, column: v.column,
      assignee: v.assignee, priority: v.priority, due: v.due, created: today(),
    };
    state.cards.unshift(c);
    save();
    closeForm();
    say(`${c.id} created in ${colById(c.column).name}`);
    render();
  };
  /* @end new-card */

  /* @feature title-validation */
  hooks.validateTitle = (v, errs, card) => {
    if (!v.title) { errs.title = 'Title is required.'; return; }
    if (v.title.length > TITLE_MAX) { errs.title = `Title must be ${TITLE_MAX} characters or fewer.`; return; }
    const other = state.cards.find((c) => c !== card && c.title.toLowerCase() === v.title.toLowerCase());
    if (other) errs.title = `A card called “${other.title}” already exists (${other.id}).`;
  };
  /* @end title-validation */
  /* @broken title-validation */
  hooks.validateTitle = (v, errs, card) => {
    if (!v.title) { errs.title = 'Title is required.'; return; }
    if (v.title.length > TITLE_MAX) { errs.title = `Title must be ${TITLE_MAX} characters or fewer.`; return; }
    const other = state.cards.find((c) => c !== card && c.title === v.title);
    if (other) errs.title = `A card called “${other.title}” already exists (${other.id}).`;
  };
  /* @end title-validation */

  /* @feature due-validation */
  hooks.validateDue = (v, errs, card) => {
    if (!v.due) return;
    if (!isValidDate(v.due)) { errs.due = 'Enter a valid date.'; return; }
    const unchanged = card && card.due === v.due;
    if (!unchanged && v.due < today()) errs.due = `Due date cannot be before today (${fmtLong(today())}).`;
  };
  /* @end due-validation */
  /* @broken due-validation */
  hooks.validateDue = (v, errs) => {
    if (!v.due) return;
    if (!isValidDate(v.due)) { errs.due = 'Enter a valid date.'; return; }
    if (v.due < today()) errs.due = `Due date cannot be before today (${fmtLong(today())}).`;
  };
  /* @end due-validation */

  /* @feature edit-card */
  hooks.editButton = () => `<button type="button" class="btn btn-secondary btn-sm" id="edit-card">
    <svg viewBox="0 0 16 16" aria-hidden="true"><path d="M3 11.5V13h1.5l7-7L10 4.5l-7 7z" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linejoin="round"/></svg>Edit card</button>`;
  hooks.saveEdit = (c, v) => {
    Object.assign(c, {
      title: v.title, description: v.description, assignee: v.assignee, priority: v.priority, due: v.due,
    });
    save();
    closeForm();
    say(`${c.id} updated`);
    render();
  };
  /* @end edit-card */
  /* @broken edit-card */
  hooks.editButton = () => `<button type="button" class="btn btn-secondary btn-sm" id="edit-card">Edit card</button>`;
  hooks.saveEdit = (c, v) => {
    Object.assign(c, { title: v.title, description: v.description, assignee: v.assignee, due: v.due });
    save();
    closeForm();
    say(`${c.id} updated`);
    render();
  };
  /* @end edit-card */

  /* @feature delete-card */
  hooks.deleteButton = () => `<button type="button" class="btn btn-danger-ghost btn-sm" id="delete-card">
    <svg viewBox="0 0 16 16" aria-hidden="true"><path d="M3.5 4.5h9M6.5 4.5V3h3v1.5M5 4.5l.5 8h5l.5-8" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linejoin="round"/></svg>Delete card</button>`;
  hooks.deleteCard = (c) => {
    if (!window.confirm(`Delete ${c.id} “${c.title}”? This cannot be undone.`)) return;
    state.cards = state.cards.filter((x) => x !== c);
    state.comments = state.comments.filter((m) => m.card !== c.id);
    save();
    say(`${c.id} deleted`);
    location.hash = '#/';
  };
  /* @end delete-card */

  // ------------------------------------------------------------ imported data problems
  /* @feature dedupe */
  hooks.dedupe = (raw, id, fresh) => {
    fresh.issues.push(`Duplicate card ID ${id}: the second record (“${String(raw.title || '').trim()}”) was ignored.`);
    return true;
  };
  /* @end dedupe */

  /* @feature column-fallback */
  hooks.fixColumn = (c, raw, fresh) => {
    fresh.issues.push(`${c.id} has an unknown column “${raw.column}”: placed in Backlog.`);
    c.column = fresh.columns[0].id;
    return true;
  };
  /* @end column-fallback */

  /* @feature field-fallbacks */
  hooks.fixAssignee = (c, raw, fresh) => {
    fresh.issues.push(`${c.id} is assigned to unknown member “${raw.assignee}”: shown as Unassigned.`);
    c.assignee = null;
  };
  hooks.fixPriority = (c, raw, fresh) => {
    fresh.issues.push(`${c.id} has an unknown priority “${raw.priority}”: treated as Medium.`);
    c.priority = 'medium';
  };
  /* @end field-fallbacks */

  /* @feature date-fallback */
  hooks.fixDate = (c, raw, fresh) => {
    fresh.issues.push(`${c.id} has an invalid due date “${raw.due}”: shown without a due date.`);
    c.due = null;
  };
  /* @end date-fallback */

  /* @feature data-issues */
  hooks.issuesPanel = () => {
    if (!state.issues.length) return '';
    return `
      <section class="issues" aria-labelledby="issues-h">
        <h2 id="issues-h"><svg viewBox="0 0 20 20" aria-hidden="true"><path d="M10 2.5l8 14H2z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/><path d="M10 8v4M10 14.2v.1" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/></svg>Data issues (${state.issues.length})</h2>
        <ul>${state.issues.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>
      </section>`;
  };
  /* @end data-issues */

  // ------------------------------------------------------------ persistence
  /* @feature persistence */
  hooks.loadSaved = () => {
    try {
      const s = JSON.parse(localStorage.getItem(KEY) || 'null');
      return s && Array.isArray(s.cards) && Array.isArray(s.comments) ? s : null;
    } catch (e) { return null; }
  };
  hooks.save = () => {
    try {
      localStorage.setItem(KEY, JSON.stringify({
        meta: state.meta, columns: state.columns, members: state.members, cards: state.cards,
        comments: state.comments, issues: state.issues, seq: state.seq, cseq: state.cseq,
      }));
    } catch (e) { /* storage full or disabled: keep working in memory */ }
  };
  /* @end persistence */
  /* @broken persistence */
  hooks.loadSaved = () => {
    try {
      const s = JSON.parse(localStorage.getItem(KEY) || 'null');
      return s && Array.isArray(s.cards) ? s : null;
    } catch (e) { return null; }
  };
  hooks.save = () => {
    try {
      localStorage.setItem(KEY, JSON.stringify({
        meta: state.meta, columns: state.columns, members: state.members, cards: state.cards,
        issues: state.issues, seq: state.seq, cseq: state.cseq,
      }));
    } catch (e) { /* storage full or disabled */ }
  };
  /* @end persistence */

  /* @feature reset-board */
  $('#reset-board')?.addEventListener('click', () => {
    if (window.confirm('Discard all changes and reload the board from the data files?')) resetBoard();
  });
  /* @end reset-board */

  // ------------------------------------------------------------ router
  function render() {
    if (!state.meta.today) return;
    renderBoard();
    renderPanel();
  }

  window.addEventListener('hashchange', () => {
    render();
    if (/^#\/card\//.test(location.hash)) $('#panel-close')?.focus();
  });

  load().catch((err) => {
    boardEl.innerHTML = `<div class="empty big"><h2>Could not load the board</h2><p class="muted">${esc(err.message)}</p></div>`;
  });
})();
