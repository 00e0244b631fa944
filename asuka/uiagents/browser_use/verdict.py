"""How the end of one browser-use agent run becomes a criterion's verdict.

A pure mapping from what the run left behind (its history, the LLM probe's record, whether the
wall clock ran out, an exception) to ``(status, reason)``. No browser, no LLM call.

Verdicts, one per criterion, ``backend="browser-use"``:

- ``pass`` when the agent finished with ``success=true`` and ``passed=true``; the reason is the
  agent's reason plus its evidence;
- ``fail`` when it reported ``passed=false``, or ``success=false`` (it could not carry the test
  out);
- ``error`` "no verdict: ..." when it ended without a structured verdict: all ``max_steps`` used,
  stopped after ``max_failures`` consecutive failed steps (e.g. replies that do not parse), or
  the criterion's wall clock ran out. The judge failed to decide, which says nothing about the
  app: the task's status is ``error`` (retried by the engine, never sent as feedback), and the
  task's other criteria still run;
- ``error`` when the LLM endpoint itself failed: 401/403/404 stop the agent at once, other HTTP
  errors, connection failures and timeouts count when the agent ended on them (after the SDK's
  and the agent's retries). The remaining criteria of the task are then not run (``error`` "not
  run: ..."), and the task's status is ``error`` so the DAG engine retries it. A browser that does
  not start, and an app that does not answer at all at ``base_url`` (checked once per task,
  before any LLM call), also give ``error``.
- ``unverifiable`` when a persona's user was denied an action (its tools) and the agent then
  reported ``success=false``: the test needs what this user lacks, not the app's failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from asuka.uiagents.browser_use.errors import LLMProbe, cut
from asuka.uiagents.browser_use.prompt import CriterionVerdict

# The judge ended without deciding (steps or time used up, output it could not parse): an
# ``error`` verdict (the harness's, not the app's), retried by the engine, never feedback. Unlike
# an endpoint failure it does not stop the task's other criteria.
NO_VERDICT = "no verdict: "


@dataclass(frozen=True)
class RunLimits:
    model_label: str
    max_steps: int
    max_failures: int
    criterion_timeout_s: float


@dataclass
class RunEnd:
    """What one agent run left behind."""
    agent: Any = None          # browser_use.Agent (its state counts steps and failures)
    history: Any = None        # AgentHistoryList, None when the run did not return
    timed_out: bool = False
    error: BaseException | None = None


def last_error(history: Any) -> str | None:
    if history is None:
        return None
    errors = [e for e in history.errors() if e]
    return cut(errors[-1], 300) if errors else None


def structured_verdict(history: Any) -> tuple[CriterionVerdict | None, bool | None]:
    """The agent's ``CriterionVerdict`` and its success flag, when it finished with one."""
    if history is None or not history.is_done():
        return None, None
    try:
        return history.get_structured_output(CriterionVerdict), history.is_successful()
    except Exception:  # noqa: BLE001 - not our schema: treated as "no verdict"
        return None, history.is_successful()


def decide(end: RunEnd, probe: LLMProbe, limits: RunLimits,
           describe_error: Any = str, denied: str = "") -> tuple[str, str]:
    """``denied``: the actions this user was denied during the run (a persona's restricted
    tools), noted in the reason; a test the agent could not carry out after a denial is
    ``unverifiable`` for this user, not the app's failure."""
    if probe.fatal is not None:
        return "error", f"LLM endpoint failed ({limits.model_label}): {probe.fatal}"
    result, success = structured_verdict(end.history)
    if result is not None:
        text = result.reason.strip() or "(no reason given)"
        if result.evidence.strip():
            text += f" (evidence: {result.evidence.strip()})"
        note = f" [{denied}]" if denied else ""
        if success is False and denied:
            return "unverifiable", f"the test needs an action this user does not have: " \
                                   f"{text}{note}"
        if success is False:
            return "fail", f"the agent could not carry out the test: {text}"
        return ("pass" if result.passed else "fail"), text + note
    if probe.endpoint_streak and probe.last_error is not None:
        return "error", (f"LLM endpoint failed ({limits.model_label}) after "
                         f"{probe.failed} failed call(s): {probe.last_error[1]}")
    if end.error is not None:
        return "error", f"browser-use failed: {describe_error(end.error)}"
    if end.timed_out:
        return "error", f"{NO_VERDICT}timed out after {limits.criterion_timeout_s:g}s"
    state = getattr(end.agent, "state", None)
    steps = getattr(state, "n_steps", 1) - 1
    failures = getattr(state, "consecutive_failures", 0)
    last = last_error(end.history)
    tail = f" (last error: {last})" if last else ""
    if end.history is not None and end.history.is_done():
        final = end.history.final_result()
        return "error", (f"{NO_VERDICT}the agent finished without a structured verdict"
                        + (f": {cut(final, 300)}" if final else ""))
    if steps >= limits.max_steps:
        return "error", (f"{NO_VERDICT}the agent used all {limits.max_steps} steps "
                        f"without concluding{tail}")
    if failures >= limits.max_failures:
        return "error", (f"{NO_VERDICT}the agent stopped after {failures} consecutive "
                        f"failed steps{tail}")
    return "error", f"{NO_VERDICT}the agent ended without a structured verdict{tail}"


def execution_trace(history: Any, limit: int = 40) -> list[str]:
    """The browser actions the run took, each with the page it was on ("click @ /cart"): the
    verdict's execution evidence for the record auditor. Empty when nothing ran."""
    if history is None:
        return []
    out: list[str] = []
    try:
        for step in history.history:
            url = getattr(getattr(step, "state", None), "url", None) or ""
            actions = getattr(getattr(step, "model_output", None), "action", None) or []
            for action in actions:
                dumped = action.model_dump(exclude_none=True) if hasattr(action, "model_dump") \
                    else {}
                name = next(iter(dumped), "action")
                out.append(f"{name} @ {url}" if url else name)
    except Exception:  # noqa: BLE001 - a history of another shape: no trace, not a crash
        return out[:limit]
    return out[:limit]
