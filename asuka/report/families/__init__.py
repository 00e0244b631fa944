"""Metric families as plug-ins (lm-evaluation-harness's registered metrics, for a run's
aggregate): each module of this package is one family of numbers (the paper's main metrics,
errors and misses, DAG gap, acceptance contracts, the jury, evaluation passes, feedback, the
sequential mode) and registers what it applies to, how it aggregates a group of cells, its
per-round metrics or counts, the keys it adds to a group of ``summary.json`` and its report
tables.

``asuka.report.aggregate``, ``summary.json`` and ``asuka report`` iterate the registry; a new
family is a new module here (found by ``all_families``, no list to edit) and its test.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from asuka.log.scoring import Estimate, estimate_json
from asuka.log.store import RoundRecord
from asuka.report.data import Group

TableFn = Callable[[Any, str], Any]  # (a run's aggregate, view) -> a Table, or None


@dataclass(frozen=True)
class FamilyContext:
    """What every family's aggregation may read besides the group."""

    ci: str                      # normal | bootstrap
    tau: float                   # the acceptance contracts' completion threshold
    gap_thresholds: list[float]  # the thresholds the DAG gap is measured at


@dataclass(frozen=True)
class Family:
    name: str
    # where its table sits in a report: the paper's Table 1 is 0, Table 2 is 70, Table 3 80,
    # the per-type breakdown 90, per round 100
    order: int
    # the group's value (falsy: the family does not apply to the group)
    aggregate: Callable[[Group, FamilyContext], Any] | None = None
    # the keys it adds to a group of summary.json, from its value
    json: Callable[[Any], dict[str, Any]] | None = None
    # metrics it adds to a group's round k (0-based), under "<metric>.<view>"
    round_metrics: Callable[[Group, int, FamilyContext], dict[str, Estimate]] | None = None
    # counts it adds to a group's round, over the rounds its cells actually ran: name -> kind
    # -> total (every kind listed, zeros too)
    round_counts: Callable[[list[RoundRecord]], dict[str, dict[str, int]]] | None = None
    # its report table for a run's aggregate and view, or None where nothing applies
    table: TableFn | None = None
    # further tables, each at its own place in the report: (order, table)
    tables: tuple[tuple[int, TableFn], ...] = ()


def estimates_under(key: str) -> Callable[[dict[str, Estimate]], dict[str, Any]]:
    """The JSON of a family whose value is a flat mapping of estimates: under ``key``."""
    return lambda v: {key: {k: estimate_json(e) for k, e in v.items()}}


_FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    if family.name in _FAMILIES and _FAMILIES[family.name] != family:
        raise ValueError(f"metric family {family.name!r} registered twice")
    _FAMILIES[family.name] = family
    return family


def all_families() -> list[Family]:
    """Every family, in report order: the modules of this package are imported on first use
    (each registers itself)."""
    for mod in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{mod.name}")
    return sorted(_FAMILIES.values(), key=lambda f: (f.order, f.name))
