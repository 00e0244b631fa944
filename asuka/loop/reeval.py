"""Score a recorded run again under another threshold or protocol, without generating again.

Each finished round's workspace snapshot (``<run>/<cell>/round-<r>/workspace``) is deployed
again and evaluated with ``asuka.loop.cell.evaluate_round`` under the new settings (an artifact
that recurs, unchanged, is evaluated once: the later rounds reuse its verdicts). The result
is a new run beside the source (``<runs>/<new id>``) with the same layout, so every command that
reads runs (report, export, reeval) works on it; the source is only read. Per round the new run
keeps the source's code-agent record and the feedback that was actually sent, and replaces the
evaluation (and its UI-agent usage). Resumable: rounds already re-evaluated are kept.

Like ``report`` and ``export``, it refuses a run whose cells were recorded on a task that has
changed since, or is missing, unless ``allow_changed_tasks`` (then the changed tasks are named
and the missing ones' cells are left out). Each new cell records the provenance of the task it
was re-evaluated on. Source cells that failed are not re-evaluated (they were never scored).

Typical use: ``asuka reeval runs/main --protocol full --threshold 0.5`` and then
``asuka report`` on the new run gives the DAG gap (Table 2) on the very same artifacts.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from pathlib import Path

from asuka import uiagents
from asuka.dag import feedback_view
from asuka.deploy import Deployer
from asuka.log.cellspec import CellSpec
from asuka.log.contracts import DEFAULT_TAU
from asuka.log.provenance import cell_provenance, changed_parts, enforce
from asuka.log.records import CellResult
from asuka.log.scoring import Shape
from asuka.log.store import RoundRecord, RunStore
from asuka.loop.cell import evaluate_round, split_ui_options
from asuka.loop.executor import run_pool
from asuka.protocol.dag import PROTOCOLS
from asuka.report.data import bench_of, tasks_of_run
from asuka.report.summary import summarize
from asuka.schema import BenchTask

OnEvent = Callable[[str, int, str], None]  # (cell_id, round, phase)


class ReevalError(ValueError):
    pass


def default_run_id(source: Path, protocol: str, threshold: float) -> str:
    return f"{source.name}.reeval-{protocol}-T{threshold:g}"


def _spec_of(cell_json: dict) -> CellSpec:
    return CellSpec.model_validate({k: v for k, v in cell_json.items()
                                    if k in CellSpec.model_fields})


def reeval_spec(src: RunStore, cell_id: str, protocol: str, threshold: float,
                concurrency: int | None) -> CellSpec:
    old = _spec_of(src.cell_spec(cell_id) or {})
    return old.model_copy(update={"protocol": protocol, "threshold": threshold,
                                  **({"concurrency": concurrency} if concurrency else {})})


def _start_cell(src: RunStore, dest: RunStore, cell_id: str, new: CellSpec,
                bt: BenchTask) -> None:
    """cell.json of the re-evaluated cell: its settings, its source and the provenance of the
    task it is evaluated on (kept from the first attempt when resumed, so that a task changed
    in between shows up as changed)."""
    source_json = src.cell_spec(cell_id) or {}
    reeval_of: dict = {"run": src.root.name, "cell": cell_id}
    if source_json.get("provenance"):
        changed = changed_parts(source_json["provenance"], bt)
        if changed:  # only with --allow-changed-tasks
            reeval_of["task_changed_since_source"] = changed
    spec = {**new.model_dump(), "label": new.agent_label, "reeval_of": reeval_of}
    recorded = dest.cell_spec(new.cell_id)
    if recorded is None:
        spec["provenance"] = cell_provenance(bt, spec)
    elif "provenance" in recorded:
        spec["provenance"] = recorded["provenance"]
    dest.start_cell(new.cell_id, spec)


async def _reeval_cell(src: RunStore, dest: RunStore, cell_id: str, new: CellSpec,
                       bt: BenchTask, deployer: Deployer,
                       on_event: OnEvent | None) -> CellResult | None:
    new_id = new.cell_id
    _start_cell(src, dest, cell_id, new, bt)
    dest.clear_failure(new_id)
    if dest.is_finished(new_id):
        return dest.cell_result(new_id)
    source_rounds = src.load_rounds(cell_id)
    done = dest.completed_rounds(new_id)
    ui_agent = uiagents.get(new.ui, **split_ui_options(new.ui_options)[1])
    shape, last = Shape.of(bt.task), None
    scratch = dest.cell_dir(new_id) / "live-workspace"
    for old_rec in source_rounds:
        r = old_rec.round
        if r <= done:
            continue
        dest.begin_round(new_id, r)
        if on_event:
            on_event(new_id, r, "evaluate")
        snap = src.round_workspace(cell_id, r)
        dest.snapshot_workspace(new_id, r, snap)
        if scratch.exists():  # deploy from a scratch copy: a build must not touch the snapshot
            shutil.rmtree(scratch)
        shutil.copytree(snap, scratch, symlinks=True)
        outcome = await evaluate_round(new, bt, scratch, ui_agent, deployer, dest, new_id, r)
        agent = old_rec.agent.model_copy(deep=True)
        agent.usage = [u for u in agent.usage if u.role != "ui-agent"] + outcome.usage
        agent.meta = {**agent.meta, "reeval_of": {"run": src.root.name, "cell": cell_id}}
        rec = RoundRecord(round=r, evaluation=outcome.evaluation, agent=agent,
                          deploy=outcome.deploy, feedback=old_rec.feedback,
                          timings=outcome.timings)
        dest.finish_round(new_id, rec, shape)
        last = rec
    if scratch.exists():
        shutil.rmtree(scratch)
    old_result = src.cell_result(cell_id)
    if old_result is None:  # the source cell is unfinished: so is its re-evaluation
        return None
    if last is None and source_rounds:
        last = dest.load_round(new_id, source_rounds[-1].round)
    view = feedback_view(last.evaluation) if last else {}
    result = CellResult(cell_id=new_id, rounds_run=len(source_rounds), budget=new.rounds,
                        stopped_early=old_result.stopped_early,
                        all_passed=bool(last and last.evaluation.deploy_ok
                                        and all(x.status == "passed" for x in view.values())),
                        reeval_of={"run": src.root.name, "cell": cell_id})
    dest.finish_cell(new_id, result)
    return result


def reeval_run(source: Path | str, *, threshold: float, protocol: str,
               run_id: str | None = None, bench: Path | None = None, cells: int = 1,
               concurrency: int | None = None, on_event: OnEvent | None = None,
               on_done: Callable[[str, str | None], None] | None = None,
               allow_changed_tasks: bool = False) -> tuple[Path, dict]:
    """Re-evaluate every cell of ``source`` into a new run; returns its directory and
    summary (with ``failed_cells``). Raises ChangedTasksError (see the module's docstring)."""
    source = Path(source)
    if protocol not in PROTOCOLS:
        raise ReevalError(f"unknown protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
    if not 0.0 <= threshold <= 1.0:
        raise ReevalError(f"threshold must be in [0, 1], got {threshold}")
    if not RunStore.is_run_dir(source):
        raise ReevalError(f"{source}: not a run directory (no <cell>/cell.json inside)")
    rid = run_id or default_run_id(source, protocol, threshold)
    target = source.parent / rid
    if target.resolve() == source.resolve():
        raise ReevalError("the re-evaluation needs a new run id (it never overwrites the source)")
    marker = {"source": source.name, "protocol": protocol, "threshold": threshold}
    prev = RunStore(target).reeval_marker() if target.is_dir() else None
    if prev is not None:
        if {k: prev.get(k) for k in marker} != marker:
            raise ReevalError(f"{target} holds another re-evaluation ({prev}); pick another id")
    elif target.exists() and any(target.iterdir()):
        raise ReevalError(f"{target} exists and is not a re-evaluation of {source.name}")
    src = RunStore(source)
    bench_dir = bench_of(source, bench)
    cell_ids = src.cells()
    specs = {c: src.cell_spec(c) or {} for c in cell_ids}
    by_id, check = tasks_of_run(src, specs, bench_dir)
    notices = enforce(check, allow_changed_tasks)  # raises ChangedTasksError: nothing written
    dest = RunStore(target)
    left_out = [{"cell_id": c, "task": specs[c]["task"], "reason": why}
                for c in cell_ids for why in [_left_out(src, c, specs[c], by_id)] if why]
    todo = [c for c in cell_ids if not any(x["cell_id"] == c for x in left_out)]
    dest.write_reeval_marker({**marker, "cells": len(todo)})
    dest.write_run_config({"bench": str(bench_dir), "reeval_of": source.name,
                           "tau": src.run_config().get("tau", DEFAULT_TAU)})
    deployer = Deployer()

    async def one(cid: str) -> None:
        new = reeval_spec(src, cid, protocol, threshold, concurrency)
        try:
            await _reeval_cell(src, dest, cid, new, by_id[specs[cid]["task"]], deployer,
                               on_event)
        except Exception as exc:  # recorded as the cell's failure; the others go on
            if dest.cell_spec(new.cell_id) is not None:
                dest.fail_cell(new.cell_id, f"{type(exc).__name__}: {exc}", kind="harness")
            raise

    asyncio.run(run_pool(todo, one, limit=cells, on_done=lambda cid, _, error: on_done(
        cid, error) if on_done else None))
    summary = summarize(dest, by_id)
    summary["reeval_of"] = {**marker, "not_reevaluated": left_out}
    summary["notes"] = list(dict.fromkeys([*notices, *summary["notes"]]))
    dest.write_summary(summary)
    return target, summary


def _left_out(src: RunStore, cell_id: str, spec: dict, tasks: dict[str, BenchTask]) -> str:
    """Why a source cell is not re-evaluated ("" if it is)."""
    if spec["task"] not in tasks:
        return "its task is not in the benchmark"
    if src.cell_failure(cell_id):
        return "the source cell failed (never scored)"
    return ""
