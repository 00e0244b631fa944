"""The LLM user's guard against invented references (issue 13, item 5).

Every reply goes through the real openai / anthropic SDK to the scripted local server
(tests/llm_server.py): what the guard sends back, what it keeps and what it drops are observed on
the wire and in the guard record the loop stores as the round's user.json."""

from __future__ import annotations

import json

import pytest

from asuka.llm import ModelSpec
from asuka.schema import EvalTaskResult, RoundEvaluation, Task, Verdict
from asuka.users.llm import LLMUser, find_refs
from tests.llm_server import (
    ScriptedLLMServer,
    llm_server,  # noqa: F401 - fixture
    text,
)

# t0..t2 fail (t0 only in crit 1), t3 is skipped, t4 passed. t2's criterion itself talks about
# "task 3" (a to-do list), which must not make a reply that repeats it look invented.
TASK = Task.model_validate({
    "id": "mini-todo", "title": "Mini to-do", "category": "utility",
    "query": "Make me a counter page with a small to-do list.",
    "eval_tasks": [
        {"id": "t0", "summary": "Layout", "type": "presence", "weight": 2,
         "criteria": [{"id": "t0.c0", "text": "A heading is shown."},
                      {"id": "t0.c1", "text": "A counter button is shown."}]},
        {"id": "t1", "summary": "Counting", "type": "functionality", "weight": 3,
         "criteria": [{"id": "t1.c0", "text": "Clicking increments the count."}]},
        {"id": "t2", "summary": "To-do list", "type": "functionality", "weight": 3,
         "criteria": [{"id": "t2.c0", "text": "After adding three items, task 3 is listed last."}]},
        {"id": "t3", "summary": "Reset", "type": "robustness", "weight": 4,
         "criteria": [{"id": "t3.c0", "text": "Reset returns to zero."}]},
        {"id": "t4", "summary": "Export", "type": "functionality", "weight": 2,
         "criteria": [{"id": "t4.c0", "text": "Export downloads a CSV."}]},
    ]})
WANTED = ["task 0 / crit 1", "task 1 / crit 0", "task 2 / crit 0"]


def evaluation() -> RoundEvaluation:
    v = Verdict
    return RoundEvaluation(protocol="dag", threshold=0.5, results={
        "t0": EvalTaskResult(eval_task_id="t0", status="failed", verdicts=[
            v(criterion_id="t0.c0", status="pass"),
            v(criterion_id="t0.c1", status="fail", reason="no button with a + label")]),
        "t1": EvalTaskResult(eval_task_id="t1", status="failed", verdicts=[
            v(criterion_id="t1.c0", status="fail", reason="count stays at 0")]),
        "t2": EvalTaskResult(eval_task_id="t2", status="failed", verdicts=[
            v(criterion_id="t2.c0", status="fail", reason="task 3 is shown first")]),
        "t3": EvalTaskResult(eval_task_id="t3", status="skipped", skipped_because=["t1"]),
        "t4": EvalTaskResult(eval_task_id="t4", status="passed", verdicts=[
            v(criterion_id="t4.c0", status="pass")]),
    })


GOOD = ("- task 0 / crit 1 — There is no + button.\n"
        "- task 1 / crit 0 — Clicking does nothing.\n"
        "- task 2 / crit 0 — After adding three items, task 3 is shown first, not last.")


def spec(server: ScriptedLLMServer, provider: str = "openai") -> ModelSpec:
    return ModelSpec(provider=provider, model=f"fake-{provider}",
                     base_url=server.base_url(provider), backoff_s=0.01)


def sent(server: ScriptedLLMServer, i: int) -> list[dict]:
    return server.requests[i].body["messages"]


def refs_in(reply: str) -> list[str]:
    return [r.ref for r in find_refs(reply)]


def test_references_are_recognised_however_spelled() -> None:
    assert refs_in("Task 7/crit 2; task 7 / criterion 3; task 7, crit 4; TASK #7 (Crit. 5)") == [
        "task 7 / crit 2", "task 7 / crit 3", "task 7 / crit 4", "task 7 / crit 5"]
    assert refs_in("crit 2 of task 7, and criteria 0 and 1 in task 8") == [
        "task 7 / crit 2", "task 8 / crit 0", "task 8 / crit 1"]
    assert refs_in("task 7 / crit 1 and crit 2; task 9 / criteria 0, 1 and 3") == [
        "task 7 / crit 1", "task 7 / crit 2", "task 9 / crit 0", "task 9 / crit 1",
        "task 9 / crit 3"]
    # a task named on its own at the start of a bullet, a numbered item or a heading
    assert refs_in("- Task 7 — export fails\n**Task 8 (Export)**\n1. task 9: nothing") == [
        "task 7", "task 8", "task 9"]
    # not references: a longer word, a version-like number, a bare "task 3" inside a sentence,
    # a lone criterion (it names no task), a singular "crit" followed by a count
    assert refs_in("subtask 7 / crit 1, task 7.2 / crit 1, I added task 3 and crit 2 alone") == []
    assert refs_in("task 7 / crit 1, 2 buttons are missing") == ["task 7 / crit 1"]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_clean_reply_passes_untouched(llm_server: ScriptedLLMServer, provider: str) -> None:
    # the wanted references spelled three ways, and the criterion's own "task 3" repeated twice,
    # once at the start of a line
    reply = ("- Task 0/crit 1 — I see no counter button.\n"
             "- task 1, criterion 0 — Clicking leaves the count at 0.\n"
             "- task 2 / crit 0 — After adding three items the order is wrong:\n"
             "  Task 3 is shown first instead of last.")
    llm_server.script(text(reply))
    user = LLMUser(spec(llm_server, provider))
    fb = await user.feedback(TASK, evaluation(), 1)
    assert fb.text == reply and len(llm_server.requests) == 1
    g = fb.guard
    assert not g["fired"] and not g["retried"]
    assert g["invented_first"] == g["invented_after_retry"] == g["dropped_lines"] == []
    assert g["missing_first"] == g["appended"] == []
    assert fb.meta["guard"] == g == user.guard_log[-1]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_invented_reference_is_retried_and_the_clean_retry_kept(
        llm_server: ScriptedLLMServer, provider: str) -> None:
    first = (GOOD + "\n- task 3 / crit 0 — Reset does not return to zero."  # skipped
             "\n- Task 4, crit 0 — The CSV export is slow.")                # passed
    llm_server.script(text(first), text(GOOD))
    user = LLMUser(spec(llm_server, provider))
    fb = await user.feedback(TASK, evaluation(), 2)
    assert fb.text == GOOD and len(llm_server.requests) == 2
    g = fb.guard
    assert g["fired"] and g["retried"]
    assert g["invented_first"] == ["task 3 / crit 0", "task 4 / crit 0"]
    assert g["invented_after_retry"] == [] and g["dropped_lines"] == []
    assert g["missing_first"] == g["missing_after_retry"] == g["appended"] == []
    # the retry carries the first reply and one corrective message naming what was invented
    wire = json.dumps(sent(llm_server, 1), ensure_ascii=False)
    assert "Reset does not return to zero" in wire
    assert "not in my list: task 3 / crit 0; task 4 / crit 0" in wire
    assert "left out" not in wire
    assert fb.meta["guard"] == g == user.guard_log[-1]


async def test_invented_reference_surviving_the_retry_is_dropped_and_recorded(
        llm_server: ScriptedLLMServer) -> None:
    # first: a passed criterion of a failed task; retry: a skipped task's criterion inside a
    # prose sentence, and a passed task named at the start of a bullet
    first = (GOOD + "\n- task 0 / crit 0 — The heading is missing."
             "\n- task 4 / crit 0 — Export is broken.")
    second = ("Overall it looks fine. I also noticed crit 0 of task 3 fails.\n"
              + GOOD + "\n- Task 4 — The export button is grey.\n  It does nothing at all.")
    llm_server.script(text(first), text(second))
    fb = await LLMUser(spec(llm_server)).feedback(TASK, evaluation(), 2)
    assert len(llm_server.requests) == 2
    assert fb.text == "Overall it looks fine.\n" + GOOD
    g = fb.guard
    assert g["fired"] and g["retried"]
    assert g["invented_first"] == ["task 0 / crit 0", "task 4 / crit 0"]
    assert g["invented_after_retry"] == ["task 3 / crit 0", "task 4"]
    assert g["dropped_lines"] == ["I also noticed crit 0 of task 3 fails.",
                                  "- Task 4 — The export button is grey.",
                                  "It does nothing at all."]
    assert g["appended"] == []
    assert refs_in(fb.text) == WANTED
    json.dumps(g)  # what the loop writes as user.json


async def test_missing_and_invented_share_one_retry(llm_server: ScriptedLLMServer) -> None:
    drops_t2 = "\n".join(GOOD.splitlines()[:2])
    # the line that invents also carries a wanted reference: dropped, then appended verbatim
    bad = (drops_t2.replace("Clicking does nothing.",
                            "Clicking does nothing, just like task 3 / crit 0."))
    llm_server.script(text(bad), text(bad))
    fb = await LLMUser(spec(llm_server)).feedback(TASK, evaluation(), 2)
    assert len(llm_server.requests) == 2  # one retry for both problems
    wire = json.dumps(sent(llm_server, 1)[-1], ensure_ascii=False)
    assert "left out these problems: task 2 / crit 0." in wire
    assert "not in my list: task 3 / crit 0." in wire
    g = fb.guard
    assert g["missing_first"] == g["missing_after_retry"] == ["task 2 / crit 0"]
    assert g["invented_first"] == g["invented_after_retry"] == ["task 3 / crit 0"]
    assert g["dropped_lines"] == ["- task 1 / crit 0 — Clicking does nothing, just like "
                                  "task 3 / crit 0."]
    assert g["appended"] == ["task 1 / crit 0", "task 2 / crit 0"]
    assert fb.text == ("- task 0 / crit 1 — There is no + button.\n"
                       "- task 1 / crit 0 — Clicking increments the count. "
                       "(observed: count stays at 0)\n"
                       "- task 2 / crit 0 — After adding three items, task 3 is listed last. "
                       "(observed: task 3 is shown first)")
    assert sorted(refs_in(fb.text)) == WANTED


async def test_a_retry_that_needs_more_repair_is_not_kept(llm_server: ScriptedLLMServer) -> None:
    first = GOOD + "\n- task 4 / crit 0 — Export is broken."
    worse = "- task 0 / crit 1 — No button."  # two failures left out
    llm_server.script(text(first), text(worse))
    fb = await LLMUser(spec(llm_server)).feedback(TASK, evaluation(), 2)
    assert fb.text == GOOD
    assert fb.guard["invented_after_retry"] == ["task 4 / crit 0"]
    assert fb.guard["dropped_lines"] == ["- task 4 / crit 0 — Export is broken."]
    assert fb.guard["missing_after_retry"] == [] and fb.guard["appended"] == []


async def test_failed_deploy_feedback_names_no_task(llm_server: ScriptedLLMServer) -> None:
    log = "> vite build\nError: Cannot find module 'chart.js'\nexit code 1"
    llm_server.script(text("The app does not open. task 1 / crit 0 fails too."),
                      text("The app does not open: the build cannot find chart.js."))
    ev = RoundEvaluation(protocol="dag", threshold=0.5, results={}, deploy_ok=False,
                         deploy_error=log)
    fb = await LLMUser(spec(llm_server)).feedback(TASK, ev, 1)
    assert fb.guard["invented_first"] == ["task 1 / crit 0"]
    assert fb.guard["invented_after_retry"] == []
    assert fb.text.startswith("The app does not open: the build cannot find chart.js.")
    assert "Cannot find module 'chart.js'" in fb.text and refs_in(fb.text) == []
    assert "without any task or criterion references" in json.dumps(sent(llm_server, 1))
