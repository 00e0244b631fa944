/* Willow Creek Community Library — circulation desk (single page, hash routes).
   Routes: #/  #/catalogue  #/desk  #/overdue  #/members  #/member/<id>  #/add-book */
(() => {
  'use strict';

  const STORE_KEY = 'wcl.circulation.v1';
  const POLICY = {
    adult: { label: 'Adult', limit: 5, days: 21 },
    child: { label: 'Child', limit: 3, days: 14 },
    staff: { label: 'Staff', limit: 10, days: 28 },
  };
  const GRACE_DAYS = 2;
  const FEE_PER_DAY = 25;   // cents
  const FEE_CAP = 500;      // cents per loan
  const MAX_RENEWALS = 2;
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

  // Optional behaviours register themselves here; the core calls them with ?.()
  const hooks = {};

  const state = {
    library: 'Willow Creek Community Library',
    today: null,
    books: [],
    members: [],
    loans: [],
    holds: [],
    cat: { q: '', genre: '', availableOnly: false },
    memberQ: '',
    desk: { memberId: '', isbn: '', returnIsbn: '' },
    flash: null,   // {view, kind, html} shown once on the next render of that view
  };

  const view = document.getElementById('view');

  // ------------------------------------------------------------ helpers
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => (
    { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const money = (c) => '$' + (c / 100).toFixed(2);
  const dayNum = (iso) => {
    const [y, m, d] = String(iso).split('-').map(Number);
    return Math.round(Date.UTC(y, m - 1, d) / 86400000);
  };
  const isoOf = (n) => new Date(n * 86400000).toISOString().slice(0, 10);
  const addDays = (iso, n) => isoOf(dayNum(iso) + n);
  const fmtDate = (iso) => {
    if (!iso) return '—';
    const dt = new Date(dayNum(iso) * 86400000);
    return `${MONTHS[dt.getUTCMonth()]} ${dt.getUTCDate()}, ${dt.getUTCFullYear()}`;
  };
  const fmtLongDate = (iso) => `${WEEKDAYS[new Date(dayNum(iso) * 86400000).getUTCDay()]}, ${fmtDate(iso)}`;
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const normIsbn = (s) => String(s ?? '').replace(/[\s-]/g, '');
  const normId = (s) => String(s ?? '').trim().toUpperCase();
  const typeLabel = (m) => POLICY[m.type]?.label || m.type;

  const bookOf = (isbn) => state.books.find((b) => b.isbn === isbn);
  const memberOf = (id) => state.members.find((m) => m.id === id);
  const activeLoans = () => state.loans.filter((l) => !l.returnedDate);
  const loansOf = (memberId) => activeLoans().filter((l) => l.memberId === memberId);
  const outCount = (isbn) => activeLoans().filter((l) => l.isbn === isbn).length;
  const availableOf = (book) => Math.max(0, (Number(book.copies) || 0) - outCount(book.isbn));
  const holdsFor = (isbn) => state.holds.filter((h) => h.isbn === isbn)
    .sort((a, b) => dayNum(a.placed) - dayNum(b.placed));
  const daysOverdue = (loan) => (loan.returnedDate ? dayNum(loan.returnedDate) : dayNum(state.today))
    - dayNum(loan.dueDate);
  const isOverdue = (loan) => !loan.returnedDate && daysOverdue(loan) > 0;

  function feeInfo(days) {
    if (days <= 0) return { cents: 0, capped: false, grace: false };
    return hooks.fee?.(days) ?? { cents: 0, capped: false, grace: false };
  }
  const loanFee = (loan) => (loan.returnedDate && typeof loan.fee === 'number'
    ? loan.fee : feeInfo(daysOverdue(loan)).cents);

  function titleText(isbn) {
    const b = bookOf(isbn);
    if (b) return b.title;
    return hooks.unknownTitle?.(isbn) ?? isbn;
  }
  function titleHTML(isbn) {
    const b = bookOf(isbn);
    if (b) return `<span class="t-title">${esc(b.title)}</span>`;
    return hooks.unknownTitleHTML?.(isbn) ?? `<span class="t-title">${esc(isbn)}</span>`;
  }
  function emailHTML(m) {
    if (m.email) return `<a href="mailto:${esc(m.email)}">${esc(m.email)}</a>`;
    return hooks.noEmailHTML?.() ?? '';
  }
  function statusChip(m) {
    return m.status === 'suspended'
      ? '<span class="chip chip-bad">Suspended</span>'
      : '<span class="chip chip-ok">Active</span>';
  }
  function dueStatus(loan) {
    const d = daysOverdue(loan);
    if (d > 0) return `<span class="chip chip-bad">${plural(d, 'day', 'days')} overdue</span>`;
    if (d === 0) return '<span class="chip chip-warn">Due today</span>';
    return `<span class="chip chip-soft">Due in ${plural(-d, 'day', 'days')}</span>`;
  }
  function feeLine(loan) {
    const d = daysOverdue(loan);
    const f = feeInfo(d);
    if (d <= 0) return 'No late fee';
    if (f.cents === 0) return f.grace ? 'No late fee (within the 2-day grace period)' : 'No late fee';
    return `Late fee: ${money(f.cents)}${f.capped ? ' (capped at $5.00)' : ''}`;
  }

  function persist() { hooks.save?.(); }
  function setFlash(viewName, kind, html) { state.flash = { view: viewName, kind, html }; }
  function takeFlash(viewName) {
    if (!state.flash || state.flash.view !== viewName) return '';
    const f = state.flash;
    state.flash = null;
    return `<div class="notice notice-${f.kind}" role="${f.kind === 'error' ? 'alert' : 'status'}">${f.html}</div>`;
  }

  // ------------------------------------------------------------ features

  /* @feature persistence */
  hooks.save = () => {
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify({
        books: state.books, members: state.members, loans: state.loans, holds: state.holds,
      }));
    } catch (e) { /* storage full or disabled: keep working in memory */ }
  };
  hooks.load = () => {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
      if (saved && Array.isArray(saved.books) && Array.isArray(saved.loans)) return saved;
    } catch (e) { /* corrupt storage: fall back to the data files */ }
    return null;
  };
  /* @end persistence */
  /* @broken persistence */
  hooks.save = () => {
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify({
        members: state.members, loans: state.loans, holds: state.holds,
      }));
    } catch (e) { /* ignore */ }
  };
  hooks.load = () => {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
      if (saved && Array.isArray(saved.loans)) return saved;
    } catch (e) { /* ignore */ }
    return null;
  };
  /* @end persistence */

  /* @feature fee-rule */
  hooks.fee = (days) => {
    const chargeable = Math.max(0, days - GRACE_DAYS);
    const raw = chargeable * FEE_PER_DAY;
    return { cents: Math.min(raw, FEE_CAP), capped: raw > FEE_CAP, grace: days > 0 && chargeable === 0 };
  };
  /* @end fee-rule */
  /* @broken fee-rule */
  hooks.fee = (days) => {
    const chargeable = Math.max(0, days - GRACE_DAYS);
    return { cents: chargeable * FEE_PER_DAY, capped: false, grace: days > 0 && chargeable === 0 };
  };
  /* @end fee-rule */

  /* @feature unknown-title */
  hooks.unknownTitle = () => 'Unknown title';
  hooks.unknownTitleHTML = (isbn) => `<span class="t-title t-unknown">Unknown title</span>
    <span class="t-sub">ISBN ${esc(isbn)}</span> <span class="chip chip-warn">Not in catalogue</span>`;
  /* @end unknown-title */

  /* @feature no-email */
  hooks.noEmailHTML = () => '<span class="missing">No email on file</span>';
  /* @end no-email */

  // ------------------------------------------------------------ dashboard
  /* @feature counters */
  hooks.counters = () => {
    const onLoan = activeLoans().length;
    const overdue = activeLoans().filter(isOverdue).length;
    const holds = state.holds.length;
    return `<div class="stats">
      <section class="stat" aria-label="On loan"><span class="stat-label">On loan</span><span class="stat-value">${onLoan}</span></section>
      <section class="stat stat-bad" aria-label="Overdue"><span class="stat-label">Overdue</span><span class="stat-value">${overdue}</span></section>
      <section class="stat stat-accent" aria-label="Holds"><span class="stat-label">Holds</span><span class="stat-value">${holds}</span></section>
    </div>`;
  };
  /* @end counters */
  /* @broken counters */
  hooks.counters = () => {
    const onLoan = state.loans.length;
    const overdue = activeLoans().filter(isOverdue).length;
    const holds = state.holds.length;
    return `<div class="stats">
      <section class="stat" aria-label="On loan"><span class="stat-label">On loan</span><span class="stat-value">${onLoan}</span></section>
      <section class="stat stat-bad" aria-label="Overdue"><span class="stat-label">Overdue</span><span class="stat-value">${overdue}</span></section>
      <section class="stat stat-accent" aria-label="Holds"><span class="stat-label">Holds</span><span class="stat-value">${holds}</span></section>
    </div>`;
  };
  /* @end counters */

  /* @feature data-issues */
  hooks.dataIssues = () => {
    const issues = [];
    state.loans.filter((l) => !bookOf(l.isbn)).forEach((l) => {
      issues.push(`Loan ${esc(l.id)} refers to ISBN ${esc(l.isbn)}, which is not in the catalogue.`);
    });
    state.loans.filter((l) => !memberOf(l.memberId)).forEach((l) => {
      issues.push(`Loan ${esc(l.id)} belongs to member ${esc(l.memberId)}, who is not on the member list.`);
    });
    state.members.filter((m) => !m.email).forEach((m) => {
      issues.push(`${esc(m.name)} (${esc(m.id)}) has no email address on file.`);
    });
    state.books.filter((b) => !(Number(b.copies) > 0)).forEach((b) => {
      issues.push(`“${esc(b.title)}” has 0 copies.`);
    });
    return `<section class="card issues" aria-label="Data issues">
      <h2>Data issues</h2>
      ${issues.length
    ? `<ul class="issue-list">${issues.map((i) => `<li>${i}</li>`).join('')}</ul>`
    : '<p class="empty-inline">No data issues found.</p>'}
    </section>`;
  };
  /* @end data-issues */

  function renderDashboard() {
    const soon = activeLoans()
      .map((l) => ({ l, d: dayNum(l.dueDate) - dayNum(state.today) }))
      .filter((x) => x.d >= 0 && x.d <= 7)
      .sort((a, b) => a.d - b.d);
    view.innerHTML = `
      <div class="page-head"><h1>Dashboard</h1>
        <p class="lede">Good to see you at the desk. Here is where things stand today.</p></div>
      ${hooks.counters?.() ?? ''}
      <div class="grid-2">
        <section class="card" aria-label="Due in the next 7 days">
          <h2>Due in the next 7 days</h2>
          ${soon.length ? `<ul class="due-list">${soon.map(({ l, d }) => {
    const m = memberOf(l.memberId);
    return `<li><div>${titleHTML(l.isbn)}<span class="t-sub">${m ? `<a href="#/member/${esc(m.id)}">${esc(m.name)}</a>` : esc(l.memberId)}</span></div>
              <span class="due-when">${d === 0 ? 'Today' : fmtDate(l.dueDate)}</span></li>`;
  }).join('')}</ul>` : '<p class="empty-inline">Nothing is due in the next week.</p>'}
        </section>
        ${hooks.dataIssues?.() ?? ''}
      </div>
      <section class="card quick">
        <h2>Quick actions</h2>
        <div class="quick-links">
          <a class="btn" href="#/desk">Check out or return a book</a>
          <a class="btn btn-ghost" href="#/overdue">Review overdue loans</a>
          <a class="btn btn-ghost" href="#/add-book">Add a donated book</a>
        </div>
      </section>`;
  }

  // ------------------------------------------------------------ catalogue
  /* @feature search */
  hooks.searchBox = () => `<label class="field field-grow"><span class="sr-only">Search catalogue</span>
      <input type="search" id="cat-q" aria-label="Search catalogue" placeholder="Search by title, author or ISBN" value="${esc(state.cat.q)}"></label>`;
  hooks.searchFilter = (rows) => {
    const q = state.cat.q.trim().toLowerCase();
    if (!q) return rows;
    const digits = normIsbn(q);
    return rows.filter((b) => b.title.toLowerCase().includes(q) || b.author.toLowerCase().includes(q)
      || (digits && /^\d+$/.test(digits) && b.isbn.includes(digits)));
  };
  /* @end search */
  /* @broken search */
  hooks.searchBox = () => `<label class="field field-grow"><span class="sr-only">Search catalogue</span>
      <input type="search" id="cat-q" aria-label="Search catalogue" placeholder="Search by title, author or ISBN" value="${esc(state.cat.q)}"></label>`;
  hooks.searchFilter = (rows) => {
    const q = state.cat.q.trim().toLowerCase();
    if (!q) return rows;
    return rows.filter((b) => b.title.toLowerCase().includes(q) || b.author.toLowerCase().includes(q)
      || b.isbn.includes(q));
  };
  /* @end search */

  /* @feature genre-filter */
  hooks.genreSelect = () => {
    const genres = [...new Set(state.books.map((b) => b.genre).filter(Boolean))].sort();
    return `<label class="field"><span class="field-label">Genre</span>
      <select id="cat-genre"><option value="">All genres</option>${genres.map((g) => `<option${g === state.cat.genre ? ' selected' : ''}>${esc(g)}</option>`).join('')}</select></label>`;
  };
  hooks.genreFilter = (rows) => (state.cat.genre ? rows.filter((b) => b.genre === state.cat.genre) : rows);
  /* @end genre-filter */
  /* @broken genre-filter */
  hooks.genreSelect = () => {
    const genres = [...new Set(state.books.map((b) => b.genre).filter(Boolean))].sort();
    return `<label class="field"><span class="field-label">Genre</span>
      <select id="cat-genre"><option value="">All genres</option>${genres.map((g) => `<option${g === state.cat.genre ? ' selected' : ''}>${esc(g)}</option>`).join('')}</select></label>`;
  };
  hooks.genreFilter = (rows) => (state.cat.genre ? sortedBooks().filter((b) => b.genre === state.cat.genre) : rows);
  /* @end genre-filter */

  /* @feature available-toggle */
  hooks.availableToggle = () => `<label class="toggle"><input type="checkbox" id="cat-avail"${state.cat.availableOnly ? ' checked' : ''}> Available only</label>`;
  hooks.availableFilter = (rows) => (state.cat.availableOnly ? rows.filter((b) => availableOf(b) > 0) : rows);
  /* @end available-toggle */
  /* @broken available-toggle */
  hooks.availableToggle = () => `<label class="toggle"><input type="checkbox" id="cat-avail"${state.cat.availableOnly ? ' checked' : ''}> Available only</label>`;
  hooks.availableFilter = (rows) => (state.cat.availableOnly ? rows.filter((b) => Number(b.copies) > 0) : rows);
  /* @end available-toggle */

  /* @feature result-count */
  hooks.resultCount = (n) => `<p class="result-count">${plural(n, 'title', 'titles')}</p>`;
  /* @end result-count */

  /* @feature empty-state */
  hooks.emptyCatalogue = () => `<div class="empty">
      <svg viewBox="0 0 64 64" aria-hidden="true"><rect x="10" y="12" width="14" height="40" rx="2" fill="#d9e6dc"/><rect x="26" y="8" width="12" height="44" rx="2" fill="#c5d9ca"/><rect x="40" y="16" width="14" height="36" rx="2" transform="rotate(8 47 34)" fill="#e8d3a9"/><rect x="6" y="52" width="52" height="4" rx="2" fill="#1f4d3a"/></svg>
      <p class="empty-title">No titles match your search.</p>
      <p class="empty-sub">Try a shorter word, another genre, or switch off “Available only”.</p>
      <button type="button" class="btn btn-ghost" id="cat-clear">Clear filters</button></div>`;
  /* @end empty-state */

  const sortedBooks = () => [...state.books].sort((a, b) => a.title.replace(/^(The|A|An) /, '')
    .localeCompare(b.title.replace(/^(The|A|An) /, '')));

  function availCell(b) {
    const copies = Number(b.copies) || 0;
    const av = availableOf(b);
    const pill = copies === 0 ? '<span class="chip chip-muted">No copies</span>'
      : av === 0 ? '<span class="chip chip-bad">All out</span>'
        : '<span class="chip chip-ok">On shelf</span>';
    return `<span class="avail">${av} / ${copies}</span> ${pill}`;
  }

  function catalogueRows() {
    let rows = sortedBooks();
    rows = hooks.searchFilter?.(rows) ?? rows;
    rows = hooks.availableFilter?.(rows) ?? rows;
    rows = hooks.genreFilter?.(rows) ?? rows;
    return rows;
  }

  function renderCatalogueResults() {
    const box = document.getElementById('cat-results');
    if (!box) return;
    const rows = catalogueRows();
    const table = `<div class="table-wrap"><table class="table" aria-label="Catalogue">
        <thead><tr><th scope="col">Title</th><th scope="col">Author</th><th scope="col">ISBN</th><th scope="col">Genre</th><th scope="col">Year</th><th scope="col">Available</th></tr></thead>
        <tbody>${rows.map((b) => `<tr>
          <td><span class="t-title">${esc(b.title)}</span></td>
          <td>${esc(b.author)}</td>
          <td class="mono">${esc(b.isbn)}</td>
          <td><span class="genre">${esc(b.genre)}</span></td>
          <td>${b.year ? esc(b.year) : '—'}</td>
          <td class="nowrap">${availCell(b)}</td></tr>`).join('')}</tbody></table></div>`;
    box.innerHTML = (hooks.resultCount?.(rows.length) ?? '')
      + (rows.length === 0 && hooks.emptyCatalogue ? hooks.emptyCatalogue() : table);
    document.getElementById('cat-clear')?.addEventListener('click', () => {
      state.cat = { q: '', genre: '', availableOnly: false };
      renderCatalogue();
    });
  }

  function renderCatalogue() {
    view.innerHTML = `
      <div class="page-head"><h1>Catalogue</h1>
        <p class="lede">${plural(state.books.length, 'title', 'titles')} · ${state.books.reduce((s, b) => s + (Number(b.copies) || 0), 0)} copies owned</p></div>
      <div class="toolbar">
        ${hooks.searchBox?.() ?? ''}
        ${hooks.genreSelect?.() ?? ''}
        ${hooks.availableToggle?.() ?? ''}
      </div>
      <div id="cat-results"></div>`;
    document.getElementById('cat-q')?.addEventListener('input', (e) => {
      state.cat.q = e.target.value; renderCatalogueResults();
    });
    document.getElementById('cat-genre')?.addEventListener('change', (e) => {
      state.cat.genre = e.target.value; renderCatalogueResults();
    });
    document.getElementById('cat-avail')?.addEventListener('change', (e) => {
      state.cat.availableOnly = e.target.checked; renderCatalogueResults();
    });
    renderCatalogueResults();
  }

  // ------------------------------------------------------------ circulation desk
  /* @feature desk-validation */
  hooks.deskLookupErrors = ({ memberId, member, isbn, book }) => {
    if (!memberId) fieldError('co-member', 'Enter a member ID.');
    else if (!member) fieldError('co-member', `No member with ID ${esc(memberId)}.`);
    if (!isbn) fieldError('co-isbn', 'Enter an ISBN.');
    else if (!book) fieldError('co-isbn', `No title with ISBN ${esc(isbn)} in the catalogue.`);
  };
  hooks.noLoanError = (isbn) => {
    if (!isbn) fieldError('ret-isbn', 'Enter an ISBN.');
    else fieldError('ret-isbn', `No active loan for ISBN ${esc(isbn)}.`);
  };
  /* @end desk-validation */

  /* @feature checkout-rules */
  hooks.checkoutBlock = (member) => {
    if (member.status === 'suspended') {
      return `${esc(member.name)}'s card is suspended: ${esc(member.suspendedReason || 'no reason recorded')}. Checkout is blocked.`;
    }
    const p = POLICY[member.type] || POLICY.adult;
    const out = loansOf(member.id).length;
    if (out >= p.limit) {
      return `${esc(member.name)} has reached the loan limit for ${p.label} members (${out} of ${p.limit}).`;
    }
    return null;
  };
  /* @end checkout-rules */
  /* @broken checkout-rules */
  hooks.checkoutBlock = (member) => {
    if (member.status === 'suspended') {
      return `${esc(member.name)}'s card is suspended: ${esc(member.suspendedReason || 'no reason recorded')}. Checkout is blocked.`;
    }
    const p = POLICY[member.type] || POLICY.adult;
    const out = loansOf(member.id).length;
    if (out > p.limit) {
      return `${esc(member.name)} has reached the loan limit for ${p.label} members (${out} of ${p.limit}).`;
    }
    return null;
  };
  /* @end checkout-rules */

  /* @feature checkout */
  hooks.createLoan = (member, book) => {
    const p = POLICY[member.type] || POLICY.adult;
    const due = addDays(state.today, p.days);
    state.loans.push({
      id: nextLoanId(), isbn: book.isbn, memberId: member.id, loanDate: state.today,
      dueDate: due, returnedDate: null, renewals: 0,
    });
    const fulfilled = hooks.fulfilHold?.(member, book);
    persist();
    return `Checked out “${esc(book.title)}” to ${esc(member.name)} — due ${fmtDate(due)}.`
      + (fulfilled ? ' Hold fulfilled and removed from the queue.' : '');
  };
  /* @end checkout */
  /* @broken checkout */
  hooks.createLoan = (member, book) => {
    const due = addDays(state.today, 21);
    state.loans.push({
      id: nextLoanId(), isbn: book.isbn, memberId: member.id, loanDate: state.today,
      dueDate: due, returnedDate: null, renewals: 0,
    });
    const fulfilled = hooks.fulfilHold?.(member, book);
    persist();
    return `Checked out “${esc(book.title)}” to ${esc(member.name)} — due ${fmtDate(due)}.`
      + (fulfilled ? ' Hold fulfilled and removed from the queue.' : '');
  };
  /* @end checkout */

  /* @feature holds */
  hooks.holdButton = () => '<button type="button" class="btn btn-small" id="co-hold">Place hold</button>';
  hooks.placeHold = (member, book) => {
    if (state.holds.some((h) => h.isbn === book.isbn && h.memberId === member.id)) {
      return { kind: 'error', html: `${esc(member.name)} already has a hold on this title.` };
    }
    state.holds.push({ id: nextHoldId(), isbn: book.isbn, memberId: member.id, placed: state.today });
    const pos = holdsFor(book.isbn).findIndex((h) => h.memberId === member.id) + 1;
    persist();
    return { kind: 'ok', html: `Hold placed for ${esc(member.name)} on “${esc(book.title)}” — position ${pos} in the queue.` };
  };
  hooks.fulfilHold = (member, book) => {
    const i = state.holds.findIndex((h) => h.isbn === book.isbn && h.memberId === member.id);
    if (i < 0) return false;
    state.holds.splice(i, 1);
    return true;
  };
  /* @end holds */
  /* @broken holds */
  hooks.holdButton = () => '<button type="button" class="btn btn-small" id="co-hold">Place hold</button>';
  hooks.placeHold = (member, book) => {
    if (state.holds.some((h) => h.isbn === book.isbn && h.memberId === member.id)) {
      return { kind: 'error', html: `${esc(member.name)} already has a hold on this title.` };
    }
    state.holds.push({ id: nextHoldId(), isbn: book.isbn, memberId: member.id, placed: state.today });
    const pos = state.holds.filter((h) => h.isbn === book.isbn && h.placed === state.today).length;
    persist();
    return { kind: 'ok', html: `Hold placed for ${esc(member.name)} on “${esc(book.title)}” — position ${pos} in the queue.` };
  };
  hooks.fulfilHold = (member, book) => {
    const i = state.holds.findIndex((h) => h.isbn === book.isbn && h.memberId === member.id);
    if (i < 0) return false;
    state.holds.splice(i, 1);
    return true;
  };
  /* @end holds */

  /* @feature return */
  hooks.confirmReturn = (loan) => {
    const fee = feeInfo(daysOverdue(loan)).cents;
    loan.returnedDate = state.today;
    loan.fee = fee;
    persist();
    const m = memberOf(loan.memberId);
    const next = holdsFor(loan.isbn)[0];
    const nextName = next ? (memberOf(next.memberId)?.name || next.memberId) : null;
    return `Returned “${esc(titleText(loan.isbn))}” from ${esc(m ? m.name : loan.memberId)}. `
      + (fee > 0 ? `Late fee ${money(fee)} added to the account.` : 'No late fee.')
      + (nextName ? ` Next hold: ${esc(nextName)} — put it on the hold shelf.` : '');
  };
  /* @end return */
  /* @broken return */
  hooks.confirmReturn = (loan) => {
    const fee = feeInfo(daysOverdue(loan)).cents;
    const returned = { ...loan, returnedDate: state.today, fee };
    persist();
    const m = memberOf(returned.memberId);
    return `Returned “${esc(titleText(returned.isbn))}” from ${esc(m ? m.name : returned.memberId)}. `
      + (fee > 0 ? `Late fee ${money(fee)} added to the account.` : 'No late fee.');
  };
  /* @end return */

  function nextLoanId() {
    const max = state.loans.reduce((n, l) => Math.max(n, Number(String(l.id).replace(/\D/g, '')) || 0), 0);
    return `L-${String(max + 1).padStart(4, '0')}`;
  }
  function nextHoldId() {
    const max = state.holds.reduce((n, h) => Math.max(n, Number(String(h.id).replace(/\D/g, '')) || 0), 0);
    return `H-${String(max + 1).padStart(3, '0')}`;
  }

  function fieldError(id, html) {
    const input = document.getElementById(id);
    const slot = document.getElementById(`${id}-err`);
    if (input) input.setAttribute('aria-invalid', 'true');
    if (slot) slot.innerHTML = html;
  }
  function clearErrors(root) {
    root.querySelectorAll('.field-error').forEach((e) => { e.innerHTML = ''; });
    root.querySelectorAll('[aria-invalid]').forEach((e) => e.removeAttribute('aria-invalid'));
  }

  function memberPreview(id) {
    const m = memberOf(normId(id));
    if (!m) return '';
    const p = POLICY[m.type] || POLICY.adult;
    return `<span class="who">${esc(m.name)}</span> · ${esc(typeLabel(m))} · ${loansOf(m.id).length} of ${p.limit} loans`
      + (m.status === 'suspended' ? ' · <span class="chip chip-bad">Suspended</span>' : '');
  }

  function renderDesk(params) {
    view.innerHTML = `
      <div class="page-head"><h1>Circulation desk</h1>
        <p class="lede">Scan or type the member card and the book's ISBN. Loan periods: Adult 21 days · Child 14 days · Staff 28 days.</p></div>
      <div class="grid-2 desk">
        <section class="card" aria-label="Check out">
          <h2><span class="step-dot">↗</span> Check out</h2>
          <form id="co-form" novalidate autocomplete="off">
            <label class="field"><span class="field-label">Member ID</span>
              <input id="co-member" placeholder="e.g. M-1001" value="${esc(state.desk.memberId)}" aria-describedby="co-member-err"></label>
            <p class="member-preview" id="co-preview">${memberPreview(state.desk.memberId)}</p>
            <p class="field-error" id="co-member-err"></p>
            <label class="field"><span class="field-label">ISBN</span>
              <input id="co-isbn" placeholder="13-digit ISBN" inputmode="numeric" aria-describedby="co-isbn-err"></label>
            <p class="field-error" id="co-isbn-err"></p>
            <button type="submit" class="btn">Check out</button>
          </form>
          <div id="co-out" class="out"></div>
        </section>
        <section class="card" aria-label="Return">
          <h2><span class="step-dot">↙</span> Return</h2>
          <form id="ret-form" novalidate autocomplete="off">
            <label class="field"><span class="field-label">ISBN</span>
              <input id="ret-isbn" placeholder="ISBN of the returned book" inputmode="numeric" value="${esc(state.desk.returnIsbn)}" aria-describedby="ret-isbn-err"></label>
            <p class="field-error" id="ret-isbn-err"></p>
            <button type="submit" class="btn btn-secondary">Find loan</button>
          </form>
          <div id="ret-out" class="out"></div>
        </section>
      </div>
      <p class="policy-note">Late fees: first ${GRACE_DAYS} days overdue are free, then $0.25 a day, at most $5.00 per loan.</p>`;

    const coForm = document.getElementById('co-form');
    const coOut = document.getElementById('co-out');
    const memberInput = document.getElementById('co-member');
    const isbnInput = document.getElementById('co-isbn');
    memberInput.addEventListener('input', () => {
      state.desk.memberId = memberInput.value;
      document.getElementById('co-preview').innerHTML = memberPreview(memberInput.value);
    });

    coForm.addEventListener('submit', (e) => {
      e.preventDefault();
      clearErrors(coForm);
      coOut.innerHTML = '';
      const memberId = normId(memberInput.value);
      const isbn = normIsbn(isbnInput.value);
      const member = memberOf(memberId);
      const book = bookOf(isbn);
      if (!member || !book) { hooks.deskLookupErrors?.({ memberId, member, isbn, book }); return; }
      const block = hooks.checkoutBlock?.(member);
      if (block) { coOut.innerHTML = `<div class="notice notice-error" role="alert">${block}</div>`; return; }
      if (availableOf(book) <= 0) {
        coOut.innerHTML = `<div class="notice notice-warn" role="alert">
          <p>No copies of “${esc(book.title)}” are available (${availableOf(book)} of ${Number(book.copies) || 0}).</p>
          ${hooks.holdButton?.() ?? ''}</div>`;
        document.getElementById('co-hold')?.addEventListener('click', () => {
          const r = hooks.placeHold?.(member, book);
          if (r) coOut.innerHTML = `<div class="notice notice-${r.kind === 'ok' ? 'ok' : 'error'}" role="${r.kind === 'ok' ? 'status' : 'alert'}">${r.html}</div>`;
        });
        return;
      }
      const msg = hooks.createLoan?.(member, book);
      if (!msg) return;
      coOut.innerHTML = `<div class="notice notice-ok" role="status">${msg}</div>`;
      isbnInput.value = '';
      document.getElementById('co-preview').innerHTML = memberPreview(memberInput.value);
    });

    const retForm = document.getElementById('ret-form');
    const retOut = document.getElementById('ret-out');
    const retInput = document.getElementById('ret-isbn');
    retInput.addEventListener('input', () => { state.desk.returnIsbn = retInput.value; });

    function showPreview(loan) {
      const m = memberOf(loan.memberId);
      const d = daysOverdue(loan);
      retOut.innerHTML = `<section class="preview" aria-label="Return preview">
          <h3>${titleHTML(loan.isbn)}</h3>
          <dl class="kv">
            <dt>Borrower</dt><dd>${m ? `<a href="#/member/${esc(m.id)}">${esc(m.name)}</a> <span class="t-sub">${esc(m.id)}</span>` : esc(loan.memberId)}</dd>
            <dt>Loaned</dt><dd>${fmtDate(loan.loanDate)}</dd>
            <dt>Due</dt><dd>${fmtDate(loan.dueDate)}</dd>
            <dt>Status</dt><dd>${d > 0 ? `<span class="chip chip-bad">${plural(d, 'day', 'days')} overdue</span>` : '<span class="chip chip-ok">Not overdue</span>'}</dd>
          </dl>
          <p class="fee-line ${feeInfo(d).cents > 0 ? 'fee-due' : ''}">${feeLine(loan)}</p>
          <div class="actions"><button type="button" class="btn" id="ret-confirm">Confirm return</button>
            <button type="button" class="btn btn-ghost" id="ret-cancel">Cancel</button></div>
        </section>`;
      document.getElementById('ret-confirm').addEventListener('click', () => {
        const msg = hooks.confirmReturn?.(loan);
        if (!msg) return;
        retOut.innerHTML = `<div class="notice notice-ok" role="status">${msg}</div>`;
        retInput.value = '';
        state.desk.returnIsbn = '';
      });
      document.getElementById('ret-cancel').addEventListener('click', () => { retOut.innerHTML = ''; });
    }

    function findLoans() {
      clearErrors(retForm);
      retOut.innerHTML = '';
      const isbn = normIsbn(retInput.value);
      const loans = activeLoans().filter((l) => l.isbn === isbn);
      if (!isbn || !loans.length) { hooks.noLoanError?.(isbn); return; }
      if (loans.length === 1) { showPreview(loans[0]); return; }
      retOut.innerHTML = `<p class="hint">${loans.length} copies of “${esc(titleText(isbn))}” are out. Which one is being returned?</p>
        <ul class="pick-list">${loans.map((l) => `<li><span>${esc(memberOf(l.memberId)?.name || l.memberId)} · due ${fmtDate(l.dueDate)}</span>
          <button type="button" class="btn btn-small btn-ghost" data-loan="${esc(l.id)}">Select</button></li>`).join('')}</ul>`;
      retOut.querySelectorAll('[data-loan]').forEach((b) => b.addEventListener('click', () => {
        showPreview(state.loans.find((l) => l.id === b.dataset.loan));
      }));
    }
    retForm.addEventListener('submit', (e) => { e.preventDefault(); findLoans(); });

    const pre = params.get('return');
    const preLoan = pre && state.loans.find((l) => l.id === pre && !l.returnedDate);
    if (preLoan) { retInput.value = preLoan.isbn; showPreview(preLoan); }
  }

  // ------------------------------------------------------------ overdue
  /* @feature overdue-list */
  hooks.overdueList = () => {
    const rows = activeLoans().filter(isOverdue)
      .map((l) => ({ l, d: daysOverdue(l), fee: feeInfo(daysOverdue(l)).cents }))
      .sort((a, b) => b.d - a.d);
    if (!rows.length) return '<div class="empty"><p class="empty-title">Nothing is overdue.</p></div>';
    const total = rows.reduce((s, r) => s + r.fee, 0);
    return `<p class="summary"><strong>${plural(rows.length, 'overdue loan', 'overdue loans')}</strong> · ${money(total)} in late fees</p>
      <div class="table-wrap"><table class="table" aria-label="Overdue loans">
      <thead><tr><th scope="col">Title</th><th scope="col">Member</th><th scope="col">Due date</th><th scope="col" class="num">Days overdue</th><th scope="col" class="num">Late fee</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>${rows.map(({ l, d, fee }) => {
    const m = memberOf(l.memberId);
    return `<tr class="${d > 30 ? 'row-severe' : ''}">
        <td>${titleHTML(l.isbn)}</td>
        <td>${m ? `<a href="#/member/${esc(m.id)}">${esc(m.name)}</a>` : esc(l.memberId)}</td>
        <td class="nowrap">${fmtDate(l.dueDate)}</td>
        <td class="num"><span class="days">${d}</span> ${d === 1 ? 'day' : 'days'}</td>
        <td class="num">${money(fee)}</td>
        <td class="nowrap"><a class="btn btn-small btn-ghost" href="#/desk?return=${esc(l.id)}">Return</a></td></tr>`;
  }).join('')}</tbody></table></div>`;
  };
  /* @end overdue-list */
  /* @broken overdue-list */
  hooks.overdueList = () => {
    const rows = activeLoans().filter(isOverdue)
      .map((l) => ({ l, d: daysOverdue(l), fee: feeInfo(daysOverdue(l)).cents }))
      .sort((a, b) => a.d - b.d);
    if (!rows.length) return '<div class="empty"><p class="empty-title">Nothing is overdue.</p></div>';
    const total = rows.reduce((s, r) => s + r.fee, 0);
    return `<p class="summary"><strong>${plural(rows.length, 'overdue loan', 'overdue loans')}</strong> · ${money(total)} in late fees</p>
      <div class="table-wrap"><table class="table" aria-label="Overdue loans">
      <thead><tr><th scope="col">Title</th><th scope="col">Member</th><th scope="col">Due date</th><th scope="col" class="num">Days overdue</th><th scope="col" class="num">Late fee</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>${rows.map(({ l, d, fee }) => {
    const m = memberOf(l.memberId);
    return `<tr class="${d > 30 ? 'row-severe' : ''}">
        <td>${titleHTML(l.isbn)}</td>
        <td>${m ? `<a href="#/member/${esc(m.id)}">${esc(m.name)}</a>` : esc(l.memberId)}</td>
        <td class="nowrap">${fmtDate(l.dueDate)}</td>
        <td class="num"><span class="days">${d}</span> ${d === 1 ? 'day' : 'days'}</td>
        <td class="num">${money(fee)}</td>
        <td class="nowrap"><a class="btn btn-small btn-ghost" href="#/desk?return=${esc(l.id)}">Return</a></td></tr>`;
  }).join('')}</tbody></table></div>`;
  };
  /* @end overdue-list */

  function renderOverdue() {
    view.innerHTML = `
      <div class="page-head"><h1>Overdue loans</h1>
        <p class="lede">Most overdue first. Fees: 2 days' grace, then $0.25 a day, capped at $5.00 per loan.</p></div>
      ${hooks.overdueList?.() ?? ''}`;
  }

  // ------------------------------------------------------------ members
  /* @feature member-search */
  hooks.memberSearchBox = () => `<label class="field field-grow"><span class="sr-only">Search members</span>
      <input type="search" id="mem-q" aria-label="Search members" placeholder="Search by name or member ID" value="${esc(state.memberQ)}"></label>`;
  hooks.memberFilter = (rows) => {
    const q = state.memberQ.trim().toLowerCase();
    return q ? rows.filter((m) => m.name.toLowerCase().includes(q) || m.id.toLowerCase().includes(q)) : rows;
  };
  /* @end member-search */

  /* @feature members-list */
  hooks.membersTable = () => {
    let rows = [...state.members].sort((a, b) => a.id.localeCompare(b.id));
    rows = hooks.memberFilter?.(rows) ?? rows;
    if (!rows.length) return '<div class="empty"><p class="empty-title">No members match your search.</p></div>';
    return `<div class="table-wrap"><table class="table" aria-label="Members">
      <thead><tr><th scope="col">ID</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Loans</th><th scope="col">Email</th></tr></thead>
      <tbody>${rows.map((m) => {
    const p = POLICY[m.type] || POLICY.adult;
    return `<tr><td class="mono">${esc(m.id)}</td>
        <td><a href="#/member/${esc(m.id)}">${esc(m.name)}</a></td>
        <td><span class="badge badge-${esc(m.type)}">${esc(typeLabel(m))}</span></td>
        <td>${statusChip(m)}</td>
        <td class="nowrap">${loansOf(m.id).length} of ${p.limit}</td>
        <td>${emailHTML(m)}</td></tr>`;
  }).join('')}</tbody></table></div>`;
  };
  /* @end members-list */

  function renderMembersTable() {
    const box = document.getElementById('mem-results');
    if (box) box.innerHTML = hooks.membersTable?.() ?? '';
  }
  function renderMembers() {
    view.innerHTML = `
      <div class="page-head"><h1>Members</h1>
        <p class="lede">${plural(state.members.length, 'member', 'members')} · limits: Adult 5 · Child 3 · Staff 10 books</p></div>
      <div class="toolbar">${hooks.memberSearchBox?.() ?? ''}</div>
      <div id="mem-results"></div>`;
    document.getElementById('mem-q')?.addEventListener('input', (e) => {
      state.memberQ = e.target.value; renderMembersTable();
    });
    renderMembersTable();
  }

  /* @feature renew */
  hooks.renew = (loan) => {
    const block = hooks.renewBlock?.(loan);
    if (block) return { kind: 'error', html: block };
    const m = memberOf(loan.memberId);
    const p = POLICY[m?.type] || POLICY.adult;
    loan.dueDate = addDays(loan.dueDate, p.days);
    loan.renewals = (loan.renewals || 0) + 1;
    persist();
    return { kind: 'ok', html: `Renewed “${esc(titleText(loan.isbn))}” — new due date ${fmtDate(loan.dueDate)}.` };
  };
  /* @end renew */
  /* @broken renew */
  hooks.renew = (loan) => {
    const block = hooks.renewBlock?.(loan);
    if (block) return { kind: 'error', html: block };
    const m = memberOf(loan.memberId);
    const p = POLICY[m?.type] || POLICY.adult;
    loan.dueDate = addDays(state.today, p.days);
    loan.renewals = (loan.renewals || 0) + 1;
    persist();
    return { kind: 'ok', html: `Renewed “${esc(titleText(loan.isbn))}” — new due date ${fmtDate(loan.dueDate)}.` };
  };
  /* @end renew */

  /* @feature renew-guards */
  hooks.renewBlock = (loan) => {
    if ((loan.renewals || 0) >= MAX_RENEWALS) return `Renewal limit reached (${loan.renewals} of ${MAX_RENEWALS}).`;
    if (state.holds.some((h) => h.isbn === loan.isbn && h.memberId !== loan.memberId)) {
      return 'Cannot renew: another member has a hold on this title.';
    }
    return null;
  };
  /* @end renew-guards */
  /* @broken renew-guards */
  hooks.renewBlock = (loan) => {
    if ((loan.renewals || 0) > MAX_RENEWALS) return `Renewal limit reached (${loan.renewals} of ${MAX_RENEWALS}).`;
    if (state.holds.some((h) => h.isbn === loan.isbn && h.memberId !== loan.memberId)) {
      return 'Cannot renew: another member has a hold on this title.';
    }
    return null;
  };
  /* @end renew-guards */

  /* @feature member-history */
  hooks.history = (m) => {
    const past = state.loans.filter((l) => l.memberId === m.id && l.returnedDate)
      .sort((a, b) => dayNum(b.returnedDate) - dayNum(a.returnedDate));
    return `<section class="card" aria-label="Loan history"><h2>Loan history</h2>
      ${past.length ? `<div class="table-wrap"><table class="table table-compact">
        <thead><tr><th scope="col">Title</th><th scope="col">Loaned</th><th scope="col">Due</th><th scope="col">Returned</th><th scope="col" class="num">Late fee</th></tr></thead>
        <tbody>${past.map((l) => {
    const fee = loanFee(l);
    return `<tr><td>${titleHTML(l.isbn)}</td><td class="nowrap">${fmtDate(l.loanDate)}</td><td class="nowrap">${fmtDate(l.dueDate)}</td>
          <td class="nowrap">${fmtDate(l.returnedDate)}</td>
          <td class="num">${fee ? `${money(fee)}${l.feePaid ? ' <span class="chip chip-ok">paid</span>' : ''}` : '—'}</td></tr>`;
  }).join('')}</tbody></table></div>` : '<p class="empty-inline">No returned loans yet.</p>'}
    </section>`;
  };
  /* @end member-history */

  /* @feature member-fees */
  hooks.fees = (m) => {
    const charged = state.loans.filter((l) => l.memberId === m.id && l.returnedDate && !l.feePaid)
      .reduce((s, l) => s + loanFee(l), 0);
    const accruing = loansOf(m.id).reduce((s, l) => s + loanFee(l), 0);
    return feesCard(charged, accruing, charged + accruing);
  };
  /* @end member-fees */
  /* @broken member-fees */
  hooks.fees = (m) => {
    const charged = state.loans.filter((l) => l.memberId === m.id && l.returnedDate && !l.feePaid)
      .reduce((s, l) => s + loanFee(l), 0);
    const accruing = loansOf(m.id).reduce((s, l) => s + loanFee(l), 0);
    return feesCard(charged, accruing, accruing);
  };
  /* @end member-fees */

  function feesCard(charged, accruing, total) {
    return `<section class="card fees" aria-label="Outstanding fees"><h2>Outstanding fees</h2>
      <dl class="fee-table">
        <dt>Charged on returned loans</dt><dd>${money(charged)}</dd>
        <dt>Accruing on current loans</dt><dd>${money(accruing)}</dd>
        <dt class="fee-total">Total outstanding</dt><dd class="fee-total">${money(total)}</dd>
      </dl></section>`;
  }

  function renderMember(id) {
    const m = memberOf(id);
    if (!m) {
      view.innerHTML = `<div class="empty"><p class="empty-title">Member not found</p>
        <p class="empty-sub">There is no member with ID ${esc(id)}.</p><a class="btn btn-ghost" href="#/members">Back to members</a></div>`;
      return;
    }
    const p = POLICY[m.type] || POLICY.adult;
    const current = loansOf(m.id).sort((a, b) => dayNum(a.dueDate) - dayNum(b.dueDate));
    const myHolds = state.holds.filter((h) => h.memberId === m.id);
    view.innerHTML = `
      <a class="crumb" href="#/members">← Members</a>
      <div class="member-head card">
        <div class="avatar" aria-hidden="true">${esc(m.name.split(' ').map((s) => s[0]).join('').slice(0, 2))}</div>
        <div class="member-main">
          <h1>${esc(m.name)}</h1>
          <p class="member-meta"><span class="mono">${esc(m.id)}</span>
            <span class="badge badge-${esc(m.type)}">${esc(typeLabel(m))}</span>
            ${statusChip(m)}</p>
          <p class="member-meta">${emailHTML(m)} <span class="sep">·</span> Member since ${fmtDate(m.joined)}</p>
          ${m.status === 'suspended' ? `<p class="suspended-note">Suspended: ${esc(m.suspendedReason || 'no reason recorded')}</p>` : ''}
        </div>
        <div class="member-quota"><span class="quota-label">Loans: ${current.length} of ${p.limit}</span>
          <span class="quota-bar"><span style="width:${Math.min(100, Math.round((current.length / p.limit) * 100))}%"></span></span>
          <a class="btn btn-small" href="#/desk">Check out a book</a></div>
      </div>
      ${takeFlash('member')}
      <section class="card" aria-label="Current loans"><h2>Current loans</h2>
        ${current.length ? `<div class="table-wrap"><table class="table">
          <thead><tr><th scope="col">Title</th><th scope="col">ISBN</th><th scope="col">Loaned</th><th scope="col">Due</th><th scope="col">Renewals</th><th scope="col">Status</th><th scope="col" class="num">Late fee</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>${current.map((l) => `<tr>
            <td>${titleHTML(l.isbn)}</td><td class="mono">${esc(l.isbn)}</td>
            <td class="nowrap">${fmtDate(l.loanDate)}</td><td class="nowrap">${fmtDate(l.dueDate)}</td>
            <td class="nowrap">${l.renewals || 0} of ${MAX_RENEWALS}</td>
            <td class="nowrap">${dueStatus(l)}</td>
            <td class="num">${money(loanFee(l))}</td>
            <td class="nowrap"><button type="button" class="btn btn-small btn-ghost" data-renew="${esc(l.id)}">Renew</button>
              <a class="btn btn-small btn-ghost" href="#/desk?return=${esc(l.id)}">Return</a></td></tr>`).join('')}</tbody></table></div>`
    : '<p class="empty-inline">No books on loan.</p>'}
      </section>
      <div class="grid-2">
        <section class="card" aria-label="Holds"><h2>Holds</h2>
          ${myHolds.length ? `<ul class="due-list">${myHolds.map((h) => {
    const pos = holdsFor(h.isbn).findIndex((x) => x.id === h.id) + 1;
    return `<li><div>${titleHTML(h.isbn)}<span class="t-sub">placed ${fmtDate(h.placed)}</span></div><span class="due-when">#${pos} in queue</span></li>`;
  }).join('')}</ul>` : '<p class="empty-inline">No active holds.</p>'}
        </section>
        ${hooks.fees?.(m) ?? ''}
      </div>
      ${hooks.history?.(m) ?? ''}`;
    view.querySelectorAll('[data-renew]').forEach((b) => b.addEventListener('click', () => {
      const loan = state.loans.find((l) => l.id === b.dataset.renew);
      const r = loan && hooks.renew?.(loan);
      if (!r) return;
      setFlash('member', r.kind, r.html);
      renderMember(id);
    }));
  }

  // ------------------------------------------------------------ add a book
  function isbnChecksumOk(d13) {
    let s = 0;
    for (let i = 0; i < 12; i += 1) s += Number(d13[i]) * (i % 2 ? 3 : 1);
    return (10 - (s % 10)) % 10 === Number(d13[12]);
  }

  /* @feature book-validation */
  hooks.validateBook = (f, dup) => {
    const err = {};
    if (!/^\d{13}$/.test(f.isbn)) err.isbn = 'ISBN-13 must have exactly 13 digits.';
    else if (!isbnChecksumOk(f.isbn)) err.isbn = 'Invalid ISBN-13: the check digit does not match.';
    if (!/^\d+$/.test(f.copies) || Number(f.copies) < 1 || Number(f.copies) > 50) {
      err.copies = 'Copies must be a whole number from 1 to 50.';
    }
    if (!dup) {
      if (!f.title) err.title = 'Title is required.';
      if (!f.author) err.author = 'Author is required.';
      if (f.year && (!/^\d{4}$/.test(f.year) || Number(f.year) < 1450 || Number(f.year) > 2025)) err.year = 'Enter a valid year.';
    }
    return err;
  };
  /* @end book-validation */
  /* @broken book-validation */
  hooks.validateBook = (f, dup) => {
    const err = {};
    if (!/^\d{13}$/.test(f.isbn)) err.isbn = 'ISBN-13 must have exactly 13 digits.';
    if (!/^\d+$/.test(f.copies) || Number(f.copies) < 1 || Number(f.copies) > 50) {
      err.copies = 'Copies must be a whole number from 1 to 50.';
    }
    if (!dup) {
      if (!f.title) err.title = 'Title is required.';
      if (!f.author) err.author = 'Author is required.';
      if (f.year && (!/^\d{4}$/.test(f.year) || Number(f.year) < 1450 || Number(f.year) > 2025)) err.year = 'Enter a valid year.';
    }
    return err;
  };
  /* @end book-validation */

  /* @feature duplicate-isbn */
  hooks.duplicateOf = (isbn) => bookOf(isbn) || null;
  hooks.duplicateNotice = (b) => `Already in the catalogue: “${esc(b.title)}” by ${esc(b.author)} (${plural(Number(b.copies) || 0, 'copy', 'copies')}). Saving adds copies to this title.`;
  hooks.addCopies = (b, n) => {
    b.copies = (Number(b.copies) || 0) + n;
    persist();
    return `Added ${plural(n, 'copy', 'copies')} to “${esc(b.title)}” — now ${plural(b.copies, 'copy', 'copies')}.`;
  };
  /* @end duplicate-isbn */
  /* @broken duplicate-isbn */
  hooks.duplicateOf = (isbn) => bookOf(isbn) || null;
  hooks.duplicateNotice = (b) => `Already in the catalogue: “${esc(b.title)}” by ${esc(b.author)} (${plural(Number(b.copies) || 0, 'copy', 'copies')}). Saving adds copies to this title.`;
  hooks.addCopies = (b, n) => {
    state.books.push({ ...b, copies: n });
    persist();
    return `Added “${esc(b.title)}” to the catalogue (${plural(n, 'copy', 'copies')}).`;
  };
  /* @end duplicate-isbn */

  /* @feature add-book */
  hooks.addBook = (f) => {
    const book = {
      isbn: f.isbn, title: f.title, author: f.author, genre: f.genre || 'Uncategorised',
      year: f.year ? Number(f.year) : null, copies: Number(f.copies),
    };
    state.books.push(book);
    persist();
    return `Added “${esc(book.title)}” to the catalogue (${plural(book.copies, 'copy', 'copies')}).`;
  };
  /* @end add-book */

  function renderAddBook() {
    const genres = [...new Set(state.books.map((b) => b.genre).filter(Boolean))].sort();
    view.innerHTML = `
      <div class="page-head"><h1>Add a book</h1>
        <p class="lede">Donations and new purchases. If the ISBN is already in the catalogue, the copies are added to that title.</p></div>
      <section class="card form-card" aria-label="New book">
        <form id="book-form" novalidate autocomplete="off">
          <div class="form-grid">
            <label class="field span-2"><span class="field-label">ISBN-13</span>
              <input id="bk-isbn" placeholder="978-…" inputmode="numeric" aria-describedby="bk-isbn-err"></label>
            <p class="field-error span-2" id="bk-isbn-err"></p>
            <div class="dup-notice span-2" id="bk-dup" role="status"></div>
            <label class="field span-2"><span class="field-label">Title</span>
              <input id="bk-title" aria-describedby="bk-title-err"></label>
            <p class="field-error span-2" id="bk-title-err"></p>
            <label class="field span-2"><span class="field-label">Author</span>
              <input id="bk-author" aria-describedby="bk-author-err"></label>
            <p class="field-error span-2" id="bk-author-err"></p>
            <label class="field"><span class="field-label">Genre</span>
              <input id="bk-genre" list="bk-genres" placeholder="e.g. Fiction"></label>
            <datalist id="bk-genres">${genres.map((g) => `<option value="${esc(g)}">`).join('')}</datalist>
            <label class="field"><span class="field-label">Year</span>
              <input id="bk-year" inputmode="numeric" placeholder="e.g. 2024" aria-describedby="bk-year-err"></label>
            <p class="field-error" id="bk-genre-err"></p>
            <p class="field-error" id="bk-year-err"></p>
            <label class="field"><span class="field-label">Copies</span>
              <input id="bk-copies" type="number" min="1" max="50" value="1" aria-describedby="bk-copies-err"></label>
            <p class="field-error span-2" id="bk-copies-err"></p>
          </div>
          <div class="actions"><button type="submit" class="btn">Add book</button>
            <a class="btn btn-ghost" href="#/catalogue">View catalogue</a></div>
        </form>
        <div id="bk-out" class="out"></div>
      </section>`;
    const form = document.getElementById('book-form');
    const out = document.getElementById('bk-out');
    const val = (id) => document.getElementById(id).value.trim();
    const isbnInput = document.getElementById('bk-isbn');
    const dupBox = document.getElementById('bk-dup');
    isbnInput.addEventListener('input', () => {
      const dup = hooks.duplicateOf?.(normIsbn(isbnInput.value));
      dupBox.innerHTML = dup ? hooks.duplicateNotice(dup) : '';
      dupBox.classList.toggle('on', Boolean(dup));
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      clearErrors(form);
      out.innerHTML = '';
      const f = {
        isbn: normIsbn(val('bk-isbn')), title: val('bk-title'), author: val('bk-author'),
        genre: val('bk-genre'), year: val('bk-year'), copies: val('bk-copies'),
      };
      const dup = hooks.duplicateOf?.(f.isbn) || null;
      const errors = hooks.validateBook?.(f, dup) ?? {};
      const keys = Object.keys(errors);
      if (keys.length) {
        keys.forEach((k) => fieldError(`bk-${k}`, esc(errors[k])));
        document.getElementById(`bk-${keys[0]}`)?.focus();
        return;
      }
      const msg = dup ? hooks.addCopies?.(dup, Number(f.copies) || 1) : hooks.addBook?.(f);
      if (!msg) return;
      out.innerHTML = `<div class="notice notice-ok" role="status">${msg} <a href="#/catalogue">Open the catalogue</a></div>`;
      form.reset();
      dupBox.innerHTML = '';
      dupBox.classList.remove('on');
    });
  }

  // ------------------------------------------------------------ router
  function route() {
    const raw = location.hash.replace(/^#/, '') || '/';
    const [path, query] = raw.split('?');
    const params = new URLSearchParams(query || '');
    const parts = path.split('/').filter(Boolean);
    const name = parts[0] || 'dashboard';
    document.querySelectorAll('.mainnav a').forEach((a) => {
      const on = a.dataset.route === name || (name === 'member' && a.dataset.route === 'members');
      a.classList.toggle('active', on);
      if (on) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
    if (name === 'catalogue') renderCatalogue();
    else if (name === 'desk') renderDesk(params);
    else if (name === 'overdue') renderOverdue();
    else if (name === 'members') renderMembers();
    else if (name === 'member') renderMember(decodeURIComponent(parts[1] || ''));
    else if (name === 'add-book') renderAddBook();
    else renderDashboard();
  }

  async function loadJSON(path) {
    const res = await fetch(path);
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return res.json();
  }

  async function init() {
    try {
      const [books, members, loans] = await Promise.all([
        loadJSON('data/books.json'), loadJSON('data/members.json'), loadJSON('data/loans.json'),
      ]);
      state.library = loans.library || state.library;
      state.today = loans.today;
      state.books = books.books || [];
      state.members = members.members || [];
      state.loans = loans.loans || [];
      state.holds = loans.holds || [];
      const saved = hooks.load?.();
      if (saved) {
        if (Array.isArray(saved.books)) state.books = saved.books;
        if (Array.isArray(saved.members)) state.members = saved.members;
        if (Array.isArray(saved.loans)) state.loans = saved.loans;
        if (Array.isArray(saved.holds)) state.holds = saved.holds;
      }
    } catch (e) {
      view.innerHTML = `<div class="empty"><p class="empty-title">The library records could not be loaded.</p>
        <p class="empty-sub">${esc(e.message)}</p></div>`;
      return;
    }
    const chip = document.getElementById('today-chip');
    if (chip) chip.textContent = `Today: ${fmtLongDate(state.today)}`;
    window.addEventListener('hashchange', route);
    route();
  }

  init();
})();
