"""Diagnostic probes (issue #18 items 1-2): WatchPoint's project classifier, the routing
policies, the fix-rate measures, the sanitising of probe output (pure); the scripted probe
backend measuring a failing check on a real page in real Chromium; the llm backend's scripts
run sandboxed; a sweep over the feedback axis."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from asuka.log.fixes import fix_rate, fixes, recovery
from asuka.probes import (
    ProbeContext,
    ProbeTarget,
    cap,
    classify,
    clean,
    compose_feedback,
    parse_checks,
    registry,
    render_observations,
    route,
)
from asuka.schema import (
    EvalTask,
    EvalTaskResult,
    ProbeObservation,
    ProbeReport,
    RoundEvaluation,
    Verdict,
)
from tests.builders import FIXTURES
from tests.llm_server import llm_server  # noqa: F401 - fixture


def _pkg(tmp_path: Path, deps: dict | None = None, dev: dict | None = None) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    (ws / "package.json").write_text(json.dumps({"dependencies": deps or {},
                                                 "devDependencies": dev or {}}))
    return ws


@pytest.mark.parametrize("deps, dev, cls", [
    ({"react": "18", "prisma": "5"}, {}, "database"),        # database before everything
    ({"react": "18"}, {"express": "4"}, "fullstack"),        # dev dependencies count too
    ({"sass": "1"}, {}, "css"),                              # a preprocessor without a UI lib
    ({"react": "18", "sass": "1"}, {}, "ui"),                # ... with one: not css
    ({"react": "18", "tailwindcss": "3"}, {}, "css"),        # utility CSS always
    ({"react": "18", "vue": "3"}, {}, "build"),              # both frameworks: a bundler demo
    ({"react": "18", "zustand": "4"}, {}, "state"),          # state before ui
    ({"svelte": "4"}, {}, "ui"),
    ({"lodash": "4"}, {}, "standards"),
])
def test_the_project_classifier_is_first_match(tmp_path, deps, dev, cls) -> None:
    assert classify(_pkg(tmp_path, deps, dev))[0] == cls


def test_no_package_json_is_a_standards_project(tmp_path) -> None:
    assert classify(tmp_path) == ("standards", "no package.json")


def _eval(statuses: dict[str, dict[str, str]]) -> RoundEvaluation:
    """Evaluation tasks -> criterion statuses; a task with no verdicts was skipped."""
    results = {}
    for tid, crit in statuses.items():
        verdicts = [Verdict(criterion_id=c, status=s) for c, s in crit.items()]
        status = "skipped" if not crit else "passed" if all(
            s == "pass" for s in crit.values()) else "failed"
        results[tid] = EvalTaskResult(eval_task_id=tid, status=status, verdicts=verdicts)
    return RoundEvaluation(protocol="dag", threshold=0.5, results=results)


R1 = _eval({"a": {"a.0": "fail", "a.1": "pass"}, "b": {"b.0": "not_found"}, "c": {}})
R2 = _eval({"a": {"a.0": "pass", "a.1": "pass"}, "b": {"b.0": "fail"}, "c": {"c.0": "fail"}})
R3 = _eval({"a": {"a.0": "pass", "a.1": "pass"}, "b": {"b.0": "pass"}, "c": {"c.0": "fail"}})


def test_fix_rate_and_recovery_by_hand() -> None:
    assert fixes(R1, R2) == (1, 2)      # a.0 fixed; b.0 still failing
    assert fixes(R2, R3) == (1, 2)      # b.0 fixed; c.0 still failing
    assert fix_rate([R1, R2, R3]) == pytest.approx(2 / 4)
    assert recovery([R1, R2]) == pytest.approx(1 / 2)  # a passed in round 2, b did not
    assert recovery([R1]) is None and fix_rate([R1]) is None


def test_routing_policies_say_why() -> None:
    ui, db = ("ui", "depends on react"), ("database", "depends on prisma")
    assert route("always", db, [], R1) == (True, "routing always")
    assert route("never", ui, [], R1) == (False, "routing never")
    assert route("by-class", ui, [], R1)[0] is True
    fired, why = route("by-class", db, [], R1)
    assert not fired and "database" in why and "standards, state, ui" in why
    # by-self-fix: no earlier round yet, then 1 of 2 fixed (50 %) against thresholds
    assert route("by-self-fix", ui, [], R1)[0] is True
    assert route("by-self-fix", ui, [R1], R2, threshold=0.6) == (
        True, "the agent fixed 50% of its failures over the last 1 round(s), below 60%")
    assert route("by-self-fix", ui, [R1], R2, threshold=0.5)[0] is False
    # the window: only the last transition counts
    assert route("by-self-fix", ui, [R1, R2], R3, threshold=0.5, window=1)[0] is False


def test_probe_output_is_cleaned_as_watchpoint_cleans_it() -> None:
    out = "\n".join([
        "[chromium] some warning",                                  # not JSON: dropped
        '{"n": "flex_wrap", "v": "wrap"}',
        '{"n": "flex_wrap", "v": "wrap"}',                          # repeated: once
        '{"n": "err", "v": "\\u001b[31mTypeError: x\\u001b[0m\\n    at f (app.js:3:1)\\n'
        '    at run (node_modules/playwright-core/lib/x.js:9:9)\\n    at node:internal/a:1"}',
        '{"n": "count", "v": 12}',                                  # not a string: JSON
        '{"x": 1}', "{broken",
    ])
    got = [(o.name, o.value) for o in parse_checks(out, "browser", "t1.c0")]
    assert got == [("flex_wrap", "wrap"), ("err", "TypeError: x | at f (app.js:3:1)"),
                   ("count", "12")]
    assert clean("x" * 400).endswith("…") and len(clean("x" * 400)) == 300
    many = [ProbeObservation(name=f"n{i}", value="v" * 90) for i in range(60)]
    kept, left = cap(many, limit=1000)
    assert len(kept) == 10 and left == 50
    # a page fact repeated for another failure is said once
    page = [ProbeObservation(criterion_id=c, name="console_errors", value="none")
            for c in ("a.0", "b.0")]
    assert len(cap(page)[0]) == 1


def test_the_feedback_conditions_compose_what_the_agent_reads() -> None:
    report = ProbeReport(policy="always", fired=True, reason="routing always", observations=[
        ProbeObservation(criterion_id="t1.c0", name="matches", value="0"),
        ProbeObservation(source="terminal", name="tsc", value="2 errors")])
    blocks = render_observations(report)
    assert "BROWSER OBSERVATION" in blocks and "CHECK t1.c0 matches: 0" in blocks
    assert "TERMINAL OBSERVATION" in blocks and "CHECK tsc: 2 errors" in blocks
    user = "task 1 / crit 0 — not working: the button\n"
    assert compose_feedback("none", user, report) is None
    assert compose_feedback("failures", user, report) == user
    assert compose_feedback("probes", user, report) == blocks
    both = compose_feedback("failures+probes", user, report)
    assert both.startswith(user) and both.endswith(blocks)
    assert compose_feedback("probes", user, None) is None  # nothing observed: nothing said


PAGE = """<!doctype html><html><head><title>Counter</title></head><body>
<h1>Counter</h1><p id="n">0</p>
<button id="add" style="opacity: 0.4">Plus one</button>
<img src="gone.png" alt="">
<script>
document.getElementById('add').onclick = () => {
  const n = document.getElementById('n'); n.textContent = String(+n.textContent + 1); };
console.error('counter: storage unavailable');
</script></body></html>"""


@pytest.mark.browser
def test_the_scripted_probe_measures_the_failing_check_on_the_live_page(tmp_path,
                                                                       static_server) -> None:
    """The check looks for a button named "Add one" that the app calls "Plus one": the probe
    replays the steps before the failing one, then reports no exact match, one button when
    the name is relaxed (never the check's locator itself), that button's facts, and the
    page's console error and failed request."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text(PAGE)
    server = static_server(tmp_path / "site")
    et = EvalTask.model_validate({
        "id": "t1", "summary": "Counting", "type": "functionality", "weight": 1,
        "criteria": [{"id": "t1.c0", "text": "Add one raises the count.", "check": [
            {"goto": "/"}, {"expect_text": {"css": "#n", "value": "0"}},
            {"click": {"role": "button", "name": "Add one", "exact": True}},
            {"expect_text": {"css": "#n", "value": "1"}}]}]})
    verdict = Verdict(criterion_id="t1.c0", status="not_found", step=2)
    ctx = ProbeContext(bench_task=None, targets=[ProbeTarget(et, et.criteria[0], verdict)],
                       url=server.url + "/", workspace=tmp_path / "site")
    found = asyncio.run(registry.get("scripted").probe(ctx))
    assert found.errors == []
    got = {o.name: o.value for o in found.observations}
    assert all(o.criterion_id == "t1.c0" and o.source == "browser" for o in found.observations)
    assert got["matches"] == "0" and got["matches(any button)"] == "1"
    assert got["first.text"] == "Plus one" and got["first.tag"] == "button"
    assert got["first.visible"] == "True" and got["first.style.opacity"] == "0.4"
    assert "storage unavailable" in got["console_errors"]
    assert "/gone.png" in got["failed_requests"]
    assert got["page.path"] == "/" and got["page.title"] == "Counter"
    assert not any("Add one" in o.name or "Add one" in o.value for o in found.observations)


@pytest.mark.browser
def test_a_sweep_over_the_feedback_axis_reports_fix_rates_per_condition(tmp_path) -> None:
    """Issue #18's first done-when, offline: a sweep over the four feedback conditions with
    scripted probes; what the agent read each round is what its condition says, and the
    report's Feedback table compares the conditions."""
    from typer.testing import CliRunner

    from asuka.cli import app
    from asuka.log.store import RunStore

    bench = FIXTURES / "bench"
    exp = tmp_path / "feedback.yaml"
    exp.write_text("name: fb\ntasks: [mini-todo]\nagents:\n"
                   "  - {backend: sim, profile: weak, label: sim-weak}\n"
                   "rounds: 2\nfeedback: [none, failures, failures+probes, probes]\n"
                   "routing: [always]\nprobes: scripted\n")
    runner = CliRunner()
    res = runner.invoke(app, ["sweep", str(exp), "--bench", str(bench), "--out",
                              str(tmp_path / "runs"), "--run-id", "fb"])
    assert res.exit_code == 0, res.output
    store = RunStore(tmp_path / "runs" / "fb")
    read = {}
    for cell in store.cells():
        condition = store.cell_spec(cell)["feedback"]
        rec = store.load_round(cell, 1)
        read[condition] = rec.feedback
        probes = rec.evaluation.probes
        if "probes" in condition:
            assert probes is not None and probes.fired and probes.observations, cell
        else:
            assert probes is None
    assert set(read) == {"none", "failures", "failures+probes", "probes"}
    assert read["none"] == ""
    assert "/ crit" in read["failures"] and "CHECK" not in read["failures"]
    assert "/ crit" in read["failures+probes"] and "BROWSER OBSERVATION" in read[
        "failures+probes"]
    assert "/ crit" not in read["probes"] and "CHECK " in read["probes"]
    res = runner.invoke(app, ["report", str(store.root), "--bench", str(bench), "-f", "md",
                              "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "rep" / "report.md").read_text()
    table = md[md.index("### Feedback"):].split("\n\n")[1].splitlines()
    assert "fix rate" in table[0] and "recovery" in table[0]
    rows = {r.split("|")[2].strip(): r for r in table[2:]}
    assert set(rows) == {"none", "failures", "failures+probes", "probes"}
    assert rows["none"].split("|")[-4].strip() == "0.0"  # told nothing, it fixed nothing


@pytest.mark.browser
@pytest.mark.npm
@pytest.mark.timeout(600)
async def test_llm_probe_scripts_run_sandboxed_and_reach_the_agent(tmp_path, llm_server) -> None:
    """Issue #18's done-when for the llm backend: the scripted server writes a Playwright
    script and a bash script; they run sandboxed (the app's port the only one reachable, the
    workspace a throw-away copy), and their CHECK lines reach the code agent's next prompt, as
    the request the server saw shows."""
    from asuka.benchmark.loading import load_tasks
    from asuka.deploy import Deployer
    from asuka.log.cellspec import CellSpec
    from asuka.log.store import RunStore
    from asuka.loop.cell import run_cell
    from tests.llm_server import text, tool_calls

    bench = FIXTURES / "bench"
    (bt,) = load_tasks(bench, ["mini-todo"])
    page = ('<!doctype html><title>Todo app</title><h1>Chores</h1>'
            '<input placeholder="What needs doing?"><button>Add</button><ul></ul>')
    browser_js = """```js
const { chromium } = require('playwright-core');
(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ['--no-sandbox'] });
  const page = await browser.newPage();
  await page.goto(process.env.APP_URL);
  console.log('navigated');  // not a CHECK line: dropped
  console.log(JSON.stringify({ n: 'h1_text', v: await page.textContent('h1') }));
  let outside = 'unreachable';
  try { await page.goto('http://127.0.0.1:9/', { timeout: 3000 }); outside = 'reached'; } catch (e) {}
  console.log(JSON.stringify({ n: 'other_port', v: outside }));
  await browser.close();
})();
```"""
    terminal_sh = """Here it is:
```bash
echo "{\\"n\\":\\"index_has_h1\\",\\"v\\":\\"$(grep -c '<h1>' index.html)\\"}"
echo "{\\"n\\":\\"app_status\\",\\"v\\":\\"$(curl -s -o /dev/null -w '%{http_code}' "$APP_URL")\\"}"
touch LEFT_BY_PROBE
```"""
    llm_server.script(tool_calls(("write_file", {"path": "index.html", "content": page})),
                      tool_calls(("finish", {"summary": "v1"})),
                      text(browser_js), text(terminal_sh),
                      tool_calls(("finish", {"summary": "v2"})))
    model = {"provider": "openai", "model": "fake", "base_url": llm_server.openai_base_url}
    spec = CellSpec(task="mini-todo", agent="llm", agent_options={"model": model}, rounds=2,
                    feedback="failures+probes", probes="llm", probe_options={"model": model})
    store = RunStore(tmp_path / "run")
    result = await run_cell(spec, bt, store, Deployer())
    assert result.status == "finished", result
    r1 = store.load_rounds(spec.cell_id)[0]
    probes = r1.evaluation.probes
    assert probes.fired and probes.backend == "llm" and probes.errors == [], probes
    got = {(o.source, o.name): o.value for o in probes.observations}
    assert got == {("browser", "h1_text"): "Chores", ("browser", "other_port"): "unreachable",
                   ("terminal", "index_has_h1"): "1", ("terminal", "app_status"): "200"}
    assert "chromium.launch" in probes.scripts["browser.cjs"]
    assert probes.scripts["terminal.sh"].startswith("echo")
    assert probes.usage and probes.usage[0].calls == 2
    # the probes' prompts carried the failure; their copy of the workspace was thrown away
    assert "Todos" in json.dumps(llm_server.requests[2].body)
    assert not (store.round_dir(spec.cell_id, 1) / "workspace" / "LEFT_BY_PROBE").exists()
    # the next round's prompt: the user's words, then the observation blocks
    sent = json.dumps(llm_server.requests[4].body)
    assert "BROWSER OBSERVATION" in sent and "CHECK h1_text: Chores" in sent
    assert "TERMINAL OBSERVATION" in sent and "CHECK app_status: 200" in sent
    assert "task 0 / crit 0" in sent
