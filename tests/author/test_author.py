"""`asuka author new` (issue #20) with the scripted server standing in for the model: every
stage's prompt and answer at the wire, the draft the pipeline writes and `validate` accepts, a
repair turn fed the validator's problems, an answer that does not fit sent back once, and a
re-run from a stage after a person edited an earlier stage's output."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from asuka.cli import app
from tests.builders import FIXTURES
from tests.llm_server import json_reply, llm_server  # noqa: F401 - fixture

runner = CliRunner()
PRD = {"title": "Habit tracker", "prd": "# Habit tracker\n\n## Habits\n- add a habit\n"
       "- tick it off per day\n\n## Rules\n- an empty name shows \"Name is required.\"\n"}
QUERY = {"query": "make me a little habit tracker"}
DATA = {"files": [{"path": "data/habits.json", "content": "[{\"name\": \"Read\"}, {\"name\": \"\"}]",
                   "anomalies": ["a habit with an empty name"]}]}
TASKS = {"eval_tasks": [
    {"id": "t0", "summary": "The habit list is shown", "type": "presence", "weight": 2,
     "criteria": [{"id": "t0.c0", "text": "A list of habits with Read in it."}]},
    {"id": "t1", "summary": "Adding a habit", "type": "functionality", "weight": 4,
     "criteria": [{"id": "t1.c0", "text": "Adding Walk shows it in the list."}]},
    {"id": "t2", "summary": "An empty name is refused", "type": "robustness", "weight": 3,
     "criteria": [{"id": "t2.c0", "text": "Adding an empty name shows \"Name is required.\""}]}]}


def _author(tmp_path: Path, server, *extra: str):
    return runner.invoke(app, ["author", "new", "a habit tracker", "--id", "habits",
                               "--category", "utility", "--model",
                               f"openai:author@{server.openai_base_url}", "--bench",
                               str(tmp_path), *extra])


def test_a_draft_from_every_stage_with_a_repair_turn(tmp_path, llm_server) -> None:
    llm_server.script(json_reply(PRD), json_reply(QUERY),
                      json_reply({"files": [{"path": "habits.json", "content": "[]"}]}),  # no fit
                      json_reply(DATA), json_reply(TASKS),
                      json_reply({"edges": [["t0", "t1"], ["t1", "t9"]]}),  # t9: no such task
                      json_reply({**TASKS, "edges": [["t0", "t1"], ["t1", "t2"]]}))
    res = _author(tmp_path, llm_server)
    assert res.exit_code == 0, res.output
    assert "1 repair turn(s)" in res.output and "draft habits validates" in res.output
    folder = tmp_path / "tasks" / "habits"
    import yaml

    task = yaml.safe_load((folder / "task.yaml").read_text())
    assert task["status"] == "draft" and task["query"] == QUERY["query"]
    assert [et["id"] for et in task["eval_tasks"]] == ["t0", "t1", "t2"]
    assert "a habit with an empty name" in task["notes"]
    assert (folder / "data" / "habits.json").read_text() == DATA["files"][0]["content"]
    assert (tmp_path / "prds" / "habits.md").read_text().startswith("# Habit tracker")
    assert yaml.safe_load((tmp_path / "dags" / "habits.yaml").read_text())["edges"] == [
        ["t0", "t1"], ["t1", "t2"]]
    res = runner.invoke(app, ["validate", "habits", "--bench", str(tmp_path)])
    assert res.exit_code == 0, res.output
    # at the wire: the query stage saw the PRD; the data stage was told why its answer did not
    # fit; the repair turn got the validator's problem
    bodies = [json.dumps(r.body) for r in llm_server.requests]
    assert "tick it off per day" in bodies[1]
    assert "does not fit the required JSON" in bodies[3] and "pattern" in bodies[3]
    assert "t9" in bodies[6] and "dags/habits.yaml" in bodies[6]
    records = sorted(p.name for p in (folder / "authoring").iterdir())
    assert records == ["dag.json", "data.json", "evaluation.json", "prd.json", "query.json",
                       "repair-1.json"]
    data_rec = json.loads((folder / "authoring" / "data.json").read_text())
    assert len(data_rec["replies"]) == 2 and data_rec["usage"]["calls"] == 2

    # a person edits the evaluation stage's output; re-run from the dag stage
    rec = folder / "authoring" / "evaluation.json"
    edited = json.loads(rec.read_text())
    edited["output"]["eval_tasks"][1]["summary"] = "Adding a habit (edited)"
    rec.write_text(json.dumps(edited))
    llm_server.script(json_reply({"edges": [["t0", "t2"]]}))
    res = _author(tmp_path, llm_server, "--from-stage", "dag")
    assert res.exit_code == 0, res.output
    task = yaml.safe_load((folder / "task.yaml").read_text())
    assert task["eval_tasks"][1]["summary"] == "Adding a habit (edited)"
    assert "Adding a habit (edited)" in json.dumps(llm_server.requests[-1].body)


def test_a_draft_that_cannot_be_repaired_stays_invalid(tmp_path, llm_server) -> None:
    cycle = {"edges": [["t0", "t1"], ["t1", "t0"]]}
    llm_server.script(json_reply(PRD), json_reply(QUERY), json_reply(DATA), json_reply(TASKS),
                      json_reply(cycle), json_reply({**TASKS, **cycle}))
    res = _author(tmp_path, llm_server, "--repairs", "1")
    assert res.exit_code == 1
    assert "cycle" in res.output and "still a draft that does not validate" in res.output
    assert (tmp_path / "tasks" / "habits" / "authoring" / "repair-1.json").is_file()
    # an existing task is not overwritten without --from-stage
    res = _author(tmp_path, llm_server)
    assert res.exit_code == 1 and "exists" in res.output


def test_rewritten_queries_are_start_modes(tmp_path, llm_server) -> None:
    """`asuka author rewrite` keeps each requester/granularity variant in queries.yaml; a run
    can start from one (the agent's first prompt is it), and a variant a task lacks is an
    error that names the command to make it."""
    import shutil

    import yaml

    from asuka.benchmark.loading import load_bench
    from asuka.codeagents.base import RoundContext

    bench = tmp_path / "bench"
    shutil.copytree(FIXTURES / "bench", bench)
    llm_server.script(json_reply({"query": "i want a list of things to do"}),
                      json_reply({"query": "Todo list: add, tick, filter; empty titles "
                                           "are refused with an error."}))
    res = runner.invoke(app, ["author", "rewrite", "mini-todo", "--variant", "end-user/abstract",
                              "--variant", "pm/prd", "--model",
                              f"openai:author@{llm_server.openai_base_url}", "--bench", str(bench)])
    assert res.exit_code == 0, res.output
    assert "beginner end user" in json.dumps(llm_server.requests[0].body)
    assert "every feature, rule" in json.dumps(llm_server.requests[1].body)
    queries = yaml.safe_load((bench / "tasks" / "mini-todo" / "queries.yaml").read_text())
    assert queries == {"end-user/abstract": "i want a list of things to do",
                       "pm/prd": "Todo list: add, tick, filter; empty titles are refused "
                                 "with an error."}
    (bt,), problems = load_bench(bench, ["mini-todo"])
    assert problems == [] and bt.task.queries == queries
    ctx = RoundContext(bench_task=bt, round=1, start="end-user/abstract", workspace=tmp_path)
    assert ctx.prompt.startswith("i want a list of things to do")
    res = runner.invoke(app, ["run", "--bench", str(bench), "--task", "mini-todo", "-p", "weak",
                              "--rounds", "1", "--start", "end-user/abstract", "--out",
                              str(tmp_path / "runs"), "--run-id", "v"])
    assert res.exit_code == 0, res.output
    from asuka.log.store import RunStore

    (cell,) = RunStore(tmp_path / "runs" / "v").cells()
    assert "end-user-abstract" in cell
    res = runner.invoke(app, ["run", "--bench", str(bench), "--task", "mini-todo", "-p", "weak",
                              "--rounds", "1", "--start", "designer/functional", "--out",
                              str(tmp_path / "runs")])
    assert res.exit_code == 2
    assert "no query variant 'designer/functional'" in " ".join(res.output.split())


def test_difficulty_tiers_follow_the_fixed_rule() -> None:
    from asuka.benchmark.stats import difficulty
    from asuka.schema import BenchTask, DagSpec, Task

    def task(n: int, pages: int, reloads: int, chain: bool) -> BenchTask:
        ets = [{"id": f"t{i}", "summary": "s", "type": "functionality", "weight": 1,
                "criteria": [{"id": f"t{i}.c0", "text": "x", "check": [
                    {"goto": f"/#/p{i % pages}"}, *([{"reload": None}] if i < reloads else []),
                    {"expect_visible": {"role": "heading"}}]}]} for i in range(n)]
        edges = [(f"t{i}", f"t{i + 1}") for i in range(n - 1)] if chain else []
        return BenchTask(task=Task.model_validate({"id": "x", "title": "x",
                                                   "category": "utility", "query": "q",
                                                   "eval_tasks": ets}),
                         prd="p", dag=DagSpec(edges=edges), root="/nonexistent")

    assert difficulty(task(3, 1, 0, False)) == ("L1", {"views": 1, "depth": 1, "state": 0})
    # 2 views (1), depth 4 (1), 2 state tasks (1): L2
    assert difficulty(task(4, 2, 2, True))[0] == "L2"
    # 4 views (2), depth 6 (2), 5 state tasks (2): L3
    assert difficulty(task(6, 4, 5, True)) == ("L3", {"views": 4, "depth": 6, "state": 5})


# ---------------------------------------------------------------- reference, checks, proof
# The reference stage's code agent writes this app through its tools; its features are marked
# (data-list, add-form, validation with a broken variant).
HABITS_APP = """<!doctype html><html><head><meta charset="utf-8"><title>Habits</title></head>
<body><h1>Habits</h1><ul aria-label="Habits" id="list"></ul>
<!-- @feature add-form -->
<form id="add"><label>Habit name <input id="name"></label><button>Add</button></form>
<p role="alert" id="msg"></p>
<!-- @end add-form -->
<script>
const list = document.getElementById('list');
function show(name) {
  const li = document.createElement('li'); li.textContent = name; list.appendChild(li);
}
/* @feature data-list */
fetch('data/habits.json').then(r => r.json())
  .then(hs => hs.filter(h => h.name).forEach(h => show(h.name)));
/* @end data-list */
/* @feature add-form */
document.getElementById('add').addEventListener('submit', e => {
  e.preventDefault();
  const name = document.getElementById('name').value.trim();
  /* @feature validation */
  if (!name) { document.getElementById('msg').textContent = 'Name is required.'; return; }
  /* @end validation */
  /* @broken validation */
  if (!name) return;
  /* @end validation */
  show(name || '(unnamed)');
});
/* @end add-form */
</script></body></html>
"""
CHECKS = {
    "t0.c0": [{"goto": "/"}, {"expect_visible": {"role": "heading", "name": "Habits"}},
              {"expect_visible": {"text": "Read", "exact": True}}],
    "t1.c0": [{"fill": {"label": "Habit name", "value": "Walk"}},
              {"click": {"role": "button", "name": "Add"}},
              {"expect_visible": {"text": "Walk", "exact": True}}],
    "t2.c0": [{"click": {"role": "button", "name": "Add"}},
              {"expect_text": {"role": "alert", "value": "Name is required."}}]}
RIGHT_MAP = {"data-list": {"tasks": ["t0"]}, "add-form": {"tasks": ["t1", "t2"]},
             "validation": {"tasks": ["t2"], "broken": ["t2"]}}
# validation does not make t1 fail: a vacuous mapping, which the proof catches
VACUOUS_MAP = {**RIGHT_MAP, "validation": {"tasks": ["t1", "t2"], "broken": ["t2"]}}


def _script_draft(server, *after) -> None:
    from tests.llm_server import tool_calls

    dag = {"edges": [["t0", "t1"], ["t1", "t2"]]}
    server.script(json_reply(PRD), json_reply(QUERY), json_reply(DATA), json_reply(TASKS),
                  json_reply(dag),
                  tool_calls(("write_file", {"path": "index.html", "content": HABITS_APP})),
                  tool_calls(("finish", {"summary": "habits app with markers"})), *after)


def test_the_reference_and_checks_stages_prove_a_task(tmp_path, llm_server) -> None:
    """--prove: the code agent builds the reference, the checks stage sees its accessibility
    tree and markers, a vacuous first mapping fails the proof and goes back with the failing
    mutant named, the second is proven in real Chromium: proof.json, status ready."""
    import yaml

    from asuka.benchmark.loading import load_bench
    from asuka.benchmark.proof import proof_state

    _script_draft(llm_server, json_reply({"checks": CHECKS, "features": VACUOUS_MAP}),
                  json_reply({"checks": CHECKS, "features": RIGHT_MAP}))
    res = _author(tmp_path, llm_server, "--prove")
    assert res.exit_code == 0, res.output
    assert "proven" in res.output and "after 2 checks turn(s)" in res.output
    folder = tmp_path / "tasks" / "habits"
    assert (folder / "reference" / "index.html").read_text() == HABITS_APP
    assert not (folder / "reference" / "data").exists()  # the data stays the task's own
    task = yaml.safe_load((folder / "task.yaml").read_text())
    assert "status" not in task and task["reference"] == "reference"
    assert task["features"]["validation"] == {"tasks": ["t2"], "broken": ["t2"]}
    assert task["eval_tasks"][1]["criteria"][0]["check"] == CHECKS["t1.c0"]
    (bt,), problems = load_bench(tmp_path, ["habits"])
    assert problems == [] and proof_state(bt) == "proven"
    proof = json.loads((folder / "proof.json").read_text())
    assert {(r["feature"], r["state"]) for r in proof["runs"]} == {
        ("reference", "ok"), ("data-list", "missing"), ("add-form", "missing"),
        ("validation", "missing"), ("validation", "broken")}
    # at the wire: the code agent got the PRD, the criteria and the marker scheme; the checks
    # stage the reference's ARIA tree and markers; the repair turn the vacuous mutant
    bodies = [json.dumps(r.body) for r in llm_server.requests]
    assert "@feature NAME" in bodies[5] and "Name is required" in bodies[5]
    assert "textbox" in bodies[7] and "Habit name" in bodies[7]
    assert "validation: broken" in bodies[7]
    assert "vacuous: t1 still passes with validation missing" in bodies[8]
    records = sorted(p.name for p in (folder / "authoring").iterdir())
    assert {"reference.json", "checks.json", "checks-repair-1.json", "proof-1.json",
            "proof-2.json"} <= set(records)
    first = json.loads((folder / "authoring" / "proof-1.json").read_text())
    assert first["proven"] is False and any("vacuous" in p for p in first["problems"])


def test_a_draft_that_cannot_be_proven_stays_draft_with_its_failing_mutants(
        tmp_path, llm_server) -> None:
    import yaml

    _script_draft(llm_server, json_reply({"checks": CHECKS, "features": VACUOUS_MAP}))
    res = _author(tmp_path, llm_server, "--prove", "--repairs", "0")
    assert res.exit_code == 1
    out = " ".join(res.output.split())
    assert "not proven habits after 1 checks turn(s)" in out
    assert "validation (missing): vacuous: t1 still passes with validation missing" in out
    task = yaml.safe_load((tmp_path / "tasks" / "habits" / "task.yaml").read_text())
    assert task["status"] == "draft"
    assert not (tmp_path / "tasks" / "habits" / "proof.json").exists()
