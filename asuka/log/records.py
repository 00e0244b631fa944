"""What a round leaves behind, as the run store keeps it: the code agent's round, the deploy,
the whole round record. These depend on no role: the store reads and writes them without
importing the code agents or the deployer, and the roles produce them (``asuka.codeagents`` and
``asuka.deploy`` re-export the types they return)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from asuka.schema import RoundEvaluation
from asuka.usage import Usage

# external: already served elsewhere (`asuka eval --url`), nothing deployed
DeployKind = Literal["static", "npm-build", "npm-start", "project", "none", "external"]


class AgentRoundResult(BaseModel):
    """One round of a code agent."""

    ok: bool = True
    error: str | None = None
    transcript: str = ""          # text log of what the agent did
    usage: list[Usage] = Field(default_factory=list)
    duration_s: float = 0.0
    # backend-specific facts worth keeping (e.g. the simulator's feature states)
    meta: dict[str, Any] = Field(default_factory=dict)


class DeployResult(BaseModel):
    """One deployment of a round's workspace."""

    ok: bool
    kind: DeployKind
    url: str | None = None
    log: str = ""
    timings: dict[str, float] = Field(default_factory=dict)
    error: str | None = None
    # extra facts for the run record: sandbox used, served directory, script run, port
    meta: dict[str, str] = Field(default_factory=dict)


class RoundRecord(BaseModel):
    """Everything the scorer and the report need from one finished round."""

    round: int
    evaluation: RoundEvaluation
    agent: AgentRoundResult
    deploy: DeployResult | None = None
    feedback: str = ""
    user: dict[str, Any] = {}  # the User backend's record of how it wrote the feedback
    timings: dict[str, float] = {}
    # a sequential cell's step: {"task": eval task id, "index": its position, "attempt": n}
    step: dict[str, Any] | None = None


class CellResult(BaseModel):
    """How a cell ended. A finished cell's is its ``result.json``; a failed cell's record is its
    ``failed.json``, and ``run_cell`` returns it as a result with status ``failed``."""

    # a round strategy's own measures (Web-Bench's Pass@1, Pass@2, recovery) and a
    # re-evaluation's source ride along as extra fields
    model_config = ConfigDict(extra="allow")

    cell_id: str
    status: Literal["finished", "failed"] = "finished"
    rounds_run: int = 0
    budget: int | None = None
    stopped_early: bool = False
    all_passed: bool | None = None
    mode: str | None = None
    # a failed cell: whose failure (setup, harness, ...), why, and in which round
    kind: str | None = None
    reason: str | None = None
    round: int | None = None

    def record(self) -> dict[str, Any]:
        """As result.json holds it (fields left unset are not written)."""
        return self.model_dump(mode="json", exclude_none=True)
