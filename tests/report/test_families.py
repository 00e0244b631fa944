"""Metric families are plug-ins (asuka.report.families): summary.json, the report's tables and
each round's metrics iterate the registry, so a family registered by name, with what it applies
to, how it aggregates, its JSON and its table, shows up everywhere without an edit elsewhere."""

from __future__ import annotations

import pytest

from asuka.benchmark.loading import load_tasks
from asuka.log.scoring import Estimate
from asuka.log.store import RunStore
from asuka.report import build_report, report_tables
from asuka.report import families as fam
from asuka.report.data import load_run
from asuka.report.summary import summarize
from asuka.report.table import Table, head
from tests.builders import TASKS, cell_spec, copy_bench, evaluation, record_cell


def test_the_built_in_families_are_found_in_report_order():
    names = [f.name for f in fam.all_families()]
    assert names == ["paper", "errors", "feedback", "sequential", "contracts", "passes", "jury",
                     "full"]
    # the paper's main metrics and the error counts are families like the others
    paper, errors = fam.all_families()[:2]
    assert paper.round_metrics and paper.table and [o for o, _ in paper.tables] == [80, 90, 100]
    assert errors.round_counts is not None


@pytest.fixture
def toy_family():
    """A family counting each group's cells: its module would be this function's body."""
    def cells(g, ctx):
        return {"cells": g.estimate(lambda c: 1.0, ctx.ci), "n": len(g.cells)}

    def table(agg, view):
        t = Table("toy", "Cells per group", [*head(agg), "cells"])
        for g in agg.groups:
            t.rows.append([*g.labels(agg.varying), g.families["toy"]["n"]])
        return t

    family = fam.register(fam.Family(
        "toy", order=85, aggregate=cells, json=lambda v: {"toy": {"cells": v["n"]}},
        round_metrics=lambda g, k, ctx: {"toy_round.same-artifact": Estimate(k, k, k, 1)},
        table=table))
    yield family
    fam._FAMILIES.pop("toy")


def test_a_new_family_reaches_summary_report_and_rounds(tmp_path, toy_family):
    bench = copy_bench(tmp_path / "bench")
    tasks = {bt.id: bt for bt in load_tasks(bench, list(TASKS))}
    bt = tasks["mini-todo"]
    store = RunStore(tmp_path / "run")
    for seed in (0, 1):
        record_cell(store, bt, cell_spec("mini-todo", seed, "low"),
                    [evaluation(bt, {"t0"}), evaluation(bt, {"t0", "t1"})])
    summary = summarize(store, tasks)
    (group,) = summary["groups"]
    assert group["toy"] == {"cells": 2}
    assert [r["toy_round.same-artifact"]["mean"] for r in group["rounds"]] == [0, 1]
    names = [t.name for t in report_tables(load_run(store.root, bench))]
    # order 85: after Table 3 (80), before the per-type breakdown (90)
    assert names.index("table3") < names.index("toy") < names.index("by_type")
    written = build_report(store.root, formats=("md",), bench=bench)
    assert "Cells per group" in written["md"][0].read_text()
