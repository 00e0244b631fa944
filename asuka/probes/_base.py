"""What a probe backend gets and gives back, and the registry of backends."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

from asuka.registry import Registry
from asuka.schema import BenchTask, Criterion, EvalTask, ProbeObservation, Verdict
from asuka.usage import Usage


@dataclass
class ProbeTarget:
    """One executed failure to diagnose."""

    eval_task: EvalTask
    criterion: Criterion
    verdict: Verdict


@dataclass
class ProbeContext:
    bench_task: BenchTask
    targets: list[ProbeTarget]
    url: str | None               # where the round's app is served (None: it is not)
    workspace: Path               # the round's workspace (probes must leave it as it was)
    data_dir: Path | None = None  # the task's data files, for upload steps
    project_class: str = "standards"


@dataclass
class ProbeFindings:
    observations: list[ProbeObservation] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    scripts: dict[str, str] = field(default_factory=dict)
    usage: list[Usage] = field(default_factory=list)


@runtime_checkable
class Prober(Protocol):
    name: str

    def preflight(self) -> None:
        """Raise a SetupError before round 1 when the backend cannot work (a missing key)."""
        ...

    async def probe(self, ctx: ProbeContext) -> ProbeFindings: ...


registry: Registry[Prober] = Registry(
    "probe", lazy={"scripted": "asuka.probes._scripted", "llm": "asuka.probes._llm"})
