"""The app's own structure, found by what it says rather than by its markup: a record (a row, a
card, an item) by the name it shows, a form by the heading over it, the one button that submits
the form being filled, a control by its exact visible text, and a showing's control by its time
under the day it belongs to.

A check written against the reference app reads "the row named Black Friday", "the form named
Checkout", "the button Apply"; an app nobody here wrote shows a card headed Black Friday, a form
under a heading "Checkout", a "Check code" button. These finders are rungs of the resolution
ladder (``asuka.uiagents.scripted.ladder``) and, like its other rungs, take only a unique answer.

A found element is marked with a ``data-asuka-found`` attribute (a number) so that the rest of
the check can address it with a CSS locator; nothing else on the page is touched.
"""

from __future__ import annotations

import itertools
from typing import Any

from playwright.async_api import Error as PWError

from asuka.schema import Locator, is_regex
from asuka.uiagents.browsing.locate import StepContext, build_locator
from asuka.uiagents.scripted import relax
from asuka.uiagents.scripted.relax import STOP_WORDS, regex_literal, score, words

# roles whose name is usually a title shown inside them (a record among its like)
RECORD_ROLES = frozenset({"row", "article", "listitem", "region", "group", "option",
                          "gridcell", "cell", "treeitem"})
MARK = "data-asuka-found"
# roles of a panel (a detail view, a side bar, a dialog) rather than a record among its like
PANEL_ROLES = frozenset({"region", "complementary", "dialog"})
# records that are items of a list or table: never a landmark of the page
ITEM_ROLES = frozenset({"listitem", "row", "option"})
_COUNTER = itertools.count(1)

# Elements showing ``name`` (normalised text, case-insensitive; those saying only the name, a
# title, when there are any), each climbed to its record: the first ancestor (or itself) that
# has a sibling alike (same tag, a class in common) and says more than the name.
_RECORDS_JS = """([name, mark, panel, item]) => {
  const norm = s => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase();
  const landmark = el => ['ASIDE', 'DIALOG', 'NAV', 'HEADER', 'FOOTER'].includes(el.tagName)
    || (['SECTION', 'FORM'].includes(el.tagName) && (el.hasAttribute('aria-label')
        || el.hasAttribute('aria-labelledby')))
    || ['region', 'complementary', 'dialog', 'navigation', 'banner', 'contentinfo', 'form',
        'main'].includes(el.getAttribute('role'));
  const want = norm(name);
  const seen = new Set(); const out = [];
  const visible = el => { const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none'; };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  const hits = [];
  for (let el = walker.nextNode(); el; el = walker.nextNode()) {
    if (['SCRIPT', 'STYLE', 'TEMPLATE', 'OPTION', 'SELECT'].includes(el.tagName)) continue;
    const own = norm(el.innerText);
    if (!own.includes(want) || !visible(el)) continue;
    // the smallest elements saying it: no child element says it too
    if (Array.from(el.children).some(c => norm(c.innerText).includes(want))) continue;
    hits.push(el);
  }
  // a title (an element saying just the name) over a mention inside a sentence or a button
  const titles = hits.filter(h => norm(h.innerText) === want);
  // alike: the same tag and a class in common (or neither has one), as a card among cards
  const alike = (a, b) => a.tagName === b.tagName && ((!a.classList.length &&
    !b.classList.length) || Array.from(a.classList).some(c => b.classList.contains(c)));
  const itemLike = el => ['LI', 'TR', 'ARTICLE'].includes(el.tagName)
    || ['listitem', 'row', 'option', 'article'].includes(el.getAttribute('role'));
  for (const hit of (titles.length ? titles : hits).slice(0, 20)) {
    let cur = hit, top = hit;
    const path = [hit];
    while (cur && cur !== document.body) {
      const p = cur.parentElement;
      if (!p) break;
      path.push(p);
      const like = Array.from(p.children).filter(c => c !== cur && alike(c, cur)
        && norm(c.innerText).length > 0);
      if (like.length && norm(cur.innerText).length > want.length + 1) break;
      if (p !== document.body && p.tagName !== 'MAIN') top = p;
      cur = p;
    }
    // a panel that is one of a kind (a detail view showing the record's id): the outermost
    // element holding it inside the page's main part
    if (panel && (!cur || cur === document.body || cur.tagName === 'MAIN')) cur = top;
    if (!cur || cur === document.body || seen.has(cur)) continue;
    // an item of a list is never a landmark: the detail panel showing "Floss" beside other
    // panels is not Floss's entry in the list (a mutant whose list lost it must still fail)
    if (item && landmark(cur)) {
      // the item it holds on the way (the one line of a basket), if any: else nothing
      const inner = path.slice(0, path.indexOf(cur)).reverse().find(itemLike);
      if (!inner || seen.has(inner)) continue;
      cur = inner;
    }
    seen.add(cur); out.push(cur);
  }
  if (out.length !== 1) return out.length;
  if (!out[0].hasAttribute(mark[0])) out[0].setAttribute(mark[0], mark[1]);
  return 'found:' + out[0].getAttribute(mark[0]);
}"""

# Every visible form with what names it to a person: its aria-label, legend or first heading
# inside, else the nearest heading before it in document order.
_FORMS_JS = """() => {
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const heads = Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading],legend'));
  return Array.from(document.querySelectorAll('form')).map((f, i) => {
    if (!visible(f)) return null;
    const inside = f.querySelector('legend,h1,h2,h3,h4,h5,h6,[role=heading]');
    let name = f.getAttribute('aria-label') || (inside && inside.innerText) || '';
    if (!name) {
      const before = heads.filter(h => h.compareDocumentPosition(f) &
        Node.DOCUMENT_POSITION_FOLLOWING);
      const h = before[before.length - 1];
      name = h ? h.innerText : '';
    }
    return [i, name];
  }).filter(Boolean);
}"""

# The one container of a kind (a list, a table, a section) that a visible heading saying the
# name titles: the first such element after the heading inside the heading's parent, or, for a
# section, the heading's parent itself when it holds more than the heading.
_TITLED_JS = """([name, kind, mark, contains]) => {
  const norm = s => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase()
    .replace(/[^\\p{L}\\p{N} ]/gu, '').trim();
  const want = norm(name);
  if (!want) return 0;
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const sel = {list: 'ul,ol,[role=list]', table: 'table,[role=table],[role=grid]',
               grid: 'table,[role=table],[role=grid]'}[kind];
  // a count after the title is a badge, not part of it: "Overdue (5)", "Catalogue (2 of 12)"
  const title = h => norm((h.innerText || '').replace(/\\s*\\(\\s*\\d+(\\s+of\\s+\\d+)?\\s*\\)\\s*$/, ''));
  const heads = Array.from(document.querySelectorAll(
    'h1,h2,h3,h4,h5,h6,[role=heading],caption,legend,summary')).filter(h =>
    visible(h) && (contains ? norm(h.innerText).includes(want)
      : title(h) === want || norm(h.innerText) === want));
  const level = h => { const m = /^H(\\d)$/.exec(h.tagName);
    return m ? +m[1] : +(h.getAttribute('aria-level') || 2); };
  const out = new Set();
  for (const h of heads.slice(0, 10)) {
    if (h.tagName === 'CAPTION' && sel && h.parentElement.matches(sel)) {
      out.add(h.parentElement); continue; }
    const parent = h.parentElement;
    if (!parent) continue;
    if (sel) {
      // the first one after the heading in its parent, else in the nearest ancestor that
      // holds no other heading of its level or above (a heading in a header row over the
      // section's table)
      for (let box = parent; box && box !== document.body; box = box.parentElement) {
        const rivals = Array.from(box.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]'))
          .filter(x => x !== h && visible(x) && level(x) <= level(h));
        if (box !== parent && rivals.length) break;
        const after = Array.from(box.querySelectorAll(sel)).filter(el => visible(el) &&
          (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) &&
          !el.parentElement.closest(sel));
        if (after.length) { out.add(after[0]); break; }
      }
    } else {
      // the largest ancestor that holds no other heading of its level or above: the section
      // this heading titles (a detail panel, not just the header row around the heading)
      let sec = parent, best = null;
      while (sec && sec !== document.body) {
        const rivals = Array.from(sec.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]'))
          .filter(x => x !== h && visible(x) && level(x) <= level(h));
        if (rivals.length) break;
        best = sec; sec = sec.parentElement;
      }
      if (best && norm(best.innerText).length > want.length) { out.add(best); continue; }
      if (best) continue;
      // headings and their parts side by side in one container (h2, table, h2, table): the
      // section is what follows the heading up to the next heading of its level or above,
      // when that is one element
      const part = [];
      for (let el = h.nextElementSibling; el; el = el.nextElementSibling) {
        const rival = x => x.matches('h1,h2,h3,h4,h5,h6,[role=heading]') && level(x) <= level(h);
        if (rival(el) || Array.from(el.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]'))
          .some(x => visible(x) && rival(x))) break;
        if (visible(el)) part.push(el);
      }
      if (part.length === 1) out.add(part[0]);
    }
  }
  if (out.size !== 1) return out.size;
  const el = out.values().next().value;
  if (!el.hasAttribute(mark[0])) el.setAttribute(mark[0], mark[1]);
  return 'found:' + el.getAttribute(mark[0]);
}"""
TITLED_ROLES = frozenset({"list", "table", "grid", "region", "complementary", "dialog"})

# The one submit button of the form holding the focused field (the field a check just filled).
_SUBMIT_JS = """(mark) => {
  const el = document.activeElement;
  const form = el && el.closest && el.closest('form');
  if (!form) return 0;
  const visible = b => { const r = b.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const buttons = Array.from(form.querySelectorAll(
    'button[type=submit], button:not([type]), input[type=submit]')).filter(visible);
  if (buttons.length !== 1) return buttons.length;
  buttons[0].setAttribute(mark[0], mark[1]);
  return 'found:' + mark[1] + ':' + (buttons[0].innerText || buttons[0].value || '').trim();
}"""


def new_mark() -> str:
    """A fresh value for ``MARK``."""
    return str(next(_COUNTER))


def _name_text(value: str | None) -> str | None:
    if value is None:
        return None
    if is_regex(value):
        return regex_literal(value)
    return value


def name_text(spec: Locator) -> str | None:
    """The words a locator names its element by: its name, label or text (a regex's literal)."""
    for value in (spec.name, spec.label, spec.text, spec.title, spec.placeholder):
        if isinstance(value, str) and value:
            return _name_text(value)
    return None


def _marked(answer: Any) -> Locator | None:
    if isinstance(answer, str) and answer.startswith("found:"):
        return Locator(css=f'[{MARK}="{answer.split(":")[1]}"]')
    return None


async def record(ctx: StepContext, spec: Locator) -> tuple[Locator, str] | None:
    """The record ``spec`` (a row, article, item, region … named by its title) stands for: the
    unique card, row or item of the page showing that name."""
    if spec.role not in RECORD_ROLES:
        return None
    name = _name_text(spec.name)
    if not name or not name.strip():
        return None
    try:
        answer = await ctx.page.evaluate(_RECORDS_JS, [name, [MARK, str(next(_COUNTER))],
                                                       spec.role in PANEL_ROLES,
                                                       spec.role in ITEM_ROLES])
    except PWError:
        return None
    loc = _marked(answer)
    return (loc, f"the record showing {name!r}") if loc else None


async def form_by_heading(ctx: StepContext, spec: Locator) -> tuple[Locator, str] | None:
    """The visible form whose heading, legend or label says the scope's name."""
    if spec.role != "form" or not spec.name:
        return None
    name = _name_text(spec.name)
    if not name:
        return None
    try:
        forms = await ctx.page.evaluate(_FORMS_JS)
    except PWError:
        return None
    want = words(name)
    scored = sorted(((score(want, words(text), presence=True), i, text) for i, text in forms),
                    reverse=True)
    scored = [s for s in scored if s[0] > 0]
    if not scored or len(scored) > 1 and scored[1][0] >= scored[0][0] - 0.05:
        return None
    _, index, text = scored[0]
    return Locator(css="form", nth=index), f"the form under {' '.join(text.split())[:60]!r}"


async def titled(ctx: StepContext, spec: Locator) -> tuple[Locator, str] | None:
    """The list, table or section a visible heading (or caption, legend) titles with the
    scope's name: an unnamed list under the heading "Upcoming events"."""
    if spec.role not in TITLED_ROLES or not spec.name:
        return None
    name = _name_text(spec.name)
    if not name or not name.strip():
        return None
    kind = spec.role if spec.role in ("list", "table", "grid") else "section"
    # a name written as a pattern (/WO-1002/) is contained in the heading ("WO-1002 · Apt 1A")
    contains = is_regex(spec.name)
    try:
        answer = await ctx.page.evaluate(_TITLED_JS, [name, kind, [MARK, str(next(_COUNTER))],
                                                      contains])
    except PWError:
        return None
    loc = _marked(answer)
    return (loc, f"the {kind} under the heading {name!r}") if loc else None


async def submit_button(ctx: StepContext) -> tuple[Locator, str] | None:
    """The one submit button of the form whose field has the focus."""
    try:
        answer = await ctx.page.evaluate(_SUBMIT_JS, [MARK, str(next(_COUNTER))])
    except PWError:
        return None
    loc = _marked(answer)
    if loc is None:
        return None
    return loc, f"the form's only submit button {answer.split(':', 2)[2]!r}"


# Every visible control that opens something: a button or link whose name starts with "+" or a
# verb of opening, ends with an ellipsis, or that says it expands or pops up.
_OPENERS_JS = """(mark) => {
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const els = Array.from(document.querySelectorAll(
    'button, a[href], [role=button], [role=link], summary')).filter(visible);
  return els.map((el, i) => {
    const name = (el.getAttribute('aria-label') || el.innerText || el.textContent || '').trim();
    const opens = el.getAttribute('aria-expanded') === 'false' || el.hasAttribute('aria-haspopup')
      || el.tagName === 'SUMMARY';
    el.setAttribute(mark[0], mark[1] + '-' + i);
    const link = el.tagName === 'A' || el.getAttribute('role') === 'link';
    return [mark[1] + '-' + i, name.slice(0, 80), opens, link];
  });
}"""
REVEAL_VERBS = frozenset({"add", "new", "log", "edit", "change", "open", "show", "enter",
                          "record", "create", "write", "set", "choose", "pick", "select"})


async def reveal(ctx: StepContext, spec: Locator) -> tuple[Locator, str] | None:
    """The one control that opens what holds the field ``spec`` names and is not on the page
    (a "+ Log hours" button over an hours field, an "Add part…" link over a part's name): a
    button or link that says it opens something and shares a word with the field's label."""
    label = _name_text(spec.label or spec.name or spec.placeholder)
    wanted = {w for w in words(label or "") if w not in STOP_WORDS and not w[0].isdigit()}
    if not wanted:
        return None
    try:
        found = await ctx.page.evaluate(_OPENERS_JS, [MARK, str(next(_COUNTER))])
    except PWError:
        return None
    hits, sharing = [], []
    for mark, name, opens, link in found:
        said = words(name)
        if not said or not wanted & set(said):
            continue
        if not link:  # a link goes somewhere else rather than opening a part of this page
            sharing.append((mark, name))
        stripped = name.strip()
        if opens or stripped.startswith("+") or stripped.endswith(("…", "...")) \
                or said[0] in REVEAL_VERBS:
            hits.append((mark, name))
    if not hits:
        # no control says it opens something: the page's only button sharing a word ("✍
        # Tenant sign-off" over "Verified with tenant"); the step after it must then find
        # the field, or the miss stands
        hits = sharing
    if len(hits) != 1:
        return None
    mark, name = hits[0]
    return Locator(css=f'[{MARK}="{mark}"]'), f"opened {name!r} to show the field"


# Every visible control that moves a flow in steps on to its next step ("Continue to payment",
# "Next", "Proceed to checkout", "Checkout"), with whether it can be used now.
_FORWARD_JS = """(mark) => {
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const name = el => (el.getAttribute('aria-label') || el.innerText || el.value
    || el.textContent || '').replace(/\\s+/g, ' ').trim();
  // not "Continue shopping" (back to the shop), "Next page" (a list's pages), "Check out"
  // (lending an item): only the step-after-this-one words
  const forward = new RegExp(['^(continue|next|proceed)( step| to .+|:.*)?$',
    '^(go to |proceed to )?checkout$', '^(go )?to (checkout|payment)$'].join('|'), 'i');
  const els = Array.from(document.querySelectorAll(
    'button, a[href], [role=button], [role=link], input[type=submit], input[type=button]'))
    .filter(el => visible(el) && !el.closest('[aria-hidden=true]'));
  const hits = [];
  els.forEach((el, i) => {
    const said = name(el).replace(/^[^\\p{L}\\p{N}]+|[^\\p{L}\\p{N}]+$/gu, '');
    if (!forward.test(said)) return;
    const off = el.disabled === true || el.getAttribute('aria-disabled') === 'true'
      || !!el.closest('fieldset[disabled]');
    el.setAttribute(mark[0], mark[1] + '-' + i);
    hits.push([mark[1] + '-' + i, said.slice(0, 80), off]);
  });
  return hits;
}"""


async def forward(ctx: StepContext) -> tuple[Locator, str] | None:
    """The one control that takes a flow in steps on to its next step ("Continue to payment"
    under the seats, where the payment fields a check fills are on the next page), when it
    can be used now. A disabled one is the app's answer (the step it needs is not done), and
    two are ambiguous: None."""
    try:
        found = await ctx.page.evaluate(_FORWARD_JS, [MARK, str(next(_COUNTER))])
    except PWError:
        return None
    if len(found) != 1 or found[0][2]:
        return None
    mark, name, _ = found[0]
    return Locator(css=f'[{MARK}="{mark}"]'), f"went on with {name!r} to the next step"


async def by_text(ctx: StepContext, spec: Locator) -> tuple[Locator, str] | None:
    """A control named by a short text the page shows exactly once (an id such as "WO-1002"
    shown as a link, a cell or a card title that opens it)."""
    name = _name_text(spec.name if spec.role is not None else None)
    if not name or len(name) > 60:
        return None
    loc = Locator(text=name, exact=True)
    try:
        found = build_locator(ctx.page, loc)
        n = await found.count()
        visible = [i for i in range(min(n, 5)) if await found.nth(i).is_visible()]
    except PWError:
        return None
    if len(visible) != 1:
        return None
    return loc.model_copy(update={"nth": visible[0]}), f"the text {name!r}"


# Every visible control inside ``root`` (a link, a button, a tab …) with its own name and the
# texts of its ancestors up to ``root``, nearest first (up to one of 300 characters): what a
# person reads around a "19:30" button, the day heading of its group. Called again with the
# index of the one chosen, it marks that one.
_CONTROLS_JS = """([root, mark]) => {
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const box = root || document.body;
  const sel = 'a[href], button, input[type=button], input[type=submit], [role=button], '
    + '[role=link], [role=tab], [role=menuitem], [role=option], [role=radio], input[type=radio]';
  const controls = Array.from(box.querySelectorAll(sel)).filter(visible).slice(0, 300);
  if (mark) {  // the second call: mark the one chosen
    const el = controls[mark[2]];
    if (!el) return null;
    el.setAttribute(mark[0], mark[1]);
    return 'found:' + mark[1];
  }
  return controls.map(el => {
    let own = el.getAttribute('aria-label') || el.innerText || el.value || '';
    if (el.matches('input[type=radio]') && el.labels && el.labels.length)
      own = el.labels[0].innerText;
    const around = [];
    for (let p = el.parentElement; p && p !== box.parentElement && around.length < 8;
         p = p.parentElement) {
      const text = p.innerText || '';
      if (text.length > 300) break;
      around.push(text);
    }
    return [own.slice(0, 120), around];
  });
}"""


async def dated_control(ctx: StepContext, spec: Locator,
                        scope: Locator | None) -> tuple[Locator, str] | None:
    """The one control for a showing, slot or session that ``spec`` names by day and time
    ("Mon 7 Dec 19:30"), where the app names the control by its time and the day it belongs to
    by a heading or label around it (a "19:30" button under "Today, 7 Dec", a row of "Tue 8
    December" holding "7:30 pm"). Two such controls (a duplicated slot) are no answer."""
    if spec.role not in relax.ROLE_FAMILIES[0] | relax.ROLE_FAMILIES[3]:
        return None
    want = relax.dated(_name_text(spec.name) or "")
    if want is None or want[2]:
        return None
    day, clock, _ = want
    try:
        root = None
        if scope is not None:
            found = build_locator(ctx.page, scope)
            if await found.count() != 1:
                return None
            root = await found.element_handle(timeout=1000)
        rows = await ctx.page.evaluate(_CONTROLS_JS, [root, None])
    except PWError:
        return None
    hits = []
    for index, (own, around) in enumerate(rows):
        if relax.times(own) != [clock]:
            continue
        days = relax.day_of(own)
        if not days:
            # the day of the nearest ancestor that names one, if it names only that one
            days = next((d for d in map(relax.day_of, around) if d), set())
        if days == {day}:
            hits.append((index, own))
    if len(hits) != 1:
        return None
    index, own = hits[0]
    try:
        answer = await ctx.page.evaluate(_CONTROLS_JS, [root, [MARK, str(next(_COUNTER)), index]])
    except PWError:
        return None
    loc = _marked(answer)
    if loc is None:
        return None
    return (loc, f"the {clock} control of the day {day} ({' '.join(own.split())[:40]!r})")


# The open modal dialog's buttons (marked, so a CSS locator can click one), its title, and
# whether a field of it is invalid (a form that would not submit: nothing to confirm).
_DIALOG_JS = """(mark) => {
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  // modal only: a side panel that calls itself a dialog asks nothing
  const open = Array.from(document.querySelectorAll(
    'dialog[open], [role=dialog], [role=alertdialog]')).filter(el => visible(el) && (
      el.matches(':modal') || el.getAttribute('aria-modal') === 'true'
      || el.getAttribute('role') === 'alertdialog'));
  if (open.length !== 1) return null;
  const box = open[0];
  const head = box.querySelector('h1, h2, h3, h4, legend, [role=heading]');
  const title = (box.getAttribute('aria-label') || (head && head.innerText) || '').trim();
  const buttons = Array.from(box.querySelectorAll('button, [role=button], input[type=submit]'))
    .filter(visible).map((el, i) => {
      el.setAttribute(mark[0], mark[1] + '-' + i);
      const name = (el.getAttribute('aria-label') || el.innerText || el.value || '').trim();
      return [mark[1] + '-' + i, name.slice(0, 80)];
    });
  return {title: title.slice(0, 120), buttons,
          invalid: box.querySelectorAll(':invalid').length > 0};
}"""
CONFIRM_WORDS = frozenset({"confirm", "yes", "ok", "okay", "continue", "proceed", "sure", "do"})
DISMISS_WORDS = frozenset({"keep", "no", "back", "dismiss", "close", "never", "stay", "abort",
                           "not"})


async def confirmation(ctx: StepContext, opener: str | None, wanted: str | None = None
                       ) -> tuple[Locator, str] | None:
    """The button of the open confirmation dialog that answers it as ``wanted`` says ("Confirm
    cancellation", "Keep subscription"), or, with no ``wanted``, that goes ahead with what its
    opener (the control clicked before, "Pause") asked: the dialog's one button sharing the
    opener's words ("Pause deliveries"), else its one confirming button ("Yes", "OK")."""
    try:
        found = await ctx.page.evaluate(_DIALOG_JS, [MARK, str(next(_COUNTER))])
    except PWError:
        return None
    if not found or found["invalid"] or not found["buttons"]:
        return None
    buttons = [(mark, name, set(words(name)) - STOP_WORDS) for mark, name in found["buttons"]]
    asked = set(words(opener or "")) - STOP_WORDS - DISMISS_WORDS

    def unique(hits: list[Any]) -> Any:
        return hits[0] if len(hits) == 1 else None

    ahead = (unique([b for b in buttons if asked & b[2] and not b[2] & DISMISS_WORDS])
             or unique([b for b in buttons if b[2] & CONFIRM_WORDS]))
    choice = ahead
    if wanted is not None:
        want = set(words(wanted)) - STOP_WORDS
        if want & DISMISS_WORDS:
            # the other answer: the one button that does not go ahead
            choice = (unique([b for b in buttons if b[2] & want & DISMISS_WORDS])
                      or (unique([b for b in buttons if b is not ahead])
                          if ahead is not None and len(buttons) == 2 else None))
        elif not want & CONFIRM_WORDS and not (ahead is not None and want & ahead[2]):
            choice = None
    if choice is None:
        return None
    return (Locator(css=f"[{MARK}='{choice[0]}']"),
            f"the dialog {found['title'][:60]!r}'s button {choice[1]!r}")
