"""The Code Agent role."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from asuka.log.records import AgentRoundResult
from asuka.schema import BenchTask
from asuka.vocabulary import Start


class RoundContext(BaseModel):
    """What a code agent may see in one round.

    ``prd`` is set only in round 1 of the ``prd`` start mode (the PRD-1R baseline); otherwise the
    agent has the underspecified query and, from round 2 on, the user's feedback."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    bench_task: BenchTask
    round: int
    start: Start = "query"
    workspace: Path
    feedback: str | None = None
    prd: str | None = None
    seed: int = 0
    sandbox: str = "auto"
    # the previous round's AgentRoundResult.meta, restored from the run store on resume, so a
    # backend can carry state (simulator feature states, a CLI session id) across rounds
    previous_meta: dict | None = None
    timeout_s: float = 1800.0
    # the agent's private HOME for its processes, kept across the cell's rounds (a CLI's own
    # session store); None: a folder beside the workspace
    agent_home: Path | None = None
    # paths an agent's processes must never see (the benchmark, the run store): a sandbox
    # exposes nothing of them, not even a file named on the agent's command line
    sealed: list[Path] = Field(default_factory=list)
    # a sequential cell's new step (asuka.loop.sequential): the round brings the step's request
    # (the task's query as that step sees it), not feedback on the last one
    new_request: bool = False

    @property
    def prompt(self) -> str:
        """The instruction text a real agent receives this round."""
        task = self.bench_task.task
        if self.new_request:
            return (f"Next task, in the project in the current directory:\n\n{task.query}"
                    "\nKeep what the earlier tasks built working.")
        if self.round == 1:
            # the PRD (PRD-1R), a requester's rewrite of the request, or the query
            body = self.prd or task.queries.get(self.start) or task.query
            data = ""
            if task.data:
                data = "\n\nMock data is provided in the workspace: " + ", ".join(task.data)
            return (f"{body}{data}\n\nBuild it as a self-contained web project in the current "
                    "directory (an index.html, or a package.json with a build or start script). "
                    "No backend and no network access at run time.")
        return ("A user tested your web app and reports the following problems. Fix them in the "
                f"project in the current directory.\n\n{self.feedback or ''}")


@runtime_checkable
class CodeAgent(Protocol):
    name: str

    async def run_round(self, ctx: RoundContext) -> AgentRoundResult:
        """Edit ``ctx.workspace`` in place for this round."""
        ...
