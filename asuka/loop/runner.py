"""Before and around running cells: the setup preflight, the scripted-checks warning, run ids,
the run's recorded configuration, and the console table (built from summary.json)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from asuka.log.cellspec import CellSpec
from asuka.log.contracts import DEFAULT_TAU
from asuka.log.store import RunStore
from asuka.loop.cell import CellFailed, build_backends
from asuka.report.summary import summary_view


def preflight_specs(specs: list[CellSpec]) -> list[str]:
    """Build and preflight the roles of every distinct configuration before any cell starts:
    a missing key, binary or sandbox stops the run in seconds, with no cell written."""
    problems, seen = [], set()
    for spec in specs:
        key = json.dumps([spec.agent, spec.agent_options, spec.ui, spec.ui_options, spec.user,
                          spec.user_options], sort_keys=True, default=str)
        if key in seen:
            continue
        seen.add(key)
        try:
            build_backends(spec)
        except CellFailed as exc:
            problems.append(f"{spec.agent_label} (ui {spec.ui}, user {spec.user}): {exc.reason}")
    return problems


SCRIPTED_WARNING = (
    "--ui scripted with a non-simulated agent: the scripted checks read names and markup the "
    "PRD fixes, so an app built differently loses criteria to locator misses (counted as "
    "'not found'), not to behaviour. For real agents use --ui hybrid (scripted, then an LLM "
    "judge for what the checks did not pass), or browser-use, the paper's setting.")


def scripted_warning(specs: list[CellSpec]) -> str | None:
    """Said once per run when real agents are judged by the scripted checks alone."""
    real = [s for s in specs if s.ui == "scripted" and s.agent not in ("sim", "replay")]
    return SCRIPTED_WARNING if real else None


def new_run_id() -> str:
    return time.strftime("run-%Y%m%d-%H%M%S")


# The console table (with its legend and notes) is built from summary.json by
# asuka.report.summary (one aggregation).
table1 = summary_view


def save_run_config(store: RunStore, specs: list[CellSpec], bench: Path,
                    reuse_evaluations: bool = True, tau: float = DEFAULT_TAU) -> None:
    store.write_run_config({"bench": str(bench), "reuse_evaluations": reuse_evaluations,
                            "tau": tau, "cells": [s.model_dump() for s in specs]})
