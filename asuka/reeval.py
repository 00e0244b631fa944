"""Score a recorded run again under another threshold or protocol, without generating again.

Each finished round's workspace snapshot (``<run>/<cell>/round-<r>/workspace``) is deployed
again and evaluated with ``asuka.evaluate.evaluate_workspace`` under the new settings. The result
is a new run beside the source (``<runs>/<new id>``) with the same layout, so every command that
reads runs (report, export, reeval) works on it; the source is only read. Per round the new run
keeps the source's code-agent record and the feedback that was actually sent, and replaces the
evaluation (and its UI-agent usage). Resumable: rounds already re-evaluated are kept.

Typical use: ``asuka reeval runs/main --protocol full --threshold 0.5`` and then
``asuka report`` on the new run gives the DAG gap (Table 2) on the very same artifacts.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from pathlib import Path

from asuka import uiagents
from asuka.bench import load_bench
from asuka.dag import PROTOCOLS, feedback_view
from asuka.deploy import Deployer
from asuka.evaluate import EvalSettings, evaluate_workspace
from asuka.loop import CellSpec
from asuka.report.data import bench_of
from asuka.schema import BenchTask
from asuka.scoring import Shape, passed_criteria, passed_tasks, \
    weighted_criteria_pass_rate, weighted_task_pass_rate
from asuka.store import RoundRecord, RunStore, read_json, write_json
from asuka.summary import summarize

OnEvent = Callable[[str, int, str], None]  # (cell_id, round, phase)


class ReevalError(ValueError):
    pass


def default_run_id(source: Path, protocol: str, threshold: float) -> str:
    return f"{source.name}.reeval-{protocol}-T{threshold:g}"


def _spec_of(cell_json: dict) -> CellSpec:
    return CellSpec.model_validate({k: v for k, v in cell_json.items()
                                    if k in CellSpec.model_fields})


async def _reeval_cell(src: RunStore, dest: RunStore, cell_id: str, bt: BenchTask,
                       protocol: str, threshold: float, concurrency: int | None,
                       deployer: Deployer, on_event: OnEvent | None) -> dict | None:
    old_json = read_json(src.cell_dir(cell_id) / "cell.json")
    old = _spec_of(old_json)
    new = old.model_copy(update={"protocol": protocol, "threshold": threshold,
                                 **({"concurrency": concurrency} if concurrency else {})})
    new_id = new.cell_id
    dest.start_cell(new_id, {**new.model_dump(), "label": new.agent_label,
                             "reeval_of": {"run": src.root.name, "cell": cell_id}})
    if dest.is_finished(new_id):
        return dest.cell_result(new_id)
    source_rounds = src.load_rounds(cell_id)
    done = dest.completed_rounds(new_id)
    ui_agent = uiagents.get(new.ui, **new.ui_options)
    settings = EvalSettings(protocol, threshold, new.concurrency, new.max_retry)
    shape, last = Shape.of(bt.task), None
    scratch = dest.cell_dir(new_id) / "workspace"
    for old_rec in source_rounds:
        r = old_rec.round
        if r <= done:
            continue
        rdir = dest.begin_round(new_id, r)
        if on_event:
            on_event(new_id, r, "evaluate")
        snap = src.round_dir(cell_id, r) / "workspace"
        dest.snapshot_workspace(new_id, r, snap)
        if scratch.exists():  # deploy from a scratch copy: a build must not touch the snapshot
            shutil.rmtree(scratch)
        shutil.copytree(snap, scratch, symlinks=True)
        outcome = await evaluate_workspace(bt, scratch, ui_agent, deployer, settings,
                                           evidence_dir=rdir / "evidence")
        agent = old_rec.agent.model_copy(deep=True)
        agent.usage = [u for u in agent.usage if u.role != "ui-agent"] + outcome.usage
        agent.meta = {**agent.meta, "reeval_of": {"run": src.root.name, "cell": cell_id}}
        rec = RoundRecord(round=r, evaluation=outcome.evaluation, agent=agent,
                          deploy=outcome.deploy, feedback=old_rec.feedback,
                          timings=outcome.timings)
        view = feedback_view(rec.evaluation)
        dest.finish_round(new_id, rec, weighted_task_pass_rate(shape, passed_tasks(view)),
                          weighted_criteria_pass_rate(shape, passed_criteria(view)))
        last = rec
    if scratch.exists():
        shutil.rmtree(scratch)
    old_result = src.cell_result(cell_id)
    if old_result is None:  # the source cell is unfinished: so is its re-evaluation
        return None
    if last is None and source_rounds:
        last = dest.load_round(new_id, source_rounds[-1].round)
    view = feedback_view(last.evaluation) if last else {}
    result = {"cell_id": new_id, "rounds_run": len(source_rounds), "budget": new.rounds,
              "stopped_early": bool(old_result.get("stopped_early")),
              "all_passed": bool(last and last.evaluation.deploy_ok
                                 and all(x.status == "passed" for x in view.values())),
              "reeval_of": {"run": src.root.name, "cell": cell_id}}
    dest.finish_cell(new_id, result)
    return result


def reeval_run(source: Path | str, *, threshold: float, protocol: str,
               run_id: str | None = None, bench: Path | None = None, cells: int = 1,
               concurrency: int | None = None, on_event: OnEvent | None = None,
               on_done: Callable[[str, str | None], None] | None = None) -> tuple[Path, dict]:
    """Re-evaluate every cell of ``source`` into a new run; returns its directory and
    summary (with ``failed_cells``)."""
    source = Path(source)
    if protocol not in PROTOCOLS:
        raise ReevalError(f"unknown protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
    if not 0.0 <= threshold <= 1.0:
        raise ReevalError(f"threshold must be in [0, 1], got {threshold}")
    if not source.is_dir() or not any(source.glob("*/cell.json")):
        raise ReevalError(f"{source}: not a run directory (no <cell>/cell.json inside)")
    rid = run_id or default_run_id(source, protocol, threshold)
    target = source.parent / rid
    if target.resolve() == source.resolve():
        raise ReevalError("the re-evaluation needs a new run id (it never overwrites the source)")
    marker = {"source": source.name, "protocol": protocol, "threshold": threshold}
    if (target / "reeval.json").exists():
        prev = read_json(target / "reeval.json")
        if {k: prev.get(k) for k in marker} != marker:
            raise ReevalError(f"{target} holds another re-evaluation ({prev}); pick another id")
    elif target.exists() and any(target.iterdir()):
        raise ReevalError(f"{target} exists and is not a re-evaluation of {source.name}")
    src, dest = RunStore(source), RunStore(target)
    bench_dir = bench_of(source, bench)
    cell_ids = src.cells()
    specs = {c: read_json(src.cell_dir(c) / "cell.json") for c in cell_ids}
    tasks, problems = load_bench(bench_dir, sorted({s["task"] for s in specs.values()}))
    if problems:
        raise ReevalError("cannot load the run's tasks:\n" + "\n".join(map(str, problems)))
    by_id = {t.id: t for t in tasks}
    write_json(target / "reeval.json", {**marker, "cells": len(cell_ids)})
    if not (target / "run.json").exists():
        write_json(target / "run.json", {"bench": str(bench_dir), "reeval_of": source.name})
    failed: list[str] = []

    async def all_cells() -> None:
        deployer, sem = Deployer(), asyncio.Semaphore(max(1, cells))

        async def one(cid: str) -> None:
            async with sem:
                err = None
                try:
                    await _reeval_cell(src, dest, cid, by_id[specs[cid]["task"]], protocol,
                                       threshold, concurrency, deployer, on_event)
                except Exception as exc:  # one broken cell must not stop the others
                    err = f"{type(exc).__name__}: {exc}"
                    failed.append(f"{cid}: {err}")
                if on_done:
                    on_done(cid, err)

        await asyncio.gather(*(one(c) for c in cell_ids))

    asyncio.run(all_cells())
    summary = summarize(dest, by_id)
    summary["failed_cells"] = failed
    summary["reeval_of"] = marker
    write_json(target / "summary.json", summary)
    return target, summary
