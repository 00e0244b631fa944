"""The deterministic rungs of the resolution ladder, as one decision per failed step.

When a step of a check does not hold, before any model is asked (``asuka.uiagents.scripted.criterion``
then grounds what is still a miss):

1. **adapted**: an action whose widget is missing or of another kind (``fill`` on a month +
   year pair, ``select`` where the app has radios or segmented buttons, ``check`` on a switch)
   is carried out as its intent (``asuka.uiagents.scripted.adapt``), after opening what holds the field
   when one control says it opens it ("+ Log hours" over an hours field: ``structure.reveal``);
2. **relaxed** locator: a locator that matched nothing is looked up again among the page's
   elements of the same role family with a normalised name, or a missing scope taken as the
   page's only container of its kind (``asuka.uiagents.scripted.relax``); the step is run again with it
   and whatever it then observes decides;
3. **relaxed** wording: an ``expect_text`` that found its element but not the literal words
   passes when the element says the same words in another form, numbers exact.

``rescue`` returns what it took (a replacement step to run, or nothing to run when the step's
intent was already carried out) or None: the failure stands. Each rescue becomes a record
``{kind: relaxed|adapted, step, original, taken}`` of ``Verdict.groundings``, shown in the
evidence and the viewer, and the verdict's ``decided_by`` names the highest rung used.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Error as PWError

from asuka.schema import CheckStep, Locator, is_regex
from asuka.uiagents.browsing.locate import (
    TEXT_JS,
    LocatorMiss,
    StepContext,
    StepFailed,
    as_text,
    build_locator,
    matches,
)
from asuka.uiagents.scripted import adapt, downloads, structure
from asuka.uiagents.scripted.relax import (
    Relaxed,
    labelled_value,
    lone_container,
    regex_literal,
    relax_locator,
    same_words,
    text_pattern,
)

RUNGS = ("relaxed", "adapted")
ADAPTABLE = {"fill": "set", "select": "choose", "check": "turn_on", "uncheck": "turn_off"}
INTENT_OPS = frozenset(ADAPTABLE.values())
PRESENCE_OPS = frozenset({"expect_visible", "expect_count"})
ACTION_OPS = frozenset({"click", "dblclick", "hover"})
# steps that enter something into a field: what a form's submit button then sends
_ENTRY_OPS = frozenset({*ADAPTABLE, *INTENT_OPS, "press", "upload"})
_WRONG_WIDGET = ("not an <input>", "not a <select>", "not a checkbox", "Not a checkbox",
                 "not a <input>", "has no input value", "Element is not an", "no option matches")
# a message a check reads from an alert or status element: in an app without that role, the
# scope it was looked for in (the region that shows it)
MESSAGE_ROLES = frozenset({"alert", "status", "log", "note"})
# What a person reads in an element: its text with each field showing the value the app put
# in it and each dropdown its chosen option (``TEXT_JS``, what the step itself read, has no
# field's value).
_SEEN_JS = """els => els.map(root => {
  const out = [];
  const walk = node => {
    if (node.nodeType === Node.TEXT_NODE) { out.push(node.data); return; }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const el = node;
    if (['SCRIPT', 'STYLE', 'TEMPLATE'].includes(el.tagName)) return;
    if (el.checkVisibility && !el.checkVisibility()) return;
    if (el.tagName === 'SELECT') {
      out.push(' ' + Array.from(el.selectedOptions).map(o => o.text).join(', ') + ' ');
      return; }
    if (el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && !['checkbox', 'radio',
        'button', 'submit', 'reset', 'hidden', 'file', 'image'].includes(el.type))) {
      // what the app put there, not what was typed since (a check's own entry is no result)
      out.push(el.value === el.defaultValue ? ' ' + el.value + ' ' : ' '); return; }
    const block = getComputedStyle(el).display !== 'inline';
    if (block) out.push(' ');
    el.childNodes.forEach(walk);
    if (block) out.push(' ');
  };
  walk(root);
  return out.join('').replace(/\\s+/g, ' ').trim();
})"""


@dataclass
class Rescue:
    rung: str                      # relaxed | adapted
    taken: str                     # what was done instead, in a line
    step: CheckStep | None = None  # the step to run in its place; None: already carried out


async def intent(ctx: StepContext, op: str, spec: Locator, params: dict[str, Any]) -> str:
    """Carry out an intent step (``set``, ``choose``, ``turn_on``, ``turn_off``)."""
    if op == "set":
        return await adapt.set_value(ctx, spec, params.get("value"))
    if op == "choose":
        return await adapt.choose(ctx, spec, params.get("option"))
    return await adapt.turn(ctx, spec, op == "turn_on")


async def _reveal_then(ctx: StepContext, step: CheckStep) -> Rescue | None:
    """A field that is not on the page until something opens it: click the one control that
    opens it (``structure.reveal``), or else the one that takes a flow in steps on to its
    next step where the field is (``structure.forward``: the payment details after "Continue
    to payment"), then carry the step out as its intent."""
    hit = await structure.reveal(ctx, step.locator) or await structure.forward(ctx)
    if hit is None:
        return None
    opener, note = hit
    try:
        await build_locator(ctx.page, opener).click(timeout=adapt.SNAPSHOT_TIMEOUT_MS)
        await ctx.page.wait_for_load_state("load", timeout=adapt.SNAPSHOT_TIMEOUT_MS)
        await ctx.page.wait_for_timeout(150)  # the opened part (the next step) renders
        taken = await intent(ctx, ADAPTABLE.get(step.op, step.op), step.locator, step.params)
    except (adapt.NotAdapted, PWError):
        return None
    return Rescue("adapted", f"{note}, then {taken}")


async def _modal_open(ctx: StepContext) -> bool:
    try:
        return await ctx.page.locator(
            "dialog[open]:visible, [role=dialog][aria-modal=true]:visible").count() > 0
    except PWError:
        return False


MAX_TABS = 8
MAX_SHOWN_SCAN = 30  # matches looked at for the one that is shown


async def _shown(ctx: StepContext, spec: Locator) -> bool:
    """Is the element ``spec`` finds first shown?"""
    try:
        found = build_locator(ctx.page, spec)
        return await found.count() > 0 and await found.first.is_visible()
    except PWError:
        return False


async def _shown_one(ctx: StepContext, step: CheckStep) -> Rescue | None:
    """The step's locator finds several elements and the first is hidden (a closed dialog's
    copy of a button, a template row): the one of them that is shown is the element a person
    sees and uses. None shown, or several, and the step stays as it failed."""
    spec = step.locator
    if spec is None or spec.nth is not None:
        return None
    found = build_locator(ctx.page, spec)
    n = await found.count()
    if not 1 < n <= MAX_SHOWN_SCAN:
        return None
    shown = [i for i in range(n) if await found.nth(i).is_visible()]
    if len(shown) != 1:
        return None
    return Rescue("relaxed", f"the one of its {n} matches that is shown (match {shown[0] + 1})",
                  step.model_copy(update={"locator": spec.model_copy(
                      update={"nth": shown[0]})}))


async def _other_tab(ctx: StepContext, spec: Locator) -> Rescue | None:
    """The element the step found is hidden in a tab the page is not showing (the search box
    of the Equipment tab while Out & overdue is open): the one tab that shows it, opened the
    way a person opens it; none or several, and the tab that was open is opened again. Never
    for an element the page does not have: a filter's tabs ("Due today" / "All") would show
    what the check expects in the default view (found by re-proving habit-tracker, whose
    broken due filter passed five tasks so)."""
    tabs = ctx.page.get_by_role("tab")
    n = await tabs.count()
    if not 1 < n <= MAX_TABS:
        return None
    opened = [await tabs.nth(i).get_attribute("aria-selected") == "true" for i in range(n)]
    names = [" ".join((await tabs.nth(i).inner_text()).split())[:40] for i in range(n)]
    showing: list[int] = []
    last = None
    for i in range(n):
        if opened[i] or not await tabs.nth(i).is_enabled():
            continue
        await tabs.nth(i).click(timeout=adapt.SNAPSHOT_TIMEOUT_MS)
        await ctx.page.wait_for_timeout(150)  # the tab's panel renders
        last = i
        if await _shown(ctx, spec):
            showing.append(i)
    if len(showing) == 1:
        if last != showing[0]:
            await tabs.nth(showing[0]).click(timeout=adapt.SNAPSHOT_TIMEOUT_MS)
            await ctx.page.wait_for_timeout(150)
        return Rescue("relaxed", f"opened the tab {names[showing[0]]!r}, which shows it")
    if last is not None and True in opened:
        await tabs.nth(opened.index(True)).click(timeout=adapt.SNAPSHOT_TIMEOUT_MS)
        await ctx.page.wait_for_timeout(150)
    return None


async def _snapshot(ctx: StepContext) -> str | None:
    try:
        return await ctx.page.locator("body").aria_snapshot(timeout=adapt.SNAPSHOT_TIMEOUT_MS)
    except PWError:
        return None


async def _matches(ctx: StepContext, spec: Locator) -> bool:
    try:
        return await build_locator(ctx.page, spec).count() > 0
    except PWError:
        return False


async def _count(ctx: StepContext, spec: Locator) -> int:
    try:
        return await build_locator(ctx.page, spec).count()
    except PWError:
        return 0


async def _lone_form(ctx: StepContext, scope: Locator) -> Relaxed | None:
    """An unnamed ``<form>`` has no role in the accessibility tree: the page's only visible
    form stands for a missing named one."""
    if scope.role != "form":
        return None
    forms = ctx.page.locator("form")
    try:
        n = await forms.count()
        visible = [i for i in range(min(n, 10)) if await forms.nth(i).is_visible()]
    except PWError:
        return None
    if len(visible) != 1:
        return None
    return Relaxed(Locator(css="form", nth=visible[0]), "the page's only form")


async def _structural(ctx: StepContext, spec: Locator, *, action: bool) -> Relaxed | None:
    """A record by the name it shows, a form (a list, a table, a section) by its heading, a
    control by its exact text."""
    # a panel is the section its heading titles before it is a record among records
    finders = ((structure.titled, structure.record, structure.form_by_heading)
               if spec.role in structure.PANEL_ROLES else
               (structure.record, structure.form_by_heading, structure.titled))
    for finder in finders:
        hit = await finder(ctx, spec)
        if hit is not None:
            return Relaxed(*hit)
    if action:
        hit = await structure.by_text(ctx, spec)
        if hit is not None:
            return Relaxed(*hit)
    return None


async def relaxed_locator(ctx: StepContext, spec: Locator, *, presence: bool,
                          action: bool = False) -> Relaxed | None:
    """A replacement for a locator that matched nothing, found on the page as it is now."""
    snapshot = await _snapshot(ctx)
    if snapshot is None:
        return None
    notes: list[str] = []
    current = spec
    unscoped = False
    outside: Relaxed | None = None
    if spec.within is not None and not await _matches(ctx, spec.within):
        scope = (relax_locator(spec.within, snapshot, presence=False)
                 or await _structural(ctx, spec.within, action=False)
                 or lone_container(spec.within, snapshot) or await _lone_form(ctx, spec.within))
        if scope is None or not await _matches(ctx, scope.locator):
            # no such scope: the element itself, when the whole page has exactly one
            alone = spec.model_copy(update={"within": None})
            if spec.nth is None and await _count(ctx, alone) == 1:
                return Relaxed(alone, "the page's only match, without the missing scope")
            if spec.within.role is None:
                return None
            current = alone
            # without its scope a control every record offers is ambiguous: a control found
            # below must be the page's only match, never the first record's
            unscoped = True
        else:
            current = spec.model_copy(update={"within": scope.locator})
            notes.append(f"inside {scope.note}")
            if await _matches(ctx, current):
                return Relaxed(current, ", ".join(notes))
            # the part found may not hold what titles it (a heading above its table, side by
            # side with the other sections' headings): then, as for a missing scope, the
            # element alone when the page has exactly one
            alone = spec.model_copy(update={"within": None})
            if spec.nth is None and await _count(ctx, alone) == 1:
                outside = Relaxed(alone, "the page's only match, outside the part found")
    inner = current.model_copy(update={"within": None, "nth": None})
    if (inner.role in MESSAGE_ROLES and inner.name is None and current.within is not None
            and spec.nth is None and await _matches(ctx, current.within)):
        return Relaxed(current.within, ", ".join(notes + [f"the {inner.role}'s scope itself"]))
    if (inner.role == "listitem" and inner.name is None and current.within is not None
            and await _matches(ctx, current.within)
            and not await _matches(ctx, Locator(role="listitem", within=current.within))):
        # the entries of a list the app shows as a table: its rows that hold cells (not the
        # header row)
        rows = Locator(css="tr:has(td)", within=current.within, nth=spec.nth)
        if await _matches(ctx, rows.model_copy(update={"nth": None})):
            return Relaxed(rows, ", ".join(notes + ["the table's rows as the list's entries"]))
    found: Locator | None = None
    if spec.text is not None:
        pattern = text_pattern(regex_literal(spec.text) or spec.text,
                               anchored=spec.exact or presence)
        if pattern is not None:
            found = Locator(text=pattern)
            notes.append(f"the text {pattern}")
    else:
        r = relax_locator(inner, snapshot, presence=presence)
        if r is None:
            # found on the whole page, taken only where it is inside the scope (below)
            r = await _structural(ctx, inner, action=action)
        if r is None and not unscoped:
            # without its scope, a film's 19:30 could be another film's
            hit = await structure.dated_control(ctx, inner, current.within)
            r = Relaxed(*hit) if hit else None
        if r is not None:
            found = r.locator
            notes.append(r.note)
    if found is None:
        return outside
    candidate = found.model_copy(update={"within": current.within, "nth": spec.nth})
    if unscoped and (action or found.role in CONTROL_ROLES):
        candidate = candidate.model_copy(update={"nth": None})
        if await _count(ctx, candidate) != 1:
            return None
    elif not await _matches(ctx, candidate):
        return outside
    return Relaxed(candidate, ", ".join(notes))


async def _confirm(ctx: StepContext, previous: CheckStep | None) -> Rescue | None:
    """The click before opened a confirmation dialog ("Pause SUB-1001?") the check did not
    expect: answer it as the click asked (its button "Pause deliveries", or "Yes"), then check
    again."""
    if previous is None or previous.op not in ACTION_OPS or previous.locator is None:
        return None
    try:  # a click inside the dialog (its own submit) opened nothing to answer
        inside = await build_locator(ctx.page, previous.locator).first.evaluate(
            "el => !!el.closest('dialog[open], [role=dialog], [role=alertdialog]')",
            timeout=1000)
    except PWError:
        inside = False  # gone with what it opened
    if inside:
        return None
    opener = structure.name_text(previous.locator)
    hit = await structure.confirmation(ctx, opener)
    if hit is None:
        return None
    await build_locator(ctx.page, hit[0]).click(timeout=adapt.SNAPSHOT_TIMEOUT_MS)
    await ctx.page.wait_for_timeout(150)  # the confirmed change renders
    return Rescue("adapted", f"confirmed {opener!r} with {hit[1]}")


CONTROL_ROLES = frozenset({"button", "link", "menuitem", "tab", "checkbox", "radio",
                           "switch", "textbox", "combobox", "spinbutton"})
_DISABLED_JS = """els => els.filter(e => { const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0; }).map(e => e.disabled === true
  || e.getAttribute('aria-disabled') === 'true' || !!e.closest('fieldset[disabled]'))"""


async def _all_disabled(ctx: StepContext, spec: Locator) -> bool:
    """Every shown element ``spec`` finds is disabled (and there is at least one)."""
    try:
        states = await build_locator(ctx.page, spec).evaluate_all(_DISABLED_JS)
    except PWError:
        return False
    return bool(states) and all(states)


# records among their like: what a list shows
LISTED_ROLES = frozenset({"row", "listitem", "article", "option", "gridcell", "cell"})


async def _back_to_list(ctx: StepContext) -> Rescue | None:
    """The app went on to another view after an action (the new order's own page after
    Create): back to where the check last went, its list, the way a user goes back (the
    address's fragment when only that changed, else loading it again)."""
    home, now = ctx.home, ctx.page.url
    if not home or now == home:
        return None
    if now.split("#")[0] == home.split("#")[0] and "#" in home:
        await ctx.page.evaluate("h => { location.hash = h }", "#" + home.split("#", 1)[1])
    elif now.split("#")[0] == home.split("#")[0]:
        await ctx.page.go_back(timeout=adapt.SNAPSHOT_TIMEOUT_MS)
    else:
        await ctx.page.goto(home, wait_until="load", timeout=adapt.SNAPSHOT_TIMEOUT_MS)
    await ctx.page.wait_for_timeout(150)  # the list renders
    shown = home.split("/", 3)[-1] if home.count("/") >= 3 else home
    return Rescue("relaxed", f"went back to the list the check was on (/{shown})")


DIALOG_ROLES = frozenset({"dialog", "alertdialog"})


def checks_dialogs(steps: list[CheckStep]) -> bool:
    """Does the check assert whether a dialog is open ("opens no dialog", "the dialog
    closes")? Then a dialog it did not expect is what it measures, not a detour to answer."""
    return any(s.op.startswith("expect_") and s.locator is not None
               and s.locator.role in DIALOG_ROLES for s in steps)


async def rescue(ctx: StepContext, step: CheckStep, exc: StepFailed,
                 previous: CheckStep | None = None, *,
                 dialogs_checked: bool = False) -> Rescue | None:
    """What the ladder takes instead of the step that failed with ``exc`` (``previous``: the
    step before it), or None. ``dialogs_checked``: the criterion asserts on dialogs itself
    (``checks_dialogs``), so an unexpected one is never answered for it."""
    if step.locator is None:
        return None
    miss = isinstance(exc, LocatorMiss)
    try:
        if step.op.startswith("expect_") and not dialogs_checked and await _modal_open(ctx):
            r = await _confirm(ctx, previous)
            if r is not None:
                return Rescue(r.rung, r.taken, step)
        if (step.op == "click" and miss and step.locator.role == "button"
                and previous is not None and await _modal_open(ctx)):
            # "Confirm cancellation" / "Keep subscription" in a dialog that says "Cancel
            # subscription" / "Keep it"
            opener = structure.name_text(previous.locator) if previous.locator else None
            hit = await structure.confirmation(ctx, opener, structure.name_text(step.locator))
            if hit is not None:
                return Rescue("relaxed", hit[1], step.model_copy(update={"locator": hit[0]}))
        if step.op in ADAPTABLE and (miss or any(w in exc.detail for w in _WRONG_WIDGET)):
            try:
                taken = await intent(ctx, ADAPTABLE[step.op], step.locator, step.params)
            except (adapt.NotAdapted, PWError):
                pass
            else:
                return Rescue("adapted", taken)
        if step.op == "click" and step.locator.role == "button" and not miss and (
                "intercepts pointer events" in exc.detail or await _modal_open(ctx)):
            # the button named is behind an open dialog (the one that opened it): what the
            # check means is the dialog's own submit, the form the check was filling
            hit = await structure.submit_button(ctx)
            if hit is not None:
                r = Relaxed(*hit)
                return Rescue("relaxed", r.note, step.model_copy(update={"locator": r.locator}))
        if (step.op == "expect_hidden" and not miss and step.locator.role in CONTROL_ROLES
                and "visible" in exc.detail and await _all_disabled(ctx, step.locator)):
            # "no Start work before a technician is assigned": shown greyed out, it is not
            # offered either
            return Rescue("relaxed", "shown but disabled: it cannot be used")
        fillable = step.op in ADAPTABLE or step.op in INTENT_OPS
        hidden = not miss and "not visible" in exc.detail and step.op != "expect_hidden"
        if hidden:
            one = await _shown_one(ctx, step)
            if one is not None:
                return one
            r = await _other_tab(ctx, step.locator)
            if r is not None:
                return Rescue(r.rung, r.taken, step)
        if not miss and fillable and "not visible" in exc.detail:
            # the field is there but hidden until something opens it
            return await _reveal_then(ctx, step)
        if (miss and step.op.startswith("expect_") and step.op != "expect_hidden"
                and (step.locator.role in LISTED_ROLES
                     or (step.locator.within is not None
                         and step.locator.within.role in LISTED_ROLES))):
            r = await _back_to_list(ctx)
            if r is not None:
                return Rescue(r.rung, r.taken, step)
        if miss and step.op in ("expect_value", "expect_text"):
            # the export read through the reference's preview field: the file the page's own
            # download control saves says the same data
            got = await downloads.download_text(ctx, step.locator)
            if got is not None:
                text, control = got
                taken = f"read the file the page's {control!r} control downloads"
                if matches(step.params.get("value"), text,
                           contains=step.op == "expect_text"):
                    return Rescue("adapted", taken)
                raise StepFailed(f"{taken}: observed {' '.join(text.split())[:160]!r}")
        if miss:
            r = await relaxed_locator(ctx, step.locator, presence=step.op in PRESENCE_OPS,
                                      action=step.op in ACTION_OPS)
            if (r is None and step.op == "click" and step.locator.role == "button"
                    and previous is not None and previous.op in _ENTRY_OPS):
                # "Save" where the form says "Add": the check was filling the form and now
                # sends it. After a click ("Apply", then "Redeem") it means another control.
                hit = await structure.submit_button(ctx)
                r = Relaxed(*hit) if hit is not None else None
            if r is not None:
                return Rescue("relaxed", r.note, step.model_copy(update={"locator": r.locator}))
            if fillable:  # last: it clicks
                return await _reveal_then(ctx, step)
            return None
        value = as_text(step.params.get("value"))
        if is_regex(value):
            value = regex_literal(value) or ""
        if step.op == "expect_text" and exc.detail.startswith("observed ") and value:
            contains = step.params.get("contains", True) is not False
            texts = await asyncio.wait_for(
                build_locator(ctx.page, step.locator).evaluate_all(TEXT_JS), 5)
            target = texts[step.locator.nth or 0] if texts and len(texts) > (
                step.locator.nth or 0) else None
            if target is not None and same_words(value, as_text(target), contains=contains):
                return Rescue("relaxed", f"the same words in another form: "
                                         f"{' '.join(as_text(target).split())[:120]!r}")
            if target is not None and contains and labelled_value(value, as_text(target)):
                return Rescue("relaxed", f"the same value under the app's own label: "
                                         f"{' '.join(as_text(target).split())[:120]!r}")
            seen = await asyncio.wait_for(
                build_locator(ctx.page, step.locator).evaluate_all(_SEEN_JS), 5)
            shown = seen[step.locator.nth or 0] if seen and len(seen) > (
                step.locator.nth or 0) else None
            if shown is not None and shown != " ".join(as_text(target or "").split()) and (
                    matches(step.params.get("value"), shown, contains=contains)
                    or same_words(value, shown, contains=contains)):
                # the value is in a field of the row ("18" / "20" in two boxes)
                return Rescue("relaxed", f"what its fields show: {shown[:120]!r}")
    except (PWError, asyncio.TimeoutError):
        return None
    return None
