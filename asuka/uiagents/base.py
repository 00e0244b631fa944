"""The UI Agent role.

A UIAgent opens one session per evaluation (one browser); the session evaluates one evaluation
task at a time, each in a fresh browser context, and returns an EvalTaskResult with a Verdict per
criterion. Sessions never raise for app failures: a broken page is a failed verdict."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

from asuka.schema import EvalTask, EvalTaskResult
from asuka.usage import Usage


@runtime_checkable
class UISession(Protocol):
    async def evaluate(self, eval_task: EvalTask) -> EvalTaskResult: ...

    def usage(self) -> list[Usage]: ...

    async def close(self) -> None: ...


@runtime_checkable
class UIAgent(Protocol):
    name: str

    async def open(self, base_url: str, evidence_dir: Path | None = None,
                   data_dir: Path | None = None, *, artifact: str | None = None) -> UISession:
        """Start a browser for one evaluation of the app served at ``base_url``.

        Screenshots go to ``evidence_dir``; ``data_dir`` resolves ``upload`` files;
        ``artifact`` is a content hash of the app served (``asuka.protocol.evaluate.artifact_hash``),
        under which a backend may cache what it learned about that app (groundings)."""
        ...
