"""One criterion of the scripted agent: run its check, ground its locator misses, judge wording.

``CriterionRunner.run`` is what ``ScriptedSession`` calls per criterion (see
``asuka.uiagents.scripted.agent`` for the verdicts of a check as written). With a grounding backend
(``asuka.uiagents.grounding``; ``none`` makes every branch below inert and the verdict is
exactly the scripted one):

- **Locator miss.** A step whose locator matched nothing (``LocatorMiss``, on a page not served
  with an HTTP error) is grounded: the backend gets the criterion, the steps, the step and the
  page's accessibility snapshot, and answers with a replacement locator or "absent". A
  replacement that matches something on the page re-runs the whole criterion on a fresh page of
  the same context, with that step's locator replaced and the cookies and localStorage of the
  app's origin put back as they were when the criterion started. Another miss may be grounded in
  turn (a step once, at most ``MAX_GROUNDINGS`` per criterion). "absent", an unusable reply, or a
  replacement that matches nothing leaves the verdict ``not_found``.
- **Re-planning.** A check still not carried through (a miss, or an action that failed) goes
  to the backend as a whole: it rewrites the check's actions for the page it sees, keeping every
  expected value (``replan_problems``), and the rewrite runs on a fresh page. A rewrite that
  cannot be carried through either is sent once more with its steps, where it stopped and the
  page there (at most ``MAX_REPLANS`` per criterion; each request cached on its own).
- **Wording.** An ``expect_text`` that found its element but not the expected words, when the
  expected value has no digit (numbers and dates stay deterministic), goes to the backend's
  wording judge with the observed text: a pass lets the check go on, a fail decides.

The verdict records every grounding and judgement in ``Verdict.groundings`` and says which stage
decided it in ``Verdict.decided_by`` (``scripted``; ``grounded`` when a grounded locator ran or
the grounding said "absent"; ``llm`` when the wording judge decided). Its reason names the
check's own step and locator, never a grounded one (the template user strips that prefix and
keeps what was observed). Time spent waiting on the grounding model does not count against the
criterion's or the task's timeout. The grounding model failing for good gives an ``error``
verdict (retried by the engine; nothing was decided).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Error as PWError

from asuka.schema import CheckStep, Criterion, Locator, Verdict
from asuka.uiagents.browsing.input_modes import StepDenied
from asuka.uiagents.browsing.locate import (
    TEXT_JS,
    as_text,
    build_locator,
    collapse,
    cut,
    first_match,
)
from asuka.uiagents.grounding import (
    OBSERVED_CHARS,
    GroundingBackend,
    GroundingFailed,
    Miss,
    Replan,
    Wording,
    numeric,
)
from asuka.uiagents.scripted import ladder
from asuka.uiagents.scripted.relax import numbers_shown
from asuka.uiagents.scripted.seen import user_words
from asuka.uiagents.scripted.steps import (
    LocatorMiss,
    StepContext,
    StepFailed,
    brief,
    goto,
    run_step,
)
from asuka.usage import Usage

BACKEND = "scripted"
MAX_GROUNDINGS = 3
MAX_REPLANS = 2  # a rewrite, and one more with what the first met
MAX_JUDGEMENTS = 3
MAX_SNAPSHOT_CHARS = 60_000
RESTORE_PATH = "/__asuka_restore__"
ACTION_OPS = frozenset({"click", "dblclick", "hover", "check", "uncheck", "fill", "select",
                        "press", "set", "choose", "turn_on", "turn_off"})
_RESTORE_JS = ("items => { localStorage.clear();"
               " for (const {name, value} of items) localStorage.setItem(name, value); }")


class InfraError(Exception):
    """The app could not be evaluated at all (retry later)."""


class _Judged(StepFailed):
    """The wording judge found the observed text does not satisfy the criterion."""

    def __init__(self, detail: str, why: str) -> None:
        super().__init__(detail)
        self.why = why


@dataclass
class TaskClock:
    """The evaluation task's wall-clock cap (monotonic); grounding calls push it back."""

    deadline: float


@dataclass
class _Attempt:
    status: str
    reason: str = ""
    step: int | None = None
    miss: bool = False
    snapshot_text: str | None = None
    snapshot_file: str | None = None
    judged: bool = False                               # the wording judge failed the step
    seen: str = ""                                     # what a user saw (asuka.uiagents.scripted.seen)
    passes: list[int] = field(default_factory=list)    # steps the wording judge passed


class CriterionRunner:
    def __init__(self, agent: Any, base_url: str, evidence_dir: Path | None,
                 grounding: GroundingBackend, scope: str, bill: Callable[[Usage], None],
                 use_ladder: bool = True) -> None:
        self.agent = agent
        self.ladder = use_ladder
        self.base_url = base_url
        self.evidence_dir = evidence_dir
        self.grounding = grounding
        self.scope = scope
        self.bill = bill

    async def run(self, ctx: StepContext, crit: Criterion,
                  new_page: Callable[[], Awaitable[Any]], clock: TaskClock) -> Verdict:
        """The verdict of ``crit`` (which has a check), starting on ``ctx.page``."""
        a = self.agent
        t0 = time.monotonic()
        original: list[CheckStep] = list(crit.check or [])
        steps = list(original)
        records: list[dict[str, Any]] = []
        grounded: set[int] = set()
        active = self.grounding.active
        state = await self._capture(ctx) if active else None
        while True:
            remaining = clock.deadline - time.monotonic()
            att = await self._attempt(ctx, crit, original, steps,
                                      min(remaining, a.criterion_timeout_s),
                                      remaining < a.criterion_timeout_s, records, clock)
            if (not att.miss or not active or att.step is None or att.step in grounded
                    or not att.snapshot_text
                    or sum(r["kind"] == "locator" for r in records) >= MAX_GROUNDINGS):
                break
            try:
                loc = await self._ground(ctx, crit, steps, att, records, clock)
            except GroundingFailed as exc:
                att = _Attempt("error", f"{att.reason}; grounding failed: {exc}", att.step)
                break
            if loc is None:
                break
            if clock.deadline - time.monotonic() <= 0:
                records[-1]["outcome"] = "not re-run: the task's time was up"
                break
            steps[att.step] = steps[att.step].model_copy(update={"locator": loc})
            grounded.add(att.step)
            ctx.page, ctx.last_status = await new_page(), None
            await self._restore(ctx, state)
        replanned = False
        ran = original  # the steps `att` indexes: the re-planned check's once it has run
        said_absent = any(r["kind"] == "locator" and r.get("grounded") == "absent"
                          for r in records)
        first_stop = att  # where the check as written stopped: what every request names
        # a rewrite that cannot be carried through either gets one more request, with what it
        # met (a model's first guess at another app's design is often one control short)
        while (active and not said_absent and self._may_replan(att, ran if replanned else steps)
               and sum(r["kind"] == "replan" for r in records) < MAX_REPLANS
               and clock.deadline - time.monotonic() > 0):
            try:
                new = await self._replan(ctx, crit, original, first_stop, records, clock,
                                         tried=(ran, att) if replanned else None)
            except GroundingFailed as exc:
                new = None
                att = _Attempt("error", f"{att.reason}; re-planning failed: {exc}", att.step)
            if new is None:
                break
            ctx.page, ctx.last_status = await new_page(), None
            await self._restore(ctx, state)
            remaining = clock.deadline - time.monotonic()
            att = await self._attempt(ctx, crit, new, list(new),
                                      min(remaining, a.criterion_timeout_s),
                                      remaining < a.criterion_timeout_s, records, clock)
            next(r for r in reversed(records) if r["kind"] == "replan")["outcome"] = (
                f"re-run: {att.status}")
            replanned, ran = True, new
        v = self._verdict(crit, att, ran, grounded, records, t0)
        if replanned:
            v.decided_by = "replanned"
        return v

    @staticmethod
    def _may_replan(att: _Attempt, steps: list[CheckStep]) -> bool:
        """Only a check that could not be carried through: a miss, or an action that failed.
        An assertion that saw another value was carried through: its fail stands."""
        if att.step is None or att.status not in ("not_found", "fail"):
            return False
        return att.status == "not_found" or steps[att.step].op in ACTION_OPS

    async def _replan(self, ctx: StepContext, crit: Criterion, original: list[CheckStep],
                      att: _Attempt, records: list[dict[str, Any]], clock: TaskClock,
                      tried: tuple[list[CheckStep], _Attempt] | None = None
                      ) -> list[CheckStep] | None:
        """A rewrite of the check that stopped as ``att`` says; ``tried``: a rewrite already
        run and where it stopped (the page then is the one the model is shown)."""
        assert att.step is not None
        stop = att if tried is None else tried[1]
        snapshot = stop.snapshot_text
        if snapshot is None:
            snapshot, _ = await self._snapshot(ctx.page, crit.id)
        if not snapshot:
            return None
        plan = Replan(crit.id, crit.text, original, att.step, att.reason, snapshot)
        if tried is not None:
            plan.tried, plan.tried_step, plan.tried_failure = tried[0], stop.step, stop.reason
        t = time.monotonic()
        try:
            answer = await self.grounding.replan(plan, self.scope)
        finally:
            clock.deadline += time.monotonic() - t
        if answer is None:
            return None
        if answer.usage is not None:
            self.bill(answer.usage)
        records.append({
            "kind": "replan", "step": att.step,
            "steps": [st.describe() for st in answer.steps] if answer.steps else
            ("absent" if answer.absent else None),
            "reason": answer.reason, "model": answer.model,
            "tokens": 0 if answer.cached else answer.tokens, "cached": answer.cached,
            "outcome": "absent" if answer.absent else "unusable"})
        return answer.steps

    def _verdict(self, crit: Criterion, att: _Attempt, ran: list[CheckStep],
                 grounded: set[int], records: list[dict[str, Any]], t0: float) -> Verdict:
        absent = att.status == "not_found" and any(
            r["kind"] == "locator" and r["step"] == att.step and r["grounded"] == "absent"
            for r in records)
        kinds = {r["kind"] for r in records}
        if att.judged or (att.status == "pass" and att.passes):
            decided = "llm"
        elif grounded or absent:
            decided = "grounded"
        elif "adapted" in kinds:
            decided = "adapted"
        elif "relaxed" in kinds:
            decided = "relaxed"
        else:
            decided = "scripted"
        v = Verdict(criterion_id=crit.id, status=att.status, reason=att.reason, step=att.step,
                    duration_s=round(time.monotonic() - t0, 3), backend=BACKEND,
                    groundings=records, decided_by=decided,
                    seen="" if att.status == "pass" else att.seen)
        if att.status == "not_found" and att.step is not None:
            loc = ran[att.step].locator
            v.locator = loc.describe() if loc else None
            v.snapshot = att.snapshot_file
        return v

    # ------------------------------------------------------------ one run of the check

    async def _attempt(self, ctx: StepContext, crit: Criterion, original: list[CheckStep],
                       steps: list[CheckStep], limit: float, by_task: bool,
                       records: list[dict[str, Any]], clock: TaskClock) -> _Attempt:
        a = self.agent
        at: list[int | None] = [None]
        end = [time.monotonic() + limit]
        passes: list[int] = []

        def left() -> float:
            return end[0] - time.monotonic()

        def where() -> str:
            i = at[0]
            return "opening '/'" if i is None else f"step {i + 1} {original[i].describe()}"

        async def body() -> None:
            if steps[0].op != "goto":
                await asyncio.wait_for(goto(ctx, "/"), left())
            dialogs_checked = ladder.checks_dialogs(original)  # the criterion's, once
            for i, step in enumerate(steps):
                at[0] = i
                try:
                    await asyncio.wait_for(run_step(ctx, step), left())
                    continue
                except StepDenied:
                    raise
                except StepFailed as exc:
                    failure = exc
                # the deterministic rungs (asuka.uiagents.scripted.ladder): at most two rescues a step
                for _ in range(2 if self.ladder else 0):
                    r = await asyncio.wait_for(ladder.rescue(
                        ctx, steps[i], failure, steps[i - 1] if i else None,
                        dialogs_checked=dialogs_checked), left())
                    if r is None:
                        break
                    records.append({"kind": r.rung, "step": i,
                                    "original": original[i].describe(), "taken": r.taken})
                    if r.step is None:
                        failure = None
                        break
                    steps[i] = r.step
                    try:
                        await asyncio.wait_for(run_step(ctx, r.step), left())
                        failure = None
                        break
                    except StepFailed as exc:
                        failure = exc
                if failure is None:
                    continue
                miss = isinstance(failure, LocatorMiss)
                if len(passes) >= MAX_JUDGEMENTS:
                    wording = None
                elif miss:  # a message the criterion quotes, perhaps in other words
                    wording = await self._message_wording(ctx, crit, i, steps[i])
                else:
                    wording = await self._wording(ctx, crit, i, steps[i], failure)
                if wording is None:
                    raise failure
                t = time.monotonic()
                j = await self.grounding.judge_wording(wording, self.scope)
                spent = time.monotonic() - t
                end[0] += spent
                clock.deadline += spent
                if j is None:
                    raise failure
                if j.usage is not None:
                    self.bill(j.usage)
                records.append({
                    "kind": "wording", "step": i, "expected": wording.expected,
                    "observed": cut(wording.observed), "passed": j.passed,
                    "reason": j.reason, "model": j.model,
                    "tokens": 0 if j.cached else j.tokens, "cached": j.cached})
                if j.passed:
                    passes.append(i)
                    continue
                if j.passed is False and not miss:
                    raise _Judged(failure.detail, j.reason) from None
                raise failure  # a message not said in any words stays a miss: re-plannable

        try:
            await body()
        except asyncio.TimeoutError:
            what = (f"task timed out after {a.task_timeout_s:g}s" if by_task
                    else f"timed out after {limit:g}s")
            return _Attempt("fail", f"{what} at {where()}", at[0],
                            seen="the page stopped responding")
        except StepDenied as exc:  # this user lacks the action: not the app's failure
            return _Attempt("unverifiable", f"{where()}: {exc.detail}", at[0])
        except StepFailed as exc:
            if exc.connection and not ctx.navigated:
                raise InfraError(f"app not reachable at {self.base_url}: {exc.detail}") from None
            reason = f"{where()}: {_own_words(exc.detail, original, steps, at[0])}"
            if isinstance(exc, _Judged) and exc.why:
                reason += f"; {exc.why}"
            served_error = ctx.last_status is not None and ctx.last_status >= 400
            if served_error:
                reason += f" (the page was served with HTTP {ctx.last_status})"
            step = original[at[0]] if at[0] is not None else None
            seen = user_words(step, exc.detail, missing=isinstance(exc, LocatorMiss),
                              http=ctx.last_status if served_error else None)
            # a miss on an error page is the page's failure, not a naming question
            if isinstance(exc, LocatorMiss) and at[0] is not None and not served_error:
                text, name = await self._snapshot(ctx.page, crit.id)
                return _Attempt("not_found", reason, at[0], miss=True, snapshot_text=text,
                                snapshot_file=name, seen=seen)
            return _Attempt("fail", reason, at[0], judged=isinstance(exc, _Judged), seen=seen)
        except GroundingFailed as exc:
            return _Attempt("error", f"{where()}: grounding failed: {exc}", at[0])
        except PWError as exc:  # page crashed or closed under us
            browser = ctx.page.context.browser
            if browser is not None and not browser.is_connected():
                raise InfraError(f"browser disconnected: {brief(exc)}") from None
            return _Attempt("fail", f"{where()}: {brief(exc)}", at[0])
        except Exception as exc:  # noqa: BLE001 - a bug of ours must not kill the evaluation
            return _Attempt("error", f"{where()}: internal error {type(exc).__name__}: {exc}",
                            at[0])
        return _Attempt("pass", passes=passes)

    # ------------------------------------------------------------ grounding and wording

    async def _ground(self, ctx: StepContext, crit: Criterion, steps: list[CheckStep],
                      att: _Attempt, records: list[dict[str, Any]], clock: TaskClock
                      ) -> Locator | None:
        """Ground the miss of ``att``; the replacement locator to re-run with, or None."""
        assert att.step is not None and att.snapshot_text is not None
        step = steps[att.step]
        assert step.locator is not None
        t = time.monotonic()
        try:
            answer = await self.grounding.ground(
                Miss(crit.id, crit.text, list(steps), att.step, att.snapshot_text), self.scope)
        finally:
            clock.deadline += time.monotonic() - t
        if answer.usage is not None:
            self.bill(answer.usage)
        loc = answer.locator
        rec: dict[str, Any] = {
            "kind": "locator", "step": att.step, "original": step.locator.describe(),
            "grounded": loc.describe() if loc else ("absent" if answer.absent else None),
            "reason": answer.reason, "model": answer.model,
            "tokens": 0 if answer.cached else answer.tokens, "cached": answer.cached,
            "outcome": "absent" if answer.absent else "unusable"}
        records.append(rec)
        if loc is None:
            return None
        if loc == step.locator:
            rec["outcome"] = "unusable: the locator that missed"
            return None
        try:  # the snapshot was taken on this page: the replacement must match on it
            n = await asyncio.wait_for(build_locator(ctx.page, loc).count(), 5)
        except PWError as exc:
            rec["outcome"] = f"unusable: {brief(exc)}"
            return None
        except asyncio.TimeoutError:
            n = 1  # could not tell: let the re-run decide
        if n == 0:
            rec["outcome"] = "matches nothing on the page"
            return None
        rec["outcome"] = "re-run"
        return loc

    async def _wording(self, ctx: StepContext, crit: Criterion, i: int, step: CheckStep,
                       exc: StepFailed) -> Wording | None:
        """The wording question of a failed ``expect_text`` on a found element, or None."""
        if (not self.grounding.active or step.op != "expect_text" or step.locator is None
                or not exc.detail.startswith("observed ")):
            return None
        expected = as_text(step.params.get("value"))
        if numeric(expected) and not numbers_shown(expected, exc.detail):
            return None  # a number or date that is not there: the deterministic fail stands
        try:
            vals = await asyncio.wait_for(
                first_match(ctx, step.locator).evaluate_all(TEXT_JS), 5)
        except Exception:  # noqa: BLE001 - the page moved on: keep the deterministic fail
            return None
        if not vals:
            return None
        observed = collapse(as_text(vals[0]))[:OBSERVED_CHARS]
        return Wording(crit.id, crit.text, step, i, expected, observed)

    async def _message_wording(self, ctx: StepContext, crit: Criterion, i: int,
                               step: CheckStep) -> Wording | None:
        """The wording question of an ``expect_visible`` of a quoted text that matched
        nothing: does the region it was looked for in (its ``within``; where the app has no
        such region, the page's main content) say the same thing in other words? None when it is no such step, or when a
        number or date it states is not shown there (the deterministic miss stands)."""
        loc = step.locator
        if (not self.grounding.active or step.op != "expect_visible" or loc is None
                or loc.text is None or loc.text.startswith("/")):
            return None
        vals: list[Any] = []
        try:  # the scope the step names; where the app has none, its main content, its body
            for where in [w for w in (loc.within, Locator(css="main"), Locator(css="body")) if w]:
                vals = await asyncio.wait_for(first_match(ctx, where).evaluate_all(TEXT_JS), 5)
                if vals:
                    break
        except Exception:  # noqa: BLE001 - the page moved on: keep the deterministic miss
            return None
        observed = collapse(as_text(vals[0]))[:OBSERVED_CHARS] if vals else ""
        if not observed or (numeric(loc.text) and not numbers_shown(loc.text, observed)):
            return None
        return Wording(crit.id, crit.text, step, i, loc.text, observed, region=True)

    # ------------------------------------------------------------ page state and evidence

    async def _capture(self, ctx: StepContext) -> dict[str, Any] | None:
        try:
            return await asyncio.wait_for(ctx.page.context.storage_state(), 10)
        except Exception:  # noqa: BLE001 - a re-run then starts from the storage as it is
            return None

    async def _restore(self, ctx: StepContext, state: dict[str, Any] | None) -> None:
        """Put the cookies and the app origin's localStorage back as the criterion found them,
        from a blank same-origin page (no app code runs)."""
        if state is None:
            return
        page, context = ctx.page, ctx.page.context
        parts = urlsplit(self.base_url)
        origin = f"{parts.scheme}://{parts.netloc}"
        items = next((o.get("localStorage", []) for o in state.get("origins", [])
                      if o.get("origin") == origin), [])
        url = origin + RESTORE_PATH

        async def blank(route: Any) -> None:
            await route.fulfill(status=200, content_type="text/html",
                                body="<!doctype html><title>restore</title>")

        try:
            await context.clear_cookies()
            if state.get("cookies"):
                await context.add_cookies(state["cookies"])
            await page.route(url, blank)
            try:
                await page.goto(url, wait_until="load", timeout=10_000)
                await page.evaluate(_RESTORE_JS, items)
            finally:
                await page.unroute(url, blank)
        except Exception:  # noqa: BLE001 - best effort: the re-run still runs
            pass

    async def _snapshot(self, page: Any, criterion_id: str) -> tuple[str | None, str | None]:
        """The page's accessibility tree when a locator missed: its text (what a grounding
        reads; taken only when one may) and its file in the evidence dir (for a person)."""
        if page.is_closed() or (self.evidence_dir is None and not self.grounding.active):
            return None, None
        try:
            text = await asyncio.wait_for(page.locator("body").aria_snapshot(timeout=5_000), 6)
        except Exception:  # noqa: BLE001 - evidence is best effort
            return None, None
        text = text[:MAX_SNAPSHOT_CHARS]
        if self.evidence_dir is None:
            return text, None
        name = f"{criterion_id}.aria.yaml"
        try:
            self.evidence_dir.mkdir(parents=True, exist_ok=True)
            (self.evidence_dir / name).write_text(text, encoding="utf-8")
        except OSError:
            return text, None
        return text, name


def _own_words(detail: str, original: list[CheckStep], steps: list[CheckStep],
               i: int | None) -> str:
    """``detail`` with a grounded locator named as the check named it (a reason never names a
    grounded locator: it may reach the user's feedback)."""
    if i is None or steps[i] is original[i]:
        return detail
    mine, theirs = original[i].locator, steps[i].locator
    if mine is None or theirs is None:
        return detail
    detail = detail.replace(theirs.describe(), mine.describe())
    if theirs.within is not None:
        detail = detail.replace(theirs.within.describe(), mine.describe())
    return detail
