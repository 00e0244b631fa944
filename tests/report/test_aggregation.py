"""One aggregation: summary.json, the console table and `asuka report` agree number for number.

The run is built by hand in a RunStore (no browser): two tasks x two seeds x two verbosities,
plus a killed cell (round 1 of 2 done, no result.json), a failed cell (failed.json), a cell that
stopped early, a round with a failed deploy and rounds with harness/judge errors."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from asuka.benchmark.loading import load_tasks
from asuka.cli import app
from asuka.log.scoring import Shape, mean_ci, round_metrics, status_counts
from asuka.log.store import RunStore, read_json
from asuka.report.aggregate import SIMULATED_NOTE
from asuka.report.summary import summarize, summary_table, summary_view
from asuka.schema import BenchTask
from tests.builders import ALL, BUDGET, TASKS, cell_spec, copy_bench, evaluation, record_cell

runner = CliRunner()


# (task, seed, verbosity) -> passed tasks per round; round 2 of a one-round list: stopped early
OUTCOMES = {
    ("mini-todo", 0, "low"): [{"t0"}, {"t0", "t1"}],
    ("mini-todo", 1, "low"): [{"t0", "t3"}, {"t0", "t1", "t3"}],
    ("mini-todo-2", 0, "low"): [set(), {"t0"}],
    ("mini-todo-2", 1, "low"): [{"t0"}, {"t0", "t1", "t2"}],
    ("mini-todo", 0, "high"): [ALL],                       # stopped early after round 1
    ("mini-todo", 1, "high"): [{"t0", "t1"}, {"t0", "t1", "t2", "t3"}],
    ("mini-todo-2", 0, "high"): [None, {"t0", "t3"}],      # round 1: the deploy failed
    ("mini-todo-2", 1, "high"): [{"t0"}, {"t0", "t4"}],
}
ERRORS = {("mini-todo-2", 1, "high"): {"t1", "t3"}}       # undecided in both rounds


def build_run(root: Path, tasks: dict[str, BenchTask]) -> dict[str, str]:
    """The grid; returns the ids of the special cells."""
    store = RunStore(root)
    for (task, seed, verb), rounds in OUTCOMES.items():
        bt, errs = tasks[task], ERRORS.get((task, seed, verb), set())
        evs = [evaluation(bt, p, errs) if p is not None else evaluation(bt, set(), deploy_ok=False)
               for p in rounds]
        record_cell(store, bt, cell_spec(task, seed, verb), evs,
                    stopped_early=len(rounds) < BUDGET)
    # killed after round 1 (everything passed there: padding or scoring it would show)
    killed = record_cell(store, tasks["mini-todo"], cell_spec("mini-todo", 2, "low"),
                         [evaluation(tasks["mini-todo"], ALL)], finished=False)
    failed_spec = cell_spec("mini-todo-2", 2, "low")
    data = {**failed_spec.model_dump(), "label": failed_spec.agent_label}
    store.start_cell(failed_spec.cell_id, data)
    store.fail_cell(failed_spec.cell_id, "OPENAI_API_KEY is not set", kind="setup")
    return {"killed": killed, "failed": failed_spec.cell_id}


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    base = tmp_path_factory.mktemp("agg")
    bench = copy_bench(base / "bench")
    tasks = {t.id: t for t in load_tasks(bench, list(TASKS))}
    run_dir = base / "runs" / "grid"
    special = build_run(run_dir, tasks)
    summary = summarize(RunStore(run_dir), tasks)
    return bench, tasks, run_dir, special, summary


# ------------------------------------------------------------ the expected numbers, here

def expected(tasks: dict[str, BenchTask], verbosity: str, metric: str, k: int):
    """Seeds of a task averaged first, then the mean and CI over the two projects."""
    per_task = defaultdict(list)
    for (task, seed, verb), rounds in OUTCOMES.items():
        if verb != verbosity:
            continue
        bt = tasks[task]
        errs = ERRORS.get((task, seed, verb), set())
        evs = [evaluation(bt, p, errs) if p is not None else evaluation(bt, set(), deploy_ok=False)
               for p in rounds]
        gated = [e.results for e in evs]
        gated += gated[-1:] * (BUDGET - len(gated))       # stopped early: carried over
        per_task[task].append(getattr(round_metrics(Shape.of(bt.task), gated)[k], metric))
    return mean_ci([sum(v) / len(v) for _, v in sorted(per_task.items())])


def _close(got, want: float) -> None:
    if want is None or math.isnan(want):
        assert got in (None, "", "nan") or math.isnan(float(got)), got
    else:
        assert float(got) == pytest.approx(want, abs=1e-12), (got, want)


def _csv(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


# ------------------------------------------------------------ the tests

def test_groups_projects_and_cell_states(grid):
    _, tasks, _, special, summary = grid
    groups = {g["verbosity"]: g for g in summary["groups"]}
    assert set(groups) == {"low", "high"}                  # two verbosities, two groups
    assert summary["varying"] == ["user_options.verbosity"]
    for verb, g in groups.items():
        assert g["n"] == 2 and g["tasks"] == list(TASKS)   # n counts projects, not seeds
        assert g["n_cells"] == 4 and g["simulated"]
        for k in range(BUDGET):
            for metric in ("task_pass_rate", "criteria_pass_rate", "completion"):
                want = expected(tasks, verb, metric, k)
                got = g["rounds"][k][f"{metric}.cumulative"]
                _close(got["mean"], want.mean)
                _close(got["half_width"], want.half_width)
                assert got["n"] == 2
    # the killed cell: neither padded nor scored, listed as unfinished
    scored = {c["cell_id"] for c in summary["cells"]}
    assert special["killed"] not in scored and special["failed"] not in scored
    assert summary["unfinished_cells"] == [{"cell_id": special["killed"], "task": "mini-todo",
                                            "rounds_done": 1, "budget": BUDGET}]
    (failed,) = summary["failed_cells"]
    assert failed["cell_id"] == special["failed"] and failed["kind"] == "setup"
    assert "OPENAI_API_KEY" in failed["reason"]
    # the early stop is padded and marked
    early = next(c for c in summary["cells"] if c["stopped_early"])
    assert [r["carried_over"] for r in early["rounds"]] == [False, True]
    assert groups["high"]["rounds"][1]["cells_run"] == 3
    assert summary["scoring_rules"] and SIMULATED_NOTE in summary["notes"]


def test_errors_and_cost_per_round(grid):
    _, tasks, _, _, summary = grid
    high = next(g for g in summary["groups"] if g["verbosity"] == "high")
    r1, r2 = high["rounds"]
    # round 1: one failed deploy; the errored cell has 2 tasks, each with 1 undecided criterion
    assert r1["errors"] == {"tasks": 2, "criteria": 2, "deploy_failures": 1, "not_found": 0}
    assert r2["errors"] == {"tasks": 2, "criteria": 2, "deploy_failures": 0, "not_found": 0}
    n_crit = sum(len(et.criteria) for et in tasks["mini-todo"].task.eval_tasks)
    # the failed deploy executed nothing; the carried-over round costs nothing
    assert r1["cost"]["criteria_executed"] == 3 * n_crit
    assert r2["cost"]["criteria_executed"] == 3 * n_crit
    assert high["errors"] == {"tasks": 4, "criteria": 4, "deploy_failures": 1, "not_found": 0}
    bt = tasks["mini-todo"]
    assert status_counts(evaluation(bt, set(), deploy_ok=False).results)["executed"] == 0
    assert status_counts(evaluation(bt, set(), deploy_ok=False).results)[
        "criteria_executed"] == 0


def test_summary_console_and_report_agree(grid, tmp_path):
    bench, _, run_dir, special, summary = grid
    assert read_json(run_dir / "summary.json") == json.loads(json.dumps(summary))
    out = tmp_path / "rep"
    res = runner.invoke(app, ["report", str(run_dir), "--bench", str(bench), "--format",
                              "md,csv", "--out", str(out)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    groups = {g["verbosity"]: g for g in summary["groups"]}
    t1 = {r["verbosity"]: r for r in _csv(out / "table1.csv")}
    assert set(t1) == {"low", "high"}
    for verb, g in groups.items():
        row = t1[verb]
        assert int(row["n"]) == g["n"] == 2 and int(row["cells"]) == g["n_cells"]
        for k in range(BUDGET):
            est = g["rounds"][k]["task_pass_rate.cumulative"]
            _close(row[f"R{k + 1}"], est["mean"])
            _close(row[f"R{k + 1}_pm"], est["half_width"])
        _close(row["PCR"], g["rounds"][-1]["completion.cumulative"]["mean"])
        _close(row["Criteria"], g["rounds"][-1]["criteria_pass_rate.cumulative"]["mean"])
        _close(row["Criteria_pm"], g["rounds"][-1]["criteria_pass_rate.cumulative"]
               ["half_width"])
        assert [int(row[c]) for c in ("error tasks", "error criteria", "deploy failures")] \
            == [g["errors"]["tasks"], g["errors"]["criteria"], g["errors"]["deploy_failures"]]
    per_round = [r for r in _csv(out / "per_round.csv")]
    for r in per_round:
        g = groups[r["verbosity"]]["rounds"][int(r["round"]) - 1]
        assert int(r["error tasks"]) == g["errors"]["tasks"]
        assert int(r["deploy failures"]) == g["errors"]["deploy_failures"]
        _close(r["task same-artifact"], g["task_pass_rate.same-artifact"]["mean"])
    t3 = {r["verbosity"]: r for r in _csv(out / "table3.csv")}
    for verb, g in groups.items():
        assert int(t3[verb]["criteria executed"]) == g["cost"]["criteria_executed"]
        _close(t3[verb]["Fix R2 task"], g["rounds"][1]["task_fix_rate.cumulative"]["mean"])

    # the rendered tables: the console's Table 1 rows equal report.md's, cell for cell
    md = (out / "report.md").read_text()
    md_rows = {}
    for line in md.split("### Main results")[1].split("\n\n")[1].splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        md_rows[cells[1]] = cells
    console = Console(record=True, width=80)
    console.print(summary_view(summary))
    text = console.export_text()
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80 and "…" not in text
    for verb, cells in md_rows.items():
        agent, _, n, n_cells, pcr, r1, r2, crit, et, ec, dd, nf = cells
        at = next(i for i, x in enumerate(lines) if f" {verb} " in x and agent in x)
        line, under = lines[at], lines[at + 1]  # a rate's half-width is printed under it
        for value in (n, f"{et}/{ec}/{dd}", nf):
            assert f" {value}" in line, (value, line)
        for rate in (pcr, r1, r2, crit):
            mean, _, half = rate.partition(" ")
            assert f" {mean}" in line and (not half or half in under), (rate, line, under)
    # the footers: unscored cells, the simulated agents' note, the error rule
    assert special["killed"] in text and "Unfinished, not scored (1)" in text
    assert special["failed"] in text and "Failed, not scored (1)" in text
    assert "inputs, not findings" in text and "inputs, not findings" in md
    assert "stay in the denominator" in md and "Cells not scored" in md
    assert special["killed"] in md and special["failed"] in md
    assert "inputs, not findings" in res.output  # the command prints the notes too


def test_report_data_is_the_summary(grid):
    """The report's aggregate and summary.json's groups are the same numbers (one function)."""
    from asuka.report import aggregate, load_run
    from asuka.report.aggregate import aggregate_json

    bench, _, run_dir, _, summary = grid
    agg = aggregate_json(aggregate(load_run(run_dir, bench)))
    assert json.loads(json.dumps(agg["groups"])) == json.loads(json.dumps(summary["groups"]))
    assert agg["unfinished_cells"] == summary["unfinished_cells"]
    assert agg["failed_cells"] == summary["failed_cells"]


def test_contract_metrics_join_the_summary_for_tasks_that_declare_one(tmp_path):
    """JoyFrontBench's ATS / CTPR / ASR per round, on the round's own artifact, seeds as run
    slots then projects macro-averaged; a group without contracts gets none of these keys."""
    import re

    bench = copy_bench(tmp_path / "bench")
    y = bench / "tasks" / "mini-todo" / "task.yaml"
    text = y.read_text()
    # t1 is the core task; its first criterion is mandatory
    text = re.sub(r"(\n  - id: t1\n)", r"\1    core: true\n", text, count=1)
    text = text.replace("      - id: t1.c0\n", "      - id: t1.c0\n        mandatory: true\n", 1)
    y.write_text(text)
    tasks = {bt.id: bt for bt in load_tasks(bench, list(TASKS))}
    assert any(et.core for et in tasks["mini-todo"].task.eval_tasks)
    store = RunStore(tmp_path / "run")
    bt = tasks["mini-todo"]
    # seed 0: t1 fails in round 1 (its first criterion passes, the second fails: A = 0.5),
    # passes in round 2; seed 1: t1 passes in both rounds
    record_cell(store, bt, cell_spec("mini-todo", 0, "low"),
                [evaluation(bt, {"t0"}), evaluation(bt, {"t0", "t1"})])
    record_cell(store, bt, cell_spec("mini-todo", 1, "low"),
                [evaluation(bt, {"t1"}), evaluation(bt, {"t1"})])
    other = tasks["mini-todo-2"]
    record_cell(store, other, cell_spec("mini-todo-2", 0, "low"),
                [evaluation(other, {"t0"}), evaluation(other, ALL)])
    summary = summarize(store, tasks)
    (group,) = summary["groups"]
    r1, r2 = group["rounds"]
    # only mini-todo declares a contract: n = 1 project, its two seeds averaged first
    assert r1["asr.same-artifact"]["mean"] == pytest.approx(0.5)  # (0 + 1) / 2
    assert r1["asr.same-artifact"]["n"] == 1
    assert r2["asr.same-artifact"]["mean"] == pytest.approx(1.0)
    assert r1["ctpr.same-artifact"]["mean"] == pytest.approx(0.5)
    # ATS round 1 (a task not passed keeps its first criterion: t0 has 3, the others 2):
    # seed 0 (1 + 4 * 1/2) / 5 = 0.6, seed 1 (1/3 + 1 + 3 * 1/2) / 5 = 0.5667
    assert r1["ats.same-artifact"]["mean"] == pytest.approx((0.6 + 2.8333333 / 5) / 2)
    shown = summary_table(summary)
    assert [c.header for c in shown.columns][-5:] == ["PCR", "crit", "ASR", "err", "miss"]
    plain = summarize(store, {"mini-todo-2": other})  # mini-todo's cells: not scored
    assert "ASR" not in [c.header for c in summary_table(plain).columns]
    assert all("asr.same-artifact" not in r for g in plain["groups"] for r in g["rounds"])
