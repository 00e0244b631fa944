"""The jury of evaluators as configuration (asuka.evaluators, issue #17 items 1-3): YAML files
validated with file and line, the build engineer on the deploy's trajectory, the code engineer
on the source with file:line findings, the build gate, and the jury score in the records and
the summary; real deploys and real Chromium."""

from __future__ import annotations

import asyncio
import copy
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.benchmark.loading import default_bench_dir, load_bench
from asuka.cli import app
from asuka.evaluators import EVALUATORS_DIR, CodeInput, jury_score, load_evaluators, run_jury
from asuka.evaluators._checks import no_backend, no_external_libraries, persists_state
from asuka.log.records import DeployResult
from asuka.log.store import RunStore
from asuka.report.summary import summarize
from asuka.schema import Operability, RoundEvaluation
from tests.builders import FIXTURES, TASK, write_bench
from tests.llm_server import llm_server  # noqa: F401 - fixture

runner = CliRunner()
SHIPPED = default_bench_dir() / EVALUATORS_DIR
QUERY = ("Make me a counter page in plain HTML and JavaScript, no external libraries and no "
         "backend; it should keep the count after a reload.")


def _bench(root: Path) -> Path:
    task = copy.deepcopy(TASK)
    task["query"] = QUERY
    write_bench(root, task)
    shutil.copytree(SHIPPED, root / EVALUATORS_DIR)
    return root


def _app(root: Path, **files: str) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _eval_round(tmp_path: Path, bench: Path, page: str, run_id: str, *options: str):
    """``asuka eval`` of a one-page app against the mini task (``options``: more CLI
    arguments); the round's record."""
    res = runner.invoke(app, ["eval", str(_app(tmp_path / "app", **{"index.html": page})),
                              "--task", "mini", "--bench", str(bench), "--out",
                              str(tmp_path / "runs"), "--run-id", run_id, *options])
    assert res.exit_code == 0, res.output
    store = RunStore(tmp_path / "runs" / run_id)
    (cell,) = store.cells()
    return store.load_round(cell, 1)


GOOD = """<!doctype html>
<html><body><h1>Counter</h1><p id="n">0</p><button id="b">Add</button>
<script>
const n = document.getElementById('n');
n.textContent = localStorage.getItem('count') || '0';
document.getElementById('b').onclick = () => {
  n.textContent = +n.textContent + 1; localStorage.setItem('count', n.textContent); };
</script></body></html>"""
BAD = """<!doctype html>
<html><head>
<script src="https://cdn.example.com/react.production.min.js"></script>
</head><body><h1>Counter</h1><p id="n">0</p><button>Add</button></body></html>"""


def test_the_shipped_evaluators_validate_and_broken_ones_say_where(tmp_path: Path) -> None:
    specs, problems = load_evaluators(default_bench_dir())
    assert not problems
    assert {"build-engineer", "code-engineer", "ui-tester"} <= set(specs)
    assert sum(s.points for s in specs.values() if s.default) == 90  # LiveEvalBench's jury
    bad = tmp_path / EVALUATORS_DIR
    bad.mkdir()
    (bad / "a.yaml").write_text(
        "id: a\nname: A\nkind: code\nstage: evaluate\npersona: p\nallowed_tools: [read]\n"
        "points: 5\ndepends_on: [b]\ncriteria:\n  - id: x\n    text: t\n    check: nope\n")
    (bad / "b.yaml").write_text(
        "id: b\nname: B\nkind: code\nstage: evaluate\npersona: p\nallowed_tools: [read]\n"
        "points: 5\ndepends_on: [a]\ncriteria:\n  - id: x\n    text: t\n"
        "    check: persists-state\n")
    (bad / "c.yaml").write_text(
        "id: c\nname: C\nkind: ui\nstage: evaluate\npersona: p\n"
        "allowed_tools: [navigate, read]\npoints: 5\n")
    (bad / "d.yaml").write_text("id: other\nname: D\nkind: build\nstage: build\npersona: p\n"
                                "allowed_tools: [deploy-log]\npoints: 1\ncriteria:\n"
                                "  - {id: x, text: t, check: deploy-ok}\n")
    got = [str(p) for p in load_evaluators(tmp_path)[1]]
    assert any(p.startswith("evaluators/a.yaml:12") and "unknown code check 'nope'" in p
               for p in got), got
    assert any("a cycle" in p for p in got), got
    assert any(p.startswith("evaluators/c.yaml") and "read not tools of a ui evaluator" in p
               and ":6" in p for p in got), got
    assert any(p.startswith("evaluators/d.yaml") and "differs from the file name" in p
               for p in got), got


def test_the_code_engineer_cites_file_and_line(tmp_path: Path) -> None:
    ws = _app(tmp_path / "bad", **{"index.html": BAD, "package.json":
              '{\n  "name": "x",\n  "dependencies": {\n    "express": "^4.0.0"\n  }\n}',
              "server.js": "const express = require('express');\nexpress().listen(3000);\n"})
    c = CodeInput(ws, QUERY)
    verdict, _, evidence = no_external_libraries(c)
    assert verdict == "fail"
    assert "package.json:4: \"express\": \"^4.0.0\"" in evidence
    assert any(e.startswith("index.html:3: <script src=\"https://cdn.example.com") for e in evidence)
    verdict, _, evidence = no_backend(c)
    assert verdict == "fail" and "package.json: server package express" in evidence
    assert any(e.startswith("server.js:1:") for e in evidence)
    assert persists_state(c)[0] == "fail"
    good = CodeInput(_app(tmp_path / "good", **{"index.html": GOOD}), QUERY)
    assert no_external_libraries(good)[0] == no_backend(good)[0] == "pass"
    verdict, _, evidence = persists_state(good)
    assert verdict == "pass" and evidence[0].startswith("index.html:5: n.textContent")


def test_the_build_gate_skips_code_and_ui(tmp_path: Path) -> None:
    bench = _bench(tmp_path / "bench")
    (bt,), _ = load_bench(bench, ["mini"])
    specs = {i: s for i, s in load_evaluators(bench)[0].items() if s.default}
    failed = DeployResult(ok=False, kind="npm-build", error="build failed (exit 1)\nboom")
    ev = RoundEvaluation(protocol="dag", threshold=0.5, results={}, deploy_ok=False)
    jury = asyncio.run(run_jury(specs, bt, tmp_path, failed, ev))
    build = jury["build-engineer"]
    assert build.status == "judged" and build.score == 0.0
    assert [(c.id, c.verdict) for c in build.criteria] == [
        ("launches", "fail"), ("renders", "fail"), ("no-repairs", "fail")]
    for other in ("code-engineer", "ui-tester"):
        assert jury[other].status == "skipped" and jury[other].score == 0.0
        assert jury[other].reason == "build-engineer did not pass"
    assert jury_score(jury) == (0.0, 90.0)
    # a deploy that worked, with the deployer's fallback in its log: a repair, cited
    ok = DeployResult(ok=True, kind="npm-build", url="http://127.0.0.1:1/",
                      log="$ npm ci\nnpm ci failed; retrying with npm install\n$ npm install\n")
    ev = RoundEvaluation(protocol="dag", threshold=0.5, results={},
                         operability=Operability(ok=True, visible_elements=3))
    build = asyncio.run(run_jury(specs, bt, _app(tmp_path / "ws", **{"index.html": GOOD}), ok,
                                 ev))["build-engineer"]
    assert build.score == pytest.approx(15 * 12 / 15)
    (repair,) = [c for c in build.criteria if c.id == "no-repairs"]
    assert repair.verdict == "fail"
    assert repair.evidence == ["npm ci failed; retrying with npm install"]


@pytest.mark.parametrize("app_files, renders, code_points", [
    ({"index.html": GOOD}, "pass", 30.0),
    # a raw bundler entry served as static files: the page renders nothing
    ({"index.html": '<!doctype html><div id="root"></div>'
                    '<script type="module" src="/src/main.tsx"></script>',
      "src/main.tsx": "import React from 'react';\nconst x: number = 1;\n"}, "fail", None),
])
def test_the_jury_in_a_real_evaluation(tmp_path: Path, app_files, renders, code_points) -> None:
    bench = _bench(tmp_path / "bench")
    app_dir = _app(tmp_path / "app", **app_files)
    res = runner.invoke(app, ["eval", str(app_dir), "--task", "mini", "--bench", str(bench),
                              "--out", str(tmp_path / "runs"), "--run-id", "j"])
    assert res.exit_code == 0, res.output
    shown = " ".join(res.output.split())
    assert "jury " in shown and "pairwise" not in shown  # the task has no pairwise task
    assert ("build-engineer 15.0/15" in shown) == (renders == "pass")
    store = RunStore(tmp_path / "runs" / "j")
    (cell,) = store.cells()
    jury = store.load_round(cell, 1).evaluation.jury
    assert list(jury) == ["build-engineer", "code-engineer", "ui-tester"]
    (rend,) = [c for c in jury["build-engineer"].criteria if c.id == "renders"]
    assert rend.verdict == renders, rend
    code = jury["code-engineer"]
    assert code.status == "judged"
    if code_points is not None:
        assert code.score == code_points
        # "works offline" is not in the query: not applicable, out of the denominator
        (offline,) = [c for c in code.criteria if c.id == "no-remote-requests"]
        assert offline.verdict == "na"
    else:
        assert [c.verdict for c in code.criteria if c.id == "persists-state"] == ["fail"]
    (bt,), _ = load_bench(bench, ["mini"])
    summary = summarize(store, {"mini": bt})
    points, out_of = jury_score(jury)
    assert out_of == 90.0
    assert summary["groups"][0]["rounds"][0]["jury.same-artifact"]["mean"] == \
        pytest.approx(points / out_of)
    assert summary["groups"][0]["jury"]["build-engineer"]["mean"] == jury["build-engineer"].score
    rep = runner.invoke(app, ["report", str(store.root), "--bench", str(bench), "-f", "md,html",
                              "--out", str(tmp_path / "rep")])
    assert rep.exit_code == 0, rep.output
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "Jury of evaluators" in md and "code-engineer" in md
    page = next((tmp_path / "rep").rglob(f"cells/{cell}/round-1.html")).read_text()
    assert "Jury of evaluators" in page and "persists-state" in page



# with the viewport meta tag: on a phone a page without one is laid out 980 px wide (is_mobile)
PERSONA_PAGE = """<!doctype html><html><head>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><h1>Counter</h1>
<div onclick="out.textContent = 'opened'">Open details</div><p id="out">-</p>
</body></html>"""


def _persona_bench(root: Path) -> Path:
    task = copy.deepcopy(TASK)
    task["query"] = QUERY
    task["eval_tasks"] = [{"id": "t0", "summary": "s", "type": "functionality", "weight": 2,
                           "criteria": [
        {"id": "t0.c0", "text": "Details open.",
         "check": [{"goto": "/"}, {"click": {"text": "Open details"}},
                   {"expect_text": {"css": "#out", "value": "opened"}}]},
        {"id": "t0.c1", "text": "It fits a phone.",
         "check": [{"goto": "/"}, {"eval": "window.innerWidth < 500"}]},
        {"id": "t0.c2", "text": "Hovering shows nothing odd.",
         "check": [{"goto": "/"}, {"hover": {"role": "heading"}}]}]}]
    write_bench(root, task, dag={"edges": []})
    shutil.copytree(SHIPPED, root / EVALUATORS_DIR)
    return root


@pytest.mark.parametrize("persona, verdicts", [
    ("keyboard-only", ["fail", "fail", "na"]),    # a div Tab never reaches; a desktop window
    ("mobile-touch", ["pass", "pass", "na"]),     # taps reach it; a phone's viewport
])
def test_persona_evaluators_are_one_file_each(tmp_path: Path, persona, verdicts) -> None:
    bench = _persona_bench(tmp_path / "bench")
    res = runner.invoke(app, ["eval", str(_app(tmp_path / "app", **{"index.html": PERSONA_PAGE})),
                              "--task", "mini", "--bench", str(bench), "--out",
                              str(tmp_path / "runs"), "--run-id", "p", "--ui-opt",
                              f"evaluators=[{persona}]"])
    assert res.exit_code == 0, res.output
    store = RunStore(tmp_path / "runs" / "p")
    (cell,) = store.cells()
    jury = store.load_round(cell, 1).evaluation.jury
    assert set(jury) == {"build-engineer", "code-engineer", "ui-tester", persona}
    got = jury[persona]
    assert got.status == "judged", got.reason
    assert [c.verdict for c in got.criteria] == verdicts
    assert len(got.denials) == 1 and "denied: hover" in got.denials[0]
    # the hover criterion is out of the denominator: each other carries 2/3 of the weight
    assert got.score == pytest.approx(45 * verdicts[:2].count("pass") / 2)


def test_an_unknown_evaluator_is_a_setup_error(tmp_path: Path) -> None:
    bench = _bench(tmp_path / "bench")
    res = runner.invoke(app, ["eval", str(_app(tmp_path / "app", **{"index.html": GOOD})),
                              "--task", "mini", "--bench", str(bench), "--out",
                              str(tmp_path / "runs"), "--ui-opt", "evaluators=[colour-blind]"])
    assert res.exit_code == 1
    assert "unknown evaluator(s) colour-blind" in " ".join(res.output.split())


def test_a_source_inspection_credits_only_source_verifiable_criteria(tmp_path: Path) -> None:
    """JoyFrontBench: when B = 0 only source-verifiable criteria keep credit, from a source
    inspection. The build fails; t0.c0 (source-verifiable, its source_check found in the
    source) keeps its credit in the contract metrics, nothing else does, and the paper's
    metrics see no passed criterion at all."""
    from asuka.log.contracts import score_round
    from asuka.log.scoring import passed_criteria

    task = copy.deepcopy(TASK)
    task["eval_tasks"][0]["core"] = True
    c0 = task["eval_tasks"][0]["criteria"][0]
    c0.update(mandatory=True, source_verifiable=True,
              source_check=[r"localStorage\.setItem\(", r"<h1>"])
    bench = write_bench(tmp_path / "bench", task)
    (bt,), problems = load_bench(bench, ["mini"])
    assert not problems

    def evaluate(name: str, page: str) -> RoundEvaluation:
        app_dir = _app(tmp_path / name, **{"index.html": page, "package.json": json.dumps(
            {"name": "x", "version": "1.0.0", "scripts": {"build": "node -e process.exit(3)"}})})
        res = runner.invoke(app, ["eval", str(app_dir), "--task", "mini", "--bench", str(bench),
                                  "--out", str(tmp_path / "runs"), "--run-id", name])
        assert res.exit_code == 0, res.output
        store = RunStore(tmp_path / "runs" / name)
        return store.load_round(store.cells()[0], 1).evaluation

    ev = evaluate("has", GOOD)
    assert not ev.deploy_ok
    got = ev.source["t0.c0"]
    assert got.status == "pass" and got.backend == "source"
    assert "index.html:7:" in got.reason and "index.html:2:" in got.reason
    scores = score_round(bt.task, ev)
    assert scores.task_scores["t0"] == 0.5 and scores.core_passed == {"t0": False}
    assert scores.success == 0.0 and not passed_criteria(ev.results)
    ev = evaluate("lacks", BAD)
    assert ev.source["t0.c0"].status == "fail"
    assert "nothing in the source matches" in ev.source["t0.c0"].reason
    assert score_round(bt.task, ev).task_scores["t0"] == 0.0
    # a source_check on a criterion that is not source-verifiable is refused
    c0["source_verifiable"] = False
    _, problems = load_bench(write_bench(tmp_path / "bad", task), ["mini"])
    assert any("source_check is for a source_verifiable criterion" in str(p) for p in problems)


def test_the_llm_code_reviewer_needs_cited_lines(tmp_path: Path, llm_server) -> None:
    """The reviewer at the wire: it is sent the persona, the criterion and the numbered source;
    a verdict citing an existing line counts, one citing nothing real is inadmissible."""
    from tests.llm_server import json_reply

    bench = _bench(tmp_path / "bench")
    llm_server.script(
        json_reply({"verdict": "pass", "reason": "small named functions",
                    "evidence": ["index.html:7: n.textContent = +n.textContent + 1;"]}),
        json_reply({"verdict": "fail", "reason": "no guard", "evidence": ["app.js:99: x"]}),
        json_reply({"verdict": "pass", "reason": "plain JS", "evidence": []}))
    model = f"openai:reviewer@{llm_server.openai_base_url}"
    rec = _eval_round(tmp_path, bench, GOOD, "r", "--ui-opt", "evaluators=[code-reviewer]",
                      "--ui-opt", f"jury_model={model}")
    review = rec.evaluation.jury["code-reviewer"]
    assert review.status == "judged", review.reason
    got = {c.id: (c.verdict, c.evidence) for c in review.criteria}
    assert got["readability"] == ("pass", ["index.html:7: n.textContent = +n.textContent + 1;"])
    assert got["robustness"][0] == "na" and got["instruction-following"][0] == "na"
    assert review.score == 30.0  # one applicable criterion, passed
    first = llm_server.requests[0].body["messages"][0]["content"]
    assert "senior frontend developer" in first and "organised into clear units" in first
    assert "\n7:   n.textContent = +n.textContent + 1;" in first and "=== index.html" in first
    assert review.usage and review.usage[0].calls == 3
    assert any(u.model == "reviewer" for u in rec.agent.usage)  # billed to the evaluation


def test_eval_passes_repeat_the_llm_reviewer_with_a_majority_vote(tmp_path: Path,
                                                                  llm_server) -> None:
    """--eval-passes 3: each reviewed criterion is judged three times at the wire, decided by
    majority, every pass's verdict kept; the statistics match a hand computation and reach the
    summary and the report."""
    from tests.llm_server import json_reply

    cite = {"readability": "index.html:7: n.textContent = +n.textContent + 1;",
            "robustness": "index.html:5: n.textContent = localStorage.getItem('count') || '0';",
            "instruction-following": "index.html:4"}

    def reply(criterion: str, verdict: str, cited: bool = True) -> dict:
        return json_reply({"verdict": verdict, "reason": f"{criterion} {verdict}",
                           "evidence": [cite[criterion]] if cited else []})

    bench = _bench(tmp_path / "bench")
    llm_server.script(  # per criterion, its three passes
        reply("readability", "pass"), reply("readability", "fail"), reply("readability", "pass"),
        reply("robustness", "fail"), reply("robustness", "fail"),
        reply("robustness", "pass", cited=False),  # inadmissible: not applicable
        *[reply("instruction-following", "pass")] * 3)
    model = f"openai:reviewer@{llm_server.openai_base_url}"
    review = _eval_round(tmp_path, bench, GOOD, "r", "--eval-passes", "3", "--ui-opt",
                         "evaluators=[code-reviewer]", "--ui-opt",
                         f"jury_model={model}").evaluation.jury["code-reviewer"]
    assert len(llm_server.requests) == 9
    store = RunStore(tmp_path / "runs" / "r")
    got = {c.id: (c.verdict, c.passes) for c in review.criteria}
    assert got == {"readability": ("pass", ["pass", "fail", "pass"]),
                   "robustness": ("fail", ["fail", "fail", "na"]),
                   "instruction-following": ("pass", ["pass", "pass", "pass"])}
    assert review.score == pytest.approx(20.0)  # 2 of 3 applicable, of 30 points
    assert review.usage[0].calls == 9
    report = runner.invoke(app, ["report", str(store.root)])
    assert report.exit_code == 0, report.output
    # per pass: 2/3, 1/3 and 1 (robustness not applicable in the third); mean 2/3, SD 1/3
    from asuka.report.summary import summarize

    tasks, _ = load_bench(bench, ["mini"])
    row = summarize(store, {t.task.id: t for t in tasks})["cells"][0]["rounds"][0]
    stats = row["jury_passes"]["code-reviewer"]
    assert stats["pass_rates"] == pytest.approx([2 / 3, 1 / 3, 1.0])
    assert stats["sd"] == pytest.approx(1 / 3) and stats["cv"] == pytest.approx(0.5)
    assert stats["disagreeing"] == pytest.approx(2 / 3)
    assert stats["flip_rate"] == pytest.approx((2 / 3 + 0 + 0) / 3)
    assert stats["single"] == pytest.approx(2 / 3) and stats["majority"] == pytest.approx(2 / 3)
    assert "build-engineer" not in row["jury_passes"]  # deterministic: judged once
    import csv

    with open(store.root / "report" / "passes.csv", newline="") as fh:
        rows = {r["evaluator"]: r for r in csv.DictReader(fh)}
    assert set(rows) == {"UI agent", "code-reviewer"}
    assert float(rows["code-reviewer"]["flip rate"]) == pytest.approx(2 / 9)
    assert float(rows["code-reviewer"]["CV"]) == pytest.approx(0.5)


@pytest.mark.browser
def test_a_model_driven_persona_is_denied_a_click_and_uses_the_keyboard(tmp_path: Path,
                                                                       llm_server) -> None:
    """keyboard-only-agent.yaml: browser-use plays a keyboard-only user (the scripted server
    is its model). Its click is denied when executed (the page does not change, the model is
    told), it reaches the button with Tab and presses Enter in real Chromium, and the jury
    records the verdict, the denial, the tools its actions used and its calls."""
    from tests.llm_server import agent_step, browser_state, click_on, done_action, request_text

    task = copy.deepcopy(TASK)
    task["eval_tasks"] = [{"id": "t0", "summary": "A tally counter", "type": "functionality",
                           "weight": 1, "criteria": [{
                               "id": "t0.c0", "text": "Pressing + raises the count from 0 to 1.",
                               "check": [{"goto": "/"},
                                         {"click": {"role": "button", "name": "Increment"}},
                                         {"expect_text": {"css": "#count", "value": "Count: 1"}}]}]}]
    bench = write_bench(tmp_path / "bench", task, dag={"edges": []})
    shutil.copytree(SHIPPED, bench / EVALUATORS_DIR)
    seen: dict[str, str] = {}

    def keys_after_denial(rec):
        seen["denied"] = request_text(rec)
        seen["after_click"] = browser_state(rec)
        return agent_step({"send_keys": {"keys": "Tab"}}, {"send_keys": {"keys": "Enter"}})(rec)

    def conclude(rec):
        seen["after_keys"] = browser_state(rec)
        return agent_step(done_action(True, "Tab reached + and Enter raised the count",
                                      "Count: 1"))(rec)

    llm_server.script(click_on("Increment"), keys_after_denial, conclude)
    page = (FIXTURES / "bu_pages" / "index.html").read_text()
    model = f"openai:persona@{llm_server.openai_base_url}"
    rec = _eval_round(tmp_path, bench, page, "k", "--ui-opt", "evaluators=[keyboard-only-agent]",
                      "--ui-opt", f"jury_model={model}")
    got = rec.evaluation.jury["keyboard-only-agent"]
    assert got.status == "judged", got.reason
    (c,) = got.criteria
    assert c.verdict == "pass" and "Enter raised the count" in c.reason
    assert got.score == 45.0
    assert got.denials == ["t0.c0: Tab reached + and Enter raised the count (evidence: "
                           "Count: 1) [denied: click needs the tool 'click', which is not in "
                           "this evaluator's allowed_tools]"]
    assert got.tools == ["keyboard", "navigate"]
    # the denied click changed nothing; the model was told; the keys did the work
    assert "Count: 0" in seen["after_click"] and "denied: click" in seen["denied"]
    assert "Count: 1" in seen["after_keys"]
    first = request_text(llm_server.requests[0])
    assert "you have no mouse, so you cannot click" in first
    assert got.usage and got.usage[0].calls == 3
    assert any(u.model == "persona" for u in rec.agent.usage)  # billed to the evaluation


def test_an_evaluator_over_its_token_budget_is_an_error_with_its_calls_kept(
        tmp_path: Path, llm_server) -> None:
    """budget.tokens: no model call starts once the calls used that many tokens; the
    evaluator is then in error (never scored, the jury leaves it out), its calls still billed."""
    from tests.llm_server import json_reply

    bench = _bench(tmp_path / "bench")
    spec = bench / EVALUATORS_DIR / "code-reviewer.yaml"
    spec.write_text(spec.read_text() + "budget: {tokens: 20}\n")
    llm_server.script(*[json_reply({"verdict": "pass", "reason": "ok",
                                    "evidence": ["index.html:4"]})] * 3)  # 10 in, 5 out each
    model = f"openai:reviewer@{llm_server.openai_base_url}"
    jury = _eval_round(tmp_path, bench, GOOD, "b", "--ui-opt", "evaluators=[code-reviewer]",
                       "--ui-opt", f"jury_model={model}").evaluation.jury
    review = jury["code-reviewer"]
    assert review.status == "error" and review.score is None
    assert review.reason == "OverBudget: token budget spent (30 of 20)"
    assert len(llm_server.requests) == 2 and review.usage[0].calls == 2
    points, out_of = jury_score(jury)
    assert out_of == 90  # build 15 + code 30 + UI 45: the reviewer is left out


def test_a_citation_must_name_and_quote_a_real_line() -> None:
    from asuka.evaluators._checks import SourceFile
    from asuka.evaluators._review import admissible

    files = [SourceFile("app.js", "const a = 1;\nfunction add(x) {\n  return x + a;\n}\n")]
    assert admissible(["app.js:3: return x + a;", "app.js:2", "app.js:9: x", "b.js:1: a",
                       "app.js:1: const b = 2;", "see app.js"], files) == [
        "app.js:3: return x + a;", "app.js:2"]


def test_a_tool_outside_allowed_tools_is_denied_at_runtime(tmp_path: Path) -> None:
    """A persona file without the `type` tool: its fill step is denied while it runs and
    recorded; the criterion is not applicable for it, the others are judged."""
    bench = _persona_bench(tmp_path / "bench")
    task = (bench / "tasks/mini/task.yaml").read_text().replace(
        "  - id: t0.c2", "  - id: t0.c3\n    text: A name can be typed.\n    check:\n"
        "    - goto: /\n    - fill: {label: Name, value: Ada}\n  - id: t0.c2")
    (bench / "tasks/mini/task.yaml").write_text(task)
    (bench / EVALUATORS_DIR / "no-typing.yaml").write_text(
        "id: no-typing\nname: No typing\nkind: ui\nstage: evaluate\npersona: p\n"
        "depends_on: [build-engineer]\nallowed_tools: [navigate, click, read-page]\n"
        "points: 10\nbackend: scripted\n")
    page = PERSONA_PAGE.replace("<p id=\"out\">", "<input aria-label=\"Name\"><p id=\"out\">")
    res = runner.invoke(app, ["eval", str(_app(tmp_path / "app", **{"index.html": page})),
                              "--task", "mini", "--bench", str(bench), "--out",
                              str(tmp_path / "runs"), "--run-id", "d", "--ui-opt",
                              "evaluators=[no-typing]"])
    assert res.exit_code == 0, res.output
    store = RunStore(tmp_path / "runs" / "d")
    got = store.load_round(store.cells()[0], 1).evaluation.jury["no-typing"]
    verdicts = {c.id: c.verdict for c in got.criteria}
    assert verdicts["t0.c3"] == "na" and verdicts["t0.c0"] == "pass"
    assert any("t0.c3" in d and "'type'" in d and "allowed_tools" in d for d in got.denials)
    assert any("t0.c2" in d and "'hover'" in d for d in got.denials)
    assert got.tools == ["click", "navigate", "read-page"]
