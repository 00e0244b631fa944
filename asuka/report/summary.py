"""From a run store to summary.json and the console's Table-1-style summary (reads only).

``summarize`` writes ``summary.json``: per scored cell and round the weighted task pass rate and
criteria pass rate in both views, completion, implemented rate, fix rates, the counts of
executed, skipped and errored evaluation tasks and criteria; per group the aggregate of
``asuka.report.aggregate.aggregate`` (the same numbers ``asuka report`` shows); the failed and
unfinished cells (never scored); the scoring rules and notes. ``summary_table`` renders it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from asuka.log.contracts import FAILURE_KINDS
from asuka.log.provenance import check_run
from asuka.log.scoring import VIEWS, round_metrics, status_counts
from asuka.log.store import RunStore
from asuka.protocol.passes import jury_pass_statistics, pass_statistics
from asuka.report.aggregate import aggregate, aggregate_json
from asuka.report.data import (
    CellData,
    cell_jsons,
    display_name,
    finished_cells,
    run_from_store,
    show,
)
from asuka.report.families.errors import round_errors, round_rungs, round_tokens
from asuka.report.families.paper import METRICS
from asuka.schema import BenchTask

FOOTER_LIST_MAX = 8  # cells named in the console footer before "... and N more"


def cell_summary(c: CellData) -> dict:
    """One scored cell, round by round (rounds past an early stop are ``carried_over``)."""
    views = {v: c.metrics(v) for v in VIEWS}
    ungated = ({v: round_metrics(c.shape, c.ungated, v) for v in VIEWS}
               if c.spec["protocol"] == "full" else None)
    rounds = []
    for k in range(len(c.gated)):
        rec = c.records[min(k, len(c.records) - 1)]
        row: dict = {"round": k + 1, "carried_over": c.carried_over(k)}
        for key in METRICS:
            row[key] = {v: getattr(views[v][k], key) for v in VIEWS}
            if ungated:
                row["full_" + key] = {v: getattr(ungated[v][k], key) for v in VIEWS}
        row["counts"] = status_counts(rec.evaluation.results)
        row["errors"] = round_errors(rec)
        row["rungs"] = round_rungs(rec)
        row["deploy_ok"] = rec.evaluation.deploy_ok
        row["tokens"] = round_tokens(rec)
        row["ui_tokens"] = round_tokens(rec, "ui-agent")
        row["reused_from"] = None if c.carried_over(k) else rec.evaluation.reused_from
        passes = pass_statistics(c.shape, rec.evaluation.results)
        if passes is not None:  # repeated evaluation passes (--eval-passes)
            row["passes"] = passes
        jury_passes = jury_pass_statistics(rec.evaluation.jury)
        if jury_passes:  # the same for the jury's model-based evaluators
            row["jury_passes"] = jury_passes
        rounds.append(row)
    s = c.spec
    return {"cell_id": c.cell_id, "agent": c.label, "task": c.task, "start": s["start"],
            "protocol": s["protocol"], "threshold": s["threshold"], "seed": s["seed"],
            "user": s["user"], "ui": s["ui"], "verbosity": c.verbosity, "budget": c.budget,
            "rounds_run": len(c.records),
            "stopped_early": bool(c.result and c.result.stopped_early),
            "finished": True, "rounds": rounds}


def summarize(store: RunStore, tasks: Mapping[str, BenchTask],
              ci_method: str = "normal") -> dict:
    """Build (and write) runs/<id>/summary.json from what the store holds. Tasks that changed
    since their cells were recorded are named in ``notes`` (the run is scored as it stands)."""
    specs = cell_jsons(store)
    run = run_from_store(store, tasks, specs)
    check = check_run(specs, tasks, finished_cells(store))
    run.provenance = check
    run.notices = check.warnings() + [p for p in check.problems() if "changed" in p]
    agg = aggregate(run, ci_method)
    cells = [cell_summary(c) for c in run.scored]
    summary = {"run": store.root.name, "written_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
               **aggregate_json(agg), "provenance": check.as_record(),
               "reused_evaluations": sum(r["reused_from"] is not None
                                         for c in cells for r in c["rounds"]),
               "cells": cells}
    store.write_summary(summary)
    return summary


# ------------------------------------------------------------ the console table

def _fmt(est: dict) -> str:
    mean, half = est.get("mean"), est.get("half_width")
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "–"
    ok = half is not None and not (isinstance(half, float) and math.isnan(half))
    return f"{100 * mean:.1f}" + (f" ±{100 * half:.1f}" if ok else "")


def _names(rows: list[dict], what: Callable[[dict], str]) -> str:
    shown = [what(r) for r in rows[:FOOTER_LIST_MAX]]
    more = len(rows) - len(shown)
    return "; ".join(shown) + (f"; ... and {more} more" if more > 0 else "")


def summary_footer(summary: dict) -> list[str]:
    """The lines under the console table: cells not scored, notes, the error rule."""
    lines = []
    failed, unfinished = summary.get("failed_cells", []), summary.get("unfinished_cells", [])
    if failed and isinstance(failed[0], dict):
        lines.append(f"Failed, not scored ({len(failed)}): " + _names(
            failed, lambda r: f"{r['cell_id']} [{r.get('kind')}] {r.get('reason')}"))
    if unfinished:
        lines.append(f"Unfinished, not scored ({len(unfinished)}): " + _names(
            unfinished, lambda r: f"{r['cell_id']} ({r['rounds_done']}/{r['budget']} rounds)"))
    if summary.get("not_scored_cells"):
        rows = summary["not_scored_cells"]
        lines.append(f"Not scored ({len(rows)}): " + _names(
            rows, lambda r: f"{r['cell_id']}: {r['reason']}"))
    if summary.get("reused_evaluations"):
        lines.append(f"Reused evaluations: {summary['reused_evaluations']} round(s) had an app "
                     "identical to one evaluated earlier in the run (same task and evaluator "
                     "settings) and took its verdicts.")
    if any("asr.same-artifact" in r for g in summary.get("groups", []) for r in g["rounds"]):
        tau = summary.get("tau", 0.8)
        lines.append(f"ATS / CTPR / ASR (JoyFrontBench, last round's artifact, tau {tau:g}): "
                     "over the tasks that declare an acceptance contract only.")
        causes = [(g["agent"], g["contract"]["failure_composition"])
                  for g in summary.get("groups", []) if g.get("contract")]
        if any(fc["unsuccessful"] for _, fc in causes):
            lines.append("Why applications did not succeed (runs): " + "; ".join(
                f"{agent}: " + ", ".join(f"{fc[k]} {k}" for k in FAILURE_KINDS if fc[k])
                for agent, fc in causes if fc["unsuccessful"]) + " (asuka report: the "
                "acceptance-contract table).")
    lines.append("n: projects (tasks), seeds averaged first. Errors count as not passed and "
                 "stay in the denominator.")
    return lines + list(summary.get("notes", []))


def _cell(est: dict) -> str:
    """A rate for the console: the mean on one line, the CI's half-width under it, so that a
    narrow terminal never has to cut a number."""
    whole = _fmt(est)
    return whole.replace(" ±", "\n±")


def summary_legend(rounds: int, contracts: bool) -> str:
    """What the console table's short headers mean (the rest is in summary.json and
    ``asuka report``)."""
    last = f"R{rounds}" if rounds > 1 else "R1"
    parts = [f"R1..{last}: cumulative weighted task pass rate after each round",
             "PCR: projects completed (every evaluation task passed)",
             "crit: criteria pass rate",
             *(["ASR: acceptance success rate (JoyFrontBench)"] if contracts else []),
             "all in %, mean over projects with the 95 % CI's half-width under it",
             "err: evaluation tasks / criteria / deploys the harness or judge could not decide",
             "miss: criteria decided by a locator miss"]
    return "Columns: " + "; ".join(parts) + "."


def summary_table(summary: dict, title: str = "Results", plain: bool = False) -> Table:
    """Paper Table 1 from summary.json, narrow enough for an 80-column terminal or a CI log:
    cumulative weighted task pass rate per round, PCR, criteria pass rate (and ASR where tasks
    declare an acceptance contract), error and locator-miss counts; a row per group (the order
    of summary.json). Cells, ATS and CTPR are in summary.json and ``asuka report``. ``plain``:
    no box characters, for output that is not a terminal. ``summary_view`` adds the legend and
    the notes under it."""
    groups, varying = summary["groups"], summary.get("varying", [])
    n_rounds = max((len(g["rounds"]) for g in groups), default=0)
    contracts = any("asr.same-artifact" in r for g in groups for r in g["rounds"])
    # SIMPLE_HEAD's column separators are spaces already: no padding on top of them
    t = Table(title=title, box=None if plain else box.SIMPLE_HEAD, show_edge=False,
              pad_edge=False, padding=(0, 1) if plain else (0, 0))
    t.add_column("agent", overflow="fold")
    for name in varying:
        t.add_column(display_name(name), overflow="fold")
    for name in ("n", *[f"R{r}" for r in range(1, n_rounds + 1)], "PCR", "crit",
                 *(("ASR",) if contracts else ()), "err", "miss"):
        t.add_column(name, justify="right", no_wrap=True)
    for g in groups:
        last = g["rounds"][-1] if g["rounds"] else {}
        rates = [_cell(g["rounds"][k]["task_pass_rate.cumulative"]) if k < len(g["rounds"])
                 else "" for k in range(n_rounds)]
        e = g["errors"]
        t.add_row(str(g["agent"]), *[show(v, g["setting"].get(v)) for v in varying],
                  str(g["n"]), *rates, _cell(last.get("completion.cumulative", {})),
                  _cell(last.get("criteria_pass_rate.cumulative", {})),
                  *([_cell(last.get("asr.same-artifact", {}))] if contracts else []),
                  f"{e['tasks']}/{e['criteria']}/{e['deploy_failures']}",
                  str(e.get("not_found", 0)))
    return t


def summary_view(summary: dict, title: str = "Results", plain: bool = False) -> Group:
    """The table with its legend and notes under it, each note wrapped at the console's width
    (not the table's)."""
    groups = summary["groups"]
    n_rounds = max((len(g["rounds"]) for g in groups), default=0)
    contracts = any("asr.same-artifact" in r for g in groups for r in g["rounds"])
    notes = [summary_legend(n_rounds, contracts), *summary_footer(summary)]
    return Group(summary_table(summary, title, plain), *(Text(n) for n in notes))
