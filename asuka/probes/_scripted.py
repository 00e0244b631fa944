"""The offline probe backend: a fixed probe set derived from each failing check, measured in
real Chromium on the live app (WatchPoint's browser observations, without a model).

For each probed failure a fresh browser context opens the app, replays the check's steps
before the failing one (as the scripted UI agent ran them), and measures, for the failing
step's locator: how many elements match it and how many match a relaxed form of it (the role
without its name, the text without exactness, the locator without its scope: named by the
relaxation, never by the check's locator, which is the benchmark's),
and for the first match its tag, visibility, bounding box, text, value and a few computed
styles; then the page's state after the last action (path, title, focused element) and the
console errors and failed requests since load. Facts only: nothing is interpreted."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from asuka.probes._base import ProbeContext, ProbeFindings, ProbeTarget, registry
from asuka.schema import Locator, ProbeObservation
from asuka.uiagents.browsing.browser import launch
from asuka.uiagents.browsing.locate import StepContext, StepFailed, build_locator
from asuka.uiagents.scripted.steps import goto, run_step

BACKEND = "scripted"
STYLES = ("display", "visibility", "opacity", "pointerEvents")  # what hides or disables it
MEASURE_JS = """(el) => {
  const s = getComputedStyle(el), r = el.getBoundingClientRect();
  const style = {};
  for (const k of %s) style[k] = s[k];
  return {tag: el.tagName.toLowerCase(),
          box: `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`,
          text: (el.innerText || el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 200),
          value: 'value' in el && typeof el.value === 'string' ? el.value : null,
          disabled: el.disabled === true, style};
}""" % list(STYLES)
STATE_JS = """() => {
  const a = document.activeElement;
  const focused = !a || a === document.body ? 'body' :
    a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') +
    (a.getAttribute('aria-label') ? `[aria-label="${a.getAttribute('aria-label')}"]` : '');
  return {title: document.title, focused};
}"""


def relaxed(loc: Locator) -> tuple[Locator, str] | None:
    """A looser form of ``loc`` and what was loosened (None when there is none): what a near
    miss would match. The observations name the relaxation, never the check's locator: the
    agent learns what the app has, not how the benchmark looks for it."""
    if loc.within is not None or loc.nth is not None:
        return loc.model_copy(update={"within": None, "nth": None}), "anywhere on the page"
    if loc.role is not None and loc.name is not None:
        return Locator(role=loc.role), f"any {loc.role}"
    if loc.exact:
        return loc.model_copy(update={"exact": False}), "inexact"
    return None


class ScriptedProber:
    name = BACKEND

    def __init__(self, viewport: tuple[int, int] = (1280, 800), assert_timeout_s: float = 1.5,
                 action_timeout_s: float = 3.0, executable_path: str | None = None) -> None:
        self.viewport = tuple(viewport)
        self.assert_timeout_s, self.action_timeout_s = assert_timeout_s, action_timeout_s
        self.executable_path = executable_path

    def preflight(self) -> None:
        pass

    async def probe(self, ctx: ProbeContext) -> ProbeFindings:
        from playwright.async_api import async_playwright

        found = ProbeFindings()
        if ctx.url is None:
            found.errors.append("the app is not served: nothing to probe in a browser")
            return found
        async with async_playwright() as pw:
            browser = await launch(pw, self.executable_path)
            try:
                for target in ctx.targets:
                    try:
                        found.observations += await self._probe_one(browser, ctx, target)
                    except Exception as exc:  # noqa: BLE001 - the probe's failure, recorded
                        found.errors.append(f"{target.criterion.id}: {type(exc).__name__}: "
                                            f"{str(exc).splitlines()[0] if str(exc) else ''}")
            finally:
                await browser.close()
        return found

    async def _probe_one(self, browser: Any, ctx: ProbeContext, target: ProbeTarget
                         ) -> list[ProbeObservation]:
        cid = target.criterion.id
        w, h = self.viewport
        context = await browser.new_context(viewport={"width": w, "height": h},
                                            ignore_https_errors=True)
        out: list[ProbeObservation] = []

        def see(name: str, value: Any) -> None:
            out.append(ProbeObservation(criterion_id=cid, name=name, value=str(value)))

        console: list[str] = []
        failed: list[str] = []
        try:
            page = await context.new_page()
            page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: console.append(f"uncaught {e}"))
            page.on("requestfailed", lambda r: failed.append(
                f"{r.method} {urlsplit(r.url).path} failed ({r.failure or 'no response'})"))
            page.on("response", lambda r: failed.append(
                f"{r.request.method} {urlsplit(r.url).path} -> {r.status}")
                if r.status >= 400 else None)
            step_ctx = StepContext(page=page, base_url=ctx.url, data_dir=ctx.data_dir,
                                   assert_timeout_s=self.assert_timeout_s,
                                   action_timeout_s=self.action_timeout_s)
            steps = target.criterion.check or []
            failing = target.verdict.step if target.verdict.step is not None \
                else max(len(steps) - 1, 0)
            if not steps or steps[0].op != "goto":
                await goto(step_ctx, "/")
            for k, step in enumerate(steps[:failing]):
                try:
                    await run_step(step_ctx, step)
                except StepFailed as exc:
                    see("replay", f"stopped at step {k + 1} {step.describe()}: {exc}")
                    break
            if failing < len(steps) and steps[failing].locator is not None:
                await self._measure(page, steps[failing].locator, see)
            state = await page.evaluate(STATE_JS)
            see("page.path", urlsplit(page.url).path or "/")
            see("page.title", state["title"] or "(none)")
            see("page.focused", state["focused"])
            see("console_errors", "; ".join(console[:5]) if console else "none")
            see("failed_requests", "; ".join(failed[:5]) if failed else "none")
        finally:
            await context.close()
        return out

    async def _measure(self, page: Any, loc: Locator, see: Any) -> None:
        exact = build_locator(page, loc)
        n = await exact.count()
        see("matches", n)
        loose = relaxed(loc)
        first = exact.first if n else None
        if loose is not None:
            matches = build_locator(page, loose[0])
            m = await matches.count()
            see(f"matches({loose[1]})", m)
            if first is None and m:
                first = matches.first
        if first is None:
            return
        see("first.visible", await first.is_visible())
        facts = await first.evaluate(MEASURE_JS)
        see("first.tag", facts["tag"])
        see("first.box", facts["box"])
        see("first.text", facts["text"] or "(empty)")
        if facts["value"] is not None:
            see("first.value", facts["value"] or "(empty)")
        if facts["disabled"]:
            see("first.disabled", True)
        for k, v in facts["style"].items():
            see(f"first.style.{k}", v)


@registry.register(BACKEND)
def _factory(**options: Any) -> ScriptedProber:
    return ScriptedProber(**options)
