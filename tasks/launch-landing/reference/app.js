/* Loomnote 1.0 launch page — plain JS, no dependencies. */
(function () {
  'use strict';

  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
  const SECTION_IDS = ['features', 'pricing', 'compare', 'reviews', 'faq', 'waitlist'];
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
    'September', 'October', 'November', 'December'];
  const reduceMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({
    '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'
  }[c]));
  const setText = (id, text) => { const el = document.getElementById(id); if (el) el.textContent = text; };
  const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
  const round2 = (n) => Math.round((n + Number.EPSILON) * 100) / 100;
  const money = (n) => {
    const v = round2(Number(n));
    const whole = Math.abs(v - Math.round(v)) < 1e-9;
    return '$' + v.toLocaleString('en-US', { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: whole ? 0 : 2 });
  };
  const fmtInt = (n) => Number(n).toLocaleString('en-US');
  const pad2 = (n) => String(n).padStart(2, '0');

  const state = { data: null, billing: 'monthly', slide: 0, slides: [], faqs: [], openFaq: -1 };

  /* ------------------------------------------------------------------ navigation */

  const nav = $('#topnav');
  const navLinks = $$('#nav-links a');
  const menuBtn = $('#menu-btn');
  const linkList = $('#nav-links');

  // Smooth in-page scrolling (time-based, so it takes the same time on slow machines); the nav
  // bar's height is left free above the target.
  function scrollToSection(el) {
    const top = Math.max(0, el.getBoundingClientRect().top + window.scrollY - (nav ? nav.offsetHeight : 0));
    if (reduceMotion) { window.scrollTo(0, top); return; }
    const from = window.scrollY, dist = top - from, dur = 420, t0 = performance.now();
    const step = (now) => {
      const k = Math.min(1, Math.max(0, (now - t0) / dur));
      const e = k < 0.5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2;
      window.scrollTo(0, from + dist * e);
      if (k < 1) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  document.addEventListener('click', (e) => {
    const a = e.target.closest('a[href^="#"]');
    if (!a || a.hasAttribute('data-cta') || e.defaultPrevented) return;
    const id = a.getAttribute('href').slice(1);
    const target = id === 'top' ? document.body : document.getElementById(id);
    if (!target) return;
    e.preventDefault();
    if (id === 'top') window.scrollTo(0, 0); else scrollToSection(target);
    if (location.hash !== '#' + id) history.pushState(null, '', '#' + id);
  });

  function setMenu(open) {
    if (!menuBtn || !linkList) return;
    menuBtn.setAttribute('aria-expanded', String(open));
    linkList.classList.toggle('open', open);
  }

  /* @feature mobile-menu */
  if (menuBtn) {
    menuBtn.addEventListener('click', () => setMenu(menuBtn.getAttribute('aria-expanded') !== 'true'));
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape') setMenu(false); });
    navLinks.forEach((a) => a.addEventListener('click', () => setMenu(false)));
    window.addEventListener('resize', () => { if (window.innerWidth > 760) setMenu(false); });
  }
  /* @end mobile-menu */
  /* @broken mobile-menu */
  if (menuBtn) {
    menuBtn.addEventListener('click', () => setMenu(menuBtn.getAttribute('aria-expanded') !== 'true'));
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape') setMenu(false); });
  }
  /* @end mobile-menu */

  /* @feature active-section */
  function updateActiveSection() {
    if (!nav) return;
    const line = nav.offsetHeight + 8;
    let current = null;
    for (const id of SECTION_IDS) {
      const sec = document.getElementById(id);
      if (sec && sec.getBoundingClientRect().top <= line) current = id;
    }
    navLinks.forEach((a) => {
      if (!a.hasAttribute('data-cta') && current && a.getAttribute('href') === '#' + current) {
        a.setAttribute('aria-current', 'location');
      } else {
        a.removeAttribute('aria-current');
      }
    });
  }
  window.addEventListener('scroll', updateActiveSection, { passive: true });
  window.addEventListener('resize', updateActiveSection);
  document.addEventListener('content:ready', updateActiveSection);
  /* @end active-section */
  /* @broken active-section */
  function updateActiveSection() {
    if (!nav) return;
    const line = nav.offsetHeight + 8;
    let current = null;
    let previous = null;
    for (const id of SECTION_IDS) {
      const sec = document.getElementById(id);
      if (sec && sec.getBoundingClientRect().top <= line) current = previous || id;
      previous = id;
    }
    navLinks.forEach((a) => {
      if (!a.hasAttribute('data-cta') && current && a.getAttribute('href') === '#' + current) {
        a.setAttribute('aria-current', 'location');
      } else {
        a.removeAttribute('aria-current');
      }
    });
  }
  window.addEventListener('scroll', updateActiveSection, { passive: true });
  window.addEventListener('resize', updateActiveSection);
  document.addEventListener('content:ready', updateActiveSection);
  /* @end active-section */

  /* @feature cta-scroll */
  document.addEventListener('click', (e) => {
    const cta = e.target.closest('[data-cta]');
    if (!cta) return;
    e.preventDefault();
    setMenu(false);
    const target = document.getElementById('waitlist');
    if (!target) return;
    scrollToSection(target);
    if (location.hash !== '#waitlist') history.pushState(null, '', '#waitlist');
    const email = document.getElementById('wl-email');
    if (email) email.focus({ preventScroll: true });
  });
  /* @end cta-scroll */
  /* @broken cta-scroll */
  document.addEventListener('click', (e) => {
    const cta = e.target.closest('[data-cta]');
    if (!cta) return;
    e.preventDefault();
    setMenu(false);
    const target = document.getElementById('waitlist');
    if (!target) return;
    scrollToSection(target);
    if (location.hash !== '#waitlist') history.pushState(null, '', '#waitlist');
  });
  /* @end cta-scroll */

  /* ------------------------------------------------------------------ hero */

  function renderHero(d) {
    const h = d.hero || {};
    setText('hero-eyebrow', h.eyebrow || '');
    setText('hero-headline', h.headline || (d.brand && d.brand.tagline) || '');
    setText('hero-sub', h.subhead || '');
    const stats = document.getElementById('hero-stats');
    if (stats) {
      stats.innerHTML = (Array.isArray(h.stats) ? h.stats : [])
        .filter((s) => s && s.value && s.label)
        .map((s) => `<li><strong>${esc(s.value)}</strong><span>${esc(s.label)}</span></li>`).join('');
    }
  }

  /* ------------------------------------------------------------------ countdown */

  function parseIsoDateTime(s) {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(String(s).trim());
    if (!m) return null;
    let iso = String(s).trim().replace(' ', 'T');
    if (!m[4]) iso += 'T00:00:00Z';
    else if (!m[7]) iso += 'Z';
    const t = Date.parse(iso);
    return Number.isFinite(t) ? t : null;
  }

  function referenceNow(d) {
    let now = parseIsoDateTime(d.now);
    if (now === null) now = Date.now();
    /* @feature countdown-now-param */
    const param = new URLSearchParams(location.search).get('now');
    if (param) {
      const t = parseIsoDateTime(param);
      if (t !== null) now = t;
    }
    /* @end countdown-now-param */
    /* @broken countdown-now-param */
    const param = new URLSearchParams(location.search).get('now');
    if (param) now = Date.parse(param);
    /* @end countdown-now-param */
    return now;
  }

  /* @feature countdown */
  function splitDuration(ms) {
    const total = Math.max(0, Math.floor(ms / 1000));
    return {
      days: Math.floor(total / 86400),
      hours: Math.floor((total % 86400) / 3600),
      minutes: Math.floor((total % 3600) / 60),
      seconds: total % 60
    };
  }
  /* @end countdown */
  /* @broken countdown */
  function splitDuration(ms) {
    const total = Math.max(0, Math.floor(ms / 1000));
    return {
      days: Math.ceil(total / 86400),
      hours: Math.floor((total % 86400) / 3600),
      minutes: Math.floor((total % 3600) / 60),
      seconds: total % 60
    };
  }
  /* @end countdown */

  function formatLaunch(t) {
    const d = new Date(t);
    return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} · ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())} UTC`;
  }

  function startCountdown(d) {
    const timer = document.getElementById('countdown');
    const live = document.getElementById('live-banner');
    const launch = parseIsoDateTime(d.launch && d.launch.date);
    if (launch === null) {
      if (timer) timer.hidden = true;
      return;
    }
    setText('launch-date', formatLaunch(launch));
    const now0 = referenceNow(d);
    const started = performance.now();
    const tiles = ['days', 'hours', 'minutes', 'seconds'];
    const labels = { days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' };
    if (timer) {
      timer.innerHTML = tiles.map((k) => `<div class="tile"><span class="num" data-part="${k}">--</span><span class="lbl">${labels[k]}</span></div>`).join('');
    }
    let handle = null;
    const showLive = (keepTimer) => {
      if (live) {
        live.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12l5 5 9-10"/></svg><span>${esc((d.launch && d.launch.liveMessage) || 'We are live!')}</span>`;
        live.hidden = false;
      }
      if (timer && !keepTimer) timer.hidden = true;
      if (handle) clearInterval(handle);
    };
    const tick = () => {
      const elapsed = Math.floor((performance.now() - started) / 1000) * 1000;
      const ms = launch - (now0 + elapsed);
      /* @feature countdown-live */
      if (ms <= 0) { showLive(false); return; }
      /* @end countdown-live */
      /* @broken countdown-live */
      if (ms <= 0) { showLive(true); }
      /* @end countdown-live */
      if (typeof splitDuration !== 'function') { if (timer) timer.hidden = true; return; }
      const parts = splitDuration(ms);
      if (!timer) return;
      tiles.forEach((k) => {
        const el = timer.querySelector(`[data-part="${k}"]`);
        if (el) el.textContent = pad2(parts[k]);
      });
    };
    tick();
    handle = setInterval(tick, 200);
  }

  /* ------------------------------------------------------------------ features */

  const ICONS = {
    link: '<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1"/><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/>',
    graph: '<circle cx="6" cy="6" r="2.5"/><circle cx="18" cy="8" r="2.5"/><circle cx="12" cy="18" r="2.5"/><path d="M8.3 6.6l7.4 1M7.2 8.2l3.7 7.6M16.8 10.2l-3.6 5.6"/>',
    offline: '<path d="M3 3l18 18"/><path d="M8.5 8.6A8 8 0 0 0 5 10.5M12 6a12 12 0 0 1 9 4M2 8.8A15 15 0 0 1 5.5 6.3M15.5 13.4a5 5 0 0 0-1.7-1.1M9 15a4 4 0 0 1 5 0"/><circle cx="12" cy="19" r="1"/>',
    search: '<circle cx="11" cy="11" r="6.5"/><path d="M20 20l-4.2-4.2"/>',
    spark: '<path d="M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5L18 18M6 18l2.5-2.5M15.5 8.5L18 6"/>',
    import: '<path d="M12 3v12M7 10l5 5 5-5"/><path d="M4 17v3h16v-3"/>',
    dot: '<circle cx="12" cy="12" r="4"/>'
  };

  function renderFeatureCards(list) {
    const grid = document.getElementById('feature-grid');
    if (!grid) return;
    grid.innerHTML = list.map((f, i) => {
      const icon = ICONS[f.icon] || ICONS.dot;
      const title = String(f.title || '').trim() || 'Untitled feature';
      return `<article class="feature-card" aria-labelledby="feat-${i}">
        <span class="feature-icon"><svg viewBox="0 0 24 24" aria-hidden="true">${icon}</svg></span>
        <h3 id="feat-${i}">${esc(title)}</h3>
        <p>${esc(f.body || '')}</p>
      </article>`;
    }).join('');
  }

  function renderFeatures(d) {
    const list = (Array.isArray(d.features) ? d.features : []).filter((f) => f && typeof f === 'object');
    /* @feature feature-grid */
    renderFeatureCards(list.filter((f) => String(f.title || '').trim()));
    /* @end feature-grid */
    /* @broken feature-grid */
    renderFeatureCards(list);
    /* @end feature-grid */
  }

  /* ------------------------------------------------------------------ pricing */

  function hasYearly(p) {
    let ok = true;
    /* @feature plan-yearly-guard */
    ok = isNum(p.yearly) && p.yearly >= 0;
    /* @end plan-yearly-guard */
    return ok;
  }

  /* @feature billing-savings */
  function planSavings(p) {
    if (!isNum(p.monthly) || p.monthly <= 0) return null;
    const full = 12 * p.monthly;
    const save = round2(full - Number(p.yearly));
    return { save, pct: Math.round((save / full) * 100) };
  }
  /* @end billing-savings */
  /* @broken billing-savings */
  function planSavings(p) {
    if (!isNum(p.monthly) || p.monthly <= 0) return null;
    const full = 12 * p.monthly;
    const save = round2(full - Number(p.yearly));
    return { save, pct: Math.round((save / Number(p.yearly)) * 100) };
  }
  /* @end billing-savings */

  function getPlans() {
    const plans = (state.data && state.data.pricing && Array.isArray(state.data.pricing.plans)) ? state.data.pricing.plans : [];
    return plans.filter((p) => p && p.id && p.name && isNum(p.monthly));
  }

  function unitSuffix(p) { return p.unit ? `/${p.unit}` : ''; }

  function renderPlans() {
    const box = document.getElementById('plans');
    if (!box) return;
    const yearly = state.billing === 'yearly';
    box.innerHTML = getPlans().map((p) => {
      const hid = `plan-${esc(p.id)}`;
      let price, sub = '', save = '';
      if (yearly && hasYearly(p)) {
        price = `<span class="amount">${money(p.yearly)}</span><span class="per">${esc(unitSuffix(p))}/yr</span>`;
        sub = p.yearly > 0 ? `≈ ${money(round2(p.yearly / 12)).replace(/^\$(\d+)$/, '$$$1.00')} /mo billed yearly` : 'Free forever';
        const s = typeof planSavings === 'function' ? planSavings(p) : null;
        if (s && s.save > 0) save = `<p class="save-line">Save ${money(s.save)} a year (${s.pct}%)</p>`;
      } else {
        price = `<span class="amount">${money(p.monthly)}</span><span class="per">${esc(unitSuffix(p))}/mo</span>`;
        sub = p.monthly === 0 ? 'Free forever' : (yearly ? 'Monthly billing only' : (p.unit ? `Billed monthly per ${esc(p.unit)}` : 'Billed monthly'));
      }
      const highlights = (Array.isArray(p.highlights) ? p.highlights : []).filter(Boolean)
        .map((h) => `<li><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12l5 5 9-10"/></svg>${esc(h)}</li>`).join('');
      return `<article class="plan${p.popular ? ' popular' : ''}" aria-labelledby="${hid}">
        ${p.popular ? '<span class="badge">Most popular</span>' : ''}
        <h3 id="${hid}">${esc(p.name)}</h3>
        <p class="blurb">${esc(p.blurb || '')}</p>
        <p class="price">${price}</p>
        <p class="price-sub">${sub}</p>
        ${save}
        <ul class="highlights">${highlights}</ul>
        <button type="button" class="btn ${p.popular ? 'btn-primary' : 'btn-outline'} btn-block" data-cta>Join waitlist for ${esc(p.name)}</button>
      </article>`;
    }).join('');
  }

  function renderSaveBadge() {
    const badge = document.getElementById('save-badge');
    if (!badge || typeof planSavings !== 'function') return;
    const pcts = getPlans().filter(hasYearly).map(planSavings).filter((s) => s && s.save > 0 && Number.isFinite(s.pct)).map((s) => s.pct);
    if (!pcts.length) { badge.hidden = true; return; }
    badge.textContent = `Save up to ${Math.max(...pcts)}%`;
    badge.hidden = false;
  }

  /* @feature billing-toggle */
  $$('[data-billing]').forEach((btn) => {
    btn.addEventListener('click', () => {
      state.billing = btn.getAttribute('data-billing');
      $$('[data-billing]').forEach((b) => b.setAttribute('aria-pressed', String(b === btn)));
      renderPlans();
      /* @feature compare-sync */
      renderCompare(state.billing);
      /* @end compare-sync */
      /* @broken compare-sync */
      renderCompare();
      /* @end compare-sync */
    });
  });
  /* @end billing-toggle */

  /* ------------------------------------------------------------------ comparison */

  function cellHtml(v) {
    if (v === true) return '<span class="mark yes" aria-hidden="true">✓</span><span class="sr-only">Included</span>';
    if (v === false) return '<span class="mark no" aria-hidden="true">–</span><span class="sr-only">Not included</span>';
    if (v == null || v === '') return '<span class="mark na" aria-hidden="true">—</span><span class="sr-only">Not specified</span>';
    return esc(v);
  }

  function comparePrice(p, billing) {
    if (billing === 'yearly' && hasYearly(p)) return `${money(p.yearly)}/yr`;
    return `${money(p.monthly)}/mo`;
  }

  let compareBilling = 'monthly';
  function renderCompare(billing) {
    const table = document.getElementById('compare-table');
    if (!table || !state.data) return;
    if (billing) compareBilling = billing;
    const plans = getPlans();
    const rows = (state.data.pricing && Array.isArray(state.data.pricing.comparison)) ? state.data.pricing.comparison : [];
    table.tHead.innerHTML = `<tr><th scope="col">Feature</th>${plans.map((p) => `<th scope="col"${p.popular ? ' class="popular"' : ''}>${esc(p.name)}</th>`).join('')}</tr>`;
    const priceRow = `<tr class="price-row"><th scope="row">Price</th>${plans.map((p) => `<td${p.popular ? ' class="popular"' : ''}>${comparePrice(p, compareBilling)}</td>`).join('')}</tr>`;
    const body = rows.filter((r) => r && r.feature).map((r) => {
      const vals = r.values || {};
      return `<tr><th scope="row">${esc(r.feature)}</th>${plans.map((p) => `<td${p.popular ? ' class="popular"' : ''}>${cellHtml(vals[p.id])}</td>`).join('')}</tr>`;
    }).join('');
    table.tBodies[0].innerHTML = priceRow + body;
  }

  /* ------------------------------------------------------------------ testimonials */

  function buildSlides(d) {
    return (Array.isArray(d.testimonials) ? d.testimonials : [])
      .filter((t) => t && typeof t.quote === 'string' && t.quote.trim())
      .map((t) => {
        let author = typeof t.author === 'string' ? t.author.trim() : '';
        /* @feature anon-fallback */
        if (!author) author = 'Anonymous beta tester';
        /* @end anon-fallback */
        const rating = isNum(t.rating) ? Math.min(5, Math.max(1, Math.round(t.rating))) : 5;
        return { quote: t.quote.trim(), author, role: typeof t.role === 'string' ? t.role.trim() : '', rating };
      });
  }

  const STAR = '<path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"/>';

  function initials(name) {
    return name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0].toUpperCase()).join('') || '?';
  }

  function showSlide(i) {
    const n = state.slides.length;
    const fig = document.getElementById('slide');
    if (!fig) return;
    if (!n) {
      fig.innerHTML = '<p class="empty">Reviews from our beta testers will appear here soon.</p>';
      setText('slide-pos', '');
      return;
    }
    state.slide = ((i % n) + n) % n;
    const t = state.slides[state.slide];
    const stars = Array.from({ length: 5 }, (_, k) => `<svg viewBox="0 0 24 24" class="${k < t.rating ? 'on' : ''}" aria-hidden="true">${STAR}</svg>`).join('');
    fig.innerHTML = `<div class="stars" role="img" aria-label="Rated ${t.rating} out of 5">${stars}</div>
      <blockquote><p>${esc(t.quote)}</p></blockquote>
      <figcaption><span class="avatar" aria-hidden="true">${esc(initials(t.author))}</span>
        <span><strong>${esc(t.author)}</strong>${t.role ? `<span class="role">${esc(t.role)}</span>` : ''}</span></figcaption>`;
    setText('slide-pos', `${state.slide + 1} / ${n}`);
    if (typeof updateDots === 'function') updateDots(state.slide);
  }

  /* @feature carousel */
  function stepSlide(delta) {
    const n = state.slides.length;
    if (!n) return;
    showSlide((state.slide + delta + n) % n);
  }
  $('#prev-btn').addEventListener('click', () => stepSlide(-1));
  $('#next-btn').addEventListener('click', () => stepSlide(1));
  /* @end carousel */
  /* @broken carousel */
  function stepSlide(delta) {
    const n = state.slides.length;
    if (!n) return;
    showSlide(Math.min(n - 1, Math.max(0, state.slide + delta)));
  }
  $('#prev-btn').addEventListener('click', () => stepSlide(-1));
  $('#next-btn').addEventListener('click', () => stepSlide(1));
  /* @end carousel */

  /* @feature carousel-dots */
  function buildDots() {
    const box = document.getElementById('dots');
    if (!box) return;
    box.innerHTML = state.slides.map((_, i) => `<button type="button" class="dot" aria-label="Show testimonial ${i + 1}" data-dot="${i}"></button>`).join('');
    $$('[data-dot]', box).forEach((b) => b.addEventListener('click', () => showSlide(Number(b.dataset.dot))));
  }
  function updateDots(i) {
    $$('#dots [data-dot]').forEach((b) => {
      if (Number(b.dataset.dot) === i) b.setAttribute('aria-current', 'true');
      else b.removeAttribute('aria-current');
    });
  }
  /* @end carousel-dots */
  /* @broken carousel-dots */
  function buildDots() {
    const box = document.getElementById('dots');
    if (!box) return;
    box.innerHTML = state.slides.map((_, i) => `<button type="button" class="dot${i === 0 ? '' : ''}" aria-label="Show testimonial ${i + 1}" data-dot="${i}"${i === 0 ? ' aria-current="true"' : ''}></button>`).join('');
    $$('[data-dot]', box).forEach((b) => b.addEventListener('click', () => {
      $$('[data-dot]', box).forEach((x) => x.removeAttribute('aria-current'));
      b.setAttribute('aria-current', 'true');
      showSlide(Number(b.dataset.dot));
    }));
  }
  /* @end carousel-dots */

  /* ------------------------------------------------------------------ FAQ */

  function renderFaq() {
    const list = document.getElementById('faq-list');
    if (!list) return;
    list.innerHTML = state.faqs.map((f, i) => `<div class="faq-item" data-faq="${i}">
        <h3><button type="button" class="faq-q" id="faq-q-${i}" aria-expanded="false" aria-controls="faq-a-${i}">
          <span>${esc(f.q)}</span><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 9l6 6 6-6"/></svg></button></h3>
        <div class="faq-a" id="faq-a-${i}" role="region" aria-labelledby="faq-q-${i}" hidden><p>${esc(f.a)}</p></div>
      </div>`).join('');
  }

  function setFaqOpen(i, open) {
    const item = document.querySelector(`[data-faq="${i}"]`);
    if (!item) return;
    item.querySelector('.faq-q').setAttribute('aria-expanded', String(open));
    item.querySelector('.faq-a').hidden = !open;
    item.classList.toggle('open', open);
  }

  /* @feature faq-accordion */
  document.addEventListener('click', (e) => {
    const q = e.target.closest('.faq-q');
    if (!q) return;
    const i = Number(q.closest('[data-faq]').dataset.faq);
    const opening = q.getAttribute('aria-expanded') !== 'true';
    $$('.faq-item').forEach((it) => setFaqOpen(Number(it.dataset.faq), false));
    if (opening) setFaqOpen(i, true);
  });
  /* @end faq-accordion */
  /* @broken faq-accordion */
  document.addEventListener('click', (e) => {
    const q = e.target.closest('.faq-q');
    if (!q) return;
    const i = Number(q.closest('[data-faq]').dataset.faq);
    setFaqOpen(i, q.getAttribute('aria-expanded') !== 'true');
  });
  /* @end faq-accordion */

  /* @feature faq-search */
  function faqMatches(f, q) {
    return f.q.toLowerCase().includes(q) || f.a.toLowerCase().includes(q);
  }
  /* @end faq-search */
  /* @broken faq-search */
  function faqMatches(f, q) {
    return f.q.toLowerCase().includes(q);
  }
  /* @end faq-search */

  function applyFaqFilter() {
    const input = document.getElementById('faq-q');
    const raw = input ? input.value : '';
    const q = raw.trim().toLowerCase();
    let shown = 0;
    state.faqs.forEach((f, i) => {
      const item = document.querySelector(`[data-faq="${i}"]`);
      if (!item) return;
      const match = !q || (typeof faqMatches === 'function' && faqMatches(f, q));
      item.hidden = !match;
      if (!match) setFaqOpen(i, false);
      if (match) shown++;
    });
    const status = document.getElementById('faq-status');
    if (status) status.textContent = q && shown ? `Showing ${shown} of ${state.faqs.length} questions` : '';
    const empty = document.getElementById('faq-empty');
    if (empty) {
      empty.hidden = !(q && shown === 0);
      setText('faq-empty-text', `No questions match “${raw.trim()}”.`);
    }
  }

  const faqInput = document.getElementById('faq-q');
  if (faqInput) faqInput.addEventListener('input', applyFaqFilter);
  const faqClear = document.getElementById('faq-clear');
  if (faqClear) faqClear.addEventListener('click', () => {
    if (faqInput) { faqInput.value = ''; faqInput.focus(); }
    applyFaqFilter();
  });

  /* ------------------------------------------------------------------ waitlist */

  const form = document.getElementById('waitlist-form');
  const emailInput = document.getElementById('wl-email');
  const nameInput = document.getElementById('wl-name');
  const consentInput = document.getElementById('wl-consent');
  const successBox = document.getElementById('wl-success');
  const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;

  function storageKey() {
    return (state.data && state.data.waitlist && state.data.waitlist.storageKey) || 'loomnote.waitlist';
  }
  function baseCount() {
    const n = state.data && state.data.waitlist && state.data.waitlist.baseCount;
    return isNum(n) && n >= 0 ? Math.floor(n) : 0;
  }

  function readList() {
    const raw = localStorage.getItem(storageKey());
    if (!raw) return [];
    /* @feature storage-guard */
    try {
      const v = JSON.parse(raw);
      return Array.isArray(v) ? v.filter((x) => x && typeof x.email === 'string') : [];
    } catch (err) {
      return [];
    }
    /* @end storage-guard */
    return JSON.parse(raw);
  }
  function saveList(list) {
    try { localStorage.setItem(storageKey(), JSON.stringify(list)); } catch (err) { /* storage full or blocked */ }
  }

  function setFieldError(input, box, msg, kind) {
    if (!input || !box) return;
    box.textContent = msg || '';
    box.hidden = !msg;
    box.classList.toggle('notice', kind === 'notice');
    if (msg && kind !== 'notice') input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
  const emailError = (msg, kind) => setFieldError(emailInput, document.getElementById('wl-email-error'), msg, kind);
  const consentError = (msg) => setFieldError(consentInput, document.getElementById('wl-consent-error'), msg);

  function launchDay() {
    const t = parseIsoDateTime(state.data && state.data.launch && state.data.launch.date);
    if (t === null) return 'launch day';
    const d = new Date(t);
    return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
  }

  function finishSignup(email, name, position) {
    if (successBox) {
      successBox.innerHTML = `<span class="ok-icon" aria-hidden="true"><svg viewBox="0 0 24 24"><path d="M5 12l5 5 9-10"/></svg></span>
        <div><p class="ok-title">You're on the list!</p>
        <p class="ok-pos">You're #${fmtInt(position)} in line.</p>
        <p class="ok-note">${name ? esc(name) + ', w' : 'W'}e'll email ${esc(email)} on ${esc(launchDay())}.</p></div>`;
      successBox.hidden = false;
    }
    if (form) form.reset();
    emailError('');
    consentError('');
    updateWaitingCount();
  }

  function updateWaitingCount() {
    let stored = 0;
    try { stored = readList().length; } catch (err) { stored = 0; }
    const el = document.getElementById('waiting-count');
    if (el) el.innerHTML = `<strong>${fmtInt(baseCount() + stored)}</strong> people are already waiting.`;
  }

  /* @feature signup */
  function completeSignup(email, name, list) {
    list.push({ email, name, at: new Date().toISOString() });
    saveList(list);
    finishSignup(email, name, baseCount() + list.length);
  }
  /* @end signup */
  /* @broken signup */
  function completeSignup(email, name, list) {
    list.push({ email, name, at: new Date().toISOString() });
    saveList(list);
    finishSignup(email, name, baseCount() + 1);
  }
  /* @end signup */

  if (form) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (successBox) successBox.hidden = true;
      const email = emailInput.value.trim();
      const name = nameInput ? nameInput.value.trim() : '';
      let invalid = false;
      /* @feature signup-validation */
      if (!email) { emailError('Enter your email address.'); invalid = true; }
      else if (!EMAIL_RE.test(email)) { emailError('Enter a valid email address, like name@example.com.'); invalid = true; }
      else emailError('');
      /* @end signup-validation */
      /* @broken signup-validation */
      if (!email) { emailError('Enter your email address.'); invalid = true; }
      else if (!email.includes('@')) { emailError('Enter a valid email address, like name@example.com.'); invalid = true; }
      else emailError('');
      /* @end signup-validation */
      /* @feature consent-required */
      if (consentInput && !consentInput.checked) { consentError('Please tick the box so we can email your invite.'); invalid = true; }
      else consentError('');
      /* @end consent-required */
      if (invalid) {
        const first = form.querySelector('[aria-invalid="true"]');
        if (first) first.focus();
        return;
      }
      const normalized = email.toLowerCase();
      const list = readList();
      /* @feature dedupe */
      if (list.some((x) => String(x.email).trim().toLowerCase() === normalized)) {
        emailError(`${normalized} is already on the list — we'll email you on launch day.`, 'notice');
        return;
      }
      /* @end dedupe */
      /* @broken dedupe */
      if (list.some((x) => x.email === email)) {
        emailError(`${email} is already on the list — we'll email you on launch day.`, 'notice');
        return;
      }
      /* @end dedupe */
      if (typeof completeSignup === 'function') completeSignup(normalized, name, list);
    });

    /* @feature signup-validation */
    emailInput.addEventListener('input', () => {
      const box = document.getElementById('wl-email-error');
      if (box && !box.hidden && EMAIL_RE.test(emailInput.value.trim())) emailError('');
    });
    /* @end signup-validation */
    /* @broken signup-validation */
    emailInput.addEventListener('input', () => {
      const box = document.getElementById('wl-email-error');
      if (box && !box.hidden && emailInput.value.includes('@')) emailError('');
    });
    /* @end signup-validation */
    /* @feature consent-required */
    if (consentInput) consentInput.addEventListener('change', () => { if (consentInput.checked) consentError(''); });
    /* @end consent-required */
  }

  /* ------------------------------------------------------------------ boot */

  function render(d) {
    state.data = d;
    renderHero(d);
    startCountdown(d);
    renderFeatures(d);
    renderPlans();
    renderSaveBadge();
    renderCompare('monthly');

    state.slides = buildSlides(d);
    if (typeof buildDots === 'function') buildDots();
    showSlide(0);

    let faqs = (Array.isArray(d.faq) ? d.faq : []).filter((f) => f && typeof f.q === 'string' && f.q.trim())
      .map((f) => ({ q: f.q.trim(), a: typeof f.a === 'string' ? f.a.trim() : '' }));
    /* @feature faq-empty-guard */
    faqs = faqs.filter((f) => f.a);
    /* @end faq-empty-guard */
    state.faqs = faqs;
    renderFaq();
    applyFaqFilter();

    updateWaitingCount();
    setText('footer-tagline', (d.brand && d.brand.tagline) || '');
    const contact = document.getElementById('footer-contact');
    if (contact && d.brand && d.brand.contactEmail) {
      contact.textContent = d.brand.contactEmail;
      contact.href = 'mailto:' + d.brand.contactEmail;
    }
    document.dispatchEvent(new Event('content:ready'));
    // re-apply a deep link (#pricing etc.) now that the sections have their final height
    if (location.hash && location.hash.length > 1) {
      const target = document.getElementById(location.hash.slice(1));
      if (target) target.scrollIntoView({ block: 'start' });
    }
  }

  fetch('data/content.json')
    .then((r) => { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(render)
    .catch((err) => {
      console.error('content.json could not be loaded', err);
      const box = document.getElementById('load-error');
      if (box) box.hidden = false;
    });
})();
