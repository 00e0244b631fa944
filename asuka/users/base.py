"""The User role: from verdicts to feedback."""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from asuka.dag import feedback_view  # the gated outcome under `full`
from asuka.schema import EvalTask, RoundEvaluation, Task, Verdict
from asuka.usage import Usage

# words of a technical reason that a user never says: the check DSL's steps and locator keys,
# selectors, Playwright's "matching element(s)"
TECHNICAL = re.compile(
    r"\b(?:role|name|label|placeholder|text|css|testid|alt|title|nth|exact)=|>>|"
    r"matching element|\bstep \d+\b|\blocator\b|\bexpect_[a-z]+|"
    r"\b(?:eval|goto|fill|dblclick|upload)\b|\bnot_found\b|<[a-z]+[ >]|\[[a-z-]+=", re.I)


SPEC_BACKEND = "playwright-test"  # asuka.uiagents.playwright_test (a role: not imported here)


def what_was_seen(verdict: Verdict) -> str:
    """What the user saw for a failed criterion: the verdict's plain words
    (``Verdict.seen``), or its reason when that is already plain (an LLM judge's), else a
    plain sentence; never a locator, selector or check step."""
    if verdict.seen:
        return verdict.seen
    reason = verdict.reason.strip()
    if verdict.backend == SPEC_BACKEND:
        # a project's own spec tests (Web-Bench): its protocol hands the test's errors to the
        # agent on a retry, as Web-Bench's evaluator does; they are its feedback, not ours
        return reason[:300]
    if reason and not TECHNICAL.search(reason):
        return reason[:300]
    if verdict.status == "not_found":
        return "I couldn't find it on the page"
    return "it did not behave as described"


class Failure(BaseModel):
    """One executed, failed criterion: what feedback must talk about."""

    eval_task: EvalTask
    index: int                 # position of the criterion within its evaluation task
    criterion_text: str
    verdict: Verdict

    @property
    def seen(self) -> str:
        return what_was_seen(self.verdict)


def failures_for_feedback(task: Task, evaluation: RoundEvaluation) -> list[Failure]:
    """Executed failures only: skipped evaluation tasks never reach the user (paper §3.1)."""
    view = feedback_view(evaluation)
    out: list[Failure] = []
    for et in task.eval_tasks:
        res = view.get(et.id)
        if res is None or res.status != "failed":
            continue
        by_id = {v.criterion_id: v for v in res.verdicts}
        for i, crit in enumerate(et.criteria):
            v = by_id.get(crit.id)
            # not_found counts as a failure the user saw ("I can't find ..."); errors never
            if v is not None and v.status in ("fail", "not_found"):
                out.append(Failure(eval_task=et, index=i, criterion_text=crit.text, verdict=v))
    return out


class FeedbackResult(BaseModel):
    text: str
    usage: list[Usage] = []
    meta: dict[str, Any] = {}  # backend-specific record (the LLM user's guard), kept as user.json


@runtime_checkable
class User(Protocol):
    name: str

    async def feedback(self, task: Task, evaluation: RoundEvaluation, round: int) -> FeedbackResult:
        ...
