/* Gather — community meetups (single page, hash routes).
   Routes: #/  #/events/<id>  #/organisers/<id>  #/following  #/me
   "Now" is fixed by data/events.json (field "now"), never the real clock. */
(() => {
  'use strict';

  const STORE_KEY = 'gather.v1';
  const COMMENT_MAX = 500;
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
    'September', 'October', 'November', 'December'];
  const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

  // Optional behaviours register themselves here; the core calls them with ?.()
  const hooks = {};

  const S = {
    now: '',
    topics: [],
    events: [],
    byId: {},
    me: { name: 'You', following: [] },
    organisers: [],
    orgById: {},
    comments: [],
    local: emptyLocal(),
    filter: { topic: 'All', q: '' },
    ui: { replyTo: null, commentError: '', replyError: '', commentDraft: '', replyDraft: '' },
  };

  function emptyLocal() {
    return { rsvp: {}, follows: null, comments: [], seq: 0 };
  }

  const app = document.getElementById('app');

  // ------------------------------------------------------------ helpers
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => (
    { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const initials = (name) => String(name || '?').split(/\s+/).filter(Boolean).slice(0, 2)
    .map((w) => w[0].toUpperCase()).join('') || '?';
  const hue = (name) => [...String(name || '')].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);

  // "2026-03-14T19:00" -> parts; anything else -> null (date to be announced)
  function parseStamp(s) {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(String(s ?? '').trim());
    if (!m) return null;
    const [y, mo, d, h, mi] = m.slice(1).map(Number);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
    const wd = new Date(Date.UTC(y, mo - 1, d)).getUTCDay();
    return { y, mo, d, h, mi, wd, key: m[0] };
  }
  const hhmm = (p) => `${String(p.h).padStart(2, '0')}:${String(p.mi).padStart(2, '0')}`;
  const shortDate = (p) => `${DAYS[p.wd].slice(0, 3)}, ${MONTHS[p.mo - 1].slice(0, 3)} ${p.d}`;
  const longDate = (p) => `${DAYS[p.wd]}, ${MONTHS[p.mo - 1]} ${p.d}, ${p.y}`;

  function whenShort(ev) {
    if (!ev.startP) return hooks.tbaLabel?.() || '';
    return `${shortDate(ev.startP)} · ${hhmm(ev.startP)}`;
  }
  function whenLong(ev) {
    if (!ev.startP) return hooks.tbaLabel?.() || '';
    const end = ev.endP && ev.endP.key.slice(0, 10) === ev.startP.key.slice(0, 10) ? `–${hhmm(ev.endP)}` : '';
    return `${longDate(ev.startP)} · ${hhmm(ev.startP)}${end}`;
  }
  function commentWhen(at) {
    if (at === S.now) return 'Just now';
    const p = parseStamp(at);
    return p ? `${MONTHS[p.mo - 1].slice(0, 3)} ${p.d}, ${hhmm(p)}` : '';
  }

  const isPast = (ev) => !!ev.startP && ev.startP.key <= S.now;
  const sortKey = (ev) => (ev.startP ? ev.startP.key : '9999-99-99T99:99');

  const ICON = {
    cal: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><rect x="3" y="5" width="18" height="16" rx="3"/><path d="M3 10h18M8 3v4M16 3v4"/></svg>',
    pin: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21z"/><circle cx="12" cy="9.5" r="2.5"/></svg>',
    people: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><circle cx="9" cy="8" r="3.5"/><path d="M2.5 20c.8-3.8 3.4-6 6.5-6s5.7 2.2 6.5 6"/><circle cx="17" cy="9" r="2.5"/><path d="M16 14c2.8.2 4.8 2.2 5.5 5"/></svg>',
    search: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/></svg>',
  };

  function avatar(name, cls = '') {
    return `<span class="avatar ${cls}" style="--h:${hue(name)}" aria-hidden="true">${esc(initials(name))}</span>`;
  }

  // ------------------------------------------------------------ persistence
  function load() {
    let raw = null;
    try { raw = JSON.parse(localStorage.getItem(STORE_KEY) || 'null'); } catch (e) { raw = null; }
    const l = emptyLocal();
    if (!raw || typeof raw !== 'object') return l;
    /* @feature persist */
    if (raw.rsvp && typeof raw.rsvp === 'object') {
      for (const [id, v] of Object.entries(raw.rsvp)) {
        if (S.byId[id] && ['going', 'waitlist', 'none'].includes(v)) l.rsvp[id] = v;
      }
    }
    if (Array.isArray(raw.follows)) l.follows = raw.follows.filter((id) => typeof id === 'string' && S.orgById[id]);
    if (Array.isArray(raw.comments)) {
      l.comments = raw.comments.filter((c) => c && typeof c.text === 'string' && c.text.trim()
        && S.byId[c.eventId] && typeof c.id === 'string');
    }
    l.seq = Number.isInteger(raw.seq) ? raw.seq : l.comments.length;
    /* @end persist */
    return l;
  }
  function save() {
    /* @feature persist */
    try { localStorage.setItem(STORE_KEY, JSON.stringify(S.local)); } catch (e) { /* storage full or blocked */ }
    /* @end persist */
  }

  // ------------------------------------------------------------ data model
  function normalise(evData, peopleData, commentData) {
    S.now = parseStamp(evData.now)?.key || '2026-03-14T18:00';
    S.topics = Array.isArray(evData.topics) ? evData.topics.filter((t) => typeof t === 'string') : [];
    const me = peopleData.currentUser || {};
    S.me = { name: me.name || 'You', city: me.city || '', memberSince: me.memberSince || '',
      following: Array.isArray(me.following) ? me.following : [] };
    S.organisers = (Array.isArray(peopleData.organisers) ? peopleData.organisers : []).filter((o) => o && o.id);
    S.orgById = Object.fromEntries(S.organisers.map((o) => [o.id, o]));
    S.events = [];
    S.byId = {};
    for (const e of (Array.isArray(evData.events) ? evData.events : [])) {
      if (!e || !e.id || S.byId[e.id] || !e.title) continue;
      const cap = Number(e.capacity);
      const ev = {
        id: String(e.id),
        title: String(e.title),
        topic: S.topics.includes(e.topic) ? e.topic : 'Other',
        organiserId: e.organiserId,
        organiser: S.orgById[e.organiserId] || null,
        startP: parseStamp(e.start),
        endP: parseStamp(e.end),
        venue: { name: e.venue?.name || 'Venue to be confirmed', address: e.venue?.address || '' },
        capacity: e.capacity != null && Number.isInteger(cap) && cap > 0 ? cap : null,
        attendees: (Array.isArray(e.attendees) ? e.attendees : []).filter((n) => typeof n === 'string' && n.trim()),
        waitlist: (Array.isArray(e.waitlist) ? e.waitlist : []).filter((n) => typeof n === 'string' && n.trim()),
        description: String(e.description || ''),
        myRsvp: ['going', 'waitlist'].includes(e.myRsvp) ? e.myRsvp : null,
      };
      S.events.push(ev);
      S.byId[ev.id] = ev;
    }
    const list = Array.isArray(commentData.comments) ? commentData.comments : [];
    S.comments = list.filter((c) => c && c.id && S.byId[c.eventId] && typeof c.text === 'string' && c.text.trim())
      .map((c) => ({ id: String(c.id), eventId: c.eventId, parentId: c.parentId || null,
        author: String(c.authorName || '').trim(), at: String(c.at || ''), text: c.text.trim(), mine: false }));
  }

  function following() {
    return S.local.follows ?? S.me.following.filter((id) => S.orgById[id]);
  }
  const isFollowing = (orgId) => following().includes(orgId);

  function myStatus(ev) {
    const l = S.local.rsvp[ev.id];
    if (l === 'going' || l === 'waitlist') return l;
    if (l === 'none') return null;
    return ev.myRsvp;
  }

  // The derived seat state of an event: the data's attendees and waitlist plus my own RSVP.
  function seatState(ev) {
    const mine = myStatus(ev);
    const attendees = ev.attendees.slice();
    const waitlist = ev.waitlist.slice();
    let promoted = null;
    if (ev.myRsvp === 'going' && mine !== 'going' && !isPast(ev)) {
      promoted = hooks.promote?.(ev, attendees, waitlist) || null;
    }
    const going = attendees.length + (mine === 'going' ? 1 : 0);
    const line = mine === 'waitlist' ? [...waitlist, 'You'] : waitlist;
    const full = ev.capacity != null && going >= ev.capacity;
    return {
      mine, attendees, waitlist: line, going, full, promoted,
      left: ev.capacity != null ? Math.max(0, ev.capacity - going) : null,
      position: mine === 'waitlist' ? line.length : 0,
    };
  }

  /* @feature promotion */
  hooks.promote = (ev, attendees, waitlist) => {
    if (ev.capacity == null || !waitlist.length) return null;
    if (attendees.length + 1 > ev.capacity) return null;
    const next = waitlist.shift();
    attendees.push(next);
    return next;
  };
  /* @end promotion */
  /* @broken promotion */
  hooks.promote = (ev, attendees, waitlist) => {
    if (ev.capacity == null || !waitlist.length) return null;
    const next = waitlist.pop();
    attendees.push(next);
    return next;
  };
  /* @end promotion */

  function capacitySummary(ev, st) {
    if (isPast(ev)) return `${st.going} attended`;
    if (ev.capacity == null) return hooks.unlimitedText?.(st) || `${st.going} going`;
    if (st.full) return st.waitlist.length ? `Full · ${st.waitlist.length} on waitlist` : 'Full';
    return plural(st.left, 'spot left', 'spots left');
  }

  /* @feature unlimited-capacity */
  hooks.unlimitedText = (st) => `No attendee limit · ${st.going} going`;
  /* @end unlimited-capacity */

  /* @feature tba-date */
  hooks.tbaLabel = () => 'Date to be announced';
  hooks.tbaLock = (ev) => !ev.startP;
  /* @end tba-date */

  function setMine(ev, value, message) {
    S.local.rsvp[ev.id] = value || 'none';
    save();
    render();
    if (message) toast(message);
  }

  function rsvpAction(ev, action, e) {
    /* @feature rsvp-dblclick-guard */
    if (e && e.detail > 1) return;
    /* @end rsvp-dblclick-guard */
    if (rsvpClosed(ev)) return;
    const st = seatState(ev);
    if (action === 'rsvp') {
      if (st.mine || st.full) return;
      setMine(ev, 'going', `RSVP confirmed for ${ev.title}.`);
    } else if (action === 'waitlist') {
      hooks.joinWaitlist?.(ev, st);
    } else if (action === 'cancel') {
      hooks.cancelRsvp?.(ev, st);
    }
  }

  /* @feature waitlist */
  hooks.joinWaitlist = (ev, st) => {
    if (st.mine || !st.full) return;
    setMine(ev, 'waitlist', 'Added to the waitlist.');
  };
  /* @end waitlist */
  /* @broken waitlist */
  hooks.joinWaitlist = (ev, st) => {
    if (st.mine) return;
    setMine(ev, 'going', 'Added to the waitlist.');
  };
  /* @end waitlist */

  /* @feature rsvp-cancel */
  hooks.cancelRsvp = (ev, st) => {
    if (!st.mine) return;
    const wasGoing = st.mine === 'going';
    S.local.rsvp[ev.id] = 'none';
    const after = seatState(ev);
    S.local.rsvp[ev.id] = st.mine;
    const msg = wasGoing
      ? (after.promoted ? `RSVP cancelled. ${after.promoted} got your spot.` : 'RSVP cancelled.')
      : 'You left the waitlist.';
    setMine(ev, null, msg);
  };
  /* @end rsvp-cancel */

  const rsvpClosed = (ev) => !!(hooks.pastLock?.(ev) || hooks.tbaLock?.(ev));

  /* @feature past-lock */
  hooks.pastLock = (ev) => isPast(ev);
  /* @end past-lock */

  function toggleFollow(orgId) {
    const list = following().slice();
    const i = list.indexOf(orgId);
    if (i >= 0) list.splice(i, 1); else list.push(orgId);
    S.local.follows = list;
    hooks.saveFollows?.();
    render();
    toast(i >= 0 ? `Unfollowed ${S.orgById[orgId]?.name || 'organiser'}.` : `You follow ${S.orgById[orgId]?.name || 'organiser'} now.`);
  }
  function followerCount(org) {
    const was = S.me.following.includes(org.id);
    const now = isFollowing(org.id);
    return Math.max(0, (Number(org.followers) || 0) + (now && !was ? 1 : 0) - (!now && was ? 1 : 0));
  }

  /* @feature follow */
  hooks.followButton = (org) => {
    const on = isFollowing(org.id);
    return `<button type="button" class="btn ${on ? 'btn-soft' : 'btn-outline'} follow-btn" data-action="follow" data-org="${esc(org.id)}" aria-pressed="${on}">${on ? 'Following' : 'Follow'}</button>`;
  };
  hooks.saveFollows = () => save();
  /* @end follow */
  /* @broken follow */
  hooks.followButton = (org) => {
    const on = isFollowing(org.id);
    return `<button type="button" class="btn ${on ? 'btn-soft' : 'btn-outline'} follow-btn" data-action="follow" data-org="${esc(org.id)}" aria-pressed="${on}">${on ? 'Following' : 'Follow'}</button>`;
  };
  /* @end follow */

  // ------------------------------------------------------------ comments
  function eventComments(ev) {
    const mine = S.local.comments.filter((c) => c.eventId === ev.id)
      .map((c) => ({ ...c, author: 'You', mine: true }));
    const all = [...S.comments.filter((c) => c.eventId === ev.id), ...mine];
    const ids = new Set(all.map((c) => c.id));
    const top = [];
    const replies = {};
    for (const c of all) {
      const parent = c.parentId && ids.has(c.parentId) ? all.find((p) => p.id === c.parentId) : null;
      if (parent && !parent.parentId) (replies[parent.id] ||= []).push(c);
      else if (parent) (replies[parent.parentId] ||= []).push(c);
      else top.push(c);
    }
    const byTime = (a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0);
    top.sort(byTime);
    Object.values(replies).forEach((r) => r.sort(byTime));
    return { top, replies, total: all.length };
  }
  const authorName = (c) => c.author || hooks.formerMember?.() || '';

  function validateComment(text) {
    return hooks.validateComment?.(text) || '';
  }
  /* @feature comment-validate */
  hooks.validateComment = (text) => {
    const t = String(text ?? '').trim();
    if (!t) return 'Write something before posting.';
    if ([...t].length > COMMENT_MAX) return `Comments can be at most ${COMMENT_MAX} characters.`;
    return '';
  };
  /* @end comment-validate */

  function addComment(ev, text, parentId) {
    S.local.seq += 1;
    S.local.comments.push({ id: `my-${S.local.seq}`, eventId: ev.id, parentId: parentId || null,
      at: S.now, text: String(text).trim() });
    save();
  }

  // ------------------------------------------------------------ routing
  function route() {
    const h = decodeURIComponent(location.hash.replace(/^#\/?/, ''));
    const parts = h.split('/').filter(Boolean);
    if (!parts.length) return { view: 'events' };
    if (parts[0] === 'events' && parts[1]) return { view: 'event', id: parts[1] };
    if (parts[0] === 'events') return { view: 'events' };
    if (parts[0] === 'organisers' && parts[1]) return { view: 'organiser', id: parts[1] };
    if (parts[0] === 'following') return { view: 'following' };
    if (parts[0] === 'me') return { view: 'me' };
    return { view: 'events' };
  }

  function render() {
    const r = route();
    let html = '';
    if (r.view === 'event') {
      const ev = S.byId[r.id];
      html = ev ? viewEvent(ev) : (hooks.notFound?.('Event not found', 'There is no meetup at this address. It may have been removed.') || viewEvents());
    } else if (r.view === 'organiser') {
      const org = S.orgById[r.id];
      html = org ? viewOrganiser(org) : (hooks.notFound?.('Organiser not found', 'We could not find this organiser.') || viewEvents());
    } else if (r.view === 'following') html = viewFollowing();
    else if (r.view === 'me') html = viewMe();
    else html = viewEvents();
    app.innerHTML = html;
    markNav(r.view);
    const me = document.getElementById('me-chip');
    if (me) me.innerHTML = `${avatar(S.me.name, 'sm')}<span>${esc(S.me.name)}</span>`;
  }

  function markNav(view) {
    const current = view === 'event' || view === 'organiser' ? 'events' : view;
    document.querySelectorAll('.nav-link').forEach((a) => {
      const on = a.dataset.nav === current;
      a.classList.toggle('active', on);
      /* @feature nav-current */
      if (on) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
      /* @end nav-current */
    });
  }

  /* @feature not-found */
  hooks.notFound = (title, text) => `
    <section class="empty-page">
      <div class="empty-art" aria-hidden="true">?</div>
      <h1>${esc(title)}</h1>
      <p>${esc(text)}</p>
      <a class="btn btn-primary" href="#/">Back to events</a>
    </section>`;
  /* @end not-found */

  // ------------------------------------------------------------ events list
  function matchesFilter(ev) {
    if (hooks.topicMatch && !hooks.topicMatch(ev)) return false;
    if (hooks.searchMatch && !hooks.searchMatch(ev)) return false;
    return true;
  }

  /* @feature topic-filter */
  hooks.topicMatch = (ev) => S.filter.topic === 'All' || ev.topic === S.filter.topic;
  hooks.topicChips = () => `
    <div class="chips" role="group" aria-label="Topics">
      ${['All', ...S.topics].map((t) => `<button type="button" class="chip${S.filter.topic === t ? ' on' : ''}" data-action="topic" data-topic="${esc(t)}" aria-pressed="${S.filter.topic === t}">${esc(t)}</button>`).join('')}
    </div>`;
  /* @end topic-filter */
  /* @broken topic-filter */
  hooks.topicMatch = (ev) => S.filter.topic === 'All' || ev.topic === S.filter.topic || isPast(ev);
  hooks.topicChips = () => `
    <div class="chips" role="group" aria-label="Topics">
      ${['All', ...S.topics].map((t) => `<button type="button" class="chip${S.filter.topic === t ? ' on' : ''}" data-action="topic" data-topic="${esc(t)}" aria-pressed="${S.filter.topic === t}">${esc(t)}</button>`).join('')}
    </div>`;
  /* @end topic-filter */

  /* @feature search */
  hooks.searchMatch = (ev) => {
    const q = S.filter.q.trim().toLowerCase();
    if (!q) return true;
    const hay = [ev.title, ev.organiser?.name, ev.organiser?.group, ev.venue.name].join(' ').toLowerCase();
    return hay.includes(q);
  };
  hooks.searchBox = () => `
    <div class="search">
      ${ICON.search}
      <label class="sr-only" for="search">Search meetups</label>
      <input id="search" type="search" placeholder="Search by title, organiser or venue" value="${esc(S.filter.q)}" autocomplete="off">
    </div>`;
  hooks.noMatches = () => `
    <div class="empty" role="status">
      <p><strong>No meetups match your filters.</strong></p>
      <p>Try another topic or a shorter search.</p>
      <button type="button" class="btn btn-outline" data-action="clear-filters">Clear filters</button>
    </div>`;
  /* @end search */

  function card(ev) {
    const st = seatState(ev);
    const past = isPast(ev);
    const p = ev.startP;
    const badges = [];
    if (past) badges.push('<span class="badge badge-past">Past</span>');
    else if (st.mine === 'going') badges.push('<span class="badge badge-going">Going</span>');
    else if (st.mine === 'waitlist') badges.push(`<span class="badge badge-wait">Waitlist #${st.position}</span>`);
    let meta = '';
    /* @feature card-meta */
    meta = `
      <p class="card-meta"><span class="topic topic-${esc(ev.topic.replace(/\W+/g, '').toLowerCase())}">${esc(ev.topic)}</span>
        <span>${esc(ev.organiser?.name || hooks.unknownOrganiser?.() || '')}</span><span aria-hidden="true">·</span><span>${esc(ev.venue.name)}</span></p>
      <p class="card-spots${st.full && !past ? ' is-full' : ''}">${ICON.people}${esc(capacitySummary(ev, st))}</p>`;
    /* @end card-meta */
    return `
      <article class="card${past ? ' card-past' : ''}" aria-label="${esc(ev.title)}">
        <div class="date-tile" aria-hidden="true">${p ? `<span class="dt-mon">${MONTHS[p.mo - 1].slice(0, 3)}</span><span class="dt-day">${p.d}</span>` : '<span class="dt-tba">TBA</span>'}</div>
        <div class="card-body">
          <p class="card-when">${esc(whenShort(ev))} ${badges.join('')}</p>
          <h3 class="card-title"><a href="#/events/${encodeURIComponent(ev.id)}">${esc(ev.title)}</a></h3>
          ${meta}
        </div>
      </article>`;
  }

  function viewEvents() {
    const visible = S.events.filter(matchesFilter);
    const upcoming = visible.filter((e) => !isPast(e)).sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
    const past = visible.filter(isPast).sort((a, b) => (sortKey(a) > sortKey(b) ? -1 : 1));
    let pastHtml = '';
    /* @feature past-section */
    if (past.length) {
      pastHtml = `
        <section class="list-section past-section" aria-labelledby="past-h">
          <h2 id="past-h">Past events</h2>
          <ul class="cards" aria-label="Past events">${past.map((e) => `<li>${card(e)}</li>`).join('')}</ul>
        </section>`;
    }
    /* @end past-section */
    const nothing = !upcoming.length && !pastHtml;
    return `
      <section class="hero">
        <div>
          <h1>Upcoming meetups</h1>
          <p class="lead">Small, friendly events run by people in your city. RSVP, join a waitlist, and follow the organisers you like.</p>
        </div>
        ${hooks.searchBox?.() || ''}
      </section>
      ${hooks.topicChips?.() || ''}
      ${nothing ? (hooks.noMatches?.() || '<p class="empty">No meetups.</p>') : `
      <section class="list-section" aria-labelledby="up-h">
        <h2 id="up-h">Upcoming <span class="count">${upcoming.length}</span></h2>
        ${upcoming.length ? `<ul class="cards" aria-label="Upcoming events">${upcoming.map((e) => `<li>${card(e)}</li>`).join('')}</ul>`
          : '<p class="muted">No upcoming meetups for this selection.</p>'}
      </section>
      ${pastHtml}`}`;
  }

  // ------------------------------------------------------------ event detail
  function rsvpPanel(ev, st) {
    let status = '';
    let button = '';
    const closed = rsvpClosed(ev);
    if (closed) {
      if (isPast(ev)) status = `<p class="rsvp-status">This event has ended.${st.mine === 'going' ? ' You went.' : ''}</p>`;
      else status = '<p class="rsvp-status">RSVPs open once the date is set.</p>';
    } else if (st.mine === 'going') {
      status = '<p class="rsvp-status ok">You\'re going</p>';
      button = hooks.cancelRsvp ? '<button type="button" class="btn btn-outline btn-block" data-action="cancel">Cancel RSVP</button>' : '';
    } else if (st.mine === 'waitlist') {
      status = `<p class="rsvp-status wait">You're #${st.position} on the waitlist</p>`;
      button = hooks.cancelRsvp ? '<button type="button" class="btn btn-outline btn-block" data-action="cancel">Leave waitlist</button>' : '';
    } else if (st.full) {
      status = '<p class="rsvp-status">This event is full.</p>';
      button = hooks.joinWaitlist ? '<button type="button" class="btn btn-primary btn-block" data-action="waitlist">Join waitlist</button>' : '';
    } else {
      status = '<p class="rsvp-status">Free · save your spot</p>';
      button = '<button type="button" class="btn btn-primary btn-block" data-action="rsvp">RSVP</button>';
    }
    let cap = '';
    /* @feature detail-capacity */
    if (isPast(ev)) cap = `<p class="cap-line">${esc(capacitySummary(ev, st))}</p><p class="cap-sub">&nbsp;</p>`;
    else if (ev.capacity == null) cap = `<p class="cap-line">${esc(st.going)} going</p><p class="cap-sub">${esc(capacitySummary(ev, st))}</p>`;
    else {
      const pct = Math.min(100, Math.round((st.going / ev.capacity) * 100));
      cap = `<p class="cap-line">${st.going} of ${ev.capacity} spots taken</p>
        <div class="bar" aria-hidden="true"><span style="width:${pct}%"></span></div>
        <p class="cap-sub">${esc(capacitySummary(ev, st))}</p>`;
    }
    /* @end detail-capacity */
    return `
      <section class="panel rsvp-panel" aria-label="RSVP">
        ${cap}
        ${status}
        ${button}
      </section>`;
  }

  function peopleLists(ev, st) {
    let html = '';
    /* @feature attendee-list */
    const names = (st.mine === 'going' ? ['You'] : []).concat(st.attendees);
    html = `
      <section class="block" aria-labelledby="att-h">
        <h2 id="att-h">Attendees (${names.length})</h2>
        ${names.length ? `<ul class="people" aria-label="Attendees">${names.map((n) => `<li class="${n === 'You' ? 'me' : ''}">${avatar(n, 'sm')}<span>${esc(n)}</span></li>`).join('')}</ul>`
          : '<p class="muted">Nobody yet — be the first.</p>'}
      </section>
      ${st.waitlist.length && !isPast(ev) ? `
      <section class="block" aria-labelledby="wl-h">
        <h2 id="wl-h">Waitlist (${st.waitlist.length})</h2>
        <ol class="people waitlist" aria-label="Waitlist">${st.waitlist.map((n) => `<li class="${n === 'You' ? 'me' : ''}">${avatar(n, 'sm')}<span>${esc(n)}</span></li>`).join('')}</ol>
      </section>` : ''}`;
    /* @end attendee-list */
    return html;
  }

  function commentItem(ev, c, replies) {
    const name = authorName(c);
    const kids = replies[c.id] || [];
    const replying = S.ui.replyTo === c.id;
    return `
      <li class="comment${c.mine ? ' mine' : ''}">
        <div class="comment-head">${avatar(name, 'sm')}<strong>${esc(name)}</strong><span class="muted">${esc(commentWhen(c.at))}</span></div>
        <p class="comment-text">${esc(c.text)}</p>
        ${hooks.replyControls?.(ev, c, name, replying) || ''}
        ${kids.length ? `<ul class="replies" aria-label="Replies to ${esc(name)}">${kids.map((k) => {
          const kn = authorName(k);
          return `<li class="comment reply${k.mine ? ' mine' : ''}"><div class="comment-head">${avatar(kn, 'sm')}<strong>${esc(kn)}</strong><span class="muted">${esc(commentWhen(k.at))}</span></div><p class="comment-text">${esc(k.text)}</p></li>`;
        }).join('')}</ul>` : ''}
      </li>`;
  }

  /* @feature comment-replies */
  hooks.replyControls = (ev, c, name, replying) => {
    if (!replying) return `<button type="button" class="link-btn" data-action="reply" data-comment="${esc(c.id)}" aria-label="Reply to ${esc(name)}">Reply</button>`;
    return `
      <form class="reply-form" data-form="reply" data-comment="${esc(c.id)}" novalidate>
        <label for="reply-text">Your reply</label>
        <textarea id="reply-text" rows="2">${esc(S.ui.replyDraft)}</textarea>
        ${S.ui.replyError ? `<p class="field-error" role="alert">${esc(S.ui.replyError)}</p>` : ''}
        <div class="row"><button type="submit" class="btn btn-primary btn-sm">Post reply</button>
        <button type="button" class="btn btn-ghost btn-sm" data-action="cancel-reply">Cancel</button></div>
      </form>`;
  };
  /* @end comment-replies */

  function commentsBlock(ev) {
    const { top, replies, total } = eventComments(ev);
    let form = '';
    /* @feature comment-post */
    form = `
      <form class="comment-form" data-form="comment" novalidate>
        <label for="comment-text">Add a comment</label>
        <textarea id="comment-text" rows="3" placeholder="Ask the organiser or say hello">${esc(S.ui.commentDraft)}</textarea>
        ${S.ui.commentError ? `<p class="field-error" role="alert">${esc(S.ui.commentError)}</p>` : ''}
        <div class="row"><span class="muted small">Be kind. Up to ${COMMENT_MAX} characters.</span>
        <button type="submit" class="btn btn-primary">Post comment</button></div>
      </form>`;
    /* @end comment-post */
    return `
      <section class="block" aria-labelledby="com-h">
        <h2 id="com-h">Comments (${total})</h2>
        ${top.length ? `<ul class="comments" aria-label="Comments">${top.map((c) => commentItem(ev, c, replies)).join('')}</ul>`
          : '<p class="muted">No comments yet.</p>'}
        ${form}
      </section>`;
  }

  function viewEvent(ev) {
    const st = seatState(ev);
    const org = ev.organiser;
    const host = org
      ? `<div class="host">${avatar(org.name)}<div><p class="muted small">Hosted by</p>
          <p><a href="#/organisers/${encodeURIComponent(org.id)}">${esc(org.name)}</a></p>
          <p class="muted small">${esc(org.group || '')}</p></div></div>
        ${hooks.followButton?.(org) || ''}`
      : `<div class="host">${avatar('?')}<div><p class="muted small">Hosted by</p><p>${esc(hooks.unknownOrganiser?.() || '')}</p></div></div>`;
    let venue = '';
    /* @feature detail-venue */
    venue = `
      <section class="panel" aria-labelledby="venue-h">
        <h2 id="venue-h" class="panel-h">${ICON.pin} Venue</h2>
        <p class="venue-name">${esc(ev.venue.name)}</p>
        <p class="muted">${esc(ev.venue.address)}</p>
      </section>`;
    /* @end detail-venue */
    return `
      <a class="back" href="#/">← All events</a>
      <section class="event-hero">
        <p class="eyebrow"><span class="topic topic-${esc(ev.topic.replace(/\W+/g, '').toLowerCase())}">${esc(ev.topic)}</span>
          ${isPast(ev) ? '<span class="badge badge-past">Past event</span>' : ''}</p>
        <h1>${esc(ev.title)}</h1>
        <p class="event-when">${ICON.cal}<span>${esc(whenLong(ev))}</span></p>
      </section>
      <div class="event-grid">
        <div class="event-main">
          <section class="block" aria-labelledby="about-h"><h2 id="about-h">About this meetup</h2><p>${esc(ev.description)}</p></section>
          ${peopleLists(ev, st)}
          ${commentsBlock(ev)}
        </div>
        <aside class="event-side">
          ${rsvpPanel(ev, st)}
          <section class="panel host-panel" aria-label="Organiser">${host}</section>
          ${venue}
        </aside>
      </div>`;
  }

  /* @feature unknown-people */
  hooks.unknownOrganiser = () => 'Unknown organiser';
  hooks.formerMember = () => 'Former member';
  /* @end unknown-people */

  // ------------------------------------------------------------ organiser, following, profile
  function byDate(list) {
    return list.slice().sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  }

  function viewOrganiser(org) {
    const evs = S.events.filter((e) => e.organiserId === org.id);
    const up = byDate(evs.filter((e) => !isPast(e)));
    const past = byDate(evs.filter(isPast)).reverse();
    return `
      <a class="back" href="#/">← All events</a>
      <section class="org-hero">
        ${avatar(org.name, 'lg')}
        <div class="org-id">
          <h1>${esc(org.name)}</h1>
          <p class="muted">${esc(org.group || '')}</p>
          <p class="followers">${plural(followerCount(org), 'follower', 'followers')}</p>
        </div>
        ${hooks.followButton?.(org) || ''}
      </section>
      <p class="org-bio">${esc(org.bio || '')}</p>
      <section class="list-section" aria-labelledby="oup-h">
        <h2 id="oup-h">Upcoming events</h2>
        ${up.length ? `<ul class="cards" aria-label="Upcoming events by ${esc(org.name)}">${up.map((e) => `<li>${card(e)}</li>`).join('')}</ul>` : '<p class="muted">Nothing scheduled right now.</p>'}
      </section>
      ${past.length ? `<section class="list-section" aria-labelledby="opast-h"><h2 id="opast-h">Past events</h2>
        <ul class="cards" aria-label="Past events by ${esc(org.name)}">${past.map((e) => `<li>${card(e)}</li>`).join('')}</ul></section>` : ''}`;
  }

  function viewFollowing() {
    let body = '<p class="muted">Follow organisers to keep up with their meetups.</p>';
    /* @feature following-feed */
    const ids = following();
    const orgs = ids.map((id) => S.orgById[id]).filter(Boolean);
    if (!orgs.length) {
      body = `
        <div class="empty">
          <p><strong>You're not following any organisers yet.</strong></p>
          <p>Follow an organiser from any event page to see their upcoming meetups here.</p>
          <a class="btn btn-primary" href="#/">Browse events</a>
        </div>`;
    } else {
      const evs = byDate(S.events.filter((e) => ids.includes(e.organiserId) && !isPast(e)));
      body = `
        <ul class="org-chips" aria-label="Organisers you follow">${orgs.map((o) => `<li><a href="#/organisers/${encodeURIComponent(o.id)}">${avatar(o.name, 'sm')}${esc(o.name)}</a></li>`).join('')}</ul>
        ${evs.length ? `<ul class="cards" aria-label="Following feed">${evs.map((e) => `<li>${card(e)}</li>`).join('')}</ul>`
          : '<p class="empty">No upcoming events from the organisers you follow.</p>'}`;
    }
    /* @end following-feed */
    return `
      <section class="hero"><div><h1>Following</h1>
        <p class="lead">Upcoming meetups from the organisers you follow, soonest first.</p></div></section>
      ${body}`;
  }

  function viewMe() {
    const since = parseStamp(`${S.me.memberSince}T00:00`);
    let rsvps = '';
    /* @feature profile-rsvps */
    const mineList = S.events.map((e) => ({ e, st: seatState(e) })).filter((x) => x.st.mine);
    const up = byDate(mineList.filter((x) => !isPast(x.e)).map((x) => x.e)).map((e) => ({ e, st: seatState(e) }));
    const past = byDate(mineList.filter((x) => isPast(x.e) && x.st.mine === 'going').map((x) => x.e)).reverse();
    const row = (e, label, cls) => `<li class="rsvp-row"><div><a href="#/events/${encodeURIComponent(e.id)}">${esc(e.title)}</a>
      <p class="muted small">${esc(whenShort(e))} · ${esc(e.venue.name)}</p></div><span class="badge ${cls}">${esc(label)}</span></li>`;
    rsvps = `
      <section class="block" aria-labelledby="myup-h">
        <h2 id="myup-h">My upcoming RSVPs</h2>
        ${up.length ? `<ul class="rsvp-list" aria-label="Upcoming RSVPs">${up.map(({ e, st }) => row(e, st.mine === 'going' ? 'Going' : `Waitlist #${st.position}`, st.mine === 'going' ? 'badge-going' : 'badge-wait')).join('')}</ul>`
          : '<p class="muted">You have no upcoming RSVPs. <a href="#/">Find a meetup</a></p>'}
      </section>
      <section class="block" aria-labelledby="mypast-h">
        <h2 id="mypast-h">Past meetups</h2>
        ${past.length ? `<ul class="rsvp-list" aria-label="Past RSVPs">${past.map((e) => row(e, 'Attended', 'badge-past')).join('')}</ul>` : '<p class="muted">None yet.</p>'}
      </section>`;
    /* @end profile-rsvps */
    const orgs = following().map((id) => S.orgById[id]).filter(Boolean);
    return `
      <section class="org-hero">
        ${avatar(S.me.name, 'lg')}
        <div class="org-id"><h1>${esc(S.me.name)}</h1>
        <p class="muted">${esc(S.me.city)}${since ? ` · Member since ${MONTHS[since.mo - 1]} ${since.y}` : ''}</p></div>
      </section>
      ${rsvps}
      <section class="block" aria-labelledby="myorg-h">
        <h2 id="myorg-h">Organisers you follow</h2>
        ${orgs.length ? `<ul class="org-chips" aria-label="Followed organisers">${orgs.map((o) => `<li><a href="#/organisers/${encodeURIComponent(o.id)}">${avatar(o.name, 'sm')}${esc(o.name)}</a></li>`).join('')}</ul>` : '<p class="muted">You are not following anyone yet.</p>'}
      </section>`;
  }

  // ------------------------------------------------------------ toasts
  function toast(text) {
    const box = document.getElementById('toasts');
    if (!box) return;
    const t = document.createElement('div');
    t.className = 'toast';
    t.textContent = text;
    box.appendChild(t);
    setTimeout(() => t.remove(), 2600);
  }

  // ------------------------------------------------------------ events
  app.addEventListener('click', (e) => {
    const el = e.target.closest('[data-action]');
    if (!el) return;
    const a = el.dataset.action;
    const ev = S.byId[route().id];
    if (a === 'topic') {
      S.filter.topic = el.dataset.topic;
      render();
    } else if (a === 'clear-filters') {
      S.filter = { topic: 'All', q: '' };
      render();
    } else if ((a === 'rsvp' || a === 'waitlist' || a === 'cancel') && ev) {
      rsvpAction(ev, a, e);
    } else if (a === 'follow') {
      toggleFollow(el.dataset.org);
    } else if (a === 'reply') {
      S.ui.replyTo = el.dataset.comment;
      S.ui.replyDraft = '';
      S.ui.replyError = '';
      render();
      document.getElementById('reply-text')?.focus();
    } else if (a === 'cancel-reply') {
      S.ui.replyTo = null;
      S.ui.replyError = '';
      render();
    }
  });

  app.addEventListener('input', (e) => {
    if (e.target.id === 'search') {
      S.filter.q = e.target.value;
      const pos = e.target.selectionStart;
      render();
      const box = document.getElementById('search');
      if (box) { box.focus(); try { box.setSelectionRange(pos, pos); } catch (err) { /* ignore */ } }
    } else if (e.target.id === 'comment-text') {
      S.ui.commentDraft = e.target.value;
    } else if (e.target.id === 'reply-text') {
      S.ui.replyDraft = e.target.value;
    }
  });

  app.addEventListener('submit', (e) => {
    e.preventDefault();
    const form = e.target;
    const ev = S.byId[route().id];
    if (!ev) return;
    if (form.dataset.form === 'comment') {
      const text = form.querySelector('textarea').value;
      const err = validateComment(text);
      S.ui.commentError = err;
      if (!err) {
        addComment(ev, text, null);
        S.ui.commentDraft = '';
      } else S.ui.commentDraft = text;
      render();
      if (err) document.getElementById('comment-text')?.focus();
    } else if (form.dataset.form === 'reply') {
      const text = form.querySelector('textarea').value;
      const err = validateComment(text);
      S.ui.replyError = err;
      if (!err) {
        addComment(ev, text, form.dataset.comment);
        S.ui.replyTo = null;
        S.ui.replyDraft = '';
      } else S.ui.replyDraft = text;
      render();
    }
  });

  window.addEventListener('hashchange', () => {
    S.ui = { replyTo: null, commentError: '', replyError: '', commentDraft: '', replyDraft: '' };
    render();
    window.scrollTo(0, 0);
  });

  // ------------------------------------------------------------ boot
  async function boot() {
    try {
      const get = (f) => fetch(`data/${f}`).then((r) => {
        if (!r.ok) throw new Error(`${f}: HTTP ${r.status}`);
        return r.json();
      });
      const [evData, peopleData, commentData] = await Promise.all([
        get('events.json'), get('people.json'), get('comments.json').catch(() => ({ comments: [] }))]);
      normalise(evData || {}, peopleData || {}, commentData || {});
      S.local = load();
      render();
    } catch (err) {
      app.innerHTML = `
        <section class="empty-page">
          <h1>We couldn't load the meetups</h1>
          <p>Check your connection and try again.</p>
          <button type="button" class="btn btn-primary" id="retry">Retry</button>
        </section>`;
      document.getElementById('retry')?.addEventListener('click', () => location.reload());
    }
  }
  boot();
})();
