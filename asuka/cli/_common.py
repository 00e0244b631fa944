"""What the command groups share: the consoles, the --bench option, KEY=VALUE options."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from asuka.benchmark.loading import default_bench_dir

console = Console()
err = Console(stderr=True)

BenchOpt = Annotated[Path | None, typer.Option(
    "--bench", help="Benchmark directory with tasks/, prds/, dags/ (default: the bundled one).")]


ReuseOpt = Annotated[bool, typer.Option(
    "--reuse/--no-reuse", help="A round whose app is byte-identical to one already evaluated in "
                               "the run, under the same task and evaluator settings, takes its "
                               "verdicts (recorded as reused) instead of being evaluated again.")]


def bench_dir(bench: Path | None) -> Path:
    return bench if bench is not None else default_bench_dir()


def parse_opts(pairs: list[str], flag: str = "--agent-opt") -> dict:
    import yaml

    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint=flag)
        out[key] = yaml.safe_load(value)
    return out


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"

