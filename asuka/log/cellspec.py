"""A cell's specification (``cell.json``): one unit of work, an agent on a task under fixed
settings, and the id a run store files it under."""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, Field

from asuka.vocabulary import Feedback, Mode, Protocol, Routing, Start


class CellSpec(BaseModel):
    """One unit of work: an agent on a task under fixed settings."""

    task: str
    agent: str = "sim"
    agent_options: dict[str, Any] = Field(default_factory=lambda: {"profile": "medium"})
    label: str | None = None          # how reports name the agent (default: derived)
    ui: str = "scripted"
    ui_options: dict[str, Any] = Field(default_factory=dict)
    user: str = "template"
    user_options: dict[str, Any] = Field(default_factory=lambda: {"verbosity": "low"})
    rounds: int = Field(default=3, ge=1)
    threshold: float = Field(default=0.5, ge=0, le=1)
    protocol: Protocol = "dag"
    start: Start = "query"
    seed: int = 0
    concurrency: int = Field(default=3, ge=1)
    max_retry: int = Field(default=3, ge=0)
    # what the agent reads after a round, and when the diagnostic probes run (asuka.probes)
    feedback: Feedback = "failures"
    routing: Routing = "always"
    probes: str = "scripted"
    probe_options: dict[str, Any] = Field(default_factory=dict)
    # rounds: the paper's loop over the whole task; sequential: Web-Bench's, one evaluation
    # task after another, ``rounds`` attempts each (asuka.loop.sequential)
    mode: Mode = "rounds"

    @property
    def probing(self) -> bool:
        """Whether the feedback condition has the probes' observations."""
        return "probes" in self.feedback

    @property
    def agent_label(self) -> str:
        if self.label:
            return self.label
        opt = self.agent_options.get("profile") or self.agent_options.get("model") \
            or self.agent_options.get("tool") or ""
        return f"{self.agent}:{opt}" if opt else self.agent

    @property
    def cell_id(self) -> str:
        """Readable and deterministic; a short hash keeps distinct option sets apart."""
        # fields added since cell ids were first made count only away from their defaults, so
        # the cells of earlier runs keep their ids (and resume)
        later = {k for k in LATER_FIELDS if getattr(self, k) == CellSpec.model_fields[k]
                 .get_default(call_default_factory=True)}
        digest = hashlib.sha256(self.model_dump_json(exclude=later).encode()).hexdigest()[:8]
        name = (f"{self.agent_label}_{self.task}_{self.start}_{self.protocol}"
                f"-T{self.threshold:g}_s{self.seed}")
        if self.mode != "rounds":
            name += f"_{self.mode}"
        if self.feedback != "failures":  # the paper's loop keeps its short names
            name += f"_fb-{self.feedback}" + (f"-{self.routing}" if self.probing else "")
        safe = "".join(ch if ch.isalnum() or ch in "-_.+" else "-" for ch in name)
        return f"{safe}_{digest}"


# fields added after the first runs: they count in a cell id only away from their defaults
LATER_FIELDS = ("feedback", "routing", "probes", "probe_options", "mode")
