"""Scoring against hand-computed numbers (no I/O)."""

from __future__ import annotations

import math

import pytest

from asuka.log.scoring import (
    Shape,
    by_type,
    dag_gap,
    fix_rate,
    mean_ci,
    round_metrics,
    status_counts,
    weighted_criteria_pass_rate,
    weighted_task_pass_rate,
)
from asuka.schema import EvalTaskResult, Task, Verdict

# A: weight 2, two criteria; B: weight 3, one; C: weight 5, two. Σw = 10.
TASK = Task.model_validate({
    "id": "s", "title": "s", "category": "utility", "query": "q",
    "eval_tasks": [
        {"id": "A", "summary": "a", "type": "presence", "weight": 2,
         "criteria": [{"id": "A.c0", "text": "x"}, {"id": "A.c1", "text": "y"}]},
        {"id": "B", "summary": "b", "type": "functionality", "weight": 3,
         "criteria": [{"id": "B.c0", "text": "x"}]},
        {"id": "C", "summary": "c", "type": "robustness", "weight": 5,
         "criteria": [{"id": "C.c0", "text": "x"}, {"id": "C.c1", "text": "y"}]},
    ]})
SHAPE = Shape.of(TASK)


def res(tid, passes, status=None):
    crit = [c.id for c in TASK.eval_task(tid).criteria]
    if status == "skipped":
        return EvalTaskResult(eval_task_id=tid, status="skipped")
    verdicts = [Verdict(criterion_id=c, status="pass" if ok else "fail")
                for c, ok in zip(crit, passes)]
    return EvalTaskResult(eval_task_id=tid, status="passed" if all(passes) else "failed",
                          verdicts=verdicts)


# R1: A passes, B fails, C half.  R2: A regresses to half, B passes, C half.  R3: all pass.
ROUNDS = [
    {"A": res("A", [1, 1]), "B": res("B", [0]), "C": res("C", [1, 0])},
    {"A": res("A", [1, 0]), "B": res("B", [1]), "C": res("C", [1, 0])},
    {"A": res("A", [1, 1]), "B": res("B", [1]), "C": res("C", [1, 1])},
]


def test_basic_rates():
    assert weighted_task_pass_rate(SHAPE, {"A"}) == pytest.approx(0.2)
    assert weighted_task_pass_rate(SHAPE, {"B", "C"}) == pytest.approx(0.8)
    # A: 2·1 + B: 3·0 + C: 5·0.5 = 4.5 of 10
    assert weighted_criteria_pass_rate(SHAPE, {"A.c0", "A.c1", "C.c0"}) == pytest.approx(0.45)


def test_same_artifact_view_with_regression():
    m = round_metrics(SHAPE, ROUNDS, "same-artifact")
    assert [r.task_pass_rate for r in m] == pytest.approx([0.2, 0.3, 1.0])
    # R2: A 2·0.5 + B 3·1 + C 5·0.5 = 6.5
    assert [r.criteria_pass_rate for r in m] == pytest.approx([0.45, 0.65, 1.0])
    assert [r.completion for r in m] == [0.0, 0.0, 1.0]
    # implemented: R1 A and C (B has no passing criterion) = 7/10
    assert [r.implemented_rate for r in m] == pytest.approx([0.7, 1.0, 1.0])
    # fix: R2 of {B, C} open, B passes -> 1/2; R3 of {A, C} open, both pass -> 1
    assert m[0].task_fix_rate is None
    assert m[1].task_fix_rate == pytest.approx(0.5)
    assert m[2].task_fix_rate == pytest.approx(1.0)
    # criteria: R2 open {B.c0, C.c1} -> B.c0 fixed; R3 open {A.c1, C.c1} -> both
    assert m[1].criteria_fix_rate == pytest.approx(0.5)
    assert m[2].criteria_fix_rate == pytest.approx(1.0)


def test_cumulative_view_with_regression():
    m = round_metrics(SHAPE, ROUNDS, "cumulative")
    # R2: A counts from R1 although it regressed: {A, B} = 5/10
    assert [r.task_pass_rate for r in m] == pytest.approx([0.2, 0.5, 1.0])
    # R2: every criterion but C.c1: 2 + 3 + 2.5 = 7.5
    assert [r.criteria_pass_rate for r in m] == pytest.approx([0.45, 0.75, 1.0])
    assert [r.completion for r in m] == [0.0, 0.0, 1.0]
    # R3: only C was still open, and it passed
    assert m[1].task_fix_rate == pytest.approx(0.5)
    assert m[2].task_fix_rate == pytest.approx(1.0)
    assert m[2].criteria_fix_rate == pytest.approx(1.0)


def test_views_differ_only_on_regression():
    cum = round_metrics(SHAPE, ROUNDS, "cumulative")
    same = round_metrics(SHAPE, ROUNDS, "same-artifact")
    assert cum[0] == same[0]
    assert cum[1].task_pass_rate != same[1].task_pass_rate
    assert cum[2] .task_pass_rate == same[2].task_pass_rate


def test_cumulative_completion_across_rounds():
    # A and C pass in R1, B only in R2 while A regresses: complete cumulatively, not on R2's app
    rounds = [{"A": res("A", [1, 1]), "B": res("B", [0]), "C": res("C", [1, 1])},
              {"A": res("A", [0, 0]), "B": res("B", [1]), "C": res("C", [1, 1])}]
    assert round_metrics(SHAPE, rounds, "cumulative")[1].completion == 1.0
    assert round_metrics(SHAPE, rounds, "same-artifact")[1].completion == 0.0


def test_skipped_tasks_count_as_not_passed():
    rnd = {"A": res("A", [1, 0]), "B": res("B", [], "skipped"), "C": res("C", [], "skipped")}
    m = round_metrics(SHAPE, [rnd])[0]
    assert m.task_pass_rate == 0.0
    assert m.criteria_pass_rate == pytest.approx(0.1)  # 2·0.5 / 10
    assert status_counts(rnd) == {"executed": 1, "passed": 0, "failed": 1, "skipped": 2,
                                  "error": 0, "criteria_executed": 2}


def test_fix_rate_none_when_nothing_open():
    assert fix_rate({"a"}, {"a"}, {"a"}) is None
    assert fix_rate({"a", "b", "c", "d"}, {"a"}, {"b"}) == pytest.approx(1 / 3)


def test_dag_gap():
    full = {"A": res("A", [1, 0]), "B": res("B", [1]), "C": res("C", [1, 1])}
    gated = {"A": res("A", [1, 0]), "B": res("B", [], "skipped"), "C": res("C", [1, 1])}
    f = round_metrics(SHAPE, [full])[0].task_pass_rate     # B + C = 0.8
    g = round_metrics(SHAPE, [gated])[0].task_pass_rate    # C = 0.5
    assert dag_gap(f, g) == pytest.approx(0.3)


def test_by_type():
    out = by_type(TASK, {"A", "C"})
    assert out == {"presence": (1.0, 1), "functionality": (0.0, 1), "robustness": (1.0, 1)}


def test_normal_ci_by_hand():
    # mean 0.4, s = sqrt((0.04 + 0 + 0.04) / 2) = 0.2, half = 1.959964 · 0.2 / √3 = 0.226317
    e = mean_ci([0.2, 0.4, 0.6])
    assert e.mean == pytest.approx(0.4)
    assert e.half_width == pytest.approx(0.226317, abs=1e-6)
    assert (e.low, e.high) == pytest.approx((0.173683, 0.626317), abs=1e-6)


def test_ci_edge_cases():
    assert math.isnan(mean_ci([0.5]).half_width)
    assert mean_ci([1.0, 1.0, 1.0]).half_width == 0.0
    assert mean_ci([]).n == 0


def test_bootstrap_ci_is_reproducible_and_sane():
    vals = [0.1, 0.5, 0.9, 0.3, 0.7, 0.6, 0.2, 0.8]
    a = mean_ci(vals, method="bootstrap", seed=1)
    b = mean_ci(vals, method="bootstrap", seed=1)
    assert a == b
    assert a.low < a.mean < a.high
    normal = mean_ci(vals)
    assert abs(a.half_width - normal.half_width) < 0.1
    with pytest.raises(ValueError):
        mean_ci(vals, method="magic")
