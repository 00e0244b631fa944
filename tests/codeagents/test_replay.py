"""The replay code agent: a recorded run played back through a new loop gives the same
artifacts and, with the same evaluator, the same verdicts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asuka import codeagents
from asuka.benchmark.loading import load_tasks
from asuka.codeagents.replay import ReplayError
from asuka.deploy import Deployer
from asuka.log.cellspec import CellSpec
from asuka.log.store import RunStore
from asuka.loop.cell import run_cell

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "bench"
PATIENT = {"assert_timeout_s": 4, "action_timeout_s": 8}


def _statuses(store: RunStore, cell_id: str) -> list[dict[str, str]]:
    return [{t: r.status for t, r in rec.evaluation.results.items()}
            for rec in store.load_rounds(cell_id)]


@pytest.mark.browser
@pytest.mark.timeout(900)
async def test_replay_reproduces_a_recorded_run(tmp_path: Path) -> None:
    (bt,) = load_tasks(MINI, ["mini-todo"])
    source = RunStore(tmp_path / "source")
    original = CellSpec(task="mini-todo", agent_options={"profile": "weak"}, rounds=2, seed=3,
                        ui_options=PATIENT)
    await run_cell(original, bt, source, Deployer())
    recorded = _statuses(source, original.cell_id)

    replay_store = RunStore(tmp_path / "replay")
    spec = CellSpec(task="mini-todo", agent="replay",
                    agent_options={"run": str(tmp_path / "source")}, rounds=len(recorded),
                    ui_options=PATIENT)
    await run_cell(spec, bt, replay_store, Deployer())
    assert _statuses(replay_store, spec.cell_id) == recorded
    for r in range(1, len(recorded) + 1):
        a = source.round_dir(original.cell_id, r) / "workspace" / "index.html"
        b = replay_store.round_dir(spec.cell_id, r) / "workspace" / "index.html"
        assert a.read_text() == b.read_text()
    agent = json.loads((replay_store.round_dir(spec.cell_id, 1) / "agent.json").read_text())
    assert agent["meta"]["replayed_from"] == f"{original.cell_id}/round-1"


async def test_replay_errors_are_clear(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="needs a recorded run"):
        codeagents.get("replay")
    (bt,) = load_tasks(MINI, ["mini-todo"])
    from asuka.codeagents.base import RoundContext

    ws = tmp_path / "ws"
    ws.mkdir()
    agent = codeagents.get("replay", run=str(tmp_path / "nowhere"))
    with pytest.raises(ReplayError, match="does not exist"):
        await agent.run_round(RoundContext(bench_task=bt, round=1, workspace=ws))
    store = RunStore(tmp_path / "rec")
    store.start_cell("c1", {"task": "mini-todo"})
    res = await codeagents.get("replay", run=str(tmp_path / "rec")).run_round(
        RoundContext(bench_task=bt, round=1, workspace=ws))
    assert not res.ok and "has no finished round 1" in res.error
    store.start_cell("c2", {"task": "mini-todo"})
    with pytest.raises(ReplayError, match="2 cells of task 'mini-todo'"):
        await codeagents.get("replay", run=str(tmp_path / "rec")).run_round(
            RoundContext(bench_task=bt, round=1, workspace=ws))
