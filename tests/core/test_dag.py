"""The DAG protocol engine with a fake evaluator (no browser)."""

from __future__ import annotations

import asyncio

import pytest

from asuka.dag import CriterionDag, CycleError, apply_gating, executed_failures
from asuka.protocol.dag import run_protocol
from asuka.schema import EvalTaskResult, Task, Verdict
from asuka.users.base import failures_for_feedback


def make_task(n_criteria: dict[str, int]) -> Task:
    return Task.model_validate({
        "id": "x", "title": "x", "category": "utility", "query": "q",
        "eval_tasks": [{"id": i, "summary": i, "type": "functionality", "weight": 1,
                        "criteria": [{"id": f"{i}.c{k}", "text": f"{i} criterion {k}"}
                                     for k in range(n)]}
                       for i, n in n_criteria.items()]})


class FakeEvaluator:
    """Passes the first ``passes[id]`` criteria of each task; can error a few times first."""

    def __init__(self, task: Task, passes: dict[str, int], errors: dict[str, int] | None = None,
                 delay: float = 0.0):
        self.task, self.passes, self.errors = task, passes, dict(errors or {})
        self.calls: list[str] = []
        self.delay = delay
        self.running = 0
        self.max_running = 0

    async def __call__(self, et):
        self.calls.append(et.id)
        self.running += 1
        self.max_running = max(self.max_running, self.running)
        try:
            await asyncio.sleep(self.delay)
            if self.errors.get(et.id, 0) > 0:
                self.errors[et.id] -= 1
                raise ConnectionError("browser crashed")
            k = self.passes.get(et.id, len(et.criteria))
            verdicts = [Verdict(criterion_id=c.id, status="pass" if j < k else "fail",
                                reason="" if j < k else "wrong")
                        for j, c in enumerate(et.criteria)]
            status = "passed" if k >= len(et.criteria) else "failed"
            return EvalTaskResult(eval_task_id=et.id, status=status, verdicts=verdicts)
        finally:
            self.running -= 1


# root(4 criteria) -> a(2) -> c(1); root -> b(2); a,b -> d(1)
SHAPE = {"root": 4, "a": 2, "b": 2, "c": 1, "d": 1}
EDGES = [("root", "a"), ("root", "b"), ("a", "c"), ("a", "d"), ("b", "d")]


def setup(passes, **kw):
    task = make_task(SHAPE)
    return task, CriterionDag(task and [e.id for e in task.eval_tasks], EDGES), \
        FakeEvaluator(task, passes, **kw)


def statuses(results):
    return {k: v.status for k, v in results.items()}


async def test_soft_threshold_lets_half_satisfied_parent_through():
    task, dag, ev = setup({"root": 2, "a": 0})  # root 2/4 = 0.5 >= T; a 0/2 < T
    out = await run_protocol(task, dag, ev, protocol="dag", threshold=0.5)
    assert statuses(out.results) == {"root": "failed", "a": "failed", "b": "passed",
                                     "c": "skipped", "d": "skipped"}
    assert out.results["c"].skipped_because == ["a"]
    assert out.results["d"].skipped_because == ["a"]  # b is satisfied
    assert sorted(ev.calls) == ["a", "b", "root"]


async def test_strict_threshold_blocks_subtree():
    task, dag, ev = setup({"root": 3})  # 3/4 < 1.0
    out = await run_protocol(task, dag, ev, protocol="dag", threshold=1.0)
    assert statuses(out.results) == {"root": "failed", "a": "skipped", "b": "skipped",
                                     "c": "skipped", "d": "skipped"}
    assert ev.calls == ["root"]


async def test_skipped_parent_blocks_child():
    task, dag, ev = setup({"root": 0})
    out = await run_protocol(task, dag, ev, protocol="dag", threshold=0.5)
    assert out.results["d"].status == "skipped"
    assert out.results["d"].skipped_because == ["a", "b"]


async def test_flat_runs_everything():
    task, dag, ev = setup({"root": 0})
    out = await run_protocol(task, dag, ev, protocol="flat")
    assert sorted(ev.calls) == sorted(SHAPE)
    assert out.gated is None
    assert statuses(out.results)["root"] == "failed"
    assert statuses(out.results)["c"] == "passed"


async def test_full_records_gated_and_ungated():
    task, dag, ev = setup({"root": 2, "a": 0})
    out = await run_protocol(task, dag, ev, protocol="full", threshold=0.5)
    assert sorted(ev.calls) == sorted(SHAPE)
    assert statuses(out.results) == {"root": "failed", "a": "failed", "b": "passed",
                                     "c": "passed", "d": "passed"}
    assert statuses(out.gated) == {"root": "failed", "a": "failed", "b": "passed",
                                   "c": "skipped", "d": "skipped"}
    # the gated view of `full` equals what `dag` yields on the same app
    task2, dag2, ev2 = setup({"root": 2, "a": 0})
    gated_run = await run_protocol(task2, dag2, ev2, protocol="dag", threshold=0.5)
    assert statuses(gated_run.results) == statuses(out.gated)
    assert statuses(apply_gating(out.results, dag, 1.0))["a"] == "skipped"


async def test_errors_are_retried_per_layer():
    task, dag, ev = setup({}, errors={"a": 2})
    out = await run_protocol(task, dag, ev, protocol="dag", max_retry=3)
    assert out.results["a"].status == "passed"
    assert out.results["a"].attempts == 3
    assert out.results["root"].attempts == 1


async def test_errors_exhaust_retries_and_do_not_block_children():
    # an evaluation task the harness could not decide is not the agent's failure: it ends
    # `error` after its retries, and its children are still evaluated (under dag and in the
    # gated view of full alike)
    task, dag, ev = setup({}, errors={"a": 10})
    out = await run_protocol(task, dag, ev, protocol="dag", max_retry=2)
    assert out.results["a"].status == "error"
    assert out.results["a"].attempts == 3
    assert "ConnectionError: browser crashed" in out.results["a"].error
    assert out.results["c"].status == "passed"
    assert ev.calls.count("a") == 3
    task2, dag2, ev2 = setup({}, errors={"a": 10})
    full = await run_protocol(task2, dag2, ev2, protocol="full", max_retry=0)
    assert statuses(full.gated)["c"] == "passed" and statuses(full.gated)["a"] == "error"
    # a failed (decided) parent still blocks
    task3, dag3, ev3 = setup({"a": 0})
    assert statuses((await run_protocol(task3, dag3, ev3, protocol="dag")).results)["c"] \
        == "skipped"


async def test_concurrency_limit():
    task = make_task({f"t{i}": 1 for i in range(8)})
    dag = CriterionDag([e.id for e in task.eval_tasks], [])
    ev = FakeEvaluator(task, {}, delay=0.02)
    await run_protocol(task, dag, ev, protocol="flat", concurrency=3)
    assert ev.max_running == 3
    ev1 = FakeEvaluator(task, {}, delay=0.01)
    await run_protocol(task, dag, ev1, protocol="flat", concurrency=1)
    assert ev1.max_running == 1


async def test_feedback_is_executed_failures_only():
    task, dag, ev = setup({"root": 2, "a": 1, "b": 0})
    out = await run_protocol(task, dag, ev, protocol="dag", threshold=0.5)
    # root 2/4 ok, a 1/2 ok, b 0/2 blocks d; c runs (its only parent a is satisfied)
    assert statuses(out.results)["d"] == "skipped"
    assert executed_failures(out) == ["root", "a", "b"]
    fails = failures_for_feedback(task, out)
    assert [(f.eval_task.id, f.index) for f in fails] == [
        ("root", 2), ("root", 3), ("a", 1), ("b", 0), ("b", 1)]


async def test_generations_and_depth():
    task, dag, _ = setup({})
    assert dag.generations() == [["root"], ["a", "b"], ["c", "d"]]
    assert dag.depth() == 3


def test_cycle_detected():
    with pytest.raises(CycleError) as e:
        CriterionDag(["a", "b", "c"], [("a", "b"), ("b", "c"), ("c", "b")])
    assert "b -> c -> b" in str(e.value) or "c -> b -> c" in str(e.value)


async def test_bad_arguments():
    task, dag, ev = setup({})
    with pytest.raises(ValueError, match="unknown protocol"):
        await run_protocol(task, dag, ev, protocol="tree")
    with pytest.raises(ValueError, match="threshold"):
        await run_protocol(task, dag, ev, threshold=1.5)
