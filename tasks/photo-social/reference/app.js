/* Glimpse — a small photo-sharing single-page app.
   Routes: #/feed  #/explore[?tag=x]  #/publish  #/profile  #/u/<handle>  #/p/<id>
           #/notifications  #/messages[/<conversation id>] */
(() => {
  'use strict';

  const STORE_KEY = 'glimpse.v1';
  const CAPTION_MAX = 2200;
  const BIO_MAX = 150;
  const MAX_TAGS = 10;
  const MAX_BYTES = 10 * 1024 * 1024;
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

  // Optional behaviours register themselves here; the core calls them with ?.()
  const hooks = {};

  function emptyLocal() {
    return { likes: {}, saves: {}, published: [], bio: null, read: {}, sent: {}, opened: {} };
  }
  function emptyDraft() {
    return { image: null, fileName: '', caption: '', tags: '', photoError: '', captionError: '', pending: null };
  }

  const S = {
    me: null,
    users: [],
    usersById: {},
    posts: [],
    notifications: [],
    conversations: [],
    local: emptyLocal(),
    explore: { tag: '', q: '' },
    draft: emptyDraft(),
    profile: { tab: 'posts', editing: false, bioDraft: '', bioError: '' },
    msg: { error: '' },
  };

  const app = document.getElementById('app');

  // ------------------------------------------------------------ helpers
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => (
    { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const num = (x) => {
    const n = Number(x);
    return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
  };
  const chars = (s) => [...String(s ?? '')].length;
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const fmtCount = (n) => (hooks.formatCount ? hooks.formatCount(num(n)) : String(num(n)));
  const countLabel = (n, one, many) => `${fmtCount(n)} ${num(n) === 1 ? one : many}`;
  const time = (iso) => {
    const t = Date.parse(iso);
    return Number.isFinite(t) ? t : 0;
  };

  function when(iso) {
    const t = time(iso);
    if (!t) return '';
    const min = Math.floor((Date.now() - t) / 60000);
    if (min < 1) return 'Just now';
    if (min < 60) return `${min} min ago`;
    const h = Math.floor(min / 60);
    if (h < 24) return `${h} h ago`;
    const d = Math.floor(h / 24);
    if (d < 7) return plural(d, 'day ago', 'days ago');
    const dt = new Date(t);
    return `${MONTHS[dt.getMonth()]} ${dt.getDate()}, ${dt.getFullYear()}`;
  }

  function shortWhen(iso) {
    const t = time(iso);
    if (!t) return '';
    const dt = new Date(t);
    const now = new Date();
    if (dt.toDateString() === now.toDateString()) {
      return `${String(dt.getHours()).padStart(2, '0')}:${String(dt.getMinutes()).padStart(2, '0')}`;
    }
    return `${MONTHS[dt.getMonth()]} ${dt.getDate()}`;
  }

  const ICON = {
    heart: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 20.5s-7.5-4.6-9.3-9.2C1.4 7.9 3.6 4.5 7 4.5c2.1 0 3.6 1.1 5 2.9 1.4-1.8 2.9-2.9 5-2.9 3.4 0 5.6 3.4 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z"/></svg>',
    comment: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><path d="M20.5 11.5a8.5 8.5 0 0 1-12.4 7.6L3.5 20.5l1.3-4.3a8.5 8.5 0 1 1 15.7-4.7z"/></svg>',
    bookmark: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 3.5h12v17l-6-4.6-6 4.6z"/></svg>',
    search: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/></svg>',
    photo: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><rect x="3" y="5" width="18" height="14" rx="3"/><circle cx="9" cy="10" r="2"/><path d="m21 16-5-5-8 8"/></svg>',
    send: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 12 20 4l-6 16-2.5-6.5z"/></svg>',
    back: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><path d="M15 5l-7 7 7 7"/></svg>',
    ghost: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9"/><path d="M9 10h.01M15 10h.01M9 16c1.8-1.5 4.2-1.5 6 0"/></svg>',
    chat: '<svg class="i" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 5h16v11H9l-5 4z"/></svg>',
    verified: '<svg class="verified" viewBox="0 0 24 24" role="img" aria-label="Verified"><path d="M12 2l2.4 2.1 3.2-.3.9 3.1 2.8 1.6-1.2 3 1.2 3-2.8 1.6-.9 3.1-3.2-.3L12 22l-2.4-2.1-3.2.3-.9-3.1-2.8-1.6 1.2-3-1.2-3 2.8-1.6.9-3.1 3.2.3z" fill="#3b82f6"/><path d="m8.2 12.2 2.6 2.6 5-5.4" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  };

  function toast(message, kind = 'ok') {
    const box = document.getElementById('toasts');
    if (!box) return;
    const el = document.createElement('div');
    el.className = `toast toast-${kind}`;
    el.textContent = message;
    box.appendChild(el);
    setTimeout(() => {
      el.classList.add('out');
      setTimeout(() => el.remove(), 300);
    }, 2800);
  }

  // ------------------------------------------------------------ persistence
  const isObj = (v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
  const validPublished = (p) => isObj(p) && typeof p.id === 'string' && typeof p.createdAt === 'string'
    && typeof p.image === 'string' && p.image.startsWith('data:image/');

  function loadLocal() {
    let raw;
    try {
      raw = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
    } catch (e) {
      return; // corrupt entry: start fresh
    }
    if (!isObj(raw)) return;
    const L = emptyLocal();
    for (const [k, v] of Object.entries(isObj(raw.likes) ? raw.likes : {})) if (typeof v === 'boolean') L.likes[k] = v;
    for (const [k, v] of Object.entries(isObj(raw.saves) ? raw.saves : {})) {
      if (isObj(v) && typeof v.saved === 'boolean') L.saves[k] = { saved: v.saved, at: num(v.at) };
    }
    if (Array.isArray(raw.published)) {
      L.published = raw.published.filter(validPublished).map((p) => ({
        ...p, authorId: S.me.id, tags: Array.isArray(p.tags) ? p.tags.map(String) : [],
        caption: String(p.caption ?? ''), likes: num(p.likes), commentCount: num(p.commentCount),
      }));
    }
    if (typeof raw.bio === 'string') L.bio = raw.bio;
    for (const [k, v] of Object.entries(isObj(raw.read) ? raw.read : {})) if (v === true) L.read[k] = true;
    for (const [k, v] of Object.entries(isObj(raw.opened) ? raw.opened : {})) if (v === true) L.opened[k] = true;
    for (const [k, v] of Object.entries(isObj(raw.sent) ? raw.sent : {})) {
      if (Array.isArray(v)) {
        L.sent[k] = v.filter((m) => isObj(m) && typeof m.text === 'string' && typeof m.at === 'string')
          .map((m) => ({ id: String(m.id || ''), from: S.me.id, at: m.at, text: m.text }));
      }
    }
    S.local = L;
  }

  function persist() {
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify(S.local));
      return true;
    } catch (e) {
      toast('Couldn’t save this on your device — storage is full.', 'warn');
      return false;
    }
  }

  // ------------------------------------------------------------ users
  const MISSING_USER = (id) => ({ id, name: '', handle: '', bio: '', missing: true, followers: 0, following: 0 });
  const userOf = (id) => S.usersById[id] || hooks.unknownUser?.(id) || MISSING_USER(id);
  const isMe = (u) => Boolean(u && S.me && u.id === S.me.id);
  const profileHref = (u) => (isMe(u) ? '#/profile' : `#/u/${encodeURIComponent(u.handle)}`);
  const currentBio = () => (S.local.bio ?? S.me.bio ?? '');
  const bioOf = (u) => (isMe(u) ? currentBio() : (u.bio || ''));

  function initials(name) {
    const parts = String(name || '').trim().split(/\s+/).filter(Boolean);
    if (!parts.length) return '?';
    return (parts[0][0] + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
  }

  function avatarHTML(u, size = 'md') {
    const safe = /^#[0-9a-f]{3,8}$/i.test(u.avatarColor || '') ? u.avatarColor : '#8e8a9e';
    const color = u.missing ? '#a3a1ad' : safe;
    return `<span class="avatar avatar-${size}${u.missing ? ' avatar-missing' : ''}" style="--av:${color}" aria-hidden="true">${esc(u.missing ? '?' : initials(u.name))}</span>`;
  }

  function nameHTML(u, cls = '') {
    if (u.missing || !u.handle) return `<span class="name ${cls}">${esc(u.name)}</span>`;
    return `<a class="name ${cls}" href="${profileHref(u)}">${esc(u.name)}</a>`;
  }

  // ------------------------------------------------------------ posts
  const allPosts = () => [...S.local.published, ...S.posts].sort((a, b) => time(b.createdAt) - time(a.createdAt));
  const postById = (id) => S.local.published.find((p) => p.id === id) || S.posts.find((p) => p.id === id);
  const postsBy = (u) => allPosts().filter((p) => p.authorId === u.id);
  const isLiked = (p) => (Object.prototype.hasOwnProperty.call(S.local.likes, p.id) ? S.local.likes[p.id] : Boolean(p.likedByViewer));
  const likeCount = (p) => Math.max(0, num(p.likes) - (p.likedByViewer ? 1 : 0) + (isLiked(p) ? 1 : 0));
  const isSaved = (p) => (S.local.saves[p.id] ? S.local.saves[p.id].saved : Boolean(p.savedByViewer));
  const savedPosts = () => allPosts().filter(isSaved)
    .sort((a, b) => (S.local.saves[b.id]?.at || 0) - (S.local.saves[a.id]?.at || 0));
  const likesText = (p) => countLabel(likeCount(p), 'like', 'likes');

  function parseTags(raw) {
    const out = [];
    for (const piece of String(raw || '').split(/[\s,]+/)) {
      const t = piece.replace(/^#+/, '').toLowerCase().replace(/[^\p{L}\p{N}_]/gu, '').slice(0, 30);
      if (t && !out.includes(t)) out.push(t);
      if (out.length >= MAX_TAGS) break;
    }
    return out;
  }

  function mediaAlt(p) {
    if (p.image) return p.caption ? p.caption.slice(0, 100) : `Photo by ${userOf(p.authorId).name}`;
    return p.media?.alt || 'Photo';
  }

  // Uploaded photos are their data URL; data posts get a drawn scene (an SVG data URL) when the
  // artwork is available, else a plain coloured tile.
  function mediaHTML(p, lazy = false) {
    const src = p.image || hooks.mediaArt?.(p);
    const bg = /^#[0-9a-f]{3,8}$/i.test(p.media?.palette?.[0] || '') ? p.media.palette[0] : '#e4e1ea';
    if (src) return `<img class="media-img" src="${esc(src)}" alt="${esc(mediaAlt(p))}" style="background:${bg}" draggable="false" decoding="async"${lazy ? ' loading="lazy"' : ''}>`;
    return `<div class="media-ph" role="img" aria-label="${esc(mediaAlt(p))}" style="background:${bg}"></div>`;
  }

  /* @feature media-art */
  const artCache = new Map();
  const rnd = (seed) => () => {
    seed = (seed * 16807) % 2147483647;
    return (seed - 1) / 2147483646;
  };
  const vgrad = (id, a, b) => `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient>`;
  const f1 = (x) => x.toFixed(1);

  const SCENES = {
    harbour([a, b, c], id) {
      const glints = [0, 1, 2, 3, 4, 5].map((i) => {
        const w = 96 - i * 12;
        return `<rect x="${200 - w / 2}" y="${262 + i * 20}" width="${w}" height="4" rx="2" fill="#ffe3a3" opacity="${(0.75 - i * 0.1).toFixed(2)}"/>`;
      }).join('');
      const boats = [[72, 300, 1], [226, 318, 1.3], [330, 292, 0.85]].map(([x, y, s]) => `<g transform="translate(${x} ${y}) scale(${s})"><path d="M-36 0h72l-13 16h-46z" fill="#17182a"/><path d="M0 0v-56" stroke="#17182a" stroke-width="2.5"/><path d="M3-54l24 44H3z" fill="${a}" opacity=".9"/></g>`).join('');
      return `<defs>${vgrad(id + 's', b, a)}</defs>
        <rect width="400" height="252" fill="url(#${id}s)"/>
        <circle cx="200" cy="238" r="52" fill="#ffe3a3" opacity=".95"/>
        <path d="M0 254V214q50-24 100-6t90-4q60-20 120 0t90 4v46z" fill="${c}" opacity=".55"/>
        <rect y="250" width="400" height="150" fill="${c}"/>${glints}${boats}`;
    },
    bowl([a, b, c], id) {
      const r = rnd(11);
      let grains = '';
      for (let i = 0; i < 48; i++) {
        const ang = r() * Math.PI * 2;
        const rad = Math.sqrt(r()) * 96;
        const x = 186 + Math.cos(ang) * rad;
        const y = 206 + Math.sin(ang) * rad;
        grains += `<ellipse cx="${f1(x)}" cy="${f1(y)}" rx="5" ry="2.2" transform="rotate(${Math.round(r() * 180)} ${f1(x)} ${f1(y)})" fill="#ffc285" opacity=".85"/>`;
      }
      const plantain = [0, 1, 2, 3, 4].map((i) => {
        const ang = -0.9 + i * 0.42;
        const x = 200 + Math.cos(ang) * 96;
        const y = 200 + Math.sin(ang) * 96;
        return `<ellipse cx="${f1(x)}" cy="${f1(y)}" rx="21" ry="13" transform="rotate(${Math.round(ang * 57 + 90)} ${f1(x)} ${f1(y)})" fill="#f6bd60" stroke="#c8781d" stroke-width="3"/>`;
      }).join('');
      const leaves = [[150, 160, -30], [176, 148, 20], [226, 250, 60], [140, 236, 10]].map(([x, y, rot]) => `<ellipse cx="${x}" cy="${y}" rx="9" ry="4" transform="rotate(${rot} ${x} ${y})" fill="${c}"/>`).join('');
      return `<defs><radialGradient id="${id}r" cx=".45" cy=".4" r=".7"><stop offset="0" stop-color="#ffffff" stop-opacity=".35"/><stop offset="1" stop-color="#000" stop-opacity=".08"/></radialGradient></defs>
        <rect width="400" height="400" fill="${a}"/>
        ${[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `<rect x="${i * 56 - 20}" y="0" width="20" height="400" fill="${b}" opacity=".06"/>`).join('')}
        <circle cx="206" cy="214" r="168" fill="#000" opacity=".08"/>
        <circle cx="200" cy="204" r="166" fill="#fffdf9"/>
        <circle cx="200" cy="204" r="134" fill="#f1e9df"/>
        <circle cx="190" cy="206" r="112" fill="${b}"/>${grains}${plantain}${leaves}
        <circle cx="200" cy="204" r="166" fill="url(#${id}r)"/>`;
    },
    tram([a, b, c], id) {
      const houses = [['#f4d6cc', 40, 120], ['#f6e8b1', 110, 96], ['#cfe3e8', 180, 80], ['#f2c6b4', 250, 62], ['#e8dff5', 320, 48]]
        .map(([col, x, top]) => `<rect x="${x - 40}" y="${top}" width="74" height="260" fill="${col}"/>`
          + [0, 1, 2].map((k) => `<rect x="${x - 26 + k * 20}" y="${top + 24}" width="12" height="18" rx="2" fill="#5c6b73" opacity=".55"/><rect x="${x - 26 + k * 20}" y="${top + 60}" width="12" height="18" rx="2" fill="#5c6b73" opacity=".55"/>`).join('')).join('');
      return `<defs>${vgrad(id + 's', a, '#ffffff')}</defs>
        <rect width="400" height="400" fill="url(#${id}s)"/>${houses}
        <path d="M0 150 400 70" stroke="#2b2d42" stroke-width="1.6"/>
        <path d="M0 400V330L400 248V400z" fill="#8d8a86"/>
        <path d="M0 372 400 290M0 392 400 310" stroke="#5f5b57" stroke-width="3"/>
        <g transform="rotate(-11 200 290)">
          <path d="M196 206 218 148M218 148h-22" stroke="#2b2d42" stroke-width="2.5" fill="none"/>
          <rect x="92" y="206" width="220" height="96" rx="16" fill="${b}"/>
          <rect x="92" y="206" width="220" height="16" rx="8" fill="${c}"/>
          ${[0, 1, 2, 3, 4].map((k) => `<rect x="${104 + k * 41}" y="230" width="32" height="30" rx="4" fill="#dbe9f4"/>`).join('')}
          <rect x="92" y="274" width="220" height="8" fill="#c0392b" opacity=".8"/>
          <circle cx="130" cy="306" r="11" fill="#2b2d42"/><circle cx="274" cy="306" r="11" fill="#2b2d42"/>
          <text x="300" y="222" font-size="11" font-weight="700" fill="#2b2d42" text-anchor="end" font-family="system-ui, sans-serif">28</text>
        </g>`;
    },
    fjord([a, b, c], id) {
      const back = 'M0 252 60 150l60 52 52-86 66 136zM160 252l104-146 56 62 40-44 40 44v84z';
      const front = 'M0 252V190l46 20 40-36 62 78zM250 252l60-72 44 30 46-42v84z';
      return `<defs>${vgrad(id + 's', a, b)}</defs>
        <rect width="400" height="400" fill="url(#${id}s)"/>
        <circle cx="292" cy="86" r="20" fill="#fdf0d5" opacity=".9"/>
        <path d="${back}" fill="${b}" opacity=".85"/><path d="${front}" fill="${c}"/>
        <rect y="250" width="400" height="150" fill="${c}" opacity=".92"/>
        <g transform="translate(0 502) scale(1 -1)" opacity=".28"><path d="${back}" fill="${a}"/></g>
        <rect x="150" y="268" width="46" height="10" rx="3" fill="#fdf0d5"/><rect x="160" y="260" width="20" height="8" rx="2" fill="#fdf0d5"/>
        ${[0, 1, 2].map((i) => `<rect x="${140 - i * 12}" y="${286 + i * 10}" width="${60 + i * 24}" height="2" fill="#fdf0d5" opacity="${0.5 - i * 0.14}"/>`).join('')}`;
    },
    citynight([a, b, c], id) {
      const r = rnd(5);
      let towers = '';
      let lights = '';
      for (let i = 0; i < 8; i++) {
        const w = 44 + Math.round(r() * 20);
        const x = i * 52 - 8;
        const top = 60 + Math.round(r() * 120);
        towers += `<rect x="${x}" y="${top}" width="${w}" height="${290 - top}" fill="#0b132b" opacity="${(0.75 + r() * 0.25).toFixed(2)}"/>`;
        for (let y = top + 14; y < 270; y += 18) {
          for (let k = 0; k < 3; k++) {
            if (r() > 0.62) lights += `<rect x="${x + 8 + k * 12}" y="${y}" width="6" height="8" fill="${b}" opacity="${(0.35 + r() * 0.6).toFixed(2)}"/>`;
          }
        }
      }
      const neon = [[40, 170, c], [150, 120, b], [262, 190, c], [330, 140, '#4cc9f0']];
      return `<defs>${vgrad(id + 's', a, '#3a2e5c')}${vgrad(id + 'f', '#ffffff', '#ffffff00')}</defs>
        <rect width="400" height="400" fill="url(#${id}s)"/>${towers}${lights}
        ${neon.map(([x, y, col]) => `<rect x="${x - 4}" y="${y - 4}" width="42" height="78" rx="8" fill="${col}" opacity=".3"/><rect x="${x + 4}" y="${y + 4}" width="26" height="62" rx="3" fill="${col}"/>`).join('')}
        <rect y="288" width="400" height="112" fill="#0a0f1f"/>
        ${neon.map(([x, , col]) => `<rect x="${x + 6}" y="292" width="22" height="100" fill="${col}" opacity=".3"/><rect x="${x + 12}" y="292" width="10" height="70" fill="${col}" opacity=".35"/>`).join('')}
        ${[0, 1, 2, 3, 4, 5, 6].map((i) => `<path d="M${20 + i * 60} ${300 + (i % 3) * 28}h${26 + (i % 2) * 20}" stroke="#fff" stroke-opacity=".25" stroke-width="2"/>`).join('')}`;
    },
    flowers([a, b, c], id) {
      const heads = [[146, 176, 58], [246, 150, 66], [200, 240, 52], [306, 226, 46], [104, 256, 42]];
      const leaves = [[120, 300, -40], [290, 296, 40], [200, 310, -10], [70, 220, -70], [340, 170, 60]]
        .map(([x, y, rot]) => `<ellipse cx="${x}" cy="${y}" rx="42" ry="15" transform="rotate(${rot} ${x} ${y})" fill="${c}"/>`).join('');
      const peony = ([x, y, r]) => `<g transform="translate(${x} ${y})"><circle r="${r}" fill="${b}"/>${[0, 1, 2, 3, 4, 5, 6, 7]
        .map((k) => `<ellipse cx="${f1(r * 0.45)}" cy="0" rx="${f1(r * 0.5)}" ry="${f1(r * 0.32)}" transform="rotate(${k * 45})" fill="${b}" stroke="#fff" stroke-opacity=".45" stroke-width="2"/>`).join('')}<circle r="${f1(r * 0.42)}" fill="#fff" opacity=".28"/><circle r="${f1(r * 0.18)}" fill="${a}" opacity=".8"/></g>`;
      return `<rect width="400" height="400" fill="${a}"/>
        <rect y="330" width="400" height="70" fill="#b08968"/><rect y="330" width="400" height="6" fill="#9c6644"/>
        <path d="M160 330l10-64h60l10 64z" fill="#dfe7ec" opacity=".9"/>${leaves}${heads.map(peony).join('')}`;
    },
    pastry([a, b, c], id) {
      const r = rnd(3);
      const tart = ([x, y]) => {
        let spots = '';
        for (let i = 0; i < 7; i++) {
          spots += `<circle cx="${f1(x + (r() - 0.5) * 56)}" cy="${f1(y + (r() - 0.5) * 56)}" r="${f1(4 + r() * 7)}" fill="${c}" opacity="${(0.45 + r() * 0.4).toFixed(2)}"/>`;
        }
        return `<circle cx="${x + 4}" cy="${y + 6}" r="66" fill="#000" opacity=".07"/><circle cx="${x}" cy="${y}" r="64" fill="${b}"/><circle cx="${x}" cy="${y}" r="50" fill="#f7d774"/>${spots}`;
      };
      return `<rect width="400" height="400" fill="${a}"/>
        <path d="M0 90q120 40 200-10t200 30M-10 300q140-50 230 10t190-30" stroke="#cbbfae" stroke-width="2" fill="none" opacity=".7"/>
        ${[[128, 146], [258, 120], [180, 270]].map(tart).join('')}
        <circle cx="318" cy="298" r="58" fill="#fff" stroke="#e6e1da" stroke-width="2"/>
        <rect x="352" y="282" width="30" height="14" rx="7" fill="#fff" stroke="#e6e1da" stroke-width="2"/>
        <circle cx="318" cy="298" r="38" fill="#fff" stroke="#e6e1da" stroke-width="2"/>
        <circle cx="318" cy="298" r="30" fill="#3f2512"/><circle cx="318" cy="298" r="24" fill="#8b5a2b" opacity=".55"/>`;
    },
    mountains([a, b, c], id) {
      return `<defs>${vgrad(id + 's', a, '#fff4e6')}</defs>
        <rect width="400" height="400" fill="url(#${id}s)"/>
        <circle cx="262" cy="176" r="42" fill="#fff" opacity=".85"/>
        <path d="M0 250 70 170l50 40 70-86 80 96 50-40 80 70v190H0z" fill="${b}" opacity=".45"/>
        <path d="M0 300 90 220l60 46 70-70 90 90 40-30 50 40v104H0z" fill="${b}" opacity=".8"/>
        <path d="M0 360 110 286l70 50 60-40 80 56 80-30v78H0z" fill="${c}"/>
        <path d="M214 196l6 7 6-3" stroke="#fff" stroke-width="2" fill="none" opacity=".7"/>`;
    },
    tiles([a, b, c], id) {
      return `<defs><pattern id="${id}p" width="50" height="50" patternUnits="userSpaceOnUse">
          <rect width="50" height="50" fill="${a}"/><rect x=".5" y=".5" width="49" height="49" fill="none" stroke="${b}" stroke-opacity=".35"/>
          <circle cx="0" cy="0" r="13" fill="${b}"/><circle cx="50" cy="0" r="13" fill="${b}"/><circle cx="0" cy="50" r="13" fill="${b}"/><circle cx="50" cy="50" r="13" fill="${b}"/>
          <path d="M25 9 41 25 25 41 9 25z" fill="none" stroke="${c}" stroke-width="3"/><circle cx="25" cy="25" r="6" fill="${b}"/>
        </pattern></defs>
        <rect width="400" height="400" fill="url(#${id}p)"/>
        <path d="M150 400V280a50 50 0 0 1 100 0v120z" fill="#e9ecef"/>
        <path d="M162 400V284a38 38 0 0 1 76 0v116z" fill="#3a3a44"/>
        <rect x="0" y="0" width="400" height="20" fill="#e9ecef"/>`;
    },
    coffee([a, b, c], id) {
      const lines = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => `<path d="M62 ${112 + i * 20}h118" stroke="#cbd5e1" stroke-width="1.5"/>`).join('');
      return `<rect width="400" height="400" fill="${a}"/>
        ${[0, 1, 2, 3].map((i) => `<path d="M0 ${70 + i * 100}h400" stroke="#d5bdaf" stroke-width="2"/>`).join('')}
        <g transform="rotate(-8 130 200)"><rect x="40" y="70" width="170" height="240" rx="8" fill="${c}"/>${lines}
          ${[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `<circle cx="40" cy="${92 + i * 28}" r="5" fill="none" stroke="#94a3b8" stroke-width="2"/>`).join('')}
          <path d="M70 280h60" stroke="#e76f51" stroke-width="3"/></g>
        <path d="M214 330l120-14" stroke="#334155" stroke-width="6" stroke-linecap="round"/>
        <circle cx="292" cy="214" r="92" fill="#fff"/><circle cx="292" cy="214" r="92" fill="none" stroke="#e7dfd6" stroke-width="2"/>
        <rect x="360" y="196" width="36" height="26" rx="13" fill="#fff" stroke="#e7dfd6" stroke-width="2"/>
        <circle cx="292" cy="214" r="66" fill="#fdfbf8" stroke="#e7dfd6" stroke-width="2"/>
        <circle cx="292" cy="214" r="54" fill="${b}"/>
        <path d="M292 248c-26-16-40-30-40-44 0-12 9-20 19-20 9 0 16 6 21 14 5-8 12-14 21-14 10 0 19 8 19 20 0 14-14 28-40 44z" fill="#f8f1e7"/>`;
    },
    rooftops([a, b, c], id) {
      const r = rnd(9);
      const walls = ['#f6e7d8', '#f2d0a4', '#e9c2b0', '#fbe8d3', '#f1dcc9'];
      const row = (y0, h0, op) => {
        let out = '';
        for (let x = -20; x < 420; x += 44) {
          const h = h0 + Math.round(r() * 40);
          const wall = walls[Math.floor(r() * walls.length)];
          out += `<g opacity="${op}"><rect x="${x}" y="${y0 - h}" width="42" height="${h + 120}" fill="${wall}"/><path d="M${x - 3} ${y0 - h}l24-22 24 22z" fill="${c}"/><rect x="${x + 9}" y="${y0 - h + 16}" width="8" height="12" fill="#6d6875" opacity=".5"/><rect x="${x + 25}" y="${y0 - h + 16}" width="8" height="12" fill="#6d6875" opacity=".5"/></g>`;
        }
        return out;
      };
      return `<defs>${vgrad(id + 's', b, a)}</defs>
        <rect width="400" height="400" fill="url(#${id}s)"/>
        <circle cx="110" cy="120" r="34" fill="#fff1e6" opacity=".8"/>
        <rect y="178" width="400" height="40" fill="#9fb4c7" opacity=".75"/>
        <circle cx="300" cy="196" r="30" fill="#f8f4ef"/><rect x="270" y="196" width="60" height="50" fill="#f8f4ef"/>
        ${row(260, 30, 0.8)}${row(340, 40, 1)}`;
    },
    umbrellas([a, b, c], id) {
      const r = rnd(4);
      const colours = [b, c, '#f4a261', '#2a9d8f', '#e9c46a', b, '#8338ec', c];
      const spots = [[80, 90], [210, 70], [320, 120], [130, 210], [260, 220], [70, 320], [200, 330], [330, 300]];
      const umbrella = ([x, y], i) => `<g transform="translate(${x} ${y})"><circle r="46" fill="#000" opacity=".12" cx="6" cy="8"/><circle r="46" fill="${colours[i]}"/>${[0, 1, 2, 3, 4, 5, 6, 7].map((k) => `<path d="M0 0L${f1(Math.cos(k * Math.PI / 4) * 46)} ${f1(Math.sin(k * Math.PI / 4) * 46)}" stroke="#fff" stroke-opacity=".35" stroke-width="2"/>`).join('')}<circle r="4" fill="#fff" opacity=".8"/></g>`;
      let rain = '';
      for (let i = 0; i < 40; i++) rain += `<path d="M${Math.round(r() * 400)} ${Math.round(r() * 400)}l-6 16" stroke="#fff" stroke-opacity=".35" stroke-width="1.5"/>`;
      return `<rect width="400" height="400" fill="${a}"/>
        ${[0, 1, 2, 3, 4, 5, 6].map((i) => `<rect x="${i * 60 + 8}" y="0" width="34" height="400" fill="#fff" opacity=".75"/>`).join('')}
        ${spots.map(umbrella).join('')}${rain}`;
    },
    forest([a, b, c], id) {
      const trunks = [30, 96, 170, 240, 306, 372];
      return `<defs>${vgrad(id + 's', a, '#b7e4c7')}</defs>
        <rect width="400" height="400" fill="url(#${id}s)"/>
        <path d="M250 0 120 400h70L300 0zM330 0 240 400h40L360 0z" fill="#fff" opacity=".2"/>
        ${trunks.map((x, i) => `<rect x="${x - 8 + (i % 2) * 20}" y="60" width="14" height="300" fill="${c}" opacity=".35"/>`).join('')}
        ${trunks.map((x, i) => `<circle cx="${x + (i % 2) * 20}" cy="${70 + (i % 3) * 30}" r="${60 + (i % 2) * 16}" fill="${b}" opacity=".55"/>`).join('')}
        ${[60, 200, 330].map((x) => `<rect x="${x - 11}" y="120" width="22" height="280" fill="${c}"/>`).join('')}
        ${[60, 200, 330].map((x, i) => `<circle cx="${x}" cy="${110 - i * 10}" r="${78 - i * 6}" fill="${b}"/>`).join('')}
        <path d="M0 350q100-30 200 0t200-10v60H0z" fill="${c}"/>
        ${[40, 120, 250, 350].map((x) => `<ellipse cx="${x}" cy="362" rx="26" ry="9" fill="${b}" opacity=".8"/>`).join('')}`;
    },
    dunes([a, b, c], id) {
      return `<defs>${vgrad(id + 's', '#fff5e8', a)}</defs>
        <rect width="400" height="400" fill="url(#${id}s)"/>
        <circle cx="290" cy="112" r="34" fill="#fffaf0"/>
        <path d="M0 250q120-80 220-10t180-30v190H0z" fill="${b}"/>
        <path d="M0 250q120-80 220-10" stroke="#ffe8cc" stroke-width="3" fill="none"/>
        <path d="M0 330q150-90 260-10t140-20v100H0z" fill="${c}"/>
        <path d="M120 318q60-40 140 2" stroke="#f6c89f" stroke-width="2" fill="none" opacity=".6"/>
        <g fill="#4a2c17" opacity=".7"><rect x="90" y="228" width="4" height="10"/><rect x="100" y="226" width="4" height="12"/></g>`;
    },
    laundry([a, b, c], id) {
      const colours = [b, c, '#e76f51', '#2a9d8f', '#f4a261', '#8ecae6', '#e63946'];
      const line = (y0, sag, n, seed) => {
        const r = rnd(seed);
        let items = '';
        for (let i = 0; i < n; i++) {
          const x = 80 + i * (240 / n) + 6;
          const y = y0 + Math.sin((i + 0.5) / n * Math.PI) * sag;
          const col = colours[Math.floor(r() * colours.length)];
          items += r() > 0.5
            ? `<path d="M${f1(x)} ${f1(y)}h34l8 10-8 4v34h-34v-34l-8-4z" fill="${col}"/>`
            : `<rect x="${f1(x)}" y="${f1(y)}" width="30" height="${38 + Math.round(r() * 16)}" fill="${col}"/>`;
        }
        return `<path d="M80 ${y0}Q200 ${y0 + sag * 2} 320 ${y0}" stroke="#3d405b" stroke-width="1.5" fill="none"/>${items}`;
      };
      return `<rect width="400" height="400" fill="#bde0fe"/>
        <path d="M0 0h90v400H0z" fill="${a}"/><path d="M310 0h90v400h-90z" fill="#f1e4c8"/>
        ${[60, 160, 260].map((y) => `<rect x="20" y="${y}" width="40" height="56" rx="3" fill="#7b6d8d" opacity=".45"/><rect x="340" y="${y + 20}" width="40" height="56" rx="3" fill="#7b6d8d" opacity=".45"/>`).join('')}
        ${line(80, 16, 4, 2)}${line(190, 22, 5, 6)}${line(300, 14, 4, 8)}`;
    },
    fallback([a, b, c], id) {
      return `<defs><linearGradient id="${id}g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
        <rect width="400" height="400" fill="url(#${id}g)"/><circle cx="140" cy="150" r="80" fill="${c}" opacity=".25"/><circle cx="270" cy="260" r="110" fill="#fff" opacity=".15"/>`;
    },
  };
  const DEFAULT_PALETTE = ['#e9e4f0', '#b8a9d9', '#4b3f72'];

  // Each scene is drawn once per post as a standalone SVG document and reused as an image.
  hooks.mediaArt = (p) => {
    if (!p.media) return null;
    if (artCache.has(p.id)) return artCache.get(p.id);
    const pal = [0, 1, 2].map((i) => {
      const col = p.media.palette?.[i];
      return /^#[0-9a-f]{3,8}$/i.test(col || '') ? col : DEFAULT_PALETTE[i];
    });
    const scene = SCENES[p.media.scene] || SCENES.fallback;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">${scene(pal, 'g')}</svg>`;
    const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.replace(/\s*\n\s*/g, ''))}`;
    artCache.set(p.id, url);
    return url;
  };
  /* @end media-art */

  // ------------------------------------------------------------ compact numbers
  /* @feature format-count */
  hooks.formatCount = (n) => {
    const unit = (value, div, suffix) => {
      const r = Math.round(value / (div / 10)) / 10;
      return `${String(r).replace(/\.0$/, '')}${suffix}`;
    };
    if (n < 1000) return String(n);
    if (n < 999950) return unit(n, 1000, 'k');
    return unit(n, 1000000, 'M');
  };
  /* @end format-count */
  /* @broken format-count */
  hooks.formatCount = (n) => {
    if (n < 1000) return String(n);
    if (n < 1000000) return `${String(Math.floor(n / 100) / 10).replace(/\.0$/, '')}k`;
    return `${String(Math.floor(n / 100000) / 10).replace(/\.0$/, '')}M`;
  };
  /* @end format-count */

  // ------------------------------------------------------------ post card
  function postCard(p, lazy = false) {
    const u = userOf(p.authorId);
    const where = [u.location, when(p.createdAt)].filter(Boolean);
    return `<article class="post" aria-label="Post by ${esc(u.name || 'an unknown account')}" data-post="${esc(p.id)}">
      <header class="post-head">
        ${u.missing || !u.handle ? avatarHTML(u) : `<a href="${profileHref(u)}" class="avatar-link" tabindex="-1" aria-hidden="true">${avatarHTML(u)}</a>`}
        <div class="post-who">
          <div class="post-line1">${nameHTML(u)}${u.verified ? ICON.verified : ''}${u.handle && !u.missing ? `<span class="handle">@${esc(u.handle)}</span>` : ''}</div>
          <div class="post-line2">${where.map((w, i) => (i === where.length - 1 ? `<time datetime="${esc(p.createdAt)}">${esc(w)}</time>` : `<span>${esc(w)}</span>`)).join('<span class="dot-sep" aria-hidden="true">·</span>')}</div>
        </div>
      </header>
      <div class="post-media" data-media="${esc(p.id)}">${mediaHTML(p, lazy)}<span class="heart-pop" aria-hidden="true">${ICON.heart}</span></div>
      <div class="post-actions">
        <button type="button" class="icon-btn like-btn" data-action="like" data-id="${esc(p.id)}" aria-label="Like" aria-pressed="${isLiked(p)}">${ICON.heart}</button>
        ${hooks.commentLine?.(p) ?? ''}
        <span class="spacer"></span>
        <button type="button" class="icon-btn save-btn" data-action="save" data-id="${esc(p.id)}" aria-label="Save" aria-pressed="${isSaved(p)}">${ICON.bookmark}</button>
      </div>
      <p class="likes" data-likes="${esc(p.id)}">${esc(likesText(p))}</p>
      ${hooks.captionHTML?.(p, u) ?? ''}
    </article>`;
  }

  /* @feature comment-count */
  hooks.commentLine = (p) => `<span class="comment-count">${ICON.comment}<span>${esc(countLabel(p.commentCount, 'comment', 'comments'))}</span></span>`;
  /* @end comment-count */

  /* @feature card-caption */
  hooks.captionHTML = (p, u) => {
    const tags = (p.tags || []).map((t) => `<a class="tag" href="#/explore?tag=${encodeURIComponent(t)}">#${esc(t)}</a>`).join(' ');
    const who = u.missing || !u.handle ? '' : `<a class="cap-handle" href="${profileHref(u)}">${esc(u.handle)}</a> `;
    if (!p.caption && !tags) return '';
    return `<div class="caption"><p>${who}${esc(p.caption || '')}</p>${tags ? `<p class="tags">${tags}</p>` : ''}</div>`;
  };
  /* @end card-caption */

  function refreshPost(id) {
    const p = postById(id);
    if (!p) return;
    document.querySelectorAll('[data-action="like"]').forEach((b) => {
      if (b.dataset.id === id) b.setAttribute('aria-pressed', String(isLiked(p)));
    });
    document.querySelectorAll('[data-action="save"]').forEach((b) => {
      if (b.dataset.id === id) b.setAttribute('aria-pressed', String(isSaved(p)));
    });
    document.querySelectorAll('[data-likes]').forEach((el) => {
      if (el.dataset.likes === id) el.textContent = likesText(p);
    });
  }

  // ------------------------------------------------------------ liking
  /* @feature like-toggle */
  hooks.toggleLike = (id, force) => {
    const p = postById(id);
    if (!p) return;
    const next = force === undefined ? !isLiked(p) : force;
    if (next === isLiked(p)) return;
    S.local.likes[id] = next;
    persist();
    refreshPost(id);
    if (next) document.querySelectorAll('[data-action="like"]').forEach((b) => {
      if (b.dataset.id === id) { b.classList.remove('bump'); void b.offsetWidth; b.classList.add('bump'); }
    });
  };
  /* @end like-toggle */
  /* @broken like-toggle */
  hooks.toggleLike = (id, force) => {
    const p = postById(id);
    if (!p) return;
    const next = force === undefined ? !isLiked(p) : force;
    if (next === isLiked(p)) return;
    S.local.likes[id] = next;
    refreshPost(id);
  };
  /* @end like-toggle */

  /* @feature dblclick-like */
  hooks.ignoreRepeatClick = (e) => e.detail > 1;
  hooks.photoDoubleClick = (id, mediaEl) => {
    hooks.toggleLike?.(id, true);
    const pop = mediaEl.querySelector('.heart-pop');
    if (pop) { pop.classList.remove('show'); void pop.offsetWidth; pop.classList.add('show'); }
  };
  /* @end dblclick-like */
  /* @broken dblclick-like */
  hooks.ignoreRepeatClick = (e) => e.detail > 1;
  hooks.photoDoubleClick = (id, mediaEl) => {
    hooks.toggleLike?.(id);
    const pop = mediaEl.querySelector('.heart-pop');
    if (pop) { pop.classList.remove('show'); void pop.offsetWidth; pop.classList.add('show'); }
  };
  /* @end dblclick-like */

  // ------------------------------------------------------------ saving
  /* @feature save-toggle */
  hooks.toggleSave = (id) => {
    const p = postById(id);
    if (!p) return;
    const next = !isSaved(p);
    S.local.saves[id] = { saved: next, at: Date.now() };
    persist();
    refreshPost(id);
    toast(next ? 'Saved to your collection' : 'Removed from saved');
  };
  /* @end save-toggle */
  /* @broken save-toggle */
  hooks.toggleSave = (id) => {
    const p = postById(id);
    if (!p) return;
    const next = !isSaved(p);
    S.local.saves[id] = { saved: next, at: 0 };
    persist();
    refreshPost(id);
    toast(next ? 'Saved to your collection' : 'Removed from saved');
  };
  /* @end save-toggle */

  // ------------------------------------------------------------ feed
  function tagStats() {
    const counts = new Map();
    for (const p of allPosts()) for (const t of p.tags || []) counts.set(t, (counts.get(t) || 0) + 1);
    return [...counts.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
  }

  function renderFeed() {
    const posts = allPosts();
    const others = S.users.filter((u) => !isMe(u));
    app.innerHTML = `<div class="page feed-page">
      <section class="feed-col" aria-labelledby="feed-title">
        <h1 class="page-title" id="feed-title">Feed</h1>
        <div class="feed-list">${posts.length ? posts.map((p, i) => postCard(p, i > 1)).join('') : '<div class="empty"><p>No posts yet.</p></div>'}</div>
      </section>
      <aside class="side" aria-label="Suggestions">
        <div class="side-card me-card">
          ${avatarHTML(S.me, 'lg')}
          <div><a class="name" href="#/profile">${esc(S.me.name)}</a><div class="handle">@${esc(S.me.handle)}</div></div>
        </div>
        <div class="side-card">
          <h2 class="side-title">People on Glimpse</h2>
          <ul class="people">${others.map((u) => `<li>${avatarHTML(u, 'sm')}<div><a class="name" href="${profileHref(u)}">${esc(u.name)}</a><div class="muted small">@${esc(u.handle)}</div></div></li>`).join('')}</ul>
        </div>
        <div class="side-card">
          <h2 class="side-title">Trending tags</h2>
          <p class="trending">${tagStats().slice(0, 8).map(([t]) => `<a class="tag-pill" href="#/explore?tag=${encodeURIComponent(t)}">#${esc(t)}</a>`).join('')}</p>
        </div>
        <p class="side-foot">© 2025 Glimpse · Made for people who notice things</p>
      </aside>
    </div>`;
  }

  function renderPost(id) {
    const p = postById(id);
    if (!p) {
      renderNotFound('post');
      return;
    }
    const u = userOf(p.authorId);
    app.innerHTML = `<div class="page post-page">
      <a class="back-link" href="#/feed">${ICON.back}Back to feed</a>
      <h1 class="sr-only">Post by ${esc(u.name || 'an unknown account')}</h1>
      ${postCard(p)}
    </div>`;
  }

  function renderNotFound(kind) {
    app.innerHTML = hooks.notFound?.(kind) ?? '<div class="page"></div>';
  }

  // ------------------------------------------------------------ explore
  function tileHTML(p) {
    return `<li class="tile"><a class="tile-link" href="#/p/${encodeURIComponent(p.id)}">${mediaHTML(p, true)}<span class="tile-over" aria-hidden="true"><span>${ICON.heart}${esc(fmtCount(likeCount(p)))}</span><span>${ICON.comment}${esc(fmtCount(p.commentCount))}</span></span></a></li>`;
  }

  function exploreList() {
    let list = allPosts();
    if (S.explore.tag && hooks.filterTag) list = hooks.filterTag(list, S.explore.tag);
    if (S.explore.q.trim() && hooks.search) list = hooks.search(list, S.explore.q);
    return list;
  }

  function renderExplore(params) {
    if (params && params.has('tag')) hooks.selectTag?.(params.get('tag') || '');
    app.innerHTML = `<div class="page explore-page">
      <div class="page-head"><h1 class="page-title">Explore</h1><p class="muted">Photos from everyone on Glimpse</p></div>
      <div class="toolbar">
        <label class="search">${ICON.search}<span class="sr-only">Search posts</span>
          <input type="search" id="explore-search" placeholder="Search captions, tags or people" value="${esc(S.explore.q)}" autocomplete="off">
        </label>
        <div id="tag-bar"></div>
      </div>
      <p class="result-count" id="result-count" aria-live="polite"></p>
      <div id="explore-results"></div>
    </div>`;
    renderExploreResults();
  }

  function renderExploreResults() {
    const bar = document.getElementById('tag-bar');
    const out = document.getElementById('explore-results');
    const count = document.getElementById('result-count');
    if (!bar || !out || !count) return;
    bar.innerHTML = hooks.tagChips?.() ?? '';
    const list = exploreList();
    count.textContent = plural(list.length, 'post', 'posts');
    out.innerHTML = list.length
      ? `<ul class="grid" aria-label="Explore results">${list.map(tileHTML).join('')}</ul>`
      : `<div class="empty"><div class="empty-icon">${ICON.search}</div><h2>No posts match your search</h2><p class="muted">Try another word or tag.</p><button type="button" class="btn" data-action="clear-filters">Clear filters</button></div>`;
  }

  /* @feature explore-tags */
  hooks.tagChips = () => {
    const chip = (tag, label) => `<button type="button" class="chip-btn" data-action="tag" data-tag="${esc(tag)}" aria-pressed="${S.explore.tag === tag}">${esc(label)}</button>`;
    return `<div class="chip-row" role="group" aria-label="Filter by tag">${chip('', 'All')}${tagStats().map(([t]) => chip(t, `#${t}`)).join('')}</div>`;
  };
  hooks.filterTag = (list, tag) => list.filter((p) => (p.tags || []).includes(tag));
  hooks.selectTag = (tag) => {
    S.explore.tag = String(tag || '').replace(/^#/, '').toLowerCase();
  };
  /* @end explore-tags */
  /* @broken explore-tags */
  hooks.tagChips = () => {
    const chip = (tag, label) => `<button type="button" class="chip-btn" data-action="tag" data-tag="${esc(tag)}" aria-pressed="${S.explore.tag === tag}">${esc(label)}</button>`;
    return `<div class="chip-row" role="group" aria-label="Filter by tag">${chip('', 'All')}${tagStats().map(([t]) => chip(t, `#${t}`)).join('')}</div>`;
  };
  hooks.filterTag = (list, tag) => list.filter((p) => (p.tags || []).includes(tag));
  hooks.selectTag = (tag) => {
    if (tag) S.explore.tag = String(tag).replace(/^#/, '').toLowerCase();
  };
  /* @end explore-tags */

  /* @feature explore-search */
  hooks.search = (list, q) => {
    const needle = q.trim().toLowerCase();
    return list.filter((p) => {
      const u = userOf(p.authorId);
      return [p.caption, ...(p.tags || []), u.name, u.handle].some((f) => String(f || '').toLowerCase().includes(needle));
    });
  };
  /* @end explore-search */
  /* @broken explore-search */
  hooks.search = (list, q) => {
    const needle = q.trim().toLowerCase();
    return list.filter((p) => [p.caption, ...(p.tags || [])].some((f) => String(f || '').toLowerCase().includes(needle)));
  };
  /* @end explore-search */

  // ------------------------------------------------------------ publish
  function renderPublish() {
    const d = S.draft;
    app.innerHTML = `<div class="page publish-page">
      <div class="page-head"><h1 class="page-title">New post</h1><p class="muted">Share a photo with your followers</p></div>
      <form class="publish-card" id="publish-form" novalidate>
        <div class="publish-photo">
          <input type="file" id="photo-input" class="file-input" accept="image/*" aria-label="Photo">
          <div id="photo-pane"></div>
        </div>
        <div class="publish-details">
          <div class="who">${avatarHTML(S.me)}<div><div class="name">${esc(S.me.name)}</div><div class="muted small">@${esc(S.me.handle)}</div></div></div>
          <div class="field">
            <div class="field-top"><label for="caption">Caption</label>${hooks.captionCounter?.(d.caption) ?? ''}</div>
            <textarea id="caption" rows="7" placeholder="Write a caption…">${esc(d.caption)}</textarea>
            <p class="field-error" id="caption-error" role="alert">${esc(d.captionError)}</p>
          </div>
          <div class="field">
            <label for="tags">Tags</label>
            <input type="text" id="tags" placeholder="travel, sunset" value="${esc(d.tags)}" autocomplete="off">
            <p class="hint">Separate tags with commas or spaces — up to ${MAX_TAGS}.</p>
            <div id="tag-chips"></div>
          </div>
          <div class="form-actions">
            <button type="button" class="btn" data-action="discard">Discard</button>
            <button type="submit" class="btn primary">Publish</button>
          </div>
        </div>
      </form>
    </div>`;
    renderPhotoPane();
    renderTagChips();
    hooks.bindCaptionCounter?.(document.getElementById('caption'));
  }

  function renderPhotoPane() {
    const pane = document.getElementById('photo-pane');
    if (!pane) return;
    const d = S.draft;
    const error = `<p class="field-error" id="photo-error" role="alert">${esc(d.photoError)}</p>`;
    if (d.image) {
      pane.innerHTML = (hooks.previewHTML?.(d)
        ?? `<div class="file-chip">${ICON.photo}<span>${esc(d.fileName)}</span></div>`)
        + `<div class="preview-actions"><label class="btn" for="photo-input">Change photo</label><button type="button" class="btn" data-action="remove-photo">Remove photo</button></div>${error}`;
    } else {
      pane.innerHTML = `<label class="dropzone${d.photoError ? ' has-error' : ''}" for="photo-input" id="dropzone">
          <span class="dz-icon">${ICON.photo}</span>
          <strong>Choose a photo</strong>
          <span class="muted">or drag it here</span>
          <span class="hint">JPG, PNG, GIF or WebP · up to 10 MB</span>
        </label>${error}`;
    }
  }

  function renderTagChips() {
    const box = document.getElementById('tag-chips');
    const input = document.getElementById('tags');
    if (box && input) box.innerHTML = hooks.tagChipsHTML?.(parseTags(input.value)) ?? '';
  }

  const readAsDataURL = (file) => new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

  // Large photos are scaled down so that they fit in localStorage.
  function shrink(url) {
    if (url.length < 1500000) return Promise.resolve(url);
    return new Promise((resolve) => {
      const img = new Image();
      img.onload = () => {
        const k = Math.min(1, 1280 / Math.max(img.naturalWidth, img.naturalHeight));
        const canvas = document.createElement('canvas');
        canvas.width = Math.round(img.naturalWidth * k);
        canvas.height = Math.round(img.naturalHeight * k);
        canvas.getContext('2d').drawImage(img, 0, 0, canvas.width, canvas.height);
        resolve(canvas.toDataURL('image/jpeg', 0.85));
      };
      img.onerror = () => resolve(url);
      img.src = url;
    });
  }

  function handleFile(file) {
    if (!file) return;
    const d = S.draft;
    const problem = hooks.checkFile?.(file);
    if (problem) {
      Object.assign(d, { image: null, fileName: '', photoError: problem, pending: null });
      renderPhotoPane();
      return;
    }
    const job = (async () => {
      let url;
      try {
        url = await readAsDataURL(file);
      } catch (e) {
        return { error: 'That file couldn’t be read as an image.' };
      }
      if (hooks.verifyImage && !(await hooks.verifyImage(url))) return { error: 'That file couldn’t be read as an image.' };
      return { url: await shrink(url) };
    })();
    d.pending = job;
    job.then((res) => {
      if (S.draft !== d || d.pending !== job) return;
      d.pending = null;
      if (res.error) Object.assign(d, { image: null, fileName: '', photoError: res.error });
      else Object.assign(d, { image: res.url, fileName: file.name, photoError: '' });
      renderPhotoPane();
    });
  }

  async function submitDraft() {
    const d = S.draft;
    const caption = document.getElementById('caption');
    const tags = document.getElementById('tags');
    if (caption) d.caption = caption.value;
    if (tags) d.tags = tags.value;
    if (d.pending) await d.pending.catch(() => null);
    if (S.draft !== d) return;
    const errors = hooks.validateDraft?.(d) || {};
    if (errors.photo || errors.caption) {
      d.photoError = errors.photo || d.photoError;
      d.captionError = errors.caption || '';
      renderPhotoPane();
      const ce = document.getElementById('caption-error');
      if (ce) ce.textContent = d.captionError;
      (errors.photo ? document.getElementById('dropzone') : caption)?.focus?.();
      return;
    }
    hooks.publish?.(d);
  }

  /* @feature image-preview */
  hooks.previewHTML = (d) => `<figure class="preview"><img src="${esc(d.image)}" alt="Preview of your photo"><figcaption class="muted small">${esc(d.fileName)}</figcaption></figure>`;
  /* @end image-preview */
  /* @broken image-preview */
  hooks.previewHTML = (d) => `<figure class="preview"><img src="${esc(d.fileName)}" alt="Preview of your photo"><figcaption class="muted small">${esc(d.fileName)}</figcaption></figure>`;
  /* @end image-preview */

  /* @feature caption-counter */
  hooks.captionCounter = (text) => `<span class="counter${chars(text) > CAPTION_MAX ? ' over' : ''}" id="caption-counter">${chars(text)} / ${CAPTION_MAX}</span>`;
  hooks.bindCaptionCounter = (textarea) => {
    textarea?.addEventListener('input', () => {
      const el = document.getElementById('caption-counter');
      const n = chars(textarea.value);
      if (el) { el.textContent = `${n} / ${CAPTION_MAX}`; el.classList.toggle('over', n > CAPTION_MAX); }
    });
  };
  /* @end caption-counter */
  /* @broken caption-counter */
  hooks.captionCounter = (text) => `<span class="counter${chars(text) > CAPTION_MAX ? ' over' : ''}" id="caption-counter">${chars(text)} / ${CAPTION_MAX}</span>`;
  hooks.bindCaptionCounter = (textarea) => {
    textarea?.addEventListener('change', () => {
      const el = document.getElementById('caption-counter');
      const n = chars(textarea.value);
      if (el) { el.textContent = `${n} / ${CAPTION_MAX}`; el.classList.toggle('over', n > CAPTION_MAX); }
    });
  };
  /* @end caption-counter */

  /* @feature tag-chips */
  hooks.tagChipsHTML = (tags) => (tags.length
    ? `<ul class="chips" aria-label="Selected tags">${tags.map((t) => `<li class="chip">#${esc(t)}</li>`).join('')}</ul>`
    : '');
  /* @end tag-chips */

  /* @feature file-type-guard */
  hooks.checkFile = (file) => {
    const type = String(file.type || '').toLowerCase();
    if (!type.startsWith('image/')) return `“${file.name}” isn't an image. Choose a JPG, PNG, GIF or WebP file.`;
    if (!/^image\/(png|jpe?g|gif|webp)$/.test(type)) return `“${file.name}” isn't a supported format. Choose a JPG, PNG, GIF or WebP file.`;
    if (file.size > MAX_BYTES) return 'That photo is larger than 10 MB.';
    return '';
  };
  hooks.verifyImage = (url) => new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img.naturalWidth > 0);
    img.onerror = () => resolve(false);
    img.src = url;
  });
  /* @end file-type-guard */

  /* @feature publish-guard */
  hooks.captionError = (text) => (chars(text) > CAPTION_MAX ? 'Captions can be at most 2,200 characters.' : '');
  hooks.validateDraft = (d) => ({
    photo: d.image ? '' : 'Choose a photo to publish.',
    caption: hooks.captionError(d.caption),
  });
  /* @end publish-guard */
  /* @broken publish-guard */
  hooks.captionError = (text) => (chars(text) > CAPTION_MAX + 1 ? 'Captions can be at most 2,200 characters.' : '');
  hooks.validateDraft = (d) => ({
    photo: d.image ? '' : 'Choose a photo to publish.',
    caption: hooks.captionError(d.caption),
  });
  /* @end publish-guard */

  /* @feature publish-post */
  hooks.publish = (d) => {
    const post = {
      id: `up-${Date.now().toString(36)}`,
      authorId: S.me.id,
      createdAt: new Date().toISOString(),
      caption: d.caption.trim(),
      tags: parseTags(d.tags),
      likes: 0,
      commentCount: 0,
      image: d.image,
      fileName: d.fileName,
    };
    S.local.published.unshift(post);
    persist();
    S.draft = emptyDraft();
    toast('Your post is live');
    location.hash = '#/feed';
  };
  /* @end publish-post */
  /* @broken publish-post */
  hooks.publish = (d) => {
    S.posts.unshift({
      id: `up-${Date.now().toString(36)}`,
      authorId: S.me.id,
      createdAt: new Date().toISOString(),
      caption: d.caption.trim(),
      tags: parseTags(d.tags),
      likes: 0,
      commentCount: 0,
      image: d.image,
    });
    S.draft = emptyDraft();
    toast('Your post is live');
    location.hash = '#/feed';
  };
  /* @end publish-post */

  // ------------------------------------------------------------ profile
  // pairs of [value, label], e.g. [['5', 'posts'], ['12.5k', 'followers'], ['1.2k', 'following']]
  function statsHTML(pairs) {
    return `<ul class="stats" aria-label="Profile stats">${pairs.map(([v, label]) => `<li><strong>${esc(v)}</strong> <span>${esc(label)}</span></li>`).join('')}</ul>`;
  }

  function renderProfile(user) {
    const own = isMe(user);
    const bio = bioOf(user);
    const conv = S.conversations.find((c) => c.withUserId === user.id);
    const tab = own ? S.profile.tab : 'posts';
    const actions = own
      ? (hooks.editButton?.() ?? '')
      : (conv ? `<a class="btn" href="#/messages/${encodeURIComponent(conv.id)}">${ICON.chat}Message</a>` : '');
    app.innerHTML = `<div class="page profile-page">
      <section class="hero" aria-label="Profile">
        <div class="hero-avatar">${avatarHTML(user, 'xl')}</div>
        <div class="hero-main">
          <div class="hero-top">
            <h1 class="hero-name">${esc(user.name)}</h1>${user.verified ? ICON.verified : ''}
            <div class="hero-actions">${actions}</div>
          </div>
          <p class="hero-handle">@${esc(user.handle)}${user.location ? ` <span class="dot-sep" aria-hidden="true">·</span> ${esc(user.location)}` : ''}</p>
          ${hooks.profileStats?.(user) ?? statsHTML([['--', 'posts'], ['--', 'followers'], ['--', 'following']])}
          <p class="bio" id="hero-bio">${bio ? esc(bio) : '<span class="muted">No bio yet</span>'}</p>
          ${own && S.profile.editing ? (hooks.bioEditor?.() ?? '') : ''}
        </div>
      </section>
      <div class="profile-tabs" role="tablist" aria-label="Profile sections">
        <button type="button" role="tab" id="tab-posts" aria-controls="panel-posts" aria-selected="${tab === 'posts'}" data-action="profile-tab" data-tab="posts">Posts</button>
        ${own ? `<button type="button" role="tab" id="tab-saved" aria-controls="panel-saved" aria-selected="${tab === 'saved'}" data-action="profile-tab" data-tab="saved">Saved</button>` : ''}
      </div>
      <div role="tabpanel" id="panel-${tab}" aria-labelledby="tab-${tab}" class="tab-panel">
        ${tab === 'saved' ? savedGridHTML() : (hooks.profileGrid?.(user) ?? '')}
      </div>
    </div>`;
  }

  function savedGridHTML() {
    const list = savedPosts();
    return list.length
      ? `<ul class="grid" aria-label="Saved posts">${list.map(tileHTML).join('')}</ul>`
      : `<div class="empty"><div class="empty-icon">${ICON.bookmark}</div><h2>Nothing saved yet</h2><p class="muted">Tap the bookmark on a post to keep it here.</p></div>`;
  }

  /* @feature profile-stats */
  hooks.profileStats = (user) => {
    const posts = postsBy(user).length;
    return statsHTML([
      [fmtCount(posts), posts === 1 ? 'post' : 'posts'],
      [fmtCount(user.followers), num(user.followers) === 1 ? 'follower' : 'followers'],
      [fmtCount(user.following), 'following'],
    ]);
  };
  /* @end profile-stats */
  /* @broken profile-stats */
  hooks.profileStats = (user) => {
    const posts = S.posts.filter((p) => p.authorId === user.id).length;
    return statsHTML([
      [fmtCount(posts), posts === 1 ? 'post' : 'posts'],
      [fmtCount(user.followers), num(user.followers) === 1 ? 'follower' : 'followers'],
      [fmtCount(user.following), 'following'],
    ]);
  };
  /* @end profile-stats */

  /* @feature profile-grid */
  hooks.profileGrid = (user) => {
    const list = postsBy(user);
    return list.length
      ? `<ul class="grid" aria-label="Posts">${list.map(tileHTML).join('')}</ul>`
      : `<div class="empty"><div class="empty-icon">${ICON.photo}</div><h2>No posts yet</h2>${isMe(user) ? '<a class="btn primary" href="#/publish">Share your first photo</a>' : ''}</div>`;
  };
  /* @end profile-grid */

  /* @feature edit-bio */
  hooks.editButton = () => '<button type="button" class="btn" data-action="edit-profile">Edit profile</button>';
  hooks.bioEditor = () => {
    const n = chars(S.profile.bioDraft);
    return `<form class="bio-editor" id="bio-form" aria-label="Edit profile" novalidate>
      <div class="field-top"><label for="bio-input">Bio</label><span class="counter${n > BIO_MAX ? ' over' : ''}" id="bio-counter">${n} / ${BIO_MAX}</span></div>
      <textarea id="bio-input" rows="3" placeholder="Tell people a little about yourself">${esc(S.profile.bioDraft)}</textarea>
      <p class="field-error" id="bio-error" role="alert">${esc(S.profile.bioError)}</p>
      <div class="form-actions"><button type="button" class="btn" data-action="cancel-bio">Cancel</button><button type="submit" class="btn primary">Save</button></div>
    </form>`;
  };
  hooks.openEditor = () => {
    Object.assign(S.profile, { editing: true, bioDraft: currentBio(), bioError: '' });
    renderProfile(S.me);
    const ta = document.getElementById('bio-input');
    if (ta) { ta.focus(); ta.setSelectionRange(ta.value.length, ta.value.length); }
  };
  hooks.closeEditor = () => {
    Object.assign(S.profile, { editing: false, bioError: '' });
    renderProfile(S.me);
  };
  hooks.bioInput = (value) => {
    S.profile.bioDraft = value;
    const n = chars(value);
    const counter = document.getElementById('bio-counter');
    if (counter) { counter.textContent = `${n} / ${BIO_MAX}`; counter.classList.toggle('over', n > BIO_MAX); }
    if (S.profile.bioError && !hooks.bioError?.(value)) {
      S.profile.bioError = '';
      const e = document.getElementById('bio-error');
      if (e) e.textContent = '';
    }
  };
  hooks.saveBio = (value) => {
    const problem = hooks.bioError?.(value);
    if (problem) {
      S.profile.bioError = problem;
      const e = document.getElementById('bio-error');
      if (e) e.textContent = problem;
      document.getElementById('bio-input')?.focus();
      return;
    }
    S.local.bio = value.trim();
    persist();
    Object.assign(S.profile, { editing: false, bioError: '' });
    renderProfile(S.me);
    toast('Profile updated');
  };
  /* @end edit-bio */
  /* @broken edit-bio */
  hooks.editButton = () => '<button type="button" class="btn" data-action="edit-profile">Edit profile</button>';
  hooks.bioEditor = () => `<form class="bio-editor" id="bio-form" aria-label="Edit profile" novalidate>
      <div class="field-top"><label for="bio-input">Bio</label><span class="counter" id="bio-counter">${chars(S.profile.bioDraft)} / ${BIO_MAX}</span></div>
      <textarea id="bio-input" rows="3">${esc(S.profile.bioDraft)}</textarea>
      <p class="field-error" id="bio-error" role="alert">${esc(S.profile.bioError)}</p>
      <div class="form-actions"><button type="button" class="btn" data-action="cancel-bio">Cancel</button><button type="submit" class="btn primary">Save</button></div>
    </form>`;
  hooks.openEditor = () => {
    Object.assign(S.profile, { editing: true, bioDraft: currentBio(), bioError: '' });
    renderProfile(S.me);
  };
  hooks.closeEditor = () => {
    Object.assign(S.profile, { editing: false, bioError: '' });
    renderProfile(S.me);
  };
  hooks.bioInput = (value) => {
    S.profile.bioDraft = value;
    const counter = document.getElementById('bio-counter');
    if (counter) counter.textContent = `${chars(value)} / ${BIO_MAX}`;
  };
  hooks.saveBio = (value) => {
    const problem = hooks.bioError?.(value);
    if (problem) {
      S.profile.bioError = problem;
      const e = document.getElementById('bio-error');
      if (e) e.textContent = problem;
      return;
    }
    S.me.bio = value.trim();
    Object.assign(S.profile, { editing: false, bioError: '' });
    renderProfile(S.me);
    toast('Profile updated');
  };
  /* @end edit-bio */

  /* @feature bio-limit */
  hooks.bioError = (value) => (chars(value.trim()) > BIO_MAX ? 'Bio must be 150 characters or fewer.' : '');
  /* @end bio-limit */
  /* @broken bio-limit */
  hooks.bioError = (value) => (chars(value.trim()) > BIO_MAX + 1 ? 'Bio must be 150 characters or fewer.' : '');
  /* @end bio-limit */

  // ------------------------------------------------------------ notifications
  const isRead = (n) => Boolean(S.local.read[n.id] || n.read);
  const unreadCount = () => S.notifications.filter((n) => !isRead(n)).length;

  function notifSentence(n, actor) {
    const who = `<strong>${esc(actor.name)}</strong>`;
    switch (n.type) {
      case 'like': return `${who} liked your photo.`;
      case 'comment': return `${who} commented: “${esc(n.text || '')}”`;
      case 'follow': return `${who} started following you.`;
      case 'mention': return `${who} mentioned you: “${esc(n.text || '')}”`;
      default: return `${who} interacted with you.`;
    }
  }

  function renderNotifications() {
    const list = [...S.notifications].sort((a, b) => time(b.createdAt) - time(a.createdAt));
    const unread = unreadCount();
    const items = list.map((n) => {
      const actor = userOf(n.actorId);
      const post = n.postId ? postById(n.postId) : null;
      const fresh = !isRead(n);
      return `<li class="notif${fresh && hooks.unreadDot ? ' is-unread' : ''}">
        <span class="dot-slot">${hooks.unreadDot?.(n) ?? ''}</span>
        ${avatarHTML(actor)}
        <button type="button" class="notif-body" data-action="read-notif" data-id="${esc(n.id)}">
          <span class="notif-text">${notifSentence(n, actor)}</span>
          <time class="muted small" datetime="${esc(n.createdAt)}">${esc(when(n.createdAt))}</time>
        </button>
        ${post ? `<a class="notif-thumb" href="#/p/${encodeURIComponent(post.id)}" aria-label="View post"><span aria-hidden="true">${(post.image || hooks.mediaArt?.(post)) ? `<img src="${esc(post.image || hooks.mediaArt?.(post))}" alt="">` : `<span class="thumb-ph" style="background:${esc(post.media?.palette?.[0] || '#ddd')}"></span>`}</span></a>` : ''}
      </li>`;
    }).join('');
    app.innerHTML = `<div class="page notif-page">
      <div class="page-head row">
        <div><h1 class="page-title">Notifications</h1><p class="muted">${unread ? `You have ${plural(unread, 'unread notification', 'unread notifications')}` : 'You’re all caught up'}</p></div>
        ${hooks.markAllButton?.(unread) ?? ''}
      </div>
      ${list.length ? `<ul class="notif-list" aria-label="Notifications">${items}</ul>` : '<div class="empty"><h2>No notifications yet</h2></div>'}
    </div>`;
  }

  /* @feature notif-unread */
  hooks.unreadDot = (n) => (isRead(n) ? '' : '<span class="unread-dot" role="img" aria-label="Unread"></span>');
  hooks.updateChip = () => {
    const chip = document.getElementById('notif-chip');
    if (!chip) return;
    const n = unreadCount();
    chip.hidden = n === 0;
    chip.innerHTML = n ? `${n}<span class="sr-only"> unread</span>` : '';
  };
  /* @end notif-unread */
  /* @broken notif-unread */
  hooks.unreadDot = (n) => (isRead(n) ? '' : '<span class="unread-dot" role="img" aria-label="Unread"></span>');
  hooks.updateChip = () => {
    const chip = document.getElementById('notif-chip');
    if (!chip) return;
    const n = S.notifications.length;
    chip.hidden = n === 0;
    chip.innerHTML = n ? `${n}<span class="sr-only"> unread</span>` : '';
  };
  /* @end notif-unread */

  /* @feature notif-read */
  hooks.markAllButton = (unread) => `<button type="button" class="btn" data-action="read-all"${unread ? '' : ' disabled'}>Mark all as read</button>`;
  hooks.markRead = (id) => {
    if (S.local.read[id]) return;
    S.local.read[id] = true;
    persist();
  };
  hooks.markAllRead = () => {
    S.notifications.forEach((n) => { S.local.read[n.id] = true; });
    persist();
    toast('All notifications marked as read');
  };
  /* @end notif-read */
  /* @broken notif-read */
  hooks.markAllButton = (unread) => `<button type="button" class="btn" data-action="read-all"${unread ? '' : ' disabled'}>Mark all as read</button>`;
  hooks.markRead = (id) => {
    S.local.read[id] = true;
  };
  hooks.markAllRead = () => {
    S.notifications.forEach((n) => { S.local.read[n.id] = true; });
    toast('All notifications marked as read');
  };
  /* @end notif-read */

  // ------------------------------------------------------------ messages
  const convUser = (c) => userOf(c.withUserId);
  const convMessages = (c) => [...(c.messages || []), ...(S.local.sent[c.id] || [])]
    .sort((a, b) => time(a.at) - time(b.at));
  const lastActivity = (c) => {
    const ms = convMessages(c);
    return ms.length ? time(ms[ms.length - 1].at) : 0;
  };
  const convUnread = (c) => (S.local.opened[c.id] ? 0 : num(c.unread));

  function convItem(c, activeId) {
    const u = convUser(c);
    const ms = convMessages(c);
    const last = ms[ms.length - 1];
    const preview = last ? `${last.from === S.me.id ? 'You: ' : ''}${last.text}` : 'No messages yet';
    const unread = convUnread(c);
    return `<li><a class="conv${c.id === activeId ? ' active' : ''}${unread ? ' has-unread' : ''}" href="#/messages/${encodeURIComponent(c.id)}"${c.id === activeId ? ' aria-current="true"' : ''}>
      ${avatarHTML(u)}
      <span class="conv-main">
        <span class="conv-top"><span class="conv-name">${esc(u.name)}</span><time class="muted small">${esc(last ? shortWhen(last.at) : '')}</time></span>
        <span class="conv-preview">${esc(preview)}</span>
      </span>
      ${unread ? `<span class="conv-unread">${unread}<span class="sr-only"> unread</span></span>` : ''}
    </a></li>`;
  }

  function renderMessages(activeId) {
    const convs = [...S.conversations].sort((a, b) => lastActivity(b) - lastActivity(a));
    const active = convs.find((c) => c.id === activeId) || null;
    if (active && !S.local.opened[active.id] && num(active.unread)) {
      S.local.opened[active.id] = true;
      persist();
    }
    let thread = `<div class="thread-empty">${ICON.chat}<h2>Select a conversation</h2><p class="muted">Choose someone on the left to read and reply.</p></div>`;
    if (active) {
      const u = convUser(active);
      const closed = hooks.threadClosed?.(active);
      thread = `<section class="thread" aria-label="Conversation with ${esc(u.name || 'an unknown account')}">
        <header class="thread-head">
          <a class="back-link narrow-only" href="#/messages">${ICON.back}<span class="sr-only">All conversations</span></a>
          ${avatarHTML(u)}<div><h2 class="thread-name">${esc(u.name)}</h2>${u.handle && !u.missing ? `<a class="muted small" href="${profileHref(u)}">@${esc(u.handle)}</a>` : ''}</div>
        </header>
        <ol class="bubbles" aria-label="Messages" id="bubbles">
          ${convMessages(active).map((m) => bubbleHTML(m)).join('')}
        </ol>
        ${closed || `<form class="composer" id="msg-form" data-conv="${esc(active.id)}" novalidate>
          <label for="msg-input" class="sr-only">Message</label>
          <input type="text" id="msg-input" placeholder="Write a message…" autocomplete="off">
          <button type="submit" class="btn primary send">${ICON.send}<span>Send</span></button>
          <p class="field-error composer-error" id="msg-error" role="alert">${esc(S.msg.error)}</p>
        </form>`}
      </section>`;
    }
    app.innerHTML = `<div class="page messages-page${active ? ' has-thread' : ''}">
      <div class="page-head"><h1 class="page-title">Messages</h1></div>
      <div class="dm">
        <div class="dm-list">
          <ul class="convs" aria-label="Conversations">${convs.map((c) => convItem(c, activeId)).join('')}</ul>
        </div>
        <div class="dm-thread">${thread}</div>
      </div>
    </div>`;
    const box = document.getElementById('bubbles');
    if (box) box.scrollTop = box.scrollHeight;
  }

  function bubbleHTML(m) {
    const mine = m.from === S.me.id;
    return `<li class="bubble-row${mine ? ' mine' : ''}"><div class="bubble">${esc(m.text)}</div><time class="muted small" datetime="${esc(m.at)}">${esc(shortWhen(m.at))}</time></li>`;
  }

  function submitMessage(form) {
    const input = document.getElementById('msg-input');
    if (!input) return;
    const text = input.value;
    const problem = hooks.messageError?.(text);
    const err = document.getElementById('msg-error');
    if (problem) {
      S.msg.error = problem;
      if (err) err.textContent = problem;
      input.focus();
      return;
    }
    S.msg.error = '';
    if (err) err.textContent = '';
    hooks.sendMessage?.(form.dataset.conv, text);
  }

  /* @feature messages-send */
  hooks.sendMessage = (convId, text) => {
    (S.local.sent[convId] ||= []).push({ id: `m-${Date.now().toString(36)}`, from: S.me.id, at: new Date().toISOString(), text: text.trim() });
    persist();
    renderMessages(convId);
    document.getElementById('msg-input')?.focus();
  };
  /* @end messages-send */
  /* @broken messages-send */
  hooks.sendMessage = (convId, text) => {
    const box = document.getElementById('bubbles');
    if (box) {
      box.insertAdjacentHTML('beforeend', bubbleHTML({ from: S.me.id, at: new Date().toISOString(), text: text.trim() }));
      box.scrollTop = box.scrollHeight;
    }
    const input = document.getElementById('msg-input');
    if (input) { input.value = ''; input.focus(); }
  };
  /* @end messages-send */

  /* @feature message-guard */
  hooks.messageError = (text) => (text.trim() ? '' : 'Type a message before sending.');
  /* @end message-guard */
  /* @broken message-guard */
  hooks.messageError = (text) => (text.length ? '' : 'Type a message before sending.');
  /* @end message-guard */

  // ------------------------------------------------------------ missing and deleted records
  /* @feature unknown-user */
  hooks.unknownUser = (id) => ({ id, name: 'Unknown user', handle: '', bio: '', missing: true, followers: 0, following: 0 });
  /* @end unknown-user */

  /* @feature deleted-thread */
  hooks.threadClosed = (c) => (convUser(c).missing
    ? `<p class="thread-closed" role="note">${ICON.ghost}<span>This account is no longer available. You can’t reply to this conversation.</span></p>`
    : '');
  /* @end deleted-thread */

  /* @feature not-found */
  hooks.notFound = (kind) => `<div class="page">
      <div class="empty big">
        <div class="empty-icon">${ICON.ghost}</div>
        <h1 class="page-title">${kind === 'user' ? 'User not found' : 'Post not found'}</h1>
        <p class="muted">${kind === 'user' ? 'This account doesn’t exist or has been deleted.' : 'This post doesn’t exist or has been removed.'}</p>
        <a class="btn primary" href="#/feed">Back to feed</a>
      </div>
    </div>`;
  /* @end not-found */

  // ------------------------------------------------------------ header
  /* @feature tab-active */
  hooks.markActiveTab = (tab) => {
    document.querySelectorAll('.tabs [data-tab]').forEach((a) => {
      const on = a.dataset.tab === tab;
      a.classList.toggle('active', on);
      if (on) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    });
  };
  /* @end tab-active */
  /* @broken tab-active */
  hooks.markActiveTab = () => {
    document.querySelectorAll('.tabs [data-tab]').forEach((a) => {
      const on = a.getAttribute('href') === location.hash;
      a.classList.toggle('active', on);
      if (on) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    });
  };
  /* @end tab-active */

  function renderMeLink() {
    const el = document.getElementById('me-link');
    if (el && S.me) el.innerHTML = avatarHTML(S.me, 'sm');
  }

  // ------------------------------------------------------------ router
  function parseHash() {
    const h = location.hash.replace(/^#\/?/, '');
    const [path, query = ''] = h.split('?');
    const parts = path.split('/').filter(Boolean).map((s) => {
      try { return decodeURIComponent(s); } catch (e) { return s; }
    });
    return { parts, params: new URLSearchParams(query) };
  }

  function route() {
    const { parts, params } = parseHash();
    const [head, arg] = parts;
    let tab = 'feed';
    if (head !== 'profile' && head !== 'u') S.profile.editing = false;
    if (head !== 'messages') S.msg.error = '';
    switch (head) {
      case 'explore':
        tab = 'explore';
        renderExplore(params);
        break;
      case 'publish':
        tab = 'publish';
        renderPublish();
        break;
      case 'profile':
        tab = 'profile';
        renderProfile(S.me);
        break;
      case 'u': {
        const u = S.users.find((x) => x.handle === arg);
        tab = u && isMe(u) ? 'profile' : 'explore';
        if (u) renderProfile(u);
        else renderNotFound('user');
        break;
      }
      case 'p':
        renderPost(arg);
        break;
      case 'notifications':
        tab = 'notifications';
        renderNotifications();
        break;
      case 'messages':
        tab = 'messages';
        S.msg.error = '';
        renderMessages(arg);
        break;
      default:
        renderFeed();
    }
    hooks.markActiveTab?.(tab);
    hooks.updateChip?.();
    document.title = `${{ feed: 'Feed', explore: 'Explore', publish: 'New post', profile: 'Profile', notifications: 'Notifications', messages: 'Messages' }[tab]} · Glimpse`;
    window.scrollTo(0, 0);
  }

  // ------------------------------------------------------------ events
  document.addEventListener('click', (e) => {
    const el = e.target.closest('[data-action]');
    if (!el || el.disabled) return;
    const id = el.dataset.id;
    switch (el.dataset.action) {
      case 'like':
        if (hooks.ignoreRepeatClick?.(e)) return;
        hooks.toggleLike?.(id);
        break;
      case 'save':
        hooks.toggleSave?.(id);
        break;
      case 'tag':
        hooks.selectTag?.(el.dataset.tag);
        renderExploreResults();
        break;
      case 'clear-filters':
        S.explore.q = '';
        S.explore.tag = '';
        renderExplore();
        break;
      case 'remove-photo':
        Object.assign(S.draft, { image: null, fileName: '', photoError: '', pending: null });
        renderPhotoPane();
        break;
      case 'discard':
        S.draft = emptyDraft();
        renderPublish();
        break;
      case 'edit-profile':
        hooks.openEditor?.();
        break;
      case 'cancel-bio':
        hooks.closeEditor?.();
        break;
      case 'profile-tab':
        S.profile.tab = el.dataset.tab;
        route();
        break;
      case 'read-notif':
        hooks.markRead?.(id);
        renderNotifications();
        hooks.updateChip?.();
        break;
      case 'read-all':
        hooks.markAllRead?.();
        renderNotifications();
        hooks.updateChip?.();
        break;
      case 'retry':
        boot();
        break;
      default:
    }
  });

  document.addEventListener('dblclick', (e) => {
    const media = e.target.closest('[data-media]');
    if (!media) return;
    e.preventDefault();
    hooks.photoDoubleClick?.(media.dataset.media, media);
  });

  document.addEventListener('input', (e) => {
    const t = e.target;
    if (t.id === 'explore-search') {
      S.explore.q = t.value;
      renderExploreResults();
    } else if (t.id === 'caption') {
      S.draft.caption = t.value;
      const msg = hooks.captionError?.(t.value) || '';
      S.draft.captionError = msg;
      const el = document.getElementById('caption-error');
      if (el) el.textContent = msg;
    } else if (t.id === 'tags') {
      S.draft.tags = t.value;
      renderTagChips();
    } else if (t.id === 'bio-input') {
      hooks.bioInput?.(t.value);
    } else if (t.id === 'msg-input' && S.msg.error && t.value.trim()) {
      S.msg.error = '';
      const el = document.getElementById('msg-error');
      if (el) el.textContent = '';
    }
  });

  document.addEventListener('change', (e) => {
    if (e.target.id === 'photo-input') {
      const file = e.target.files && e.target.files[0];
      handleFile(file);
      e.target.value = '';
    }
  });

  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (form.id === 'publish-form') {
      e.preventDefault();
      submitDraft();
    } else if (form.id === 'bio-form') {
      e.preventDefault();
      hooks.saveBio?.(document.getElementById('bio-input')?.value ?? '');
    } else if (form.id === 'msg-form') {
      e.preventDefault();
      submitMessage(form);
    }
  });

  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && S.profile.editing) hooks.closeEditor?.();
    if ((e.key === 'Enter' || e.key === ' ') && e.target.id === 'dropzone') {
      e.preventDefault();
      document.getElementById('photo-input')?.click();
    }
  });

  // drag and drop onto the drop zone
  document.addEventListener('dragover', (e) => {
    const dz = e.target.closest && e.target.closest('#dropzone');
    if (dz) { e.preventDefault(); dz.classList.add('drag'); }
  });
  document.addEventListener('dragleave', (e) => {
    const dz = e.target.closest && e.target.closest('#dropzone');
    if (dz) dz.classList.remove('drag');
  });
  document.addEventListener('drop', (e) => {
    const dz = e.target.closest && e.target.closest('#dropzone');
    if (!dz) return;
    e.preventDefault();
    dz.classList.remove('drag');
    handleFile(e.dataTransfer && e.dataTransfer.files[0]);
  });

  // ------------------------------------------------------------ boot
  async function boot() {
    app.innerHTML = '<div class="loading" role="status"><span class="spinner" aria-hidden="true"></span>Loading Glimpse…</div>';
    try {
      const load = (f) => fetch(`data/${f}.json`).then((r) => {
        if (!r.ok) throw new Error(`${f}: HTTP ${r.status}`);
        return r.json();
      });
      const [u, p, n, c] = await Promise.all(['users', 'posts', 'notifications', 'conversations'].map(load));
      S.users = (Array.isArray(u.users) ? u.users : []).filter((x) => isObj(x) && x.id && x.handle);
      S.usersById = Object.fromEntries(S.users.map((x) => [x.id, x]));
      S.me = S.usersById[u.currentUserId] || S.users[0];
      if (!S.me) throw new Error('no users');
      S.posts = (Array.isArray(p.posts) ? p.posts : []).filter((x) => isObj(x) && x.id);
      S.notifications = (Array.isArray(n.notifications) ? n.notifications : []).filter((x) => isObj(x) && x.id);
      S.conversations = (Array.isArray(c.conversations) ? c.conversations : []).filter((x) => isObj(x) && x.id);
    } catch (err) {
      app.innerHTML = `<div class="page"><div class="empty big" role="alert"><div class="empty-icon">${ICON.ghost}</div><h1 class="page-title">We couldn't load Glimpse</h1><p class="muted">Check your connection and try again.</p><button type="button" class="btn primary" data-action="retry">Retry</button></div></div>`;
      return;
    }
    loadLocal();
    renderMeLink();
    route();
  }

  window.addEventListener('hashchange', route);
  boot();
})();
