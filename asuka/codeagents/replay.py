"""The "replay" code agent: plays back the workspaces a recorded run produced, round by round.

Use it to evaluate recorded agent outputs again in a new loop (another UI agent, user, threshold
or protocol; ``asuka reeval`` does the same for a whole run without the loop), or to share the
outputs of an expensive agent so others can score them without calling any model:

    asuka run --agent replay --agent-opt run=runs/main --agent-opt cell=CELL_ID --task ID

Round r copies ``<run>/<cell>/round-<r>/workspace`` into the live workspace. The replayed agent
did not see this loop's feedback, so only its recorded behaviour is measured; a round the
recording does not have is reported as a failed agent round, not a crash.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from asuka.codeagents import registry
from asuka.codeagents.base import AgentRoundResult, RoundContext
from asuka.log.store import RunStore


class ReplayError(ValueError):
    pass


def find_cell(run: Path, task_id: str, cell: str | None = None) -> Path:
    """The recorded cell to replay: ``cell`` by id, else the only cell of ``task_id``."""
    if not run.is_dir():
        raise ReplayError(f"replay: run directory {run} does not exist")
    if cell:
        d = run / cell
        if RunStore(run).cell_spec(cell) is None:
            raise ReplayError(f"replay: {run} has no cell {cell!r}")
        return d
    store = RunStore(run)
    cells = sorted(store.cell_dir(c) for c in store.cells()
                   if (store.cell_spec(c) or {}).get("task") == task_id)
    if len(cells) != 1:
        names = ", ".join(c.name for c in cells) or "none"
        raise ReplayError(f"replay: {run} has {len(cells)} cells of task {task_id!r} ({names}); "
                          "choose one with --agent-opt cell=CELL_ID")
    return cells[0]


class ReplayCodeAgent:
    name = "replay"

    def __init__(self, run: str | Path, cell: str | None = None) -> None:
        self.run, self.cell = Path(run).resolve(), cell

    async def run_round(self, ctx: RoundContext) -> AgentRoundResult:
        t0 = time.perf_counter()
        src_cell = find_cell(self.run, ctx.bench_task.id, self.cell)
        store = RunStore(src_cell.parent)
        src = store.round_workspace(src_cell.name, ctx.round)
        if not store.round_done(src_cell.name, ctx.round) or not src.is_dir():
            return AgentRoundResult(ok=False, error=f"replay: the recording {src_cell.name} "
                                    f"has no finished round {ctx.round}",
                                    duration_s=time.perf_counter() - t0)
        for child in ctx.workspace.iterdir():  # the recording is the whole workspace
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
        shutil.copytree(src, ctx.workspace, symlinks=True, dirs_exist_ok=True)
        recorded = store.load_round(src_cell.name, ctx.round).agent.model_dump()
        return AgentRoundResult(
            ok=recorded.get("ok", True), error=recorded.get("error"),
            transcript=f"replayed {src_cell.name}/round-{ctx.round}\n"
                       + (recorded.get("transcript") or ""),
            duration_s=time.perf_counter() - t0,
            # the recorded usage is kept for reference, not billed again in this run
            meta={"replayed_from": f"{src_cell.name}/round-{ctx.round}",
                  "recorded_usage": recorded.get("usage", [])})


@registry.register("replay")
def _factory(run: str | Path | None = None, cell: str | None = None,
             **_: object) -> ReplayCodeAgent:
    if not run:
        raise ReplayError("the replay agent needs a recorded run: --agent-opt run=runs/RUN_ID")
    return ReplayCodeAgent(run, cell)
