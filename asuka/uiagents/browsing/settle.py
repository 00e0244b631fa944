"""Deciding absence fast: is the page *settled*, so that what a check sees now is what it would
see at the end of its timeout?

A failing check used to wait out its whole timeout (1.5 s for an assertion, 3 s for an action
whose locator finds nothing), which made a round of a half-built app three times slower than a
round of a finished one. Waiting is only useful while something can still change the page. The
page is settled, for a poll that has ``horizon`` seconds left, when all of these hold:

- the document has loaded (``readyState`` is ``complete``);
- no request is in flight: the page's own ``fetch``/``XMLHttpRequest`` calls (counted in the
  page, so a request started by the click just made is seen at once) and every other request
  the browser makes for it (scripts, ``import()`` chunks, images; counted from Playwright's
  events);
- no ``setTimeout`` is due and no ``setInterval`` ticks within the horizon (a debounced search, a
  toast that hides itself, a countdown clock keep the check patient);
- no finite CSS animation or transition ends within the horizon;
- nothing changed in the DOM, and no user input event fired, for ``quiet_s`` (a one-shot
  ``requestAnimationFrame`` or a framework's scheduled render lands well inside it).

A poll whose probe fails on a settled page probes once more and then fails without waiting for
its deadline; anything still pending keeps the old, patient behaviour. An action whose target is
missing fails the same way; one whose target exists but is not yet actionable (disabled, covered)
still waits its full timeout. The counters live in an init script added to every browser context
of the scripted agent; it wraps the timer and request functions without changing what they do.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PWError

QUIET_S = 0.15

# Runs before the page's own scripts, in every frame of a context the scripted agent opens.
INIT_SCRIPT = r"""
(() => {
  if (window.__asukaSettled) return;
  const now = () => performance.now();
  const st = {requests: 0, last: now(), timers: new Map(), intervals: new Map()};
  const bump = () => { st.last = now(); };
  const done = () => { st.requests = Math.max(0, st.requests - 1); bump(); };

  const origFetch = window.fetch;
  if (typeof origFetch === 'function') {
    window.fetch = function (...args) {
      st.requests++; bump();
      let p;
      try { p = origFetch.apply(this, args); } catch (e) { done(); throw e; }
      Promise.resolve(p).then(done, done);
      return p;
    };
  }
  const XHR = window.XMLHttpRequest && window.XMLHttpRequest.prototype;
  if (XHR && XHR.send) {
    const origSend = XHR.send;
    XHR.send = function (...args) {
      st.requests++; bump();
      this.addEventListener('loadend', done, {once: true});
      try { return origSend.apply(this, args); } catch (e) { done(); throw e; }
    };
  }

  const origSetTimeout = window.setTimeout, origClearTimeout = window.clearTimeout;
  const origSetInterval = window.setInterval, origClearInterval = window.clearInterval;
  const forget = (id) => { st.timers.delete(id); st.intervals.delete(id); };
  window.setTimeout = function (handler, delay, ...rest) {
    if (typeof handler !== 'function') return origSetTimeout.call(window, handler, delay, ...rest);
    let id;
    id = origSetTimeout.call(window, function (...a) {
      st.timers.delete(id); bump(); return handler.apply(this, a);
    }, delay, ...rest);
    st.timers.set(id, now() + Math.max(0, Number(delay) || 0));
    return id;
  };
  window.setInterval = function (handler, delay, ...rest) {
    if (typeof handler !== 'function') return origSetInterval.call(window, handler, delay, ...rest);
    const period = Math.max(0, Number(delay) || 0);
    let id;
    id = origSetInterval.call(window, function (...a) {
      const it = st.intervals.get(id); if (it) it.next = now() + period;
      bump(); return handler.apply(this, a);
    }, delay, ...rest);
    st.intervals.set(id, {next: now() + period});
    return id;
  };
  window.clearTimeout = function (id) { forget(id); return origClearTimeout.call(window, id); };
  window.clearInterval = function (id) { forget(id); return origClearInterval.call(window, id); };

  const observe = () => new MutationObserver(bump).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true});
  observe();
  for (const type of ['pointerdown', 'mousedown', 'click', 'keydown', 'input', 'change',
                      'submit', 'focusin'])
    window.addEventListener(type, bump, true);

  Object.defineProperty(window, '__asukaRequests', {enumerable: false, value: () => st.requests});
  Object.defineProperty(window, '__asukaSettled', {enumerable: false, value: (quietMs, horizonMs) => {
    const t = now();
    if (document.readyState !== 'complete' || st.requests > 0) return false;
    if (t - st.last < quietMs) return false;
    for (const due of st.timers.values()) if (due - t < horizonMs) return false;
    for (const it of st.intervals.values()) if (it.next - t < horizonMs) return false;
    for (const a of (document.getAnimations ? document.getAnimations() : [])) {
      if (a.playState !== 'running' || !a.effect) continue;
      const timing = a.effect.getComputedTiming();
      if (!isFinite(timing.endTime)) continue;   // a spinner that never ends changes nothing
      const left = (timing.endTime - (timing.localTime || 0)) / Math.abs(a.playbackRate || 1);
      if (left < horizonMs) return false;
    }
    return true;
  }});
})();
"""


class RequestCounter:
    """Requests of each page in flight, from Playwright's events (what the page's own counters
    cannot see: scripts, module chunks, images, styles)."""

    def __init__(self) -> None:
        self._inflight: dict[int, set[int]] = {}

    def attach(self, page: Any) -> None:
        pending: set[int] = set()
        self._inflight[id(page)] = pending
        page.on("request", lambda req: pending.add(id(req)))
        page.on("requestfinished", lambda req: pending.discard(id(req)))
        page.on("requestfailed", lambda req: pending.discard(id(req)))
        page.on("close", lambda _p: self._inflight.pop(id(page), None))

    def inflight(self, page: Any) -> int:
        return len(self._inflight.get(id(page), ()))


async def requests_answered(page: Any, requests: RequestCounter) -> bool:
    """No request of the page in flight: neither one the browser makes for it (Playwright's
    events: until the body has arrived) nor the page's own ``fetch``/``XMLHttpRequest``."""
    if requests.inflight(page):
        return False
    try:
        return not await page.evaluate(
            "() => window.__asukaRequests ? window.__asukaRequests() : 0")
    except PWError:
        return False


async def is_settled(page: Any, requests: RequestCounter | None, horizon_s: float,
                     quiet_s: float = QUIET_S) -> bool:
    """True when nothing pending can change ``page`` within ``horizon_s`` (module docstring).
    Any doubt (a page navigating, the script missing) answers False: the poll stays patient."""
    if requests is not None and requests.inflight(page):
        return False
    try:
        return bool(await page.evaluate(
            "([q, h]) => window.__asukaSettled ? window.__asukaSettled(q, h) : false",
            [quiet_s * 1000, horizon_s * 1000]))
    except PWError:
        return False
