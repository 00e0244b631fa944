"""Charts, read the way a user reads them: by pointing along them and reading what shows.

A PRD says "one column per calendar year; pointing at a column shows a tooltip with the year and
its figures". How an app draws that (SVG rects with a ``data-year``, a ``<canvas>``, bars with a
``<title>``, labels on every third year) is its own business. Two steps say it in the PRD's
terms:

- ``point_at: {<the chart>, at: '2027'}`` points at the part of the chart that stands for 2027:
  the chart's element named exactly so (an ``aria-label`` or ``<title>``) when it has one, else
  the place where pointing makes the page show a new line saying 2027 (the pointer is moved
  along the plot, left to right, and stays where the reading appeared);
- ``expect_points: {<the chart>, count: 30}``: pointing along the chart shows that many
  different readings (the first new line of each: "2027 · 12 payments"), one per column; a
  chart that shows nothing on pointing is counted by the names its parts carry (an
  ``aria-label`` or ``<title>`` per column), so the count does not hang on the tooltip.

The chart is the located element's largest ``<svg>`` or ``<canvas>`` (or the element itself).
A reading is what the page says only while the pointer is there: the lines of the page's text
that were not there with the pointer away from it.

A sweep is a few hundred pointer moves, so its time follows the machine's load more than the
app's: it has no wall-clock cap of its own (``steps.step_budget``), only a stall watchdog: a
position the page does not answer within ``STALL_FACTOR`` action timeouts is a stuck page.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter

from playwright.async_api import Error as PWError

from asuka.schema import CheckStep
from asuka.uiagents.browsing.locate import (
    LocatorMiss,
    Miss,
    StepContext,
    StepFailed,
    as_text,
    build_locator,
)

# pointer positions across the plot, and the heights tried (bars grow from the bottom)
STEPS = 120
HEIGHTS = (0.7, 0.45)
STALL_FACTOR = 2
_TEXT_JS = "() => document.body.innerText"
# the chart inside the located element: its largest svg or canvas, marked for the pointer
_CHART_JS = """(el, mark) => {
  const parts = [el, ...el.querySelectorAll('svg, canvas')].filter(e =>
    e.tagName.toLowerCase() === 'svg' || e.tagName.toLowerCase() === 'canvas');
  const area = e => { const r = e.getBoundingClientRect(); return r.width * r.height; };
  const chart = parts.sort((a, b) => area(b) - area(a))[0] || el;
  chart.setAttribute('data-asuka-chart', mark);
  const named = Array.from(chart.querySelectorAll('*')).map(e => {
    const title = Array.from(e.children).find(c => c.tagName.toLowerCase() === 'title');
    return [(e.getAttribute('aria-label') || (title ? title.textContent : '') || '').trim(), e];
  }).filter(([n, e]) => n && e.tagName.toLowerCase() !== 'text');
  named.forEach(([, e], i) => e.setAttribute('data-asuka-part', String(i)));
  return named.map(([n]) => n);
}"""
_mark = iter(range(1, 1 << 30))


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


class _Chart:
    def __init__(self, ctx: StepContext, step: CheckStep) -> None:
        self.ctx, self.step = ctx, step
        self.page = ctx.page

    async def open(self) -> list[str]:
        """Find the chart; the names its parts carry."""
        assert self.step.locator is not None
        loc = build_locator(self.page, self.step.locator)
        try:
            await loc.first.wait_for(state="visible", timeout=self.ctx.action_timeout_s * 1000)
        except PWError:
            raise LocatorMiss(Miss(f"no element matches {self.step.locator.describe()}")) \
                from None
        try:
            self.mark = str(next(_mark))
            names = await loc.first.evaluate(_CHART_JS, self.mark,
                                             timeout=self.ctx.action_timeout_s * 1000)
            self.chart = self.page.locator(f"[data-asuka-chart='{self.mark}']")
            await self.chart.scroll_into_view_if_needed(timeout=self.ctx.action_timeout_s * 1000)
            self.box = await self.chart.bounding_box()
        except PWError as exc:
            raise StepFailed(f"could not point at the chart: {exc.message.splitlines()[0]}") \
                from None
        if not self.box or self.box["width"] < 10 or self.box["height"] < 10:
            raise StepFailed("the chart is not shown")
        return list(names)

    async def away(self) -> Counter[str]:
        """The page's lines with the pointer off the chart."""
        return Counter(await self.read(max(self.box["x"] - 40, 0), max(self.box["y"] - 40, 0),
                                       pause_ms=50))

    async def read(self, x: float | None = None, y: float | None = None,
                   pause_ms: float = 0) -> list[str]:
        """The page's lines with the pointer moved to (x, y) (or where it is); a page that does
        not answer in time is stuck (a busy machine slows each move, never by seconds)."""
        async def moved() -> list[str]:
            if x is not None and y is not None:
                await self.page.mouse.move(x, y)
            if pause_ms:
                await self.page.wait_for_timeout(pause_ms)
            return _lines(await self.page.evaluate(_TEXT_JS))

        try:
            return await asyncio.wait_for(moved(), STALL_FACTOR * self.ctx.action_timeout_s)
        except asyncio.TimeoutError:
            raise StepFailed("the page stopped responding while the pointer moved along the "
                             "chart (stuck script?)") from None

    async def sweep(self, until: re.Pattern[str] | None = None,
                    heights: tuple[float, ...] = HEIGHTS) -> list[list[str]]:
        """The readings along the plot (each the new lines, in page order); with ``until``,
        stop at the first reading with a line it matches, the pointer left there."""
        base = await self.away()
        readings: list[list[str]] = []
        x0, w = self.box["x"], self.box["width"]
        for height in heights:
            y = self.box["y"] + self.box["height"] * height
            for i in range(1, STEPS):
                now = await self.read(x0 + w * i / STEPS, y)
                left = base.copy()
                new = []
                for line in now:
                    if left[line] > 0:
                        left[line] -= 1
                    else:
                        new.append(line)
                if new:
                    readings.append(new)
                    if until is not None and any(until.search(line) for line in new):
                        return readings
        return readings


def _word(value: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w.])" + re.escape(value) + r"(?![\w])", re.I)


async def point_at(ctx: StepContext, step: CheckStep) -> None:
    at = as_text(step.params.get("at")).strip()
    chart = _Chart(ctx, step)
    names = await chart.open()
    named = [i for i, n in enumerate(names) if n.casefold() == at.casefold()]
    if len(named) == 1:
        try:  # the one part named so is the 2027 column
            await chart.chart.locator(f"[data-asuka-part='{named[0]}']").first.hover(
                timeout=ctx.action_timeout_s * 1000, force=True)
            return
        except PWError:
            pass
    if not (await chart.sweep(until=_word(at))) or not await _showing(chart, at):
        raise StepFailed(f"pointing along the chart never showed {at!r}")


async def _showing(chart: _Chart, at: str) -> bool:
    lines = await chart.read()
    return any(_word(at).search(line) for line in lines)


async def expect_points(ctx: StepContext, step: CheckStep) -> None:
    want = int(step.params["count"])
    chart = _Chart(ctx, step)
    names = await chart.open()
    distinct: list[str] = []
    for height in HEIGHTS:  # a second height only when the first did not show them all
        readings = await chart.sweep(heights=(height,))
        distinct = list(dict.fromkeys(distinct + [r[0] for r in readings]))
        if len(distinct) == want:
            break
    if not distinct:
        # a chart that shows nothing on pointing: its parts as it names them, one per column
        distinct = list(dict.fromkeys(names))
    if len(distinct) != want:
        shown = ", ".join(repr(d[:30]) for d in distinct[:4])
        raise StepFailed(f"observed {len(distinct)} reading(s) pointing along the chart"
                         + (f" ({shown}{', …' if len(distinct) > 4 else ''})" if shown else ""))
