"""The scripted UI agent: runs each criterion's ``check`` steps in real Chromium (Playwright).

Lifecycle. ``await ScriptedUIAgent(...).open(base_url, evidence_dir, data_dir)`` starts one
browser for a whole evaluation and returns a ``ScriptedSession``. ``await session.evaluate(et)``
runs one evaluation task (several may run concurrently on one session); its criteria run one
after another, each an independent test case in a fresh browser context (no cookies, empty
storage), or, when the task sets ``shared_context: true`` (a deliberate flow, or a task still
proven under shared contexts; an evaluation task outside a Task shares only when it says
so), each on a new page of one context of the task
(cookies and localStorage carry over, navigation does not). A check whose first step is not
``goto`` starts with an implicit ``goto /``. ``session.close()`` ends browser and
Playwright. A browser that crashed is relaunched by the next ``evaluate``.

Steps (``asuka.schema.STEP_ARGS``; executed by ``asuka.uiagents.scripted.steps``):

- ``goto PATH``: relative to ``base_url`` (``/``, ``/about``, ``#/route``, ``?q=1``) or an
  absolute URL; waits for the ``load`` event within ``nav_timeout_s`` (never for network idle).
  An HTTP error status does not fail the step (an app may show its own 404 page); it is recorded
  in the evidence and mentioned in the reason of a later failing step. ``reload`` likewise.
- ``wait MS``: sleep.
- ``eval JS``: an expression, or a function body when the source contains the word ``return``
  outside string literals; ``await`` is allowed. Polled until truthy (JavaScript truthiness)
  within ``assert_timeout_s``; a thrown exception fails at once with its message.
- actions ``click dblclick hover check uncheck fill select press upload`` act on the first match
  (or ``nth``), auto-waiting up to ``action_timeout_s``. ``select`` picks the option whose label,
  then value, matches (exact after whitespace collapse, or ``/re/``); a list selects several.
  ``press`` without a locator goes to the keyboard. ``upload`` resolves files against
  ``data_dir``; a non-``<input type=file>`` target is clicked and the file chooser answered.
- assertions poll every 0.1 s until they hold or ``assert_timeout_s`` passes:
  ``expect_visible`` (first/nth match visible), ``expect_hidden`` (no match visible; passes when
  nothing matches), ``expect_text`` (first/nth match's innerText: ``/re/flags`` regex search,
  else substring, or with ``contains: false`` equality; whitespace collapsed),
  ``expect_value`` (input/textarea/select value; regex or equality), ``expect_count``
  (``count`` / ``min`` / ``max`` over all matches), ``expect_attr`` (attribute present, and
  equal to / matching ``value`` when given).
- charts (``asuka.uiagents.scripted.pointing``): ``point_at`` points at the part of the located chart
  that stands for ``at`` (its part named so, else where pointing makes the page say it);
  ``expect_points`` counts the different readings pointing along the chart shows (``count``).
- With ``fast_absence`` (the default) a polled step that does not hold, and an action whose
  locator finds nothing, fail as soon as the page has *settled* (loaded, no request in flight,
  no timer, interval or animation due before the step's deadline, DOM quiet for 0.15 s:
  ``asuka.uiagents.browsing.settle``) instead of at their timeout; ``fast_absence=False`` waits every
  timeout out. Same verdicts, a fraction of the time on a half-built app.
- JavaScript dialogs (alert/confirm/prompt) are accepted, as a user confirming would.
- Popups opened by the page are not followed: steps keep acting on the criterion's page.

Verdicts. One per criterion, ``backend="scripted"``: ``pass``; ``fail`` with a reason
``"step N <step.describe()>: <observed>"`` where N is 1-based and ``Verdict.step`` holds the
0-based index (``None`` for the implicit ``goto /``, whose reason reads ``"opening '/' ..."``);
``not_found`` with the same kind of reason when a step's locator matched nothing (a locator
miss: the app names or structures it differently, or lacks it), with ``Verdict.locator`` and the
page's accessibility snapshot in ``<criterion_id>.aria.yaml`` beside the screenshots;
``unverifiable`` ("no scripted check") for a criterion without steps. The criterion runner
(``asuka.uiagents.scripted.criterion``) decides them; with ``grounding="llm"`` (and ``grounding_model``,
a ModelSpec string; ``grounding_cache`` a JSON file) it grounds locator misses and judges
wording before a verdict stands (``Verdict.groundings``, ``Verdict.decided_by``), and
``usage()`` reports those calls (role ``ui-agent``); ``grounding=None`` changes nothing.
A criterion that exceeds ``criterion_timeout_s`` fails "timed out after Ns at step N ...";
when the evaluation task's wall-clock cap ``task_timeout_s`` is reached the running criterion
fails "task timed out ..." and the remaining ones fail "not run: task timed out after Ns".
With ``stop_at_first_failure`` (what ``validate --mutants`` uses: it needs only each task's
pass/fail, and a failing check of a missing feature spends its whole timeout) the criteria after
the first non-passing one fail "not run: an earlier criterion failed". Unexpected internal exceptions give an ``error`` verdict; a session
never raises for an app's failure.

Task status. ``passed`` when every verdict passes (a task with only unverifiable criteria is
``failed``), otherwise ``failed``; ``error`` (with ``error`` set, ``attempts=1``) when a check
raised inside the harness (an ``error`` verdict) and for infrastructure failures the caller
should retry:

- the browser crashed/disconnected or a context could not be created;
- the *first* navigation of the task reached nothing at all (connection refused/reset, empty
  response): the app server is not up, so nothing about the app was learned.

Everything else is the app's failure and yields verdicts: HTTP 500 pages, JavaScript errors,
pages that never fire ``load`` (a failed ``goto`` after ``nav_timeout_s``), and a server that
dies *after* the task's first successful navigation (later steps fail with the network error in
their reason). So a server that dies between tasks gives ``error`` for the following tasks, which
the engine retries and finally records; one that dies mid-task gives ``failed`` verdicts. Either
way the session returns promptly with a result.

Evidence. ``Evidence.screenshot`` is the file name, relative to ``evidence_dir``, of a full-page
PNG of the task's last page (``<eval_task_id>.png``; ``None`` without ``evidence_dir``, when the
shot failed, or when ``screenshots`` leaves the task out: ``failed``, the default, shoots the
tasks with a verdict other than pass, ``all`` every task, ``none`` none). ``console_errors``: console messages of type error and uncaught page errors
("uncaught Error: ..."). ``failed_requests``: "METHOD URL -> net::ERR_..." for failed requests
and "METHOD URL -> 404" for responses with status >= 400. Both deduplicated, at most 100 each.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PWError
from playwright.async_api import async_playwright

from asuka.llm import ModelSpec
from asuka.schema import EvalTask, EvalTaskResult, Evidence, Operability, Verdict
from asuka.uiagents import grounding as grounding_backends
from asuka.uiagents import registry
from asuka.uiagents.browsing.browser import SharedBrowsers, current_shared_browsers, launch
from asuka.uiagents.browsing.evidence import PageEvidence, quietly
from asuka.uiagents.browsing.input_modes import INPUTS
from asuka.uiagents.browsing.operability import probe as probe_operability
from asuka.uiagents.browsing.settle import INIT_SCRIPT, RequestCounter
from asuka.uiagents.scripted.criterion import BACKEND, CriterionRunner, InfraError, TaskClock
from asuka.uiagents.scripted.steps import StepContext, brief
from asuka.usage import Usage

__all__ = ["BACKEND", "InfraError", "ScriptedSession", "ScriptedUIAgent"]

log = logging.getLogger("asuka.uiagents.scripted.agent")

PAGE_OPEN_TIMEOUT_S = 30.0
# which evaluation tasks get a full-page screenshot: a shot costs about as much as running one
# criterion, and a passed task's page is rarely looked at
SCREENSHOTS = ("failed", "all", "none")


# the reason of the criteria ``stop_at_first_failure`` leaves out
NOT_RUN_AFTER_FAILURE = "not run: an earlier criterion failed"


@registry.register(BACKEND)
class ScriptedUIAgent:
    """UI agent that executes the criteria's scripted checks; see the module docstring."""

    name = BACKEND

    def __init__(self, assert_timeout_s: float = 1.5, action_timeout_s: float = 3,
                 nav_timeout_s: float = 15, criterion_timeout_s: float = 60,
                 task_timeout_s: float = 300, executable_path: str | None = None,
                 headless: bool = True, viewport: tuple[int, int] = (1280, 800),
                 stop_at_first_failure: bool = False, grounding: str | dict | None = None,
                 grounding_model: str | ModelSpec | dict | None = None,
                 grounding_cache: str | Path | None = None, fast_absence: bool = True,
                 screenshots: str = "failed", input: str = "any",
                 allowed_tools: list[str] | None = None, ladder: bool = True,
                 spec_retries: int | str = "none") -> None:
        # the deterministic rungs of the resolution ladder (asuka.uiagents.scripted.ladder): relaxed
        # locators and wording, adapted actions; False: every check exactly as written
        self.ladder = bool(ladder)
        # retries of a Playwright Test spec's failed test (asuka.uiagents.playwright_test.RETRIES)
        from asuka.uiagents.playwright_test import spec_retries as _valid_retries

        _valid_retries(spec_retries)
        self.spec_retries = spec_retries
        self.stop_at_first_failure = bool(stop_at_first_failure)
        # None/"none": the miss decides; "llm": ground misses and judge wording (criterion.py)
        self.grounding = grounding_backends.make(grounding, grounding_model, grounding_cache)
        self.assert_timeout_s = float(assert_timeout_s)
        self.action_timeout_s = float(action_timeout_s)
        self.nav_timeout_s = float(nav_timeout_s)
        self.criterion_timeout_s = float(criterion_timeout_s)
        self.task_timeout_s = float(task_timeout_s)
        self.executable_path = executable_path
        self.headless = headless
        self.viewport = viewport
        # decide a missing element or a false assertion once the page has settled instead of
        # at the end of its timeout (``asuka.uiagents.browsing.settle``); False: the patient path
        self.fast_absence = bool(fast_absence)
        if screenshots not in SCREENSHOTS:
            raise ValueError(f"screenshots must be one of {', '.join(SCREENSHOTS)}, "
                             f"got {screenshots!r}")
        self.screenshots = screenshots
        if input not in INPUTS:
            raise ValueError(f"input must be one of {', '.join(INPUTS)}, got {input!r}")
        self.input = input  # a touch-only or keyboard-only user (asuka.uiagents.browsing.input_modes)
        # an evaluator's tools: a step needing another is denied (input_modes.check_allowed)
        self.allowed_tools = frozenset(allowed_tools) if allowed_tools is not None else None

    def preflight(self) -> None:
        self.grounding.preflight()  # a grounding model's missing key, before round 1

    async def open(self, base_url: str, evidence_dir: Path | None = None,
                   data_dir: Path | None = None, *, artifact: str | None = None
                   ) -> ScriptedSession:
        """``artifact``: a content hash of the app served (``asuka.protocol.evaluate``); groundings are
        cached under it, else under ``base_url``."""
        shared = current_shared_browsers()
        if shared is not None:  # the run's browser (asuka.uiagents.browsing.browser)
            pw, browser = await shared.get(self.executable_path, self.headless)
        else:
            pw = await async_playwright().start()
            try:
                browser = await launch(pw, self.executable_path, headless=self.headless)
            except BaseException:
                await quietly(pw.stop())
                raise
        return ScriptedSession(self, pw, browser, base_url,
                               Path(evidence_dir) if evidence_dir is not None else None,
                               Path(data_dir) if data_dir is not None else None,
                               artifact=artifact, shared=shared)


class ScriptedSession:
    """One browser serving the evaluation tasks of one app; see the module docstring."""

    def __init__(self, agent: ScriptedUIAgent, pw: Any, browser: Any, base_url: str,
                 evidence_dir: Path | None, data_dir: Path | None,
                 artifact: str | None = None, shared: SharedBrowsers | None = None) -> None:
        self.agent = agent
        self.base_url = base_url
        self.evidence_dir = evidence_dir
        self.data_dir = data_dir
        # the folder of the app being judged, when the caller deployed it from one (a
        # Web-Bench spec reads the project's src/ beside its tests)
        self.source: Path | None = None
        self._pw = pw
        self._browser = browser
        self._shared = shared  # a run's browser: used, never closed, by this session
        self._lock = asyncio.Lock()
        self._closed = False
        self._usage: Usage | None = None  # grounding calls of this session
        scope = f"artifact:{artifact}" if artifact else f"url:{base_url}"
        self._runner = CriterionRunner(agent, base_url, evidence_dir, agent.grounding, scope,
                                       self._bill, use_ladder=agent.ladder)

    def _bill(self, usage: Usage) -> None:
        self._usage = usage if self._usage is None else self._usage + usage

    def usage(self) -> list[Usage]:
        return [self._usage] if self._usage is not None else []

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._shared is None:
            await quietly(self._browser.close())
            await quietly(self._pw.stop())

    async def _ensure_browser(self) -> Any:
        async with self._lock:
            if self._closed:
                raise InfraError("the session is closed")
            if not self._browser.is_connected() and self._shared is not None:
                _, self._browser = await self._shared.get(self.agent.executable_path,
                                                          self.agent.headless)
            elif not self._browser.is_connected():
                await quietly(self._browser.close(), 2)
                self._browser = await launch(self._pw, self.agent.executable_path,
                                             headless=self.agent.headless)
            return self._browser

    async def operability(self) -> Operability:
        """The app's root probed once (``asuka.uiagents.browsing.operability``)."""
        try:
            browser = await self._ensure_browser()
        except Exception as exc:  # noqa: BLE001 - unknown, never the app's failure
            return Operability(ok=None, reason=f"the probe could not run: {brief(exc)}")
        return await probe_operability(browser, self.base_url, self.agent.viewport)

    # ------------------------------------------------------------ one evaluation task

    async def evaluate(self, eval_task: EvalTask) -> EvalTaskResult:
        if eval_task.spec is not None and self.data_dir is not None:
            # a Playwright Test spec decides it (imported Web-Bench tasks); the spec path is
            # relative to the task's folder, whose data/ the session was given
            from asuka.uiagents.playwright_test import run_spec

            return await run_spec(eval_task, self.data_dir.parent / eval_task.spec,
                                  self.base_url, source=self.source,
                                  retries=self.agent.spec_retries)
        t0 = time.monotonic()
        ev = PageEvidence()
        verdicts: list[Verdict] = []
        error: str | None = None
        contexts: list[Any] = []  # the last one stays open for the screenshot
        last_page: list[Any] = [None]
        shot: str | None = None
        requests = RequestCounter() if self.agent.fast_absence else None

        async def new_context() -> Any:
            if contexts:  # its pages go with it: the next criterion starts from nothing
                last_page[0] = None
                await quietly(contexts.pop().close())
            browser = await self._ensure_browser()
            w, h = self.agent.viewport
            touch = self.agent.input == "touch"
            context = await asyncio.wait_for(browser.new_context(
                viewport={"width": w, "height": h}, ignore_https_errors=True,
                has_touch=touch, is_mobile=touch), PAGE_OPEN_TIMEOUT_S)
            contexts.append(context)
            context.set_default_timeout(self.agent.action_timeout_s * 1000)
            context.set_default_navigation_timeout(self.agent.nav_timeout_s * 1000)
            context.on("page", ev.attach)
            if requests is not None:
                await context.add_init_script(INIT_SCRIPT)
                context.on("page", requests.attach)
            return context

        try:
            try:
                await self._run_criteria(new_context, eval_task, ev, verdicts, last_page, t0,
                                         requests)
            except InfraError as exc:
                error = str(exc)
            except Exception as exc:  # noqa: BLE001 - browser crash, launch failure, ...
                log.debug("browser failure in %s", eval_task.id, exc_info=True)
                error = f"browser failure: {brief(exc)}"
            wanted = self.agent.screenshots == "all" or (
                self.agent.screenshots == "failed"
                and (error is not None or any(v.status != "pass" for v in verdicts)))
            if last_page[0] is not None and wanted:
                shot = await self._screenshot(last_page[0], eval_task.id)
        finally:  # also when the caller cancels us
            for context in contexts:
                await quietly(context.close())
        if error is not None:
            done = {v.criterion_id for v in verdicts}
            verdicts += [
                Verdict(criterion_id=c.id, status="error", reason=error, backend=BACKEND)
                if c.check else Verdict(criterion_id=c.id, status="unverifiable",
                                        reason="no scripted check", backend=BACKEND)
                for c in eval_task.criteria if c.id not in done]
            status = "error"
        elif any(v.status == "error" for v in verdicts):
            # a check that raised inside the harness decided nothing: retried by the engine,
            # never charged to the app, never sent as feedback
            status = "error"
            error = next(v.reason for v in verdicts if v.status == "error")
        elif verdicts and all(v.status == "pass" for v in verdicts):
            status = "passed"
        else:
            status = "failed"
        return EvalTaskResult(
            eval_task_id=eval_task.id, status=status, verdicts=verdicts, attempts=1,
            duration_s=round(time.monotonic() - t0, 3), error=error,
            evidence=Evidence(screenshot=shot, console_errors=ev.console,
                              failed_requests=ev.requests),
        )

    async def _run_criteria(self, new_context: Any, eval_task: EvalTask, ev: PageEvidence,
                            verdicts: list[Verdict], last_page: list[Any], t0: float,
                            requests: RequestCounter | None) -> None:
        """Each criterion in a fresh context (an independent test case) unless the task shares
        one (a deliberate flow, ``shared_context``); either way on a new page."""
        a = self.agent
        clock = TaskClock(t0 + a.task_timeout_s)
        ctx: StepContext | None = None
        shared = eval_task.shared_context is True
        context = await new_context() if shared else None

        async def fresh_page() -> Any:
            if last_page[0] is not None:
                # awaited: closing flushes the page's pending storage writes for the next page
                ev.closing.add(id(last_page[0]))
                await quietly(last_page[0].close(), 5)
                last_page[0] = None
            try:
                page = await asyncio.wait_for(context.new_page(), PAGE_OPEN_TIMEOUT_S)
            except (PWError, asyncio.TimeoutError) as exc:
                raise InfraError(f"browser failure: could not open a page: {brief(exc)}") from None
            last_page[0] = page
            return page

        for crit in eval_task.criteria:
            if not crit.check:
                verdicts.append(Verdict(criterion_id=crit.id, status="unverifiable",
                                        reason="no scripted check", backend=BACKEND))
                continue
            not_run = Verdict(criterion_id=crit.id, status="fail", backend=BACKEND,
                              reason=f"not run: task timed out after {a.task_timeout_s:g}s")
            if clock.deadline <= time.monotonic():
                verdicts.append(not_run)
                continue
            if a.stop_at_first_failure and any(v.status in ("fail", "not_found", "error")
                                               for v in verdicts):
                verdicts.append(not_run.model_copy(
                    update={"reason": NOT_RUN_AFTER_FAILURE}))
                continue
            if not shared:
                context = await new_context()
            page = await fresh_page()
            if clock.deadline - time.monotonic() <= 0:
                verdicts.append(not_run)
                continue
            if ctx is None:
                ctx = StepContext(page=page, base_url=self.base_url, data_dir=self.data_dir,
                                  assert_timeout_s=a.assert_timeout_s,
                                  action_timeout_s=a.action_timeout_s,
                                  nav_timeout_s=a.nav_timeout_s, requests=requests,
                                  fast_absence=requests is not None,
                                  input=a.input, allowed_tools=a.allowed_tools)
            ctx.page, ctx.last_status = page, None
            verdicts.append(await self._runner.run(ctx, crit, fresh_page, clock))

    async def _screenshot(self, page: Any, eval_task_id: str) -> str | None:
        if self.evidence_dir is None or page.is_closed():
            return None
        name = f"{eval_task_id}.png"
        try:
            self.evidence_dir.mkdir(parents=True, exist_ok=True)
            await asyncio.wait_for(
                page.screenshot(path=str(self.evidence_dir / name), full_page=True,
                                timeout=10_000), 12)
        except Exception:  # noqa: BLE001 - evidence is best effort
            return None
        return name
