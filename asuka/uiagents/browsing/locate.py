"""The ground the check steps stand on: their shared context, the StepFailed error, locators
built from ``asuka.schema.Locator``, text matching, and polling (used by ``steps`` and
``assertions``)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PWError
from playwright.async_api import Locator as PWLocator
from playwright.async_api import Page

from asuka.schema import Locator, is_regex, to_pattern
from asuka.uiagents.browsing.settle import RequestCounter, is_settled

POLL_INTERVAL_S = 0.1
# a polled step's deadline stretches to at most this many times its timeout while the page is
# still busy with work that was due (``StepContext.busy``)
LATE_LIMIT = 3.0
# A step gets twice its own timeout plus this before it is cut (a renderer stuck in a JS loop
# would otherwise hold the criterion until criterion_timeout_s); generous for loaded machines.
GRACE_S = 5.0
MAX_SHOWN = 200
# Chromium network errors meaning "nothing answered at that address".
CONNECTION_ERRORS = (
    "ERR_CONNECTION_REFUSED", "ERR_CONNECTION_RESET", "ERR_CONNECTION_CLOSED",
    "ERR_EMPTY_RESPONSE", "ERR_ADDRESS_UNREACHABLE", "ERR_NAME_NOT_RESOLVED",
    "ERR_CONNECTION_FAILED", "ERR_SOCKET_NOT_CONNECTED",
)
# An element's text as a person reads it: its innerText, except that a dropdown inside it
# counts by its chosen option (innerText lists every option, so a row whose status dropdown
# shows "Graded" would read "Missing Graded" and pass a check expecting "Missing"). A dropdown
# the locator names itself still reads with all its options (what it offers).
TEXT_JS = """els => els.map(root => {
  if (root.tagName === 'SELECT' || !root.querySelector || !root.querySelector('select')
      || (root.checkVisibility && !root.checkVisibility()))
    return root.innerText ?? root.textContent;
  const read = el => {
    if (el.checkVisibility && !el.checkVisibility()) return '';
    if (el.tagName === 'SELECT')
      return '\\n' + Array.from(el.selectedOptions).map(o => o.text).join(', ') + '\\n';
    const shown = getComputedStyle(el).display;
    let s = '';
    if (!el.querySelector('select')) s = el.innerText ?? el.textContent ?? '';
    else el.childNodes.forEach(c => {
      if (c.nodeType === Node.TEXT_NODE) s += c.data.replace(/\\s+/g, ' ');
      else if (c.nodeType === Node.ELEMENT_NODE) s += read(c);
    });
    if (shown === 'table-cell') return s + '\\t';
    return shown.startsWith('inline') ? s : '\\n' + s + '\\n';
  };
  return read(root).replace(/\\n\\s*\\n/g, '\\n').replace(/^\\s+|\\s+$/g, '');
})"""
_TRANSIENT = ("Execution context was destroyed", "Cannot find context with specified id",
              "frame was detached", "navigating and changing")
_NOISE = re.compile(r"(retrying|waiting \d+m?s|waiting for element to be|attempting |"
                    r"waiting for (get_by|locator|nth|frame|internal|first|last)|navigating to|"
                    r"waiting for navigation|waiting for scheduled navigations)")


class StepFailed(Exception):
    """A step did not hold. ``connection`` marks a navigation that reached nothing at all."""

    def __init__(self, detail: str, *, connection: bool = False) -> None:
        super().__init__(detail)
        self.detail = detail
        self.connection = connection


class LocatorMiss(StepFailed):
    """The step's locator found nothing on the page: the check decided on naming, not on
    behaviour it saw (a ``not_found`` verdict, which reports count apart from failures)."""


class Miss(str):
    """An observation that says nothing matched the locator (see ``poll``)."""


@dataclass
class StepContext:
    """What the steps of one evaluation task share; ``page`` changes per criterion."""

    page: Page
    base_url: str
    data_dir: Path | None = None
    assert_timeout_s: float = 1.5
    action_timeout_s: float = 3.0
    nav_timeout_s: float = 15.0
    navigated: bool = False          # some navigation of this task reached the server
    last_status: int | None = None   # HTTP status of the page's last main-document load
    home: str | None = None          # where the criterion's last ``goto`` went (its list)
    # decide absence once the page has settled (``asuka.uiagents.browsing.settle``); None: wait out
    # every timeout (the pages then need no init script)
    requests: RequestCounter | None = None
    fast_absence: bool = False
    input: str = "any"  # the user's input devices (asuka.uiagents.browsing.input_modes)
    allowed_tools: frozenset[str] | None = None  # an evaluator's allowed_tools; None: all

    async def settled(self, horizon_s: float) -> bool:
        return self.fast_absence and await is_settled(self.page, self.requests, horizon_s)

    async def busy(self) -> bool:
        """The page is still doing work that was due by now: a request in flight, a timer
        overdue, the DOM changing. At a step's deadline that means the app is late, not wrong:
        on a busy machine its renders and timers run late, so the step waits for the page's
        state rather than the clock (never on the patient path, which waits its timeouts)."""
        return self.fast_absence and not await is_settled(self.page, self.requests, 0.0)


# ---------------------------------------------------------------- helpers


def brief(exc: BaseException) -> str:
    """First line of a Playwright error without the API prefix, plus the most telling call-log
    line ("element is not enabled", "... intercepts pointer events")."""
    msg = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    head, _, log = msg.partition("Call log:")
    lines = [ln for ln in head.strip().splitlines() if ln.strip()] or [type(exc).__name__]
    first = re.sub(r"^[A-Za-z]+\.[A-Za-z_]+: ", "", lines[0].strip())
    hints = [re.sub(r"^[\s\-]*(\d+ × )?", "", ln).strip() for ln in log.splitlines()]
    hints = [h for h in hints if h and not _NOISE.match(h)]
    if hints:
        first += f" ({hints[-1]})"
    return cut(first, 400)


def cut(text: str, n: int = MAX_SHOWN) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def collapse(text: str) -> str:
    return " ".join(str(text).split())


def as_text(value: Any) -> str:
    """YAML scalars as the page would show them (true -> "true", 3 -> "3")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def matches(expected: Any, actual: str, *, contains: bool = False) -> bool:
    """``/re/flags`` -> regex search (raw or whitespace-collapsed text); otherwise substring
    (``contains``) or equality, both after collapsing whitespace."""
    exp = as_text(expected)
    if is_regex(exp):
        pat = to_pattern(exp)
        return bool(pat.search(actual) or pat.search(collapse(actual)))
    if contains:
        return collapse(exp) in collapse(actual)
    return collapse(exp) == collapse(actual)


def resolve_url(base_url: str, path: Any) -> str:
    """``/``, ``/about``, ``#/route``, ``?q=1`` are relative to the app root ``base_url``;
    ``http(s)://...`` is used as is."""
    p = as_text(path).strip() or "/"
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.\-]*://", p) or p.startswith("about:"):
        return p
    return base_url.rstrip("/") + "/" + p.lstrip("/")


def build_locator(root: Page | PWLocator, spec: Locator) -> PWLocator:
    """The Playwright locator for ``spec`` (all matches, ``nth`` applied when given)."""
    scope = root if spec.within is None else build_locator(root, spec.within)

    def txt(v: str) -> dict[str, Any]:
        pat = to_pattern(v)
        return {"exact": spec.exact} if isinstance(pat, str) else {}

    if spec.role is not None:
        kw: dict[str, Any] = {}
        if spec.name is not None:
            kw = {"name": to_pattern(spec.name), **txt(spec.name)}
        loc = scope.get_by_role(spec.role, **kw)  # type: ignore[arg-type]
    elif spec.label is not None:
        loc = scope.get_by_label(to_pattern(spec.label), **txt(spec.label))
    elif spec.placeholder is not None:
        loc = scope.get_by_placeholder(to_pattern(spec.placeholder), **txt(spec.placeholder))
    elif spec.text is not None:
        loc = scope.get_by_text(to_pattern(spec.text), **txt(spec.text))
    elif spec.alt is not None:
        loc = scope.get_by_alt_text(to_pattern(spec.alt), **txt(spec.alt))
    elif spec.title is not None:
        loc = scope.get_by_title(to_pattern(spec.title), **txt(spec.title))
    elif spec.testid is not None:
        loc = scope.get_by_test_id(to_pattern(spec.testid))
    else:
        loc = scope.locator(spec.css or "")
    return loc.nth(spec.nth) if spec.nth is not None else loc


def first_match(ctx: StepContext, spec: Locator) -> PWLocator:
    loc = build_locator(ctx.page, spec)
    return loc if spec.nth is not None else loc.first


# each match's own labels: aria-label, aria-labelledby's and its <label>s' text without the
# controls a label wraps (Playwright's label match reads a wrapped <select>'s options too, so
# "Car" found the "Show [All cars]" filter)
_OWN_LABELS_JS = """els => els.map(e => {
  const own = n => { const c = n.cloneNode(true);
    c.querySelectorAll('select, option, optgroup, datalist, textarea').forEach(x => x.remove());
    return c.textContent || ''; };
  const said = [e.getAttribute('aria-label') || ''];
  (e.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean).forEach(id => {
    const l = document.getElementById(id); if (l) said.push(own(l)); });
  Array.from(e.labels || []).forEach(l => said.push(own(l)));
  return said.map(t => t.replace(/\\s+/g, ' ').trim()).filter(Boolean);
})"""


def _label_says(spec: Locator, label: str) -> bool:
    assert spec.label is not None
    pat = to_pattern(spec.label)
    if not isinstance(pat, str):
        return bool(pat.search(label))
    want = collapse(pat)
    return label == want if spec.exact else want.casefold() in label.casefold()


async def own_label(ctx: StepContext, spec: Locator, target: PWLocator) -> PWLocator:
    """``target`` (``first_match(ctx, spec)``), or for a field found by its label, the match
    whose own label says it when another matched only by a wrapped control's options. Matches
    the page does not have yet, or all alike, leave ``target`` as it is."""
    if spec.label is None:
        return target
    every = build_locator(ctx.page, spec.model_copy(update={"nth": None}))
    try:
        labels = await every.evaluate_all(_OWN_LABELS_JS)
    except PWError:
        return target
    keep = [i for i, said in enumerate(labels) if any(_label_says(spec, t) for t in said)]
    if not keep or len(keep) == len(labels):
        return target
    k = 0 if spec.nth is None else spec.nth
    return every.nth(keep[k]) if -len(keep) <= k < len(keep) else target


async def no_match(ctx: StepContext, spec: Locator) -> str:
    """Why nothing matches: the ``within`` scope, too few matches for ``nth``, or nothing."""
    try:
        if spec.within is not None and await build_locator(ctx.page, spec.within).count() == 0:
            return Miss(f"no element matches the scope {spec.within.describe()}")
        if spec.nth is not None:
            n = await build_locator(ctx.page, spec.model_copy(update={"nth": None})).count()
            if n:
                return f"only {n} element(s) match, none at nth={spec.nth}"
    except PWError as exc:
        return brief(exc)
    return Miss(f"no element matches {spec.describe()}")


def is_transient(exc: PWError) -> bool:
    return any(t in (exc.message or "") for t in _TRANSIENT)


async def poll(ctx: StepContext, probe: Any, timeout_s: float) -> None:
    """Run ``probe() -> (ok, observed)`` until ok or the timeout; then fail with the last
    observation. A Playwright error that is not a navigation race fails at once. Once the page
    has settled (``ctx.settled``) a failing probe is tried once more and then fails at once:
    nothing left pending could change what it sees before the deadline. At the deadline a page
    still busy with overdue work (``ctx.busy``) is polled on until it is not, up to
    ``LATE_LIMIT`` times the timeout."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    deadline, late_limit = start + timeout_s, start + timeout_s * LATE_LIMIT
    settled = False
    while True:
        try:
            ok, observed = await probe()
        except PWError as exc:
            if not is_transient(exc):
                raise StepFailed(brief(exc)) from None
            ok, observed = False, "the page was navigating"
        if ok:
            return
        if settled or loop.time() >= deadline:
            # past the deadline a page still busy with overdue work gets until it settles
            # (at most LATE_LIMIT times the timeout): the verdict follows the app's state,
            # whatever the machine's load
            if settled or loop.time() >= late_limit or not await ctx.busy():
                raise (LocatorMiss if isinstance(observed, Miss) else StepFailed)(observed)
            await asyncio.sleep(POLL_INTERVAL_S)
            continue
        # probed again after the settled answer: what changed before it is seen
        settled = await ctx.settled(deadline - loop.time())
        if not settled:
            await asyncio.sleep(POLL_INTERVAL_S)
