"""WebGen-Bench as a benchmark source (issue #33, optional item): a fixture in the format of its
``data/test.jsonl`` (tests/fixtures/webgen) imports as one task per request, each UI test case
an evaluation task judged by the LLM UI agent; ``asuka eval`` with ``--ui browser-use`` drives
real Chromium and takes the scripted model's verdicts (the model is the local server, at the
wire level)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.benchmark.loading import load_bench
from asuka.benchmark.webgen import import_webgen
from asuka.cli import app
from tests.builders import FIXTURES
from tests.llm_server import (
    Recorded,
    ScriptedLLMServer,
    agent_step,
    browser_state,
    done_action,
    llm_server,  # noqa: F401 - fixture
)

FIXTURE = FIXTURES / "webgen"
runner = CliRunner()


def test_each_request_is_a_task_and_a_bad_line_is_left_out_with_its_reason(tmp_path) -> None:
    out = import_webgen(FIXTURE / "test.jsonl", tmp_path)
    assert [(i.task_id, i.test_cases, i.category) for i in out.imported] == [
        ("wg-000001", 2, "utility"), ("wg-000003", 1, "e-commerce")]
    reasons = dict(out.left_out)
    assert set(reasons) == {f"{FIXTURE / 'test.jsonl'}:1", f"{FIXTURE / 'test.jsonl'}:3"}
    assert reasons[f"{FIXTURE / 'test.jsonl'}:1"].startswith("not JSON")
    assert "`ui_instruct` must be a non-empty list" in reasons[f"{FIXTURE / 'test.jsonl'}:3"]
    (bt,), problems = load_bench(tmp_path, ["wg-000001"])
    assert problems == []
    task = bt.task
    assert task.query.startswith("Please implement a website for tracking reading goals.")
    assert task.reference is None and task.origin == "webgen-bench:000001"
    assert [(e.id, e.type, [c.id for c in e.criteria]) for e in task.eval_tasks] == [
        ("t0", "functionality", ["t0.c0"]), ("t1", "presence", ["t1.c0"])]
    assert task.eval_tasks[0].criteria[0].text == (
        "Add a book titled 'Dune' with 412 pages. Expected: The book 'Dune' appears in the "
        "reading list with 412 pages.")
    assert all(c.check is None for e in task.eval_tasks for c in e.criteria)
    assert bt.dag.edges == []
    # only the lines asked for; an id no line has is said
    res = runner.invoke(app, ["import", "webgen-bench", str(FIXTURE / "test.jsonl"), "--out",
                              str(tmp_path / "b2"), "--id", "000003", "--id", "424242"])
    text = " ".join(res.output.split())
    assert res.exit_code == 0, res.output
    assert "wg-000003: 1 UI test case (e-commerce)" in text
    assert "left out 424242: no line of" in text  # and the line that is not JSON, whatever id
    assert "imported 1 task(s), 1 test cases, left out 2" in text


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_the_llm_ui_agent_judges_each_test_case_on_the_served_app(
        llm_server: ScriptedLLMServer, tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The app adds books and has no chart: the model, shown the page, passes the first test
    case and fails the second; the scripted UI agent alone calls both unverifiable."""
    bench = tmp_path / "bench"
    import_webgen(FIXTURE / "test.jsonl", bench, ["000001"])
    seen: list[str] = []

    def judge(rec: Recorded):
        state = browser_state(rec)
        seen.append(state)
        if "chart" in json.dumps(rec.body).lower() and "pages read per week" in json.dumps(
                rec.body).lower():
            return agent_step(done_action(False, "there is no chart on the page"))(rec)
        ok = "Add book" in state
        return agent_step(done_action(ok, "a form adds a book with its pages" if ok
                                      else "no way to add a book"))(rec)

    llm_server.script(*[judge] * 20)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    res = runner.invoke(app, ["eval", str(FIXTURE / "app"), "--task", "wg-000001", "--bench",
                              str(bench), "--out", str(tmp_path / "ev"), "--ui", "browser-use",
                              "--ui-model", "openai:fake-model"])
    assert res.exit_code == 0, res.output
    verdicts = {v["criterion_id"]: v for r in _results(tmp_path / "ev") for v in r["verdicts"]}
    assert {k: (v["status"], v["backend"]) for k, v in verdicts.items()} == {
        "t0.c0": ("pass", "browser-use"), "t1.c0": ("fail", "browser-use")}
    assert seen and all("Reading goals" in s for s in seen)  # judged on the served page
    res = runner.invoke(app, ["eval", str(FIXTURE / "app"), "--task", "wg-000001", "--bench",
                              str(bench), "--out", str(tmp_path / "ev2")])
    verdicts = {v["criterion_id"]: v["status"]
                for r in _results(tmp_path / "ev2") for v in r["verdicts"]}
    assert verdicts == {"t0.c0": "unverifiable", "t1.c0": "unverifiable"}


def _results(out: Path) -> list[dict]:
    (rec,) = list(out.rglob("round-1/verdicts.json"))
    return list(json.loads(rec.read_text())["results"].values())
