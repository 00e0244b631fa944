"""Adaptive actions: carry out what a step wants on the widget the app actually has.

A check written against the reference app says *how* (``fill`` a month box, ``select`` from a
dropdown, ``check`` a checkbox); the criterion only says *what* (the first payment month is
2025-01, the method is Equal installment, X is on). When the step's widget is not there, the
intent is carried out on what is:

- **set** (a ``fill``, or the ``set`` intent): the named control found as written or by a
  relaxed name; a ``<select>`` gets the option whose label or value says the value; a
  month/date/number input gets the value in its own format; a month + year pair (two selects
  or boxes, named Month and Year, or inside a group named like the field) gets the two parts.
- **choose** (a ``select``, or the ``choose`` intent): a radio, a segmented button, a tab or a
  listbox option whose name says the option, inside a group named like the field when the page
  has one, else the page's unique such control; a custom combobox is opened first.
- **turn on / off** (``check`` / ``uncheck``, or the ``turn_on`` / ``turn_off`` intents): a
  switch, a checkbox or a toggle button (``aria-pressed``) named like the field, clicked only
  when its state differs.

Each returns a short note of what it did (kept in the verdict's evidence) or raises
``NotAdapted`` with why not; ambiguity is never resolved by guessing. A step's scope
(``within``: the New post form) bounds the search when the page has it, as written or as the
form under a heading like its name, or the page's only form: a field of that name elsewhere
(the toolbar's "Filter by kind" for the form's Kind) is never taken instead.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import Error as PWError
from playwright.async_api import Locator as PWLocator

from asuka.schema import Locator
from asuka.uiagents.browsing.locate import StepContext, as_text, build_locator, own_label
from asuka.uiagents.scripted import structure
from asuka.uiagents.scripted.relax import (
    LABELLED_ROLES,
    STOP_WORDS,
    best,
    name_words,
    parse_snapshot,
    same_words,
    score,
    words,
)

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
_KIND_JS = """el => ({tag: el.tagName.toLowerCase(), type: (el.getAttribute('type') || '')
  .toLowerCase(), role: el.getAttribute('role') || '', editable: el.isContentEditable,
  options: el.tagName === 'SELECT' ? Array.from(el.options).map(o => [o.label || o.textContent
  || '', o.value]) : null, pressed: el.getAttribute('aria-pressed'),
  checked: el.getAttribute('aria-checked'),
  native: (el instanceof HTMLInputElement) ? el.checked : null})"""
SNAPSHOT_TIMEOUT_MS = 5_000
CHOICE_ROLES = frozenset({"radio", "button", "tab", "option", "menuitemradio", "link",
                          "switch", "checkbox"})


class NotAdapted(Exception):
    """The intent could not be carried out on this page (a miss stands)."""


def _field_name(spec: Locator) -> str | None:
    for key in ("label", "placeholder", "name", "title", "text"):
        v = getattr(spec, key)
        if isinstance(v, str) and v:
            return v
    return None


async def _snapshot(ctx: StepContext, root: Any = None) -> str:
    try:
        where = root if root is not None else ctx.page.locator("body")
        return await where.aria_snapshot(timeout=SNAPSHOT_TIMEOUT_MS)
    except PWError as exc:
        raise NotAdapted(f"could not read the page: {exc.message}") from None


async def _one(loc: PWLocator) -> PWLocator | None:
    try:
        return loc.first if await loc.count() == 1 else None
    except PWError:
        return None


async def _scope(ctx: StepContext, spec: Locator) -> Any:
    """Where to look for the field: the page (None) for a step without a scope, else the
    scope as the page has it: as written, the record showing its name or the section its
    heading titles (the card "House Espresso" for the article named so), a form under a
    heading like its name or the page's only visible form. A scope the page does not have
    is a miss: the field of another record is never taken instead."""
    if spec.within is None:
        return None
    scope = await _one(build_locator(ctx.page, spec.within))
    if scope is None and spec.within.role != "form":
        for finder in (structure.record, structure.titled):
            hit = await finder(ctx, spec.within)
            if hit is not None and (scope := await _one(build_locator(ctx.page, hit[0]))):
                break
    if scope is None and spec.within.role == "form":
        hit = await structure.form_by_heading(ctx, spec.within)
        scope = await _one(build_locator(ctx.page, hit[0])) if hit is not None else None
        if scope is None:
            try:
                forms = ctx.page.locator("form")
                shown = [i for i in range(min(await forms.count(), 10))
                         if await forms.nth(i).is_visible()]
            except PWError:
                shown = []
            scope = forms.nth(shown[0]) if len(shown) == 1 else None
    if scope is None:
        raise NotAdapted(f"no {spec.within.describe()} on the page")
    return scope


async def _kind(target: PWLocator, ms: float) -> dict[str, Any]:
    return await target.evaluate(_KIND_JS, timeout=ms)


async def _resolve(ctx: StepContext, spec: Locator, snapshot: str, roles: frozenset[str],
                   root: Any = None) -> PWLocator | None:
    """The element ``spec`` names: as written, else the unique best relaxed candidate of
    ``snapshot`` (taken of ``root``, the step's scope, or of the page)."""
    loc = build_locator(ctx.page, spec)
    if await loc.count():
        return await own_label(ctx, spec, loc.first if spec.nth is None else loc)
    name = _field_name(spec)
    if name is None:
        return None
    hit = best(parse_snapshot(snapshot), name_words(name), roles, spec.role, presence=False)
    if hit is None:
        return None
    found = (root if root is not None else ctx.page).get_by_role(
        hit.role, name=hit.name, exact=True)  # type: ignore[arg-type]
    # one such control: two of that name (a Size in every product card) are ambiguous
    return found.first if await found.count() == 1 else None


def _option_index(options: list[list[str]], value: str) -> int | None:
    """The option saying ``value``: exact label or value, then the same words."""
    want = value.strip()
    for field in (0, 1):
        for i, o in enumerate(options):
            if " ".join(o[field].split()).casefold() == " ".join(want.split()).casefold():
                return i
    hits = [i for i, o in enumerate(options) if same_words(want, o[0], contains=False)]
    if len(hits) == 1:
        return hits[0]
    # the unique option whose words hold, or are held by, the wanted ones ("Fixed" for
    # "Fixed amount"); numbers exact
    want_words = words(want)
    scored = sorted(((max(score(want_words, words(o[0]), presence=False),
                          score(words(o[0]), want_words, presence=True)), i)
                     for i, o in enumerate(options)), reverse=True)
    if scored and scored[0][0] >= 0.5 and (len(scored) == 1 or scored[1][0] < scored[0][0] - 0.05):
        return scored[0][1]
    return None


def _month_forms(month: int) -> list[str]:
    name = MONTHS[month - 1]
    return [f"{month:02d}", str(month), name, name[:3]]


async def _fill_control(target: PWLocator, value: str, ms: float) -> str:
    kind = await _kind(target, ms)
    tag, typ = kind["tag"], kind["type"]
    if tag == "select":
        i = _option_index(kind["options"], value)
        if i is None and re.fullmatch(r"\d{1,2}", value):
            forms = _month_forms(int(value)) if 1 <= int(value) <= 12 else [value]
            i = next((j for f in forms if (j := _option_index(kind["options"], f)) is not None),
                     None)
        if i is None:
            raise NotAdapted(f"no option of the dropdown says {value!r}")
        await target.select_option(index=i, timeout=ms)
        return f"chose option {kind['options'][i][0]!r} of a dropdown"
    if tag == "input" and typ == "number":
        value = re.sub(r"[,\s\u202f\u00a0]", "", value)
    if tag in ("input", "textarea") or kind["editable"]:
        await target.fill(value, timeout=ms)
        return f"filled a <{tag}{' type=' + typ if typ else ''}> with {value!r}"
    raise NotAdapted(f"the control is a <{tag}>, which takes no typed value")


_FILLABLE = ("input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset])"
             ":not([type=image]):not([type=file]):not([type=checkbox]):not([type=radio]),"
             " select, textarea")
_CONTROLS_JS = """els => els.map(el => { const r = el.getBoundingClientRect();
  const words = s => (s || '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
    .split(/[^a-z0-9]+/).filter(Boolean);
  return {visible: r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden',
          type: el.tagName === 'INPUT' ? (el.getAttribute('type') || 'text').toLowerCase()
                : el.tagName.toLowerCase(),
          attr: [words(el.getAttribute('name')), words(el.id)]}; })"""
_CONTAINER_TAGS = frozenset({"fieldset", "div", "section", "dialog", "form", "article", "li",
                             "details", "aside"})


def _value_type(value: str) -> str | None:
    """The input type a value is written for: an ISO date, a year-month, a number."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return "date"
    if re.fullmatch(r"\d{4}-\d{2}", value):
        return "month"
    if re.fullmatch(r"-?[\d,]*\.?\d+", value):
        return "number"
    return None


async def _controls(box: PWLocator) -> tuple[PWLocator, list[dict[str, Any]]]:
    loc = box.locator(_FILLABLE)
    try:
        return loc, await loc.evaluate_all(_CONTROLS_JS)
    except PWError:
        return loc, []


async def _inner_control(box: PWLocator, value: str) -> PWLocator | None:
    """The one control inside a group named like the field (a fieldset "First delivery" with
    an ``<input type=date>``, a dialog "Fill empty cells" with one text box) that takes
    ``value``: the only visible one, else the only one of the value's own type."""
    loc, kinds = await _controls(box)
    shown = [i for i, k in enumerate(kinds) if k["visible"]]
    if len(shown) == 1:
        return loc.nth(shown[0])
    want = _value_type(value)
    typed = [i for i in shown if want is not None and kinds[i]["type"] == want]
    return loc.nth(typed[0]) if len(typed) == 1 else None


async def _by_attribute(ctx: StepContext, name: str, root: Any) -> tuple[PWLocator, str] | None:
    """A field without a label of that name whose ``name`` or ``id`` says it ("Title" for
    ``<input name="title">``, "Cost" for ``unitCost``): the unique visible control whose
    attribute's words are the name's, else the unique one whose attribute holds them all."""
    want = re.findall(r"[a-z0-9]+", name.casefold())
    if not want or len(want) > 3:
        return None
    loc, kinds = await _controls(root if root is not None else ctx.page.locator("body"))
    shown = [(i, k) for i, k in enumerate(kinds) if k["visible"]]
    for test in (lambda a: a == want, lambda a: all(w in a for w in want)):
        hits = [i for i, k in shown if any(a and test(a) for a in k["attr"])]
        if len(hits) == 1:
            k = kinds[hits[0]]
            said = " ".join(next(a for a in k["attr"] if a and test(a)))
            return loc.nth(hits[0]), f"the field its page calls {said!r}"
        if hits:
            return None
    return None


async def _dialog_about(ctx: StepContext, name: str) -> tuple[PWLocator, str] | None:
    """The open modal dialog about the field: its title shares a word with the field's name
    ("Fill empty cells in phone" for "Fill value", "Tenant sign-off" for "Verified with
    tenant")."""
    try:
        dialogs = ctx.page.locator("dialog[open], [role=dialog], [role=alertdialog]")
        shown = [i for i in range(min(await dialogs.count(), 5))
                 if await dialogs.nth(i).is_visible()]
        if len(shown) != 1:
            return None
        box = dialogs.nth(shown[0])
        title = await box.evaluate(
            "el => (el.getAttribute('aria-label') || (el.querySelector('h1,h2,h3,h4,legend,"
            "[role=heading]') || {}).textContent || '')", timeout=SNAPSHOT_TIMEOUT_MS)
    except PWError:
        return None
    wanted = set(words(name)) - STOP_WORDS
    if not wanted or not wanted & set(words(title)):
        return None
    return box, " ".join(title.split())[:60]


async def _dialog_field(ctx: StepContext, name: str, value: str) -> tuple[PWLocator, str] | None:
    """The one control of the dialog about the field that takes the value."""
    about = await _dialog_about(ctx, name)
    if about is None:
        return None
    inner = await _inner_control(about[0], value)
    if inner is not None:
        return inner, f"the only field of the dialog {about[1]!r}"
    # several fields: the one the dialog puts the cursor in is its main one ("Item" of "Add a
    # part"), never another
    try:
        focused = await about[0].evaluate(
            "(b, sel) => { const a = document.activeElement; return !!a && b.contains(a)"
            " && a.matches(sel) && !a.value }", _FILLABLE, timeout=SNAPSHOT_TIMEOUT_MS)
    except PWError:
        return None
    return (about[0].locator(":focus"), f"the field the dialog {about[1]!r} opens on"
            ) if focused else None


async def _dialog_checkbox(ctx: StepContext, name: str) -> tuple[PWLocator, str] | None:
    """The one checkbox or switch of the dialog about the option."""
    about = await _dialog_about(ctx, name)
    if about is None:
        return None
    boxes = about[0].locator("input[type=checkbox], [role=checkbox], [role=switch]")
    try:
        shown = [i for i in range(min(await boxes.count(), 10)) if await boxes.nth(i).is_visible()]
    except PWError:
        return None
    if len(shown) != 1:
        return None
    return boxes.nth(shown[0]), f"the only checkbox of the dialog {about[1]!r}"


async def set_value(ctx: StepContext, spec: Locator, value: Any) -> str:
    """Set the field ``spec`` names to ``value`` on whatever widget the page has."""
    text = as_text(value)
    ms = ctx.action_timeout_s * 1000
    root = await _scope(ctx, spec)
    snapshot = await _snapshot(ctx, root)
    target = await _resolve(ctx, spec, snapshot, LABELLED_ROLES, root)
    note = ""
    if target is not None and (await _kind(target, ms))["tag"] in _CONTAINER_TAGS:
        # a group named like the field (a fieldset with its legend): the control inside it
        inner = await _inner_control(target, text)
        if inner is not None:
            target, note = inner, "in the group named like the field, "
    name = _field_name(spec)
    if target is None and name:
        hit = (await _by_attribute(ctx, name, root)
               or await _dialog_field(ctx, name, text))
        if hit is not None:
            target, note = hit[0], hit[1] + ", "
    if name and re.fullmatch(r"\d{1,2}", text) and (
            target is None or (await _kind(target, ms))["tag"] == "button"):
        # a count the app takes with − and + buttons around the number it shows
        stepped = await _stepper(ctx, name, int(text), root)
        if stepped is not None:
            return stepped
    if target is not None:
        if note:
            return note + await _fill_control(target, text, ms)
        try:
            return await _fill_control(target, text, ms)
        except NotAdapted:
            if not re.fullmatch(r"\d{4}-\d{2}(-\d{2})?", text):
                raise
    m = re.fullmatch(r"(\d{4})-(\d{2})(?:-\d{2})?", text)
    if m is None:
        raise NotAdapted("no such field on the page")
    return await _month_year(ctx, spec, snapshot, int(m.group(1)), int(m.group(2)), ms, root)


# Every visible stepper: a number shown (an <output>, a <span>, a read-only box) between a
# button that lowers it and one that raises it inside the same small container, with the text
# around it up to the largest ancestor holding no other stepper (the row that names it), and
# that text's first line with the buttons' labels. The three parts of each are marked so that
# Playwright can click and read them.
_STEPPERS_JS = """([root, attr, mark]) => {
  const box = root || document.body;
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const said = el => ((el.getAttribute('aria-label') || '') + ' ' + (el.title || '') + ' '
    + (el.innerText || el.value || '')).trim().toLowerCase();
  const up = el => /^\\+$|(^|\\W)(add|increase|increment|more|plus|raise)(\\W|$)/.test(said(el));
  const down = el => /^[-\u2212\u2013]$|(^|\\W)(remove|decrease|decrement|reduce|subtract|fewer|less|minus|lower)(\\W|$)/
    .test(said(el));
  const buttons = Array.from(box.querySelectorAll('button, [role=button], input[type=button]'))
    .filter(visible);
  const found = [];
  for (const plus of buttons.filter(up)) {
    const holder = plus.parentElement;
    if (!holder) continue;
    const minus = Array.from(holder.querySelectorAll('button, [role=button], input[type=button]'))
      .filter(b => b !== plus && visible(b) && down(b));
    const shown = Array.from(holder.querySelectorAll('output, span, strong, b, div, input'))
      .filter(el => visible(el) && !el.querySelector('button')
        && /^\\s*\\d{1,3}\\s*$/.test(el.matches('input') ? el.value : el.innerText));
    if (minus.length !== 1 || shown.length !== 1) continue;
    found.push([holder, minus[0], plus, shown[0]]);
  }
  return found.map(([holder, minus, plus, shown], i) => {
    let around = holder;
    for (let p = holder.parentElement; p && p !== box.parentElement; p = p.parentElement) {
      if (found.some(f => f[0] !== holder && p.contains(f[0])) || (p.innerText || '').length > 300)
        break;
      around = p;
    }
    const key = mark + '-' + i;
    minus.setAttribute(attr, key + '-minus');
    plus.setAttribute(attr, key + '-plus');
    shown.setAttribute(attr, key + '-shown');
    const labels = [minus, plus].map(b => b.getAttribute('aria-label') || b.title || '').join(' ');
    const text = (around.innerText || '').trim();
    return [key, text.split('\\n')[0] + ' ' + labels, text + ' ' + labels];
  });
}"""
_SHOWN_JS = "el => el.matches('input') ? el.value : el.innerText"


async def _stepper(ctx: StepContext, name: str, count: int, root: Any = None) -> str | None:
    """Set a count on the one stepper the text around it names (the − 2 + of the Adult
    tickets): click + or − until it shows ``count``. None when the page has no such stepper;
    ``NotAdapted`` when it stops short (a limit the app sets is the app's answer)."""
    try:
        found = await ctx.page.evaluate(
            _STEPPERS_JS, [await root.element_handle() if root is not None else None,
                           structure.MARK, structure.new_mark()])
    except PWError:
        return None
    want = name_words(name)

    def pick(texts: list[tuple[str, str]]) -> str | None:
        # the unique best: "Adult $12.50" over "Child $8.00 with an adult"
        scored = sorted(((max(score(alt, words(text), presence=True) for alt in want), key)
                         for key, text in texts), reverse=True)
        scored = [s for s in scored if s[0] > 0]
        if not scored or len(scored) > 1 and scored[1][0] > scored[0][0] - 0.05:
            return None
        return scored[0][1]

    # named by its buttons or the first line of its row ("Adult £12.50") before a mention
    # further down
    key = (pick([(k, title) for k, title, _ in found])
           or pick([(k, around) for k, _, around in found]))
    if key is None:
        return None
    shown = ctx.page.locator(f'[{structure.MARK}="{key}-shown"]')
    ms = ctx.action_timeout_s * 1000
    for _ in range(40):
        try:
            now = int((await shown.evaluate(_SHOWN_JS, timeout=ms)).strip())
        except (PWError, ValueError) as exc:
            raise NotAdapted(f"the stepper for {name!r} shows no number") from exc
        if now == count:
            return f"stepped the count for {name!r} to {count}"
        part = "plus" if now < count else "minus"
        button = ctx.page.locator(f'[{structure.MARK}="{key}-{part}"]')
        try:
            if not await button.is_enabled(timeout=ms):
                raise NotAdapted(f"the stepper for {name!r} stops at {now}")
            await button.click(timeout=ms)
            await ctx.page.wait_for_timeout(50)
            after = int((await shown.evaluate(_SHOWN_JS, timeout=ms)).strip())
        except (PWError, ValueError) as exc:
            raise NotAdapted(f"the stepper for {name!r} did not respond") from exc
        if after == now:
            raise NotAdapted(f"the stepper for {name!r} stops at {now}")
    raise NotAdapted(f"the stepper for {name!r} never reached {count}")


async def _month_year(ctx: StepContext, spec: Locator, snapshot: str, year: int, month: int,
                      ms: float, root: Any = None) -> str:
    """A year-month value on a pair of controls named Month and Year."""
    name = _field_name(spec) or ""
    field = {w for alt in name_words(name) for w in alt} - {"month", "date", "year"}
    nodes = [n for n in parse_snapshot(snapshot) if n.role in LABELLED_ROLES and n.name]

    def pick(part: str) -> Any:
        cands = [n for n in nodes if part in words(n.name)]
        if len(cands) > 1 and field:
            top = max(len(field & set(words(n.name))) for n in cands)
            cands = [n for n in cands if len(field & set(words(n.name))) == top]
        if len({(n.role, n.name) for n in cands}) != 1:
            raise NotAdapted(f"no single {part} control for {name!r}")
        return cands[0]

    mnode, ynode = pick("month"), pick("year")
    where = root if root is not None else ctx.page
    mloc = where.get_by_role(mnode.role, name=mnode.name, exact=True).first  # type: ignore
    yloc = where.get_by_role(ynode.role, name=ynode.name, exact=True).first  # type: ignore
    kind = await _kind(mloc, ms)
    if kind["tag"] == "select":
        i = next((j for f in _month_forms(month)
                  if (j := _option_index(kind["options"], f)) is not None), None)
        if i is None:
            raise NotAdapted("the month dropdown has no such month")
        await mloc.select_option(index=i, timeout=ms)
    else:
        await mloc.fill(str(month), timeout=ms)
    note = await _fill_control(yloc, str(year), ms)
    return f"set {mnode.role} \"{mnode.name}\" to month {month} and {note} ({ynode.name})"


async def choose(ctx: StepContext, spec: Locator, option: Any) -> str:
    """Choose ``option`` for the field ``spec`` names: radios, segmented buttons, tabs or a
    custom listbox when the page has no dropdown for it."""
    wanted = option[0] if isinstance(option, list) and len(option) == 1 else option
    if isinstance(wanted, list):
        raise NotAdapted("several options at once need a dropdown")
    text = as_text(wanted)
    ms = ctx.action_timeout_s * 1000
    root = await _scope(ctx, spec)
    snapshot = await _snapshot(ctx, root)
    target = await _resolve(ctx, spec, snapshot, LABELLED_ROLES | {"radiogroup", "group"}, root)
    if target is not None:
        kind = await _kind(target, ms)
        if kind["tag"] == "select":
            return await _fill_control(target, text, ms)
        if kind["role"] in ("combobox", "listbox") or kind["tag"] == "button":
            await target.click(timeout=ms)
            root = None  # a custom listbox may open anywhere on the page
            snapshot = await _snapshot(ctx)
    # the option's controls, preferring those inside a group named like the field
    nodes = parse_snapshot(snapshot)
    field = name_words(_field_name(spec) or "")
    scored = sorted(((max(score(alt, words(n.name), presence=False) for alt in field), i)
                     for i, n in enumerate(nodes)
                     if n.role in ("radiogroup", "group", "tablist", "listbox", "region", "form")
                     and n.name and field), reverse=True)
    scored = [x for x in scored if x[0] > 0]

    def inside(g: int) -> list[Any]:
        held = []
        for n in nodes[g + 1:]:
            if n.depth <= nodes[g].depth:
                break
            held.append(n)
        return held

    def offered(g: int) -> list[tuple[str, str]]:
        return [(n.role, n.name) for n in inside(g) if n.role in CHOICE_ROLES]

    pool = nodes
    tied = [g for sc, g in scored if sc >= scored[0][0] - 0.05]
    if len(tied) == 1 or (len(tied) > 1 and len({tuple(offered(g)) for g in tied}) == 1
                          and offered(tied[0])):
        # one group, or the same setting shown twice (a currency switch at the top and again
        # in the calculator, offering the same options): the first
        pool = inside(min(tied)) or nodes
    hit = best(pool, name_words(text), CHOICE_ROLES, None, presence=True)
    if hit is None:
        raise NotAdapted(f"no single control offers {text!r}")
    found = (root if root is not None else ctx.page).get_by_role(
        hit.role, name=hit.name, exact=True)  # type: ignore
    n = await found.count()
    if n > 1 and pool is not nodes:
        # the option of the group chosen ("EUR" of Currency, not of Invoice currency; of the
        # first of a setting shown twice): the how-manieth control of its name on the page
        key = (hit.role, hit.name)
        first = next(node for node in pool if (node.role, node.name) == key)
        at = next(i for i, node in enumerate(nodes) if node is first)
        same = [i for i, node in enumerate(nodes) if (node.role, node.name) == key]
        if len(same) != n:
            raise NotAdapted(f"{text!r} is offered by more than one control")
        found = found.nth(same.index(at))
    elif n != 1:
        raise NotAdapted(f"{text!r} is offered by more than one control")
    loc = found.first
    if hit.role in ("radio", "checkbox", "switch", "menuitemradio"):
        await loc.check(timeout=ms)
    else:
        await loc.click(timeout=ms)
    return f"chose {hit.role} \"{hit.name}\""


async def turn(ctx: StepContext, spec: Locator, on: bool) -> str:
    """Turn the named option on or off: a checkbox, a switch or a toggle button."""
    ms = ctx.action_timeout_s * 1000
    root = await _scope(ctx, spec)
    snapshot = await _snapshot(ctx, root)
    target = await _resolve(ctx, spec, snapshot,
                            frozenset({"checkbox", "switch", "menuitemcheckbox", "button"}), root)
    note = ""
    name = _field_name(spec)
    if target is None and name:
        hit = await _dialog_checkbox(ctx, name)
        if hit is not None:
            target, note = hit[0], hit[1] + ": "
    if target is None:
        raise NotAdapted("no such option on the page")
    kind = await _kind(target, ms)
    if kind["tag"] == "input" and kind["type"] in ("checkbox", "radio"):
        await target.set_checked(on, timeout=ms)
        return f"{note}{'checked' if on else 'unchecked'} a checkbox"
    state = kind["pressed"] if kind["pressed"] is not None else kind["checked"]
    if state not in ("true", "false"):
        raise NotAdapted("the control does not say whether it is on")
    if (state == "true") != on:
        await target.click(timeout=ms)
    return f"{note}turned a {kind['role'] or kind['tag']} {'on' if on else 'off'}"
