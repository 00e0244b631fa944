/* Inkwell — a small Markdown notes app. Plain JS, no dependencies. */
(function () {
  'use strict';

  const STORE_KEY = 'inkwell-notes:v1';
  const TAG_RE = /^[A-Za-z0-9-]+$/;
  const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

  const state = {
    now: '2025-03-14T09:30:00Z',
    tick: 0,
    notes: [],
    selectedId: null,
    query: '',
    tagFilters: [],
    issues: [],
    storageNotice: '',
    lastDeleted: null,
    toastTimer: null,
  };
  const hooks = {};
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------ helpers

  function escapeHtml(value) {
    const s = String(value);
    /* @feature escape-html */
    return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    /* @end escape-html */
    /* @broken escape-html */
    return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;');
    /* @end escape-html */
    return s; // eslint-disable-line no-unreachable
  }

  function isValidDate(s) {
    return typeof s === 'string' && ISO_RE.test(s) && !isNaN(Date.parse(s));
  }

  function timeOf(n) {
    return isValidDate(n.updated) ? Date.parse(n.updated) : -Infinity;
  }

  function pad(n) { return String(n).padStart(2, '0'); }

  function fmtDate(s, withTime) {
    if (!isValidDate(s)) {
      let label = String(s);
      /* @feature bad-dates */
      label = 'Unknown date';
      /* @end bad-dates */
      return label;
    }
    const d = new Date(s);
    const day = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
    return withTime ? `${day}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` : day;
  }

  function stamp() {
    state.tick += 1;
    return new Date(Date.parse(state.now) + state.tick * 1000).toISOString();
  }

  function newId() {
    let id;
    do { id = 'n-' + Math.random().toString(36).slice(2, 8); } while (state.notes.some((n) => n.id === id));
    return id;
  }

  function parseTags(text) {
    const out = [];
    String(text).split(',').map((t) => t.trim().toLowerCase()).filter(Boolean).forEach((t) => {
      if (!out.includes(t)) out.push(t);
    });
    return out;
  }

  function titleProblem(title) {
    return title.length > 120 ? `Title must be at most 120 characters (now ${title.length}).` : '';
  }

  function tagsProblem(tags) {
    const bad = tags.find((t) => !TAG_RE.test(t));
    if (bad !== undefined) return `Tag "${bad}" may only contain letters, digits and dashes.`;
    if (tags.length > 10) return `A note can have at most 10 tags (now ${tags.length}).`;
    return '';
  }

  function stripMd(line) {
    return line
      .replace(/^\s{0,3}#{1,6}\s+/, '')
      .replace(/^\s*>\s?/, '')
      .replace(/^\s*([-*+]|\d+[.)])\s+/, '')
      .replace(/^\[( |x|X)\]\s+/, '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\*\*([^*]+)\*\*/g, '$1')
      .replace(/\*([^*]+)\*/g, '$1')
      .replace(/`([^`]+)`/g, '$1')
      .trim();
  }

  function clip(s, max) {
    return s.length > max ? s.slice(0, max - 1).trimEnd() + '…' : s;
  }

  function displayTitle(n) {
    let t = n.title;
    /* @feature untitled-fallback */
    if (!t.trim()) t = 'Untitled';
    /* @end untitled-fallback */
    /* @broken untitled-fallback */
    if (t === undefined || t === null) t = 'Untitled';
    /* @end untitled-fallback */
    return t;
  }

  function current() {
    return state.notes.find((n) => n.id === state.selectedId) || null;
  }

  // ------------------------------------------------------------ markdown

  function safeUrl(url) {
    const raw = url.replace(/&amp;/g, '&');
    /* @feature safe-links */
    if (!/^(https?:\/\/|mailto:)/i.test(raw)) return null;
    /* @end safe-links */
    return url;
  }

  function inline(text) {
    let s = escapeHtml(text);
    const codes = [];
    /* @feature md-inline */
    s = s.replace(/`([^`]+)`/g, (_, c) => { codes.push(c); return `\u0000${codes.length - 1}\u0000`; });
    /* @end md-inline */
    /* @broken md-inline */
    s = s.replace(/`([^`]+)`/g, (_, c) => { codes.push(c); return `\u0000${codes.length - 1}\u0000`; });
    /* @end md-inline */
    /* @feature md-links */
    s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (m, label, url) => {
      const href = safeUrl(url);
      return href ? `<a href="${href}" target="_blank" rel="noopener noreferrer">${label}</a>` : m;
    });
    /* @end md-links */
    /* @broken md-links */
    s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (m, label, url) => {
      const href = safeUrl(url);
      return href ? `<a href="${href}" target="_blank">${label}</a>` : m;
    });
    /* @end md-links */
    /* @feature md-inline */
    s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
    s = s.replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
    s = s.replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${codes[+i]}</code>`);
    /* @end md-inline */
    /* @broken md-inline */
    s = s.replace(/\*(.+?)\*/g, '<em>$1</em>');
    s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
    s = s.replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${codes[+i]}</code>`);
    /* @end md-inline */
    return s;
  }

  let blockStart = () => false;
  /* @feature md-blocks */
  blockStart = (l) => /^(```|\s{0,3}#{1,6}\s|\s*>|\s*([-*+]|\d+[.)])\s)/.test(l);
  /* @end md-blocks */
  /* @broken md-blocks */
  blockStart = (l) => /^(```|\s{0,3}#{1,6}\s|\s*>|\s*([-*+]|\d+[.)])\s)/.test(l);
  /* @end md-blocks */

  function listItem(text, ctx) {
    /* @feature task-list */
    const tm = text.match(/^\[( |x|X)\]\s+(.*)$/);
    if (tm) {
      const idx = ctx.task++;
      return `<li class="task"><label><input type="checkbox" data-task="${idx}"${tm[1] === ' ' ? '' : ' checked'}> <span>${inline(tm[2])}</span></label></li>`;
    }
    /* @end task-list */
    /* @broken task-list */
    const tm = text.match(/^\[( |x|X)\]\s+(.*)$/);
    if (tm) {
      const idx = ctx.task++;
      return `<li class="task"><label><input type="checkbox" data-task="${idx}"${tm[1] === ' ' ? '' : ' checked'}> <span>${inline(tm[2])}</span></label></li>`;
    }
    /* @end task-list */
    return `<li>${inline(text)}</li>`;
  }

  function renderMarkdown(src) {
    const lines = src.replace(/\r\n?/g, '\n').split('\n');
    const ctx = { task: 0 };
    let html = '';
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      if (!line.trim()) { i++; continue; }
      let m;
      /* @feature md-blocks */
      if (/^```/.test(line)) {
        const code = [];
        i++;
        while (i < lines.length && !/^```/.test(lines[i])) code.push(lines[i++]);
        i++;
        html += `<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`;
        continue;
      }
      if ((m = line.match(/^\s{0,3}(#{1,6})\s+(.*)$/))) {
        const lvl = m[1].length;
        html += `<h${lvl}>${inline(m[2])}</h${lvl}>`;
        i++;
        continue;
      }
      if (/^\s*>/.test(line)) {
        const q = [];
        while (i < lines.length && /^\s*>/.test(lines[i])) q.push(lines[i++].replace(/^\s*>\s?/, ''));
        html += `<blockquote>${q.map(inline).join('<br>')}</blockquote>`;
        continue;
      }
      if ((m = line.match(/^\s*([-*+]|\d+[.)])\s+/))) {
        const ordered = /\d/.test(m[1]);
        const start = ordered ? parseInt(m[1], 10) : 1;
        const items = [];
        while (i < lines.length) {
          const lm = lines[i].match(/^\s*([-*+]|\d+[.)])\s+(.*)$/);
          if (!lm || /\d/.test(lm[1]) !== ordered) break;
          items.push(lm[2]);
          i++;
        }
        const tag = ordered ? 'ol' : 'ul';
        const startAttr = ordered && start !== 1 ? ` start="${start}"` : '';
        html += `<${tag}${startAttr}>${items.map((t) => listItem(t, ctx)).join('')}</${tag}>`;
        continue;
      }
      /* @end md-blocks */
      /* @broken md-blocks */
      if (/^```/.test(line)) {
        const code = [];
        i++;
        while (i < lines.length && !/^```/.test(lines[i])) code.push(lines[i++]);
        i++;
        html += `<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`;
        continue;
      }
      if ((m = line.match(/^\s{0,3}(#{1,6})\s+(.*)$/))) {
        const lvl = Math.min(m[1].length + 1, 6);
        html += `<h${lvl}>${inline(m[2])}</h${lvl}>`;
        i++;
        continue;
      }
      if (/^\s*>/.test(line)) {
        const q = [];
        while (i < lines.length && /^\s*>/.test(lines[i])) q.push(lines[i++].replace(/^\s*>\s?/, ''));
        html += `<blockquote>${q.map(inline).join('<br>')}</blockquote>`;
        continue;
      }
      if ((m = line.match(/^\s*([-*+]|\d+[.)])\s+/))) {
        const ordered = /\d/.test(m[1]);
        const items = [];
        while (i < lines.length) {
          const lm = lines[i].match(/^\s*([-*+]|\d+[.)])\s+(.*)$/);
          if (!lm || /\d/.test(lm[1]) !== ordered) break;
          items.push(lm[2]);
          i++;
        }
        const tag = ordered ? 'ol' : 'ul';
        html += `<${tag}>${items.map((t) => listItem(t, ctx)).join('')}</${tag}>`;
        continue;
      }
      /* @end md-blocks */
      const para = [line];
      i++;
      while (i < lines.length && lines[i].trim() && !blockStart(lines[i])) para.push(lines[i++]);
      html += `<p>${para.map(inline).join('<br>')}</p>`;
    }
    return html;
  }

  // source line index of the n-th task item (outside code fences)
  function taskLineIndex(lines, n) {
    let fence = false;
    let count = 0;
    for (let i = 0; i < lines.length; i++) {
      if (/^```/.test(lines[i])) { fence = !fence; continue; }
      if (!fence && /^\s*([-*+]|\d+[.)])\s+\[( |x|X)\]\s/.test(lines[i])) {
        if (count === n) return i;
        count++;
      }
    }
    return -1;
  }

  // ------------------------------------------------------------ list

  function matchesQuery(n, q) {
    const hay = [n.title, n.body, n.tags.join(' ')].join('\n').toLowerCase();
    return hay.includes(q);
  }

  function compareNotes(a, b) {
    if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
    const ta = timeOf(a), tb = timeOf(b);
    if (ta !== tb) return tb > ta ? 1 : -1;
    return 0;
  }

  function visibleNotes() {
    let list = state.notes.slice();
    const q = state.query.trim().toLowerCase();
    /* @feature search */
    if (q) list = list.filter((n) => matchesQuery(n, q));
    /* @end search */
    /* @broken search */
    if (q) list = list.filter((n) => n.title.toLowerCase().includes(q));
    /* @end search */
    /* @feature tag-filter */
    if (state.tagFilters.length) list = list.filter((n) => state.tagFilters.every((t) => n.tags.includes(t)));
    /* @end tag-filter */
    /* @broken tag-filter */
    if (state.tagFilters.length) list = list.filter((n) => state.tagFilters.some((t) => n.tags.includes(t)));
    /* @end tag-filter */
    /* @feature list-sort */
    list.sort(compareNotes);
    /* @end list-sort */
    /* @broken list-sort */
    list.sort((a, b) => (a.pinned !== b.pinned ? (a.pinned ? -1 : 1) : Date.parse(b.created) - Date.parse(a.created)));
    /* @end list-sort */
    return list;
  }

  function highlight(text) {
    const e = escapeHtml(text);
    const q = state.query.trim();
    /* @feature search-highlight */
    if (q) {
      const eq = escapeHtml(q).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return e.replace(new RegExp(eq, 'gi'), (m) => `<mark>${m}</mark>`);
    }
    /* @end search-highlight */
    return e;
  }

  function excerptOf(n) {
    /* @feature excerpt */
    const line = n.body.split('\n').map(stripMd).find((l) => l && !/^```/.test(l));
    return line ? clip(line, 100) : '';
    /* @end excerpt */
    /* @broken excerpt */
    const raw = n.body.split('\n').map((l) => l.trim()).find(Boolean);
    return raw ? clip(raw, 100) : '';
    /* @end excerpt */
    return ''; // eslint-disable-line no-unreachable
  }

  function renderList() {
    const ul = $('note-list');
    const list = visibleNotes();
    const q = state.query.trim().toLowerCase();
    ul.innerHTML = list.map((n) => {
      let exc = excerptOf(n);
      /* @feature search-highlight */
      if (q) {
        const hit = n.body.split('\n').map(stripMd).find((l) => l.toLowerCase().includes(q));
        if (hit) exc = clip(hit, 100);
      }
      /* @end search-highlight */
      const sel = n.id === state.selectedId;
      const title = displayTitle(n);
      return `<li class="note-item${sel ? ' selected' : ''}${title !== n.title ? ' untitled' : ''}">
        <button type="button" class="note-btn" data-id="${escapeHtml(n.id)}" aria-current="${sel}">
          <span class="note-top"><span class="note-title">${highlight(title)}</span>${n.pinned ? '<svg class="pin-mark" role="img" aria-label="Pinned" viewBox="0 0 16 16" width="13" height="13"><title>Pinned</title><path fill="currentColor" d="M9.6 1.2l5.2 5.2-1.3 1.3-.8-.6-2.6 2.6.3 3.1-1.3 1.3-2.6-2.6-3.6 3.6-1.3-1.3 3.6-3.6-2.6-2.6 1.3-1.3 3.1.3 2.6-2.6-.6-.8z"/></svg>' : ''}</span>
          ${exc ? `<span class="note-excerpt">${highlight(exc)}</span>` : ''}
          <span class="note-meta"><time>${escapeHtml(fmtDate(n.updated, false))}</time>${n.tags.length ? `<span class="note-tags">${n.tags.map((t) => `<span class="mini-tag">${escapeHtml(t)}</span>`).join('')}</span>` : ''}</span>
        </button>
      </li>`;
    }).join('');
    let countText = '';
    if (q) countText = `${list.length} ${list.length === 1 ? 'result' : 'results'} for “${state.query.trim()}”`;
    else if (state.tagFilters.length) countText = `${list.length} ${list.length === 1 ? 'note' : 'notes'} with the selected tags`;
    else countText = `${list.length} ${list.length === 1 ? 'note' : 'notes'}`;
    $('list-count').textContent = countText;
    const empty = $('list-empty');
    empty.hidden = true;
    empty.textContent = '';
    /* @feature empty-states */
    if (!list.length) {
      empty.hidden = false;
      empty.textContent = q ? `No notes match “${state.query.trim()}”.`
        : state.tagFilters.length ? 'No notes have all the selected tags.' : 'No notes yet. Create your first note.';
    }
    /* @end empty-states */
    if (hooks.renderChips) hooks.renderChips();
    if (hooks.renderTagCloud) hooks.renderTagCloud();
    if (hooks.refreshExport) hooks.refreshExport();
  }

  function renderNotices() {
    const box = $('notices');
    const items = [];
    if (state.storageNotice) items.push(`<div class="notice notice-warn" role="alert"><strong>Storage problem.</strong> ${escapeHtml(state.storageNotice)}</div>`);
    if (state.issues.length) {
      items.push(`<div class="notice" role="note"><div class="notice-head"><strong>${state.issues.length} ${state.issues.length === 1 ? 'problem' : 'problems'} in the sample data</strong><button type="button" class="link-btn" data-dismiss>Dismiss</button></div><ul>${state.issues.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul></div>`);
    }
    box.innerHTML = items.join('');
  }

  // ------------------------------------------------------------ editor

  function setStatus(kind, text) {
    const el = $('save-status');
    el.className = 'save-status ' + kind;
    el.textContent = text;
  }

  function setFieldError(field, msg) {
    const el = $(field + '-error');
    el.textContent = msg;
    el.hidden = !msg;
    $(field).classList.toggle('invalid', !!msg);
    $(field).setAttribute('aria-invalid', msg ? 'true' : 'false');
  }

  function renderPreview() {
    const body = $('body').value;
    const pv = $('preview');
    pv.innerHTML = renderMarkdown(body);
    /* @feature empty-states */
    if (!body.trim()) pv.innerHTML = '<p class="empty-inline">Nothing to preview yet — start typing Markdown on the left.</p>';
    /* @end empty-states */
    if (hooks.renderCounts) hooks.renderCounts(body);
  }

  function openNote(id) {
    state.selectedId = id;
    renderEditor();
    renderList();
  }

  function renderEditor() {
    const n = current();
    $('editor').hidden = !n;
    $('editor-empty').hidden = !!n;
    $('editor-empty').textContent = '';
    if (!n) {
      /* @feature empty-states */
      $('editor-empty').innerHTML = '<div class="empty-art" aria-hidden="true">✎</div><p>Select a note or create a new one.</p>';
      /* @end empty-states */
      return;
    }
    $('title').value = n.title;
    $('tags').value = n.tags.join(', ');
    $('body').value = n.body;
    setFieldError('title', '');
    setFieldError('tags', '');
    setStatus('idle', `Last edited ${fmtDate(n.updated, true)}`);
    $('meta').textContent = `Created ${fmtDate(n.created, false)}`;
    if (hooks.renderPin) hooks.renderPin(n);
    renderPreview();
  }

  function onEditorInput() {
    const n = current();
    if (!n) return;
    renderPreview();
    const title = $('title').value;
    const tags = parseTags($('tags').value);
    const body = $('body').value;
    let errors = { title: '', tags: '' };
    /* @feature validation */
    errors = { title: titleProblem(title), tags: tagsProblem(tags) };
    setFieldError('title', errors.title);
    setFieldError('tags', errors.tags);
    /* @end validation */
    /* @broken validation */
    errors = { title: title.length >= 120 ? `Title must be at most 120 characters (now ${title.length}).` : '', tags: tagsProblem(tags) };
    setFieldError('title', errors.title);
    setFieldError('tags', errors.tags);
    /* @end validation */
    /* @feature autosave */
    if (errors.title || errors.tags) {
      setStatus('error', 'Not saved — fix the highlighted fields');
      return;
    }
    n.title = title;
    n.tags = tags;
    n.body = body;
    n.updated = stamp();
    persist('edit');
    setStatus('saved', `Saved · ${fmtDate(n.updated, true)}`);
    renderList();
    /* @end autosave */
    /* @broken autosave */
    if (errors.title || errors.tags) {
      setStatus('error', 'Not saved — fix the highlighted fields');
      return;
    }
    n.title = title;
    n.tags = tags;
    n.body = body;
    persist('edit');
    setStatus('saved', `Saved · ${fmtDate(n.updated, true)}`);
    renderList();
    /* @end autosave */
  }

  // ------------------------------------------------------------ features

  /* @feature counters */
  hooks.renderCounts = (body) => {
    const words = body.trim() ? body.trim().split(/\s+/).length : 0;
    const chars = body.length;
    $('counts').textContent = `${words} ${words === 1 ? 'word' : 'words'} · ${chars} ${chars === 1 ? 'character' : 'characters'}`;
  };
  /* @end counters */
  /* @broken counters */
  hooks.renderCounts = (body) => {
    const words = body.split(' ').length;
    const chars = body.length;
    $('counts').textContent = `${words} ${words === 1 ? 'word' : 'words'} · ${chars} ${chars === 1 ? 'character' : 'characters'}`;
  };
  /* @end counters */

  /* @feature task-list */
  $('preview').addEventListener('change', (e) => {
    const box = e.target.closest('input[type=checkbox][data-task]');
    if (!box) return;
    const lines = $('body').value.split('\n');
    const at = taskLineIndex(lines, +box.dataset.task);
    if (at < 0) return;
    lines[at] = lines[at].replace(/\[( |x|X)\]/, box.checked ? '[x]' : '[ ]');
    $('body').value = lines.join('\n');
    onEditorInput();
  });
  /* @end task-list */
  /* @broken task-list */
  $('preview').addEventListener('change', (e) => {
    const box = e.target.closest('input[type=checkbox][data-task]');
    if (!box) return;
    const lines = $('body').value.split('\n');
    const at = taskLineIndex(lines, +box.dataset.task + 1);
    if (at < 0) return;
    lines[at] = lines[at].replace(/\[( |x|X)\]/, box.checked ? '[x]' : '[ ]');
    $('body').value = lines.join('\n');
    onEditorInput();
  });
  /* @end task-list */

  /* @feature search */
  $('search').addEventListener('input', (e) => { state.query = e.target.value; renderList(); });
  /* @end search */
  /* @broken search */
  $('search').addEventListener('input', (e) => { state.query = e.target.value; renderList(); });
  /* @end search */

  /* @feature tag-cloud */
  hooks.renderTagCloud = () => {
    const counts = new Map();
    state.notes.forEach((n) => n.tags.forEach((t) => counts.set(t, (counts.get(t) || 0) + 1)));
    const tags = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const max = tags.length ? tags[0][1] : 1;
    $('tag-cloud').innerHTML = tags.length ? tags.map(([t, c]) => {
      const on = state.tagFilters.includes(t);
      const size = 0.8 + 0.35 * (c / max);
      return `<button type="button" class="cloud-tag${on ? ' on' : ''}" data-tag="${escapeHtml(t)}" aria-pressed="${on}" style="font-size:${size.toFixed(2)}rem">${escapeHtml(t)} <span class="count">${c}</span></button>`;
    }).join('') : '<p class="muted">No tags yet.</p>';
  };
  /* @end tag-cloud */

  /* @feature tag-filter */
  function toggleTagFilter(tag) {
    state.tagFilters = state.tagFilters.includes(tag)
      ? state.tagFilters.filter((t) => t !== tag) : state.tagFilters.concat(tag);
    renderList();
  }
  hooks.renderChips = () => {
    const box = $('chips');
    box.innerHTML = state.tagFilters.length
      ? '<span class="chips-label">Filtered by</span>' + state.tagFilters.map((t) => `<span class="chip">${escapeHtml(t)}<button type="button" data-untag="${escapeHtml(t)}" aria-label="Remove ${escapeHtml(t)} filter">×</button></span>`).join('') + '<button type="button" class="link-btn" data-clear-tags>Clear filters</button>'
      : '';
  };
  document.addEventListener('click', (e) => {
    const cloud = e.target.closest('[data-tag]');
    if (cloud) { toggleTagFilter(cloud.dataset.tag); return; }
    const un = e.target.closest('[data-untag]');
    if (un) { toggleTagFilter(un.dataset.untag); return; }
    if (e.target.closest('[data-clear-tags]')) { state.tagFilters = []; renderList(); }
  });
  /* @end tag-filter */
  /* @broken tag-filter */
  function toggleTagFilter(tag) {
    state.tagFilters = state.tagFilters.includes(tag)
      ? state.tagFilters.filter((t) => t !== tag) : state.tagFilters.concat(tag);
    renderList();
  }
  hooks.renderChips = () => {
    const box = $('chips');
    box.innerHTML = state.tagFilters.length
      ? '<span class="chips-label">Filtered by</span>' + state.tagFilters.map((t) => `<span class="chip">${escapeHtml(t)}<button type="button" data-untag="${escapeHtml(t)}" aria-label="Remove ${escapeHtml(t)} filter">×</button></span>`).join('') + '<button type="button" class="link-btn" data-clear-tags>Clear filters</button>'
      : '';
  };
  document.addEventListener('click', (e) => {
    const cloud = e.target.closest('[data-tag]');
    if (cloud) { toggleTagFilter(cloud.dataset.tag); return; }
    const un = e.target.closest('[data-untag]');
    if (un) { toggleTagFilter(un.dataset.untag); return; }
    if (e.target.closest('[data-clear-tags]')) { state.tagFilters = []; renderList(); }
  });
  /* @end tag-filter */

  /* @feature new-note */
  $('new-note').addEventListener('click', () => {
    const t = stamp();
    const n = { id: newId(), title: '', body: '', tags: [], pinned: false, created: t, updated: t };
    state.notes.unshift(n);
    persist('create');
    openNote(n.id);
    $('title').focus();
  });
  /* @end new-note */

  /* @feature duplicate */
  $('dup-btn').addEventListener('click', () => {
    const src = current();
    if (!src) return;
    const t = stamp();
    const copy = { id: newId(), title: `${displayTitle(src)} (copy)`.slice(0, 120), body: src.body, tags: src.tags.slice(), pinned: false, created: t, updated: t };
    state.notes.unshift(copy);
    persist('create');
    openNote(copy.id);
  });
  /* @end duplicate */
  /* @broken duplicate */
  $('dup-btn').addEventListener('click', () => {
    const src = current();
    if (!src) return;
    const t = stamp();
    const copy = { id: newId(), title: `${displayTitle(src)} (copy)`.slice(0, 120), body: '', tags: src.tags.slice(), pinned: false, created: t, updated: t };
    state.notes.unshift(copy);
    persist('create');
    openNote(copy.id);
  });
  /* @end duplicate */

  /* @feature pin */
  hooks.renderPin = (n) => {
    const b = $('pin-btn');
    b.textContent = n.pinned ? 'Unpin' : 'Pin';
    b.setAttribute('aria-pressed', String(n.pinned));
  };
  $('pin-btn').addEventListener('click', () => {
    const n = current();
    if (!n) return;
    n.pinned = !n.pinned;
    persist('pin');
    hooks.renderPin(n);
    renderList();
  });
  /* @end pin */
  /* @broken pin */
  hooks.renderPin = (n) => {
    const b = $('pin-btn');
    b.textContent = n.pinned ? 'Unpin' : 'Pin';
    b.setAttribute('aria-pressed', String(n.pinned));
  };
  $('pin-btn').addEventListener('click', () => {
    const n = current();
    if (!n) return;
    n.pinned = !n.pinned;
    persist('pin');
    hooks.renderPin(n);
  });
  /* @end pin */

  function showToast(html, ms) {
    const t = $('toast');
    t.innerHTML = html;
    t.hidden = false;
    clearTimeout(state.toastTimer);
    state.toastTimer = setTimeout(hideToast, ms);
  }
  function hideToast() {
    clearTimeout(state.toastTimer);
    $('toast').hidden = true;
    $('toast').innerHTML = '';
    state.lastDeleted = null;
  }

  /* @feature delete-undo */
  $('delete-btn').addEventListener('click', () => {
    const n = current();
    if (!n) return;
    const index = state.notes.indexOf(n);
    state.notes.splice(index, 1);
    state.selectedId = null;
    persist('delete');
    renderEditor();
    renderList();
    showToast(`<span>Note deleted: “${escapeHtml(displayTitle(n))}”</span><button type="button" class="toast-btn" id="undo-btn">Undo</button>`, 5000);
    state.lastDeleted = { note: n, index };
  });
  document.addEventListener('click', (e) => {
    if (!e.target.closest('#undo-btn') || !state.lastDeleted) return;
    const { note, index } = state.lastDeleted;
    state.notes.splice(Math.min(index, state.notes.length), 0, note);
    hideToast();
    persist('undo');
    openNote(note.id);
  });
  /* @end delete-undo */
  /* @broken delete-undo */
  $('delete-btn').addEventListener('click', () => {
    const n = current();
    if (!n) return;
    const index = state.notes.indexOf(n);
    state.notes.splice(index, 1);
    state.selectedId = null;
    persist('delete');
    renderEditor();
    renderList();
    showToast(`<span>Note deleted: “${escapeHtml(displayTitle(n))}”</span><button type="button" class="toast-btn" id="undo-btn">Undo</button>`, 5000);
    state.lastDeleted = { note: n, index };
  });
  document.addEventListener('click', (e) => {
    if (!e.target.closest('#undo-btn') || !state.lastDeleted) return;
    const { note, index } = state.lastDeleted;
    state.notes.splice(Math.min(index, state.notes.length), 0, note);
    hideToast();
    persist('undo');
  });
  /* @end delete-undo */

  function exportText() {
    return JSON.stringify({ app: 'inkwell', version: 1, exportedAt: state.now, notes: visibleOrder() }, null, 2);
  }
  function visibleOrder() {
    return state.notes.slice().sort(compareNotes).map((n) => ({
      id: n.id, title: n.title, body: n.body, tags: n.tags.slice(), pinned: n.pinned, created: n.created, updated: n.updated,
    }));
  }

  /* @feature export */
  let exportUrl = null;
  hooks.refreshExport = () => {
    if (exportUrl) URL.revokeObjectURL(exportUrl);
    exportUrl = URL.createObjectURL(new Blob([exportText()], { type: 'application/json' }));
    $('export-link').href = exportUrl;
  };
  /* @end export */
  /* @broken export */
  let exportUrl = null;
  hooks.refreshExport = () => {
    if (exportUrl) return;
    exportUrl = URL.createObjectURL(new Blob([exportText()], { type: 'application/json' }));
    $('export-link').href = exportUrl;
  };
  /* @end export */

  // ------------------------------------------------------------ import

  function normalizeRecord(r) {
    return {
      id: typeof r.id === 'string' && r.id.trim() && !state.notes.some((n) => n.id === r.id) ? r.id : newId(),
      title: r.title == null ? '' : String(r.title),
      body: r.body == null ? '' : String(r.body),
      tags: Array.isArray(r.tags) ? parseTags(r.tags.join(',')) : [],
      pinned: r.pinned === true,
      created: isValidDate(r.created) ? r.created : stamp(),
      updated: isValidDate(r.updated) ? r.updated : stamp(),
    };
  }

  let recordProblem = () => '';
  /* @feature import-validation */
  recordProblem = (r, seen) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) return 'not a note object.';
    if (r.id != null && (typeof r.id !== 'string' || !r.id.trim())) return 'id must be a non-empty text.';
    if (typeof r.id === 'string' && seen.has(r.id)) return `id "${r.id}" already exists.`;
    if (r.title != null && typeof r.title !== 'string') return 'title must be text.';
    if (typeof r.title === 'string' && r.title.length > 120) return `title must be at most 120 characters (it has ${r.title.length}).`;
    if (r.body != null && typeof r.body !== 'string') return 'body must be text.';
    if (r.tags != null && (!Array.isArray(r.tags) || r.tags.some((t) => typeof t !== 'string'))) return 'tags must be a list of text values.';
    const tp = tagsProblem(parseTags((r.tags || []).join(',')));
    if (tp) return tp.charAt(0).toLowerCase() + tp.slice(1);
    if (r.pinned != null && typeof r.pinned !== 'boolean') return 'pinned must be true or false.';
    for (const k of ['created', 'updated']) {
      if (r[k] != null && !isValidDate(r[k])) return `${k} is not a valid date ("${String(r[k])}").`;
    }
    return '';
  };
  hooks.listErrors = (errors) => {
    $('import-errors').innerHTML = errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('');
  };
  /* @end import-validation */
  /* @broken import-validation */
  recordProblem = (r, seen) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) return 'not a note object.';
    if (r.id != null && (typeof r.id !== 'string' || !r.id.trim())) return 'id must be a non-empty text.';
    if (typeof r.id === 'string' && seen.has(r.id)) return `id "${r.id}" already exists.`;
    if (r.title != null && typeof r.title !== 'string') return 'title must be text.';
    if (typeof r.title === 'string' && r.title.length > 120) return `title must be at most 120 characters (it has ${r.title.length}).`;
    if (r.body != null && typeof r.body !== 'string') return 'body must be text.';
    if (r.tags != null && (!Array.isArray(r.tags) || r.tags.some((t) => typeof t !== 'string'))) return 'tags must be a list of text values.';
    const tp = tagsProblem(parseTags((r.tags || []).join(',')));
    if (tp) return tp.charAt(0).toLowerCase() + tp.slice(1);
    if (r.pinned != null && typeof r.pinned !== 'boolean') return 'pinned must be true or false.';
    for (const k of ['created', 'updated']) {
      if (r[k] != null && !isValidDate(r[k])) return `${k} is not a valid date ("${String(r[k])}").`;
    }
    return '';
  };
  /* @end import-validation */

  function showImportReport(summary, errors, failed) {
    $('import-report').hidden = false;
    $('import-report').classList.toggle('failed', !!failed);
    $('import-summary').textContent = summary;
    $('import-errors').innerHTML = '';
    if (hooks.listErrors) hooks.listErrors(errors);
  }

  function importRecords(records) {
    const seen = new Set(state.notes.map((n) => n.id));
    const added = [];
    const errors = [];
    records.forEach((r, i) => {
      const problem = recordProblem(r, seen);
      if (problem) { errors.push(`Record ${i + 1}: ${problem}`); return; }
      const n = normalizeRecord(r && typeof r === 'object' ? r : {});
      seen.add(n.id);
      state.notes.push(n);
      added.push(n);
    });
    persist('import');
    renderList();
    const s = `Imported ${added.length} ${added.length === 1 ? 'note' : 'notes'}.` +
      (errors.length ? ` ${errors.length} ${errors.length === 1 ? 'record was' : 'records were'} rejected:` : '');
    showImportReport(s, errors, false);
  }

  /* @feature import */
  $('import-file').addEventListener('change', (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    file.text().then((text) => {
      let data;
      try { data = JSON.parse(text); } catch (err) {
        showImportReport('Import failed: the file is not valid JSON. Nothing was imported.', [], true);
        return;
      }
      const records = Array.isArray(data) ? data : data && Array.isArray(data.notes) ? data.notes : null;
      if (!records) {
        showImportReport('Import failed: no list of notes found in the file. Nothing was imported.', [], true);
        return;
      }
      importRecords(records);
    }).finally(() => { e.target.value = ''; });
  });
  /* @end import */
  /* @broken import */
  $('import-file').addEventListener('change', (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    file.text().then((text) => {
      let data;
      try { data = JSON.parse(text); } catch (err) {
        showImportReport('Import failed: the file is not valid JSON. Nothing was imported.', [], true);
        return;
      }
      if (!Array.isArray(data)) {
        showImportReport('Import failed: no list of notes found in the file. Nothing was imported.', [], true);
        return;
      }
      importRecords(data);
    }).finally(() => { e.target.value = ''; });
  });
  /* @end import */
  $('import-close').addEventListener('click', () => { $('import-report').hidden = true; });

  // ------------------------------------------------------------ storage

  function persist(reason) {
    if (hooks.save) hooks.save(reason);
  }

  /* @feature persistence */
  hooks.save = () => {
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify({ version: 1, tick: state.tick, notes: state.notes }));
    } catch (e) { /* storage full or blocked: keep working in memory */ }
  };
  hooks.load = () => {
    let raw = null;
    try { raw = localStorage.getItem(STORE_KEY); } catch (e) { return null; }
    if (raw == null) return null;
    try {
      const d = JSON.parse(raw);
      if (!d || !Array.isArray(d.notes)) throw new Error('bad shape');
      return d;
    } catch (e) {
      state.storageNotice = 'Your saved notes could not be read, so the sample notes were loaded instead.';
      return null;
    }
  };
  /* @end persistence */
  /* @broken persistence */
  hooks.save = (reason) => {
    if (reason === 'edit') return;
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify({ version: 1, tick: state.tick, notes: state.notes }));
    } catch (e) { /* ignore */ }
  };
  hooks.load = () => {
    let raw = null;
    try { raw = localStorage.getItem(STORE_KEY); } catch (e) { return null; }
    if (raw == null) return null;
    try {
      const d = JSON.parse(raw);
      if (!d || !Array.isArray(d.notes)) throw new Error('bad shape');
      return d;
    } catch (e) {
      state.storageNotice = 'Your saved notes could not be read, so the sample notes were loaded instead.';
      return null;
    }
  };
  /* @end persistence */

  // ------------------------------------------------------------ loading

  function cleanNote(r) {
    return {
      id: String(r.id),
      title: typeof r.title === 'string' ? r.title : '',
      body: typeof r.body === 'string' ? r.body : '',
      tags: Array.isArray(r.tags) ? parseTags(r.tags.filter((t) => typeof t === 'string').join(',')) : [],
      pinned: r.pinned === true,
      created: r.created,
      updated: r.updated,
    };
  }

  function loadSeed(records) {
    const notes = [];
    const seen = new Set();
    records.forEach((r) => {
      if (!r || typeof r !== 'object') return;
      /* @feature dedupe */
      if (seen.has(String(r.id))) {
        state.issues.push(`Skipped a note with duplicate id "${r.id}" (“${r.title || 'Untitled'}”).`);
        return;
      }
      /* @end dedupe */
      /* @broken dedupe */
      if (seen.has(String(r.id))) {
        const at = notes.findIndex((n) => n.id === String(r.id));
        state.issues.push(`Skipped a note with duplicate id "${r.id}" (“${notes[at].title || 'Untitled'}”).`);
        notes.splice(at, 1);
      }
      /* @end dedupe */
      seen.add(String(r.id));
      notes.push(cleanNote(r));
    });
    /* @feature bad-dates */
    notes.forEach((n) => {
      if (!isValidDate(n.updated)) {
        state.issues.push(`“${n.title || 'Untitled'}” has an unreadable update time ("${String(n.updated)}"); it is shown as Unknown date and listed last.`);
      }
    });
    /* @end bad-dates */
    return notes;
  }

  function init(data) {
    if (data && isValidDate(data.now)) state.now = data.now;
    const stored = hooks.load ? hooks.load() : null;
    if (stored) {
      state.notes = stored.notes.map(cleanNote);
      state.tick = Number(stored.tick) || 0;
    } else {
      state.notes = loadSeed(Array.isArray(data && data.notes) ? data.notes : []);
      persist('seed');
    }
    renderNotices();
    renderList();
    renderEditor();
  }

  // ------------------------------------------------------------ wiring

  ['title', 'tags', 'body'].forEach((id) => $(id).addEventListener('input', onEditorInput));
  $('note-list').addEventListener('click', (e) => {
    const b = e.target.closest('.note-btn');
    if (b) openNote(b.dataset.id);
  });
  $('notices').addEventListener('click', (e) => {
    if (e.target.closest('[data-dismiss]')) { state.issues = []; renderNotices(); }
  });
  $('body').addEventListener('keydown', (e) => {
    if (e.key === 'Tab') {
      e.preventDefault();
      const t = e.target;
      const s = t.selectionStart;
      t.setRangeText('  ', s, t.selectionEnd, 'end');
      onEditorInput();
    }
  });

  fetch('data/notes.json')
    .then((r) => { if (!r.ok) throw new Error(r.status); return r.json(); })
    .then(init)
    .catch(() => {
      $('notices').innerHTML = '<div class="notice notice-warn" role="alert"><strong>Could not load data/notes.json.</strong> Starting with your saved notes only.</div>';
      const stored = hooks.load ? hooks.load() : null;
      state.notes = stored ? stored.notes.map(cleanNote) : [];
      renderList();
      renderEditor();
    });
})();
