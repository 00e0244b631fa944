"""Repeated evaluation passes with a criterion-level majority vote (asuka.protocol.passes, issue
#17 item 4): the vote and the statistics on hand-made records, and three passes of the real
scripted agent on a page that answers differently every other time."""

from __future__ import annotations

import copy
import math
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.benchmark.loading import load_bench
from asuka.cli import app
from asuka.log.scoring import Shape
from asuka.log.store import RunStore
from asuka.protocol.passes import _combine, majority_status, pass_statistics
from asuka.report.summary import summarize
from asuka.schema import EvalTask, EvalTaskResult, Verdict
from tests.builders import TASK, write_bench
from tests.conftest import QuietHandler

runner = CliRunner()


def test_the_majority_vote() -> None:
    assert majority_status(["pass", "pass", "fail"]) == "pass"
    assert majority_status(["pass", "fail", "fail"]) == "fail"
    assert majority_status(["pass", "pass", "fail", "fail"]) == "fail"   # no majority of passes
    assert majority_status(["pass", "not_found", "error"]) == "not_found"  # tie: by severity
    assert majority_status(["error", "error", "pass"]) == "error"
    et = EvalTask.model_validate({"id": "t", "summary": "s", "type": "presence", "weight": 1,
                                  "criteria": [{"id": "t.c0", "text": "a"},
                                               {"id": "t.c1", "text": "b"}]})

    def run(a: str, b: str) -> EvalTaskResult:
        return EvalTaskResult(eval_task_id="t", status="failed", verdicts=[
            Verdict(criterion_id="t.c0", status=a, reason=f"saw {a}"),
            Verdict(criterion_id="t.c1", status=b)])

    got = _combine(et, [run("pass", "pass"), run("fail", "pass"), run("pass", "pass")])
    assert got.status == "passed" and [v.status for v in got.verdicts] == ["pass", "pass"]
    assert got.passes[1] == {"t.c0": "fail", "t.c1": "pass"}
    got = _combine(et, [run("fail", "pass"), run("fail", "pass"), run("pass", "pass")])
    assert got.status == "failed" and got.verdicts[0].reason == "saw fail"


def test_pass_statistics_by_hand(tmp_path: Path) -> None:
    (bt,), _ = load_bench(write_bench(tmp_path, copy.deepcopy(TASK)), ["mini"])
    shape = Shape.of(bt.task)  # weights t0 2, t1 3, t2 4; criteria 2, 1, 1
    passes = [{"t0.c0": "pass", "t0.c1": "pass"}, {"t0.c0": "pass", "t0.c1": "fail"},
              {"t0.c0": "pass", "t0.c1": "pass"}]
    results = {"t0": EvalTaskResult(eval_task_id="t0", status="passed", passes=passes,
                                    verdicts=[Verdict(criterion_id="t0.c0", status="pass"),
                                              Verdict(criterion_id="t0.c1", status="pass")])}
    s = pass_statistics(shape, results)
    # per pass: t0 complete = 2/9, half = 1/9
    assert s["pass_rates"] == pytest.approx([2 / 9, 1 / 9, 2 / 9])
    assert s["sd"] == pytest.approx(statistics.stdev([2 / 9, 1 / 9, 2 / 9]))
    assert s["cv"] == pytest.approx(s["sd"] / (5 / 27))
    assert s["disagreeing"] == 0.5 and s["flip_rate"] == pytest.approx((0 + 2 / 3) / 2)
    assert s["single"] == pytest.approx(2 / 9) and s["majority"] == pytest.approx(2 / 9)
    assert pass_statistics(shape, {"t0": EvalTaskResult(eval_task_id="t0",
                                                         status="passed")}) is None


class Flipping(QuietHandler):
    """``/flip`` says ok, bad, ok, ... on successive loads; everything else is static."""

    count = 0

    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/flip"):
            Flipping.count += 1
            word = "ok" if Flipping.count % 2 else "bad"
            self.send_html(f"<!doctype html><h1>Flip</h1><p id='v'>{word}</p>".encode())
            return
        super().do_GET()


@pytest.mark.browser
def test_three_passes_of_a_real_evaluation(tmp_path: Path, static_server) -> None:
    task = copy.deepcopy(TASK)
    task["eval_tasks"] = [{"id": "t0", "summary": "s", "type": "presence", "weight": 2,
                           "criteria": [
        {"id": "t0.c0", "text": "It says ok.",
         "check": [{"goto": "/flip"}, {"expect_text": {"css": "#v", "value": "ok"}}]},
        {"id": "t0.c1", "text": "A heading.",
         "check": [{"goto": "/"}, {"expect_visible": {"role": "heading"}}]}]}]
    bench = write_bench(tmp_path / "bench", task, dag={"edges": []})
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html><h1>Home</h1>")
    Flipping.count = 0
    server = static_server(site, Flipping)
    res = runner.invoke(app, ["eval", "--url", server.url + "/", "--task", "mini", "--bench",
                              str(bench), "--out", str(tmp_path / "runs"), "--run-id", "p",
                              "--eval-passes", "3"])
    assert res.exit_code == 0, res.output
    assert Flipping.count == 3  # one load of /flip per pass
    store = RunStore(tmp_path / "runs" / "p")
    (cell,) = store.cells()
    result = store.load_round(cell, 1).evaluation.results["t0"]
    assert [p["t0.c0"] for p in result.passes] == ["pass", "fail", "pass"]
    assert result.status == "passed"  # the majority
    (bt,), _ = load_bench(bench, ["mini"])
    summary = summarize(store, {"mini": bt})
    row = summary["cells"][0]["rounds"][0]["passes"]
    assert row["passes"] == 3 and row["disagreeing"] == 0.5
    assert row["pass_rates"] == [1.0, 0.5, 1.0]
    assert row["cv"] == pytest.approx(statistics.stdev([1, .5, 1]) / (2.5 / 3))
    group = summary["groups"][0]["passes"]
    assert group["flip_rate"]["mean"] == pytest.approx(1 / 3)
    assert not math.isnan(group["sd"]["mean"])
    rep = runner.invoke(app, ["report", str(store.root), "--bench", str(bench), "-f", "md",
                              "--out", str(tmp_path / "rep")])
    assert rep.exit_code == 0, rep.output
    assert "Evaluation passes" in (tmp_path / "rep" / "report.md").read_text()
