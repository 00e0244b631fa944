"""The operability bit (JoyFrontBench's B): does the deployed app run at all?

A deploy that serves files is not yet an app that runs: a raw TSX entry served as static files,
a bundle that throws on load, or a page whose root stays empty all serve, and all make every
check fail for one reason that is not about any feature. Before the evaluation tasks, the
scripted session opens the app's root once in a fresh context and records what it saw:

- the HTTP status of the main document (an error status is not operable);
- uncaught errors thrown while the page loaded and settled (``pageerror``: any is a failure of
  the runtime contract, as JoyFrontBench counts it);
- whether the body renders anything: visible text, or a visible image, canvas, svg, video,
  input, button or iframe (an empty page is not operable).

``Operability.ok`` is the conjunction; ``reason`` says which part failed, with the evidence
(errors, status, what rendered) kept beside it. A probe that could not run at all (the browser
failed) records ``ok=None``: unknown, never charged to the app.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from playwright.async_api import Error as PWError

from asuka.schema import Operability
from asuka.uiagents.browsing.settle import INIT_SCRIPT, RequestCounter, is_settled

SETTLE_CAP_S = 3.0     # how long the probe waits for the page to settle after load
LOAD_TIMEOUT_S = 15.0

_RENDERED_JS = """() => {
  const b = document.body;
  if (!b) return {text: 0, visible: 0};
  const text = (b.innerText || '').trim().length;
  const sel = 'img,canvas,svg,video,input,button,select,textarea,iframe,[role]';
  let visible = 0;
  for (const el of b.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) { visible++; if (visible > 50) break; }
  }
  return {text, visible};
}"""


async def probe(browser: Any, base_url: str, viewport: tuple[int, int] = (1280, 800)
                ) -> Operability:
    """Open ``base_url`` once in a fresh context of ``browser`` and judge operability."""
    errors: list[str] = []
    t0 = time.monotonic()
    context = None
    try:
        context = await browser.new_context(viewport={"width": viewport[0],
                                                      "height": viewport[1]})
        await context.add_init_script(INIT_SCRIPT)
        requests = RequestCounter()
        page = await context.new_page()
        requests.attach(page)
        page.on("pageerror", lambda err: errors.append(
            f"uncaught {getattr(err, 'name', '') or 'Error'}: {getattr(err, 'message', err)}"))
        try:
            resp = await page.goto(base_url, wait_until="load", timeout=LOAD_TIMEOUT_S * 1000)
        except PWError as exc:
            return Operability(ok=False, reason=f"the page did not load: {exc.message}",
                               duration_s=round(time.monotonic() - t0, 3))
        status = resp.status if resp is not None else None
        deadline = time.monotonic() + SETTLE_CAP_S
        # timers due before the cap (a render scheduled after load) are waited for
        while (left := deadline - time.monotonic()) > 0 \
                and not await is_settled(page, requests, left):
            await asyncio.sleep(0.05)
        rendered = await page.evaluate(_RENDERED_JS)
    except (PWError, asyncio.TimeoutError) as exc:
        return Operability(ok=None, reason=f"the probe could not run: {exc}",
                           duration_s=round(time.monotonic() - t0, 3))
    finally:
        if context is not None:
            try:
                await asyncio.wait_for(context.close(), 10)
            except Exception:  # noqa: BLE001 - best-effort cleanup
                pass
    text, visible = int(rendered.get("text", 0)), int(rendered.get("visible", 0))
    problems = []
    if status is not None and status >= 400:
        problems.append(f"the app's root answered HTTP {status}")
    if errors:
        problems.append(f"{len(errors)} uncaught error(s) on load: {errors[0]}")
    if text == 0 and visible == 0:
        problems.append("the page renders nothing (no text, no visible element)")
    return Operability(ok=not problems, reason="; ".join(problems), status=status,
                       errors=errors[:20], text_chars=text, visible_elements=visible,
                       duration_s=round(time.monotonic() - t0, 3))
