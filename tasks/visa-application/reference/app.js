'use strict';
// Visa application: a four-step form (#/personal, #/passport, #/travel, #/review) checked
// against fixed rules and the destinations of data/visa-rules.json; the draft and the submitted
// application are kept in localStorage.
const DRAFT_KEY = 'visa-application-draft-v1';
const SUBMITTED_KEY = 'visa-application-submitted-v1';
const STEPS = [
  { key: 'personal', name: 'Personal', title: 'Personal details' },
  { key: 'passport', name: 'Passport', title: 'Passport details' },
  { key: 'travel', name: 'Travel', title: 'Travel details' },
  { key: 'review', name: 'Review', title: 'Review your application' },
];
const ALL_PURPOSES = ['Tourism', 'Business', 'Study'];
const state = {
  today: '', countries: [], destinations: [], lastRef: 0,
  draft: blankDraft(), errors: {}, submitted: { count: 0, last: null }, step: 'personal',
};
const HOOKS = {};      // optional parts registered by the features below
const REFRESH = [];    // functions that update the dependent parts of the current step
const ACTIONS = {};    // data-act name -> handler
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const money = (n) => '$' + (Math.round(n * 100) / 100).toFixed(2);

function blankDraft() {
  return {
    personal: { name: '', dob: '', guardian: '', nationality: '', email: '' },
    passport: { number: '', issuing: '', issue: '', expiry: '' },
    travel: { destination: '', purpose: '', arrival: '', departure: '', refused: '', details: '' },
  };
}

// ------------------------------------------------------------------ dates (YYYY-MM-DD strings)
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
function parts(s) {
  const m = ISO.exec(String(s || ''));
  if (!m) return null;
  const y = +m[1]; const mo = +m[2]; const d = +m[3];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  if (dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return null;
  return { y, m: mo, d };
}
const isDate = (s) => parts(s) !== null;
const iso = (y, m, d) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
function addMonths(s, n) {
  const p = parts(s);
  const total = p.y * 12 + (p.m - 1) + n;
  const y = Math.floor(total / 12); const m = total % 12;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return iso(y, m + 1, Math.min(p.d, last));
}
function addDays(s, n) {
  const p = parts(s);
  const dt = new Date(Date.UTC(p.y, p.m - 1, p.d + n));
  return iso(dt.getUTCFullYear(), dt.getUTCMonth() + 1, dt.getUTCDate());
}
function daysBetween(a, b) {
  const p = parts(a); const q = parts(b);
  return Math.round((Date.UTC(q.y, q.m - 1, q.d) - Date.UTC(p.y, p.m - 1, p.d)) / 86400000);
}
function ageOf(dob) {
  const b = parts(dob); const t = parts(state.today);
  if (!b || !t) return null;
  let a = t.y - b.y;
  if (t.m < b.m || (t.m === b.m && t.d < b.d)) a -= 1;
  return a;
}
const validDob = (dob) => isDate(dob) && dob <= state.today && dob >= addMonths(state.today, -1440);

// ------------------------------------------------------------------ data
function loadDestinations(raw) {
  let list = raw.map((d) => ({
    code: String(d.code || '').toUpperCase(), name: String(d.name || ''),
    fee: typeof d.fee === 'number' ? d.fee : null,
    minStay: Number(d.minStay), maxStay: Number(d.maxStay),
    purposes: Array.isArray(d.purposes) && d.purposes.length ? d.purposes.map(String) : ['Tourism'],
    available: true, label: String(d.name || ''),
  }));
  /* @feature dedupe */
  const seen = new Set();
  list = list.filter((d) => (seen.has(d.code) ? false : (seen.add(d.code), true)));
  /* @end dedupe */
  /* @broken dedupe */
  const byCode = new Map();
  list.forEach((d) => byCode.set(d.code, d));
  list = [...byCode.values()];
  /* @end dedupe */
  /* @feature unavailable */
  list.forEach((d) => {
    if (!(d.minStay <= d.maxStay)) { d.available = false; d.label = `${d.name} (not available)`; }
  });
  /* @end unavailable */
  /* @broken unavailable */
  list.forEach((d) => { if (!(d.minStay <= d.maxStay)) d.label = `${d.name} (not available)`; });
  /* @end unavailable */
  return list;
}
const destByCode = (code) => state.destinations.find((d) => d.code === code) || null;
const currentDest = () => destByCode(state.draft.travel.destination);

function feeText(dest) {
  if (!dest) return '';
  /* @feature no-fee */
  if (dest.fee === null) return 'to be confirmed';
  /* @end no-fee */
  /* @broken no-fee */
  if (dest.fee === null) return 'Free';
  /* @end no-fee */
  let fee = dest.fee || 0;
  let note = '';
  /* @feature child-fee */
  const age = ageOf(state.draft.personal.dob);
  if (age !== null && age >= 0 && age < 12) { fee /= 2; note = ' (child rate)'; }
  /* @end child-fee */
  /* @broken child-fee */
  const born = parts(state.draft.personal.dob);
  const age = born ? parts(state.today).y - born.y : null;
  if (age !== null && age >= 0 && age < 12) { fee /= 2; note = ' (child rate)'; }
  /* @end child-fee */
  return money(fee) + note;
}

const normNumber = (s) => String(s || '').trim().toUpperCase();
const stayOf = (t) => (isDate(t.arrival) && isDate(t.departure) ? daysBetween(t.arrival, t.departure) : null);

// ------------------------------------------------------------------ rules
function validatePersonal(v) {
  const e = {};
  /* @feature personal-validation */
  if (!v.name.trim()) e.name = 'Full name is required.';
  if (!v.nationality) e.nationality = 'Choose your nationality.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())) e.email = 'Enter a valid email address.';
  /* @end personal-validation */
  /* @broken personal-validation */
  if (!v.name) e.name = 'Full name is required.';
  if (!v.nationality) e.nationality = 'Choose your nationality.';
  if (!v.email.includes('@')) e.email = 'Enter a valid email address.';
  /* @end personal-validation */
  /* @feature age-rules */
  if (!validDob(v.dob)) e.dob = 'Enter a valid date of birth.';
  else if (ageOf(v.dob) < 18 && !v.guardian.trim()) e.guardian = 'Guardian name is required for applicants under 18.';
  /* @end age-rules */
  /* @broken age-rules */
  if (!validDob(v.dob)) e.dob = 'Enter a valid date of birth.';
  else if (parts(state.today).y - parts(v.dob).y < 18 && !v.guardian.trim()) e.guardian = 'Guardian name is required for applicants under 18.';
  /* @end age-rules */
  return e;
}

function validatePassport(v) {
  const e = {};
  /* @feature passport-format */
  if (!/^[A-Z]{2}\d{7}$/.test(normNumber(v.number))) e.number = 'Passport number must be 2 letters followed by 7 digits.';
  /* @end passport-format */
  /* @broken passport-format */
  if (!/^[A-Z]{1,2}\d{6,8}$/.test(normNumber(v.number))) e.number = 'Passport number must be 2 letters followed by 7 digits.';
  /* @end passport-format */
  if (!v.issuing) e.issuing = 'Choose the issuing country.';
  /* @feature passport-dates */
  if (!isDate(v.issue)) e.issue = 'Enter the issue date.';
  else if (v.issue > state.today) e.issue = 'Issue date cannot be in the future.';
  if (!isDate(v.expiry)) e.expiry = 'Enter the expiry date.';
  else if (v.expiry <= state.today) e.expiry = 'Passport has expired.';
  else if (isDate(v.issue) && v.expiry > addMonths(v.issue, 120)) e.expiry = 'Expiry date cannot be more than 10 years after the issue date.';
  /* @end passport-dates */
  /* @broken passport-dates */
  if (!isDate(v.issue)) e.issue = 'Enter the issue date.';
  if (!isDate(v.expiry)) e.expiry = 'Enter the expiry date.';
  else if (v.expiry <= state.today) e.expiry = 'Passport has expired.';
  /* @end passport-dates */
  return e;
}

function validateTravel(t, p) {
  const e = {};
  const dest = destByCode(t.destination);
  if (!dest || !dest.available) e.destination = 'Choose a destination.';
  if (!t.purpose) e.purpose = 'Choose a purpose of visit.';
  /* @feature travel-dates */
  if (!isDate(t.arrival)) e.arrival = 'Enter the arrival date.';
  else if (t.arrival <= state.today) e.arrival = 'Arrival date must be after today.';
  if (!isDate(t.departure)) e.departure = 'Enter the departure date.';
  else if (isDate(t.arrival) && t.departure <= t.arrival) e.departure = 'Departure date must be after the arrival date.';
  /* @end travel-dates */
  /* @broken travel-dates */
  if (!isDate(t.arrival)) e.arrival = 'Enter the arrival date.';
  else if (t.arrival < state.today) e.arrival = 'Arrival date must be after today.';
  if (!isDate(t.departure)) e.departure = 'Enter the departure date.';
  else if (isDate(t.arrival) && t.departure <= t.arrival) e.departure = 'Departure date must be after the arrival date.';
  /* @end travel-dates */
  /* @feature stay-rule */
  if (dest && !e.departure && stayOf(t) !== null) {
    const n = stayOf(t);
    if (n < dest.minStay || n > dest.maxStay) e.stay = `Stay must be between ${dest.minStay} and ${dest.maxStay} days for ${dest.name}.`;
  }
  /* @end stay-rule */
  /* @broken stay-rule */
  if (dest && !e.departure && stayOf(t) !== null) {
    const n = stayOf(t);
    if (n < dest.minStay || n >= dest.maxStay) e.stay = `Stay must be between ${dest.minStay} and ${dest.maxStay} days for ${dest.name}.`;
  }
  /* @end stay-rule */
  /* @feature passport-validity */
  if (isDate(t.arrival) && isDate(p.expiry) && p.expiry < addMonths(t.arrival, 6)) {
    e.validity = 'Passport must be valid for at least 6 months after the arrival date.';
  }
  /* @end passport-validity */
  /* @broken passport-validity */
  if (isDate(t.arrival) && isDate(p.expiry) && p.expiry < addDays(t.arrival, 180)) {
    e.validity = 'Passport must be valid for at least 6 months after the arrival date.';
  }
  /* @end passport-validity */
  if (t.refused !== 'yes' && t.refused !== 'no') e.refused = 'Answer the question about previous refusals.';
  /* @feature refusal-details */
  if (t.refused === 'yes' && !t.details.trim()) e.details = 'Refusal details are required.';
  /* @end refusal-details */
  return e;
}

const VALIDATE = [
  () => validatePersonal(state.draft.personal),
  () => validatePassport(state.draft.passport),
  () => validateTravel(state.draft.travel, state.draft.passport),
];
const stepIndex = (key) => STEPS.findIndex((s) => s.key === key);

// ------------------------------------------------------------------ storage
function saveDraft(reason) {
  /* @feature draft */
  localStorage.setItem(DRAFT_KEY, JSON.stringify(state.draft));
  /* @end draft */
  /* @broken draft */
  if (reason !== 'input') localStorage.setItem(DRAFT_KEY, JSON.stringify(state.draft));
  /* @end draft */
}
function saveSubmitted() {
  /* @feature draft */
  localStorage.setItem(SUBMITTED_KEY, JSON.stringify(state.submitted));
  /* @end draft */
  /* @broken draft */
  localStorage.setItem(SUBMITTED_KEY, JSON.stringify(state.submitted));
  /* @end draft */
}
function loadStored() {
  /* @feature draft */
  try {
    const d = JSON.parse(localStorage.getItem(DRAFT_KEY) || 'null');
    if (d && typeof d === 'object') {
      const blank = blankDraft();
      Object.keys(blank).forEach((k) => { state.draft[k] = { ...blank[k], ...(d[k] || {}) }; });
    }
    const s = JSON.parse(localStorage.getItem(SUBMITTED_KEY) || 'null');
    if (s && typeof s.count === 'number') state.submitted = s;
  } catch (err) { /* unreadable storage: start empty */ }
  /* @end draft */
  /* @broken draft */
  try {
    const d = JSON.parse(localStorage.getItem(DRAFT_KEY) || 'null');
    if (d && typeof d === 'object') {
      const blank = blankDraft();
      Object.keys(blank).forEach((k) => { state.draft[k] = { ...blank[k], ...(d[k] || {}) }; });
    }
    const s = JSON.parse(localStorage.getItem(SUBMITTED_KEY) || 'null');
    if (s && typeof s.count === 'number') state.submitted = s;
  } catch (err) { /* unreadable storage: start empty */ }
  /* @end draft */
}

// ------------------------------------------------------------------ building the steps
function errSlot(key) { return `<p class="error" id="e-${key}"></p>`; }
function input(key, label, type, extra = '') {
  return `<div class="field" id="w-${key}" ${extra}><label for="f-${key}">${esc(label)}</label>
    <input id="f-${key}" type="${type}" data-key="${key}" autocomplete="off" aria-describedby="e-${key}">
    ${errSlot(key)}</div>`;
}
function select(key, label, options) {
  const opts = options.map(([v, text, disabled]) => `<option value="${esc(v)}"${disabled ? ' disabled' : ''}>${esc(text)}</option>`).join('');
  return `<div class="field" id="w-${key}"><label for="f-${key}">${esc(label)}</label>
    <select id="f-${key}" data-key="${key}" aria-describedby="e-${key}"><option value="">Choose…</option>${opts}</select>
    ${errSlot(key)}</div>`;
}
const countryOptions = () => state.countries.map((c) => [c, c]);

function personalHtml() {
  let h = input('name', 'Full name', 'text');
  h += '<div class="pair">' + input('dob', 'Date of birth', 'date');
  /* @feature age-display */
  h += '<p class="age" id="age-line"></p>';
  /* @end age-display */
  /* @broken age-display */
  h += '<p class="age" id="age-line"></p>';
  /* @end age-display */
  h += '</div>';
  /* @feature age-rules */
  h += input('guardian', 'Guardian name', 'text', 'hidden');
  /* @end age-rules */
  /* @broken age-rules */
  h += input('guardian', 'Guardian name', 'text', 'hidden');
  /* @end age-rules */
  h += select('nationality', 'Nationality', countryOptions());
  h += input('email', 'Email', 'email');
  return h;
}

function passportHtml() {
  return input('number', 'Passport number', 'text')
    + select('issuing', 'Issuing country', countryOptions())
    + '<div class="pair">' + input('issue', 'Issue date', 'date') + input('expiry', 'Expiry date', 'date') + '</div>';
}

function travelHtml() {
  let h = select('destination', 'Destination', state.destinations.map((d) => [d.code, d.label, !d.available]));
  /* @feature country-info */
  h += '<div class="rules" id="dest-info" hidden></div>';
  /* @end country-info */
  /* @broken country-info */
  h += '<div class="rules" id="dest-info" hidden></div>';
  /* @end country-info */
  h += select('purpose', 'Purpose of visit', []);
  h += '<div class="pair">' + input('arrival', 'Arrival date', 'date') + input('departure', 'Departure date', 'date') + '</div>';
  h += errSlot('stay') + errSlot('validity');
  h += `<fieldset class="field" id="w-refused"><legend>Have you ever been refused a visa?</legend>
    <label class="inline"><input type="radio" name="refused" value="yes" data-key="refused"> Yes</label>
    <label class="inline"><input type="radio" name="refused" value="no" data-key="refused"> No</label>
    ${errSlot('refused')}</fieldset>`;
  /* @feature refusal-details */
  h += `<div class="field" id="w-details" hidden><label for="f-details">Refusal details</label>
    <textarea id="f-details" rows="3" data-key="details" aria-describedby="e-details"></textarea>${errSlot('details')}</div>`;
  /* @end refusal-details */
  return h;
}

function purposesFor(dest) {
  let list = ALL_PURPOSES;
  /* @feature purposes */
  list = dest ? dest.purposes : [];
  /* @end purposes */
  /* @broken purposes */
  list = dest ? dest.purposes : [];
  /* @end purposes */
  return list;
}
function fillPurposes(force) {
  const sel = $('f-purpose');
  if (!sel) return;
  const list = purposesFor(currentDest());
  const key = list.join('|');
  if (!force && sel.dataset.list === key) return;
  /* @broken purposes */
  if (!force && sel.options.length > 1) return;   // only ever filled once
  /* @end purposes */
  sel.dataset.list = key;
  sel.innerHTML = '<option value="">Choose…</option>' + list.map((p) => `<option value="${esc(p)}">${esc(p)}</option>`).join('');
  const t = state.draft.travel;
  if (t.purpose && !list.includes(t.purpose)) { t.purpose = ''; saveDraft('input'); }
  sel.value = t.purpose;
}
REFRESH.push(() => fillPurposes(false));

/* @feature country-info */
REFRESH.push(() => {
  const box = $('dest-info');
  if (!box) return;
  const dest = currentDest();
  box.hidden = !dest;
  box.innerHTML = dest ? `<p>Visa fee: ${esc(feeText(dest))}</p><p>Stay: ${dest.minStay} to ${dest.maxStay} days</p>` : '';
});
/* @end country-info */
/* @broken country-info */
REFRESH.push(() => {
  const box = $('dest-info');
  if (!box || box.dataset.code) return;   // only the first destination chosen is ever shown
  const dest = currentDest();
  box.hidden = !dest;
  if (dest) box.dataset.code = dest.code;
  box.innerHTML = dest ? `<p>Visa fee: ${esc(feeText(dest))}</p><p>Stay: ${dest.minStay} to ${dest.maxStay} days</p>` : '';
});
/* @end country-info */

/* @feature age-display */
REFRESH.push(() => {
  const line = $('age-line');
  if (!line) return;
  const dob = state.draft.personal.dob;
  line.textContent = validDob(dob) ? `Age: ${ageOf(dob)}` : '';
});
/* @end age-display */
/* @broken age-display */
REFRESH.push(() => {
  const line = $('age-line');
  if (!line) return;
  const dob = state.draft.personal.dob;
  line.textContent = validDob(dob) ? `Age: ${parts(state.today).y - parts(dob).y}` : '';
});
/* @end age-display */

/* @feature age-rules */
REFRESH.push(() => {
  const w = $('w-guardian');
  if (!w) return;
  const dob = state.draft.personal.dob;
  w.hidden = !(validDob(dob) && ageOf(dob) < 18);
});
/* @end age-rules */
/* @broken age-rules */
REFRESH.push(() => {
  const w = $('w-guardian');
  if (!w) return;
  const dob = state.draft.personal.dob;
  w.hidden = !(validDob(dob) && parts(state.today).y - parts(dob).y < 18);
});
/* @end age-rules */

/* @feature refusal-details */
REFRESH.push(() => {
  const w = $('w-details');
  if (w) w.hidden = state.draft.travel.refused !== 'yes';
});
/* @end refusal-details */

// ------------------------------------------------------------------ review
function reviewLines(key) {
  const d = state.draft;
  const p = d.personal; const pp = d.passport; const t = d.travel;
  const dest = currentDest();
  if (key === 'personal') {
    const lines = [['Full name', p.name.trim()], ['Date of birth', p.dob], ['Nationality', p.nationality], ['Email', p.email.trim()]];
    if (validDob(p.dob) && ageOf(p.dob) < 18) lines.push(['Guardian name', p.guardian.trim()]);
    return lines;
  }
  if (key === 'passport') {
    return [['Passport number', normNumber(pp.number)], ['Issuing country', pp.issuing], ['Issue date', pp.issue], ['Expiry date', pp.expiry]];
  }
  let stay = stayOf(t);
  /* @broken review-summary */
  stay += 1;   // counts the arrival and the departure day
  /* @end review-summary */
  const lines = [['Destination', dest ? dest.name : ''], ['Purpose of visit', t.purpose], ['Arrival date', t.arrival],
    ['Departure date', t.departure], ['Length of stay', `${stay} days`], ['Previous refusal', t.refused === 'yes' ? 'Yes' : 'No']];
  if (t.refused === 'yes') lines.push(['Refusal details', t.details.trim()]);
  return lines;
}

/* @feature review-summary */
HOOKS.lines = (key) => `<dl class="lines">${reviewLines(key).map(([k, v]) => `<div><dt>${esc(k)}:</dt> <dd>${esc(v)}</dd></div>`).join('')}</dl>`;
HOOKS.fee = () => `<p class="fee">Visa fee: ${esc(feeText(currentDest()))}</p>`;
/* @end review-summary */
/* @broken review-summary */
HOOKS.lines = (key) => `<dl class="lines">${reviewLines(key).map(([k, v]) => `<div><dt>${esc(k)}:</dt> <dd>${esc(v)}</dd></div>`).join('')}</dl>`;
HOOKS.fee = () => `<p class="fee">Visa fee: ${esc(feeText(currentDest()))}</p>`;
/* @end review-summary */

/* @feature edit-links */
HOOKS.edit = (key, title) => `<button type="button" class="link" data-act="edit" data-step="${key}">Edit ${esc(title.toLowerCase())}</button>`;
ACTIONS.edit = (btn) => go(btn.dataset.step);
/* @end edit-links */
/* @broken edit-links */
HOOKS.edit = (key, title) => `<button type="button" class="link" data-act="edit" data-step="${key}">Edit ${esc(title.toLowerCase())}</button>`;
ACTIONS.edit = () => go('personal');
/* @end edit-links */

function reviewHtml() {
  const sections = STEPS.slice(0, 3).map((s) => `<section class="summary" aria-labelledby="rv-${s.key}">
      <div class="summary-head"><h3 id="rv-${s.key}">${esc(s.title)}</h3>${HOOKS.edit?.(s.key, s.title) ?? ''}</div>
      ${HOOKS.lines?.(s.key) ?? ''}</section>`).join('');
  let h = sections + (HOOKS.fee?.() ?? '');
  /* @feature confirm */
  h += `<div class="field"><label class="inline"><input type="checkbox" id="f-confirm"> I confirm the information is correct</label>
    ${errSlot('confirm')}</div>`;
  /* @end confirm */
  /* @broken confirm */
  h += `<div class="field"><label class="inline"><input type="checkbox" id="f-confirm"> I confirm the information is correct</label>
    ${errSlot('confirm')}</div>`;
  /* @end confirm */
  return h;
}

// ------------------------------------------------------------------ submission
/* @feature ref-number */
HOOKS.reference = (dest) => `VA-${dest.code}-${state.today.replace(/-/g, '')}-${String(state.lastRef + state.submitted.count + 1).padStart(4, '0')}`;
/* @end ref-number */
/* @broken ref-number */
HOOKS.reference = (dest) => `VA-${dest.code}-${state.today.replace(/-/g, '')}-${String(state.submitted.count + 1).padStart(4, '0')}`;
/* @end ref-number */

ACTIONS.submit = () => {
  /* @feature confirm */
  if (!$('f-confirm')?.checked) { showErrors({ confirm: 'Please confirm that the information is correct.' }); return; }
  /* @end confirm */
  /* @broken confirm */
  if (!$('f-confirm')) { showErrors({ confirm: 'Please confirm that the information is correct.' }); return; }
  /* @end confirm */
  const dest = currentDest();
  const last = { ref: HOOKS.reference?.(dest) ?? '', fee: feeText(dest), destination: dest.name, name: state.draft.personal.name.trim() };
  state.submitted = { count: state.submitted.count + 1, last };
  saveSubmitted();
  HOOKS.clearDraft?.();
  go('submitted');
};

/* @feature new-application */
HOOKS.clearDraft = () => { state.draft = blankDraft(); saveDraft('step'); };
HOOKS.newButton = () => '<button type="button" class="primary" data-act="new">Start a new application</button>';
ACTIONS.new = () => { HOOKS.clearDraft(); go('personal'); };
/* @end new-application */
/* @broken new-application */
HOOKS.newButton = () => '<button type="button" class="primary" data-act="new">Start a new application</button>';
ACTIONS.new = () => go('personal');
/* @end new-application */

function submittedHtml() {
  const s = state.submitted.last || {};
  return `<div class="done"><span class="tick" aria-hidden="true">✓</span><h2>Application submitted</h2>
    <p class="ref">Reference number: <strong>${esc(s.ref)}</strong></p>
    <p>Destination: ${esc(s.destination)}</p>
    <p>Visa fee: ${esc(s.fee)}</p>
    <p class="muted">Keep the reference number: you need it for any question about your application.</p>
    <div class="buttons">${HOOKS.newButton?.() ?? ''}</div></div>`;
}

// ------------------------------------------------------------------ progress indicator
/* @feature progress */
HOOKS.progress = (i) => {
  const items = STEPS.map((s, k) => `<li class="${k < i ? 'done' : ''}"${k === i ? ' aria-current="step"' : ''}><span class="num">${k < i ? '✓' : k + 1}</span>${esc(s.name)}</li>`).join('');
  return `<nav aria-label="Progress" class="progress"><ol>${items}</ol></nav>
    <p class="stepline">Step ${i + 1} of 4: ${esc(STEPS[i].title)}</p>`;
};
/* @end progress */
/* @broken progress */
HOOKS.progress = () => {
  const items = STEPS.map((s, k) => `<li${k === 0 ? ' aria-current="step"' : ''}><span class="num">${k + 1}</span>${esc(s.name)}</li>`).join('');
  return `<nav aria-label="Progress" class="progress"><ol>${items}</ol></nav>
    <p class="stepline">Step 1 of 4: ${esc(STEPS[0].title)}</p>`;
};
/* @end progress */

// ------------------------------------------------------------------ rendering and moving
/* @feature back */
HOOKS.back = () => '<button type="button" class="secondary" data-act="back">Back</button>';
ACTIONS.back = () => { const i = stepIndex(state.step); if (i > 0) go(STEPS[i - 1].key); };
/* @end back */
/* @broken back */
HOOKS.back = () => '<button type="button" class="secondary" data-act="back">Back</button>';
ACTIONS.back = () => {
  const i = stepIndex(state.step);
  if (i < 1) return;
  const prev = STEPS[i - 1].key;
  if (state.draft[prev]) { state.draft[prev] = blankDraft()[prev]; saveDraft('step'); }
  go(prev);
};
/* @end back */

function fillValues() {
  const sec = state.draft[state.step];
  if (!sec) return;
  $('view').querySelectorAll('[data-key]').forEach((el) => {
    const v = sec[el.dataset.key] ?? '';
    if (el.type === 'radio') el.checked = el.value === v;
    else if (el.id !== 'f-purpose') el.value = v;
  });
}

function showErrors(errors) {
  state.errors = errors;
  $('view').querySelectorAll('.error').forEach((p) => { p.textContent = ''; });
  $('view').querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
  Object.entries(errors).forEach(([k, msg]) => {
    const slot = $(`e-${k}`);
    if (slot) slot.textContent = msg;
    $(`f-${k}`)?.setAttribute('aria-invalid', 'true');
  });
}

function refresh() { REFRESH.forEach((f) => f()); }

function render(key) {
  state.step = key;
  state.errors = {};
  const view = $('view');
  if (key === 'submitted') {
    $('progress').innerHTML = '';
    view.innerHTML = submittedHtml();
    return;
  }
  const i = stepIndex(key);
  $('progress').innerHTML = HOOKS.progress?.(i) ?? '';
  const body = [personalHtml, passportHtml, travelHtml, reviewHtml][i]();
  const back = i > 0 ? (HOOKS.back?.() ?? '') : '';
  const fwd = i < 3 ? '<button type="button" class="primary" data-act="next">Next</button>'
    : '<button type="button" class="primary" data-act="submit">Submit application</button>';
  view.innerHTML = `<h2>${esc(STEPS[i].title)}</h2><form novalidate class="step step-${key}">${body}
    <div class="buttons">${back}<span class="grow"></span>${fwd}</div></form>`;
  fillValues();
  fillPurposes(true);
  refresh();
}

function go(key) {
  if (location.hash === `#/${key}`) route();
  else location.hash = `#/${key}`;
}

ACTIONS.next = () => {
  const i = stepIndex(state.step);
  const errors = VALIDATE[i]();
  if (Object.keys(errors).length) { showErrors(errors); return; }
  saveDraft('step');
  go(STEPS[i + 1].key);
};

function route() {
  let key = location.hash.replace(/^#\/?/, '');
  if (key === 'submitted') {
    if (state.submitted.last) { render('submitted'); return; }
    key = 'personal';
  }
  let i = stepIndex(key);
  if (i < 0) i = 0;
  /* @feature route-guard */
  for (let k = 0; k < i; k += 1) {
    if (Object.keys(VALIDATE[k]()).length) { i = k; break; }
  }
  /* @end route-guard */
  /* @broken route-guard */
  if (i > 0 && Object.keys(VALIDATE[0]()).length) i = 0;
  /* @end route-guard */
  const want = `#/${STEPS[i].key}`;
  if (location.hash !== want) history.replaceState(null, '', want);
  render(STEPS[i].key);
  window.scrollTo(0, 0);
}

function onField(e) {
  const el = e.target;
  const key = el.dataset?.key;
  const sec = state.draft[state.step];
  if (!key || !sec) return;
  if (el.type === 'radio') { if (el.checked) sec[key] = el.value; } else sec[key] = el.value;
  saveDraft('input');
  refresh();
}

$('view').addEventListener('input', onField);
$('view').addEventListener('change', onField);
$('view').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-act]');
  if (btn && ACTIONS[btn.dataset.act]) { e.preventDefault(); ACTIONS[btn.dataset.act](btn); }
});
$('view').addEventListener('submit', (e) => e.preventDefault());
window.addEventListener('hashchange', route);

fetch('data/visa-rules.json').then((r) => r.json()).then((data) => {
  state.today = data.today;
  state.lastRef = Number(data.lastReferenceNumber) || 0;
  state.countries = (data.countries || []).map(String);
  state.destinations = loadDestinations(data.destinations || []);
  $('asof').textContent = `Rules as of ${state.today}`;
  loadStored();
  route();
});
