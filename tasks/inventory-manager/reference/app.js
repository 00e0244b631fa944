/* Northgate Hardware — Stockroom inventory manager.
   Routes: #/  #/product/<SKU>  #/product/<SKU>/edit  #/new  #/reorder  #/valuation */
(() => {
  'use strict';

  const KEY = 'northgate.inventory.v1';
  const PAGE_SIZE = 10;
  const TYPE_LABEL = { in: 'Stock in', out: 'Stock out', adjust: 'Adjustment' };

  // Optional behaviours register themselves here; the core calls them with ?.()
  const hooks = {};
  const filters = [];        // predicates registered by the search / filter features

  const state = { meta: {}, products: [], movements: [], importIssues: [], seq: 0 };
  const ui = {
    q: '', cat: '', sup: '', sortKey: 'sku', sortDir: 'asc', page: 1,
    csv: null, notice: null, formErrors: {}, mvErrors: {}, mvDraft: null, form: null,
  };

  const app = document.getElementById('app');
  const $ = (sel, root = document) => root.querySelector(sel);

  // ------------------------------------------------------------ helpers
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => (
    { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const cents = (x) => Math.round(Number(x) * 100);
  const money = (c) => (c < 0 ? '−$' : '$') + (Math.abs(c) / 100).toLocaleString('en-US',
    { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const qtyText = (n) => (n < 0 ? '−' + Math.abs(n) : String(n));
  const signed = (n) => (n < 0 ? '−' + Math.abs(n) : '+' + n);
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const bySku = (a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0);
  const onHand = (p) => Math.max(Number(p.quantity) || 0, 0);
  const productBySku = (sku) => state.products.find((p) => p.sku === sku);
  const isReorder = (p) => Number(p.quantity) <= Number(p.reorder_point);
  const categories = () => [...new Set(state.products.map((p) => p.category).filter(Boolean))].sort();
  const suppliers = () => [...new Set(state.products.map((p) => p.supplier).filter(Boolean))].sort();
  const supplierLabel = (p) => p.supplier || hooks.noSupplier?.() || '';

  function fmtToday(iso) {
    const d = new Date(iso + 'T00:00:00Z');
    const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    return `${days[d.getUTCDay()]} ${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  }

  function statusOf(p) {
    return hooks.negStatus?.(p) || hooks.stockStatus?.(p) || { label: 'In stock', tone: 'ok' };
  }
  const badge = (p) => {
    const s = statusOf(p);
    return `<span class="badge badge-${s.tone}">${esc(s.label)}</span>`;
  };
  const delta = (m) => (m.type === 'in' ? m.quantity : m.type === 'out' ? -m.quantity : m.quantity);

  function save() { hooks.save?.(); }

  // ------------------------------------------------------------ data loading
  async function readFiles() {
    const [pf, mf] = await Promise.all([
      fetch('data/products.json').then((r) => r.json()),
      fetch('data/movements.json').then((r) => r.json()),
    ]);
    const fresh = {
      meta: { warehouse: pf.warehouse, today: pf.today, currency: pf.currency },
      products: [], movements: [], importIssues: [], seq: 0,
    };
    const seen = new Map();
    for (const raw of pf.products || []) {
      const sku = String(raw.sku || '').trim().toUpperCase();
      if (seen.has(sku)) {
        fresh.importIssues.push(`Duplicate SKU ${sku}: the second record ("${raw.name}") was ignored.`);
        continue;
      }
      const p = {
        sku, name: String(raw.name || '').trim(), category: raw.category || '',
        supplier: String(raw.supplier || '').trim(),
        unit_cost: Number(raw.unit_cost) || 0, price: Number(raw.price) || 0,
        quantity: Math.trunc(Number(raw.quantity) || 0),
        reorder_point: Math.trunc(Number(raw.reorder_point) || 0),
        pack_size: Math.max(1, Math.trunc(Number(raw.pack_size) || 1)), bin: raw.bin || '',
      };
      seen.set(sku, p);
      fresh.products.push(p);
    }
    for (const m of mf.movements || []) {
      const n = parseInt(String(m.id).replace(/\D/g, ''), 10) || 0;
      fresh.seq = Math.max(fresh.seq, n);
      if (!seen.has(m.sku)) {
        fresh.importIssues.push(`Movement ${m.id} refers to unknown SKU ${m.sku} and was ignored.`);
        continue;
      }
      fresh.movements.push({ ...m, n });
    }
    return fresh;
  }

  async function load() {
    const fresh = await readFiles();
    const saved = hooks.loadSaved?.();
    Object.assign(state, fresh, saved || {});
    if (!state.meta || !state.meta.today) state.meta = fresh.meta;
    const badgeEl = $('#today-badge');
    if (badgeEl) badgeEl.textContent = `Today: ${fmtToday(state.meta.today)}`;
    render();
  }

  async function resetData() {
    localStorage.removeItem(KEY);
    const fresh = await readFiles();
    Object.assign(state, fresh);
    Object.assign(ui, { q: '', cat: '', sup: '', page: 1, csv: null, notice: null });
    render();
  }

  // ------------------------------------------------------------ list pipeline
  function sortValue(p, key) {
    if (key === 'supplier') return supplierLabel(p).toLowerCase();
    const v = p[key];
    return typeof v === 'string' ? v.toLowerCase() : Number(v);
  }

  function visibleList() {
    let list = state.products.filter((p) => filters.every((f) => f(p)));
    list.sort(bySku);
    hooks.sortList?.(list);
    return list;
  }

  function onFilterChange() {
    hooks.resetPage?.();
    ui.csv = null;
    renderTable();
  }

  const COLS = [
    { key: 'sku', label: 'SKU' },
    { key: 'name', label: 'Name' },
    { key: 'category', label: 'Category' },
    { key: 'supplier', label: 'Supplier' },
    { key: 'quantity', label: 'On hand', num: true },
    { key: 'reorder_point', label: 'Reorder pt', num: true },
    { key: 'unit_cost', label: 'Unit cost', num: true },
    { key: 'price', label: 'Price', num: true },
    { key: 'status', label: 'Status' },
  ];
  /* @feature col-bin */
  COLS.splice(8, 0, { key: 'bin', label: 'Bin' });
  /* @end col-bin */

  function cell(p, c) {
    switch (c.key) {
      case 'sku': return `<td><a class="sku" href="#/product/${esc(p.sku)}">${esc(p.sku)}</a></td>`;
      case 'name': return `<td class="name">${esc(p.name)}</td>`;
      case 'supplier': return `<td>${p.supplier ? esc(p.supplier) : `<span class="muted">${esc(supplierLabel(p))}</span>`}</td>`;
      case 'quantity': return `<td class="num${p.quantity < 0 ? ' neg' : ''}">${qtyText(p.quantity)}</td>`;
      case 'reorder_point': return `<td class="num">${p.reorder_point}</td>`;
      case 'unit_cost': return `<td class="num">${money(cents(p.unit_cost))}</td>`;
      case 'price': return `<td class="num">${money(cents(p.price))}</td>`;
      case 'bin': return `<td><span class="bin">${esc(p.bin)}</span></td>`;
      case 'status': return `<td>${badge(p)}</td>`;
      default: return `<td>${esc(p[c.key])}</td>`;
    }
  }

  // ------------------------------------------------------------ products view
  function renderProducts() {
    const units = state.products.reduce((n, p) => n + onHand(p), 0);
    const low = state.products.filter(isReorder).length;
    app.innerHTML = `
      <div class="page-head">
        <div>
          <h1>Products</h1>
          <p class="lede">${plural(state.products.length, 'SKU', 'SKUs')} · ${units} units on hand · ${low} at or below reorder point</p>
        </div>
        <div class="head-actions">${hooks.addLink?.() ?? ''}</div>
      </div>
      ${hooks.issuesPanel?.() ?? ''}
      <div class="card">
        <div class="toolbar">
          ${hooks.searchBox?.() ?? ''}
          ${hooks.categorySelect?.() ?? ''}
          ${hooks.supplierSelect?.() ?? ''}
          <span class="spacer"></span>
          ${hooks.exportButton?.() ?? ''}
        </div>
        <div id="csv-slot"></div>
        <p class="result-count" id="result-count"></p>
        <div class="table-wrap">
          <table class="grid" aria-label="Products" id="products-table">
            <thead><tr>${COLS.map((c) => hooks.headerCell?.(c)
              ?? `<th scope="col" class="${c.num ? 'num' : ''}">${esc(c.label)}</th>`).join('')}</tr></thead>
            <tbody></tbody>
          </table>
        </div>
        <div id="empty-slot"></div>
        <div class="pager" id="pager"></div>
      </div>`;
    hooks.bindToolbar?.();
    renderTable();
  }

  function renderTable() {
    const tbody = $('#products-table tbody');
    if (!tbody) return;
    const list = visibleList();
    $('#result-count').textContent = plural(list.length, 'product', 'products');
    const rows = hooks.paginate ? hooks.paginate(list) : list;
    tbody.innerHTML = rows.map((p) => `<tr class="${isReorder(p) ? 'row-low' : ''}">${COLS.map((c) => cell(p, c)).join('')}</tr>`).join('');
    const emptySlot = $('#empty-slot');
    emptySlot.innerHTML = list.length ? '' : (hooks.emptyState?.() ?? '');
    hooks.bindEmpty?.();
    hooks.renderPager?.(list);
    hooks.markSorted?.();
    const slot = $('#csv-slot');
    if (slot) slot.innerHTML = ui.csv ? (hooks.csvPanel?.(ui.csv) ?? '') : '';
    hooks.bindCsvPanel?.();
  }

  /* @feature search */
  hooks.searchBox = () => `
    <label class="field field-search"><span class="sr-only">Search products</span>
      <input type="search" id="q" aria-label="Search products" placeholder="Search by name or SKU" value="${esc(ui.q)}" autocomplete="off">
    </label>`;
  filters.push((p) => {
    const q = ui.q.trim().toLowerCase();
    return !q || p.name.toLowerCase().includes(q) || p.sku.toLowerCase().includes(q);
  });
  /* @end search */
  /* @broken search */
  hooks.searchBox = () => `
    <label class="field field-search"><span class="sr-only">Search products</span>
      <input type="search" id="q" aria-label="Search products" placeholder="Search by name or SKU" value="${esc(ui.q)}" autocomplete="off">
    </label>`;
  filters.push((p) => {
    const q = ui.q.trim();
    return !q || p.name.includes(q) || p.sku.includes(q);
  });
  /* @end search */

  /* @feature category-filter */
  hooks.categorySelect = () => `
    <label class="field"><span class="field-label">Category</span>
      <select id="f-cat" aria-label="Category">
        <option value="">All categories</option>
        ${categories().map((c) => `<option${c === ui.cat ? ' selected' : ''}>${esc(c)}</option>`).join('')}
      </select>
    </label>`;
  filters.push((p) => !ui.cat || p.category === ui.cat);
  /* @end category-filter */
  /* @broken category-filter */
  hooks.categorySelect = () => `
    <label class="field"><span class="field-label">Category</span>
      <select id="f-cat" aria-label="Category">
        <option value="">All categories</option>
        ${categories().map((c) => `<option${c === ui.cat ? ' selected' : ''}>${esc(c)}</option>`).join('')}
      </select>
    </label>`;
  filters.push((p) => !ui.cat || p.category === ui.cat);
  hooks.categoryClearsSearch = true;
  /* @end category-filter */

  /* @feature supplier-filter */
  hooks.supplierSelect = () => `
    <label class="field"><span class="field-label">Supplier</span>
      <select id="f-sup" aria-label="Supplier">
        <option value="">All suppliers</option>
        ${suppliers().map((s) => `<option${s === ui.sup ? ' selected' : ''}>${esc(s)}</option>`).join('')}
        <option value="__none__"${ui.sup === '__none__' ? ' selected' : ''}>No supplier</option>
      </select>
    </label>`;
  filters.push((p) => !ui.sup || (ui.sup === '__none__' ? !p.supplier : p.supplier === ui.sup));
  /* @end supplier-filter */

  hooks.bindToolbar = () => {
    $('#q')?.addEventListener('input', (e) => { ui.q = e.target.value; onFilterChange(); });
    $('#f-cat')?.addEventListener('change', (e) => {
      ui.cat = e.target.value;
      if (hooks.categoryClearsSearch) ui.q = '';
      onFilterChange();
    });
    $('#f-sup')?.addEventListener('change', (e) => { ui.sup = e.target.value; onFilterChange(); });
    $('#export-csv')?.addEventListener('click', () => hooks.exportCsv?.());
  };

  /* @feature empty-state */
  hooks.emptyState = () => `
    <div class="empty">
      <svg viewBox="0 0 48 48" aria-hidden="true"><circle cx="21" cy="21" r="12" fill="none" stroke="currentColor" stroke-width="3"/><path d="M30 30l9 9" stroke="currentColor" stroke-width="3" stroke-linecap="round"/></svg>
      <p class="empty-title">No products match your filters</p>
      <p class="muted">Try another name or SKU, or clear the filters.</p>
      <button type="button" class="btn btn-secondary" id="clear-filters">Clear filters</button>
    </div>`;
  hooks.bindEmpty = () => {
    $('#clear-filters')?.addEventListener('click', () => {
      ui.q = ''; ui.cat = ''; ui.sup = ''; ui.page = 1;
      renderProducts();
    });
  };
  /* @end empty-state */

  /* @feature sort */
  hooks.headerCell = (c) => `
    <th scope="col" class="${c.num ? 'num' : ''}" data-key="${c.key}">
      <button type="button" class="sort-btn" data-sort="${c.key}">${esc(c.label)}<span class="arrow" aria-hidden="true"></span></button>
    </th>`;
  hooks.sortList = (list) => {
    const k = ui.sortKey;
    if (k === 'sku' && ui.sortDir === 'asc') return;
    const dir = ui.sortDir === 'asc' ? 1 : -1;
    const val = (p) => (k === 'status' ? statusOf(p).label.toLowerCase() : sortValue(p, k));
    list.sort((a, b) => {
      const x = val(a); const y = val(b);
      if (x < y) return -dir;
      if (x > y) return dir;
      return bySku(a, b);
    });
  };
  hooks.markSorted = () => {
    document.querySelectorAll('#products-table th[data-key]').forEach((th) => {
      const on = th.dataset.key === ui.sortKey;
      if (on) th.setAttribute('aria-sort', ui.sortDir === 'asc' ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
      th.querySelector('.arrow').textContent = on ? (ui.sortDir === 'asc' ? '▲' : '▼') : '';
    });
  };
  document.addEventListener('click', (e) => {
    const b = e.target.closest('.sort-btn');
    if (!b) return;
    const k = b.dataset.sort;
    if (ui.sortKey === k) ui.sortDir = ui.sortDir === 'asc' ? 'desc' : 'asc';
    else { ui.sortKey = k; ui.sortDir = 'asc'; }
    onFilterChange();
  });
  /* @end sort */
  /* @broken sort */
  hooks.headerCell = (c) => `
    <th scope="col" class="${c.num ? 'num' : ''}" data-key="${c.key}">
      <button type="button" class="sort-btn" data-sort="${c.key}">${esc(c.label)}<span class="arrow" aria-hidden="true"></span></button>
    </th>`;
  hooks.sortList = (list) => {
    const k = ui.sortKey;
    if (k === 'sku' && ui.sortDir === 'asc') return;
    const dir = ui.sortDir === 'asc' ? 1 : -1;
    const val = (p) => (k === 'status' ? statusOf(p).label : String(p[k] ?? '').toLowerCase());
    list.sort((a, b) => {
      const x = val(a); const y = val(b);
      if (x < y) return -dir;
      if (x > y) return dir;
      return bySku(a, b);
    });
  };
  hooks.markSorted = () => {
    document.querySelectorAll('#products-table th[data-key]').forEach((th) => {
      const on = th.dataset.key === ui.sortKey;
      if (on) th.setAttribute('aria-sort', ui.sortDir === 'asc' ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
      th.querySelector('.arrow').textContent = on ? (ui.sortDir === 'asc' ? '▲' : '▼') : '';
    });
  };
  document.addEventListener('click', (e) => {
    const b = e.target.closest('.sort-btn');
    if (!b) return;
    const k = b.dataset.sort;
    if (ui.sortKey === k) ui.sortDir = ui.sortDir === 'asc' ? 'desc' : 'asc';
    else { ui.sortKey = k; ui.sortDir = 'asc'; }
    onFilterChange();
  });
  /* @end sort */

  /* @feature pagination */
  hooks.pageCount = (n) => Math.max(1, Math.ceil(n / PAGE_SIZE));
  /* @end pagination */
  /* @broken pagination */
  hooks.pageCount = (n) => Math.max(1, Math.floor(n / PAGE_SIZE));
  /* @end pagination */
  if (hooks.pageCount) {
    hooks.paginate = (list) => {
      const start = (ui.page - 1) * PAGE_SIZE;
      return list.slice(start, start + PAGE_SIZE);
    };
    hooks.renderPager = (list) => {
      const el = $('#pager');
      if (!el) return;
      if (!list.length) { el.innerHTML = ''; return; }
      const pages = hooks.pageCount(list.length);
      const from = list.length ? (ui.page - 1) * PAGE_SIZE + 1 : 0;
      const to = Math.min(ui.page * PAGE_SIZE, list.length);
      el.innerHTML = `
        <span class="pager-info">Showing ${from}–${to} of ${list.length}</span>
        <nav class="pager-nav" aria-label="Pagination">
          <button type="button" class="btn btn-secondary btn-sm" id="prev-page"${ui.page <= 1 ? ' disabled' : ''}><span aria-hidden="true">‹</span> Previous</button>
          <span class="pager-page">Page ${ui.page} of ${pages}</span>
          <button type="button" class="btn btn-secondary btn-sm" id="next-page"${ui.page >= pages ? ' disabled' : ''}>Next <span aria-hidden="true">›</span></button>
        </nav>`;
      $('#prev-page').addEventListener('click', () => { ui.page -= 1; renderTable(); });
      $('#next-page').addEventListener('click', () => { ui.page += 1; renderTable(); });
    };
  }

  /* @feature page-reset */
  hooks.resetPage = () => { ui.page = 1; };
  /* @end page-reset */

  // ------------------------------------------------------------ status badges
  /* @feature stock-badge */
  hooks.stockStatus = (p) => (p.quantity <= 0 ? { label: 'Out of stock', tone: 'bad' }
    : p.quantity <= p.reorder_point ? { label: 'Low stock', tone: 'warn' } : null);
  /* @end stock-badge */
  /* @broken stock-badge */
  hooks.stockStatus = (p) => (p.quantity <= 0 ? { label: 'Out of stock', tone: 'bad' }
    : p.quantity < p.reorder_point ? { label: 'Low stock', tone: 'warn' } : null);
  /* @end stock-badge */

  /* @feature negative-badge */
  hooks.negStatus = (p) => (p.quantity < 0 ? { label: 'Check count', tone: 'bad' } : null);
  /* @end negative-badge */

  /* @feature no-supplier */
  hooks.noSupplier = () => 'No supplier';
  /* @end no-supplier */

  // ------------------------------------------------------------ data issues
  /* @feature data-issues */
  hooks.issuesPanel = () => {
    const items = [...state.importIssues.filter((t) => t.startsWith('Duplicate'))];
    for (const p of state.products) {
      if (p.quantity < 0) items.push(`${p.sku} has a negative quantity (${qtyText(p.quantity)}): counted as 0 until it is recounted.`);
    }
    for (const p of state.products) if (!p.supplier) items.push(`${p.sku} has no supplier.`);
    items.push(...state.importIssues.filter((t) => !t.startsWith('Duplicate')));
    if (!items.length) return '';
    return `
      <section class="issues" aria-label="Data issues">
        <div class="issues-head">
          <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 3l10 18H2z" fill="#f4b740"/><path d="M12 10v5M12 17.5v.5" stroke="#1e293b" stroke-width="2" stroke-linecap="round"/></svg>
          <h2>Data issues (${items.length})</h2>
          <span class="muted">found in the imported files — the app handles them as described</span>
        </div>
        <ul>${items.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>
      </section>`;
  };
  /* @end data-issues */

  // ------------------------------------------------------------ CSV export
  const csvCell = (v) => (hooks.csvQuote ? hooks.csvQuote(v) : String(v ?? ''));
  function buildCsv(rows) {
    const head = ['SKU', 'Name', 'Category', 'Supplier', 'On hand', 'Reorder point', 'Unit cost', 'Price', 'Bin', 'Status'];
    const lines = [head.join(',')];
    for (const p of rows) {
      lines.push([p.sku, p.name, p.category, p.supplier, p.quantity, p.reorder_point,
        (cents(p.unit_cost) / 100).toFixed(2), (cents(p.price) / 100).toFixed(2), p.bin,
        statusOf(p).label].map(csvCell).join(','));
    }
    return lines.join('\n') + '\n';
  }
  function download(name, text) {
    try {
      const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url; a.download = name;
      document.body.appendChild(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) { /* preview still shows the content */ }
  }

  /* @feature csv-export */
  hooks.exportButton = () => `<button type="button" class="btn btn-secondary" id="export-csv">
    <svg viewBox="0 0 20 20" aria-hidden="true"><path d="M10 3v9m0 0l-3.5-3.5M10 12l3.5-3.5M4 15h12" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/></svg>
    Export CSV</button>`;
  hooks.exportCsv = () => {
    const rows = visibleList();
    ui.csv = { text: buildCsv(rows), count: rows.length, name: `inventory-${state.meta.today}.csv` };
    download(ui.csv.name, ui.csv.text);
    renderTable();
  };
  /* @end csv-export */
  /* @broken csv-export */
  hooks.exportButton = () => `<button type="button" class="btn btn-secondary" id="export-csv">
    <svg viewBox="0 0 20 20" aria-hidden="true"><path d="M10 3v9m0 0l-3.5-3.5M10 12l3.5-3.5M4 15h12" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/></svg>
    Export CSV</button>`;
  hooks.exportCsv = () => {
    const all = visibleList();
    const rows = hooks.paginate ? hooks.paginate(all) : all;
    ui.csv = { text: buildCsv(rows), count: rows.length, name: `inventory-${state.meta.today}.csv` };
    download(ui.csv.name, ui.csv.text);
    renderTable();
  };
  /* @end csv-export */
  hooks.csvPanel = (csv) => `
    <section class="csv-panel" aria-label="CSV export">
      <div class="csv-head">
        <strong>Exported ${plural(csv.count, 'product', 'products')}</strong>
        <span class="muted">to ${esc(csv.name)}</span>
        <span class="spacer"></span>
        <button type="button" class="btn btn-ghost btn-sm" id="csv-close">Close</button>
      </div>
      <label class="field-label" for="csv-preview">CSV preview</label>
      <textarea id="csv-preview" rows="7" readonly spellcheck="false">${esc(csv.text)}</textarea>
    </section>`;
  hooks.bindCsvPanel = () => {
    $('#csv-close')?.addEventListener('click', () => { ui.csv = null; renderTable(); });
  };

  /* @feature csv-quoting */
  hooks.csvQuote = (v) => {
    const s = String(v ?? '');
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  /* @end csv-quoting */

  // ------------------------------------------------------------ product page
  function historyRows(p) {
    const list = state.movements.filter((m) => m.sku === p.sku)
      .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.n - a.n));
    let running = p.quantity;
    return list.map((m) => {
      const row = { m, balance: running };
      running -= delta(m);
      return row;
    });
  }

  function renderDetail(sku) {
    const p = productBySku(sku);
    if (!p) {
      app.innerHTML = hooks.notFound?.(sku) ?? '';
      return;
    }
    const notice = ui.notice;
    ui.notice = null;
    app.innerHTML = `
      <a class="back" href="#/">← All products</a>
      ${notice ? `<div class="notice" role="status">${esc(notice)}</div>` : ''}
      <div class="detail-head">
        <div>
          <p class="eyebrow">${esc(p.sku)} · ${esc(p.category)}</p>
          <h1>${esc(p.name)}</h1>
          <div class="detail-badges">${badge(p)}${hooks.editLink?.(p) ?? ''}</div>
        </div>
        <div class="onhand-box">
          <p class="onhand" id="onhand"><strong>${qtyText(p.quantity)}</strong> on hand</p>
          <p class="muted">Reorder point ${p.reorder_point}</p>
        </div>
      </div>
      <div class="detail-grid">
        <div class="detail-main">
          ${hooks.detailFacts?.(p) ?? ''}
          ${hooks.history?.(p) ?? ''}
        </div>
        <aside class="detail-side">${hooks.movementForm?.(p) ?? ''}</aside>
      </div>`;
    hooks.bindMovementForm?.(p);
  }

  /* @feature not-found */
  hooks.notFound = (sku) => `
    <div class="card empty big">
      <svg viewBox="0 0 48 48" aria-hidden="true"><rect x="8" y="12" width="32" height="26" rx="3" fill="none" stroke="currentColor" stroke-width="3"/><path d="M8 20h32M20 28h8" stroke="currentColor" stroke-width="3" stroke-linecap="round"/></svg>
      <h1>Product not found</h1>
      <p class="muted">No product with SKU ${esc(sku)}.</p>
      <a class="btn btn-primary" href="#/">Back to products</a>
    </div>`;
  /* @end not-found */

  /* @feature detail-facts */
  hooks.detailFacts = (p) => {
    const margin = p.price > 0 ? ((cents(p.price) - cents(p.unit_cost)) / cents(p.price)) * 100 : 0;
    const fact = (k, v) => `<div><dt>${k}</dt><dd>${v}</dd></div>`;
    return `
      <section class="card facts" aria-label="Product details">
        <div class="card-head"><h2>Product details</h2></div>
        <dl>
          ${fact('Category', esc(p.category))}
          ${fact('Supplier', p.supplier ? esc(p.supplier) : `<span class="muted">${esc(supplierLabel(p) || '—')}</span>`)}
          ${fact('Location bin', `<span class="bin">${esc(p.bin || '—')}</span>`)}
          ${fact('Unit cost', money(cents(p.unit_cost)))}
          ${fact('Price', money(cents(p.price)))}
          ${fact('Margin', `${margin.toFixed(1)}%`)}
          ${fact('Reorder point', p.reorder_point)}
          ${fact('Pack size', p.pack_size)}
          ${fact('Stock value at cost', money(onHand(p) * cents(p.unit_cost)))}
        </dl>
      </section>`;
  };
  /* @end detail-facts */

  function historyTable(rows) {
    if (!rows.length) {
      return `<p class="empty-inline">No movements recorded for this product yet.</p>`;
    }
    return `
      <table class="grid compact" aria-label="Movement history">
        <thead><tr><th scope="col">Date</th><th scope="col">Type</th><th scope="col" class="num">Change</th><th scope="col" class="num">Balance</th><th scope="col">Reason</th></tr></thead>
        <tbody>${rows.map(({ m, balance }) => {
          const d = delta(m);
          const reason = [m.reason, m.reference].filter(Boolean).join(' · ');
          return `<tr><td>${esc(m.date)}</td><td><span class="mv mv-${m.type}">${TYPE_LABEL[m.type] || esc(m.type)}</span></td>
            <td class="num ${d < 0 ? 'neg' : 'pos'}">${signed(d)}</td><td class="num">${qtyText(balance)}</td>
            <td>${esc(reason) || '<span class="muted">—</span>'}</td></tr>`;
        }).join('')}</tbody>
      </table>`;
  }

  /* @feature movement-history */
  hooks.history = (p) => `
    <section class="card" aria-label="History">
      <div class="card-head"><h2>Movement history</h2></div>
      ${historyTable(historyRows(p))}
    </section>`;
  /* @end movement-history */
  /* @broken movement-history */
  hooks.history = (p) => `
    <section class="card" aria-label="History">
      <div class="card-head"><h2>Movement history</h2></div>
      ${historyTable(historyRows(p).reverse())}
    </section>`;
  /* @end movement-history */

  // ------------------------------------------------------------ record movement
  function movementFormHTML(p) {
    const d = ui.mvDraft || { type: 'in', dir: 'inc', qty: '', date: state.meta.today, reason: '' };
    const err = ui.mvErrors;
    const e = (k) => (err[k] ? `<p class="error" id="err-${k}">${esc(err[k])}</p>` : '');
    return `
      <section class="card mv-card" aria-label="Record movement">
        <div class="card-head"><h2>Record movement</h2></div>
        <form id="mv-form" novalidate>
          <label class="field"><span class="field-label">Movement type</span>
            <select id="mv-type" aria-label="Movement type">
              <option value="in"${d.type === 'in' ? ' selected' : ''}>Stock in</option>
              <option value="out"${d.type === 'out' ? ' selected' : ''}>Stock out</option>
              <option value="adjust"${d.type === 'adjust' ? ' selected' : ''}>Adjustment</option>
            </select>
          </label>
          <label class="field" id="mv-dir-field"${d.type === 'adjust' ? '' : ' hidden'}><span class="field-label">Direction</span>
            <select id="mv-dir" aria-label="Direction">
              <option value="inc"${d.dir === 'inc' ? ' selected' : ''}>Increase</option>
              <option value="dec"${d.dir === 'dec' ? ' selected' : ''}>Decrease</option>
            </select>
          </label>
          <div class="field-row">
            <label class="field"><span class="field-label">Quantity</span>
              <input id="mv-qty" aria-label="Quantity" inputmode="numeric" autocomplete="off" value="${esc(d.qty)}" class="${err.qty ? 'invalid' : ''}">
              ${e('qty')}
            </label>
            <label class="field"><span class="field-label">Date</span>
              <input id="mv-date" aria-label="Date" type="date" max="${esc(state.meta.today)}" value="${esc(d.date)}" class="${err.date ? 'invalid' : ''}">
              ${e('date')}
            </label>
          </div>
          <label class="field"><span class="field-label">Reason</span>
            <input id="mv-reason" aria-label="Reason" placeholder="e.g. PO-2312 received, counter sale, cycle count" value="${esc(d.reason)}" class="${err.reason ? 'invalid' : ''}">
            ${e('reason')}
          </label>
          ${e('stock')}
          <button type="submit" class="btn btn-primary btn-block">Save movement</button>
        </form>
      </section>`;
  }

  function bindMovementForm(p) {
    const form = $('#mv-form');
    if (!form) return;
    const read = () => ({
      type: $('#mv-type').value, dir: $('#mv-dir').value, qty: $('#mv-qty').value,
      date: $('#mv-date').value, reason: $('#mv-reason').value,
    });
    $('#mv-type').addEventListener('change', () => {
      $('#mv-dir-field').hidden = $('#mv-type').value !== 'adjust';
    });
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const v = read();
      const qty = Number(v.qty.trim());
      const errs = {};
      hooks.checkQty?.(v, errs);
      hooks.checkDate?.(v, errs);
      const decreasing = v.type === 'out' || (v.type === 'adjust' && v.dir === 'dec');
      if (!errs.qty && decreasing) hooks.checkStock?.(p, qty, errs);
      hooks.checkReason?.(v, errs);
      ui.mvErrors = errs;
      if (Object.keys(errs).length) {
        ui.mvDraft = v;
        renderDetail(p.sku);
        return;
      }
      state.seq += 1;
      const m = {
        id: `MV-${String(state.seq).padStart(4, '0')}`, n: state.seq, date: v.date || state.meta.today,
        sku: p.sku, type: v.type, quantity: v.type === 'adjust' && decreasing ? -qty : qty,
        reason: v.reason.trim(), reference: '',
      };
      p.quantity += delta(m);
      state.movements.push(m);
      save();
      ui.mvDraft = { type: v.type, dir: v.dir, qty: '', date: v.date, reason: '' };
      ui.notice = `Recorded: ${TYPE_LABEL[m.type].toLowerCase()} ${signed(delta(m))} — ${qtyText(p.quantity)} on hand`;
      hooks.afterMovement?.(p);
    });
  }

  /* @feature record-movement */
  hooks.movementForm = movementFormHTML;
  hooks.bindMovementForm = bindMovementForm;
  hooks.afterMovement = (p) => renderDetail(p.sku);
  /* @end record-movement */
  /* @broken record-movement */
  hooks.movementForm = movementFormHTML;
  hooks.bindMovementForm = bindMovementForm;
  hooks.afterMovement = (p) => {
    $('#onhand').innerHTML = `<strong>${qtyText(p.quantity)}</strong> on hand`;
    $('#mv-qty').value = '';
    $('#mv-reason').value = '';
    document.querySelectorAll('#mv-form .error').forEach((e) => e.remove());
    ui.notice = null;
  };
  /* @end record-movement */

  /* @feature qty-validation */
  hooks.checkQty = (v, errs) => {
    if (!/^\d+$/.test(v.qty.trim()) || Number(v.qty) <= 0) errs.qty = 'Enter a whole number greater than 0.';
  };
  /* @end qty-validation */

  /* @feature date-guard */
  hooks.checkDate = (v, errs) => {
    if (v.date && v.date > state.meta.today) errs.date = `The date cannot be after today (${state.meta.today}).`;
  };
  /* @end date-guard */

  /* @feature stock-guard */
  hooks.checkStock = (p, qty, errs) => {
    const avail = Math.max(p.quantity, 0);
    if (qty > avail) errs.stock = `Not enough stock: only ${avail} on hand.`;
  };
  /* @end stock-guard */
  /* @broken stock-guard */
  hooks.checkStock = (p, qty, errs) => {
    const avail = Math.max(p.quantity, 0);
    if (qty >= avail) errs.stock = `Not enough stock: only ${avail} on hand.`;
  };
  /* @end stock-guard */

  /* @feature adjust-reason */
  hooks.checkReason = (v, errs) => {
    if (v.type === 'adjust' && !v.reason.trim()) errs.reason = 'A reason is required for adjustments.';
  };
  /* @end adjust-reason */

  // ------------------------------------------------------------ add / edit product
  const FORM_FIELDS = [
    ['sku', 'SKU'], ['name', 'Product name'], ['category', 'Category'], ['supplier', 'Supplier'],
    ['unit_cost', 'Unit cost'], ['price', 'Price'], ['quantity', 'Quantity on hand'],
    ['reorder_point', 'Reorder point'], ['pack_size', 'Pack size'], ['bin', 'Location bin'],
  ];

  function renderForm(mode, p) {
    if (mode === 'edit' && !p) { app.innerHTML = hooks.notFound?.(ui.routeSku) ?? ''; return; }
    const f = ui.form && ui.form.mode === mode && ui.form.sku === (p ? p.sku : '') ? ui.form.values
      : p ? {
        sku: p.sku, name: p.name, category: p.category, supplier: p.supplier,
        unit_cost: (cents(p.unit_cost) / 100).toFixed(2), price: (cents(p.price) / 100).toFixed(2),
        quantity: String(p.quantity), reorder_point: String(p.reorder_point),
        pack_size: String(p.pack_size), bin: p.bin,
      } : { sku: '', name: '', category: '', supplier: '', unit_cost: '', price: '', quantity: '0', reorder_point: '', pack_size: '1', bin: '' };
    const err = ui.formErrors;
    const e = (k) => (err[k] ? `<p class="error">${esc(err[k])}</p>` : '');
    const inp = (k, label, attrs = '') => `
      <label class="field"><span class="field-label">${label}</span>
        <input id="pf-${k}" name="${k}" value="${esc(f[k])}" class="${err[k] ? 'invalid' : ''}" ${attrs}>
        ${e(k)}${k === 'price' ? '<div id="price-warning"></div>' : ''}
      </label>`;
    const cats = categories();
    const sups = suppliers();
    app.innerHTML = `
      <a class="back" href="${p ? `#/product/${esc(p.sku)}` : '#/'}">← ${p ? 'Back to product' : 'All products'}</a>
      <div class="page-head"><div><h1>${mode === 'edit' ? `Edit ${esc(p.name)}` : 'Add product'}</h1>
        <p class="lede">${mode === 'edit' ? 'Stock on hand changes only through movements.' : 'New products start with their opening stock.'}</p></div></div>
      <form class="card form-card" id="product-form" novalidate>
        <div class="form-grid">
          ${inp('sku', 'SKU', `placeholder="ABC-1234" autocomplete="off"${mode === 'edit' ? ' readonly' : ''}`)}
          ${inp('name', 'Product name', 'autocomplete="off"')}
          <label class="field"><span class="field-label">Category</span>
            <select id="pf-category" name="category" class="${err.category ? 'invalid' : ''}">
              <option value="">Choose a category…</option>
              ${cats.map((c) => `<option${c === f.category ? ' selected' : ''}>${esc(c)}</option>`).join('')}
            </select>${e('category')}
          </label>
          <label class="field"><span class="field-label">Supplier</span>
            <select id="pf-supplier" name="supplier">
              <option value="">No supplier</option>
              ${sups.map((s) => `<option${s === f.supplier ? ' selected' : ''}>${esc(s)}</option>`).join('')}
            </select>
          </label>
          ${inp('unit_cost', 'Unit cost', 'inputmode="decimal" placeholder="0.00"')}
          ${inp('price', 'Price', 'inputmode="decimal" placeholder="0.00"')}
          ${mode === 'new' ? inp('quantity', 'Quantity on hand', 'inputmode="numeric"') : ''}
          ${inp('reorder_point', 'Reorder point', 'inputmode="numeric"')}
          ${inp('pack_size', 'Pack size', 'inputmode="numeric"')}
          ${inp('bin', 'Location bin', 'placeholder="A-01-1"')}
        </div>
        <div class="form-actions">
          <a class="btn btn-ghost" href="${p ? `#/product/${esc(p.sku)}` : '#/'}">Cancel</a>
          <button type="submit" class="btn btn-primary">Save product</button>
        </div>
      </form>`;
    const form = $('#product-form');
    const read = () => Object.fromEntries(FORM_FIELDS.map(([k]) => [k, form.elements[k] ? form.elements[k].value : (p ? String(p[k]) : '')]));
    hooks.bindPriceWarning?.(form);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const v = read();
      v.rawSku = v.sku;
      v.sku = v.sku.trim().toUpperCase();
      const errs = {};
      if (mode === 'new') hooks.validateSku?.(v, errs);
      hooks.validateFields?.(v, errs, mode);
      ui.formErrors = errs;
      ui.form = { mode, sku: p ? p.sku : '', values: v };
      if (Object.keys(errs).length) { renderForm(mode, p); return; }
      const clean = {
        name: v.name.trim(), category: v.category, supplier: v.supplier,
        unit_cost: Number(v.unit_cost) || 0, price: Number(v.price) || 0,
        quantity: Math.trunc(Number(v.quantity) || 0), reorder_point: Math.trunc(Number(v.reorder_point) || 0),
        pack_size: Math.max(1, Math.trunc(Number(v.pack_size) || 1)), bin: v.bin.trim().toUpperCase(),
      };
      if (mode === 'new') hooks.saveNew?.(v.sku, clean);
      else hooks.saveEdit?.(p, clean);
    });
  }

  function createProduct(sku, clean, opening) {
    const p = { sku, ...clean };
    state.products.push(p);
    if (opening && p.quantity > 0) {
      state.seq += 1;
      state.movements.push({ id: `MV-${String(state.seq).padStart(4, '0')}`, n: state.seq, date: state.meta.today,
        sku, type: 'in', quantity: p.quantity, reason: 'Opening stock', reference: '' });
    }
    save();
    ui.form = null; ui.formErrors = {};
    ui.notice = `Product ${sku} added.`;
    location.hash = `#/product/${sku}`;
  }

  /* @feature add-product */
  hooks.addLink = () => `<a class="btn btn-primary" href="#/new">
    <svg viewBox="0 0 20 20" aria-hidden="true"><path d="M10 4v12M4 10h12" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
    Add product</a>`;
  hooks.saveNew = (sku, clean) => createProduct(sku, clean, true);
  /* @end add-product */
  /* @broken add-product */
  hooks.addLink = () => `<a class="btn btn-primary" href="#/new">
    <svg viewBox="0 0 20 20" aria-hidden="true"><path d="M10 4v12M4 10h12" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
    Add product</a>`;
  hooks.saveNew = (sku, clean) => createProduct(sku, clean, false);
  /* @end add-product */

  /* @feature edit-product */
  hooks.editLink = (p) => `<a class="btn btn-secondary btn-sm" href="#/product/${esc(p.sku)}/edit">Edit product</a>`;
  hooks.saveEdit = (p, clean) => {
    const { quantity, ...rest } = clean;
    Object.assign(p, rest);
    save();
    ui.form = null; ui.formErrors = {};
    ui.notice = 'Changes saved.';
    location.hash = `#/product/${p.sku}`;
  };
  /* @end edit-product */
  /* @broken edit-product */
  hooks.editLink = (p) => `<a class="btn btn-secondary btn-sm" href="#/product/${esc(p.sku)}/edit">Edit product</a>`;
  hooks.saveEdit = (p, clean) => {
    const { quantity, price, ...rest } = clean;
    Object.assign(p, rest);
    save();
    ui.form = null; ui.formErrors = {};
    ui.notice = 'Changes saved.';
    location.hash = `#/product/${p.sku}`;
  };
  /* @end edit-product */

  /* @feature sku-validation */
  hooks.validateSku = (v, errs) => {
    if (!/^[A-Z]{3}-\d{4}$/.test(v.sku)) {
      errs.sku = 'SKU must be 3 letters, a dash and 4 digits, e.g. TLS-4107.';
      return;
    }
    const other = state.products.find((p) => p.sku.toUpperCase() === v.sku);
    if (other) errs.sku = `SKU ${other.sku} is already used by ${other.name}.`;
  };
  /* @end sku-validation */
  /* @broken sku-validation */
  hooks.validateSku = (v, errs) => {
    if (!/^[A-Z]{3}-\d{4}$/.test(v.sku)) {
      errs.sku = 'SKU must be 3 letters, a dash and 4 digits, e.g. TLS-4107.';
      return;
    }
    const other = state.products.find((p) => p.sku === v.rawSku.trim());
    if (other) errs.sku = `SKU ${other.sku} is already used by ${other.name}.`;
  };
  /* @end sku-validation */

  /* @feature field-validation */
  hooks.validateFields = (v, errs, mode) => {
    const num = (s) => (/^\s*-?\d+(\.\d+)?\s*$/.test(s) ? Number(s) : NaN);
    const whole = (s) => (/^\s*\d+\s*$/.test(s) ? Number(s) : NaN);
    if (!v.name.trim()) errs.name = 'Product name is required.';
    if (!v.category) errs.category = 'Choose a category.';
    if (!(num(v.unit_cost) >= 0)) errs.unit_cost = 'Unit cost must be a number of 0 or more.';
    if (!(num(v.price) > 0)) errs.price = 'Price must be a number greater than 0.';
    if (mode === 'new' && !(whole(v.quantity) >= 0)) errs.quantity = 'Quantity must be a whole number of 0 or more.';
    if (!(whole(v.reorder_point) >= 0)) errs.reorder_point = 'Reorder point must be a whole number of 0 or more.';
    if (!(whole(v.pack_size) >= 1)) errs.pack_size = 'Pack size must be a whole number of 1 or more.';
  };
  /* @end field-validation */

  /* @feature price-warning */
  hooks.bindPriceWarning = (form) => {
    const update = () => {
      const cost = Number(form.elements.unit_cost.value);
      const price = Number(form.elements.price.value);
      const box = $('#price-warning');
      const show = form.elements.unit_cost.value.trim() && form.elements.price.value.trim()
        && Number.isFinite(cost) && Number.isFinite(price) && price > 0 && price < cost;
      box.innerHTML = show ? '<p class="warning">Price is below unit cost — this product would sell at a loss.</p>' : '';
    };
    form.elements.unit_cost.addEventListener('input', update);
    form.elements.price.addEventListener('input', update);
    update();
  };
  /* @end price-warning */

  // ------------------------------------------------------------ reorder list
  function renderReorder() {
    const list = state.products.filter(isReorder).sort(bySku);
    app.innerHTML = `
      <div class="page-head"><div><h1>Reorder list</h1>
        <p class="lede">${plural(list.length, 'product', 'products')} at or below ${list.length === 1 ? 'its' : 'their'} reorder point</p></div></div>
      ${hooks.reorderTable?.(list) ?? ''}`;
  }

  function reorderTableHTML(list, suggest) {
    if (!list.length) {
      return `<div class="card empty"><p class="empty-title">Nothing to reorder — every product is above its reorder point.</p></div>`;
    }
    let total = 0;
    const rows = list.map((p) => {
      const s = suggest(p);
      const cost = s * cents(p.unit_cost);
      total += cost;
      return `<tr><td><a class="sku" href="#/product/${esc(p.sku)}">${esc(p.sku)}</a></td><td class="name">${esc(p.name)}</td>
        <td>${p.supplier ? esc(p.supplier) : `<span class="muted">${esc(supplierLabel(p) || '—')}</span>`}</td>
        <td class="num${p.quantity < 0 ? ' neg' : ''}">${qtyText(p.quantity)}</td><td class="num">${p.reorder_point}</td>
        <td class="num">${p.pack_size}</td><td class="num strong">${s}</td><td class="num">${money(cost)}</td></tr>`;
    }).join('');
    return `
      <div class="card">
        <div class="table-wrap">
          <table class="grid" aria-label="Reorder list">
            <thead><tr><th scope="col">SKU</th><th scope="col">Product</th><th scope="col">Supplier</th><th scope="col" class="num">On hand</th>
              <th scope="col" class="num">Reorder point</th><th scope="col" class="num">Pack size</th><th scope="col" class="num">Suggested order</th><th scope="col" class="num">Est. cost</th></tr></thead>
            <tbody>${rows}</tbody>
          </table>
        </div>
        <div class="reorder-foot">
          <span class="muted">Suggested order = 2 × reorder point − on hand, rounded up to full packs.</span>
          <strong class="total">Estimated order cost: ${money(total)}</strong>
        </div>
      </div>`;
  }

  /* @feature reorder-list */
  hooks.reorderTable = (list) => reorderTableHTML(list, (p) => {
    const need = Math.max(2 * p.reorder_point - onHand(p), 0);
    return Math.ceil(need / p.pack_size) * p.pack_size;
  });
  /* @end reorder-list */
  /* @broken reorder-list */
  hooks.reorderTable = (list) => reorderTableHTML(list, (p) => Math.max(2 * p.reorder_point - onHand(p), 0));
  /* @end reorder-list */

  // ------------------------------------------------------------ valuation
  function renderValuation() {
    app.innerHTML = `
      <div class="page-head"><div><h1>Inventory valuation</h1>
        <p class="lede">Stock on hand as of ${esc(fmtToday(state.meta.today))}</p></div></div>
      ${hooks.valuation?.() ?? ''}`;
  }

  function valuationData(qtyOf) {
    const by = new Map();
    let cost = 0; let retail = 0; let units = 0;
    for (const p of state.products) {
      const q = qtyOf(p);
      const c = q * cents(p.unit_cost);
      cost += c; retail += q * cents(p.price); units += q;
      const g = by.get(p.category) || { category: p.category, skus: 0, units: 0, cost: 0 };
      g.skus += 1; g.units += q; g.cost += c;
      by.set(p.category, g);
    }
    const cats = [...by.values()].sort((a, b) => b.cost - a.cost || a.category.localeCompare(b.category));
    return { cost, retail, units, cats };
  }

  function valuationHTML(v) {
    const share = (c) => (v.cost ? ((c / v.cost) * 100).toFixed(1) : '0.0') + '%';
    const negs = state.products.filter((p) => p.quantity < 0).map((p) => p.sku);
    const card = (label, value, note) => `
      <section class="kpi" aria-label="${label}"><p class="kpi-label">${label}</p><p class="kpi-value">${value}</p>${note ? `<p class="kpi-note">${note}</p>` : ''}</section>`;
    return `
      <div class="kpis">
        ${card('Value at cost', money(v.cost), 'what the stock on hand cost us')}
        ${card('Value at retail', money(v.retail), 'at current shelf prices')}
        ${card('Potential margin', money(v.retail - v.cost), v.retail ? `${(((v.retail - v.cost) / v.retail) * 100).toFixed(1)}% of retail` : '')}
        ${card('Units on hand', String(v.units), `${plural(state.products.length, 'SKU', 'SKUs')}`)}
      </div>
      ${negs.length ? `<p class="note">Negative counts (${negs.map(esc).join(', ')}) are valued at $0 until recounted.</p>` : ''}
      <div class="val-grid">
        <div class="card">
          <div class="card-head"><h2>Value by category</h2></div>
          <table class="grid compact" aria-label="Value by category">
            <thead><tr><th scope="col">Category</th><th scope="col" class="num">SKUs</th><th scope="col" class="num">Units</th><th scope="col" class="num">Value at cost</th><th scope="col" class="num">Share</th></tr></thead>
            <tbody>${v.cats.map((g) => `<tr><td>${esc(g.category)}</td><td class="num">${g.skus}</td><td class="num">${g.units}</td><td class="num">${money(g.cost)}</td><td class="num">${share(g.cost)}</td></tr>`).join('')}</tbody>
            <tfoot><tr><th scope="row">Total</th><td class="num">${state.products.length}</td><td class="num">${v.units}</td><td class="num">${money(v.cost)}</td><td class="num">100.0%</td></tr></tfoot>
          </table>
        </div>
        <div class="card">
          <div class="card-head"><h2>Value at cost by category</h2></div>
          ${hooks.valuationChart?.(v) ?? '<p class="muted">Chart unavailable.</p>'}
        </div>
      </div>`;
  }

  /* @feature valuation */
  hooks.valuation = () => valuationHTML(valuationData(onHand));
  /* @end valuation */
  /* @broken valuation */
  hooks.valuation = () => valuationHTML(valuationData((p) => Number(p.quantity) || 0));
  /* @end valuation */

  /* @feature valuation-chart */
  hooks.valuationChart = (v) => {
    const W = 460; const rowH = 34; const left = 96; const right = 84;
    const H = v.cats.length * rowH + 10;
    const max = Math.max(...v.cats.map((g) => g.cost), 1);
    const colors = ['#1e3a5f', '#2f5d8a', '#3f7cb3', '#5b9bd0', '#86b8e0', '#b3d3ee'];
    const bars = v.cats.map((g, i) => {
      const w = Math.max(2, ((W - left - right) * g.cost) / max);
      const y = i * rowH + 6;
      return `<text x="${left - 10}" y="${y + 17}" text-anchor="end" class="ax">${esc(g.category)}</text>
        <rect class="bar" x="${left}" y="${y}" width="${w.toFixed(1)}" height="22" rx="4" fill="${colors[i % colors.length]}"><title>${esc(g.category)}: ${money(g.cost)}</title></rect>
        <text x="${left + w + 8}" y="${y + 16}" class="val">${money(g.cost)}</text>`;
    }).join('');
    return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Value at cost by category">${bars}</svg>`;
  };
  /* @end valuation-chart */

  // ------------------------------------------------------------ persistence
  /* @feature persistence */
  hooks.loadSaved = () => {
    try {
      const s = JSON.parse(localStorage.getItem(KEY) || 'null');
      return s && Array.isArray(s.products) ? s : null;
    } catch (e) { return null; }
  };
  hooks.save = () => {
    try {
      localStorage.setItem(KEY, JSON.stringify({
        meta: state.meta, products: state.products, movements: state.movements,
        importIssues: state.importIssues, seq: state.seq,
      }));
    } catch (e) { /* storage full or disabled: keep working in memory */ }
  };
  /* @end persistence */
  /* @broken persistence */
  hooks.loadSaved = () => {
    try {
      const s = JSON.parse(localStorage.getItem(KEY) || 'null');
      return s && Array.isArray(s.products) ? s : null;
    } catch (e) { return null; }
  };
  hooks.save = () => {
    try {
      localStorage.setItem(KEY, JSON.stringify({
        meta: state.meta, products: state.products, importIssues: state.importIssues, seq: state.seq,
      }));
    } catch (e) { /* storage full or disabled */ }
  };
  /* @end persistence */

  /* @feature reset-data */
  $('#reset-data')?.addEventListener('click', () => {
    if (window.confirm('Discard all changes and reload the sample data from the files?')) resetData();
  });
  /* @end reset-data */

  // ------------------------------------------------------------ router
  function render() {
    const hash = decodeURIComponent(location.hash.replace(/^#\/?/, ''));
    const parts = hash.split('/').filter(Boolean);
    let nav = 'products';
    if (!state.meta.today) return;
    if (parts[0] === 'product' && parts[1]) {
      ui.routeSku = parts[1];
      if (parts[2] === 'edit') renderForm('edit', productBySku(parts[1]));
      else renderDetail(parts[1]);
    } else if (parts[0] === 'new') {
      renderForm('new', null);
    } else if (parts[0] === 'reorder') {
      nav = 'reorder'; renderReorder();
    } else if (parts[0] === 'valuation') {
      nav = 'valuation'; renderValuation();
    } else {
      renderProducts();
    }
    document.querySelectorAll('.mainnav a').forEach((a) => a.classList.toggle('active', a.dataset.nav === nav));
    const count = $('#nav-reorder-count');
    if (count) count.textContent = String(state.products.filter(isReorder).length);
  }

  let lastRoute = location.hash;
  window.addEventListener('hashchange', () => {
    if (location.hash !== lastRoute) {
      ui.mvErrors = {}; ui.mvDraft = null; ui.formErrors = {}; ui.form = null;
      if (!/^#\/?$/.test(location.hash)) ui.csv = null;
    }
    lastRoute = location.hash;
    render();
    window.scrollTo(0, 0);
  });

  load().catch((err) => {
    app.innerHTML = `<div class="card empty big"><h1>Could not load the stock data</h1><p class="muted">${esc(err.message)}</p></div>`;
  });
})();
