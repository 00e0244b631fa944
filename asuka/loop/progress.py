"""The one progress display of ``asuka run``, ``sweep`` and ``reeval``: cells done/failed with
an ETA, rounds, the current phase. A live bar draws nothing into a log file or a CI console
until the end, so there each finished cell prints one line instead
(``cell 3/46 done in 52s: <cell id>``); a failed cell always prints its reason."""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from asuka.log.cellspec import CellSpec
from asuka.log.store import RunStore
from asuka.terminal import register_live


class CellProgress:
    """Use as a context manager around the run; pass ``on_round``/``on_done`` as callbacks."""

    def __init__(self, specs: Sequence[CellSpec], store: RunStore, out: Console) -> None:
        self.specs, self.store, self.failed = list(specs), store, 0
        self.finished = sum(store.is_finished(s.cell_id) for s in self.specs)
        self.started: dict[str, float] = {}
        self.progress = Progress(
            TextColumn("[bold]{task.description:<6}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[note]}"), TimeElapsedColumn(), TextColumn("eta"),
            TimeRemainingColumn(), console=out,
            # off a terminal (a log, CI) the per-cell lines say it all; no bar drawn at the end
            disable=not out.is_terminal)
        self.cells = self.progress.add_task("cells", total=len(self.specs),
                                            completed=self.finished, note=self._note())
        self.rounds = self.progress.add_task("rounds", total=sum(s.rounds for s in self.specs),
                                             completed=self._rounds_done(), note="")

    def __enter__(self) -> CellProgress:
        self.progress.__enter__()
        # a person answering a prompt (the human user) gets the terminal to themself
        self._unregister = register_live(self.progress.stop, self.progress.start)
        return self

    def __exit__(self, *exc: object) -> None:
        self._unregister()
        self.tick("finished")
        self.progress.__exit__(*exc)

    def _note(self) -> str:
        return f"[green]{self.finished - self.failed} done[/] [red]{self.failed} failed[/]"

    def _rounds_done(self) -> int:
        n = 0
        for s in self.specs:
            if self.store.is_finished(s.cell_id):
                n += s.rounds  # an early stop counts its whole budget
            else:
                n += self.store.rounds_done(s.cell_id)
        return n

    def tick(self, note: str | None = None) -> None:
        self.progress.update(self.cells, completed=self.finished, note=self._note())
        self.progress.update(self.rounds, completed=self._rounds_done(),
                             **({"note": note} if note is not None else {}))

    def on_round(self, cell_id: str, r: int, phase: str) -> None:
        self.started.setdefault(cell_id, time.monotonic())
        self.tick(f"{cell_id[:44]} r{r} {phase}")

    def on_done(self, spec: CellSpec, error: str | None) -> None:
        self.finished += 1
        took = time.monotonic() - self.started.get(spec.cell_id, time.monotonic())
        console = self.progress.console
        if error:
            self.failed += 1
            console.print(f"[red]cell failed[/red] {spec.cell_id}: {escape(error)}",
                          highlight=False, soft_wrap=True)
        elif not console.is_terminal:
            console.print(f"cell {self.finished}/{len(self.specs)} done in {took:.0f}s: "
                          f"{spec.cell_id}", highlight=False)
        self.tick()
