"""Execution of scripted check steps (the DSL of ``asuka.schema.CheckStep``) on a Playwright page.

``run_step`` performs one step and raises ``StepFailed`` with a short, human-readable description
of what was observed when the step does not hold. Nothing here decides verdicts; see
``asuka.uiagents.scripted`` for that and for the documented semantics of every step.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PWError
from playwright.async_api import Locator as PWLocator
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PWTimeout

from asuka.schema import CheckStep, Locator, is_regex, to_pattern

POLL_INTERVAL_S = 0.1
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
    return _cut(first, 400)


def _cut(text: str, n: int = MAX_SHOWN) -> str:
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


def _one(ctx: StepContext, spec: Locator) -> PWLocator:
    loc = build_locator(ctx.page, spec)
    return loc if spec.nth is not None else loc.first


async def no_match(ctx: StepContext, spec: Locator) -> str:
    """Why nothing matches: the ``within`` scope, too few matches for ``nth``, or nothing."""
    try:
        if spec.within is not None and await build_locator(ctx.page, spec.within).count() == 0:
            return f"no element matches the scope {spec.within.describe()}"
        if spec.nth is not None:
            n = await build_locator(ctx.page, spec.model_copy(update={"nth": None})).count()
            if n:
                return f"only {n} element(s) match, none at nth={spec.nth}"
    except PWError as exc:
        return brief(exc)
    return f"no element matches {spec.describe()}"


def _transient(exc: PWError) -> bool:
    return any(t in (exc.message or "") for t in _TRANSIENT)


async def poll(probe: Any, timeout_s: float) -> None:
    """Run ``probe() -> (ok, observed)`` until ok or the timeout; then fail with the last
    observation. A Playwright error that is not a navigation race fails at once."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while True:
        try:
            ok, observed = await probe()
        except PWError as exc:
            if not _transient(exc):
                raise StepFailed(brief(exc)) from None
            ok, observed = False, "the page was navigating"
        if ok:
            return
        if loop.time() >= deadline:
            raise StepFailed(observed)
        await asyncio.sleep(POLL_INTERVAL_S)


# ---------------------------------------------------------------- navigation and JS


async def _navigate(ctx: StepContext, coro: Any) -> None:
    try:
        resp = await coro
    except PWTimeout:
        raise StepFailed(f"the page did not finish loading within {ctx.nav_timeout_s:g}s "
                         "(no 'load' event)") from None
    except PWError as exc:
        msg = exc.message or ""
        raise StepFailed(f"could not load the page: {brief(exc)}",
                         connection=any(c in msg for c in CONNECTION_ERRORS)) from None
    ctx.navigated = True
    ctx.last_status = resp.status if resp is not None else ctx.last_status


async def goto(ctx: StepContext, path: Any) -> None:
    url = resolve_url(ctx.base_url, path)
    ms = ctx.nav_timeout_s * 1000
    await _navigate(ctx, ctx.page.goto(url, wait_until="load", timeout=ms))


async def _reload(ctx: StepContext, step: CheckStep) -> None:
    ms = ctx.nav_timeout_s * 1000
    await _navigate(ctx, ctx.page.reload(wait_until="load", timeout=ms))


async def _wait(ctx: StepContext, step: CheckStep) -> None:
    try:
        ms = float(step.arg or 0)
    except (TypeError, ValueError):
        raise StepFailed(f"wait needs milliseconds, got {step.arg!r}") from None
    await asyncio.sleep(max(ms, 0) / 1000)


_STRINGS = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`(?:\\.|[^`\\])*`", re.S)


def is_function_body(source: str) -> bool:
    """Source containing the word ``return`` outside string literals is a function body."""
    return bool(re.search(r"\breturn\b", _STRINGS.sub("''", source)))


def js_wrapper(source: str, body: bool | None = None) -> str:
    """An async function returning [truthy, shown value] of ``source``, an expression or (when
    ``body``, default ``is_function_body``) a function body."""
    src = source.strip()
    if body is None:
        body = is_function_body(src)
    code = src if body else "return (\n" + src.rstrip(";").rstrip() + "\n);"
    return (
        "async () => {\n const __v = await (async () => {\n" + code + "\n})();\n"
        " let __s; try { __s = JSON.stringify(__v); } catch (e) { __s = undefined; }\n"
        " if (__s === undefined) __s = String(__v);\n"
        " return [!!__v, __s.slice(0, 200)];\n}"
    )


# true when the source is not an expression but compiles as statements (e.g. ``throw ...``,
# ``if (...) ...``); false under a CSP that forbids eval, keeping the original error
_COMPILES_AS_BODY = """src => {
  const AF = (async () => {}).constructor;
  try { new AF('return (\\n' + src + '\\n);'); return false; }
  catch (e) { if (!(e instanceof SyntaxError)) return false; }
  try { new AF(src); return true; } catch (e) { return false; }
}"""


async def _eval(ctx: StepContext, step: CheckStep) -> None:
    src = as_text(step.arg).strip().rstrip(";")
    body = is_function_body(src)
    fn = [js_wrapper(src, body)]

    async def probe(retry: bool = True) -> tuple[bool, str]:
        try:
            ok, shown = await ctx.page.evaluate(fn[0])
        except PWError as exc:
            if _transient(exc):
                raise
            if (retry and not body and "SyntaxError" in (exc.message or "")
                    and await ctx.page.evaluate(_COMPILES_AS_BODY, src)):
                fn[0] = js_wrapper(src, True)
                return await probe(False)
            raise StepFailed(f"JavaScript threw {brief(exc)}") from None
        return bool(ok), f"returned {shown}"

    await poll(probe, ctx.assert_timeout_s)


# ---------------------------------------------------------------- actions


async def _act(ctx: StepContext, step: CheckStep, action: Any) -> None:
    assert step.locator is not None
    target = _one(ctx, step.locator)
    try:
        await action(target, ctx.action_timeout_s * 1000)
    except StepFailed:
        raise
    except PWError as exc:
        try:
            missing = await target.count() == 0
        except PWError:
            missing = False
        if missing:
            raise StepFailed(await no_match(ctx, step.locator)
                             + f" (waited {ctx.action_timeout_s:g}s)") from None
        msg = brief(exc)
        if isinstance(exc, PWTimeout) and "element is not" not in msg:
            msg += await _why_not_actionable(target)
        raise StepFailed(msg) from None


async def _why_not_actionable(target: PWLocator) -> str:
    """A hint when Playwright's call log gave none (e.g. on a loaded machine)."""
    try:
        if not await target.is_visible():
            return " (element is not visible)"
        if not await target.is_enabled(timeout=1000):
            return " (element is not enabled)"
    except PWError:
        pass
    return ""


def _pick_option(opts: list[list[str]], wanted: str) -> int | None:
    """Index of the option whose label, then value, matches ``wanted``."""
    pat = to_pattern(wanted)
    for field in (0, 1):
        for i, o in enumerate(opts):
            s = o[field]
            if (pat.search(s) if not isinstance(pat, str) else collapse(s) == collapse(pat)):
                return i
    return None


async def _select(ctx: StepContext, step: CheckStep) -> None:
    wanted = step.params["option"]
    wanted_list = [as_text(w) for w in (wanted if isinstance(wanted, list) else [wanted])]
    js = ("el => el.tagName === 'SELECT' ? Array.from(el.options)"
          ".map(o => [o.label || o.textContent || '', o.value]) : el.tagName.toLowerCase()")
    found: list[int] = []

    async def do(t: PWLocator, ms: float) -> None:
        await t.wait_for(state="attached", timeout=ms)

        async def probe() -> tuple[bool, str]:
            opts = await t.evaluate(js, timeout=ms)
            if isinstance(opts, str):
                raise StepFailed(f"element is a <{opts}>, not a <select>")
            idx = [_pick_option(opts, w) for w in wanted_list]
            found[:] = [i for i in idx if i is not None]
            labels = ", ".join(repr(o[0]) for o in opts[:20])
            return None not in idx, f"no option matches {wanted!r}; options: {labels or 'none'}"

        await poll(probe, ctx.action_timeout_s)
        await t.select_option(index=found, timeout=ms)

    await _act(ctx, step, do)


async def _press(ctx: StepContext, step: CheckStep) -> None:
    key = as_text(step.params["key"])
    if step.locator is None:
        try:
            await ctx.page.keyboard.press(key)
        except PWError as exc:
            raise StepFailed(brief(exc)) from None
        return
    await _act(ctx, step, lambda t, ms: t.press(key, timeout=ms))


async def _upload(ctx: StepContext, step: CheckStep) -> None:
    files = step.params["files"]
    paths = []
    for f in files if isinstance(files, list) else [files]:
        p = Path(as_text(f))
        if not p.is_absolute():
            p = (ctx.data_dir or Path.cwd()) / p
        if not p.is_file():
            raise StepFailed(f"upload file not found: {as_text(f)}")
        paths.append(str(p))

    async def do(t: PWLocator, ms: float) -> None:
        is_input = await t.evaluate(
            "el => el instanceof HTMLInputElement && el.type === 'file'", timeout=ms)
        if is_input:
            await t.set_input_files(paths, timeout=ms)
            return
        async with ctx.page.expect_file_chooser(timeout=ms) as chooser:
            await t.click(timeout=ms)
        await (await chooser.value).set_files(paths)

    await _act(ctx, step, do)


# ---------------------------------------------------------------- assertions


async def _on_first(ctx: StepContext, step: CheckStep, js: str, judge: Any, arg: Any = None
                    ) -> None:
    """Poll ``judge(value of js on the first/nth match) -> (ok, observed)``."""
    assert step.locator is not None
    target = _one(ctx, step.locator)

    async def probe() -> tuple[bool, str]:
        vals = await target.evaluate_all(js, arg)  # does not wait for a match
        if not vals:
            return False, await no_match(ctx, step.locator)  # type: ignore[arg-type]
        return judge(vals[0])

    await poll(probe, ctx.assert_timeout_s)


async def _expect_visible(ctx: StepContext, step: CheckStep) -> None:
    assert step.locator is not None
    target = _one(ctx, step.locator)

    async def probe() -> tuple[bool, str]:
        if await target.is_visible():
            return True, ""
        if await target.count() == 0:
            return False, await no_match(ctx, step.locator)  # type: ignore[arg-type]
        return False, "the element exists but is not visible"

    await poll(probe, ctx.assert_timeout_s)


async def _expect_hidden(ctx: StepContext, step: CheckStep) -> None:
    assert step.locator is not None
    loc = build_locator(ctx.page, step.locator)

    async def probe() -> tuple[bool, str]:
        n = await loc.count()
        visible = sum([await loc.nth(i).is_visible() for i in range(min(n, 100))])
        return visible == 0, f"{visible} of {n} matching element(s) visible"

    await poll(probe, ctx.assert_timeout_s)


async def _expect_text(ctx: StepContext, step: CheckStep) -> None:
    value, contains = step.params["value"], step.params.get("contains", True) is not False

    def judge(text: Any) -> tuple[bool, str]:
        text = as_text(text)
        return matches(value, text, contains=contains), f"observed {_cut(collapse(text))!r}"

    await _on_first(ctx, step, "els => els.map(e => e.innerText ?? e.textContent)", judge)


_VALUE_JS = ("els => els.map(e => (e instanceof HTMLInputElement"
             " || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement)"
             " ? e.value : {tag: e.tagName.toLowerCase()})")


async def _expect_value(ctx: StepContext, step: CheckStep) -> None:
    def judge(val: Any) -> tuple[bool, str]:
        if isinstance(val, dict):
            return False, f"the element is a <{val.get('tag')}>, which has no input value"
        return matches(step.params["value"], as_text(val)), f"observed value {_cut(as_text(val))!r}"

    await _on_first(ctx, step, _VALUE_JS, judge)


async def _expect_attr(ctx: StepContext, step: CheckStep) -> None:
    attr, value = as_text(step.params["attr"]), step.params.get("value")

    def judge(val: Any) -> tuple[bool, str]:
        if val is None:
            return False, f"the element has no attribute {attr!r}"
        return (value is None or matches(value, val)), f"observed {attr}={_cut(val)!r}"

    await _on_first(ctx, step, "(els, a) => els.map(e => e.getAttribute(a))", judge, attr)


async def _expect_count(ctx: StepContext, step: CheckStep) -> None:
    assert step.locator is not None
    loc = build_locator(ctx.page, step.locator)
    p = step.params
    try:
        count, lo, hi = (None if p.get(k) is None else int(p[k]) for k in ("count", "min", "max"))
    except (TypeError, ValueError):
        raise StepFailed(f"count/min/max must be integers, got {p!r}") from None

    async def probe() -> tuple[bool, str]:
        n = await loc.count()
        ok = (count is None or n == count) and (lo is None or n >= lo) and (hi is None or n <= hi)
        return ok, f"observed {n} matching element(s)"

    await poll(probe, ctx.assert_timeout_s)


# ---------------------------------------------------------------- dispatch


def _simple(method: str) -> Any:
    async def run(ctx: StepContext, step: CheckStep) -> None:
        await _act(ctx, step, lambda t, ms: getattr(t, method)(timeout=ms))
    return run


HANDLERS: dict[str, Any] = {
    "goto": lambda ctx, step: goto(ctx, step.arg),
    "reload": _reload,
    "wait": _wait,
    "eval": _eval,
    "click": _simple("click"),
    "dblclick": _simple("dblclick"),
    "hover": _simple("hover"),
    "check": _simple("check"),
    "uncheck": _simple("uncheck"),
    "fill": lambda ctx, step: _act(
        ctx, step, lambda t, ms: t.fill(as_text(step.params["value"]), timeout=ms)),
    "select": _select,
    "press": _press,
    "upload": _upload,
    "expect_visible": _expect_visible,
    "expect_hidden": _expect_hidden,
    "expect_text": _expect_text,
    "expect_value": _expect_value,
    "expect_count": _expect_count,
    "expect_attr": _expect_attr,
}


def step_budget(ctx: StepContext, step: CheckStep) -> float:
    """Hard wall-clock cap of one step: twice its own timeout plus ``GRACE_S``."""
    if step.op == "wait":
        try:
            return max(float(step.arg or 0), 0) / 1000 + GRACE_S
        except (TypeError, ValueError):
            return GRACE_S
    own = {"goto": ctx.nav_timeout_s, "reload": ctx.nav_timeout_s, "eval": ctx.assert_timeout_s,
           "select": 2 * ctx.action_timeout_s, "upload": 2 * ctx.action_timeout_s}
    fallback = ctx.assert_timeout_s if step.op.startswith("expect_") else ctx.action_timeout_s
    return 2 * own.get(step.op, fallback) + GRACE_S


async def run_step(ctx: StepContext, step: CheckStep) -> None:
    """Run one step; raise ``StepFailed`` when it does not hold."""
    handler = HANDLERS.get(step.op)
    if handler is None:
        raise StepFailed(f"unknown step {step.op!r}")
    budget = step_budget(ctx, step)
    try:
        await asyncio.wait_for(handler(ctx, step), budget)
    except asyncio.TimeoutError:
        raise StepFailed(f"the page did not respond within {budget:g}s (stuck script?)") from None
    except re.error as exc:
        raise StepFailed(f"invalid regular expression: {exc}") from None
    except PWTimeout as exc:
        raise StepFailed(brief(exc)) from None
    except PWError as exc:
        if "has been closed" in (exc.message or "") or "crashed" in (exc.message or ""):
            raise
        raise StepFailed(brief(exc)) from None
