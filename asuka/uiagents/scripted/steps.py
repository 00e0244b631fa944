"""Execution of scripted check steps (the DSL of ``asuka.schema.CheckStep``) on a Playwright page.

``run_step`` performs one step and raises ``StepFailed`` with a short, human-readable description
of what was observed when the step does not hold. Nothing here decides verdicts; see
``asuka.uiagents.scripted.agent`` for that and for the documented semantics of every step.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PWError
from playwright.async_api import Locator as PWLocator
from playwright.async_api import TimeoutError as PWTimeout

from asuka.schema import CheckStep, to_pattern
from asuka.uiagents.browsing import input_modes
from asuka.uiagents.browsing.locate import (
    CONNECTION_ERRORS,
    GRACE_S,
    LATE_LIMIT,
    LocatorMiss,
    Miss,
    StepContext,
    StepFailed,
    as_text,
    brief,
    collapse,
    first_match,
    is_transient,
    no_match,
    own_label,
    poll,
    resolve_url,
)
from asuka.uiagents.browsing.settle import requests_answered
from asuka.uiagents.scripted import adapt, assertions, pointing

__all__ = ["StepContext", "StepFailed", "brief", "goto", "run_step"]

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
    await _data_loaded(ctx)
    ctx.home = url


async def _reload(ctx: StepContext, step: CheckStep) -> None:
    ms = ctx.nav_timeout_s * 1000
    await _navigate(ctx, ctx.page.reload(wait_until="load", timeout=ms))
    await _data_loaded(ctx)


async def _data_loaded(ctx: StepContext) -> None:
    """After a navigation, wait until the requests in flight are answered (an app that fetches
    its data after ``load``), at most the navigation timeout: the next step acts on the page a
    user would see, not on one whose data happens to be late on a busy machine (a dialog opened
    before the columns arrived keeps an empty list). Not on the patient path, which has no
    request counters."""
    if not ctx.fast_absence or ctx.requests is None:
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ctx.nav_timeout_s
    while not await requests_answered(ctx.page, ctx.requests) and loop.time() < deadline:
        await asyncio.sleep(0.05)


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
            if is_transient(exc):
                raise
            if (retry and not body and "SyntaxError" in (exc.message or "")
                    and await ctx.page.evaluate(_COMPILES_AS_BODY, src)):
                fn[0] = js_wrapper(src, True)
                return await probe(False)
            raise StepFailed(f"JavaScript threw {brief(exc)}") from None
        return bool(ok), f"returned {shown}"

    await poll(ctx, probe, ctx.assert_timeout_s)


# ---------------------------------------------------------------- actions


async def _act(ctx: StepContext, step: CheckStep, action: Any) -> None:
    assert step.locator is not None
    target = first_match(ctx, step.locator)
    if ctx.fast_absence:
        await _wait_attached(ctx, step, target)
    target = await own_label(ctx, step.locator, target)
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
            why = await no_match(ctx, step.locator)
            raise (LocatorMiss if isinstance(why, Miss) else StepFailed)(
                why + f" (waited {ctx.action_timeout_s:g}s)") from None
        msg = brief(exc)
        if isinstance(exc, PWTimeout) and "element is not" not in msg:
            msg += await _why_not_actionable(target)
        raise StepFailed(msg) from None


async def _wait_attached(ctx: StepContext, step: CheckStep, target: PWLocator) -> None:
    """Fail at once when the target is missing from a settled page; an element that exists
    but is not yet actionable still gets the action's whole timeout."""
    async def probe() -> tuple[bool, str]:
        if await target.count():
            return True, ""
        return False, await no_match(ctx, step.locator)  # type: ignore[arg-type]

    await poll(ctx, probe, ctx.action_timeout_s)


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

        await poll(ctx, probe, ctx.action_timeout_s)
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


async def _intent(ctx: StepContext, step: CheckStep) -> None:
    """``set`` / ``choose`` / ``turn_on`` / ``turn_off``: the intent carried out on the widget
    the app has (``asuka.uiagents.scripted.adapt``), tried until it works or the page has settled."""
    assert step.locator is not None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ctx.action_timeout_s
    late_limit = loop.time() + ctx.action_timeout_s * LATE_LIMIT
    while True:
        try:
            if step.op == "set":
                await adapt.set_value(ctx, step.locator, step.params.get("value"))
            elif step.op == "choose":
                await adapt.choose(ctx, step.locator, step.params.get("option"))
            else:
                await adapt.turn(ctx, step.locator, step.op == "turn_on")
            return
        except adapt.NotAdapted as exc:
            now = loop.time()
            # as ``poll``: past the deadline only a page still busy with overdue work waits
            if (await ctx.settled(deadline - now) if now < deadline
                    else now >= late_limit or not await ctx.busy()):
                raise LocatorMiss(Miss(f"{step.op} [{step.locator.describe()}]: {exc}")) from None
            await asyncio.sleep(0.1)


# ---------------------------------------------------------------- dispatch


def _simple(method: str) -> Any:
    async def run(ctx: StepContext, step: CheckStep) -> None:
        await _act(ctx, step, lambda t, ms: getattr(t, method)(timeout=ms))
    return run


def _pointer(op: str) -> Any:
    """click / check / uncheck as the context's user makes them (``input_modes``)."""
    async def run(ctx: StepContext, step: CheckStep) -> None:
        async def action(t: PWLocator, ms: float) -> None:
            if op == "click":
                await input_modes.activate(ctx.input, ctx.page, t, ms)
            else:
                await input_modes.set_checked(ctx.input, ctx.page, t, op == "check", ms)
        await _act(ctx, step, action)
    return run


def _reached(handler: Any) -> Any:
    """For a keyboard-only user, a field is first reached with Tab, then used."""
    async def run(ctx: StepContext, step: CheckStep) -> None:
        if ctx.input == "keyboard" and step.locator is not None:
            async def focus(t: PWLocator, ms: float) -> None:
                await input_modes.focus_by_keyboard(ctx.page, t)
            await _act(ctx, step, focus)
        await handler(ctx, step)
    return run


HANDLERS: dict[str, Any] = {
    "goto": lambda ctx, step: goto(ctx, step.arg),
    "reload": _reload,
    "wait": _wait,
    "eval": _eval,
    "click": _pointer("click"),
    "dblclick": _simple("dblclick"),
    "hover": _simple("hover"),
    "check": _pointer("check"),
    "uncheck": _pointer("uncheck"),
    "fill": _reached(lambda ctx, step: _act(
        ctx, step, lambda t, ms: t.fill(as_text(step.params["value"]), timeout=ms))),
    "select": _reached(_select),
    "press": _press,
    "upload": _reached(_upload),
    "set": _intent,
    "choose": _intent,
    "turn_on": _intent,
    "turn_off": _intent,
    "point_at": pointing.point_at,
    "expect_points": pointing.expect_points,
    "expect_visible": assertions.expect_visible,
    "expect_hidden": assertions.expect_hidden,
    "expect_text": assertions.expect_text,
    "expect_value": assertions.expect_value,
    "expect_count": assertions.expect_count,
    "expect_attr": assertions.expect_attr,
}


def step_budget(ctx: StepContext, step: CheckStep) -> float | None:
    """Hard wall-clock cap of one step: twice its own timeout plus ``GRACE_S``. A sweep along
    a chart has none: its few hundred pointer moves take what the machine's load makes them,
    and a stuck page is caught at the move it does not answer (``pointing.STALL_FACTOR``)."""
    if step.op in ("point_at", "expect_points"):
        return None
    if step.op == "wait":
        try:
            return max(float(step.arg or 0), 0) / 1000 + GRACE_S
        except (TypeError, ValueError):
            return GRACE_S
    own = {"goto": ctx.nav_timeout_s, "reload": ctx.nav_timeout_s, "eval": ctx.assert_timeout_s,
           "select": 2 * ctx.action_timeout_s, "upload": 2 * ctx.action_timeout_s,
           "set": 2 * ctx.action_timeout_s, "choose": 2 * ctx.action_timeout_s}
    fallback = ctx.assert_timeout_s if step.op.startswith("expect_") else ctx.action_timeout_s
    return 2 * own.get(step.op, fallback) + GRACE_S


async def run_step(ctx: StepContext, step: CheckStep) -> None:
    """Run one step; raise ``StepFailed`` when it does not hold."""
    handler = HANDLERS.get(step.op)
    if handler is None:
        raise StepFailed(f"unknown step {step.op!r}")
    input_modes.check_allowed(ctx.input, step.op, ctx.allowed_tools)
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
