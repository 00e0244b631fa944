"""Assertion steps (``expect_*``): each polls the page until the expectation holds or its
timeout passes, then raises ``StepFailed`` saying what was observed instead."""

from __future__ import annotations

from typing import Any

from asuka.schema import CheckStep
from asuka.uiagents.browsing.locate import (
    TEXT_JS,
    Miss,
    StepContext,
    StepFailed,
    as_text,
    build_locator,
    collapse,
    cut,
    first_match,
    matches,
    no_match,
    own_label,
    poll,
)


async def _on_first(ctx: StepContext, step: CheckStep, js: str, judge: Any, arg: Any = None
                    ) -> None:
    """Poll ``judge(value of js on the first/nth match) -> (ok, observed)``."""
    assert step.locator is not None
    target = first_match(ctx, step.locator)

    async def probe() -> tuple[bool, str]:
        # does not wait for a match
        vals = await (await own_label(ctx, step.locator, target)).evaluate_all(js, arg)
        if not vals:
            return False, await no_match(ctx, step.locator)  # type: ignore[arg-type]
        return judge(vals[0])

    await poll(ctx, probe, ctx.assert_timeout_s)


async def expect_visible(ctx: StepContext, step: CheckStep) -> None:
    assert step.locator is not None
    target = first_match(ctx, step.locator)

    async def probe() -> tuple[bool, str]:
        if await target.is_visible():
            return True, ""
        if await target.count() == 0:
            return False, await no_match(ctx, step.locator)  # type: ignore[arg-type]
        return False, "the element exists but is not visible"

    await poll(ctx, probe, ctx.assert_timeout_s)


async def expect_hidden(ctx: StepContext, step: CheckStep) -> None:
    assert step.locator is not None
    loc = build_locator(ctx.page, step.locator)

    async def probe() -> tuple[bool, str]:
        n = await loc.count()
        visible = sum([await loc.nth(i).is_visible() for i in range(min(n, 100))])
        return visible == 0, f"{visible} of {n} matching element(s) visible"

    await poll(ctx, probe, ctx.assert_timeout_s)


async def expect_text(ctx: StepContext, step: CheckStep) -> None:
    value, contains = step.params["value"], step.params.get("contains", True) is not False

    def judge(text: Any) -> tuple[bool, str]:
        text = as_text(text)
        return matches(value, text, contains=contains), f"observed {cut(collapse(text))!r}"

    await _on_first(ctx, step, TEXT_JS, judge)


_VALUE_JS = ("els => els.map(e => (e instanceof HTMLInputElement"
             " || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement)"
             " ? e.value : {tag: e.tagName.toLowerCase()})")


async def expect_value(ctx: StepContext, step: CheckStep) -> None:
    def judge(val: Any) -> tuple[bool, str]:
        if isinstance(val, dict):
            return False, f"the element is a <{val.get('tag')}>, which has no input value"
        return matches(step.params["value"], as_text(val)), f"observed value {cut(as_text(val))!r}"

    await _on_first(ctx, step, _VALUE_JS, judge)


async def expect_attr(ctx: StepContext, step: CheckStep) -> None:
    attr, value = as_text(step.params["attr"]), step.params.get("value")

    def judge(val: Any) -> tuple[bool, str]:
        if val is None:
            return False, f"the element has no attribute {attr!r}"
        return (value is None or matches(value, val)), f"observed {attr}={cut(val)!r}"

    await _on_first(ctx, step, "(els, a) => els.map(e => e.getAttribute(a))", judge, attr)


async def expect_count(ctx: StepContext, step: CheckStep) -> None:
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
        observed = f"observed {n} matching element(s)"
        return ok, Miss(observed) if n == 0 else observed  # nothing found: a locator miss

    await poll(ctx, probe, ctx.assert_timeout_s)
