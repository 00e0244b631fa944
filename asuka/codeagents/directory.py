"""The "dir" code agent: hands over an app written elsewhere, unchanged.

Round 1 replaces the workspace with the directory (the task's mock data is then put back at
its paths, so the benchmark's data is what the app reads); later rounds change nothing. ``asuka
eval`` uses it to score an app built outside the loop with the loop's own deploy, protocol,
evidence and records. Without a path (``asuka eval --url``) nothing is copied.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from asuka.benchmark.features import copy_data
from asuka.codeagents import registry
from asuka.codeagents.base import AgentRoundResult, RoundContext
from asuka.errors import SetupError

IGNORED = shutil.ignore_patterns("node_modules", ".git")


class DirCodeAgent:
    name = "dir"

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path).resolve() if path else None

    def preflight(self) -> None:
        if self.path is not None and not self.path.is_dir():
            raise SetupError(f"dir agent: {self.path} is not a directory")

    async def run_round(self, ctx: RoundContext) -> AgentRoundResult:
        t0 = time.monotonic()
        self.preflight()
        if self.path is None or ctx.round > 1:
            return AgentRoundResult(transcript="(nothing copied)", meta={"copied": 0})
        ws = Path(ctx.workspace)
        # the directory replaces what the workspace was seeded with (a Web-Bench project's
        # src-init/): the app handed over is judged as it is, nothing of the seed mixed in
        for child in ws.iterdir() if ws.is_dir() else ():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
        shutil.copytree(self.path, ws, dirs_exist_ok=True, ignore=IGNORED, symlinks=True)
        bt = ctx.bench_task
        copy_data(Path(bt.root), bt.task.data, ws)
        files = sorted(str(p.relative_to(ws)) for p in ws.rglob("*") if p.is_file())
        return AgentRoundResult(
            transcript=f"copied {self.path} ({len(files)} files):\n" + "\n".join(files[:200]),
            duration_s=time.monotonic() - t0,
            meta={"source": str(self.path), "copied": len(files)})


@registry.register("dir")
def make_dir_agent(path: str | None = None, **_: object) -> DirCodeAgent:
    return DirCodeAgent(path)
