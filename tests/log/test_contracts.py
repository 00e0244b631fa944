"""JoyFrontBench's contract metrics (appendix D.1) on hand-computed examples."""

from __future__ import annotations

import pytest

from asuka.log.contracts import (
    TaskContract,
    TaskOutcome,
    capability_scores,
    completion,
    core_task_passes,
    macro,
    mixed_outcomes,
    score_run,
)


def crits(tid: str, n: int) -> tuple[str, ...]:
    return tuple(f"{tid}.c{i}" for i in range(n))


def passing(tid: str, *idx: int) -> TaskOutcome:
    return TaskOutcome(passed=frozenset(f"{tid}.c{i}" for i in idx))


def test_the_q20_case_high_ats_no_success() -> None:
    """JoyFrontBench's Q20: seven tasks, five at 100 %, two at 2/3; the two failures are
    mandatory criteria of two of the four core tasks: ATS 90.48 %, C = 50 %, S = 0."""
    contracts, outcomes = [], {}
    for i in range(7):
        tid = f"t{i}"
        core = i < 4
        mandatory = frozenset({f"{tid}.c2"}) if core else frozenset()
        contracts.append(TaskContract(tid, crits(tid, 3), mandatory, core=core))
        outcomes[tid] = passing(tid, 0, 1) if i in (2, 3) else passing(tid, 0, 1, 2)
    s = score_run(contracts, outcomes, operable=True)
    assert s.ats == pytest.approx((5 * 1 + 2 * 2 / 3) / 7)
    assert round(100 * s.ats, 2) == 90.48
    assert s.ctpr == 0.5 and s.success == 0.0
    assert s.core_passed == {"t0": True, "t1": True, "t2": False, "t3": False}


def test_the_q29_case_mandatory_met_completion_short() -> None:
    """Q29: every mandatory criterion passes, but two core tasks reach only 75 % and 50 %,
    below tau = 0.8: no success."""
    a = TaskContract("a", crits("a", 4), frozenset({"a.c0"}), core=True)
    b = TaskContract("b", crits("b", 2), frozenset({"b.c0"}), core=True)
    c = TaskContract("c", crits("c", 1), frozenset({"c.c0"}), core=True)
    s = score_run([a, b, c], {"a": passing("a", 0, 1, 2), "b": passing("b", 0),
                              "c": passing("c", 0)}, operable=True)
    assert s.core_passed == {"a": False, "b": False, "c": True}
    assert s.ctpr == pytest.approx(1 / 3) and s.success == 0.0
    assert s.ats == pytest.approx((0.75 + 0.5 + 1) / 3)


def test_tau_is_inclusive_and_mandatory_is_separate() -> None:
    t = TaskContract("t", crits("t", 5), frozenset({"t.c4"}), core=True)
    assert core_task_passes(t, passing("t", 0, 1, 2, 4), True, tau=0.8)      # exactly 4/5
    assert not core_task_passes(t, passing("t", 0, 1, 2, 3), True, tau=0.8)  # mandatory lost
    assert not core_task_passes(t, passing("t", 0, 1, 2, 3, 4), True, tau=1.01)
    assert core_task_passes(t, passing("t", 0, 4), True, tau=0.4)


def test_an_inoperable_app_keeps_only_source_verifiable_credit() -> None:
    t = TaskContract("t", crits("t", 4), frozenset({"t.c0"}),
                     source_verifiable=frozenset({"t.c0", "t.c1"}), core=True)
    all_pass = passing("t", 0, 1, 2, 3)
    assert completion(t, all_pass, operable=True) == 1.0
    assert completion(t, all_pass, operable=False) == 0.5
    s = score_run([t], {"t": all_pass}, operable=False, tau=0.5)
    assert s.core_passed == {"t": True} and s.ctpr == 1.0
    assert s.success == 0.0  # B = 0: never a success


def test_pairwise_tasks_score_good_same_bad_and_are_never_core() -> None:
    pw = TaskContract("p", mode="pairwise", core=True)
    pt = TaskContract("q", crits("q", 2), core=True)
    runs = [score_run([pw, pt], {"p": TaskOutcome(pairwise=v), "q": passing("q", 0, 1)}, True)
            for v in ("Good", "same", "bad", "invalid")]
    assert [r.task_scores["p"] for r in runs] == [1.0, 0.5, 0.0, 0.0]
    assert all(r.core_passed == {"q": True} for r in runs)
    missing = score_run([pw, pt], {}, True)
    assert missing.ats == 0.0 and missing.success == 0.0


def test_no_core_tasks_leaves_ctpr_and_asr_undefined() -> None:
    s = score_run([TaskContract("t", crits("t", 2))], {"t": passing("t", 0)}, True)
    assert s.ats == 0.5 and s.ctpr is None and s.success is None


def test_macro_average_runs_first_then_problems_and_missing_slots_count_zero() -> None:
    # problem a: slots 1, 0, 1 -> 2/3; problem b: one slot 1 of 3 scheduled -> 1/3
    assert macro({"a": [1, 0, 1], "b": [1]}, slots=3) == pytest.approx(0.5)
    assert macro({"a": [1, 0, 1], "b": [1, None, None]}) == pytest.approx(0.5)
    assert macro({"a": [1, 1], "b": [0]}) == pytest.approx(0.5)  # equal weight per problem
    assert macro({}) is None


def test_capability_scores_weigh_tasks_equally_across_problems() -> None:
    ca = TaskContract("t", crits("t", 2), capability="state management")
    cb = TaskContract("u", crits("u", 1), capability="state management")
    cc = TaskContract("v", crits("v", 1), capability="data exchange")
    runs = {
        "p1": [score_run([ca, cc], {"t": passing("t", 0), "v": passing("v", 0)}, True),
               score_run([ca, cc], {"t": passing("t", 0, 1)}, True)],
        "p2": [score_run([cb], {"u": passing("u", 0)}, True),
               score_run([cb], {}, True)],
    }
    scores = capability_scores(runs, {"p1": [ca, cc], "p2": [cb]})
    # t: (0.5 + 1) / 2 = 0.75; u: (1 + 0) / 2 = 0.5; v: (1 + 0) / 2 = 0.5
    assert scores == {"data exchange": 0.5, "state management": pytest.approx(0.625)}


def test_mixed_outcomes_over_repeated_runs() -> None:
    shares = mixed_outcomes({"a": [1, 1, 1], "b": [0, 1, 0], "c": [0, 0, 0], "d": [1, 0, 1],
                             "e": [None]})
    assert shares == {"all_success": 0.25, "all_failure": 0.25, "mixed": 0.5}


def test_a_round_of_the_loop_scores_from_its_records() -> None:
    from asuka.schema import EvalTaskResult, RoundEvaluation, Task, Verdict

    task = Task.model_validate({
        "id": "x", "title": "x", "category": "utility", "query": "q", "eval_tasks": [
            {"id": "t0", "summary": "s", "type": "functionality", "weight": 1, "core": True,
             "capability": "state-management", "criteria": [
                 {"id": "t0.c0", "text": "a", "mandatory": True}, {"id": "t0.c1", "text": "b"}]},
            {"id": "t1", "summary": "s", "type": "presence", "weight": 1,
             "criteria": [{"id": "t1.c0", "text": "c"}]}]})

    def verdicts(*pairs: tuple[str, str]) -> list[Verdict]:
        return [Verdict(criterion_id=c, status=s) for c, s in pairs]  # type: ignore[arg-type]

    ev = RoundEvaluation(protocol="dag", threshold=0.5, results={
        "t0": EvalTaskResult(eval_task_id="t0", status="failed",
                             verdicts=verdicts(("t0.c0", "pass"), ("t0.c1", "not_found"))),
        "t1": EvalTaskResult(eval_task_id="t1", status="skipped")})
    from asuka.log.contracts import score_round

    s = score_round(task, ev, tau=0.5)
    assert s.task_scores == {"t0": 0.5, "t1": 0.0}
    assert s.core_passed == {"t0": True} and s.success == 1.0 and s.ats == 0.25
    assert score_round(task, ev).success == 0.0                      # tau 0.8: 1/2 is short
    failed = ev.model_copy(update={"deploy_ok": False})
    assert score_round(task, failed, tau=0.5).success == 0.0         # not operable
