"""The simulated code agent learns exactly as its profile says (issue 13, item 6).

No browser: ``SimCodeAgent.run_round`` is driven directly with RoundContexts and feedback rendered
by the template user from hand-built evaluations, and the feature states it records in its result
meta are counted over many seeds. The seeds are fixed, so the binomial tests below are
deterministic (they never flake); the bound, two-sided p >= 0.001 (about 0.05 family-wise over
the ~50 rates checked), is what a calibrated simulator passes and a mis-wired rate (another
profile field, another type's rate) fails by many standard errors.

These rates are the simulator's *inputs*: its learning curves restate its profile, they are not
findings about code agents (see docs/simulation.md, "What simulated numbers are")."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from scipy.stats import binomtest

from asuka.benchmark.loading import load_tasks
from asuka.codeagents.base import RoundContext
from asuka.codeagents.sim import SimCodeAgent, failing_tasks, load_profile, named_tasks
from asuka.schema import BenchTask, DagSpec, EvalTaskResult, RoundEvaluation, Task, Verdict
from asuka.users.template import TemplateUser

TYPES = ("presence", "functionality", "robustness")
PER_TYPE = 6                      # features per evaluation-task type
PROFILES = ("weak", "medium", "strong", "perfect")
ALPHA = 1e-3


def _synthetic(root: Path) -> BenchTask:
    """18 features, one evaluation task each (so naming is unambiguous); even-numbered ones have
    a broken variant."""
    features, eval_tasks, blocks = {}, [], []
    for t in TYPES:
        for i in range(PER_TYPE):
            name, et = f"{t[0]}{i}", f"e-{t[0]}{i}"
            features[name] = {"tasks": [et], "type": t}
            eval_tasks.append({"id": et, "summary": f"{t} feature {i}", "type": t, "weight": 2,
                               "criteria": [{"id": f"{et}.c0", "text": f"{name} works."}]})
            blocks.append(f"<!-- @feature {name} --><p id='{name}'>{name}</p><!-- @end {name} -->")
            if i % 2 == 0:
                blocks.append(f"<!-- @broken {name} --><p id='{name}'>?</p><!-- @end {name} -->")
    ref = root / "reference"
    ref.mkdir(parents=True)
    (ref / "index.html").write_text("<!doctype html>\n" + "\n".join(blocks) + "\n")
    task = Task.model_validate({"id": "sim-probe", "title": "Sim probe", "category": "utility",
                                "query": "Make a page.", "features": features,
                                "eval_tasks": eval_tasks})
    return BenchTask(task=task, prd="# The full PRD", dag=DagSpec(), root=str(root))


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> BenchTask:
    return _synthetic(tmp_path_factory.mktemp("sim-probe"))


def evaluation_for(task: Task, states: dict[str, str], skipped: set[str] = frozenset()
                   ) -> RoundEvaluation:
    """What the browser would report on an app with these feature states: the tasks the states
    make fail are failed, unless the DAG skipped them (then they never reach feedback)."""
    failing = failing_tasks(task, states)
    results = {}
    for et in task.eval_tasks:
        if et.id in skipped:
            results[et.id] = EvalTaskResult(eval_task_id=et.id, status="skipped",
                                            skipped_because=["parent"])
            continue
        status = "fail" if et.id in failing else "pass"
        results[et.id] = EvalTaskResult(
            eval_task_id=et.id, status="failed" if et.id in failing else "passed",
            verdicts=[Verdict(criterion_id=c.id, status=status,
                              reason="not there" if status == "fail" else "")
                      for c in et.criteria])
    return RoundEvaluation(protocol="dag", threshold=0.5, results=results)


def feedback_for(task: Task, states: dict[str, str], skipped: set[str] = frozenset(),
                 verbosity: str = "low") -> str:
    return TemplateUser(verbosity).render(task, evaluation_for(task, states, skipped))


async def play(agent: SimCodeAgent, bt: BenchTask, ws: Path, seed: int, *, round: int = 2,
               states: dict[str, str] | None = None, feedback: str | None = None,
               start: str = "query") -> dict[str, str]:
    ctx = RoundContext(bench_task=bt, round=round, start=start, workspace=ws, seed=seed,
                       feedback=feedback,
                       prd=bt.prd if (round == 1 and start == "prd") else None,
                       previous_meta={"features": states} if states is not None else None)
    res = await agent.run_round(ctx)
    assert res.ok, res.error
    assert sorted(res.meta["expected_failing"]) == sorted(
        failing_tasks(bt.task, res.meta["features"]))
    return res.meta["features"]


def assert_rate(k: int, n: int, p: float, what: str) -> None:
    if p in (0.0, 1.0):  # a certain event: exact
        assert k == round(n * p), f"{what}: {k}/{n}, profile says {p}"
        return
    res = binomtest(k, n, p)
    assert res.pvalue >= ALPHA, (f"{what}: {k}/{n} = {k / n:.3f}, profile says {p} "
                                 f"(binomial p = {res.pvalue:.2g})")


def ftype(bt: BenchTask, name: str) -> str:
    return bt.task.feature_type(name)


@pytest.mark.parametrize("profile", PROFILES)
async def test_named_failures_fixed_at_the_profile_rate_unnamed_never(
        bench: BenchTask, tmp_path: Path, profile: str) -> None:
    """(a) and (b): every feature defective; the first half of each type's failures executed
    and named in the feedback, the second half skipped by the DAG (so never named)."""
    prof = load_profile(profile)
    task = bench.task
    states = {n: ("broken" if int(n[1:]) % 2 == 0 else "missing") for n in task.features}
    unnamed = {n for n in task.features if int(n[1:]) >= PER_TYPE // 2}
    skipped = {task.features[n].tasks[0] for n in unnamed}
    feedback = feedback_for(task, states, skipped)
    assert named_tasks(task, feedback) == failing_tasks(task, states) - skipped
    agent = SimCodeAgent(profile)
    fixed, tried = Counter(), Counter()
    seeds = 400
    for seed in range(seeds):
        after = await play(agent, bench, tmp_path / "ws", seed, states=states, feedback=feedback)
        for name, state in after.items():
            if name in unnamed:
                assert state == states[name], f"seed {seed}: unnamed {name} changed to {state}"
            else:
                tried[ftype(bench, name)] += 1
                fixed[ftype(bench, name)] += state == "ok"
    for t in TYPES:
        assert tried[t] == seeds * (PER_TYPE // 2)
        assert_rate(fixed[t], tried[t], prof.for_type(t).fix, f"{profile} {t} fix")


@pytest.mark.parametrize("verbosity", ["low", "medium", "high"])
async def test_every_verbosity_names_the_same_failures(bench: BenchTask, tmp_path: Path,
                                                       verbosity: str) -> None:
    states = dict.fromkeys(bench.task.features, "ok") | {"p0": "missing", "r3": "missing"}
    fb = feedback_for(bench.task, states, verbosity=verbosity)
    assert named_tasks(bench.task, fb) == {"e-p0", "e-r3"}
    after = await play(SimCodeAgent("perfect"), bench, tmp_path / "ws", 0, states=states,
                       feedback=fb)
    assert set(after.values()) == {"ok"}


@pytest.mark.parametrize("profile", PROFILES)
async def test_regressions_at_the_profile_rate(bench: BenchTask, tmp_path: Path,
                                               profile: str) -> None:
    """(c): one defective feature named, the 17 others ok: each ok feature regresses at its
    type's rate, into its broken variant at the profile's broken share where it has one."""
    prof = load_profile(profile)
    task = bench.task
    states = dict.fromkeys(task.features, "ok") | {"p0": "missing"}
    feedback = feedback_for(task, states)
    agent = SimCodeAgent(profile)
    ok_trials, regressed = Counter(), Counter()
    variant_regressions, broken = Counter(), Counter()
    seeds = 600
    for seed in range(seeds):
        after = await play(agent, bench, tmp_path / "ws", seed, states=states, feedback=feedback)
        for name in task.features:
            if name == "p0":
                continue
            t = ftype(bench, name)
            ok_trials[t] += 1
            if after[name] != "ok":
                regressed[t] += 1
                if int(name[1:]) % 2 == 0:  # has a broken variant
                    variant_regressions[t] += 1
                    broken[t] += after[name] == "broken"
                else:
                    assert after[name] == "missing"
    for t in TYPES:
        p = prof.for_type(t)
        assert_rate(regressed[t], ok_trials[t], p.regress, f"{profile} {t} regress")
        if variant_regressions[t]:
            assert_rate(broken[t], variant_regressions[t], p.broken, f"{profile} {t} broken")


async def test_nothing_changes_when_the_feedback_names_nothing(bench: BenchTask,
                                                              tmp_path: Path) -> None:
    """No named failure, no edit: neither fixes nor regressions (the weak profile regresses
    most). The feedback here is what the template user writes when everything executed passed
    while the defective features' tasks were all skipped."""
    task = bench.task
    states = dict.fromkeys(task.features, "ok") | {"f1": "missing", "r2": "broken"}
    skipped = failing_tasks(task, states)
    feedback = feedback_for(task, states, skipped)
    assert named_tasks(task, feedback) == set()
    agent = SimCodeAgent("weak")
    for seed in range(300):
        after = await play(agent, bench, tmp_path / "ws", seed, states=states, feedback=feedback)
        assert after == states, f"seed {seed}"


@pytest.mark.parametrize("profile", PROFILES)
async def test_prd_start_builds_more_in_round_1(bench: BenchTask, tmp_path: Path,
                                                profile: str) -> None:
    """(d): round 1 gets each feature right at the profile's query (or PRD) rate, so the PRD
    start implements more than the query start by construction."""
    prof = load_profile(profile)
    agent = SimCodeAgent(profile)
    ok = {"query": Counter(), "prd": Counter()}
    seeds = 400
    for start in ("query", "prd"):
        for seed in range(seeds):
            states = await play(agent, bench, tmp_path / "ws", seed, round=1, start=start)
            for name, state in states.items():
                ok[start][ftype(bench, name)] += state == "ok"
    n = seeds * PER_TYPE
    for t in TYPES:
        p = prof.for_type(t)
        assert_rate(ok["query"][t], n, p.query, f"{profile} {t} query")
        assert_rate(ok["prd"][t], n, p.prd, f"{profile} {t} prd")
        assert ok["prd"][t] >= ok["query"][t]
    if profile == "perfect":
        assert ok["prd"] == ok["query"]
    else:
        assert sum(ok["prd"].values()) > sum(ok["query"].values())


async def test_round_1_is_reproducible_and_seeded(bench: BenchTask, tmp_path: Path) -> None:
    agent = SimCodeAgent("medium")
    a = await play(agent, bench, tmp_path / "a", 3, round=1)
    b = await play(SimCodeAgent("medium"), bench, tmp_path / "b", 3, round=1)
    assert a == b
    assert (tmp_path / "a" / "index.html").read_text() == (tmp_path / "b" / "index.html"
                                                           ).read_text()
    others = [await play(agent, bench, tmp_path / "c", s, round=1) for s in range(4, 12)]
    assert any(o != a for o in others)


async def test_the_benchmark_feature_map_decides_what_is_attempted(tmp_path: Path) -> None:
    """On a bundled task with overlapping features: feedback naming an evaluation task makes the
    simulator attempt every defective feature that makes that task fail, and no other. (The
    mapping from feedback to code is the benchmark's own feature map, which a real agent does
    not have.) With the perfect profile every attempt succeeds."""
    bt = load_tasks(ids=["loan-calculator"])[0]
    task = bt.task
    assert task.features["chart"].broken == ["t9"]  # the broken chart fails t9 only
    states = dict.fromkeys(task.features, "ok") | {
        "chart": "broken", "chart-tooltip": "missing", "payoff-date": "missing",
        "csv-export": "missing"}
    # chart-tooltip fails t10, payoff-date t3/t7/t12, csv-export t13; only t10 and t3 executed
    # (the rest skipped), so chart (t9) and csv-export (t13) are never named
    skipped = failing_tasks(task, states) - {"t10", "t3"}
    feedback = feedback_for(task, states, skipped)
    assert named_tasks(task, feedback) == {"t10", "t3"}
    after = await play(SimCodeAgent("perfect"), bt, tmp_path / "ws", 0, states=states,
                       feedback=feedback)
    assert after["chart-tooltip"] == after["payoff-date"] == "ok"
    assert after["chart"] == "broken" and after["csv-export"] == "missing"
