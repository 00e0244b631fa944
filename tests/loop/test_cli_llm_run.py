"""`asuka run --agent llm --model openai:MODEL --ui browser-use`, as a user types it: a separate
process whose only link to the scripted LLM server is OPENAI_BASE_URL. The code agent writes a
bare heading in round 1 and the whole app in round 2 (its round-2 request must carry the
template user's feedback); browser-use drives real Chromium and judges each criterion from the
page it was shown."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from asuka.benchmark.features import materialize
from tests.llm_server import (
    Recorded,
    ScriptedLLMServer,
    agent_step,
    browser_state,
    done_action,
    llm_server,  # noqa: F401 - fixture
    tool_calls,
)

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "bench"


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_asuka_run_llm_agent_with_browser_use(llm_server: ScriptedLLMServer,  # noqa: F811
                                              tmp_path: Path) -> None:
    ref = materialize(MINI / "tasks" / "mini-todo" / "reference", tmp_path / "ref",
                      {name: "ok" for name in ("heading", "validate", "add", "complete",
                                               "filter")})
    app_html = (ref / "index.html").read_text()
    agent_script = [
        tool_calls(("write_file", {"path": "index.html", "content": "<h1>Todos</h1>"})),
        tool_calls(("finish", {"summary": "a heading"})),
        tool_calls(("write_file", {"path": "index.html", "content": app_html})),
        tool_calls(("finish", {"summary": "the whole app"})),
    ]
    judged: list[bool] = []

    def respond(rec: Recorded):
        if "tools" in rec.body:  # the code agent's tool loop
            return agent_script.pop(0)
        state = browser_state(rec)  # a browser-use step: judge from what Chromium showed
        ok = "Add" in state
        judged.append(ok)
        reason = "the form to add a task is there" if ok else "there is only a heading"
        return agent_step(done_action(ok, reason, state[-200:]))(rec)

    llm_server.script(*[respond] * 60)
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    env["OPENAI_BASE_URL"] = llm_server.openai_base_url
    env["ANONYMIZED_TELEMETRY"] = "false"
    proc = subprocess.run(
        [sys.executable, "-m", "asuka.cli", "run", "--bench", str(MINI), "--task", "mini-todo",
         "--agent", "llm", "--model", "openai:fake-model", "--ui", "browser-use",
         "--ui-opt", "max_steps=3", "--rounds", "2", "--out", str(tmp_path / "runs"),
         "--run-id", "cli-llm"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=840)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "llm" in proc.stdout and "cli-llm" in proc.stdout  # the table and the run path

    (cell,) = [p.parent for p in (tmp_path / "runs" / "cli-llm").glob("*/cell.json")]
    r1 = json.loads((cell / "round-1" / "verdicts.json").read_text())
    r2 = json.loads((cell / "round-2" / "verdicts.json").read_text())
    # round 1: the root fails on browser-use's word and gates the rest (DAG, T=0.5)
    assert r1["results"]["t0"]["status"] == "failed"
    assert {v["backend"] for v in r1["results"]["t0"]["verdicts"]} == {"browser-use"}
    assert all(r1["results"][t]["status"] == "skipped" for t in ("t1", "t2", "t3", "t4"))
    # round 2: the whole app, every evaluation task executed and passed by browser-use
    assert all(r["status"] == "passed" for r in r2["results"].values()), r2
    assert judged.count(False) == 3 and judged.count(True) >= 10
    # the agent's round-2 conversation carried the template user's feedback about t0
    feedback = (cell / "round-1" / "feedback.md").read_text()
    assert "task 0 / crit 1" in feedback
    round2_requests = [r for r in llm_server.requests if "tools" in r.body][2:]
    assert round2_requests and "task 0 / crit 1" in json.dumps(round2_requests[0].body)
    assert (cell / "round-2" / "workspace" / "index.html").read_text() == app_html
    usage = json.loads((cell / "round-2" / "usage.json").read_text())
    roles = {u["role"]: u for u in usage}
    assert set(roles) >= {"code-agent", "ui-agent"}
    assert roles["ui-agent"]["calls"] == judged.count(True) and roles["code-agent"]["calls"] == 2
    summary = json.loads((tmp_path / "runs" / "cli-llm" / "summary.json").read_text())
    assert summary["cells"][0]["rounds"][1]["task_pass_rate"]["same-artifact"] == 1.0
    assert summary["cells"][0]["rounds"][1]["tokens"] > 0


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(900)
async def test_llm_agent_two_round_loop_on_a_bundled_task(llm_server: ScriptedLLMServer,  # noqa: F811
                                                          tmp_path: Path) -> None:
    """The built-in code agent on loan-calculator: round 1 it writes the app without input
    validation, the template user reports exactly that, round 2 it writes the whole app."""
    from asuka.benchmark.loading import load_tasks
    from asuka.deploy import Deployer
    from asuka.log.cellspec import CellSpec
    from asuka.log.store import RunStore
    from asuka.loop.cell import run_cell

    (bt,) = load_tasks(ROOT, ["loan-calculator"])
    states = {name: "ok" for name in bt.task.features}

    def files(missing: str | None) -> list[tuple[str, dict]]:
        ref = materialize(Path(bt.root) / "reference", tmp_path / f"ref-{missing}",
                          {**states, **({missing: "missing"} if missing else {})})
        return [("write_file", {"path": str(p.relative_to(ref)), "content": p.read_text()})
                for p in sorted(ref.rglob("*")) if p.is_file()]

    llm_server.script(tool_calls(*files("validation")), tool_calls(("finish", {"summary": "v1"})),
                      tool_calls(*files(None)), tool_calls(("finish", {"summary": "v2"})))
    spec = CellSpec(task="loan-calculator", agent="llm",
                    agent_options={"model": {"provider": "openai", "model": "fake",
                                             "base_url": llm_server.openai_base_url}},
                    rounds=2, ui_options={"assert_timeout_s": 4, "action_timeout_s": 8})
    store = RunStore(tmp_path / "run")
    result = await run_cell(spec, bt, store, Deployer())
    r1, r2 = store.load_rounds(spec.cell_id)
    failed = {t for t, r in r1.evaluation.results.items() if r.status == "failed"}
    assert failed == {"t14"}, r1.evaluation.results
    assert r1.evaluation.results["t16"].status == "skipped"  # gated behind validation
    assert "task 14 /" in r1.feedback
    assert "task 14 /" in json.dumps(llm_server.requests[2].body)  # round 2 got the feedback
    assert all(r.status == "passed" for r in r2.evaluation.results.values())
    assert result.rounds_run == 2 and result.all_passed
