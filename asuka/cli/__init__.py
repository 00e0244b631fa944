"""The ``asuka`` command: a thin layer over the modules (each command mirrors a Python API).

One module per command group: ``tasks`` (validate, stats, preview), ``run``, ``experiments``
(sweep, reeval, report, export), ``eval``, ``imports`` (import web-bench); ``_common`` holds
what they share.
"""

from __future__ import annotations

import typer

from asuka.cli import annotate, author, experiments, imports, run, tasks
from asuka.cli import eval as eval_commands

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Asuka: closed-loop, multi-round benchmark of code agents on web apps.")
for group in (tasks, run, experiments, eval_commands, imports, annotate, author):
    group.register(app)


def main() -> None:  # pragma: no cover - console entry point
    app()
