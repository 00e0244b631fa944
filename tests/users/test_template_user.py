"""The template user: executed failures only, paper style, deploy failures, verbosity."""

from __future__ import annotations

import pytest

from asuka.schema import EvalTaskResult, RoundEvaluation, Task, Verdict
from asuka.users.template import TemplateUser

TASK = Task.model_validate({
    "id": "x", "title": "x", "category": "utility", "query": "q",
    "eval_tasks": [
        {"id": "t0", "summary": "Layout", "type": "presence", "weight": 2,
         "criteria": [{"id": "t0.c0", "text": "A total is shown.",
                       "check": [{"goto": "/"},
                                 {"expect_text": {"css": "#t", "value": "Total: 42"}}]}]},
        {"id": "t1", "summary": "Sorting", "type": "functionality", "weight": 3,
         "criteria": [{"id": "t1.c0", "text": "Sorted by score."}]},
    ]})


def evaluation(seen: str = "it shows “Total: 41”; I expected “Total: 42”", **kw
               ) -> RoundEvaluation:
    reason = "step 2 expect_text [css='#t'] value='Total: 42': observed 'Total: 41'"
    return RoundEvaluation(protocol="dag", threshold=0.5, results={
        "t0": EvalTaskResult(eval_task_id="t0", status="failed", verdicts=[
            Verdict(criterion_id="t0.c0", status="fail", reason=reason, step=1, seen=seen)]),
        "t1": EvalTaskResult(eval_task_id="t1", status="skipped", skipped_because=["t0"]),
    }, **kw)


@pytest.mark.parametrize("verbosity", ["low", "medium", "high"])
def test_mentions_executed_failures_only(verbosity):
    text = TemplateUser(verbosity).render(TASK, evaluation())
    assert "task 0 / crit 0" in text
    assert "task 1" not in text and "Sorted by score" not in text


def test_low_is_paper_style():
    text = TemplateUser("low").render(TASK, evaluation())
    assert text.strip() == "task 0 / crit 0 — not working: A total is shown."


def test_medium_reports_what_the_user_saw():
    text = TemplateUser("medium").render(TASK, evaluation())
    assert "It shows “Total: 41”; I expected “Total: 42”" in text
    assert "step 2" not in text and "css" not in text  # the check is not the user's business
    assert text.startswith("I tested the app. 1 thing doesn't work")  # round 1: not "again"
    again = TemplateUser("medium").render(TASK, evaluation(), round=2)
    assert again.startswith("I tested the app again. 1 thing still doesn't work")


@pytest.mark.parametrize("verbosity", ["medium", "high"])
def test_a_technical_reason_never_reaches_the_user(verbosity):
    """A verdict without plain words (an old record) is told in a generic sentence."""
    text = TemplateUser(verbosity).render(TASK, evaluation(seen=""))
    assert "expect_text" not in text and "css=" not in text and "observed '" not in text
    assert "it did not behave as described" in text.lower()


def test_deploy_failure_talks_about_the_build():
    text = TemplateUser("low").render(TASK, evaluation(deploy_ok=False,
                                                       deploy_error="build failed: boom"))
    assert "build failed: boom" in text and "task 0" not in text


def test_unknown_verbosity():
    with pytest.raises(ValueError, match="verbosity"):
        TemplateUser("chatty")
